/* cc_compile: the entry function of a graph -> a plan (compiler.h).
 *
 * Three passes:
 *  1. linearise: walk the entry function in program order, inlining
 *     func.call (and composite), turning while/if/case into labels and
 *     branches, resolving view ops (reshape, transpose, broadcast_in_dim,
 *     slice, reverse, same-width bitcast_convert) into views of the value
 *     they read, and giving every value instance a `vi` (value info).  The
 *     result is a list of nodes: ops that need a kernel, copies, control
 *     flow and checks.  Dead ops are dropped.
 *  2. group: nodes -> kernels, per mode (docs/compiler.md "Plans, buffers and
 *     modes"); kernels never cross control flow.
 *  3. place: buffers in HBM; inputs, outputs, constants and host-read
 *     scalars for the whole run, temporaries reusing addresses by liveness
 *     over the step sequence (a buffer live anywhere in a loop stays live
 *     for the whole loop); 512-byte alignment.
 */
#include "compiler/cc_internal.h"
#include "interconnect/interconnect.h"
#include "interp/interp.h"

#include <stdlib.h>
#include <string.h>

#define CC_ALIGN 512u
/* Largest fused group (ops) and operand count (inputs + outputs): the
 * elementwise tile program's limits with room to spare. */
#define CC_MAX_FUSED_OPS 24
#define CC_MAX_FUSED_VIEWS 40
/* fused-eager: elementwise ops of at most this many elements fuse into runs. */
#define CC_SMALL_ELEMS 65536

static const char *const mode_names[] = {
#define X(e, name) name,
    X_CC_MODES(X)
#undef X
};
_Static_assert(ARRAY_LEN(mode_names) == CC_MODE_COUNT, "mode_names");

const char *cc_mode_name(enum cc_mode m) { return (unsigned)m < CC_MODE_COUNT ? mode_names[m] : "?"; }

bool cc_mode_lookup(const char *name, enum cc_mode *out)
{
    for (int i = 0; i < CC_MODE_COUNT; i++)
        if (name && !strcmp(name, mode_names[i])) {
            *out = (enum cc_mode)i;
            return true;
        }
    return false;
}

void cc_options_default(struct cc_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = CC_MODE_COMPILED;
    o->default_precision = ISA_PREC_DEFAULT;
}

/* The emitter of each kernel kind; NULL: not lowered (yet). */
static const cc_emit_fn emitters[CC_K_COUNT] = {
    [CC_K_ELEMENTWISE] = cc_emit_elementwise,
    [CC_K_REDUCE] = cc_emit_reduce,
    [CC_K_REDUCE_WINDOW] = cc_emit_reduce_window,
    [CC_K_COPY] = cc_emit_copy,
    [CC_K_CONCAT] = cc_emit_concat,
    [CC_K_PAD] = cc_emit_pad,
    [CC_K_DOT] = cc_emit_dot,
    [CC_K_CONV] = cc_emit_conv,
    [CC_K_GATHER] = cc_emit_gather,
    [CC_K_DYNAMIC_SLICE] = cc_emit_dynamic_slice,
    [CC_K_DYNAMIC_UPDATE_SLICE] = cc_emit_dynamic_update_slice,
    [CC_K_SCATTER] = cc_emit_scatter,
    [CC_K_RNG_BIT_GENERATOR] = cc_emit_rng_bit_generator,
    [CC_K_RNG] = cc_emit_rng,
    [CC_K_SELECT_AND_SCATTER] = cc_emit_select_and_scatter,
    [CC_K_SORT] = cc_emit_sort,
};
_Static_assert(ARRAY_LEN(emitters) == CC_K_COUNT, "emitters");

/* ------------------------------------------------------------------ plan */

struct cc_plan {
    const struct graph_module *m;
    struct chip_desc chip;
    struct cc_target target;
    struct cc_options opt;
    struct base_arena arena;
    struct cc_buffer *bufs;
    uint32_t n_bufs, cap_bufs;
    struct cc_step *steps;
    uint32_t n_steps, cap_steps;
    struct cc_kernel *kernels;
    uint32_t n_kernels, cap_kernels;
    int n_inputs, n_outputs;
    uint32_t *in_bufs, *out_bufs;
    uint64_t hbm_bytes;
    int num_partitions;
    const struct graph_op *mc; /* SPMD: the manual computation whose body is compiled */
};

void cc_plan_destroy(struct cc_plan *p)
{
    if (!p) return;
    base_arena_deinit(&p->arena);
    free(p->bufs);
    free(p->steps);
    free(p->kernels);
    free(p->in_bufs);
    free(p->out_bufs);
    free(p);
}

const struct chip_desc *cc_plan_chip(const struct cc_plan *p) { return &p->chip; }
enum cc_mode cc_plan_mode(const struct cc_plan *p) { return p->opt.mode; }
enum isa_precision cc_plan_default_precision(const struct cc_plan *p) { return p->opt.default_precision; }
enum isa_precision cc_plan_op_precision(const struct cc_plan *p, const struct graph_op *op)
{
    return op->kind == GRAPH_OP_CONVOLUTION ? cc_conv_precision(op, &p->target) : cc_dot_precision(op, &p->target);
}
int cc_plan_num_partitions(const struct cc_plan *p) { return p->num_partitions > 1 ? p->num_partitions : 1; }
const struct graph_module *cc_plan_module(const struct cc_plan *p) { return p->m; }
const struct graph_op *cc_plan_manual_computation(const struct cc_plan *p) { return p->mc; }
uint32_t cc_plan_n_buffers(const struct cc_plan *p) { return p->n_bufs; }
const struct cc_buffer *cc_plan_buffer(const struct cc_plan *p, uint32_t i) { return i < p->n_bufs ? &p->bufs[i] : NULL; }
uint32_t cc_plan_n_steps(const struct cc_plan *p) { return p->n_steps; }
const struct cc_step *cc_plan_step(const struct cc_plan *p, uint32_t i) { return i < p->n_steps ? &p->steps[i] : NULL; }
uint32_t cc_plan_n_kernels(const struct cc_plan *p) { return p->n_kernels; }
const struct cc_kernel_info *cc_plan_kernel_info(const struct cc_plan *p, uint32_t k)
{
    return k < p->n_kernels ? &p->kernels[k].info : NULL;
}
const struct cc_kernel *cc_plan_kernel(const struct cc_plan *p, uint32_t k) { return k < p->n_kernels ? &p->kernels[k] : NULL; }
uint64_t cc_plan_hbm_bytes(const struct cc_plan *p) { return p->hbm_bytes; }
int cc_plan_n_inputs(const struct cc_plan *p) { return p->n_inputs; }
int cc_plan_n_outputs(const struct cc_plan *p) { return p->n_outputs; }
uint32_t cc_plan_input_buffer(const struct cc_plan *p, int i) { return p->in_bufs[i]; }
uint32_t cc_plan_output_buffer(const struct cc_plan *p, int i) { return p->out_bufs[i]; }
uint32_t cc_kernel_n_dyn(const struct cc_plan *p, uint32_t k) { return k < p->n_kernels ? (uint32_t)p->kernels[k].n_dyn : 0; }
uint32_t cc_kernel_dyn_buffer(const struct cc_plan *p, uint32_t k, uint32_t i) { return p->kernels[k].dyn_buffers[i]; }
uint32_t cc_kernel_n_operands(const struct cc_plan *p, uint32_t k, bool results)
{
    if (k >= p->n_kernels) return 0;
    return (uint32_t)(results ? p->kernels[k].n_out : p->kernels[k].n_in);
}
uint32_t cc_kernel_operand_buffer(const struct cc_plan *p, uint32_t k, bool results, uint32_t i)
{
    return results ? p->kernels[k].out[i].buffer : p->kernels[k].in[i].buffer;
}

bool cc_kind_lowered(enum cc_kernel_kind k) { return (unsigned)k < CC_K_COUNT && emitters[k] != NULL; }

enum base_status cc_kernel_emit(const struct cc_plan *p, uint32_t k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag)
{
    if (k >= p->n_kernels) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no kernel %u", k);
    const struct cc_kernel *kr = &p->kernels[k];
    cc_emit_fn fn = emitters[kr->kind];
    if (!fn) {
        const struct graph_loc *l = kr->info.root ? &kr->info.root->loc : NULL;
        return base_diag_set(diag, BASE_ERR_UNSUPPORTED, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0,
                             "%s kernels are not lowered for %s", cc_kernel_kind_name(kr->kind), p->chip.name);
    }
    return fn(&p->target, kr, ctx, out, diag);
}

/* ------------------------------------------------------ value instances */

enum vi_kind {
    VI_INPUT, /* an argument of the entry function */
    VI_CONST, /* a literal */
    VI_OP,    /* written by a kernel (an op's result or a copy) */
    VI_VIEW,  /* a view of another value's buffer */
    VI_STATE, /* a loop-carried value or a branch result: written by copies */
    VI_TOKEN, /* a !stablehlo.token: no bytes; the host orders what it links */
    VI_TUPLE, /* a tuple: its elements' vis (elems), never a buffer of its own */
};

struct vinfo {
    enum vi_kind kind;
    const struct graph_value *v; /* the graph value (NULL for copies' targets) */
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    int root;                    /* the vi that owns the buffer (itself unless a view) */
    struct cc_view view;         /* relative to the root buffer's address */
    int32_t buffer;              /* roots: buffer index, -1 until needed */
    int node;                    /* VI_OP: the producing node */
    int uses;                    /* live consumers (direct or through views) */
    bool splat;                  /* VI_CONST with every element equal */
    int n_elems;                 /* VI_TUPLE: its elements' vis */
    int *elems;
    bool needed;                 /* read outside its producing kernel, or returned */
    bool permanent;              /* output / host-read: never reused */
    enum cc_buffer_kind buf_kind;
    const struct base_tensor *init;
    int out_index;
};

enum node_kind {
    N_OP,     /* an op lowered by a kernel */
    N_COPY,   /* in[0] -> out[0] (a view materialised, a loop state update) */
    N_LABEL,  /* a jump target */
    N_BRANCH, /* if vi in[0] is zero go to label */
    N_JUMP,
    N_SWITCH, /* go to labels[clamp(vi in[0])] */
    N_CHECK,
    N_COLLECTIVE, /* a collective: in[] -> out[], run by the runtime between chips */
    N_HOST,       /* an op the chip cannot run: in[] -> out[], run by the runtime on the host */
    N_LOOP_END, /* marks the end of a loop whose head is label `label` (no step) */
};

struct node {
    enum node_kind kind;
    const struct graph_op *op; /* N_OP, N_CHECK; copies: the op they come from (or NULL) */
    int scope;
    int n_in, n_out;
    int *in, *out;             /* vis */
    int label;                 /* N_LABEL: its id; BRANCH/JUMP: target */
    int n_labels;
    int *labels;               /* N_SWITCH */
    bool live;
    bool barrier;              /* N_COPY into an existing buffer: closes open groups */
    int group;
    int64_t trip;              /* N_BRANCH of a while: static trip count, or -1 */
};

struct scope {
    int parent; /* enclosing region scope (values visible), -1 */
};

/* (scope, value id) -> vi: open addressing. */
struct vmap {
    uint64_t *keys; /* 0 = empty; key = ((scope + 1) << 32) | id */
    int *vals;
    size_t cap, n;
};

struct group {
    enum cc_kernel_kind kind;
    int scope;
    int n_nodes, cap_nodes;
    int *nodes;
    int rank;
    int64_t dims[BASE_MAX_RANK]; /* elementwise shape */
    bool open, small;
    int n_views;
};

struct cc {
    struct cc_plan *p;
    const struct graph_module *m;
    struct base_diag *diag;
    struct vinfo *vi;
    int n_vi, cap_vi;
    struct node *nodes;
    int n_nodes, cap_nodes;
    struct scope *scopes;
    int n_scopes, cap_scopes;
    struct vmap map;
    int n_labels;
    int depth; /* call depth, against runaway recursion */
    struct group *groups;
    int n_groups, cap_groups;
    int *label_step; /* label -> step */
    /* loops: [head step, end step] */
    int n_loops, cap_loops;
    int *loop_head_label, *loop_end_step;
};

