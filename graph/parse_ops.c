/* StableHLO text parser: the custom (pretty) assembly forms.
 *
 * Each form is read as StableHLO's assembly formats print it
 * (stablehlo/dialect/StablehloOps.td, AssemblyFormat.cpp), and produces the
 * attributes of the generic form (docs/graph-ir.md), so both forms give the
 * same IR. */
#include "graph/graph.h"
#include "graph/parse_internal.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* Operands and signatures                                                   */

static enum base_status operand(struct parser *p)
{
    struct graph_value *v;
    TRY(graph_parse_value_use(p, &v));
    return ps_push(p, &p->vals, &v);
}

/* ',' followed by a value */
static bool at_comma_value(struct parser *p)
{
    skip_ws(p);
    if (p->cur >= p->end || *p->cur != ',') return false;
    const char *q = graph_lex_skip_ws(p->cur + 1, p->end);
    return q < p->end && *q == '%';
}

/* %a, %b, ... (zero or more; stops before a ',' not followed by a value) */
static enum base_status operand_list(struct parser *p)
{
    if (!at_char(p, '%')) return BASE_OK;
    TRY(operand(p));
    while (at_comma_value(p)) {
        p->cur++;
        TRY(operand(p));
    }
    return BASE_OK;
}

/* %a, %b, (each followed by ',': VariadicOperandWithAttribute) */
static enum base_status operands_with_commas(struct parser *p)
{
    while (at_char(p, '%')) {
        TRY(operand(p));
        TRY(expect_char(p, ',', "after the operand"));
    }
    return BASE_OK;
}

static enum base_status opt_attr_dict(struct parser *p)
{
    if (at_char(p, '{')) return graph_parse_attr_dict(p);
    return BASE_OK;
}

struct sig {
    size_t base; /* types on p->tys: inputs then outputs */
    int n_in;
    int n_out;
    bool functional;
    const char *pos;
};

static const struct graph_type *sig_in(struct parser *p, const struct sig *s, int i)
{
    return *(const struct graph_type **)ps_at(&p->tys, s->base + (size_t)i);
}

/* `(T, ...) -> R`, `(T, ...) -> (R, ...)`, `T, T -> R`, `T -> (R, R)` or a plain `T, T` list */
static enum base_status parse_sig(struct parser *p, struct sig *s)
{
    memset(s, 0, sizeof *s);
    skip_ws(p);
    s->pos = p->cur;
    s->base = p->tys.n;
    if (at_char(p, '(')) {
        s->functional = true;
        return graph_parse_function_type(p, &s->n_in, &s->n_out);
    }
    TRY(graph_parse_type_list(p));
    s->n_in = (int)(p->tys.n - s->base);
    if (graph_accept_str(p, "->")) {
        s->functional = true;
        TRY(graph_parse_result_types(p));
        s->n_out = (int)(p->tys.n - s->base) - s->n_in;
    }
    return BASE_OK;
}

static enum base_status type_mismatch(struct parser *p, const char *pos, struct op_build *b, int i,
                                      const struct graph_type *have, const struct graph_type *want)
{
    char a[160], c[160];
    graph_type_str(have, a, sizeof a);
    graph_type_str(want, c, sizeof c);
    return graph_perr(p, pos, "operand #%d of '%s' has type %s but the op's type says %s", i, b->name, a, c);
}

static enum base_status check_operand(struct parser *p, struct op_build *b, int i, const struct graph_type *t,
                                      const char *pos)
{
    struct graph_value *v = graph_build_operand(p, b, i);
    if (!graph_type_equal(v->type, t)) return type_mismatch(p, pos, b, i, v->type, t);
    return BASE_OK;
}

/* Replaces the signature's types on the stack by the given result types. */
static enum base_status set_results(struct parser *p, const struct sig *s, int n, const struct graph_type *const *types)
{
    const struct graph_type *tmp[8];
    const struct graph_type **copy = tmp;
    if (n > 8) {
        copy = graph_palloc(p, (size_t)n * sizeof *copy);
        if (!copy) return nomem(p);
    }
    for (int i = 0; i < n; i++) copy[i] = types[i];
    p->tys.n = s->base;
    for (int i = 0; i < n; i++) TRY(ps_push(p, &p->tys, &copy[i]));
    return BASE_OK;
}

static enum base_status keep_outputs(struct parser *p, const struct sig *s)
{
    if (s->n_out && s->n_in)
        memmove(ps_at(&p->tys, s->base), ps_at(&p->tys, s->base + (size_t)s->n_in),
            (size_t)s->n_out * sizeof(const struct graph_type *));
    p->tys.n = s->base + (size_t)s->n_out;
    return BASE_OK;
}

static enum base_status bind_functional(struct parser *p, struct op_build *b, const struct sig *s, int n_res)
{
    int n = graph_build_n_operands(p, b);
    if (!s->functional)
        return graph_perr(p, s->pos, "'%s' needs a functional type (operand types) -> result types", b->name);
    if (s->n_in != n)
        return graph_perr(p, s->pos, "'%s' has %d operand%s but its type lists %d", b->name, n, n == 1 ? "" : "s", s->n_in);
    if (n_res >= 0 && s->n_out != n_res)
        return graph_perr(p, s->pos, "'%s' has %d result%s but its type lists %d", b->name, n_res, n_res == 1 ? "" : "s",
                    s->n_out);
    for (int i = 0; i < n; i++) TRY(check_operand(p, b, i, sig_in(p, s, i), s->pos));
    return keep_outputs(p, s);
}

/* custom<SameOperandsAndResultType>: `T` for all, or functional */
static enum base_status bind_same(struct parser *p, struct op_build *b, const struct sig *s, int n_res)
{
    if (s->functional) return bind_functional(p, b, s, n_res);
    if (s->n_in != 1) return graph_perr(p, s->pos, "'%s' takes one type here (or a functional type)", b->name);
    const struct graph_type *t = sig_in(p, s, 0);
    int n = graph_build_n_operands(p, b);
    for (int i = 0; i < n; i++) TRY(check_operand(p, b, i, t, s->pos));
    const struct graph_type *r[1] = {t};
    return set_results(p, s, n_res, r);
}

static enum base_status expect_sig(struct parser *p, struct sig *s, const char *what)
{
    TRY(expect_char(p, ':', what));
    return parse_sig(p, s);
}

static enum base_status n_operands_is(struct parser *p, struct op_build *b, int want)
{
    int n = graph_build_n_operands(p, b);
    if (n != want)
        return graph_perr(p, b->pos, "'%s' takes %d operand%s, found %d", b->name, want, want == 1 ? "" : "s", n);
    return BASE_OK;
}

static enum base_status keyword_eq(struct parser *p, const char *kw)
{
    TRY(graph_expect_kw(p, kw, "in the op's custom form"));
    return expect_char(p, '=', "after the keyword");
}

static enum base_status int_attr(struct parser *p, const char *name, enum base_dtype dt)
{
    int64_t v;
    TRY(graph_parse_int_lit(p, &v, name));
    const struct graph_attr *a = graph_attr_int(p, v, dt);
    if (!a) return nomem(p);
    return graph_push_attr(p, name, a);
}

static enum base_status dense_attr(struct parser *p, const char *name)
{
    const struct graph_attr *a;
    TRY(graph_parse_dense_i64_list(p, &a));
    return graph_push_attr(p, name, a);
}

static enum base_status enum_attr(struct parser *p, const char *name, const char *tag, const char *const *allowed)
{
    skip_ws(p);
    const char *pos = p->cur;
    size_t n;
    const char *w = graph_take_bare_id(p, &n);
    bool ok = false;
    for (int i = 0; allowed[i]; i++)
        if (strlen(allowed[i]) == n && !memcmp(allowed[i], w, n)) ok = true;
    if (!ok) {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        return graph_perr(p, pos, "expected a %s value (%s, ...), found %s", name, allowed[0], found);
    }
    const struct graph_attr *a = graph_attr_keyword(p, tag, w, n);
    if (!a) return nomem(p);
    return graph_push_attr(p, name, a);
}

