/* The parallel layouts (model/generate.c "Parallel layouts"): a generated
 * program carries a mesh and its arguments' shardings; the partitioner
 * turns it into one partition's program with no op run replicated, and
 * that program, on every partition of the interpreter, gives the unsharded
 * program's outputs, for each family and workload, data, FSDP, tensor,
 * sequence and expert parallel; the collectives are the layout's (none for
 * data-parallel inference, Megatron's two all_reduces per layer and a
 * vocabulary-parallel lookup, an
 * all_to_all each way for experts); a layout on simulated chips matches
 * too; layouts the sizes do not allow are refused naming the field. */
#include "tests/model/model_test_util.h"

#include "partition/partition.h"

static struct graph_module *partitioned(const struct graph_module *m, struct part_report *rep)
{
    struct graph_module *out = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (part_partition(m, NULL, NULL, NULL, 0, &out, rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("part_partition");
    }
    return out;
}

static int colls(const struct part_report *r, enum part_coll_kind k)
{
    int n = 0;
    for (int i = 0; i < r->n_colls; i++) n += r->colls[i].kind == k;
    return n;
}

/* |a - b| <= rel (|a| + max |a|) elementwise (sums in another order). */
static void expect_close(const struct base_tensor *a, const struct base_tensor *b, double rel, const char *what)
{
    assert_int_equal(a->count, b->count);
    double scale = base_dtype_is_float(a->dtype) ? max_abs(a) : 0;
    for (int64_t k = 0; k < a->count; k++) {
        double x = base_elem_get_f64(a->dtype, a->data, (size_t)k), y = base_elem_get_f64(b->dtype, b->data, (size_t)k);
        if (x == y || (isnan(x) && isnan(y))) continue;
        if (!(fabs(x - y) <= rel * (fabs(x) + scale)))
            fail_msg("%s: element %lld: %.9g vs %.9g", what, (long long)k, x, y);
    }
}

struct layout_case {
    int family;
    const char *par;
    int64_t batch;
};

static const struct layout_case cases[] = {
    {0, "dp=2,tp=2", 4}, {0, "fsdp=4", 4}, {0, "tp=2,sp=2", 2}, {3, "dp=2,tp=2", 4}, {2, "fsdp=2,tp=2", 4},
    {4, "dp=2,ep=2", 4}, {4, "ep=2,tp=2", 2}, {6, "dp=2,ep=2", 4}, {7, "dp=2,ep=2", 4}, {7, "tp=2,ep=2", 2},
};

static void test_layouts_partition_fully_and_match_the_unsharded_program(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        for (int k = 0; k < MDL_WORKLOAD_COUNT; k++) {
            if (k == MDL_DECODE && strstr(cases[i].par, "sp")) continue; /* one token: nothing to split */
            struct mdl_config c = tiny_config(cases[i].family, "dtype=f32");
            struct mdl_workload w = tiny_workload((enum mdl_workload_kind)k, cases[i].batch, 8);
            struct base_diag d;
            base_diag_clear(&d);
            assert_int_equal(mdl_parallel_parse(cases[i].par, &w.par, &d), BASE_OK);
            struct graph_module *m = gen_or_fail(&c, &w);
            struct part_report rep;
            struct graph_module *p = partitioned(m, &rep);
            int parts = mdl_parallel_devices(&w.par);
            assert_int_equal(part_mesh_size(&rep.mesh), parts);
            /* sequence parallel prefill: the last position's slice gathers the sequence */
            bool sp_last = strstr(cases[i].par, "sp") && k == MDL_PREFILL && rep.n_fallbacks == 1 &&
                           !strcmp(rep.fallback_ops[0], "stablehlo.slice");
            if (rep.n_fallbacks && !sp_last)
                fail_msg("%s %s %s: %d ops run replicated (the first %s, line %d)", tiny_models[cases[i].family].label,
                         cases[i].par, mdl_workload_name(w.kind), rep.n_fallbacks, rep.fallback_ops[0],
                         rep.fallback_locs[0].line);
            struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
            struct interp_result a, b;
            interp_or_fail(m, in, n_args(m), &a);
            struct interp_options io;
            memset(&io, 0, sizeof io);
            io.num_partitions = parts;
            memset(&b, 0, sizeof b);
            if (interp_run(p, NULL, in, n_args(m), &io, &b, &d) != BASE_OK) {
                base_diag_print(&d, stderr);
                fail_msg("interp_run of the partitioned program");
            }
            char what[200];
            for (int o = 0; o < a.n_outputs; o++) {
                snprintf(what, sizeof what, "%s %s %s output %d", tiny_models[cases[i].family].label, cases[i].par,
                         mdl_workload_name(w.kind), o);
                expect_close(a.outputs[o], b.outputs[o], 2e-4, what);
            }
            interp_result_free(&a);
            interp_result_free(&b);
            free_inputs(in, n_args(m));
            part_report_free(&rep);
            graph_module_destroy(p);
            graph_module_destroy(m);
        }
}

static struct part_report layout_report(int family, const char *par, enum mdl_workload_kind k, int64_t batch)
{
    struct mdl_config c = tiny_config(family, NULL);
    struct mdl_workload w = tiny_workload(k, batch, 8);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse(par, &w.par, &d), BASE_OK);
    struct graph_module *m = gen_or_fail(&c, &w);
    struct part_report rep;
    struct graph_module *p = partitioned(m, &rep);
    graph_module_destroy(p);
    graph_module_destroy(m);
    return rep;
}

