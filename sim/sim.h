/* sim: the discrete-event simulator of one chip running isa programs.
 *
 * A chip (struct chip_desc, chip/chip.h) has `cores` cores; a core has the
 * engines the description lists, a scratchpad (sp) and an accumulator (acc);
 * HBM is shared by all cores.  A program (struct isa_program) is loaded per
 * core: each stream runs in order on the engine of the same name, and
 * engines meet only at the core's semaphores (ISA_MAX_SEMAPHORES counters,
 * starting at 0; a wait blocks until the counter is >= its target, a signal
 * adds to it when its instruction completes).
 *
 * Each instruction's duration follows a closed-form model of the chip
 * description's named parameters (docs/timing.md states every formula).  In
 * functional mode every instruction also computes real values with the
 * hardware's numerics; in timing-only mode nothing is stored and the
 * timing is identical.  Checks (bounds always; uninitialised reads and races
 * on request) stop the run with a located diagnostic naming the instruction
 * (stream, index, source line), the engines and the address range.
 *
 * Use:
 *     struct sim *s;
 *     sim_create(chip, &opts, &s, &diag);
 *     sim_load(s, 0, &program, "prog.s", &diag); // borrowed until sim_run returns
 *     sim_write_tensor(s, &loc, input, &diag);  // inputs (marks them written)
 *     sim_run(s, &diag);
 *     sim_read_tensor(s, &loc, ..., &out, &diag);
 *     const struct sim_stats *st = sim_get_stats(s);
 *     sim_destroy(s);
 */
#ifndef NPUSIM_SIM_H
#define NPUSIM_SIM_H

#include "base/base.h"
#include "isa/isa.h"
#include "chip/chip.h"
#include "event/event.h"

struct sim;

/* ------------------------------------------------------------- hooks */

/* One executed instruction.  start_ps..end_ps is the interval the engine
 * spends on it (intervals of one engine never overlap); visible_ps is when
 * its results can be read and its signal fires (>= end_ps: a matmul's
 * pipeline latency).  loop_iter[d]: iteration of the d-th enclosing LOOP
 * (0 = innermost). */
struct sim_instr_record {
    uint32_t core, engine;  /* engine: index in the chip description */
    const char *engine_name;
    uint32_t stream_index;  /* index of the instruction in its stream */
    uint32_t loop_iter[ISA_MAX_LOOP_DEPTH];
    const struct isa_instr *instr;
    uint64_t start_ps, end_ps, visible_ps;
    uint64_t bytes;         /* bytes read + written (dma: bytes moved) */
    uint64_t flops;
    uint32_t tag;           /* instr->tag */
};

/* One DMA transfer: data_start_ps is when bytes start to move (after
 * dispatch, fixed cost and HBM latency). */
struct sim_dma_record {
    uint32_t core, engine;
    const char *engine_name;
    uint32_t stream_index;
    const struct isa_instr *instr;
    uint64_t start_ps, data_start_ps, end_ps;
    uint64_t bytes;
    uint64_t hbm_bytes;     /* through HBM: its HBM side's bytes (both sides for hbm -> hbm; a
                             * converting read counts the HBM side's size), as sim_stats.hbm_bytes adds them */
    bool hbm;               /* shared HBM bandwidth with other transfers */
    enum isa_space src_space, dst_space;
};

/* An engine blocked on a semaphore from start_ps to end_ps. */
struct sim_wait_record {
    uint32_t core, engine;
    const char *engine_name;
    uint32_t stream_index;
    const struct isa_instr *instr;
    uint32_t sem;
    int64_t target;         /* waited for value >= target */
    uint64_t start_ps, end_ps;
};

/* Callbacks (any may be NULL), called as the simulation runs; now_ps is the
 * simulated time of the call. */
struct sim_hooks {
    void *user;
    void (*on_instr)(void *user, uint64_t now_ps, const struct sim_instr_record *r);
    void (*on_dma)(void *user, uint64_t now_ps, const struct sim_dma_record *r);
    void (*on_wait)(void *user, uint64_t now_ps, const struct sim_wait_record *r);
};

/* ----------------------------------------------------------- options */

struct sim_options {
    bool timing_only;   /* store no values (no HBM/SRAM storage); same timing */
    bool check_uninit;  /* reads of never-written bytes are errors (default on) */
    bool check_races;   /* unordered conflicting accesses are errors (default on) */
    const struct sim_hooks *hooks; /* borrowed; NULL: none */
    struct base_logger *log;       /* NULL: silent */
    const struct base_limits *limits; /* borrowed; NULL: the defaults (steps: sim_load) */
};
void sim_options_default(struct sim_options *o);

/* ------------------------------------------------------------ stats */

struct sim_engine_stats {
    char name[CHIP_NAME_MAX];
    uint32_t core;
    enum isa_engine_kind kind;
    uint64_t busy_ps;       /* union of its instruction intervals */
    uint64_t wait_ps;       /* blocked on semaphores */
    uint64_t idle_ps;       /* total_ps - busy_ps - wait_ps */
    uint64_t instructions;  /* executed (a loop body counts once per iteration) */
    uint64_t bytes;         /* read + written (dma: moved) */
    uint64_t flops;
    uint64_t finish_ps;     /* its last result visible */
    double utilization;     /* busy_ps / total_ps */
};

struct sim_stats {
    uint64_t total_ps;      /* the last result of any engine visible */
    uint64_t total_cycles;  /* total_ps in cycles of clock_ghz */
    double clock_ghz;       /* the first systolic engine's clock (else the first engine's) */
    uint64_t instructions;
    uint64_t flops;
    uint64_t hbm_bytes;     /* bytes through HBM (an hbm->hbm dma counts twice) */
    double hbm_gbps;        /* hbm_bytes / total time, GB/s */
    double hbm_busy_fraction; /* time with at least one HBM transfer / total */
    uint64_t events;        /* scheduler events fired */
    uint32_t n_engines;     /* cores * engines per core, core-major */
    const struct sim_engine_stats *engines; /* owned by the sim */
};

