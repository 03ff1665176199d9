/* StableHLO text parser: dense element literals: dense<...> (with its
 * splat, nested list, complex pair and hex forms), dense_resource<...> and the
 * {-# dialect_resources #-} trailer that fills them, and array<...>.  Numbers
 * convert as graph_parse_attr.c describes. */
#include "graph/graph.h"
#include "graph/parse_internal.h"

#include <math.h>
#include <string.h>

/* Literal tensors are materialised; hostile shapes stop here. */
#define MAX_LITERAL_BYTES (UINT64_C(1) << 32)

struct lit {
    struct parser *p;
    enum base_dtype dt;
    enum base_dtype_kind kind;
    size_t esize;
    int bits;
    unsigned char *data;
    const struct graph_type *type;
};

static void store_int(const struct lit *L, unsigned char *dst, uint64_t v)
{
    switch (L->esize) {
    case 1:
        if (L->bits < 8) {
            uint64_t m = (UINT64_C(1) << L->bits) - 1;
            v &= m;
            if (L->kind == BASE_KIND_SINT && (v >> (L->bits - 1))) v |= ~m;
        }
        *dst = (unsigned char)v;
        break;
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(dst, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(dst, &x, 4);
        break;
    }
    default:
        memcpy(dst, &v, 8);
        break;
    }
}

static void store_float_bits(enum base_dtype dt, unsigned char *dst, uint64_t bits)
{
    size_t sz = base_dtype_size(dt);
    if (sz == 1) *dst = (unsigned char)bits;
    else if (sz == 2) {
        uint16_t x = (uint16_t)bits;
        memcpy(dst, &x, 2);
    } else if (sz == 4) {
        uint32_t x = (uint32_t)bits;
        memcpy(dst, &x, 4);
    } else {
        memcpy(dst, &bits, 8);
    }
}

static void store_float(enum base_dtype dt, unsigned char *dst, double d)
{
    if (dt == BASE_DT_F32) {
        float f = (float)d;
        memcpy(dst, &f, 4);
    } else if (dt == BASE_DT_F64) {
        memcpy(dst, &d, 8);
    } else {
        store_float_bits(dt, dst, base_float_bits_from_f64(dt, d));
    }
}

/* One real float element (of type dt) at q. */
static enum base_status lit_float(struct lit *L, enum base_dtype dt, const char **qp, const char *end,
                                  unsigned char *dst)
{
    struct parser *p = L->p;
    const char *q = *qp, *pos = q;
    bool neg = false;
    if (q < end && (*q == '-' || *q == '+')) neg = *q++ == '-';
    struct graph_lex_number num;
    size_t n = graph_lex_number(q, end, &num);
    if (n) {
        if (num.is_hex) {
            int bits = base_dtype_bits(dt);
            if (neg) return graph_perr(p, pos, "a hexadecimal float literal cannot be negative");
            if (num.overflow || (bits < 64 && (num.mag >> bits)))
                return graph_perr(p, pos, "hexadecimal literal does not fit in the %d bits of %s", bits, base_dtype_name(dt));
            store_float_bits(dt, dst, num.mag);
        } else {
            double d;
            TRY(graph_parse_f64_literal(p, q, n, pos, &d));
            store_float(dt, dst, neg ? -d : d);
        }
        *qp = q + n;
        return BASE_OK;
    }
    size_t idn = graph_lex_bare_id(q, end);
    if (idn == 3 && (!memcmp(q, "inf", 3) || !memcmp(q, "nan", 3))) {
        store_float(dt, dst, q[0] == 'i' ? (neg ? -INFINITY : INFINITY) : (neg ? -NAN : NAN));
        *qp = q + 3;
        return BASE_OK;
    }
    char found[48];
    graph_describe_at(p, pos, found, sizeof found);
    return graph_perr(p, pos, "expected a %s literal, found %s", base_dtype_name(dt), found);
}

