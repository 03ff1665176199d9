/* MLIR bytecode: the container (sections, strings, dialects, op names, the
 * attribute/type tables, resources, properties) and the IR section, read
 * into StableHLO generic text that graph_parse then reads.
 *
 * The format is MLIR's (mlir/docs/BytecodeFormat.md), versions 0 to 6 of it:
 * StableHLO portable artifacts use 0 (StableHLO 0.9), 1 (0.10-0.11),
 * 3 (0.12-0.13), 4 (0.14) and 6 (0.15 on).  Every read is bounds-checked and
 * every count is checked against the bytes left before anything is
 * allocated, so a hostile file costs at most a few times its size in memory;
 * a bad byte gives a located error "file:1:<offset+1>" naming the section. */
#include "graph/bytecode_internal.h"
#include "graph/lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SEC_STRING = 0,
    SEC_DIALECT = 1,
    SEC_ATTR_TYPE = 2,
    SEC_ATTR_TYPE_OFFSET = 3,
    SEC_IR = 4,
    SEC_RESOURCE = 5,
    SEC_RESOURCE_OFFSET = 6,
    SEC_DIALECT_VERSIONS = 7,
    SEC_PROPERTIES = 8,
    SEC_COUNT = 9,
};

static const char *const section_names[SEC_COUNT] = {
    "String", "Dialect", "AttrType", "AttrTypeOffset", "IR", "Resource", "ResourceOffset", "DialectVersions",
    "Properties"};

enum {
    OP_HAS_ATTRS = 0x01,
    OP_HAS_RESULTS = 0x02,
    OP_HAS_OPERANDS = 0x04,
    OP_HAS_SUCCESSORS = 0x08,
    OP_HAS_REGIONS = 0x10,
    OP_HAS_USE_LISTS = 0x20,
    OP_HAS_PROPERTIES = 0x40,
};

#define BC_MAX_VERSION 6

/* ------------------------------------------------------------------------ */
/* Primitives                                                                */

enum base_status graph_bc_fail(struct bc_ctx *c, const struct bc_rd *r, enum base_status st, const char *fmt, ...)
{
    size_t off = r && r->p >= c->base && r->p <= c->base + c->size ? (size_t)(r->p - c->base) : 0;
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *path = c->path && c->path[0] ? c->path : "<bytecode>";
    return base_diag_set(c->diag, st, path, 1, off + 1 > INT32_MAX ? INT32_MAX : (int)(off + 1),
                         "%s (byte %zu, %s section)", msg, off, r && r->sect ? r->sect : "header");
}

enum base_status graph_bc_nomem(struct bc_ctx *c)
{
    const char *path = c->path && c->path[0] ? c->path : "<bytecode>";
    return base_diag_set(c->diag, BASE_ERR_NOMEM, path, 1, 1, "out of memory reading bytecode");
}

void *graph_bc_alloc(struct bc_ctx *c, size_t n)
{
    return base_arena_alloc(&c->arena, n ? n : 1);
}

static enum base_status need(struct bc_ctx *c, struct bc_rd *r, size_t n, const char *what)
{
    if ((size_t)(r->end - r->p) < n)
        return graph_bc_fail(c, r, BASE_ERR_PARSE, "truncated: %s needs %zu bytes, %zu left", what, n,
                             (size_t)(r->end - r->p));
    return BASE_OK;
}

enum base_status graph_bc_byte(struct bc_ctx *c, struct bc_rd *r, uint8_t *out)
{
    TRY(need(c, r, 1, "a byte"));
    *out = *r->p++;
    return BASE_OK;
}

/* PrefixVarInt: the count of trailing zero bits of the first byte is the
 * count of bytes that follow; 0x00 means 8 more bytes (64 value bits). */
enum base_status graph_bc_varint(struct bc_ctx *c, struct bc_rd *r, uint64_t *out)
{
    TRY(need(c, r, 1, "a varint"));
    uint8_t b = r->p[0];
    if (b & 1) {
        r->p++;
        *out = b >> 1;
        return BASE_OK;
    }
    if (b == 0) {
        TRY(need(c, r, 9, "a 9-byte varint"));
        uint64_t v = 0;
        for (int i = 8; i >= 1; i--) v = (v << 8) | r->p[i];
        r->p += 9;
        *out = v;
        return BASE_OK;
    }
    int extra = 0;
    while (!(b & (1u << extra))) extra++;
    TRY(need(c, r, (size_t)extra + 1, "a varint"));
    uint64_t v = 0;
    for (int i = extra; i >= 0; i--) v = (v << 8) | r->p[i];
    r->p += extra + 1;
    *out = v >> (extra + 1);
    return BASE_OK;
}

enum base_status graph_bc_svarint(struct bc_ctx *c, struct bc_rd *r, int64_t *out)
{
    uint64_t v;
    TRY(graph_bc_varint(c, r, &v));
    *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
    return BASE_OK;
}

/* A count of items that each take at least elem_min_bytes of what is left. */
enum base_status graph_bc_count(struct bc_ctx *c, struct bc_rd *r, size_t elem_min_bytes, uint64_t *out)
{
    const uint8_t *at = r->p;
    TRY(graph_bc_varint(c, r, out));
    if (elem_min_bytes && *out > (uint64_t)(r->end - r->p) / elem_min_bytes) {
        struct bc_rd here = {at, r->end, r->sect};
        return graph_bc_fail(c, &here, BASE_ERR_PARSE, "count %llu exceeds the %zu bytes left", (unsigned long long)*out,
                             (size_t)(r->end - r->p));
    }
    return BASE_OK;
}

static enum base_status varint_flag(struct bc_ctx *c, struct bc_rd *r, uint64_t *v, bool *flag)
{
    TRY(graph_bc_varint(c, r, v));
    *flag = *v & 1;
    *v >>= 1;
    return BASE_OK;
}

static enum base_status string_at(struct bc_ctx *c, const struct bc_rd *r, uint64_t idx, struct bc_span *out)
{
    if (idx >= c->n_strings)
        return graph_bc_fail(c, r, BASE_ERR_PARSE, "string index %llu out of range (%llu strings)", (unsigned long long)idx,
                             (unsigned long long)c->n_strings);
    *out = c->strings[idx];
    return BASE_OK;
}

enum base_status graph_bc_string(struct bc_ctx *c, struct bc_rd *r, struct bc_span *out)
{
    struct bc_rd at = *r;
    uint64_t idx;
    TRY(graph_bc_varint(c, r, &idx));
    return string_at(c, &at, idx, out);
}

enum base_status graph_bc_blob(struct bc_ctx *c, struct bc_rd *r, struct bc_span *out)
{
    uint64_t n;
    TRY(graph_bc_varint(c, r, &n));
    if (n > (uint64_t)(r->end - r->p))
        return graph_bc_fail(c, r, BASE_ERR_PARSE, "blob of %llu bytes exceeds the %zu bytes left", (unsigned long long)n,
                             (size_t)(r->end - r->p));
    out->p = r->p;
    out->len = (size_t)n;
    r->p += n;
    return BASE_OK;
}

enum base_status graph_bc_apint(struct bc_ctx *c, struct bc_rd *r, int bits, uint64_t *out)
{
    if (bits <= 8) {
        uint8_t b;
        TRY(graph_bc_byte(c, r, &b));
        *out = b;
        return BASE_OK;
    }
    if (bits <= 64) {
        int64_t v;
        TRY(graph_bc_svarint(c, r, &v));
        *out = (uint64_t)v;
        return BASE_OK;
    }
    return graph_bc_fail(c, r, BASE_ERR_UNSUPPORTED, "integers of %d bits are not supported", bits);
}

/* A section: id (high bit: aligned), length, [alignment, 0xCB padding], data.
 * Alignment is relative to the start of the file. */
static enum base_status read_section(struct bc_ctx *c, struct bc_rd *r, int *id, struct bc_rd *data)
{
    uint8_t idb;
    uint64_t len;
    struct bc_rd at = *r;
    TRY(graph_bc_byte(c, r, &idb));
    TRY(graph_bc_varint(c, r, &len));
    *id = idb & 0x7f;
    if (*id >= SEC_COUNT) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "unknown section id %d", *id);
    if (idb & 0x80) {
        uint64_t align;
        TRY(graph_bc_varint(c, r, &align));
        if (align == 0 || (align & (align - 1)) || align > ((uint64_t)1 << 32))
            return graph_bc_fail(c, r, BASE_ERR_PARSE, "section alignment %llu is not a power of two",
                                 (unsigned long long)align);
        while ((size_t)(r->p - c->base) % align) {
            uint8_t pad;
            TRY(graph_bc_byte(c, r, &pad));
            if (pad != 0xCB) return graph_bc_fail(c, r, BASE_ERR_PARSE, "bad alignment padding byte 0x%02X", pad);
        }
    }
    if (len > (uint64_t)(r->end - r->p))
        return graph_bc_fail(c, r, BASE_ERR_PARSE, "%s section of %llu bytes exceeds the %zu bytes left",
                             section_names[*id], (unsigned long long)len, (size_t)(r->end - r->p));
    data->p = r->p;
    data->end = r->p + len;
    data->sect = section_names[*id];
    r->p += len;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */

static enum base_status read_strings(struct bc_ctx *c, struct bc_rd r)
{
    TRY(graph_bc_count(c, &r, 1, &c->n_strings));
    c->strings = graph_bc_alloc(c, (size_t)c->n_strings * sizeof *c->strings);
    if (!c->strings) return graph_bc_nomem(c);
    size_t end = (size_t)(r.end - r.p);
    const uint8_t *data0 = r.p; /* the lengths, then the data; data ends at r.end */
    uint64_t *lens = malloc((size_t)(c->n_strings ? c->n_strings : 1) * sizeof *lens);
    if (!lens) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < c->n_strings; i++) {
        enum base_status st = graph_bc_varint(c, &r, &lens[c->n_strings - 1 - i]);
        if (st != BASE_OK) {
            free(lens);
            return st;
        }
    }
    size_t lens_bytes = (size_t)(r.p - data0);
    size_t pos = end;
    for (uint64_t k = c->n_strings; k-- > 0;) {
        uint64_t n = lens[k];
        if (n == 0 || n > pos - lens_bytes) {
            free(lens);
            return graph_bc_fail(c, &r, BASE_ERR_PARSE, "string %llu of %llu bytes does not fit the string section",
                                 (unsigned long long)k, (unsigned long long)n);
        }
        pos -= (size_t)n;
        c->strings[k].p = data0 + pos;
        c->strings[k].len = (size_t)n - 1; /* the NUL */
    }
    free(lens);
    if (pos != lens_bytes)
        return graph_bc_fail(c, &r, BASE_ERR_PARSE, "%zu stray bytes between the string lengths and their data",
                             pos - lens_bytes);
    return BASE_OK;
}

