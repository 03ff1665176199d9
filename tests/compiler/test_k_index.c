/* gather, dynamic_slice, dynamic_update_slice and scatter kernels
 * (compiler/k_index.c): small programs compiled and run on the simulated
 * chips give the golden interpreter's outputs bit for bit, out-of-range
 * starts clamped; accumulating scatters give hand-computed values. */
#include "tests/prog.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "interp/interp.h"

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

/* Inputs of m's @main: random, except integer ones, taken from idx in turn. */
static int make_inputs(struct graph_module *m, struct base_tensor **in, const int64_t *idx, int n_idx)
{
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    int used = 0;
    for (int i = 0; i < b->n_args; i++) {
        const struct graph_type *t = b->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        if (base_dtype_is_int(t->elem)) {
            for (int64_t e = 0; e < in[i]->count; e++) {
                assert_true(used < n_idx);
                base_elem_set_i64(t->elem, in[i]->data, (size_t)e, idx[used++]);
            }
        } else {
            assert_int_equal(base_tensor_fill_random(in[i], test_seed() * 31 + (uint64_t)i, 1.0), BASE_OK);
        }
    }
    assert_int_equal(used, n_idx);
    return b->n_args;
}

/* Runs src on chip in every mode (and timing-only once) and compares every
 * output with the interpreter's, bit for bit. */
