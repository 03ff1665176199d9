/* memory: HBM, on-chip SRAM (scratchpad / accumulator) and the shared-bandwidth
 * model of DMA transfers.
 *
 * - struct mem_hbm: byte-addressed, capacity enforced by the caller through
 *   mem_hbm_in_range; values (functional mode) are stored lazily in 64 KiB
 *   pages, so a 96 GiB HBM costs only what a program touches.  Timing-only
 *   runs store nothing.  Never-written bytes read as zero, except in lazy
 *   regions (mem_hbm_map_lazy): there they read as a lazy tensor's values
 *   (procedural inputs, weight files), computed at each read and stored only
 *   when a write to their page makes it a real one.
 * - struct mem_sram: partitions x bytes_per_partition, split into `banks`
 *   equal banks per partition (the accumulator's banks; 1 for the scratchpad).
 * - Both can track which bytes were ever written (one bit per byte, kept
 *   lazily per page for HBM), for the simulator's uninitialised-read check.
 * - struct mem_bw: a bandwidth shared by transfers (the chip's HBM, used by
 *   every DMA queue): a fluid max-min fair share, each transfer also capped
 *   by its own rate (its DMA queue's), recomputed whenever a transfer starts
 *   or ends.  Uses the event kernel (event/event.h) and never allocates after
 *   init.
 */
#ifndef NPUSIM_MEMORY_H
#define NPUSIM_MEMORY_H

#include "base/base.h"
#include "event/event.h"

/* ------------------------------------------------- known-written boxes */

/* Written bits are only ever set, so a box (partitions [p0, p1) x bytes
 * [lo, hi)) once found (or made) fully written stays written.  Each memory
 * keeps a few such boxes so repeated checks and marks of the same tiles
 * skip the bitmaps.  Only boxes whose every byte is written are ever
 * entered (HBM: p0 = 0, p1 = 1). */
#define MEM_WBOX_CACHE 8
struct mem_wbox {
    uint32_t p0, p1;
    uint64_t lo, hi;
};
struct mem_wcache {
    struct mem_wbox box[MEM_WBOX_CACHE];
    uint32_t n, next;  /* entries in use; the next to replace when full */
    uint64_t hits;     /* lookups answered from the cache (for tests and benchmarks) */
};
/* True when the box lies inside one cached box. */
bool mem_wcache_has(const struct mem_wcache *c, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi);
/* Enters a fully written box (merging with a neighbour it extends). */
void mem_wcache_add(struct mem_wcache *c, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi);

/* ------------------------------------------------------------------ HBM */

#define MEM_HBM_PAGE_SHIFT 16
#define MEM_HBM_PAGE_BYTES (UINT64_C(1) << MEM_HBM_PAGE_SHIFT)

/* Bytes [addr, addr + len) read as lazy tensor t's values (a reference). */
struct mem_lazy_region {
    uint64_t addr, len;
    struct base_tensor *t;
};

struct mem_hbm {
    uint64_t capacity_bytes;
    uint64_t n_pages;
    uint8_t **pages;      /* NULL unless storing values; a page is NULL until written */
    uint64_t **written;   /* NULL unless tracking; a bitmap page is NULL until written */
    uint64_t pages_allocated;
    uint64_t written_pages;   /* bitmap pages allocated */
    uint32_t *written_bytes;  /* per page: bytes written so far (a full page skips its bitmap) */
    struct mem_wcache wcache; /* ranges known written (tracking only) */
    struct mem_lazy_region *lazy; /* sorted by address, disjoint */
    uint32_t n_lazy, cap_lazy;
};

/* store_values: keep values (functional mode); track_written: the
 * written-bytes bitmap.  ERR_NOMEM. */
enum base_status mem_hbm_init(struct mem_hbm *h, uint64_t capacity_bytes, bool store_values, bool track_written);
void mem_hbm_deinit(struct mem_hbm *h);
static inline bool mem_hbm_in_range(const struct mem_hbm *h, int64_t lo, int64_t hi)
{
    return lo >= 0 && hi >= lo && (uint64_t)hi <= h->capacity_bytes;
}
/* Makes [addr, addr + its bytes) read as lazy tensor t's values (a new
 * reference; released by deinit).  Values stored: nothing is, until a write
 * to one of its pages stores that page (with the values it had).  A source
 * that fails on a read gives zeros there.  ERR_INVALID when the range is out
 * of range or overlaps another region, ERR_NOMEM. */
enum base_status mem_hbm_map_lazy(struct mem_hbm *h, uint64_t addr, struct base_tensor *t);
/* Copies bytes in and out (in range, values stored).  ERR_NOMEM on write. */
enum base_status mem_hbm_write(struct mem_hbm *h, uint64_t addr, const void *src, uint64_t len);
void mem_hbm_read(const struct mem_hbm *h, uint64_t addr, void *dst, uint64_t len);
/* A pointer to the bytes at addr, valid for *avail bytes (to the end of its
 * page, at most want).  mem_hbm_span_w allocates the page (NULL: out of
 * memory); mem_hbm_span_r returns NULL for a never-written page (which reads
 * as zeros, or as a lazy region's values: mem_hbm_read). */