#define GROW(arr, n, cap, what)                                                                 \
    do {                                                                                       \
        if ((n) >= (cap)) {                                                                    \
            size_t nc_ = (cap) ? (size_t)(cap) * 2 : 64;                                        \
            void *np_ = realloc((arr), nc_ * sizeof *(arr));                                   \
            if (!np_) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory (%s)", what); \
            (arr) = np_;                                                                       \
            (cap) = (__typeof__(cap))nc_;                                                      \
        }                                                                                      \
    } while (0)

/* A located error: op's location and the message. */
#define op_fail(c, op, st, ...) graph_op_diag((c)->diag, op, st, __VA_ARGS__)

/* ----------------------------------------------------------------- vmap */

static uint64_t vkey(int scope, uint32_t id) { return ((uint64_t)(uint32_t)(scope + 1) << 32) | id; }

static size_t vhash(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    return (size_t)k;
}

static bool vmap_put(struct vmap *mp, uint64_t key, int val)
{
    if ((mp->n + 1) * 2 > mp->cap) {
        size_t nc = mp->cap ? mp->cap * 2 : 1024;
        uint64_t *nk = calloc(nc, sizeof *nk);
        int *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return false;
        }
        for (size_t i = 0; i < mp->cap; i++)
            if (mp->keys[i]) {
                size_t j = vhash(mp->keys[i]) & (nc - 1);
                while (nk[j]) j = (j + 1) & (nc - 1);
                nk[j] = mp->keys[i];
                nv[j] = mp->vals[i];
            }
        free(mp->keys);
        free(mp->vals);
        mp->keys = nk;
        mp->vals = nv;
        mp->cap = nc;
    }
    size_t j = vhash(key) & (mp->cap - 1);
    while (mp->keys[j] && mp->keys[j] != key) j = (j + 1) & (mp->cap - 1);
    if (!mp->keys[j]) mp->n++;
    mp->keys[j] = key;
    mp->vals[j] = val;
    return true;
}

static int vmap_get(const struct vmap *mp, uint64_t key)
{
    if (!mp->cap) return -1;
    size_t j = vhash(key) & (mp->cap - 1);
    while (mp->keys[j]) {
        if (mp->keys[j] == key) return mp->vals[j];
        j = (j + 1) & (mp->cap - 1);
    }
    return -1;
}

static int lookup(const struct cc *c, int scope, const struct graph_value *v)
{
    for (int s = scope; s >= 0; s = c->scopes[s].parent) {
        int x = vmap_get(&c->map, vkey(s, v->id));
        if (x >= 0) return x;
    }
    return -1;
}

static enum base_status bind(struct cc *c, int scope, const struct graph_value *v, int vi)
{
    if (!vmap_put(&c->map, vkey(scope, v->id), vi)) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return BASE_OK;
}

static enum base_status new_scope(struct cc *c, int parent, int *out)
{
    GROW(c->scopes, c->n_scopes, c->cap_scopes, "scopes");
    c->scopes[c->n_scopes].parent = parent;
    *out = c->n_scopes++;
    return BASE_OK;
}

/* ------------------------------------------------------------- vis, nodes */

static bool static_tensor(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR && t->rank >= 0 && graph_type_is_static(t);
}

static enum base_status new_vi(struct cc *c, enum vi_kind kind, const struct graph_value *v, enum base_dtype dt,
                               int rank, const int64_t *dims, int *out)
{
    GROW(c->vi, c->n_vi, c->cap_vi, "values");
    int i = c->n_vi++;
    struct vinfo *x = &c->vi[i];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->v = v;
    x->dtype = dt;
    x->rank = rank;
    for (int d = 0; d < rank; d++) x->dims[d] = dims[d];
    x->root = i;
    x->buffer = -1;
    x->node = -1;
    x->out_index = -1;
    x->buf_kind = CC_BUF_TEMP;
    cc_view_dense(&x->view, 0, dt, rank, dims);
    *out = i;
    return BASE_OK;
}

static enum base_status vi_of_value(struct cc *c, enum vi_kind kind, const struct graph_value *v, int *out)
{
    const struct graph_type *t = v->type;
    return new_vi(c, kind, v, t->elem, t->rank, t->dims, out);
}

static enum base_status new_node(struct cc *c, enum node_kind kind, const struct graph_op *op, int scope, int n_in,
                                 int n_out, int *out)
{
    GROW(c->nodes, c->n_nodes, c->cap_nodes, "nodes");
    int i = c->n_nodes++;
    struct node *n = &c->nodes[i];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->op = op;
    n->scope = scope;
    n->n_in = n_in;
    n->n_out = n_out;
    n->group = -1;
    n->label = -1;
    n->trip = -1;
    if (n_in) n->in = base_arena_alloc(&c->p->arena, (size_t)n_in * sizeof *n->in);
    if (n_out) n->out = base_arena_alloc(&c->p->arena, (size_t)n_out * sizeof *n->out);
    if ((n_in && !n->in) || (n_out && !n->out)) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    *out = i;
    return BASE_OK;
}

/* A copy node src -> a new dense vi of src's shape (or of dt/rank/dims when
 * reshaping); the new vi in *dst. */
static enum base_status add_copy(struct cc *c, const struct graph_op *op, int scope, int src, enum vi_kind kind,
                                 int rank, const int64_t *dims, int *dst)
{
    int d, n;
    /* dims may point into c->vi (a vinfo's own dims), which new_vi may move */
    int64_t shape[BASE_MAX_RANK];
    if (rank < 0 || rank > BASE_MAX_RANK) return op_fail(c, op, BASE_ERR_INTERNAL, "a copy of rank %d", rank);
    for (int i = 0; i < rank; i++) shape[i] = dims[i];
    TRY(new_vi(c, kind, NULL, c->vi[src].dtype, rank, shape, &d));
    TRY(new_node(c, N_COPY, op, scope, 1, 1, &n));
    c->nodes[n].in[0] = src;
    c->nodes[n].out[0] = d;
    c->vi[d].node = n;
    *dst = d;
    return BASE_OK;
}

/* Copy src into the existing (state) vi dst. */
static enum base_status add_copy_into(struct cc *c, const struct graph_op *op, int scope, int src, int dst)
{
    int n;
    TRY(new_node(c, N_COPY, op, scope, 1, 1, &n));
    c->nodes[n].in[0] = src;
    c->nodes[n].out[0] = dst;
    c->nodes[n].barrier = true;
    return BASE_OK;
}

/* ------------------------------------------------------ tokens and tuples
 * A token (!stablehlo.token) is a value of no bytes (VI_TOKEN): the ops that
 * take and make tokens (send, recv, infeed, outfeed) run on the host in
 * program order, which is the order the tokens ask for.  A tuple is
 * flattened: a VI_TUPLE lists its elements' vis, so tuple and
 * get_tuple_element cost nothing, and loop state or branch results of tuple
 * type are one state per element (docs/compiler.md "Tokens and tuples"). */

/* A fresh token, or a tuple of fresh values of kind `kind` (VI_STATE for
 * loop state), shaped as type t. */
static enum base_status new_token_or_tuple(struct cc *c, enum vi_kind kind, const struct graph_type *t, int *out)
{
    if (t->kind == GRAPH_TYPE_TOKEN) return new_vi(c, VI_TOKEN, NULL, BASE_DT_I1, 0, NULL, out);
    if (t->kind != GRAPH_TYPE_TUPLE) return base_diag_set(c->diag, BASE_ERR_INTERNAL, NULL, 0, 0, "not a token or tuple");
    int n = t->n_elems;
    int *el = base_arena_alloc(&c->p->arena, (size_t)(n ? n : 1) * sizeof *el);
    if (!el) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n; i++) {
        const struct graph_type *e = t->elems[i];
        if (e->kind == GRAPH_TYPE_TENSOR) TRY(new_vi(c, kind, NULL, e->elem, e->rank, e->dims, &el[i]));
        else TRY(new_token_or_tuple(c, kind, e, &el[i]));
    }
    TRY(new_vi(c, VI_TUPLE, NULL, BASE_DT_I1, 0, NULL, out));
    c->vi[*out].n_elems = n;
    c->vi[*out].elems = el;
    return BASE_OK;
}

/* Copies src into the (state) value dst element by element: tuples leaf by
 * leaf, tokens not at all (they hold nothing). */
static enum base_status copy_leaves_into(struct cc *c, const struct graph_op *op, int scope, int src, int dst)
{
    if (src == dst || c->vi[dst].kind == VI_TOKEN) return BASE_OK;
    if (c->vi[dst].kind != VI_TUPLE) return add_copy_into(c, op, scope, src, dst);
    if (c->vi[src].kind != VI_TUPLE || c->vi[src].n_elems != c->vi[dst].n_elems)
        return op_fail(c, op, BASE_ERR_INTERNAL, "%s: a tuple copied into a value of another shape", op->name);
    for (int i = 0; i < c->vi[dst].n_elems; i++)
        TRY(copy_leaves_into(c, op, scope, c->vi[src].elems[i], c->vi[dst].elems[i]));
    return BASE_OK;
}

/* A loop's next value *x of state `state`: where it reads a state buffer
 * (another state, or a view of one) it is copied into a temporary first, so
 * that no state update overwrites what a later one reads; a tuple leaf by
 * leaf. */
static enum base_status detach_from_state(struct cc *c, const struct graph_op *op, int scope, int state, int *x)
{
    if (*x == state || c->vi[*x].kind == VI_TOKEN) return BASE_OK;
    if (c->vi[*x].kind == VI_TUPLE) {
        int n = c->vi[*x].n_elems, t;
        int *el = base_arena_alloc(&c->p->arena, (size_t)(n ? n : 1) * sizeof *el);
        if (!el) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        bool changed = false;
        for (int i = 0; i < n; i++) {
            el[i] = c->vi[*x].elems[i];
            TRY(detach_from_state(c, op, scope, c->vi[state].elems[i], &el[i]));
            changed |= el[i] != c->vi[*x].elems[i];
        }
        if (!changed) return BASE_OK;
        TRY(new_vi(c, VI_TUPLE, NULL, BASE_DT_I1, 0, NULL, &t));
        c->vi[t].n_elems = n;
        c->vi[t].elems = el;
        *x = t;
        return BASE_OK;
    }
    if (c->vi[c->vi[*x].root].kind != VI_STATE) return BASE_OK;
    return add_copy(c, op, scope, *x, VI_OP, c->vi[*x].rank, c->vi[*x].dims, x);
}

/* Types a loop may carry and a branch may yield: tensors of static shape,
 * tokens, and tuples of them. */
static bool carried_type_ok(const struct graph_type *t)
{
    if (!t) return false;
    if (t->kind == GRAPH_TYPE_TOKEN) return true;
    if (t->kind == GRAPH_TYPE_TUPLE) {
        for (int i = 0; i < t->n_elems; i++)
            if (!carried_type_ok(t->elems[i])) return false;
        return true;
    }
    return static_tensor(t) && !t->quant;
}

/* Ops that move values between the chip and the host by nature (the host
 * runs them as steps of their own; not a fallback): a probe reads its
 * operand back, infeed and outfeed are the host's queues, send and recv
 * its channels. */
static bool is_host_io_op(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_INTERP_PROBE:
    case GRAPH_OP_SEND:
    case GRAPH_OP_RECV:
    case GRAPH_OP_INFEED:
    case GRAPH_OP_OUTFEED: return true;
    default: return false;
    }
}

/* Operands and results of a host step: tensors of static shape or tokens. */
static bool host_types_ok(const struct graph_op *op)
{
    for (int i = 0; i < op->n_operands; i++) {
        const struct graph_type *t = op->operands[i]->type;
        if (!static_tensor(t) && !(t && t->kind == GRAPH_TYPE_TOKEN)) return false;
    }
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *t = op->results[i].type;
        if (!static_tensor(t) && !(t && t->kind == GRAPH_TYPE_TOKEN)) return false;
    }
    return true;
}

/* An op whose effect is not only its results (it must run even when
 * nobody reads them): the host's I/O, a program run in parallel (it may do
 * I/O), a custom_call marked has_side_effect. */
static bool has_effects(const struct graph_op *op)
{
    if (is_host_io_op(op) || op->kind == GRAPH_OP_INTERP_RUN_PARALLEL) return true;
    if (op->kind != GRAPH_OP_CUSTOM_CALL) return false;
    return graph_attr_bool_or(graph_op_attr(op, "has_side_effect"), false);
}

static enum base_status add_label(struct cc *c, int scope, int label)
{
    int n;
    TRY(new_node(c, N_LABEL, NULL, scope, 0, 0, &n));
    c->nodes[n].label = label;
    return BASE_OK;
}

static enum base_status add_jump(struct cc *c, enum node_kind kind, const struct graph_op *op, int scope, int pred,
                                 int label)
{
    int n;
    TRY(new_node(c, kind, op, scope, pred >= 0 ? 1 : 0, 0, &n));
    if (pred >= 0) c->nodes[n].in[0] = pred;
    c->nodes[n].label = label;
    return BASE_OK;
}

/* ------------------------------------------------------- op support */

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

static bool is_view_op(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_TRANSPOSE:
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_BROADCAST:
    case GRAPH_OP_SLICE:
    case GRAPH_OP_REVERSE:
    case GRAPH_OP_BITCAST_CONVERT: return true;
    default: return false;
    }
}

/* Lowered by the elementwise emitter (iota too: values from the index). */
static bool is_elementwise(const struct graph_op *op)
{
    return graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE) || op->kind == GRAPH_OP_IOTA ||
           op->kind == GRAPH_OP_UNIFORM_QUANTIZE || op->kind == GRAPH_OP_UNIFORM_DEQUANTIZE;
}

/* A check the runtime runs on the host (interp_check_eval). */
static bool is_check_op(const struct graph_op *op)
{
    if (graph_op_kind_has(op->kind, GRAPH_OPF_VALUE_CHECK)) return true;
    if (op->kind == GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ) return true; /* against what a probe recorded */
    if (op->kind != GRAPH_OP_CUSTOM_CALL) return false;
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    if (!t || t->kind != GRAPH_ATTR_STRING || t->u.str.len <= 6 || memcmp(t->u.str.s, "check.", 6)) return false;
    if (op->n_results == 0) return true;
    /* the older form: %r = custom_call @check.eq(a, b) -> tensor<i1>, the verdict */
    const struct graph_type *rt = op->results[0].type;
    return op->n_results == 1 && t->u.str.len == 8 && !memcmp(t->u.str.s, "check.eq", 8) && rt &&
           rt->kind == GRAPH_TYPE_TENSOR && rt->rank == 0 && rt->elem == BASE_DT_I1;
}

/* Operands and results: static, ranked tensors; quantized ones where
 * k_quant.c lowers them. */
static bool plain_types(const struct graph_op *op, const struct cc_target *tg, char *why, size_t cap)
{
    for (int i = 0; i < op->n_operands; i++) {
        const struct graph_type *t = op->operands[i]->type;
        if (!static_tensor(t)) return why_set(why, cap, "operands must be tensors of static shape");
    }
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *t = op->results[i].type;
        if (!static_tensor(t)) return why_set(why, cap, "results must be tensors of static shape");
    }
    return cc_quant_types_ok(op, tg, why, cap);
}

/* Whether the compiler lowers op for chip t (why: the reason when not).
 * Control-flow and structural ops count as supported: their regions' ops
 * are checked one by one. */