static enum base_status read_dialects(struct bc_ctx *c, struct bc_rd r)
{
    TRY(graph_bc_count(c, &r, 1, &c->n_dialects));
    c->dialects = graph_bc_alloc(c, (size_t)c->n_dialects * sizeof *c->dialects);
    if (!c->dialects) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < c->n_dialects; i++) {
        if (c->version < 1) {
            TRY(graph_bc_string(c, &r, &c->dialects[i]));
            continue;
        }
        struct bc_rd at = r;
        uint64_t idx;
        bool versioned;
        TRY(varint_flag(c, &r, &idx, &versioned));
        TRY(string_at(c, &at, idx, &c->dialects[i]));
        if (versioned) { /* the dialect's version: not needed to read VHLO */
            int id;
            struct bc_rd v;
            TRY(read_section(c, &r, &id, &v));
            if (id != SEC_DIALECT_VERSIONS)
                return graph_bc_fail(c, &r, BASE_ERR_PARSE, "expected a dialect version section, found %s",
                                     section_names[id]);
        }
    }
    if (c->version >= 4) {
        uint64_t n_ops;
        TRY(graph_bc_count(c, &r, 1, &n_ops));
    }
    /* op names, grouped by dialect: at most one name per remaining byte */
    size_t cap = (size_t)(r.end - r.p) + 1;
    c->opnames = graph_bc_alloc(c, cap * sizeof *c->opnames);
    if (!c->opnames) return graph_bc_nomem(c);
    while (r.p < r.end) {
        struct bc_rd at = r;
        uint64_t d, n;
        TRY(graph_bc_varint(c, &r, &d));
        if (d >= c->n_dialects)
            return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dialect index %llu out of range", (unsigned long long)d);
        TRY(graph_bc_count(c, &r, 1, &n));
        for (uint64_t k = 0; k < n; k++) {
            struct bc_opname *o = &c->opnames[c->n_opnames];
            struct bc_rd at2 = r;
            uint64_t idx;
            bool reg = false;
            if (c->version >= 5) TRY(varint_flag(c, &r, &idx, &reg));
            else TRY(graph_bc_varint(c, &r, &idx));
            TRY(string_at(c, &at2, idx, &o->name));
            o->dialect = (uint32_t)d;
            o->registered = c->version >= 5 ? reg : -1;
            const struct bc_span *dn = &c->dialects[d];
            o->full = graph_bc_alloc(c, dn->len + o->name.len + 2);
            if (!o->full) return graph_bc_nomem(c);
            memcpy(o->full, dn->p, dn->len);
            o->full[dn->len] = '.';
            memcpy(o->full + dn->len + 1, o->name.p, o->name.len);
            o->full[dn->len + 1 + o->name.len] = 0;
            o->vhlo_op = dn->len == 4 && !memcmp(dn->p, "vhlo", 4)
                             ? graph_bc_vhlo_op_find((const char *)o->name.p, o->name.len)
                             : -1;
            c->n_opnames++;
        }
    }
    return BASE_OK;
}

static enum base_status read_attr_type_offsets(struct bc_ctx *c, struct bc_rd r, struct bc_rd data)
{
    TRY(graph_bc_count(c, &r, 1, &c->n_attrs));
    TRY(graph_bc_count(c, &r, 1, &c->n_types));
    if (c->n_attrs + c->n_types > (uint64_t)(r.end - r.p))
        return graph_bc_fail(c, &r, BASE_ERR_PARSE, "%llu attributes and types do not fit the offset section",
                             (unsigned long long)(c->n_attrs + c->n_types));
    c->attrs = graph_bc_alloc(c, (size_t)c->n_attrs * sizeof *c->attrs);
    c->types = graph_bc_alloc(c, (size_t)c->n_types * sizeof *c->types);
    if (!c->attrs || !c->types) return graph_bc_nomem(c);
    memset(c->attrs, 0, (size_t)c->n_attrs * sizeof *c->attrs);
    memset(c->types, 0, (size_t)c->n_types * sizeof *c->types);
    size_t off = 0, total = (size_t)(data.end - data.p);
    for (int pass = 0; pass < 2; pass++) {
        struct bc_entry *e = pass ? c->types : c->attrs;
        uint64_t n = pass ? c->n_types : c->n_attrs, i = 0;
        while (i < n) {
            struct bc_rd at = r;
            uint64_t d, k;
            TRY(graph_bc_varint(c, &r, &d));
            if (d >= c->n_dialects)
                return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dialect index %llu out of range", (unsigned long long)d);
            TRY(graph_bc_varint(c, &r, &k));
            if (k > n - i)
                return graph_bc_fail(c, &at, BASE_ERR_PARSE, "group of %llu entries overruns the %llu %s",
                                     (unsigned long long)k, (unsigned long long)n, pass ? "types" : "attributes");
            for (uint64_t j = 0; j < k; j++, i++) {
                uint64_t size;
                bool custom;
                TRY(varint_flag(c, &r, &size, &custom));
                if (size > total - off)
                    return graph_bc_fail(c, &r, BASE_ERR_PARSE, "entry of %llu bytes runs past the AttrType section",
                                         (unsigned long long)size);
                e[i].data.p = data.p + off;
                e[i].data.len = (size_t)size;
                e[i].dialect = (uint32_t)d;
                e[i].custom = custom;
                off += (size_t)size;
            }
        }
    }
    if (r.p != r.end) return graph_bc_fail(c, &r, BASE_ERR_PARSE, "trailing bytes in the attribute/type offsets");
    return BASE_OK;
}

static enum base_status read_resource_group(struct bc_ctx *c, struct bc_rd *r, struct bc_rd *data, bool keep)
{
    uint64_t n;
    TRY(graph_bc_count(c, r, 3, &n));
    for (uint64_t i = 0; i < n; i++) {
        struct bc_resource res;
        memset(&res, 0, sizeof res);
        uint64_t size;
        TRY(graph_bc_string(c, r, &res.key));
        TRY(graph_bc_varint(c, r, &size));
        TRY(graph_bc_byte(c, r, &res.kind));
        if (size > (uint64_t)(data->end - data->p))
            return graph_bc_fail(c, r, BASE_ERR_PARSE, "resource of %llu bytes runs past the Resource section",
                                 (unsigned long long)size);
        struct bc_rd v = {data->p, data->p + size, "Resource"};
        data->p += size;
        if (!keep) continue;
        if (res.kind == 0 && size) { /* blob: alignment, size, padding, bytes */
            uint64_t bsize;
            TRY(graph_bc_varint(c, &v, &res.align));
            TRY(graph_bc_varint(c, &v, &bsize));
            if (res.align == 0 || (res.align & (res.align - 1)) || res.align > ((uint64_t)1 << 32))
                return graph_bc_fail(c, &v, BASE_ERR_PARSE, "resource alignment %llu is not a power of two",
                                     (unsigned long long)res.align);
            while ((size_t)(v.p - c->base) % res.align) {
                uint8_t pad;
                TRY(graph_bc_byte(c, &v, &pad));
                if (pad != 0xCB) return graph_bc_fail(c, &v, BASE_ERR_PARSE, "bad resource padding byte 0x%02X", pad);
            }
            if (bsize != (uint64_t)(v.end - v.p))
                return graph_bc_fail(c, &v, BASE_ERR_PARSE, "resource blob of %llu bytes in an entry of %zu",
                                     (unsigned long long)bsize, (size_t)(v.end - v.p));
        }
        res.data.p = v.p;
        res.data.len = (size_t)(v.end - v.p);
        c->resources[c->n_resources++] = res;
    }
    return BASE_OK;
}

static enum base_status read_resources(struct bc_ctx *c, struct bc_rd data, struct bc_rd r)
{
    size_t cap = (size_t)(r.end - r.p) / 3 + 1;
    c->resources = graph_bc_alloc(c, cap * sizeof *c->resources);
    if (!c->resources) return graph_bc_nomem(c);
    uint64_t n_ext;
    TRY(graph_bc_count(c, &r, 2, &n_ext));
    for (uint64_t i = 0; i < n_ext; i++) { /* external resources: skipped */
        struct bc_span key;
        TRY(graph_bc_string(c, &r, &key));
        TRY(read_resource_group(c, &r, &data, false));
    }
    while (r.p < r.end) { /* dialect resources, in handle order */
        struct bc_rd at = r;
        uint64_t d;
        TRY(graph_bc_varint(c, &r, &d));
        if (d >= c->n_dialects)
            return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dialect index %llu out of range", (unsigned long long)d);
        TRY(read_resource_group(c, &r, &data, true));
    }
    return BASE_OK;
}

static enum base_status read_properties(struct bc_ctx *c, struct bc_rd r)
{
    if (r.p == r.end) return BASE_OK;
    TRY(graph_bc_count(c, &r, 1, &c->n_props));
    c->props.p = r.p;
    c->props.len = (size_t)(r.end - r.p);
    c->prop_off = graph_bc_alloc(c, (size_t)c->n_props * sizeof *c->prop_off);
    if (!c->prop_off) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < c->n_props; i++) {
        c->prop_off[i] = (size_t)(r.p - c->props.p);
        struct bc_span b;
        TRY(graph_bc_blob(c, &r, &b));
    }
    if (r.p != r.end) return graph_bc_fail(c, &r, BASE_ERR_PARSE, "trailing bytes in the properties section");
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Attributes and types of the builtin dialect                               */

static bool span_is(struct bc_span s, const char *t)
{
    size_t n = strlen(t);
    return s.len == n && !memcmp(s.p, t, n);
}

static enum base_status read_attr_list(struct bc_ctx *c, struct bc_rd *r, int64_t *n, const struct bc_attr *const **out)
{
    uint64_t k;
    TRY(graph_bc_count(c, r, 1, &k));
    const struct bc_attr **v = graph_bc_alloc(c, (size_t)k * sizeof *v);
    if (!v) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < k; i++) TRY(graph_bc_attr_ref(c, r, &v[i]));
    *n = (int64_t)k;
    *out = v;
    return BASE_OK;
}

enum base_status graph_bc_type_list(struct bc_ctx *c, struct bc_rd *r, int64_t *n, const struct bc_type ***out)
{
    uint64_t k;
    TRY(graph_bc_count(c, r, 1, &k));
    const struct bc_type **v = graph_bc_alloc(c, (size_t)k * sizeof *v);
    if (!v) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < k; i++) TRY(graph_bc_type_ref(c, r, &v[i]));
    *n = (int64_t)k;
    *out = v;
    return BASE_OK;
}

