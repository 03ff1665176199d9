/* Shape refinement: what is known of values, and the folding of the integer
 * computations that make shapes (upstream's shape folder: integer types only,
 * no float folding).  Elements are rf_dims, so a value computed from a
 * dimension argument not known yet (2 * %arg0 + 1) folds symbolically
 * through the affine ops (add, subtract, multiply by a constant, negate,
 * convert, and the ops that move elements), and to an opaque element
 * through the others until the argument is known. */
#include "graph/refine_internal.h"

#include <string.h>

void *graph_rf_alloc(struct rf_ctx *cx, size_t n)
{
    void *p = base_arena_alloc(&cx->arena, n ? n : 1);
    if (!p) {
        base_diag_set(cx->diag, BASE_ERR_NOMEM, cx->m ? cx->m->path : NULL, 0, 0, "out of memory refining shapes");
        return NULL;
    }
    memset(p, 0, n ? n : 1);
    return p;
}

enum base_status graph_rf_val_init(struct rf_ctx *cx, struct rf_val *v, const struct graph_type *decl, int rank)
{
    memset(v, 0, sizeof *v);
    v->decl = decl;
    v->rank = rank;
    if (rank > 0) {
        v->dims = graph_rf_alloc(cx, (size_t)rank * sizeof *v->dims);
        if (!v->dims) return BASE_ERR_NOMEM;
        for (int d = 0; d < rank; d++) v->dims[d] = rf_opaque();
    }
    return BASE_OK;
}

enum base_status graph_rf_val_from_decl(struct rf_ctx *cx, struct rf_val *v, const struct graph_type *decl)
{
    bool ranked = decl && decl->kind == GRAPH_TYPE_TENSOR && decl->rank >= 0;
    TRY(graph_rf_val_init(cx, v, decl, ranked ? decl->rank : -1));
    for (int d = 0; ranked && d < decl->rank; d++)
        if (decl->dims[d] != GRAPH_DYN) v->dims[d] = rf_const(decl->dims[d]);
    return BASE_OK;
}

int64_t graph_rf_val_count(const struct rf_ctx *cx, const struct rf_val *v)
{
    if (!v || v->rank < 0) return -1;
    int64_t n = 1;
    for (int d = 0; d < v->rank; d++) {
        int64_t x;
        if (!graph_rf_get_const(cx, v->dims[d], &x) || x < 0) return -1;
        if (__builtin_mul_overflow(n, x, &n)) return -1;
    }
    return n;
}

bool graph_rf_val_elems_const(const struct rf_ctx *cx, const struct rf_val *v)
{
    if (!v || !v->elems) return false;
    for (int64_t i = 0; i < v->n_elems; i++) {
        int64_t x;
        if (!graph_rf_get_const(cx, v->elems[i], &x)) return false;
    }
    return true;
}

/* The op waits for the dimension arguments among deps not known yet. */
static void note_deps(struct rf_ctx *cx, const struct graph_op *op, uint64_t deps)
{
    for (int s = 0; s < cx->n_syms; s++) {
        int a = cx->syms[s].arg;
        if (a < 64 && (deps >> a & 1) && !cx->syms[s].known) {
            if (!cx->pending) cx->pending = op;
            cx->pending_deps |= UINT64_C(1) << a;
        }
    }
}

bool graph_rf_val_ints(struct rf_ctx *cx, const struct graph_op *op, const struct rf_val *v, int64_t *out, int cap,
                       int *n)
{
    *n = 0;
    if (!v) return false;
    cx->dim_mask |= v->deps;
    if (!v->elems || v->n_elems > cap) {
        note_deps(cx, op, v->deps);
        return false;
    }
    for (int64_t i = 0; i < v->n_elems; i++) {
        if (!graph_rf_get_const(cx, v->elems[i], &out[i])) {
            graph_rf_note_pending(cx, op, v->elems[i]);
            note_deps(cx, op, v->deps);
            return false;
        }
    }
    *n = (int)v->n_elems;
    return true;
}

int graph_rf_val_dims(struct rf_ctx *cx, const struct graph_op *op, const struct rf_val *v, struct rf_dim *out, int cap)
{
    if (!v || v->rank < 0 || v->rank > 1) return -1;
    cx->dim_mask |= v->deps;
    int64_t n = v->rank == 0 ? 1 : graph_rf_val_count(cx, v);
    if (n < 0 || n > cap) return -1;
    bool opaque = false;
    for (int64_t i = 0; i < n; i++) {
        out[i] = v->elems && i < v->n_elems ? graph_rf_norm(cx, v->elems[i]) : rf_opaque();
        opaque |= out[i].sym == RF_OPAQUE;
        graph_rf_note_pending(cx, op, out[i]); /* a dimension argument not known yet */
    }
    /* computed at run time, or from a dimension argument not known yet */
    if (opaque) note_deps(cx, op, v->deps);
    return (int)n;
}