uint8_t *mem_hbm_span_w(struct mem_hbm *h, uint64_t addr, uint64_t want, uint64_t *avail);
const uint8_t *mem_hbm_span_r(const struct mem_hbm *h, uint64_t addr, uint64_t want, uint64_t *avail);
/* Written-bytes tracking (no-ops without tracking).  A page marked whole
 * needs no bitmap (a 16 GB weight region costs its page count, not 2 GB of
 * bits). */
enum base_status mem_hbm_mark_written(struct mem_hbm *h, uint64_t lo, uint64_t hi);
/* True when every byte of [lo, hi) was written; else *first is the first that was not. */
bool mem_hbm_all_written(const struct mem_hbm *h, uint64_t lo, uint64_t hi, uint64_t *first);
/* The same through the known-written cache: a range found written is
 * remembered; marking a remembered range is free. */
bool mem_hbm_range_written(struct mem_hbm *h, uint64_t lo, uint64_t hi, uint64_t *first);
enum base_status mem_hbm_range_mark_written(struct mem_hbm *h, uint64_t lo, uint64_t hi);

/* ----------------------------------------------------------------- SRAM */

struct mem_sram {
    uint32_t partitions;
    uint64_t bytes_per_partition;
    uint32_t banks;
    uint64_t bank_bytes;      /* bytes_per_partition / banks */
    uint8_t *data;            /* partitions * bytes_per_partition, or NULL (timing only) */
    uint64_t *written;        /* one bit per byte, or NULL */
    uint64_t words_per_partition;
    struct mem_wcache wcache; /* boxes known written (tracking only) */
};

enum base_status mem_sram_init(struct mem_sram *s, uint32_t partitions, uint64_t bytes_per_partition, uint32_t banks,
                               bool store_values, bool track_written);
void mem_sram_deinit(struct mem_sram *s);
static inline uint8_t *mem_sram_row(const struct mem_sram *s, uint32_t partition)
{
    return s->data + (uint64_t)partition * s->bytes_per_partition;
}
static inline bool mem_sram_in_range(const struct mem_sram *s, uint32_t part_start, uint32_t part_count, int64_t lo,
                                     int64_t hi)
{
    return (uint64_t)part_start + part_count <= s->partitions && lo >= 0 && hi >= lo &&
           (uint64_t)hi <= s->bytes_per_partition;
}
/* The bank of a byte offset within a partition. */
static inline uint64_t mem_sram_bank(const struct mem_sram *s, uint64_t byte) { return byte / s->bank_bytes; }
void mem_sram_mark_written(struct mem_sram *s, uint32_t partition, uint64_t lo, uint64_t hi);
bool mem_sram_all_written(const struct mem_sram *s, uint32_t partition, uint64_t lo, uint64_t hi, uint64_t *first);
/* Partitions [p0, p1) x bytes [lo, hi) through the known-written cache:
 * true when every byte was written (the box is then remembered); else
 * *part / *first are the first unwritten byte in partition-major order.
 * Marking a remembered box is free. */
bool mem_sram_box_written(struct mem_sram *s, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi, uint32_t *part,
                          uint64_t *first);
void mem_sram_box_mark_written(struct mem_sram *s, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi);

/* ---------------------------------------------- shared bandwidth (fluid) */

struct mem_flow;
typedef void (*mem_flow_done_fn)(struct mem_flow *f, void *user);

/* One transfer; embedded in its owner (a DMA queue). */
struct mem_flow {
    double left_bytes;       /* still to move, in units of the shared resource */
    double cap_bytes_per_ns; /* the transfer's own limit */
    double rate_bytes_per_ns;   /* its current share */
    uint64_t finish_ps;      /* projected at the last recompute */
    uint64_t start_ps;
    uint32_t id;             /* tie-breaker for equal caps: the owner's index */
    bool active;
    mem_flow_done_fn done;
    void *user;
};

struct mem_bw {
    struct event_sched *sched;
    struct event ev;      /* the next completion */
    double bytes_per_ns;      /* the shared bandwidth */
    struct mem_flow **active;
    struct mem_flow **finished; /* scratch for the completion event */
    uint32_t n_active, cap;
    uint64_t last_ps;         /* flows' left_bytes are as of this time */
    double bytes_total;       /* bytes moved through it so far */
    uint64_t busy_ps;         /* time with at least one active flow */
};

/* A resource of bytes_per_ns shared by at most max_flows transfers at once. */
enum base_status mem_bw_init(struct mem_bw *bw, struct event_sched *sched, double bytes_per_ns, uint32_t max_flows,
                             uint8_t priority);
void mem_bw_deinit(struct mem_bw *bw);
/* Starts a transfer of `bytes` now, capped at cap_bytes_per_ns; done(f,
 * user) is called from the event that completes it.  ERR_LIMIT when
 * max_flows transfers are active. */
enum base_status mem_bw_start(struct mem_bw *bw, struct mem_flow *f, uint32_t id, double bytes, double cap_bytes_per_ns,
                              mem_flow_done_fn done, void *user);

#endif
