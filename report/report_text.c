/* The run report as text (`npusim run`).  The arithmetic of each printed
 * figure is spelled as the command always spelled it, so its digits stay
 * the same (100 x a / b is not always bit for bit 100 x (a / b)). */
#include "report/report.h"

#include <string.h>

static void write_summary(const struct rep_run *r, FILE *f)
{
    double total_s = (double)r->total_ps * 1e-12;
    double peak = r->peak_flops;
    fprintf(f, "%s on %s, %s mode, %d core(s)%s\n", r->model, r->chip, r->mode, r->cores,
            r->timing_only ? ", timing only" : "");
    fprintf(f, "kernels: %u in the plan, %llu launched (%llu steps)\n", r->plan_kernels,
            (unsigned long long)r->launches, (unsigned long long)r->steps);
    if (r->partitions > 1 && r->timing_only)
        fprintf(f, "SPMD: the program of one of %d partitions, simulated as a representative partition\n",
                r->partitions);
    else if (r->partitions > 1 && r->ranks_per_chip > 1)
        fprintf(f, "SPMD: %d partitions on %d simulated ranks of %d chip%s (%u per chip); rank 0's report (every rank: "
                "below)\n", r->partitions, r->partitions, r->system_chips, r->system_chips == 1 ? "" : "s",
                r->ranks_per_chip);
    else if (r->partitions > 1)
        fprintf(f, "SPMD: %d partitions on %d simulated chips; chip 0's report (every chip: below)\n", r->partitions,
                r->partitions);
    if (r->ranks_per_chip > 1)
        fprintf(f, "ranks: %u per chip; a partition runs on one rank: %d core(s) and 1/%u of the chip's HBM\n",
                r->ranks_per_chip, r->cores, r->ranks_per_chip);
    fprintf(f, "total: %llu ps = %.3f us = %llu cycles at %.3g GHz (kernels %.3f us, dispatch and launch gaps %.3f us)\n",
            (unsigned long long)r->total_ps, (double)r->total_ps * 1e-6, (unsigned long long)r->total_cycles,
            r->clock_ghz, (double)r->kernel_ps * 1e-6, (double)r->dispatch_ps * 1e-6);
    if (r->collectives)
        fprintf(f,
                "collectives: %llu, %.3f MB per chip, %.3f us, of which %.3f us exposed (%.1f%% hidden behind "
                "kernels)\n",
                (unsigned long long)r->collectives, r->collective_bytes * 1e-6, (double)r->collective_ps * 1e-6,
                (double)r->collective_exposed_ps * 1e-6,
                r->collective_ps ? 100.0 * (1.0 - (double)r->collective_exposed_ps / (double)r->collective_ps) : 0.0);
    if (r->host_ops)
        fprintf(f,
                "host fallback: %llu op%s run on the host (the chip cannot run them, or they are the host's I/O: "
                "probes, infeed, outfeed, send, recv): %.3f us (dispatch, %.3f MB over the host link, host compute); "
                "`npusim coverage` lists the former\n",
                (unsigned long long)r->host_ops, r->host_ops == 1 ? "" : "s", (double)r->host_ps * 1e-6,
                r->host_bytes * 1e-6);
    if (r->loop_trips_reused)
        fprintf(f,
                "loops: %llu trip%s simulated, %llu charged as copies of the last simulated one (its trips "
                "repeat exactly; --no-loop-reuse simulates them all)\n",
                (unsigned long long)r->loop_trips_simulated, r->loop_trips_simulated == 1 ? "" : "s",
                (unsigned long long)r->loop_trips_reused);
    fprintf(f, "FLOPs: %.4g (model)", (double)r->model_flops);
    if (peak > 0 && total_s > 0)
        fprintf(f, ", %.3g TFLOP/s, MFU %.2f%% of the %.1f TFLOP/s %s peak (%.2f%% over the kernels' time)\n",
                (double)r->model_flops / total_s * 1e-12, 100.0 * (double)r->model_flops / (total_s * peak),
                peak * 1e-12, chip_rate_class_name(r->peak_class),
                r->kernel_ps ? 100.0 * (double)r->model_flops / ((double)r->kernel_ps * 1e-12 * peak) : 0.0);
    else
        fprintf(f, "\n");
    fprintf(f, "HBM: %llu bytes, %.1f GB/s achieved = %.1f%% of %.0f GB/s; plan occupies %.3f MiB\n",
            (unsigned long long)r->hbm_bytes, r->hbm_gbps,
            r->hbm_peak_gbps > 0 ? 100.0 * r->hbm_gbps / r->hbm_peak_gbps : 0, r->hbm_peak_gbps,
            (double)r->plan_hbm_bytes / 1048576.0);
    fprintf(f, "engine utilisation (busy / total, mean over engines of a kind, all cores):");
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++)
        if (r->engine_count[kd] && r->total_ps)
            fprintf(f, " %s %.1f%%", isa_engine_kind_name((enum isa_engine_kind)kd),
                    100.0 * (double)r->engine_busy_ps[kd] / ((double)r->engine_count[kd] * (double)r->total_ps));
    fprintf(f, "\n");
}

