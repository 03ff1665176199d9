/* DMA queues: one transfer at a time, in order (docs/timing.md).
 *
 * A dma of B bytes (B = max(source bytes, destination bytes)) issued at t:
 *     data_start = t + ps(D) + fixed_ps + (touches HBM ? hbm latency_ps : 0)
 * SRAM <-> SRAM: end = data_start + event_bytes_to_ps(B, bytes_per_ns).
 * Touching HBM: the bytes flow through the chip's shared HBM bandwidth
 * (memory/bw.c): the transfer's rate is min(its queue's bytes_per_ns, its
 * max-min fair share of the HBM bandwidth among all transfers moving at the
 * moment), recomputed whenever any transfer starts or ends.  It moves its
 * HBM-side bytes H (the source's if in HBM plus the destination's if in
 * HBM: 2B for HBM -> HBM, B/2 for a bf16 -> f32 read) at up to
 * bytes_per_ns x H / B, so its queue alone still takes B / bytes_per_ns.
 * Alone, a transfer ends at
 *     data_start + event_bytes_to_ps(H, min(bytes_per_ns x H / B, hbm bytes_per_ns)).
 * The queue takes its next instruction when the transfer ends; signals fire
 * then.  Values move when the transfer is issued (programs order readers
 * after the signal); between types they convert through f32, and acc adds
 * in f32: dst = convert(dst + src). */
#include "sim/sim_internal.h"

#include <string.h>

enum { DMA_PHASE_FLOW, DMA_PHASE_END };

static void dma_complete(struct sim *s, struct sim_engine *e)
{
    struct sim_exec *x = &e->dma_x;
    uint64_t now = event_sched_now(&s->sched);
    x->end = x->visible = x->next = now;
    e->dma_rec.end_ps = now;
    if (s->hooks.on_dma) s->hooks.on_dma(s->hooks.user, now, &e->dma_rec);
    sim_instr_done(s, x);
    sim_dma_resume(s, e);
}

static void flow_done(struct mem_flow *f, void *user)
{
    (void)f;
    struct sim_engine *e = user;
    dma_complete(e->sim, e);
}

void sim_dma_on_event(struct event_sched *sc, struct event *ev)
{
    (void)sc;
    struct sim_engine *e = ev->user;
    struct sim *s = e->sim;
    if (e->dma_phase == DMA_PHASE_FLOW) {
        enum base_status st = mem_bw_start(&s->hbm_bw, &e->flow, e->gidx, e->dma_hbm_bytes,
                                           e->d->bytes_per_ns * e->dma_hbm_cap_scale, flow_done, e);
        BASE_ASSERT(st == BASE_OK);
        return;
    }
    dma_complete(s, e);
}

enum base_status sim_exec_dma(struct sim *s, struct sim_exec *x)
{
    if (x->in->op != ISA_OP_DMA) return sim_exec_control(s, x);
    struct sim_engine *e = x->e;
    const struct isa_instr *in = x->in;
    const struct isa_ap *dst = x->ap[0], *src = x->ap[1];
    unsigned rd = 2 | ((in->flags & ISA_FLAG_ACCUMULATE) ? 1u : 0u);
    TRY(sim_check_access(s, x, rd, 1));
    const struct sim_operand_info *di = &x->info->op[0], *si = &x->info->op[1]; /* static sizes (sim_load) */
    uint64_t sb = si->elems * si->esize, db = di->elems * di->esize;
    uint64_t bytes = sb > db ? sb : db;
    unsigned factor = (src->space == ISA_SPACE_HBM) + (dst->space == ISA_SPACE_HBM);
    /* HBM moves only its own side's bytes: a converting read of bf16 into
     * f32 reads B / 2 from HBM, at a cap that keeps the queue's time for B */
    uint64_t hbm_side = (src->space == ISA_SPACE_HBM ? sb : 0) + (dst->space == ISA_SPACE_HBM ? db : 0);
    x->bytes = bytes;
    x->flops = (in->flags & ISA_FLAG_ACCUMULATE) ? di->elems : 0;
    if (!s->opt.timing_only) TRY(sim_compute_dma(s, x));

    uint64_t now = x->now;
    uint64_t data_start = now + e->dispatch_ps + e->d->fixed_ps + (factor ? s->chip.hbm.latency_ps : 0);
    x->start = now;
    x->async = true;
    /* keep the instruction for its completion (operands pointing at the copy) */
    e->dma_x = *x;
    for (int i = 0; i < 4; i++)
        if (x->ap[i] == &x->ap_buf[i]) e->dma_x.ap[i] = &e->dma_x.ap_buf[i];
    e->dma_rec = (struct sim_dma_record){
        .core = e->core,
        .engine = e->idx,
        .engine_name = e->d->name,
        .stream_index = x->pc,
        .instr = in,
        .start_ps = now,
        .data_start_ps = data_start,
        .end_ps = data_start,
        .bytes = bytes,
        .hbm_bytes = factor && bytes ? hbm_side : 0,
        .hbm = factor > 0,
        .src_space = (enum isa_space)src->space,
        .dst_space = (enum isa_space)dst->space,
    };
    enum base_status st;
    if (factor && bytes) {
        e->dma_phase = DMA_PHASE_FLOW;
        e->dma_hbm_cap_scale = (double)hbm_side / (double)bytes;
        e->dma_hbm_bytes = (double)hbm_side;
        st = event_sched_at(&s->sched, &e->ev_dma, data_start);
    } else {
        e->dma_phase = DMA_PHASE_END;
        st = event_sched_at(&s->sched, &e->ev_dma,
                            base_sat_add_u64(data_start, event_bytes_to_ps((double)bytes, e->d->bytes_per_ns)));
    }
    return st;
}

/* ------------------------------------------------------------ values */

enum base_status sim_compute_dma(struct sim *s, struct sim_exec *x)
{
    uint32_t core = x->e->core;
    const struct isa_ap *dst = x->ap[0], *src = x->ap[1];
    size_t n = (size_t)isa_ap_total_elems(src);
    if (x->in->flags & ISA_FLAG_ACCUMULATE) {
        float *a = sim_gather_f32(s, core, src, SIM_BUF_A);
        float *d = sim_gather_f32(s, core, dst, SIM_BUF_B);
        if (!a || !d) return BASE_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) d[i] = d[i] + a[i];
        return sim_scatter_f32(s, core, dst, d);
    }
    size_t es = sim_elem_size(src);
    void *raw = sim_buf(s, SIM_BUF_A, n * es);
    if (!raw) return BASE_ERR_NOMEM;
    sim_gather_raw(s, core, src, raw);
    if (dst->dtype == src->dtype) return sim_scatter_raw(s, core, dst, raw);
    void *cv = sim_buf(s, SIM_BUF_B, n * sim_elem_size(dst));
    if (!cv) return BASE_ERR_NOMEM;
    sim_convert_via_f32((enum base_dtype)dst->dtype, cv, (enum base_dtype)src->dtype, raw, n);
    return sim_scatter_raw(s, core, dst, cv);
}
