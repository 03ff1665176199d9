/* The known-written box cache (memory.h): a handful of boxes, each fully
 * written, looked up by containment.  A new box absorbs the boxes it
 * contains and merges with one that has the same partitions and touching
 * bytes (or the same bytes and touching partitions): the union of two fully
 * written boxes is fully written.  When full, entries are replaced in turn. */
#include "memory/mem_internal.h"

bool mem_wcache_has(const struct mem_wcache *c, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const struct mem_wbox *b = &c->box[i];
        if (b->p0 <= p0 && p1 <= b->p1 && b->lo <= lo && hi <= b->hi) return true;
    }
    return false;
}

static void drop(struct mem_wcache *c, uint32_t i)
{
    c->box[i] = c->box[--c->n];
    if (c->next >= c->n) c->next = 0;
}

void mem_wcache_add(struct mem_wcache *c, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi)
{
    if (p0 >= p1 || lo >= hi || mem_wcache_has(c, p0, p1, lo, hi)) return;
    struct mem_wbox nb = {p0, p1, lo, hi};
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < c->n;) {
            const struct mem_wbox *b = &c->box[i];
            bool inside = nb.p0 <= b->p0 && b->p1 <= nb.p1 && nb.lo <= b->lo && b->hi <= nb.hi;
            bool same_parts = b->p0 == nb.p0 && b->p1 == nb.p1 && b->lo <= nb.hi && nb.lo <= b->hi;
            bool same_bytes = b->lo == nb.lo && b->hi == nb.hi && b->p0 <= nb.p1 && nb.p0 <= b->p1;
            if (!inside && !same_parts && !same_bytes) {
                i++;
                continue;
            }
            if (same_parts) {
                if (b->lo < nb.lo) nb.lo = b->lo;
                if (b->hi > nb.hi) nb.hi = b->hi;
            } else if (same_bytes) {
                if (b->p0 < nb.p0) nb.p0 = b->p0;
                if (b->p1 > nb.p1) nb.p1 = b->p1;
            }
            grew = grew || !inside;
            drop(c, i);
        }
    }
    if (c->n < MEM_WBOX_CACHE) {
        c->box[c->n++] = nb;
        return;
    }
    c->box[c->next] = nb;
    c->next = (c->next + 1) % MEM_WBOX_CACHE;
}
