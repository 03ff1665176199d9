/* Golden interpreter: dot_general, dot and chlo.ragged_dot.
 *
 * Numerics (the rule for every sum of products: dot_general, dot,
 * convolution, dynamic_conv, chlo.ragged_dot, einsum), as XLA and the
 * StableHLO reference interpreter compute them:
 *  - float result: the accumulation type A is f64 for an f64 result and f32
 *    for every other float result (f32, bf16, f16, f8/f6/f4).  Operands are
 *    converted to A (one rounding), each product is rounded to A (a separate
 *    multiply: no fused multiply-add), and added to a running sum in A that
 *    starts at +0, sequentially over the contracting index tuple in row-major
 *    order of the contracting dimensions as listed; the sum is rounded once to
 *    the result type.
 *  - complex result: the same in complex<f32> (complex<f64> for complex<f64>
 *    results), per component: a product (a+bi)(c+di) is re = ac - bd,
 *    im = ad + bc with every product and the difference / sum rounded to A.
 *  - integer result: 64-bit unsigned (wrapping) sums of the products, wrapped
 *    to the result width; boolean results are the OR of the ANDs.
 *
 * Speed: real-typed products go through a cache-blocked GEMM when they are
 * big enough: panels packed into A (f32: 6x16 register tiles; f64: 4x12), a
 * register-blocked micro-kernel that vectorises across output columns (never
 * across k), and one thread per core (at most 8) splitting batches, rows or
 * columns.  Each output element is still the sequential sum
 * acc = ((0 + p0) + p1) + ... with the k blocks taken in order, so the result
 * does not depend on the blocking, the thread count or the micro-kernel.
 * Integer products whose partial sums are exact in double (int8 x int8 and
 * the like) use the f64 GEMM too.  No kernel uses FMA: under -std=c11 gcc
 * does not contract a * b + c (-ffp-contract=off), and no function here is
 * compiled for the fma target.
 */
#include "interp/interp_internal.h"
#include "interp/interp_acc.h"

#include <math.h>
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

/* F32 / F64: real sums in that type (A in the rule above); C64 / C128:
 * complex sums with f32 / f64 parts; I64: wrapping integer sums; BOOL: OR of
 * ANDs. */
enum acc_kind { ACC_F32, ACC_F64, ACC_C64, ACC_C128, ACC_I64, ACC_BOOL };

static enum acc_kind acc_kind_for(enum base_dtype res, enum base_dtype a, enum base_dtype b)
{
    if (base_dtype_is_complex(res) || base_dtype_is_complex(a) || base_dtype_is_complex(b))
        return res == BASE_DT_C64 ? ACC_C64 : ACC_C128;
    enum base_dtype_kind rk = base_dtype_kind(res);
    bool ints = !base_dtype_is_float(a) && !base_dtype_is_float(b);
    /* integer or boolean results of float operands are not valid StableHLO;
     * they keep a double sum truncated to the result */
    if (rk == BASE_KIND_BOOL) return ints ? ACC_BOOL : ACC_F64;
    if (rk == BASE_KIND_SINT || rk == BASE_KIND_UINT) return ints ? ACC_I64 : ACC_F64;
    return res == BASE_DT_F64 ? ACC_F64 : ACC_F32;
}

/* One step of each accumulation: acc = acc + round_A(x * y). */
static inline float step_f32(float acc, float x, float y)
{
    float p = x * y;
    return acc + p;
}

static inline double step_f64(double acc, double x, double y)
{
    double p = x * y;
    return acc + p;
}

static inline void step_c64(float *ar, float *ai, float xr, float xi, float yr, float yi)
{
    float rr = xr * yr, ii = xi * yi, ri = xr * yi, ir = xi * yr;
    float pr = rr - ii, pi = ri + ir;
    *ar = *ar + pr;
    *ai = *ai + pi;
}

static inline void step_c128(double *ar, double *ai, double xr, double xi, double yr, double yi)
{
    double rr = xr * yr, ii = xi * yi, ri = xr * yi, ir = xi * yr;
    double pr = rr - ii, pi = ri + ir;
    *ar = *ar + pr;
    *ai = *ai + pi;
}

/* ------------------------------------------------------------------------ */
/* Naive reference loop (small products, complex, integers)                  */

