/* Traces that explain: kernel slices carry the run report's bytes and
 * FLOPs, every slice its op's whole location chain (the framework's names
 * and file:line:col), top ops grouped by kind, kernel and source line with
 * totals, every chip of a multi-chip run in the trace, JSON traces opened
 * like .npt, and two traces compared. */
#include "tests/traces/trace_test_util.h"

#include "interconnect/interconnect.h"
#include "tests/runtime/spmd_programs.h" /* k_overlap: an all_reduce and an independent matmul, 4 partitions */

/* Two matmuls and an exponential with JAX-style locations: the op's name
 * in the framework over a callsite of named Python frames, aliases at the
 * end (as jax.export writes them); the second matmul comes from the same
 * Python line as the first. */
static const char k_located[] =
    "func.func @main(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>) -> tensor<128x128xbf16> {\n"
    "  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xbf16>, tensor<128x128xbf16>) "
    "-> tensor<128x128xbf16> loc(#loc6)\n"
    "  %d = stablehlo.dot_general %c, %b, contracting_dims = [1] x [0] : (tensor<128x128xbf16>, tensor<128x128xbf16>) "
    "-> tensor<128x128xbf16> loc(#loc7)\n"
    "  %e = stablehlo.exponential %d : tensor<128x128xbf16> loc(#loc8)\n"
    "  return %e : tensor<128x128xbf16>\n"
    "}\n"
    "#loc1 = loc(\"/src/model.py\":25:10)\n"
    "#loc2 = loc(\"/src/train.py\":40:4)\n"
    "#loc3 = loc(\"/src/model.py\":31:8)\n"
    "#loc4 = loc(callsite(\"mlp\"(#loc1) at \"<module>\"(#loc2)))\n"
    "#loc5 = loc(callsite(\"act\"(#loc3) at \"<module>\"(#loc2)))\n"
    "#loc6 = loc(\"jit(step)/dot_general\"(#loc4))\n"
    "#loc7 = loc(\"jit(step)/dot_general\"(#loc4))\n"
    "#loc8 = loc(\"jit(step)/exp\"(#loc5))\n";

struct located {
    struct trc_trace *t;
    struct rt_report rep;
};

/* k_located (or text) compiled in mode on chip, run timing-only, recorded. */
static void run_located(const char *text, const char *chip_name, enum cc_mode mode, struct located *out)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    assert_int_equal(chip_load(chip_name, &chip, &d), BASE_OK);
    struct graph_module *m = NULL;
    struct graph_parse_options po;
    memset(&po, 0, sizeof po);
    po.path = "located.mlir";
    if (graph_parse(text, strlen(text), &po, &m, &d) != BASE_OK) fail_msg("parse: %s", d.msg);
    struct cc_options co;
    cc_options_default(&co);
    co.mode = mode;
    struct cc_plan *p = NULL;
    if (cc_compile(m, &chip, &co, &p, &d) != BASE_OK) fail_msg("compile: %s", d.msg);
    struct rec_recorder *rec = NULL;
    assert_int_equal(rec_recorder_create(&chip, 0, &rec), BASE_OK);
    assert_int_equal(rec_recorder_describe_plan(rec, p), BASE_OK);
    struct sim *s = NULL;
    recorded_run(&chip, p, rec, &out->rep, &s);
    assert_int_equal(rec_recorder_finish(rec, &out->t), BASE_OK);
    rec_recorder_destroy(rec);
    sim_destroy(s);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void located_free(struct located *l)
{
    trc_trace_destroy(l->t);
    rt_report_free(&l->rep);
}

static const struct trc_lane_data *kernels_lane(const struct trc_trace *t, uint32_t chip)
{
    for (uint32_t i = 0; i < t->n_lanes; i++)
        if (t->lanes[i].lane.kind == TRC_LANE_KERNELS && t->lanes[i].lane.chip == chip) return &t->lanes[i];
    fail_msg("no kernels lane on chip %u", chip);
    return NULL;
}

/* ------------------------------------------------------------ tests */

