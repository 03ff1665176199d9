/* IR helpers: type and attribute queries, structural equality, module
 * lookup and teardown, and the split-input-file chunker. */
#include "graph/canon_internal.h"
#include "graph/graph.h"
#include "graph/print_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static bool quant_equal(const struct graph_quant *a, const struct graph_quant *b)
{
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->storage != b->storage || a->expressed != b->expressed ||
        a->storage_min != b->storage_min || a->storage_max != b->storage_max ||
        a->quant_dim != b->quant_dim || a->n_scales != b->n_scales)
        return false;
    for (int i = 0; i < a->n_scales; i++) {
        if (memcmp(&a->scales[i], &b->scales[i], sizeof(double)) != 0) return false;
        if (a->zero_points[i] != b->zero_points[i]) return false;
    }
    return true;
}

bool graph_type_equal(const struct graph_type *a, const struct graph_type *b)
{
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind) return false;
    switch (a->kind) {
    case GRAPH_TYPE_TOKEN:
        return true;
    case GRAPH_TYPE_TUPLE:
    case GRAPH_TYPE_FUTURE:
        if (a->n_elems != b->n_elems) return false;
        for (int i = 0; i < a->n_elems; i++)
            if (!graph_type_equal(a->elems[i], b->elems[i])) return false;
        return true;
    case GRAPH_TYPE_TENSOR:
        if (a->elem != b->elem || a->rank != b->rank) return false;
        for (int i = 0; i < a->rank; i++)
            if (a->dims[i] != b->dims[i]) return false;
        if (!quant_equal(a->quant, b->quant)) return false;
        if (a->encoding || b->encoding) {
            if (!a->encoding || !b->encoding) return false;
            return graph_attr_equal(a->encoding, b->encoding);
        }
        return true;
    }
    return false;
}

bool graph_type_is_static(const struct graph_type *t)
{
    if (!t) return false;
    switch (t->kind) {
    case GRAPH_TYPE_TOKEN:
        return true;
    case GRAPH_TYPE_TUPLE:
    case GRAPH_TYPE_FUTURE:
        for (int i = 0; i < t->n_elems; i++)
            if (!graph_type_is_static(t->elems[i])) return false;
        return true;
    case GRAPH_TYPE_TENSOR:
        if (t->rank < 0) return false;
        for (int i = 0; i < t->rank; i++)
            if (t->dims[i] < 0) return false;
        return true;
    }
    return false;
}

int64_t graph_type_count(const struct graph_type *t)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(t)) return -1;
    return base_shape_count(t->rank, t->dims);
}

void graph_type_str(const struct graph_type *t, char *buf, size_t cap)
{
    if (!buf || cap == 0) return;
    struct sbuf s;
    graph_print_buf_init_fixed(&s, buf, cap);
    if (t) graph_print_type(&s, t);
    else graph_print_buf_puts(&s, "<null type>");
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

static bool str_eq(const char *a, const char *b)
{
    if (a == b) return true;
    if (!a || !b) return false;
    return strcmp(a, b) == 0;
}

static bool tensor_equal(const struct base_tensor *a, const struct base_tensor *b)
{
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->dtype != b->dtype || a->rank != b->rank || a->count != b->count) return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return false;
    return memcmp(a->data, b->data, base_tensor_nbytes(a)) == 0;
}

static bool named_attrs_equal(int n, const struct graph_named_attr *a, int nb,
                              const struct graph_named_attr *b)
{
    if (n != nb) return false;
    for (int i = 0; i < n; i++) {
        if (!str_eq(a[i].name, b[i].name)) return false;
        if (!graph_attr_equal(a[i].value, b[i].value)) return false;
    }
    return true;
}

