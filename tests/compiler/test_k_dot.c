/* Dot kernels (compiler/k_dot.c) on the simulator, checks on, against the
 * golden interpreter: layouts (transposed, batch dims in the middle,
 * contracting dims not innermost, several contracting dims, broadcast /
 * reversed / strided views), element types, TPU f32 precisions, integers,
 * converts, epilogues, one core and several; and the 4096^3 bf16 timing bar
 * on tpu-v5e, tpu-v6e and trn2. */
#include "tests/compiler/k_test_util.h"
#include "interp/interp.h"

/* The kernel of src run on chip `chip_name` over n_cores cores (0: all),
 * against the interpreter's run of ref (NULL: src itself) on the same
 * inputs; ulps 0: bit for bit. */
static void check_ref(const char *src, const char *ref, const char *chip_name, uint32_t n_cores, uint64_t seed,
                      double ulps)
{
    kt_check_vs_interp(src, ref, CC_K_DOT, cc_emit_dot, chip_name, n_cores, seed, ulps);
}

/* Bit for bit on tpu-v5e and trn2, one core and three. */
static void check(const char *src, uint64_t seed)
{
    check_ref(src, NULL, "tpu-v5e", 1, seed, 0);
    check_ref(src, NULL, "trn2", 1, seed, 0);
    check_ref(src, NULL, "trn2", 3, seed, 0);
}

#define DOT(L, R, RES, DIMS) \
    "  %r = stablehlo.dot_general %a, %b, " DIMS " : (" L ", " R ") -> " RES "\n"
#define MAIN2(L, R, RES, BODY) \
    "func.func @main(%a: " L ", %b: " R ") -> " RES " {\n" BODY "  func.return %r : " RES "\n}\n"
/* @main(a: L, b: R) -> RES returning dot_general(a, b) with DIMS */
#define DOT_MAIN(L, R, RES, DIMS) MAIN2(L, R, RES, DOT(L, R, RES, DIMS))

/* the GEMM path, ragged tiles in every dim */
static void test_k_dot_bf16_row_major(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<200x300xbf16>", "tensor<300x700xbf16>", "tensor<200x700xbf16>",
                   "contracting_dims = [1] x [0]"),
          1);
}

/* the GEMM path's first and last blocks (the first panel loaded chunk by
 * chunk, the last block stored by every queue): several K chunks with a
 * ragged last K tile, several blocks with a ragged last one, two cores */
static void test_k_dot_long_k_several_chunks_and_blocks(void **state)
{
    (void)state;
    const char *src = DOT_MAIN("tensor<256x6000xbf16>", "tensor<6000x1100xbf16>", "tensor<256x1100xf32>",
                               "contracting_dims = [1] x [0]");
    check_ref(src, NULL, "trn2", 2, 19, 0);
    check_ref(src, NULL, "trn2", 1, 19, 0);
    check_ref(src, NULL, "tpu-v5e", 1, 19, 0);
}

/* lhs stored K-major (contracting dim outermost), rhs stored N x K */
static void test_k_dot_contracting_dim_not_innermost_and_transposed_rhs(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<300x130xbf16>", "tensor<90x300xbf16>", "tensor<130x90xf32>",
                   "contracting_dims = [0] x [1]"),
          2);
}

/* transposes folded into the operands' views */
static void test_k_dot_transposed_views(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<96x160xbf16>, %y: tensor<200x96xbf16>) -> tensor<160x200xbf16> {\n"
          "  %a = stablehlo.transpose %x, dims = [1, 0] : (tensor<96x160xbf16>) -> tensor<160x96xbf16>\n"
          "  %b = stablehlo.transpose %y, dims = [1, 0] : (tensor<200x96xbf16>) -> tensor<96x200xbf16>\n"
          DOT("tensor<160x96xbf16>", "tensor<96x200xbf16>", "tensor<160x200xbf16>", "contracting_dims = [1] x [0]")
          "  func.return %r : tensor<160x200xbf16>\n}\n",
          3);
}

/* batch dim in the middle of both operands; result [B, M, N] */
static void test_k_dot_batch_dim_in_the_middle(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<40x3x70xbf16>", "tensor<70x3x50xbf16>", "tensor<3x40x50xbf16>",
                   "batching_dims = [1] x [1], contracting_dims = [2] x [0]"),
          4);
}

/* attention-like: two batch dims, several free dims on both sides */
static void test_k_dot_two_batch_dims_and_free_dims(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<2x4x3x5x64xbf16>", "tensor<2x4x64x7x6xbf16>", "tensor<2x4x3x5x7x6xf32>",
                   "batching_dims = [0, 1] x [0, 1], contracting_dims = [4] x [2]"),
          5);
}

/* two contracting dims that merge (contiguous in both operands) */
static void test_k_dot_contracting_dims_that_merge(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<33x8x40xbf16>", "tensor<8x40x65xbf16>", "tensor<33x65xbf16>",
                   "contracting_dims = [1, 2] x [0, 1]"),
          6);
}

/* two contracting dims that do not merge, listed in another order than
 * stored: the sum runs over (k0, k1) row-major as the interpreter's */
static void test_k_dot_contracting_dims_that_do_not_merge(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<6x30x140xbf16>", "tensor<140x20x6xbf16>", "tensor<30x20xbf16>",
                   "contracting_dims = [2, 0] x [0, 2]"),
          7);
}

