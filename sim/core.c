/* The simulator's core: building the machine from a chip description,
 * loading programs, the per-engine in-order front ends (loops, semaphore
 * waits, signals), the run loop and deadlock detection.
 *
 * An engine's front end executes its stream one instruction at a time.
 * Each instruction's engine file (engine_*.c) computes its interval
 * [start, end], when its results are visible (its signal fires then) and
 * when the front end may take the next instruction.  While an engine's next
 * instruction is due strictly before any pending event, it runs inline
 * without going through the heap (same order, fewer heap operations). */
#include "sim/sim_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

struct sim_core *sim_core_of(struct sim_engine *e) { return &e->sim->cores[e->core]; }

void *sim_buf(struct sim *s, int which, size_t bytes)
{
    if (bytes == 0) bytes = 1;
    if (s->buf_cap[which] < bytes) {
        size_t cap = s->buf_cap[which] ? s->buf_cap[which] : 4096;
        while (cap < bytes) cap *= 2;
        free(s->buf[which]);
        s->buf[which] = aligned_alloc(64, (cap + 63) / 64 * 64);
        s->buf_cap[which] = s->buf[which] ? cap : 0;
    }
    return s->buf[which];
}

uint64_t sim_ceil_ratio(double num, double den)
{
    if (!(num > 0)) return 0;
    if (!(den > 0)) return UINT64_MAX / 4;
    double x = num / den;
    if (x >= 1e18) return UINT64_MAX / 4;
    uint64_t r = (uint64_t)x;
    if (x - (double)r > 1e-9) r++;
    return r;
}

void sim_ap_effective(const struct isa_ap *ap, const uint32_t *iter, int depth, struct isa_ap *out)
{
    *out = *ap;
    int64_t off = 0;
    for (int d = 0; d < depth; d++) off += (int64_t)iter[d] * ap->loop_step_bytes[d];
    out->addr = (uint64_t)((int64_t)ap->addr + off);
}

void sim_describe_instr(const struct sim_engine *e, uint32_t pc, char *buf, size_t cap)
{
    const struct isa_instr *in = e->stream && pc < e->stream->n ? &e->stream->instrs[pc] : NULL;
    const char *opn = in ? isa_op_name((enum isa_op)in->op) : "end";
    char core[24] = "";
    if (e->sim->chip.cores > 1) snprintf(core, sizeof core, "core %u ", e->core);
    if (in && in->src_line)
        snprintf(buf, cap, "%s%s instruction %u (%s, line %u)", core, e->d->name, pc, opn, in->src_line);
    else
        snprintf(buf, cap, "%s%s instruction %u (%s)", core, e->d->name, pc, opn);
}

/* Diagnostics point at an instruction's line; the assembler keeps no
 * column, so they point at its first column (0 only without a line). */
static int col_of(uint32_t line) { return line ? 1 : 0; }

static const char *source_of(const struct sim *s, uint32_t core)
{
    const struct sim_core *co = &s->cores[core];
    if (co->src[0]) return co->src;
    return co->prog && co->prog->name[0] ? co->prog->name : "<program>";
}

enum base_status sim_fail(struct sim *s, const struct sim_exec *x, enum base_status st, const char *fmt, ...)
{
    if (s->err != BASE_OK) return st;
    char what[160], msg[BASE_DIAG_MSG_MAX];
    sim_describe_instr(x->e, x->pc, what, sizeof what);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    base_diag_set(&s->diag, st, source_of(s, x->e->core), (int)x->in->src_line, col_of(x->in->src_line), "%s: %s",
                  what, msg);
    s->err = st;
    return st;
}

/* ------------------------------------------------------------ create */

void sim_options_default(struct sim_options *o)
{
    memset(o, 0, sizeof *o);
    o->check_uninit = true;
    o->check_races = true;
}

static enum base_status bad_chip(struct base_diag *diag, const struct chip_desc *c, const char *fmt, ...)
    BASE_PRINTF(3, 4);
static enum base_status bad_chip(struct base_diag *diag, const struct chip_desc *c, const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(diag, BASE_ERR_INVALID, c->path[0] ? c->path : c->name, 0, 0, "chip %s: %s", c->name, msg);
}