static enum base_status read_dims(struct bc_ctx *c, struct bc_rd *r, int64_t *rank, const int64_t **dims)
{
    uint64_t k;
    TRY(graph_bc_count(c, r, 1, &k));
    int64_t *d = graph_bc_alloc(c, (size_t)k * sizeof *d);
    if (!d) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < k; i++) TRY(graph_bc_svarint(c, r, &d[i]));
    *rank = (int64_t)k;
    *dims = d;
    return BASE_OK;
}

struct bc_type *graph_bc_scalar(struct bc_ctx *c, const char *name)
{
    struct bc_type *t = graph_bc_alloc(c, sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->kind = BCT_SCALAR;
    t->name = name;
    enum base_dtype dt;
    t->dtype = base_dtype_parse(name, strlen(name), &dt) ? (int)dt : -1;
    if (t->dtype >= 0) {
        int bits = base_dtype_bits(dt);
        t->storage_bits = bits == 1 ? 1 : (bits + 7) / 8 * 8;
    } else if (!strcmp(name, "tf32")) {
        t->storage_bits = 24;
    } else if (!strcmp(name, "f80") || !strcmp(name, "f128")) {
        t->storage_bits = 128;
    }
    return t;
}

static enum base_status builtin_type(struct bc_ctx *c, struct bc_rd *r, const struct bc_type **out)
{
    static const char *const floats[] = {NULL,   NULL,       NULL,       "bf16",      "f16",          "f32",
                                         "f64",  "f80",      "f128"};
    static const char *const floats2[] = {"tf32",       "f8E5M2",        "f8E4M3",     "f8E4M3FN",
                                          "f8E5M2FNUZ", "f8E4M3FNUZ",    "f8E4M3B11FNUZ", "f8E3M4",
                                          "f4E2M1FN",   "f6E2M3FN",      "f6E3M2FN",   "f8E8M0FNU"};
    struct bc_rd at = *r;
    uint64_t code;
    TRY(graph_bc_varint(c, r, &code));
    struct bc_type *t = graph_bc_alloc(c, sizeof *t);
    if (!t) return graph_bc_nomem(c);
    memset(t, 0, sizeof *t);
    switch (code) {
    case 0: { /* IntegerType: width << 2 | signedness */
        uint64_t ws;
        TRY(graph_bc_varint(c, r, &ws));
        uint64_t w = ws >> 2;
        if (w == 0 || w > 64)
            return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "integer type of %llu bits is not supported",
                                 (unsigned long long)w);
        char buf[16];
        snprintf(buf, sizeof buf, "%s%llu", (ws & 3) == 1 ? "si" : (ws & 3) == 2 ? "ui" : "i", (unsigned long long)w);
        char *name = base_arena_strdup(&c->arena, buf);
        if (!name) return graph_bc_nomem(c);
        /* npusim's i<N> is MLIR's signless (and signed) iN */
        t = graph_bc_scalar(c, name);
        if (!t) return graph_bc_nomem(c);
        if ((ws & 3) == 1) {
            enum base_dtype dt;
            char sl[16];
            snprintf(sl, sizeof sl, "i%llu", (unsigned long long)w);
            if (base_dtype_parse(sl, strlen(sl), &dt)) t->dtype = (int)dt;
            t->storage_bits = w == 1 ? 1 : ((int)w + 7) / 8 * 8;
        }
        *out = t;
        return BASE_OK;
    }
    case 1:
        *out = graph_bc_scalar(c, "index");
        return *out ? BASE_OK : graph_bc_nomem(c);
    case 2: /* FunctionType */
        t->kind = BCT_FUNC;
        {
            int64_t ni, nr;
            const struct bc_type **in, **res;
            TRY(graph_bc_type_list(c, r, &ni, &in));
            TRY(graph_bc_type_list(c, r, &nr, &res));
            const struct bc_type **all = graph_bc_alloc(c, (size_t)(ni + nr) * sizeof *all);
            if (!all) return graph_bc_nomem(c);
            memcpy(all, in, (size_t)ni * sizeof *all);
            memcpy(all + ni, res, (size_t)nr * sizeof *all);
            t->n = ni;
            t->n2 = nr;
            t->items = all;
        }
        *out = t;
        return BASE_OK;
    case 3: case 4: case 5: case 6: case 7: case 8:
        *out = graph_bc_scalar(c, floats[code]);
        return *out ? BASE_OK : graph_bc_nomem(c);
    case 9:
        t->kind = BCT_COMPLEX;
        TRY(graph_bc_type_ref(c, r, &t->elem));
        *out = t;
        return BASE_OK;
    case 12:
        *out = graph_bc_scalar(c, "none");
        return *out ? BASE_OK : graph_bc_nomem(c);
    case 13: case 14: /* RankedTensorType [WithEncoding] */
        t->kind = BCT_TENSOR;
        if (code == 14) TRY(graph_bc_attr_ref(c, r, &t->encoding));
        TRY(read_dims(c, r, &t->rank, &t->dims));
        TRY(graph_bc_type_ref(c, r, &t->elem));
        *out = t;
        return BASE_OK;
    case 15: {
        t->kind = BCT_TUPLE;
        const struct bc_type **items;
        TRY(graph_bc_type_list(c, r, &t->n, &items));
        t->items = items;
        *out = t;
        return BASE_OK;
    }
    case 18:
        t->kind = BCT_UNRANKED;
        TRY(graph_bc_type_ref(c, r, &t->elem));
        *out = t;
        return BASE_OK;
    default:
        if (code >= 21 && code < 21 + sizeof floats2 / sizeof floats2[0]) {
            *out = graph_bc_scalar(c, floats2[code - 21]);
            return *out ? BASE_OK : graph_bc_nomem(c);
        }
        return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED,
                             "builtin type code %llu (memref, vector or newer) is not supported",
                             (unsigned long long)code);
    }
}

/* Element storage of a dense blob; i1 may be bit-packed (older MLIR). */
static enum base_status dense_blob(struct bc_ctx *c, const struct bc_rd *at, const struct bc_type *t, struct bc_span blob,
                                   struct bc_attr *a)
{
    a->data = blob.p;
    a->data_len = blob.len;
    const struct bc_type *e = t && (t->kind == BCT_TENSOR || t->kind == BCT_UNRANKED) ? t->elem : t;
    if (!t || t->kind != BCT_TENSOR || !e || e->kind != BCT_SCALAR || e->storage_bits != 1) return BASE_OK;
    int64_t count = 1;
    for (int64_t i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0) return graph_bc_fail(c, at, BASE_ERR_PARSE, "a dense literal of a dynamic shape");
        if (t->dims[i] && count > INT64_MAX / t->dims[i]) return graph_bc_fail(c, at, BASE_ERR_LIMIT, "too many elements");
        count *= t->dims[i];
    }
    if ((uint64_t)count == blob.len || blob.len == 0) return BASE_OK;
    if (blob.len == 1 && count > 1) { /* splat: 0x00 / 0x01 / 0xFF */
        uint8_t *d = graph_bc_alloc(c, 1);
        if (!d) return graph_bc_nomem(c);
        d[0] = blob.p[0] ? 1 : 0;
        a->data = d;
        a->data_len = 1;
        return BASE_OK;
    }
    if ((uint64_t)(count + 7) / 8 != blob.len)
        return graph_bc_fail(c, at, BASE_ERR_PARSE, "i1 data of %zu bytes for %lld elements", blob.len, (long long)count);
    uint8_t *d = graph_bc_alloc(c, (size_t)count);
    if (!d) return graph_bc_nomem(c);
    for (int64_t i = 0; i < count; i++) d[i] = (blob.p[i / 8] >> (i % 8)) & 1;
    a->data = d;
    a->data_len = (size_t)count;
    return BASE_OK;
}

static int scalar_bits(const struct bc_type *t)
{
    if (!t || t->kind != BCT_SCALAR) return 0;
    if (t->dtype >= 0) return base_dtype_bits((enum base_dtype)t->dtype);
    if (!strcmp(t->name, "index")) return 64;
    return 0;
}

