/* The recorder: simulator hooks -> an in-memory trace.
 *
 * Each hook appends one fixed-size slice to its lane's array (amortised
 * doubling; no allocation per event).  Records arrive in order of
 * simulated completion, not of start; trc_trace_finalize sorts each lane
 * (a lane of one in-order engine is nearly always sorted already, which the
 * sort checks first).  Flows are found as waits end (the signaller of the
 * semaphore); counters are derived at the end; the runtime's launch
 * callback gives the kernel and host-gap lanes. */
#include "record/rec_internal.h"

/* DMA slices carry isa spaces as trace spaces (traces/traces.h). */
#define X(e, name) _Static_assert((int)TRC_SPACE_##e == (int)ISA_SPACE_##e, "trace space " name);
ISA_SPACES(X)
#undef X

#include <stdio.h>

static void on_instr(void *user, uint64_t now_ps, const struct sim_instr_record *r);
static void on_dma(void *user, uint64_t now_ps, const struct sim_dma_record *r);
static void on_wait(void *user, uint64_t now_ps, const struct sim_wait_record *r);

static enum base_status add_lanes(struct rec_recorder *r)
{
    struct trc_trace *t = r->t;
    const struct chip_desc *c = &r->chip;
    struct trc_lane l;
    memset(&l, 0, sizeof l);
    l.kind = TRC_LANE_KERNELS;
    l.chip = r->chip_index;
    l.core = -1;
    snprintf(l.name, sizeof l.name, "kernels");
    TRY(trc_trace_add_lane(t, &l, &r->kernels_lane));
    l.kind = TRC_LANE_HOST;
    l.sort_index = 1;
    snprintf(l.name, sizeof l.name, "host");
    TRY(trc_trace_add_lane(t, &l, &r->host_lane));
    uint32_t sort = 2;
    for (uint32_t core = 0; core < c->cores; core++)
        for (uint32_t e = 0; e < c->n_engines; e++) {
            memset(&l, 0, sizeof l);
            l.kind = c->engines[e].kind == ISA_ENGINE_DMA ? TRC_LANE_DMA : TRC_LANE_ENGINE;
            l.chip = r->chip_index;
            l.core = (int32_t)core;
            l.sort_index = sort++;
            snprintf(l.name, sizeof l.name, "core%u %s", core, c->engines[e].name);
            TRY(trc_trace_add_lane(t, &l, NULL));
        }
    return BASE_OK;
}

enum base_status rec_recorder_create(const struct chip_desc *chip, uint32_t chip_index, struct rec_recorder **out)
{
    struct rec_recorder *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r) return BASE_ERR_NOMEM;
    r->chip = *chip;
    r->chip_index = chip_index;
    r->hooks.user = r;
    r->hooks.on_instr = on_instr;
    r->hooks.on_dma = on_dma;
    r->hooks.on_wait = on_wait;
    r->sig = calloc((size_t)(chip->cores ? chip->cores : 1) * ISA_MAX_SEMAPHORES, sizeof *r->sig);
    r->k_foot = calloc(chip->cores ? chip->cores : 1, sizeof *r->k_foot);
    enum base_status st = r->sig && r->k_foot ? trc_trace_create(&r->t) : BASE_ERR_NOMEM;
    if (st == BASE_OK) st = add_lanes(r);
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "chip", chip->name);
    if (st == BASE_OK) {
        char v[32];
        snprintf(v, sizeof v, "%u", chip->cores);
        st = rec_recorder_set_meta(r, "cores", v);
    }
    if (st != BASE_OK) {
        rec_recorder_destroy(r);
        return st;
    }
    *out = r;
    return BASE_OK;
}

void rec_recorder_destroy(struct rec_recorder *r)
{
    if (!r) return;
    trc_trace_destroy(r->t);
    free(r->ops);
    free(r->sig);
    free(r->k_foot);
    free(r->occ);
    free(r->tracks);
    free(r);
}

const struct sim_hooks *rec_recorder_hooks(struct rec_recorder *r) { return &r->hooks; }

uint64_t rec_recorder_n_records(const struct rec_recorder *r) { return r->n_records; }

