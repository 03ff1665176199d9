/* Convolution kernels (CC_K_CONV): stablehlo.convolution with any
 * dimension_numbers, window strides, padding, lhs and rhs dilation, window
 * reversal, feature_group_count and batch_group_count, lowered onto the
 * sum-of-matmuls engine (cc_mm_emit, k_dot.c).
 *
 * Each group g (feature or batch group) is a job.  For each kernel window
 * position w (row-major over the kernel's spatial dims) and input feature f
 * of the group:
 *     out[ob, of, os...] += x[batch(g, ob), f0(g) + f, in(os, w)...] * k[w..., f, of]
 * so a window position is a K piece of KI rows (input features on the
 * partitions): the kernel's slice k[w, :, group's of] is the stationary
 * operand (input features x output features), the input window the moving
 * one (input features x a box of output positions: batch and spatial dims),
 * read through a shifted strided view of x: output position o of a spatial
 * dim reads q = o * stride + w' * rhs_dilation - pad_lo of the lhs-dilated,
 * padded input (w' = w, or ksize - 1 - w when reversed), element q /
 * lhs_dilation when 0 <= q < dilated size and q % lhs_dilation == 0.
 * Padding and lhs-dilation holes are zeros in the moving tile: the tile is
 * zero-filled (memset) and the valid strided sub-box DMA'd over it (no
 * padded copy in HBM).  The products come in the interpreter's order (window
 * positions row-major, input features innermost), summed in f32 from +0:
 * bit for bit the interpreter's (docs/compiler.md "Kernels: convolution"). */
#include "compiler/cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONV_MAX_S (BASE_MAX_RANK - 2)

struct conv_attrs {
    int s;                                  /* spatial dims */
    int64_t ib, ifeat, is[CONV_MAX_S];
    int64_t ki, ko, ks[CONV_MAX_S];
    int64_t ob, of, os[CONV_MAX_S];
    int64_t stride[CONV_MAX_S], pad[2 * CONV_MAX_S], ldil[CONV_MAX_S], rdil[CONV_MAX_S], rev[CONV_MAX_S];
    int64_t fgc, bgc;
};

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

static bool dict_i64(const struct graph_attr *d, const char *name, int64_t *out)
{
    return graph_attr_as_i64(graph_dict_get(d, name), out);
}

static bool list_or(const struct graph_op *op, const char *name, int s, int64_t dflt, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) {
        for (int i = 0; i < s; i++) out[i] = dflt;
        return true;
    }
    int64_t tmp[2 * CONV_MAX_S];
    int n = graph_attr_as_i64_list(a, tmp, 2 * CONV_MAX_S);
    if (n < 0 && a->kind == GRAPH_ATTR_ELEMENTS && a->u.elements.value) {
        const struct base_tensor *t = a->u.elements.value;
        n = (int)t->count;
        for (int i = 0; i < n && i < 2 * CONV_MAX_S; i++) tmp[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
    } else if (n < 0 && a->kind == GRAPH_ATTR_ARRAY) {
        n = a->u.array.n;
        for (int i = 0; i < n && i < 2 * CONV_MAX_S; i++) {
            const struct graph_attr *it = a->u.array.items[i];
            tmp[i] = it->kind == GRAPH_ATTR_BOOL ? it->u.b : (graph_attr_as_i64(it, &tmp[i]) ? tmp[i] : 0);
        }
    }
    if (n != s) return false;
    for (int i = 0; i < s; i++) out[i] = tmp[i];
    return true;
}