/* ------------------------------------------------------------------------ */
/* Folding                                                                   */

static bool int_like(const struct graph_type *t)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant) return false;
    return base_dtype_is_int(t->elem) || t->elem == BASE_DT_I1 || t->elem == BASE_DT_INDEX;
}

static bool is_unsigned(enum base_dtype dt)
{
    return base_dtype_kind(dt) == BASE_KIND_UINT || dt == BASE_DT_I1;
}

/* v as a value of dt: wrapped to its width, sign- or zero-extended. */
static int64_t wrap(enum base_dtype dt, uint64_t v)
{
    int w = base_dtype_bits(dt);
    if (dt == BASE_DT_I1) return (int64_t)(v & 1);
    if (is_unsigned(dt)) return (int64_t)(v & base_wmask(w));
    return base_sext(v, w);
}

static bool lt(enum base_dtype dt, int64_t x, int64_t y)
{
    return is_unsigned(dt) ? (uint64_t)x < (uint64_t)y : x < y;
}

static struct rf_dim fold_const(const struct graph_op *op, enum base_dtype dt, enum base_dtype rdt, int n,
                                const int64_t *x, bool *ok)
{
    *ok = true;
    int w = base_dtype_bits(dt);
    uint64_t a = (uint64_t)x[0], b = n > 1 ? (uint64_t)x[1] : 0;
    switch (op->kind) {
    case GRAPH_OP_ADD: return rf_const(wrap(rdt, a + b));
    case GRAPH_OP_SUBTRACT: return rf_const(wrap(rdt, a - b));
    case GRAPH_OP_MULTIPLY: return rf_const(wrap(rdt, a * b));
    case GRAPH_OP_NEGATE: return rf_const(wrap(rdt, 0 - a));
    case GRAPH_OP_AND: return rf_const(wrap(rdt, a & b));
    case GRAPH_OP_OR: return rf_const(wrap(rdt, a | b));
    case GRAPH_OP_XOR: return rf_const(wrap(rdt, a ^ b));
    case GRAPH_OP_NOT: return rf_const(dt == BASE_DT_I1 ? !a : wrap(rdt, ~a));
    case GRAPH_OP_MAXIMUM: return rf_const(lt(dt, x[0], x[1]) ? x[1] : x[0]);
    case GRAPH_OP_MINIMUM: return rf_const(lt(dt, x[0], x[1]) ? x[0] : x[1]);
    case GRAPH_OP_ABS: return rf_const(wrap(rdt, x[0] < 0 && !is_unsigned(dt) ? 0 - a : a));
    case GRAPH_OP_SIGN:
        if (is_unsigned(dt)) return rf_const(a != 0);
        return rf_const(x[0] < 0 ? wrap(rdt, (uint64_t)-1) : x[0] > 0);
    case GRAPH_OP_DIVIDE:
        if (b == 0) return rf_const(wrap(rdt, (uint64_t)-1));
        if (is_unsigned(dt)) return rf_const(wrap(rdt, a / b));
        if (x[1] == -1) return rf_const(wrap(rdt, 0 - a)); /* INT_MIN / -1 wraps to INT_MIN */
        return rf_const(x[0] / x[1]);
    case GRAPH_OP_REMAINDER:
        if (b == 0) return rf_const(x[0]);
        if (is_unsigned(dt)) return rf_const(wrap(rdt, a % b));
        if (x[1] == -1) return rf_const(0);
        return rf_const(x[0] % x[1]);
    case GRAPH_OP_SHIFT_LEFT: return rf_const(b >= (uint64_t)w ? 0 : wrap(rdt, a << b));
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL: return rf_const(b >= (uint64_t)w ? 0 : wrap(rdt, (a & base_wmask(w)) >> b));
    case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC: {
        int64_t s = base_sext(a, w);
        return rf_const(wrap(rdt, (uint64_t)(b >= (uint64_t)w ? (s < 0 ? -1 : 0) : s >> b)));
    }
    case GRAPH_OP_POWER: return rf_const(wrap(rdt, base_ipow(a, b, w, !is_unsigned(dt))));
    case GRAPH_OP_POPCNT: return rf_const(__builtin_popcountll(a & base_wmask(w)));
    case GRAPH_OP_COUNT_LEADING_ZEROS: {
        uint64_t m = a & base_wmask(w);
        return rf_const(m ? __builtin_clzll(m) - (64 - w) : w);
    }
    case GRAPH_OP_CLAMP: { /* min, operand, max */
        int64_t v = lt(dt, x[1], x[0]) ? x[0] : x[1];
        return rf_const(lt(dt, x[2], v) ? x[2] : v);
    }
    case GRAPH_OP_COMPARE: {
        const struct graph_attr *d = graph_op_attr(op, "comparison_direction");
        const struct graph_attr *ct = graph_op_attr(op, "compare_type");
        bool u = ct ? graph_attr_is_keyword(ct, "UNSIGNED") : is_unsigned(dt);
        bool l = u ? a < b : x[0] < x[1], e = x[0] == x[1];
        if (graph_attr_is_keyword(d, "EQ")) return rf_const(e);
        if (graph_attr_is_keyword(d, "NE")) return rf_const(!e);
        if (graph_attr_is_keyword(d, "LT")) return rf_const(l);
        if (graph_attr_is_keyword(d, "LE")) return rf_const(l || e);
        if (graph_attr_is_keyword(d, "GT")) return rf_const(!l && !e);
        if (graph_attr_is_keyword(d, "GE")) return rf_const(!l);
        break;
    }
    default: break;
    }
    *ok = false;
    return rf_opaque();
}