enum base_status rec_recorder_set_meta(struct rec_recorder *r, const char *key, const char *value)
{
    return trc_trace_set_meta(r->t, key, value);
}

enum base_status rec_recorder_set_op(struct rec_recorder *r, uint32_t id, const char *name, const char *file, int line,
                                     int col, const char *chain)
{
    if (id >= r->n_ops) {
        size_t cap = r->n_ops;
        size_t want = (size_t)id + 1;
        if (!base_grow((void **)&r->ops, &cap, want, sizeof *r->ops)) return BASE_ERR_NOMEM;
        memset(r->ops + r->n_ops, 0, (cap - r->n_ops) * sizeof *r->ops);
        r->n_ops = cap;
    }
    char loc[512];
    snprintf(loc, sizeof loc, "%s:%d:%d", file ? file : "?", line, col);
    TRY(trc_trace_intern(r->t, name, &r->ops[id].op));
    TRY(trc_trace_intern(r->t, chain, &r->ops[id].src));
    return trc_trace_intern(r->t, file || line ? loc : NULL, &r->ops[id].loc);
}

/* ------------------------------------------------------------ launches */

static void kernel_close(struct rec_recorder *r)
{
    if (!r->k_open) return;
    for (uint32_t c = 0; c < r->chip.cores; c++) {
        if (!r->k_foot[c][0] && !r->k_foot[c][1]) continue;
        if (r->n_occ == r->cap_occ) {
            size_t nc = r->cap_occ ? r->cap_occ * 2 : 256;
            struct rec_occ *no = realloc(r->occ, nc * sizeof *no);
            if (!no) {
                r->oom = true;
                break;
            }
            r->occ = no;
            r->cap_occ = nc;
        }
        r->occ[r->n_occ++] = (struct rec_occ){r->k_start, r->k_end, c, r->k_foot[c][0], r->k_foot[c][1]};
        r->k_foot[c][0] = r->k_foot[c][1] = 0;
    }
    struct trc_slice s;
    memset(&s, 0, sizeof s);
    s.kind = TRC_SLICE_KERNEL;
    s.start_ps = r->k_start;
    s.dur_ps = r->k_end > r->k_start ? r->k_end - r->k_start : 0;
    s.name = r->k_name;
    s.kernel = r->k_name;
    s.op = r->k_op;
    s.loc = r->k_loc;
    s.src = r->k_src;
    s.a = r->k_index;
    s.b = r->launches - 1;
    /* the run report's figures: HBM bytes as simulated, the graph's FLOPs
     * (the simulator's in c; they are the FLOPs when the plan is unknown) */
    s.bytes = r->k_hbm_bytes;
    s.flops = r->k_model_flops != UINT64_MAX ? r->k_model_flops : r->k_sim_flops;
    s.c = r->k_sim_flops;
    if (trc_trace_add_slice(r->t, r->kernels_lane, &s) != BASE_OK) r->oom = true;
    r->k_open = false;
    r->last_end = r->k_end;
}

void rec_recorder_launch(struct rec_recorder *r, uint32_t kernel_index, const char *kernel_name, uint32_t root_op,
                         uint64_t start_ps, uint64_t gap_ps)
{
    kernel_close(r);
    if (trc_trace_intern(r->t, kernel_name, &r->k_name) != BASE_OK) r->oom = true;
    /* the host's part before it; time the runtime spent otherwise (a
     * collective between kernels) stays an unlabelled gap */
    if (gap_ps > start_ps - r->last_end && start_ps >= r->last_end) gap_ps = start_ps - r->last_end;
    if (gap_ps && start_ps >= gap_ps) {
        if (!r->dispatch_name && trc_trace_intern(r->t, "dispatch", &r->dispatch_name) != BASE_OK) r->oom = true;
        struct trc_slice g;
        memset(&g, 0, sizeof g);
        g.kind = TRC_SLICE_DISPATCH;
        g.start_ps = start_ps - gap_ps;
        g.dur_ps = gap_ps;
        g.name = r->dispatch_name;
        g.kernel = r->k_name;
        g.a = kernel_index;
        g.b = r->launches;
        if (trc_trace_add_slice(r->t, r->host_lane, &g) != BASE_OK) r->oom = true;
    }
    r->k_op = root_op < r->n_ops ? r->ops[root_op].op : 0;
    r->k_loc = root_op < r->n_ops ? r->ops[root_op].loc : 0;
    r->k_src = root_op < r->n_ops ? r->ops[root_op].src : 0;
    r->k_index = kernel_index;
    r->k_start = r->k_end = start_ps;
    r->k_hbm_bytes = r->k_sim_flops = 0;
    r->k_model_flops = UINT64_MAX;
    r->k_open = true;
    r->launches++; /* semaphores start again at 0: older signallers are void */
}

