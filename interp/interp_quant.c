/* Quantization: uniform_quantize, uniform_dequantize, and the dequantize /
 * quantize helpers the core's wrapper uses for every other op on quantized
 * tensors.
 *
 * The reference interpreter lowers quantized programs to integer and f32
 * math before running them (stablehlo-legalize-quant-to-math), so the
 * arithmetic here is f32, step by step as that pass writes it:
 *   dequantize:  f32(i32(q) - zp) * f32(scale)
 *   quantize:    rne(clamp(f32(x) / f32(scale) + f32(zp), f32(min), f32(max)))
 *   requantize:  rne(clamp(f32(q) * f32(s_in / s_out) + f32(zp_out - zp_in * s_in / s_out)))
 * with the requantize clamp only for storage types narrower than 32 bits,
 * and round-half-to-even everywhere. */
#include "interp/interp_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Channel of element i for a per-axis type: i / stride(quant_dim) % dim. */
struct chan_walk {
    int64_t stride;
    int64_t dim;
};

static enum base_status chan_walk_init(const struct graph_quant *q, const struct base_tensor *t, struct chan_walk *w)
{
    w->stride = 1;
    w->dim = 1;
    if (q->quant_dim < 0) return BASE_OK;
    if (q->quant_dim >= t->rank) return BASE_ERR_INVALID;
    for (int d = t->rank - 1; d > q->quant_dim; d--) w->stride *= t->dims[d];
    w->dim = t->dims[q->quant_dim];
    if (w->dim != q->n_scales && !(w->dim == 0)) return BASE_ERR_INVALID;
    return BASE_OK;
}

static inline int chan_of(const struct chan_walk *w, int64_t i)
{
    return w->dim > 1 ? (int)((i / w->stride) % w->dim) : 0;
}

/* round-half-to-even of an f32, as stablehlo.round_nearest_even */
static inline float rne_f32(float x)
{
    return nearbyintf(x);
}

/* clamp as stablehlo.clamp = min(max(x, lo), hi), NaN propagating */
static inline float clamp_f32(float x, float lo, float hi)
{
    if (isnan(x)) return x;
    if (x < lo) x = lo;
    if (x > hi) x = hi;
    return x;
}

/* Stores an integral f32 into storage element i (convert semantics:
 * saturating, NaN -> 0). */
static inline void store_int(enum base_dtype dt, void *data, int64_t i, float v)
{
    base_elem_set_f64(dt, data, (size_t)i, (double)v);
}

static bool is_storage_dtype(enum base_dtype dt)
{
    return base_dtype_is_int(dt);
}

enum base_status interp_dequantize(const struct graph_quant *q, const struct base_tensor *in,
                                   struct base_tensor **out)
{
    *out = NULL;
    if (!q || !in) return BASE_ERR_INVALID;
    /* A value that is already in expressed form (an op nested in the region
     * of a dequantized op) passes through. */
    if (base_dtype_is_float(in->dtype)) {
        *out = base_tensor_retain((struct base_tensor *)in);
        return BASE_OK;
    }
    if (!is_storage_dtype(in->dtype)) return BASE_ERR_INVALID;
    if (!base_dtype_is_float(q->expressed)) return BASE_ERR_UNSUPPORTED;
    struct chan_walk w;
    TRY(chan_walk_init(q, in, &w));
    struct base_tensor *t = NULL;
    TRY(base_tensor_create(q->expressed, in->rank, in->dims, &t));
    float scale_small[16];
    int32_t zp_small[16];
    float *scale = scale_small;
    int32_t *zp = zp_small;
    if (q->n_scales > 16) {
        scale = malloc((size_t)q->n_scales * sizeof *scale);
        zp = malloc((size_t)q->n_scales * sizeof *zp);
        if (!scale || !zp) {
            free(scale);
            free(zp);
            base_tensor_release(t);
            return BASE_ERR_NOMEM;
        }
    }
    for (int c = 0; c < q->n_scales; c++) {
        scale[c] = (float)q->scales[c];
        zp[c] = (int32_t)q->zero_points[c];
    }
    bool f32_out = t->dtype == BASE_DT_F32;
    for (int64_t i = 0; i < in->count; i++) {
        int c = chan_of(&w, i);
        /* i32 subtraction wraps, as the lowered program's does */
        int32_t d = (int32_t)((uint32_t)(int32_t)base_elem_get_i64(in->dtype, in->data, (size_t)i) - (uint32_t)zp[c]);
        float v = (float)d * scale[c];
        if (f32_out)
            ((float *)t->data)[i] = v;
        else
            base_elem_set_f64(t->dtype, t->data, (size_t)i, (double)v);
    }
    if (scale != scale_small) {
        free(scale);
        free(zp);
    }
    *out = t;
    return BASE_OK;
}

