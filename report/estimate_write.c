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

static void write_modes(const struct rep_estimate *e, FILE *f)
{
    if (!e->n_modes) return;
    fprintf(f, "\nexecution modes (each system at the layout above; dispatch = host dispatch and launch gaps):\n");
    fprintf(f, "%-18s %-12s %11s %11s %11s %9s %9s %9s %9s\n", "system", "mode", "step", "kernels", "dispatch",
            "launches", "tok/s", "$/1M tok", "vs eager");
    for (uint32_t i = 0; i < e->n_modes; i++) {
        const struct rep_mode_row *m = &e->modes[i];
        char sys[64], a[32], b[32], c[32], t[32], u[32], v[32];
        snprintf(sys, sizeof sys, "%.40s x%u", m->chip, m->chips);
        if (!m->ok) {
            fprintf(f, "%-18s %-12s %.120s\n", sys, m->mode, m->error);
            continue;
        }
        fmt_time(a, sizeof a, (double)m->step_ps * 1e-12);
        fmt_time(b, sizeof b, (double)m->kernel_ps * 1e-12);
        fmt_time(c, sizeof c, (double)m->dispatch_ps * 1e-12);
        fmt_count(t, sizeof t, m->tokens_per_s);
        if (m->usd_per_mtok > 0) fmt_usd(u, sizeof u, m->usd_per_mtok);
        else snprintf(u, sizeof u, "-");
        if (m->speedup_vs_eager > 0) snprintf(v, sizeof v, "%.2fx", m->speedup_vs_eager);
        else snprintf(v, sizeof v, "-");
        fprintf(f, "%-18s %-12s %11s %11s %11s %9llu %9s %9s %9s\n", sys, m->mode, a, b, c,
                (unsigned long long)m->launches, t, u, v);
    }
}

static void write_bucketing(FILE *f, const char *sys, const char *policy, const struct rep_bucketing *b, double usd_s)
{
    char cs[32], rs[32], fc[32], tot[32], lost[32];
    fmt_time(cs, sizeof cs, b->compile_s);
    fmt_time(rs, sizeof rs, b->run_s);
    fmt_time(fc, sizeof fc, b->first_call_s);
    double all = b->real_tokens + b->pad_tokens;
    if (usd_s > 0) {
        fmt_usd(tot, sizeof tot, b->total_s * usd_s);
        fmt_usd(lost, sizeof lost, (b->compile_s + b->run_s - b->exact_run_s) * usd_s);
    } else {
        snprintf(tot, sizeof tot, "-");
        snprintf(lost, sizeof lost, "-");
    }
    fprintf(f, "%-18s %-8s %8d %8u %11.0f %7.1f%% %11s %11s %11s %9s %9s\n", sys, policy, b->n_buckets, b->compiles,
            b->cache_hits, all > 0 ? 100.0 * b->pad_tokens / all : 0.0, cs, rs, fc, tot, lost);
}

static void write_recompiles(const struct rep_estimate *e, FILE *f)
{
    if (!e->recompiles) return;
    fprintf(f, "\ndynamic shapes (--seq-lengths %s): a step at length L costs the step above x L / %lld; a compile "
               "costs the chip's time per graph op x the step's graph ops; $ lost = compiles + padding:\n",
            e->seq_lengths, (long long)e->seq);
    fprintf(f, "%-18s %-8s %8s %8s %11s %8s %11s %11s %11s %9s %9s\n", "system", "policy", "buckets", "compiles",
            "cache hits", "padding", "compile", "run", "first call", "$ total", "$ lost");
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        const struct rep_recompile *rc = &e->recompiles[i];
        char sys[64];
        snprintf(sys, sizeof sys, "%.40s x%u", r->chip, r->chips);
        if (!r->has_recompiles) {
            fprintf(f, "%-18s (no figures: the system was not simulated, or its chip file gives no compile time)\n",
                    sys);
            continue;
        }
        write_bucketing(f, sys, "exact", &rc->exact, rc->usd_per_s);
        write_bucketing(f, sys, "pow2", &rc->pow2, rc->usd_per_s);
        write_bucketing(f, sys, "optimal", &rc->optimal, rc->usd_per_s);
    }
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        const struct rep_recompile *rc = &e->recompiles[i];
        if (!r->has_recompiles) continue;
        char cs[32];
        fmt_time(cs, sizeof cs, rc->cost.compile_s);
        fprintf(f, "  %s x%u: %d requests, %d distinct lengths (longest %lld); a compile %s (%llu graph ops); optimal "
                   "buckets (align %lld):",
                r->chip, r->chips, rc->samples, rc->distinct, (long long)rc->longest, cs,
                (unsigned long long)r->graph_ops, (long long)e->bucket_align);
        for (int b = 0; b < rc->optimal.n_buckets && b < REP_BUCKETS_MAX; b++)
            fprintf(f, "%s%lld", b ? ", " : " ", (long long)rc->optimal.bounds[b]);
        if (rc->usd_per_s > 0)
            fprintf(f, "; they save $%.4g against powers of two, $%.4g against a shape per length",
                    (rc->pow2.total_s - rc->optimal.total_s) * rc->usd_per_s,
                    (rc->exact.total_s - rc->optimal.total_s) * rc->usd_per_s);
        fprintf(f, "\n");
    }
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
    write_modes(e, f);
    write_recompiles(e, f);
}