static inline void kernel_extend(struct rec_recorder *r, uint64_t end)
{
    if (end > r->k_end) r->k_end = end;
}

/* --------------------------------------------------------------- hooks */

static uint32_t instr_name(struct rec_recorder *r, const struct isa_instr *in)
{
    uint32_t key = ((uint32_t)in->op << 16 | (uint32_t)in->func << 8 | in->func2) + 1;
    uint32_t j = (key * 2654435761u) >> (32 - REC_NAME_CACHE_BITS);
    for (;;) {
        if (r->name_key[j] == key) return r->name_id[j];
        if (!r->name_key[j]) break;
        j = (j + 1) & ((1u << REC_NAME_CACHE_BITS) - 1);
    }
    char buf[96];
    enum isa_op op = (enum isa_op)in->op;
    int n = snprintf(buf, sizeof buf, "%s", isa_op_name(op));
    switch (isa_op_fmt(op)) {
    case ISA_FMT_UNARY:
    case ISA_FMT_BINARY:
    case ISA_FMT_REDUCE: snprintf(buf + n, sizeof buf - (size_t)n, ".%s", isa_alu_name((enum isa_alu)in->func)); break;
    case ISA_FMT_TENSOR_SCALAR:
        n += snprintf(buf + n, sizeof buf - (size_t)n, ".%s", isa_alu_name((enum isa_alu)in->func));
        if (in->func2 != ISA_ALU_BYPASS)
            snprintf(buf + n, sizeof buf - (size_t)n, ".%s", isa_alu_name((enum isa_alu)in->func2));
        break;
    case ISA_FMT_ACTIVATE: snprintf(buf + n, sizeof buf - (size_t)n, ".%s", isa_act_name((enum isa_act)in->func)); break;
    default: break;
    }
    uint32_t id = 0;
    if (trc_trace_intern(r->t, buf, &id) != BASE_OK) r->oom = true;
    if (r->name_used < (1u << REC_NAME_CACHE_BITS) / 2) { /* else: intern each time (never happens: ~30 names) */
        r->name_key[j] = key;
        r->name_id[j] = id;
        r->name_used++;
    }
    return id;
}

static inline uint32_t lane_of(const struct rec_recorder *r, uint32_t core, uint32_t engine)
{
    return 2 + core * r->chip.n_engines + engine; /* after the kernels and host lanes */
}

static inline struct trc_slice *push(struct rec_recorder *r, uint32_t lane)
{
    if (lane >= r->t->n_lanes) return NULL;
    struct trc_lane_data *l = &r->t->lanes[lane];
    if (l->n_slices == l->cap_slices &&
        !base_grow((void **)&l->slices, &l->cap_slices, l->n_slices + 1, sizeof *l->slices)) {
        r->oom = true;
        return NULL;
    }
    r->n_records++;
    struct trc_slice *s = &l->slices[l->n_slices++];
    memset(s, 0, sizeof *s);
    return s;
}

