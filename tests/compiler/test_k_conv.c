/* Convolution kernels (compiler/k_conv.c) on the simulator, checks on,
 * against the golden interpreter: 1-D and 2-D, NHWC and NCHW and other
 * dim_numbers, strides, padding, lhs and rhs dilation, window reversal,
 * feature groups (depthwise) and batch groups, element types, cores. */
#include "tests/compiler/k_test_util.h"

/* The kernel of src on chip_name over n_cores cores against the
 * interpreter's run of ref (NULL: src) on the same inputs, bit for bit. */
static void check_ref(const char *src, const char *ref, const char *chip_name, uint32_t n_cores, uint64_t seed)
{
    kt_check_vs_interp(src, ref, CC_K_CONV, cc_emit_conv, chip_name, n_cores, seed, 0);
}

static void check(const char *src, uint64_t seed)
{
    check_ref(src, NULL, "tpu-v5e", 1, seed);
    check_ref(src, NULL, "trn2", 1, seed);
    check_ref(src, NULL, "trn2", 3, seed);
}

#define CONV_MAIN(X, W, R, ATTRS)                                                                              \
    "func.func @main(%x: " X ", %w: " W ") -> " R " {\n"                                                      \
    "  %r = stablehlo.convolution(%x, %w) " ATTRS " : (" X ", " W ") -> " R "\n"                            \
    "  func.return %r : " R "\n}\n"

/* NHWC 3x3, stride 1, SAME padding; 200 input features: two K tiles per window position */
static void test_k_conv_2d_nhwc_same_padding(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<2x12x13x200xbf16>", "tensor<3x3x200x40xbf16>", "tensor<2x12x13x40xf32>",
                    "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          1);
}

/* NCHW / OIHW, stride 2, asymmetric padding, 140 output features (two M tiles) */
static void test_k_conv_2d_nchw_strided(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<2x16x17x15xbf16>", "tensor<140x16x3x4xbf16>", "tensor<2x140x8x8xbf16>",
                    "dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 1], [2, 1]]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          2);
}

/* odd layouts: batch not outermost, features between the spatial dims,
 * output spatial dims swapped */
static void test_k_conv_2d_unusual_dim_numbers(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<9x3x10x6xbf16>", "tensor<3x6x2x5xbf16>", "tensor<3x9x5x7xbf16>",
                    "dim_numbers = [0, b, 1, f]x[0, i, 1, o]->[b, 1, f, 0], window = {} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          3);
}

/* 1-D: rhs dilation, lhs dilation (a transposed conv), window reversal, padding */
static void test_k_conv_1d_dilations_and_reversal(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<3x25x8xbf16>", "tensor<4x8x6xbf16>", "tensor<3x48x6xbf16>",
                    "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[3, 2]], lhs_dilate = [2], "
                    "rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          4);
    check(CONV_MAIN("tensor<2x40x5xbf16>", "tensor<3x5x4xbf16>", "tensor<2x11x4xbf16>",
                    "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [3], pad = [[-2, 1]], rhs_dilate = [3]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          5);
}

/* 2-D lhs dilation with a stride that is not a multiple of it */
static void test_k_conv_2d_lhs_dilation_and_stride(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<1x7x8x3xbf16>", "tensor<3x3x3x2xbf16>", "tensor<1x7x8x2xbf16>",
                    "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[1, 1], [2, 0]], "
                    "lhs_dilate = [2, 3]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          6);
}

/* depthwise (feature groups = features, channel multiplier 2) and grouped */
static void test_k_conv_feature_groups(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<2x10x11x6xbf16>", "tensor<3x3x1x12xbf16>", "tensor<2x10x11x12xbf16>",
                    "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 6 : i64}"),
          7);
    check(CONV_MAIN("tensor<2x9x12xbf16>", "tensor<3x6x8xbf16>", "tensor<2x7x8xbf16>",
                    "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
                    "{batch_group_count = 1 : i64, feature_group_count = 2 : i64}"),
          8);
}

/* batch groups (a weight gradient's form) */
static void test_k_conv_batch_groups(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<4x9x3xbf16>", "tensor<2x3x6xbf16>", "tensor<2x8x6xbf16>",
                    "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
                    "{batch_group_count = 2 : i64, feature_group_count = 1 : i64}"),
          9);
}

/* f32: native on trn2 (bit for bit the interpreter); on tpu-v5e at DEFAULT
 * the convolution of the operands rounded to bf16 (its 1-pass model) */