static enum base_status builtin_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out)
{
    struct bc_rd at = *r;
    uint64_t code;
    TRY(graph_bc_varint(c, r, &code));
    struct bc_attr *a = graph_bc_alloc(c, sizeof *a);
    if (!a) return graph_bc_nomem(c);
    memset(a, 0, sizeof *a);
    *out = a;
    switch (code) {
    case 0: /* ArrayAttr */
        a->kind = BCA_ARRAY;
        return read_attr_list(c, r, &a->n, &a->items);
    case 1: { /* DictionaryAttr: (StringAttr name, value)* */
        a->kind = BCA_DICT;
        uint64_t k;
        TRY(graph_bc_count(c, r, 2, &k));
        const struct bc_attr **v = graph_bc_alloc(c, (size_t)k * 2 * sizeof *v);
        if (!v) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < 2 * k; i++) TRY(graph_bc_attr_ref(c, r, &v[i]));
        a->n = (int64_t)k;
        a->items = v;
        return BASE_OK;
    }
    case 2: case 3: { /* StringAttr [with type] */
        struct bc_span s;
        a->kind = BCA_STRING;
        TRY(graph_bc_string(c, r, &s));
        a->s = (const char *)s.p;
        a->len = s.len;
        if (code == 3) TRY(graph_bc_type_ref(c, r, &a->type));
        return BASE_OK;
    }
    case 4: case 5: { /* FlatSymbolRefAttr, SymbolRefAttr */
        const struct bc_attr *root;
        a->kind = BCA_SYMREF;
        TRY(graph_bc_attr_ref(c, r, &root));
        if (root->kind != BCA_STRING) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "a symbol reference needs a string");
        a->s = root->s;
        a->len = root->len;
        if (code == 5) TRY(read_attr_list(c, r, &a->n, &a->items));
        return BASE_OK;
    }
    case 6:
        a->kind = BCA_TYPE;
        return graph_bc_type_ref(c, r, &a->type);
    case 7:
        a->kind = BCA_UNIT;
        return BASE_OK;
    case 8: { /* IntegerAttr */
        a->kind = BCA_INT;
        TRY(graph_bc_type_ref(c, r, &a->type));
        int bits = scalar_bits(a->type);
        if (!bits) return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "an integer attribute of a non-integer type");
        uint64_t v;
        TRY(graph_bc_apint(c, r, bits, &v));
        a->i = (int64_t)v;
        return BASE_OK;
    }
    case 9: { /* FloatAttr */
        a->kind = BCA_FLOAT;
        TRY(graph_bc_type_ref(c, r, &a->type));
        int bits = scalar_bits(a->type);
        if (!bits) return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "a float attribute of an unsupported type");
        TRY(graph_bc_apint(c, r, bits, &a->bits));
        return BASE_OK;
    }
    case 10: /* CallSiteLoc */
        a->kind = BCA_LOC_CALLSITE;
        {
            const struct bc_attr **v = graph_bc_alloc(c, 2 * sizeof *v);
            if (!v) return graph_bc_nomem(c);
            TRY(graph_bc_attr_ref(c, r, &v[0]));
            TRY(graph_bc_attr_ref(c, r, &v[1]));
            a->items = v;
            a->n = 2;
        }
        return BASE_OK;
    case 11: case 22: { /* FileLineColLoc, FileLineColRange */
        const struct bc_attr *f;
        a->kind = BCA_LOC_FILE;
        TRY(graph_bc_attr_ref(c, r, &f));
        if (f->kind != BCA_STRING) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "a file location needs a file name");
        a->s = f->s;
        a->len = f->len;
        uint64_t line = 0, col = 0;
        if (code == 11) {
            TRY(graph_bc_varint(c, r, &line));
            TRY(graph_bc_varint(c, r, &col));
        } else {
            uint64_t k, v;
            TRY(graph_bc_count(c, r, 1, &k));
            for (uint64_t i = 0; i < k; i++) {
                TRY(graph_bc_varint(c, r, &v));
                if (i == 0) line = v;
                if (i == 1) col = v;
            }
        }
        a->i = line > INT32_MAX ? 0 : (int64_t)line;
        a->i2 = col > INT32_MAX ? 0 : (int64_t)col;
        return BASE_OK;
    }
    case 12: case 13: /* FusedLoc [WithMetadata] */
        a->kind = BCA_LOC_FUSED;
        TRY(read_attr_list(c, r, &a->n, &a->items));
        if (code == 13) TRY(graph_bc_attr_ref(c, r, &a->meta));
        return BASE_OK;
    case 14: { /* NameLoc */
        const struct bc_attr *nm;
        a->kind = BCA_LOC_NAME;
        TRY(graph_bc_attr_ref(c, r, &nm));
        if (nm->kind != BCA_STRING) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "a name location needs a string");
        a->s = nm->s;
        a->len = nm->len;
        const struct bc_attr **v = graph_bc_alloc(c, sizeof *v);
        if (!v) return graph_bc_nomem(c);
        TRY(graph_bc_attr_ref(c, r, &v[0]));
        a->items = v;
        a->n = 1;
        return BASE_OK;
    }
    case 15:
        a->kind = BCA_LOC_UNKNOWN;
        return BASE_OK;
    case 16: { /* DenseResourceElementsAttr: type, resource handle */
        uint64_t h;
        a->kind = BCA_RESOURCE;
        TRY(graph_bc_type_ref(c, r, &a->type));
        struct bc_rd hat = *r;
        TRY(graph_bc_varint(c, r, &h));
        if (h >= c->n_resources)
            return graph_bc_fail(c, &hat, BASE_ERR_PARSE, "resource handle %llu out of range", (unsigned long long)h);
        a->i = (int64_t)h;
        return BASE_OK;
    }
    case 17: { /* DenseArrayAttr: element type, size, blob */
        uint64_t n;
        struct bc_span blob;
        a->kind = BCA_DENSE_ARRAY;
        TRY(graph_bc_type_ref(c, r, &a->type));
        TRY(graph_bc_varint(c, r, &n));
        TRY(graph_bc_blob(c, r, &blob));
        int bits = a->type->kind == BCT_SCALAR ? a->type->storage_bits : 0;
        if (!bits || n > blob.len * 8 / (uint64_t)bits || (uint64_t)bits * n != (uint64_t)blob.len * 8)
            if (!(bits == 1 && n == blob.len))
                return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dense array of %llu elements in %zu bytes",
                                     (unsigned long long)n, blob.len);
        a->n = (int64_t)n;
        a->data = blob.p;
        a->data_len = blob.len;
        return BASE_OK;
    }
    case 18: { /* DenseIntOrFPElementsAttr: shaped type, blob */
        struct bc_span blob;
        a->kind = BCA_TENSOR;
        TRY(graph_bc_type_ref(c, r, &a->type));
        TRY(graph_bc_blob(c, r, &blob));
        return dense_blob(c, &at, a->type, blob, a);
    }
    case 19: { /* DenseStringElementsAttr: type, isSplat, strings */
        uint64_t splat, k = 1;
        a->kind = BCA_STRINGS;
        TRY(graph_bc_type_ref(c, r, &a->type));
        TRY(graph_bc_varint(c, r, &splat));
        if (!splat) {
            if (a->type->kind != BCT_TENSOR) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dense strings need a shape");
            k = 1;
            for (int64_t i = 0; i < a->type->rank; i++) {
                if (a->type->dims[i] < 0 || (a->type->dims[i] && k > (uint64_t)(r->end - r->p) / (uint64_t)a->type->dims[i]))
                    return graph_bc_fail(c, &at, BASE_ERR_PARSE, "dense strings of a bad shape");
                k *= (uint64_t)a->type->dims[i];
            }
            if (k > (uint64_t)(r->end - r->p)) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "too many dense strings");
        }
        struct bc_attr **v = graph_bc_alloc(c, (size_t)k * sizeof *v);
        if (!v) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < k; i++) {
            struct bc_span s;
            TRY(graph_bc_string(c, r, &s));
            v[i] = graph_bc_alloc(c, sizeof **v);
            if (!v[i]) return graph_bc_nomem(c);
            memset(v[i], 0, sizeof **v);
            v[i]->kind = BCA_STRING;
            v[i]->s = (const char *)s.p;
            v[i]->len = s.len;
        }
        a->n = (int64_t)k;
        a->items = (const struct bc_attr *const *)v;
        a->b = splat != 0;
        return BASE_OK;
    }
    case 21:
        a->kind = BCA_DISTINCT;
        {
            const struct bc_attr **v = graph_bc_alloc(c, sizeof *v);
            if (!v) return graph_bc_nomem(c);
            TRY(graph_bc_attr_ref(c, r, &v[0]));
            a->items = v;
            a->n = 1;
        }
        return BASE_OK;
    default:
        return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "builtin attribute code %llu is not supported",
                             (unsigned long long)code);
    }
}

/* ------------------------------------------------------------------------ */
/* Lazy attribute/type entries                                               */

static enum base_status read_entry(struct bc_ctx *c, struct bc_entry *e, bool is_type, uint64_t idx, const struct bc_rd *from,
                                   const void **out)
{
    if (e->state == 2) {
        *out = e->val;
        return BASE_OK;
    }
    if (e->state == 1)
        return graph_bc_fail(c, from, BASE_ERR_PARSE, "%s %llu refers to itself", is_type ? "type" : "attribute",
                             (unsigned long long)idx);
    if (c->depth >= GRAPH_MAX_NESTING)
        return graph_bc_fail(c, from, BASE_ERR_LIMIT, "attributes and types nest deeper than %d", GRAPH_MAX_NESTING);
    e->state = 1;
    c->depth++;
    struct bc_rd r = {e->data.p, e->data.p + e->data.len, "AttrType"};
    struct bc_span dn = c->dialects[e->dialect];
    enum base_status st = BASE_OK;
    if (!e->custom) { /* the textual assembly format, NUL-terminated */
        const uint8_t *z = memchr(r.p, 0, e->data.len);
        if (!z) {
            st = graph_bc_fail(c, &r, BASE_ERR_PARSE, "textual %s without its NUL", is_type ? "type" : "attribute");
        } else {
            char *s = base_arena_strndup(&c->arena, (const char *)r.p, (size_t)(z - r.p));
            if (!s) st = graph_bc_nomem(c);
            else if (is_type) {
                struct bc_type *t = graph_bc_alloc(c, sizeof *t);
                if (!t) st = graph_bc_nomem(c);
                else {
                    memset(t, 0, sizeof *t);
                    t->kind = BCT_TEXT;
                    t->name = s;
                    t->dtype = -1;
                    e->val = t;
                }
            } else {
                struct bc_attr *a = graph_bc_alloc(c, sizeof *a);
                if (!a) st = graph_bc_nomem(c);
                else {
                    memset(a, 0, sizeof *a);
                    a->kind = BCA_TEXT;
                    a->s = s;
                    a->len = strlen(s);
                    e->val = a;
                }
            }
            r.p = z + 1;
        }
    } else if (span_is(dn, "builtin")) {
        st = is_type ? builtin_type(c, &r, (const struct bc_type **)&e->val)
                     : builtin_attr(c, &r, (const struct bc_attr **)&e->val);
    } else if (span_is(dn, "vhlo")) {
        st = is_type ? graph_bc_vhlo_type(c, &r, (const struct bc_type **)&e->val)
                     : graph_bc_vhlo_attr(c, &r, (const struct bc_attr **)&e->val);
    } else if (span_is(dn, "sdy") && !is_type) {
        st = graph_bc_sdy_attr(c, &r, (const struct bc_attr **)&e->val);
    } else if (span_is(dn, "chlo") && !is_type) {
        st = graph_bc_chlo_attr(c, &r, (const struct bc_attr **)&e->val);
    } else {
        st = graph_bc_fail(c, &r, BASE_ERR_UNSUPPORTED, "%s of dialect '%.*s' in a binary encoding npusim does not know",
                           is_type ? "a type" : "an attribute", (int)dn.len, (const char *)dn.p);
    }
    c->depth--;
    if (st == BASE_OK && r.p != r.end)
        st = graph_bc_fail(c, &r, BASE_ERR_PARSE, "trailing bytes after %s %llu", is_type ? "type" : "attribute",
                           (unsigned long long)idx);
    if (st != BASE_OK) {
        e->state = 0;
        return st;
    }
    e->state = 2;
    *out = e->val;
    return BASE_OK;
}

enum base_status graph_bc_attr_at(struct bc_ctx *c, const struct bc_rd *at, uint64_t idx, const struct bc_attr **out)
{
    if (idx >= c->n_attrs)
        return graph_bc_fail(c, at, BASE_ERR_PARSE, "attribute index %llu out of range (%llu attributes)",
                             (unsigned long long)idx, (unsigned long long)c->n_attrs);
    const void *v;
    TRY(read_entry(c, &c->attrs[idx], false, idx, at, &v));
    *out = v;
    return BASE_OK;
}

enum base_status graph_bc_attr_ref(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out)
{
    struct bc_rd at = *r;
    uint64_t idx;
    TRY(graph_bc_varint(c, r, &idx));
    return graph_bc_attr_at(c, &at, idx, out);
}