bool graph_attr_equal(const struct graph_attr *a, const struct graph_attr *b)
{
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || !str_eq(a->tag, b->tag)) return false;
    switch (a->kind) {
    case GRAPH_ATTR_UNIT:
        return true;
    case GRAPH_ATTR_BOOL:
        return a->u.b == b->u.b;
    case GRAPH_ATTR_INT:
        return a->elem == b->elem && a->u.i == b->u.i;
    case GRAPH_ATTR_FLOAT:
        return a->elem == b->elem && memcmp(&a->u.f, &b->u.f, sizeof(double)) == 0;
    case GRAPH_ATTR_STRING:
    case GRAPH_ATTR_SYMBOL:
    case GRAPH_ATTR_KEYWORD:
    case GRAPH_ATTR_OPAQUE:
        return a->u.str.len == b->u.str.len &&
               (a->u.str.len == 0 || memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0);
    case GRAPH_ATTR_ARRAY:
        if (a->u.array.n != b->u.array.n) return false;
        for (int i = 0; i < a->u.array.n; i++)
            if (!graph_attr_equal(a->u.array.items[i], b->u.array.items[i])) return false;
        return true;
    case GRAPH_ATTR_DENSE_ARRAY:
        if (a->elem != b->elem || a->u.dense.n != b->u.dense.n) return false;
        if ((a->u.dense.i == NULL) != (b->u.dense.i == NULL)) return false;
        if (a->u.dense.n == 0) return true;
        if (a->u.dense.i)
            return memcmp(a->u.dense.i, b->u.dense.i, (size_t)a->u.dense.n * sizeof(int64_t)) == 0;
        if (!a->u.dense.f || !b->u.dense.f) return a->u.dense.f == b->u.dense.f;
        return memcmp(a->u.dense.f, b->u.dense.f, (size_t)a->u.dense.n * sizeof(double)) == 0;
    case GRAPH_ATTR_ELEMENTS:
        return graph_type_equal(a->u.elements.type, b->u.elements.type) &&
               str_eq(a->u.elements.resource, b->u.elements.resource) &&
               tensor_equal(a->u.elements.value, b->u.elements.value);
    case GRAPH_ATTR_DICT:
        return named_attrs_equal(a->u.dict.n, a->u.dict.items, b->u.dict.n, b->u.dict.items);
    case GRAPH_ATTR_TYPE:
        return graph_type_equal(a->u.type, b->u.type);
    }
    return false;
}

const struct graph_attr *graph_dict_get(const struct graph_attr *dict, const char *name)
{
    if (!dict || dict->kind != GRAPH_ATTR_DICT || !name) return NULL;
    for (int i = 0; i < dict->u.dict.n; i++)
        if (dict->u.dict.items[i].name && strcmp(dict->u.dict.items[i].name, name) == 0)
            return dict->u.dict.items[i].value;
    return NULL;
}

bool graph_attr_as_i64(const struct graph_attr *a, int64_t *out)
{
    if (!a || a->kind != GRAPH_ATTR_INT) return false;
    if (out) *out = a->u.i;
    return true;
}

