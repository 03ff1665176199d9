/* Reductions on the simulator against the golden interpreter. */
#include "tests/compiler/k_test_util.h"
#include "interp/interp.h"

static void run(const char *src, cc_emit_fn fn, enum cc_kernel_kind kind, uint64_t seed, double ulps)
{
    struct kt t;
    kt_parse(&t, src, kind);
    kt_random_inputs(&t, seed, 1.0);
    kt_check_both(&t, fn, ulps);
    kt_free(&t);
}

/* Runs the kernel on both chips and compares output `o` with known values. */
static void expect_values(struct kt *t, cc_emit_fn fn, int o, const double *want, int64_t n)
{
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct kt_run r;
        kt_run(t, &chip, fn, false, 0, &r);
        assert_int_equal(r.outs[o]->count, n);
        for (int64_t i = 0; i < n; i++) {
            double got = base_elem_get_f64(r.outs[o]->dtype, r.outs[o]->data, (size_t)i);
            if (got != want[i] && !(isnan(got) && isnan(want[i])))
                fail_msg("%s output %d [%lld]: got %g, want %g", chips[c], o, (long long)i, got, want[i]);
        }
        kt_run_free(&r);
    }
}

/* qwen's rmsnorm sum: f32 add over the last dim, the interpreter's order */
static void test_k_reduce_sum_last_dim_f32_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<32x17x1024xf32>) -> tensor<32x17xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2] : (tensor<32x17x1024xf32>, tensor<f32>) -> tensor<32x17xf32>\n"
        "  func.return %r : tensor<32x17xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 1, 0);
}

static void test_k_reduce_max_inner_dim_f32_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<2x96x32x32xf32>) -> tensor<2x96x32xf32> {\n"
        "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [3] : (tensor<2x96x32x32xf32>, tensor<f32>) -> tensor<2x96x32xf32>\n"
        "  func.return %r : tensor<2x96x32xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 2, 0);
}

/* reduced dims outer and inner of a kept one, a runtime init value */
static void test_k_reduce_outer_and_inner_dims_with_init_input(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<6x130x7xf32>, %i: tensor<f32>) -> tensor<130xf32> {\n"
        "  %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [0, 2] : (tensor<6x130x7xf32>, tensor<f32>) -> tensor<130xf32>\n"
        "  func.return %r : tensor<130xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 3, 0);
}

/* everything to one scalar, long enough to need several chunks on one partition */
static void test_k_reduce_all_to_scalar_in_chunks(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<300x1000xf32>) -> tensor<f32> {\n"
        "  %z = stablehlo.constant dense<0.5> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<300x1000xf32>, tensor<f32>) -> tensor<f32>\n"
        "  func.return %r : tensor<f32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 4, 0);
}

/* softmax's denominator: exp(x - max) summed, with the broadcast max as a view */
static void test_k_reduce_softmax_prologue_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<96x32x32xf32>, %m: tensor<96x32xf32>) -> tensor<96x32xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %b = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<96x32xf32>) -> tensor<96x32x32xf32>\n"
        "  %s = stablehlo.subtract %x, %b : tensor<96x32x32xf32>\n"
        "  %e = stablehlo.exponential %s : tensor<96x32x32xf32>\n"
        "  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [2] : (tensor<96x32x32xf32>, tensor<f32>) -> tensor<96x32xf32>\n"
        "  func.return %r : tensor<96x32xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 5, 0);
}

/* 3x3 max pool, stride 2, padding 1 (padding reads the init value) */
static void test_k_reduce_window_max_pool_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<2x65x66x5xf32>) -> tensor<2x33x33x5xf32> {\n"
        "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    stablehlo.return %m : tensor<f32>\n"
        "  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,\n"
        "      padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}\n"
        "      : (tensor<2x65x66x5xf32>, tensor<f32>) -> tensor<2x33x33x5xf32>\n"
        "  func.return %r : tensor<2x33x33x5xf32>\n}\n",
        cc_emit_reduce_window, CC_K_REDUCE_WINDOW, 6, 0);
}

/* cumsum as jax writes it: a window as long as the dim, padded before, so
 * early positions see a single input row (a one-element-per-partition
 * window copy); x[i][j] = i + 10 j, so out[i][j] = sum_{k<=i} (k + 10 j). */
static void test_k_reduce_window_cumsum_large_window_padding(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<8x9xi32>) -> tensor<8x9xi32> {\n"
             "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
             "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
             "    %m = stablehlo.add %a, %b : tensor<i32>\n"
             "    stablehlo.return %m : tensor<i32>\n"
             "  }) {window_dimensions = array<i64: 8, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>}\n"
             "      : (tensor<8x9xi32>, tensor<i32>) -> tensor<8x9xi32>\n"
             "  func.return %r : tensor<8x9xi32>\n}\n",
             CC_K_REDUCE_WINDOW);
    kt_random_inputs(&t, 14, 1.0);
    double want[72];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 9; j++) {
            kt_set(&t, 0, i * 9 + j, i + 10 * j);
            want[i * 9 + j] = (double)(i * (i + 1) / 2 + (i + 1) * 10 * j);
        }
    expect_values(&t, cc_emit_reduce_window, 0, want, 72);
    kt_free(&t);
    /* and the float flavours against the interpreter: a cummax over dim 1 */
    run("func.func @main(%x: tensor<8x9xf32>) -> tensor<8x9xf32> {\n"
        "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    stablehlo.return %m : tensor<f32>\n"
        "  }) {window_dimensions = array<i64: 1, 9>, padding = dense<[[0, 0], [8, 0]]> : tensor<2x2xi64>}\n"
        "      : (tensor<8x9xf32>, tensor<f32>) -> tensor<8x9xf32>\n"
        "  func.return %r : tensor<8x9xf32>\n}\n",
        cc_emit_reduce_window, CC_K_REDUCE_WINDOW, 15, 0);
}

