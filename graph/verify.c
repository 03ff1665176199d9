/* The verifier: walks every op of a module and checks it against the StableHLO
 * spec's constraints (the per-family rules live in verify_*.c).  This file
 * holds the walk, the structural checks (region shapes, terminators, symbol
 * table) and the type/attribute helpers the rule files share. */
#include "graph/verify_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Failing                                                                   */

BASE_VPRINTF(4) static enum base_status vfail(struct verify_ctx *cx, const struct graph_op *op,
                                             enum base_status st, const char *fmt, va_list ap)
{
    char msg[BASE_DIAG_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    const char *text = msg;
    while (*text == ' ') text++; /* an empty constraint label leaves a blank */
    const char *name = op && op->name ? op->name : "<module>";
    return base_diag_set(cx->diag, st, op ? op->loc.file : cx->m->path, op ? op->loc.line : 0,
                         op ? op->loc.col : 0, "%s: %s", name, text);
}

enum base_status graph_verify_fail(struct verify_ctx *cx, const struct graph_op *op, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum base_status st = vfail(cx, op, BASE_ERR_VERIFY, fmt, ap);
    va_end(ap);
    return st;
}

enum base_status graph_verify_unsupported(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum base_status st = vfail(cx, op, BASE_ERR_UNSUPPORTED, fmt, ap);
    va_end(ap);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

/* The separator after a constraint label ("" when there is none). */
#define SEP(label) (*(label) ? " " : "")

unsigned graph_verify_class(const struct graph_type *t)
{
    if (!verify_is_tensor(t)) return 0;
    if (t->quant) return t->quant->quant_dim >= 0 ? VC_QUANT_AXIS : VC_QUANT;
    switch (base_dtype_kind(t->elem)) {
    case BASE_KIND_BOOL: return VC_BOOL;
    case BASE_KIND_SINT: return VC_SINT;
    case BASE_KIND_UINT: return VC_UINT;
    case BASE_KIND_FLOAT: return VC_FLOAT;
    case BASE_KIND_COMPLEX: return VC_COMPLEX;
    }
    return 0;
}

/* "floating-point, complex or per-tensor quantized" */
static void class_desc(unsigned mask, char *buf, size_t cap)
{
    const char *names[8];
    int n = 0;
    if (mask & VC_BOOL) names[n++] = "boolean";
    if ((mask & VC_INT) == VC_INT) names[n++] = "integer";
    else if (mask & VC_SINT) names[n++] = "signed integer";
    else if (mask & VC_UINT) names[n++] = "unsigned integer";
    if (mask & VC_FLOAT) names[n++] = "floating-point";
    if (mask & VC_COMPLEX) names[n++] = "complex";
    if ((mask & VC_QANY) == VC_QANY) names[n++] = "quantized";
    else if (mask & VC_QUANT) names[n++] = "per-tensor quantized";
    else if (mask & VC_QUANT_AXIS) names[n++] = "per-axis quantized";
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < cap; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(buf + used, cap - used, "%s%s", sep, names[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

const char *graph_verify_tstr(const struct graph_type *t, char *buf, size_t cap)
{
    graph_type_str(t, buf, cap);
    return buf;
}

const char *graph_verify_dstr(int rank, const int64_t *dims, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    if (rank < 0) {
        snprintf(buf, cap, "*");
        return buf;
    }
    if (rank == 0) {
        snprintf(buf, cap, "scalar");
        return buf;
    }
    for (int i = 0; i < rank && used < cap; i++) {
        int w = dims[i] == GRAPH_DYN
                    ? snprintf(buf + used, cap - used, "%s?", i ? "x" : "")
                    : snprintf(buf + used, cap - used, "%s%lld", i ? "x" : "", (long long)dims[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

const char *graph_verify_lstr(int n, const int64_t *v, char *buf, size_t cap)
{
    size_t used = 0;
    int w = snprintf(buf, cap, "[");
    used = w > 0 ? (size_t)w : 0;
    for (int i = 0; i < n && used < cap; i++) {
        w = snprintf(buf + used, cap - used, "%s%lld", i ? ", " : "", (long long)v[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
    return buf;
}

enum base_status graph_verify_need_tensor(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *what, const struct graph_type *t)
{
    if (verify_is_tensor(t)) return BASE_OK;
    char ts[160];
    return graph_verify_fail(cx, op, "%s must be a tensor, got %s", what, graph_verify_tstr(t, ts, sizeof ts));
}

enum base_status graph_verify_need_class(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *what, const struct graph_type *t, unsigned mask)
{
    VTRY(graph_verify_need_tensor(cx, op, what, t));
    if (graph_verify_class(t) & mask) return BASE_OK;
    char ts[160], cs[120];
    class_desc(mask, cs, sizeof cs);
    return graph_verify_fail(cx, op, "%s must be a tensor of %s type, got %s", what, cs,
                       graph_verify_tstr(t, ts, sizeof ts));
}

enum base_status graph_verify_need_rank(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *what, const struct graph_type *t, int rank)
{
    VTRY(graph_verify_need_tensor(cx, op, what, t));
    if (rank < 0 || t->rank < 0 || t->rank == rank) return BASE_OK;
    char ts[160];
    return graph_verify_fail(cx, op, "%s must have rank %d, got %s", what, rank,
                       graph_verify_tstr(t, ts, sizeof ts));
}

/* The bounds of a bounded-dynamic tensor type (#stablehlo.bounds), or NULL. */
static const int64_t *type_bounds(const struct graph_type *t)
{
    const struct graph_attr *e = t->encoding;
    if (!e || e->kind != GRAPH_ATTR_DICT || !e->tag || strcmp(e->tag, "stablehlo.bounds")) return NULL;
    const struct graph_attr *b = graph_dict_get(e, "bounds");
    return b && b->kind == GRAPH_ATTR_DENSE_ARRAY && b->u.dense.n == t->rank ? b->u.dense.i : NULL;
}

bool graph_verify_shape_compat(const struct graph_type *a, const struct graph_type *b)
{
    if (!verify_is_tensor(a) || !verify_is_tensor(b)) return false;
    if (a->rank < 0 || b->rank < 0) return true;
    if (a->rank != b->rank) return false;
    /* upstream verifyCompatibleShapeWithBounds: a size above the other's bound
     * does not fit it */
    const int64_t *ba = type_bounds(a), *bb = type_bounds(b);
    for (int i = 0; i < a->rank; i++) {
        if (!verify_dim_compat(a->dims[i], b->dims[i])) return false;
        if (bb && bb[i] != GRAPH_DYN && a->dims[i] != GRAPH_DYN && a->dims[i] > bb[i]) return false;
        if (ba && ba[i] != GRAPH_DYN && b->dims[i] != GRAPH_DYN && b->dims[i] > ba[i]) return false;
    }
    return true;
}

static bool quant_params_equal(const struct graph_quant *a, const struct graph_quant *b)
{
    if (a->n_scales != b->n_scales) return false;
    for (int i = 0; i < a->n_scales; i++) {
        if (memcmp(&a->scales[i], &b->scales[i], sizeof(double)) != 0) return false;
        if (a->zero_points[i] != b->zero_points[i]) return false;
    }
    return true;
}

bool graph_verify_elem_baseline_equal(const struct graph_type *a, const struct graph_type *b)
{
    if (a->elem != b->elem) return false;
    if (!a->quant || !b->quant) return !a->quant && !b->quant;
    const struct graph_quant *qa = a->quant, *qb = b->quant;
    return qa->storage == qb->storage && qa->expressed == qb->expressed &&
           qa->storage_min == qb->storage_min && qa->storage_max == qb->storage_max &&
           qa->quant_dim == qb->quant_dim;
}

bool graph_verify_elem_equal(const struct graph_type *a, const struct graph_type *b)
{
    if (!graph_verify_elem_baseline_equal(a, b)) return false;
    return !a->quant || quant_params_equal(a->quant, b->quant);
}

static bool type_compat(const struct graph_type *a, const struct graph_type *b, bool baseline,
                        int depth)
{
    if (!a || !b || a->kind != b->kind || depth > GRAPH_MAX_TUPLE_DEPTH) return false;
    switch (a->kind) {
    case GRAPH_TYPE_TOKEN:
        return true;
    case GRAPH_TYPE_TUPLE:
    case GRAPH_TYPE_FUTURE:
        if (a->n_elems != b->n_elems) return false;
        for (int i = 0; i < a->n_elems; i++)
            if (!type_compat(a->elems[i], b->elems[i], baseline, depth + 1)) return false;
        return true;
    case GRAPH_TYPE_TENSOR:
        if (!graph_verify_shape_compat(a, b)) return false;
        return baseline ? graph_verify_elem_baseline_equal(a, b) : graph_verify_elem_equal(a, b);
    }
    return false;
}

bool graph_verify_type_compat(const struct graph_type *a, const struct graph_type *b)
{
    return type_compat(a, b, false, 0);
}

bool graph_verify_type_baseline_compat(const struct graph_type *a, const struct graph_type *b)
{
    return type_compat(a, b, true, 0);
}

int graph_verify_elem_bits(const struct graph_type *t)
{
    if (t->quant) return base_dtype_bits(t->quant->storage);
    return base_dtype_bits(t->elem);
}

bool graph_verify_promotable_fp(const struct graph_type *x, const struct graph_type *y)
{
    if (graph_verify_class(x) == VC_FLOAT && graph_verify_class(y) == VC_FLOAT) return true;
    return graph_verify_promotable(x, y);
}

bool graph_verify_promotable(const struct graph_type *x, const struct graph_type *y)
{
    if (!verify_is_tensor(x) || !verify_is_tensor(y)) return false;
    if (x->quant || y->quant) {
        if (!x->quant || !y->quant) return false;
        return x->quant->expressed == y->quant->expressed &&
               base_dtype_bits(x->quant->storage) <= base_dtype_bits(y->quant->storage);
    }
    unsigned cx_ = graph_verify_class(x), cy = graph_verify_class(y);
    /* MLIR's i1 is an integer type: promotion treats it as a 1-bit integer */
    unsigned ints = VC_BOOL | VC_INT;
    bool same = (cx_ & ints && cy & ints) || cx_ == cy;
    if (!same) return false;
    return graph_verify_elem_bits(x) <= graph_verify_elem_bits(y);
}

enum base_status graph_verify_result_dims(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *label, const char *what,
                                    const struct graph_type *t, int rank, const int64_t *dims)
{
    VTRY(graph_verify_need_tensor(cx, op, what, t));
    bool ok = t->rank < 0 || rank < 0 || t->rank == rank;
    for (int i = 0; ok && t->rank >= 0 && i < rank; i++)
        ok = verify_dim_compat(t->dims[i], dims[i]);
    if (ok) return BASE_OK;
    char ts[160], ds[160];
    return graph_verify_fail(cx, op, "%s%s%s has type %s but its shape must be %s", label, SEP(label), what,
                       graph_verify_tstr(t, ts, sizeof ts), graph_verify_dstr(rank, dims, ds, sizeof ds));
}

enum base_status graph_verify_same_shape(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *label, const char *wa, const struct graph_type *a,
                                   const char *wb, const struct graph_type *b)
{
    VTRY(graph_verify_need_tensor(cx, op, wa, a));
    VTRY(graph_verify_need_tensor(cx, op, wb, b));
    if (graph_verify_shape_compat(a, b)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "%s%s%s and %s must have the same shape, got %s and %s", label, SEP(label), wa,
                       wb, graph_verify_tstr(a, ta, sizeof ta), graph_verify_tstr(b, tb, sizeof tb));
}

enum base_status graph_verify_same_elem(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *label, const char *wa, const struct graph_type *a,
                                  const char *wb, const struct graph_type *b)
{
    VTRY(graph_verify_need_tensor(cx, op, wa, a));
    VTRY(graph_verify_need_tensor(cx, op, wb, b));
    if (graph_verify_elem_equal(a, b)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "%s%s%s and %s must have the same element type, got %s and %s",
                       label, SEP(label), wa, wb, graph_verify_tstr(a, ta, sizeof ta), graph_verify_tstr(b, tb, sizeof tb));
}

enum base_status graph_verify_same_type(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *label, const char *wa, const struct graph_type *a,
                                  const char *wb, const struct graph_type *b)
{
    if (graph_verify_type_compat(a, b)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "%s%s%s and %s must have the same type, got %s and %s", label, SEP(label), wa,
                       wb, graph_verify_tstr(a, ta, sizeof ta), graph_verify_tstr(b, tb, sizeof tb));
}

enum base_status graph_verify_same_baseline(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *label, const char *wa,
                                      const struct graph_type *a, const char *wb,
                                      const struct graph_type *b)
{
    if (graph_verify_type_baseline_compat(a, b)) return BASE_OK;
    char ta[160], tb[160];
    return graph_verify_fail(cx, op, "%s%s%s and %s must have the same baseline type, got %s and %s",
                       label, SEP(label), wa, wb, graph_verify_tstr(a, ta, sizeof ta), graph_verify_tstr(b, tb, sizeof tb));
}

enum base_status graph_verify_counts(struct verify_ctx *cx, const struct graph_op *op, int min_in,
                               int max_in, int min_out, int max_out, int n_regions)
{
    if (op->n_operands < min_in || (max_in >= 0 && op->n_operands > max_in)) {
        if (min_in == max_in)
            return graph_verify_fail(cx, op, "expects %d operand%s, got %d", min_in,
                               min_in == 1 ? "" : "s", op->n_operands);
        if (max_in < 0)
            return graph_verify_fail(cx, op, "expects at least %d operand%s, got %d", min_in,
                               min_in == 1 ? "" : "s", op->n_operands);
        return graph_verify_fail(cx, op, "expects %d to %d operands, got %d", min_in, max_in,
                           op->n_operands);
    }
    if (op->n_results < min_out || (max_out >= 0 && op->n_results > max_out)) {
        if (min_out == max_out)
            return graph_verify_fail(cx, op, "expects %d result%s, got %d", min_out,
                               min_out == 1 ? "" : "s", op->n_results);
        if (max_out < 0)
            return graph_verify_fail(cx, op, "expects at least %d result%s, got %d", min_out,
                               min_out == 1 ? "" : "s", op->n_results);
        return graph_verify_fail(cx, op, "expects %d to %d results, got %d", min_out, max_out,
                           op->n_results);
    }
    if (n_regions >= 0 && op->n_regions != n_regions)
        return graph_verify_fail(cx, op, "expects %d region%s, got %d", n_regions,
                           n_regions == 1 ? "" : "s", op->n_regions);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

enum base_status graph_verify_attr_int(struct verify_ctx *cx, const struct graph_op *op,
                                 const struct graph_attr *a, const char *name, bool *present,
                                 int64_t *out)
{
    if (!a) {
        if (present) {
            *present = false;
            return BASE_OK;
        }
        return graph_verify_fail(cx, op, "requires attribute '%s'", name);
    }
    if (a->kind == GRAPH_ATTR_INT) *out = a->u.i;
    else if (a->kind == GRAPH_ATTR_BOOL) *out = a->u.b;
    else return graph_verify_fail(cx, op, "attribute '%s' must be an integer", name);
    if (present) *present = true;
    return BASE_OK;
}

enum base_status graph_verify_op_int(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                               bool *present, int64_t *out)
{
    return graph_verify_attr_int(cx, op, graph_op_attr(op, name), name, present, out);
}

enum base_status graph_verify_op_bool(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                                bool dflt, bool *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    *out = dflt;
    if (!a || a->kind == GRAPH_ATTR_UNIT) {
        if (a) *out = true;
        return BASE_OK;
    }
    if (a->kind == GRAPH_ATTR_BOOL) *out = a->u.b;
    else if (a->kind == GRAPH_ATTR_INT) *out = a->u.i != 0;
    else return graph_verify_fail(cx, op, "attribute '%s' must be a boolean", name);
    return BASE_OK;
}

static bool int_kind(enum base_dtype dt)
{
    enum base_dtype_kind k = base_dtype_kind(dt);
    return k == BASE_KIND_SINT || k == BASE_KIND_UINT || k == BASE_KIND_BOOL;
}

enum base_status graph_verify_attr_list(struct verify_ctx *cx, const struct graph_op *op,
                                  const struct graph_attr *a, const char *name, bool required,
                                  int64_t *out, int *n)
{
    *n = -1;
    if (!a) {
        if (required) return graph_verify_fail(cx, op, "requires attribute '%s'", name);
        return BASE_OK;
    }
    int count = 0;
    switch (a->kind) {
    case GRAPH_ATTR_DENSE_ARRAY:
        if (a->u.dense.n > 0 && !a->u.dense.i) goto bad;
        count = a->u.dense.n;
        if (count > VERIFY_MAX_LIST) goto too_long;
        for (int i = 0; i < count; i++) out[i] = a->u.dense.i[i];
        break;
    case GRAPH_ATTR_ARRAY:
        count = a->u.array.n;
        if (count > VERIFY_MAX_LIST) goto too_long;
        for (int i = 0; i < count; i++) {
            const struct graph_attr *it = a->u.array.items[i];
            if (!it || it->kind != GRAPH_ATTR_INT) goto bad;
            out[i] = it->u.i;
        }
        break;
    case GRAPH_ATTR_ELEMENTS: {
        const struct graph_type *t = a->u.elements.type;
        const struct base_tensor *v = a->u.elements.value;
        if (!t || t->kind != GRAPH_TYPE_TENSOR || t->rank != 1 || t->dims[0] < 0 || !v ||
            !int_kind(v->dtype))
            goto bad;
        if (t->dims[0] > VERIFY_MAX_LIST) goto too_long;
        count = (int)t->dims[0];
        for (int i = 0; i < count; i++)
            out[i] = v->count == 1 ? base_elem_get_i64(v->dtype, v->data, 0)
                                   : base_elem_get_i64(v->dtype, v->data, (size_t)i);
        if (v->count != 1 && v->count != count) goto bad;
        break;
    }
    default:
        goto bad;
    }
    *n = count;
    return BASE_OK;
bad:
    return graph_verify_fail(cx, op, "attribute '%s' must be a 1-dimensional list of integers", name);
too_long:
    return graph_verify_fail(cx, op, "attribute '%s' has more entries than any valid rank", name);
}

enum base_status graph_verify_op_list(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                                bool required, int64_t *out, int *n)
{
    return graph_verify_attr_list(cx, op, graph_op_attr(op, name), name, required, out, n);
}

static int64_t *scratch(struct verify_ctx *cx, size_t n)
{
    if (n <= cx->scratch_cap) return cx->scratch;
    size_t cap = cx->scratch_cap ? cx->scratch_cap : 256;
    while (cap < n) cap *= 2;
    int64_t *p = realloc(cx->scratch, cap * sizeof *p);
    if (!p) return NULL;
    cx->scratch = p;
    cx->scratch_cap = cap;
    return p;
}

enum base_status graph_verify_op_matrix(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *name, const int64_t **vals, int64_t *rows,
                                  int64_t *cols)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    *vals = NULL;
    *rows = -1;
    *cols = -1;
    if (!a) return BASE_OK;
    const struct graph_type *t = a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.type : NULL;
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->rank != 2 || t->dims[0] < 0 || t->dims[1] < 0)
        return graph_verify_fail(cx, op, "attribute '%s' must be a 2-dimensional integer tensor", name);
    *rows = t->dims[0];
    *cols = t->dims[1];
    const struct base_tensor *v = a->u.elements.value;
    if (!v || !v->data) return BASE_OK; /* a resource without data: shape only */
    if (!int_kind(v->dtype))
        return graph_verify_fail(cx, op, "attribute '%s' must be a 2-dimensional integer tensor", name);
    int64_t count = t->dims[0] * t->dims[1];
    if (v->count != 1 && v->count != count)
        return graph_verify_fail(cx, op, "attribute '%s' holds %lld values for shape %lldx%lld", name,
                           (long long)v->count, (long long)t->dims[0], (long long)t->dims[1]);
    int64_t *buf = scratch(cx, (size_t)(count > 0 ? count : 1));
    if (!buf) return base_diag_set(cx->diag, BASE_ERR_NOMEM, op->loc.file, op->loc.line,
                                   op->loc.col, "%s: out of memory", op->name);
    for (int64_t i = 0; i < count; i++)
        buf[i] = base_elem_get_i64(v->dtype, v->data, v->count == 1 ? 0 : (size_t)i);
    *vals = buf;
    return BASE_OK;
}

int graph_verify_const_ints(const struct graph_op *op, int i, int64_t *out, int cap)
{
    if (i < 0 || i >= op->n_operands) return -1;
    const struct graph_op *def = op->operands[i]->def;
    if (!def || (def->kind != GRAPH_OP_CONSTANT && def->kind != GRAPH_OP_ARITH_CONSTANT &&
                 def->kind != GRAPH_OP_CHLO_CONSTANT))
        return -1;
    const struct graph_attr *a = graph_op_attr(def, "value");
    if (!a || a->kind != GRAPH_ATTR_ELEMENTS || !a->u.elements.value || !a->u.elements.value->data) return -1;
    const struct graph_type *t = a->u.elements.type;
    const struct base_tensor *v = a->u.elements.value;
    int64_t n = graph_type_count(t);
    if (!t || t->quant || !int_kind(v->dtype) || n < 0 || n > cap || (v->count != 1 && v->count != n)) return -1;
    for (int64_t k = 0; k < n; k++) out[k] = base_elem_get_i64(v->dtype, v->data, v->count == 1 ? 0 : (size_t)k);
    return (int)n;
}

enum base_status graph_verify_dict_list(struct verify_ctx *cx, const struct graph_op *op,
                                  const struct graph_attr *dn, const char *name, struct verify_dlist *l)
{
    VTRY(graph_verify_attr_list(cx, op, graph_dict_get(dn, name), name, false, l->v, &l->n));
    if (l->n < 0) l->n = 0;
    return BASE_OK;
}

const char *graph_verify_attr_word(const struct graph_attr *a, size_t *len)
{
    if (!a) return NULL;
    if (a->kind != GRAPH_ATTR_KEYWORD && a->kind != GRAPH_ATTR_STRING &&
        a->kind != GRAPH_ATTR_SYMBOL)
        return NULL;
    if (len) *len = a->u.str.len;
    return a->u.str.s;
}

bool graph_verify_word_is(const struct graph_attr *a, const char *word)
{
    size_t len;
    const char *s = graph_verify_attr_word(a, &len);
    return s && len == strlen(word) && memcmp(s, word, len) == 0;
}

enum base_status graph_verify_op_enum(struct verify_ctx *cx, const struct graph_op *op, const char *label,
                                const char *name, const char *const *words, bool required)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) {
        if (required) return graph_verify_fail(cx, op, "requires attribute '%s'", name);
        return BASE_OK;
    }
    for (int i = 0; words[i]; i++)
        if (graph_verify_word_is(a, words[i])) return BASE_OK;
    char list[200];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; words[i] && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", words[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
    return graph_verify_fail(cx, op, "%s%s%s must be one of %s", label, *label ? " " : "", name, list);
}

bool graph_verify_list_unique(int n, const int64_t *v)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (v[i] == v[j]) return false;
    return true;
}

bool graph_verify_list_sorted(int n, const int64_t *v)
{
    for (int i = 1; i < n; i++)
        if (v[i - 1] > v[i]) return false;
    return true;
}

bool graph_verify_list_has(int n, const int64_t *v, int64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

enum base_status graph_verify_list_in_range(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *label, const char *what, int n,
                                      const int64_t *v, int64_t bound)
{
    for (int i = 0; i < n; i++)
        if (v[i] < 0 || v[i] >= bound)
            return graph_verify_fail(cx, op, "%s%s%s[%d] = %lld must be in [0, %lld)", label, SEP(label), what, i,
                               (long long)v[i], (long long)bound);
    return BASE_OK;
}

enum base_status graph_verify_list_is_unique(struct verify_ctx *cx, const struct graph_op *op,
                                       const char *label, const char *what, int n,
                                       const int64_t *v)
{
    if (graph_verify_list_unique(n, v)) return BASE_OK;
    char ls[200];
    return graph_verify_fail(cx, op, "%s%s%s must be unique, got %s", label, SEP(label), what,
                       graph_verify_lstr(n, v, ls, sizeof ls));
}

/* ------------------------------------------------------------------------ */
/* Regions                                                                   */

const struct graph_block *graph_verify_entry(const struct graph_op *op, int r)
{
    if (r >= op->n_regions || op->regions[r].n_blocks == 0) return NULL;
    return &op->regions[r].blocks[0];
}

const struct graph_op *graph_verify_term(const struct graph_block *b)
{
    if (!b || b->n_ops == 0) return NULL;
    const struct graph_op *t = b->ops[b->n_ops - 1];
    return graph_op_kind_has(t->kind, GRAPH_OPF_TERMINATOR) ? t : NULL;
}

enum base_status graph_verify_region_shape(struct verify_ctx *cx, const struct graph_op *op, int r,
                                     const char *rname, int n_args, int n_ret,
                                     const struct graph_block **blk, const struct graph_op **ret)
{
    const struct graph_block *b = graph_verify_entry(op, r);
    if (!b) return graph_verify_fail(cx, op, "%s region must not be empty", rname);
    const struct graph_op *t = graph_verify_term(b);
    if (!t) return graph_verify_fail(cx, op, "%s region has no terminator", rname);
    if (n_args >= 0 && b->n_args != n_args)
        return graph_verify_fail(cx, op, "%s must take %d argument%s, takes %d", rname, n_args,
                           n_args == 1 ? "" : "s", b->n_args);
    if (n_ret >= 0 && t->n_operands != n_ret)
        return graph_verify_fail(cx, op, "%s must return %d value%s, returns %d", rname, n_ret,
                           n_ret == 1 ? "" : "s", t->n_operands);
    if (blk) *blk = b;
    if (ret) *ret = t;
    return BASE_OK;
}

/* Does `arg` (a reducer block argument) fit the allowed dims: a subsequence of
 * them, in order, with compatible sizes (MLIR's verifyReducerShape). */
static bool reducer_arg_fits(const struct graph_type *arg, int allowed_rank,
                             const int64_t *allowed_dims)
{
    if (arg->rank < 0) return true;
    if (arg->rank > allowed_rank) return false;
    int k = 0;
    for (int i = 0; i < allowed_rank && k < arg->rank; i++)
        if (verify_dim_compat(allowed_dims[i], arg->dims[k])) k++;
    return k == arg->rank;
}

enum base_status graph_verify_reducer(struct verify_ctx *cx, const struct graph_op *op, int r,
                                const char *label, int n, const struct graph_type *const *inputs,
                                const struct graph_type *const *inits, int allowed_rank,
                                const int64_t *allowed_dims, const struct graph_type **acc_types)
{
    const struct graph_block *b;
    const struct graph_op *ret;
    char rname[64];
    snprintf(rname, sizeof rname, "%s body", label);
    VTRY(graph_verify_region_shape(cx, op, r, rname, 2 * n, n, &b, &ret));
    char ta[160], tb[160];
    for (int i = 0; i < n; i++) {
        const struct graph_type *acc = ret->operands[i]->type;
        const struct graph_type *a0 = b->args[i].type, *a1 = b->args[n + i].type;
        if (!verify_is_tensor(acc) || !verify_is_tensor(a0) || !verify_is_tensor(a1))
            return graph_verify_fail(cx, op, "%s body arguments and results must be tensors", label);
        if (!graph_verify_type_compat(acc, a0))
            return graph_verify_fail(cx, op,
                               "%s body argument %d has type %s but the body returns %s there",
                               label, i, graph_verify_tstr(a0, ta, sizeof ta),
                               graph_verify_tstr(acc, tb, sizeof tb));
        /* upstream: the second argument's element type may differ in float precision only */
        bool floats = graph_verify_class(acc) == VC_FLOAT && graph_verify_class(a1) == VC_FLOAT;
        if (!graph_verify_shape_compat(acc, a1) || !(floats || graph_verify_elem_equal(acc, a1)))
            return graph_verify_fail(cx, op,
                               "%s body argument %d has type %s but the body returns %s there",
                               label, n + i, graph_verify_tstr(a1, ta, sizeof ta),
                               graph_verify_tstr(acc, tb, sizeof tb));
        if (inits && inits[i] && !graph_verify_shape_compat(inits[i], acc))
            return graph_verify_fail(cx, op,
                               "%s the shape of the body's result %d (%s) differs from the init value's (%s)",
                               label, i, graph_verify_tstr(acc, tb, sizeof tb),
                               graph_verify_tstr(inits[i], ta, sizeof ta));
        if (!reducer_arg_fits(a1, allowed_rank, allowed_dims)) {
            char ds[120];
            return graph_verify_fail(cx, op,
                               "%s body argument %d has type %s, which does not fit the "
                               "reduced shape %s",
                               label, n + i, graph_verify_tstr(a1, ta, sizeof ta),
                               graph_verify_dstr(allowed_rank, allowed_dims, ds, sizeof ds));
        }
        if (inputs && inputs[i] && !graph_verify_promotable_fp(inputs[i], a1))
            return graph_verify_fail(cx, op,
                               "%s input %d of type %s is not promotable to the body's element "
                               "type (%s)",
                               label, i, graph_verify_tstr(inputs[i], ta, sizeof ta),
                               graph_verify_tstr(a1, tb, sizeof tb));
        if (inits && inits[i] && !graph_verify_promotable_fp(inits[i], acc))
            return graph_verify_fail(cx, op,
                               "%s init value %d of type %s is not promotable to the body's "
                               "element type (%s)",
                               label, i, graph_verify_tstr(inits[i], ta, sizeof ta),
                               graph_verify_tstr(acc, tb, sizeof tb));
        if (acc_types) acc_types[i] = acc;
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Symbol table                                                              */

static int name_cmp(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    int c = memcmp(a, b, la < lb ? la : lb);
    if (c) return c;
    return la < lb ? -1 : la > lb ? 1 : 0;
}

static int func_sort_cmp(const void *pa, const void *pb)
{
    const struct graph_op *a = *(const struct graph_op *const *)pa;
    const struct graph_op *b = *(const struct graph_op *const *)pb;
    const char *na = graph_func_name(a), *nb = graph_func_name(b);
    int c = strcmp(na, nb);
    if (c) return c;
    /* stable on ties, so the duplicate reported is the later one */
    return a->id < b->id ? -1 : a->id > b->id;
}

const struct graph_op *graph_verify_find_func(const struct verify_ctx *cx, const char *name, size_t len)
{
    int lo = 0, hi = cx->n_funcs - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = name_cmp(name, len, graph_func_name(cx->funcs[mid]));
        if (c == 0) return cx->funcs[mid];
        if (c < 0) hi = mid - 1;
        else lo = mid + 1;
    }
    return NULL;
}

const struct graph_attr *graph_verify_func_types(const struct graph_op *func, const char *which)
{
    const struct graph_attr *ft = graph_op_attr(func, "function_type");
    if (!ft) return NULL;
    if (ft->kind == GRAPH_ATTR_DICT) {
        const struct graph_attr *l = graph_dict_get(ft, which);
        if (!l || l->kind != GRAPH_ATTR_ARRAY) return NULL;
        for (int i = 0; i < l->u.array.n; i++)
            if (!l->u.array.items[i] || l->u.array.items[i]->kind != GRAPH_ATTR_TYPE) return NULL;
        return l;
    }
    return NULL;
}

static enum base_status build_symbols(struct verify_ctx *cx)
{
    const struct graph_block *body = &cx->m->body;
    int n = 0;
    for (int i = 0; i < body->n_ops; i++)
        if (body->ops[i]->kind == GRAPH_OP_FUNC) n++;
    cx->funcs = malloc((size_t)(n ? n : 1) * sizeof *cx->funcs);
    if (!cx->funcs) return base_diag_set(cx->diag, BASE_ERR_NOMEM, cx->m->path, 0, 0, "verify: out of memory");
    for (int i = 0; i < body->n_ops; i++) {
        const struct graph_op *op = body->ops[i];
        if (op->kind != GRAPH_OP_FUNC) continue;
        if (!graph_func_name(op)) return graph_verify_fail(cx, op, "requires a 'sym_name' string attribute");
        cx->funcs[cx->n_funcs++] = op;
    }
    qsort(cx->funcs, (size_t)cx->n_funcs, sizeof *cx->funcs, func_sort_cmp);
    for (int i = 1; i < cx->n_funcs; i++)
        if (strcmp(graph_func_name(cx->funcs[i - 1]), graph_func_name(cx->funcs[i])) == 0)
            return graph_verify_fail(cx, cx->funcs[i], "redefinition of symbol @%s",
                               graph_func_name(cx->funcs[i]));
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                  */

static enum base_status dispatch(struct verify_ctx *cx, const struct graph_op *op)
{
    if (graph_verify_is_chlo_misc(op->kind)) return graph_verify_elementwise(cx, op);
    switch (graph_op_kind_cat(op->kind)) {
    case GRAPH_CAT_UNARY:
    case GRAPH_CAT_BINARY:
    case GRAPH_CAT_TERNARY:
        return graph_verify_elementwise(cx, op);
    case GRAPH_CAT_SHAPE:
        switch (op->kind) {
        case GRAPH_OP_GATHER:
        case GRAPH_OP_DYNAMIC_GATHER:
        case GRAPH_OP_SCATTER:
        case GRAPH_OP_TORCH_INDEX_SELECT:
            return graph_verify_gather_op(cx, op);
        case GRAPH_OP_SORT:
            return graph_verify_reduce_op(cx, op);
        default:
            return graph_verify_shape_op(cx, op);
        }
    case GRAPH_CAT_REDUCE:
        return graph_verify_reduce_op(cx, op);
    case GRAPH_CAT_LINALG:
        return graph_verify_linalg_op(cx, op);
    case GRAPH_CAT_COLLECTIVE:
        return graph_verify_collective_op(cx, op);
    case GRAPH_CAT_QUANT:
    case GRAPH_CAT_CONTROL:
    case GRAPH_CAT_CHECK:
    case GRAPH_CAT_MISC:
    case GRAPH_CAT_META:
        switch (op->kind) {
        case GRAPH_OP_SDY_MESH:
        case GRAPH_OP_SDY_MANUAL_COMPUTATION:
        case GRAPH_OP_SDY_RETURN:
        case GRAPH_OP_AFTER_ALL:
        case GRAPH_OP_CREATE_TOKEN:
            return graph_verify_collective_op(cx, op);
        default:
            return graph_verify_control_op(cx, op);
        }
    }
    return BASE_OK;
}

static bool is_terminator(enum graph_op_kind k)
{
    return graph_op_kind_has(k, GRAPH_OPF_TERMINATOR);
}

/* The terminator a region of `parent` must end with (UNKNOWN: not checked). */
static enum graph_op_kind expected_terminator(const struct graph_op *parent)
{
    switch (parent->kind) {
    case GRAPH_OP_FUNC: return GRAPH_OP_FUNC_RETURN;
    case GRAPH_OP_SDY_MANUAL_COMPUTATION: return GRAPH_OP_SDY_RETURN;
    case GRAPH_OP_UNKNOWN:
    case GRAPH_OP_MODULE: return GRAPH_OP_UNKNOWN;
    default: return GRAPH_OP_RETURN;
    }
}

static enum base_status walk_op(struct verify_ctx *cx, const struct graph_op *op, int depth);

static enum base_status walk_regions(struct verify_ctx *cx, const struct graph_op *op, int depth)
{
    if (depth > 4 * GRAPH_MAX_NESTING)
        return base_diag_set(cx->diag, BASE_ERR_LIMIT, op->loc.file, op->loc.line, op->loc.col,
                             "%s: regions nested too deeply", op->name);
    enum graph_op_kind want = expected_terminator(op);
    for (int r = 0; r < op->n_regions; r++) {
        const struct graph_region *reg = &op->regions[r];
        if (reg->n_blocks > 1 && op->kind != GRAPH_OP_UNKNOWN)
            return graph_verify_fail(cx, op, "region #%d must have a single block, has %d", r,
                               reg->n_blocks);
        for (int bi = 0; bi < reg->n_blocks; bi++) {
            const struct graph_block *b = &reg->blocks[bi];
            for (int i = 0; i < b->n_ops; i++) {
                const struct graph_op *inner = b->ops[i];
                if (is_terminator(inner->kind) && i != b->n_ops - 1)
                    return graph_verify_fail(cx, inner, "must be the last operation of its block");
                VTRY(walk_op(cx, inner, depth + 1));
            }
            if (want == GRAPH_OP_UNKNOWN) continue;
            const struct graph_op *t = b->n_ops ? b->ops[b->n_ops - 1] : NULL;
            if (!t || !is_terminator(t->kind))
                return graph_verify_fail(cx, op, "region #%d must end with %s", r,
                                   graph_op_kind_name(want));
            /* upstream's stablehlo.return is a bare terminator (no parent op, no
             * check of the function's result types): it may end a func.func */
            bool lax = op->kind == GRAPH_OP_FUNC && t->kind == GRAPH_OP_RETURN;
            if (t->kind != want && !lax)
                return graph_verify_fail(cx, t, "cannot terminate a region of %s (expected %s)",
                                   op->name, graph_op_kind_name(want));
        }
    }
    return BASE_OK;
}

/* The constraints of quantized element and tensor types (spec "Types"),
 * checked once per value that has one: op results and block arguments. */
static enum base_status quant_type(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *what, int idx, const struct graph_type *t, int depth)
{
    if (!t || depth > GRAPH_MAX_TUPLE_DEPTH) return BASE_OK;
    if (t->kind == GRAPH_TYPE_TUPLE || t->kind == GRAPH_TYPE_FUTURE) {
        for (int i = 0; i < t->n_elems; i++) VTRY(quant_type(cx, op, what, idx, t->elems[i], depth + 1));
        return BASE_OK;
    }
    const struct graph_quant *q = t->kind == GRAPH_TYPE_TENSOR ? t->quant : NULL;
    if (!q) return BASE_OK;
    char ts[160];
    graph_verify_tstr(t, ts, sizeof ts);
    if (!base_dtype_is_int(q->storage))
        return graph_verify_fail(cx, op, "%s %d (%s): the storage type must be an integer type", what, idx, ts);
    if (!base_dtype_is_float(q->expressed))
        return graph_verify_fail(cx, op, "%s %d (%s): the expressed type must be a floating-point type", what,
                           idx, ts);
    int64_t lo = base_int_min(q->storage);
    uint64_t hi = base_int_max(q->storage);
    if (q->storage_min < lo || q->storage_max < 0 || (uint64_t)q->storage_max > hi ||
        q->storage_min >= q->storage_max)
        return graph_verify_fail(cx, op, "%s %d (%s): (C3) needs min(%s) <= storage_min %lld < storage_max %lld <= max(%s)",
                           what, idx, ts, base_dtype_name(q->storage), (long long)q->storage_min,
                           (long long)q->storage_max, base_dtype_name(q->storage));
    if (q->n_scales < 1 || (q->quant_dim < 0 && q->n_scales != 1))
        return graph_verify_fail(cx, op, "%s %d (%s): (C10) a per-tensor quantized type needs one scale", what,
                           idx, ts);
    const struct base_float_format *ff = base_float_format(q->expressed);
    for (int i = 0; i < q->n_scales; i++) {
        double sc = q->scales[i];
        if (!(sc > 0) || !isfinite(sc))
            return graph_verify_fail(cx, op, "%s %d (%s): (C5)/(C6) scale %d = %g must be positive and finite",
                               what, idx, ts, i, sc);
        /* MLIR's quant dialect: within [smallest, largest] of the expressed type */
        if (ff && (sc < ff->min_subnormal || sc > ff->max_finite))
            return graph_verify_fail(cx, op, "%s %d (%s): scale %e out of expressed type range [%e, %e]", what, idx, ts,
                                     sc, ff->min_subnormal, ff->max_finite);
        if (q->zero_points[i] < q->storage_min || q->zero_points[i] > q->storage_max)
            return graph_verify_fail(cx, op, "%s %d (%s): (C7) zero point %lld is outside [%lld, %lld]", what,
                               idx, ts, (long long)q->zero_points[i], (long long)q->storage_min,
                               (long long)q->storage_max);
    }
    if (q->quant_dim >= 0 && t->rank >= 0) {
        if (q->quant_dim >= t->rank)
            return graph_verify_fail(cx, op, "%s %d (%s): (C12) quantization dimension %d must be < rank %d",
                               what, idx, ts, q->quant_dim, t->rank);
        int64_t d = t->dims[q->quant_dim];
        if (d != GRAPH_DYN && d != q->n_scales)
            return graph_verify_fail(cx, op, "%s %d (%s): (C13) dim %d has size %lld but there are %d scales",
                               what, idx, ts, q->quant_dim, (long long)d, q->n_scales);
    }
    return BASE_OK;
}

/* Where a StableHLO op takes per-axis quantized tensors (its ODS types are
 * HLO_TensorOrPerAxisQuantizedTensor...; everywhere else HLO_Tensor, which
 * has per-tensor quantization only). */
static bool per_axis_allowed(enum graph_op_kind k, bool result, int i)
{
    switch (k) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_WHILE:
    case GRAPH_OP_BITCAST_CONVERT:
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_COMPOSITE:
    case GRAPH_OP_UNIFORM_QUANTIZE:
        return true;
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM:
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_DYNAMIC_RESHAPE:
    case GRAPH_OP_TRANSPOSE:
        return result || i == 0;
    case GRAPH_OP_CONVOLUTION:
    case GRAPH_OP_DOT_GENERAL:
    case GRAPH_OP_DOT:
        return result || i == 1;
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_INFEED:
    case GRAPH_OP_RECV:
    case GRAPH_OP_IF:
    case GRAPH_OP_CASE:
    case GRAPH_OP_GET_TUPLE_ELEMENT:
    case GRAPH_OP_BROADCAST:
        return result;
    case GRAPH_OP_OUTFEED:
    case GRAPH_OP_SEND:
    case GRAPH_OP_TUPLE:
    case GRAPH_OP_GET_DIMENSION_SIZE:
    case GRAPH_OP_RETURN:
    case GRAPH_OP_UNIFORM_DEQUANTIZE:
        return !result;
    default:
        return false;
    }
}

/* Results that upstream's ODS wants statically shaped (constant, iota,
 * infeed, recv), or static but for one bounded dynamic dim (reshape,
 * broadcast_in_dim: HLO_StaticShapeTensorPerAxisQuantizedTensorOrBoundedTensor). */
static bool static_or_bounded_ok(enum graph_op_kind k, const struct graph_type *t)
{
    bool bounded_ok = k == GRAPH_OP_RESHAPE || k == GRAPH_OP_BROADCAST_IN_DIM;
    if (!bounded_ok && k != GRAPH_OP_CONSTANT && k != GRAPH_OP_IOTA && k != GRAPH_OP_INFEED && k != GRAPH_OP_RECV)
        return true;
    if (graph_type_is_static(t)) return true;
    if (!bounded_ok) return false;
    const struct graph_attr *e = t->encoding;
    const struct graph_attr *b = e && e->kind == GRAPH_ATTR_DICT && e->tag && !strcmp(e->tag, "stablehlo.bounds")
                                     ? graph_dict_get(e, "bounds")
                                     : NULL;
    if (!b || b->kind != GRAPH_ATTR_DENSE_ARRAY || !b->u.dense.i) return false;
    int n_dyn = 0, n_bounded = 0;
    for (int d = 0; d < t->rank; d++) n_dyn += t->dims[d] == GRAPH_DYN;
    for (int d = 0; d < b->u.dense.n; d++) n_bounded += b->u.dense.i[d] != GRAPH_DYN;
    return n_dyn == 1 && n_bounded == 1;
}

/* The operand and result types a StableHLO op's ODS definition admits before
 * any rule of the op runs: ranked tensors only (but custom_call), and per-axis
 * quantization only where the op takes it. */
static enum base_status ods_types(struct verify_ctx *cx, const struct graph_op *op)
{
    if (op->kind == GRAPH_OP_UNKNOWN || op->kind == GRAPH_OP_CUSTOM_CALL || strncmp(op->name, "stablehlo.", 10) != 0)
        return BASE_OK;
    for (int side = 0; side < 2; side++) {
        int n = side ? op->n_results : op->n_operands;
        for (int i = 0; i < n; i++) {
            const struct graph_type *t = side ? op->results[i].type : op->operands[i]->type;
            if (!verify_is_tensor(t)) continue;
            char ts[160];
            if (t->rank < 0)
                return graph_verify_fail(cx, op, "%s #%d must be a ranked tensor, but got %s", side ? "result" : "operand",
                                         i, graph_verify_tstr(t, ts, sizeof ts));
            if (verify_is_per_axis(t) && !per_axis_allowed(op->kind, side, i))
                return graph_verify_fail(cx, op, "%s #%d must be a ranked tensor of per-tensor (not per-axis) quantized "
                                         "or unquantized values, but got %s",
                                         side ? "result" : "operand", i, graph_verify_tstr(t, ts, sizeof ts));
            if (side && !static_or_bounded_ok(op->kind, t))
                return graph_verify_fail(cx, op, "result #%d must be statically shaped%s, but got %s", i,
                                         op->kind == GRAPH_OP_RESHAPE || op->kind == GRAPH_OP_BROADCAST_IN_DIM
                                             ? " or single bounded dimension tensor"
                                             : "",
                                         graph_verify_tstr(t, ts, sizeof ts));
        }
    }
    return BASE_OK;
}

static enum base_status walk_op(struct verify_ctx *cx, const struct graph_op *op, int depth)
{
    for (int i = 0; i < op->n_operands; i++)
        if (!op->operands[i] || !op->operands[i]->type)
            return graph_verify_fail(cx, op, "operand %d has no type", i);
    for (int i = 0; i < op->n_results; i++) {
        if (!op->results[i].type) return graph_verify_fail(cx, op, "result %d has no type", i);
        VTRY(quant_type(cx, op, "result", i, op->results[i].type, 0));
    }
    for (int r = 0; r < op->n_regions; r++)
        for (int bi = 0; bi < op->regions[r].n_blocks; bi++) {
            const struct graph_block *b = &op->regions[r].blocks[bi];
            for (int i = 0; i < b->n_args; i++)
                VTRY(quant_type(cx, op, "block argument", i, b->args[i].type, 0));
        }
    VTRY(ods_types(cx, op));
    VTRY(dispatch(cx, op));
    return walk_regions(cx, op, depth);
}

static enum base_status graph_verify_impl(const struct graph_module *m, struct base_diag *diag)
{
    if (!m) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "graph_verify: no module");
    struct verify_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.m = m;
    cx.diag = diag;
    enum base_status st = build_symbols(&cx);
    for (int i = 0; st == BASE_OK && i < m->body.n_ops; i++) {
        const struct graph_op *op = m->body.ops[i];
        if (is_terminator(op->kind)) {
            st = graph_verify_fail(&cx, op, "cannot appear at module level");
            break;
        }
        cx.func = op->kind == GRAPH_OP_FUNC ? op : NULL;
        st = walk_op(&cx, op, 0);
    }
    free(cx.funcs);
    free(cx.scratch);
    return st;
}

enum base_status graph_verify(const struct graph_module *m, struct base_diag *diag)
{
    return base_diag_ensure(diag, graph_verify_impl(m, diag), "", "verifying the program");
}