static void test_layouts_have_their_collectives(void **state)
{
    (void)state;
    /* data-parallel inference: nothing to exchange */
    struct part_report r = layout_report(0, "dp=4", MDL_PREFILL, 4);
    assert_int_equal(r.n_colls, 0);
    part_report_free(&r);
    /* tensor parallel: the loop body's attention and MLP each end in one
     * all_reduce (Megatron's two per layer); the body is written once; also
     * over more ways (4) than the 2 kv heads, which are then repeated */
    for (int tp = 2; tp <= 4; tp += 2) {
        r = layout_report(0, tp == 2 ? "tp=2" : "tp=4", MDL_PREFILL, 1);
        /* and one for the lookup into the vocabulary-split embedding (Megatron's) */
        assert_int_equal(colls(&r, PART_ALL_REDUCE), 3);
        assert_int_equal(colls(&r, PART_ALL_GATHER), 0);
        part_report_free(&r);
    }
    /* expert parallel: one all_to_all to the experts and one back */
    r = layout_report(4, "ep=2", MDL_PREFILL, 2);
    assert_int_equal(colls(&r, PART_ALL_TO_ALL), 2);
    assert_int_equal(colls(&r, PART_ALL_GATHER), 0);
    part_report_free(&r);
    /* data-parallel training: gradients summed, nothing gathered */
    r = layout_report(0, "dp=4", MDL_TRAIN, 4);
    assert_int_equal(colls(&r, PART_ALL_GATHER), 0);
    assert_int_equal(colls(&r, PART_ALL_TO_ALL), 0);
    assert_true(colls(&r, PART_ALL_REDUCE) >= 9); /* each layer weight's gradient, the head's, the embedding's */
    part_report_free(&r);
    /* FSDP: the weights gathered before use */
    r = layout_report(0, "fsdp=4", MDL_PREFILL, 4);
    assert_true(colls(&r, PART_ALL_GATHER) >= 7);
    part_report_free(&r);
    /* and in training their gradients reduce-scattered (each layer weight's,
     * constrained like the weight), the weights gathered again for the
     * recomputed forward; only scalars (the loss, norms) all-reduced */
    r = layout_report(0, "fsdp=4", MDL_TRAIN, 4);
    assert_int_equal(colls(&r, PART_REDUCE_SCATTER), 9);
    assert_int_equal(colls(&r, PART_ALL_TO_ALL), 0);
    for (int i = 0; i < r.n_colls; i++)
        if (r.colls[i].kind == PART_ALL_REDUCE && r.colls[i].bytes > 256)
            fail_msg("an all_reduce of %lld bytes at line %d", (long long)r.colls[i].bytes, r.colls[i].loc.line);
    part_report_free(&r);
}

/* The arguments' shardings follow the roles: batch over dp/fsdp/ep, the
 * hidden size over fsdp, heads and MLP width over tp, experts over ep; kv
 * heads tp does not divide stay whole. */
static void test_layout_shards_arguments_by_role(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(4, NULL); /* mixtral: 4 heads, 2 kv heads */
    struct mdl_workload w = tiny_workload(MDL_PREFILL, 4, 8);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse("fsdp=2,tp=4,ep=2", &w.par, &d), BASE_OK);
    struct graph_module *m = gen_or_fail(&c, &w);
    struct part_report rep;
    struct graph_module *p = partitioned(m, &rep);
    char mesh[64] = "", buf[128];
    for (int a = 0; a < rep.mesh.n_axes; a++)
        snprintf(mesh + strlen(mesh), sizeof mesh - strlen(mesh), "%s%s=%lld", a ? "," : "", rep.mesh.names[a],
                 (long long)rep.mesh.sizes[a]);
    assert_string_equal(mesh, "fsdp=2,tp=4,ep=2");
    const struct graph_block *args = &graph_module_entry(m)->regions[0].blocks[0];
    static const struct {
        const char *arg, *sharding;
    } want[] = {
        {"tokens", "[{fsdp,ep}, _]"},       {"embed", "[tp, fsdp]"},          {"wq_0", "[_, fsdp, tp]"},
        {"wk_0", "[_, fsdp, _]"}, /* 2 kv heads: not over tp = 4 */
        {"wo_0", "[_, tp, fsdp]"},          {"we_gate_0", "[_, ep, fsdp, tp]"}, {"we_down_0", "[_, ep, tp, fsdp]"},
        {"router_0", "[_, fsdp, _]"},
    };
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        int k = -1;
        for (int a = 0; a < args->n_args; a++)
            if (args->args[a].name && !strcmp(args->args[a].name, want[i].arg)) k = a;
        assert_true(k >= 0);
        part_sharding_str(&rep.args[k], &rep.mesh, buf, sizeof buf);
        if (strcmp(buf, want[i].sharding)) fail_msg("%s: %s, not %s", want[i].arg, buf, want[i].sharding);
    }
    part_report_free(&rep);
    graph_module_destroy(p);
    graph_module_destroy(m);
}