/* a broadcast (stride 0), a reversed and a strided slice operand */
static void test_k_dot_broadcast_reverse_slice_views(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<64xbf16>, %y: tensor<300x90xbf16>) -> tensor<50x45xbf16> {\n"
          "  %a = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<64xbf16>) -> tensor<50x64xbf16>\n"
          "  %y2 = stablehlo.reverse %y, dims = [0] : tensor<300x90xbf16>\n"
          "  %b = stablehlo.slice %y2 [10:138:2, 0:90:2] : (tensor<300x90xbf16>) -> tensor<64x45xbf16>\n"
          DOT("tensor<50x64xbf16>", "tensor<64x45xbf16>", "tensor<50x45xbf16>", "contracting_dims = [1] x [0]")
          "  func.return %r : tensor<50x45xbf16>\n}\n",
          8);
}

/* the legacy dot: matrix x vector, and vector . vector */
static void test_k_dot_legacy_dot_matvec_and_inner_product(void **state)
{
    (void)state;
    check("func.func @main(%a: tensor<130x300xbf16>, %b: tensor<300xbf16>) -> tensor<130xf32> {\n"
          "  %r = stablehlo.dot %a, %b : (tensor<130x300xbf16>, tensor<300xbf16>) -> tensor<130xf32>\n"
          "  func.return %r : tensor<130xf32>\n}\n",
          9);
    check("func.func @main(%a: tensor<1000xbf16>, %b: tensor<1000xbf16>) -> tensor<f32> {\n"
          "  %r = stablehlo.dot %a, %b : (tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<f32>\n"
          "  func.return %r : tensor<f32>\n}\n",
          10);
}

/* The interpreter program that computes what a TPU's f32 matmul with np bf16
 * passes computes (docs/isa.md): each operand x (of type T, converted to f32)
 * split into x0 = bf16(x), x1 = bf16(x - x0), x2 = bf16(x - x0 - x1); the
 * products of one k in the order (0,0) (0,1) (1,0) (0,2) (1,1) (2,0), the
 * first np of them, every k before the next: a dot over (k, pass). */
static void pass_model(char *buf, size_t cap, int M, int K, int N, const char *T, int np)
{
    static const int lp[6] = {0, 0, 1, 0, 1, 2}, rp[6] = {0, 1, 0, 2, 1, 0};
    size_t n = 0;
#define P(...) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__)
    P("func.func @main(%%x: tensor<%dx%dx%s>, %%y: tensor<%dx%dx%s>) -> tensor<%dx%dxf32> {\n", M, K, T, K, N, T, M, N);
    const char *nm[2] = {"x", "y"};
    int r0[2] = {M, K}, c0[2] = {K, N};
    for (int o = 0; o < 2; o++) {
        const char *v = nm[o];
        int r = r0[o], c = c0[o];
        P("  %%%sf = stablehlo.convert %%%s : (tensor<%dx%dx%s>) -> tensor<%dx%dxf32>\n", v, v, r, c, T, r, c);
        P("  %%%sr0 = stablehlo.convert %%%sf : tensor<%dx%dxf32>\n", v, v, r, c);
        for (int q = 0; q < 3; q++) {
            P("  %%%sb%d = stablehlo.convert %%%sr%d : (tensor<%dx%dxf32>) -> tensor<%dx%dxbf16>\n", v, q, v, q, r, c, r, c);
            P("  %%%sp%d = stablehlo.convert %%%sb%d : (tensor<%dx%dxbf16>) -> tensor<%dx%dxf32>\n", v, q, v, q, r, c, r, c);
            P("  %%%sr%d = stablehlo.subtract %%%sr%d, %%%sp%d : tensor<%dx%dxf32>\n", v, q + 1, v, q, v, q, r, c);
        }
    }
    /* lhs [M, K, np] -> [M, K np]; rhs [K, np, N] -> [K np, N] */
    for (int q = 0; q < np; q++) {
        P("  %%a%d = stablehlo.broadcast_in_dim %%xp%d, dims = [0, 1] : (tensor<%dx%dxf32>) -> tensor<%dx%dx1xf32>\n", q,
          lp[q], M, K, M, K);
        P("  %%b%d = stablehlo.broadcast_in_dim %%yp%d, dims = [0, 2] : (tensor<%dx%dxf32>) -> tensor<%dx1x%dxf32>\n", q,
          rp[q], K, N, K, N);
    }
    P("  %%ac = stablehlo.concatenate");
    for (int q = 0; q < np; q++) P("%s %%a%d", q ? "," : "", q);
    P(", dim = 2 : (");
    for (int q = 0; q < np; q++) P("%stensor<%dx%dx1xf32>", q ? ", " : "", M, K);
    P(") -> tensor<%dx%dx%dxf32>\n", M, K, np);
    P("  %%bc = stablehlo.concatenate");
    for (int q = 0; q < np; q++) P("%s %%b%d", q ? "," : "", q);
    P(", dim = 1 : (");
    for (int q = 0; q < np; q++) P("%stensor<%dx1x%dxf32>", q ? ", " : "", K, N);
    P(") -> tensor<%dx%dx%dxf32>\n", K, np, N);
    P("  %%a = stablehlo.reshape %%ac : (tensor<%dx%dx%dxf32>) -> tensor<%dx%dxf32>\n", M, K, np, M, K * np);
    P("  %%b = stablehlo.reshape %%bc : (tensor<%dx%dx%dxf32>) -> tensor<%dx%dxf32>\n", K, np, N, K * np, N);
    P("  %%r = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] : (tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> "
      "tensor<%dx%dxf32>\n  func.return %%r : tensor<%dx%dxf32>\n}\n",
      M, K * np, K * np, N, M, N, M, N);
#undef P
    assert_true(n < cap);
}

