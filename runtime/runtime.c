/* rt_run: a plan's steps on a simulated chip (runtime.h). */
#include "runtime/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const bound_names[] = {
#define X(e, name) name,
    X_RT_BOUNDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(bound_names) == RT_BOUND_COUNT, "bound_names");

const char *rt_bound_name(enum rt_bound b) { return (unsigned)b < RT_BOUND_COUNT ? bound_names[b] : "?"; }

void rt_options_default(struct rt_options *o) { memset(o, 0, sizeof *o); }

void rt_report_free(struct rt_report *r)
{
    if (!r) return;
    free(r->kernels);
    free(r->checks);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ run */

struct rt {
    const struct cc_plan *plan;
    const struct sim_chip_desc *chip;
    struct sim *sim;
    struct rt_options opt;
    struct base_diag *diag;
    struct rt_report *rep;
    uint32_t n_cores;
    struct isa_program *progs;
    /* engine figures before a launch (all cores, core-major) */
    uint32_t n_eng;
    uint64_t *busy0, *bytes0, *flops0, *instr0;
    uint64_t hbm0, flops_total0;
    int64_t *trips; /* per step: body runs so far (timing-only static loops) */
    double *coll_ps; /* per step: a collective's time once computed (< 0: not yet) */
    struct icn_topo topo_default; /* when opt.topo is NULL (built at the first collective) */
    bool have_topo_default;
    uint64_t launches;
};

/* A located error: op's location and the message. */
#define fail_at(r, op, st, ...) graph_op_diag((r)->diag, op, st, __VA_ARGS__)

static struct sim_loc hbm_at(uint64_t addr)
{
    struct sim_loc l;
    memset(&l, 0, sizeof l);
    l.space = ISA_SPACE_HBM;
    l.addr = addr;
    return l;
}

/* A buffer's contents as a tensor (functional runs). */
static enum base_status read_buffer(struct rt *r, uint32_t b, struct base_tensor **out)
{
    const struct cc_buffer *bf = cc_plan_buffer(r->plan, b);
    struct sim_loc l = hbm_at(bf->addr);
    return sim_read_tensor(r->sim, &l, bf->dtype, bf->rank, bf->dims, out, r->diag);
}

/* Writes t (or, with t NULL, just marks the buffer written: timing-only) into buffer b. */
static enum base_status write_buffer(struct rt *r, uint32_t b, const struct base_tensor *t)
{
    const struct cc_buffer *bf = cc_plan_buffer(r->plan, b);
    struct sim_loc l = hbm_at(bf->addr);
    struct base_tensor hdr;
    if (!t || r->opt.timing_only) {
        /* the simulator reads only the type and shape of a timing-only write */
        memset(&hdr, 0, sizeof hdr);
        hdr.dtype = bf->dtype;
        hdr.rank = bf->rank;
        for (int d = 0; d < bf->rank; d++) hdr.dims[d] = bf->dims[d];
        hdr.count = base_shape_count(bf->rank, bf->dims);
        if (!r->opt.timing_only) return base_diag_set(r->diag, BASE_ERR_INVALID, NULL, 0, 0, "no value for buffer %u", b);
        t = &hdr;
    }
    return sim_write_tensor(r->sim, &l, t, r->diag);
}

/* The integer in scalar buffer b (first element). */
static enum base_status read_scalar(struct rt *r, const struct cc_step *st, int64_t *out, bool *known)
{
    const struct cc_buffer *bf = cc_plan_buffer(r->plan, st->buffer);
    *known = true;
    if (bf->kind == CC_BUF_CONST && bf->init && bf->init->data && bf->init->count > 0) {
        *out = base_dtype_is_float(bf->init->dtype) ? (int64_t)base_elem_get_f64(bf->init->dtype, bf->init->data, 0)
                                                    : base_elem_get_i64(bf->init->dtype, bf->init->data, 0);
        return BASE_OK;
    }
    if (r->opt.timing_only) {
        *known = false;
        return BASE_OK;
    }
    struct base_tensor *t = NULL;
    TRY(read_buffer(r, st->buffer, &t));
    if (t->count < 1) {
        base_tensor_release(t);
        return fail_at(r, st->op, BASE_ERR_RUNTIME, "%s: the predicate is empty", st->op ? st->op->name : "branch");
    }
    *out = base_dtype_is_float(t->dtype) ? (int64_t)base_elem_get_f64(t->dtype, t->data, 0)
                                         : base_elem_get_i64(t->dtype, t->data, 0);
    if (t->dtype == BASE_DT_I1) *out = ((const uint8_t *)t->data)[0] != 0;
    base_tensor_release(t);
    return BASE_OK;
}

static void snapshot(struct rt *r)
{
    const struct sim_stats *s = sim_get_stats(r->sim);
    for (uint32_t e = 0; e < r->n_eng && e < s->n_engines; e++) {
        r->busy0[e] = s->engines[e].busy_ps;
        r->bytes0[e] = s->engines[e].bytes;
        r->flops0[e] = s->engines[e].flops;
        r->instr0[e] = s->engines[e].instructions;
    }
    r->hbm0 = s->hbm_bytes;
    r->flops_total0 = s->flops;
}

/* Adds the launch's figures (the difference from the snapshot) to ks. */
static void account(struct rt *r, struct rt_kernel_stats *ks, uint64_t start_ps, uint64_t end_ps, uint64_t gap_ps)
{
    const struct sim_stats *s = sim_get_stats(r->sim);
    uint64_t compute = 0, dma = 0;
    for (uint32_t e = 0; e < r->n_eng && e < s->n_engines; e++) {
        const struct sim_engine_stats *es = &s->engines[e];
        uint64_t busy = es->busy_ps - r->busy0[e];
        if ((unsigned)es->kind < ISA_ENGINE_KIND_COUNT) ks->busy_ps[es->kind] += busy;
        if (es->kind == ISA_ENGINE_DMA) {
            if (busy > dma) dma = busy;
        } else if (busy > compute) {
            compute = busy;
        }
        ks->instructions += es->instructions - r->instr0[e];
    }
    uint64_t hbm = s->hbm_bytes - r->hbm0;
    ks->launches++;
    ks->time_ps += end_ps - start_ps;
    ks->dispatch_ps += gap_ps;
    if (ks->launches == 1) ks->first_start_ps = start_ps;
    ks->last_end_ps = end_ps;
    ks->flops += s->flops - r->flops_total0;
    ks->hbm_bytes += hbm;
    ks->compute_busy_ps += compute;
    ks->dma_busy_ps += dma;
    double bw = r->chip->hbm.bytes_per_ns;
    ks->hbm_ps += bw > 0 ? (uint64_t)((double)hbm * 1000.0 / bw + 0.5) : 0;
}

static enum rt_bound bound_of(const struct rt_kernel_stats *ks)
{
    if (ks->dispatch_ps >= ks->time_ps) return RT_BOUND_DISPATCH;
    double t = (double)ks->time_ps;
    double c = (double)ks->compute_busy_ps / t;
    double m = (double)(ks->hbm_ps > ks->dma_busy_ps ? ks->hbm_ps : ks->dma_busy_ps) / t;
    if (c < 0.5 && m < 0.5) return RT_BOUND_WAITING;
    return c >= m ? RT_BOUND_COMPUTE : RT_BOUND_MEMORY;
}

static enum base_status launch(struct rt *r, uint32_t k)
{
    const struct cc_plan *p = r->plan;
    const struct cc_kernel_info *ki = cc_plan_kernel_info(p, k);
    /* the host's part: a dispatch per eager kernel; the compiled program's
     * one launch, then the device's gap between kernels */
    uint64_t gap = ki->dispatch || r->launches == 0 ? r->chip->host.dispatch_overhead_ps : r->chip->host.kernel_launch_ps;
    /* dynamic operands, read before the kernel is generated */
    uint32_t nd = cc_kernel_n_dyn(p, k);
    struct base_tensor *dyn[16] = {NULL};
    if (nd > 16) return fail_at(r, ki->root, BASE_ERR_LIMIT, "%s: more than 16 dynamic operands", ki->name);
    enum base_status st = BASE_OK;
    if (!r->opt.timing_only)
        for (uint32_t i = 0; i < nd && st == BASE_OK; i++) st = read_buffer(r, cc_kernel_dyn_buffer(p, k, i), &dyn[i]);
    uint32_t loaded = 0;
    for (uint32_t c = 0; c < r->n_cores && st == BASE_OK; c++) {
        isa_program_init(&r->progs[c]);
        struct cc_emit_ctx ctx = {c, r->n_cores, r->opt.timing_only || nd == 0 ? NULL : (const struct base_tensor *const *)dyn};
        st = cc_kernel_emit(p, k, &ctx, &r->progs[c], r->diag);
        if (st == BASE_OK && r->progs[c].n_streams > 0) {
            st = sim_load(r->sim, c, &r->progs[c], NULL, r->diag);
            loaded++;
        }
    }
    uint64_t start = 0, end = 0;
    if (st == BASE_OK) st = sim_advance(r->sim, gap, r->diag);
    if (st == BASE_OK) {
        snapshot(r);
        start = sim_now_ps(r->sim);
        if (r->opt.on_launch) r->opt.on_launch(r->opt.launch_user, k, start, gap);
        if (loaded) st = sim_run(r->sim, r->diag);
        end = sim_now_ps(r->sim);
    }
    for (uint32_t c = 0; c < r->n_cores; c++) isa_program_deinit(&r->progs[c]);
    for (uint32_t i = 0; i < nd && i < 16; i++) base_tensor_release(dyn[i]);
    if (st != BASE_OK) return st;
    r->launches++;
    if (r->rep) {
        struct rt_kernel_stats *ks = &r->rep->kernels[k];
        account(r, ks, start, end, gap);
        ks->model_flops += ki->flops;
        r->rep->launches++;
        r->rep->device_ps += end - start;
        r->rep->dispatch_ps += gap;
    }
    return BASE_OK;
}

static enum base_status check_step(struct rt *r, const struct cc_step *s)
{
    bool verdict = s->check_out_buffer != UINT32_MAX; /* @check.eq returns it */
    if (r->opt.timing_only) /* no values to check */
        return verdict ? write_buffer(r, s->check_out_buffer, NULL) : BASE_OK;
    if (!r->rep && !verdict) return BASE_OK; /* nobody reads the verdict */
    struct base_tensor *t[8] = {NULL};
    enum base_status st = BASE_OK;
    if (s->n_check_buffers > 8) return fail_at(r, s->op, BASE_ERR_LIMIT, "%s: more than 8 operands", s->op->name);
    for (uint32_t i = 0; i < s->n_check_buffers && st == BASE_OK; i++) st = read_buffer(r, s->check_buffers[i], &t[i]);
    struct graph_check_result res;
    if (st == BASE_OK) st = graph_check_eval(s->op, t, (int)s->n_check_buffers, &res, r->diag);
    for (uint32_t i = 0; i < 8; i++) base_tensor_release(t[i]);
    if (st == BASE_OK && verdict) {
        struct base_tensor *v = NULL;
        st = base_tensor_create(BASE_DT_I1, 0, NULL, &v);
        if (st == BASE_OK) {
            ((uint8_t *)v->data)[0] = res.passed;
            st = write_buffer(r, s->check_out_buffer, v);
        }
        base_tensor_release(v);
    }
    if (st != BASE_OK || !r->rep) return st;
    struct rt_report *rp = r->rep;
    struct graph_check_result *nc = realloc(rp->checks, (size_t)(rp->n_checks + 1) * sizeof *nc);
    if (!nc) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rp->checks = nc;
    rp->checks[rp->n_checks++] = res;
    if (!res.passed) rp->n_checks_failed++;
    return BASE_OK;
}

void rt_default_shape(const struct sim_chip_desc *chip, uint32_t n, char *buf, size_t cap)
{
    uint32_t a = 1, b = 1;
    switch (chip->links.topology) {
    case SIM_TOPO_TORUS2D:
        for (uint32_t i = 1; i * i <= n; i++)
            if (n % i == 0) a = i;
        snprintf(buf, cap, "%ux%u", a, n / a);
        return;
    case SIM_TOPO_TORUS3D:
        for (uint32_t i = 1; i * i * i <= n; i++)
            if (n % i == 0) a = i;
        for (uint32_t j = a; j * j <= n / a; j++)
            if ((n / a) % j == 0) b = j;
        if (b < a) b = a;
        snprintf(buf, cap, "%ux%ux%u", a, b, n / a / b);
        return;
    default: snprintf(buf, cap, "%u", n); return;
    }
}

static enum base_status topology(struct rt *r, const struct graph_op *op, uint32_t n_parts, const struct icn_topo **out)
{
    if (r->opt.topo) {
        *out = r->opt.topo;
        return BASE_OK;
    }
    if (!r->have_topo_default) {
        char shape[64];
        rt_default_shape(r->chip, n_parts, shape, sizeof shape);
        if (icn_topo_from_chip(r->chip, shape, ICN_WRAP_AUTO, NULL, &r->topo_default, r->diag) != BASE_OK)
            return fail_at(r, op, BASE_ERR_INVALID, "%s: no topology of %u %s chips: %s", op->name, n_parts,
                           r->chip->name, r->diag->msg);
        r->have_topo_default = true;
    }
    *out = &r->topo_default;
    return BASE_OK;
}

/* The replica groups of a collective (row-major n_groups x size into ids,
 * cap entries); one group of every partition when absent. */
static enum base_status coll_groups(struct rt *r, const struct graph_op *op, uint32_t n_parts, uint32_t *ids,
                                    uint32_t cap, uint32_t *n_groups, uint32_t *size)
{
    const struct graph_attr *a = graph_op_attr(op, "replica_groups");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || t->rank != 2 || t->count < 1) {
        if (n_parts > cap) return fail_at(r, op, BASE_ERR_LIMIT, "%s: more than %u partitions", op->name, cap);
        for (uint32_t i = 0; i < n_parts; i++) ids[i] = i;
        *n_groups = 1;
        *size = n_parts;
        return BASE_OK;
    }
    if ((uint64_t)t->count > cap) return fail_at(r, op, BASE_ERR_LIMIT, "%s: more than %u group members", op->name, cap);
    for (int64_t i = 0; i < t->count; i++) {
        int64_t v = base_elem_get_i64(t->dtype, t->data, (size_t)i);
        if (v < 0 || v >= (int64_t)n_parts)
            return fail_at(r, op, BASE_ERR_INVALID, "%s: replica group member %lld is not one of the %u partitions",
                           op->name, (long long)v, n_parts);
        ids[i] = (uint32_t)v;
    }
    *n_groups = (uint32_t)t->dims[0];
    *size = (uint32_t)t->dims[1];
    return BASE_OK;
}

