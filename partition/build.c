/* Building the partitioned module's IR (printed by graph_print_str, so the
 * text is exactly what graph_parse reads back): types, attributes, ops,
 * and deep copies of source regions under fresh value ids. */
#include "partition/part_build.h"

#include <stdlib.h>
#include <string.h>

void *part_pb_alloc(struct pb *b, size_t n)
{
    void *p = base_arena_alloc(&b->arena, n ? n : 1);
    if (!p) b->oom = true;
    return p;
}

const struct graph_type *part_pb_tensor_type(struct pb *b, const struct graph_type *like, int rank, const int64_t *dims)
{
    struct graph_type *t = part_pb_alloc(b, sizeof *t);
    if (!t) return like;
    *t = *like;
    t->kind = GRAPH_TYPE_TENSOR;
    t->rank = rank;
    t->encoding = NULL;
    for (int d = 0; d < rank; d++) t->dims[d] = dims[d];
    return t;
}

const struct graph_type *part_pb_scalar_type(struct pb *b, enum base_dtype elem)
{
    struct graph_type *t = part_pb_alloc(b, sizeof *t);
    if (!t) return NULL;
    t->kind = GRAPH_TYPE_TENSOR;
    t->elem = elem;
    t->rank = 0;
    return t;
}

static struct graph_attr *new_attr(struct pb *b, enum graph_attr_kind k)
{
    struct graph_attr *a = part_pb_alloc(b, sizeof *a);
    if (a) a->kind = k;
    return a;
}

const struct graph_attr *part_pb_int(struct pb *b, int64_t v)
{
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_INT);
    if (!a) return NULL;
    a->elem = BASE_DT_SI64;
    a->u.i = v;
    return a;
}

const struct graph_attr *part_pb_unit(struct pb *b)
{
    return new_attr(b, GRAPH_ATTR_UNIT);
}

const struct graph_attr *part_pb_string(struct pb *b, const char *s)
{
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_STRING);
    if (!a) return NULL;
    a->u.str.s = base_arena_strdup(&b->arena, s);
    a->u.str.len = strlen(s);
    if (!a->u.str.s) b->oom = true;
    return a;
}

const struct graph_attr *part_pb_symbol(struct pb *b, const char *s)
{
    struct graph_attr *a = (struct graph_attr *)part_pb_string(b, s);
    if (a) a->kind = GRAPH_ATTR_SYMBOL;
    return a;
}

const struct graph_attr *part_pb_array(struct pb *b, int n, const struct graph_attr *const *items)
{
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_ARRAY);
    const struct graph_attr **it = part_pb_alloc(b, (size_t)n * sizeof *it);
    if (!a || !it) return NULL;
    for (int i = 0; i < n; i++) it[i] = items[i];
    a->u.array.n = n;
    a->u.array.items = it;
    return a;
}

const struct graph_attr *part_pb_dict(struct pb *b, const char *tag, int n, const char *const *names,
                                 const struct graph_attr *const *values)
{
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_DICT);
    struct graph_named_attr *it = part_pb_alloc(b, (size_t)n * sizeof *it);
    if (!a || !it) return NULL;
    for (int i = 0; i < n; i++) {
        it[i].name = names[i];
        it[i].value = values[i];
    }
    a->tag = tag;
    a->u.dict.n = n;
    a->u.dict.items = it;
    return a;
}

const struct graph_attr *part_pb_dense_i64(struct pb *b, int n, const int64_t *v)
{
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_DENSE_ARRAY);
    int64_t *d = part_pb_alloc(b, (size_t)n * sizeof *d);
    if (!a || !d) return NULL;
    for (int i = 0; i < n; i++) d[i] = v[i];
    a->elem = BASE_DT_SI64;
    a->u.dense.n = n;
    a->u.dense.i = d;
    return a;
}

/* b takes t (released by part_pb_deinit); false (t released, b->oom) when out of memory. */
static bool own(struct pb *b, struct base_tensor *t)
{
    if (b->n_owned == b->cap_owned) {
        int cap = b->cap_owned ? 2 * b->cap_owned : 16;
        struct base_tensor **o = realloc(b->owned, (size_t)cap * sizeof *o);
        if (!o) {
            base_tensor_release(t);
            b->oom = true;
            return false;
        }
        b->owned = o;
        b->cap_owned = cap;
    }
    b->owned[b->n_owned++] = t;
    return true;
}

/* The tensor is owned by b (released by part_pb_deinit). */
const struct graph_attr *part_pb_i64_matrix(struct pb *b, int rows, int cols, const int64_t *v)
{
    int64_t dims[2] = {rows, cols};
    struct base_tensor *t = NULL;
    if (base_tensor_create(BASE_DT_SI64, 2, dims, &t) != BASE_OK) {
        b->oom = true;
        return NULL;
    }
    if (!own(b, t)) return NULL;
    memcpy(t->data, v, (size_t)rows * (size_t)cols * sizeof *v);
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_ELEMENTS);
    struct graph_type *ty = part_pb_alloc(b, sizeof *ty);
    if (!a || !ty) return NULL;
    ty->kind = GRAPH_TYPE_TENSOR;
    ty->elem = BASE_DT_SI64;
    ty->rank = 2;
    ty->dims[0] = rows;
    ty->dims[1] = cols;
    a->u.elements.type = ty;
    a->u.elements.value = t;
    return a;
}