/* f32 (and f16, which a TPU's arrays do not take) at each precision: on
 * tpu-v5e bit for bit its bf16-pass model (1, 3, 6 passes: fp32_passes_*),
 * on trn2 (native f32, f16) bit for bit the interpreter */
static void test_k_dot_f32_f16_each_precision(void **state)
{
    (void)state;
    static const char *const precs[3] = {"DEFAULT", "HIGH", "HIGHEST"};
    static const int passes[3] = {1, 3, 6};
    static const char *const types[2] = {"f32", "f16"};
    char src[1024], *ref = malloc(16384);
    assert_non_null(ref);
    for (int ti = 0; ti < 2; ti++)
        for (int i = 0; i < 3; i++) {
            const char *T = types[ti];
            snprintf(src, sizeof src,
                     "func.func @main(%%a: tensor<70x200x%s>, %%b: tensor<200x90x%s>) -> tensor<70x90xf32> {\n"
                     "  %%r = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0], precision = [%s, %s] : "
                     "(tensor<70x200x%s>, tensor<200x90x%s>) -> tensor<70x90xf32>\n"
                     "  func.return %%r : tensor<70x90xf32>\n}\n",
                     T, T, precs[i], precs[i], T, T);
            pass_model(ref, 16384, 70, 200, 90, T, passes[i]);
            check_ref(src, ref, "tpu-v5e", 1, 12 + (uint64_t)i, 0);
            check_ref(src, NULL, "trn2", 2, 12 + (uint64_t)i, 0);
        }
    free(ref);
}

/* The pass models are not the interpreter: on a TPU every precision differs
 * from f32 products in some elements (so the model test above can tell them
 * apart), within the tolerances docs/compiler.md states, relative to
 * sum_k |a_mk b_kn|: DEFAULT 2^-7, HIGH 2^-15, HIGHEST 2^-20. */
static void test_k_dot_tpu_precisions_within_tolerance(void **state)
{
    (void)state;
    static const char *const precs[3] = {"DEFAULT", "HIGH", "HIGHEST"};
    static const int bound_log2[3] = {-7, -15, -20};
    for (int pi = 0; pi < 3; pi++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "func.func @main(%%a: tensor<70x200xf32>, %%b: tensor<200x90xf32>) -> tensor<70x90xf32> {\n"
                 "  %%r = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0], precision = [%s, %s] : "
                 "(tensor<70x200xf32>, tensor<200x90xf32>) -> tensor<70x90xf32>\n"
                 "  func.return %%r : tensor<70x90xf32>\n}\n",
                 precs[pi], precs[pi]);
        struct kt t;
        kt_parse(&t, src, CC_K_DOT);
        kt_random_inputs(&t, 14, 1.0);
        struct chip_desc chip;
        kt_load_chip("tpu-v5e", &chip);
        struct interp_options io;
        memset(&io, 0, sizeof io);
        struct interp_result res;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d), BASE_OK);
        struct kt_run r;
        kt_run(&t, &chip, cc_emit_dot, false, 1, &r);
        int64_t differ = 0;
        double worst = 0; /* |chip - interpreter| / sum_k |a_mk b_kn| */
        const float *g = r.outs[0]->data, *w = res.outputs[0]->data, *A = t.args[0]->data, *B = t.args[1]->data;
        for (int64_t i = 0; i < 70; i++)
            for (int64_t j = 0; j < 90; j++) {
                double sab = 0;
                for (int64_t k = 0; k < 200; k++) sab += fabs((double)A[i * 200 + k] * B[k * 90 + j]);
                if (g[i * 90 + j] != w[i * 90 + j]) differ++;
                double e = fabs((double)g[i * 90 + j] - w[i * 90 + j]) / sab;
                if (e > worst) worst = e;
            }
        printf("  %s on tpu-v5e: %lld of 6300 differ from f32 products, at most %.3g = 2^%.1f x sum|a b|\n",
               precs[pi], (long long)differ, worst, log2(worst));
        assert_true(differ > 0);
        assert_true(worst <= ldexp(1, bound_log2[pi]));
        kt_run_free(&r);
        interp_result_free(&res);
        kt_free(&t);
    }
}

/* fp8 operands: trn2's arrays take them, tpu-v5e's bf16 holds them exactly */
static void test_k_dot_fp8_operands(void **state)
{
    (void)state;
    check(DOT_MAIN("tensor<130x260xf8E4M3FN>", "tensor<260x140xf8E4M3FN>", "tensor<130x140xbf16>",
                   "contracting_dims = [1] x [0]"),
          14);
    check(DOT_MAIN("tensor<64x100xf8E5M2>", "tensor<100x70xbf16>", "tensor<64x70xf32>",
                   "contracting_dims = [1] x [0]"),
          15);
}

/* a convert after the dot rounds once more, in the store */
static void test_k_dot_convert_after_the_dot(void **state)
{
    (void)state;
    check("func.func @main(%a: tensor<100x256xbf16>, %b: tensor<256x80xbf16>) -> tensor<100x80xf16> {\n"
          DOT("tensor<100x256xbf16>", "tensor<256x80xbf16>", "tensor<100x80xf32>", "contracting_dims = [1] x [0]")
          "  %c = stablehlo.convert %r : (tensor<100x80xf32>) -> tensor<100x80xf16>\n"
          "  func.return %c : tensor<100x80xf16>\n}\n",
          17);
}

