/* The native .npt writer (docs/traces.md gives the layout byte by byte). */
#include "traces/trc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <zlib.h>

static const char *const chunk_names[] = {
#define X(e, v, name) [v] = name,
    TRC_CHUNK_TYPES(X)
#undef X
};

const char *trc_chunk_type_name(uint32_t type)
{
    return type < ARRAY_LEN(chunk_names) && chunk_names[type] ? chunk_names[type] : "unknown";
}

struct wr {
    FILE *f;
    const char *path;
    uint64_t off;
    struct trc_index_entry *idx;
    size_t n_idx, cap_idx;
    struct trc_buf raw, z;
    z_stream zs; /* one deflate state for every chunk: allocating one per chunk costs more than compressing */
    bool zs_ready;
    struct base_diag *diag;
};

static enum base_status io_fail(struct wr *w, const char *what)
{
    return base_diag_set(w->diag, BASE_ERR_IO, w->path, 0, 0, "cannot %s: %s", what, strerror(errno));
}

static enum base_status put(struct wr *w, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, w->f) != n) return io_fail(w, "write");
    w->off += n;
    return BASE_OK;
}

/* Compresses w->raw into a chunk of `type` and records it in the index
 * (unless it is the index itself). */
static enum base_status chunk(struct wr *w, uint32_t type, uint32_t lane, uint32_t level, uint64_t count, uint64_t t0,
                              uint64_t t1)
{
    if (w->raw.oom) return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "out of memory");
    if (w->raw.n > UINT32_MAX / 2)
        return base_diag_set(w->diag, BASE_ERR_LIMIT, w->path, 0, 0, "%s chunk of %zu bytes is too large",
                             trc_chunk_type_name(type), w->raw.n);
    if (!w->zs_ready) {
        memset(&w->zs, 0, sizeof w->zs);
        /* level 1; memLevel 6: a 16 KiB hash table, which every chunk clears (8 would clear 64 KiB per chunk) */
        if (deflateInit2(&w->zs, 1, Z_DEFLATED, 15, 6, Z_DEFAULT_STRATEGY) != Z_OK) return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "zlib: deflateInit failed");
        w->zs_ready = true;
    } else if (deflateReset(&w->zs) != Z_OK) {
        return base_diag_set(w->diag, BASE_ERR_INTERNAL, w->path, 0, 0, "zlib: deflateReset failed");
    }
    uLong bound = deflateBound(&w->zs, (uLong)w->raw.n);
    if (!base_grow((void **)&w->z.p, &w->z.cap, bound, 1)) return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "out of memory");
    w->zs.next_in = w->raw.p ? w->raw.p : (Bytef *)w->z.p;
    w->zs.avail_in = (uInt)w->raw.n;
    w->zs.next_out = w->z.p;
    w->zs.avail_out = (uInt)bound;
    if (deflate(&w->zs, Z_FINISH) != Z_STREAM_END)
        return base_diag_set(w->diag, BASE_ERR_INTERNAL, w->path, 0, 0, "zlib: deflate did not finish");
    uLong zn = w->zs.total_out;
    uint32_t crc = (uint32_t)crc32(0L, w->z.p, (uInt)zn);
    uint8_t h[TRC_NPT_CHUNK_HEADER];
    struct trc_buf hb = {h, 0, sizeof h, false};
    trc_buf_bytes(&hb, "CHNK", 4);
    trc_buf_le(&hb, type, 4);
    trc_buf_le(&hb, lane, 4);
    trc_buf_le(&hb, level, 4);
    trc_buf_le(&hb, (uint64_t)zn, 4);
    trc_buf_le(&hb, w->raw.n, 4);
    trc_buf_le(&hb, crc, 4);
    trc_buf_le(&hb, (uint32_t)crc32(0L, h, 28), 4);
    if (type != TRC_CHUNK_INDEX) {
        if (!base_grow((void **)&w->idx, &w->cap_idx, w->n_idx + 1, sizeof *w->idx))
            return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "out of memory");
        struct trc_index_entry *e = &w->idx[w->n_idx++];
        memset(e, 0, sizeof *e);
        e->type = type;
        e->lane = lane;
        e->level = level;
        e->count = count;
        e->t0_ps = t0;
        e->t1_ps = t1;
        e->offset = w->off;
        e->comp_bytes = zn;
        e->raw_bytes = w->raw.n;
        e->crc = crc;
    }
    TRY(put(w, h, sizeof h));
    TRY(put(w, w->z.p, zn));
    w->raw.n = 0;
    return BASE_OK;
}

