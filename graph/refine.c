/* Shape refinement (graph/refine.h): the analysis of the entry function and
 * of every function it calls, specialised per call (upstream's
 * RefinementKey: argument types and the values of scalar integer arguments),
 * then the static module, built with the graph builder.
 *
 * The analysis walks each function once per specialisation, in program
 * order, with refine_infer.c's rules.  Dimension arguments not known yet are
 * symbols; the analysis repeats while it solves them (a dim of a*s + c that
 * meets a known size), until every symbol a shape needs is known; symbols no
 * shape needs are the program's data.  The last analysis has constants only
 * and decides each op's fate (kept with refined types, rewritten into its
 * static form, folded into a constant, dropped as dead), which the builder
 * then carries out. */
#include "graph/refine_internal.h"

#include <stdlib.h>
#include <string.h>

/* A function of the module: where its values and ops are numbered. */
struct rf_func {
    const struct graph_op *func;
    const char *name;
    uint32_t vbase, nv, obase, no;
    int n_specs;
};

/* One specialisation of a function. */
struct rf_spec {
    struct rf_func *f;
    int n_args;
    struct rf_val *args; /* the key */
    struct rf_val *vals; /* by value id - f->vbase */
    struct rf_op *ops;   /* by op id - f->obase */
    bool *used;          /* by value id - f->vbase: read by a live op */
    int n_results;
    struct rf_val *results;
    bool busy;
    char name[160]; /* in the refined module */
    struct rf_spec *next;
};

/* ------------------------------------------------------------------------ */
/* Functions                                                                 */

static void walk_ranges(const struct graph_block *b, uint32_t *vlo, uint32_t *vhi, uint32_t *olo, uint32_t *ohi)
{
    for (int i = 0; i < b->n_args; i++) {
        if (b->args[i].id < *vlo) *vlo = b->args[i].id;
        if (b->args[i].id + 1 > *vhi) *vhi = b->args[i].id + 1;
    }
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                walk_ranges(&op->regions[r].blocks[k], vlo, vhi, olo, ohi);
        for (int r = 0; r < op->n_results; r++) {
            if (op->results[r].id < *vlo) *vlo = op->results[r].id;
            if (op->results[r].id + 1 > *vhi) *vhi = op->results[r].id + 1;
        }
        if (op->id < *olo) *olo = op->id;
        if (op->id + 1 > *ohi) *ohi = op->id + 1;
    }
}

static int func_cmp(const void *a, const void *b)
{
    const struct rf_func *x = a, *y = b;
    return strcmp(x->name, y->name);
}

static enum base_status funcs_init(struct rf_ctx *cx)
{
    const struct graph_block *body = &cx->m->body;
    int n = 0;
    for (int i = 0; i < body->n_ops; i++)
        if (body->ops[i]->kind == GRAPH_OP_FUNC && graph_func_name(body->ops[i])) n++;
    cx->funcs = calloc((size_t)(n ? n : 1), sizeof *cx->funcs);
    if (!cx->funcs) return BASE_ERR_NOMEM;
    for (int i = 0; i < body->n_ops; i++) {
        const struct graph_op *f = body->ops[i];
        if (f->kind != GRAPH_OP_FUNC || !graph_func_name(f)) continue;
        struct rf_func *rf = &cx->funcs[cx->n_funcs++];
        rf->func = f;
        rf->name = graph_func_name(f);
        uint32_t vlo = UINT32_MAX, vhi = 0, olo = UINT32_MAX, ohi = 0;
        for (int r = 0; r < f->n_regions; r++)
            for (int k = 0; k < f->regions[r].n_blocks; k++)
                walk_ranges(&f->regions[r].blocks[k], &vlo, &vhi, &olo, &ohi);
        rf->vbase = vlo == UINT32_MAX ? 0 : vlo;
        rf->nv = vhi > rf->vbase ? vhi - rf->vbase : 0;
        rf->obase = olo == UINT32_MAX ? 0 : olo;
        rf->no = ohi > rf->obase ? ohi - rf->obase : 0;
    }
    qsort(cx->funcs, (size_t)cx->n_funcs, sizeof *cx->funcs, func_cmp);
    return BASE_OK;
}

static struct rf_func *find_func(struct rf_ctx *cx, const char *name)
{
    struct rf_func key = {.name = name};
    return name ? bsearch(&key, cx->funcs, (size_t)cx->n_funcs, sizeof *cx->funcs, func_cmp) : NULL;
}

static struct rf_val *val(struct rf_spec *sp, const struct graph_value *v)
{
    uint32_t i = v->id - sp->f->vbase;
    return v->id >= sp->f->vbase && i < sp->f->nv ? &sp->vals[i] : NULL;
}

static struct rf_op *rec(struct rf_spec *sp, const struct graph_op *op)
{
    uint32_t i = op->id - sp->f->obase;
    BASE_ASSERT(op->id >= sp->f->obase && i < sp->f->no);
    return &sp->ops[i];
}

static const struct graph_block *body_of(const struct graph_op *func)
{
    return func->n_regions > 0 && func->regions[0].n_blocks > 0 ? &func->regions[0].blocks[0] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Analysis                                                                  */

static enum base_status analyze_block(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_block *b,
                                      const struct rf_val *args, struct rf_val *ret, int ret_cap, int *n_ret);

static bool pure_kind(enum graph_op_kind k)
{
    switch (graph_op_kind_cat(k)) {
    case GRAPH_CAT_UNARY:
    case GRAPH_CAT_BINARY:
    case GRAPH_CAT_TERNARY:
    case GRAPH_CAT_SHAPE:
    case GRAPH_CAT_REDUCE:
    case GRAPH_CAT_LINALG:
    case GRAPH_CAT_QUANT: return true;
    default: break;
    }
    return k == GRAPH_OP_CONSTANT || k == GRAPH_OP_IOTA || k == GRAPH_OP_TUPLE || k == GRAPH_OP_GET_TUPLE_ELEMENT ||
           k == GRAPH_OP_OPTIMIZATION_BARRIER || graph_op_kind_has(k, GRAPH_OPF_IDENTITY);
}

/* The declared type of result i against what the rules made of it: a static
 * dim of the type must agree (and may solve a symbol); in the last analysis
 * every dim must be known. */
static enum base_status merge_declared(struct rf_ctx *cx, const struct graph_op *op, int i, struct rf_val *v)
{
    const struct graph_type *t = op->results[i].type;
    if (!t || t->kind != GRAPH_TYPE_TENSOR) {
        if (!graph_type_is_static(t) && (cx->final || cx->single))
            return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                                 "result %d is a tuple with dynamic shapes, which refinement does not take", i);
        return BASE_OK;
    }
    if (v->rank < 0) {
        if (t->rank < 0) {
            if (cx->final || cx->single)
                return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "result %d is unranked and no rule gives its rank",
                                     i);
            return BASE_OK;
        }
        return graph_rf_val_from_decl(cx, v, t);
    }
    if (t->rank >= 0 && t->rank != v->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "result %d has rank %d, and the operands make it %d", i, t->rank,
                             v->rank);
    for (int d = 0; t->rank >= 0 && d < t->rank; d++) {
        if (t->dims[d] == GRAPH_DYN) continue;
        TRY(graph_rf_unify(cx, op, v->dims[d], rf_const(t->dims[d]),
                           "result %d dimension %d (the program's type, the operands)", i, d));
        if (graph_rf_norm(cx, v->dims[d]).sym == RF_OPAQUE) v->dims[d] = rf_const(t->dims[d]);
    }
    if (cx->final || cx->single)
        for (int d = 0; d < v->rank; d++) {
            struct rf_dim x = graph_rf_norm(cx, v->dims[d]);
            if (rf_is_const(x)) {
                if (x.c < 0)
                    return graph_rf_fail(cx, op, BASE_ERR_INVALID, "result %d dimension %d would be %lld", i, d,
                                         (long long)x.c);
                v->dims[d] = x;
                continue;
            }
            return graph_rf_fail(
                cx, op, BASE_ERR_UNSUPPORTED,
                "result %d dimension %d depends on values computed at run time (its shape operands do not fold to "
                "constants: data-dependent shapes are not refined)",
                i, d);
        }
    return BASE_OK;
}

