/* Golden interpreter: the linear-algebra family.  This file holds
 * batch_norm_inference / _training / _grad, cholesky, triangular_solve and
 * einsum, and registers the family (dot_general, dot and chlo.ragged_dot live
 * in interp_dot.c, convolution in interp_conv.c, fft in interp_fft.c).
 *
 * einsum follows the rule for sums of products (interp_dot.c): a float
 * result sums in A = f64 for f64 results and f32 otherwise (complex: in
 * complex<A>), operands converted to A, each product rounded to A (no FMA),
 * added in row-major order of the contracted labels, rounded once to the
 * result type; integer results wrap.  The other ops compute in double
 * (complex: two doubles) and round once to the result type.
 */
#include "interp/interp_internal.h"
#include "interp/interp_acc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool keyword_is(const struct graph_attr *a, const char *s)
{
    size_t n = strlen(s);
    return a && (a->kind == GRAPH_ATTR_KEYWORD || a->kind == GRAPH_ATTR_STRING) && a->u.str.len == n &&
           !memcmp(a->u.str.s, s, n);
}

static enum base_status new_result(struct interp_proc *p, const struct graph_op *op, int i, int rank,
                                   const int64_t *dims, struct base_tensor **out)
{
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, i), rank, dims, out);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate result %d", i);
    return BASE_OK;
}

static inline double get(const struct base_tensor *t, int64_t i)
{
    return base_elem_get_f64(t->dtype, t->data, (size_t)i);
}

/* ------------------------------------------------------------------------ */
/* batch_norm_*                                                              */

struct bn_shape {
    int64_t feature, features, inner, per_feature;
    double eps;
};

static enum base_status bn_shape(struct interp_proc *p, const struct graph_op *op, const struct base_tensor *x,
                                 struct bn_shape *bs)
{
    int64_t fi;
    if (!graph_attr_as_i64(graph_op_attr(op, "feature_index"), &fi) || fi < 0 || fi >= x->rank)
        return interp_fail(p, op, BASE_ERR_INVALID, "feature_index is missing or out of range");
    const struct graph_attr *e = graph_op_attr(op, "epsilon");
    double eps = 0.0;
    if (e && e->kind == GRAPH_ATTR_FLOAT) {
        /* epsilon is an f32 constant: use its value as that type holds it */
        eps = base_dtype_is_float(e->elem) ? base_float_round(e->elem, e->u.f) : e->u.f;
    } else if (e) {
        return interp_fail(p, op, BASE_ERR_INVALID, "epsilon must be a float");
    }
    bs->feature = fi;
    bs->features = x->dims[fi];
    bs->inner = 1;
    for (int d = (int)fi + 1; d < x->rank; d++) bs->inner *= x->dims[d];
    bs->per_feature = bs->features ? x->count / bs->features : 0;
    bs->eps = eps;
    return BASE_OK;
}

static inline int64_t bn_feature(const struct bn_shape *bs, int64_t i)
{
    return (i / bs->inner) % bs->features;
}

static enum base_status check_vec(struct interp_proc *p, const struct graph_op *op, const struct base_tensor *v,
                                  int64_t n, const char *what)
{
    if (!v || v->rank != 1 || v->dims[0] != n)
        return interp_fail(p, op, BASE_ERR_INVALID, "%s must be a 1-D tensor of %lld elements", what, (long long)n);
    return BASE_OK;
}

static enum base_status k_batch_norm_inference(struct interp_proc *p, const struct graph_op *op,
                                               struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != 5) return interp_fail(p, op, BASE_ERR_INVALID, "expects 5 operands");
    const struct base_tensor *x = iv_t(in[0]), *scale = iv_t(in[1]), *offset = iv_t(in[2]), *mean = iv_t(in[3]),
                             *var = iv_t(in[4]);
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "operand is not a tensor");
    struct bn_shape bs;
    TRY(bn_shape(p, op, x, &bs));
    TRY(check_vec(p, op, scale, bs.features, "scale"));
    TRY(check_vec(p, op, offset, bs.features, "offset"));
    TRY(check_vec(p, op, mean, bs.features, "mean"));
    TRY(check_vec(p, op, var, bs.features, "variance"));
    struct base_tensor *r = NULL;
    TRY(new_result(p, op, 0, x->rank, x->dims, &r));
    for (int64_t i = 0; i < x->count; i++) {
        int64_t f = bn_feature(&bs, i);
        double y = (get(x, i) - get(mean, f)) / sqrt(get(var, f) + bs.eps) * get(scale, f) + get(offset, f);
        base_elem_set_f64(r->dtype, r->data, (size_t)i, y);
    }
    return interp_set_out(p, op, out, 0, r);
}

