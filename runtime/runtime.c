/* rt_run: a plan's steps on a simulated chip (runtime.h). */
#include "runtime/runtime.h"
#include "dist/dist.h"
#include "interp/interp.h"

#include <math.h>
#include <pthread.h>
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
    free(r->colls);
    free(r->checks);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ run */

struct rt {
    const struct cc_plan *plan;
    const struct chip_desc *chip;
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
    struct coll_info *coll; /* per step: a collective's timing once computed */
    /* the collectives in flight, oldest first: they share the chip's links,
     * so each starts when the one before it is done (net_free_ps); kernels
     * that touch none of their buffers run meanwhile */
    struct pending_coll *pend;
    uint32_t n_pend, cap_pend;
    uint64_t net_free_ps;
    struct icn_topo topo_default; /* when opt.topo is NULL (built at the first collective) */
    bool have_topo_default;
    uint64_t launches;
    uint32_t pc;            /* next step */
    uint64_t steps_done;
    bool stop_at_collective; /* multi-chip runs: walk() returns at each COLLECTIVE step */
    uint32_t partition;      /* the chip's partition (stablehlo.partition_id); 0 in one-chip runs */
    bool split;              /* the partitions are spread over MPI ranks (rt_options.distributed) */
    /* host fallback (HOST steps): the interpreter evaluates the op; an SPMD
     * run's grid is shared by its chips, a one-chip run makes its own */
    struct interp_spmd_grid *grid;
    int grid_partition;
    bool own_grid;
    /* loop reuse (opt.loop_reuse): per step, a loop head's samples (lazily) */
    struct loop_reuse **reuse;
    /* interpreter.probe: the values each probe_id recorded, in order */
    struct rt_probe *probes;
    int n_probes;
};

struct rt_probe {
    const char *id; /* the op's probe_id (the module's string) */
    size_t id_len;
    int n;
    struct base_tensor **values;
};

/* What the interconnect model said about a collective step (the same every
 * time the step runs: the same bytes over the same links). */
struct coll_info {
    bool known;
    uint64_t ps;
    double bytes; /* per chip */
    enum icn_alg alg;
    uint32_t group_size, n_groups;
    double link_util_mean, link_util_max;
    double *link_bytes; /* per link of the topology (only with opt.on_collective) */
    const struct icn_topo *topo;
};

struct pending_coll {
    uint32_t step;
    uint64_t done_ps;
    int64_t record; /* its index in rep->colls, or -1 */
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
        if (!r->opt.timing_only && bf->kind == CC_BUF_CONST)
            return base_diag_set(r->diag, BASE_ERR_INVALID, NULL, 0, 0,
                                 "a constant of the program is elided (dense_resource<__elided__>) and has no value: "
                                 "run it timing-only, or fill it with random values (--random-inputs)");
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
        isa_program_reset(&r->progs[c]); /* the last launch's buffers, reused */
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

static struct rt_probe *probe_record(struct rt *r, const struct graph_attr *id, bool create);

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
    struct interp_check_result res;
    memset(&res, 0, sizeof res);
    if (st == BASE_OK && s->op->kind == GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ) { /* against a probe's recording */
        const struct rt_probe *pr = probe_record(r, graph_op_attr(s->op, "probe_id"), false);
        int64_t iter = 0;
        graph_attr_as_i64(graph_op_attr(s->op, "iter"), &iter);
        const struct base_tensor *rec = pr && iter >= 0 && iter < pr->n ? pr->values[iter] : NULL;
        st = interp_serialized_check_eval(s->op, t[0], rec, &res, r->diag);
    } else if (st == BASE_OK) {
        st = interp_check_eval(s->op, t, (int)s->n_check_buffers, &res, r->diag);
    }
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
    struct interp_check_result *nc = realloc(rp->checks, (size_t)(rp->n_checks + 1) * sizeof *nc);
    if (!nc) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rp->checks = nc;
    rp->checks[rp->n_checks++] = res;
    if (!res.passed) rp->n_checks_failed++;
    return BASE_OK;
}

/* The values probe `id` recorded (create: a new, empty record if none). */
static struct rt_probe *probe_record(struct rt *r, const struct graph_attr *id, bool create)
{
    if (!id || id->kind != GRAPH_ATTR_STRING) return NULL;
    for (int i = 0; i < r->n_probes; i++)
        if (r->probes[i].id_len == id->u.str.len && !memcmp(r->probes[i].id, id->u.str.s, id->u.str.len))
            return &r->probes[i];
    if (!create) return NULL;
    struct rt_probe *np = realloc(r->probes, (size_t)(r->n_probes + 1) * sizeof *np);
    if (!np) return NULL;
    r->probes = np;
    struct rt_probe *pr = &r->probes[r->n_probes++];
    memset(pr, 0, sizeof *pr);
    pr->id = id->u.str.s;
    pr->id_len = id->u.str.len;
    return pr;
}

/* interpreter.probe on the value t read back from the chip: recorded for
 * check.expect_serialized_eq and, with opt.probe_dir, written where the
 * interpreter writes it: <dir>/<id>_<iteration>.npy (partition p of a
 * multi-chip run: <dir>/p<p>_<id>_<iteration>.npy). */
static enum base_status probe_take(struct rt *r, const struct graph_op *op, struct base_tensor *t)
{
    const struct graph_attr *id = graph_op_attr(op, "probe_id");
    if (!id || id->kind != GRAPH_ATTR_STRING) return fail_at(r, op, BASE_ERR_INVALID, "%s: probe_id missing", op->name);
    struct rt_probe *pr = probe_record(r, id, true);
    struct base_tensor **nv = pr ? realloc(pr->values, (size_t)(pr->n + 1) * sizeof *nv) : NULL;
    if (!nv) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    pr->values = nv;
    pr->values[pr->n++] = base_tensor_retain(t);
    if (!r->opt.probe_dir) return BASE_OK;
    char path[1024], proc[32] = "";
    if (cc_plan_num_partitions(r->plan) > 1) snprintf(proc, sizeof proc, "p%u_", r->partition);
    snprintf(path, sizeof path, "%s/%s%.*s_%d.npy", r->opt.probe_dir, proc, (int)id->u.str.len, id->u.str.s, pr->n - 1);
    struct base_diag d;
    base_diag_clear(&d);
    if (base_npy_write(path, t, &d) != BASE_OK)
        return fail_at(r, op, BASE_ERR_IO, "%s: cannot write probe %s: %s", op->name, path, d.msg);
    return BASE_OK;
}

/* Ops that move values between the chip and the host by nature (a probe,
 * infeed, outfeed, send, recv): no host computation is charged for them. */
static bool host_io(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_INTERP_PROBE:
    case GRAPH_OP_SEND:
    case GRAPH_OP_RECV:
    case GRAPH_OP_INFEED:
    case GRAPH_OP_OUTFEED: return true;
    default: return false;
    }
}

/* An op the chip cannot run, run on the host: its operands cross the host
 * link, the golden interpreter computes it, its results come back; the chip
 * waits meanwhile (docs/compiler.md "Host fallback").  The host's own I/O
 * (a probe, infeed, outfeed, send, recv) runs the same way, without the
 * computation: tokens (CC_NO_BUFFER) hold nothing and move nothing. */
static enum base_status host_step(struct rt *r, const struct cc_step *s)
{
    const struct cc_plan *p = r->plan;
    const struct chip_host_desc *h = &r->chip->host;
    double bytes = 0, elems = 0;
    for (uint32_t i = 0; i < s->n_in + s->n_out; i++) {
        if (s->io_buffers[i] == CC_NO_BUFFER) continue;
        const struct cc_buffer *bf = cc_plan_buffer(p, s->io_buffers[i]);
        bytes += (double)bf->bytes;
        if (i >= s->n_in) elems += (double)base_shape_count(bf->rank, bf->dims);
    }
    uint64_t ps = h->dispatch_overhead_ps;
    if (h->pcie_bytes_per_ns > 0) ps += event_bytes_to_ps(bytes, h->pcie_bytes_per_ns);
    if (h->fallback_elems_per_ns > 0 && !host_io(s->op)) ps += event_bytes_to_ps(elems, h->fallback_elems_per_ns);
    enum base_status st = BASE_OK;
    /* the grid's channels join partitions within one process only */
    if (r->split && (s->op->kind == GRAPH_OP_SEND || s->op->kind == GRAPH_OP_RECV))
        return fail_at(r, s->op, BASE_ERR_UNSUPPORTED,
                       "%s: a send or recv run on the host cannot cross MPI ranks (run it in one process)",
                       s->op->name);
    if (r->opt.timing_only) {
        for (uint32_t i = 0; i < s->n_out && st == BASE_OK; i++)
            if (s->io_buffers[s->n_in + i] != CC_NO_BUFFER) st = write_buffer(r, s->io_buffers[s->n_in + i], NULL);
    } else {
        if (!r->grid) {
            st = interp_spmd_grid_create(cc_plan_module(p), 1, &r->grid, r->diag);
            r->own_grid = st == BASE_OK;
            r->grid_partition = 0;
        }
        struct base_tensor **t = calloc((size_t)(s->n_in + s->n_out) + 1, sizeof *t);
        if (!t && st == BASE_OK) st = base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        for (uint32_t i = 0; i < s->n_in && st == BASE_OK; i++) /* a token stays NULL */
            if (s->io_buffers[i] != CC_NO_BUFFER) st = read_buffer(r, s->io_buffers[i], &t[i]);
        if (st == BASE_OK && s->op->kind == GRAPH_OP_INTERP_PROBE) /* its result is its operand, on chip */
            st = s->n_in == 1 && t[0] ? probe_take(r, s->op, t[0])
                                      : fail_at(r, s->op, BASE_ERR_INVALID, "%s: one tensor operand", s->op->name);
        else if (st == BASE_OK)
            st = interp_spmd_grid_eval_local(r->grid, s->op, r->grid_partition, t, t + s->n_in, r->diag);
        for (uint32_t i = 0; i < s->n_out && st == BASE_OK; i++)
            if (s->io_buffers[s->n_in + i] != CC_NO_BUFFER)
                st = write_buffer(r, s->io_buffers[s->n_in + i], t[s->n_in + i]);
        for (uint32_t i = 0; t && i < s->n_in + s->n_out; i++) base_tensor_release(t[i]);
        free(t);
    }
    if (st == BASE_OK) st = sim_advance(r->sim, ps, r->diag);
    if (st != BASE_OK || !r->rep) return st;
    r->rep->host_ops++;
    r->rep->host_bytes += bytes;
    r->rep->host_ps += ps;
    return BASE_OK;
}