static bool scalar_int(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR && t->rank == 0 && !t->quant &&
           (base_dtype_is_int(t->elem) || t->elem == BASE_DT_INDEX);
}

static bool key_equal(const struct rf_ctx *cx, const struct rf_val *a, const struct rf_val *b)
{
    if (a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (!graph_rf_dim_equal(cx, a->dims[d], b->dims[d])) return false;
    if (a->rank == 0 && scalar_int(a->decl)) {
        if (!a->elems != !b->elems) return false;
        if (a->elems && !graph_rf_dim_equal(cx, a->elems[0], b->elems[0])) return false;
    }
    return true;
}

static enum base_status analyze_spec(struct rf_ctx *cx, struct rf_spec *sp);

/* The specialisation of callee for these arguments (made and analysed when new). */
static enum base_status call_spec(struct rf_ctx *cx, const struct graph_op *op, const char *callee,
                                  struct rf_val *const *in, int n_in, struct rf_spec **out)
{
    struct rf_func *f = find_func(cx, callee);
    if (!f)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "calls @%s, which the module does not define",
                             callee ? callee : "?");
    const struct graph_block *b = body_of(f->func);
    if (!b) return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "calls @%s, a declaration without a body", f->name);
    if (b->n_args != n_in)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "calls @%s with %d operands; it takes %d", f->name, n_in,
                             b->n_args);
    struct rf_val *key = graph_rf_alloc(cx, (size_t)(n_in ? n_in : 1) * sizeof *key);
    if (!key) return BASE_ERR_NOMEM;
    for (int i = 0; i < n_in; i++) {
        key[i] = *in[i];
        key[i].decl = b->args[i].type;
        if (!(key[i].rank == 0 && scalar_int(key[i].decl))) {
            key[i].elems = NULL; /* only scalar integers specialise (upstream's global constants) */
            key[i].n_elems = 0;
        }
        if (key[i].rank < 0 && b->args[i].type->kind == GRAPH_TYPE_TENSOR)
            TRY(graph_rf_val_from_decl(cx, &key[i], b->args[i].type));
    }
    for (struct rf_spec *s = cx->specs; s; s = s->next) {
        if (s->f != f) continue;
        bool same = true;
        for (int i = 0; same && i < n_in; i++) same = key_equal(cx, &s->args[i], &key[i]);
        if (!same) continue;
        if (s->busy)
            return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                                 "calls @%s recursively, which refinement does not follow", f->name);
        *out = s;
        return BASE_OK;
    }
    if (++cx->depth > 64) return graph_rf_fail(cx, op, BASE_ERR_LIMIT, "calls nested deeper than 64");
    struct rf_spec *s = graph_rf_alloc(cx, sizeof *s);
    if (!s) return BASE_ERR_NOMEM;
    s->f = f;
    s->n_args = n_in;
    s->args = key;
    if (f->n_specs++ == 0)
        snprintf(s->name, sizeof s->name, "%s", f->name);
    else
        snprintf(s->name, sizeof s->name, "%s_%d", f->name, f->n_specs - 1);
    /* a name the module already uses gets more underscores */
    while (f->n_specs > 1 && find_func(cx, s->name) && strlen(s->name) + 2 < sizeof s->name) strcat(s->name, "_");
    if (cx->specs_tail)
        cx->specs_tail->next = s;
    else
        cx->specs = s;
    cx->specs_tail = s;
    enum base_status st = analyze_spec(cx, s);
    cx->depth--;
    if (st != BASE_OK) return st;
    *out = s;
    return BASE_OK;
}

/* A region's block whose args are typed as declared (reduce bodies, ...). */
static enum base_status analyze_region_decl(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op, int r)
{
    for (int k = 0; k < op->regions[r].n_blocks; k++) {
        const struct graph_block *b = &op->regions[r].blocks[k];
        struct rf_val *args = graph_rf_alloc(cx, (size_t)(b->n_args ? b->n_args : 1) * sizeof *args);
        if (!args) return BASE_ERR_NOMEM;
        for (int i = 0; i < b->n_args; i++) TRY(graph_rf_val_from_decl(cx, &args[i], b->args[i].type));
        int n_ret;
        TRY(analyze_block(cx, sp, b, args, NULL, 0, &n_ret));
    }
    return BASE_OK;
}

static enum base_status region_returns(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op, int r,
                                       const struct rf_val *args, struct rf_val *ret, int n)
{
    if (op->regions[r].n_blocks != 1)
        return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "region %d has %d blocks", r, op->regions[r].n_blocks);
    int n_ret;
    TRY(analyze_block(cx, sp, &op->regions[r].blocks[0], args, ret, n, &n_ret));
    if (n_ret != n)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "region %d returns %d values, %d expected", r, n_ret, n);
    return BASE_OK;
}

static enum base_status analyze_while(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op,
                                      struct rf_val *const *in, struct rf_val *out)
{
    int n = op->n_operands;
    if (op->n_regions != 2 || op->n_results != n)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "a while needs cond and body regions");
    const struct graph_block *body = op->regions[1].n_blocks == 1 ? &op->regions[1].blocks[0] : NULL;
    const struct graph_op *term = body ? graph_block_terminator(body) : NULL;
    struct rf_val *state = graph_rf_alloc(cx, (size_t)(n ? n : 1) * sizeof *state);
    struct rf_val *ret = graph_rf_alloc(cx, (size_t)(n ? n : 1) * sizeof *ret);
    struct rf_val pred;
    if (!state || !ret) return BASE_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        state[i] = *in[i];
        state[i].decl = op->results[i].type;
        /* loop-carried values change, unless the body passes them on as they are */
        bool invariant = term && i < term->n_operands && body->n_args == n && term->operands[i] == &body->args[i];
        if (!invariant) {
            state[i].elems = NULL;
            state[i].n_elems = 0;
        }
    }
    TRY(region_returns(cx, sp, op, 0, state, &pred, 1));
    TRY(region_returns(cx, sp, op, 1, state, ret, n));
    for (int i = 0; i < n; i++) {
        if (ret[i].rank != state[i].rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "the body returns state value %d with rank %d, not %d", i,
                                 ret[i].rank, state[i].rank);
        for (int d = 0; d < state[i].rank; d++)
            TRY(graph_rf_unify(
                cx, op, state[i].dims[d], ret[i].dims[d],
                "dimension %d of loop state %d before and after the body (the body may not change a shape)", d, i));
        out[i] = state[i];
    }
    return BASE_OK;
}

static enum base_status analyze_branches(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op,
                                         struct rf_val *out)
{
    int n = op->n_results;
    struct rf_val *ret = graph_rf_alloc(cx, (size_t)(n ? n : 1) * sizeof *ret);
    if (!ret) return BASE_ERR_NOMEM;
    for (int r = 0; r < op->n_regions; r++) {
        TRY(region_returns(cx, sp, op, r, NULL, ret, n));
        for (int i = 0; i < n; i++) {
            if (r == 0) {
                out[i] = ret[i];
                out[i].decl = op->results[i].type;
                out[i].elems = NULL;
                out[i].n_elems = 0;
                continue;
            }
            if (ret[i].rank != out[i].rank)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                     "branches 0 and %d return result %d with different ranks", r, i);
            for (int d = 0; d < out[i].rank; d++)
                TRY(graph_rf_unify(cx, op, out[i].dims[d], ret[i].dims[d],
                                   "dimension %d of result %d of branches 0 and %d", d, i, r));
        }
    }
    return BASE_OK;
}

