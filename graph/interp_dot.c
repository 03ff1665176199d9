/* Golden interpreter: dot_general, dot and chlo.ragged_dot.
 *
 * Numerics: products are summed in double (complex: two doubles) starting from
 * +0, over the contracting index space in row-major order of the contracting
 * dimensions as listed, and rounded once to the result type.  Integer results
 * accumulate in 64-bit unsigned arithmetic (wrapping) and wrap to the result
 * width; boolean results are the OR of the ANDs.
 *
 * Speed: real-typed products with a float result (and integer products whose
 * sums stay exact in double) go through a cache-blocked GEMM: blocks packed
 * into double, a 4x12 register-blocked micro-kernel, and one thread per core
 * (at most 8) splitting batches, rows or columns.  Each output element is still
 * the sequential sum acc = ((0 + p0) + p1) + ... in double, so the result does
 * not depend on the blocking, the thread count or the micro-kernel: when the
 * products are exact in double (input significands add up to <= 53 bits, e.g.
 * bf16/f16/f32 operands) an FMA gives the same bits as a multiply then add;
 * otherwise (f64 operands) a kernel without FMA is used.
 */
#include "graph/interp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define DOT_HAVE_X86 1
#include <immintrin.h>
#else
#define DOT_HAVE_X86 0
#endif

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

/* Integer list attribute; absent means empty.  -1 when malformed. */
static int i64_list(const struct graph_attr *a, int64_t *out, int cap)
{
    if (!a) return 0;
    return graph_attr_as_i64_list(a, out, cap);
}

