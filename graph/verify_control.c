/* Verifier rules for functions and control flow (func.func, func.call,
 * func.return, while, if, case, composite, optimization_barrier), misc ops
 * (constant, tuples, rng, quantization, custom_call) and the test-harness ops
 * (check.*, interpreter.*). */
#include "graph/verify_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Functions                                                                 */

static int list_len(const struct graph_attr *l) { return l ? l->u.array.n : 0; }
static const struct graph_type *list_type(const struct graph_attr *l, int i)
{
    return l->u.array.items[i]->u.type;
}

/* Values (operands, results, block args) against a function's type list. */
enum side { SIDE_OPERANDS, SIDE_RESULTS, SIDE_ARGS, SIDE_RETURN };

static const struct graph_type *side_type(const struct graph_op *op, const struct graph_block *b,
                                          enum side s, int i)
{
    switch (s) {
    case SIDE_OPERANDS:
    case SIDE_RETURN: return verify_in(op, i);
    case SIDE_RESULTS: return verify_out(op, i);
    case SIDE_ARGS: return b->args[i].type;
    }
    return NULL;
}

static enum base_status match_signature(struct verify_ctx *cx, const struct graph_op *op,
                                        const char *label, const struct graph_op *func,
                                        const struct graph_attr *types, const char *kind,
                                        enum side s, const struct graph_block *b, int n)
{
    const char *fname = graph_func_name(func);
    int want = list_len(types);
    static const char *const what[] = {"operand", "result", "argument", "returned value"};
    if (n != want)
        return graph_verify_fail(cx, op, "%s has %d %s%s but @%s declares %d %s%s", label, n, what[s],
                           n == 1 ? "" : "s", fname, want, kind, want == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const struct graph_type *got = side_type(op, b, s, i), *exp = list_type(types, i);
        if (!graph_type_equal(got, exp)) {
            char tg[160], te[160];
            return graph_verify_fail(cx, op, "%s %s %d has type %s but @%s declares %s %d as %s", label,
                               what[s], i, graph_verify_tstr(got, tg, sizeof tg), fname, kind, i,
                               graph_verify_tstr(exp, te, sizeof te));
        }
    }
    return BASE_OK;
}

static enum base_status func_func(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 0, 0, 1));
    const struct graph_attr *ins = graph_verify_func_types(op, "inputs");
    const struct graph_attr *outs = graph_verify_func_types(op, "results");
    if (!ins || !outs)
        return graph_verify_fail(cx, op, "requires a 'function_type' attribute (inputs -> results)");
    const struct graph_block *b = graph_verify_entry(op, 0);
    if (!b) return BASE_OK; /* a declaration */
    return match_signature(cx, op, "entry block", op, ins, "input", SIDE_ARGS, b, b->n_args);
}

static enum base_status func_return(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, -1, 0, 0, 0));
    const struct graph_op *f = cx->func;
    if (!f || op->parent != graph_verify_entry(f, 0)) return BASE_OK; /* placement: see the walk */
    return match_signature(cx, op, "func.return", f, graph_verify_func_types(f, "results"), "result",
                           SIDE_RETURN, NULL, op->n_operands);
}

static enum base_status func_call(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, -1, 0, -1, 0));
    const struct graph_attr *c = graph_op_attr(op, "callee");
    size_t len;
    const char *name = c && c->kind == GRAPH_ATTR_SYMBOL ? graph_verify_attr_word(c, &len) : NULL;
    if (!name) return graph_verify_fail(cx, op, "requires a 'callee' symbol attribute");
    const struct graph_op *f = graph_verify_find_func(cx, name, len);
    if (!f)
        return graph_verify_fail(cx, op, "'%.*s' does not reference a valid function", (int)len, name);
    VTRY(match_signature(cx, op, "call", f, graph_verify_func_types(f, "inputs"), "input", SIDE_OPERANDS,
                         NULL, op->n_operands));
    return match_signature(cx, op, "call", f, graph_verify_func_types(f, "results"), "result",
                           SIDE_RESULTS, NULL, op->n_results);
}

/* ------------------------------------------------------------------------ */
/* Control flow                                                              */

/* The values a region returns against the op's results (if, case). */
static enum base_status branch_results(struct verify_ctx *cx, const struct graph_op *op, int r,
                                       const char *label_args, const char *label_ret,
                                       const char *rname)
{
    const struct graph_block *b = graph_verify_entry(op, r);
    if (!b) return graph_verify_fail(cx, op, "%s region must not be empty", rname);
    if (b->n_args != 0)
        return graph_verify_fail(cx, op, "%s %s must take no arguments, takes %d", label_args, rname,
                           b->n_args);
    const struct graph_op *t = graph_verify_term(b);
    if (!t) return graph_verify_fail(cx, op, "%s region has no terminator", rname);
    if (t->n_operands != op->n_results)
        return graph_verify_fail(cx, op, "%s %s returns %d value%s but the op has %d result%s", label_ret,
                           rname, t->n_operands, t->n_operands == 1 ? "" : "s", op->n_results,
                           op->n_results == 1 ? "" : "s");
    for (int i = 0; i < op->n_results; i++)
        if (!graph_verify_type_compat(verify_in(t, i), verify_out(op, i))) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "%s %s returns %s as value %d but result %d has type %s",
                               label_ret, rname, graph_verify_tstr(verify_in(t, i), ta, sizeof ta), i, i,
                               graph_verify_tstr(verify_out(op, i), tb, sizeof tb));
        }
    return BASE_OK;
}