static struct rf_val *cur_val(struct rf_ctx *cx, const struct graph_value *v)
{
    struct rf_val *r = cx->cur ? val(cx->cur, v) : NULL;
    return r && r->decl ? r : NULL;
}

static enum base_status analyze_op(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op)
{
    enum base_status st = BASE_OK;
    struct rf_val *in_small[16], **in = in_small;
    struct rf_val out_small[4], *out = out_small;
    if (op->n_operands > 16 && !(in = malloc((size_t)op->n_operands * sizeof *in))) return BASE_ERR_NOMEM;
    if (op->n_results > 4 && !(out = calloc((size_t)op->n_results, sizeof *out))) {
        if (in != in_small) free(in);
        return BASE_ERR_NOMEM;
    }
    memset(out_small, 0, sizeof out_small);
    for (int i = 0; i < op->n_operands; i++) {
        in[i] = val(sp, op->operands[i]);
        if (!in[i] || !in[i]->decl) {
            st = graph_rf_fail(cx, op, BASE_ERR_INTERNAL, "operand %d was not analysed", i);
            goto done;
        }
    }
    struct rf_op *ro = rec(sp, op);
    memset(ro, 0, sizeof *ro);
    switch (op->kind) {
    case GRAPH_OP_CALL:
    case GRAPH_OP_COMPOSITE: {
        const struct graph_attr *c = graph_op_attr(op, op->kind == GRAPH_OP_CALL ? "callee" : "decomposition");
        const char *name = c && (c->kind == GRAPH_ATTR_SYMBOL || c->kind == GRAPH_ATTR_STRING) ? c->u.str.s : NULL;
        struct rf_spec *s = NULL;
        st = call_spec(cx, op, name, in, op->n_operands, &s);
        if (st != BASE_OK) goto done;
        if (s->n_results != op->n_results) {
            st = graph_rf_fail(cx, op, BASE_ERR_INVALID, "@%s returns %d values, the call takes %d", s->f->name,
                               s->n_results, op->n_results);
            goto done;
        }
        for (int i = 0; i < op->n_results; i++) {
            out[i] = s->results[i];
            out[i].decl = op->results[i].type;
        }
        ro->callee = s;
        break;
    }
    case GRAPH_OP_WHILE: st = analyze_while(cx, sp, op, in, out); break;
    case GRAPH_OP_IF:
    case GRAPH_OP_CASE: st = analyze_branches(cx, sp, op, out); break;
    case GRAPH_OP_SDY_MANUAL_COMPUTATION:
    case GRAPH_OP_INTERP_RUN_PARALLEL:
        for (int i = 0; st == BASE_OK && i < op->n_operands; i++)
            if (!graph_type_is_static(op->operands[i]->type) && (cx->final || cx->single))
                st = graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                                   "operand %d has a dynamic shape, which refinement does not take here", i);
        for (int i = 0; st == BASE_OK && i < op->n_results; i++)
            st = graph_rf_val_from_decl(cx, &out[i], op->results[i].type);
        for (int r = 0; st == BASE_OK && r < op->n_regions; r++) st = analyze_region_decl(cx, sp, op, r);
        break;
    default:
        if (cx->single && op->n_regions && graph_op_kind_has(op->kind, GRAPH_OPF_CONTROL_FLOW)) {
            st = graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "control flow");
            break;
        }
        cx->cur = sp;
        cx->val_of = cur_val;
        st = graph_rf_infer(cx, op, in, out, ro);
        for (int r = 0; st == BASE_OK && r < op->n_regions; r++) st = analyze_region_decl(cx, sp, op, r);
        break;
    }
    for (int i = 0; st == BASE_OK && i < op->n_results; i++) st = merge_declared(cx, op, i, &out[i]);
    for (int i = 0; st == BASE_OK && i < op->n_results; i++) *val(sp, &op->results[i]) = out[i];
done:
    if (in != in_small) free(in);
    if (out != out_small) free(out);
    return st;
}

static enum base_status analyze_block(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_block *b,
                                      const struct rf_val *args, struct rf_val *ret, int ret_cap, int *n_ret)
{
    *n_ret = 0;
    for (int i = 0; i < b->n_args; i++) {
        struct rf_val *v = val(sp, &b->args[i]);
        if (!v)
            return base_diag_set(cx->diag, BASE_ERR_INTERNAL, cx->m->path, 0, 0,
                                 "a block argument outside its function");
        if (args) {
            *v = args[i];
            v->decl = b->args[i].type;
        } else {
            TRY(graph_rf_val_from_decl(cx, v, b->args[i].type));
        }
    }
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR)) {
            memset(rec(sp, op), 0, sizeof *rec(sp, op));
            for (int k = 0; k < op->n_operands && ret; k++) {
                if (k >= ret_cap)
                    return graph_rf_fail(cx, op, BASE_ERR_INVALID, "returns more than %d values", ret_cap);
                ret[k] = *val(sp, op->operands[k]);
            }
            *n_ret = op->n_operands;
            continue;
        }
        TRY(analyze_op(cx, sp, op));
    }
    return BASE_OK;
}