/* A tensor constant of type ty, every element the bits of element 0 of src. */
const struct graph_attr *part_pb_splat(struct pb *b, const struct graph_type *ty, const struct base_tensor *src)
{
    struct base_tensor *t = NULL;
    if (base_tensor_create(src->dtype, ty->rank, ty->dims, &t) != BASE_OK) {
        b->oom = true;
        return NULL;
    }
    size_t es = base_dtype_size(src->dtype);
    for (int64_t i = 0; i < t->count; i++) memcpy((char *)t->data + (size_t)i * es, src->data, es);
    if (!own(b, t)) return NULL;
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_ELEMENTS);
    if (!a) return NULL;
    a->u.elements.type = ty;
    a->u.elements.value = t;
    return a;
}

void part_pb_init(struct pb *b, uint32_t n_src_values)
{
    memset(b, 0, sizeof *b);
    base_arena_init(&b->arena, 1 << 16);
    b->n_src = n_src_values;
    b->map = calloc(n_src_values ? n_src_values : 1, sizeof *b->map);
    if (!b->map) b->oom = true;
}

void part_pb_deinit(struct pb *b)
{
    for (int i = 0; i < b->n_owned; i++) base_tensor_release(b->owned[i]);
    free(b->owned);
    free(b->map);
    base_arena_deinit(&b->arena);
    memset(b, 0, sizeof *b);
}

static void init_value(struct pb *b, struct graph_value *v, const struct graph_type *t)
{
    v->type = t;
    v->id = b->next_value++;
    v->name = NULL;
}

struct graph_op *part_pb_op(struct pb *b, enum graph_op_kind kind, const char *name, int n_in,
                       struct graph_value *const *in, int n_out, const struct graph_type *const *out_types,
                       const struct graph_loc *loc)
{
    struct graph_op *op = part_pb_alloc(b, sizeof *op);
    if (!op) return NULL;
    op->kind = kind;
    op->name = name ? name : graph_op_kind_name(kind);
    op->n_operands = n_in;
    op->operands = part_pb_alloc(b, (size_t)n_in * sizeof *op->operands);
    op->n_results = n_out;
    op->results = part_pb_alloc(b, (size_t)n_out * sizeof *op->results);
    if (!op->operands || !op->results) return NULL;
    for (int i = 0; i < n_in; i++) op->operands[i] = in[i];
    for (int i = 0; i < n_out; i++) {
        init_value(b, &op->results[i], out_types ? out_types[i] : NULL);
        op->results[i].def = op;
        op->results[i].index = i;
    }
    if (loc) op->loc = *loc;
    op->id = b->next_op++;
    return op;
}

bool part_pb_set_attrs(struct pb *b, struct graph_op *op, int n, const char *const *names,
                  const struct graph_attr *const *values)
{
    struct graph_named_attr *a = part_pb_alloc(b, (size_t)n * sizeof *a);
    if (!a) return false;
    for (int i = 0; i < n; i++) {
        if (!values[i]) return false;
        a[i].name = names[i];
        a[i].value = values[i];
    }
    op->n_attrs = n;
    op->attrs = a;
    return true;
}

bool part_pb_block_init(struct pb *b, struct graph_block *blk, int n_args, const struct graph_type *const *types)
{
    memset(blk, 0, sizeof *blk);
    blk->n_args = n_args;
    blk->args = part_pb_alloc(b, (size_t)n_args * sizeof *blk->args);
    if (!blk->args) return false;
    for (int i = 0; i < n_args; i++) {
        init_value(b, &blk->args[i], types[i]);
        blk->args[i].block = blk;
        blk->args[i].index = i;
    }
    return true;
}

bool part_pb_vec_push(struct pb_vec *v, struct graph_op *op)
{
    if (!op) return false;
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 32;
        struct graph_op **o = realloc(v->ops, (size_t)cap * sizeof *o);
        if (!o) return false;
        v->ops = o;
        v->cap = cap;
    }
    v->ops[v->n++] = op;
    return true;
}

bool part_pb_vec_finish(struct pb *b, struct pb_vec *v, struct graph_block *blk)
{
    blk->ops = part_pb_alloc(b, (size_t)v->n * sizeof *blk->ops);
    if (!blk->ops) return false;
    for (int i = 0; i < v->n; i++) {
        blk->ops[i] = v->ops[i];
        v->ops[i]->parent = blk;
    }
    blk->n_ops = v->n;
    free(v->ops);
    memset(v, 0, sizeof *v);
    return true;
}