static bool read_attrs(const struct graph_op *op, struct conv_attrs *c, char *why, size_t cap)
{
    memset(c, 0, sizeof *c);
    const struct graph_type *lt = op->operands[0]->type;
    int rank = lt->rank, s = rank - 2;
    if (rank < 2 || s > CONV_MAX_S) return why_set(why, cap, "convolution operands must have rank 2 or more");
    c->s = s;
    const struct graph_attr *d = graph_op_attr(op, "dimension_numbers");
    if (!d || !dict_i64(d, "input_batch_dimension", &c->ib) || !dict_i64(d, "input_feature_dimension", &c->ifeat) ||
        !dict_i64(d, "kernel_input_feature_dimension", &c->ki) || !dict_i64(d, "kernel_output_feature_dimension", &c->ko) ||
        !dict_i64(d, "output_batch_dimension", &c->ob) || !dict_i64(d, "output_feature_dimension", &c->of) ||
        graph_attr_as_i64_list(graph_dict_get(d, "input_spatial_dimensions"), c->is, CONV_MAX_S) != s ||
        graph_attr_as_i64_list(graph_dict_get(d, "kernel_spatial_dimensions"), c->ks, CONV_MAX_S) != s ||
        graph_attr_as_i64_list(graph_dict_get(d, "output_spatial_dimensions"), c->os, CONV_MAX_S) != s)
        return why_set(why, cap, "malformed dimension_numbers");
    if (!list_or(op, "window_strides", s, 1, c->stride) || !list_or(op, "lhs_dilation", s, 1, c->ldil) ||
        !list_or(op, "rhs_dilation", s, 1, c->rdil) || !list_or(op, "window_reversal", s, 0, c->rev))
        return why_set(why, cap, "malformed window attributes");
    const struct graph_attr *pa = graph_op_attr(op, "padding");
    if (!pa) {
        for (int i = 0; i < 2 * s; i++) c->pad[i] = 0;
    } else if (!list_or(op, "padding", 2 * s, 0, c->pad)) {
        return why_set(why, cap, "malformed padding");
    }
    c->fgc = c->bgc = 1;
    const struct graph_attr *a;
    if ((a = graph_op_attr(op, "feature_group_count")) && !graph_attr_as_i64(a, &c->fgc))
        return why_set(why, cap, "malformed feature_group_count");
    if ((a = graph_op_attr(op, "batch_group_count")) && !graph_attr_as_i64(a, &c->bgc))
        return why_set(why, cap, "malformed batch_group_count");
    for (int i = 0; i < s; i++)
        if (c->stride[i] < 1 || c->ldil[i] < 1 || c->rdil[i] < 1)
            return why_set(why, cap, "strides and dilations must be positive");
    if (c->fgc < 1 || c->bgc < 1 || (c->fgc > 1 && c->bgc > 1))
        return why_set(why, cap, "group counts must be positive and not both above 1");
    return true;
}

bool cc_conv_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (op->kind != GRAPH_OP_CONVOLUTION || op->n_operands != 2 || op->n_results != 1)
        return why_set(why, cap, "not a convolution");
    const struct graph_type *ts[3] = {op->operands[0]->type, op->operands[1]->type, op->results[0].type};
    for (int i = 0; i < 3; i++) {
        if (!ts[i] || ts[i]->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ts[i]))
            return why_set(why, cap, "needs static tensor operands and result");
        if (base_dtype_is_complex(ts[i]->elem)) return why_set(why, cap, "complex elements are not supported on chip");
        if (ts[i]->elem == BASE_DT_F64)
            return why_set(why, cap, cc_f64_limit(t));
    }
    bool fl = true, in = true;
    enum base_dtype qmm;
    double zs, zv;
    if (ts[0]->quant || ts[1]->quant || ts[2]->quant) { /* the kernel is the stationary operand */
        if (!cc_quant_mm(op, 1, 0, t, &qmm, &zs, &zv, why, cap)) return false;
        fl = false;
        in = false;
    }
    for (int i = 0; i < 3 && (fl || in); i++) {
        enum base_dtype dt = ts[i]->elem;
        if (!(base_dtype_is_float(dt) && base_dtype_bits(dt) <= 32)) fl = false;
        if (!(base_dtype_is_int(dt) || dt == BASE_DT_I1)) in = false;
    }
    if (!fl && !in && !ts[2]->quant) return why_set(why, cap, "mixed float and integer operands or result are not lowered");
    struct conv_attrs c;
    if (!read_attrs(op, &c, why, cap)) return false;
    if (c.s + 1 > CC_MM_MAX_N) return why_set(why, cap, "more than 3 spatial dims");
    return true;
}

static const struct cc_operand *find_in(const struct cc_kernel *k, const struct graph_value *v)
{
    int i = cc_kernel_input_index(k, v);
    return i < 0 ? NULL : &k->in[i];
}