/* integers: exact wrapping sums on the vector engines */
static void test_k_dot_integers_exact(void **state)
{
    (void)state;
    const char *srcs[] = {
        DOT_MAIN("tensor<40x300xi8>", "tensor<300x70xi8>", "tensor<40x70xi32>", "contracting_dims = [1] x [0]"),
        DOT_MAIN("tensor<3x20x50xi32>", "tensor<3x50x30xi32>", "tensor<3x20x30xi32>",
                 "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
        "func.func @main(%a: tensor<30x40xui8>, %b: tensor<40x20xui8>) -> tensor<30x20xi64> {\n"
        DOT("tensor<30x40xui8>", "tensor<40x20xui8>", "tensor<30x20xui32>", "contracting_dims = [1] x [0]")
        "  %c = stablehlo.convert %r : (tensor<30x20xui32>) -> tensor<30x20xi64>\n"
        "  func.return %c : tensor<30x20xi64>\n}\n",
    };
    for (size_t i = 0; i < ARRAY_LEN(srcs); i++) {
        struct kt t;
        kt_parse(&t, srcs[i], CC_K_DOT);
        kt_random_inputs(&t, 30 + i, 1.0);
        struct base_rng r;
        base_rng_seed(&r, 77 + i);
        for (int a = 0; a < t.n_args; a++) /* full-range values, so i32 sums wrap */
            for (int64_t j = 0; j < t.args[a]->count; j++)
                base_elem_set_i64(t.args[a]->dtype, t.args[a]->data, (size_t)j, (int64_t)base_rng_next(&r));
        for (int c = 0; c < 2; c++) {
            struct interp_options io;
            memset(&io, 0, sizeof io);
            struct interp_result res;
            struct base_diag d;
            base_diag_clear(&d);
            assert_int_equal(interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d), BASE_OK);
            struct chip_desc chip;
            kt_load_chip(c ? "trn2" : "tpu-v5e", &chip);
            struct kt_run run;
            kt_run(&t, &chip, cc_emit_dot, false, c ? 2 : 1, &run);
            kt_compare(run.outs[0], res.outputs[0], 0, chip.name);
            kt_run_free(&run);
            interp_result_free(&res);
        }
        kt_free(&t);
    }
}

/* cc_emit_dot compiled with cc_options.default_precision = HIGHEST (as
 * cc_compile passes it on in cc_target.default_precision). */
static enum base_status emit_dot_highest(const struct cc_target *t, const struct cc_kernel *k,
                                         const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    struct cc_target h = *t;
    h.default_precision = ISA_PREC_HIGHEST;
    return cc_emit_dot(&h, k, ctx, out, diag);
}

#define PM 8
#define PK 16
#define PN 8

/* Inputs +-(1 + j 2^-9), j in 1..7: more bits than bf16 holds (it keeps 1 +
 * i 2^-7), each product 1 + (i + j) 2^-9 + i j 2^-18 and every partial sum
 * (|s| < 32, multiples of 2^-18) exact in f32, and so are the parts and
 * partial products of six bf16 passes: the exact result is known. */
static double prec_a(int m, int k) { return ((m + k) % 3 ? 1 : -1) * (1 + ldexp((m * 5 + k * 3) % 7 + 1, -9)); }
static double prec_b(int k, int n) { return ((k + 2 * n) % 4 ? 1 : -1) * (1 + ldexp((k * 3 + n * 5) % 7 + 1, -9)); }

/* Runs the f32 dot of src (a [PM, PK] x [PK, PN] -> [PM, PN]) with fn on
 * chip and returns how many elements are more than 3 ULP from the exact
 * result; fails when one is further than bf16 products allow (2^-7 sum_k
 * |a b|). */
static int64_t prec_run(const char *src, const char *chip_name, cc_emit_fn fn)
{
    struct kt t;
    kt_parse(&t, src, CC_K_DOT);
    kt_random_inputs(&t, 1, 1.0);
    for (int m = 0; m < PM; m++)
        for (int k = 0; k < PK; k++) kt_set(&t, 0, m * PK + k, prec_a(m, k));
    for (int k = 0; k < PK; k++)
        for (int n = 0; n < PN; n++) kt_set(&t, 1, k * PN + n, prec_b(k, n));
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct kt_run r;
    kt_run(&t, &chip, fn, false, 1, &r);
    const float *g = r.outs[0]->data;
    int64_t far = 0;
    for (int m = 0; m < PM; m++)
        for (int n = 0; n < PN; n++) {
            double exact = 0, sab = 0;
            for (int k = 0; k < PK; k++) {
                exact += prec_a(m, k) * prec_b(k, n);
                sab += fabs(prec_a(m, k) * prec_b(k, n));
            }
            assert_true((double)(float)exact == exact); /* the construction's premise */
            double err = fabs((double)g[m * PN + n] - exact);
            int e;
            frexp(exact, &e);
            if (err > 3 * ldexp(1.0, e - 24)) far++;
            if (err > ldexp(sab, -7)) fail_msg("%s: element [%d,%d] %.9g vs exact %.9g", chip_name, m, n, g[m * PN + n], exact);
        }
    kt_run_free(&r);
    kt_free(&t);
    return far;
}

#define PREC_SRC(ATTR)                                                                                   \
    "func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {\n"                \
    "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]" ATTR                           \
    " : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>\n"                                      \
    "  func.return %r : tensor<8x8xf32>\n}\n"

/* An f32 dot that does not ask for a precision: at the compilation's
 * default_precision HIGHEST within 3 ULP of the exact result on tpu-v5e (six
 * bf16 passes) and trn2 (native f32); at the chip's default on tpu-v5e (one
 * bf16 pass) within bf16 error only, more than 3 ULP off somewhere. */
