/* Golden interpreter: convolution and dynamic_conv.
 *
 * Semantics follow the spec's reframing: the lhs is padded (edge padding, then
 * lhs_dilation - 1 zeros between elements), windows of the kernel's spatial
 * size (dilated by rhs_dilation) are taken at window_strides, optionally
 * reversed, and contracted with the kernel over spatial dims then input
 * features.  feature_group_count splits input features and output features
 * into groups; batch_group_count splits the batch and the output features.
 *
 * Sums follow the rule for sums of products (interp_dot.c): the reference
 * interpreter computes each window as a dot_general contracting the input
 * spatial dims (in the order dimension_numbers lists them) and then the input
 * feature, so the products of a window are summed in row-major order of the
 * kernel spatial index with the input feature innermost.  Float results sum
 * in A = f64 for f64 results, f32 otherwise (operands converted to A, each
 * product rounded to A, no FMA), complex results in complex<A>, rounded once
 * to the result type; integers sum in 64-bit wrapping arithmetic.  Padding
 * contributes 0 * kernel: the running sum starts at +0 and never becomes -0
 * (x + (-x) is +0 under round to nearest), so adding a zero product leaves it
 * unchanged, and those terms only matter (and are only added) when the kernel
 * holds inf or NaN.
 */
#include "interp/interp_internal.h"
#include "interp/interp_acc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONV_MAX_SPATIAL (BASE_MAX_RANK - 2)

struct conv_dims {
    int64_t ib, ifeat, is[CONV_MAX_SPATIAL];
    int64_t ki, ko, ks[CONV_MAX_SPATIAL];
    int64_t ob, of, os[CONV_MAX_SPATIAL];
};

static bool dict_i64(const struct graph_attr *d, const char *name, int64_t *out)
{
    return graph_attr_as_i64(graph_dict_get(d, name), out);
}

static enum base_status read_dims(struct interp_proc *p, const struct graph_op *op, int rank, struct conv_dims *cd)
{
    const struct graph_attr *d = graph_op_attr(op, "dimension_numbers");
    int s = rank - 2;
    if (!d || !dict_i64(d, "input_batch_dimension", &cd->ib) || !dict_i64(d, "input_feature_dimension", &cd->ifeat) ||
        !dict_i64(d, "kernel_input_feature_dimension", &cd->ki) ||
        !dict_i64(d, "kernel_output_feature_dimension", &cd->ko) ||
        !dict_i64(d, "output_batch_dimension", &cd->ob) || !dict_i64(d, "output_feature_dimension", &cd->of) ||
        interp_i64_list(graph_dict_get(d, "input_spatial_dimensions"), cd->is, CONV_MAX_SPATIAL) != s ||
        interp_i64_list(graph_dict_get(d, "kernel_spatial_dimensions"), cd->ks, CONV_MAX_SPATIAL) != s ||
        interp_i64_list(graph_dict_get(d, "output_spatial_dimensions"), cd->os, CONV_MAX_SPATIAL) != s)
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed dimension_numbers for rank %d", rank);
    /* each of input / kernel / output dims must be a permutation of [0, rank) */
    const int64_t *groups[3][3] = {{&cd->ib, &cd->ifeat, cd->is}, {&cd->ki, &cd->ko, cd->ks}, {&cd->ob, &cd->of, cd->os}};
    for (int g = 0; g < 3; g++) {
        bool seen[BASE_MAX_RANK] = {false};
        int64_t all[BASE_MAX_RANK];
        all[0] = *groups[g][0];
        all[1] = *groups[g][1];
        for (int i = 0; i < s; i++) all[2 + i] = groups[g][2][i];
        for (int i = 0; i < rank; i++) {
            if (all[i] < 0 || all[i] >= rank || seen[all[i]])
                return interp_fail(p, op, BASE_ERR_INVALID, "dimension_numbers are not a permutation of the dims");
            seen[all[i]] = true;
        }
    }
    return BASE_OK;
}

static enum base_status read_list(struct interp_proc *p, const struct graph_op *op, const char *name, int s,
                                  int64_t dflt, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) {
        for (int i = 0; i < s; i++) out[i] = dflt;
        return BASE_OK;
    }
    if (interp_i64_list(a, out, CONV_MAX_SPATIAL) != s)
        return interp_fail(p, op, BASE_ERR_INVALID, "%s must have %d elements", name, s);
    return BASE_OK;
}

