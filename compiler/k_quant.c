/* Quantized types on chip (docs/compiler.md "Kernels: quantized types").
 *
 * A value of type !quant.uniform<storage:expressed, scale:zp> lives in HBM
 * as its storage integers, so moves of quantized tensors whose types agree
 * are moves of those integers (views, copies, gathers...).  Arithmetic
 * follows the golden interpreter (interp/interp_quant.c), which runs every op
 * on quantized tensors as dequantize -> the op in the expressed type ->
 * quantize, each step in f32 exactly as the StableHLO reference lowering
 * writes it:
 *   dequantize   f32(i32(q) - zp) * f32(scale)           (i32 wraps)
 *   quantize     rne(clamp(f32(x) / f32(scale) + f32(zp), f32(min), f32(max)))
 *   requantize   rne(clamp(f32(q) * f32(s_in / s_out) + f32(zp_out - zp_in s_in / s_out)))
 * Here those steps are tile instructions of an elementwise kernel (k_elem.c's
 * builder), so a chain of quantized ops fuses: tensor_scalar / binary in
 * f32, `round_even`, and a `cast` to the storage type.  Per-axis parameters
 * are per-element values chosen by the element's channel (an index along the
 * quantization dim) through a chain of compares and selects.
 *
 * Quantized dot_general and convolution run on the systolic arrays
 * (cc_quant_mm, used by k_dot.c and k_conv.c): the operands' storage minus
 * their zero points are small integers, exact in i8 (tpu-v5e, tpu-v6e, where
 * the arrays take int8 and the zero points are 0) or bf16 (|q - zp| <= 255;
 * trn2's arrays take no int8: the Neuron compiler dequantizes int8 to a float
 * type), their products exact in the f32 accumulator, so the sum is the
 * exact integer sum (while below 2^24) that the result type (scale = the
 * product of the operands' scales, zero point 0) holds. */
#include "compiler/cc_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_CHANNELS 16

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

static const struct graph_quant *quant_of(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR ? t->quant : NULL;
}

bool cc_quant_involved(const struct graph_op *op)
{
    for (int i = 0; i < op->n_operands; i++)
        if (quant_of(op->operands[i]->type)) return true;
    for (int i = 0; i < op->n_results; i++)
        if (quant_of(op->results[i].type)) return true;
    return false;
}

static bool same_quant(const struct graph_quant *a, const struct graph_quant *b)
{
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->storage != b->storage || a->expressed != b->expressed || a->storage_min != b->storage_min ||
        a->storage_max != b->storage_max || a->quant_dim != b->quant_dim || a->n_scales != b->n_scales)
        return false;
    for (int i = 0; i < a->n_scales; i++)
        if (a->scales[i] != b->scales[i] || a->zero_points[i] != b->zero_points[i]) return false;
    return true;
}

/* Parameters the chip computes with: integer storage of at most 32 bits, a
 * float expressed type of at most 32 bits, few enough channels. */
static bool params_ok(const struct graph_type *t, char *why, size_t cap)
{
    const struct graph_quant *q = quant_of(t);
    if (!q) return true;
    if (!base_dtype_is_int(q->storage) || base_dtype_bits(q->storage) > 32 ||
        base_dtype_size(q->storage) * 8 != (size_t)base_dtype_bits(q->storage))
        return why_set(why, cap, "quantized storage other than 8, 16 or 32-bit integers");
    if (!base_dtype_is_float(q->expressed) || base_dtype_bits(q->expressed) > 32)
        return why_set(why, cap, "a quantized type expressed in f64: the vector engines compute in f32");
    if (q->n_scales < 1) return why_set(why, cap, "a quantized type without scales");
    if (q->quant_dim >= 0 && q->n_scales > MAX_CHANNELS)
        return why_set(why, cap, "per-axis quantization with more than 16 channels in an elementwise kernel");
    if (q->quant_dim >= t->rank) return why_set(why, cap, "the quantization dim is past the rank");
    return true;
}

/* ----------------------------------------------------------- elementwise */

bool cc_quant_claims(const struct graph_op *op)
{
    return op->kind == GRAPH_OP_UNIFORM_QUANTIZE || op->kind == GRAPH_OP_UNIFORM_DEQUANTIZE;
}