static void test_k_conv_f32(void **state)
{
    (void)state;
    const char *src = CONV_MAIN("tensor<2x9x9x20xf32>", "tensor<3x3x20x16xf32>", "tensor<2x4x4x16xf32>",
                                "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} "
                                "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}");
    const char *ref =
        "func.func @main(%x0: tensor<2x9x9x20xf32>, %w0: tensor<3x3x20x16xf32>) -> tensor<2x4x4x16xf32> {\n"
        "  %x = stablehlo.convert %x0 : (tensor<2x9x9x20xf32>) -> tensor<2x9x9x20xbf16>\n"
        "  %w = stablehlo.convert %w0 : (tensor<3x3x20x16xf32>) -> tensor<3x3x20x16xbf16>\n"
        "  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} "
        "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x20xbf16>, tensor<3x3x20x16xbf16>) -> "
        "tensor<2x4x4x16xf32>\n"
        "  func.return %r : tensor<2x4x4x16xf32>\n}\n";
    check_ref(src, NULL, "trn2", 2, 10);
    check_ref(src, ref, "tpu-v5e", 1, 10);
}

/* a convolution whose moving tiles span several output rows and batches */
static void test_k_conv_large_output_tiles(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<3x30x40x8xbf16>", "tensor<5x5x8x16xbf16>", "tensor<3x30x40x16xbf16>",
                    "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          11);
}

/* integers: exact wrapping sums on the vector engines */
static void test_k_conv_integers(void **state)
{
    (void)state;
    check(CONV_MAIN("tensor<2x10x7xi32>", "tensor<3x7x5xi32>", "tensor<2x10x5xi32>",
                    "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} "
                    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"),
          12);
}


/* cc_emit_conv compiled with cc_options.default_precision = HIGHEST. */
static enum base_status emit_conv_highest(const struct cc_target *t, const struct cc_kernel *k,
                                          const struct cc_emit_ctx *ctx, struct isa_program *out,
                                          struct base_diag *diag)
{
    struct cc_target h = *t;
    h.default_precision = ISA_PREC_HIGHEST;
    return cc_emit_conv(&h, k, ctx, out, diag);
}

/* x, w = +-(1 + j 2^-9), j in 1..7: more bits than bf16 keeps; every
 * product, bf16 part product and partial sum (|s| < 64, multiples of 2^-18)
 * is exact in f32, so the exact result is known. */
static double cx_val(int64_t i) { return (i % 3 ? 1 : -1) * (1 + ldexp((double)(i * 5 % 7 + 1), -9)); }
static double cw_val(int64_t i) { return (i % 4 ? 1 : -1) * (1 + ldexp((double)(i * 3 % 7 + 1), -9)); }

/* A 1-D f32 convolution [b, 0, f] x [0, i, o] (N = 2, W = 9, F = 4; window
 * 3, O = 5) without a precision: at default_precision HIGHEST exact on
 * tpu-v5e and trn2; at tpu-v5e's default (one bf16 pass) not within 3 ULP
 * of it, though within bf16 error. */
static int64_t conv_prec_far(const char *chip_name, cc_emit_fn fn)
{
    const char *src = CONV_MAIN("tensor<2x9x4xf32>", "tensor<3x4x5xf32>", "tensor<2x7x5xf32>",
                                "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
                                "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}");
    struct kt t;
    kt_parse(&t, src, CC_K_CONV);
    kt_random_inputs(&t, 1, 1.0);
    for (int64_t i = 0; i < 2 * 9 * 4; i++) kt_set(&t, 0, i, cx_val(i));
    for (int64_t i = 0; i < 3 * 4 * 5; i++) kt_set(&t, 1, i, cw_val(i));
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct kt_run r;
    kt_run(&t, &chip, fn, false, 1, &r);
    const float *g = r.outs[0]->data;
    int64_t far = 0;
    for (int b = 0; b < 2; b++)
        for (int o = 0; o < 7; o++)
            for (int f = 0; f < 5; f++) {
                double exact = 0, sab = 0;
                for (int w = 0; w < 3; w++)
                    for (int i = 0; i < 4; i++) {
                        double p = cx_val((b * 9 + o + w) * 4 + i) * cw_val((w * 4 + i) * 5 + f);
                        exact += p;
                        sab += fabs(p);
                    }
                assert_true((double)(float)exact == exact);
                double got = g[(b * 7 + o) * 5 + f], err = fabs(got - exact);
                int e;
                frexp(exact, &e);
                if (err > 3 * ldexp(1.0, e - 24)) far++;
                assert_true(err <= ldexp(sab, -7));
            }
    kt_run_free(&r);
    kt_free(&t);
    return far;
}

static void test_k_conv_default_precision_highest_is_f32_accurate(void **state)
{
    (void)state;
    assert_int_equal(conv_prec_far("tpu-v5e", emit_conv_highest), 0);
    assert_int_equal(conv_prec_far("trn2", emit_conv_highest), 0);
    assert_true(conv_prec_far("tpu-v5e", cc_emit_conv) > 35);
}

static void count_hbm_writes(void *user, uint64_t now_ps, const struct sim_dma_record *r)
{
    (void)now_ps;
    if (r->dst_space == ISA_SPACE_HBM) *(uint64_t *)user += r->bytes;
}

/* Empty convolutions: no input features (every output the empty sum 0,
 * each output byte written once), and a window larger than the input (an
 * empty result: nothing to do), on both chips. */
static void test_k_conv_empty(void **state)
{
    (void)state;
    const char *zero_f = CONV_MAIN("tensor<2x6x0xf32>", "tensor<3x0x4xf32>", "tensor<2x4x4xf32>",
                                   "dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
                                   "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}");
    const char *empty_res = CONV_MAIN("tensor<2x3x9x10xf32>", "tensor<3x3x10x5xf32>", "tensor<2x3x0x6xf32>",
                                      "dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} "
                                      "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}");
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        for (int i = 0; i < 2; i++) {
            struct kt t;
            kt_parse(&t, i ? empty_res : zero_f, CC_K_CONV);
            kt_random_inputs(&t, 6, 1.0);
            uint64_t written = 0;
            struct sim_hooks h = {&written, NULL, count_hbm_writes, NULL};
            struct kt_run r;
            kt_run_hooks(&t, &chip, cc_emit_conv, false, 1, &r, &h);
            const struct base_tensor *o = r.outs[0];
            assert_int_equal(o->count, i ? 0 : 2 * 4 * 4);
            assert_int_equal(written, o->count * 4);
            for (int64_t j = 0; j < o->count; j++) assert_true(((const uint32_t *)o->data)[j] == 0);
            kt_run_free(&r);
            kt_free(&t);
        }
    }
}