static enum base_status lit_elem(struct lit *L, const char **qp, const char *end, unsigned char *dst)
{
    struct parser *p = L->p;
    const char *q = graph_lex_skip_ws(*qp, end), *pos = q;
    switch (L->kind) {
    case BASE_KIND_FLOAT:
        TRY(lit_float(L, L->dt, &q, end, dst));
        break;
    case BASE_KIND_COMPLEX: {
        enum base_dtype c = base_dtype_component(L->dt);
        size_t cs = base_dtype_size(c);
        if (q >= end || *q != '(') return graph_perr(p, q, "expected a complex literal (re, im)");
        q = graph_lex_skip_ws(q + 1, end);
        TRY(lit_float(L, c, &q, end, dst));
        q = graph_lex_skip_ws(q, end);
        if (q >= end || *q != ',') return graph_perr(p, q, "expected ',' between the parts of a complex literal");
        q = graph_lex_skip_ws(q + 1, end);
        TRY(lit_float(L, c, &q, end, dst + cs));
        q = graph_lex_skip_ws(q, end);
        if (q >= end || *q != ')') return graph_perr(p, q, "expected ')' to close a complex literal");
        q++;
        break;
    }
    case BASE_KIND_BOOL: {
        size_t idn = graph_lex_bare_id(q, end);
        if (idn == 4 && !memcmp(q, "true", 4)) {
            *dst = 1;
            q += 4;
        } else if (idn == 5 && !memcmp(q, "false", 5)) {
            *dst = 0;
            q += 5;
        } else {
            struct graph_lex_number num;
            size_t n = graph_lex_number(q, end, &num);
            if (!n || num.is_float || num.mag > 1) return graph_perr(p, pos, "expected true, false, 0 or 1 for an i1 element");
            *dst = (unsigned char)num.mag;
            q += n;
        }
        break;
    }
    default: { /* SINT, UINT */
        bool neg = false;
        if (q < end && (*q == '-' || *q == '+')) neg = *q++ == '-';
        struct graph_lex_number num;
        size_t n = graph_lex_number(q, end, &num);
        if (!n) {
            size_t idn = graph_lex_bare_id(q, end);
            if (idn == 4 && !memcmp(q, "true", 4)) num.mag = 1, n = 4;
            else if (idn == 5 && !memcmp(q, "false", 5)) num.mag = 0, n = 5;
            else {
                char found[48];
                graph_describe_at(p, pos, found, sizeof found);
                return graph_perr(p, pos, "expected an integer literal for %s, found %s", base_dtype_name(L->dt), found);
            }
        } else if (num.is_float) {
            return graph_perr(p, pos, "expected an integer literal for %s, found a float", base_dtype_name(L->dt));
        }
        int w = L->bits;
        uint64_t umax = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
        if (num.overflow || num.mag > umax)
            return graph_perr(p, pos, "integer literal is out of range for %s", base_dtype_name(L->dt));
        if (neg) {
            if (L->kind == BASE_KIND_UINT && num.mag)
                return graph_perr(p, pos, "negative literal for unsigned type %s", base_dtype_name(L->dt));
            if (num.mag > (UINT64_C(1) << (w - 1)))
                return graph_perr(p, pos, "integer literal is out of range for %s", base_dtype_name(L->dt));
        }
        store_int(L, dst, neg ? 0 - num.mag : num.mag);
        q += n;
    }
    }
    *qp = q;
    return BASE_OK;
}

static enum base_status lit_list(struct lit *L, const char **qp, const char *end, int level, int64_t *index)
{
    struct parser *p = L->p;
    const struct graph_type *t = L->type;
    const char *q = graph_lex_skip_ws(*qp, end), *pos = q;
    if (q >= end || *q != '[') return graph_perr(p, q, "expected '[' at nesting level %d of the dense literal", level + 1);
    q++;
    int64_t n = 0, want = t->dims[level];
    q = graph_lex_skip_ws(q, end);
    if (q < end && *q == ']') {
        q++;
    } else {
        for (;;) {
            if (n >= want)
                return graph_perr(p, q, "dense literal has more than %lld elements in dimension %d", (long long)want, level);
            if (level + 1 < t->rank) {
                TRY(lit_list(L, &q, end, level + 1, index));
            } else {
                TRY(lit_elem(L, &q, end, L->data + (size_t)*index * L->esize));
                (*index)++;
            }
            n++;
            q = graph_lex_skip_ws(q, end);
            if (q < end && *q == ',') {
                q++;
                continue;
            }
            if (q < end && *q == ']') {
                q++;
                break;
            }
            char found[48];
            graph_describe_at(p, q, found, sizeof found);
            return graph_perr(p, q, "expected ',' or ']' in the dense literal, found %s", found);
        }
    }
    if (n != want)
        return graph_perr(p, pos, "dense literal has %lld elements in dimension %d but its type has %lld", (long long)n,
                    level, (long long)want);
    *qp = q;
    return BASE_OK;
}

