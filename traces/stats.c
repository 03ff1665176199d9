/* `npusim trace stats`: per-lane busy time and the top ops by time. */
#include "traces/trc_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static int op_cmp(const void *a, const void *b)
{
    const struct trc_op_stats *x = a, *y = b;
    if (x->busy_ps != y->busy_ps) return x->busy_ps > y->busy_ps ? -1 : 1;
    const uint32_t kx[5] = {x->kind, x->loc, x->op, x->src, x->kernel}, ky[5] = {y->kind, y->loc, y->op, y->src, y->kernel};
    for (int i = 0; i < 5; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

/* The ops entries by (kind, op, loc, src, kernel): open addressing. */
struct op_table {
    struct trc_op_stats *v;
    size_t n, cap;
    uint32_t *slot; /* entry + 1 */
    size_t n_slots;
};

static uint32_t op_hash(const struct trc_op_stats *k)
{
    uint32_t h = 2166136261u;
    const uint32_t f[5] = {k->kind, k->op, k->loc, k->src, k->kernel};
    for (int i = 0; i < 5; i++) h = (h ^ f[i]) * 16777619u;
    return h;
}

static bool op_same(const struct trc_op_stats *a, const struct trc_op_stats *b)
{
    return a->kind == b->kind && a->op == b->op && a->loc == b->loc && a->src == b->src && a->kernel == b->kernel;
}

static struct trc_op_stats *op_entry(struct op_table *t, const struct trc_op_stats *key)
{
    if ((t->n + 1) * 2 > t->n_slots) {
        size_t ns = t->n_slots ? t->n_slots * 2 : 256;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) return NULL;
        for (size_t i = 0; i < t->n; i++) {
            size_t j = op_hash(&t->v[i]) & (ns - 1);
            while (sl[j]) j = (j + 1) & (ns - 1);
            sl[j] = (uint32_t)i + 1;
        }
        free(t->slot);
        t->slot = sl;
        t->n_slots = ns;
    }
    size_t j = op_hash(key) & (t->n_slots - 1);
    while (t->slot[j]) {
        struct trc_op_stats *e = &t->v[t->slot[j] - 1];
        if (op_same(e, key)) return e;
        j = (j + 1) & (t->n_slots - 1);
    }
    if (!base_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v)) return NULL;
    t->v[t->n] = *key;
    t->slot[j] = (uint32_t)++t->n;
    return &t->v[t->n - 1];
}

enum base_status trc_stats_compute(const struct trc_trace *t, struct trc_stats *out)
{
    memset(out, 0, sizeof *out);
    out->end_ps = t->end_ps;
    out->n_flows = t->n_flows;
    out->lanes = calloc(t->n_lanes ? t->n_lanes : 1, sizeof *out->lanes);
    struct op_table ot;
    memset(&ot, 0, sizeof ot);
    if (!out->lanes) return BASE_ERR_NOMEM;
    out->n_lanes = t->n_lanes;
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        struct trc_lane_stats *ls = &out->lanes[i];
        ls->lane = i;
        ls->slices = l->n_slices;
        out->n_slices += l->n_slices;
        out->n_samples += l->n_samples;
        for (size_t k = 0; k < l->n_slices; k++) {
            const struct trc_slice *s = &l->slices[k];
            if (s->kind == TRC_SLICE_WAIT) {
                ls->wait_ps += s->dur_ps;
                continue;
            }
            ls->busy_ps += s->dur_ps;
            ls->bytes += s->bytes;
            ls->flops += s->flops;
            if (s->kind == TRC_SLICE_COLLECTIVE) ls->wait_ps += s->b < s->dur_ps ? s->b : s->dur_ps; /* exposed */
            /* the ops entries are engine time, and each kernel's launches
             * apart (kind 1): gaps, collectives and links would count it twice */
            if (s->kind == TRC_SLICE_DISPATCH || s->kind == TRC_SLICE_COLLECTIVE || s->kind == TRC_SLICE_LINK) continue;
            /* one graph op = one location; without one, the op or instruction name */
            struct trc_op_stats key;
            memset(&key, 0, sizeof key);
            key.kind = s->kind == TRC_SLICE_KERNEL;
            key.op = s->op ? s->op : s->name;
            key.loc = s->loc;
            key.src = s->src;
            key.kernel = s->kernel;
            struct trc_op_stats *o = op_entry(&ot, &key);
            if (!o) {
                free(ot.v);
                free(ot.slot);
                trc_stats_free(out);
                return BASE_ERR_NOMEM;
            }
            o->busy_ps += s->dur_ps;
            o->slices++;
            o->bytes += s->bytes;
            o->flops += s->flops;
        }
    }
    free(ot.slot);
    /* by busy time, descending; ties by kind, location, name, chain and kernel ids (a total order: deterministic) */
    if (ot.n) qsort(ot.v, ot.n, sizeof *ot.v, op_cmp);
    out->ops = ot.v;
    out->n_ops = ot.n;
    return BASE_OK;
}