static void test_explain_kernel_slices_carry_the_reports_bytes_and_flops(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v6e"};
    for (int c = 0; c < 2; c++) {
        struct located r;
        run_located(k_located, chips[c], CC_MODE_EAGER, &r);
        const struct trc_lane_data *kl = kernels_lane(r.t, 0);
        assert_int_equal(kl->n_slices, r.rep.launches);
        uint64_t bytes = 0, flops = 0, sim_flops = 0, model = 0, hbm = 0;
        for (uint32_t k = 0; k < r.rep.n_kernels; k++) {
            const struct rt_kernel_stats *ks = &r.rep.kernels[k];
            uint64_t b = 0, f = 0, sf = 0;
            for (size_t i = 0; i < kl->n_slices; i++)
                if (kl->slices[i].a == k) {
                    b += kl->slices[i].bytes;
                    f += kl->slices[i].flops;
                    sf += kl->slices[i].c;
                }
            /* per kernel: the run report's HBM bytes and the plan's FLOPs; the simulator's in c */
            assert_int_equal(b, ks->hbm_bytes);
            assert_int_equal(f, ks->model_flops);
            assert_int_equal(sf, ks->flops);
            bytes += b, flops += f, sim_flops += sf, model += ks->model_flops, hbm += ks->hbm_bytes;
        }
        assert_true(flops == model && bytes == hbm);
        assert_true(flops >= 2ull * 2 * 128 * 128 * 128); /* the two matmuls */
        assert_true(bytes > 0 && sim_flops > 0);
        located_free(&r);
    }
}

static void test_explain_slices_carry_the_location_chain(void **state)
{
    (void)state;
    struct located r;
    run_located(k_located, "trn2", CC_MODE_EAGER, &r);
    const char *want = "jit(step)/dot_general @ mlp (/src/model.py:25:10) <- <module> (/src/train.py:40:4)";
    uint64_t with = 0, matmuls = 0;
    for (uint32_t i = 0; i < r.t->n_lanes; i++)
        for (size_t k = 0; k < r.t->lanes[i].n_slices; k++) {
            const struct trc_slice *s = &r.t->lanes[i].slices[k];
            const char *op = trc_trace_string(r.t, s->op);
            if (!strcmp(op, "stablehlo.dot_general")) {
                matmuls++;
                assert_string_equal(trc_trace_string(r.t, s->src), want);
                assert_non_null(strstr(trc_trace_string(r.t, s->loc), "located.mlir:"));
            }
            if (s->src) with++;
        }
    assert_true(matmuls > 10);
    /* the kernel slices too, and through .npt and JSON */
    assert_string_equal(trc_trace_string(r.t, r.t->strings.n ? kernels_lane(r.t, 0)->slices[0].src : 0), want);
    struct tmpdir dir;
    tmpdir_make(&dir);
    char p[256], q[256];
    struct base_diag d;
    base_diag_clear(&d);
    tmpdir_path(&dir, "a.npt", p, sizeof p);
    tmpdir_path(&dir, "a.json", q, sizeof q);
    assert_int_equal(trc_write_npt(r.t, p, &d), BASE_OK);
    assert_int_equal(trc_write_json(r.t, q, false, &d), BASE_OK);
    for (int k = 0; k < 2; k++) {
        struct trc_trace *b = NULL;
        assert_int_equal(trc_read(k ? q : p, &b, &d), BASE_OK);
        assert_int_equal(b->strings.n, r.t->strings.n);
        for (uint32_t i = 1; i < b->strings.n; i++) assert_string_equal(b->strings.s[i], r.t->strings.s[i]);
        const struct trc_lane_data *kl = kernels_lane(b, 0);
        assert_string_equal(trc_trace_string(b, kl->slices[0].src), want);
        trc_trace_destroy(b);
    }
    const char *names[] = {"a.npt", "a.json"};
    tmpdir_remove(&dir, names, 2);
    located_free(&r);
}

static const struct trc_group_row *row_of(const struct trc_groups *g, const char *key)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->rows[i].key, key)) return &g->rows[i];
    fail_msg("no row '%s'", key);
    return NULL;
}

