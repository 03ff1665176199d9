/* The assembler: text (docs/isa.md) to programs.  Line-oriented recursive
 * descent; every error is located (file:line:col), names the instruction and
 * the rule, and the input is never trusted (NULs, huge numbers, long lines). */
#include "isa/isa_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
    const char *path;
    const char *line; /* start of the current line */
    const char *eol;  /* end of the line, newline excluded */
    const char *p;    /* cursor */
    const char *end;  /* end of the code: the line's end or its '#' */
    uint32_t lineno;
    const char *what; /* instruction being assembled, for messages (NULL or what_buf) */
    char what_buf[64];
    struct base_diag *diag;
};

static enum base_status err_at(struct lexer *lx, const char *at, enum base_status st, const char *fmt, ...)
    BASE_PRINTF(4, 5);
static enum base_status err_at(struct lexer *lx, const char *at, enum base_status st, const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (lx->diag && lx->diag->status == BASE_OK) {
        int col = (int)(at - lx->line) + 1;
        if (lx->what) base_diag_set(lx->diag, st, lx->path, (int)lx->lineno, col, "in '%s': %s", lx->what, msg);
        else base_diag_set(lx->diag, st, lx->path, (int)lx->lineno, col, "%s", msg);
        base_diag_set_snippet(lx->diag, lx->line, (size_t)(lx->eol - lx->line));
    }
    return st;
}

#define SYNTAX(lx, at, ...) err_at((lx), (at), BASE_ERR_PARSE, __VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Tokens                                                                    */

static void skip_ws(struct lexer *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r')) lx->p++;
}

static bool at_end(struct lexer *lx)
{
    skip_ws(lx);
    return lx->p >= lx->end;
}

static char peek(struct lexer *lx)
{
    skip_ws(lx);
    return lx->p < lx->end ? *lx->p : 0;
}

static bool is_ident_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* A description of what is at the cursor, for "expected X, found Y". */
static const char *found(struct lexer *lx, char *buf, size_t cap)
{
    skip_ws(lx);
    if (lx->p >= lx->end) return "the end of the line";
    unsigned char c = (unsigned char)*lx->p;
    if (c < 0x20 || c >= 0x7f) snprintf(buf, cap, "byte 0x%02x", c);
    else if (is_ident_char((char)c, false)) {
        size_t n = 0;
        while (lx->p + n < lx->end && n < 24 && is_ident_char(lx->p[n], false)) n++;
        snprintf(buf, cap, "'%.*s'", (int)n, lx->p);
    } else snprintf(buf, cap, "'%c'", c);
    return buf;
}

static enum base_status expect(struct lexer *lx, char c, const char *what)
{
    if (peek(lx) == c) {
        lx->p++;
        return BASE_OK;
    }
    char buf[48];
    return SYNTAX(lx, lx->p, "expected '%c' %s, found %s", c, what, found(lx, buf, sizeof buf));
}

static bool accept(struct lexer *lx, char c)
{
    if (peek(lx) != c) return false;
    lx->p++;
    return true;
}

/* An identifier at the cursor (possibly empty). */
static size_t ident(struct lexer *lx, const char **s)
{
    skip_ws(lx);
    *s = lx->p;
    size_t n = 0;
    if (lx->p < lx->end && is_ident_char(*lx->p, true))
        while (lx->p + n < lx->end && is_ident_char(lx->p[n], false)) n++;
    lx->p += n;
    return n;
}

static bool word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && memcmp(s, w, n) == 0; }

