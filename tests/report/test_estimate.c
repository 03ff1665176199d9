/* The estimator (report/estimate.c, estimate_write.c): the row arithmetic
 * against hand computation, the memory model and fit, the layout search on
 * a toy cost, prices, parsing, a graph on several systems, and the JSON and
 * CSV keys documented in docs/estimate.md. */
#include "tests/prog.h"
#include "tests/runtime/loop_programs.h"

#include "report/estimate.h"

#include <math.h>
#include <stdio.h>

static void load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load %s", name);
    }
}

static void near(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= 1e-12 * fabs(want))) fail_msg("%s: %.17g, want %.17g", what, got, want);
}

/* tokens/s, MFU, $ per step and per 1M tokens, computed by hand: 256 chips,
 * a 2.5 s step of 2^20 tokens, 1.2e17 FLOPs, 918e12 FLOP/s per chip, $2.70
 * per chip-hour. */
static void test_estimate_row_arithmetic(void **state)
{
    (void)state;
    struct rep_compare_row r;
    memset(&r, 0, sizeof r);
    r.chips = 256;
    r.step_ps = 2500000000000ull;
    r.model_flops = 1.2e17;
    r.peak_flops = 918e12;
    r.thr.tokens_per_step = 1048576;
    r.thr.has_price = true;
    r.thr.usd_per_chip_hour = 2.70;
    rep_est_row_finish(&r);
    near(r.thr.step_s, 2.5, "step_s");
    near(r.thr.tokens_per_s, 419430.4, "tokens/s");
    near(r.thr.tokens_per_s_per_chip, 1638.4, "tokens/s/chip");
    near(r.mfu, 1.2e17 / (2.5 * 256 * 918e12), "mfu");
    assert_true(fabs(r.mfu - 0.2042484) < 1e-6);
    near(r.thr.usd_per_step, 0.48, "$/step");          /* 2.70 x 256 x 2.5 / 3600 */
    near(r.thr.usd_per_mtok, 0.48 / 1.048576, "$/1M"); /* 0.4577... */
    /* no price: no $ figures, the rest as before */
    r.thr.has_price = false;
    rep_est_row_finish(&r);
    assert_true(r.thr.usd_per_step == 0 && r.thr.usd_per_mtok == 0);
    near(r.thr.tokens_per_s, 419430.4, "tokens/s without a price");
}

/* The memory model: a 1e9-parameter model (bf16 compute, f32 master),
 * trained with fsdp 8, by hand; inference with tp 2 and a KV cache. */
static void test_estimate_memory_fit(void **state)
{
    (void)state;
    struct rep_est_model_size m = {.params = 1e9, .params_active = 1e9, .layers = 16, .hidden = 2048, .heads = 16,
                                   .kv_heads = 4, .head_dim = 128, .ffn = 8192, .vocab = 32000, .dtype_bytes = 2,
                                   .master_bytes = 4};
    struct rep_est_layout l = {1, 8, 1, 1, 1, 1, 0};
    struct rep_memory mem;
    rep_est_memory(&m, REP_TRAIN, 16, 1024, &l, 32e9, &mem);
    near(mem.weights, 5e8, "weights");
    near(mem.optimizer, 1e9, "optimizer");
    near(mem.gradients, 5e8, "gradients");
    /* b = 16 / 8 = 2 sequences: 16 layer inputs of 2 x 1024 x 2048 x 2 bytes,
     * one layer's working set 1024*2*2048*(10+24) + 5*16*1024*1024*2 bytes,
     * the f32 logits and their gradient 2 x 2 x 1024 x 32000 x 4 */
    double want = 16.0 * 2 * 1024 * 2048 * 2 + (1024.0 * 2 * 2048 * 34 + 5.0 * 16 * 1024 * 1024 * 2) +
                  2.0 * 2 * 1024 * 32000 * 4;
    near(mem.activations, want, "activations");
    near(mem.kv_cache, 0, "kv");
    near(mem.total, 5e8 + 1e9 + 5e8 + want, "total");
    assert_true(mem.fits && mem.modelled);
    rep_est_memory(&m, REP_TRAIN, 16, 1024, &l, 2e9, &mem); /* 2 GB is too little */
    assert_false(mem.fits);
    /* decode, tp 2: bf16 weights halved; KV 2 x 16 x 8 x 4096 x (4 / 2) x 128 x 2 */
    struct rep_est_layout t = {1, 1, 2, 1, 1, 1, 0};
    rep_est_memory(&m, REP_DECODE, 8, 4096, &t, 32e9, &mem);
    near(mem.weights, 1e9, "decode weights");
    near(mem.optimizer + mem.gradients, 0, "decode state");
    near(mem.kv_cache, 2.0 * 16 * 8 * 4096 * 2 * 128 * 2, "kv cache");
    /* tp beyond the KV heads: each rank holds one head */
    struct rep_est_layout t8 = {1, 1, 8, 1, 1, 1, 0};
    rep_est_memory(&m, REP_DECODE, 8, 4096, &t8, 32e9, &mem);
    near(mem.kv_cache, 2.0 * 16 * 8 * 4096 * 1 * 128 * 2, "kv cache, tp 8");
}