static void fill_splat(unsigned char *data, size_t esize, int64_t count)
{
    size_t total = (size_t)count * esize, done = esize;
    while (done < total) {
        size_t n = done < total - done ? done : total - done;
        memcpy(data + done, data, n);
        done += n;
    }
}

static enum base_status decode_hex(struct parser *p, const char *pos, const char *h, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        int hi = graph_lex_hex_digit(h[2 * i]), lo = graph_lex_hex_digit(h[2 * i + 1]);
        if (hi < 0 || lo < 0) return graph_perr(p, pos, "invalid hex digit in a hex literal");
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return BASE_OK;
}

/* Normalises raw element bytes (sub-byte types: mask / sign-extend). */
static void normalize_raw(const struct lit *L, int64_t count)
{
    if (L->esize != 1) return;
    if (L->kind == BASE_KIND_SINT || L->kind == BASE_KIND_UINT) {
        if (L->bits >= 8) return;
        for (int64_t i = 0; i < count; i++) store_int(L, L->data + i, L->data[i]);
    } else if (L->kind == BASE_KIND_BOOL) {
        for (int64_t i = 0; i < count; i++) L->data[i] = L->data[i] ? 1 : 0;
    } else if (L->kind == BASE_KIND_FLOAT && L->bits < 8) {
        for (int64_t i = 0; i < count; i++) L->data[i] &= (unsigned char)((1u << L->bits) - 1);
    }
}

