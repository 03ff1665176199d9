/* The SPMD partitioner: sharding propagation in program order and the
 * per-partition program it writes.
 *
 * Every value of the entry function gets a sharding (per dim, the mesh axes
 * it is split over) and a local value in the new body (its shard).  Ops with
 * a rule (elementwise, dot, reduce, broadcast_in_dim, transpose, reshape)
 * run on shards, with collectives where the rule needs them; everything else
 * runs replicated on all-gathered operands.  docs/partitioner.md. */
#include "partition/part_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REMAT_DEPTH 6

struct vstate {
    const struct graph_value *src;
    struct graph_value *loc;  /* the local value (shard) */
    struct graph_value *rep;  /* the whole value on every partition, once built */
    struct part_sharding s;   /* of loc */
    bool have;
    struct graph_value *remat; /* another copy at sharding remat_s (resharded, or rebuilt) */
    struct part_sharding remat_s;
};

/* An all_reduce of partial sums the partitioner inserted: a cut of its
 * result over some of its axes becomes a reduce_scatter of its input. */
struct ar_rec {
    struct graph_value *in, *out;
    struct graph_op *op;
    int n_ax, ax[PART_MAX_AXES];
    int coll;                 /* its entry in the report */
};

struct pctx {
    const struct graph_module *m;
    struct part_mesh mesh;
    int64_t n_dev;
    struct graph_builder *b; /* the new module */
    struct vstate *vs;
    int next_channel;
    struct part_report *rep;
    struct base_diag *diag;
    const struct graph_op *op; /* the source op being partitioned */
    bool failed;
    struct ar_rec *ars;
    int n_ars, cap_ars;
};

/* ------------------------------------------------------------------------ */
/* Shardings                                                                 */

static int64_t nparts(const struct pctx *c, const struct part_sharding *s, int d)
{
    int64_t n = 1;
    for (int k = 0; k < s->n_axes[d]; k++) n *= c->mesh.sizes[s->axes[d][k]];
    return n;
}

static bool dim_eq(const struct part_sharding *a, const struct part_sharding *b, int d)
{
    if (a->n_axes[d] != b->n_axes[d]) return false;
    for (int k = 0; k < a->n_axes[d]; k++)
        if (a->axes[d][k] != b->axes[d][k]) return false;
    return true;
}

static bool shd_eq(const struct part_sharding *a, const struct part_sharding *b)
{
    if (a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (!dim_eq(a, b, d)) return false;
    return true;
}

static bool is_rep(const struct part_sharding *s)
{
    for (int d = 0; d < s->rank; d++)
        if (s->n_axes[d]) return false;
    return true;
}

static void clear_dim(struct part_sharding *s, int d)
{
    s->n_axes[d] = 0;
}

static void copy_dim(struct part_sharding *dst, int dd, const struct part_sharding *src, int sd)
{
    dst->n_axes[dd] = src->n_axes[sd];
    for (int k = 0; k < src->n_axes[sd]; k++) dst->axes[dd][k] = src->axes[sd][k];
}

static bool static_tensor(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR && t->rank >= 0 && graph_type_is_static(t);
}

static const struct graph_type *local_type(struct pctx *c, const struct graph_type *g, const struct part_sharding *s)
{
    if (!static_tensor(g) || is_rep(s)) return g;
    int64_t dims[GRAPH_MAX_RANK];
    for (int d = 0; d < g->rank; d++) dims[d] = g->dims[d] / nparts(c, s, d);
    return graph_builder_type_with_dims(c->b, g, g->rank, dims);
}

/* ------------------------------------------------------------------------ */
/* Report and failure                                                        */

/* Records a failure: the builder's error when it has one other than out of
 * memory (a partitioner bug: an internal error where the builder says),
 * else out of memory.  Returns false. */
static bool fail_build(struct pctx *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_builder_status(c->b, &d);
    if (!c->failed && st != BASE_OK && st != BASE_ERR_NOMEM)
        base_diag_set(c->diag, BASE_ERR_INTERNAL, d.file, d.line, d.col, "building the partitioned module: %s", d.msg);
    if (!c->failed) base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory while partitioning");
    c->failed = true;
    return false;
}

/* An op of the new module at loc (NULL: none). */
static struct graph_op *new_op(struct pctx *c, enum graph_op_kind kind, struct graph_value *const *in, int n_in,
                               const struct graph_type *const *out, int n_out, const struct graph_loc *loc)
{
    struct graph_op *op = graph_builder_op(c->b, kind, in, n_in, out, n_out);
    if (op) graph_builder_set_op_loc(c->b, op, loc);
    return op;
}

static const struct graph_loc *op_loc(const struct pctx *c)
{
    return c->op ? &c->op->loc : NULL;
}

static void note_coll(struct pctx *c, enum part_coll_kind kind, const struct graph_value *v, int group,
                      const char *why)
{
    struct part_report *r = c->rep;
    struct part_coll *n = realloc(r->colls, (size_t)(r->n_colls + 1) * sizeof *n);
    if (!n) {
        fail_build(c);
        return;
    }
    r->colls = n;
    struct part_coll *e = &n[r->n_colls++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->bytes = graph_type_count(v->type) * (int64_t)base_dtype_size(v->type->elem);
    e->group_size = group;
    if (c->op) {
        e->loc = c->op->loc;
        e->op_name = c->op->name;
    }
    e->why = why;
}

static void note_fallback(struct pctx *c, const struct graph_op *op)
{
    struct part_report *r = c->rep;
    struct graph_loc *l = realloc(r->fallback_locs, (size_t)(r->n_fallbacks + 1) * sizeof *l);
    if (l) r->fallback_locs = l;
    const char **o = realloc(r->fallback_ops, (size_t)(r->n_fallbacks + 1) * sizeof *o);
    if (o) r->fallback_ops = o;
    if (!l || !o) {
        fail_build(c);
        return;
    }
    l[r->n_fallbacks] = op->loc;
    o[r->n_fallbacks] = op->name;
    r->n_fallbacks++;
}

/* ------------------------------------------------------------------------ */
/* Collectives                                                               */

/* replica_groups over mesh axes ax[0..n) (major first): the devices that
 * differ only in those axes' coordinates, ordered by shard index. */
static const struct graph_attr *groups_attr(struct pctx *c, int n, const int *ax, int *group_size)
{
    int64_t k = 1;
    bool in[PART_MAX_AXES] = {false};
    for (int i = 0; i < n; i++) {
        k *= c->mesh.sizes[ax[i]];
        in[ax[i]] = true;
    }
    int64_t g = c->n_dev / k;
    int64_t *ids = malloc((size_t)c->n_dev * sizeof *ids);
    if (!ids) {
        fail_build(c);
        return NULL;
    }
    for (int64_t dev = 0; dev < c->n_dev; dev++) {
        int64_t coord[PART_MAX_AXES] = {0}, rest = dev;
        for (int a = c->mesh.n_axes - 1; a >= 0; a--) {
            coord[a] = rest % c->mesh.sizes[a];
            rest /= c->mesh.sizes[a];
        }
        int64_t key = 0, pos = 0;
        for (int a = 0; a < c->mesh.n_axes; a++)
            if (!in[a]) key = key * c->mesh.sizes[a] + coord[a];
        for (int i = 0; i < n; i++) pos = pos * c->mesh.sizes[ax[i]] + coord[ax[i]];
        ids[key * k + pos] = dev;
    }
    const struct graph_attr *a = graph_builder_attr_elements_i64(c->b, ids, 2, (const int64_t[]){g, k});
    free(ids);
    *group_size = (int)k;
    return a;
}

static const struct graph_attr *channel_attr(struct pctx *c)
{
    static const char *const names[2] = {"handle", "type"};
    const struct graph_attr *v[2] = {graph_builder_attr_int(c->b, ++c->next_channel), graph_builder_attr_int(c->b, 1)};
    return graph_builder_attr_dict(c->b, "stablehlo.channel_handle", names, v, 2);
}

/* An op was made (ops go into the block being built as they are made). */
static bool made(struct pctx *c, const struct graph_op *op)
{
    if (!op || graph_builder_status(c->b, NULL) != BASE_OK) return fail_build(c);
    return true;
}

/* Sets n attributes of op. */
static void set_attrs(struct pctx *c, struct graph_op *op, int n, const char *const *names,
                      const struct graph_attr *const *values)
{
    for (int i = 0; op && i < n; i++) graph_builder_set_attr(c->b, op, names[i], values[i]);
}

/* all_gather of dim d of v (sharding s, updated) over all its axes. */
static struct graph_value *emit_gather(struct pctx *c, struct graph_value *v, const struct graph_type *global,
                                       struct part_sharding *s, int d, const char *why)
{
    int group = 0;
    const struct graph_attr *groups = groups_attr(c, s->n_axes[d], s->axes[d], &group);
    const struct graph_attr *chan = channel_attr(c);
    clear_dim(s, d);
    const struct graph_type *rt = local_type(c, global, s);
    struct graph_op *op = new_op(c, GRAPH_OP_ALL_GATHER, &v, 1, &rt, 1, op_loc(c));
    static const char *const names[4] = {"all_gather_dim", "channel_handle", "replica_groups", "use_global_device_ids"};
    const struct graph_attr *vals[4] = {graph_builder_attr_int(c->b, d), chan, groups, graph_builder_attr_unit(c->b)};
    set_attrs(c, op, 4, names, vals);
    if (!made(c, op)) return NULL;
    note_coll(c, PART_ALL_GATHER, v, group, why);
    return &op->results[0];
}

/* all_to_all moving the last m axes of dim `from`'s split to dim `to`
 * (whole before, or split over axes that stay major): each partition sends the to-dim pieces of its shard to the
 * others of its group over those axes and concatenates what it gets along
 * `from`, which keeps its leading axes (the moved ones were minor, so the
 * concatenated rows are contiguous). */
static struct graph_value *emit_all_to_all(struct pctx *c, struct graph_value *v, const struct graph_type *global,
                                           struct part_sharding *s, int from, int to, int m)
{
    int group = 0, keep = s->n_axes[from] - m;
    const struct graph_attr *groups = groups_attr(c, m, s->axes[from] + keep, &group);
    const struct graph_attr *chan = channel_attr(c);
    int pre = s->n_axes[to]; /* the receiving dim's own axes stay major */
    for (int k = 0; k < m; k++) s->axes[to][pre + k] = s->axes[from][keep + k];
    s->n_axes[to] = pre + m;
    s->n_axes[from] = keep;
    const struct graph_type *rt = local_type(c, global, s);
    struct graph_op *op = new_op(c, GRAPH_OP_ALL_TO_ALL, &v, 1, &rt, 1, op_loc(c));
    static const char *const names[5] = {"channel_handle", "concat_dimension", "replica_groups", "split_count",
                                         "split_dimension"};
    const struct graph_attr *vals[5] = {chan, graph_builder_attr_int(c->b, from), groups, graph_builder_attr_int(c->b, group),
                                        graph_builder_attr_int(c->b, to)};
    set_attrs(c, op, 5, names, vals);
    if (!made(c, op)) return NULL;
    note_coll(c, PART_ALL_TO_ALL, v, group, "moving a split to another dim");
    return &op->results[0];
}

/* all_reduce of v over axes ax[0..n); body: a binary op of kind `kind`, or
 * (body_src) a copy of that op's region. */
static struct graph_value *emit_all_reduce(struct pctx *c, struct graph_value *v, int n, const int *ax,
                                           enum graph_op_kind kind, const struct graph_op *body_src, const char *why)
{
    int group = 0;
    const struct graph_attr *groups = groups_attr(c, n, ax, &group);
    const struct graph_attr *chan = channel_attr(c);
    const struct graph_type *rt = v->type;
    struct graph_op *op = new_op(c, GRAPH_OP_ALL_REDUCE, &v, 1, &rt, 1, op_loc(c));
    static const char *const names[3] = {"channel_handle", "replica_groups", "use_global_device_ids"};
    const struct graph_attr *vals[3] = {chan, groups, graph_builder_attr_unit(c->b)};
    set_attrs(c, op, 3, names, vals);
    if (body_src) {
        graph_builder_clone_regions(c->b, op, body_src);
    } else if (op) { /* (a, b) -> kind(a, b) */
        const struct graph_type *s = graph_builder_scalar_type(c->b, v->type->elem);
        struct graph_value *ab[2] = {NULL, NULL};
        graph_builder_region(c->b, op, (const struct graph_type *const[]){s, s}, 2, ab);
        struct graph_value *r = graph_builder_result(new_op(c, kind, ab, 2, &s, 1, &op->loc), 0);
        struct graph_op *ret = graph_builder_return(c->b, &r, 1);
        if (ret) graph_builder_set_op_loc(c->b, ret, &op->loc);
    }
    if (!made(c, op)) return NULL;
    note_coll(c, PART_ALL_REDUCE, v, group, why);
    if (kind == GRAPH_OP_ADD && !body_src && n <= PART_MAX_AXES) {
        if (c->n_ars == c->cap_ars) {
            int cap = c->cap_ars ? 2 * c->cap_ars : 16;
            struct ar_rec *r = realloc(c->ars, (size_t)cap * sizeof *r);
            if (!r) {
                fail_build(c);
                return NULL;
            }
            c->ars = r;
            c->cap_ars = cap;
        }
        struct ar_rec *r = &c->ars[c->n_ars++];
        r->in = v;
        r->out = &op->results[0];
        r->op = op;
        r->n_ax = n;
        for (int i = 0; i < n; i++) r->ax[i] = ax[i];
        r->coll = c->rep->n_colls - 1;
    }
    return &op->results[0];
}

/* reduce_scatter of v over axes ax[0..n) (major first) along dim d: the
 * sum of the group's values, each partition keeping its shard of d (the
 * shard index over those axes, as groups_attr orders the group). */
static struct graph_value *emit_reduce_scatter(struct pctx *c, struct graph_value *v, const struct graph_type *rt, int d,
                                               int n, const int *ax)
{
    int group = 0;
    const struct graph_attr *groups = groups_attr(c, n, ax, &group);
    const struct graph_attr *chan = channel_attr(c);
    struct graph_op *op = new_op(c, GRAPH_OP_REDUCE_SCATTER, &v, 1, &rt, 1, op_loc(c));
    static const char *const names[4] = {"channel_handle", "replica_groups", "scatter_dimension", "use_global_device_ids"};
    const struct graph_attr *vals[4] = {chan, groups, graph_builder_attr_int(c->b, d), graph_builder_attr_unit(c->b)};
    set_attrs(c, op, 4, names, vals);
    if (op) {
        const struct graph_type *s = graph_builder_scalar_type(c->b, v->type->elem);
        struct graph_value *ab[2] = {NULL, NULL};
        graph_builder_region(c->b, op, (const struct graph_type *const[]){s, s}, 2, ab);
        struct graph_value *r = graph_builder_result(new_op(c, GRAPH_OP_ADD, ab, 2, &s, 1, &op->loc), 0);
        struct graph_op *ret = graph_builder_return(c->b, &r, 1);
        if (ret) graph_builder_set_op_loc(c->b, ret, &op->loc);
    }
    if (!made(c, op)) return NULL;
    note_coll(c, PART_REDUCE_SCATTER, v, group, "partial sums, each partition keeping its shard");
    return &op->results[0];
}

/* A ui32 scalar op of the body: a constant, partition_id, or a binary op. */
static struct graph_value *u32_op(struct pctx *c, enum graph_op_kind kind, struct graph_value *a,
                                  struct graph_value *b, uint32_t value)
{
    const struct graph_type *st = graph_builder_scalar_type(c->b, BASE_DT_UI32);
    struct graph_value *in[2] = {a, b};
    int n_in = kind == GRAPH_OP_CONSTANT || kind == GRAPH_OP_PARTITION_ID ? 0 : 2;
    struct graph_op *op = new_op(c, kind, in, n_in, &st, 1, op_loc(c));
    if (op && kind == GRAPH_OP_CONSTANT) {
        struct base_tensor *t = NULL;
        if (base_tensor_create(BASE_DT_UI32, 0, NULL, &t) != BASE_OK) {
            fail_build(c);
            return NULL;
        }
        ((uint32_t *)t->data)[0] = value;
        graph_builder_set_attr(c->b, op, "value", graph_builder_attr_splat(c->b, st, t));
        base_tensor_release(t);
    }
    if (!made(c, op)) return NULL;
    return &op->results[0];
}

/* Each partition's own piece of v along the dims slice[] marks, which s
 * (updated) has whole and t splits over axes s uses nowhere: a
 * dynamic_slice at offsets from stablehlo.partition_id (device d's
 * coordinate on axis a is d / (sizes after a) % size of a), no
 * communication. */
static struct graph_value *emit_slice(struct pctx *c, struct graph_value *v, const struct graph_type *global,
                                      struct part_sharding *s, const bool *slice, const struct part_sharding *t)
{
    /* a cut of one dim over axes an all_reduce of partial sums just summed
     * over: a reduce_scatter of its input over them instead (and an
     * all_reduce over the rest of its axes) */
    int cut = -1, n_cut = 0;
    for (int d = 0; d < global->rank; d++)
        if (slice[d]) {
            cut = d;
            n_cut++;
        }
    for (int r = c->n_ars - 1; n_cut == 1 && r >= 0; r--) {
        const struct ar_rec *ar = &c->ars[r];
        if (ar->out != v) continue;
        bool sub = true;
        int rest[PART_MAX_AXES], n_rest = 0;
        for (int k = 0; k < t->n_axes[cut]; k++) {
            bool in = false;
            for (int j = 0; j < ar->n_ax; j++) in |= ar->ax[j] == t->axes[cut][k];
            sub &= in;
        }
        for (int j = 0; j < ar->n_ax; j++) {
            bool in = false;
            for (int k = 0; k < t->n_axes[cut]; k++) in |= ar->ax[j] == t->axes[cut][k];
            if (!in) rest[n_rest++] = ar->ax[j];
        }
        if (!sub) break;
        copy_dim(s, cut, t, cut);
        struct graph_value *x = emit_reduce_scatter(c, ar->in, local_type(c, global, s), cut, t->n_axes[cut], t->axes[cut]);
        if (x && n_rest) x = emit_all_reduce(c, x, n_rest, rest, GRAPH_OP_ADD, NULL, "partial sums over the other axes");
        return x;
    }
    struct graph_value *pid = u32_op(c, GRAPH_OP_PARTITION_ID, NULL, NULL, 0);
    struct graph_value *zero = u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, 0);
    struct graph_value *in[1 + GRAPH_MAX_RANK];
    in[0] = v;
    for (int d = 0; d < global->rank; d++) {
        in[1 + d] = zero;
        if (!slice[d] || !pid) continue;
        struct graph_value *idx = zero;
        for (int k = 0; k < t->n_axes[d]; k++) {
            int a = t->axes[d][k];
            int64_t stride = 1;
            for (int j = a + 1; j < c->mesh.n_axes; j++) stride *= c->mesh.sizes[j];
            struct graph_value *q = u32_op(c, GRAPH_OP_DIVIDE, pid, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)stride), 0);
            struct graph_value *coord =
                u32_op(c, GRAPH_OP_REMAINDER, q, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)c->mesh.sizes[a]), 0);
            idx = u32_op(c, GRAPH_OP_MULTIPLY, idx, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)c->mesh.sizes[a]), 0);
            idx = u32_op(c, GRAPH_OP_ADD, idx, coord, 0);
        }
        copy_dim(s, d, t, d);
        int64_t local = global->dims[d] / nparts(c, s, d);
        in[1 + d] = u32_op(c, GRAPH_OP_MULTIPLY, idx, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)local), 0);
    }
    if (c->failed) return NULL;
    const struct graph_type *rt = local_type(c, global, s);
    int64_t sizes[GRAPH_MAX_RANK];
    for (int d = 0; rt && d < rt->rank; d++) sizes[d] = rt->dims[d];
    struct graph_op *op = rt ? new_op(c, GRAPH_OP_DYNAMIC_SLICE, in, 1 + global->rank, &rt, 1, op_loc(c)) : NULL;
    if (op) graph_builder_set_attr(c->b, op, "slice_sizes", graph_builder_attr_dense_i64(c->b, sizes, rt->rank));
    if (!made(c, op)) return NULL;
    return &op->results[0];
}

