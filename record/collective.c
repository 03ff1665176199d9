/* Runtime glue for collectives: rt_options.on_collective -> a `collective`
 * slice on the chip's `collectives` lane and a `link` slice per link the
 * chip sends on that the collective used (docs/traces.md "Collectives and
 * links").  With plan.c, the only files of traces/ that see the runtime,
 * the interconnect and the graph IR. */
#include "record/rec_internal.h"

#include "graph/graph.h"
#include "interconnect/interconnect.h"
#include "runtime/runtime.h"

#include <math.h>
#include <stdio.h>

/* "ici x+ 0->1", "switch up 3", "dcn egress 0", "local egress 5"; false
 * for a link the rank (on chip) does not send on. */
static bool link_lane_name(const struct icn_link_info *li, uint32_t rank, uint32_t chip, char *buf, size_t cap)
{
    if (!li->present || li->from != (li->cls == ICN_LINK_LOCAL ? rank : chip)) return false;
    switch (li->cls) {
    case ICN_LINK_LOCAL:
        if (li->dir <= 0) return false;
        snprintf(buf, cap, "local egress %u", li->from);
        return true;
    case ICN_LINK_ICI:
        snprintf(buf, cap, "ici %c%c %u->%u", li->dim < 3 ? "xyz"[li->dim] : '?', li->dir > 0 ? '+' : '-', li->from,
                 li->to);
        return true;
    case ICN_LINK_SWITCH:
        if (li->dir <= 0) return false;
        snprintf(buf, cap, "switch up %u", li->from);
        return true;
    case ICN_LINK_DCN:
        if (li->dir <= 0) return false;
        snprintf(buf, cap, "dcn egress %u", li->from);
        return true;
    }
    return false;
}

/* The lane of the track for link (UINT32_MAX: the collectives lane) free at
 * start_ps, made when there is none; *lane = UINT32_MAX when out of memory. */
static enum base_status track_for(struct rec_recorder *r, uint32_t link, const char *name, uint64_t start_ps,
                                  uint64_t end_ps, uint32_t *lane)
{
    uint32_t same = 0;
    for (size_t i = 0; i < r->n_tracks; i++) {
        struct rec_track *k = &r->tracks[i];
        if (k->link != link) continue;
        same++;
        if (k->end_ps <= start_ps) {
            if (end_ps > k->end_ps) k->end_ps = end_ps;
            *lane = k->lane;
            return BASE_OK;
        }
    }
    struct trc_lane l;
    memset(&l, 0, sizeof l);
    l.kind = link == UINT32_MAX ? TRC_LANE_COLLECTIVE : TRC_LANE_LINK;
    l.chip = r->chip_index;
    l.core = -1;
    if (same) snprintf(l.name, sizeof l.name, "%s #%u", name, same + 1);
    else snprintf(l.name, sizeof l.name, "%s", name);
    if (!base_grow((void **)&r->tracks, &r->cap_tracks, r->n_tracks + 1, sizeof *r->tracks)) return BASE_ERR_NOMEM;
    TRY(trc_trace_add_lane(r->t, &l, lane));
    r->tracks[r->n_tracks++] = (struct rec_track){*lane, link, end_ps};
    return BASE_OK;
}

static enum base_status on_collective(struct rec_recorder *r, const struct rt_collective *c, const struct icn_topo *topo,
                                      const double *link_bytes)
{
    /* names: the graph op as the plan named it (else as the op says) */
    const struct graph_op *op = c->op;
    const char *full = op && op->name ? op->name : "collective";
    const char *shortn = strncmp(full, "stablehlo.", 10) == 0 ? full + 10 : full;
    uint32_t name, opid = 0, loc = 0, src = 0, alg;
    TRY(trc_trace_intern(r->t, shortn, &name));
    TRY(trc_trace_intern(r->t, c->algorithm, &alg));
    if (op && op->id < r->n_ops && r->ops[op->id].op) {
        opid = r->ops[op->id].op;
        loc = r->ops[op->id].loc;
        src = r->ops[op->id].src;
    } else if (op) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s:%d:%d", op->loc.file ? op->loc.file : "?", op->loc.line, op->loc.col);
        TRY(trc_trace_intern(r->t, full, &opid));
        if (op->loc.file || op->loc.line) TRY(trc_trace_intern(r->t, buf, &loc));
        TRY(trc_trace_intern(r->t, op->loc.chain, &src));
    }
    uint64_t end = c->start_ps + c->time_ps;
    uint32_t lane;
    TRY(track_for(r, UINT32_MAX, "collectives", c->start_ps, end, &lane));
    struct trc_slice s;
    memset(&s, 0, sizeof s);
    s.kind = TRC_SLICE_COLLECTIVE;
    s.start_ps = c->start_ps;
    s.dur_ps = c->time_ps;
    s.bytes = c->bytes > 0 ? (uint64_t)llround(c->bytes) : 0;
    s.a = (uint64_t)c->group_size | (uint64_t)c->n_groups << 32;
    s.b = c->exposed_ps < c->time_ps ? c->exposed_ps : c->time_ps; /* narrowed at finish */
    s.c = trc_f64_bits(c->busbw_gbps);
    s.name = name;
    s.op = opid;
    s.loc = loc;
    s.src = src;
    s.kernel = alg;
    TRY(trc_trace_add_slice(r->t, lane, &s));
    r->n_records++;
    uint64_t seq = r->n_colls++;
    if (!topo) return BASE_OK;
    if (topo->desc[0]) TRY(trc_trace_set_meta(r->t, "topology", topo->desc));
    if (!link_bytes) return BASE_OK;
    uint32_t rank = r->chip_index < topo->n_ranks ? r->chip_index : 0, chip = icn_rank_chip(topo, rank);
    for (uint32_t id = 0; id < topo->n_links; id++) {
        if (!(link_bytes[id] > 0)) continue;
        struct icn_link_info li;
        icn_link_get(topo, id, &li);
        char ln[TRC_NAME_MAX];
        if (!link_lane_name(&li, rank, chip, ln, sizeof ln)) continue;
        TRY(track_for(r, id, ln, c->start_ps, end, &lane));
        struct trc_slice x = s;
        x.kind = TRC_SLICE_LINK;
        x.bytes = (uint64_t)llround(link_bytes[id]);
        x.a = id;
        x.b = trc_f64_bits(li.bytes_per_ns); /* bytes/ns = GB/s */
        x.c = seq;
        TRY(trc_trace_add_slice(r->t, lane, &x));
        r->n_records++;
        char key[80], val[32];
        snprintf(key, sizeof key, "gbps.%s", r->t->lanes[lane].lane.name);
        snprintf(val, sizeof val, "%.17g", li.bytes_per_ns);
        if (strlen(key) < sizeof ((struct trc_meta_kv *)NULL)->key) TRY(trc_trace_set_meta(r->t, key, val));
    }
    return BASE_OK;
}