static void naive_dot(const struct dot_problem *dp, enum acc_kind kind, const struct base_tensor *l,
                      const struct base_tensor *r, struct base_tensor *out)
{
    enum base_dtype ad = l->dtype, bd = r->dtype, od = out->dtype;
    const void *a = l->data, *b = r->data;
    int64_t idx = 0;
    for (int64_t bb = 0; bb < dp->nb; bb++)
        for (int64_t i = 0; i < dp->m; i++)
            for (int64_t j = 0; j < dp->n; j++, idx++) {
                int64_t ao = dp->a_off_b[bb] + dp->a_off_m[i];
                int64_t bo = dp->b_off_b[bb] + dp->b_off_n[j];
                const int64_t *ak = dp->a_off_k, *bk = dp->b_off_k;
                switch (kind) {
                case ACC_F32: {
                    float acc = 0.0f;
                    for (int64_t q = 0; q < dp->k; q++)
                        acc = step_f32(acc, interp_acc_ld_f32(ad, a, ao + ak[q]), interp_acc_ld_f32(bd, b, bo + bk[q]));
                    interp_acc_st_f32(od, out->data, idx, acc);
                    break;
                }
                case ACC_F64: {
                    double acc = 0.0;
                    for (int64_t q = 0; q < dp->k; q++)
                        acc = step_f64(acc, interp_acc_ld_f64(ad, a, ao + ak[q]), interp_acc_ld_f64(bd, b, bo + bk[q]));
                    base_elem_set_f64(od, out->data, (size_t)idx, acc);
                    break;
                }
                case ACC_C64: {
                    float re = 0.0f, im = 0.0f;
                    for (int64_t q = 0; q < dp->k; q++) {
                        float xr, xi, yr, yi;
                        interp_acc_ld_c64(ad, a, ao + ak[q], &xr, &xi);
                        interp_acc_ld_c64(bd, b, bo + bk[q], &yr, &yi);
                        step_c64(&re, &im, xr, xi, yr, yi);
                    }
                    base_elem_set_c128(od, out->data, (size_t)idx, re, im); /* exact for c64 */
                    break;
                }
                case ACC_C128: {
                    double re = 0.0, im = 0.0;
                    for (int64_t q = 0; q < dp->k; q++) {
                        double xr, xi, yr, yi;
                        interp_acc_ld_c128(ad, a, ao + ak[q], &xr, &xi);
                        interp_acc_ld_c128(bd, b, bo + bk[q], &yr, &yi);
                        step_c128(&re, &im, xr, xi, yr, yi);
                    }
                    base_elem_set_c128(od, out->data, (size_t)idx, re, im);
                    break;
                }
                case ACC_I64: {
                    uint64_t acc = 0;
                    for (int64_t q = 0; q < dp->k; q++)
                        acc += interp_acc_ld_u(ad, a, ao + ak[q]) * interp_acc_ld_u(bd, b, bo + bk[q]);
                    base_elem_set_i64(od, out->data, (size_t)idx, (int64_t)acc);
                    break;
                }
                case ACC_BOOL: {
                    bool acc = false;
                    for (int64_t q = 0; q < dp->k && !acc; q++)
                        acc = interp_acc_ld_u(ad, a, ao + ak[q]) != 0 && interp_acc_ld_u(bd, b, bo + bk[q]) != 0;
                    base_elem_set_i64(od, out->data, (size_t)idx, acc ? 1 : 0);
                    break;
                }
                }
            }
}

/* ------------------------------------------------------------------------ */
/* Blocked GEMM (f32 or f64 panels)                                          */

#define MR32 6 /* PACK_BODY unrolls 6-row panels */
#define NR32 16
#define MR64 4
#define NR64 12
#define NR_MAX 16
#define KC 256
#define MC 96   /* multiple of MR32 and MR64 */
#define NC 3072 /* multiple of NR32 and NR64 */
#define NO_STRIDE INT64_MIN

struct gemm_operand {
    enum base_dtype dt;
    const void *data;
    const int64_t *off_b;  /* per batch */
    const int64_t *off_r;  /* per row of the panel: m for lhs, n for rhs */
    const int64_t *off_k;  /* per k */
    int64_t k_stride;      /* off_k[i] == i * k_stride, or NO_STRIDE */
};

/* c[i][j] = c[i][j] + a[i] * b[j] over kc steps of packed panels, starting
 * from +0 instead of c when first (the first k block: c is not read, so
 * fresh pages are only written); c is one mr x nr tile (row stride nr).
 * Element types follow the GEMM (float or double). */
typedef void (*ukernel_fn)(int64_t kc, const void *ap, const void *bp, void *c, bool first);

