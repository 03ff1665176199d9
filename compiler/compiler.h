/* compiler: a StableHLO graph -> a plan of kernels for one chip.
 *
 * The plan follows how XLA and the Neuron compiler run a graph: every graph
 * value that crosses a kernel boundary lives in HBM (a buffer at a fixed
 * address); a kernel is one op or a fused group of ops, lowered to one
 * instruction stream per engine per core, reading its inputs from HBM in
 * tiles, computing on chip (scratchpad, accumulator) and writing its outputs
 * back.  The runtime (runtime/) launches the kernels one after another on a
 * simulated chip (struct sim), resolves control flow (while, if, case) and
 * data-dependent addresses (gather, scatter, dynamic_slice) between
 * launches, and runs the check ops of conformance files on the host.
 *
 * Kernels are emitted lazily, one at a time (cc_kernel_emit), so memory stays
 * bounded by the largest kernel, never the whole model.
 *
 * Modes (struct cc_options.mode) differ in grouping and in how a kernel is
 * dispatched, never in values:
 *   compiled     whole graph: elementwise chains and matmul epilogues fused;
 *                kernels launched back to back by the device
 *   fused-eager  op by op, runs of small elementwise ops fused; each kernel a
 *                host dispatch (the chip file's [host] overhead)
 *   eager        every op its own kernel through HBM, each a host dispatch
 */
#ifndef NPUSIM_COMPILER_H
#define NPUSIM_COMPILER_H

#include "base/base.h"
#include "graph/graph.h"
#include "isa/isa.h"
#include "chip/chip.h"

#define X_CC_MODES(X)                                                       \
    X(COMPILED, "compiled")                                                 \
    X(FUSED_EAGER, "fused-eager")                                           \
    X(EAGER, "eager")
enum cc_mode {
#define X(e, name) CC_MODE_##e,
    X_CC_MODES(X)
#undef X
        CC_MODE_COUNT
};
const char *cc_mode_name(enum cc_mode m);
bool cc_mode_lookup(const char *name, enum cc_mode *out);

struct cc_options {
    enum cc_mode mode;
    const char *entry;       /* function to compile; NULL: graph_module_entry */
    uint64_t hbm_base;       /* first HBM byte the plan may use (default 0) */
    int n_cores;             /* cores to spread kernels over; 0: all of the chip's */
    int num_partitions;      /* SPMD (issue 6); 0/1: one program */
    /* The precision an f32 dot_general or convolution whose precision_config
     * says DEFAULT (or nothing) runs at, as a framework's global setting does
     * (JAX's default_matmul_precision): on TPU DEFAULT is one bf16 pass.
     * Ops that ask for HIGH or HIGHEST keep their own. */
    enum isa_precision default_precision;
    /* An op the chip cannot run (no lowering, a type its engines lack) runs
     * on the host instead, through the golden interpreter, with its
     * transfers and host time charged (a HOST step), as torch_xla and the
     * Neuron runtime fall back to the CPU.  no_fallback makes such ops
     * errors, as before. */
    bool no_fallback;
};
void cc_options_default(struct cc_options *o);

/* ---------------------------------------------------------------- buffers */

enum cc_buffer_kind {
    CC_BUF_INPUT,    /* an argument of the entry function (arg_index) */
    CC_BUF_OUTPUT,   /* a result (out_index); may alias an input or constant */
    CC_BUF_CONST,    /* a literal (stablehlo.constant, folded iota...): init holds it */
    CC_BUF_TEMP,     /* an intermediate; addresses reused by liveness */
    CC_BUF_SCALAR,   /* a host-read scalar (a predicate, an index) */
    CC_BUF_PARTITION_ID, /* stablehlo.partition_id: a ui32 the runtime writes, the chip's partition */
    CC_BUF_REPLICA_ID,   /* stablehlo.replica_id: a ui32 the runtime writes (one replica: 0) */
};

