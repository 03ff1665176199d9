/* Functional numerics of the systolic array (docs/isa.md, Numerics).
 *
 * matmul dst[M, N] (+)= stationary[K, M]^T @ moving[K, N]:
 *  - inputs are read in their stored type (bf16, f16, fp8, int8: exact in
 *    f32, and so are their products);
 *  - for each dst element one f32 running sum starts at 0 (start without
 *    acc) or at dst's value (otherwise), and the products are added to it in
 *    order k = 0, 1, ..., K-1, each product and each addition rounded to f32
 *    (no fused multiply-add).  A tiled GEMM whose first K tile starts the
 *    group therefore equals one sequential f32 dot product over all of K,
 *    whatever the tiling;
 *  - f32 operands on a TPU go through the chip's bf16 passes for the
 *    instruction's precision: each operand is split into bf16 parts
 *    x0 = bf16(x), x1 = bf16(x - x0), x2 = bf16(x - x0 - x1) (nearest even);
 *    1 pass multiplies x0*y0 (f32 rounded to bf16, TPU DEFAULT); 3 passes
 *    add x0*y0, x0*y1, x1*y0 (bf16x3, HIGH); 6 passes add x0*y0, x0*y1,
 *    x1*y0, x0*y2, x1*y1, x2*y0 (bf16x6, HIGHEST), the products of one k in
 *    that order before the next k.  Any other pass count, and every f32
 *    matmul on a Neuron core (native fp32 at rows_per_cycle_fp32), multiplies
 *    in f32.
 * The kernel keeps exactly that order (it vectorises across n, never k). */
#include "sim/sim_internal.h"

#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define MM_HAVE_X86 1
#include <immintrin.h>
#else
#define MM_HAVE_X86 0
#endif

/* One output element, in the defined order. */
static inline float dot_col(uint32_t K, const float *a, size_t lda, const float *b, size_t ldb, float c)
{
    for (uint32_t k = 0; k < K; k++) c += a[(size_t)k * lda] * b[(size_t)k * ldb];
    return c;
}

/* Portable kernel: rows of C updated with rank-1 steps (k outermost per row). */
static void gemm_c(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb, float *C,
                   size_t ldc, bool first, uint32_t m0, uint32_t n0)
{
    for (uint32_t m = m0; m < M; m++) {
        float *c = C + (size_t)m * ldc;
        if (first)
            for (uint32_t n = n0; n < N; n++) c[n] = 0;
        for (uint32_t k = 0; k < K; k++) {
            float a = A[(size_t)k * lda + m];
            const float *b = B + (size_t)k * ldb;
            for (uint32_t n = n0; n < N; n++) c[n] += a * b[n];
        }
    }
}

#if MM_HAVE_X86
#define MR 6
#define NR 16
#define UK_LOAD(i)                                                                               \
    __m256 c##i##0 = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + (size_t)(i) * ldc);       \
    __m256 c##i##1 = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + (size_t)(i) * ldc + 8)
#define UK_STEP(i)                                          \
    a = _mm256_broadcast_ss(ap + (i));                      \
    c##i##0 = _mm256_add_ps(c##i##0, _mm256_mul_ps(a, b0)); \
    c##i##1 = _mm256_add_ps(c##i##1, _mm256_mul_ps(a, b1))
