/* The IR builder (graph.h, "Building"): a module written op by op, finished
 * into exactly what graph_parse gives for its printed text.
 *
 * Everything lives in the arena of the module under construction.  Ops are
 * appended to the block on top of a stack of open blocks (the module's body,
 * a function's body, a region of an op); an open block's op list is a heap
 * array, copied into the arena when the block closes.  Values get numbers in
 * the order they are made (their ids until finish); finish checks every use
 * against them, then numbers values and ops in program order as the parser
 * does.  Attributes are put in canonical form when they are set, with the
 * parser's own rules (canon_internal.h).  Types and attributes of other
 * modules are deep-copied in; literal tensors are held by the builder until
 * finish gives one reference to each attribute the module reaches. */
#include "graph/canon_internal.h"
#include "graph/graph.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLONE_MAX_DEPTH 256

/* ------------------------------------------------------------------------ */
/* Pointer maps and string sets (lookups only: nothing depends on hash order) */

struct pmap {
    const void **keys;
    void **vals;
    size_t cap; /* power of two, or 0 */
    size_t n;
};

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    return (size_t)x;
}

static void *pmap_get(const struct pmap *m, const void *k)
{
    if (!m->cap || !k) return NULL;
    for (size_t i = ptr_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) return NULL;
        if (m->keys[i] == k) return m->vals[i];
    }
}

static bool pmap_put(struct pmap *m, const void *k, void *v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        const void **keys = calloc(cap, sizeof *keys);
        void **vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            size_t j = ptr_hash(m->keys[i]) & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t i = ptr_hash(k) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) m->n++;
    m->keys[i] = k;
    m->vals[i] = v;
    return true;
}

static void pmap_free(struct pmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* Interned strings (file names, attribute names, tags): one arena copy each. */
struct sset {
    const char **s;
    size_t cap, n;
};

static size_t str_hash(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return (size_t)(h ^ (h >> 29));
}

/* ------------------------------------------------------------------------ */
/* The builder                                                               */

/* An open block. */
struct frame {
    struct graph_block *blk; /* blk->ops is a heap array of capacity cap while open */
    size_t cap;
    struct graph_op *owner;  /* NULL: the module's body */
    int region;              /* which region of owner */
};

struct graph_builder {
    struct graph_module *m;  /* under construction; NULL once finished */
    enum base_status status; /* the first error */
    struct base_diag diag;
    struct graph_value **vals; /* by number (the id until finish) */
    size_t n_vals, cap_vals;
    struct graph_op **ops;     /* by number */
    size_t n_ops, cap_ops;
    struct frame *frames;
    size_t depth, cap_frames;
    struct pmap own;           /* types and attributes of this builder -> themselves */
    struct pmap map;           /* graph_builder_map: source value -> value */
    struct sset strs;
    struct base_tensor **tensors; /* references the builder holds */
    size_t n_tensors, cap_tensors;
    struct graph_loc loc;      /* of new ops */
    int clone_depth;
};

static bool ok(const struct graph_builder *b)
{
    return b && b->m && b->status == BASE_OK;
}

BASE_PRINTF(4, 5)
static void *fail(struct graph_builder *b, const struct graph_loc *at, enum base_status st, const char *fmt, ...)
{
    if (b->status != BASE_OK) return NULL;
    b->status = st;
    if (!at) at = &b->loc;
    va_list ap;
    va_start(ap, fmt);
    base_diag_vset(&b->diag, st, at->file, at->line, at->col, fmt, ap);
    va_end(ap);
    return NULL;
}

static void *nomem(struct graph_builder *b)
{
    return fail(b, NULL, BASE_ERR_NOMEM, "out of memory while building the module");
}

static void *balloc(struct graph_builder *b, size_t n)
{
    void *p = base_arena_alloc(&b->m->arena, n ? n : 1);
    return p ? p : nomem(b);
}

static const char *intern(struct graph_builder *b, const char *s)
{
    if (!s) return NULL;
    struct sset *t = &b->strs;
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        const char **v = calloc(cap, sizeof *v);
        if (!v) return nomem(b);
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->s[i]) continue;
            size_t j = str_hash(t->s[i]) & (cap - 1);
            while (v[j]) j = (j + 1) & (cap - 1);
            v[j] = t->s[i];
        }
        free(t->s);
        t->s = v;
        t->cap = cap;
    }
    size_t i = str_hash(s) & (t->cap - 1);
    for (; t->s[i]; i = (i + 1) & (t->cap - 1))
        if (!strcmp(t->s[i], s)) return t->s[i];
    char *c = base_arena_strdup(&b->m->arena, s);
    if (!c) return nomem(b);
    t->s[i] = c;
    t->n++;
    return c;
}

/* A copy of n bytes with a NUL after them (strings may hold NULs). */
static const char *copy_bytes(struct graph_builder *b, const char *s, size_t n)
{
    char *c = balloc(b, n + 1);
    if (c && n) memcpy(c, s, n);
    return c;
}

static bool hold_tensor(struct graph_builder *b, struct base_tensor *t)
{
    if (!base_grow((void **)&b->tensors, &b->cap_tensors, b->n_tensors + 1, sizeof *b->tensors)) {
        base_tensor_release(t);
        nomem(b);
        return false;
    }
    b->tensors[b->n_tensors++] = t;
    return true;
}

static void release_tensors(struct graph_builder *b)
{
    for (size_t i = 0; i < b->n_tensors; i++) base_tensor_release(b->tensors[i]);
    b->n_tensors = 0;
}

static struct graph_block *cur_block(const struct graph_builder *b)
{
    return b->depth ? b->frames[b->depth - 1].blk : NULL;
}

static bool push_frame(struct graph_builder *b, struct graph_block *blk, struct graph_op *owner, int region)
{
    if (!base_grow((void **)&b->frames, &b->cap_frames, b->depth + 1, sizeof *b->frames)) {
        nomem(b);
        return false;
    }
    b->frames[b->depth++] = (struct frame){blk, 0, owner, region};
    return true;
}

/* Moves the top block's ops into the arena and pops it. */
static void pop_frame(struct graph_builder *b)
{
    struct frame *f = &b->frames[b->depth - 1];
    struct graph_block *blk = f->blk;
    struct graph_op **heap = blk->ops;
    blk->ops = NULL;
    if (blk->n_ops) {
        blk->ops = base_arena_alloc(&b->m->arena, (size_t)blk->n_ops * sizeof *blk->ops);
        if (blk->ops) memcpy(blk->ops, heap, (size_t)blk->n_ops * sizeof *blk->ops);
        else {
            blk->n_ops = 0;
            nomem(b);
        }
    }
    free(heap);
    if (f->owner && !blk->n_args && !blk->n_ops) { /* `{}` parses as a region without blocks */
        f->owner->regions[f->region].n_blocks = 0;
        f->owner->regions[f->region].blocks = NULL;
    }
    b->depth--;
}

static bool append_op(struct graph_builder *b, struct graph_op *op)
{
    struct frame *f = &b->frames[b->depth - 1];
    struct graph_block *blk = f->blk;
    void *ops = blk->ops;
    if (!base_grow(&ops, &f->cap, (size_t)blk->n_ops + 1, sizeof *blk->ops)) {
        nomem(b);
        return false;
    }
    blk->ops = ops;
    blk->ops[blk->n_ops++] = op;
    op->parent = blk;
    return true;
}