static bool coll_kind(enum graph_op_kind k, enum icn_coll *out)
{
    switch (k) {
    case GRAPH_OP_ALL_REDUCE: *out = ICN_COLL_ALL_REDUCE; return true;
    case GRAPH_OP_ALL_GATHER: *out = ICN_COLL_ALL_GATHER; return true;
    case GRAPH_OP_REDUCE_SCATTER: *out = ICN_COLL_REDUCE_SCATTER; return true;
    case GRAPH_OP_ALL_TO_ALL: *out = ICN_COLL_ALL_TO_ALL; return true;
    case GRAPH_OP_COLLECTIVE_PERMUTE: *out = ICN_COLL_COLLECTIVE_PERMUTE; return true;
    case GRAPH_OP_COLLECTIVE_BROADCAST: *out = ICN_COLL_COLLECTIVE_BROADCAST; return true;
    default: return false;
    }
}

/* A collective of an SPMD plan run as one representative partition: no
 * values (every partition's would be needed); its time is the interconnect
 * model's for the collective on opt.topo (docs/compiler.md "SPMD plans"). */
static enum base_status collective_step(struct rt *r, uint32_t pc, const struct cc_step *s)
{
    const struct graph_op *op = s->op;
    uint32_t n_parts = (uint32_t)cc_plan_num_partitions(r->plan);
    enum icn_coll kind;
    if (!coll_kind(op->kind, &kind)) return fail_at(r, op, BASE_ERR_INTERNAL, "%s: not a collective", op->name);
    if (!r->opt.timing_only)
        return fail_at(r, op, BASE_ERR_UNSUPPORTED,
                       "%s: a collective needs every partition's values, and a run simulates one partition: run "
                       "--timing-only (multi-chip functional runs are not built yet)",
                       op->name);
    /* bytes per chip, as icn_coll_desc defines them */
    double bytes = 0; /* the operands', or all_gather's gathered results' */
    uint32_t first = kind == ICN_COLL_ALL_GATHER ? s->n_coll_in : 0;
    uint32_t count = kind == ICN_COLL_ALL_GATHER ? s->n_coll_out : s->n_coll_in;
    for (uint32_t i = first; i < first + count; i++) bytes += (double)cc_plan_buffer(r->plan, s->coll_buffers[i])->bytes;
    if (r->coll_ps[pc] < 0) {
        const struct icn_topo *topo = NULL;
        TRY(topology(r, op, n_parts, &topo));
        if (topo->n_chips < n_parts)
            return fail_at(r, op, BASE_ERR_INVALID, "%s: %u partitions on a topology of %u chips (%s)", op->name,
                           n_parts, topo->n_chips, topo->desc);
        uint32_t ids[4096], n_groups = 0, size = 0;
        struct icn_coll_desc d;
        memset(&d, 0, sizeof d);
        d.coll = kind;
        d.alg = ICN_ALG_AUTO;
        d.bytes = bytes;
        d.representative = true;
        if (kind == ICN_COLL_COLLECTIVE_PERMUTE) {
            const struct graph_attr *a = graph_op_attr(op, "source_target_pairs");
            const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
            if (!t || t->count > 4096) return fail_at(r, op, BASE_ERR_INVALID, "%s: no source_target_pairs", op->name);
            for (int64_t i = 0; i < t->count; i++) ids[i] = (uint32_t)base_elem_get_i64(t->dtype, t->data, (size_t)i);
            d.pairs = ids;
            d.n_pairs = (uint32_t)(t->count / 2);
        } else {
            TRY(coll_groups(r, op, n_parts, ids, 4096, &n_groups, &size));
            d.groups = ids;
            d.n_groups = n_groups;
            d.group_size = size;
        }
        double ps = 0;
        if (size > 1 || d.n_pairs > 0) {
            struct icn_plan ip;
            memset(&ip, 0, sizeof ip);
            enum base_status st = icn_plan_build(topo, &d, &ip, r->diag);
            struct icn_run_result res;
            const struct icn_plan *pl = &ip;
            if (st == BASE_OK) st = icn_run(topo, &pl, 1, &res, NULL);
            icn_plan_deinit(&ip);
            if (st != BASE_OK) return fail_at(r, op, st, "%s: the interconnect model failed: %s", op->name, r->diag->msg);
            ps = (double)res.time_ps;
        }
        r->coll_ps[pc] = ps;
    }
    uint64_t t_ps = (uint64_t)r->coll_ps[pc];
    TRY(sim_advance(r->sim, t_ps, r->diag));
    for (uint32_t i = 0; i < s->n_coll_out; i++) TRY(write_buffer(r, s->coll_buffers[s->n_coll_in + i], NULL));
    if (r->rep) {
        r->rep->collectives++;
        r->rep->collective_bytes += bytes;
        r->rep->collective_ps += t_ps;
    }
    return BASE_OK;
}

