/* Tile cache: slices and summary buckets fetched from the .npt, keyed by
 * (lane, type, level, index), least recently used out when over budget. */
#include "visualizer/viz_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void viz_cache_init(struct tile_cache *c, uint64_t budget)
{
    memset(c, 0, sizeof *c);
    c->budget = budget;
}

void viz_cache_deinit(struct tile_cache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].used) free(c->slots[i].data);
    free(c->slots);
    memset(c, 0, sizeof *c);
}

static uint64_t key_hash(uint32_t lane, uint32_t type, uint32_t level, uint64_t index)
{
    uint64_t h = index * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)lane << 20 | (uint64_t)level << 2 | type) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return h;
}

static struct tile *find(struct tile_cache *c, uint32_t lane, uint32_t type, uint32_t level, uint64_t index,
                         bool *found)
{
    size_t mask = c->cap - 1;
    size_t i = (size_t)key_hash(lane, type, level, index) & mask;
    for (;;) {
        struct tile *t = &c->slots[i];
        if (!t->used) {
            *found = false;
            return t;
        }
        if (t->lane == lane && t->type == type && t->level == level && t->index == index) {
            *found = true;
            return t;
        }
        i = (i + 1) & mask;
    }
}

static bool grow(struct tile_cache *c)
{
    size_t ncap = c->cap ? c->cap * 2 : 1024;
    struct tile *old = c->slots;
    size_t ocap = c->cap;
    c->slots = calloc(ncap, sizeof *c->slots);
    if (!c->slots) {
        c->slots = old;
        return false;
    }
    c->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].used) continue;
        bool found;
        struct tile *t = find(c, old[i].lane, old[i].type, old[i].level, old[i].index, &found);
        *t = old[i];
    }
    free(old);
    return true;
}

/* Removes slot i, re-inserting the run after it (linear probing). */
static void remove_slot(struct tile_cache *c, size_t i)
{
    size_t mask = c->cap - 1;
    c->bytes -= c->slots[i].bytes;
    free(c->slots[i].data);
    memset(&c->slots[i], 0, sizeof c->slots[i]);
    c->n_used--;
    for (size_t j = (i + 1) & mask; c->slots[j].used; j = (j + 1) & mask) {
        struct tile t = c->slots[j];
        memset(&c->slots[j], 0, sizeof c->slots[j]);
        bool found;
        *find(c, t.lane, t.type, t.level, t.index, &found) = t;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Evicts the least recently used tiles (not used this frame) down to 3/4 of the budget. */
void viz_cache_trim(struct viz_viewer *v)
{
    struct tile_cache *c = &v->cache;
    if (c->bytes <= c->budget) return;
    uint64_t *stamps = malloc(c->n_used * sizeof *stamps);
    if (!stamps) return;
    size_t n = 0;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].used) stamps[n++] = c->slots[i].stamp;
    qsort(stamps, n, sizeof *stamps, cmp_u64);
    /* the stamp below which tiles go: walk up until enough bytes would remain */
    uint64_t target = c->budget / 4 * 3;
    uint64_t cut = stamps[n / 2];
    free(stamps);
    if (cut >= v->frame) cut = v->frame; /* never evict this frame's tiles */
    for (int pass = 0; pass < 2 && c->bytes > target; pass++) {
        for (size_t i = 0; i < c->cap; i++) {
            while (c->slots[i].used && c->slots[i].stamp < cut) remove_slot(c, i);
        }
        cut = v->frame;
    }
}