static bool contains(const int64_t *v, int n, int64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Problem description: offsets of every batch / row / column / k position.  */

struct dot_problem {
    int64_t nb, m, n, k;
    int64_t *a_off_b, *a_off_m, *a_off_k; /* element offsets into lhs */
    int64_t *b_off_b, *b_off_n, *b_off_k; /* element offsets into rhs */
    /* result shape: batch dims, lhs free dims, rhs free dims */
    int res_rank;
    int64_t res_dims[BASE_MAX_RANK];
};

static void dot_problem_free(struct dot_problem *dp)
{
    free(dp->a_off_b);
    free(dp->a_off_m);
    free(dp->a_off_k);
    free(dp->b_off_b);
    free(dp->b_off_n);
    free(dp->b_off_k);
    memset(dp, 0, sizeof *dp);
}

/* Fills off[0..count) with the offsets of the row-major walk over dims
 * sel[0..n) of a tensor with the given strides (outer dim first). */
static int64_t *walk_offsets(int n, const int64_t *sel, const int64_t *dims, const int64_t *strides,
                             int64_t *count_out)
{
    int64_t count = 1;
    for (int i = 0; i < n; i++) count *= dims[sel[i]];
    *count_out = count;
    int64_t *off = malloc((size_t)(count > 0 ? count : 1) * sizeof *off);
    if (!off) return NULL;
    if (count == 0) return off;
    int64_t idx[BASE_MAX_RANK] = {0};
    int64_t cur = 0;
    for (int64_t c = 0; c < count; c++) {
        off[c] = cur;
        for (int i = n - 1; i >= 0; i--) {
            int64_t d = sel[i];
            idx[i]++;
            cur += strides[d];
            if (idx[i] < dims[d]) break;
            cur -= strides[d] * dims[d];
            idx[i] = 0;
        }
    }
    return off;
}

/* Same walk over paired dims of two tensors (batch or contracting pairs). */
static enum base_status paired_offsets(int n, const int64_t *la, const int64_t *ra,
                                       const struct base_tensor *l, const struct base_tensor *r,
                                       const int64_t *ls, const int64_t *rs, int64_t **lo, int64_t **ro,
                                       int64_t *count)
{
    *lo = walk_offsets(n, la, l->dims, ls, count);
    int64_t c2 = 0;
    *ro = walk_offsets(n, ra, r->dims, rs, &c2);
    if (!*lo || !*ro) return BASE_ERR_NOMEM;
    return BASE_OK;
}

static enum base_status dot_problem_init(struct interp_proc *p, const struct graph_op *op,
                                         const struct base_tensor *l, const struct base_tensor *r,
                                         int nbd, const int64_t *lb, const int64_t *rb, int ncd,
                                         const int64_t *lc, const int64_t *rc, struct dot_problem *dp)
{
    memset(dp, 0, sizeof *dp);
    for (int i = 0; i < nbd; i++) {
        if (lb[i] < 0 || lb[i] >= l->rank || rb[i] < 0 || rb[i] >= r->rank)
            return interp_fail(p, op, BASE_ERR_INVALID, "batching dimension out of range");
        if (l->dims[lb[i]] != r->dims[rb[i]])
            return interp_fail(p, op, BASE_ERR_INVALID,
                               "lhs batching dimension %lld (size %lld) and rhs batching dimension %lld "
                               "(size %lld) differ",
                               (long long)lb[i], (long long)l->dims[lb[i]], (long long)rb[i],
                               (long long)r->dims[rb[i]]);
    }
    for (int i = 0; i < ncd; i++) {
        if (lc[i] < 0 || lc[i] >= l->rank || rc[i] < 0 || rc[i] >= r->rank)
            return interp_fail(p, op, BASE_ERR_INVALID, "contracting dimension out of range");
        if (l->dims[lc[i]] != r->dims[rc[i]])
            return interp_fail(p, op, BASE_ERR_INVALID,
                               "lhs contracting dimension %lld (size %lld) and rhs contracting dimension "
                               "%lld (size %lld) differ",
                               (long long)lc[i], (long long)l->dims[lc[i]], (long long)rc[i],
                               (long long)r->dims[rc[i]]);
    }
    int64_t lfree[BASE_MAX_RANK], rfree[BASE_MAX_RANK];
    int nlf = 0, nrf = 0;
    for (int d = 0; d < l->rank; d++)
        if (!contains(lb, nbd, d) && !contains(lc, ncd, d)) lfree[nlf++] = d;
    for (int d = 0; d < r->rank; d++)
        if (!contains(rb, nbd, d) && !contains(rc, ncd, d)) rfree[nrf++] = d;
    if (nbd + nlf + nrf > BASE_MAX_RANK)
        return interp_fail(p, op, BASE_ERR_LIMIT, "result rank exceeds %d", BASE_MAX_RANK);
    dp->res_rank = 0;
    for (int i = 0; i < nbd; i++) dp->res_dims[dp->res_rank++] = l->dims[lb[i]];
    for (int i = 0; i < nlf; i++) dp->res_dims[dp->res_rank++] = l->dims[lfree[i]];
    for (int i = 0; i < nrf; i++) dp->res_dims[dp->res_rank++] = r->dims[rfree[i]];

    int64_t ls[BASE_MAX_RANK], rs[BASE_MAX_RANK];
    base_shape_strides(l->rank, l->dims, ls);
    base_shape_strides(r->rank, r->dims, rs);
    enum base_status st =
        paired_offsets(nbd, lb, rb, l, r, ls, rs, &dp->a_off_b, &dp->b_off_b, &dp->nb);
    if (st == BASE_OK) st = paired_offsets(ncd, lc, rc, l, r, ls, rs, &dp->a_off_k, &dp->b_off_k, &dp->k);
    if (st == BASE_OK) {
        dp->a_off_m = walk_offsets(nlf, lfree, l->dims, ls, &dp->m);
        dp->b_off_n = walk_offsets(nrf, rfree, r->dims, rs, &dp->n);
        if (!dp->a_off_m || !dp->b_off_n) st = BASE_ERR_NOMEM;
    }
    if (st != BASE_OK) {
        dot_problem_free(dp);
        return interp_fail(p, op, st, "out of memory");
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Accumulation kinds and element access                                     */

enum acc_kind { ACC_F64, ACC_C128, ACC_I64, ACC_BOOL };

static enum acc_kind acc_kind_for(enum base_dtype res, enum base_dtype a, enum base_dtype b)
{
    if (base_dtype_is_complex(res) || base_dtype_is_complex(a) || base_dtype_is_complex(b)) return ACC_C128;
    enum base_dtype_kind rk = base_dtype_kind(res);
    bool a_int = !base_dtype_is_float(a), b_int = !base_dtype_is_float(b);
    if (rk == BASE_KIND_BOOL) return a_int && b_int ? ACC_BOOL : ACC_F64;
    if (rk == BASE_KIND_SINT || rk == BASE_KIND_UINT) return a_int && b_int ? ACC_I64 : ACC_F64;
    return ACC_F64;
}

/* Integer value of an element: bools 0/1, signed sign-extended, unsigned
 * zero-extended; the product mod 2^64 is the same for both extensions. */
static inline uint64_t get_u(enum base_dtype dt, const void *d, int64_t i)
{
    return base_dtype_kind(dt) == BASE_KIND_UINT ? base_elem_get_u64(dt, d, (size_t)i)
                                                 : (uint64_t)base_elem_get_i64(dt, d, (size_t)i);
}

/* Significand bits of a type's values once converted to double. */
static int sig_bits(enum base_dtype dt)
{
    switch (dt) {
    case BASE_DT_F64: return 53;
    case BASE_DT_F32: return 24;
    case BASE_DT_F16: return 11;
    case BASE_DT_BF16: return 8;
    default: break;
    }
    int bits = base_dtype_bits(dt);
    if (base_dtype_is_float(dt)) return bits <= 8 ? 8 : 53;
    return bits > 53 ? 53 : bits;
}

/* ------------------------------------------------------------------------ */
/* Double -> result element, rounded once (RNE).                             */

/* Fast bf16 rounding for values in bf16's normal range; everything else
 * (zero, subnormal, overflow, inf, NaN) goes through the exact codec. */
static inline uint16_t bf16_from_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint64_t e = (u >> 52) & 0x7ff;
    if (e >= 1023 - 126 && e <= 1023 + 127) {
        uint64_t lsb = (u >> 45) & 1;
        uint64_t rnd = u + ((UINT64_C(1) << 44) - 1) + lsb;
        uint64_t e2 = (rnd >> 52) & 0x7ff;
        if (e2 <= 1023 + 127) {
            uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
            return (uint16_t)(sign | ((e2 - 1023 + 127) << 7) | ((rnd >> 45) & 0x7f));
        }
    }
    return (uint16_t)base_float_bits_from_f64(BASE_DT_BF16, d);
}

static void store_f64_array(struct base_tensor *t, const double *c, int64_t count)
{
    switch (t->dtype) {
    case BASE_DT_F64:
        memcpy(t->data, c, (size_t)count * sizeof *c);
        break;
    case BASE_DT_F32: {
        float *o = t->data;
        for (int64_t i = 0; i < count; i++) o[i] = (float)c[i];
        break;
    }
    case BASE_DT_BF16: {
        uint16_t *o = t->data;
        for (int64_t i = 0; i < count; i++) o[i] = bf16_from_f64(c[i]);
        break;
    }
    default:
        for (int64_t i = 0; i < count; i++) base_elem_set_f64(t->dtype, t->data, (size_t)i, c[i]);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Naive reference loops (tiny products, complex, integers)                  */

static void naive_dot(const struct dot_problem *dp, enum acc_kind kind, const struct base_tensor *l,
                      const struct base_tensor *r, struct base_tensor *out, double *cbuf)
{
    enum base_dtype ad = l->dtype, bd = r->dtype, od = out->dtype;
    int64_t idx = 0;
    for (int64_t b = 0; b < dp->nb; b++)
        for (int64_t i = 0; i < dp->m; i++)
            for (int64_t j = 0; j < dp->n; j++, idx++) {
                int64_t ao = dp->a_off_b[b] + dp->a_off_m[i];
                int64_t bo = dp->b_off_b[b] + dp->b_off_n[j];
                switch (kind) {
                case ACC_F64: {
                    double acc = 0.0;
                    for (int64_t q = 0; q < dp->k; q++) {
                        double x = base_elem_get_f64(ad, l->data, (size_t)(ao + dp->a_off_k[q]));
                        double y = base_elem_get_f64(bd, r->data, (size_t)(bo + dp->b_off_k[q]));
                        acc += x * y;
                    }
                    if (cbuf) cbuf[idx] = acc;
                    else base_elem_set_f64(od, out->data, (size_t)idx, acc);
                    break;
                }
                case ACC_C128: {
                    double re = 0.0, im = 0.0;
                    for (int64_t q = 0; q < dp->k; q++) {
                        double xr, xi, yr, yi;
                        base_elem_get_c128(ad, l->data, (size_t)(ao + dp->a_off_k[q]), &xr, &xi);
                        base_elem_get_c128(bd, r->data, (size_t)(bo + dp->b_off_k[q]), &yr, &yi);
                        re += xr * yr - xi * yi;
                        im += xr * yi + xi * yr;
                    }
                    base_elem_set_c128(od, out->data, (size_t)idx, re, im);
                    break;
                }
                case ACC_I64: {
                    uint64_t acc = 0;
                    for (int64_t q = 0; q < dp->k; q++)
                        acc += get_u(ad, l->data, ao + dp->a_off_k[q]) * get_u(bd, r->data, bo + dp->b_off_k[q]);
                    base_elem_set_i64(od, out->data, (size_t)idx, (int64_t)acc);
                    break;
                }
                case ACC_BOOL: {
                    bool acc = false;
                    for (int64_t q = 0; q < dp->k && !acc; q++)
                        acc = get_u(ad, l->data, ao + dp->a_off_k[q]) != 0 &&
                              get_u(bd, r->data, bo + dp->b_off_k[q]) != 0;
                    base_elem_set_i64(od, out->data, (size_t)idx, acc ? 1 : 0);
                    break;
                }
                }
            }
}

/* ------------------------------------------------------------------------ */
/* Blocked GEMM over doubles                                                 */

#define MR 4
#define NR 12
#define KC 256
#define MC 96   /* multiple of MR */
#define NC 3072 /* multiple of NR */
#define NO_STRIDE INT64_MIN

struct gemm_operand {
    enum base_dtype dt;
    const void *data;
    const int64_t *off_b;  /* per batch */
    const int64_t *off_r;  /* per row of the panel: m for lhs, n for rhs */
    const int64_t *off_k;  /* per k */
    int64_t k_stride;      /* off_k[i] == i * k_stride, or NO_STRIDE */
};

typedef void (*ukernel_fn)(int64_t kc, const double *ap, const double *bp, double *c, int64_t ldc);

struct gemm {
    struct gemm_operand a, b;
    int64_t nb, m, n, k;
    double *c; /* [nb][n/NR][m/MR][MR][NR] (rounded up) tiles, zero on entry */
    ukernel_fn uk;
    bool avx2;      /* vectorised packing available */
    bool b_n_unit;  /* rhs columns (n) are contiguous */
};

static int64_t linear_stride(const int64_t *off, int64_t count)
{
    if (count == 0) return 0;
    if (off[0] != 0) return NO_STRIDE;
    if (count == 1) return 0;
    int64_t s = off[1];
    for (int64_t i = 2; i < count; i++)
        if (off[i] != i * s) return NO_STRIDE;
    return s;
}

/* The body of pack_panel for one element type T. */
#define PACK_BODY(T, CONV)                                                                  \
    do {                                                                                    \
        const T *s_ = (const T *)op->data;                                                  \
        if (op->k_stride != NO_STRIDE) {                                                    \
            int64_t ks_ = op->k_stride;                                                     \
            if (rows_unit && ks_ != 1) {                                                    \
                for (int64_t kk = 0; kk < kc; kk++) {                                       \
                    const T *sp_ = s_ + roff[0] + (k0 + kk) * ks_;                          \
                    double *d_ = dst + kk * W;                                              \
                    if (nr == W) {                                                          \
                        for (int rr = 0; rr < W; rr++) d_[rr] = CONV(sp_[rr]);              \
                    } else {                                                                \
                        for (int rr = 0; rr < nr; rr++) d_[rr] = CONV(sp_[rr]);             \
                    }                                                                       \
                }                                                                           \
            } else {                                                                        \
                for (int rr = 0; rr < nr; rr++) {                                           \
                    const T *sp_ = s_ + roff[rr] + k0 * ks_;                                \
                    for (int64_t kk = 0; kk < kc; kk++) dst[kk * W + rr] = CONV(sp_[kk * ks_]); \
                }                                                                           \
            }                                                                               \
        } else {                                                                            \
            const int64_t *ko_ = op->off_k + k0;                                            \
            for (int rr = 0; rr < nr; rr++)                                                 \
                for (int64_t kk = 0; kk < kc; kk++) dst[kk * W + rr] = CONV(s_[roff[rr] + ko_[kk]]); \
        }                                                                                   \
    } while (0)

static inline double cv_bf16(uint16_t v)
{
    return (double)base_bf16_to_f32(v);
}
static inline double cv_f16(uint16_t v)
{
    return (double)base_f16_to_f32(v);
}
static inline double cv_f32(float v)
{
    return (double)v;
}
static inline double cv_f64(double v)
{
    return v;
}
static inline double cv_i8(int8_t v)
{
    return (double)v;
}
static inline double cv_u8(uint8_t v)
{
    return (double)v;
}
static inline double cv_i16(int16_t v)
{
    return (double)v;
}
static inline double cv_i32(int32_t v)
{
    return (double)v;
}

#if DOT_HAVE_X86
/* Vectorised packs of np full panels of an rhs whose panel rows (n) are
 * contiguous (the usual [K, N] layout): reads each k row sequentially, which
 * the hardware prefetcher streams, and scatters NR values into each panel. */
__attribute__((target("avx2"))) static void pack_bf16_block_avx2(double *dst, const uint16_t *src, int64_t ks,
                                                                 int64_t kc, int64_t np)
{
    for (int64_t kk = 0; kk < kc; kk++, src += ks) {
        const uint16_t *s = src;
        double *d = dst + kk * NR;
        for (int64_t q = 0; q < np; q++, s += NR, d += kc * NR) {
            __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)s));
            __m256 f = _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
            _mm256_storeu_pd(d, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
            _mm256_storeu_pd(d + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
            __m128i w2 = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(s + 8)));
            _mm256_storeu_pd(d + 8, _mm256_cvtps_pd(_mm_castsi128_ps(_mm_slli_epi32(w2, 16))));
        }
    }
}

__attribute__((target("avx2"))) static void pack_f32_block_avx2(double *dst, const float *src, int64_t ks,
                                                                int64_t kc, int64_t np)
{
    for (int64_t kk = 0; kk < kc; kk++, src += ks) {
        const float *s = src;
        double *d = dst + kk * NR;
        for (int64_t q = 0; q < np; q++, s += NR, d += kc * NR) {
            _mm256_storeu_pd(d, _mm256_cvtps_pd(_mm_loadu_ps(s)));
            _mm256_storeu_pd(d + 4, _mm256_cvtps_pd(_mm_loadu_ps(s + 4)));
            _mm256_storeu_pd(d + 8, _mm256_cvtps_pd(_mm_loadu_ps(s + 8)));
        }
    }
}

/* Vectorised A-panel packs for a k-contiguous lhs (the usual [M, K]): four
 * rows of four k values are converted and transposed in registers. */
#define TRANSPOSE_STORE4(dst, kk, r)                                                           \
    do {                                                                                       \
        __m256d t0_ = _mm256_unpacklo_pd(r[0], r[1]), t1_ = _mm256_unpackhi_pd(r[0], r[1]);    \
        __m256d t2_ = _mm256_unpacklo_pd(r[2], r[3]), t3_ = _mm256_unpackhi_pd(r[2], r[3]);    \
        _mm256_storeu_pd(dst + ((kk) + 0) * MR, _mm256_permute2f128_pd(t0_, t2_, 0x20));       \
        _mm256_storeu_pd(dst + ((kk) + 1) * MR, _mm256_permute2f128_pd(t1_, t3_, 0x20));       \
        _mm256_storeu_pd(dst + ((kk) + 2) * MR, _mm256_permute2f128_pd(t0_, t2_, 0x31));       \
        _mm256_storeu_pd(dst + ((kk) + 3) * MR, _mm256_permute2f128_pd(t1_, t3_, 0x31));       \
    } while (0)

__attribute__((target("avx2"))) static void pack_a_bf16_avx2(double *dst, const uint16_t *const *rows, int64_t kc)
{
    int64_t kk = 0;
    for (; kk + 4 <= kc; kk += 4) {
        __m256d r[4];
        for (int i = 0; i < 4; i++) {
            __m128i w = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(rows[i] + kk)));
            r[i] = _mm256_cvtps_pd(_mm_castsi128_ps(_mm_slli_epi32(w, 16)));
        }
        TRANSPOSE_STORE4(dst, kk, r);
    }
    for (; kk < kc; kk++)
        for (int i = 0; i < 4; i++) dst[kk * MR + i] = (double)base_bf16_to_f32(rows[i][kk]);
}