/* Whether t's split of dim d can be cut out locally from s: s has the dim
 * whole and holds replicas along every axis t splits it over. */
static bool sliceable(const struct part_sharding *s, const struct part_sharding *t, int d)
{
    if (s->n_axes[d]) return false;
    for (int k = 0; k < t->n_axes[d]; k++)
        for (int e = 0; e < s->rank; e++)
            for (int j = 0; j < s->n_axes[e]; j++)
                if (s->axes[e][j] == t->axes[d][k]) return false;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Resharding                                                                */

static struct graph_value *ensure_rep(struct pctx *c, uint32_t id)
{
    struct vstate *vs = &c->vs[id];
    if (vs->rep) return vs->rep;
    if (is_rep(&vs->s)) return vs->rep = vs->loc;
    struct part_sharding s = vs->s;
    struct graph_value *cur = vs->loc;
    for (int d = 0; cur && d < s.rank; d++)
        if (s.n_axes[d]) cur = emit_gather(c, cur, vs->src->type, &s, d, "an operand needed whole");
    return vs->rep = cur;
}

static bool reshard(struct pctx *c, uint32_t id, const struct part_sharding *t, bool dry, int depth,
                    struct graph_value **out);

/* Builds value id at sharding t from its definition, when that definition
 * can run on shards without communication: splat constants, iotas along
 * whole dims, broadcasts and elementwise ops of such values. */
static bool remat(struct pctx *c, uint32_t id, const struct part_sharding *t, bool dry, int depth,
                  struct graph_value **out)
{
    struct vstate *vs = &c->vs[id];
    const struct graph_op *def = vs->src->def;
    if (!def || depth > REMAT_DEPTH || def->n_results != 1 || !static_tensor(vs->src->type)) return false;
    if (vs->remat && shd_eq(&vs->remat_s, t)) {
        if (!dry) *out = vs->remat;
        return true;
    }
    const struct graph_type *lt = dry ? NULL : local_type(c, vs->src->type, t);
    struct graph_op *op = NULL;
    const struct graph_op *saved = c->op;
    switch (def->kind) {
    case GRAPH_OP_CONSTANT: {
        const struct graph_attr *a = graph_op_attr(def, "value");
        const struct base_tensor *v = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
        if (!v || !v->data || v->count < 1) return false;
        size_t es = base_dtype_size(v->dtype);
        for (int64_t i = 1; i < v->count; i++)
            if (memcmp((const char *)v->data + (size_t)i * es, v->data, es)) return false;
        if (dry) return true;
        op = new_op(c, GRAPH_OP_CONSTANT, NULL, 0, &lt, 1, &def->loc);
        if (op) graph_builder_set_attr(c->b, op, "value", graph_builder_attr_splat(c->b, lt, v));
        if (!made(c, op)) return false;
        break;
    }
    case GRAPH_OP_IOTA: {
        int64_t dim = -1;
        if (!graph_attr_as_i64(graph_op_attr(def, "iota_dimension"), &dim) || dim < 0 || dim >= t->rank ||
            t->n_axes[dim])
            return false;
        if (dry) return true;
        op = graph_builder_clone(c->b, def, NULL, &lt);
        break;
    }
    case GRAPH_OP_BROADCAST_IN_DIM: {
        const struct graph_value *o = def->operands[0];
        int64_t bd[GRAPH_MAX_RANK];
        if (!static_tensor(o->type) || graph_attr_as_i64_list(graph_op_attr(def, "broadcast_dimensions"), bd,
                                                               GRAPH_MAX_RANK) != o->type->rank)
            return false;
        struct part_sharding to;
        part_sharding_replicated(&to, o->type->rank);
        for (int i = 0; i < o->type->rank; i++)
            if (o->type->dims[i] == vs->src->type->dims[bd[i]]) copy_dim(&to, i, t, (int)bd[i]);
        struct graph_value *ov = NULL;
        if (!reshard(c, o->id, &to, dry, depth + 1, &ov)) return false;
        if (dry) return true;
        c->op = def;
        op = graph_builder_clone(c->b, def, &ov, &lt);
        break;
    }
    default: {
        if (!graph_op_kind_has(def->kind, GRAPH_OPF_ELEMENTWISE) || def->n_regions || def->n_operands > 3) return false;
        struct graph_value *ov[3] = {NULL, NULL, NULL};
        for (int i = 0; i < def->n_operands; i++) {
            const struct graph_value *o = def->operands[i];
            if (o->type->rank != t->rank) { /* a scalar operand of select / clamp */
                if (o->type->rank != 0 || !c->vs[o->id].have) return false;
                ov[i] = c->vs[o->id].loc;
                continue;
            }
            if (!reshard(c, o->id, t, dry, depth + 1, &ov[i])) return false;
        }
        if (dry) return true;
        op = graph_builder_clone(c->b, def, ov, &lt);
        break;
    }
    }
    c->op = saved;
    if (!made(c, op)) return false;
    vs->remat = &op->results[0];
    vs->remat_s = *t;
    *out = vs->remat;
    return true;
}

/* Value id at sharding t: gathers where t keeps less split, a rebuild from
 * the definition where t splits more; false when that is impossible (dry:
 * only says whether it is possible, emitting nothing). */
static bool reshard(struct pctx *c, uint32_t id, const struct part_sharding *t, bool dry, int depth,
                    struct graph_value **out)
{
    struct vstate *vs = &c->vs[id];
    if (!vs->have) return false;
    if (shd_eq(&vs->s, t)) {
        if (!dry) *out = vs->loc;
        return true;
    }
    if (vs->remat && shd_eq(&vs->remat_s, t)) { /* resharded (or rebuilt) before */
        if (!dry) *out = vs->remat;
        return true;
    }
    if (is_rep(t)) {
        if (!dry) *out = ensure_rep(c, id);
        return dry || *out;
    }
    /* a broadcast (or a splat, an iota) is rebuilt at t from its operand,
     * which moves less than moving its split */
    const struct graph_op *def = vs->src ? vs->src->def : NULL;
    if (def && (def->kind == GRAPH_OP_BROADCAST_IN_DIM || def->kind == GRAPH_OP_CONSTANT || def->kind == GRAPH_OP_IOTA) &&
        remat(c, id, t, true, depth, NULL))
        return remat(c, id, t, dry, depth, out);
    /* a split that only moves to another dim is one all_to_all (the whole
     * split of a dim, or its minor axes when the target keeps the major
     * ones there); any other new split needs a rebuild */
    int move_from[GRAPH_MAX_RANK], move_n[GRAPH_MAX_RANK];
    bool slice[GRAPH_MAX_RANK] = {false};
    struct part_sharding s = vs->s;
    for (int d = 0; d < t->rank; d++) {
        move_from[d] = -1;
        if (!t->n_axes[d] || dim_eq(&s, t, d)) continue;
        /* the target's axes here: this dim's own (major), then moved ones */
        int pre = s.n_axes[d], e = -1, m = t->n_axes[d] - pre;
        bool prefix = m > 0;
        for (int j = 0; prefix && j < pre; j++) prefix = s.axes[d][j] == t->axes[d][j];
        for (int k = 0; k < s.rank && prefix && e < 0; k++) {
            int sk = s.n_axes[k], keep = sk - m;
            if (k == d || dim_eq(&s, t, k) || keep < 0 || t->n_axes[k] != keep) continue;
            bool same = true;
            for (int j = 0; j < m; j++) same &= s.axes[k][keep + j] == t->axes[d][pre + j];
            for (int j = 0; j < keep; j++) same &= s.axes[k][j] == t->axes[k][j];
            if (same) e = k;
        }
        if (e < 0) {
            /* rebuilt from the definition if it can be; else cut locally */
            if (pre || remat(c, id, t, true, depth, NULL) || !sliceable(&vs->s, t, d))
                return remat(c, id, t, dry, depth, out);
            slice[d] = true;
            continue;
        }
        move_from[d] = e;
        move_n[d] = m;
        s.n_axes[e] -= m; /* a dim gives its split once */
    }
    if (dry) return true;
    s = vs->s;
    struct graph_value *cur = vs->loc;
    for (int d = 0; cur && d < s.rank; d++)
        if (move_from[d] >= 0) cur = emit_all_to_all(c, cur, vs->src->type, &s, move_from[d], d, move_n[d]);
    for (int d = 0; cur && d < s.rank; d++)
        if (s.n_axes[d] && !dim_eq(&s, t, d) && !slice[d])
            cur = emit_gather(c, cur, vs->src->type, &s, d, "resharding an operand");
    bool any_slice = false;
    for (int d = 0; d < s.rank; d++) any_slice |= slice[d];
    if (cur && any_slice) cur = emit_slice(c, cur, vs->src->type, &s, slice, t);
    *out = cur;
    if (cur) {
        vs->remat = cur;
        vs->remat_s = *t;
    }
    return cur != NULL;
}

/* ------------------------------------------------------------------------ */
/* Op rules                                                                  */

static void set_result(struct pctx *c, const struct graph_value *src, struct graph_value *loc,
                       const struct part_sharding *s)
{
    struct vstate *vs = &c->vs[src->id];
    vs->loc = loc;
    vs->s = *s;
    vs->rep = is_rep(s) ? loc : NULL;
    vs->have = true;
}

static bool capture_whole(struct pctx *c, const struct graph_block *b, int depth);
static struct graph_value *reshard_or_cut(struct pctx *c, uint32_t id, const struct part_sharding *t);
static bool partition_op(struct pctx *c, const struct graph_op *op);

/* Regions may use values of the enclosing body (exports put constants
 * there): their copies read the whole value. */
static bool map_captures(struct pctx *c, const struct graph_op *op)
{
    for (int r = 0; r < op->n_regions; r++)
        for (int k = 0; k < op->regions[r].n_blocks; k++)
            if (!capture_whole(c, &op->regions[r].blocks[k], 0)) return fail_build(c);
    return true;
}

/* src with the given local operands and results at shardings rs. */
static bool emit_like(struct pctx *c, const struct graph_op *src, struct graph_value *const *in,
                      const struct part_sharding *rs)
{
    const struct graph_type *rt[1];
    if (src->n_results != 1) return false;
    rt[0] = local_type(c, src->results[0].type, rs);
    if (!map_captures(c, src)) return false;
    struct graph_op *op = graph_builder_clone(c->b, src, in, rt);
    if (!made(c, op)) return false;
    set_result(c, &src->results[0], &op->results[0], rs);
    return true;
}

static bool operands_static(const struct graph_op *op)
{
    for (int i = 0; i < op->n_operands; i++)
        if (!static_tensor(op->operands[i]->type)) return false;
    for (int i = 0; i < op->n_results; i++)
        if (!static_tensor(op->results[i].type)) return false;
    return true;
}

static bool rule_elementwise(struct pctx *c, const struct graph_op *op)
{
    if (op->n_results != 1 || op->n_operands > 8) return false;
    int rank = op->results[0].type->rank;
    struct part_sharding cand[8];
    int n_cand = 0;
    for (int i = 0; i < op->n_operands; i++) {
        const struct vstate *vs = &c->vs[op->operands[i]->id];
        if (op->operands[i]->type->rank != rank || is_rep(&vs->s)) continue;
        bool seen = false;
        for (int k = 0; k < n_cand; k++) seen |= shd_eq(&cand[k], &vs->s);
        if (!seen) cand[n_cand++] = vs->s;
    }
    struct graph_value *in[8];
    for (int k = 0; k < n_cand; k++) {
        bool ok = true;
        for (int i = 0; ok && i < op->n_operands; i++)
            if (op->operands[i]->type->rank == rank) ok = reshard(c, op->operands[i]->id, &cand[k], true, 0, NULL);
        if (!ok) continue;
        for (int i = 0; i < op->n_operands; i++) {
            in[i] = c->vs[op->operands[i]->id].loc;
            if (op->operands[i]->type->rank == rank && !reshard(c, op->operands[i]->id, &cand[k], false, 0, &in[i]))
                return fail_build(c);
        }
        c->rep->n_sharded_ops++;
        return emit_like(c, op, in, &cand[k]);
    }
    if (n_cand) note_fallback(c, op);
    for (int i = 0; i < op->n_operands; i++)
        if (!(in[i] = ensure_rep(c, op->operands[i]->id))) return fail_build(c);
    struct part_sharding r;
    part_sharding_replicated(&r, rank);
    return emit_like(c, op, in, &r);
}

static int dims_of(const struct graph_attr *dn, const char *name, int64_t *out)
{
    int n = dn ? graph_attr_as_i64_list(graph_dict_get(dn, name), out, GRAPH_MAX_RANK) : -1;
    return n < 0 ? 0 : n;
}

static bool in_list(const int64_t *l, int n, int64_t v)
{
    for (int i = 0; i < n; i++)
        if (l[i] == v) return true;
    return false;
}

static bool rule_dot(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *lhs = op->operands[0], *rhs = op->operands[1];
    int lr = lhs->type->rank, rr = rhs->type->rank;
    int64_t lb[GRAPH_MAX_RANK], rb[GRAPH_MAX_RANK], lc[GRAPH_MAX_RANK], rc[GRAPH_MAX_RANK];
    int nb = 0, nc = 0;
    if (op->kind == GRAPH_OP_DOT_GENERAL) {
        const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
        if (!dn || dn->kind != GRAPH_ATTR_DICT) return false;
        nb = dims_of(dn, "lhs_batching_dimensions", lb);
        if (dims_of(dn, "rhs_batching_dimensions", rb) != nb) return false;
        nc = dims_of(dn, "lhs_contracting_dimensions", lc);
        if (dims_of(dn, "rhs_contracting_dimensions", rc) != nc) return false;
    } else {
        if (lr < 1 || lr > 2 || rr < 1 || rr > 2) return false;
        nc = 1;
        lc[0] = lr - 1;
        rc[0] = 0;
    }
    struct part_sharding tl = c->vs[lhs->id].s, tr = c->vs[rhs->id].s;
    int partial[PART_MAX_AXES], n_partial = 0;
    /* a batch dim split differently on the two sides: one side takes the
     * other's split when a reshard gets it there (an all_to_all moving it:
     * the experts' dim of the dispatched tokens for expert-split weights,
     * and back), the lhs first */
    for (int i = 0; i < nb; i++)
        for (int side = 0; side < 2; side++) {
            struct part_sharding *mine = side ? &tr : &tl, *other = side ? &tl : &tr;
            int md = (int)(side ? rb[i] : lb[i]), od = (int)(side ? lb[i] : rb[i]);
            bool same = mine->n_axes[md] == other->n_axes[od];
            for (int k = 0; same && k < mine->n_axes[md]; k++) same = mine->axes[md][k] == other->axes[od][k];
            if (same) break;
            if (!other->n_axes[od]) continue;
            struct part_sharding want = *mine;
            copy_dim(&want, md, other, od);
            /* the axes it takes leave the dims that had them (minor axes only) */
            bool ok = true;
            for (int k = 0; k < other->n_axes[od]; k++)
                for (int d = 0; d < want.rank; d++) {
                    if (d == md) continue;
                    for (int j = 0; j < want.n_axes[d]; j++)
                        if (want.axes[d][j] == other->axes[od][k]) {
                            ok &= j == want.n_axes[d] - 1;
                            want.n_axes[d] = j;
                        }
                }
            if (ok && reshard(c, (side ? rhs : lhs)->id, &want, true, 0, NULL)) {
                *mine = want;
                break;
            }
        }
    for (int i = 0; i < nb; i++) {
        bool same = tl.n_axes[lb[i]] == tr.n_axes[rb[i]];
        for (int k = 0; same && k < tl.n_axes[lb[i]]; k++) same = tl.axes[lb[i]][k] == tr.axes[rb[i]][k];
        if (!same) {
            clear_dim(&tl, (int)lb[i]);
            clear_dim(&tr, (int)rb[i]);
        }
    }
    for (int i = 0; i < nc; i++) {
        bool same = tl.n_axes[lc[i]] == tr.n_axes[rc[i]];
        for (int k = 0; same && k < tl.n_axes[lc[i]]; k++) same = tl.axes[lc[i]][k] == tr.axes[rc[i]][k];
        if (!same) {
            clear_dim(&tl, (int)lc[i]);
            clear_dim(&tr, (int)rc[i]);
        } else {
            for (int k = 0; k < tl.n_axes[lc[i]]; k++) partial[n_partial++] = tl.axes[lc[i]][k];
        }
    }
    /* an axis may split one result dim only: the rhs's free dims give way */
    bool used[PART_MAX_AXES] = {false};
    for (int d = 0; d < lr; d++)
        for (int k = 0; k < tl.n_axes[d]; k++) used[tl.axes[d][k]] = true;
    for (int d = 0; d < rr; d++) {
        if (in_list(rb, nb, d) || in_list(rc, nc, d)) continue;
        bool clash = false;
        for (int k = 0; k < tr.n_axes[d]; k++) clash |= used[tr.axes[d][k]];
        if (clash) clear_dim(&tr, d);
    }
    /* result: batch dims, lhs free dims, rhs free dims */
    struct part_sharding rs;
    part_sharding_replicated(&rs, op->results[0].type->rank);
    int rd = 0;
    for (int i = 0; i < nb; i++) copy_dim(&rs, rd++, &tl, (int)lb[i]);
    for (int d = 0; d < lr; d++)
        if (!in_list(lb, nb, d) && !in_list(lc, nc, d)) copy_dim(&rs, rd++, &tl, d);
    for (int d = 0; d < rr; d++)
        if (!in_list(rb, nb, d) && !in_list(rc, nc, d)) copy_dim(&rs, rd++, &tr, d);
    if (rd != rs.rank) return false;
    struct graph_value *in[2];
    if (!reshard(c, lhs->id, &tl, false, 0, &in[0]) || !reshard(c, rhs->id, &tr, false, 0, &in[1])) return fail_build(c);
    const struct graph_type *rt = local_type(c, op->results[0].type, &rs);
    struct graph_op *d = graph_builder_clone(c->b, op, in, &rt);
    if (!made(c, d)) return false;
    struct graph_value *r = &d->results[0];
    if (n_partial) {
        enum graph_op_kind k = op->results[0].type->elem == BASE_DT_I1 ? GRAPH_OP_OR : GRAPH_OP_ADD;
        r = emit_all_reduce(c, r, n_partial, partial, k, NULL, "partial sums of a contraction split over the axes");
        if (!r) return false;
    }
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], r, &rs);
    return true;
}