static enum base_status type_at(struct bc_ctx *c, const struct bc_rd *at, uint64_t idx, const struct bc_type **out)
{
    if (idx >= c->n_types)
        return graph_bc_fail(c, at, BASE_ERR_PARSE, "type index %llu out of range (%llu types)", (unsigned long long)idx,
                             (unsigned long long)c->n_types);
    const void *v;
    TRY(read_entry(c, &c->types[idx], true, idx, at, &v));
    *out = v;
    return BASE_OK;
}

enum base_status graph_bc_type_ref(struct bc_ctx *c, struct bc_rd *r, const struct bc_type **out)
{
    struct bc_rd at = *r;
    uint64_t idx;
    TRY(graph_bc_varint(c, r, &idx));
    return type_at(c, &at, idx, out);
}

const char *graph_bc_type_text(struct bc_ctx *c, int64_t index)
{
    struct bc_entry *e = &c->types[index];
    if (e->text) return e->text;
    struct sbuf saved = c->out;
    graph_print_buf_init(&c->out);
    graph_bc_print_type(c, e->val);
    char *s = c->out.oom ? NULL : base_arena_strndup(&c->arena, c->out.p ? c->out.p : "", c->out.n);
    graph_print_buf_free(&c->out);
    c->out = saved;
    e->text = s;
    return s;
}

/* ------------------------------------------------------------------------ */
/* Locations                                                                 */

static bool loc_has_file(const struct bc_attr *a, int depth)
{
    if (!a || depth > GRAPH_MAX_NESTING) return false;
    switch (a->kind) {
    case BCA_LOC_FILE:
        return a->i >= 1;
    case BCA_LOC_NAME:
        return loc_has_file(a->items[0], depth + 1);
    case BCA_LOC_CALLSITE: /* graph_parse takes the callee's */
        return loc_has_file(a->items[0], depth + 1);
    case BCA_LOC_FUSED:
        for (int64_t i = 0; i < a->n; i++)
            if (loc_has_file(a->items[i], depth + 1)) return true;
        return false;
    default:
        return false;
    }
}

static void print_loc_inner(struct bc_ctx *c, const struct bc_attr *a, int depth)
{
    struct sbuf *s = &c->out;
    if (!a || depth > GRAPH_MAX_NESTING / 2) {
        graph_print_buf_puts(s, "unknown");
        return;
    }
    switch (a->kind) {
    case BCA_LOC_FILE:
        graph_print_string(s, a->s, a->len);
        graph_print_buf_printf(s, ":%lld:%lld", (long long)a->i, (long long)a->i2);
        return;
    case BCA_LOC_NAME:
        graph_print_string(s, a->s, a->len);
        if (a->items[0] && a->items[0]->kind != BCA_LOC_UNKNOWN) {
            graph_print_buf_putc(s, '(');
            print_loc_inner(c, a->items[0], depth + 1);
            graph_print_buf_putc(s, ')');
        }
        return;
    case BCA_LOC_CALLSITE:
        graph_print_buf_puts(s, "callsite(");
        print_loc_inner(c, a->items[0], depth + 1);
        graph_print_buf_puts(s, " at ");
        print_loc_inner(c, a->items[1], depth + 1);
        graph_print_buf_putc(s, ')');
        return;
    case BCA_LOC_FUSED:
        graph_print_buf_puts(s, "fused[");
        for (int64_t i = 0; i < a->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_loc_inner(c, a->items[i], depth + 1);
        }
        graph_print_buf_putc(s, ']');
        return;
    default:
        graph_print_buf_puts(s, "unknown");
        return;
    }
}

/* " loc(...)": the op's own location, and where it has no file position the
 * op's place in the bytecode file ("file.mlir.bc":1:<offset + 1>), so that
 * every op of a module read from bytecode is located. */
static void print_op_loc(struct bc_ctx *c, const struct bc_attr *loc, size_t op_off)
{
    struct sbuf *s = &c->out;
    const char *path = c->path && c->path[0] ? c->path : "<bytecode>";
    graph_print_buf_puts(s, " loc(");
    if (loc_has_file(loc, 0)) {
        print_loc_inner(c, loc, 0);
    } else if (loc && loc->kind != BCA_LOC_UNKNOWN) {
        graph_print_buf_puts(s, "fused[");
        print_loc_inner(c, loc, 0);
        graph_print_buf_puts(s, ", ");
        graph_print_string(s, path, strlen(path));
        graph_print_buf_printf(s, ":1:%zu]", op_off + 1);
    } else {
        graph_print_string(s, path, strlen(path));
        graph_print_buf_printf(s, ":1:%zu", op_off + 1);
    }
    graph_print_buf_putc(s, ')');
}

static bool is_loc(const struct bc_attr *a)
{
    return a->kind == BCA_LOC_UNKNOWN || a->kind == BCA_LOC_FILE || a->kind == BCA_LOC_NAME ||
           a->kind == BCA_LOC_CALLSITE || a->kind == BCA_LOC_FUSED || a->kind == BCA_TEXT;
}

/* ------------------------------------------------------------------------ */
/* The IR                                                                    */

static void newline(struct bc_ctx *c, size_t op_off, int indent)
{
    graph_print_buf_putc(&c->out, '\n');
    c->text_line++;
    if (c->n_lines == c->cap_lines) {
        size_t cap = c->cap_lines ? c->cap_lines * 2 : 256;
        size_t *p = realloc(c->line_off, cap * sizeof *p);
        if (!p) {
            c->out.oom = true;
            return;
        }
        c->line_off = p;
        c->cap_lines = cap;
    }
    c->line_off[c->n_lines++] = op_off;
    for (int i = 0; i < indent; i++) graph_print_buf_puts(&c->out, "  ");
}

static enum base_status slots_reserve(struct bc_ctx *c, size_t n)
{
    if (c->n_slots + n <= c->cap_slots) return BASE_OK;
    size_t cap = c->cap_slots ? c->cap_slots : 64;
    while (cap < c->n_slots + n) cap *= 2;
    struct bc_slot *p = realloc(c->slots, cap * sizeof *p);
    if (!p) return graph_bc_nomem(c);
    c->slots = p;
    c->cap_slots = cap;
    return BASE_OK;
}

struct region_state {
    size_t scope_start; /* first slot of the enclosing isolated scope */
    size_t begin;       /* this region's slots: [begin, end) */
    size_t next;        /* next value slot to define */
    size_t end;
};

static enum base_status define_value(struct bc_ctx *c, const struct bc_rd *at, struct region_state *rs, int64_t type)
{
    if (rs->next >= rs->end)
        return graph_bc_fail(c, at, BASE_ERR_PARSE, "more values defined than the %zu the region declares",
                             rs->end - rs->begin);
    c->slots[rs->next].type = type;
    rs->next++;
    return BASE_OK;
}

static void print_value(struct bc_ctx *c, size_t slot)
{
    for (int k = 0; k < 64 && c->slots[slot].alias >= 0; k++) slot = (size_t)c->slots[slot].alias;
    graph_print_buf_printf(&c->out, "%%v%u_%zu", c->slots[slot].gen, slot);
}

static enum base_status skip_use_lists(struct bc_ctx *c, struct bc_rd *r, uint64_t range)
{
    uint64_t n = 1;
    if (range > 1) TRY(graph_bc_count(c, r, 1, &n));
    for (uint64_t i = 0; i < n; i++) {
        uint64_t idx, k;
        bool pairs;
        if (range > 1) TRY(graph_bc_varint(c, r, &idx));
        TRY(varint_flag(c, r, &k, &pairs));
        if (k > (uint64_t)(r->end - r->p)) return graph_bc_fail(c, r, BASE_ERR_PARSE, "use-list order overruns");
        for (uint64_t j = 0; j < k; j++) TRY(graph_bc_varint(c, r, &idx));
    }
    return BASE_OK;
}

static enum base_status read_region(struct bc_ctx *c, struct bc_rd *r, size_t scope_start, int parent_op, bool parent_is_module,
                                    int indent);

/* Block header: (numOps << 1 | hasArgs), args, use-list orders. */
static enum base_status read_block(struct bc_ctx *c, struct bc_rd *r, struct region_state *rs, int indent,
                                   int block_index, int n_blocks, bool parent_is_module, uint64_t *n_ops_out)
{
    uint64_t n_ops, n_args = 0;
    bool has_args;
    TRY(varint_flag(c, r, &n_ops, &has_args));
    if (n_ops > (uint64_t)(r->end - r->p))
        return graph_bc_fail(c, r, BASE_ERR_PARSE, "block of %llu ops overruns", (unsigned long long)n_ops);
    size_t first_arg = rs->next;
    if (has_args) {
        TRY(graph_bc_count(c, r, 1, &n_args));
        for (uint64_t i = 0; i < n_args; i++) {
            struct bc_rd at = *r;
            uint64_t ti;
            bool has_loc = true;
            if (c->version >= 4) TRY(varint_flag(c, r, &ti, &has_loc));
            else TRY(graph_bc_varint(c, r, &ti));
            const struct bc_type *t;
            TRY(type_at(c, &at, ti, &t));
            if (has_loc) {
                const struct bc_attr *loc;
                TRY(graph_bc_attr_ref(c, r, &loc));
            }
            TRY(define_value(c, &at, rs, (int64_t)ti));
        }
        if (c->version >= 3) {
            uint8_t has_orders;
            TRY(graph_bc_byte(c, r, &has_orders));
            if (has_orders) TRY(skip_use_lists(c, r, n_args));
        }
    }
    if (!parent_is_module && (n_args || n_blocks > 1)) {
        newline(c, (size_t)(r->p - c->base), indent - 1);
        graph_print_buf_printf(&c->out, "^bb%d", block_index);
        if (n_args) {
            graph_print_buf_putc(&c->out, '(');
            for (uint64_t i = 0; i < n_args; i++) {
                if (i) graph_print_buf_puts(&c->out, ", ");
                print_value(c, first_arg + i);
                graph_print_buf_puts(&c->out, ": ");
                const char *tt = graph_bc_type_text(c, c->slots[first_arg + i].type);
                if (!tt) return graph_bc_nomem(c);
                graph_print_buf_puts(&c->out, tt);
            }
            graph_print_buf_putc(&c->out, ')');
        }
        graph_print_buf_putc(&c->out, ':');
    }
    *n_ops_out = n_ops;
    return BASE_OK;
}

struct op_info {
    const struct bc_opname *name;
    const struct bc_attr *loc;
    const struct bc_attr *dict;
    struct bc_named *props;
    int n_props;
    const struct bc_attr *props_attr; /* unregistered op: its properties as an attribute */
    uint64_t n_results, n_operands, n_succ, n_regions;
    size_t first_result;
    size_t *operands;
    uint64_t *succ;
    bool isolated;
};