static enum base_status check_chip(const struct chip_desc *c, struct base_diag *diag)
{
    if (c->cores < 1 || c->cores > CHIP_MAX_CORES)
        return bad_chip(diag, c, "cores must be 1..%d, is %u", CHIP_MAX_CORES, c->cores);
    if (c->n_engines < 1 || c->n_engines > CHIP_MAX_ENGINES)
        return bad_chip(diag, c, "engines per core must be 1..%d, is %u", CHIP_MAX_ENGINES, c->n_engines);
    for (uint32_t i = 0; i < c->n_engines; i++) {
        const struct chip_engine_desc *d = &c->engines[i];
        if (!d->name[0]) return bad_chip(diag, c, "engine %u has no name", i);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(c->engines[j].name, d->name)) return bad_chip(diag, c, "two engines named %s", d->name);
        if (!(d->clock_ghz > 0)) return bad_chip(diag, c, "engine %s: clock_ghz must be > 0", d->name);
        switch (d->kind) {
        case ISA_ENGINE_SYSTOLIC:
            if (!d->rows || !d->cols) return bad_chip(diag, c, "engine %s: rows and cols must be > 0", d->name);
            if (!d->load_rows_per_cycle)
                return bad_chip(diag, c, "engine %s: load_rows_per_cycle must be > 0", d->name);
            if (!(d->rows_per_cycle[CHIP_RATE_BF16] > 0))
                return bad_chip(diag, c, "engine %s: rows_per_cycle for bf16 must be > 0", d->name);
            if ((unsigned)d->dataflow >= CHIP_DATAFLOW_COUNT)
                return bad_chip(diag, c, "engine %s: unknown dataflow %u", d->name, (unsigned)d->dataflow);
            break;
        case ISA_ENGINE_VECTOR:
        case ISA_ENGINE_SCALAR:
        case ISA_ENGINE_GPSIMD:
            if (!d->lanes) return bad_chip(diag, c, "engine %s: lanes must be > 0", d->name);
            if (!(d->elems_per_cycle[CHIP_RATE_FP32] > 0))
                return bad_chip(diag, c, "engine %s: elems_per_cycle for fp32 must be > 0", d->name);
            break;
        case ISA_ENGINE_DMA:
            if (!(d->bytes_per_ns > 0)) return bad_chip(diag, c, "engine %s: bytes_per_ns must be > 0", d->name);
            break;
        default: return bad_chip(diag, c, "engine %s: unknown kind %u", d->name, (unsigned)d->kind);
        }
    }
    const struct chip_sram_desc *m[2] = {&c->scratchpad, &c->accumulator};
    const char *mn[2] = {"scratchpad", "accumulator"};
    for (int i = 0; i < 2; i++) {
        if (m[i]->partitions < 1 || m[i]->partitions > ISA_MAX_PARTITIONS)
            return bad_chip(diag, c, "%s partitions must be 1..%d", mn[i], ISA_MAX_PARTITIONS);
        if (!m[i]->bytes_per_partition) return bad_chip(diag, c, "%s bytes_per_partition must be > 0", mn[i]);
    }
    if (!c->hbm.capacity_bytes) return bad_chip(diag, c, "hbm capacity must be > 0");
    if (!(c->hbm.bytes_per_ns > 0)) return bad_chip(diag, c, "hbm bandwidth must be > 0");
    return BASE_OK;
}

static void on_step(struct event_sched *sc, struct event *ev);
static void on_signal(struct event_sched *sc, struct event *ev);

enum base_status sim_create(const struct chip_desc *chip, const struct sim_options *opt, struct sim **out,
                            struct base_diag *diag)
{
    *out = NULL;
    TRY(check_chip(chip, diag));
    struct sim *s = calloc(1, sizeof *s);
    if (!s) return base_diag_set(diag, BASE_ERR_NOMEM, chip->path[0] ? chip->path : chip->name, 0, 0,
                                 "out of memory creating the simulator of chip %s", chip->name);
    s->chip = *chip;
    if (opt)
        s->opt = *opt;
    else
        sim_options_default(&s->opt);
    if (s->opt.hooks) {
        s->hooks = *s->opt.hooks;
        s->has_hooks = s->hooks.on_instr || s->hooks.on_dma || s->hooks.on_wait;
    }
    const struct chip_desc *c = &s->chip;
    bool values = !s->opt.timing_only, track = s->opt.check_uninit;
    s->n_eng = c->cores * c->n_engines;
    s->n_vc = 0; /* the clocks are made at sim_run, for the engines that have a stream */
    enum base_status st = BASE_ERR_NOMEM;
    const char *what = "its engines and cores"; /* what failed, for the message */
    s->cores = calloc(c->cores, sizeof *s->cores);
    s->eng = calloc(s->n_eng, sizeof *s->eng);
    s->est = calloc(s->n_eng, sizeof *s->est);
    if (!s->cores || !s->eng || !s->est) goto fail;
    what = "the event queue";
    if ((st = event_sched_init(&s->sched, 3 * s->n_eng + 4)) != BASE_OK) goto fail;
    what = "the HBM";
    if ((st = mem_hbm_init(&s->hbm, c->hbm.capacity_bytes, values, track)) != BASE_OK) goto fail;
    what = "the HBM's bandwidth share";
    if ((st = mem_bw_init(&s->hbm_bw, &s->sched, c->hbm.bytes_per_ns, s->n_eng, SIM_PRIO_FLOW)) != BASE_OK) goto fail;
    for (uint32_t k = 0; k < c->cores; k++) {
        struct sim_core *co = &s->cores[k];
        what = "the scratchpad";
        st = mem_sram_init(&co->sp, c->scratchpad.partitions, c->scratchpad.bytes_per_partition, 1, values, track);
        if (st != BASE_OK) goto fail;
        what = "the accumulator";
        st = mem_sram_init(&co->acc, c->accumulator.partitions, c->accumulator.bytes_per_partition,
                           c->accumulator.banks ? c->accumulator.banks : 1, values, track);
        if (st != BASE_OK) goto fail;
    }
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine *e = &s->eng[g];
        e->sim = s;
        e->core = g / c->n_engines;
        e->idx = g % c->n_engines;
        e->gidx = g;
        e->d = &c->engines[e->idx];
        if (e->d->kind == ISA_ENGINE_SYSTOLIC) s->systolic_engines |= 1u << e->idx;
        e->khz = event_clock_khz(e->d->clock_ghz);
        e->dispatch_ps = event_cycles_to_ps_khz(e->d->dispatch_cycles, e->khz);
        e->st = &s->est[g];
        snprintf(e->st->name, sizeof e->st->name, "%s", e->d->name);
        e->st->core = e->core;
        e->st->kind = e->d->kind;
        event_init(&e->ev_step, on_step, e, SIM_PRIO_ENGINE);
        event_init(&e->ev_signal, on_signal, e, SIM_PRIO_SIGNAL);
        event_init(&e->ev_dma, sim_dma_on_event, e, SIM_PRIO_DMA);
    }
    what = "the checks' state";
    if ((st = sim_check_init(s)) != BASE_OK) goto fail;
    *out = s;
    return BASE_OK;
