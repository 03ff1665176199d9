/* The .npt reader: random access through the index (docs/traces.md).
 * Every field read from the file is range-checked; a bad file is a located
 * ERR_PARSE, never a crash. */
#include "traces/trc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <zlib.h>

#define CACHE_SLOTS 256
#define MAX_RAW_BYTES (UINT64_C(1) << 30)

struct cache_slot {
    size_t entry;   /* index entry + 1; 0: empty */
    uint64_t stamp;
    void *data;     /* decoded records */
    size_t n;
};

struct lane_info {
    struct trc_lane lane;
    uint64_t n_slices, n_samples;
    size_t *slices, n_slice_chunks; /* index entry numbers, in time order */
    size_t *samples, n_sample_chunks;
    size_t *summ, n_summ;           /* summary chunks, by level then time */
    uint32_t min_level, max_level;
    struct trc_lane_stats totals;
};

struct trc_file {
    FILE *f;
    char path[BASE_DIAG_FILE_MAX];
    uint64_t size;
    struct trc_meta_kv *meta;
    size_t n_meta;
    char **strings;
    uint32_t n_strings;
    struct lane_info *lanes;
    uint32_t n_lanes;
    struct trc_index_entry *idx;
    size_t n_idx;
    size_t *flows, n_flow_chunks;
    size_t ops_entry; /* + 1; 0: none */
    struct trc_op_stats *ops;
    size_t n_ops;
    bool ops_loaded;
    uint64_t end_ps;
    struct cache_slot cache[CACHE_SLOTS];
    uint64_t clock;
    struct trc_buf z, raw;
    z_stream zs; /* one inflate state for every chunk */
    bool zs_ready;
};

static enum base_status bad(struct trc_file *f, struct base_diag *d, const char *fmt, ...) BASE_PRINTF(3, 4);
static enum base_status bad(struct trc_file *f, struct base_diag *d, const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(d, BASE_ERR_PARSE, f->path, 0, 0, "%s", msg);
}

static enum base_status read_at(struct trc_file *f, uint64_t off, void *p, size_t n, const char *what,
                                struct base_diag *d)
{
    if (off > f->size || n > f->size - off)
        return bad(f, d, "truncated: %s at byte %llu needs %zu bytes, the file has %llu", what, (unsigned long long)off, n,
                   (unsigned long long)f->size);
    if (fseeko(f->f, (off_t)off, SEEK_SET) != 0 || fread(p, 1, n, f->f) != n)
        return base_diag_set(d, BASE_ERR_IO, f->path, 0, 0, "cannot read %s at byte %llu: %s", what,
                             (unsigned long long)off, strerror(errno));
    return BASE_OK;
}

static const char *lane_name(const struct trc_file *f, uint32_t lane)
{
    return lane < f->n_lanes ? f->lanes[lane].lane.name : "-";
}

/* What a chunk is, for messages: "chunk 12 (slices of lane 3 'core0 pe', byte 4096)". */
static void chunk_desc(const struct trc_file *f, size_t e, char *buf, size_t cap)
{
    const struct trc_index_entry *x = &f->idx[e];
    if (x->lane == UINT32_MAX)
        snprintf(buf, cap, "chunk %zu (%s, at byte %llu)", e, trc_chunk_type_name(x->type), (unsigned long long)x->offset);
    else
        snprintf(buf, cap, "chunk %zu (%s of lane %u '%s'%s, at byte %llu)", e, trc_chunk_type_name(x->type), x->lane,
                 lane_name(f, x->lane), x->type == TRC_CHUNK_SUMMARY ? ", a summary level" : "",
                 (unsigned long long)x->offset);
}

/* Reads, checks and inflates the chunk at off into f->raw.  exp: the index
 * entry it must match (NULL for the index itself). */
