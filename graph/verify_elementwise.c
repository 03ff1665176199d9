/* Verifier rules for elementwise ops: StableHLO unary/binary/ternary ops and
 * the CHLO elementwise ops (spec.md "Constraints" of each; CHLO types from
 * ChloOps.td). */
#include "graph/verify_internal.h"

#include <string.h>

#define FCQ (VC_FLOAT | VC_COMPLEX | VC_QUANT)
#define IFCQ (VC_INT | VC_FLOAT | VC_COMPLEX | VC_QUANT)
#define ANYQ (VC_BOOL | VC_INT | VC_FLOAT | VC_COMPLEX | VC_QUANT)

/* baseline_type(a) = baseline_type(b) (C1 of most elementwise ops). */
static enum base_status same_baseline(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *label, const char *wa,
                                      const struct graph_type *a, const char *wb,
                                      const struct graph_type *b)
{
    VTRY(graph_verify_same_shape(cx, op, label, wa, a, wb, b));
    if (graph_verify_elem_baseline_equal(a, b)) return BASE_OK;
    return graph_verify_same_baseline(cx, op, label, wa, a, wb, b);
}

/* Unary op whose operand and result share one baseline type, with the
 * element classes in `mask` (result: same classes). */
static enum base_status unary_same(struct verify_ctx *cx, const struct graph_op *op, unsigned mask,
                                   bool baseline)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", verify_in(op, 0), mask));
    VTRY(graph_verify_need_class(cx, op, "result", verify_out(op, 0), mask));
    if (baseline)
        return same_baseline(cx, op, "(C1)", "operand", verify_in(op, 0), "result",
                             verify_out(op, 0));
    return graph_verify_same_type(cx, op, "(C1)", "operand", verify_in(op, 0), "result",
                            verify_out(op, 0));
}

/* abs, real, imag: complex operands give their component type. */
static enum base_status unary_component(struct verify_ctx *cx, const struct graph_op *op,
                                        unsigned in_mask, unsigned out_mask)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", in, in_mask));
    VTRY(graph_verify_need_class(cx, op, "result", out, out_mask));
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "operand", in, "result", out));
    if (graph_verify_class(in) == VC_COMPLEX) {
        enum base_dtype want = base_dtype_component(in->elem);
        if (out->quant || out->elem != want) {
            char ti[160], to[160];
            return graph_verify_fail(cx, op,
                               "(C2) result element type must be %s (the component type of %s), "
                               "got %s",
                               base_dtype_name(want), graph_verify_tstr(in, ti, sizeof ti),
                               graph_verify_tstr(out, to, sizeof to));
        }
        return BASE_OK;
    }
    if (graph_verify_elem_baseline_equal(in, out)) return BASE_OK;
    char ti[160], to[160];
    return graph_verify_fail(cx, op, "(C2) operand and result must have the same element type, got %s and %s",
                       graph_verify_tstr(in, ti, sizeof ti), graph_verify_tstr(out, to, sizeof to));
}

/* Predicates: is_finite, chlo.is_inf, ... */
static enum base_status unary_predicate(struct verify_ctx *cx, const struct graph_op *op,
                                        unsigned in_mask)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", verify_in(op, 0), in_mask));
    VTRY(graph_verify_need_class(cx, op, "result", verify_out(op, 0), VC_BOOL));
    return graph_verify_same_shape(cx, op, "(C1)", "operand", verify_in(op, 0), "result",
                             verify_out(op, 0));
}

static enum base_status reduce_precision(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(unary_same(cx, op, VC_FLOAT | VC_QUANT, true));
    int64_t e, m;
    VTRY(graph_verify_op_int(cx, op, "exponent_bits", NULL, &e));
    VTRY(graph_verify_op_int(cx, op, "mantissa_bits", NULL, &m));
    if (e < 1) return graph_verify_fail(cx, op, "(C2) exponent_bits must be >= 1, got %lld", (long long)e);
    if (m < 0) return graph_verify_fail(cx, op, "(C3) mantissa_bits must be >= 0, got %lld", (long long)m);
    return BASE_OK;
}