static bool new_value(struct graph_builder *b, struct graph_value *v)
{
    if (!base_grow((void **)&b->vals, &b->cap_vals, b->n_vals + 1, sizeof *b->vals)) {
        nomem(b);
        return false;
    }
    v->id = (uint32_t)b->n_vals;
    b->vals[b->n_vals++] = v;
    return true;
}

static bool own_value(const struct graph_builder *b, const struct graph_value *v)
{
    return v && v->id < b->n_vals && b->vals[v->id] == v;
}

static bool own_op(const struct graph_builder *b, const struct graph_op *op)
{
    return op && op->id < b->n_ops && b->ops[op->id] == op;
}

enum base_status graph_builder_create(const char *path, struct graph_builder **out)
{
    *out = NULL;
    struct graph_builder *b = calloc(1, sizeof *b);
    struct graph_module *m = calloc(1, sizeof *m);
    if (!b || !m) {
        free(b);
        free(m);
        return BASE_ERR_NOMEM;
    }
    base_arena_init(&m->arena, 64 * 1024);
    b->m = m;
    base_diag_clear(&b->diag);
    m->path = base_arena_strdup(&m->arena, path ? path : "<builder>");
    b->loc.file = m->path;
    if (!m->path || !push_frame(b, &m->body, NULL, 0)) {
        graph_builder_destroy(b);
        return BASE_ERR_NOMEM;
    }
    *out = b;
    return BASE_OK;
}

void graph_builder_destroy(struct graph_builder *b)
{
    if (!b) return;
    if (b->m) {
        for (size_t i = 0; i < b->depth; i++) free(b->frames[i].blk->ops);
        base_arena_deinit(&b->m->arena);
        free(b->m);
    }
    release_tensors(b);
    free(b->tensors);
    free(b->vals);
    free(b->ops);
    free(b->frames);
    free(b->strs.s);
    pmap_free(&b->own);
    pmap_free(&b->map);
    free(b);
}

enum base_status graph_builder_status(const struct graph_builder *b, struct base_diag *diag)
{
    if (!b) return BASE_ERR_INVALID;
    if (diag && b->status != BASE_OK) *diag = b->diag;
    return b->status;
}

/* ------------------------------------------------------------------------ */
/* Types and attributes                                                      */

static struct graph_type *new_type(struct graph_builder *b, enum graph_type_kind kind)
{
    struct graph_type *t = balloc(b, sizeof *t);
    if (!t) return NULL;
    if (!pmap_put(&b->own, t, t)) return nomem(b);
    t->kind = kind;
    return t;
}

static struct graph_attr *new_attr(struct graph_builder *b, enum graph_attr_kind kind)
{
    struct graph_attr *a = balloc(b, sizeof *a);
    if (!a) return NULL;
    if (!pmap_put(&b->own, a, a)) return nomem(b);
    a->kind = kind;
    return a;
}

static const struct graph_attr *own_attr(struct graph_builder *b, const struct graph_attr *a, int depth);

/* t itself when it is b's, else a deep copy in b. */
static const struct graph_type *own_type(struct graph_builder *b, const struct graph_type *t, int depth)
{
    if (!t || !ok(b)) return NULL;
    if (pmap_get(&b->own, t)) return t;
    if (depth > CLONE_MAX_DEPTH) return fail(b, NULL, BASE_ERR_LIMIT, "a type nested deeper than %d levels", depth);
    struct graph_type *c = new_type(b, t->kind);
    if (!c) return NULL;
    *c = *t;
    if (t->quant) {
        struct graph_quant *q = balloc(b, sizeof *q);
        double *sc = balloc(b, (size_t)(t->quant->n_scales > 0 ? t->quant->n_scales : 1) * sizeof *sc);
        int64_t *zp = balloc(b, (size_t)(t->quant->n_scales > 0 ? t->quant->n_scales : 1) * sizeof *zp);
        if (!q || !sc || !zp) return NULL;
        *q = *t->quant;
        for (int i = 0; i < q->n_scales; i++) {
            sc[i] = t->quant->scales[i];
            zp[i] = t->quant->zero_points[i];
        }
        q->scales = sc;
        q->zero_points = zp;
        c->quant = q;
    }
    if (t->encoding && !(c->encoding = own_attr(b, t->encoding, depth + 1))) return NULL;
    if ((t->kind == GRAPH_TYPE_TUPLE || t->kind == GRAPH_TYPE_FUTURE) && t->n_elems) {
        const struct graph_type **e = balloc(b, (size_t)t->n_elems * sizeof *e);
        if (!e) return NULL;
        for (int i = 0; i < t->n_elems; i++)
            if (!(e[i] = own_type(b, t->elems[i], depth + 1))) return NULL;
        c->elems = e;
    }
    return c;
}

/* a itself when it is b's, else a deep copy in b (literal tensors retained). */
static const struct graph_attr *own_attr(struct graph_builder *b, const struct graph_attr *a, int depth)
{
    if (!a || !ok(b)) return NULL;
    if (pmap_get(&b->own, a)) return a;
    if (depth > CLONE_MAX_DEPTH)
        return fail(b, NULL, BASE_ERR_LIMIT, "an attribute nested deeper than %d levels", depth);
    struct graph_attr *c = new_attr(b, a->kind);
    if (!c) return NULL;
    *c = *a;
    if (a->tag && !(c->tag = intern(b, a->tag))) return NULL;
    switch (a->kind) {
    case GRAPH_ATTR_STRING:
    case GRAPH_ATTR_SYMBOL:
    case GRAPH_ATTR_KEYWORD:
    case GRAPH_ATTR_OPAQUE:
        if (!(c->u.str.s = copy_bytes(b, a->u.str.s, a->u.str.len))) return NULL;
        break;
    case GRAPH_ATTR_ARRAY: {
        const struct graph_attr **it = balloc(b, (size_t)a->u.array.n * sizeof *it);
        if (!it) return NULL;
        for (int i = 0; i < a->u.array.n; i++)
            if (!(it[i] = own_attr(b, a->u.array.items[i], depth + 1))) return NULL;
        c->u.array.items = it;
        break;
    }
    case GRAPH_ATTR_DENSE_ARRAY: {
        size_t n = (size_t)(a->u.dense.n > 0 ? a->u.dense.n : 0);
        if (a->u.dense.i) {
            int64_t *v = balloc(b, n * sizeof *v);
            if (!v) return NULL;
            if (n) memcpy(v, a->u.dense.i, n * sizeof *v);
            c->u.dense.i = v;
        }
        if (a->u.dense.f) {
            double *v = balloc(b, n * sizeof *v);
            if (!v) return NULL;
            if (n) memcpy(v, a->u.dense.f, n * sizeof *v);
            c->u.dense.f = v;
        }
        break;
    }
    case GRAPH_ATTR_ELEMENTS:
        if (!(c->u.elements.type = own_type(b, a->u.elements.type, depth + 1))) return NULL;
        if (a->u.elements.resource && !(c->u.elements.resource = intern(b, a->u.elements.resource))) return NULL;
        if (a->u.elements.value && !hold_tensor(b, base_tensor_retain(a->u.elements.value))) return NULL;
        break;
    case GRAPH_ATTR_DICT: {
        struct graph_named_attr *it = balloc(b, (size_t)a->u.dict.n * sizeof *it);
        if (!it) return NULL;
        for (int i = 0; i < a->u.dict.n; i++) {
            it[i].name = intern(b, a->u.dict.items[i].name);
            it[i].value = own_attr(b, a->u.dict.items[i].value, depth + 1);
            if (!it[i].name || !it[i].value) return NULL;
        }
        c->u.dict.items = it;
        break;
    }
    case GRAPH_ATTR_TYPE:
        if (!(c->u.type = own_type(b, a->u.type, depth + 1))) return NULL;
        break;
    default:
        break;
    }
    return c;
}