void rt_default_shape(const struct chip_desc *chip, uint32_t n, char *buf, size_t cap)
{
    uint32_t a = 1, b = 1;
    switch (chip->links.topology) {
    case CHIP_TOPO_TORUS2D:
        for (uint32_t i = 1; i * i <= n; i++)
            if (n % i == 0) a = i;
        snprintf(buf, cap, "%ux%u", a, n / a);
        return;
    case CHIP_TOPO_TORUS3D:
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
        /* partitions on ranks: ranks_per_chip of them per chip when the sims
         * run one rank's share of a chip (chip_rank_view), else one per chip */
        struct chip_desc c = *r->chip;
        if (!c.rank_view) c.ranks_per_chip = 1;
        uint32_t rpc = c.ranks_per_chip ? c.ranks_per_chip : 1;
        char shape[64];
        rt_default_shape(&c, (n_parts + rpc - 1) / rpc, shape, sizeof shape);
        if (icn_topo_from_chip(&c, shape, ICN_WRAP_AUTO, NULL, &r->topo_default, r->diag) != BASE_OK)
            return fail_at(r, op, BASE_ERR_INVALID, "%s: no topology of %u %s chips: %s", op->name,
                           (n_parts + rpc - 1) / rpc, r->chip->name, r->diag->msg);
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

/* Bytes per chip of collective step s, as icn_coll_desc defines them: the
 * operands', or all_gather's gathered results'. */
static double coll_bytes(const struct rt *r, const struct cc_step *s, enum icn_coll kind)
{
    double bytes = 0;
    uint32_t first = kind == ICN_COLL_ALL_GATHER ? s->n_in : 0;
    uint32_t count = kind == ICN_COLL_ALL_GATHER ? s->n_out : s->n_in;
    for (uint32_t i = first; i < first + count; i++) bytes += (double)cc_plan_buffer(r->plan, s->io_buffers[i])->bytes;
    return bytes;
}

/* The same kind of collective over the same groups (or pairs). */
static bool same_attr_elements(const struct graph_attr *a, const struct graph_attr *b)
{
    if (!a || !b) return a == b;
    if (a->kind != GRAPH_ATTR_ELEMENTS || b->kind != GRAPH_ATTR_ELEMENTS) return false;
    const struct base_tensor *x = a->u.elements.value, *y = b->u.elements.value;
    return x->dtype == y->dtype && x->count == y->count && x->rank == y->rank &&
           !memcmp(x->dims, y->dims, (size_t)x->rank * sizeof x->dims[0]) &&
           !memcmp(x->data, y->data, (size_t)x->count * base_dtype_size(x->dtype));
}

static bool same_collective(const struct graph_op *a, const struct graph_op *b)
{
    return a->kind == b->kind && same_attr_elements(graph_op_attr(a, "replica_groups"), graph_op_attr(b, "replica_groups")) &&
           same_attr_elements(graph_op_attr(a, "source_target_pairs"), graph_op_attr(b, "source_target_pairs"));
}

static enum base_status coll_model(struct rt *r, const struct graph_op *op, enum icn_coll kind,
                                   const struct icn_topo *topo, uint32_t n_parts, uint32_t *ids, uint32_t cap,
                                   struct coll_info *ci);

/* The timing of collective step pc on opt.topo: the interconnect model's for
 * the collective's algorithm, partitions on chips 0..n-1 (computed once). */
static enum base_status coll_time(struct rt *r, uint32_t pc, const struct cc_step *s, const struct coll_info **out)
{
    const struct graph_op *op = s->op;
    struct coll_info *ci = &r->coll[pc];
    *out = ci;
    if (ci->known) return BASE_OK;
    uint32_t n_parts = (uint32_t)cc_plan_num_partitions(r->plan);
    enum icn_coll kind;
    if (!icn_coll_of_op(op->kind, &kind)) return fail_at(r, op, BASE_ERR_INTERNAL, "%s: not a collective", op->name);
    ci->bytes = coll_bytes(r, s, kind);
    /* another step that moves as many bytes over the same groups takes as
     * long (its own copy of the per-link bytes: each step frees its own) */
    for (uint32_t q = 0; q < cc_plan_n_steps(r->plan); q++)
        if (q != pc && r->coll[q].known && same_collective(cc_plan_step(r->plan, q)->op, op) &&
            r->coll[q].bytes == ci->bytes) {
            *ci = r->coll[q];
            if (ci->link_bytes) {
                size_t n = ci->topo->n_links + 1;
                ci->link_bytes = malloc(n * sizeof *ci->link_bytes);
                if (!ci->link_bytes) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
                memcpy(ci->link_bytes, r->coll[q].link_bytes, n * sizeof *ci->link_bytes);
            }
            return BASE_OK;
        }
    const struct icn_topo *topo = NULL;
    TRY(topology(r, op, n_parts, &topo));
    if (topo->n_ranks < n_parts)
        return fail_at(r, op, BASE_ERR_INVALID, "%s: %u partitions on a topology of %u ranks (%s)", op->name, n_parts,
                       topo->n_ranks, topo->desc);
    ci->topo = topo;
    const struct graph_attr *pa = graph_op_attr(op, "source_target_pairs");
    const struct graph_attr *ga = graph_op_attr(op, "replica_groups");
    int64_t n_ids = n_parts;
    if (pa && pa->kind == GRAPH_ATTR_ELEMENTS && pa->u.elements.value->count > n_ids) n_ids = pa->u.elements.value->count;
    if (ga && ga->kind == GRAPH_ATTR_ELEMENTS && ga->u.elements.value->count > n_ids) n_ids = ga->u.elements.value->count;
    uint32_t *ids = calloc((size_t)n_ids + 1, sizeof *ids);
    if (!ids) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    enum base_status st = coll_model(r, op, kind, topo, n_parts, ids, (uint32_t)n_ids, ci);
    free(ids);
    return st;
}

/* coll_time's model run, the group ids in ids[cap]. */
static enum base_status coll_model(struct rt *r, const struct graph_op *op, enum icn_coll kind,
                                   const struct icn_topo *topo, uint32_t n_parts, uint32_t *ids, uint32_t cap,
                                   struct coll_info *ci)
{
    uint32_t n_groups = 0, size = 0;
    struct icn_coll_desc d;
    memset(&d, 0, sizeof d);
    d.coll = kind;
    d.alg = ICN_ALG_AUTO;
    d.bytes = ci->bytes;
    d.representative = true;
    if (kind == ICN_COLL_COLLECTIVE_PERMUTE) {
        const struct graph_attr *a = graph_op_attr(op, "source_target_pairs");
        const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
        if (!t || t->count > cap) return fail_at(r, op, BASE_ERR_INVALID, "%s: no source_target_pairs", op->name);
        for (int64_t i = 0; i < t->count; i++) ids[i] = (uint32_t)base_elem_get_i64(t->dtype, t->data, (size_t)i);
        d.pairs = ids;
        d.n_pairs = (uint32_t)(t->count / 2);
        size = 2;
        n_groups = d.n_pairs;
    } else {
        TRY(coll_groups(r, op, n_parts, ids, cap, &n_groups, &size));
        d.groups = ids;
        d.n_groups = n_groups;
        d.group_size = size;
    }
    ci->group_size = size;
    ci->n_groups = n_groups;
    if (size > 1 || d.n_pairs > 0) {
        struct icn_plan ip;
        memset(&ip, 0, sizeof ip);
        enum base_status st = icn_plan_build(topo, &d, &ip, r->diag);
        struct icn_run_result res;
        const struct icn_plan *pl = &ip;
        if (st == BASE_OK && r->opt.on_collective) {
            ci->link_bytes = calloc(topo->n_links + 1, sizeof *ci->link_bytes);
            if (!ci->link_bytes) st = base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        if (st == BASE_OK) st = icn_run(topo, &pl, 1, &res, ci->link_bytes);
        ci->alg = ip.alg;
        icn_plan_deinit(&ip);
        if (st != BASE_OK)
            return fail_at(r, op, st, "%s: the interconnect model failed: %s", op->name,
                           r->diag->msg[0] ? r->diag->msg
                           : st == BASE_ERR_LIMIT ? "the collective would end past 2^62 ps (too many bytes for the links)"
                                                  : base_status_str(st));
        ci->ps = res.time_ps;
        ci->link_util_mean = res.link_util_mean;
        ci->link_util_max = res.link_util_max;
    }
    ci->known = true;
    return BASE_OK;
}

/* Waits until pending collective i is done, and with it the older ones
 * (they finish first: one after another on the links).  Each is charged
 * the part of the wait it causes: the chip's exposed communication time. */
static enum base_status wait_through(struct rt *r, uint32_t i)
{
    uint64_t t = sim_now_ps(r->sim), t0 = t;
    for (uint32_t j = 0; j <= i; j++) {
        uint64_t exposed = r->pend[j].done_ps > t ? r->pend[j].done_ps - t : 0;
        t += exposed;
        if (r->rep) {
            r->rep->collective_exposed_ps += exposed;
            if (r->pend[j].record >= 0) r->rep->colls[r->pend[j].record].exposed_ps = exposed;
        }
    }
    memmove(r->pend, r->pend + i + 1, (r->n_pend - i - 1) * sizeof *r->pend);
    r->n_pend -= i + 1;
    return t > t0 ? sim_advance(r->sim, t - t0, r->diag) : BASE_OK;
}

static enum base_status wait_all(struct rt *r) { return r->n_pend ? wait_through(r, r->n_pend - 1) : BASE_OK; }

static bool ranges_overlap(const struct cc_buffer *a, const struct cc_buffer *b)
{
    return a->addr < b->addr + b->bytes && b->addr < a->addr + a->bytes;
}

/* Whether buffer b shares memory with collective step cs's buffers. */
static bool touches_coll(const struct cc_plan *p, const struct cc_buffer *b, const struct cc_step *cs)
{
    for (uint32_t c = 0; c < cs->n_in + cs->n_out; c++)
        if (ranges_overlap(b, cc_plan_buffer(p, cs->io_buffers[c]))) return true;
    return false;
}

/* The newest pending collective whose memory step s (a kernel or a
 * collective) reads or writes, or -1. */
static int64_t newest_touched(const struct rt *r, const struct cc_step *s)
{
    const struct cc_plan *p = r->plan;
    for (int64_t j = (int64_t)r->n_pend - 1; j >= 0; j--) {
        const struct cc_step *cs = cc_plan_step(p, r->pend[j].step);
        if (s->kind == CC_STEP_COLLECTIVE) {
            for (uint32_t c = 0; c < s->n_in + s->n_out; c++)
                if (touches_coll(p, cc_plan_buffer(p, s->io_buffers[c]), cs)) return j;
            continue;
        }
        uint32_t k = s->kernel;
        for (int w = 0; w < 2; w++)
            for (uint32_t i = 0; i < cc_kernel_n_operands(p, k, w); i++)
                if (touches_coll(p, cc_plan_buffer(p, cc_kernel_operand_buffer(p, k, w, i)), cs)) return j;
        for (uint32_t i = 0; i < cc_kernel_n_dyn(p, k); i++)
            if (touches_coll(p, cc_plan_buffer(p, cc_kernel_dyn_buffer(p, k, i)), cs)) return j;
    }
    return -1;
}

/* Before step s: waits for the collectives it needs (all of them before a
 * branch, a check or a switch: the host reads memory there). */
static enum base_status wait_for_step(struct rt *r, const struct cc_step *s)
{
    if (!r->n_pend || s->kind == CC_STEP_JUMP) return BASE_OK;
    if (s->kind != CC_STEP_KERNEL && s->kind != CC_STEP_COLLECTIVE) return wait_all(r);
    int64_t j = newest_touched(r, s);
    return j >= 0 ? wait_through(r, (uint32_t)j) : BASE_OK;
}

/* Starts collective step pc, ready at ready_ps, on r's chip: on the links
 * once the collectives before it are done, in flight for its time;
 * recorded in the report's collective table. */
static enum base_status start_collective(struct rt *r, uint32_t pc, const struct coll_info *ci, uint64_t ready_ps)
{
    const struct cc_step *s = cc_plan_step(r->plan, pc);
    uint64_t start_ps = ready_ps > r->net_free_ps ? ready_ps : r->net_free_ps;
    r->net_free_ps = start_ps + ci->ps;
    if (r->n_pend == r->cap_pend) {
        uint32_t cap = r->cap_pend ? 2 * r->cap_pend : 8;
        struct pending_coll *np = realloc(r->pend, cap * sizeof *np);
        if (!np) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        r->pend = np;
        r->cap_pend = cap;
    }
    struct pending_coll *pc_rec = &r->pend[r->n_pend++];
    pc_rec->step = pc;
    pc_rec->done_ps = start_ps + ci->ps;
    pc_rec->record = -1;
    struct rt_collective c;
    memset(&c, 0, sizeof c);
    c.op = s->op;
    c.algorithm = ci->ps > 0 ? icn_alg_name(ci->alg) : "none";
    c.group_size = ci->group_size;
    c.n_groups = ci->n_groups;
    c.bytes = ci->bytes;
    c.start_ps = start_ps;
    c.time_ps = ci->ps;
    c.exposed_ps = ci->ps;
    enum icn_coll kind = ICN_COLL_ALL_REDUCE;
    icn_coll_of_op(s->op->kind, &kind);
    c.busbw_gbps = ci->ps > 0 ? ci->bytes / ((double)ci->ps * 1e-3) * icn_busbw_factor(kind, ci->group_size) : 0;
    c.link_util_mean = ci->link_util_mean;
    c.link_util_max = ci->link_util_max;
    if (r->opt.on_collective) r->opt.on_collective(r->opt.collective_user, &c, ci->topo, ci->link_bytes);
    if (!r->rep) return BASE_OK;
    struct rt_report *rp = r->rep;
    rp->collectives++;
    rp->collective_bytes += ci->bytes;
    rp->collective_ps += ci->ps;
    if ((rp->n_colls & (rp->n_colls - 1)) == 0) { /* grow at powers of two */
        struct rt_collective *nc = realloc(rp->colls, (size_t)(rp->n_colls ? 2 * rp->n_colls : 1) * sizeof *nc);
        if (!nc) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        rp->colls = nc;
    }
    pc_rec->record = rp->n_colls;
    rp->colls[rp->n_colls++] = c;
    return BASE_OK;
}

/* A collective of an SPMD plan run as one representative partition: no
 * values (every partition's would be needed); it starts now and runs while
 * the kernels that do not need it do (docs/compiler.md "SPMD plans"). */
static enum base_status collective_step(struct rt *r, uint32_t pc, const struct cc_step *s)
{
    if (!r->opt.timing_only)
        return fail_at(r, s->op, BASE_ERR_UNSUPPORTED,
                       "%s: a collective needs every partition's values, and this run simulates one partition: run "
                       "it on every partition's chip (rt_run_spmd) or --timing-only",
                       s->op->name);
    const struct coll_info *ci = NULL;
    TRY(coll_time(r, pc, s, &ci));
    TRY(start_collective(r, pc, ci, sim_now_ps(r->sim)));
    for (uint32_t i = 0; i < s->n_out; i++) TRY(write_buffer(r, s->io_buffers[s->n_in + i], NULL));
    return BASE_OK;
}

/* ------------------------------------------------------------ loop reuse */

/* What a run looked like at one arrival at a loop's BRANCH: the counters
 * (the simulator's, the runtime's, the report's) and the state that carries
 * into the next trip, relative to the time. */
struct loop_snap {
    struct sim_mark *sim;
    uint64_t now, steps_done, launches;
    struct rt_report tot;             /* the report's scalars (its arrays are not copied) */
    struct rt_kernel_stats *kernels;  /* the report's kernel rows (with a report) */
    uint32_t n_pend;
    struct pending_coll *pend;        /* done_ps: time left after now (0: done) */
    uint64_t net_free_rel;            /* links free after now (0: free) */
};

struct loop_reuse {
    uint64_t arrivals;                /* in this run of the loop */
    uint32_t cap_pend;
    struct loop_snap snap[3];         /* arrivals a-2, a-1, a at a % 3 */
};

static void loop_reuse_free(struct loop_reuse *lr)
{
    if (!lr) return;
    for (int i = 0; i < 3; i++) {
        sim_mark_destroy(lr->snap[i].sim);
        free(lr->snap[i].kernels);
        free(lr->snap[i].pend);
    }
    free(lr);
}

static enum base_status loop_snap_take(struct rt *r, struct loop_reuse *lr, struct loop_snap *sn)
{
    if (!sn->sim) TRY(sim_mark_create(r->sim, &sn->sim));
    else sim_mark_set(sn->sim, r->sim);
    uint32_t nk = r->rep ? r->rep->n_kernels : 0;
    if (nk && !sn->kernels && !(sn->kernels = malloc(nk * sizeof *sn->kernels))) return BASE_ERR_NOMEM;
    if (r->n_pend > lr->cap_pend) {
        for (int i = 0; i < 3; i++) {
            struct pending_coll *np = realloc(lr->snap[i].pend, r->n_pend * sizeof *np);
            if (!np) return BASE_ERR_NOMEM;
            lr->snap[i].pend = np;
        }
        lr->cap_pend = r->n_pend;
    }
    uint64_t now = sim_now_ps(r->sim);
    sn->now = now;
    sn->steps_done = r->steps_done;
    sn->launches = r->launches;
    if (r->rep) {
        sn->tot = *r->rep;
        memcpy(sn->kernels, r->rep->kernels, nk * sizeof *sn->kernels);
    }
    sn->n_pend = r->n_pend;
    for (uint32_t j = 0; j < r->n_pend; j++) {
        sn->pend[j] = r->pend[j];
        sn->pend[j].done_ps = r->pend[j].done_ps > now ? r->pend[j].done_ps - now : 0;
    }
    sn->net_free_rel = r->net_free_ps > now ? r->net_free_ps - now : 0;
    return BASE_OK;
}

/* Whether the trips a -> b and b -> c grew every figure alike and b and c
 * left the same state behind: then, the simulation being deterministic,
 * every later trip is c's again. */
static bool loop_periodic(const struct rt *r, const struct loop_snap *a, const struct loop_snap *b,
                          const struct loop_snap *c)
{
#define SAME(f) (b->f - a->f == c->f - b->f)
    if (!sim_marks_periodic(a->sim, b->sim, c->sim) || !SAME(now) || !SAME(steps_done) || !SAME(launches)) return false;
    if (b->n_pend != c->n_pend || b->net_free_rel != c->net_free_rel) return false;
    for (uint32_t j = 0; j < c->n_pend; j++)
        if (b->pend[j].step != c->pend[j].step || b->pend[j].done_ps != c->pend[j].done_ps) return false;
    if (!r->rep) return true;
    if (!SAME(tot.launches) || !SAME(tot.device_ps) || !SAME(tot.dispatch_ps) || !SAME(tot.collectives) ||
        !SAME(tot.collective_bytes) || !SAME(tot.collective_ps) || !SAME(tot.collective_exposed_ps) ||
        !SAME(tot.n_colls) || !SAME(tot.host_ops) || !SAME(tot.host_bytes) || !SAME(tot.host_ps) ||
        !SAME(tot.loop_trips_simulated) || !SAME(tot.loop_trips_reused) || !SAME(tot.n_checks))
        return false;
#undef SAME
    for (uint32_t k = 0; k < r->rep->n_kernels; k++) {
        const struct rt_kernel_stats *x = &a->kernels[k], *y = &b->kernels[k], *z = &c->kernels[k];
#define SAME(f) (y->f - x->f == z->f - y->f)
        if (!SAME(launches) || !SAME(time_ps) || !SAME(dispatch_ps) || !SAME(flops) || !SAME(model_flops) ||
            !SAME(hbm_bytes) || !SAME(compute_busy_ps) || !SAME(dma_busy_ps) || !SAME(hbm_ps) || !SAME(instructions))
            return false;
        for (int e = 0; e < ISA_ENGINE_KIND_COUNT; e++)
            if (!SAME(busy_ps[e])) return false;
#undef SAME
        if (z->launches != y->launches && z->last_end_ps - b->now != y->last_end_ps - a->now) return false;
    }
    /* the collectives of the two trips: the same runs at the same offsets */
    uint32_t n = c->tot.n_colls - b->tot.n_colls;
    for (uint32_t i = 0; i < n; i++) {
        const struct rt_collective *p = &r->rep->colls[a->tot.n_colls + i], *q = &r->rep->colls[b->tot.n_colls + i];
        if (p->op != q->op || p->bytes != q->bytes || p->time_ps != q->time_ps || p->start_ps - a->now != q->start_ps - b->now ||
            p->group_size != q->group_size || p->n_groups != q->n_groups)
            return false;
    }
    /* what is still in flight was started in the last trip, and b's in its own */
    for (uint32_t j = 0; j < c->n_pend; j++) {
        if (c->pend[j].record < 0 || b->pend[j].record < 0) {
            if (c->pend[j].record != b->pend[j].record) return false;
            continue;
        }
        if ((uint64_t)c->pend[j].record < c->tot.n_colls - n || (uint64_t)b->pend[j].record < b->tot.n_colls - n ||
            c->pend[j].record - (int64_t)b->tot.n_colls != b->pend[j].record - (int64_t)a->tot.n_colls)
            return false;
    }
    return true;
}

/* Charges `times` more trips like the one from b to c (now): the simulator's
 * counters and clock, the runtime's, the report's, each collective run. */
static enum base_status loop_charge(struct rt *r, const struct loop_snap *a, const struct loop_snap *b,
                                    const struct loop_snap *c, uint64_t times)
{
    uint64_t period = c->now - b->now, shift = period * times;
    uint64_t steps = c->steps_done - b->steps_done;
    uint64_t max = r->opt.max_steps ? r->opt.max_steps : 100000000u;
    if (steps && times > (max - r->steps_done) / steps)
        return base_diag_set(r->diag, BASE_ERR_LIMIT, NULL, 0, 0, "more than %llu steps run (an endless loop?)",
                             (unsigned long long)max);
    TRY(sim_repeat(r->sim, b->sim, times, r->diag));
    r->steps_done += times * steps;
    r->launches += times * (c->launches - b->launches);
    for (uint32_t j = 0; j < r->n_pend; j++) r->pend[j].done_ps += shift;
    r->net_free_ps += shift;
    struct rt_report *rp = r->rep;
    if (!rp) return BASE_OK;
#define ADD(f) (rp->f += times * (c->tot.f - b->tot.f))
    ADD(launches);
    ADD(device_ps);
    ADD(dispatch_ps);
    ADD(collectives);
    ADD(collective_ps);
    ADD(collective_exposed_ps);
    ADD(host_ops);
    ADD(host_ps);
#undef ADD
    /* (the loop counts: a charged trip counts once, whatever loops it holds) */
    rp->collective_bytes += (double)times * (c->tot.collective_bytes - b->tot.collective_bytes);
    rp->host_bytes += (double)times * (c->tot.host_bytes - b->tot.host_bytes);
    for (uint32_t k = 0; k < rp->n_kernels; k++) {
        struct rt_kernel_stats *o = &rp->kernels[k];
        const struct rt_kernel_stats *y = &b->kernels[k];
        if (o->launches == y->launches) continue;
#define ADD(f) (o->f += times * (o->f - y->f))
        for (int e = 0; e < ISA_ENGINE_KIND_COUNT; e++) ADD(busy_ps[e]);
        ADD(time_ps);
        ADD(dispatch_ps);
        ADD(flops);
        ADD(model_flops);
        ADD(hbm_bytes);
        ADD(compute_busy_ps);
        ADD(dma_busy_ps);
        ADD(hbm_ps);
        ADD(instructions);
        ADD(launches);
#undef ADD
        o->last_end_ps += shift;
    }
    /* each collective run of the skipped trips: a copy of the last trip's,
     * later by a period per trip; the exposure a run of the last trip will
     * get is the one its twin of the trip before got */
    uint32_t first = b->tot.n_colls, n = c->tot.n_colls - first;
    if (!n) return BASE_OK;
    for (uint32_t i = 0; i < n; i++) rp->colls[first + i].exposed_ps = rp->colls[a->tot.n_colls + i].exposed_ps;
    uint64_t total = (uint64_t)rp->n_colls + times * n, cap = 1;
    if (total > UINT32_MAX) return base_diag_set(r->diag, BASE_ERR_LIMIT, NULL, 0, 0, "more than 2^32 collective runs");
    while (cap < total) cap *= 2;
    struct rt_collective *nc = realloc(rp->colls, cap * sizeof *nc);
    if (!nc) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rp->colls = nc;
    for (uint64_t t = 1; t <= times; t++)
        for (uint32_t i = 0; i < n; i++) {
            struct rt_collective *d = &nc[rp->n_colls++];
            *d = nc[first + i];
            d->start_ps += t * period;
        }
    /* the runs still in flight are the last copies */
    for (uint32_t j = 0; j < r->n_pend; j++)
        if (r->pend[j].record >= (int64_t)first) r->pend[j].record += (int64_t)(times * n);
    return BASE_OK;
}

/* At the BRANCH of a static-count while loop (timing-only, opt.loop_reuse),
 * about to start trip trips[pc]: records the run, and once the trips repeat
 * charges the rest of them and sets trips[pc] to the trip count (the branch
 * then leaves the loop). */
static enum base_status loop_arrive(struct rt *r, uint32_t pc, const struct cc_step *s)
{
    struct loop_reuse *lr = r->reuse[pc];
    if (!lr && !(lr = r->reuse[pc] = calloc(1, sizeof *lr)))
        return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    uint64_t a = (uint64_t)r->trips[pc];
    if (a == 0) lr->arrivals = 0;
    lr->arrivals++;
    uint32_t sample = r->opt.loop_sample ? r->opt.loop_sample : 2;
    if (sample < 2) sample = 2;
    if (a >= (uint64_t)s->trip_count) return BASE_OK; /* the loop ends here */
    struct loop_snap *c = &lr->snap[a % 3];
    if (loop_snap_take(r, lr, c) != BASE_OK) return base_diag_set(r->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (a < sample || lr->arrivals < 3) return BASE_OK;
    const struct loop_snap *x = &lr->snap[(a - 2) % 3], *y = &lr->snap[(a - 1) % 3];
    if (!loop_periodic(r, x, y, c)) return BASE_OK;
    uint64_t rest = (uint64_t)s->trip_count - a;
    TRY(loop_charge(r, x, y, c, rest));
    if (r->rep) r->rep->loop_trips_reused += rest;
    r->trips[pc] = s->trip_count;
    return BASE_OK;
}

/* Runs steps from r->pc to the end of the plan or, with
 * stop_at_collective, to the next COLLECTIVE step (r->pc then names it). */
static enum base_status walk(struct rt *r)
{
    const struct cc_plan *p = r->plan;
    uint32_t n = cc_plan_n_steps(p), pc = r->pc;
    uint64_t max = r->opt.max_steps ? r->opt.max_steps : base_limit(r->opt.limits, BASE_LIMIT_HOST_STEPS);
    while (pc < n) {
        const struct cc_step *s = cc_plan_step(p, pc);
        TRY(wait_for_step(r, s));
        if (s->kind == CC_STEP_COLLECTIVE && r->stop_at_collective) break;
        if (++r->steps_done > max)
            return base_diag_set(r->diag, BASE_ERR_LIMIT, NULL, 0, 0,
                                 "more than %llu host steps run (an endless loop? the host-steps limit: raise it "
                                 "with --limit host-steps=N)",
                                 (unsigned long long)max);
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
                if (r->opt.loop_reuse) TRY(loop_arrive(r, pc, s));
                v = r->trips[pc] < s->trip_count;
                r->trips[pc] = v ? r->trips[pc] + 1 : 0;
                if (v && r->rep) r->rep->loop_trips_simulated++;
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
        case CC_STEP_HOST:
            TRY(host_step(r, s));
            pc++;
            break;
        default: return base_diag_set(r->diag, BASE_ERR_INTERNAL, NULL, 0, 0, "step %u: unknown kind", pc);
        }
    }
    r->pc = pc;
    if (pc >= n) TRY(wait_all(r)); /* the program ends when its last collective does */
    if (r->rep) r->rep->steps = r->steps_done;
    return BASE_OK;
}

/* Sets r up for plan on sim, the chip of `partition`, and puts the inputs
 * (entries may be NULL in timing-only runs), constants and ids in HBM.  rt_deinit frees what it made,
 * also after a failure. */
static enum base_status rt_init(struct rt *r, const struct cc_plan *plan, struct sim *sim, uint32_t partition,
                                struct base_tensor *const *inputs, int n_inputs, const struct rt_options *opt,
                                struct rt_report *report, struct base_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->plan = plan;
    r->partition = partition;
    r->chip = cc_plan_chip(plan);
    r->sim = sim;
    r->diag = diag;
    if (opt) r->opt = *opt;
    r->rep = report;
    r->n_cores = (uint32_t)cc_plan_n_cores(plan);
    if (report) memset(report, 0, sizeof *report);
    if (n_inputs != cc_plan_n_inputs(plan))
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "the program takes %d inputs, %d given",
                             cc_plan_n_inputs(plan), n_inputs);
    r->n_eng = sim_get_stats(sim)->n_engines;
    uint32_t n_steps = cc_plan_n_steps(plan);
    r->progs = calloc(r->n_cores ? r->n_cores : 1, sizeof *r->progs);
    r->busy0 = calloc(r->n_eng + 1, sizeof *r->busy0);
    r->bytes0 = calloc(r->n_eng + 1, sizeof *r->bytes0);
    r->flops0 = calloc(r->n_eng + 1, sizeof *r->flops0);
    r->instr0 = calloc(r->n_eng + 1, sizeof *r->instr0);
    r->trips = calloc(n_steps + 1, sizeof *r->trips);
    r->coll = calloc(n_steps + 1, sizeof *r->coll);
    if (r->opt.loop_reuse && r->opt.timing_only && !(r->reuse = calloc(n_steps + 1, sizeof *r->reuse)))
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (!r->reuse) r->opt.loop_reuse = false;
    if (report) {
        report->n_kernels = cc_plan_n_kernels(plan);
        report->kernels = calloc(report->n_kernels + 1, sizeof *report->kernels);
    }
    if (!r->progs || !r->busy0 || !r->bytes0 || !r->flops0 || !r->instr0 || !r->trips || !r->coll ||
        (report && !report->kernels))
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (uint32_t c = 0; c < r->n_cores; c++) isa_program_init(&r->progs[c]);
    for (int i = 0; i < n_inputs; i++) {
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
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                     "input %d: the program takes tensor<%s>, got tensor<%s>", i, want, got);
            }
        } else if (!r->opt.timing_only) {
            return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                 "input %d: no value (only timing-only runs go without)", i);
        }
        TRY(write_buffer(r, b, t));
    }
    for (uint32_t b = 0; b < cc_plan_n_buffers(plan); b++) {
        const struct cc_buffer *bf = cc_plan_buffer(plan, b);
        if (bf->kind == CC_BUF_CONST) TRY(write_buffer(r, b, bf->init));
        if (bf->kind == CC_BUF_PARTITION_ID || bf->kind == CC_BUF_REPLICA_ID) {
            struct base_tensor *id = NULL;
            TRY(base_tensor_create(bf->dtype, 0, NULL, &id));
            base_elem_set_i64(bf->dtype, id->data, 0, bf->kind == CC_BUF_PARTITION_ID ? r->partition : 0);
            enum base_status st = write_buffer(r, b, id);
            base_tensor_release(id);
            TRY(st);
        }
    }
    return BASE_OK;
}