__attribute__((target("avx2"))) static void pack_a_f32_avx2(double *dst, const float *const *rows, int64_t kc)
{
    int64_t kk = 0;
    for (; kk + 4 <= kc; kk += 4) {
        __m256d r[4];
        for (int i = 0; i < 4; i++) r[i] = _mm256_cvtps_pd(_mm_loadu_ps(rows[i] + kk));
        TRANSPOSE_STORE4(dst, kk, r);
    }
    for (; kk < kc; kk++)
        for (int i = 0; i < 4; i++) dst[kk * MR + i] = (double)rows[i][kk];
}
#endif

/* Packs rows r0..r0+nr of operand op (batch offset boff), k range k0..k0+kc,
 * into dst[kk * W + r] as doubles; rows nr..W are zero. */
static void pack_panel(double *dst, int W, const struct gemm_operand *op, int64_t boff, int64_t r0, int nr,
                       int64_t k0, int64_t kc, bool avx2)
{
    int64_t roff[NR > MR ? NR : MR];
    bool rows_unit = true;
    for (int rr = 0; rr < nr; rr++) {
        roff[rr] = boff + op->off_r[r0 + rr];
        if (rr > 0 && roff[rr] != roff[0] + rr) rows_unit = false;
    }
#if DOT_HAVE_X86
    if (avx2 && W == MR && nr == MR && op->k_stride == 1) {
        if (op->dt == BASE_DT_BF16) {
            const uint16_t *rows[MR];
            for (int i = 0; i < MR; i++) rows[i] = (const uint16_t *)op->data + roff[i] + k0;
            pack_a_bf16_avx2(dst, rows, kc);
            return;
        }
        if (op->dt == BASE_DT_F32) {
            const float *rows[MR];
            for (int i = 0; i < MR; i++) rows[i] = (const float *)op->data + roff[i] + k0;
            pack_a_f32_avx2(dst, rows, kc);
            return;
        }
    }
#else
    (void)avx2;
#endif
    switch (op->dt) {
    case BASE_DT_BF16: PACK_BODY(uint16_t, cv_bf16); break;
    case BASE_DT_F16: PACK_BODY(uint16_t, cv_f16); break;
    case BASE_DT_F32: PACK_BODY(float, cv_f32); break;
    case BASE_DT_F64: PACK_BODY(double, cv_f64); break;
    case BASE_DT_SI8: PACK_BODY(int8_t, cv_i8); break;
    case BASE_DT_UI8: PACK_BODY(uint8_t, cv_u8); break;
    case BASE_DT_SI16: PACK_BODY(int16_t, cv_i16); break;
    case BASE_DT_SI32: PACK_BODY(int32_t, cv_i32); break;
    default:
        for (int rr = 0; rr < nr; rr++)
            for (int64_t kk = 0; kk < kc; kk++) {
                int64_t ko = op->k_stride != NO_STRIDE ? (k0 + kk) * op->k_stride : op->off_k[k0 + kk];
                dst[kk * W + rr] = base_elem_get_f64(op->dt, op->data, (size_t)(roff[rr] + ko));
            }
        break;
    }
    if (nr < W)
        for (int64_t kk = 0; kk < kc; kk++)
            for (int rr = nr; rr < W; rr++) dst[kk * W + rr] = 0.0;
}