static enum base_status scalar_of(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *what, const struct graph_type *t,
                                  enum base_dtype dt)
{
    if (verify_is_tensor(t) && !t->quant && t->elem == dt && (t->rank == 0 || t->rank < 0))
        return BASE_OK;
    char ts[160];
    return graph_verify_fail(cx, op, "%s must be a 0-dimensional tensor of %s, got %s", what,
                       base_dtype_name(dt), graph_verify_tstr(t, ts, sizeof ts));
}

static enum base_status if_op(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 0, -1, 2));
    VTRY(scalar_of(cx, op, "(I1) pred", verify_in(op, 0), BASE_DT_I1));
    VTRY(branch_results(cx, op, 0, "(C1)", "(C3)", "true_branch"));
    return branch_results(cx, op, 1, "(C1)", "(C2)", "false_branch");
}

static enum base_status case_op(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 0, -1, -1));
    if (op->n_regions < 1) return graph_verify_fail(cx, op, "(C1) needs at least one branch");
    VTRY(scalar_of(cx, op, "(I1) index", verify_in(op, 0), BASE_DT_SI32));
    for (int r = 0; r < op->n_regions; r++) {
        char rname[32];
        snprintf(rname, sizeof rname, "branch %d", r);
        VTRY(branch_results(cx, op, r, "(C2)", r ? "(C3)" : "(C4)", rname));
    }
    return BASE_OK;
}

static enum base_status while_op(struct verify_ctx *cx, const struct graph_op *op)
{
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, 0, -1, n, n, 2));
    char ta[160], tb[160];
    for (int i = 0; i < n; i++)
        if (!graph_verify_type_compat(verify_in(op, i), verify_out(op, i)))
            return graph_verify_fail(cx, op, "(C3) result %d has type %s but operand %d has type %s", i,
                               graph_verify_tstr(verify_out(op, i), ta, sizeof ta), i,
                               graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
    static const char *const rn[] = {"cond", "body"};
    static const char *const lab[] = {"(C1)", "(C2)"};
    for (int r = 0; r < 2; r++) {
        const struct graph_block *b;
        const struct graph_op *t;
        VTRY(graph_verify_region_shape(cx, op, r, rn[r], -1, -1, &b, &t));
        if (b->n_args != n)
            return graph_verify_fail(cx, op, "%s %s takes %d argument%s but the op has %d operand%s",
                               lab[r], rn[r], b->n_args, b->n_args == 1 ? "" : "s", n,
                               n == 1 ? "" : "s");
        for (int i = 0; i < n; i++)
            if (!graph_verify_type_compat(b->args[i].type, verify_in(op, i)))
                return graph_verify_fail(cx, op, "%s %s argument %d has type %s but operand %d has type %s",
                                   lab[r], rn[r], i, graph_verify_tstr(b->args[i].type, ta, sizeof ta),
                                   i, graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
        if (r == 0) {
            if (t->n_operands != 1)
                return graph_verify_fail(cx, op, "(C1) cond must return one tensor<i1>, returns %d values",
                                   t->n_operands);
            VTRY(scalar_of(cx, op, "(C1) the value cond returns", verify_in(t, 0), BASE_DT_I1));
            continue;
        }
        if (t->n_operands != n)
            return graph_verify_fail(cx, op, "(C2) body returns %d value%s but the op has %d operand%s",
                               t->n_operands, t->n_operands == 1 ? "" : "s", n, n == 1 ? "" : "s");
        for (int i = 0; i < n; i++)
            if (!graph_verify_type_compat(verify_in(t, i), verify_in(op, i)))
                return graph_verify_fail(cx, op, "(C2) body returns %s as value %d but operand %d has type %s",
                                   graph_verify_tstr(verify_in(t, i), ta, sizeof ta), i, i,
                                   graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
    }
    return BASE_OK;
}

static enum base_status optimization_barrier(struct verify_ctx *cx, const struct graph_op *op)
{
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, 0, -1, n, n, 0));
    for (int i = 0; i < n; i++) {
        char wa[32], wb[32];
        snprintf(wa, sizeof wa, "operand %d", i);
        snprintf(wb, sizeof wb, "result %d", i);
        VTRY(graph_verify_same_type(cx, op, "(C1)", wa, verify_in(op, i), wb, verify_out(op, i)));
    }
    return BASE_OK;
}

/* sdy.sharding_constraint: the value unchanged, a sharding of its rank. */
static enum base_status sharding_constraint(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    VTRY(graph_verify_same_type(cx, op, "(C1)", "operand", verify_in(op, 0), "result", verify_out(op, 0)));
    const struct graph_attr *s = graph_op_attr(op, "sharding");
    const struct graph_attr *dims = s && s->kind == GRAPH_ATTR_DICT && s->tag && !strcmp(s->tag, "sdy.sharding")
                                        ? graph_dict_get(s, "dims")
                                        : NULL;
    if (!dims || dims->kind != GRAPH_ATTR_ARRAY)
        return graph_verify_fail(cx, op, "needs a sharding attribute (#sdy.sharding<@mesh, [...]>)");
    const struct graph_type *t = verify_in(op, 0);
    if (t && t->kind == GRAPH_TYPE_TENSOR && t->rank >= 0 && dims->u.array.n != t->rank)
        return graph_verify_fail(cx, op, "the sharding has %d dims, the value rank %d", dims->u.array.n, t->rank);
    return BASE_OK;
}

