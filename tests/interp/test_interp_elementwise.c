/* Elementwise kernels of the golden interpreter (graph/interp_elementwise.c).
 * Expected values come from the StableHLO spec's examples, IEEE-754 facts and
 * hand computation, not from the kernels. */
#include "tests/prog.h"

#include <math.h>
#include <stdio.h>

#include "interp/interp_internal.h"

#define RUN_INTS(SRC, ...)                                        \
    do {                                                          \
        const int64_t want_[] = {__VA_ARGS__};                    \
        struct base_tensor *t_ = prog_run_output(SRC, 0);         \
        prog_expect_i64(t_, want_, ARRAY_LEN(want_));             \
        base_tensor_release(t_);                                  \
    } while (0)

#define RUN_FLOATS(SRC, REL, ...)                                 \
    do {                                                          \
        const double want_[] = {__VA_ARGS__};                     \
        struct base_tensor *t_ = prog_run_output(SRC, 0);         \
        prog_expect_f64(t_, want_, ARRAY_LEN(want_), REL);        \
        base_tensor_release(t_);                                  \
    } while (0)

#define RUN_BOOLS(SRC, WANT)                                      \
    do {                                                          \
        struct base_tensor *t_ = prog_run_output(SRC, 0);         \
        prog_expect_bools(t_, WANT);                              \
        base_tensor_release(t_);                                  \
    } while (0)

#define F32_REL 1.2e-7 /* about one f32 ulp */

/* ---- unary ---------------------------------------------------------------- */

static void test_abs_spec_example_and_int_min_wraps(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[-2, 0, 2, -2147483648]> : tensor<4xi32>\n"
                     "  %r = stablehlo.abs %a : tensor<4xi32>"),
             2, 0, 2, INT32_MIN);
}

static void test_abs_of_complex_is_real_modulus(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<2xf64>",
                       "  %a = stablehlo.constant dense<[(3.0, 4.0), (-5.0, 12.0)]> : tensor<2xcomplex<f64>>\n"
                       "  %r = stablehlo.abs %a : (tensor<2xcomplex<f64>>) -> tensor<2xf64>"),
               0, 5.0, 13.0);
}

static void test_cbrt_spec_example(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0, 8.0, 27.0]> : tensor<4xf64>\n"
                       "  %r = stablehlo.cbrt %a : tensor<4xf64>"),
               0, 0.0, 1.0, 2.0, 3.0);
}

static void test_ceil_and_floor_spec_examples(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<5xf32>",
                       "  %a = stablehlo.constant dense<[-0.8166, -0.2530, 0.2530, 0.8166, 2.0]> : tensor<5xf32>\n"
                       "  %r = stablehlo.ceil %a : tensor<5xf32>"),
               0, -0.0, -0.0, 1.0, 1.0, 2.0);
    RUN_FLOATS(PROGRAM("tensor<5xf32>",
                       "  %a = stablehlo.constant dense<[-0.8166, -0.2530, 0.2530, 0.8166, 2.0]> : tensor<5xf32>\n"
                       "  %r = stablehlo.floor %a : tensor<5xf32>"),
               0, -1.0, -1.0, 0.0, 0.0, 2.0);
}

static void test_count_leading_zeros_spec_example_and_i4(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi64>",
                     "  %a = stablehlo.constant dense<[0, 1, 128, -1]> : tensor<4xi64>\n"
                     "  %r = stablehlo.count_leading_zeros %a : tensor<4xi64>"),
             64, 63, 56, 0);
    /* counted in the 4-bit width */
    RUN_INTS(PROGRAM("tensor<3xi4>",
                     "  %a = stablehlo.constant dense<[0, 1, -1]> : tensor<3xi4>\n"
                     "  %r = stablehlo.count_leading_zeros %a : tensor<3xi4>"),
             4, 3, 0);
}

static void test_popcnt_spec_example_and_i4(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi64>",
                     "  %a = stablehlo.constant dense<[0, 1, 2, 127]> : tensor<4xi64>\n"
                     "  %r = stablehlo.popcnt %a : tensor<4xi64>"),
             0, 1, 1, 7);
    RUN_INTS(PROGRAM("tensor<2xi4>",
                     "  %a = stablehlo.constant dense<[-1, -8]> : tensor<2xi4>\n"
                     "  %r = stablehlo.popcnt %a : tensor<2xi4>"),
             4, 1);
}

