/* StableHLO text parser: core (diagnostics, scopes, regions, generic ops,
 * locations, aliases, the module) and the public entry points.
 *
 * Design: a scannerless recursive-descent parser over (text, len).  All IR
 * lives in the module arena; transient lists live on a few growable stacks
 * in struct parser (nested constructs push on top and pop back), and names
 * are resolved through open-addressing hash tables, so the parser allocates
 * only when a table or stack grows.  Recursion is bounded by max_nesting.
 */
#include "graph/graph.h"
#include "graph/bytecode_internal.h"
#include "graph/parse_internal.h"
#include "graph/print_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */

void graph_pos_linecol(struct parser *p, const char *pos, int *line, int *col)
{
    if (pos < p->src) pos = p->src;
    if (pos > p->end) pos = p->end;
    if (pos < p->lc_pos) {
        p->lc_pos = p->src;
        p->lc_line_start = p->src;
        p->lc_line = 1;
    }
    const char *q = p->lc_pos;
    while (q < pos) {
        const char *nl = memchr(q, '\n', (size_t)(pos - q));
        if (!nl) break;
        p->lc_line++;
        q = nl + 1;
        p->lc_line_start = q;
    }
    p->lc_pos = pos;
    *line = p->lc_line;
    *col = (int)(pos - p->lc_line_start) + 1;
}

void graph_describe_at(const struct parser *p, const char *pos, char *buf, size_t cap)
{
    const char *end = p->end;
    if (pos >= end) {
        snprintf(buf, cap, "end of input");
        return;
    }
    size_t n = 0;
    char c = *pos;
    if (lex_is_id_start(c)) {
        n = graph_lex_bare_id(pos, end);
    } else if (c == '%' || c == '@' || c == '#' || c == '!' || c == '^') {
        n = 1 + graph_lex_suffix_id(pos + 1, end);
    } else if (c == '"') {
        size_t s = graph_lex_string(pos, end);
        n = s ? s : 1;
    } else if (lex_is_digit(c)) {
        struct graph_lex_number num;
        n = graph_lex_number(pos, end, &num);
    } else if (c == '-' && pos + 1 < end && pos[1] == '>') {
        n = 2;
    }
    if (n == 0) n = 1;
    if (n > 32) n = 32;
    char tmp[40];
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = pos[i];
        if (ch == '\n' || ch == '\r') break;
        tmp[j++] = (ch >= 32 && ch < 127) ? ch : '?';
    }
    tmp[j] = 0;
    snprintf(buf, cap, "'%s'", tmp);
}

static enum base_status vperr(struct parser *p, const char *pos, enum base_status st, const char *fmt,
                              va_list ap) BASE_PRINTF(4, 0);
static enum base_status vperr(struct parser *p, const char *pos, enum base_status st, const char *fmt,
                              va_list ap)
{
    struct base_diag *d = p->diag;
    if (!d || d->status != BASE_OK) return st;
    int line, col;
    graph_pos_linecol(p, pos, &line, &col);
    base_diag_vset(d, st, p->path, line, col, fmt, ap);
    const char *ls = pos, *le = pos;
    if (ls > p->end) ls = le = p->end;
    while (ls > p->src && ls[-1] != '\n') ls--;
    while (le < p->end && *le != '\n') le++;
    base_diag_set_snippet(d, ls, (size_t)(le - ls));
    return st;
}

enum base_status graph_perr(struct parser *p, const char *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum base_status st = vperr(p, pos, BASE_ERR_PARSE, fmt, ap);
    va_end(ap);
    return st;
}

enum base_status graph_perr_st(struct parser *p, const char *pos, enum base_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vperr(p, pos, st, fmt, ap);
    va_end(ap);
    return st;
}

enum base_status graph_enter_nesting(struct parser *p, const char *pos)
{
    if (++p->depth > p->max_nesting)
        return graph_perr_st(p, pos, BASE_ERR_LIMIT, "nesting deeper than %d levels (the nesting limit; raise it with --limit nesting=N)", p->max_nesting);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Allocation and stacks                                                     */

void *graph_palloc(struct parser *p, size_t n)
{
    return base_arena_alloc(p->arena, n ? n : 1);
}

char *graph_pstrndup(struct parser *p, const char *s, size_t n)
{
    return base_arena_strndup(p->arena, s, n);
}

static void ps_init(struct pstack *s, size_t elem)
{
    s->data = NULL;
    s->n = s->cap = 0;
    s->elem = elem;
}

static void ps_free(struct pstack *s)
{
    free(s->data);
    s->data = NULL;
    s->n = s->cap = 0;
}

enum base_status graph_ps_push_slow(struct parser *p, struct pstack *s, const void *elem)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        void *d = realloc(s->data, cap * s->elem);
        if (!d) return nomem(p);
        s->data = d;
        s->cap = cap;
    }
    memcpy((char *)s->data + s->n * s->elem, elem, s->elem);
    s->n++;
    return BASE_OK;
}

enum base_status graph_ps_take(struct parser *p, struct pstack *s, size_t base, void **out, int *n)
{
    size_t cnt = s->n - base;
    *n = (int)cnt;
    *out = NULL;
    if (cnt) {
        *out = graph_palloc(p, cnt * s->elem);
        if (!*out) return nomem(p);
        memcpy(*out, (char *)s->data + base * s->elem, cnt * s->elem);
    }
    s->n = base;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Hash tables                                                               */

static const char ptab_tomb[1];

static uint32_t hash_bytes(const char *s, size_t n, uint32_t seed)
{
    /* 8 bytes at a time (multiply-xorshift), then a final mix */
    uint64_t h = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 32) ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    if (n >= 4) { /* two overlapping 4-byte loads */
        uint32_t lo, hi;
        memcpy(&lo, s, 4);
        memcpy(&hi, s + n - 4, 4);
        w = (uint64_t)lo | (uint64_t)hi << 32;
    } else {
        for (size_t i = 0; i < n; i++) w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    }
    h ^= w;
    /* murmur3 finaliser: every input bit reaches the low (index) bits */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    uint32_t r = (uint32_t)h;
    return r ? r : 1;
}

static void ptab_free(struct ptab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->used = 0;
}

static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        if (n > 16) return memcmp(a, b, n) == 0;
        uint64_t x, y, z, w; /* two overlapping words cover 8..16 bytes */
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        memcpy(&z, a + n - 8, 8);
        memcpy(&w, b + n - 8, 8);
        return x == y && z == w;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

static struct ptab_slot *ptab_find(struct ptab *t, const char *k, size_t n, uint32_t scope, uint32_t h)
{
    if (!t->cap) return NULL;
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct ptab_slot *s = &t->slots[i];
        if (!s->key) return NULL;
        if (s->hash == h && s->len == n && s->scope == scope && s->key != ptab_tomb && same_bytes(s->key, k, n))
            return s;
    }
}

static bool ptab_rehash(struct ptab *t, size_t cap)
{
    struct ptab_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    size_t used = 0;
    for (size_t i = 0; i < t->cap; i++) {
        struct ptab_slot *s = &t->slots[i];
        if (!s->key || s->key == ptab_tomb) continue;
        size_t j = s->hash & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = *s;
        used++;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    t->used = used;
    return true;
}

/* Inserts a new key (the caller checked it is absent). */
static struct ptab_slot *ptab_insert(struct ptab *t, const char *k, size_t n, uint32_t scope, uint32_t h)
{
    if ((t->used + 1) * 2 > t->cap) { /* load <= 1/2 keeps linear probes short */
        size_t live = 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].key && t->slots[i].key != ptab_tomb) live++;
        size_t cap = t->cap ? t->cap : 64;
        while ((live + 1) * 4 > cap) cap *= 2;
        if (!ptab_rehash(t, cap)) return NULL;
    }
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->slots[i].key && t->slots[i].key != ptab_tomb) i = (i + 1) & mask;
    struct ptab_slot *s = &t->slots[i];
    if (!s->key) t->used++;
    memset(s, 0, sizeof *s);
    s->key = k;
    s->len = (uint32_t)n;
    s->scope = scope;
    s->hash = h;
    return s;
}

/* ------------------------------------------------------------------------ */
/* Tokens                                                                    */

bool graph_accept_str(struct parser *p, const char *s)
{
    skip_ws(p);
    size_t n = strlen(s);
    if ((size_t)(p->end - p->cur) >= n && memcmp(p->cur, s, n) == 0) {
        p->cur += n;
        return true;
    }
    return false;
}