/* A toy cost: the step of a layout is known; the search must pick the
 * cheapest that fits, simulate no more than it is allowed, in rank order,
 * and skip a layout the evaluator refuses. */
struct toy {
    int evaluated;
    int order[16];
};

static uint64_t toy_cost_ps(const struct rep_est_layout *l)
{
    /* tp 4 is best, pp costs, and dp 8 x tp 1 is refused below */
    return (uint64_t)(1000 + 100 * abs(l->tp - 4) + 50 * (l->pp - 1)) * 1000000ull;
}

static enum base_status toy_eval(void *user, const struct rep_est_layout *l, struct rep_compare_row *row,
                                 struct base_diag *diag)
{
    (void)diag;
    struct toy *t = user;
    t->order[t->evaluated++ % 16] = l->tp * 100 + l->pp;
    if (l->tp == 1 && l->pp == 1) {
        row->ok = false;
        snprintf(row->error, sizeof row->error, "refused");
        return BASE_OK;
    }
    row->ok = true;
    row->step_ps = toy_cost_ps(l);
    row->thr.tokens_per_step = 1000;
    row->thr.has_price = true;
    row->thr.usd_per_chip_hour = 2;
    rep_est_row_finish(row);
    return BASE_OK;
}

static void test_estimate_search_picks_the_known_best(void **state)
{
    (void)state;
    /* 8 chips: (tp, pp) in {1,2,4,8} x {1,2}; tp 8 "does not fit" */
    struct rep_est_candidate c[8];
    int n = 0;
    for (int tp = 1; tp <= 8; tp *= 2)
        for (int pp = 1; pp <= 2; pp++) {
            if (tp * pp > 8) continue;
            struct rep_est_candidate *x = &c[n++];
            memset(x, 0, sizeof *x);
            x->layout = (struct rep_est_layout){8 / tp / pp, 1, tp, 1, 1, pp, 0};
            x->mem.fits = tp < 8;
            x->mem.total = 1e9 * tp;
            x->rank_s = (double)toy_cost_ps(&x->layout) * 1e-12;
        }
    struct toy t = {0, {0}};
    struct rep_compare_row best;
    memset(&best, 0, sizeof best);
    best.chips = 8;
    struct base_diag d;
    base_diag_clear(&d);
    /* every fitting layout simulated: tp 4, pp 1 wins */
    assert_int_equal(rep_est_search(c, n, 100, toy_eval, &t, &best, &d), BASE_OK);
    assert_true(best.ok);
    assert_int_equal(best.layouts_considered, n);
    assert_int_equal(best.layouts_fit, n - 1);
    assert_int_equal(best.layouts_simulated, n - 2); /* tp 1 x pp 1 is refused */
    assert_int_equal(best.step_ps, toy_cost_ps(&(struct rep_est_layout){2, 1, 4, 1, 1, 1, 0}));
    assert_true(best.layout_searched);
    /* two simulations: the two best ranked, best first */
    memset(&t, 0, sizeof t);
    memset(&best, 0, sizeof best);
    best.chips = 8;
    assert_int_equal(rep_est_search(c, n, 2, toy_eval, &t, &best, &d), BASE_OK);
    assert_int_equal(t.evaluated, 2);
    assert_int_equal(t.order[0], 401);
    assert_int_equal(best.layouts_simulated, 2);
    /* a refused layout does not count: with the refused tp 1 ranked first,
     * three evaluations give two simulations */
    for (int i = 0; i < n; i++)
        if (c[i].layout.tp == 1 && c[i].layout.pp == 1) c[i].rank_s = 0;
    memset(&t, 0, sizeof t);
    memset(&best, 0, sizeof best);
    best.chips = 8;
    assert_int_equal(rep_est_search(c, n, 2, toy_eval, &t, &best, &d), BASE_OK);
    assert_int_equal(t.evaluated, 3);
    assert_int_equal(t.order[0], 101);
    assert_int_equal(best.layouts_simulated, 2);
    assert_int_equal(best.step_ps, toy_cost_ps(&(struct rep_est_layout){2, 1, 4, 1, 1, 1, 0}));
    assert_int_equal(best.step_ps, toy_cost_ps(&(struct rep_est_layout){2, 1, 4, 1, 1, 1, 0}));
    /* nothing fits: no figures, and the error says how close it came */
    for (int i = 0; i < n; i++) c[i].mem.fits = false;
    memset(&best, 0, sizeof best);
    assert_int_equal(rep_est_search(c, n, 3, toy_eval, &t, &best, &d), BASE_OK);
    assert_false(best.ok);
    assert_non_null(strstr(best.error, "does not fit"));
}