static enum base_status walk(struct rt *r)
{
    const struct cc_plan *p = r->plan;
    uint32_t n = cc_plan_n_steps(p), pc = 0;
    uint64_t max = r->opt.max_steps ? r->opt.max_steps : 100000000u, done = 0;
    while (pc < n) {
        if (++done > max)
            return base_diag_set(r->diag, BASE_ERR_LIMIT, NULL, 0, 0, "more than %llu steps run (an endless loop?)",
                                 (unsigned long long)max);
        const struct cc_step *s = cc_plan_step(p, pc);
        switch (s->kind) {
        case CC_STEP_KERNEL:
            TRY(launch(r, s->kernel));
            pc++;
            break;
        case CC_STEP_JUMP: pc = s->target; break;
        case CC_STEP_BRANCH: {
            int64_t v = 0;
            bool known;
            TRY(read_scalar(r, s, &v, &known));
            if (!known) {
                if (s->trip_count < 0)
                    return fail_at(r, s->op, BASE_ERR_UNSUPPORTED,
                                   "%s: the branch depends on computed values, which a timing-only run does not have "
                                   "(run without --timing-only)",
                                   s->op ? s->op->name : "branch");
                v = r->trips[pc] < s->trip_count;
                r->trips[pc] = v ? r->trips[pc] + 1 : 0;
            }
            pc = v ? pc + 1 : s->target;
            break;
        }
        case CC_STEP_SWITCH: {
            int64_t v = 0;
            bool known;
            TRY(read_scalar(r, s, &v, &known));
            if (!known)
                return fail_at(r, s->op, BASE_ERR_UNSUPPORTED,
                               "%s: the branch index is computed, which a timing-only run does not have (run without "
                               "--timing-only)",
                               s->op ? s->op->name : "case");
            if (v < 0 || v >= (int64_t)s->n_targets) v = (int64_t)s->n_targets - 1; /* the spec's default: the last */
            pc = s->targets[v];
            break;
        }
        case CC_STEP_CHECK:
            TRY(check_step(r, s));
            pc++;
            break;
        case CC_STEP_COLLECTIVE:
            TRY(collective_step(r, pc, s));
            pc++;
            break;
        default: return base_diag_set(r->diag, BASE_ERR_INTERNAL, NULL, 0, 0, "step %u: unknown kind", pc);
        }
    }
    if (r->rep) r->rep->steps = done;
    return BASE_OK;
}