/* Remembers who signalled (core, sem) and when the signal became visible. */
static void note_signal(struct rec_recorder *r, uint32_t core, const struct isa_instr *in, uint32_t lane, bool dma,
                        uint64_t start_ps, uint64_t visible_ps)
{
    if (!(in->flags & ISA_FLAG_SIGNAL) || core >= r->chip.cores || in->signal_sem >= ISA_MAX_SEMAPHORES) return;
    struct rec_sig_ring *g = &r->sig[(size_t)core * ISA_MAX_SEMAPHORES + in->signal_sem];
    struct rec_sig *s = &g->e[g->head];
    g->head = (g->head + 1) % REC_SIG_RING;
    s->visible_ps = visible_ps;
    s->start_ps = start_ps;
    s->lane = lane;
    s->dma = dma;
    s->launch = r->launches;
}

/* Grows the open launch's on-chip footprint on rec's core by the
 * scratchpad / accumulator bytes instr's operands reach (loop_iter: the
 * enclosing loops' iterations, NULL for none). */
static void note_footprint(struct rec_recorder *r, uint32_t core, const struct isa_instr *in, const uint32_t *loop_iter)
{
    if (core >= r->chip.cores) return;
    const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    for (int i = 0; i < 4; i++) {
        const struct isa_ap *ap = aps[i];
        if (ap->space != ISA_SPACE_SP && ap->space != ISA_SPACE_ACC) continue;
        if (!ap->part_count) continue;
        int64_t lo, hi, off = 0;
        isa_ap_extent(ap, &lo, &hi);
        for (int d = 0; loop_iter && d < ISA_MAX_LOOP_DEPTH; d++) off += (int64_t)loop_iter[d] * ap->loop_step_bytes[d];
        hi += off;
        uint64_t *f = &r->k_foot[core][ap->space == ISA_SPACE_ACC];
        if (hi > 0 && (uint64_t)hi > *f) *f = (uint64_t)hi;
    }
}

static void on_instr(void *user, uint64_t now_ps, const struct sim_instr_record *rec)
{
    (void)now_ps;
    struct rec_recorder *r = user;
    uint32_t lane = lane_of(r, rec->core, rec->engine);
    kernel_extend(r, rec->end_ps);
    note_footprint(r, rec->core, rec->instr, rec->loop_iter);
    r->k_sim_flops += rec->flops;
    if (rec->instr->op == ISA_OP_DMA) return; /* on_dma recorded it */
    note_signal(r, rec->core, rec->instr, lane, false, rec->start_ps, rec->visible_ps);
    struct trc_slice *s = push(r, lane);
    if (!s) return;
    s->kind = TRC_SLICE_INSTR;
    s->start_ps = rec->start_ps;
    s->dur_ps = rec->end_ps - rec->start_ps;
    s->bytes = rec->bytes;
    s->flops = rec->flops;
    s->a = rec->stream_index;
    s->b = (uint64_t)rec->loop_iter[0] | (uint64_t)rec->loop_iter[1] << 32;
    s->c = rec->visible_ps > rec->end_ps ? rec->visible_ps - rec->end_ps : 0;
    s->name = instr_name(r, rec->instr);
    s->kernel = r->k_name;
    if (rec->tag < r->n_ops) {
        s->op = r->ops[rec->tag].op;
        s->loc = r->ops[rec->tag].loc;
        s->src = r->ops[rec->tag].src;
    }
}

static void on_dma(void *user, uint64_t now_ps, const struct sim_dma_record *rec)
{
    (void)now_ps;
    struct rec_recorder *r = user;
    uint32_t lane = lane_of(r, rec->core, rec->engine);
    kernel_extend(r, rec->end_ps);
    r->k_hbm_bytes += rec->hbm_bytes;
    note_signal(r, rec->core, rec->instr, lane, true, rec->start_ps, rec->end_ps);
    struct trc_slice *s = push(r, lane);
    if (!s) return;
    unsigned src = rec->src_space < ISA_SPACE_COUNT ? rec->src_space : 0;
    unsigned dst = rec->dst_space < ISA_SPACE_COUNT ? rec->dst_space : 0;
    if (!r->dma_name[src][dst]) {
        char buf[64];
        snprintf(buf, sizeof buf, "dma %s->%s", isa_space_name((enum isa_space)src), isa_space_name((enum isa_space)dst));
        if (trc_trace_intern(r->t, buf, &r->dma_name[src][dst]) != BASE_OK) r->oom = true;
    }
    s->kind = TRC_SLICE_DMA;
    s->start_ps = rec->start_ps;
    s->dur_ps = rec->end_ps - rec->start_ps;
    s->bytes = rec->bytes;
    s->a = src;
    s->b = dst;
    s->c = rec->data_start_ps > rec->start_ps ? rec->data_start_ps - rec->start_ps : 0;
    s->name = r->dma_name[src][dst];
    s->kernel = r->k_name;
    uint32_t tag = rec->instr->tag;
    if (tag < r->n_ops) {
        s->op = r->ops[tag].op;
        s->loc = r->ops[tag].loc;
        s->src = r->ops[tag].src;
    }
}

