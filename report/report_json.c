/* The run report as JSON (`npusim run --json`; the keys: docs/report.md). */
#include "report/rep_internal.h"

#include <math.h>

void rep_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void write_kernels(const struct rep_run *r, FILE *f)
{
    fprintf(f, "},\n \"kernels\": [");
    for (uint32_t k = 0; k < r->n_kernels; k++) {
        const struct rep_kernel *ks = &r->kernels[k];
        fprintf(f, "%s\n  {\"name\": ", k ? "," : "");
        rep_json_str(f, ks->name);
        fprintf(f,
                ", \"launches\": %llu, \"time_ps\": %llu, \"dispatch_ps\": %llu, \"model_flops\": %llu, \"flops\": "
                "%llu, \"hbm_bytes\": %llu, \"bound\": \"%s\"",
                (unsigned long long)ks->launches, (unsigned long long)ks->time_ps, (unsigned long long)ks->dispatch_ps,
                (unsigned long long)ks->model_flops, (unsigned long long)ks->flops, (unsigned long long)ks->hbm_bytes,
                ks->launches ? rt_bound_name(ks->bound) : "none");
        if (ks->has_loc) fprintf(f, ", \"line\": %d, \"col\": %d", ks->line, ks->col);
        fprintf(f, "}");
    }
}

static void write_collectives(const struct rep_run *r, FILE *f)
{
    fprintf(f,
            "\n ],\n \"partitions\": %d, \"ranks_per_chip\": %u, \"system_chips\": %d, \"collectives\": %llu, \"collective_bytes\": %.17g, \"collective_ps\": %llu, "
            "\"collective_exposed_ps\": %llu,\n \"host_ops\": %llu, \"host_bytes\": %.17g, \"host_ps\": %llu,\n "
            "\"loop_trips_simulated\": %llu, \"loop_trips_reused\": %llu,\n \"collective_table\": [",
            r->partitions, r->ranks_per_chip, r->system_chips, (unsigned long long)r->collectives, r->collective_bytes,
            (unsigned long long)r->collective_ps, (unsigned long long)r->collective_exposed_ps,
            (unsigned long long)r->host_ops, r->host_bytes, (unsigned long long)r->host_ps,
            (unsigned long long)r->loop_trips_simulated, (unsigned long long)r->loop_trips_reused);
    for (uint32_t i = 0; i < r->n_colls; i++) {
        const struct rep_collective *c = &r->colls[i];
        fprintf(f, "%s\n  {\"op\": ", i ? "," : "");
        rep_json_str(f, c->op);
        fprintf(f,
                ", \"line\": %d, \"bytes\": %.17g, \"algorithm\": \"%s\", \"group_size\": %u, \"groups\": %u, "
                "\"start_ps\": %llu, \"time_ps\": %llu, \"exposed_ps\": %llu, \"busbw_gbps\": %g, "
                "\"link_util_mean\": %g, \"link_util_max\": %g}",
                c->line, c->bytes, c->algorithm, c->group_size, c->n_groups, (unsigned long long)c->start_ps,
                (unsigned long long)c->time_ps, (unsigned long long)c->exposed_ps, c->busbw_gbps, c->link_util_mean,
                c->link_util_max);
    }
    fprintf(f, "\n ],");
}

static void write_chips(const struct rep_run *r, FILE *f)
{
    fprintf(f, "\n \"chips_simulated\": %d, \"chips\": [", r->n_chips);
    for (int c = 0; c < r->n_chips; c++) {
        const struct rep_chip *ch = &r->chips[c];
        fprintf(f,
                "%s\n  {\"total_ps\": %llu, \"kernel_ps\": %llu, \"dispatch_ps\": %llu, \"collective_ps\": %llu, "
                "\"collective_exposed_ps\": %llu}",
                c ? "," : "", (unsigned long long)ch->total_ps, (unsigned long long)ch->kernel_ps,
                (unsigned long long)ch->dispatch_ps, (unsigned long long)ch->collective_ps,
                (unsigned long long)ch->collective_exposed_ps);
    }
    fprintf(f, "\n ],\n \"system_ps\": %llu,", (unsigned long long)r->system_ps);
    fprintf(f, "\n \"checks\": %d, \"checks_failed\": %d", r->n_checks, r->n_checks_failed);
}

static void write_output_checks(const struct rep_run *r, FILE *f)
{
    if (!r->outputs_checked) return;
    fprintf(f, ",\n \"check\": [");
    for (int i = 0; i < r->n_output_checks; i++) {
        const struct rep_output_check *o = &r->output_checks[i];
        const struct rt_compare *cmp = &o->cmp;
        fprintf(f,
                "%s\n  {\"output\": %d, \"passed\": %s, \"bad\": %lld, \"worst_ratio\": %g, \"max_abs_err\": %g, "
                "\"rtol\": %g, \"atol\": %g, \"exact\": %s}",
                i ? "," : "", o->output, cmp->passed ? "true" : "false", (long long)cmp->n_bad,
                isfinite(cmp->worst_ratio) ? cmp->worst_ratio : -1.0, cmp->max_abs_err, cmp->tol.rtol, cmp->tol.atol,
                cmp->tol.exact ? "true" : "false");
    }
    fprintf(f, "\n ]");
}

void rep_run_write_json(const struct rep_run *r, FILE *f)
{
    fprintf(f, "{\"model\": ");
    rep_json_str(f, r->model);
    fprintf(f, ", \"chip\": ");
    rep_json_str(f, r->chip);
    fprintf(f, ", \"mode\": \"%s\", \"cores\": %d, \"timing_only\": %s,\n", r->mode, r->cores,
            r->timing_only ? "true" : "false");
    fprintf(f,
            " \"total_ps\": %llu, \"total_cycles\": %llu, \"clock_ghz\": %g, \"kernel_ps\": %llu, \"dispatch_ps\": "
            "%llu,\n",
            (unsigned long long)r->total_ps, (unsigned long long)r->total_cycles, r->clock_ghz,
            (unsigned long long)r->kernel_ps, (unsigned long long)r->dispatch_ps);
    fprintf(f,
            " \"launches\": %llu, \"steps\": %llu, \"model_flops\": %llu, \"peak_class\": \"%s\", \"peak_flops\": %g, "
            "\"mfu\": %g,\n",
            (unsigned long long)r->launches, (unsigned long long)r->steps, (unsigned long long)r->model_flops,
            chip_rate_class_name(r->peak_class), r->peak_flops, r->mfu);
    fprintf(f, " \"mfu_kernels\": %g,\n", r->mfu_kernels);
    fprintf(f,
            " \"hbm_bytes\": %llu, \"hbm_gbps\": %g, \"hbm_gbps_kernels\": %g, \"hbm_peak_gbps\": %g, "
            "\"plan_hbm_bytes\": %llu,\n \"engines\": {",
            (unsigned long long)r->hbm_bytes, r->hbm_gbps, r->hbm_gbps_kernels, r->hbm_peak_gbps,
            (unsigned long long)r->plan_hbm_bytes);
    bool first = true;
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++) {
        if (!r->engine_count[kd]) continue;
        fprintf(f, "%s\"%s\": %g", first ? "" : ", ", isa_engine_kind_name((enum isa_engine_kind)kd),
                r->engine_util[kd]);
        first = false;
    }
    write_kernels(r, f);
    write_collectives(r, f);
    write_chips(r, f);
    write_output_checks(r, f);
    fprintf(f, "}\n");
}