enum base_status rt_run(const struct cc_plan *plan, struct sim *sim, struct base_tensor *const *inputs, int n_inputs,
                        const struct rt_options *opt, struct base_tensor **outputs, struct rt_report *report,
                        struct base_diag *diag)
{
    struct rt r;
    memset(&r, 0, sizeof r);
    r.plan = plan;
    r.chip = cc_plan_chip(plan);
    r.sim = sim;
    r.diag = diag;
    if (opt) r.opt = *opt;
    r.rep = report;
    r.n_cores = (uint32_t)cc_plan_n_cores(plan);
    int n_out = cc_plan_n_outputs(plan);
    for (int i = 0; outputs && i < n_out; i++) outputs[i] = NULL;
    if (report) memset(report, 0, sizeof *report);
    if (n_inputs != cc_plan_n_inputs(plan))
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "the program takes %d inputs, %d given",
                             cc_plan_n_inputs(plan), n_inputs);
    const struct sim_stats *s0 = sim_get_stats(sim);
    r.n_eng = s0->n_engines;
    enum base_status st = BASE_OK;
    r.progs = calloc(r.n_cores ? r.n_cores : 1, sizeof *r.progs);
    r.busy0 = calloc(r.n_eng + 1, sizeof *r.busy0);
    r.bytes0 = calloc(r.n_eng + 1, sizeof *r.bytes0);
    r.flops0 = calloc(r.n_eng + 1, sizeof *r.flops0);
    r.instr0 = calloc(r.n_eng + 1, sizeof *r.instr0);
    r.trips = calloc(cc_plan_n_steps(plan) + 1, sizeof *r.trips);
    r.coll_ps = malloc((cc_plan_n_steps(plan) + 1) * sizeof *r.coll_ps);
    for (uint32_t i = 0; r.coll_ps && i <= cc_plan_n_steps(plan); i++) r.coll_ps[i] = -1;
    if (report) {
        report->n_kernels = cc_plan_n_kernels(plan);
        report->kernels = calloc(report->n_kernels + 1, sizeof *report->kernels);
    }
    if (!r.progs || !r.busy0 || !r.bytes0 || !r.flops0 || !r.instr0 || !r.trips || !r.coll_ps ||
        (report && !report->kernels))
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (uint32_t c = 0; r.progs && c < r.n_cores; c++) isa_program_init(&r.progs[c]);
    /* inputs and constants into HBM */
    for (int i = 0; st == BASE_OK && i < n_inputs; i++) {
        uint32_t b = cc_plan_input_buffer(plan, i);
        const struct cc_buffer *bf = cc_plan_buffer(plan, b);
        const struct base_tensor *t = inputs ? inputs[i] : NULL;
        if (t) {
            bool same = t->dtype == bf->dtype && t->rank == bf->rank;
            for (int d = 0; same && d < t->rank; d++) same = t->dims[d] == bf->dims[d];
            if (!same) {
                char want[96], got[96];
                struct base_tensor hdr;
                memset(&hdr, 0, sizeof hdr);
                hdr.dtype = bf->dtype;
                hdr.rank = bf->rank;
                memcpy(hdr.dims, bf->dims, sizeof hdr.dims);
                base_tensor_type_str(&hdr, want, sizeof want);
                base_tensor_type_str(t, got, sizeof got);
                st = base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "input %d: the program takes tensor<%s>, got tensor<%s>",
                                   i, want, got);
                break;
            }
        } else if (!r.opt.timing_only) {
            st = base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "input %d: no value (only timing-only runs go without)", i);
            break;
        }
        st = write_buffer(&r, b, t);
    }
    for (uint32_t b = 0; st == BASE_OK && b < cc_plan_n_buffers(plan); b++) {
        const struct cc_buffer *bf = cc_plan_buffer(plan, b);
        if (bf->kind == CC_BUF_CONST) st = write_buffer(&r, b, bf->init);
    }
    if (st == BASE_OK) st = walk(&r);
    /* outputs */
    for (int i = 0; st == BASE_OK && outputs && !r.opt.timing_only && i < n_out; i++)
        st = read_buffer(&r, cc_plan_output_buffer(plan, i), &outputs[i]);
    if (st != BASE_OK && outputs)
        for (int i = 0; i < n_out; i++) {
            base_tensor_release(outputs[i]);
            outputs[i] = NULL;
        }
    if (report && report->kernels) {
        report->total_ps = sim_now_ps(sim);
        for (uint32_t k = 0; k < report->n_kernels; k++)
            if (report->kernels[k].launches) report->kernels[k].bound = bound_of(&report->kernels[k]);
    }
    free(r.progs);
    free(r.busy0);
    free(r.bytes0);
    free(r.flops0);
    free(r.instr0);
    free(r.trips);
    free(r.coll_ps);
    return st;
}