/* window_reversal: a dense array of i1 (or any integer / bool list form). */
static enum base_status read_reversal(struct interp_proc *p, const struct graph_op *op, int s, int64_t *rev)
{
    const struct graph_attr *a = graph_op_attr(op, "window_reversal");
    for (int i = 0; i < s; i++) rev[i] = 0;
    if (!a) return BASE_OK;
    int n = graph_attr_as_i64_list(a, rev, CONV_MAX_SPATIAL);
    if (n < 0 && a->kind == GRAPH_ATTR_ELEMENTS && a->u.elements.value) {
        const struct base_tensor *t = a->u.elements.value;
        n = (int)t->count;
        for (int i = 0; i < n && i < CONV_MAX_SPATIAL; i++) rev[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
    } else if (n < 0 && a->kind == GRAPH_ATTR_ARRAY) {
        n = a->u.array.n;
        for (int i = 0; i < n && i < CONV_MAX_SPATIAL; i++) {
            const struct graph_attr *it = a->u.array.items[i];
            rev[i] = it->kind == GRAPH_ATTR_BOOL ? it->u.b : (graph_attr_as_i64(it, &rev[i]) ? rev[i] : 0);
        }
    }
    if (n != s) return interp_fail(p, op, BASE_ERR_INVALID, "window_reversal must have %d elements", s);
    return BASE_OK;
}

static enum base_status read_padding_tensor(struct interp_proc *p, const struct graph_op *op,
                                            const struct base_tensor *t, int s, int64_t *pad)
{
    if (!t || t->count != 2 * s || !base_dtype_is_int(t->dtype))
        return interp_fail(p, op, BASE_ERR_INVALID, "padding must be an integer tensor of shape [%d, 2]", s);
    for (int64_t i = 0; i < t->count; i++) pad[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
    return BASE_OK;
}

/* F32 / F64: real sums in A; C64 / C128: complex sums with A parts; I64:
 * wrapping integer sums; BOOL: OR of ANDs (as interp_dot.c). */
enum conv_acc { CACC_F32, CACC_F64, CACC_C64, CACC_C128, CACC_I64, CACC_BOOL };

static enum conv_acc acc_for(enum base_dtype res, enum base_dtype a, enum base_dtype b)
{
    if (base_dtype_is_complex(res) || base_dtype_is_complex(a) || base_dtype_is_complex(b))
        return res == BASE_DT_C64 ? CACC_C64 : CACC_C128;
    bool ints = !base_dtype_is_float(a) && !base_dtype_is_float(b);
    enum base_dtype_kind rk = base_dtype_kind(res);
    if (rk == BASE_KIND_BOOL) return ints ? CACC_BOOL : CACC_F64;
    if (rk == BASE_KIND_SINT || rk == BASE_KIND_UINT) return ints ? CACC_I64 : CACC_F64;
    return res == BASE_DT_F64 ? CACC_F64 : CACC_F32;
}

/* Operand values in the accumulation type: floats (re, and im for complex),
 * doubles, or 64-bit integers. */
struct conv_vals {
    float *fre, *fim;
    double *re, *im;
    uint64_t *u;
};

static void vals_free(struct conv_vals *v)
{
    free(v->fre);
    free(v->fim);
    free(v->re);
    free(v->im);
    free(v->u);
}

static enum base_status vals_load(const struct base_tensor *t, enum conv_acc acc, struct conv_vals *v)
{
    memset(v, 0, sizeof *v);
    size_t n = (size_t)(t->count > 0 ? t->count : 1);
    switch (acc) {
    case CACC_I64:
    case CACC_BOOL: {
        v->u = malloc(n * sizeof *v->u);
        if (!v->u) return BASE_ERR_NOMEM;
        for (int64_t i = 0; i < t->count; i++) v->u[i] = interp_acc_ld_u(t->dtype, t->data, i);
        return BASE_OK;
    }
    case CACC_F32:
    case CACC_C64: {
        bool cplx = acc == CACC_C64;
        v->fre = malloc(n * sizeof *v->fre);
        if (cplx) v->fim = malloc(n * sizeof *v->fim);
        if (!v->fre || (cplx && !v->fim)) return BASE_ERR_NOMEM;
        for (int64_t i = 0; i < t->count; i++) {
            float re, im;
            interp_acc_ld_c64(t->dtype, t->data, i, &re, &im);
            v->fre[i] = re;
            if (cplx) v->fim[i] = im;
        }
        return BASE_OK;
    }
    case CACC_F64:
    case CACC_C128: {
        bool cplx = acc == CACC_C128;
        v->re = malloc(n * sizeof *v->re);
        if (cplx) v->im = malloc(n * sizeof *v->im);
        if (!v->re || (cplx && !v->im)) return BASE_ERR_NOMEM;
        for (int64_t i = 0; i < t->count; i++) {
            double re, im;
            interp_acc_ld_c128(t->dtype, t->data, i, &re, &im);
            v->re[i] = re;
            if (cplx) v->im[i] = im;
        }
        return BASE_OK;
    }
    }
    return BASE_OK;
}

static bool any_nonfinite(const struct conv_vals *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (v->fre && (!isfinite(v->fre[i]) || (v->fim && !isfinite(v->fim[i])))) return true;
        if (v->re && (!isfinite(v->re[i]) || (v->im && !isfinite(v->im[i])))) return true;
    }
    return false;
}

static enum base_status conv_run(struct interp_proc *p, const struct graph_op *op, const struct base_tensor *lhs,
                                 const struct base_tensor *rhs, const int64_t *pad, struct interp_value **out)
{
    int rank = lhs->rank;
    if (rank < 2 || rhs->rank != rank) return interp_fail(p, op, BASE_ERR_INVALID, "lhs and rhs must have the same rank >= 2");
    int s = rank - 2;
    struct conv_dims cd;
    TRY(read_dims(p, op, rank, &cd));
    int64_t stride[CONV_MAX_SPATIAL], ldil[CONV_MAX_SPATIAL], rdil[CONV_MAX_SPATIAL], rev[CONV_MAX_SPATIAL];
    TRY(read_list(p, op, "window_strides", s, 1, stride));
    TRY(read_list(p, op, "lhs_dilation", s, 1, ldil));
    TRY(read_list(p, op, "rhs_dilation", s, 1, rdil));
    TRY(read_reversal(p, op, s, rev));
    for (int i = 0; i < s; i++)
        if (stride[i] < 1 || ldil[i] < 1 || rdil[i] < 1)
            return interp_fail(p, op, BASE_ERR_INVALID, "strides and dilations must be positive");
    int64_t fgc = 1, bgc = 1;
    const struct graph_attr *a;
    if ((a = graph_op_attr(op, "feature_group_count")) && !graph_attr_as_i64(a, &fgc))
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed feature_group_count");
    if ((a = graph_op_attr(op, "batch_group_count")) && !graph_attr_as_i64(a, &bgc))
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed batch_group_count");
    if (fgc < 1 || bgc < 1 || (fgc > 1 && bgc > 1))
        return interp_fail(p, op, BASE_ERR_INVALID, "group counts must be positive and not both above 1");

    int64_t B = lhs->dims[cd.ib], IF = lhs->dims[cd.ifeat], KI = rhs->dims[cd.ki], KO = rhs->dims[cd.ko];
    if (IF != KI * fgc)
        return interp_fail(p, op, BASE_ERR_INVALID, "input features (%lld) != kernel input features (%lld) * feature_group_count (%lld)",
                           (long long)IF, (long long)KI, (long long)fgc);
    if (B % bgc || KO % bgc || KO % fgc)
        return interp_fail(p, op, BASE_ERR_INVALID, "batch or output features not divisible by the group count");
    int64_t OB = B / bgc;
    int64_t odims[BASE_MAX_RANK], osz[CONV_MAX_SPATIAL], ksz[CONV_MAX_SPATIAL];
    odims[cd.ob] = OB;
    odims[cd.of] = KO;
    for (int i = 0; i < s; i++) {
        int64_t in = lhs->dims[cd.is[i]], k = rhs->dims[cd.ks[i]];
        int64_t dil_in = in == 0 ? 0 : (in - 1) * ldil[i] + 1;
        int64_t padded = pad[2 * i] + dil_in + pad[2 * i + 1];
        int64_t dil_k = k == 0 ? 0 : (k - 1) * rdil[i] + 1;
        osz[i] = (padded <= 0 || dil_k > padded) ? 0 : (padded - dil_k) / stride[i] + 1;
        ksz[i] = k;
        odims[cd.os[i]] = osz[i];
    }
    const struct graph_type *rt = interp_result_type(op, 0);
    if (rt && rt->kind == GRAPH_TYPE_TENSOR && rt->rank == rank)
        for (int i = 0; i < rank; i++)
            if (rt->dims[i] != GRAPH_DYN && rt->dims[i] != odims[i])
                return interp_fail(p, op, BASE_ERR_INVALID, "result dimension %d is %lld, expected %lld", i,
                                   (long long)rt->dims[i], (long long)odims[i]);
    struct base_tensor *res = NULL;
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, 0), rank, odims, &res);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate the result");

    /* input spatial index for (output index, window index) per spatial dim */
    int64_t *src[CONV_MAX_SPATIAL] = {NULL};
    for (int i = 0; i < s && st == BASE_OK; i++) {
        int64_t in = lhs->dims[cd.is[i]];
        int64_t dil_in = in == 0 ? 0 : (in - 1) * ldil[i] + 1;
        src[i] = malloc((size_t)(osz[i] * ksz[i] > 0 ? osz[i] * ksz[i] : 1) * sizeof(int64_t));
        if (!src[i]) {
            st = BASE_ERR_NOMEM;
            break;
        }
        for (int64_t o = 0; o < osz[i]; o++)
            for (int64_t w = 0; w < ksz[i]; w++) {
                int64_t wl = rev[i] ? ksz[i] - 1 - w : w; /* reversal applies to the lhs window */
                int64_t q = o * stride[i] + wl * rdil[i] - pad[2 * i];
                src[i][o * ksz[i] + w] = (q >= 0 && q < dil_in && q % ldil[i] == 0) ? q / ldil[i] : -1;
            }
    }
    enum conv_acc acc = acc_for(res->dtype, lhs->dtype, rhs->dtype);
    struct conv_vals lv, rv;
    memset(&lv, 0, sizeof lv);
    memset(&rv, 0, sizeof rv);
    if (st == BASE_OK) st = vals_load(lhs, acc, &lv);
    if (st == BASE_OK) st = vals_load(rhs, acc, &rv);
    if (st != BASE_OK) {
        for (int i = 0; i < s; i++) free(src[i]);
        vals_free(&lv);
        vals_free(&rv);
        base_tensor_release(res);
        return interp_fail(p, op, st, "out of memory");
    }
    bool pad_terms = any_nonfinite(&rv, rhs->count);
    int64_t ls[BASE_MAX_RANK], rs[BASE_MAX_RANK];
    base_shape_strides(rank, lhs->dims, ls);
    base_shape_strides(rank, rhs->dims, rs);
    int64_t wcount = base_shape_count(s, ksz);
    int64_t kout_per_group = KO / (fgc > 1 ? fgc : bgc);
    int64_t oidx[BASE_MAX_RANK] = {0};
    for (int64_t o = 0; o < res->count; o++) {
        if (o > 0) interp_index_next(rank, odims, oidx);
        int64_t ob = oidx[cd.ob], of = oidx[cd.of];
        int64_t g = of / kout_per_group;
        int64_t batch = bgc > 1 ? g * OB + ob : ob;
        int64_t f0 = fgc > 1 ? g * KI : 0;
        int64_t lbase = batch * ls[cd.ib] + f0 * ls[cd.ifeat];
        int64_t rbase = of * rs[cd.ko];
        float fr = 0.0f, fi = 0.0f;
        double sr = 0.0, si = 0.0;
        uint64_t su = 0;
        bool sb = false;
        int64_t widx[CONV_MAX_SPATIAL] = {0};
        for (int64_t w = 0; w < wcount; w++) {
            if (w > 0) interp_index_next(s, ksz, widx);
            int64_t loff = lbase, roff = rbase;
            bool inside = true;
            for (int i = 0; i < s; i++) {
                int64_t q = src[i][oidx[cd.os[i]] * ksz[i] + widx[i]];
                if (q < 0) inside = false;
                else loff += q * ls[cd.is[i]];
                roff += widx[i] * rs[cd.ks[i]];
            }
            if (!inside && !pad_terms) continue;
            for (int64_t f = 0; f < KI; f++) {
                int64_t li = loff + f * ls[cd.ifeat], ri = roff + f * rs[cd.ki];
                /* each product rounded to A, then added: no FMA (ISO C
                 * mode does not contract) */
                switch (acc) {
                case CACC_F32: {
                    float prod = (inside ? lv.fre[li] : 0.0f) * rv.fre[ri];
                    fr = fr + prod;
                    break;
                }
                case CACC_F64: {
                    double prod = (inside ? lv.re[li] : 0.0) * rv.re[ri];
                    sr = sr + prod;
                    break;
                }
                case CACC_C64: {
                    float xr = inside ? lv.fre[li] : 0.0f, xi = inside ? lv.fim[li] : 0.0f;
                    float rr = xr * rv.fre[ri], ii = xi * rv.fim[ri], ri2 = xr * rv.fim[ri], ir = xi * rv.fre[ri];
                    float pr = rr - ii, pi = ri2 + ir;
                    fr = fr + pr;
                    fi = fi + pi;
                    break;
                }
                case CACC_C128: {
                    double xr = inside ? lv.re[li] : 0.0, xi = inside ? lv.im[li] : 0.0;
                    double rr = xr * rv.re[ri], ii = xi * rv.im[ri], ri2 = xr * rv.im[ri], ir = xi * rv.re[ri];
                    double pr = rr - ii, pi = ri2 + ir;
                    sr = sr + pr;
                    si = si + pi;
                    break;
                }
                case CACC_I64:
                    su += lv.u[li] * rv.u[ri];
                    break;
                case CACC_BOOL:
                    sb = sb || (lv.u[li] && rv.u[ri]);
                    break;
                }
            }
        }
        switch (acc) {
        case CACC_F32: interp_acc_st_f32(res->dtype, res->data, o, fr); break;
        case CACC_C64: base_elem_set_c128(res->dtype, res->data, (size_t)o, fr, fi); break;
        case CACC_F64: base_elem_set_f64(res->dtype, res->data, (size_t)o, sr); break;
        case CACC_C128: base_elem_set_c128(res->dtype, res->data, (size_t)o, sr, si); break;
        case CACC_I64: base_elem_set_i64(res->dtype, res->data, (size_t)o, (int64_t)su); break;
        case CACC_BOOL: base_elem_set_i64(res->dtype, res->data, (size_t)o, sb ? 1 : 0); break;
        }
    }
    for (int i = 0; i < s; i++) free(src[i]);
    vals_free(&lv);
    vals_free(&rv);
    return interp_set_out(p, op, out, 0, res);
}