/* Per-feature mean and (biased) variance in double, two passes. */
static enum base_status bn_moments(const struct base_tensor *x, const struct bn_shape *bs, double **mean_out,
                                   double **var_out)
{
    size_t nf = (size_t)(bs->features ? bs->features : 1);
    double *mean = calloc(nf, sizeof *mean), *var = calloc(nf, sizeof *var);
    if (!mean || !var) {
        free(mean);
        free(var);
        return BASE_ERR_NOMEM;
    }
    for (int64_t i = 0; i < x->count; i++) mean[bn_feature(bs, i)] += get(x, i);
    for (int64_t f = 0; f < bs->features; f++) mean[f] /= (double)bs->per_feature;
    for (int64_t i = 0; i < x->count; i++) {
        int64_t f = bn_feature(bs, i);
        double c = get(x, i) - mean[f];
        var[f] += c * c;
    }
    for (int64_t f = 0; f < bs->features; f++) var[f] /= (double)bs->per_feature;
    *mean_out = mean;
    *var_out = var;
    return BASE_OK;
}

static enum base_status k_batch_norm_training(struct interp_proc *p, const struct graph_op *op,
                                              struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != 3 || op->n_results != 3)
        return interp_fail(p, op, BASE_ERR_INVALID, "expects 3 operands and 3 results");
    const struct base_tensor *x = iv_t(in[0]), *scale = iv_t(in[1]), *offset = iv_t(in[2]);
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "operand is not a tensor");
    struct bn_shape bs;
    TRY(bn_shape(p, op, x, &bs));
    TRY(check_vec(p, op, scale, bs.features, "scale"));
    TRY(check_vec(p, op, offset, bs.features, "offset"));
    double *mean = NULL, *var = NULL;
    if (bn_moments(x, &bs, &mean, &var) != BASE_OK) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    struct base_tensor *r[3] = {NULL, NULL, NULL};
    enum base_status st = new_result(p, op, 0, x->rank, x->dims, &r[0]);
    if (st == BASE_OK) st = new_result(p, op, 1, 1, &bs.features, &r[1]);
    if (st == BASE_OK) st = new_result(p, op, 2, 1, &bs.features, &r[2]);
    if (st == BASE_OK) {
        for (int64_t i = 0; i < x->count; i++) {
            int64_t f = bn_feature(&bs, i);
            double y = (get(x, i) - mean[f]) / sqrt(var[f] + bs.eps) * get(scale, f) + get(offset, f);
            base_elem_set_f64(r[0]->dtype, r[0]->data, (size_t)i, y);
        }
        for (int64_t f = 0; f < bs.features; f++) {
            base_elem_set_f64(r[1]->dtype, r[1]->data, (size_t)f, mean[f]);
            base_elem_set_f64(r[2]->dtype, r[2]->data, (size_t)f, var[f]);
        }
    }
    free(mean);
    free(var);
    return interp_set_outs(p, op, st, out, r, 3);
}