static enum base_status analyze_spec(struct rf_ctx *cx, struct rf_spec *sp)
{
    struct rf_func *f = sp->f;
    sp->vals = graph_rf_alloc(cx, (size_t)(f->nv ? f->nv : 1) * sizeof *sp->vals);
    sp->ops = graph_rf_alloc(cx, (size_t)(f->no ? f->no : 1) * sizeof *sp->ops);
    sp->used = graph_rf_alloc(cx, (size_t)(f->nv ? f->nv : 1) * sizeof *sp->used);
    int n_res = graph_func_n_results(f->func);
    if (n_res < 0) n_res = 0;
    sp->results = graph_rf_alloc(cx, (size_t)(n_res ? n_res : 1) * sizeof *sp->results);
    if (!sp->vals || !sp->ops || !sp->used || !sp->results) return BASE_ERR_NOMEM;
    const struct graph_block *b = body_of(f->func);
    sp->busy = true;
    int n_ret;
    TRY(analyze_block(cx, sp, b, sp->args, sp->results, n_res, &n_ret));
    sp->busy = false;
    if (n_ret != n_res)
        return graph_rf_fail(cx, f->func, BASE_ERR_INVALID, "@%s returns %d values, its type says %d", f->name, n_ret,
                             n_res);
    sp->n_results = n_res;
    for (int i = 0; i < n_res; i++) {
        const struct graph_type *t = graph_func_result_type(f->func, i);
        struct rf_val *r = &sp->results[i];
        if (!t || t->kind != GRAPH_TYPE_TENSOR || t->rank < 0 || r->rank != t->rank) continue;
        for (int d = 0; d < t->rank; d++)
            if (t->dims[d] != GRAPH_DYN)
                TRY(graph_rf_unify(cx, f->func, r->dims[d], rf_const(t->dims[d]),
                                   "@%s: result %d dimension %d (the function's type, the body's)", f->name, i, d));
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* The entry's arguments                                                     */


static const char *arg_label(const struct graph_op *func, int i, char *buf, size_t cap)
{
    const struct graph_block *b = body_of(func);
    const char *nm = b && i < b->n_args ? b->args[i].name : NULL;
    if (nm)
        snprintf(buf, cap, "argument %d (%%%s) of @%s", i, nm, graph_func_name(func));
    else
        snprintf(buf, cap, "argument %d of @%s", i, graph_func_name(func));
    return buf;
}

static enum base_status entry_args(struct rf_ctx *cx, const struct graph_op *func,
                                   const struct graph_refine_options *opt, struct rf_val *args, int n)
{
    const struct graph_block *b = body_of(func);
    char lab[200];
    for (int i = 0; i < n; i++) {
        const struct graph_type *t = b->args[i].type;
        const struct graph_refine_arg *g = opt && opt->args && i < opt->n_args ? &opt->args[i] : NULL;
        if (g && g->rank < 0) g = g->has_value ? g : NULL;
        if (!t || t->kind != GRAPH_TYPE_TENSOR) {
            TRY(graph_rf_val_from_decl(cx, &args[i], t));
            continue;
        }
        int rank = t->rank;
        if (g && g->rank >= 0) {
            if (rank >= 0 && g->rank != rank)
                return graph_rf_fail(cx, func, BASE_ERR_INVALID,
                                     "%s: a shape of rank %d was given for a tensor of rank %d",
                                     arg_label(func, i, lab, sizeof lab), g->rank, rank);
            rank = g->rank;
        } else if (rank < 0) {
            return graph_rf_fail(cx, func, BASE_ERR_INVALID, "%s is unranked: give its shape",
                                 arg_label(func, i, lab, sizeof lab));
        }
        TRY(graph_rf_val_init(cx, &args[i], t, rank));
        int64_t bound[GRAPH_MAX_RANK];
        if (t->rank >= 0)
            graph_type_bounds(t, bound);
        else
            for (int d = 0; d < rank; d++) bound[d] = -1;
        for (int d = 0; d < rank; d++) {
            int64_t decl = t->rank >= 0 ? t->dims[d] : GRAPH_DYN;
            int64_t x;
            if (g && g->rank >= 0) {
                x = g->dims[d];
                if (x < 0)
                    return graph_rf_fail(cx, func, BASE_ERR_INVALID, "%s: dimension %d is given as %lld",
                                         arg_label(func, i, lab, sizeof lab), d, (long long)x);
                if (decl != GRAPH_DYN && x != decl)
                    return graph_rf_fail(cx, func, BASE_ERR_INVALID,
                                         "%s: dimension %d is given as %lld, but its type says %lld",
                                         arg_label(func, i, lab, sizeof lab), d, (long long)x, (long long)decl);
                if (decl == GRAPH_DYN && bound[d] >= 0 && x > bound[d])
                    return graph_rf_fail(cx, func, BASE_ERR_INVALID,
                                         "%s: dimension %d is given as %lld, above its bound %lld",
                                         arg_label(func, i, lab, sizeof lab), d, (long long)x, (long long)bound[d]);
            } else if (decl != GRAPH_DYN) {
                x = decl;
            } else if (bound[d] >= 0) {
                x = bound[d]; /* a bounded dimension with no size given runs at its bound */
            } else {
                return graph_rf_fail(cx, func, BASE_ERR_INVALID,
                                     "%s: dimension %d is dynamic ('?') and no shape was given for it",
                                     arg_label(func, i, lab, sizeof lab), d);
            }
            args[i].dims[d] = rf_const(x);
            args[i].dims[d].from_arg = (int16_t)(i + 1);
            args[i].dims[d].from_dim = (int8_t)d;
        }
        if (i < 64) args[i].deps = UINT64_C(1) << i;
        int s = i < RF_MAX_SYMS ? cx->sym_of_arg[i] : -1;
        if (s >= 0 && rank == 0 && !cx->syms[s].retired) {
            args[i].elems = graph_rf_alloc(cx, sizeof *args[i].elems);
            if (!args[i].elems) return BASE_ERR_NOMEM;
            args[i].elems[0] = cx->syms[s].known ? rf_const(cx->syms[s].value) : rf_affine(1, s, 0);
            args[i].elems[0].from_arg = (int16_t)(i + 1);
            args[i].elems[0].from_dim = -1;
            args[i].n_elems = 1;
        }
    }
    return BASE_OK;
}

/* The size every given dynamic dimension has, if they have one. */
static bool common_dyn_size(const struct graph_op *func, const struct graph_refine_options *opt, int64_t *size)
{
    const struct graph_block *b = body_of(func);
    bool any = false;
    for (int i = 0; opt && opt->args && i < opt->n_args && i < b->n_args; i++) {
        const struct graph_type *t = b->args[i].type;
        const struct graph_refine_arg *g = &opt->args[i];
        if (!t || t->kind != GRAPH_TYPE_TENSOR || g->rank < 0) continue;
        for (int d = 0; d < g->rank; d++) {
            if (t->rank >= 0 && d < t->rank && t->dims[d] != GRAPH_DYN) continue;
            if (any && g->dims[d] != *size) return false;
            *size = g->dims[d];
            any = true;
        }
    }
    return any;
}

/* ------------------------------------------------------------------------ */
/* Liveness and what becomes of each op                                      */

static bool int_type(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR && !t->quant &&
           (base_dtype_is_int(t->elem) || t->elem == BASE_DT_I1 || t->elem == BASE_DT_INDEX);
}

/* A pure op whose one integer result folded to constants made from shapes
 * (a dimension argument, get_dimension_size): it becomes a constant. */
static bool folds(const struct rf_ctx *cx, const struct graph_op *op, const struct rf_val *v)
{
    if (op->n_results != 1 || op->n_regions || op->kind == GRAPH_OP_CONSTANT || !pure_kind(op->kind)) return false;
    if (!int_type(op->results[0].type) || !graph_rf_val_elems_const(cx, v)) return false;
    return (v->deps & cx->dim_mask) || v->from_shape;
}

static void mark_block(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_block *b);

static void use(struct rf_spec *sp, const struct graph_value *v)
{
    uint32_t i = v->id - sp->f->vbase;
    if (v->id >= sp->f->vbase && i < sp->f->nv) sp->used[i] = true;
}

static void mark_op(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_op *op)
{
    struct rf_op *ro = rec(sp, op);
    if (ro->action == RF_KEEP && op->n_results == 1 && folds(cx, op, val(sp, &op->results[0])))
        ro->action = RF_CONSTANT;
    bool live = !pure_kind(op->kind) && ro->action != RF_DROP;
    for (int i = 0; !live && i < op->n_results; i++) live = sp->used[op->results[i].id - sp->f->vbase];
    ro->live = live && ro->action != RF_DROP;
    if (!ro->live) return;
    switch (ro->action) {
    case RF_CONSTANT: break;
    case RF_FORWARD: use(sp, op->operands[ro->forward]); break;
    case RF_REWRITE:
        if (ro->kind != GRAPH_OP_IOTA) use(sp, op->operands[0]);
        if (ro->kind == GRAPH_OP_PAD || ro->kind == GRAPH_OP_GATHER || ro->kind == GRAPH_OP_CONVOLUTION ||
            ro->kind == GRAPH_OP_DYNAMIC_SLICE)
            use(sp, op->operands[1]);
        break;
    default:
        for (int i = 0; i < op->n_operands; i++) use(sp, op->operands[i]);
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) mark_block(cx, sp, &op->regions[r].blocks[k]);
        break;
    }
}

static void mark_block(struct rf_ctx *cx, struct rf_spec *sp, const struct graph_block *b)
{
    const struct graph_op *term = graph_block_terminator(b);
    if (term)
        for (int i = 0; i < term->n_operands; i++) use(sp, term->operands[i]);
    for (int i = b->n_ops - 1; i >= 0; i--)
        if (b->ops[i] != term) mark_op(cx, sp, b->ops[i]);
}

/* ------------------------------------------------------------------------ */
/* Building the refined module                                               */

struct rf_emit {
    struct rf_ctx *cx;
    struct graph_builder *b;
    struct graph_value **map; /* by value id - vbase of the spec being built */
    struct rf_spec *sp;
};

static struct graph_value *mapped(struct rf_emit *e, const struct graph_value *v)
{
    uint32_t i = v->id - e->sp->f->vbase;
    return v->id >= e->sp->f->vbase && i < e->sp->f->nv ? e->map[i] : NULL;
}

static void set_mapped(struct rf_emit *e, const struct graph_value *v, struct graph_value *to)
{
    uint32_t i = v->id - e->sp->f->vbase;
    if (v->id >= e->sp->f->vbase && i < e->sp->f->nv) e->map[i] = to;
    if (to && v->name && !to->name) graph_builder_set_name(e->b, to, v->name); /* a forwarded value keeps its own */
}

static const struct graph_type *val_type(struct rf_emit *e, const struct rf_val *v, const struct graph_type *decl)
{
    if (!decl || decl->kind != GRAPH_TYPE_TENSOR || v->rank < 0) return decl;
    int64_t dims[GRAPH_MAX_RANK];
    for (int d = 0; d < v->rank; d++)
        if (!graph_rf_get_const(e->cx, v->dims[d], &dims[d])) dims[d] = GRAPH_DYN;
    return graph_builder_type_with_dims(e->b, decl, v->rank, dims);
}

/* A constant of v's folded elements. */
static struct graph_value *emit_constant(struct rf_emit *e, const struct rf_val *v, const struct graph_type *decl)
{
    const struct graph_type *t = val_type(e, v, decl);
    if (!t) return NULL;
    struct base_tensor *x = NULL;
    if (base_tensor_create(t->elem, t->rank, t->dims, &x) != BASE_OK) return NULL;
    for (int64_t i = 0; i < x->count && i < v->n_elems; i++) {
        int64_t c = 0;
        graph_rf_get_const(e->cx, v->elems[i], &c);
        base_elem_set_i64(x->dtype, x->data, (size_t)i, c);
    }
    const struct graph_attr *a = graph_builder_attr_elements(e->b, t, x);
    base_tensor_release(x);
    return graph_builder_constant(e->b, a);
}

static void copy_attrs(struct rf_emit *e, struct graph_op *to, const struct graph_op *from, const char *const *skip)
{
    for (int i = 0; i < from->n_attrs; i++) {
        bool s = false;
        for (int k = 0; skip && skip[k]; k++) s |= !strcmp(from->attrs[i].name, skip[k]);
        if (!s) graph_builder_set_attr(e->b, to, from->attrs[i].name, from->attrs[i].value);
    }
}

static enum base_status emit_block(struct rf_emit *e, const struct graph_block *b);

static struct graph_op *new_op(struct rf_emit *e, const struct graph_op *src, enum graph_op_kind kind,
                               struct graph_value *const *ins, int n_in, const struct graph_type *const *tys, int n_out)
{
    struct graph_op *o = kind == GRAPH_OP_UNKNOWN ? graph_builder_op_named(e->b, src->name, ins, n_in, tys, n_out)
                                                  : graph_builder_op(e->b, kind, ins, n_in, tys, n_out);
    if (o) graph_builder_set_op_loc(e->b, o, &src->loc);
    return o;
}

static struct graph_value *emit_slice_of(struct rf_emit *e, const struct graph_op *src, struct graph_value *x,
                                         const struct graph_type *xt, const int64_t *start, const int64_t *limit,
                                         const struct graph_type *rt)
{
    int64_t stride[GRAPH_MAX_RANK];
    for (int d = 0; d < xt->rank; d++) stride[d] = 1;
    struct graph_op *o = new_op(e, src, GRAPH_OP_SLICE, &x, 1, &rt, 1);
    graph_builder_set_attr(e->b, o, "start_indices", graph_builder_attr_dense_i64(e->b, start, xt->rank));
    graph_builder_set_attr(e->b, o, "limit_indices", graph_builder_attr_dense_i64(e->b, limit, xt->rank));
    graph_builder_set_attr(e->b, o, "strides", graph_builder_attr_dense_i64(e->b, stride, xt->rank));
    return graph_builder_result(o, 0);
}

/* A dynamic op as its static form. */
static void emit_rewrite(struct rf_emit *e, const struct graph_op *op, const struct rf_op *ro,
                         const struct graph_type *const *tys)
{
    struct graph_builder *b = e->b;
    struct graph_value *x = mapped(e, op->operands[0]);
    const struct graph_type *rt = tys[0];
    struct graph_op *o = NULL;
    int rank = rt && rt->kind == GRAPH_TYPE_TENSOR ? rt->rank : 0;
    switch (ro->kind) {
    case GRAPH_OP_BROADCAST_IN_DIM:
        o = new_op(e, op, ro->kind, &x, 1, tys, 1);
        graph_builder_set_attr(b, o, "broadcast_dimensions", graph_op_attr(op, "broadcast_dimensions"));
        break;
    case GRAPH_OP_RESHAPE: o = new_op(e, op, ro->kind, &x, 1, tys, 1); break;
    case GRAPH_OP_IOTA:
        o = new_op(e, op, ro->kind, NULL, 0, tys, 1);
        graph_builder_set_attr(b, o, "iota_dimension", graph_op_attr(op, "iota_dimension"));
        break;
    case GRAPH_OP_PAD: {
        struct graph_value *ins[2] = {x, mapped(e, op->operands[1])};
        o = new_op(e, op, ro->kind, ins, 2, tys, 1);
        int n = ro->n_ints / 3;
        graph_builder_set_attr(b, o, "edge_padding_low", graph_builder_attr_dense_i64(b, ro->ints, n));
        graph_builder_set_attr(b, o, "edge_padding_high", graph_builder_attr_dense_i64(b, ro->ints + n, n));
        graph_builder_set_attr(b, o, "interior_padding", graph_builder_attr_dense_i64(b, ro->ints + 2 * n, n));
        break;
    }
    case GRAPH_OP_GATHER: {
        struct graph_value *ins[2] = {x, mapped(e, op->operands[1])};
        o = new_op(e, op, ro->kind, ins, 2, tys, 1);
        copy_attrs(e, o, op, NULL);
        graph_builder_set_attr(b, o, "slice_sizes", graph_builder_attr_dense_i64(b, ro->ints, ro->n_ints));
        break;
    }
    case GRAPH_OP_CONVOLUTION: {
        struct graph_value *ins[2] = {x, mapped(e, op->operands[1])};
        o = new_op(e, op, ro->kind, ins, 2, tys, 1);
        copy_attrs(e, o, op, NULL);
        int64_t pdims[2] = {ro->n_ints / 2, 2};
        graph_builder_set_attr(b, o, "padding", graph_builder_attr_elements_i64(b, ro->ints, 2, pdims));
        break;
    }
    case GRAPH_OP_SLICE: {
        o = new_op(e, op, ro->kind, &x, 1, tys, 1);
        int n = ro->n_ints / 3;
        graph_builder_set_attr(b, o, "start_indices", graph_builder_attr_dense_i64(b, ro->ints, n));
        graph_builder_set_attr(b, o, "limit_indices", graph_builder_attr_dense_i64(b, ro->ints + n, n));
        graph_builder_set_attr(b, o, "strides", graph_builder_attr_dense_i64(b, ro->ints + 2 * n, n));
        break;
    }
    case GRAPH_OP_DYNAMIC_SLICE: { /* the start indices vector as scalars */
        struct graph_value *ins[GRAPH_MAX_RANK + 1];
        struct graph_value *si = mapped(e, op->operands[1]);
        const struct graph_type *st = op->operands[1]->type;
        const struct graph_type *t1 = graph_builder_tensor_type(b, st->elem, 1, (int64_t[]){1});
        const struct graph_type *t0 = graph_builder_scalar_type(b, st->elem);
        const struct graph_type *svt = graph_builder_tensor_type(b, st->elem, 1, (int64_t[]){rank});
        ins[0] = x;
        for (int d = 0; d < rank; d++) {
            int64_t s0 = d, l0 = d + 1;
            struct graph_value *one = emit_slice_of(e, op, si, svt, &s0, &l0, t1);
            ins[1 + d] = graph_builder_op1(b, GRAPH_OP_RESHAPE, &one, 1, t0);
            if (ins[1 + d]) graph_builder_set_op_loc(b, ins[1 + d]->def, &op->loc);
        }
        o = new_op(e, op, ro->kind, ins, rank + 1, tys, 1);
        graph_builder_set_attr(b, o, "slice_sizes", graph_builder_attr_dense_i64(b, ro->ints, ro->n_ints));
        break;
    }
    case GRAPH_OP_SET_DIMENSION_SIZE: {
        const struct rf_val *xv = val(e->sp, op->operands[0]);
        int64_t dim = ro->ints[0], size = ro->ints[1], xd = 0, dims[GRAPH_MAX_RANK] = {0}, zero[GRAPH_MAX_RANK] = {0};
        for (int d = 0; d < xv->rank; d++) graph_rf_get_const(e->cx, xv->dims[d], &dims[d]);
        xd = dims[dim];
        if (size == xd) {
            set_mapped(e, &op->results[0], x);
            return;
        }
        if (size < xd) {
            dims[dim] = size;
            set_mapped(e, &op->results[0], emit_slice_of(e, op, x, rt, zero, dims, rt));
            return;
        }
        struct base_tensor *z = NULL;
        const struct graph_type *zt = graph_builder_scalar_type(b, rt->elem);
        if (base_tensor_create(rt->elem, 0, NULL, &z) != BASE_OK) return;
        struct graph_value *zv = graph_builder_constant(b, graph_builder_attr_elements(b, zt, z));
        base_tensor_release(z);
        struct graph_value *ins[2] = {x, zv};
        o = new_op(e, op, GRAPH_OP_PAD, ins, 2, tys, 1);
        int64_t hi[GRAPH_MAX_RANK] = {0};
        hi[dim] = size - xd;
        graph_builder_set_attr(b, o, "edge_padding_low", graph_builder_attr_dense_i64(b, zero, xv->rank));
        graph_builder_set_attr(b, o, "edge_padding_high", graph_builder_attr_dense_i64(b, hi, xv->rank));
        graph_builder_set_attr(b, o, "interior_padding", graph_builder_attr_dense_i64(b, zero, xv->rank));
        break;
    }
    default: return;
    }
    if (o) set_mapped(e, &op->results[0], graph_builder_result(o, 0));
}

static enum base_status emit_op(struct rf_emit *e, const struct graph_op *op)
{
    struct rf_spec *sp = e->sp;
    struct rf_op *ro = rec(sp, op);
    if (!ro->live) return BASE_OK;
    const struct graph_type *tys_small[8], **tys = tys_small;
    struct graph_value *ins_small[16], **ins = ins_small;
    if (op->n_results > 8 && !(tys = malloc((size_t)op->n_results * sizeof *tys))) return BASE_ERR_NOMEM;
    if (op->n_operands > 16 && !(ins = malloc((size_t)op->n_operands * sizeof *ins))) {
        if (tys != tys_small) free(tys);
        return BASE_ERR_NOMEM;
    }
    for (int i = 0; i < op->n_results; i++) tys[i] = val_type(e, val(sp, &op->results[i]), op->results[i].type);
    graph_builder_set_loc(e->b, &op->loc);
    switch (ro->action) {
    case RF_CONSTANT:
        set_mapped(e, &op->results[0], emit_constant(e, val(sp, &op->results[0]), op->results[0].type));
        break;
    case RF_FORWARD: set_mapped(e, &op->results[0], mapped(e, op->operands[ro->forward])); break;
    case RF_REWRITE: emit_rewrite(e, op, ro, tys); break;
    case RF_KEEP: {
        for (int i = 0; i < op->n_operands; i++) ins[i] = mapped(e, op->operands[i]);
        struct graph_op *o = new_op(e, op, op->kind, ins, op->n_operands, tys, op->n_results);
        copy_attrs(e, o, op, NULL);
        if (ro->callee)
            graph_builder_set_attr(e->b, o, op->kind == GRAPH_OP_CALL ? "callee" : "decomposition",
                                   graph_builder_attr_symbol(e->b, ro->callee->name));
        for (int r = 0; o && r < op->n_regions; r++) {
            const struct graph_region *reg = &op->regions[r];
            if (reg->n_blocks == 0) {
                graph_builder_region(e->b, o, NULL, 0, NULL);
                graph_builder_end(e->b);
                continue;
            }
            const struct graph_block *blk = &reg->blocks[0];
            const struct graph_type **at = calloc((size_t)blk->n_args + 1, sizeof *at);
            struct graph_value **av = calloc((size_t)blk->n_args + 1, sizeof *av);
            if (!at || !av) {
                free(at);
                free(av);
                return BASE_ERR_NOMEM;
            }
            for (int i = 0; i < blk->n_args; i++) at[i] = val_type(e, val(sp, &blk->args[i]), blk->args[i].type);
            graph_builder_region(e->b, o, at, blk->n_args, av);
            for (int i = 0; i < blk->n_args; i++) set_mapped(e, &blk->args[i], av[i]);
            free(at);
            free(av);
            TRY(emit_block(e, blk));
        }
        for (int i = 0; o && i < op->n_results; i++) set_mapped(e, &op->results[i], graph_builder_result(o, i));
        break;
    }
    default: break;
    }
    if (tys != tys_small) free(tys);
    if (ins != ins_small) free(ins);
    return BASE_OK;
}

/* A region's ops and its terminator (which closes the region). */
static enum base_status emit_block(struct rf_emit *e, const struct graph_block *b)
{
    const struct graph_op *term = graph_block_terminator(b);
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i] != term) TRY(emit_op(e, b->ops[i]));
    if (!term) {
        graph_builder_end(e->b);
        return BASE_OK;
    }
    struct graph_value *small[16], **rv = small;
    if (term->n_operands > 16 && !(rv = malloc((size_t)term->n_operands * sizeof *rv))) return BASE_ERR_NOMEM;
    for (int i = 0; i < term->n_operands; i++) rv[i] = mapped(e, term->operands[i]);
    graph_builder_set_loc(e->b, &term->loc);
    graph_builder_return(e->b, rv, term->n_operands);
    if (rv != small) free(rv);
    return BASE_OK;
}