static enum base_status k_convolution(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *lhs = op->n_operands >= 2 ? iv_t(in[0]) : NULL, *rhs = lhs ? iv_t(in[1]) : NULL;
    if (!lhs || !rhs) return interp_fail(p, op, BASE_ERR_INVALID, "convolution expects lhs and rhs tensors");
    if (lhs->rank < 2) return interp_fail(p, op, BASE_ERR_INVALID, "operands must have rank >= 2");
    int64_t pad[2 * CONV_MAX_SPATIAL] = {0};
    int s = lhs->rank - 2;
    const struct graph_attr *a = graph_op_attr(op, "padding");
    if (a) {
        if (a->kind == GRAPH_ATTR_ELEMENTS) TRY(read_padding_tensor(p, op, a->u.elements.value, s, pad));
        else if (interp_i64_list(a, pad, 2 * CONV_MAX_SPATIAL) != 2 * s)
            return interp_fail(p, op, BASE_ERR_INVALID, "padding must have shape [%d, 2]", s);
    }
    return conv_run(p, op, lhs, rhs, pad, out);
}

static enum base_status k_dynamic_conv(struct interp_proc *p, const struct graph_op *op,
                                       struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != 3 || !iv_t(in[0]) || !iv_t(in[1]) || !iv_t(in[2]))
        return interp_fail(p, op, BASE_ERR_INVALID, "dynamic_conv expects lhs, rhs and padding tensors");
    const struct base_tensor *lhs = iv_t(in[0]);
    if (lhs->rank < 2) return interp_fail(p, op, BASE_ERR_INVALID, "operands must have rank >= 2");
    int64_t pad[2 * CONV_MAX_SPATIAL] = {0};
    TRY(read_padding_tensor(p, op, iv_t(in[2]), lhs->rank - 2, pad));
    return conv_run(p, op, lhs, iv_t(in[1]), pad, out);
}

void interp_register_conv(interp_kernel_fn *table)
{
    table[GRAPH_OP_CONVOLUTION] = k_convolution;
    table[GRAPH_OP_DYNAMIC_CONV] = k_dynamic_conv;
}