static enum base_status load_raw(struct trc_file *f, uint64_t off, uint32_t type, const struct trc_index_entry *exp,
                                 const char *desc, struct base_diag *d)
{
    uint8_t h[TRC_NPT_CHUNK_HEADER];
    TRY(read_at(f, off, h, sizeof h, desc, d));
    struct trc_cur c = {h, h + sizeof h, false};
    if (memcmp(h, "CHNK", 4) != 0) return bad(f, d, "%s: no chunk header there (magic 'CHNK' missing)", desc);
    c.p += 4;
    uint32_t ty = (uint32_t)trc_cur_le(&c, 4), lane = (uint32_t)trc_cur_le(&c, 4), level = (uint32_t)trc_cur_le(&c, 4);
    uint64_t zn = trc_cur_le(&c, 4), rn = trc_cur_le(&c, 4);
    uint32_t crc = (uint32_t)trc_cur_le(&c, 4), hcrc = (uint32_t)trc_cur_le(&c, 4);
    uint32_t hc = (uint32_t)crc32(0L, h, 28);
    if (hc != hcrc) return bad(f, d, "%s: crc32 of the chunk header is 0x%08x, the header says 0x%08x", desc, hc, hcrc);
    if (ty != type) return bad(f, d, "%s: chunk type %u (%s), expected %s", desc, ty, trc_chunk_type_name(ty), trc_chunk_type_name(type));
    if (exp && (lane != exp->lane || level != exp->level || zn != exp->comp_bytes || rn != exp->raw_bytes || crc != exp->crc))
        return bad(f, d, "%s: the chunk header disagrees with the index (lane, level, sizes or crc)", desc);
    if (rn > MAX_RAW_BYTES) return bad(f, d, "%s: %llu bytes inflated is more than the 1 GiB limit", desc, (unsigned long long)rn);
    if (zn > f->size) return bad(f, d, "%s: %llu compressed bytes, more than the file", desc, (unsigned long long)zn);
    if (!base_grow((void **)&f->z.p, &f->z.cap, zn ? zn : 1, 1) || !base_grow((void **)&f->raw.p, &f->raw.cap, rn ? rn : 1, 1))
        return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    TRY(read_at(f, off + TRC_NPT_CHUNK_HEADER, f->z.p, zn, desc, d));
    uint32_t pc = (uint32_t)crc32(0L, f->z.p, (uInt)zn);
    if (pc != crc) return bad(f, d, "%s: crc32 of the payload is 0x%08x, the chunk header says 0x%08x", desc, pc, crc);
    if (!f->zs_ready) {
        memset(&f->zs, 0, sizeof f->zs);
        if (inflateInit(&f->zs) != Z_OK) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "zlib: inflateInit failed");
        f->zs_ready = true;
    } else {
        inflateReset(&f->zs);
    }
    f->zs.next_in = f->z.p;
    f->zs.avail_in = (uInt)zn;
    f->zs.next_out = f->raw.p;
    f->zs.avail_out = (uInt)rn;
    int zr = inflate(&f->zs, Z_FINISH);
    if (zr != Z_STREAM_END || f->zs.total_out != rn || f->zs.avail_in != 0)
        return bad(f, d, "%s: zlib cannot inflate the payload to exactly its %llu bytes (%s)", desc, (unsigned long long)rn,
                   zr == Z_STREAM_END ? "size differs" : zError(zr));
    f->raw.n = rn;
    return BASE_OK;
}

static enum base_status load_entry(struct trc_file *f, size_t e, struct base_diag *d)
{
    char desc[200];
    chunk_desc(f, e, desc, sizeof desc);
    return load_raw(f, f->idx[e].offset, f->idx[e].type, &f->idx[e], desc, d);
}

/* ------------------------------------------------------------ decoding */

static bool str_ok(const struct trc_file *f, uint32_t id) { return id < f->n_strings; }

/* Decodes chunk e (SLICES, SAMPLES, SUMMARY, FLOWS) into a new array. */
static enum base_status decode(struct trc_file *f, size_t e, void **out, size_t *n_out, struct base_diag *d)
{
    *out = NULL;
    *n_out = 0;
    TRY(load_entry(f, e, d));
    const struct trc_index_entry *x = &f->idx[e];
    char desc[200];
    chunk_desc(f, e, desc, sizeof desc);
    struct trc_cur c = {f->raw.p, f->raw.p + f->raw.n, false};
    uint64_t n = trc_cur_uv(&c);
    if (c.bad || n != x->count || n > f->raw.n)
        return bad(f, d, "%s: holds %llu records, the index says %llu", desc, (unsigned long long)n, (unsigned long long)x->count);
    size_t sz = x->type == TRC_CHUNK_SLICES    ? sizeof(struct trc_slice)
                : x->type == TRC_CHUNK_SAMPLES ? sizeof(struct trc_sample)
                : x->type == TRC_CHUNK_SUMMARY ? sizeof(struct trc_bucket)
                : x->type == TRC_CHUNK_OPS     ? sizeof(struct trc_op_stats)
                                               : sizeof(struct trc_flow);
    void *v = calloc(n ? n : 1, sz);
    if (!v) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    uint64_t prev = 0;
    struct trc_slice prev_slice;
    memset(&prev_slice, 0, sizeof prev_slice);
    for (uint64_t i = 0; i < n; i++) {
        bool ok = true;
        if (x->type == TRC_CHUNK_SLICES) {
            struct trc_slice *s = (struct trc_slice *)v + i;
            ok = trc_slice_decode(&c, s, &prev_slice) && str_ok(f, s->name) && str_ok(f, s->op) && str_ok(f, s->loc) &&
                 str_ok(f, s->kernel) && str_ok(f, s->src);
        } else if (x->type == TRC_CHUNK_SAMPLES) {
            struct trc_sample *s = (struct trc_sample *)v + i;
            s->t_ps = prev + trc_cur_uv(&c);
            prev = s->t_ps;
            s->value = trc_bits_f64(trc_cur_le(&c, 8));
        } else if (x->type == TRC_CHUNK_SUMMARY) {
            struct trc_bucket *b = (struct trc_bucket *)v + i;
            b->index = prev + trc_cur_uv(&c);
            prev = b->index;
            b->busy_ps = trc_cur_uv(&c);
            b->wait_ps = trc_cur_uv(&c);
            b->bytes = trc_cur_uv(&c);
            uint64_t cnt = trc_cur_uv(&c), dom = trc_cur_uv(&c);
            ok = cnt <= UINT32_MAX && dom < f->n_strings;
            b->count = (uint32_t)cnt;
            b->dominant = (uint32_t)dom;
        } else if (x->type == TRC_CHUNK_OPS) {
            struct trc_op_stats *o = (struct trc_op_stats *)v + i;
            uint64_t kind = trc_cur_uv(&c), op = trc_cur_uv(&c), loc = trc_cur_uv(&c), src = trc_cur_uv(&c),
                     kernel = trc_cur_uv(&c);
            o->busy_ps = trc_cur_uv(&c);
            o->slices = trc_cur_uv(&c);
            o->bytes = trc_cur_uv(&c);
            o->flops = trc_cur_uv(&c);
            ok = kind <= 1 && op < f->n_strings && loc < f->n_strings && src < f->n_strings && kernel < f->n_strings;
            o->kind = (uint32_t)kind;
            o->op = (uint32_t)op;
            o->loc = (uint32_t)loc;
            o->src = (uint32_t)src;
            o->kernel = (uint32_t)kernel;
        } else {
            struct trc_flow *fl = (struct trc_flow *)v + i;
            uint64_t a = trc_cur_uv(&c), b = trc_cur_uv(&c);
            fl->from_ps = prev + trc_cur_uv(&c);
            prev = fl->from_ps;
            fl->to_ps = trc_cur_uv(&c);
            ok = a < f->n_lanes && b < f->n_lanes;
            fl->from_lane = (uint32_t)a;
            fl->to_lane = (uint32_t)b;
        }
        if (!ok || c.bad) {
            free(v);
            return bad(f, d, "%s: record %llu does not decode (a field is out of range or the payload ends)", desc,
                       (unsigned long long)i);
        }
    }
    if (c.p != c.end) {
        free(v);
        return bad(f, d, "%s: %zu bytes left after its %llu records", desc, (size_t)(c.end - c.p), (unsigned long long)n);
    }
    *out = v;
    *n_out = (size_t)n;
    return BASE_OK;
}

