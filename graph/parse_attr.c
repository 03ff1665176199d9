/* StableHLO text parser: types and attributes (dense literals: parse_literal.c).
 *
 * Literal conversion (documented choice): a decimal literal is converted to
 * the correctly rounded double, then rounded once more (to nearest even) to
 * the element type.  That is what MLIR does (Token::getFloatingPointValue,
 * then APFloat::convert), so the tensors match what stablehlo-translate
 * builds from the same text, including the rare double-rounding cases.
 * Hexadecimal literals (0x7FC00000) are bit patterns of the element type.
 */
#include "graph/graph.h"
#include "graph/parse_internal.h"
#include "graph/print_internal.h"

#include <math.h>
#include <string.h>

const char GRAPH_TAG_FUNCTION_TYPE[] = "builtin.function_type";
const char GRAPH_TAG_SDY_SHARDING[] = "sdy.sharding";
const char GRAPH_TAG_SDY_MESH[] = "sdy.mesh";
const char GRAPH_TAG_CONV[] = "stablehlo.conv";
const char GRAPH_TAG_DOT[] = "stablehlo.dot";
const char GRAPH_TAG_DOT_ALGORITHM[] = "stablehlo.dot_algorithm";
const char GRAPH_TAG_PRECISION[] = "stablehlo.precision";
const char GRAPH_TAG_CHLO_PRECISION[] = "chlo.precision";
const char GRAPH_TAG_SDY_SUB_AXIS[] = "sdy.sub_axis";
const char GRAPH_TAG_BOUNDS[] = "stablehlo.bounds";

static const struct graph_type token_type = {.kind = GRAPH_TYPE_TOKEN};

static bool starts_with(struct parser *p, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(p->end - p->cur) >= n && memcmp(p->cur, s, n) == 0;
}

struct graph_attr *graph_new_attr(struct parser *p, enum graph_attr_kind kind)
{
    struct graph_attr *a = graph_palloc(p, sizeof *a);
    if (a) a->kind = kind;
    return a;
}

const struct graph_attr *graph_attr_int(struct parser *p, int64_t v, enum base_dtype elem)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_INT);
    if (!a) return NULL;
    a->elem = elem;
    a->u.i = v;
    return a;
}

const struct graph_attr *graph_attr_bool(struct parser *p, bool v)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_BOOL);
    if (a) a->u.b = v;
    return a;
}

const struct graph_attr *graph_attr_string(struct parser *p, const char *s, size_t len)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_STRING);
    if (!a) return NULL;
    a->u.str.s = s;
    a->u.str.len = len;
    return a;
}

const struct graph_attr *graph_attr_keyword(struct parser *p, const char *tag, const char *s, size_t len)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_KEYWORD);
    if (!a) return NULL;
    a->tag = tag;
    a->u.str.s = graph_pstrndup(p, s, len);
    a->u.str.len = len;
    return a->u.str.s ? a : NULL;
}

const struct graph_attr *graph_attr_dense_i64(struct parser *p, const int64_t *v, int n)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_DENSE_ARRAY);
    if (!a) return NULL;
    a->elem = BASE_DT_SI64;
    int64_t *d = graph_palloc(p, (size_t)(n ? n : 1) * sizeof *d);
    if (!d) return NULL;
    if (n) memcpy(d, v, (size_t)n * sizeof *d);
    a->u.dense.n = n;
    a->u.dense.i = d;
    return a;
}

const struct graph_type *graph_make_tensor_type(struct parser *p, enum base_dtype elem,
                                          const struct graph_quant *q, int rank, const int64_t *dims)
{
    struct graph_type *t = graph_palloc(p, sizeof *t);
    if (!t) return NULL;
    t->kind = GRAPH_TYPE_TENSOR;
    t->elem = elem;
    t->quant = q;
    t->rank = rank;
    for (int i = 0; i < rank && i < GRAPH_MAX_RANK; i++) t->dims[i] = dims[i];
    return t;
}

enum base_status graph_parse_track_tensor(struct parser *p, struct base_tensor *t)
{
    return ps_push(p, &p->tensors, &t);
}

const struct graph_attr *graph_attr_elements_i64(struct parser *p, const int64_t *v, int rank, const int64_t *dims)
{
    struct base_tensor *t;
    if (base_tensor_create(BASE_DT_SI64, rank, dims, &t) != BASE_OK) return NULL;
    if (graph_parse_track_tensor(p, t) != BASE_OK) {
        base_tensor_release(t);
        return NULL;
    }
    if (t->count) memcpy(t->data, v, (size_t)t->count * sizeof(int64_t));
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_ELEMENTS);
    if (!a) return NULL;
    a->u.elements.type = graph_make_tensor_type(p, BASE_DT_SI64, NULL, rank, dims);
    a->u.elements.value = t;
    return a->u.elements.type ? a : NULL;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

enum base_status graph_parse_f64_literal(struct parser *p, const char *text, size_t n, const char *pos, double *out)
{
    if (!graph_lex_parse_f64(text, n, out)) return graph_perr(p, pos, "numeric literal too long");
    /* as MLIR's parser: a decimal literal past the largest double is an
     * error, not inf (inf and NaN are written as hexadecimal bits) */
    if (isinf(*out)) return graph_perr(p, pos, "floating point value too large");
    return BASE_OK;
}

enum base_status graph_parse_f64_lit(struct parser *p, double *out, const char *ctx)
{
    skip_ws(p);
    const char *pos = p->cur;
    bool neg = false;
    if (p->cur < p->end && (*p->cur == '-' || *p->cur == '+')) {
        neg = *p->cur == '-';
        p->cur++;
    }
    size_t idn = graph_lex_bare_id(p->cur, p->end);
    if ((idn == 3 && !memcmp(p->cur, "inf", 3)) || (idn == 3 && !memcmp(p->cur, "nan", 3))) {
        *out = p->cur[0] == 'i' ? (neg ? -INFINITY : INFINITY) : (neg ? -NAN : NAN);
        p->cur += 3;
        return BASE_OK;
    }
    struct graph_lex_number num;
    size_t n = graph_lex_number(p->cur, p->end, &num);
    if (!n || num.is_hex) {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        p->cur = pos;
        return graph_perr(p, pos, "expected a number %s, found %s", ctx, found);
    }
    double d;
    TRY(graph_parse_f64_literal(p, p->cur, n, pos, &d));
    p->cur += n;
    *out = neg ? -d : d;
    return BASE_OK;
}

/* ": <scalar type>" after a number, when the type is a builtin scalar. */
static bool accept_scalar_type_suffix(struct parser *p, enum base_dtype *dt)
{
    skip_ws(p);
    if (p->cur >= p->end || *p->cur != ':') return false;
    const char *q = graph_lex_skip_ws(p->cur + 1, p->end);
    size_t n = graph_lex_bare_id(q, p->end);
    if (!n) return false;
    enum base_dtype d;
    if (n == 5 && !memcmp(q, "index", 5)) d = BASE_DT_INDEX;
    else if (n >= 2 && q[0] == 'u' && lex_is_digit(q[1])) {
        char buf[16];
        if (n + 1 >= sizeof buf) return false;
        buf[0] = 'u';
        buf[1] = 'i';
        memcpy(buf + 2, q + 1, n - 1);
        if (!base_dtype_parse(buf, n + 1, &d)) return false;
    } else if (n >= 3 && q[0] == 's' && q[1] == 'i' && lex_is_digit(q[2])) {
        if (!base_dtype_parse(q + 1, n - 1, &d)) return false;
    } else if (!base_dtype_parse(q, n, &d)) {
        return false;
    }
    if (base_dtype_is_complex(d)) return false;
    p->cur = q + n;
    *dt = d;
    return true;
}

double graph_parse_round_float(enum base_dtype dt, double v)
{
    if (dt == BASE_DT_F64 || !base_dtype_is_float(dt)) return v;
    if (dt == BASE_DT_F32) return (double)(float)v;
    return base_float_f64_from_bits(dt, base_float_bits_from_f64(dt, v));
}

enum base_status graph_parse_float_attr_value(struct parser *p, enum base_dtype elem, const struct graph_attr **out)
{
    double d;
    TRY(graph_parse_f64_lit(p, &d, "(float attribute)"));
    enum base_dtype t;
    if (accept_scalar_type_suffix(p, &t)) {
        if (!base_dtype_is_float(t)) return graph_perr(p, p->cur, "expected a float type after the float value");
        elem = t;
    }
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_FLOAT);
    if (!a) return nomem(p);
    a->elem = elem;
    a->u.f = graph_parse_round_float(elem, d);
    *out = a;
    return BASE_OK;
}