static enum base_status emit_spec(struct rf_ctx *cx, struct graph_builder *b, struct rf_spec *sp, bool entry)
{
    const struct graph_op *func = sp->f->func;
    const struct graph_block *body = body_of(func);
    struct rf_emit e = {cx, b, calloc((size_t)sp->f->nv + 1, sizeof *e.map), sp};
    const struct graph_type **at = calloc((size_t)sp->n_args + 1, sizeof *at);
    const struct graph_type **rt = calloc((size_t)sp->n_results + 1, sizeof *rt);
    const char **names = calloc((size_t)sp->n_args + 1, sizeof *names);
    struct graph_value **av = calloc((size_t)sp->n_args + 1, sizeof *av);
    enum base_status st = BASE_OK;
    if (!e.map || !at || !rt || !names || !av) {
        st = BASE_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < sp->n_args; i++) {
        at[i] = val_type(&e, &sp->args[i], body->args[i].type);
        names[i] = body->args[i].name;
    }
    for (int i = 0; i < sp->n_results; i++) rt[i] = val_type(&e, &sp->results[i], graph_func_result_type(func, i));
    graph_builder_set_loc(b, &func->loc);
    struct graph_op *f = graph_builder_func(b, sp->name, at, names, sp->n_args, rt, sp->n_results, av);
    if (f) {
        static const char *const skip[] = {"sym_name", "function_type", NULL};
        copy_attrs(&e, f, func, skip);
        graph_builder_set_op_loc(b, f, &func->loc);
    }
    for (int i = 0; i < sp->n_args; i++) set_mapped(&e, &body->args[i], av[i]);
    /* dimension arguments: the refined program reads their values as constants */
    for (int i = 0; entry && i < sp->n_args && i < 64; i++)
        if ((cx->dim_mask >> i & 1) && sp->used[body->args[i].id - sp->f->vbase] &&
            graph_rf_val_elems_const(cx, &sp->args[i])) {
            struct graph_value *c = emit_constant(&e, &sp->args[i], body->args[i].type);
            uint32_t k = body->args[i].id - sp->f->vbase;
            e.map[k] = c;
        }
    st = emit_block(&e, body);
done:
    free(e.map);
    free(at);
    free(rt);
    free(names);
    free(av);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The pass                                                                  */

static void ctx_reset(struct rf_ctx *cx)
{
    base_arena_deinit(&cx->arena);
    base_arena_init(&cx->arena, 1 << 16);
    cx->specs = cx->specs_tail = NULL;
    cx->pending = NULL;
    cx->pending_deps = 0;
    cx->dim_mask = 0;
    cx->progress = false;
    cx->depth = 0;
    for (int i = 0; i < cx->n_funcs; i++) cx->funcs[i].n_specs = 0;
}

static enum base_status analyze_entry(struct rf_ctx *cx, struct rf_func *f, const struct graph_refine_options *opt,
                                      struct rf_spec **out)
{
    const struct graph_block *b = body_of(f->func);
    struct rf_val *args = graph_rf_alloc(cx, (size_t)(b->n_args ? b->n_args : 1) * sizeof *args);
    struct rf_spec *s = graph_rf_alloc(cx, sizeof *s);
    if (!args || !s) return BASE_ERR_NOMEM;
    TRY(entry_args(cx, f->func, opt, args, b->n_args));
    s->f = f;
    s->n_args = b->n_args;
    s->args = args;
    f->n_specs = 1;
    snprintf(s->name, sizeof s->name, "%s", f->name);
    cx->specs = cx->specs_tail = s;
    *out = s;
    return analyze_spec(cx, s);
}

static const char *sym_label(const struct rf_ctx *cx, const struct graph_op *func, int s, char *buf, size_t cap)
{
    return arg_label(func, cx->syms[s].arg, buf, cap);
}

enum base_status graph_refine(const struct graph_module *m, const struct graph_refine_options *opt,
                              struct graph_module **out, struct graph_refine_result *res, struct base_diag *diag)
{
    *out = NULL;
    if (res) memset(res, 0, sizeof *res);
    const char *entry = opt ? opt->entry : NULL;
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func || !body_of(func))
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0, "no function %s%s to refine", entry ? "@" : "@main",
                             entry ? entry : "");
    struct rf_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) return BASE_ERR_NOMEM;
    cx->m = m;
    cx->entry = func;
    cx->diag = diag;
    base_arena_init(&cx->arena, 1 << 16);
    enum base_status st = funcs_init(cx);
    struct graph_builder *b = NULL;
    struct rf_func *f = st == BASE_OK ? find_func(cx, graph_func_name(func)) : NULL;
    if (st == BASE_OK && !f)
        st = base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0, "the entry function has no name");
    /* a symbol per scalar integer argument: a dimension argument if a shape needs it */
    const struct graph_block *body = body_of(func);
    for (int i = 0; i < RF_MAX_SYMS; i++) cx->sym_of_arg[i] = -1;
    for (int i = 0; st == BASE_OK && i < body->n_args && i < RF_MAX_SYMS; i++) {
        if (!scalar_int(body->args[i].type)) continue;
        struct rf_sym *y = &cx->syms[cx->n_syms];
        y->arg = i;
        y->name = body->args[i].name;
        const struct graph_refine_arg *g = opt && opt->args && i < opt->n_args ? &opt->args[i] : NULL;
        if (g && g->has_value) {
            y->known = true;
            y->value = g->value;
            y->how = GRAPH_REFINE_GIVEN;
        }
        cx->sym_of_arg[i] = cx->n_syms++;
    }
    struct rf_spec *entry_spec = NULL;
    char lab[200];
    for (int iter = 0; st == BASE_OK; iter++) {
        if (iter > 2 * RF_MAX_SYMS + 4) {
            st = base_diag_set(diag, BASE_ERR_INTERNAL, m->path, 0, 0, "shape refinement does not converge");
            break;
        }
        ctx_reset(cx);
        cx->final = true;
        for (int s = 0; s < cx->n_syms; s++) cx->final &= cx->syms[s].known || cx->syms[s].retired;
        st = analyze_entry(cx, f, opt, &entry_spec);
        if (st != BASE_OK || cx->final) break;
        if (cx->progress) continue;
        /* the unknown symbols a shape needs; the others are the program's data */
        uint64_t needed = cx->pending_deps | cx->dim_mask;
        bool any = false;
        for (int s = 0; s < cx->n_syms; s++) {
            struct rf_sym *y = &cx->syms[s];
            if (y->known || y->retired) continue;
            if (y->arg < 64 && (needed >> y->arg & 1))
                any = true;
            else
                y->retired = true;
        }
        if (!any) continue;
        int64_t n;
        if (opt && opt->guess_dim_args && common_dyn_size(func, opt, &n)) {
            for (int s = 0; s < cx->n_syms; s++) {
                struct rf_sym *y = &cx->syms[s];
                if (!y->known && !y->retired && y->arg < 64 && (needed >> y->arg & 1)) {
                    y->known = true;
                    y->value = n;
                    y->how = GRAPH_REFINE_GUESSED;
                }
            }
            continue;
        }
        int s0 = -1;
        for (int s = 0; s < cx->n_syms && s0 < 0; s++)
            if (!cx->syms[s].known && !cx->syms[s].retired && cx->syms[s].arg < 64 && (needed >> cx->syms[s].arg & 1))
                s0 = s;
        const struct graph_op *at = cx->pending ? cx->pending : func;
        st = graph_rf_fail(
            cx, at, BASE_ERR_INVALID,
            "a shape here depends on %s, a dimension argument whose value nothing determines: give its value",
            sym_label(cx, func, s0, lab, sizeof lab));
    }
    /* what becomes of each op, then the module */
    if (st == BASE_OK) {
        for (struct rf_spec *s = cx->specs; s; s = s->next) mark_block(cx, s, body_of(s->f->func));
        st = graph_builder_create(m->path, &b);
    }
    if (st == BASE_OK) {
        if (m->name) graph_builder_set_module_name(b, m->name);
        for (int i = 0; i < m->n_attrs; i++) graph_builder_set_module_attr(b, m->attrs[i].name, m->attrs[i].value);
        for (int i = 0; st == BASE_OK && i < m->body.n_ops; i++) {
            const struct graph_op *top = m->body.ops[i];
            struct rf_func *tf = top->kind == GRAPH_OP_FUNC ? find_func(cx, graph_func_name(top)) : NULL;
            bool refined = false;
            for (struct rf_spec *s = cx->specs; st == BASE_OK && tf && s; s = s->next)
                if (s->f == tf) {
                    st = emit_spec(cx, b, s, s == entry_spec);
                    refined = true;
                }
            if (!refined && st == BASE_OK) graph_builder_clone(b, top, NULL, NULL);
        }
    }
    if (st == BASE_OK) st = graph_builder_finish(b, out, diag);
    if (st == BASE_OK && res) {
        for (int s = 0; s < cx->n_syms; s++) {
            const struct rf_sym *y = &cx->syms[s];
            if (!y->known || y->arg >= 64 || !(cx->dim_mask >> y->arg & 1) ||
                res->n_dim_args >= GRAPH_REFINE_MAX_DIM_ARGS)
                continue;
            res->dim_args[res->n_dim_args++] = (struct graph_refine_dim_arg){y->arg, y->value, y->how};
        }
        for (struct rf_spec *s = cx->specs; s; s = s->next) {
            for (uint32_t k = 0; k < s->f->no; k++) {
                const struct rf_op *ro = &s->ops[k];
                if (ro->action == RF_REWRITE && ro->live) res->n_rewritten++;
                if (ro->action == RF_DROP) res->n_assertions++;
            }
        }
        int n_sp = 0;
        for (struct rf_spec *s = cx->specs; s; s = s->next) n_sp++;
        res->n_specialized = n_sp - 1;
    }
    graph_builder_destroy(b);
    base_arena_deinit(&cx->arena);
    free(cx->funcs);
    free(cx);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                   */