/* A decoded chunk from the cache (owned by the cache). */
static enum base_status cached(struct trc_file *f, size_t e, const void **out, size_t *n, struct base_diag *d)
{
    struct cache_slot *victim = &f->cache[0];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        struct cache_slot *s = &f->cache[i];
        if (s->entry == e + 1) {
            s->stamp = ++f->clock;
            *out = s->data;
            *n = s->n;
            return BASE_OK;
        }
        if (s->stamp < victim->stamp) victim = s;
    }
    void *v;
    size_t m;
    TRY(decode(f, e, &v, &m, d));
    free(victim->data);
    victim->entry = e + 1;
    victim->stamp = ++f->clock;
    victim->data = v;
    victim->n = m;
    *out = v;
    *n = m;
    return BASE_OK;
}

/* ---------------------------------------------------------------- open */

static enum base_status read_header(struct trc_file *f, uint64_t *chunks_at, struct base_diag *d)
{
    uint8_t h[TRC_NPT_HEADER_FIXED];
    if (f->size >= 8) {
        TRY(read_at(f, 0, h, 8, "the magic", d));
        if (memcmp(h, TRC_NPT_MAGIC, 8) != 0)
            return bad(f, d, "not an npusim trace: the file does not start with '" TRC_NPT_MAGIC "'");
    }
    if (f->size < TRC_NPT_HEADER_FIXED)
        return bad(f, d, "truncated: %llu bytes, shorter than the %d-byte header", (unsigned long long)f->size,
                   TRC_NPT_HEADER_FIXED);
    TRY(read_at(f, 0, h, sizeof h, "the header", d));
    struct trc_cur c = {h + 8, h + sizeof h, false};
    uint32_t version = (uint32_t)trc_cur_le(&c, 4);
    uint64_t mn = trc_cur_le(&c, 4);
    uint32_t mcrc = (uint32_t)trc_cur_le(&c, 4), hcrc = (uint32_t)trc_cur_le(&c, 4);
    uint32_t hc = (uint32_t)crc32(0L, h, 20);
    if (hc != hcrc) return bad(f, d, "the header (bytes 0-19): crc32 is 0x%08x, the header says 0x%08x", hc, hcrc);
    if (version < TRC_NPT_VERSION)
        return bad(f, d,
                   "the header (bytes 8-11): format version %u, older than the version %d this npusim reads "
                   "(written before slices carried their location chains%s): record the run again",
                   version, TRC_NPT_VERSION,
                   version < 2 ? ", and collective and link lanes; version 1 files may number lane kinds differently"
                               : "");
    if (version != TRC_NPT_VERSION)
        return bad(f, d, "the header (bytes 8-11): format version %u; this npusim reads version %d", version,
                   TRC_NPT_VERSION);
    if (mn > MAX_RAW_BYTES || !base_grow((void **)&f->raw.p, &f->raw.cap, mn ? mn : 1, 1))
        return bad(f, d, "the header: %llu bytes of parameters is implausible", (unsigned long long)mn);
    TRY(read_at(f, TRC_NPT_HEADER_FIXED, f->raw.p, mn, "the simulation parameters after the header", d));
    uint32_t mc = (uint32_t)crc32(0L, f->raw.p, (uInt)mn);
    if (mc != mcrc)
        return bad(f, d, "the simulation parameters (bytes 24-%llu): crc32 is 0x%08x, the header says 0x%08x",
                   (unsigned long long)(TRC_NPT_HEADER_FIXED + mn), mc, mcrc);
    c.p = f->raw.p;
    c.end = f->raw.p + mn;
    uint64_t n = trc_cur_uv(&c);
    if (n > mn) return bad(f, d, "the simulation parameters: %llu entries in %llu bytes", (unsigned long long)n, (unsigned long long)mn);
    f->meta = calloc(n ? n : 1, sizeof *f->meta);
    if (!f->meta) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        trc_cur_str(&c, f->meta[i].key, sizeof f->meta[i].key);
        trc_cur_str(&c, f->meta[i].value, sizeof f->meta[i].value);
    }
    if (c.bad || c.p != c.end) return bad(f, d, "the simulation parameters do not decode");
    f->n_meta = (size_t)n;
    *chunks_at = TRC_NPT_HEADER_FIXED + mn;
    return BASE_OK;
}

