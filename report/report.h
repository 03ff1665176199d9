/* report: the report of a run, as data and as text or JSON.
 *
 * rep_run_create gathers what a run of a compiled plan gives (the plan, the
 * simulator's statistics of chip 0, the runtime's report of every simulated
 * chip) into one struct rep_run of plain data: time and cycles, where the
 * time went (kernels, dispatch, collectives), FLOPs and MFU against the peak
 * of the matmuls' element type, HBM traffic, engine utilisation, one row per
 * kernel, per collective and per simulated chip, the program's own checks.
 * rep_run_check_outputs adds the comparison of the outputs with the golden
 * interpreter's (`npusim run --check`) and the hints it calls for.  The
 * writers print it: rep_run_write_text (the table `npusim run` prints) and
 * rep_run_write_json (`npusim run --json`, every key: docs/report.md).
 *
 * Use:
 *     struct rep_source src = {.model = path, .plan = p, .stats = sim_get_stats(s),
 *                              .chips = &rt_rep, .n_chips = 1};
 *     struct rep_run *r;
 *     rep_run_create(&src, &r);     // copies: plan, sims and reports may go
 *     rep_run_write_text(r, stdout);
 *     rep_run_destroy(r);
 *
 * The report owns all it points to (strings are copied); nothing in it
 * refers to the plan, the graph or the simulator once it is built.  Host
 * (wall-clock) times are not part of it: they are the tool's.
 */
#ifndef NPUSIM_REPORT_H
#define NPUSIM_REPORT_H

#include "base/base.h"
#include "chip/chip.h"
#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <stdio.h>

/* What a report is built from; every pointer is borrowed for the call. */
struct rep_source {
    const char *model;                /* the model's path as given: the file of locations without one */
    const struct cc_plan *plan;
    const struct sim_stats *stats;    /* chip 0's (sim_get_stats), after the run */
    const struct rt_report *chips;    /* one per simulated chip, chip 0 first (rt_run: one) */
    int n_chips;                      /* >= 1; > 1: an SPMD plan run with values on every partition's chip */
    bool timing_only;                 /* the run stored no values */
    const char *topology;             /* the topology collectives ran on, as given; NULL: the chip's default slice */
};

/* One kernel of the plan, in plan order: its runs summed. */
struct rep_kernel {
    const char *name;                 /* "dot_general", "fusion(multiply,add,convert)" */
    bool has_loc;                     /* the kernel has a root op (a location) */
    const char *file;                 /* the op's file, else the model's path */
    int line, col;
    uint64_t launches;                /* 0: never ran (the other counts are 0) */
    uint64_t time_ps;                 /* device time, from each launch to its last result */
    uint64_t dispatch_ps;             /* host dispatch or launch gaps before its launches */
    uint64_t model_flops;             /* the graph's FLOPs x launches */
    uint64_t flops;                   /* as the simulator counts them */
    uint64_t hbm_bytes;
    enum rt_bound bound;              /* what limits it (when launches > 0) */
};

/* One collective as it ran (each run its own row, in order). */
struct rep_collective {
    const char *op;                   /* "stablehlo.all_reduce" */
    const char *file;                 /* the op's file, else the model's path */
    int line, col;
    const char *algorithm;            /* the interconnect model's schedule ("ring", "direct", "none") */
    uint32_t group_size, n_groups;
    double bytes;                     /* per chip */
    uint64_t start_ps, time_ps;       /* on the links */
    uint64_t exposed_ps;              /* the part the chip waited for */
    double busbw_gbps;
    double link_util_mean, link_util_max; /* fractions, over its time */
};

/* One collective op (the text table's rows): colls[first] is its first run,
 * whose size, algorithm and time stand for each run. */
struct rep_collective_op {
    uint32_t first;
    uint64_t runs;
    uint64_t exposed_ps;              /* summed over its runs */
};

/* One simulated chip. */
struct rep_chip {
    uint64_t total_ps, kernel_ps, dispatch_ps, collective_ps, collective_exposed_ps;
    int n_checks_failed;              /* the program's check ops that failed on it */
};

/* One of the program's own check ops (as run on chip 0). */
struct rep_check {
    bool passed;
    const char *what;                 /* the op and, on failure, the first mismatch */
    int line, col;                    /* in the model */
};

/* One output compared with the golden interpreter's (rt_compare_output). */
struct rep_output_check {
    int output;
    char type[96];                    /* the golden output's type: "8x64xbf16" */
    struct rt_compare cmp;
};

#define REP_MAX_HINTS 4

/* Tokens/s and $ per 1M tokens (the estimator, to come): a later section
 * that the writers will print when present.  Not filled yet. */
struct rep_throughput {
    bool present;
    double tokens_per_step;
    double tokens_per_s;
    double usd_per_chip_hour;
    double usd_per_mtok;
};
struct rep_compare_row; /* other chips and GPUs on the same graph (to come) */
struct rep_mode_row;    /* the same graph in other execution modes (to come) */

struct rep_run {
    /* what ran */
    const char *model;                /* the model's path as given */
    const char *chip;                 /* the chip's name */
    const char *mode;                 /* "compiled", "fused-eager", "eager" */
    int cores;
    bool timing_only;
    enum isa_precision precision;     /* f32 matmuls at the default precision run at this */
    uint32_t fp32_passes_default;     /* the chip's bf16 passes per f32 matmul at DEFAULT */
    int partitions;                   /* of the plan (1: not SPMD) */
    const char *topology;             /* NULL: the chip's default slice */
    uint32_t plan_kernels;            /* kernels in the plan */
    uint64_t launches, steps;