static void check_on(const char *src, const char *chip_name, const int64_t *idx, int n_idx)
{
    struct chip_desc chip;
    load_chip(chip_name, &chip);
    struct graph_module *m = prog_parse(src);
    struct base_tensor *in[8] = {NULL};
    int n = make_inputs(m, in, idx, n_idx);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result gold;
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(m, NULL, in, n, &io, &gold, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter");
    }
    for (int mode = 0; mode <= CC_MODE_COUNT; mode++) {
        bool timing_only = mode == CC_MODE_COUNT;
        struct cc_options o;
        cc_options_default(&o);
        o.mode = timing_only ? CC_MODE_COMPILED : (enum cc_mode)mode;
        struct cc_plan *plan = NULL;
        if (cc_compile(m, &chip, &o, &plan, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("cc_compile on %s", chip_name);
        }
        struct sim_options so;
        sim_options_default(&so);
        so.timing_only = timing_only;
        struct sim *s = NULL;
        assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
        struct rt_options ro;
        rt_options_default(&ro);
        ro.timing_only = timing_only;
        struct rt_report rep;
        struct base_tensor *outs[8] = {NULL};
        enum base_status st = rt_run(plan, s, in, n, &ro, outs, &rep, &d);
        sim_destroy(s);
        if (st != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run on %s mode %d: %s", chip_name, mode, base_status_str(st));
        }
        assert_true(rep.total_ps > 0);
        for (int i = 0; i < gold.n_outputs && !timing_only; i++) {
            const struct base_tensor *g = gold.outputs[i], *r = outs[i];
            assert_non_null(r);
            assert_int_equal(r->dtype, g->dtype);
            assert_int_equal(r->count, g->count);
            for (int64_t e = 0; e < g->count; e++)
                if (base_elem_get_bits(g->dtype, g->data, (size_t)e) != base_elem_get_bits(r->dtype, r->data, (size_t)e))
                    fail_msg("%s mode %d: output %d differs at element %lld", chip_name, mode, i, (long long)e);
        }
        for (int i = 0; i < 8; i++) base_tensor_release(outs[i]);
        rt_report_free(&rep);
        cc_plan_destroy(plan);
    }
    interp_result_free(&gold);
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    graph_module_destroy(m);
}

static void check_both(const char *src, const int64_t *idx, int n_idx)
{
    check_on(src, "tpu-v5e", idx, n_idx);
    check_on(src, "trn2", idx, n_idx);
}

/* The embedding lookup of glm_358b (line 53), on a smaller table. */
static const char *const embed_src =
    "func.func @main(%t: tensor<1000x640xbf16>, %i: tensor<8xui32>) -> tensor<8x640xbf16> {\n"
    "  %r = \"stablehlo.gather\"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], "
    "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 640>}> "
    ": (tensor<1000x640xbf16>, tensor<8xui32>) -> tensor<8x640xbf16>\n"
    "  func.return %r : tensor<8x640xbf16>\n}\n";

static void test_k_index_embedding_gather_matches_interpreter(void **state)
{
    (void)state;
    /* 5000 and 4294967295 leave the table: clamped to row 999 */
    const int64_t idx[8] = {0, 999, 5000, 17, 17, 4294967295LL, 3, 500};
    check_both(embed_src, idx, 8);
}

/* Index vectors along dim 0, start_index_map reversed, partial windows with
 * the offset dims around the batch dim. */
static const char *const layout_src =
    "func.func @main(%x: tensor<3x4x5xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x3xf32> {\n"
    "  %r = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], "
    "collapsed_slice_dims = [0], start_index_map = [2, 0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 2, 3>}> "
    ": (tensor<3x4x5xf32>, tensor<2x3xi32>) -> tensor<2x3x3xf32>\n"
    "  func.return %r : tensor<2x3x3xf32>\n}\n";

static void test_k_index_gather_index_vector_dim_0_matches_interpreter(void **state)
{
    (void)state;
    /* row 0: starts on dim 2 (clamped to [0, 2]); row 1: on dim 0 */
    const int64_t idx[6] = {1, -4, 9, 2, 7, -1};
    check_both(layout_src, idx, 6);
}

/* Batching dims: each batch row gathers from its own operand slab. */
static const char *const batch_src =
    "func.func @main(%x: tensor<2x5x4xf32>, %i: tensor<2x3x1xi64>) -> tensor<2x3x4xf32> {\n"
    "  %r = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], "
    "collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], "
    "start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> "
    ": (tensor<2x5x4xf32>, tensor<2x3x1xi64>) -> tensor<2x3x4xf32>\n"
    "  func.return %r : tensor<2x3x4xf32>\n}\n";

static void test_k_index_gather_batching_dims_matches_interpreter(void **state)
{
    (void)state;
    const int64_t idx[6] = {4, 0, 8, -2, 1, 3};
    check_both(batch_src, idx, 6);
}

static const char *const dslice_src =
    "func.func @main(%x: tensor<8x16xf32>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<3x5xf32> {\n"
    "  %r = \"stablehlo.dynamic_slice\"(%x, %a, %b) <{slice_sizes = array<i64: 3, 5>}> "
    ": (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<3x5xf32>\n"
    "  func.return %r : tensor<3x5xf32>\n}\n";

static void test_k_index_dynamic_slice_matches_interpreter(void **state)
{
    (void)state;
    const int64_t in_range[2] = {2, 7};
    check_both(dslice_src, in_range, 2);
    const int64_t clamped[2] = {7, -3}; /* -> (5, 0) */
    check_both(dslice_src, clamped, 2);
}

static const char *const dus_src =
    "func.func @main(%x: tensor<8x16xf32>, %u: tensor<3x5xf32>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<8x16xf32> {\n"
    "  %r = \"stablehlo.dynamic_update_slice\"(%x, %u, %a, %b) "
    ": (tensor<8x16xf32>, tensor<3x5xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>\n"
    "  func.return %r : tensor<8x16xf32>\n}\n";

static void test_k_index_dynamic_update_slice_matches_interpreter(void **state)
{
    (void)state;
    const int64_t in_range[2] = {1, 4};
    check_both(dus_src, in_range, 2);
    const int64_t clamped[2] = {100, 12}; /* -> (5, 11) */
    check_both(dus_src, clamped, 2);
}

/* Starts that are a constant and a value computed by an earlier kernel (a
 * slice of an index vector plus one): the runtime reads them after it ran. */
static const char *const computed_src =
    "func.func @main(%x: tensor<8x16xf32>, %v: tensor<3xi32>) -> tensor<2x4xf32> {\n"
    "  %c = stablehlo.constant dense<3> : tensor<i32>\n"
    "  %one = stablehlo.constant dense<1> : tensor<3xi32>\n"
    "  %w = stablehlo.add %v, %one : tensor<3xi32>\n"
    "  %s = stablehlo.slice %w [2:3] : (tensor<3xi32>) -> tensor<1xi32>\n"
    "  %b = stablehlo.reshape %s : (tensor<1xi32>) -> tensor<i32>\n"
    "  %r = \"stablehlo.dynamic_slice\"(%x, %c, %b) <{slice_sizes = array<i64: 2, 4>}> "
    ": (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>\n"
    "  func.return %r : tensor<2x4xf32>\n}\n";

static void test_k_index_dynamic_slice_reads_computed_starts(void **state)
{
    (void)state;
    const int64_t idx[3] = {0, 5, 8}; /* start (3, 9) */
    check_both(computed_src, idx, 3);
}

/* Replace-scatter of rows: a repeated index (the later update wins) and an
 * index past the end (skipped). */
static const char *const scatter_rows_src =
    "func.func @main(%x: tensor<8x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) -> tensor<8x6xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    stablehlo.return %b : tensor<f32>\n"
    "  }) : (tensor<8x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<8x6xf32>\n"
    "  func.return %r : tensor<8x6xf32>\n}\n";

static void test_k_index_scatter_rows_matches_interpreter(void **state)
{
    (void)state;
    const int64_t idx[4] = {2, 7, 2, 9};
    check_both(scatter_rows_src, idx, 4);
}

/* 2-d windows that overlap and leave the result on either side (cropped). */
static const char *const scatter_win_src =
    "func.func @main(%x: tensor<6x8xf32>, %i: tensor<3x2xi32>, %u: tensor<3x4x3xf32>) -> tensor<6x8xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], "
    "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    stablehlo.return %b : tensor<f32>\n"
    "  }) : (tensor<6x8xf32>, tensor<3x2xi32>, tensor<3x4x3xf32>) -> tensor<6x8xf32>\n"
    "  func.return %r : tensor<6x8xf32>\n}\n";

static void test_k_index_scatter_cropped_windows_match_interpreter(void **state)
{
    (void)state;
    const int64_t idx[6] = {4, 6, -2, 1, 1, 2};
    check_both(scatter_win_src, idx, 6);
}

/* Runs src on chip in every mode with the given inputs (element values as
 * doubles, converted to each argument's type) and checks output 0 against
 * want, exactly. */
static void expect_on(const char *src, const char *chip_name, const double *const *vals, const double *want)
{
    struct chip_desc chip;
    load_chip(chip_name, &chip);
    struct graph_module *m = prog_parse(src);
    const struct graph_block *blk = &graph_module_entry(m)->regions[0].blocks[0];
    struct base_tensor *in[8] = {NULL};
    int n = blk->n_args;
    assert_true(n <= 8);
    for (int i = 0; i < n; i++) {
        const struct graph_type *t = blk->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        for (int64_t e = 0; e < in[i]->count; e++) {
            if (base_dtype_is_float(t->elem)) base_elem_set_f64(t->elem, in[i]->data, (size_t)e, vals[i][e]);
            else base_elem_set_i64(t->elem, in[i]->data, (size_t)e, (int64_t)vals[i][e]);
        }
    }
    struct base_diag d;
    base_diag_clear(&d);
    for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
        struct cc_options o;
        cc_options_default(&o);
        o.mode = (enum cc_mode)mode;
        struct cc_plan *plan = NULL;
        if (cc_compile(m, &chip, &o, &plan, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("cc_compile on %s", chip_name);
        }
        struct sim_options so;
        sim_options_default(&so);
        struct sim *s = NULL;
        assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
        struct rt_options ro;
        rt_options_default(&ro);
        struct rt_report rep;
        struct base_tensor *outs[8] = {NULL};
        enum base_status st = rt_run(plan, s, in, n, &ro, outs, &rep, &d);
        sim_destroy(s);
        if (st != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run on %s mode %d: %s", chip_name, mode, base_status_str(st));
        }
        const struct base_tensor *r = outs[0];
        assert_non_null(r);
        for (int64_t e = 0; e < r->count; e++) {
            double got = base_dtype_is_float(r->dtype) ? base_elem_get_f64(r->dtype, r->data, (size_t)e)
                                                       : (double)base_elem_get_i64(r->dtype, r->data, (size_t)e);
            if (got != want[e])
                fail_msg("%s mode %d: element %lld is %.17g, want %.17g", chip_name, mode, (long long)e, got, want[e]);
        }
        for (int i = 0; i < 8; i++) base_tensor_release(outs[i]);
        rt_report_free(&rep);
        cc_plan_destroy(plan);
    }
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    graph_module_destroy(m);
}

static void expect_both(const char *src, const double *const *vals, const double *want)
{
    expect_on(src, "tpu-v5e", vals, want);
    expect_on(src, "trn2", vals, want);
}

/* scatter_add of rows: index 1 twice (both updates accumulate, in order),
 * index 7 past the end (skipped). */
static const char *const scatter_add_src =
    "func.func @main(%x: tensor<4x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<4x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  func.return %r : tensor<4x3xf32>\n}\n";

static void test_k_index_scatter_add_accumulates_duplicates(void **state)
{
    (void)state;
    const double x[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    const double idx[4] = {1, 3, 1, 7};
    const double u[12] = {1, 2, 3, 10, 20, 30, 100, 200, 300, 5, 5, 5};
    const double *vals[3] = {x, idx, u};
    const double want[12] = {0, 0, 0, 102, 203, 304, 2, 2, 2, 13, 23, 33};
    expect_both(scatter_add_src, vals, want);
}

/* scatter_max of 2x2 windows that overlap (max(current, update), integers). */
static const char *const scatter_max_src =
    "func.func @main(%x: tensor<3x4xi32>, %i: tensor<3x2xi32>, %u: tensor<3x2x2xi32>) -> tensor<3x4xi32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], "
    "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
    "    %s = stablehlo.maximum %b, %a : tensor<i32>\n"
    "    stablehlo.return %s : tensor<i32>\n"
    "  }) : (tensor<3x4xi32>, tensor<3x2xi32>, tensor<3x2x2xi32>) -> tensor<3x4xi32>\n"
    "  func.return %r : tensor<3x4xi32>\n}\n";

static void test_k_index_scatter_max_of_overlapping_windows(void **state)
{
    (void)state;
    const double x[12] = {-5, -5, -5, -5, 0, 0, 0, 0, 5, 5, 5, 5};
    const double idx[6] = {0, 1, 1, 0, 0, 2};
    const double u[12] = {1, -7, 3, -1, -9, 9, 4, 6, -2, 8, 2, -3};
    const double *vals[3] = {x, idx, u};
    const double want[12] = {-5, 1, -2, 8, 0, 9, 2, 0, 5, 6, 5, 5};
    expect_both(scatter_max_src, vals, want);
}

/* scatter of booleans with or: index 2 twice, 9 skipped. */
static const char *const scatter_or_src =
    "func.func @main(%x: tensor<6xi1>, %i: tensor<5x1xi32>, %u: tensor<5xi1>) -> tensor<6xi1> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<"
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
    "    %s = stablehlo.or %a, %b : tensor<i1>\n"
    "    stablehlo.return %s : tensor<i1>\n"
    "  }) : (tensor<6xi1>, tensor<5x1xi32>, tensor<5xi1>) -> tensor<6xi1>\n"
    "  func.return %r : tensor<6xi1>\n}\n";

static void test_k_index_scatter_or_of_booleans(void **state)
{
    (void)state;
    const double x[6] = {0, 1, 0, 0, 0, 0};
    const double idx[5] = {2, 2, 4, 0, 9};
    const double u[5] = {1, 0, 0, 1, 1};
    const double *vals[3] = {x, idx, u};
    const double want[6] = {1, 1, 1, 0, 0, 0};
    expect_both(scatter_or_src, vals, want);
}

/* Windows that overlap with the window dim before the scatter dim: the
 * interpreter adds in row-major update order, so x[1][1] = (1 + 1) + 2^24
 * (exact), where window order would give (1 + 2^24) + 1 = 2^24.  Also
 * repeated indices, whose updates must come in order. */
static const char *const scatter_order_src =
    "func.func @main(%x: tensor<6x4xf32>, %i: tensor<2x2xi32>, %u: tensor<3x2xf32>) -> tensor<6x4xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], "
    "inserted_window_dims = [1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<6x4xf32>, tensor<2x2xi32>, tensor<3x2xf32>) -> tensor<6x4xf32>\n"
    "  func.return %r : tensor<6x4xf32>\n}\n";

static void test_k_index_scatter_add_follows_update_order(void **state)
{
    (void)state;
    double x[24];
    for (int e = 0; e < 24; e++) x[e] = 1;
    const double idx[4] = {0, 1, 1, 1};                 /* windows at rows 0..2 and 1..3 of column 1 */
    const double u[6] = {0.5, 1, 16777216, 0.25, 2, 8}; /* u[w][s] */
    const double *vals[3] = {x, idx, u};
    double want[24];
    for (int e = 0; e < 24; e++) want[e] = 1;
    want[0 * 4 + 1] = 1.5;
    want[1 * 4 + 1] = 16777218;
    want[2 * 4 + 1] = 3.25;
    want[3 * 4 + 1] = 9;
    expect_both(scatter_order_src, vals, want);
    /* one index three times, each column's sum rounding to even on the way:
     * ((1 + 2^24) + 1) + 1 = 2^24 as the updates come (reversed:
     * ((1 + 1) + 1) + 2^24 = 2^24 + 4); ((1 + 1) + 2^24) + 1 = 2^24 + 4;
     * ((1 + 1) + 1) + 2^24 = 2^24 + 4 */
    const double x2[12] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0};
    const double idx2[4] = {1, 1, 1, 3};
    const double u2[12] = {16777216, 1, 1, 1, 16777216, 1, 1, 1, 16777216, 2, 2, 2};
    const double *vals2[3] = {x2, idx2, u2};
    const double want2[12] = {0, 0, 0, 16777216, 16777220, 16777220, 0, 0, 0, 2, 2, 2};
    expect_both(scatter_add_src, vals2, want2);
    /* and bit for bit as the interpreter with random values */
    const int64_t ri[4] = {0, 1, 1, 1};
    check_both(scatter_order_src, ri, 4);
}

/* Window dims on both sides of the scatter dim (every window in column 0 of
 * dim 1): repeated indices (one group of windows), windows that meet
 * partly at other rows (walked row by row), cropped ones; and windows that
 * repeat but never meet others. */
static const char *const scatter_mixed_src =
    "func.func @main(%x: tensor<5x6x4xf32>, %i: tensor<4x2xi32>, %u: tensor<3x4x2xf32>) -> tensor<5x6x4xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 2], "
    "inserted_window_dims = [1], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<5x6x4xf32>, tensor<4x2xi32>, tensor<3x4x2xf32>) -> tensor<5x6x4xf32>\n"
    "  func.return %r : tensor<5x6x4xf32>\n}\n";

static void test_k_index_scatter_add_mixed_overlaps_match_interpreter(void **state)
{
    (void)state;
    const int64_t meet[8] = {0, 1, 0, 1, 1, 2, 4, -1};
    check_both(scatter_mixed_src, meet, 8);
    const int64_t apart[8] = {2, 0, 2, 0, 0, 2, 2, 0};
    check_both(scatter_mixed_src, apart, 8);
}

/* The same layout with minimum: windows that meet go one by one, not
 * position by position (float minimum commutes exactly; a fuzzed 20 x 468
 * window of 130 updates took 1.2 M read-modify-writes that way). */
static const char *const scatter_mixed_min_src =
    "func.func @main(%x: tensor<5x6x4xf32>, %i: tensor<4x2xi32>, %u: tensor<3x4x2xf32>) -> tensor<5x6x4xf32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 2], "
    "inserted_window_dims = [1], scatter_dims_to_operand_dims = [0, 2], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.minimum %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<5x6x4xf32>, tensor<4x2xi32>, tensor<3x4x2xf32>) -> tensor<5x6x4xf32>\n"
    "  func.return %r : tensor<5x6x4xf32>\n}\n";

static void test_k_index_scatter_minimum_of_meeting_windows_window_by_window(void **state)
{
    (void)state;
    const int64_t meet[8] = {0, 1, 0, 1, 1, 2, 4, -1};
    check_both(scatter_mixed_min_src, meet, 8);
}

/* subtract in either order, and a bf16 multiply, against the interpreter. */
static const char *const scatter_sub_src =
    "func.func @main(%x: tensor<5x3xf32>, %i: tensor<4x1xi64>, %u: tensor<4x3xf32>, %y: tensor<5x3xbf16>, %v: tensor<4x3xbf16>)"
    " -> (tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xbf16>) {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.subtract %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<5x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<5x3xf32>\n"
    "  %q = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.subtract %b, %a : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<5x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<5x3xf32>\n"
    "  %m = \"stablehlo.scatter\"(%y, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "    %s = stablehlo.multiply %a, %b : tensor<bf16>\n"
    "    stablehlo.return %s : tensor<bf16>\n"
    "  }) : (tensor<5x3xbf16>, tensor<4x1xi64>, tensor<4x3xbf16>) -> tensor<5x3xbf16>\n"
    "  func.return %r, %q, %m : tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xbf16>\n}\n";

static void test_k_index_scatter_subtract_and_multiply_match_interpreter(void **state)
{
    (void)state;
    const int64_t idx[4] = {3, 0, 3, -1};
    check_both(scatter_sub_src, idx, 4);
}

/* A region that returns the current value leaves the operand as it is. */
static const char *const scatter_keep_src =
    "func.func @main(%x: tensor<4x3xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3xi32>) -> tensor<4x3xi32> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
    "    stablehlo.return %a : tensor<i32>\n"
    "  }) : (tensor<4x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>\n"
    "  func.return %r : tensor<4x3xi32>\n}\n";

static void test_k_index_scatter_keeping_the_current_value_is_the_operand(void **state)
{
    (void)state;
    const double x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const double idx[2] = {1, 3};
    const double u[6] = {-1, -1, -1, -2, -2, -2};
    const double *vals[3] = {x, idx, u};
    expect_both(scatter_keep_src, vals, x);
}

/* A combination the machine has no function for is not lowered for the chip,
 * with the reason (no_fallback: otherwise it runs on the host). */
static void test_k_index_scatter_divide_is_not_lowered(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%x: tensor<8x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) -> tensor<8x6xf32> {\n"
        "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
        "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %s = stablehlo.divide %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }) : (tensor<8x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<8x6xf32>\n"
        "  func.return %r : tensor<8x6xf32>\n}\n";
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(src);
    struct cc_options o;
    cc_options_default(&o);
    o.no_fallback = true; /* else the scatter runs on the host */
    struct cc_plan *plan = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &chip, &o, &plan, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "update_computation"));
    graph_module_destroy(m);
}