bool cc_quant_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    (void)t;
    if (op->n_operands != 1 || op->n_results != 1) return why_set(why, cap, "one operand, one result");
    const struct graph_type *it = op->operands[0]->type, *rt = op->results[0].type;
    if (!params_ok(it, why, cap) || !params_ok(rt, why, cap)) return false;
    const struct graph_quant *qi = quant_of(it), *qo = quant_of(rt);
    if (op->kind == GRAPH_OP_UNIFORM_QUANTIZE) {
        if (!qo) return why_set(why, cap, "uniform_quantize needs a quantized result");
        if (!qi && (!base_dtype_is_float(it->elem) || base_dtype_bits(it->elem) > 32))
            return why_set(why, cap, "quantizing f64: the vector engines compute in f32");
        if (qi && qi->quant_dim >= 0 && qo->quant_dim >= 0 && qi->quant_dim != qo->quant_dim)
            return why_set(why, cap, "requantizing along another axis");
        return true;
    }
    if (!qi) return why_set(why, cap, "uniform_dequantize needs a quantized operand");
    if (!base_dtype_is_float(rt->elem) || base_dtype_bits(rt->elem) > 32)
        return why_set(why, cap, "dequantizing into f64: the vector engines compute in f32");
    return true;
}

/* The per-element value of a channel parameter: the immediate when every
 * channel has the same, else a select chain over the channel index. */
static int channel_param(struct cc_ewb *b, const struct graph_quant *q, const double *v, enum base_dtype dt, int *chan)
{
    bool same = true;
    for (int c = 1; c < q->n_scales; c++) same = same && v[c] == v[0];
    if (q->quant_dim < 0 || same) return cc_ewb_imm(b, v[0], dt);
    if (*chan < 0) *chan = cc_ewb_index(b, q->quant_dim, BASE_DT_SI32);
    int r = cc_ewb_imm(b, v[q->n_scales - 1], dt);
    for (int c = q->n_scales - 2; c >= 0 && r >= 0; c--) {
        int eq = cc_ewb_bin(b, ISA_ALU_IEQ, *chan, cc_ewb_imm(b, c, BASE_DT_SI32), BASE_DT_I1);
        r = cc_ewb_sel(b, eq, cc_ewb_imm(b, v[c], dt), r, dt);
    }
    return r;
}

/* f32 values of the scales and zero points, as the interpreter rounds them */
static void scales_f32(const struct graph_quant *q, double *s, double *z)
{
    for (int c = 0; c < q->n_scales; c++) {
        s[c] = (double)(float)q->scales[c];
        z[c] = (double)(float)q->zero_points[c];
    }
}

int cc_quant_dequant(struct cc_ewb *b, int x, const struct graph_type *t)
{
    const struct graph_quant *q = quant_of(t);
    if (!q || x < 0) return x;
    double s[MAX_CHANNELS], z[MAX_CHANNELS], zi[MAX_CHANNELS];
    if (q->n_scales > MAX_CHANNELS && q->quant_dim >= 0) return -1;
    int n = q->n_scales > MAX_CHANNELS ? 1 : q->n_scales;
    struct graph_quant qq = *q;
    qq.n_scales = n;
    scales_f32(&qq, s, z);
    bool any_zp = false;
    for (int c = 0; c < n; c++) {
        zi[c] = (double)q->zero_points[c];
        any_zp = any_zp || zi[c] != 0;
    }
    int chan = -1;
    int d = x;
    if (any_zp) { /* i32 subtraction, wrapping as the lowered program's */
        int zp = channel_param(b, &qq, zi, BASE_DT_SI32, &chan);
        d = cc_ewb_bin(b, ISA_ALU_ISUB, x, zp, BASE_DT_SI32);
    }
    int f = cc_ewb_un(b, ISA_ALU_CAST, d, BASE_DT_F32);
    int sc = channel_param(b, &qq, s, BASE_DT_F32, &chan);
    return cc_ewb_bin(b, ISA_ALU_MUL, f, sc, q->expressed);
}

/* rne(clamp(v, lo, hi)) cast to the storage (clamp: max then min, NaN kept) */
static int finish_quant(struct cc_ewb *b, int v, const struct graph_quant *q, bool clamp)
{
    if (clamp) {
        v = cc_ewb_bin(b, ISA_ALU_MAX, v, cc_ewb_imm(b, (double)(float)q->storage_min, BASE_DT_F32), BASE_DT_F32);
        v = cc_ewb_bin(b, ISA_ALU_MIN, v, cc_ewb_imm(b, (double)(float)q->storage_max, BASE_DT_F32), BASE_DT_F32);
    }
    v = cc_ewb_un(b, ISA_ALU_ROUND_EVEN, v, BASE_DT_F32);
    return cc_ewb_un(b, ISA_ALU_CAST, v, q->storage);
}