static enum base_status convert(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    unsigned plain = VC_BOOL | VC_INT | VC_FLOAT | VC_COMPLEX;
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", verify_in(op, 0), plain));
    VTRY(graph_verify_need_class(cx, op, "result", verify_out(op, 0), plain));
    return graph_verify_same_shape(cx, op, "(C1)", "operand", verify_in(op, 0), "result",
                             verify_out(op, 0));
}

/* Binary op: lhs, rhs, result of one (baseline) type. */
static enum base_status binary_same(struct verify_ctx *cx, const struct graph_op *op, unsigned mask,
                                    bool baseline)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) lhs", l, mask));
    VTRY(graph_verify_need_class(cx, op, "(I2) rhs", r, mask));
    VTRY(graph_verify_need_class(cx, op, "result", o, mask));
    if (baseline) {
        VTRY(same_baseline(cx, op, "(C1)", "lhs", l, "rhs", r));
        return same_baseline(cx, op, "(C1)", "lhs", l, "result", o);
    }
    VTRY(graph_verify_same_type(cx, op, "(C1)", "lhs", l, "rhs", r));
    return graph_verify_same_type(cx, op, "(C1)", "lhs", l, "result", o);
}

/* add: any type; quantized operands follow (C2)-(C7). */
static enum base_status add(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) lhs", l, VC_ANY));
    VTRY(graph_verify_need_class(cx, op, "(I2) rhs", r, VC_ANY));
    VTRY(graph_verify_need_class(cx, op, "result", o, VC_ANY));
    if (!l->quant && !r->quant && !o->quant) {
        VTRY(graph_verify_same_type(cx, op, "(C1)", "lhs", l, "rhs", r));
        return graph_verify_same_type(cx, op, "(C1)", "lhs", l, "result", o);
    }
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "lhs", l, "rhs", r));
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "lhs", l, "result", o));
    char tl[160], tr[160], to[160];
    graph_verify_tstr(l, tl, sizeof tl);
    graph_verify_tstr(r, tr, sizeof tr);
    graph_verify_tstr(o, to, sizeof to);
    if (!l->quant || !r->quant || !o->quant)
        return graph_verify_fail(cx, op, "(C2) lhs, rhs and result must all be quantized, got %s, %s and %s",
                           tl, tr, to);
    if (l->quant->storage != r->quant->storage || l->quant->storage != o->quant->storage)
        return graph_verify_fail(cx, op, "(C3) lhs, rhs and result must have the same storage type, got %s, %s and %s",
                           tl, tr, to);
    if (l->quant->expressed != r->quant->expressed || l->quant->expressed != o->quant->expressed)
        return graph_verify_fail(cx, op, "(C4) lhs, rhs and result must have the same expressed type, got %s, %s and %s",
                           tl, tr, to);
    bool axis = verify_is_per_axis(l) || verify_is_per_axis(r);
    if (axis != verify_is_per_axis(o))
        return graph_verify_fail(cx, op, "(C5) result must be per-axis quantized exactly when lhs or rhs is, got %s, %s and %s",
                           tl, tr, to);
    if (verify_is_per_axis(l) && l->quant->quant_dim != o->quant->quant_dim)
        return graph_verify_fail(cx, op, "(C6) lhs quantization dimension %d differs from the result's %d",
                           l->quant->quant_dim, o->quant->quant_dim);
    if (verify_is_per_axis(r) && r->quant->quant_dim != o->quant->quant_dim)
        return graph_verify_fail(cx, op, "(C7) rhs quantization dimension %d differs from the result's %d",
                           r->quant->quant_dim, o->quant->quant_dim);
    return BASE_OK;
}

static const char *const directions[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};

