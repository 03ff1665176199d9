/* Golden interpreter: data-movement kernels (StableHLO spec semantics).
 *
 * reshape, bitcast_convert, broadcast(_in_dim), concatenate, slice, pad,
 * reverse, transpose, iota and their dynamic_* forms live here; gather,
 * scatter and torch_index_select in interp_shape_gather.c; sort and
 * chlo.top_k in interp_shape_sort.c.
 *
 * Almost everything funnels into interp_shape_copy(), a strided copy that
 * merges contiguous dimensions, copies contiguous runs with memcpy, fills
 * broadcast runs, and tiles transpositions so both sides stay in cache.
 */
#include "interp/interp_shape_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAXR GRAPH_MAX_RANK

/* ------------------------------------------------------------------------ */
/* Attributes and values                                                     */

int interp_shape_attr_list(const struct graph_op *op, const char *name, int64_t *out, int cap)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) return -1;
    return graph_attr_as_i64_list(a, out, cap);
}

bool interp_shape_attr_i64(const struct graph_op *op, const char *name, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    return a && graph_attr_as_i64(a, out);
}

int64_t interp_shape_index_at(const struct base_tensor *t, int64_t i)
{
    return base_elem_get_i64(t->dtype, t->data, (size_t)i);
}

/* Checks dims against result i's static type (dynamic dims match anything). */
static enum base_status check_result_shape(struct interp_proc *p, const struct graph_op *op, int i,
                                           int rank, const int64_t *dims)
{
    const struct graph_type *ty = interp_result_type(op, i);
    if (!ty || ty->kind != GRAPH_TYPE_TENSOR || ty->rank < 0) return BASE_OK;
    if (ty->rank != rank)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "result %d has rank %d, the operands give rank %d", i, ty->rank, rank);
    for (int d = 0; d < rank; d++)
        if (ty->dims[d] != GRAPH_DYN && ty->dims[d] != dims[d])
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "result %d dimension %d is %lld, the operands give %lld", i, d,
                               (long long)ty->dims[d], (long long)dims[d]);
    return BASE_OK;
}

enum base_status interp_shape_alloc(struct interp_proc *p, const struct graph_op *op, int i,
                                    int rank, const int64_t *dims, struct base_tensor **out)
{
    *out = NULL;
    TRY(check_result_shape(p, op, i, rank, dims));
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, i), rank, dims, out);
    if (st != BASE_OK)
        return interp_fail(p, op, st, "cannot allocate result %d: %s", i, base_status_str(st));
    return BASE_OK;
}

/* Operand i as a tensor, or a located error. */
static enum base_status operand(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, int i, struct base_tensor **t)
{
    if (i >= op->n_operands || !(*t = iv_t(in[i])))
        return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is missing or not a tensor", i);
    return BASE_OK;
}

/* The result element type must be the operand's (data movement never converts). */
static enum base_status check_same_dtype(struct interp_proc *p, const struct graph_op *op, int i,
                                         const struct base_tensor *x)
{
    enum base_dtype dt = interp_result_dtype(p, op, i);
    if (dt != x->dtype)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "result element type %s differs from operand's %s", base_dtype_name(dt),
                           base_dtype_name(x->dtype));
    return BASE_OK;
}

/* A list attribute that must be present with exactly n entries (n <= MAXR). */
static enum base_status attr_list_n(struct interp_proc *p, const struct graph_op *op,
                                    const char *name, int n, int64_t *out)
{
    int got = interp_shape_attr_list(op, name, out, MAXR);
    if (got != n)
        return interp_fail(p, op, BASE_ERR_VERIFY, "attribute %s must list %d values (got %d)",
                           name, n, got);
    return BASE_OK;
}

/* A 1-D integer tensor of exactly n entries, read into out. */
static enum base_status tensor_list_n(struct interp_proc *p, const struct graph_op *op,
                                      const struct base_tensor *t, const char *what, int n,
                                      int64_t *out)
{
    if (!base_dtype_is_int(t->dtype) || t->rank > 1 || t->count != n || n > MAXR)
        return interp_fail(p, op, BASE_ERR_VERIFY, "%s must be a 1-D integer tensor of %d values",
                           what, n);
    for (int i = 0; i < n; i++) out[i] = interp_shape_index_at(t, i);
    return BASE_OK;
}

/* A rank-0 (or single-element) integer tensor. */
static enum base_status scalar_index(struct interp_proc *p, const struct graph_op *op,
                                     const struct base_tensor *t, const char *what, int64_t *out)
{
    if (!base_dtype_is_int(t->dtype) || t->count != 1)
        return interp_fail(p, op, BASE_ERR_VERIFY, "%s must be a scalar integer tensor", what);
    *out = interp_shape_index_at(t, 0);
    return BASE_OK;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ------------------------------------------------------------------------ */
/* Copy engine                                                               */

void interp_shape_fill(size_t esz, void *dst, int64_t n, const void *val)
{
    if (n <= 0) return;
    char *d = dst;
    if (esz == 1) {
        memset(d, *(const unsigned char *)val, (size_t)n);
        return;
    }
    memcpy(d, val, esz);
    int64_t done = 1;
    while (done < n) {
        int64_t chunk = done < n - done ? done : n - done;
        memcpy(d + (size_t)done * esz, d, (size_t)chunk * esz);
        done += chunk;
    }
}

/* One run of n elements with byte strides; fixed-size memcpy compiles to plain
 * loads and stores without type punning. */
#define RUN_LOOP(SZ)                                                                               \
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * dsb, src + i * ssb, SZ)

static void copy_run(size_t esz, int64_t n, char *dst, int64_t ds, const char *src, int64_t ss)
{
    if (ds == 1 && ss == 1) {
        memcpy(dst, src, (size_t)n * esz);
        return;
    }
    if (ds == 1 && ss == 0) {
        interp_shape_fill(esz, dst, n, src);
        return;
    }
    int64_t dsb = ds * (int64_t)esz, ssb = ss * (int64_t)esz;
    switch (esz) {
    case 1: RUN_LOOP(1); break;
    case 2: RUN_LOOP(2); break;
    case 4: RUN_LOOP(4); break;
    case 8: RUN_LOOP(8); break;
    case 16: RUN_LOOP(16); break;
    default:
        for (int64_t i = 0; i < n; i++) memcpy(dst + i * dsb, src + i * ssb, esz);
    }
}