static enum base_status read_index(struct trc_file *f, uint64_t chunks_at, struct base_diag *d)
{
    uint8_t ft[TRC_NPT_FOOTER];
    if (f->size < chunks_at + TRC_NPT_FOOTER)
        return bad(f, d, "truncated: %llu bytes, no room for the %d-byte footer that ends a complete trace",
                   (unsigned long long)f->size, TRC_NPT_FOOTER);
    TRY(read_at(f, f->size - TRC_NPT_FOOTER, ft, sizeof ft, "the footer", d));
    if (memcmp(ft, TRC_NPT_FOOTER_MAGIC, 8) != 0)
        return bad(f, d, "truncated or unfinished: the last %d bytes are not the footer ('" TRC_NPT_FOOTER_MAGIC
                         "'); the writer puts the index and the footer last",
                   TRC_NPT_FOOTER);
    struct trc_cur c = {ft + 8, ft + sizeof ft, false};
    uint64_t ioff = trc_cur_le(&c, 8), fsize = trc_cur_le(&c, 8), n = trc_cur_le(&c, 4);
    uint32_t fcrc = (uint32_t)trc_cur_le(&c, 4), fc = (uint32_t)crc32(0L, ft, 28);
    if (fc != fcrc) return bad(f, d, "the footer (at byte %llu): crc32 is 0x%08x, the footer says 0x%08x",
                               (unsigned long long)(f->size - TRC_NPT_FOOTER), fc, fcrc);
    if (fsize != f->size)
        return bad(f, d, "the footer says the file has %llu bytes; it has %llu", (unsigned long long)fsize,
                   (unsigned long long)f->size);
    if (ioff < chunks_at || ioff + TRC_NPT_CHUNK_HEADER > f->size - TRC_NPT_FOOTER)
        return bad(f, d, "the footer points at byte %llu for the index, outside the chunks", (unsigned long long)ioff);
    char desc[96];
    snprintf(desc, sizeof desc, "the index chunk (at byte %llu)", (unsigned long long)ioff);
    TRY(load_raw(f, ioff, TRC_CHUNK_INDEX, NULL, desc, d));
    c.p = f->raw.p;
    c.end = f->raw.p + f->raw.n;
    uint64_t m = trc_cur_uv(&c);
    if (c.bad || m != n || m > f->raw.n) return bad(f, d, "%s: %llu entries, the footer says %llu", desc, (unsigned long long)m, (unsigned long long)n);
    f->idx = calloc(m ? m : 1, sizeof *f->idx);
    if (!f->idx) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    for (uint64_t i = 0; i < m; i++) {
        struct trc_index_entry *e = &f->idx[i];
        uint64_t v[9];
        for (int k = 0; k < 9; k++) v[k] = trc_cur_uv(&c);
        e->crc = (uint32_t)trc_cur_le(&c, 4);
        if (c.bad || v[0] < TRC_CHUNK_STRINGS || v[0] > TRC_CHUNK_OPS || v[0] == TRC_CHUNK_INDEX || v[1] > UINT32_MAX || v[2] > 63 ||
            v[6] < chunks_at || v[6] > ioff || v[7] > ioff - v[6] || v[8] > MAX_RAW_BYTES)
            return bad(f, d, "%s: entry %llu is out of range (type, lane, level, offset or sizes)", desc, (unsigned long long)i);
        e->type = (uint32_t)v[0];
        e->lane = (uint32_t)v[1];
        e->level = (uint32_t)v[2];
        e->count = v[3];
        e->t0_ps = v[4];
        e->t1_ps = v[5];
        e->offset = v[6];
        e->comp_bytes = v[7];
        e->raw_bytes = v[8];
    }
    if (c.p != c.end) return bad(f, d, "%s: bytes left after its entries", desc);
    f->n_idx = (size_t)m;
    return BASE_OK;
}