static bool op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    switch (op->kind) {
    case GRAPH_OP_FUNC:
    case GRAPH_OP_FUNC_RETURN:
    case GRAPH_OP_RETURN:
    case GRAPH_OP_CALL:
    case GRAPH_OP_COMPOSITE:
    case GRAPH_OP_OPTIMIZATION_BARRIER:
    case GRAPH_OP_SDY_SHARDING_CONSTRAINT:
    case GRAPH_OP_SDY_RESHARD:
    case GRAPH_OP_SDY_PROPAGATION_BARRIER:
    case GRAPH_OP_MHLO_COPY:
    case GRAPH_OP_INTERP_PRINT: return true;
    case GRAPH_OP_WHILE:
    case GRAPH_OP_IF:
    case GRAPH_OP_CASE:
        for (int i = 0; i < op->n_operands; i++)
            if (!carried_type_ok(op->operands[i]->type))
                return why_set(why, cap, "loop state and branch results must be tensors of static shape, tokens or tuples of them");
        for (int i = 0; i < op->n_results; i++)
            if (!carried_type_ok(op->results[i].type))
                return why_set(why, cap, "loop state and branch results must be tensors of static shape, tokens or tuples of them");
        return true;
    case GRAPH_OP_AFTER_ALL:
    case GRAPH_OP_CREATE_TOKEN:
    case GRAPH_OP_TUPLE:
    case GRAPH_OP_GET_TUPLE_ELEMENT: return true; /* bookkeeping: tokens hold nothing, tuples are flattened */
    case GRAPH_OP_CONSTANT: {
        const struct graph_attr *a = graph_op_attr(op, "value");
        /* an elided literal (no data) compiles: timing-only runs need no
         * values, and functional runs get them filled (--random-inputs) */
        if (!a || a->kind != GRAPH_ATTR_ELEMENTS) return why_set(why, cap, "the constant has no literal");
        return plain_types(op, t, why, cap);
    }
    case GRAPH_OP_PARTITION_ID:
    case GRAPH_OP_REPLICA_ID: return true; /* a ui32 scalar the runtime writes */
    default: break;
    }
    if (is_check_op(op)) return true;
    if (is_host_io_op(op)) {
        if (!host_types_ok(op)) return why_set(why, cap, "operands and results must be tensors of static shape or tokens");
        return true;
    }
    if (cc_custom_call_claims(op)) return cc_custom_call_view(op, why, cap); /* views (k_custom.c) */
    if (op->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION)
        return why_set(why, cap, "sdy.manual_computation is lowered only as the whole entry function (whose body is then "
                                 "the program of one partition)");
    if (!plain_types(op, t, why, cap)) return false;
    /* a collective's values are the interpreter's (the runtime evaluates it
     * on every partition's operands: interp_spmd_grid_eval), so any
     * reduction body and element type; its time is the interconnect
     * model's, whose reduction rate stands for the body */
    if (icn_coll_of_op(op->kind, NULL)) return true;
    if (is_view_op(op->kind)) {
        if (op->kind == GRAPH_OP_BITCAST_CONVERT) {
            enum base_dtype a = op->operands[0]->type->elem, b = op->results[0].type->elem;
            int ba = base_dtype_bits(a), bb = base_dtype_bits(b);
            /* equal widths reinterpret each element; whole bytes of other
             * widths regroup the same row-major bytes; sub-byte types are
             * packed bit streams, which no view expresses */
            if (ba != bb && (ba % 8 || bb % 8 || (size_t)ba != 8 * base_dtype_size(a) ||
                             (size_t)bb != 8 * base_dtype_size(b)))
                return why_set(why, cap, "bitcast_convert between a sub-byte type and another width (a packed bit stream)");
        }
        return true;
    }
    if (is_elementwise(op)) return cc_elem_op_supported(op, t, why, cap);
    switch (op->kind) {
    case GRAPH_OP_REDUCE:
    case GRAPH_OP_REDUCE_WINDOW:
        if (!cc_kind_lowered(op->kind == GRAPH_OP_REDUCE ? CC_K_REDUCE : CC_K_REDUCE_WINDOW))
            return why_set(why, cap, "reductions are not lowered yet");
        return cc_reduce_op_supported(op, t, why, cap);
    case GRAPH_OP_CONCATENATE:
    case GRAPH_OP_PAD:
        for (int i = 0; i < op->n_operands; i++)
            if (op->operands[i]->type->elem == BASE_DT_C128)
                return why_set(why, cap, "complex128 elements are not moved on chip");
        return true;
    case GRAPH_OP_DOT_GENERAL:
    case GRAPH_OP_DOT: return cc_dot_op_supported(op, t, why, cap);
    case GRAPH_OP_CONVOLUTION: return cc_conv_op_supported(op, t, why, cap);
    case GRAPH_OP_GATHER:
    case GRAPH_OP_DYNAMIC_SLICE:
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE:
        for (int i = 0; i < op->n_operands; i++)
            if (op->operands[i]->type->elem == BASE_DT_C128)
                return why_set(why, cap, "complex128 elements are not moved on chip (only copied)");
        if (!cc_kind_lowered(op->kind == GRAPH_OP_GATHER          ? CC_K_GATHER
                             : op->kind == GRAPH_OP_DYNAMIC_SLICE ? CC_K_DYNAMIC_SLICE
                                                                  : CC_K_DYNAMIC_UPDATE_SLICE))
            return why_set(why, cap, "data-dependent addressing is not lowered yet");
        return true;
    case GRAPH_OP_SCATTER:
        if (!cc_kind_lowered(CC_K_SCATTER)) return why_set(why, cap, "data-dependent addressing is not lowered yet");
        return cc_scatter_op_supported(op, why, cap);
    case GRAPH_OP_RNG_BIT_GENERATOR:
    case GRAPH_OP_RNG: return cc_rng_op_supported(op, t, why, cap);
    case GRAPH_OP_SELECT_AND_SCATTER: return cc_sas_op_supported(op, t, why, cap);
    case GRAPH_OP_SORT:
    case GRAPH_OP_CHLO_TOP_K: return cc_sort_op_supported(op, t, why, cap);
    case GRAPH_OP_CUSTOM_CALL: {
        int64_t k;
        bool largest;
        if (interp_topk_call(op, &k, &largest)) return cc_sort_op_supported(op, t, why, cap);
        return why_set(why, cap, "no lowering for this op");
    }
    case GRAPH_OP_UNKNOWN: return why_set(why, cap, "an op of a dialect npusim does not know (not StableHLO)");
    default: return why_set(why, cap, "no lowering for this op");
    }
}

/* Whether the host can run op in the chip's place (host fallback): the golden
 * interpreter has a kernel for it, it reads and writes only tensors of static
 * shape (the runtime moves them over the host link), and it is neither
 * control flow (lowered as host steps of its own) nor an op that needs other
 * partitions or the program around it. */
static bool host_runnable(const struct graph_op *op)
{
    if (!interp_kind_supported(op->kind) || op->kind == GRAPH_OP_UNKNOWN) return false;
    if (graph_op_kind_has(op->kind, GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD | GRAPH_OPF_CONTROL_FLOW |
                                        GRAPH_OPF_TERMINATOR | GRAPH_OPF_ISOLATED | GRAPH_OPF_PROBE))
        return false;
    if (op->kind == GRAPH_OP_CALL || op->kind == GRAPH_OP_COMPOSITE) return false;
    if (cc_custom_call_claims(op)) return false; /* a view, or a shape change the interpreter refuses too */
    return host_types_ok(op);
}

static enum base_status unsupported(struct cc *c, const struct graph_op *op, const char *why)
{
    return op_fail(c, op, BASE_ERR_UNSUPPORTED, "%s is not lowered for %s%s%s", op->name, c->p->chip.name,
                   why && why[0] ? ": " : "", why ? why : "");
}

/* ------------------------------------------------------------ views */

/* The view of op's result over vi src; false when it needs a copy. */
static bool view_of(const struct graph_op *op, const struct cc_view *in, struct cc_view *out)
{
    const struct graph_type *rt = op->results[0].type;
    int64_t a[BASE_MAX_RANK], b[BASE_MAX_RANK], s[BASE_MAX_RANK];
    switch (op->kind) {
    case GRAPH_OP_RESHAPE: return cc_view_reshape(in, rt->rank, rt->dims, out);
    case GRAPH_OP_TRANSPOSE:
        if (graph_attr_as_i64_list(graph_op_attr(op, "permutation"), a, BASE_MAX_RANK) != in->rank) return false;
        cc_view_transpose(in, a, out);
        return true;
    case GRAPH_OP_BROADCAST_IN_DIM: {
        int n = graph_attr_as_i64_list(graph_op_attr(op, "broadcast_dimensions"), a, BASE_MAX_RANK);
        if (n < 0) n = 0;
        if (n != in->rank) return false;
        cc_view_broadcast(in, rt->rank, rt->dims, a, out);
        return true;
    }
    case GRAPH_OP_BROADCAST: { /* new leading dims */
        int lead = rt->rank - in->rank;
        for (int d = 0; d < in->rank; d++) a[d] = lead + d;
        cc_view_broadcast(in, rt->rank, rt->dims, a, out);
        return true;
    }
    case GRAPH_OP_SLICE:
        if (graph_attr_as_i64_list(graph_op_attr(op, "start_indices"), a, BASE_MAX_RANK) != in->rank ||
            graph_attr_as_i64_list(graph_op_attr(op, "limit_indices"), b, BASE_MAX_RANK) != in->rank)
            return false;
        if (graph_attr_as_i64_list(graph_op_attr(op, "strides"), s, BASE_MAX_RANK) != in->rank)
            for (int d = 0; d < in->rank; d++) s[d] = 1;
        cc_view_slice(in, a, b, s, out);
        return true;
    case GRAPH_OP_REVERSE: {
        int n = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), a, BASE_MAX_RANK);
        cc_view_reverse(in, a, n < 0 ? 0 : n, out);
        return true;
    }
    case GRAPH_OP_BITCAST_CONVERT:
        *out = *in;
        out->dtype = rt->elem;
        return true;
    default: return false;
    }
}

/* ---------------------------------------------------------- linearise */

static enum base_status lin_block(struct cc *c, const struct graph_block *b, int scope, int *rets, int n_rets,
                                  int *got);

static enum base_status lin_region(struct cc *c, const struct graph_op *op, const struct graph_region *r, int parent,
                                   const int *args, int n_args, int *rets, int n_rets)
{
    if (r->n_blocks != 1) return op_fail(c, op, BASE_ERR_UNSUPPORTED, "%s: regions with several blocks are not lowered", op->name);
    const struct graph_block *b = &r->blocks[0];
    if (b->n_args != n_args) return op_fail(c, op, BASE_ERR_INVALID, "%s: region takes %d arguments, %d given", op->name, b->n_args, n_args);
    int s, got = 0;
    TRY(new_scope(c, parent, &s));
    for (int i = 0; i < n_args; i++) TRY(bind(c, s, &b->args[i], args[i]));
    TRY(lin_block(c, b, s, rets, n_rets, &got));
    if (got != n_rets) return op_fail(c, op, BASE_ERR_INVALID, "%s: region returns %d values, %d expected", op->name, got, n_rets);
    return BASE_OK;
}

static enum base_status lin_call(struct cc *c, const struct graph_op *op, int scope, const char *attr)
{
    const struct graph_attr *sym = graph_op_attr(op, attr);
    if (!sym || sym->kind != GRAPH_ATTR_SYMBOL) return op_fail(c, op, BASE_ERR_INVALID, "%s: missing %s", op->name, attr);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)sym->u.str.len, sym->u.str.s);
    const struct graph_op *f = graph_module_find_func(c->m, name);
    if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1)
        return op_fail(c, op, BASE_ERR_INVALID, "%s: no function @%s", op->name, name);
    if (c->depth >= 64) return op_fail(c, op, BASE_ERR_LIMIT, "%s: calls nested more than 64 deep (recursion?)", op->name);
    int *args = calloc((size_t)op->n_operands + 1, sizeof *args);
    int *rets = calloc((size_t)op->n_results + 1, sizeof *rets);
    enum base_status st = BASE_OK;
    if (!args || !rets) st = base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) args[i] = lookup(c, scope, op->operands[i]);
    if (st == BASE_OK) {
        c->depth++;
        /* a function sees only its arguments: a scope without a parent */
        st = lin_region(c, op, &f->regions[0], -1, args, op->n_operands, rets, op->n_results);
        c->depth--;
    }
    for (int i = 0; st == BASE_OK && i < op->n_results; i++) st = bind(c, scope, &op->results[i], rets[i]);
    free(args);
    free(rets);
    return st;
}

/* A dense vi a host step can read: vi itself when it is a whole buffer, else a copy. */
static enum base_status dense_for_host(struct cc *c, const struct graph_op *op, int scope, int x, int *out)
{
    struct vinfo *v = &c->vi[x];
    if (v->kind != VI_VIEW) {
        *out = x;
        return BASE_OK;
    }
    return add_copy(c, op, scope, x, VI_OP, v->rank, v->dims, out);
}

static enum base_status new_token_or_tuple(struct cc *c, enum vi_kind kind, const struct graph_type *t, int *out);

static enum base_status new_state(struct cc *c, const struct graph_type *t, int *out)
{
    if (t->kind != GRAPH_TYPE_TENSOR) return new_token_or_tuple(c, VI_STATE, t, out);
    TRY(new_vi(c, VI_STATE, NULL, t->elem, t->rank, t->dims, out));
    return BASE_OK;
}

/* The single integer a vi holds when the compiler knows it: a constant (or a
 * view of one element of it). */
