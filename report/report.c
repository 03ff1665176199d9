/* The run report as data: rep_run_create, rep_run_check_outputs. */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static bool is_matmul(const struct graph_op *op)
{
    return op && graph_op_kind_has(op->kind, GRAPH_OPF_CONTRACTION) && op->n_operands >= 2;
}

/* The peak MFU is measured against: bf16, unless every matmul takes f32, or one takes fp8. */
static enum chip_rate_class peak_class(const struct cc_plan *p)
{
    bool any = false, all_f32 = true, fp8 = false;
    for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
        const struct graph_op *op = cc_plan_kernel_info(p, k)->root;
        if (!is_matmul(op)) continue;
        any = true;
        for (int i = 0; i < 2; i++) {
            enum chip_rate_class rc = chip_rate_class_of(op->operands[i]->type->elem);
            if (rc != CHIP_RATE_FP32) all_f32 = false;
            if (rc == CHIP_RATE_FP8) fp8 = true;
        }
    }
    if (fp8) return CHIP_RATE_FP8;
    return any && all_f32 ? CHIP_RATE_FP32 : CHIP_RATE_BF16;
}

static bool any_f32_matmul(const struct cc_plan *p)
{
    for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
        const struct graph_op *op = cc_plan_kernel_info(p, k)->root;
        if (is_matmul(op) && op->operands[0]->type->elem == BASE_DT_F32) return true;
    }
    return false;
}

/* A copy in the report's arena ("" for NULL); NULL when out of memory. */
static const char *str(struct rep_run *r, const char *s)
{
    return base_arena_strdup(&r->arena, s ? s : "");
}

static void *rows(struct rep_run *r, size_t n, size_t size)
{
    return base_arena_alloc(&r->arena, n ? n * size : 1);
}

static enum base_status fill_kernels(struct rep_run *r, const struct rep_source *src)
{
    const struct rt_report *rep = &src->chips[0];
    r->n_kernels = rep->n_kernels;
    r->kernels = rows(r, r->n_kernels, sizeof *r->kernels);
    if (!r->kernels) return BASE_ERR_NOMEM;
    for (uint32_t k = 0; k < rep->n_kernels; k++) {
        const struct rt_kernel_stats *ks = &rep->kernels[k];
        const struct cc_kernel_info *ki = cc_plan_kernel_info(src->plan, k);
        struct rep_kernel *o = &r->kernels[k];
        o->name = str(r, ki->name);
        o->has_loc = ki->root != NULL;
        o->file = str(r, ki->root && ki->root->loc.file ? ki->root->loc.file : src->model);
        if (!o->name || !o->file) return BASE_ERR_NOMEM;
        if (ki->root) {
            o->line = ki->root->loc.line;
            o->col = ki->root->loc.col;
        }
        o->launches = ks->launches;
        o->time_ps = ks->time_ps;
        o->dispatch_ps = ks->dispatch_ps;
        o->model_flops = ks->model_flops;
        o->flops = ks->flops;
        o->hbm_bytes = ks->hbm_bytes;
        o->bound = ks->bound;
        r->model_flops += ks->model_flops;
    }
    return BASE_OK;
}

static enum base_status fill_collectives(struct rep_run *r, const struct rep_source *src)
{
    const struct rt_report *rep = &src->chips[0];
    r->n_colls = rep->n_colls;
    r->colls = rows(r, r->n_colls, sizeof *r->colls);
    r->coll_ops = rows(r, r->n_colls, sizeof *r->coll_ops);
    if (!r->colls || !r->coll_ops) return BASE_ERR_NOMEM;
    for (uint32_t i = 0; i < rep->n_colls; i++) {
        const struct rt_collective *c = &rep->colls[i];
        struct rep_collective *o = &r->colls[i];
        o->op = str(r, c->op->name);
        o->file = str(r, c->op->loc.file ? c->op->loc.file : src->model);
        o->algorithm = str(r, c->algorithm);
        if (!o->op || !o->file || !o->algorithm) return BASE_ERR_NOMEM;
        o->line = c->op->loc.line;
        o->col = c->op->loc.col;
        o->group_size = c->group_size;
        o->n_groups = c->n_groups;
        o->bytes = c->bytes;
        o->start_ps = c->start_ps;
        o->time_ps = c->time_ps;
        o->exposed_ps = c->exposed_ps;
        o->busbw_gbps = c->busbw_gbps;
        o->link_util_mean = c->link_util_mean;
        o->link_util_max = c->link_util_max;
        /* one row per op, in the order of their first runs */
        uint32_t j = 0;
        while (j < i && rep->colls[j].op != c->op) j++;
        if (j == i) r->coll_ops[r->n_coll_ops++].first = i;
        for (uint32_t g = 0; g < r->n_coll_ops; g++)
            if (rep->colls[r->coll_ops[g].first].op == c->op) {
                r->coll_ops[g].runs++;
                r->coll_ops[g].exposed_ps += c->exposed_ps;
                break;
            }
    }
    return BASE_OK;
}