void rec_recorder_on_collective(void *user, const struct rt_collective *c, const struct icn_topo *topo,
                                const double *link_bytes)
{
    struct rec_recorder *r = user;
    if (r && c && on_collective(r, c, topo, link_bytes) != BASE_OK) r->oom = true;
}

/* ------------------------------------------------------------ finishing */

struct span {
    uint64_t start, end;
};

static int span_cmp(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

static int track_cmp(const void *a, const void *b)
{
    const struct rec_track *x = a, *y = b;
    if (x->link != y->link) return x->link < y->link ? -1 : 1; /* the collectives lanes (UINT32_MAX) last */
    return x->lane < y->lane ? -1 : x->lane > y->lane;
}

/* The exposed part of a collective: from the end of the chip's last
 * activity (a kernel or a host dispatch) that started before the
 * collective ended, to that end, when that is inside the collective.  The
 * runtime lets the chip idle only to wait for a collective (sim_advance to
 * its end), so that idle tail is the wait. */
static uint64_t exposed_of(const struct span *sp, const uint64_t *max_end, size_t n, uint64_t start, uint64_t end)
{
    size_t lo = 0, hi = n; /* first span starting at or after end */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sp[mid].start < end) lo = mid + 1;
        else hi = mid;
    }
    uint64_t busy_to = lo ? max_end[lo - 1] : 0;
    if (busy_to < start) busy_to = start;
    return end > busy_to ? end - busy_to : 0;
}

enum base_status rec_collectives_finish(struct rec_recorder *r, uint32_t *sort)
{
    if (!r->n_tracks) return BASE_OK;
    /* display order: the collectives, then the links by id */
    qsort(r->tracks, r->n_tracks, sizeof *r->tracks, track_cmp);
    for (size_t i = r->n_tracks; i-- > 0;)
        if (r->tracks[i].link == UINT32_MAX) r->t->lanes[r->tracks[i].lane].lane.sort_index = (*sort)++;
    for (size_t i = 0; i < r->n_tracks; i++)
        if (r->tracks[i].link != UINT32_MAX) r->t->lanes[r->tracks[i].lane].lane.sort_index = (*sort)++;
    /* exposed times, from the kernel and host lanes */
    const struct trc_lane_data *kl = &r->t->lanes[r->kernels_lane], *hl = &r->t->lanes[r->host_lane];
    size_t n = kl->n_slices + hl->n_slices;
    struct span *sp = malloc((n ? n : 1) * sizeof *sp);
    uint64_t *max_end = malloc((n ? n : 1) * sizeof *max_end);
    if (!sp || !max_end) {
        free(sp);
        free(max_end);
        return BASE_ERR_NOMEM;
    }
    size_t k = 0;
    for (int w = 0; w < 2; w++) {
        const struct trc_lane_data *l = w ? hl : kl;
        for (size_t i = 0; i < l->n_slices; i++)
            sp[k++] = (struct span){l->slices[i].start_ps, l->slices[i].start_ps + l->slices[i].dur_ps};
    }
    qsort(sp, n, sizeof *sp, span_cmp);
    for (size_t i = 0; i < n; i++) max_end[i] = i && max_end[i - 1] > sp[i].end ? max_end[i - 1] : sp[i].end;
    for (size_t i = 0; i < r->n_tracks; i++) {
        if (r->tracks[i].link != UINT32_MAX) continue;
        struct trc_lane_data *l = &r->t->lanes[r->tracks[i].lane];
        for (size_t j = 0; j < l->n_slices; j++) {
            struct trc_slice *s = &l->slices[j];
            uint64_t e = exposed_of(sp, max_end, n, s->start_ps, s->start_ps + s->dur_ps);
            if (e < s->b) s->b = e;
        }
    }
    free(sp);
    free(max_end);
    return BASE_OK;
}

void rec_collectives_reset(struct rec_recorder *r)
{
    r->n_tracks = 0;
    r->n_colls = 0;
}
