/* MLIR bytecode: the Shardy (sdy) dialect's attribute encodings
 * (shardy/dialect/sdy/ir/bytecode.td: one leading varint code per kind;
 * nested sdy attributes are attribute references), which JAX exports carry
 * next to VHLO since StableHLO 1.11.  They need no legalization: each is
 * decoded straight to its MLIR spelling (chlo's two encoded attributes too,
 * at the end), kept both whole
 * (#sdy.sharding<@mesh, [{"x"}, {}]>) and stripped (<@mesh, [{"x"}, {}]>), as
 * sdy prints them inside one another. */
#include "graph/bytecode_internal.h"

#include <stdio.h>
#include <string.h>

struct sdy_text {
    struct sbuf saved;
};

static void begin(struct bc_ctx *c, struct sdy_text *t)
{
    t->saved = c->out;
    graph_print_buf_init(&c->out);
}

/* Ends the text; the whole form is prefix + inner. */
static enum base_status finish(struct bc_ctx *c, struct sdy_text *t, const char *prefix, struct bc_attr *a)
{
    bool oom = c->out.oom;
    const char *body = c->out.p ? c->out.p : "";
    size_t n = c->out.n, pl = strlen(prefix);
    char *inner = oom ? NULL : base_arena_strndup(&c->arena, body, n);
    char *whole = oom ? NULL : graph_bc_alloc(c, pl + n + 1);
    if (whole) {
        memcpy(whole, prefix, pl);
        memcpy(whole + pl, body, n);
        whole[pl + n] = 0;
    }
    graph_print_buf_free(&c->out);
    c->out = t->saved;
    if (!inner || !whole) return graph_bc_nomem(c);
    a->kind = BCA_TEXT;
    a->s = whole;
    a->len = pl + n;
    a->inner = inner;
    return BASE_OK;
}

static void put_inner(struct bc_ctx *c, const struct bc_attr *a)
{
    if (a->kind == BCA_TEXT && a->inner) graph_print_buf_puts(&c->out, a->inner);
    else graph_bc_print_attr(c, a);
}

/* Attribute references: count, then each. */
static enum base_status list(struct bc_ctx *c, struct bc_rd *r, const char *sep, bool inner)
{
    uint64_t n;
    TRY(graph_bc_count(c, r, 1, &n));
    for (uint64_t i = 0; i < n; i++) {
        const struct bc_attr *a;
        TRY(graph_bc_attr_ref(c, r, &a));
        if (i) graph_print_buf_puts(&c->out, sep);
        if (inner) put_inner(c, a);
        else graph_bc_print_attr(c, a);
    }
    return BASE_OK;
}

static enum base_status ints(struct bc_ctx *c, struct bc_rd *r, int64_t **v, uint64_t *n)
{
    TRY(graph_bc_count(c, r, 1, n));
    *v = graph_bc_alloc(c, (size_t)(*n ? *n : 1) * sizeof **v);
    if (!*v) return graph_bc_nomem(c);
    for (uint64_t i = 0; i < *n; i++) TRY(graph_bc_svarint(c, r, &(*v)[i]));
    return BASE_OK;
}

/* Factor i, j, ..., z, then z_1, z_2, ... */
static void factor(struct sbuf *s, int64_t f)
{
    if (f >= 0 && f <= 'z' - 'i') graph_print_buf_putc(s, (char)('i' + f));
    else graph_print_buf_printf(s, "z_%lld", (long long)(f - ('z' - 'i')));
}

static enum base_status factor_set(struct bc_ctx *c, struct bc_rd *r, const char *kw)
{
    int64_t *v;
    uint64_t n;
    TRY(ints(c, r, &v, &n));
    if (!n) return BASE_OK;
    graph_print_buf_printf(&c->out, " %s={", kw);
    for (uint64_t i = 0; i < n; i++) {
        if (i) graph_print_buf_puts(&c->out, ", ");
        factor(&c->out, v[i]);
    }
    graph_print_buf_putc(&c->out, '}');
    return BASE_OK;
}