fail:
    sim_destroy(s);
    if (!strcmp(what, "the scratchpad") || !strcmp(what, "the accumulator")) {
        const struct chip_sram_desc *m = !strcmp(what, "the scratchpad") ? &chip->scratchpad : &chip->accumulator;
        return base_diag_set(diag, st, chip->path[0] ? chip->path : chip->name, 0, 0,
                             "%s creating %s of chip %s (%u partitions of %llu bytes%s)",
                             st == BASE_ERR_NOMEM ? "out of memory" : base_status_str(st), what, chip->name,
                             m->partitions, (unsigned long long)m->bytes_per_partition,
                             values ? ", values stored" : "");
    }
    return base_diag_set(diag, st, chip->path[0] ? chip->path : chip->name, 0, 0, "%s creating %s of chip %s",
                         st == BASE_ERR_NOMEM ? "out of memory" : base_status_str(st), what, chip->name);
}

void sim_destroy(struct sim *s)
{
    if (!s) return;
    sim_check_deinit(s);
    if (s->eng)
        for (uint32_t g = 0; g < s->n_eng; g++) {
            free(s->eng[g].vc);
            free(s->eng[g].ring_vc);
            free(s->eng[g].recs);
            free(s->eng[g].info);
            free(s->eng[g].istate);
            free(s->eng[g].rec_last);
        }
    if (s->cores)
        for (uint32_t k = 0; k < s->chip.cores; k++) {
            mem_sram_deinit(&s->cores[k].sp);
            mem_sram_deinit(&s->cores[k].acc);
            for (int i = 0; i < ISA_MAX_SEMAPHORES; i++) free(s->cores[k].hist[i]);
        }
    mem_bw_deinit(&s->hbm_bw);
    mem_hbm_deinit(&s->hbm);
    event_sched_deinit(&s->sched);
    for (int i = 0; i < SIM_BUF_COUNT; i++) free(s->buf[i]);
    free(s->overlap_bits);
    free(s->vc_engine);
    free(s->cores);
    free(s->eng);
    free(s->est);
    free(s);
}

const struct chip_desc *sim_chip(const struct sim *s) { return &s->chip; }

/* -------------------------------------------------------------- load */

static void prepare_instr(const struct sim_engine *e, const struct isa_instr *in, struct sim_instr_info *info);

/* The engine's stream is done with; its per-instruction arrays stay for
 * the next load (sim_destroy frees them). */
static void unload(struct sim_engine *e)
{
    e->stream = NULL;
    free(e->rec_last);
    e->rec_last = NULL;
}