static bool const_int(const struct cc *c, int x, int64_t *out)
{
    const struct vinfo *v = &c->vi[x], *r = &c->vi[v->root];
    if (r->kind != VI_CONST || !r->init || !r->init->data || cc_view_count(&v->view) != 1) return false;
    enum base_dtype dt = r->init->dtype;
    if (!base_dtype_is_int(dt)) return false;
    size_t es = base_dtype_size(dt);
    if (!es || v->view.addr % es) return false;
    *out = base_elem_get_i64(dt, r->init->data, (size_t)(v->view.addr / es));
    return true;
}

/* The op that wrote vi x directly (not through a view), or NULL. */
static const struct node *def_node(const struct cc *c, int x)
{
    const struct vinfo *v = &c->vi[x];
    if (v->root != x || v->kind != VI_OP || v->node < 0) return NULL;
    const struct node *n = &c->nodes[v->node];
    return n->kind == N_OP ? n : NULL;
}

/* How many times a while body runs when the cond is `counter CMP limit`,
 * the counter starts at a constant and the body adds (or subtracts) a
 * constant, the limit is a constant or loop-invariant state; -1 otherwise. */
static int64_t static_trip_count(const struct cc *c, int pred, const int *st, const int *init, const int *rets, int n)
{
    const struct node *cmp = def_node(c, pred);
    if (!cmp || cmp->op->kind != GRAPH_OP_COMPARE || cmp->n_in != 2) return -1;
    const struct graph_attr *dir = graph_op_attr(cmp->op, "comparison_direction");
    static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    int d = -1;
    for (int i = 0; i < 6; i++)
        if (graph_attr_is_keyword(dir, dirs[i])) d = i;
    if (d < 0 || !base_dtype_is_int(cmp->op->operands[0]->type->elem)) return -1;
    for (int side = 0; side < 2; side++) {
        int ci = -1;
        for (int i = 0; i < n; i++)
            if (cmp->in[side] == st[i]) ci = i;
        if (ci < 0) continue;
        int64_t lim, x, step;
        int other = cmp->in[1 - side];
        bool lim_ok = const_int(c, other, &lim);
        for (int j = 0; j < n && !lim_ok; j++)
            if (other == st[j] && rets[j] == st[j]) lim_ok = const_int(c, init[j], &lim);
        if (!lim_ok || !const_int(c, init[ci], &x)) continue;
        const struct node *up = def_node(c, rets[ci]);
        if (!up || up->n_in != 2 || (up->op->kind != GRAPH_OP_ADD && up->op->kind != GRAPH_OP_SUBTRACT)) continue;
        if (up->in[0] == st[ci] && const_int(c, up->in[1], &step)) {
            if (up->op->kind == GRAPH_OP_SUBTRACT) step = -step;
        } else if (up->op->kind == GRAPH_OP_ADD && up->in[1] == st[ci] && const_int(c, up->in[0], &step)) {
        } else {
            continue;
        }
        int64_t count = 0;
        for (;;) {
            int64_t a = side == 0 ? x : lim, b = side == 0 ? lim : x;
            bool go = d == 0 ? a == b : d == 1 ? a != b : d == 2 ? a < b : d == 3 ? a <= b : d == 4 ? a > b : a >= b;
            if (!go) return count;
            if (++count > 100000000) return -1;
            if ((step > 0 && x > INT64_MAX - step) || (step < 0 && x < INT64_MIN - step)) return -1;
            x += step;
        }
    }
    return -1;
}

static enum base_status lin_while(struct cc *c, const struct graph_op *op, int scope)
{
    int n = op->n_operands;
    if (op->n_regions != 2 || op->n_results != n) return op_fail(c, op, BASE_ERR_INVALID, "malformed stablehlo.while");
    int *st = calloc((size_t)n + 1, sizeof *st), *rets = calloc((size_t)n + 1, sizeof *rets), pred = -1;
    enum base_status s = st && rets ? BASE_OK : base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; s == BASE_OK && i < n; i++) {
        s = new_state(c, op->operands[i]->type, &st[i]);
        if (s == BASE_OK) s = copy_leaves_into(c, op, scope, lookup(c, scope, op->operands[i]), st[i]);
    }
    int head = c->n_labels++, exit = c->n_labels++;
    if (s == BASE_OK) s = add_label(c, scope, head);
    if (s == BASE_OK) s = lin_region(c, op, &op->regions[0], scope, st, n, &pred, 1);
    int cmp_pred = pred, branch = -1;
    if (s == BASE_OK) s = dense_for_host(c, op, scope, pred, &pred);
    if (s == BASE_OK) {
        branch = c->n_nodes;
        s = add_jump(c, N_BRANCH, op, scope, pred, exit);
    }
    if (s == BASE_OK) s = lin_region(c, op, &op->regions[1], scope, st, n, rets, n);
    if (s == BASE_OK) {
        int *init = calloc((size_t)n + 1, sizeof *init);
        if (!init) s = base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        for (int i = 0; init && i < n; i++) init[i] = lookup(c, scope, op->operands[i]);
        if (init) c->nodes[branch].trip = static_trip_count(c, cmp_pred, st, init, rets, n);
        free(init);
    }
    /* new state: values that read a state buffer go through a temporary
     * first, so that no update overwrites what a later one reads */
    for (int i = 0; s == BASE_OK && i < n; i++) s = detach_from_state(c, op, scope, st[i], &rets[i]);
    for (int i = 0; s == BASE_OK && i < n; i++) s = copy_leaves_into(c, op, scope, rets[i], st[i]);
    if (s == BASE_OK) s = add_jump(c, N_JUMP, op, scope, -1, head);
    if (s == BASE_OK) {
        int nd;
        s = new_node(c, N_LOOP_END, op, scope, 0, 0, &nd);
        if (s == BASE_OK) c->nodes[nd].label = head;
    }
    if (s == BASE_OK) s = add_label(c, scope, exit);
    for (int i = 0; s == BASE_OK && i < n; i++) s = bind(c, scope, &op->results[i], st[i]);
    free(st);
    free(rets);
    return s;
}

/* if and case: branch i runs region i; results land in state buffers. */
static enum base_status lin_branches(struct cc *c, const struct graph_op *op, int scope)
{
    int nr = op->n_regions, n = op->n_results;
    if (nr < 1 || op->n_operands != 1 || (op->kind == GRAPH_OP_IF && nr != 2))
        return op_fail(c, op, BASE_ERR_INVALID, "malformed %s", op->name);
    int *res = calloc((size_t)n + 1, sizeof *res), *rets = calloc((size_t)n + 1, sizeof *rets);
    int *labels = base_arena_alloc(&c->p->arena, (size_t)nr * sizeof *labels);
    enum base_status s = res && rets && labels ? BASE_OK : base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; s == BASE_OK && i < n; i++) s = new_state(c, op->results[i].type, &res[i]);
    int pred = -1;
    if (s == BASE_OK) s = dense_for_host(c, op, scope, lookup(c, scope, op->operands[0]), &pred);
    for (int i = 0; i < nr && labels; i++) labels[i] = c->n_labels++;
    int end = c->n_labels++;
    if (s == BASE_OK) {
        if (op->kind == GRAPH_OP_IF) {
            s = add_jump(c, N_BRANCH, op, scope, pred, labels[1]); /* zero: false_branch */
        } else {
            int nd;
            s = new_node(c, N_SWITCH, op, scope, 1, 0, &nd);
            if (s == BASE_OK) {
                c->nodes[nd].in[0] = pred;
                c->nodes[nd].n_labels = nr;
                c->nodes[nd].labels = labels;
            }
        }
    }
    for (int r = 0; s == BASE_OK && r < nr; r++) {
        if (op->kind != GRAPH_OP_IF || r > 0) s = add_label(c, scope, labels[r]);
        if (s == BASE_OK) s = lin_region(c, op, &op->regions[r], scope, NULL, 0, rets, n);
        for (int i = 0; s == BASE_OK && i < n; i++) s = copy_leaves_into(c, op, scope, rets[i], res[i]);
        if (s == BASE_OK && r + 1 < nr) s = add_jump(c, N_JUMP, op, scope, -1, end);
    }
    if (s == BASE_OK) s = add_label(c, scope, end);
    for (int i = 0; s == BASE_OK && i < n; i++) s = bind(c, scope, &op->results[i], res[i]);
    free(res);
    free(rets);
    return s;
}

static bool splat_tensor(const struct base_tensor *t)
{
    return t && base_elems_splat(t->dtype, t->data, t->count);
}

/* op's results: new values written by node nd. */
static enum base_status bind_results(struct cc *c, const struct graph_op *op, int scope, int nd)
{
    for (int i = 0; i < op->n_results; i++) {
        int x;
        const struct graph_type *t = op->results[i].type;
        if (t && t->kind == GRAPH_TYPE_TOKEN) { /* nothing to write: the host orders it */
            TRY(new_vi(c, VI_TOKEN, &op->results[i], BASE_DT_I1, 0, NULL, &x));
            c->nodes[nd].out[i] = x;
            TRY(bind(c, scope, &op->results[i], x));
            continue;
        }
        if (!t || t->kind != GRAPH_TYPE_TENSOR)
            return op_fail(c, op, BASE_ERR_UNSUPPORTED, "%s is not lowered for %s: result %d is a tuple", op->name,
                           c->p->chip.name, i);
        TRY(vi_of_value(c, VI_OP, &op->results[i], &x));
        c->vi[x].node = nd;
        c->nodes[nd].out[i] = x;
        TRY(bind(c, scope, &op->results[i], x));
    }
    return BASE_OK;
}

static enum base_status lin_op_on(struct cc *c, const struct graph_op *op, int scope, const int *in);

/* A node whose operands and results the runtime reads and writes whole
 * (a collective, an op run on the host): its operands made dense first. */
static enum base_status host_io_node(struct cc *c, enum node_kind kind, const struct graph_op *op, int scope,
                                     const int *in)
{
    int nd, k = op->n_operands;
    int *dense = base_arena_alloc(&c->p->arena, (size_t)(k ? k : 1) * sizeof *dense);
    if (!dense) return op_fail(c, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; i < k; i++) {
        if (c->vi[in[i]].kind == VI_TUPLE)
            return op_fail(c, op, BASE_ERR_UNSUPPORTED, "%s is not lowered for %s: operand %d is a tuple", op->name,
                           c->p->chip.name, i);
        TRY(dense_for_host(c, op, scope, in[i], &dense[i]));
    }
    TRY(new_node(c, kind, op, scope, k, op->n_results, &nd));
    for (int i = 0; i < k; i++) c->nodes[nd].in[i] = dense[i];
    return bind_results(c, op, scope, nd);
}

/* after_all / create_token: a new token (the host runs what it orders in
 * program order already); tuple: a VI_TUPLE of its operands; get_tuple_element:
 * the element's vi itself. */
static enum base_status lin_token_or_tuple_op(struct cc *c, const struct graph_op *op, int scope, const int *in)
{
    int x;
    switch (op->kind) {
    case GRAPH_OP_TUPLE: {
        int *el = base_arena_alloc(&c->p->arena, (size_t)(op->n_operands ? op->n_operands : 1) * sizeof *el);
        if (!el) return op_fail(c, op, BASE_ERR_NOMEM, "out of memory");
        for (int i = 0; i < op->n_operands; i++) el[i] = in[i];
        TRY(new_vi(c, VI_TUPLE, &op->results[0], BASE_DT_I1, 0, NULL, &x));
        c->vi[x].n_elems = op->n_operands;
        c->vi[x].elems = el;
        break;
    }
    case GRAPH_OP_GET_TUPLE_ELEMENT: {
        int64_t idx = -1;
        graph_attr_as_i64(graph_op_attr(op, "index"), &idx);
        const struct vinfo *t = &c->vi[in[0]];
        if (t->kind != VI_TUPLE || idx < 0 || idx >= t->n_elems)
            return op_fail(c, op, BASE_ERR_INVALID, "%s: index %lld of a tuple of %d elements", op->name,
                           (long long)idx, t->kind == VI_TUPLE ? t->n_elems : 0);
        x = t->elems[idx];
        break;
    }
    default: TRY(new_vi(c, VI_TOKEN, &op->results[0], BASE_DT_I1, 0, NULL, &x)); break;
    }
    return bind(c, scope, &op->results[0], x);
}

/* interpreter.probe: the host reads the operand back and records it (the
 * runtime: rt_probe_*), as the interpreter does; the result is the operand
 * itself, so nothing is written back. */
static enum base_status lin_probe(struct cc *c, const struct graph_op *op, int scope, const int *in)
{
    int nd, dense;
    if (op->n_operands != 1 || op->n_results != 1) return op_fail(c, op, BASE_ERR_INVALID, "malformed %s", op->name);
    TRY(dense_for_host(c, op, scope, in[0], &dense));
    TRY(new_node(c, N_HOST, op, scope, 1, 0, &nd));
    c->nodes[nd].in[0] = dense;
    return bind(c, scope, &op->results[0], in[0]);
}

/* An op the chip cannot run, run on the host (cc_options.no_fallback). */
static enum base_status lin_host(struct cc *c, const struct graph_op *op, int scope, const int *in)
{
    return host_io_node(c, N_HOST, op, scope, in);
}