/* The arrays' operand type (as for dots, k_dot.c). */
static enum base_dtype conv_mm_dtype(const struct chip_desc *chip, enum base_dtype lt, enum base_dtype rt)
{
    const bool *ok = chip->matmul_supports;
    if (lt == rt && lt != BASE_DT_F32 && ok[lt]) return lt;
    bool sl = base_dtype_bits(lt) <= 8, sr = base_dtype_bits(rt) <= 8;
    if ((lt == BASE_DT_BF16 || sl) && (rt == BASE_DT_BF16 || sr) && ok[BASE_DT_BF16]) return BASE_DT_BF16;
    bool hl = lt == BASE_DT_F16 || (sl && lt != BASE_DT_F8E8M0FNU), hr = rt == BASE_DT_F16 || (sr && rt != BASE_DT_F8E8M0FNU);
    if (hl && hr && ok[BASE_DT_F16]) return BASE_DT_F16;
    return BASE_DT_F32;
}

/* The precision of the f32 matmuls: HIGH or HIGHEST when precision_config
 * asks, else the compilation's default (cc_options.default_precision). */
enum isa_precision cc_conv_precision(const struct graph_op *op, const struct cc_target *t)
{
    const struct graph_attr *pc = graph_op_attr(op, "precision_config");
    enum isa_precision p = ISA_PREC_DEFAULT;
    if (pc && pc->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < pc->u.array.n; i++) {
            if (graph_attr_is_keyword(pc->u.array.items[i], "HIGHEST")) p = ISA_PREC_HIGHEST;
            else if (graph_attr_is_keyword(pc->u.array.items[i], "HIGH") && p < ISA_PREC_HIGH) p = ISA_PREC_HIGH;
        }
    if (p == ISA_PREC_DEFAULT && (unsigned)t->default_precision < ISA_PREC_COUNT) p = t->default_precision;
    return p;
}

