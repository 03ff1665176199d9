/* The golden interpreter's core: values, the per-process environment, block
 * and region execution with liveness-based freeing, function calls, the
 * kernel dispatch (with the quantization wrapper) and running processes in
 * threads.  Kernels live in the interp_<family>.c files. */
#include "interp/interp_internal.h"
#include "graph/refine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

static struct interp_value *iv_alloc(enum interp_value_kind kind)
{
    struct interp_value *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    atomic_init(&v->refs, 1);
    v->kind = kind;
    return v;
}

struct interp_value *interp_value_tensor(struct base_tensor *t)
{
    if (!t) return NULL;
    struct interp_value *v = iv_alloc(IV_TENSOR);
    if (!v) {
        base_tensor_release(t);
        return NULL;
    }
    v->t = t;
    return v;
}

struct interp_value *interp_value_token(void) { return iv_alloc(IV_TOKEN); }

struct interp_value *interp_value_tuple(int n, struct interp_value **elems)
{
    struct interp_value *v = iv_alloc(IV_TUPLE);
    struct interp_value **copy = n ? malloc((size_t)n * sizeof *copy) : NULL;
    if (!v || (n && !copy)) {
        free(v);
        free(copy);
        for (int i = 0; i < n; i++) interp_value_release(elems[i]);
        return NULL;
    }
    if (n) memcpy(copy, elems, (size_t)n * sizeof *copy);
    v->n = n;
    v->elems = copy;
    return v;
}

struct interp_value *interp_value_retain(struct interp_value *v)
{
    if (v) atomic_fetch_add(&v->refs, 1);
    return v;
}

void interp_value_release(struct interp_value *v)
{
    if (!v || atomic_fetch_sub(&v->refs, 1) != 1) return;
    base_tensor_release(v->t);
    for (int i = 0; i < v->n; i++) interp_value_release(v->elems[i]);
    free(v->elems);
    free(v);
}

/* ------------------------------------------------------------------------ */
/* Run state                                                                 */

/* Liveness, computed once per module: after op X runs, the values in
 * dead[dead_start[X.id] .. dead_start[X.id + 1]) are no longer needed. */
struct interp_liveness {
    uint32_t *dead_start; /* n_ops + 1 */
    uint32_t *dead;
};

struct interp_ctx {
    const struct graph_module *m;
    const struct interp_options *opt;
    int num_replicas;
    int num_partitions;
    interp_kernel_fn kernels[GRAPH_OP_COUNT];
    struct interp_liveness *live;
    bool owns_live;
    struct interp_coll *coll;
};

/* For each op X of block b: every value defined in b and used by X or by an
 * op nested in X has X as its (latest) user. */
static void mark_block(const struct graph_block *b, const struct graph_op *user, const struct graph_op *op,
                       const struct graph_op **last)
{
    for (int i = 0; i < op->n_operands; i++) {
        const struct graph_value *v = op->operands[i];
        const struct graph_block *vb = v->def ? v->def->parent : v->block;
        if (vb == b) last[v->id] = user;
    }
    for (int r = 0; r < op->n_regions; r++)
        for (int k = 0; k < op->regions[r].n_blocks; k++) {
            const struct graph_block *nb = &op->regions[r].blocks[k];
            for (int j = 0; j < nb->n_ops; j++) mark_block(b, user, nb->ops[j], last);
        }
}

static void liveness_block(const struct graph_block *b, const struct graph_op **last)
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int r = 0; r < op->n_results; r++) last[op->results[r].id] = op; /* dead at once if unused */
        mark_block(b, op, op, last);
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) liveness_block(&op->regions[r].blocks[k], last);
    }
}

const struct graph_op **interp_last_users(const struct graph_module *m)
{
    const struct graph_op **last = calloc(m->n_values ? m->n_values : 1, sizeof *last);
    if (last) liveness_block(&m->body, last);
    return last;
}

static struct interp_liveness *liveness_create(const struct graph_module *m)
{
    const struct graph_op **last = interp_last_users(m);
    struct interp_liveness *lv = calloc(1, sizeof *lv);
    uint32_t *count = calloc((size_t)m->n_ops + 2, sizeof *count);
    if (!last || !lv || !count) goto oom;
    for (uint32_t v = 0; v < m->n_values; v++)
        if (last[v]) count[last[v]->id + 1]++;
    lv->dead_start = calloc((size_t)m->n_ops + 1, sizeof *lv->dead_start);
    lv->dead = calloc(m->n_values ? m->n_values : 1, sizeof *lv->dead);
    if (!lv->dead_start || !lv->dead) goto oom;
    for (uint32_t i = 0; i < m->n_ops; i++) lv->dead_start[i + 1] = lv->dead_start[i] + count[i + 1];
    memset(count, 0, ((size_t)m->n_ops + 2) * sizeof *count);
    for (uint32_t v = 0; v < m->n_values; v++)
        if (last[v]) {
            uint32_t id = last[v]->id;
            lv->dead[lv->dead_start[id] + count[id]++] = v;
        }
    free(last);
    free(count);
    return lv;
oom:
    free(last);
    free(count);
    if (lv) {
        free(lv->dead_start);
        free(lv->dead);
        free(lv);
    }
    return NULL;
}

static void liveness_destroy(struct interp_liveness *lv)
{
    if (!lv) return;
    free(lv->dead_start);
    free(lv->dead);
    free(lv);
}

static void register_all(interp_kernel_fn *table)
{
    interp_register_control(table);
    interp_register_elementwise(table);
    interp_register_shape(table);
    interp_register_reduce(table);
    interp_register_linalg(table);
    interp_register_collective(table);
    interp_register_quant(table);
    interp_register_check(table);
    interp_register_rng(table);
}

static struct interp_ctx *run_create(const struct graph_module *m, const struct interp_options *opt,
                                     int num_replicas, int num_partitions, struct interp_liveness *live)
{
    struct interp_ctx *run = calloc(1, sizeof *run);
    if (!run) return NULL;
    run->m = m;
    run->opt = opt;
    run->num_replicas = num_replicas;
    run->num_partitions = num_partitions;
    register_all(run->kernels);
    if (live) {
        run->live = live;
    } else {
        run->live = liveness_create(m);
        run->owns_live = true;
    }
    run->coll = interp_coll_create(num_replicas * num_partitions);
    if (!run->live || !run->coll) {
        interp_ctx_destroy(run);
        return NULL;
    }
    return run;
}

