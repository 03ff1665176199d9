/* Timing of the systolic arrays (docs/timing.md states every formula).
 *
 * matmul dst[M, N] (+)= stationary[K, M]^T @ moving[K, N] (Neuron's
 * nc_matmul orientation: K on partitions for both inputs; the result has M
 * partitions and N elements each).  transpose src[P, F] -> dst[F, P] runs as
 * a matmul of src (stationary, K = P, M = F) with a P x P identity (moving).
 *
 * Per dataflow, the dims the array holds and streams (SCALE-Sim's mapping),
 * and the operand the array holds between instructions:
 *     ws: Sr = K (rows), Sc = M (cols), T = N (streamed)   holds stationary src0
 *     os: Sr = M,        Sc = N,        T = K              holds the outputs (dst)
 *     is: Sr = K,        Sc = N,        T = M              holds moving src1
 * with Sr <= rows and Sc <= cols.  In cycles (D = dispatch_cycles,
 * p = passes: fp32_passes_<precision> for f32 operands on TPU, else 1):
 *     L = ceil(Sr / load_rows_per_cycle)   (0 on ws when the same stationary
 *                                           operand is loaded and unmodified, p = 1)
 *     S = max(ceil(T / rows_per_cycle[rate]), min_stream_cycles)
 * Without preload (and for os / is), two stages: streaming, then a drain of
 * Sr + Sc - 2 cycles.  A matmul *continues* the previous instruction of its
 * array when that was a matmul with the same precision, p = 1, and the held
 * operand is unchanged: ws the same stationary src0 (not overwritten since);
 * os the same dst, neither this matmul's start nor the previous one's stop
 * set (the partial sums stay in the PEs); is the same moving src1 (not
 * overwritten since).  Then, with t the time the front end reaches it:
 *     head:         begin = max(t, the previous instruction's results visible)
 *     continuation: begin = t (>= the previous stream_end), L = 0
 *     stream_end    = begin + ps(D + p (L + S))
 *     end = visible = begin + ps(D + p (L + S + Sr + Sc - 2))
 * and the front end takes the next instruction at stream_end.  A lone
 * matmul takes D + p (L + S + Sr + Sc - 2) cycles; a chain of n matmuls
 * issued back to back (a fold streamed in n pieces, T = T_1 + ... + T_n)
 * takes n D + p (L + S_1 + ... + S_n + Sr + Sc - 2), which with L = Sr and
 * S_i = T_i (one row loaded and streamed per cycle, no minimum) is
 * SCALE-Sim's per-fold cost n D + 2 Sr + Sc + T - 2: fill and drain are
 * paid once per fold however our ISA splits it (K <= the partitions per
 * matmul on os, N <= an accumulator bank on ws, M <= the partitions on is).
 * With preload (ws only): a two-stage pipeline.  The front end reaches the
 * matmul at t, dispatches and loads the stationary operand into the shadow
 * buffer while the previous matmul streams:
 *     ready        = t + ps(D + p L)
 *     stream_start = max(ready, previous stream_end)
 *     stream_end   = stream_start + ps(p S)
 *     visible      = stream_end + ps(rows + cols - 1)     (fill + drain)
 * and the front end takes the next instruction at stream_start, so back to
 * back matmuls issue every max(p S, D + p L) cycles. */
#include "sim/sim_internal.h"

#include <string.h>

static bool ap_same(const struct isa_ap *a, const struct isa_ap *b)
{
    if (a->space != b->space || a->dtype != b->dtype || a->ndims != b->ndims || a->part_start != b->part_start ||
        a->part_count != b->part_count || a->addr != b->addr || a->part_stride_bytes != b->part_stride_bytes)
        return false;
    for (int d = 0; d < a->ndims && d < ISA_MAX_DIMS; d++)
        if (a->stride[d] != b->stride[d] || a->count[d] != b->count[d]) return false;
    return true;
}

static uint32_t fp32_passes(const struct chip_desc *c, unsigned prec)
{
    uint32_t p = prec == ISA_PREC_HIGHEST ? c->fp32_passes_highest
                 : prec == ISA_PREC_HIGH  ? c->fp32_passes_high
                                          : c->fp32_passes_default;
    return p ? p : 1;
}

