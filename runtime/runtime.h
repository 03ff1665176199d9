/* runtime: runs a compiled plan (compiler/compiler.h) on a simulated chip.
 *
 * It does what a framework's runtime does on the real machine: puts the
 * inputs and constants in HBM, walks the plan's steps, emits each kernel for
 * every core and launches it (the simulator continues simulated time from
 * one launch to the next), pays the host's dispatch overhead before eager
 * kernels and the device's launch gap between compiled ones (the chip
 * file's [host] section), takes branches by reading scalars back from HBM,
 * runs the conformance suites' checks on the host, and reads the outputs.
 * Every launch is measured: time, FLOPs, HBM bytes, engine busy time and what
 * bounds it (docs/compiler.md "Runtime" and "Reports and tolerances").
 */
#ifndef NPUSIM_RUNTIME_H
#define NPUSIM_RUNTIME_H

#include "compiler/compiler.h"
#include "interconnect/interconnect.h"
#include "sim/sim.h"
#include "interp/interp.h"

/* What limits a kernel (docs/compiler.md states the rule). */
#define X_RT_BOUNDS(X)                                                        \
    X(COMPUTE, "compute")   /* an engine that computes is busy most of the time */ \
    X(MEMORY, "memory")     /* HBM traffic or the DMA queues are */              \
    X(DISPATCH, "dispatch") /* the host's dispatch / launch gap exceeds the kernel */ \
    X(WAITING, "waiting")   /* nothing is kept busy: latencies, fixed costs, waits */
enum rt_bound {
#define X(e, name) RT_BOUND_##e,
    X_RT_BOUNDS(X)
#undef X
        RT_BOUND_COUNT
};
const char *rt_bound_name(enum rt_bound b);

/* One collective as it ran (the report's collective table; the trace's). */
struct rt_collective {
    const struct graph_op *op;
    const char *algorithm;        /* icn_alg_name of the schedule the model chose; "none" if nothing moves */
    uint32_t group_size, n_groups;
    double bytes;                 /* per chip, as icn_coll_desc defines them */
    uint64_t start_ps, time_ps;   /* on the links (on the chip's clock); the interconnect model's time */
    uint64_t exposed_ps;          /* the part the chip waited for; the rest overlapped its kernels */
    double busbw_gbps;            /* NCCL's bus bandwidth: bytes / time x icn_busbw_factor */
    double link_util_mean, link_util_max; /* over the links it used, during its time */
};

struct rt_options {
    bool timing_only;    /* the sim was created timing-only: no values are read back */
    uint64_t max_steps;  /* stop (ERR_LIMIT) after this many steps; 0: the host-steps limit */
    const struct base_limits *limits; /* borrowed; NULL: the defaults */
    /* Loop reuse (timing-only runs; docs/compiler.md "Runtime"): a while
     * loop with a static trip count is simulated trip by trip until its
     * trips are seen to repeat exactly (the last two simulated trips grew
     * every counter by the same amount and left the same state behind:
     * collectives in flight, the links' next free time, relative to the
     * time), and at least loop_sample trips ran; the remaining trips are then
     * charged as copies of the last one (sim_repeat), their kernel, collective
     * and engine figures included.  A loop whose trips never repeat is
     * simulated in full.  Off by default; leave it off when recording a
     * trace (skipped trips have no events). */
    bool loop_reuse;
    uint32_t loop_sample; /* trips simulated before reuse may begin; 0: 2 (at least 2) */
    /* Optional: called before each kernel launch runs, at its start time,
     * with the plan's kernel index and the host dispatch / launch gap the
     * runtime advanced time by just before it (traces/). */
    void (*on_launch)(void *user, uint32_t kernel, uint64_t start_ps, uint64_t gap_ps);
    void *launch_user;
    /* The chips the partitions of an SPMD plan run on (cc_plan_num_partitions
     * > 1), partition i on rank i (on chip i / topo->ranks_per_chip):
     * collectives are timed on it.  NULL: the chip's own links in
     * rt_default_shape's shape, with the chip's ranks_per_chip ranks per
     * chip when the sims were created for one rank's share of a chip
     * (chip_rank_view: what npusim run does), else one partition per chip. */
    const struct icn_topo *topo;
    /* Optional: called as each collective starts (on chip 0 of a multi-chip
     * run, or on each chip with chip_users), with the topology it runs on and the bytes it moves over each
     * of its links (topo->n_links entries) (traces/). */
    void (*on_collective)(void *user, const struct rt_collective *c, const struct icn_topo *topo,
                          const double *link_bytes);
    void *collective_user;
    /* Optional, SPMD runs (rt_run_spmd): n entries; partition i calls
     * on_launch and on_collective with chip_users[i] as their user (one
     * recorder per chip).  NULL: only chip 0 calls them, with launch_user
     * and collective_user. */
    void *const *chip_users;
    /* interpreter.probe writes each value it reads back here, as the
     * interpreter does (interp_options.probe_dir); NULL: recorded in
     * memory only (for check.expect_serialized_eq) */
    const char *probe_dir;
    /* rt_run_spmd: spread the partitions over the processes of an MPI job
     * (dist/dist.h, after dist_init; docs/distributed.md): this process
     * simulates its dist_share of them, the others theirs.  Ignored in a job
     * of one process. */
    bool distributed;
    /* Optional, functional runs: each output as it is read back at the end
     * (an SPMD run's assembled from every chip's shard), one at a time, in
     * order, instead of into outputs[] (which may then be NULL): a borrowed
     * tensor the runtime releases when the call returns, so a caller that
     * compares or writes each output holds one at a time (npusim run
     * --check).  A status other than BASE_OK stops the run with it. */
    enum base_status (*on_output)(void *user, int i, const struct base_tensor *t);
    void *output_user;
};
void rt_options_default(struct rt_options *o);

