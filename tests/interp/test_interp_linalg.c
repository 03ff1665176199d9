/* Linear algebra on the golden interpreter: dot_general, dot, ragged_dot,
 * convolution, fft, triangular_solve, cholesky, batch_norm_*, einsum.
 * Expected values are the spec's worked examples, closed forms (identity
 * matrices, the DFT of an impulse, known Cholesky factors), sums worked by
 * hand in the comments, or, for the blocked GEMM, a plain sequential loop
 * written here.
 *
 * Sums of products accumulate step by step in A = f32 (f64 for f64 results):
 * each product is rounded to A, then added (no fused multiply-add), and the
 * sum is rounded once to the result type (XLA and the reference interpreter). */
#include "tests/prog.h"

#include <math.h>

/* ---- dot_general --------------------------------------------------------- */

/* spec example: batched matmul by identity matrices returns the lhs. */
static void test_dot_general_spec_example_batch_identity(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x2x2xi64> {\n"
             "  %lhs = stablehlo.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi64>\n"
             "  %rhs = stablehlo.constant dense<[[[1, 0], [0, 1]], [[1, 0], [0, 1]]]> : tensor<2x2x2xi64>\n"
             "  %r = \"stablehlo.dot_general\"(%lhs, %rhs) {\n"
             "    dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],\n"
             "      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,\n"
             "    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]\n"
             "  } : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>\n"
             "  return %r : tensor<2x2x2xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {1, 2, 3, 4, 5, 6, 7, 8};
    prog_expect_i64(prog_out(&r, 0), want, 8);
    prog_free(&r);
}

/* i8 x i8 -> i32 accumulates in the wide type: 100*100 + 100*100 = 20000
 * (the i8 product alone would wrap); i32 sums wrap: 2^30 * 2 * 2 = 2^32 -> 0. */
static void test_dot_general_integer_widening_and_wrap(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<i32>, tensor<i32>) {\n"
             "  %a = stablehlo.constant dense<[100, 100]> : tensor<2xi8>\n"
             "  %d = stablehlo.dot_general %a, %a, contracting_dims = [0] x [0] : (tensor<2xi8>, tensor<2xi8>) -> tensor<i32>\n"
             "  %b = stablehlo.constant dense<[1073741824, 1073741824]> : tensor<2xi32>\n"
             "  %t = stablehlo.constant dense<[2, 2]> : tensor<2xi32>\n"
             "  %e = stablehlo.dot_general %b, %t, contracting_dims = [0] x [0] : (tensor<2xi32>, tensor<2xi32>) -> tensor<i32>\n"
             "  return %d, %e : tensor<i32>, tensor<i32>\n"
             "}\n",
             NULL, 0);
    const int64_t d[] = {20000}, e[] = {0};
    prog_expect_i64(prog_out(&r, 0), d, 1);
    prog_expect_i64(prog_out(&r, 1), e, 1);
    prog_free(&r);
}

/* (1+2i)(3-4i) + (5+6i)(7+8i) = (11+2i) + (-13+82i) = -2+84i. */
static void test_dot_general_complex(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<complex<f64>> {\n"
             "  %a = stablehlo.constant dense<[(1.0, 2.0), (5.0, 6.0)]> : tensor<2xcomplex<f64>>\n"
             "  %b = stablehlo.constant dense<[(3.0, -4.0), (7.0, 8.0)]> : tensor<2xcomplex<f64>>\n"
             "  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<complex<f64>>\n"
             "  return %d : tensor<complex<f64>>\n"
             "}\n",
             NULL, 0);
    const double want[] = {-2.0, 84.0};
    prog_expect_c128_near(prog_out(&r, 0), want, 1, 0.0);
    prog_free(&r);
}

/* f32 sums step by step: 1e8 + 1 is 1e8 in f32 (the f32 spacing at 1e8 is
 * 8), so [1e8, 1, -1e8] . [1, 1, 1] is 0; summed in double and rounded once
 * it would be 1.  An f64 result sums in f64: 1. */
static void test_dot_general_f32_sums_step_by_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<f32>, tensor<bf16>, tensor<f64>) {\n"
             "  %a = stablehlo.constant dense<[1.0e8, 1.0, -1.0e8]> : tensor<3xf32>\n"
             "  %o = stablehlo.constant dense<1.0> : tensor<3xf32>\n"
             "  %d = stablehlo.dot_general %a, %o, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>\n"
             "  %e = stablehlo.dot_general %a, %o, contracting_dims = [0] x [0] : (tensor<3xf32>, tensor<3xf32>) -> tensor<bf16>\n"
             "  %a64 = stablehlo.constant dense<[1.0e8, 1.0, -1.0e8]> : tensor<3xf64>\n"
             "  %o64 = stablehlo.constant dense<1.0> : tensor<3xf64>\n"
             "  %f = stablehlo.dot_general %a64, %o64, contracting_dims = [0] x [0] : (tensor<3xf64>, tensor<3xf64>) -> tensor<f64>\n"
             "  return %d, %e, %f : tensor<f32>, tensor<bf16>, tensor<f64>\n"
             "}\n",
             NULL, 0);
    const double zero[] = {0.0}, one[] = {1.0};
    prog_expect_f64_near(prog_out(&r, 0), zero, 1, 0.0);
    prog_expect_f64_near(prog_out(&r, 1), zero, 1, 0.0);
    prog_expect_f64_near(prog_out(&r, 2), one, 1, 0.0);
    prog_free(&r);
}