/* --------------------------------------------------------------- tolerances */

/* Relative precision of a float type: 2^-(mantissa bits). */
static double type_eps(enum base_dtype dt)
{
    const struct base_float_format *f = base_float_format(dt);
    return f ? ldexp(1.0, -f->man_bits) : 0;
}

/* The precision an f32 matmul runs at on the chip: bf16 products (1 pass),
 * about 16 bits (3 passes), f32 (6 passes, or a native fp32 array). */
static double f32_dot_eps(const struct sim_chip_desc *chip, enum isa_precision dflt, const struct graph_op *op)
{
    /* a DEFAULT op runs at the plan's default precision (--precision) */
    uint32_t passes = dflt == ISA_PREC_HIGHEST ? chip->fp32_passes_highest
                      : dflt == ISA_PREC_HIGH  ? chip->fp32_passes_high
                                               : chip->fp32_passes_default;
    const struct graph_attr *pc = graph_op_attr(op, "precision_config");
    if (pc && pc->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < pc->u.array.n; i++) {
            if (graph_attr_is_keyword(pc->u.array.items[i], "HIGHEST") && chip->fp32_passes_highest > passes)
                passes = chip->fp32_passes_highest;
            if (graph_attr_is_keyword(pc->u.array.items[i], "HIGH") && chip->fp32_passes_high > passes)
                passes = chip->fp32_passes_high;
        }
    if (chip->family == SIM_FAMILY_NEURON) return ldexp(1.0, -24); /* native fp32 */
    return passes <= 1 ? ldexp(1.0, -8) : passes <= 3 ? ldexp(1.0, -16) : ldexp(1.0, -24);
}