/* The properties of a registered op: a blob in the properties section, read
 * with the op's own layout (ODS: its inherent attributes sorted by name). */
static enum base_status read_props(struct bc_ctx *c, struct bc_rd *r, struct op_info *op)
{
    struct bc_rd at = *r;
    if (op->name->registered == 0) return graph_bc_attr_ref(c, r, &op->props_attr);
    uint64_t idx;
    TRY(graph_bc_varint(c, r, &idx));
    if (idx >= c->n_props)
        return graph_bc_fail(c, &at, BASE_ERR_PARSE, "properties index %llu out of range (%llu)", (unsigned long long)idx,
                             (unsigned long long)c->n_props);
    struct bc_rd pr = {c->props.p + c->prop_off[idx], c->props.p + c->props.len, "Properties"};
    struct bc_span blob;
    TRY(graph_bc_blob(c, &pr, &blob));
    struct bc_rd b = {blob.p, blob.p + blob.len, "Properties"};
    const char *const *names = NULL;
    int n = 0;
    /* ops of other dialects that exports carry (StableHLO 1.11 on lets them
     * through): their inherent attributes sorted by name; '?' marks an
     * optional one (a flag with the index) */
    static const struct {
        const char *op;
        const char *const names[4];
    } layouts[] = {
        {"builtin.module", {"?sym_name", "?sym_visibility"}},
        {"sdy.mesh", {"mesh", "sym_name"}},
        {"sdy.sharding_constraint", {"sharding"}},
        {"sdy.reshard", {"sharding"}},
        {"sdy.manual_computation", {"in_shardings", "manual_axes", "out_shardings"}},
        {"sdy.sharding_group", {"group_id"}},
        {"sdy.propagation_barrier", {"allowed_direction"}},
        {"sdy.constant", {"value"}},
        {"sdy.data_flow_edge", {"?sharding"}},
        {"chlo.top_k", {"?is_stable", "k"}},
        {"chlo.broadcast_compare", {"?broadcast_dimensions", "?compare_type", "comparison_direction"}},
        {"chlo.ragged_dot", {"?precision_config", "ragged_dot_dimension_numbers"}},
        {"chlo.constant", {"value"}},
        {"chlo.constant_like", {"value"}},
    };
    static const char *const broadcast_binary[] = {
        "chlo.broadcast_add",        "chlo.broadcast_and",         "chlo.broadcast_atan2",   "chlo.broadcast_complex",
        "chlo.broadcast_divide",     "chlo.broadcast_maximum",     "chlo.broadcast_minimum", "chlo.broadcast_multiply",
        "chlo.broadcast_next_after", "chlo.broadcast_or",          "chlo.broadcast_polygamma", "chlo.broadcast_power",
        "chlo.broadcast_remainder",  "chlo.broadcast_shift_left",  "chlo.broadcast_shift_right_arithmetic",
        "chlo.broadcast_shift_right_logical", "chlo.broadcast_subtract", "chlo.broadcast_xor", "chlo.broadcast_zeta",
    };
    static const char *const bcast_dims[] = {"?broadcast_dimensions", NULL};
    if (op->name->vhlo_op >= 0) {
        n = graph_bc_vhlo_op_props(op->name->vhlo_op, &names);
    } else {
        for (size_t k = 0; k < sizeof layouts / sizeof layouts[0] && !names; k++)
            if (!strcmp(op->name->full, layouts[k].op)) names = layouts[k].names;
        for (size_t k = 0; k < sizeof broadcast_binary / sizeof broadcast_binary[0] && !names; k++)
            if (!strcmp(op->name->full, broadcast_binary[k])) names = bcast_dims;
        while (names && n < 4 && names[n]) n++;
    }
    if (!names) {
        return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED,
                             "op '%s' keeps its attributes in properties whose layout npusim does not know",
                             op->name->full);
    }
    op->props = graph_bc_alloc(c, (size_t)(n ? n : 1) * sizeof *op->props);
    if (!op->props) return graph_bc_nomem(c);
    for (int i = 0; i < n; i++) {
        const struct bc_attr *v = NULL;
        bool optional = names[i][0] == '?';
        if (optional) {
            struct bc_rd a2 = b;
            uint64_t ai;
            bool present;
            TRY(varint_flag(c, &b, &ai, &present));
            if (!present) continue;
            TRY(graph_bc_attr_at(c, &a2, ai, &v));
        } else {
            TRY(graph_bc_attr_ref(c, &b, &v));
        }
        op->props[op->n_props].name = names[i] + (optional ? 1 : 0);
        op->props[op->n_props].value = v;
        op->n_props++;
    }
    if (b.p != b.end)
        return graph_bc_fail(c, &b, BASE_ERR_UNSUPPORTED,
                             "properties of '%s' hold more than the %d attributes npusim knows for it", op->name->full, n);
    return BASE_OK;
}

static void print_attr_name(struct bc_ctx *c, const char *name, size_t n)
{
    if (n && graph_lex_bare_id(name, name + n) == n) graph_print_buf_putn(&c->out, name, n);
    else graph_print_string(&c->out, name, n);
}

void graph_bc_print_dict_attrs(struct bc_ctx *c, struct bc_named *attrs, int n)
{
    if (n <= 0) return;
    graph_print_buf_puts(&c->out, " {");
    for (int i = 0; i < n; i++) {
        if (i) graph_print_buf_puts(&c->out, ", ");
        print_attr_name(c, attrs[i].name, strlen(attrs[i].name));
        if (attrs[i].value && attrs[i].value->kind == BCA_UNIT) continue;
        graph_print_buf_puts(&c->out, " = ");
        graph_bc_print_attr(c, attrs[i].value);
    }
    graph_print_buf_putc(&c->out, '}');
}

/* The op's named attributes: properties, then the dictionary's. */
static enum base_status collect_attrs(struct bc_ctx *c, const struct bc_rd *at, struct op_info *op, struct bc_named **out,
                                      int *n_out)
{
    int64_t nd = op->dict ? op->dict->n : 0;
    int64_t np = op->props_attr && op->props_attr->kind == BCA_DICT ? op->props_attr->n : 0;
    struct bc_named *v = graph_bc_alloc(c, (size_t)(op->n_props + nd + np + 1) * sizeof *v);
    if (!v) return graph_bc_nomem(c);
    int n = 0;
    for (int i = 0; i < op->n_props; i++) v[n++] = op->props[i];
    for (int pass = 0; pass < 2; pass++) {
        const struct bc_attr *d = pass ? op->dict : op->props_attr;
        if (!d || d->kind != BCA_DICT) {
            if (d && pass == 0) return graph_bc_fail(c, at, BASE_ERR_UNSUPPORTED, "properties of '%s' are not a dictionary", op->name->full);
            continue;
        }
        for (int64_t i = 0; i < d->n; i++) {
            const struct bc_attr *k = d->items[2 * i];
            if (k->kind != BCA_STRING) return graph_bc_fail(c, at, BASE_ERR_PARSE, "an attribute name is not a string");
            char *name = base_arena_strndup(&c->arena, k->s, k->len);
            if (!name) return graph_bc_nomem(c);
            v[n].name = name;
            v[n].value = d->items[2 * i + 1];
            n++;
        }
    }
    *out = v;
    *n_out = n;
    return BASE_OK;
}

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const struct bc_named *)a)->name, ((const struct bc_named *)b)->name);
}

static enum base_status print_types(struct bc_ctx *c, const struct bc_rd *at, const size_t *slots, uint64_t n, bool paren_one)
{
    if (n != 1 || paren_one) graph_print_buf_putc(&c->out, '(');
    for (uint64_t i = 0; i < n; i++) {
        if (i) graph_print_buf_puts(&c->out, ", ");
        int64_t ti = c->slots[slots[i]].type;
        if (ti < 0)
            return graph_bc_fail(c, at, BASE_ERR_UNSUPPORTED, "an operand refers to a value defined later (forward reference)");
        const char *tt = graph_bc_type_text(c, ti);
        if (!tt) return graph_bc_nomem(c);
        graph_print_buf_puts(&c->out, tt);
    }
    if (n != 1 || paren_one) graph_print_buf_putc(&c->out, ')');
    return BASE_OK;
}