/* integer / float / hex number as an attribute, with an optional ": type" */
static enum base_status parse_number_attr(struct parser *p, const struct graph_attr **out)
{
    const char *pos = p->cur;
    bool neg = false;
    if (*p->cur == '-' || *p->cur == '+') {
        neg = *p->cur == '-';
        p->cur++;
    }
    struct graph_lex_number num;
    size_t n = graph_lex_number(p->cur, p->end, &num);
    if (!n) return graph_perr(p, pos, "expected a number");
    const char *text = p->cur;
    p->cur += n;
    enum base_dtype dt;
    bool typed = accept_scalar_type_suffix(p, &dt);
    if (num.is_float || (typed && base_dtype_is_float(dt) && !num.is_hex)) {
        double d;
        TRY(graph_parse_f64_literal(p, text, n, pos, &d));
        struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_FLOAT);
        if (!a) return nomem(p);
        a->elem = typed ? dt : BASE_DT_F64;
        if (!base_dtype_is_float(a->elem)) return graph_perr(p, pos, "a float literal needs a float type");
        a->u.f = graph_parse_round_float(a->elem, neg ? -d : d);
        *out = a;
        return BASE_OK;
    }
    if (num.overflow) return graph_perr(p, pos, "integer literal does not fit in 64 bits");
    if (typed && base_dtype_is_float(dt)) { /* hex bit pattern */
        if (neg) return graph_perr(p, pos, "a hexadecimal float literal cannot be negative");
        int bits = base_dtype_bits(dt);
        if (bits < 64 && (num.mag >> bits)) return graph_perr(p, pos, "hexadecimal literal does not fit in %d bits", bits);
        struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_FLOAT);
        if (!a) return nomem(p);
        a->elem = dt;
        a->u.f = base_float_f64_from_bits(dt, num.mag);
        *out = a;
        return BASE_OK;
    }
    if (typed && dt == BASE_DT_I1) {
        if (neg || num.mag > 1) return graph_perr(p, pos, "an i1 value must be 0 or 1");
        *out = graph_attr_bool(p, num.mag != 0);
        return *out ? BASE_OK : nomem(p);
    }
    if (neg && num.mag > (UINT64_C(1) << 63)) return graph_perr(p, pos, "integer literal is out of the 64-bit range");
    *out = graph_attr_int(p, neg ? (int64_t)(0 - num.mag) : (int64_t)num.mag, typed ? dt : BASE_DT_SI64);
    return *out ? BASE_OK : nomem(p);
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static enum base_status parse_quant(struct parser *p, struct graph_quant **out)
{
    /* after "!quant.uniform<" */
    struct graph_quant *q = graph_palloc(p, sizeof *q);
    if (!q) return nomem(p);
    const char *pos;
    size_t n;
    skip_ws(p);
    pos = p->cur;
    const char *id = graph_take_bare_id(p, &n);
    bool ok = false;
    if (n >= 2 && n < 8 && (id[0] == 'i' || id[0] == 'u')) {
        char buf[16];
        size_t k = 0;
        if (id[0] == 'u' && id[1] != 'i') {
            buf[k++] = 'u';
            buf[k++] = 'i';
            memcpy(buf + k, id + 1, n - 1);
            k += n - 1;
        } else {
            memcpy(buf, id, n);
            k = n;
        }
        ok = base_dtype_parse(buf, k, &q->storage) && base_dtype_is_int(q->storage);
    }
    if (!ok) return graph_perr(p, pos, "expected a quantized storage type (i8, u8, i4, i16, i32), found '%.*s'", (int)n, id);
    q->storage_min = base_int_min(q->storage);
    q->storage_max = (int64_t)base_int_max(q->storage);
    if (accept_char(p, '<')) {
        TRY(graph_parse_int_lit(p, &q->storage_min, "(storage minimum)"));
        TRY(expect_char(p, ':', "in the storage range"));
        TRY(graph_parse_int_lit(p, &q->storage_max, "(storage maximum)"));
        TRY(expect_char(p, '>', "to close the storage range"));
    }
    TRY(expect_char(p, ':', "after the quantized storage type"));
    skip_ws(p);
    pos = p->cur;
    id = graph_take_bare_id(p, &n);
    if (!n || !base_dtype_parse(id, n, &q->expressed) || !base_dtype_is_float(q->expressed))
        return graph_perr(p, pos, "expected the expressed float type of the quantized type");
    q->quant_dim = -1;
    if (accept_char(p, ':')) {
        int64_t d;
        TRY(graph_parse_int_lit(p, &d, "(quantization dimension)"));
        if (d < 0 || d >= GRAPH_MAX_RANK) return graph_perr(p, p->cur, "quantization dimension out of range");
        q->quant_dim = (int)d;
    }
    TRY(expect_char(p, ',', "before the quantization scale"));
    bool per_axis = accept_char(p, '{');
    if (per_axis != (q->quant_dim >= 0))
        return graph_perr(p, p->cur, per_axis ? "per-axis scales need a quantization dimension"
                                        : "a quantization dimension needs per-axis scales {s:zp, ...}");
    size_t fb = p->f64s.n, ib = p->i64s.n;
    do {
        double s;
        int64_t zp = 0;
        const char *at = p->cur;
        TRY(graph_parse_f64_lit(p, &s, "(quantization scale)"));
        /* as MLIR's quant dialect: a scale is finite and positive (a nan
         * scale printed as hex did not read back; found by fuzz/mlir_mutate) */
        if (!(s > 0) || isinf(s)) return graph_perr(p, at, "illegal quantization scale: want a finite number > 0");
        if (accept_char(p, ':')) TRY(graph_parse_int_lit(p, &zp, "(zero point)"));
        TRY(ps_push(p, &p->f64s, &s));
        TRY(ps_push(p, &p->i64s, &zp));
        if (p->f64s.n - fb > (size_t)p->max_elements)
            return graph_perr_st(p, p->cur, BASE_ERR_LIMIT, "too many quantization scales");
    } while (per_axis && accept_char(p, ','));
    if (per_axis) TRY(expect_char(p, '}', "to close the per-axis scales"));
    void *tmp;
    int ns;
    TRY(graph_ps_take(p, &p->f64s, fb, &tmp, &ns));
    q->scales = tmp;
    TRY(graph_ps_take(p, &p->i64s, ib, &tmp, &ns));
    q->zero_points = tmp;
    q->n_scales = ns;
    TRY(expect_char(p, '>', "to close the quantized type"));
    *out = q;
    return BASE_OK;
}

static enum base_status parse_elem_type(struct parser *p, enum base_dtype *dt, const struct graph_quant **q)
{
    skip_ws(p);
    const char *pos = p->cur;
    *q = NULL;
    if (starts_with(p, "!quant.uniform<")) {
        p->cur += 15;
        struct graph_quant *qq = NULL;
        TRY(graph_enter_nesting(p, pos));
        TRY(parse_quant(p, &qq));
        leave_nesting(p);
        *q = qq;
        *dt = qq->storage;
        return BASE_OK;
    }
    size_t n;
    const char *id = graph_take_bare_id(p, &n);
    if (n == 7 && !memcmp(id, "complex", 7)) {
        TRY(expect_char(p, '<', "after 'complex'"));
        skip_ws(p);
        const char *cpos = p->cur;
        const char *c = graph_take_bare_id(p, &n);
        if (n == 3 && !memcmp(c, "f32", 3)) *dt = BASE_DT_C64;
        else if (n == 3 && !memcmp(c, "f64", 3)) *dt = BASE_DT_C128;
        else return graph_perr(p, cpos, "unsupported complex element type (complex<f32> or complex<f64>)");
        return expect_char(p, '>', "to close complex<...>");
    }
    if (!n || !base_dtype_parse(id, n, dt)) {
        char found[48];
        p->cur = pos;
        graph_describe_at(p, pos, found, sizeof found);
        return graph_perr(p, pos, "expected an element type (i32, f32, bf16, complex<f32>, !quant.uniform<...>), found %s",
                    found);
    }
    return BASE_OK;
}

/* End of a bracketed span starting after `open` (depth 1), or NULL. */
static const char *match_angle(const char *q, const char *end)
{
    int depth = 1;
    while (q < end) {
        char c = *q;
        if (c == '<') depth++;
        else if (c == '>' && q[-1] != '-') {
            if (--depth == 0) return q + 1;
        } else if (c == '"') {
            size_t n = graph_lex_string(q, end);
            if (!n) return NULL;
            q += n;
            continue;
        } else if (c == '{' || c == '}' || c == ';') {
            /* types never hold these outside strings: stop scanning */
            if (c != '{' && c != '}') return NULL;
        }
        q++;
    }
    return NULL;
}

/* A bounds encoding has one entry per dim, and only dynamic dims have a
 * bound (upstream hlo::verifyBounds, which MLIR runs when it builds the type). */
static enum base_status check_bounds(struct parser *p, const char *pos, const struct graph_type *t)
{
    const struct graph_attr *e = t->encoding;
    if (!e || e->kind != GRAPH_ATTR_DICT || !e->tag || strcmp(e->tag, GRAPH_TAG_BOUNDS)) return BASE_OK;
    const struct graph_attr *b = graph_dict_get(e, "bounds");
    int n = b ? b->u.dense.n : 0;
    if (t->rank < 0) return graph_perr(p, pos, "an unranked tensor type cannot have bounds");
    if (n != t->rank)
        return graph_perr(p, pos, "Bounds length is %d, expected to be equal to rank(%d) of the tensor", n, t->rank);
    for (int d = 0; d < n; d++)
        if (b->u.dense.i[d] != GRAPH_DYN && t->dims[d] != GRAPH_DYN)
            return graph_perr(p, pos,
                              "Static dimension %d cannot have a bound, use ShapedType::kDynamic to indicate a "
                              "missing bound",
                              d);
    return BASE_OK;
}