int graph_attr_as_i64_list(const struct graph_attr *a, int64_t *out, int cap)
{
    if (!a) return -1;
    switch (a->kind) {
    case GRAPH_ATTR_DENSE_ARRAY: {
        if (!a->u.dense.i && a->u.dense.n > 0) return -1;
        int n = a->u.dense.n;
        for (int i = 0; i < n && i < cap; i++) out[i] = a->u.dense.i[i];
        return n;
    }
    case GRAPH_ATTR_ARRAY: {
        int n = a->u.array.n;
        for (int i = 0; i < n; i++)
            if (!a->u.array.items[i] || a->u.array.items[i]->kind != GRAPH_ATTR_INT) return -1;
        for (int i = 0; i < n && i < cap; i++) out[i] = a->u.array.items[i]->u.i;
        return n;
    }
    case GRAPH_ATTR_ELEMENTS: {
        const struct base_tensor *t = a->u.elements.value;
        if (!t || t->rank > 1) return -1;
        enum base_dtype_kind k = base_dtype_kind(t->dtype);
        if (k != BASE_KIND_SINT && k != BASE_KIND_UINT && k != BASE_KIND_BOOL) return -1;
        if (t->count > INT32_MAX) return -1;
        int n = (int)t->count;
        for (int i = 0; i < n && i < cap; i++) out[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
        return n;
    }
    default:
        return -1;
    }
}

bool graph_attr_bool_or(const struct graph_attr *a, bool dflt)
{
    if (!a) return dflt;
    if (a->kind == GRAPH_ATTR_BOOL) return a->u.b;
    if (a->kind == GRAPH_ATTR_UNIT) return true;
    if (a->kind == GRAPH_ATTR_INT) return a->u.i != 0;
    return dflt;
}

bool graph_attr_is_keyword(const struct graph_attr *a, const char *word)
{
    return a && a->kind == GRAPH_ATTR_KEYWORD && a->u.str.len == strlen(word) &&
           memcmp(a->u.str.s, word, a->u.str.len) == 0;
}

/* ------------------------------------------------------------------------ */
/* Ops, functions, modules                                                   */

enum base_status graph_op_diag(struct base_diag *diag, const struct graph_op *op, enum base_status st, const char *fmt,
                               ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const struct graph_loc *l = op ? &op->loc : NULL;
    return base_diag_set(diag, st, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0, "%s", msg);
}

const struct graph_attr *graph_op_attr(const struct graph_op *op, const char *name)
{
    if (!op || !name) return NULL;
    for (int i = 0; i < op->n_attrs; i++)
        if (op->attrs[i].name && strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].value;
    return NULL;
}

const char *graph_func_name(const struct graph_op *func)
{
    const struct graph_attr *a = graph_op_attr(func, "sym_name");
    if (!a || (a->kind != GRAPH_ATTR_STRING && a->kind != GRAPH_ATTR_SYMBOL)) return NULL;
    return a->u.str.s;
}

struct graph_op *graph_module_find_func(const struct graph_module *m, const char *name)
{
    if (!m || !name) return NULL;
    for (int i = 0; i < m->body.n_ops; i++) {
        struct graph_op *op = m->body.ops[i];
        if (op->kind != GRAPH_OP_FUNC) continue;
        const char *n = graph_func_name(op);
        if (n && strcmp(n, name) == 0) return op;
    }
    return NULL;
}

static bool func_is_public(const struct graph_op *f)
{
    const struct graph_attr *v = graph_op_attr(f, "sym_visibility");
    if (!v || v->kind != GRAPH_ATTR_STRING) return true;
    return strcmp(v->u.str.s, "public") == 0;
}

struct graph_op *graph_module_entry(const struct graph_module *m)
{
    if (!m) return NULL;
    struct graph_op *main_fn = graph_module_find_func(m, "main");
    if (main_fn) return main_fn;
    struct graph_op *only = NULL;
    for (int i = 0; i < m->body.n_ops; i++) {
        struct graph_op *op = m->body.ops[i];
        if (op->kind != GRAPH_OP_FUNC || !func_is_public(op)) continue;
        if (op->n_regions < 1 || op->regions[0].n_blocks == 0) continue; /* declaration */
        if (only) return NULL;
        only = op;
    }
    return only;
}

static const struct graph_attr *func_results_attr(const struct graph_op *func)
{
    const struct graph_attr *ft = graph_op_attr(func, "function_type");
    if (!ft) return NULL;
    const struct graph_attr *r = graph_dict_get(ft, "results");
    if (!r || r->kind != GRAPH_ATTR_ARRAY) return NULL;
    return r;
}

int graph_func_n_results(const struct graph_op *func)
{
    const struct graph_attr *r = func_results_attr(func);
    return r ? r->u.array.n : -1;
}

const struct graph_type *graph_func_result_type(const struct graph_op *func, int i)
{
    const struct graph_attr *r = func_results_attr(func);
    if (!r || i < 0 || i >= r->u.array.n) return NULL;
    const struct graph_attr *t = r->u.array.items[i];
    return t && t->kind == GRAPH_ATTR_TYPE ? t->u.type : NULL;
}

const struct graph_op *graph_block_terminator(const struct graph_block *b)
{
    if (!b || b->n_ops == 0) return NULL;
    const struct graph_op *op = b->ops[b->n_ops - 1];
    return graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR) ? op : NULL;
}