#define UK_STORE(i)                                    \
    _mm256_storeu_ps(c + (size_t)(i) * ldc, c##i##0);  \
    _mm256_storeu_ps(c + (size_t)(i) * ldc + 8, c##i##1)

/* A 6 x 16 tile of C: 12 accumulators, k innermost, multiply then add. */
__attribute__((target("avx2"))) static void uk_avx2(uint32_t K, const float *ap, size_t lda, const float *bp, size_t ldb,
                                                    float *c, size_t ldc, bool first)
{
    UK_LOAD(0);
    UK_LOAD(1);
    UK_LOAD(2);
    UK_LOAD(3);
    UK_LOAD(4);
    UK_LOAD(5);
    for (uint32_t k = 0; k < K; k++) {
        __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8);
        __m256 a;
        UK_STEP(0);
        UK_STEP(1);
        UK_STEP(2);
        UK_STEP(3);
        UK_STEP(4);
        UK_STEP(5);
        ap += lda;
        bp += ldb;
    }
    UK_STORE(0);
    UK_STORE(1);
    UK_STORE(2);
    UK_STORE(3);
    UK_STORE(4);
    UK_STORE(5);
}

static bool have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
#endif

void sim_gemm_f32(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb,
                  float *C, size_t ldc, bool first)
{
#if MM_HAVE_X86
    if (have_avx2()) {
        uint32_t Mf = M / MR * MR, Nf = N / NR * NR;
        for (uint32_t m = 0; m < Mf; m += MR)
            for (uint32_t n = 0; n < Nf; n += NR)
                uk_avx2(K, A + m, lda, B + n, ldb, C + (size_t)m * ldc + n, ldc, first);
        /* edges, same order per element */
        for (uint32_t m = 0; m < Mf; m++)
            for (uint32_t n = Nf; n < N; n++)
                C[(size_t)m * ldc + n] = dot_col(K, A + m, lda, B + n, ldb, first ? 0.0f : C[(size_t)m * ldc + n]);
        if (Mf < M) gemm_c(K, M, N, A, lda, B, ldb, C, ldc, first, Mf, 0);
        return;
    }
#endif
    gemm_c(K, M, N, A, lda, B, ldb, C, ldc, first, 0, 0);
}

static float bf16_round(float v) { return base_bf16_to_f32(base_f32_to_bf16(v)); }

/* The bf16 parts of v. */
static void split3(float v, float *p)
{
    for (int j = 0; j < 3; j++) {
        p[j] = bf16_round(v);
        v = v - p[j];
    }
}

/* Rows K x n of v become (K * np) x n: row k * np + j holds part plan[j] of row k. */
static void interleave(const float *v, uint32_t K, size_t n, const uint8_t (*plan)[2], int np, int which, float *out)
{
    for (uint32_t k = 0; k < K; k++)
        for (size_t i = 0; i < n; i++) {
            float parts[3];
            split3(v[(size_t)k * n + i], parts);
            for (int j = 0; j < np; j++) out[((size_t)k * np + (size_t)j) * n + i] = parts[plan[j][which]];
        }
}

enum base_status sim_compute_matmul(struct sim *s, struct sim_exec *x, uint32_t passes)
{
    static const uint8_t one[][2] = {{0, 0}};
    static const uint8_t three[][2] = {{0, 0}, {0, 1}, {1, 0}};
    static const uint8_t six[][2] = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {2, 0}};
    uint32_t core = x->e->core;
    const struct isa_instr *in = x->in;
    const struct isa_ap *dst = x->ap[0], *st = x->ap[1], *mv = x->ap[2];
    uint32_t K = st->part_count, M = (uint32_t)isa_ap_free_elems(st), N = (uint32_t)isa_ap_free_elems(mv);
    size_t nA = (size_t)K * M, nB = (size_t)K * N;
    float *A = sim_gather_f32(s, core, st, SIM_BUF_A);
    float *B = sim_gather_f32(s, core, mv, SIM_BUF_B);
    bool first = (in->flags & ISA_FLAG_START) && !(in->flags & ISA_FLAG_ACCUMULATE);
    float *C = first ? sim_buf(s, SIM_BUF_E, (size_t)M * N * sizeof(float)) : sim_gather_f32(s, core, dst, SIM_BUF_E);
    if (!A || !B || !C) return BASE_ERR_NOMEM;
    bool split = (st->dtype == BASE_DT_F32 || mv->dtype == BASE_DT_F32) && s->chip.family == SIM_FAMILY_TPU &&
                 (passes == 1 || passes == 3 || passes == 6);
    if (!split) {
        sim_gemm_f32(K, M, N, A, M, B, N, C, N, first);
    } else {
        const uint8_t(*plan)[2] = passes == 6 ? six : passes == 3 ? three : one;
        int np = (int)passes;
        float *Ap = sim_buf(s, SIM_BUF_C, (size_t)np * nA * sizeof(float));
        float *Bp = sim_buf(s, SIM_BUF_D, (size_t)np * nB * sizeof(float));
        if (!Ap || !Bp) return BASE_ERR_NOMEM;
        interleave(A, K, M, plan, np, 0, Ap);
        interleave(B, K, N, plan, np, 1, Bp);
        sim_gemm_f32(K * (uint32_t)np, M, N, Ap, M, Bp, N, C, N, first);
    }
    return sim_scatter_f32(s, core, dst, C);
}