/* [a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+ */
static bool namespaced_op_name(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
    for (i = 1; i < n && s[i] != '.'; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    int parts = 0;
    while (i < n) {
        /* s[i] == '.' */
        size_t start = ++i;
        for (; i < n && s[i] != '.'; i++)
            if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                  (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '$'))
                return false;
        if (i == start) return false;
        parts++;
    }
    return parts > 0;
}

static enum base_status composite(struct verify_ctx *cx, const struct graph_op *op)
{
    /* any number of composite_regions (upstream; the decomposition is what runs) */
    VTRY(graph_verify_counts(cx, op, 0, -1, 0, -1, -1));
    const struct graph_attr *nm = graph_op_attr(op, "name");
    size_t len;
    const char *name = nm && nm->kind == GRAPH_ATTR_STRING ? graph_verify_attr_word(nm, &len) : NULL;
    if (!name) return graph_verify_fail(cx, op, "requires a 'name' string attribute");
    if (!namespaced_op_name(name, len))
        return graph_verify_fail(cx, op, "(C1) name \"%.*s\" is not a namespaced op name", (int)len, name);
    const struct graph_attr *d = graph_op_attr(op, "decomposition");
    const char *dn = d && d->kind == GRAPH_ATTR_SYMBOL ? graph_verify_attr_word(d, &len) : NULL;
    if (!dn) return graph_verify_fail(cx, op, "requires a 'decomposition' symbol attribute");
    const struct graph_op *f = graph_verify_find_func(cx, dn, len);
    if (!f) return graph_verify_fail(cx, op, "(C2) decomposition @%.*s is not a function", (int)len, dn);
    VTRY(match_signature(cx, op, "(C3)", f, graph_verify_func_types(f, "inputs"), "input",
                         SIDE_OPERANDS, NULL, op->n_operands));
    return match_signature(cx, op, "(C4)", f, graph_verify_func_types(f, "results"), "result",
                           SIDE_RESULTS, NULL, op->n_results);
}

/* ------------------------------------------------------------------------ */
/* Async ops (StablehloOps.cpp AsyncStartOp/AsyncDoneOp::inferReturnTypes)   */

static bool async_wrappable(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ALL_GATHER:
    case GRAPH_OP_ALL_REDUCE:
    case GRAPH_OP_ALL_TO_ALL:
    case GRAPH_OP_COLLECTIVE_BROADCAST:
    case GRAPH_OP_COLLECTIVE_PERMUTE:
    case GRAPH_OP_COLLECTIVE_REDUCE:
    case GRAPH_OP_DYNAMIC_SLICE:
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE:
    case GRAPH_OP_REDUCE_SCATTER:
    case GRAPH_OP_SLICE:
        return true;
    default:
        return false;
    }
}

/* async_start: one region holding one collective or slice op and a return;
 * the result is a future of what the region returns. */
static enum base_status async_start(struct verify_ctx *cx, const struct graph_op *op)
{
    if (op->n_regions != 1) return graph_verify_fail(cx, op, "op requires one region, has %d", op->n_regions);
    VTRY(graph_verify_counts(cx, op, 0, -1, 1, 1, 1));
    for (int i = 0; i < op->n_operands; i++) {
        char w[32];
        snprintf(w, sizeof w, "operand %d", i);
        VTRY(graph_verify_need_rank(cx, op, w, verify_in(op, i), -1));
    }
    const struct graph_block *b = graph_verify_entry(op, 0);
    if (!b) return graph_verify_fail(cx, op, "region must not be empty");
    if (b->n_ops != 2) return graph_verify_fail(cx, op, "region must contain exactly one operation and a return");
    if (!async_wrappable(b->ops[0]->kind))
        return graph_verify_fail(cx, op, "region must contain a collective or slice operation, not %s", b->ops[0]->name);
    if (op->n_operands != b->n_args)
        return graph_verify_fail(cx, op, "number of operands (%d) must match number of region arguments (%d)",
                                 op->n_operands, b->n_args);
    char ta[160], tb[160];
    for (int i = 0; i < op->n_operands; i++)
        if (!graph_type_equal(verify_in(op, i), b->args[i].type))
            return graph_verify_fail(cx, op, "operand type %s at index %d must match region argument type %s",
                                     graph_verify_tstr(verify_in(op, i), ta, sizeof ta), i,
                                     graph_verify_tstr(b->args[i].type, tb, sizeof tb));
    const struct graph_op *t = graph_verify_term(b);
    if (!t) return graph_verify_fail(cx, op, "region must have a terminator");
    if (t->n_operands != 1)
        return graph_verify_fail(cx, op, "region must return exactly one value, but got %d", t->n_operands);
    const struct graph_type *o = verify_out(op, 0);
    if (o->kind != GRAPH_TYPE_FUTURE || o->n_elems != 1 || !graph_verify_type_compat(o->elems[0], verify_in(t, 0)))
        return graph_verify_fail(cx, op, "inferred type '!stablehlo.future<%s>' is incompatible with the result type '%s'",
                                 graph_verify_tstr(verify_in(t, 0), ta, sizeof ta), graph_verify_tstr(o, tb, sizeof tb));
    return BASE_OK;
}