/* The binary op a reduction body applies to its two arguments, or UNKNOWN. */
static enum graph_op_kind body_kind(const struct graph_op *op)
{
    if (op->n_regions != 1 || op->regions[0].n_blocks != 1) return GRAPH_OP_UNKNOWN;
    const struct graph_block *b = &op->regions[0].blocks[0];
    if (b->n_args != 2 || b->n_ops != 2) return GRAPH_OP_UNKNOWN;
    const struct graph_op *f = b->ops[0], *ret = b->ops[1];
    if (f->n_operands != 2 || f->n_results != 1 || ret->n_operands != 1 || ret->operands[0] != &f->results[0])
        return GRAPH_OP_UNKNOWN;
    bool args = (f->operands[0] == &b->args[0] && f->operands[1] == &b->args[1]) ||
                (f->operands[0] == &b->args[1] && f->operands[1] == &b->args[0]);
    if (!args) return GRAPH_OP_UNKNOWN;
    switch (f->kind) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM:
    case GRAPH_OP_AND:
    case GRAPH_OP_OR: return f->kind;
    default: return GRAPH_OP_UNKNOWN;
    }
}

/* Whether the init value is a constant that is the identity of add (0) or
 * multiply (1), so each partition may start from it. */
static bool init_is_identity(const struct graph_value *init, enum graph_op_kind kind)
{
    const struct graph_op *def = init->def;
    if (!def || def->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(def, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count != 1) return false;
    enum base_dtype_kind k = base_dtype_kind(t->dtype);
    if (k == BASE_KIND_COMPLEX) return false;
    double want = kind == GRAPH_OP_ADD ? 0.0 : 1.0;
    if (k == BASE_KIND_FLOAT) return base_elem_get_f64(t->dtype, t->data, 0) == want;
    return base_elem_get_i64(t->dtype, t->data, 0) == (int64_t)want;
}

/* Kept dims keep the first input's split (the other inputs follow it).  A
 * split reduced dim: local reduce and an all_reduce with the same body when
 * the body is one add/multiply/max/min/and/or of one input (sums and
 * products from an identity init); otherwise it is gathered first. */
static bool rule_reduce(struct pctx *c, const struct graph_op *op)
{
    int n = op->n_operands / 2;
    if (n < 1 || op->n_operands != 2 * n || op->n_results != n || n > 32) return false;
    enum graph_op_kind kind = n == 1 ? body_kind(op) : GRAPH_OP_UNKNOWN;
    int64_t dims[GRAPH_MAX_RANK];
    int nd = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), dims, GRAPH_MAX_RANK);
    if (nd < 0) return false;
    struct part_sharding tin = c->vs[op->operands[0]->id].s;
    bool idempotent = kind != GRAPH_OP_ADD && kind != GRAPH_OP_MULTIPLY;
    bool can_partial = kind != GRAPH_OP_UNKNOWN && (idempotent || init_is_identity(op->operands[1], kind));
    int partial[PART_MAX_AXES], n_partial = 0;
    for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] >= tin.rank) return false;
        if (!can_partial) clear_dim(&tin, (int)dims[i]);
        for (int k = 0; k < tin.n_axes[dims[i]]; k++) partial[n_partial++] = tin.axes[dims[i]][k];
    }
    for (int i = 1; i < n; i++)
        if (!reshard(c, op->operands[i]->id, &tin, true, 0, NULL)) return false;
    struct part_sharding rs;
    part_sharding_replicated(&rs, op->results[0].type->rank);
    int rd = 0;
    for (int d = 0; d < tin.rank; d++)
        if (!in_list(dims, nd, d)) copy_dim(&rs, rd++, &tin, d);
    if (rd != rs.rank) return false;
    struct graph_value *in[64];
    const struct graph_type *rt[32];
    for (int i = 0; i < n; i++) {
        if (!reshard(c, op->operands[i]->id, &tin, false, 0, &in[i]) || !(in[n + i] = ensure_rep(c, op->operands[n + i]->id)))
            return fail_build(c);
        rt[i] = local_type(c, op->results[i].type, &rs);
    }
    if (!map_captures(c, op)) return false;
    struct graph_op *r = graph_builder_clone(c->b, op, in, rt);
    if (!made(c, r)) return false;
    struct graph_value *v = &r->results[0];
    if (n_partial && !(v = emit_all_reduce(c, v, n_partial, partial, kind, op, "a reduction over a split dim")))
        return false;
    if (!is_rep(&rs) || n_partial) c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], v, &rs);
    for (int i = 1; i < n; i++) set_result(c, &op->results[i], &r->results[i], &rs);
    return true;
}

