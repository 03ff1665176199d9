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
 *    that order before the next k.  When x0*y0 is not finite (an operand
 *    is inf or NaN, or the product overflows) it alone is that k's
 *    contribution: the low passes would add inf - inf or 0 x inf, a NaN
 *    where the f32 product is inf (base_f32_bf16_parts: a non-finite value
 *    has no low parts; a finite one never splits into an inf part).  Any
 *    other pass count, and every f32
 *    matmul on a Neuron core (native fp32 at rows_per_cycle_fp32), multiplies
 *    in f32.
 * The kernel keeps exactly that order (it vectorises across m and n, never
 * k): per 4 x 24 (or 4 x 16) tile of C, 12 (8) vector accumulators, k
 * innermost, a multiply then an add per step.  It packs the stationary
 * operand in 4-column strips and the moving one in 24- or 16-column strips
 * (K x w, zero-padded at the edges, whose lanes are never stored), reads f32
 * operands in place from the scratchpad rows and updates the accumulator in
 * place when the access patterns are plain rows; other patterns are
 * gathered first. */
#include "sim/sim_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define MM_HAVE_X86 1
#include <immintrin.h>
#else
#define MM_HAVE_X86 0
#endif

#define MR 4 /* rows of C per tile */

/* Portable kernel: rows of C updated with rank-1 steps (k outermost per row). */
static void gemm_c(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb, float *C,
                   size_t ldc, bool first)
{
    for (uint32_t m = 0; m < M; m++) {
        float *c = C + (size_t)m * ldc;
        if (first)
            for (uint32_t n = 0; n < N; n++) c[n] = 0;
        for (uint32_t k = 0; k < K; k++) {
            float a = A[(size_t)k * lda + m];
            const float *b = B + (size_t)k * ldb;
            for (uint32_t n = 0; n < N; n++) {
                float p = a * b[n];
                c[n] = c[n] + p;
            }
        }
    }
}

#if MM_HAVE_X86
#define UK_LOAD(i, j) __m256 c##i##j = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + (size_t)(i) * ldc + 8 * (j))
#define UK_MAC(i, j) c##i##j = _mm256_add_ps(c##i##j, _mm256_mul_ps(a, b##j))
#define UK_STORE(i, j) _mm256_storeu_ps(c + (size_t)(i) * ldc + 8 * (j), c##i##j)
#define UK_ROW3(X, i) X(i, 0); X(i, 1); X(i, 2)
#define UK_ROW2(X, i) X(i, 0); X(i, 1)

/* A 4 x 24 tile of C from packed strips ap (K x 4) and bp (K x 24): 12
 * accumulators, k innermost, multiply then add (4 broadcasts per 24 vector
 * multiply-adds: fewer loads per operation than 6 x 16). */
__attribute__((target("avx2"))) static void uk4x24(uint32_t K, const float *ap, const float *bp, float *c, size_t ldc,
                                                   bool first)
{
    UK_ROW3(UK_LOAD, 0);
    UK_ROW3(UK_LOAD, 1);
    UK_ROW3(UK_LOAD, 2);
    UK_ROW3(UK_LOAD, 3);
    for (uint32_t k = 0; k < K; k++) {
        __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8), b2 = _mm256_loadu_ps(bp + 16), a;
        a = _mm256_broadcast_ss(ap);
        UK_ROW3(UK_MAC, 0);
        a = _mm256_broadcast_ss(ap + 1);
        UK_ROW3(UK_MAC, 1);
        a = _mm256_broadcast_ss(ap + 2);
        UK_ROW3(UK_MAC, 2);
        a = _mm256_broadcast_ss(ap + 3);
        UK_ROW3(UK_MAC, 3);
        ap += 4;
        bp += 24;
    }
    UK_ROW3(UK_STORE, 0);
    UK_ROW3(UK_STORE, 1);
    UK_ROW3(UK_STORE, 2);
    UK_ROW3(UK_STORE, 3);
}