/* dst[b * dsb + a] = src[b + a * ssa] for b < nb, a < na (element strides):
 * a transposition, done in square tiles so the tile's source and destination
 * lines both stay in cache.  Within a tile, 2- and 4-byte elements go through
 * SSE2 register transposes of 8x8 / 4x4 blocks where available. */
#define SCALAR_BLOCK(SZ, B0, B1, A0, A1)                                                           \
    for (int64_t bb = (B0); bb < (B1); bb++) {                                                     \
        char *dr = dst + (size_t)(bb * dsb) * SZ;                                                  \
        const char *sc = src + (size_t)bb * SZ;                                                    \
        for (int64_t aa = (A0); aa < (A1); aa++)                                                   \
            memcpy(dr + (size_t)aa * SZ, sc + (size_t)(aa * ssa) * SZ, SZ);                        \
    }

#if defined(__SSE2__)
#include <emmintrin.h>
#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
/* 8x8 block of 16-bit elements; strides in bytes. */
static inline void block_2(char *d, int64_t dsb, const char *s, int64_t ssa)
{
    __m128i r0 = LD(s), r1 = LD(s + ssa), r2 = LD(s + 2 * ssa), r3 = LD(s + 3 * ssa);
    __m128i r4 = LD(s + 4 * ssa), r5 = LD(s + 5 * ssa), r6 = LD(s + 6 * ssa), r7 = LD(s + 7 * ssa);
    __m128i t0 = _mm_unpacklo_epi16(r0, r1), t1 = _mm_unpackhi_epi16(r0, r1);
    __m128i t2 = _mm_unpacklo_epi16(r2, r3), t3 = _mm_unpackhi_epi16(r2, r3);
    __m128i t4 = _mm_unpacklo_epi16(r4, r5), t5 = _mm_unpackhi_epi16(r4, r5);
    __m128i t6 = _mm_unpacklo_epi16(r6, r7), t7 = _mm_unpackhi_epi16(r6, r7);
    __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
    __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
    __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
    __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
    ST(d, _mm_unpacklo_epi64(u0, u4));
    ST(d + dsb, _mm_unpackhi_epi64(u0, u4));
    ST(d + 2 * dsb, _mm_unpacklo_epi64(u1, u5));
    ST(d + 3 * dsb, _mm_unpackhi_epi64(u1, u5));
    ST(d + 4 * dsb, _mm_unpacklo_epi64(u2, u6));
    ST(d + 5 * dsb, _mm_unpackhi_epi64(u2, u6));
    ST(d + 6 * dsb, _mm_unpacklo_epi64(u3, u7));
    ST(d + 7 * dsb, _mm_unpackhi_epi64(u3, u7));
}
/* 4x4 block of 32-bit elements. */
static inline void block_4(char *d, int64_t dsb, const char *s, int64_t ssa)
{
    __m128i r0 = LD(s), r1 = LD(s + ssa), r2 = LD(s + 2 * ssa), r3 = LD(s + 3 * ssa);
    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpackhi_epi32(r0, r1);
    __m128i t2 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
    ST(d, _mm_unpacklo_epi64(t0, t2));
    ST(d + dsb, _mm_unpackhi_epi64(t0, t2));
    ST(d + 2 * dsb, _mm_unpacklo_epi64(t1, t3));
    ST(d + 3 * dsb, _mm_unpackhi_epi64(t1, t3));
}
#define DEF_TRANSPOSE_SIMD(NAME, SZ, TILE, MB)                                                     \
    static void NAME(int64_t nb, int64_t na, char *dst, int64_t dsb, const char *src, int64_t ssa) \
    {                                                                                              \
        for (int64_t b0 = 0; b0 < nb; b0 += TILE) {                                                \
            int64_t b1 = b0 + TILE < nb ? b0 + TILE : nb;                                          \
            for (int64_t a0 = 0; a0 < na; a0 += TILE) {                                            \
                int64_t a1 = a0 + TILE < na ? a0 + TILE : na, b = b0, a;                           \
                for (; b + MB <= b1; b += MB) {                                                    \
                    for (a = a0; a + MB <= a1; a += MB)                                            \
                        block_##SZ(dst + (size_t)(b * dsb + a) * SZ, dsb * SZ,                     \
                                   src + (size_t)(b + a * ssa) * SZ, ssa * SZ);                    \
                    SCALAR_BLOCK(SZ, b, b + MB, a, a1)                                             \
                }                                                                                  \
                SCALAR_BLOCK(SZ, b, b1, a0, a1)                                                    \
            }                                                                                      \
        }                                                                                          \
    }
DEF_TRANSPOSE_SIMD(transpose_2, 2, 128, 8)
DEF_TRANSPOSE_SIMD(transpose_4, 4, 64, 4)
#endif

#define DEF_TRANSPOSE(NAME, SZ, TILE)                                                              \
    static void NAME(int64_t nb, int64_t na, char *dst, int64_t dsb, const char *src, int64_t ssa) \
    {                                                                                              \
        for (int64_t b0 = 0; b0 < nb; b0 += TILE) {                                                \
            int64_t b1 = b0 + TILE < nb ? b0 + TILE : nb;                                          \
            for (int64_t a0 = 0; a0 < na; a0 += TILE) {                                            \
                int64_t a1 = a0 + TILE < na ? a0 + TILE : na;                                      \
                SCALAR_BLOCK(SZ, b0, b1, a0, a1)                                                   \
            }                                                                                      \
        }                                                                                          \
    }
DEF_TRANSPOSE(transpose_1, 1, 64)
#if !defined(__SSE2__)
DEF_TRANSPOSE(transpose_2, 2, 64)
DEF_TRANSPOSE(transpose_4, 4, 32)
#endif
DEF_TRANSPOSE(transpose_8, 8, 32)
DEF_TRANSPOSE(transpose_16, 16, 16)

