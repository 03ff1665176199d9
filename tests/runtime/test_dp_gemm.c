/* The data-parallel GEMM training step of bench/multichip_bench.c
 * (bench/dp_gemm.h) at a small size: 2 layers of width 64, f32, a global
 * batch of 32 rows split over 4 chips.  Partitioned (part_partition), it is
 * one gradient all_reduce per layer; run on 4 simulated chips it gives the
 * unsharded program's result; and the representative partition's
 * timing-only run takes the time every chip of the 4-chip run takes. */
#include "tests/prog.h"

#include "bench/dp_gemm.h"
#include "compiler/compiler.h"
#include "partition/partition.h"
#include "runtime/runtime.h"
#include "tests/runtime/rt_test_util.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { LAYERS = 2, WIDTH = 64, ROWS = 32, CHIPS = 4, N_ARGS = 2 + LAYERS };
static const double k_lr = 0.01;

/* The unsharded program, its partitioned twin, the partitioner's report and
 * the plan of one partition for trn2. */
struct dp {
    struct graph_module *m0, *m;
    struct part_report rep;
    struct chip_desc chip;
    struct cc_plan *plan;
};

static void dp_build(struct dp *dp)
{
    memset(dp, 0, sizeof *dp);
    size_t len = 0;
    char *text = dp_gemm_text(LAYERS, ROWS, WIDTH, "f32", k_lr, &len);
    assert_non_null(text);
    dp->m0 = prog_parse(text);
    free(text);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_verify(dp->m0, &d), BASE_OK);
    struct part_mesh mesh;
    struct part_sharding sh[2];
    assert_int_equal(part_parse_mesh("4", &mesh, &d), BASE_OK);
    assert_int_equal(part_parse_sharding("x,_", &mesh, &sh[0], &d), BASE_OK);
    sh[1] = sh[0];
    if (part_partition(dp->m0, NULL, &mesh, sh, 2, &dp->m, &dp->rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("part_partition");
    }
    if (chip_load("trn2", &dp->chip, &d) != BASE_OK) fail_msg("cannot load trn2");
    if (cc_compile(dp->m, &dp->chip, NULL, &dp->plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile");
    }
    assert_int_equal(cc_plan_num_partitions(dp->plan), CHIPS);
}

static void dp_free(struct dp *dp)
{
    cc_plan_destroy(dp->plan);
    part_report_free(&dp->rep);
    graph_module_destroy(dp->m);
    graph_module_destroy(dp->m0);
}

/* x, t: ROWS x WIDTH of scale 1; the weights of scale 1/8 (1/sqrt(WIDTH)),
 * so lr * dw is of the weights' size and the update shows. */
static void make_inputs(struct base_tensor *in[N_ARGS])
{
    int64_t da[2] = {ROWS, WIDTH}, dw[2] = {WIDTH, WIDTH};
    for (int i = 0; i < N_ARGS; i++) {
        assert_int_equal(base_tensor_create(BASE_DT_F32, 2, i < 2 ? da : dw, &in[i]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[i], 100 + (uint64_t)i, i < 2 ? 1.0 : 0.125), BASE_OK);
    }
}

static void release_all(struct base_tensor **t, int n)
{
    for (int i = 0; i < n; i++) base_tensor_release(t[i]);
}

static double f(const struct base_tensor *t, int64_t r, int64_t c) { return ((const float *)t->data)[r * t->dims[1] + c]; }

/* c (n x p) = a (n x k) @ b (k x p), all f64 row-major; ta / tb: use the
 * transpose of a (stored k x n) / of b (stored p x k). */
static void matmul(const double *a, const double *b, double *c, int n, int k, int p, bool ta, bool tb)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            double s = 0;
            for (int q = 0; q < k; q++) s += (ta ? a[q * n + i] : a[i * k + q]) * (tb ? b[j * k + q] : b[q * p + j]);
            c[i * p + j] = s;
        }
}

