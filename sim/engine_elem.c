/* Timing of control instructions (every engine) and of the elementwise
 * engines (vector, scalar/activation, gpsimd).  Formulas: docs/timing.md.
 *
 *   control (nop, halt, sem_wait, sem_signal, loop):
 *       D cycles, D = dispatch_cycles; one that signals or halts first waits
 *       until every earlier result of its engine is visible.
 *   elementwise:
 *       cycles = D + ceil(m * ceil(P / lanes) * ceil(F / epc))
 *       P, F: partitions and free elements per partition of the streamed
 *       operand (src0 when the op reads one, else dst); epc:
 *       elems_per_cycle_2in (binary, select) or elems_per_cycle, of the
 *       slowest rate class among the tensor operands (a rate of 0 falls back
 *       to the one-input rate, then to fp32's); m: transcendental_cost for
 *       activate with a function other than identity / relu / square, else 1.
 *       The result is visible at the end; the next instruction starts then. */
#include "sim/sim_internal.h"

enum base_status sim_exec_control(struct sim *s, struct sim_exec *x)
{
    (void)s;
    struct sim_engine *e = x->e;
    uint64_t start = x->now;
    if (((x->in->flags & ISA_FLAG_SIGNAL) || x->in->op == ISA_OP_HALT) && e->last_visible > start)
        start = e->last_visible;
    x->start = start;
    x->end = x->visible = x->next = start + e->dispatch_ps;
    return BASE_OK;
}

/* Operands read (bits: 0 dst, 1 src0, 2 src1, 3 src2) by an elementwise op. */
static unsigned elem_reads(const struct isa_instr *in)
{
    switch ((enum isa_op)in->op) {
    case ISA_OP_IOTA:
    case ISA_OP_MEMSET: return 0;
    case ISA_OP_BINARY: return 2 | 4;
    case ISA_OP_SELECT: return 2 | 4 | 8;
    case ISA_OP_TENSOR_SCALAR:
    case ISA_OP_ACTIVATE:
        return 2 | ((in->flags & ISA_FLAG_SCALE_AP) ? 4u : 0u) | ((in->flags & ISA_FLAG_BIAS_AP) ? 8u : 0u);
    default: return 2;
    }
}

/* Tensor (not per-partition scalar) operands, for the rate class. */
static unsigned elem_tensors(const struct isa_instr *in)
{
    switch ((enum isa_op)in->op) {
    case ISA_OP_IOTA:
    case ISA_OP_MEMSET: return 1;
    case ISA_OP_BINARY: return 1 | 2 | 4;
    case ISA_OP_SELECT: return 1 | 2 | 4 | 8;
    default: return 1 | 2;
    }
}

static bool cheap_activation(unsigned f)
{
    return f == ISA_ACT_IDENTITY || f == ISA_ACT_RELU || f == ISA_ACT_SQUARE;
}

/* Elements per cycle per lane for an op over these dtypes. */
static double elem_rate(const struct chip_engine_desc *d, const struct isa_instr *in, const struct isa_ap *const *ap,
                        bool two_in)
{
    unsigned t = elem_tensors(in);
    double best = 0;
    bool any = false;
    for (int i = 0; i < 4; i++) {
        if (!(t >> i & 1)) continue;
        enum chip_rate_class rc = chip_rate_class_of((enum base_dtype)ap[i]->dtype);
        double r = two_in ? d->elems_per_cycle_2in[rc] : 0;
        if (!(r > 0)) r = d->elems_per_cycle[rc];
        if (!(r > 0)) r = two_in && d->elems_per_cycle_2in[CHIP_RATE_FP32] > 0 ? d->elems_per_cycle_2in[CHIP_RATE_FP32]
                                                                             : d->elems_per_cycle[CHIP_RATE_FP32];
        if (!any || r < best) best = r;
        any = true;
    }
    return best;
}

static uint64_t elem_flops(const struct isa_instr *in, uint64_t out_elems, uint64_t in_elems)
{
    switch ((enum isa_op)in->op) {
    case ISA_OP_UNARY:
    case ISA_OP_BINARY: return out_elems;
    case ISA_OP_TENSOR_SCALAR: return out_elems * (in->func2 != ISA_ALU_BYPASS ? 2 : 1);
    case ISA_OP_ACTIVATE: return out_elems * 3;
    case ISA_OP_REDUCE:
    case ISA_OP_PART_REDUCE: return in_elems;
    default: return 0;
    }
}

/* Everything about an elementwise instruction's timing is static (shapes
 * and dtypes; loops only move addresses), so it is computed once at load. */
void sim_prepare_elem(const struct sim_engine *e, const struct isa_instr *in, struct sim_instr_info *info)
{
    const struct chip_engine_desc *d = e->d;
    const struct isa_ap *ap[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    unsigned rd = elem_reads(in);
    const struct isa_ap *work = (rd & 2) ? ap[1] : ap[0];
    bool two_in = in->op == ISA_OP_BINARY || in->op == ISA_OP_SELECT;
    double epc = elem_rate(d, in, ap, two_in);
    uint64_t passes = (work->part_count + d->lanes - 1) / d->lanes;
    uint64_t per_pass = sim_ceil_ratio((double)isa_ap_free_elems(work), epc);
    double m = 1;
    if (in->op == ISA_OP_ACTIVATE && !cheap_activation(in->func) && d->transcendental_cost > 0)
        m = d->transcendental_cost;
    uint64_t cycles = d->dispatch_cycles + sim_ceil_ratio(m * (double)passes * (double)per_pass, 1.0);
    info->elem_ps = event_cycles_to_ps_khz(cycles, e->khz);
    info->flops = elem_flops(in, isa_ap_total_elems(ap[0]), (rd & 2) ? isa_ap_total_elems(ap[1]) : 0);
    info->rd = (uint8_t)rd;
    info->wr = 1;
    info->elem = true;
}

enum base_status sim_exec_elem(struct sim *s, struct sim_exec *x)
{
    const struct sim_instr_info *info = x->info;
    BASE_ASSERT(info->elem);
    TRY(sim_check_access(s, x, info->rd, info->wr));
    x->start = x->now;
    x->end = x->visible = x->next = base_sat_add_u64(x->now, info->elem_ps);
    x->flops = info->flops;
    if (s->opt.timing_only) return BASE_OK;
    if (x->in->op == ISA_OP_TRANSPOSE) return sim_compute_transpose(s, x);
    return sim_compute_elem(s, x);
}