static void on_wait(void *user, uint64_t now_ps, const struct sim_wait_record *rec)
{
    (void)now_ps;
    struct rec_recorder *r = user;
    uint32_t lane = lane_of(r, rec->core, rec->engine);
    struct trc_slice *s = push(r, lane);
    if (!s) return;
    uint32_t sem = rec->sem < ISA_MAX_SEMAPHORES ? rec->sem : 0;
    if (!r->wait_name[sem]) {
        char buf[32];
        snprintf(buf, sizeof buf, "wait s%u", sem);
        if (trc_trace_intern(r->t, buf, &r->wait_name[sem]) != BASE_OK) r->oom = true;
    }
    s->kind = TRC_SLICE_WAIT;
    s->start_ps = rec->start_ps;
    s->dur_ps = rec->end_ps - rec->start_ps;
    s->a = rec->sem;
    s->b = (uint64_t)rec->target;
    s->c = rec->stream_index;
    s->name = r->wait_name[sem];
    s->kernel = r->k_name;
    uint32_t tag = rec->instr->tag;
    if (tag < r->n_ops) {
        s->op = r->ops[tag].op;
        s->loc = r->ops[tag].loc;
        s->src = r->ops[tag].src;
    }
    /* the flow: the latest signal of this semaphore visible by the end of
     * the wait released it; draw it when a DMA gave it */
    if (rec->core >= r->chip.cores) return;
    const struct rec_sig_ring *g = &r->sig[(size_t)rec->core * ISA_MAX_SEMAPHORES + sem];
    const struct rec_sig *best = NULL;
    for (int i = 0; i < REC_SIG_RING; i++) {
        const struct rec_sig *c = &g->e[i];
        if (c->launch != r->launches || c->visible_ps > rec->end_ps) continue;
        if (!best || c->visible_ps > best->visible_ps) best = c;
    }
    if (best && best->dma) {
        struct trc_flow f;
        f.from_lane = best->lane;
        f.to_lane = lane;
        f.from_ps = best->start_ps;
        f.to_ps = best->start_ps > rec->start_ps ? best->start_ps : rec->start_ps;
        if (trc_trace_add_flow(r->t, &f) != BASE_OK) r->oom = true;
    }
}

/* ------------------------------------------------------------- counters */

/* Adds rate (per ps) over [t0, t1) to the buckets of width 2^shift. */
static void spread(double *acc, size_t n, uint32_t shift, uint64_t t0, uint64_t t1, double amount)
{
    if (t1 <= t0) {
        size_t b = (size_t)(t0 >> shift);
        if (b < n) acc[b] += amount;
        return;
    }
    double rate = amount / (double)(t1 - t0);
    uint64_t w = (uint64_t)1 << shift;
    for (uint64_t b = t0 >> shift; b < n && (b << shift) < t1; b++) {
        uint64_t lo = b << shift > t0 ? b << shift : t0, hi = (b << shift) + w < t1 ? (b << shift) + w : t1;
        acc[b] += rate * (double)(hi - lo);
    }
}

/* Length of sample b: 2^shift ps, the last one cut at end. */
static double sample_ps(size_t b, uint32_t shift, uint64_t end)
{
    uint64_t lo = (uint64_t)b << shift, hi = lo + ((uint64_t)1 << shift);
    return (double)((hi < end ? hi : end) - lo > 0 ? (hi < end ? hi : end) - lo : 1);
}

