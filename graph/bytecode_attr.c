/* MLIR bytecode: the VHLO dialect's attribute and type encodings
 * (stablehlo/dialect/VhloBytecode.cpp: one leading varint code per kind, codes
 * never reused), and the printing of decoded attributes and types in their
 * StableHLO spelling (VHLO -> builtin/StableHLO, as VhloLegalizeToStablehlo
 * converts them where no op-specific rule applies). */
#include "graph/bytecode_internal.h"
#include "graph/lexer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Decoding                                                                  */

static struct bc_attr *new_attr(struct bc_ctx *c, enum bc_akind k)
{
    struct bc_attr *a = graph_bc_alloc(c, sizeof *a);
    if (!a) return NULL;
    memset(a, 0, sizeof *a);
    a->kind = k;
    a->vhlo = true;
    return a;
}

static enum base_status attr_list(struct bc_ctx *c, struct bc_rd *r, size_t per, int64_t *n,
                                  const struct bc_attr *const **out)
{
    uint64_t k;
    TRY(graph_bc_count(c, r, per, &k));
    const struct bc_attr **v = graph_bc_alloc(c, (size_t)k * per * sizeof *v);
    if (!v) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < k * per; i++) TRY(graph_bc_attr_ref(c, r, &v[i]));
    *n = (int64_t)k;
    *out = v;
    return BASE_OK;
}

static enum base_status svarints(struct bc_ctx *c, struct bc_rd *r, int64_t *n, const int64_t **out)
{
    uint64_t k;
    TRY(graph_bc_count(c, r, 1, &k));
    int64_t *v = graph_bc_alloc(c, (size_t)k * sizeof *v);
    if (!v) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < k; i++) TRY(graph_bc_svarint(c, r, &v[i]));
    *n = (int64_t)k;
    *out = v;
    return BASE_OK;
}

/* Value bits of an integer or float scalar type (0: neither). */
static int type_bits(const struct bc_type *t)
{
    if (!t || t->kind != BCT_SCALAR) return 0;
    if (t->dtype >= 0) return base_dtype_bits((enum base_dtype)t->dtype);
    if (!strcmp(t->name, "index")) return 64;
    if (!strcmp(t->name, "tf32")) return 19;
    return 0;
}

static const int enum_counts[] = {
    [BCE_CMP_DIR] = 6, [BCE_CMP_TYPE] = 5, [BCE_API_VERSION] = 5, [BCE_FFT] = 4, [BCE_PRECISION] = 3,
    [BCE_RNG_ALG] = 3, [BCE_RNG_DIST] = 3, [BCE_TRANSPOSE] = 4, [BCE_ACCURACY_MODE] = 3,
};

static enum base_status read_enum(struct bc_ctx *c, struct bc_rd *r, enum bc_enum en, struct bc_attr *a)
{
    struct bc_rd at = *r;
    uint64_t v;
    TRY(graph_bc_varint(c, r, &v));
    bool ok = v < (uint64_t)enum_counts[en] && !(en == BCE_RNG_DIST && v == 0);
    if (!ok) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "enum value %llu out of range", (unsigned long long)v);
    a->kind = BCA_ENUM;
    a->en = en;
    a->i = (int64_t)v;
    return BASE_OK;
}