/* Output i, read back, to the caller's on_output (then released). */
static enum base_status stream_output(struct rt *r, int i, struct base_tensor *t)
{
    enum base_status st = r->opt.on_output(r->opt.output_user, i, t);
    base_tensor_release(t);
    if (st != BASE_OK && r->diag && r->diag->status == BASE_OK)
        base_diag_set(r->diag, st, NULL, 0, 0, "output %d: %s", i, base_status_str(st));
    return st;
}

/* The plan's outputs into outputs[], or one by one to on_output (functional runs). */
static enum base_status rt_read_outputs(struct rt *r, struct base_tensor **outputs)
{
    int n_out = cc_plan_n_outputs(r->plan);
    enum base_status st = BASE_OK;
    if (r->opt.on_output && !r->opt.timing_only) {
        for (int i = 0; st == BASE_OK && i < n_out; i++) {
            struct base_tensor *t = NULL;
            st = read_buffer(r, cc_plan_output_buffer(r->plan, i), &t);
            if (st == BASE_OK) st = stream_output(r, i, t);
        }
        return st;
    }
    for (int i = 0; st == BASE_OK && outputs && !r->opt.timing_only && i < n_out; i++)
        st = read_buffer(r, cc_plan_output_buffer(r->plan, i), &outputs[i]);
    if (st != BASE_OK)
        for (int i = 0; i < n_out; i++) {
            base_tensor_release(outputs[i]);
            outputs[i] = NULL;
        }
    return st;
}