/* The layouts of 16 chips for 32 heads, 30 layers, batch 8. */
static void test_estimate_layouts_respect_the_model(void **state)
{
    (void)state;
    struct rep_est_model_size m = {.params = 1e9, .layers = 30, .heads = 32, .kv_heads = 8, .hidden = 4096};
    struct rep_est_layout ls[256];
    int n = rep_est_layouts(16, &m, REP_TRAIN, 8, ls, 256);
    assert_true(n > 0 && n <= 256);
    bool saw_tp16 = false;
    for (int i = 0; i < n; i++) {
        assert_int_equal(rep_est_layout_devices(&ls[i]), 16);
        assert_int_equal(30 % ls[i].pp, 0);
        assert_int_equal(32 % ls[i].tp, 0);
        assert_int_equal(8 % (ls[i].dp * ls[i].fsdp), 0);
        if (ls[i].pp > 1) assert_int_equal((8 / (ls[i].dp * ls[i].fsdp)) % (2 * ls[i].pp), 0);
        saw_tp16 |= ls[i].tp == 16;
    }
    assert_true(saw_tp16);
    /* the rank: pp adds a bubble, so tp=16 beats pp=2 x tp=8 on one chip kind */
    struct chip_desc chip;
    load_chip("tpu-v6e", &chip);
    m.params_active = m.params;
    m.dtype_bytes = 2;
    m.master_bytes = 4;
    m.vocab = 32000;
    m.head_dim = 128;
    double r1 = rep_est_rank(&m, REP_TRAIN, 64, 1024, &(struct rep_est_layout){1, 16, 1, 1, 1, 1, 0}, &chip);
    assert_true(r1 > 0);
}

/* Prices: an override wins, else the default row, else the chip file;
 * a pricing the table lacks is no price. */
static void test_estimate_prices(void **state)
{
    (void)state;
    struct chip_prices table;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_prices_load(NULL, &table, &d), BASE_OK);
    struct rep_est_prices p;
    memset(&p, 0, sizeof p);
    p.table = &table;
    p.pricing = -1;
    struct chip_desc v6e, trn3;
    load_chip("tpu-v6e", &v6e);
    load_chip("trn3", &trn3);
    struct rep_throughput t;
    rep_est_price(&p, &v6e, &t);
    assert_true(t.has_price && !t.price_is_estimate);
    near(t.usd_per_chip_hour, 2.70, "v6e default");
    assert_non_null(strstr(t.price_basis, "on-demand"));
    rep_est_price(&p, &trn3, &t);
    assert_false(t.has_price);
    p.pricing = CHIP_PRICING_COMMIT_3Y;
    rep_est_price(&p, &v6e, &t);
    near(t.usd_per_chip_hour, 1.22, "v6e 3y");
    assert_true(t.price_is_estimate); /* a secondary source */
    p.pricing = CHIP_PRICING_SPOT;
    p.region = "asia-south1";
    rep_est_price(&p, &v6e, &t);
    assert_false(t.has_price);
    assert_int_equal(rep_est_price_override(&p, "trn3=4.5", &d), BASE_OK);
    assert_int_equal(rep_est_price_override(&p, "tpu-v6e=1.5", &d), BASE_OK);
    rep_est_price(&p, &trn3, &t);
    near(t.usd_per_chip_hour, 4.5, "override");
    assert_string_equal(t.price_basis, "--price");
    rep_est_price(&p, &v6e, &t);
    near(t.usd_per_chip_hour, 1.5, "override over the table");
    assert_int_equal(rep_est_price_override(&p, "tpu-v6e=-2", &d), BASE_ERR_INVALID);
    assert_int_equal(rep_est_price_override(&p, "=2", &d), BASE_ERR_INVALID);
    /* no table: the chip file */
    struct rep_est_prices none;
    memset(&none, 0, sizeof none);
    none.pricing = -1;
    rep_est_price(&none, &v6e, &t);
    near(t.usd_per_chip_hour, v6e.price_per_chip_hour_usd, "chip file");
    chip_prices_free(&table);
}