struct interp_ctx *interp_ctx_create(const struct graph_module *m, const struct interp_options *opt,
                                     int num_replicas, int num_partitions)
{
    return run_create(m, opt, num_replicas, num_partitions, NULL);
}

void interp_ctx_destroy(struct interp_ctx *run)
{
    if (!run) return;
    if (run->owns_live) liveness_destroy(run->live);
    interp_coll_destroy(run->coll);
    free(run);
}

/* ------------------------------------------------------------------------ */
/* Errors and small helpers                                                  */

enum base_status interp_fail(struct interp_proc *p, const struct graph_op *op, enum base_status st,
                             const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (op && st == BASE_ERR_NOMEM) {
        /* the one form of an out-of-memory error: what the op makes, and
         * what is left (base_diag_nomem) */
        uint64_t needed = 0;
        for (int i = 0; i < op->n_results; i++) {
            const struct graph_type *t = op->results[i].type;
            int64_t c = t && t->kind == GRAPH_TYPE_TENSOR && graph_type_is_static(t) ? graph_type_count(t) : 0;
            if (c > 0) needed += (uint64_t)c * base_dtype_size(t->elem);
        }
        bool plain = !strcmp(msg, "out of memory");
        base_diag_nomem(&p->diag, op->loc.file, op->loc.line, op->loc.col, needed, "%s%s%s", op->name,
                        plain ? "" : ": ", plain ? "" : msg);
        return st;
    }
    if (op)
        base_diag_set(&p->diag, st, op->loc.file, op->loc.line, op->loc.col, "%s: %s", op->name, msg);
    else
        base_diag_set(&p->diag, st, NULL, 0, 0, "%s", msg);
    return st;
}

int interp_i64_list(const struct graph_attr *a, int64_t *out, int cap)
{
    return a ? graph_attr_as_i64_list(a, out, cap) : 0;
}

const struct graph_type *interp_result_type(const struct graph_op *op, int i)
{
    return op->results[i].type;
}

enum base_dtype interp_result_dtype(struct interp_proc *p, const struct graph_op *op, int i)
{
    const struct graph_type *t = op->results[i].type;
    if (t->quant && p->dequant_mode) return t->quant->expressed;
    return t->elem;
}

enum base_status interp_alloc_result(struct interp_proc *p, const struct graph_op *op, int i,
                                     struct base_tensor **out)
{
    const struct graph_type *t = op->results[i].type;
    *out = NULL;
    if (t->kind != GRAPH_TYPE_TENSOR)
        return interp_fail(p, op, BASE_ERR_INTERNAL, "result %d is not a tensor", i);
    if (!graph_type_is_static(t))
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "result %d has a dynamic shape", i);
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, i), t->rank, t->dims, out);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate result %d", i);
    return BASE_OK;
}

enum base_status interp_set_out(struct interp_proc *p, const struct graph_op *op, struct interp_value **out, int i,
                                struct base_tensor *t)
{
    out[i] = interp_value_tensor(t);
    if (!out[i]) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory for result %d", i);
    return BASE_OK;
}

enum base_status interp_set_outs(struct interp_proc *p, const struct graph_op *op, enum base_status st,
                                 struct interp_value **out, struct base_tensor **res, int n)
{
    for (int i = 0; i < n; i++) {
        if (st == BASE_OK) st = interp_set_out(p, op, out, i, res[i]);
        else base_tensor_release(res[i]);
        res[i] = NULL;
    }
    return st;
}

void interp_values_release(struct interp_value **v, int n)
{
    for (int i = 0; i < n; i++) {
        interp_value_release(v[i]);
        v[i] = NULL;
    }
}

void interp_index_from_linear(int rank, const int64_t *dims, int64_t linear, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        int64_t n = dims[d] > 0 ? dims[d] : 1;
        idx[d] = linear % n;
        linear /= n;
    }
}

int64_t interp_linear_from_index(int rank, const int64_t *dims, const int64_t *idx)
{
    int64_t lin = 0;
    for (int d = 0; d < rank; d++) lin = lin * dims[d] + idx[d];
    return lin;
}

bool interp_index_next(int rank, const int64_t *dims, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        if (++idx[d] < dims[d]) return true;
        idx[d] = 0;
    }
    return false;
}

void interp_record_check(struct interp_proc *p, const struct graph_op *op, bool passed, const char *fmt, ...)
{
    if (p->n_checks == p->cap_checks) {
        int cap = p->cap_checks ? p->cap_checks * 2 : 16;
        struct interp_check_result *nc = realloc(p->checks, (size_t)cap * sizeof *nc);
        if (!nc) return; /* the check is lost, but a failing one still counts */
        p->checks = nc;
        p->cap_checks = cap;
    }
    struct interp_check_result *c = &p->checks[p->n_checks++];
    memset(c, 0, sizeof *c);
    c->passed = passed;
    c->loc = op->loc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->what, sizeof c->what, fmt, ap);
    va_end(ap);
    if (!passed) p->n_checks_failed++;
}

/* ------------------------------------------------------------------------ */
/* Execution                                                                 */

/* Ops that pass quantized values through untouched or handle quantization
 * themselves; every other op on quantized types runs as dequantize -> op ->
 * quantize, as the spec defines most ops on quantized tensors. */
static bool handles_quant_itself(const struct graph_op *op)
{
    switch (graph_op_kind_cat(op->kind)) {
    case GRAPH_CAT_CONTROL:
    case GRAPH_CAT_CHECK:
    case GRAPH_CAT_QUANT:
    case GRAPH_CAT_META:
        return true;
    default:
        break;
    }
    switch (op->kind) {
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_TUPLE:
    case GRAPH_OP_GET_TUPLE_ELEMENT:
    case GRAPH_OP_CUSTOM_CALL:
    case GRAPH_OP_BITCAST_CONVERT:
    case GRAPH_OP_AFTER_ALL:
    case GRAPH_OP_CREATE_TOKEN:
        return true;
    default:
        return false;
    }
}