const char *graph_named_attrs_sort(struct graph_named_attr *a, int n)
{
    for (int i = 1; i < n; i++) { /* insertion sort: stable, and the lists are short */
        struct graph_named_attr x = a[i];
        int j = i - 1;
        while (j >= 0 && strcmp(a[j].name, x.name) > 0) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
    for (int i = 1; i < n; i++)
        if (strcmp(a[i - 1].name, a[i].name) == 0) return a[i].name;
    return NULL;
}

bool graph_op_kind_isolated(enum graph_op_kind k)
{
    return graph_op_kind_has(k, GRAPH_OPF_ISOLATED);
}

/* ------------------------------------------------------------------------ */
/* Reachable literals                                                        */

#define WALK_MAX_DEPTH 512

struct elem_list {
    const struct graph_attr **v;
    size_t n, cap;
    bool oom;
};

static void elems_attr(struct elem_list *l, const struct graph_attr *a, int depth);

static void elems_type(struct elem_list *l, const struct graph_type *t, int depth)
{
    if (!t || depth > WALK_MAX_DEPTH) return;
    if (t->kind == GRAPH_TYPE_TENSOR && t->encoding) elems_attr(l, t->encoding, depth + 1);
    if (t->kind == GRAPH_TYPE_TUPLE || t->kind == GRAPH_TYPE_FUTURE)
        for (int i = 0; i < t->n_elems; i++) elems_type(l, t->elems[i], depth + 1);
}

static void elems_attr(struct elem_list *l, const struct graph_attr *a, int depth)
{
    if (!a || depth > WALK_MAX_DEPTH) return;
    switch (a->kind) {
    case GRAPH_ATTR_ELEMENTS:
        if (!base_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
            l->oom = true;
            return;
        }
        l->v[l->n++] = a;
        elems_type(l, a->u.elements.type, depth + 1);
        break;
    case GRAPH_ATTR_ARRAY:
        for (int i = 0; i < a->u.array.n; i++) elems_attr(l, a->u.array.items[i], depth + 1);
        break;
    case GRAPH_ATTR_DICT:
        for (int i = 0; i < a->u.dict.n; i++) elems_attr(l, a->u.dict.items[i].value, depth + 1);
        break;
    case GRAPH_ATTR_TYPE:
        elems_type(l, a->u.type, depth + 1);
        break;
    default:
        break;
    }
}

static void elems_block(struct elem_list *l, const struct graph_block *b, int depth)
{
    if (depth > WALK_MAX_DEPTH) return;
    for (int i = 0; i < b->n_args; i++) elems_type(l, b->args[i].type, depth + 1);
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int k = 0; k < op->n_attrs; k++) elems_attr(l, op->attrs[k].value, depth + 1);
        for (int k = 0; k < op->n_results; k++) elems_type(l, op->results[k].type, depth + 1);
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) elems_block(l, &op->regions[r].blocks[k], depth + 1);
    }
}

