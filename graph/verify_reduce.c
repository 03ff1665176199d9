/* Verifier rules for ops with computation regions over tensors: reduce,
 * reduce_window, select_and_scatter, map, sort, chlo.scan and chlo.top_k
 * (spec.md "Constraints"; CHLO from ChloOps). */
#include "graph/verify_internal.h"

#include <string.h>

#define R GRAPH_MAX_RANK

/* Inputs [0, n) and init values [n, 2n) of reduce / reduce_window.  As
 * upstream, an init value takes the shape of the body's result (a scalar
 * unless the body works on shaped values) and its element type need only be
 * promotable to the body's (graph_verify_reducer); the spec's "same element
 * type as the input" (reduce C2, reduce_window C3) is not checked. */
static enum base_status inputs_and_inits(struct verify_ctx *cx, const struct graph_op *op,
                                         const char *c_count, const char *c_shape, int *n_out)
{
    if (op->n_operands % 2 != 0 || op->n_operands == 0)
        return graph_verify_fail(cx, op, "%s expects N > 0 inputs and N init values, got %d operands",
                           c_count, op->n_operands);
    int n = op->n_operands / 2;
    if (op->n_results != n)
        return graph_verify_fail(cx, op, "%s expects %d result%s (one per input), got %d", c_count, n,
                           n == 1 ? "" : "s", op->n_results);
    VTRY(graph_verify_counts(cx, op, 2 * n, 2 * n, n, n, 1));
    for (int i = 0; i < n; i++) {
        char wi[32], wv[32];
        snprintf(wi, sizeof wi, "input %d", i);
        snprintf(wv, sizeof wv, "init value %d", i);
        VTRY(graph_verify_need_tensor(cx, op, wi, verify_in(op, i)));
        VTRY(graph_verify_need_tensor(cx, op, wv, verify_in(op, n + i)));
        VTRY(graph_verify_same_shape(cx, op, c_shape, "input 0", verify_in(op, 0), wi, verify_in(op, i)));
    }
    *n_out = n;
    return BASE_OK;
}

/* Results' element types are the body's (C8 of reduce, C16 of reduce_window). */
static enum base_status results_elem(struct verify_ctx *cx, const struct graph_op *op,
                                     const char *label, int n, const struct graph_type *const *acc)
{
    for (int i = 0; i < n; i++)
        if (!graph_verify_elem_baseline_equal(verify_out(op, i), acc[i])) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "%s result %d has type %s but the body computes %s", label, i,
                               graph_verify_tstr(verify_out(op, i), ta, sizeof ta),
                               graph_verify_tstr(acc[i], tb, sizeof tb));
        }
    return BASE_OK;
}

static enum base_status reduce(struct verify_ctx *cx, const struct graph_op *op)
{
    int n;
    VTRY(inputs_and_inits(cx, op, "(C3)", "(C1)", &n));
    const struct graph_type *in0 = verify_in(op, 0);
    int64_t dims[VERIFY_MAX_LIST];
    int nd;
    VTRY(graph_verify_op_list(cx, op, "dimensions", true, dims, &nd));
    int rank = -1;
    for (int i = 0; i < n && rank < 0; i++) rank = verify_in(op, i)->rank;
    if (rank >= 0) VTRY(graph_verify_list_in_range(cx, op, "(C4)", "dimensions", nd, dims, rank));
    VTRY(graph_verify_list_is_unique(cx, op, "(C5)", "dimensions", nd, dims));
    /* result shape: the inputs' dims minus the reduced ones */
    int64_t rdims[R];
    int rr = 0;
    for (int d = 0; d < R; d++) rdims[d] = GRAPH_DYN; /* unranked: any reducer shape */
    for (int d = 0; d < rank; d++) {
        if (graph_verify_list_has(nd, dims, d)) continue;
        int64_t v = GRAPH_DYN;
        for (int i = 0; i < n; i++) {
            const struct graph_type *t = verify_in(op, i);
            if (t->rank >= 0 && t->dims[d] != GRAPH_DYN) v = t->dims[d];
        }
        rdims[rr++] = v;
    }
    const struct graph_type *ins[VERIFY_MAX_VARIADIC], *inits[VERIFY_MAX_VARIADIC],
        *acc[VERIFY_MAX_VARIADIC];
    if (n > VERIFY_MAX_VARIADIC)
        return graph_verify_unsupported(cx, op, "more than %d inputs", VERIFY_MAX_VARIADIC);
    for (int i = 0; i < n; i++) {
        ins[i] = verify_in(op, i);
        inits[i] = verify_in(op, n + i);
    }
    (void)in0;
    VTRY(graph_verify_reducer(cx, op, 0, "(C6)", n, ins, inits, rank >= 0 ? rr : R, rdims, acc));
    if (rank < 0) return BASE_OK;
    for (int i = 0; i < n; i++)
        VTRY(graph_verify_result_dims(cx, op, "(C7)", "result", verify_out(op, i), rr, rdims));
    return results_elem(cx, op, "(C8)", n, acc);
}