bool graph_peek_kw(struct parser *p, const char *kw)
{
    skip_ws(p);
    size_t n = graph_lex_bare_id(p->cur, p->end);
    return n == strlen(kw) && memcmp(p->cur, kw, n) == 0;
}

bool graph_accept_kw(struct parser *p, const char *kw)
{
    if (!graph_peek_kw(p, kw)) return false;
    p->cur += strlen(kw);
    return true;
}

enum base_status graph_expect_char_slow(struct parser *p, char c, const char *ctx)
{
    char found[48];
    graph_describe_at(p, p->cur, found, sizeof found);
    return graph_perr(p, p->cur, "expected '%c' %s, found %s", c, ctx, found);
}

enum base_status graph_expect_str(struct parser *p, const char *s, const char *ctx)
{
    if (graph_accept_str(p, s)) return BASE_OK;
    char found[48];
    graph_describe_at(p, p->cur, found, sizeof found);
    return graph_perr(p, p->cur, "expected '%s' %s, found %s", s, ctx, found);
}

enum base_status graph_expect_kw(struct parser *p, const char *kw, const char *ctx)
{
    if (graph_accept_kw(p, kw)) return BASE_OK;
    char found[48];
    graph_describe_at(p, p->cur, found, sizeof found);
    return graph_perr(p, p->cur, "expected '%s' %s, found %s", kw, ctx, found);
}

const char *graph_take_bare_id(struct parser *p, size_t *len)
{
    skip_ws(p);
    const char *s = p->cur;
    *len = graph_lex_bare_id(s, p->end);
    p->cur += *len;
    return s;
}

enum base_status graph_expect_bare_id(struct parser *p, const char **s, size_t *len, const char *ctx)
{
    *s = graph_take_bare_id(p, len);
    if (*len) return BASE_OK;
    char found[48];
    graph_describe_at(p, p->cur, found, sizeof found);
    return graph_perr(p, p->cur, "expected an identifier %s, found %s", ctx, found);
}

static enum base_status ensure_scratch(struct parser *p, size_t n)
{
    if (n <= p->scratch_cap) return BASE_OK;
    size_t cap = p->scratch_cap ? p->scratch_cap : 256;
    while (cap < n) cap *= 2;
    char *s = realloc(p->scratch, cap);
    if (!s) return nomem(p);
    p->scratch = s;
    p->scratch_cap = cap;
    return BASE_OK;
}

enum base_status graph_parse_string_lit(struct parser *p, const char **s, size_t *len)
{
    skip_ws(p);
    const char *pos = p->cur;
    size_t n = graph_lex_string(pos, p->end);
    if (!n) {
        if (pos < p->end && *pos == '"') return graph_perr(p, pos, "unterminated string literal");
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        return graph_perr(p, pos, "expected a string literal, found %s", found);
    }
    const char *body = pos + 1;
    size_t bn = n - 2;
    if (!memchr(body, '\\', bn)) {
        *s = graph_pstrndup(p, body, bn);
        *len = bn;
    } else {
        TRY(ensure_scratch(p, bn + 1));
        size_t m = graph_lex_unescape(body, bn, p->scratch);
        if (m == SIZE_MAX) return graph_perr(p, pos, "invalid escape sequence in string literal");
        *s = graph_pstrndup(p, p->scratch, m);
        *len = m;
    }
    if (!*s) return nomem(p);
    p->cur = pos + n;
    return BASE_OK;
}