/* Portable micro-kernel: c[i][j] += a[i] * b[j], k ascending. */
static void ukernel_c(int64_t kc, const double *restrict ap, const double *restrict bp, double *restrict c,
                      int64_t ldc)
{
    double acc[MR][NR];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) acc[i][j] = c[i * ldc + j];
    for (int64_t kk = 0; kk < kc; kk++) {
        const double *a = ap + kk * MR, *b = bp + kk * NR;
        for (int i = 0; i < MR; i++) {
            double ai = a[i];
            for (int j = 0; j < NR; j++) acc[i][j] += ai * b[j];
        }
    }
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) c[i * ldc + j] = acc[i][j];
}

#if DOT_HAVE_X86
#define UK_LOAD(i)                                                   \
    __m256d c##i##0 = _mm256_loadu_pd(c + (i) * ldc);                \
    __m256d c##i##1 = _mm256_loadu_pd(c + (i) * ldc + 4);            \
    __m256d c##i##2 = _mm256_loadu_pd(c + (i) * ldc + 8)
#define UK_STORE(i)                                   \
    _mm256_storeu_pd(c + (i) * ldc, c##i##0);         \
    _mm256_storeu_pd(c + (i) * ldc + 4, c##i##1);     \
    _mm256_storeu_pd(c + (i) * ldc + 8, c##i##2)

/* AVX2 + FMA: only used when every product is exact in double, so the fused
 * multiply-add rounds exactly like the separate add. */
__attribute__((target("avx2,fma"))) static void ukernel_fma(int64_t kc, const double *ap, const double *bp,
                                                            double *c, int64_t ldc)
{
    UK_LOAD(0);
    UK_LOAD(1);
    UK_LOAD(2);
    UK_LOAD(3);
    for (int64_t kk = 0; kk < kc; kk++) {
        __m256d b0 = _mm256_loadu_pd(bp), b1 = _mm256_loadu_pd(bp + 4), b2 = _mm256_loadu_pd(bp + 8);
        __m256d a;
        a = _mm256_broadcast_sd(ap + 0);
        c00 = _mm256_fmadd_pd(a, b0, c00);
        c01 = _mm256_fmadd_pd(a, b1, c01);
        c02 = _mm256_fmadd_pd(a, b2, c02);
        a = _mm256_broadcast_sd(ap + 1);
        c10 = _mm256_fmadd_pd(a, b0, c10);
        c11 = _mm256_fmadd_pd(a, b1, c11);
        c12 = _mm256_fmadd_pd(a, b2, c12);
        a = _mm256_broadcast_sd(ap + 2);
        c20 = _mm256_fmadd_pd(a, b0, c20);
        c21 = _mm256_fmadd_pd(a, b1, c21);
        c22 = _mm256_fmadd_pd(a, b2, c22);
        a = _mm256_broadcast_sd(ap + 3);
        c30 = _mm256_fmadd_pd(a, b0, c30);
        c31 = _mm256_fmadd_pd(a, b1, c31);
        c32 = _mm256_fmadd_pd(a, b2, c32);
        ap += MR;
        bp += NR;
    }
    UK_STORE(0);
    UK_STORE(1);
    UK_STORE(2);
    UK_STORE(3);
}

/* AVX2, multiply then add (each rounded), for products that are not exact. */
__attribute__((target("avx2"))) static void ukernel_avx2(int64_t kc, const double *ap, const double *bp,
                                                         double *c, int64_t ldc)
{
    UK_LOAD(0);
    UK_LOAD(1);
    UK_LOAD(2);
    UK_LOAD(3);
    for (int64_t kk = 0; kk < kc; kk++) {
        __m256d b0 = _mm256_loadu_pd(bp), b1 = _mm256_loadu_pd(bp + 4), b2 = _mm256_loadu_pd(bp + 8);
        __m256d a;
        a = _mm256_broadcast_sd(ap + 0);
        c00 = _mm256_add_pd(c00, _mm256_mul_pd(a, b0));
        c01 = _mm256_add_pd(c01, _mm256_mul_pd(a, b1));
        c02 = _mm256_add_pd(c02, _mm256_mul_pd(a, b2));
        a = _mm256_broadcast_sd(ap + 1);
        c10 = _mm256_add_pd(c10, _mm256_mul_pd(a, b0));
        c11 = _mm256_add_pd(c11, _mm256_mul_pd(a, b1));
        c12 = _mm256_add_pd(c12, _mm256_mul_pd(a, b2));
        a = _mm256_broadcast_sd(ap + 2);
        c20 = _mm256_add_pd(c20, _mm256_mul_pd(a, b0));
        c21 = _mm256_add_pd(c21, _mm256_mul_pd(a, b1));
        c22 = _mm256_add_pd(c22, _mm256_mul_pd(a, b2));
        a = _mm256_broadcast_sd(ap + 3);
        c30 = _mm256_add_pd(c30, _mm256_mul_pd(a, b0));
        c31 = _mm256_add_pd(c31, _mm256_mul_pd(a, b1));
        c32 = _mm256_add_pd(c32, _mm256_mul_pd(a, b2));
        ap += MR;
        bp += NR;
    }
    UK_STORE(0);
    UK_STORE(1);
    UK_STORE(2);
    UK_STORE(3);
}
#endif

static bool have_avx2(void)
{
#if DOT_HAVE_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

static ukernel_fn pick_ukernel(bool products_exact)
{
#if DOT_HAVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        if (products_exact && __builtin_cpu_supports("fma")) return ukernel_fma;
        return ukernel_avx2;
    }
#else
    (void)products_exact;
#endif
    return ukernel_c;
}

/* Packs columns jc..jc+nc, k range pc..pc+kc of the rhs into NR-wide panels. */
static void pack_b_block(const struct gemm *g, double *bbuf, int64_t boff, int64_t jc, int64_t nc, int64_t pc,
                         int64_t kc)
{
    int64_t full = 0;
#if DOT_HAVE_X86
    const struct gemm_operand *op = &g->b;
    if (g->avx2 && g->b_n_unit && op->k_stride != NO_STRIDE && op->k_stride != 1 &&
        (op->dt == BASE_DT_BF16 || op->dt == BASE_DT_F32)) {
        full = nc / NR;
        int64_t start = boff + op->off_r[jc] + pc * op->k_stride;
        if (op->dt == BASE_DT_BF16)
            pack_bf16_block_avx2(bbuf, (const uint16_t *)op->data + start, op->k_stride, kc, full);
        else
            pack_f32_block_avx2(bbuf, (const float *)op->data + start, op->k_stride, kc, full);
    }
#endif
    for (int64_t jr = full * NR; jr < nc; jr += NR) {
        int nr = (int)(nc - jr < NR ? nc - jr : NR);
        pack_panel(bbuf + (jr / NR) * kc * NR, NR, &g->b, boff, jc + jr, nr, pc, kc, g->avx2);
    }
}

/* Computes batches [b0, b1), rows [m0, m1) and columns [n0, n1) of g. */
static void gemm_part(const struct gemm *g, int64_t b0, int64_t b1, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                      double *abuf, double *bbuf)
{
    int64_t mt = (g->m + MR - 1) / MR, nt = (g->n + NR - 1) / NR;
    for (int64_t b = b0; b < b1; b++) {
        double *cb = g->c + b * mt * nt * (MR * NR);
        for (int64_t jc = n0; jc < n1; jc += NC) {
            int64_t nc = n1 - jc < NC ? n1 - jc : NC;
            for (int64_t pc = 0; pc < g->k; pc += KC) {
                int64_t kc = g->k - pc < KC ? g->k - pc : KC;
                pack_b_block(g, bbuf, g->b.off_b[b], jc, nc, pc, kc);
                for (int64_t ic = m0; ic < m1; ic += MC) {
                    int64_t mc = m1 - ic < MC ? m1 - ic : MC;
                    for (int64_t ir = 0; ir < mc; ir += MR) {
                        int mr = (int)(mc - ir < MR ? mc - ir : MR);
                        pack_panel(abuf + (ir / MR) * kc * MR, MR, &g->a, g->a.off_b[b], ic + ir, mr, pc, kc, g->avx2);
                    }
                    /* C tiles are stored tile-major, column of tiles by column
                     * of tiles, so consecutive ir touch consecutive memory;
                     * edge tiles are padded, their extra entries unused */
                    for (int64_t jr = 0; jr < nc; jr += NR) {
                        const double *bp = bbuf + (jr / NR) * kc * NR;
                        double *ct = cb + (((jc + jr) / NR) * mt + ic / MR) * (MR * NR);
                        for (int64_t ir = 0; ir < mc; ir += MR, ct += MR * NR)
                            g->uk(kc, abuf + (ir / MR) * kc * MR, bp, ct, NR);
                    }
                }
            }
        }
    }
}

struct gemm_worker {
    const struct gemm *g;
    int64_t b0, b1, m0, m1, n0, n1;
    bool ok;
};

static void *gemm_worker_main(void *arg)
{
    struct gemm_worker *w = arg;
    double *abuf = aligned_alloc(64, (size_t)MC * KC * sizeof(double));
    double *bbuf = aligned_alloc(64, (size_t)NC * KC * sizeof(double));
    w->ok = abuf && bbuf;
    if (w->ok) gemm_part(w->g, w->b0, w->b1, w->m0, w->m1, w->n0, w->n1, abuf, bbuf);
    free(abuf);
    free(bbuf);
    return NULL;
}

#define GEMM_MAX_THREADS 8
/* Below this many multiply-adds one thread is faster than starting more. */
#define GEMM_THREAD_MIN_MACS (INT64_C(1) << 22)

static int gemm_threads(const struct gemm *g)
{
    int64_t macs = g->nb * g->m * g->n * g->k;
    if (macs < GEMM_THREAD_MIN_MACS) return 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int t = cpus < 1 ? 1 : (cpus > GEMM_MAX_THREADS ? GEMM_MAX_THREADS : (int)cpus);
    return t;
}

/* Splits the work deterministically (each output element is computed the
 * same way whoever computes it) and runs it. */
static enum base_status gemm_run(const struct gemm *g)
{
    int t = gemm_threads(g);
    struct gemm_worker w[GEMM_MAX_THREADS];
    int nw = 0;
    /* Whole batches per thread when they divide evenly or are many; else split
     * the larger of rows and columns, so that the operand packed by every
     * thread (the other one) is the smaller. */
    bool by_batch = g->nb >= t && (g->nb % t == 0 || g->nb >= 4 * t || (g->n < 64 * t && g->m < 64 * t));
    if (t > 1 && by_batch) {
        for (int i = 0; i < t; i++) {
            w[nw] = (struct gemm_worker){g, g->nb * i / t, g->nb * (i + 1) / t, 0, g->m, 0, g->n, false};
            if (w[nw].b1 > w[nw].b0) nw++;
        }
    } else if (t > 1 && g->m > g->n) {
        int64_t panels = (g->m + MR - 1) / MR;
        for (int i = 0; i < t; i++) {
            int64_t p0 = panels * i / t, p1 = panels * (i + 1) / t;
            int64_t m0 = p0 * MR, m1 = p1 * MR < g->m ? p1 * MR : g->m;
            w[nw] = (struct gemm_worker){g, 0, g->nb, m0, m1, 0, g->n, false};
            if (m1 > m0) nw++;
        }
    } else if (t > 1) {
        int64_t panels = (g->n + NR - 1) / NR;
        for (int i = 0; i < t; i++) {
            int64_t p0 = panels * i / t, p1 = panels * (i + 1) / t;
            int64_t n0 = p0 * NR, n1 = p1 * NR < g->n ? p1 * NR : g->n;
            w[nw] = (struct gemm_worker){g, 0, g->nb, 0, g->m, n0, n1, false};
            if (n1 > n0) nw++;
        }
    } else {
        w[nw++] = (struct gemm_worker){g, 0, g->nb, 0, g->m, 0, g->n, false};
    }
    pthread_t th[GEMM_MAX_THREADS];
    bool started[GEMM_MAX_THREADS] = {false};
    for (int i = 1; i < nw; i++) started[i] = pthread_create(&th[i], NULL, gemm_worker_main, &w[i]) == 0;
    gemm_worker_main(&w[0]);
    /* a thread that failed to start runs here instead */
    for (int i = 1; i < nw; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else gemm_worker_main(&w[i]);
    }
    for (int i = 0; i < nw; i++)
        if (!w[i].ok) return BASE_ERR_NOMEM;
    return BASE_OK;
}

/* Writes the tile-major accumulators of a [nb][m][n] product to t, rounding
 * each once (integer results: exact sums wrapped to the result width). */
static void store_tiles(struct base_tensor *t, const double *c, int64_t nb, int64_t m, int64_t n)
{
    int64_t mt = (m + MR - 1) / MR, nt = (n + NR - 1) / NR;
    bool is_float = base_dtype_is_float(t->dtype);
    const double *src = c;
    /* walk the tiles in memory order */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t jt = 0; jt < nt; jt++) {
            int cnt = (int)(n - jt * NR < NR ? n - jt * NR : NR);
            for (int64_t it = 0; it < mt; it++, src += MR * NR) {
                int rows = (int)(m - it * MR < MR ? m - it * MR : MR);
                for (int r = 0; r < rows; r++) {
                    const double *row = src + r * NR;
                    int64_t o = (b * m + it * MR + r) * n + jt * NR;
                    switch (t->dtype) {
                    case BASE_DT_F32:
                        for (int j = 0; j < cnt; j++) ((float *)t->data)[o + j] = (float)row[j];
                        break;
                    case BASE_DT_BF16:
                        for (int j = 0; j < cnt; j++) ((uint16_t *)t->data)[o + j] = bf16_from_f64(row[j]);
                        break;
                    case BASE_DT_F64:
                        memcpy((double *)t->data + o, row, (size_t)cnt * sizeof *row);
                        break;
                    default:
                        for (int j = 0; j < cnt; j++) {
                            if (is_float) base_elem_set_f64(t->dtype, t->data, (size_t)(o + j), row[j]);
                            else base_elem_set_i64(t->dtype, t->data, (size_t)(o + j), (int64_t)row[j]);
                        }
                        break;
                    }
                }
            }
        }
}

/* Problems smaller than this (multiply-adds) use the naive loop. */
#define GEMM_MIN_MACS 4096

static enum base_status float_dot(const struct dot_problem *dp, const struct base_tensor *l,
                                  const struct base_tensor *r, struct base_tensor *out)
{
    if (dp->nb * dp->m * dp->n * dp->k < GEMM_MIN_MACS) {
        int64_t count = dp->nb * dp->m * dp->n;
        double *c = calloc((size_t)(count > 0 ? count : 1), sizeof *c);
        if (!c) return BASE_ERR_NOMEM;
        naive_dot(dp, ACC_F64, l, r, out, c);
        if (base_dtype_is_float(out->dtype)) store_f64_array(out, c, count);
        else
            for (int64_t i = 0; i < count; i++) base_elem_set_i64(out->dtype, out->data, (size_t)i, (int64_t)c[i]);
        free(c);
        return BASE_OK;
    }
    int64_t tiles = dp->nb * ((dp->m + MR - 1) / MR) * ((dp->n + NR - 1) / NR);
    double *c = calloc((size_t)(tiles * MR * NR), sizeof *c);
    if (!c) return BASE_ERR_NOMEM;
    struct gemm g = {
        .a = {l->dtype, l->data, dp->a_off_b, dp->a_off_m, dp->a_off_k, linear_stride(dp->a_off_k, dp->k)},
        .b = {r->dtype, r->data, dp->b_off_b, dp->b_off_n, dp->b_off_k, linear_stride(dp->b_off_k, dp->k)},
        .nb = dp->nb,
        .m = dp->m,
        .n = dp->n,
        .k = dp->k,
        .c = c,
        .uk = pick_ukernel(sig_bits(l->dtype) + sig_bits(r->dtype) <= 53),
        .avx2 = have_avx2(),
        .b_n_unit = linear_stride(dp->b_off_n, dp->n) == 1,
    };
    enum base_status st = gemm_run(&g);
    if (st == BASE_OK) store_tiles(out, c, dp->nb, dp->m, dp->n);
    free(c);
    return st;
}

/* Computes the product described by dp into out (already shaped). */
/* Magnitude bits of an integer type's values: |v| <= 2^bits. */
static int int_mag_bits(enum base_dtype dt)
{
    int w = base_dtype_bits(dt);
    return base_dtype_kind(dt) == BASE_KIND_SINT ? w - 1 : w;
}

/* Integer products whose every partial sum is an integer below 2^53 are
 * computed exactly by the double GEMM, so it can stand in for the 64-bit
 * wrapping loop (int8 x int8 -> int32 and the like). */
static bool int_sums_exact(const struct dot_problem *dp, enum base_dtype a, enum base_dtype b)
{
    int kbits = 0;
    while (kbits < 63 && (INT64_C(1) << kbits) <= dp->k) kbits++;
    return int_mag_bits(a) + int_mag_bits(b) + kbits <= 53;
}

static enum base_status dot_compute(const struct dot_problem *dp, const struct base_tensor *l,
                                    const struct base_tensor *r, struct base_tensor *out)
{
    enum acc_kind kind = acc_kind_for(out->dtype, l->dtype, r->dtype);
    if (kind == ACC_F64 && base_dtype_is_float(out->dtype)) return float_dot(dp, l, r, out);
    if (kind == ACC_I64 && base_dtype_kind(l->dtype) != BASE_KIND_BOOL && base_dtype_kind(r->dtype) != BASE_KIND_BOOL &&
        int_sums_exact(dp, l->dtype, r->dtype))
        return float_dot(dp, l, r, out);
    naive_dot(dp, kind, l, r, out, NULL);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                   */

static enum base_status make_result(struct interp_proc *p, const struct graph_op *op, int rank,
                                    const int64_t *dims, struct base_tensor **out)
{
    const struct graph_type *rt = interp_result_type(op, 0);
    if (rt && rt->kind == GRAPH_TYPE_TENSOR && rt->rank >= 0) {
        if (rt->rank != rank)
            return interp_fail(p, op, BASE_ERR_INVALID, "result rank %d, expected %d", rt->rank, rank);
        for (int i = 0; i < rank; i++)
            if (rt->dims[i] != GRAPH_DYN && rt->dims[i] != dims[i])
                return interp_fail(p, op, BASE_ERR_INVALID, "result dimension %d is %lld, expected %lld", i,
                                   (long long)rt->dims[i], (long long)dims[i]);
    }
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, 0), rank, dims, out);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate the result");
    return BASE_OK;
}

static enum base_status finish(struct interp_proc *p, const struct graph_op *op, struct base_tensor *t,
                               struct interp_value **out)
{
    out[0] = iv_tensor(t);
    if (!out[0]) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    return BASE_OK;
}

static enum base_status run_dot(struct interp_proc *p, const struct graph_op *op, const struct base_tensor *l,
                                const struct base_tensor *r, int nbd, const int64_t *lb, const int64_t *rb, int ncd,
                                const int64_t *lc, const int64_t *rc, struct interp_value **out)
{
    struct dot_problem dp;
    TRY(dot_problem_init(p, op, l, r, nbd, lb, rb, ncd, lc, rc, &dp));
    struct base_tensor *t = NULL;
    enum base_status st = make_result(p, op, dp.res_rank, dp.res_dims, &t);
    if (st == BASE_OK) {
        st = dot_compute(&dp, l, r, t);
        if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
    }
    dot_problem_free(&dp);
    if (st != BASE_OK) {
        base_tensor_release(t);
        return st;
    }
    return finish(p, op, t, out);
}

static enum base_status operands2(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                  const struct base_tensor **l, const struct base_tensor **r)
{
    if (op->n_operands < 2 || !iv_t(in[0]) || !iv_t(in[1]))
        return interp_fail(p, op, BASE_ERR_INVALID, "expects two tensor operands");
    *l = iv_t(in[0]);
    *r = iv_t(in[1]);
    return BASE_OK;
}

static enum base_status k_dot_general(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *l = NULL, *r = NULL;
    TRY(operands2(p, op, in, &l, &r));
    const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
    int64_t lb[BASE_MAX_RANK], rb[BASE_MAX_RANK], lc[BASE_MAX_RANK], rc[BASE_MAX_RANK];
    int nlb = i64_list(graph_dict_get(dn, "lhs_batching_dimensions"), lb, BASE_MAX_RANK);
    int nrb = i64_list(graph_dict_get(dn, "rhs_batching_dimensions"), rb, BASE_MAX_RANK);
    int nlc = i64_list(graph_dict_get(dn, "lhs_contracting_dimensions"), lc, BASE_MAX_RANK);
    int nrc = i64_list(graph_dict_get(dn, "rhs_contracting_dimensions"), rc, BASE_MAX_RANK);
    if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nlb > BASE_MAX_RANK || nlc > BASE_MAX_RANK)
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed dot_dimension_numbers");
    if (nlb != nrb)
        return interp_fail(p, op, BASE_ERR_INVALID, "lhs has %d batching dimensions, rhs %d", nlb, nrb);
    if (nlc != nrc)
        return interp_fail(p, op, BASE_ERR_INVALID, "lhs has %d contracting dimensions, rhs %d", nlc, nrc);
    return run_dot(p, op, l, r, nlb, lb, rb, nlc, lc, rc, out);
}

