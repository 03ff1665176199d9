/* Quantization kernels: uniform_quantize / uniform_dequantize and the
 * dequantize / quantize helpers, against the spec's examples, the reference
 * interpreter's quantized_ops.mlir and IEEE f32 facts. */
#include "tests/prog.h"

#include <math.h>

#include "interp/interp_internal.h"

static struct graph_quant per_tensor(enum base_dtype storage, double *scale, int64_t *zp)
{
    struct graph_quant q = {
        .storage = storage,
        .expressed = BASE_DT_F32,
        .storage_min = base_int_min(storage),
        .storage_max = (int64_t)base_int_max(storage),
        .quant_dim = -1,
        .n_scales = 1,
        .scales = scale,
        .zero_points = zp,
    };
    return q;
}

static struct base_tensor *f32_vec(const float *v, int n)
{
    struct base_tensor *t = NULL;
    int64_t dims[1] = {n};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, dims, &t), BASE_OK);
    for (int i = 0; i < n; i++) ((float *)t->data)[i] = v[i];
    return t;
}

static struct base_tensor *i8_vec(const int8_t *v, int n)
{
    struct base_tensor *t = NULL;
    int64_t dims[1] = {n};
    assert_int_equal(base_tensor_create(BASE_DT_SI8, 1, dims, &t), BASE_OK);
    for (int i = 0; i < n; i++) ((int8_t *)t->data)[i] = v[i];
    return t;
}