static enum base_status add_counter(struct rec_recorder *r, const char *name, const char *unit, int32_t core,
                                    uint32_t *sort, const double *v, size_t n, uint32_t shift, uint64_t end)
{
    struct trc_lane l;
    memset(&l, 0, sizeof l);
    l.kind = TRC_LANE_COUNTER;
    l.chip = r->chip_index;
    l.core = core;
    l.sort_index = (*sort)++;
    snprintf(l.name, sizeof l.name, "%s", name);
    snprintf(l.unit, sizeof l.unit, "%s", unit);
    uint32_t id;
    TRY(trc_trace_add_lane(r->t, &l, &id));
    double prev = -1;
    for (size_t b = 0; b < n; b++) {
        if (v[b] == prev) continue; /* a counter holds its value until the next sample */
        TRY(trc_trace_add_sample(r->t, id, (uint64_t)b << shift, v[b]));
        prev = v[b];
    }
    if (n && prev != 0 && end > (uint64_t)(n - 1) << shift) TRY(trc_trace_add_sample(r->t, id, end, 0));
    return BASE_OK;
}

/* Scratchpad and accumulator occupancy per core: during each launch, the
 * footprint of the kernel's instructions on that core (one past the highest
 * byte per partition they touch; the compiler allocates from byte 0) as a
 * share of the memory per partition; 0 between launches. */
static enum base_status add_occupancy(struct rec_recorder *r, uint32_t *sort)
{
    const struct chip_desc *c = &r->chip;
    for (uint32_t core = 0; core < c->cores; core++)
        for (int m = 0; m < 2; m++) {
            double cap = (double)(m ? c->accumulator.bytes_per_partition : c->scratchpad.bytes_per_partition);
            bool any = false;
            for (size_t i = 0; i < r->n_occ && !any; i++) any = r->occ[i].core == core && (m ? r->occ[i].acc : r->occ[i].sp);
            if (!any || cap <= 0) continue;
            struct trc_lane l;
            memset(&l, 0, sizeof l);
            l.kind = TRC_LANE_COUNTER;
            l.chip = r->chip_index;
            l.core = (int32_t)core;
            l.sort_index = (*sort)++;
            snprintf(l.name, sizeof l.name, "core%u %s use %%", core, m ? "acc" : "sp");
            snprintf(l.unit, sizeof l.unit, "%%");
            uint32_t id;
            TRY(trc_trace_add_lane(r->t, &l, &id));
            for (size_t i = 0; i < r->n_occ; i++) {
                const struct rec_occ *o = &r->occ[i];
                if (o->core != core) continue;
                double v = 100.0 * (double)(m ? o->acc : o->sp) / cap;
                TRY(trc_trace_add_sample(r->t, id, o->start_ps, v > 100 ? 100 : v));
                TRY(trc_trace_add_sample(r->t, id, o->end_ps, 0));
            }
        }
    return BASE_OK;
}

/* HBM GB/s of the chip (bytes of each transfer touching HBM, spread evenly
 * over its data phase: the simulator's fair share varies within a
 * transfer, so this is a time average per sample) and the utilisation of
 * each engine kind of each core (mean busy fraction of its engines). */