static const char *const cmp_dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
static const char *const cmp_types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE", NULL};
static const char *const precisions[] = {"DEFAULT", "HIGH", "HIGHEST", NULL};
static const char *const fft_types[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
static const char *const rng_algos[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
static const char *const rng_dists[] = {"UNIFORM", "NORMAL", NULL};

/* [DEFAULT, HIGHEST] -> ARRAY of KEYWORD tag stablehlo.precision */
static enum base_status precision_list(struct parser *p)
{
    TRY(expect_char(p, '[', "to open the precision list"));
    size_t base = p->attrs.n;
    if (!accept_char(p, ']')) {
        do {
            size_t nb = p->nattrs.n;
            TRY(enum_attr(p, "precision", GRAPH_TAG_PRECISION, precisions));
            const struct graph_attr *a = ((struct graph_named_attr *)ps_at(&p->nattrs, nb))->value;
            p->nattrs.n = nb;
            TRY(ps_push(p, &p->attrs, &a));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the precision list"));
    }
    struct graph_attr *arr = graph_new_attr(p, GRAPH_ATTR_ARRAY);
    if (!arr) return nomem(p);
    void *tmp;
    TRY(graph_ps_take(p, &p->attrs, base, &tmp, &arr->u.array.n));
    arr->u.array.items = tmp;
    return graph_push_attr(p, "precision_config", arr);
}

/* ------------------------------------------------------------------------ */
/* Generic shapes of custom forms                                            */

/* operands attr-dict : functional-type (or SameOperandsAndResultType) */
static enum base_status form_operands(struct parser *p, struct op_build *b, int n_opnd, int n_res, bool same_ok)
{
    TRY(operand_list(p));
    if (n_opnd >= 0) TRY(n_operands_is(p, b, n_opnd));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return same_ok ? bind_same(p, b, &s, n_res) : bind_functional(p, b, &s, n_res);
}

/* %a, <kw> = [..] attr-dict : type */
static enum base_status form_dims(struct parser *p, struct op_build *b, int n_opnd, const char *kw, const char *attr,
                                  bool same)
{
    for (int i = 0; i < n_opnd; i++) {
        TRY(operand(p));
        TRY(expect_char(p, ',', "after the operand"));
    }
    TRY(keyword_eq(p, kw));
    TRY(dense_attr(p, attr));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return same ? bind_same(p, b, &s, 1) : bind_functional(p, b, &s, 1);
}

/* ------------------------------------------------------------------------ */
/* Individual forms                                                          */

static enum base_status form_constant(struct parser *p, struct op_build *b)
{
    if (accept_char(p, '(')) {
        /* stablehlo.constant() <{value = ...}> : () -> T (quantized constants) */
        TRY(expect_char(p, ')', "after 'constant('"));
        skip_ws(p);
        if (p->cur < p->end && *p->cur == '<') {
            p->cur++;
            TRY(graph_parse_attr_dict(p));
            TRY(expect_char(p, '>', "to close the properties"));
        }
        TRY(opt_attr_dict(p));
        struct sig s;
        TRY(expect_sig(p, &s, "before the constant's type"));
        return bind_functional(p, b, &s, 1);
    }
    TRY(opt_attr_dict(p));
    skip_ws(p);
    const char *pos = p->cur;
    const struct graph_attr *v;
    TRY(graph_parse_attr(p, &v));
    if (v->kind != GRAPH_ATTR_ELEMENTS) return graph_perr(p, pos, "%s needs a dense<...> : type value", b->name);
    TRY(graph_push_attr(p, "value", v));
    return ps_push(p, &p->tys, &v->u.elements.type);
}

/* tensor.cast %x : T to R */
static enum base_status form_tensor_cast(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(opt_attr_dict(p));
    TRY(expect_char(p, ':', "before the cast's operand type"));
    skip_ws(p);
    const char *pos = p->cur;
    const struct graph_type *in, *out;
    TRY(graph_parse_type(p, &in));
    TRY(check_operand(p, b, 0, in, pos));
    TRY(graph_expect_kw(p, "to", "between the cast's types"));
    TRY(graph_parse_type(p, &out));
    return ps_push(p, &p->tys, &out);
}

static enum base_status form_compare(struct parser *p, struct op_build *b)
{
    TRY(enum_attr(p, "comparison_direction", "stablehlo.comparison_direction", cmp_dirs));
    TRY(expect_char(p, ',', "after the comparison direction"));
    TRY(operand(p));
    TRY(expect_char(p, ',', "between the compared operands"));
    TRY(operand(p));
    if (accept_char(p, ',')) TRY(enum_attr(p, "compare_type", "stablehlo.comparison_type", cmp_types));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the compare type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_select(struct parser *p, struct op_build *b)
{
    TRY(operand_list(p));
    TRY(n_operands_is(p, b, 3));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the select type"));
    if (s.functional) return bind_functional(p, b, &s, 1);
    if (s.n_in != 2) return graph_perr(p, s.pos, "stablehlo.select takes `pred type, result type` here");
    const struct graph_type *tp = sig_in(p, &s, 0), *tr = sig_in(p, &s, 1);
    TRY(check_operand(p, b, 0, tp, s.pos));
    TRY(check_operand(p, b, 1, tr, s.pos));
    TRY(check_operand(p, b, 2, tr, s.pos));
    return set_results(p, &s, 1, &tr);
}

static enum base_status form_complex(struct parser *p, struct op_build *b)
{
    TRY(operand_list(p));
    TRY(n_operands_is(p, b, 2));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the complex type"));
    if (s.functional) return bind_functional(p, b, &s, 1);
    if (s.n_in != 1) return graph_perr(p, s.pos, "stablehlo.complex takes its complex result type here");
    const struct graph_type *t = sig_in(p, &s, 0);
    if (t->kind != GRAPH_TYPE_TENSOR || !base_dtype_is_complex(t->elem))
        return graph_perr(p, s.pos, "stablehlo.complex needs a complex result type");
    const struct graph_type *part = graph_make_tensor_type(p, base_dtype_component(t->elem), NULL, t->rank, t->dims);
    if (!part) return nomem(p);
    TRY(check_operand(p, b, 0, part, s.pos));
    TRY(check_operand(p, b, 1, part, s.pos));
    return set_results(p, &s, 1, &t);
}

static enum base_status form_reduce_precision(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(keyword_eq(p, "format"));
    skip_ws(p);
    const char *pos = p->cur;
    size_t n;
    const char *w = graph_take_bare_id(p, &n);
    int64_t e = 0, m = 0;
    size_t i = 1;
    if (n < 4 || w[0] != 'e') return graph_perr(p, pos, "expected a format like e5m10");
    while (i < n && lex_is_digit(w[i]) && e < 100000) e = e * 10 + (w[i++] - '0');
    if (i >= n || w[i] != 'm' || i == 1) return graph_perr(p, pos, "expected a format like e5m10");
    size_t j = ++i;
    while (i < n && lex_is_digit(w[i]) && m < 100000) m = m * 10 + (w[i++] - '0');
    if (i != n || i == j) return graph_perr(p, pos, "expected a format like e5m10");
    const struct graph_attr *ea = graph_attr_int(p, e, BASE_DT_SI32), *ma = graph_attr_int(p, m, BASE_DT_SI32);
    if (!ea || !ma) return nomem(p);
    TRY(graph_push_attr(p, "exponent_bits", ea));
    TRY(graph_push_attr(p, "mantissa_bits", ma));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_same(p, b, &s, 1);
}

static enum base_status form_slice(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, '[', "to open the slice ranges"));
    size_t base = p->i64s.n;
    int rank = 0;
    if (!accept_char(p, ']')) {
        do {
            int64_t s, l, st = 1;
            TRY(graph_parse_int_lit(p, &s, "(slice start)"));
            TRY(expect_char(p, ':', "in a slice range start:limit"));
            TRY(graph_parse_int_lit(p, &l, "(slice limit)"));
            if (accept_char(p, ':')) TRY(graph_parse_int_lit(p, &st, "(slice stride)"));
            TRY(ps_push(p, &p->i64s, &s));
            TRY(ps_push(p, &p->i64s, &l));
            TRY(ps_push(p, &p->i64s, &st));
            if (++rank > GRAPH_MAX_RANK) return graph_perr_st(p, p->cur, BASE_ERR_LIMIT, "too many slice ranges");
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the slice ranges"));
    }
    int64_t v[3][GRAPH_MAX_RANK];
    for (int i = 0; i < rank; i++)
        for (int k = 0; k < 3; k++) v[k][i] = *(int64_t *)ps_at(&p->i64s, base + (size_t)(3 * i + k));
    p->i64s.n = base;
    static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
    for (int k = 0; k < 3; k++) {
        const struct graph_attr *a = graph_attr_dense_i64(p, v[k], rank);
        if (!a) return nomem(p);
        TRY(graph_push_attr(p, names[k], a));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the slice type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_dynamic_slice(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(operands_with_commas(p));
    TRY(keyword_eq(p, "sizes"));
    TRY(dense_attr(p, "slice_sizes"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_pad(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the padding value"));
    TRY(keyword_eq(p, "low"));
    TRY(dense_attr(p, "edge_padding_low"));
    TRY(expect_char(p, ',', "after the low padding"));
    TRY(keyword_eq(p, "high"));
    TRY(dense_attr(p, "edge_padding_high"));
    TRY(expect_char(p, ',', "after the high padding"));
    TRY(keyword_eq(p, "interior"));
    TRY(dense_attr(p, "interior_padding"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the pad type"));
    return bind_functional(p, b, &s, 1);
}

/* %a[, %b], dim = N attr-dict : functional */
static enum base_status form_dim_attr(struct parser *p, struct op_build *b, int n_opnd, const char *attr)
{
    for (int i = 0; i < n_opnd; i++) {
        TRY(operand(p));
        TRY(expect_char(p, ',', "after the operand"));
    }
    TRY(keyword_eq(p, "dim"));
    TRY(int_attr(p, attr, BASE_DT_SI64));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    if (n_opnd == 0) {
        if (s.functional || s.n_in != 1) return graph_perr(p, s.pos, "'%s' takes its result type here", b->name);
        return keep_outputs(p, &(struct sig){s.base, 0, 1, true, s.pos});
    }
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_get_tuple_element(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, '[', "before the tuple index"));
    TRY(int_attr(p, "index", BASE_DT_SI32));
    TRY(expect_char(p, ']', "after the tuple index"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_tuple(struct parser *p, struct op_build *b)
{
    TRY(operand_list(p));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the tuple type"));
    if (s.functional) return bind_functional(p, b, &s, 1);
    const struct graph_type *t = sig_in(p, &s, 0);
    if (s.n_in != 1 || t->kind != GRAPH_TYPE_TUPLE) return graph_perr(p, s.pos, "stablehlo.tuple takes its tuple type here");
    int n = graph_build_n_operands(p, b);
    if (n != t->n_elems) return graph_perr(p, s.pos, "the tuple type has %d elements for %d operands", t->n_elems, n);
    for (int i = 0; i < n; i++) TRY(check_operand(p, b, i, t->elems[i], s.pos));
    return set_results(p, &s, 1, &t);
}

static enum base_status form_type_only(struct parser *p, struct op_build *b)
{
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the result type"));
    if (s.functional) return bind_functional(p, b, &s, 1);
    if (s.n_in != 1) return graph_perr(p, s.pos, "'%s' takes one result type", b->name);
    return keep_outputs(p, &(struct sig){s.base, 0, 1, true, s.pos});
}

static enum base_status form_after_all(struct parser *p, struct op_build *b)
{
    TRY(operand_list(p));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the token type"));
    return bind_same(p, b, &s, 1);
}

static enum base_status form_optimization_barrier(struct parser *p, struct op_build *b)
{
    TRY(opt_attr_dict(p));
    if (accept_char(p, '(')) return expect_char(p, ')', "in 'optimization_barrier ()'");
    TRY(operand_list(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the operand types"));
    if (s.functional) return bind_functional(p, b, &s, graph_build_n_operands(p, b));
    int n = graph_build_n_operands(p, b);
    if (s.n_in != n) return graph_perr(p, s.pos, "optimization_barrier has %d operands but %d types", n, s.n_in);
    for (int i = 0; i < n; i++) TRY(check_operand(p, b, i, sig_in(p, &s, i), s.pos));
    return BASE_OK; /* results have the operand types, already on the stack */
}

static enum base_status form_custom_call(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '@', "before the custom call target"));
    const char *name;
    size_t n;
    TRY(graph_parse_symbol_name(p, &name, &n));
    const struct graph_attr *t = graph_attr_string(p, name, n);
    if (!t) return nomem(p);
    TRY(graph_push_attr(p, "call_target_name", t));
    TRY(expect_char(p, '(', "to open the custom call operands"));
    if (!accept_char(p, ')')) {
        TRY(operand_list(p));
        TRY(expect_char(p, ')', "to close the custom call operands"));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the custom call type"));
    return bind_functional(p, b, &s, -1);
}

static enum base_status form_call(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '@', "before the callee"));
    const char *name;
    size_t n;
    TRY(graph_parse_symbol_name(p, &name, &n));
    struct graph_attr *c = graph_new_attr(p, GRAPH_ATTR_SYMBOL);
    if (!c) return nomem(p);
    c->u.str.s = name;
    c->u.str.len = n;
    TRY(graph_push_attr(p, "callee", c));
    TRY(expect_char(p, '(', "to open the call operands"));
    if (!accept_char(p, ')')) {
        TRY(operand_list(p));
        TRY(expect_char(p, ')', "to close the call operands"));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the call type"));
    return bind_functional(p, b, &s, -1);
}

static enum base_status form_dot_general(struct parser *p, struct op_build *b, bool general)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "between the dot operands"));
    TRY(operand(p));
    if (general) {
        static const char *const names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                             "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
        const struct graph_attr *d[4] = {NULL, NULL, NULL, NULL};
        TRY(expect_char(p, ',', "before the dot dimension numbers"));
        for (int k = 0; k < 2; k++) {
            bool batching = k == 0;
            if (batching && !graph_peek_kw(p, "batching_dims")) continue;
            TRY(keyword_eq(p, batching ? "batching_dims" : "contracting_dims"));
            TRY(graph_parse_dense_i64_list(p, &d[2 * k]));
            TRY(graph_expect_kw(p, "x", "between the lhs and rhs dimensions"));
            TRY(graph_parse_dense_i64_list(p, &d[2 * k + 1]));
            if (batching) TRY(expect_char(p, ',', "after the batching dimensions"));
        }
        size_t base = p->nattrs.n;
        for (int i = 0; i < 4; i++)
            if (d[i] && d[i]->u.dense.n > 0) TRY(graph_push_attr(p, names[i], d[i]));
        struct graph_attr *dn = graph_new_attr(p, GRAPH_ATTR_DICT);
        if (!dn) return nomem(p);
        void *tmp;
        TRY(graph_ps_take(p, &p->nattrs, base, &tmp, &dn->u.dict.n));
        dn->u.dict.items = tmp;
        dn->tag = GRAPH_TAG_DOT;
        TRY(graph_push_attr(p, "dot_dimension_numbers", dn));
    }
    while (accept_char(p, ',')) {
        if (graph_accept_kw(p, "precision")) {
            TRY(expect_char(p, '=', "after 'precision'"));
            TRY(precision_list(p));
        } else if (general && graph_accept_kw(p, "algorithm")) {
            TRY(expect_char(p, '=', "after 'algorithm'"));
            const struct graph_attr *a;
            if (at_char(p, '#')) TRY(graph_parse_attr(p, &a));
            else TRY(graph_parse_dot_algorithm_body(p, &a)); /* <lhs_precision_type = ..., ...> */
            TRY(graph_push_attr(p, "algorithm", a));
        } else {
            char found[48];
            graph_describe_at(p, p->cur, found, sizeof found);
            return graph_perr(p, p->cur, "expected 'precision'%s, found %s", general ? " or 'algorithm'" : "", found);
        }
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the dot type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_convolution(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "to open the convolution operands"));
    TRY(operand_list(p));
    TRY(expect_char(p, ')', "to close the convolution operands"));
    TRY(n_operands_is(p, b, 2));
    TRY(keyword_eq(p, "dim_numbers"));
    const struct graph_attr *dn;
    TRY(graph_parse_conv_dims(p, &dn));
    TRY(graph_push_attr(p, "dimension_numbers", dn));
    TRY(expect_char(p, ',', "after the dimension numbers"));
    TRY(keyword_eq(p, "window"));
    TRY(expect_char(p, '{', "to open the window attributes"));
    if (!accept_char(p, '}')) {
        do {
            skip_ws(p);
            const char *kpos = p->cur;
            const char *k;
            size_t kn;
            TRY(graph_expect_bare_id(p, &k, &kn, "(window attribute)"));
            TRY(expect_char(p, '=', "after the window attribute name"));
            if ((kn == 6 && !memcmp(k, "stride", 6)) || (kn == 10 && !memcmp(k, "lhs_dilate", 10)) ||
                (kn == 10 && !memcmp(k, "rhs_dilate", 10))) {
                TRY(dense_attr(p, k[0] == 's' ? "window_strides" : k[0] == 'l' ? "lhs_dilation" : "rhs_dilation"));
            } else if (kn == 3 && !memcmp(k, "pad", 3)) {
                TRY(expect_char(p, '[', "to open the padding"));
                size_t base = p->i64s.n;
                int rows = 0;
                if (!accept_char(p, ']')) {
                    do {
                        int64_t lo, hi;
                        TRY(expect_char(p, '[', "to open a padding pair"));
                        TRY(graph_parse_int_lit(p, &lo, "(low padding)"));
                        TRY(expect_char(p, ',', "in a padding pair"));
                        TRY(graph_parse_int_lit(p, &hi, "(high padding)"));
                        TRY(expect_char(p, ']', "to close a padding pair"));
                        TRY(ps_push(p, &p->i64s, &lo));
                        TRY(ps_push(p, &p->i64s, &hi));
                        if (++rows > GRAPH_MAX_RANK) return graph_perr_st(p, p->cur, BASE_ERR_LIMIT, "too many padding pairs");
                    } while (accept_char(p, ','));
                    TRY(expect_char(p, ']', "to close the padding"));
                }
                int64_t dims[2] = {rows, 2};
                const struct graph_attr *a = graph_attr_elements_i64(p, ps_at(&p->i64s, base), 2, dims);
                p->i64s.n = base;
                if (!a) return nomem(p);
                TRY(graph_push_attr(p, "padding", a));
            } else if (kn == 7 && !memcmp(k, "reverse", 7)) {
                TRY(expect_char(p, '[', "to open the window reversal"));
                size_t base = p->i64s.n;
                if (!accept_char(p, ']')) {
                    do {
                        int64_t v;
                        if (graph_accept_kw(p, "true")) v = 1;
                        else if (graph_accept_kw(p, "false")) v = 0;
                        else TRY(graph_parse_int_lit(p, &v, "(window reversal)"));
                        TRY(ps_push(p, &p->i64s, &v));
                    } while (accept_char(p, ','));
                    TRY(expect_char(p, ']', "to close the window reversal"));
                }
                struct graph_attr *a = (struct graph_attr *)graph_attr_dense_i64(p, ps_at(&p->i64s, base),
                                                                           (int)(p->i64s.n - base));
                p->i64s.n = base;
                if (!a) return nomem(p);
                a->elem = BASE_DT_I1;
                TRY(graph_push_attr(p, "window_reversal", a));
            } else {
                return graph_perr(p, kpos, "unknown window attribute '%.*s' (stride, pad, lhs_dilate, rhs_dilate, reverse)",
                            (int)kn, k);
            }
        } while (accept_char(p, ','));
        TRY(expect_char(p, '}', "to close the window attributes"));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the convolution type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_keyword_op(struct parser *p, struct op_build *b, int n_opnd, const char *kw,
                                        const char *attr, const char *tag, const char *const *allowed, int n_res)
{
    for (int i = 0; i < n_opnd; i++) {
        TRY(operand(p));
        TRY(expect_char(p, ',', "after the operand"));
    }
    TRY(keyword_eq(p, kw));
    TRY(enum_attr(p, attr, tag, allowed));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_functional(p, b, &s, n_res);
}

static enum base_status form_fft(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(keyword_eq(p, "type"));
    TRY(enum_attr(p, "fft_type", "stablehlo.fft_type", fft_types));
    TRY(expect_char(p, ',', "after the fft type"));
    TRY(keyword_eq(p, "length"));
    TRY(dense_attr(p, "fft_length"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the fft type"));
    return bind_functional(p, b, &s, 1);
}

static enum base_status form_einsum(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(keyword_eq(p, "config"));
    const char *s;
    size_t n;
    TRY(graph_parse_string_lit(p, &s, &n));
    const struct graph_attr *a = graph_attr_string(p, s, n);
    if (!a) return nomem(p);
    TRY(graph_push_attr(p, "einsum_config", a));
    TRY(opt_attr_dict(p));
    struct sig sg;
    TRY(expect_sig(p, &sg, "before the einsum type"));
    return bind_functional(p, b, &sg, 1);
}

static enum base_status form_cholesky(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    if (accept_char(p, ',')) {
        TRY(keyword_eq(p, "lower"));
        bool v;
        if (graph_accept_kw(p, "true")) v = true;
        else if (graph_accept_kw(p, "false")) v = false;
        else return graph_perr(p, p->cur, "expected true or false after 'lower ='");
        const struct graph_attr *a = graph_attr_bool(p, v);
        if (!a) return nomem(p);
        TRY(graph_push_attr(p, "lower", a));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_same(p, b, &s, 1);
}

/* Names, positions and types of region arguments (arena arrays). */
struct arg_list {
    int n;
    const char **names;
    const char **pos;
    const struct graph_type **types;
    struct graph_loc **locs;
};

static enum base_status arg_list_alloc(struct parser *p, struct arg_list *a, int n)
{
    a->n = n;
    size_t k = (size_t)(n ? n : 1);
    a->names = graph_palloc(p, k * sizeof *a->names);
    a->pos = graph_palloc(p, k * sizeof *a->pos);
    a->types = graph_palloc(p, k * sizeof *a->types);
    a->locs = graph_palloc(p, k * sizeof *a->locs);
    if (a->locs) memset(a->locs, 0, k * sizeof *a->locs);
    return a->names && a->pos && a->types && a->locs ? BASE_OK : nomem(p);
}

static struct region_args region_args_of(const struct arg_list *a)
{
    struct region_args r = {a->n, a->names, a->pos, a->types, a->locs};
    return r;
}

/* `%name` (definition site) -> arena string */
static enum base_status def_name(struct parser *p, const char **name, const char **pos)
{
    skip_ws(p);
    *pos = p->cur;
    if (p->cur >= p->end || *p->cur != '%') return graph_perr(p, p->cur, "expected a value name (%%name)");
    size_t n = graph_lex_suffix_id(p->cur + 1, p->end);
    if (!n) return graph_perr(p, p->cur, "expected a value name after '%%'");
    *name = graph_pstrndup(p, p->cur + 1, n);
    if (!*name) return nomem(p);
    p->cur += 1 + n;
    return BASE_OK;
}

static enum base_status form_while(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "to open the while operands"));
    size_t nb = p->argnames.n;
    if (!accept_char(p, ')')) {
        do {
            struct result_name rn = {NULL, NULL, 1, NULL};
            TRY(def_name(p, &rn.name, &rn.pos));
            TRY(expect_char(p, '=', "after the iteration argument"));
            TRY(operand(p));
            TRY(ps_push(p, &p->argnames, &rn));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the while operands"));
    }
    int n = (int)(p->argnames.n - nb);
    struct arg_list args;
    TRY(arg_list_alloc(p, &args, n));
    for (int i = 0; i < n; i++) {
        struct result_name *rn = ps_at(&p->argnames, nb + (size_t)i);
        args.names[i] = rn->name;
        args.pos[i] = rn->pos;
    }
    p->argnames.n = nb;
    struct sig s = {p->tys.n, 0, 0, false, p->cur};
    if (accept_char(p, ':')) TRY(parse_sig(p, &s));
    if (s.functional || s.n_in != n) return graph_perr(p, s.pos, "stablehlo.while lists %d types for %d operands", s.n_in, n);
    for (int i = 0; i < n; i++) {
        args.types[i] = sig_in(p, &s, i);
        TRY(check_operand(p, b, i, args.types[i], s.pos));
    }
    if (graph_accept_kw(p, "attributes")) TRY(graph_parse_attr_dict(p));
    TRY(graph_expect_kw(p, "cond", "before the while condition region"));
    struct region_args ra = region_args_of(&args);
    struct graph_region r;
    TRY(graph_parse_region(p, &r, &ra, false));
    TRY(ps_push(p, &p->regions, &r));
    TRY(graph_expect_kw(p, "do", "before the while body region"));
    TRY(graph_parse_region(p, &r, &ra, false));
    return ps_push(p, &p->regions, &r); /* results: the operand types, already on the stack */
}

static struct graph_op *new_op(struct parser *p, enum graph_op_kind kind, const char *name, const struct graph_loc *loc,
                               struct graph_block *parent)
{
    struct graph_op *op = graph_palloc(p, sizeof *op);
    if (!op) return NULL;
    op->kind = kind;
    op->name = name;
    op->loc = *loc;
    op->parent = parent;
    op->id = p->m->n_ops++;
    return op;
}

/* The region of `applies <op>`: ^bb0(%a: tensor<E>, %b: tensor<E>): %r = op %a, %b; return %r */
static enum base_status applies_region(struct parser *p, struct op_build *b, const char *opname, size_t oplen,
                                       const char *oppos, const struct graph_type *et, struct graph_region *r)
{
    enum graph_op_kind k = graph_lookup_op_kind(p, opname, oplen);
    /* upstream's parser: a commutative StableHLO binary op without regions */
    bool commutative = k == GRAPH_OP_ADD || k == GRAPH_OP_MULTIPLY || k == GRAPH_OP_MAXIMUM || k == GRAPH_OP_MINIMUM ||
                       k == GRAPH_OP_AND || k == GRAPH_OP_OR || k == GRAPH_OP_XOR;
    if (!commutative)
        return graph_perr(p, oppos,
                          "'applies' needs a commutative binary op of the stablehlo dialect (add, multiply, maximum, "
                          "minimum, and, or, xor), found '%.*s'",
                          (int)oplen, opname);
    memset(r, 0, sizeof *r);
    struct graph_block *blk = graph_palloc(p, sizeof *blk);
    struct graph_value *args = graph_palloc(p, 2 * sizeof *args);
    struct graph_op **ops = graph_palloc(p, 2 * sizeof *ops);
    if (!blk || !args || !ops) return nomem(p);
    blk->n_args = 2;
    blk->args = args;
    for (int i = 0; i < 2; i++) {
        args[i].type = et;
        args[i].block = blk;
        args[i].index = i;
        args[i].id = graph_new_value_id(p);
    }
    struct graph_op *op = new_op(p, k, graph_op_kind_name(k), &b->loc, blk);
    struct graph_op *ret = new_op(p, GRAPH_OP_RETURN, graph_op_kind_name(GRAPH_OP_RETURN), &b->loc, blk);
    if (!op || !ret) return nomem(p);
    op->n_operands = 2;
    op->operands = graph_palloc(p, 2 * sizeof *op->operands);
    op->n_results = 1;
    op->results = graph_palloc(p, sizeof *op->results);
    ret->n_operands = 1;
    ret->operands = graph_palloc(p, sizeof *ret->operands);
    if (!op->operands || !op->results || !ret->operands) return nomem(p);
    op->operands[0] = &args[0];
    op->operands[1] = &args[1];
    op->results[0].type = et;
    op->results[0].def = op;
    op->results[0].id = graph_new_value_id(p);
    ret->operands[0] = &op->results[0];
    ops[0] = op;
    ops[1] = ret;
    blk->ops = ops;
    blk->n_ops = 2;
    r->n_blocks = 1;
    r->blocks = blk;
    return BASE_OK;
}

static enum base_status form_reduce(struct parser *p, struct op_build *b)
{
    size_t base = p->vals.n;
    do {
        TRY(expect_char(p, '(', "to open a reduce (input init: value) pair"));
        TRY(operand(p));
        TRY(graph_expect_kw(p, "init", "in a reduce pair"));
        TRY(expect_char(p, ':', "after 'init'"));
        TRY(operand(p));
        TRY(expect_char(p, ')', "to close a reduce pair"));
    } while (accept_char(p, ','));
    int n = (int)(p->vals.n - base) / 2;
    /* (in0, init0, in1, init1, ...) -> (in0, in1, ..., init0, init1, ...) */
    struct graph_value **v = ps_at(&p->vals, base);
    struct graph_value **tmp = graph_palloc(p, (size_t)(2 * n) * sizeof *tmp);
    if (!tmp) return nomem(p);
    for (int i = 0; i < n; i++) {
        tmp[i] = v[2 * i];
        tmp[n + i] = v[2 * i + 1];
    }
    memcpy(v, tmp, (size_t)(2 * n) * sizeof *tmp);
    const char *opname = NULL, *oppos = NULL;
    size_t oplen = 0;
    if (graph_accept_kw(p, "applies")) {
        skip_ws(p);
        oppos = p->cur;
        TRY(graph_expect_bare_id(p, &opname, &oplen, "(the reduction op)"));
    }
    TRY(graph_expect_kw(p, "across", "in stablehlo.reduce"));
    TRY(keyword_eq(p, "dimensions"));
    TRY(dense_attr(p, "dimensions"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the reduce type"));
    TRY(bind_functional(p, b, &s, -1));
    struct graph_region r;
    if (opname) {
        if (n != 1) return graph_perr(p, oppos, "'applies' is only valid for a single-input reduce");
        const struct graph_type *in = graph_build_operand(p, b, 0)->type;
        if (in->kind != GRAPH_TYPE_TENSOR) return graph_perr(p, oppos, "reduce input must be a tensor");
        const struct graph_type *et = graph_make_tensor_type(p, in->elem, in->quant, 0, NULL);
        if (!et) return nomem(p);
        TRY(applies_region(p, b, opname, oplen, oppos, et, &r));
    } else {
        TRY(graph_expect_kw(p, "reducer", "before the reducer region"));
        struct arg_list args;
        TRY(arg_list_alloc(p, &args, 2 * n));
        for (int i = 0; i < n; i++) {
            TRY(expect_char(p, '(', "to open a reducer argument pair"));
            for (int k = 0; k < 2; k++) {
                int slot = k == 0 ? i : n + i;
                TRY(def_name(p, &args.names[slot], &args.pos[slot]));
                TRY(expect_char(p, ':', "after the reducer argument"));
                TRY(graph_parse_type(p, &args.types[slot]));
                TRY(graph_parse_opt_loc(p, NULL));
                if (k == 0) TRY(expect_char(p, ',', "between the reducer arguments"));
            }
            TRY(expect_char(p, ')', "to close a reducer argument pair"));
        }
        struct region_args ra = region_args_of(&args);
        TRY(graph_parse_region(p, &r, &ra, false));
    }
    return ps_push(p, &p->regions, &r);
}

static enum base_status form_composite(struct parser *p, struct op_build *b)
{
    const char *s;
    size_t n;
    TRY(graph_parse_string_lit(p, &s, &n));
    const struct graph_attr *a = graph_attr_string(p, s, n);
    if (!a) return nomem(p);
    TRY(graph_push_attr(p, "name", a));
    TRY(operand_list(p));
    TRY(opt_attr_dict(p));
    struct sig sg;
    TRY(expect_sig(p, &sg, "before the composite type"));
    return bind_functional(p, b, &sg, -1);
}

static enum base_status form_top_k(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "after chlo.top_k"));
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the operand"));
    TRY(keyword_eq(p, "k"));
    TRY(int_attr(p, "k", BASE_DT_SI64));
    TRY(expect_char(p, ')', "to close chlo.top_k(...)"));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the top_k type"));
    return bind_functional(p, b, &s, 2);
}

static enum base_status form_scan(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "after chlo.scan"));
    if (!accept_char(p, ')')) {
        TRY(operand_list(p));
        TRY(expect_char(p, ')', "to close the scan inputs"));
    }
    int n_in = graph_build_n_operands(p, b);
    TRY(graph_expect_kw(p, "inits", "in chlo.scan"));
    TRY(expect_char(p, '(', "after 'inits'"));
    if (!accept_char(p, ')')) {
        TRY(operand_list(p));
        TRY(expect_char(p, ')', "to close the scan inits"));
    }
    int64_t seg[2] = {n_in, graph_build_n_operands(p, b) - n_in};
    struct graph_attr *ss = (struct graph_attr *)graph_attr_dense_i64(p, seg, 2);
    if (!ss) return nomem(p);
    ss->elem = BASE_DT_SI32;
    TRY(graph_push_attr(p, "operandSegmentSizes", ss));
    TRY(keyword_eq(p, "dimension"));
    TRY(int_attr(p, "dimension", BASE_DT_SI64));
    /* an attribute dictionary may precede the region: `attributes {...}` or `{name = ...` */
    if (graph_accept_kw(p, "attributes")) {
        TRY(graph_parse_attr_dict(p));
    } else if (at_char(p, '{')) {
        const char *q = graph_lex_skip_ws(p->cur + 1, p->end);
        size_t n = graph_lex_bare_id(q, p->end);
        const char *after = graph_lex_skip_ws(q + n, p->end);
        if ((n && after < p->end && (*after == '=' || *after == ',' || *after == '}')) || (q < p->end && *q == '}'))
            TRY(graph_parse_attr_dict(p));
    }
    struct graph_region r;
    TRY(graph_parse_region(p, &r, NULL, false));
    TRY(ps_push(p, &p->regions, &r));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the scan type"));
    return bind_functional(p, b, &s, -1);
}

/* check.expect_*_const %x, dense<...> : T[, tolerance = X] (or the tolerance before ': T') */
static enum base_status form_check_const(struct parser *p, struct op_build *b, bool almost)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the checked value"));
    const struct graph_attr *v;
    if (almost) {
        TRY(graph_parse_elements_attr_tol(p, &v));
    } else {
        TRY(graph_parse_elements_attr(p, &v));
    }
    TRY(graph_push_attr(p, "value", v));
    if (almost && accept_char(p, ',')) {
        TRY(keyword_eq(p, "tolerance"));
        const struct graph_attr *t;
        TRY(graph_parse_float_attr_value(p, BASE_DT_F64, &t));
        TRY(graph_push_attr(p, "tolerance", t));
    }
    TRY(opt_attr_dict(p));
    return check_operand(p, b, 0, v->u.elements.type, b->pos);
}

static enum base_status form_check_binary(struct parser *p, struct op_build *b, enum graph_op_kind k)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "between the checked values"));
    TRY(operand(p));
    if (k == GRAPH_OP_CHECK_EXPECT_ALMOST_EQ && accept_char(p, ',')) {
        TRY(keyword_eq(p, "tolerance"));
        const struct graph_attr *t;
        TRY(graph_parse_float_attr_value(p, BASE_DT_F64, &t));
        TRY(graph_push_attr(p, "tolerance", t));
    }
    if (k == GRAPH_OP_CHECK_EXPECT_CLOSE) {
        TRY(expect_char(p, ',', "before max_ulp_difference"));
        TRY(keyword_eq(p, "max_ulp_difference"));
        TRY(int_attr(p, "max_ulp_difference", BASE_DT_UI64));
        if (accept_char(p, ',')) {
            TRY(keyword_eq(p, "min_ulp_difference"));
            TRY(int_attr(p, "min_ulp_difference", BASE_DT_UI64));
        }
        TRY(expect_char(p, ':', "before the checked types"));
        TRY(opt_attr_dict(p));
        struct sig s;
        TRY(parse_sig(p, &s));
        if (s.functional || s.n_in != 2) return graph_perr(p, s.pos, "check.expect_close takes two types `T, T`");
        TRY(check_operand(p, b, 0, sig_in(p, &s, 0), s.pos));
        TRY(check_operand(p, b, 1, sig_in(p, &s, 1), s.pos));
        p->tys.n = s.base;
        return BASE_OK;
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the checked type"));
    if (s.functional) return bind_functional(p, b, &s, 0);
    if (s.n_in != 1) return graph_perr(p, s.pos, "'%s' takes one type", b->name);
    TRY(check_operand(p, b, 0, sig_in(p, &s, 0), s.pos));
    TRY(check_operand(p, b, 1, sig_in(p, &s, 0), s.pos));
    p->tys.n = s.base;
    return BASE_OK;
}

/* %x, probe_id = "id"[, iter = N] attr-dict : T */
static enum base_status form_probe(struct parser *p, struct op_build *b, bool result)
{
    TRY(operand(p));
    TRY(expect_char(p, ',', "after the value"));
    TRY(keyword_eq(p, "probe_id"));
    const char *s;
    size_t n;
    TRY(graph_parse_string_lit(p, &s, &n));
    const struct graph_attr *a = graph_attr_string(p, s, n);
    if (!a) return nomem(p);
    TRY(graph_push_attr(p, "probe_id", a));
    if (accept_char(p, ',')) {
        TRY(keyword_eq(p, "iter"));
        TRY(int_attr(p, "iter", BASE_DT_UI32));
    }
    TRY(opt_attr_dict(p));
    struct sig sg;
    TRY(expect_sig(p, &sg, "before the value's type"));
    if (sg.functional) return bind_functional(p, b, &sg, result ? 1 : 0);
    if (sg.n_in != 1) return graph_perr(p, sg.pos, "'%s' takes one type", b->name);
    TRY(check_operand(p, b, 0, sig_in(p, &sg, 0), sg.pos));
    if (!result) p->tys.n = sg.base;
    return BASE_OK;
}

static enum base_status form_print(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the value's type"));
    if (s.functional) return bind_functional(p, b, &s, 0);
    if (s.n_in != 1) return graph_perr(p, s.pos, "interpreter.print takes one type");
    TRY(check_operand(p, b, 0, sig_in(p, &s, 0), s.pos));
    p->tys.n = s.base;
    return BASE_OK;
}

static enum base_status form_return(struct parser *p, struct op_build *b)
{
    TRY(operand_list(p));
    TRY(opt_attr_dict(p));
    int n = graph_build_n_operands(p, b);
    if (!accept_char(p, ':')) {
        if (n) return graph_perr(p, p->cur, "expected ':' and the types of the returned values");
        return BASE_OK;
    }
    struct sig s;
    TRY(parse_sig(p, &s));
    if (s.functional) return bind_functional(p, b, &s, 0);
    if (s.n_in != n) return graph_perr(p, s.pos, "'%s' returns %d value%s but lists %d type%s", b->name, n,
                                 n == 1 ? "" : "s", s.n_in, s.n_in == 1 ? "" : "s");
    for (int i = 0; i < n; i++) TRY(check_operand(p, b, i, sig_in(p, &s, i), s.pos));
    p->tys.n = s.base;
    return BASE_OK;
}

static const struct graph_attr *make_array(struct parser *p, const struct graph_attr *const *items, int n)
{
    struct graph_attr *a = graph_new_attr(p, GRAPH_ATTR_ARRAY);
    const struct graph_attr **it = graph_palloc(p, (size_t)(n ? n : 1) * sizeof *it);
    if (!a || !it) return NULL;
    for (int i = 0; i < n; i++) it[i] = items[i];
    a->u.array.n = n;
    a->u.array.items = it;
    return a;
}

static const struct graph_attr *empty_dict(struct parser *p)
{
    return graph_new_attr(p, GRAPH_ATTR_DICT);
}

/* func.func [visibility] @name(args) [-> results] [attributes {...}] [{body}] */
static enum base_status form_func(struct parser *p, struct op_build *b)
{
    (void)b;
    size_t n;
    skip_ws(p);
    const char *vis = NULL;
    size_t vis_len = 0;
    if (graph_peek_kw(p, "private") || graph_peek_kw(p, "public") || graph_peek_kw(p, "nested")) vis = graph_take_bare_id(p, &vis_len);
    TRY(expect_char(p, '@', "before the function name"));
    const char *name;
    TRY(graph_parse_symbol_name(p, &name, &n));
    const struct graph_attr *a = graph_attr_string(p, name, n);
    if (!a) return nomem(p);
    TRY(graph_push_attr(p, "sym_name", a));
    if (vis) {
        a = graph_attr_string(p, graph_pstrndup(p, vis, vis_len), vis_len);
        if (!a || !a->u.str.s) return nomem(p);
        TRY(graph_push_attr(p, "sym_visibility", a));
    }
    /* arguments */
    TRY(expect_char(p, '(', "to open the function arguments"));
    size_t nb = p->argnames.n, tb = p->tys.n, ab = p->attrs.n;
    bool named = false, any_arg_attr = false;
    if (!accept_char(p, ')')) {
        do {
            struct result_name rn = {NULL, NULL, 1, NULL};
            if (at_char(p, '%')) {
                named = true;
                TRY(def_name(p, &rn.name, &rn.pos));
                TRY(expect_char(p, ':', "after the argument name"));
            } else if (named) {
                return graph_perr(p, p->cur, "expected a named argument (%%name: type)");
            }
            const struct graph_type *t;
            TRY(graph_parse_type(p, &t));
            const struct graph_attr *d;
            if (at_char(p, '{')) {
                TRY(graph_parse_attr_dict_value(p, &d));
                any_arg_attr = true;
            } else {
                d = empty_dict(p);
                if (!d) return nomem(p);
            }
            TRY(graph_parse_arg_loc(p, &rn.loc));
            TRY(ps_push(p, &p->argnames, &rn));
            TRY(ps_push(p, &p->tys, &t));
            TRY(ps_push(p, &p->attrs, &d));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the function arguments"));
    }
    int n_args = (int)(p->argnames.n - nb);
    /* results */
    size_t rb = p->tys.n, rab = p->attrs.n;
    bool any_res_attr = false;
    if (graph_accept_str(p, "->")) {
        bool paren = accept_char(p, '(');
        if (!paren || !accept_char(p, ')')) {
            do {
                const struct graph_type *t;
                TRY(graph_parse_type(p, &t));
                const struct graph_attr *d;
                if (paren && at_char(p, '{')) {
                    TRY(graph_parse_attr_dict_value(p, &d));
                    any_res_attr = true;
                } else {
                    d = empty_dict(p);
                    if (!d) return nomem(p);
                }
                TRY(ps_push(p, &p->tys, &t));
                TRY(ps_push(p, &p->attrs, &d));
            } while (paren && accept_char(p, ','));
            if (paren) TRY(expect_char(p, ')', "to close the function results"));
        }
    }
    int n_res = (int)(p->tys.n - rb);
    /* function_type */
    const struct graph_attr **titems = graph_palloc(p, (size_t)(n_args + n_res + 1) * sizeof *titems);
    if (!titems) return nomem(p);
    for (int i = 0; i < n_args + n_res; i++) {
        struct graph_attr *ta = graph_new_attr(p, GRAPH_ATTR_TYPE);
        if (!ta) return nomem(p);
        ta->u.type = *(const struct graph_type **)ps_at(&p->tys, tb + (size_t)i);
        titems[i] = ta;
    }
    struct graph_attr *ft = graph_new_attr(p, GRAPH_ATTR_DICT);
    struct graph_named_attr *ff = graph_palloc(p, 2 * sizeof *ff);
    if (!ft || !ff) return nomem(p);
    ff[0].name = "inputs";
    ff[0].value = make_array(p, titems, n_args);
    ff[1].name = "results";
    ff[1].value = make_array(p, titems + n_args, n_res);
    if (!ff[0].value || !ff[1].value) return nomem(p);
    ft->tag = GRAPH_TAG_FUNCTION_TYPE;
    ft->u.dict.n = 2;
    ft->u.dict.items = ff;
    TRY(graph_push_attr(p, "function_type", ft));
    if (any_arg_attr) {
        a = make_array(p, ps_at(&p->attrs, ab), n_args);
        if (!a) return nomem(p);
        TRY(graph_push_attr(p, "arg_attrs", a));
    }
    if (any_res_attr) {
        a = make_array(p, ps_at(&p->attrs, rab), n_res);
        if (!a) return nomem(p);
        TRY(graph_push_attr(p, "res_attrs", a));
    }
    p->attrs.n = ab;
    struct arg_list args;
    TRY(arg_list_alloc(p, &args, n_args));
    for (int i = 0; i < n_args; i++) {
        struct result_name *rn = ps_at(&p->argnames, nb + (size_t)i);
        args.names[i] = rn->name;
        args.pos[i] = rn->pos;
        args.types[i] = *(const struct graph_type **)ps_at(&p->tys, tb + (size_t)i);
        args.locs[i] = rn->loc;
    }
    p->argnames.n = nb;
    p->tys.n = tb;
    if (graph_accept_kw(p, "attributes")) TRY(graph_parse_attr_dict(p));
    struct graph_region r;
    memset(&r, 0, sizeof r);
    /* a body, unless the '{' opens the {-# resources #-} trailer */
    if (at_char(p, '{') && !(p->cur + 1 < p->end && p->cur[1] == '-')) {
        if (!named && n_args) return graph_perr(p, p->cur, "a function with a body needs named arguments (%%name: type)");
        struct region_args ra = region_args_of(&args);
        TRY(graph_parse_region(p, &r, &ra, true));
    }
    return ps_push(p, &p->regions, &r);
}

static enum base_status form_module(struct parser *p, struct op_build *b)
{
    (void)b;
    if (accept_char(p, '@')) {
        const char *name;
        size_t n;
        TRY(graph_parse_symbol_name(p, &name, &n));
        const struct graph_attr *a = graph_attr_string(p, name, n);
        if (!a) return nomem(p);
        TRY(graph_push_attr(p, "sym_name", a));
    }
    if (graph_accept_kw(p, "attributes")) TRY(graph_parse_attr_dict(p));
    struct graph_region r;
    TRY(graph_parse_region(p, &r, NULL, true));
    return ps_push(p, &p->regions, &r);
}

static enum base_status form_sdy_mesh(struct parser *p, struct op_build *b)
{
    (void)b;
    TRY(expect_char(p, '@', "before the mesh name"));
    const char *name;
    size_t n;
    TRY(graph_parse_symbol_name(p, &name, &n));
    const struct graph_attr *a = graph_attr_string(p, name, n);
    if (!a) return nomem(p);
    TRY(graph_push_attr(p, "sym_name", a));
    TRY(expect_char(p, '=', "after the mesh name"));
    const struct graph_attr *mesh;
    if (accept_char(p, '<')) {
        TRY(graph_parse_sdy_mesh_body(p, &mesh));
    } else {
        skip_ws(p);
        const char *pos = p->cur;
        TRY(graph_parse_attr(p, &mesh));
        if (mesh->kind != GRAPH_ATTR_DICT || !mesh->tag || strcmp(mesh->tag, GRAPH_TAG_SDY_MESH) != 0)
            return graph_perr(p, pos, "expected a mesh <[\"axis\"=size, ...]>");
    }
    TRY(graph_push_attr(p, "mesh", mesh));
    return opt_attr_dict(p);
}

/* [<@mesh, [...]>, ...] -> ARRAY of sharding */
static enum base_status sharding_list(struct parser *p, const char *attr)
{
    TRY(expect_char(p, '[', "to open the shardings"));
    size_t base = p->attrs.n;
    if (!accept_char(p, ']')) {
        do {
            const struct graph_attr *s;
            if (at_char(p, '#')) {
                TRY(graph_parse_attr(p, &s));
            } else {
                TRY(expect_char(p, '<', "to open a sharding"));
                TRY(graph_parse_sdy_sharding_body(p, &s));
            }
            TRY(ps_push(p, &p->attrs, &s));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ']', "to close the shardings"));
    }
    const struct graph_attr *arr = make_array(p, ps_at(&p->attrs, base), (int)(p->attrs.n - base));
    p->attrs.n = base;
    if (!arr) return nomem(p);
    return graph_push_attr(p, attr, arr);
}

static enum base_status form_manual_computation(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "to open the manual computation operands"));
    if (!accept_char(p, ')')) {
        TRY(operand_list(p));
        TRY(expect_char(p, ')', "to close the manual computation operands"));
    }
    TRY(keyword_eq(p, "in_shardings"));
    TRY(sharding_list(p, "in_shardings"));
    TRY(keyword_eq(p, "out_shardings"));
    TRY(sharding_list(p, "out_shardings"));
    TRY(keyword_eq(p, "manual_axes"));
    const struct graph_attr *axes;
    TRY(graph_parse_sdy_axis_set(p, &axes));
    TRY(graph_push_attr(p, "manual_axes", axes));
    TRY(expect_char(p, '(', "to open the body arguments"));
    size_t nb = p->argnames.n, tb = p->tys.n;
    if (!accept_char(p, ')')) {
        do {
            struct result_name rn = {NULL, NULL, 1, NULL};
            TRY(def_name(p, &rn.name, &rn.pos));
            TRY(expect_char(p, ':', "after the body argument"));
            const struct graph_type *t;
            TRY(graph_parse_type(p, &t));
            TRY(graph_parse_opt_loc(p, NULL));
            TRY(ps_push(p, &p->argnames, &rn));
            TRY(ps_push(p, &p->tys, &t));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the body arguments"));
    }
    struct arg_list args;
    int n = (int)(p->argnames.n - nb);
    TRY(arg_list_alloc(p, &args, n));
    for (int i = 0; i < n; i++) {
        struct result_name *rn = ps_at(&p->argnames, nb + (size_t)i);
        args.names[i] = rn->name;
        args.pos[i] = rn->pos;
        args.types[i] = *(const struct graph_type **)ps_at(&p->tys, tb + (size_t)i);
    }
    p->argnames.n = nb;
    p->tys.n = tb;
    struct region_args ra = region_args_of(&args);
    struct graph_region r;
    TRY(graph_parse_region(p, &r, &ra, false));
    TRY(ps_push(p, &p->regions, &r));
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the manual computation type"));
    return bind_functional(p, b, &s, -1);
}

/* sdy.sharding_constraint %x <@mesh, [...]> attr-dict : T (sdy.reshard alike);
 * sdy.propagation_barrier %x allowed_direction=D attr-dict : T */
static const char *const prop_dirs[] = {"NONE", "FORWARD", "BACKWARD", "BOTH", NULL};
static enum base_status form_sdy_annotation(struct parser *p, struct op_build *b)
{
    TRY(operand(p));
    if (b->kind == GRAPH_OP_SDY_PROPAGATION_BARRIER) {
        TRY(keyword_eq(p, "allowed_direction"));
        TRY(enum_attr(p, "allowed_direction", "sdy.propagation_direction", prop_dirs));
    } else {
        const struct graph_attr *sh;
        if (at_char(p, '#')) {
            TRY(graph_parse_attr(p, &sh));
        } else {
            TRY(expect_char(p, '<', "to open the sharding"));
            TRY(graph_parse_sdy_sharding_body(p, &sh));
        }
        TRY(graph_push_attr(p, "sharding", sh));
    }
    TRY(opt_attr_dict(p));
    struct sig s;
    TRY(expect_sig(p, &s, "before the op's type"));
    return bind_same(p, b, &s, 1);
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                  */

enum base_status graph_parse_custom_op(struct parser *p, struct op_build *b)
{
    switch (b->kind) {
    case GRAPH_OP_UNKNOWN:
        return graph_perr(p, b->pos,
                    "unknown op '%s' in custom syntax: only registered ops have a custom form; write it in generic "
                    "form \"%s\"(...) : (...) -> (...)",
                    b->name, b->name);
    case GRAPH_OP_MODULE: return form_module(p, b);
    case GRAPH_OP_FUNC: return form_func(p, b);
    case GRAPH_OP_CALL: return form_call(p, b);
    case GRAPH_OP_FUNC_RETURN:
    case GRAPH_OP_RETURN:
    case GRAPH_OP_SDY_RETURN: return form_return(p, b);
    case GRAPH_OP_SDY_MESH: return form_sdy_mesh(p, b);
    case GRAPH_OP_SDY_MANUAL_COMPUTATION: return form_manual_computation(p, b);
    case GRAPH_OP_SDY_SHARDING_CONSTRAINT:
    case GRAPH_OP_SDY_RESHARD:
    case GRAPH_OP_SDY_PROPAGATION_BARRIER: return form_sdy_annotation(p, b);
    case GRAPH_OP_MHLO_COPY: return form_operands(p, b, 1, 1, true);
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_ARITH_CONSTANT:
    case GRAPH_OP_CHLO_CONSTANT: return form_constant(p, b);
    case GRAPH_OP_TENSOR_CAST: return form_tensor_cast(p, b);
    case GRAPH_OP_CHLO_ASIN_ACOS_KERNEL: return form_operands(p, b, 1, 1, true);
    case GRAPH_OP_CHLO_BROADCAST_SELECT: return form_operands(p, b, 3, 1, false);
    case GRAPH_OP_IOTA: return form_dim_attr(p, b, 0, "iota_dimension");
    case GRAPH_OP_DYNAMIC_IOTA: return form_dim_attr(p, b, 1, "iota_dimension");
    case GRAPH_OP_GET_DIMENSION_SIZE: return form_dim_attr(p, b, 1, "dimension");
    case GRAPH_OP_SET_DIMENSION_SIZE: return form_dim_attr(p, b, 2, "dimension");
    case GRAPH_OP_COMPARE: return form_compare(p, b);
    case GRAPH_OP_SELECT: return form_select(p, b);
    case GRAPH_OP_COMPLEX: return form_complex(p, b);
    case GRAPH_OP_CLAMP: return form_operands(p, b, 3, 1, true);
    case GRAPH_OP_REDUCE_PRECISION: return form_reduce_precision(p, b);
    case GRAPH_OP_BROADCAST_IN_DIM: return form_dims(p, b, 1, "dims", "broadcast_dimensions", false);
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM: return form_dims(p, b, 2, "dims", "broadcast_dimensions", false);
    case GRAPH_OP_BROADCAST: return form_dims(p, b, 1, "sizes", "broadcast_sizes", false);
    case GRAPH_OP_TRANSPOSE: return form_dims(p, b, 1, "dims", "permutation", false);
    case GRAPH_OP_REVERSE: return form_dims(p, b, 1, "dims", "dimensions", true);
    case GRAPH_OP_CONCATENATE: {
        TRY(operands_with_commas(p));
        TRY(keyword_eq(p, "dim"));
        TRY(int_attr(p, "dimension", BASE_DT_SI64));
        TRY(opt_attr_dict(p));
        struct sig s;
        TRY(expect_sig(p, &s, "before the concatenate type"));
        return bind_functional(p, b, &s, 1);
    }
    case GRAPH_OP_SLICE: return form_slice(p, b);
    case GRAPH_OP_DYNAMIC_SLICE: return form_dynamic_slice(p, b);
    case GRAPH_OP_PAD: return form_pad(p, b);
    case GRAPH_OP_GET_TUPLE_ELEMENT: return form_get_tuple_element(p, b);
    case GRAPH_OP_TUPLE: return form_tuple(p, b);
    case GRAPH_OP_AFTER_ALL: return form_after_all(p, b);
    case GRAPH_OP_CREATE_TOKEN:
    case GRAPH_OP_REPLICA_ID:
    case GRAPH_OP_PARTITION_ID: return form_type_only(p, b);
    case GRAPH_OP_OPTIMIZATION_BARRIER: return form_optimization_barrier(p, b);
    case GRAPH_OP_CUSTOM_CALL: return form_custom_call(p, b);
    case GRAPH_OP_DOT: return form_dot_general(p, b, false);
    case GRAPH_OP_DOT_GENERAL: return form_dot_general(p, b, true);
    case GRAPH_OP_EINSUM: return form_einsum(p, b);
    case GRAPH_OP_FFT: return form_fft(p, b);
    case GRAPH_OP_CONVOLUTION: return form_convolution(p, b);
    case GRAPH_OP_RNG:
        return form_keyword_op(p, b, 3, "distribution", "rng_distribution", "stablehlo.rng_distribution", rng_dists, 1);
    case GRAPH_OP_RNG_BIT_GENERATOR:
        return form_keyword_op(p, b, 1, "algorithm", "rng_algorithm", "stablehlo.rng_algorithm", rng_algos, 2);
    case GRAPH_OP_CHOLESKY: return form_cholesky(p, b);
    case GRAPH_OP_WHILE: return form_while(p, b);
    case GRAPH_OP_REDUCE: return form_reduce(p, b);
    case GRAPH_OP_COMPOSITE: return form_composite(p, b);
    case GRAPH_OP_CHLO_TOP_K: return form_top_k(p, b);
    case GRAPH_OP_CHLO_SCAN: return form_scan(p, b);
    case GRAPH_OP_CHECK_EXPECT_EQ_CONST: return form_check_const(p, b, false);
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ_CONST: return form_check_const(p, b, true);
    case GRAPH_OP_CHECK_EXPECT_EQ:
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ:
    case GRAPH_OP_CHECK_EXPECT_CLOSE: return form_check_binary(p, b, b->kind);
    case GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ: return form_probe(p, b, false);
    case GRAPH_OP_INTERP_PROBE: return form_probe(p, b, true);
    case GRAPH_OP_INTERP_PRINT: return form_print(p, b);
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_DYNAMIC_RESHAPE:
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE:
    case GRAPH_OP_REAL_DYNAMIC_SLICE:
    case GRAPH_OP_DYNAMIC_PAD:
    case GRAPH_OP_BITCAST_CONVERT: return form_operands(p, b, -1, 1, true);
    case GRAPH_OP_UNIFORM_QUANTIZE:
    case GRAPH_OP_UNIFORM_DEQUANTIZE: return form_operands(p, b, 1, 1, true);
    default:
        break;
    }
    /* chlo.broadcast_*: $lhs, $rhs attr-dict : (T, T) -> R */
    if (b->kind >= GRAPH_OP_CHLO_BROADCAST_ADD && b->kind <= GRAPH_OP_CHLO_BROADCAST_COMPARE)
        return form_operands(p, b, 2, 1, false);
    switch (graph_op_kind_cat(b->kind)) {
    case GRAPH_CAT_UNARY: return form_operands(p, b, 1, 1, true);
    case GRAPH_CAT_BINARY: return form_operands(p, b, 2, 1, true);
    case GRAPH_CAT_TERNARY: return form_operands(p, b, 3, 1, true);
    default:
        return graph_perr(p, b->pos, "'%s' has no custom assembly form; write it in generic form \"%s\"(...) : (...) -> (...)",
                    b->name, b->name);
    }
}
