/* The flow network: transfers over routes sharing link bandwidth max-min
 * fairly.
 *
 * A transfer goes through three phases: WAIT (its start delay, on its own
 * event), DATA (it holds bandwidth on every link of its route at the rate
 * progressive filling gives it) and TAIL (its last byte crosses the route:
 * the summed hop latency, on its own event), then done() fires.
 *
 * Progressive filling: every flow in DATA starts unfrozen; repeatedly the
 * smallest fair share s = remaining capacity / unfrozen flows over the links
 * (or a flow's own cap, if smaller) is found, every unfrozen flow crossing a
 * link at that share (or capped at it) is frozen at rate s, and its links'
 * remaining capacities drop by s.  Links at equal shares freeze together, so
 * a symmetric collective takes one round.  The result is the max-min fair
 * allocation.  Rates change only when a flow enters or leaves DATA; entering
 * marks the network dirty and moves its event to now (at a priority after
 * the flows' own events), so transfers started at one instant cost one
 * recompute.  A flow's bandwidth phase ends at now + event_bytes_to_ps(left,
 * rate) as projected at the last recompute; the network's event fires at
 * the earliest such time. */
#include "interconnect/icn_internal.h"

#include <stdlib.h>
#include <string.h>

static void on_net_event(struct event_sched *s, struct event *ev);
static void on_flow_event(struct event_sched *s, struct event *ev);

enum base_status icn_net_init(struct icn_net *net, const struct icn_topo *topo, struct event_sched *sched,
                              uint32_t max_flows, uint8_t priority)
{
    memset(net, 0, sizeof *net);
    net->topo = topo;
    net->sched = sched;
    net->max_flows = max_flows ? max_flows : 1;
    event_init(&net->ev, on_net_event, net, priority);
    net->links = calloc(topo->n_links ? topo->n_links : 1, sizeof *net->links);
    net->active_links = calloc(topo->n_links ? topo->n_links : 1, sizeof *net->active_links);
    net->flows = calloc(net->max_flows, sizeof *net->flows);
    net->route_pool = calloc((size_t)net->max_flows * topo->max_hops, sizeof *net->route_pool);
    net->active = calloc(net->max_flows, sizeof *net->active);
    if (!net->links || !net->active_links || !net->flows || !net->route_pool || !net->active) {
        icn_net_deinit(net);
        return BASE_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < topo->n_links; i++) {
        struct icn_link_info li;
        icn_link_get(topo, i, &li);
        net->links[i].bytes_per_ns = li.present ? li.bytes_per_ns : 0;
        net->links[i].latency_ps = li.latency_ps;
        net->links[i].active_pos = ICN_NONE;
    }
    uint8_t fprio = priority ? (uint8_t)(priority - 1) : 0;
    for (uint32_t i = 0; i < net->max_flows; i++) {
        struct icn_flow *f = &net->flows[i];
        event_init(&f->ev, on_flow_event, f, fprio);
        f->net = net;
        f->links = net->route_pool + (size_t)i * topo->max_hops;
        f->next_free = i + 1 < net->max_flows ? i + 1 : ICN_NONE;
        f->active_pos = ICN_NONE;
    }
    net->free_head = 0;
    return BASE_OK;
}

void icn_net_deinit(struct icn_net *net)
{
    if (net->sched) {
        event_sched_cancel(net->sched, &net->ev);
        if (net->flows)
            for (uint32_t i = 0; i < net->max_flows; i++) event_sched_cancel(net->sched, &net->flows[i].ev);
    }
    free(net->links);
    free(net->active_links);
    free(net->flows);
    free(net->route_pool);
    free(net->active);
    net->links = NULL;
    net->active_links = NULL;
    net->flows = NULL;
    net->route_pool = NULL;
    net->active = NULL;
    net->n_active = net->n_active_links = 0;
}

/* Brings flows' progress and links' byte counts up to now. */
static void advance(struct icn_net *net, uint64_t now)
{
    if (now <= net->last_ps) return;
    uint64_t dt = now - net->last_ps;
    double dt_ns = (double)dt / 1000.0;
    for (uint32_t i = 0; i < net->n_active; i++) {
        struct icn_flow *f = &net->flows[net->active[i]];
        double moved = f->rate_bytes_per_ns * dt_ns;
        f->left_bytes = moved >= f->left_bytes ? 0 : f->left_bytes - moved;
    }
    for (uint32_t i = 0; i < net->n_active_links; i++) {
        struct icn_link_state *l = &net->links[net->active_links[i]];
        l->bytes += l->load * dt_ns;
        l->busy_ps += dt;
    }
    net->last_ps = now;
}

