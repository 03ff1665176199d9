/* Perfetto / Chrome trace-event JSON (docs/traces.md "Perfetto JSON").
 * One process per chip (and one for its links, when it has link lanes),
 * one thread per lane with slices (with thread_name and thread_sort_index), X slices, C counters, s/f flows;
 * timestamps in microseconds with 6 decimals (exact picoseconds), rebased
 * so the first event is at 0.  otherData carries the simulation parameters
 * and the lane table, so `trace convert` reads the file back losslessly. */
#include "traces/trc_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

struct jw {
    FILE *f;
    gzFile gz;
    char buf[1 << 16];
    size_t n;
    bool err;
    int errno_; /* of the first failed write */
};

/* Once a write has failed (disk full, file too large) the buffer is
 * dropped, never kept: jw_put must always find room after a flush. */
static void jw_flush(struct jw *w)
{
    if (w->n && !w->err) {
        if (w->gz) {
            if (gzwrite(w->gz, w->buf, (unsigned)w->n) != (int)w->n) w->err = true;
        } else if (fwrite(w->buf, 1, w->n, w->f) != w->n) {
            w->err = true;
        }
        if (w->err) w->errno_ = errno;
    }
    w->n = 0;
}

static void jw_put(struct jw *w, const char *s, size_t n)
{
    if (w->err) return;
    if (w->n + n > sizeof w->buf) jw_flush(w);
    if (n > sizeof w->buf) {
        for (size_t i = 0; i < n; i += sizeof w->buf / 2) jw_put(w, s + i, n - i < sizeof w->buf / 2 ? n - i : sizeof w->buf / 2);
        return;
    }
    memcpy(w->buf + w->n, s, n);
    w->n += n;
}

static void jw_s(struct jw *w, const char *s) { jw_put(w, s, strlen(s)); }

static void jw_fmt(struct jw *w, const char *fmt, ...) BASE_PRINTF(2, 3);
static void jw_fmt(struct jw *w, const char *fmt, ...)
{
    char t[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (n > 0) jw_put(w, t, (size_t)n < sizeof t ? (size_t)n : sizeof t - 1);
}

/* s escaped, without the quotes */
static void jw_str_body(struct jw *w, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c < 0x20) {
            jw_put(w, run, (size_t)(s - run));
            if (c == '"') jw_s(w, "\\\"");
            else if (c == '\\') jw_s(w, "\\\\");
            else if (c == '\n') jw_s(w, "\\n");
            else jw_fmt(w, "\\u%04x", c);
            run = s + 1;
        }
    }
    jw_put(w, run, (size_t)(s - run));
}

static void jw_str(struct jw *w, const char *s)
{
    jw_put(w, "\"", 1);
    jw_str_body(w, s);
    jw_put(w, "\"", 1);
}

