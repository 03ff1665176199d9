/* Quantized types on chip (compiler/k_quant.c, k_dot.c, k_conv.c) against
 * the golden interpreter, bit for bit: quantize / dequantize per tensor and
 * per axis (clamping, NaN, ties at .5, zero points), requantization,
 * quantized elementwise ops (dequantize -> op -> quantize, fused), and
 * quantized dot_general / convolution on the systolic arrays (int8 on
 * tpu-v5e, storage - zero point in bf16 on trn2). */
#include "tests/compiler/k_test_util.h"

static const char *chips[] = {"tpu-v5e", "trn2"};

/* Inputs: floats from the seed (scale), then special values; quantized
 * (integer) arguments get the full storage range. */
static void inputs(struct kt *t, uint64_t seed, double scale)
{
    kt_random_inputs(t, seed, scale);
    for (int a = 0; a < t->n_args; a++) {
        struct base_tensor *x = t->args[a];
        const struct graph_type *ty = t->in[a].value->type;
        if (ty->quant) {
            struct base_rng r;
            base_rng_seed(&r, seed * 7 + (uint64_t)a);
            int64_t lo = ty->quant->storage_min, span = ty->quant->storage_max - lo + 1;
            for (int64_t i = 0; i < x->count; i++)
                base_elem_set_i64(x->dtype, x->data, (size_t)i, lo + (int64_t)(base_rng_next(&r) % (uint64_t)span));
        } else if (base_dtype_is_float(x->dtype) && x->count > 8) {
            static const double sp[] = {NAN, 1e30, -1e30, 0.0, -0.0, 0.125, -0.375, 1.0 / 3};
            for (int i = 0; i < 8; i++) base_elem_set_f64(x->dtype, x->data, (size_t)(i * 5 % x->count), sp[i]);
        }
    }
}

static void check(const char *src, enum cc_kernel_kind kind, cc_emit_fn fn, uint64_t seed, double scale)
{
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t, src, kind);
        inputs(&t, seed, scale);
        kt_check(&t, chips[c], fn, 0);
        kt_free(&t);
    }
}