/* Completes the report and frees what rt_init made. */
static void rt_deinit(struct rt *r)
{
    struct rt_report *rep = r->rep;
    if (rep && rep->kernels) {
        rep->total_ps = sim_now_ps(r->sim);
        for (uint32_t k = 0; k < rep->n_kernels; k++)
            if (rep->kernels[k].launches) rep->kernels[k].bound = bound_of(&rep->kernels[k]);
    }
    for (uint32_t c = 0; r->progs && c < r->n_cores; c++) isa_program_deinit(&r->progs[c]);
    free(r->progs);
    free(r->busy0);
    free(r->bytes0);
    free(r->flops0);
    free(r->instr0);
    free(r->trips);
    for (uint32_t i = 0; r->coll && i <= cc_plan_n_steps(r->plan); i++) free(r->coll[i].link_bytes);
    free(r->coll);
    free(r->pend);
    for (uint32_t i = 0; r->reuse && i <= cc_plan_n_steps(r->plan); i++) loop_reuse_free(r->reuse[i]);
    free(r->reuse);
    if (r->own_grid) interp_spmd_grid_destroy(r->grid);
    for (int i = 0; i < r->n_probes; i++) {
        for (int j = 0; j < r->probes[i].n; j++) base_tensor_release(r->probes[i].values[j]);
        free(r->probes[i].values);
    }
    free(r->probes);
}