int cc_quant_quant(struct cc_ewb *b, int r, const struct graph_type *t)
{
    const struct graph_quant *q = quant_of(t);
    if (!q || r < 0) return r;
    if (q->n_scales > MAX_CHANNELS && q->quant_dim >= 0) return -1;
    struct graph_quant qq = *q;
    qq.n_scales = q->n_scales > MAX_CHANNELS ? 1 : q->n_scales;
    double s[MAX_CHANNELS], z[MAX_CHANNELS];
    scales_f32(&qq, s, z);
    int chan = -1;
    int v = cc_ewb_bin(b, ISA_ALU_DIV, r, channel_param(b, &qq, s, BASE_DT_F32, &chan), BASE_DT_F32);
    v = cc_ewb_bin(b, ISA_ALU_ADD, v, channel_param(b, &qq, z, BASE_DT_F32, &chan), BASE_DT_F32);
    return finish_quant(b, v, q, true);
}

/* storage of qi -> storage of qo (uniform_quantize of a quantized operand) */
static int requant(struct cc_ewb *b, int x, const struct graph_quant *qi, const struct graph_quant *qo)
{
    if (same_quant(qi, qo)) return x;
    const struct graph_quant *ax = qo->quant_dim >= 0 ? qo : qi;
    int n = ax->quant_dim >= 0 ? ax->n_scales : 1;
    if (n > MAX_CHANNELS || n < 1) return -1;
    double ms[MAX_CHANNELS] = {0}, mz[MAX_CHANNELS] = {0};
    bool any_zp = false;
    for (int c = 0; c < n; c++) {
        int ci = qi->quant_dim >= 0 ? c : 0, co = qo->quant_dim >= 0 ? c : 0;
        double sr = qi->scales[ci] / qo->scales[co];
        double zr = (double)qo->zero_points[co] - (double)qi->zero_points[ci] * sr;
        ms[c] = (double)(float)sr;
        mz[c] = (double)(float)zr;
        any_zp = any_zp || zr != 0;
    }
    struct graph_quant axq = *ax;
    int chan = -1;
    int v = cc_ewb_un(b, ISA_ALU_CAST, x, BASE_DT_F32);
    v = cc_ewb_bin(b, ISA_ALU_MUL, v, channel_param(b, &axq, ms, BASE_DT_F32, &chan), BASE_DT_F32);
    if (any_zp) v = cc_ewb_bin(b, ISA_ALU_ADD, v, channel_param(b, &axq, mz, BASE_DT_F32, &chan), BASE_DT_F32);
    return finish_quant(b, v, qo, base_dtype_bits(qo->storage) < 32);
}

int cc_quant_lower(struct cc_ewb *b, const struct graph_op *op, const int *x)
{
    const struct graph_type *it = op->operands[0]->type, *rt = op->results[0].type;
    const struct graph_quant *qi = quant_of(it), *qo = quant_of(rt);
    if (op->kind == GRAPH_OP_UNIFORM_DEQUANTIZE) {
        int r = cc_quant_dequant(b, x[0], it);
        if (r >= 0 && rt->elem != qi->expressed) r = cc_ewb_un(b, ISA_ALU_CAST, r, rt->elem);
        return r;
    }
    if (qi) return requant(b, x[0], qi, qo);
    return cc_quant_quant(b, x[0], rt);
}

/* The elementwise op as it runs in the expressed types: its support
 * predicate on a copy whose quantized types are their expressed ones. */
bool cc_quant_elem_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (op->n_operands > 3 || op->n_results != 1) return why_set(why, cap, "quantized ops of more than 3 operands");
    for (int i = 0; i < op->n_operands; i++)
        if (!params_ok(op->operands[i]->type, why, cap)) return false;
    if (!params_ok(op->results[0].type, why, cap)) return false;
    struct graph_type ty[4];
    struct graph_value vals[3], res;
    struct graph_value *ops[3];
    struct graph_op tmp = *op;
    for (int i = 0; i < op->n_operands; i++) {
        vals[i] = *op->operands[i];
        ty[i] = *vals[i].type;
        if (ty[i].quant) {
            ty[i].elem = ty[i].quant->expressed;
            ty[i].quant = NULL;
        }
        vals[i].type = &ty[i];
        ops[i] = &vals[i];
    }
    res = op->results[0];
    ty[3] = *res.type;
    if (ty[3].quant) {
        ty[3].elem = ty[3].quant->expressed;
        ty[3].quant = NULL;
    }
    res.type = &ty[3];
    tmp.operands = ops;
    tmp.results = &res;
    return cc_elem_op_supported(&tmp, t, why, cap);
}

/* ------------------------------------------------------- other ops */

