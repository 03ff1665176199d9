/* Reductions on the simulator against the golden interpreter. */
#include "tests/compiler/k_test_util.h"

static void run(const char *src, cc_emit_fn fn, enum cc_kernel_kind kind, uint64_t seed, double ulps)
{
    struct kt t;
    kt_parse(&t, src, kind);
    kt_random_inputs(&t, seed, 1.0);
    kt_check_both(&t, fn, ulps);
    kt_free(&t);
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
    struct graph_interp_options io;
    memset(&io, 0, sizeof io);
    struct graph_interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d), BASE_OK);
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct sim_chip_desc chip;
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
    graph_interp_result_free(&res);
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

/* nand (not of and) is no ALU reduction: not supported */
static void test_k_reduce_boolean_body_nand_unsupported(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t, "func.func @main(%x: tensor<40x33xi1>) -> tensor<40xi1> {\n"
                 "  %f = stablehlo.constant dense<true> : tensor<i1>\n"
                 "  %r = stablehlo.reduce(%x init: %f) across dimensions = [1] : (tensor<40x33xi1>, tensor<i1>) -> tensor<40xi1>\n"
                 "   reducer(%a: tensor<i1>, %b: tensor<i1>) {\n"
                 "    %o = stablehlo.and %a, %b : tensor<i1>\n"
                 "    %n = stablehlo.not %o : tensor<i1>\n"
                 "    stablehlo.return %n : tensor<i1>\n"
                 "  }\n"
                 "  func.return %r : tensor<40xi1>\n}\n",
             CC_K_REDUCE);
    char why[200];
    assert_false(cc_reduce_op_supported(t.ops[t.n_ops - 1], NULL, why, sizeof why));
    kt_free(&t);
}

TEST_MAIN(NULL, NULL, T(test_k_reduce_boolean_body_or_then_select), T(test_k_reduce_boolean_body_ne_is_xor),
          T(test_k_reduce_body_op_then_identity), T(test_k_reduce_boolean_body_nand_unsupported),
          T(test_k_reduce_of_nothing_is_init), T(test_k_reduce_integer_and_boolean_exact), T(test_k_reduce_variadic_independent),
          T(test_k_reduce_prologue_with_its_own_output), T(test_k_reduce_rmsnorm_from_bf16_exact),
          T(test_k_reduce_bf16_sum_within_bound_and_max_exact), T(test_k_reduce_window_max_pool_exact), T(test_k_reduce_window_bf16_sum_dilated_exact), T(test_k_reduce_sum_last_dim_f32_exact), T(test_k_reduce_max_inner_dim_f32_exact),
          T(test_k_reduce_outer_and_inner_dims_with_init_input), T(test_k_reduce_all_to_scalar_in_chunks),
          T(test_k_reduce_softmax_prologue_exact))