static int64_t dict_int(const struct graph_attr *d, const char *name)
{
    int64_t v = -1;
    if (!d || !graph_attr_as_i64(graph_dict_get(d, name), &v)) return -1;
    return v;
}

/* Convolution: the input's batch dim and the kernel's output-feature dim
 * keep their splits (they map to the output's batch and feature dims);
 * everything else (spatial dims: no halo exchange; contracted features) is
 * gathered. */
static bool rule_convolution(struct pctx *c, const struct graph_op *op)
{
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    int64_t fgc = 1, bgc = 1;
    const struct graph_attr *a;
    if ((a = graph_op_attr(op, "feature_group_count")) && !graph_attr_as_i64(a, &fgc)) return false;
    if ((a = graph_op_attr(op, "batch_group_count")) && !graph_attr_as_i64(a, &bgc)) return false;
    int64_t ib = dict_int(dn, "input_batch_dimension"), kof = dict_int(dn, "kernel_output_feature_dimension");
    int64_t ob = dict_int(dn, "output_batch_dimension"), of = dict_int(dn, "output_feature_dimension");
    const struct graph_value *lhs = op->operands[0], *rhs = op->operands[1];
    int lr = lhs->type->rank, rr = rhs->type->rank, orank = op->results[0].type->rank;
    if (op->n_operands != 2 || ib < 0 || ib >= lr || kof < 0 || kof >= rr || ob < 0 || ob >= orank || of < 0 ||
        of >= orank || bgc != 1)
        return false;
    struct part_sharding tl, tr, rs;
    part_sharding_replicated(&tl, lr);
    part_sharding_replicated(&tr, rr);
    part_sharding_replicated(&rs, orank);
    copy_dim(&tl, (int)ib, &c->vs[lhs->id].s, (int)ib);
    if (fgc == 1) copy_dim(&tr, (int)kof, &c->vs[rhs->id].s, (int)kof);
    for (int k = 0; k < tr.n_axes[kof]; k++)
        for (int j = 0; j < tl.n_axes[ib]; j++)
            if (tr.axes[kof][k] == tl.axes[ib][j]) clear_dim(&tr, (int)kof);
    copy_dim(&rs, (int)ob, &tl, (int)ib);
    copy_dim(&rs, (int)of, &tr, (int)kof);
    if (is_rep(&rs)) return false; /* nothing split: the fallback does the same */
    struct graph_value *in[2];
    if (!reshard(c, lhs->id, &tl, false, 0, &in[0]) || !reshard(c, rhs->id, &tr, false, 0, &in[1])) return fail_build(c);
    c->rep->n_sharded_ops++;
    return emit_like(c, op, in, &rs);
}

static bool rule_broadcast(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int64_t bd[GRAPH_MAX_RANK];
    if (graph_attr_as_i64_list(graph_op_attr(op, "broadcast_dimensions"), bd, GRAPH_MAX_RANK) != o->type->rank)
        return false;
    struct part_sharding tin = c->vs[o->id].s, rs;
    part_sharding_replicated(&rs, op->results[0].type->rank);
    for (int i = 0; i < o->type->rank; i++) {
        if (bd[i] < 0 || bd[i] >= rs.rank) return false;
        if (o->type->dims[i] != op->results[0].type->dims[bd[i]]) clear_dim(&tin, i);
        copy_dim(&rs, (int)bd[i], &tin, i);
    }
    struct graph_value *in;
    if (!reshard(c, o->id, &tin, false, 0, &in)) return fail_build(c);
    if (!is_rep(&rs)) c->rep->n_sharded_ops++;
    return emit_like(c, op, &in, &rs);
}

static bool rule_transpose(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int64_t perm[GRAPH_MAX_RANK];
    if (graph_attr_as_i64_list(graph_op_attr(op, "permutation"), perm, GRAPH_MAX_RANK) != o->type->rank) return false;
    const struct part_sharding *s = &c->vs[o->id].s;
    struct part_sharding rs;
    part_sharding_replicated(&rs, o->type->rank);
    for (int i = 0; i < rs.rank; i++) {
        if (perm[i] < 0 || perm[i] >= rs.rank) return false;
        copy_dim(&rs, i, s, (int)perm[i]);
    }
    struct graph_value *in = c->vs[o->id].loc;
    if (!is_rep(&rs)) c->rep->n_sharded_ops++;
    return emit_like(c, op, &in, &rs);
}

/* A split dim d of the operand stays split in the result at the dim e whose
 * leading dims hold as many elements as d's, when e divides into the same
 * number of shards: then every shard is the same run of row-major elements. */
static bool rule_reshape(struct pctx *c, const struct graph_op *op)
{
    const struct graph_type *it = op->operands[0]->type, *ot = op->results[0].type;
    struct part_sharding tin = c->vs[op->operands[0]->id].s, rs;
    part_sharding_replicated(&rs, ot->rank);
    int64_t pre_in = 1;
    for (int d = 0; d < it->rank; pre_in *= it->dims[d], d++) {
        if (!tin.n_axes[d]) continue;
        int64_t p = nparts(c, &tin, d), pre_out = 1;
        int found = -1;
        for (int e = 0; e < ot->rank && pre_out <= pre_in; pre_out *= ot->dims[e], e++)
            if (pre_out == pre_in && ot->dims[e] > 0 && ot->dims[e] % p == 0 && !rs.n_axes[e] &&
                (ot->dims[e] > 1 || p == 1)) {
                found = e;
                break;
            }
        if (found < 0) clear_dim(&tin, d);
        else copy_dim(&rs, found, &tin, d);
    }
    struct graph_value *in;
    if (!reshard(c, op->operands[0]->id, &tin, false, 0, &in)) return fail_build(c);
    if (!is_rep(&rs)) c->rep->n_sharded_ops++;
    return emit_like(c, op, &in, &rs);
}

/* Dims a slice takes whole keep their split (their limit becomes the local
 * size); dims it cuts are gathered. */
static bool rule_slice(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int rank = o->type->rank;
    int64_t start[GRAPH_MAX_RANK], limit[GRAPH_MAX_RANK], stride[GRAPH_MAX_RANK];
    if (graph_attr_as_i64_list(graph_op_attr(op, "start_indices"), start, GRAPH_MAX_RANK) != rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "limit_indices"), limit, GRAPH_MAX_RANK) != rank)
        return false;
    int ns = graph_attr_as_i64_list(graph_op_attr(op, "strides"), stride, GRAPH_MAX_RANK);
    if (ns < 0)
        for (int d = 0; d < rank; d++) stride[d] = 1;
    else if (ns != rank)
        return false;
    struct part_sharding tin = c->vs[o->id].s;
    for (int d = 0; d < rank; d++)
        if (tin.n_axes[d] && !(start[d] == 0 && limit[d] == o->type->dims[d] && stride[d] == 1)) clear_dim(&tin, d);
    if (is_rep(&tin)) return false; /* nothing stays split: the general fallback */
    for (int d = 0; d < rank; d++)
        if (tin.n_axes[d]) limit[d] = o->type->dims[d] / nparts(c, &tin, d);
    struct graph_value *in;
    if (!reshard(c, o->id, &tin, false, 0, &in)) return fail_build(c);
    const struct graph_type *rt = local_type(c, op->results[0].type, &tin);
    struct graph_op *n = new_op(c, op->kind, &in, 1, &rt, 1, &op->loc);
    static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
    const struct graph_attr *v[3] = {graph_builder_attr_dense_i64(c->b, start, rank),
                                     graph_builder_attr_dense_i64(c->b, limit, rank),
                                     graph_builder_attr_dense_i64(c->b, stride, rank)};
    set_attrs(c, n, 3, names, v);
    if (!made(c, n)) return false;
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], &n->results[0], &tin);
    return true;
}

/* pad: dims it does not pad keep their split; padded dims are gathered. */
static bool rule_pad(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int rank = o->type->rank;
    int64_t lo[GRAPH_MAX_RANK], hi[GRAPH_MAX_RANK], in_[GRAPH_MAX_RANK];
    if (op->n_operands != 2 || graph_attr_as_i64_list(graph_op_attr(op, "edge_padding_low"), lo, GRAPH_MAX_RANK) != rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "edge_padding_high"), hi, GRAPH_MAX_RANK) != rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "interior_padding"), in_, GRAPH_MAX_RANK) != rank)
        return false;
    struct part_sharding tin = c->vs[o->id].s;
    for (int d = 0; d < rank; d++)
        if (lo[d] || hi[d] || in_[d]) clear_dim(&tin, d);
    if (is_rep(&tin)) return false;
    struct graph_value *in[2];
    if (!reshard(c, o->id, &tin, false, 0, &in[0]) || !(in[1] = ensure_rep(c, op->operands[1]->id))) return fail_build(c);
    c->rep->n_sharded_ops++;
    return emit_like(c, op, in, &tin);
}

/* The other dims keep a split all operands can take; the joined dim is whole. */
static bool rule_concatenate(struct pctx *c, const struct graph_op *op)
{
    int64_t dim = -1;
    int rank = op->results[0].type->rank;
    if (!graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim) || dim < 0 || dim >= rank || op->n_operands > 64)
        return false;
    for (int i = 0; i < op->n_operands; i++) {
        struct part_sharding t = c->vs[op->operands[i]->id].s;
        clear_dim(&t, (int)dim);
        if (is_rep(&t)) continue;
        bool ok = true;
        for (int k = 0; ok && k < op->n_operands; k++) ok = reshard(c, op->operands[k]->id, &t, true, 0, NULL);
        if (!ok) continue;
        struct graph_value *in[64];
        for (int k = 0; k < op->n_operands; k++)
            if (!reshard(c, op->operands[k]->id, &t, false, 0, &in[k])) return fail_build(c);
        c->rep->n_sharded_ops++;
        return emit_like(c, op, in, &t);
    }
    return false;
}