struct cc_buffer {
    enum cc_buffer_kind kind;
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    uint64_t addr, bytes;          /* row-major at addr in HBM */
    int arg_index, out_index;      /* -1 unless INPUT / OUTPUT */
    const struct base_tensor *init; /* CONST: the value (owned by the plan or module) */
    uint32_t value_id;             /* the graph value it holds (graph_value.id) */
};

/* ------------------------------------------------------------------ steps */

enum cc_step_kind {
    CC_STEP_KERNEL,  /* launch kernel `kernel` on the cores */
    CC_STEP_BRANCH,  /* if the scalar in buffer `buffer` is zero, continue at step `target` */
    CC_STEP_JUMP,    /* continue at step `target` */
    CC_STEP_SWITCH,  /* case: continue at targets[clamp(index in buffer)] */
    CC_STEP_CHECK,   /* a check op of the conformance suites, run on the host */
    CC_STEP_COLLECTIVE, /* all_reduce, all_gather, ...: values move between the partitions' chips */
    CC_STEP_HOST,    /* an op the chip cannot run, run on the host (cc_options.no_fallback) */
};

/* What a kernel did, for reports: the graph ops in it, the root op's
 * location, its work. */
struct cc_kernel_info {
    char name[96];               /* "dot_general", "fusion(multiply,add,convert)" */
    const struct graph_op *root; /* its location and name */
    int n_ops;
    uint64_t flops;              /* model FLOPs (2 per multiply-add) */
    uint64_t hbm_bytes;          /* bytes read + written in HBM, as planned */
    bool dispatch;               /* a host dispatch precedes it (eager modes) */
};

struct cc_step {
    enum cc_step_kind kind;
    uint32_t kernel;               /* KERNEL: index into the plan's kernels */
    uint32_t buffer;               /* BRANCH, SWITCH: scalar buffer */
    uint32_t target;               /* BRANCH, JUMP */
    uint32_t n_targets;            /* SWITCH */
    const uint32_t *targets;
    const struct graph_op *op;     /* CHECK: the check op; its operands' buffers: */
    uint32_t n_check_buffers;
    const uint32_t *check_buffers;
    uint32_t check_out_buffer;     /* CHECK of @check.eq: its i1 verdict's buffer; UINT32_MAX: none */
    /* BRANCH of a while loop whose iteration count the compiler can tell
     * (a counter from a constant, stepped by a constant, compared with a
     * constant): how many times the body runs; -1 otherwise.  Lets a
     * timing-only run, which reads no values, take the branch. */
    int64_t trip_count;
    /* COLLECTIVE (op: the collective) and HOST (op: the op the host runs):
     * its operands' buffers, then its results' buffers (CC_NO_BUFFER for a
     * token: it holds nothing) */
    uint32_t n_in, n_out;
    const uint32_t *io_buffers;
};

#define CC_NO_BUFFER UINT32_MAX /* io_buffers: a token, no bytes */

struct cc_plan; /* opaque: owns everything below */

/* Compiles the entry function for `chip`.  Unsupported ops, types or
 * attributes are an ERR_UNSUPPORTED naming the op and its location (never
 * skipped); so are graphs that cannot fit the chip (ERR_LIMIT). */
enum base_status cc_compile(const struct graph_module *m, const struct chip_desc *chip,
                            const struct cc_options *opt, struct cc_plan **out, struct base_diag *diag);
void cc_plan_destroy(struct cc_plan *p);

const struct chip_desc *cc_plan_chip(const struct cc_plan *p);
enum cc_mode cc_plan_mode(const struct cc_plan *p);
enum isa_precision cc_plan_default_precision(const struct cc_plan *p); /* cc_options.default_precision */
/* The precision the f32 (and, on a TPU, f16) matmuls of a dot_general, dot
 * or convolution of the plan run at: its algorithm's, else the higher of
 * its precision_config (HIGH, HIGHEST), else the plan's default. */
enum isa_precision cc_plan_op_precision(const struct cc_plan *p, const struct graph_op *op);
/* > 1 when the plan is the program one partition runs (an entry function
 * that is one sdy.manual_computation: its body, on the partition's shards;
 * inputs and outputs are the shards): the number of partitions (the mesh's
 * devices).  1 otherwise. */