static enum base_status async_done(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *f = verify_in(op, 0), *o = verify_out(op, 0);
    char ta[160], tb[160];
    if (f->kind != GRAPH_TYPE_FUTURE)
        return graph_verify_fail(cx, op, "operand must be a future type, got %s", graph_verify_tstr(f, ta, sizeof ta));
    if (f->n_elems != 1)
        return graph_verify_fail(cx, op, "future must have exactly one type parameter, but got %d", f->n_elems);
    if (!graph_verify_type_compat(f->elems[0], o))
        return graph_verify_fail(cx, op, "inferred type '%s' is incompatible with the result type '%s'",
                                 graph_verify_tstr(f->elems[0], ta, sizeof ta), graph_verify_tstr(o, tb, sizeof tb));
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Misc                                                                      */

/* A value attribute's type against a tensor type (quantized tensors hold
 * their storage type in literals). */
static bool literal_fits(const struct graph_type *lit, const struct graph_type *t)
{
    if (!verify_is_tensor(lit) || !verify_is_tensor(t)) return false;
    if (!graph_verify_shape_compat(lit, t)) return false;
    if (t->quant && !lit->quant) return lit->elem == t->quant->storage;
    return graph_verify_elem_equal(lit, t);
}

static enum base_status constant(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 1, 1, 0));
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS)
        return graph_verify_fail(cx, op, "requires a 'value' tensor attribute");
    const struct graph_type *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "output", out));
    if (literal_fits(v->u.elements.type, out)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "(C1) value has type %s but output has type %s",
                       graph_verify_tstr(v->u.elements.type, ta, sizeof ta),
                       graph_verify_tstr(out, tb, sizeof tb));
}

/* arith.constant: the value's type is the result's. */
static enum base_status arith_constant(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 1, 1, 0));
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS) return graph_verify_fail(cx, op, "requires a 'value' tensor attribute");
    const struct graph_type *out = verify_out(op, 0);
    if (graph_type_equal(v->u.elements.type, out)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "value has type %s but the result has type %s",
                             graph_verify_tstr(v->u.elements.type, ta, sizeof ta), graph_verify_tstr(out, tb, sizeof tb));
}

/* tensor.cast: the same element type, compatible shapes. */
static enum base_status tensor_cast(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_same_shape(cx, op, "", "operand", in, "result", out));
    return graph_verify_same_elem(cx, op, "", "operand", in, "result", out);
}

static enum base_status tuple(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, -1, 1, 1, 0));
    const struct graph_type *out = verify_out(op, 0);
    char ta[160], tb[160];
    if (out->kind != GRAPH_TYPE_TUPLE || out->n_elems != op->n_operands)
        return graph_verify_fail(cx, op, "(C1) result must be a tuple of the %d operand types, got %s",
                           op->n_operands, graph_verify_tstr(out, ta, sizeof ta));
    for (int i = 0; i < op->n_operands; i++)
        if (!graph_verify_type_compat(out->elems[i], verify_in(op, i)))
            return graph_verify_fail(cx, op, "(C1) tuple element %d has type %s but operand %d has type %s",
                               i, graph_verify_tstr(out->elems[i], ta, sizeof ta), i,
                               graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
    return BASE_OK;
}

static enum base_status get_tuple_element(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    char ta[160], tb[160];
    if (in->kind != GRAPH_TYPE_TUPLE)
        return graph_verify_fail(cx, op, "(I1) operand must be a tuple, got %s",
                           graph_verify_tstr(in, ta, sizeof ta));
    int64_t idx;
    VTRY(graph_verify_op_int(cx, op, "index", NULL, &idx));
    if (idx < 0 || idx >= in->n_elems)
        return graph_verify_fail(cx, op, "(C1) index %lld must be in [0, %d)", (long long)idx, in->n_elems);
    if (!graph_verify_type_compat(in->elems[idx], out))
        return graph_verify_fail(cx, op, "(C2) result has type %s but tuple element %lld has type %s",
                           graph_verify_tstr(out, ta, sizeof ta), (long long)idx,
                           graph_verify_tstr(in->elems[idx], tb, sizeof tb));
    return BASE_OK;
}