const struct graph_type *graph_builder_tensor_type(struct graph_builder *b, enum base_dtype elem, int rank,
                                                   const int64_t *dims)
{
    if (!ok(b)) return NULL;
    if (rank < -1 || rank > GRAPH_MAX_RANK) return fail(b, NULL, BASE_ERR_INVALID, "tensor type of rank %d", rank);
    if (rank > 0 && !dims) return fail(b, NULL, BASE_ERR_INVALID, "tensor type of rank %d without dims", rank);
    for (int i = 0; i < rank; i++)
        if (dims[i] < 0 && dims[i] != GRAPH_DYN)
            return fail(b, NULL, BASE_ERR_INVALID, "tensor type with dim %d of size %lld", i, (long long)dims[i]);
    struct graph_type *t = new_type(b, GRAPH_TYPE_TENSOR);
    if (!t) return NULL;
    t->elem = elem;
    t->rank = rank;
    for (int i = 0; i < rank; i++) t->dims[i] = dims[i];
    return t;
}

const struct graph_type *graph_builder_scalar_type(struct graph_builder *b, enum base_dtype elem)
{
    return graph_builder_tensor_type(b, elem, 0, NULL);
}

const struct graph_type *graph_builder_type_with_dims(struct graph_builder *b, const struct graph_type *like,
                                                      int rank, const int64_t *dims)
{
    if (!ok(b) || !like) return NULL;
    if (like->kind != GRAPH_TYPE_TENSOR) return fail(b, NULL, BASE_ERR_INVALID, "dims of a type that is not a tensor");
    struct graph_type *t = (struct graph_type *)graph_builder_tensor_type(b, like->elem, rank, dims);
    if (t && like->quant) {
        const struct graph_type *q = own_type(b, like, 0); /* the quantization, in b */
        if (!q) return NULL;
        t->quant = q->quant;
    }
    return t;
}

const struct graph_type *graph_builder_token_type(struct graph_builder *b)
{
    return ok(b) ? new_type(b, GRAPH_TYPE_TOKEN) : NULL;
}

const struct graph_type *graph_builder_tuple_type(struct graph_builder *b, const struct graph_type *const *elems,
                                                  int n)
{
    if (!ok(b)) return NULL;
    if (n < 0 || (n && !elems)) return fail(b, NULL, BASE_ERR_INVALID, "tuple type of %d elements", n);
    const struct graph_type **e = balloc(b, (size_t)n * sizeof *e);
    struct graph_type *t = e ? new_type(b, GRAPH_TYPE_TUPLE) : NULL;
    if (!t) return NULL;
    for (int i = 0; i < n; i++)
        if (!(e[i] = own_type(b, elems[i], 0)))
            return ok(b) ? fail(b, NULL, BASE_ERR_INVALID, "element %d of a tuple type is NULL", i) : NULL;
    t->n_elems = n;
    t->elems = n ? e : NULL;
    return t;
}

const struct graph_attr *graph_builder_attr_unit(struct graph_builder *b)
{
    return ok(b) ? new_attr(b, GRAPH_ATTR_UNIT) : NULL;
}

const struct graph_attr *graph_builder_attr_bool(struct graph_builder *b, bool v)
{
    struct graph_attr *a = ok(b) ? new_attr(b, GRAPH_ATTR_BOOL) : NULL;
    if (a) a->u.b = v;
    return a;
}

const struct graph_attr *graph_builder_attr_int_typed(struct graph_builder *b, int64_t v, enum base_dtype elem)
{
    struct graph_attr *a = ok(b) ? new_attr(b, GRAPH_ATTR_INT) : NULL;
    if (!a) return NULL;
    a->elem = elem;
    a->u.i = v;
    return a;
}

const struct graph_attr *graph_builder_attr_int(struct graph_builder *b, int64_t v)
{
    return graph_builder_attr_int_typed(b, v, BASE_DT_SI64);
}

const struct graph_attr *graph_builder_attr_float(struct graph_builder *b, double v, enum base_dtype elem)
{
    if (!ok(b)) return NULL;
    if (!base_dtype_is_float(elem))
        return fail(b, NULL, BASE_ERR_INVALID, "a float attribute of type %s", base_dtype_name(elem));
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_FLOAT);
    if (!a) return NULL;
    a->elem = elem;
    a->u.f = graph_parse_round_float(elem, v);
    return a;
}

static const struct graph_attr *str_attr(struct graph_builder *b, enum graph_attr_kind kind, const char *tag,
                                         const char *s)
{
    if (!ok(b)) return NULL;
    if (!s) return fail(b, NULL, BASE_ERR_INVALID, "a string attribute from NULL");
    struct graph_attr *a = new_attr(b, kind);
    if (!a) return NULL;
    a->u.str.len = strlen(s);
    if (!(a->u.str.s = copy_bytes(b, s, a->u.str.len))) return NULL;
    if (tag && !(a->tag = intern(b, tag))) return NULL;
    return a;
}

const struct graph_attr *graph_builder_attr_string(struct graph_builder *b, const char *s)
{
    return str_attr(b, GRAPH_ATTR_STRING, NULL, s);
}

const struct graph_attr *graph_builder_attr_symbol(struct graph_builder *b, const char *name)
{
    return str_attr(b, GRAPH_ATTR_SYMBOL, NULL, name);
}

const struct graph_attr *graph_builder_attr_keyword(struct graph_builder *b, const char *tag, const char *word)
{
    return str_attr(b, GRAPH_ATTR_KEYWORD, tag, word);
}

const struct graph_attr *graph_builder_attr_comparison(struct graph_builder *b, const char *direction)
{
    return str_attr(b, GRAPH_ATTR_KEYWORD, "stablehlo.comparison_direction", direction);
}

const struct graph_attr *graph_builder_attr_type(struct graph_builder *b, const struct graph_type *t)
{
    if (!ok(b) || !t) return NULL;
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_TYPE);
    if (a && !(a->u.type = own_type(b, t, 0))) return NULL;
    return a;
}

const struct graph_attr *graph_builder_attr_array(struct graph_builder *b, const struct graph_attr *const *items,
                                                  int n)
{
    if (!ok(b)) return NULL;
    if (n < 0 || (n && !items)) return fail(b, NULL, BASE_ERR_INVALID, "an array attribute of %d items", n);
    const struct graph_attr **it = balloc(b, (size_t)n * sizeof *it);
    struct graph_attr *a = it ? new_attr(b, GRAPH_ATTR_ARRAY) : NULL;
    if (!a) return NULL;
    for (int i = 0; i < n; i++)
        if (!(it[i] = own_attr(b, items[i], 0)))
            return ok(b) ? fail(b, NULL, BASE_ERR_INVALID, "item %d of an array attribute is NULL", i) : NULL;
    a->u.array.n = n;
    a->u.array.items = it;
    return a;
}