static enum base_status write_slices(struct wr *w, uint32_t lane, const struct trc_slice *s, size_t n)
{
    for (size_t i = 0; i < n; i += TRC_NPT_SLICES_PER_CHUNK) {
        size_t m = n - i < TRC_NPT_SLICES_PER_CHUNK ? n - i : TRC_NPT_SLICES_PER_CHUNK;
        uint64_t t1 = 0;
        struct trc_slice prev;
        memset(&prev, 0, sizeof prev);
        trc_buf_uv(&w->raw, m);
        for (size_t k = i; k < i + m; k++) {
            trc_slice_encode(&w->raw, &s[k], &prev);
            if (s[k].start_ps + s[k].dur_ps > t1) t1 = s[k].start_ps + s[k].dur_ps;
        }
        TRY(chunk(w, TRC_CHUNK_SLICES, lane, 0, m, s[i].start_ps, t1));
    }
    return BASE_OK;
}

struct summ_ctx {
    struct wr *w;
    uint32_t lane;
};

static enum base_status write_level(void *user, uint32_t level, const struct trc_bucket *v, size_t n)
{
    struct summ_ctx *c = user;
    struct wr *w = c->w;
    for (size_t i = 0; i < n; i += TRC_NPT_SAMPLES_PER_CHUNK) {
        size_t m = n - i < TRC_NPT_SAMPLES_PER_CHUNK ? n - i : TRC_NPT_SAMPLES_PER_CHUNK;
        uint64_t prev = 0;
        trc_buf_uv(&w->raw, m);
        for (size_t k = i; k < i + m; k++) {
            const struct trc_bucket *b = &v[k];
            trc_buf_uv(&w->raw, b->index - prev);
            prev = b->index;
            trc_buf_uv(&w->raw, b->busy_ps);
            trc_buf_uv(&w->raw, b->wait_ps);
            trc_buf_uv(&w->raw, b->bytes);
            trc_buf_uv(&w->raw, b->count);
            trc_buf_uv(&w->raw, b->dominant);
        }
        TRY(chunk(w, TRC_CHUNK_SUMMARY, c->lane, level, m, v[i].index << level, (v[i + m - 1].index + 1) << level));
    }
    return BASE_OK;
}

static enum base_status write_summaries(struct wr *w, uint32_t lane, const struct trc_slice *s, size_t n, uint64_t end)
{
    uint32_t lo, hi;
    trc_lane_level_range(s, n, end, &lo, &hi);
    if (lo > hi) return BASE_OK;
    struct summ_ctx c = {w, lane};
    enum base_status st = trc_summarize_levels(s, n, lo, hi, write_level, &c);
    if (st == BASE_ERR_NOMEM) return base_diag_set(w->diag, st, w->path, 0, 0, "out of memory");
    return st;
}

static enum base_status write_samples(struct wr *w, uint32_t lane, const struct trc_sample *s, size_t n)
{
    for (size_t i = 0; i < n; i += TRC_NPT_SAMPLES_PER_CHUNK) {
        size_t m = n - i < TRC_NPT_SAMPLES_PER_CHUNK ? n - i : TRC_NPT_SAMPLES_PER_CHUNK;
        uint64_t prev = 0;
        trc_buf_uv(&w->raw, m);
        for (size_t k = i; k < i + m; k++) {
            trc_buf_uv(&w->raw, s[k].t_ps - prev);
            prev = s[k].t_ps;
            trc_buf_le(&w->raw, trc_f64_bits(s[k].value), 8);
        }
        TRY(chunk(w, TRC_CHUNK_SAMPLES, lane, 0, m, s[i].t_ps, s[i + m - 1].t_ps));
    }
    return BASE_OK;
}

static enum base_status write_flows(struct wr *w, const struct trc_flow *f, size_t n)
{
    for (size_t i = 0; i < n; i += TRC_NPT_FLOWS_PER_CHUNK) {
        size_t m = n - i < TRC_NPT_FLOWS_PER_CHUNK ? n - i : TRC_NPT_FLOWS_PER_CHUNK;
        uint64_t prev = 0, t1 = 0;
        trc_buf_uv(&w->raw, m);
        for (size_t k = i; k < i + m; k++) {
            trc_buf_uv(&w->raw, f[k].from_lane);
            trc_buf_uv(&w->raw, f[k].to_lane);
            trc_buf_uv(&w->raw, f[k].from_ps - prev);
            prev = f[k].from_ps;
            trc_buf_uv(&w->raw, f[k].to_ps);
            if (f[k].to_ps > t1) t1 = f[k].to_ps;
            if (f[k].from_ps > t1) t1 = f[k].from_ps;
        }
        TRY(chunk(w, TRC_CHUNK_FLOWS, UINT32_MAX, 0, m, f[i].from_ps, t1));
    }
    return BASE_OK;
}