enum base_status interp_quantize(const struct graph_quant *q, const struct base_tensor *in,
                                 struct base_tensor **out)
{
    *out = NULL;
    if (!q || !in) return BASE_ERR_INVALID;
    if (in->dtype == q->storage) { /* already quantized (kernel kept storage) */
        *out = base_tensor_retain((struct base_tensor *)in);
        return BASE_OK;
    }
    if (!base_dtype_is_float(in->dtype) && !base_dtype_is_int(in->dtype) && in->dtype != BASE_DT_I1)
        return BASE_ERR_UNSUPPORTED;
    struct chan_walk w;
    TRY(chan_walk_init(q, in, &w));
    struct base_tensor *t = NULL;
    TRY(base_tensor_create(q->storage, in->rank, in->dims, &t));
    float lo = (float)q->storage_min, hi = (float)q->storage_max;
    bool f32_in = in->dtype == BASE_DT_F32;
    for (int64_t i = 0; i < in->count; i++) {
        int c = chan_of(&w, i);
        float x = f32_in ? ((const float *)in->data)[i]
                         : (float)base_elem_get_f64(in->dtype, in->data, (size_t)i);
        float r = x / (float)q->scales[c];
        r = r + (float)q->zero_points[c];
        r = clamp_f32(r, lo, hi);
        r = rne_f32(r);
        store_int(t->dtype, t->data, i, r);
    }
    *out = t;
    return BASE_OK;
}

static bool quant_equal(const struct graph_quant *a, const struct graph_quant *b)
{
    if (a->storage != b->storage || a->expressed != b->expressed || a->storage_min != b->storage_min ||
        a->storage_max != b->storage_max || a->quant_dim != b->quant_dim || a->n_scales != b->n_scales)
        return false;
    for (int i = 0; i < a->n_scales; i++)
        if (a->scales[i] != b->scales[i] || a->zero_points[i] != b->zero_points[i]) return false;
    return true;
}

/* Requantizes storage values of type qi into type qo (same quantization axis
 * when both are per-axis). */
static enum base_status requantize(const struct graph_quant *qi, const struct graph_quant *qo,
                                   const struct base_tensor *in, struct base_tensor **out)
{
    *out = NULL;
    struct base_tensor *t = NULL;
    if (quant_equal(qi, qo)) {
        TRY(base_tensor_create(qo->storage, in->rank, in->dims, &t));
        base_convert(t->dtype, t->data, in->dtype, in->data, (size_t)in->count);
        *out = t;
        return BASE_OK;
    }
    const struct graph_quant *axis_q = qo->quant_dim >= 0 ? qo : qi;
    if (qi->quant_dim >= 0 && qo->quant_dim >= 0 && qi->quant_dim != qo->quant_dim) return BASE_ERR_UNSUPPORTED;
    int n = axis_q->n_scales;
    if ((qi->quant_dim >= 0 && qi->n_scales != n) || (qo->quant_dim >= 0 && qo->n_scales != n))
        return BASE_ERR_INVALID;
    struct chan_walk w;
    TRY(chan_walk_init(axis_q, in, &w));
    float *ms = malloc((size_t)n * sizeof *ms);
    float *mz = malloc((size_t)n * sizeof *mz);
    if (!ms || !mz) {
        free(ms);
        free(mz);
        return BASE_ERR_NOMEM;
    }
    bool any_zp = false;
    for (int c = 0; c < n; c++) {
        int ci = qi->quant_dim >= 0 ? c : 0, co = qo->quant_dim >= 0 ? c : 0;
        double s = qi->scales[ci] / qo->scales[co];
        double z = (double)qo->zero_points[co] - (double)qi->zero_points[ci] * s;
        ms[c] = (float)s;
        mz[c] = (float)z;
        if (z != 0) any_zp = true;
    }
    enum base_status st = base_tensor_create(qo->storage, in->rank, in->dims, &t);
    if (st == BASE_OK) {
        bool clamp = base_dtype_bits(qo->storage) < 32;
        float lo = (float)qo->storage_min, hi = (float)qo->storage_max;
        for (int64_t i = 0; i < in->count; i++) {
            int c = chan_of(&w, i);
            float r = (float)base_elem_get_i64(in->dtype, in->data, (size_t)i);
            r = r * ms[c];
            if (any_zp) r = r + mz[c];
            if (clamp) r = clamp_f32(r, lo, hi);
            r = rne_f32(r);
            store_int(t->dtype, t->data, i, r);
        }
        *out = t;
    }
    free(ms);
    free(mz);
    return st;
}