static enum base_status rng(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 0));
    unsigned mask = VC_BOOL | VC_INT | VC_FLOAT;
    const struct graph_type *a = verify_in(op, 0), *b = verify_in(op, 1), *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) a", a, mask));
    VTRY(graph_verify_need_rank(cx, op, "(I1) a", a, 0));
    VTRY(graph_verify_need_class(cx, op, "(I2) b", b, mask));
    VTRY(graph_verify_need_rank(cx, op, "(I2) b", b, 0));
    VTRY(graph_verify_need_class(cx, op, "result", out, mask));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "a", a, "b", b));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "a", a, "result", out));
    static const char *const dists[] = {"UNIFORM", "NORMAL", NULL};
    VTRY(graph_verify_op_enum(cx, op, "(I4)", "rng_distribution", dists, true));
    if (graph_verify_word_is(graph_op_attr(op, "rng_distribution"), "NORMAL") &&
        graph_verify_class(a) != VC_FLOAT)
        return graph_verify_fail(cx, op, "(C2) a NORMAL distribution needs floating-point a and b");
    const struct graph_type *shape = verify_in(op, 2);
    VTRY(graph_verify_need_class(cx, op, "(I3) shape", shape, VC_INT));
    VTRY(graph_verify_need_rank(cx, op, "(I3) shape", shape, 1));
    if (shape->rank == 1 && out->rank >= 0 && shape->dims[0] != GRAPH_DYN &&
        shape->dims[0] != out->rank)
        return graph_verify_fail(cx, op, "(C3) shape has %lld elements but the result has rank %d",
                           (long long)shape->dims[0], out->rank);
    /* a constant shape is the result's (upstream inferRngOp) */
    int64_t dims[GRAPH_MAX_RANK];
    int nd = graph_verify_const_ints(op, 2, dims, GRAPH_MAX_RANK);
    if (nd >= 0) VTRY(graph_verify_result_dims(cx, op, "(C3)", "result", out, nd, dims));
    return BASE_OK;
}

/* rng_bit_generator as upstream verifies it: integer or float states of
 * compatible shapes, a static integer or float output; the spec's 1-D
 * integer state (I2), equal state types (C1) and state sizes per algorithm
 * (C2) are not checked. */
static enum base_status rng_bit_generator(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 2, 2, 0));
    const struct graph_type *st = verify_in(op, 0), *ost = verify_out(op, 0), *out = verify_out(op, 1);
    VTRY(graph_verify_need_class(cx, op, "(I2) initial_state", st, VC_INT | VC_FLOAT));
    VTRY(graph_verify_need_class(cx, op, "output_state", ost, VC_INT | VC_FLOAT));
    VTRY(graph_verify_need_class(cx, op, "output", out, VC_INT | VC_FLOAT));
    if (!graph_type_is_static(out)) {
        char ts[160];
        return graph_verify_fail(cx, op, "output must be statically shaped, got %s", graph_verify_tstr(out, ts, sizeof ts));
    }
    if (!graph_verify_shape_compat(st, ost)) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C1) output state shape must be compatible with initial state shape, got %s and %s",
                                 graph_verify_tstr(st, ta, sizeof ta), graph_verify_tstr(ost, tb, sizeof tb));
    }
    static const char *const algs[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
    return graph_verify_op_enum(cx, op, "(I1)", "rng_algorithm", algs, true);
}

static enum base_status uniform_quantize(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", in, VC_FLOAT | VC_QANY));
    VTRY(graph_verify_need_class(cx, op, "result", out, VC_QANY));
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "operand", in, "result", out));
    enum base_dtype want = in->quant ? in->quant->expressed : in->elem;
    if (out->quant->expressed != want) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C2) result expressed type must be %s (from %s), got %s",
                           base_dtype_name(want), graph_verify_tstr(in, ta, sizeof ta),
                           graph_verify_tstr(out, tb, sizeof tb));
    }
    return BASE_OK;
}

static enum base_status uniform_dequantize(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", in, VC_QANY));
    VTRY(graph_verify_need_class(cx, op, "result", out, VC_FLOAT));
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "operand", in, "result", out));
    if (out->elem != in->quant->expressed) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C2) result element type must be the expressed type %s of %s, got %s",
                           base_dtype_name(in->quant->expressed), graph_verify_tstr(in, ta, sizeof ta),
                           graph_verify_tstr(out, tb, sizeof tb));
    }
    return BASE_OK;
}

/* operand_layouts / result_layouts against the values' types (upstream
 * CustomCallOp::verify): each a permutation of [0, rank); empty for tokens. */
static enum base_status custom_call_layouts(struct verify_ctx *cx, const struct graph_op *op, const char *what,
                                            const struct graph_attr *layouts, int n,
                                            const struct graph_type *const *types)
{
    if (layouts->kind != GRAPH_ATTR_ARRAY)
        return graph_verify_fail(cx, op, "%s_layouts must be an array of layouts", what);
    if (layouts->u.array.n != n)
        return graph_verify_fail(cx, op, "Number of %ss must match the number of %s layouts, %d != %d", what, what, n,
                                 layouts->u.array.n);
    char ts[160], ls[200];
    for (int i = 0; i < n; i++) {
        int64_t l[VERIFY_MAX_LIST];
        int nl;
        VTRY(graph_verify_attr_list(cx, op, layouts->u.array.items[i], "layout", true, l, &nl));
        const struct graph_type *t = types[i];
        if (t->kind == GRAPH_TYPE_TUPLE)
            return graph_verify_fail(cx, op, "Tuple types are not fully supported with layout constraints yet");
        if (t->kind != GRAPH_TYPE_TENSOR) {
            if (nl == 0) continue;
            return graph_verify_fail(cx, op, "Only tensor types can have non-empty layout: %s #%d of type %s has layout %s",
                                     what, i, graph_verify_tstr(t, ts, sizeof ts), graph_verify_lstr(nl, l, ls, sizeof ls));
        }
        if (t->rank < 0) continue;
        bool perm = nl == t->rank;
        for (int k = 0; perm && k < nl; k++) perm = l[k] >= 0 && l[k] < nl && !graph_verify_list_has(k, l, l[k]);
        if (!perm)
            return graph_verify_fail(cx, op, "incorrect layout %s for type %s, layout must be a permutation of [0, %d)",
                                     graph_verify_lstr(nl, l, ls, sizeof ls), graph_verify_tstr(t, ts, sizeof ts), t->rank);
    }
    return BASE_OK;
}