static enum base_status new_literal_tensor(struct parser *p, const char *pos, const struct graph_type *t,
                                           struct base_tensor **out)
{
    if (t->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(t))
        return graph_perr(p, pos, "a dense literal needs a statically shaped tensor type");
    int64_t count = base_shape_count(t->rank, t->dims);
    size_t esize = base_dtype_size(t->elem);
    if (count < 0 || count > p->max_elements || (uint64_t)count * esize > MAX_LITERAL_BYTES)
        return graph_perr_st(p, pos, BASE_ERR_LIMIT, "dense literal is too large (%lld elements)", (long long)count);
    enum base_status st = base_tensor_create(t->elem, t->rank, t->dims, out);
    if (st != BASE_OK) return graph_perr_st(p, pos, st, "cannot allocate a literal of %lld elements", (long long)count);
    st = graph_parse_track_tensor(p, *out);
    if (st != BASE_OK) {
        base_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

static enum base_status parse_literal_body(struct parser *p, const char *q, const char *end,
                                           const struct graph_type *t, struct base_tensor **out)
{
    struct base_tensor *tensor;
    TRY(new_literal_tensor(p, q, t, &tensor));
    struct lit L = {p, t->elem, base_dtype_kind(t->elem), base_dtype_size(t->elem), base_dtype_bits(t->elem),
                    tensor->data, t};
    int64_t count = tensor->count;
    q = graph_lex_skip_ws(q, end);
    if (q >= end) {
        if (count != 0) return graph_perr(p, q, "empty dense literal for a type with %lld elements", (long long)count);
    } else if (*q == '"') {
        size_t sn = graph_lex_string(q, end);
        if (!sn || sn < 4 || q[1] != '0' || (q[2] != 'x' && q[2] != 'X'))
            return graph_perr(p, q, "expected a hex string \"0x...\" in the dense literal");
        const char *h = q + 3;
        size_t hn = sn - 4;
        if (hn % 2) return graph_perr(p, q, "hex literal has an odd number of digits");
        size_t bytes = hn / 2;
        size_t need = (size_t)count * L.esize;
        size_t packed = ((size_t)count + 7) / 8;
        if (L.kind == BASE_KIND_BOOL && count > 1 && bytes == packed && bytes != need) {
            /* MLIR's own i1 storage: bit-packed, element 0 in the lowest bit
             * of byte 0; one byte of 0x00 or 0xFF is a splat. */
            TRY(decode_hex(p, q, h, bytes, L.data));
            if (bytes == 1 && (L.data[0] == 0 || L.data[0] == 0xFF)) {
                L.data[0] = L.data[0] ? 1 : 0;
                fill_splat(L.data, 1, count);
            } else {
                for (int64_t i = count - 1; i >= 0; i--) L.data[i] = (L.data[i / 8] >> (i % 8)) & 1;
            }
        } else if (bytes == need) {
            TRY(decode_hex(p, q, h, bytes, L.data));
            normalize_raw(&L, count);
        } else if (bytes == L.esize && count > 0) {
            TRY(decode_hex(p, q, h, bytes, L.data));
            normalize_raw(&L, 1);
            fill_splat(L.data, L.esize, count);
        } else {
            if (L.kind == BASE_KIND_BOOL)
                return graph_perr(p, q, "hex literal has %zu bytes but %s needs %zu (one byte per element), %zu "
                                  "(bit-packed) or 1 (a splat)", bytes, base_dtype_name(t->elem), need, packed);
            return graph_perr(p, q, "hex literal has %zu bytes but %s needs %zu (or one element, %zu)", bytes,
                        base_dtype_name(t->elem), need, L.esize);
        }
        q += sn;
    } else if (*q == '[') {
        int64_t index = 0;
        if (t->rank == 0) return graph_perr(p, q, "a rank-0 literal is a single value, not a list");
        TRY(lit_list(&L, &q, end, 0, &index));
    } else {
        unsigned char elem[16];
        struct lit E = L;
        E.data = elem;
        TRY(lit_elem(&E, &q, end, elem));
        if (count) {
            memcpy(L.data, elem, L.esize);
            fill_splat(L.data, L.esize, count);
        }
    }
    q = graph_lex_skip_ws(q, end);
    if (q < end) {
        char found[48];
        graph_describe_at(p, q, found, sizeof found);
        return graph_perr(p, q, "unexpected %s after the dense literal", found);
    }
    *out = tensor;
    return BASE_OK;
}

/* After "dense": scans <literal> and returns its text span. */
static enum base_status scan_dense(struct parser *p, const char **lit, const char **lit_end)
{
    TRY(expect_char(p, '<', "after 'dense'"));
    const char *q = p->cur;
    *lit = q;
    while (q < p->end && *q != '>') {
        if (*q == '"') {
            size_t n = graph_lex_string(q, p->end);
            if (!n) return graph_perr(p, q, "unterminated string in the dense literal");
            q += n;
            continue;
        }
        if (*q == '/' && q + 1 < p->end && q[1] == '/') {
            q = graph_lex_skip_ws(q, p->end);
            continue;
        }
        if (*q == '<' || *q == '{' || *q == '}') return graph_perr(p, q, "unexpected '%c' in a dense literal", *q);
        q++;
    }
    if (q >= p->end) return graph_perr(p, *lit, "unclosed dense literal: missing '>'");
    *lit_end = q;
    p->cur = q + 1;
    return BASE_OK;
}

/* ': type' after a dense literal, then the literal is read with that type */
static enum base_status finish_dense(struct parser *p, const char *lit, const char *lit_end,
                                     const struct graph_attr **out)
{
    TRY(expect_char(p, ':', "and a type after the dense literal"));
    const struct graph_type *t;
    TRY(graph_parse_type(p, &t));
    struct base_tensor *tensor = NULL;
    TRY(parse_literal_body(p, lit, lit_end, t, &tensor));
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_ELEMENTS);
    if (!a) return nomem(p);
    a->u.elements.type = t;
    a->u.elements.value = tensor;
    *out = a;
    return BASE_OK;
}

enum base_status graph_parse_dense(struct parser *p, const struct graph_attr **out)
{
    const char *lit, *lit_end;
    TRY(scan_dense(p, &lit, &lit_end));
    return finish_dense(p, lit, lit_end, out);
}

/* check.expect_almost_eq_const: dense<...>, tolerance = X : T is accepted too */
enum base_status graph_parse_elements_attr_tol(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    size_t n = graph_lex_bare_id(pos, p->end);
    if (n != 5 || memcmp(pos, "dense", 5)) return graph_parse_elements_attr(p, out);
    p->cur += 5;
    const char *lit, *lit_end;
    TRY(scan_dense(p, &lit, &lit_end));
    if (at_char(p, ',')) {
        const char *q = graph_lex_skip_ws(p->cur + 1, p->end);
        if (graph_lex_bare_id(q, p->end) == 9 && !memcmp(q, "tolerance", 9)) {
            p->cur = q + 9;
            TRY(expect_char(p, '=', "after 'tolerance'"));
            const struct graph_attr *t;
            TRY(graph_parse_float_attr_value(p, BASE_DT_F64, &t));
            TRY(graph_push_attr(p, "tolerance", t));
        }
    }
    return finish_dense(p, lit, lit_end, out);
}

enum base_status graph_parse_elements_attr(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    size_t n = graph_lex_bare_id(pos, p->end);
    if (n == 5 && !memcmp(pos, "dense", 5)) {
        p->cur += 5;
        return graph_parse_dense(p, out);
    }
    TRY(graph_parse_attr(p, out));
    if ((*out)->kind != GRAPH_ATTR_ELEMENTS) return graph_perr(p, pos, "expected a dense<...> literal");
    return BASE_OK;
}

/* After "dense_resource": <name> : type */
enum base_status graph_parse_dense_resource(struct parser *p, const struct graph_attr **out)
{
    const char *pos = p->cur;
    TRY(expect_char(p, '<', "after 'dense_resource'"));
    skip_ws(p);
    size_t n = graph_lex_suffix_id(p->cur, p->end);
    if (!n) return graph_perr(p, p->cur, "expected a resource name in dense_resource<...>");
    const char *name = graph_pstrndup(p, p->cur, n);
    if (!name) return nomem(p);
    p->cur += n;
    TRY(expect_char(p, '>', "to close dense_resource<...>"));
    TRY(expect_char(p, ':', "and a type after dense_resource<...>"));
    const struct graph_type *t;
    TRY(graph_parse_type(p, &t));
    if (t->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(t))
        return graph_perr(p, pos, "dense_resource needs a statically shaped tensor type");
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_ELEMENTS);
    if (!a) return nomem(p);
    a->u.elements.type = t;
    a->u.elements.resource = name;
    struct pending_resource r = {a, pos};
    TRY(ps_push(p, &p->resources, &r));
    *out = a;
    return BASE_OK;
}