/* Decimal integers without printf: the writer emits ~15 numbers per event. */
static void jw_u64(struct jw *w, uint64_t v)
{
    char t[24];
    int n = 24;
    do {
        t[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    jw_put(w, t + n, (size_t)(24 - n));
}

static void jw_i64(struct jw *w, int64_t v)
{
    if (v < 0) {
        jw_put(w, "-", 1);
        jw_u64(w, (uint64_t)0 - (uint64_t)v);
    } else {
        jw_u64(w, (uint64_t)v);
    }
}

/* ps -> "us.pppppp" */
static void jw_us(struct jw *w, uint64_t ps)
{
    jw_u64(w, ps / 1000000);
    char t[7];
    uint64_t f = ps % 1000000;
    t[0] = '.';
    for (int i = 6; i >= 1; i--) {
        t[i] = (char)('0' + f % 10);
        f /= 10;
    }
    jw_put(w, t, 7);
}

/* ,"key":v */
static void jw_kv(struct jw *w, const char *key, uint64_t v)
{
    jw_put(w, ",\"", 2);
    jw_s(w, key);
    jw_put(w, "\":", 2);
    jw_u64(w, v);
}

static void write_space(struct jw *w, const char *key, uint64_t v)
{
    jw_fmt(w, ",\"%s\":", key);
    if (v < TRC_SPACE_COUNT) jw_str(w, trc_space_name(v));
    else jw_fmt(w, "%llu", (unsigned long long)v);
}

/* ,"key":v with 17 significant digits (round-trips); 0 for NaN / inf (not JSON) */
static void jw_kd(struct jw *w, const char *key, double v)
{
    jw_fmt(w, ",\"%s\":%.17g", key, isfinite(v) ? v : 0.0);
}

/* Processes: chip c is pid c + 1; its link lanes are a process of their
 * own, "chipC links", pid chips + c + 1. */
static uint32_t n_chips(const struct trc_trace *t)
{
    uint32_t chips = 0;
    for (uint32_t i = 0; i < t->n_lanes; i++)
        if (t->lanes[i].lane.chip + 1 > chips) chips = t->lanes[i].lane.chip + 1;
    return chips;
}

static uint32_t lane_pid(const struct trc_lane *l, uint32_t chips)
{
    return l->kind == TRC_LANE_LINK ? chips + l->chip + 1 : l->chip + 1;
}

/* A slice's category.  A flow binds to the slices at its ends when they
 * have its category (Chrome's trace engine: same ts, pid, tid and cat; a
 * flow's s and f events share cat, name and id): the work of the engines
 * and DMA queues (instructions, transfers, waits) is "engine", so flows
 * link a DMA to the wait or instruction it released; args.kind says which
 * kind a slice is. */
static const char *slice_cat(uint32_t kind)
{
    return kind == TRC_SLICE_INSTR || kind == TRC_SLICE_DMA || kind == TRC_SLICE_WAIT
               ? "engine"
               : trc_slice_kind_name((enum trc_slice_kind)kind);
}

/* The slice of lane that contains t (a non-zero one; else one starting at
 * t), or NULL. */
static const struct trc_slice *slice_at(const struct trc_lane_data *l, uint64_t t)
{
    size_t lo = 0, hi = l->n_slices;
    while (lo < hi) { /* the first slice starting after t */
        size_t mid = (lo + hi) / 2;
        if (l->slices[mid].start_ps <= t) lo = mid + 1;
        else hi = mid;
    }
    const struct trc_slice *at = NULL;
    for (size_t back = 0; lo > 0 && back < 64; back++, lo--) {
        const struct trc_slice *s = &l->slices[lo - 1];
        if (s->dur_ps && t < s->start_ps + s->dur_ps) return s;
        if (s->dur_ps) break; /* non-zero slices do not overlap: none earlier reaches t */
        if (s->start_ps == t) at = s;
    }
    return at;
}

/* After wait slice w of lane l: the slice of the instruction it held (the
 * first non-wait slice from its end with its stream index), or NULL. */
static const struct trc_slice *released_by(const struct trc_lane_data *l, const struct trc_slice *w)
{
    uint64_t end = w->start_ps + w->dur_ps;
    for (size_t k = (size_t)(w - l->slices) + 1; k < l->n_slices && k < (size_t)(w - l->slices) + 64; k++) {
        const struct trc_slice *s = &l->slices[k];
        if (s->start_ps > end) break;
        if (s->start_ps == end && s->kind != TRC_SLICE_WAIT && s->a == w->c) return s;
    }
    return NULL;
}

/* One end of a flow: its event at the start of the slice it binds to, with
 * the exact time in args.at when that differs.  The end binds to the wait
 * slice when it starts after the DMA; else to the instruction the wait
 * released (Chrome's engine keeps one event per timestamp in a flow, and
 * Perfetto drops an end that comes before its start). */
static void write_flow_end(struct jw *w, const struct trc_trace *t, uint32_t chips, const struct trc_flow *f, size_t id,
                           bool start, uint64_t base)
{
    uint32_t lane = start ? f->from_lane : f->to_lane;
    uint64_t at = start ? f->from_ps : f->to_ps;
    const struct trc_lane_data *l = &t->lanes[lane];
    const struct trc_slice *s = slice_at(l, at);
    if (!start && s) {
        const struct trc_slice *from = slice_at(&t->lanes[f->from_lane], f->from_ps);
        uint64_t from_ts = from ? from->start_ps : f->from_ps;
        const struct trc_slice *r = s->kind == TRC_SLICE_WAIT && s->start_ps <= from_ts ? released_by(l, s) : NULL;
        if (r) s = r;
    }
    uint64_t ts = s ? s->start_ps : at;
    jw_fmt(w, start ? ",\n{\"ph\":\"s\"" : ",\n{\"ph\":\"f\",\"bp\":\"e\"");
    jw_fmt(w, ",\"id\":%zu,\"pid\":%u,\"tid\":%u,\"name\":\"signal\",\"cat\":\"engine\",\"ts\":", id,
           lane_pid(&l->lane, chips), lane + 1);
    jw_us(w, ts - base);
    if (ts != at) {
        jw_s(w, ",\"args\":{\"at\":");
        jw_us(w, at - base);
        jw_s(w, "}");
    }
    jw_s(w, "}");
}

static void write_slice(struct jw *w, const struct trc_trace *t, uint32_t chips, uint32_t lane, const struct trc_slice *s,
                        uint64_t base)
{
    const struct trc_lane *l = &t->lanes[lane].lane;
    bool coll = s->kind == TRC_SLICE_COLLECTIVE || s->kind == TRC_SLICE_LINK;
    jw_s(w, ",\n{\"ph\":\"X\",\"pid\":");
    jw_u64(w, lane_pid(l, chips));
    jw_s(w, ",\"tid\":");
    jw_u64(w, lane + 1);
    jw_s(w, ",\"ts\":");
    jw_us(w, s->start_ps - base);
    jw_s(w, ",\"dur\":");
    jw_us(w, s->dur_ps);
    jw_s(w, ",\"name\":");
    jw_str(w, trc_trace_string(t, s->name));
    jw_s(w, ",\"cat\":\"");
    jw_s(w, slice_cat(s->kind));
    jw_s(w, "\",\"args\":{\"kind\":\"");
    jw_s(w, trc_slice_kind_name((enum trc_slice_kind)s->kind));
    jw_s(w, "\",\"bytes\":");
    jw_u64(w, s->bytes);
    jw_kv(w, "flops", s->flops);
    if (s->op) {
        jw_s(w, ",\"op\":");
        jw_str(w, trc_trace_string(t, s->op));
    }
    if (s->loc) {
        jw_s(w, ",\"loc\":");
        jw_str(w, trc_trace_string(t, s->loc));
    }
    if (s->src) {
        jw_s(w, ",\"source\":");
        jw_str(w, trc_trace_string(t, s->src));
    }
    if (s->kernel) {
        jw_s(w, coll ? ",\"algorithm\":" : ",\"kernel\":");
        jw_str(w, trc_trace_string(t, s->kernel));
    }
    switch (s->kind) {
    case TRC_SLICE_INSTR:
        jw_kv(w, "stream_index", s->a);
        jw_kv(w, "iter0", s->b & 0xffffffffu);
        jw_kv(w, "iter1", s->b >> 32);
        jw_kv(w, "visible_after_ps", s->c);
        break;
    case TRC_SLICE_DMA:
        write_space(w, "src", s->a);
        write_space(w, "dst", s->b);
        jw_kv(w, "data_after_ps", s->c);
        break;
    case TRC_SLICE_WAIT:
        jw_kv(w, "sem", s->a);
        jw_s(w, ",\"target\":");
        jw_i64(w, (int64_t)s->b);
        jw_kv(w, "stream_index", s->c);
        break;
    case TRC_SLICE_COLLECTIVE:
        jw_kv(w, "group_size", s->a & 0xffffffffu);
        jw_kv(w, "n_groups", s->a >> 32);
        jw_kv(w, "exposed_ps", s->b);
        jw_kd(w, "busbw_gbps", trc_bits_f64(s->c));
        break;
    case TRC_SLICE_LINK:
        jw_kv(w, "link", s->a);
        jw_kd(w, "link_gbps", trc_bits_f64(s->b));
        jw_kv(w, "collective", s->c);
        jw_kd(w, "gbps", trc_link_gbps(s));     /* derived: bytes / dur */
        jw_kd(w, "util", trc_link_util(s));     /* derived: gbps / link_gbps */
        break;
    case TRC_SLICE_KERNEL:
        jw_kv(w, "kernel_index", s->a);
        jw_kv(w, "launch", s->b);
        jw_kv(w, "sim_flops", s->c);
        break;
    default:
        jw_kv(w, "kernel_index", s->a);
        jw_kv(w, "launch", s->b);
        if (s->c) jw_kv(w, "c", s->c);
        break;
    }
    jw_s(w, "}}");
}

static uint64_t time_base(const struct trc_trace *t)
{
    uint64_t base = UINT64_MAX;
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        if (l->n_slices && l->slices[0].start_ps < base) base = l->slices[0].start_ps;
        if (l->n_samples && l->samples[0].t_ps < base) base = l->samples[0].t_ps;
    }
    for (size_t k = 0; k < t->n_flows; k++) {
        if (t->flows[k].from_ps < base) base = t->flows[k].from_ps;
        if (t->flows[k].to_ps < base) base = t->flows[k].to_ps;
    }
    return base == UINT64_MAX ? 0 : base;
}

static void write_all(struct jw *w, const struct trc_trace *t)
{
    uint64_t base = time_base(t);
    jw_s(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    /* processes: one per chip */
    bool first = true;
    uint32_t chips = n_chips(t);
    const char *chip_name = trc_trace_meta(t, "chip");
    for (uint32_t c = 0; c < 2 * chips; c++) {
        bool links = c >= chips;
        if (links) { /* a links process only for a chip with link slices */
            bool any = false;
            for (uint32_t i = 0; i < t->n_lanes && !any; i++)
                any = t->lanes[i].lane.kind == TRC_LANE_LINK && t->lanes[i].lane.chip == c - chips && t->lanes[i].n_slices;
            if (!any) continue;
        }
        jw_fmt(w, "%s{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":", first ? "" : ",\n", c + 1);
        char nm[96];
        snprintf(nm, sizeof nm, links ? "chip%u links" : "chip%u %s", links ? c - chips : c, chip_name ? chip_name : "");
        jw_str(w, nm);
        jw_fmt(w, "}},\n{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%u}}", c + 1, c);
        first = false;
    }
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane *l = &t->lanes[i].lane;
        if (l->kind == TRC_LANE_COUNTER || t->lanes[i].n_slices == 0) continue; /* idle queues: no thread */
        jw_fmt(w, "%s{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":", first ? "" : ",\n",
               lane_pid(l, chips), i + 1);
        jw_str(w, l->name);
        jw_fmt(w, "}},\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
               lane_pid(l, chips), i + 1, l->sort_index);
        first = false;
    }
    if (first) jw_s(w, "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"empty\"}}");
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        /* at one start time the non-zero slice first (the zero-length ones
         * nest in it; a flow binds to the first slice of its timestamp) */
        for (size_t k = 0; k < l->n_slices;) {
            size_t e = k + 1;
            while (e < l->n_slices && l->slices[e].start_ps == l->slices[k].start_ps) e++;
            for (size_t q = e; q > k; q--)
                if (l->slices[q - 1].dur_ps) write_slice(w, t, chips, i, &l->slices[q - 1], base);
            for (size_t q = k; q < e; q++)
                if (!l->slices[q].dur_ps) write_slice(w, t, chips, i, &l->slices[q], base);
            k = e;
        }
        for (size_t k = 0; k < l->n_samples; k++) {
            jw_fmt(w, ",\n{\"ph\":\"C\",\"pid\":%u,\"name\":", lane_pid(&l->lane, chips));
            jw_str(w, l->lane.name);
            jw_s(w, ",\"ts\":");
            jw_us(w, l->samples[k].t_ps - base);
            jw_fmt(w, ",\"args\":{\"value\":%.17g}}", l->samples[k].value);
        }
    }
    for (size_t k = 0; k < t->n_flows; k++) {
        write_flow_end(w, t, chips, &t->flows[k], k + 1, true, base);
        write_flow_end(w, t, chips, &t->flows[k], k + 1, false, base);
    }
    jw_s(w, "\n],\n\"otherData\":{\"generator\":\"npusim\",\"time_base_ps\":");
    jw_fmt(w, "\"%llu\"", (unsigned long long)base);
    for (size_t i = 0; i < t->n_meta; i++) {
        jw_s(w, ",\"meta.");
        jw_str_body(w, t->meta[i].key);
        jw_s(w, "\":");
        jw_str(w, t->meta[i].value);
    }
    jw_s(w, ",\"npusim_lanes\":[");
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane *l = &t->lanes[i].lane;
        jw_s(w, i ? ",\n[" : "\n[");
        jw_str(w, l->name);
        jw_fmt(w, ",\"%s\",%u,%d,%u,", trc_lane_kind_name((enum trc_lane_kind)l->kind), l->chip, l->core, l->sort_index);
        jw_str(w, l->unit);
        jw_s(w, "]");
    }
    jw_s(w, "]}}\n");
}