static enum base_status read_tables(struct trc_file *f, struct base_diag *d)
{
    size_t si = SIZE_MAX, li = SIZE_MAX;
    for (size_t i = 0; i < f->n_idx; i++) {
        if (f->idx[i].type == TRC_CHUNK_STRINGS && si == SIZE_MAX) si = i;
        if (f->idx[i].type == TRC_CHUNK_LANES && li == SIZE_MAX) li = i;
    }
    if (si == SIZE_MAX || li == SIZE_MAX) return bad(f, d, "the index lists no %s chunk", si == SIZE_MAX ? "strings" : "lanes");
    char desc[200];
    chunk_desc(f, si, desc, sizeof desc);
    TRY(load_entry(f, si, d));
    struct trc_cur c = {f->raw.p, f->raw.p + f->raw.n, false};
    uint64_t n = trc_cur_uv(&c);
    if (c.bad || n > f->raw.n || n >= UINT32_MAX) return bad(f, d, "%s: bad string count", desc);
    f->strings = calloc(n + 1, sizeof *f->strings);
    if (!f->strings) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    f->strings[0] = calloc(1, 1);
    f->n_strings = 1;
    if (!f->strings[0]) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len = trc_cur_uv(&c);
        if (c.bad || len > (uint64_t)(c.end - c.p)) return bad(f, d, "%s: string %llu runs past the chunk", desc, (unsigned long long)i + 1);
        char *s = malloc(len + 1);
        if (!s) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
        memcpy(s, c.p, len);
        s[len] = 0;
        c.p += len;
        f->strings[f->n_strings++] = s;
    }
    chunk_desc(f, li, desc, sizeof desc);
    TRY(load_entry(f, li, d));
    c.p = f->raw.p;
    c.end = f->raw.p + f->raw.n;
    n = trc_cur_uv(&c);
    if (c.bad || n > f->raw.n) return bad(f, d, "%s: bad lane count", desc);
    f->lanes = calloc(n ? n : 1, sizeof *f->lanes);
    if (!f->lanes) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        struct lane_info *l = &f->lanes[i];
        trc_cur_str(&c, l->lane.name, sizeof l->lane.name);
        uint64_t kind = trc_cur_uv(&c), chip = trc_cur_uv(&c), core = trc_cur_uv(&c), sort = trc_cur_uv(&c);
        trc_cur_str(&c, l->lane.unit, sizeof l->lane.unit);
        l->n_slices = trc_cur_uv(&c);
        l->n_samples = trc_cur_uv(&c);
        l->totals.lane = (uint32_t)i;
        l->totals.slices = l->n_slices;
        l->totals.busy_ps = trc_cur_uv(&c);
        l->totals.wait_ps = trc_cur_uv(&c);
        l->totals.bytes = trc_cur_uv(&c);
        l->totals.flops = trc_cur_uv(&c);
        if (c.bad || kind >= TRC_LANE_KIND_COUNT || chip > UINT32_MAX || core > (uint64_t)INT32_MAX + 1 || sort > UINT32_MAX)
            return bad(f, d, "%s: lane %llu does not decode", desc, (unsigned long long)i);
        l->lane.kind = (uint32_t)kind;
        l->lane.chip = (uint32_t)chip;
        l->lane.core = (int32_t)((int64_t)core - 1);
        l->lane.sort_index = (uint32_t)sort;
    }
    f->n_lanes = (uint32_t)n;
    f->end_ps = f->idx[li].t1_ps;
    return BASE_OK;
}

static bool push_idx(size_t **v, size_t *n, size_t e)
{
    size_t k = *n;
    if ((k & (k - 1)) == 0) { /* 0 or a power of two: double */
        size_t *q = realloc(*v, (k ? 2 * k : 1) * sizeof *q);
        if (!q) return false;
        *v = q;
    }
    (*v)[(*n)++] = e;
    return true;
}

static enum base_status sort_chunks(struct trc_file *f, struct base_diag *d)
{
    for (size_t i = 0; i < f->n_idx; i++) {
        const struct trc_index_entry *e = &f->idx[i];
        if (e->type == TRC_CHUNK_STRINGS || e->type == TRC_CHUNK_LANES) continue;
        if (e->type == TRC_CHUNK_OPS) {
            f->ops_entry = i + 1;
            continue;
        }
        if (e->type == TRC_CHUNK_FLOWS) {
            if (!push_idx(&f->flows, &f->n_flow_chunks, i)) return BASE_ERR_NOMEM;
            continue;
        }
        if (e->lane >= f->n_lanes) return bad(f, d, "index entry %zu names lane %u of %u", i, e->lane, f->n_lanes);
        struct lane_info *l = &f->lanes[e->lane];
        bool ok = e->type == TRC_CHUNK_SLICES    ? push_idx(&l->slices, &l->n_slice_chunks, i)
                  : e->type == TRC_CHUNK_SAMPLES ? push_idx(&l->samples, &l->n_sample_chunks, i)
                                                 : push_idx(&l->summ, &l->n_summ, i);
        if (!ok) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    }
    for (uint32_t i = 0; i < f->n_lanes; i++) {
        struct lane_info *l = &f->lanes[i];
        l->min_level = 1;
        l->max_level = 0;
        uint64_t sum = 0;
        for (size_t k = 0; k < l->n_slice_chunks; k++) {
            const struct trc_index_entry *e = &f->idx[l->slices[k]];
            if (k && e->t0_ps < f->idx[l->slices[k - 1]].t0_ps)
                return bad(f, d, "index: the slice chunks of lane %u '%s' are not in time order", i, l->lane.name);
            sum += e->count;
        }
        if (sum != l->n_slices)
            return bad(f, d, "index: lane %u '%s' has %llu slices in its chunks, the lane table says %llu", i, l->lane.name,
                       (unsigned long long)sum, (unsigned long long)l->n_slices);
        for (size_t k = 0; k < l->n_summ; k++) {
            uint32_t lv = f->idx[l->summ[k]].level;
            if (k == 0 || lv < l->min_level) l->min_level = lv;
            if (k == 0 || lv > l->max_level) l->max_level = lv;
            if (k && lv < f->idx[l->summ[k - 1]].level)
                return bad(f, d, "index: the summary chunks of lane %u '%s' are not in level order", i, l->lane.name);
        }
    }
    return BASE_OK;
}