/* The generator's program is one gradient step of the squared error
 * loss / 2 of the linear stack: the unsharded program, interpreted, gives
 * w - lr dL/dw worked out here in f64 by the chain rule. */
static void test_dp_gemm_program_is_one_gradient_step(void **state)
{
    (void)state;
    struct dp dp;
    dp_build(&dp);
    struct base_tensor *in[N_ARGS];
    make_inputs(in);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result gold;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_run(dp.m0, NULL, in, N_ARGS, &io, &gold, &d), BASE_OK);
    assert_int_equal(gold.n_outputs, LAYERS);
    static double x[ROWS * WIDTH], t[ROWS * WIDTH], w[LAYERS][WIDTH * WIDTH], h[LAYERS + 1][ROWS * WIDTH],
        g[ROWS * WIDTH], g2[ROWS * WIDTH], dw[WIDTH * WIDTH];
    for (int i = 0; i < ROWS * WIDTH; i++) {
        x[i] = f(in[0], i / WIDTH, i % WIDTH);
        t[i] = f(in[1], i / WIDTH, i % WIDTH);
    }
    for (int l = 0; l < LAYERS; l++)
        for (int i = 0; i < WIDTH * WIDTH; i++) w[l][i] = f(in[2 + l], i / WIDTH, i % WIDTH);
    memcpy(h[0], x, sizeof x);
    for (int l = 0; l < LAYERS; l++) matmul(h[l], w[l], h[l + 1], ROWS, WIDTH, WIDTH, false, false);
    for (int i = 0; i < ROWS * WIDTH; i++) g[i] = h[LAYERS][i] - t[i]; /* dL/dy */
    for (int l = LAYERS - 1; l >= 0; l--) {
        matmul(h[l], g, dw, WIDTH, ROWS, WIDTH, true, false);  /* h^T g */
        matmul(g, w[l], g2, ROWS, WIDTH, WIDTH, false, true);  /* g w^T */
        double worst = 0, moved = 0;
        for (int i = 0; i < WIDTH * WIDTH; i++) {
            double want = w[l][i] - k_lr * dw[i];
            double got = f(gold.outputs[l], i / WIDTH, i % WIDTH);
            worst = fmax(worst, fabs(got - want));
            moved = fmax(moved, fabs(want - w[l][i]));
        }
        /* f32 sums of at most 64 terms of size ~1 */
        if (worst > 1e-4) fail_msg("layer %d: worst error %g", l, worst);
        if (moved < 0.05) fail_msg("layer %d: the update moves the weights by only %g", l, moved);
        memcpy(g, g2, sizeof g);
    }
    interp_result_free(&gold);
    release_all(in, N_ARGS);
    dp_free(&dp);
}

/* Batch split, weights replicated: every activation stays split and each
 * layer's weight gradient (a contraction over the split batch) is summed by
 * one all_reduce of WIDTH x WIDTH f32 over the 4 partitions; nothing runs
 * replicated. */
static void test_dp_gemm_partitioner_inserts_one_gradient_all_reduce_per_layer(void **state)
{
    (void)state;
    struct dp dp;
    dp_build(&dp);
    assert_int_equal(dp.rep.n_colls, LAYERS);
    for (int i = 0; i < dp.rep.n_colls; i++) {
        assert_int_equal(dp.rep.colls[i].kind, PART_ALL_REDUCE);
        assert_int_equal(dp.rep.colls[i].bytes, WIDTH * WIDTH * 4);
        assert_int_equal(dp.rep.colls[i].group_size, CHIPS);
    }
    assert_int_equal(dp.rep.n_fallbacks, 0);
    /* the plan's inputs are the shards: ROWS / CHIPS rows of x */
    const struct cc_buffer *x = cc_plan_buffer(dp.plan, cc_plan_input_buffer(dp.plan, 0));
    assert_int_equal(x->dims[0], ROWS / CHIPS);
    assert_int_equal(x->dims[1], WIDTH);
    dp_free(&dp);
}

/* On 4 simulated trn2 chips (each its quarter of the batch, the gradients
 * summed by the all_reduces on the links) the new weights are the
 * unsharded program's, as the golden interpreter runs it on one process,
 * within the compiled plan's f32 tolerance. */