/* Gather indices computed by a reduce kernel's prologue (a convert of a
 * broadcast, also reduced): the prologue output's size-1 dims once took the
 * broadcast's stride 0 and every row read index 0
 * (gather_float32_10_10_10_int32_3_1.mlir). */
static const char *const gather_pro_src =
    "func.func @main(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) -> (tensor<3x1x4xf32>, tensor<3x1xi1>) {\n"
    "  %b = stablehlo.broadcast_in_dim %i, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x1x1xi32>\n"
    "  %c = stablehlo.convert %b : (tensor<3x1x1xi32>) -> tensor<3x1x1xi64>\n"
    "  %z = stablehlo.constant dense<0> : tensor<3x1x1xi64>\n"
    "  %ge = stablehlo.compare GE, %c, %z, SIGNED : (tensor<3x1x1xi64>, tensor<3x1x1xi64>) -> tensor<3x1x1xi1>\n"
    "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
    "  %ok = stablehlo.reduce(%ge init: %t) applies stablehlo.and across dimensions = [2] "
    ": (tensor<3x1x1xi1>, tensor<i1>) -> tensor<3x1xi1>\n"
    "  %g = \"stablehlo.gather\"(%x, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], "
    "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>}> "
    ": (tensor<10x4xf32>, tensor<3x1x1xi64>) -> tensor<3x1x4xf32>\n"
    "  func.return %g, %ok : tensor<3x1x4xf32>, tensor<3x1xi1>\n}\n";

