/* Summaries of a run's statistics, as text and as JSON, to a caller's stream. */
#include "sim/sim_internal.h"

void sim_stats_write_text(const struct sim_stats *st, FILE *f)
{
    fprintf(f, "total: %llu ps = %.3f us = %llu cycles at %g GHz\n", (unsigned long long)st->total_ps,
            (double)st->total_ps / 1e6, (unsigned long long)st->total_cycles, st->clock_ghz);
    fprintf(f, "instructions: %llu  flops: %llu  hbm: %llu bytes, %.1f GB/s achieved, busy %.1f%%\n",
            (unsigned long long)st->instructions, (unsigned long long)st->flops, (unsigned long long)st->hbm_bytes,
            st->hbm_gbps, 100.0 * st->hbm_busy_fraction);
    fprintf(f, "%-12s %14s %14s %14s %7s %12s %14s %16s\n", "engine", "busy_ps", "wait_ps", "idle_ps", "util",
            "instrs", "bytes", "flops");
    for (uint32_t i = 0; i < st->n_engines; i++) {
        const struct sim_engine_stats *e = &st->engines[i];
        if (!e->instructions) continue;
        char name[48];
        if (e->core)
            snprintf(name, sizeof name, "c%u.%s", e->core, e->name);
        else
            snprintf(name, sizeof name, "%s", e->name);
        fprintf(f, "%-12s %14llu %14llu %14llu %6.1f%% %12llu %14llu %16llu\n", name,
                (unsigned long long)e->busy_ps, (unsigned long long)e->wait_ps, (unsigned long long)e->idle_ps,
                100.0 * e->utilization, (unsigned long long)e->instructions, (unsigned long long)e->bytes,
                (unsigned long long)e->flops);
    }
}

void sim_stats_write_json(const struct sim_stats *st, const char *chip_name, FILE *f)
{
    fprintf(f,
            "{\"chip\": \"%s\", \"total_ps\": %llu, \"total_cycles\": %llu, \"clock_ghz\": %.17g, "
            "\"instructions\": %llu, \"flops\": %llu, \"hbm_bytes\": %llu, \"hbm_gbps\": %.17g, "
            "\"hbm_busy_fraction\": %.17g, \"events\": %llu, \"engines\": [",
            chip_name ? chip_name : "", (unsigned long long)st->total_ps, (unsigned long long)st->total_cycles,
            st->clock_ghz, (unsigned long long)st->instructions, (unsigned long long)st->flops,
            (unsigned long long)st->hbm_bytes, st->hbm_gbps, st->hbm_busy_fraction, (unsigned long long)st->events);
    for (uint32_t i = 0; i < st->n_engines; i++) {
        const struct sim_engine_stats *e = &st->engines[i];
        fprintf(f,
                "%s\n  {\"name\": \"%s\", \"core\": %u, \"kind\": \"%s\", \"busy_ps\": %llu, \"wait_ps\": %llu, "
                "\"idle_ps\": %llu, \"utilization\": %.17g, \"instructions\": %llu, \"bytes\": %llu, \"flops\": %llu, "
                "\"finish_ps\": %llu}",
                i ? "," : "", e->name, e->core, isa_engine_kind_name(e->kind), (unsigned long long)e->busy_ps,
                (unsigned long long)e->wait_ps, (unsigned long long)e->idle_ps, e->utilization,
                (unsigned long long)e->instructions, (unsigned long long)e->bytes, (unsigned long long)e->flops,
                (unsigned long long)e->finish_ps);
    }
    fprintf(f, "\n]}\n");
}