static bool type_dynamic(const struct graph_type *t)
{
    if (!t) return false;
    if (t->kind == GRAPH_TYPE_TUPLE) {
        for (int i = 0; i < t->n_elems; i++)
            if (type_dynamic(t->elems[i])) return true;
        return false;
    }
    return t->kind == GRAPH_TYPE_TENSOR && (!graph_type_is_static(t) || t->encoding);
}

/* The ops refinement makes static (or removes) even in a static program. */
static bool dynamic_op(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM:
    case GRAPH_OP_DYNAMIC_RESHAPE:
    case GRAPH_OP_DYNAMIC_IOTA:
    case GRAPH_OP_DYNAMIC_PAD:
    case GRAPH_OP_DYNAMIC_GATHER:
    case GRAPH_OP_DYNAMIC_CONV:
    case GRAPH_OP_REAL_DYNAMIC_SLICE:
    case GRAPH_OP_GET_DIMENSION_SIZE:
    case GRAPH_OP_SET_DIMENSION_SIZE: return true;
    case GRAPH_OP_CUSTOM_CALL: {
        const struct graph_attr *t = graph_op_attr(op, "call_target_name");
        const char *s = t && (t->kind == GRAPH_ATTR_STRING || t->kind == GRAPH_ATTR_SYMBOL) ? t->u.str.s : "";
        return !strcmp(s, "shape_assertion") || !strcmp(s, "stablehlo.shape_refinement_operand_wrapper");
    }
    default: return false;
    }
}