static enum base_status compare(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) lhs", l, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "(I2) rhs", r, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "result", o, VC_BOOL));
    if (!graph_verify_elem_baseline_equal(l, r)) {
        char tl[160], tr[160];
        return graph_verify_fail(cx, op, "(C1) lhs and rhs must have the same element type, got %s and %s",
                           graph_verify_tstr(l, tl, sizeof tl), graph_verify_tstr(r, tr, sizeof tr));
    }
    VTRY(graph_verify_same_shape(cx, op, "(C2)", "lhs", l, "rhs", r));
    VTRY(graph_verify_same_shape(cx, op, "(C2)", "lhs", l, "result", o));
    const struct graph_attr *dir = graph_op_attr(op, "comparison_direction");
    bool dir_ok = false;
    for (size_t i = 0; dir && i < ARRAY_LEN(directions); i++)
        dir_ok |= graph_verify_word_is(dir, directions[i]);
    if (!dir_ok)
        return graph_verify_fail(cx, op, "(I3) comparison_direction must be one of EQ, NE, GE, GT, LE, LT");
    /* compare_type: an enum value; as upstream, not checked against the
     * element type (spec C3) */
    const struct graph_attr *ct = graph_op_attr(op, "compare_type");
    static const char *const types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE", NULL};
    if (ct) VTRY(graph_verify_op_enum(cx, op, "(I4)", "compare_type", types, false));
    return BASE_OK;
}

static enum base_status complex_op(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) lhs", l, VC_FLOAT));
    VTRY(graph_verify_need_class(cx, op, "result", o, VC_COMPLEX));
    if (l->elem != BASE_DT_F32 && l->elem != BASE_DT_F64) {
        char tl[160];
        return graph_verify_fail(cx, op, "(I1) lhs must be a tensor of f32 or f64, got %s",
                           graph_verify_tstr(l, tl, sizeof tl));
    }
    VTRY(graph_verify_same_type(cx, op, "(C1)", "lhs", l, "rhs", r));
    VTRY(graph_verify_same_shape(cx, op, "(C2)", "lhs", l, "result", o));
    enum base_dtype want = l->elem == BASE_DT_F32 ? BASE_DT_C64 : BASE_DT_C128;
    if (o->elem != want) {
        char to[160];
        return graph_verify_fail(cx, op, "(C3) result element type must be %s, got %s",
                           base_dtype_name(want), graph_verify_tstr(o, to, sizeof to));
    }
    return BASE_OK;
}

static enum base_status select_op(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 0));
    const struct graph_type *p = verify_in(op, 0), *t = verify_in(op, 1), *f = verify_in(op, 2),
                            *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) pred", p, VC_BOOL));
    VTRY(graph_verify_need_class(cx, op, "(I2) on_true", t, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "(I3) on_false", f, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "result", o, ANYQ));
    if (p->rank != 0) VTRY(graph_verify_same_shape(cx, op, "(C1) unless pred is a scalar,", "pred", p, "on_true", t));
    VTRY(same_baseline(cx, op, "(C2)", "on_true", t, "on_false", f));
    return same_baseline(cx, op, "(C2)", "on_true", t, "result", o);
}

static enum base_status clamp(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 0));
    const struct graph_type *mn = verify_in(op, 0), *x = verify_in(op, 1), *mx = verify_in(op, 2),
                            *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) min", mn, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "(I2) operand", x, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "(I3) max", mx, ANYQ));
    VTRY(graph_verify_need_class(cx, op, "result", o, ANYQ));
    if (mn->rank != 0) VTRY(graph_verify_same_shape(cx, op, "(C1) unless min is a scalar,", "min", mn, "operand", x));
    if (mx->rank != 0) VTRY(graph_verify_same_shape(cx, op, "(C2) unless max is a scalar,", "max", mx, "operand", x));
    char ta[160], tb[160];
    if (!graph_verify_elem_baseline_equal(mn, x))
        return graph_verify_fail(cx, op, "(C3) min and operand must have the same element type, got %s and %s",
                           graph_verify_tstr(mn, ta, sizeof ta), graph_verify_tstr(x, tb, sizeof tb));
    if (!graph_verify_elem_baseline_equal(mx, x))
        return graph_verify_fail(cx, op, "(C3) max and operand must have the same element type, got %s and %s",
                           graph_verify_tstr(mx, ta, sizeof ta), graph_verify_tstr(x, tb, sizeof tb));
    return same_baseline(cx, op, "(C4)", "operand", x, "result", o);
}

/* ------------------------------------------------------------------------ */
/* CHLO broadcasting ops (ChloOps.td/.cpp: their operands broadcast numpy-style,
 * or along broadcast_dimensions)                                            */