static enum base_status k_batch_norm_grad(struct interp_proc *p, const struct graph_op *op,
                                          struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != 5 || op->n_results != 3)
        return interp_fail(p, op, BASE_ERR_INVALID, "expects 5 operands and 3 results");
    const struct base_tensor *x = iv_t(in[0]), *scale = iv_t(in[1]), *mean = iv_t(in[2]), *var = iv_t(in[3]),
                             *dy = iv_t(in[4]);
    if (!x || !dy || dy->count != x->count) return interp_fail(p, op, BASE_ERR_INVALID, "operand and grad_output must match");
    struct bn_shape bs;
    TRY(bn_shape(p, op, x, &bs));
    TRY(check_vec(p, op, scale, bs.features, "scale"));
    TRY(check_vec(p, op, mean, bs.features, "mean"));
    TRY(check_vec(p, op, var, bs.features, "variance"));
    size_t nf = (size_t)(bs.features ? bs.features : 1);
    double *sum_dy = calloc(nf, sizeof(double)), *sum_dyc = calloc(nf, sizeof(double));
    if (!sum_dy || !sum_dyc) {
        free(sum_dy);
        free(sum_dyc);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    for (int64_t i = 0; i < x->count; i++) {
        int64_t f = bn_feature(&bs, i);
        double g = get(dy, i);
        sum_dy[f] += g;
        sum_dyc[f] += g * (get(x, i) - get(mean, f));
    }
    struct base_tensor *r[3] = {NULL, NULL, NULL};
    enum base_status st = new_result(p, op, 0, x->rank, x->dims, &r[0]);
    if (st == BASE_OK) st = new_result(p, op, 1, 1, &bs.features, &r[1]);
    if (st == BASE_OK) st = new_result(p, op, 2, 1, &bs.features, &r[2]);
    if (st == BASE_OK) {
        double n = (double)bs.per_feature;
        for (int64_t i = 0; i < x->count; i++) {
            int64_t f = bn_feature(&bs, i);
            double ve = get(var, f) + bs.eps, sd = sqrt(ve);
            double c = get(x, i) - get(mean, f);
            double i1 = get(dy, i) * n, i5 = sum_dyc[f] * c / ve;
            double g = get(scale, f) / sd / n * (i1 - sum_dy[f] - i5);
            base_elem_set_f64(r[0]->dtype, r[0]->data, (size_t)i, g);
        }
        for (int64_t f = 0; f < bs.features; f++) {
            double sd = sqrt(get(var, f) + bs.eps);
            base_elem_set_f64(r[1]->dtype, r[1]->data, (size_t)f, sum_dyc[f] / sd);
            base_elem_set_f64(r[2]->dtype, r[2]->data, (size_t)f, sum_dy[f]);
        }
    }
    free(sum_dy);
    free(sum_dyc);
    return interp_set_outs(p, op, st, out, r, 3);
}

/* ------------------------------------------------------------------------ */
/* Small complex helpers (textbook formulas, no Annex G recovery)            */

struct cplx {
    double re, im;
};