static enum base_status parse_tensor_type(struct parser *p, const struct graph_type **out)
{
    const char *start = p->cur;
    /* common case: no nested '<' before the first '>' (found with memchr) */
    const char *span_end = NULL, *sc = start + 7;
    while (sc < p->end && *sc != '>' && *sc != '<' && *sc != '"') sc++;
    if (sc < p->end && *sc == '>') span_end = sc + 1;
    else span_end = match_angle(start + 7, p->end);
    if (span_end) {
        const struct graph_type *t = graph_type_cache_get(p, start, (size_t)(span_end - start));
        if (t) {
            p->cur = span_end;
            *out = t;
            return BASE_OK;
        }
    }
    TRY(graph_enter_nesting(p, start));
    p->cur = start + 7;
    struct graph_type *t = graph_palloc(p, sizeof *t);
    if (!t) return nomem(p);
    t->kind = GRAPH_TYPE_TENSOR;
    skip_ws(p);
    if (p->cur < p->end && *p->cur == '*') {
        p->cur++;
        t->rank = -1;
        TRY(expect_char(p, 'x', "after '*' in an unranked tensor type"));
    } else {
        for (;;) {
            skip_ws(p);
            const char *dpos = p->cur;
            if (dpos >= p->end) break;
            int64_t dim;
            if (*dpos == '?') {
                dim = GRAPH_DYN;
                p->cur++;
            } else if (lex_is_digit(*dpos)) {
                uint64_t v = 0;
                const char *q = dpos;
                while (q < p->end && lex_is_digit(*q)) {
                    v = v * 10 + (uint64_t)(*q - '0');
                    if (v > (uint64_t)INT64_MAX / 16)
                        return graph_perr_st(p, dpos, BASE_ERR_LIMIT, "tensor dimension is too large");
                    q++;
                }
                dim = (int64_t)v;
                p->cur = q;
            } else {
                break;
            }
            if (t->rank >= GRAPH_MAX_RANK)
                return graph_perr_st(p, dpos, BASE_ERR_LIMIT, "tensor rank exceeds the maximum of %d", GRAPH_MAX_RANK);
            t->dims[t->rank++] = dim;
            TRY(expect_char(p, 'x', "after a tensor dimension"));
        }
    }
    enum base_dtype dt;
    const struct graph_quant *q;
    TRY(parse_elem_type(p, &dt, &q));
    t->elem = dt;
    t->quant = q;
    if (accept_char(p, ',')) {
        const struct graph_attr *enc;
        skip_ws(p);
        const char *epos = p->cur;
        TRY(graph_parse_attr(p, &enc));
        t->encoding = enc;
        TRY(check_bounds(p, epos, t));
    }
    TRY(expect_char(p, '>', "to close the tensor type"));
    if (t->rank > 0) {
        bool stat = true;
        for (int i = 0; i < t->rank; i++)
            if (t->dims[i] < 0) stat = false;
        if (stat) {
            int64_t count = base_shape_count(t->rank, t->dims);
            if (count < 0 || count > p->max_elements)
                return graph_perr_st(p, start, BASE_ERR_LIMIT, "tensor type has more elements than the limit of %lld",
                               (long long)p->max_elements);
        }
    }
    leave_nesting(p);
    if (p->cur == span_end) TRY(graph_type_cache_put(p, start, (size_t)(span_end - start), t));
    *out = t;
    return BASE_OK;
}

static enum base_status parse_tuple_type(struct parser *p, const struct graph_type **out, int tuple_depth)
{
    const char *pos = p->cur;
    if (tuple_depth >= GRAPH_MAX_TUPLE_DEPTH)
        return graph_perr_st(p, pos, BASE_ERR_LIMIT, "tuple types nested deeper than %d", GRAPH_MAX_TUPLE_DEPTH);
    TRY(graph_enter_nesting(p, pos));
    p->cur += 6;
    size_t base = p->tys.n;
    if (!accept_char(p, '>')) {
        do {
            const struct graph_type *e;
            skip_ws(p);
            if (starts_with(p, "tuple<")) TRY(parse_tuple_type(p, &e, tuple_depth + 1));
            else TRY(graph_parse_type(p, &e));
            TRY(ps_push(p, &p->tys, &e));
        } while (accept_char(p, ','));
        TRY(expect_char(p, '>', "to close the tuple type"));
    }
    struct graph_type *t = graph_palloc(p, sizeof *t);
    if (!t) return nomem(p);
    t->kind = GRAPH_TYPE_TUPLE;
    void *tmp;
    TRY(graph_ps_take(p, &p->tys, base, &tmp, &t->n_elems));
    t->elems = tmp;
    leave_nesting(p);
    *out = t;
    return BASE_OK;
}

/* !stablehlo.future<T, ...> after the '<': ranked tensor types only (the
 * upstream FutureType verifier's rule). */
static enum base_status parse_future_type(struct parser *p, const char *pos, const struct graph_type **out)
{
    TRY(graph_enter_nesting(p, pos));
    size_t base = p->tys.n;
    do {
        skip_ws(p);
        const char *epos = p->cur;
        size_t n = graph_lex_bare_id(epos, p->end);
        enum base_dtype dt;
        if (n && (base_dtype_parse(epos, n, &dt) || (n == 7 && !memcmp(epos, "complex", 7)))) {
            char found[48];
            graph_describe_at(p, epos, found, sizeof found);
            return graph_perr(p, epos, "future element type must be a ranked tensor, but got %s", found);
        }
        const struct graph_type *e;
        TRY(graph_parse_type(p, &e));
        if (e->kind != GRAPH_TYPE_TENSOR || e->rank < 0) {
            char ts[128];
            graph_type_str(e, ts, sizeof ts);
            return graph_perr(p, epos, "future element type must be a ranked tensor, but got '%s'", ts);
        }
        TRY(ps_push(p, &p->tys, &e));
    } while (accept_char(p, ','));
    TRY(expect_char(p, '>', "to close the future type"));
    struct graph_type *t = graph_palloc(p, sizeof *t);
    if (!t) return nomem(p);
    t->kind = GRAPH_TYPE_FUTURE;
    void *tmp;
    TRY(graph_ps_take(p, &p->tys, base, &tmp, &t->n_elems));
    t->elems = tmp;
    leave_nesting(p);
    *out = t;
    return BASE_OK;
}

enum base_status graph_parse_type(struct parser *p, const struct graph_type **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    if (starts_with(p, "tensor<")) return parse_tensor_type(p, out);
    if (starts_with(p, "tuple<")) return parse_tuple_type(p, out, 0);
    if (pos < p->end && *pos == '!') {
        size_t n = 1 + graph_lex_suffix_id(pos + 1, p->end);
        if (n == 16 && !memcmp(pos, "!stablehlo.token", 16)) {
            p->cur += n;
            *out = &token_type;
            return BASE_OK;
        }
        if (n == 17 && !memcmp(pos, "!stablehlo.future", 17) && pos + n < p->end && pos[n] == '<') {
            p->cur += n + 1;
            return parse_future_type(p, pos, out);
        }
        const struct graph_type *t = graph_lookup_alias(p, pos, n, ALIAS_TYPE);
        if (t) {
            p->cur += n;
            *out = t;
            return BASE_OK;
        }
        if (memchr(pos, '.', n))
            return graph_perr_st(p, pos, BASE_ERR_UNSUPPORTED, "unsupported type '%.*s'", (int)n, pos);
        return graph_perr(p, pos, "undefined type alias '%.*s'", (int)n, pos);
    }
    char found[48];
    graph_describe_at(p, pos, found, sizeof found);
    size_t n = graph_lex_bare_id(pos, p->end);
    enum base_dtype dt;
    if (n && (base_dtype_parse(pos, n, &dt) || (n == 7 && !memcmp(pos, "complex", 7))))
        return graph_perr_st(p, pos, BASE_ERR_UNSUPPORTED,
                       "scalar type %s used as a value type: StableHLO values are tensors", found);
    return graph_perr(p, pos, "expected a type (tensor<...>, tuple<...> or !stablehlo.token), found %s", found);
}

enum base_status graph_parse_type_list(struct parser *p)
{
    do {
        const struct graph_type *t;
        TRY(graph_parse_type(p, &t));
        TRY(ps_push(p, &p->tys, &t));
    } while (accept_char(p, ','));
    return BASE_OK;
}

enum base_status graph_parse_result_types(struct parser *p)
{
    if (!accept_char(p, '(')) { /* exactly one type: a comma may follow the signature */
        const struct graph_type *t;
        TRY(graph_parse_type(p, &t));
        return ps_push(p, &p->tys, &t);
    }
    if (accept_char(p, ')')) return BASE_OK;
    TRY(graph_parse_type_list(p));
    return expect_char(p, ')', "to close the result types");
}

enum base_status graph_parse_function_type(struct parser *p, int *n_in, int *n_out)
{
    size_t base = p->tys.n;
    TRY(expect_char(p, '(', "to open a function type"));
    if (!accept_char(p, ')')) {
        TRY(graph_parse_type_list(p));
        TRY(expect_char(p, ')', "to close the input types"));
    }
    *n_in = (int)(p->tys.n - base);
    TRY(graph_expect_str(p, "->", "in a function type"));
    TRY(graph_parse_result_types(p));
    *n_out = (int)(p->tys.n - base) - *n_in;
    return BASE_OK;
}

/* (T...) -> (R...) as DICT tag builtin.function_type {inputs, results} */
static enum base_status parse_function_type_attr(struct parser *p, const struct graph_attr **out)
{
    size_t base = p->tys.n;
    int n_in, n_out;
    TRY(graph_parse_function_type(p, &n_in, &n_out));
    const struct graph_attr **items = graph_palloc(p, (size_t)(n_in + n_out + 1) * sizeof *items);
    if (!items) return nomem(p);
    for (int i = 0; i < n_in + n_out; i++) {
        struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_TYPE);
        if (!a) return nomem(p);
        a->u.type = *(const struct graph_type **)ps_at(&p->tys, base + (size_t)i);
        items[i] = a;
    }
    p->tys.n = base;
    struct graph_attr *in = graph_new_attr(p, GRAPH_ATTR_ARRAY), *res = graph_new_attr(p, GRAPH_ATTR_ARRAY);
    struct graph_attr *d = graph_new_attr(p, GRAPH_ATTR_DICT);
    struct graph_named_attr *f = graph_palloc(p, 2 * sizeof *f);
    if (!in || !res || !d || !f) return nomem(p);
    in->u.array.n = n_in;
    in->u.array.items = items;
    res->u.array.n = n_out;
    res->u.array.items = items + n_in;
    f[0].name = "inputs";
    f[0].value = in;
    f[1].name = "results";
    f[1].value = res;
    d->tag = GRAPH_TAG_FUNCTION_TYPE;
    d->u.dict.n = 2;
    d->u.dict.items = f;
    *out = d;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Dictionaries, arrays, dialect attributes                                  */