enum base_status trc_open_stream(FILE *fp, const char *name, struct trc_file **out, struct base_diag *diag)
{
    *out = NULL;
    struct trc_file *f = calloc(1, sizeof *f);
    if (!f) {
        fclose(fp);
        return base_diag_set(diag, BASE_ERR_NOMEM, name, 0, 0, "out of memory opening a trace");
    }
    snprintf(f->path, sizeof f->path, "%s", name);
    f->f = fp;
    enum base_status st = BASE_OK;
    if (fseeko(f->f, 0, SEEK_END) != 0) st = base_diag_set(diag, BASE_ERR_IO, name, 0, 0, "cannot seek: %s", strerror(errno));
    else f->size = (uint64_t)ftello(f->f);
    uint64_t chunks_at = 0;
    if (st == BASE_OK) st = read_header(f, &chunks_at, diag);
    if (st == BASE_OK) st = read_index(f, chunks_at, diag);
    if (st == BASE_OK) st = read_tables(f, diag);
    if (st == BASE_OK) st = sort_chunks(f, diag);
    if (st != BASE_OK) {
        trc_close(f);
        return st;
    }
    *out = f;
    return BASE_OK;
}

/* A JSON trace: read whole, written as .npt into an anonymous temporary
 * file, opened from there (errors still name the JSON file). */
static enum base_status open_json(const char *path, struct trc_file **out, struct base_diag *diag)
{
    struct trc_trace *t = NULL;
    TRY(trc_read_json(path, &t, diag));
    FILE *tmp = tmpfile();
    enum base_status st = tmp ? BASE_OK
                              : base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot create a temporary file to view it: %s",
                                              strerror(errno));
    if (st == BASE_OK) st = trc_write_npt_stream(t, tmp, path, diag);
    trc_trace_destroy(t);
    if (st != BASE_OK) {
        if (tmp) fclose(tmp);
        return st;
    }
    return trc_open_stream(tmp, path, out, diag);
}

static enum base_status trc_open_impl(const char *path, struct trc_file **out, struct base_diag *diag)
{
    *out = NULL;
    enum trc_format fmt;
    if (trc_format_from_path(path, &fmt) && fmt != TRC_FORMAT_NPT) return open_json(path, out, diag);
    /* a regular file of any size (read at random, a chunk at a time): a FIFO
     * or device would block or never end */
    struct base_limits lim;
    base_limits_default(&lim);
    lim.v[BASE_LIMIT_INPUT_BYTES] = UINT64_MAX;
    FILE *fp;
    TRY(base_file_open(path, &lim, &fp, NULL, diag));
    return trc_open_stream(fp, path, out, diag);
}

enum base_status trc_open(const char *path, struct trc_file **out, struct base_diag *diag)
{
    return base_diag_ensure(diag, trc_open_impl(path, out, diag), path, "opening a trace");
}

void trc_close(struct trc_file *f)
{
    if (!f) return;
    if (f->f) fclose(f->f);
    for (uint32_t i = 0; i < f->n_strings; i++) free(f->strings[i]);
    free(f->strings);
    for (uint32_t i = 0; i < f->n_lanes; i++) {
        free(f->lanes[i].slices);
        free(f->lanes[i].samples);
        free(f->lanes[i].summ);
    }
    free(f->lanes);
    free(f->meta);
    free(f->idx);
    free(f->flows);
    free(f->ops);
    for (int i = 0; i < CACHE_SLOTS; i++) free(f->cache[i].data);
    trc_buf_free(&f->z);
    trc_buf_free(&f->raw);
    if (f->zs_ready) inflateEnd(&f->zs);
    free(f);
}

/* ------------------------------------------------------------- queries */

uint32_t trc_file_n_lanes(const struct trc_file *f) { return f->n_lanes; }
const struct trc_lane *trc_file_lane(const struct trc_file *f, uint32_t lane)
{
    return lane < f->n_lanes ? &f->lanes[lane].lane : NULL;
}
uint64_t trc_file_lane_count(const struct trc_file *f, uint32_t lane)
{
    return lane < f->n_lanes ? f->lanes[lane].n_slices + f->lanes[lane].n_samples : 0;
}
const char *trc_file_string(const struct trc_file *f, uint32_t id) { return id < f->n_strings ? f->strings[id] : ""; }
uint32_t trc_file_n_strings(const struct trc_file *f) { return f->n_strings; }
size_t trc_file_n_meta(const struct trc_file *f) { return f->n_meta; }
const struct trc_meta_kv *trc_file_meta_at(const struct trc_file *f, size_t i) { return i < f->n_meta ? &f->meta[i] : NULL; }
const char *trc_file_meta(const struct trc_file *f, const char *key)
{
    for (size_t i = 0; i < f->n_meta; i++)
        if (!strcmp(f->meta[i].key, key)) return f->meta[i].value;
    return NULL;
}
uint64_t trc_file_end_ps(const struct trc_file *f) { return f->end_ps; }

void trc_file_lane_levels(const struct trc_file *f, uint32_t lane, uint32_t *min_level, uint32_t *max_level)
{
    *min_level = 1;
    *max_level = 0;
    if (lane >= f->n_lanes || f->lanes[lane].n_summ == 0) return;
    *min_level = f->lanes[lane].min_level;
    *max_level = f->lanes[lane].max_level;
}

void trc_file_chunk_stats(const struct trc_file *f, uint64_t *n_chunks, uint64_t *comp_bytes, uint64_t *raw_bytes)
{
    *n_chunks = f->n_idx;
    *comp_bytes = *raw_bytes = 0;
    for (size_t i = 0; i < f->n_idx; i++) {
        *comp_bytes += f->idx[i].comp_bytes;
        *raw_bytes += f->idx[i].raw_bytes;
    }
}

static bool overlaps(uint64_t s, uint64_t e, uint64_t t0, uint64_t t1)
{
    return s < t1 && (e > t0 || s >= t0);
}

