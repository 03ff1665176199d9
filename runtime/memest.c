/* rt_memory_estimate: what a run will hold in host memory, before it starts
 * (runtime.h; the model and its measured accuracy: docs/memory.md). */
#include "runtime/runtime.h"
#include "memory/memory.h"

#include <stdlib.h>
#include <string.h>

#define RT_KERNEL_CODE_BYTES_PER_FLOP (2.5 * 1048576.0 / 1e9)

static uint64_t pages_of(uint64_t lo, uint64_t hi)
{
    if (hi <= lo) return 0;
    uint64_t p0 = lo >> MEM_HBM_PAGE_SHIFT, p1 = (hi - 1) >> MEM_HBM_PAGE_SHIFT;
    return p1 - p0 + 1;
}

struct range {
    uint64_t lo, hi;
};

static int by_lo(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Whether plan input i is given by a lazy tensor (an SPMD plan's inputs
 * are its manual computation's operands: entry arguments or constants). */
static bool input_lazy(const struct cc_plan *plan, int i, struct base_tensor *const *inputs, int n_inputs)
{
    if (!inputs) return false;
    const struct graph_op *mc = cc_plan_manual_computation(plan);
    int arg = i;
    if (mc) {
        if (i >= mc->n_operands || mc->operands[i]->def) return false;
        arg = mc->operands[i]->index;
    }
    return arg >= 0 && arg < n_inputs && inputs[arg] && inputs[arg]->lazy;
}

/* Pages of simulated HBM one chip stores: every buffer the plan writes (or
 * the host writes before it), but the lazy inputs, which are computed when
 * read; temporaries share addresses, so the union of the ranges counts. */
static uint64_t hbm_pages(const struct cc_plan *plan, struct base_tensor *const *inputs, int n_inputs)
{
    uint32_t n = cc_plan_n_buffers(plan);
    struct range *r = calloc((size_t)n + 1, sizeof *r);
    if (!r) return 0;
    uint32_t m = 0;
    int n_in = cc_plan_n_inputs(plan);
    for (uint32_t b = 0; b < n; b++) {
        const struct cc_buffer *bf = cc_plan_buffer(plan, b);
        if (!bf->bytes) continue;
        bool lazy = false;
        for (int i = 0; i < n_in && !lazy; i++)
            if (cc_plan_input_buffer(plan, i) == b) lazy = input_lazy(plan, i, inputs, n_inputs);
        if (!lazy) r[m++] = (struct range){bf->addr, bf->addr + bf->bytes};
    }
    qsort(r, m, sizeof *r, by_lo);
    uint64_t pages = 0, lo = 0, hi = 0;
    bool open = false;
    for (uint32_t i = 0; i < m; i++) {
        /* merge ranges that overlap or share a page */
        if (open && r[i].lo >> MEM_HBM_PAGE_SHIFT <= (hi - 1) >> MEM_HBM_PAGE_SHIFT) {
            if (r[i].hi > hi) hi = r[i].hi;
            continue;
        }
        if (open) pages += pages_of(lo, hi);
        lo = r[i].lo;
        hi = r[i].hi;
        open = true;
    }
    if (open) pages += pages_of(lo, hi);
    free(r);
    return pages;
}

void rt_memory_estimate(const struct rt_mem_request *q, struct rt_mem_estimate *e)
{
    memset(e, 0, sizeof *e);
    const struct cc_plan *plan = q->plan;
    const struct chip_desc *chip = cc_plan_chip(plan);
    e->module_bytes = q->module_bytes;
    e->n_chips = q->n_chips > 0 ? q->n_chips : 1;
    for (int i = 0; q->inputs && i < q->n_inputs; i++) {
        const struct base_tensor *t = q->inputs[i];
        if (!t) continue;
        if (t->lazy) e->lazy_bytes += base_tensor_nbytes(t);
        else e->inputs_bytes += base_tensor_nbytes(t);
    }
    /* per chip: what sim_create allocates (page tables, scratchpads and
     * accumulators of every core, their written bits when tracking), the
     * simulator's working buffers (about one scratchpad), and the pages */
    uint64_t n_pages = (chip->hbm.capacity_bytes + MEM_HBM_PAGE_BYTES - 1) / MEM_HBM_PAGE_BYTES;
    uint64_t sram = (uint64_t)chip->scratchpad.partitions * chip->scratchpad.bytes_per_partition +
                    (uint64_t)chip->accumulator.partitions * chip->accumulator.bytes_per_partition;
    if (q->timing_only) {
        e->sim_bytes = n_pages * (q->sim_checks ? sizeof(uint64_t *) + sizeof(uint32_t) : 0);
        e->hbm_bytes = 0;
    } else {
        e->sim_bytes = n_pages * sizeof(uint8_t *) + (uint64_t)chip->cores * sram +
                       (uint64_t)chip->scratchpad.partitions * chip->scratchpad.bytes_per_partition;
        uint64_t pages = hbm_pages(plan, q->inputs, q->n_inputs);
        e->hbm_bytes = pages * MEM_HBM_PAGE_BYTES;
        if (q->sim_checks) {
            e->sim_bytes += n_pages * (sizeof(uint64_t *) + sizeof(uint32_t)) + (uint64_t)chip->cores * sram / 8;
            e->hbm_bytes += pages * MEM_HBM_PAGE_BYTES / 8; /* written bits of partly written pages, at most */
        }
    }
    /* the kernel being simulated: its instruction streams, emitted at its
     * launch and freed after (cc_kernel_emit); they grow with its tiles.
     * Calibrated against measured peak RSS of timing-only runs on trn2
     * (docs/memory.md): about 2.3 MiB per GFLOP of the largest kernel
     * (qwen3-32b prefill tp=8: 67 GFLOP, 152 MiB; seq 512: 16.8 GFLOP,
     * 39 MiB), rounded up; TPU kernels take less. */
    for (uint32_t k = 0; k < cc_plan_n_kernels(plan); k++) {
        const struct cc_kernel_info *ki = cc_plan_kernel_info(plan, k);
        uint64_t code = (uint64_t)((double)ki->flops * RT_KERNEL_CODE_BYTES_PER_FLOP);
        if (code > e->kernel_bytes) e->kernel_bytes = code;
    }
    /* the outputs: held by the golden run while the chips run (--check), and
     * the largest read back at once (its shards and the assembled whole) */
    const struct graph_op *func = q->interp_module
                                      ? (q->entry ? graph_module_find_func(q->interp_module, q->entry)
                                                  : graph_module_entry(q->interp_module))
                                      : NULL;
    uint64_t largest = 0, all = 0;
    for (int i = 0; func && i < graph_func_n_results(func); i++) {
        const struct graph_type *t = graph_func_result_type(func, i);
        int64_t c = t ? graph_type_count(t) : -1;
        uint64_t b = c > 0 ? (uint64_t)c * base_dtype_size(t->elem) : 0;
        all += b;
        if (b > largest) largest = b;
    }
    if (!q->timing_only && (q->check || q->keep_outputs)) e->output_bytes = 2 * largest;
    if (q->check && !q->timing_only && func) {
        bool *lazy = calloc((size_t)q->n_inputs + 1, sizeof *lazy);
        for (int i = 0; lazy && q->inputs && i < q->n_inputs; i++) lazy[i] = q->inputs[i] && q->inputs[i]->lazy;
        e->interp_bytes = interp_estimate_peak_bytes(q->interp_module, q->entry, lazy, q->interp_processes);
        free(lazy);
        e->golden_bytes = all;
    }
    /* the two phases: the golden run (then its outputs stay), the chips */
    uint64_t base = e->module_bytes + e->inputs_bytes;
    e->interp_phase_bytes = base + e->interp_bytes;
    e->sim_phase_bytes = base + e->golden_bytes + e->output_bytes + e->kernel_bytes +
                         (uint64_t)e->n_chips * (e->sim_bytes + e->hbm_bytes);
    e->total_bytes = e->interp_phase_bytes > e->sim_phase_bytes ? e->interp_phase_bytes : e->sim_phase_bytes;
}

void rt_memory_estimate_str(const struct rt_mem_estimate *e, char *buf, size_t cap)
{
    char t[32], in[32], lz[32], hbm[32], sim[32], it[32], gold[32], mod[32], kc[32];
    base_size_format(e->kernel_bytes, kc, sizeof kc);
    base_size_format(e->total_bytes, t, sizeof t);
    base_size_format(e->module_bytes, mod, sizeof mod);
    base_size_format(e->inputs_bytes, in, sizeof in);
    base_size_format(e->lazy_bytes, lz, sizeof lz);
    base_size_format(e->hbm_bytes, hbm, sizeof hbm);
    base_size_format(e->sim_bytes, sim, sizeof sim);
    base_size_format(e->interp_bytes, it, sizeof it);
    base_size_format(e->golden_bytes, gold, sizeof gold);
    size_t n = (size_t)snprintf(buf, cap, "%s (program %s, inputs %s stored + %s computed when read, kernel code %s; "
                                          "per chip x %d: simulated HBM %s, simulator %s",
                                t, mod, in, lz, kc, e->n_chips, hbm, sim);
    if (n < cap && e->interp_bytes)
        n += (size_t)snprintf(buf + n, cap - n, "; golden interpreter %s, its outputs %s", it, gold);
    if (n < cap) snprintf(buf + n, cap - n, ")");
}