/* Window attributes shared by reduce_window and select_and_scatter. */
struct window {
    int n;
    int64_t dims[VERIFY_MAX_LIST], strides[VERIFY_MAX_LIST], base_dil[VERIFY_MAX_LIST],
        win_dil[VERIFY_MAX_LIST], pad_lo[VERIFY_MAX_LIST], pad_hi[VERIFY_MAX_LIST];
};

static enum base_status window_list(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *name, const char *c_size, const char *c_pos,
                                    int rank, int64_t *out)
{
    int n;
    VTRY(graph_verify_op_list(cx, op, name, false, out, &n));
    if (n <= 0) { /* absent or empty: the default, as upstream's verifySize */
        for (int i = 0; i < rank; i++) out[i] = 1;
        return BASE_OK;
    }
    if (n != rank)
        return graph_verify_fail(cx, op, "%s %s has %d entries but the rank is %d", c_size, name, n, rank);
    for (int i = 0; i < n; i++)
        if (out[i] <= 0)
            return graph_verify_fail(cx, op, "%s %s[%d] = %lld must be > 0", c_pos, name, i,
                               (long long)out[i]);
    return BASE_OK;
}

static enum base_status window_attrs(struct verify_ctx *cx, const struct graph_op *op, int rank,
                                     bool dilations, const char *const *labels,
                                     struct window *w)
{
    /* labels: dims size, dims > 0, strides size, strides > 0, base size, base > 0,
     *         window size, window > 0, padding shape */
    int n;
    VTRY(graph_verify_op_list(cx, op, "window_dimensions", true, w->dims, &n));
    if (rank >= 0 && n != rank)
        return graph_verify_fail(cx, op, "%s window_dimensions has %d entries but the rank is %d",
                           labels[0], n, rank);
    w->n = n;
    for (int i = 0; i < n; i++)
        if (w->dims[i] <= 0)
            return graph_verify_fail(cx, op, "%s window_dimensions[%d] = %lld must be > 0", labels[1], i,
                               (long long)w->dims[i]);
    VTRY(window_list(cx, op, "window_strides", labels[2], labels[3], n, w->strides));
    if (dilations) {
        VTRY(window_list(cx, op, "base_dilations", labels[4], labels[5], n, w->base_dil));
        VTRY(window_list(cx, op, "window_dilations", labels[6], labels[7], n, w->win_dil));
    } else {
        for (int i = 0; i < n; i++) w->base_dil[i] = w->win_dil[i] = 1;
    }
    const int64_t *pv;
    int64_t rows, cols;
    VTRY(graph_verify_op_matrix(cx, op, "padding", &pv, &rows, &cols));
    for (int i = 0; i < n; i++) w->pad_lo[i] = w->pad_hi[i] = 0;
    if (rows >= 0 && !(rows == 0 && cols >= 0)) {
        if (rows != n || cols != 2)
            return graph_verify_fail(cx, op, "%s padding must have shape [%d, 2], got [%lld, %lld]",
                               labels[8], n, (long long)rows, (long long)cols);
        for (int i = 0; pv && i < n; i++) {
            w->pad_lo[i] = pv[2 * i];
            w->pad_hi[i] = pv[2 * i + 1];
        }
    }
    return BASE_OK;
}

/* num_windows of one dim (GRAPH_DYN for a dynamic input). */
static int64_t num_windows(int64_t size, int64_t win, int64_t stride, int64_t base_dil,
                           int64_t win_dil, int64_t lo, int64_t hi)
{
    if (size == GRAPH_DYN) return GRAPH_DYN;
    int64_t dil_in = size == 0 ? 0 : (size - 1) * base_dil + 1;
    int64_t padded = lo + dil_in + hi;
    int64_t dil_win = (win - 1) * win_dil + 1;
    if (padded <= 0 || dil_win > padded) return 0;
    return (padded - dil_win) / stride + 1;
}