/* One kernel of the plan, summed over its launches. */
struct rt_kernel_stats {
    uint64_t launches;
    uint64_t time_ps;          /* device time: from the launch to its last result */
    uint64_t dispatch_ps;      /* host dispatch or launch gap before its launches */
    uint64_t first_start_ps, last_end_ps;
    uint64_t flops;            /* as the simulator counts them (instructions' flops) */
    uint64_t model_flops;      /* the graph's FLOPs (cc_kernel_info.flops) x launches */
    uint64_t hbm_bytes;        /* through HBM, as simulated */
    uint64_t compute_busy_ps;  /* busiest computing engine (pe, vec, act, pool) of any core */
    uint64_t dma_busy_ps;      /* busiest DMA queue */
    uint64_t hbm_ps;           /* hbm_bytes at the chip's HBM bandwidth */
    uint64_t busy_ps[ISA_ENGINE_KIND_COUNT]; /* summed over the engines of that kind, all cores */
    uint64_t instructions;
    enum rt_bound bound;
};

struct rt_report {
    uint64_t total_ps;         /* simulated time at the end (dispatch included) */
    uint64_t device_ps;        /* sum of kernel device times */
    uint64_t dispatch_ps;      /* sum of dispatch overheads and launch gaps */
    uint64_t launches;
    uint64_t steps;            /* steps executed */
    uint32_t n_kernels;
    struct rt_kernel_stats *kernels; /* per plan kernel */
    int n_checks, n_checks_failed;
    struct interp_check_result *checks;
    /* collectives (SPMD plans): how many ran, bytes per chip, their time,
     * and the part of it the chip waited for (a collective runs while the
     * kernels after it that do not touch its buffers run; in a multi-chip
     * run it starts when the last chip arrives): total = device + dispatch
     * + exposed */
    uint64_t collectives;
    double collective_bytes;
    uint64_t collective_ps;
    uint64_t collective_exposed_ps;
    uint32_t n_colls;
    struct rt_collective *colls; /* each run, in order */
    /* ops the chip cannot run, run on the host (cc_options.no_fallback):
     * how many ran, the bytes they moved over the host link both ways, and
     * their time (dispatch, transfers, host compute), during which the chip
     * waits: total = device + dispatch + exposed collectives + host */
    uint64_t host_ops;
    double host_bytes;
    uint64_t host_ps;
    /* loop reuse (rt_options.loop_reuse): trips of static-count while loops
     * simulated, and trips charged as copies of a simulated one (a trip of
     * an outer loop counts once, whatever loops it holds) */
    uint64_t loop_trips_simulated, loop_trips_reused;
};
void rt_report_free(struct rt_report *r);

/* Runs plan on sim (created for the plan's chip, nothing loaded yet; the
 * caller destroys it).  inputs[i] is argument i (n_inputs ==
 * cc_plan_n_inputs; in timing-only runs entries may be NULL: only their
 * shape matters).  outputs[] (cc_plan_n_outputs entries) get new
 * references (NULL in timing-only runs).  report may be NULL.  Errors name
 * the kernel or op and its location.
 *
 * An SPMD plan (cc_plan_num_partitions > 1) runs here as one
 * representative partition: timing-only (every partition does the same
 * work), each collective taking the time the interconnect model gives it on
 * opt->topo, overlapped with the kernels that follow it and do not touch
 * its buffers.  Functional runs of such plans need every partition's
 * values (rt_run_spmd) and are refused, located. */
