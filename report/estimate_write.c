/* The estimator's table, JSON and CSV (report/estimate.h; every key and
 * column: docs/estimate.md). */
#include "report/estimate.h"
#include "report/rep_internal.h"

#include <math.h>
#include <string.h>

/* "1.23 s", "45.6 ms", "789 us" */
static void fmt_time(char *buf, size_t cap, double s)
{
    if (s >= 1) snprintf(buf, cap, "%.3f s", s);
    else if (s >= 1e-3) snprintf(buf, cap, "%.3f ms", s * 1e3);
    else snprintf(buf, cap, "%.1f us", s * 1e6);
}

/* "1.23 M", "456 k", "78.9" */
static void fmt_count(char *buf, size_t cap, double v)
{
    if (v >= 1e9) snprintf(buf, cap, "%.3g G", v * 1e-9);
    else if (v >= 1e6) snprintf(buf, cap, "%.3g M", v * 1e-6);
    else if (v >= 1e4) snprintf(buf, cap, "%.3g k", v * 1e-3);
    else if (v >= 100) snprintf(buf, cap, "%.0f", v);
    else snprintf(buf, cap, "%.3g", v);
}

static void fmt_usd(char *buf, size_t cap, double v)
{
    if (v >= 100) snprintf(buf, cap, "%.0f", v);
    else if (v >= 1) snprintf(buf, cap, "%.2f", v);
    else snprintf(buf, cap, "%.3g", v);
}

static void write_notes(const struct rep_compare_row *r, FILE *f)
{
    char sys[300];
    snprintf(sys, sizeof sys, "%s x%u", r->chip, r->chips);
    if (!r->ok) {
        fprintf(f, "  %s: %s\n", sys, r->error[0] ? r->error : "no figures");
        if (!r->mem.modelled) return;
    }
    const struct rep_memory *m = &r->mem;
    if (m->modelled)
        fprintf(f,
                "  %s: memory per chip: weights %.2f GB, optimizer %.2f, gradients %.2f, activations %.2f, KV cache "
                "%.2f = %.2f GB of %.2f (%s)",
                sys, m->weights * 1e-9, m->optimizer * 1e-9, m->gradients * 1e-9, m->activations * 1e-9,
                m->kv_cache * 1e-9, m->total * 1e-9, m->capacity * 1e-9, m->fits ? "fits" : "does not fit");
    else
        fprintf(f, "  %s: memory per chip: the plan's buffers, the step's state donated: %.2f GB of %.2f (%s)", sys,
                m->total * 1e-9, m->capacity * 1e-9, m->fits ? "fits" : "does not fit");
    if (r->ok && m->modelled)
        fprintf(f, "; the simulated plan: %.2f GB, %.2f donated\n", m->plan_bytes * 1e-9, m->plan_donated_bytes * 1e-9);
    else if (r->ok)
        fprintf(f, "; without donation %.2f GB\n", m->plan_bytes * 1e-9);
    else
        fprintf(f, "\n");
    if (!r->ok) return;
    if (r->layout_searched)
        fprintf(f, "  %s: layout %s chosen of %u considered, %u fit, %u simulated\n", sys, r->layout,
                r->layouts_considered, r->layouts_fit, r->layouts_simulated);
    char a[32], b[32], c[32], d[32];
    fmt_time(a, sizeof a, (double)r->kernel_ps * 1e-12);
    fmt_time(b, sizeof b, (double)r->dispatch_ps * 1e-12);
    fmt_time(c, sizeof c, (double)r->collective_exposed_ps * 1e-12);
    fmt_time(d, sizeof d, (double)r->collective_ps * 1e-12);
    fprintf(f, "  %s: step = kernels %s + launch gaps %s + exposed collectives %s (of %s)", sys, a, b, c, d);
    if (r->host_ps) {
        fmt_time(a, sizeof a, (double)r->host_ps * 1e-12);
        fprintf(f, " + host fallback %s", a);
    }
    if (r->loop_trips_reused)
        fprintf(f, "; loops: %llu trips simulated, %llu reused", (unsigned long long)r->loop_trips_simulated,
                (unsigned long long)r->loop_trips_reused);
    fprintf(f, "\n");
    if (r->thr.has_price)
        fprintf(f, "  %s: $%.4g per chip-hour: %s%s\n", sys, r->thr.usd_per_chip_hour, r->thr.price_basis,
                r->thr.price_is_estimate ? " (not a list price)" : "");
    else
        fprintf(f, "  %s: no price: give --price %s=USD_PER_CHIP_HOUR\n", sys, r->chip);
}