const struct tile *viz_cache_get(struct viz_viewer *v, uint32_t lane, enum tile_type type, uint32_t level,
                                 uint64_t index)
{
    struct tile_cache *c = &v->cache;
    if ((c->n_used + 1) * 2 > c->cap && !grow(c)) {
        base_diag_set(&v->err, BASE_ERR_NOMEM, NULL, 0, 0, "visualizer: out of memory (tile cache)");
        return NULL;
    }
    bool found;
    struct tile *t = find(c, lane, type, level, index, &found);
    if (found) {
        t->stamp = v->frame;
        return t;
    }
    if (v->fetch_budget_s > 0 && v->frame_fetch_s >= v->fetch_budget_s) {
        v->stats.tiles_deferred++;
        return NULL;
    }
    double start_s = v->fetch_budget_s > 0 ? now_s() : 0;
    uint32_t shift = level + TILE_SHIFT;
    uint64_t t0 = shift >= 64 ? 0 : index << shift;
    uint64_t t1 = shift >= 64 || (index + 1) > (UINT64_MAX >> shift) ? UINT64_MAX : (index + 1) << shift;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st;
    struct tile nt;
    memset(&nt, 0, sizeof nt);
    nt.lane = lane;
    nt.type = type;
    nt.level = level;
    nt.index = index;
    nt.used = true;
    nt.stamp = v->frame;
    if (type == TILE_SLICES) {
        struct trc_slice_vec sv = {NULL, 0, 0};
        st = trc_file_slices(viz_src_of(v, lane)->f, viz_local(v, lane), t0, t1, &sv, &d);
        nt.data = sv.v;
        nt.n = sv.n;
        nt.bytes = sv.cap * sizeof *sv.v + sizeof nt;
        if (st != BASE_OK) trc_slice_vec_free(&sv);
    } else {
        struct trc_bucket_vec bv = {NULL, 0, 0};
        st = trc_file_summary(viz_src_of(v, lane)->f, viz_local(v, lane), level, t0, t1, &bv, &d);
        nt.data = bv.v;
        nt.n = bv.n;
        nt.bytes = bv.cap * sizeof *bv.v + sizeof nt;
        if (st != BASE_OK) trc_bucket_vec_free(&bv);
    }
    if (st != BASE_OK) {
        if (v->err.status == BASE_OK) v->err = d;
        if (v->err.status == BASE_OK) v->err.status = st;
        return NULL;
    }
    if (v->fetch_budget_s > 0) v->frame_fetch_s += now_s() - start_s;
    /* the slot found above is still free (nothing changed the table) */
    *t = nt;
    c->n_used++;
    c->bytes += nt.bytes;
    v->stats.tiles_fetched++;
    return t;
}

bool viz_cache_has(struct viz_viewer *v, uint32_t lane, enum tile_type type, uint32_t level, uint64_t index)
{
    if (!v->cache.cap) return false;
    bool found;
    find(&v->cache, lane, type, level, index, &found);
    return found;
}

/* Panning reaches a new tile for every visible lane at once; fetching the
 * neighbours a few per frame ahead of time spreads that cost out. */
void viz_cache_prefetch(struct viz_viewer *v, int budget)
{
    if (!v->n_drawn || (v->fetch_budget_s > 0 && v->frame_fetch_s >= v->fetch_budget_s / 2)) return;
    uint64_t last_tile = v->end_ps;
    for (size_t k = 0; k < v->n_drawn && budget > 0; k++) {
        size_t i = (v->prefetch_next + k) % v->n_drawn;
        const struct drawn_span *d = &v->drawn[i];
        uint32_t shift = d->level + TILE_SHIFT;
        uint64_t max_index = shift >= 64 ? 0 : last_tile >> shift;
        uint64_t cand[2] = {d->i1 + 1, d->i0 > 0 ? d->i0 - 1 : UINT64_MAX};
        for (int c = 0; c < 2 && budget > 0; c++) {
            if (cand[c] == UINT64_MAX || cand[c] > max_index) continue;
            if (viz_cache_has(v, d->lane, (enum tile_type)d->type, d->level, cand[c])) continue;
            if (!viz_cache_get(v, d->lane, (enum tile_type)d->type, d->level, cand[c])) {
                if (v->stats.tiles_deferred) v->stats.tiles_deferred--; /* a prefetch is not a missing tile */
                return;
            }
            budget--;
        }
        v->prefetch_next = i + 1;
    }
}