const struct graph_attr *graph_builder_attr_dict(struct graph_builder *b, const char *tag, const char *const *names,
                                                 const struct graph_attr *const *values, int n)
{
    if (!ok(b)) return NULL;
    if (n < 0 || (n && (!names || !values)))
        return fail(b, NULL, BASE_ERR_INVALID, "a dictionary attribute of %d entries", n);
    struct graph_named_attr *it = balloc(b, (size_t)n * sizeof *it);
    struct graph_attr *a = it ? new_attr(b, GRAPH_ATTR_DICT) : NULL;
    if (!a) return NULL;
    if (tag && !(a->tag = intern(b, tag))) return NULL;
    for (int i = 0; i < n; i++) {
        if (!names[i]) return fail(b, NULL, BASE_ERR_INVALID, "key %d of a dictionary attribute is NULL", i);
        it[i].name = intern(b, names[i]);
        it[i].value = own_attr(b, values[i], 0);
        if (!it[i].value)
            return ok(b) ? fail(b, NULL, BASE_ERR_INVALID, "entry '%s' of a dictionary attribute is NULL", names[i])
                         : NULL;
        if (!it[i].name) return NULL;
    }
    if (!tag) {
        const char *twice = graph_named_attrs_sort(it, n);
        if (twice) return fail(b, NULL, BASE_ERR_INVALID, "key '%s' is given twice in a dictionary attribute", twice);
    } else {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (it[i].name == it[j].name) /* interned */
                    return fail(b, NULL, BASE_ERR_INVALID, "key '%s' is given twice in #%s<...>", it[i].name, tag);
        graph_dict_order_fields(a->tag, it, n);
    }
    a->u.dict.n = n;
    a->u.dict.items = it;
    return a;
}

const struct graph_attr *graph_builder_attr_dense_array(struct graph_builder *b, enum base_dtype elem,
                                                        const int64_t *v, int n)
{
    if (!ok(b)) return NULL;
    enum base_dtype_kind k = base_dtype_kind(elem);
    if (k != BASE_KIND_SINT && k != BASE_KIND_UINT && k != BASE_KIND_BOOL)
        return fail(b, NULL, BASE_ERR_INVALID, "array<%s: ...> is not an integer array", base_dtype_name(elem));
    if (n < 0 || (n && !v)) return fail(b, NULL, BASE_ERR_INVALID, "an array<...> of %d values", n);
    int64_t *d = balloc(b, (size_t)n * sizeof *d);
    struct graph_attr *a = d ? new_attr(b, GRAPH_ATTR_DENSE_ARRAY) : NULL;
    if (!a) return NULL;
    if (n) memcpy(d, v, (size_t)n * sizeof *d);
    a->elem = elem;
    a->u.dense.n = n;
    a->u.dense.i = d;
    return a;
}

const struct graph_attr *graph_builder_attr_dense_i64(struct graph_builder *b, const int64_t *v, int n)
{
    return graph_builder_attr_dense_array(b, BASE_DT_SI64, v, n);
}

/* An elements attribute of type over t (a reference b holds). */
static const struct graph_attr *elements_attr(struct graph_builder *b, const struct graph_type *type,
                                              struct base_tensor *t)
{
    if (!hold_tensor(b, t)) return NULL;
    struct graph_attr *a = new_attr(b, GRAPH_ATTR_ELEMENTS);
    if (!a) return NULL;
    a->u.elements.type = type;
    a->u.elements.value = t;
    return a;
}

static bool literal_type_ok(struct graph_builder *b, const struct graph_type *type)
{
    if (type->kind == GRAPH_TYPE_TENSOR && graph_type_is_static(type)) return true;
    char buf[160];
    graph_type_str(type, buf, sizeof buf);
    fail(b, NULL, BASE_ERR_INVALID, "a dense literal of type %s: it needs a static tensor type", buf);
    return false;
}

const struct graph_attr *graph_builder_attr_elements(struct graph_builder *b, const struct graph_type *type,
                                                     struct base_tensor *t)
{
    if (!ok(b)) return NULL;
    if (!t) return fail(b, NULL, BASE_ERR_INVALID, "a dense literal of a NULL tensor");
    type = type ? own_type(b, type, 0) : graph_builder_tensor_type(b, t->dtype, t->rank, t->dims);
    if (!type || !literal_type_ok(b, type)) return NULL;
    if (t->dtype != type->elem)
        return fail(b, NULL, BASE_ERR_INVALID, "a dense literal of %s elements for a type of %s elements",
                    base_dtype_name(t->dtype), base_dtype_name(type->elem));
    if (graph_type_count(type) != t->count)
        return fail(b, NULL, BASE_ERR_INVALID, "a dense literal of %lld elements for a type of %lld",
                    (long long)t->count, (long long)graph_type_count(type));
    return elements_attr(b, type, base_tensor_retain(t));
}

/* A tensor of type's shape and element type dt. */
static struct base_tensor *shaped(struct graph_builder *b, const struct graph_type *type, enum base_dtype dt)
{
    struct base_tensor *t = NULL;
    enum base_status st = base_tensor_create(dt, type->rank, type->dims, &t);
    if (st != BASE_OK) return fail(b, NULL, st, "cannot make a literal of %lld elements", (long long)graph_type_count(type));
    return t;
}

const struct graph_attr *graph_builder_attr_splat(struct graph_builder *b, const struct graph_type *type,
                                                  const struct base_tensor *t)
{
    if (!ok(b) || !type) return NULL;
    if (!t || t->count < 1) return fail(b, NULL, BASE_ERR_INVALID, "a splat of an empty (or NULL) tensor");
    if (!(type = own_type(b, type, 0)) || !literal_type_ok(b, type)) return NULL;
    if (t->dtype != type->elem)
        return fail(b, NULL, BASE_ERR_INVALID, "a splat of %s elements for a type of %s elements",
                    base_dtype_name(t->dtype), base_dtype_name(type->elem));
    struct base_tensor *s = shaped(b, type, t->dtype);
    if (!s) return NULL;
    size_t es = base_dtype_size(t->dtype);
    for (int64_t i = 0; i < s->count; i++) memcpy((char *)s->data + (size_t)i * es, t->data, es);
    return elements_attr(b, type, s);
}

const struct graph_attr *graph_builder_attr_splat_f64(struct graph_builder *b, const struct graph_type *type, double v)
{
    if (!ok(b) || !type) return NULL;
    if (!(type = own_type(b, type, 0)) || !literal_type_ok(b, type)) return NULL;
    struct base_tensor *s = shaped(b, type, type->elem);
    if (!s) return NULL;
    enum base_dtype_kind k = base_dtype_kind(type->elem);
    for (int64_t i = 0; i < s->count; i++) {
        if (k == BASE_KIND_FLOAT) base_elem_set_f64(type->elem, s->data, (size_t)i, v);
        else if (k == BASE_KIND_COMPLEX) base_elem_set_c128(type->elem, s->data, (size_t)i, v, 0.0);
        else base_elem_set_i64(type->elem, s->data, (size_t)i, (int64_t)v);
    }
    return elements_attr(b, type, s);
}

