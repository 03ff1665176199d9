/* `npusim trace stats`: per-lane busy time and the top ops by time. */
#include "traces/trc_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int op_cmp(const void *a, const void *b)
{
    const struct trc_op_stats *x = a, *y = b;
    if (x->busy_ps != y->busy_ps) return x->busy_ps > y->busy_ps ? -1 : 1;
    if (x->loc != y->loc) return x->loc < y->loc ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

enum base_status trc_stats_compute(const struct trc_trace *t, struct trc_stats *out)
{
    memset(out, 0, sizeof *out);
    out->end_ps = t->end_ps;
    out->n_flows = t->n_flows;
    out->lanes = calloc(t->n_lanes ? t->n_lanes : 1, sizeof *out->lanes);
    struct trc_op_stats *by = calloc(t->strings.n ? t->strings.n : 1, sizeof *by);
    if (!out->lanes || !by) {
        free(by);
        trc_stats_free(out);
        return BASE_ERR_NOMEM;
    }
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
            /* the ops table is engine time: kernels, gaps, collectives and links would count it twice */
            if (s->kind == TRC_SLICE_KERNEL || s->kind == TRC_SLICE_DISPATCH || s->kind == TRC_SLICE_COLLECTIVE ||
                s->kind == TRC_SLICE_LINK)
                continue;
            /* one graph op = one location; without one, the op or instruction name */
            uint32_t id = s->op && s->loc ? s->loc : s->op ? s->op : s->name;
            if (id >= t->strings.n) continue;
            struct trc_op_stats *o = &by[id];
            o->loc = s->loc;
            o->op = s->op ? s->op : s->name;
            o->busy_ps += s->dur_ps;
            o->slices++;
            o->bytes += s->bytes;
            o->flops += s->flops;
        }
    }
    size_t n = 0;
    for (uint32_t i = 0; i < t->strings.n; i++)
        if (by[i].slices) by[n++] = by[i];
    /* by busy time, descending; ties by location and name ids (a total order: deterministic) */
    qsort(by, n, sizeof *by, op_cmp);
    out->ops = by;
    out->n_ops = n;
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
    const char *(*str)(const void *p, uint32_t id);
    const struct trc_meta_kv *meta;
    size_t n_meta;
};

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
        fprintf(f, "%-20s %10llu %12.3f %12s %12.3f %10.3f %8s\n", ln->name, (unsigned long long)l->slices,
                (double)l->busy_ps * 1e-6, exposed, (double)l->bytes * 1e-6, gbps, util);
    }
}

static void write_text(const struct src *x, const struct trc_stats *s, size_t n_top, FILE *f)
{
    fprintf(f, "trace:");
    for (size_t i = 0; i < x->n_meta; i++) fprintf(f, " %s=%s", x->meta[i].key, x->meta[i].value);
    fprintf(f, "\n%.3f us simulated, %u lanes, %llu slices, %llu counter samples, %llu flows\n", (double)s->end_ps * 1e-6,
            s->n_lanes, (unsigned long long)s->n_slices, (unsigned long long)s->n_samples, (unsigned long long)s->n_flows);
    fprintf(f, "\n%-20s %10s %12s %7s %12s %12s %12s\n", "lane", "slices", "busy us", "busy %", "wait us", "MB", "GFLOP");
    uint64_t total_busy = 0;
    for (uint32_t i = 0; i < s->n_lanes; i++) {
        const struct trc_lane_stats *l = &s->lanes[i];
        const struct trc_lane *ln = x->lane(x->p, i);
        if (ln->kind == TRC_LANE_COUNTER || !l->slices) continue;
        if (ln->kind == TRC_LANE_ENGINE || ln->kind == TRC_LANE_DMA) total_busy += l->busy_ps;
        fprintf(f, "%-20s %10llu %12.3f %6.2f%% %12.3f %12.3f %12.4f\n", ln->name, (unsigned long long)l->slices,
                (double)l->busy_ps * 1e-6, s->end_ps ? 100.0 * (double)l->busy_ps / (double)s->end_ps : 0.0,
                (double)l->wait_ps * 1e-6, (double)l->bytes * 1e-6, (double)l->flops * 1e-9);
    }
    write_links(x, s, f);
    fprintf(f, "\ntop ops by engine time (busy time summed over engines and DMA queues):\n");
    fprintf(f, "%4s  %-28s %12s %7s %10s %12s %12s  %s\n", "#", "op", "busy us", "%", "slices", "MB", "GFLOP", "location");
    for (size_t i = 0; i < s->n_ops && i < n_top; i++) {
        const struct trc_op_stats *o = &s->ops[i];
        fprintf(f, "%4zu  %-28s %12.3f %6.2f%% %10llu %12.3f %12.4f  %s\n", i + 1, x->str(x->p, o->op),
                (double)o->busy_ps * 1e-6, total_busy ? 100.0 * (double)o->busy_ps / (double)total_busy : 0.0,
                (unsigned long long)o->slices, (double)o->bytes * 1e-6, (double)o->flops * 1e-9, x->str(x->p, o->loc));
    }
}

static const struct trc_lane *trace_lane(const void *p, uint32_t i) { return &((const struct trc_trace *)p)->lanes[i].lane; }
static const char *trace_str(const void *p, uint32_t id) { return trc_trace_string(p, id); }
static const struct trc_lane *file_lane(const void *p, uint32_t i) { return trc_file_lane(p, i); }
static const char *file_str(const void *p, uint32_t id) { return trc_file_string(p, id); }

void trc_stats_write_text(const struct trc_trace *t, const struct trc_stats *s, size_t n_top, FILE *f)
{
    struct src x = {t, trace_lane, trace_str, t->meta, t->n_meta};
    write_text(&x, s, n_top, f);
}

void trc_file_stats_write_text(const struct trc_file *f, const struct trc_stats *s, size_t n_top, FILE *out)
{
    struct src x = {f, file_lane, file_str, trc_file_n_meta(f) ? trc_file_meta_at(f, 0) : NULL, trc_file_n_meta(f)};
    write_text(&x, s, n_top, out);
}