/* the spec's reduce_window example: base dilation 2 on dim 0 (holes read
 * the init value), window dilation 3, padding 2/1, stride 4 */
static void test_k_reduce_window_base_dilation_spec_example(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<3x2xi64>) -> tensor<2x2xi64> {\n"
             "  %z = stablehlo.constant dense<0> : tensor<i64>\n"
             "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
             "  ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "    %m = stablehlo.add %a, %b : tensor<i64>\n"
             "    stablehlo.return %m : tensor<i64>\n"
             "  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>,\n"
             "      base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>,\n"
             "      padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>}\n"
             "      : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>\n"
             "  func.return %r : tensor<2x2xi64>\n}\n",
             CC_K_REDUCE_WINDOW);
    kt_random_inputs(&t, 22, 1.0);
    for (int i = 0; i < 6; i++) kt_set(&t, 0, i, i + 1);
    const double want[4] = {0, 0, 3, 4};
    expect_values(&t, cc_emit_reduce_window, 0, want, 4);
    kt_free(&t);
}

/* base dilations on both dims (on the partition dim with stride 1, so a
 * window element feeds every other row: row by row copies), with padding,
 * window dilation and strides, two partition tiles: against the interpreter */
static void test_k_reduce_window_base_dilation_both_dims(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<70x9xf32>) -> tensor<138x12xf32> {\n"
        "  %z = stablehlo.constant dense<-1.5> : tensor<f32>\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    stablehlo.return %m : tensor<f32>\n"
        "  }) {window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 1, 3>,\n"
        "      base_dilations = array<i64: 2, 4>, window_dilations = array<i64: 1, 2>,\n"
        "      padding = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>}\n"
        "      : (tensor<70x9xf32>, tensor<f32>) -> tensor<138x12xf32>\n"
        "  func.return %r : tensor<138x12xf32>\n}\n",
        cc_emit_reduce_window, CC_K_REDUCE_WINDOW, 23, 0);
}

/* select_and_gather_add's reduce_window: two inputs, the body keeps the
 * pair whose first value is smaller (compare LE + two selects).  Windows of
 * 2x2, stride 2x3 over [[8 1 5 0 3 7], [2 9 4 6 6 1], ...]. */