static void write_kernels(const struct rep_run *r, FILE *f)
{
    fprintf(f, "%4s  %-40s %6s %11s %6s %11s %11s %-8s %s\n", "#", "kernel", "runs", "time us", "%", "GFLOP", "MB",
            "bound", "location");
    for (uint32_t k = 0; k < r->n_kernels; k++) {
        const struct rep_kernel *ks = &r->kernels[k];
        char loc[160] = "";
        if (ks->has_loc) snprintf(loc, sizeof loc, "%s:%d:%d", ks->file, ks->line, ks->col);
        if (!ks->launches) {
            fprintf(f, "%4u  %-40.40s %6s %11s %6s %11s %11s %-8s %s\n", k, ks->name, "0", "-", "-", "-", "-", "-",
                    loc);
            continue;
        }
        fprintf(f, "%4u  %-40.40s %6llu %11.3f %6.2f %11.4g %11.4g %-8s %s\n", k, ks->name,
                (unsigned long long)ks->launches, (double)ks->time_ps * 1e-6,
                r->total_ps ? 100.0 * (double)(ks->time_ps + ks->dispatch_ps) / (double)r->total_ps : 0,
                (double)ks->model_flops * 1e-9, (double)ks->hbm_bytes * 1e-6, rt_bound_name(ks->bound), loc);
    }
    if (r->n_checks) {
        fprintf(f, "checks: %d run, %d failed\n", r->n_checks, r->n_checks_failed);
        for (int i = 0; i < r->n_checks; i++)
            if (!r->checks[i].passed)
                fprintf(f, "  FAIL %s:%d:%d: %s\n", r->model, r->checks[i].line, r->checks[i].col, r->checks[i].what);
    }
}

/* One row per collective op (its runs summed). */
static void write_collectives(const struct rep_run *r, FILE *f)
{
    if (!r->n_colls) return;
    fprintf(f, "%-22s %5s %11s %-13s %6s %11s %11s %10s %9s  %s\n", "collective", "runs", "MB each", "algorithm",
            "group", "us each", "exposed us", "busbw GB/s", "links %", "location");
    for (uint32_t g = 0; g < r->n_coll_ops; g++) {
        const struct rep_collective_op *o = &r->coll_ops[g];
        const struct rep_collective *c = &r->colls[o->first];
        const char *name = strrchr(c->op, '.');
        fprintf(f, "%-22s %5llu %11.4g %-13s %6u %11.3f %11.3f %10.1f %4.0f/%-4.0f  %s:%d:%d\n",
                name ? name + 1 : c->op, (unsigned long long)o->runs, c->bytes * 1e-6, c->algorithm, c->group_size,
                (double)c->time_ps * 1e-6, (double)o->exposed_ps * 1e-6, c->busbw_gbps, 100 * c->link_util_mean,
                100 * c->link_util_max, c->file, c->line, c->col);
    }
    fprintf(f, "  (links %%: mean/max utilisation of the links a collective uses, over its time)\n");
}

/* Every simulated chip's time and the system's (the slowest chip); or, for an
 * SPMD plan simulated on one representative chip, the system it stands for. */