static void test_k_index_gather_of_indices_from_a_reduce_prologue(void **state)
{
    (void)state;
    const int64_t idx[3] = {0, 1, 10};
    check_both(gather_pro_src, idx, 3);
    /* rows 0, 1 and 9 (10 clamped) of x = 4 r + c */
    double x[40];
    for (int e = 0; e < 40; e++) x[e] = e;
    const double fi[3] = {0, 1, 10};
    const double *vals[2] = {x, fi};
    const double want[12] = {0, 1, 2, 3, 4, 5, 6, 7, 36, 37, 38, 39};
    expect_both(gather_pro_src, vals, want);
}

/* qwen_3_0_6b's KV-cache update (window dims around the scattered one). */
static const char *const scatter_kv_src =
    "func.func @main(%x: tensor<2x1x8x4xbf16>, %i: tensor<3x1xi64>, %u: tensor<2x1x3x4xbf16>) -> tensor<2x1x8x4xbf16> {\n"
    "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], "
    "inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "    stablehlo.return %b : tensor<bf16>\n"
    "  }) : (tensor<2x1x8x4xbf16>, tensor<3x1xi64>, tensor<2x1x3x4xbf16>) -> tensor<2x1x8x4xbf16>\n"
    "  func.return %r : tensor<2x1x8x4xbf16>\n}\n";