enum base_status graph_bc_vhlo_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out)
{
    struct bc_rd at = *r;
    uint64_t code;
    TRY(graph_bc_varint(c, r, &code));
    struct bc_attr *a = new_attr(c, BCA_UNIT);
    if (!a) return graph_bc_nomem(c);
    *out = a;
    switch (code) {
    case 1:
        a->kind = BCA_ARRAY;
        return attr_list(c, r, 1, &a->n, &a->items);
    case 2: {
        uint64_t v;
        TRY(graph_bc_varint(c, r, &v));
        if (v > 1) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "boolean value %llu", (unsigned long long)v);
        a->kind = BCA_BOOL;
        a->b = v == 1;
        return BASE_OK;
    }
    case 3: return read_enum(c, r, BCE_CMP_DIR, a);
    case 4: return read_enum(c, r, BCE_CMP_TYPE, a);
    case 5: return read_enum(c, r, BCE_API_VERSION, a);
    case 6:
        a->kind = BCA_DICT;
        return attr_list(c, r, 2, &a->n, &a->items);
    case 7: return read_enum(c, r, BCE_FFT, a);
    case 8: case 9: {
        a->kind = code == 8 ? BCA_FLOAT : BCA_INT;
        TRY(graph_bc_type_ref(c, r, &a->type));
        int bits = type_bits(a->type);
        if (!bits) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "%s attribute of a non-scalar type", code == 8 ? "a float" : "an integer");
        uint64_t v;
        TRY(graph_bc_apint(c, r, bits, &v));
        if (code == 8) a->bits = v;
        else a->i = (int64_t)v;
        return BASE_OK;
    }
    case 10:
        a->kind = BCA_ALIAS;
        {
            const int64_t *o, *t;
            int64_t no, nt, oi;
            TRY(svarints(c, r, &no, &o));
            TRY(graph_bc_svarint(c, r, &oi));
            TRY(svarints(c, r, &nt, &t));
            int64_t *all = graph_bc_alloc(c, (size_t)(no + nt) * sizeof *all);
            if (!all) return graph_bc_nomem(c);
            memcpy(all, o, (size_t)no * sizeof *all);
            memcpy(all + no, t, (size_t)nt * sizeof *all);
            a->ints = all;
            a->n = no;
            a->n2 = nt;
            a->i = oi;
        }
        return BASE_OK;
    case 11: return read_enum(c, r, BCE_PRECISION, a);
    case 12: return read_enum(c, r, BCE_RNG_ALG, a);
    case 13: return read_enum(c, r, BCE_RNG_DIST, a);
    case 14: {
        struct bc_span s;
        TRY(graph_bc_string(c, r, &s));
        a->kind = BCA_STRING;
        a->s = (const char *)s.p;
        a->len = s.len;
        return BASE_OK;
    }
    case 15: { /* tensor: type, blob (i1: bit-packed, or one 0xFF/0x00 byte for a splat) */
        struct bc_span blob;
        a->kind = BCA_TENSOR;
        TRY(graph_bc_type_ref(c, r, &a->type));
        TRY(graph_bc_blob(c, r, &blob));
        a->data = blob.p;
        a->data_len = blob.len;
        const struct bc_type *t = a->type;
        if (t->kind != BCT_TENSOR) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "a tensor attribute of a non-tensor type");
        const struct bc_type *e = t->elem;
        if (!e || e->kind != BCT_SCALAR || strcmp(e->name, "i1")) return BASE_OK;
        uint64_t count = 1;
        for (int64_t i = 0; i < t->rank; i++) {
            if (t->dims[i] < 0) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "a tensor attribute of a dynamic shape");
            if (t->dims[i] && count > (uint64_t)INT64_MAX / (uint64_t)t->dims[i])
                return graph_bc_fail(c, &at, BASE_ERR_LIMIT, "too many elements");
            count *= (uint64_t)t->dims[i];
        }
        if (blob.len == 1 && blob.p[0] == 0xFF) {
            uint8_t *d = graph_bc_alloc(c, 1);
            if (!d) return graph_bc_nomem(c);
            d[0] = 1;
            a->data = d;
            return BASE_OK;
        }
        if (blob.len == (count + 7) / 8 && blob.len != count) {
            if (count > (uint64_t)64 * (r->end - r->p + blob.len + 1))
                return graph_bc_fail(c, &at, BASE_ERR_LIMIT, "too many elements");
            uint8_t *d = graph_bc_alloc(c, (size_t)count);
            if (!d) return graph_bc_nomem(c);
            for (uint64_t i = 0; i < count; i++) d[i] = (blob.p[i / 8] >> (i % 8)) & 1;
            a->data = d;
            a->data_len = (size_t)count;
        }
        return BASE_OK;
    }
    case 16: return read_enum(c, r, BCE_TRANSPOSE, a);
    case 17:
        a->kind = BCA_TYPE;
        return graph_bc_type_ref(c, r, &a->type);
    case 18:
        a->kind = BCA_BOUNDS;
        return svarints(c, r, &a->n, &a->ints);
    case 19: return read_enum(c, r, BCE_ACCURACY_MODE, a);
    case 20: {
        uint64_t atol, rtol;
        const struct bc_attr **m = graph_bc_alloc(c, sizeof *m);
        if (!m) return graph_bc_nomem(c);
        a->kind = BCA_ACCURACY;
        TRY(graph_bc_apint(c, r, 64, &atol));
        TRY(graph_bc_apint(c, r, 64, &rtol));
        TRY(graph_bc_svarint(c, r, &a->i));
        TRY(graph_bc_attr_ref(c, r, &m[0]));
        memcpy(&a->f, &atol, 8);
        memcpy(&a->f2, &rtol, 8);
        a->items = m;
        a->n = 1;
        return BASE_OK;
    }
    case 21:
        a->kind = BCA_SUBAXIS;
        TRY(graph_bc_svarint(c, r, &a->i));
        return graph_bc_svarint(c, r, &a->i2);
    case 22: {
        const struct bc_attr **m = graph_bc_alloc(c, 2 * sizeof *m);
        if (!m) return graph_bc_nomem(c);
        uint64_t has;
        a->kind = BCA_AXISREF;
        m[1] = NULL;
        TRY(graph_bc_attr_ref(c, r, &m[0]));
        TRY(graph_bc_varint(c, r, &has));
        if (has) TRY(graph_bc_attr_ref(c, r, &m[1]));
        a->items = m;
        a->n = 2;
        return BASE_OK;
    }
    case 23: case 25: {
        const struct bc_attr **m = graph_bc_alloc(c, 2 * sizeof *m);
        if (!m) return graph_bc_nomem(c);
        a->kind = code == 23 ? BCA_RG_MESH : BCA_MESH;
        m[1] = NULL;
        TRY(graph_bc_attr_ref(c, r, &m[0]));
        if (code == 23) {
            TRY(graph_bc_attr_ref(c, r, &m[1]));
        } else {
            struct bc_rd at2 = *r;
            uint64_t idx;
            TRY(graph_bc_varint(c, r, &idx));
            if (idx & 1) TRY(graph_bc_attr_at(c, &at2, idx >> 1, &m[1])); /* (index << 1) | present */
        }
        a->items = m;
        a->n = 2;
        return BASE_OK;
    }
    case 24: {
        const struct bc_attr **m = graph_bc_alloc(c, sizeof *m);
        if (!m) return graph_bc_nomem(c);
        a->kind = BCA_MESHAXIS;
        TRY(graph_bc_attr_ref(c, r, &m[0]));
        TRY(graph_bc_svarint(c, r, &a->i));
        a->items = m;
        a->n = 1;
        return BASE_OK;
    }
    default:
        return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED,
                             "VHLO attribute code %llu is not known (newer than StableHLO v1.20.0?)",
                             (unsigned long long)code);
    }
}