/* Legacy dot: contracts the last lhs dimension with the first rhs dimension. */
static enum base_status k_dot(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                              struct interp_value **out)
{
    const struct base_tensor *l = NULL, *r = NULL;
    TRY(operands2(p, op, in, &l, &r));
    if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
        return interp_fail(p, op, BASE_ERR_INVALID, "dot operands must have rank 1 or 2");
    int64_t lc[1] = {l->rank - 1}, rc[1] = {0};
    return run_dot(p, op, l, r, 0, NULL, NULL, 1, lc, rc, out);
}

/* ------------------------------------------------------------------------ */
/* chlo.ragged_dot                                                           */

enum ragged_mode { RAGGED_NONCONTRACTING, RAGGED_CONTRACTING, RAGGED_BATCH };

struct ragged {
    const struct base_tensor *l, *r, *gs;
    int nbd, ncd;
    int64_t lb[BASE_MAX_RANK], rb[BASE_MAX_RANK], lc[BASE_MAX_RANK], rc[BASE_MAX_RANK];
    int64_t lfree[BASE_MAX_RANK], rfree[BASE_MAX_RANK];
    int nlf, nrf;
    int64_t ragged_dim; /* in lhs */
    int64_t group_dim;  /* in rhs, or -1 */
    enum ragged_mode mode;
    int npre;
    int64_t pre[BASE_MAX_RANK]; /* lhs dims indexing group_sizes' leading dims */
    int64_t groups;
};