/* Maps every value a region of op uses from outside it to the value's whole
 * copy (for the region's copy). */
static bool capture_whole(struct pctx *c, const struct graph_block *b, int depth)
{
    if (depth > 256) return false;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int k = 0; k < op->n_operands; k++) {
            uint32_t id = op->operands[k]->id;
            if (!c->vs[id].have) continue;
            struct graph_value *v = ensure_rep(c, id);
            if (!v) return false;
            graph_builder_map(c->b, op->operands[k], v);
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                if (!capture_whole(c, &op->regions[r].blocks[k], depth + 1)) return false;
    }
    return true;
}

static bool rule_fallback(struct pctx *c, const struct graph_op *op)
{
    struct graph_value *ins[64], **in = ins;
    bool any_sharded = false;
    if (op->n_operands > 64 && !(in = malloc((size_t)op->n_operands * sizeof *in))) return fail_build(c);
    bool ok = true;
    for (int i = 0; ok && i < op->n_operands; i++) {
        uint32_t id = op->operands[i]->id;
        any_sharded |= !is_rep(&c->vs[id].s);
        ok = (in[i] = ensure_rep(c, id)) != NULL;
    }
    ok = ok && map_captures(c, op);
    struct graph_op *n = ok ? graph_builder_clone(c->b, op, in, NULL) : NULL;
    if (in != ins) free(in);
    if (ok && !n && graph_builder_status(c->b, NULL) == BASE_ERR_INVALID && !c->failed) { /* no copy of a value */
        c->failed = true;
        graph_op_diag(c->diag, op, BASE_ERR_INTERNAL, "%s: a region uses a value the partitioner has not seen",
                      op->name);
        return false;
    }
    if (!made(c, n)) return false;
    if (any_sharded) note_fallback(c, op);
    for (int i = 0; i < op->n_results; i++) {
        struct part_sharding r;
        const struct graph_type *t = op->results[i].type;
        part_sharding_replicated(&r, t->kind == GRAPH_TYPE_TENSOR ? t->rank : 0);
        set_result(c, &op->results[i], &n->results[i], &r);
    }
    return true;
}

/* dynamic_slice: dims taken whole keep their split (a start index there is
 * clamped to 0 on every shard, as on the whole dim); dims it cuts are
 * gathered.  The start indices are scalars. */
static bool rule_dynamic_slice(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int rank = o->type->rank;
    int64_t sizes[GRAPH_MAX_RANK];
    if (op->n_operands != 1 + rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "slice_sizes"), sizes, GRAPH_MAX_RANK) != rank)
        return false;
    struct part_sharding tin = c->vs[o->id].s;
    for (int d = 0; d < rank; d++)
        if (sizes[d] != o->type->dims[d]) clear_dim(&tin, d);
    if (is_rep(&tin)) return false; /* nothing stays split: the general fallback */
    for (int d = 0; d < rank; d++)
        if (tin.n_axes[d]) sizes[d] /= nparts(c, &tin, d);
    struct graph_value *in[1 + GRAPH_MAX_RANK];
    if (!reshard(c, o->id, &tin, false, 0, &in[0])) return fail_build(c);
    for (int d = 0; d < rank; d++)
        if (!(in[1 + d] = ensure_rep(c, op->operands[1 + d]->id))) return fail_build(c);
    const struct graph_type *rt = local_type(c, op->results[0].type, &tin);
    struct graph_op *n = new_op(c, op->kind, in, 1 + rank, &rt, 1, &op->loc);
    if (n) graph_builder_set_attr(c->b, n, "slice_sizes", graph_builder_attr_dense_i64(c->b, sizes, rank));
    if (!made(c, n)) return false;
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], &n->results[0], &tin);
    return true;
}

/* dynamic_update_slice: the dims the update covers whole keep a split both
 * operand and update can take (the update's first: a loop writing its
 * shards into a stack keeps the stack split alike); the dims it writes
 * part of are whole. */
static bool rule_dynamic_update_slice(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0], *u = op->operands[1];
    int rank = o->type->rank;
    if (op->n_operands != 2 + rank || u->type->rank != rank) return false;
    struct part_sharding cand[2] = {c->vs[u->id].s, c->vs[o->id].s};
    for (int k = 0; k < 2; k++) {
        struct part_sharding *t = &cand[k];
        for (int d = 0; d < rank; d++)
            if (u->type->dims[d] != o->type->dims[d]) clear_dim(t, d);
        if (is_rep(t) || !reshard(c, o->id, t, true, 0, NULL) || !reshard(c, u->id, t, true, 0, NULL)) continue;
        struct graph_value *in[2 + GRAPH_MAX_RANK];
        if (!reshard(c, o->id, t, false, 0, &in[0]) || !reshard(c, u->id, t, false, 0, &in[1])) return fail_build(c);
        for (int d = 0; d < rank; d++)
            if (!(in[2 + d] = ensure_rep(c, op->operands[2 + d]->id))) return fail_build(c);
        c->rep->n_sharded_ops++;
        return emit_like(c, op, in, t);
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Gather and scatter                                                        */

static int dn_list(const struct graph_attr *dn, const char *name, int64_t *out)
{
    const struct graph_attr *a = dn ? graph_dict_get(dn, name) : NULL;
    int n = a ? graph_attr_as_i64_list(a, out, GRAPH_MAX_RANK) : 0;
    return n < 0 ? -1 : n;
}

/* This partition's first row of a dim split over axes ax[0..n) into local
 * rows each: its shard index over those axes (major first) x local, a ui32
 * scalar from stablehlo.partition_id (as emit_slice computes it). */
static struct graph_value *shard_first(struct pctx *c, int n, const int *ax, int64_t local)
{
    struct graph_value *pid = u32_op(c, GRAPH_OP_PARTITION_ID, NULL, NULL, 0);
    struct graph_value *idx = u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, 0);
    for (int k = 0; k < n; k++) {
        int a = ax[k];
        int64_t stride = 1;
        for (int j = a + 1; j < c->mesh.n_axes; j++) stride *= c->mesh.sizes[j];
        struct graph_value *q = u32_op(c, GRAPH_OP_DIVIDE, pid, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)stride), 0);
        struct graph_value *coord =
            u32_op(c, GRAPH_OP_REMAINDER, q, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)c->mesh.sizes[a]), 0);
        idx = u32_op(c, GRAPH_OP_MULTIPLY, idx, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)c->mesh.sizes[a]), 0);
        idx = u32_op(c, GRAPH_OP_ADD, idx, coord, 0);
    }
    return u32_op(c, GRAPH_OP_MULTIPLY, idx, u32_op(c, GRAPH_OP_CONSTANT, NULL, NULL, (uint32_t)local), 0);
}

static struct graph_value *num_scalar(struct pctx *c, enum base_dtype dt, double v)
{
    const struct graph_type *st = graph_builder_scalar_type(c->b, dt);
    struct graph_op *op = new_op(c, GRAPH_OP_CONSTANT, NULL, 0, &st, 1, op_loc(c));
    if (op) graph_builder_set_attr(c->b, op, "value", graph_builder_attr_splat_f64(c->b, st, v));
    return graph_builder_result(op, 0);
}

static struct graph_value *int_scalar(struct pctx *c, enum base_dtype dt, int64_t v) { return num_scalar(c, dt, (double)v); }
static struct graph_value *float_scalar(struct pctx *c, enum base_dtype dt, double v) { return num_scalar(c, dt, v); }

/* A scalar broadcast to t's shape. */
static struct graph_value *bcast_scalar(struct pctx *c, struct graph_value *s, const struct graph_type *t)
{
    if (!s) return NULL;
    const struct graph_type *rt = graph_builder_type_with_dims(c->b, s->type, t->rank, t->dims);
    struct graph_op *op = new_op(c, GRAPH_OP_BROADCAST_IN_DIM, &s, 1, &rt, 1, op_loc(c));
    if (op) graph_builder_set_attr(c->b, op, "broadcast_dimensions", graph_builder_attr_dense_i64(c->b, NULL, 0));
    return graph_builder_result(op, 0);
}

static struct graph_value *cmp_op(struct pctx *c, struct graph_value *a, struct graph_value *b, const char *dir,
                                  const struct graph_type *bt)
{
    struct graph_op *op = new_op(c, GRAPH_OP_COMPARE, (struct graph_value *[]){a, b}, 2, &bt, 1, op_loc(c));
    if (op) {
        graph_builder_set_attr(c->b, op, "comparison_direction", graph_builder_attr_comparison(c->b, dir));
        graph_builder_set_attr(c->b, op, "compare_type", graph_builder_attr_keyword(c->b, "stablehlo.comparison_type",
                                                                                    base_dtype_kind(a->type->elem) == BASE_KIND_UINT ? "UNSIGNED" : "SIGNED"));
    }
    return graph_builder_result(op, 0);
}

/* gather: the indices' batch dims keep their splits (each partition looks
 * up its own rows: an embedding lookup of a batch split over data), and so
 * do the operand's offset dims taken whole (a table split over its
 * features); the dims it indexes or slices into are gathered.  Not with
 * operand batching dims. */
static bool rule_gather(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0], *ix = op->operands[1];
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    int64_t offs[GRAPH_MAX_RANK], coll[GRAPH_MAX_RANK], obd[GRAPH_MAX_RANK], sim[GRAPH_MAX_RANK], sizes[GRAPH_MAX_RANK];
    int n_off = dn_list(dn, "offset_dims", offs), n_coll = dn_list(dn, "collapsed_slice_dims", coll);
    int n_obd = dn_list(dn, "operand_batching_dims", obd), n_sim = dn_list(dn, "start_index_map", sim);
    int64_t ivd = dict_int(dn, "index_vector_dim");
    int orank = o->type->rank, irank = ix->type->rank, rrank = op->results[0].type->rank;
    if (op->n_operands != 2 || !dn || n_off < 0 || n_coll < 0 || n_obd != 0 || n_sim < 0 || ivd < 0 || ivd > irank ||
        graph_attr_as_i64_list(graph_op_attr(op, "slice_sizes"), sizes, GRAPH_MAX_RANK) != orank)
        return false;
    struct part_sharding to = c->vs[o->id].s, ti = c->vs[ix->id].s, rs;
    part_sharding_replicated(&rs, rrank);
    if (ivd < irank) clear_dim(&ti, (int)ivd);
    /* the indices' batch dims -> the result's dims that are not offset dims */
    int rd = 0;
    for (int d = 0; d < irank; d++) {
        if (d == ivd) continue;
        while (rd < rrank && in_list(offs, n_off, rd)) rd++;
        if (rd >= rrank) return false;
        copy_dim(&rs, rd++, &ti, d);
    }
    /* the operand's offset dims -> offset_dims in order */
    bool used[PART_MAX_AXES] = {false};
    for (int d = 0; d < irank; d++)
        for (int k = 0; k < ti.n_axes[d]; k++) used[ti.axes[d][k]] = true;
    /* a row lookup (one index component, into a collapsed dim of slice 1)
     * into a table split over its rows keeps the split: each partition looks
     * up the ids in its rows, zeros elsewhere, and an all_reduce sums them
     * (Megatron's vocabulary-parallel embedding) */
    int row = n_sim == 1 && n_coll == 1 && coll[0] == sim[0] && sizes[sim[0]] == 1 && ivd == irank - 1 &&
                      ix->type->dims[ivd] == 1
                  ? (int)sim[0]
                  : -1;
    struct part_sharding rows;
    part_sharding_replicated(&rows, orank);
    if (row >= 0) {
        bool clash = false;
        for (int k = 0; k < to.n_axes[row]; k++) clash |= used[to.axes[row][k]];
        if (!clash) copy_dim(&rows, row, &to, row);
    }
    int k_off = 0;
    for (int d = 0; d < orank; d++) {
        if (in_list(coll, n_coll, d)) {
            clear_dim(&to, d);
            continue;
        }
        bool whole = sizes[d] == o->type->dims[d] && !in_list(sim, n_sim, d);
        bool clash = false;
        for (int k = 0; k < to.n_axes[d]; k++) clash |= used[to.axes[d][k]];
        if (!whole || clash) clear_dim(&to, d);
        if (k_off >= n_off) return false;
        copy_dim(&rs, (int)offs[k_off++], &to, d);
        if (to.n_axes[d]) sizes[d] /= nparts(c, &to, d);
    }
    bool by_rows = row >= 0 && rows.n_axes[row] > 0 && base_dtype_is_int(ix->type->elem) &&
                   base_dtype_size(ix->type->elem) <= 4;
    if (by_rows) copy_dim(&to, row, &rows, row);
    if (is_rep(&rs) && !by_rows) return false;
    struct graph_value *in[2];
    if (!reshard(c, o->id, &to, false, 0, &in[0]) || !reshard(c, ix->id, &ti, false, 0, &in[1])) return fail_build(c);
    const struct graph_type *rt = local_type(c, op->results[0].type, &rs);
    struct graph_value *ids = in[1], *ok = NULL;
    if (by_rows) {
        /* ids - this partition's first row, in range or not; clamped for the lookup */
        const struct graph_type *it = ids->type, *st = graph_builder_scalar_type(c->b, it->elem);
        int64_t local = o->type->dims[row] / nparts(c, &to, row);
        struct graph_value *first = shard_first(c, to.n_axes[row], to.axes[row], local);
        struct graph_value *f = graph_builder_result(new_op(c, GRAPH_OP_CONVERT, &first, 1, &st, 1, op_loc(c)), 0);
        struct graph_value *fb = bcast_scalar(c, f, it);
        struct graph_value *rel = graph_builder_result(new_op(c, GRAPH_OP_SUBTRACT, (struct graph_value *[]){ids, fb}, 2, &it, 1, op_loc(c)), 0);
        struct graph_value *lo = int_scalar(c, it->elem, 0), *hi = int_scalar(c, it->elem, local - 1);
        const struct graph_type *bt = graph_builder_type_with_dims(c->b, graph_builder_scalar_type(c->b, BASE_DT_I1), it->rank, it->dims);
        struct graph_value *ge = cmp_op(c, rel, bcast_scalar(c, lo, it), "GE", bt);
        struct graph_value *le = cmp_op(c, rel, bcast_scalar(c, hi, it), "LE", bt);
        ok = graph_builder_result(new_op(c, GRAPH_OP_AND, (struct graph_value *[]){ge, le}, 2, &bt, 1, op_loc(c)), 0);
        in[1] = graph_builder_result(new_op(c, GRAPH_OP_CLAMP, (struct graph_value *[]){lo, rel, hi}, 3, &it, 1, op_loc(c)), 0);
        if (!in[1] || !ok) return fail_build(c);
    }
    struct graph_op *n = graph_builder_clone(c->b, op, in, &rt);
    if (n) graph_builder_set_attr(c->b, n, "slice_sizes", graph_builder_attr_dense_i64(c->b, sizes, orank));
    if (!made(c, n)) return false;
    struct graph_value *r = &n->results[0];
    if (by_rows) {
        /* rows of other partitions: zeros; then the sum over the row axes */
        int64_t keep[GRAPH_MAX_RANK] = {0};
        int nk = 0;
        for (int d = 0; d < rrank; d++)
            if (!in_list(offs, n_off, d)) keep[nk++] = d;
        int64_t bdims[GRAPH_MAX_RANK];
        for (int d = 0; d < ok->type->rank; d++) bdims[d] = d < nk ? keep[d] : 0;
        int64_t okd[GRAPH_MAX_RANK];
        for (int d = 0; d < ok->type->rank - 1; d++) okd[d] = ok->type->dims[d];
        const struct graph_type *ot = graph_builder_type_with_dims(c->b, ok->type, ok->type->rank - 1, okd);
        struct graph_value *ok2 = graph_builder_result(new_op(c, GRAPH_OP_RESHAPE, &ok, 1, &ot, 1, op_loc(c)), 0);
        const struct graph_type *mt = graph_builder_type_with_dims(c->b, ok->type, rt->rank, rt->dims);
        struct graph_op *bo = new_op(c, GRAPH_OP_BROADCAST_IN_DIM, &ok2, 1, &mt, 1, op_loc(c));
        if (bo) graph_builder_set_attr(c->b, bo, "broadcast_dimensions", graph_builder_attr_dense_i64(c->b, bdims, nk));
        struct graph_value *zero = bcast_scalar(c, float_scalar(c, rt->elem, 0.0), rt);
        struct graph_value *sel = graph_builder_result(
            new_op(c, GRAPH_OP_SELECT, (struct graph_value *[]){graph_builder_result(bo, 0), r, zero}, 3, &rt, 1, op_loc(c)), 0);
        if (!sel) return fail_build(c);
        r = emit_all_reduce(c, sel, rows.n_axes[row], rows.axes[row], GRAPH_OP_ADD, NULL,
                            "a lookup into rows split over the axes: each partition's rows, summed");
        if (!r) return false;
    }
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], r, &rs);
    return true;
}