enum base_status cc_emit_conv(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag)
{
    const struct graph_op *op = NULL;
    for (int i = 0; i < k->n_ops && !op; i++)
        if (k->ops[i]->kind == GRAPH_OP_CONVOLUTION) op = k->ops[i];
    if (!op) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "kernel %s: no convolution", k->info.name);
    char why[200];
    if (!cc_conv_op_supported(op, t, why, sizeof why)) return cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, why);
    if (k->n_out != 1 || k->out[0].value != &op->results[0] || k->n_ops != 1)
        return cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, "a convolution kernel is the convolution alone");
    const struct cc_operand *lo = find_in(k, op->operands[0]), *ro = find_in(k, op->operands[1]);
    if (!lo || !ro) return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "an operand is not a kernel input");
    const struct cc_view *X = &lo->view, *W = &ro->view, *O = &k->out[0].view;
    struct conv_attrs c;
    read_attrs(op, &c, why, sizeof why);
    int s = c.s;
    int64_t B = X->dims[c.ib], IF = X->dims[c.ifeat], KI = W->dims[c.ki], KO = W->dims[c.ko];
    int64_t G = c.fgc > 1 ? c.fgc : c.bgc;
    if (IF != KI * c.fgc || B % c.bgc || KO % G)
        return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "feature or batch counts do not match the group counts");
    int64_t OB = B / c.bgc, KOg = KO / G;
    if (O->dims[c.ob] != OB || O->dims[c.of] != KO)
        return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "the result's batch or feature size does not match");
    struct cc_mm p;
    memset(&p, 0, sizeof p);
    int64_t (*job)[3] = calloc((size_t)G, sizeof *job);
    int64_t wcount = 1;
    for (int i = 0; i < s; i++) wcount *= W->dims[c.ks[i]];
    struct cc_mm_piece *pcs = calloc((size_t)(wcount > 0 ? wcount : 1), sizeof *pcs);
    if (!job || !pcs) {
        free(job);
        free(pcs);
        return cc_kernel_fail(t, k, op, diag, BASE_ERR_NOMEM, "out of memory");
    }
    /* jobs: the groups */
    for (int64_t g = 0; g < G; g++) {
        job[g][0] = g * KOg * W->strides[c.ko];
        job[g][1] = c.fgc > 1 ? g * KI * X->strides[c.ifeat] : g * OB * X->strides[c.ib];
        job[g][2] = g * KOg * O->strides[c.of];
    }
    p.n_jobs = (uint32_t)G;
    p.job_off = (const int64_t(*)[3])job;
    p.s_addr = W->addr;
    p.s_dt = W->dtype;
    p.s_m = W->strides[c.ko];
    p.v_addr = X->addr;
    p.v_dt = X->dtype;
    p.c_addr = O->addr;
    p.c_dt = O->dtype;
    p.c_m = O->strides[c.of];
    p.M = KOg;
    /* the moving box: output batch, then the output spatial dims */
    p.n_nd = 1 + s;
    p.n[0] = OB;
    p.v_n[0] = X->strides[c.ib];
    p.c_n[0] = O->strides[c.ob];
    p.mul[0] = p.div[0] = 1;
    p.lim[0] = OB;
    enum base_status st = BASE_OK;
    for (int i = 0; i < s; i++) {
        int64_t in = X->dims[c.is[i]], kz = W->dims[c.ks[i]];
        int64_t dil_in = in ? (in - 1) * c.ldil[i] + 1 : 0;
        int64_t padded = c.pad[2 * i] + dil_in + c.pad[2 * i + 1], dil_k = kz ? (kz - 1) * c.rdil[i] + 1 : 0;
        int64_t osz = (padded <= 0 || dil_k > padded) ? 0 : (padded - dil_k) / c.stride[i] + 1;
        if (O->dims[c.os[i]] != osz) st = BASE_ERR_INVALID;
        p.n[1 + i] = osz;
        p.v_n[1 + i] = X->strides[c.is[i]];
        p.c_n[1 + i] = O->strides[c.os[i]];
        p.mul[1 + i] = c.stride[i];
        p.div[1 + i] = c.ldil[i];
        p.lim[1 + i] = dil_in;
    }
    if (st != BASE_OK) {
        free(job);
        free(pcs);
        return cc_kernel_fail(t, k, op, diag, st, "the result's spatial sizes do not match the window");
    }
    /* pieces: window positions row-major, KI input features each */
    int64_t w[CONV_MAX_S] = {0};
    for (int64_t j = 0; j < wcount; j++) {
        struct cc_mm_piece *pc = &pcs[j];
        pc->rows = (uint32_t)KI;
        pc->s_k = W->strides[c.ki];
        pc->v_k = X->strides[c.ifeat];
        for (int i = 0; i < s; i++) {
            int64_t kz = W->dims[c.ks[i]], wl = c.rev[i] ? kz - 1 - w[i] : w[i];
            pc->s_off += w[i] * W->strides[c.ks[i]];
            pc->add[1 + i] = wl * c.rdil[i] - c.pad[2 * i];
        }
        for (int i = s - 1; i >= 0; i--) {
            if (++w[i] < W->dims[c.ks[i]]) break;
            w[i] = 0;
        }
    }
    p.n_pieces = (int)wcount;
    p.pieces = pcs;
    bool quant = op->results[0].type->quant != NULL;
    bool integer = !base_dtype_is_float(O->dtype) && !quant;
    p.integer = integer;
    p.mm_dt = integer ? BASE_DT_COUNT : conv_mm_dtype(t->chip, X->dtype, W->dtype);
    if (quant) { /* storage - zero point, exact on the arrays (cc_quant_mm) */
        char qwhy[160];
        cc_quant_mm(op, 1, 0, t, &p.mm_dt, &p.s_zp, &p.v_zp, qwhy, sizeof qwhy);
    }
    p.acc_dt = op->results[0].type->elem;
    p.prec = cc_conv_precision(op, t);
    bool empty = KOg == 0 || wcount == 0 || KI == 0;
    for (int i = 0; i < p.n_nd; i++)
        if (p.n[i] == 0) empty = true;
    if (empty) st = cc_mm_emit_zeros(t, k, O, ctx, out, diag); /* no result, or sums over nothing: 0 */
    else if (!integer && p.mm_dt == BASE_DT_F32 && !t->chip->matmul_supports[BASE_DT_F32] &&
             !(t->chip->family == CHIP_FAMILY_TPU && t->chip->matmul_supports[BASE_DT_BF16]))
        st = cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, "the arrays take neither the operands' types nor f32");
    else st = cc_mm_emit(t, k, &p, ctx, out, diag);
    free(job);
    free(pcs);
    return st;
}