enum base_status graph_parse_int_lit(struct parser *p, int64_t *v, const char *ctx)
{
    skip_ws(p);
    const char *pos = p->cur;
    bool neg = false;
    if (p->cur < p->end && (*p->cur == '-' || *p->cur == '+')) {
        neg = *p->cur == '-';
        p->cur++;
    }
    struct graph_lex_number num;
    size_t n = graph_lex_number(p->cur, p->end, &num);
    if (!n || num.is_float) {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        p->cur = pos;
        return graph_perr(p, pos, "expected an integer %s, found %s", ctx, found);
    }
    if (num.overflow || num.mag > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
        return graph_perr(p, pos, "integer %s is out of the 64-bit range", ctx);
    p->cur += n;
    *v = neg ? (int64_t)(0 - num.mag) : (int64_t)num.mag;
    return BASE_OK;
}

/* After '@': a bare identifier or a string; nested references @a::@b are kept
 * verbatim after the first name. */
enum base_status graph_parse_symbol_name(struct parser *p, const char **s, size_t *len)
{
    const char *pos = p->cur;
    if (p->cur < p->end && *p->cur == '"') {
        TRY(graph_parse_string_lit(p, s, len));
    } else {
        size_t n = graph_lex_suffix_id(p->cur, p->end);
        if (!n) return graph_perr(p, pos, "expected a symbol name after '@'");
        *s = graph_pstrndup(p, p->cur, n);
        if (!*s) return nomem(p);
        *len = n;
        p->cur += n;
    }
    if ((size_t)(p->end - p->cur) >= 3 && p->cur[0] == ':' && p->cur[1] == ':' && p->cur[2] == '@') {
        const char *start = pos;
        const char *q = p->cur;
        while ((size_t)(p->end - q) >= 3 && q[0] == ':' && q[1] == ':' && q[2] == '@') {
            q += 3;
            size_t n = q < p->end && *q == '"' ? graph_lex_string(q, p->end) : graph_lex_suffix_id(q, p->end);
            if (!n) return graph_perr(p, q, "expected a nested symbol name after '::@'");
            q += n;
        }
        *s = graph_pstrndup(p, start, (size_t)(q - start));
        if (!*s) return nomem(p);
        *len = (size_t)(q - start);
        p->cur = q;
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Values and scopes                                                         */

uint32_t graph_new_value_id(struct parser *p)
{
    return p->m->n_values++;
}

size_t graph_scope_enter(struct parser *p, bool isolated, uint32_t *saved_scope)
{
    *saved_scope = p->scope;
    if (isolated) p->scope = ++p->next_scope;
    return p->undo.n;
}

void graph_scope_leave(struct parser *p, size_t undo_base, uint32_t saved_scope)
{
    while (p->undo.n > undo_base) {
        struct undo_entry *u = ps_at(&p->undo, --p->undo.n);
        if (u->num >= 0) {
            p->nums[u->num].v = NULL;
            continue;
        }
        struct ptab_slot *s = ptab_find(&p->values, u->key, u->len, u->scope, u->hash);
        if (s) s->key = ptab_tomb;
    }
    p->scope = saved_scope;
}

/* SSA names are mostly decimal numbers (%0 ... %4881): those live in an array
 * indexed by the number, which is faster and more cache friendly than hashing.
 * Every entry belongs to an open scope (closing a region removes its names). */
#define MAX_NUMERIC_NAME (1 << 22)

static int64_t numeric_name(const char *name, size_t len)
{
    if (!len || len > 7 || (name[0] == '0' && len > 1)) return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!lex_is_digit(name[i])) return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v < MAX_NUMERIC_NAME ? v : -1;
}

struct graph_value *graph_lookup_value(struct parser *p, const char *name, size_t len, int *count)
{
    int64_t num = numeric_name(name, len);
    if (num >= 0 && (size_t)num < p->nums_cap && p->nums[num].v && p->nums[num].scope == p->scope) {
        if (count) *count = (int)p->nums[num].count;
        return p->nums[num].v;
    }
    uint32_t h = hash_bytes(name, len, p->scope);
    struct ptab_slot *s = ptab_find(&p->values, name, len, p->scope, h);
    if (!s) return NULL;
    if (count) *count = (int)s->aux;
    return s->val;
}

static enum base_status redefinition(struct parser *p, const char *name, size_t len, const char *pos)
{
    int line = 0, col = 0;
    for (size_t i = p->undo.n; i-- > 0;) {
        struct undo_entry *u = ps_at(&p->undo, i);
        if (u->len == len && u->scope == p->scope && !memcmp(u->key, name, len)) {
            graph_pos_linecol(p, u->pos, &line, &col);
            break;
        }
    }
    return graph_perr(p, pos, "redefinition of value '%%%.*s' (first defined at line %d, column %d)", (int)len, name,
                line, col);
}

enum base_status graph_define_values(struct parser *p, const char *name, size_t len, const char *pos,
                               struct graph_value *first, int count)
{
    if (graph_lookup_value(p, name, len, NULL)) return redefinition(p, name, len, pos);
    int64_t num = numeric_name(name, len);
    if (num >= 0 && (size_t)num >= p->nums_cap) {
        size_t cap = p->nums_cap ? p->nums_cap : 1024;
        while (cap <= (size_t)num) cap *= 2;
        struct num_slot *n2 = realloc(p->nums, cap * sizeof *n2);
        if (!n2) return nomem(p);
        memset(n2 + p->nums_cap, 0, (cap - p->nums_cap) * sizeof *n2);
        p->nums = n2;
        p->nums_cap = cap;
    }
    if (num >= 0 && !p->nums[num].v) {
        p->nums[num].v = first;
        p->nums[num].scope = p->scope;
        p->nums[num].count = (uint32_t)count;
        struct undo_entry u = {name, pos, (uint32_t)len, p->scope, 0, (int32_t)num};
        return ps_push(p, &p->undo, &u);
    }
    /* not numeric, or the number is taken by an enclosing isolated scope */
    uint32_t h = hash_bytes(name, len, p->scope);
    struct ptab_slot *s = ptab_insert(&p->values, name, len, p->scope, h);
    if (!s) return nomem(p);
    s->val = first;
    s->aux = (uint32_t)count;
    struct undo_entry u = {name, pos, (uint32_t)len, p->scope, h, -1};
    return ps_push(p, &p->undo, &u);
}

enum base_status graph_parse_value_use(struct parser *p, struct graph_value **out)
{
    skip_ws(p);
    const char *pos = p->cur;
    if (pos >= p->end || *pos != '%') {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        return graph_perr(p, pos, "expected a value (%%name), found %s", found);
    }
    size_t n = graph_lex_suffix_id(pos + 1, p->end);
    if (!n) return graph_perr(p, pos, "expected a value name after '%%'");
    const char *name = pos + 1;
    p->cur = name + n;
    int64_t idx = 0;
    if (p->cur < p->end && *p->cur == '#') {
        p->cur++;
        struct graph_lex_number num;
        size_t k = graph_lex_number(p->cur, p->end, &num);
        if (!k || num.is_float || num.is_hex || num.overflow || num.mag > INT32_MAX)
            return graph_perr(p, p->cur, "expected a result number after '#'");
        idx = (int64_t)num.mag;
        p->cur += k;
    }
    int count = 0;
    struct graph_value *v = graph_lookup_value(p, name, n, &count);
    if (!v) return graph_perr(p, pos, "use of undefined value '%%%.*s'", (int)n, name);
    if (idx >= count)
        return graph_perr(p, pos, "result #%lld of '%%%.*s' is out of range: it has %d result%s", (long long)idx,
                    (int)n, name, count, count == 1 ? "" : "s");
    *out = v + idx;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Locations                                                                 */


struct loc_value {
    const char *name;
    const char *file; /* FileLineColLoc: "file":line:col */
    int line, col;
    const char *alias; /* unresolved alias reference (points into source, with '#') */
    size_t alias_len;
    const char *alias_pos;
};

static enum base_status parse_loc_inner(struct parser *p, struct loc_value *v);

static enum base_status resolve_loc_alias(struct parser *p, const char *alias, size_t len, const char *pos,
                                          const char **name, bool *found, bool final);

/* Parses a location body (what is inside loc(...)). */
static enum base_status parse_loc_inner(struct parser *p, struct loc_value *v)
{
    memset(v, 0, sizeof *v);
    skip_ws(p);
    const char *pos = p->cur;
    TRY(graph_enter_nesting(p, pos));
    enum base_status st = BASE_OK;
    if (pos < p->end && *pos == '#') {
        size_t n = 1 + graph_lex_suffix_id(pos + 1, p->end);
        if (n == 1) {
            st = graph_perr(p, pos, "expected a location alias name after '#'");
        } else {
            v->alias = pos;
            v->alias_len = n;
            v->alias_pos = pos;
            p->cur += n;
        }
    } else if (pos < p->end && *pos == '"') {
        const char *s;
        size_t len;
        st = graph_parse_string_lit(p, &s, &len);
        if (st == BASE_OK && accept_char(p, ':')) {
            /* FileLineColLoc "file":line:col [to ...]: no name, a position */
            int64_t tmp, line = 0, col = 0;
            st = graph_parse_int_lit(p, &line, "(location line)");
            if (st == BASE_OK && accept_char(p, ':')) st = graph_parse_int_lit(p, &col, "(location column)");
            if (st == BASE_OK && line > 0 && line <= INT32_MAX && col >= 0 && col <= INT32_MAX) {
                v->file = s;
                v->line = (int)line;
                v->col = (int)col;
            }
            if (st == BASE_OK && graph_accept_kw(p, "to")) {
                if (accept_char(p, ':')) {
                    st = graph_parse_int_lit(p, &tmp, "(location column)");
                } else {
                    st = graph_parse_int_lit(p, &tmp, "(location line)");
                    if (st == BASE_OK && accept_char(p, ':')) st = graph_parse_int_lit(p, &tmp, "(location column)");
                }
            }
        } else if (st == BASE_OK) {
            v->name = s;
            if (accept_char(p, '(')) {
                struct loc_value child;
                st = parse_loc_inner(p, &child);
                if (st == BASE_OK) st = expect_char(p, ')', "after a name location's child");
                if (st == BASE_OK && child.file) {
                    v->file = child.file;
                    v->line = child.line;
                    v->col = child.col;
                }
            }
        }
    } else if (graph_accept_kw(p, "unknown")) {
        /* no name */
    } else if (graph_accept_kw(p, "callsite")) {
        struct loc_value callee, caller;
        st = expect_char(p, '(', "after 'callsite'");
        if (st == BASE_OK) st = parse_loc_inner(p, &callee);
        if (st == BASE_OK) st = graph_expect_kw(p, "at", "in callsite location");
        if (st == BASE_OK) st = parse_loc_inner(p, &caller);
        if (st == BASE_OK) st = expect_char(p, ')', "to close callsite location");
        if (st == BASE_OK) *v = callee.name || callee.alias ? callee : caller;
    } else if (graph_accept_kw(p, "fused")) {
        if (accept_char(p, '<')) {
            const struct graph_attr *meta;
            st = graph_parse_attr(p, &meta);
            if (st == BASE_OK) st = expect_char(p, '>', "after fused location metadata");
        }
        if (st == BASE_OK) st = expect_char(p, '[', "in fused location");
        if (st == BASE_OK && !accept_char(p, ']')) {
            do {
                struct loc_value child;
                st = parse_loc_inner(p, &child);
                if (st != BASE_OK) break;
                if (!v->name && !v->alias) {
                    v->name = child.name;
                    v->alias = child.alias;
                    v->alias_len = child.alias_len;
                    v->alias_pos = child.alias_pos;
                }
                if (!v->file && child.file) {
                    v->file = child.file;
                    v->line = child.line;
                    v->col = child.col;
                }
            } while (accept_char(p, ','));
            if (st == BASE_OK) st = expect_char(p, ']', "to close fused location");
        }
    } else {
        char found[48];
        graph_describe_at(p, pos, found, sizeof found);
        st = graph_perr(p, pos, "expected a location (a string, unknown, callsite, fused or #alias), found %s", found);
    }
    leave_nesting(p);
    return st;
}

/* Resolves #alias to its name.  Before the end of the file (final false) a
 * chain that reaches a not-yet-defined alias reports *found = false, so the
 * use is retried once every alias is known. */
/* "#loc<digits>": the usual location alias names, kept in an array. */
static int64_t loc_alias_index(const char *name, size_t len)
{
    if (len < 5 || len > 11 || memcmp(name, "#loc", 4) != 0 || (name[4] == '0' && len > 5)) return -1;
    int64_t v = 0;
    for (size_t i = 4; i < len; i++) {
        if (!lex_is_digit(name[i])) return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v < (1 << 22) ? v : -1;
}

static struct loc_alias *find_loc_alias(struct parser *p, const char *alias, size_t len, bool *other_kind)
{
    *other_kind = false;
    int64_t li = loc_alias_index(alias, len);
    if (li >= 0 && (size_t)li < p->loc_nums_cap && p->loc_nums[li]) return p->loc_nums[li];
    struct ptab_slot *s = ptab_find(&p->aliases, alias, len, 0, hash_bytes(alias, len, 0));
    if (!s) return NULL;
    if ((s->aux & 0xff) != ALIAS_LOC) {
        *other_kind = true;
        return NULL;
    }
    return s->val;
}

static enum base_status resolve_loc_alias(struct parser *p, const char *alias, size_t len, const char *pos,
                                          const char **name, bool *found, bool final)
{
    *name = NULL;
    bool other;
    struct loc_alias *la = find_loc_alias(p, alias, len, &other);
    if (other) return graph_perr(p, pos, "'%.*s' is not a location alias", (int)len, alias);
    *found = la != NULL;
    if (!la) return BASE_OK;
    if (la->state == 2) {
        *name = la->name;
        return BASE_OK;
    }
    if (la->state == 1) return graph_perr(p, pos, "location alias '%.*s' refers to itself", (int)len, alias);
    la->state = 1;
    const char *saved = p->cur;
    p->cur = la->body;
    struct loc_value v;
    enum base_status st = parse_loc_inner(p, &v);
    p->cur = saved;
    if (st != BASE_OK) return st;
    if (v.alias) {
        bool f;
        TRY(graph_enter_nesting(p, pos));
        st = resolve_loc_alias(p, v.alias, v.alias_len, v.alias_pos, &v.name, &f, final);
        leave_nesting(p);
        if (st != BASE_OK) return st;
        if (!f) {
            la->state = 0;
            if (final) return graph_perr(p, v.alias_pos, "undefined location alias '%.*s'", (int)v.alias_len, v.alias);
            *found = false;
            return BASE_OK;
        }
    }
    la->name = v.name;
    la->state = 2;
    *name = v.name;
    return BASE_OK;
}

enum base_status graph_parse_arg_loc(struct parser *p, struct graph_loc **out)
{
    *out = NULL;
    skip_ws(p);
    if ((size_t)(p->end - p->cur) < 4 || memcmp(p->cur, "loc", 3) != 0) return BASE_OK;
    struct graph_loc *l = graph_palloc(p, sizeof *l);
    if (!l) return nomem(p);
    memset(l, 0, sizeof *l);
    *out = l;
    return graph_parse_opt_loc(p, l);
}

enum base_status graph_parse_opt_loc(struct parser *p, struct graph_loc *loc)
{
    skip_ws(p);
    if ((size_t)(p->end - p->cur) < 4 || memcmp(p->cur, "loc", 3) != 0) return BASE_OK;
    const char *q = graph_lex_skip_ws(p->cur + 3, p->end);
    if (q >= p->end || *q != '(') return BASE_OK;
    p->cur = q + 1;
    const char *body = p->cur;
    struct loc_value v;
    TRY(parse_loc_inner(p, &v));
    TRY(expect_char(p, ')', "to close the location"));
    if (!loc && v.alias) { /* discarded (argument) location: only check the alias exists */
        const char *ignored;
        bool found;
        TRY(resolve_loc_alias(p, v.alias, v.alias_len, v.alias_pos, &ignored, &found, false));
        if (!found) {
            struct loc_fixup f = {NULL, v.alias, v.alias_len, v.alias_pos};
            TRY(ps_push(p, &p->fixups, &f));
        }
        return BASE_OK;
    }
    if (!loc) return BASE_OK;
    struct loc_chain_fix cf = {loc, body};
    TRY(ps_push(p, &p->chains, &cf));
    if (v.file && p->positions_from_locs) {
        loc->file = v.file;
        loc->line = v.line;
        loc->col = v.col;
    }
    if (v.alias) {
        bool found;
        TRY(resolve_loc_alias(p, v.alias, v.alias_len, v.alias_pos, &loc->name, &found, false));
        if (!found) {
            struct loc_fixup f = {loc, v.alias, v.alias_len, v.alias_pos};
            TRY(ps_push(p, &p->fixups, &f));
        }
    } else {
        loc->name = v.name;
    }
    return BASE_OK;
}

static enum base_status resolve_fixups(struct parser *p)
{
    for (size_t i = 0; i < p->fixups.n; i++) {
        struct loc_fixup *f = ps_at(&p->fixups, i);
        bool found;
        const char *name = NULL;
        TRY(resolve_loc_alias(p, f->alias, f->len, f->pos, &name, &found, true));
        if (f->loc) f->loc->name = name;
        if (!found) return graph_perr(p, f->pos, "undefined location alias '%.*s'", (int)f->len, f->alias);
    }
    return BASE_OK;
}

/* ---- location chains (graph_loc.chain) ---- */

#define LOC_FRAMES 32
#define LOC_CHAIN_MAX 1024

struct loc_frame {
    const char *name, *file;
    int line, col;
    char sep; /* before this frame: '<' callsite, ',' fused, '@' a name over a chain; 0 first */
};
struct loc_chain {
    struct loc_frame f[LOC_FRAMES];
    int n;
    bool more; /* frames dropped past LOC_FRAMES */
};

static void chain_push(struct loc_chain *c, struct loc_frame fr)
{
    if (c->n < LOC_FRAMES) c->f[c->n++] = fr;
    else c->more = true;
}

/* Appends the frames of the location body at p->cur (the first pass
 * checked its syntax; false on anything unexpected, which stops the chain
 * where it is). */
static bool chain_parse(struct parser *p, struct loc_chain *c, char sep, int depth)
{
    if (depth > 64) return false;
    skip_ws(p);
    const char *pos = p->cur;
    if (pos >= p->end) return false;
    if (*pos == '#') {
        size_t n = 1 + graph_lex_suffix_id(pos + 1, p->end);
        p->cur += n;
        bool other;
        struct loc_alias *la = find_loc_alias(p, pos, n, &other);
        if (!la) return true;
        const char *saved = p->cur;
        p->cur = la->body;
        bool ok = chain_parse(p, c, sep, depth + 1);
        p->cur = saved;
        return ok;
    }
    if (*pos == '"') {
        const char *s;
        size_t len;
        if (graph_parse_string_lit(p, &s, &len) != BASE_OK) return false;
        if (accept_char(p, ':')) {
            int64_t line = 0, col = 0, tmp;
            if (graph_parse_int_lit(p, &line, "(location line)") != BASE_OK) return false;
            if (accept_char(p, ':') && graph_parse_int_lit(p, &col, "(location column)") != BASE_OK) return false;
            if (graph_accept_kw(p, "to")) {
                if (accept_char(p, ':')) {
                    if (graph_parse_int_lit(p, &tmp, "(location column)") != BASE_OK) return false;
                } else {
                    if (graph_parse_int_lit(p, &tmp, "(location line)") != BASE_OK) return false;
                    if (accept_char(p, ':') && graph_parse_int_lit(p, &tmp, "(location column)") != BASE_OK) return false;
                }
            }
            if (line < 0 || line > INT32_MAX || col < 0 || col > INT32_MAX) return true;
            chain_push(c, (struct loc_frame){NULL, s, (int)line, (int)col, sep});
            return true;
        }
        int before = c->n;
        if (accept_char(p, '(')) {
            if (!chain_parse(p, c, sep, depth + 1) || !accept_char(p, ')')) return false;
        }
        if (c->n > before && !c->f[before].name) { /* a name on a position: one frame */
            c->f[before].name = s;
            return true;
        }
        if (c->n > before) { /* a name over a chain: its own frame first */
            if (c->n == LOC_FRAMES) c->n--, c->more = true;
            memmove(&c->f[before + 1], &c->f[before], (size_t)(c->n - before) * sizeof *c->f);
            c->n++;
            c->f[before + 1].sep = '@';
            c->f[before] = (struct loc_frame){s, NULL, 0, 0, sep};
            return true;
        }
        chain_push(c, (struct loc_frame){s, NULL, 0, 0, sep});
        return true;
    }
    if (graph_accept_kw(p, "unknown")) return true;
    if (graph_accept_kw(p, "callsite")) {
        if (!accept_char(p, '(') || !chain_parse(p, c, sep, depth + 1)) return false;
        if (graph_expect_kw(p, "at", "in callsite location") != BASE_OK) return false;
        return chain_parse(p, c, '<', depth + 1) && accept_char(p, ')');
    }
    if (graph_accept_kw(p, "fused")) {
        if (accept_char(p, '<')) {
            const struct graph_attr *meta;
            if (graph_parse_attr(p, &meta) != BASE_OK || !accept_char(p, '>')) return false;
        }
        if (!accept_char(p, '[')) return false;
        if (accept_char(p, ']')) return true;
        int first = c->n;
        do {
            int before = c->n;
            if (!chain_parse(p, c, c->n > first ? ',' : sep, depth + 1)) return false;
            /* torch_xla's fused["op", "file":line:col]: the name and where it came from, one frame */
            if (before > first && c->n == before + 1 && c->f[before - 1].name && !c->f[before - 1].file &&
                !c->f[before].name && c->f[before].file) {
                c->f[before - 1].file = c->f[before].file;
                c->f[before - 1].line = c->f[before].line;
                c->f[before - 1].col = c->f[before].col;
                c->n--;
            }
        } while (accept_char(p, ','));
        return accept_char(p, ']');
    }
    return false;
}

static bool frame_eq(const struct loc_frame *a, const struct loc_frame *b)
{
    return a->line == b->line && a->col == b->col && (a->name == b->name || (a->name && b->name && !strcmp(a->name, b->name))) &&
           (a->file == b->file || (a->file && b->file && !strcmp(a->file, b->file)));
}

/* The chain as text (graph.h struct graph_loc.chain); NULL when empty. */
static const char *chain_format(struct parser *p, struct loc_chain *c)
{
    char buf[LOC_CHAIN_MAX + 8];
    size_t n = 0;
    bool cut = c->more;
    const struct loc_frame *prev = NULL;
    for (int i = 0; i < c->n; i++) {
        const struct loc_frame *f = &c->f[i];
        if (prev && frame_eq(prev, f)) continue; /* fused locations repeat themselves */
        char fr[LOC_CHAIN_MAX];
        int k;
        if (f->name && f->file) k = snprintf(fr, sizeof fr, "%s (%s:%d:%d)", f->name, f->file, f->line, f->col);
        else if (f->file) k = snprintf(fr, sizeof fr, "%s:%d:%d", f->file, f->line, f->col);
        else k = snprintf(fr, sizeof fr, "%s", f->name ? f->name : "");
        const char *sep = !prev ? "" : f->sep == '<' ? " <- " : f->sep == '@' ? " @ " : ", ";
        if (k < 0 || n + strlen(sep) + (size_t)k > LOC_CHAIN_MAX) {
            cut = true;
            break;
        }
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", sep, fr);
        prev = f;
    }
    if (!n) return NULL;
    if (cut) n += (size_t)snprintf(buf + n, sizeof buf - n, " ...");
    return graph_pstrndup(p, buf, n);
}

static enum base_status resolve_chains(struct parser *p)
{
    struct loc_chain *c = malloc(sizeof *c);
    if (!c) return nomem(p);
    const char *saved = p->cur;
    int depth = p->depth;
    enum base_status st = BASE_OK;
    for (size_t i = 0; i < p->chains.n && st == BASE_OK; i++) {
        struct loc_chain_fix *f = ps_at(&p->chains, i);
        c->n = 0;
        c->more = false;
        p->cur = f->body;
        chain_parse(p, c, 0, 0);
        p->depth = depth;
        f->loc->chain = chain_format(p, c); /* unknown: NULL */
    }
    p->cur = saved;
    free(c);
    return st;
}

/* #name = loc(...) | #name = attr | !name = type */
static enum base_status parse_alias_def(struct parser *p)
{
    const char *pos = p->cur;
    size_t n = 1 + graph_lex_suffix_id(pos + 1, p->end);
    if (n == 1) return graph_perr(p, pos, "expected an alias name after '%c'", *pos);
    p->cur += n;
    TRY(expect_char(p, '=', "in alias definition"));
    uint32_t h = hash_bytes(pos, n, 0);
    int64_t li = loc_alias_index(pos, n);
    if (ptab_find(&p->aliases, pos, n, 0, h) || (li >= 0 && (size_t)li < p->loc_nums_cap && p->loc_nums[li]))
        return graph_perr(p, pos, "redefinition of alias '%.*s'", (int)n, pos);
    void *val;
    int kind;
    if (*pos == '!') {
        const struct graph_type *t;
        TRY(graph_parse_type(p, &t));
        val = (void *)t;
        kind = ALIAS_TYPE;
    } else {
        skip_ws(p);
        const char *q = p->cur;
        const char *lp = (size_t)(p->end - q) >= 4 && memcmp(q, "loc", 3) == 0 ? graph_lex_skip_ws(q + 3, p->end) : NULL;
        if (lp && lp < p->end && *lp == '(') {
            p->cur = graph_lex_skip_ws(q + 3, p->end) + 1;
            struct loc_alias *la = graph_palloc(p, sizeof *la);
            if (!la) return nomem(p);
            la->body = p->cur;
            struct loc_value v;
            TRY(parse_loc_inner(p, &v)); /* syntax check; resolved on use */
            TRY(expect_char(p, ')', "to close the location"));
            if (!v.alias) { /* a name (or unknown): resolved already */
                la->name = v.name;
                la->state = 2;
            }
            if (li >= 0) {
                if ((size_t)li >= p->loc_nums_cap) {
                    size_t cap = p->loc_nums_cap ? p->loc_nums_cap : 1024;
                    while (cap <= (size_t)li) cap *= 2;
                    struct loc_alias **a2 = realloc(p->loc_nums, cap * sizeof *a2);
                    if (!a2) return nomem(p);
                    memset(a2 + p->loc_nums_cap, 0, (cap - p->loc_nums_cap) * sizeof *a2);
                    p->loc_nums = a2;
                    p->loc_nums_cap = cap;
                }
                p->loc_nums[li] = la;
                return BASE_OK;
            }
            val = la;
            kind = ALIAS_LOC;
        } else {
            const struct graph_attr *a;
            TRY(graph_parse_attr(p, &a));
            val = (void *)a;
            kind = ALIAS_ATTR;
        }
    }
    struct ptab_slot *s = ptab_insert(&p->aliases, pos, n, 0, h);
    if (!s) return nomem(p);
    s->val = val;
    s->aux = (uint32_t)kind;
    return BASE_OK;
}

const void *graph_lookup_alias(struct parser *p, const char *name, size_t len, int kind)
{
    struct ptab_slot *s = ptab_find(&p->aliases, name, len, 0, hash_bytes(name, len, 0));
    if (!s || (int)(s->aux & 0xff) != kind) return NULL;
    return s->val;
}

bool graph_is_alias_value(struct parser *p, const void *v)
{
    for (size_t i = 0; i < p->aliases.cap; i++)
        if (p->aliases.slots[i].key && p->aliases.slots[i].key != ptab_tomb && p->aliases.slots[i].val == v)
            return true;
    return false;
}

/* Op-name cache: name -> kind (looked up once per distinct name). */
static struct ptab_slot *op_slot(struct parser *p, const char *name, size_t len)
{
    uint32_t h = hash_bytes(name, len, 0);
    struct ptab_slot *s = ptab_find(&p->opnames, name, len, 0, h);
    if (s) return s;
    char *copy = graph_pstrndup(p, name, len); /* the op name string, shared by all such ops */
    if (!copy) return NULL;
    s = ptab_insert(&p->opnames, copy, len, 0, h);
    if (s) {
        s->aux = (uint32_t)graph_op_kind_from_name(name, len);
        s->val = copy;
    }
    return s;
}

enum graph_op_kind graph_lookup_op_kind(struct parser *p, const char *name, size_t len)
{
    struct ptab_slot *s = op_slot(p, name, len);
    return s ? (enum graph_op_kind)s->aux : graph_op_kind_from_name(name, len);
}

/* kind and the shared name string of an op name */
static const char *op_identify(struct parser *p, const char *name, size_t len, enum graph_op_kind *kind)
{
    struct ptab_slot *s = op_slot(p, name, len);
    if (!s) return NULL;
    *kind = (enum graph_op_kind)s->aux;
    return s->val;
}

/* Type cache: tensor type text -> type. */
const struct graph_type *graph_type_cache_get(struct parser *p, const char *text, size_t len)
{
    struct ptab_slot *s = ptab_find(&p->types, text, len, 0, hash_bytes(text, len, 0));
    return s ? s->val : NULL;
}
enum base_status graph_type_cache_put(struct parser *p, const char *text, size_t len, const struct graph_type *t)
{
    uint32_t h = hash_bytes(text, len, 0);
    if (ptab_find(&p->types, text, len, 0, h)) return BASE_OK;
    struct ptab_slot *s = ptab_insert(&p->types, text, len, 0, h);
    if (!s) return nomem(p);
    s->val = (void *)t;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

int graph_build_n_operands(struct parser *p, const struct op_build *b) { return (int)(p->vals.n - b->val_base); }
int graph_build_n_results(struct parser *p, const struct op_build *b) { return (int)(p->tys.n - b->ty_base); }
struct graph_value *graph_build_operand(struct parser *p, const struct op_build *b, int i)
{
    return *(struct graph_value **)ps_at(&p->vals, b->val_base + (size_t)i);
}
int graph_build_n_names(struct parser *p, const struct op_build *b)
{
    int n = 0;
    for (size_t i = b->rn_base; i < p->rnames.n; i++) n += ((struct result_name *)ps_at(&p->rnames, i))->count;
    return n;
}

enum base_status graph_push_attr(struct parser *p, const char *name, const struct graph_attr *a)
{
    struct graph_named_attr na = {name, a};
    return ps_push(p, &p->nattrs, &na);
}

enum base_status graph_finish_op(struct parser *p, struct op_build *b)
{
    TRY(graph_normalize_op_attrs(p, b));
    int n_names = graph_build_n_names(p, b);
    int n_results = graph_build_n_results(p, b);
    if (b->rn_base < p->rnames.n && n_names != n_results)
        return graph_perr(p, b->pos, "'%s' defines %d result%s but %d name%s given", b->name, n_results,
                    n_results == 1 ? "" : "s", n_names, n_names == 1 ? " is" : "s are");
    int n_opnd = (int)(p->vals.n - b->val_base);
    int n_attr = (int)(p->nattrs.n - b->nattr_base);
    int n_reg = (int)(p->regions.n - b->reg_base);
    /* one allocation: op, results, operands, attributes, regions (all 8-byte multiples) */
    size_t sz_op = (sizeof(struct graph_op) + 15) & ~(size_t)15;
    size_t sz_res = (size_t)n_results * sizeof(struct graph_value);
    size_t sz_opnd = (size_t)n_opnd * sizeof(struct graph_value *);
    size_t sz_attr = (size_t)n_attr * sizeof(struct graph_named_attr);
    size_t sz_reg = (size_t)n_reg * sizeof(struct graph_region);
    char *mem = graph_palloc(p, sz_op + sz_res + sz_opnd + sz_attr + sz_reg);
    if (!mem) return nomem(p);
    struct graph_op *op = (struct graph_op *)mem;
    b->op = op;
    op->kind = b->kind;
    op->name = b->name;
    op->loc = b->loc;
    op->results = n_results ? (struct graph_value *)(mem + sz_op) : NULL;
    op->operands = n_opnd ? (struct graph_value **)(mem + sz_op + sz_res) : NULL;
    op->attrs = n_attr ? (struct graph_named_attr *)(mem + sz_op + sz_res + sz_opnd) : NULL;
    op->regions = n_reg ? (struct graph_region *)(mem + sz_op + sz_res + sz_opnd + sz_attr) : NULL;
    op->n_operands = n_opnd;
    if (n_opnd) memcpy(op->operands, ps_at(&p->vals, b->val_base), sz_opnd);
    p->vals.n = b->val_base;
    op->n_attrs = n_attr;
    if (n_attr) memcpy(op->attrs, ps_at(&p->nattrs, b->nattr_base), sz_attr);
    p->nattrs.n = b->nattr_base;
    const char *twice = graph_named_attrs_sort(op->attrs, n_attr);
    if (twice) return graph_perr(p, b->pos, "attribute '%s' is given twice on '%s'", twice, b->name);
    op->n_regions = n_reg;
    if (n_reg) memcpy(op->regions, ps_at(&p->regions, b->reg_base), sz_reg);
    p->regions.n = b->reg_base;
    for (int r = 0; r < n_reg; r++) {
        op->regions[r].parent = op;
        for (int bi = 0; bi < op->regions[r].n_blocks; bi++) op->regions[r].blocks[bi].parent = &op->regions[r];
    }
    op->n_results = n_results;
    for (int i = 0; i < n_results; i++) {
        struct graph_value *v = &op->results[i];
        v->type = *(const struct graph_type **)ps_at(&p->tys, b->ty_base + (size_t)i);
        v->def = op;
        v->index = i;
        v->id = graph_new_value_id(p);
    }
    p->tys.n = b->ty_base;
    int k = 0;
    for (size_t i = b->rn_base; i < p->rnames.n; i++) {
        struct result_name *rn = ps_at(&p->rnames, i);
        for (int j = 0; j < rn->count; j++) op->results[k + j].name = rn->name;
        TRY(graph_define_values(p, rn->name, strlen(rn->name), rn->pos, &op->results[k], rn->count));
        k += rn->count;
    }
    p->rnames.n = b->rn_base;
    op->parent = b->parent;
    op->id = p->m->n_ops++;
    return ps_push(p, &p->ops, &op);
}

/* "name"(operands) <{props}>? (regions)? {attrs}? : (T...) -> (R...) */
static enum base_status parse_generic_op(struct parser *p, struct op_build *b)
{
    TRY(expect_char(p, '(', "to open the operand list of a generic op"));
    if (!accept_char(p, ')')) {
        do {
            struct graph_value *v;
            TRY(graph_parse_value_use(p, &v));
            TRY(ps_push(p, &p->vals, &v));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the operand list"));
    }
    if (at_char(p, '['))
        return graph_perr(p, p->cur, "block successors (^bb branches) are not supported in StableHLO");
    skip_ws(p);
    if (p->cur + 1 < p->end && p->cur[0] == '<' && graph_lex_skip_ws(p->cur + 1, p->end) < p->end &&
        *graph_lex_skip_ws(p->cur + 1, p->end) == '{') {
        p->cur++;
        TRY(graph_parse_attr_dict(p));
        TRY(expect_char(p, '>', "to close the properties"));
    }
    if (accept_char(p, '(')) {
        do {
            struct graph_region r;
            /* func.func and builtin.module bodies are isolated from above */
            TRY(graph_parse_region(p, &r, NULL, graph_op_kind_isolated(b->kind)));
            TRY(ps_push(p, &p->regions, &r));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the region list"));
    }
    if (at_char(p, '{')) TRY(graph_parse_attr_dict(p));
    TRY(expect_char(p, ':', "before the type of a generic op"));
    const char *tpos = p->cur;
    int n_in, n_out;
    size_t in_base = p->tys.n;
    TRY(graph_parse_function_type(p, &n_in, &n_out));
    int n_opnd = graph_build_n_operands(p, b);
    if (n_in != n_opnd)
        return graph_perr(p, tpos, "'%s' has %d operand%s but its type lists %d", b->name, n_opnd,
                    n_opnd == 1 ? "" : "s", n_in);
    for (int i = 0; i < n_in; i++) {
        const struct graph_type *t = *(const struct graph_type **)ps_at(&p->tys, in_base + (size_t)i);
        struct graph_value *v = graph_build_operand(p, b, i);
        if (!graph_type_equal(v->type, t)) {
            char a[160], c[160];
            graph_type_str(v->type, a, sizeof a);
            graph_type_str(t, c, sizeof c);
            return graph_perr(p, tpos, "operand #%d of '%s' has type %s but the op's type says %s", i, b->name, a, c);
        }
    }
    /* drop the input types, keep the results */
    if (n_out && n_in)
        memmove(ps_at(&p->tys, in_base), ps_at(&p->tys, in_base + (size_t)n_in),
                (size_t)n_out * sizeof(const struct graph_type *));
    p->tys.n = in_base + (size_t)n_out;
    return BASE_OK;
}

/* Builds a block argument list: args from a pretty form, or parsed from
 * ^bb0(%a: T loc(...), ...). */
static enum base_status make_block_args(struct parser *p, struct graph_block *blk, int n,
                                        const char *const *names, const char *const *pos,
                                        const struct graph_type *const *types, struct graph_loc *const *locs)
{
    blk->n_args = n;
    if (!n) return BASE_OK;
    blk->args = graph_palloc(p, (size_t)n * sizeof *blk->args);
    if (!blk->args) return nomem(p);
    for (int i = 0; i < n; i++) {
        struct graph_value *v = &blk->args[i];
        v->type = types[i];
        v->block = blk;
        v->index = i;
        v->id = graph_new_value_id(p);
        v->name = names ? names[i] : NULL;
        v->loc = locs ? locs[i] : NULL;
        if (v->name) TRY(graph_define_values(p, v->name, strlen(v->name), pos[i], v, 1));
    }
    return BASE_OK;
}

static enum base_status parse_block_label(struct parser *p, struct graph_block *blk)
{
    const char *pos = p->cur; /* at '^' */
    size_t n = graph_lex_suffix_id(pos + 1, p->end);
    if (!n) return graph_perr(p, pos, "expected a block label after '^'");
    blk->label = graph_pstrndup(p, pos + 1, n);
    p->cur = pos + 1 + n;
    size_t nb = p->argnames.n, tb = p->tys.n;
    if (accept_char(p, '(') && !accept_char(p, ')')) {
        do {
            skip_ws(p);
            const char *apos = p->cur;
            if (apos >= p->end || *apos != '%') return graph_perr(p, apos, "expected a block argument (%%name: type)");
            size_t an = graph_lex_suffix_id(apos + 1, p->end);
            if (!an) return graph_perr(p, apos, "expected a block argument name after '%%'");
            p->cur = apos + 1 + an;
            struct result_name rn = {graph_pstrndup(p, apos + 1, an), apos, 1, NULL};
            TRY(ps_push(p, &p->argnames, &rn));
            TRY(expect_char(p, ':', "after a block argument name"));
            const struct graph_type *t;
            TRY(graph_parse_type(p, &t));
            TRY(ps_push(p, &p->tys, &t));
            TRY(graph_parse_arg_loc(p, &((struct result_name *)ps_at(&p->argnames, p->argnames.n - 1))->loc));
        } while (accept_char(p, ','));
        TRY(expect_char(p, ')', "to close the block arguments"));
    }
    TRY(expect_char(p, ':', "after the block label"));
    int n_args = (int)(p->argnames.n - nb);
    const char **names = NULL, **poss = NULL;
    const struct graph_type **types = NULL;
    struct graph_loc **locs = NULL;
    if (n_args) {
        names = graph_palloc(p, (size_t)n_args * sizeof *names);
        poss = graph_palloc(p, (size_t)n_args * sizeof *poss);
        types = graph_palloc(p, (size_t)n_args * sizeof *types);
        locs = graph_palloc(p, (size_t)n_args * sizeof *locs);
        if (!names || !poss || !types || !locs) return nomem(p);
        for (int i = 0; i < n_args; i++) {
            struct result_name *rn = ps_at(&p->argnames, nb + (size_t)i);
            names[i] = rn->name;
            poss[i] = rn->pos;
            locs[i] = rn->loc;
            types[i] = *(const struct graph_type **)ps_at(&p->tys, tb + (size_t)i);
        }
    }
    p->argnames.n = nb;
    p->tys.n = tb;
    return make_block_args(p, blk, n_args, names, poss, types, locs);
}

enum base_status graph_parse_region(struct parser *p, struct graph_region *r, const struct region_args *args,
                              bool isolated)
{
    memset(r, 0, sizeof *r);
    skip_ws(p);
    const char *pos = p->cur;
    TRY(expect_char(p, '{', "to open a region"));
    TRY(graph_enter_nesting(p, pos));
    uint32_t saved;
    size_t undo = graph_scope_enter(p, isolated, &saved);
    struct graph_block *blk = graph_palloc(p, sizeof *blk);
    if (!blk) return nomem(p);
    bool labelled = false;
    if (args && args->n) TRY(make_block_args(p, blk, args->n, args->names, args->name_pos, args->types, args->locs));
    if (at_char(p, '^')) {
        if (args && args->n)
            return graph_perr(p, p->cur, "this region's arguments are given by the op; it takes no block label");
        TRY(parse_block_label(p, blk));
        labelled = true;
    }
    size_t ops_base = p->ops.n;
    for (;;) {
        skip_ws(p);
        if (p->cur >= p->end) return graph_perr(p, pos, "unclosed region: missing '}' for the '{' here");
        if (*p->cur == '}') break;
        if (*p->cur == '^')
            return graph_perr(p, p->cur, "regions with several blocks (^bb successors) are not supported in StableHLO");
        TRY(graph_parse_operation(p, blk));
    }
    p->cur++;
    void *tmp;
    TRY(graph_ps_take(p, &p->ops, ops_base, &tmp, &blk->n_ops));
    blk->ops = tmp;
    graph_scope_leave(p, undo, saved);
    leave_nesting(p);
    if (!labelled && blk->n_args == 0 && blk->n_ops == 0 && !(args && args->n)) {
        r->n_blocks = 0;
        r->blocks = NULL;
        return BASE_OK;
    }
    r->n_blocks = 1;
    r->blocks = blk;
    return BASE_OK;
}

/* `%a, %b:2 =` */
static enum base_status parse_result_list(struct parser *p)
{
    do {
        skip_ws(p);
        const char *pos = p->cur;
        if (pos >= p->end || *pos != '%') return graph_perr(p, pos, "expected a result name (%%name)");
        size_t n = graph_lex_suffix_id(pos + 1, p->end);
        if (!n) return graph_perr(p, pos, "expected a result name after '%%'");
        p->cur = pos + 1 + n;
        int64_t count = 1;
        if (p->cur < p->end && *p->cur == ':') {
            p->cur++;
            struct graph_lex_number num;
            size_t k = graph_lex_number(p->cur, p->end, &num);
            if (!k || num.is_float || num.is_hex || num.mag == 0 || num.mag > 1000000)
                return graph_perr(p, p->cur, "expected a result count after ':'");
            count = (int64_t)num.mag;
            p->cur += k;
        }
        struct result_name rn = {graph_pstrndup(p, pos + 1, n), pos, (int)count, NULL};
        if (!rn.name) return nomem(p);
        TRY(ps_push(p, &p->rnames, &rn));
    } while (accept_char(p, ','));
    return expect_char(p, '=', "after the result names");
}

enum base_status graph_parse_operation(struct parser *p, struct graph_block *parent)
{
    skip_ws(p);
    const char *pos = p->cur;
    TRY(graph_enter_nesting(p, pos));
    struct op_build b;
    memset(&b, 0, sizeof b);
    b.pos = pos;
    b.rn_base = p->rnames.n;
    b.val_base = p->vals.n;
    b.nattr_base = p->nattrs.n;
    b.reg_base = p->regions.n;
    b.ty_base = p->tys.n;
    b.parent = parent;
    if (pos < p->end && *pos == '%') TRY(parse_result_list(p));
    skip_ws(p);
    b.loc.file = p->m->path;
    graph_pos_linecol(p, pos, &b.loc.line, &b.loc.col);
    const char *npos = p->cur;
    if (npos < p->end && *npos == '"') {
        const char *name;
        size_t len;
        TRY(graph_parse_string_lit(p, &name, &len));
        if (len == 0 || memchr(name, 0, len)) return graph_perr(p, npos, "invalid op name");
        b.name = op_identify(p, name, len, &b.kind);
        if (!b.name) return nomem(p);
        TRY(parse_generic_op(p, &b));
    } else {
        size_t len = graph_lex_bare_id(npos, p->end);
        if (!len) {
            char found[48];
            graph_describe_at(p, npos, found, sizeof found);
            return graph_perr(p, npos, "expected an operation, found %s", found);
        }
        p->cur += len;
        const char *name = npos;
        /* unqualified names resolve in the func / builtin dialects */
        if (len == 6 && !memcmp(name, "return", 6)) name = "func.return", len = 11;
        else if (len == 4 && !memcmp(name, "call", 4)) name = "func.call", len = 9;
        else if (len == 6 && !memcmp(name, "module", 6)) name = "builtin.module", len = 14;
        else if (len == 4 && !memcmp(name, "func", 4)) name = "func.func", len = 9;
        b.name = op_identify(p, name, len, &b.kind);
        if (!b.name) return nomem(p);
        TRY(graph_parse_custom_op(p, &b));
    }
    TRY(graph_finish_op(p, &b));
    TRY(graph_parse_opt_loc(p, &b.op->loc));
    leave_nesting(p);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Top level                                                                 */

static bool at_banner(struct parser *p)
{
    /* torch_xla exports end with "----- END OF MLIR MODULE -----" */
    const char *q = p->cur;
    if (q + 3 > p->end || q[0] != '-' || q[1] != '-' || q[2] != '-') return false;
    const char *nl = memchr(q, '\n', (size_t)(p->end - q));
    const char *le = nl ? nl : p->end;
    for (const char *c = q; c < le; c++)
        if (*c != '-' && *c != ' ' && *c != '\t' && *c != '\r' && !lex_is_alpha(*c)) return false;
    p->cur = le;
    return true;
}

static enum base_status parse_top(struct parser *p)
{
    struct graph_module *m = p->m;
    size_t ops_base = p->ops.n;
    for (;;) {
        skip_ws(p);
        if (p->cur >= p->end) break;
        char c = *p->cur;
        if (c == '#' || c == '!') {
            TRY(parse_alias_def(p));
        } else if (c == '{' && p->cur + 1 < p->end && p->cur[1] == '-') {
            TRY(graph_parse_resource_trailer(p));
        } else if (c == '-' && at_banner(p)) {
            continue;
        } else {
            TRY(graph_parse_operation(p, &m->body));
        }
    }
    void *tmp;
    TRY(graph_ps_take(p, &p->ops, ops_base, &tmp, &m->body.n_ops));
    m->body.ops = tmp;
    /* a file holding one module: that module is the result */
    if (m->body.n_ops == 1 && m->body.ops[0]->kind == GRAPH_OP_MODULE) {
        struct graph_op *mod = m->body.ops[0];
        m->name = NULL;
        const struct graph_attr *nm = graph_op_attr(mod, "sym_name");
        if (nm && nm->kind == GRAPH_ATTR_STRING) m->name = nm->u.str.s;
        int na = 0;
        for (int i = 0; i < mod->n_attrs; i++)
            if (strcmp(mod->attrs[i].name, "sym_name") != 0) na++;
        m->attrs = graph_palloc(p, (size_t)(na ? na : 1) * sizeof *m->attrs);
        if (!m->attrs) return nomem(p);
        m->n_attrs = 0;
        for (int i = 0; i < mod->n_attrs; i++)
            if (strcmp(mod->attrs[i].name, "sym_name") != 0) m->attrs[m->n_attrs++] = mod->attrs[i];
        if (mod->n_regions == 1 && mod->regions[0].n_blocks == 1) {
            m->body = mod->regions[0].blocks[0];
        } else {
            memset(&m->body, 0, sizeof m->body);
        }
        m->body.parent = NULL;
        for (int i = 0; i < m->body.n_ops; i++) m->body.ops[i]->parent = &m->body;
        for (int i = 0; i < m->body.n_args; i++) m->body.args[i].block = &m->body;
    }
    return BASE_OK;
}

static void parser_free(struct parser *p)
{
    ptab_free(&p->values);
    ptab_free(&p->types);
    ptab_free(&p->opnames);
    ptab_free(&p->aliases);
    free(p->loc_nums);
    free(p->nums);
    ps_free(&p->undo);
    ps_free(&p->ops);
    ps_free(&p->vals);
    ps_free(&p->nattrs);
    ps_free(&p->attrs);
    ps_free(&p->tys);
    ps_free(&p->i64s);
    ps_free(&p->f64s);
    ps_free(&p->regions);
    ps_free(&p->rnames);
    ps_free(&p->argnames);
    ps_free(&p->fixups);
    ps_free(&p->chains);
    ps_free(&p->resources);
    ps_free(&p->tensors);
    ps_free(&p->blobs);
    free(p->scratch);
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return x < y ? -1 : x > y;
}

/* Literal tensors that no op refers to (they came from attribute aliases that
 * were never used, directly or through other aliases) are released here; the
 * module releases the rest.  Only files with attribute aliases need the walk. */
static void release_unreachable_tensors(struct parser *p)
{
    bool any_alias = false;
    for (size_t i = 0; i < p->aliases.cap && !any_alias; i++) {
        const struct ptab_slot *s = &p->aliases.slots[i];
        if (s->key && s->key != ptab_tomb && (s->aux & 0xff) == ALIAS_ATTR) any_alias = true;
    }
    if (!any_alias) return;
    const struct graph_attr **reach;
    size_t n;
    if (!graph_module_elements(p->m, &reach, &n)) return; /* out of memory: kept, not freed */
    struct base_tensor **ts = malloc((n ? n : 1) * sizeof *ts);
    if (!ts) {
        free(reach);
        return;
    }
    for (size_t i = 0; i < n; i++) ts[i] = reach[i]->u.elements.value;
    free(reach);
    if (n) qsort(ts, n, sizeof *ts, cmp_ptr);
    for (size_t i = 0; i < p->tensors.n; i++) {
        struct base_tensor *t = *(struct base_tensor **)ps_at(&p->tensors, i);
        if (t && (!n || !bsearch(&t, ts, n, sizeof *ts, cmp_ptr))) base_tensor_release(t); /* unreachable */
    }
    free(ts);
}

static enum base_status graph_parse_impl(const char *text, size_t len, const struct graph_parse_options *opt,
                             struct graph_module **out, struct base_diag *diag)
{
    *out = NULL;
    if (graph_is_bytecode(text, len)) return graph_bytecode_parse(text, len, opt, out, diag);
    struct graph_module *m = calloc(1, sizeof *m);
    if (!m) return BASE_ERR_NOMEM;
    base_arena_init(&m->arena, 256 * 1024);
    struct parser p;
    memset(&p, 0, sizeof p);
    p.src = text ? text : "";
    p.end = p.src + (text ? len : 0);
    p.cur = p.src;
    p.path = opt && opt->path ? opt->path : "<input>";
    p.m = m;
    p.arena = &m->arena;
    p.diag = diag;
    p.max_nesting = opt && opt->max_nesting > 0 ? opt->max_nesting : (int)base_limit(NULL, BASE_LIMIT_NESTING);
    p.max_elements = opt && opt->max_elements > 0 ? opt->max_elements : BASE_MAX_ELEMS;
    p.positions_from_locs = opt && opt->positions_from_locs;
    p.lc_pos = p.lc_line_start = p.src;
    p.lc_line = 1;
    ps_init(&p.undo, sizeof(struct undo_entry));
    ps_init(&p.ops, sizeof(struct graph_op *));
    ps_init(&p.vals, sizeof(struct graph_value *));
    ps_init(&p.nattrs, sizeof(struct graph_named_attr));
    ps_init(&p.attrs, sizeof(const struct graph_attr *));
    ps_init(&p.tys, sizeof(const struct graph_type *));
    ps_init(&p.i64s, sizeof(int64_t));
    ps_init(&p.f64s, sizeof(double));
    ps_init(&p.regions, sizeof(struct graph_region));
    ps_init(&p.rnames, sizeof(struct result_name));
    ps_init(&p.argnames, sizeof(struct result_name));
    ps_init(&p.fixups, sizeof(struct loc_fixup));
    ps_init(&p.chains, sizeof(struct loc_chain_fix));
    ps_init(&p.resources, sizeof(struct pending_resource));
    ps_init(&p.tensors, sizeof(struct base_tensor *));
    ps_init(&p.blobs, sizeof(struct blob_entry));
    enum base_status st = BASE_OK;
    m->path = graph_pstrndup(&p, p.path, strlen(p.path));
    if (!m->path) st = BASE_ERR_NOMEM;
    if (st == BASE_OK) st = parse_top(&p);
    if (st == BASE_OK) st = resolve_fixups(&p);
    if (st == BASE_OK) st = resolve_chains(&p);
    if (st == BASE_OK) st = graph_resolve_resources(&p);
    if (st != BASE_OK) {
        if (diag && diag->status == BASE_OK) base_diag_set(diag, st, p.path, 0, 0, "%s", base_status_str(st));
        for (size_t i = 0; i < p.tensors.n; i++) base_tensor_release(*(struct base_tensor **)ps_at(&p.tensors, i));
        /* (entries already released are NULL; release(NULL) is a no-op) */
        parser_free(&p);
        base_arena_deinit(&m->arena);
        free(m);
        return st;
    }
    release_unreachable_tensors(&p);
    parser_free(&p);
    *out = m;
    return BASE_OK;
}

enum base_status graph_parse(const char *text, size_t len, const struct graph_parse_options *opt,
                             struct graph_module **out, struct base_diag *diag)
{
    return base_diag_ensure(diag, graph_parse_impl(text, len, opt, out, diag), opt && opt->path ? opt->path : "", "parsing");
}

enum base_status graph_parse_file(const char *path, struct graph_module **out, struct base_diag *diag)
{
    *out = NULL;
    char *text;
    size_t len;
    TRY(base_file_read(path, &text, &len, diag));
    struct graph_parse_options opt = {path, 0, 0, false};
    enum base_status st = graph_parse(text, len, &opt, out, diag);
    free(text);
    return st;
}