/* v is zero everywhere: a splat constant 0, or a broadcast of one. */
static bool zero_splat(const struct graph_value *v)
{
    const struct graph_op *def = v->def;
    if (def && def->kind == GRAPH_OP_BROADCAST_IN_DIM) def = def->operands[0]->def;
    return def && def->kind == GRAPH_OP_CONSTANT && init_is_identity(&def->results[0], GRAPH_OP_ADD);
}

/* scatter that adds into zeros (the transpose of a gather: an embedding's
 * gradient): each partition adds its own updates (their scatter dims split
 * like their indices' batch dims) into its zeros, and the partial results
 * are summed with an all_reduce over those axes; the update window dims keep
 * their split in the result. */
static bool rule_scatter(struct pctx *c, const struct graph_op *op)
{
    if (op->n_operands != 3 || op->n_results != 1 || body_kind(op) != GRAPH_OP_ADD || !zero_splat(op->operands[0]))
        return false;
    const struct graph_value *o = op->operands[0], *ix = op->operands[1], *u = op->operands[2];
    const struct graph_attr *dn = graph_op_attr(op, "scatter_dimension_numbers");
    int64_t uwd[GRAPH_MAX_RANK], iwd[GRAPH_MAX_RANK], ibd[GRAPH_MAX_RANK], sdo[GRAPH_MAX_RANK];
    int n_uwd = dn_list(dn, "update_window_dims", uwd), n_iwd = dn_list(dn, "inserted_window_dims", iwd);
    int n_ibd = dn_list(dn, "input_batching_dims", ibd), n_sdo = dn_list(dn, "scatter_dims_to_operand_dims", sdo);
    int64_t ivd = dict_int(dn, "index_vector_dim");
    int orank = o->type->rank, irank = ix->type->rank, urank = u->type->rank;
    if (!dn || n_uwd < 0 || n_iwd < 0 || n_ibd != 0 || n_sdo < 0 || ivd < 0 || ivd > irank) return false;
    struct part_sharding tu = c->vs[u->id].s, ti, to;
    part_sharding_replicated(&ti, irank);
    part_sharding_replicated(&to, orank);
    /* the updates' scatter dims <-> the indices' batch dims, in order */
    int id = 0, partial[PART_MAX_AXES], n_partial = 0;
    for (int d = 0; d < urank; d++) {
        if (in_list(uwd, n_uwd, d)) continue;
        while (id == ivd) id++;
        if (id >= irank) return false;
        copy_dim(&ti, id++, &tu, d);
        for (int k = 0; k < tu.n_axes[d]; k++) partial[n_partial++] = tu.axes[d][k];
    }
    /* the update window dims <-> the operand dims not inserted, in order */
    int k_w = 0;
    for (int d = 0; d < orank; d++) {
        if (in_list(iwd, n_iwd, d)) continue;
        if (k_w >= n_uwd) return false;
        int ud = (int)uwd[k_w++];
        if (u->type->dims[ud] != o->type->dims[d] || in_list(sdo, n_sdo, d)) {
            clear_dim(&tu, ud);
            continue;
        }
        copy_dim(&to, d, &tu, ud);
    }
    if (is_rep(&to) && !n_partial) return false;
    struct graph_value *in[3];
    if (!reshard(c, o->id, &to, false, 0, &in[0]) || !reshard(c, ix->id, &ti, false, 0, &in[1]) ||
        !reshard(c, u->id, &tu, false, 0, &in[2]))
        return fail_build(c);
    const struct graph_type *rt = local_type(c, op->results[0].type, &to);
    if (!map_captures(c, op)) return false;
    struct graph_op *n = graph_builder_clone(c->b, op, in, &rt);
    if (!made(c, n)) return false;
    struct graph_value *r = &n->results[0];
    if (n_partial && !(r = emit_all_reduce(c, r, n_partial, partial, GRAPH_OP_ADD, NULL,
                                           "the sum of each partition's scattered updates")))
        return false;
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], r, &to);
    return true;
}

/* chlo.top_k over the last dim: the other dims keep their split (each
 * partition ranks its own rows); values and indices alike. */
static bool rule_top_k(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    int rank = o->type->rank;
    if (op->n_operands != 1 || op->n_results != 2 || rank < 1) return false;
    struct part_sharding t = c->vs[o->id].s;
    clear_dim(&t, rank - 1);
    if (is_rep(&t)) return false;
    struct graph_value *in;
    if (!reshard(c, o->id, &t, false, 0, &in)) return fail_build(c);
    const struct graph_type *rt[2] = {local_type(c, op->results[0].type, &t), local_type(c, op->results[1].type, &t)};
    struct graph_op *n = graph_builder_clone(c->b, op, &in, rt);
    if (!made(c, n)) return false;
    c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], &n->results[0], &t);
    set_result(c, &op->results[1], &n->results[1], &t);
    return true;
}

/* sdy.sharding_constraint: the value resharded to the constraint's sharding
 * (a cut of partial sums over their axes: a reduce_scatter); the op itself
 * is not in the partitioned program. */
static bool rule_sharding_constraint(struct pctx *c, const struct graph_op *op)
{
    const struct graph_value *o = op->operands[0];
    if (op->n_operands != 1 || op->n_results != 1 || !static_tensor(o->type)) return false;
    struct part_sharding t;
    if (part_sdy_sharding(op, "sdy.sharding_constraint", o->type->rank, graph_op_attr(op, "sharding"), &c->mesh, &t,
                          c->diag) != BASE_OK) {
        c->failed = true;
        return false;
    }
    for (int d = 0; d < t.rank; d++)
        if (o->type->dims[d] % nparts(c, &t, d)) {
            c->failed = true;
            graph_op_diag(c->diag, op, BASE_ERR_INVALID,
                          "sdy.sharding_constraint: dim %d of size %lld does not divide into %lld shards", d,
                          (long long)o->type->dims[d], (long long)nparts(c, &t, d));
            return false;
        }
    struct graph_value *v = reshard_or_cut(c, o->id, &t);
    if (!v) return fail_build(c);
    if (!is_rep(&t)) c->rep->n_sharded_ops++;
    set_result(c, &op->results[0], v, &t);
    return true;
}

/* ------------------------------------------------------------------------ */
/* While loops                                                               */

static int64_t total_parts(const struct pctx *c, const struct part_sharding *s)
{
    int64_t n = 1;
    for (int d = 0; d < s->rank; d++) n *= nparts(c, s, d);
    return n;
}

/* v at sharding t: resharded, or (when no reshard reaches t) gathered
 * whole and cut to t locally. */
static struct graph_value *reshard_or_cut(struct pctx *c, uint32_t id, const struct part_sharding *t)
{
    struct graph_value *v = NULL;
    if (reshard(c, id, t, true, 0, NULL)) return reshard(c, id, t, false, 0, &v) ? v : NULL;
    struct graph_value *whole = ensure_rep(c, id);
    if (!whole || is_rep(t)) return whole;
    struct part_sharding s;
    part_sharding_replicated(&s, t->rank);
    bool cut[GRAPH_MAX_RANK];
    for (int d = 0; d < t->rank; d++) cut[d] = t->n_axes[d] > 0;
    return emit_slice(c, whole, c->vs[id].src->type, &s, cut, t);
}

/* What one pass over a loop changes and must be able to undo. */
struct snap {
    struct vstate *vs;
    int n_colls, n_fallbacks, n_sharded_ops, next_channel, n_ars;
};

static bool snap_take(struct pctx *c, struct snap *s)
{
    s->vs = malloc(((size_t)c->m->n_values + 1) * sizeof *s->vs);
    if (!s->vs) return fail_build(c);
    memcpy(s->vs, c->vs, (size_t)c->m->n_values * sizeof *s->vs);
    s->n_colls = c->rep->n_colls;
    s->n_fallbacks = c->rep->n_fallbacks;
    s->n_sharded_ops = c->rep->n_sharded_ops;
    s->next_channel = c->next_channel;
    s->n_ars = c->n_ars;
    return true;
}

static void snap_restore(struct pctx *c, struct snap *s)
{
    memcpy(c->vs, s->vs, (size_t)c->m->n_values * sizeof *s->vs);
    c->rep->n_colls = s->n_colls;
    c->rep->n_fallbacks = s->n_fallbacks;
    c->rep->n_sharded_ops = s->n_sharded_ops;
    c->next_channel = s->next_channel;
    c->n_ars = s->n_ars;
}

/* The values defined before a region keep the copies (gathered, resharded)
 * they had before it: copies made inside the region are not in scope after. */
static void restore_copies(struct pctx *c, const struct vstate *before)
{
    for (uint32_t i = 0; i < c->m->n_values; i++)
        if (before[i].have) {
            c->vs[i].rep = before[i].rep;
            c->vs[i].remat = before[i].remat;
            c->vs[i].remat_s = before[i].remat_s;
        }
}

/* One partition of while op at carry shardings cs: the inits resharded to
 * cs, the new while in the current block, its cond and body partitioned
 * with their arguments at cs; rs gets the shardings the body's results
 * come out with (they are then resharded to cs). */