static enum base_status lin_op(struct cc *c, const struct graph_op *op, int scope)
{
    char why[256];
    const struct graph_op *rw = cc_rewrite_f64_compare(op, c->m->n_values, &c->p->arena);
    if (rw) { /* an f64 compare of a widened f32: compare the f32 (rewrite.c) */
        TRY(lin_op(c, rw->operands[1]->def, scope));
        op = rw;
    }
    bool on_host = false;
    if (!op_supported(op, &c->p->target, why, sizeof why)) {
        if (c->p->opt.no_fallback || !host_runnable(op)) return unsupported(c, op, why);
        on_host = true;
    }
    /* the operands' vis: on the stack for the usual few, else on the heap */
    int small[16], *in = small;
    if (op->n_operands > 16 && !(in = malloc((size_t)op->n_operands * sizeof *in)))
        return op_fail(c, op, BASE_ERR_NOMEM, "out of memory");
    enum base_status st = BASE_OK;
    for (int i = 0; st == BASE_OK && i < op->n_operands; i++) {
        in[i] = lookup(c, scope, op->operands[i]);
        if (in[i] < 0) st = op_fail(c, op, BASE_ERR_INTERNAL, "%s: operand %d has no value", op->name, i);
    }
    if (st == BASE_OK) st = on_host ? lin_host(c, op, scope, in) : lin_op_on(c, op, scope, in);
    if (in != small) free(in);
    return st;
}

/* op, whose operands are the vis in[]. */
static enum base_status lin_op_on(struct cc *c, const struct graph_op *op, int scope, const int *in)
{
    switch (op->kind) {
    case GRAPH_OP_CALL: return lin_call(c, op, scope, "callee");
    case GRAPH_OP_COMPOSITE: return lin_call(c, op, scope, "decomposition");
    case GRAPH_OP_WHILE: return lin_while(c, op, scope);
    case GRAPH_OP_IF:
    case GRAPH_OP_CASE: return lin_branches(c, op, scope);
    case GRAPH_OP_INTERP_PRINT: return BASE_OK; /* no effect on values */
    case GRAPH_OP_AFTER_ALL:
    case GRAPH_OP_CREATE_TOKEN:
    case GRAPH_OP_TUPLE:
    case GRAPH_OP_GET_TUPLE_ELEMENT: return lin_token_or_tuple_op(c, op, scope, in);
    case GRAPH_OP_INTERP_PROBE: return lin_probe(c, op, scope, in);
    case GRAPH_OP_SEND:
    case GRAPH_OP_RECV:
    case GRAPH_OP_INFEED:
    case GRAPH_OP_OUTFEED: return host_io_node(c, N_HOST, op, scope, in);
    case GRAPH_OP_OPTIMIZATION_BARRIER:
    case GRAPH_OP_SDY_SHARDING_CONSTRAINT: /* annotations: each result is its operand */
    case GRAPH_OP_SDY_RESHARD:
    case GRAPH_OP_SDY_PROPAGATION_BARRIER:
    case GRAPH_OP_MHLO_COPY:
        for (int i = 0; i < op->n_results && i < op->n_operands; i++) TRY(bind(c, scope, &op->results[i], in[i]));
        return BASE_OK;
    case GRAPH_OP_CUSTOM_CALL:
        if (cc_custom_call_claims(op)) { /* the identity: each result is its operand */
            for (int i = 0; i < op->n_results && i < op->n_operands; i++) TRY(bind(c, scope, &op->results[i], in[i]));
            return BASE_OK;
        }
        break;
    case GRAPH_OP_PARTITION_ID:
    case GRAPH_OP_REPLICA_ID: {
        /* like an input: a buffer the runtime fills before the first kernel
         * (never a constant: each partition's value differs) */
        int x;
        TRY(vi_of_value(c, VI_INPUT, &op->results[0], &x));
        c->vi[x].buf_kind = op->kind == GRAPH_OP_PARTITION_ID ? CC_BUF_PARTITION_ID : CC_BUF_REPLICA_ID;
        return bind(c, scope, &op->results[0], x);
    }
    case GRAPH_OP_CONSTANT: {
        int x;
        TRY(vi_of_value(c, VI_CONST, &op->results[0], &x));
        const struct graph_attr *a = graph_op_attr(op, "value");
        c->vi[x].init = a->u.elements.value;
        c->vi[x].splat = splat_tensor(c->vi[x].init);
        c->vi[x].buf_kind = CC_BUF_CONST;
        return bind(c, scope, &op->results[0], x);
    }
    default: break;
    }
    if (is_check_op(op)) {
        int nd, k = op->n_operands;
        int *dense = base_arena_alloc(&c->p->arena, (size_t)(k ? k : 1) * sizeof *dense);
        if (!dense) return op_fail(c, op, BASE_ERR_NOMEM, "out of memory");
        for (int i = 0; i < k; i++) TRY(dense_for_host(c, op, scope, in[i], &dense[i]));
        TRY(new_node(c, N_CHECK, op, scope, k, op->n_results, &nd));
        for (int i = 0; i < k; i++) c->nodes[nd].in[i] = dense[i];
        return bind_results(c, op, scope, nd); /* @check.eq: the runtime writes the verdict */
    }
    if (op->kind == GRAPH_OP_BITCAST_CONVERT &&
        base_dtype_bits(op->operands[0]->type->elem) != base_dtype_bits(op->results[0].type->elem)) {
        /* the same bytes, regrouped (i32[n] <-> i8[n, 4]): a dense view of
         * a dense buffer, copied to one first if the operand is a view */
        int src = in[0], x;
        if (!cc_view_is_dense(&c->vi[src].view)) {
            const struct graph_type *st = op->operands[0]->type;
            TRY(add_copy(c, op, scope, src, VI_OP, st->rank, st->dims, &src));
        }
        const struct graph_type *rt = op->results[0].type;
        TRY(vi_of_value(c, VI_VIEW, &op->results[0], &x));
        c->vi[x].root = c->vi[src].root;
        cc_view_dense(&c->vi[x].view, c->vi[src].view.addr, rt->elem, rt->rank, rt->dims);
        return bind(c, scope, &op->results[0], x);
    }
    if (icn_coll_of_op(op->kind, NULL)) /* the runtime moves whole buffers between chips */
        return host_io_node(c, N_COLLECTIVE, op, scope, in);
    if (is_view_op(op->kind)) {
        const struct vinfo *src = &c->vi[in[0]];
        struct cc_view v;
        int x;
        if (view_of(op, &src->view, &v)) {
            TRY(vi_of_value(c, VI_VIEW, &op->results[0], &x));
            c->vi[x].root = c->vi[in[0]].root;
            c->vi[x].view = v;
        } else { /* a reshape the strides cannot express: materialise it */
            const struct graph_type *rt = op->results[0].type;
            TRY(add_copy(c, op, scope, in[0], VI_OP, rt->rank, rt->dims, &x));
            c->vi[x].v = &op->results[0];
        }
        return bind(c, scope, &op->results[0], x);
    }
    int nd;
    TRY(new_node(c, N_OP, op, scope, op->n_operands, op->n_results, &nd));
    for (int i = 0; i < op->n_operands; i++) c->nodes[nd].in[i] = in[i];
    return bind_results(c, op, scope, nd);
}

static enum base_status lin_block(struct cc *c, const struct graph_block *b, int scope, int *rets, int n_rets, int *got)
{
    const struct graph_op *term = graph_block_terminator(b);
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op == term) break;
        TRY(lin_op(c, op, scope));
    }
    *got = 0;
    if (!term) return BASE_OK;
    if (term->n_operands > n_rets) {
        *got = term->n_operands;
        return BASE_OK;
    }
    for (int i = 0; i < term->n_operands; i++) {
        rets[i] = lookup(c, scope, term->operands[i]);
        if (rets[i] < 0) return op_fail(c, term, BASE_ERR_INTERNAL, "returned value %d has no value", i);
    }
    *got = term->n_operands;
    return BASE_OK;
}

/* ---------------------------------------------------------- liveness */

/* Drops ops whose results nobody reads; counts uses of the rest. */
static void mark_live(struct cc *c, const int *outs, int n_outs)
{
    for (int i = 0; i < c->n_vi; i++) c->vi[i].uses = 0;
    for (int i = 0; i < n_outs; i++) c->vi[c->vi[outs[i]].root].uses++;
    for (int i = c->n_nodes - 1; i >= 0; i--) {
        struct node *n = &c->nodes[i];
        bool live;
        if (n->kind == N_OP || (n->kind == N_HOST && !has_effects(n->op)) || (n->kind == N_COPY && !n->barrier)) {
            live = false;
            for (int j = 0; j < n->n_out; j++) live |= c->vi[n->out[j]].uses > 0;
        } else {
            live = true;
        }
        n->live = live;
        if (!live) continue;
        for (int j = 0; j < n->n_in; j++) {
            int x = n->in[j];
            c->vi[x].uses++;
            if (c->vi[x].root != x) c->vi[c->vi[x].root].uses++;
        }
    }
}

/* --------------------------------------------------------------- groups */

static int64_t count_of(int rank, const int64_t *dims)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++) n *= dims[d];
    return n;
}

static bool same_shape(int ra, const int64_t *a, int rb, const int64_t *b)
{
    if (ra != rb) return false;
    for (int d = 0; d < ra; d++)
        if (a[d] != b[d]) return false;
    return true;
}

static enum cc_kernel_kind kind_of_op(const struct graph_op *op)
{
    if (is_elementwise(op)) return CC_K_ELEMENTWISE;
    switch (op->kind) {
    case GRAPH_OP_DOT_GENERAL:
    case GRAPH_OP_DOT: return CC_K_DOT;
    case GRAPH_OP_CONVOLUTION: return CC_K_CONV;
    case GRAPH_OP_REDUCE: return CC_K_REDUCE;
    case GRAPH_OP_REDUCE_WINDOW: return CC_K_REDUCE_WINDOW;
    case GRAPH_OP_CONCATENATE: return CC_K_CONCAT;
    case GRAPH_OP_PAD: return CC_K_PAD;
    case GRAPH_OP_GATHER: return CC_K_GATHER;
    case GRAPH_OP_SCATTER: return CC_K_SCATTER;
    case GRAPH_OP_DYNAMIC_SLICE: return CC_K_DYNAMIC_SLICE;
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE: return CC_K_DYNAMIC_UPDATE_SLICE;
    case GRAPH_OP_RNG_BIT_GENERATOR: return CC_K_RNG_BIT_GENERATOR;
    case GRAPH_OP_RNG: return CC_K_RNG;
    case GRAPH_OP_SELECT_AND_SCATTER: return CC_K_SELECT_AND_SCATTER;
    case GRAPH_OP_SORT:
    case GRAPH_OP_CHLO_TOP_K:
    case GRAPH_OP_CUSTOM_CALL: return CC_K_SORT;
    default: return CC_K_COPY;
    }
}

/* The group whose kernel writes vi x (a root), or -1. */
static int producer_group(const struct cc *c, int x)
{
    const struct vinfo *v = &c->vi[c->vi[x].root];
    if (v->kind != VI_OP || v->node < 0) return -1;
    return c->nodes[v->node].group;
}

struct emit_list {
    int n, cap;
    int *items; /* >= 0: group; < 0: -(node + 1), a control node */
};

static enum base_status list_add(struct cc *c, struct emit_list *l, int item)
{
    GROW(l->items, l->n, l->cap, "steps");
    l->items[l->n++] = item;
    return BASE_OK;
}

static enum base_status close_group(struct cc *c, struct emit_list *l, int g)
{
    if (g < 0 || !c->groups[g].open) return BASE_OK;
    c->groups[g].open = false;
    return list_add(c, l, g);
}

static enum base_status close_all(struct cc *c, struct emit_list *l)
{
    for (int g = 0; g < c->n_groups; g++) TRY(close_group(c, l, g));
    return BASE_OK;
}

static enum base_status group_add(struct cc *c, int g, int nd)
{
    struct group *gr = &c->groups[g];
    GROW(gr->nodes, gr->n_nodes, gr->cap_nodes, "group");
    gr->nodes[gr->n_nodes++] = nd;
    gr->n_views += c->nodes[nd].n_in + c->nodes[nd].n_out;
    c->nodes[nd].group = g;
    return BASE_OK;
}

static enum base_status new_group(struct cc *c, enum cc_kernel_kind kind, int nd, bool open, int *out)
{
    GROW(c->groups, c->n_groups, c->cap_groups, "groups");
    int g = c->n_groups++;
    struct group *gr = &c->groups[g];
    memset(gr, 0, sizeof *gr);
    gr->kind = kind;
    gr->scope = c->nodes[nd].scope;
    gr->open = open;
    const struct node *n = &c->nodes[nd];
    if (n->n_out > 0) {
        const struct vinfo *o = &c->vi[n->out[0]];
        gr->rank = o->rank;
        for (int d = 0; d < o->rank; d++) gr->dims[d] = o->dims[d];
    }
    gr->small = gr->rank >= 0 && count_of(gr->rank, gr->dims) <= CC_SMALL_ELEMS;
    TRY(group_add(c, g, nd));
    *out = g;
    return BASE_OK;
}

/* Whether node nd may join open group g: same scope, room left, every
 * operand either made by g directly (not through a view) or by a closed
 * kernel, and at least one operand made by g.  A value of g that readers
 * outside g also need is written to HBM as well (a multi-output fusion),
 * so joining never costs more HBM traffic than not joining. */
static bool can_join(const struct cc *c, int g, int nd)
{
    const struct group *gr = &c->groups[g];
    const struct node *n = &c->nodes[nd];
    if (!gr->open || gr->scope != n->scope || gr->n_nodes >= CC_MAX_FUSED_OPS) return false;
    if (gr->n_views + n->n_in + n->n_out > CC_MAX_FUSED_VIEWS) return false; /* an upper bound of its operands */
    for (int i = 0; i < gr->n_nodes; i++)
        if (c->nodes[gr->nodes[i]].op == n->op) return false; /* an op twice (inlined twice) */
    bool via = false;
    for (int i = 0; i < n->n_in; i++) {
        int x = n->in[i];
        if (producer_group(c, x) != g) continue;
        if (c->vi[x].root != x) return false; /* a view of g's value: g must write it first */
        /* the kernels find g's values by the graph values its ops make: an
         * operand that names one through another value (an
         * optimization_barrier's or get_tuple_element's result) is read
         * from HBM, after g */
        if (n->kind == N_OP && c->vi[x].v != n->op->operands[i]) {
            /* ... except in an elementwise kernel, which looks through
             * identities (sdy annotations, optimization_barrier:
             * cc_identity_source) to the value g makes */
            const struct graph_value *gv = n->op->operands[i];
            while (gv && gv != c->vi[x].v) gv = cc_identity_source(gv);
            if (!gv || gr->kind != CC_K_ELEMENTWISE) return false;
        }
        via = true;
    }
    return via;
}