static enum base_status add_counters(struct rec_recorder *r, uint32_t sort)
{
    uint64_t end = 0;
    for (uint32_t i = 0; i < r->t->n_lanes; i++)
        for (size_t k = 0; k < r->t->lanes[i].n_slices; k++) {
            const struct trc_slice *s = &r->t->lanes[i].slices[k];
            if (s->start_ps + s->dur_ps > end) end = s->start_ps + s->dur_ps;
        }
    if (end == 0) return BASE_OK;
    uint32_t shift = 10; /* samples of 2^shift ps, at most REC_COUNTER_SAMPLES of them */
    while ((end >> shift) >= REC_COUNTER_SAMPLES) shift++;
    size_t n = (size_t)(end >> shift) + 1;
    double *acc = calloc(n, sizeof *acc);
    if (!acc) return BASE_ERR_NOMEM;
    enum base_status st = BASE_OK;
    const struct chip_desc *c = &r->chip;
    /* HBM */
    for (uint32_t core = 0; core < c->cores; core++)
        for (uint32_t e = 0; e < c->n_engines; e++) {
            const struct trc_lane_data *l = &r->t->lanes[lane_of(r, core, e)];
            for (size_t k = 0; k < l->n_slices; k++) {
                const struct trc_slice *s = &l->slices[k];
                if (s->kind != TRC_SLICE_DMA) continue;
                int mult = (s->a == ISA_SPACE_HBM) + (s->b == ISA_SPACE_HBM);
                if (mult) spread(acc, n, shift, s->start_ps + s->c, s->start_ps + s->dur_ps, (double)s->bytes * mult);
            }
        }
    /* bytes/ps * 1000 = GB/s; the last sample covers only up to the end */
    for (size_t b = 0; b < n; b++) acc[b] = acc[b] / sample_ps(b, shift, end) * 1000.0;
    st = add_counter(r, "hbm GB/s", "GB/s", -1, &sort, acc, n, shift, end);
    /* utilisation per core and engine kind */
    for (uint32_t core = 0; core < c->cores && st == BASE_OK; core++)
        for (unsigned kind = 0; kind < ISA_ENGINE_KIND_COUNT && st == BASE_OK; kind++) {
            uint32_t engines = 0;
            memset(acc, 0, n * sizeof *acc);
            for (uint32_t e = 0; e < c->n_engines; e++) {
                if ((unsigned)c->engines[e].kind != kind) continue;
                engines++;
                const struct trc_lane_data *l = &r->t->lanes[lane_of(r, core, e)];
                for (size_t k = 0; k < l->n_slices; k++) {
                    const struct trc_slice *s = &l->slices[k];
                    if (s->kind == TRC_SLICE_WAIT || s->dur_ps == 0) continue;
                    spread(acc, n, shift, s->start_ps, s->start_ps + s->dur_ps, (double)s->dur_ps);
                }
            }
            if (!engines) continue;
            for (size_t b = 0; b < n; b++) acc[b] = acc[b] / sample_ps(b, shift, end) / engines * 100.0;
            char name[TRC_NAME_MAX];
            snprintf(name, sizeof name, "core%u %s util %%", core, isa_engine_kind_name((enum isa_engine_kind)kind));
            st = add_counter(r, name, "%", (int32_t)core, &sort, acc, n, shift, end);
        }
    free(acc);
    if (st == BASE_OK) st = add_occupancy(r, &sort);
    return st;
}

enum base_status rec_recorder_finish(struct rec_recorder *r, struct trc_trace **out)
{
    *out = NULL;
    kernel_close(r);
    if (r->oom) return BASE_ERR_NOMEM;
    uint32_t sort = 2 + r->chip.cores * r->chip.n_engines; /* after the engines: collectives, links, counters */
    enum base_status st = rec_collectives_finish(r, &sort);
    if (st == BASE_OK) st = add_counters(r, sort); /* (in any order: they only add up) */
    if (st == BASE_OK) st = trc_trace_finalize(r->t);
    if (st != BASE_OK) return st;
    *out = r->t;
    r->t = NULL;
    /* ready for another recording (empty) */
    st = trc_trace_create(&r->t);
    if (st == BASE_OK) st = add_lanes(r);
    memset(r->name_key, 0, sizeof r->name_key);
    memset(r->dma_name, 0, sizeof r->dma_name);
    memset(r->wait_name, 0, sizeof r->wait_name);
    r->name_used = 0;
    r->dispatch_name = 0;
    r->last_end = 0;
    r->launches = 0;
    memset(r->sig, 0, (size_t)(r->chip.cores ? r->chip.cores : 1) * ISA_MAX_SEMAPHORES * sizeof *r->sig);
    memset(r->k_foot, 0, (size_t)(r->chip.cores ? r->chip.cores : 1) * sizeof *r->k_foot);
    r->n_occ = 0;
    free(r->ops);
    r->ops = NULL;
    r->n_ops = 0;
    r->plan = NULL;
    rec_collectives_reset(r);
    return st;
}