static bool type_is_quant(const struct graph_type *t)
{
    return t->kind == GRAPH_TYPE_TENSOR && t->quant;
}

static bool op_uses_quant(const struct graph_op *op)
{
    for (int i = 0; i < op->n_operands; i++)
        if (type_is_quant(op->operands[i]->type)) return true;
    for (int i = 0; i < op->n_results; i++)
        if (type_is_quant(op->results[i].type)) return true;
    return false;
}

static enum base_status run_kernel(struct interp_proc *p, const struct graph_op *op, interp_kernel_fn k,
                                   struct interp_value *const *in, struct interp_value **out)
{
    if (handles_quant_itself(op) || !op_uses_quant(op)) return k(p, op, in, out);

    /* dequantize -> op -> quantize */
    enum base_status st = BASE_OK;
    int n = op->n_operands;
    struct interp_value **deq = calloc((size_t)(n ? n : 1), sizeof *deq);
    if (!deq) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n && st == BASE_OK; i++) {
        const struct graph_type *t = op->operands[i]->type;
        if (type_is_quant(t) && in[i]->kind == IV_TENSOR) {
            struct base_tensor *f = NULL;
            st = interp_dequantize(t->quant, in[i]->t, &f);
            if (st != BASE_OK) {
                interp_fail(p, op, st, "cannot dequantize operand %d", i);
                break;
            }
            deq[i] = interp_value_tensor(f);
            if (!deq[i]) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        } else {
            deq[i] = interp_value_retain(in[i]);
        }
    }
    if (st == BASE_OK) {
        bool saved = p->dequant_mode;
        p->dequant_mode = true;
        st = k(p, op, deq, out);
        p->dequant_mode = saved;
    }
    for (int i = 0; i < n; i++) interp_value_release(deq[i]);
    free(deq);
    if (st != BASE_OK) return st;
    /* Inside the region of a dequantized op (reduce_window, sort, all_reduce
     * ... on quantized types) the enclosing kernel works on expressed values:
     * results stay expressed (interp_dequantize passes expressed operands
     * through). */
    if (p->dequant_mode) return BASE_OK;
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *t = op->results[i].type;
        if (!type_is_quant(t) || !out[i] || out[i]->kind != IV_TENSOR) continue;
        if (out[i]->t->dtype == t->elem) continue; /* kernel kept storage */
        struct base_tensor *q = NULL;
        st = interp_quantize(t->quant, out[i]->t, &q);
        if (st != BASE_OK) return interp_fail(p, op, st, "cannot quantize result %d", i);
        interp_value_release(out[i]);
        out[i] = interp_value_tensor(q);
        if (!out[i]) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    return BASE_OK;
}

#define INLINE_OPERANDS 16

/* An op whose result types have '?' dimensions (a dynamic program run as it
 * is): its results' shapes come from its operands' values, by shape
 * refinement's rules (graph_refine_op_shapes), and the kernel runs on a
 * copy of the op whose result types are those static shapes.  Control flow
 * and calls take their shapes from their regions and callees. */
static bool needs_shapes(const struct graph_op *op)
{
    if (op->kind == GRAPH_OP_CALL || op->kind == GRAPH_OP_COMPOSITE ||
        (op->n_regions && graph_op_kind_has(op->kind, GRAPH_OPF_CONTROL_FLOW)))
        return false;
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *t = op->results[i].type;
        if (t && t->kind == GRAPH_TYPE_TENSOR && !graph_type_is_static(t)) return true;
    }
    return false;
}

static enum base_status run_kernel_shaped(struct interp_proc *p, const struct graph_op *op, interp_kernel_fn k,
                                          struct interp_value *const *in, struct interp_value **out)
{
    int n = op->n_results, m = op->n_operands;
    const struct base_tensor **ts = calloc((size_t)m + 1, sizeof *ts);
    int *ranks = calloc((size_t)n + 1, sizeof *ranks);
    int64_t(*dims)[GRAPH_MAX_RANK] = calloc((size_t)n + 1, sizeof *dims);
    struct graph_value *res = calloc((size_t)n + 1, sizeof *res);
    struct graph_type *types = calloc((size_t)n + 1, sizeof *types);
    enum base_status st;
    if (!ts || !ranks || !dims || !res || !types) {
        st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < m; i++) ts[i] = iv_t(in[i]);
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_refine_op_shapes(op, ts, ranks, dims, &d) != BASE_OK) {
        st = run_kernel(p, op, k, in, out); /* the kernel may know better (or say why not) */
        goto done;
    }
    struct graph_op shaped = *op;
    for (int i = 0; i < n; i++) {
        res[i] = op->results[i];
        types[i] = *op->results[i].type;
        if (types[i].kind == GRAPH_TYPE_TENSOR) {
            types[i].rank = ranks[i];
            memcpy(types[i].dims, dims[i], sizeof types[i].dims);
            types[i].encoding = NULL;
        }
        res[i].type = &types[i];
    }
    shaped.results = res;
    st = run_kernel(p, &shaped, k, in, out);
done:
    free(ts);
    free(ranks);
    free(dims);
    free(res);
    free(types);
    return st;
}

/* A kernel's tensor results against the op's declared result types (shape
 * and element type): the verifier follows the upstream one, which leaves some
 * result shapes to the run (all_gather's gathered size, for one), and later
 * ops trust the types. */
static enum base_status check_result_shapes(struct interp_proc *p, const struct graph_op *op,
                                            struct interp_value *const *out)
{
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *ty = op->results[i].type;
        const struct base_tensor *t = iv_t(out[i]);
        if (!t || !ty || ty->kind != GRAPH_TYPE_TENSOR || ty->rank < 0) continue;
        bool ok = t->rank == ty->rank && t->dtype == interp_result_dtype(p, op, i);
        for (int d = 0; ok && d < ty->rank; d++) ok = ty->dims[d] == GRAPH_DYN || ty->dims[d] == t->dims[d];
        if (!ok) {
            char want[160], got[160];
            graph_type_str(ty, want, sizeof want);
            base_tensor_type_str(t, got, sizeof got);
            return interp_fail(p, op, BASE_ERR_INVALID, "result %d is tensor<%s> but the op's type says %s", i, got,
                               want);
        }
    }
    return BASE_OK;
}