void rt_tolerance_for(const struct cc_plan *plan, const struct base_tensor *want, struct rt_tolerance *tol)
{
    memset(tol, 0, sizeof *tol);
    if (!base_dtype_is_float(want->dtype)) {
        tol->exact = true;
        return;
    }
    const struct sim_chip_desc *chip = cc_plan_chip(plan);
    double eps = type_eps(want->dtype), rtol = 4 * eps;
    /* matmuls: products at the chip's precision, sums in fp32 in another
     * order than the interpreter's: sqrt(K) rounding errors */
    double dot = 0, red = 0;
    for (uint32_t k = 0; k < cc_plan_n_kernels(plan); k++) {
        const struct graph_op *op = cc_plan_kernel_info(plan, k)->root;
        if (!op) continue;
        if ((op->kind == GRAPH_OP_DOT_GENERAL || op->kind == GRAPH_OP_DOT) && op->n_operands == 2) {
            const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
            const struct graph_type *lt = op->operands[0]->type;
            int64_t cd[BASE_MAX_RANK] = {lt->rank - 1}, K = 1;
            int nc = op->kind == GRAPH_OP_DOT ? 1
                                              : graph_attr_as_i64_list(dn ? graph_dict_get(dn, "lhs_contracting_dimensions") : NULL,
                                                                       cd, BASE_MAX_RANK);
            for (int i = 0; i < nc; i++)
                if (cd[i] >= 0 && cd[i] < lt->rank) K *= lt->dims[cd[i]];
            enum base_dtype a = lt->elem, b = op->operands[1]->type->elem;
            double e = a == BASE_DT_F32 || b == BASE_DT_F32 ? f32_dot_eps(chip, cc_plan_default_precision(plan), op) : 0;
            double t = 2 * sqrt((double)K) * (e + ldexp(1.0, -24));
            if (t > dot) dot = t;
        } else if (op->kind == GRAPH_OP_CONVOLUTION && op->n_operands == 2) {
            const struct graph_type *kt = op->operands[1]->type;
            double K = (double)base_shape_count(kt->rank, kt->dims);
            double e = kt->elem == BASE_DT_F32 ? f32_dot_eps(chip, cc_plan_default_precision(plan), op) : 0;
            double t = 2 * sqrt(K) * (e + ldexp(1.0, -24));
            if (t > dot) dot = t;
        } else if (op->kind == GRAPH_OP_REDUCE && op->n_operands >= 2) {
            /* sums below f32 round per chunk on chip, per step in the interpreter */
            const struct graph_type *xt = op->operands[0]->type;
            const struct graph_type *rt = op->results[0].type;
            if (base_dtype_is_float(xt->elem) && base_dtype_bits(xt->elem) < 32) {
                double R = (double)base_shape_count(xt->rank, xt->dims) / (double)base_shape_count(rt->rank, rt->dims);
                double t = 2 * sqrt(R) * type_eps(xt->elem);
                if (t > red) red = t;
            }
        }
    }
    rtol += dot + red;
    double mx = 0;
    for (int64_t i = 0; i < want->count; i++) {
        double v = fabs(base_elem_get_f64(want->dtype, want->data, (size_t)i));
        if (isfinite(v) && v > mx) mx = v;
    }
    tol->rtol = rtol;
    tol->atol = rtol * mx;
}