static void test_k_index_scatter_kv_cache_layout_matches_interpreter(void **state)
{
    (void)state;
    const int64_t idx[3] = {5, -1, 7};
    check_both(scatter_kv_src, idx, 3);
}

/* Operands and results seen through views: a transposed table, a
 * transposed gather result, a reversed dynamic_slice operand. */
static const char *const views_src =
    "func.func @main(%t: tensor<64x300xf32>, %i: tensor<5xi32>, %a: tensor<i32>, %x: tensor<10x12xf32>) -> (tensor<64x5xf32>, tensor<4x3xf32>) {\n"
    "  %tt = stablehlo.transpose %t, dims = [1, 0] : (tensor<64x300xf32>) -> tensor<300x64xf32>\n"
    "  %g = \"stablehlo.gather\"(%tt, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>}> : (tensor<300x64xf32>, tensor<5xi32>) -> tensor<5x64xf32>\n"
    "  %r = stablehlo.transpose %g, dims = [1, 0] : (tensor<5x64xf32>) -> tensor<64x5xf32>\n"
    "  %xr = stablehlo.reverse %x, dims = [1] : tensor<10x12xf32>\n"
    "  %d = \"stablehlo.dynamic_slice\"(%xr, %a, %a) <{slice_sizes = array<i64: 4, 3>}> : (tensor<10x12xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>\n"
    "  func.return %r, %d : tensor<64x5xf32>, tensor<4x3xf32>\n"
    "}\n"
    ;

