/* A bandwidth shared by transfers: fluid max-min fairness with per-transfer
 * caps.  Whenever a transfer starts or ends, every active transfer's
 * progress is brought up to date and the rates are recomputed by water
 * filling: transfers in increasing order of cap (ties by id) get
 * min(cap, what is left / transfers left).  Each transfer's projected finish
 * is now + event_bytes_to_ps(left, rate) (rounded up to a whole ps); one event
 * fires at the earliest, completing every transfer projected to finish by
 * then.  A lone transfer of B bytes capped at q therefore takes exactly
 * event_bytes_to_ps(B, min(q, shared)). */
#include "memory/mem_internal.h"

#include <stdlib.h>

static void on_event(struct event_sched *s, struct event *ev);

enum base_status mem_bw_init(struct mem_bw *bw, struct event_sched *sched, double bytes_per_ns, uint32_t max_flows,
                             uint8_t priority)
{
    bw->sched = sched;
    bw->bytes_per_ns = bytes_per_ns;
    bw->n_active = 0;
    bw->cap = max_flows ? max_flows : 1;
    bw->last_ps = 0;
    bw->bytes_total = 0;
    bw->busy_ps = 0;
    event_init(&bw->ev, on_event, bw, priority);
    bw->active = calloc(bw->cap, sizeof *bw->active);
    bw->finished = calloc(bw->cap, sizeof *bw->finished);
    if (!bw->active || !bw->finished) {
        mem_bw_deinit(bw);
        return BASE_ERR_NOMEM;
    }
    return BASE_OK;
}

void mem_bw_deinit(struct mem_bw *bw)
{
    if (bw->sched) event_sched_cancel(bw->sched, &bw->ev);
    free(bw->active);
    free(bw->finished);
    bw->active = NULL;
    bw->finished = NULL;
    bw->n_active = 0;
}

/* Brings every active transfer's progress up to `now`. */
static void advance(struct mem_bw *bw, uint64_t now)
{
    if (now <= bw->last_ps) return;
    uint64_t dt = now - bw->last_ps;
    if (bw->n_active) bw->busy_ps += dt;
    for (uint32_t i = 0; i < bw->n_active; i++) {
        struct mem_flow *f = bw->active[i];
        double moved = f->rate_bytes_per_ns * (double)dt / 1000.0;
        if (moved > f->left_bytes) moved = f->left_bytes;
        f->left_bytes -= moved;
    }
    bw->last_ps = now;
}

static bool flow_before(const struct mem_flow *a, const struct mem_flow *b)
{
    return a->cap_bytes_per_ns < b->cap_bytes_per_ns || (a->cap_bytes_per_ns == b->cap_bytes_per_ns && a->id < b->id);
}

/* Water filling, then the next completion event. */
static void recompute(struct mem_bw *bw, uint64_t now)
{
    uint32_t n = bw->n_active;
    for (uint32_t i = 1; i < n; i++) { /* insertion sort: few transfers, mostly sorted */
        struct mem_flow *f = bw->active[i];
        uint32_t j = i;
        while (j > 0 && flow_before(f, bw->active[j - 1])) {
            bw->active[j] = bw->active[j - 1];
            j--;
        }
        bw->active[j] = f;
    }
    double left = bw->bytes_per_ns;
    uint64_t next = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        struct mem_flow *f = bw->active[i];
        double share = left / (double)(n - i);
        double r = f->cap_bytes_per_ns < share ? f->cap_bytes_per_ns : share;
        f->rate_bytes_per_ns = r;
        left -= r;
        if (left < 0) left = 0;
        uint64_t d = event_bytes_to_ps(f->left_bytes, r);
        f->finish_ps = d > UINT64_MAX - now ? UINT64_MAX : now + d;
        if (f->finish_ps < next) next = f->finish_ps;
    }
    if (next != UINT64_MAX) {
        enum base_status st = event_sched_at(bw->sched, &bw->ev, next);
        BASE_ASSERT(st == BASE_OK);
    } else {
        event_sched_cancel(bw->sched, &bw->ev);
    }
}

enum base_status mem_bw_start(struct mem_bw *bw, struct mem_flow *f, uint32_t id, double bytes, double cap_bytes_per_ns,
                              mem_flow_done_fn done, void *user)
{
    if (bw->n_active == bw->cap) return BASE_ERR_LIMIT;
    uint64_t now = event_sched_now(bw->sched);
    advance(bw, now);
    bw->last_ps = now;
    f->left_bytes = bytes > 0 ? bytes : 0;
    f->cap_bytes_per_ns = cap_bytes_per_ns > 0 ? cap_bytes_per_ns : bw->bytes_per_ns;
    f->rate_bytes_per_ns = 0;
    f->start_ps = now;
    f->finish_ps = now;
    f->id = id;
    f->active = true;
    f->done = done;
    f->user = user;
    bw->active[bw->n_active++] = f;
    bw->bytes_total += f->left_bytes;
    recompute(bw, now);
    return BASE_OK;
}

static void on_event(struct event_sched *s, struct event *ev)
{
    struct mem_bw *bw = ev->user;
    uint64_t now = event_sched_now(s);
    advance(bw, now);
    /* Finished transfers leave first (kept in id order for the callbacks). */
    struct mem_flow **fin = bw->finished;
    uint32_t nfin = 0, keep = 0;
    for (uint32_t i = 0; i < bw->n_active; i++) {
        struct mem_flow *f = bw->active[i];
        if (f->finish_ps <= now) {
            f->left_bytes = 0;
            f->active = false;
            fin[nfin++] = f;
        } else {
            bw->active[keep++] = f;
        }
    }
    bw->n_active = keep;
    recompute(bw, now);
    for (uint32_t i = 1; i < nfin; i++) {
        struct mem_flow *f = fin[i];
        uint32_t j = i;
        while (j > 0 && f->id < fin[j - 1]->id) {
            fin[j] = fin[j - 1];
            j--;
        }
        fin[j] = f;
    }
    for (uint32_t i = 0; i < nfin; i++) fin[i]->done(fin[i], fin[i]->user);
}
