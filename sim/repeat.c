/* Charging a repeated stretch of a run without simulating it again
 * (sim_mark_*, sim_repeat: sim.h).  The runtime's loop reuse uses it: once
 * a while loop's trips are seen to repeat exactly, the remaining trips are
 * the last one's figures times their number. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

/* The counters of a run at one moment between launches. */
struct sim_mark {
    uint64_t now_ps;
    double hbm_bytes;
    uint64_t hbm_busy_ps;
    uint32_t n_eng;
    struct sim_engine_stats *eng;
};

enum base_status sim_mark_create(const struct sim *s, struct sim_mark **out)
{
    *out = NULL;
    struct sim_mark *m = calloc(1, sizeof *m);
    if (!m) return BASE_ERR_NOMEM;
    m->n_eng = s->n_eng;
    m->eng = calloc(s->n_eng ? s->n_eng : 1, sizeof *m->eng);
    if (!m->eng) {
        free(m);
        return BASE_ERR_NOMEM;
    }
    sim_mark_set(m, s);
    *out = m;
    return BASE_OK;
}

void sim_mark_set(struct sim_mark *m, const struct sim *s)
{
    m->now_ps = s->clock_ps;
    m->hbm_bytes = s->hbm_bw.bytes_total;
    m->hbm_busy_ps = s->hbm_bw.busy_ps;
    memcpy(m->eng, s->est, (size_t)m->n_eng * sizeof *m->eng);
}

void sim_mark_destroy(struct sim_mark *m)
{
    if (!m) return;
    free(m->eng);
    free(m);
}

uint64_t sim_mark_now_ps(const struct sim_mark *m) { return m->now_ps; }

bool sim_marks_periodic(const struct sim_mark *a, const struct sim_mark *b, const struct sim_mark *c)
{
    if (a->n_eng != b->n_eng || b->n_eng != c->n_eng) return false;
    if (b->now_ps - a->now_ps != c->now_ps - b->now_ps) return false;
    if (b->hbm_bytes - a->hbm_bytes != c->hbm_bytes - b->hbm_bytes) return false;
    if (b->hbm_busy_ps - a->hbm_busy_ps != c->hbm_busy_ps - b->hbm_busy_ps) return false;
    for (uint32_t g = 0; g < a->n_eng; g++) {
        const struct sim_engine_stats *x = &a->eng[g], *y = &b->eng[g], *z = &c->eng[g];
#define SAME(f) (y->f - x->f == z->f - y->f)
        if (!SAME(busy_ps) || !SAME(wait_ps) || !SAME(instructions) || !SAME(bytes) || !SAME(flops)) return false;
#undef SAME
        /* an engine's last result moves with the stretch, or not at all */
        bool moved_ab = y->finish_ps > a->now_ps, moved_bc = z->finish_ps > b->now_ps;
        if (moved_ab != moved_bc || (moved_bc && z->finish_ps - b->now_ps != y->finish_ps - a->now_ps)) return false;
    }
    return true;
}

enum base_status sim_repeat(struct sim *s, const struct sim_mark *since, uint64_t times, struct base_diag *diag)
{
    if (since->n_eng != s->n_eng || since->now_ps > s->clock_ps)
        return base_diag_set(diag, BASE_ERR_INVALID, "<host>", 0, 0, "sim_repeat: the mark is not of this run");
    uint64_t period = s->clock_ps - since->now_ps;
    if (times && period > (UINT64_MAX - s->clock_ps) / times)
        return base_diag_set(diag, BASE_ERR_LIMIT, "<host>", 0, 0, "sim_repeat: time overflows");
    uint64_t shift = period * times;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine_stats *e = &s->est[g];
        const struct sim_engine_stats *o = &since->eng[g];
        e->busy_ps += times * (e->busy_ps - o->busy_ps);
        e->wait_ps += times * (e->wait_ps - o->wait_ps);
        e->instructions += times * (e->instructions - o->instructions);
        e->bytes += times * (e->bytes - o->bytes);
        e->flops += times * (e->flops - o->flops);
        if (e->finish_ps > since->now_ps) e->finish_ps += shift;
    }
    s->hbm_bw.bytes_total += (double)times * (s->hbm_bw.bytes_total - since->hbm_bytes);
    s->hbm_bw.busy_ps += times * (s->hbm_bw.busy_ps - since->hbm_busy_ps);
    return sim_advance(s, shift, diag);
}