/* Integer: [+-] (decimal | 0x hex), within [lo, hi]. */
static enum base_status parse_int(struct lexer *lx, int64_t lo, uint64_t hi, const char *what, int64_t *sval,
                                  uint64_t *uval)
{
    skip_ws(lx);
    const char *start = lx->p;
    bool neg = false;
    if (lx->p < lx->end && (*lx->p == '+' || *lx->p == '-')) neg = *lx->p++ == '-';
    unsigned base = 10;
    if (lx->end - lx->p >= 2 && lx->p[0] == '0' && (lx->p[1] == 'x' || lx->p[1] == 'X')) {
        base = 16;
        lx->p += 2;
    }
    uint64_t v = 0;
    int digits = 0;
    bool overflow = false;
    for (; lx->p < lx->end; lx->p++) {
        char c = *lx->p;
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else break;
        if (v > (UINT64_MAX - d) / base) overflow = true;
        v = v * base + d;
        digits++;
    }
    if (digits == 0 || (lx->p < lx->end && (is_ident_char(*lx->p, false) || *lx->p == '.'))) {
        lx->p = start;
        char buf[48];
        return SYNTAX(lx, start, "expected an integer %s, found %s", what, found(lx, buf, sizeof buf));
    }
    bool ok = !overflow;
    if (ok && neg) ok = v <= (uint64_t)INT64_MAX + 1 && (v == 0 || -(int64_t)(v - 1) - 1 >= lo);
    else if (ok) ok = v <= hi;
    if (!ok)
        return SYNTAX(lx, start, "%s %.*s is out of range [%lld, %llu]", what, (int)(lx->p - start), start,
                      (long long)lo, (unsigned long long)hi);
    if (sval) *sval = neg ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
    if (uval) *uval = v;
    return BASE_OK;
}

static enum base_status parse_i64(struct lexer *lx, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    return parse_int(lx, lo, (uint64_t)hi, what, out, NULL);
}

static enum base_status parse_u64(struct lexer *lx, uint64_t hi, const char *what, uint64_t *out)
{
    return parse_int(lx, 0, hi, what, NULL, out);
}

/* An immediate: decimal or hex float, inf, nan (the canonical quiet NaN). */
static enum base_status parse_double(struct lexer *lx, const char *what, double *out)
{
    skip_ws(lx);
    const char *s = lx->p;
    size_t n = 0;
    while (s + n < lx->end && (is_ident_char(s[n], false) || s[n] == '.' || s[n] == '+' || s[n] == '-')) n++;
    char tmp[80];
    if (n == 0 || n >= sizeof tmp) {
        char buf[48];
        return SYNTAX(lx, s, "expected a number %s, found %s", what, n ? "a token too long" : found(lx, buf, sizeof buf));
    }
    memcpy(tmp, s, n);
    tmp[n] = 0;
    const char *body = tmp + (tmp[0] == '+' || tmp[0] == '-');
    if (strcmp(body, "nan") == 0) {
        uint64_t bits = UINT64_C(0x7ff8000000000000) | (tmp[0] == '-' ? UINT64_C(1) << 63 : 0);
        memcpy(out, &bits, sizeof bits);
    } else {
        char *e;
        *out = strtod(tmp, &e);
        if (*e || e == tmp || isnan(*out))
            return SYNTAX(lx, s, "expected a number %s, found '%s'", what, tmp);
    }
    lx->p += n;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Operands                                                                  */

static enum base_status parse_steps(struct lexer *lx, int64_t *steps, int64_t lim, const char *what)
{
    TRY(expect(lx, '=', "after step"));
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) {
        TRY(parse_i64(lx, -lim, lim, what, &steps[d]));
        if (!accept(lx, ',')) return BASE_OK;
    }
    return SYNTAX(lx, lx->p, "at most %d loop steps (one per enclosing loop, innermost first)", ISA_MAX_LOOP_DEPTH);
}