static enum base_status take_dict(struct parser *p, size_t base, const char *tag, bool sort, const char *pos,
                                  const struct graph_attr **out)
{
    struct graph_attr *d = graph_new_attr(p, GRAPH_ATTR_DICT);
    if (!d) return nomem(p);
    void *tmp;
    TRY(graph_ps_take(p, &p->nattrs, base, &tmp, &d->u.dict.n));
    struct graph_named_attr *items = tmp;
    if (sort) {
        const char *twice = graph_named_attrs_sort(items, d->u.dict.n);
        if (twice) return graph_perr(p, pos, "duplicate key '%s' in the dictionary", twice);
    }
    d->tag = tag;
    d->u.dict.items = items;
    *out = d;
    return BASE_OK;
}

enum base_status graph_parse_attr_dict(struct parser *p)
{
    skip_ws(p);
    const char *pos = p->cur;
    TRY(expect_char(p, '{', "to open an attribute dictionary"));
    TRY(graph_enter_nesting(p, pos));
    if (!accept_char(p, '}')) {
        do {
            skip_ws(p);
            const char *kpos = p->cur;
            const char *key;
            size_t kn;
            if (kpos < p->end && *kpos == '"') {
                TRY(graph_parse_string_lit(p, &key, &kn));
            } else {
                kn = graph_lex_bare_id(kpos, p->end);
                if (!kn) {
                    char found[48];
                    graph_describe_at(p, kpos, found, sizeof found);
                    return graph_perr(p, kpos, "expected an attribute name, found %s", found);
                }
                key = graph_pstrndup(p, kpos, kn);
                if (!key) return nomem(p);
                p->cur += kn;
            }
            const struct graph_attr *v;
            if (accept_char(p, '=')) {
                TRY(graph_parse_attr(p, &v));
            } else {
                v = graph_new_attr(p, GRAPH_ATTR_UNIT);
                if (!v) return nomem(p);
            }
            TRY(graph_push_attr(p, key, v));
        } while (accept_char(p, ','));
        TRY(expect_char(p, '}', "to close the attribute dictionary"));
    }
    leave_nesting(p);
    return BASE_OK;
}

enum base_status graph_parse_attr_dict_value(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    size_t base = p->nattrs.n;
    TRY(graph_parse_attr_dict(p));
    return take_dict(p, base, NULL, true, pos, out);
}

/* Captures #dialect.name<...> verbatim. */
static enum base_status parse_opaque(struct parser *p, const char *start, const struct graph_attr **out)
{
    const char *q = p->cur;
    if (q < p->end && *q == '<') {
        int depth = 0;
        while (q < p->end) {
            char c = *q;
            if (c == '"') {
                size_t n = graph_lex_string(q, p->end);
                if (!n) return graph_perr(p, q, "unterminated string in an attribute");
                q += n;
                continue;
            }
            if (c == '-' && q + 1 < p->end && q[1] == '>') {
                q += 2;
                continue;
            }
            if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
            else if (c == '>' || c == ')' || c == ']' || c == '}') {
                if (--depth == 0) {
                    q++;
                    break;
                }
                if (depth < 0) return graph_perr(p, q, "unbalanced brackets in an attribute");
            }
            if (depth > p->max_nesting) return graph_perr_st(p, q, BASE_ERR_LIMIT, "attribute nested deeper than %d levels (the nesting limit; raise it with --limit nesting=N)", p->max_nesting);
            q++;
        }
        if (depth != 0) return graph_perr(p, start, "unclosed dialect attribute: missing '>'");
    }
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_OPAQUE);
    if (!a) return nomem(p);
    a->u.str.s = graph_pstrndup(p, start, (size_t)(q - start));
    a->u.str.len = (size_t)(q - start);
    if (!a->u.str.s) return nomem(p);
    p->cur = q;
    *out = a;
    return BASE_OK;
}

/* Canonical field order of the StableHLO struct attributes. */
static const char *const gather_fields[] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                            "start_indices_batching_dims", "start_index_map", "index_vector_dim",
                                            NULL};
static const char *const scatter_fields[] = {"update_window_dims",
                                             "inserted_window_dims",
                                             "input_batching_dims",
                                             "scatter_indices_batching_dims",
                                             "scatter_dims_to_operand_dims",
                                             "index_vector_dim",
                                             NULL};
static const char *const dot_fields[] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                         "lhs_contracting_dimensions", "rhs_contracting_dimensions", NULL};
static const char *const ragged_fields[] = {"lhs_batching_dimensions",    "rhs_batching_dimensions",
                                            "lhs_contracting_dimensions", "rhs_contracting_dimensions",
                                            "lhs_ragged_dimensions",      "rhs_group_dimensions",
                                            NULL};
static const char *const algo_fields[] = {"lhs_precision_type",  "rhs_precision_type",       "accumulation_type",
                                          "lhs_component_count", "rhs_component_count",      "num_primitive_operations",
                                          "allow_imprecise_accumulation", NULL};
static const char *const channel_fields[] = {"handle", "type", NULL};
static const char *const mesh_axes_fields[] = {"mesh", "axes", NULL};
static const char *const axis_ref_fields[] = {"name", "sub_axis_info", NULL};
static const char *const mesh_fields[] = {"axes", "device_ids", NULL};
static const char *const mesh_axis_fields[] = {"name", "size", NULL};
static const char *const accuracy_fields[] = {"atol", "rtol", "ulps", "mode", NULL};
static const char *const alias_fields[] = {"output_tuple_indices", "operand_index", "operand_tuple_indices", NULL};
static const char *const conv_fields[] = {"input_batch_dimension",          "input_feature_dimension",
                                          "input_spatial_dimensions",       "kernel_input_feature_dimension",
                                          "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                                          "output_batch_dimension",         "output_feature_dimension",
                                          "output_spatial_dimensions",      NULL};

struct struct_attr {
    const char *tag;
    const char *const *fields;
};
static const struct struct_attr struct_attrs[] = {
    {"stablehlo.gather", gather_fields},       {"stablehlo.scatter", scatter_fields},
    {GRAPH_TAG_DOT, dot_fields},                     {GRAPH_TAG_DOT_ALGORITHM, algo_fields},
    {"stablehlo.channel_handle", channel_fields}, {"stablehlo.output_operand_alias", alias_fields},
    {"chlo.ragged_dot", ragged_fields},
    {"stablehlo.replica_group_mesh_axes", mesh_axes_fields}, {"stablehlo.axis_ref", axis_ref_fields},
    {"stablehlo.mesh", mesh_fields},
    {"stablehlo.mesh_axis", mesh_axis_fields},       {"stablehlo.result_accuracy", accuracy_fields},
};

/* Dictionaries with a parser of their own: the order it gives their fields. */
static const char *const sdy_mesh_fields[] = {"axes", "device_ids", NULL};
static const char *const sdy_sharding_fields[] = {"mesh", "dims", "replicated", "unreduced", NULL};
static const char *const function_type_fields[] = {"inputs", "results", NULL};

/* Sorts the fields of a struct attribute into canonical order (unknown ones last). */
static void order_fields(struct graph_named_attr *items, int n, const char *const *fields)
{
    int k = 0;
    for (int f = 0; fields[f]; f++)
        for (int i = k; i < n; i++)
            if (!strcmp(items[i].name, fields[f])) {
                struct graph_named_attr x = items[i];
                memmove(items + k + 1, items + k, (size_t)(i - k) * sizeof *items);
                items[k++] = x;
                break;
            }
}

void graph_dict_order_fields(const char *tag, struct graph_named_attr *items, int n)
{
    if (!tag) return;
    const char *const *fields = NULL;
    for (size_t i = 0; i < ARRAY_LEN(struct_attrs); i++)
        if (!strcmp(struct_attrs[i].tag, tag)) fields = struct_attrs[i].fields;
    if (!strcmp(tag, GRAPH_TAG_CONV)) fields = conv_fields;
    else if (!strcmp(tag, GRAPH_TAG_SDY_MESH)) fields = sdy_mesh_fields;
    else if (!strcmp(tag, GRAPH_TAG_SDY_SHARDING)) fields = sdy_sharding_fields;
    else if (!strcmp(tag, GRAPH_TAG_FUNCTION_TYPE)) fields = function_type_fields;
    if (fields) order_fields(items, n, fields);
}

/* #stablehlo.result_accuracy<atol, rtol, ulps, mode> as upstream's
 * verifyResultAccuracyAttr: no negative tolerance; modes DEFAULT and HIGHEST
 * take none. */
static enum base_status check_result_accuracy(struct parser *p, const char *pos, const struct graph_attr *a)
{
    double atol = 0, rtol = 0;
    int64_t ulps = 0;
    const struct graph_attr *x;
    if ((x = graph_dict_get(a, "atol")) && x->kind == GRAPH_ATTR_FLOAT) atol = x->u.f;
    else if (x) graph_attr_as_i64(x, &ulps), atol = (double)ulps, ulps = 0;
    if ((x = graph_dict_get(a, "rtol")) && x->kind == GRAPH_ATTR_FLOAT) rtol = x->u.f;
    else if (x && graph_attr_as_i64(x, &ulps)) rtol = (double)ulps, ulps = 0;
    graph_attr_as_i64(graph_dict_get(a, "ulps"), &ulps);
    if (atol < 0 || rtol < 0 || ulps < 0) return graph_perr(p, pos, "result_accuracy: Negative tolerance");
    const struct graph_attr *mode = graph_dict_get(a, "mode");
    size_t n = 0;
    const char *m = mode && (mode->kind == GRAPH_ATTR_KEYWORD) ? mode->u.str.s : NULL;
    if (m) n = mode->u.str.len;
    bool strict = m && ((n == 7 && !memcmp(m, "DEFAULT", 7)) || (n == 7 && !memcmp(m, "HIGHEST", 7)));
    if (strict && (atol != 0 || rtol != 0 || ulps != 0))
        return graph_perr(p, pos, "Invalid tolerances for ResultAccuracyAttr with mode %.*s, must be all zero.", (int)n, m);
    return BASE_OK;
}