/* Lazy operands (procedural random inputs, weight files: values computed
 * when read) stay lazy where an op reads only part of them or passes them
 * on: the sliced operand of slice and dynamic_slice (slice_common reads just
 * the slice), a call's arguments, a manual computation's operands (each
 * process gets a lazy view of its shard).  Everywhere else the op gets its
 * values for its own run (*owned: the stored copies, released after the op),
 * so no lazy value is ever stored for longer than one op. */
bool interp_keeps_lazy(const struct graph_op *op, int i)
{
    switch (op->kind) {
    case GRAPH_OP_SLICE:
    case GRAPH_OP_DYNAMIC_SLICE:
    case GRAPH_OP_REAL_DYNAMIC_SLICE: return i == 0;
    case GRAPH_OP_CALL:
    case GRAPH_OP_SDY_MANUAL_COMPUTATION: return true;
    default: return false;
    }
}

static enum base_status materialize_operands(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value **in, struct interp_value ***owned)
{
    *owned = calloc((size_t)op->n_operands + 1, sizeof **owned);
    if (!*owned) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; i < op->n_operands; i++) {
        struct base_tensor *t = iv_t(in[i]);
        if (!t || !t->lazy || interp_keeps_lazy(op, i)) continue;
        struct base_tensor *d = NULL;
        enum base_status st = base_tensor_materialize(t, &d);
        if (st != BASE_OK) {
            char ty[96];
            base_tensor_type_str(t, ty, sizeof ty);
            return interp_fail(p, op, st, "%s reading operand %d (tensor<%s>, %zu bytes)",
                               st == BASE_ERR_NOMEM ? "out of memory" : "cannot compute the values of", i, ty,
                               base_tensor_nbytes(t));
        }
        (*owned)[i] = interp_value_tensor(d);
        if (!(*owned)[i]) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        in[i] = (*owned)[i];
    }
    return BASE_OK;
}

static enum base_status exec_op(struct interp_proc *p, const struct graph_op *op)
{
    interp_kernel_fn k = p->run->kernels[op->kind];
    if (!k) {
        if (op->kind == GRAPH_OP_UNKNOWN)
            return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "unknown op is not supported by the interpreter");
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "op is not supported by the interpreter");
    }
    struct interp_value *in_small[INLINE_OPERANDS], *out_small[INLINE_OPERANDS];
    struct interp_value **in = in_small, **out = out_small, **owned = NULL;
    if (op->n_operands > INLINE_OPERANDS) in = malloc((size_t)op->n_operands * sizeof *in);
    if (op->n_results > INLINE_OPERANDS) out = calloc((size_t)op->n_results, sizeof *out);
    else memset(out_small, 0, sizeof out_small);
    enum base_status st = BASE_OK;
    if (!in || !out) {
        st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    bool any_lazy = false;
    for (int i = 0; i < op->n_operands; i++) {
        in[i] = p->env[op->operands[i]->id];
        if (!in[i]) {
            st = interp_fail(p, op, BASE_ERR_INTERNAL, "operand %d (%%%s) has no value", i,
                             op->operands[i]->name ? op->operands[i]->name : "?");
            goto done;
        }
        if (iv_t(in[i]) && iv_t(in[i])->lazy) any_lazy = true;
    }
    if (any_lazy) {
        st = materialize_operands(p, op, in, &owned);
        if (st != BASE_OK) goto done;
    }
    st = needs_shapes(op) ? run_kernel_shaped(p, op, k, in, out) : run_kernel(p, op, k, in, out);
    if (st == BASE_OK) {
        for (int i = 0; i < op->n_results; i++) {
            if (!out[i]) {
                st = interp_fail(p, op, BASE_ERR_INTERNAL, "kernel produced no result %d", i);
                break;
            }
        }
    }
    if (st == BASE_OK) st = check_result_shapes(p, op, out);
    if (st != BASE_OK) {
        for (int i = 0; i < op->n_results; i++) interp_value_release(out[i]);
        goto done;
    }
    for (int i = 0; i < op->n_results; i++) {
        uint32_t id = op->results[i].id;
        interp_value_release(p->env[id]);
        p->env[id] = out[i];
    }
    if (p->process_id == 0 && p->opt && p->opt->on_op) p->opt->on_op(p->opt->op_user);
done:
    if (owned) {
        interp_values_release(owned, op->n_operands);
        free(owned);
    }
    if (in != in_small) free(in);
    if (out != out_small) free(out);
    return st;
}

static void release_dead(struct interp_proc *p, const struct graph_op *op)
{
    const struct interp_liveness *lv = p->run->live;
    for (uint32_t j = lv->dead_start[op->id]; j < lv->dead_start[op->id + 1]; j++) {
        uint32_t v = lv->dead[j];
        interp_value_release(p->env[v]);
        p->env[v] = NULL;
    }
}

/* Drops whatever the block still holds (after an error, or unused args). */
static void clear_block(struct interp_proc *p, const struct graph_block *b, int upto)
{
    for (int a = 0; a < b->n_args; a++) {
        interp_value_release(p->env[b->args[a].id]);
        p->env[b->args[a].id] = NULL;
    }
    for (int i = 0; i < upto && i < b->n_ops; i++)
        for (int r = 0; r < b->ops[i]->n_results; r++) {
            uint32_t id = b->ops[i]->results[r].id;
            interp_value_release(p->env[id]);
            p->env[id] = NULL;
        }
}