static void transpose_tiles(size_t esz, int64_t nb, int64_t na, char *dst, int64_t dsb,
                            const char *src, int64_t ssa)
{
    switch (esz) {
    case 1: transpose_1(nb, na, dst, dsb, src, ssa); break;
    case 2: transpose_2(nb, na, dst, dsb, src, ssa); break;
    case 4: transpose_4(nb, na, dst, dsb, src, ssa); break;
    case 8: transpose_8(nb, na, dst, dsb, src, ssa); break;
    case 16: transpose_16(nb, na, dst, dsb, src, ssa); break;
    default:
        for (int64_t b = 0; b < nb; b++)
            for (int64_t a = 0; a < na; a++)
                memcpy(dst + (size_t)(b * dsb + a) * esz, src + (size_t)(b + a * ssa) * esz, esz);
    }
}

/* Drops size-1 dims and merges neighbours that are contiguous on both sides. */
static int coalesce(int rank, const int64_t *dims, const int64_t *ds, const int64_t *ss,
                    int64_t *od, int64_t *ods, int64_t *oss)
{
    int n = 0;
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 1) continue;
        if (n > 0 && ods[n - 1] == ds[i] * dims[i] && oss[n - 1] == ss[i] * dims[i]) {
            od[n - 1] *= dims[i];
            ods[n - 1] = ds[i];
            oss[n - 1] = ss[i];
        } else {
            od[n] = dims[i];
            ods[n] = ds[i];
            oss[n] = ss[i];
            n++;
        }
    }
    return n;
}

void interp_shape_copy(size_t esz, int rank, const int64_t *dims, void *dst,
                       const int64_t *dst_strides, const void *src, const int64_t *src_strides)
{
    for (int i = 0; i < rank; i++)
        if (dims[i] <= 0) return;
    int64_t od[MAXR], ods[MAXR], oss[MAXR];
    int n = coalesce(rank, dims, dst_strides, src_strides, od, ods, oss);
    char *d = dst;
    const char *s = src;
    if (n == 0) {
        memcpy(d, s, esz);
        return;
    }
    int last = n - 1;

    /* A transposition: the destination runs along `last`, the source along b. */
    int b = -1;
    if (n >= 2 && ods[last] == 1 && oss[last] != 1 && oss[last] != 0 && od[last] >= 4)
        for (int i = 0; i < last; i++)
            if (oss[i] == 1 && ods[i] != 0 && od[i] >= 4) b = i;
    if (b >= 0) {
        int64_t xd[MAXR], xds[MAXR], xss[MAXR], idx[MAXR] = {0};
        int m = 0;
        for (int i = 0; i < last; i++)
            if (i != b) {
                xd[m] = od[i];
                xds[m] = ods[i] * (int64_t)esz;
                xss[m] = oss[i] * (int64_t)esz;
                m++;
            }
        for (;;) {
            transpose_tiles(esz, od[b], od[last], d, ods[b], s, oss[last]);
            int k = m - 1;
            for (; k >= 0; k--) {
                idx[k]++;
                d += xds[k];
                s += xss[k];
                if (idx[k] < xd[k]) break;
                d -= xds[k] * xd[k];
                s -= xss[k] * xd[k];
                idx[k] = 0;
            }
            if (k < 0) return;
        }
    }

    int64_t idx[MAXR] = {0}, dsb[MAXR], ssb[MAXR];
    for (int i = 0; i < last; i++) {
        dsb[i] = ods[i] * (int64_t)esz;
        ssb[i] = oss[i] * (int64_t)esz;
    }
    for (;;) {
        copy_run(esz, od[last], d, ods[last], s, oss[last]);
        int k = last - 1;
        for (; k >= 0; k--) {
            idx[k]++;
            d += dsb[k];
            s += ssb[k];
            if (idx[k] < od[k]) break;
            d -= dsb[k] * od[k];
            s -= ssb[k] * od[k];
            idx[k] = 0;
        }
        if (k < 0) return;
    }
}

/* ------------------------------------------------------------------------ */
/* Regions                                                                   */

int interp_shape_region_returns_arg(const struct graph_region *r)
{
    if (!r || r->n_blocks != 1) return -1;
    const struct graph_block *b = &r->blocks[0];
    const struct graph_op *term = graph_block_terminator(b);
    if (!term || b->n_ops != 1 || term->n_operands != 1) return -1;
    const struct graph_value *v = term->operands[0];
    if (v->def || v->block != b) return -1;
    return v->index;
}

void interp_shape_args_init(struct interp_shape_args *a, int n, const enum base_dtype *dt)
{
    a->n = n < INTERP_SHAPE_MAX_ARGS ? n : INTERP_SHAPE_MAX_ARGS;
    for (int i = 0; i < a->n; i++) {
        a->dt[i] = dt[i];
        a->v[i] = NULL;
    }
}

enum base_status interp_shape_args_set(struct interp_shape_args *a, int i, enum base_dtype src_dt,
                                       const void *src, int64_t si)
{
    struct interp_value *v = a->v[i];
    /* Reuse the slot's scalar only when nobody else (an environment, a result)
     * still holds it: tensors are immutable once shared. */
    if (!v || v->refs != 1 || v->t->refs != 1) {
        interp_value_release(v);
        a->v[i] = NULL;
        struct base_tensor *t;
        TRY(base_tensor_create(a->dt[i], 0, NULL, &t));
        v = interp_value_tensor(t);
        if (!v) return BASE_ERR_NOMEM;
        a->v[i] = v;
    }
    size_t sz = base_dtype_size(src_dt);
    const char *e = (const char *)src + (size_t)si * sz;
    if (src_dt == a->dt[i])
        memcpy(v->t->data, e, sz);
    else
        base_convert(a->dt[i], v->t->data, src_dt, e, 1);
    return BASE_OK;
}

void interp_shape_args_deinit(struct interp_shape_args *a)
{
    for (int i = 0; i < a->n; i++) {
        interp_value_release(a->v[i]);
        a->v[i] = NULL;
    }
    a->n = 0;
}