static void test_k_reduce_window_two_inputs_select_pair(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {\n"
        "  %i = stablehlo.constant dense<0x7F800000> : tensor<f32>\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %r:2 = \"stablehlo.reduce_window\"(%x, %y, %i, %z) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):\n"
        "    %p = stablehlo.compare LE, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %s = stablehlo.select %p, %a, %c : tensor<i1>, tensor<f32>\n"
        "    %t = stablehlo.select %p, %b, %d : tensor<i1>, tensor<f32>\n"
        "    stablehlo.return %s, %t : tensor<f32>, tensor<f32>\n"
        "  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 3>}\n"
        "      : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)\n"
        "  func.return %r#0, %r#1 : tensor<2x2xf32>, tensor<2x2xf32>\n}\n";
    struct kt t;
    kt_parse(&t, src, CC_K_REDUCE_WINDOW);
    kt_random_inputs(&t, 24, 1.0);
    const double x[24] = {8, 1, 5, 0, 3, 7, 2, 9, 4, 6, 6, 1, 3, 3, 0, 2, 5, 4, 7, 5, 1, 9, 4, 2};
    for (int i = 0; i < 24; i++) kt_set(&t, 0, i, x[i]), kt_set(&t, 1, i, 100 + i);
    /* windows: rows 0-1 cols 0-1: min 1 at (0,1); rows 0-1 cols 3-4: 0 at (0,3);
     * rows 2-3 cols 0-1: 3 at (2,0) (LE keeps the first of the tie 3, 3);
     * rows 2-3 cols 3-4: 2 at (2,3) (ties with (3,5)? no: col 5 is outside) */
    const double want_v[4] = {1, 0, 3, 2}, want_y[4] = {101, 103, 112, 115};
    expect_values(&t, cc_emit_reduce_window, 0, want_v, 4);
    expect_values(&t, cc_emit_reduce_window, 1, want_y, 4);
    kt_free(&t);
    /* larger, with padding and NaNs, against the interpreter */
    kt_parse(&t, "func.func @main(%x: tensor<150x40xbf16>, %y: tensor<150x40xbf16>) -> (tensor<75x20xbf16>, tensor<75x20xbf16>) {\n"
        "  %i = stablehlo.constant dense<0x7F80> : tensor<bf16>\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<bf16>\n"
        "  %r:2 = \"stablehlo.reduce_window\"(%x, %y, %i, %z) ({\n"
        "  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<bf16>, %d: tensor<bf16>):\n"
        "    %p = stablehlo.compare LE, %a, %c, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>\n"
        "    %s = stablehlo.select %p, %a, %c : tensor<i1>, tensor<bf16>\n"
        "    %t = stablehlo.select %p, %b, %d : tensor<i1>, tensor<bf16>\n"
        "    stablehlo.return %s, %t : tensor<bf16>, tensor<bf16>\n"
        "  }) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>,\n"
        "      padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>}\n"
        "      : (tensor<150x40xbf16>, tensor<150x40xbf16>, tensor<bf16>, tensor<bf16>) -> (tensor<75x20xbf16>, tensor<75x20xbf16>)\n"
        "  func.return %r#0, %r#1 : tensor<75x20xbf16>, tensor<75x20xbf16>\n}\n",
        CC_K_REDUCE_WINDOW);
    kt_random_inputs(&t, 25, 1.0);
    for (int64_t j = 0; j < 6000; j += 37) kt_set(&t, 0, j, NAN);
    for (int64_t j = 5; j < 6000; j += 11) kt_set(&t, 0, j, 0.5); /* ties */
    kt_check_both(&t, cc_emit_reduce_window, 0);
    kt_free(&t);
}

/* jnp.cumlogsumexp: a window as long as the dim whose body calls a
 * logaddexp function (max, subtract, abs, negate, exp, log1p, add, a NaN
 * test and a select).  Bit for bit against the interpreter; on zeros the
 * running value is log(i + 1). */
/* tmpl with every "$T" replaced by T. */
static void subst_type(char *out, size_t cap, const char *tmpl, const char *T)
{
    size_t n = 0, tl = strlen(T);
    for (const char *p = tmpl; *p && n + tl + 1 < cap; p++) {
        if (p[0] == '$' && p[1] == 'T') {
            memcpy(out + n, T, tl);
            n += tl;
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
}

static void test_k_reduce_window_cumlogsumexp_body_call(void **state)
{
    (void)state;
    const char *tmpl =
        "func.func @main(%x: tensor<8x9x$T>, %i: tensor<$T>) -> tensor<8x9x$T> {\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %i) ({\n"
        "  ^bb0(%a: tensor<$T>, %b: tensor<$T>):\n"
        "    %c = func.call @logaddexp(%a, %b) : (tensor<$T>, tensor<$T>) -> tensor<$T>\n"
        "    stablehlo.return %c : tensor<$T>\n"
        "  }) {window_dimensions = array<i64: 8, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>}\n"
        "      : (tensor<8x9x$T>, tensor<$T>) -> tensor<8x9x$T>\n"
        "  func.return %r : tensor<8x9x$T>\n}\n"
        "func.func private @logaddexp(%p: tensor<$T>, %q: tensor<$T>) -> tensor<$T> {\n"
        "  %0 = stablehlo.maximum %p, %q : tensor<$T>\n"
        "  %1 = stablehlo.subtract %p, %q : tensor<$T>\n"
        "  %2 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<$T>, tensor<$T>) -> tensor<i1>\n"
        "  %3 = stablehlo.add %p, %q : tensor<$T>\n"
        "  %4 = stablehlo.abs %1 : tensor<$T>\n"
        "  %5 = stablehlo.negate %4 : tensor<$T>\n"
        "  %6 = stablehlo.exponential %5 : tensor<$T>\n"
        "  %7 = stablehlo.log_plus_one %6 : tensor<$T>\n"
        "  %8 = stablehlo.add %0, %7 : tensor<$T>\n"
        "  %9 = stablehlo.select %2, %3, %8 : tensor<i1>, tensor<$T>\n"
        "  return %9 : tensor<$T>\n}\n";
    const char *types[] = {"f32", "bf16", "f16"};
    for (size_t ti = 0; ti < ARRAY_LEN(types); ti++) {
        const char *T = types[ti];
        char src[4096];
        subst_type(src, sizeof src, tmpl, T);
        struct kt t;
        kt_parse(&t, src, CC_K_REDUCE_WINDOW);
        kt_random_inputs(&t, 26 + ti, 2.0);
        kt_set(&t, 1, 0, -INFINITY);
        kt_set(&t, 0, 5, NAN);
        kt_set(&t, 0, 6, INFINITY);
        kt_set(&t, 0, 15, INFINITY);
        kt_set(&t, 0, 7, -INFINITY);
        kt_check_both(&t, cc_emit_reduce_window, 0);
        if (ti == 0) {
            for (int j = 0; j < 72; j++) kt_set(&t, 0, j, j % 9 == 4 ? 0.0 : (double)(j % 9));
            struct chip_desc chip;
            kt_load_chip("trn2", &chip);
            struct kt_run r;
            kt_run(&t, &chip, cc_emit_reduce_window, false, 0, &r);
            for (int i = 0; i < 8; i++) { /* column 0 is zeros: log(i + 1) */
                double got = base_elem_get_f64(BASE_DT_F32, r.outs[0]->data, (size_t)(i * 9));
                if (fabs(got - log(i + 1.0)) > 1e-6) fail_msg("row %d: got %.9g, want log(%d)", i, got, i + 1);
            }
            kt_run_free(&r);
        }
        kt_free(&t);
    }
}

/* a scalar reduce_window (no dims: one window of one element), and windows
 * wholly in the padding (they fold the init value in): x = 2 from 1.5 is
 * 3.5; y = [1 2 3 4 5] padded 3/4, windows of 2 with stride 3 read
 * [p p], [1 2], [4 5], [p p]: 4.5, 4.5, 10.5, 4.5 */
static void test_k_reduce_window_scalar_and_all_padding(void **state)
{
    (void)state;
    const char *srcs[] = {
        "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
        "  %n = stablehlo.constant dense<1.5> : tensor<f32>\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %n) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %c : tensor<f32>\n"
        "  }) {window_dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "  func.return %r : tensor<f32>\n}\n",
        "func.func @main(%y: tensor<5xf32>) -> tensor<4xf32> {\n"
        "  %n = stablehlo.constant dense<1.5> : tensor<f32>\n"
        "  %s = \"stablehlo.reduce_window\"(%y, %n) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %c : tensor<f32>\n"
        "  }) {window_dimensions = array<i64: 2>, padding = dense<[[3, 4]]> : tensor<1x2xi64>, window_strides = array<i64: 3>}\n"
        "      : (tensor<5xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  func.return %s : tensor<4xf32>\n}\n",
    };
    const double want0[1] = {3.5}, want1[4] = {4.5, 4.5, 10.5, 4.5};
    for (int i = 0; i < 2; i++) {
        struct kt t;
        kt_parse(&t, srcs[i], CC_K_REDUCE_WINDOW);
        kt_random_inputs(&t, 30, 1.0);
        for (int j = 0; j < (i ? 5 : 1); j++) kt_set(&t, 0, j, i ? j + 1 : 2.0);
        expect_values(&t, cc_emit_reduce_window, 0, i ? want1 : want0, i ? 4 : 1);
        kt_free(&t);
    }
}

/* a bf16 window sum with dilation and a nonzero init: every step rounds to bf16, as the interpreter's */
static void test_k_reduce_window_bf16_sum_dilated_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<300x20xbf16>) -> tensor<150x8xbf16> {\n"
        "  %z = stablehlo.constant dense<0.25> : tensor<bf16>\n"
        "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
        "  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
        "    %m = stablehlo.add %a, %b : tensor<bf16>\n"
        "    stablehlo.return %m : tensor<bf16>\n"
        "  }) {window_dimensions = array<i64: 4, 3>, window_strides = array<i64: 2, 2>,\n"
        "      window_dilations = array<i64: 1, 2>, padding = dense<[[1, 2], [0, 0]]> : tensor<2x2xi64>}\n"
        "      : (tensor<300x20xbf16>, tensor<bf16>) -> tensor<150x8xbf16>\n"
        "  func.return %r : tensor<150x8xbf16>\n}\n",
        cc_emit_reduce_window, CC_K_REDUCE_WINDOW, 7, 0);
}