static enum base_status reduce_window(struct verify_ctx *cx, const struct graph_op *op)
{
    int n;
    VTRY(inputs_and_inits(cx, op, "(C1)", "(C2)", &n));
    int rank = -1;
    for (int i = 0; i < n && rank < 0; i++) rank = verify_in(op, i)->rank;
    static const char *const labels[] = {"(C4)", "(C5)", "(C6)",  "(C7)", "(C8)",
                                         "(C9)", "(C10)", "(C11)", "(C12)"};
    struct window w;
    VTRY(window_attrs(cx, op, rank, true, labels, &w));
    if (n > VERIFY_MAX_VARIADIC)
        return graph_verify_unsupported(cx, op, "more than %d inputs", VERIFY_MAX_VARIADIC);
    const struct graph_type *ins[VERIFY_MAX_VARIADIC], *inits[VERIFY_MAX_VARIADIC],
        *acc[VERIFY_MAX_VARIADIC];
    for (int i = 0; i < n; i++) {
        ins[i] = verify_in(op, i);
        inits[i] = verify_in(op, n + i);
    }
    VTRY(graph_verify_reducer(cx, op, 0, "(C13)", n, ins, inits, w.n, w.dims, acc));
    for (int i = 1; i < n; i++)
        VTRY(graph_verify_same_shape(cx, op, "(C14)", "result 0", verify_out(op, 0), "result",
                               verify_out(op, i)));
    if (rank >= 0) {
        int64_t dims[R];
        for (int d = 0; d < rank; d++) {
            int64_t size = GRAPH_DYN;
            for (int i = 0; i < n; i++)
                if (verify_in(op, i)->rank >= 0 && verify_in(op, i)->dims[d] != GRAPH_DYN)
                    size = verify_in(op, i)->dims[d];
            dims[d] = num_windows(size, w.dims[d], w.strides[d], w.base_dil[d], w.win_dil[d],
                                  w.pad_lo[d], w.pad_hi[d]);
        }
        for (int i = 0; i < n; i++)
            VTRY(graph_verify_result_dims(cx, op, "(C15)", "result", verify_out(op, i), rank, dims));
    }
    return results_elem(cx, op, "(C16)", n, acc);
}

/* A comparator/selector region: args (tensor<E0>, tensor<E0>, ...) -> tensor<i1>. */
static enum base_status predicate_region(struct verify_ctx *cx, const struct graph_op *op, int r,
                                         const char *label, const char *rname, int n_args,
                                         const struct graph_type *const *arg_elems, int per)
{
    const struct graph_block *b;
    const struct graph_op *t;
    VTRY(graph_verify_region_shape(cx, op, r, rname, n_args, 1, &b, &t));
    char ta[160], tb[160];
    for (int i = 0; i < n_args; i++) {
        const struct graph_type *a = b->args[i].type, *e = arg_elems[i / per];
        if (!verify_is_tensor(a) || (a->rank != 0 && a->rank >= 0) ||
            !graph_verify_elem_baseline_equal(a, e))
            return graph_verify_fail(cx, op, "%s %s argument %d has type %s, expected a 0-dimensional tensor of the element type of %s",
                               label, rname, i, graph_verify_tstr(a, ta, sizeof ta),
                               graph_verify_tstr(e, tb, sizeof tb));
    }
    const struct graph_type *rt = verify_in(t, 0);
    if (!verify_is_tensor(rt) || rt->quant || rt->elem != BASE_DT_I1 || rt->rank > 0)
        return graph_verify_fail(cx, op, "%s %s must return a tensor<i1>, returns %s", label, rname,
                           graph_verify_tstr(rt, ta, sizeof ta));
    return BASE_OK;
}

