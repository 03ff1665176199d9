/* Running a plan: transfers start when their dependencies have arrived
 * (after their own delay), on the caller's scheduler; icn_run does it on a
 * private scheduler and network and reports time and link utilisation. */
#include "interconnect/icn_internal.h"

#include <stdlib.h>
#include <string.h>

static void on_flow_done(struct icn_net *net, void *user, uint64_t tag);

enum base_status icn_exec_init(struct icn_exec *x, struct icn_net *net, const struct icn_plan *plan,
                               icn_exec_done_fn done, void *user)
{
    memset(x, 0, sizeof *x);
    x->net = net;
    x->plan = plan;
    x->done = done;
    x->user = user;
    uint32_t n = plan->n_xfers;
    x->pending = calloc(n ? n : 1, sizeof *x->pending);
    x->succ_first = calloc((size_t)n + 1, sizeof *x->succ_first);
    x->succ = calloc(plan->n_deps ? plan->n_deps : 1, sizeof *x->succ);
    x->waitq = calloc(n ? n : 1, sizeof *x->waitq);
    if (!x->pending || !x->succ_first || !x->succ || !x->waitq) {
        icn_exec_deinit(x);
        return BASE_ERR_NOMEM;
    }
    /* successors in CSR form: count, prefix sums, fill (in transfer order) */
    for (uint32_t i = 0; i < n; i++) {
        const struct icn_xfer *t = &plan->xfers[i];
        x->pending[i] = t->n_deps;
        for (uint32_t k = 0; k < t->n_deps; k++) {
            uint32_t d = plan->deps[t->dep_first + k];
            BASE_ASSERT(d < i);
            x->succ_first[d + 1]++;
        }
    }
    for (uint32_t i = 0; i < n; i++) x->succ_first[i + 1] += x->succ_first[i];
    uint32_t *fill = x->waitq; /* borrowed as scratch until the run starts */
    memcpy(fill, x->succ_first, (size_t)n * sizeof *fill);
    for (uint32_t i = 0; i < n; i++) {
        const struct icn_xfer *t = &plan->xfers[i];
        for (uint32_t k = 0; k < t->n_deps; k++) {
            uint32_t d = plan->deps[t->dep_first + k];
            x->succ[fill[d]++] = i;
        }
    }
    memset(x->waitq, 0, (size_t)(n ? n : 1) * sizeof *x->waitq);
    return BASE_OK;
}

void icn_exec_deinit(struct icn_exec *x)
{
    free(x->pending);
    free(x->succ_first);
    free(x->succ);
    free(x->waitq);
    x->pending = x->succ_first = x->succ = x->waitq = NULL;
}

static void launch(struct icn_exec *x, uint32_t i)
{
    const struct icn_xfer *t = &x->plan->xfers[i];
    enum base_status st = BASE_ERR_LIMIT;
    if (x->wq_n == 0) st = icn_net_send(x->net, t->src, t->dst, t->bytes, t->delay_ps, 0, on_flow_done, x, i);
    if (st == BASE_ERR_LIMIT) {
        uint32_t n = x->plan->n_xfers;
        x->waitq[(x->wq_head + x->wq_n++) % n] = i;
    } else if (st != BASE_OK && x->status == BASE_OK) {
        x->status = st;
    }
}

static void drain_waitq(struct icn_exec *x)
{
    uint32_t n = x->plan->n_xfers;
    while (x->wq_n > 0 && x->net->free_head != ICN_NONE) {
        uint32_t i = x->waitq[x->wq_head];
        x->wq_head = (x->wq_head + 1) % n;
        x->wq_n--;
        const struct icn_xfer *t = &x->plan->xfers[i];
        enum base_status st = icn_net_send(x->net, t->src, t->dst, t->bytes, t->delay_ps, 0, on_flow_done, x, i);
        if (st != BASE_OK && x->status == BASE_OK) x->status = st;
    }
}