static enum base_status rt_run_impl(const struct cc_plan *plan, struct sim *sim, struct base_tensor *const *inputs, int n_inputs,
                        const struct rt_options *opt, struct base_tensor **outputs, struct rt_report *report,
                        struct base_diag *diag)
{
    for (int i = 0; outputs && i < cc_plan_n_outputs(plan); i++) outputs[i] = NULL;
    struct rt r;
    enum base_status st = rt_init(&r, plan, sim, 0, inputs, n_inputs, opt, report, diag);
    if (st == BASE_OK) st = walk(&r);
    if (st == BASE_OK && (outputs || r.opt.on_output)) st = rt_read_outputs(&r, outputs);
    rt_deinit(&r);
    return st;
}

enum base_status rt_run(const struct cc_plan *plan, struct sim *sim, struct base_tensor *const *inputs, int n_inputs,
                        const struct rt_options *opt, struct base_tensor **outputs, struct rt_report *report,
                        struct base_diag *diag)
{
    return base_diag_ensure(diag, rt_run_impl(plan, sim, inputs, n_inputs, opt, outputs, report, diag), "", "running the compiled program");
}

/* ------------------------------------------------------------- multi-chip */

/* The global value of operand i of the manual computation mc: an entry
 * argument or a constant of the entry block. */
static const struct base_tensor *mc_operand_value(const struct graph_op *mc, int i, struct base_tensor *const *inputs,
                                                  int n_inputs)
{
    const struct graph_value *v = mc->operands[i];
    if (!v->def) return v->index < n_inputs ? inputs[v->index] : NULL;
    const struct graph_attr *a = v->def->kind == GRAPH_OP_CONSTANT ? graph_op_attr(v->def, "value") : NULL;
    return a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
}

/* A multi-chip run: every partition's rt, of which this process runs
 * [lo, hi) (all of them unless the run is spread over MPI ranks: dist). */
struct spmd {
    struct rt *rs;
    int n, lo, hi; /* lo == hi: a rank with no chip (more ranks than chips) */
    bool dist, timing_only;
    const struct cc_plan *plan;
    struct interp_spmd_grid *grid;
    struct base_diag *diag;
    struct walk_job *jobs;
    pthread_t *tids;
    uint32_t *pc;   /* per partition, at the last meeting */
    uint64_t *now;  /* per partition: its simulated time there */
};

/* This process's status with its message, as the first bytes of a message. */
static enum base_status put_status(struct dist_buf *b, enum base_status st, const struct base_diag *diag)
{
    struct base_diag d;
    if (st != BASE_OK && diag && diag->status != BASE_OK) d = *diag;
    else {
        base_diag_clear(&d);
        d.status = st;
        if (st != BASE_OK) snprintf(d.msg, sizeof d.msg, "%s", base_status_str(st));
    }
    return dist_buf_put(b, &d, sizeof d);
}

/* The first failed rank's status (in rank order, the same on every rank),
 * its message into diag; BASE_OK when none failed. */
static enum base_status take_status(struct dist_reader *r, struct base_diag *diag, enum base_status seen)
{
    struct base_diag d;
    if (!dist_take(r, &d, sizeof d)) return base_diag_set(diag, BASE_ERR_PARSE, NULL, 0, 0, "a short MPI message");
    if (seen == BASE_OK && d.status != BASE_OK) {
        if (diag) *diag = d;
        return d.status;
    }
    return seen;
}

/* The chips meet (a collective or the end): each process brings its status
 * and where its chips are (step, simulated time); afterwards every process
 * knows every partition's, and the first failure (in partition order), if
 * any, is every process's.  One process: its own. */