static void test_dp_gemm_spmd_run_matches_unsharded_interpreter(void **state)
{
    (void)state;
    struct dp dp;
    dp_build(&dp);
    struct base_tensor *in[N_ARGS];
    make_inputs(in);
    struct sim **sims = make_sims(&dp.chip, CHIPS, false);
    struct base_tensor *out[LAYERS] = {NULL};
    struct rt_report reps[CHIPS];
    struct base_diag d;
    base_diag_clear(&d);
    if (rt_run_spmd(dp.plan, sims, CHIPS, in, N_ARGS, NULL, out, reps, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run_spmd");
    }
    struct interp_options io;
    memset(&io, 0, sizeof io);
    io.num_partitions = 1;
    struct interp_result gold;
    assert_int_equal(interp_run(dp.m0, NULL, in, N_ARGS, &io, &gold, &d), BASE_OK);
    for (int l = 0; l < LAYERS; l++) {
        struct rt_compare cmp;
        rt_compare_output(dp.plan, out[l], gold.outputs[l], &cmp);
        if (!cmp.passed)
            fail_msg("layer %d: %lld elements outside the tolerance (worst %g vs %g, ratio %g)", l, (long long)cmp.n_bad,
                     cmp.got_at_worst, cmp.want_at_worst, cmp.worst_ratio);
        assert_false(cmp.tol.exact);
        /* the comparison can tell: one chip's partial gradient would be
         * far outside it (the update is many tolerances large) */
        double moved = 0;
        for (int64_t i = 0; i < WIDTH * WIDTH; i++)
            moved = fmax(moved, fabs(f(gold.outputs[l], i / WIDTH, i % WIDTH) - f(in[2 + l], i / WIDTH, i % WIDTH)));
        assert_true(moved > 100 * cmp.tol.atol);
    }
    for (int q = 0; q < CHIPS; q++) {
        assert_int_equal(reps[q].collectives, LAYERS);
        rt_report_free(&reps[q]);
    }
    interp_result_free(&gold);
    release_all(out, LAYERS);
    release_all(in, N_ARGS);
    free_sims(sims, CHIPS);
    dp_free(&dp);
}

/* SPMD symmetry: the one representative partition's timing-only run
 * (rt_run) takes exactly the total that every chip of a timing-only run of
 * all 4 partitions (rt_run_spmd) takes, with the same collective time. */
static void test_dp_gemm_representative_run_times_every_chip(void **state)
{
    (void)state;
    struct dp dp;
    dp_build(&dp);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    struct base_diag d;
    base_diag_clear(&d);
    struct sim **all = make_sims(&dp.chip, CHIPS, true);
    struct rt_report reps[CHIPS];
    struct base_tensor *none[LAYERS] = {NULL};
    if (rt_run_spmd(dp.plan, all, CHIPS, NULL, N_ARGS, &ro, none, reps, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run_spmd");
    }
    struct rt_report rep1;
    run_timing_only(dp.plan, &rep1);
    assert_int_equal(rep1.collectives, LAYERS);
    assert_true(rep1.collective_ps > 0);
    assert_true(rep1.device_ps > 0);
    for (int q = 0; q < CHIPS; q++) {
        assert_int_equal(reps[q].total_ps, rep1.total_ps);
        assert_int_equal(reps[q].collective_ps, rep1.collective_ps);
        assert_int_equal(reps[q].collectives, LAYERS);
        rt_report_free(&reps[q]);
    }
    rt_report_free(&rep1);
    free_sims(all, CHIPS);
    dp_free(&dp);
}

TEST_MAIN(NULL, NULL, T(test_dp_gemm_program_is_one_gradient_step),
          T(test_dp_gemm_partitioner_inserts_one_gradient_all_reduce_per_layer),
          T(test_dp_gemm_spmd_run_matches_unsharded_interpreter), T(test_dp_gemm_representative_run_times_every_chip))