static void on_flow_done(struct icn_net *net, void *user, uint64_t tag)
{
    struct icn_exec *x = user;
    uint32_t i = (uint32_t)tag;
    x->n_done++;
    x->end_ps = event_sched_now(net->sched);
    drain_waitq(x);
    for (uint32_t k = x->succ_first[i]; k < x->succ_first[i + 1]; k++) {
        uint32_t s = x->succ[k];
        if (--x->pending[s] == 0) launch(x, s);
    }
    if (icn_exec_finished(x) && x->done) x->done(x, x->user);
}

enum base_status icn_exec_start(struct icn_exec *x)
{
    x->start_ps = x->end_ps = event_sched_now(x->net->sched);
    x->n_done = 0;
    x->wq_head = x->wq_n = 0;
    x->status = BASE_OK;
    for (uint32_t i = 0; i < x->plan->n_xfers; i++)
        if (x->plan->xfers[i].n_deps == 0) launch(x, i);
    if (x->plan->n_xfers == 0 && x->done) x->done(x, x->user);
    return x->status;
}

enum base_status icn_run(const struct icn_topo *t, const struct icn_plan *const *plans, uint32_t n,
                         struct icn_run_result *out, double *link_bytes_out)
{
    memset(out, 0, sizeof *out);
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) total += plans[i]->n_xfers;
    /* the pool bounds concurrency, not the schedule: more ready transfers wait */
    uint32_t max_flows = total < (1u << 16) ? (uint32_t)(total ? total : 1) : (1u << 16);
    struct event_sched s;
    struct icn_net net;
    struct icn_exec *x = calloc(n ? n : 1, sizeof *x);
    if (!x) return BASE_ERR_NOMEM;
    enum base_status st = event_sched_init(&s, max_flows + 4);
    if (st) {
        free(x);
        return st;
    }
    st = icn_net_init(&net, t, &s, max_flows, 200);
    uint32_t inited = 0;
    for (; st == BASE_OK && inited < n; inited++) {
        st = icn_exec_init(&x[inited], &net, plans[inited], NULL, NULL);
        if (st) break;
    }
    for (uint32_t i = 0; st == BASE_OK && i < n; i++) st = icn_exec_start(&x[i]);
    while (st == BASE_OK && event_sched_step(&s)) {
    }
    uint64_t end = 0;
    for (uint32_t i = 0; st == BASE_OK && i < n; i++) {
        if (x[i].status) st = x[i].status;
        else if (!icn_exec_finished(&x[i])) st = BASE_ERR_INTERNAL;
        if (x[i].end_ps > end) end = x[i].end_ps;
    }
    if (st == BASE_OK && end > ICN_MAX_TIME_PS) st = BASE_ERR_LIMIT; /* saturated: the bytes or rates are absurd */
    if (st == BASE_OK) {
        out->time_ps = end;
        out->bytes_moved = net.bytes_sent;
        out->flows = net.flows_started;
        out->recomputes = net.recomputes;
        out->events = s.fired;
        double sum = 0, sum_ici = 0, sum_dcn = 0;
        uint32_t n_ici = 0, n_dcn = 0;
        for (uint32_t l = 0; l < t->n_links; l++) {
            const struct icn_link_state *ls = &net.links[l];
            if (link_bytes_out) link_bytes_out[l] = ls->bytes;
            if (!(ls->bytes > 0) || end == 0) continue;
            double u = ls->bytes / (ls->bytes_per_ns * (double)end / 1000.0);
            out->links_used++;
            sum += u;
            if (u > out->link_util_max) out->link_util_max = u;
            struct icn_link_info li;
            icn_link_get(t, l, &li);
            if (li.cls == ICN_LINK_DCN) {
                sum_dcn += u;
                n_dcn++;
            } else if (li.cls != ICN_LINK_LOCAL) {
                sum_ici += u;
                n_ici++;
            }
        }
        if (out->links_used) out->link_util_mean = sum / out->links_used;
        if (n_ici) out->link_util_ici = sum_ici / n_ici;
        if (n_dcn) out->link_util_dcn = sum_dcn / n_dcn;
    }
    for (uint32_t i = 0; i < inited; i++) icn_exec_deinit(&x[i]);
    free(x);
    icn_net_deinit(&net);
    event_sched_deinit(&s);
    return st;
}