static enum base_status spmd_meet(struct spmd *sp, enum base_status st)
{
    if (!sp->dist) {
        for (int p = 0; p < sp->n; p++) {
            sp->pc[p] = sp->rs[p].pc;
            sp->now[p] = sim_now_ps(sp->rs[p].sim);
        }
        return st;
    }
    struct dist_buf b = {0};
    enum base_status pst = put_status(&b, st, sp->diag);
    for (int p = sp->lo; p < sp->hi && pst == BASE_OK && st == BASE_OK; p++) {
        uint64_t now = sim_now_ps(sp->rs[p].sim);
        pst = dist_buf_put(&b, &sp->rs[p].pc, sizeof sp->rs[p].pc);
        if (pst == BASE_OK) pst = dist_buf_put(&b, &now, sizeof now);
    }
    struct base_diag local = *sp->diag;
    struct dist_gathered g = {0};
    enum base_status xst = pst == BASE_OK ? dist_allgather(b.data, b.len, &g, sp->diag) : pst;
    dist_buf_free(&b);
    if (pst != BASE_OK) { /* cannot describe itself: the others would wait forever */
        fprintf(stderr, "npusim: rank %d: out of memory at a meeting of the chips\n", dist_rank());
        dist_abort(1);
    }
    if (xst != BASE_OK) return xst;
    *sp->diag = local;
    enum base_status out = BASE_OK;
    for (int k = 0; k < dist_size(); k++) {
        struct dist_reader r = {g.data + g.offset[k], g.data + g.offset[k + 1]};
        out = take_status(&r, sp->diag, out);
        int lo, hi;
        dist_share(sp->n, dist_size(), k, &lo, &hi);
        for (int p = lo; p < hi; p++)
            if (!dist_take(&r, &sp->pc[p], sizeof sp->pc[p]) || !dist_take(&r, &sp->now[p], sizeof sp->now[p])) {
                sp->pc[p] = UINT32_MAX; /* a failed rank sends no positions */
                sp->now[p] = 0;
            }
    }
    dist_gathered_free(&g);
    return out;
}

/* Every partition's operands of collective step s in vals (n x ni): this
 * process reads its chips'; spread over ranks, every rank's go to every
 * rank (each then evaluates the whole collective, as one process would). */
static enum base_status spmd_operands(struct spmd *sp, const struct cc_step *s, struct base_tensor **vals)
{
    uint32_t ni = s->n_in;
    enum base_status st = BASE_OK;
    for (int p = sp->lo; p < sp->hi && st == BASE_OK; p++)
        for (uint32_t i = 0; i < ni && st == BASE_OK; i++)
            st = read_buffer(&sp->rs[p], s->io_buffers[i], &vals[(size_t)p * ni + i]);
    if (!sp->dist) return st;
    struct dist_buf b = {0};
    enum base_status pst = put_status(&b, st, sp->diag);
    for (int p = sp->lo; p < sp->hi && st == BASE_OK && pst == BASE_OK; p++)
        for (uint32_t i = 0; i < ni && pst == BASE_OK; i++) pst = dist_buf_put_tensor(&b, vals[(size_t)p * ni + i]);
    if (pst != BASE_OK) {
        fprintf(stderr, "npusim: rank %d: out of memory packing the operands of %s\n", dist_rank(), s->op->name);
        dist_abort(1);
    }
    struct dist_gathered g = {0};
    enum base_status xst = dist_allgather(b.data, b.len, &g, sp->diag);
    dist_buf_free(&b);
    if (xst != BASE_OK) return xst;
    enum base_status out = BASE_OK;
    for (int k = 0; k < dist_size(); k++) {
        struct dist_reader r = {g.data + g.offset[k], g.data + g.offset[k + 1]};
        out = take_status(&r, sp->diag, out);
        if (out != BASE_OK || k == dist_rank()) continue;
        int lo, hi;
        dist_share(sp->n, dist_size(), k, &lo, &hi);
        for (int p = lo; p < hi && out == BASE_OK; p++)
            for (uint32_t i = 0; i < ni && out == BASE_OK; i++)
                out = dist_take_tensor(&r, &vals[(size_t)p * ni + i], sp->diag);
    }
    dist_gathered_free(&g);
    return out;
}

/* Every partition at collective step pc (the meeting gave every chip's
 * time): moves the values as the interpreter's multi-process run does; the
 * collective starts when the last chip arrives, and each chip goes on with
 * the kernels that do not need it. */
