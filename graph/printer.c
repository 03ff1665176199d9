/* Printer: the module in MLIR generic form, which upstream stablehlo-opt and
 * graph_parse both read back.  Literals are printed exactly: floats in the
 * shortest decimal form that reads back to the same bits (hex bit patterns for
 * NaN and infinities), large tensors as "0x..." blobs. */
#include "graph/graph.h"
#include "graph/lexer.h"
#include "graph/print_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* String builder                                                            */

void graph_print_buf_init(struct sbuf *s)
{
    memset(s, 0, sizeof *s);
}

void graph_print_buf_init_fixed(struct sbuf *s, char *buf, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->p = buf;
    s->cap = cap;
    s->fixed = true;
    if (cap) buf[0] = 0;
}

void graph_print_buf_free(struct sbuf *s)
{
    if (!s->fixed) free(s->p);
    memset(s, 0, sizeof *s);
}

static bool sb_reserve(struct sbuf *s, size_t extra)
{
    if (s->n + extra + 1 <= s->cap) return true;
    if (s->fixed || s->oom) return false;
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < s->n + extra + 1) cap *= 2;
    char *p = realloc(s->p, cap);
    if (!p) {
        s->oom = true;
        return false;
    }
    s->p = p;
    s->cap = cap;
    return true;
}

void graph_print_buf_putn(struct sbuf *s, const char *t, size_t n)
{
    if (!sb_reserve(s, n)) {
        if (!s->fixed || s->cap == 0) return;
        n = s->cap - 1 > s->n ? s->cap - 1 - s->n : 0; /* truncate */
    }
    memcpy(s->p + s->n, t, n);
    s->n += n;
    s->p[s->n] = 0;
}

void graph_print_buf_putc(struct sbuf *s, char c)
{
    if (s->n + 2 <= s->cap) {
        s->p[s->n++] = c;
        s->p[s->n] = 0;
        return;
    }
    graph_print_buf_putn(s, &c, 1);
}

void graph_print_buf_puts(struct sbuf *s, const char *t)
{
    graph_print_buf_putn(s, t, strlen(t));
}

