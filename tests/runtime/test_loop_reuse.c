/* Loop reuse (rt_options.loop_reuse, runtime/runtime.c; sim_repeat,
 * sim/repeat.c): a timing-only run that simulates a few trips of a while
 * loop and charges the rest gives exactly the report of one that simulates
 * every trip: time, every kernel's figures, every collective run, the
 * engines' counters. */
#include "tests/prog.h"
#include "tests/runtime/loop_programs.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <stdio.h>

struct lrun {
    struct cc_plan *plan;
    struct rt_report rep;
    struct sim *sim;
};

static void load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load %s", name);
    }
}

/* Runs m timing-only on chip, with loop reuse (sample trips) or without. */
static void lrun_go(const struct graph_module *m, const struct chip_desc *chip, bool reuse, uint32_t sample,
                    struct lrun *r)
{
    memset(r, 0, sizeof *r);
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_options o;
    cc_options_default(&o);
    if (cc_compile(m, chip, &o, &r->plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile on %s", chip->name);
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    so.check_races = so.check_uninit = false;
    assert_int_equal(sim_create(chip, &so, &r->sim, &d), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    ro.loop_reuse = reuse;
    ro.loop_sample = sample;
    ro.max_steps = 10000000;
    if (rt_run(r->plan, r->sim, NULL, cc_plan_n_inputs(r->plan), &ro, NULL, &r->rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run on %s", chip->name);
    }
}

static void lrun_free(struct lrun *r)
{
    rt_report_free(&r->rep);
    sim_destroy(r->sim);
    cc_plan_destroy(r->plan);
}

/* Every figure of the two runs' reports and simulators, but the loop counts. */
static void expect_same_run(const struct lrun *a, const struct lrun *b, const char *what)
{
    const struct rt_report *x = &a->rep, *y = &b->rep;
#define EQ(f)                                                                                                          \
    do {                                                                                                               \
        if (x->f != y->f) fail_msg("%s: " #f " %g with reuse, %g without", what, (double)x->f, (double)y->f);         \
    } while (0)
    EQ(total_ps);
    EQ(device_ps);
    EQ(dispatch_ps);
    EQ(launches);
    EQ(steps);
    EQ(collectives);
    EQ(collective_bytes);
    EQ(collective_ps);
    EQ(collective_exposed_ps);
    EQ(n_colls);
    EQ(host_ops);
    EQ(host_bytes);
    EQ(host_ps);
#undef EQ
    assert_int_equal(x->n_kernels, y->n_kernels);
    for (uint32_t k = 0; k < x->n_kernels; k++) {
        const struct rt_kernel_stats *p = &x->kernels[k], *q = &y->kernels[k];
        if (memcmp(p, q, sizeof *p)) fail_msg("%s: kernel %u differs", what, k);
    }
    for (uint32_t i = 0; i < x->n_colls; i++) {
        const struct rt_collective *p = &x->colls[i], *q = &y->colls[i];
        if (p->op != q->op || p->start_ps != q->start_ps || p->time_ps != q->time_ps ||
            p->exposed_ps != q->exposed_ps || p->bytes != q->bytes || strcmp(p->algorithm, q->algorithm))
            fail_msg("%s: collective run %u differs (start %llu / %llu, exposed %llu / %llu)", what, i,
                     (unsigned long long)p->start_ps, (unsigned long long)q->start_ps,
                     (unsigned long long)p->exposed_ps, (unsigned long long)q->exposed_ps);
    }
    const struct sim_stats *s = sim_get_stats(a->sim), *t = sim_get_stats(b->sim);
    assert_int_equal(s->total_ps, t->total_ps);
    assert_int_equal(s->hbm_bytes, t->hbm_bytes);
    assert_int_equal(s->instructions, t->instructions);
    assert_int_equal(s->flops, t->flops);
    assert_true(s->hbm_busy_fraction == t->hbm_busy_fraction);
    assert_int_equal(s->n_engines, t->n_engines);
    for (uint32_t e = 0; e < s->n_engines; e++) {
        const struct sim_engine_stats *p = &s->engines[e], *q = &t->engines[e];
        if (p->busy_ps != q->busy_ps || p->wait_ps != q->wait_ps || p->instructions != q->instructions ||
            p->bytes != q->bytes || p->flops != q->flops || p->finish_ps != q->finish_ps)
            fail_msg("%s: engine %s of core %u differs", what, p->name, p->core);
    }
}

static struct graph_module *layer_loop(int layers, int batch, int d, int f, int tp, bool overlap)
{
    static char buf[1 << 15];
    size_t n = loop_program(buf, sizeof buf, layers, batch, d, f, tp, overlap);
    assert_true(n > 0);
    return prog_parse(buf);
}

static const char *const chips[] = {"trn2", "tpu-v6e"};

/* A mid-size layer loop (32 layers of two matmuls, 1024 -> 4096 -> 1024
 * on 256 tokens), on one chip and as 4 tensor-parallel partitions with an
 * all_reduce per layer, alone or hidden behind a matmul: the same report
 * with reuse as without. */
static void test_loop_reuse_gives_the_full_runs_report(void **state)
{
    (void)state;
    for (int v = 0; v < 3; v++) {
        int tp = v ? 4 : 1;
        struct graph_module *m = layer_loop(32, 256, 1024, 4096 / tp, tp, v == 2);
        for (size_t c = 0; c < ARRAY_LEN(chips); c++) {
            struct chip_desc chip;
            load_chip(chips[c], &chip);
            struct lrun a, b;
            lrun_go(m, &chip, true, 0, &a);
            lrun_go(m, &chip, false, 0, &b);
            char what[64];
            snprintf(what, sizeof what, "%s, tp %d%s", chips[c], tp, v == 2 ? ", overlapped" : "");
            expect_same_run(&a, &b, what);
            /* the default sample (2 trips) simulated, the other 30 charged */
            assert_int_equal(a.rep.loop_trips_simulated, 2);
            assert_int_equal(a.rep.loop_trips_reused, 30);
            assert_int_equal(b.rep.loop_trips_simulated, 32);
            assert_int_equal(b.rep.loop_trips_reused, 0);
            if (tp > 1) assert_int_equal(a.rep.n_colls, 32);
            if (v == 2) assert_true(a.rep.collective_exposed_ps < a.rep.collective_ps); /* some of it hidden */
            lrun_free(&a);
            lrun_free(&b);
        }
        graph_module_destroy(m);
    }
}

/* Loops in loops: 6 outer trips of a 5-trip inner loop and a matmul.  The
 * inner loop is reused inside each outer trip, then the outer loop's trips. */
static const char nested_src[] =
    "func.func @main(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<128x256xbf16> {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %o:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<128x256xbf16>\n"
    "  cond {\n"
    "    %n = stablehlo.constant dense<6> : tensor<i32>\n"
    "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %p : tensor<i1>\n"
    "  } do {\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %q:2 = stablehlo.while(%j = %c0, %u = %v) : tensor<i32>, tensor<128x256xbf16>\n"
    "    cond {\n"
    "      %m = stablehlo.constant dense<5> : tensor<i32>\n"
    "      %pp = stablehlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "      stablehlo.return %pp : tensor<i1>\n"
    "    } do {\n"
    "      %one2 = stablehlo.constant dense<1> : tensor<i32>\n"
    "      %h = stablehlo.dot_general %u, %w, contracting_dims = [1] x [0] : (tensor<128x256xbf16>, "
    "tensor<256x256xbf16>) -> tensor<128x256xbf16>\n"
    "      %t = stablehlo.tanh %h : tensor<128x256xbf16>\n"
    "      %j2 = stablehlo.add %j, %one2 : tensor<i32>\n"
    "      stablehlo.return %j2, %t : tensor<i32>, tensor<128x256xbf16>\n"
    "    }\n"
    "    %y = stablehlo.dot_general %q#1, %w, contracting_dims = [1] x [0] : (tensor<128x256xbf16>, "
    "tensor<256x256xbf16>) -> tensor<128x256xbf16>\n"
    "    %v2 = stablehlo.add %v, %y : tensor<128x256xbf16>\n"
    "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "    stablehlo.return %i2, %v2 : tensor<i32>, tensor<128x256xbf16>\n"
    "  }\n"
    "  func.return %o#1 : tensor<128x256xbf16>\n}\n";

static void test_loop_reuse_nested_loops(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(nested_src);
    for (size_t c = 0; c < ARRAY_LEN(chips); c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        struct lrun a, b;
        lrun_go(m, &chip, true, 0, &a);
        lrun_go(m, &chip, false, 0, &b);
        expect_same_run(&a, &b, chips[c]);
        /* outer: 2 trips simulated, each with 2 inner trips simulated and 3
         * reused; 4 outer trips reused */
        assert_int_equal(a.rep.loop_trips_simulated, 2 + 2 * 2);
        assert_int_equal(a.rep.loop_trips_reused, 4 + 2 * 3);
        assert_int_equal(b.rep.loop_trips_simulated, 6 + 6 * 5);
        lrun_free(&a);
        lrun_free(&b);
    }
    graph_module_destroy(m);
}

/* The sample is a lower bound: loop_sample trips are simulated before any is
 * charged, and a sample as long as the loop simulates every trip. */
static void test_loop_reuse_sample_is_simulated(void **state)
{
    (void)state;
    struct graph_module *m = layer_loop(12, 64, 256, 512, 1, false);
    struct chip_desc chip;
    load_chip("tpu-v6e", &chip);
    struct lrun full;
    lrun_go(m, &chip, false, 0, &full);
    const uint32_t samples[] = {1, 3, 5, 12, 40};
    for (size_t i = 0; i < ARRAY_LEN(samples); i++) {
        struct lrun a;
        lrun_go(m, &chip, true, samples[i], &a);
        expect_same_run(&a, &full, "sample");
        uint64_t sim = samples[i] < 2 ? 2 : samples[i] < 12 ? samples[i] : 12; /* at least 2 */
        assert_int_equal(a.rep.loop_trips_simulated, sim);
        assert_int_equal(a.rep.loop_trips_reused, 12 - sim);
        lrun_free(&a);
    }
    lrun_free(&full);
    graph_module_destroy(m);
}

/* sim_marks_periodic: growth alike from a to b and b to c, nothing else. */
static void test_loop_reuse_marks_tell_a_repeat(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    struct sim *s = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
    struct sim_mark *a, *b, *c;
    assert_int_equal(sim_mark_create(s, &a), BASE_OK);
    assert_int_equal(sim_advance(s, 1000, &d), BASE_OK);
    assert_int_equal(sim_mark_create(s, &b), BASE_OK);
    assert_int_equal(sim_advance(s, 1000, &d), BASE_OK);
    assert_int_equal(sim_mark_create(s, &c), BASE_OK);
    assert_true(sim_marks_periodic(a, b, c));
    assert_int_equal(sim_advance(s, 999, &d), BASE_OK);
    sim_mark_set(c, s);
    assert_false(sim_marks_periodic(a, b, c));
    /* sim_repeat moves the clock on by whole stretches */
    uint64_t t = sim_now_ps(s);
    assert_int_equal(sim_repeat(s, b, 4, &d), BASE_OK);
    assert_int_equal(sim_now_ps(s), t + 4 * (t - sim_mark_now_ps(b)));
    sim_mark_destroy(a);
    sim_mark_destroy(b);
    sim_mark_destroy(c);
    sim_destroy(s);
}

TEST_MAIN(NULL, NULL, T(test_loop_reuse_gives_the_full_runs_report), T(test_loop_reuse_nested_loops),
          T(test_loop_reuse_sample_is_simulated), T(test_loop_reuse_marks_tell_a_repeat))