static enum base_status spmd_collective(struct spmd *sp, uint32_t pc)
{
    bool mine = sp->hi > sp->lo; /* this process has chips */
    struct rt *r0 = mine ? &sp->rs[sp->lo] : NULL;
    const struct cc_step *s = cc_plan_step(sp->plan, pc);
    uint32_t ni = s->n_in, no = s->n_out;
    int n = sp->n;
    if ((int)ni != s->op->n_operands || (int)no != s->op->n_results)
        return graph_op_diag(sp->diag, s->op, BASE_ERR_INTERNAL, "%s: %u operand and %u result buffers", s->op->name,
                             ni, no);
    const struct coll_info *ci = NULL;
    enum base_status st = mine ? coll_time(r0, pc, s, &ci) : BASE_OK; /* the same on every chip: timed once */
    struct base_tensor **vals = calloc((size_t)n * (ni + no) + 1, sizeof *vals);
    if (!vals) {
        if (sp->dist) { /* the others would wait for its operands */
            fprintf(stderr, "npusim: rank %d: out of memory at %s\n", dist_rank(), s->op->name);
            dist_abort(1);
        }
        return base_diag_set(sp->diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    struct base_tensor **res = vals + (size_t)n * ni;
    if (!sp->timing_only) {
        /* every process takes part in the exchange, even after its own failure */
        enum base_status vst = spmd_operands(sp, s, vals);
        if (st == BASE_OK) st = vst;
        if (st == BASE_OK && mine) st = interp_spmd_grid_eval(sp->grid, s->op, vals, res, sp->diag);
    }
    uint64_t arrive = 0;
    for (int p = 0; p < n; p++)
        if (sp->now[p] > arrive) arrive = sp->now[p];
    for (int p = sp->lo; p < sp->hi && st == BASE_OK; p++) {
        st = start_collective(&sp->rs[p], pc, ci, arrive);
        for (uint32_t j = 0; j < no && st == BASE_OK; j++)
            st = write_buffer(&sp->rs[p], s->io_buffers[ni + j], sp->timing_only ? NULL : res[(size_t)p * no + j]);
        sp->rs[p].pc = pc + 1;
        sp->rs[p].steps_done++;
    }
    for (size_t k = 0; k < (size_t)n * (ni + no); k++) base_tensor_release(vals[k]);
    free(vals);
    return st;
}

struct walk_job {
    struct rt *r;
    struct base_diag diag;
    enum base_status st;
    bool threaded;
};

static void *walk_thread(void *arg)
{
    struct walk_job *j = arg;
    struct base_diag *shared = j->r->diag;
    j->r->diag = &j->diag; /* each chip reports into its own until they meet */
    j->st = walk(j->r);
    j->r->diag = shared;
    return NULL;
}

/* Walks this process's partitions to their next collective (or the end).
 * The chips share nothing until then, so each walks in its own thread (the
 * plan is only read; each sim is its own). */
static enum base_status walk_all(struct spmd *sp)
{
    struct walk_job *jobs = sp->jobs;
    if (sp->lo == sp->hi) return BASE_OK;
    for (int p = sp->lo; p < sp->hi; p++) {
        jobs[p].r = &sp->rs[p];
        jobs[p].st = BASE_OK;
        base_diag_clear(&jobs[p].diag);
        jobs[p].threaded = p > sp->lo && pthread_create(&sp->tids[p], NULL, walk_thread, &jobs[p]) == 0;
    }
    walk_thread(&jobs[sp->lo]);
    for (int p = sp->lo + 1; p < sp->hi; p++) {
        if (jobs[p].threaded) pthread_join(sp->tids[p], NULL);
        else walk_thread(&jobs[p]);
    }
    for (int p = sp->lo; p < sp->hi; p++)
        if (jobs[p].st != BASE_OK) {
            if (sp->diag) *sp->diag = jobs[p].diag;
            return jobs[p].st;
        }
    return BASE_OK;
}

/* Steps every partition to its next collective (or the end) in lockstep;
 * st: this process's status so far (a failure still meets the others, who
 * then stop with it). */
static enum base_status spmd_steps(struct spmd *sp, enum base_status st)
{
    uint32_t n_steps = cc_plan_n_steps(sp->plan);
    for (;;) {
        if (st == BASE_OK) st = walk_all(sp);
        TRY(spmd_meet(sp, st));
        bool end = sp->pc[0] >= n_steps;
        for (int p = 1; p < sp->n; p++)
            if (sp->pc[p] != sp->pc[0]) {
                const struct cc_step *a = end ? NULL : cc_plan_step(sp->plan, sp->pc[0]);
                const struct cc_step *b = sp->pc[p] >= n_steps ? NULL : cc_plan_step(sp->plan, sp->pc[p]);
                return graph_op_diag(sp->diag, (a ? a : b)->op, BASE_ERR_RUNTIME,
                                     "partitions diverge: partition 0 is at %s, partition %d at %s (the partitions "
                                     "of an SPMD program must reach the same collectives in the same order)",
                                     a ? a->op->name : "the end", p, b ? b->op->name : "the end");
            }
        if (end) return BASE_OK;
        st = spmd_collective(sp, sp->pc[0]);
    }
}

/* Spread over ranks: rank 0 gets every partition's outputs (locals, n x no)
 * and reports; the other ranks send theirs.  A report from another rank
 * carries its totals and counters, not its tables. */
static enum base_status spmd_gather(struct spmd *sp, enum base_status st, struct base_tensor **locals, int no,
                                    struct rt_report *reports)
{
    struct dist_buf b = {0};
    enum base_status pst = put_status(&b, st, sp->diag);
    for (int p = sp->lo; p < sp->hi && st == BASE_OK && pst == BASE_OK; p++) {
        struct rt_report rep;
        memset(&rep, 0, sizeof rep);
        if (reports) {
            rep = reports[p];
            rep.kernels = NULL;
            rep.n_kernels = 0;
            rep.colls = NULL;
            rep.n_colls = 0;
            rep.checks = NULL;
        }
        pst = dist_buf_put(&b, &rep, sizeof rep);
        for (int j = 0; j < no && locals && pst == BASE_OK; j++) pst = dist_buf_put_tensor(&b, locals[(size_t)p * no + j]);
    }
    if (pst != BASE_OK) {
        fprintf(stderr, "npusim: rank %d: out of memory packing its outputs\n", dist_rank());
        dist_abort(1);
    }
    struct dist_gathered g = {0};
    enum base_status xst = dist_gather(b.data, b.len, &g, sp->diag);
    dist_buf_free(&b);
    if (xst != BASE_OK || dist_rank() != 0) return xst != BASE_OK ? xst : st;
    enum base_status out = BASE_OK;
    for (int k = 0; k < dist_size(); k++) {
        struct dist_reader r = {g.data + g.offset[k], g.data + g.offset[k + 1]};
        out = take_status(&r, sp->diag, out);
        if (out != BASE_OK || k == 0) continue;
        int lo, hi;
        dist_share(sp->n, dist_size(), k, &lo, &hi);
        for (int p = lo; p < hi && out == BASE_OK; p++) {
            struct rt_report rep;
            if (!dist_take(&r, &rep, sizeof rep)) out = base_diag_set(sp->diag, BASE_ERR_PARSE, NULL, 0, 0, "a short MPI message");
            else if (reports) reports[p] = rep;
            for (int j = 0; j < no && locals && out == BASE_OK; j++)
                out = dist_take_tensor(&r, &locals[(size_t)p * no + j], sp->diag);
        }
    }
    dist_gathered_free(&g);
    return out;
}

static enum base_status rt_run_spmd_impl(const struct cc_plan *plan, struct sim *const *sims, int n_sims,
                             struct base_tensor *const *inputs, int n_inputs, const struct rt_options *opt,
                             struct base_tensor **outputs, struct rt_report *reports, struct base_diag *diag)
{
    const struct graph_op *mc = cc_plan_manual_computation(plan);
    const struct graph_module *m = cc_plan_module(plan);
    int n = cc_plan_num_partitions(plan);
    bool timing_only = opt && opt->timing_only;
    if (!mc) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "the plan is not an SPMD program");
    for (int j = 0; outputs && j < mc->n_results; j++) outputs[j] = NULL;
    if (n_sims != n)
        return graph_op_diag(diag, mc, BASE_ERR_INVALID, "%s: the program has %d partitions, %d chips given",
                             mc->name, n, n_sims);
    int n_args = mc->parent ? mc->parent->n_args : n_inputs; /* the entry block's */
    if (n_inputs != n_args)
        return graph_op_diag(diag, mc, BASE_ERR_INVALID, "the program takes %d inputs, %d given", n_args, n_inputs);
    int ni = mc->n_operands, no = mc->n_results;
    struct spmd sp = {.n = n, .lo = 0, .hi = n, .plan = plan, .diag = diag, .timing_only = timing_only};
    sp.dist = opt && opt->distributed && dist_size() > 1;
    if (sp.dist) dist_share(n, dist_size(), dist_rank(), &sp.lo, &sp.hi);
    sp.rs = calloc((size_t)n, sizeof *sp.rs);
    sp.jobs = calloc((size_t)n, sizeof *sp.jobs);
    sp.tids = calloc((size_t)n, sizeof *sp.tids);
    sp.pc = calloc((size_t)n, sizeof *sp.pc);
    sp.now = calloc((size_t)n, sizeof *sp.now);
    struct base_tensor **shards = calloc((size_t)n * (ni + no) + 1, sizeof *shards);
    struct base_tensor **locals = shards + (size_t)n * ni;
    enum base_status st = sp.rs && sp.jobs && sp.tids && sp.pc && sp.now && shards
                              ? BASE_OK
                              : base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    /* each of this process's partitions' shards of the global inputs */
    for (int i = 0; st == BASE_OK && !timing_only && i < ni; i++) {
        const struct base_tensor *g = mc_operand_value(mc, i, inputs, n_inputs);
        if (!g) {
            st = graph_op_diag(diag, mc, BASE_ERR_INVALID, "%s: no value for operand %d", mc->name, i);
            break;
        }
        for (int p = sp.lo; p < sp.hi && st == BASE_OK; p++)
            st = interp_sdy_cut(m, mc, i, p, n, (struct base_tensor *)g, &shards[(size_t)p * ni + i], diag);
    }
    if (st == BASE_OK && !timing_only) st = interp_spmd_grid_create(m, n, &sp.grid, diag);
    int n_init = 0;
    for (int p = sp.lo; p < sp.hi && st == BASE_OK; p++, n_init++) {
        struct rt *r = &sp.rs[p];
        st = rt_init(r, plan, sims[p], (uint32_t)p, timing_only ? NULL : shards + (size_t)p * ni, ni, opt,
                     reports ? &reports[p] : NULL, diag);
        r->stop_at_collective = true;
        r->opt.loop_reuse = false; /* the chips meet at collectives: every trip runs */
        r->grid = sp.grid; /* host fallback: each chip evaluates its own partition's op */
        r->grid_partition = p;
        r->split = sp.dist;
        if (opt && opt->chip_users) { /* each chip its own recorder */
            r->opt.launch_user = opt->chip_users[p];
            r->opt.collective_user = opt->chip_users[p];
        } else if (p > 0) { /* else traces follow chip 0 */
            r->opt.on_launch = NULL;
            r->opt.on_collective = NULL;
        }
        for (int i = 0; i < ni; i++) { /* in the chip's HBM now */
            base_tensor_release(shards[(size_t)p * ni + i]);
            shards[(size_t)p * ni + i] = NULL;
        }
    }
    /* spread over ranks, a process that failed so far still meets the others;
     * one that cannot even do that ends the job rather than leave them waiting */
    if (sp.dist && !(sp.pc && sp.now && sp.rs && sp.jobs && sp.tids)) {
        fprintf(stderr, "npusim: rank %d: out of memory for %d chips\n", dist_rank(), n);
        dist_abort(1);
    }
    if (st == BASE_OK || sp.dist) st = spmd_steps(&sp, st);
    /* outputs handed on one at a time (on_output): read from every chip's
     * memory an output at a time; spread over ranks, rank 0 gathers the
     * shards whole first, then hands each assembled output on */
    bool on_out = opt && opt->on_output && !timing_only, stream = on_out && !sp.dist;
    for (int p = sp.lo; p < sp.lo + n_init; p++) sp.rs[p].opt.on_output = NULL; /* a shard is not an output */
    for (int p = sp.lo; p < sp.hi && st == BASE_OK && !timing_only && !stream; p++)
        st = rt_read_outputs(&sp.rs[p], locals + (size_t)p * no);
    if (sp.dist) /* completes the reports before they are gathered */
        for (int p = sp.lo; p < sp.lo + n_init; p++) rt_deinit(&sp.rs[p]);
    bool assemble = !sp.dist || dist_rank() == 0;
    if (sp.dist) st = spmd_gather(&sp, st, timing_only ? NULL : locals, timing_only ? 0 : no, reports);
    /* the global outputs from every partition's shards */
    struct base_tensor **col = st == BASE_OK && !timing_only && assemble ? calloc((size_t)n, sizeof *col) : NULL;
    if (st == BASE_OK && !timing_only && assemble && !col)
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int j = 0; st == BASE_OK && !timing_only && assemble && (outputs || on_out) && j < no; j++) {
        for (int p = 0; p < n && st == BASE_OK; p++) {
            if (stream) st = read_buffer(&sp.rs[p], cc_plan_output_buffer(plan, j), &locals[(size_t)p * no + j]);
            col[p] = locals[(size_t)p * no + j];
        }
        struct base_tensor *g = NULL;
        if (st == BASE_OK) st = interp_sdy_assemble(m, mc, j, n, col, on_out ? &g : &outputs[j], diag);
        if (on_out) {
            for (int p = 0; p < n; p++) {
                base_tensor_release(locals[(size_t)p * no + j]);
                locals[(size_t)p * no + j] = NULL;
            }
            if (st == BASE_OK) {
                st = opt->on_output(opt->output_user, j, g);
                if (st != BASE_OK && diag && diag->status == BASE_OK)
                    base_diag_set(diag, st, NULL, 0, 0, "output %d: %s", j, base_status_str(st));
            }
            base_tensor_release(g);
        }
    }
    free(col);
    if (st != BASE_OK && outputs)
        for (int j = 0; j < no; j++) {
            base_tensor_release(outputs[j]);
            outputs[j] = NULL;
        }
    if (!sp.dist) /* after the streamed reads: completes the reports */
        for (int p = sp.lo; p < sp.lo + n_init; p++) rt_deinit(&sp.rs[p]);
    for (size_t k = 0; shards && k < (size_t)n * (ni + no); k++) base_tensor_release(shards[k]);
    free(shards);
    free(sp.rs);
    free(sp.jobs);
    free(sp.tids);
    free(sp.pc);
    free(sp.now);
    interp_spmd_grid_destroy(sp.grid);
    return st;
}