/* --------------------------------------------------------------- API */

/* Checks the description (positive clocks and rates, sizes) and builds the
 * machine.  The chip is copied. */
enum base_status sim_create(const struct chip_desc *chip, const struct sim_options *opt, struct sim **out,
                            struct base_diag *diag);
void sim_destroy(struct sim *s);
/* Loads a program on core `core` (borrowed until the sim_run that runs it
 * returns).
 * Validates it (isa_program_validate), maps each stream to the engine of
 * its name, and checks every op may run on that engine's kind.  path (may
 * be NULL: the program's name) is the file diagnostics point into. */
enum base_status sim_load(struct sim *s, uint32_t core, const struct isa_program *prog, const char *path,
                          struct base_diag *diag);
/* Runs every loaded program to completion (all streams halted or ended).
 * Errors: checks (ERR_CHECK), chip limits (ERR_LIMIT), deadlock
 * (ERR_RUNTIME: every remaining engine waits and no event is pending; the
 * message names the waiting engines and semaphores).  After it returns OK,
 * more programs may be loaded and run (sim_advance below). */
enum base_status sim_run(struct sim *s, struct base_diag *diag);
const struct sim_stats *sim_get_stats(const struct sim *s);
/* A sequence of launches.  After sim_run returns OK, sim_load may load new
 * programs (on any cores; the programs of the last run are unloaded when it
 * returns, so they need to live only until then) and sim_run runs them:
 * every engine starts at the current time, semaphores start again at 0,
 * memory keeps its contents and written marks, statistics accumulate, and
 * the race check treats the launch boundary as a full barrier (nothing of
 * one launch races with the next).  sim_advance adds ps of idle time (a host
 * dispatch between launches); sim_now_ps is the current time: the end of
 * the last run plus the time advanced since (stats.total_ps follows it). */
enum base_status sim_advance(struct sim *s, uint64_t ps, struct base_diag *diag);
uint64_t sim_now_ps(const struct sim *s);
const struct chip_desc *sim_chip(const struct sim *s);

/* Repeating a stretch of the run without simulating it again (the
 * runtime's loop reuse, docs/compiler.md "Runtime").  A mark holds the
 * counters of the run at one moment between launches: the time, each
 * engine's busy, wait, instructions, bytes, FLOPs and last result, HBM
 * bytes and busy time.  sim_marks_periodic tells whether every counter grew
 * by exactly as much from a to b as from b to c (and each engine's last
 * result moved with the time, or not at all).  sim_repeat charges `times`
 * more repetitions of the stretch from `since` to now, as if it had run
 * again that many times: the clock moves on by times x its length and each
 * counter grows by times x its growth over it.  Only between launches. */
struct sim_mark;
enum base_status sim_mark_create(const struct sim *s, struct sim_mark **out); /* taken now; ERR_NOMEM */
void sim_mark_set(struct sim_mark *m, const struct sim *s);                    /* taken again, now */
void sim_mark_destroy(struct sim_mark *m);
uint64_t sim_mark_now_ps(const struct sim_mark *m);
bool sim_marks_periodic(const struct sim_mark *a, const struct sim_mark *b, const struct sim_mark *c);
enum base_status sim_repeat(struct sim *s, const struct sim_mark *since, uint64_t times, struct base_diag *diag);

/* A place in memory.  HBM: byte address `addr` (partition ignored).  SP/ACC
 * of core `core`: partition `partition`, byte `addr` within it. */
struct sim_loc {
    enum isa_space space;
    uint32_t core;
    uint32_t partition;
    uint64_t addr;
};
/* Parses "hbm:ADDR", "sp:PART:ADDR" or "acc:PART:ADDR", optionally prefixed
 * "cN." for core N (numbers decimal or 0x hex); *end is set past it. */
enum base_status sim_loc_parse(const char *text, struct sim_loc *out, const char **end);
/* A region, as `npusim exec --dump` names one: "LOC:SHAPE:DTYPE" (SHAPE like
 * 128x512, DTYPE like f32).  ERR_PARSE when malformed; the shape's size is
 * checked when the region is read or written. */
enum base_status sim_region_parse(const char *text, struct sim_loc *loc, enum base_dtype *dt, int *rank,
                                  int64_t *dims);

/* Host access, outside simulated time.  Layout: in HBM, t's elements
 * row-major at loc->addr; in SP/ACC, t's first dim is partitions (from
 * loc->partition) and the rest is row-major at byte loc->addr of each
 * partition (a rank-1 tensor: one element per partition).  Writing marks the
 * bytes written (also in timing-only mode, where no value is stored);
 * reading in timing-only mode is ERR_UNSUPPORTED.  A lazy tensor written to
 * HBM is mapped there (mem_hbm_map_lazy, a reference kept): its values are
 * computed when the chip reads them, not stored. */
enum base_status sim_write_tensor(struct sim *s, const struct sim_loc *loc, const struct base_tensor *t,
                                  struct base_diag *diag);
enum base_status sim_read_tensor(struct sim *s, const struct sim_loc *loc, enum base_dtype dt, int rank,
                                 const int64_t *dims, struct base_tensor **out, struct base_diag *diag);

/* Human-readable and JSON summaries of a run. */
void sim_stats_write_text(const struct sim_stats *st, FILE *f);
void sim_stats_write_json(const struct sim_stats *st, const char *chip_name, FILE *f);

#endif