/* space[start:end, addr [+pS] {, [stride,count]} x dtype [step=a[,b]]] */
static enum base_status parse_ap(struct lexer *lx, struct isa_ap *ap)
{
    memset(ap, 0, sizeof *ap);
    const char *s, *at = (skip_ws(lx), lx->p);
    size_t n = ident(lx, &s);
    enum isa_space sp;
    if (n == 0 || !isa_space_lookup(s, n, &sp) || sp == ISA_SPACE_NONE) {
        lx->p = at;
        char buf[48];
        return SYNTAX(lx, at, "expected an operand hbm[...], sp[...] or acc[...], found %s", found(lx, buf, sizeof buf));
    }
    ap->space = (uint8_t)sp;
    TRY(expect(lx, '[', "after the memory space"));
    int64_t p0, p1;
    const char *prange = (skip_ws(lx), lx->p);
    TRY(parse_i64(lx, 0, UINT16_MAX, "partition start", &p0));
    TRY(expect(lx, ':', "in the partition range start:end"));
    TRY(parse_i64(lx, 0, INT64_C(2) * UINT16_MAX, "partition end", &p1));
    if (p1 <= p0 || p1 - p0 > UINT16_MAX)
        return SYNTAX(lx, prange, "partition range %lld:%lld is empty or too large (start:end, end exclusive)",
                      (long long)p0, (long long)p1);
    ap->part_start = (uint16_t)p0;
    ap->part_count = (uint16_t)(p1 - p0);
    TRY(expect(lx, ',', "after the partition range"));
    TRY(parse_u64(lx, UINT64_MAX, "address", &ap->addr));
    if (accept(lx, '+')) {
        if (peek(lx) != 'p') return SYNTAX(lx, lx->p, "expected +pSTRIDE (partition stride in bytes)");
        lx->p++;
        TRY(parse_i64(lx, INT64_MIN, INT64_MAX, "partition stride", &ap->part_stride_bytes));
    }
    while (accept(lx, ',')) {
        const char *dim = (skip_ws(lx), lx->p);
        if (ap->ndims == ISA_MAX_DIMS) return SYNTAX(lx, dim, "more than %d free dims", ISA_MAX_DIMS);
        TRY(expect(lx, '[', "opening a [stride,count] dim"));
        TRY(parse_i64(lx, INT64_MIN, INT64_MAX, "stride", &ap->stride[ap->ndims]));
        TRY(expect(lx, ',', "between stride and count"));
        uint64_t cnt;
        TRY(parse_u64(lx, UINT32_MAX, "count", &cnt));
        ap->count[ap->ndims++] = (uint32_t)cnt;
        TRY(expect(lx, ']', "closing a [stride,count] dim"));
    }
    const char *xat = (skip_ws(lx), lx->p);
    if (ident(lx, &s) != 1 || *s != 'x') {
        lx->p = xat;
        char buf[48];
        return SYNTAX(lx, xat, "expected ', [stride,count]' or 'x TYPE', found %s", found(lx, buf, sizeof buf));
    }
    const char *tat = (skip_ws(lx), lx->p);
    n = ident(lx, &s);
    enum base_dtype dt;
    if (n == 0 || !base_dtype_parse(s, n, &dt))
        return SYNTAX(lx, tat, "expected an element type (bf16, f32, i8, f8E4M3FN, ...), found '%.*s'", (int)n, s);
    ap->dtype = (uint8_t)dt;
    const char *kat = (skip_ws(lx), lx->p);
    n = ident(lx, &s);
    if (n) {
        if (!word_is(s, n, "step")) return SYNTAX(lx, kat, "expected 'step=' or ']', found '%.*s'", (int)n, s);
        TRY(parse_steps(lx, ap->loop_step_bytes, INT64_MAX, "loop step (bytes)"));
    }
    return expect(lx, ']', "closing the operand");
}

/* sN followed by `op` ("<=" or "+=") and an int32. */
static enum base_status parse_sem(struct lexer *lx, const char *op, uint16_t *sem, int32_t *value)
{
    const char *s, *at = (skip_ws(lx), lx->p);
    size_t n = ident(lx, &s);
    bool ok = n >= 2 && n <= 6 && s[0] == 's';
    long v = 0;
    for (size_t i = 1; ok && i < n; i++) {
        ok = s[i] >= '0' && s[i] <= '9';
        v = v * 10 + (s[i] - '0');
    }
    if (!ok || v > UINT16_MAX) {
        lx->p = at;
        return SYNTAX(lx, at, "expected a semaphore sN%s, found '%.*s'", op, (int)n, s);
    }
    *sem = (uint16_t)v;
    skip_ws(lx);
    if (lx->end - lx->p < 2 || memcmp(lx->p, op, 2) != 0) return SYNTAX(lx, lx->p, "expected '%s' after s%ld", op, v);
    lx->p += 2;
    int64_t x;
    TRY(parse_i64(lx, INT32_MIN, INT32_MAX, op[0] == '>' ? "wait value" : "signal increment", &x));
    *value = (int32_t)x;
    return BASE_OK;
}

static enum base_status parse_wait(struct lexer *lx, struct isa_instr *in)
{
    TRY(parse_sem(lx, ">=", &in->wait_sem, &in->wait_value));
    in->flags |= ISA_FLAG_WAIT;
    const char *s, *at = (skip_ws(lx), lx->p);
    size_t n = ident(lx, &s);
    if (n && word_is(s, n, "step")) {
        int64_t st[ISA_MAX_LOOP_DEPTH] = {0};
        TRY(parse_steps(lx, st, INT32_MAX, "wait step"));
        for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) in->wait_step[d] = (int32_t)st[d];
    } else {
        lx->p = at;
    }
    return BASE_OK;
}