static void test_k_dot_default_precision_highest_is_f32_accurate(void **state)
{
    (void)state;
    const char *srcs[2] = {PREC_SRC(""), PREC_SRC(", precision = [DEFAULT, DEFAULT]")};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(prec_run(srcs[i], "tpu-v5e", emit_dot_highest), 0);
        assert_int_equal(prec_run(srcs[i], "trn2", emit_dot_highest), 0);
        assert_true(prec_run(srcs[i], "tpu-v5e", cc_emit_dot) > PM * PN / 2);
    }
}

/* An op that asks for its precision keeps it under default_precision
 * HIGHEST: HIGH (and a one-pass bf16 algorithm) on tpu-v5e are bit for bit
 * their bf16-pass models (3 and 1 passes), a bf16x6 or f32 algorithm six. */
static void test_k_dot_explicit_precision_and_algorithm_kept(void **state)
{
    (void)state;
    static const struct {
        const char *attr;
        int passes;
    } cases[] = {
        {", precision = [HIGH, HIGH]", 3},
        {", algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, "
         "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
         "allow_imprecise_accumulation = false>", 1},
        {", algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, "
         "lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 3, "
         "allow_imprecise_accumulation = false>", 3},
        {", algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, "
         "lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 6, "
         "allow_imprecise_accumulation = false>", 6},
        {", algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, "
         "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
         "allow_imprecise_accumulation = false>", 6},
    };
    char src[2048], *ref = malloc(16384);
    assert_non_null(ref);
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        snprintf(src, sizeof src,
                 "func.func @main(%%a: tensor<40x100xf32>, %%b: tensor<100x30xf32>) -> tensor<40x30xf32> {\n"
                 "  %%r = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0]%s"
                 " : (tensor<40x100xf32>, tensor<100x30xf32>) -> tensor<40x30xf32>\n"
                 "  func.return %%r : tensor<40x30xf32>\n}\n",
                 cases[i].attr);
        pass_model(ref, 16384, 40, 100, 30, "f32", cases[i].passes);
        kt_check_vs_interp(src, ref, CC_K_DOT, emit_dot_highest, "tpu-v5e", 1, 30 + i, 0);
        kt_check_vs_interp(src, NULL, CC_K_DOT, emit_dot_highest, "trn2", 1, 30 + i, 0); /* native f32: the interpreter */
    }
    free(ref);
}

/* Emits src's dot on chip_name; the status, the message in msg. */
static enum base_status emit_status(const char *src, const char *chip_name, char *msg, size_t cap)
{
    struct kt t;
    kt_parse(&t, src, CC_K_DOT);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct cc_target tg;
    cc_target_init(&tg, &chip);
    struct isa_program p;
    isa_program_init(&p);
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_emit_ctx ctx = {0, 1, NULL};
    enum base_status st = cc_emit_dot(&tg, &t.k, &ctx, &p, &d);
    snprintf(msg, cap, "%s", d.msg);
    isa_program_deinit(&p);
    kt_free(&t);
    return st;
}

/* Algorithms the arrays cannot run (tf32 products, bf16 sums) are refused,
 * naming the reason; an integer dot's algorithm does not change its exact
 * sums (the interpret suite's dot_general example, values by hand). */
static void test_k_dot_algorithm_refused_or_ignored_for_integers(void **state)
{
    (void)state;
    char msg[512];
    const char *tf32 = PREC_SRC(", algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, "
                                "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
                                "num_primitive_operations = 1, allow_imprecise_accumulation = false>");
    assert_int_equal(emit_status(tf32, "tpu-v5e", msg, sizeof msg), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "tf32"));
    assert_int_equal(emit_status(tf32, "trn2", msg, sizeof msg), BASE_ERR_UNSUPPORTED);
    const char *bf16acc = PREC_SRC(", algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, "
                                   "accumulation_type = bf16, lhs_component_count = 1, rhs_component_count = 1, "
                                   "num_primitive_operations = 1, allow_imprecise_accumulation = false>");
    assert_int_equal(emit_status(bf16acc, "trn2", msg, sizeof msg), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "accumulation_type"));
    /* [[1 2][3 4]] [[5 6][7 8]] batched with identities: the lhs back */
    const char *src =
        "func.func @main(%a: tensor<2x2x2xi32>, %b: tensor<2x2x2xi32>) -> tensor<2x2x2xi32> {\n"
        "  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], "
        "precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, "
        "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
        "allow_imprecise_accumulation = false> : (tensor<2x2x2xi32>, tensor<2x2x2xi32>) -> tensor<2x2x2xi32>\n"
        "  func.return %r : tensor<2x2x2xi32>\n}\n";
    static const int lhs[8] = {1, 2, 3, 4, 5, 6, 7, 8}, rhs[8] = {1, 0, 0, 1, 1, 0, 0, 1};
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t, src, CC_K_DOT);
        kt_random_inputs(&t, 2, 1.0);
        for (int i = 0; i < 8; i++) {
            kt_set(&t, 0, i, lhs[i]);
            kt_set(&t, 1, i, rhs[i]);
        }
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct kt_run r;
        kt_run(&t, &chip, cc_emit_dot, false, 1, &r);
        const int32_t *g = r.outs[0]->data;
        for (int i = 0; i < 8; i++) assert_int_equal(g[i], lhs[i]);
        kt_run_free(&r);
        kt_free(&t);
    }
}

