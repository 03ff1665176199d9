/* How much memory the golden interpreter will hold at its peak, from the
 * program alone (docs/memory.md): its values are released after their last
 * use (interp.c's liveness), so the peak is the largest set of values alive
 * at once, walked in program order with the same liveness, plus what an op
 * holds while it runs (lazy operands it reads whole, the values inside its
 * regions, a manual computation's shards). */
#include "interp/interp_internal.h"

#include <stdlib.h>
#include <string.h>

struct mem_est {
    const struct graph_module *m;
    const struct graph_op **last;
    uint8_t *lazy;  /* per value id: its values are computed when read */
    uint64_t *held; /* per value id: the bytes it holds while alive */
    uint64_t *memo; /* per op id: a called function's peak + 1, once known */
    int depth;
};

static uint64_t type_bytes(const struct graph_type *t)
{
    if (!t) return 0;
    if (t->kind == GRAPH_TYPE_TENSOR) {
        if (t->rank < 0) return 0;
        uint64_t n = 1;
        for (int d = 0; d < t->rank; d++) n *= t->dims[d] == GRAPH_DYN ? 1 : (uint64_t)t->dims[d];
        return n * base_dtype_size(t->elem);
    }
    uint64_t s = 0;
    for (int i = 0; i < t->n_elems; i++) s += type_bytes(t->elems[i]);
    return s;
}

static uint64_t block_peak(struct mem_est *e, const struct graph_block *b, uint64_t procs);

static uint64_t region_peak(struct mem_est *e, const struct graph_op *op, uint64_t procs)
{
    uint64_t worst = 0;
    for (int r = 0; r < op->n_regions; r++)
        for (int k = 0; k < op->regions[r].n_blocks; k++) {
            uint64_t p = block_peak(e, &op->regions[r].blocks[k], procs);
            if (p > worst) worst = p;
        }
    return worst;
}

/* An op whose result shares its operand's storage (no new bytes) when that
 * operand is stored. */
static bool shares_storage(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_GET_TUPLE_ELEMENT:
    case GRAPH_OP_TUPLE:
    case GRAPH_OP_OPTIMIZATION_BARRIER: return true;
    default: return false;
    }
}

/* What op holds while it runs besides its results: nested values, shards. */
static uint64_t op_inner(struct mem_est *e, const struct graph_op *op, uint64_t procs)
{
    if (e->depth > 64) return 0;
    e->depth++;
    uint64_t inner = 0;
    if (op->kind == GRAPH_OP_CALL) {
        const struct graph_attr *callee = graph_op_attr(op, "callee");
        char name[256] = "";
        if (callee && callee->kind == GRAPH_ATTR_SYMBOL && callee->u.str.len < sizeof name) {
            memcpy(name, callee->u.str.s, callee->u.str.len);
            name[callee->u.str.len] = 0;
        }
        const struct graph_op *f = name[0] ? graph_module_find_func(e->m, name) : NULL;
        if (f && f->n_regions && f->regions[0].n_blocks && e->memo[f->id]) {
            inner = e->memo[f->id] - 1; /* a function called again: its peak once found */
        } else if (f && f->n_regions && f->regions[0].n_blocks) {
            const struct graph_block *fb = &f->regions[0].blocks[0];
            for (int i = 0; i < fb->n_args && i < op->n_operands; i++) e->lazy[fb->args[i].id] = e->lazy[op->operands[i]->id];
            inner = block_peak(e, fb, procs);
            e->memo[f->id] = inner + 1;
        }
    } else if (op->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION && op->n_regions && op->regions[0].n_blocks) {
        const struct graph_block *body = &op->regions[0].blocks[0];
        uint64_t shards = 0;
        for (int i = 0; i < body->n_args && i < op->n_operands; i++) {
            uint8_t lz = e->lazy[op->operands[i]->id];
            e->lazy[body->args[i].id] = lz;
            uint64_t whole = type_bytes(op->operands[i]->type), local = type_bytes(body->args[i].type);
            if (!lz && local < whole) shards += local; /* a stored operand is cut into a copy */
        }
        inner = shards * procs + block_peak(e, body, procs);
    } else if (op->n_regions) {
        inner = region_peak(e, op, procs);
        if (op->kind == GRAPH_OP_WHILE) /* the next state is made while the last is held */
            for (int r = 0; r < op->n_results; r++) inner += type_bytes(op->results[r].type) * procs;
    }
    e->depth--;
    return inner;
}

/* Values whose last user is `user`, used by op (or inside its regions):
 * what they held is released. */
static void release_dead(struct mem_est *e, const struct graph_op *user, const struct graph_op *op, uint64_t *live)
{
    for (int i = 0; i < op->n_operands; i++) {
        uint32_t id = op->operands[i]->id;
        if (e->last[id] == user && e->held[id]) {
            *live -= e->held[id];
            e->held[id] = 0;
        }
    }
    for (int r = 0; r < op->n_regions; r++)
        for (int k = 0; k < op->regions[r].n_blocks; k++)
            for (int j = 0; j < op->regions[r].blocks[k].n_ops; j++)
                release_dead(e, user, op->regions[r].blocks[k].ops[j], live);
}

static uint64_t block_peak(struct mem_est *e, const struct graph_block *b, uint64_t procs)
{
    uint64_t live = 0, peak = 0;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR)) break;
        uint64_t res = 0, trans = 0;
        bool lazy_in = false;
        for (int k = 0; k < op->n_operands; k++) {
            if (!e->lazy[op->operands[k]->id]) continue;
            lazy_in = true;
            if (!interp_keeps_lazy(op, k) && !shares_storage(op)) trans += type_bytes(op->operands[k]->type);
        }
        /* a manual computation's results are assembled once and shared by
         * every process; everything else each process makes for itself */
        uint64_t per = op->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION ? 1 : procs;
        bool shares = shares_storage(op) && !lazy_in;
        for (int r = 0; r < op->n_results; r++) {
            uint64_t rb = shares ? 0 : type_bytes(op->results[r].type) * per;
            e->held[op->results[r].id] = rb;
            res += rb;
        }
        trans *= procs;
        uint64_t inner = op_inner(e, op, procs);
        if (live + trans + inner + res > peak) peak = live + trans + inner + res;
        live += res;
        for (int r = 0; r < op->n_results; r++) { /* results nobody reads */
            uint32_t id = op->results[r].id;
            if (e->last[id] == op) {
                live -= e->held[id];
                e->held[id] = 0;
            }
        }
        release_dead(e, op, op, &live);
    }
    return peak;
}

uint64_t interp_estimate_peak_bytes(const struct graph_module *m, const char *entry, const bool *lazy_args,
                                    int n_processes)
{
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func || func->n_regions < 1 || func->regions[0].n_blocks < 1) return 0;
    size_t nv = m->n_values ? m->n_values : 1;
    struct mem_est e = {m, interp_last_users(m), calloc(nv, 1), calloc(nv, sizeof(uint64_t)),
                        calloc((size_t)m->n_ops + 1, sizeof(uint64_t)), 0};
    uint64_t peak = 0;
    if (e.last && e.lazy && e.held && e.memo) {
        const struct graph_block *b = &func->regions[0].blocks[0];
        for (int i = 0; lazy_args && i < b->n_args; i++) e.lazy[b->args[i].id] = lazy_args[i];
        peak = block_peak(&e, b, n_processes > 0 ? (uint64_t)n_processes : 1);
    }
    free(e.last);
    free(e.lazy);
    free(e.held);
    free(e.memo);
    return peak;
}