/* One element of an elementwise op. */
static struct rf_dim fold_elem(struct rf_ctx *cx, const struct graph_op *op, enum base_dtype dt, enum base_dtype rdt,
                               int n, const struct rf_dim *x)
{
    int64_t c[3];
    bool all = true;
    for (int i = 0; i < n; i++) all = graph_rf_get_const(cx, x[i], &c[i]) && all;
    if (op->kind == GRAPH_OP_SELECT) {
        int64_t p;
        if (graph_rf_get_const(cx, x[0], &p)) return graph_rf_norm(cx, p ? x[1] : x[2]);
        return graph_rf_dim_equal(cx, x[1], x[2]) ? graph_rf_norm(cx, x[1]) : rf_opaque();
    }
    if (op->kind == GRAPH_OP_CONVERT) {
        if (all) {
            int64_t v = rdt == BASE_DT_I1 ? c[0] != 0 : wrap(rdt, (uint64_t)c[0]);
            struct rf_dim r = graph_rf_norm(cx, x[0]); /* its origin, when the value is kept */
            return v == r.c ? r : rf_const(v);
        }
        return rdt == BASE_DT_I1 ? rf_opaque() : graph_rf_norm(cx, x[0]); /* values of shapes fit */
    }
    if (all) {
        bool ok;
        struct rf_dim r = fold_const(op, dt, rdt, n, c, &ok);
        if (ok) return r;
        return rf_opaque();
    }
    /* a dimension argument not known yet: the affine ops */
    switch (op->kind) {
    case GRAPH_OP_ADD: return graph_rf_add(cx, x[0], x[1]);
    case GRAPH_OP_SUBTRACT: return graph_rf_sub(cx, x[0], x[1]);
    case GRAPH_OP_MULTIPLY: return graph_rf_mul(cx, x[0], x[1]);
    case GRAPH_OP_NEGATE: return graph_rf_mul(cx, rf_const(-1), x[0]);
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM: return graph_rf_dim_equal(cx, x[0], x[1]) ? graph_rf_norm(cx, x[0]) : rf_opaque();
    default: return rf_opaque();
    }
}

/* Row-major index helpers. */
static void unravel(int rank, const int64_t *dims, int64_t lin, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        int64_t n = dims[d] > 0 ? dims[d] : 1;
        idx[d] = lin % n;
        lin /= n;
    }
}

static int64_t ravel(int rank, const int64_t *dims, const int64_t *idx)
{
    int64_t lin = 0;
    for (int d = 0; d < rank; d++) lin = lin * dims[d] + idx[d];
    return lin;
}

static bool const_dims(const struct rf_ctx *cx, const struct rf_val *v, int64_t *dims)
{
    if (!v || v->rank < 0) return false;
    for (int d = 0; d < v->rank; d++)
        if (!graph_rf_get_const(cx, v->dims[d], &dims[d])) return false;
    return true;
}