/* A region of one block (a, b) -> kind(a, b), for all_reduce bodies. */
bool part_pb_binary_region(struct pb *b, struct graph_op *parent, enum graph_op_kind kind, enum base_dtype elem)
{
    const struct graph_type *s = part_pb_scalar_type(b, elem);
    struct graph_region *r = part_pb_alloc(b, sizeof *r);
    if (!s || !r) return false;
    r->n_blocks = 1;
    r->blocks = part_pb_alloc(b, sizeof *r->blocks);
    if (!r->blocks) return false;
    r->parent = parent;
    struct graph_block *blk = &r->blocks[0];
    const struct graph_type *tys[2] = {s, s};
    if (!part_pb_block_init(b, blk, 2, tys)) return false;
    blk->parent = r;
    struct graph_value *ab[2] = {&blk->args[0], &blk->args[1]};
    struct graph_op *op = part_pb_op(b, kind, NULL, 2, ab, 1, &s, &parent->loc);
    if (!op) return false;
    struct graph_value *res = &op->results[0];
    struct graph_op *ret = part_pb_op(b, GRAPH_OP_RETURN, NULL, 1, &res, 0, NULL, &parent->loc);
    if (!ret) return false;
    blk->ops = part_pb_alloc(b, 2 * sizeof *blk->ops);
    if (!blk->ops) return false;
    blk->ops[0] = op;
    blk->ops[1] = ret;
    blk->n_ops = 2;
    op->parent = ret->parent = blk;
    parent->n_regions = 1;
    parent->regions = r;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Deep copies                                                               */

static bool copy_block(struct pb *b, const struct graph_block *src, struct graph_block *dst, int depth);

bool part_pb_copy_regions(struct pb *b, const struct graph_op *src, struct graph_op *dst, int depth)
{
    dst->n_regions = src->n_regions;
    dst->regions = part_pb_alloc(b, (size_t)src->n_regions * sizeof *dst->regions);
    if (!dst->regions) return false;
    for (int r = 0; r < src->n_regions; r++) {
        const struct graph_region *sr = &src->regions[r];
        struct graph_region *dr = &dst->regions[r];
        dr->parent = dst;
        dr->n_blocks = sr->n_blocks;
        dr->blocks = part_pb_alloc(b, (size_t)sr->n_blocks * sizeof *dr->blocks);
        if (!dr->blocks) return false;
        for (int k = 0; k < sr->n_blocks; k++) {
            if (!copy_block(b, &sr->blocks[k], &dr->blocks[k], depth + 1)) return false;
            dr->blocks[k].parent = dr;
        }
    }
    return true;
}

struct graph_op *part_pb_copy_op(struct pb *b, const struct graph_op *src, struct graph_value *const *operands,
                            const struct graph_type *const *result_types, bool regions)
{
    struct graph_op *op = part_pb_op(b, src->kind, src->name, src->n_operands, operands, src->n_results, NULL, &src->loc);
    if (!op) return NULL;
    for (int i = 0; i < src->n_results; i++) op->results[i].type = result_types ? result_types[i] : src->results[i].type;
    op->n_attrs = src->n_attrs;
    op->attrs = src->attrs; /* borrowed: the source module outlives the printing */
    if (regions && !part_pb_copy_regions(b, src, op, 0)) return NULL;
    return op;
}

static bool copy_block(struct pb *b, const struct graph_block *src, struct graph_block *dst, int depth)
{
    if (depth > 256) return false;
    memset(dst, 0, sizeof *dst);
    dst->n_args = src->n_args;
    dst->args = part_pb_alloc(b, (size_t)src->n_args * sizeof *dst->args);
    dst->ops = part_pb_alloc(b, (size_t)src->n_ops * sizeof *dst->ops);
    if (!dst->args || !dst->ops) return false;
    for (int i = 0; i < src->n_args; i++) {
        init_value(b, &dst->args[i], src->args[i].type);
        dst->args[i].block = dst;
        dst->args[i].index = i;
        if (src->args[i].id < b->n_src) b->map[src->args[i].id] = &dst->args[i];
    }
    for (int i = 0; i < src->n_ops; i++) {
        const struct graph_op *so = src->ops[i];
        struct graph_value *ins[64];
        struct graph_value **in = ins;
        if (so->n_operands > 64) {
            in = malloc((size_t)so->n_operands * sizeof *in);
            if (!in) return false;
        }
        bool ok = true;
        for (int k = 0; k < so->n_operands; k++) {
            uint32_t id = so->operands[k]->id;
            in[k] = id < b->n_src ? b->map[id] : NULL;
            if (!in[k]) ok = false;
        }
        struct graph_op *op = ok ? part_pb_op(b, so->kind, so->name, so->n_operands, in, so->n_results, NULL, &so->loc)
                                 : NULL;
        if (in != ins) free(in);
        if (!op) {
            if (!ok) b->bad_capture = true;
            return false;
        }
        for (int k = 0; k < so->n_results; k++) {
            op->results[k].type = so->results[k].type;
            if (so->results[k].id < b->n_src) b->map[so->results[k].id] = &op->results[k];
        }
        op->n_attrs = so->n_attrs;
        op->attrs = so->attrs;
        if (!part_pb_copy_regions(b, so, op, depth)) return false;
        op->parent = dst;
        dst->ops[i] = op;
    }
    dst->n_ops = src->n_ops;
    return true;
}