static enum base_status read_op(struct bc_ctx *c, struct bc_rd *r, struct region_state *rs, int parent_op, int indent,
                                bool top_level, bool *was_module)
{
    struct bc_rd at = *r;
    size_t op_off = (size_t)(r->p - c->base);
    struct op_info op;
    memset(&op, 0, sizeof op);
    uint64_t ni;
    TRY(graph_bc_varint(c, r, &ni));
    if (ni >= c->n_opnames)
        return graph_bc_fail(c, &at, BASE_ERR_PARSE, "op name index %llu out of range (%llu names)", (unsigned long long)ni,
                             (unsigned long long)c->n_opnames);
    op.name = &c->opnames[ni];
    uint8_t mask;
    TRY(graph_bc_byte(c, r, &mask));
    if (mask & 0x80) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "unknown op encoding bits 0x%02X", mask);
    struct bc_rd lat = *r;
    TRY(graph_bc_attr_ref(c, r, &op.loc));
    if (!is_loc(op.loc)) return graph_bc_fail(c, &lat, BASE_ERR_PARSE, "the op's location is not a location");
    if (mask & OP_HAS_ATTRS) {
        struct bc_rd dat = *r;
        TRY(graph_bc_attr_ref(c, r, &op.dict));
        if (op.dict->kind != BCA_DICT) return graph_bc_fail(c, &dat, BASE_ERR_PARSE, "the op's attributes are not a dictionary");
    }
    if (mask & OP_HAS_PROPERTIES) {
        if (c->version < 5) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "properties in bytecode version %llu", (unsigned long long)c->version);
        TRY(read_props(c, r, &op));
    }
    int64_t *result_types = NULL;
    if (mask & OP_HAS_RESULTS) {
        TRY(graph_bc_count(c, r, 1, &op.n_results));
        result_types = graph_bc_alloc(c, (size_t)op.n_results * sizeof *result_types);
        if (!result_types) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < op.n_results; i++) {
            struct bc_rd tat = *r;
            uint64_t ti;
            const struct bc_type *t;
            TRY(graph_bc_varint(c, r, &ti));
            TRY(type_at(c, &tat, ti, &t));
            result_types[i] = (int64_t)ti;
        }
    }
    if (mask & OP_HAS_OPERANDS) {
        TRY(graph_bc_count(c, r, 1, &op.n_operands));
        op.operands = graph_bc_alloc(c, (size_t)op.n_operands * sizeof *op.operands);
        if (!op.operands) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < op.n_operands; i++) {
            struct bc_rd vat = *r;
            uint64_t vi;
            TRY(graph_bc_varint(c, r, &vi));
            if (vi >= c->n_slots - rs->scope_start)
                return graph_bc_fail(c, &vat, BASE_ERR_PARSE, "value index %llu out of range", (unsigned long long)vi);
            op.operands[i] = rs->scope_start + (size_t)vi;
        }
    }
    if (mask & OP_HAS_SUCCESSORS) {
        TRY(graph_bc_count(c, r, 1, &op.n_succ));
        op.succ = graph_bc_alloc(c, (size_t)op.n_succ * sizeof *op.succ);
        if (!op.succ) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < op.n_succ; i++) TRY(graph_bc_varint(c, r, &op.succ[i]));
    }
    if (c->version >= 3 && (mask & OP_HAS_USE_LISTS)) TRY(skip_use_lists(c, r, op.n_results));
    if (mask & OP_HAS_REGIONS) {
        TRY(varint_flag(c, r, &op.n_regions, &op.isolated));
        if (op.n_regions > (uint64_t)(r->end - r->p))
            return graph_bc_fail(c, &at, BASE_ERR_PARSE, "%llu regions overrun", (unsigned long long)op.n_regions);
    }
    /* results */
    op.first_result = rs->next;
    if (op.n_results && rs->end > rs->begin) {
        for (uint64_t i = 0; i < op.n_results; i++) TRY(define_value(c, &at, rs, result_types[i]));
    } else if (op.n_results) {
        return graph_bc_fail(c, &at, BASE_ERR_PARSE, "op '%s' has results where no values may be defined", op.name->full);
    }

    /* builtin.unrealized_conversion_cast between equal types (StableHLO 1.11+
     * puts them where VHLO meets another dialect): folded, as the
     * deserializer's reconcileUnrealizedCasts does */
    if (!strcmp(op.name->full, "builtin.unrealized_conversion_cast") && op.n_results == op.n_operands &&
        !op.n_regions && !op.n_succ) {
        bool same = true;
        for (uint64_t i = 0; i < op.n_results && same; i++) {
            int64_t to = c->slots[op.operands[i]].type, tr = c->slots[op.first_result + i].type;
            const char *a = to >= 0 ? graph_bc_type_text(c, to) : NULL, *b = graph_bc_type_text(c, tr);
            same = a && b && !strcmp(a, b);
        }
        if (same) {
            for (uint64_t i = 0; i < op.n_results; i++)
                c->slots[op.first_result + i].alias = (int64_t)op.operands[i];
            return BASE_OK;
        }
    }
    struct bc_named *attrs = NULL;
    int n_attrs = 0;
    TRY(collect_attrs(c, &at, &op, &attrs, &n_attrs));
    bool is_module = !strcmp(op.name->full, "builtin.module");
    bool parent_is_func = parent_op >= 0 && c->opnames[parent_op].vhlo_op >= 0 &&
                          !strcmp(graph_bc_vhlo_op_vname(c->opnames[parent_op].vhlo_op), "func_v1");
    if (is_module) { /* module @name attributes {...} { ... } */
        if (op.n_regions != 1 || op.n_results || op.n_operands)
            return graph_bc_fail(c, &at, BASE_ERR_PARSE, "builtin.module needs one region and no values");
        if (!top_level) newline(c, op_off, indent);
        graph_print_buf_puts(&c->out, "module");
        struct bc_named *rest = graph_bc_alloc(c, (size_t)(n_attrs + 1) * sizeof *rest);
        if (!rest) return graph_bc_nomem(c);
        int nr = 0;
        for (int i = 0; i < n_attrs; i++) {
            if (!strcmp(attrs[i].name, "sym_name") && attrs[i].value->kind == BCA_STRING) {
                graph_print_buf_putc(&c->out, ' ');
                graph_print_symbol(&c->out, attrs[i].value->s, attrs[i].value->len);
            } else if (strcmp(attrs[i].name, "sym_visibility")) {
                rest[nr++] = attrs[i];
            }
        }
        if (nr) {
            qsort(rest, (size_t)nr, sizeof *rest, cmp_named);
            graph_print_buf_puts(&c->out, " attributes");
            graph_bc_print_dict_attrs(c, rest, nr);
        }
        graph_print_buf_puts(&c->out, " {");
        *was_module = true;
    } else {
        const char *name = op.name->full;
        struct bc_out_attr *out_attrs = NULL;
        int n_out = 0;
        if (op.name->vhlo_op >= 0) {
            TRY(graph_bc_vhlo_legalize(c, &at, op.name->vhlo_op, parent_is_func, attrs, n_attrs, &name, &out_attrs,
                                       &n_out));
        } else {
            if (!strncmp(name, "vhlo.", 5)) {
                int v0 = c->vhlo_version[0], v1 = c->vhlo_version[1], v2 = c->vhlo_version[2];
                if (v0 >= 0)
                    return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED,
                                         "op '%s' is not known (written by StableHLO v%d.%d.%d; npusim reads VHLO ops "
                                         "up to StableHLO v1.20.0)",
                                         name, v0, v1, v2);
                return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "op '%s' is not known", name);
            }
            qsort(attrs, (size_t)n_attrs, sizeof *attrs, cmp_named);
        }
        newline(c, op_off, indent);
        for (uint64_t i = 0; i < op.n_results; i++) {
            if (i) graph_print_buf_puts(&c->out, ", ");
            print_value(c, op.first_result + i);
        }
        if (op.n_results) graph_print_buf_puts(&c->out, " = ");
        graph_print_string(&c->out, name, strlen(name));
        graph_print_buf_putc(&c->out, '(');
        for (uint64_t i = 0; i < op.n_operands; i++) {
            if (i) graph_print_buf_puts(&c->out, ", ");
            print_value(c, op.operands[i]);
        }
        graph_print_buf_putc(&c->out, ')');
        if (op.n_succ) {
            graph_print_buf_putc(&c->out, '[');
            for (uint64_t i = 0; i < op.n_succ; i++)
                graph_print_buf_printf(&c->out, "%s^bb%llu", i ? ", " : "", (unsigned long long)op.succ[i]);
            graph_print_buf_putc(&c->out, ']');
        }
        /* regions: those of an isolated op are in one IR section of their own */
        struct bc_rd sec, *rr = r;
        enum base_status st = BASE_OK;
        if (op.n_regions && op.isolated && c->version >= 2) {
            int id;
            st = read_section(c, r, &id, &sec);
            if (st == BASE_OK && id != SEC_IR)
                st = graph_bc_fail(c, r, BASE_ERR_PARSE, "expected an IR section for an isolated region, found %s",
                                   section_names[id]);
            rr = &sec;
        }
        if (op.n_regions) graph_print_buf_puts(&c->out, " (");
        for (uint64_t i = 0; i < op.n_regions && st == BASE_OK; i++) {
            graph_print_buf_puts(&c->out, i ? ", {" : "{");
            st = read_region(c, rr, op.isolated ? c->n_slots : rs->scope_start, (int)ni, false, indent + 1);
            if (st == BASE_OK) {
                newline(c, op_off, indent);
                graph_print_buf_putc(&c->out, '}');
            }
        }
        if (st == BASE_OK && rr != r && rr->p != rr->end)
            st = graph_bc_fail(c, rr, BASE_ERR_PARSE, "trailing bytes in a region section");
        if (st != BASE_OK) return st;
        if (op.n_regions) graph_print_buf_putc(&c->out, ')');
        if (op.name->vhlo_op >= 0) graph_bc_print_out_attrs(c, out_attrs, n_out);
        else graph_bc_print_dict_attrs(c, attrs, n_attrs);
        graph_print_buf_puts(&c->out, " : ");
        TRY(print_types(c, &at, op.operands, op.n_operands, true));
        graph_print_buf_puts(&c->out, " -> ");
        {
            size_t *rsl = graph_bc_alloc(c, (size_t)(op.n_results ? op.n_results : 1) * sizeof *rsl);
            if (!rsl) return graph_bc_nomem(c);
            for (uint64_t i = 0; i < op.n_results; i++) rsl[i] = op.first_result + i;
            bool paren = false;
            if (op.n_results == 1) {
                const struct bc_type *t = c->types[c->slots[rsl[0]].type].val;
                paren = t && t->kind == BCT_FUNC;
            }
            TRY(print_types(c, &at, rsl, op.n_results, paren));
        }
        print_op_loc(c, op.loc, op_off);
        if (c->too_big)
            return graph_bc_fail(c, &at, BASE_ERR_LIMIT,
                                 "op '%s': its attributes and types nest too deep or expand past the text budget "
                                 "(shared too many times)",
                                 op.name->full);
        return BASE_OK;
    }
    /* module body */
    enum base_status st;
    if (op.isolated && c->version >= 2) {
        int id;
        struct bc_rd sec;
        TRY(read_section(c, r, &id, &sec));
        if (id != SEC_IR) return graph_bc_fail(c, r, BASE_ERR_PARSE, "expected an IR section for the module's region");
        st = read_region(c, &sec, c->n_slots, (int)ni, true, indent + 1);
        if (st == BASE_OK && sec.p != sec.end) st = graph_bc_fail(c, &sec, BASE_ERR_PARSE, "trailing bytes in a region section");
    } else {
        st = read_region(c, r, c->n_slots, (int)ni, true, indent + 1);
    }
    if (st != BASE_OK) return st;
    newline(c, op_off, indent);
    graph_print_buf_putc(&c->out, '}');
    return BASE_OK;
}

static enum base_status read_region(struct bc_ctx *c, struct bc_rd *r, size_t scope_start, int parent_op, bool parent_is_module,
                                    int indent)
{
    if (c->region_depth >= GRAPH_MAX_NESTING)
        return graph_bc_fail(c, r, BASE_ERR_LIMIT, "regions nest deeper than %d", GRAPH_MAX_NESTING);
    uint64_t n_blocks;
    TRY(graph_bc_count(c, r, 1, &n_blocks));
    if (n_blocks == 0) return BASE_OK;
    uint64_t n_values;
    TRY(graph_bc_count(c, r, 1, &n_values));
    if (parent_is_module && n_blocks != 1) return graph_bc_fail(c, r, BASE_ERR_PARSE, "a module has one block");
    TRY(slots_reserve(c, (size_t)n_values));
    struct region_state rs = {scope_start, c->n_slots, c->n_slots, c->n_slots + (size_t)n_values};
    uint32_t gen = ++c->region_serial;
    for (size_t i = 0; i < n_values; i++) {
        c->slots[c->n_slots + i].gen = gen;
        c->slots[c->n_slots + i].type = -1;
        c->slots[c->n_slots + i].alias = -1;
    }
    c->n_slots += (size_t)n_values;
    c->region_depth++;
    enum base_status st = BASE_OK;
    for (uint64_t b = 0; b < n_blocks && st == BASE_OK; b++) {
        uint64_t n_ops = 0;
        st = read_block(c, r, &rs, indent, (int)b, (int)n_blocks, parent_is_module, &n_ops);
        for (uint64_t k = 0; k < n_ops && st == BASE_OK; k++) {
            bool was_module = false;
            st = read_op(c, r, &rs, parent_op, indent, false, &was_module);
        }
    }
    c->region_depth--;
    c->n_slots -= (size_t)n_values;
    return st;
}