static bool block_dynamic(const struct graph_block *b)
{
    for (int i = 0; i < b->n_args; i++)
        if (type_dynamic(b->args[i].type)) return true;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (dynamic_op(op)) return true;
        for (int r = 0; r < op->n_results; r++)
            if (type_dynamic(op->results[r].type)) return true;
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                if (block_dynamic(&op->regions[r].blocks[k])) return true;
        if (op->kind == GRAPH_OP_FUNC) {
            int n = graph_func_n_results(op);
            for (int r = 0; r < n; r++)
                if (type_dynamic(graph_func_result_type(op, r))) return true;
        }
    }
    return false;
}

bool graph_module_is_dynamic(const struct graph_module *m)
{
    return m && block_dynamic(&m->body);
}

bool graph_entry_is_dynamic(const struct graph_module *m, const char *entry)
{
    const struct graph_op *f = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    const struct graph_block *b = f ? body_of(f) : NULL;
    for (int i = 0; b && i < b->n_args; i++)
        if (type_dynamic(b->args[i].type)) return true;
    return false;
}

enum base_status graph_refine_op_shapes(const struct graph_op *op, const struct base_tensor *const *operands,
                                        int *ranks, int64_t (*dims)[GRAPH_MAX_RANK], struct base_diag *diag)
{
    struct rf_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.diag = diag;
    cx.single = true;
    cx.final = true;
    base_arena_init(&cx.arena, 1 << 12);
    enum base_status st = BASE_OK;
    struct rf_val *vals = graph_rf_alloc(&cx, (size_t)(op->n_operands + 1) * sizeof *vals);
    struct rf_val **in = graph_rf_alloc(&cx, (size_t)(op->n_operands + 1) * sizeof *in);
    struct rf_val *out = graph_rf_alloc(&cx, (size_t)(op->n_results + 1) * sizeof *out);
    struct rf_op ro;
    if (!vals || !in || !out) st = BASE_ERR_NOMEM;
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        const struct base_tensor *t = operands[i];
        in[i] = &vals[i];
        if (!t) {
            st = graph_rf_val_from_decl(&cx, &vals[i], op->operands[i]->type);
            continue;
        }
        st = graph_rf_val_init(&cx, &vals[i], op->operands[i]->type, t->rank);
        for (int d = 0; st == BASE_OK && d < t->rank; d++) vals[i].dims[d] = rf_const(t->dims[d]);
        bool intish = base_dtype_is_int(t->dtype) || t->dtype == BASE_DT_I1 || t->dtype == BASE_DT_INDEX;
        if (st == BASE_OK && intish && t->count <= RF_FOLD_MAX && t->data) {
            vals[i].elems = graph_rf_alloc(&cx, (size_t)(t->count ? t->count : 1) * sizeof *vals[i].elems);
            if (!vals[i].elems) st = BASE_ERR_NOMEM;
            for (int64_t k = 0; st == BASE_OK && k < t->count; k++)
                vals[i].elems[k] = rf_const(base_elem_get_i64(t->dtype, t->data, (size_t)k));
            vals[i].n_elems = t->count;
        }
    }
    if (st == BASE_OK && (op->n_regions && graph_op_kind_has(op->kind, GRAPH_OPF_CONTROL_FLOW)))
        st = graph_rf_fail(&cx, op, BASE_ERR_UNSUPPORTED, "the shapes of control flow come from its regions");
    if (st == BASE_OK && (op->kind == GRAPH_OP_CALL || op->kind == GRAPH_OP_COMPOSITE))
        st = graph_rf_fail(&cx, op, BASE_ERR_UNSUPPORTED, "the shapes of a call come from its callee");
    if (st == BASE_OK) st = graph_rf_infer(&cx, op, in, out, &ro);
    for (int i = 0; st == BASE_OK && i < op->n_results; i++) {
        st = merge_declared(&cx, op, i, &out[i]);
        if (st != BASE_OK) break;
        ranks[i] = out[i].rank;
        for (int d = 0; d < out[i].rank; d++) graph_rf_get_const(&cx, out[i].dims[d], &dims[i][d]);
    }
    base_arena_deinit(&cx.arena);
    return st;
}
