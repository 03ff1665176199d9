/* The generated inference programs (model/generate.c, layers.c): every
 * family's prefill and decode step, at test size, verifies, prints to text
 * that parses back equal, and runs compiled on trn2 and tpu-v5e with the
 * interpreter's outputs (as `npusim run --check`); the program does not grow
 * with depth; a decode step continues a prefill (the cache is right); a
 * sliding window hides what lies outside it; bad workloads are refused
 * naming the field. */
#include "tests/model/model_test_util.h"

static void test_generate_inference_compiled_matches_interpreter(void **state)
{
    (void)state;
    static const char *const chips[] = {"trn2", "tpu-v5e"};
    for (int f = 0; f < N_TINY; f++)
        for (int k = MDL_PREFILL; k <= MDL_DECODE; k++) {
            struct mdl_config c = tiny_config(f, NULL);
            struct mdl_workload w = tiny_workload((enum mdl_workload_kind)k, 2, 16);
            struct graph_module *m = gen_or_fail(&c, &w);
            struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
            char label[160];
            snprintf(label, sizeof label, "%s %s", tiny_models[f].label, mdl_workload_name(w.kind));
            for (size_t ch = 0; ch < ARRAY_LEN(chips); ch++) check_compiled(label, m, chips[ch], in, n_args(m), 0);
            free_inputs(in, n_args(m));
            graph_module_destroy(m);
        }
}