static enum base_status sim_load_impl(struct sim *s, uint32_t core, const struct isa_program *prog, const char *path,
                          struct base_diag *diag)
{
    const char *src = path && path[0] ? path : prog->name[0] ? prog->name : "<program>";
    if (core >= s->chip.cores)
        return base_diag_set(diag, BASE_ERR_INVALID, src, 0, 0, "core %u: chip %s has %u cores", core, s->chip.name,
                             s->chip.cores);
    if (s->err != BASE_OK) return base_diag_set(diag, BASE_ERR_INVALID, src, 0, 0, "an earlier run of this simulation failed");
    TRY(isa_program_validate(prog, src, diag));
    /* the steps limit, before anything runs: loop counts are static, so an
     * endless-looking nest (loop 4294967295 in loop 4294967295) is refused
     * here instead of running for centuries */
    uint64_t steps = 0;
    for (int k = 0; k < prog->n_streams; k++) {
        uint32_t heavy = 0;
        steps = base_sat_add_u64(steps, isa_stream_steps(&prog->streams[k], &heavy));
        if (steps > base_limit(s->opt.limits, BASE_LIMIT_STEPS)) {
            uint32_t line = prog->streams[k].n ? prog->streams[k].instrs[heavy].src_line : 0;
            return base_limit_fail(diag, src, (int)line, col_of(line), s->opt.limits, BASE_LIMIT_STEPS, steps,
                                   "instructions the program would execute (stream '%s', loops counted trip by trip)",
                                   prog->streams[k].engine);
        }
    }
    struct sim_core *co = &s->cores[core];
    for (uint32_t i = 0; i < s->chip.n_engines; i++) unload(&s->eng[core * s->chip.n_engines + i]);
    for (int k = 0; k < prog->n_streams; k++) {
        const struct isa_stream *st = &prog->streams[k];
        struct sim_engine *e = NULL;
        for (uint32_t i = 0; i < s->chip.n_engines; i++)
            if (!strcmp(s->chip.engines[i].name, st->engine)) e = &s->eng[core * s->chip.n_engines + i];
        if (!e) {
            char names[256] = "";
            size_t len = 0;
            for (uint32_t i = 0; i < s->chip.n_engines && len + 40 < sizeof names; i++)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? " " : "", s->chip.engines[i].name);
            uint32_t line = st->n ? st->instrs[0].src_line : 0;
            return base_diag_set(diag, BASE_ERR_INVALID, src, (int)line, col_of(line),
                                 "stream '%s': chip %s has no engine of that name (engines: %s)", st->engine,
                                 s->chip.name, names);
        }
        unsigned unit = 1u << e->d->kind;
        for (uint32_t j = 0; j < st->n; j++) {
            const struct isa_instr *in = &st->instrs[j];
            if (!(isa_op_units((enum isa_op)in->op) & unit))
                return base_diag_set(diag, BASE_ERR_INVALID, src, (int)in->src_line, col_of(in->src_line),
                                     "%s instruction %u: %s cannot run on %s, a %s engine", st->engine, j,
                                     isa_op_name((enum isa_op)in->op), st->engine,
                                     isa_engine_kind_name(e->d->kind));
        }
        /* static facts of every instruction, once */
        unload(e);
        uint32_t n = st->n ? st->n : 1;
        if (n > e->info_cap) { /* grown, never shrunk: launch after launch reuses them */
            free(e->info);
            free(e->istate);
            e->info = malloc((size_t)n * sizeof *e->info);
            e->istate = malloc((size_t)n * sizeof *e->istate);
            e->info_cap = e->info && e->istate ? n : 0;
        }
        if (s->opt.check_races) e->rec_last = calloc(st->n ? (size_t)st->n * 4 : 1, sizeof *e->rec_last);
        if (!e->info_cap || (s->opt.check_races && !e->rec_last)) {
            unload(e);
            return base_diag_set(diag, BASE_ERR_NOMEM, src, 0, 0, "out of memory loading stream '%s'", st->engine);
        }
        memset(e->info, 0, (size_t)n * sizeof *e->info);
        memset(e->istate, 0, (size_t)n * sizeof *e->istate);
        for (uint32_t j = 0; j < st->n; j++) prepare_instr(e, &st->instrs[j], &e->info[j]);
        e->stream = st;
    }
    co->prog = prog;
    snprintf(co->src, sizeof co->src, "%s", src);
    return BASE_OK;
}

enum base_status sim_load(struct sim *s, uint32_t core, const struct isa_program *prog, const char *path,
                          struct base_diag *diag)
{
    return base_diag_ensure(diag, sim_load_impl(s, core, prog, path, diag), path, "loading a program into the simulator");
}

/* ------------------------------------------------------------ signals */

static void join_vc(uint32_t *dst, const uint32_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (src[i] > dst[i]) dst[i] = src[i];
}

/* A signal took effect: record the value and the clocks that led to it. */
static void hist_push(struct sim *s, struct sim_core *co, uint16_t sem, const uint32_t *snap)
{
    struct sim_sem_hist *h = co->hist[sem];
    if (!h) {
        h = calloc(1, sizeof *h + (size_t)SIM_SEM_HIST * s->n_vc * sizeof(uint32_t));
        if (!h) return; /* no history: waits on it synchronise with nothing (may report a race) */
        co->hist[sem] = h;
    }
    const uint32_t *prev = h->n ? h->vc + (size_t)((h->head + h->n - 1) % SIM_SEM_HIST) * s->n_vc : NULL;
    if (h->n == SIM_SEM_HIST) {
        h->head = (h->head + 1) % SIM_SEM_HIST;
        h->n--;
    }
    uint32_t slot = (h->head + h->n) % SIM_SEM_HIST;
    if (h->n && co->sem[sem] <= h->value[(h->head + h->n - 1) % SIM_SEM_HIST]) h->unordered = true;
    uint32_t *vc = h->vc + (size_t)slot * s->n_vc;
    for (uint32_t i = 0; i < s->n_vc; i++) vc[i] = prev && prev[i] > snap[i] ? prev[i] : snap[i];
    h->value[slot] = co->sem[sem];
    h->n++;
}

/* A wait for >= target passed: join the clocks of the first signals that reached it. */
static void hist_join(struct sim *s, struct sim_core *co, uint16_t sem, int64_t target, uint32_t *vc)
{
    const struct sim_sem_hist *h = co->hist[sem];
    if (!h || target <= 0) return;
    if (!h->unordered) { /* ascending values: the first >= target by bisection */
        uint32_t a = 0, b = h->n;
        while (a < b) {
            uint32_t m = (a + b) / 2;
            if (h->value[(h->head + m) % SIM_SEM_HIST] >= target)
                b = m;
            else
                a = m + 1;
        }
        if (a < h->n) join_vc(vc, h->vc + (size_t)((h->head + a) % SIM_SEM_HIST) * s->n_vc, s->n_vc);
        return;
    }
    for (uint32_t k = 0; k < h->n; k++) {
        uint32_t slot = (h->head + k) % SIM_SEM_HIST;
        if (h->value[slot] >= target) {
            join_vc(vc, h->vc + (size_t)slot * s->n_vc, s->n_vc);
            return;
        }
    }
}