/* Each product is rounded to f32 before the add (no fused multiply-add):
 * a = 1 + 2^-12, a * a = 1 + 2^-11 + 2^-24 is a tie in f32 and rounds to even,
 * 1 + 2^-11; after -(1 + 2^-11) the sum is 0, where a fused multiply-add
 * would keep 2^-24. */
static void test_dot_general_rounds_product_before_add(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<f32> {\n"
             "  %a = stablehlo.constant dense<[-1.00048828125, 1.000244140625]> : tensor<2xf32>\n"
             "  %b = stablehlo.constant dense<[1.0, 1.000244140625]> : tensor<2xf32>\n"
             "  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>\n"
             "  return %d : tensor<f32>\n"
             "}\n",
             NULL, 0);
    const double zero[] = {0.0};
    prog_expect_f64_near(prog_out(&r, 0), zero, 1, 0.0);
    prog_free(&r);
}

/* ---- target precision (interp_options.matmul) ---------------------------- */

/* Runs src (no arguments, one process) with the matmul precision mp. */
static struct base_tensor *run_with_precision(const char *src, const struct interp_matmul_precision *mp, int out)
{
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse(src, strlen(src), NULL, &m, &d), BASE_OK);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    if (mp) io.matmul = *mp;
    struct interp_result res;
    assert_int_equal(interp_run(m, NULL, NULL, 0, &io, &res, &d), BASE_OK);
    struct base_tensor *t = base_tensor_retain(res.outputs[out]);
    interp_result_free(&res);
    graph_module_destroy(m);
    return t;
}

/* x = 1 + 2^-10 is not a bf16 (7 fraction bits): one pass multiplies
 * bf16(x) = 1, so x * x gives 1; 3 passes add x0 y1 + x1 y0 = 2 * 2^-10, the
 * f32 product's 1 + 2^-9 + 2^-20 less its last term; 6 passes add x1 y1 =
 * 2^-20 too: the f32 product exactly.  Ops asking for HIGH or HIGHEST take
 * those passes whatever the default; bf16 operands never split. */
static void test_dot_general_target_precision_passes(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {\n"
        "  %x = stablehlo.constant dense<[1.0009765625]> : tensor<1xf32>\n"
        "  %d = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<1xf32>, tensor<1xf32>) -> tensor<f32>\n"
        "  %h = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0], precision = [HIGH, DEFAULT] : (tensor<1xf32>, tensor<1xf32>) -> tensor<f32>\n"
        "  %g = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0], precision = [HIGHEST, HIGHEST] : (tensor<1xf32>, tensor<1xf32>) -> tensor<f32>\n"
        "  %b = stablehlo.convert %x : (tensor<1xf32>) -> tensor<1xbf16>\n"
        "  %e = stablehlo.dot_general %b, %b, contracting_dims = [0] x [0] : (tensor<1xbf16>, tensor<1xbf16>) -> tensor<f32>\n"
        "  return %d, %h, %g, %e : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>\n"
        "}\n";
    struct interp_matmul_precision tpu = {.emulate = true, .f16_passes = true, .default_level = 0, .passes = {1, 3, 6}};
    double x = 1.0009765625, f32 = x * x;
    const double one[] = {1.0}, three[] = {1.0 + ldexp(1.0, -9)}, exact[] = {f32};
    struct base_tensor *t;
    /* the spec's f32 products without emulation */
    for (int o = 0; o < 3; o++) {
        t = run_with_precision(src, NULL, o);
        prog_expect_f64_near(t, exact, 1, 0.0);
        base_tensor_release(t);
    }
    t = run_with_precision(src, &tpu, 0);
    prog_expect_f64_near(t, one, 1, 0.0);
    base_tensor_release(t);
    t = run_with_precision(src, &tpu, 1);
    prog_expect_f64_near(t, three, 1, 0.0);
    base_tensor_release(t);
    t = run_with_precision(src, &tpu, 2);
    prog_expect_f64_near(t, exact, 1, 0.0);
    base_tensor_release(t);
    t = run_with_precision(src, &tpu, 3); /* bf16(x) = 1 */
    prog_expect_f64_near(t, one, 1, 0.0);
    base_tensor_release(t);
    /* --precision highest: DEFAULT ops run at the default level's passes */
    tpu.default_level = 2;
    t = run_with_precision(src, &tpu, 0);
    prog_expect_f64_near(t, exact, 1, 0.0);
    base_tensor_release(t);
}

/* The level an op asks for: its algorithm first, else the higher of its
 * precision_config, else the default. */
static void test_dot_precision_level_resolution(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {\n"
        "  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        "  %1 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], precision = [DEFAULT, HIGH] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        "  %2 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], precision = [HIGH, HIGHEST] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        "  %3 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        "  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>\n"
        "}\n";
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse(src, strlen(src), NULL, &m, &d), BASE_OK);
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    assert_int_equal(interp_dot_precision_level(b->ops[0], 0), 0);
    assert_int_equal(interp_dot_precision_level(b->ops[0], 2), 2);
    assert_int_equal(interp_dot_precision_level(b->ops[1], 0), 1);
    assert_int_equal(interp_dot_precision_level(b->ops[1], 2), 1); /* asks for HIGH: its own */
    assert_int_equal(interp_dot_precision_level(b->ops[2], 0), 2);
    assert_int_equal(interp_dot_precision_level(b->ops[3], 2), 1); /* bf16 3x3x3: HIGH */
    graph_module_destroy(m);
}