static bool matmul_type_ok(const struct chip_desc *c, uint8_t dt)
{
    if (c->matmul_supports[dt]) return true;
    /* TPUs run f32 as bf16 passes */
    return dt == BASE_DT_F32 && c->family == CHIP_FAMILY_TPU && c->matmul_supports[BASE_DT_BF16];
}

enum base_status sim_exec_systolic(struct sim *s, struct sim_exec *x)
{
    struct sim_engine *e = x->e;
    const struct chip_engine_desc *d = e->d;
    const struct chip_desc *c = &s->chip;
    const struct isa_instr *in = x->in;
    const struct isa_ap *dst = x->ap[0], *st = x->ap[1], *mv = x->ap[2];
    bool mm = in->op == ISA_OP_MATMUL;
    uint64_t K = st->part_count, M = isa_ap_free_elems(st), N = mm ? isa_ap_free_elems(mv) : K;

    /* chip limits */
    if (mm) {
        for (int i = 1; i <= 2; i++)
            if (!matmul_type_ok(c, x->ap[i]->dtype))
                return sim_fail(s, x, BASE_ERR_UNSUPPORTED, "%s operand is %s, which chip %s's arrays do not take",
                                i == 1 ? "stationary" : "moving", base_dtype_name((enum base_dtype)x->ap[i]->dtype),
                                c->name);
    }
    uint64_t Sr, Sc, T;
    const char *what;
    switch (d->dataflow) {
    case CHIP_DATAFLOW_OS: Sr = M, Sc = N, T = K, what = "M x N (output stationary)"; break;
    case CHIP_DATAFLOW_IS: Sr = K, Sc = N, T = M, what = "K x N (input stationary)"; break;
    default: Sr = K, Sc = M, T = N, what = "K x M (weight stationary)"; break;
    }
    if (Sr > d->rows || Sc > d->cols)
        return sim_fail(s, x, BASE_ERR_LIMIT, "%s holds %s = %llu x %llu in a %u x %u array", mm ? "matmul" : "transpose",
                        what, (unsigned long long)Sr, (unsigned long long)Sc, d->rows, d->cols);
    if (dst->space == ISA_SPACE_ACC) {
        int64_t lo, hi;
        isa_ap_extent(dst, &lo, &hi);
        const struct mem_sram *acc = &sim_core_of(e)->acc;
        if (lo >= 0 && hi > lo && (uint64_t)hi <= acc->bytes_per_partition &&
            mem_sram_bank(acc, (uint64_t)lo) != mem_sram_bank(acc, (uint64_t)hi - 1))
            return sim_fail(s, x, BASE_ERR_CHECK,
                            "accumulator bank: dst bytes [0x%llx, 0x%llx) span banks %llu..%llu (a bank is %llu bytes "
                            "per partition; one %s writes within one bank)",
                            (unsigned long long)lo, (unsigned long long)hi,
                            (unsigned long long)mem_sram_bank(acc, (uint64_t)lo),
                            (unsigned long long)mem_sram_bank(acc, (uint64_t)hi - 1),
                            (unsigned long long)acc->bank_bytes, mm ? "matmul" : "transpose");
    }

    /* rate class and passes */
    bool f32 = mm && (st->dtype == BASE_DT_F32 || mv->dtype == BASE_DT_F32);
    uint32_t num_passes = f32 ? fp32_passes(c, in->func) : 1;
    uint32_t p = 1;
    enum chip_rate_class rc;
    double rpc;
    if (mm) {
        enum chip_rate_class r0 = chip_rate_class_of((enum base_dtype)st->dtype), r1 = chip_rate_class_of((enum base_dtype)mv->dtype);
        if (f32 && c->family == CHIP_FAMILY_TPU) {
            if (r0 == CHIP_RATE_FP32) r0 = CHIP_RATE_BF16;
            if (r1 == CHIP_RATE_FP32) r1 = CHIP_RATE_BF16;
            p = num_passes;
        }
        rc = d->rows_per_cycle[r0] <= d->rows_per_cycle[r1] ? r0 : r1;
        rpc = d->rows_per_cycle[rc];
        if (!(rpc > 0))
            return sim_fail(s, x, BASE_ERR_UNSUPPORTED, "engine %s has no matmul rate for %s x %s", d->name,
                            base_dtype_name((enum base_dtype)st->dtype), base_dtype_name((enum base_dtype)mv->dtype));
    } else {
        rc = chip_rate_class_of((enum base_dtype)st->dtype);
        rpc = d->rows_per_cycle[rc] > 0 ? d->rows_per_cycle[rc] : d->rows_per_cycle[CHIP_RATE_BF16];
    }

