/* Private to traces/: growable arrays, varints, the .npt layout constants. */
#ifndef NPUSIM_TRACES_INTERNAL_H
#define NPUSIM_TRACES_INTERNAL_H

#include "traces/traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ------------------------------------------------------------ byte buffers */

struct trc_buf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
};

static inline void trc_buf_bytes(struct trc_buf *b, const void *src, size_t n)
{
    if (b->oom) return;
    if (!base_grow((void **)&b->p, &b->cap, b->n + n, 1)) {
        b->oom = true;
        return;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static inline void trc_buf_u8(struct trc_buf *b, uint8_t v) { trc_buf_bytes(b, &v, 1); }

static inline void trc_buf_le(struct trc_buf *b, uint64_t v, int bytes)
{
    uint8_t t[8];
    for (int i = 0; i < bytes; i++) t[i] = (uint8_t)(v >> (8 * i));
    trc_buf_bytes(b, t, (size_t)bytes);
}

/* LEB128 */
static inline void trc_buf_uv(struct trc_buf *b, uint64_t v)
{
    uint8_t t[10];
    int n = 0;
    do {
        uint8_t x = v & 0x7f;
        v >>= 7;
        t[n++] = (uint8_t)(x | (v ? 0x80 : 0));
    } while (v);
    trc_buf_bytes(b, t, (size_t)n);
}

static inline void trc_buf_str(struct trc_buf *b, const char *s)
{
    size_t n = strlen(s);
    trc_buf_uv(b, n);
    trc_buf_bytes(b, s, n);
}

static inline void trc_buf_free(struct trc_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Reading: a cursor that turns overruns into a flag. */
struct trc_cur {
    const uint8_t *p, *end;
    bool bad;
};

static inline uint64_t trc_cur_uv(struct trc_cur *c)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end) {
            c->bad = true;
            return 0;
        }
        uint8_t x = *c->p++;
        v |= (uint64_t)(x & 0x7f) << shift;
        if (!(x & 0x80)) return v;
    }
    c->bad = true;
    return 0;
}

static inline uint64_t trc_cur_le(struct trc_cur *c, int bytes)
{
    if (c->end - c->p < bytes) {
        c->bad = true;
        c->p = c->end;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)c->p[i] << (8 * i);
    c->p += bytes;
    return v;
}

/* A string of at most cap - 1 bytes into dst (longer: bad). */
static inline void trc_cur_str(struct trc_cur *c, char *dst, size_t cap)
{
    uint64_t n = trc_cur_uv(c);
    if (c->bad || n >= cap || (uint64_t)(c->end - c->p) < n) {
        c->bad = true;
        dst[0] = 0;
        return;
    }
    memcpy(dst, c->p, n);
    dst[n] = 0;
    c->p += n;
}


/* ------------------------------------------------------------ .npt layout */

#define TRC_NPT_MAGIC "NPUSIMTR"
#define TRC_NPT_FOOTER_MAGIC "NPTINDEX"
/* 2: collective and link lanes and slices (lane kinds 5, 6; slice kinds 5,
 * 6).  3: slices carry their op's location chain (src; flag bit 12), the
 * ops chunk is per op and kernel with kernel entries.  Older files are
 * refused, located (version 1's kinds are ambiguous besides: the host lane
 * was inserted as lane kind 1 during version 1 without a bump;
 * docs/traces.md). */
#define TRC_NPT_VERSION 3
#define TRC_NPT_HEADER_FIXED 24   /* magic 8, version 4, meta bytes 4, meta crc 4, reserved 4 */
#define TRC_NPT_CHUNK_HEADER 32   /* see docs/traces.md */
#define TRC_NPT_FOOTER 32
#define TRC_NPT_SLICES_PER_CHUNK 1024
#define TRC_NPT_SAMPLES_PER_CHUNK 8192
#define TRC_NPT_FLOWS_PER_CHUNK 8192

/* X(ENUM, value, "name") */
#define TRC_CHUNK_TYPES(X)         \
    X(STRINGS, 1, "strings")        \
    X(LANES, 2, "lanes")            \
    X(SLICES, 3, "slices")          \
    X(SAMPLES, 4, "samples")        \
    X(FLOWS, 5, "flows")            \
    X(SUMMARY, 6, "summary")        \
    X(INDEX, 7, "index")            \
    X(OPS, 8, "ops")

enum trc_chunk_type {
#define X(e, v, name) TRC_CHUNK_##e = v,
    TRC_CHUNK_TYPES(X)
#undef X
};
const char *trc_chunk_type_name(uint32_t type);

/* One entry of the index (docs/traces.md "Index"). */
struct trc_index_entry {
    uint32_t type, lane, level, reserved;
    uint64_t count;          /* records in the chunk */
    uint64_t t0_ps, t1_ps;   /* first start, latest end (SUMMARY: bucket time range) */
    uint64_t offset;         /* of the chunk header in the file */
    uint64_t comp_bytes, raw_bytes;
    uint32_t crc;            /* of the compressed payload */
};

/* Summary level bounds for a lane of slices (shared by writer and tests). */
void trc_lane_level_range(const struct trc_slice *s, size_t n, uint64_t end_ps, uint32_t *min_level,
                          uint32_t *max_level);

/* Summaries of levels lo..hi of one lane's slices, finest first, each
 * handed to emit: the finest from the slices, each coarser one from the
 * one below (sums exact; the dominant op exact while a bucket holds at most
 * 8 distinct ops). */
typedef enum base_status (*trc_level_fn)(void *user, uint32_t level, const struct trc_bucket *b, size_t n);
enum base_status trc_summarize_levels(const struct trc_slice *s, size_t n, uint32_t lo, uint32_t hi, trc_level_fn emit,
                                      void *user);

/* Slice record codec (shared by the writer and the reader): prev is the
 * previous slice of the chunk (all zero before the first). */
void trc_slice_encode(struct trc_buf *b, const struct trc_slice *s, struct trc_slice *prev);
bool trc_slice_decode(struct trc_cur *c, struct trc_slice *s, struct trc_slice *prev);

/* .npt to / from an open stream (a JSON trace viewed through trc_open is
 * converted into a tmpfile()). */
enum base_status trc_write_npt_stream(const struct trc_trace *t, FILE *f, const char *name, struct base_diag *diag);
/* Takes f (closed by trc_close, also on failure). */
enum base_status trc_open_stream(FILE *f, const char *name, struct trc_file **out, struct base_diag *diag);

/* trc_trace_validate for a trace read from `path`: a refusal names the file. */
static inline enum base_status trc_validate_read(const struct trc_trace *t, const char *path, struct base_diag *diag)
{
    enum base_status st = trc_trace_validate(t, diag);
    if (st != BASE_OK && diag && !diag->file[0]) snprintf(diag->file, sizeof diag->file, "%s", path);
    return st;
}

#endif