const struct graph_attr *graph_builder_attr_elements_i64(struct graph_builder *b, const int64_t *v, int rank,
                                                         const int64_t *dims)
{
    const struct graph_type *type = graph_builder_tensor_type(b, BASE_DT_SI64, rank, dims);
    if (!type || !literal_type_ok(b, type)) return NULL;
    if (graph_type_count(type) && !v) return fail(b, NULL, BASE_ERR_INVALID, "an i64 literal without values");
    struct base_tensor *t = shaped(b, type, BASE_DT_SI64);
    if (!t) return NULL;
    if (t->count) memcpy(t->data, v, (size_t)t->count * sizeof *v);
    return elements_attr(b, type, t);
}

const struct graph_attr *graph_builder_attr_dot_dims(struct graph_builder *b, const int64_t *lhs_batch,
                                                     const int64_t *rhs_batch, int n_batch,
                                                     const int64_t *lhs_contract, const int64_t *rhs_contract,
                                                     int n_contract)
{
    static const char *const names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                         "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
    const int64_t *lists[4] = {lhs_batch, rhs_batch, lhs_contract, rhs_contract};
    int counts[4] = {n_batch, n_batch, n_contract, n_contract};
    const char *kn[4];
    const struct graph_attr *kv[4];
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (counts[i] <= 0) continue; /* an empty list is written as none */
        kn[n] = names[i];
        kv[n++] = graph_builder_attr_dense_i64(b, lists[i], counts[i]);
    }
    return ok(b) ? graph_builder_attr_dict(b, GRAPH_TAG_DOT, kn, kv, n) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

static void set_attr(struct graph_builder *b, struct graph_op *op, const char *name, const struct graph_attr *value)
{
    name = intern(b, graph_op_attr_canonical_name(op->kind, name));
    value = own_attr(b, value, 0);
    if (!name || !value) return;
    enum base_dtype elem;
    if (value->kind == GRAPH_ATTR_ELEMENTS && graph_op_attr_dense_list(op->kind, name, &elem)) {
        const struct graph_attr *d = graph_elements_to_dense(&b->m->arena, value, elem);
        if (!d) {
            nomem(b);
            return;
        }
        if (d != value && !pmap_put(&b->own, d, (void *)d)) {
            nomem(b);
            return;
        }
        value = d;
    }
    for (int i = 0; i < op->n_attrs; i++)
        if (!strcmp(op->attrs[i].name, name)) {
            op->attrs[i].value = value;
            return;
        }
    struct graph_named_attr *a = balloc(b, (size_t)(op->n_attrs + 1) * sizeof *a);
    if (!a) return;
    int k = 0;
    while (k < op->n_attrs && strcmp(op->attrs[k].name, name) < 0) k++;
    if (k) memcpy(a, op->attrs, (size_t)k * sizeof *a);
    a[k].name = name;
    a[k].value = value;
    if (op->n_attrs > k) memcpy(a + k + 1, op->attrs + k, (size_t)(op->n_attrs - k) * sizeof *a);
    op->attrs = a;
    op->n_attrs++;
}

static struct graph_op *make_op(struct graph_builder *b, enum graph_op_kind kind, const char *name,
                                struct graph_value *const *operands, int n_operands,
                                const struct graph_type *const *result_types, int n_results)
{
    if (!ok(b)) return NULL;
    if (n_operands < 0 || n_results < 0 || (n_operands && !operands) || (n_results && !result_types))
        return fail(b, NULL, BASE_ERR_INVALID, "%s with %d operands and %d result types%s", name, n_operands,
                    n_results, (n_operands && !operands) || (n_results && !result_types) ? " (a NULL array)" : "");
    for (int i = 0; i < n_operands; i++) {
        if (!operands[i]) return fail(b, NULL, BASE_ERR_INVALID, "operand %d of %s is NULL", i, name);
        if (!own_value(b, operands[i]))
            return fail(b, NULL, BASE_ERR_INVALID, "operand %d of %s is not a value of this builder", i, name);
    }
    size_t sz_op = (sizeof(struct graph_op) + 15) & ~(size_t)15;
    size_t sz_res = (size_t)n_results * sizeof(struct graph_value);
    char *mem = balloc(b, sz_op + sz_res + (size_t)n_operands * sizeof(struct graph_value *));
    if (!mem) return NULL;
    struct graph_op *op = (struct graph_op *)mem;
    op->kind = kind;
    op->name = name;
    op->loc = b->loc;
    op->results = n_results ? (struct graph_value *)(mem + sz_op) : NULL;
    op->operands = n_operands ? (struct graph_value **)(mem + sz_op + sz_res) : NULL;
    op->n_operands = n_operands;
    for (int i = 0; i < n_operands; i++) op->operands[i] = operands[i];
    op->n_results = n_results;
    for (int i = 0; i < n_results; i++) {
        struct graph_value *v = &op->results[i];
        if (!result_types[i]) return fail(b, NULL, BASE_ERR_INVALID, "result type %d of %s is NULL", i, name);
        if (!(v->type = own_type(b, result_types[i], 0)) || !new_value(b, v)) return NULL;
        v->def = op;
        v->index = i;
    }
    if (!base_grow((void **)&b->ops, &b->cap_ops, b->n_ops + 1, sizeof *b->ops)) return nomem(b);
    op->id = (uint32_t)b->n_ops;
    b->ops[b->n_ops++] = op;
    return append_op(b, op) ? op : NULL;
}

struct graph_op *graph_builder_op(struct graph_builder *b, enum graph_op_kind kind, struct graph_value *const *operands,
                                  int n_operands, const struct graph_type *const *result_types, int n_results)
{
    if (!ok(b)) return NULL;
    if ((unsigned)kind >= GRAPH_OP_COUNT) return fail(b, NULL, BASE_ERR_INVALID, "op kind %d", (int)kind);
    return make_op(b, kind, graph_op_kind_name(kind), operands, n_operands, result_types, n_results);
}

struct graph_op *graph_builder_op_named(struct graph_builder *b, const char *name, struct graph_value *const *operands,
                                        int n_operands, const struct graph_type *const *result_types, int n_results)
{
    if (!ok(b)) return NULL;
    if (!name || !*name) return fail(b, NULL, BASE_ERR_INVALID, "an op without a name");
    enum graph_op_kind kind = graph_op_kind_from_name(name, strlen(name));
    const char *n = kind == GRAPH_OP_UNKNOWN ? intern(b, name) : graph_op_kind_name(kind);
    return n ? make_op(b, kind, n, operands, n_operands, result_types, n_results) : NULL;
}

struct graph_value *graph_builder_op1(struct graph_builder *b, enum graph_op_kind kind,
                                      struct graph_value *const *operands, int n_operands,
                                      const struct graph_type *result_type)
{
    if (!ok(b)) return NULL;
    if (!result_type) return fail(b, NULL, BASE_ERR_INVALID, "%s without a result type", graph_op_kind_name(kind));
    return graph_builder_result(graph_builder_op(b, kind, operands, n_operands, &result_type, 1), 0);
}