static void test_convert_int_to_float_and_back(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xf32>",
                       "  %a = stablehlo.constant dense<[-1, 16777217, 3]> : tensor<3xi32>\n"
                       "  %r = stablehlo.convert %a : (tensor<3xi32>) -> tensor<3xf32>"),
               0, -1.0, 16777216.0, 3.0);
    RUN_INTS(PROGRAM("tensor<3xi32>",
                     "  %a = stablehlo.constant dense<[-1.9, 2.9, 0.5]> : tensor<3xf32>\n"
                     "  %r = stablehlo.convert %a : (tensor<3xf32>) -> tensor<3xi32>"),
             -1, 2, 0);
}

static void test_exponential_spec_example(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf64>\n"
                       "  %r = stablehlo.exponential %a : tensor<4xf64>"),
               1e-15, 1.0, 2.7182818284590451, 7.3890560989306504, 20.085536923187668);
}

static void test_exponential_minus_one_is_accurate_near_zero(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<2xf32>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0e-10]> : tensor<2xf32>\n"
                       "  %r = stablehlo.exponential_minus_one %a : tensor<2xf32>"),
               F32_REL, 0.0, 1.0e-10);
}

static void test_log_and_log_plus_one_spec_examples(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf64>",
                       "  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>\n"
                       "  %r = stablehlo.log %a : tensor<4xf64>"),
               1e-15, 0.0, 0.69314718055994529, 1.0986122886681098, 1.3862943611198906);
    RUN_FLOATS(PROGRAM("tensor<5xf64>",
                       "  %a = stablehlo.constant dense<[0.0, -0.999, 7.0, 6.38905621, 15.0]> : tensor<5xf64>\n"
                       "  %r = stablehlo.log_plus_one %a : tensor<5xf64>"),
               1e-8, 0.0, -6.90775527898, 2.07944154168, 2.0, 2.77258872224);
}

static void test_logistic_spec_example(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>\n"
                       "  %r = stablehlo.logistic %a : tensor<4xf32>"),
               F32_REL, 0.5, 0.7310585786300049, 0.8807970779778823, 0.9525741268224334);
}

static void test_is_finite_spec_example(void **state)
{
    (void)state;
    RUN_BOOLS(PROGRAM("tensor<7xi1>",
                      "  %a = stablehlo.constant dense<[0xFFF0000000000000, 0x7FF0000000000000, "
                      "0x7FF8000000000000, -10.0, -0.0, 0.0, 10.0]> : tensor<7xf64>\n"
                      "  %r = stablehlo.is_finite %a : (tensor<7xf64>) -> tensor<7xi1>"),
              "0001111");
}

static void test_negate_flips_sign_of_zero_and_wraps_int_min(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xbf16>",
                       "  %a = stablehlo.constant dense<[0.0, -2.0, 1.5]> : tensor<3xbf16>\n"
                       "  %r = stablehlo.negate %a : tensor<3xbf16>"),
               0, -0.0, 2.0, -1.5);
    RUN_INTS(PROGRAM("tensor<3xi8>",
                     "  %a = stablehlo.constant dense<[0, -2, -128]> : tensor<3xi8>\n"
                     "  %r = stablehlo.negate %a : tensor<3xi8>"),
             0, 2, -128);
}

static void test_not_of_ints_and_bools(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %r = stablehlo.not %a : tensor<4xi32>"),
             -2, -3, -4, -5);
    RUN_BOOLS(PROGRAM("tensor<2xi1>",
                      "  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>\n"
                      "  %r = stablehlo.not %a : tensor<2xi1>"),
              "01");
}

static void test_real_and_imag_of_complex(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<2xf32>",
                       "  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>\n"
                       "  %r = stablehlo.real %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>"),
               0, 1.0, 3.0);
    RUN_FLOATS(PROGRAM("tensor<2xf32>",
                       "  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>\n"
                       "  %r = stablehlo.imag %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>"),
               0, 2.0, 4.0);
}

static void test_reduce_precision_e5m10_rounds_and_overflows(void **state)
{
    (void)state;
    /* 65505 rounds to the f16 maximum 65504; 65520 rounds up to 2^16 -> inf;
     * the smallest double is below f16's normal range -> 0. */
    RUN_FLOATS(PROGRAM("tensor<5xf64>",
                       "  %a = stablehlo.constant dense<[0x7FF0000000000000, 0x0000000000000001, "
                       "65505.0, 65520.0, 1.0009765625]> : tensor<5xf64>\n"
                       "  %r = stablehlo.reduce_precision %a, format = e5m10 : tensor<5xf64>"),
               0, INFINITY, 0.0, 65504.0, INFINITY, 1.0009765625);
}