static void test_explain_top_ops_group_by_kind_kernel_and_source_line(void **state)
{
    (void)state;
    struct located r;
    run_located(k_located, "trn2", CC_MODE_EAGER, &r);
    struct trc_stats s;
    assert_int_equal(trc_stats_compute(r.t, &s), BASE_OK);
    struct trc_groups g[TRC_GROUP_COUNT];
    for (int by = 0; by < TRC_GROUP_COUNT; by++) {
        assert_int_equal(trc_trace_groups(r.t, &s, (enum trc_group)by, &g[by]), BASE_OK);
        uint64_t sum = 0;
        for (size_t i = 0; i < g[by].n; i++) {
            sum += g[by].rows[i].time_ps;
            if (i) assert_true(g[by].rows[i].time_ps <= g[by].rows[i - 1].time_ps);
        }
        assert_int_equal(sum, g[by].total_ps);
    }
    /* engine time is the same whichever the grouping */
    for (int by = 1; by < TRC_GROUP_COUNT; by++) assert_int_equal(g[by].total_busy_ps, g[TRC_GROUP_OP].total_busy_ps);
    /* one row per graph op: the two matmuls apart; one per kind: together */
    assert_int_equal(g[TRC_GROUP_OP].n, 3);
    assert_int_equal(g[TRC_GROUP_KIND].n, 2);
    const struct trc_group_row *dot = row_of(&g[TRC_GROUP_KIND], "stablehlo.dot_general");
    assert_int_equal(dot->n_ops, 2);
    uint64_t two = 0;
    for (size_t i = 0; i < g[TRC_GROUP_OP].n; i++)
        if (strstr(g[TRC_GROUP_OP].rows[i].key, "dot_general")) two += g[TRC_GROUP_OP].rows[i].busy_ps;
    assert_int_equal(dot->busy_ps, two);
    /* by source line: the Python lines of the chain, the matmuls on one */
    assert_int_equal(g[TRC_GROUP_SOURCE].n, 2);
    assert_int_equal(row_of(&g[TRC_GROUP_SOURCE], "/src/model.py:25")->busy_ps, dot->busy_ps);
    assert_int_equal(row_of(&g[TRC_GROUP_SOURCE], "/src/model.py:31")->n_ops, 1);
    /* by kernel: wall time of the launches, which add up to the kernels' device time */
    assert_int_equal(g[TRC_GROUP_KERNEL].total_kernel_ps, r.rep.device_ps);
    const struct trc_group_row *kd = row_of(&g[TRC_GROUP_KERNEL], "dot_general");
    assert_int_equal(kd->launches, 2);
    /* the text: totals and shares */
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    trc_stats_write_text(r.t, &s, 10, TRC_GROUP_SOURCE, m);
    fclose(m);
    assert_non_null(strstr(buf, "by source line"));
    assert_non_null(strstr(buf, "/src/model.py:25"));
    assert_non_null(strstr(buf, "100.00%"));
    assert_non_null(strstr(buf, "(2 source lines)"));
    free(buf);
    for (int by = 0; by < TRC_GROUP_COUNT; by++) trc_groups_free(&g[by]);
    trc_stats_free(&s);
    located_free(&r);
}

static void test_explain_a_source_line_without_a_chain_is_the_mlir_line(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(trc_source_line("f (/a/m.py:3:4) <- g (/a/t.py:9:1)", "x.mlir:2:3", b, sizeof b), "/a/m.py:3");
    assert_string_equal(trc_source_line("aten__mm (model.py:12:0)", "x.mlir:2:3", b, sizeof b), "model.py:12");
    assert_string_equal(trc_source_line("dot.11164", "x.mlir:2:3", b, sizeof b), "x.mlir:2");
    assert_string_equal(trc_source_line("", "", b, sizeof b), "");
    enum trc_group gr;
    assert_true(trc_group_lookup("source", &gr) && gr == TRC_GROUP_SOURCE);
    assert_false(trc_group_lookup("line", &gr));
}