static enum base_status select_and_scatter(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 2));
    const struct graph_type *x = verify_in(op, 0), *src = verify_in(op, 1), *init = verify_in(op, 2),
                            *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", x));
    VTRY(graph_verify_need_tensor(cx, op, "(I2) source", src));
    VTRY(graph_verify_need_rank(cx, op, "(I3) init_value", init, 0));
    if (!graph_verify_elem_baseline_equal(x, src)) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C1) operand and source must have the same element type, got %s and %s",
                           graph_verify_tstr(x, ta, sizeof ta), graph_verify_tstr(src, tb, sizeof tb));
    }
    if (!graph_verify_elem_baseline_equal(x, init)) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C3) operand and init_value must have the same element type, got %s and %s",
                           graph_verify_tstr(x, ta, sizeof ta), graph_verify_tstr(init, tb, sizeof tb));
    }
    static const char *const labels[] = {"(C4)", "(C5)", "(C6)", "(C7)", "", "", "", "", "(C8)"};
    struct window w;
    VTRY(window_attrs(cx, op, x->rank, false, labels, &w));
    if (x->rank >= 0) {
        int64_t dims[R];
        for (int d = 0; d < x->rank; d++)
            dims[d] = num_windows(x->dims[d], w.dims[d], w.strides[d], 1, 1, w.pad_lo[d],
                                  w.pad_hi[d]);
        VTRY(graph_verify_result_dims(cx, op, "(C2)", "source", src, x->rank, dims));
    }
    const struct graph_type *elems[1] = {x};
    VTRY(predicate_region(cx, op, 0, "(C9)", "select", 2, elems, 2));
    const struct graph_type *acc[1];
    VTRY(graph_verify_reducer(cx, op, 1, "(C10) scatter", 1, &x, &init, 0, NULL, acc));
    VTRY(graph_verify_same_shape(cx, op, "(C11)", "operand", x, "result", out));
    return results_elem(cx, op, "(C12)", 1, acc);
}

static enum base_status map(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, -1, 1, 1, 1));
    int n = op->n_operands;
    const struct graph_type *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    for (int i = 0; i < n; i++) {
        char wi[32];
        snprintf(wi, sizeof wi, "input %d", i);
        VTRY(graph_verify_same_shape(cx, op, "(C1)", wi, verify_in(op, i), "result", out));
    }
    int64_t dims[VERIFY_MAX_LIST];
    int nd;
    VTRY(graph_verify_op_list(cx, op, "dimensions", true, dims, &nd));
    int rank = verify_in(op, 0)->rank;
    bool iota = rank < 0 || nd == rank;
    for (int i = 0; iota && i < nd; i++) iota = dims[i] == i;
    if (!iota) {
        char ls[200];
        return graph_verify_fail(cx, op, "(C3) dimensions must be range(%d), got %s", rank,
                           graph_verify_lstr(nd, dims, ls, sizeof ls));
    }
    const struct graph_block *b;
    const struct graph_op *t;
    VTRY(graph_verify_region_shape(cx, op, 0, "(C4) computation", n, 1, &b, &t));
    char ta[160], tb[160];
    for (int i = 0; i < n; i++) {
        const struct graph_type *a = b->args[i].type;
        if (!verify_is_tensor(a) || a->rank > 0 || !graph_verify_elem_baseline_equal(a, verify_in(op, i)))
            return graph_verify_fail(cx, op, "(C4) computation argument %d has type %s, expected a 0-dimensional tensor of the element type of %s",
                               i, graph_verify_tstr(a, ta, sizeof ta),
                               graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
    }
    const struct graph_type *rt = verify_in(t, 0);
    if (!verify_is_tensor(rt) || rt->rank > 0 || !graph_verify_elem_baseline_equal(rt, out))
        return graph_verify_fail(cx, op, "(C4) computation returns %s, expected a 0-dimensional tensor of the element type of %s",
                           graph_verify_tstr(rt, ta, sizeof ta), graph_verify_tstr(out, tb, sizeof tb));
    return BASE_OK;
}