/* integer sums wrap exactly; booleans fold with or/and */
static void test_k_reduce_integer_and_boolean_exact(void **state)
{
    (void)state;
    struct kt t;
    const char *srcs[] = {
        "func.func @main(%x: tensor<40x700xi32>) -> tensor<40xi32> {\n"
        "  %z = stablehlo.constant dense<7> : tensor<i32>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<40x700xi32>, tensor<i32>) -> tensor<40xi32>\n"
        "  func.return %r : tensor<40xi32>\n}\n",
        "func.func @main(%x: tensor<40x700xi1>) -> tensor<700xi1> {\n"
        "  %z = stablehlo.constant dense<false> : tensor<i1>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.or across dimensions = [0] : (tensor<40x700xi1>, tensor<i1>) -> tensor<700xi1>\n"
        "  func.return %r : tensor<700xi1>\n}\n",
        "func.func @main(%x: tensor<40x700xui64>) -> tensor<40xui64> {\n"
        "  %z = stablehlo.constant dense<0> : tensor<ui64>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<40x700xui64>, tensor<ui64>) -> tensor<40xui64>\n"
        "  func.return %r : tensor<40xui64>\n}\n",
        "func.func @main(%x: tensor<40x700xi64>) -> tensor<40xi64> {\n"
        "  %z = stablehlo.constant dense<1> : tensor<i64>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.multiply across dimensions = [1] : (tensor<40x700xi64>, tensor<i64>) -> tensor<40xi64>\n"
        "  func.return %r : tensor<40xi64>\n}\n",
    };
    for (size_t i = 0; i < ARRAY_LEN(srcs); i++) {
        kt_parse(&t, srcs[i], CC_K_REDUCE);
        kt_random_inputs(&t, 20 + i, 1.0);
        struct base_rng r;
        base_rng_seed(&r, 99 + i);
        struct base_tensor *x = t.args[0];
        if (x->dtype != BASE_DT_I1) /* full-range integers, so sums and products wrap */
            for (int64_t j = 0; j < x->count; j++) base_elem_set_i64(x->dtype, x->data, (size_t)j, (int64_t)base_rng_next(&r));
        else
            for (int64_t j = 0; j < x->count; j++) base_elem_set_i64(x->dtype, x->data, (size_t)j, (base_rng_next(&r) % 97) == 0);
        kt_check_both(&t, cc_emit_reduce, 0);
        kt_free(&t);
    }
}