static void push_signal(struct sim *s, struct sim_engine *e, uint64_t t, uint16_t sem, int32_t inc)
{
    BASE_ASSERT(e->ring_n < SIM_SIGNAL_RING);
    if (e->ring_n) {
        const struct sim_pending_signal *tail = &e->ring[(e->ring_head + e->ring_n - 1) % SIM_SIGNAL_RING];
        if (t < tail->time_ps) t = tail->time_ps; /* signals of one engine never overtake each other */
    }
    uint32_t slot = (e->ring_head + e->ring_n) % SIM_SIGNAL_RING;
    e->ring[slot] = (struct sim_pending_signal){t, sem, inc};
    if (s->n_vc) memcpy(e->ring_vc + (size_t)slot * s->n_vc, e->vc, s->n_vc * sizeof(uint32_t));
    if (e->ring_n++ == 0) {
        enum base_status st = event_sched_at(&s->sched, &e->ev_signal, t);
        BASE_ASSERT(st == BASE_OK);
    }
}

static void wake_waiters(struct sim *s, uint32_t core, uint16_t sem)
{
    struct sim_core *co = &s->cores[core];
    uint32_t bits = co->sem_waiters[sem];
    while (bits) {
        uint32_t i = (uint32_t)__builtin_ctz(bits);
        bits &= bits - 1;
        struct sim_engine *w = &s->eng[core * s->chip.n_engines + i];
        if (co->sem[sem] >= w->wait_target) {
            co->sem_waiters[sem] &= ~(1u << i);
            w->state = SIM_ENG_RUN;
            w->t_ready = event_sched_now(&s->sched);
            enum base_status st = event_sched_at(&s->sched, &w->ev_step, w->t_ready);
            BASE_ASSERT(st == BASE_OK);
        }
    }
}

static void on_signal(struct event_sched *sc, struct event *ev)
{
    struct sim_engine *e = ev->user;
    struct sim *s = e->sim;
    struct sim_core *co = sim_core_of(e);
    const struct sim_pending_signal p = e->ring[e->ring_head];
    co->sem[p.sem] += p.inc;
    if (s->n_vc) hist_push(s, co, p.sem, e->ring_vc + (size_t)e->ring_head * s->n_vc);
    e->ring_head = (e->ring_head + 1) % SIM_SIGNAL_RING;
    e->ring_n--;
    if (e->ring_n) {
        enum base_status st = event_sched_at(sc, &e->ev_signal, e->ring[e->ring_head].time_ps);
        BASE_ASSERT(st == BASE_OK);
    }
    if (co->sem_waiters[p.sem]) wake_waiters(s, e->core, p.sem);
}

/* ---------------------------------------------------- completing work */

void sim_instr_done(struct sim *s, struct sim_exec *x)
{
    struct sim_engine *e = x->e;
    struct sim_engine_stats *st = e->st;
    uint64_t start = x->start > e->busy_until ? x->start : e->busy_until;
    if (x->end > start) st->busy_ps += x->end - start;
    if (x->end > e->busy_until) e->busy_until = x->end;
    if (x->visible > e->last_visible) e->last_visible = x->visible;
    st->instructions++;
    st->bytes += x->bytes;
    st->flops += x->flops;
    if (s->hooks.on_instr) {
        struct sim_instr_record r = {
            .core = e->core,
            .engine = e->idx,
            .engine_name = e->d->name,
            .stream_index = x->pc,
            .loop_iter = {x->iter[0], x->iter[1]},
            .instr = x->in,
            .start_ps = start < x->end ? start : x->end,
            .end_ps = x->end,
            .visible_ps = x->visible,
            .bytes = x->bytes,
            .flops = x->flops,
            .tag = x->in->tag,
        };
        s->hooks.on_instr(s->hooks.user, event_sched_now(&s->sched), &r);
    }
    if (x->in->flags & ISA_FLAG_SIGNAL) push_signal(s, e, x->visible, x->in->signal_sem, x->in->signal_inc);
    if (s->n_vc) e->vc[e->vslot]++;
}

/* ------------------------------------------------------------ engines */

typedef enum base_status (*exec_fn)(struct sim *s, struct sim_exec *x);

/* The execute dispatch, generated from the op table: each op goes to the
 * engine model that times it (which calls the numerics in exec_*.c). */
#define exec_NOP sim_exec_control
#define exec_HALT sim_exec_control
#define exec_SEM_WAIT sim_exec_control
#define exec_SEM_SIGNAL sim_exec_control
#define exec_LOOP sim_exec_control
#define exec_DMA sim_exec_dma
#define exec_MATMUL sim_exec_systolic
#define exec_COPY sim_exec_elem
#define exec_UNARY sim_exec_elem
#define exec_BINARY sim_exec_elem
#define exec_TENSOR_SCALAR sim_exec_elem
#define exec_SELECT sim_exec_elem
#define exec_IOTA sim_exec_elem
#define exec_MEMSET sim_exec_elem
#define exec_REDUCE sim_exec_elem
#define exec_PART_REDUCE sim_exec_elem
#define exec_PART_BROADCAST sim_exec_elem
#define exec_ACTIVATE sim_exec_elem