static enum base_status fill_chips_and_checks(struct rep_run *r, const struct rep_source *src)
{
    r->n_chips = src->n_chips;
    r->chips = rows(r, (size_t)r->n_chips, sizeof *r->chips);
    if (!r->chips) return BASE_ERR_NOMEM;
    r->passed = true;
    for (int c = 0; c < src->n_chips; c++) {
        const struct rt_report *rep = &src->chips[c];
        struct rep_chip *o = &r->chips[c];
        o->total_ps = rep->total_ps;
        o->kernel_ps = rep->device_ps;
        o->dispatch_ps = rep->dispatch_ps;
        o->collective_ps = rep->collective_ps;
        o->collective_exposed_ps = rep->collective_exposed_ps;
        o->n_checks_failed = rep->n_checks_failed;
        if (rep->total_ps > r->system_ps) r->system_ps = rep->total_ps;
        if (rep->n_checks_failed) r->passed = false;
    }
    const struct rt_report *rep = &src->chips[0];
    r->n_checks = rep->n_checks;
    r->n_checks_failed = rep->n_checks_failed;
    r->checks = rows(r, (size_t)(rep->n_checks > 0 ? rep->n_checks : 0), sizeof *r->checks);
    if (!r->checks) return BASE_ERR_NOMEM;
    for (int i = 0; i < rep->n_checks; i++) {
        r->checks[i].passed = rep->checks[i].passed;
        r->checks[i].what = str(r, rep->checks[i].what);
        if (!r->checks[i].what) return BASE_ERR_NOMEM;
        r->checks[i].line = rep->checks[i].loc.line;
        r->checks[i].col = rep->checks[i].loc.col;
    }
    return BASE_OK;
}

static enum base_status fill(struct rep_run *r, const struct rep_source *src)
{
    const struct cc_plan *p = src->plan;
    const struct chip_desc *chip = cc_plan_chip(p);
    const struct sim_stats *st = src->stats;
    const struct rt_report *rep = &src->chips[0];
    r->model = str(r, src->model);
    r->chip = str(r, chip->name);
    r->mode = str(r, cc_mode_name(cc_plan_mode(p)));
    r->topology = src->topology ? str(r, src->topology) : NULL;
    if (!r->model || !r->chip || !r->mode || (src->topology && !r->topology)) return BASE_ERR_NOMEM;
    r->cores = cc_plan_n_cores(p);
    r->timing_only = src->timing_only;
    r->precision = cc_plan_default_precision(p);
    r->fp32_passes_default = chip->fp32_passes_default;
    r->partitions = cc_plan_num_partitions(p);
    r->ranks_per_chip = src->ranks_per_chip > 1 ? src->ranks_per_chip : 1;
    r->system_chips = (int)(((uint32_t)r->partitions + r->ranks_per_chip - 1) / r->ranks_per_chip);
    r->plan_kernels = cc_plan_n_kernels(p);
    r->launches = rep->launches;
    r->steps = rep->steps;

    r->total_ps = rep->total_ps;
    r->clock_ghz = st->clock_ghz;
    r->total_cycles = st->clock_ghz > 0 ? (uint64_t)((double)rep->total_ps * st->clock_ghz / 1000.0) : 0;
    r->kernel_ps = rep->device_ps;
    r->dispatch_ps = rep->dispatch_ps;

    r->collectives = rep->collectives;
    r->collective_bytes = rep->collective_bytes;
    r->collective_ps = rep->collective_ps;
    r->collective_exposed_ps = rep->collective_exposed_ps;