/* A number, or null when absent. */
static void num_or_null(FILE *f, bool have, double v)
{
    if (have && isfinite(v)) fprintf(f, "%.17g", v);
    else fprintf(f, "null");
}

static void json_bucketing(FILE *f, const char *key, const struct rep_bucketing *b, double usd_s)
{
    fprintf(f, "\"%s\": {\"buckets\": [", key);
    for (int k = 0; k < b->n_buckets && k < REP_BUCKETS_MAX; k++) fprintf(f, "%s%lld", k ? ", " : "", (long long)b->bounds[k]);
    fprintf(f, "], \"n_buckets\": %d, \"compiles\": %u, \"steps\": %.17g, \"cache_hits\": %.17g, \"real_tokens\": %.17g, "
               "\"pad_tokens\": %.17g, \"compile_s\": %.17g, \"run_s\": %.17g, \"run_s_unpadded\": %.17g, "
               "\"total_s\": %.17g, \"first_call_s\": %.17g, \"usd_total\": ",
            b->n_buckets, b->compiles, b->steps, b->cache_hits, b->real_tokens, b->pad_tokens, b->compile_s, b->run_s,
            b->exact_run_s, b->total_s, b->first_call_s);
    num_or_null(f, usd_s > 0, b->total_s * usd_s);
    fprintf(f, ", \"usd_lost_compiles\": ");
    num_or_null(f, usd_s > 0, b->compile_s * usd_s);
    fprintf(f, ", \"usd_lost_padding\": ");
    num_or_null(f, usd_s > 0, (b->run_s - b->exact_run_s) * usd_s);
    fprintf(f, "}");
}