bool graph_module_elements(const struct graph_module *m, const struct graph_attr ***out, size_t *n)
{
    struct elem_list l = {NULL, 0, 0, false};
    for (int i = 0; i < m->n_attrs; i++) elems_attr(&l, m->attrs[i].value, 0);
    elems_block(&l, &m->body, 0);
    if (l.oom) {
        free(l.v);
        *out = NULL;
        *n = 0;
        return false;
    }
    *out = l.v;
    *n = l.n;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Teardown: releases every literal tensor reachable from the module (an
 * attribute shared by several ops is released once: its pointer is cleared),
 * then the arena. */

static void release_attr(const struct graph_attr *ca, int depth);

static void release_type(const struct graph_type *t, int depth)
{
    if (!t || depth > WALK_MAX_DEPTH) return;
    if (t->kind == GRAPH_TYPE_TENSOR && t->encoding) release_attr(t->encoding, depth + 1);
    if (t->kind == GRAPH_TYPE_TUPLE || t->kind == GRAPH_TYPE_FUTURE)
        for (int i = 0; i < t->n_elems; i++) release_type(t->elems[i], depth + 1);
}

static void release_attr(const struct graph_attr *ca, int depth)
{
    if (!ca || depth > WALK_MAX_DEPTH) return;
    struct graph_attr *a = (struct graph_attr *)ca; /* the module owns its attributes */
    switch (a->kind) {
    case GRAPH_ATTR_ELEMENTS:
        if (a->u.elements.value) {
            base_tensor_release(a->u.elements.value);
            a->u.elements.value = NULL;
        }
        break;
    case GRAPH_ATTR_ARRAY:
        for (int i = 0; i < a->u.array.n; i++) release_attr(a->u.array.items[i], depth + 1);
        break;
    case GRAPH_ATTR_DICT:
        for (int i = 0; i < a->u.dict.n; i++) release_attr(a->u.dict.items[i].value, depth + 1);
        break;
    case GRAPH_ATTR_TYPE:
        release_type(a->u.type, depth + 1);
        break;
    default:
        break;
    }
}

static void release_block(const struct graph_block *b, int depth);

static void release_op(const struct graph_op *op, int depth)
{
    for (int i = 0; i < op->n_attrs; i++) release_attr(op->attrs[i].value, depth + 1);
    for (int i = 0; i < op->n_results; i++) release_type(op->results[i].type, depth + 1);
    for (int r = 0; r < op->n_regions; r++)
        for (int bi = 0; bi < op->regions[r].n_blocks; bi++)
            release_block(&op->regions[r].blocks[bi], depth + 1);
}

static void release_block(const struct graph_block *b, int depth)
{
    if (depth > WALK_MAX_DEPTH) return;
    for (int i = 0; i < b->n_args; i++) release_type(b->args[i].type, depth + 1);
    for (int i = 0; i < b->n_ops; i++) release_op(b->ops[i], depth);
}

void graph_module_destroy(struct graph_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->n_attrs; i++) release_attr(m->attrs[i].value, 0);
    release_block(&m->body, 0);
    base_arena_deinit(&m->arena);
    free(m);
}

/* ------------------------------------------------------------------------ */
/* Structural equality                                                       */

struct eq_ctx {
    uint32_t *map; /* a's value id -> b's value id, UINT32_MAX when unmapped */
    uint32_t n_a;
    uint32_t n_b;
};

static bool bind_value(struct eq_ctx *c, const struct graph_value *a, const struct graph_value *b)
{
    if (a->id >= c->n_a || b->id >= c->n_b) return false;
    if (!graph_type_equal(a->type, b->type)) return false;
    c->map[a->id] = b->id;
    return true;
}

static bool block_equal(struct eq_ctx *c, const struct graph_block *a, const struct graph_block *b,
                        int depth);

static bool op_equal(struct eq_ctx *c, const struct graph_op *a, const struct graph_op *b, int depth)
{
    if (a->kind != b->kind || !str_eq(a->name, b->name)) return false;
    if (a->n_operands != b->n_operands || a->n_results != b->n_results ||
        a->n_regions != b->n_regions)
        return false;
    if (!named_attrs_equal(a->n_attrs, a->attrs, b->n_attrs, b->attrs)) return false;
    for (int i = 0; i < a->n_operands; i++) {
        const struct graph_value *va = a->operands[i], *vb = b->operands[i];
        if (!va || !vb || va->id >= c->n_a || c->map[va->id] != vb->id) return false;
    }
    for (int r = 0; r < a->n_regions; r++) {
        if (a->regions[r].n_blocks != b->regions[r].n_blocks) return false;
        for (int bi = 0; bi < a->regions[r].n_blocks; bi++)
            if (!block_equal(c, &a->regions[r].blocks[bi], &b->regions[r].blocks[bi], depth + 1))
                return false;
    }
    for (int i = 0; i < a->n_results; i++)
        if (!bind_value(c, &a->results[i], &b->results[i])) return false;
    return true;
}