/* The part of a type that tuple indices select, or NULL when out of bounds. */
static const struct graph_type *tuple_part(const struct graph_type *t, int n, const int64_t *idx)
{
    for (int k = 0; k < n; k++) {
        if (!t || t->kind != GRAPH_TYPE_TUPLE || idx[k] < 0 || idx[k] >= t->n_elems) return NULL;
        t = t->elems[idx[k]];
    }
    return t;
}

/* api_version: an INT (generic form) or #stablehlo<custom_call_api_version NAME>. */
static int64_t api_version(const struct graph_op *op)
{
    static const char *const names[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                                        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
    const struct graph_attr *a = graph_op_attr(op, "api_version");
    int64_t v = 1;
    if (graph_attr_as_i64(a, &v)) return v;
    for (int i = 0; a && i < (int)ARRAY_LEN(names); i++)
        if (graph_verify_word_is(a, names[i])) return i;
    return 1;
}

/* custom_call is implementation-defined; these are upstream's structural
 * rules (CustomCallOp::verify): layouts, output-operand aliases and the
 * backend_config's kind per api_version. */
static enum base_status custom_call(struct verify_ctx *cx, const struct graph_op *op)
{
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    if (!t || t->kind != GRAPH_ATTR_STRING)
        return graph_verify_fail(cx, op, "requires a 'call_target_name' string attribute");
    const struct graph_attr *ol = graph_op_attr(op, "operand_layouts"), *rl = graph_op_attr(op, "result_layouts");
    if (ol || rl) {
        if (!ol || !rl)
            return graph_verify_fail(cx, op, "Layout attributes should be specified for either both operands and results or none");
        const struct graph_type **types = malloc((size_t)(op->n_operands + op->n_results + 1) * sizeof *types);
        if (!types) return base_diag_set(cx->diag, BASE_ERR_NOMEM, op->loc.file, op->loc.line, op->loc.col, "out of memory");
        for (int i = 0; i < op->n_operands; i++) types[i] = verify_in(op, i);
        enum base_status st = custom_call_layouts(cx, op, "operand", ol, op->n_operands, types);
        /* a single tuple result: the layouts are its elements' */
        int nr = op->n_results;
        const struct graph_type *const *rt = types;
        if (nr == 1 && verify_out(op, 0)->kind == GRAPH_TYPE_TUPLE) {
            nr = verify_out(op, 0)->n_elems;
            rt = verify_out(op, 0)->elems;
        } else {
            for (int i = 0; i < nr; i++) types[i] = verify_out(op, i);
        }
        if (st == BASE_OK) st = custom_call_layouts(cx, op, "result", rl, nr, rt);
        free(types);
        VTRY(st);
    }
    const struct graph_attr *aliases = graph_op_attr(op, "output_operand_aliases");
    for (int i = 0; aliases && aliases->kind == GRAPH_ATTR_ARRAY && i < aliases->u.array.n; i++) {
        const struct graph_attr *al = aliases->u.array.items[i];
        struct verify_dlist oti, opti;
        int64_t oi = -1;
        VTRY(graph_verify_dict_list(cx, op, al, "output_tuple_indices", &oti));
        VTRY(graph_verify_dict_list(cx, op, al, "operand_tuple_indices", &opti));
        graph_attr_as_i64(graph_dict_get(al, "operand_index"), &oi);
        if (oi < 0 || oi >= op->n_operands)
            return graph_verify_fail(cx, op, "expects operandIndex in the output_operand_alias attribute to be in range "
                                     "[0, %d); got: %lld", op->n_operands, (long long)oi);
        const struct graph_type *in_part = tuple_part(verify_in(op, (int)oi), opti.n, opti.v);
        if (!in_part) return graph_verify_fail(cx, op, "operand_tuple_indices in the output_operand_alias attribute out of bounds");
        const struct graph_type *out_part = NULL;
        if (op->n_results == 1) {
            out_part = tuple_part(verify_out(op, 0), oti.n, oti.v);
        } else if (oti.n >= 1 && oti.v[0] >= 0 && oti.v[0] < op->n_results) {
            out_part = tuple_part(verify_out(op, (int)oti.v[0]), oti.n - 1, oti.v + 1);
        } else if (oti.n == 0) {
            /* the output part is the tuple of all results */
            bool same = in_part->kind == GRAPH_TYPE_TUPLE && in_part->n_elems == op->n_results;
            for (int k = 0; same && k < op->n_results; k++) same = graph_type_equal(in_part->elems[k], verify_out(op, k));
            if (same) continue;
            char ta[160];
            return graph_verify_fail(cx, op, "shapes mismatch in the output_operand_alias attribute: operand part has "
                                     "type %s and output part is the tuple of the %d results",
                                     graph_verify_tstr(in_part, ta, sizeof ta), op->n_results);
        }
        if (!out_part) return graph_verify_fail(cx, op, "output_tuple_indices in the output_operand_alias attribute out of bounds");
        if (!graph_type_equal(in_part, out_part)) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "shapes mismatch in the output_operand_alias attribute: operand part has "
                                     "type %s and output part has type %s",
                                     graph_verify_tstr(in_part, ta, sizeof ta), graph_verify_tstr(out_part, tb, sizeof tb));
        }
    }
    const struct graph_attr *bc = graph_op_attr(op, "backend_config");
    int64_t api = api_version(op);
    if (bc && api == 4 && bc->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary attribute");
    if (bc && api != 4 && bc->kind != GRAPH_ATTR_STRING)
        return graph_verify_fail(cx, op, "backend_config for api_version %lld must be a string attribute (only "
                                 "API_VERSION_TYPED_FFI takes a dictionary)", (long long)api);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Test harness ops                                                          */

static enum base_status check_const(struct verify_ctx *cx, const struct graph_op *op, bool almost)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 0, 0, 0));
    const struct graph_type *x = verify_in(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", x));
    if (almost) VTRY(graph_verify_need_class(cx, op, "operand", x, VC_FLOAT | VC_COMPLEX));
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS)
        return graph_verify_fail(cx, op, "requires a 'value' tensor attribute");
    if (literal_fits(v->u.elements.type, x)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "value has type %s but the operand has type %s",
                       graph_verify_tstr(v->u.elements.type, ta, sizeof ta), graph_verify_tstr(x, tb, sizeof tb));
}