/* TRANSPOSE runs on the systolic array (as a matmul with an identity) or on
 * the vector engine. */
static enum base_status exec_TRANSPOSE(struct sim *s, struct sim_exec *x)
{
    return x->e->d->kind == ISA_ENGINE_SYSTOLIC ? sim_exec_systolic(s, x) : sim_exec_elem(s, x);
}

static const exec_fn exec_table[] = {
#define X(e, name, fmt, units) exec_##e,
    ISA_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(exec_table) == ISA_OP_COUNT, "one execute function per op");

static void prepare_instr(const struct sim_engine *e, const struct isa_instr *in, struct sim_instr_info *info)
{
    const struct isa_ap *ops[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    for (int i = 0; i < 4; i++) {
        sim_prepare_operand(ops[i], &info->op[i]);
        info->op[i].same_as = -1;
        for (int j = 0; j < i && ops[i]->space != ISA_SPACE_NONE; j++)
            if (!memcmp(ops[i], ops[j], sizeof *ops[i])) {
                info->op[i].same_as = (int8_t)j;
                break;
            }
    }
    exec_fn f = exec_table[in->op];
    if (f == sim_exec_elem || (in->op == ISA_OP_TRANSPOSE && e->d->kind != ISA_ENGINE_SYSTOLIC))
        sim_prepare_elem(e, in, info);
}

static void finish_engine(struct sim_engine *e)
{
    e->state = SIM_ENG_DONE;
    uint64_t t = e->last_visible > e->busy_until ? e->last_visible : e->busy_until;
    if (t > e->st->finish_ps) e->st->finish_ps = t;
}

static void advance_pc(struct sim_engine *e, const struct isa_instr *in)
{
    if (in->op == ISA_OP_LOOP) {
        BASE_ASSERT(e->depth < ISA_MAX_LOOP_DEPTH);
        e->loops[e->depth++] = (struct sim_loop){e->pc + 1, e->pc + 1 + in->body, in->count, 0};
        e->pc++;
        return;
    }
    e->pc++;
    while (e->depth > 0 && e->pc == e->loops[e->depth - 1].end) {
        struct sim_loop *l = &e->loops[e->depth - 1];
        if (++l->iter < l->count) {
            e->pc = l->start;
            return;
        }
        e->depth--;
    }
}

static void schedule_step(struct sim *s, struct sim_engine *e, uint64_t t)
{
    enum base_status st = event_sched_at(&s->sched, &e->ev_step, t);
    BASE_ASSERT(st == BASE_OK);
}

static void engine_run(struct sim *s, struct sim_engine *e)
{
    struct sim_core *co = sim_core_of(e);
    const struct isa_stream *stream = e->stream;
    for (;;) {
        if (s->err != BASE_OK) return;
        if (e->pc >= stream->n) {
            finish_engine(e);
            return;
        }
        const struct isa_instr *in = &stream->instrs[e->pc];
        uint64_t now = e->t_ready;
        if (now > SIM_MAX_TIME_PS) {
            struct sim_exec tx = {.e = e, .in = in, .pc = e->pc, .now = now};
            sim_fail(s, &tx, BASE_ERR_LIMIT, "simulated time past %llu ps (%.0f days): a rate, clock or bandwidth of "
                     "the chip too small for this program?", (unsigned long long)SIM_MAX_TIME_PS,
                     (double)SIM_MAX_TIME_PS / 86400e12);
            return;
        }
        if ((in->flags & ISA_FLAG_SIGNAL) && e->ring_n == SIM_SIGNAL_RING) {
            uint64_t t = e->ring[e->ring_head].time_ps;
            schedule_step(s, e, t > now ? t : now);
            e->t_ready = t > now ? t : now;
            return;
        }
        struct sim_exec x;
        for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) x.iter[d] = d < e->depth ? e->loops[e->depth - 1 - d].iter : 0;
        if (in->flags & ISA_FLAG_WAIT) {
            int64_t target = in->wait_value;
            for (int d = 0; d < e->depth; d++) target += (int64_t)in->wait_step[d] * x.iter[d];
            if (co->sem[in->wait_sem] < target) {
                e->state = SIM_ENG_WAIT_SEM;
                e->wait_sem = in->wait_sem;
                e->wait_target = target;
                if (!e->waited) {
                    e->waited = true;
                    e->wait_since = now;
                }
                co->sem_waiters[in->wait_sem] |= 1u << e->idx;
                return;
            }
            if (e->waited) {
                e->waited = false;
                uint64_t from = e->wait_since > e->busy_until ? e->wait_since : e->busy_until;
                if (now > from) {
                    e->st->wait_ps += now - from;
                    if (s->hooks.on_wait) {
                        struct sim_wait_record r = {e->core, e->idx, e->d->name, e->pc, in, in->wait_sem,
                                                    target, from, now};
                        s->hooks.on_wait(s->hooks.user, now, &r);
                    }
                }
            }
            if (s->n_vc) hist_join(s, co, in->wait_sem, target, e->vc);
        }
        x.e = e;
        x.in = in;
        x.info = &e->info[e->pc];
        x.pc = e->pc;
        x.now = now;
        x.start = x.end = x.visible = x.next = now;
        x.bytes = x.flops = 0;
        x.async = false;
        x.ap[0] = &in->dst;
        x.ap[1] = &in->src0;
        x.ap[2] = &in->src1;
        x.ap[3] = &in->src2;
        if (e->depth)
            for (int i = 0; i < 4; i++)
                if (x.info->op[i].stepped) {
                    sim_ap_effective(x.ap[i], x.iter, e->depth, &x.ap_buf[i]);
                    x.ap[i] = &x.ap_buf[i];
                }
        enum base_status st = exec_table[in->op](s, &x);
        if (st != BASE_OK) {
            if (s->err == BASE_OK) sim_fail(s, &x, st, "%s", base_status_str(st));
            return;
        }
        if (x.end > SIM_MAX_TIME_PS || x.visible > SIM_MAX_TIME_PS || x.next > SIM_MAX_TIME_PS) {
            sim_fail(s, &x, BASE_ERR_LIMIT, "simulated time past %llu ps (%.0f days): a rate, clock or bandwidth of "
                     "the chip too small for this program?", (unsigned long long)SIM_MAX_TIME_PS,
                     (double)SIM_MAX_TIME_PS / 86400e12);
            return;
        }
        advance_pc(e, in);
        if (x.async) {
            e->state = SIM_ENG_WAIT_DMA;
            return;
        }
        sim_instr_done(s, &x);
        e->t_ready = x.next;
        if (in->op == ISA_OP_HALT) {
            finish_engine(e);
            return;
        }
        if (e->t_ready < event_sched_next_time(&s->sched)) {
            event_sched_advance(&s->sched, e->t_ready);
            continue;
        }
        schedule_step(s, e, e->t_ready);
        return;
    }
}