static void test_reduce_precision_of_nan_with_no_mantissa_is_inf(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<2xf64>",
                       "  %a = stablehlo.constant dense<[0x7FFFFFFFFFFFFFFF, 0x7FF8000000000000]> : tensor<2xf64>\n"
                       "  %r = stablehlo.reduce_precision %a, format = e5m0 : tensor<2xf64>"),
               0, INFINITY, INFINITY);
}

static void test_round_nearest_afz_and_even_spec_examples(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<5xf64>",
                       "  %a = stablehlo.constant dense<[-2.5, 0.4, 0.5, 0.6, 2.5]> : tensor<5xf64>\n"
                       "  %r = stablehlo.round_nearest_afz %a : tensor<5xf64>"),
               0, -3.0, 0.0, 1.0, 1.0, 3.0);
    RUN_FLOATS(PROGRAM("tensor<5xf64>",
                       "  %a = stablehlo.constant dense<[-2.5, 0.4, 0.5, 0.6, 2.5]> : tensor<5xf64>\n"
                       "  %r = stablehlo.round_nearest_even %a : tensor<5xf64>"),
               0, -2.0, 0.0, 0.0, 1.0, 2.0);
}

static void test_rsqrt_and_sqrt_spec_examples(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %a = stablehlo.constant dense<[1.0, 4.0, 9.0, 25.0]> : tensor<4xf32>\n"
                       "  %r = stablehlo.rsqrt %a : tensor<4xf32>"),
               F32_REL, 1.0, 0.5, 1.0 / 3.0, 0.2);
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0, 4.0, 9.0]> : tensor<4xf32>\n"
                       "  %r = stablehlo.sqrt %a : tensor<4xf32>"),
               0, 0.0, 1.0, 2.0, 3.0);
}

static void test_sign_of_ints_floats_and_nan(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<3xi32>",
                     "  %a = stablehlo.constant dense<[-7, 0, 9]> : tensor<3xi32>\n"
                     "  %r = stablehlo.sign %a : tensor<3xi32>"),
             -1, 0, 1);
    RUN_FLOATS(PROGRAM("tensor<5xf64>",
                       "  %a = stablehlo.constant dense<[0x7FF8000000000000, -3.0, -0.0, 0.0, 5.0]> : tensor<5xf64>\n"
                       "  %r = stablehlo.sign %a : tensor<5xf64>"),
               0, NAN, -1.0, -0.0, 0.0, 1.0);
}

static void test_sine_cosine_tan_tanh(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 0.5, -1.0]> : tensor<3xf64>\n"
                       "  %r = stablehlo.sine %a : tensor<3xf64>"),
               1e-15, 0.0, 0.479425538604203, -0.8414709848078965);
    RUN_FLOATS(PROGRAM("tensor<2xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 3.14159265358979323846]> : tensor<2xf64>\n"
                       "  %r = stablehlo.cosine %a : tensor<2xf64>"),
               1e-15, 1.0, -1.0);
    RUN_FLOATS(PROGRAM("tensor<2xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 0.78539816339744830962]> : tensor<2xf64>\n"
                       "  %r = stablehlo.tan %a : tensor<2xf64>"),
               1e-15, 0.0, 1.0);
    RUN_FLOATS(PROGRAM("tensor<3xf32>",
                       "  %a = stablehlo.constant dense<[-1.0, 0.0, 1.0]> : tensor<3xf32>\n"
                       "  %r = stablehlo.tanh %a : tensor<3xf32>"),
               F32_REL, -0.7615941559557649, 0.0, 0.7615941559557649);
}

static void test_complex_sqrt_and_exp(void **state)
{
    (void)state;
    const double want_sqrt[] = {0.0, 2.0, 2.0, 1.0};
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<2xcomplex<f64>>",
                "  %a = stablehlo.constant dense<[(-4.0, 0.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>\n"
                "  %r = stablehlo.sqrt %a : tensor<2xcomplex<f64>>"), 0);
    prog_expect_c128(t, want_sqrt, 2, 1e-15);
    base_tensor_release(t);
    /* exp(i pi/2) = i */
    const double want_exp[] = {0.0, 1.0};
    t = prog_run_output(PROGRAM("tensor<1xcomplex<f32>>",
                                "  %a = stablehlo.constant dense<[(0.0, 1.57079632679)]> : tensor<1xcomplex<f32>>\n"
                                "  %r = stablehlo.exponential %a : tensor<1xcomplex<f32>>"), 0);
    double re, im;
    base_elem_get_c128(t->dtype, t->data, 0, &re, &im);
    assert_true(fabs(re) < 1e-7 && fabs(im - want_exp[1]) < 1e-7);
    base_tensor_release(t);
}

/* ---- binary ---------------------------------------------------------------- */