/* `(pre_size)size` of #stablehlo.axis_ref's sub_axis_info -> DICT tag
 * stablehlo.sub_axis_info {pre_size, size}. */
static enum base_status parse_sub_axis_info(struct parser *p, const struct graph_attr **out)
{
    const char *pos = p->cur;
    int64_t pre, size;
    TRY(expect_char(p, '(', "to open the sub-axis pre-size"));
    TRY(graph_parse_int_lit(p, &pre, "(sub-axis pre-size)"));
    TRY(expect_char(p, ')', "after the sub-axis pre-size"));
    TRY(graph_parse_int_lit(p, &size, "(sub-axis size)"));
    const struct graph_attr *a = graph_attr_int(p, pre, BASE_DT_SI64), *b = graph_attr_int(p, size, BASE_DT_SI64);
    if (!a || !b) return nomem(p);
    size_t base = p->nattrs.n;
    TRY(graph_push_attr(p, "pre_size", a));
    TRY(graph_push_attr(p, "size", b));
    return take_dict(p, base, "stablehlo.sub_axis_info", false, pos, out);
}

/* <key = value, ...> with [ints] -> DENSE, ints -> INT, bare words -> KEYWORD */
static enum base_status parse_struct_body(struct parser *p, const char *tag, const char *const *fields,
                                          const struct graph_attr **out)
{
    const char *pos = p->cur;
    TRY(expect_char(p, '<', "to open the attribute parameters"));
    size_t base = p->nattrs.n;
    if (!accept_char(p, '>')) {
        do {
            const char *key;
            size_t kn;
            skip_ws(p);
            const char *kpos = p->cur;
            TRY(graph_expect_bare_id(p, &key, &kn, "(attribute parameter)"));
            for (size_t i = base; i < p->nattrs.n; i++) {
                struct graph_named_attr *na = ps_at(&p->nattrs, i);
                if (strlen(na->name) == kn && !memcmp(na->name, key, kn))
                    return graph_perr(p, kpos, "parameter '%.*s' is given twice", (int)kn, key);
            }
            const char *kname = NULL;
            for (int f = 0; fields && fields[f]; f++)
                if (strlen(fields[f]) == kn && !memcmp(fields[f], key, kn)) kname = fields[f];
            if (!kname && fields) {
                /* the dimension-number and struct attributes have a closed set of parameters */
                char list[400];
                size_t used = 0;
                list[0] = 0;
                for (int f = 0; fields[f] && used < sizeof list; f++) {
                    int w = snprintf(list + used, sizeof list - used, "%s`%s`", f ? ", " : "", fields[f]);
                    if (w < 0) break;
                    used += (size_t)w;
                }
                return graph_perr(p, kpos, "unknown parameter '%.*s' of #%s: expected one of: %s", (int)kn, key,
                                  tag, list);
            }
            if (!kname) kname = graph_pstrndup(p, key, kn);
            if (!kname) return nomem(p);
            TRY(expect_char(p, '=', "after the parameter name"));
            skip_ws(p);
            const struct graph_attr *v;
            char c = p->cur < p->end ? *p->cur : 0;
            const char *q = p->cur + 1;
            while (q < p->end && (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')) q++;
            bool int_list = q < p->end && (*q == ']' || *q == '-' || lex_is_digit(*q));
            if (c == '[' && int_list) {
                TRY(graph_parse_dense_i64_list(p, &v));
            } else if (c == '-' || lex_is_digit(c)) {
                /* an integer, or a float (result_accuracy's tolerances) */
                const char *q2 = p->cur + (c == '-');
                bool hex = p->end - q2 > 1 && q2[0] == '0' && (q2[1] == 'x' || q2[1] == 'X');
                while (!hex && q2 < p->end && lex_is_digit(*q2)) q2++;
                if (!hex && q2 < p->end && (*q2 == '.' || *q2 == 'e' || *q2 == 'E')) {
                    double dv;
                    TRY(graph_parse_f64_lit(p, &dv, "(parameter value)"));
                    struct graph_attr *fa = graph_new_attr(p, GRAPH_ATTR_FLOAT);
                    if (!fa) return nomem(p);
                    fa->elem = BASE_DT_F64;
                    fa->u.f = dv;
                    v = fa;
                } else {
                    int64_t iv;
                    TRY(graph_parse_int_lit(p, &iv, "(parameter value)"));
                    v = graph_attr_int(p, iv, BASE_DT_SI64);
                    if (!v) return nomem(p);
                }
            } else if (c == '(' && !strcmp(kname, "sub_axis_info")) {
                TRY(parse_sub_axis_info(p, &v));
            } else if (graph_peek_kw(p, "true") || graph_peek_kw(p, "false")) {
                bool bv = graph_accept_kw(p, "true");
                if (!bv) graph_accept_kw(p, "false");
                v = graph_attr_bool(p, bv);
                if (!v) return nomem(p);
            } else if (lex_is_id_start(c)) {
                size_t n;
                const char *w = graph_take_bare_id(p, &n);
                v = graph_attr_keyword(p, NULL, w, n);
                if (!v) return nomem(p);
            } else {
                TRY(graph_parse_attr(p, &v));
            }
            TRY(graph_push_attr(p, kname, v));
        } while (accept_char(p, ',') && !at_char(p, '>')); /* a trailing ',' is allowed */
        TRY(expect_char(p, '>', "to close the attribute parameters"));
    }
    TRY(take_dict(p, base, tag, false, pos, out));
    if (fields) order_fields((struct graph_named_attr *)(*out)->u.dict.items, (*out)->u.dict.n, fields);
    if (!strcmp(tag, "stablehlo.result_accuracy")) return check_result_accuracy(p, pos, *out);
    return BASE_OK;
}

enum base_status graph_parse_dot_algorithm_body(struct parser *p, const struct graph_attr **out)
{
    return parse_struct_body(p, GRAPH_TAG_DOT_ALGORITHM, algo_fields, out);
}

/* One bracket list of the compact conv form; letters name the non-spatial dims. */
static enum base_status conv_list(struct parser *p, char l1, char l2, int64_t *d1, int64_t *d2, int64_t *spatial,
                                  int *n_spatial)
{
    const char *pos = p->cur;
    TRY(expect_char(p, '[', "to open a convolution dimension list"));
    int64_t pos_i = 0;
    int n = 0;
    *d1 = *d2 = -1;
    int64_t sp[GRAPH_MAX_RANK];
    bool seen[GRAPH_MAX_RANK] = {false};
    int max_sp = -1;
    if (!accept_char(p, ']')) {
        do {
            skip_ws(p);
            const char *ipos = p->cur;
            if (pos_i >= GRAPH_MAX_RANK)
                return graph_perr_st(p, ipos, BASE_ERR_LIMIT, "convolution rank exceeds %d", GRAPH_MAX_RANK);
            if (ipos < p->end && (*ipos == l1 || *ipos == l2) && !lex_is_id_char(ipos + 1 < p->end ? ipos[1] : ' ')) {
                int64_t *d = *ipos == l1 ? d1 : d2;
                if (*d >= 0) return graph_perr(p, ipos, "dimension '%c' appears twice", *ipos);
                *d = pos_i;
                p->cur++;
            } else {
                int64_t k;
                TRY(graph_parse_int_lit(p, &k, "(spatial dimension) or a dimension letter"));
                if (k < 0 || k >= GRAPH_MAX_RANK || seen[k])
                    return graph_perr(p, ipos, "invalid or repeated spatial dimension %lld", (long long)k);
                seen[k] = true;
                sp[k] = pos_i;
                if (k > max_sp) max_sp = (int)k;
                n++;
            }
            pos_i++;
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the convolution dimension list"));
    }
    if (*d1 < 0 || *d2 < 0) return graph_perr(p, pos, "dimension list lacks '%c' or '%c'", l1, l2);
    if (max_sp + 1 != n) return graph_perr(p, pos, "spatial dimensions must be numbered 0..%d", n - 1);
    for (int i = 0; i < n; i++) spatial[i] = sp[i];
    *n_spatial = n;
    return BASE_OK;
}

enum base_status graph_parse_conv_dims(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    if (graph_accept_kw(p, "raw")) {
        /* raw field form, up to the closing '>' of #stablehlo.conv<raw ...> */
        size_t base = p->nattrs.n;
        do {
            const char *key;
            size_t kn;
            TRY(graph_expect_bare_id(p, &key, &kn, "(convolution field)"));
            const char *kname = NULL;
            for (int f = 0; conv_fields[f]; f++)
                if (strlen(conv_fields[f]) == kn && !memcmp(conv_fields[f], key, kn)) kname = conv_fields[f];
            if (!kname) return graph_perr(p, key, "unknown convolution field '%.*s'", (int)kn, key);
            TRY(expect_char(p, '=', "after the field name"));
            const struct graph_attr *v;
            if (at_char(p, '[')) {
                TRY(graph_parse_dense_i64_list(p, &v));
            } else {
                int64_t iv;
                TRY(graph_parse_int_lit(p, &iv, "(dimension)"));
                v = graph_attr_int(p, iv, BASE_DT_SI64);
                if (!v) return nomem(p);
            }
            TRY(graph_push_attr(p, kname, v));
        } while (accept_char(p, ','));
        TRY(take_dict(p, base, GRAPH_TAG_CONV, false, pos, out));
        order_fields((struct graph_named_attr *)(*out)->u.dict.items, (*out)->u.dict.n, conv_fields);
        return BASE_OK;
    }
    int64_t ib, ifeat, kin, kout, ob, of;
    int64_t is[GRAPH_MAX_RANK], ks[GRAPH_MAX_RANK], os[GRAPH_MAX_RANK];
    int nis, nks, nos;
    TRY(conv_list(p, 'b', 'f', &ib, &ifeat, is, &nis));
    TRY(expect_char(p, 'x', "between the input and kernel dimension lists"));
    TRY(conv_list(p, 'i', 'o', &kin, &kout, ks, &nks));
    TRY(graph_expect_str(p, "->", "between the kernel and output dimension lists"));
    TRY(conv_list(p, 'b', 'f', &ob, &of, os, &nos));
    if (nis != nks || nis != nos) return graph_perr(p, pos, "input, kernel and output have different spatial ranks");
    size_t base = p->nattrs.n;
    const struct graph_attr *v[9] = {
        graph_attr_int(p, ib, BASE_DT_SI64),   graph_attr_int(p, ifeat, BASE_DT_SI64), graph_attr_dense_i64(p, is, nis),
        graph_attr_int(p, kin, BASE_DT_SI64),  graph_attr_int(p, kout, BASE_DT_SI64),  graph_attr_dense_i64(p, ks, nks),
        graph_attr_int(p, ob, BASE_DT_SI64),   graph_attr_int(p, of, BASE_DT_SI64),    graph_attr_dense_i64(p, os, nos)};
    for (int i = 0; i < 9; i++) {
        if (!v[i]) return nomem(p);
        TRY(graph_push_attr(p, conv_fields[i], v[i]));
    }
    return take_dict(p, base, GRAPH_TAG_CONV, false, pos, out);
}

/* An axis reference: "x", or a sub-axis "x":(1)2 kept in its full spelling
 * (a STRING tagged sdy.sub_axis, so it prints back verbatim). */
static enum base_status parse_axis_ref(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *start = p->cur;
    const char *s;
    size_t n;
    TRY(graph_parse_string_lit(p, &s, &n));
    if (p->cur + 1 < p->end && p->cur[0] == ':' && p->cur[1] == '(') {
        const char *q = p->cur + 2;
        const char *d1 = q;
        while (q < p->end && lex_is_digit(*q)) q++;
        if (q == d1 || q >= p->end || *q != ')') return graph_perr(p, p->cur, "expected a sub-axis \"x\":(pre)size");
        const char *d2 = ++q;
        while (q < p->end && lex_is_digit(*q)) q++;
        if (q == d2) return graph_perr(p, p->cur, "expected a sub-axis \"x\":(pre)size");
        p->cur = q;
        struct graph_attr *a = (struct graph_attr *)graph_attr_string(p, graph_pstrndup(p, start, (size_t)(q - start)),
                                                                (size_t)(q - start));
        if (!a || !a->u.str.s) return nomem(p);
        a->tag = GRAPH_TAG_SDY_SUB_AXIS;
        *out = a;
        return BASE_OK;
    }
    *out = graph_attr_string(p, s, n);
    return *out ? BASE_OK : nomem(p);
}

/* {"a", "b"} -> ARRAY of STRING */
enum base_status graph_parse_sdy_axis_set(struct parser *p, const struct graph_attr **out)
{
    TRY(expect_char(p, '{', "to open a set of axis names"));
    size_t base = p->attrs.n;
    if (!accept_char(p, '}')) {
        do {
            const struct graph_attr *a;
            TRY(parse_axis_ref(p, &a));
            TRY(ps_push(p, &p->attrs, &a));
        } while (accept_char(p, ','));
        TRY(expect_char(p, '}', "to close the set of axis names"));
    }
    struct graph_attr *arr = graph_new_attr(p, GRAPH_ATTR_ARRAY);
    if (!arr) return nomem(p);
    void *tmp;
    TRY(graph_ps_take(p, &p->attrs, base, &tmp, &arr->u.array.n));
    arr->u.array.items = tmp;
    *out = arr;
    return BASE_OK;
}

static enum base_status take_array(struct parser *p, size_t base, const struct graph_attr **out)
{
    struct graph_attr *arr = graph_new_attr(p, GRAPH_ATTR_ARRAY);
    if (!arr) return nomem(p);
    void *tmp;
    TRY(graph_ps_take(p, &p->attrs, base, &tmp, &arr->u.array.n));
    arr->u.array.items = tmp;
    *out = arr;
    return BASE_OK;
}

/* ["x"=2, "y"=4], device_ids=[...]> */
enum base_status graph_parse_sdy_mesh_body(struct parser *p, const struct graph_attr **out)
{
    const char *pos = p->cur;
    size_t nbase = p->nattrs.n;
    if (at_char(p, '[')) {
        p->cur++;
        size_t abase = p->attrs.n;
        if (!accept_char(p, ']')) {
            do {
                const char *s;
                size_t n;
                int64_t size;
                TRY(graph_parse_string_lit(p, &s, &n));
                TRY(expect_char(p, '=', "after a mesh axis name"));
                TRY(graph_parse_int_lit(p, &size, "(mesh axis size)"));
                size_t b2 = p->nattrs.n;
                const struct graph_attr *an = graph_attr_string(p, s, n), *as = graph_attr_int(p, size, BASE_DT_SI64);
                if (!an || !as) return nomem(p);
                TRY(graph_push_attr(p, "name", an));
                TRY(graph_push_attr(p, "size", as));
                const struct graph_attr *axis;
                TRY(take_dict(p, b2, NULL, false, pos, &axis));
                TRY(ps_push(p, &p->attrs, &axis));
            } while (accept_char(p, ','));
            TRY(expect_char(p, ']', "to close the mesh axes"));
        }
        const struct graph_attr *axes;
        TRY(take_array(p, abase, &axes));
        TRY(graph_push_attr(p, "axes", axes));
        if (accept_char(p, ',')) {
            TRY(graph_expect_kw(p, "device_ids", "in the mesh"));
            TRY(expect_char(p, '=', "after device_ids"));
            const struct graph_attr *ids;
            TRY(graph_parse_dense_i64_list(p, &ids));
            TRY(graph_push_attr(p, "device_ids", ids));
        }
    } else if (graph_accept_kw(p, "device_ids")) {
        TRY(expect_char(p, '=', "after device_ids"));
        const struct graph_attr *ids;
        TRY(graph_parse_dense_i64_list(p, &ids));
        const struct graph_attr *axes = graph_new_attr(p, GRAPH_ATTR_ARRAY);
        if (!axes) return nomem(p);
        TRY(graph_push_attr(p, "axes", axes));
        TRY(graph_push_attr(p, "device_ids", ids));
    }
    TRY(expect_char(p, '>', "to close the mesh"));
    return take_dict(p, nbase, GRAPH_TAG_SDY_MESH, false, pos, out);
}

/* @mesh, [{"x"}, {}], replicated={"y"}> */
enum base_status graph_parse_sdy_sharding_body(struct parser *p, const struct graph_attr **out)
{
    const char *pos = p->cur;
    size_t nbase = p->nattrs.n;
    const struct graph_attr *mesh;
    skip_ws(p);
    if (accept_char(p, '@')) {
        const char *s;
        size_t n;
        TRY(graph_parse_symbol_name(p, &s, &n));
        struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_SYMBOL);
        if (!a) return nomem(p);
        a->u.str.s = s;
        a->u.str.len = n;
        mesh = a;
    } else if (graph_accept_kw(p, "mesh")) {
        TRY(expect_char(p, '<', "after 'mesh'"));
        TRY(graph_parse_sdy_mesh_body(p, &mesh));
    } else {
        TRY(graph_parse_attr(p, &mesh));
    }
    TRY(graph_push_attr(p, "mesh", mesh));
    TRY(expect_char(p, ',', "after the sharding's mesh"));
    TRY(expect_char(p, '[', "to open the dimension shardings"));
    size_t dbase = p->attrs.n;
    if (!accept_char(p, ']')) {
        do {
            TRY(expect_char(p, '{', "to open a dimension sharding"));
            size_t abase = p->attrs.n;
            if (!accept_char(p, '}')) {
                do {
                    const struct graph_attr *a;
                    if (accept_char(p, '?')) {
                        a = graph_attr_keyword(p, NULL, "?", 1);
                        if (!a) return nomem(p);
                    } else {
                        TRY(parse_axis_ref(p, &a));
                    }
                    TRY(ps_push(p, &p->attrs, &a));
                } while (accept_char(p, ','));
                TRY(expect_char(p, '}', "to close a dimension sharding"));
            }
            if (p->cur < p->end && *p->cur == 'p' && p->cur + 1 < p->end && lex_is_digit(p->cur[1])) {
                size_t n = graph_lex_bare_id(p->cur, p->end);
                const struct graph_attr *pr = graph_attr_keyword(p, NULL, p->cur, n);
                if (!pr) return nomem(p);
                p->cur += n;
                TRY(ps_push(p, &p->attrs, &pr));
            }
            const struct graph_attr *dim;
            TRY(take_array(p, abase, &dim));
            TRY(ps_push(p, &p->attrs, &dim));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the dimension shardings"));
    }
    const struct graph_attr *dims;
    TRY(take_array(p, dbase, &dims));
    TRY(graph_push_attr(p, "dims", dims));
    while (accept_char(p, ',')) {
        const char *k;
        size_t kn;
        TRY(graph_expect_bare_id(p, &k, &kn, "(replicated or unreduced)"));
        const char *name = kn == 10 && !memcmp(k, "replicated", 10) ? "replicated"
                           : kn == 9 && !memcmp(k, "unreduced", 9) ? "unreduced"
                                                                    : NULL;
        if (!name) return graph_perr(p, k, "unknown sharding field '%.*s'", (int)kn, k);
        TRY(expect_char(p, '=', "after the sharding field"));
        const struct graph_attr *set;
        TRY(graph_parse_sdy_axis_set(p, &set));
        TRY(graph_push_attr(p, name, set));
    }
    TRY(expect_char(p, '>', "to close the sharding"));
    return take_dict(p, nbase, GRAPH_TAG_SDY_SHARDING, false, pos, out);
}

static const char *dialect_tag(struct parser *p, const char *d, size_t dn, const char *e, size_t en)
{
    char *t = graph_palloc(p, dn + en + 2);
    if (!t) return NULL;
    memcpy(t, d, dn);
    t[dn] = '.';
    memcpy(t + dn + 1, e, en);
    t[dn + en + 1] = 0;
    return t;
}

/* The bounds of a bounded-dynamic tensor type, `3, ?` through `close`:
 * #stablehlo.bounds<3, ?> and #stablehlo.type_extensions<bounds = [3, ?]>
 * both become DICT tag stablehlo.bounds {bounds = DENSE, GRAPH_DYN for '?'}. */
static enum base_status parse_bounds(struct parser *p, char close, const struct graph_attr **out)
{
    const char *pos = p->cur;
    size_t base = p->i64s.n;
    if (!accept_char(p, close)) {
        do {
            int64_t v = GRAPH_DYN;
            if (!accept_char(p, '?')) {
                TRY(graph_parse_int_lit(p, &v, "(a bound)"));
                if (v < 0) return graph_perr(p, p->cur, "a bound must be non-negative, got %lld", (long long)v);
            }
            TRY(ps_push(p, &p->i64s, &v));
            if (p->i64s.n - base > GRAPH_MAX_RANK)
                return graph_perr_st(p, pos, BASE_ERR_LIMIT, "more bounds than the maximum rank %d", GRAPH_MAX_RANK);
        } while (accept_char(p, ','));
        TRY(expect_char(p, close, "to close the bounds"));
    }
    int64_t vals[GRAPH_MAX_RANK];
    int n = (int)(p->i64s.n - base);
    for (int i = 0; i < n; i++) vals[i] = *(int64_t *)ps_at(&p->i64s, base + (size_t)i);
    p->i64s.n = base;
    const struct graph_attr *list = graph_attr_dense_i64(p, vals, n);
    if (!list) return nomem(p);
    size_t nb = p->nattrs.n;
    TRY(graph_push_attr(p, "bounds", list));
    return take_dict(p, nb, GRAPH_TAG_BOUNDS, false, pos, out);
}

/* '#' attributes: aliases, #dialect<enum VALUE>, known struct attributes, opaque */
static enum base_status parse_hash_attr(struct parser *p, const struct graph_attr **out)
{
    const char *start = p->cur;
    size_t n = graph_lex_suffix_id(start + 1, p->end);
    if (!n) return graph_perr(p, start, "expected an attribute name after '#'");
    const char *name = start + 1;
    const char *after = name + n;
    bool dotted = memchr(name, '.', n) != NULL;
    if (!dotted && (after >= p->end || *after != '<')) {
        const struct graph_attr *a = graph_lookup_alias(p, start, n + 1, ALIAS_ATTR);
        if (!a) return graph_perr(p, start, "undefined attribute alias '%.*s'", (int)n + 1, start);
        p->cur = after;
        *out = a;
        return BASE_OK;
    }
    p->cur = after;
    if (!dotted) {
        /* #dialect<enum VALUE> or #sdy<manual_axes{...}> */
        const char *q = graph_lex_skip_ws(after + 1, p->end);
        size_t en = graph_lex_bare_id(q, p->end);
        if (en == 11 && n == 3 && !memcmp(name, "sdy", 3) && !memcmp(q, "manual_axes", 11)) {
            p->cur = q + en;
            TRY(graph_parse_sdy_axis_set(p, out));
            return expect_char(p, '>', "to close #sdy<manual_axes...>");
        }
        const char *v = graph_lex_skip_ws(q + en, p->end);
        size_t vn = graph_lex_bare_id(v, p->end);
        const char *close = graph_lex_skip_ws(v + vn, p->end);
        if (en && vn && close < p->end && *close == '>') {
            const char *tag = dialect_tag(p, name, n, q, en);
            if (!tag) return nomem(p);
            *out = graph_attr_keyword(p, tag, v, vn);
            p->cur = close + 1;
            return *out ? BASE_OK : nomem(p);
        }
        return parse_opaque(p, start, out);
    }
    for (size_t i = 0; i < ARRAY_LEN(struct_attrs); i++)
        if (strlen(struct_attrs[i].tag) == n && !memcmp(struct_attrs[i].tag, name, n))
            return parse_struct_body(p, struct_attrs[i].tag, struct_attrs[i].fields, out);
    if (n == 30 && !memcmp(name, "stablehlo.result_accuracy_mode", 30)) {
        /* an enum in its #dialect.mnemonic<VALUE> spelling: as #stablehlo<result_accuracy_mode VALUE> */
        const char *q = graph_lex_skip_ws(after + 1, p->end);
        size_t vn = graph_lex_bare_id(q, p->end);
        const char *close = graph_lex_skip_ws(q + vn, p->end);
        if (after < p->end && *after == '<' && vn && close < p->end && *close == '>') {
            *out = graph_attr_keyword(p, "stablehlo.result_accuracy_mode", q, vn);
            p->cur = close + 1;
            return *out ? BASE_OK : nomem(p);
        }
    }
    if (n == 23 && !memcmp(name, "stablehlo.sub_axis_info", 23)) return parse_sub_axis_info(p, out);
    if (n == 16 && !memcmp(name, GRAPH_TAG_BOUNDS, 16)) {
        TRY(expect_char(p, '<', "after #stablehlo.bounds"));
        return parse_bounds(p, '>', out);
    }
    if (n == 25 && !memcmp(name, "stablehlo.type_extensions", 25)) {
        TRY(expect_char(p, '<', "after #stablehlo.type_extensions"));
        TRY(graph_expect_kw(p, "bounds", "in #stablehlo.type_extensions"));
        TRY(expect_char(p, '=', "after 'bounds'"));
        TRY(expect_char(p, '[', "to open the bounds"));
        TRY(parse_bounds(p, ']', out));
        return expect_char(p, '>', "to close #stablehlo.type_extensions<...>");
    }
    if (n == 14 && !memcmp(name, GRAPH_TAG_CONV, 14)) {
        TRY(expect_char(p, '<', "after #stablehlo.conv"));
        TRY(graph_parse_conv_dims(p, out));
        return expect_char(p, '>', "to close #stablehlo.conv<...>");
    }
    if (n == 12 && !memcmp(name, GRAPH_TAG_SDY_SHARDING, 12)) {
        TRY(expect_char(p, '<', "after #sdy.sharding"));
        return graph_parse_sdy_sharding_body(p, out);
    }
    if (n == 8 && !memcmp(name, GRAPH_TAG_SDY_MESH, 8)) {
        TRY(expect_char(p, '<', "after #sdy.mesh"));
        return graph_parse_sdy_mesh_body(p, out);
    }
    if (n == 22 && !memcmp(name, "sdy.sharding_per_value", 22)) {
        TRY(expect_char(p, '<', "after #sdy.sharding_per_value"));
        TRY(expect_char(p, '[', "to open the shardings"));
        size_t base = p->attrs.n;
        if (!accept_char(p, ']')) {
            do {
                const struct graph_attr *s;
                TRY(expect_char(p, '<', "to open a sharding"));
                TRY(graph_parse_sdy_sharding_body(p, &s));
                TRY(ps_push(p, &p->attrs, &s));
            } while (accept_char(p, ','));
            TRY(expect_char(p, ']', "to close the shardings"));
        }
        TRY(take_array(p, base, out));
        return expect_char(p, '>', "to close #sdy.sharding_per_value<...>");
    }
    return parse_opaque(p, start, out);
}

static bool is_type_word(const char *s, size_t n)
{
    enum base_dtype dt;
    if (base_dtype_parse(s, n, &dt)) return true;
    if ((n == 4 && !memcmp(s, "none", 4)) || (n == 4 && !memcmp(s, "tf32", 4))) return true;
    size_t k = s[0] == 'i' ? 1 : (n > 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') ? 2 : 0;
    if (!k || k >= n) return false;
    for (size_t i = k; i < n; i++)
        if (!lex_is_digit(s[i])) return false;
    return true;
}

enum base_status graph_parse_attr(struct parser *p, const struct graph_attr **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    if (pos >= p->end) return graph_perr(p, pos, "expected an attribute, found end of input");
    TRY(graph_enter_nesting(p, pos));
    char c = *pos;
    enum base_status st = BASE_OK;
    if (c == '"') {
        const char *s;
        size_t n;
        st = graph_parse_string_lit(p, &s, &n);
        if (st == BASE_OK) {
            *out = graph_attr_string(p, s, n);
            if (!*out) st = nomem(p);
        }
    } else if (c == '@') {
        p->cur++;
        const char *s;
        size_t n;
        st = graph_parse_symbol_name(p, &s, &n);
        if (st == BASE_OK) {
            struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_SYMBOL);
            if (!a) return nomem(p);
            a->u.str.s = s;
            a->u.str.len = n;
            *out = a;
        }
    } else if (c == '[') {
        p->cur++;
        size_t base = p->attrs.n;
        if (!accept_char(p, ']')) {
            do {
                const struct graph_attr *a;
                TRY(graph_parse_attr(p, &a));
                TRY(ps_push(p, &p->attrs, &a));
            } while (accept_char(p, ','));
            st = expect_char(p, ']', "to close the array attribute");
        }
        if (st == BASE_OK) st = take_array(p, base, out);
    } else if (c == '{') {
        st = graph_parse_attr_dict_value(p, out);
    } else if (c == '#') {
        st = parse_hash_attr(p, out);
    } else if (c == '(') {
        st = parse_function_type_attr(p, out);
    } else if (c == '!') {
        const struct graph_type *t;
        st = graph_parse_type(p, &t);
        if (st == BASE_OK) {
            struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_TYPE);
            if (!a) return nomem(p);
            a->u.type = t;
            *out = a;
        }
    } else if (c == '-' || c == '+' || lex_is_digit(c)) {
        st = parse_number_attr(p, out);
    } else if (lex_is_id_start(c)) {
        size_t n = graph_lex_bare_id(pos, p->end);
        const char *after = pos + n;
        if ((n == 4 && !memcmp(pos, "true", 4)) || (n == 5 && !memcmp(pos, "false", 5))) {
            p->cur = after;
            *out = graph_attr_bool(p, n == 4);
            if (!*out) st = nomem(p);
        } else if (n == 4 && !memcmp(pos, "unit", 4)) {
            p->cur = after;
            *out = graph_new_attr(p, GRAPH_ATTR_UNIT);
            if (!*out) st = nomem(p);
        } else if (n == 5 && !memcmp(pos, "dense", 5)) {
            p->cur = after;
            st = graph_parse_dense(p, out);
        } else if (n == 14 && !memcmp(pos, "dense_resource", 14)) {
            p->cur = after;
            st = graph_parse_dense_resource(p, out);
        } else if (n == 5 && !memcmp(pos, "array", 5)) {
            p->cur = after;
            st = graph_parse_dense_array(p, out);
        } else if ((n == 6 && !memcmp(pos, "tensor", 6)) || (n == 5 && !memcmp(pos, "tuple", 5))) {
            const struct graph_type *t;
            st = graph_parse_type(p, &t);
            if (st == BASE_OK) {
                struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_TYPE);
                if (!a) return nomem(p);
                a->u.type = t;
                *out = a;
            }
        } else if (after < p->end && *after == '<') {
            /* affine_map<...>, complex<f32>, vector<...>, sparse<...>: verbatim */
            p->cur = after;
            st = parse_opaque(p, pos, out);
        } else if (is_type_word(pos, n)) {
            p->cur = after;
            *out = graph_attr_keyword(p, NULL, pos, n);
            if (!*out) st = nomem(p);
        } else {
            st = graph_perr(p, pos, "unexpected identifier '%.*s' where an attribute was expected", (int)(n > 40 ? 40 : n),
                      pos);
        }
    } else {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        st = graph_perr(p, pos, "expected an attribute, found %s", found);
    }
    if (st == BASE_OK) leave_nesting(p);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Canonical attributes per op (see docs/graph-ir.md)                        */

static const char *const dense_attr_names[] = {
    "broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions", "broadcast_sizes",
    "permutation", "dimensions", "start_indices", "limit_indices", "strides", "slice_sizes", "edge_padding_low",
    "edge_padding_high", "interior_padding", "window_dimensions", "window_strides", "base_dilations",
    "window_dilations", "lhs_dilation", "rhs_dilation", "fft_length", NULL};

static bool op_uses_dense(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_BROADCAST_IN_DIM:
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM:
    case GRAPH_OP_BROADCAST:
    case GRAPH_OP_TRANSPOSE:
    case GRAPH_OP_REVERSE:
    case GRAPH_OP_SLICE:
    case GRAPH_OP_DYNAMIC_SLICE:
    case GRAPH_OP_PAD:
    case GRAPH_OP_REDUCE:
    case GRAPH_OP_MAP:
    case GRAPH_OP_REDUCE_WINDOW:
    case GRAPH_OP_SELECT_AND_SCATTER:
    case GRAPH_OP_CONVOLUTION:
    case GRAPH_OP_DYNAMIC_CONV:
    case GRAPH_OP_GATHER:
    case GRAPH_OP_FFT:
        return true;
    default:
        return false;
    }
}

bool graph_op_attr_dense_list(enum graph_op_kind k, const char *name, enum base_dtype *elem)
{
    if (!op_uses_dense(k)) return false;
    for (int i = 0; dense_attr_names[i]; i++)
        if (!strcmp(name, dense_attr_names[i])) {
            *elem = BASE_DT_SI64;
            return true;
        }
    if (!strcmp(name, "window_reversal")) {
        *elem = BASE_DT_I1;
        return true;
    }
    return false;
}

const char *graph_op_attr_canonical_name(enum graph_op_kind k, const char *name)
{
    if (graph_op_kind_has(k, GRAPH_OPF_PROBE) && !strcmp(name, "iteration")) return "iter";
    return name;
}

const struct graph_attr *graph_elements_to_dense(struct base_arena *arena, const struct graph_attr *a,
                                                 enum base_dtype elem)
{
    if (a->kind != GRAPH_ATTR_ELEMENTS) return a;
    const struct base_tensor *t = a->u.elements.value;
    if (!t || t->rank > 1) return a;
    enum base_dtype_kind k = base_dtype_kind(t->dtype);
    if (k != BASE_KIND_SINT && k != BASE_KIND_UINT && k != BASE_KIND_BOOL) return a;
    if (t->count > INT32_MAX) return a;
    struct graph_attr *d = base_arena_alloc(arena, sizeof *d);
    int64_t *v = base_arena_alloc(arena, (size_t)(t->count ? t->count : 1) * sizeof *v);
    if (!d || !v) return NULL;
    for (int64_t i = 0; i < t->count; i++) v[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
    d->kind = GRAPH_ATTR_DENSE_ARRAY;
    d->elem = elem;
    d->u.dense.n = (int)t->count;
    d->u.dense.i = v;
    return d;
}

/* dense<[1, 2]> : tensor<2xi64> -> array<i64: 1, 2>; the literal's tensor is
 * released (unless an alias shares it) */
static const struct graph_attr *elements_to_dense(struct parser *p, const struct graph_attr *a, enum base_dtype elem)
{
    const struct graph_attr *d = graph_elements_to_dense(p->arena, a, elem);
    if (d == a || !d) return d;
    const struct base_tensor *t = a->u.elements.value;
    for (size_t j = graph_is_alias_value(p, a) ? 0 : p->tensors.n; j-- > 0;) {
        struct base_tensor **slot = ps_at(&p->tensors, j);
        if (*slot == t) {
            *slot = NULL;
            base_tensor_release((struct base_tensor *)t);
            ((struct graph_attr *)a)->u.elements.value = NULL;
            break;
        }
    }
    return d;
}

static bool attr_is_empty_list(const struct graph_attr *a)
{
    switch (a->kind) {
    case GRAPH_ATTR_DENSE_ARRAY: return a->u.dense.n == 0;
    case GRAPH_ATTR_ARRAY: return a->u.array.n == 0;
    case GRAPH_ATTR_ELEMENTS: return a->u.elements.type && graph_type_count(a->u.elements.type) == 0;
    default: return false;
    }
}

enum base_status graph_normalize_op_attrs(struct parser *p, struct op_build *b)
{
    size_t n = p->nattrs.n - b->nattr_base;
    struct graph_named_attr *a = ps_at(&p->nattrs, b->nattr_base);
    for (size_t i = 0; i < n; i++) {
        enum base_dtype elem;
        if (a[i].value->kind == GRAPH_ATTR_ELEMENTS && graph_op_attr_dense_list(b->kind, a[i].name, &elem)) {
            a[i].value = elements_to_dense(p, a[i].value, elem);
            if (!a[i].value) return nomem(p);
        }
        a[i].name = graph_op_attr_canonical_name(b->kind, a[i].name);
    }
    /* An empty optional window list (`window = {stride = []}`, `padding =
     * dense<> : tensor<0x2xi64>`) is the default, as upstream reads it: drop
     * it, so every reader sees one form. */
    if (b->kind == GRAPH_OP_CONVOLUTION || b->kind == GRAPH_OP_DYNAMIC_CONV || b->kind == GRAPH_OP_REDUCE_WINDOW ||
        b->kind == GRAPH_OP_SELECT_AND_SCATTER) {
        static const char *const optional[] = {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal",
                                               "padding", "base_dilations", "window_dilations", NULL};
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            bool drop = false;
            for (int j = 0; optional[j] && !drop; j++)
                drop = !strcmp(a[i].name, optional[j]) && attr_is_empty_list(a[i].value);
            if (!drop) {
                a[k++] = a[i];
                continue;
            }
            /* a dropped literal's (empty) tensor is no one's: release it now */
            struct base_tensor *t = a[i].value->kind == GRAPH_ATTR_ELEMENTS && !graph_is_alias_value(p, a[i].value)
                                        ? a[i].value->u.elements.value
                                        : NULL; /* an alias's tensor may serve other ops */
            for (size_t j = p->tensors.n; t && j-- > 0;) {
                struct base_tensor **slot = ps_at(&p->tensors, j);
                if (*slot == t) {
                    *slot = NULL;
                    base_tensor_release(t);
                    break;
                }
            }
        }
        p->nattrs.n = b->nattr_base + k;
    }
    return BASE_OK;
}