static void on_step(struct event_sched *sc, struct event *ev)
{
    (void)sc;
    struct sim_engine *e = ev->user;
    engine_run(e->sim, e);
}

void sim_dma_resume(struct sim *s, struct sim_engine *e)
{
    e->state = SIM_ENG_RUN;
    e->t_ready = event_sched_now(&s->sched);
    schedule_step(s, e, e->t_ready);
}

/* ----------------------------------------------------------------- run */

static void deadlock(struct sim *s)
{
    char msg[BASE_DIAG_MSG_MAX];
    size_t len = 0;
    int n = 0;
    const struct sim_engine *first = NULL;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        const struct sim_engine *e = &s->eng[g];
        if (e->state != SIM_ENG_WAIT_SEM) continue;
        if (!first) first = e;
        n++;
        char what[160];
        sim_describe_instr(e, e->pc, what, sizeof what);
        const struct sim_core *co = &s->cores[e->core];
        if (len + 200 < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s waits for s%u >= %lld (s%u is %lld)",
                                    n > 1 ? "; " : "", what, e->wait_sem, (long long)e->wait_target, e->wait_sem,
                                    (long long)co->sem[e->wait_sem]);
    }
    if (!first) {
        snprintf(msg, sizeof msg, "engines stopped without finishing");
        base_diag_set(&s->diag, BASE_ERR_INTERNAL, "<program>", 0, 0, "%s", msg);
        s->err = BASE_ERR_INTERNAL;
        return;
    }
    const struct isa_instr *in = &first->stream->instrs[first->pc];
    base_diag_set(&s->diag, BASE_ERR_RUNTIME, source_of(s, first->core), (int)in->src_line, col_of(in->src_line),
                  "deadlock at %llu ps: no event is pending and %d engine%s wait%s: %s",
                  (unsigned long long)event_sched_now(&s->sched), n, n > 1 ? "s" : "", n > 1 ? "" : "s", msg);
    s->err = BASE_ERR_RUNTIME;
}

static void finish_stats(struct sim *s)
{
    struct sim_stats *t = &s->stats;
    const struct chip_desc *c = &s->chip;
    uint64_t total = 0;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine *e = &s->eng[g];
        uint64_t f = e->last_visible > e->busy_until ? e->last_visible : e->busy_until;
        if (f > e->st->finish_ps) e->st->finish_ps = f;
        if (e->st->finish_ps > total) total = e->st->finish_ps;
    }
    if (s->clock_ps > total) total = s->clock_ps; /* idle time advanced between launches */
    t->total_ps = total;
    t->clock_ghz = c->engines[0].clock_ghz;
    for (uint32_t i = 0; i < c->n_engines; i++)
        if (c->engines[i].kind == ISA_ENGINE_SYSTOLIC) {
            t->clock_ghz = c->engines[i].clock_ghz;
            break;
        }
    t->total_cycles = event_ps_to_cycles(total, t->clock_ghz);
    t->instructions = t->flops = 0;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine_stats *st = &s->est[g];
        uint64_t used = st->busy_ps + st->wait_ps;
        st->idle_ps = total > used ? total - used : 0;
        st->utilization = total ? (double)st->busy_ps / (double)total : 0;
        t->instructions += st->instructions;
        t->flops += st->flops;
    }
    t->hbm_bytes = (uint64_t)(s->hbm_bw.bytes_total + 0.5);
    t->hbm_gbps = total ? (double)t->hbm_bytes / ((double)total / 1000.0) : 0;
    t->hbm_busy_fraction = total ? (double)s->hbm_bw.busy_ps / (double)total : 0;
    t->events = s->sched.fired;
    t->n_engines = s->n_eng;
    t->engines = s->est;
}