/* The same for a 4 x 16 tile (strips of K x 16). */
__attribute__((target("avx2"))) static void uk4x16(uint32_t K, const float *ap, const float *bp, float *c, size_t ldc,
                                                   bool first)
{
    UK_ROW2(UK_LOAD, 0);
    UK_ROW2(UK_LOAD, 1);
    UK_ROW2(UK_LOAD, 2);
    UK_ROW2(UK_LOAD, 3);
    for (uint32_t k = 0; k < K; k++) {
        __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8), a;
        a = _mm256_broadcast_ss(ap);
        UK_ROW2(UK_MAC, 0);
        a = _mm256_broadcast_ss(ap + 1);
        UK_ROW2(UK_MAC, 1);
        a = _mm256_broadcast_ss(ap + 2);
        UK_ROW2(UK_MAC, 2);
        a = _mm256_broadcast_ss(ap + 3);
        UK_ROW2(UK_MAC, 3);
        ap += 4;
        bp += 16;
    }
    UK_ROW2(UK_STORE, 0);
    UK_ROW2(UK_STORE, 1);
    UK_ROW2(UK_STORE, 2);
    UK_ROW2(UK_STORE, 3);
}

static bool have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* One 4 x w tile (w = 16 or 24), mr x nr of it valid: in place when whole,
 * else through a scratch tile (the padded lanes are computed and dropped). */
static void tile_avx2(uint32_t K, uint32_t w, const float *ap, const float *bp, float *c, size_t ldc, bool first,
                      uint32_t mr, uint32_t nr)
{
    void (*uk)(uint32_t, const float *, const float *, float *, size_t, bool) = w == 24 ? uk4x24 : uk4x16;
    if (mr == MR && nr == w) {
        uk(K, ap, bp, c, ldc, first);
        return;
    }
    float t[MR * 24];
    memset(t, 0, sizeof t);
    if (!first)
        for (uint32_t i = 0; i < mr; i++) memcpy(t + i * w, c + (size_t)i * ldc, nr * sizeof(float));
    uk(K, ap, bp, t, w, first);
    for (uint32_t i = 0; i < mr; i++) memcpy(c + (size_t)i * ldc, t + i * w, nr * sizeof(float));
}

/* Width of the B strip that starts with rem columns left: 24, with 16
 * where that wastes fewer padded lanes (32 = 16 + 16, at most 16 left). */
static uint32_t strip_width(uint32_t rem) { return rem == 32 || rem <= 16 ? 16 : 24; }

/* Packs rows [0, K) x cols [n0, n0 + nr) of B (ldb) as K x w, zero-padded. */
static void pack_b(uint32_t K, const float *B, size_t ldb, uint32_t n0, uint32_t nr, uint32_t w, float *bp)
{
    if (nr == w && w == 24) { /* the common cases with a constant size: inlined copies */
        for (uint32_t k = 0; k < K; k++, bp += 24) memcpy(bp, B + (size_t)k * ldb + n0, 24 * sizeof(float));
        return;
    }
    if (nr == w && w == 16) {
        for (uint32_t k = 0; k < K; k++, bp += 16) memcpy(bp, B + (size_t)k * ldb + n0, 16 * sizeof(float));
        return;
    }
    for (uint32_t k = 0; k < K; k++, bp += w) {
        const float *b = B + (size_t)k * ldb + n0;
        memcpy(bp, b, nr * sizeof(float));
        if (nr < w) memset(bp + nr, 0, (w - nr) * sizeof(float));
    }
}

/* Packs A (K x M, lda) in strips of K x MR, zero-padded. */
static void pack_a(uint32_t K, uint32_t M, const float *A, size_t lda, float *ap)
{
    for (uint32_t m0 = 0; m0 < M; m0 += MR) {
        uint32_t mr = M - m0 < MR ? M - m0 : MR;
        for (uint32_t k = 0; k < K; k++, ap += MR) {
            const float *a = A + (size_t)k * lda + m0;
            if (mr == MR) {
                memcpy(ap, a, MR * sizeof(float));
                continue;
            }
            for (uint32_t i = 0; i < MR; i++) ap[i] = i < mr ? a[i] : 0.0f;
        }
    }
}