/* [start, end) of group g along the ragged dim, given the lhs index. */
static void ragged_group_range(const struct ragged *rg, const int64_t *lidx, int64_t g, int64_t *start,
                               int64_t *end)
{
    int64_t base = 0;
    if (rg->gs->rank > 1) {
        int64_t gi = 0;
        for (int i = 0; i < rg->npre; i++) gi = gi * rg->gs->dims[i] + lidx[rg->pre[i]];
        base = gi * rg->groups;
    }
    int64_t s = 0;
    for (int64_t q = 0; q < g; q++) s += base_elem_get_i64(rg->gs->dtype, rg->gs->data, (size_t)(base + q));
    *start = s;
    *end = s + base_elem_get_i64(rg->gs->dtype, rg->gs->data, (size_t)(base + g));
}

/* The group containing ragged index x, or -1. */
static int64_t ragged_group_of(const struct ragged *rg, const int64_t *lidx, int64_t x)
{
    for (int64_t g = 0; g < rg->groups; g++) {
        int64_t s, e;
        ragged_group_range(rg, lidx, g, &s, &e);
        if (x >= s && x < e) return g;
    }
    return -1;
}

static enum base_status ragged_parse(struct interp_proc *p, const struct graph_op *op, struct ragged *rg)
{
    const struct graph_attr *dn = graph_op_attr(op, "ragged_dot_dimension_numbers");
    int64_t rd[BASE_MAX_RANK], gd[BASE_MAX_RANK];
    int nlb = i64_list(graph_dict_get(dn, "lhs_batching_dimensions"), rg->lb, BASE_MAX_RANK);
    int nrb = i64_list(graph_dict_get(dn, "rhs_batching_dimensions"), rg->rb, BASE_MAX_RANK);
    int nlc = i64_list(graph_dict_get(dn, "lhs_contracting_dimensions"), rg->lc, BASE_MAX_RANK);
    int nrc = i64_list(graph_dict_get(dn, "rhs_contracting_dimensions"), rg->rc, BASE_MAX_RANK);
    int nrd = i64_list(graph_dict_get(dn, "lhs_ragged_dimensions"), rd, BASE_MAX_RANK);
    int ngd = i64_list(graph_dict_get(dn, "rhs_group_dimensions"), gd, BASE_MAX_RANK);
    if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nrd < 0 || ngd < 0 || nlb != nrb || nlc != nrc)
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed ragged_dot_dimension_numbers");
    if (nrd != 1) return interp_fail(p, op, BASE_ERR_INVALID, "there must be exactly one lhs ragged dimension");
    if (ngd > 1) return interp_fail(p, op, BASE_ERR_INVALID, "at most one rhs group dimension is allowed");
    const struct base_tensor *l = rg->l, *r = rg->r;
    rg->nbd = nlb;
    rg->ncd = nlc;
    rg->ragged_dim = rd[0];
    rg->group_dim = ngd ? gd[0] : -1;
    if (rg->ragged_dim < 0 || rg->ragged_dim >= l->rank || rg->group_dim >= r->rank)
        return interp_fail(p, op, BASE_ERR_INVALID, "ragged or group dimension out of range");
    for (int i = 0; i < nlb; i++)
        if (rg->lb[i] < 0 || rg->lb[i] >= l->rank || rg->rb[i] < 0 || rg->rb[i] >= r->rank ||
            l->dims[rg->lb[i]] != r->dims[rg->rb[i]])
            return interp_fail(p, op, BASE_ERR_INVALID, "batching dimensions do not match");
    for (int i = 0; i < nlc; i++)
        if (rg->lc[i] < 0 || rg->lc[i] >= l->rank || rg->rc[i] < 0 || rg->rc[i] >= r->rank ||
            l->dims[rg->lc[i]] != r->dims[rg->rc[i]])
            return interp_fail(p, op, BASE_ERR_INVALID, "contracting dimensions do not match");
    rg->nlf = rg->nrf = 0;
    for (int d = 0; d < l->rank; d++)
        if (!contains(rg->lb, nlb, d) && !contains(rg->lc, nlc, d)) rg->lfree[rg->nlf++] = d;
    for (int d = 0; d < r->rank; d++)
        if (!contains(rg->rb, nlb, d) && !contains(rg->rc, nlc, d) && d != rg->group_dim)
            rg->rfree[rg->nrf++] = d;
    /* mode and group_sizes prefix dims (as ChloOps.cpp's verifier) */
    rg->npre = 0;
    if (contains(rg->lb, nlb, rg->ragged_dim)) {
        rg->mode = RAGGED_BATCH;
        for (int i = 0; i < nlb && rg->lb[i] != rg->ragged_dim; i++) rg->pre[rg->npre++] = rg->lb[i];
    } else if (contains(rg->lc, nlc, rg->ragged_dim)) {
        rg->mode = RAGGED_CONTRACTING;
        for (int i = 0; i < nlb; i++) rg->pre[rg->npre++] = rg->lb[i];
        for (int i = 0; i < nlc && rg->lc[i] != rg->ragged_dim; i++) rg->pre[rg->npre++] = rg->lc[i];
    } else {
        rg->mode = RAGGED_NONCONTRACTING;
        for (int i = 0; i < nlb; i++) rg->pre[rg->npre++] = rg->lb[i];
        for (int64_t d = 0; d < rg->ragged_dim; d++)
            if (!contains(rg->lb, nlb, d) && !contains(rg->lc, nlc, d)) rg->pre[rg->npre++] = d;
    }
    if (rg->gs->rank < 1) return interp_fail(p, op, BASE_ERR_INVALID, "group_sizes must have rank >= 1");
    rg->groups = rg->gs->dims[rg->gs->rank - 1];
    if (rg->gs->rank > 1) {
        if (rg->gs->rank != rg->npre + 1)
            return interp_fail(p, op, BASE_ERR_INVALID, "group_sizes must have rank %d, got %d", rg->npre + 1,
                               rg->gs->rank);
        for (int i = 0; i < rg->npre; i++)
            if (rg->gs->dims[i] != l->dims[rg->pre[i]])
                return interp_fail(p, op, BASE_ERR_INVALID, "group_sizes dimension %d does not match lhs", i);
    }
    if (rg->mode == RAGGED_NONCONTRACTING) {
        if (rg->group_dim < 0)
            return interp_fail(p, op, BASE_ERR_INVALID,
                               "a non-contracting ragged dimension needs one rhs group dimension");
        if (r->dims[rg->group_dim] != rg->groups)
            return interp_fail(p, op, BASE_ERR_INVALID, "rhs group dimension has size %lld, expected %lld",
                               (long long)r->dims[rg->group_dim], (long long)rg->groups);
    } else if (rg->group_dim >= 0) {
        return interp_fail(p, op, BASE_ERR_INVALID,
                           "there must be no rhs group dimension when the ragged dimension is batch or contracting");
    }
    return BASE_OK;
}