/* two independent reductions in one op: a sum and a max */
static void test_k_reduce_variadic_independent(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<64x100xf32>, %y: tensor<64x100xf32>) -> (tensor<64xf32>, tensor<64xf32>) {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %n = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %r:2 = stablehlo.reduce(%x init: %z), (%y init: %n) across dimensions = [1] : (tensor<64x100xf32>, tensor<64x100xf32>, tensor<f32>, tensor<f32>) -> (tensor<64xf32>, tensor<64xf32>)\n"
        "   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {\n"
        "    %s = stablehlo.add %a, %c : tensor<f32>\n"
        "    %m = stablehlo.maximum %b, %d : tensor<f32>\n"
        "    stablehlo.return %s, %m : tensor<f32>, tensor<f32>\n"
        "  }\n"
        "  func.return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 8, 0);
}

/* softmax: the exponentials are an output of the prologue too */
static void test_k_reduce_prologue_with_its_own_output(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<17x4000xf32>, %m: tensor<17xf32>) -> (tensor<17x4000xf32>, tensor<17xf32>) {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %b = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<17xf32>) -> tensor<17x4000xf32>\n"
        "  %s = stablehlo.subtract %x, %b : tensor<17x4000xf32>\n"
        "  %e = stablehlo.exponential %s : tensor<17x4000xf32>\n"
        "  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<17x4000xf32>, tensor<f32>) -> tensor<17xf32>\n"
        "  func.return %e, %r : tensor<17x4000xf32>, tensor<17xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 9, 0);
}

/* a prologue value used outside the group (the convert, returned) over a
 * space with size-1 dims: it is stored whole, not only where the reduce
 * reads it.  x = [[0], [1], [10]] converted to i64: [0, 1, 10]. */
static void test_k_reduce_prologue_output_with_unit_dims(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%a: tensor<3x1xf32>, %y: tensor<3x1x1xi64>) -> (tensor<3x1xi1>, tensor<3x1x1xi64>) {\n"
             "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
             "  %b = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x1x1xf32>\n"
             "  %c = stablehlo.convert %b : (tensor<3x1x1xf32>) -> tensor<3x1x1xi64>\n"
             "  %p = stablehlo.compare GE, %c, %y, SIGNED : (tensor<3x1x1xi64>, tensor<3x1x1xi64>) -> tensor<3x1x1xi1>\n"
             "  %r = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [2] : (tensor<3x1x1xi1>, tensor<i1>) -> tensor<3x1xi1>\n"
             "  func.return %r, %c : tensor<3x1xi1>, tensor<3x1x1xi64>\n}\n",
             CC_K_REDUCE);
    kt_random_inputs(&t, 16, 1.0);
    const double x[3] = {0, 1, 10}, y[3] = {0, 5, 10};
    for (int i = 0; i < 3; i++) kt_set(&t, 0, i, x[i]), kt_set(&t, 1, i, y[i]);
    const double want_r[3] = {1, 0, 1};
    expect_values(&t, cc_emit_reduce, 0, want_r, 3);
    expect_values(&t, cc_emit_reduce, 1, x, 3);
    kt_free(&t);
}

/* rmsnorm's statistic from bf16 activations: convert, square, sum in f32 */
static void test_k_reduce_rmsnorm_from_bf16_exact(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<32x17x1024xbf16>) -> tensor<32x17xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %f = stablehlo.convert %x : (tensor<32x17x1024xbf16>) -> tensor<32x17x1024xf32>\n"
        "  %q = stablehlo.multiply %f, %f : tensor<32x17x1024xf32>\n"
        "  %r = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [2] : (tensor<32x17x1024xf32>, tensor<f32>) -> tensor<32x17xf32>\n"
        "  func.return %r : tensor<32x17xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 10, 0);
}

/* bf16 sums: the interpreter rounds the running sum to bf16 after every
 * step, the chip after every chunk (an f32 sum within it): the documented
 * bound is |chip - interpreter| <= (n + 1) 2^-8 sum |x| over the n reduced
 * elements; bf16 max is exact. */
static void test_k_reduce_bf16_sum_within_bound_and_max_exact(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<50x600xbf16>) -> tensor<50xbf16> {\n"
             "  %z = stablehlo.constant dense<0.0> : tensor<bf16>\n"
             "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<50x600xbf16>, tensor<bf16>) -> tensor<50xbf16>\n"
             "  func.return %r : tensor<50xbf16>\n}\n",
             CC_K_REDUCE);
    kt_random_inputs(&t, 11, 1.0);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d), BASE_OK);
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct kt_run r;
        kt_run(&t, &chip, cc_emit_reduce, false, 0, &r);
        double worst = 0;
        for (int64_t i = 0; i < 50; i++) {
            double abs_sum = 0;
            for (int64_t j = 0; j < 600; j++) abs_sum += fabs(base_elem_get_f64(BASE_DT_BF16, t.args[0]->data, (size_t)(i * 600 + j)));
            double got = base_elem_get_f64(BASE_DT_BF16, r.outs[0]->data, (size_t)i);
            double want = base_elem_get_f64(BASE_DT_BF16, res.outputs[0]->data, (size_t)i);
            double bound = 601.0 / 256.0 * abs_sum;
            if (fabs(got - want) > bound) fail_msg("%s row %lld: got %g, interpreter %g, bound %g", chips[c], (long long)i, got, want, bound);
            if (fabs(got - want) / abs_sum > worst) worst = fabs(got - want) / abs_sum;
        }
        printf("  %s: bf16 sum of 600: largest |chip - interpreter| / sum|x| = %.4f\n", chips[c], worst);
        kt_run_free(&r);
    }
    interp_result_free(&res);
    kt_free(&t);
    run("func.func @main(%x: tensor<50x600xbf16>) -> tensor<50xbf16> {\n"
        "  %z = stablehlo.constant dense<0xFF80> : tensor<bf16>\n"
        "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<50x600xbf16>, tensor<bf16>) -> tensor<50xbf16>\n"
        "  func.return %r : tensor<50xbf16>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 12, 0);
}