/* Runs the layout `par` of (c, w) on n simulated trn2 chips with values:
 * every output as the interpreter's unsharded run gives it (as `npusim run
 * --chips n --check`). */
static void run_on_chips(const struct mdl_config *c, struct mdl_workload *w, const char *par, int n)
{
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse(par, &w->par, &d), BASE_OK);
    struct graph_module *m = gen_or_fail(c, w);
    struct part_report rep;
    struct graph_module *p = partitioned(m, &rep);
    struct chip_desc chip;
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct cc_plan *plan = NULL;
    if (cc_compile(p, &chip, NULL, &plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile");
    }
    assert_int_equal(cc_plan_num_partitions(plan), n);
    struct sim *sims[8];
    struct sim_options so;
    sim_options_default(&so);
    assert_true(n <= 8);
    for (int i = 0; i < n; i++) assert_int_equal(sim_create(&chip, &so, &sims[i], &d), BASE_OK);
    struct base_tensor **in = inputs_or_fail(c, w, m, test_seed());
    int no = cc_plan_n_outputs(plan);
    struct base_tensor **out = calloc((size_t)no + 1, sizeof *out);
    if (rt_run_spmd(plan, sims, n, in, n_args(m), NULL, out, NULL, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run_spmd");
    }
    struct interp_result gold;
    interp_or_fail(m, in, n_args(m), &gold);
    for (int i = 0; i < no; i++) {
        struct rt_compare cmp;
        rt_compare_output(plan, out[i], gold.outputs[i], &cmp);
        if (!cmp.passed)
            fail_msg("%s: output %d: %lld elements out of bound (worst %.9g vs %.9g)", par, i, (long long)cmp.n_bad,
                     cmp.got_at_worst, cmp.want_at_worst);
        base_tensor_release(out[i]);
    }
    free(out);
    interp_result_free(&gold);
    for (int i = 0; i < n; i++) sim_destroy(sims[i]);
    free_inputs(in, n_args(m));
    cc_plan_destroy(plan);
    part_report_free(&rep);
    graph_module_destroy(p);
    graph_module_destroy(m);
}

/* A training step, data and tensor parallel, on 4 chips. */
static void test_layout_runs_on_simulated_chips(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(0, "dtype=f32");
    struct mdl_workload w = tiny_workload(MDL_TRAIN, 4, 8);
    run_on_chips(&c, &w, "dp=2,tp=2", 4);
}

/* A bf16 prefill over 8 tensor-parallel chips: the all_reduces sum bf16
 * partials in the chips' order, and --check's tolerance allows for it (a
 * tp=8 llama3-8b failed --check in its logits before). */
static void test_layout_bf16_tensor_parallel_sums(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(0, "hidden=256,heads=8,kv_heads=8,head_dim=32,ffn=512,vocab=1024,dtype=bf16");
    struct mdl_workload w = tiny_workload(MDL_PREFILL, 1, 32);
    run_on_chips(&c, &w, "tp=8", 8);
}

static void test_layout_refuses_sizes_that_do_not_divide(void **state)
{
    (void)state;
    static const struct {
        int family;
        const char *par;
        int64_t batch;
        const char *frag;
    } bad[] = {
        {0, "dp=3", 4, "batch 4 does not divide over dp x fsdp x ep = 3"},
        {0, "tp=8", 4, "heads 4 do not divide over tp = 8"},
        {0, "ep=2", 4, "ep needs experts"},
        {4, "ep=3", 3, "experts 8 do not divide over ep = 3"},
        {0, "fsdp=128", 128, "hidden 64 does not divide over fsdp = 128"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        struct mdl_config c = tiny_config(bad[i].family, NULL);
        struct mdl_workload w = tiny_workload(MDL_PREFILL, bad[i].batch, 8);
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(mdl_parallel_parse(bad[i].par, &w.par, &d), BASE_OK);
        struct graph_module *m = NULL;
        assert_int_equal(mdl_generate(&c, &w, &m, &d), BASE_ERR_INVALID);
        if (!strstr(d.msg, bad[i].frag)) fail_msg("case %zu: '%s'", i, d.msg);
    }
    /* pipeline stages: not generated, and said so */
    struct mdl_config c = tiny_config(0, NULL);
    struct mdl_workload w = tiny_workload(MDL_TRAIN, 4, 8);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse("pp=2", &w.par, &d), BASE_OK);
    struct graph_module *m = NULL;
    assert_int_equal(mdl_generate(&c, &w, &m, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "pipeline"));
}

TEST_MAIN(NULL, NULL, T(test_layouts_partition_fully_and_match_the_unsharded_program),
          T(test_layouts_have_their_collectives), T(test_layout_shards_arguments_by_role),
          T(test_layout_runs_on_simulated_chips), T(test_layout_bf16_tensor_parallel_sums),
          T(test_layout_refuses_sizes_that_do_not_divide))