/* complex<f32> sums in complex<f32>: (1e8 + 1e8i) + (1 + 1i) + (-1e8 - 1e8i)
 * (times 1) is 0 in each part. */
static void test_dot_general_c64_sums_in_f32(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<complex<f32>> {\n"
             "  %a = stablehlo.constant dense<[(1.0e8, 1.0e8), (1.0, 1.0), (-1.0e8, -1.0e8)]> : tensor<3xcomplex<f32>>\n"
             "  %o = stablehlo.constant dense<(1.0, 0.0)> : tensor<3xcomplex<f32>>\n"
             "  %d = stablehlo.dot_general %a, %o, contracting_dims = [0] x [0] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<complex<f32>>\n"
             "  return %d : tensor<complex<f32>>\n"
             "}\n",
             NULL, 0);
    const double want[] = {0.0, 0.0};
    prog_expect_c128_near(prog_out(&r, 0), want, 1, 0.0);
    prog_free(&r);
}

/* legacy dot: matrix times vector. [[1,2],[3,4]] . [5,6] = [17, 39]. */
static void test_dot_matrix_vector(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2xf32> {\n"
             "  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>\n"
             "  %v = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>\n"
             "  %d = \"stablehlo.dot\"(%a, %v) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
             "  return %d : tensor<2xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {17, 39};
    prog_expect_f64_near(prog_out(&r, 0), want, 2, 0.0);
    prog_free(&r);
}

/* Deterministic pseudo-random values in [-2, 2), rounded to t's type. */
static void fill_uniform(struct base_tensor *t, uint64_t seed)
{
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    for (int64_t i = 0; i < t->count; i++)
        base_elem_set_f64(t->dtype, t->data, (size_t)i, base_rng_uniform(&rng) * 4.0 - 2.0);
}

/* The blocked, threaded GEMM equals a plain sequential loop bit for bit:
 * out[b][i][j] = round(acc), acc = acc + (a * b) in f32 (f64 for f64), k
 * ascending.  lhs [B, M, K] (contracting dim last), rhs [B, N, K] or
 * [B, K, N]; dt is bf16 (products exact in f32), f32 or f64 (products
 * rounded: an FMA would differ). */
static void check_gemm(enum base_dtype dt, int64_t nb, int64_t m, int64_t k, int64_t n, bool rhs_transposed)
{
    const char *e = base_dtype_name(dt);
    long long r1 = rhs_transposed ? n : k, r2 = rhs_transposed ? k : n;
    char at[64], bt[64], ct[64], src[1024];
    snprintf(at, sizeof at, "tensor<%lldx%lldx%lldx%s>", (long long)nb, (long long)m, (long long)k, e);
    snprintf(bt, sizeof bt, "tensor<%lldx%lldx%lldx%s>", (long long)nb, r1, r2, e);
    snprintf(ct, sizeof ct, "tensor<%lldx%lldx%lldx%s>", (long long)nb, (long long)m, (long long)n, e);
    snprintf(src, sizeof src,
             "func.func @main(%%a: %s, %%b: %s) -> %s {\n"
             "  %%d = stablehlo.dot_general %%a, %%b, batching_dims = [0] x [0], contracting_dims = [2] x [%d] :\n"
             "      (%s, %s) -> %s\n"
             "  return %%d : %s\n"
             "}\n",
             at, bt, ct, rhs_transposed ? 2 : 1, at, bt, ct, ct);
    int64_t ad[3] = {nb, m, k}, bd[3] = {nb, r1, r2};
    struct base_tensor *a = NULL, *b = NULL;
    assert_int_equal(base_tensor_create(dt, 3, ad, &a), BASE_OK);
    assert_int_equal(base_tensor_create(dt, 3, bd, &b), BASE_OK);
    fill_uniform(a, test_seed() * 7 + 1);
    fill_uniform(b, test_seed() * 7 + 2);
    struct base_tensor *in[2] = {a, b};
    struct prog r;
    prog_run(&r, src, in, 2);
    const struct base_tensor *c = prog_out(&r, 0);
    assert_int_equal(c->count, nb * m * n);
    int64_t bad = 0;
    for (int64_t bb = 0; bb < nb; bb++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                float acc = 0.0f;
                double acc64 = 0.0;
                for (int64_t q = 0; q < k; q++) {
                    double x = base_elem_get_f64(dt, a->data, (size_t)((bb * m + i) * k + q));
                    size_t bi = rhs_transposed ? (size_t)((bb * n + j) * k + q) : (size_t)((bb * k + q) * n + j);
                    double y = base_elem_get_f64(dt, b->data, bi);
                    if (dt == BASE_DT_F64) {
                        volatile double prod = x * y; /* rounded whatever the compiler flags */
                        acc64 = acc64 + prod;
                    } else {
                        volatile float prod = (float)x * (float)y;
                        acc = acc + prod;
                    }
                }
                uint64_t want = base_float_bits_from_f64(dt, dt == BASE_DT_F64 ? acc64 : (double)acc);
                uint64_t got = base_elem_get_bits(dt, c->data, (size_t)((bb * m + i) * n + j));
                if (got != want && bad++ < 5)
                    fprintf(stderr, "[%lld][%lld][%lld]: got 0x%llx, want 0x%llx (seed %llu)\n", (long long)bb,
                            (long long)i, (long long)j, (unsigned long long)got, (unsigned long long)want,
                            (unsigned long long)test_seed());
            }
    assert_int_equal(bad, 0);
    prog_free(&r);
    base_tensor_release(a);
    base_tensor_release(b);
}

static void check_gemm_bf16(int64_t nb, int64_t m, int64_t k, int64_t n, bool rhs_transposed)
{
    check_gemm(BASE_DT_BF16, nb, m, k, n, rhs_transposed);
}

/* Large enough for the blocked kernel, several threads, edge tiles and two
 * k blocks; rhs in [K, N] layout. */
static void test_dot_general_blocked_gemm_matches_plain_sum(void **state)
{
    (void)state;
    check_gemm_bf16(1, 67, 300, 301, false);
}

/* rhs in [N, K] layout (contracting dim last on both sides). */
static void test_dot_general_blocked_gemm_rhs_transposed(void **state)
{
    (void)state;
    check_gemm_bf16(1, 33, 257, 130, true);
}

/* More rows than columns: threads split the rows. */
static void test_dot_general_blocked_gemm_tall(void **state)
{
    (void)state;
    check_gemm_bf16(1, 300, 260, 60, false);
}

/* Batch dims split across threads. */
static void test_dot_general_blocked_gemm_batched(void **state)
{
    (void)state;
    check_gemm_bf16(6, 33, 160, 140, false);
}

/* f32 operands: every product is rounded to f32 before it is added, on the
 * blocked path as in the plain loop (edge tiles in both directions). */
static void test_dot_general_blocked_gemm_f32_rounds_each_product(void **state)
{
    (void)state;
    check_gemm(BASE_DT_F32, 1, 37, 300, 45, false);
}

/* f32, rhs [N, K], batched. */
static void test_dot_general_blocked_gemm_f32_batched_transposed(void **state)
{
    (void)state;
    check_gemm(BASE_DT_F32, 3, 20, 130, 70, true);
}

/* f64 results sum in f64 (4 x 12 tiles), also rounding each product. */
static void test_dot_general_blocked_gemm_f64(void **state)
{
    (void)state;
    check_gemm(BASE_DT_F64, 2, 21, 270, 29, false);
}

/* Integer GEMMs large enough for the blocked kernel give the exact wrapped
 * sums: i8 x i8 -> i32 (full i8 range), and i16 x i16 -> i16, whose sums
 * overflow i16 and must wrap. */
static void check_gemm_int(enum base_dtype in_dt, const char *in_name, enum base_dtype out_dt, const char *out_name,
                           int64_t m, int64_t k, int64_t n)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%a: tensor<%lldx%lldx%s>, %%b: tensor<%lldx%lldx%s>) -> tensor<%lldx%lldx%s> {\n"
             "  %%d = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] :\n"
             "      (tensor<%lldx%lldx%s>, tensor<%lldx%lldx%s>) -> tensor<%lldx%lldx%s>\n"
             "  return %%d : tensor<%lldx%lldx%s>\n"
             "}\n",
             (long long)m, (long long)k, in_name, (long long)k, (long long)n, in_name, (long long)m, (long long)n,
             out_name, (long long)m, (long long)k, in_name, (long long)k, (long long)n, in_name, (long long)m,
             (long long)n, out_name, (long long)m, (long long)n, out_name);
    int64_t ad[2] = {m, k}, bd[2] = {k, n};
    struct base_tensor *a = NULL, *b = NULL;
    assert_int_equal(base_tensor_create(in_dt, 2, ad, &a), BASE_OK);
    assert_int_equal(base_tensor_create(in_dt, 2, bd, &b), BASE_OK);
    struct base_rng rng;
    base_rng_seed(&rng, test_seed() * 13 + 5);
    for (int64_t i = 0; i < a->count; i++) base_elem_set_i64(in_dt, a->data, (size_t)i, (int64_t)base_rng_next(&rng));
    for (int64_t i = 0; i < b->count; i++) base_elem_set_i64(in_dt, b->data, (size_t)i, (int64_t)base_rng_next(&rng));
    struct base_tensor *in[2] = {a, b};
    struct prog r;
    prog_run(&r, src, in, 2);
    const struct base_tensor *c = prog_out(&r, 0);
    int64_t bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            uint64_t acc = 0;
            for (int64_t q = 0; q < k; q++)
                acc += (uint64_t)base_elem_get_i64(in_dt, a->data, (size_t)(i * k + q)) *
                       (uint64_t)base_elem_get_i64(in_dt, b->data, (size_t)(q * n + j));
            int64_t want = base_elem_get_i64(out_dt, &acc, 0); /* low bits, sign-extended (little-endian) */
            int64_t got = base_elem_get_i64(out_dt, c->data, (size_t)(i * n + j));
            if (got != want && bad++ < 5)
                fprintf(stderr, "[%lld][%lld]: got %lld, want %lld (seed %llu)\n", (long long)i, (long long)j,
                        (long long)got, (long long)want, (unsigned long long)test_seed());
        }
    assert_int_equal(bad, 0);
    prog_free(&r);
    base_tensor_release(a);
    base_tensor_release(b);
}