static void recompute(struct icn_net *net, uint64_t now)
{
    net->recomputes++;
    net->dirty = false;
    if (net->n_active == 0) {
        event_sched_cancel(net->sched, &net->ev);
        return;
    }
    for (uint32_t i = 0; i < net->n_active_links; i++) {
        struct icn_link_state *l = &net->links[net->active_links[i]];
        l->rem = l->bytes_per_ns;
        l->unfrozen = l->n_flows;
        l->load = 0;
        l->bottleneck = false;
    }
    for (uint32_t i = 0; i < net->n_active; i++) net->flows[net->active[i]].frozen = false;
    uint32_t left = net->n_active;
    while (left > 0) {
        double s = -1;
        for (uint32_t i = 0; i < net->n_active_links; i++) {
            const struct icn_link_state *l = &net->links[net->active_links[i]];
            if (!l->unfrozen) continue;
            double v = l->rem / (double)l->unfrozen;
            if (s < 0 || v < s) s = v;
        }
        for (uint32_t i = 0; i < net->n_active; i++) {
            const struct icn_flow *f = &net->flows[net->active[i]];
            if (!f->frozen && f->cap_bytes_per_ns > 0 && (s < 0 || f->cap_bytes_per_ns < s)) s = f->cap_bytes_per_ns;
        }
        BASE_ASSERT(s >= 0);
        double thr = s * (1 + 1e-12);
        for (uint32_t i = 0; i < net->n_active_links; i++) {
            struct icn_link_state *l = &net->links[net->active_links[i]];
            l->bottleneck = l->unfrozen && l->rem / (double)l->unfrozen <= thr;
        }
        /* a share of 0 (rounding at a saturated link) would never finish */
        double rate = s > 1e-9 ? s : 1e-9;
        uint32_t froze = 0;
        for (uint32_t i = 0; i < net->n_active; i++) {
            struct icn_flow *f = &net->flows[net->active[i]];
            if (f->frozen) continue;
            bool hit = f->cap_bytes_per_ns > 0 && f->cap_bytes_per_ns <= thr;
            for (uint32_t k = 0; k < f->n_links && !hit; k++) hit = net->links[f->links[k]].bottleneck;
            if (!hit) continue;
            f->frozen = true;
            f->rate_bytes_per_ns = rate;
            froze++;
            for (uint32_t k = 0; k < f->n_links; k++) {
                struct icn_link_state *l = &net->links[f->links[k]];
                l->rem = l->rem > s ? l->rem - s : 0;
                l->unfrozen--;
                l->load += rate;
            }
        }
        BASE_ASSERT(froze > 0);
        left -= froze;
    }
    uint64_t next = UINT64_MAX;
    for (uint32_t i = 0; i < net->n_active; i++) {
        struct icn_flow *f = &net->flows[net->active[i]];
        uint64_t d = event_bytes_to_ps(f->left_bytes, f->rate_bytes_per_ns);
        f->finish_ps = d > UINT64_MAX - now ? UINT64_MAX : now + d;
        if (f->finish_ps < next) next = f->finish_ps;
    }
    enum base_status st = event_sched_at(net->sched, &net->ev, next);
    BASE_ASSERT(st == BASE_OK);
}

static void enter_tail(struct icn_net *net, struct icn_flow *f)
{
    f->phase = ICN_FLOW_TAIL;
    f->data_end_ps = event_sched_now(net->sched);
    /* saturating: times past 2^64 ps stay at the end of time (icn_run refuses them) */
    enum base_status st = event_sched_at(net->sched, &f->ev, base_sat_add_u64(event_sched_now(net->sched), f->latency_ps));
    BASE_ASSERT(st == BASE_OK);
}

static void enter_data(struct icn_net *net, struct icn_flow *f)
{
    f->send_ps = event_sched_now(net->sched);
    if (f->n_links == 0 || !(f->left_bytes > 0)) {
        enter_tail(net, f);
        return;
    }
    uint64_t now = event_sched_now(net->sched);
    advance(net, now);
    f->phase = ICN_FLOW_DATA;
    f->rate_bytes_per_ns = 0;
    f->finish_ps = UINT64_MAX;
    f->active_pos = net->n_active;
    net->active[net->n_active++] = (uint32_t)(f - net->flows);
    for (uint32_t k = 0; k < f->n_links; k++) {
        struct icn_link_state *l = &net->links[f->links[k]];
        if (l->n_flows++ == 0) {
            l->active_pos = net->n_active_links;
            net->active_links[net->n_active_links++] = f->links[k];
        }
    }
    net->dirty = true;
    /* already due now: the transfers of this instant share its recompute */
    if (event_pending(&net->ev) && net->ev.time_ps == now) return;
    enum base_status st = event_sched_at(net->sched, &net->ev, now);
    BASE_ASSERT(st == BASE_OK);
}