int cc_plan_num_partitions(const struct cc_plan *p);
/* The module compiled (borrowed: it must outlive the plan's use), and for
 * an SPMD plan the sdy.manual_computation whose body it is (else NULL):
 * its in/out shardings say how global values map to the shards. */
const struct graph_module *cc_plan_module(const struct cc_plan *p);
const struct graph_op *cc_plan_manual_computation(const struct cc_plan *p);
uint32_t cc_plan_n_buffers(const struct cc_plan *p);
const struct cc_buffer *cc_plan_buffer(const struct cc_plan *p, uint32_t i);
uint32_t cc_plan_n_steps(const struct cc_plan *p);
const struct cc_step *cc_plan_step(const struct cc_plan *p, uint32_t i);
uint32_t cc_plan_n_kernels(const struct cc_plan *p);
const struct cc_kernel_info *cc_plan_kernel_info(const struct cc_plan *p, uint32_t k);
uint64_t cc_plan_hbm_bytes(const struct cc_plan *p); /* HBM the plan occupies from hbm_base */
/* Number of inputs / outputs of the entry function and their buffers. */
int cc_plan_n_inputs(const struct cc_plan *p);
int cc_plan_n_outputs(const struct cc_plan *p);
uint32_t cc_plan_input_buffer(const struct cc_plan *p, int i);
uint32_t cc_plan_output_buffer(const struct cc_plan *p, int i);

/* Values the runtime reads from simulated HBM before emitting a kernel whose
 * addresses depend on data (dynamic_slice starts, gather indices): the
 * kernel's dynamic operands, as buffers. */
uint32_t cc_kernel_n_dyn(const struct cc_plan *p, uint32_t k);
uint32_t cc_kernel_dyn_buffer(const struct cc_plan *p, uint32_t k, uint32_t i);
/* The buffers kernel k reads (results false: its inputs, dynamic operands
 * among them) or writes (results true). */
uint32_t cc_kernel_n_operands(const struct cc_plan *p, uint32_t k, bool results);
uint32_t cc_kernel_operand_buffer(const struct cc_plan *p, uint32_t k, bool results, uint32_t i);

struct cc_emit_ctx {
    uint32_t core;                        /* the program is for this core */
    uint32_t n_cores;                     /* cores the kernel is spread over */
    /* the kernel's dynamic operands, read by the runtime (NULL in
     * timing-only runs: the kernel then assumes index 0 and says so in its
     * info) */
    const struct base_tensor *const *dyn;
};

/* Emits kernel k's program for ctx->core into `out` (initialised by the
 * caller with isa_program_init; the caller frees it).  Deterministic. */
enum base_status cc_kernel_emit(const struct cc_plan *p, uint32_t k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag);

/* Cores the plan spreads each kernel over (options.n_cores, or all). */
int cc_plan_n_cores(const struct cc_plan *p);

/* ---------------------------------------------------------------- coverage */

/* Which ops of a module the compiler lowers for a chip: each op kind in the
 * entry function and the functions it calls (regions of while/if/case
 * included; bodies of reduce and the like belong to their op), with its
 * count and, for what is not lowered, the first reason and every location. */
struct cc_coverage_entry {
    enum graph_op_kind kind;
    char name[64];           /* "stablehlo.sort" */
    int count;
    bool supported;          /* every occurrence is lowered for the chip */
    char why[200];           /* the first reason one is not */
    int n_unsupported;       /* occurrences the chip cannot run, host fallback included */
    int n_host;              /* of those, how many run on the host (cc_options.no_fallback: none may) */
    struct graph_loc *locs;  /* n_unsupported locations */
};
struct cc_coverage {
    int n_entries;
    struct cc_coverage_entry *entries; /* in order of first appearance */
    int n_ops, n_unsupported, n_host;
};
enum base_status cc_coverage(const struct graph_module *m, const struct chip_desc *chip, const char *entry,
                             struct cc_coverage *out, struct base_diag *diag);
void cc_coverage_free(struct cc_coverage *c);

#endif