static enum base_status trc_write_json_impl(const struct trc_trace *t, const char *path, bool gz, struct base_diag *diag)
{
    struct jw *w = calloc(1, sizeof *w);
    if (!w) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
    /* whole or not at all: a temporary name, renamed on success (base_out) */
    struct base_out o;
    enum base_status st = base_out_open(&o, path, diag);
    if (st != BASE_OK) {
        free(w);
        return st;
    }
    if (gz) {
        int fd = dup(fileno(o.f));
        w->gz = fd >= 0 ? gzdopen(fd, "wb1") : NULL; /* level 1: gzip at 6 costs 3x the formatting */
        if (!w->gz) {
            int err = errno;
            if (fd >= 0) close(fd);
            base_out_abort(&o);
            free(w);
            return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open for writing: %s", strerror(err));
        }
    } else {
        w->f = o.f;
    }
    write_all(w, t);
    jw_flush(w);
    bool err = w->err;
    int errno_ = w->errno_;
    if (w->gz && gzclose(w->gz) != Z_OK && !err) {
        err = true;
        errno_ = errno ? errno : EIO;
    }
    free(w);
    if (err) {
        base_out_abort(&o);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "write failed: %s (nothing written)",
                             strerror(errno_ ? errno_ : EIO));
    }
    return base_out_commit(&o, diag);
}

enum base_status trc_write_json(const struct trc_trace *t, const char *path, bool gz, struct base_diag *diag)
{
    return base_diag_ensure(diag, trc_write_json_impl(t, path, gz, diag), path, "writing a trace");
}