static bool block_equal(struct eq_ctx *c, const struct graph_block *a, const struct graph_block *b,
                        int depth)
{
    if (depth > WALK_MAX_DEPTH) return false;
    if (a->n_args != b->n_args || a->n_ops != b->n_ops) return false;
    for (int i = 0; i < a->n_args; i++)
        if (!bind_value(c, &a->args[i], &b->args[i])) return false;
    for (int i = 0; i < a->n_ops; i++)
        if (!op_equal(c, a->ops[i], b->ops[i], depth)) return false;
    return true;
}

bool graph_module_equal(const struct graph_module *a, const struct graph_module *b)
{
    if (a == b) return true;
    if (!a || !b) return false;
    if (!str_eq(a->name, b->name)) return false;
    if (!named_attrs_equal(a->n_attrs, a->attrs, b->n_attrs, b->attrs)) return false;
    struct eq_ctx c = {NULL, a->n_values, b->n_values};
    c.map = malloc(((size_t)a->n_values + 1) * sizeof *c.map);
    if (!c.map) return false;
    memset(c.map, 0xff, ((size_t)a->n_values + 1) * sizeof *c.map);
    bool eq = block_equal(&c, &a->body, &b->body, 0);
    free(c.map);
    return eq;
}

/* ------------------------------------------------------------------------ */
/* split-input-file                                                          */

static bool is_split_line(const char *p, const char *end)
{
    static const char marker[] = "// -----";
    size_t n = sizeof marker - 1;
    if ((size_t)(end - p) < n || memcmp(p, marker, n) != 0) return false;
    for (p += n; p < end && *p != '\n'; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r') return false;
    return true;
}

enum base_status graph_split_chunks(const char *text, size_t len, int *n_chunks, size_t **starts,
                                    size_t **lens, int **first_lines)
{
    *n_chunks = 0;
    *starts = NULL;
    *lens = NULL;
    if (first_lines) *first_lines = NULL;
    size_t cap = 8;
    size_t *st = malloc(cap * sizeof *st), *ln = malloc(cap * sizeof *ln);
    int *fl = malloc(cap * sizeof *fl);
    if (!st || !ln || !fl) goto nomem;
    const char *end = text + len;
    const char *p = text, *chunk = text;
    int line = 1, chunk_line = 1, n = 0;
    bool binary = graph_is_bytecode(text, len); /* bytecode: one chunk, whatever its bytes */
    for (;;) {
        const char *eol = p < end && !binary ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        const char *next = eol ? eol + 1 : end;
        bool split = !binary && p < end && is_split_line(p, end);
        if (split || p >= end) {
            if ((size_t)n == cap) {
                cap *= 2;
                size_t *s2 = realloc(st, cap * sizeof *st);
                if (s2) st = s2;
                size_t *l2 = realloc(ln, cap * sizeof *ln);
                if (l2) ln = l2;
                int *f2 = realloc(fl, cap * sizeof *fl);
                if (f2) fl = f2;
                if (!s2 || !l2 || !f2) goto nomem;
            }
            st[n] = (size_t)(chunk - text);
            ln[n] = (size_t)(p - chunk);
            fl[n] = chunk_line;
            n++;
            if (p >= end) break;
            chunk = next;
            chunk_line = line + 1;
        }
        if (!eol) {
            p = end;
            continue;
        }
        p = next;
        line++;
    }
    *n_chunks = n;
    *starts = st;
    *lens = ln;
    if (first_lines) *first_lines = fl;
    else free(fl);
    return BASE_OK;
nomem:
    free(st);
    free(ln);
    free(fl);
    return BASE_ERR_NOMEM;
}

static int count_unknown(const struct graph_block *b, struct graph_dialect_count *out, int cap, int *n)
{
    int total = 0;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op->kind == GRAPH_OP_UNKNOWN) {
            total++;
            const char *dot = strchr(op->name, '.');
            size_t len = dot ? (size_t)(dot - op->name) : strlen(op->name);
            if (len >= sizeof out->dialect) len = sizeof out->dialect - 1;
            int k = 0;
            while (k < *n && (strlen(out[k].dialect) != len || strncmp(out[k].dialect, op->name, len))) k++;
            if (k < *n) {
                out[k].n_ops++;
            } else if (*n < cap) {
                memcpy(out[k].dialect, op->name, len);
                out[k].dialect[len] = 0;
                out[k].n_ops = 1;
                out[k].first = op;
                (*n)++;
            }
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                total += count_unknown(&op->regions[r].blocks[k], out, cap, n);
    }
    return total;
}