enum base_status trc_file_slices(struct trc_file *f, uint32_t lane, uint64_t t0, uint64_t t1, struct trc_slice_vec *out,
                                 struct base_diag *d)
{
    if (lane >= f->n_lanes) return base_diag_set(d, BASE_ERR_INVALID, f->path, 0, 0, "lane %u of %u", lane, f->n_lanes);
    const struct lane_info *l = &f->lanes[lane];
    /* first chunk whose latest end reaches t0 (ends are non-decreasing: slices do not overlap) */
    size_t lo = 0, hi = l->n_slice_chunks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->idx[l->slices[mid]].t1_ps < t0) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = lo; k < l->n_slice_chunks; k++) {
        const struct trc_index_entry *e = &f->idx[l->slices[k]];
        if (e->t0_ps >= t1) break;
        const void *v;
        size_t n;
        TRY(cached(f, l->slices[k], &v, &n, d));
        const struct trc_slice *s = v;
        for (size_t i = 0; i < n; i++) {
            if (s[i].start_ps >= t1) break;
            if (!overlaps(s[i].start_ps, s[i].start_ps + s[i].dur_ps, t0, t1)) continue;
            if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v))
                return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
            out->v[out->n++] = s[i];
        }
    }
    return BASE_OK;
}

enum base_status trc_file_summary(struct trc_file *f, uint32_t lane, uint32_t level, uint64_t t0, uint64_t t1,
                                  struct trc_bucket_vec *out, struct base_diag *d)
{
    if (lane >= f->n_lanes) return base_diag_set(d, BASE_ERR_INVALID, f->path, 0, 0, "lane %u of %u", lane, f->n_lanes);
    const struct lane_info *l = &f->lanes[lane];
    if (l->n_summ == 0 || level < l->min_level || level > l->max_level)
        return base_diag_set(d, BASE_ERR_INVALID, f->path, 0, 0, "lane %u '%s' has no summary at level %u", lane,
                             l->lane.name, level);
    for (size_t k = 0; k < l->n_summ; k++) {
        const struct trc_index_entry *e = &f->idx[l->summ[k]];
        if (e->level != level || !overlaps(e->t0_ps, e->t1_ps, t0, t1)) continue;
        const void *v;
        size_t n;
        TRY(cached(f, l->summ[k], &v, &n, d));
        const struct trc_bucket *b = v;
        for (size_t i = 0; i < n; i++) {
            uint64_t bs = b[i].index << level, be = bs + ((uint64_t)1 << level);
            if (!overlaps(bs, be, t0, t1)) continue;
            if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v))
                return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
            out->v[out->n++] = b[i];
        }
    }
    return BASE_OK;
}

enum base_status trc_file_samples(struct trc_file *f, uint32_t lane, uint64_t t0, uint64_t t1, struct trc_sample_vec *out,
                                  struct base_diag *d)
{
    if (lane >= f->n_lanes) return base_diag_set(d, BASE_ERR_INVALID, f->path, 0, 0, "lane %u of %u", lane, f->n_lanes);
    const struct lane_info *l = &f->lanes[lane];
    struct trc_sample before;
    bool have_before = false;
    for (size_t k = 0; k < l->n_sample_chunks; k++) {
        const struct trc_index_entry *e = &f->idx[l->samples[k]];
        if (e->t0_ps >= t1) break;
        if (k + 1 < l->n_sample_chunks && f->idx[l->samples[k + 1]].t0_ps <= t0) continue; /* all before t0 */
        const void *v;
        size_t n;
        TRY(cached(f, l->samples[k], &v, &n, d));
        const struct trc_sample *s = v;
        for (size_t i = 0; i < n; i++) {
            if (s[i].t_ps >= t1) break;
            if (s[i].t_ps < t0) {
                before = s[i];
                have_before = true;
                continue;
            }
            if (have_before) {
                if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v)) return BASE_ERR_NOMEM;
                out->v[out->n++] = before;
                have_before = false;
            }
            if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v)) return BASE_ERR_NOMEM;
            out->v[out->n++] = s[i];
        }
    }
    if (have_before) {
        if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v)) return BASE_ERR_NOMEM;
        out->v[out->n++] = before;
    }
    return BASE_OK;
}

enum base_status trc_file_flows(struct trc_file *f, uint64_t t0, uint64_t t1, struct trc_flow_vec *out, struct base_diag *d)
{
    for (size_t k = 0; k < f->n_flow_chunks; k++) {
        const struct trc_index_entry *e = &f->idx[f->flows[k]];
        if (!overlaps(e->t0_ps, e->t1_ps, t0, t1) && !(e->t0_ps == e->t1_ps && e->t0_ps >= t0 && e->t0_ps < t1)) continue;
        const void *v;
        size_t n;
        TRY(cached(f, f->flows[k], &v, &n, d));
        const struct trc_flow *fl = v;
        for (size_t i = 0; i < n; i++) {
            uint64_t a = fl[i].from_ps < fl[i].to_ps ? fl[i].from_ps : fl[i].to_ps;
            uint64_t b = fl[i].from_ps < fl[i].to_ps ? fl[i].to_ps : fl[i].from_ps;
            if (!(a < t1 && b >= t0)) continue;
            if (!base_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v)) return BASE_ERR_NOMEM;
            out->v[out->n++] = fl[i];
        }
    }
    return BASE_OK;
}