    /* time (chip 0's: the representative partition when one chip ran) */
    uint64_t total_ps;                /* dispatch and exposed collectives included */
    uint64_t total_cycles;            /* total_ps at clock_ghz */
    double clock_ghz;                 /* the first systolic engine's clock */
    uint64_t kernel_ps;               /* sum of kernel device times */
    uint64_t dispatch_ps;             /* host dispatch and launch gaps */

    /* collectives (SPMD plans) */
    uint64_t collectives;             /* how many ran */
    double collective_bytes;          /* per chip */
    uint64_t collective_ps, collective_exposed_ps;

    /* host fallback: ops the chip cannot run, run on the host */
    uint64_t host_ops;                /* how many ran */
    double host_bytes;                /* over the host link, both ways */
    uint64_t host_ps;                 /* their time (dispatch, transfers, host compute); the chip waits */

    /* FLOPs and MFU */
    uint64_t model_flops;             /* the graph's FLOPs, all launches */
    enum chip_rate_class peak_class;  /* bf16, unless every matmul takes f32 (fp32) or one takes fp8 */
    double peak_flops;                /* the chip's peak for peak_class, FLOP/s */
    double mfu;                       /* model_flops / (total time x peak_flops); 0 without a peak or time */
    double mfu_kernels;               /* the same over the kernels' time */
    bool any_f32_matmul;              /* a matmul of the plan takes f32 operands */

    /* HBM */
    uint64_t hbm_bytes;               /* through HBM, as simulated */
    double hbm_gbps;                  /* hbm_bytes / total time, GB/s */
    double hbm_gbps_kernels;          /* hbm_bytes / kernel time, GB/s */
    double hbm_peak_gbps;             /* the chip's HBM bandwidth, GB/s */
    uint64_t plan_hbm_bytes;          /* HBM the plan occupies */

    /* engines, per kind, all cores */
    uint32_t engine_count[ISA_ENGINE_KIND_COUNT]; /* 0: the chip has none of that kind */
    uint64_t engine_busy_ps[ISA_ENGINE_KIND_COUNT]; /* summed over the engines */
    double engine_util[ISA_ENGINE_KIND_COUNT]; /* busy / (count x total time), a fraction */

    uint32_t n_kernels;               /* = plan_kernels */
    struct rep_kernel *kernels;
    uint32_t n_colls;
    struct rep_collective *colls;
    uint32_t n_coll_ops;
    struct rep_collective_op *coll_ops;
    int n_chips;                      /* simulated */
    struct rep_chip *chips;
    uint64_t system_ps;               /* the slowest simulated chip's total */
    int n_checks, n_checks_failed;    /* the program's check ops (chip 0) */
    struct rep_check *checks;

    /* --check (rep_run_check_outputs) */
    bool outputs_checked;
    int n_output_checks;
    struct rep_output_check *output_checks;

    bool passed;                      /* no check op failed on any chip and every output compared equal */
    int n_hints;                      /* advice, one sentence each (no tool prefix) */
    const char *hints[REP_MAX_HINTS];

    /* Later sections (the estimator: tokens/s, $ per 1M tokens, other chips
     * and GPUs side by side, execution modes side by side) go here; each is
     * absent (present false, n 0) until the function that fills it exists,
     * and the writers print only sections that are present, so a run
     * report prints as above.  Not implemented yet. */
    struct rep_throughput throughput;
    uint32_t n_compare;
    struct rep_compare_row *compare;
    uint32_t n_modes;
    struct rep_mode_row *modes;

    struct base_arena arena;          /* private: the strings and rows */
};

/* Builds the report of a run (src: see struct rep_source).  BASE_ERR_NOMEM
 * (*out NULL) when out of memory; BASE_ERR_INVALID when src lacks the plan,
 * the statistics or the chips. */
enum base_status rep_run_create(const struct rep_source *src, struct rep_run **out);
void rep_run_destroy(struct rep_run *r);

/* --check: compares each output the plan computed (got[i]; the plan's
 * n outputs) with the golden interpreter's (want[i], n_want of them) as
 * rt_compare_output does, records the rows, updates r->passed and adds the
 * hints a failure calls for (f32 matmuls run at the chip's one-pass DEFAULT
 * precision).  plan: the one r was built from.  Call it once (the rows
 * replace any earlier ones; hints would repeat).  BASE_ERR_NOMEM only. */
enum base_status rep_run_check_outputs(struct rep_run *r, const struct cc_plan *plan, struct base_tensor *const *got,
                                       struct base_tensor *const *want, int n_want);
/* The same from comparisons already made, one per output as the run
 * produced it (a streaming --check: rep_output_check_fill on each, then
 * this once): the rows are copied, r->passed and the hints updated as
 * rep_run_check_outputs does.  BASE_ERR_NOMEM only. */
enum base_status rep_run_set_output_checks(struct rep_run *r, const struct rep_output_check *checks, int n);
/* One row: output i, got against want (rt_compare_output). */
void rep_output_check_fill(struct rep_output_check *o, const struct cc_plan *plan, int i, const struct base_tensor *got,
                           const struct base_tensor *want);

/* The run report as `npusim run` prints it: summary lines, the kernel table,
 * failed check ops, the collective table, the per-chip table or the SPMD
 * system line, and the output checks if there are any. */
void rep_run_write_text(const struct rep_run *r, FILE *f);
/* Only the output checks' lines (for a caller that printed the report
 * before the golden interpreter's run ended). */
void rep_run_write_text_checks(const struct rep_run *r, FILE *f);
/* The report as one JSON object and a newline (docs/report.md). */
void rep_run_write_json(const struct rep_run *r, FILE *f);

#endif