int graph_module_unknown_dialects(const struct graph_module *m, struct graph_dialect_count *out, int cap,
                                  int *n_dialects)
{
    int n = 0;
    int total = m ? count_unknown(&m->body, out, cap, &n) : 0;
    for (int i = 1; i < n; i++) /* stable insertion sort, most ops first */
        for (int j = i; j > 0 && out[j].n_ops > out[j - 1].n_ops; j--) {
            struct graph_dialect_count t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    *n_dialects = n;
    return total;
}

static enum base_status fill_elided(const struct graph_block *b, graph_fill_fn fill, void *user, int *n,
                                    const struct graph_op **first)
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        const struct graph_attr *a = op->kind == GRAPH_OP_CONSTANT ? graph_op_attr(op, "value") : NULL;
        if (a && a->kind == GRAPH_ATTR_ELEMENTS && !a->u.elements.value) {
            if (!*first) *first = op;
            (*n)++;
            if (fill) {
                struct base_tensor *t = NULL;
                TRY(fill(user, op, a->u.elements.type, &t));
                /* the module owns its attributes (they live in its arena); it
                 * releases the tensor with them */
                ((struct graph_attr *)a)->u.elements.value = t;
            }
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                TRY(fill_elided(&op->regions[r].blocks[k], fill, user, n, first));
    }
    return BASE_OK;
}

enum base_status graph_module_fill_elided(struct graph_module *m, graph_fill_fn fill, void *user, int *n,
                                          const struct graph_op **first)
{
    const struct graph_op *f = NULL;
    *n = 0;
    enum base_status st = fill_elided(&m->body, fill, user, n, &f);
    if (first) *first = f;
    return st;
}

bool graph_dialect_known(const char *dialect, size_t len)
{
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        if (k == GRAPH_OP_UNKNOWN) continue;
        const char *n = graph_op_kind_name((enum graph_op_kind)k);
        if (!strncmp(n, dialect, len) && n[len] == '.') return true;
    }
    return false;
}

void graph_type_bounds(const struct graph_type *t, int64_t *bound)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR) return;
    for (int d = 0; d < t->rank; d++) bound[d] = -1;
    const struct graph_attr *e = t->encoding;
    if (!e || e->kind != GRAPH_ATTR_DICT || !e->tag || strcmp(e->tag, "stablehlo.bounds")) return;
    const struct graph_attr *b = graph_dict_get(e, "bounds");
    if (!b || b->kind != GRAPH_ATTR_DENSE_ARRAY) return;
    for (int d = 0; d < t->rank && d < b->u.dense.n; d++)
        if (b->u.dense.i[d] != GRAPH_DYN) bound[d] = b->u.dense.i[d];
}