static enum base_status check_pair(struct verify_ctx *cx, const struct graph_op *op, unsigned mask)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 0, 0, 0));
    VTRY(graph_verify_need_class(cx, op, "lhs", verify_in(op, 0), mask));
    VTRY(graph_verify_need_class(cx, op, "rhs", verify_in(op, 1), mask));
    return graph_verify_same_type(cx, op, "", "lhs", verify_in(op, 0), "rhs", verify_in(op, 1));
}

static enum base_status probe(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_attr *id = graph_op_attr(op, "probe_id");
    if (!id || id->kind != GRAPH_ATTR_STRING)
        return graph_verify_fail(cx, op, "requires a 'probe_id' string attribute");
    return graph_verify_same_type(cx, op, "", "operand", verify_in(op, 0), "result", verify_out(op, 0));
}

/* interpreter.run_parallel: programs[i][j] run on process (i, j); operands
 * and results are each program's inputs and outputs in that order. */
static enum base_status run_parallel(struct verify_ctx *cx, const struct graph_op *op)
{
    const struct graph_attr *progs = graph_op_attr(op, "programs");
    if (!progs || progs->kind != GRAPH_ATTR_ARRAY || progs->u.array.n == 0)
        return graph_verify_fail(cx, op, "requires a non-empty 'programs' array of arrays of functions");
    int in_pos = 0, out_pos = 0, width = -1;
    char ta[160], tb[160];
    for (int i = 0; i < progs->u.array.n; i++) {
        const struct graph_attr *row = progs->u.array.items[i];
        if (!row || row->kind != GRAPH_ATTR_ARRAY)
            return graph_verify_fail(cx, op, "programs[%d] must be an array of functions", i);
        if (width >= 0 && row->u.array.n != width)
            return graph_verify_fail(cx, op, "programs[%d] has %d functions but programs[0] has %d", i,
                               row->u.array.n, width);
        width = row->u.array.n;
        for (int j = 0; j < row->u.array.n; j++) {
            size_t len;
            const struct graph_attr *s = row->u.array.items[j];
            const char *name = s && s->kind == GRAPH_ATTR_SYMBOL ? graph_verify_attr_word(s, &len) : NULL;
            if (!name) return graph_verify_fail(cx, op, "programs[%d][%d] must be a function symbol", i, j);
            const struct graph_op *f = graph_verify_find_func(cx, name, len);
            if (!f)
                return graph_verify_fail(cx, op, "programs[%d][%d] @%.*s is not a function", i, j,
                                   (int)len, name);
            const struct graph_attr *ins = graph_verify_func_types(f, "inputs");
            const struct graph_attr *outs = graph_verify_func_types(f, "results");
            for (int k = 0; k < list_len(ins); k++, in_pos++) {
                if (in_pos >= op->n_operands)
                    return graph_verify_fail(cx, op, "the programs take more than the %d operands given",
                                       op->n_operands);
                if (!graph_verify_type_compat(verify_in(op, in_pos), list_type(ins, k)))
                    return graph_verify_fail(cx, op, "operand %d has type %s but @%.*s takes %s", in_pos,
                                       graph_verify_tstr(verify_in(op, in_pos), ta, sizeof ta), (int)len,
                                       name, graph_verify_tstr(list_type(ins, k), tb, sizeof tb));
            }
            for (int k = 0; k < list_len(outs); k++, out_pos++) {
                if (out_pos >= op->n_results)
                    return graph_verify_fail(cx, op, "the programs return more than the %d results declared",
                                       op->n_results);
                if (!graph_verify_type_compat(verify_out(op, out_pos), list_type(outs, k)))
                    return graph_verify_fail(cx, op, "result %d has type %s but @%.*s returns %s", out_pos,
                                       graph_verify_tstr(verify_out(op, out_pos), ta, sizeof ta),
                                       (int)len, name, graph_verify_tstr(list_type(outs, k), tb, sizeof tb));
            }
        }
    }
    if (out_pos != op->n_results)
        return graph_verify_fail(cx, op, "the programs return %d values but the op has %d results",
                           out_pos, op->n_results);
    if (in_pos != op->n_operands)
        return graph_verify_fail(cx, op, "the programs take %d values but the op has %d operands", in_pos,
                           op->n_operands);
    /* infeed: functions that each return one tensor (upstream RunParallelOp::verify) */
    const struct graph_attr *inf = graph_op_attr(op, "infeed");
    if (!inf) return BASE_OK;
    if (inf->kind != GRAPH_ATTR_ARRAY || inf->u.array.n == 0)
        return graph_verify_fail(cx, op, "infeed attribute is optional or should not be empty");
    for (int i = 0; i < inf->u.array.n; i++) {
        size_t len;
        const struct graph_attr *sy = inf->u.array.items[i];
        const char *name = sy && sy->kind == GRAPH_ATTR_SYMBOL ? graph_verify_attr_word(sy, &len) : NULL;
        if (!name) return graph_verify_fail(cx, op, "infeed[%d] must be a function symbol", i);
        const struct graph_op *f = graph_verify_find_func(cx, name, len);
        if (!f) return graph_verify_fail(cx, op, "infeed: Function \"%.*s\" not found", (int)len, name);
        const struct graph_attr *outs = graph_verify_func_types(f, "results");
        if (list_len(outs) != 1)
            return graph_verify_fail(cx, op, "infeed: Function \"%.*s\" should return 1 tensor but returns %d", (int)len,
                                     name, list_len(outs));
        if (!verify_is_tensor(list_type(outs, 0)))
            return graph_verify_fail(cx, op, "infeed: Function \"%.*s\" should return a tensor type, but instead returns %s",
                                     (int)len, name, graph_verify_tstr(list_type(outs, 0), ta, sizeof ta));
    }
    return BASE_OK;
}