static void test_add_spec_example_and_wraps(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<5xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4, 2147483647]> : tensor<5xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8, 1]> : tensor<5xi32>\n"
                     "  %r = stablehlo.add %a, %b : tensor<5xi32>"),
             6, 8, 10, 12, INT32_MIN);
}

static void test_add_of_bools_is_or(void **state)
{
    (void)state;
    RUN_BOOLS(PROGRAM("tensor<4xi1>",
                      "  %a = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>\n"
                      "  %b = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>\n"
                      "  %r = stablehlo.add %a, %b : tensor<4xi1>"),
              "0111");
}

static void test_add_bf16_rounds_to_nearest_even(void **state)
{
    (void)state;
    /* bf16 has 8 significant bits: 1 + 2^-8 is a tie (-> 1), 1 + 3*2^-8 a tie
     * between 1+2^-7 and 1+2^-6 (-> the even 1+2^-6). */
    RUN_FLOATS(PROGRAM("tensor<2xbf16>",
                       "  %a = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xbf16>\n"
                       "  %b = stablehlo.constant dense<[0.00390625, 0.01171875]> : tensor<2xbf16>\n"
                       "  %r = stablehlo.add %a, %b : tensor<2xbf16>"),
               0, 1.0, 1.015625);
}

static void test_bitwise_and_or_xor_spec_examples(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.and %a, %b : tensor<4xi32>"),
             1, 2, 3, 0);
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.or %a, %b : tensor<4xi32>"),
             5, 6, 7, 12);
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.xor %a, %b : tensor<4xi32>"),
             4, 4, 4, 12);
}

static void test_atan2_spec_example(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xf64>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf64>\n"
                       "  %b = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf64>\n"
                       "  %r = stablehlo.atan2 %a, %b : tensor<3xf64>"),
               1e-15, 0.0, 1.5707963267948966, -1.5707963267948966);
}

static void test_compare_float_directions_and_nan(void **state)
{
    (void)state;
    RUN_BOOLS(PROGRAM("tensor<3xi1>",
                      "  %a = stablehlo.constant dense<[1.0, 3.0, 0x7FC00000]> : tensor<3xf32>\n"
                      "  %b = stablehlo.constant dense<[1.1, 2.9, 0x7FC00000]> : tensor<3xf32>\n"
                      "  %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>"),
              "100");
    RUN_BOOLS(PROGRAM("tensor<3xi1>",
                      "  %a = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>\n"
                      "  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0.0]> : tensor<3xf32>\n"
                      "  %r = stablehlo.compare NE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>"),
              "010");
}

static void test_compare_totalorder_orders_signed_zero_and_nan(void **state)
{
    (void)state;
    /* totalOrder: -0 < +0, NaN above +inf, NaN equal to itself */
    RUN_BOOLS(PROGRAM("tensor<3xi1>",
                      "  %a = stablehlo.constant dense<[-0.0, 0x7FC00000, 0x7FC00000]> : tensor<3xf32>\n"
                      "  %b = stablehlo.constant dense<[0.0, 0x7F800000, 0x7FC00000]> : tensor<3xf32>\n"
                      "  %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>"),
              "100");
    RUN_BOOLS(PROGRAM("tensor<2xi1>",
                      "  %a = stablehlo.constant dense<[-0.0, 0x7FC00000]> : tensor<2xf32>\n"
                      "  %b = stablehlo.constant dense<[0.0, 0x7FC00000]> : tensor<2xf32>\n"
                      "  %r = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>"),
              "01");
}

static void test_compare_unsigned_and_complex(void **state)
{
    (void)state;
    RUN_BOOLS(PROGRAM("tensor<2xi1>",
                      "  %a = stablehlo.constant dense<[255, 1]> : tensor<2xui8>\n"
                      "  %b = stablehlo.constant dense<[1, 255]> : tensor<2xui8>\n"
                      "  %r = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>"),
              "10");
    RUN_BOOLS(PROGRAM("tensor<2xi1>",
                      "  %a = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0)]> : tensor<2xcomplex<f32>>\n"
                      "  %b = stablehlo.constant dense<[(1.0, 2.0), (1.0, -2.0)]> : tensor<2xcomplex<f32>>\n"
                      "  %r = stablehlo.compare EQ, %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>"),
              "10");
}

static void test_complex_builds_pairs(void **state)
{
    (void)state;
    const double want[] = {1.0, 2.0, 3.0, 4.0};
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<2xcomplex<f32>>",
                "  %a = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>\n"
                "  %b = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>\n"
                "  %r = stablehlo.complex %a, %b : tensor<2xcomplex<f32>>"), 0);
    assert_int_equal(t->dtype, BASE_DT_C64);
    prog_expect_c128(t, want, 2, 0);
    base_tensor_release(t);
}