    /* accesses: a matmul reads dst unless start (without acc) overwrites it */
    unsigned rd = 2, wr = 1;
    if (mm) {
        rd |= 4;
        if (!(in->flags & ISA_FLAG_START) || (in->flags & ISA_FLAG_ACCUMULATE)) rd |= 1;
    }
    TRY(sim_check_access(s, x, rd, wr));

    bool ws = d->dataflow == CHIP_DATAFLOW_WS, os = d->dataflow == CHIP_DATAFLOW_OS;
    /* the operand the array holds (docs above) */
    const struct isa_ap *held = os ? dst : d->dataflow == CHIP_DATAFLOW_IS ? mv : st;
    bool same = p == 1 && e->loaded_valid && e->loaded_op == in->op && e->loaded_prec == in->func &&
                ap_same(&e->loaded, held) && (!os || !(in->flags & ISA_FLAG_START));
    /* the fold's held rows and its drain: the rows and columns it uses, or
     * (SCALE-Sim's accounting) the whole array, with no load in os */
    uint64_t Lr = d->fold_full_array ? (os ? 0 : d->rows) : Sr;
    uint64_t drain = d->fold_full_array ? (uint64_t)d->rows + d->cols - 2 : Sr + Sc - 2;
    uint64_t L = same ? 0 : (Lr + d->load_rows_per_cycle - 1) / d->load_rows_per_cycle;
    uint64_t S = sim_ceil_ratio((double)T, rpc);
    if (S < d->min_stream_cycles) S = d->min_stream_cycles;
    uint64_t now = x->now;
    /* saturating: a tiny rate in a chip file makes huge times, which the
     * engine loop then refuses (SIM_MAX_TIME_PS), never wraps */
    if (d->preload && ws) {
        uint64_t ready = base_sat_add_u64(now, event_cycles_to_ps_khz(d->dispatch_cycles + p * L, e->khz));
        uint64_t stream_start = ready > e->array_free_ps ? ready : e->array_free_ps;
        uint64_t stream_end = base_sat_add_u64(stream_start, event_cycles_to_ps_khz(base_sat_mul_u64(p, S), e->khz));
        x->start = now;
        x->end = stream_end;
        x->visible = base_sat_add_u64(stream_end, event_cycles_to_ps_khz((uint64_t)d->rows + d->cols - 1, e->khz));
        x->next = stream_start;
        e->array_free_ps = stream_end;
    } else {
        /* a head waits for the previous fold to drain; a continuation streams behind it */
        uint64_t begin = same || now >= e->last_visible ? now : e->last_visible;
        uint64_t lead = base_sat_add_u64(d->dispatch_cycles, base_sat_mul_u64(p, base_sat_add_u64(L, S)));
        uint64_t stream_end = base_sat_add_u64(begin, event_cycles_to_ps_khz(lead, e->khz));
        x->start = begin;
        x->end = x->visible =
            base_sat_add_u64(begin, event_cycles_to_ps_khz(base_sat_add_u64(lead, base_sat_mul_u64(p, drain)), e->khz));
        x->next = stream_end;
        e->array_free_ps = stream_end;
    }
    /* what the array holds now: os keeps its outputs until a stop drains them */
    e->loaded_valid = !(os && mm && (in->flags & ISA_FLAG_STOP)) && (ws || mm);
    e->loaded = *held;
    e->loaded_op = in->op;
    e->loaded_prec = in->func;
    if (os)
        e->loaded_lo = e->loaded_hi = 0; /* in the PEs, not the scratchpad: no write drops it */
    else
        isa_ap_extent(held, &e->loaded_lo, &e->loaded_hi);
    x->flops = mm ? 2 * K * M * N : 0;
    if (s->opt.timing_only) return BASE_OK;
    return mm ? sim_compute_matmul(s, x, num_passes) : sim_compute_transpose(s, x);
}