static enum base_status exec_block(struct interp_proc *p, const struct graph_block *b, int n_args,
                                   struct interp_value *const *args, struct interp_value **results, int cap,
                                   int *n_results)
{
    *n_results = 0;
    if (n_args != b->n_args) {
        const struct graph_op *owner = b->parent ? b->parent->parent : NULL;
        return interp_fail(p, owner, BASE_ERR_INVALID, "region expects %d arguments, got %d", b->n_args, n_args);
    }
    for (int a = 0; a < n_args; a++) {
        interp_value_release(p->env[b->args[a].id]);
        p->env[b->args[a].id] = interp_value_retain(args[a]);
    }
    enum base_status st = BASE_OK;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR)) {
            if (op->n_operands > cap) {
                st = interp_fail(p, op, BASE_ERR_INVALID, "returns %d values, %d expected", op->n_operands, cap);
                clear_block(p, b, i);
                return st;
            }
            for (int r = 0; r < op->n_operands; r++) {
                struct interp_value *v = p->env[op->operands[r]->id];
                if (!v) {
                    for (int q = 0; q < r; q++) interp_value_release(results[q]);
                    st = interp_fail(p, op, BASE_ERR_INTERNAL, "returned value %d has no value", r);
                    clear_block(p, b, i);
                    return st;
                }
                results[r] = interp_value_retain(v);
            }
            *n_results = op->n_operands;
            release_dead(p, op);
            clear_block(p, b, 0); /* args that were never used */
            return BASE_OK;
        }
        st = exec_op(p, op);
        if (st != BASE_OK) {
            clear_block(p, b, i + 1);
            return st;
        }
        release_dead(p, op);
    }
    clear_block(p, b, 0);
    return BASE_OK; /* a block without terminator returns nothing */
}

enum base_status interp_call_region(struct interp_proc *p, const struct graph_region *r, int n_args,
                                    struct interp_value *const *args, struct interp_value **results, int cap,
                                    int *n_results)
{
    *n_results = 0;
    if (r->n_blocks < 1) return interp_fail(p, r->parent, BASE_ERR_INVALID, "empty region");
    if (r->n_blocks > 1)
        return interp_fail(p, r->parent, BASE_ERR_UNSUPPORTED, "regions with several blocks are not supported");
    return exec_block(p, &r->blocks[0], n_args, args, results, cap, n_results);
}

enum base_status interp_call_func(struct interp_proc *p, const struct graph_op *func, int n_args,
                                  struct interp_value *const *args, struct interp_value **results, int cap,
                                  int *n_results)
{
    int max_depth = p->opt && p->opt->max_call_depth ? p->opt->max_call_depth : 256;
    *n_results = 0;
    if (func->n_regions < 1 || func->regions[0].n_blocks < 1)
        return interp_fail(p, func, BASE_ERR_UNSUPPORTED, "function @%s has no body (declaration only)",
                           graph_func_name(func));
    if (p->call_depth >= max_depth)
        return interp_fail(p, func, BASE_ERR_LIMIT, "call depth limit %d reached in @%s", max_depth,
                           graph_func_name(func));
    /* Values live in one environment per process, indexed by SSA id, so a
     * function may not be active twice at once. */
    for (int i = 0; i < p->call_depth; i++)
        if (p->call_stack[i] == func)
            return interp_fail(p, func, BASE_ERR_UNSUPPORTED, "recursive call of @%s", graph_func_name(func));
    const struct graph_block *b = &func->regions[0].blocks[0];
    if (n_args != b->n_args)
        return interp_fail(p, func, BASE_ERR_INVALID, "@%s takes %d arguments, got %d", graph_func_name(func),
                           b->n_args, n_args);
    p->call_stack[p->call_depth++] = func;
    enum base_status st = exec_block(p, b, n_args, args, results, cap, n_results);
    p->call_depth--;
    return st;
}

enum base_dtype interp_region_arg_dtype(const struct graph_region *r, int i, enum base_dtype fallback)
{
    if (r->n_blocks < 1 || i >= r->blocks[0].n_args) return fallback;
    const struct graph_type *t = r->blocks[0].args[i].type;
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant) return fallback;
    return t->elem;
}

bool interp_store_scalar(const struct interp_value *v, struct base_tensor *t, int64_t i)
{
    const struct base_tensor *s = iv_t(v);
    if (!s || s->count != 1) return false;
    size_t es = base_dtype_size(t->dtype);
    char *dst = (char *)t->data + (size_t)i * es;
    if (s->dtype == t->dtype) memcpy(dst, s->data, es);
    else base_convert(t->dtype, dst, s->dtype, s->data, 1);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Processes                                                                 */

static enum base_status proc_init(struct interp_proc *p, struct interp_ctx *run, int process_id)
{
    memset(p, 0, sizeof *p);
    p->run = run;
    p->module = run->m;
    p->opt = run->opt;
    p->num_replicas = run->num_replicas;
    p->num_partitions = run->num_partitions;
    p->process_id = process_id;
    p->replica_id = process_id / run->num_partitions;
    p->partition_id = process_id % run->num_partitions;
    p->env = calloc(run->m->n_values ? run->m->n_values : 1, sizeof *p->env);
    int max_depth = run->opt && run->opt->max_call_depth ? run->opt->max_call_depth : 256;
    p->call_stack = calloc((size_t)max_depth + 1, sizeof *p->call_stack);
    if (!p->env || !p->call_stack) return BASE_ERR_NOMEM;
    return BASE_OK;
}

static void proc_deinit(struct interp_proc *p)
{
    if (p->env)
        for (uint32_t i = 0; i < p->module->n_values; i++) interp_value_release(p->env[i]);
    free(p->env);
    free(p->call_stack);
    free(p->checks);
    interp_probes_free(p);
}

struct proc_job {
    struct interp_proc proc;
    const struct graph_op *func;
    const struct graph_op *op;    /* instead of func: run this op's kernel on args */
    int n_args;
    struct interp_value **args;   /* borrowed */
    struct interp_value **results;
    int cap, n_results;
    enum base_status st;
};

static void *proc_thread(void *arg)
{
    struct proc_job *j = arg;
    if (j->op) {
        interp_kernel_fn fn = j->proc.run->kernels[j->op->kind];
        j->st = fn ? run_kernel(&j->proc, j->op, fn, j->args, j->results)
                   : interp_fail(&j->proc, j->op, BASE_ERR_UNSUPPORTED, "%s: no kernel", j->op->name);
        j->n_results = j->st == BASE_OK ? j->op->n_results : 0;
        if (j->st != BASE_OK) interp_values_release(j->results, j->op->n_results);
    } else {
        j->st = interp_call_func(&j->proc, j->func, j->n_args, j->args, j->results, j->cap, &j->n_results);
    }
    if (j->st != BASE_OK) interp_coll_abort(j->proc.run->coll);
    else if (!j->op) interp_coll_process_done(j->proc.run->coll); /* an op job's process goes on to the next */
    return NULL;
}

/* Runs jobs[i] as process i of run; one thread each when there are several.
 * Returns the first failing process's status (its diag is in jobs[i].proc). */
static enum base_status run_jobs(struct proc_job *jobs, int n)
{
    if (n == 1) {
        proc_thread(&jobs[0]);
        return jobs[0].st;
    }
    pthread_t *tids = calloc((size_t)n, sizeof *tids);
    bool *started = calloc((size_t)n, sizeof *started);
    if (!tids || !started) {
        free(tids);
        free(started);
        return BASE_ERR_NOMEM;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)16 << 20); /* deep region nesting */
    enum base_status st = BASE_OK;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&tids[i], &attr, proc_thread, &jobs[i]) != 0) {
            jobs[i].st = BASE_ERR_RUNTIME;
            base_diag_set(&jobs[i].proc.diag, BASE_ERR_RUNTIME, NULL, 0, 0, "cannot start process thread %d", i);
            interp_coll_abort(jobs[i].proc.run->coll);
            continue;
        }
        started[i] = true;
    }
    pthread_attr_destroy(&attr);
    for (int i = 0; i < n; i++)
        if (started[i]) pthread_join(tids[i], NULL);
    for (int i = 0; i < n; i++)
        if (jobs[i].st != BASE_OK && st == BASE_OK) st = jobs[i].st;
    free(tids);
    free(started);
    return st;
}