void rep_estimate_write_text(const struct rep_estimate *e, FILE *f)
{
    fprintf(f, "npusim estimate: %s", e->model);
    if (e->params_total > 0)
        fprintf(f, " (%.4g B parameters%s)", e->params_total * 1e-9,
                e->params_active > 0 && e->params_active < e->params_total ? ", fewer active" : "");
    if (!strcmp(e->workload, "decode"))
        fprintf(f, ", %s: batch %lld against a KV cache of %lld = %.0f tokens per step\n", e->workload,
                (long long)e->batch, (long long)e->seq, e->tokens_per_step);
    else
        fprintf(f, ", %s: batch %lld x seq %lld = %.0f tokens per step%s\n", e->workload, (long long)e->batch,
                (long long)e->seq, e->tokens_per_step, !strcmp(e->source, "graph") ? " (one run of the graph)" : "");
    fprintf(f, "\n%-18s %-22s %11s %9s %10s %6s %9s %5s %11s %8s %10s %9s\n", "system", "layout", "step", "tok/s",
            "tok/s/chip", "MFU", "mem/chip", "fits", "exposed com", "$/chip-h", "$/step", "$/1M tok");
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        char sys[64], step[32], tps[32], tpc[32], exp[32], usd[32], ustep[32], umt[32], mem[32];
        snprintf(sys, sizeof sys, "%.40s x%u", r->chip, r->chips);
        if (!r->ok) {
            fprintf(f, "%-18s %-22.22s %11s %9s %10s %6s %9s %5s %11s %8s %10s %9s\n", sys, r->layout[0] ? r->layout : "-",
                    "-", "-", "-", "-", "-", r->mem.modelled ? (r->mem.fits ? "yes" : "no") : "-", "-", "-", "-", "-");
            continue;
        }
        fmt_time(step, sizeof step, r->thr.step_s);
        fmt_count(tps, sizeof tps, r->thr.tokens_per_s);
        fmt_count(tpc, sizeof tpc, r->thr.tokens_per_s_per_chip);
        fmt_time(exp, sizeof exp, (double)r->collective_exposed_ps * 1e-12);
        snprintf(mem, sizeof mem, "%.2f GB", r->mem.total * 1e-9);
        if (r->thr.has_price) {
            fmt_usd(usd, sizeof usd, r->thr.usd_per_chip_hour);
            snprintf(usd + strlen(usd), sizeof usd - strlen(usd), "%s", r->thr.price_is_estimate ? "*" : "");
            fmt_usd(ustep, sizeof ustep, r->thr.usd_per_step);
            fmt_usd(umt, sizeof umt, r->thr.usd_per_mtok);
        } else {
            snprintf(usd, sizeof usd, "no price");
            snprintf(ustep, sizeof ustep, "-");
            snprintf(umt, sizeof umt, "-");
        }
        fprintf(f, "%-18s %-22.22s %11s %9s %10s %5.1f%% %9s %5s %11s %8s %10s %9s\n", sys, r->layout, step, tps, tpc,
                100.0 * r->mfu, mem, r->mem.fits ? "yes" : "NO", exp, usd, ustep, umt);
    }
    fprintf(f, "\n");
    for (uint32_t i = 0; i < e->n_rows; i++) write_notes(&e->rows[i], f);
    bool est = false;
    for (uint32_t i = 0; i < e->n_rows; i++) est |= e->rows[i].ok && e->rows[i].thr.price_is_estimate;
    if (est) fprintf(f, "* the price is not a list price (chips/prices.tsv status: unconfirmed, estimate, ...)\n");
}

/* A number, or null when absent. */
static void num_or_null(FILE *f, bool have, double v)
{
    if (have && isfinite(v)) fprintf(f, "%.17g", v);
    else fprintf(f, "null");
}

