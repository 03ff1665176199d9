/* A progress line on stderr for long runs (tools/tools.h): after 2 s, when
 * stderr is a terminal and --quiet was not given, one line rewritten in
 * place at most 4 times a second:
 *
 *   npusim: simulate  12.3 s | ops compiled 812/1278 | kernels simulated 3071 | simulated 12.41 ms | ETA 7 s
 *
 * Wall time appears only here and in the tools' own timing lines
 * (CONVENTIONS.md): it never reaches a result. */
#include "tools/tools.h"

#include "compiler/compiler.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_AFTER_S 2.0
#define PROGRESS_EVERY_S 0.25

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void tool_progress_init(struct tool_progress *p, FILE *f, bool quiet)
{
    memset(p, 0, sizeof *p);
    p->out = f;
    p->enabled = !quiet && f && isatty(fileno(f));
    p->t0 = now_s();
    p->phase = "start";
}

/* "7 s", "2 min 5 s", "1 h 3 min" */
static void fmt_secs(double s, char *buf, size_t cap)
{
    if (s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t < 120) snprintf(buf, cap, "%ld s", t);
    else if (t < 7200) snprintf(buf, cap, "%ld min %ld s", t / 60, t % 60);
    else snprintf(buf, cap, "%ld h %ld min", t / 3600, (t / 60) % 60);
}

size_t tool_progress_format(const struct tool_progress_state *s, char *buf, size_t cap)
{
    char el[32], eta[32];
    fmt_secs(s->elapsed_s, el, sizeof el);
    size_t n = (size_t)snprintf(buf, cap, "npusim: %s %s", s->phase ? s->phase : "?", el);
#define ADD(...)                                                                     \
    do {                                                                             \
        if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__);          \
    } while (0)
    if (s->ops_interpreted) ADD(" | ops interpreted %llu", (unsigned long long)s->ops_interpreted);
    if (s->ops_total) ADD(" | ops compiled %llu/%llu", (unsigned long long)s->ops_compiled, (unsigned long long)s->ops_total);
    if (s->launches) ADD(" | kernels simulated %llu", (unsigned long long)s->launches);
    if (s->sim_ps) {
        double us = (double)s->sim_ps * 1e-6;
        if (us < 1000) ADD(" | simulated %.1f us", us);
        else if (us < 1e6) ADD(" | simulated %.2f ms", us * 1e-3);
        else ADD(" | simulated %.3f s", us * 1e-6);
    }
    /* ETA from the share done so far, when there is one to go by */
    if (s->expected > 0 && s->done > 0 && s->done < s->expected && s->phase_elapsed_s > 0) {
        double rest = s->phase_elapsed_s * (double)(s->expected - s->done) / (double)s->done;
        fmt_secs(rest, eta, sizeof eta);
        ADD(" | ETA %s", eta);
    }
#undef ADD
    return n < cap ? n : cap - 1;
}

static void show(struct tool_progress *p, bool force)
{
    if (!p->enabled) return;
    double t = now_s();
    if (!force && (t - p->t0 < PROGRESS_AFTER_S || t - p->last_print < PROGRESS_EVERY_S)) return;
    p->last_print = t;
    struct tool_progress_state s = {
        .phase = p->phase,
        .elapsed_s = t - p->t0,
        .phase_elapsed_s = t - p->phase_t0,
        .ops_interpreted = atomic_load(&p->ops_interpreted),
        .ops_compiled = p->ops_compiled,
        .ops_total = p->ops_total,
        .launches = p->launches,
        .sim_ps = p->sim_ps,
        .expected = p->launches_expected,
        .done = p->launches,
    };
    if (!strcmp(p->phase, "interpret")) {
        s.expected = p->interp_ops_expected;
        s.done = s.ops_interpreted;
    }
    char line[256];
    tool_progress_format(&s, line, sizeof line);
    /* rewrite the line in place: carriage return, the text, clear to its end */
    fprintf(p->out, "\r%s\033[K", line);
    fflush(p->out);
    p->printed = true;
}

void tool_progress_phase(struct tool_progress *p, const char *phase)
{
    p->phase = phase;
    p->phase_t0 = now_s();
    show(p, false);
}

/* Kernels the plan will launch: each kernel step once, times the trip count
 * of every loop around it (a backward JUMP closes a loop; its BRANCH says
 * how many times the body runs when the compiler could tell). */
void tool_progress_plan(struct tool_progress *p, const struct cc_plan *plan)
{
    uint32_t n_kernels = cc_plan_n_kernels(plan);
    free(p->kernel_seen);
    p->kernel_seen = calloc((size_t)n_kernels + 1, 1);
    p->plan = plan;
    p->n_kernels = p->kernel_seen ? n_kernels : 0;
    p->ops_total = 0;
    for (uint32_t k = 0; k < p->n_kernels; k++) p->ops_total += (uint64_t)cc_plan_kernel_info(plan, k)->n_ops;
    uint32_t n = cc_plan_n_steps(plan);
    double *mult = calloc((size_t)n + 1, sizeof *mult);
    if (!mult) return;
    for (uint32_t i = 0; i < n; i++) mult[i] = 1;
    for (uint32_t j = 0; j < n; j++) {
        const struct cc_step *s = cc_plan_step(plan, j);
        if (s->kind != CC_STEP_JUMP || s->target > j) continue;
        int64_t trips = 1;
        for (uint32_t b = s->target; b < j; b++) {
            const struct cc_step *br = cc_plan_step(plan, b);
            if (br->kind == CC_STEP_BRANCH && br->target > j && br->trip_count > 0) {
                trips = br->trip_count;
                break;
            }
        }
        for (uint32_t b = s->target; b <= j; b++) mult[b] *= (double)trips;
    }
    double launches = 0, ops = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct cc_step *s = cc_plan_step(plan, i);
        if (s->kind != CC_STEP_KERNEL) continue;
        launches += mult[i];
        ops += mult[i] * cc_plan_kernel_info(plan, s->kernel)->n_ops;
    }
    free(mult);
    p->launches_expected = (uint64_t)launches;
    p->interp_ops_expected = (uint64_t)ops; /* the interpreter runs about the ops the kernels hold */
}

void tool_progress_launch(struct tool_progress *p, uint32_t kernel, uint64_t start_ps)
{
    p->launches++;
    p->sim_ps = start_ps;
    if (kernel < p->n_kernels && !p->kernel_seen[kernel]) { /* emitted at its first launch */
        p->kernel_seen[kernel] = 1;
        p->ops_compiled += (uint64_t)cc_plan_kernel_info(p->plan, kernel)->n_ops;
    }
    show(p, false);
}

void tool_progress_interp_op(void *user)
{
    struct tool_progress *p = user;
    atomic_fetch_add(&p->ops_interpreted, 1);
    show(p, false);
}

void tool_progress_done(struct tool_progress *p)
{
    if (p->printed && p->enabled) {
        fprintf(p->out, "\r\033[K"); /* the line goes: what follows starts clean */
        fflush(p->out);
    }
    p->printed = false;
}

void tool_progress_free(struct tool_progress *p)
{
    tool_progress_done(p);
    free(p->kernel_seen);
    p->kernel_seen = NULL;
}