static void test_divide_spec_example_and_integer_edge_cases(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<6xi32>",
                     "  %a = stablehlo.constant dense<[17, -10, 23, -19, 5, -2147483648]> : tensor<6xi32>\n"
                     "  %b = stablehlo.constant dense<[3, 3, -3, -3, 0, -1]> : tensor<6xi32>\n"
                     "  %r = stablehlo.divide %a, %b : tensor<6xi32>"),
             5, -3, -7, 6, -1, INT32_MIN);
    const uint64_t want[] = {5, 255};
    struct base_tensor *t = prog_run_output(PROGRAM("tensor<2xui8>",
                                                    "  %a = stablehlo.constant dense<[17, 9]> : tensor<2xui8>\n"
                                                    "  %b = stablehlo.constant dense<[3, 0]> : tensor<2xui8>\n"
                                                    "  %r = stablehlo.divide %a, %b : tensor<2xui8>"), 0);
    prog_expect_u64(t, want, 2);
    base_tensor_release(t);
}

static void test_divide_float_by_zero_is_signed_inf(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xf32>",
                       "  %a = stablehlo.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf32>\n"
                       "  %b = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>\n"
                       "  %r = stablehlo.divide %a, %b : tensor<3xf32>"),
               0, INFINITY, -INFINITY, NAN);
}

static void test_maximum_minimum_propagate_nan_and_order_zeros(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %a = stablehlo.constant dense<[0.0, -0.0, 0x7FC00000, 1.0]> : tensor<4xf32>\n"
                       "  %b = stablehlo.constant dense<[-0.0, 0.0, 1.0, 0x7FC00000]> : tensor<4xf32>\n"
                       "  %r = stablehlo.maximum %a, %b : tensor<4xf32>"),
               0, 0.0, 0.0, NAN, NAN);
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %a = stablehlo.constant dense<[0.0, -0.0, 0x7FC00000, 1.0]> : tensor<4xf32>\n"
                       "  %b = stablehlo.constant dense<[-0.0, 0.0, 1.0, 0x7FC00000]> : tensor<4xf32>\n"
                       "  %r = stablehlo.minimum %a, %b : tensor<4xf32>"),
               0, -0.0, -0.0, NAN, NAN);
}

static void test_maximum_of_complex_is_lexicographic(void **state)
{
    (void)state;
    const double want[] = {7.5, 1.5, 1.5, 7.5};
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<2xcomplex<f64>>",
                "  %a = stablehlo.constant dense<[(1.5, 2.5), (1.5, 7.5)]> : tensor<2xcomplex<f64>>\n"
                "  %b = stablehlo.constant dense<[(7.5, 1.5), (1.5, 2.5)]> : tensor<2xcomplex<f64>>\n"
                "  %r = stablehlo.maximum %a, %b : tensor<2xcomplex<f64>>"), 0);
    prog_expect_c128(t, want, 2, 0);
    base_tensor_release(t);
}

static void test_multiply_and_subtract_spec_examples(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.multiply %a, %b : tensor<4xi32>"),
             5, 12, 21, 32);
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %a = stablehlo.constant dense<[6, 8, 10, 12]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.subtract %a, %b : tensor<4xi32>"),
             1, 2, 3, 4);
}

static void test_power_integer_spec_example(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<6xi64>",
                     "  %a = stablehlo.constant dense<[-1, -1, -3, 1, -3, 0]> : tensor<6xi64>\n"
                     "  %b = stablehlo.constant dense<[1, 0, -3, -3, 3, 2]> : tensor<6xi64>\n"
                     "  %r = stablehlo.power %a, %b : tensor<6xi64>"),
             -1, 1, 0, 1, -27, 0);
}

static void test_power_float_square_and_fraction(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<3xf32>",
                       "  %a = stablehlo.constant dense<[-3.0, 4.0, 2.0]> : tensor<3xf32>\n"
                       "  %b = stablehlo.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>\n"
                       "  %r = stablehlo.power %a, %b : tensor<3xf32>"),
               0, 9.0, 2.0, 0.5);
}