static void test_explain_every_chip_of_an_spmd_run_is_recorded(void **state)
{
    (void)state;
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct graph_module *m = NULL;
    struct graph_parse_options po;
    memset(&po, 0, sizeof po);
    po.path = "overlap.mlir";
    assert_int_equal(graph_parse(k_overlap, strlen(k_overlap), &po, &m, &d), BASE_OK);
    struct cc_plan *p = NULL;
    assert_int_equal(cc_compile(m, &chip, NULL, &p, &d), BASE_OK);
    enum { N = 4 };
    assert_int_equal(cc_plan_num_partitions(p), N);
    struct rec_recorder *recs[N];
    void *users[N];
    struct sim *sims[N];
    struct rt_report reps[N];
    memset(reps, 0, sizeof reps);
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    for (int c = 0; c < N; c++) {
        assert_int_equal(rec_recorder_create(&chip, (uint32_t)c, &recs[c]), BASE_OK);
        assert_int_equal(rec_recorder_describe_plan(recs[c], p), BASE_OK);
        users[c] = recs[c];
        so.hooks = rec_recorder_hooks(recs[c]);
        assert_int_equal(sim_create(&chip, &so, &sims[c], &d), BASE_OK);
    }
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    ro.on_launch = rec_recorder_on_launch;
    ro.launch_user = recs[0];
    ro.on_collective = rec_recorder_on_collective;
    ro.collective_user = recs[0];
    ro.chip_users = users;
    if (rt_run_spmd(p, sims, N, NULL, cc_plan_n_inputs(p), &ro, NULL, reps, &d) != BASE_OK) fail_msg("%s", d.msg);
    struct trc_trace *t = NULL;
    assert_int_equal(rec_recorder_finish(recs[0], &t), BASE_OK);
    for (int c = 1; c < N; c++) {
        struct trc_trace *tc = NULL;
        assert_int_equal(rec_recorder_finish(recs[c], &tc), BASE_OK);
        assert_int_equal(trc_trace_merge(t, tc), BASE_OK);
        trc_trace_destroy(tc);
    }
    assert_int_equal(trc_trace_validate(t, &d), BASE_OK);
    for (uint32_t c = 0; c < N; c++) {
        /* each chip: its kernels (the report's launches and device time), its engines, its collective, its links */
        const struct trc_lane_data *kl = kernels_lane(t, c);
        assert_int_equal(kl->n_slices, reps[c].launches);
        uint64_t dev = 0, engine = 0, colls = 0, links = 0;
        for (size_t i = 0; i < kl->n_slices; i++) dev += kl->slices[i].dur_ps;
        assert_int_equal(dev, reps[c].device_ps);
        for (uint32_t i = 0; i < t->n_lanes; i++) {
            const struct trc_lane_data *l = &t->lanes[i];
            if (l->lane.chip != c) continue;
            if (l->lane.kind == TRC_LANE_ENGINE) engine += l->n_slices;
            if (l->lane.kind == TRC_LANE_COLLECTIVE) colls += l->n_slices;
            if (l->lane.kind == TRC_LANE_LINK) {
                links++;
                char want[16];
                snprintf(want, sizeof want, " %u->", c); /* a link this chip sends on */
                assert_non_null(strstr(l->lane.name, want));
            }
        }
        assert_true(engine > 0);
        assert_int_equal(colls, reps[c].n_colls);
        assert_true(links >= 1);
    }
    /* the JSON: one process per chip */
    struct tmpdir dir;
    tmpdir_make(&dir);
    char path[256];
    tmpdir_path(&dir, "spmd.json", path, sizeof path);
    assert_int_equal(trc_write_json(t, path, false, &d), BASE_OK);
    size_t n;
    char *text = (char *)read_all(path, &n);
    text[n] = 0;
    for (int c = 0; c < N; c++) {
        char want[96];
        snprintf(want, sizeof want, "\"pid\":%d,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"chip%d trn2\"}", c + 1, c);
        assert_non_null(strstr(text, want));
    }
    free(text);
    const char *names[] = {"spmd.json"};
    tmpdir_remove(&dir, names, 1);
    trc_trace_destroy(t);
    for (int c = 0; c < N; c++) {
        rec_recorder_destroy(recs[c]);
        sim_destroy(sims[c]);
        rt_report_free(&reps[c]);
    }
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_explain_json_traces_open_like_npt(void **state)
{
    (void)state;
    struct located r;
    run_located(k_located, "trn2", CC_MODE_EAGER, &r);
    struct tmpdir dir;
    tmpdir_make(&dir);
    const char *names[] = {"t.npt", "t.json", "t.json.gz", "bad.json"};
    char p[4][256];
    for (int i = 0; i < 4; i++) tmpdir_path(&dir, names[i], p[i], sizeof p[i]);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(r.t, p[0], &d), BASE_OK);
    assert_int_equal(trc_write_json(r.t, p[1], false, &d), BASE_OK);
    assert_int_equal(trc_write_json(r.t, p[2], true, &d), BASE_OK);
    struct trc_file *f[3];
    for (int i = 0; i < 3; i++) assert_int_equal(trc_open(p[i], &f[i], &d), BASE_OK);
    for (int i = 1; i < 3; i++) {
        assert_int_equal(trc_file_n_lanes(f[i]), trc_file_n_lanes(f[0]));
        assert_int_equal(trc_file_end_ps(f[i]), trc_file_end_ps(f[0]));
        for (uint32_t l = 0; l < trc_file_n_lanes(f[0]); l++) {
            struct trc_slice_vec a = {NULL, 0, 0}, b = {NULL, 0, 0};
            assert_int_equal(trc_file_slices(f[0], l, 0, UINT64_MAX, &a, &d), BASE_OK);
            assert_int_equal(trc_file_slices(f[i], l, 0, UINT64_MAX, &b, &d), BASE_OK);
            assert_int_equal(a.n, b.n);
            assert_memory_equal(a.v, b.v, a.n * sizeof *a.v);
            trc_slice_vec_free(&a);
            trc_slice_vec_free(&b);
        }
        assert_int_equal(trc_file_verify(f[i], &d), BASE_OK);
    }
    for (int i = 0; i < 3; i++) trc_close(f[i]);
    /* a broken JSON is refused, located in the JSON file */
    FILE *bad = fopen(p[3], "w");
    fputs("{\"traceEvents\": [\n{\"ph\": \"X\", oops}\n]}", bad);
    fclose(bad);
    struct trc_file *x = NULL;
    base_diag_clear(&d);
    assert_int_equal(trc_open(p[3], &x, &d), BASE_ERR_PARSE);
    assert_null(x);
    assert_string_equal(d.file, p[3]);
    assert_int_equal(d.line, 2);
    tmpdir_remove(&dir, names, 4);
    located_free(&r);
}