static const char *const vhlo_scalars[] = {
    [0] = "i1",        [2] = "bf16",         [3] = "f16",        [4] = "f32",       [5] = "f64",
    [6] = "f8E4M3FN",  [7] = "f8E5M2",       [9] = "index",      [10] = "i4",       [11] = "i8",
    [12] = "i16",      [13] = "i32",         [14] = "i64",       [15] = "ui4",      [16] = "ui8",
    [17] = "ui16",     [18] = "ui32",        [19] = "ui64",      [27] = "f8E4M3FNUZ", [28] = "f8E5M2FNUZ",
    [29] = "f8E4M3B11FNUZ", [31] = "i2",     [32] = "ui2",       [33] = "none",     [34] = "tf32",
    [35] = "f8E4M3",   [36] = "f8E3M4",      [37] = "f4E2M1FN",  [38] = "f6E2M3FN", [39] = "f6E3M2FN",
    [40] = "f8E8M0FNU",
};

enum base_status graph_bc_vhlo_type(struct bc_ctx *c, struct bc_rd *r, const struct bc_type **out)
{
    struct bc_rd at = *r;
    uint64_t code;
    TRY(graph_bc_varint(c, r, &code));
    if (code < sizeof vhlo_scalars / sizeof vhlo_scalars[0] && vhlo_scalars[code]) {
        *out = graph_bc_scalar(c, vhlo_scalars[code]);
        return *out ? BASE_OK : graph_bc_nomem(c);
    }
    struct bc_type *t = graph_bc_alloc(c, sizeof *t);
    if (!t) return graph_bc_nomem(c);
    memset(t, 0, sizeof *t);
    t->dtype = -1;
    *out = t;
    switch (code) {
    case 1:
        t->kind = BCT_COMPLEX;
        return graph_bc_type_ref(c, r, &t->elem);
    case 8: {
        const struct bc_type **in, **res;
        int64_t ni, nr;
        t->kind = BCT_FUNC;
        TRY(graph_bc_type_list(c, r, &ni, &in));
        TRY(graph_bc_type_list(c, r, &nr, &res));
        const struct bc_type **all = graph_bc_alloc(c, (size_t)(ni + nr) * sizeof *all);
        if (!all) return graph_bc_nomem(c);
        memcpy(all, in, (size_t)ni * sizeof *all);
        memcpy(all + ni, res, (size_t)nr * sizeof *all);
        t->n = ni;
        t->n2 = nr;
        t->items = all;
        return BASE_OK;
    }
    case 20: case 21: case 41:
        t->kind = code == 41 ? BCT_BUFFER : BCT_TENSOR;
        if (code == 21) TRY(graph_bc_attr_ref(c, r, &t->encoding));
        TRY(svarints(c, r, &t->rank, &t->dims));
        return graph_bc_type_ref(c, r, &t->elem);
    case 22:
        t->kind = BCT_TOKEN;
        return BASE_OK;
    case 23: case 42: {
        const struct bc_type **items;
        t->kind = code == 23 ? BCT_TUPLE : BCT_FUTURE;
        TRY(graph_bc_type_list(c, r, &t->n, &items));
        t->items = items;
        return BASE_OK;
    }
    case 24: case 30: {
        uint64_t flags, bits;
        t->kind = BCT_QUANT;
        TRY(graph_bc_varint(c, r, &flags));
        t->q_signed = flags & 1;
        TRY(graph_bc_type_ref(c, r, &t->q_storage));
        TRY(graph_bc_type_ref(c, r, &t->q_expressed));
        if (code == 24) {
            double *s = graph_bc_alloc(c, sizeof *s);
            int64_t *z = graph_bc_alloc(c, sizeof *z);
            if (!s || !z) return graph_bc_nomem(c);
            TRY(graph_bc_apint(c, r, 64, &bits));
            memcpy(s, &bits, 8);
            TRY(graph_bc_svarint(c, r, z));
            TRY(graph_bc_svarint(c, r, &t->q_min));
            TRY(graph_bc_svarint(c, r, &t->q_max));
            t->q_dim = -1;
            t->q_n = 1;
            t->q_scales = s;
            t->q_zps = z;
            return BASE_OK;
        }
        uint64_t dim, ns, nz;
        TRY(graph_bc_varint(c, r, &dim));
        if (dim > 1024) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "quantized dimension %llu", (unsigned long long)dim);
        t->q_dim = (int64_t)dim;
        TRY(graph_bc_svarint(c, r, &t->q_min));
        TRY(graph_bc_svarint(c, r, &t->q_max));
        TRY(graph_bc_count(c, r, 1, &ns));
        double *s = graph_bc_alloc(c, (size_t)ns * sizeof *s);
        if (!s) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < ns; i++) {
            TRY(graph_bc_apint(c, r, 64, &bits));
            memcpy(&s[i], &bits, 8);
        }
        TRY(graph_bc_count(c, r, 1, &nz));
        if (nz != ns) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "%llu scales but %llu zero points", (unsigned long long)ns, (unsigned long long)nz);
        int64_t *z = graph_bc_alloc(c, (size_t)nz * sizeof *z);
        if (!z) return graph_bc_nomem(c);
        for (uint64_t i = 0; i < nz; i++) TRY(graph_bc_svarint(c, r, &z[i]));
        t->q_n = (int64_t)ns;
        t->q_scales = s;
        t->q_zps = z;
        return BASE_OK;
    }
    case 25:
        t->kind = BCT_UNRANKED;
        return graph_bc_type_ref(c, r, &t->elem);
    case 26:
        t->kind = BCT_TEXT;
        t->name = "!shape.witness";
        return BASE_OK;
    default:
        return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "VHLO type code %llu is not known (newer than StableHLO v1.20.0?)",
                             (unsigned long long)code);
    }
}