static void test_remainder_takes_sign_of_dividend(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<6xi32>",
                     "  %a = stablehlo.constant dense<[17, -17, 17, -17, 5, -2147483648]> : tensor<6xi32>\n"
                     "  %b = stablehlo.constant dense<[3, 3, -3, -3, 0, -1]> : tensor<6xi32>\n"
                     "  %r = stablehlo.remainder %a, %b : tensor<6xi32>"),
             2, -2, 2, -2, 5, 0);
    RUN_FLOATS(PROGRAM("tensor<4xf64>",
                       "  %a = stablehlo.constant dense<[17.1, -17.1, 17.1, -17.1]> : tensor<4xf64>\n"
                       "  %b = stablehlo.constant dense<[3.0, 3.0, -3.0, -3.0]> : tensor<4xf64>\n"
                       "  %r = stablehlo.remainder %a, %b : tensor<4xf64>"),
               0, 2.1000000000000014, -2.1000000000000014, 2.1000000000000014, -2.1000000000000014);
}

static void test_shifts_spec_examples(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<3xi64>",
                     "  %a = stablehlo.constant dense<[-1, 0, 1]> : tensor<3xi64>\n"
                     "  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>\n"
                     "  %r = stablehlo.shift_left %a, %b : tensor<3xi64>"),
             -2, 0, 8);
    RUN_INTS(PROGRAM("tensor<3xi64>",
                     "  %a = stablehlo.constant dense<[-1, 0, 8]> : tensor<3xi64>\n"
                     "  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>\n"
                     "  %r = stablehlo.shift_right_arithmetic %a, %b : tensor<3xi64>"),
             -1, 0, 1);
    RUN_INTS(PROGRAM("tensor<3xi64>",
                     "  %a = stablehlo.constant dense<[-1, 0, 8]> : tensor<3xi64>\n"
                     "  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>\n"
                     "  %r = stablehlo.shift_right_logical %a, %b : tensor<3xi64>"),
             INT64_MAX, 0, 1);
}

static void test_shifts_by_width_or_more(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<3xi8>",
                     "  %a = stablehlo.constant dense<[1, -1, 64]> : tensor<3xi8>\n"
                     "  %b = stablehlo.constant dense<[8, 9, -1]> : tensor<3xi8>\n"
                     "  %r = stablehlo.shift_left %a, %b : tensor<3xi8>"),
             0, 0, 0);
    RUN_INTS(PROGRAM("tensor<3xi8>",
                     "  %a = stablehlo.constant dense<[-128, 127, -1]> : tensor<3xi8>\n"
                     "  %b = stablehlo.constant dense<[8, 8, 100]> : tensor<3xi8>\n"
                     "  %r = stablehlo.shift_right_arithmetic %a, %b : tensor<3xi8>"),
             -1, 0, -1);
    RUN_INTS(PROGRAM("tensor<2xi8>",
                     "  %a = stablehlo.constant dense<[-128, -1]> : tensor<2xi8>\n"
                     "  %b = stablehlo.constant dense<[8, 7]> : tensor<2xi8>\n"
                     "  %r = stablehlo.shift_right_logical %a, %b : tensor<2xi8>"),
             0, 1);
}

static void test_unsupported_element_type_is_a_located_error(void **state)
{
    (void)state;
    prog_run_fails(PROGRAM("tensor<2xf32>",
                           "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
                           "  %r = stablehlo.popcnt %a : tensor<2xf32>"), BASE_OK, NULL, 0);
}

/* ---- ternary --------------------------------------------------------------- */

static void test_clamp_spec_example_and_scalar_bounds(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<3xi32>",
                     "  %lo = stablehlo.constant dense<[5, 10, 15]> : tensor<3xi32>\n"
                     "  %x = stablehlo.constant dense<[3, 13, 23]> : tensor<3xi32>\n"
                     "  %hi = stablehlo.constant dense<[10, 15, 20]> : tensor<3xi32>\n"
                     "  %r = stablehlo.clamp %lo, %x, %hi : tensor<3xi32>"),
             5, 13, 20);
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %lo = stablehlo.constant dense<0.0> : tensor<f32>\n"
                       "  %x = stablehlo.constant dense<[-1.0, 0.5, 7.0, 0x7FC00000]> : tensor<4xf32>\n"
                       "  %hi = stablehlo.constant dense<6.0> : tensor<f32>\n"
                       "  %r = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>"),
               0, 0.0, 0.5, 6.0, NAN);
}

static void test_select_spec_example_and_scalar_pred(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<4xi32>",
                     "  %p = stablehlo.constant dense<[false, true, true, false]> : tensor<4xi1>\n"
                     "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                     "  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi32>\n"
                     "  %r = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xi32>"),
             5, 2, 3, 8);
    RUN_FLOATS(PROGRAM("tensor<2xbf16>",
                       "  %p = stablehlo.constant dense<true> : tensor<i1>\n"
                       "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>\n"
                       "  %b = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xbf16>\n"
                       "  %r = stablehlo.select %p, %a, %b : tensor<i1>, tensor<2xbf16>"),
               0, 1.0, 2.0);
}