/* The first diag that is a real cause (not an abort caused by another process). */
static const struct base_diag *first_cause(struct proc_job *jobs, int n)
{
    const struct base_diag *any = NULL;
    for (int i = 0; i < n; i++) {
        if (jobs[i].st == BASE_OK) continue;
        if (!any) any = &jobs[i].proc.diag;
        if (jobs[i].st != BASE_ERR_RUNTIME || !strstr(jobs[i].proc.diag.msg, "aborted")) return &jobs[i].proc.diag;
    }
    return any;
}

static void merge_checks(struct interp_proc *dst, const struct interp_proc *src)
{
    for (int i = 0; i < src->n_checks; i++) {
        const struct interp_check_result *c = &src->checks[i];
        if (dst->n_checks == dst->cap_checks) {
            int cap = dst->cap_checks ? dst->cap_checks * 2 : 16;
            struct interp_check_result *nc = realloc(dst->checks, (size_t)cap * sizeof *nc);
            if (!nc) {
                if (!c->passed) dst->n_checks_failed++;
                continue;
            }
            dst->checks = nc;
            dst->cap_checks = cap;
        }
        dst->checks[dst->n_checks++] = *c;
        if (!c->passed) dst->n_checks_failed++;
    }
}

enum base_status interp_ctx_parallel(struct interp_proc *p, const struct graph_op *op,
                                     const struct graph_op *const *funcs, int num_replicas, int num_partitions,
                                     struct interp_value *const *args, const int *n_args,
                                     struct interp_value **results, const int *cap,
                                     const struct graph_op *const *infeed, int n_infeed)
{
    int n = num_replicas * num_partitions;
    struct interp_ctx *run = run_create(p->module, p->opt, num_replicas, num_partitions, p->run->live);
    struct proc_job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!run || !jobs) {
        interp_ctx_destroy(run);
        free(jobs);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    enum base_status st = n_infeed > 0 ? interp_coll_set_infeed(run->coll, infeed, n_infeed) : BASE_OK;
    int arg_off = 0, res_off = 0;
    for (int i = 0; i < n && st == BASE_OK; i++) {
        st = proc_init(&jobs[i].proc, run, i);
        jobs[i].func = funcs[i];
        jobs[i].n_args = n_args[i];
        jobs[i].args = (struct interp_value **)args + arg_off;
        jobs[i].results = results + res_off;
        jobs[i].cap = cap[i];
        arg_off += n_args[i];
        res_off += cap[i];
    }
    if (st == BASE_OK) {
        st = run_jobs(jobs, n);
        if (st != BASE_OK) {
            const struct base_diag *d = first_cause(jobs, n);
            if (d && p->diag.status == BASE_OK) p->diag = *d;
        }
    } else {
        interp_fail(p, op, st, "cannot start processes");
    }
    for (int i = 0; i < n; i++) {
        merge_checks(p, &jobs[i].proc);
        if (st != BASE_OK)
            for (int r = 0; r < jobs[i].n_results; r++) {
                interp_value_release(jobs[i].results[r]);
                jobs[i].results[r] = NULL;
            }
        else if (jobs[i].n_results != cap[i])
            st = interp_fail(p, op, BASE_ERR_INVALID, "process %d returned %d values, %d expected", i,
                             jobs[i].n_results, cap[i]);
        proc_deinit(&jobs[i].proc);
    }
    free(jobs);
    interp_ctx_destroy(run);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Collectives for runtimes that run the partitions elsewhere (graph.h)      */

struct interp_spmd_grid {
    struct interp_options opt;
    struct interp_ctx *run;
};

enum base_status interp_spmd_grid_create(const struct graph_module *m, int num_partitions,
                                        struct interp_spmd_grid **out, struct base_diag *diag)
{
    *out = NULL;
    struct interp_spmd_grid *g = calloc(1, sizeof *g);
    if (g) g->run = run_create(m, &g->opt, 1, num_partitions, NULL);
    if (!g || !g->run) {
        free(g);
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    *out = g;
    return BASE_OK;
}

void interp_spmd_grid_destroy(struct interp_spmd_grid *g)
{
    if (!g) return;
    interp_ctx_destroy(g->run);
    free(g);
}

enum base_status interp_spmd_grid_eval(struct interp_spmd_grid *g, const struct graph_op *op,
                                      struct base_tensor *const *operands, struct base_tensor **results,
                                      struct base_diag *diag)
{
    int n = g->run->num_partitions, ni = op->n_operands, no = op->n_results;
    struct proc_job *jobs = calloc((size_t)n, sizeof *jobs);
    struct interp_value **args = calloc((size_t)(n * ni) + 1, sizeof *args);
    struct interp_value **res = calloc((size_t)(n * no) + 1, sizeof *res);
    enum base_status st = jobs && args && res ? BASE_OK : BASE_ERR_NOMEM;
    for (int i = 0; st == BASE_OK && i < n * ni; i++)
        if (!(args[i] = interp_value_tensor(base_tensor_retain(operands[i])))) st = BASE_ERR_NOMEM;
    int n_init = 0;
    for (int i = 0; st == BASE_OK && i < n; i++, n_init++) {
        st = proc_init(&jobs[i].proc, g->run, i);
        jobs[i].op = op;
        jobs[i].args = args + (size_t)i * ni;
        jobs[i].results = res + (size_t)i * no;
        jobs[i].n_args = ni;
        jobs[i].cap = no;
    }
    if (st != BASE_OK) {
        base_diag_set(diag, st, op->loc.file, op->loc.line, op->loc.col, "%s: out of memory", op->name);
    } else if ((st = run_jobs(jobs, n)) != BASE_OK) {
        const struct base_diag *d = first_cause(jobs, n);
        if (d && diag) *diag = *d;
    }
    for (int i = 0; st == BASE_OK && i < n * no; i++) {
        const struct base_tensor *t = iv_t(res[i]);
        if (!t) {
            st = base_diag_set(diag, BASE_ERR_UNSUPPORTED, op->loc.file, op->loc.line, op->loc.col,
                               "%s: result %d is not a tensor", op->name, i % (no ? no : 1));
            break;
        }
        results[i] = base_tensor_retain((struct base_tensor *)t);
    }
    if (st != BASE_OK)
        for (int i = 0; i < n * no; i++) {
            base_tensor_release(results[i]);
            results[i] = NULL;
        }
    for (int i = 0; i < n_init; i++) proc_deinit(&jobs[i].proc);
    if (args) interp_values_release(args, n * ni);
    if (res) interp_values_release(res, n * no);
    free(jobs);
    free(args);
    free(res);
    return st;
}

enum base_status interp_spmd_grid_eval_local(struct interp_spmd_grid *g, const struct graph_op *op, int partition,
                                            struct base_tensor *const *operands, struct base_tensor **results,
                                            struct base_diag *diag)
{
    if (graph_op_kind_has(op->kind, GRAPH_OPF_COLLECTIVE) || partition < 0 || partition >= g->run->num_partitions)
        return base_diag_set(diag, BASE_ERR_INVALID, op->loc.file, op->loc.line, op->loc.col,
                             "%s: not an op one partition evaluates alone", op->name);
    int ni = op->n_operands, no = op->n_results;
    struct proc_job job;
    memset(&job, 0, sizeof job);
    struct interp_value **args = calloc((size_t)ni + 1, sizeof *args);
    struct interp_value **res = calloc((size_t)no + 1, sizeof *res);
    enum base_status st = args && res ? BASE_OK : BASE_ERR_NOMEM;
    for (int i = 0; st == BASE_OK && i < ni; i++) /* NULL: a token */
        if (!(args[i] = operands[i] ? interp_value_tensor(base_tensor_retain(operands[i])) : interp_value_token()))
            st = BASE_ERR_NOMEM;
    bool init = false;
    if (st == BASE_OK) {
        st = proc_init(&job.proc, g->run, partition);
        init = true;
    }
    if (st != BASE_OK) {
        base_diag_set(diag, st, op->loc.file, op->loc.line, op->loc.col, "%s: out of memory", op->name);
    } else {
        job.op = op;
        job.args = args;
        job.results = res;
        job.n_args = ni;
        job.cap = no;
        interp_kernel_fn fn = g->run->kernels[op->kind];
        job.st = fn ? run_kernel(&job.proc, op, fn, args, res)
                    : interp_fail(&job.proc, op, BASE_ERR_UNSUPPORTED, "op is not supported by the interpreter");
        st = job.st;
        if (st != BASE_OK && diag) *diag = job.proc.diag;
    }
    for (int i = 0; st == BASE_OK && i < no; i++) {
        if (res[i] && res[i]->kind == IV_TOKEN) { /* a token: NULL */
            results[i] = NULL;
            continue;
        }
        const struct base_tensor *t = iv_t(res[i]);
        if (!t) {
            st = base_diag_set(diag, BASE_ERR_UNSUPPORTED, op->loc.file, op->loc.line, op->loc.col,
                               "%s: result %d is not a tensor", op->name, i);
            break;
        }
        results[i] = base_tensor_retain((struct base_tensor *)t);
    }
    if (st != BASE_OK)
        for (int i = 0; i < no; i++) {
            base_tensor_release(results[i]);
            results[i] = NULL;
        }
    if (init) proc_deinit(&job.proc);
    if (args) interp_values_release(args, ni);
    if (res) interp_values_release(res, no);
    free(args);
    free(res);
    return st;
}

bool interp_kind_supported(enum graph_op_kind kind)
{
    if ((unsigned)kind >= GRAPH_OP_COUNT) return false;
    /* cppcheck-suppress uninitvar ; a false positive on the declaration */
    interp_kernel_fn table[GRAPH_OP_COUNT];
    for (int i = 0; i < GRAPH_OP_COUNT; i++) table[i] = NULL;
    register_all(table); /* a few hundred stores: cheaper than keeping a copy */
    return table[kind] != NULL;
}

/* ------------------------------------------------------------------------ */
/* Public entry                                                              */

static enum base_status check_input(const struct graph_op *func, int i, const struct base_tensor *t,
                                    struct base_diag *diag)
{
    const struct graph_block *b = &func->regions[0].blocks[0];
    const struct graph_type *ty = b->args[i].type;
    char want[128], got[128];
    graph_type_str(ty, want, sizeof want);
    base_tensor_type_str(t, got, sizeof got);
    bool ok = ty->kind == GRAPH_TYPE_TENSOR && ty->elem == t->dtype && ty->rank == t->rank;
    for (int d = 0; ok && d < t->rank; d++)
        if (ty->dims[d] != GRAPH_DYN && ty->dims[d] != t->dims[d]) ok = false;
    if (!ok)
        return base_diag_set(diag, BASE_ERR_INVALID, func->loc.file, func->loc.line, func->loc.col,
                             "input %d of @%s: expected %s, got tensor<%s>", i, graph_func_name(func), want, got);
    return BASE_OK;
}

static enum base_status interp_run_impl(const struct graph_module *m, const char *entry,
                                  struct base_tensor *const *inputs, int n_inputs,
                                  const struct interp_options *opt, struct interp_result *res,
                                  struct base_diag *diag)
{
    struct interp_options defaults = {0};
    if (!opt) opt = &defaults;
    memset(res, 0, sizeof *res);
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0,
                             entry ? "no function @%s in the module" : "%smodule must have an entry function @main",
                             entry ? entry : "");
    if (func->n_regions < 1 || func->regions[0].n_blocks < 1)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, func->loc.line, func->loc.col,
                             "function @%s has no body", graph_func_name(func));
    int nr = opt->num_replicas > 0 ? opt->num_replicas : 1;
    int np = opt->num_partitions > 0 ? opt->num_partitions : 1;
    int n = nr * np;
    const struct graph_block *b = &func->regions[0].blocks[0];
    int n_args = b->n_args;
    bool per_process = n > 1 && n_inputs == n_args * n;
    if (n_inputs != n_args && !per_process)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, func->loc.line, func->loc.col,
                             "@%s takes %d inputs, %d given", graph_func_name(func), n_args, n_inputs);
    for (int i = 0; i < n_inputs; i++) TRY(check_input(func, i % (n_args ? n_args : 1), inputs[i], diag));

    int n_out = graph_func_n_results(func);
    struct interp_ctx *run = interp_ctx_create(m, opt, nr, np);
    struct proc_job *jobs = calloc((size_t)n, sizeof *jobs);
    struct interp_value **args = calloc((size_t)(n_inputs ? n_inputs : 1), sizeof *args);
    struct interp_value **outs = calloc((size_t)n * (size_t)(n_out ? n_out : 1), sizeof *outs);
    enum base_status st = BASE_OK;
    if (!run || !jobs || !args || !outs) {
        st = BASE_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < n_inputs; i++) {
        args[i] = interp_value_tensor(base_tensor_retain(inputs[i]));
        if (!args[i]) {
            st = BASE_ERR_NOMEM;
            goto done;
        }
    }
    for (int i = 0; i < n; i++) {
        st = proc_init(&jobs[i].proc, run, i);
        if (st != BASE_OK) goto done;
        jobs[i].func = func;
        jobs[i].n_args = n_args;
        jobs[i].args = per_process ? args + (size_t)i * (size_t)n_args : args;
        jobs[i].results = outs + (size_t)i * (size_t)n_out;
        jobs[i].cap = n_out;
    }
    st = run_jobs(jobs, n);
    if (st != BASE_OK) {
        const struct base_diag *d = first_cause(jobs, n);
        if (d && diag && diag->status == BASE_OK) *diag = *d;
    }
    /* checks are reported even when the run failed later */
    {
        struct interp_proc all;
        memset(&all, 0, sizeof all);
        for (int i = 0; i < n; i++) merge_checks(&all, &jobs[i].proc);
        res->checks = all.checks;
        res->n_checks = all.n_checks;
        res->n_checks_failed = all.n_checks_failed;
    }
    if (st == BASE_OK) {
        res->n_processes = n;
        res->n_outputs = n_out;
        res->outputs = calloc((size_t)n * (size_t)(n_out ? n_out : 1), sizeof *res->outputs);
        if (!res->outputs) {
            st = BASE_ERR_NOMEM;
            goto done;
        }
        for (int i = 0; i < n * n_out; i++) {
            if (!outs[i] || outs[i]->kind != IV_TENSOR) {
                st = base_diag_set(diag, BASE_ERR_UNSUPPORTED, m->path, func->loc.line, func->loc.col,
                                   "output %d of @%s is not a tensor", i % (n_out ? n_out : 1),
                                   graph_func_name(func));
                break;
            }
            /* an input returned as it is may be lazy: outputs are stored */
            st = base_tensor_materialize(outs[i]->t, &res->outputs[i]);
            if (st != BASE_OK) break;
        }
    }