static void test_k_index_operands_through_views_match_interpreter(void **state)
{
    (void)state;
    const int64_t idx[6] = {299, 0, 400, 7, -7, 8}; /* dynamic_slice start 8: (6, 8) after clamping to (10 - 4, 12 - 3) */
    check_both(views_src, idx, 6);
}

/* Rows shared among cores (trn2: 8): the update crosses several cores' rows. */
static const char *const dus3_src =
    "func.func @main(%x: tensor<20x6x7xbf16>, %u: tensor<9x2x3xbf16>, %a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>) -> tensor<20x6x7xbf16> {\n"
    "  %r = \"stablehlo.dynamic_update_slice\"(%x, %u, %a, %b, %c) "
    ": (tensor<20x6x7xbf16>, tensor<9x2x3xbf16>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<20x6x7xbf16>\n"
    "  func.return %r : tensor<20x6x7xbf16>\n}\n";

static void test_k_index_dynamic_update_slice_across_cores_matches_interpreter(void **state)
{
    (void)state;
    const int64_t starts[3] = {7, 5, -1}; /* -> (7, 4, 0) */
    check_both(dus3_src, starts, 3);
    const int64_t last[3] = {15, 0, 4}; /* -> (11, 0, 4): the last rows */
    check_both(dus3_src, last, 3);
}