static enum base_status parse_signal(struct lexer *lx, struct isa_instr *in)
{
    TRY(parse_sem(lx, "+=", &in->signal_sem, &in->signal_inc));
    in->flags |= ISA_FLAG_SIGNAL;
    return BASE_OK;
}

/* An operand that is a number or a per-partition pattern. */
static bool next_is_ap(struct lexer *lx)
{
    skip_ws(lx);
    const char *q = lx->p;
    while (q < lx->end && is_ident_char(*q, false)) q++;
    while (q < lx->end && (*q == ' ' || *q == '\t')) q++;
    return q > lx->p && q < lx->end && *q == '[' && is_ident_char(*lx->p, true);
}

static enum base_status parse_scalar(struct lexer *lx, struct isa_instr *in, unsigned flag, double *imm,
                                     struct isa_ap *ap, const char *what)
{
    if (next_is_ap(lx)) {
        in->flags |= (uint8_t)flag;
        return parse_ap(lx, ap);
    }
    return parse_double(lx, what, imm);
}

/* ------------------------------------------------------------------------ */
/* Instructions                                                              */

struct parsed {
    struct isa_instr in;
    const char *cols[ISA_FIELD_COUNT_]; /* where each field was written */
};

static enum base_status operand(struct lexer *lx, struct parsed *ps, enum isa_field f, struct isa_ap *ap, bool first)
{
    if (!first) TRY(expect(lx, ',', "between operands"));
    skip_ws(lx);
    ps->cols[f] = lx->p;
    return parse_ap(lx, ap);
}

static enum base_status parse_operands(struct lexer *lx, struct parsed *ps, enum isa_fmt fmt, bool two_scalars)
{
    struct isa_instr *in = &ps->in;
    uint64_t u;
    switch (fmt) {
    case ISA_FMT_NONE:
    case ISA_FMT_COUNT: return BASE_OK;
    case ISA_FMT_SEM:
        skip_ws(lx);
        if (in->op == ISA_OP_SEM_WAIT) {
            ps->cols[ISA_FIELD_WAIT] = lx->p;
            return parse_wait(lx, in);
        }
        ps->cols[ISA_FIELD_SIGNAL] = lx->p;
        return parse_signal(lx, in);
    case ISA_FMT_LOOP:
        ps->cols[ISA_FIELD_COUNT] = (skip_ws(lx), lx->p);
        TRY(parse_u64(lx, UINT32_MAX, "iteration count", &u));
        in->count = (uint32_t)u;
        TRY(expect(lx, ',', "between the iteration count and the body length"));
        ps->cols[ISA_FIELD_BODY] = (skip_ws(lx), lx->p);
        TRY(parse_u64(lx, UINT32_MAX, "body length", &u));
        in->body = (uint32_t)u;
        return BASE_OK;
    case ISA_FMT_DMA:
    case ISA_FMT_UNARY:
    case ISA_FMT_COPY:
        TRY(operand(lx, ps, ISA_FIELD_DST, &in->dst, true));
        return operand(lx, ps, ISA_FIELD_SRC0, &in->src0, false);
    case ISA_FMT_MATMUL:
    case ISA_FMT_BINARY:
    case ISA_FMT_SELECT:
        TRY(operand(lx, ps, ISA_FIELD_DST, &in->dst, true));
        TRY(operand(lx, ps, ISA_FIELD_SRC0, &in->src0, false));
        TRY(operand(lx, ps, ISA_FIELD_SRC1, &in->src1, false));
        if (fmt == ISA_FMT_SELECT) TRY(operand(lx, ps, ISA_FIELD_SRC2, &in->src2, false));
        return BASE_OK;
    case ISA_FMT_TENSOR_SCALAR:
    case ISA_FMT_ACTIVATE: {
        bool act = fmt == ISA_FMT_ACTIVATE;
        TRY(operand(lx, ps, ISA_FIELD_DST, &in->dst, true));
        TRY(operand(lx, ps, ISA_FIELD_SRC0, &in->src0, false));
        if (act) {
            if (!accept(lx, ',')) {
                in->imm0 = 1.0; /* defaults: func(src * 1 + 0) */
                return BASE_OK;
            }
        } else {
            TRY(expect(lx, ',', "before scalar0"));
        }
        ps->cols[ISA_FIELD_IMM0] = ps->cols[ISA_FIELD_SRC1] = (skip_ws(lx), lx->p);
        TRY(parse_scalar(lx, in, ISA_FLAG_SCALE_AP, &in->imm0, &in->src1, act ? "(scale)" : "(scalar0)"));
        if (act) {
            if (!accept(lx, ',')) return BASE_OK;
        } else if (two_scalars) {
            TRY(expect(lx, ',', "before scalar1 (a second function takes a second scalar)"));
        } else {
            if (peek(lx) == ',')
                return SYNTAX(lx, lx->p, "one function takes one scalar (name a second function for a second scalar: "
                                          "tensor_scalar.mul.add)");
            return BASE_OK;
        }
        ps->cols[ISA_FIELD_IMM1] = ps->cols[ISA_FIELD_SRC2] = (skip_ws(lx), lx->p);
        return parse_scalar(lx, in, ISA_FLAG_BIAS_AP, &in->imm1, &in->src2, act ? "(bias)" : "(scalar1)");
    }
    case ISA_FMT_IOTA:
    case ISA_FMT_MEMSET:
        TRY(operand(lx, ps, ISA_FIELD_DST, &in->dst, true));
        TRY(expect(lx, ',', "between operands"));
        ps->cols[ISA_FIELD_IMM0] = (skip_ws(lx), lx->p);
        TRY(parse_double(lx, fmt == ISA_FMT_IOTA ? "(base)" : "(value)", &in->imm0));
        if (fmt == ISA_FMT_MEMSET) return BASE_OK;
        TRY(expect(lx, ',', "between operands"));
        ps->cols[ISA_FIELD_IMM1] = (skip_ws(lx), lx->p);
        return parse_double(lx, "(partition multiplier)", &in->imm1);
    case ISA_FMT_REDUCE:
        TRY(operand(lx, ps, ISA_FIELD_DST, &in->dst, true));
        TRY(operand(lx, ps, ISA_FIELD_SRC0, &in->src0, false));
        TRY(expect(lx, ',', "before the number of reduced dims"));
        ps->cols[ISA_FIELD_COUNT] = (skip_ws(lx), lx->p);
        TRY(parse_u64(lx, ISA_MAX_DIMS, "number of reduced dims", &u));
        in->count = (uint32_t)u;
        return BASE_OK;
    }
    return BASE_OK;
}