static bool while_pass(struct pctx *c, const struct graph_op *op, const struct part_sharding *cs,
                       struct part_sharding *rs, struct graph_op **out)
{
    int n = op->n_operands;
    struct graph_value **in = calloc((size_t)n + 1, sizeof *in), **args = calloc((size_t)n + 1, sizeof *args);
    const struct graph_type **ty = calloc((size_t)n + 1, sizeof *ty);
    struct vstate *before = malloc(((size_t)c->m->n_values + 1) * sizeof *before);
    bool ok = in && args && ty && before;
    for (int i = 0; ok && i < n; i++) {
        c->op = op;
        ok = (in[i] = reshard_or_cut(c, op->operands[i]->id, &cs[i])) != NULL;
        ty[i] = local_type(c, op->operands[i]->type, &cs[i]);
    }
    if (ok) memcpy(before, c->vs, (size_t)c->m->n_values * sizeof *before);
    struct graph_op *w = ok ? new_op(c, GRAPH_OP_WHILE, in, n, ty, n, &op->loc) : NULL;
    ok = ok && made(c, w);
    for (int r = 0; ok && r < 2; r++) {
        const struct graph_block *src = &op->regions[r].blocks[0];
        ok = graph_builder_region(c->b, w, ty, n, args) != NULL;
        for (int i = 0; ok && i < n; i++) {
            struct vstate *vs = &c->vs[src->args[i].id];
            vs->loc = args[i];
            vs->s = cs[i];
            vs->rep = is_rep(&cs[i]) ? args[i] : NULL;
            vs->remat = NULL;
            vs->have = true;
        }
        const struct graph_op *term = graph_block_terminator(src);
        for (int k = 0; ok && k < src->n_ops; k++)
            if (src->ops[k] != term) ok = partition_op(c, src->ops[k]);
        c->op = term ? term : op;
        if (ok && (!term || term->n_operands != (r ? n : 1))) ok = false;
        for (int i = 0; ok && i < term->n_operands; i++) {
            uint32_t id = term->operands[i]->id;
            if (!c->vs[id].have) {
                ok = false;
                break;
            }
            if (r == 0) {
                ok = (in[i] = ensure_rep(c, id)) != NULL;
            } else {
                rs[i] = c->vs[id].s;
                ok = (in[i] = reshard_or_cut(c, id, &cs[i])) != NULL;
            }
        }
        struct graph_op *ret = ok ? graph_builder_return(c->b, in, r ? n : 1) : NULL;
        if (ret) graph_builder_set_op_loc(c->b, ret, &term->loc);
        ok = ok && made(c, ret);
        if (ok) restore_copies(c, before);
    }
    free(in);
    free(args);
    free(ty);
    free(before);
    c->op = op;
    *out = w;
    return ok || fail_build(c);
}

/* A loop's carried values keep a sharding across iterations.  It starts
 * as the inits' shardings; a pass over the body (built inside a scratch op
 * that is then erased) shows the shardings the body gives them back, and a
 * carried value the body gives back more split, whose init can take that
 * split, is carried so from then on (a stack of layer outputs or gradients
 * written shard by shard, starting as zeros).  Two passes agreeing, the
 * loop is built for good, each result resharded to its carry at the end of
 * the body.  Values of the enclosing body are used in the loop as they are
 * (their shards), and what the loop gathers of them stays inside it. */
static bool rule_while(struct pctx *c, const struct graph_op *op)
{
    int n = op->n_operands;
    if (op->n_regions != 2 || op->n_results != n || n < 1) return false;
    for (int r = 0; r < 2; r++)
        if (op->regions[r].n_blocks != 1 || op->regions[r].blocks[0].n_args != n) return false;
    for (int i = 0; i < n; i++)
        if (!static_tensor(op->operands[i]->type)) return false;
    struct part_sharding *cs = calloc((size_t)n + 1, sizeof *cs), *rs = calloc((size_t)n + 1, sizeof *rs);
    if (!cs || !rs) {
        free(cs);
        free(rs);
        return fail_build(c);
    }
    for (int i = 0; i < n; i++) cs[i] = c->vs[op->operands[i]->id].s;
    bool ok = true;
    for (int pass = 0; ok && pass < 4; pass++) {
        struct snap sn = {0};
        if (!(ok = snap_take(c, &sn))) break;
        struct graph_op *scratch = new_op(c, GRAPH_OP_OPTIMIZATION_BARRIER, NULL, 0, NULL, 0, &op->loc), *w = NULL;
        ok = made(c, scratch) && graph_builder_region(c->b, scratch, NULL, 0, NULL) && while_pass(c, op, cs, rs, &w);
        if (scratch) {
            graph_builder_end(c->b);
            graph_builder_erase(c->b, scratch);
        }
        snap_restore(c, &sn);
        free(sn.vs);
        bool changed = false;
        for (int i = 0; ok && i < n; i++)
            if (!shd_eq(&rs[i], &cs[i]) && total_parts(c, &rs[i]) > total_parts(c, &cs[i]) &&
                reshard(c, op->operands[i]->id, &rs[i], true, 0, NULL)) {
                cs[i] = rs[i];
                changed = true;
            }
        if (!changed) break;
    }
    struct graph_op *w = NULL;
    ok = ok && while_pass(c, op, cs, rs, &w);
    bool split = false;
    for (int i = 0; ok && i < n; i++) {
        set_result(c, &op->results[i], &w->results[i], &cs[i]);
        split |= !is_rep(&cs[i]);
    }
    if (ok && split) c->rep->n_sharded_ops++;
    free(cs);
    free(rs);
    c->op = op;
    return ok;
}

static bool partition_op(struct pctx *c, const struct graph_op *op)
{
    c->op = op;
    bool handled = false;
    if (op->kind == GRAPH_OP_WHILE) {
        handled = rule_while(c, op);
    } else if (op->kind == GRAPH_OP_SDY_SHARDING_CONSTRAINT) {
        handled = rule_sharding_constraint(c, op);
    } else if (op->kind == GRAPH_OP_CHLO_TOP_K && operands_static(op)) {
        handled = rule_top_k(c, op);
    } else if (operands_static(op) && (op->n_results == 1 || op->kind == GRAPH_OP_REDUCE)) {
        switch (op->kind) {
        case GRAPH_OP_DYNAMIC_SLICE: handled = rule_dynamic_slice(c, op); break;
        case GRAPH_OP_GATHER: handled = rule_gather(c, op); break;
        case GRAPH_OP_SCATTER: handled = rule_scatter(c, op); break;
        case GRAPH_OP_DYNAMIC_UPDATE_SLICE: handled = rule_dynamic_update_slice(c, op); break;
        case GRAPH_OP_DOT:
        case GRAPH_OP_DOT_GENERAL: handled = rule_dot(c, op); break;
        case GRAPH_OP_REDUCE: handled = rule_reduce(c, op); break;
        case GRAPH_OP_CONVOLUTION: handled = rule_convolution(c, op); break;
        case GRAPH_OP_BROADCAST_IN_DIM: handled = rule_broadcast(c, op); break;
        case GRAPH_OP_TRANSPOSE: handled = rule_transpose(c, op); break;
        case GRAPH_OP_RESHAPE: handled = rule_reshape(c, op); break;
        case GRAPH_OP_SLICE: handled = rule_slice(c, op); break;
        case GRAPH_OP_PAD: handled = rule_pad(c, op); break;
        case GRAPH_OP_CONCATENATE: handled = rule_concatenate(c, op); break;
        default:
            if (graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE) && !op->n_regions) handled = rule_elementwise(c, op);
            break;
        }
    }
    if (c->failed) return false;
    return handled || rule_fallback(c, op);
}

/* ------------------------------------------------------------------------ */
/* Dead ops                                                                  */

/* Rebuilt broadcasts and splats can leave the first (whole) copy unused:
 * drop side-effect-free ops without regions whose results nobody reads. */
static bool pure_op(const struct graph_op *op)
{
    if (op->n_regions || !op->n_results) return false;
    switch (op->kind) {
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_IOTA:
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_TRANSPOSE: return true;
    default: break;
    }
    return graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE);
}

static void count_uses(const struct graph_block *b, uint32_t *uses, uint32_t n, int depth)
{
    if (depth > 256) return;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int k = 0; k < op->n_operands; k++)
            if (op->operands[k]->id < n) uses[op->operands[k]->id]++;
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) count_uses(&op->regions[r].blocks[k], uses, n, depth + 1);
    }
}

/* An all_reduce the partitioner recorded (its entry in the report). */
static bool recorded_ar(const struct pctx *c, const struct graph_op *op, int *coll)
{
    for (int i = 0; i < c->n_ars; i++)
        if (c->ars[i].op == op) {
            *coll = c->ars[i].coll;
            return true;
        }
    return false;
}

/* Drops the dead ops of b (and of the loops in it), last first: pure ops,
 * and all_reduces a reduce_scatter replaced (marked in drop_coll). */
static void drop_dead_block(struct pctx *c, struct graph_block *b, uint32_t *uses, bool *drop_coll, int depth)
{
    if (depth > 256) return;
    for (int i = b->n_ops - 1; i >= 0; i--) {
        struct graph_op *op = b->ops[i];
        if (op->kind == GRAPH_OP_WHILE)
            for (int r = 0; r < op->n_regions; r++)
                for (int k = 0; k < op->regions[r].n_blocks; k++)
                    drop_dead_block(c, &op->regions[r].blocks[k], uses, drop_coll, depth + 1);
        int coll = -1;
        bool dead = pure_op(op) || recorded_ar(c, op, &coll);
        for (int k = 0; dead && k < op->n_results; k++) dead = uses[op->results[k].id] == 0;
        if (!dead) continue;
        for (int k = 0; k < op->n_operands; k++) uses[op->operands[k]->id]--;
        if (coll >= 0 && coll < c->rep->n_colls) drop_coll[coll] = true;
        graph_builder_erase(c->b, op);
    }
}

/* (Value ids are the builder's numbers until the module is finished.) */
static void drop_dead(struct pctx *c, struct graph_block *body)
{
    uint32_t n = graph_builder_n_values(c->b);
    uint32_t *uses = calloc((size_t)n + 1, sizeof *uses);
    bool *drop = calloc((size_t)c->rep->n_colls + 1, sizeof *drop);
    if (!uses || !drop) { /* dead ops are harmless */
        free(uses);
        free(drop);
        return;
    }
    count_uses(body, uses, n, 0);
    drop_dead_block(c, body, uses, drop, 0);
    int k = 0;
    for (int i = 0; i < c->rep->n_colls; i++)
        if (!drop[i]) c->rep->colls[k++] = c->rep->colls[i];
    c->rep->n_colls = k;
    free(uses);
    free(drop);
}

/* ------------------------------------------------------------------------ */
/* The module                                                                */

static const struct graph_attr *sharding_attr(struct pctx *c, const struct part_sharding *s)
{
    const struct graph_attr *dims[GRAPH_MAX_RANK];
    for (int d = 0; d < s->rank; d++) {
        const struct graph_attr *ax[PART_MAX_DIM_AXES];
        for (int k = 0; k < s->n_axes[d]; k++) ax[k] = graph_builder_attr_string(c->b, c->mesh.names[s->axes[d][k]]);
        dims[d] = graph_builder_attr_array(c->b, ax, s->n_axes[d]);
    }
    static const char *const names[2] = {"mesh", "dims"};
    const struct graph_attr *v[2] = {graph_builder_attr_symbol(c->b, "mesh"),
                                     graph_builder_attr_array(c->b, dims, s->rank < 0 ? 0 : s->rank)};
    return graph_builder_attr_dict(c->b, "sdy.sharding", names, v, 2);
}

static struct graph_op *mesh_op(struct pctx *c)
{
    const struct graph_attr *axes[PART_MAX_AXES];
    for (int a = 0; a < c->mesh.n_axes; a++) {
        static const char *const names[2] = {"name", "size"};
        const struct graph_attr *v[2] = {graph_builder_attr_string(c->b, c->mesh.names[a]),
                                         graph_builder_attr_int(c->b, c->mesh.sizes[a])};
        axes[a] = graph_builder_attr_dict(c->b, NULL, names, v, 2);
    }
    static const char *const mnames[1] = {"axes"};
    const struct graph_attr *mv[1] = {graph_builder_attr_array(c->b, axes, c->mesh.n_axes)};
    static const char *const names[2] = {"mesh", "sym_name"};
    const struct graph_attr *v[2] = {graph_builder_attr_dict(c->b, "sdy.mesh", mnames, mv, 1),
                                     graph_builder_attr_string(c->b, "mesh")};
    struct graph_op *op = new_op(c, GRAPH_OP_SDY_MESH, NULL, 0, NULL, 0, NULL);
    set_attrs(c, op, 2, names, v);
    return op;
}

static enum base_status check_sharding(const struct pctx *c, const struct graph_op *func, int i,
                                       const struct graph_type *t, const struct part_sharding *s)
{
    if (s->rank != t->rank)
        return graph_op_diag(c->diag, func, BASE_ERR_INVALID,
                             "argument %d of @%s: the sharding has %d dims, the argument has rank %d", i,
                             graph_func_name(func), s->rank, t->rank);
    bool used[PART_MAX_AXES] = {false};
    for (int d = 0; d < s->rank; d++) {
        int64_t p = 1;
        for (int k = 0; k < s->n_axes[d]; k++) {
            int a = s->axes[d][k];
            if (a < 0 || a >= c->mesh.n_axes)
                return graph_op_diag(c->diag, func, BASE_ERR_INVALID, "argument %d: dim %d names mesh axis %d, the mesh "
                                     "has %d", i, d, a, c->mesh.n_axes);
            if (used[a])
                return graph_op_diag(c->diag, func, BASE_ERR_INVALID, "argument %d: mesh axis '%s' splits two dims", i,
                                     c->mesh.names[a]);
            used[a] = true;
            p *= c->mesh.sizes[a];
        }
        if (t->dims[d] % p)
            return graph_op_diag(c->diag, func, BASE_ERR_INVALID,
                                 "argument %d: dim %d of size %lld does not divide into %lld shards (its mesh axes)", i,
                                 d, (long long)t->dims[d], (long long)p);
    }
    return BASE_OK;
}