done:
    if (jobs)
        for (int i = 0; i < n; i++)
            if (jobs[i].proc.module) proc_deinit(&jobs[i].proc); /* initialised, if only in part */
    if (outs)
        for (int i = 0; i < n * n_out; i++) interp_value_release(outs[i]);
    if (args)
        for (int i = 0; i < n_inputs; i++) interp_value_release(args[i]);
    free(outs);
    free(args);
    free(jobs);
    interp_ctx_destroy(run);
    if (st != BASE_OK && st != BASE_ERR_NOMEM) {
        /* keep checks, drop outputs */
        if (res->outputs) {
            for (int i = 0; i < res->n_processes * res->n_outputs; i++) base_tensor_release(res->outputs[i]);
            free(res->outputs);
            res->outputs = NULL;
        }
    }
    if (st == BASE_ERR_NOMEM && diag && diag->status == BASE_OK)
        base_diag_set(diag, st, m->path, 0, 0, "out of memory");
    return st;
}

enum base_status interp_run(const struct graph_module *m, const char *entry,
                                  struct base_tensor *const *inputs, int n_inputs,
                                  const struct interp_options *opt, struct interp_result *res,
                                  struct base_diag *diag)
{
    return base_diag_ensure(diag, interp_run_impl(m, entry, inputs, n_inputs, opt, res, diag), "", "interpreting");
}

void interp_result_free(struct interp_result *res)
{
    if (!res) return;
    if (res->outputs)
        for (int i = 0; i < res->n_processes * res->n_outputs; i++) base_tensor_release(res->outputs[i]);
    free(res->outputs);
    free(res->checks);
    memset(res, 0, sizeof *res);
}

struct interp_coll *interp_proc_coll(const struct interp_proc *p) { return p->run->coll; }