/* Vector clocks for the race check: one component per engine that has a
 * stream (the others never touch memory), so signals and waits cost what
 * the program uses, not the chip's engine count. */
static enum base_status clocks_init(struct sim *s)
{
    if (!s->opt.check_races) return BASE_OK;
    uint32_t n = 0;
    for (uint32_t g = 0; g < s->n_eng; g++)
        if (s->eng[g].stream) s->eng[g].vslot = n++;
    s->n_vc = n;
    s->vc_engine = calloc(n ? n : 1, sizeof *s->vc_engine);
    if (!s->vc_engine) return BASE_ERR_NOMEM;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine *e = &s->eng[g];
        if (!e->stream) continue;
        s->vc_engine[e->vslot] = g;
        e->vc = calloc(n, sizeof(uint32_t));
        e->ring_vc = calloc((size_t)SIM_SIGNAL_RING * n, sizeof(uint32_t));
        if (!e->vc || !e->ring_vc) return BASE_ERR_NOMEM;
        e->vc[e->vslot] = 1; /* own clock starts at 1: no one has seen anything of it yet */
    }
    return BASE_OK;
}

/* A launch after an earlier run: every engine starts afresh at the current
 * time, semaphores at 0, and the race check forgets every record and clock
 * (the boundary orders everything before it before everything after it).
 * Memory, written marks and statistics carry over. */
static void launch_reset(struct sim *s)
{
    for (uint32_t k = 0; k < s->chip.cores; k++) {
        struct sim_core *co = &s->cores[k];
        memset(co->sem, 0, sizeof co->sem);
        memset(co->sem_waiters, 0, sizeof co->sem_waiters);
        for (int i = 0; i < ISA_MAX_SEMAPHORES; i++) {
            free(co->hist[i]);
            co->hist[i] = NULL;
        }
        co->rec_engines = 0;
    }
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine *e = &s->eng[g];
        free(e->vc);
        free(e->ring_vc);
        e->vc = e->ring_vc = NULL;
        e->rec_base += e->rec_n;
        e->rec_n = e->rec_head = 0;
        memset(e->uni, 0, sizeof e->uni);
        memset(e->uni_w, 0, sizeof e->uni_w);
        e->state = SIM_ENG_IDLE;
        e->pc = 0;
        e->depth = 0;
        e->waited = false;
        e->ring_head = e->ring_n = 0;
        e->loaded_valid = false; /* a new kernel loads its own stationary operands */
    }
    free(s->vc_engine);
    s->vc_engine = NULL;
    s->n_vc = 0;
}

/* After a run: its programs are done with (the caller may free them). */
static void unload_all(struct sim *s)
{
    for (uint32_t g = 0; g < s->n_eng; g++) unload(&s->eng[g]);
    for (uint32_t k = 0; k < s->chip.cores; k++) s->cores[k].prog = NULL;
}

static enum base_status sim_run_impl(struct sim *s, struct base_diag *diag)
{
    if (s->err != BASE_OK)
        return base_diag_set(diag, BASE_ERR_INVALID, "<program>", 0, 0, "sim_run: an earlier run of this simulation failed");
    if (s->ran) launch_reset(s);
    s->ran = true;
    uint64_t t0 = s->clock_ps;
    if (t0 > event_sched_now(&s->sched)) event_sched_advance(&s->sched, t0);
    if (clocks_init(s) != BASE_OK)
        return base_diag_set(diag, BASE_ERR_NOMEM, "<program>", 0, 0, "out of memory for the race check's clocks");
    for (uint32_t g = 0; g < s->n_eng; g++) {
        struct sim_engine *e = &s->eng[g];
        if (!e->stream) continue;
        e->state = SIM_ENG_RUN;
        e->t_ready = t0;
        schedule_step(s, e, t0);
    }
    while (s->err == BASE_OK && event_sched_step(&s->sched)) {
    }
    if (s->err == BASE_OK)
        for (uint32_t g = 0; g < s->n_eng; g++)
            if (s->eng[g].stream && s->eng[g].state != SIM_ENG_DONE) {
                deadlock(s);
                break;
            }
    finish_stats(s);
    s->clock_ps = s->stats.total_ps;
    unload_all(s);
    if (s->err != BASE_OK) {
        if (diag) *diag = s->diag;
        return s->err;
    }
    return BASE_OK;
}

enum base_status sim_run(struct sim *s, struct base_diag *diag)
{
    return base_diag_ensure(diag, sim_run_impl(s, diag), "", "simulating");
}

enum base_status sim_advance(struct sim *s, uint64_t ps, struct base_diag *diag)
{
    if (s->clock_ps > UINT64_MAX - ps)
        return base_diag_set(diag, BASE_ERR_LIMIT, "<host>", 0, 0, "sim_advance: time overflows");
    s->clock_ps += ps;
    finish_stats(s);
    return BASE_OK;
}

uint64_t sim_now_ps(const struct sim *s) { return s->clock_ps; }

const struct sim_stats *sim_get_stats(const struct sim *s) { return &s->stats; }