/* quantized_ops.mlir: [4.0, 15.0] with per-axis {0.1:-30, 0.5:-20} -> [10, 10] */
static void test_quantize_per_axis_matches_reference_example(void **state)
{
    (void)state;
    double scales[2] = {0.1, 0.5};
    int64_t zps[2] = {-30, -20};
    struct graph_quant q = per_tensor(BASE_DT_SI8, scales, zps);
    q.quant_dim = 0;
    q.n_scales = 2;
    float x[2] = {4.0f, 15.0f};
    struct base_tensor *in = f32_vec(x, 2), *out = NULL;
    assert_int_equal(interp_quantize(&q, in, &out), BASE_OK);
    assert_int_equal(out->dtype, BASE_DT_SI8);
    assert_int_equal(((int8_t *)out->data)[0], 10);
    assert_int_equal(((int8_t *)out->data)[1], 10);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* and back: [10, 10] -> [4.0, 15.0] */
static void test_dequantize_per_axis_matches_reference_example(void **state)
{
    (void)state;
    double scales[2] = {0.1, 0.5};
    int64_t zps[2] = {-30, -20};
    struct graph_quant q = per_tensor(BASE_DT_SI8, scales, zps);
    q.quant_dim = 0;
    q.n_scales = 2;
    int8_t v[2] = {10, 10};
    struct base_tensor *in = i8_vec(v, 2), *out = NULL;
    assert_int_equal(interp_dequantize(&q, in, &out), BASE_OK);
    assert_int_equal(out->dtype, BASE_DT_F32);
    /* 40 * f32(0.1) rounds to exactly 4 in f32; 30 * 0.5 = 15 */
    assert_true(((float *)out->data)[0] == 4.0f);
    assert_true(((float *)out->data)[1] == 15.0f);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* Per-axis over dim 1 of a 2x3 tensor: the channel is the column. */
static void test_dequantize_per_axis_uses_quantized_dimension(void **state)
{
    (void)state;
    double scales[3] = {1.0, 2.0, 4.0};
    int64_t zps[3] = {0, 1, -1};
    struct graph_quant q = per_tensor(BASE_DT_SI8, scales, zps);
    q.quant_dim = 1;
    q.n_scales = 3;
    struct base_tensor *in = NULL, *out = NULL;
    int64_t dims[2] = {2, 3};
    assert_int_equal(base_tensor_create(BASE_DT_SI8, 2, dims, &in), BASE_OK);
    int8_t v[6] = {1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 6; i++) ((int8_t *)in->data)[i] = v[i];
    assert_int_equal(interp_dequantize(&q, in, &out), BASE_OK);
    float want[6] = {1.0f, 2.0f, 16.0f, 4.0f, 8.0f, 28.0f}; /* (q - zp) * scale per column */
    for (int i = 0; i < 6; i++) assert_true(((float *)out->data)[i] == want[i]);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* The spec rounds half to even: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2, 0.5 -> 0. */
static void test_quantize_rounds_half_to_even(void **state)
{
    (void)state;
    double s = 1.0;
    int64_t zp = 0;
    struct graph_quant q = per_tensor(BASE_DT_SI8, &s, &zp);
    float x[4] = {2.5f, 3.5f, -2.5f, 0.5f};
    struct base_tensor *in = f32_vec(x, 4), *out = NULL;
    assert_int_equal(interp_quantize(&q, in, &out), BASE_OK);
    const int8_t *r = out->data;
    assert_int_equal(r[0], 2);
    assert_int_equal(r[1], 4);
    assert_int_equal(r[2], -2);
    assert_int_equal(r[3], 0);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* Values beyond the storage range clamp to storage_min / storage_max, also a
 * narrowed range (i8<-100:100>); NaN gives 0 (convert semantics). */
static void test_quantize_clamps_to_storage_range(void **state)
{
    (void)state;
    double s = 1.0;
    int64_t zp = 0;
    struct graph_quant q = per_tensor(BASE_DT_SI8, &s, &zp);
    float x[3] = {300.0f, -300.0f, NAN};
    struct base_tensor *in = f32_vec(x, 3), *out = NULL;
    assert_int_equal(interp_quantize(&q, in, &out), BASE_OK);
    assert_int_equal(((int8_t *)out->data)[0], 127);
    assert_int_equal(((int8_t *)out->data)[1], -128);
    assert_int_equal(((int8_t *)out->data)[2], 0);
    base_tensor_release(out);
    q.storage_min = -100;
    q.storage_max = 100;
    assert_int_equal(interp_quantize(&q, in, &out), BASE_OK);
    assert_int_equal(((int8_t *)out->data)[0], 100);
    assert_int_equal(((int8_t *)out->data)[1], -100);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* The lowered program divides in f32: f32(0.35) / f32(0.1) is exactly 3.5 in
 * f32 (it would be 3.49999994 in f64), which rounds to even: 4. */
static void test_quantize_divides_in_f32(void **state)
{
    (void)state;
    double s = 0.1;
    int64_t zp = 0;
    struct graph_quant q = per_tensor(BASE_DT_SI8, &s, &zp);
    float x[2] = {0.35f, 0.05f}; /* 0.05f / 0.1f is exactly 0.5f -> 0 */
    struct base_tensor *in = f32_vec(x, 2), *out = NULL;
    assert_int_equal(interp_quantize(&q, in, &out), BASE_OK);
    assert_int_equal(((int8_t *)out->data)[0], 4);
    assert_int_equal(((int8_t *)out->data)[1], 0);
    base_tensor_release(in);
    base_tensor_release(out);
}

/* Dequantize then quantize with the same type gives the storage values back. */
static void test_dequantize_quantize_round_trip_is_exact(void **state)
{
    (void)state;
    double s = 0.0039215482917486456;
    int64_t zp = -128;
    struct graph_quant q = per_tensor(BASE_DT_SI8, &s, &zp);
    int8_t v[256];
    for (int i = 0; i < 256; i++) v[i] = (int8_t)(i - 128);
    struct base_tensor *in = i8_vec(v, 256), *f = NULL, *back = NULL;
    assert_int_equal(interp_dequantize(&q, in, &f), BASE_OK);
    assert_int_equal(interp_quantize(&q, f, &back), BASE_OK);
    for (int i = 0; i < 256; i++) assert_int_equal(((int8_t *)back->data)[i], v[i]);
    base_tensor_release(in);
    base_tensor_release(f);
    base_tensor_release(back);
}

/* ---- whole programs (parser + interpreter) ------------------------------ */

/* quantized_ops.mlir: requantizing per-axis [10, 10] from {0.1:-30,0.5:-20}
 * to {0.1:-20,0.2:-30} gives [20, 45] (40*1 - 20 and 30*2.5 - 30 in real
 * terms: (10+30)*0.1/0.1 - 20 = 20, (10+20)*0.5/0.2 - 30 = 45). */
static void test_uniform_quantize_requantizes_per_axis(void **state)
{
    (void)state;
    prog_run_checks("func.func @main() {\n"
                    "  %c = stablehlo.constant dense<[10, 10]> : tensor<2xi8>\n"
                    "  %q = \"stablehlo.bitcast_convert\"(%c) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32:0, "
                    "{0.1:-30,0.5:-20}>>\n"
                    "  %r = \"stablehlo.uniform_quantize\"(%q) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) "
                    "-> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>\n"
                    "  %b = \"stablehlo.bitcast_convert\"(%r) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>) "
                    "-> tensor<2xi8>\n"
                    "  check.expect_eq_const %b, dense<[20, 45]> : tensor<2xi8>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 1);
}

/* quantized_ops.mlir: add of two differently quantized tensors, through the
 * core's dequantize -> add -> quantize: 1+3 = 4 -> 4/0.5 - 20 = -12 and
 * 2+4 = 6 -> -8. */
static void test_quantized_add_dequantizes_and_requantizes(void **state)
{
    (void)state;
    prog_run_checks("func.func @main() {\n"
                    "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
                    "  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>\n"
                    "  %qa = \"stablehlo.uniform_quantize\"(%a) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, "
                    "0.1:-30>>\n"
                    "  %qb = \"stablehlo.uniform_quantize\"(%b) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, "
                    "0.5:-20>>\n"
                    "  %s = \"stablehlo.add\"(%qa, %qb) : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, "
                    "tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>\n"
                    "  %r = \"stablehlo.bitcast_convert\"(%s) : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> "
                    "tensor<2xi8>\n"
                    "  check.expect_eq_const %r, dense<[-12, -8]> : tensor<2xi8>\n"
                    "  %d = \"stablehlo.uniform_dequantize\"(%s) : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> "
                    "tensor<2xf32>\n"
                    "  check.expect_eq_const %d, dense<[4.0, 6.0]> : tensor<2xf32>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* An op with a region on quantized types (reduce_window max): the region's
 * ops see the expressed values the enclosing kernel works on.  Windows of 2
 * over [1, 3, 2, 5] give [3, 5]. */
static void test_quantized_reduce_window_runs_region_on_expressed_values(void **state)
{
    (void)state;
    prog_run_checks("func.func @main() {\n"
                    "  %x = stablehlo.constant dense<[1.0, 3.0, 2.0, 5.0]> : tensor<4xf32>\n"
                    "  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-10>>\n"
                    "  %init = stablehlo.constant dense<-100.0> : tensor<f32>\n"
                    "  %qi = stablehlo.uniform_quantize %init : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:-10>>\n"
                    "  %r = \"stablehlo.reduce_window\"(%q, %qi) ({\n"
                    "    ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:-10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:-10>>):\n"
                    "      %m = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 0.5:-10>>\n"
                    "      stablehlo.return %m : tensor<!quant.uniform<i8:f32, 0.5:-10>>\n"
                    "  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} :\n"
                    "      (tensor<4x!quant.uniform<i8:f32, 0.5:-10>>, tensor<!quant.uniform<i8:f32, 0.5:-10>>) ->\n"
                    "      tensor<2x!quant.uniform<i8:f32, 0.5:-10>>\n"
                    "  %d = stablehlo.uniform_dequantize %r : (tensor<2x!quant.uniform<i8:f32, 0.5:-10>>) -> "
                    "tensor<2xf32>\n"
                    "  check.expect_eq_const %d, dense<[3.0, 5.0]> : tensor<2xf32>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 1);
}

TEST_MAIN(NULL, NULL, T(test_quantize_per_axis_matches_reference_example),
          T(test_dequantize_per_axis_matches_reference_example), T(test_dequantize_per_axis_uses_quantized_dimension),
          T(test_quantize_rounds_half_to_even), T(test_quantize_clamps_to_storage_range),
          T(test_quantize_divides_in_f32), T(test_dequantize_quantize_round_trip_is_exact),
          T(test_uniform_quantize_requantizes_per_axis), T(test_quantized_add_dequantizes_and_requantizes),
          T(test_quantized_reduce_window_runs_region_on_expressed_values))