static void test_estimate_parse_systems_and_layouts(void **state)
{
    (void)state;
    struct rep_est_system s[4];
    int n;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_est_systems_parse("tpu-v6e:256,trn2:64,trn1", s, 4, &n, &d), BASE_OK);
    assert_int_equal(n, 3);
    assert_string_equal(s[1].chip, "trn2");
    assert_int_equal(s[1].chips, 64);
    assert_int_equal(s[2].chips, 1);
    assert_int_equal(rep_est_systems_parse("tpu-v6e:0", s, 4, &n, &d), BASE_ERR_INVALID);
    assert_int_equal(d.col, 9);
    base_diag_clear(&d);
    assert_int_equal(rep_est_systems_parse("a,,b", s, 4, &n, &d), BASE_ERR_INVALID);
    assert_int_equal(d.col, 3);
    struct rep_est_layout l;
    assert_int_equal(rep_est_layout_parse("fsdp=64,tp=4", &l, &d), BASE_OK);
    assert_int_equal(rep_est_layout_devices(&l), 256);
    char buf[64];
    rep_est_layout_str(&l, buf, sizeof buf);
    assert_string_equal(buf, "fsdp=64,tp=4");
    base_diag_clear(&d);
    assert_int_equal(rep_est_layout_parse("dp=2,xp=4", &l, &d), BASE_ERR_INVALID);
    assert_int_equal(d.col, 6);
    assert_int_equal(rep_est_layout_parse("pp=4,mb=8,dp=2", &l, &d), BASE_OK);
    rep_est_layout_str(&l, buf, sizeof buf);
    assert_string_equal(buf, "dp=2,pp=4,mb=8");
}

static struct graph_module *tp_loop(void)
{
    static char buf[1 << 15];
    size_t n = loop_program(buf, sizeof buf, 8, 64, 256, 256, 4, false);
    assert_true(n > 0);
    return prog_parse(buf);
}

/* A 4-partition graph on 4 and 8 chips (2 replicas: twice the tokens in the
 * same step) and on 6 (not a multiple: a row with the error). */
static void test_estimate_graph_on_systems(void **state)
{
    (void)state;
    struct graph_module *m = tp_loop();
    struct rep_est_system sys[3] = {{"tpu-v6e", 4}, {"tpu-v6e", 8}, {"tpu-v6e", 6}};
    struct rep_est_request q;
    rep_est_request_default(&q);
    q.model = "loop.mlir";
    q.workload = REP_PREFILL;
    q.batch = 64;
    q.seq = 1;
    q.systems = sys;
    q.n_systems = 3;
    struct rep_estimate *e;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_estimate_graph(m, &q, &e, &d), BASE_OK);
    assert_int_equal(e->n_rows, 3);
    const struct rep_compare_row *a = &e->rows[0], *b = &e->rows[1], *c = &e->rows[2];
    assert_true(a->ok && b->ok && !c->ok);
    assert_non_null(strstr(c->error, "multiple of 4"));
    assert_int_equal(a->step_ps, b->step_ps);
    near(b->thr.tokens_per_step, 2 * a->thr.tokens_per_step, "replicas' tokens");
    near(b->thr.tokens_per_s, 2 * a->thr.tokens_per_s, "replicas' tokens/s");
    near(b->thr.tokens_per_s_per_chip, a->thr.tokens_per_s_per_chip, "tokens/s/chip");
    near(b->mfu, a->mfu, "mfu");
    assert_string_equal(a->layout, "4 partitions");
    assert_string_equal(b->layout, "4 partitions x 2");
    assert_true(a->mem.fits && !a->mem.modelled);
    assert_true(a->mem.plan_donated_bytes <= a->mem.plan_bytes);
    /* the loops were reused: 2 trips simulated, 6 charged */
    assert_int_equal(a->loop_trips_simulated, 2);
    assert_int_equal(a->loop_trips_reused, 6);
    /* the graph's FLOPs, x 4 partitions: 8 layers of 2 matmuls of 64 x 256 x
     * 256, a tanh and an add of 64 x 256 and the counter's add; 9 compares */
    near(a->model_flops, 4.0 * (8 * (2.0 * 2 * 64 * 256 * 256 + 2 * 64 * 256 + 1) + 9), "model flops");
    rep_estimate_destroy(e);
    graph_module_destroy(m);
}