static enum base_status parse_modifiers(struct lexer *lx, struct parsed *ps)
{
    struct isa_instr *in = &ps->in;
    while (!at_end(lx)) {
        const char *s, *at = lx->p;
        size_t n = ident(lx, &s);
        unsigned flag = 0;
        if (word_is(s, n, "start")) flag = ISA_FLAG_START;
        else if (word_is(s, n, "stop")) flag = ISA_FLAG_STOP;
        else if (word_is(s, n, "acc")) flag = ISA_FLAG_ACCUMULATE;
        if (flag) {
            if (in->flags & flag) return SYNTAX(lx, at, "'%.*s' given twice", (int)n, s);
            in->flags |= (uint8_t)flag;
            if (!ps->cols[ISA_FIELD_FLAGS]) ps->cols[ISA_FIELD_FLAGS] = at;
        } else if (word_is(s, n, "wait")) {
            if (in->flags & ISA_FLAG_WAIT) return SYNTAX(lx, at, "one wait per instruction");
            ps->cols[ISA_FIELD_WAIT] = at;
            TRY(parse_wait(lx, in));
        } else if (word_is(s, n, "signal")) {
            if (in->flags & ISA_FLAG_SIGNAL) return SYNTAX(lx, at, "one signal per instruction");
            ps->cols[ISA_FIELD_SIGNAL] = at;
            TRY(parse_signal(lx, in));
        } else if (word_is(s, n, "tag")) {
            if (in->tag) return SYNTAX(lx, at, "one tag per instruction");
            TRY(expect(lx, '=', "after tag"));
            uint64_t t;
            TRY(parse_u64(lx, UINT32_MAX, "tag", &t));
            in->tag = (uint32_t)t;
        } else {
            lx->p = at;
            char buf[48];
            return SYNTAX(lx, at, "expected start, stop, acc, wait, signal or tag=, found %s",
                          found(lx, buf, sizeof buf));
        }
    }
    return BASE_OK;
}