/* f32 -> i8 (zero point, clamping, NaN, ties) -> f32 in one fusion */
static void test_k_quant_quantize_dequantize_per_tensor(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<37x41xf32>) -> (tensor<37x41x!quant.uniform<i8:f32, 0.125:-3>>, tensor<37x41xf32>) {\n"
          "  %q = stablehlo.uniform_quantize %x : (tensor<37x41xf32>) -> tensor<37x41x!quant.uniform<i8:f32, 0.125:-3>>\n"
          "  %d = stablehlo.uniform_dequantize %q : (tensor<37x41x!quant.uniform<i8:f32, 0.125:-3>>) -> tensor<37x41xf32>\n"
          "  func.return %q, %d : tensor<37x41x!quant.uniform<i8:f32, 0.125:-3>>, tensor<37x41xf32>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 1, 12.0);
    /* ui8 storage, a bf16 expressed type */
    check("func.func @main(%x: tensor<300xbf16>) -> tensor<300xbf16> {\n"
          "  %q = stablehlo.uniform_quantize %x : (tensor<300xbf16>) -> tensor<300x!quant.uniform<ui8:bf16, 0.03:128>>\n"
          "  %d = stablehlo.uniform_dequantize %q : (tensor<300x!quant.uniform<ui8:bf16, 0.03:128>>) -> tensor<300xbf16>\n"
          "  func.return %d : tensor<300xbf16>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 2, 3.0);
}

static void test_k_quant_per_axis(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<20x3x33xf32>) -> tensor<20x3x33xf32> {\n"
          "  %q = stablehlo.uniform_quantize %x : (tensor<20x3x33xf32>) -> "
          "tensor<20x3x33x!quant.uniform<i8:f32:1, {0.1:-30,0.5:-20,0.02:5}>>\n"
          "  %d = stablehlo.uniform_dequantize %q : (tensor<20x3x33x!quant.uniform<i8:f32:1, {0.1:-30,0.5:-20,0.02:5}>>) "
          "-> tensor<20x3x33xf32>\n"
          "  func.return %d : tensor<20x3x33xf32>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 3, 8.0);
}

/* i8 -> i8 with other parameters, i32 -> i8 (the clamp), per axis */
static void test_k_quant_requantize(void **state)
{
    (void)state;
    check("func.func @main(%q: tensor<50x7x!quant.uniform<i8:f32, 0.1:-30>>, %w: tensor<50x7x!quant.uniform<i32:f32, 0.001>>)"
          " -> (tensor<50x7x!quant.uniform<i8:f32, 0.25:7>>, tensor<50x7x!quant.uniform<i8:f32, 0.0051740104076909085:-20>>) {\n"
          "  %a = stablehlo.uniform_quantize %q : (tensor<50x7x!quant.uniform<i8:f32, 0.1:-30>>) -> "
          "tensor<50x7x!quant.uniform<i8:f32, 0.25:7>>\n"
          "  %b = stablehlo.uniform_quantize %w : (tensor<50x7x!quant.uniform<i32:f32, 0.001>>) -> "
          "tensor<50x7x!quant.uniform<i8:f32, 0.0051740104076909085:-20>>\n"
          "  func.return %a, %b : tensor<50x7x!quant.uniform<i8:f32, 0.25:7>>, "
          "tensor<50x7x!quant.uniform<i8:f32, 0.0051740104076909085:-20>>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 4, 1.0);
    check("func.func @main(%q: tensor<2x40x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> "
          "tensor<2x40x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>> {\n"
          "  %a = stablehlo.uniform_quantize %q : (tensor<2x40x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> "
          "tensor<2x40x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>\n"
          "  func.return %a : tensor<2x40x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 5, 1.0);
}

/* ops on quantized operands: dequantize, the f32 op, quantize */
static void test_k_quant_elementwise_ops(void **state)
{
    (void)state;
    check("func.func @main(%a: tensor<64x9x!quant.uniform<i8:f32, 0.1:-30>>, %b: tensor<64x9x!quant.uniform<i8:f32, 0.5:-20>>)"
          " -> tensor<64x9x!quant.uniform<i8:f32, 0.0078125:0>> {\n"
          "  %s = stablehlo.add %a, %b : (tensor<64x9x!quant.uniform<i8:f32, 0.1:-30>>, "
          "tensor<64x9x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<64x9x!quant.uniform<i8:f32, 0.5:-20>>\n"
          "  %t = stablehlo.tanh %s : (tensor<64x9x!quant.uniform<i8:f32, 0.5:-20>>) -> "
          "tensor<64x9x!quant.uniform<i8:f32, 0.0078125:0>>\n"
          "  func.return %t : tensor<64x9x!quant.uniform<i8:f32, 0.0078125:0>>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 6, 1.0);
}

/* i8 x i8 -> i32 with the scales' product: the exact integer sums */
static void test_k_quant_dot_general(void **state)
{
    (void)state;
    check("func.func @main(%a: tensor<3x70x200x!quant.uniform<i8:f32, 0.0039166809297075458>>, "
          "%b: tensor<3x200x130x!quant.uniform<i8:f32, 0.0039153145808799592>>) -> "
          "tensor<3x70x130x!quant.uniform<i32:f32, 1.533503795273843E-5>> {\n"
          "  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
          "(tensor<3x70x200x!quant.uniform<i8:f32, 0.0039166809297075458>>, "
          "tensor<3x200x130x!quant.uniform<i8:f32, 0.0039153145808799592>>) -> "
          "tensor<3x70x130x!quant.uniform<i32:f32, 1.533503795273843E-5>>\n"
          "  func.return %r : tensor<3x70x130x!quant.uniform<i32:f32, 1.533503795273843E-5>>\n}\n",
          CC_K_DOT, cc_emit_dot, 7, 1.0);
}

/* asymmetric operands (zero point -128) with padding and lhs dilation */
static void test_k_quant_convolution(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<2x16x5x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>, "
          "%w: tensor<3x5x4x!quant.uniform<i8:f32, 0.0039189298947652183:-128>>) -> "
          "tensor<2x32x4x!quant.uniform<i32:f32, 1.536827283429924E-5>> {\n"
          "  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
          "window = {pad = [[2, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
          "(tensor<2x16x5x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>, "
          "tensor<3x5x4x!quant.uniform<i8:f32, 0.0039189298947652183:-128>>) -> "
          "tensor<2x32x4x!quant.uniform<i32:f32, 1.536827283429924E-5>>\n"
          "  func.return %r : tensor<2x32x4x!quant.uniform<i32:f32, 1.536827283429924E-5>>\n}\n",
          CC_K_CONV, cc_emit_conv, 8, 1.0);
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_quant_quantize_dequantize_per_tensor),
          cmocka_unit_test(test_k_quant_per_axis), cmocka_unit_test(test_k_quant_requantize),
          cmocka_unit_test(test_k_quant_elementwise_ops), cmocka_unit_test(test_k_quant_dot_general),
          cmocka_unit_test(test_k_quant_convolution))