/* {-# dialect_resources: { builtin: { name: "0x..." } } #-} */
enum base_status graph_parse_resource_trailer(struct parser *p)
{
    const char *pos = p->cur;
    TRY(graph_expect_str(p, "{-#", "to open the resource section"));
    TRY(graph_enter_nesting(p, pos));
    while (!graph_accept_str(p, "#-}")) {
        const char *sec;
        size_t sn;
        TRY(graph_expect_bare_id(p, &sec, &sn, "(resource section name)"));
        TRY(expect_char(p, ':', "after the resource section name"));
        TRY(expect_char(p, '{', "to open the resource section"));
        bool dialect = sn == 17 && !memcmp(sec, "dialect_resources", 17);
        if (!accept_char(p, '}')) {
            do {
                const char *dn;
                size_t dl;
                TRY(graph_expect_bare_id(p, &dn, &dl, "(resource dialect)"));
                TRY(expect_char(p, ':', "after the resource dialect"));
                TRY(expect_char(p, '{', "to open the resource entries"));
                if (!accept_char(p, '}')) {
                    do {
                        skip_ws(p);
                        const char *kpos = p->cur;
                        size_t kn = graph_lex_suffix_id(kpos, p->end);
                        if (!kn) return graph_perr(p, kpos, "expected a resource name");
                        p->cur += kn;
                        TRY(expect_char(p, ':', "after the resource name"));
                        skip_ws(p);
                        const char *vpos = p->cur;
                        size_t vn = graph_lex_string(vpos, p->end);
                        if (vn) {
                            p->cur += vn;
                        } else {
                            const struct graph_attr *ignored;
                            TRY(graph_parse_attr(p, &ignored));
                        }
                        if (dialect && vn && dl == 7 && !memcmp(dn, "builtin", 7)) {
                            struct blob_entry b = {kpos, kn, vpos, vn};
                            TRY(ps_push(p, &p->blobs, &b));
                        }
                    } while (accept_char(p, ','));
                    TRY(expect_char(p, '}', "to close the resource entries"));
                }
            } while (accept_char(p, ','));
            TRY(expect_char(p, '}', "to close the resource section"));
        }
        accept_char(p, ',');
        skip_ws(p);
        if (p->cur >= p->end) return graph_perr(p, pos, "unclosed resource section: missing '#-}'");
    }
    leave_nesting(p);
    return BASE_OK;
}