/* ------------------------------------------------------------- groups */

static const char *const group_names[] = {
#define X(e, name) name,
    TRC_GROUPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(group_names) == TRC_GROUP_COUNT, "group names");

const char *trc_group_name(enum trc_group g) { return (unsigned)g < TRC_GROUP_COUNT ? group_names[g] : "?"; }

bool trc_group_lookup(const char *name, enum trc_group *out)
{
    for (unsigned i = 0; i < TRC_GROUP_COUNT; i++)
        if (!strcmp(name, group_names[i])) {
            *out = (enum trc_group)i;
            return true;
        }
    return false;
}

/* "file:line" of the first "file:line:col" in s (its frames: docs/traces.md
 * "Locations"); false when there is none. */
static bool first_position(const char *s, char *buf, size_t cap)
{
    for (const char *p = s; *p; p++) {
        if (*p != ':' || !isdigit((unsigned char)p[1])) continue;
        const char *q = p + 1;
        while (isdigit((unsigned char)*q)) q++;
        if (*q != ':' || !isdigit((unsigned char)q[1])) continue;
        const char *e = q + 1;
        while (isdigit((unsigned char)*e)) e++;
        if (*e && *e != ')' && *e != ' ' && *e != ',') continue;
        const char *f = p; /* the file: back to a space or '(' */
        while (f > s && f[-1] != ' ' && f[-1] != '(') f--;
        if (f == p) continue;
        snprintf(buf, cap, "%.*s", (int)(q - f), f);
        return true;
    }
    return false;
}

const char *trc_source_line(const char *src, const char *loc, char *buf, size_t cap)
{
    if (cap) buf[0] = 0;
    if (src && *src && first_position(src, buf, cap)) return buf;
    if (loc && *loc && first_position(loc, buf, cap)) return buf;
    return buf;
}

static void row_key(const struct trc_op_stats *o, enum trc_group by, const char *(*str)(const void *, uint32_t),
                    const void *strs, char *key, size_t cap)
{
    char line[TRC_KEY_MAX];
    switch (by) {
    case TRC_GROUP_OP:
        snprintf(key, cap, "%s%s%s", str(strs, o->op), o->loc ? "  " : "", o->loc ? str(strs, o->loc) : "");
        break;
    case TRC_GROUP_KIND: snprintf(key, cap, "%s", str(strs, o->op)); break;
    case TRC_GROUP_KERNEL: snprintf(key, cap, "%s", o->kernel ? str(strs, o->kernel) : "(no kernel)"); break;
    default:
        trc_source_line(str(strs, o->src), str(strs, o->loc), line, sizeof line);
        snprintf(key, cap, "%s", line[0] ? line : "(no location)");
        break;
    }
}