/* ------------------------------------------------------------------------ */
/* reshape, dynamic_reshape                                                  */

static enum base_status reshape_to(struct interp_proc *p, const struct graph_op *op,
                                   struct base_tensor *x, int rank, const int64_t *dims,
                                   struct interp_value **out)
{
    TRY(check_same_dtype(p, op, 0, x));
    TRY(check_result_shape(p, op, 0, rank, dims));
    int64_t n = base_shape_count(rank, dims);
    if (n != x->count)
        return interp_fail(p, op, BASE_ERR_VERIFY, "reshape of %lld elements to a shape of %lld",
                           (long long)x->count, (long long)n);
    struct base_tensor *r;
    enum base_status st = base_tensor_reshape(x, rank, dims, &r); /* shares the storage */
    if (st != BASE_OK) return interp_fail(p, op, st, "reshape failed: %s", base_status_str(st));
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_reshape(struct interp_proc *p, const struct graph_op *op,
                                  struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    const struct graph_type *ty = interp_result_type(op, 0);
    if (!ty || ty->kind != GRAPH_TYPE_TENSOR || ty->rank < 0)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "reshape to an unranked type");
    int64_t dims[MAXR];
    int dyn = -1;
    int64_t known = 1;
    for (int d = 0; d < ty->rank; d++) {
        dims[d] = ty->dims[d];
        if (dims[d] == GRAPH_DYN) {
            if (dyn >= 0)
                return interp_fail(p, op, BASE_ERR_UNSUPPORTED,
                                   "reshape to a type with several dynamic dimensions");
            dyn = d;
        } else {
            known *= dims[d];
        }
    }
    if (dyn >= 0) dims[dyn] = known ? x->count / known : 0;
    return reshape_to(p, op, x, ty->rank, dims, out);
}

static enum base_status k_dynamic_reshape(struct interp_proc *p, const struct graph_op *op,
                                          struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x, *shape;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &shape));
    int64_t dims[MAXR];
    int rank = (int)shape->count;
    TRY(tensor_list_n(p, op, shape, "output_shape", rank, dims));
    return reshape_to(p, op, x, rank, dims, out);
}

/* ------------------------------------------------------------------------ */
/* bitcast_convert                                                           */

static void bits_put(uint8_t *buf, uint64_t pos, int nbits, uint64_t v)
{
    for (int k = 0; k < nbits; k++)
        if ((v >> k) & 1)
            buf[(pos + (uint64_t)k) >> 3] |= (uint8_t)(1u << ((pos + (uint64_t)k) & 7));
}

static uint64_t bits_get(const uint8_t *buf, uint64_t pos, int nbits)
{
    uint64_t v = 0;
    for (int k = 0; k < nbits; k++)
        if ((buf[(pos + (uint64_t)k) >> 3] >> ((pos + (uint64_t)k) & 7)) & 1) v |= UINT64_C(1) << k;
    return v;
}

static enum base_status k_bitcast_convert(struct interp_proc *p, const struct graph_op *op,
                                          struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    enum base_dtype rdt = interp_result_dtype(p, op, 0);
    int sb = base_dtype_bits(x->dtype), rb = base_dtype_bits(rdt);
    if (base_dtype_is_complex(x->dtype) != base_dtype_is_complex(rdt))
        return interp_fail(p, op, BASE_ERR_VERIFY, "bitcast between complex and non-complex types");
    int64_t dims[MAXR];
    int rank = x->rank;
    memcpy(dims, x->dims, sizeof dims);
    if (rb < sb) {
        if (rank >= MAXR || sb % rb)
            return interp_fail(p, op, BASE_ERR_VERIFY, "bitcast %s -> %s: widths do not divide",
                               base_dtype_name(x->dtype), base_dtype_name(rdt));
        dims[rank++] = sb / rb;
    } else if (rb > sb) {
        if (rank < 1 || rb % sb || x->dims[rank - 1] != rb / sb)
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "bitcast %s -> %s needs a last dimension of %d",
                               base_dtype_name(x->dtype), base_dtype_name(rdt), rb / (sb ? sb : 1));
        rank--;
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, rank, dims, &r));
    size_t xs = base_dtype_size(x->dtype), rs = base_dtype_size(r->dtype);
    bool x_bytes = (size_t)sb == 8 * xs, r_bytes = (size_t)rb == 8 * rs;
    if (x_bytes && r_bytes) {
        memcpy(r->data, x->data, base_tensor_nbytes(r)); /* little-endian bytes: same stream */
    } else {
        /* Sub-byte types: go through a packed little-endian bit stream. */
        uint64_t total = (uint64_t)x->count * (uint64_t)sb;
        uint8_t *buf = calloc((size_t)(total / 8 + 1), 1);
        if (!buf) {
            base_tensor_release(r);
            return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        }
        for (int64_t i = 0; i < x->count; i++) {
            uint64_t pos = (uint64_t)i * (uint64_t)sb;
            if (x_bytes)
                memcpy(buf + pos / 8, (const char *)x->data + (size_t)i * xs, xs);
            else
                bits_put(buf, pos, sb, base_elem_get_bits(x->dtype, x->data, (size_t)i));
        }
        for (int64_t i = 0; i < r->count; i++) {
            uint64_t pos = (uint64_t)i * (uint64_t)rb;
            if (r_bytes)
                memcpy((char *)r->data + (size_t)i * rs, buf + pos / 8, rs);
            else
                base_elem_set_bits(r->dtype, r->data, (size_t)i, bits_get(buf, pos, rb));
        }
        free(buf);
    }
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* broadcast_in_dim, broadcast, dynamic_broadcast_in_dim                      */