/* No contracting (and no batching) dims: an outer product, the spec's
 * dot_general example with empty dims, and an f32 one against hand values. */
static void test_k_dot_empty_contracting_dims_outer_product(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2x2x2xi32> {\n"
        "  %r = stablehlo.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [] x [], "
        "precision = [DEFAULT, DEFAULT] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2x2x2xi32>\n"
        "  func.return %r : tensor<2x2x2x2xi32>\n}\n";
    static const int lhs[4] = {1, 2, 3, 4}, rhs[4] = {1, 0, 0, 1};
    static const int want[16] = {1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3, 4, 0, 0, 4};
    const char *fsrc = "func.func @main(%a: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<3x2xf32> {\n"
                       "  %r = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : "
                       "(tensor<3xf32>, tensor<2xf32>) -> tensor<3x2xf32>\n"
                       "  func.return %r : tensor<3x2xf32>\n}\n";
    static const float fa[3] = {1.5f, -2, 0.25f}, fb[2] = {4, -3};
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct kt t;
        kt_parse(&t, src, CC_K_DOT);
        kt_random_inputs(&t, 3, 1.0);
        for (int i = 0; i < 4; i++) {
            kt_set(&t, 0, i, lhs[i]);
            kt_set(&t, 1, i, rhs[i]);
        }
        struct kt_run r;
        kt_run(&t, &chip, cc_emit_dot, false, 1, &r);
        const int32_t *g = r.outs[0]->data;
        for (int i = 0; i < 16; i++) assert_int_equal(g[i], want[i]);
        kt_run_free(&r);
        kt_free(&t);
        kt_parse(&t, fsrc, CC_K_DOT);
        kt_random_inputs(&t, 4, 1.0);
        for (int i = 0; i < 3; i++) kt_set(&t, 0, i, fa[i]);
        for (int i = 0; i < 2; i++) kt_set(&t, 1, i, fb[i]);
        kt_run(&t, &chip, cc_emit_dot, false, 1, &r);
        const float *f = r.outs[0]->data;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++) assert_true(f[i * 2 + j] == fa[i] * fb[j]);
        kt_run_free(&r);
        kt_free(&t);
    }
}

static void count_hbm_writes(void *user, uint64_t now_ps, const struct sim_dma_record *r)
{
    (void)now_ps;
    if (r->dst_space == ISA_SPACE_HBM) *(uint64_t *)user += r->bytes;
}

/* A contracting dim of size 0: every element is the empty sum 0, written
 * (every output byte once) on both chips, one core and two. */
static void test_k_dot_zero_sized_contraction_is_zeros(void **state)
{
    (void)state;
    static const char *const srcs[2] = {
        DOT_MAIN("tensor<5x0xf32>", "tensor<0x7xf32>", "tensor<5x7xf32>", "contracting_dims = [1] x [0]"),
        DOT_MAIN("tensor<2x3x0xi32>", "tensor<2x0x4xi32>", "tensor<2x3x4xi32>",
                 "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
    };
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 2; c++)
            for (uint32_t cores = 1; cores <= 2; cores++) {
                struct chip_desc chip;
                kt_load_chip(chips[c], &chip);
                if (cores > chip.cores) continue;
                struct kt t;
                kt_parse(&t, srcs[i], CC_K_DOT);
                kt_random_inputs(&t, 5, 1.0);
                uint64_t written = 0;
                struct sim_hooks h = {&written, NULL, count_hbm_writes, NULL};
                struct kt_run r;
                kt_run_hooks(&t, &chip, cc_emit_dot, false, cores, &r, &h);
                const struct base_tensor *o = r.outs[0];
                assert_int_equal(written, o->count * base_dtype_size(o->dtype));
                for (int64_t j = 0; j < o->count; j++) assert_true(base_elem_get_bits(o->dtype, o->data, (size_t)j) == 0);
                kt_run_free(&r);
                kt_free(&t);
            }
}

/* more cores than output blocks: the idle cores emit nothing */
static void test_k_dot_more_cores_than_blocks(void **state)
{
    (void)state;
    check_ref(DOT_MAIN("tensor<20x64xbf16>", "tensor<64x30xbf16>", "tensor<20x30xbf16>",
                       "contracting_dims = [1] x [0]"),
              NULL, "trn2", 8, 18, 0);
}

/* f64 and complex dots are reported, located at the op */
static void test_k_dot_rejects_f64(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             DOT_MAIN("tensor<4x4xf64>", "tensor<4x4xf64>", "tensor<4x4xf64>", "contracting_dims = [1] x [0]"),
             CC_K_DOT);
    struct chip_desc chip;
    kt_load_chip("trn2", &chip);
    struct cc_target tg;
    cc_target_init(&tg, &chip);
    struct isa_program p;
    isa_program_init(&p);
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_emit_ctx ctx = {0, 1, NULL};
    assert_int_equal(cc_emit_dot(&tg, &t.k, &ctx, &p, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "f64"));
    assert_int_equal(d.line, 2);
    isa_program_deinit(&p);
    kt_free(&t);
}

/* Epilogues: the kernel's ops after the dot run on each result tile before
 * the store (k_elem.c's tile programs, the sum as their source). */