void rt_compare_output(const struct cc_plan *plan, const struct base_tensor *got, const struct base_tensor *want,
                       struct rt_compare *out)
{
    memset(out, 0, sizeof *out);
    out->worst = -1;
    bool same = got && want && got->dtype == want->dtype && got->rank == want->rank && got->count == want->count;
    for (int d = 0; same && d < got->rank; d++) same = got->dims[d] == want->dims[d];
    if (!same) return;
    rt_tolerance_for(plan, want, &out->tol);
    enum base_dtype dt = want->dtype;
    double worst = -1;
    for (int64_t i = 0; i < want->count; i++) {
        double ratio;
        double x = 0, y = 0;
        if (out->tol.exact) {
            bool eq = base_elem_get_bits(dt, got->data, (size_t)i) == base_elem_get_bits(dt, want->data, (size_t)i);
            ratio = eq ? 0 : INFINITY;
            if (!eq) {
                x = (double)base_elem_get_i64(dt, got->data, (size_t)i);
                y = (double)base_elem_get_i64(dt, want->data, (size_t)i);
            }
        } else {
            x = base_elem_get_f64(dt, got->data, (size_t)i);
            y = base_elem_get_f64(dt, want->data, (size_t)i);
            if (isnan(x) || isnan(y)) ratio = isnan(x) && isnan(y) ? 0 : INFINITY;
            else if (isinf(x) || isinf(y)) ratio = x == y ? 0 : INFINITY;
            else {
                double err = fabs(x - y), bound = out->tol.atol + out->tol.rtol * fabs(y);
                if (err > out->max_abs_err) out->max_abs_err = err;
                ratio = err == 0 ? 0 : bound > 0 ? err / bound : INFINITY;
            }
        }
        if (ratio > 1) out->n_bad++;
        if (ratio > worst) {
            worst = ratio;
            out->worst = i;
            out->got_at_worst = x;
            out->want_at_worst = y;
        }
    }
    out->worst_ratio = worst < 0 ? 0 : worst;
    out->passed = out->n_bad == 0;
}