static bool is_move(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_TRANSPOSE:
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_BROADCAST:
    case GRAPH_OP_SLICE:
    case GRAPH_OP_REVERSE:
    case GRAPH_OP_CONCATENATE:
    case GRAPH_OP_PAD:
    case GRAPH_OP_GATHER:
    case GRAPH_OP_DYNAMIC_SLICE:
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE:
    case GRAPH_OP_OPTIMIZATION_BARRIER:
    case GRAPH_OP_SDY_SHARDING_CONSTRAINT:
    case GRAPH_OP_SDY_RESHARD:
    case GRAPH_OP_SDY_PROPAGATION_BARRIER:
    case GRAPH_OP_MHLO_COPY:
        return true;
    default: return false;
    }
}

bool cc_quant_types_ok(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (!cc_quant_involved(op)) return true;
    if (op->kind == GRAPH_OP_BITCAST_CONVERT || op->kind == GRAPH_OP_CONSTANT) return true; /* the storage bits */
    if (op->kind == GRAPH_OP_DOT_GENERAL || op->kind == GRAPH_OP_CONVOLUTION || op->kind == GRAPH_OP_DOT) {
        enum base_dtype mm;
        double a, c;
        return cc_quant_mm(op, op->kind == GRAPH_OP_CONVOLUTION ? 1 : 0, op->kind == GRAPH_OP_CONVOLUTION ? 0 : 1, t,
                           &mm, &a, &c, why, cap);
    }
    if (graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE) || cc_quant_claims(op)) return true; /* k_elem.c decides */
    if (is_move(op->kind)) {
        /* dequantize -> move -> quantize is the identity on the storage when
         * the quantized operands and results share one type */
        const struct graph_quant *q = NULL;
        for (int i = 0; i < op->n_operands + op->n_results; i++) {
            const struct graph_type *ty = i < op->n_operands ? op->operands[i]->type : op->results[i - op->n_operands].type;
            const struct graph_quant *qi = quant_of(ty);
            bool index_operand = i < op->n_operands && i > 0 &&
                                 (op->kind == GRAPH_OP_GATHER || op->kind == GRAPH_OP_DYNAMIC_SLICE ||
                                  (op->kind == GRAPH_OP_DYNAMIC_UPDATE_SLICE && i > 1));
            if (index_operand) continue;
            if (!qi) return why_set(why, cap, "a move between quantized and plain types");
            if (q && !same_quant(q, qi)) return why_set(why, cap, "a move between different quantized types");
            q = qi;
        }
        return true;
    }
    return why_set(why, cap, "quantized types are lowered for elementwise ops, moves, dots and convolutions");
}

/* ------------------------------------------------------ dots and convolutions */

bool cc_quant_mm(const struct graph_op *op, int lhs, int rhs, const struct cc_target *t, enum base_dtype *mm_dt,
                 double *zp_lhs, double *zp_rhs, char *why, size_t cap)
{
    const struct graph_quant *ql = quant_of(op->operands[lhs]->type), *qr = quant_of(op->operands[rhs]->type),
                             *qo = quant_of(op->results[0].type);
    if (!ql || !qr || !qo)
        return why_set(why, cap, "a quantized dot or convolution with plain operands or result (hybrid) is not lowered");
    const struct graph_quant *qs[2] = {ql, qr};
    for (int i = 0; i < 2; i++) {
        if (qs[i]->quant_dim >= 0 && qs[i]->n_scales > 1)
            return why_set(why, cap, "per-axis quantized operands of a dot or convolution");
        if (!base_dtype_is_int(qs[i]->storage) || base_dtype_bits(qs[i]->storage) > 8)
            return why_set(why, cap, "dot operands quantized in more than 8 bits");
    }
    if (!base_dtype_is_int(qo->storage) || qo->quant_dim >= 0 || qo->zero_points[0] != 0)
        return why_set(why, cap, "a quantized dot result with a zero point or per-axis parameters");
    double prod = ql->scales[0] * qr->scales[0];
    if (!(fabs(qo->scales[0] - prod) <= 1e-6 * fabs(prod)))
        return why_set(why, cap, "a quantized dot whose result scale is not the operands' scales' product");
    *zp_lhs = (double)ql->zero_points[0];
    *zp_rhs = (double)qr->zero_points[0];
    bool i8 = t->chip->matmul_supports[BASE_DT_SI8] && ql->storage == BASE_DT_SI8 && qr->storage == BASE_DT_SI8 &&
              *zp_lhs == 0 && *zp_rhs == 0;
    if (i8) {
        *mm_dt = BASE_DT_SI8;
    } else if (t->chip->matmul_supports[BASE_DT_BF16]) {
        *mm_dt = BASE_DT_BF16;
    } else {
        return why_set(why, cap, "the arrays take neither int8 nor bf16");
    }
    return true;
}