static int row_cmp(const void *a, const void *b)
{
    const struct trc_group_row *x = a, *y = b;
    if (x->time_ps != y->time_ps) return x->time_ps > y->time_ps ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

enum base_status trc_groups_make(const struct trc_op_stats *ops, size_t n, enum trc_group by,
                                 const char *(*str)(const void *strs, uint32_t id), const void *strs,
                                 struct trc_groups *out)
{
    memset(out, 0, sizeof *out);
    out->by = by;
    /* each entry's key; entries sorted by key gather each group */
    char **keys = calloc(n ? n : 1, sizeof *keys);
    struct trc_group_row *rows = calloc(n ? n : 1, sizeof *rows);
    if (!keys || !rows) {
        free(keys);
        free(rows);
        return BASE_ERR_NOMEM;
    }
    /* keys[i] points at a buffer that starts with the key, then the entry index */
    char *store = malloc((n ? n : 1) * (TRC_KEY_MAX + sizeof(size_t)));
    if (!store) {
        free(keys);
        free(rows);
        return BASE_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        keys[i] = store + i * (TRC_KEY_MAX + sizeof(size_t));
        row_key(&ops[i], by, str, strs, keys[i], TRC_KEY_MAX);
        memcpy(keys[i] + TRC_KEY_MAX, &i, sizeof i);
    }
    /* kernel wall time per kernel name, for every row */
    if (n) qsort(keys, n, sizeof *keys, str_cmp);
    size_t nr = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        struct trc_group_row *r = &rows[nr++];
        snprintf(r->key, sizeof r->key, "%s", keys[i]);
        uint64_t best = 0;
        bool have = false;
        for (; j < n && !strcmp(keys[j], keys[i]); j++) {
            size_t e;
            memcpy(&e, keys[j] + TRC_KEY_MAX, sizeof e);
            const struct trc_op_stats *o = &ops[e];
            if (o->kind == 1) {
                r->kernel_ps += o->busy_ps;
                r->launches += o->slices;
                if (!have) r->kernel = o->kernel, r->op = o->op, r->loc = o->loc, r->src = o->src;
                continue;
            }
            r->busy_ps += o->busy_ps;
            r->slices += o->slices;
            r->bytes += o->bytes;
            r->flops += o->flops;
            if (!have || o->busy_ps > best) {
                best = o->busy_ps;
                have = true;
                r->op = o->op, r->loc = o->loc, r->src = o->src, r->kernel = o->kernel;
            }
        }
        i = j;
    }
    /* distinct ops per row: (op, loc) pairs of its engine entries */
    for (size_t k = 0; k < nr; k++) {
        struct trc_group_row *r = &rows[k];
        r->time_ps = by == TRC_GROUP_KERNEL ? r->kernel_ps : r->busy_ps;
    }
    {
        struct pair {
            size_t row;
            uint32_t op, loc;
        } *pr = malloc((n ? n : 1) * sizeof *pr);
        if (!pr) {
            free(store);
            free(keys);
            free(rows);
            return BASE_ERR_NOMEM;
        }
        size_t np = 0, row = 0;
        for (size_t i = 0; i < n; i++) {
            if (i && strcmp(keys[i], keys[i - 1])) row++;
            size_t e;
            memcpy(&e, keys[i] + TRC_KEY_MAX, sizeof e);
            if (ops[e].kind == 1) continue;
            bool seen = false;
            for (size_t q = np; q > 0 && pr[q - 1].row == row && !seen; q--)
                seen = pr[q - 1].op == ops[e].op && pr[q - 1].loc == ops[e].loc;
            if (seen) continue;
            pr[np++] = (struct pair){row, ops[e].op, ops[e].loc};
            rows[row].n_ops++;
        }
        free(pr);
    }
    free(store);
    free(keys);
    /* rows with no time at all (kernel entries only, grouped by op) are dropped */
    size_t m = 0;
    for (size_t k = 0; k < nr; k++)
        if (rows[k].time_ps || rows[k].slices || rows[k].launches) rows[m++] = rows[k];
    if (by != TRC_GROUP_KERNEL) { /* kernel entries only count in kernel rows */
        size_t w = 0;
        for (size_t k = 0; k < m; k++)
            if (rows[k].slices) rows[w++] = rows[k];
        m = w;
    }
    if (m) qsort(rows, m, sizeof *rows, row_cmp);
    for (size_t k = 0; k < m; k++) {
        out->total_ps += rows[k].time_ps;
        out->total_busy_ps += rows[k].busy_ps;
        out->total_kernel_ps += rows[k].kernel_ps;
    }
    out->rows = rows;
    out->n = m;
    return BASE_OK;
}