static enum base_status sort(struct verify_ctx *cx, const struct graph_op *op)
{
    if (op->n_operands < 1) return graph_verify_fail(cx, op, "(C1) needs at least one input");
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, n, n, n, n, 1));
    if (n > VERIFY_MAX_VARIADIC)
        return graph_verify_unsupported(cx, op, "more than %d inputs", VERIFY_MAX_VARIADIC);
    const struct graph_type *elems[VERIFY_MAX_VARIADIC];
    for (int i = 0; i < n; i++) {
        char wi[32], wr[32];
        snprintf(wi, sizeof wi, "input %d", i);
        snprintf(wr, sizeof wr, "result %d", i);
        VTRY(graph_verify_need_tensor(cx, op, wi, verify_in(op, i)));
        VTRY(graph_verify_same_type(cx, op, "(C2)", wi, verify_in(op, i), wr, verify_out(op, i)));
        VTRY(graph_verify_same_shape(cx, op, "(C3)", "input 0", verify_in(op, 0), wi, verify_in(op, i)));
        elems[i] = verify_in(op, i);
    }
    int64_t dim = -1;
    bool present;
    VTRY(graph_verify_op_int(cx, op, "dimension", &present, &dim));
    if (!present) dim = -1;
    int rank = verify_in(op, 0)->rank;
    if (rank >= 0 && (dim < -rank || dim >= rank))
        return graph_verify_fail(cx, op, "(C4) dimension %lld must be in [%d, %d)", (long long)dim, -rank,
                           rank);
    return predicate_region(cx, op, 0, "(C5)", "comparator", 2 * n, elems, 2);
}

/* chlo.scan(inputs) inits(carries): the body maps (input slices..., carries...)
 * to (output slices..., new carries...); outputs stack the slices along
 * `dimension`, the last results are the final carries. */
static enum base_status scan(struct verify_ctx *cx, const struct graph_op *op)
{
    int64_t seg[4];
    int ns;
    VTRY(graph_verify_op_list(cx, op, "operandSegmentSizes", true, seg, &ns));
    if (ns != 2 || seg[0] < 0 || seg[1] < 0 || seg[0] + seg[1] != op->n_operands)
        return graph_verify_fail(cx, op, "operandSegmentSizes must split the %d operands into inputs and inits",
                           op->n_operands);
    int n = (int)seg[0], m = (int)seg[1];
    if (op->n_results < m)
        return graph_verify_fail(cx, op, "has %d results, fewer than its %d inits", op->n_results, m);
    int k = op->n_results - m;
    VTRY(graph_verify_counts(cx, op, n + m, n + m, k + m, k + m, 1));
    int64_t dim;
    VTRY(graph_verify_op_int(cx, op, "dimension", NULL, &dim));
    int rank = n ? verify_in(op, 0)->rank : -1;
    for (int i = 0; i < n; i++) {
        char wi[32];
        snprintf(wi, sizeof wi, "input %d", i);
        VTRY(graph_verify_need_tensor(cx, op, wi, verify_in(op, i)));
        if (i) VTRY(graph_verify_same_shape(cx, op, "", "input 0", verify_in(op, 0), wi, verify_in(op, i)));
    }
    if (rank >= 0 && (dim < 0 || dim >= rank))
        return graph_verify_fail(cx, op, "dimension %lld must be in [0, %d)", (long long)dim, rank);
    /* an explicit scan_dim_size is every input's size along the dimension */
    bool has_size;
    int64_t size;
    VTRY(graph_verify_op_int(cx, op, "scan_dim_size", &has_size, &size));
    for (int i = 0; has_size && i < n; i++) {
        const struct graph_type *in = verify_in(op, i);
        if (in->rank > dim && in->dims[dim] != GRAPH_DYN && in->dims[dim] != size)
            return graph_verify_fail(cx, op, "invalid scan dimension size of operand %d: scan_dim_size is %lld but the "
                                     "operand has %lld along dimension %lld",
                                     i, (long long)size, (long long)in->dims[dim], (long long)dim);
    }
    const struct graph_block *b;
    const struct graph_op *t;
    VTRY(graph_verify_region_shape(cx, op, 0, "body", n + m, k + m, &b, &t));
    char ta[160], tb[160];
    /* input slices: the input without the scan dimension */
    for (int i = 0; i < n; i++) {
        const struct graph_type *in = verify_in(op, i), *a = b->args[i].type;
        bool ok = verify_is_tensor(a) && graph_verify_elem_baseline_equal(a, in);
        if (ok && in->rank >= 0 && a->rank >= 0) {
            ok = a->rank == in->rank - 1;
            for (int d = 0, j = 0; ok && d < in->rank; d++)
                if (d != dim) ok = verify_dim_compat(in->dims[d], a->dims[j++]);
        }
        if (!ok)
            return graph_verify_fail(cx, op, "body argument %d has type %s, which is not a slice of input %d (%s) along dimension %lld",
                               i, graph_verify_tstr(a, ta, sizeof ta), i, graph_verify_tstr(in, tb, sizeof tb),
                               (long long)dim);
    }
    for (int j = 0; j < m; j++) {
        const struct graph_type *init = verify_in(op, n + j);
        if (!graph_verify_type_compat(b->args[n + j].type, init))
            return graph_verify_fail(cx, op, "body argument %d has type %s but init %d has type %s", n + j,
                               graph_verify_tstr(b->args[n + j].type, ta, sizeof ta), j,
                               graph_verify_tstr(init, tb, sizeof tb));
        if (!graph_verify_type_compat(verify_in(t, k + j), init))
            return graph_verify_fail(cx, op, "body returns %s as carry %d but init %d has type %s",
                               graph_verify_tstr(verify_in(t, k + j), ta, sizeof ta), j, j,
                               graph_verify_tstr(init, tb, sizeof tb));
        if (!graph_verify_type_compat(verify_out(op, k + j), init))
            return graph_verify_fail(cx, op, "result %d has type %s but init %d has type %s", k + j,
                               graph_verify_tstr(verify_out(op, k + j), ta, sizeof ta), j,
                               graph_verify_tstr(init, tb, sizeof tb));
    }
    /* outputs: the returned slices stacked along `dimension` */
    int64_t len = n && rank >= 0 ? verify_in(op, 0)->dims[dim] : GRAPH_DYN;
    for (int i = 0; i < k; i++) {
        const struct graph_type *s = verify_in(t, i), *o = verify_out(op, i);
        VTRY(graph_verify_need_tensor(cx, op, "body output", s));
        VTRY(graph_verify_need_tensor(cx, op, "result", o));
        if (!graph_verify_elem_baseline_equal(s, o))
            return graph_verify_fail(cx, op, "result %d has type %s but the body returns %s for it", i,
                               graph_verify_tstr(o, ta, sizeof ta), graph_verify_tstr(s, tb, sizeof tb));
        if (s->rank < 0 || rank < 0 || dim > s->rank) continue;
        int64_t dims[R + 1];
        for (int d = 0, j = 0; d <= s->rank && d <= R; d++) dims[d] = d == dim ? len : s->dims[j++];
        VTRY(graph_verify_result_dims(cx, op, "", "result", o, s->rank + 1, dims));
    }
    return BASE_OK;
}