struct gemm {
    struct gemm_operand a, b;
    int64_t nb, m, n, k;
    bool f32;       /* f32 panels, tiles and sums; else f64 */
    int mr, nr;
    void *c;        /* [nb][n/nr][m/mr][mr][nr] tiles (rounded up); NULL when
                     * k fits one k block and no sum outlives its tile */
    struct base_tensor *out; /* [nb][m][n] result, written tile by tile */
    ukernel_fn uk;
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

/* The body of pack_panel_*: rows r0..r0+nr of op, k range k0..k0+kc, into
 * dst[kk * W + r] of the panel type, converting each element with CONV. */
#define PACK_BODY(T, CONV)                                                                  \
    do {                                                                                    \
        const T *s_ = (const T *)op->data;                                                  \
        if (op->k_stride != NO_STRIDE) {                                                    \
            int64_t ks_ = op->k_stride;                                                     \
            if (rows_unit && ks_ != 1) {                                                    \
                for (int64_t kk = 0; kk < kc; kk++) {                                       \
                    const T *sp_ = s_ + roff[0] + (k0 + kk) * ks_;                          \
                    for (int rr = 0; rr < nr; rr++) dst[kk * W + rr] = CONV(sp_[rr]);       \
                }                                                                           \
            } else if (ks_ == 1) {                                                          \
                /* k-contiguous rows (lhs [M, K], rhs [N, K]): nr read streams, \
                 * sequential writes */                                                     \
                const T *rp_[NR_MAX];                                                       \
                for (int rr = 0; rr < nr; rr++) rp_[rr] = s_ + roff[rr] + k0;               \
                if (nr == 6 && W == 6) { /* the f32 lhs panel (MR32), unrolled */           \
                    const T *p0_ = rp_[0], *p1_ = rp_[1], *p2_ = rp_[2];                    \
                    const T *p3_ = rp_[3], *p4_ = rp_[4], *p5_ = rp_[5];                    \
                    for (int64_t kk = 0; kk < kc; kk++) {                                   \
                        dst[kk * 6 + 0] = CONV(p0_[kk]);                                    \
                        dst[kk * 6 + 1] = CONV(p1_[kk]);                                    \
                        dst[kk * 6 + 2] = CONV(p2_[kk]);                                    \
                        dst[kk * 6 + 3] = CONV(p3_[kk]);                                    \
                        dst[kk * 6 + 4] = CONV(p4_[kk]);                                    \
                        dst[kk * 6 + 5] = CONV(p5_[kk]);                                    \
                    }                                                                       \
                } else                                                                      \
                    for (int64_t kk = 0; kk < kc; kk++)                                     \
                        for (int rr = 0; rr < nr; rr++) dst[kk * W + rr] = CONV(rp_[rr][kk]); \
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

/* Conversions of storage values to the panel type (one rounding at most). */
#define CV_NUM(x) (x)
static inline float cvf_bf16(uint16_t v)
{
    return base_bf16_to_f32(v);
}
static inline float cvf_f16(uint16_t v)
{
    return base_f16_to_f32(v);
}
static inline float cvf_f32(float v)
{
    return v;
}
static inline float cvf_f64(double v)
{
    return (float)v;
}
static inline double cvd_bf16(uint16_t v)
{
    return base_bf16_to_f32(v);
}
static inline double cvd_f16(uint16_t v)
{
    return base_f16_to_f32(v);
}

/* Row offsets of a panel; rows_unit when they are consecutive elements. */
static bool panel_rows(const struct gemm_operand *op, int64_t boff, int64_t r0, int nr, int64_t *roff)
{
    bool rows_unit = true;
    for (int rr = 0; rr < nr; rr++) {
        roff[rr] = boff + op->off_r[r0 + rr];
        if (rr > 0 && roff[rr] != roff[0] + rr) rows_unit = false;
    }
    return rows_unit;
}

/* Packs rows r0..r0+nr of operand op (batch offset boff), k range k0..k0+kc,
 * into dst[kk * W + r] as floats; rows nr..W are zero. */
static void pack_panel_f32(float *dst, int W, const struct gemm_operand *op, int64_t boff, int64_t r0, int nr,
                           int64_t k0, int64_t kc)
{
    int64_t roff[NR_MAX];
    bool rows_unit = panel_rows(op, boff, r0, nr, roff);
    switch (op->dt) {
    case BASE_DT_BF16: PACK_BODY(uint16_t, cvf_bf16); break;
    case BASE_DT_F16: PACK_BODY(uint16_t, cvf_f16); break;
    case BASE_DT_F32: PACK_BODY(float, cvf_f32); break;
    case BASE_DT_F64: PACK_BODY(double, cvf_f64); break;
    case BASE_DT_SI8: PACK_BODY(int8_t, (float)); break;
    case BASE_DT_UI8: PACK_BODY(uint8_t, (float)); break;
    case BASE_DT_SI16: PACK_BODY(int16_t, (float)); break;
    case BASE_DT_UI16: PACK_BODY(uint16_t, (float)); break;
    case BASE_DT_SI32: PACK_BODY(int32_t, (float)); break;
    default:
        for (int rr = 0; rr < nr; rr++)
            for (int64_t kk = 0; kk < kc; kk++) {
                int64_t ko = op->k_stride != NO_STRIDE ? (k0 + kk) * op->k_stride : op->off_k[k0 + kk];
                dst[kk * W + rr] = interp_acc_ld_f32(op->dt, op->data, roff[rr] + ko);
            }
        break;
    }
    if (nr < W)
        for (int64_t kk = 0; kk < kc; kk++)
            for (int rr = nr; rr < W; rr++) dst[kk * W + rr] = 0.0f;
}

/* The same into doubles. */
static void pack_panel_f64(double *dst, int W, const struct gemm_operand *op, int64_t boff, int64_t r0, int nr,
                           int64_t k0, int64_t kc)
{
    int64_t roff[NR_MAX];
    bool rows_unit = panel_rows(op, boff, r0, nr, roff);
    switch (op->dt) {
    case BASE_DT_BF16: PACK_BODY(uint16_t, cvd_bf16); break;
    case BASE_DT_F16: PACK_BODY(uint16_t, cvd_f16); break;
    case BASE_DT_F32: PACK_BODY(float, (double)); break;
    case BASE_DT_F64: PACK_BODY(double, CV_NUM); break;
    case BASE_DT_SI8: PACK_BODY(int8_t, (double)); break;
    case BASE_DT_UI8: PACK_BODY(uint8_t, (double)); break;
    case BASE_DT_SI16: PACK_BODY(int16_t, (double)); break;
    case BASE_DT_UI16: PACK_BODY(uint16_t, (double)); break;
    case BASE_DT_SI32: PACK_BODY(int32_t, (double)); break;
    default:
        for (int rr = 0; rr < nr; rr++)
            for (int64_t kk = 0; kk < kc; kk++) {
                int64_t ko = op->k_stride != NO_STRIDE ? (k0 + kk) * op->k_stride : op->off_k[k0 + kk];
                dst[kk * W + rr] = interp_acc_ld_f64(op->dt, op->data, roff[rr] + ko);
            }
        break;
    }
    if (nr < W)
        for (int64_t kk = 0; kk < kc; kk++)
            for (int rr = nr; rr < W; rr++) dst[kk * W + rr] = 0.0;
}

/* Packs np full NR32-wide f32 panels of an rhs whose columns (n) are
 * contiguous (the usual [K, N] layout): reads each k row sequentially, which
 * the hardware prefetcher streams, and writes NR32 values into each panel. */
static void pack_b_rows_bf16(float *dst, const uint16_t *src, int64_t ks, int64_t kc, int64_t np)
{
    for (int64_t kk = 0; kk < kc; kk++, src += ks) {
        const uint16_t *s = src;
        float *d = dst + kk * NR32;
        for (int64_t q = 0; q < np; q++, s += NR32, d += kc * NR32)
            for (int j = 0; j < NR32; j++) d[j] = base_bf16_to_f32(s[j]);
    }
}

static void pack_b_rows_f32(float *dst, const float *src, int64_t ks, int64_t kc, int64_t np)
{
    for (int64_t kk = 0; kk < kc; kk++, src += ks) {
        const float *s = src;
        float *d = dst + kk * NR32;
        for (int64_t q = 0; q < np; q++, s += NR32, d += kc * NR32) memcpy(d, s, NR32 * sizeof *d);
    }
}

/* Portable micro-kernels: c[i][j] = c[i][j] + a[i] * b[j], k ascending. */
static void uk_f32_c(int64_t kc, const void *apv, const void *bpv, void *cv, bool first)
{
    const float *ap = apv, *bp = bpv;
    float *c = cv;
    float acc[MR32][NR32];
    if (first)
        for (int i = 0; i < MR32; i++)
            for (int j = 0; j < NR32; j++) acc[i][j] = 0.0f;
    else
        memcpy(acc, c, sizeof acc);
    for (int64_t kk = 0; kk < kc; kk++, ap += MR32, bp += NR32)
        for (int i = 0; i < MR32; i++)
            for (int j = 0; j < NR32; j++) acc[i][j] = step_f32(acc[i][j], ap[i], bp[j]);
    memcpy(c, acc, sizeof acc);
}

static void uk_f64_c(int64_t kc, const void *apv, const void *bpv, void *cv, bool first)
{
    const double *ap = apv, *bp = bpv;
    double *c = cv;
    double acc[MR64][NR64];
    if (first)
        for (int i = 0; i < MR64; i++)
            for (int j = 0; j < NR64; j++) acc[i][j] = 0.0;
    else
        memcpy(acc, c, sizeof acc);
    for (int64_t kk = 0; kk < kc; kk++, ap += MR64, bp += NR64)
        for (int i = 0; i < MR64; i++)
            for (int j = 0; j < NR64; j++) acc[i][j] = step_f64(acc[i][j], ap[i], bp[j]);
    memcpy(c, acc, sizeof acc);
}

#if DOT_HAVE_X86
/* AVX2 f32: a 6 x 16 tile in 12 registers, 8 output columns per register;
 * multiply, then add (two roundings). */
#define UK32_LOAD(i)                                                        \
    __m256 c##i##0 = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + (i) * NR32); \
    __m256 c##i##1 = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + (i) * NR32 + 8)
#define UK32_STEP(i)                                         \
    a = _mm256_broadcast_ss(ap + (i));                       \
    c##i##0 = _mm256_add_ps(c##i##0, _mm256_mul_ps(a, b0));  \
    c##i##1 = _mm256_add_ps(c##i##1, _mm256_mul_ps(a, b1))
#define UK32_STORE(i)                                        \
    _mm256_storeu_ps(c + (i) * NR32, c##i##0);               \
    _mm256_storeu_ps(c + (i) * NR32 + 8, c##i##1)

__attribute__((target("avx2"))) static void uk_f32_avx2(int64_t kc, const void *apv, const void *bpv, void *cv,
                                                        bool first)
{
    const float *ap = apv, *bp = bpv;
    float *c = cv;
    UK32_LOAD(0);
    UK32_LOAD(1);
    UK32_LOAD(2);
    UK32_LOAD(3);
    UK32_LOAD(4);
    UK32_LOAD(5);
    for (int64_t kk = 0; kk < kc; kk++) {
        __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8);
        __m256 a;
        UK32_STEP(0);
        UK32_STEP(1);
        UK32_STEP(2);
        UK32_STEP(3);
        UK32_STEP(4);
        UK32_STEP(5);
        ap += MR32;
        bp += NR32;
    }
    UK32_STORE(0);
    UK32_STORE(1);
    UK32_STORE(2);
    UK32_STORE(3);
    UK32_STORE(4);
    UK32_STORE(5);
}

/* AVX2 f64: a 4 x 12 tile in 12 registers; multiply, then add. */
#define UK64_LOAD(i)                                                             \
    __m256d c##i##0 = first ? _mm256_setzero_pd() : _mm256_loadu_pd(c + (i) * NR64);     \
    __m256d c##i##1 = first ? _mm256_setzero_pd() : _mm256_loadu_pd(c + (i) * NR64 + 4); \
    __m256d c##i##2 = first ? _mm256_setzero_pd() : _mm256_loadu_pd(c + (i) * NR64 + 8)
#define UK64_STEP(i)                                         \
    a = _mm256_broadcast_sd(ap + (i));                       \
    c##i##0 = _mm256_add_pd(c##i##0, _mm256_mul_pd(a, b0));  \
    c##i##1 = _mm256_add_pd(c##i##1, _mm256_mul_pd(a, b1));  \
    c##i##2 = _mm256_add_pd(c##i##2, _mm256_mul_pd(a, b2))
#define UK64_STORE(i)                                        \
    _mm256_storeu_pd(c + (i) * NR64, c##i##0);               \
    _mm256_storeu_pd(c + (i) * NR64 + 4, c##i##1);           \
    _mm256_storeu_pd(c + (i) * NR64 + 8, c##i##2)

__attribute__((target("avx2"))) static void uk_f64_avx2(int64_t kc, const void *apv, const void *bpv, void *cv,
                                                        bool first)
{
    const double *ap = apv, *bp = bpv;
    double *c = cv;
    UK64_LOAD(0);
    UK64_LOAD(1);
    UK64_LOAD(2);
    UK64_LOAD(3);
    for (int64_t kk = 0; kk < kc; kk++) {
        __m256d b0 = _mm256_loadu_pd(bp), b1 = _mm256_loadu_pd(bp + 4), b2 = _mm256_loadu_pd(bp + 8);
        __m256d a;
        UK64_STEP(0);
        UK64_STEP(1);
        UK64_STEP(2);
        UK64_STEP(3);
        ap += MR64;
        bp += NR64;
    }
    UK64_STORE(0);
    UK64_STORE(1);
    UK64_STORE(2);
    UK64_STORE(3);
}
#endif

static ukernel_fn pick_ukernel(bool f32)
{
#if DOT_HAVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return f32 ? uk_f32_avx2 : uk_f64_avx2;
#endif
    return f32 ? uk_f32_c : uk_f64_c;
}

static inline size_t gemm_esize(const struct gemm *g)
{
    return g->f32 ? sizeof(float) : sizeof(double);
}

/* Packs rows r0..r0+nr (nr <= W) of operand op into a W-wide panel. */
static void pack_panel(const struct gemm *g, void *dst, int W, const struct gemm_operand *op, int64_t boff,
                       int64_t r0, int nr, int64_t k0, int64_t kc)
{
    if (g->f32) pack_panel_f32(dst, W, op, boff, r0, nr, k0, kc);
    else pack_panel_f64(dst, W, op, boff, r0, nr, k0, kc);
}

/* Packs columns jc+j0..jc+j1 (j0 a multiple of nr), k range pc..pc+kc of the
 * rhs into nr-wide panels at their place in the block buffer. */
static void pack_b_range(const struct gemm *g, void *bbuf, int64_t boff, int64_t jc, int64_t j0, int64_t j1,
                         int64_t pc, int64_t kc)
{
    const struct gemm_operand *op = &g->b;
    size_t es = gemm_esize(g);
    int64_t full = 0;
    if (g->f32 && g->b_n_unit && op->k_stride != NO_STRIDE && op->k_stride != 1 &&
        (op->dt == BASE_DT_BF16 || op->dt == BASE_DT_F32)) {
        full = (j1 - j0) / NR32;
        int64_t start = boff + op->off_r[jc + j0] + pc * op->k_stride;
        float *dst = (float *)bbuf + (j0 / NR32) * kc * NR32;
        if (op->dt == BASE_DT_BF16)
            pack_b_rows_bf16(dst, (const uint16_t *)op->data + start, op->k_stride, kc, full);
        else
            pack_b_rows_f32(dst, (const float *)op->data + start, op->k_stride, kc, full);
    }
    for (int64_t jr = j0 + full * g->nr; jr < j1; jr += g->nr) {
        int nr = (int)(j1 - jr < g->nr ? j1 - jr : g->nr);
        pack_panel(g, (char *)bbuf + (size_t)((jr / g->nr) * kc * g->nr) * es, g->nr, op, boff, jc + jr, nr, pc,
                   kc);
    }
}

/* rhs panels packed together, just before their first use, so that they are
 * still in cache when the micro-kernel reads them (8 x 16 x KC floats). */
#define B_GROUP_PANELS 8

/* Writes the finished tile at (row0, col0) of batch b to the result,
 * rounding each sum once (integer results: exact sums wrapped to the result
 * width); edge tiles write only their rows and columns inside the result. */
static void store_tile(const struct gemm *g, int64_t b, int64_t row0, int64_t col0, const void *tile)
{
    struct base_tensor *t = g->out;
    int rows = (int)(g->m - row0 < g->mr ? g->m - row0 : g->mr);
    int cnt = (int)(g->n - col0 < g->nr ? g->n - col0 : g->nr);
    for (int r = 0; r < rows; r++) {
        int64_t o = (b * g->m + row0 + r) * g->n + col0;
        if (g->f32) {
            const float *row = (const float *)tile + r * g->nr;
            switch (t->dtype) {
            case BASE_DT_F32:
                memcpy((float *)t->data + o, row, (size_t)cnt * sizeof *row);
                break;
            case BASE_DT_BF16:
                for (int j = 0; j < cnt; j++) ((uint16_t *)t->data)[o + j] = interp_acc_bf16_from_f32(row[j]);
                break;
            default:
                for (int j = 0; j < cnt; j++) interp_acc_st_f32(t->dtype, t->data, o + j, row[j]);
                break;
            }
        } else {
            const double *row = (const double *)tile + r * g->nr;
            if (t->dtype == BASE_DT_F64) memcpy((double *)t->data + o, row, (size_t)cnt * sizeof *row);
            else if (base_dtype_is_float(t->dtype))
                for (int j = 0; j < cnt; j++) base_elem_set_f64(t->dtype, t->data, (size_t)(o + j), row[j]);
            else
                for (int j = 0; j < cnt; j++) base_elem_set_i64(t->dtype, t->data, (size_t)(o + j), (int64_t)row[j]);
        }
    }
}

/* Computes batches [b0, b1), rows [m0, m1) and columns [n0, n1) of g. */
static void gemm_part(const struct gemm *g, int64_t b0, int64_t b1, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                      void *abuf, void *bbuf, void *tbuf)
{
    const int64_t mr = g->mr, nr = g->nr;
    const size_t es = gemm_esize(g), tile = (size_t)(mr * nr) * es;
    int64_t mt = (g->m + mr - 1) / mr, nt = (g->n + nr - 1) / nr;
    char *ab = abuf, *bb = bbuf;
    for (int64_t b = b0; b < b1; b++) {
        char *cb = g->c ? (char *)g->c + (size_t)(b * mt * nt) * tile : NULL;
        for (int64_t jc = n0; jc < n1; jc += NC) {
            int64_t nc = n1 - jc < NC ? n1 - jc : NC;
            for (int64_t pc = 0; pc < g->k; pc += KC) {
                int64_t kc = g->k - pc < KC ? g->k - pc : KC;
                int64_t packed = 0; /* columns of this block packed so far */
                for (int64_t ic = m0; ic < m1; ic += MC) {
                    int64_t mc = m1 - ic < MC ? m1 - ic : MC;
                    for (int64_t ir = 0; ir < mc; ir += mr) {
                        int rows = (int)(mc - ir < mr ? mc - ir : mr);
                        pack_panel(g, ab + (size_t)((ir / mr) * kc * mr) * es, (int)mr, &g->a, g->a.off_b[b], ic + ir,
                                   rows, pc, kc);
                    }
                    /* C tiles are stored tile-major, column of tiles by column
                     * of tiles, so consecutive ir touch consecutive memory;
                     * edge tiles are padded, their extra entries unused */
                    for (int64_t jr = 0; jr < nc; jr += nr) {
                        if (jr >= packed) {
                            int64_t end = jr + B_GROUP_PANELS * nr < nc ? jr + B_GROUP_PANELS * nr : nc;
                            pack_b_range(g, bb, g->b.off_b[b], jc, jr, end, pc, kc);
                            packed = end;
                        }
                        const char *bp = bb + (size_t)((jr / nr) * kc * nr) * es;
                        char *ct = cb ? cb + (size_t)(((jc + jr) / nr) * mt + ic / mr) * tile : tbuf;
                        for (int64_t ir = 0; ir < mc; ir += mr, ct += cb ? tile : 0) {
                            g->uk(kc, ab + (size_t)((ir / mr) * kc * mr) * es, bp, ct, pc == 0);
                            /* the last k block: round and store while the tile is hot */
                            if (pc + kc == g->k) store_tile(g, b, ic + ir, jc + jr, ct);
                        }
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
    size_t es = gemm_esize(w->g);
    void *abuf = aligned_alloc(64, (size_t)MC * KC * es + (size_t)MR32 * NR32 * sizeof(double));
    void *bbuf = aligned_alloc(64, (size_t)NC * KC * es);
    w->ok = abuf && bbuf;
    /* the tile scratch (used when g->c is NULL) follows the lhs panels */
    if (w->ok) gemm_part(w->g, w->b0, w->b1, w->m0, w->m1, w->n0, w->n1, abuf, bbuf, (char *)abuf + (size_t)MC * KC * es);
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
        int64_t panels = (g->m + g->mr - 1) / g->mr;
        for (int i = 0; i < t; i++) {
            int64_t p0 = panels * i / t, p1 = panels * (i + 1) / t;
            int64_t m0 = p0 * g->mr, m1 = p1 * g->mr < g->m ? p1 * g->mr : g->m;
            w[nw] = (struct gemm_worker){g, 0, g->nb, m0, m1, 0, g->n, false};
            if (m1 > m0) nw++;
        }
    } else if (t > 1) {
        int64_t panels = (g->n + g->nr - 1) / g->nr;
        for (int i = 0; i < t; i++) {
            int64_t p0 = panels * i / t, p1 = panels * (i + 1) / t;
            int64_t n0 = p0 * g->nr, n1 = p1 * g->nr < g->n ? p1 * g->nr : g->n;
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

/* Problems smaller than this (multiply-adds) use the naive loop. */
#define GEMM_MIN_MACS 4096

static enum base_status gemm_dot(const struct dot_problem *dp, const struct base_tensor *l,
                                 const struct base_tensor *r, struct base_tensor *out, bool f32)
{
    struct gemm g = {
        .a = {l->dtype, l->data, dp->a_off_b, dp->a_off_m, dp->a_off_k, linear_stride(dp->a_off_k, dp->k)},
        .b = {r->dtype, r->data, dp->b_off_b, dp->b_off_n, dp->b_off_k, linear_stride(dp->b_off_k, dp->k)},
        .nb = dp->nb,
        .m = dp->m,
        .n = dp->n,
        .k = dp->k,
        .f32 = f32,
        .mr = f32 ? MR32 : MR64,
        .nr = f32 ? NR32 : NR64,
        .uk = pick_ukernel(f32),
        .b_n_unit = linear_stride(dp->b_off_n, dp->n) == 1,
        .out = out,
    };
    int64_t tiles = dp->nb * ((dp->m + g.mr - 1) / g.mr) * ((dp->n + g.nr - 1) / g.nr);
    /* every tile is written by the first k block (k > 0 here); with a single
     * k block each tile is finished at once and lives in a scratch tile */
    if (dp->k > KC) {
        g.c = malloc((size_t)(tiles * g.mr * g.nr) * gemm_esize(&g));
        if (!g.c) return BASE_ERR_NOMEM;
    }
    enum base_status st = gemm_run(&g);
    free(g.c);
    return st;
}

/* Magnitude bits of an integer type's values: |v| <= 2^bits. */
static int int_mag_bits(enum base_dtype dt)
{
    int w = base_dtype_bits(dt);
    return base_dtype_kind(dt) == BASE_KIND_SINT ? w - 1 : w;
}

/* Integer products whose every partial sum is an integer below 2^53 are
 * computed exactly by the f64 GEMM, so it can stand in for the 64-bit
 * wrapping loop (int8 x int8 -> int32 and the like). */
static bool int_sums_exact(const struct dot_problem *dp, enum base_dtype a, enum base_dtype b)
{
    int kbits = 0;
    while (kbits < 63 && (INT64_C(1) << kbits) <= dp->k) kbits++;
    return int_mag_bits(a) + int_mag_bits(b) + kbits <= 53;
}

/* Computes the product described by dp into out (already shaped). */
static enum base_status dot_compute(const struct dot_problem *dp, const struct base_tensor *l,
                                    const struct base_tensor *r, struct base_tensor *out)
{
    enum acc_kind kind = acc_kind_for(out->dtype, l->dtype, r->dtype);
    if (dp->nb * dp->m * dp->n * dp->k >= GEMM_MIN_MACS) {
        if (kind == ACC_F32) return gemm_dot(dp, l, r, out, true);
        if (kind == ACC_F64 && out->dtype == BASE_DT_F64) return gemm_dot(dp, l, r, out, false);
        if (kind == ACC_I64 && base_dtype_kind(l->dtype) != BASE_KIND_BOOL &&
            base_dtype_kind(r->dtype) != BASE_KIND_BOOL && int_sums_exact(dp, l->dtype, r->dtype))
            return gemm_dot(dp, l, r, out, false);
    }
    naive_dot(dp, kind, l, r, out);
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

/* ------------------------------------------------------------------------ */
/* Target precision (interp_options.matmul)                                  */

int interp_dot_precision_level(const struct graph_op *op, int default_level)
{
    const struct graph_attr *alg = op->kind == GRAPH_OP_DOT_GENERAL ? graph_op_attr(op, "algorithm") : NULL;
    if (alg && alg->kind == GRAPH_ATTR_DICT && alg->u.dict.n > 0) {
        const struct graph_attr *lt = graph_dict_get(alg, "lhs_precision_type");
        const struct graph_attr *rt = graph_dict_get(alg, "rhs_precision_type");
        int64_t c[3] = {1, 1, 1};
        static const char *const counts[3] = {"lhs_component_count", "rhs_component_count", "num_primitive_operations"};
        for (int i = 0; i < 3; i++) {
            const struct graph_attr *a = graph_dict_get(alg, counts[i]);
            if (a) (void)graph_attr_as_i64(a, &c[i]);
        }
        bool bf16 = lt && rt && graph_attr_is_keyword(lt, "bf16") && graph_attr_is_keyword(rt, "bf16");
        bool wide = lt && rt &&
                    ((graph_attr_is_keyword(lt, "f32") && graph_attr_is_keyword(rt, "f32")) ||
                     (graph_attr_is_keyword(lt, "f16") && graph_attr_is_keyword(rt, "f16")));
        if (bf16 && c[0] == 1 && c[1] == 1 && c[2] == 1) return 0;
        if (bf16 && c[0] == 3 && c[1] == 3 && c[2] == 3) return 1;
        if ((bf16 && c[0] == 3 && c[1] == 3 && c[2] == 6) || (wide && c[0] == 1 && c[1] == 1 && c[2] == 1)) return 2;
    }
    int level = 0;
    const struct graph_attr *pc = graph_op_attr(op, "precision_config");
    if (pc && pc->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < pc->u.array.n; i++) {
            if (graph_attr_is_keyword(pc->u.array.items[i], "HIGHEST")) level = 2;
            else if (graph_attr_is_keyword(pc->u.array.items[i], "HIGH") && level < 1) level = 1;
        }
    if (level == 0 && default_level > 0 && default_level <= 2) level = default_level;
    return level;
}

/* The bf16 passes a target multiplies this dot's operands in (0: none, the
 * spec's products). */
static int target_passes(const struct interp_proc *p, const struct graph_op *op, const struct base_tensor *l,
                         const struct base_tensor *r, const struct base_tensor *out)
{
    const struct interp_matmul_precision *mp = p->opt ? &p->opt->matmul : NULL;
    if (!mp || !mp->emulate || p->dequant_mode) return 0;
    const enum base_dtype dts[3] = {l->dtype, r->dtype, out->dtype};
    bool split = false;
    for (int i = 0; i < 3; i++) {
        enum base_dtype dt = dts[i];
        if (dt != BASE_DT_F32 && dt != BASE_DT_F16 && dt != BASE_DT_BF16) return 0;
        if (i < 2 && (dt == BASE_DT_F32 || (dt == BASE_DT_F16 && mp->f16_passes))) split = true;
    }
    if (!split) return 0;
    int n = mp->passes[interp_dot_precision_level(op, mp->default_level)];
    return n == 1 || n == 3 || n == 6 ? n : 0;
}

/* t's values split into nparts bf16 parts, each an f32 tensor of t's shape
 * (base_f32_bf16_parts); false when one is not finite and more than one part
 * is asked for (a target then adds the high product alone: the spec's f32
 * product is as close). */
static enum base_status split_parts(const struct base_tensor *t, int nparts, struct base_tensor **parts, bool *finite)
{
    *finite = true;
    for (int j = 0; j < nparts; j++) TRY(base_tensor_create(BASE_DT_F32, t->rank, t->dims, &parts[j]));
    for (int64_t i = 0; i < t->count; i++) {
        float v = (float)base_elem_get_f64(t->dtype, t->data, (size_t)i), pv[3];
        if (!isfinite(v) && nparts > 1) *finite = false;
        base_f32_bf16_parts(v, pv);
        for (int j = 0; j < nparts; j++) ((float *)parts[j]->data)[i] = pv[j];
    }
    return BASE_OK;
}

/* out = sum over the passes of parts(l)[a] . parts(r)[b], as a TPU's arrays
 * compute f32 products (sim/exec_matmul.c): every product of bf16 parts is
 * exact in f32 and summed in f32.  The passes are summed one after the other
 * here, one k at a time on the chip: the orders differ by f32 rounding. */
static enum base_status dot_passes(const struct dot_problem *dp, int passes, const struct base_tensor *l,
                                   const struct base_tensor *r, struct base_tensor *out, bool *done)
{
    static const uint8_t plan[6][2] = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {2, 0}};
    int nparts = passes == 6 ? 3 : passes == 3 ? 2 : 1;
    struct base_tensor *lp[3] = {0}, *rp[3] = {0}, *acc = NULL, *tmp = NULL;
    bool lf = true, rf = true;
    enum base_status st = split_parts(l, nparts, lp, &lf);
    if (st == BASE_OK) st = split_parts(r, nparts, rp, &rf);
    *done = st == BASE_OK && lf && rf;
    if (*done) st = base_tensor_create(BASE_DT_F32, out->rank, out->dims, &acc);
    if (*done && st == BASE_OK && passes > 1) st = base_tensor_create(BASE_DT_F32, out->rank, out->dims, &tmp);
    for (int j = 0; *done && st == BASE_OK && j < passes; j++) {
        struct base_tensor *dst = j == 0 ? acc : tmp;
        st = dot_compute(dp, lp[plan[j][0]], rp[plan[j][1]], dst);
        if (st != BASE_OK || j == 0) continue;
        float *a = acc->data;
        const float *b = tmp->data;
        for (int64_t i = 0; i < acc->count; i++) a[i] = a[i] + b[i];
    }
    if (*done && st == BASE_OK)
        for (int64_t i = 0; i < out->count; i++)
            base_elem_set_f64(out->dtype, out->data, (size_t)i, ((const float *)acc->data)[i]);
    for (int j = 0; j < 3; j++) {
        base_tensor_release(lp[j]);
        base_tensor_release(rp[j]);
    }
    base_tensor_release(acc);
    base_tensor_release(tmp);
    return st;
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
        int passes = target_passes(p, op, l, r, t);
        bool done = false;
        if (passes) st = dot_passes(&dp, passes, l, r, t, &done);
        if (st == BASE_OK && !done) st = dot_compute(&dp, l, r, t);
        if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
    }
    dot_problem_free(&dp);
    if (st != BASE_OK) {
        base_tensor_release(t);
        return st;
    }
    return interp_set_out(p, op, out, 0, t);
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
    int nlb = interp_i64_list(graph_dict_get(dn, "lhs_batching_dimensions"), lb, BASE_MAX_RANK);
    int nrb = interp_i64_list(graph_dict_get(dn, "rhs_batching_dimensions"), rb, BASE_MAX_RANK);
    int nlc = interp_i64_list(graph_dict_get(dn, "lhs_contracting_dimensions"), lc, BASE_MAX_RANK);
    int nrc = interp_i64_list(graph_dict_get(dn, "rhs_contracting_dimensions"), rc, BASE_MAX_RANK);
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
    int nlb = interp_i64_list(graph_dict_get(dn, "lhs_batching_dimensions"), rg->lb, BASE_MAX_RANK);
    int nrb = interp_i64_list(graph_dict_get(dn, "rhs_batching_dimensions"), rg->rb, BASE_MAX_RANK);
    int nlc = interp_i64_list(graph_dict_get(dn, "lhs_contracting_dimensions"), rg->lc, BASE_MAX_RANK);
    int nrc = interp_i64_list(graph_dict_get(dn, "rhs_contracting_dimensions"), rg->rc, BASE_MAX_RANK);
    int nrd = interp_i64_list(graph_dict_get(dn, "lhs_ragged_dimensions"), rd, BASE_MAX_RANK);
    int ngd = interp_i64_list(graph_dict_get(dn, "rhs_group_dimensions"), gd, BASE_MAX_RANK);
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
        float f32_re = 0.0f, f32_im = 0.0f;
        double f64_re = 0.0, f64_im = 0.0;
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
            int64_t li = interp_linear_from_index(l->rank, l->dims, lidx);
            int64_t ri = interp_linear_from_index(r->rank, r->dims, ridx);
            const void *a = l->data, *b = r->data;
            switch (kind) {
            case ACC_F32:
                f32_re = step_f32(f32_re, interp_acc_ld_f32(l->dtype, a, li), interp_acc_ld_f32(r->dtype, b, ri));
                break;
            case ACC_F64:
                f64_re = step_f64(f64_re, interp_acc_ld_f64(l->dtype, a, li), interp_acc_ld_f64(r->dtype, b, ri));
                break;
            case ACC_C64: {
                float xr, xi, yr, yi;
                interp_acc_ld_c64(l->dtype, a, li, &xr, &xi);
                interp_acc_ld_c64(r->dtype, b, ri, &yr, &yi);
                step_c64(&f32_re, &f32_im, xr, xi, yr, yi);
                break;
            }
            case ACC_C128: {
                double xr, xi, yr, yi;
                interp_acc_ld_c128(l->dtype, a, li, &xr, &xi);
                interp_acc_ld_c128(r->dtype, b, ri, &yr, &yi);
                step_c128(&f64_re, &f64_im, xr, xi, yr, yi);
                break;
            }
            case ACC_I64:
                iacc += interp_acc_ld_u(l->dtype, a, li) * interp_acc_ld_u(r->dtype, b, ri);
                break;
            case ACC_BOOL:
                bacc = bacc || (interp_acc_ld_u(l->dtype, a, li) && interp_acc_ld_u(r->dtype, b, ri));
                break;
            }
        }
        switch (kind) {
        case ACC_F32: interp_acc_st_f32(t->dtype, t->data, o, f32_re); break;
        case ACC_F64: base_elem_set_f64(t->dtype, t->data, (size_t)o, f64_re); break;
        case ACC_C64: base_elem_set_c128(t->dtype, t->data, (size_t)o, f32_re, f32_im); break;
        case ACC_C128: base_elem_set_c128(t->dtype, t->data, (size_t)o, f64_re, f64_im); break;
        case ACC_I64: base_elem_set_i64(t->dtype, t->data, (size_t)o, (int64_t)iacc); break;
        case ACC_BOOL: base_elem_set_i64(t->dtype, t->data, (size_t)o, bacc ? 1 : 0); break;
        }
    }
    return interp_set_out(p, op, out, 0, t);
}

void interp_register_dot(interp_kernel_fn *table)
{
    table[GRAPH_OP_DOT_GENERAL] = k_dot_general;
    table[GRAPH_OP_DOT] = k_dot;
    table[GRAPH_OP_CHLO_RAGGED_DOT] = k_ragged_dot;
}