static void test_generate_text_reads_back_equal(void **state)
{
    (void)state;
    for (int f = 0; f < N_TINY; f++) {
        struct mdl_config c = tiny_config(f, NULL);
        struct mdl_workload w = tiny_workload(MDL_DECODE, 2, 16);
        struct graph_module *m = gen_or_fail(&c, &w), *back = NULL;
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(graph_print_str(m, &text, &len), BASE_OK);
        struct base_diag d;
        base_diag_clear(&d);
        struct graph_parse_options po = {.path = "model.mlir"};
        if (graph_parse(text, len, &po, &back, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("%s: the printed program does not parse", tiny_models[f].label);
        }
        assert_true(graph_module_equal(m, back));
        assert_int_equal(m->n_values, back->n_values);
        assert_int_equal(m->n_ops, back->n_ops);
        free(text);
        graph_module_destroy(back);
        graph_module_destroy(m);
    }
}

static int loops_and_ops(const struct graph_block *b, int *n_while)
{
    int n = 0;
    for (int i = 0; i < b->n_ops; i++) {
        n++;
        if (b->ops[i]->kind == GRAPH_OP_WHILE) (*n_while)++;
        for (int r = 0; r < b->ops[i]->n_regions; r++) n += loops_and_ops(&b->ops[i]->regions[r].blocks[0], n_while);
    }
    return n;
}

static void test_generate_size_is_independent_of_depth(void **state)
{
    (void)state;
    for (int f = 0; f < N_TINY; f++)
        for (int k = 0; k < MDL_WORKLOAD_COUNT; k++) {
            int ops[2], loops[2] = {0, 0};
            for (int v = 0; v < 2; v++) {
                struct mdl_config c = tiny_config(f, v ? "layers=12" : NULL);
                struct mdl_workload w = tiny_workload((enum mdl_workload_kind)k, 2, 16);
                struct graph_module *m = gen_or_fail(&c, &w);
                ops[v] = loops_and_ops(&m->body, &loops[v]);
                graph_module_destroy(m);
            }
            if (ops[0] != ops[1]) fail_msg("%s: %d ops with its layers, %d with 12", tiny_models[f].label, ops[0], ops[1]);
            struct mdl_config c = tiny_config(f, NULL);
            struct mdl_weights ws;
            mdl_weights_of(&c, &ws);
            /* a loop per layer group; training: forward and backward */
            assert_int_equal(loops[0], ws.n_groups * (k == MDL_TRAIN ? 2 : 1));
        }
}

/* Values of output 0 (logits [B, V]) of run(m, in). */
static struct base_tensor *logits_of(const struct graph_module *m, struct base_tensor *const *in, int n,
                                     struct base_tensor **caches, int n_caches)
{
    struct interp_result r;
    interp_or_fail(m, in, n, &r);
    struct base_tensor *l = base_tensor_retain(r.outputs[0]);
    for (int i = 0; i < n_caches; i++) caches[i] = base_tensor_retain(r.outputs[1 + i]);
    interp_result_free(&r);
    return l;
}

/* A decode step at position S - 1, on the caches a prefill of the first
 * S - 1 tokens filled (the last position holding another token's keys),
 * gives the logits a prefill of all S tokens gives (f32, no token dropped:
 * capacity for every token). */
static void test_decode_continues_a_prefill(void **state)
{
    (void)state;
    const int64_t B = 2, S = 8;
    for (int f = 0; f < N_TINY; f++) {
        struct mdl_config c = tiny_config(f, "dtype=f32");
        if (c.experts) c.capacity_factor = (double)c.experts;
        struct mdl_workload wp = tiny_workload(MDL_PREFILL, B, S), wd = tiny_workload(MDL_DECODE, B, S);
        struct graph_module *mp = gen_or_fail(&c, &wp), *md = gen_or_fail(&c, &wd);
        struct base_tensor **in = inputs_or_fail(&c, &wp, mp, test_seed());
        int np = n_args(mp), nd = n_args(md);
        int n_caches = nd - 2 - (np - 1);
        struct base_tensor **caches = calloc((size_t)n_caches + 1, sizeof *caches);
        struct base_tensor *want = logits_of(mp, in, np, caches, 0);
        /* the prefill again with the last token changed: its caches */
        struct base_tensor *tok = in[0], *junk = NULL;
        assert_int_equal(base_tensor_clone(tok, &junk), BASE_OK);
        for (int64_t b = 0; b < B; b++) {
            int64_t t = base_elem_get_i64(junk->dtype, junk->data, (size_t)(b * S + S - 1));
            base_elem_set_i64(junk->dtype, junk->data, (size_t)(b * S + S - 1), (t + 17) % c.vocab);
        }
        in[0] = junk;
        struct base_tensor *other = logits_of(mp, in, np, caches, n_caches);
        in[0] = tok;
        /* decode: tokens [B, 1] = the last tokens, pos, caches, weights */
        struct base_tensor **din = calloc((size_t)nd + 1, sizeof *din);
        assert_int_equal(base_tensor_create(BASE_DT_SI32, 2, (int64_t[]){B, 1}, &din[0]), BASE_OK);
        for (int64_t b = 0; b < B; b++)
            base_elem_set_i64(BASE_DT_SI32, din[0]->data, (size_t)b,
                              base_elem_get_i64(tok->dtype, tok->data, (size_t)(b * S + S - 1)));
        assert_int_equal(base_tensor_create(BASE_DT_SI32, 0, NULL, &din[1]), BASE_OK);
        base_elem_set_i64(BASE_DT_SI32, din[1]->data, 0, S - 1);
        for (int i = 0; i < n_caches; i++) din[2 + i] = base_tensor_retain(caches[i]);
        for (int i = 1; i < np; i++) din[2 + n_caches + i - 1] = base_tensor_retain(in[i]);
        struct base_tensor *got = logits_of(md, din, nd, NULL, 0);
        double scale = max_abs(want), err = 0, moved = 0;
        for (int64_t k = 0; k < want->count; k++) {
            double a = base_elem_get_f64(want->dtype, want->data, (size_t)k);
            err = fmax(err, fabs(base_elem_get_f64(got->dtype, got->data, (size_t)k) - a));
            moved = fmax(moved, fabs(base_elem_get_f64(other->dtype, other->data, (size_t)k) - a));
        }
        if (err > 1e-4 * scale) fail_msg("%s: decode differs from prefill by %g (scale %g)", tiny_models[f].label, err, scale);
        /* and the changed token did change the prefill's logits: the test can fail */
        assert_true(moved > 1e-2 * scale);
        base_tensor_release(want);
        base_tensor_release(other);
        base_tensor_release(got);
        base_tensor_release(junk);
        for (int i = 0; i < n_caches; i++) base_tensor_release(caches[i]);
        free(caches);
        free_inputs(din, nd);
        free_inputs(in, np);
        graph_module_destroy(mp);
        graph_module_destroy(md);
    }
}

/* One gpt-oss layer (layer 0: windowed) with a window of 2: the last
 * position's logits do not see token 0, and do see token S - 2. */
static void test_sliding_window_hides_older_tokens(void **state)
{
    (void)state;
    const int64_t S = 6;
    int f = 6;
    assert_non_null(strstr(tiny_models[f].label, "gpt-oss"));
    struct mdl_config c = tiny_config(f, "layers=1,sliding_window=2,dtype=f32");
    c.capacity_factor = (double)c.experts;
    struct mdl_workload w = tiny_workload(MDL_PREFILL, 1, S);
    struct graph_module *m = gen_or_fail(&c, &w);
    struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
    int n = n_args(m);
    struct base_tensor *base = logits_of(m, in, n, NULL, 0);
    double diff[2];
    for (int v = 0; v < 2; v++) {
        int64_t at = v ? S - 2 : 0;
        int64_t t = base_elem_get_i64(in[0]->dtype, in[0]->data, (size_t)at);
        base_elem_set_i64(in[0]->dtype, in[0]->data, (size_t)at, (t + 5) % c.vocab);
        struct base_tensor *l = logits_of(m, in, n, NULL, 0);
        base_elem_set_i64(in[0]->dtype, in[0]->data, (size_t)at, t);
        diff[v] = 0;
        for (int64_t k = 0; k < l->count; k++)
            diff[v] = fmax(diff[v], fabs(base_elem_get_f64(l->dtype, l->data, (size_t)k) -
                                         base_elem_get_f64(base->dtype, base->data, (size_t)k)));
        base_tensor_release(l);
    }
    assert_true(diff[0] == 0);
    assert_true(diff[1] > 1e-3);
    base_tensor_release(base);
    free_inputs(in, n);
    graph_module_destroy(m);
}

static void test_generate_refuses_bad_workloads_naming_the_field(void **state)
{
    (void)state;
    static const struct {
        int family;
        const char *more;
        enum mdl_workload_kind kind;
        int64_t batch, seq;
        const char *frag;
    } cases[] = {
        {0, NULL, MDL_PREFILL, 0, 16, "batch must be positive"},
        {0, NULL, MDL_DECODE, 1, 0, "seq must be positive"},
        {3, NULL, MDL_PREFILL, 1, 64, "exceeds the 32 learned positions"},
        {0, "kv_heads=3", MDL_PREFILL, 1, 16, "kv_heads"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct mdl_config c = tiny_config(cases[i].family, cases[i].more);
        struct mdl_workload w = tiny_workload(cases[i].kind, cases[i].batch, cases[i].seq);
        struct graph_module *m = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(mdl_generate(&c, &w, &m, &d), BASE_ERR_INVALID);
        assert_null(m);
        if (!strstr(d.msg, cases[i].frag)) fail_msg("case %zu: '%s'", i, d.msg);
    }
}

TEST_MAIN(NULL, NULL, T(test_generate_inference_compiled_matches_interpreter), T(test_generate_text_reads_back_equal),
          T(test_generate_size_is_independent_of_depth), T(test_decode_continues_a_prefill),
          T(test_sliding_window_hides_older_tokens), T(test_generate_refuses_bad_workloads_naming_the_field))