static const char *trace_str_id(const void *p, uint32_t id) { return trc_trace_string(p, id); }
static const char *file_str_id(const void *p, uint32_t id) { return trc_file_string(p, id); }

enum base_status trc_trace_groups(const struct trc_trace *t, const struct trc_stats *s, enum trc_group by,
                                  struct trc_groups *out)
{
    return trc_groups_make(s->ops, s->n_ops, by, trace_str_id, t, out);
}

enum base_status trc_file_groups(struct trc_file *f, enum trc_group by, struct trc_groups *out, struct base_diag *diag)
{
    const struct trc_op_stats *ops;
    size_t n;
    memset(out, 0, sizeof *out);
    TRY(trc_file_ops(f, &ops, &n, diag));
    enum base_status st = trc_groups_make(ops, n, by, file_str_id, f, out);
    if (st != BASE_OK) return base_diag_set(diag, st, NULL, 0, 0, "out of memory");
    return BASE_OK;
}

void trc_groups_free(struct trc_groups *g)
{
    free(g->rows);
    memset(g, 0, sizeof *g);
}

static int diff_cmp(const void *a, const void *b)
{
    const struct trc_diff_row *x = a, *y = b;
    uint64_t dx = x->delta_ps < 0 ? (uint64_t)0 - (uint64_t)x->delta_ps : (uint64_t)x->delta_ps;
    uint64_t dy = y->delta_ps < 0 ? (uint64_t)0 - (uint64_t)y->delta_ps : (uint64_t)y->delta_ps;
    if (dx != dy) return dx > dy ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int row_ptr_cmp(const void *a, const void *b)
{
    return strcmp((*(const struct trc_group_row *const *)a)->key, (*(const struct trc_group_row *const *)b)->key);
}

enum base_status trc_groups_diff(const struct trc_groups *a, const struct trc_groups *b, struct trc_diff_row **rows,
                                 size_t *n)
{
    *rows = NULL;
    *n = 0;
    const struct trc_group_row **pa = malloc((a->n + 1) * sizeof *pa), **pb = malloc((b->n + 1) * sizeof *pb);
    struct trc_diff_row *d = calloc(a->n + b->n + 1, sizeof *d);
    if (!pa || !pb || !d) {
        free(pa);
        free(pb);
        free(d);
        return BASE_ERR_NOMEM;
    }
    for (size_t i = 0; i < a->n; i++) pa[i] = &a->rows[i];
    for (size_t i = 0; i < b->n; i++) pb[i] = &b->rows[i];
    if (a->n) qsort(pa, a->n, sizeof *pa, row_ptr_cmp);
    if (b->n) qsort(pb, b->n, sizeof *pb, row_ptr_cmp);
    size_t i = 0, j = 0, m = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(pa[i]->key, pb[j]->key);
        struct trc_diff_row *r = &d[m++];
        r->a_row = r->b_row = SIZE_MAX;
        if (c <= 0) {
            r->a_row = (size_t)(pa[i++] - a->rows);
            r->a_ps = a->rows[r->a_row].time_ps;
            snprintf(r->key, sizeof r->key, "%s", a->rows[r->a_row].key);
        }
        if (c >= 0) {
            r->b_row = (size_t)(pb[j++] - b->rows);
            r->b_ps = b->rows[r->b_row].time_ps;
            snprintf(r->key, sizeof r->key, "%s", b->rows[r->b_row].key);
        }
        r->delta_ps = (int64_t)r->b_ps - (int64_t)r->a_ps;
    }
    free(pa);
    free(pb);
    if (m) qsort(d, m, sizeof *d, diff_cmp);
    *rows = d;
    *n = m;
    return BASE_OK;
}