static enum base_status close_producers(struct cc *c, struct emit_list *l, int nd, int except)
{
    const struct node *n = &c->nodes[nd];
    for (int i = 0; i < n->n_in; i++) {
        int g = producer_group(c, n->in[i]);
        if (g >= 0 && g != except) TRY(close_group(c, l, g));
    }
    return BASE_OK;
}

static enum base_status group_nodes(struct cc *c, enum cc_mode mode, struct emit_list *l)
{
    for (int i = 0; i < c->n_nodes; i++) {
        struct node *n = &c->nodes[i];
        if (!n->live) continue;
        if (n->kind == N_COPY && !n->barrier) {
            TRY(close_producers(c, l, i, -1));
            int g;
            TRY(new_group(c, CC_K_COPY, i, false, &g));
            TRY(list_add(c, l, g));
            continue;
        }
        if (n->kind == N_COPY) { /* into a state buffer: after everything before it */
            TRY(close_all(c, l));
            int g;
            TRY(new_group(c, CC_K_COPY, i, false, &g));
            TRY(list_add(c, l, g));
            continue;
        }
        if (n->kind != N_OP) {
            TRY(close_all(c, l));
            if (n->kind != N_LOOP_END) TRY(list_add(c, l, -(i + 1)));
            else TRY(list_add(c, l, -(i + 1)));
            continue;
        }
        enum cc_kernel_kind kind = kind_of_op(n->op);
        const struct vinfo *o = &c->vi[n->out[0]];
        int join = -1;
        if (mode != CC_MODE_EAGER && kind == CC_K_ELEMENTWISE) {
            bool small = count_of(o->rank, o->dims) <= CC_SMALL_ELEMS;
            for (int j = 0; j < n->n_in && join < 0; j++) {
                int g = producer_group(c, n->in[j]);
                if (g < 0 || !can_join(c, g, i)) continue;
                const struct group *gr = &c->groups[g];
                if (!same_shape(gr->rank, gr->dims, o->rank, o->dims)) continue;
                if (mode == CC_MODE_COMPILED && gr->kind != CC_K_ELEMENTWISE && gr->kind != CC_K_DOT) continue;
                /* a dot's epilogue: what the dot kernels take (a lone convert, or any chain) */
                if (gr->kind == CC_K_DOT && !cc_dot_fuses_epilogues(c->nodes[gr->nodes[0]].op, &c->p->chip) &&
                    (gr->n_nodes > 1 || n->op->kind != GRAPH_OP_CONVERT))
                    continue;
                if (mode == CC_MODE_FUSED_EAGER && (gr->kind != CC_K_ELEMENTWISE || !gr->small || !small)) continue;
                join = g;
            }
        } else if (mode == CC_MODE_COMPILED && kind == CC_K_REDUCE) {
            /* an elementwise prologue of the reduced input's shape */
            const struct vinfo *x = &c->vi[n->in[0]];
            int g = producer_group(c, n->in[0]);
            if (g >= 0 && c->groups[g].kind == CC_K_ELEMENTWISE && can_join(c, g, i) &&
                same_shape(c->groups[g].rank, c->groups[g].dims, x->rank, x->dims))
                join = g;
        }
        if (join >= 0) {
            TRY(close_producers(c, l, i, join));
            TRY(group_add(c, join, i));
            if (kind == CC_K_REDUCE) {
                c->groups[join].kind = CC_K_REDUCE;
                TRY(close_group(c, l, join));
            }
            continue;
        }
        TRY(close_producers(c, l, i, -1));
        int g;
        bool open = mode != CC_MODE_EAGER && (kind == CC_K_ELEMENTWISE || (mode == CC_MODE_COMPILED && kind == CC_K_DOT));
        TRY(new_group(c, kind, i, open, &g));
        if (!open) TRY(list_add(c, l, g));
    }
    return close_all(c, l);
}

/* ---------------------------------------------------------- kernels */

static uint64_t flops_of(const struct cc *c, const struct node *n)
{
    const struct graph_op *op = n->op;
    if (!op || n->kind != N_OP) return 0;
    const struct graph_type *rt = op->results[0].type;
    int64_t out = count_of(rt->rank, rt->dims);
    (void)c;
    switch (op->kind) {
    case GRAPH_OP_CONVERT:
    case GRAPH_OP_SELECT:
    case GRAPH_OP_IOTA:
    case GRAPH_OP_CONSTANT: return 0;
    case GRAPH_OP_DOT: {
        const struct graph_type *lt = op->operands[0]->type;
        return (uint64_t)(2 * out * (lt->rank > 0 ? lt->dims[lt->rank - 1] : 1));
    }
    case GRAPH_OP_DOT_GENERAL: {
        int64_t cd[BASE_MAX_RANK], k = 1;
        const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
        int nc = graph_attr_as_i64_list(dn ? graph_dict_get(dn, "lhs_contracting_dimensions") : NULL, cd, BASE_MAX_RANK);
        const struct graph_type *lt = op->operands[0]->type;
        for (int i = 0; i < nc; i++)
            if (cd[i] >= 0 && cd[i] < lt->rank) k *= lt->dims[cd[i]];
        return (uint64_t)(2 * out * k);
    }
    case GRAPH_OP_CONVOLUTION: {
        const struct graph_type *kt = op->operands[1]->type;
        int64_t kn = count_of(kt->rank, kt->dims), ofeat = 1, g = 1;
        int64_t v;
        /* kernel elements per output feature x output elements x 2 */
        const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
        const struct graph_attr *of = dn ? graph_dict_get(dn, "kernel_output_feature_dimension") : NULL;
        if (of && graph_attr_as_i64(of, &v) && v >= 0 && v < kt->rank) ofeat = kt->dims[v];
        (void)g;
        return (uint64_t)(2 * out * (ofeat ? kn / ofeat : kn));
    }
    case GRAPH_OP_REDUCE: {
        const struct graph_type *xt = op->operands[0]->type;
        return (uint64_t)(count_of(xt->rank, xt->dims) * (op->n_operands / 2));
    }
    case GRAPH_OP_REDUCE_WINDOW: {
        int64_t w[BASE_MAX_RANK], ws = 1;
        int nw = graph_attr_as_i64_list(graph_op_attr(op, "window_dimensions"), w, BASE_MAX_RANK);
        for (int i = 0; i < nw; i++) ws *= w[i];
        return (uint64_t)(out * ws);
    }
    default: return is_elementwise(op) ? (uint64_t)out : 0;
    }
}

/* Bytes a view touches: elements along dims with a non-zero stride. */
static uint64_t view_bytes(const struct cc_view *v)
{
    uint64_t n = 1;
    for (int d = 0; d < v->rank; d++)
        if (v->strides[d] != 0) n *= (uint64_t)v->dims[d];
    return n * base_dtype_size(v->dtype);
}

static const char *short_name(const struct graph_op *op)
{
    const char *s = op->name, *dot = strchr(s, '.');
    return dot ? dot + 1 : s;
}

static enum base_status need_buffer(struct cc *c, int x)
{
    struct vinfo *v = &c->vi[c->vi[x].root];
    if (v->buffer >= 0) return BASE_OK;
    struct cc_plan *p = c->p;
    GROW(p->bufs, p->n_bufs, p->cap_bufs, "buffers");
    struct cc_buffer *b = &p->bufs[p->n_bufs];
    memset(b, 0, sizeof *b);
    b->kind = v->buf_kind;
    b->dtype = v->dtype;
    b->rank = v->rank;
    for (int d = 0; d < v->rank; d++) b->dims[d] = v->dims[d];
    b->bytes = (uint64_t)count_of(v->rank, v->dims) * base_dtype_size(v->dtype);
    b->arg_index = -1;
    b->out_index = v->out_index;
    b->init = v->init;
    b->value_id = v->v ? v->v->id : UINT32_MAX;
    v->buffer = (int32_t)p->n_bufs++;
    return BASE_OK;
}

static enum base_status operand_of(struct cc *c, const struct graph_value *gv, int x, struct cc_operand *o)
{
    TRY(need_buffer(c, x));
    const struct vinfo *v = &c->vi[x];
    o->value = gv;
    o->buffer = (uint32_t)c->vi[v->root].buffer;
    o->view = v->view; /* relative: the buffer's address is added once placed */
    return BASE_OK;
}

static enum base_status build_kernel(struct cc *c, int g, uint32_t *kidx)
{
    struct cc_plan *p = c->p;
    const struct group *gr = &c->groups[g];
    GROW(p->kernels, p->n_kernels, p->cap_kernels, "kernels");
    struct cc_kernel *k = &p->kernels[p->n_kernels];
    memset(k, 0, sizeof *k);
    k->kind = gr->kind;
    int n_ops = 0, max_in = 0, max_out = 0;
    for (int i = 0; i < gr->n_nodes; i++) {
        const struct node *n = &c->nodes[gr->nodes[i]];
        if (n->kind == N_OP) n_ops++;
        max_in += n->n_in;
        max_out += n->n_out;
    }
    const struct graph_op **ops = base_arena_alloc(&p->arena, (size_t)(n_ops + 1) * sizeof *ops);
    struct cc_operand *in = base_arena_alloc(&p->arena, (size_t)(max_in + 1) * sizeof *in);
    struct cc_operand *out = base_arena_alloc(&p->arena, (size_t)(max_out + 1) * sizeof *out);
    if (!ops || !in || !out) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int ni = 0, no = 0, nops = 0;
    uint64_t flops = 0, bytes = 0;
    const struct graph_op *root = NULL;
    for (int i = 0; i < gr->n_nodes; i++) {
        const struct node *n = &c->nodes[gr->nodes[i]];
        if (n->kind == N_OP) {
            ops[nops++] = n->op;
            flops += flops_of(c, n);
            if (!root || graph_op_kind_has(n->op->kind, GRAPH_OPF_CONTRACTION) || n->op->kind == GRAPH_OP_REDUCE)
                root = n->op;
            if (gr->kind == CC_K_ELEMENTWISE) root = n->op;
        } else if (!root) {
            root = n->op;
        }
        for (int j = 0; j < n->n_in; j++) {
            int x = n->in[j];
            if (producer_group(c, x) == g && c->vi[x].root == x) continue; /* made inside */
            const struct graph_value *gv = n->kind == N_OP ? n->op->operands[j] : c->vi[x].v;
            bool dup = false;
            for (int q = 0; q < ni && !dup; q++) dup = in[q].value == gv && gv != NULL && in[q].view.addr == c->vi[x].view.addr;
            if (dup) continue;
            TRY(operand_of(c, gv, x, &in[ni]));
            bool splat = c->vi[c->vi[x].root].kind == VI_CONST && c->vi[c->vi[x].root].splat;
            if (!splat) bytes += view_bytes(&in[ni].view);
            ni++;
        }
        for (int j = 0; j < n->n_out; j++) {
            int x = n->out[j];
            if (n->kind == N_OP && !c->vi[x].needed) continue;
            const struct graph_value *gv = n->kind == N_OP ? &n->op->results[j] : c->vi[x].v;
            TRY(operand_of(c, gv, x, &out[no]));
            bytes += view_bytes(&out[no].view);
            no++;
        }
    }
    /* data-dependent addresses: the index operands, read by the runtime
     * before emission (gather: start_indices; dynamic slices: the starts) */
    if ((gr->kind == CC_K_GATHER || gr->kind == CC_K_SCATTER || gr->kind == CC_K_DYNAMIC_SLICE ||
         gr->kind == CC_K_DYNAMIC_UPDATE_SLICE) &&
        gr->n_nodes == 1 && c->nodes[gr->nodes[0]].kind == N_OP) {
        const struct node *n = &c->nodes[gr->nodes[0]];
        int first = gr->kind == CC_K_DYNAMIC_UPDATE_SLICE ? 2 : 1;
        int last = gr->kind == CC_K_GATHER || gr->kind == CC_K_SCATTER ? 2 : n->n_in;
        int nd = last > first ? last - first : 0;
        uint32_t *db = base_arena_alloc(&p->arena, (size_t)(nd + 1) * sizeof *db);
        struct cc_view *dv = base_arena_alloc(&p->arena, (size_t)(nd + 1) * sizeof *dv);
        if (!db || !dv) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        for (int j = first; j < last; j++) {
            struct cc_operand o;
            TRY(operand_of(c, n->op->operands[j], n->in[j], &o));
            db[j - first] = o.buffer;
            dv[j - first] = o.view;
        }
        k->n_dyn = nd;
        k->dyn_buffers = db;
        k->dyn_views = dv;
    }
    /* moves of complex64 elements: each one 64-bit word (k_complex.c); a
     * plain copy of complex128 elements: two words each, an innermost axis
     * of 2 (no engine takes a 16-byte element) */
    if (gr->kind == CC_K_COPY || gr->kind == CC_K_CONCAT || gr->kind == CC_K_PAD || gr->kind == CC_K_GATHER ||
        gr->kind == CC_K_DYNAMIC_SLICE || gr->kind == CC_K_DYNAMIC_UPDATE_SLICE)
        for (int j = 0; j < ni + no; j++) {
            struct cc_view *v = j < ni ? &in[j].view : &out[j - ni].view;
            if (v->dtype == BASE_DT_C64) v->dtype = BASE_DT_UI64;
            if (v->dtype == BASE_DT_C128 && gr->kind == CC_K_COPY) {
                if (v->rank >= BASE_MAX_RANK)
                    return base_diag_set(c->diag, BASE_ERR_UNSUPPORTED, NULL, 0, 0,
                                         "a copy of complex128 elements of rank %d (the word view needs one more)",
                                         v->rank);
                for (int d = 0; d < v->rank; d++) v->strides[d] *= 2;
                v->dims[v->rank] = 2;
                v->strides[v->rank] = 1;
                v->rank++;
                v->dtype = BASE_DT_UI64;
            }
        }
    k->n_ops = nops;
    k->ops = ops;
    k->n_in = ni;
    k->in = in;
    k->n_out = no;
    k->out = out;
    k->info.root = root;
    k->info.n_ops = nops;
    k->info.flops = flops;
    k->info.hbm_bytes = bytes;
    k->info.dispatch = p->opt.mode != CC_MODE_COMPILED;
    /* name: the op for one op, "fusion(a,b,...)" for a group */
    char *nm = k->info.name;
    size_t cap = sizeof k->info.name, len = 0;
    if (nops == 0) {
        len = (size_t)snprintf(nm, cap, "copy");
        if (root && !graph_op_kind_has(root->kind, GRAPH_OPF_CONTROL_FLOW))
            snprintf(nm + len, cap - len, "(%s)", short_name(root));
    } else if (nops == 1) {
        snprintf(nm, cap, "%s", short_name(ops[0]));
    } else {
        len = (size_t)snprintf(nm, cap, "fusion(");
        for (int i = 0; i < nops && len + 1 < cap; i++)
            len += (size_t)snprintf(nm + len, cap - len, "%s%s", i ? "," : "", short_name(ops[i]));
        if (len + 2 < cap) snprintf(nm + len, cap - len, ")");
        else memcpy(nm + cap - 5, "...)", 5);
    }
    if (ni + no > CC_MAX_FUSED_VIEWS && nops > 1)
        return op_fail(c, root, BASE_ERR_INTERNAL, "kernel %s has %d operands", nm, ni + no);
    *kidx = p->n_kernels++;
    return BASE_OK;
}