enum base_status graph_resolve_resources(struct parser *p)
{
    for (size_t i = 0; i < p->resources.n; i++) {
        struct pending_resource *r = ps_at(&p->resources, i);
        const char *name = r->attr->u.elements.resource;
        size_t nl = strlen(name);
        const struct blob_entry *blob = NULL;
        for (size_t j = 0; j < p->blobs.n; j++) {
            const struct blob_entry *b = ps_at(&p->blobs, j);
            if (b->len == nl && !memcmp(b->name, name, nl)) blob = b;
        }
        if (!blob) continue; /* absent: the literal has no data */
        const char *s = blob->text;
        size_t sn = blob->text_len;
        if (sn < 4 || s[1] != '0' || (s[2] != 'x' && s[2] != 'X') || (sn - 4) % 2)
            return graph_perr(p, blob->name, "resource '%s' is not a hex string \"0x...\"", name);
        size_t bytes = (sn - 4) / 2;
        if (bytes < 4) return graph_perr(p, blob->name, "resource '%s' lacks its 4-byte alignment header", name);
        const struct graph_type *t = r->attr->u.elements.type;
        struct base_tensor *tensor;
        TRY(new_literal_tensor(p, r->pos, t, &tensor));
        size_t need = base_tensor_nbytes(tensor);
        if (bytes - 4 != need)
            return graph_perr(p, r->pos, "resource '%s' holds %zu bytes but %s needs %zu", name, bytes - 4,
                        base_dtype_name(t->elem), need);
        TRY(decode_hex(p, blob->name, s + 3 + 8, need, tensor->data));
        struct lit L = {p, t->elem, base_dtype_kind(t->elem), base_dtype_size(t->elem), base_dtype_bits(t->elem),
                        tensor->data, t};
        normalize_raw(&L, tensor->count);
        r->attr->u.elements.value = tensor;
    }
    return BASE_OK;
}

/* array<i64: 1, 2> */
enum base_status graph_parse_dense_array(struct parser *p, const struct graph_attr **out)
{
    TRY(expect_char(p, '<', "after 'array'"));
    skip_ws(p);
    const char *tpos = p->cur;
    size_t n;
    const char *id = graph_take_bare_id(p, &n);
    enum base_dtype dt;
    if (!n || !base_dtype_parse(id, n, &dt) || base_dtype_is_complex(dt))
        return graph_perr(p, tpos, "expected the element type of array<...>");
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_DENSE_ARRAY);
    if (!a) return nomem(p);
    a->elem = dt;
    bool fl = base_dtype_is_float(dt);
    size_t base = fl ? p->f64s.n : p->i64s.n;
    if (accept_char(p, ':')) {
        do {
            skip_ws(p);
            const char *vpos = p->cur;
            if (fl) {
                double d;
                TRY(graph_parse_f64_lit(p, &d, "in array<...>"));
                d = graph_parse_round_float(dt, d);
                TRY(ps_push(p, &p->f64s, &d));
            } else {
                int64_t v;
                if (graph_accept_kw(p, "true")) v = 1;
                else if (graph_accept_kw(p, "false")) v = 0;
                else TRY(graph_parse_int_lit(p, &v, "in array<...>"));
                if (dt == BASE_DT_I1 && (v < 0 || v > 1)) return graph_perr(p, vpos, "an i1 array holds true or false");
                TRY(ps_push(p, &p->i64s, &v));
            }
            if ((fl ? p->f64s.n : p->i64s.n) - base > (size_t)p->max_elements)
                return graph_perr_st(p, vpos, BASE_ERR_LIMIT, "array<...> has too many elements");
        } while (accept_char(p, ','));
    }
    TRY(expect_char(p, '>', "to close array<...>"));
    void *tmp;
    if (fl) {
        TRY(graph_ps_take(p, &p->f64s, base, &tmp, &a->u.dense.n));
        a->u.dense.f = tmp ? tmp : graph_palloc(p, sizeof(double));
    } else {
        TRY(graph_ps_take(p, &p->i64s, base, &tmp, &a->u.dense.n));
        a->u.dense.i = tmp ? tmp : graph_palloc(p, sizeof(int64_t));
    }
    if (!a->u.dense.f && !a->u.dense.i) return nomem(p);
    *out = a;
    return BASE_OK;
}

/* [1, -2, 3] -> DENSE_ARRAY i64 */
enum base_status graph_parse_dense_i64_list(struct parser *p, const struct graph_attr **out)
{
    TRY(expect_char(p, '[', "to open an integer list"));
    size_t base = p->i64s.n;
    if (!accept_char(p, ']')) {
        do {
            int64_t v;
            TRY(graph_parse_int_lit(p, &v, "in the list"));
            TRY(ps_push(p, &p->i64s, &v));
            if (p->i64s.n - base > (size_t)p->max_elements)
                return graph_perr_st(p, p->cur, BASE_ERR_LIMIT, "integer list is too long");
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the integer list"));
    }
    *out = graph_attr_dense_i64(p, ps_at(&p->i64s, base), (int)(p->i64s.n - base));
    p->i64s.n = base;
    return *out ? BASE_OK : nomem(p);
}