/* Upstream isCompatibleElementTypeForHloTypeInference: equal element types;
 * quantized ones equal up to scales and zero points. */
static bool elem_compat(const struct graph_type *a, const struct graph_type *b)
{
    if (!a->quant || !b->quant) return !a->quant && !b->quant && a->elem == b->elem;
    return graph_verify_elem_baseline_equal(a, b);
}

/* The numpy-style broadcast of two dims (MLIR getBroadcastedShape); false when
 * they cannot broadcast. */
static bool broadcast_dim(int64_t a, int64_t b, int64_t *out)
{
    if (a == GRAPH_DYN || b == GRAPH_DYN) {
        int64_t s = a == GRAPH_DYN ? b : a;
        *out = s != GRAPH_DYN && s > 1 ? s : GRAPH_DYN;
        return true;
    }
    if (a == b || b == 1) *out = a;
    else if (a == 1) *out = b;
    else return false;
    return true;
}

/* The shape the operands broadcast to, into dims (*rank); *rank = -1 when
 * unknown (an unranked operand, or shapes that do not broadcast: upstream
 * then infers an unranked result and checks nothing). */
static void broadcast_shape(const struct graph_type *const *ts, int n, const int64_t *bdims, int n_bdims, int *rank,
                            int64_t *dims)
{
    *rank = -1;
    for (int i = 0; i < n; i++)
        if (ts[i]->rank < 0) return;
    if (bdims && n == 2) {
        const struct graph_type *large = ts[0]->rank > ts[1]->rank ? ts[0] : ts[1];
        const struct graph_type *small = ts[0]->rank > ts[1]->rank ? ts[1] : ts[0];
        if (n_bdims != small->rank) return;
        for (int i = 0; i < large->rank; i++) dims[i] = large->dims[i];
        for (int i = 0; i < n_bdims; i++) {
            if (bdims[i] < 0 || bdims[i] >= large->rank) return;
            if (!broadcast_dim(small->dims[i], large->dims[bdims[i]], &dims[bdims[i]])) return;
        }
        *rank = large->rank;
        return;
    }
    int r = 0;
    for (int i = 0; i < n; i++)
        if (ts[i]->rank > r) r = ts[i]->rank;
    for (int d = 0; d < r; d++) dims[d] = 1;
    for (int i = 0; i < n; i++) {
        int off = r - ts[i]->rank;
        for (int d = 0; d < ts[i]->rank; d++)
            if (!broadcast_dim(dims[off + d], ts[i]->dims[d], &dims[off + d])) return;
    }
    *rank = r;
}

/* The result's shape against the broadcast of the operands. */
static enum base_status broadcast_result(struct verify_ctx *cx, const struct graph_op *op, int n_in,
                                         const int64_t *bdims, int n_bdims)
{
    const struct graph_type *ts[3];
    for (int i = 0; i < n_in; i++) ts[i] = verify_in(op, i);
    int rank;
    int64_t dims[GRAPH_MAX_RANK];
    broadcast_shape(ts, n_in, bdims, n_bdims, &rank, dims);
    if (rank < 0) return BASE_OK;
    return graph_verify_result_dims(cx, op, "", "result (the broadcast of the operands)", verify_out(op, 0), rank,
                                    dims);
}

enum chlo_elem_rule { SAME_ELEM, COMPAT_ELEM, LOGICAL, FP_ONLY, TO_COMPLEX, TO_PRED };