/* result[i] = x[j], j[k] = x.dims[k] == 1 ? 0 : i[bdims[k]]. */
static enum base_status broadcast_to(struct interp_proc *p, const struct graph_op *op,
                                     struct base_tensor *x, int rrank, const int64_t *rdims,
                                     const int64_t *bdims, struct interp_value **out)
{
    TRY(check_same_dtype(p, op, 0, x));
    int64_t xst[MAXR], ss[MAXR] = {0}, rst[MAXR];
    bool used[MAXR] = {false};
    base_shape_strides(x->rank, x->dims, xst);
    for (int k = 0; k < x->rank; k++) {
        int64_t r = bdims[k];
        if (r < 0 || r >= rrank || used[r])
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "broadcast_dimensions[%d] = %lld is out of range or repeated", k,
                               (long long)r);
        used[r] = true;
        if (x->dims[k] != 1 && x->dims[k] != rdims[r])
            return interp_fail(
                p, op, BASE_ERR_VERIFY,
                "operand dimension %d (%lld) is neither 1 nor result dimension %lld (%lld)", k,
                (long long)x->dims[k], (long long)r, (long long)rdims[r]);
        if (x->dims[k] != 1) ss[r] = xst[k];
    }
    struct base_tensor *res;
    TRY(interp_shape_alloc(p, op, 0, rrank, rdims, &res));
    base_shape_strides(rrank, rdims, rst);
    interp_shape_copy(base_dtype_size(x->dtype), rrank, rdims, res->data, rst, x->data, ss);
    return interp_set_out(p, op, out, 0, res);
}

/* The static result shape, or an error if it is dynamic. */
static enum base_status static_result_shape(struct interp_proc *p, const struct graph_op *op, int i,
                                            int *rank, int64_t *dims)
{
    const struct graph_type *ty = interp_result_type(op, i);
    if (!ty || ty->kind != GRAPH_TYPE_TENSOR || ty->rank < 0 || !graph_type_is_static(ty))
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "result %d needs a static shape", i);
    *rank = ty->rank;
    memcpy(dims, ty->dims, (size_t)ty->rank * sizeof *dims);
    return BASE_OK;
}

static enum base_status k_broadcast_in_dim(struct interp_proc *p, const struct graph_op *op,
                                           struct interp_value *const *in,
                                           struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    int64_t bdims[MAXR], rdims[MAXR];
    int rrank;
    TRY(attr_list_n(p, op, "broadcast_dimensions", x->rank, bdims));
    TRY(static_result_shape(p, op, 0, &rrank, rdims));
    return broadcast_to(p, op, x, rrank, rdims, bdims, out);
}

static enum base_status k_dynamic_broadcast_in_dim(struct interp_proc *p, const struct graph_op *op,
                                                   struct interp_value *const *in,
                                                   struct interp_value **out)
{
    struct base_tensor *x, *shape;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &shape));
    int64_t bdims[MAXR], rdims[MAXR];
    int rrank = (int)shape->count;
    TRY(tensor_list_n(p, op, shape, "output_dimensions", rrank, rdims));
    TRY(attr_list_n(p, op, "broadcast_dimensions", x->rank, bdims));
    return broadcast_to(p, op, x, rrank, rdims, bdims, out);
}

/* stablehlo.broadcast: result shape = broadcast_sizes ++ shape(operand). */
static enum base_status k_broadcast(struct interp_proc *p, const struct graph_op *op,
                                    struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    int64_t sizes[MAXR], rdims[MAXR], bdims[MAXR];
    int n = interp_shape_attr_list(op, "broadcast_sizes", sizes, MAXR);
    if (n < 0 || n + x->rank > MAXR)
        return interp_fail(p, op, BASE_ERR_VERIFY, "broadcast_sizes is missing or too long");
    for (int i = 0; i < n; i++) rdims[i] = sizes[i];
    for (int k = 0; k < x->rank; k++) {
        rdims[n + k] = x->dims[k];
        bdims[k] = n + k;
    }
    return broadcast_to(p, op, x, n + x->rank, rdims, bdims, out);
}

/* ------------------------------------------------------------------------ */
/* concatenate                                                               */

static enum base_status k_concatenate(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x0, *x;
    TRY(operand(p, op, in, 0, &x0));
    TRY(check_same_dtype(p, op, 0, x0));
    int64_t dim;
    if (!interp_shape_attr_i64(op, "dimension", &dim) || dim < 0 || dim >= x0->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "dimension is missing or out of range");
    int64_t rdims[MAXR];
    memcpy(rdims, x0->dims, sizeof rdims);
    rdims[dim] = 0;
    for (int i = 0; i < op->n_operands; i++) {
        TRY(operand(p, op, in, i, &x));
        if (x->rank != x0->rank || x->dtype != x0->dtype)
            return interp_fail(p, op, BASE_ERR_VERIFY, "operand %d differs in rank or element type",
                               i);
        for (int d = 0; d < x->rank; d++)
            if (d != dim && x->dims[d] != x0->dims[d])
                return interp_fail(p, op, BASE_ERR_VERIFY, "operand %d differs in dimension %d", i,
                                   d);
        rdims[dim] += x->dims[dim];
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x0->rank, rdims, &r));
    int64_t rst[MAXR], xst[MAXR], off = 0;
    size_t esz = base_dtype_size(x0->dtype);
    base_shape_strides(r->rank, r->dims, rst);
    for (int i = 0; i < op->n_operands; i++) {
        x = iv_t(in[i]);
        base_shape_strides(x->rank, x->dims, xst);
        interp_shape_copy(esz, x->rank, x->dims, (char *)r->data + (size_t)(off * rst[dim]) * esz,
                          rst, x->data, xst);
        off += x->dims[dim];
    }
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* slice, real_dynamic_slice, dynamic_slice, dynamic_update_slice            */