/* ------------------------------------------------------------------------ */
/* Top level                                                                 */

static void parse_producer_version(struct bc_ctx *c)
{
    c->vhlo_version[0] = c->vhlo_version[1] = c->vhlo_version[2] = -1;
    const char *p = (const char *)c->producer.p;
    size_t n = c->producer.len;
    const char *tag = "StableHLO_v";
    size_t tl = strlen(tag);
    for (size_t i = 0; i + tl <= n; i++) {
        if (memcmp(p + i, tag, tl)) continue;
        size_t k = i + tl;
        int v[3] = {0, 0, 0};
        for (int part = 0; part < 3; part++) {
            if (k >= n || !lex_is_digit(p[k])) return;
            while (k < n && lex_is_digit(p[k]) && v[part] < 100000) v[part] = v[part] * 10 + (p[k++] - '0');
            if (part < 2) {
                if (k >= n || p[k] != '.') return;
                k++;
            }
        }
        memcpy(c->vhlo_version, v, sizeof v);
        return;
    }
}

static enum base_status decode(struct bc_ctx *c)
{
    struct bc_rd r = {c->base, c->base + c->size, "header"};
    if (c->size < 4 || memcmp(c->base, GRAPH_BC_MAGIC, 4))
        return graph_bc_fail(c, &r, BASE_ERR_PARSE, "not MLIR bytecode (no \"ML\\xefR\" magic)");
    r.p += 4;
    TRY(graph_bc_varint(c, &r, &c->version));
    if (c->version > BC_MAX_VERSION)
        return graph_bc_fail(c, &r, BASE_ERR_UNSUPPORTED, "bytecode version %llu is newer than the %d npusim reads",
                             (unsigned long long)c->version, BC_MAX_VERSION);
    const uint8_t *z = memchr(r.p, 0, (size_t)(r.end - r.p));
    if (!z) return graph_bc_fail(c, &r, BASE_ERR_PARSE, "the producer string has no NUL");
    c->producer.p = r.p;
    c->producer.len = (size_t)(z - r.p);
    r.p = z + 1;
    parse_producer_version(c);
    struct bc_rd sec[SEC_COUNT];
    bool have[SEC_COUNT] = {false};
    while (r.p < r.end) {
        int id;
        struct bc_rd d;
        const uint8_t *at = r.p;
        TRY(read_section(c, &r, &id, &d));
        if (have[id]) {
            struct bc_rd a = {at, r.end, "header"};
            return graph_bc_fail(c, &a, BASE_ERR_PARSE, "duplicate %s section", section_names[id]);
        }
        have[id] = true;
        sec[id] = d;
    }
    static const int required[] = {SEC_STRING, SEC_DIALECT, SEC_ATTR_TYPE, SEC_ATTR_TYPE_OFFSET, SEC_IR};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!have[required[i]])
            return graph_bc_fail(c, &r, BASE_ERR_PARSE, "the %s section is missing", section_names[required[i]]);
    if (have[SEC_RESOURCE] != have[SEC_RESOURCE_OFFSET])
        return graph_bc_fail(c, &r, BASE_ERR_PARSE, "Resource and ResourceOffset sections must come together");
    TRY(read_strings(c, sec[SEC_STRING]));
    if (have[SEC_PROPERTIES]) TRY(read_properties(c, sec[SEC_PROPERTIES]));
    TRY(read_dialects(c, sec[SEC_DIALECT]));
    if (have[SEC_RESOURCE]) TRY(read_resources(c, sec[SEC_RESOURCE], sec[SEC_RESOURCE_OFFSET]));
    TRY(read_attr_type_offsets(c, sec[SEC_ATTR_TYPE_OFFSET], sec[SEC_ATTR_TYPE]));

    /* the top-level block (no region header): one builtin.module normally */
    struct bc_rd ir = sec[SEC_IR];
    uint64_t n_ops;
    bool has_args;
    TRY(varint_flag(c, &ir, &n_ops, &has_args));
    if (has_args) return graph_bc_fail(c, &ir, BASE_ERR_PARSE, "the top-level block has arguments");
    if (n_ops > (uint64_t)(ir.end - ir.p)) return graph_bc_fail(c, &ir, BASE_ERR_PARSE, "top-level block of %llu ops overruns", (unsigned long long)n_ops);
    struct region_state rs = {0, 0, 0, 0};
    c->text_line = 1;
    for (uint64_t k = 0; k < n_ops; k++) { /* ops other than one module: graph_parse wraps them */
        bool was_module = false;
        TRY(read_op(c, &ir, &rs, -1, 0, k == 0, &was_module));
    }
    if (ir.p != ir.end) return graph_bc_fail(c, &ir, BASE_ERR_PARSE, "trailing bytes in the IR section");
    graph_print_buf_putc(&c->out, '\n');
    /* dense_resource blobs */
    bool any = false;
    for (uint64_t i = 0; i < c->n_resources; i++) {
        const struct bc_resource *res = &c->resources[i];
        if (res->kind != 0) continue;
        if (!any) graph_print_buf_puts(&c->out, "{-#\n  dialect_resources: {\n    builtin: {\n");
        graph_print_buf_puts(&c->out, any ? ",\n      " : "      ");
        any = true;
        graph_print_buf_putn(&c->out, (const char *)res->key.p, res->key.len);
        uint32_t al = (uint32_t)res->align;
        graph_print_buf_printf(&c->out, ": \"0x%02X%02X%02X%02X", al & 0xff, (al >> 8) & 0xff, (al >> 16) & 0xff, al >> 24);
        for (size_t j = 0; j < res->data.len; j++) graph_print_buf_printf(&c->out, "%02X", res->data.p[j]);
        graph_print_buf_putc(&c->out, '"');
    }
    if (any) graph_print_buf_puts(&c->out, "\n    }\n  }\n#-}\n");
    if (c->out.oom) return graph_bc_nomem(c);
    if (c->too_big)
        return graph_bc_fail(c, &ir, BASE_ERR_LIMIT, "attributes nest too deep or expand past the text budget");
    return BASE_OK;
}

static void ctx_init(struct bc_ctx *c, const void *data, size_t len, const char *path, struct base_diag *diag)
{
    memset(c, 0, sizeof *c);
    c->base = data;
    c->size = len;
    c->path = path;
    c->diag = diag;
    base_arena_init(&c->arena, 1 << 16);
    graph_print_buf_init(&c->out);
    /* the text: about twice the input (tensor data as hex), reserved at once */
    size_t cap = len / 4 * 9 + (1u << 16);
    if (len < SIZE_MAX / 4 - (1u << 16) && (c->out.p = malloc(cap)) != NULL) {
        c->out.cap = cap;
        c->out.p[0] = 0;
    }
    /* attribute/type prints: a generous multiple of the input (a real file
     * prints each of its entries a bounded number of times) */
    c->budget = (uint64_t)len * 64 + (1u << 20);
}

static void ctx_deinit(struct bc_ctx *c)
{
    base_arena_deinit(&c->arena);
    graph_print_buf_free(&c->out);
    free(c->slots);
    free(c->line_off);
}

bool graph_is_bytecode(const void *data, size_t len)
{
    return data && len >= 4 && !memcmp(data, GRAPH_BC_MAGIC, 4);
}

enum base_status graph_bytecode_to_text(const void *data, size_t len, const char *path, char **out, size_t *out_len,
                                        struct base_diag *diag)
{
    *out = NULL;
    if (out_len) *out_len = 0;
    struct bc_ctx c;
    ctx_init(&c, data, len, path, diag);
    enum base_status st = decode(&c);
    if (st == BASE_OK) {
        *out = c.out.p;
        if (out_len) *out_len = c.out.n;
        c.out.p = NULL;
    }
    ctx_deinit(&c);
    return st;
}

enum base_status graph_bytecode_parse(const void *data, size_t len, const struct graph_parse_options *opt,
                                      struct graph_module **out, struct base_diag *diag)
{
    *out = NULL;
    const char *path = opt && opt->path ? opt->path : "<bytecode>";
    struct bc_ctx c;
    ctx_init(&c, data, len, path, diag);
    enum base_status st = decode(&c);
    if (st != BASE_OK) {
        ctx_deinit(&c);
        return st;
    }
    if (c.out.cap > c.out.n + 1) { /* the text is read once: drop the doubling slack */
        char *p = realloc(c.out.p, c.out.n + 1);
        if (p) {
            c.out.p = p;
            c.out.cap = c.out.n + 1;
        }
    }
    struct graph_parse_options po = {path, 0, 0, true};
    if (opt) {
        po.max_nesting = opt->max_nesting;
        po.max_elements = opt->max_elements;
    }
    struct base_diag d;
    base_diag_clear(&d);
    st = graph_parse(c.out.p, c.out.n, &po, out, &d);
    if (st != BASE_OK && st != BASE_ERR_NOMEM) {
        /* the error is in the decoded text: place it at the op's bytes */
        size_t line = d.line >= 1 ? (size_t)d.line : 1;
        size_t off = 0; /* line k + 2 starts with the k-th newline */
        if (line >= 2 && c.n_lines) off = c.line_off[line - 2 < c.n_lines ? line - 2 : c.n_lines - 1];
        /* the offending line of the decoded text, as the snippet */
        const char *t = c.out.p, *e = c.out.p + c.out.n;
        for (size_t l = 1; l < line && t < e; l++) {
            const char *nl = memchr(t, '\n', (size_t)(e - t));
            t = nl ? nl + 1 : e;
        }
        const char *le = memchr(t, '\n', (size_t)(e - t));
        size_t tl = le ? (size_t)(le - t) : (size_t)(e - t);
        base_diag_clear(diag);
        base_diag_set(diag, st, path, 1, off + 1 > INT32_MAX ? INT32_MAX : (int)(off + 1),
                      "%s (in the op at byte %zu, read as StableHLO text line %zu)", d.msg, off, line);
        base_diag_set_snippet(diag, t, tl);
    } else if (st != BASE_OK) {
        *diag = d;
    }
    ctx_deinit(&c);
    return st;
}