static void json_extras(const struct rep_estimate *e, FILE *f)
{
    fprintf(f, "\n ],\n \"modes\": [");
    for (uint32_t i = 0; i < e->n_modes; i++) {
        const struct rep_mode_row *m = &e->modes[i];
        fprintf(f, "%s\n  {\"chip\": ", i ? "," : "");
        rep_json_str(f, m->chip);
        fprintf(f, ", \"chips\": %u, \"layout\": ", m->chips);
        rep_json_str(f, m->layout);
        fprintf(f, ", \"mode\": ");
        rep_json_str(f, m->mode);
        fprintf(f, ", \"ok\": %s, \"error\": ", m->ok ? "true" : "false");
        if (m->error[0]) rep_json_str(f, m->error);
        else fprintf(f, "null");
        fprintf(f, ", \"step_ps\": ");
        num_or_null(f, m->ok, (double)m->step_ps);
        fprintf(f, ", \"kernel_ps\": ");
        num_or_null(f, m->ok, (double)m->kernel_ps);
        fprintf(f, ", \"dispatch_ps\": ");
        num_or_null(f, m->ok, (double)m->dispatch_ps);
        fprintf(f, ", \"launches\": ");
        num_or_null(f, m->ok, (double)m->launches);
        fprintf(f, ", \"tokens_per_s\": ");
        num_or_null(f, m->ok, m->tokens_per_s);
        fprintf(f, ", \"usd_per_mtok\": ");
        num_or_null(f, m->ok && m->usd_per_mtok > 0, m->usd_per_mtok);
        fprintf(f, ", \"speedup_vs_eager\": ");
        num_or_null(f, m->ok && m->speedup_vs_eager > 0, m->speedup_vs_eager);
        fprintf(f, "}");
    }
    fprintf(f, "],\n \"seq_lengths\": ");
    if (!e->recompiles) {
        fprintf(f, "null}\n");
        return;
    }
    rep_json_str(f, e->seq_lengths);
    fprintf(f, ", \"bucket_align\": %lld, \"recompiles\": [", (long long)e->bucket_align);
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        const struct rep_recompile *rc = &e->recompiles[i];
        fprintf(f, "%s\n  {\"chip\": ", i ? "," : "");
        rep_json_str(f, r->chip);
        fprintf(f, ", \"chips\": %u, \"ok\": %s", r->chips, r->has_recompiles ? "true" : "false");
        if (r->has_recompiles) {
            fprintf(f, ", \"samples\": %d, \"distinct_lengths\": %d, \"longest\": %lld, \"graph_ops\": %llu, "
                       "\"compile_s_per_shape\": %.17g, \"step_s_per_token\": %.17g, \"usd_per_s\": ",
                    rc->samples, rc->distinct, (long long)rc->longest, (unsigned long long)r->graph_ops,
                    rc->cost.compile_s, rc->cost.step_s_per_token);
            num_or_null(f, rc->usd_per_s > 0, rc->usd_per_s);
            fprintf(f, ",\n   ");
            json_bucketing(f, "exact", &rc->exact, rc->usd_per_s);
            fprintf(f, ",\n   ");
            json_bucketing(f, "pow2", &rc->pow2, rc->usd_per_s);
            fprintf(f, ",\n   ");
            json_bucketing(f, "optimal", &rc->optimal, rc->usd_per_s);
        }
        fprintf(f, "}");
    }
    fprintf(f, "]}\n");
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
        fprintf(f, ", \"launches\": ");
        num_or_null(f, r->ok, (double)r->launches);
        fprintf(f, ", \"graph_ops\": ");
        num_or_null(f, r->ok, (double)r->graph_ops);
        fprintf(f, "}");
    }
    json_extras(e, f);
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
    "usd_per_mtok,loop_trips_simulated,loop_trips_reused,recompiles,recompile_s,launches,graph_ops,"                  \
    "step_s_compiled,step_s_fused_eager,step_s_eager,distinct_lengths,compile_s_per_shape,buckets,pad_fraction,"      \
    "usd_lost_compiles,usd_lost_padding,usd_saved_vs_pow2"

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
        csv_num(f, r->ok, (double)r->launches);
        csv_num(f, r->ok, (double)r->graph_ops);
        static const char *const mode_names[] = {"compiled", "fused-eager", "eager"};
        for (int k = 0; k < 3; k++) {
            const struct rep_mode_row *hit = NULL;
            for (uint32_t j = 0; j < e->n_modes; j++)
                if (e->modes[j].ok && e->modes[j].chips == r->chips && !strcmp(e->modes[j].chip, r->chip) &&
                    !strcmp(e->modes[j].mode, mode_names[k]))
                    hit = &e->modes[j];
            csv_num(f, hit != NULL, hit ? (double)hit->step_ps * 1e-12 : 0);
        }
        const struct rep_recompile *rc = e->recompiles && r->has_recompiles ? &e->recompiles[i] : NULL;
        const struct rep_bucketing *o = rc ? &rc->optimal : NULL;
        double all = o ? o->real_tokens + o->pad_tokens : 0;
        bool usd = rc && rc->usd_per_s > 0;
        csv_num(f, rc != NULL, rc ? rc->distinct : 0);
        csv_num(f, rc != NULL, rc ? rc->cost.compile_s : 0);
        fputc(',', f);
        for (int b = 0; o && b < o->n_buckets && b < REP_BUCKETS_MAX; b++) fprintf(f, "%s%lld", b ? " " : "", (long long)o->bounds[b]);
        csv_num(f, rc != NULL && all > 0, all > 0 ? o->pad_tokens / all : 0);
        csv_num(f, usd, usd ? o->compile_s * rc->usd_per_s : 0);
        csv_num(f, usd, usd ? (o->run_s - o->exact_run_s) * rc->usd_per_s : 0);
        csv_num(f, usd, usd ? (rc->pow2.total_s - o->total_s) * rc->usd_per_s : 0);
        fputc('\n', f);
    }
}