static const struct graph_quant *operand_quant(const struct graph_op *op, int i)
{
    const struct graph_type *t = op->operands[i]->type;
    return t->kind == GRAPH_TYPE_TENSOR ? t->quant : NULL;
}

static const struct graph_quant *result_quant(const struct graph_op *op, int i)
{
    const struct graph_type *t = op->results[i].type;
    return t->kind == GRAPH_TYPE_TENSOR ? t->quant : NULL;
}

static enum base_status k_uniform_quantize(struct interp_proc *p, const struct graph_op *op,
                                           struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *x = iv_t(in[0]);
    const struct graph_quant *qo = result_quant(op, 0);
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "operand must be a tensor");
    if (!qo) return interp_fail(p, op, BASE_ERR_INVALID, "result must have a quantized element type");
    const struct graph_quant *qi = operand_quant(op, 0);
    struct base_tensor *r = NULL;
    enum base_status st;
    if (qi && x->dtype == qi->storage) {
        st = requantize(qi, qo, x, &r);
        if (st != BASE_OK)
            return interp_fail(p, op, st, "cannot requantize %s", st == BASE_ERR_UNSUPPORTED
                                                                     ? "while changing the quantization axis"
                                                                     : "(quantization parameters do not fit the shape)");
    } else {
        if (!base_dtype_is_float(x->dtype))
            return interp_fail(p, op, BASE_ERR_INVALID, "operand must be a floating-point or quantized tensor");
        st = interp_quantize(qo, x, &r);
        if (st != BASE_OK) return interp_fail(p, op, st, "cannot quantize: quantization dimension does not fit");
    }
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_uniform_dequantize(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *x = iv_t(in[0]);
    const struct graph_quant *qi = operand_quant(op, 0);
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "operand must be a tensor");
    if (!qi) return interp_fail(p, op, BASE_ERR_INVALID, "operand must have a quantized element type");
    struct base_tensor *r = NULL;
    enum base_status st = interp_dequantize(qi, x, &r);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot dequantize");
    /* the result type names the expressed type; honour it if it differs */
    const struct graph_type *rt = op->results[0].type;
    if (rt->kind == GRAPH_TYPE_TENSOR && !rt->quant && base_dtype_is_float(rt->elem) && rt->elem != r->dtype) {
        struct base_tensor *c = NULL;
        st = base_tensor_create(rt->elem, r->rank, r->dims, &c);
        if (st != BASE_OK) {
            base_tensor_release(r);
            return interp_fail(p, op, st, "cannot allocate result");
        }
        base_convert(c->dtype, c->data, r->dtype, r->data, (size_t)r->count);
        base_tensor_release(r);
        r = c;
    }
    return interp_set_out(p, op, out, 0, r);
}

void interp_register_quant(interp_kernel_fn *table)
{
    table[GRAPH_OP_UNIFORM_QUANTIZE] = k_uniform_quantize;
    table[GRAPH_OP_UNIFORM_DEQUANTIZE] = k_uniform_dequantize;
}