void trc_stats_free(struct trc_stats *s)
{
    free(s->lanes);
    free(s->ops);
    memset(s, 0, sizeof *s);
}

/* The text, for an in-memory trace or an open file. */
struct src {
    const void *p;
    const struct trc_lane *(*lane)(const void *p, uint32_t i);
    const char *(*str_id)(const void *p, uint32_t id);
    const struct trc_meta_kv *meta;
    size_t n_meta;
};

/* A lane's name, "chipN " first when the trace has several chips. */
static const char *lane_label(const struct src *x, uint32_t n_lanes, const struct trc_lane *ln, char *buf, size_t cap)
{
    bool multi = false;
    for (uint32_t i = 0; i < n_lanes && !multi; i++) multi = x->lane(x->p, i)->chip != 0;
    if (!multi) return ln->name;
    snprintf(buf, cap, "chip%u %s", ln->chip, ln->name);
    return buf;
}

static const char *meta_of(const struct src *x, const char *key)
{
    for (size_t i = 0; i < x->n_meta; i++)
        if (!strcmp(x->meta[i].key, key)) return x->meta[i].value;
    return NULL;
}

/* The collectives and the links chip 0 sends on: busy time, bytes, the
 * mean rate while busy and, for links, its share of the link's bandwidth. */
static void write_links(const struct src *x, const struct trc_stats *s, FILE *f)
{
    bool any = false;
    for (uint32_t i = 0; i < s->n_lanes; i++) {
        const struct trc_lane_stats *l = &s->lanes[i];
        const struct trc_lane *ln = x->lane(x->p, i);
        if ((ln->kind != TRC_LANE_COLLECTIVE && ln->kind != TRC_LANE_LINK) || !l->slices) continue;
        if (!any) {
            const char *topo = meta_of(x, "topology");
            fprintf(f, "\ncollectives and links%s%s (links: what each collective moved over the chip's outgoing links,\n"
                       "from the interconnect model; GB/s = bytes / busy time; exposed = the time the chip waited):\n",
                    topo ? " on " : "", topo ? topo : "");
            fprintf(f, "%-20s %10s %12s %12s %12s %10s %8s\n", "lane", "slices", "busy us", "exposed us", "MB", "GB/s",
                    "util %");
            any = true;
        }
        double gbps = l->busy_ps ? (double)l->bytes / (double)l->busy_ps * 1000.0 : 0.0;
        char key[80], util[16] = "-", exposed[24] = "-";
        snprintf(key, sizeof key, "gbps.%s", ln->name);
        const char *bw = ln->kind == TRC_LANE_LINK ? meta_of(x, key) : NULL;
        double b = bw ? strtod(bw, NULL) : 0.0;
        if (b > 0) snprintf(util, sizeof util, "%.1f", 100.0 * gbps / b);
        if (ln->kind == TRC_LANE_COLLECTIVE) snprintf(exposed, sizeof exposed, "%.3f", (double)l->wait_ps * 1e-6);
        char lb[80];
        fprintf(f, "%-20s %10llu %12.3f %12s %12.3f %10.3f %8s\n", lane_label(x, s->n_lanes, ln, lb, sizeof lb),
                (unsigned long long)l->slices,
                (double)l->busy_ps * 1e-6, exposed, (double)l->bytes * 1e-6, gbps, util);
    }
}

static const char *short_op(const char *op) { return strncmp(op, "stablehlo.", 10) == 0 ? op + 10 : op; }

/* s in at most w columns: its tail, "..." first, when longer (a source path's end is what tells lines apart). */
static const char *fit(const char *s, size_t w, char *buf, size_t cap)
{
    size_t n = strlen(s);
    if (n <= w || w < 4) return s;
    snprintf(buf, cap, "...%s", s + n - (w - 3));
    return buf;
}