static inline struct cplx c_mul(struct cplx a, struct cplx b)
{
    return (struct cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static inline struct cplx c_sub(struct cplx a, struct cplx b)
{
    return (struct cplx){a.re - b.re, a.im - b.im};
}

static inline struct cplx c_conj(struct cplx a)
{
    return (struct cplx){a.re, -a.im};
}

static inline struct cplx c_div(struct cplx a, struct cplx b)
{
    if (b.im == 0.0) return (struct cplx){a.re / b.re, a.im / b.re};
    double d = b.re * b.re + b.im * b.im;
    return (struct cplx){(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}

static inline struct cplx load_c(const struct base_tensor *t, int64_t i)
{
    struct cplx c;
    base_elem_get_c128(t->dtype, t->data, (size_t)i, &c.re, &c.im);
    return c;
}

/* ------------------------------------------------------------------------ */
/* cholesky                                                                  */

static enum base_status k_cholesky(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                   struct interp_value **out)
{
    const struct base_tensor *a = op->n_operands == 1 ? iv_t(in[0]) : NULL;
    if (!a || a->rank < 2 || a->dims[a->rank - 1] != a->dims[a->rank - 2])
        return interp_fail(p, op, BASE_ERR_INVALID, "operand must be a batch of square matrices");
    bool lower = graph_attr_bool_or(graph_op_attr(op, "lower"), false);
    int64_t n = a->dims[a->rank - 1], nn = n * n;
    int64_t batches = nn ? a->count / nn : 0;
    struct base_tensor *r = NULL;
    TRY(new_result(p, op, 0, a->rank, a->dims, &r));
    struct cplx *l = malloc((size_t)(nn ? nn : 1) * sizeof *l);
    if (!l) {
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    for (int64_t b = 0; b < batches; b++) {
        int64_t base = b * nn;
        /* the lower triangle of the Hermitian matrix, read from the given triangle */
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                l[i * n + j] = j > i ? (struct cplx){0.0, 0.0}
                                     : (lower ? load_c(a, base + i * n + j) : c_conj(load_c(a, base + j * n + i)));
        for (int64_t j = 0; j < n; j++) {
            double d = l[j * n + j].re;
            for (int64_t k = 0; k < j; k++) d -= l[j * n + k].re * l[j * n + k].re + l[j * n + k].im * l[j * n + k].im;
            double djj = sqrt(d);
            l[j * n + j] = (struct cplx){djj, 0.0};
            for (int64_t i = j + 1; i < n; i++) {
                struct cplx s = l[i * n + j];
                for (int64_t k = 0; k < j; k++) s = c_sub(s, c_mul(l[i * n + k], c_conj(l[j * n + k])));
                l[i * n + j] = (struct cplx){s.re / djj, s.im / djj};
            }
        }
        /* the opposite triangle is zero */
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                struct cplx v = lower ? l[i * n + j] : c_conj(l[j * n + i]);
                base_elem_set_c128(r->dtype, r->data, (size_t)(base + i * n + j), v.re, v.im);
            }
    }
    free(l);
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* triangular_solve                                                          */

static enum base_status k_triangular_solve(struct interp_proc *p, const struct graph_op *op,
                                           struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *a = op->n_operands == 2 ? iv_t(in[0]) : NULL, *b = a ? iv_t(in[1]) : NULL;
    if (!a || !b || a->rank < 2 || b->rank != a->rank)
        return interp_fail(p, op, BASE_ERR_INVALID, "a and b must be tensors of the same rank >= 2");
    int R = a->rank;
    bool left = graph_attr_bool_or(graph_op_attr(op, "left_side"), false);
    bool lower = graph_attr_bool_or(graph_op_attr(op, "lower"), false);
    bool unit = graph_attr_bool_or(graph_op_attr(op, "unit_diagonal"), false);
    const struct graph_attr *ta = graph_op_attr(op, "transpose_a");
    bool trans = false, conj = false;
    if (keyword_is(ta, "TRANSPOSE")) trans = true;
    else if (keyword_is(ta, "ADJOINT")) trans = conj = true;
    else if (ta && !keyword_is(ta, "NO_TRANSPOSE") && !keyword_is(ta, "TRANSPOSE_INVALID"))
        return interp_fail(p, op, BASE_ERR_INVALID, "unknown transpose_a");
    int64_t n = a->dims[R - 1];
    if (a->dims[R - 2] != n) return interp_fail(p, op, BASE_ERR_INVALID, "a must be square");
    for (int d = 0; d < R - 2; d++)
        if (a->dims[d] != b->dims[d]) return interp_fail(p, op, BASE_ERR_INVALID, "batch dimensions differ");
    if (b->dims[left ? R - 2 : R - 1] != n)
        return interp_fail(p, op, BASE_ERR_INVALID, "b's %s dimension must be %lld", left ? "row" : "column",
                           (long long)n);
    int64_t rows = b->dims[R - 2], cols = b->dims[R - 1];
    int64_t m = left ? cols : rows; /* number of right-hand sides */
    int64_t nn = n * n, bsz = rows * cols;
    int64_t batches = 1;
    for (int d = 0; d < R - 2; d++) batches *= a->dims[d];
    struct base_tensor *r = NULL;
    TRY(new_result(p, op, 0, R, b->dims, &r));
    /* t = op(a) restricted to its triangle, as a full matrix */
    struct cplx *t = malloc((size_t)(nn ? nn : 1) * sizeof *t), *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    if (!t || !x) {
        free(t);
        free(x);
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    /* op(a) is lower triangular iff lower xor transposed; right-side solves use
     * op(a)^T, which flips it again */
    bool t_lower = lower != trans;
    bool solve_lower = left ? t_lower : !t_lower;
    for (int64_t bt = 0; bt < batches; bt++) {
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                /* element (i, j) of op(a) comes from a(ai, aj) */
                int64_t ai = trans ? j : i, aj = trans ? i : j;
                bool in_tri = lower ? aj <= ai : aj >= ai;
                struct cplx v = {0.0, 0.0};
                if (ai == aj && unit) v = (struct cplx){1.0, 0.0};
                else if (in_tri) v = load_c(a, bt * nn + ai * n + aj);
                if (conj) v = c_conj(v);
                /* right side: solve with op(a)^T */
                if (left) t[i * n + j] = v;
                else t[j * n + i] = v;
            }
        for (int64_t c = 0; c < m; c++) {
            /* gather the right-hand side: a column of b (left) or a row (right) */
            for (int64_t i = 0; i < n; i++) x[i] = load_c(b, bt * bsz + (left ? i * cols + c : c * cols + i));
            if (solve_lower) {
                for (int64_t i = 0; i < n; i++) {
                    struct cplx s = x[i];
                    for (int64_t k = 0; k < i; k++) s = c_sub(s, c_mul(t[i * n + k], x[k]));
                    x[i] = c_div(s, t[i * n + i]);
                }
            } else {
                for (int64_t i = n - 1; i >= 0; i--) {
                    struct cplx s = x[i];
                    for (int64_t k = i + 1; k < n; k++) s = c_sub(s, c_mul(t[i * n + k], x[k]));
                    x[i] = c_div(s, t[i * n + i]);
                }
            }
            for (int64_t i = 0; i < n; i++)
                base_elem_set_c128(r->dtype, r->data, (size_t)(bt * bsz + (left ? i * cols + c : c * cols + i)),
                                   x[i].re, x[i].im);
        }
    }
    free(t);
    free(x);
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* einsum ("ab,bc->ac"; no ellipsis)                                         */

static enum base_status k_einsum(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                 struct interp_value **out)
{
    const struct graph_attr *cfg = graph_op_attr(op, "einsum_config");
    const struct base_tensor *l = op->n_operands == 2 ? iv_t(in[0]) : NULL, *r = l ? iv_t(in[1]) : NULL;
    if (!cfg || cfg->kind != GRAPH_ATTR_STRING || !l || !r)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "einsum needs two tensor operands and an einsum_config");
    const char *s = cfg->u.str.s;
    size_t len = cfg->u.str.len;
    /* split "lhs,rhs->out" */
    char terms[3][BASE_MAX_RANK + 1];
    int tl[3] = {0, 0, 0}, part = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ' ') continue;
        if (ch == ',' && part == 0) {
            part = 1;
        } else if (ch == '-' && i + 1 < len && s[i + 1] == '>' && part == 1) {
            part = 2;
            i++;
        } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
            if (tl[part] >= BASE_MAX_RANK) return interp_fail(p, op, BASE_ERR_LIMIT, "einsum term too long");
            terms[part][tl[part]++] = ch;
        } else {
            return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "einsum_config '%.*s' is not supported", (int)len, s);
        }
    }
    if (part != 2 || tl[0] != l->rank || tl[1] != r->rank)
        return interp_fail(p, op, BASE_ERR_INVALID, "einsum_config '%.*s' does not match the operands", (int)len, s);
    /* labels: output ones first, then contracted ones */
    char labels[3 * BASE_MAX_RANK];
    int64_t size[3 * BASE_MAX_RANK];
    int nlab = 0, nout = tl[2];
    for (int i = 0; i < tl[2]; i++) {
        for (int j = 0; j < i; j++)
            if (terms[2][j] == terms[2][i]) return interp_fail(p, op, BASE_ERR_INVALID, "repeated output label");
        labels[nlab] = terms[2][i];
        size[nlab++] = -1;
    }
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < tl[t]; i++) {
            int64_t dim = (t ? r : l)->dims[i];
            int k = 0;
            while (k < nlab && labels[k] != terms[t][i]) k++;
            if (k == nlab) {
                labels[nlab] = terms[t][i];
                size[nlab++] = dim;
            } else if (size[k] >= 0 && size[k] != dim) {
                return interp_fail(p, op, BASE_ERR_INVALID, "label '%c' has sizes %lld and %lld", labels[k],
                                   (long long)size[k], (long long)dim);
            } else {
                size[k] = dim;
            }
        }
    for (int k = 0; k < nout; k++)
        if (size[k] < 0) return interp_fail(p, op, BASE_ERR_INVALID, "output label '%c' is not an input label", labels[k]);
    /* strides of each label in each operand */
    int64_t ls[BASE_MAX_RANK], rs[BASE_MAX_RANK], lstr[3 * BASE_MAX_RANK] = {0}, rstr[3 * BASE_MAX_RANK] = {0};
    base_shape_strides(l->rank, l->dims, ls);
    base_shape_strides(r->rank, r->dims, rs);
    for (int k = 0; k < nlab; k++) {
        for (int i = 0; i < tl[0]; i++)
            if (terms[0][i] == labels[k]) lstr[k] += ls[i];
        for (int i = 0; i < tl[1]; i++)
            if (terms[1][i] == labels[k]) rstr[k] += rs[i];
    }
    struct base_tensor *res = NULL;
    TRY(new_result(p, op, 0, nout, size, &res));
    int nsum = nlab - nout;
    int64_t scount = base_shape_count(nsum, size + nout);
    bool cplx = base_dtype_is_complex(res->dtype) || base_dtype_is_complex(l->dtype);
    bool ints = base_dtype_is_int(res->dtype) && base_dtype_is_int(l->dtype) && base_dtype_is_int(r->dtype);
    /* accumulation in f32 (complex<f32>) unless the result is f64 / c128 or an integer */
    bool f32 = !ints && res->dtype != BASE_DT_F64 && res->dtype != BASE_DT_C128 &&
               (base_dtype_is_float(res->dtype) || res->dtype == BASE_DT_C64);
    int64_t oidx[BASE_MAX_RANK] = {0};
    for (int64_t o = 0; o < res->count; o++) {
        if (o > 0) interp_index_next(nout, size, oidx);
        int64_t lo = 0, ro = 0;
        for (int k = 0; k < nout; k++) {
            lo += oidx[k] * lstr[k];
            ro += oidx[k] * rstr[k];
        }
        int64_t sidx[3 * BASE_MAX_RANK] = {0};
        double re = 0.0, im = 0.0;
        float fre = 0.0f, fim = 0.0f;
        int64_t acc = 0;
        for (int64_t q = 0; q < scount; q++) {
            if (q > 0) interp_index_next(nsum, size + nout, sidx);
            int64_t li = lo, ri = ro;
            for (int k = 0; k < nsum; k++) {
                li += sidx[k] * lstr[nout + k];
                ri += sidx[k] * rstr[nout + k];
            }
            if (ints) {
                acc = (int64_t)((uint64_t)acc + (uint64_t)base_elem_get_i64(l->dtype, l->data, (size_t)li) *
                                                    (uint64_t)base_elem_get_i64(r->dtype, r->data, (size_t)ri));
            } else if (f32) {
                /* operands rounded to f32, products and sums rounded to f32 */
                float xr, xi, yr, yi;
                interp_acc_ld_c64(l->dtype, l->data, li, &xr, &xi);
                interp_acc_ld_c64(r->dtype, r->data, ri, &yr, &yi);
                float rr = xr * yr, ii = xi * yi, ri2 = xr * yi, ir = xi * yr;
                float pr = rr - ii, pi = ri2 + ir;
                fre = fre + pr;
                if (cplx) fim = fim + pi;
            } else if (cplx) {
                struct cplx pr = c_mul(load_c(l, li), load_c(r, ri));
                re = re + pr.re;
                im = im + pr.im;
            } else {
                double pr = get(l, li) * get(r, ri);
                re = re + pr;
            }
        }
        if (ints) base_elem_set_i64(res->dtype, res->data, (size_t)o, acc);
        else if (f32) base_elem_set_c128(res->dtype, res->data, (size_t)o, fre, fim); /* f32 -> result: one rounding */
        else base_elem_set_c128(res->dtype, res->data, (size_t)o, re, im);
    }
    return interp_set_out(p, op, out, 0, res);
}

void interp_register_linalg(interp_kernel_fn *table)
{
    table[GRAPH_OP_BATCH_NORM_INFERENCE] = k_batch_norm_inference;
    table[GRAPH_OP_BATCH_NORM_TRAINING] = k_batch_norm_training;
    table[GRAPH_OP_BATCH_NORM_GRAD] = k_batch_norm_grad;
    table[GRAPH_OP_CHOLESKY] = k_cholesky;
    table[GRAPH_OP_TRIANGULAR_SOLVE] = k_triangular_solve;
    table[GRAPH_OP_EINSUM] = k_einsum;
    interp_register_dot(table);
    interp_register_conv(table);
    interp_register_fft(table);
}