/* ---- chlo ------------------------------------------------------------------ */

static void test_chlo_special_functions_known_values(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<2xf64>",
                       "  %a = stablehlo.constant dense<[0.5, 1.0]> : tensor<2xf64>\n"
                       "  %r = chlo.lgamma %a : tensor<2xf64> -> tensor<2xf64>"),
               1e-15, 0.57236494292470008, 0.0);
    RUN_FLOATS(PROGRAM("tensor<1xf64>",
                       "  %a = stablehlo.constant dense<[1.0]> : tensor<1xf64>\n"
                       "  %r = chlo.digamma %a : tensor<1xf64> -> tensor<1xf64>"),
               1e-15, -0.57721566490153286);
    RUN_FLOATS(PROGRAM("tensor<1xf32>",
                       "  %a = stablehlo.constant dense<[0.5]> : tensor<1xf32>\n"
                       "  %r = chlo.erf_inv %a : tensor<1xf32> -> tensor<1xf32>"),
               F32_REL, 0.4769362762044699);
    RUN_FLOATS(PROGRAM("tensor<1xf64>",
                       "  %a = stablehlo.constant dense<[1.0]> : tensor<1xf64>\n"
                       "  %r = chlo.bessel_i1e %a : tensor<1xf64> -> tensor<1xf64>"),
               1e-14, 0.2079104153497085);
    RUN_FLOATS(PROGRAM("tensor<1xf64>",
                       "  %x = stablehlo.constant dense<[2.0]> : tensor<1xf64>\n"
                       "  %q = stablehlo.constant dense<[1.0]> : tensor<1xf64>\n"
                       "  %r = chlo.zeta %x, %q : tensor<1xf64>, tensor<1xf64> -> tensor<1xf64>"),
               1e-15, 1.6449340668482264);
    RUN_FLOATS(PROGRAM("tensor<1xf64>",
                       "  %n = stablehlo.constant dense<[1.0]> : tensor<1xf64>\n"
                       "  %x = stablehlo.constant dense<[1.0]> : tensor<1xf64>\n"
                       "  %r = chlo.polygamma %n, %x : tensor<1xf64>, tensor<1xf64> -> tensor<1xf64>"),
               1e-15, 1.6449340668482264);
}

static void test_chlo_next_after_steps_one_ulp(void **state)
{
    (void)state;
    RUN_FLOATS(PROGRAM("tensor<4xf32>",
                       "  %x = stablehlo.constant dense<[1.0, 1.0, 0.0, -0.0]> : tensor<4xf32>\n"
                       "  %y = stablehlo.constant dense<[2.0, 0.0, -1.0, 0.0]> : tensor<4xf32>\n"
                       "  %r = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>"),
               0, 1.00000011920928955, 0.99999994039535522, -1.4012984643248171e-45, 0.0);
}

static void test_chlo_mulhi_signed_and_unsigned(void **state)
{
    (void)state;
    RUN_INTS(PROGRAM("tensor<3xi32>",
                     "  %a = stablehlo.constant dense<[2147483647, -1, 65536]> : tensor<3xi32>\n"
                     "  %b = stablehlo.constant dense<[2, 1, 65536]> : tensor<3xi32>\n"
                     "  %r = chlo.mulhi %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>"),
             0, -1, 1);
    const uint64_t want[] = {UINT64_MAX - 1};
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<1xui64>",
                "  %a = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>\n"
                "  %r = chlo.mulhi %a, %a : tensor<1xui64>, tensor<1xui64> -> tensor<1xui64>"), 0);
    prog_expect_u64(t, want, 1);
    base_tensor_release(t);
}

static void test_chlo_is_inf_family(void **state)
{
    (void)state;
    RUN_BOOLS(PROGRAM("tensor<4xi1>",
                      "  %a = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 1.0]> : tensor<4xf32>\n"
                      "  %r = chlo.is_neg_inf %a : tensor<4xf32> -> tensor<4xi1>"),
              "0100");
    RUN_BOOLS(PROGRAM("tensor<4xi1>",
                      "  %a = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 1.0]> : tensor<4xf32>\n"
                      "  %r = chlo.is_inf %a : tensor<4xf32> -> tensor<4xi1>"),
              "1100");
}

/* ---- helpers for other families ---------------------------------------------- */