static enum base_status chlo_broadcast_binary(struct verify_ctx *cx, const struct graph_op *op,
                                              enum chlo_elem_rule rule)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    unsigned in_mask = rule == LOGICAL ? VC_BOOL | VC_INT : rule == FP_ONLY || rule == TO_COMPLEX ? VC_FLOAT : VC_ANY;
    VTRY(graph_verify_need_class(cx, op, "lhs", l, in_mask));
    VTRY(graph_verify_need_class(cx, op, "rhs", r, in_mask));
    VTRY(graph_verify_need_class(cx, op, "result",
                                 o, rule == TO_COMPLEX ? VC_COMPLEX : rule == TO_PRED ? VC_BOOL : in_mask));
    char ta[160], tb[160], tc[160];
    if (!elem_compat(l, r))
        return graph_verify_fail(cx, op, "mismatched operand types: lhs %s and rhs %s must have compatible element types",
                                 graph_verify_tstr(l, ta, sizeof ta), graph_verify_tstr(r, tb, sizeof tb));
    bool same = rule == SAME_ELEM || rule == LOGICAL || rule == FP_ONLY;
    if ((same && (!graph_verify_elem_equal(l, r) || !graph_verify_elem_equal(l, o))) ||
        (rule == COMPAT_ELEM && !elem_compat(l, o)))
        return graph_verify_fail(cx, op, "requires %s element types for all operands and results, got %s, %s and %s",
                                 same ? "the same" : "compatible", graph_verify_tstr(l, ta, sizeof ta),
                                 graph_verify_tstr(r, tb, sizeof tb), graph_verify_tstr(o, tc, sizeof tc));
    if (rule == TO_COMPLEX && o->elem != (l->elem == BASE_DT_F64 ? BASE_DT_C128 : BASE_DT_C64))
        return graph_verify_fail(cx, op, "result element type must be the complex type of %s, got %s",
                                 base_dtype_name(l->elem), graph_verify_tstr(o, tc, sizeof tc));
    if (rule == TO_PRED) {
        const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
        VTRY(graph_verify_op_enum(cx, op, "", "comparison_direction", dirs, true));
    }
    int64_t bd[VERIFY_MAX_LIST];
    int nbd;
    VTRY(graph_verify_op_list(cx, op, "broadcast_dimensions", false, bd, &nbd));
    return broadcast_result(cx, op, 2, nbd >= 0 ? bd : NULL, nbd);
}

static enum base_status chlo_broadcast_select(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 0));
    const struct graph_type *p = verify_in(op, 0), *t = verify_in(op, 1), *f = verify_in(op, 2),
                            *o = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "pred", p, VC_BOOL));
    VTRY(graph_verify_need_tensor(cx, op, "on_true", t));
    VTRY(graph_verify_need_tensor(cx, op, "on_false", f));
    VTRY(graph_verify_need_tensor(cx, op, "result", o));
    if (!graph_verify_elem_equal(t, f) || !elem_compat(t, o)) {
        char ta[160], tb[160], tc[160];
        return graph_verify_fail(cx, op, "mismatched operand types: on_true %s, on_false %s and result %s",
                                 graph_verify_tstr(t, ta, sizeof ta), graph_verify_tstr(f, tb, sizeof tb),
                                 graph_verify_tstr(o, tc, sizeof tc));
    }
    return broadcast_result(cx, op, 3, NULL, 0);
}

/* chlo.constant_like: a splat of `value` shaped like the operand. */
static enum base_status chlo_constant_like(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *x = verify_in(op, 0), *o = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", x));
    VTRY(graph_verify_need_tensor(cx, op, "result", o));
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v) return graph_verify_fail(cx, op, "requires attribute 'value'");
    enum base_dtype vt = BASE_DT_COUNT;
    if (v->kind == GRAPH_ATTR_INT || v->kind == GRAPH_ATTR_FLOAT) vt = v->elem;
    else if (v->kind == GRAPH_ATTR_BOOL) vt = BASE_DT_I1;
    else if (v->kind == GRAPH_ATTR_ELEMENTS && v->u.elements.type && v->u.elements.type->rank == 0)
        vt = v->u.elements.type->elem;
    if (vt == BASE_DT_COUNT) return graph_verify_fail(cx, op, "'value' must be a typed scalar attribute");
    if (o->quant || vt != o->elem) {
        char to[160];
        return graph_verify_fail(cx, op, "value's type (%s) doesn't match element return type of %s",
                                 base_dtype_name(vt), graph_verify_tstr(o, to, sizeof to));
    }
    return graph_verify_same_shape(cx, op, "", "operand", x, "result", o);
}

/* chlo.constant: the result has the value's (static) type. */
static enum base_status chlo_constant(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 1, 1, 0));
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS) return graph_verify_fail(cx, op, "requires a dense 'value' attribute");
    const struct graph_type *o = verify_out(op, 0);
    if (!graph_verify_type_compat(v->u.elements.type, o) || !graph_type_is_static(o)) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "result type %s must be the value's static type %s",
                                 graph_verify_tstr(o, ta, sizeof ta), graph_verify_tstr(v->u.elements.type, tb, sizeof tb));
    }
    return BASE_OK;
}