static enum base_status slice_common(struct interp_proc *p, const struct graph_op *op,
                                     struct base_tensor *x, const int64_t *start,
                                     const int64_t *limit, const int64_t *stride,
                                     struct interp_value **out)
{
    TRY(check_same_dtype(p, op, 0, x));
    int64_t rdims[MAXR], xst[MAXR], ss[MAXR], rst[MAXR], off = 0;
    base_shape_strides(x->rank, x->dims, xst);
    for (int d = 0; d < x->rank; d++) {
        if (start[d] < 0 || start[d] > limit[d] || limit[d] > x->dims[d] || stride[d] < 1)
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "dimension %d: need 0 <= start (%lld) <= limit (%lld) <= %lld and "
                               "stride (%lld) >= 1",
                               d, (long long)start[d], (long long)limit[d], (long long)x->dims[d],
                               (long long)stride[d]);
        rdims[d] = (limit[d] - start[d] + stride[d] - 1) / stride[d];
        ss[d] = xst[d] * stride[d];
        off += start[d] * xst[d];
    }
    struct base_tensor *r;
    if (x->lazy) { /* a lazy operand (procedural inputs, weight files): read only the slice */
        bool unit = true;
        for (int d = 0; d < x->rank; d++) unit = unit && stride[d] == 1;
        struct base_tensor *dense = NULL;
        enum base_status st = unit ? base_tensor_read_box(x, start, rdims, &r) : base_tensor_materialize(x, &dense);
        if (st != BASE_OK) return interp_fail(p, op, st, "cannot read the slice of a lazy operand");
        if (unit) return interp_set_out(p, op, out, 0, r);
        st = slice_common(p, op, dense, start, limit, stride, out);
        base_tensor_release(dense);
        return st;
    }
    TRY(interp_shape_alloc(p, op, 0, x->rank, rdims, &r));
    size_t esz = base_dtype_size(x->dtype);
    base_shape_strides(r->rank, r->dims, rst);
    if (r->count)
        interp_shape_copy(esz, r->rank, r->dims, r->data, rst, (char *)x->data + (size_t)off * esz,
                          ss);
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_slice(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    int64_t start[MAXR], limit[MAXR], stride[MAXR];
    TRY(attr_list_n(p, op, "start_indices", x->rank, start));
    TRY(attr_list_n(p, op, "limit_indices", x->rank, limit));
    if (graph_op_attr(op, "strides"))
        TRY(attr_list_n(p, op, "strides", x->rank, stride));
    else
        for (int d = 0; d < x->rank; d++) stride[d] = 1;
    return slice_common(p, op, x, start, limit, stride, out);
}

static enum base_status k_real_dynamic_slice(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in,
                                             struct interp_value **out)
{
    struct base_tensor *x, *ts, *tl, *tt;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &ts));
    TRY(operand(p, op, in, 2, &tl));
    TRY(operand(p, op, in, 3, &tt));
    int64_t start[MAXR], limit[MAXR], stride[MAXR];
    TRY(tensor_list_n(p, op, ts, "start_indices", x->rank, start));
    TRY(tensor_list_n(p, op, tl, "limit_indices", x->rank, limit));
    TRY(tensor_list_n(p, op, tt, "strides", x->rank, stride));
    return slice_common(p, op, x, start, limit, stride, out);
}

/* Start indices given as rank-0 operands first..first+rank, clamped per spec to
 * [0, dim - size]. */
static enum base_status clamped_starts(struct interp_proc *p, const struct graph_op *op,
                                       struct interp_value *const *in, int first,
                                       const struct base_tensor *x, const int64_t *sizes,
                                       int64_t *start)
{
    if (op->n_operands != first + x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "expected %d start indices, got %d", x->rank,
                           op->n_operands - first);
    for (int d = 0; d < x->rank; d++) {
        struct base_tensor *t;
        TRY(operand(p, op, in, first + d, &t));
        int64_t v;
        TRY(scalar_index(p, op, t, "a start index", &v));
        if (sizes[d] < 0 || sizes[d] > x->dims[d])
            return interp_fail(p, op, BASE_ERR_VERIFY, "size %lld of dimension %d exceeds %lld",
                               (long long)sizes[d], d, (long long)x->dims[d]);
        start[d] = clamp64(v, 0, x->dims[d] - sizes[d]);
    }
    return BASE_OK;
}

static enum base_status k_dynamic_slice(struct interp_proc *p, const struct graph_op *op,
                                        struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    int64_t sizes[MAXR], start[MAXR], limit[MAXR], stride[MAXR];
    TRY(attr_list_n(p, op, "slice_sizes", x->rank, sizes));
    TRY(clamped_starts(p, op, in, 1, x, sizes, start));
    for (int d = 0; d < x->rank; d++) {
        limit[d] = start[d] + sizes[d];
        stride[d] = 1;
    }
    return slice_common(p, op, x, start, limit, stride, out);
}

static enum base_status k_dynamic_update_slice(struct interp_proc *p, const struct graph_op *op,
                                               struct interp_value *const *in,
                                               struct interp_value **out)
{
    struct base_tensor *x, *u;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &u));
    TRY(check_same_dtype(p, op, 0, x));
    if (u->dtype != x->dtype || u->rank != x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "update differs from operand in rank or element type");
    int64_t start[MAXR], xst[MAXR], ust[MAXR], off = 0;
    TRY(clamped_starts(p, op, in, 2, x, u->dims, start));
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x->rank, x->dims, &r));
    memcpy(r->data, x->data, base_tensor_nbytes(x));
    base_shape_strides(x->rank, x->dims, xst);
    base_shape_strides(u->rank, u->dims, ust);
    for (int d = 0; d < x->rank; d++) off += start[d] * xst[d];
    size_t esz = base_dtype_size(x->dtype);
    interp_shape_copy(esz, u->rank, u->dims, (char *)r->data + (size_t)off * esz, xst, u->data,
                      ust);
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* pad, dynamic_pad                                                          */