static enum base_status write_all(struct wr *w, const struct trc_trace *t)
{
    /* header + meta */
    struct trc_buf meta = {NULL, 0, 0, false};
    trc_buf_uv(&meta, t->n_meta);
    for (size_t i = 0; i < t->n_meta; i++) {
        trc_buf_str(&meta, t->meta[i].key);
        trc_buf_str(&meta, t->meta[i].value);
    }
    if (meta.oom) {
        trc_buf_free(&meta);
        return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "out of memory");
    }
    uint8_t h[TRC_NPT_HEADER_FIXED];
    struct trc_buf hb = {h, 0, sizeof h, false};
    trc_buf_bytes(&hb, TRC_NPT_MAGIC, 8);
    trc_buf_le(&hb, TRC_NPT_VERSION, 4);
    trc_buf_le(&hb, meta.n, 4);
    trc_buf_le(&hb, (uint32_t)crc32(0L, meta.p ? meta.p : (const Bytef *)"", (uInt)meta.n), 4);
    trc_buf_le(&hb, (uint32_t)crc32(0L, h, 20), 4);
    enum base_status mst = put(w, h, sizeof h);
    if (mst == BASE_OK) mst = put(w, meta.p, meta.n);
    trc_buf_free(&meta);
    TRY(mst);
    /* strings */
    trc_buf_uv(&w->raw, t->strings.n ? t->strings.n - 1 : 0);
    for (uint32_t i = 1; i < t->strings.n; i++) trc_buf_str(&w->raw, t->strings.s[i]);
    TRY(chunk(w, TRC_CHUNK_STRINGS, UINT32_MAX, 0, t->strings.n ? t->strings.n - 1 : 0, 0, 0));
    /* lanes, with their whole-run totals */
    struct trc_stats stats;
    if (trc_stats_compute(t, &stats) != BASE_OK) return base_diag_set(w->diag, BASE_ERR_NOMEM, w->path, 0, 0, "out of memory");
    trc_buf_uv(&w->raw, t->n_lanes);
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        const struct trc_lane_stats *ls = &stats.lanes[i];
        trc_buf_str(&w->raw, l->lane.name);
        trc_buf_uv(&w->raw, l->lane.kind);
        trc_buf_uv(&w->raw, l->lane.chip);
        trc_buf_uv(&w->raw, (uint64_t)((int64_t)l->lane.core + 1));
        trc_buf_uv(&w->raw, l->lane.sort_index);
        trc_buf_str(&w->raw, l->lane.unit);
        trc_buf_uv(&w->raw, l->n_slices);
        trc_buf_uv(&w->raw, l->n_samples);
        trc_buf_uv(&w->raw, ls->busy_ps);
        trc_buf_uv(&w->raw, ls->wait_ps);
        trc_buf_uv(&w->raw, ls->bytes);
        trc_buf_uv(&w->raw, ls->flops);
    }
    enum base_status st = chunk(w, TRC_CHUNK_LANES, UINT32_MAX, 0, t->n_lanes, 0, t->end_ps);
    /* the ops table (for a viewer's top-ops panel) */
    if (st == BASE_OK) {
        trc_buf_uv(&w->raw, stats.n_ops);
        for (size_t i = 0; i < stats.n_ops; i++) {
            const struct trc_op_stats *o = &stats.ops[i];
            trc_buf_uv(&w->raw, o->kind);
            trc_buf_uv(&w->raw, o->op);
            trc_buf_uv(&w->raw, o->loc);
            trc_buf_uv(&w->raw, o->src);
            trc_buf_uv(&w->raw, o->kernel);
            trc_buf_uv(&w->raw, o->busy_ps);
            trc_buf_uv(&w->raw, o->slices);
            trc_buf_uv(&w->raw, o->bytes);
            trc_buf_uv(&w->raw, o->flops);
        }
        st = chunk(w, TRC_CHUNK_OPS, UINT32_MAX, 0, stats.n_ops, 0, t->end_ps);
    }
    trc_stats_free(&stats);
    TRY(st);
    /* lane by lane: slices, their summaries, samples */
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        TRY(write_slices(w, i, l->slices, l->n_slices));
        TRY(write_summaries(w, i, l->slices, l->n_slices, t->end_ps));
        TRY(write_samples(w, i, l->samples, l->n_samples));
    }
    TRY(write_flows(w, t->flows, t->n_flows));
    /* index, footer */
    trc_buf_uv(&w->raw, w->n_idx);
    for (size_t i = 0; i < w->n_idx; i++) {
        const struct trc_index_entry *e = &w->idx[i];
        trc_buf_uv(&w->raw, e->type);
        trc_buf_uv(&w->raw, e->lane);
        trc_buf_uv(&w->raw, e->level);
        trc_buf_uv(&w->raw, e->count);
        trc_buf_uv(&w->raw, e->t0_ps);
        trc_buf_uv(&w->raw, e->t1_ps);
        trc_buf_uv(&w->raw, e->offset);
        trc_buf_uv(&w->raw, e->comp_bytes);
        trc_buf_uv(&w->raw, e->raw_bytes);
        trc_buf_le(&w->raw, e->crc, 4);
    }
    uint64_t index_off = w->off;
    TRY(chunk(w, TRC_CHUNK_INDEX, UINT32_MAX, 0, w->n_idx, 0, 0));
    uint8_t f[TRC_NPT_FOOTER];
    struct trc_buf fb = {f, 0, sizeof f, false};
    trc_buf_bytes(&fb, TRC_NPT_FOOTER_MAGIC, 8);
    trc_buf_le(&fb, index_off, 8);
    trc_buf_le(&fb, w->off + TRC_NPT_FOOTER, 8);
    trc_buf_le(&fb, w->n_idx, 4);
    trc_buf_le(&fb, (uint32_t)crc32(0L, f, 28), 4);
    return put(w, f, sizeof f);
}