static const char *const epilogues[] = {
    /* bias add over rows, silu (the dot result used twice), convert */
    "func.func @main(%a: tensor<150x200xbf16>, %b: tensor<200x300xbf16>, %c: tensor<300xf32>) -> tensor<150x300xbf16> {\n"
    DOT("tensor<150x200xbf16>", "tensor<200x300xbf16>", "tensor<150x300xf32>", "contracting_dims = [1] x [0]")
    "  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<300xf32>) -> tensor<150x300xf32>\n"
    "  %x = stablehlo.add %r, %cb : tensor<150x300xf32>\n"
    "  %s = stablehlo.logistic %x : tensor<150x300xf32>\n"
    "  %y = stablehlo.multiply %x, %s : tensor<150x300xf32>\n"
    "  %o = stablehlo.convert %y : (tensor<150x300xf32>) -> tensor<150x300xbf16>\n"
    "  func.return %o : tensor<150x300xbf16>\n}\n",
    /* batch dims, a scale, a residual of the result's shape; the dot result is an output too */
    "func.func @main(%a: tensor<3x40x64xbf16>, %b: tensor<3x64x50xbf16>, %h: tensor<3x40x50xbf16>) -> (tensor<3x40x50xbf16>, tensor<3x40x50xbf16>) {\n"
    DOT("tensor<3x40x64xbf16>", "tensor<3x64x50xbf16>", "tensor<3x40x50xbf16>",
        "batching_dims = [0] x [0], contracting_dims = [2] x [1]")
    "  %k = stablehlo.constant dense<0.125> : tensor<3x40x50xbf16>\n"
    "  %x = stablehlo.multiply %r, %k : tensor<3x40x50xbf16>\n"
    "  %o = stablehlo.add %x, %h : tensor<3x40x50xbf16>\n"
    "  func.return %r, %o : tensor<3x40x50xbf16>, tensor<3x40x50xbf16>\n}\n",
    /* no lhs free dim: [K] x [K, N] -> [N], then abs */
    "func.func @main(%a: tensor<256xbf16>, %b: tensor<256x700xbf16>) -> tensor<700xf32> {\n"
    DOT("tensor<256xbf16>", "tensor<256x700xbf16>", "tensor<700xf32>", "contracting_dims = [0] x [0]")
    "  %o = stablehlo.abs %r : tensor<700xf32>\n"
    "  func.return %o : tensor<700xf32>\n}\n",
    /* large enough that the general engine keeps the moving tiles of an n box
     * (v_panel, k_dot.c) on both chips: batch dims, two rhs free dims, ragged
     * tiles in each */
    "func.func @main(%a: tensor<2x600x200xbf16>, %b: tensor<2x200x9x130xbf16>) -> tensor<2x600x9x130xf32> {\n"
    DOT("tensor<2x600x200xbf16>", "tensor<2x200x9x130xbf16>", "tensor<2x600x9x130xf32>",
        "batching_dims = [0] x [0], contracting_dims = [2] x [1]")
    "  %s = stablehlo.logistic %r : tensor<2x600x9x130xf32>\n"
    "  %o = stablehlo.multiply %r, %s : tensor<2x600x9x130xf32>\n"
    "  func.return %o : tensor<2x600x9x130xf32>\n}\n",
    /* integers: a bias and a clamp after an i8 dot */
    "func.func @main(%a: tensor<30x64xi8>, %b: tensor<64x40xi8>, %c: tensor<30x40xi32>) -> tensor<30x40xi32> {\n"
    DOT("tensor<30x64xi8>", "tensor<64x40xi8>", "tensor<30x40xi32>", "contracting_dims = [1] x [0]")
    "  %lo = stablehlo.constant dense<-3000> : tensor<i32>\n"
    "  %hi = stablehlo.constant dense<3000> : tensor<i32>\n"
    "  %x = stablehlo.add %r, %c : tensor<30x40xi32>\n"
    "  %o = stablehlo.clamp %lo, %x, %hi : (tensor<i32>, tensor<30x40xi32>, tensor<i32>) -> tensor<30x40xi32>\n"
    "  func.return %o : tensor<30x40xi32>\n}\n",
};

static void test_k_dot_epilogues(void **state)
{
    (void)state;
#ifdef CC_EW_SOURCES
    for (size_t i = 0; i < ARRAY_LEN(epilogues); i++) {
        struct kt t;
        kt_parse(&t, epilogues[i], CC_K_DOT);
        kt_random_inputs(&t, 40 + i, 1.0);
        if (t.args[0]->dtype == BASE_DT_SI8) /* integers over their range */
            for (int a = 0; a < t.n_args; a++)
                for (int64_t j = 0; j < t.args[a]->count; j++)
                    base_elem_set_i64(t.args[a]->dtype, t.args[a]->data, (size_t)j, (int64_t)((j * 2654435761u + a) % 255) - 127);
        for (int c = 0; c < 3; c++) {
            struct interp_options io;
            memset(&io, 0, sizeof io);
            struct interp_result res;
            struct base_diag d;
            base_diag_clear(&d);
            assert_int_equal(interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d), BASE_OK);
            struct chip_desc chip;
            kt_load_chip(c ? "trn2" : "tpu-v5e", &chip);
            struct kt_run run;
            kt_run(&t, &chip, cc_emit_dot, false, c == 2 ? 3 : 1, &run);
            for (int o = 0; o < t.n_out; o++) {
                char what[128];
                snprintf(what, sizeof what, "epilogue %zu on %s output %d", i, chip.name, o);
                kt_compare(run.outs[o], res.outputs[o], 0, what);
            }
            kt_run_free(&run);
            interp_result_free(&res);
        }
        kt_free(&t);
    }