/* Timing figure (timing only): a ResNet-50 3x3 convolution, 64 -> 64
 * features at 56 x 56, batch 8, bf16, every core. */
static double conv_fraction(const char *chip_name, const char *src, double flops)
{
    struct kt t;
    kt_parse(&t, src, CC_K_CONV);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct kt_run r;
    kt_run(&t, &chip, cc_emit_conv, true, 0, &r);
    double peak = chip_peak_flops(&chip, CHIP_RATE_BF16);
    double frac = flops / ((double)r.st.total_ps * 1e-12) / peak;
    printf("  %s (%u cores): %.1f us, %.1f%% of the chip's bf16 peak, %llu instructions (emit %.3f s, sim %.3f s)\n",
           chip_name, chip.cores, (double)r.st.total_ps * 1e-6, 100 * frac, (unsigned long long)r.instructions, r.emit_s,
           r.sim_s);
    kt_run_free(&r);
    kt_free(&t);
    return frac;
}

static void test_k_conv_resnet_3x3_timing(void **state)
{
    (void)state;
    const char *src = CONV_MAIN("tensor<8x56x56x64xbf16>", "tensor<3x3x64x64xbf16>", "tensor<8x56x56x64xbf16>",
                                "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} "
                                "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}");
    double flops = 2.0 * 8 * 56 * 56 * 64 * 64 * 9;
    assert_true(conv_fraction("tpu-v5e", src, flops) >= 0.15); /* at most 25%: K = M = 64 of 128 x 128 arrays */
    assert_true(conv_fraction("trn2", src, flops) >= 0.08);
}

TEST_MAIN(NULL, NULL, T(test_k_conv_2d_nhwc_same_padding), T(test_k_conv_2d_nchw_strided),
          T(test_k_conv_2d_unusual_dim_numbers), T(test_k_conv_1d_dilations_and_reversal),
          T(test_k_conv_2d_lhs_dilation_and_stride), T(test_k_conv_feature_groups), T(test_k_conv_batch_groups),
          T(test_k_conv_f32), T(test_k_conv_large_output_tiles), T(test_k_conv_integers), T(test_k_conv_default_precision_highest_is_f32_accurate), T(test_k_conv_empty),
          T(test_k_conv_resnet_3x3_timing))
