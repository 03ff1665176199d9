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
    uint32_t ranks_per_chip;          /* partitions (ranks) per chip; 0 or 1: a partition per chip */
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

/* Tokens/s and $ per 1M tokens of a system running one step of a workload
 * (the estimator: report/estimate.h, docs/estimate.md). */
struct rep_throughput {
    bool present;
    double tokens_per_step;           /* the system's, one step */
    uint32_t chips;                   /* the system's */
    double step_s;
    double tokens_per_s;              /* the system's: tokens_per_step / step_s */
    double tokens_per_s_per_chip;
    bool has_price;                   /* false: no price for the chip (give --price) */
    double usd_per_chip_hour;
    char price_basis[256];            /* "on-demand, us-central1, ... [S45] ..."; "--price" */
    bool price_is_estimate;           /* the price's row is not a list price */
    double usd_per_step;              /* usd_per_chip_hour x chips x step_s / 3600 */
    double usd_per_mtok;              /* usd_per_step / tokens_per_step x 1e6 */
};

/* Memory per device of a system (bytes).  The breakdown is the estimator's
 * model of what a framework keeps (presets; docs/estimate.md); the plan's
 * figures are the simulated program's buffers. */
struct rep_memory {
    bool modelled;                    /* the breakdown below is set (presets) */
    double weights, optimizer, gradients, activations, kv_cache;
    double total;                     /* modelled: the breakdown's sum; else the plan's, donated */
    double plan_bytes;                /* the compiled plan's buffers (inputs, outputs, temporaries) */
    double plan_donated_bytes;        /* the same with each output that has an input's type in its place */
    double capacity;                  /* the chip's HBM */
    bool fits;                        /* total <= capacity */
};

/* One system (a chip kind and a count) running the same workload: a row of
 * the estimator's table.  kind "simulated" rows are npusim's; "gpu" rows and
 * the execution modes and recompile figures are room for what comes next. */
struct rep_compare_row {
    char kind[16];                    /* "simulated" ("gpu": to come) */
    char chip[CHIP_NAME_MAX];
    uint32_t chips;
    char mode[16];                    /* "compiled" */
    char layout[96];                  /* "fsdp=64,tp=4"; a graph's own: "8 partitions x 32" (replicas) */
    int dp, fsdp, tp, sp, ep, pp, microbatches;
    bool layout_searched;             /* chosen by the search (no --parallel) */
    uint32_t layouts_considered, layouts_fit, layouts_simulated;
    bool ok;                          /* the figures below are set; else error says why */
    char error[320];
    uint64_t step_ps;                 /* one step of the system (the representative chip's total) */
    uint64_t kernel_ps, dispatch_ps, collective_ps, collective_exposed_ps, host_ps;
    double model_flops;               /* one step, the whole system */
    double peak_flops;                /* per chip, of the MFU's class */
    double mfu;                       /* model_flops / (step x chips x peak) */
    struct rep_memory mem;
    struct rep_throughput thr;
    uint64_t loop_trips_simulated, loop_trips_reused;
    /* to come (the next issue): recompiles of a dynamic-shape workload */
    bool has_recompiles;
    uint32_t recompiles;
    double recompile_s;
};

/* The same graph in another execution mode (to come; never filled yet). */
struct rep_mode_row {
    char mode[16];
    uint64_t step_ps;
    double tokens_per_s, usd_per_mtok;
};

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
    uint32_t ranks_per_chip;          /* partitions (ranks) per chip, >= 1: rank r on chip r / ranks_per_chip */
    int system_chips;                 /* chips the partitions occupy: ceil(partitions / ranks_per_chip) */
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

    /* loop reuse (timing-only): static-count while loop trips simulated, and
     * charged as copies of a simulated trip (rt_options.loop_reuse) */
    uint64_t loop_trips_simulated, loop_trips_reused;

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