void rep_estimate_write_json(const struct rep_estimate *e, FILE *f)
{
    fprintf(f, "{\"model\": ");
    rep_json_str(f, e->model);
    fprintf(f, ", \"source\": ");
    rep_json_str(f, e->source);
    fprintf(f, ", \"workload\": ");
    rep_json_str(f, e->workload);
    fprintf(f, ", \"batch\": %lld, \"seq\": %lld, \"tokens_per_step\": %.17g, \"params_total\": ", (long long)e->batch,
            (long long)e->seq, e->tokens_per_step);
    num_or_null(f, e->params_total > 0, e->params_total);
    fprintf(f, ", \"params_active\": ");
    num_or_null(f, e->params_active > 0, e->params_active);
    fprintf(f, ",\n \"systems\": [");
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        const struct rep_memory *m = &r->mem;
        fprintf(f, "%s\n  {\"kind\": ", i ? "," : "");
        rep_json_str(f, r->kind);
        fprintf(f, ", \"chip\": ");
        rep_json_str(f, r->chip);
        fprintf(f, ", \"chips\": %u, \"mode\": ", r->chips);
        rep_json_str(f, r->mode);
        fprintf(f, ", \"layout\": ");
        rep_json_str(f, r->layout);
        fprintf(f,
                ", \"dp\": %d, \"fsdp\": %d, \"tp\": %d, \"sp\": %d, \"ep\": %d, \"pp\": %d, \"microbatches\": %d,\n"
                "   \"layout_searched\": %s, \"layouts_considered\": %u, \"layouts_fit\": %u, \"layouts_simulated\": "
                "%u, \"ok\": %s, \"error\": ",
                r->dp, r->fsdp, r->tp, r->sp, r->ep, r->pp, r->microbatches, r->layout_searched ? "true" : "false",
                r->layouts_considered, r->layouts_fit, r->layouts_simulated, r->ok ? "true" : "false");
        if (r->error[0]) rep_json_str(f, r->error);
        else fprintf(f, "null");
        fprintf(f, ",\n   \"step_ps\": ");
        num_or_null(f, r->ok, (double)r->step_ps);
        fprintf(f, ", \"step_s\": ");
        num_or_null(f, r->ok, r->thr.step_s);
        fprintf(f, ", \"kernel_ps\": ");
        num_or_null(f, r->ok, (double)r->kernel_ps);
        fprintf(f, ", \"dispatch_ps\": ");
        num_or_null(f, r->ok, (double)r->dispatch_ps);
        fprintf(f, ", \"collective_ps\": ");
        num_or_null(f, r->ok, (double)r->collective_ps);
        fprintf(f, ", \"collective_exposed_ps\": ");
        num_or_null(f, r->ok, (double)r->collective_exposed_ps);
        fprintf(f, ", \"host_ps\": ");
        num_or_null(f, r->ok, (double)r->host_ps);
        fprintf(f, ",\n   \"tokens_per_step\": %.17g, \"tokens_per_s\": ", r->thr.tokens_per_step);
        num_or_null(f, r->ok, r->thr.tokens_per_s);
        fprintf(f, ", \"tokens_per_s_per_chip\": ");
        num_or_null(f, r->ok, r->thr.tokens_per_s_per_chip);
        fprintf(f, ", \"model_flops\": ");
        num_or_null(f, r->ok, r->model_flops);
        fprintf(f, ", \"peak_flops\": ");
        num_or_null(f, r->ok, r->peak_flops);
        fprintf(f, ", \"mfu\": ");
        num_or_null(f, r->ok, r->mfu);
        fprintf(f, ",\n   \"memory\": {\"modelled\": %s, \"weights_bytes\": ", m->modelled ? "true" : "false");
        num_or_null(f, m->modelled, m->weights);
        fprintf(f, ", \"optimizer_bytes\": ");
        num_or_null(f, m->modelled, m->optimizer);
        fprintf(f, ", \"gradients_bytes\": ");
        num_or_null(f, m->modelled, m->gradients);
        fprintf(f, ", \"activations_bytes\": ");
        num_or_null(f, m->modelled, m->activations);
        fprintf(f, ", \"kv_cache_bytes\": ");
        num_or_null(f, m->modelled, m->kv_cache);
        fprintf(f, ", \"total_bytes\": ");
        num_or_null(f, m->modelled || r->ok, m->total);
        fprintf(f, ", \"plan_bytes\": ");
        num_or_null(f, r->ok, m->plan_bytes);
        fprintf(f, ", \"plan_donated_bytes\": ");
        num_or_null(f, r->ok, m->plan_donated_bytes);
        fprintf(f, ", \"capacity_bytes\": ");
        num_or_null(f, m->capacity > 0, m->capacity);
        fprintf(f, ", \"fits\": %s},\n   \"usd_per_chip_hour\": ", m->fits ? "true" : "false");
        num_or_null(f, r->thr.has_price, r->thr.usd_per_chip_hour);
        fprintf(f, ", \"price_basis\": ");
        if (r->thr.has_price) rep_json_str(f, r->thr.price_basis);
        else fprintf(f, "null");
        fprintf(f, ", \"price_is_estimate\": %s, \"usd_per_step\": ", r->thr.price_is_estimate ? "true" : "false");
        num_or_null(f, r->ok && r->thr.has_price, r->thr.usd_per_step);
        fprintf(f, ", \"usd_per_mtok\": ");
        num_or_null(f, r->ok && r->thr.has_price, r->thr.usd_per_mtok);
        fprintf(f, ",\n   \"loop_trips_simulated\": %llu, \"loop_trips_reused\": %llu, \"recompiles\": ",
                (unsigned long long)r->loop_trips_simulated, (unsigned long long)r->loop_trips_reused);
        num_or_null(f, r->has_recompiles, r->recompiles);
        fprintf(f, ", \"recompile_s\": ");
        num_or_null(f, r->has_recompiles, r->recompile_s);
        fprintf(f, "}");
    }
    fprintf(f, "\n ],\n \"modes\": []}\n");
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, bool have, double v)
{
    fputc(',', f);
    if (have && isfinite(v)) fprintf(f, "%.17g", v);
}