static enum base_status top_k(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 2, 2, 0));
    const struct graph_type *in = verify_in(op, 0), *vals = verify_out(op, 0),
                            *idx = verify_out(op, 1);
    VTRY(graph_verify_need_tensor(cx, op, "operand", in));
    VTRY(graph_verify_need_class(cx, op, "indices", idx, VC_INT));
    VTRY(graph_verify_same_elem(cx, op, "", "operand", in, "values", vals));
    int64_t k;
    VTRY(graph_verify_op_int(cx, op, "k", NULL, &k));
    if (k < 0) return graph_verify_fail(cx, op, "k = %lld must be >= 0", (long long)k);
    if (in->rank < 0) return BASE_OK;
    if (in->rank < 1) return graph_verify_fail(cx, op, "operand must have rank >= 1");
    int64_t last = in->dims[in->rank - 1];
    if (last != GRAPH_DYN && last < k)
        return graph_verify_fail(cx, op, "operand's last dimension (%lld) must be at least k = %lld",
                           (long long)last, (long long)k);
    int64_t dims[R];
    memcpy(dims, in->dims, (size_t)in->rank * sizeof *dims);
    dims[in->rank - 1] = k;
    VTRY(graph_verify_result_dims(cx, op, "", "values", vals, in->rank, dims));
    return graph_verify_result_dims(cx, op, "", "indices", idx, in->rank, dims);
}

enum base_status graph_verify_reduce_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_REDUCE: return reduce(cx, op);
    case GRAPH_OP_REDUCE_WINDOW: return reduce_window(cx, op);
    case GRAPH_OP_SELECT_AND_SCATTER: return select_and_scatter(cx, op);
    case GRAPH_OP_MAP: return map(cx, op);
    case GRAPH_OP_SORT: return sort(cx, op);
    case GRAPH_OP_CHLO_SCAN: return scan(cx, op);
    case GRAPH_OP_CHLO_TOP_K: return top_k(cx, op);
    default: return BASE_OK;
    }
}