TEST_MAIN(NULL, NULL, T(test_k_index_embedding_gather_matches_interpreter),
          T(test_k_index_gather_index_vector_dim_0_matches_interpreter),
          T(test_k_index_gather_batching_dims_matches_interpreter),
          T(test_k_index_dynamic_slice_matches_interpreter),
          T(test_k_index_dynamic_update_slice_matches_interpreter),
          T(test_k_index_dynamic_slice_reads_computed_starts),
          T(test_k_index_scatter_rows_matches_interpreter), T(test_k_index_scatter_cropped_windows_match_interpreter),
          T(test_k_index_scatter_add_accumulates_duplicates), T(test_k_index_scatter_max_of_overlapping_windows),
          T(test_k_index_scatter_or_of_booleans), T(test_k_index_scatter_add_follows_update_order),
          T(test_k_index_scatter_add_mixed_overlaps_match_interpreter), T(test_k_index_scatter_minimum_of_meeting_windows_window_by_window),
          T(test_k_index_scatter_subtract_and_multiply_match_interpreter), T(test_k_index_scatter_divide_is_not_lowered),
          T(test_k_index_scatter_keeping_the_current_value_is_the_operand),
          T(test_k_index_gather_of_indices_from_a_reduce_prologue),
          T(test_k_index_scatter_kv_cache_layout_matches_interpreter),
          T(test_k_index_operands_through_views_match_interpreter),
          T(test_k_index_dynamic_update_slice_across_cores_matches_interpreter))