enum base_status trc_file_verify(struct trc_file *f, struct base_diag *d)
{
    for (size_t i = 0; i < f->n_idx; i++) {
        uint32_t ty = f->idx[i].type;
        if (ty == TRC_CHUNK_STRINGS || ty == TRC_CHUNK_LANES) {
            TRY(load_entry(f, i, d));
            continue;
        }
        void *v;
        size_t n;
        TRY(decode(f, i, &v, &n, d));
        free(v);
    }
    return BASE_OK;
}

static enum base_status trc_file_load_impl(struct trc_file *f, struct trc_trace **out, struct base_diag *d)
{
    *out = NULL;
    struct trc_trace *t;
    if (trc_trace_create(&t) != BASE_OK) return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    enum base_status st = BASE_OK;
    uint32_t *map = calloc(f->n_strings, sizeof *map);
    if (!map) st = BASE_ERR_NOMEM;
    for (uint32_t i = 1; st == BASE_OK && i < f->n_strings; i++) st = trc_trace_intern(t, f->strings[i], &map[i]);
    for (size_t i = 0; st == BASE_OK && i < f->n_meta; i++) st = trc_trace_set_meta(t, f->meta[i].key, f->meta[i].value);
    for (uint32_t i = 0; st == BASE_OK && i < f->n_lanes; i++) st = trc_trace_add_lane(t, &f->lanes[i].lane, NULL);
    if (st != BASE_OK) st = base_diag_set(d, st, f->path, 0, 0, "out of memory");
    for (size_t i = 0; st == BASE_OK && i < f->n_idx; i++) {
        const struct trc_index_entry *e = &f->idx[i];
        if (e->type != TRC_CHUNK_SLICES && e->type != TRC_CHUNK_SAMPLES && e->type != TRC_CHUNK_FLOWS) continue;
        void *v;
        size_t n;
        st = decode(f, i, &v, &n, d);
        if (st != BASE_OK) break;
        for (size_t k = 0; k < n && st == BASE_OK; k++) {
            if (e->type == TRC_CHUNK_SLICES) {
                struct trc_slice s = ((struct trc_slice *)v)[k];
                s.name = map[s.name];
                s.op = map[s.op];
                s.loc = map[s.loc];
                s.kernel = map[s.kernel];
                s.src = map[s.src];
                st = trc_trace_add_slice(t, e->lane, &s);
            } else if (e->type == TRC_CHUNK_SAMPLES) {
                const struct trc_sample *s = (const struct trc_sample *)v + k;
                st = trc_trace_add_sample(t, e->lane, s->t_ps, s->value);
            } else {
                st = trc_trace_add_flow(t, (const struct trc_flow *)v + k);
            }
        }
        free(v);
        if (st != BASE_OK) st = base_diag_set(d, st, f->path, 0, 0, "out of memory");
    }
    free(map);
    if (st == BASE_OK) st = trc_trace_finalize(t);
    if (st == BASE_OK) st = trc_validate_read(t, f->path, d);
    if (st != BASE_OK) {
        trc_trace_destroy(t);
        return st;
    }
    *out = t;
    return BASE_OK;
}

enum base_status trc_file_load(struct trc_file *f, struct trc_trace **out, struct base_diag *d)
{
    return base_diag_ensure(d, trc_file_load_impl(f, out, d), "", "loading a trace");
}

enum base_status trc_read(const char *path, struct trc_trace **out, struct base_diag *diag)
{
    enum trc_format fmt;
    if (trc_format_from_path(path, &fmt) && fmt != TRC_FORMAT_NPT) return trc_read_json(path, out, diag);
    struct trc_file *f;
    TRY(trc_open(path, &f, diag));
    enum base_status st = trc_file_load(f, out, diag);
    trc_close(f);
    return st;
}

const struct trc_lane_stats *trc_file_lane_stats(const struct trc_file *f, uint32_t lane)
{
    return lane < f->n_lanes ? &f->lanes[lane].totals : NULL;
}

enum base_status trc_file_ops(struct trc_file *f, const struct trc_op_stats **ops, size_t *n, struct base_diag *d)
{
    if (!f->ops_loaded && f->ops_entry) {
        void *v;
        size_t m;
        TRY(decode(f, f->ops_entry - 1, &v, &m, d));
        f->ops = v;
        f->n_ops = m;
    }
    f->ops_loaded = true;
    *ops = f->ops;
    *n = f->n_ops;
    return BASE_OK;
}

enum base_status trc_file_stats(struct trc_file *f, struct trc_stats *out, struct base_diag *d)
{
    memset(out, 0, sizeof *out);
    const struct trc_op_stats *ops;
    size_t n;
    TRY(trc_file_ops(f, &ops, &n, d));
    out->lanes = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *out->lanes);
    out->ops = calloc(n ? n : 1, sizeof *out->ops);
    if (!out->lanes || !out->ops) {
        trc_stats_free(out);
        return base_diag_set(d, BASE_ERR_NOMEM, f->path, 0, 0, "out of memory");
    }
    out->end_ps = f->end_ps;
    out->n_lanes = f->n_lanes;
    for (uint32_t i = 0; i < f->n_lanes; i++) {
        out->lanes[i] = f->lanes[i].totals;
        out->n_slices += f->lanes[i].n_slices;
        out->n_samples += f->lanes[i].n_samples;
    }
    for (size_t k = 0; k < f->n_flow_chunks; k++) out->n_flows += f->idx[f->flows[k]].count;
    memcpy(out->ops, ops, n * sizeof *ops);
    out->n_ops = n;
    return BASE_OK;
}