void part_report_free(struct part_report *rep)
{
    if (!rep) return;
    free(rep->args);
    free(rep->results);
    free(rep->colls);
    free(rep->fallback_locs);
    free(rep->fallback_ops);
    memset(rep, 0, sizeof *rep);
}

static enum base_status choose_mesh(struct pctx *c, const struct graph_op *func, const struct part_mesh *mesh)
{
    if (mesh) {
        c->mesh = *mesh;
    } else {
        bool found = false;
        TRY(part_mesh_from_module(c->m, &c->mesh, &found, c->diag));
        if (!found) TRY(part_mesh_from_mhlo(func, &c->mesh, &found, c->diag));
        if (!found)
            return graph_op_diag(c->diag, func, BASE_ERR_INVALID,
                                 "no mesh: the module has no sdy.mesh and no mhlo.sharding tilings; give one "
                                 "(--mesh data=4,model=2)");
    }
    if (c->mesh.n_axes < 1 || c->mesh.n_axes > PART_MAX_AXES)
        return base_diag_set(c->diag, BASE_ERR_INVALID, NULL, 0, 0, "the mesh needs 1..%d axes", PART_MAX_AXES);
    c->n_dev = part_mesh_size(&c->mesh);
    if (c->n_dev < 1 || c->n_dev > (1 << 24))
        return base_diag_set(c->diag, BASE_ERR_INVALID, NULL, 0, 0, "the mesh has %lld devices", (long long)c->n_dev);
    return BASE_OK;
}

/* Builds the new module's ops; the entry's argument shardings are in rep->args. */
static enum base_status build(struct pctx *c, const struct graph_op *func)
{
    const struct graph_block *src = &func->regions[0].blocks[0];
    const struct graph_op *term = graph_block_terminator(src);
    if (!term) return graph_op_diag(c->diag, func, BASE_ERR_INVALID, "@%s has no return", graph_func_name(func));
    int n_in = src->n_args, n_out = term->n_operands;
    if (!graph_op_attr(func, "sym_name") || graph_func_n_results(func) != n_out)
        return graph_op_diag(c->diag, func, BASE_ERR_INVALID,
                             "the entry function lacks sym_name, or a function_type with its %d results", n_out);
    if (!made(c, mesh_op(c))) return c->diag->status;
    /* other functions (callees of replicated calls), copied whole */
    for (int i = 0; i < c->m->body.n_ops; i++) {
        const struct graph_op *op = c->m->body.ops[i];
        if (op == func || op->kind == GRAPH_OP_SDY_MESH) continue;
        if (!made(c, graph_builder_clone(c->b, op, NULL, NULL))) return c->diag->status;
    }
    /* func.func @entry(global args) { %r = sdy.manual_computation(args) {body}; return %r } */
    const struct graph_type **tys = calloc((size_t)(n_in + n_out) + 1, sizeof *tys);
    struct graph_value **vals = calloc((size_t)(n_in + n_out) + 1, sizeof *vals);
    const struct graph_attr **shs = calloc((size_t)(n_in + n_out) + 1, sizeof *shs);
    if (!tys || !vals || !shs) {
        free(tys);
        free(vals);
        free(shs);
        return base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory while partitioning");
    }
    for (int i = 0; i < n_in; i++) tys[i] = src->args[i].type;
    for (int i = 0; i < n_out; i++) tys[n_in + i] = graph_func_result_type(func, i);
    struct graph_op *f = graph_builder_func(c->b, graph_func_name(func), tys, NULL, n_in, tys + n_in, n_out, vals);
    if (f) {
        graph_builder_set_op_loc(c->b, f, &func->loc);
        const struct graph_attr *vis = graph_op_attr(func, "sym_visibility");
        if (vis) graph_builder_set_attr(c->b, f, "sym_visibility", vis);
    }
    for (int i = 0; i < n_out; i++) tys[i] = term->operands[i]->type;
    struct graph_op *mc = new_op(c, GRAPH_OP_SDY_MANUAL_COMPUTATION, vals, n_in, tys, n_out, &func->loc);
    for (int i = 0; i < n_in; i++) {
        tys[i] = local_type(c, src->args[i].type, &c->rep->args[i]);
        shs[i] = sharding_attr(c, &c->rep->args[i]);
    }
    struct graph_block *body = mc ? graph_builder_region(c->b, mc, tys, n_in, vals) : NULL;
    enum base_status st = made(c, mc) && body ? BASE_OK : c->diag->status;
    for (int i = 0; st == BASE_OK && i < n_in; i++) {
        c->vs[src->args[i].id].loc = vals[i];
        c->vs[src->args[i].id].s = c->rep->args[i];
        c->vs[src->args[i].id].rep = is_rep(&c->rep->args[i]) ? vals[i] : NULL;
        c->vs[src->args[i].id].have = true;
    }
    for (int i = 0; st == BASE_OK && i < src->n_ops; i++) {
        if (src->ops[i] == term) continue;
        if (!partition_op(c, src->ops[i])) st = c->diag->status != BASE_OK ? c->diag->status : BASE_ERR_NOMEM;
    }
    c->op = term;
    /* sdy.return of the local results; the out_shardings say how they join */
    if (st == BASE_OK) {
        c->rep->results = calloc((size_t)n_out + 1, sizeof *c->rep->results);
        if (!c->rep->results) st = base_diag_set(c->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        else c->rep->n_results = n_out;
    }
    for (int i = 0; st == BASE_OK && i < n_out; i++) {
        const struct vstate *vs = &c->vs[term->operands[i]->id];
        if (!vs->have) {
            st = graph_op_diag(c->diag, term, BASE_ERR_INVALID, "result %d is not defined in the entry's body", i);
            break;
        }
        vals[i] = vs->loc;
        shs[n_in + i] = sharding_attr(c, &vs->s);
        c->rep->results[i] = vs->s;
    }
    if (st == BASE_OK) {
        struct graph_op *sret = graph_builder_return(c->b, vals, n_out);
        if (sret) graph_builder_set_op_loc(c->b, sret, &term->loc);
        if (!made(c, sret)) st = c->diag->status;
    }
    if (st == BASE_OK) {
        drop_dead(c, body);
        const struct graph_attr *man[PART_MAX_AXES];
        for (int a = 0; a < c->mesh.n_axes; a++) man[a] = graph_builder_attr_string(c->b, c->mesh.names[a]);
        static const char *const names[3] = {"in_shardings", "manual_axes", "out_shardings"};
        const struct graph_attr *v[3] = {graph_builder_attr_array(c->b, shs, n_in),
                                         graph_builder_attr_array(c->b, man, c->mesh.n_axes),
                                         graph_builder_attr_array(c->b, shs + n_in, n_out)};
        set_attrs(c, mc, 3, names, v);
        for (int i = 0; i < n_out; i++) vals[i] = graph_builder_result(mc, i);
        struct graph_op *ret = graph_builder_return(c->b, vals, n_out);
        if (ret) graph_builder_set_op_loc(c->b, ret, &term->loc);
        if (!made(c, ret)) st = c->diag->status;
    }
    free(tys);
    free(vals);
    free(shs);
    return st;
}

/* The partitioned program's values are named _0, _1, ... in the order the
 * partitioner makes them (their builder numbers). */
static void name_values(struct pctx *c, struct graph_block *b, int depth)
{
    char name[24];
    for (int i = 0; depth < 256 && i < b->n_args; i++) {
        snprintf(name, sizeof name, "_%u", b->args[i].id);
        graph_builder_set_name(c->b, &b->args[i], name);
    }
    for (int i = 0; depth < 256 && i < b->n_ops; i++) {
        struct graph_op *op = b->ops[i];
        for (int k = 0; k < op->n_results; k++) {
            snprintf(name, sizeof name, "_%u", op->results[k].id);
            graph_builder_set_name(c->b, &op->results[k], name);
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) name_values(c, &op->regions[r].blocks[k], depth + 1);
    }
}

/* An op that only makes sense in a program that is already SPMD. */
static const struct graph_op *find_spmd_op(const struct graph_block *b, int depth)
{
    if (depth > 256) return NULL;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_has(op->kind, GRAPH_OPF_SPMD)) return op;
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) {
                const struct graph_op *f = find_spmd_op(&op->regions[r].blocks[k], depth + 1);
                if (f) return f;
            }
    }
    return NULL;
}

/* Every value's source pointer (those of regions too: loop bodies are
 * partitioned). */
static void set_sources(struct pctx *c, const struct graph_block *b, int depth)
{
    if (depth > 256) return;
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].id < c->m->n_values) c->vs[b->args[i].id].src = &b->args[i];
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int k = 0; k < op->n_results; k++)
            if (op->results[k].id < c->m->n_values) c->vs[op->results[k].id].src = &op->results[k];
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) set_sources(c, &op->regions[r].blocks[k], depth + 1);
    }
}

enum base_status part_partition(const struct graph_module *m, const char *entry, const struct part_mesh *mesh,
                                const struct part_sharding *args, int n_args, struct graph_module **out,
                                struct part_report *rep, struct base_diag *diag)
{
    *out = NULL;
    struct base_diag local_diag;
    if (!diag) {
        base_diag_clear(&local_diag);
        diag = &local_diag;
    }
    struct part_report local_rep;
    if (!rep) rep = &local_rep;
    memset(rep, 0, sizeof *rep);
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func)
        return base_diag_set(diag, BASE_ERR_INVALID, m->path, 0, 0, "no function @%s to partition",
                             entry ? entry : "main");
    if (func->n_regions < 1 || func->regions[0].n_blocks != 1)
        return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED, "@%s: only a function of one block is partitioned",
                             graph_func_name(func));
    const struct graph_op *spmd = find_spmd_op(&func->regions[0].blocks[0], 0);
    if (spmd)
        return graph_op_diag(diag, spmd, BASE_ERR_UNSUPPORTED,
                             "%s: the program is already written per partition (or uses partition ids); the "
                             "partitioner takes unsharded programs",
                             spmd->name);
    struct pctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.diag = diag;
    c.rep = rep;
    enum base_status st = choose_mesh(&c, func, mesh);
    if (st != BASE_OK) return st;
    rep->mesh = c.mesh;
    const struct graph_block *src = &func->regions[0].blocks[0];
    rep->n_args = src->n_args;
    rep->args = calloc((size_t)src->n_args + 1, sizeof *rep->args);
    if (!rep->args) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; st == BASE_OK && i < src->n_args; i++) {
        const struct graph_type *t = src->args[i].type;
        if (!static_tensor(t)) {
            st = graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED,
                               "argument %d of @%s is not a tensor of static shape: it cannot be partitioned", i,
                               graph_func_name(func));
            break;
        }
        bool found = false;
        if (args && i < n_args && args[i].rank >= 0) {
            rep->args[i] = args[i];
            found = true;
        } else {
            st = part_arg_sharding(func, i, t->rank, &c.mesh, &rep->args[i], &found, diag);
        }
        if (st == BASE_OK && !found) part_sharding_replicated(&rep->args[i], t->rank);
        if (st == BASE_OK) st = check_sharding(&c, func, i, t, &rep->args[i]);
    }
    if (st == BASE_OK) {
        c.vs = calloc((size_t)m->n_values + 1, sizeof *c.vs);
        if (!c.vs || graph_builder_create(m->path, &c.b) != BASE_OK)
            st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (st == BASE_OK) {
        /* every value's source pointer, for the rebuild rules */
        set_sources(&c, src, 0);
        graph_builder_set_module_name(c.b, m->name);
        st = build(&c, func);
        if (st == BASE_OK) name_values(&c, graph_builder_block(c.b), 0);
    }
    /* the module must verify: anything else is a partitioner bug */
    if (st == BASE_OK) {
        struct base_diag d2;
        base_diag_clear(&d2);
        enum base_status s2 = graph_builder_finish(c.b, out, &d2);
        if (s2 == BASE_OK) s2 = graph_verify(*out, &d2);
        if (s2 == BASE_ERR_NOMEM) {
            st = base_diag_set(diag, s2, NULL, 0, 0, "out of memory while partitioning");
        } else if (s2 != BASE_OK) {
            char buf[700];
            base_diag_format(&d2, buf, sizeof buf);
            st = base_diag_set(diag, BASE_ERR_INTERNAL, m->path, func->loc.line, func->loc.col,
                               "the partitioned module does not verify: %s", buf);
        }
    }
    if (st != BASE_OK) {
        graph_module_destroy(*out);
        *out = NULL;
    }
    graph_builder_destroy(c.b);
    free(c.vs);
    free(c.ars);
    if (rep == &local_rep || st != BASE_OK) part_report_free(rep);
    return st;
}
