/* interp: the golden interpreter.  It runs a graph module with the
 * StableHLO spec's semantics (regions, quantized ops, collectives over
 * several processes, one thread each) and defines "correct" for the
 * compiled path (docs/golden-interpreter.md).  It reads the IR of graph/
 * and never changes it.
 */
#ifndef NPUSIM_INTERP_INTERP_H
#define NPUSIM_INTERP_INTERP_H

#include "graph/graph.h"

/* Number of devices of the module's (first) sdy.mesh, or 1 without a mesh. */
int interp_module_mesh_size(const struct graph_module *m);

struct interp_check_result {
    bool passed;
    char what[256];            /* check op name and, on failure, first mismatch */
    struct graph_loc loc;
};

struct interp_options {
    int num_replicas;          /* default 1 */
    int num_partitions;        /* default 1 */
    const char *probe_dir;     /* interpreter.probe writes <dir>/<id>_<iteration>.npy (several
                                  processes: <dir>/p<process>_<id>_<iteration>.npy); NULL: keep
                                  probes in memory only */
    struct base_logger *log;   /* written to by every process thread at once: its sink must be
                                  thread-safe (the default, stderr, is) */
    uint64_t seed;             /* seeds stablehlo.rng (with each op's id) */
    int max_call_depth;        /* 0: 256 */
    /* Matmuls as a target chip computes them, so that a chip's outputs are
     * compared with a reference at the chip's own precision
     * (docs/golden-interpreter.md "Target precision"); all zero: the spec's
     * f32 products. */
    struct interp_matmul_precision {
        bool emulate;          /* f32 dot / dot_general operands go through bf16 passes */
        bool f16_passes;       /* f16 operands too (a TPU's arrays do not take f16) */
        int default_level;     /* precision of an op that asks for none: 0 DEFAULT, 1 HIGH, 2 HIGHEST */
        uint8_t passes[3];     /* per level: 1, 3 or 6 bf16 passes; anything else multiplies in f32 */
    } matmul;
    void (*on_op)(void *user); /* optional: called by process 0 after each op it runs (progress) */
    void *op_user;
    const struct base_limits *limits; /* borrowed; NULL: the defaults (loop-trips: while loops) */
};

/* The precision level a dot or dot_general asks for: 0 DEFAULT, 1 HIGH, 2
 * HIGHEST; its algorithm's (bf16 1x1x1 DEFAULT, bf16 3x3x3 HIGH, bf16 3x3x6
 * or f16 / f32 HIGHEST), else the higher of its precision_config, else
 * default_level.  The compiler resolves it the same way (cc_dot_precision). */
int interp_dot_precision_level(const struct graph_op *op, int default_level);

struct interp_result {
    int n_outputs;
    struct base_tensor **outputs;   /* per process: outputs[p * n_outputs_per_process + i] */
    int n_processes;
    int n_checks;
    struct interp_check_result *checks;
    int n_checks_failed;
};

/* Runs func `entry` (NULL: graph_module_entry) with the given inputs on
 * num_replicas * num_partitions processes (inputs per process, in process
 * order, or one set shared by all).  Checks inside the program are recorded
 * in the result; a failing check is not an error status. */
enum base_status interp_run(const struct graph_module *m, const char *entry,
                                  struct base_tensor *const *inputs, int n_inputs,
                                  const struct interp_options *opt,
                                  struct interp_result *res, struct base_diag *diag);
void interp_result_free(struct interp_result *res);

/* An estimate of the most memory interp_run of func `entry` (NULL: the
 * entry function) on n_processes processes holds at once: its values alive
 * together, walked in program order with the run's liveness, and what ops
 * hold while they run.  The inputs are not counted (the caller holds them);
 * lazy_args[i] (may be NULL) says argument i is lazy, so an op that reads it
 * whole holds a copy for its run.  docs/memory.md states its accuracy. */
uint64_t interp_estimate_peak_bytes(const struct graph_module *m, const char *entry, const bool *lazy_args,
                                    int n_processes);

/* Evaluates one check op (check.expect_eq, expect_eq_const, expect_almost_eq,
 * expect_almost_eq_const, expect_close, or custom_call @check.* without
 * results, or @check.eq whose i1 result is the verdict) on the given operand
 * tensors with the interpreter's semantics, for runtimes that compute the
 * operands elsewhere (runtime/).  res gets the verdict; a failing check is
 * not an error status. */
enum base_status interp_check_eval(const struct graph_op *op, struct base_tensor *const *operands, int n_operands,
                                  struct interp_check_result *res, struct base_diag *diag);

/* check.expect_serialized_eq on `operand`, against `recorded`: the value its
 * probe (interpreter.probe with the same probe_id) recorded at the op's
 * iteration (`iter`), NULL when none was.  For runtimes that record probes
 * themselves (runtime/); the verdict as interp_check_eval gives it. */
enum base_status interp_serialized_check_eval(const struct graph_op *op, const struct base_tensor *operand,
                                             const struct base_tensor *recorded, struct interp_check_result *res,
                                             struct base_diag *diag);

/* For runtimes that run an SPMD program's partitions themselves (runtime/):
 * the interpreter's semantics for what crosses partitions, so that their
 * values are the golden multi-process run's.
 *
 * interp_sdy_cut: partition `partition`'s shard of operand `operand` of the
 * sdy.manual_computation mc, given the operand's global value (the shard
 * may be `global` itself when it is replicated).  interp_sdy_assemble: global
 * result `result` of mc from every partition's local result (locals[p]). */
enum base_status interp_sdy_cut(const struct graph_module *m, const struct graph_op *mc, int operand, int partition,
                               int num_partitions, struct base_tensor *global, struct base_tensor **shard,
                               struct base_diag *diag);