static enum base_status pad_common(struct interp_proc *p, const struct graph_op *op,
                                   struct base_tensor *x, struct base_tensor *pv, const int64_t *lo,
                                   const int64_t *hi, const int64_t *interior,
                                   struct interp_value **out)
{
    TRY(check_same_dtype(p, op, 0, x));
    if (pv->dtype != x->dtype || pv->count != 1)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "padding_value must be a scalar of the operand's type");
    int64_t rdims[MAXR];
    for (int d = 0; d < x->rank; d++) {
        int64_t n = x->dims[d];
        if (interior[d] < 0 || interior[d] > BASE_MAX_ELEMS || lo[d] < -BASE_MAX_ELEMS ||
            lo[d] > BASE_MAX_ELEMS || hi[d] < -BASE_MAX_ELEMS || hi[d] > BASE_MAX_ELEMS ||
            (n > 1 && interior[d] > BASE_MAX_ELEMS / (n - 1)))
            return interp_fail(p, op, BASE_ERR_VERIFY, "padding of dimension %d is out of range",
                               d);
        rdims[d] = lo[d] + hi[d] + (n > 0 ? n + (n - 1) * interior[d] : 0);
        if (rdims[d] < 0)
            return interp_fail(p, op, BASE_ERR_VERIFY, "dimension %d would have negative size %lld",
                               d, (long long)rdims[d]);
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x->rank, rdims, &r));
    size_t esz = base_dtype_size(x->dtype);
    interp_shape_fill(esz, r->data, r->count, pv->data);

    /* Copy the operand elements that land inside the result. */
    int64_t xst[MAXR], rst[MAXR], cdims[MAXR], ds[MAXR], xoff = 0, roff = 0;
    base_shape_strides(x->rank, x->dims, xst);
    base_shape_strides(r->rank, r->dims, rst);
    for (int d = 0; d < x->rank; d++) {
        int64_t step = interior[d] + 1;
        int64_t j0 = lo[d] >= 0 ? 0 : (-lo[d] + step - 1) / step;
        int64_t room = rdims[d] - lo[d]; /* j*step < room */
        int64_t j1 = room <= 0 ? 0 : (room + step - 1) / step;
        if (j1 > x->dims[d]) j1 = x->dims[d];
        cdims[d] = j1 - j0;
        if (cdims[d] <= 0) return interp_set_out(p, op, out, 0, r);
        xoff += j0 * xst[d];
        roff += (lo[d] + j0 * step) * rst[d];
        ds[d] = rst[d] * step;
    }
    if (r->count && x->count)
        interp_shape_copy(esz, x->rank, cdims, (char *)r->data + (size_t)roff * esz, ds,
                          (char *)x->data + (size_t)xoff * esz, xst);
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_pad(struct interp_proc *p, const struct graph_op *op,
                              struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x, *pv;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &pv));
    int64_t lo[MAXR], hi[MAXR], it[MAXR];
    TRY(attr_list_n(p, op, "edge_padding_low", x->rank, lo));
    TRY(attr_list_n(p, op, "edge_padding_high", x->rank, hi));
    if (graph_op_attr(op, "interior_padding"))
        TRY(attr_list_n(p, op, "interior_padding", x->rank, it));
    else
        for (int d = 0; d < x->rank; d++) it[d] = 0;
    return pad_common(p, op, x, pv, lo, hi, it, out);
}

static enum base_status k_dynamic_pad(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x, *pv, *tl, *th, *ti;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &pv));
    TRY(operand(p, op, in, 2, &tl));
    TRY(operand(p, op, in, 3, &th));
    TRY(operand(p, op, in, 4, &ti));
    int64_t lo[MAXR], hi[MAXR], it[MAXR];
    TRY(tensor_list_n(p, op, tl, "edge_padding_low", x->rank, lo));
    TRY(tensor_list_n(p, op, th, "edge_padding_high", x->rank, hi));
    TRY(tensor_list_n(p, op, ti, "interior_padding", x->rank, it));
    return pad_common(p, op, x, pv, lo, hi, it, out);
}

/* ------------------------------------------------------------------------ */
/* reverse, transpose                                                        */

static enum base_status k_reverse(struct interp_proc *p, const struct graph_op *op,
                                  struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    TRY(check_same_dtype(p, op, 0, x));
    int64_t dims[MAXR], xst[MAXR], ss[MAXR], rst[MAXR], off = 0;
    int n = interp_shape_attr_list(op, "dimensions", dims, MAXR);
    if (n < 0 || n > MAXR) return interp_fail(p, op, BASE_ERR_VERIFY, "dimensions is missing");
    base_shape_strides(x->rank, x->dims, xst);
    memcpy(ss, xst, sizeof ss);
    bool seen[MAXR] = {false};
    for (int i = 0; i < n; i++) {
        int64_t d = dims[i];
        if (d < 0 || d >= x->rank || seen[d])
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "dimensions[%d] = %lld is out of range or repeated", i,
                               (long long)d);
        seen[d] = true;
        if (x->dims[d] > 0) off += (x->dims[d] - 1) * xst[d];
        ss[d] = -xst[d];
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x->rank, x->dims, &r));
    base_shape_strides(r->rank, r->dims, rst);
    size_t esz = base_dtype_size(x->dtype);
    if (r->count)
        interp_shape_copy(esz, r->rank, r->dims, r->data, rst, (char *)x->data + (size_t)off * esz,
                          ss);
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_transpose(struct interp_proc *p, const struct graph_op *op,
                                    struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x;
    TRY(operand(p, op, in, 0, &x));
    TRY(check_same_dtype(p, op, 0, x));
    int64_t perm[MAXR], xst[MAXR], ss[MAXR], rdims[MAXR], rst[MAXR];
    TRY(attr_list_n(p, op, "permutation", x->rank, perm));
    bool seen[MAXR] = {false};
    base_shape_strides(x->rank, x->dims, xst);
    for (int d = 0; d < x->rank; d++) {
        if (perm[d] < 0 || perm[d] >= x->rank || seen[perm[d]])
            return interp_fail(p, op, BASE_ERR_VERIFY, "permutation is not a permutation of 0..%d",
                               x->rank - 1);
        seen[perm[d]] = true;
        rdims[d] = x->dims[perm[d]];
        ss[d] = xst[perm[d]];
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x->rank, rdims, &r));
    base_shape_strides(r->rank, r->dims, rst);
    interp_shape_copy(base_dtype_size(x->dtype), r->rank, r->dims, r->data, rst, x->data, ss);
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* iota, dynamic_iota                                                        */