#else
    /* without k_elem.c's tile sources an epilogue is refused, located */
    struct kt t;
    kt_parse(&t, epilogues[0], CC_K_DOT);
    struct chip_desc chip;
    kt_load_chip("trn2", &chip);
    struct cc_target tg;
    cc_target_init(&tg, &chip);
    struct isa_program p;
    isa_program_init(&p);
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_emit_ctx ctx = {0, 1, NULL};
    assert_int_equal(cc_emit_dot(&tg, &t.k, &ctx, &p, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "epilogue"));
    isa_program_deinit(&p);
    kt_free(&t);
#endif
}

static void count_hbm_reads(void *user, uint64_t now_ps, const struct sim_dma_record *r)
{
    (void)now_ps;
    if (r->src_space == ISA_SPACE_HBM) *(uint64_t *)user += r->hbm_bytes;
}

/* HBM bytes read by src's kernel on one core, timing only. */
static uint64_t dot_bytes_read(const char *src, const char *chip_name)
{
    struct kt t;
    kt_parse(&t, src, CC_K_DOT);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    uint64_t read = 0;
    struct sim_hooks h = {&read, NULL, count_hbm_reads, NULL};
    struct kt_run r;
    kt_run_hooks(&t, &chip, cc_emit_dot, true, 1, &r, &h);
    kt_run_free(&r);
    kt_free(&t);
    return read;
}

/* A dot with an epilogue (the general engine) reads its operands about as
 * often as the same dot alone (the GEMM path): it keeps whichever operand
 * it reuses more.  Keeping the stationary tiles of each 128-row group, it
 * read the rhs once per group: 3.4x the GEMM's bytes at 4096^3. */
static void test_k_dot_epilogue_reads_like_the_gemm(void **state)
{
    (void)state;
#define SQ "tensor<2048x2048xbf16>"
    static const char *const plain = DOT_MAIN(SQ, SQ, SQ, "contracting_dims = [1] x [0]");
    static const char *const silu = "func.func @main(%a: " SQ ", %b: " SQ ") -> " SQ " {\n" DOT(
        SQ, SQ, SQ, "contracting_dims = [1] x [0]") "  %s = stablehlo.logistic %r : " SQ "\n"
                                                    "  %o = stablehlo.multiply %r, %s : " SQ "\n"
                                                    "  func.return %o : " SQ "\n}\n";
#undef SQ
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        uint64_t a = dot_bytes_read(plain, chips[c]), b = dot_bytes_read(silu, chips[c]);
        printf("  2048^3 bf16 on %s, one core: %.1f MB read alone, %.1f MB with a silu epilogue\n", chips[c], a * 1e-6,
               b * 1e-6);
        assert_true((double)b <= 1.25 * (double)a);
    }
}

/* The bar: a 4096^3 bf16 dot_general reaches 85% of the chip's
 * peak (every core), timing only. */
static double dot_4096_fraction(const char *chip_name)
{
    struct kt t;
    kt_parse(&t,
             DOT_MAIN("tensor<4096x4096xbf16>", "tensor<4096x4096xbf16>", "tensor<4096x4096xbf16>",
                      "contracting_dims = [1] x [0]"),
             CC_K_DOT);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct kt_run r;
    kt_run(&t, &chip, cc_emit_dot, true, 0, &r);
    double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
    double peak = chip_peak_flops(&chip, CHIP_RATE_BF16);
    double frac = flops / ((double)r.st.total_ps * 1e-12) / peak;
    printf("  4096^3 bf16 on %s (%u cores): %.3f us, %.1f%% of the chip's %.1f TFLOP/s (emit %.3f s, sim %.3f s)\n",
           chip_name, chip.cores, (double)r.st.total_ps * 1e-6, 100 * frac, peak * 1e-12, r.emit_s, r.sim_s);
    kt_run_free(&r);
    kt_free(&t);
    return frac;
}

static void test_k_dot_4096_bf16_reaches_85_percent_of_chip_peak(void **state)
{
    (void)state;
    assert_true(dot_4096_fraction("tpu-v5e") >= 0.85);
    assert_true(dot_4096_fraction("tpu-v6e") >= 0.85);
    assert_true(dot_4096_fraction("trn2") >= 0.85);
}

TEST_MAIN(NULL, NULL, T(test_k_dot_bf16_row_major), T(test_k_dot_epilogue_reads_like_the_gemm), T(test_k_dot_long_k_several_chunks_and_blocks), T(test_k_dot_contracting_dim_not_innermost_and_transposed_rhs),
          T(test_k_dot_transposed_views), T(test_k_dot_batch_dim_in_the_middle),
          T(test_k_dot_two_batch_dims_and_free_dims), T(test_k_dot_contracting_dims_that_merge),
          T(test_k_dot_contracting_dims_that_do_not_merge), T(test_k_dot_broadcast_reverse_slice_views),
          T(test_k_dot_legacy_dot_matvec_and_inner_product), T(test_k_dot_f32_f16_each_precision),
          T(test_k_dot_tpu_precisions_within_tolerance), T(test_k_dot_fp8_operands), T(test_k_dot_convert_after_the_dot), T(test_k_dot_integers_exact),
          T(test_k_dot_more_cores_than_blocks), T(test_k_dot_default_precision_highest_is_f32_accurate),
          T(test_k_dot_explicit_precision_and_algorithm_kept), T(test_k_dot_algorithm_refused_or_ignored_for_integers),
          T(test_k_dot_empty_contracting_dims_outer_product), T(test_k_dot_zero_sized_contraction_is_zeros), T(test_k_dot_rejects_f64), T(test_k_dot_epilogues),
          T(test_k_dot_4096_bf16_reaches_85_percent_of_chip_peak))