/* The packed kernel: for each B strip (kept in L1), every A strip. */
static void gemm_packed(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb,
                        float *C, size_t ldc, bool first, float *work)
{
    float *ap = work, *bp = work + ((size_t)M + MR) * K;
    pack_a(K, M, A, lda, ap);
    for (uint32_t n0 = 0; n0 < N;) {
        uint32_t w = strip_width(N - n0), nr = N - n0 < w ? N - n0 : w;
        pack_b(K, B, ldb, n0, nr, w, bp);
        for (uint32_t m0 = 0; m0 < M; m0 += MR)
            tile_avx2(K, w, ap + (size_t)m0 * K, bp, C + (size_t)m0 * ldc + n0, ldc, first, M - m0 < MR ? M - m0 : MR,
                      nr);
        n0 += nr;
    }
}
#endif

static size_t work_floats(uint32_t K, uint32_t M) { return ((size_t)M + MR) * K + (size_t)K * 24; }

static void gemm_any(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb, float *C,
                     size_t ldc, bool first, float *work)
{
#if MM_HAVE_X86
    if (work && have_avx2()) {
        gemm_packed(K, M, N, A, lda, B, ldb, C, ldc, first, work);
        return;
    }
#endif
    (void)work;
    gemm_c(K, M, N, A, lda, B, ldb, C, ldc, first);
}

void sim_gemm_f32(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb,
                  float *C, size_t ldc, bool first)
{
    float *work = malloc(work_floats(K, M) * sizeof(float));
    gemm_any(K, M, N, A, lda, B, ldb, C, ldc, first, work);
    free(work);
}

/* Rows K x n of v (ld) become (K * np) x n: row k * np + j holds part plan[j] of row k. */
static void interleave(const float *v, size_t ld, uint32_t K, size_t n, const uint8_t (*plan)[2], int np, int which,
                       float *out)
{
    for (uint32_t k = 0; k < K; k++)
        for (size_t i = 0; i < n; i++) {
            float parts[3];
            base_f32_bf16_parts(v[(size_t)k * ld + i], parts);
            for (int j = 0; j < np; j++) out[((size_t)k * np + (size_t)j) * n + i] = parts[plan[j][which]];
        }
}

/* The largest |x| of K x n values (ld), +inf when one is not finite. */
static double max_abs(const float *v, size_t ld, uint32_t K, size_t n)
{
    double mx = 0;
    for (uint32_t k = 0; k < K; k++)
        for (size_t i = 0; i < n; i++) {
            double a = fabs((double)v[(size_t)k * ld + i]);
            if (!isfinite(a)) return INFINITY; /* inf or NaN */
            if (a > mx) mx = a;
        }
    return mx;
}

/* The passes when a product of high parts can be non-finite (an operand is
 * inf or NaN, or x0 * y0 overflows): per k, a non-finite x0 * y0 is that k's
 * whole contribution, since its low passes would add inf - inf or 0 x inf
 * (a NaN where the f32 product is inf).  Otherwise the passes in order, as
 * the fast path adds them.  A and B hold the parts interleaved (np rows per
 * k), as interleave gives them. */
static void gemm_passes_nonfinite(uint32_t K, int np, uint32_t M, uint32_t N, const float *A, size_t lda,
                                  const float *B, size_t ldb, float *C, size_t ldc, bool first)
{
    for (uint32_t m = 0; m < M; m++)
        for (uint32_t n = 0; n < N; n++) {
            float acc = first ? 0.0f : C[(size_t)m * ldc + n];
            for (uint32_t k = 0; k < K; k++) {
                const float *a = A + (size_t)k * (size_t)np * lda + m, *b = B + (size_t)k * (size_t)np * ldb + n;
                float p0 = a[0] * b[0];
                if (!isfinite(p0)) {
                    acc = acc + p0;
                    continue;
                }
                for (int j = 0; j < np; j++) {
                    float p = a[(size_t)j * lda] * b[(size_t)j * ldb];
                    acc = acc + p;
                }
            }
            C[(size_t)m * ldc + n] = acc;
        }
}