enum base_status trc_write_npt_stream(const struct trc_trace *t, FILE *f, const char *name, struct base_diag *diag)
{
    struct wr w;
    memset(&w, 0, sizeof w);
    w.path = name;
    w.diag = diag;
    w.f = f;
    enum base_status st = write_all(&w, t);
    if (st == BASE_OK && fflush(f) != 0) st = io_fail(&w, "write");
    if (w.zs_ready) deflateEnd(&w.zs);
    free(w.idx);
    trc_buf_free(&w.raw);
    trc_buf_free(&w.z);
    return st;
}

static enum base_status trc_write_npt_impl(const struct trc_trace *t, const char *path, struct base_diag *diag)
{
    /* whole or not at all: a temporary name, renamed on success (base_out) */
    struct base_out o;
    TRY(base_out_open(&o, path, diag));
    char *vbuf = malloc(1 << 20);
    if (vbuf) setvbuf(o.f, vbuf, _IOFBF, 1 << 20);
    enum base_status st = trc_write_npt_stream(t, o.f, path, diag);
    if (st == BASE_OK) st = base_out_commit(&o, diag);
    else base_out_abort(&o);
    free(vbuf);
    return st;
}

enum base_status trc_write_npt(const struct trc_trace *t, const char *path, struct base_diag *diag)
{
    return base_diag_ensure(diag, trc_write_npt_impl(t, path, diag), path, "writing a trace");
}

bool trc_format_from_path(const char *path, enum trc_format *out)
{
    size_t n = strlen(path);
    struct {
        const char *ext;
        enum trc_format f;
    } const exts[] = {{".json.gz", TRC_FORMAT_JSON_GZ}, {".json", TRC_FORMAT_JSON}, {".npt", TRC_FORMAT_NPT}};
    for (size_t i = 0; i < ARRAY_LEN(exts); i++) {
        size_t e = strlen(exts[i].ext);
        if (n >= e && !strcmp(path + n - e, exts[i].ext)) {
            *out = exts[i].f;
            return true;
        }
    }
    return false;
}

enum base_status trc_write(const struct trc_trace *t, const char *path, enum trc_format fmt, struct base_diag *diag)
{
    switch (fmt) {
    case TRC_FORMAT_NPT: return trc_write_npt(t, path, diag);
    case TRC_FORMAT_JSON: return trc_write_json(t, path, false, diag);
    case TRC_FORMAT_JSON_GZ: return trc_write_json(t, path, true, diag);
    }
    return base_diag_set(diag, BASE_ERR_INVALID, path, 0, 0, "unknown trace format");
}