enum base_status interp_sdy_assemble(const struct graph_module *m, const struct graph_op *mc, int result,
                                    int num_partitions, struct base_tensor *const *locals,
                                    struct base_tensor **global, struct base_diag *diag);

/* A grid of num_partitions processes (one replica) that evaluates
 * collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
 * collective_permute, collective_broadcast) on every partition's operands at
 * once: operands[p * n_operands + i] -> results[p * n_results + j] (new
 * references).  Successive calls are successive collectives of the program,
 * matched as the interpreter matches them. */
struct interp_spmd_grid;
enum base_status interp_spmd_grid_create(const struct graph_module *m, int num_partitions,
                                        struct interp_spmd_grid **out, struct base_diag *diag);
enum base_status interp_spmd_grid_eval(struct interp_spmd_grid *g, const struct graph_op *op,
                                      struct base_tensor *const *operands, struct base_tensor **results,
                                      struct base_diag *diag);
void interp_spmd_grid_destroy(struct interp_spmd_grid *g);
/* One partition's op that is not a collective (its regions included), for
 * runtimes that run on the host what a chip cannot (host fallback):
 * operands -> results (new references), as partition `partition` of the
 * grid sees it (partition_id reads it).  A token operand is passed as NULL,
 * and a token result comes back as NULL.  The grid keeps what outlives one
 * op: send/recv channels, the outfeed.  Calls for different partitions may
 * run at once, from different threads. */
enum base_status interp_spmd_grid_eval_local(struct interp_spmd_grid *g, const struct graph_op *op, int partition,
                                            struct base_tensor *const *operands, struct base_tensor **results,
                                            struct base_diag *diag);
/* Whether the interpreter runs ops of this kind (it has a kernel for it). */
bool interp_kind_supported(enum graph_op_kind kind);
/* Whether op is a top-k custom call the interpreter runs (custom_call
 * @mhlo.topk or @TopK with one operand and two results, values and indices):
 * its k (the values' last dim) and whether it keeps the largest entries
 * (largest first) or the smallest (smallest first). */
bool interp_topk_call(const struct graph_op *op, int64_t *k, bool *largest);

/* ------------------------------------------------------------------------ */
/* Conformance cases                                                         */

enum interp_case_outcome {
    INTERP_CASE_PASS,        /* ran, and every check passed (or it has none); a verifier
                               case: rejected, as expected */
    INTERP_CASE_FAIL,        /* a check failed, or parsing/verifying/running failed; a
                               verifier case: accepted although it expects an error */
    INTERP_CASE_UNSUPPORTED, /* uses an op, type or attribute npusim does not support */
    INTERP_CASE_NOCHECK,     /* parsed and verified only: it has no check ops, or its entry
                               takes arguments and nothing supplies them (the dynamic-shape
                               programs of the testdata) */
};

struct interp_case_result {
    enum interp_case_outcome outcome;
    int n_checks;
    int n_checks_failed;
    bool expects_error;     /* a verifier case: it carries `expected-error` comments */
    bool accepted;          /* parsing and verifying succeeded */
    bool message_resembles; /* a rejected verifier case: our message resembles an expected one */
    char expected[200];     /* a verifier case's first expected message */
    char reason[600];       /* first failure, located (a rejected verifier case: the rejection) */
};

/* Parses, verifies and runs one conformance case: a whole file or one
 * `// -----` chunk of it (first_line: the chunk's first line in the file,
 * so reported lines match the file).  The entry is @main or the module's
 * only function.  Never fails for a bad case: the outcome says what happened;
 * only out-of-memory is returned as an error.
 *
 * A chunk with `// expected-error {{...}}` comments is a verifier case (as
 * upstream's `stablehlo-opt -verify-diagnostics` runs them): it passes when
 * parsing or verifying rejects it, and fails when both accept it.  A chunk
 * without check ops (check.*, custom_call @check.*, interpreter.probe/print)
 * passes when it parses and verifies (NOCHECK); it is not run. */
enum base_status interp_run_case(const char *text, size_t len, const char *path, int first_line,
                                const struct interp_options *opt, struct interp_case_result *res);
const char *interp_case_outcome_name(enum interp_case_outcome o);
/* Whether a rejection message resembles an expected one (most of the
 * expected message's significant words appear in it); `{{regex}}` parts of
 * the expected message are ignored. */
bool interp_message_resembles(const char *expected, const char *actual);

/* Dynamic cases (interp/dyncase.c, docs/dynamic-shapes.md): an entry that
 * takes arguments with '?' dimensions and no inputs.  Each '?' is
 * INTERP_DYN_CASE_SIZE; graph_refine makes the static program (dimension
 * arguments inferred), inputs are random (seeded), and `want` holds the
 * original, dynamic program's outputs, run as it is. */
#define INTERP_DYN_CASE_SIZE 3
struct interp_dyn_case {
    struct graph_module *refined;
    struct base_tensor **inputs;
    int n_inputs;
    struct base_tensor **want;
    int n_want;
};
bool interp_case_is_dynamic(const struct graph_module *m, const struct graph_op *entry);
/* The case cannot be made checkable that way (the sizes tried do not fit the
 * program's static dims, the shapes depend on values, the original does not
 * run on random inputs): the caller counts it nocheck with this diag's
 * reason, never a failure; only a refined program that differs from the
 * original fails. */
enum base_status interp_dyn_case_prepare(const struct graph_module *m, const struct graph_op *entry,
                                         struct interp_dyn_case *c, struct base_diag *diag);
void interp_dyn_case_free(struct interp_dyn_case *c);
/* Same type, shape and bytes; else *first_diff is the first element that differs (-1: the types). */
bool interp_tensors_identical(const struct base_tensor *a, const struct base_tensor *b, int64_t *first_diff);

#endif