enum base_status graph_verify_control_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_FUNC: return func_func(cx, op);
    case GRAPH_OP_FUNC_RETURN: return func_return(cx, op);
    case GRAPH_OP_CALL: return func_call(cx, op);
    case GRAPH_OP_RETURN: return graph_verify_counts(cx, op, 0, -1, 0, 0, 0);
    case GRAPH_OP_WHILE: return while_op(cx, op);
    case GRAPH_OP_IF: return if_op(cx, op);
    case GRAPH_OP_CASE: return case_op(cx, op);
    case GRAPH_OP_OPTIMIZATION_BARRIER: return optimization_barrier(cx, op);
    case GRAPH_OP_SDY_SHARDING_CONSTRAINT: return sharding_constraint(cx, op);
    case GRAPH_OP_SDY_RESHARD:
    case GRAPH_OP_SDY_PROPAGATION_BARRIER:
    case GRAPH_OP_MHLO_COPY: /* the identity: one operand, its type */
        VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
        return optimization_barrier(cx, op);
    case GRAPH_OP_COMPOSITE: return composite(cx, op);
    case GRAPH_OP_CONSTANT: return constant(cx, op);
    case GRAPH_OP_ARITH_CONSTANT: return arith_constant(cx, op);
    case GRAPH_OP_TENSOR_CAST: return tensor_cast(cx, op);
    case GRAPH_OP_ASYNC_START: return async_start(cx, op);
    case GRAPH_OP_ASYNC_DONE: return async_done(cx, op);
    case GRAPH_OP_IOTA: return graph_verify_shape_op(cx, op);
    case GRAPH_OP_TUPLE: return tuple(cx, op);
    case GRAPH_OP_GET_TUPLE_ELEMENT: return get_tuple_element(cx, op);
    case GRAPH_OP_RNG: return rng(cx, op);
    case GRAPH_OP_RNG_BIT_GENERATOR: return rng_bit_generator(cx, op);
    case GRAPH_OP_UNIFORM_QUANTIZE: return uniform_quantize(cx, op);
    case GRAPH_OP_UNIFORM_DEQUANTIZE: return uniform_dequantize(cx, op);
    case GRAPH_OP_CUSTOM_CALL: return custom_call(cx, op);
    case GRAPH_OP_CHECK_EXPECT_EQ_CONST: return check_const(cx, op, false);
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ_CONST: return check_const(cx, op, true);
    case GRAPH_OP_CHECK_EXPECT_EQ: return check_pair(cx, op, VC_ANY);
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ:
    case GRAPH_OP_CHECK_EXPECT_CLOSE: return check_pair(cx, op, VC_FLOAT | VC_COMPLEX);
    case GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ: return graph_verify_counts(cx, op, 1, 1, 0, 0, 0);
    case GRAPH_OP_INTERP_PROBE: return probe(cx, op);
    case GRAPH_OP_INTERP_PRINT: return graph_verify_counts(cx, op, 1, 1, 0, 0, 0);
    case GRAPH_OP_INTERP_RUN_PARALLEL: return run_parallel(cx, op);
    default: return BASE_OK; /* unknown ops, builtin.module: nothing to check */
    }
}