/* ------------------------------------------------------------- steps */

static enum base_status add_step(struct cc *c, const struct cc_step *s)
{
    struct cc_plan *p = c->p;
    GROW(p->steps, p->n_steps, p->cap_steps, "steps");
    p->steps[p->n_steps++] = *s;
    return BASE_OK;
}

/* Too-large groups are split before kernels are built: a group whose
 * operands exceed the limit gives its last node back as a kernel of its own. */
static enum base_status build_steps(struct cc *c, const struct emit_list *l)
{
    struct cc_plan *p = c->p;
    c->label_step = calloc((size_t)c->n_labels + 1, sizeof *c->label_step);
    if (!c->label_step) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < c->n_labels; i++) c->label_step[i] = -1;
    /* first: label positions (a label is the index of the next step) */
    int pos = 0;
    for (int i = 0; i < l->n; i++) {
        int it = l->items[i];
        if (it >= 0) {
            pos++;
            continue;
        }
        const struct node *n = &c->nodes[-it - 1];
        if (n->kind == N_LABEL) c->label_step[n->label] = pos;
        else if (n->kind != N_LOOP_END) pos++;
    }
    for (int i = 0; i < l->n; i++) {
        int it = l->items[i];
        struct cc_step s;
        memset(&s, 0, sizeof s);
        s.trip_count = -1;
        if (it >= 0) {
            uint32_t k = 0;
            TRY(build_kernel(c, it, &k));
            s.kind = CC_STEP_KERNEL;
            s.kernel = k;
            s.op = p->kernels[k].info.root;
            TRY(add_step(c, &s));
            continue;
        }
        const struct node *n = &c->nodes[-it - 1];
        s.op = n->op;
        switch (n->kind) {
        case N_LABEL: continue;
        case N_LOOP_END:
            GROW(c->loop_head_label, c->n_loops, c->cap_loops, "loops");
            {
                int *ne = realloc(c->loop_end_step, (size_t)c->cap_loops * sizeof *ne);
                if (!ne) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
                c->loop_end_step = ne;
            }
            c->loop_head_label[c->n_loops] = n->label;
            c->loop_end_step[c->n_loops] = (int)p->n_steps - 1;
            c->n_loops++;
            continue;
        case N_BRANCH:
        case N_SWITCH: {
            int x = n->in[0];
            struct vinfo *v = &c->vi[c->vi[x].root];
            if (v->kind == VI_OP) v->buf_kind = CC_BUF_SCALAR;
            TRY(need_buffer(c, x));
            /* host-read: never reused (the kernel that wrote it may have made it a temporary) */
            if (p->bufs[v->buffer].kind == CC_BUF_TEMP) p->bufs[v->buffer].kind = CC_BUF_SCALAR;
            s.kind = n->kind == N_BRANCH ? CC_STEP_BRANCH : CC_STEP_SWITCH;
            s.trip_count = n->trip;
            s.buffer = (uint32_t)v->buffer;
            if (n->kind == N_BRANCH) {
                s.target = (uint32_t)c->label_step[n->label];
            } else {
                uint32_t *t = base_arena_alloc(&p->arena, (size_t)n->n_labels * sizeof *t);
                if (!t) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
                for (int j = 0; j < n->n_labels; j++) t[j] = (uint32_t)c->label_step[n->labels[j]];
                s.n_targets = (uint32_t)n->n_labels;
                s.targets = t;
            }
            break;
        }
        case N_JUMP:
            s.kind = CC_STEP_JUMP;
            s.target = (uint32_t)c->label_step[n->label];
            break;
        case N_CHECK: {
            s.kind = CC_STEP_CHECK;
            uint32_t *cb = base_arena_alloc(&p->arena, (size_t)(n->n_in + 1) * sizeof *cb);
            if (!cb) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
            for (int j = 0; j < n->n_in; j++) {
                struct vinfo *v = &c->vi[c->vi[n->in[j]].root];
                if (v->kind == VI_OP) v->permanent = true;
                TRY(need_buffer(c, n->in[j]));
                cb[j] = (uint32_t)v->buffer;
            }
            s.n_check_buffers = (uint32_t)n->n_in;
            s.check_buffers = cb;
            s.check_out_buffer = UINT32_MAX;
            if (n->n_out == 1) {
                struct vinfo *v = &c->vi[c->vi[n->out[0]].root];
                v->permanent = true;
                TRY(need_buffer(c, n->out[0]));
                s.check_out_buffer = (uint32_t)v->buffer;
            }
            break;
        }
        case N_COLLECTIVE:
        case N_HOST: {
            s.kind = n->kind == N_HOST ? CC_STEP_HOST : CC_STEP_COLLECTIVE;
            uint32_t *cb = base_arena_alloc(&p->arena, (size_t)(n->n_in + n->n_out + 1) * sizeof *cb);
            if (!cb) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
            for (int j = 0; j < n->n_in + n->n_out; j++) {
                int x = j < n->n_in ? n->in[j] : n->out[j - n->n_in];
                if (c->vi[x].kind == VI_TOKEN) { /* no bytes to move */
                    cb[j] = CC_NO_BUFFER;
                    continue;
                }
                struct vinfo *v = &c->vi[c->vi[x].root];
                if (v->kind == VI_OP) v->permanent = true; /* written and read by the host */
                TRY(need_buffer(c, x));
                cb[j] = (uint32_t)v->buffer;
            }
            s.n_in = (uint32_t)n->n_in;
            s.n_out = (uint32_t)n->n_out;
            s.io_buffers = cb;
            break;
        }
        default: return base_diag_set(c->diag, BASE_ERR_INTERNAL, NULL, 0, 0, "unexpected node");
        }
        TRY(add_step(c, &s));
    }
    return BASE_OK;
}

/* ------------------------------------------------------------- placement */

struct live {
    int first, last;
};

static uint64_t align_up(uint64_t x) { return (x + CC_ALIGN - 1) & ~(uint64_t)(CC_ALIGN - 1); }

/* qsort without a context argument: sort indices by (first, index). */
static void sort_by_first(int *idx, int n, const struct live *lv)
{
    /* insertion sort on runs is too slow for big graphs: merge sort */
    int *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    if (!tmp) { /* fall back: simple insertion sort */
        for (int i = 1; i < n; i++) {
            int v = idx[i], j = i - 1;
            while (j >= 0 && lv[idx[j]].first > lv[v].first) {
                idx[j + 1] = idx[j];
                j--;
            }
            idx[j + 1] = v;
        }
        return;
    }
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = lv[idx[b]].first < lv[idx[a]].first ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
    free(tmp);
}

static enum base_status place(struct cc *c)
{
    struct cc_plan *p = c->p;
    uint32_t nb = p->n_bufs;
    struct live *lv = calloc((size_t)nb + 1, sizeof *lv);
    bool *perm = calloc((size_t)nb + 1, sizeof *perm);
    int *idx = calloc((size_t)nb + 1, sizeof *idx);
    if (!lv || !perm || !idx) {
        free(lv);
        free(perm);
        free(idx);
        return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    for (uint32_t b = 0; b < nb; b++) {
        lv[b].first = INT32_MAX;
        lv[b].last = -1;
        perm[b] = p->bufs[b].kind != CC_BUF_TEMP;
    }
    for (int i = 0; i < c->n_vi; i++)
        if (c->vi[i].root == i && c->vi[i].buffer >= 0 && c->vi[i].permanent) perm[c->vi[i].buffer] = true;
    /* accesses by step */
    for (uint32_t s = 0; s < p->n_steps; s++) {
        const struct cc_step *st = &p->steps[s];
        uint32_t touch[2048];
        int nt = 0;
        if (st->kind == CC_STEP_KERNEL) {
            const struct cc_kernel *k = &p->kernels[st->kernel];
            for (int i = 0; i < k->n_in && nt < 2048; i++) touch[nt++] = k->in[i].buffer;
            for (int i = 0; i < k->n_out && nt < 2048; i++) touch[nt++] = k->out[i].buffer;
        } else if (st->kind == CC_STEP_BRANCH || st->kind == CC_STEP_SWITCH) {
            touch[nt++] = st->buffer;
        } else if (st->kind == CC_STEP_CHECK) {
            for (uint32_t i = 0; i < st->n_check_buffers && nt < 2048; i++) touch[nt++] = st->check_buffers[i];
        } else if (st->kind == CC_STEP_HOST || st->kind == CC_STEP_COLLECTIVE) {
            /* the host reads and writes these (a loop's state among them) */
            for (uint32_t i = 0; i < st->n_in + st->n_out && nt < 2048; i++)
                if (st->io_buffers[i] != CC_NO_BUFFER) touch[nt++] = st->io_buffers[i];
        }
        for (int i = 0; i < nt; i++) {
            struct live *L = &lv[touch[i]];
            if ((int)s < L->first) L->first = (int)s;
            if ((int)s > L->last) L->last = (int)s;
        }
    }
    /* loops: a buffer used in a loop but made before it lives through it */
    for (bool changed = true; changed;) {
        changed = false;
        for (int l = 0; l < c->n_loops; l++) {
            int head = c->label_step[c->loop_head_label[l]], end = c->loop_end_step[l];
            for (uint32_t b = 0; b < nb; b++) {
                struct live *L = &lv[b];
                if (L->last < 0) continue;
                bool used_in = L->last >= head && L->first <= end;
                if (!used_in) continue;
                if (L->first < head && L->last < end) {
                    L->last = end;
                    changed = true;
                }
                if (L->first >= head && L->last > end && L->first > head) {
                    /* made inside, read after the loop: alive for the whole loop */
                    L->first = head;
                    changed = true;
                }
            }
        }
    }
    uint64_t top = align_up(p->opt.hbm_base);
    for (uint32_t b = 0; b < nb; b++)
        if (perm[b]) {
            p->bufs[b].addr = top;
            top = align_up(top + (p->bufs[b].bytes ? p->bufs[b].bytes : 1));
        }
    int n = 0;
    for (uint32_t b = 0; b < nb; b++)
        if (!perm[b]) idx[n++] = (int)b;
    sort_by_first(idx, n, lv);
    /* first fit among the temporaries alive at once */
    int *act = calloc((size_t)n + 1, sizeof *act), na = 0;
    if (!act) {
        free(lv);
        free(perm);
        free(idx);
        return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    uint64_t base = top, high = top;
    for (int i = 0; i < n; i++) {
        int b = idx[i];
        struct live *L = &lv[b];
        if (L->last < 0) L->first = L->last = 0; /* never touched: gets a place anyway */
        /* drop the finished ones, keep act sorted by address */
        int w = 0;
        for (int j = 0; j < na; j++)
            if (lv[act[j]].last >= L->first) act[w++] = act[j];
        na = w;
        uint64_t need = align_up(p->bufs[b].bytes ? p->bufs[b].bytes : 1), at = base;
        int pos = 0;
        for (; pos < na; pos++) {
            const struct cc_buffer *o = &p->bufs[act[pos]];
            if (o->addr >= at + need) break;
            uint64_t end = align_up(o->addr + (o->bytes ? o->bytes : 1));
            if (end > at) at = end;
        }
        p->bufs[b].addr = at;
        memmove(&act[pos + 1], &act[pos], (size_t)(na - pos) * sizeof *act);
        act[pos] = b;
        na++;
        /* keep sorted by address (insertion point may be off when gaps were skipped) */
        for (int j = pos; j > 0 && p->bufs[act[j - 1]].addr > p->bufs[act[j]].addr; j--) {
            int t = act[j];
            act[j] = act[j - 1];
            act[j - 1] = t;
        }
        for (int j = pos; j + 1 < na && p->bufs[act[j + 1]].addr < p->bufs[act[j]].addr; j++) {
            int t = act[j];
            act[j] = act[j + 1];
            act[j + 1] = t;
        }
        if (at + need > high) high = at + need;
    }
    free(act);
    free(lv);
    free(perm);
    free(idx);
    p->hbm_bytes = high - align_up(p->opt.hbm_base);
    if (high > p->chip.hbm.capacity_bytes)
        return base_diag_set(c->diag, BASE_ERR_LIMIT, p->m->path, 0, 0,
                             "the plan needs %llu bytes of HBM, %s has %llu", (unsigned long long)high, p->chip.name,
                             (unsigned long long)p->chip.hbm.capacity_bytes);
    /* operand views: relative -> absolute */
    for (uint32_t k = 0; k < p->n_kernels; k++) {
        struct cc_kernel *kr = &p->kernels[k];
        for (int i = 0; i < kr->n_in; i++) ((struct cc_operand *)kr->in)[i].view.addr += p->bufs[kr->in[i].buffer].addr;
        for (int i = 0; i < kr->n_out; i++) ((struct cc_operand *)kr->out)[i].view.addr += p->bufs[kr->out[i].buffer].addr;
    }
    return BASE_OK;
}

/* ------------------------------------------------------------- driver */

static void cc_free(struct cc *c)
{
    free(c->vi);
    free(c->nodes);
    free(c->scopes);
    free(c->map.keys);
    free(c->map.vals);
    for (int g = 0; g < c->n_groups; g++) free(c->groups[g].nodes);
    free(c->groups);
    free(c->label_step);
    free(c->loop_head_label);
    free(c->loop_end_step);
}

/* The sdy.manual_computation that is the whole of block b (besides
 * constants), returned as is by b's terminator; NULL otherwise. */
static const struct graph_op *whole_manual_computation(const struct graph_block *b)
{
    const struct graph_op *term = graph_block_terminator(b), *mc = NULL;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op == term || op->kind == GRAPH_OP_CONSTANT) continue;
        if (op->kind != GRAPH_OP_SDY_MANUAL_COMPUTATION || mc) return NULL;
        mc = op;
    }
    if (!mc || !term || term->n_operands != mc->n_results || mc->n_regions < 1 || mc->regions[0].n_blocks < 1)
        return NULL;
    for (int i = 0; i < term->n_operands; i++)
        if (term->operands[i] != &mc->results[i]) return NULL;
    return mc;
}