/* Takes f out of the DATA set (and its links out of the active set when idle). */
static void leave_data(struct icn_net *net, struct icn_flow *f)
{
    uint32_t pos = f->active_pos, last = net->active[--net->n_active];
    net->active[pos] = last;
    net->flows[last].active_pos = pos;
    f->active_pos = ICN_NONE;
    for (uint32_t k = 0; k < f->n_links; k++) {
        struct icn_link_state *l = &net->links[f->links[k]];
        if (--l->n_flows == 0) {
            uint32_t lp = l->active_pos, ll = net->active_links[--net->n_active_links];
            net->active_links[lp] = ll;
            net->links[ll].active_pos = lp;
            l->active_pos = ICN_NONE;
            l->load = 0;
        }
    }
}

static void on_net_event(struct event_sched *s, struct event *ev)
{
    struct icn_net *net = ev->user;
    uint64_t now = event_sched_now(s);
    advance(net, now);
    /* Flows whose bandwidth phase ends now leave, in the order they sit in
     * the active list (deterministic: it depends only on the history). */
    uint32_t i = 0;
    bool changed = net->dirty;
    while (i < net->n_active) {
        struct icn_flow *f = &net->flows[net->active[i]];
        if (f->finish_ps <= now) {
            f->left_bytes = 0;
            leave_data(net, f);
            enter_tail(net, f);
            changed = true;
            continue; /* the swapped-in flow now sits at i */
        }
        i++;
    }
    if (changed) {
        recompute(net, now);
    } else if (net->n_active) {
        uint64_t next = UINT64_MAX;
        for (uint32_t k = 0; k < net->n_active; k++)
            if (net->flows[net->active[k]].finish_ps < next) next = net->flows[net->active[k]].finish_ps;
        enum base_status st = event_sched_at(s, &net->ev, next);
        BASE_ASSERT(st == BASE_OK);
    }
}

static void on_flow_event(struct event_sched *s, struct event *ev)
{
    (void)s;
    struct icn_flow *f = ev->user;
    struct icn_net *net = f->net;
    if (f->phase == ICN_FLOW_WAIT) {
        enter_data(net, f);
        return;
    }
    BASE_ASSERT(f->phase == ICN_FLOW_TAIL);
    if (net->observe) net->observe(net->observe_user, f);
    icn_done_fn done = f->done;
    void *user = f->user;
    uint64_t tag = f->tag;
    f->phase = ICN_FLOW_FREE;
    f->next_free = net->free_head;
    net->free_head = (uint32_t)(f - net->flows);
    net->n_busy--;
    done(net, user, tag);
}

enum base_status icn_net_send(struct icn_net *net, uint32_t src, uint32_t dst, double bytes, uint64_t delay_ps,
                              double cap_bytes_per_ns, icn_done_fn done, void *user, uint64_t tag)
{
    if (src >= net->topo->n_ranks || dst >= net->topo->n_ranks || !(bytes >= 0)) return BASE_ERR_INVALID;
    if (net->free_head == ICN_NONE) return BASE_ERR_LIMIT;
    struct icn_flow *f = &net->flows[net->free_head];
    net->free_head = f->next_free;
    net->n_busy++;
    net->flows_started++;
    net->bytes_sent += bytes;
    f->n_links = icn_route(net->topo, src, dst, f->links, &f->latency_ps);
    f->left_bytes = bytes;
    f->bytes = bytes;
    f->src = src;
    f->dst = dst;
    f->send_ps = f->data_end_ps = event_sched_now(net->sched);
    f->cap_bytes_per_ns = cap_bytes_per_ns > 0 ? cap_bytes_per_ns : 0;
    f->rate_bytes_per_ns = 0;
    f->finish_ps = UINT64_MAX;
    f->done = done;
    f->user = user;
    f->tag = tag;
    if (delay_ps > 0) {
        f->phase = ICN_FLOW_WAIT;
        enum base_status st = event_sched_at(net->sched, &f->ev, base_sat_add_u64(event_sched_now(net->sched), delay_ps));
        if (st != BASE_OK) {
            f->phase = ICN_FLOW_FREE;
            f->next_free = net->free_head;
            net->free_head = (uint32_t)(f - net->flows);
            net->n_busy--;
            return st;
        }
        return BASE_OK;
    }
    enter_data(net, f);
    return BASE_OK;
}