/* An f32 operand whose partitions are plain rows (one contiguous run each,
 * 4-byte aligned): its rows in place, row p at *ld floats after row p - 1. */
static const float *rows_in_place(struct sim *s, uint32_t core, const struct isa_ap *ap, size_t *ld)
{
    if (ap->dtype != BASE_DT_F32 || (ap->ndims > 1) || (ap->ndims == 1 && ap->stride[0] != 1 && ap->count[0] > 1) ||
        ap->addr % 4)
        return NULL;
    const struct mem_sram *m = ap->space == ISA_SPACE_SP ? &s->cores[core].sp
                               : ap->space == ISA_SPACE_ACC ? &s->cores[core].acc
                                                            : NULL;
    if (!m || !m->data || m->bytes_per_partition % 4) return NULL;
    *ld = (size_t)(m->bytes_per_partition / 4);
    return (const float *)(const void *)(mem_sram_row(m, ap->part_start) + ap->addr);
}

/* The operand as f32 rows: in place, or gathered into buffer which (ld = its free size). */
static const float *operand_rows(struct sim *s, uint32_t core, const struct isa_ap *ap, int which, size_t *ld)
{
    const float *p = rows_in_place(s, core, ap, ld);
    if (p) return p;
    *ld = (size_t)isa_ap_free_elems(ap);
    return sim_gather_f32(s, core, ap, which);
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
    size_t lda, ldb, ldc;
    const float *A = operand_rows(s, core, st, SIM_BUF_A, &lda);
    const float *B = operand_rows(s, core, mv, SIM_BUF_B, &ldb);
    if (!A || !B) return BASE_ERR_NOMEM;
    bool first = (in->flags & ISA_FLAG_START) && !(in->flags & ISA_FLAG_ACCUMULATE);
    /* the accumulator tile in place when it is plain rows, else gathered and scattered */
    float *C = (float *)(uintptr_t)rows_in_place(s, core, dst, &ldc);
    bool gathered = !C;
    if (gathered) {
        ldc = N;
        C = first ? sim_buf(s, SIM_BUF_E, (size_t)M * N * sizeof(float)) : sim_gather_f32(s, core, dst, SIM_BUF_E);
        if (!C) return BASE_ERR_NOMEM;
    }
    bool split = (st->dtype == BASE_DT_F32 || mv->dtype == BASE_DT_F32) && s->chip.family == CHIP_FAMILY_TPU &&
                 (passes == 1 || passes == 3 || passes == 6);
    uint32_t Kw = K;
    if (split) {
        const uint8_t(*plan)[2] = passes == 6 ? six : passes == 3 ? three : one;
        int np = (int)passes;
        float *Ap = sim_buf(s, SIM_BUF_C, (size_t)np * K * M * sizeof(float));
        float *Bp = sim_buf(s, SIM_BUF_D, (size_t)np * K * N * sizeof(float));
        if (!Ap || !Bp) return BASE_ERR_NOMEM;
        bool nonfinite = np > 1 && !(max_abs(A, lda, K, M) * max_abs(B, ldb, K, N) <= FLT_MAX);
        interleave(A, lda, K, M, plan, np, 0, Ap);
        interleave(B, ldb, K, N, plan, np, 1, Bp);
        if (nonfinite) {
            gemm_passes_nonfinite(K, np, M, N, Ap, M, Bp, N, C, ldc, first);
            return gathered ? sim_scatter_f32(s, core, dst, C) : BASE_OK;
        }
        A = Ap;
        B = Bp;
        lda = M;
        ldb = N;
        Kw = K * (uint32_t)np;
    }
    float *work = sim_buf(s, SIM_BUF_F, work_floats(Kw, M) * sizeof(float));
    if (!work) return BASE_ERR_NOMEM;
    gemm_any(Kw, M, N, A, lda, B, ldb, C, ldc, first, work);
    return gathered ? sim_scatter_f32(s, core, dst, C) : BASE_OK;
}
