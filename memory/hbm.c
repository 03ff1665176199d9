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
}

uint8_t *mem_hbm_span_w(struct mem_hbm *h, uint64_t addr, uint64_t want, uint64_t *avail)
{
    uint64_t pg = addr >> MEM_HBM_PAGE_SHIFT, off = addr & (PAGE - 1);
    if (!h->pages[pg]) {
        h->pages[pg] = calloc(1, PAGE);
        if (!h->pages[pg]) return NULL;
        h->pages_allocated++;
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
        if (s)
            memcpy(p, s, n);
        else
            memset(p, 0, n);
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
        if (!h->written[pg]) {
            *first = lo;
            return false;
        }
        if (h->written_bytes[pg] == PAGE) { /* every byte of the page */
            lo += n;
            continue;
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