bool graph_verify_is_chlo_misc(enum graph_op_kind k)
{
    return (k >= GRAPH_OP_CHLO_BROADCAST_ADD && k <= GRAPH_OP_CHLO_BROADCAST_SELECT) || k == GRAPH_OP_CHLO_CONSTANT ||
           k == GRAPH_OP_CHLO_CONSTANT_LIKE || k == GRAPH_OP_CHLO_ASIN_ACOS_KERNEL;
}

enum base_status graph_verify_elementwise(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    /* unary */
    case GRAPH_OP_ABS:
        return unary_component(cx, op, VC_SINT | VC_FLOAT | VC_COMPLEX | VC_QUANT,
                               VC_SINT | VC_FLOAT | VC_QUANT);
    case GRAPH_OP_CBRT:
    case GRAPH_OP_COSINE:
    case GRAPH_OP_SINE:
    case GRAPH_OP_TAN:
    case GRAPH_OP_TANH:
    case GRAPH_OP_EXPONENTIAL:
    case GRAPH_OP_EXPONENTIAL_MINUS_ONE:
    case GRAPH_OP_LOG:
    case GRAPH_OP_LOG_PLUS_ONE:
    case GRAPH_OP_LOGISTIC:
    case GRAPH_OP_RSQRT:
    case GRAPH_OP_SQRT:
        return unary_same(cx, op, FCQ, true);
    case GRAPH_OP_CEIL:
    case GRAPH_OP_FLOOR:
    case GRAPH_OP_ROUND_NEAREST_AFZ:
    case GRAPH_OP_ROUND_NEAREST_EVEN:
        return unary_same(cx, op, VC_FLOAT | VC_QUANT, true);
    case GRAPH_OP_REDUCE_PRECISION:
        return reduce_precision(cx, op);
    case GRAPH_OP_CONVERT:
        return convert(cx, op);
    case GRAPH_OP_COUNT_LEADING_ZEROS:
    case GRAPH_OP_POPCNT:
        return unary_same(cx, op, VC_INT, false);
    case GRAPH_OP_IMAG:
    case GRAPH_OP_REAL:
        return unary_component(cx, op, VC_FLOAT | VC_COMPLEX, VC_FLOAT);
    case GRAPH_OP_IS_FINITE:
        return unary_predicate(cx, op, VC_FLOAT | VC_QUANT);
    case GRAPH_OP_NEGATE:
        return unary_same(cx, op, IFCQ, true);
    case GRAPH_OP_NOT:
        return unary_same(cx, op, VC_BOOL | VC_INT, false);
    case GRAPH_OP_SIGN:
        return unary_same(cx, op, VC_SINT | VC_FLOAT | VC_COMPLEX | VC_QUANT, true);
    /* binary */
    case GRAPH_OP_ADD:
        return add(cx, op);
    case GRAPH_OP_SUBTRACT:
    case GRAPH_OP_DIVIDE:
    case GRAPH_OP_REMAINDER:
    case GRAPH_OP_POWER:
        return binary_same(cx, op, IFCQ, true);
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM:
        return binary_same(cx, op, ANYQ, true);
    case GRAPH_OP_ATAN2:
        return binary_same(cx, op, FCQ, true);
    case GRAPH_OP_AND:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR:
        return binary_same(cx, op, VC_BOOL | VC_INT, false);
    case GRAPH_OP_SHIFT_LEFT:
    case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC:
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL:
        return binary_same(cx, op, VC_INT, false);
    case GRAPH_OP_COMPARE:
        return compare(cx, op);
    case GRAPH_OP_COMPLEX:
        return complex_op(cx, op);
    /* ternary */
    case GRAPH_OP_SELECT:
        return select_op(cx, op);
    case GRAPH_OP_CLAMP:
        return clamp(cx, op);
    /* chlo: HLO_CompatibleOperandsAndResultType with the operand classes of ChloOps.td */
    case GRAPH_OP_CHLO_ACOS:
    case GRAPH_OP_CHLO_ACOSH:
    case GRAPH_OP_CHLO_ASIN:
    case GRAPH_OP_CHLO_ASINH:
    case GRAPH_OP_CHLO_ATAN:
    case GRAPH_OP_CHLO_ATANH:
    case GRAPH_OP_CHLO_BESSEL_I1E:
    case GRAPH_OP_CHLO_CONJ:
    case GRAPH_OP_CHLO_COSH:
    case GRAPH_OP_CHLO_SINH:
    case GRAPH_OP_CHLO_TAN:
        return unary_same(cx, op, VC_FLOAT | VC_COMPLEX, false);
    case GRAPH_OP_CHLO_SQUARE:
        return unary_same(cx, op, VC_INT | VC_FLOAT | VC_COMPLEX, false);
    case GRAPH_OP_CHLO_DIGAMMA:
    case GRAPH_OP_CHLO_ERF:
    case GRAPH_OP_CHLO_ERF_INV:
    case GRAPH_OP_CHLO_ERFC:
    case GRAPH_OP_CHLO_LGAMMA:
        return unary_same(cx, op, VC_FLOAT, false);
    case GRAPH_OP_CHLO_IS_INF:
    case GRAPH_OP_CHLO_IS_NEG_INF:
    case GRAPH_OP_CHLO_IS_POS_INF:
        return unary_predicate(cx, op, VC_FLOAT);
    case GRAPH_OP_CHLO_MULHI:
        return binary_same(cx, op, VC_INT, false);
    case GRAPH_OP_CHLO_NEXT_AFTER:
    case GRAPH_OP_CHLO_POLYGAMMA:
    case GRAPH_OP_CHLO_ZETA:
        return binary_same(cx, op, VC_FLOAT, false);
    case GRAPH_OP_CHLO_ASIN_ACOS_KERNEL:
        return unary_same(cx, op, VC_COMPLEX, false);
    case GRAPH_OP_CHLO_CONSTANT:
        return chlo_constant(cx, op);
    case GRAPH_OP_CHLO_CONSTANT_LIKE:
        return chlo_constant_like(cx, op);
    case GRAPH_OP_CHLO_BROADCAST_ADD:
    case GRAPH_OP_CHLO_BROADCAST_MAXIMUM:
    case GRAPH_OP_CHLO_BROADCAST_MINIMUM:
        return chlo_broadcast_binary(cx, op, COMPAT_ELEM);
    case GRAPH_OP_CHLO_BROADCAST_ATAN2:
    case GRAPH_OP_CHLO_BROADCAST_DIVIDE:
    case GRAPH_OP_CHLO_BROADCAST_MULTIPLY:
    case GRAPH_OP_CHLO_BROADCAST_NEXT_AFTER:
    case GRAPH_OP_CHLO_BROADCAST_POLYGAMMA:
    case GRAPH_OP_CHLO_BROADCAST_POWER:
    case GRAPH_OP_CHLO_BROADCAST_REMAINDER:
    case GRAPH_OP_CHLO_BROADCAST_SHIFT_LEFT:
    case GRAPH_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC:
    case GRAPH_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL:
    case GRAPH_OP_CHLO_BROADCAST_SUBTRACT:
        return chlo_broadcast_binary(cx, op, SAME_ELEM);
    case GRAPH_OP_CHLO_BROADCAST_ZETA:
        return chlo_broadcast_binary(cx, op, FP_ONLY);
    case GRAPH_OP_CHLO_BROADCAST_AND:
    case GRAPH_OP_CHLO_BROADCAST_OR:
    case GRAPH_OP_CHLO_BROADCAST_XOR:
        return chlo_broadcast_binary(cx, op, LOGICAL);
    case GRAPH_OP_CHLO_BROADCAST_COMPLEX:
        return chlo_broadcast_binary(cx, op, TO_COMPLEX);
    case GRAPH_OP_CHLO_BROADCAST_COMPARE:
        return chlo_broadcast_binary(cx, op, TO_PRED);
    case GRAPH_OP_CHLO_BROADCAST_SELECT:
        return chlo_broadcast_select(cx, op);
    default:
        return BASE_OK;
    }
}