/* The top-ops table grouped by `by`, with a total line and shares. */
static void write_groups(const struct src *x, const struct trc_stats *s, size_t n_top, enum trc_group by, FILE *f)
{
    struct trc_groups g;
    if (trc_groups_make(s->ops, s->n_ops, by, x->str_id, x->p, &g) != BASE_OK) {
        fprintf(f, "\ntop ops: out of memory\n");
        return;
    }
    static const char *const what[TRC_GROUP_COUNT] = {"graph op (name and location)", "op kind (every op of a name)",
                                                      "kernel", "source line (the first file:line of the location chain)"};
    fprintf(f, "\ntop ops by engine time, by %s (busy time summed over engines and DMA queues%s):\n", what[by],
            by == TRC_GROUP_KERNEL ? "; wall = the kernel's launches, start to end" : "");
    const char *col = by == TRC_GROUP_OP ? "op" : by == TRC_GROUP_KIND ? "kind" : by == TRC_GROUP_KERNEL ? "kernel" : "source";
    if (by == TRC_GROUP_KERNEL)
        fprintf(f, "%4s  %-36s %9s %12s %7s %12s %7s %10s %12s %12s\n", "#", col, "launches", "wall us", "%", "busy us",
                "%", "slices", "MB", "GFLOP");
    else
        fprintf(f, "%4s  %-36s %12s %7s %10s %12s %12s %5s  %s\n", "#", col, "busy us", "%", "slices", "MB", "GFLOP",
                "ops", by == TRC_GROUP_SOURCE ? "busiest op" : by == TRC_GROUP_OP ? "location" : "");
    uint64_t slices = 0, bytes = 0, flops = 0, launches = 0;
    for (size_t i = 0; i < g.n; i++) {
        slices += g.rows[i].slices;
        bytes += g.rows[i].bytes;
        flops += g.rows[i].flops;
        launches += g.rows[i].launches;
    }
    for (size_t i = 0; i < g.n && i < n_top; i++) {
        const struct trc_group_row *r = &g.rows[i];
        double busy_pct = g.total_busy_ps ? 100.0 * (double)r->busy_ps / (double)g.total_busy_ps : 0.0;
        if (by == TRC_GROUP_KERNEL) {
            char cut[64];
            fprintf(f, "%4zu  %-36s %9llu %12.3f %6.2f%% %12.3f %6.2f%% %10llu %12.3f %12.4f\n", i + 1,
                    fit(r->key, 36, cut, sizeof cut),
                    (unsigned long long)r->launches, (double)r->kernel_ps * 1e-6,
                    g.total_kernel_ps ? 100.0 * (double)r->kernel_ps / (double)g.total_kernel_ps : 0.0,
                    (double)r->busy_ps * 1e-6, busy_pct, (unsigned long long)r->slices, (double)r->bytes * 1e-6,
                    (double)r->flops * 1e-9);
            continue;
        }
        char name[TRC_KEY_MAX], where[1200], cut[64];
        const char *loc = x->str_id(x->p, r->loc), *chain = x->str_id(x->p, r->src);
        if (by == TRC_GROUP_OP) snprintf(name, sizeof name, "%s", short_op(x->str_id(x->p, r->op)));
        else snprintf(name, sizeof name, "%s", by == TRC_GROUP_KIND ? short_op(r->key) : r->key);
        if (by == TRC_GROUP_OP) snprintf(where, sizeof where, "%s%s%s", loc, *chain ? "  " : "", chain);
        else if (by == TRC_GROUP_SOURCE)
            snprintf(where, sizeof where, "%s %s%s%s", short_op(x->str_id(x->p, r->op)), loc, *chain ? "  " : "", chain);
        else where[0] = 0;
        fprintf(f, "%4zu  %-36s %12.3f %6.2f%% %10llu %12.3f %12.4f %5u  %s\n", i + 1, fit(name, 36, cut, sizeof cut),
                (double)r->busy_ps * 1e-6,
                busy_pct, (unsigned long long)r->slices, (double)r->bytes * 1e-6, (double)r->flops * 1e-9, r->n_ops, where);
    }
    if (g.n > n_top) fprintf(f, "%4s  (%zu more)\n", "", g.n - n_top);
    if (by == TRC_GROUP_KERNEL)
        fprintf(f, "%4s  %-36s %9llu %12.3f %6.2f%% %12.3f %6.2f%% %10llu %12.3f %12.4f\n", "", "total",
                (unsigned long long)launches, (double)g.total_kernel_ps * 1e-6, g.total_kernel_ps ? 100.0 : 0.0,
                (double)g.total_busy_ps * 1e-6, g.total_busy_ps ? 100.0 : 0.0, (unsigned long long)slices,
                (double)bytes * 1e-6, (double)flops * 1e-9);
    else
        fprintf(f, "%4s  %-36s %12.3f %6.2f%% %10llu %12.3f %12.4f  (%zu %s)\n", "", "total", (double)g.total_busy_ps * 1e-6,
                g.total_busy_ps ? 100.0 : 0.0, (unsigned long long)slices, (double)bytes * 1e-6, (double)flops * 1e-9, g.n,
                by == TRC_GROUP_OP ? "ops" : by == TRC_GROUP_KIND ? "kinds" : "source lines");
    trc_groups_free(&g);
}