/* mnemonic[.func[.func2]] operands modifiers */
static enum base_status parse_instr(struct lexer *lx, struct parsed *ps)
{
    memset(ps, 0, sizeof *ps);
    struct isa_instr *in = &ps->in;
    const char *parts[3];
    size_t lens[3];
    int nparts = 0;
    const char *mn = lx->p;
    ps->cols[ISA_FIELD_OP] = mn;
    do {
        if (nparts == 3) return SYNTAX(lx, lx->p, "at most two functions after the instruction name");
        lens[nparts] = ident(lx, &parts[nparts]);
        if (!lens[nparts]) {
            char buf[48];
            return SYNTAX(lx, lx->p, "expected a name, found %s", found(lx, buf, sizeof buf));
        }
        nparts++;
    } while (lx->p < lx->end && *lx->p == '.' && ++lx->p);
    /* kept in the lexer: messages about this line are formatted after we return */
    snprintf(lx->what_buf, sizeof lx->what_buf, "%.*s", (int)(lx->p - mn), mn);
    lx->what = lx->what_buf;
    enum isa_op op;
    if (!isa_op_lookup(parts[0], lens[0], &op)) return SYNTAX(lx, mn, "unknown instruction '%.*s'", (int)lens[0], parts[0]);
    in->op = (uint8_t)op;
    enum isa_fmt fmt = isa_op_fmt(op);
    int nf = nparts - 1;
    switch (fmt) {
    case ISA_FMT_UNARY:
    case ISA_FMT_BINARY:
    case ISA_FMT_REDUCE:
    case ISA_FMT_TENSOR_SCALAR: {
        int maxf = fmt == ISA_FMT_TENSOR_SCALAR ? 2 : 1;
        if (nf < 1 || nf > maxf)
            return SYNTAX(lx, mn, "%s takes %s ALU function%s: %s.add", isa_op_name(op), maxf == 2 ? "one or two" : "one",
                          maxf == 2 ? "s" : "", isa_op_name(op));
        for (int i = 1; i < nparts; i++) {
            enum isa_alu f;
            if (!isa_alu_lookup(parts[i], lens[i], &f))
                return SYNTAX(lx, parts[i], "unknown ALU function '%.*s'", (int)lens[i], parts[i]);
            if (i == 2 && f == ISA_ALU_BYPASS)
                return SYNTAX(lx, parts[i], "bypass is no second function (leave it out)");
            if (i == 1) in->func = (uint8_t)f;
            else in->func2 = (uint8_t)f;
        }
        break;
    }
    case ISA_FMT_ACTIVATE: {
        enum isa_act f;
        if (nf != 1) return SYNTAX(lx, mn, "activate takes one activation function: activate.exp");
        if (!isa_act_lookup(parts[1], lens[1], &f))
            return SYNTAX(lx, parts[1], "unknown activation function '%.*s'", (int)lens[1], parts[1]);
        in->func = (uint8_t)f;
        break;
    }
    case ISA_FMT_MATMUL: {
        enum isa_precision pr;
        if (nf > 1) return SYNTAX(lx, mn, "matmul takes at most a precision: matmul.high");
        if (nf == 1 && !isa_precision_lookup(parts[1], lens[1], &pr))
            return SYNTAX(lx, parts[1], "unknown precision '%.*s' (default, high, highest)", (int)lens[1], parts[1]);
        if (nf == 1) in->func = (uint8_t)pr;
        break;
    }
    default:
        if (nf) return SYNTAX(lx, parts[1], "%s takes no function", isa_op_name(op));
        break;
    }
    if (lx->p < lx->end && !(*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r')) {
        char buf[48];
        return SYNTAX(lx, lx->p, "expected a space after the instruction name, found %s", found(lx, buf, sizeof buf));
    }
    TRY(parse_operands(lx, ps, fmt, nf == 2));
    return parse_modifiers(lx, ps);
}

/* ------------------------------------------------------------------------ */
/* Programs                                                                  */

static enum base_status directive(struct lexer *lx, struct isa_program *out, struct isa_stream **cur, bool *named)
{
    const char *at = lx->p++;
    const char *s;
    size_t n = ident(lx, &s);
    bool engine = word_is(s, n, "engine"), program = word_is(s, n, "program");
    if (!engine && !program) return SYNTAX(lx, at, "unknown directive '.%.*s' (.engine NAME, .program NAME)", (int)n, s);
    const char *nat = (skip_ws(lx), lx->p);
    const char *name = lx->p;
    while (lx->p < lx->end && !(*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r')) lx->p++;
    size_t len = (size_t)(lx->p - name);
    if (!at_end(lx)) return SYNTAX(lx, lx->p, "unexpected text after the directive");
    char buf[64];
    if (engine) {
        if (!isa_engine_name_ok(name, len))
            return SYNTAX(lx, nat, "engine name must be 1-15 characters [A-Za-z_][A-Za-z0-9_]*");
        memcpy(buf, name, len);
        buf[len] = 0;
        *cur = isa_program_stream(out, buf);
        if (!*cur) return SYNTAX(lx, nat, "more than %d engine streams", ISA_MAX_STREAMS);
        return BASE_OK;
    }
    if (*named) return SYNTAX(lx, at, "the program is already named '%s'", out->name);
    if (len == 0 || !isa_program_name_ok(name, len))
        return SYNTAX(lx, nat, "program name must be 1-63 characters [A-Za-z0-9_.-]");
    memcpy(out->name, name, len);
    out->name[len] = 0;
    *named = true;
    return BASE_OK;
}

static enum base_status assemble_line(struct lexer *lx, struct isa_program *out, struct isa_stream **cur, bool *named)
{
    lx->what = NULL;
    if (at_end(lx)) return BASE_OK;
    if (*lx->p == '.') return directive(lx, out, cur, named);
    if (!*cur) return SYNTAX(lx, lx->p, "instruction before the first '.engine NAME'");
    struct parsed ps;
    TRY(parse_instr(lx, &ps));
    ps.in.src_line = lx->lineno;
    char why[256];
    enum isa_field f;
    enum base_status st = isa_instr_check(&ps.in, why, sizeof why, &f);
    if (st != BASE_OK) {
        const char *col = ps.cols[f] ? ps.cols[f] : ps.cols[ISA_FIELD_OP];
        return err_at(lx, col, st, "%s", why);
    }
    st = isa_stream_push(*cur, &ps.in);
    if (st != BASE_OK) return err_at(lx, ps.cols[ISA_FIELD_OP], st, "cannot store the instruction: %s", base_status_str(st));
    return BASE_OK;
}

static enum base_status isa_assemble_impl(const char *text, size_t len, const char *path, struct isa_program *out,
                              struct base_diag *diag)
{
    isa_program_init(out);
    struct lexer lx = {0};
    lx.path = path ? path : "";
    lx.diag = diag;
    struct isa_stream *cur = NULL;
    bool named = false;
    const char *p = text, *end = text + len;
    enum base_status st = BASE_OK;
    while (p < end && st == BASE_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        if (lx.lineno == UINT32_MAX - 1) {
            st = base_diag_set(diag, BASE_ERR_LIMIT, lx.path, 0, 0, "more than 2^32 lines");
            break;
        }
        lx.lineno++;
        lx.line = lx.p = p;
        lx.eol = eol;
        const char *hash = memchr(p, '#', (size_t)(eol - p));
        lx.end = hash ? hash : eol;
        st = assemble_line(&lx, out, &cur, &named);
        p = nl ? nl + 1 : end;
    }
    if (st == BASE_OK) {
        st = isa_program_validate(out, lx.path, diag);
        /* show the offending line, as the per-line errors do */
        if (st != BASE_OK && diag && diag->line > 0 && !diag->snippet[0]) {
            const char *q = text;
            for (int l = 1; l < diag->line && q; l++) {
                q = memchr(q, '\n', (size_t)(end - q));
                if (q) q++;
            }
            if (q) {
                const char *e = memchr(q, '\n', (size_t)(end - q));
                base_diag_set_snippet(diag, q, (size_t)((e ? e : end) - q));
            }
        }
    }
    if (st != BASE_OK) isa_program_deinit(out);
    return st;
}

enum base_status isa_assemble(const char *text, size_t len, const char *path, struct isa_program *out,
                              struct base_diag *diag)
{
    return base_diag_ensure(diag, isa_assemble_impl(text, len, path, out, diag), path, "assembling");
}
