/* HBM: capacity, lazily allocated 64 KiB value pages (functional mode) and
 * lazily allocated written-bytes bitmaps.  The page table is one calloc'ed
 * array of pointers: the OS maps its untouched parts lazily too. */
#include "memory/mem_internal.h"

#include <stdlib.h>
#include <string.h>

#define PAGE MEM_HBM_PAGE_BYTES
#define PAGE_WORDS (PAGE / 64)

enum base_status mem_hbm_init(struct mem_hbm *h, uint64_t capacity_bytes, bool store_values, bool track_written)
{
    memset(h, 0, sizeof *h);
    h->capacity_bytes = capacity_bytes;
    h->n_pages = (capacity_bytes + PAGE - 1) / PAGE;
    if (store_values && h->n_pages) {
        h->pages = calloc(h->n_pages, sizeof *h->pages);
        if (!h->pages) return BASE_ERR_NOMEM;
    }
    if (track_written && h->n_pages) {
        h->written = calloc(h->n_pages, sizeof *h->written);
        h->written_bytes = calloc(h->n_pages, sizeof *h->written_bytes);
        if (!h->written || !h->written_bytes) {
            mem_hbm_deinit(h);
            return BASE_ERR_NOMEM;
        }
    }
    return BASE_OK;
}

void mem_hbm_deinit(struct mem_hbm *h)
{
    /* free only what was allocated (a 96 GiB HBM has 1.5 M page slots) */
    if (h->pages)
        for (uint64_t i = 0, left = h->pages_allocated; i < h->n_pages && left; i++)
            if (h->pages[i]) {
                free(h->pages[i]);
                left--;
            }
    if (h->written)
        for (uint64_t i = 0, left = h->written_pages; i < h->n_pages && left; i++)
            if (h->written[i]) {
                free(h->written[i]);
                left--;
            }
    free(h->pages);
    free(h->written);
    free(h->written_bytes);
    h->pages = NULL;
    h->written = NULL;
    h->written_bytes = NULL;
    for (uint32_t i = 0; i < h->n_lazy; i++) base_tensor_release(h->lazy[i].t);
    free(h->lazy);
    h->lazy = NULL;
    h->n_lazy = h->cap_lazy = 0;
}

/* -------------------------------------------------------------- lazy regions */