static void test_dot_general_int8_gemm_exact(void **state)
{
    (void)state;
    check_gemm_int(BASE_DT_SI8, "i8", BASE_DT_SI32, "i32", 41, 300, 53);
}

static void test_dot_general_int16_gemm_wraps(void **state)
{
    (void)state;
    check_gemm_int(BASE_DT_SI16, "i16", BASE_DT_SI16, "i16", 19, 260, 30);
}

/* ---- chlo.ragged_dot ----------------------------------------------------- */

/* Mode 1 (ragged lhs rows): group sizes [1, 2] send row 0 to rhs[0] and rows
 * 1, 2 to rhs[1]; row 3 is in no group and gives zeros.
 * lhs rows [1, 2], [3, 4], [5, 6], [7, 8]; rhs[0] = [[1], [1]], rhs[1] = [[1], [-1]]
 * -> [3], [-1], [-1], [0]. */
static void test_ragged_dot_mode1_groups_rows(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<4x1xf32> {\n"
             "  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>\n"
             "  %rhs = stablehlo.constant dense<[[[1.0], [1.0]], [[1.0], [-1.0]]]> : tensor<2x2x1xf32>\n"
             "  %gs = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
             "  %r = \"chlo.ragged_dot\"(%lhs, %rhs, %gs) {\n"
             "    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],\n"
             "      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],\n"
             "      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>,\n"
             "    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]\n"
             "  } : (tensor<4x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<4x1xf32>\n"
             "  return %r : tensor<4x1xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {3, -1, -1, 0};
    prog_expect_f64_near(prog_out(&r, 0), want, 4, 0.0);
    prog_free(&r);
}

/* Mode 2 (ragged contracting dim): group sizes [1, 2] split k into {0} and
 * {1, 2}: lhs [[1, 2, 3]], rhs [[1], [10], [100]] -> [[[1]], [[320]]]. */
static void test_ragged_dot_mode2_splits_contraction(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x1x1xf32> {\n"
             "  %lhs = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>\n"
             "  %rhs = stablehlo.constant dense<[[1.0], [10.0], [100.0]]> : tensor<3x1xf32>\n"
             "  %gs = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
             "  %r = \"chlo.ragged_dot\"(%lhs, %rhs, %gs) {\n"
             "    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],\n"
             "      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],\n"
             "      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>\n"
             "  } : (tensor<1x3xf32>, tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>\n"
             "  return %r : tensor<2x1x1xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {1, 320};
    prog_expect_f64_near(prog_out(&r, 0), want, 2, 0.0);
    prog_free(&r);
}

/* ---- convolution --------------------------------------------------------- */

/* spec example: lhs_dilation 2, stride 4, 3x3 window of ones. */
static void test_convolution_spec_example(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1x2x2x1xi64> {\n"
             "  %lhs = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]],\n"
             "      [[10], [11], [14], [15]], [[12], [13], [16], [17]]]]> : tensor<1x4x4x1xi64>\n"
             "  %rhs = stablehlo.constant dense<1> : tensor<3x3x1x1xi64>\n"
             "  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],\n"
             "      window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}\n"
             "      : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>\n"
             "  return %r : tensor<1x2x2x1xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {10, 26, 46, 62};
    prog_expect_i64(prog_out(&r, 0), want, 4);
    prog_free(&r);
}

/* A window sums in f32 step by step, in window order: input [1e8, 1, -1e8],
 * kernel [1, 1, 1] gives 0 (1e8 + 1 is 1e8 in f32), not 1. */
static void test_convolution_f32_sums_step_by_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1x1x1xf32> {\n"
             "  %x = stablehlo.constant dense<[[[1.0e8], [1.0], [-1.0e8]]]> : tensor<1x3x1xf32>\n"
             "  %k = stablehlo.constant dense<1.0> : tensor<3x1x1xf32>\n"
             "  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {}\n"
             "      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}\n"
             "      : (tensor<1x3x1xf32>, tensor<3x1x1xf32>) -> tensor<1x1x1xf32>\n"
             "  return %r : tensor<1x1x1xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {0.0};
    prog_expect_f64_near(prog_out(&r, 0), want, 1, 0.0);
    prog_free(&r);
}

/* Depthwise 1-D convolution (feature_group_count = 2), padding [1, 1], window 2:
 * channel 0 = [1, 2, 3] with kernel [1, 10], channel 1 = [4, 5, 6] with kernel [2, 0].
 * padded ch0 [0,1,2,3,0] -> [0+10, 1+20, 2+30, 3+0] = [10, 21, 32, 3];
 * padded ch1 [0,4,5,6,0] -> [0, 8, 10, 12].  Layout [b, 0, f]. */
static void test_convolution_feature_groups(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1x4x2xf32> {\n"
             "  %lhs = stablehlo.constant dense<[[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]]> : tensor<1x3x2xf32>\n"
             "  %rhs = stablehlo.constant dense<[[[1.0, 2.0]], [[10.0, 0.0]]]> : tensor<2x1x2xf32>\n"
             "  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],\n"
             "      window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}\n"
             "      : (tensor<1x3x2xf32>, tensor<2x1x2xf32>) -> tensor<1x4x2xf32>\n"
             "  return %r : tensor<1x4x2xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {10, 0, 21, 8, 32, 10, 3, 12};
    prog_expect_f64_near(prog_out(&r, 0), want, 8, 0.0);
    prog_free(&r);
}

/* batch_group_count = 2: batch 0 pairs with output feature 0, batch 1 with
 * feature 1 (a 1x1 kernel scaling by 2 and 3): lhs [[5], [7]] -> [[10, 21]]. */
static void test_convolution_batch_groups(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1x1x2xf32> {\n"
             "  %lhs = stablehlo.constant dense<[[[5.0]], [[7.0]]]> : tensor<2x1x1xf32>\n"
             "  %rhs = stablehlo.constant dense<[[[2.0, 3.0]]]> : tensor<1x1x2xf32>\n"
             "  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],\n"
             "      window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}\n"
             "      : (tensor<2x1x1xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>\n"
             "  return %r : tensor<1x1x2xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {10, 21};
    prog_expect_f64_near(prog_out(&r, 0), want, 2, 0.0);
    prog_free(&r);
}

/* ---- fft ----------------------------------------------------------------- */

/* The DFT of an impulse at 0 is all ones; at position 1 it is exp(-2 pi i k / n).
 * n = 100 exercises Bluestein (not a power of two, above the direct limit). */
static void test_fft_impulse_closed_form(void **state)
{
    (void)state;
    char src[4096];
    int n = 100;
    snprintf(src, sizeof src,
             "func.func @main(%%x: tensor<%dxcomplex<f64>>) -> tensor<%dxcomplex<f64>> {\n"
             "  %%r = stablehlo.fft %%x, type = FFT, length = [%d] : (tensor<%dxcomplex<f64>>) -> tensor<%dxcomplex<f64>>\n"
             "  return %%r : tensor<%dxcomplex<f64>>\n"
             "}\n",
             n, n, n, n, n, n);
    int64_t d[1] = {n};
    struct base_tensor *x = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_C128, 1, d, &x), BASE_OK);
    base_elem_set_c128(BASE_DT_C128, x->data, 1, 1.0, 0.0);
    struct prog r;
    prog_run(&r, src, &x, 1);
    double want[200];
    for (int k = 0; k < n; k++) {
        want[2 * k] = cos(2 * M_PI * k / n);
        want[2 * k + 1] = -sin(2 * M_PI * k / n);
    }
    prog_expect_c128_near(prog_out(&r, 0), want, n, 1e-13);
    prog_free(&r);
    base_tensor_release(x);
}

/* spec example (interpret/fft.mlir): 2-D FFT of a 2x2 complex matrix. */
static void test_fft_spec_example_2d(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x2xcomplex<f64>> {\n"
             "  %x = stablehlo.constant dense<[[(1.0, 2.0), (3.0, -4.0)], [(-5.0, 6.0), (-7.0, -8.0)]]> : tensor<2x2xcomplex<f64>>\n"
             "  %r = stablehlo.fft %x, type = FFT, length = [2, 2] : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>\n"
             "  return %r : tensor<2x2xcomplex<f64>>\n"
             "}\n",
             NULL, 0);
    const double want[] = {-8, -4, 0, 20, 16, 0, -4, -8};
    prog_expect_c128_near(prog_out(&r, 0), want, 4, 0.0);
    prog_free(&r);
}

/* RFFT of [1, 2, 3, 4] is [10, -2+2i, -2]; IRFFT of that gives the signal back. */
static void test_fft_rfft_irfft_roundtrip(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<3xcomplex<f32>>, tensor<4xf32>) {\n"
             "  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
             "  %f = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>\n"
             "  %b = stablehlo.fft %f, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xf32>\n"
             "  return %f, %b : tensor<3xcomplex<f32>>, tensor<4xf32>\n"
             "}\n",
             NULL, 0);
    const double f[] = {10, 0, -2, 2, -2, 0}, b[] = {1, 2, 3, 4};
    prog_expect_c128_near(prog_out(&r, 0), f, 3, 0.0);
    prog_expect_f64_near(prog_out(&r, 1), b, 4, 0.0);
    prog_free(&r);
}

/* ---- triangular_solve, cholesky ------------------------------------------ */

/* spec example: lower a, left side, b = 2a -> x = 2I. */
static void test_triangular_solve_spec_example(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<3x3xf32> {\n"
             "  %a = stablehlo.constant dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>\n"
             "  %b = stablehlo.constant dense<[[2.0, 0.0, 0.0], [4.0, 8.0, 0.0], [6.0, 10.0, 12.0]]> : tensor<3x3xf32>\n"
             "  %r = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,\n"
             "      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>\n"
             "  return %r : tensor<3x3xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {2, 0, 0, 0, 2, 0, 0, 0, 2};
    prog_expect_f64_near(prog_out(&r, 0), want, 9, 0.0);
    prog_free(&r);
}

/* Right side with the transpose of an upper matrix, unit diagonal, reading
 * only the upper triangle (the lower holds 99, the diagonal 7, both ignored):
 * a = [[7, 2], [99, 7]] -> op(a) = [[1, 0], [2, 1]]; x op(a) = b with
 * b = [[5, 2]]: x = [x0, x1], x0 + 2 x1 = 5, x1 = 2 -> x = [1, 2]. */
static void test_triangular_solve_right_transpose_unit(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1x2xf64> {\n"
             "  %a = stablehlo.constant dense<[[7.0, 2.0], [99.0, 7.0]]> : tensor<2x2xf64>\n"
             "  %b = stablehlo.constant dense<[[5.0, 2.0]]> : tensor<1x2xf64>\n"
             "  %r = \"stablehlo.triangular_solve\"(%a, %b) {left_side = false, lower = false, unit_diagonal = true,\n"
             "      transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>\n"
             "  return %r : tensor<1x2xf64>\n"
             "}\n",
             NULL, 0);
    const double want[] = {1, 2};
    prog_expect_f64_near(prog_out(&r, 0), want, 2, 0.0);
    prog_free(&r);
}

/* spec example: cholesky of [[1,2,3],[2,20,26],[3,26,70]] is
 * [[1,0,0],[2,4,0],[3,5,6]]; the upper form is its transpose. */
static void test_cholesky_spec_example_lower_and_upper(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<3x3xf32>, tensor<3x3xf32>) {\n"
             "  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>\n"
             "  %l = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>\n"
             "  %u = \"stablehlo.cholesky\"(%a) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>\n"
             "  return %l, %u : tensor<3x3xf32>, tensor<3x3xf32>\n"
             "}\n",
             NULL, 0);
    const double l[] = {1, 0, 0, 2, 4, 0, 3, 5, 6}, u[] = {1, 2, 3, 0, 4, 5, 0, 0, 6};
    prog_expect_f64_near(prog_out(&r, 0), l, 9, 0.0);
    prog_expect_f64_near(prog_out(&r, 1), u, 9, 0.0);
    prog_free(&r);
}

/* ---- batch_norm ---------------------------------------------------------- */

/* spec examples for batch_norm_inference, _training and _grad. */
static void test_batch_norm_spec_examples(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>,\n"
             "                      tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {\n"
             "  %x = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf32>\n"
             "  %one = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
             "  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>\n"
             "  %g = stablehlo.constant dense<0.1> : tensor<2x2x2xf32>\n"
             "  %i = \"stablehlo.batch_norm_inference\"(%x, %one, %one, %mean, %one) {epsilon = 0.0 : f32, feature_index = 2 : i64}\n"
             "      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>\n"
             "  %t:3 = \"stablehlo.batch_norm_training\"(%x, %one, %one) {epsilon = 0.0 : f32, feature_index = 2 : i64}\n"
             "      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)\n"
             "  %d:3 = \"stablehlo.batch_norm_grad\"(%x, %one, %mean, %one, %g) {epsilon = 0.0 : f32, feature_index = 2 : i64}\n"
             "      : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>)\n"
             "      -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)\n"
             "  return %i, %t#0, %t#1, %t#2, %d#0, %d#1, %d#2 : tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>,\n"
             "      tensor<2xf32>, tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>\n"
             "}\n",
             NULL, 0);
    const double norm[] = {0, 0, 2, 2, 2, 2, 0, 0}, bmean[] = {2, 3}, bvar[] = {1, 1};
    const double zeros[] = {0, 0, 0, 0, 0, 0, 0, 0}, goff[] = {0.4, 0.4};
    prog_expect_f64_near(prog_out(&r, 0), norm, 8, 0.0);
    prog_expect_f64_near(prog_out(&r, 1), norm, 8, 0.0);
    prog_expect_f64_near(prog_out(&r, 2), bmean, 2, 0.0);
    prog_expect_f64_near(prog_out(&r, 3), bvar, 2, 0.0);
    prog_expect_f64_near(prog_out(&r, 4), zeros, 8, 1e-7);
    prog_expect_f64_near(prog_out(&r, 5), zeros, 2, 1e-7);
    prog_expect_f64_near(prog_out(&r, 6), goff, 2, 1e-7);
    prog_free(&r);
}

/* ---- einsum -------------------------------------------------------------- */

/* einsum sums in f32 step by step: "i,i->" of [1e8, 1, -1e8] and ones is 0. */
static void test_einsum_f32_sums_step_by_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<f32> {\n"
             "  %a = stablehlo.constant dense<[1.0e8, 1.0, -1.0e8]> : tensor<3xf32>\n"
             "  %o = stablehlo.constant dense<1.0> : tensor<3xf32>\n"
             "  %r = \"stablehlo.einsum\"(%a, %o) {einsum_config = \"i,i->\"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>\n"
             "  return %r : tensor<f32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {0.0};
    prog_expect_f64_near(prog_out(&r, 0), want, 1, 0.0);
    prog_free(&r);
}

/* "ab,bc->ac" is a matrix product: [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]]. */
static void test_einsum_matrix_product(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x2xf32> {\n"
             "  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>\n"
             "  %b = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>\n"
             "  %r = \"stablehlo.einsum\"(%a, %b) {einsum_config = \"ab,bc->ac\"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
             "  return %r : tensor<2x2xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {19, 22, 43, 50};
    prog_expect_f64_near(prog_out(&r, 0), want, 4, 0.0);
    prog_free(&r);
}

TEST_MAIN(NULL, NULL,
          T(test_dot_general_spec_example_batch_identity),
          T(test_dot_general_integer_widening_and_wrap),
          T(test_dot_general_complex),
          T(test_dot_matrix_vector),
          T(test_dot_general_target_precision_passes),
          T(test_dot_precision_level_resolution),
          T(test_dot_general_f32_sums_step_by_step),
          T(test_dot_general_rounds_product_before_add),
          T(test_dot_general_c64_sums_in_f32),
          T(test_dot_general_blocked_gemm_f32_rounds_each_product),
          T(test_dot_general_blocked_gemm_f32_batched_transposed),
          T(test_dot_general_blocked_gemm_f64),
          T(test_dot_general_blocked_gemm_matches_plain_sum),
          T(test_dot_general_blocked_gemm_rhs_transposed),
          T(test_dot_general_blocked_gemm_tall),
          T(test_dot_general_blocked_gemm_batched),
          T(test_dot_general_int8_gemm_exact),
          T(test_dot_general_int16_gemm_wraps),
          T(test_ragged_dot_mode1_groups_rows),
          T(test_ragged_dot_mode2_splits_contraction),
          T(test_convolution_spec_example),
          T(test_convolution_f32_sums_step_by_step),
          T(test_convolution_feature_groups),
          T(test_convolution_batch_groups),
          T(test_fft_impulse_closed_form),
          T(test_fft_spec_example_2d),
          T(test_fft_rfft_irfft_roundtrip),
          T(test_triangular_solve_spec_example),
          T(test_triangular_solve_right_transpose_unit),
          T(test_cholesky_spec_example_lower_and_upper),
          T(test_batch_norm_spec_examples),
          T(test_einsum_matrix_product),
          T(test_einsum_f32_sums_step_by_step))