struct graph_value *graph_builder_result(const struct graph_op *op, int i)
{
    return op && i >= 0 && i < op->n_results ? &op->results[i] : NULL;
}

static bool check_op(struct graph_builder *b, const struct graph_op *op, const char *what)
{
    if (!ok(b)) return false;
    if (!op) fail(b, NULL, BASE_ERR_INVALID, "%s of a NULL op", what);
    else if (!own_op(b, op)) fail(b, NULL, BASE_ERR_INVALID, "%s of an op of another module", what);
    return ok(b);
}

void graph_builder_set_attr(struct graph_builder *b, struct graph_op *op, const char *name,
                            const struct graph_attr *value)
{
    if (!check_op(b, op, "an attribute")) return;
    if (!name || !value) {
        if (ok(b)) fail(b, &op->loc, BASE_ERR_INVALID, "%s: attribute %s is NULL", op->name, name ? name : "(no name)");
        return;
    }
    set_attr(b, op, name, value);
}

struct graph_value *graph_builder_constant(struct graph_builder *b, const struct graph_attr *value)
{
    if (!ok(b) || !value) return NULL;
    if (value->kind != GRAPH_ATTR_ELEMENTS)
        return fail(b, NULL, BASE_ERR_INVALID, "stablehlo.constant needs a dense literal");
    struct graph_op *op = graph_builder_op(b, GRAPH_OP_CONSTANT, NULL, 0, &value->u.elements.type, 1);
    if (op) set_attr(b, op, "value", value);
    return ok(b) ? graph_builder_result(op, 0) : NULL;
}

struct graph_op *graph_builder_call(struct graph_builder *b, const char *callee, struct graph_value *const *operands,
                                    int n_operands, const struct graph_type *const *result_types, int n_results)
{
    const struct graph_attr *c = graph_builder_attr_symbol(b, callee);
    struct graph_op *op = c ? graph_builder_op(b, GRAPH_OP_CALL, operands, n_operands, result_types, n_results) : NULL;
    if (op) set_attr(b, op, "callee", c);
    return ok(b) ? op : NULL;
}

void graph_builder_set_name(struct graph_builder *b, struct graph_value *v, const char *name)
{
    if (!ok(b) || !v) return;
    if (!own_value(b, v)) {
        fail(b, NULL, BASE_ERR_INVALID, "naming a value of another module");
        return;
    }
    v->name = name ? base_arena_strdup(&b->m->arena, name) : NULL;
    if (name && !v->name) nomem(b);
}

static bool make_loc(struct graph_builder *b, const struct graph_loc *in, struct graph_loc *out)
{
    struct graph_loc l = {b->m->path, 0, 0, NULL, NULL};
    if (in) {
        l.file = in->file ? intern(b, in->file) : b->m->path;
        l.line = in->line;
        l.col = in->col;
        l.name = in->name ? intern(b, in->name) : NULL;
        if (!l.file || (in->name && !l.name)) return false;
    }
    *out = l;
    return true;
}

void graph_builder_set_loc(struct graph_builder *b, const struct graph_loc *loc)
{
    if (ok(b)) make_loc(b, loc, &b->loc);
}

void graph_builder_set_op_loc(struct graph_builder *b, struct graph_op *op, const struct graph_loc *loc)
{
    if (check_op(b, op, "a location")) make_loc(b, loc, &op->loc);
}

void graph_builder_erase(struct graph_builder *b, struct graph_op *op)
{
    if (!check_op(b, op, "erasing")) return;
    for (size_t i = 0; i < b->depth; i++)
        if (b->frames[i].owner == op) {
            fail(b, &op->loc, BASE_ERR_INVALID, "%s is erased while its region is being built", op->name);
            return;
        }
    struct graph_block *blk = op->parent;
    if (!blk) return; /* erased before */
    for (int i = 0; i < blk->n_ops; i++)
        if (blk->ops[i] == op) {
            memmove(blk->ops + i, blk->ops + i + 1, (size_t)(blk->n_ops - i - 1) * sizeof *blk->ops);
            blk->n_ops--;
            break;
        }
    op->parent = NULL;
}

void graph_builder_set_module_name(struct graph_builder *b, const char *name)
{
    if (!ok(b)) return;
    b->m->name = name ? base_arena_strdup(&b->m->arena, name) : NULL;
    if (name && !b->m->name) nomem(b);
}

void graph_builder_set_module_attr(struct graph_builder *b, const char *name, const struct graph_attr *value)
{
    if (!ok(b) || !value) return;
    struct graph_module *m = b->m;
    const char *n = name ? intern(b, name) : NULL;
    if (!name) fail(b, NULL, BASE_ERR_INVALID, "a module attribute without a name");
    value = own_attr(b, value, 0);
    if (!n || !value) return;
    for (int i = 0; i < m->n_attrs; i++)
        if (!strcmp(m->attrs[i].name, n)) {
            m->attrs[i].value = value;
            return;
        }
    struct graph_named_attr *a = balloc(b, (size_t)(m->n_attrs + 1) * sizeof *a);
    if (!a) return;
    if (m->n_attrs) memcpy(a, m->attrs, (size_t)m->n_attrs * sizeof *a);
    a[m->n_attrs].name = n;
    a[m->n_attrs].value = value;
    m->attrs = a;
    m->n_attrs++;
    graph_named_attrs_sort(m->attrs, m->n_attrs);
}

/* ------------------------------------------------------------------------ */
/* Functions and regions                                                     */

/* Appends a region of one block (args of the given types) to op; the block is
 * not opened. */
static struct graph_block *add_region(struct graph_builder *b, struct graph_op *op,
                                      const struct graph_type *const *arg_types, int n_args)
{
    if (n_args < 0 || (n_args && !arg_types))
        return fail(b, &op->loc, BASE_ERR_INVALID, "a region of %s with %d arguments", op->name, n_args);
    struct graph_region *r = balloc(b, (size_t)(op->n_regions + 1) * sizeof *r);
    struct graph_block *blk = balloc(b, sizeof *blk);
    struct graph_value *args = balloc(b, (size_t)n_args * sizeof *args);
    if (!r || !blk || !args) return NULL;
    if (op->n_regions) memcpy(r, op->regions, (size_t)op->n_regions * sizeof *r);
    r[op->n_regions].n_blocks = 1;
    r[op->n_regions].blocks = blk;
    op->regions = r;
    op->n_regions++;
    blk->n_args = n_args;
    blk->args = n_args ? args : NULL;
    for (int i = 0; i < n_args; i++) {
        if (!arg_types[i])
            return fail(b, &op->loc, BASE_ERR_INVALID, "argument %d of a region of %s has a NULL type", i, op->name);
        if (!(args[i].type = own_type(b, arg_types[i], 0)) || !new_value(b, &args[i])) return NULL;
        args[i].block = blk;
        args[i].index = i;
    }
    return blk;
}

struct graph_block *graph_builder_region(struct graph_builder *b, struct graph_op *op,
                                         const struct graph_type *const *arg_types, int n_args,
                                         struct graph_value **args)
{
    if (!check_op(b, op, "a region")) return NULL;
    if (!op->parent) return fail(b, &op->loc, BASE_ERR_INVALID, "a region of %s, which was erased", op->name);
    struct graph_block *blk = add_region(b, op, arg_types, n_args);
    if (!blk || !push_frame(b, blk, op, op->n_regions - 1)) return NULL;
    for (int i = 0; args && i < n_args; i++) args[i] = &blk->args[i];
    return blk;
}