/* The first region that ends after addr. */
static uint32_t lazy_first(const struct mem_hbm *h, uint64_t addr)
{
    uint32_t lo = 0, hi = h->n_lazy;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->lazy[mid].addr + h->lazy[mid].len <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Bytes [addr, addr + len) of the lazy regions into dst (the rest of dst is
 * left as it is).  Elements cut by the range's ends go through a small
 * buffer. */
static void lazy_fill(const struct mem_hbm *h, uint64_t addr, uint8_t *dst, uint64_t len)
{
    uint64_t end = addr + len;
    for (uint32_t i = lazy_first(h, addr); i < h->n_lazy && h->lazy[i].addr < end; i++) {
        const struct mem_lazy_region *r = &h->lazy[i];
        uint64_t lo = addr > r->addr ? addr : r->addr, hi = end < r->addr + r->len ? end : r->addr + r->len;
        uint64_t es = base_dtype_size(r->t->dtype);
        uint64_t b = lo - r->addr;          /* byte offset in the region */
        while (b < hi - r->addr) {
            uint64_t e = b / es, skip = b % es;
            uint64_t left = hi - r->addr - b;
            uint8_t *out = dst + (r->addr + b - addr);
            if (skip == 0 && left >= es) { /* whole elements straight into dst */
                uint64_t n = left / es;
                if (base_tensor_read(r->t, (int64_t)e, (int64_t)n, out) != BASE_OK) memset(out, 0, n * es);
                b += n * es;
            } else { /* one element cut by an end */
                uint8_t tmp[16] = {0};
                uint64_t take = es - skip < left ? es - skip : left;
                if (base_tensor_read(r->t, (int64_t)e, 1, tmp) != BASE_OK) memset(tmp, 0, sizeof tmp);
                memcpy(out, tmp + skip, take);
                b += take;
            }
        }
    }
}

enum base_status mem_hbm_map_lazy(struct mem_hbm *h, uint64_t addr, struct base_tensor *t)
{
    uint64_t len = base_tensor_nbytes(t);
    if (len == 0) return BASE_OK;
    if (!mem_hbm_in_range(h, (int64_t)addr, (int64_t)(addr + len)) || addr + len < addr) return BASE_ERR_INVALID;
    uint32_t at = lazy_first(h, addr);
    if (at < h->n_lazy && h->lazy[at].addr < addr + len) return BASE_ERR_INVALID;
    size_t cap = h->cap_lazy;
    if (!base_grow((void **)&h->lazy, &cap, (size_t)h->n_lazy + 1, sizeof *h->lazy)) return BASE_ERR_NOMEM;
    h->cap_lazy = (uint32_t)cap;
    memmove(&h->lazy[at + 1], &h->lazy[at], (size_t)(h->n_lazy - at) * sizeof *h->lazy);
    h->lazy[at] = (struct mem_lazy_region){addr, len, base_tensor_retain(t)};
    h->n_lazy++;
    /* pages already stored (a neighbour written before) take the values now */
    for (uint64_t pg = addr >> MEM_HBM_PAGE_SHIFT; h->pages && pg <= (addr + len - 1) >> MEM_HBM_PAGE_SHIFT; pg++) {
        if (!h->pages[pg]) continue;
        uint64_t p0 = pg << MEM_HBM_PAGE_SHIFT, lo = addr > p0 ? addr : p0;
        uint64_t hi = addr + len < p0 + PAGE ? addr + len : p0 + PAGE;
        lazy_fill(h, lo, h->pages[pg] + (lo - p0), hi - lo);
    }
    return BASE_OK;
}

uint8_t *mem_hbm_span_w(struct mem_hbm *h, uint64_t addr, uint64_t want, uint64_t *avail)
{
    uint64_t pg = addr >> MEM_HBM_PAGE_SHIFT, off = addr & (PAGE - 1);
    if (!h->pages[pg]) {
        h->pages[pg] = calloc(1, PAGE);
        if (!h->pages[pg]) return NULL;
        h->pages_allocated++;
        if (h->n_lazy) lazy_fill(h, pg << MEM_HBM_PAGE_SHIFT, h->pages[pg], PAGE); /* the values it had */
    }
    uint64_t n = PAGE - off;
    *avail = n < want ? n : want;
    return h->pages[pg] + off;
}

const uint8_t *mem_hbm_span_r(const struct mem_hbm *h, uint64_t addr, uint64_t want, uint64_t *avail)
{
    uint64_t pg = addr >> MEM_HBM_PAGE_SHIFT, off = addr & (PAGE - 1);
    uint64_t n = PAGE - off;
    *avail = n < want ? n : want;
    return h->pages[pg] ? h->pages[pg] + off : NULL;
}

enum base_status mem_hbm_write(struct mem_hbm *h, uint64_t addr, const void *src, uint64_t len)
{
    const uint8_t *p = src;
    while (len) {
        uint64_t n;
        uint8_t *d = mem_hbm_span_w(h, addr, len, &n);
        if (!d) return BASE_ERR_NOMEM;
        memcpy(d, p, n);
        p += n;
        addr += n;
        len -= n;
    }
    return BASE_OK;
}

void mem_hbm_read(const struct mem_hbm *h, uint64_t addr, void *dst, uint64_t len)
{
    uint8_t *p = dst;
    while (len) {
        uint64_t n;
        const uint8_t *s = mem_hbm_span_r(h, addr, len, &n);
        if (s) {
            memcpy(p, s, n);
        } else {
            memset(p, 0, n);
            if (h->n_lazy) lazy_fill(h, addr, p, n);
        }
        p += n;
        addr += n;
        len -= n;
    }
}

enum base_status mem_hbm_mark_written(struct mem_hbm *h, uint64_t lo, uint64_t hi)
{
    if (!h->written) return BASE_OK;
    while (lo < hi) {
        uint64_t pg = lo >> MEM_HBM_PAGE_SHIFT, off = lo & (PAGE - 1);
        uint64_t n = PAGE - off;
        if (n > hi - lo) n = hi - lo;
        if (h->written_bytes[pg] == PAGE) { /* already whole */
            lo += n;
            continue;
        }
        if (n == PAGE) { /* the whole page: no bitmap needed */
            if (h->written[pg]) {
                free(h->written[pg]);
                h->written[pg] = NULL;
                h->written_pages--;
            }
            h->written_bytes[pg] = PAGE;
            lo += n;
            continue;
        }
        if (!h->written[pg]) {
            h->written[pg] = calloc(PAGE_WORDS, sizeof(uint64_t));
            if (!h->written[pg]) return BASE_ERR_NOMEM;
            h->written_pages++;
        }
        if (h->written_bytes[pg] < PAGE) h->written_bytes[pg] += (uint32_t)mem_bits_set(h->written[pg], off, off + n);
        lo += n;
    }
    return BASE_OK;
}

bool mem_hbm_all_written(const struct mem_hbm *h, uint64_t lo, uint64_t hi, uint64_t *first)
{
    if (!h->written) return true;
    while (lo < hi) {
        uint64_t pg = lo >> MEM_HBM_PAGE_SHIFT, off = lo & (PAGE - 1);
        uint64_t n = PAGE - off;
        if (n > hi - lo) n = hi - lo;
        if (h->written_bytes[pg] == PAGE) { /* every byte of the page */
            lo += n;
            continue;
        }
        if (!h->written[pg]) {
            *first = lo;
            return false;
        }
        uint64_t at;
        if (!mem_bits_all_set(h->written[pg], off, off + n, &at)) {
            *first = (pg << MEM_HBM_PAGE_SHIFT) + at;
            return false;
        }
        lo += n;
    }
    return true;
}

bool mem_hbm_range_written(struct mem_hbm *h, uint64_t lo, uint64_t hi, uint64_t *first)
{
    if (!h->written || lo >= hi) return true;
    if (mem_wcache_has(&h->wcache, 0, 1, lo, hi)) {
        h->wcache.hits++;
        return true;
    }
    if (!mem_hbm_all_written(h, lo, hi, first)) return false;
    mem_wcache_add(&h->wcache, 0, 1, lo, hi);
    return true;
}

enum base_status mem_hbm_range_mark_written(struct mem_hbm *h, uint64_t lo, uint64_t hi)
{
    if (!h->written || lo >= hi) return BASE_OK;
    if (mem_wcache_has(&h->wcache, 0, 1, lo, hi)) {
        h->wcache.hits++;
        return BASE_OK;
    }
    TRY(mem_hbm_mark_written(h, lo, hi));
    mem_wcache_add(&h->wcache, 0, 1, lo, hi);
    return BASE_OK;
}