static enum base_status iota_common(struct interp_proc *p, const struct graph_op *op, int rank,
                                    const int64_t *dims, struct interp_value **out)
{
    int64_t dim;
    if (!interp_shape_attr_i64(op, "iota_dimension", &dim) || dim < 0 || dim >= rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "iota_dimension is missing or not below rank %d",
                           rank);
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, rank, dims, &r));
    if (!r->count) return interp_set_out(p, op, out, 0, r);
    enum base_dtype dt = r->dtype;
    size_t esz = base_dtype_size(dt);
    int64_t n = dims[dim];
    char *line = malloc((size_t)n * esz);
    if (!line) {
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    for (int64_t i = 0; i < n; i++) {
        if (base_dtype_is_complex(dt))
            base_elem_set_c128(dt, line, (size_t)i, (double)i, 0.0);
        else if (base_dtype_is_float(dt))
            base_elem_set_f64(dt, line, (size_t)i, (double)i);
        else
            base_elem_set_i64(dt, line, (size_t)i, i);
    }
    int64_t rst[MAXR], ss[MAXR] = {0};
    base_shape_strides(rank, dims, rst);
    ss[dim] = 1;
    interp_shape_copy(esz, rank, dims, r->data, rst, line, ss);
    free(line);
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_iota(struct interp_proc *p, const struct graph_op *op,
                               struct interp_value *const *in, struct interp_value **out)
{
    (void)in;
    int64_t dims[MAXR];
    int rank;
    TRY(static_result_shape(p, op, 0, &rank, dims));
    return iota_common(p, op, rank, dims, out);
}

static enum base_status k_dynamic_iota(struct interp_proc *p, const struct graph_op *op,
                                       struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *shape;
    TRY(operand(p, op, in, 0, &shape));
    int64_t dims[MAXR];
    int rank = (int)shape->count;
    TRY(tensor_list_n(p, op, shape, "output_shape", rank, dims));
    return iota_common(p, op, rank, dims, out);
}

/* ------------------------------------------------------------------------ */
/* get_dimension_size, set_dimension_size                                    */

static enum base_status k_get_dimension_size(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in,
                                             struct interp_value **out)
{
    struct base_tensor *x, *r;
    TRY(operand(p, op, in, 0, &x));
    int64_t dim;
    if (!interp_shape_attr_i64(op, "dimension", &dim) || dim < 0 || dim >= x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "dimension is missing or not below rank %d",
                           x->rank);
    TRY(interp_shape_alloc(p, op, 0, 0, NULL, &r));
    if (!base_dtype_is_int(r->dtype)) {
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_VERIFY, "result must be an integer scalar");
    }
    base_elem_set_i64(r->dtype, r->data, 0, x->dims[dim]);
    return interp_set_out(p, op, out, 0, r);
}

/* Sets the (dynamic) size of one dimension: the result keeps the first `size`
 * entries along it (zeros beyond the operand when it grows). */
static enum base_status k_set_dimension_size(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in,
                                             struct interp_value **out)
{
    struct base_tensor *x, *ts;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &ts));
    TRY(check_same_dtype(p, op, 0, x));
    int64_t dim, size;
    if (!interp_shape_attr_i64(op, "dimension", &dim) || dim < 0 || dim >= x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "dimension is missing or not below rank %d",
                           x->rank);
    TRY(scalar_index(p, op, ts, "size", &size));
    if (size < 0)
        return interp_fail(p, op, BASE_ERR_VERIFY, "size %lld is negative", (long long)size);
    int64_t rdims[MAXR], cdims[MAXR], xst[MAXR], rst[MAXR];
    memcpy(rdims, x->dims, sizeof rdims);
    const struct graph_type *ty = interp_result_type(op, 0);
    bool dyn =
        !ty || ty->kind != GRAPH_TYPE_TENSOR || ty->rank != x->rank || ty->dims[dim] == GRAPH_DYN;
    rdims[dim] = dyn ? size : ty->dims[dim];
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, x->rank, rdims, &r));
    memcpy(cdims, x->dims, sizeof cdims);
    int64_t keep = size < rdims[dim] ? size : rdims[dim];
    if (keep < cdims[dim]) cdims[dim] = keep;
    base_shape_strides(x->rank, x->dims, xst);
    base_shape_strides(r->rank, r->dims, rst);
    interp_shape_copy(base_dtype_size(x->dtype), x->rank, cdims, r->data, rst, x->data, xst);
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */

void interp_register_shape(interp_kernel_fn *table)
{
    table[GRAPH_OP_RESHAPE] = k_reshape;
    table[GRAPH_OP_DYNAMIC_RESHAPE] = k_dynamic_reshape;
    table[GRAPH_OP_BITCAST_CONVERT] = k_bitcast_convert;
    table[GRAPH_OP_BROADCAST] = k_broadcast;
    table[GRAPH_OP_BROADCAST_IN_DIM] = k_broadcast_in_dim;
    table[GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM] = k_dynamic_broadcast_in_dim;
    table[GRAPH_OP_CONCATENATE] = k_concatenate;
    table[GRAPH_OP_SLICE] = k_slice;
    table[GRAPH_OP_REAL_DYNAMIC_SLICE] = k_real_dynamic_slice;
    table[GRAPH_OP_DYNAMIC_SLICE] = k_dynamic_slice;
    table[GRAPH_OP_DYNAMIC_UPDATE_SLICE] = k_dynamic_update_slice;
    table[GRAPH_OP_PAD] = k_pad;
    table[GRAPH_OP_DYNAMIC_PAD] = k_dynamic_pad;
    table[GRAPH_OP_REVERSE] = k_reverse;
    table[GRAPH_OP_TRANSPOSE] = k_transpose;
    table[GRAPH_OP_IOTA] = k_iota;
    table[GRAPH_OP_DYNAMIC_IOTA] = k_dynamic_iota;
    table[GRAPH_OP_GET_DIMENSION_SIZE] = k_get_dimension_size;
    table[GRAPH_OP_SET_DIMENSION_SIZE] = k_set_dimension_size;
    interp_register_shape_gather(table);
    interp_register_shape_sort(table);
}