/* over no elements: the init value */
static void test_k_reduce_of_nothing_is_init(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<300x0xf32>, %i: tensor<f32>) -> tensor<300xf32> {\n"
        "  %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : (tensor<300x0xf32>, tensor<f32>) -> tensor<300xf32>\n"
        "  func.return %r : tensor<300xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 13, 0);
}

/* glm's mask reduction: the body is `or` then select(r, true, false), an or */
static void test_k_reduce_boolean_body_or_then_select(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<1x96x32x32xi1>) -> tensor<1x96x32xi1> {\n"
        "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
        "  %f = stablehlo.constant dense<false> : tensor<i1>\n"
        "  %n = stablehlo.not %x : tensor<1x96x32x32xi1>\n"
        "  %r = stablehlo.reduce(%n init: %f) across dimensions = [3] : (tensor<1x96x32x32xi1>, tensor<i1>) -> tensor<1x96x32xi1>\n"
        "   reducer(%a: tensor<i1>, %b: tensor<i1>) {\n"
        "    %o = stablehlo.or %a, %b : tensor<i1>\n"
        "    %s = stablehlo.select %o, %t, %f : tensor<i1>, tensor<i1>\n"
        "    stablehlo.return %s : tensor<i1>\n"
        "  }\n"
        "  func.return %r : tensor<1x96x32xi1>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 11, 0);
}

/* compare NE of two i1 is xor (parity: wrong for any other function) */
static void test_k_reduce_boolean_body_ne_is_xor(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<40x33xi1>) -> tensor<40xi1> {\n"
        "  %f = stablehlo.constant dense<true> : tensor<i1>\n"
        "  %r = stablehlo.reduce(%x init: %f) across dimensions = [1] : (tensor<40x33xi1>, tensor<i1>) -> tensor<40xi1>\n"
        "   reducer(%a: tensor<i1>, %b: tensor<i1>) {\n"
        "    %o = stablehlo.compare NE, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
        "    stablehlo.return %o : tensor<i1>\n"
        "  }\n"
        "  func.return %r : tensor<40xi1>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 12, 0);
}

/* add followed by a same-type convert is an add */
static void test_k_reduce_body_op_then_identity(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<64x100xf32>) -> tensor<64xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<64x100xf32>, tensor<f32>) -> tensor<64xf32>\n"
        "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
        "    %o = stablehlo.add %a, %b : tensor<f32>\n"
        "    %c = stablehlo.convert %o : tensor<f32>\n"
        "    stablehlo.return %c : tensor<f32>\n"
        "  }\n"
        "  func.return %r : tensor<64xf32>\n}\n",
        cc_emit_reduce, CC_K_REDUCE, 13, 0);
}

/* nand (not of and) is no ALU reduction: folded step by step in order from
 * the init value, as the interpreter does (nand is not associative, so the
 * order shows): rows 111, 000, 101, 011 from true give 0, 1, 0, 1. */
static void test_k_reduce_boolean_body_nand_in_order(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t, "func.func @main(%x: tensor<4x3xi1>) -> tensor<4xi1> {\n"
                 "  %f = stablehlo.constant dense<true> : tensor<i1>\n"
                 "  %r = stablehlo.reduce(%x init: %f) across dimensions = [1] : (tensor<4x3xi1>, tensor<i1>) -> tensor<4xi1>\n"
                 "   reducer(%a: tensor<i1>, %b: tensor<i1>) {\n"
                 "    %o = stablehlo.and %a, %b : tensor<i1>\n"
                 "    %n = stablehlo.not %o : tensor<i1>\n"
                 "    stablehlo.return %n : tensor<i1>\n"
                 "  }\n"
                 "  func.return %r : tensor<4xi1>\n}\n",
             CC_K_REDUCE);
    char why[200];
    assert_true(cc_reduce_op_supported(t.ops[t.n_ops - 1], NULL, why, sizeof why));
    kt_random_inputs(&t, 17, 1.0);
    const int x[12] = {1, 1, 1, 0, 0, 0, 1, 0, 1, 0, 1, 1};
    for (int i = 0; i < 12; i++) kt_set(&t, 0, i, x[i]);
    const double want[4] = {0, 1, 0, 1};
    expect_values(&t, cc_emit_reduce, 0, want, 4);
    kt_check_both(&t, cc_emit_reduce, 0);
    kt_free(&t);
}

/* bodies that return their arguments or constants (copied into the
 * accumulators): "keep the last element" and "keep the accumulator" per
 * result; x[i][j] = 10 i + j over 5 columns, so the last is 10 i + 4 and
 * the accumulator stays the init 7; the third result is a constant 3. */