static void write_text(const struct src *x, const struct trc_stats *s, size_t n_top, enum trc_group by, FILE *f)
{
    fprintf(f, "trace:");
    for (size_t i = 0; i < x->n_meta; i++) fprintf(f, " %s=%s", x->meta[i].key, x->meta[i].value);
    fprintf(f, "\n%.3f us simulated, %u lanes, %llu slices, %llu counter samples, %llu flows\n", (double)s->end_ps * 1e-6,
            s->n_lanes, (unsigned long long)s->n_slices, (unsigned long long)s->n_samples, (unsigned long long)s->n_flows);
    fprintf(f, "\n%-20s %10s %12s %7s %12s %12s %12s\n", "lane", "slices", "busy us", "busy %", "wait us", "MB", "GFLOP");
    for (uint32_t i = 0; i < s->n_lanes; i++) {
        const struct trc_lane_stats *l = &s->lanes[i];
        const struct trc_lane *ln = x->lane(x->p, i);
        if (ln->kind == TRC_LANE_COUNTER || !l->slices) continue;
        char lb[80];
        fprintf(f, "%-20s %10llu %12.3f %6.2f%% %12.3f %12.3f %12.4f\n", lane_label(x, s->n_lanes, ln, lb, sizeof lb),
                (unsigned long long)l->slices,
                (double)l->busy_ps * 1e-6, s->end_ps ? 100.0 * (double)l->busy_ps / (double)s->end_ps : 0.0,
                (double)l->wait_ps * 1e-6, (double)l->bytes * 1e-6, (double)l->flops * 1e-9);
    }
    write_links(x, s, f);
    write_groups(x, s, n_top, by, f);
}

static const struct trc_lane *trace_lane(const void *p, uint32_t i) { return &((const struct trc_trace *)p)->lanes[i].lane; }
static const char *trace_str(const void *p, uint32_t id) { return trc_trace_string(p, id); }
static const struct trc_lane *file_lane(const void *p, uint32_t i) { return trc_file_lane(p, i); }
static const char *file_str(const void *p, uint32_t id) { return trc_file_string(p, id); }

void trc_stats_write_text(const struct trc_trace *t, const struct trc_stats *s, size_t n_top, enum trc_group by, FILE *f)
{
    struct src x = {t, trace_lane, trace_str, t->meta, t->n_meta};
    write_text(&x, s, n_top, by, f);
}

void trc_file_stats_write_text(const struct trc_file *f, const struct trc_stats *s, size_t n_top, enum trc_group by,
                               FILE *out)
{
    struct src x = {f, file_lane, file_str, trc_file_n_meta(f) ? trc_file_meta_at(f, 0) : NULL, trc_file_n_meta(f)};
    write_text(&x, s, n_top, by, out);
}