#define REP_CSV_COLUMNS                                                                                               \
    "model,source,workload,batch,seq,kind,chip,chips,mode,layout,dp,fsdp,tp,sp,ep,pp,microbatches,layout_searched,"    \
    "ok,error,step_s,kernel_s,dispatch_s,collective_s,collective_exposed_s,host_s,tokens_per_step,tokens_per_s,"       \
    "tokens_per_s_per_chip,model_flops,peak_flops,mfu,mem_modelled,mem_weights_bytes,mem_optimizer_bytes,"             \
    "mem_gradients_bytes,mem_activations_bytes,mem_kv_cache_bytes,mem_total_bytes,mem_plan_bytes,"                     \
    "mem_plan_donated_bytes,hbm_capacity_bytes,fits,usd_per_chip_hour,price_basis,price_is_estimate,usd_per_step,"     \
    "usd_per_mtok,loop_trips_simulated,loop_trips_reused,recompiles,recompile_s"

void rep_estimate_write_csv(const struct rep_estimate *e, FILE *f)
{
    fprintf(f, "%s\n", REP_CSV_COLUMNS);
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        const struct rep_memory *m = &r->mem;
        csv_str(f, e->model);
        fprintf(f, ",%s,%s,%lld,%lld,%s,", e->source, e->workload, (long long)e->batch, (long long)e->seq, r->kind);
        csv_str(f, r->chip);
        fprintf(f, ",%u,%s,", r->chips, r->mode);
        csv_str(f, r->layout);
        fprintf(f, ",%d,%d,%d,%d,%d,%d,%d,%s,%s,", r->dp, r->fsdp, r->tp, r->sp, r->ep, r->pp, r->microbatches,
                r->layout_searched ? "true" : "false", r->ok ? "true" : "false");
        csv_str(f, r->error);
        csv_num(f, r->ok, r->thr.step_s);
        csv_num(f, r->ok, (double)r->kernel_ps * 1e-12);
        csv_num(f, r->ok, (double)r->dispatch_ps * 1e-12);
        csv_num(f, r->ok, (double)r->collective_ps * 1e-12);
        csv_num(f, r->ok, (double)r->collective_exposed_ps * 1e-12);
        csv_num(f, r->ok, (double)r->host_ps * 1e-12);
        csv_num(f, true, r->thr.tokens_per_step);
        csv_num(f, r->ok, r->thr.tokens_per_s);
        csv_num(f, r->ok, r->thr.tokens_per_s_per_chip);
        csv_num(f, r->ok, r->model_flops);
        csv_num(f, r->ok, r->peak_flops);
        csv_num(f, r->ok, r->mfu);
        fprintf(f, ",%s", m->modelled ? "true" : "false");
        csv_num(f, m->modelled, m->weights);
        csv_num(f, m->modelled, m->optimizer);
        csv_num(f, m->modelled, m->gradients);
        csv_num(f, m->modelled, m->activations);
        csv_num(f, m->modelled, m->kv_cache);
        csv_num(f, m->modelled || r->ok, m->total);
        csv_num(f, r->ok, m->plan_bytes);
        csv_num(f, r->ok, m->plan_donated_bytes);
        csv_num(f, m->capacity > 0, m->capacity);
        fprintf(f, ",%s", m->fits ? "true" : "false");
        csv_num(f, r->thr.has_price, r->thr.usd_per_chip_hour);
        fputc(',', f);
        csv_str(f, r->thr.has_price ? r->thr.price_basis : "");
        fprintf(f, ",%s", r->thr.price_is_estimate ? "true" : "false");
        csv_num(f, r->ok && r->thr.has_price, r->thr.usd_per_step);
        csv_num(f, r->ok && r->thr.has_price, r->thr.usd_per_mtok);
        fprintf(f, ",%llu,%llu", (unsigned long long)r->loop_trips_simulated, (unsigned long long)r->loop_trips_reused);
        csv_num(f, r->has_recompiles, r->recompiles);
        csv_num(f, r->has_recompiles, r->recompile_s);
        fputc('\n', f);
    }
}