static void test_k_reduce_body_returns_args_and_constants(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<4x5xi32>, %y: tensor<4x5xi32>, %w: tensor<4x5xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {\n"
             "  %z = stablehlo.constant dense<7> : tensor<i32>\n"
             "  %r:3 = stablehlo.reduce(%x init: %z), (%y init: %z), (%w init: %z) across dimensions = [1] : (tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)\n"
             "   reducer(%a: tensor<i32>, %c: tensor<i32>) (%b: tensor<i32>, %d: tensor<i32>) (%e: tensor<i32>, %f: tensor<i32>) {\n"
             "    %k = stablehlo.constant dense<3> : tensor<i32>\n"
             "    stablehlo.return %c, %b, %k : tensor<i32>, tensor<i32>, tensor<i32>\n"
             "  }\n"
             "  func.return %r#0, %r#1, %r#2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>\n}\n",
             CC_K_REDUCE);
    kt_random_inputs(&t, 31, 1.0);
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < 20; j++) kt_set(&t, a, j, 10 * (j / 5) + j % 5);
    const double last[4] = {4, 14, 24, 34}, init[4] = {7, 7, 7, 7}, three[4] = {3, 3, 3, 3};
    expect_values(&t, cc_emit_reduce, 0, last, 4);
    expect_values(&t, cc_emit_reduce, 1, init, 4);
    expect_values(&t, cc_emit_reduce, 2, three, 4);
    kt_check_both(&t, cc_emit_reduce, 0);
    kt_free(&t);
}

/* jnp.argmax's reduce: values and iota indices; NaN wins (the first one),
 * ties go to the lower index. */
#define ARGMAX_BODY(T, CT)                                                                                       \
    "   reducer(%a: tensor<" T ">, %c: tensor<" T ">) (%b: tensor<i32>, %d: tensor<i32>) {\n"                  \
    "    %0 = stablehlo.compare GT, %a, %c, " CT " : (tensor<" T ">, tensor<" T ">) -> tensor<i1>\n"           \
    "    %1 = stablehlo.compare NE, %a, %a, " CT " : (tensor<" T ">, tensor<" T ">) -> tensor<i1>\n"           \
    "    %2 = stablehlo.or %0, %1 : tensor<i1>\n"                                                               \
    "    %3 = stablehlo.compare EQ, %a, %c, " CT " : (tensor<" T ">, tensor<" T ">) -> tensor<i1>\n"           \
    "    %4 = stablehlo.compare LT, %b, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"               \
    "    %5 = stablehlo.and %3, %4 : tensor<i1>\n"                                                              \
    "    %6 = stablehlo.or %2, %5 : tensor<i1>\n"                                                               \
    "    %7 = stablehlo.select %2, %a, %c : tensor<i1>, tensor<" T ">\n"                                       \
    "    %8 = stablehlo.select %6, %b, %d : tensor<i1>, tensor<i32>\n"                                         \
    "    stablehlo.return %7, %8 : tensor<" T ">, tensor<i32>\n"                                               \
    "  }\n"

static void test_k_reduce_argmax_nan_and_ties(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<4x5xf32>) -> (tensor<4xf32>, tensor<4xi32>) {\n"
             "  %i = stablehlo.iota dim = 1 : tensor<4x5xi32>\n"
             "  %n = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
             "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r:2 = stablehlo.reduce(%x init: %n), (%i init: %z) across dimensions = [1] : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
             ARGMAX_BODY("f32", "FLOAT")
             "  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>\n}\n",
             CC_K_REDUCE);
    kt_random_inputs(&t, 18, 1.0);
    const double x[20] = {1, 3, 2, 3, 0,               /* tie: the first 3, index 1 */
                          2, NAN, INFINITY, NAN, 5,    /* the first NaN, index 1 */
                          -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, /* all init: index 0 */
                          -1, -2, -0.5, -0.25, -3};    /* index 3 */
    for (int i = 0; i < 20; i++) kt_set(&t, 0, i, x[i]);
    const double want_v[4] = {3, NAN, -INFINITY, -0.25}, want_i[4] = {1, 1, 0, 3};
    expect_values(&t, cc_emit_reduce, 0, want_v, 4);
    expect_values(&t, cc_emit_reduce, 1, want_i, 4);
    kt_check_both(&t, cc_emit_reduce, 0);
    kt_free(&t);
}

/* many rows of small integers (ties everywhere), several kept dims, bf16 and
 * i8 values: against the interpreter */