enum base_status rt_run(const struct cc_plan *plan, struct sim *sim, struct base_tensor *const *inputs, int n_inputs,
                        const struct rt_options *opt, struct base_tensor **outputs, struct rt_report *report,
                        struct base_diag *diag);

/* Runs an SPMD plan (cc_plan_num_partitions n > 1) on n simulated chips,
 * partition i on sims[i] (each created for the plan's chip, nothing loaded;
 * the caller destroys them), with the program's global values: inputs are
 * the entry function's arguments, cut into each partition's shards as the
 * manual computation's in_shardings say, and outputs[] (its results) are
 * assembled from the partitions' shards as out_shardings say, exactly as
 * the golden interpreter's multi-process run does.  Every chip runs its
 * kernels; at a collective the partitions meet (bulk-synchronous), the
 * values move with the interpreter's semantics (interp_spmd_grid), and the
 * collective runs from the latest arrival for its time on opt->topo while
 * each chip goes on with the kernels that do not need it.  Timing-only runs (opt->timing_only, sims created so) take no
 * inputs (NULL) and give no outputs.  reports: n of them, one per chip, or
 * NULL.  Partitions that reach different collectives fail, located.
 *
 * With opt->distributed in an MPI job of several processes, every process
 * calls this with the same plan and inputs; process k simulates partitions
 * [lo, hi) of dist_share (sims[p] and chip_users[p] are needed only for
 * those; the others may be NULL).  At each collective the processes meet:
 * every chip's simulated time and every partition's operands go to every
 * process, which evaluates the collective as one process would.  Rank 0
 * gets the outputs and every chip's report (another rank's chip: totals
 * and counters, without the kernel and collective tables); the other
 * ranks get no outputs.  Every process returns the same status. */
enum base_status rt_run_spmd(const struct cc_plan *plan, struct sim *const *sims, int n_sims,
                             struct base_tensor *const *inputs, int n_inputs, const struct rt_options *opt,
                             struct base_tensor **outputs, struct rt_report *reports, struct base_diag *diag);

/* The shape of the smallest slice of n chips (not ranks) the chip's links make
 * (icn_topo_from_chip): a ring of n; the most square a x b (a <= b) for a
 * 2-D torus; the most cubic a x b x c for a 3-D one; n on a switch. */
void rt_default_shape(const struct chip_desc *chip, uint32_t n, char *buf, size_t cap);

/* ------------------------------------------------------------- memory */

/* What a run will hold in host memory at its peak, estimated before it
 * starts from the plan, the program and its inputs (runtime/memest.c; the
 * model and its measured accuracy: docs/memory.md).  The run has two
 * phases: the golden interpreter (--check: it runs first), then the chips,
 * while the golden outputs wait to be compared with each output as it is
 * read back. */
struct rt_mem_request {
    const struct cc_plan *plan;
    struct base_tensor *const *inputs; /* the entry's arguments (lazy ones cost nothing), or NULL */
    int n_inputs;
    int n_chips;                      /* simulated chips */
    bool timing_only, sim_checks;     /* sim_options: no values; written-byte tracking */
    bool check;                       /* the golden interpreter runs and its outputs wait */
    bool keep_outputs;                /* outputs are read back (--out) */
    const struct graph_module *interp_module; /* the program --check runs (and whose results are the outputs) */
    const char *entry;
    int interp_processes;
    uint64_t module_bytes;            /* the parsed program(s), as the caller measured them */
};
struct rt_mem_estimate {
    uint64_t module_bytes;
    uint64_t inputs_bytes;            /* stored inputs */
    uint64_t lazy_bytes;              /* lazy inputs: computed when read, not held */
    int n_chips;
    uint64_t hbm_bytes;               /* per chip: simulated HBM pages the run stores */
    uint64_t sim_bytes;               /* per chip: page tables, scratchpads, accumulators, tracking */
    uint64_t interp_bytes;            /* the golden interpreter's peak (--check) */
    uint64_t golden_bytes;            /* its outputs, held while the chips run */
    uint64_t output_bytes;            /* the largest output read back: its shards and the whole */
    uint64_t kernel_bytes;            /* the largest kernel's instruction streams (emitted at its launch) */
    uint64_t interp_phase_bytes, sim_phase_bytes;
    uint64_t total_bytes;             /* the larger phase */
};
void rt_memory_estimate(const struct rt_mem_request *q, struct rt_mem_estimate *e);
/* "12.3 GiB (program ..., inputs ...; per chip x 8: ...)" */
void rt_memory_estimate_str(const struct rt_mem_estimate *e, char *buf, size_t cap);

/* ------------------------------------------------------- checking outputs */