struct graph_op *graph_builder_func(struct graph_builder *b, const char *name, const struct graph_type *const *arg_types,
                                    const char *const *arg_names, int n_args,
                                    const struct graph_type *const *result_types, int n_results,
                                    struct graph_value **args)
{
    if (!ok(b)) return NULL;
    if (!name) return fail(b, NULL, BASE_ERR_INVALID, "a function without a name");
    if (b->depth != 1)
        return fail(b, NULL, BASE_ERR_INVALID, "func.func @%s inside another function or region (close it first)",
                    name);
    if (n_args < 0 || n_results < 0 || (n_args && !arg_types) || (n_results && !result_types))
        return fail(b, NULL, BASE_ERR_INVALID, "func.func @%s with %d arguments and %d results", name, n_args,
                    n_results);
    const struct graph_attr **items = balloc(b, (size_t)(n_args + n_results) * sizeof *items);
    if (!items) return NULL;
    for (int i = 0; i < n_args + n_results; i++) {
        const struct graph_type *t = i < n_args ? arg_types[i] : result_types[i - n_args];
        if (!t) return fail(b, NULL, BASE_ERR_INVALID, "func.func @%s: type of %s %d is NULL", name,
                            i < n_args ? "argument" : "result", i < n_args ? i : i - n_args);
        if (!(items[i] = graph_builder_attr_type(b, t))) return NULL;
    }
    static const char *const ft_names[2] = {"inputs", "results"};
    const struct graph_attr *ft_vals[2] = {graph_builder_attr_array(b, items, n_args),
                                           graph_builder_attr_array(b, items + n_args, n_results)};
    const struct graph_attr *ft = ft_vals[0] && ft_vals[1]
                                      ? graph_builder_attr_dict(b, GRAPH_TAG_FUNCTION_TYPE, ft_names, ft_vals, 2)
                                      : NULL;
    const struct graph_attr *sym = graph_builder_attr_string(b, name);
    struct graph_op *f = ft && sym ? graph_builder_op(b, GRAPH_OP_FUNC, NULL, 0, NULL, 0) : NULL;
    if (!f) return NULL;
    set_attr(b, f, "sym_name", sym);
    set_attr(b, f, "function_type", ft);
    struct graph_block *blk = graph_builder_region(b, f, arg_types, n_args, args);
    for (int i = 0; blk && arg_names && i < n_args; i++)
        if (arg_names[i]) graph_builder_set_name(b, &blk->args[i], arg_names[i]);
    return ok(b) ? f : NULL;
}

struct graph_op *graph_builder_return(struct graph_builder *b, struct graph_value *const *values, int n)
{
    if (!ok(b)) return NULL;
    if (b->depth < 2) return fail(b, NULL, BASE_ERR_INVALID, "a return outside any function or region");
    const struct graph_op *owner = b->frames[b->depth - 1].owner;
    enum graph_op_kind k = owner->kind == GRAPH_OP_FUNC                     ? GRAPH_OP_FUNC_RETURN
                           : owner->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION ? GRAPH_OP_SDY_RETURN
                                                                            : GRAPH_OP_RETURN;
    struct graph_op *ret = graph_builder_op(b, k, values, n, NULL, 0);
    if (ret) pop_frame(b);
    return ok(b) ? ret : NULL;
}

void graph_builder_end(struct graph_builder *b)
{
    if (!ok(b)) return;
    if (b->depth < 2) {
        fail(b, NULL, BASE_ERR_INVALID, "graph_builder_end outside any function or region");
        return;
    }
    pop_frame(b);
}

struct graph_block *graph_builder_block(const struct graph_builder *b)
{
    return b && b->m ? cur_block(b) : NULL;
}

uint32_t graph_builder_n_values(const struct graph_builder *b)
{
    return b ? (uint32_t)b->n_vals : 0;
}

/* ------------------------------------------------------------------------ */
/* Copies                                                                    */

void graph_builder_map(struct graph_builder *b, const struct graph_value *src, struct graph_value *v)
{
    if (!ok(b) || !src) return;
    if (v && !own_value(b, v)) {
        fail(b, NULL, BASE_ERR_INVALID, "mapping a value to a value of another module");
        return;
    }
    if (!pmap_put(&b->map, src, v)) nomem(b);
}

static struct graph_op *clone_op(struct graph_builder *b, const struct graph_op *src,
                                 struct graph_value *const *operands, const struct graph_type *const *result_types);

static void clone_regions(struct graph_builder *b, struct graph_op *op, const struct graph_op *src)
{
    if (++b->clone_depth > CLONE_MAX_DEPTH) {
        fail(b, &src->loc, BASE_ERR_LIMIT, "%s: regions nested deeper than %d levels", src->name, CLONE_MAX_DEPTH);
        b->clone_depth--;
        return;
    }
    for (int r = 0; ok(b) && r < src->n_regions; r++) {
        const struct graph_region *sr = &src->regions[r];
        if (sr->n_blocks > 1) {
            fail(b, &src->loc, BASE_ERR_UNSUPPORTED, "%s: a region of %d blocks", src->name, sr->n_blocks);
            break;
        }
        if (sr->n_blocks == 0) { /* an empty region */
            if (add_region(b, op, NULL, 0)) {
                op->regions[op->n_regions - 1].n_blocks = 0;
                op->regions[op->n_regions - 1].blocks = NULL;
            }
            continue;
        }
        const struct graph_block *sb = &sr->blocks[0];
        const struct graph_type **tys = balloc(b, (size_t)sb->n_args * sizeof *tys);
        if (!tys) break;
        for (int i = 0; i < sb->n_args; i++) tys[i] = sb->args[i].type;
        struct graph_block *blk = add_region(b, op, tys, sb->n_args);
        if (!blk || !push_frame(b, blk, op, op->n_regions - 1)) break;
        for (int i = 0; i < sb->n_args; i++) graph_builder_map(b, &sb->args[i], &blk->args[i]);
        for (int i = 0; ok(b) && i < sb->n_ops; i++) clone_op(b, sb->ops[i], NULL, NULL);
        if (ok(b)) pop_frame(b);
    }
    b->clone_depth--;
}