static void test_k_reduce_argmax_ties_against_interpreter(void **state)
{
    (void)state;
    const char *srcs[] = {
        "func.func @main(%x: tensor<3x70x40xbf16>) -> (tensor<3x40xbf16>, tensor<3x40xi32>) {\n"
        "  %i = stablehlo.iota dim = 1 : tensor<3x70x40xi32>\n"
        "  %n = stablehlo.constant dense<0xFF80> : tensor<bf16>\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %r:2 = stablehlo.reduce(%x init: %n), (%i init: %z) across dimensions = [1] : (tensor<3x70x40xbf16>, tensor<3x70x40xi32>, tensor<bf16>, tensor<i32>) -> (tensor<3x40xbf16>, tensor<3x40xi32>)\n"
        ARGMAX_BODY("bf16", "FLOAT")
        "  func.return %r#0, %r#1 : tensor<3x40xbf16>, tensor<3x40xi32>\n}\n",
        "func.func @main(%x: tensor<200x33xi8>, %i: tensor<200x33xi32>) -> (tensor<200xi8>, tensor<200xi32>) {\n"
        "  %n = stablehlo.constant dense<-128> : tensor<i8>\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %r:2 = stablehlo.reduce(%x init: %n), (%i init: %z) across dimensions = [1] : (tensor<200x33xi8>, tensor<200x33xi32>, tensor<i8>, tensor<i32>) -> (tensor<200xi8>, tensor<200xi32>)\n"
        ARGMAX_BODY("i8", "SIGNED")
        "  func.return %r#0, %r#1 : tensor<200xi8>, tensor<200xi32>\n}\n",
    };
    for (size_t s = 0; s < ARRAY_LEN(srcs); s++) {
        struct kt t;
        kt_parse(&t, srcs[s], CC_K_REDUCE);
        kt_random_inputs(&t, 19 + s, 1.0);
        struct base_rng r;
        base_rng_seed(&r, 40 + s);
        for (int64_t j = 0; j < t.args[0]->count; j++) kt_set(&t, 0, j, (double)(base_rng_next(&r) % 7) - 3);
        for (int a = 1; a < t.n_args; a++) /* index inputs: any order, repeats */
            for (int64_t j = 0; j < t.args[a]->count; j++) kt_set(&t, a, j, (double)(base_rng_next(&r) % 50));
        kt_check_both(&t, cc_emit_reduce, 0);
        kt_free(&t);
    }
}

/* one long row: the fold crosses several chunks */
static void test_k_reduce_argmin_long_row_in_chunks(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<2x30000xf32>) -> (tensor<2xf32>, tensor<2xi32>) {\n"
             "  %i = stablehlo.iota dim = 1 : tensor<2x30000xi32>\n"
             "  %n = stablehlo.constant dense<0x7F800000> : tensor<f32>\n"
             "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r:2 = stablehlo.reduce(%x init: %n), (%i init: %z) across dimensions = [1] : (tensor<2x30000xf32>, tensor<2x30000xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)\n"
             "   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {\n"
             "    %0 = stablehlo.compare LT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
             "    %3 = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
             "    %4 = stablehlo.compare LT, %b, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "    %5 = stablehlo.and %3, %4 : tensor<i1>\n"
             "    %6 = stablehlo.or %0, %5 : tensor<i1>\n"
             "    %7 = stablehlo.select %0, %a, %c : tensor<i1>, tensor<f32>\n"
             "    %8 = stablehlo.select %6, %b, %d : tensor<i1>, tensor<i32>\n"
             "    stablehlo.return %7, %8 : tensor<f32>, tensor<i32>\n"
             "  }\n"
             "  func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>\n}\n",
             CC_K_REDUCE);
    kt_random_inputs(&t, 21, 1.0);
    kt_set(&t, 0, 29000, -5.0); /* row 0's minimum, late */
    kt_set(&t, 0, 30000 + 17000, -7.0);
    kt_set(&t, 0, 30000 + 25000, -7.0); /* row 1: a tie, the first wins */
    const double want_v[2] = {-5, -7}, want_i[2] = {29000, 17000};
    expect_values(&t, cc_emit_reduce, 0, want_v, 2);
    expect_values(&t, cc_emit_reduce, 1, want_i, 2);
    kt_free(&t);
}

TEST_MAIN(NULL, NULL, T(test_k_reduce_boolean_body_or_then_select), T(test_k_reduce_boolean_body_ne_is_xor),
          T(test_k_reduce_body_op_then_identity), T(test_k_reduce_boolean_body_nand_in_order), T(test_k_reduce_argmax_nan_and_ties), T(test_k_reduce_body_returns_args_and_constants),
          T(test_k_reduce_argmax_ties_against_interpreter), T(test_k_reduce_argmin_long_row_in_chunks),
          T(test_k_reduce_of_nothing_is_init), T(test_k_reduce_integer_and_boolean_exact), T(test_k_reduce_variadic_independent),
          T(test_k_reduce_prologue_with_its_own_output), T(test_k_reduce_prologue_output_with_unit_dims), T(test_k_reduce_rmsnorm_from_bf16_exact),
          T(test_k_reduce_bf16_sum_within_bound_and_max_exact), T(test_k_reduce_window_max_pool_exact), T(test_k_reduce_window_cumsum_large_window_padding),
          T(test_k_reduce_window_base_dilation_spec_example), T(test_k_reduce_window_base_dilation_both_dims),
          T(test_k_reduce_window_two_inputs_select_pair),
          T(test_k_reduce_window_cumlogsumexp_body_call),
          T(test_k_reduce_window_scalar_and_all_padding), T(test_k_reduce_window_bf16_sum_dilated_exact), T(test_k_reduce_sum_last_dim_f32_exact), T(test_k_reduce_max_inner_dim_f32_exact),
          T(test_k_reduce_outer_and_inner_dims_with_init_input), T(test_k_reduce_all_to_scalar_in_chunks),
          T(test_k_reduce_softmax_prologue_exact))