enum base_status rt_run_spmd(const struct cc_plan *plan, struct sim *const *sims, int n_sims,
                             struct base_tensor *const *inputs, int n_inputs, const struct rt_options *opt,
                             struct base_tensor **outputs, struct rt_report *reports, struct base_diag *diag)
{
    return base_diag_ensure(diag, rt_run_spmd_impl(plan, sims, n_sims, inputs, n_inputs, opt, outputs, reports, diag), "", "running the compiled program on every chip");
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
static double f32_dot_eps(const struct cc_plan *plan, const struct graph_op *op)
{
    /* the precision the compiler ran the op at: an op that asks for HIGH
     * runs 3 passes even when the plan's default (--precision) is HIGHEST */
    const struct chip_desc *chip = cc_plan_chip(plan);
    enum isa_precision prec = cc_plan_op_precision(plan, op);
    uint32_t passes = prec == ISA_PREC_HIGHEST ? chip->fp32_passes_highest
                      : prec == ISA_PREC_HIGH  ? chip->fp32_passes_high
                                               : chip->fp32_passes_default;
    if (chip->family != CHIP_FAMILY_TPU) return ldexp(1.0, -24); /* native fp32 (Neuron; a GPU computes it in fp32) */
    return passes <= 1 ? ldexp(1.0, -8) : passes <= 3 ? ldexp(1.0, -16) : ldexp(1.0, -24);
}

/* Operands a TPU's arrays multiply as f32, in bf16 passes: f32, and f16
 * (which its arrays do not take: docs/compiler.md "Kernels: dot_general";
 * on a NeuronCore f16 is native and f32_dot_eps is fp32's). */
static bool passes_type(enum base_dtype dt) { return dt == BASE_DT_F32 || dt == BASE_DT_F16; }

/* The largest decomposition error (f32 ulps; *abs_err: absolute) of the
 * float ops in block b and the regions below it. */
static double block_decomposition_ulps(const struct graph_block *b, double *abs_err)
{
    double u = 0;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        double a = 0;
        if (op->n_results > 0 && op->results[0].type->kind == GRAPH_TYPE_TENSOR &&
            base_dtype_is_float(op->results[0].type->elem) && base_dtype_bits(op->results[0].type->elem) <= 32) {
            u = fmax(u, cc_decomposition_ulps(op, &a));
            *abs_err = fmax(*abs_err, a);
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                u = fmax(u, block_decomposition_ulps(&op->regions[r].blocks[k], abs_err));
    }
    return u;
}

void rt_check_options_default(struct rt_check_options *o)
{
    memset(o, 0, sizeof *o);
    o->rtol = o->atol = -1;
}

void rt_tolerance_for(const struct cc_plan *plan, const struct base_tensor *want, struct rt_tolerance *tol)
{
    rt_tolerance_for_opts(plan, want, NULL, tol);
}

void rt_tolerance_for_opts(const struct cc_plan *plan, const struct base_tensor *want, const struct rt_check_options *o,
                           struct rt_tolerance *tol)
{
    bool at_target = o && o->ref_at_target;
    memset(tol, 0, sizeof *tol);
    /* complex: each part as a float of the component type (the chips
     * multiply in f32 what the interpreter multiplies in doubles) */
    enum base_dtype et = base_dtype_component(want->dtype);
    if (!base_dtype_is_float(et)) {
        tol->exact = true;
        return;
    }
    double eps = type_eps(et), rtol = 4 * eps;
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
            double e = !at_target && (passes_type(a) || passes_type(b)) ? f32_dot_eps(plan, op) : 0;
            double t = 2 * sqrt((double)K) * (e + ldexp(1.0, -24));
            if (t > dot) dot = t;
        } else if (op->kind == GRAPH_OP_CONVOLUTION && op->n_operands == 2) {
            const struct graph_type *kt = op->operands[1]->type;
            double K = (double)base_shape_count(kt->rank, kt->dims);
            /* the interpreter's convolutions multiply in f32 (no passes) */
            double e = (passes_type(kt->elem) || passes_type(op->operands[0]->type->elem))
                           ? f32_dot_eps(plan, op)
                           : 0;
            double t = 2 * sqrt(K) * (e + ldexp(1.0, -24));
            if (t > dot) dot = t;
        } else if (op->kind == GRAPH_OP_REDUCE && op->n_operands >= 2) {
            /* sums below f32 round per chunk on chip, per step in the
             * interpreter: every input of a variadic reduce */
            const struct graph_type *rt = op->results[0].type;
            for (int i = 0; i < op->n_operands / 2; i++) {
                const struct graph_type *xt = op->operands[i]->type;
                if (!base_dtype_is_float(xt->elem) || base_dtype_bits(xt->elem) >= 32) continue;
                int64_t n_out = base_shape_count(rt->rank, rt->dims);
                if (n_out <= 0) continue; /* nothing reduced into (and no R to divide by) */
                double R = (double)base_shape_count(xt->rank, xt->dims) / (double)n_out;
                double t = 2 * sqrt(R) * type_eps(xt->elem);
                if (t > red) red = t;
            }
        }
    }
    /* a collective sum below f32 rounds at each step of the chips' order (a
     * ring, a tree), the interpreter's in its own: a term per partition at
     * most (tensor parallelism's partial sums) */
    int R = cc_plan_num_partitions(plan);
    for (uint32_t i = 0; R > 1 && i < cc_plan_n_steps(plan); i++) {
        const struct cc_step *st = cc_plan_step(plan, i);
        const struct graph_op *op = st->kind == CC_STEP_COLLECTIVE ? st->op : NULL;
        if (!op || (op->kind != GRAPH_OP_ALL_REDUCE && op->kind != GRAPH_OP_REDUCE_SCATTER) || op->n_operands < 1) continue;
        enum base_dtype xt = op->operands[0]->type->elem;
        if (base_dtype_is_float(xt) && base_dtype_bits(xt) < 32) red = fmax(red, 2 * sqrt((double)R) * type_eps(xt));
    }
    /* the special functions' instruction sequences (lgamma, erf_inv, ...):
     * their documented bound in f32 ulps, propagated through a few ops */
    const struct graph_module *gm = cc_plan_module(plan);
    double dec_abs = 0, dec = gm ? 2 * block_decomposition_ulps(&gm->body, &dec_abs) * ldexp(1.0, -23) : 0;
    rtol += dot + red + dec;
    double mx = 0;
    bool cplx = base_dtype_is_complex(want->dtype);
    for (int64_t i = 0; i < want->count; i++) {
        double re, im = 0;
        if (cplx) base_elem_get_c128(want->dtype, want->data, (size_t)i, &re, &im);
        else re = base_elem_get_f64(want->dtype, want->data, (size_t)i);
        if (isfinite(fabs(re)) && fabs(re) > mx) mx = fabs(re);
        if (isfinite(fabs(im)) && fabs(im) > mx) mx = fabs(im);
    }
    if (o && o->rtol >= 0) rtol = o->rtol;
    tol->rtol = rtol;
    /* differences below the smallest normal are subnormals flushed (a
     * TPU's bf16 passes of a matmul), not an answer */
    const struct base_float_format *ff = base_float_format(et);
    tol->atol = o && o->atol >= 0 ? o->atol : fmax(fmax(rtol * mx, 2 * dec_abs), ff ? ff->min_normal : 0);
}

void rt_interp_target_precision(const struct cc_plan *plan, struct interp_matmul_precision *mp)
{
    memset(mp, 0, sizeof *mp);
    const struct chip_desc *chip = cc_plan_chip(plan);
    if (chip->family != CHIP_FAMILY_TPU) return; /* f32 native on a NeuronCore */
    mp->emulate = true;
    mp->f16_passes = true;
    enum isa_precision d = cc_plan_default_precision(plan);
    mp->default_level = d == ISA_PREC_HIGHEST ? 2 : d == ISA_PREC_HIGH ? 1 : 0;
    mp->passes[0] = (uint8_t)chip->fp32_passes_default;
    mp->passes[1] = (uint8_t)chip->fp32_passes_high;
    mp->passes[2] = (uint8_t)chip->fp32_passes_highest;
}

bool rt_plan_reduces_precision(const struct cc_plan *plan)
{
    const struct chip_desc *chip = cc_plan_chip(plan);
    if (chip->family != CHIP_FAMILY_TPU) return false;
    for (uint32_t k = 0; k < cc_plan_n_kernels(plan); k++) {
        const struct graph_op *op = cc_plan_kernel_info(plan, k)->root;
        if (!op || op->n_operands < 2 ||
            (op->kind != GRAPH_OP_DOT_GENERAL && op->kind != GRAPH_OP_DOT && op->kind != GRAPH_OP_CONVOLUTION))
            continue;
        if ((passes_type(op->operands[0]->type->elem) || passes_type(op->operands[1]->type->elem)) &&
            f32_dot_eps(plan, op) > ldexp(1.0, -24))
            return true;
    }
    return false;
}

void rt_compare_output(const struct cc_plan *plan, const struct base_tensor *got, const struct base_tensor *want,
                       struct rt_compare *out)
{
    rt_compare_output_opts(plan, got, want, NULL, out);
}

/* got against want under t: |got - want| over its bound (<= 1 passes). */
static double float_ratio(double x, double y, const struct rt_tolerance *t, double *max_abs_err)
{
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0 : INFINITY;
    if (isinf(x) || isinf(y)) return x == y ? 0 : INFINITY;
    double err = fabs(x - y), bound = t->atol + t->rtol * fabs(y);
    if (err > *max_abs_err) *max_abs_err = err;
    return err == 0 ? 0 : bound > 0 ? err / bound : INFINITY;
}

void rt_compare_output_opts(const struct cc_plan *plan, const struct base_tensor *got, const struct base_tensor *want,
                            const struct rt_check_options *o, struct rt_compare *out)
{
    memset(out, 0, sizeof *out);
    out->worst = -1;
    bool same = got && want && got->dtype == want->dtype && got->rank == want->rank && got->count == want->count;
    for (int d = 0; same && d < got->rank; d++) same = got->dims[d] == want->dims[d];
    if (!same) return;
    rt_tolerance_for_opts(plan, want, o, &out->tol);
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
        } else if (base_dtype_is_complex(dt)) { /* each part; the worse is reported */
            double xr, xi, yr, yi;
            base_elem_get_c128(dt, got->data, (size_t)i, &xr, &xi);
            base_elem_get_c128(dt, want->data, (size_t)i, &yr, &yi);
            double rr = float_ratio(xr, yr, &out->tol, &out->max_abs_err),
                   ri = float_ratio(xi, yi, &out->tol, &out->max_abs_err);
            ratio = rr >= ri ? rr : ri;
            x = rr >= ri ? xr : xi;
            y = rr >= ri ? yr : yi;
        } else {
            x = base_elem_get_f64(dt, got->data, (size_t)i);
            y = base_elem_get_f64(dt, want->data, (size_t)i);
            ratio = float_ratio(x, y, &out->tol, &out->max_abs_err);
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
    /* a tolerance the user gave holds for every element */
    bool user = o && (o->rtol >= 0 || o->atol >= 0);
    out->n_allowed = out->tol.exact || user ? 0 : want->count / 100000;
    out->passed = out->n_bad == 0 || (out->n_bad <= out->n_allowed && out->worst_ratio <= 4);
}