    r->host_ops = rep->host_ops;
    r->host_bytes = rep->host_bytes;
    r->host_ps = rep->host_ps;
    r->loop_trips_simulated = rep->loop_trips_simulated;
    r->loop_trips_reused = rep->loop_trips_reused;

    TRY(fill_kernels(r, src)); /* sums model_flops */
    double total_s = (double)rep->total_ps * 1e-12;
    r->peak_class = peak_class(p);
    r->peak_flops = chip_peak_flops(chip, r->peak_class);
    double peak = r->peak_flops;
    r->mfu = peak > 0 && total_s > 0 ? (double)r->model_flops / (total_s * peak) : 0.0;
    r->mfu_kernels = peak > 0 && rep->device_ps ? (double)r->model_flops / ((double)rep->device_ps * 1e-12 * peak) : 0.0;
    r->any_f32_matmul = any_f32_matmul(p);

    r->hbm_bytes = st->hbm_bytes;
    r->hbm_gbps = total_s > 0 ? (double)st->hbm_bytes / total_s * 1e-9 : 0.0;
    r->hbm_gbps_kernels = rep->device_ps ? (double)st->hbm_bytes / ((double)rep->device_ps * 1e-12) * 1e-9 : 0.0;
    r->hbm_peak_gbps = chip->hbm.bytes_per_ns;
    r->plan_hbm_bytes = cc_plan_hbm_bytes(p);

    for (uint32_t e = 0; e < st->n_engines; e++) {
        int kd = (int)st->engines[e].kind;
        if (kd < 0 || kd >= ISA_ENGINE_KIND_COUNT) continue;
        r->engine_busy_ps[kd] += st->engines[e].busy_ps;
        r->engine_count[kd]++;
    }
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++)
        r->engine_util[kd] = rep->total_ps && r->engine_count[kd]
                                 ? (double)r->engine_busy_ps[kd] / ((double)r->engine_count[kd] * (double)rep->total_ps)
                                 : 0.0;

    TRY(fill_collectives(r, src));
    return fill_chips_and_checks(r, src);
}

enum base_status rep_run_create(const struct rep_source *src, struct rep_run **out)
{
    *out = NULL;
    if (!src || !src->plan || !src->stats || !src->chips || src->n_chips < 1) return BASE_ERR_INVALID;
    struct rep_run *r = calloc(1, sizeof *r);
    if (!r) return BASE_ERR_NOMEM;
    base_arena_init(&r->arena, 16384);
    enum base_status st = fill(r, src);
    if (st != BASE_OK) {
        rep_run_destroy(r);
        return st;
    }
    *out = r;
    return BASE_OK;
}

void rep_run_destroy(struct rep_run *r)
{
    if (!r) return;
    base_arena_deinit(&r->arena);
    free(r);
}

static enum base_status add_hint(struct rep_run *r, const char *text)
{
    if (r->n_hints == REP_MAX_HINTS) return BASE_OK;
    const char *h = str(r, text);
    if (!h) return BASE_ERR_NOMEM;
    r->hints[r->n_hints++] = h;
    return BASE_OK;
}

enum base_status rep_run_check_outputs(struct rep_run *r, const struct cc_plan *plan, struct base_tensor *const *got,
                                       struct base_tensor *const *want, int n_want)
{
    int n = cc_plan_n_outputs(plan) < n_want ? cc_plan_n_outputs(plan) : n_want;
    if (n < 0) n = 0;
    r->output_checks = rows(r, (size_t)n, sizeof *r->output_checks);
    if (!r->output_checks) return BASE_ERR_NOMEM;
    r->outputs_checked = true;
    r->n_output_checks = n;
    for (int i = 0; i < n; i++) {
        struct rep_output_check *o = &r->output_checks[i];
        o->output = i;
        rt_compare_output(plan, got[i], want[i], &o->cmp);
        if (!o->cmp.passed) r->passed = false;
        base_tensor_type_str(want[i], o->type, sizeof o->type);
    }
    if (!r->passed && r->precision != ISA_PREC_HIGHEST && r->fp32_passes_default <= 1 && r->any_f32_matmul) {
        char h[256];
        snprintf(h, sizeof h,
                 "f32 matmuls ran at the chip's DEFAULT precision (%u bf16 pass, as on the real chip); --precision "
                 "highest compares at f32 (docs/compiler.md)",
                 r->fp32_passes_default);
        TRY(add_hint(r, h));
    }
    return BASE_OK;
}