static enum base_status k_ragged_dot(struct interp_proc *p, const struct graph_op *op,
                                     struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands < 3 || !iv_t(in[0]) || !iv_t(in[1]) || !iv_t(in[2]))
        return interp_fail(p, op, BASE_ERR_INVALID, "expects lhs, rhs and group_sizes tensors");
    struct ragged rg;
    memset(&rg, 0, sizeof rg);
    rg.l = iv_t(in[0]);
    rg.r = iv_t(in[1]);
    rg.gs = iv_t(in[2]);
    TRY(ragged_parse(p, op, &rg));
    const struct base_tensor *l = rg.l, *r = rg.r;

    int64_t dims[BASE_MAX_RANK];
    int rank = 0;
    if (rg.mode == RAGGED_CONTRACTING) dims[rank++] = rg.groups;
    if (rank + rg.nbd + rg.nlf + rg.nrf > BASE_MAX_RANK)
        return interp_fail(p, op, BASE_ERR_LIMIT, "result rank exceeds %d", BASE_MAX_RANK);
    for (int i = 0; i < rg.nbd; i++) dims[rank++] = l->dims[rg.lb[i]];
    for (int i = 0; i < rg.nlf; i++) dims[rank++] = l->dims[rg.lfree[i]];
    for (int i = 0; i < rg.nrf; i++) dims[rank++] = r->dims[rg.rfree[i]];
    struct base_tensor *t = NULL;
    TRY(make_result(p, op, rank, dims, &t));

    enum acc_kind kind = acc_kind_for(t->dtype, l->dtype, r->dtype);
    int64_t kdims[BASE_MAX_RANK];
    for (int i = 0; i < rg.ncd; i++) kdims[i] = l->dims[rg.lc[i]];
    int64_t oidx[BASE_MAX_RANK] = {0};
    for (int64_t o = 0; o < t->count; o++) {
        if (o > 0) interp_index_next(rank, dims, oidx);
        int64_t lidx[BASE_MAX_RANK] = {0}, ridx[BASE_MAX_RANK] = {0};
        int pos = 0;
        int64_t g = -1;
        if (rg.mode == RAGGED_CONTRACTING) g = oidx[pos++];
        for (int i = 0; i < rg.nbd; i++, pos++) {
            lidx[rg.lb[i]] = oidx[pos];
            ridx[rg.rb[i]] = oidx[pos];
        }
        for (int i = 0; i < rg.nlf; i++) lidx[rg.lfree[i]] = oidx[pos++];
        for (int i = 0; i < rg.nrf; i++) ridx[rg.rfree[i]] = oidx[pos++];
        bool zero = false;
        int64_t cs = 0, ce = 0;
        if (rg.mode == RAGGED_NONCONTRACTING) {
            g = ragged_group_of(&rg, lidx, lidx[rg.ragged_dim]);
            if (g < 0) zero = true;
            else ridx[rg.group_dim] = g;
        } else if (rg.mode == RAGGED_BATCH) {
            zero = ragged_group_of(&rg, lidx, lidx[rg.ragged_dim]) < 0;
        }
        double acc = 0.0, acc_im = 0.0;
        uint64_t iacc = 0;
        bool bacc = false;
        int64_t kidx[BASE_MAX_RANK] = {0};
        int64_t kcount = 1;
        for (int i = 0; i < rg.ncd; i++) kcount *= kdims[i];
        for (int64_t q = 0; q < kcount && !zero; q++) {
            if (q > 0) interp_index_next(rg.ncd, kdims, kidx);
            for (int i = 0; i < rg.ncd; i++) {
                lidx[rg.lc[i]] = kidx[i];
                ridx[rg.rc[i]] = kidx[i];
            }
            if (rg.mode == RAGGED_CONTRACTING) {
                /* the prefix (batch and earlier contracting indices) is set */
                ragged_group_range(&rg, lidx, g, &cs, &ce);
                int64_t x = lidx[rg.ragged_dim];
                if (x < cs || x >= ce) continue;
            }
            size_t li = (size_t)interp_linear_from_index(l->rank, l->dims, lidx);
            size_t ri = (size_t)interp_linear_from_index(r->rank, r->dims, ridx);
            switch (kind) {
            case ACC_F64:
                acc += base_elem_get_f64(l->dtype, l->data, li) * base_elem_get_f64(r->dtype, r->data, ri);
                break;
            case ACC_C128: {
                double xr, xi, yr, yi;
                base_elem_get_c128(l->dtype, l->data, li, &xr, &xi);
                base_elem_get_c128(r->dtype, r->data, ri, &yr, &yi);
                acc += xr * yr - xi * yi;
                acc_im += xr * yi + xi * yr;
                break;
            }
            case ACC_I64:
                iacc += get_u(l->dtype, l->data, (int64_t)li) * get_u(r->dtype, r->data, (int64_t)ri);
                break;
            case ACC_BOOL:
                bacc = bacc || (get_u(l->dtype, l->data, (int64_t)li) && get_u(r->dtype, r->data, (int64_t)ri));
                break;
            }
        }
        switch (kind) {
        case ACC_F64: base_elem_set_f64(t->dtype, t->data, (size_t)o, acc); break;
        case ACC_C128: base_elem_set_c128(t->dtype, t->data, (size_t)o, acc, acc_im); break;
        case ACC_I64: base_elem_set_i64(t->dtype, t->data, (size_t)o, (int64_t)iacc); break;
        case ACC_BOOL: base_elem_set_i64(t->dtype, t->data, (size_t)o, bacc ? 1 : 0); break;
        }
    }
    return finish(p, op, t, out);
}

void interp_register_dot(interp_kernel_fn *table)
{
    table[GRAPH_OP_DOT_GENERAL] = k_dot_general;
    table[GRAPH_OP_DOT] = k_dot;
    table[GRAPH_OP_CHLO_RAGGED_DOT] = k_ragged_dot;
}