static void test_scalar_binary_on_raw_elements(void **state)
{
    (void)state;
    float a[2] = {1.5f, -0.0f}, b[2] = {2.25f, 0.0f}, r[2];
    interp_scalar_binary(GRAPH_OP_ADD, BASE_DT_F32, r, 0, a, 0, b, 0);
    assert_true(r[0] == 3.75f);
    interp_scalar_binary(GRAPH_OP_MAXIMUM, BASE_DT_F32, r, 1, a, 1, b, 1);
    assert_true(r[1] == 0.0f && !signbit(r[1]));
    int8_t x = 100, y = 100, z;
    interp_scalar_binary(GRAPH_OP_ADD, BASE_DT_SI8, &z, 0, &x, 0, &y, 0);
    assert_int_equal(z, -56);
    /* accumulator aliasing dst and a */
    interp_scalar_binary(GRAPH_OP_MULTIPLY, BASE_DT_SI8, &x, 0, &x, 0, &y, 0);
    assert_int_equal(x, (int8_t)(100 * 100));
}

static void test_region_simple_binary_recognises_reducer(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() -> tensor<f32> {\n"
        "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>\n"
        "   reducer(%x: tensor<f32>, %y: tensor<f32>) {\n"
        "    %s = stablehlo.subtract %y, %x : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }\n"
        "  %r2 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>\n"
        "  func.return %r : tensor<f32>\n"
        "}\n";
    struct graph_module *m = prog_parse(src);
    const struct graph_op *fn = graph_module_entry(m);
    assert_non_null(fn);
    const struct graph_block *body = &fn->regions[0].blocks[0];
    int seen = 0;
    for (int i = 0; i < body->n_ops; i++) {
        const struct graph_op *o = body->ops[i];
        if (o->kind != GRAPH_OP_REDUCE) continue;
        enum graph_op_kind k = interp_region_simple_binary(&o->regions[0]);
        /* swapped operands of a non-commutative op are not "simple" */
        assert_int_equal(k, seen == 0 ? GRAPH_OP_UNKNOWN : GRAPH_OP_MAXIMUM);
        seen++;
    }
    assert_int_equal(seen, 2);
    graph_module_destroy(m);
}

TEST_MAIN(NULL, NULL,
          T(test_abs_spec_example_and_int_min_wraps),
          T(test_abs_of_complex_is_real_modulus),
          T(test_cbrt_spec_example),
          T(test_ceil_and_floor_spec_examples),
          T(test_count_leading_zeros_spec_example_and_i4),
          T(test_popcnt_spec_example_and_i4),
          T(test_convert_int_to_float_and_back),
          T(test_exponential_spec_example),
          T(test_exponential_minus_one_is_accurate_near_zero),
          T(test_log_and_log_plus_one_spec_examples),
          T(test_logistic_spec_example),
          T(test_is_finite_spec_example),
          T(test_negate_flips_sign_of_zero_and_wraps_int_min),
          T(test_not_of_ints_and_bools),
          T(test_real_and_imag_of_complex),
          T(test_reduce_precision_e5m10_rounds_and_overflows),
          T(test_reduce_precision_of_nan_with_no_mantissa_is_inf),
          T(test_round_nearest_afz_and_even_spec_examples),
          T(test_rsqrt_and_sqrt_spec_examples),
          T(test_sign_of_ints_floats_and_nan),
          T(test_sine_cosine_tan_tanh),
          T(test_complex_sqrt_and_exp),
          T(test_add_spec_example_and_wraps),
          T(test_add_of_bools_is_or),
          T(test_add_bf16_rounds_to_nearest_even),
          T(test_bitwise_and_or_xor_spec_examples),
          T(test_atan2_spec_example),
          T(test_compare_float_directions_and_nan),
          T(test_compare_totalorder_orders_signed_zero_and_nan),
          T(test_compare_unsigned_and_complex),
          T(test_complex_builds_pairs),
          T(test_divide_spec_example_and_integer_edge_cases),
          T(test_divide_float_by_zero_is_signed_inf),
          T(test_maximum_minimum_propagate_nan_and_order_zeros),
          T(test_maximum_of_complex_is_lexicographic),
          T(test_multiply_and_subtract_spec_examples),
          T(test_power_integer_spec_example),
          T(test_power_float_square_and_fraction),
          T(test_remainder_takes_sign_of_dividend),
          T(test_shifts_spec_examples),
          T(test_shifts_by_width_or_more),
          T(test_unsupported_element_type_is_a_located_error),
          T(test_clamp_spec_example_and_scalar_bounds),
          T(test_select_spec_example_and_scalar_pred),
          T(test_chlo_special_functions_known_values),
          T(test_chlo_next_after_steps_one_ulp),
          T(test_chlo_mulhi_signed_and_unsigned),
          T(test_chlo_is_inf_family),
          T(test_scalar_binary_on_raw_elements),
          T(test_region_simple_binary_recognises_reducer))