/* How an output of the plan is compared with the golden interpreter's
 * (docs/compiler.md "Reports and tolerances"): integers and booleans
 * exactly; floats element by element within
 *     |got - want| <= atol + rtol |want|,   atol = rtol * max |want|
 * where rtol grows with the output type's epsilon, the longest contraction
 * of the plan's matmuls (at the precision the chip runs them) and the
 * longest reduction in a type below f32.  NaN matches NaN; infinities must
 * be equal. */
struct rt_tolerance {
    bool exact;
    double rtol, atol;
};
void rt_tolerance_for(const struct cc_plan *plan, const struct base_tensor *want, struct rt_tolerance *tol);

struct rt_compare {
    bool passed;
    struct rt_tolerance tol;
    int64_t n_bad;            /* elements outside the bound */
    int64_t n_allowed;        /* of them allowed: rare deep-network rounding flips (rt_compare_output) */
    int64_t worst;            /* index of the element closest to (or furthest past) its bound */
    double worst_ratio;       /* |got - want| / bound there (<= 1 passes; exact: 0 or inf) */
    double max_abs_err;
    double got_at_worst, want_at_worst;
};
/* Compares got with want (same type and shape, else not passed).  Floats
 * pass when every element is within its bound, or, in outputs of at least
 * 100 000 elements, when at most 1 in 100 000 elements exceed it and none by
 * more than 4x: a bf16 rounding that flips where the chip sums in another
 * order than the interpreter propagates through a deep network's later
 * layers (docs/compiler.md "Reports and tolerances"). */
void rt_compare_output(const struct cc_plan *plan, const struct base_tensor *got, const struct base_tensor *want,
                       struct rt_compare *out);

/* What a comparison is judged against (docs/compiler.md "Reports and
 * tolerances"). */
struct rt_check_options {
    /* the reference's matmuls ran as the chip runs them (the interpreter with
     * rt_interp_target_precision, or the real chip): the products match, only
     * the order of the f32 sums differs, whatever the precision */
    bool ref_at_target;
    /* >= 0: the user's tolerance replaces the derived one (an rtol alone
     * keeps atol = rtol * max |want|), and every element must be within it;
     * < 0: derived */
    double rtol, atol;
};
void rt_check_options_default(struct rt_check_options *o);
void rt_tolerance_for_opts(const struct cc_plan *plan, const struct base_tensor *want, const struct rt_check_options *o,
                           struct rt_tolerance *tol);
void rt_compare_output_opts(const struct cc_plan *plan, const struct base_tensor *got, const struct base_tensor *want,
                            const struct rt_check_options *o, struct rt_compare *out);

/* The interpreter options that make it multiply as the plan's chip does:
 * on a TPU f32 (and f16) matmuls in the chip's bf16 passes for each op's
 * precision (the plan's default for ops that ask for none); on a NeuronCore
 * f32 is native, and nothing changes (docs/golden-interpreter.md "Target
 * precision"). */
void rt_interp_target_precision(const struct cc_plan *plan, struct interp_matmul_precision *mp);
/* Whether that changes any product of the plan's matmuls (a TPU with an f32
 * or f16 matmul below 6 passes): then the precision effect is worth
 * reporting. */
bool rt_plan_reduces_precision(const struct cc_plan *plan);

/* ------------------------------------------------------ conformance cases */

/* True when every op and element type of m is in the compiler's promised
 * scope (the ops and types of the compiled-conformance bar: docs/compiler.md
 * "Conformance"); otherwise why names the first one that is not. */
bool rt_module_in_scope(const struct graph_module *m, char *why, size_t why_len);

/* What a compiled conformance case did besides its outcome. */
struct rt_case_info {
    /* its ops and types are in the bar's scope (rt_module_in_scope); a case
     * that does not parse counts as in scope: a parse error is a failure of
     * npusim, never the case's being out of scope */
    bool in_scope;
    bool ran;          /* compiled and ran to its end (its checks were evaluated) */
    uint64_t host_ops; /* host steps it ran (rt_report.host_ops): 0 when it ran entirely on the chip */
    uint64_t launches; /* kernel launches */
};

/* interp_run_case's twin for the compiled path: parses, verifies, compiles
 * the case for chip (copt may be NULL: compiled mode), runs it on a
 * functional simulator with its checks on, and evaluates the case's check
 * ops on the values the simulated machine produced.  *info (may be NULL)
 * gets its scope and how it ran.  Only out-of-memory is an error;
 * everything else is the outcome. */
enum base_status rt_run_case(const char *text, size_t len, const char *path, int first_line,
                             const struct chip_desc *chip, const struct cc_options *copt,
                             struct interp_case_result *res, struct rt_case_info *info);

#endif