static enum base_status body(struct bc_ctx *c, struct bc_rd *r, struct bc_rd *at, uint64_t code, const char **prefix)
{
    struct sbuf *s = &c->out;
    switch (code) {
    case 0: /* manual axes: {"a", "b"} */
        *prefix = "#sdy<manual_axes";
        graph_print_buf_putc(s, '{');
        TRY(list(c, r, ", ", false));
        graph_print_buf_putc(s, '}');
        return BASE_OK;
    case 1: { /* mesh axis: "a"=2 */
        struct bc_span name;
        int64_t size;
        *prefix = "#sdy.mesh_axis<";
        TRY(graph_bc_string(c, r, &name));
        TRY(graph_bc_svarint(c, r, &size));
        graph_print_string(s, (const char *)name.p, name.len);
        graph_print_buf_printf(s, "=%lld", (long long)size);
        return BASE_OK;
    }
    case 2: { /* mesh: <["a"=2], device_ids=[..]> */
        int64_t *ids;
        uint64_t n;
        *prefix = "#sdy.mesh";
        graph_print_buf_puts(s, "<[");
        TRY(list(c, r, ", ", true));
        graph_print_buf_putc(s, ']');
        TRY(ints(c, r, &ids, &n));
        if (n) {
            graph_print_buf_puts(s, ", device_ids=[");
            for (uint64_t i = 0; i < n; i++) graph_print_buf_printf(s, "%s%lld", i ? ", " : "", (long long)ids[i]);
            graph_print_buf_putc(s, ']');
        }
        graph_print_buf_putc(s, '>');
        return BASE_OK;
    }
    case 3: { /* sub-axis: (pre)size */
        int64_t pre, size;
        *prefix = "#sdy.sub_axis_info";
        TRY(graph_bc_svarint(c, r, &pre));
        TRY(graph_bc_svarint(c, r, &size));
        graph_print_buf_printf(s, "(%lld)%lld", (long long)pre, (long long)size);
        return BASE_OK;
    }
    case 4: { /* axis ref: "a" or "a":(1)2 */
        struct bc_span name;
        uint64_t idx;
        bool has;
        *prefix = "#sdy.axis_ref<";
        TRY(graph_bc_string(c, r, &name));
        struct bc_rd a2 = *r;
        TRY(graph_bc_varint(c, r, &idx));
        has = idx & 1;
        graph_print_string(s, (const char *)name.p, name.len);
        if (has) {
            const struct bc_attr *sub;
            TRY(graph_bc_attr_at(c, &a2, idx >> 1, &sub));
            graph_print_buf_putc(s, ':');
            put_inner(c, sub);
        }
        return BASE_OK;
    }
    case 5: { /* dimension sharding: {"a", ?}p1 */
        uint8_t closed;
        uint64_t prio;
        *prefix = "#sdy.dimension_sharding<";
        graph_print_buf_putc(s, '{');
        size_t before = s->n;
        TRY(list(c, r, ", ", true));
        TRY(graph_bc_byte(c, r, &closed));
        if (!closed) graph_print_buf_puts(s, s->n > before ? ", ?" : "?");
        graph_print_buf_putc(s, '}');
        TRY(graph_bc_varint(c, r, &prio));
        if (prio & 1) graph_print_buf_printf(s, "p%llu", (unsigned long long)(prio >> 1));
        return BASE_OK;
    }
    case 6: case 15: case 17: { /* tensor sharding */
        const struct bc_attr *mesh;
        *prefix = "#sdy.sharding";
        graph_print_buf_putc(s, '<');
        TRY(graph_bc_attr_ref(c, r, &mesh));
        if (mesh->kind == BCA_TEXT && mesh->inner && !strncmp(mesh->s, "#sdy.mesh<", 10)) {
            graph_print_buf_puts(s, "mesh");
            graph_print_buf_puts(s, mesh->inner);
        } else {
            graph_bc_print_attr(c, mesh);
        }
        graph_print_buf_puts(s, ", [");
        TRY(list(c, r, ", ", true));
        graph_print_buf_putc(s, ']');
        uint64_t n;
        struct bc_rd peek = *r;
        TRY(graph_bc_count(c, &peek, 1, &n));
        if (n) graph_print_buf_puts(s, ", replicated={");
        TRY(list(c, r, ", ", true));
        if (n) graph_print_buf_putc(s, '}');
        if (code != 6) { /* unreduced axes [, reduction op] */
            struct sbuf outer = c->out;
            graph_print_buf_init(&c->out);
            peek = *r;
            enum base_status st = graph_bc_count(c, &peek, 1, &n);
            if (st == BASE_OK) st = list(c, r, ", ", true);
            int64_t op = 0;
            if (st == BASE_OK && code == 17) st = graph_bc_svarint(c, r, &op);
            struct sbuf un = c->out;
            c->out = outer;
            s = &c->out;
            if (st == BASE_OK && n) {
                graph_print_buf_puts(s, ", unreduced=");
                if (op == 1) graph_print_buf_puts(s, "max");
                if (op == 2) graph_print_buf_puts(s, "min");
                graph_print_buf_putc(s, '{');
                graph_print_buf_putn(s, un.p ? un.p : "", un.n);
                graph_print_buf_putc(s, '}');
            }
            graph_print_buf_free(&un);
            if (st != BASE_OK) return st;
        }
        graph_print_buf_putc(s, '>');
        return BASE_OK;
    }
    case 7: case 16: /* per value: <[<@mesh, ...>, ...]> */
        *prefix = "#sdy.sharding_per_value";
        graph_print_buf_puts(s, "<[");
        TRY(list(c, r, ", ", true));
        graph_print_buf_puts(s, "]>");
        return BASE_OK;
    case 8: { /* dim mapping: factors run together */
        int64_t *v;
        uint64_t n;
        *prefix = "#sdy.dim_mapping<";
        TRY(ints(c, r, &v, &n));
        for (uint64_t i = 0; i < n; i++) factor(s, v[i]);
        return BASE_OK;
    }
    case 9: /* tensor mapping: [i, jk] */
        *prefix = "#sdy.tensor_mapping";
        graph_print_buf_putc(s, '[');
        TRY(list(c, r, ", ", true));
        graph_print_buf_putc(s, ']');
        return BASE_OK;
    case 10: { /* op sharding rule */
        int64_t *sizes;
        uint64_t n;
        uint8_t custom;
        *prefix = "#sdy.op_sharding_rule";
        TRY(ints(c, r, &sizes, &n));
        graph_print_buf_puts(s, "<(");
        TRY(list(c, r, ", ", true));
        graph_print_buf_puts(s, ")->(");
        TRY(list(c, r, ", ", true));
        graph_print_buf_putc(s, ')');
        if (n) {
            graph_print_buf_puts(s, " {");
            for (uint64_t i = 0; i < n; i++) {
                if (i) graph_print_buf_puts(s, ", ");
                factor(s, (int64_t)i);
                graph_print_buf_printf(s, "=%lld", (long long)sizes[i]);
            }
            graph_print_buf_putc(s, '}');
        }
        TRY(factor_set(c, r, "reduction"));
        TRY(factor_set(c, r, "need_replication"));
        TRY(factor_set(c, r, "permutation"));
        TRY(factor_set(c, r, "blocked_propagation"));
        TRY(graph_bc_byte(c, r, &custom));
        if (custom) graph_print_buf_puts(s, ", custom");
        graph_print_buf_putc(s, '>');
        return BASE_OK;
    }
    case 11: /* axis ref list: {"a", "b"} */
        *prefix = "#sdy.axis_ref_list";
        graph_print_buf_putc(s, '{');
        TRY(list(c, r, ", ", true));
        graph_print_buf_putc(s, '}');
        return BASE_OK;
    case 12:
        *prefix = "#sdy.list_of_axis_ref_lists";
        graph_print_buf_puts(s, "<[");
        TRY(list(c, r, ", ", true));
        graph_print_buf_puts(s, "]>");
        return BASE_OK;
    case 13: { /* all-to-all param */
        int64_t src, tgt;
        *prefix = "#sdy.all_to_all_param";
        graph_print_buf_puts(s, "<{");
        TRY(list(c, r, ", ", true));
        TRY(graph_bc_svarint(c, r, &src));
        TRY(graph_bc_svarint(c, r, &tgt));
        graph_print_buf_printf(s, "}: %lld->%lld>", (long long)src, (long long)tgt);
        return BASE_OK;
    }
    case 14:
        *prefix = "#sdy.all_to_all_param_list";
        graph_print_buf_puts(s, "<[");
        TRY(list(c, r, ", ", true));
        graph_print_buf_puts(s, "]>");
        return BASE_OK;
    default:
        return graph_bc_fail(c, at, BASE_ERR_UNSUPPORTED, "sdy attribute code %llu is not known",
                             (unsigned long long)code);
    }
}