static enum base_status compile(struct cc *c, const struct graph_op *f)
{
    struct cc_plan *p = c->p;
    const struct graph_block *b = &f->regions[0].blocks[0];
    /* an SPMD program written per partition: compile what one partition
     * runs, on its shards (the body's arguments); the runtime runs it on
     * every partition's chip */
    const struct graph_op *mc = whole_manual_computation(b);
    if (mc) {
        b = &mc->regions[0].blocks[0];
        p->mc = mc;
        p->num_partitions = interp_module_mesh_size(c->m);
    }
    int top;
    TRY(new_scope(c, -1, &top));
    /* inputs */
    p->n_inputs = b->n_args;
    p->in_bufs = calloc((size_t)b->n_args + 1, sizeof *p->in_bufs);
    if (!p->in_bufs) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < b->n_args; i++) {
        const struct graph_type *t = b->args[i].type;
        if (!static_tensor(t) || t->quant)
            return base_diag_set(c->diag, BASE_ERR_UNSUPPORTED, f->loc.file, f->loc.line, f->loc.col,
                                 "@%s: argument %d is not a tensor of static shape", graph_func_name(f), i);
        int x;
        TRY(vi_of_value(c, VI_INPUT, &b->args[i], &x));
        c->vi[x].buf_kind = CC_BUF_INPUT;
        TRY(need_buffer(c, x));
        p->bufs[c->vi[x].buffer].arg_index = i;
        p->in_bufs[i] = (uint32_t)c->vi[x].buffer;
        TRY(bind(c, top, &b->args[i], x));
    }
    /* the body */
    const struct graph_op *term = graph_block_terminator(b);
    int n_out = term ? term->n_operands : 0, got = 0;
    int *outs = calloc((size_t)n_out + 1, sizeof *outs);
    if (!outs) return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    enum base_status st = lin_block(c, b, top, outs, n_out, &got);
    /* outputs: a value a kernel writes becomes the output buffer itself;
     * inputs and constants are returned as they are; anything else
     * (views, loop state) is copied */
    for (int i = 0; st == BASE_OK && i < n_out; i++) {
        const struct graph_type *t = term->operands[i]->type;
        if (!static_tensor(t)) {
            st = op_fail(c, term, BASE_ERR_UNSUPPORTED, "result %d is not a tensor of static shape", i);
            break;
        }
        int x = outs[i];
        struct vinfo *v = &c->vi[x];
        if (v->kind == VI_OP && v->out_index < 0) {
            v->buf_kind = CC_BUF_OUTPUT;
            v->out_index = i;
            v->permanent = true;
        } else if (v->kind == VI_OP) {
            /* returned twice: both results are the same buffer */
        } else if (v->kind == VI_VIEW || v->kind == VI_STATE) {
            int y;
            st = add_copy(c, term, top, x, VI_OP, t->rank, t->dims, &y);
            if (st == BASE_OK) {
                c->vi[y].buf_kind = CC_BUF_OUTPUT;
                c->vi[y].out_index = i;
                c->vi[y].permanent = true;
                c->vi[y].v = term->operands[i];
                outs[i] = y;
            }
        }
    }
    if (st == BASE_OK) {
        mark_live(c, outs, n_out);
        /* values read outside their kernel are written to HBM */
        for (int i = 0; i < n_out; i++) c->vi[c->vi[outs[i]].root].needed = true;
    }
    struct emit_list l = {0, 0, NULL};
    if (st == BASE_OK) st = group_nodes(c, p->opt.mode, &l);
    if (st == BASE_OK) {
        for (int i = 0; i < c->n_nodes; i++) {
            const struct node *n = &c->nodes[i];
            if (!n->live) continue;
            for (int j = 0; j < n->n_in; j++) {
                int x = n->in[j], r = c->vi[x].root;
                if (n->kind != N_OP || n->group < 0 || producer_group(c, x) != n->group || r != x) c->vi[r].needed = true;
            }
            if (n->kind == N_COPY)
                for (int j = 0; j < n->n_out; j++) c->vi[n->out[j]].needed = true;
        }
        st = build_steps(c, &l);
    }
    free(l.items);
    if (st == BASE_OK) {
        p->n_outputs = n_out;
        p->out_bufs = calloc((size_t)n_out + 1, sizeof *p->out_bufs);
        if (!p->out_bufs) st = base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        for (int i = 0; st == BASE_OK && i < n_out; i++) {
            st = need_buffer(c, outs[i]);
            if (st == BASE_OK) p->out_bufs[i] = (uint32_t)c->vi[c->vi[outs[i]].root].buffer;
        }
    }
    free(outs);
    if (st == BASE_OK) st = place(c);
    return st;
}

static enum base_status cc_compile_impl(const struct graph_module *m, const struct chip_desc *chip,
                            const struct cc_options *opt, struct cc_plan **out, struct base_diag *diag)
{
    *out = NULL;
    struct cc_options o;
    if (opt) o = *opt;
    else cc_options_default(&o);
    if ((unsigned)o.mode >= CC_MODE_COUNT) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "bad mode");
    const struct graph_op *f = o.entry ? graph_module_find_func(m, o.entry) : graph_module_entry(m);
    if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0, "no function %s%s to compile", o.entry ? "@" : "@main",
                             o.entry ? o.entry : "");
    struct cc_plan *p = calloc(1, sizeof *p);
    if (!p) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    p->m = m;
    p->chip = *chip;
    cc_target_init(&p->target, &p->chip);
    p->target.default_precision = o.default_precision;
    p->opt = o;
    if (p->opt.n_cores <= 0 || (uint32_t)p->opt.n_cores > chip->cores) p->opt.n_cores = (int)chip->cores;
    p->opt.entry = NULL; /* not kept: the caller's string */
    base_arena_init(&p->arena, 1 << 16);
    struct cc c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.m = m;
    c.diag = diag;
    enum base_status st = compile(&c, f);
    cc_free(&c);
    if (st != BASE_OK) {
        cc_plan_destroy(p);
        return st;
    }
    *out = p;
    return BASE_OK;
}

enum base_status cc_compile(const struct graph_module *m, const struct chip_desc *chip,
                            const struct cc_options *opt, struct cc_plan **out, struct base_diag *diag)
{
    return base_diag_ensure(diag, cc_compile_impl(m, chip, opt, out, diag), chip->name, "compiling");
}

int cc_plan_n_cores(const struct cc_plan *p) { return p->opt.n_cores; }

/* ------------------------------------------------------------- coverage */

struct cov_walk {
    const struct graph_module *m;
    const struct cc_target *t;
    const struct graph_op *whole_mc; /* compiled as the per-partition program */
    struct cc_coverage *cov;
    const struct graph_op **seen_funcs;
    int n_seen, cap_seen;
};

static enum base_status cov_add(struct cov_walk *w, const struct graph_op *op)
{
    struct cc_coverage *cv = w->cov;
    struct cc_coverage_entry *e = NULL;
    for (int i = 0; i < cv->n_entries; i++)
        if (cv->entries[i].kind == op->kind && !strcmp(cv->entries[i].name, op->name)) e = &cv->entries[i];
    if (!e) {
        struct cc_coverage_entry *ne = realloc(cv->entries, (size_t)(cv->n_entries + 1) * sizeof *ne);
        if (!ne) return BASE_ERR_NOMEM;
        cv->entries = ne;
        e = &cv->entries[cv->n_entries++];
        memset(e, 0, sizeof *e);
        e->kind = op->kind;
        snprintf(e->name, sizeof e->name, "%s", op->name);
        e->supported = true;
    }
    e->count++;
    cv->n_ops++;
    char why[256];
    struct base_arena ra; /* what lin_op compiles instead (rewrite.c) */
    base_arena_init(&ra, 4096);
    const struct graph_op *rw = cc_rewrite_f64_compare(op, w->m->n_values, &ra);
    bool ok = op == w->whole_mc || op_supported(rw ? rw : op, w->t, why, sizeof why);
    base_arena_deinit(&ra);
    if (ok) return BASE_OK;
    cv->n_unsupported++;
    e->supported = false;
    if (host_runnable(op)) {
        cv->n_host++;
        e->n_host++;
    }
    if (!e->why[0]) snprintf(e->why, sizeof e->why, "%.199s", why);
    struct graph_loc *nl = realloc(e->locs, (size_t)(e->n_unsupported + 1) * sizeof *nl);
    if (!nl) return BASE_ERR_NOMEM;
    e->locs = nl;
    e->locs[e->n_unsupported++] = op->loc;
    return BASE_OK;
}

static enum base_status cov_block(struct cov_walk *w, const struct graph_block *b);

static enum base_status cov_func(struct cov_walk *w, const struct graph_op *op, const char *attr)
{
    const struct graph_attr *sym = graph_op_attr(op, attr);
    if (!sym || sym->kind != GRAPH_ATTR_SYMBOL) return BASE_OK;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)sym->u.str.len, sym->u.str.s);
    const struct graph_op *f = graph_module_find_func(w->m, name);
    if (!f) return BASE_OK;
    for (int i = 0; i < w->n_seen; i++)
        if (w->seen_funcs[i] == f) return BASE_OK;
    if (w->n_seen == w->cap_seen) {
        int nc = w->cap_seen ? w->cap_seen * 2 : 16;
        const struct graph_op **ns = realloc(w->seen_funcs, (size_t)nc * sizeof *ns);
        if (!ns) return BASE_ERR_NOMEM;
        w->seen_funcs = ns;
        w->cap_seen = nc;
    }
    w->seen_funcs[w->n_seen++] = f;
    for (int r = 0; r < f->n_regions; r++)
        for (int k = 0; k < f->regions[r].n_blocks; k++) TRY(cov_block(w, &f->regions[r].blocks[k]));
    return BASE_OK;
}

static enum base_status cov_block(struct cov_walk *w, const struct graph_block *b)
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR)) continue;
        TRY(cov_add(w, op));
        if (op->kind == GRAPH_OP_CALL) TRY(cov_func(w, op, "callee"));
        else if (op->kind == GRAPH_OP_COMPOSITE) TRY(cov_func(w, op, "decomposition"));
        else if (graph_op_kind_has(op->kind, GRAPH_OPF_CONTROL_FLOW))
            for (int r = 0; r < op->n_regions; r++)
                for (int k = 0; k < op->regions[r].n_blocks; k++) TRY(cov_block(w, &op->regions[r].blocks[k]));
        /* bodies of reduce, sort ... are part of their op */
    }
    return BASE_OK;
}

enum base_status cc_coverage(const struct graph_module *m, const struct chip_desc *chip, const char *entry,
                             struct cc_coverage *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    const struct graph_op *f = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0, "no function %s%s", entry ? "@" : "@main",
                             entry ? entry : "");
    struct cc_target t;
    cc_target_init(&t, chip);
    struct cov_walk w = {m, &t, whole_manual_computation(&f->regions[0].blocks[0]), out, NULL, 0, 0};
    enum base_status st = cov_block(&w, &f->regions[0].blocks[0]);
    free(w.seen_funcs);
    if (st != BASE_OK) {
        cc_coverage_free(out);
        return base_diag_set(diag, st, NULL, 0, 0, "out of memory");
    }
    return BASE_OK;
}

void cc_coverage_free(struct cc_coverage *c)
{
    for (int i = 0; i < c->n_entries; i++) free(c->entries[i].locs);
    free(c->entries);
    memset(c, 0, sizeof *c);
}
