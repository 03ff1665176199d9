/* select_and_scatter (compiler/k_sas.c) on the simulator against the golden
 * interpreter, bit for bit: max-pool backward with overlapping windows and
 * padding, ties and NaNs, non-overlapping windows over many tiles, windows
 * wholly in the padding, other select and scatter bodies. */
#include "tests/compiler/k_test_util.h"

static void sas_src(char *src, size_t cap, const char *xt, const char *st, const char *et, const char *cmp,
                    const char *ctype, const char *scat, const char *attrs)
{
    snprintf(src, cap,
             "func.func @main(%%x: %s, %%s: %s, %%i: %s) -> %s {\n"
             "  %%r = \"stablehlo.select_and_scatter\"(%%x, %%s, %%i) ({\n"
             "    ^bb0(%%a: %s, %%b: %s):\n"
             "      %%c = stablehlo.compare %s, %%a, %%b, %s : (%s, %s) -> tensor<i1>\n"
             "      stablehlo.return %%c : tensor<i1>\n"
             "  }, {\n"
             "    ^bb0(%%a: %s, %%b: %s):\n"
             "      %%c = %s %%a, %%b : %s\n"
             "      stablehlo.return %%c : %s\n"
             "  }) {%s} : (%s, %s, %s) -> %s\n"
             "  func.return %%r : %s\n}\n",
             xt, st, et, xt, et, et, cmp, ctype, et, et, et, et, scat, et, et, attrs, xt, st, et, xt, xt);
}

/* values: 0 random, 1 few distinct (ties), 2 few distinct and NaNs */
static void run(const char *src, int values, uint64_t seed)
{
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t, src, CC_K_SELECT_AND_SCATTER);
        kt_random_inputs(&t, seed, 4.0);
        struct base_tensor *x = t.args[0];
        if (values && base_dtype_is_float(x->dtype))
            for (int64_t i = 0; i < x->count; i++) {
                double v = floor(base_elem_get_f64(x->dtype, x->data, (size_t)i));
                if (values == 2 && i % 7 == 3) v = NAN;
                base_elem_set_f64(x->dtype, x->data, (size_t)i, v);
            }
        kt_check(&t, chips[c], cc_emit_select_and_scatter, 0);
        kt_free(&t);
    }
}

/* ResNet's max pool backward: 3x3 windows, stride 2, SAME padding */
static void test_k_sas_maxpool_3x3_stride2_padded(void **state)
{
    (void)state;
    char src[2048];
    sas_src(src, sizeof src, "tensor<2x9x10x3xf32>", "tensor<2x5x5x3xf32>", "tensor<f32>", "GE", "FLOAT",
            "stablehlo.add", "window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, "
            "padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>");
    run(src, 0, 1);
    run(src, 1, 2); /* ties: the first maximum in the window */
    run(src, 2, 3); /* NaNs: GE is false against NaN */
}

static void test_k_sas_bf16_overlapping_stride1(void **state)
{
    (void)state;
    char src[2048];
    sas_src(src, sizeof src, "tensor<3x7x6xbf16>", "tensor<2x6x5xbf16>", "tensor<bf16>", "GE", "FLOAT",
            "stablehlo.add", "window_dimensions = array<i64: 2, 2, 2>");
    run(src, 1, 4);
}

/* 2x2 stride 2 over a larger input: many tiles, contributions never meet */
static void test_k_sas_nonoverlapping_many_tiles(void **state)
{
    (void)state;
    char src[2048];
    sas_src(src, sizeof src, "tensor<4x300x20x8xf32>", "tensor<4x150x10x8xf32>", "tensor<f32>", "GE", "FLOAT",
            "stablehlo.add", "window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>");
    run(src, 1, 5);
}

/* padding wider than the window: some windows read no operand element */
static void test_k_sas_windows_in_the_padding(void **state)
{
    (void)state;
    char src[2048];
    sas_src(src, sizeof src, "tensor<5xf32>", "tensor<10xf32>", "tensor<f32>", "GE", "FLOAT", "stablehlo.add",
            "window_dimensions = array<i64: 2>, padding = dense<[[3, 3]]> : tensor<1x2xi64>");
    run(src, 0, 6);
}

/* min select (swapped LE), multiply and maximum scatters, integers */
static void test_k_sas_other_bodies(void **state)
{
    (void)state;
    char src[2048];
    sas_src(src, sizeof src, "tensor<6x11xi32>", "tensor<5x5xi32>", "tensor<i32>", "LE", "SIGNED",
            "stablehlo.multiply", "window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 2>");
    run(src, 0, 7);
    sas_src(src, sizeof src, "tensor<40x33xf16>", "tensor<20x17xf16>", "tensor<f16>", "GT", "FLOAT",
            "stablehlo.maximum", "window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>, "
            "padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>");
    run(src, 1, 8);
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_sas_maxpool_3x3_stride2_padded),
          cmocka_unit_test(test_k_sas_bf16_overlapping_stride1), cmocka_unit_test(test_k_sas_nonoverlapping_many_tiles),
          cmocka_unit_test(test_k_sas_windows_in_the_padding), cmocka_unit_test(test_k_sas_other_bodies))