/* A program written whole with a mesh and shardings (as `npusim model
 * --parallel` writes one) is partitioned first: 4 partitions, each a quarter
 * of the rows. */
static void test_estimate_graph_with_a_mesh_is_partitioned(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "sdy.mesh @mesh = <[\"data\"=4]>\n"
        "func.func @main(%x: tensor<256x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{\"data\"}, {}]>}, %w: "
        "tensor<512x512xbf16>) -> tensor<256x512xbf16> {\n"
        "  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x512xbf16>, "
        "tensor<512x512xbf16>) -> tensor<256x512xbf16>\n"
        "  return %y : tensor<256x512xbf16>\n}\n");
    struct rep_est_system sys[1] = {{"trn2", 4}};
    struct rep_est_request q;
    rep_est_request_default(&q);
    q.workload = REP_PREFILL;
    q.batch = 256;
    q.seq = 1;
    q.systems = sys;
    q.n_systems = 1;
    struct rep_estimate *e;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_estimate_graph(m, &q, &e, &d), BASE_OK);
    assert_true(e->rows[0].ok);
    assert_string_equal(e->rows[0].layout, "4 partitions");
    near(e->rows[0].model_flops, 2.0 * 256 * 512 * 512, "the whole product's FLOPs");
    rep_estimate_destroy(e);
    graph_module_destroy(m);
}

/* Every key the JSON and CSV writers print is documented in docs/estimate.md. */
static void expect_documented(const char *doc, const char *key, const char *where)
{
    char pat[96];
    snprintf(pat, sizeof pat, "`%s`", key);
    if (!strstr(doc, pat)) fail_msg("%s key '%s' is not in docs/estimate.md", where, key);
}

static void test_estimate_keys_are_documented(void **state)
{
    (void)state;
    char *doc;
    size_t len;
    struct base_diag d;
    base_diag_clear(&d);
    if (base_file_read("docs/estimate.md", &doc, &len, &d) != BASE_OK) fail_msg("cannot read docs/estimate.md");
    struct graph_module *m = tp_loop();
    struct rep_est_system sys[2] = {{"tpu-v6e", 4}, {"trn3", 4}};
    struct rep_est_request q;
    rep_est_request_default(&q);
    q.workload = REP_DECODE;
    q.batch = 64;
    q.systems = sys;
    q.n_systems = 2;
    struct rep_estimate *e;
    assert_int_equal(rep_estimate_graph(m, &q, &e, &d), BASE_OK);
    /* JSON: every "key": */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    rep_estimate_write_json(e, f);
    fclose(f);
    int keys = 0;
    for (char *p = buf; (p = strstr(p, "\": ")) != NULL; p += 3) {
        char *q0 = p;
        while (q0 > buf && q0[-1] != '"') q0--;
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(p - q0), q0);
        expect_documented(doc, key, "JSON");
        keys++;
    }
    assert_true(keys > 50);
    assert_non_null(strstr(buf, "\"usd_per_mtok\": null")); /* trn3 has no price */
    free(buf);
    /* CSV: the header's columns, and every line as many fields */
    buf = NULL;
    f = open_memstream(&buf, &n);
    rep_estimate_write_csv(e, f);
    fclose(f);
    char *nl = strchr(buf, '\n');
    assert_non_null(nl);
    *nl = 0;
    int cols = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        expect_documented(doc, tok, "CSV");
        cols++;
    }
    assert_true(cols > 40);
    free(buf);
    rep_estimate_destroy(e);
    graph_module_destroy(m);
    free(doc);
}

TEST_MAIN(NULL, NULL, T(test_estimate_row_arithmetic), T(test_estimate_memory_fit),
          T(test_estimate_search_picks_the_known_best), T(test_estimate_layouts_respect_the_model),
          T(test_estimate_prices), T(test_estimate_parse_systems_and_layouts), T(test_estimate_graph_on_systems),
          T(test_estimate_graph_with_a_mesh_is_partitioned),
          T(test_estimate_keys_are_documented))