static void write_system(const struct rep_run *r, FILE *f)
{
    bool ranks = r->ranks_per_chip > 1;
    if (r->n_chips > 1) {
        fprintf(f, "%5s%s %14s %14s %14s %14s %14s\n", ranks ? "rank" : "chip", ranks ? "  chip" : "", "total us",
                "kernels us", "gaps us", "collect. us", "exposed us");
        for (int c = 0; c < r->n_chips; c++) {
            const struct rep_chip *ch = &r->chips[c];
            fprintf(f, "%5d", c);
            if (ranks) fprintf(f, " %5u", (unsigned)c / r->ranks_per_chip);
            fprintf(f, " %14.3f %14.3f %14.3f %14.3f %14.3f\n", (double)ch->total_ps * 1e-6,
                    (double)ch->kernel_ps * 1e-6, (double)ch->dispatch_ps * 1e-6, (double)ch->collective_ps * 1e-6,
                    (double)ch->collective_exposed_ps * 1e-6);
        }
        if (ranks)
            fprintf(f, "system: %.3f us (the slowest of %d ranks on %d chip%s)\n", (double)r->system_ps * 1e-6,
                    r->n_chips, r->system_chips, r->system_chips == 1 ? "" : "s");
        else
            fprintf(f, "system: %.3f us (the slowest of %d chips)\n", (double)r->system_ps * 1e-6, r->n_chips);
    } else if (r->partitions > 1 && ranks) {
        fprintf(f,
                "system: %.3f us: %d ranks on %d chip%s (%u per chip), 1 simulated (the representative partition), "
                "%d inferred by SPMD symmetry; collectives on %s\n",
                (double)r->total_ps * 1e-6, r->partitions, r->system_chips, r->system_chips == 1 ? "" : "s",
                r->ranks_per_chip, r->partitions - 1,
                r->topology ? r->topology : "the chip's default slice");
    } else if (r->partitions > 1) {
        fprintf(f,
                "system: %.3f us: %d chips, 1 simulated (the representative partition), %d inferred by SPMD "
                "symmetry; collectives on %s\n",
                (double)r->total_ps * 1e-6, r->partitions, r->partitions - 1,
                r->topology ? r->topology : "the chip's default slice");
    }
}

void rep_run_write_text_checks(const struct rep_run *r, FILE *f)
{
    for (int i = 0; i < r->n_output_checks; i++) {
        const struct rep_output_check *o = &r->output_checks[i];
        const struct rt_compare *cmp = &o->cmp;
        if (cmp->tol.exact) {
            fprintf(f, "check output %d tensor<%s>: %s (exact)", o->output, o->type, cmp->passed ? "ok" : "MISMATCH");
            if (!cmp->passed)
                fprintf(f, ": %lld elements differ, e.g. [%lld] %.17g vs %.17g", (long long)cmp->n_bad,
                        (long long)cmp->worst, cmp->got_at_worst, cmp->want_at_worst);
            fprintf(f, "\n");
        } else {
            fprintf(f,
                    "check output %d tensor<%s>: %s: worst error %.3g of its bound at [%lld] (%.9g vs %.9g), max "
                    "|err| %.3g, bound %.3g + %.3g |want|%s\n",
                    o->output, o->type, cmp->passed ? "ok" : "MISMATCH", cmp->worst_ratio, (long long)cmp->worst,
                    cmp->got_at_worst, cmp->want_at_worst, cmp->max_abs_err, cmp->tol.atol, cmp->tol.rtol,
                    cmp->passed ? "" : " (elements out of bound)");
            if (cmp->n_bad)
                fprintf(f, "  %lld elements out of bound (%lld allowed, by at most 4x: docs/compiler.md)\n",
                        (long long)cmp->n_bad, (long long)cmp->n_allowed);
        }
    }
}

void rep_run_write_text(const struct rep_run *r, FILE *f)
{
    write_summary(r, f);
    write_kernels(r, f);
    write_collectives(r, f);
    write_system(r, f);
    rep_run_write_text_checks(r, f);
}