enum base_status graph_bc_sdy_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out)
{
    struct bc_rd at = *r;
    uint64_t code;
    TRY(graph_bc_varint(c, r, &code));
    struct bc_attr *a = graph_bc_alloc(c, sizeof *a);
    if (!a) return graph_bc_nomem(c);
    memset(a, 0, sizeof *a);
    struct sdy_text t;
    begin(c, &t);
    const char *prefix = "";
    enum base_status st = body(c, r, &at, code, &prefix);
    if (st != BASE_OK) {
        graph_print_buf_free(&c->out);
        c->out = t.saved;
        return st;
    }
    TRY(finish(c, &t, prefix, a));
    /* the forms whose whole spelling closes with a '>' of its own */
    if (prefix[strlen(prefix) - 1] == '<' || code == 0) {
        char *w = graph_bc_alloc(c, a->len + 2);
        if (!w) return graph_bc_nomem(c);
        memcpy(w, a->s, a->len);
        w[a->len] = '>';
        w[a->len + 1] = 0;
        a->s = w;
        a->len++;
    }
    *out = a;
    return BASE_OK;
}

/* chlo (stablehlo/dialect/ChloBytecode.cpp): 0 comparison direction, 1
 * comparison type, each an enum varint. */
enum base_status graph_bc_chlo_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out)
{
    static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    static const char *const types[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
    struct bc_rd at = *r;
    uint64_t code, v;
    TRY(graph_bc_varint(c, r, &code));
    if (code > 1) return graph_bc_fail(c, &at, BASE_ERR_UNSUPPORTED, "chlo attribute code %llu is not known", (unsigned long long)code);
    TRY(graph_bc_varint(c, r, &v));
    if (v >= (code ? 5u : 6u)) return graph_bc_fail(c, &at, BASE_ERR_PARSE, "chlo enum value %llu out of range", (unsigned long long)v);
    struct bc_attr *a = graph_bc_alloc(c, sizeof *a);
    if (!a) return graph_bc_nomem(c);
    memset(a, 0, sizeof *a);
    char buf[64];
    snprintf(buf, sizeof buf, "#chlo<%s %s>", code ? "comparison_type" : "comparison_direction", code ? types[v] : dirs[v]);
    a->kind = BCA_TEXT;
    a->s = base_arena_strdup(&c->arena, buf);
    if (!a->s) return graph_bc_nomem(c);
    a->len = strlen(a->s);
    *out = a;
    return BASE_OK;
}