static void test_explain_compare_matches_rows_across_traces(void **state)
{
    (void)state;
    struct located a, b;
    run_located(k_located, "trn2", CC_MODE_EAGER, &a);
    run_located(k_located, "tpu-v6e", CC_MODE_EAGER, &b);
    struct trc_stats sa, sb;
    assert_int_equal(trc_stats_compute(a.t, &sa), BASE_OK);
    assert_int_equal(trc_stats_compute(b.t, &sb), BASE_OK);
    struct trc_groups ga, gb;
    assert_int_equal(trc_trace_groups(a.t, &sa, TRC_GROUP_KIND, &ga), BASE_OK);
    assert_int_equal(trc_trace_groups(b.t, &sb, TRC_GROUP_KIND, &gb), BASE_OK);
    struct trc_diff_row *rows;
    size_t n;
    assert_int_equal(trc_groups_diff(&ga, &gb, &rows, &n), BASE_OK);
    assert_int_equal(n, 2); /* dot_general and exponential on both chips */
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(rows[i].a_row != SIZE_MAX && rows[i].b_row != SIZE_MAX);
        assert_int_equal(rows[i].a_ps, ga.rows[rows[i].a_row].time_ps);
        assert_int_equal(rows[i].b_ps, gb.rows[rows[i].b_row].time_ps);
        assert_int_equal(rows[i].delta_ps, (int64_t)rows[i].b_ps - (int64_t)rows[i].a_ps);
        if (i) assert_true(llabs(rows[i].delta_ps) <= llabs(rows[i - 1].delta_ps));
        sum += rows[i].delta_ps;
    }
    assert_int_equal(sum, (int64_t)gb.total_ps - (int64_t)ga.total_ps);
    free(rows);
    /* a row only one side has */
    struct trc_groups gk;
    assert_int_equal(trc_trace_groups(a.t, &sa, TRC_GROUP_KERNEL, &gk), BASE_OK);
    assert_int_equal(trc_groups_diff(&ga, &gk, &rows, &n), BASE_OK);
    bool one_sided = false;
    for (size_t i = 0; i < n; i++) one_sided |= rows[i].a_row == SIZE_MAX || rows[i].b_row == SIZE_MAX;
    assert_true(one_sided);
    free(rows);
    trc_groups_free(&gk);
    trc_groups_free(&ga);
    trc_groups_free(&gb);
    trc_stats_free(&sa);
    trc_stats_free(&sb);
    located_free(&a);
    located_free(&b);
}

TEST_MAIN(NULL, NULL, T(test_explain_kernel_slices_carry_the_reports_bytes_and_flops),
          T(test_explain_slices_carry_the_location_chain), T(test_explain_top_ops_group_by_kind_kernel_and_source_line),
          T(test_explain_a_source_line_without_a_chain_is_the_mlir_line),
          T(test_explain_every_chip_of_an_spmd_run_is_recorded), T(test_explain_json_traces_open_like_npt),
          T(test_explain_compare_matches_rows_across_traces))