/* ------------------------------------------------------------------------ */
/* Printing types                                                            */

static void print_dims(struct sbuf *s, int64_t rank, const int64_t *dims)
{
    for (int64_t i = 0; i < rank; i++) {
        if (dims[i] == INT64_MIN || dims[i] == -1) graph_print_buf_putc(s, '?');
        else graph_print_buf_printf(s, "%lld", (long long)dims[i]);
        graph_print_buf_putc(s, 'x');
    }
}

static void print_scale(struct sbuf *s, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    graph_print_buf_puts(s, buf);
}

bool graph_bc_print_enter(struct bc_ctx *c)
{
    if (c->too_big || !c->budget || c->print_depth >= 4 * GRAPH_MAX_NESTING) {
        c->too_big = true;
        return false;
    }
    c->budget--;
    c->print_depth++;
    return true;
}

void graph_bc_print_leave(struct bc_ctx *c)
{
    c->print_depth--;
}

static void print_type_inner(struct bc_ctx *c, const struct bc_type *t);

void graph_bc_print_type(struct bc_ctx *c, const struct bc_type *t)
{
    if (!graph_bc_print_enter(c)) return;
    print_type_inner(c, t);
    graph_bc_print_leave(c);
}

static void print_type_inner(struct bc_ctx *c, const struct bc_type *t)
{
    struct sbuf *s = &c->out;
    if (!t) {
        graph_print_buf_puts(s, "none");
        return;
    }
    switch (t->kind) {
    case BCT_SCALAR:
    case BCT_TEXT:
        graph_print_buf_puts(s, t->name);
        return;
    case BCT_COMPLEX:
        graph_print_buf_puts(s, "complex<");
        graph_bc_print_type(c, t->elem);
        graph_print_buf_putc(s, '>');
        return;
    case BCT_TENSOR:
    case BCT_BUFFER:
        graph_print_buf_puts(s, t->kind == BCT_TENSOR ? "tensor<" : "memref<");
        print_dims(s, t->rank, t->dims);
        graph_bc_print_type(c, t->elem);
        if (t->encoding) {
            graph_print_buf_puts(s, ", ");
            graph_bc_print_attr(c, t->encoding);
        }
        graph_print_buf_putc(s, '>');
        return;
    case BCT_UNRANKED:
        graph_print_buf_puts(s, "tensor<*x");
        graph_bc_print_type(c, t->elem);
        graph_print_buf_putc(s, '>');
        return;
    case BCT_TUPLE:
    case BCT_FUTURE:
        graph_print_buf_puts(s, t->kind == BCT_TUPLE ? "tuple<" : "!stablehlo.future<");
        for (int64_t i = 0; i < t->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_bc_print_type(c, t->items[i]);
        }
        graph_print_buf_putc(s, '>');
        return;
    case BCT_FUNC: {
        graph_print_buf_putc(s, '(');
        for (int64_t i = 0; i < t->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_bc_print_type(c, t->items[i]);
        }
        graph_print_buf_puts(s, ") -> ");
        bool paren = t->n2 != 1 || t->items[t->n]->kind == BCT_FUNC;
        if (paren) graph_print_buf_putc(s, '(');
        for (int64_t i = 0; i < t->n2; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_bc_print_type(c, t->items[t->n + i]);
        }
        if (paren) graph_print_buf_putc(s, ')');
        return;
    }
    case BCT_TOKEN:
        graph_print_buf_puts(s, "!stablehlo.token");
        return;
    case BCT_QUANT: {
        const struct bc_type *st = t->q_storage;
        int bits = st && st->kind == BCT_SCALAR && st->dtype >= 0 ? base_dtype_bits((enum base_dtype)st->dtype) : 0;
        graph_print_buf_printf(s, "!quant.uniform<%c%d", t->q_signed ? 'i' : 'u', bits);
        int64_t lo = 0, hi = 0;
        if (bits > 0 && bits < 64) {
            lo = t->q_signed ? -((int64_t)1 << (bits - 1)) : 0;
            hi = t->q_signed ? ((int64_t)1 << (bits - 1)) - 1 : (int64_t)(((uint64_t)1 << bits) - 1);
        }
        if (t->q_min != lo || t->q_max != hi) graph_print_buf_printf(s, "<%lld:%lld>", (long long)t->q_min, (long long)t->q_max);
        graph_print_buf_putc(s, ':');
        graph_bc_print_type(c, t->q_expressed);
        if (t->q_dim >= 0) graph_print_buf_printf(s, ":%lld, {", (long long)t->q_dim);
        else graph_print_buf_puts(s, ", ");
        for (int64_t i = 0; i < t->q_n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_scale(s, t->q_scales[i]);
            if (t->q_zps[i]) graph_print_buf_printf(s, ":%lld", (long long)t->q_zps[i]);
        }
        if (t->q_dim >= 0) graph_print_buf_putc(s, '}');
        graph_print_buf_putc(s, '>');
        return;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Printing attributes                                                       */

static const char *const enum_words[][6] = {
    [BCE_CMP_DIR] = {"EQ", "NE", "GE", "GT", "LE", "LT"},
    [BCE_CMP_TYPE] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"},
    [BCE_API_VERSION] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                         "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"},
    [BCE_FFT] = {"FFT", "IFFT", "RFFT", "IRFFT"},
    [BCE_PRECISION] = {"DEFAULT", "HIGH", "HIGHEST"},
    [BCE_RNG_ALG] = {"DEFAULT", "THREE_FRY", "PHILOX"},
    [BCE_RNG_DIST] = {"", "UNIFORM", "NORMAL"},
    [BCE_TRANSPOSE] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"},
    [BCE_ACCURACY_MODE] = {"DEFAULT", "HIGHEST", "TOLERANCE"},
};
static const char *const enum_tags[] = {
    [BCE_CMP_DIR] = "comparison_direction", [BCE_CMP_TYPE] = "comparison_type", [BCE_API_VERSION] = "",
    [BCE_FFT] = "fft_type",                 [BCE_PRECISION] = "precision",      [BCE_RNG_ALG] = "rng_algorithm",
    [BCE_RNG_DIST] = "rng_distribution",    [BCE_TRANSPOSE] = "transpose",      [BCE_ACCURACY_MODE] = "",
};

/* Sign- or zero-extends the low bits of v by the integer type's spelling. */
static int64_t int_value(const struct bc_type *t, uint64_t v, bool *is_unsigned)
{
    int bits = type_bits(t);
    *is_unsigned = t && t->kind == BCT_SCALAR && !strncmp(t->name, "ui", 2);
    if (bits <= 0 || bits >= 64) return (int64_t)v;
    uint64_t m = ((uint64_t)1 << bits) - 1;
    v &= m;
    if (!*is_unsigned && (v >> (bits - 1)) & 1) v |= ~m;
    return (int64_t)v;
}

static void print_int(struct sbuf *s, const struct bc_type *t, uint64_t v)
{
    bool u;
    int64_t x = int_value(t, v, &u);
    if (u) graph_print_buf_printf(s, "%llu", (unsigned long long)(uint64_t)x);
    else graph_print_buf_printf(s, "%lld", (long long)x);
}

/* A float by its bits: the exact decimal, or the hex bit pattern. */
static void print_float_bits(struct sbuf *s, const struct bc_type *t, uint64_t bits)
{
    int nbits = type_bits(t);
    if (t && t->kind == BCT_SCALAR && t->dtype >= 0) {
        double v = base_float_f64_from_bits((enum base_dtype)t->dtype, bits);
        if (isfinite(v) && base_float_bits_from_f64((enum base_dtype)t->dtype, v) == bits) {
            graph_print_f64(s, v);
            return;
        }
    }
    graph_print_buf_printf(s, "0x%0*llX", (nbits + 3) / 4, (unsigned long long)bits);
}

static bool is_i1(const struct bc_type *t)
{
    return t && t->kind == BCT_SCALAR && !strcmp(t->name, "i1");
}

/* The element type's bytes per element in a dense blob. */
static size_t elem_bytes(const struct bc_type *e)
{
    if (!e) return 0;
    if (e->kind == BCT_COMPLEX) return 2 * elem_bytes(e->elem);
    if (e->kind != BCT_SCALAR) return 0;
    if (!strcmp(e->name, "index")) return 8;
    return (size_t)(e->storage_bits + 7) / 8;
}

static void print_hex(struct sbuf *s, const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789ABCDEF";
    graph_print_buf_puts(s, "\"0x");
    char buf[256];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        buf[k++] = hx[p[i] >> 4];
        buf[k++] = hx[p[i] & 15];
        if (k == sizeof buf) {
            graph_print_buf_putn(s, buf, k);
            k = 0;
        }
    }
    graph_print_buf_putn(s, buf, k);
    graph_print_buf_putc(s, '"');
}

void graph_bc_print_tensor(struct bc_ctx *c, const struct bc_attr *a)
{
    struct sbuf *s = &c->out;
    graph_print_buf_puts(s, "dense<");
    if (a->data_len) print_hex(s, a->data, a->data_len);
    graph_print_buf_puts(s, "> : ");
    graph_bc_print_type(c, a->type);
}

static uint64_t load_le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

void graph_bc_print_dense_array(struct bc_ctx *c, const struct bc_attr *a, const char *elem)
{
    struct sbuf *s = &c->out;
    const struct bc_type *t = a->type;
    graph_print_buf_printf(s, "array<%s", elem ? elem : t->name);
    size_t eb = elem_bytes(t);
    bool fl = t->dtype >= 0 && base_dtype_is_float((enum base_dtype)t->dtype);
    for (int64_t i = 0; i < a->n; i++) {
        graph_print_buf_puts(s, i ? ", " : ": ");
        uint64_t v = eb ? load_le(a->data + (size_t)i * eb, eb) : 0;
        if (is_i1(t)) graph_print_buf_puts(s, v & 1 ? "true" : "false");
        else if (fl) print_float_bits(s, t, v);
        else print_int(s, t, v);
    }
    graph_print_buf_putc(s, '>');
}

/* The elements of an integer tensor attribute (splat expanded). */
bool graph_bc_tensor_i64s(const struct bc_attr *a, int64_t *out, int64_t cap, int64_t *n)
{
    if (!a || a->kind != BCA_TENSOR || !a->type || a->type->kind != BCT_TENSOR) return false;
    const struct bc_type *e = a->type->elem;
    if (!e || e->kind != BCT_SCALAR || (e->dtype >= 0 && base_dtype_is_float((enum base_dtype)e->dtype))) return false;
    size_t eb = elem_bytes(e);
    if (!eb) return false;
    int64_t count = 1;
    for (int64_t i = 0; i < a->type->rank; i++) {
        if (a->type->dims[i] < 0 || (a->type->dims[i] && count > INT64_MAX / a->type->dims[i])) return false;
        count *= a->type->dims[i];
    }
    if (count > GRAPH_BC_MAX_CONVERT) return false;
    bool splat = a->data_len == eb && count > 1;
    if (!splat && a->data_len != (size_t)count * eb) return false;
    *n = count;
    for (int64_t i = 0; i < count && i < cap; i++) {
        bool u;
        out[i] = int_value(e, load_le(a->data + (splat ? 0 : (size_t)i * eb), eb), &u);
    }
    return true;
}

static void print_i64_list(struct sbuf *s, const int64_t *v, int64_t n)
{
    graph_print_buf_putc(s, '[');
    for (int64_t i = 0; i < n; i++) graph_print_buf_printf(s, "%s%lld", i ? ", " : "", (long long)v[i]);
    graph_print_buf_putc(s, ']');
}

static void print_name(struct sbuf *s, const struct bc_attr *k)
{
    if (k && k->kind == BCA_STRING && k->len && graph_lex_bare_id(k->s, k->s + k->len) == k->len)
        graph_print_buf_putn(s, k->s, k->len);
    else if (k && k->kind == BCA_STRING)
        graph_print_string(s, k->s, k->len);
    else
        graph_print_buf_puts(s, "\"?\"");
}

void graph_bc_print_attr(struct bc_ctx *c, const struct bc_attr *a)
{
    struct sbuf *s = &c->out;
    if (!a) {
        graph_print_buf_puts(s, "unit");
        return;
    }
    if (!graph_bc_print_enter(c)) return;
    switch (a->kind) {
    case BCA_TEXT:
        graph_print_buf_putn(s, a->s, a->len);
        break;
    case BCA_ARRAY:
        graph_print_buf_putc(s, '[');
        for (int64_t i = 0; i < a->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_bc_print_attr(c, a->items[i]);
        }
        graph_print_buf_putc(s, ']');
        break;
    case BCA_DICT:
        graph_print_buf_putc(s, '{');
        for (int64_t i = 0; i < a->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            print_name(s, a->items[2 * i]);
            if (a->items[2 * i + 1]->kind == BCA_UNIT) continue;
            graph_print_buf_puts(s, " = ");
            graph_bc_print_attr(c, a->items[2 * i + 1]);
        }
        graph_print_buf_putc(s, '}');
        break;
    case BCA_STRING:
        graph_print_string(s, a->s, a->len);
        if (a->type) {
            graph_print_buf_puts(s, " : ");
            graph_bc_print_type(c, a->type);
        }
        break;
    case BCA_BOOL:
        graph_print_buf_puts(s, a->b ? "true" : "false");
        break;
    case BCA_INT:
        if (is_i1(a->type)) {
            graph_print_buf_puts(s, a->i & 1 ? "true" : "false");
            break;
        }
        print_int(s, a->type, (uint64_t)a->i);
        graph_print_buf_puts(s, " : ");
        graph_bc_print_type(c, a->type);
        break;
    case BCA_FLOAT:
        print_float_bits(s, a->type, a->bits);
        graph_print_buf_puts(s, " : ");
        graph_bc_print_type(c, a->type);
        break;
    case BCA_ENUM:
        if (a->en == BCE_API_VERSION) graph_print_buf_printf(s, "%lld : i32", (long long)a->i);
        else if (a->en == BCE_ACCURACY_MODE)
            graph_print_buf_printf(s, "#stablehlo.result_accuracy_mode<%s>", enum_words[a->en][a->i]);
        else graph_print_buf_printf(s, "#stablehlo<%s %s>", enum_tags[a->en], enum_words[a->en][a->i]);
        break;
    case BCA_TYPE:
        graph_bc_print_type(c, a->type);
        break;
    case BCA_TENSOR:
        graph_bc_print_tensor(c, a);
        break;
    case BCA_DENSE_ARRAY:
        graph_bc_print_dense_array(c, a, NULL);
        break;
    case BCA_STRINGS:
        graph_print_buf_puts(s, "dense<");
        if (!a->b) graph_print_buf_putc(s, '[');
        for (int64_t i = 0; i < a->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            graph_print_string(s, a->items[i]->s, a->items[i]->len);
        }
        if (!a->b) graph_print_buf_putc(s, ']');
        graph_print_buf_puts(s, "> : ");
        graph_bc_print_type(c, a->type);
        break;
    case BCA_RESOURCE: {
        const struct bc_resource *res = &c->resources[a->i];
        graph_print_buf_puts(s, "dense_resource<");
        graph_print_buf_putn(s, (const char *)res->key.p, res->key.len);
        graph_print_buf_puts(s, "> : ");
        graph_bc_print_type(c, a->type);
        break;
    }
    case BCA_SYMREF:
        graph_print_symbol(s, a->s, a->len);
        for (int64_t i = 0; i < a->n; i++) {
            graph_print_buf_puts(s, "::");
            graph_bc_print_attr(c, a->items[i]);
        }
        break;
    case BCA_UNIT:
        graph_print_buf_puts(s, "unit");
        break;
    case BCA_DISTINCT:
        graph_print_buf_puts(s, "distinct[0]<");
        graph_bc_print_attr(c, a->items[0]);
        graph_print_buf_putc(s, '>');
        break;
    case BCA_ALIAS:
        graph_print_buf_puts(s, "#stablehlo.output_operand_alias<output_tuple_indices = ");
        print_i64_list(s, a->ints, a->n);
        graph_print_buf_printf(s, ", operand_index = %lld, operand_tuple_indices = ", (long long)a->i);
        print_i64_list(s, a->ints + a->n, a->n2);
        graph_print_buf_putc(s, '>');
        break;
    case BCA_BOUNDS:
        graph_print_buf_puts(s, "#stablehlo.bounds<");
        for (int64_t i = 0; i < a->n; i++) {
            if (i) graph_print_buf_puts(s, ", ");
            if (a->ints[i] == INT64_MIN) graph_print_buf_putc(s, '?');
            else graph_print_buf_printf(s, "%lld", (long long)a->ints[i]);
        }
        graph_print_buf_putc(s, '>');
        break;
    case BCA_ACCURACY:
        graph_print_buf_printf(s, "#stablehlo.result_accuracy<atol = %e, rtol = %e, ulps = %lld, mode = ", a->f, a->f2,
                               (long long)a->i);
        graph_bc_print_attr(c, a->items[0]);
        graph_print_buf_putc(s, '>');
        break;
    case BCA_SUBAXIS:
        graph_print_buf_printf(s, "#stablehlo.sub_axis_info<(%lld)%lld>", (long long)a->i, (long long)a->i2);
        break;
    case BCA_AXISREF:
        graph_print_buf_puts(s, "#stablehlo.axis_ref<name = ");
        graph_bc_print_attr(c, a->items[0]);
        if (a->items[1] && a->items[1]->kind == BCA_SUBAXIS) /* a parameter of the dialect's own: stripped */
            graph_print_buf_printf(s, ", sub_axis_info = (%lld)%lld", (long long)a->items[1]->i, (long long)a->items[1]->i2);
        graph_print_buf_putc(s, '>');
        break;
    case BCA_MESHAXIS:
        graph_print_buf_puts(s, "#stablehlo.mesh_axis<name = ");
        graph_bc_print_attr(c, a->items[0]);
        graph_print_buf_printf(s, ", size = %lld>", (long long)a->i);
        break;
    case BCA_MESH: /* axes=[<name = "x", size = 2>, ...], device_ids=dense<...> */
        graph_print_buf_puts(s, "#stablehlo.mesh<axes=[");
        if (a->items[0]->kind == BCA_ARRAY)
            for (int64_t i = 0; i < a->items[0]->n; i++) {
                const struct bc_attr *ax = a->items[0]->items[i];
                if (i) graph_print_buf_puts(s, ", ");
                if (ax->kind == BCA_MESHAXIS) {
                    graph_print_buf_puts(s, "<name = ");
                    graph_bc_print_attr(c, ax->items[0]);
                    graph_print_buf_printf(s, ", size = %lld>", (long long)ax->i);
                } else {
                    graph_bc_print_attr(c, ax);
                }
            }
        graph_print_buf_putc(s, ']');
        if (a->items[1]) {
            graph_print_buf_puts(s, ", device_ids=");
            graph_bc_print_attr(c, a->items[1]);
        }
        graph_print_buf_putc(s, '>');
        break;
    case BCA_RG_MESH:
        graph_print_buf_puts(s, "#stablehlo.replica_group_mesh_axes<mesh = ");
        if (a->items[0]->kind == BCA_STRING) graph_print_symbol(s, a->items[0]->s, a->items[0]->len);
        else graph_bc_print_attr(c, a->items[0]);
        graph_print_buf_puts(s, ", axes = ");
        graph_bc_print_attr(c, a->items[1]);
        graph_print_buf_putc(s, '>');
        break;
    case BCA_LOC_UNKNOWN:
    case BCA_LOC_FILE:
    case BCA_LOC_NAME:
    case BCA_LOC_CALLSITE:
    case BCA_LOC_FUSED:
        graph_print_buf_puts(s, "unit"); /* a location as an attribute value: not kept */
        break;
    }
    graph_bc_print_leave(c);
}