static struct graph_op *clone_op(struct graph_builder *b, const struct graph_op *src,
                                 struct graph_value *const *operands, const struct graph_type *const *result_types)
{
    struct graph_value *local[16], **in = local;
    if (!operands && src->n_operands > 16 && !(in = malloc((size_t)src->n_operands * sizeof *in))) return nomem(b);
    for (int i = 0; !operands && i < src->n_operands; i++) {
        in[i] = pmap_get(&b->map, src->operands[i]);
        if (!in[i]) {
            if (in != local) free(in);
            return fail(b, &src->loc, BASE_ERR_INVALID,
                        "%s: operand %d has no copy (a value defined outside what is copied; graph_builder_map)",
                        src->name, i);
        }
    }
    const struct graph_type *tlocal[16], **tys = (const struct graph_type **)result_types;
    if (!result_types) {
        tys = src->n_results > 16 ? malloc((size_t)src->n_results * sizeof *tys) : tlocal;
        if (!tys) {
            if (in != local) free(in);
            return nomem(b);
        }
        for (int i = 0; i < src->n_results; i++) tys[i] = src->results[i].type;
    }
    const char *name = src->kind == GRAPH_OP_UNKNOWN ? intern(b, src->name) : graph_op_kind_name(src->kind);
    struct graph_op *op =
        name ? make_op(b, src->kind, name, operands ? operands : in, src->n_operands, tys, src->n_results) : NULL;
    if (in != local) free(in);
    if (!result_types && tys != tlocal) free(tys);
    if (!op) return NULL;
    if (!make_loc(b, &src->loc, &op->loc)) return NULL;
    for (int i = 0; ok(b) && i < src->n_attrs; i++) set_attr(b, op, src->attrs[i].name, src->attrs[i].value);
    for (int i = 0; ok(b) && i < src->n_results; i++) graph_builder_map(b, &src->results[i], &op->results[i]);
    clone_regions(b, op, src);
    return ok(b) ? op : NULL;
}

struct graph_op *graph_builder_clone(struct graph_builder *b, const struct graph_op *src,
                                     struct graph_value *const *operands, const struct graph_type *const *result_types)
{
    if (!ok(b) || !src) return NULL;
    return clone_op(b, src, operands, result_types);
}

void graph_builder_clone_regions(struct graph_builder *b, struct graph_op *op, const struct graph_op *src)
{
    if (check_op(b, op, "copied regions") && src) clone_regions(b, op, src);
}

/* ------------------------------------------------------------------------ */
/* Finishing                                                                 */

/* Every operand must be defined before its use, in a block that encloses the
 * use and, across an isolated region (a function), not outside it.  open[v]
 * is 1 + the depth of the block that defined value v while that block is
 * being walked, else 0. */
static enum base_status check_block(struct graph_builder *b, const struct graph_block *blk, int depth, int floor,
                                    uint32_t *open)
{
    if (depth > CLONE_MAX_DEPTH)
        return base_diag_set(&b->diag, BASE_ERR_LIMIT, b->m->path, 0, 0, "regions nested deeper than %d levels",
                             CLONE_MAX_DEPTH);
    for (int i = 0; i < blk->n_args; i++) open[blk->args[i].id] = (uint32_t)depth + 1;
    enum base_status st = BASE_OK;
    for (int i = 0; st == BASE_OK && i < blk->n_ops; i++) {
        const struct graph_op *op = blk->ops[i];
        for (int k = 0; k < op->n_operands; k++) {
            const struct graph_value *v = op->operands[k];
            uint32_t d = own_value(b, v) ? open[v->id] : 0;
            if (d && (int)d - 1 >= floor) continue;
            const struct graph_loc *l = &op->loc;
            const char *why = !own_value(b, v)                ? "is not a value of this module"
                              : v->def && !v->def->parent     ? "is a result of an op that was erased"
                              : d                             ? "is defined outside the function that uses it"
                                                              : "is used before its definition, or outside the region "
                                                                "that defines it";
            return base_diag_set(&b->diag, BASE_ERR_INVALID, l->file, l->line, l->col, "%s: operand %d %s", op->name,
                                 k, why);
        }
        int inner = graph_op_kind_isolated(op->kind) ? depth + 1 : floor;
        for (int r = 0; st == BASE_OK && r < op->n_regions; r++)
            for (int bi = 0; st == BASE_OK && bi < op->regions[r].n_blocks; bi++)
                st = check_block(b, &op->regions[r].blocks[bi], depth + 1, inner, open);
        for (int k = 0; k < op->n_results; k++) open[op->results[k].id] = (uint32_t)depth + 1;
    }
    for (int i = 0; i < blk->n_args; i++) open[blk->args[i].id] = 0;
    for (int i = 0; i < blk->n_ops; i++)
        for (int k = 0; k < blk->ops[i]->n_results; k++) open[blk->ops[i]->results[k].id] = 0;
    return st;
}

/* Parent links and ids in the parser's order: a block's arguments when it
 * opens, an op's results and the op itself once its regions are done. */
static void number_block(struct graph_module *m, struct graph_block *blk, struct graph_region *parent)
{
    blk->parent = parent;
    blk->label = blk->n_args ? "bb0" : NULL; /* as the printed block reads back */
    for (int i = 0; i < blk->n_args; i++) {
        struct graph_value *v = &blk->args[i];
        v->block = blk;
        v->def = NULL;
        v->index = i;
        v->id = m->n_values++;
    }
    for (int i = 0; i < blk->n_ops; i++) {
        struct graph_op *op = blk->ops[i];
        op->parent = blk;
        for (int r = 0; r < op->n_regions; r++) {
            op->regions[r].parent = op;
            for (int bi = 0; bi < op->regions[r].n_blocks; bi++)
                number_block(m, &op->regions[r].blocks[bi], &op->regions[r]);
        }
        for (int k = 0; k < op->n_results; k++) {
            struct graph_value *v = &op->results[k];
            v->def = op;
            v->block = NULL;
            v->index = k;
            v->id = m->n_values++;
        }
        op->id = m->n_ops++;
    }
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return x < y ? -1 : x > y;
}

enum base_status graph_builder_finish(struct graph_builder *b, struct graph_module **out, struct base_diag *diag)
{
    *out = NULL;
    if (!b || !b->m) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no module to finish");
    if (b->status == BASE_OK && b->depth > 1) {
        const struct graph_op *o = b->frames[b->depth - 1].owner;
        const char *fn = o->kind == GRAPH_OP_FUNC ? graph_func_name(o) : NULL;
        fail(b, &o->loc, BASE_ERR_INVALID, "%s%s%s is not closed (graph_builder_return or graph_builder_end)",
             fn ? "func.func @" : "a region of ", fn ? fn : o->name, fn ? "" : "");
    }
    if (b->status == BASE_OK && b->depth == 1) pop_frame(b); /* the module's body */
    struct graph_module *m = b->m;
    if (b->status == BASE_OK) {
        uint32_t *open = calloc(b->n_vals + 1, sizeof *open);
        if (!open) nomem(b);
        else {
            enum base_status st = check_block(b, &m->body, 0, 0, open);
            if (st != BASE_OK) b->status = st;
            free(open);
        }
    }
    /* each literal the module reaches gets one reference of its own */
    const struct graph_attr **lits = NULL;
    size_t n_lits = 0;
    if (b->status == BASE_OK && !graph_module_elements(m, &lits, &n_lits)) nomem(b);
    if (b->status != BASE_OK) {
        free(lits);
        if (diag && diag->status == BASE_OK) *diag = b->diag;
        return b->status;
    }
    if (n_lits) qsort(lits, n_lits, sizeof *lits, cmp_ptr);
    for (size_t i = 0; i < n_lits; i++)
        if ((i == 0 || lits[i] != lits[i - 1]) && lits[i]->u.elements.value)
            base_tensor_retain(lits[i]->u.elements.value);
    free(lits);
    release_tensors(b);
    m->n_values = 0;
    m->n_ops = 0;
    number_block(m, &m->body, NULL);
    m->n_ops++; /* the module op: the printed module reads back as `module { ... }` */
    b->m = NULL;
    *out = m;
    return BASE_OK;
}