void graph_print_buf_printf(struct sbuf *s, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof buf) {
        graph_print_buf_putn(s, buf, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        s->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    graph_print_buf_putn(s, big, (size_t)n);
    free(big);
}

/* ------------------------------------------------------------------------ */
/* Scalars                                                                   */

/* MLIR float literals need a '.' before any exponent. */
static size_t fix_float_text(char *buf, size_t n, size_t cap)
{
    if (memchr(buf, '.', n) || memchr(buf, 'n', n) || memchr(buf, 'i', n)) return n;
    char *e = memchr(buf, 'e', n);
    size_t at = e ? (size_t)(e - buf) : n;
    if (n + 2 >= cap) return n;
    memmove(buf + at + 2, buf + at, n - at + 1);
    buf[at] = '.';
    buf[at + 1] = '0';
    return n + 2;
}

static double reread(const char *buf, size_t n)
{
    double d = 0;
    bool neg = buf[0] == '-';
    if (!graph_lex_parse_f64(buf + neg, n - neg, &d)) return NAN;
    return neg ? -d : d;
}

static uint64_t round_bits(enum base_dtype dt, double v)
{
    if (dt == BASE_DT_F64) {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    if (dt == BASE_DT_F32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    return base_float_bits_from_f64(dt, v);
}

/* Shortest decimal that reads back (decimal -> double -> dt) to the same value. */
static void print_float_as(struct sbuf *s, enum base_dtype dt, double v)
{
    char buf[64];
    uint64_t want = round_bits(dt, v);
    int max_digits = dt == BASE_DT_F64 ? 17 : 9;
    size_t n = 0;
    for (int prec = dt == BASE_DT_F64 ? 15 : 6; prec <= max_digits; prec++) {
        n = (size_t)snprintf(buf, sizeof buf - 4, "%.*g", prec, v);
        n = fix_float_text(buf, n, sizeof buf);
        if (round_bits(dt, reread(buf, n)) == want) break;
    }
    graph_print_buf_putn(s, buf, n);
}

void graph_print_f64(struct sbuf *s, double v)
{
    if (!isfinite(v)) {
        uint64_t u;
        memcpy(&u, &v, 8);
        graph_print_buf_printf(s, "0x%016llX", (unsigned long long)u);
        return;
    }
    print_float_as(s, BASE_DT_F64, v);
}

static void print_hex_bits(struct sbuf *s, enum base_dtype dt, uint64_t bits)
{
    int digits = (base_dtype_bits(dt) + 3) / 4;
    graph_print_buf_printf(s, "0x%0*llX", digits, (unsigned long long)bits);
}

/* A float element given by its raw storage bits. */
static void print_float_elem(struct sbuf *s, enum base_dtype dt, uint64_t bits)
{
    double v = base_float_f64_from_bits(dt, bits);
    if (!isfinite(v) || round_bits(dt, v) != bits) {
        print_hex_bits(s, dt, bits); /* NaN, inf, or a payload the value cannot carry */
        return;
    }
    print_float_as(s, dt, v);
}

void graph_print_string(struct sbuf *s, const char *t, size_t n)
{
    graph_print_buf_putc(s, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '"' || c == '\\') {
            graph_print_buf_putc(s, '\\');
            graph_print_buf_putc(s, (char)c);
        } else if (c == '\n') {
            graph_print_buf_puts(s, "\\n");
        } else if (c == '\t') {
            graph_print_buf_puts(s, "\\t");
        } else if (c < 32 || c >= 127) {
            graph_print_buf_printf(s, "\\%02X", c);
        } else {
            graph_print_buf_putc(s, (char)c);
        }
    }
    graph_print_buf_putc(s, '"');
}

static bool is_suffix_id(const char *t, size_t n)
{
    if (!n) return false;
    return graph_lex_suffix_id(t, t + n) == n;
}

void graph_print_symbol(struct sbuf *s, const char *t, size_t n)
{
    graph_print_buf_putc(s, '@');
    /* nested references (a::@b) were kept verbatim */
    if (is_suffix_id(t, n) || (memchr(t, ':', n) && memchr(t, '@', n))) graph_print_buf_putn(s, t, n);
    else graph_print_string(s, t, n);
}

static void print_key(struct sbuf *s, const char *k)
{
    size_t n = strlen(k);
    if (graph_lex_bare_id(k, k + n) == n) graph_print_buf_putn(s, k, n);
    else graph_print_string(s, k, n);
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static void print_quant(struct sbuf *s, const struct graph_quant *q)
{
    graph_print_buf_puts(s, "!quant.uniform<");
    enum base_dtype_kind k = base_dtype_kind(q->storage);
    graph_print_buf_printf(s, "%c%d", k == BASE_KIND_UINT ? 'u' : 'i', base_dtype_bits(q->storage));
    if (q->storage_min != base_int_min(q->storage) || q->storage_max != (int64_t)base_int_max(q->storage))
        graph_print_buf_printf(s, "<%lld:%lld>", (long long)q->storage_min, (long long)q->storage_max);
    graph_print_buf_printf(s, ":%s", base_dtype_name(q->expressed));
    if (q->quant_dim >= 0) graph_print_buf_printf(s, ":%d", q->quant_dim);
    graph_print_buf_puts(s, ", ");
    if (q->quant_dim >= 0) graph_print_buf_putc(s, '{');
    for (int i = 0; i < q->n_scales; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        graph_print_f64(s, q->scales[i]);
        if (q->zero_points[i]) graph_print_buf_printf(s, ":%lld", (long long)q->zero_points[i]);
    }
    if (q->quant_dim >= 0) graph_print_buf_putc(s, '}');
    graph_print_buf_putc(s, '>');
}

void graph_print_type(struct sbuf *s, const struct graph_type *t)
{
    switch (t->kind) {
    case GRAPH_TYPE_TOKEN:
        graph_print_buf_puts(s, "!stablehlo.token");
        return;
    case GRAPH_TYPE_FUTURE:
    case GRAPH_TYPE_TUPLE:
        graph_print_buf_puts(s, t->kind == GRAPH_TYPE_TUPLE ? "tuple<" : "!stablehlo.future<");
        for (int i = 0; i < t->n_elems; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_type(s, t->elems[i]);
        }
        graph_print_buf_putc(s, '>');
        return;
    case GRAPH_TYPE_TENSOR:
        graph_print_buf_puts(s, "tensor<");
        if (t->rank < 0) graph_print_buf_puts(s, "*x");
        for (int i = 0; i < t->rank; i++) {
            if (t->dims[i] == GRAPH_DYN) graph_print_buf_puts(s, "?x");
            else graph_print_buf_printf(s, "%lldx", (long long)t->dims[i]);
        }
        if (t->quant) print_quant(s, t->quant);
        else graph_print_buf_puts(s, base_dtype_name(t->elem));
        if (t->encoding) {
            graph_print_buf_puts(s, ", ");
            graph_print_attr(s, t->encoding);
        }
        graph_print_buf_putc(s, '>');
        return;
    }
    graph_print_buf_puts(s, "<bad type>");
}

/* ------------------------------------------------------------------------ */
/* Literals                                                                  */

static void print_elem(struct sbuf *s, enum base_dtype dt, const void *data, size_t i)
{
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_BOOL:
        graph_print_buf_puts(s, base_elem_get_i64(dt, data, i) ? "true" : "false");
        break;
    case BASE_KIND_SINT:
        graph_print_buf_printf(s, "%lld", (long long)base_elem_get_i64(dt, data, i));
        break;
    case BASE_KIND_UINT:
        graph_print_buf_printf(s, "%llu", (unsigned long long)base_elem_get_u64(dt, data, i));
        break;
    case BASE_KIND_FLOAT:
        print_float_elem(s, dt, base_elem_get_bits(dt, data, i));
        break;
    case BASE_KIND_COMPLEX: {
        enum base_dtype c = base_dtype_component(dt);
        const unsigned char *p = (const unsigned char *)data + i * base_dtype_size(dt);
        graph_print_buf_putc(s, '(');
        print_float_elem(s, c, base_elem_get_bits(c, p, 0));
        graph_print_buf_puts(s, ", ");
        print_float_elem(s, c, base_elem_get_bits(c, p, 1));
        graph_print_buf_putc(s, ')');
        break;
    }
    }
}

static void print_list(struct sbuf *s, const struct base_tensor *t, int level, size_t *index)
{
    graph_print_buf_putc(s, '[');
    for (int64_t i = 0; i < t->dims[level]; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        if (level + 1 < t->rank) {
            print_list(s, t, level + 1, index);
        } else {
            print_elem(s, t->dtype, t->data, *index);
            (*index)++;
        }
    }
    graph_print_buf_putc(s, ']');
}

static void print_tensor_body(struct sbuf *s, const struct base_tensor *t)
{
    size_t es = base_dtype_size(t->dtype);
    size_t nbytes = base_tensor_nbytes(t);
    if (t->count == 0) return;
    const unsigned char *d = t->data;
    bool splat = true;
    for (size_t off = es; off < nbytes && splat; off += es)
        if (memcmp(d, d + off, es) != 0) splat = false;
    if (splat) {
        print_elem(s, t->dtype, t->data, 0);
        return;
    }
    enum base_dtype_kind k = base_dtype_kind(t->dtype);
    bool narrow = k == BASE_KIND_BOOL || base_dtype_bits(t->dtype) < 8;
    if (t->count <= 64 || narrow) {
        size_t index = 0;
        print_list(s, t, 0, &index);
        return;
    }
    static const char hex[] = "0123456789ABCDEF";
    if (!sb_reserve(s, 4 + 2 * nbytes)) return;
    graph_print_buf_puts(s, "\"0x");
    for (size_t i = 0; i < nbytes; i++) {
        s->p[s->n++] = hex[d[i] >> 4];
        s->p[s->n++] = hex[d[i] & 15];
    }
    s->p[s->n] = 0;
    graph_print_buf_putc(s, '"');
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

static void print_dense_array(struct sbuf *s, const struct graph_attr *a, bool bare)
{
    if (!bare) graph_print_buf_printf(s, "array<%s", base_dtype_name(a->elem));
    else graph_print_buf_putc(s, '[');
    for (int i = 0; i < a->u.dense.n; i++) {
        graph_print_buf_puts(s, i ? ", " : (bare ? "" : ": "));
        if (a->u.dense.f) {
            print_float_as(s, a->elem, a->u.dense.f[i]);
        } else if (a->elem == BASE_DT_I1 && !bare) {
            graph_print_buf_puts(s, a->u.dense.i[i] ? "true" : "false");
        } else if (a->elem == BASE_DT_UI64) {
            graph_print_buf_printf(s, "%llu", (unsigned long long)a->u.dense.i[i]);
        } else {
            graph_print_buf_printf(s, "%lld", (long long)a->u.dense.i[i]);
        }
    }
    graph_print_buf_putc(s, bare ? ']' : '>');
}

static void print_int_value(struct sbuf *s, const struct graph_attr *a)
{
    if (a->elem == BASE_DT_UI64 || (base_dtype_kind(a->elem) == BASE_KIND_UINT && a->u.i < 0))
        graph_print_buf_printf(s, "%llu", (unsigned long long)a->u.i);
    else
        graph_print_buf_printf(s, "%lld", (long long)a->u.i);
}

static void print_dict_items(struct sbuf *s, const struct graph_attr *d)
{
    for (int i = 0; i < d->u.dict.n; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        print_key(s, d->u.dict.items[i].name);
        if (d->u.dict.items[i].value->kind != GRAPH_ATTR_UNIT) {
            graph_print_buf_puts(s, " = ");
            graph_print_attr(s, d->u.dict.items[i].value);
        }
    }
}

/* Values inside #stablehlo.xxx<...>: lists and ints are bare. */
static void print_struct_value(struct sbuf *s, const struct graph_attr *v)
{
    if (v->kind == GRAPH_ATTR_DICT && v->tag && !strcmp(v->tag, "stablehlo.sub_axis_info")) {
        int64_t pre = 0, size = 0;
        graph_attr_as_i64(graph_dict_get(v, "pre_size"), &pre);
        graph_attr_as_i64(graph_dict_get(v, "size"), &size);
        graph_print_buf_printf(s, "(%lld)%lld", (long long)pre, (long long)size);
        return;
    }
    switch (v->kind) {
    case GRAPH_ATTR_DENSE_ARRAY:
        print_dense_array(s, v, true);
        break;
    case GRAPH_ATTR_INT:
        print_int_value(s, v);
        break;
    case GRAPH_ATTR_FLOAT:
        print_float_as(s, v->elem, v->u.f);
        break;
    default:
        graph_print_attr(s, v);
        break;
    }
}

static void print_axis_name(struct sbuf *s, const struct graph_attr *a)
{
    /* KEYWORD: `?` (open dimension); sub-axes keep their full spelling */
    if (a->kind == GRAPH_ATTR_KEYWORD || (a->kind == GRAPH_ATTR_STRING && a->tag && !strcmp(a->tag, "sdy.sub_axis"))) {
        graph_print_buf_putn(s, a->u.str.s, a->u.str.len);
        return;
    }
    if (a->kind == GRAPH_ATTR_STRING) graph_print_string(s, a->u.str.s, a->u.str.len);
    else graph_print_attr(s, a); /* not a name: printed as what it is */
}

/* Whether arr is a list of axis names (what #sdy<manual_axes{...}> holds). */
static bool is_axis_list(const struct graph_attr *arr)
{
    if (!arr || arr->kind != GRAPH_ATTR_ARRAY) return false;
    for (int i = 0; i < arr->u.array.n; i++) {
        const struct graph_attr *a = arr->u.array.items[i];
        if (a->kind != GRAPH_ATTR_STRING && a->kind != GRAPH_ATTR_KEYWORD) return false;
    }
    return true;
}

static void print_axis_set(struct sbuf *s, const struct graph_attr *arr)
{
    graph_print_buf_putc(s, '{');
    if (arr && arr->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < arr->u.array.n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_axis_name(s, arr->u.array.items[i]);
        }
    graph_print_buf_putc(s, '}');
}

static void print_mesh_body(struct sbuf *s, const struct graph_attr *m)
{
    const struct graph_attr *axes = graph_dict_get(m, "axes"), *ids = graph_dict_get(m, "device_ids");
    graph_print_buf_puts(s, "<[");
    if (axes && axes->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < axes->u.array.n; i++) {
            const struct graph_attr *ax = axes->u.array.items[i];
            const struct graph_attr *nm = graph_dict_get(ax, "name"), *sz = graph_dict_get(ax, "size");
            if (i) graph_print_buf_puts(s, ", ");
            if (nm && nm->kind == GRAPH_ATTR_STRING) graph_print_string(s, nm->u.str.s, nm->u.str.len);
            graph_print_buf_putc(s, '=');
            if (sz && sz->kind == GRAPH_ATTR_INT) graph_print_buf_printf(s, "%lld", (long long)sz->u.i);
        }
    graph_print_buf_putc(s, ']');
    if (ids && ids->kind == GRAPH_ATTR_DENSE_ARRAY) {
        graph_print_buf_puts(s, ", device_ids=");
        print_dense_array(s, ids, true);
    }
    graph_print_buf_putc(s, '>');
}

/* <@mesh, [{"x"}, {}], replicated={"y"}> */
static void print_sharding_body(struct sbuf *s, const struct graph_attr *d)
{
    const struct graph_attr *mesh = graph_dict_get(d, "mesh"), *dims = graph_dict_get(d, "dims");
    graph_print_buf_putc(s, '<');
    if (mesh && mesh->kind == GRAPH_ATTR_DICT && mesh->tag && !strcmp(mesh->tag, "sdy.mesh")) {
        graph_print_buf_puts(s, "mesh");
        print_mesh_body(s, mesh);
    } else if (mesh) {
        graph_print_attr(s, mesh);
    }
    graph_print_buf_puts(s, ", [");
    if (dims && dims->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < dims->u.array.n; i++) {
            const struct graph_attr *dim = dims->u.array.items[i];
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_buf_putc(s, '{');
            const struct graph_attr *prio = NULL;
            int k = 0;
            for (int j = 0; dim->kind == GRAPH_ATTR_ARRAY && j < dim->u.array.n; j++) {
                const struct graph_attr *it = dim->u.array.items[j];
                if (it->kind == GRAPH_ATTR_KEYWORD && it->u.str.len > 1 && it->u.str.s[0] == 'p') {
                    prio = it;
                    continue;
                }
                if (k++) graph_print_buf_puts(s, ", ");
                print_axis_name(s, it);
            }
            graph_print_buf_putc(s, '}');
            if (prio) graph_print_buf_putn(s, prio->u.str.s, prio->u.str.len);
        }
    graph_print_buf_putc(s, ']');
    for (int i = 0; i < d->u.dict.n; i++) {
        const char *k = d->u.dict.items[i].name;
        if (!strcmp(k, "replicated") || !strcmp(k, "unreduced")) {
            graph_print_buf_printf(s, ", %s=", k);
            print_axis_set(s, d->u.dict.items[i].value);
        }
    }
    graph_print_buf_putc(s, '>');
}

static int64_t dict_int(const struct graph_attr *d, const char *k)
{
    int64_t v = -1;
    graph_attr_as_i64(graph_dict_get(d, k), &v);
    return v;
}

/* #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, or the raw form when
 * the fields cannot be written compactly. */
static bool print_conv_list(struct sbuf *s, const struct graph_attr *d, const char *n1, const char *n2,
                            const char *sp, char l1, char l2, bool dry)
{
    int64_t a = dict_int(d, n1), b = dict_int(d, n2);
    const struct graph_attr *spd = graph_dict_get(d, sp);
    if (!spd || spd->kind != GRAPH_ATTR_DENSE_ARRAY || !spd->u.dense.i) return false;
    int n = spd->u.dense.n, rank = n + 2;
    if (rank > GRAPH_MAX_RANK + 2) return false;
    char slot[GRAPH_MAX_RANK + 2];
    int64_t num[GRAPH_MAX_RANK + 2];
    memset(slot, 0, sizeof slot);
    if (a < 0 || a >= rank || b < 0 || b >= rank || a == b) return false;
    slot[a] = l1;
    slot[b] = l2;
    for (int i = 0; i < n; i++) {
        int64_t pos = spd->u.dense.i[i];
        if (pos < 0 || pos >= rank || slot[pos]) return false;
        slot[pos] = '#';
        num[pos] = i;
    }
    if (dry) return true;
    graph_print_buf_putc(s, '[');
    for (int i = 0; i < rank; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        if (slot[i] == '#') graph_print_buf_printf(s, "%lld", (long long)num[i]);
        else graph_print_buf_putc(s, slot[i]);
    }
    graph_print_buf_putc(s, ']');
    return true;
}

static void print_conv(struct sbuf *s, const struct graph_attr *d)
{
    bool compact =
        print_conv_list(s, d, "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", 'b',
                        'f', true) &&
        print_conv_list(s, d, "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                        "kernel_spatial_dimensions", 'i', 'o', true) &&
        print_conv_list(s, d, "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", 'b',
                        'f', true);
    if (compact) {
        const struct graph_attr *a = graph_dict_get(d, "input_spatial_dimensions"),
                                *b = graph_dict_get(d, "kernel_spatial_dimensions"),
                                *c = graph_dict_get(d, "output_spatial_dimensions");
        compact = a->u.dense.n == b->u.dense.n && a->u.dense.n == c->u.dense.n && d->u.dict.n == 9;
    }
    graph_print_buf_puts(s, "#stablehlo.conv<");
    if (compact) {
        print_conv_list(s, d, "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", 'b', 'f',
                        false);
        graph_print_buf_putc(s, 'x');
        print_conv_list(s, d, "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                        "kernel_spatial_dimensions", 'i', 'o', false);
        graph_print_buf_puts(s, "->");
        print_conv_list(s, d, "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", 'b',
                        'f', false);
    } else {
        graph_print_buf_puts(s, "raw ");
        for (int i = 0; i < d->u.dict.n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_buf_printf(s, "%s = ", d->u.dict.items[i].name);
            print_struct_value(s, d->u.dict.items[i].value);
        }
    }
    graph_print_buf_putc(s, '>');
}

static void print_function_type(struct sbuf *s, const struct graph_attr *d)
{
    const struct graph_attr *in = graph_dict_get(d, "inputs"), *res = graph_dict_get(d, "results");
    graph_print_buf_putc(s, '(');
    for (int i = 0; in && i < in->u.array.n; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        graph_print_attr(s, in->u.array.items[i]);
    }
    graph_print_buf_puts(s, ") -> ");
    int nr = res ? res->u.array.n : 0;
    bool paren = nr != 1;
    if (paren) graph_print_buf_putc(s, '(');
    for (int i = 0; i < nr; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        graph_print_attr(s, res->u.array.items[i]);
    }
    if (paren) graph_print_buf_putc(s, ')');
}

static void print_elements(struct sbuf *s, const struct graph_attr *a)
{
    if (a->u.elements.resource) {
        graph_print_buf_printf(s, "dense_resource<%s> : ", a->u.elements.resource);
    } else if (!a->u.elements.value) {
        graph_print_buf_puts(s, "dense_resource<__elided__> : ");
    } else {
        graph_print_buf_puts(s, "dense<");
        print_tensor_body(s, a->u.elements.value);
        graph_print_buf_puts(s, "> : ");
    }
    graph_print_type(s, a->u.elements.type);
}

void graph_print_attr(struct sbuf *s, const struct graph_attr *a)
{
    switch (a->kind) {
    case GRAPH_ATTR_UNIT:
        graph_print_buf_puts(s, "unit");
        return;
    case GRAPH_ATTR_BOOL:
        graph_print_buf_puts(s, a->u.b ? "true" : "false");
        return;
    case GRAPH_ATTR_INT:
        print_int_value(s, a);
        graph_print_buf_printf(s, " : %s", base_dtype_name(a->elem));
        return;
    case GRAPH_ATTR_FLOAT:
        if (!isfinite(a->u.f)) print_hex_bits(s, a->elem, round_bits(a->elem, a->u.f));
        else print_float_as(s, a->elem, a->u.f);
        graph_print_buf_printf(s, " : %s", base_dtype_name(a->elem));
        return;
    case GRAPH_ATTR_STRING:
        graph_print_string(s, a->u.str.s, a->u.str.len);
        return;
    case GRAPH_ATTR_SYMBOL:
        graph_print_symbol(s, a->u.str.s, a->u.str.len);
        return;
    case GRAPH_ATTR_KEYWORD:
        if (a->tag) {
            const char *dot = strchr(a->tag, '.');
            if (dot) {
                graph_print_buf_putc(s, '#');
                graph_print_buf_putn(s, a->tag, (size_t)(dot - a->tag));
                graph_print_buf_printf(s, "<%s ", dot + 1);
                graph_print_buf_putn(s, a->u.str.s, a->u.str.len);
                graph_print_buf_putc(s, '>');
                return;
            }
        }
        graph_print_buf_putn(s, a->u.str.s, a->u.str.len);
        return;
    case GRAPH_ATTR_OPAQUE:
        graph_print_buf_putn(s, a->u.str.s, a->u.str.len);
        return;
    case GRAPH_ATTR_ARRAY:
        graph_print_buf_putc(s, '[');
        for (int i = 0; i < a->u.array.n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_attr(s, a->u.array.items[i]);
        }
        graph_print_buf_putc(s, ']');
        return;
    case GRAPH_ATTR_DENSE_ARRAY:
        print_dense_array(s, a, false);
        return;
    case GRAPH_ATTR_ELEMENTS:
        print_elements(s, a);
        return;
    case GRAPH_ATTR_TYPE:
        graph_print_type(s, a->u.type);
        return;
    case GRAPH_ATTR_DICT:
        if (!a->tag) {
            graph_print_buf_putc(s, '{');
            print_dict_items(s, a);
            graph_print_buf_putc(s, '}');
        } else if (!strcmp(a->tag, "builtin.function_type")) {
            print_function_type(s, a);
        } else if (!strcmp(a->tag, "sdy.sharding")) {
            graph_print_buf_puts(s, "#sdy.sharding");
            print_sharding_body(s, a);
        } else if (!strcmp(a->tag, "sdy.mesh")) {
            graph_print_buf_puts(s, "#sdy.mesh");
            print_mesh_body(s, a);
        } else if (!strcmp(a->tag, "stablehlo.conv")) {
            print_conv(s, a);
        } else if (!strcmp(a->tag, "stablehlo.sub_axis_info")) {
            graph_print_buf_puts(s, "#stablehlo.sub_axis_info");
            print_struct_value(s, a);
        } else if (!strcmp(a->tag, "stablehlo.bounds")) {
            const struct graph_attr *b = graph_dict_get(a, "bounds");
            graph_print_buf_puts(s, "#stablehlo.bounds<");
            for (int i = 0; b && b->kind == GRAPH_ATTR_DENSE_ARRAY && b->u.dense.i && i < b->u.dense.n; i++) {
                if (i) graph_print_buf_puts(s, ", ");
                if (b->u.dense.i[i] == GRAPH_DYN) graph_print_buf_putc(s, '?');
                else graph_print_buf_printf(s, "%lld", (long long)b->u.dense.i[i]);
            }
            graph_print_buf_putc(s, '>');
        } else {
            graph_print_buf_printf(s, "#%s<", a->tag);
            for (int i = 0; i < a->u.dict.n; i++) {
                if (i) graph_print_buf_puts(s, ", ");
                graph_print_buf_printf(s, "%s = ", a->u.dict.items[i].name);
                print_struct_value(s, a->u.dict.items[i].value);
            }
            graph_print_buf_putc(s, '>');
        }
        return;
    }
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

struct printer {
    struct sbuf *s;
    bool positions;         /* each op's source position as loc("file":line:col) */
    int fresh_underscores;  /* generated names: this many '_' then the value id */
    const struct graph_attr **resources;
    size_t n_res;
    size_t cap_res;
};

static bool results_grouped(const struct graph_op *op)
{
    if (op->n_results < 2 || !op->results[0].name) return false;
    for (int i = 1; i < op->n_results; i++)
        if (!op->results[i].name || strcmp(op->results[i].name, op->results[0].name) != 0) return false;
    return true;
}

static void print_value_name(struct printer *pr, const struct graph_value *v)
{
    struct sbuf *s = pr->s;
    graph_print_buf_putc(s, '%');
    if (v->name) {
        graph_print_buf_puts(s, v->name);
    } else {
        for (int i = 0; i < pr->fresh_underscores; i++) graph_print_buf_putc(s, '_');
        graph_print_buf_printf(s, "%u", v->id);
    }
}

static void print_use(struct printer *pr, const struct graph_value *v)
{
    print_value_name(pr, v);
    if (v->def && results_grouped(v->def)) graph_print_buf_printf(pr->s, "#%d", v->index);
}

static void indent(struct sbuf *s, int depth)
{
    for (int i = 0; i < depth; i++) graph_print_buf_puts(s, "  ");
}

static void note_resource(struct printer *pr, const struct graph_attr *a, int depth)
{
    if (!a || depth > 64) return;
    if (a->kind == GRAPH_ATTR_ELEMENTS && a->u.elements.resource && a->u.elements.value) {
        for (size_t i = 0; i < pr->n_res; i++)
            if (!strcmp(pr->resources[i]->u.elements.resource, a->u.elements.resource)) return;
        if (pr->n_res == pr->cap_res) {
            size_t cap = pr->cap_res ? pr->cap_res * 2 : 8;
            const struct graph_attr **r = realloc(pr->resources, cap * sizeof *r);
            if (!r) {
                pr->s->oom = true;
                return;
            }
            pr->resources = r;
            pr->cap_res = cap;
        }
        pr->resources[pr->n_res++] = a;
    } else if (a->kind == GRAPH_ATTR_ARRAY) {
        for (int i = 0; i < a->u.array.n; i++) note_resource(pr, a->u.array.items[i], depth + 1);
    } else if (a->kind == GRAPH_ATTR_DICT) {
        for (int i = 0; i < a->u.dict.n; i++) note_resource(pr, a->u.dict.items[i].value, depth + 1);
    }
}

static void print_block(struct printer *pr, const struct graph_block *b, int depth);

static void print_op_attr(struct printer *pr, const struct graph_op *op, const struct graph_named_attr *na)
{
    struct sbuf *s = pr->s;
    const struct graph_attr *v = na->value;
    note_resource(pr, v, 0);
    if (op->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION && v->kind == GRAPH_ATTR_ARRAY &&
        (!strcmp(na->name, "in_shardings") || !strcmp(na->name, "out_shardings"))) {
        graph_print_buf_printf(s, "%s = #sdy.sharding_per_value<[", na->name);
        for (int i = 0; i < v->u.array.n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            const struct graph_attr *sh = v->u.array.items[i];
            if (sh->kind == GRAPH_ATTR_DICT) print_sharding_body(s, sh);
            else graph_print_attr(s, sh);
        }
        graph_print_buf_puts(s, "]>");
        return;
    }
    if (op->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION && is_axis_list(v) && !strcmp(na->name, "manual_axes")) {
        graph_print_buf_puts(s, "manual_axes = #sdy<manual_axes");
        print_axis_set(s, v);
        graph_print_buf_putc(s, '>');
        return;
    }
    const char *name = na->name;
    if (graph_op_kind_has(op->kind, GRAPH_OPF_PROBE) && !strcmp(name, "iter"))
        name = "iteration";
    print_key(s, name);
    if (v->kind != GRAPH_ATTR_UNIT) {
        graph_print_buf_puts(s, " = ");
        graph_print_attr(s, v);
    }
}

static void print_op(struct printer *pr, const struct graph_op *op, int depth)
{
    struct sbuf *s = pr->s;
    indent(s, depth);
    if (op->n_results) {
        if (results_grouped(op)) {
            print_value_name(pr, &op->results[0]);
            graph_print_buf_printf(s, ":%d", op->n_results);
        } else {
            for (int i = 0; i < op->n_results; i++) {
                if (i) graph_print_buf_puts(s, ", ");
                print_value_name(pr, &op->results[i]);
            }
        }
        graph_print_buf_puts(s, " = ");
    }
    graph_print_string(s, op->name, strlen(op->name));
    graph_print_buf_putc(s, '(');
    for (int i = 0; i < op->n_operands; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        print_use(pr, op->operands[i]);
    }
    graph_print_buf_putc(s, ')');
    if (op->n_regions) {
        graph_print_buf_puts(s, " (");
        for (int r = 0; r < op->n_regions; r++) {
            if (r) graph_print_buf_puts(s, ", ");
            graph_print_buf_puts(s, "{\n");
            for (int bi = 0; bi < op->regions[r].n_blocks; bi++) print_block(pr, &op->regions[r].blocks[bi], depth + 1);
            indent(s, depth);
            graph_print_buf_putc(s, '}');
        }
        graph_print_buf_putc(s, ')');
    }
    if (op->n_attrs) {
        graph_print_buf_puts(s, " {");
        for (int i = 0; i < op->n_attrs; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_op_attr(pr, op, &op->attrs[i]);
        }
        graph_print_buf_putc(s, '}');
    }
    graph_print_buf_puts(s, " : (");
    for (int i = 0; i < op->n_operands; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        graph_print_type(s, op->operands[i]->type);
    }
    graph_print_buf_puts(s, ") -> ");
    if (op->n_results == 1) {
        graph_print_type(s, op->results[0].type);
    } else {
        graph_print_buf_putc(s, '(');
        for (int i = 0; i < op->n_results; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_type(s, op->results[i].type);
        }
        graph_print_buf_putc(s, ')');
    }
    bool pos = pr->positions && op->loc.file && op->loc.line > 0;
    if (op->loc.name || pos) {
        graph_print_buf_puts(s, pos && op->loc.name ? " loc(fused[" : " loc(");
        if (op->loc.name) graph_print_string(s, op->loc.name, strlen(op->loc.name));
        if (pos && op->loc.name) graph_print_buf_puts(s, ", ");
        if (pos) {
            graph_print_string(s, op->loc.file, strlen(op->loc.file));
            graph_print_buf_printf(s, ":%d:%d", op->loc.line, op->loc.col);
        }
        graph_print_buf_puts(s, pos && op->loc.name ? "])" : ")");
    }
    graph_print_buf_putc(s, '\n');
}

static void print_block(struct printer *pr, const struct graph_block *b, int depth)
{
    struct sbuf *s = pr->s;
    if (b->n_args) {
        indent(s, depth > 0 ? depth - 1 : 0);
        graph_print_buf_puts(s, "^bb0(");
        for (int i = 0; i < b->n_args; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_value_name(pr, &b->args[i]);
            graph_print_buf_puts(s, ": ");
            graph_print_type(s, b->args[i].type);
        }
        graph_print_buf_puts(s, "):\n");
    } else if (b->n_ops == 0) {
        /* an empty block needs its label, else it reads back as no block
         * (found by fuzz/mlir_mutate: func.func @f() { ^f: }) */
        indent(s, depth > 0 ? depth - 1 : 0);
        graph_print_buf_puts(s, "^bb0:\n");
    }
    for (int i = 0; i < b->n_ops; i++) print_op(pr, b->ops[i], depth);
}

/* Generated names must not collide with source names of the form _+digits. */
static int scan_underscores(const struct graph_block *b, int depth);

static int name_underscores(const char *n)
{
    if (!n) return 0;
    int k = 0;
    while (n[k] == '_') k++;
    if (!k || !n[k]) return 0;
    for (const char *c = n + k; *c; c++)
        if (!lex_is_digit(*c)) return 0;
    return k;
}

static int scan_underscores(const struct graph_block *b, int depth)
{
    int m = 0;
    if (depth > 256) return 0;
    for (int i = 0; i < b->n_args; i++) {
        int k = name_underscores(b->args[i].name);
        if (k > m) m = k;
    }
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        for (int r = 0; r < op->n_results; r++) {
            int k = name_underscores(op->results[r].name);
            if (k > m) m = k;
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int bi = 0; bi < op->regions[r].n_blocks; bi++) {
                int k = scan_underscores(&op->regions[r].blocks[bi], depth + 1);
                if (k > m) m = k;
            }
    }
    return m;
}

static void print_resources(struct printer *pr)
{
    struct sbuf *s = pr->s;
    if (!pr->n_res) return;
    graph_print_buf_puts(s, "\n{-#\n  dialect_resources: {\n    builtin: {\n");
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < pr->n_res; i++) {
        const struct graph_attr *a = pr->resources[i];
        const struct base_tensor *t = a->u.elements.value;
        size_t nbytes = base_tensor_nbytes(t);
        uint32_t align = (uint32_t)base_dtype_size(t->dtype);
        graph_print_buf_printf(s, "      %s: \"0x%02X%02X%02X%02X", a->u.elements.resource, align & 255, (align >> 8) & 255,
                         (align >> 16) & 255, align >> 24);
        if (!sb_reserve(s, 2 * nbytes)) return;
        const unsigned char *d = t->data;
        for (size_t k = 0; k < nbytes; k++) {
            s->p[s->n++] = hex[d[k] >> 4];
            s->p[s->n++] = hex[d[k] & 15];
        }
        s->p[s->n] = 0;
        graph_print_buf_puts(s, i + 1 < pr->n_res ? "\",\n" : "\"\n");
    }
    graph_print_buf_puts(s, "    }\n  }\n#-}\n");
}

static enum base_status print_module(const struct graph_module *m, struct sbuf *s, bool positions)
{
    struct printer pr = {s, positions, 0, NULL, 0, 0};
    pr.fresh_underscores = scan_underscores(&m->body, 0) + 1;
    graph_print_buf_puts(s, "module");
    if (m->name) {
        graph_print_buf_putc(s, ' ');
        graph_print_symbol(s, m->name, strlen(m->name));
    }
    if (m->n_attrs) {
        graph_print_buf_puts(s, " attributes {");
        for (int i = 0; i < m->n_attrs; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            note_resource(&pr, m->attrs[i].value, 0);
            print_key(s, m->attrs[i].name);
            if (m->attrs[i].value->kind != GRAPH_ATTR_UNIT) {
                graph_print_buf_puts(s, " = ");
                graph_print_attr(s, m->attrs[i].value);
            }
        }
        graph_print_buf_putc(s, '}');
    }
    graph_print_buf_puts(s, " {\n");
    print_block(&pr, &m->body, 1);
    graph_print_buf_puts(s, "}\n");
    print_resources(&pr);
    free(pr.resources);
    return s->oom ? BASE_ERR_NOMEM : BASE_OK;
}

static enum base_status print_str(const struct graph_module *m, bool positions, char **out, size_t *len)
{
    *out = NULL;
    if (len) *len = 0;
    struct sbuf s;
    graph_print_buf_init(&s);
    enum base_status st = print_module(m, &s, positions);
    if (st != BASE_OK || !s.p) {
        graph_print_buf_free(&s);
        return st != BASE_OK ? st : BASE_ERR_NOMEM;
    }
    *out = s.p;
    if (len) *len = s.n;
    return BASE_OK;
}

enum base_status graph_print_str(const struct graph_module *m, char **out, size_t *len)
{
    return print_str(m, false, out, len);
}

enum base_status graph_print_str_positions(const struct graph_module *m, char **out, size_t *len)
{
    return print_str(m, true, out, len);
}

enum base_status graph_print(const struct graph_module *m, FILE *f)
{
    char *text;
    size_t len;
    TRY(graph_print_str(m, &text, &len));
    size_t w = fwrite(text, 1, len, f);
    free(text);
    return w == len ? BASE_OK : BASE_ERR_IO;
}