/* A reduce whose body is one binary op of its two block arguments. */
static bool reduce_body_op(const struct graph_op *op, enum graph_op_kind *kind)
{
    if (op->n_regions != 1 || op->regions[0].n_blocks != 1) return false;
    const struct graph_block *b = &op->regions[0].blocks[0];
    if (b->n_args != 2 || b->n_ops != 2) return false;
    const struct graph_op *f = b->ops[0], *ret = b->ops[1];
    if (f->n_operands != 2 || f->n_results != 1 || ret->n_operands != 1 || ret->operands[0] != &f->results[0])
        return false;
    bool ab = f->operands[0] == &b->args[0] && f->operands[1] == &b->args[1];
    bool ba = f->operands[0] == &b->args[1] && f->operands[1] == &b->args[0];
    if (!ab && !ba) return false;
    switch (f->kind) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM:
    case GRAPH_OP_AND:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR: *kind = f->kind; return true;
    default: return false;
    }
}

enum base_status graph_rf_fold(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                               struct rf_val *out)
{
    uint64_t deps = 0;
    bool from_shape = false;
    for (int i = 0; i < op->n_operands; i++)
        if (in[i]) {
            deps |= in[i]->deps;
            from_shape |= in[i]->from_shape;
        }
    for (int r = 0; r < op->n_results; r++) {
        out[r].deps |= deps;
        out[r].from_shape |= from_shape;
    }
    if (out[0].elems) return BASE_OK; /* the rule set them (get_dimension_size) */
    struct rf_val *o = &out[0];
    if (!int_like(o->decl) || o->rank < 0 || o->rank > GRAPH_MAX_RANK) return BASE_OK;
    int64_t rdims[GRAPH_MAX_RANK];
    if (!const_dims(cx, o, rdims)) return BASE_OK;
    int64_t count = base_shape_count(o->rank, rdims);
    if (count < 0 || count > RF_FOLD_MAX) return BASE_OK;
    enum base_dtype rdt = o->decl->elem;
    int64_t idx[GRAPH_MAX_RANK], j[GRAPH_MAX_RANK];
    struct rf_dim *e = NULL;
#define ALLOC_ELEMS()                                                    \
    do {                                                                 \
        e = graph_rf_alloc(cx, (size_t)(count ? count : 1) * sizeof *e); \
        if (!e) return BASE_ERR_NOMEM;                                   \
    } while (0)
    switch (op->kind) {
    case GRAPH_OP_CONSTANT: {
        const struct graph_attr *v = graph_op_attr(op, "value");
        const struct base_tensor *t = v && v->kind == GRAPH_ATTR_ELEMENTS ? v->u.elements.value : NULL;
        if (!t || !t->data || t->count != count) return BASE_OK;
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) e[i] = rf_const(base_elem_get_i64(t->dtype, t->data, (size_t)i));
        break;
    }
    case GRAPH_OP_IOTA:
    case GRAPH_OP_DYNAMIC_IOTA: {
        const struct graph_attr *a = graph_op_attr(op, "iota_dimension");
        int64_t dim;
        if (!a || !graph_attr_as_i64(a, &dim) || dim < 0 || dim >= o->rank) return BASE_OK;
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) {
            unravel(o->rank, rdims, i, idx);
            e[i] = rf_const(wrap(rdt, (uint64_t)idx[dim]));
        }
        break;
    }
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_DYNAMIC_RESHAPE:
        if (!in[0]->elems || in[0]->n_elems != count) return BASE_OK;
        e = in[0]->elems; /* elements are immutable: shared */
        break;
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM:
    case GRAPH_OP_BROADCAST: {
        int64_t idims[GRAPH_MAX_RANK], bd[GRAPH_MAX_RANK];
        const struct rf_val *x = in[0];
        if (!x->elems || !const_dims(cx, x, idims)) return BASE_OK;
        if (op->kind == GRAPH_OP_BROADCAST) {
            for (int d = 0; d < x->rank; d++) bd[d] = o->rank - x->rank + d;
        } else if (graph_attr_as_i64_list(graph_op_attr(op, "broadcast_dimensions"), bd, GRAPH_MAX_RANK) != x->rank) {
            return BASE_OK;
        }
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) {
            unravel(o->rank, rdims, i, idx);
            for (int d = 0; d < x->rank; d++) j[d] = idims[d] == 1 ? 0 : idx[bd[d]];
            e[i] = x->elems[ravel(x->rank, idims, j)];
        }
        break;
    }
    case GRAPH_OP_CONCATENATE: {
        int64_t dim;
        if (!graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim) || dim < 0 || dim >= o->rank) return BASE_OK;
        int64_t idims[GRAPH_MAX_RANK];
        for (int k = 0; k < op->n_operands; k++)
            if (!in[k]->elems || !const_dims(cx, in[k], idims)) return BASE_OK;
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) {
            unravel(o->rank, rdims, i, idx);
            int64_t at = idx[dim];
            for (int k = 0; k < op->n_operands; k++) {
                const_dims(cx, in[k], idims);
                if (at < idims[dim]) {
                    memcpy(j, idx, sizeof j);
                    j[dim] = at;
                    e[i] = in[k]->elems[ravel(o->rank, idims, j)];
                    break;
                }
                at -= idims[dim];
            }
        }
        break;
    }
    case GRAPH_OP_SLICE:
    case GRAPH_OP_TRANSPOSE:
    case GRAPH_OP_REVERSE: {
        int64_t idims[GRAPH_MAX_RANK], a[GRAPH_MAX_RANK], s[GRAPH_MAX_RANK];
        const struct rf_val *x = in[0];
        if (!x->elems || !const_dims(cx, x, idims)) return BASE_OK;
        int n = 0;
        if (op->kind == GRAPH_OP_SLICE) {
            if (graph_attr_as_i64_list(graph_op_attr(op, "start_indices"), a, GRAPH_MAX_RANK) != o->rank)
                return BASE_OK;
            const struct graph_attr *st = graph_op_attr(op, "strides");
            if (!st)
                for (int d = 0; d < o->rank; d++) s[d] = 1;
            else if (graph_attr_as_i64_list(st, s, GRAPH_MAX_RANK) != o->rank)
                return BASE_OK;
        } else if (op->kind == GRAPH_OP_TRANSPOSE) {
            if (graph_attr_as_i64_list(graph_op_attr(op, "permutation"), a, GRAPH_MAX_RANK) != o->rank) return BASE_OK;
        } else {
            n = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), a, GRAPH_MAX_RANK);
            if (n < 0) return BASE_OK;
        }
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) {
            unravel(o->rank, rdims, i, idx);
            for (int d = 0; d < o->rank; d++) {
                if (op->kind == GRAPH_OP_SLICE)
                    j[d] = a[d] + idx[d] * s[d];
                else if (op->kind == GRAPH_OP_TRANSPOSE)
                    j[a[d]] = idx[d];
                else
                    j[d] = idx[d];
            }
            for (int k = 0; op->kind == GRAPH_OP_REVERSE && k < n; k++)
                if (a[k] >= 0 && a[k] < o->rank) j[a[k]] = idims[a[k]] - 1 - idx[a[k]];
            e[i] = x->elems[ravel(x->rank, idims, j)];
        }
        break;
    }
    case GRAPH_OP_REDUCE: {
        enum graph_op_kind k;
        int64_t idims[GRAPH_MAX_RANK], dims[GRAPH_MAX_RANK];
        if (op->n_operands != 2 || !reduce_body_op(op, &k) || !in[0]->elems || !in[1]->elems ||
            !const_dims(cx, in[0], idims))
            return BASE_OK;
        int nd = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), dims, GRAPH_MAX_RANK);
        if (nd < 0) return BASE_OK;
        struct graph_op f = *op;
        f.kind = k;
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) e[i] = in[1]->elems[0];
        int64_t n_in = base_shape_count(in[0]->rank, idims);
        for (int64_t i = 0; i < n_in; i++) {
            unravel(in[0]->rank, idims, i, idx);
            int r = 0;
            for (int d = 0; d < in[0]->rank; d++) {
                bool red = false;
                for (int q = 0; q < nd; q++) red |= dims[q] == d;
                if (!red) j[r++] = idx[d];
            }
            int64_t at = ravel(o->rank, rdims, j);
            struct rf_dim xy[2] = {e[at], in[0]->elems[i]};
            e[at] = fold_elem(cx, &f, in[0]->decl->elem, rdt, 2, xy);
        }
        break;
    }
    default: {
        if (!graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE) || op->n_operands < 1 || op->n_operands > 3 ||
            op->n_results != 1)
            return BASE_OK;
        for (int k = 0; k < op->n_operands; k++)
            if (!in[k] || !in[k]->elems || !int_like(in[k]->decl) || (in[k]->n_elems != count && in[k]->n_elems != 1))
                return BASE_OK;
        /* the element type the op computes in: its (non-predicate) operands' */
        enum base_dtype dt = in[op->kind == GRAPH_OP_SELECT ? 1 : 0]->decl->elem;
        ALLOC_ELEMS();
        for (int64_t i = 0; i < count; i++) {
            struct rf_dim x[3];
            for (int k = 0; k < op->n_operands; k++) x[k] = in[k]->n_elems == 1 ? in[k]->elems[0] : in[k]->elems[i];
            e[i] = fold_elem(cx, op, dt, rdt, op->n_operands, x);
        }
        break;
    }
    }
#undef ALLOC_ELEMS
    o->elems = e;
    o->n_elems = count;
    return BASE_OK;
}
