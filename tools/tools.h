/* Shared bits of the npusim command line (tools/ only). */
#ifndef NPUSIM_TOOLS_H
#define NPUSIM_TOOLS_H

#include "npusim.h"
#include "isa/isa.h"

#define NPUSIM_VERSION "0.1.0"

/* Exit codes: 0 ok, 1 the work failed (bad input, failing checks), 2 usage. */
enum { TOOL_OK = 0, TOOL_FAIL = 1, TOOL_USAGE = 2 };

struct tool_cmd {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

/* The commands of npusim (tools/commands.c), and the one named name (NULL:
 * none). */
const struct tool_cmd *tool_commands(size_t *n);
const struct tool_cmd *tool_command_find(const char *name);

int cmd_parse(int argc, char **argv);
int cmd_interp(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_chips(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_gemm(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_net(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_partition(int argc, char **argv);
/* Partitions m for a mesh (mesh NULL: from the graph) and per-argument
 * shardings ("ARG=SPEC", as `npusim partition --shard`): the new module
 * (graph_module_destroy), a summary on stderr; errors printed (TOOL_USAGE,
 * TOOL_FAIL). */
int tool_partition(const struct graph_module *m, const char *model, const char *entry, const char *mesh,
                   const char *const *shards, int n_shards, struct graph_module **out);
int cmd_view(int argc, char **argv);
/* npusim run over MPI ranks (tools/mpi.c, docs/distributed.md).  Joins the
 * job when asked (--mpi) or started by mpirun; ranks other than 0 write no
 * stdout.  Errors printed: TOOL_FAIL. */
int tool_mpi_start(bool asked);
/* Leaves the job; a rank that failed outside the chips' lockstep (in_step
 * false: before or after it), where the others may wait for it, ends the job. */
void tool_mpi_end(int rc, bool in_step);
/* Merges every chip's trace (recs: n_recs chips, this rank's share of them
 * given) into t, chip 0's: rank 0 gets every rank's chips, in order; the
 * other ranks send theirs.  n_records: the records merged (rank 0) or sent. */
struct trc_trace;
struct rec_recorder;
enum base_status tool_mpi_merge_traces(struct trc_trace *t, struct rec_recorder **recs, int n_recs, uint64_t *n_records,
                                       struct base_diag *d);

/* npusim run's output checks (tools/run_check.c): --rtol, --atol (VALUE or
 * OUTPUT=VALUE, OUTPUT an index or output_N), --expect DIR. */
#define TOOL_CHECK_MAX_OVERRIDES 64
struct tool_check_opts {
    double rtol, atol; /* < 0: derived (docs/compiler.md "Reports and tolerances") */
    struct {
        int output;
        bool is_atol;
        double value;
    } over[TOOL_CHECK_MAX_OVERRIDES];
    int n_over;
    const char *expect_dir; /* reference outputs DIR/output_N.npy instead of the interpreter */
};
void tool_check_opts_init(struct tool_check_opts *c);
/* Consumes argv[*i] when it is one of the options above; *bad (message
 * printed) when its value is not valid. */
bool tool_check_opt(int argc, char **argv, int *i, struct tool_check_opts *c, bool *bad);
struct rep_run;
struct cc_plan;
struct rep_output_check;
struct rt_check_options;
/* The reference c asks for, output by output as the chips give them back
 * (a streamed --check): the expected files (read when each output comes),
 * or the golden interpreter running m on in (num_partitions processes) as
 * the chip multiplies, run before, plus an f32 run for the precision effect
 * when the chip's matmuls lose precision.  Errors printed: TOOL_FAIL. */
struct tool_check {
    const struct tool_check_opts *opts;
    bool active;
    int n, n_checked;
    struct rt_check_options *co;      /* per output */
    struct base_tensor **want, **exact; /* per output: the reference (process 0's), the f32 one */
    char against[4200];
};
int tool_check_begin(struct tool_check *k, const struct tool_check_opts *c, const struct cc_plan *p,
                     const struct graph_module *m, const char *entry, struct base_tensor *const *in, int n_in,
                     int num_partitions, void (*on_op)(void *user), void *op_user);
/* Compares output i (got) into row, then frees its reference. */
int tool_check_output(struct tool_check *k, const struct cc_plan *p, int i, const struct base_tensor *got,
                      struct rep_output_check *row);
/* The rows compared so far into report, with what they were compared with. */
enum base_status tool_check_finish(const struct tool_check *k, struct rep_run *report, const struct rep_output_check *rows);
void tool_check_free(struct tool_check *k);

/* Prints a diagnostic to stderr as "npusim: file:line:col: error: ...".  A
 * diagnostic without a message is a bug: it prints what it can and, under
 * NPUSIM_STRICT_DIAG=1 (the tests), aborts. */
void tool_print_diag(const struct base_diag *d);
/* The limits of this run (docs/limits.md): defaults raised by --limit
 * NAME=VALUE and --allow-special-files, which main takes from any command's
 * arguments before the command sees them. */
const struct base_limits *tool_limits(void);
struct base_limits *tool_limits_edit(void); /* main, before the command runs */
/* A count option's value: whole, exact, in [lo, hi] (base_parse_u64: "4x",
 * "-5" and wrapped values are refused); prints the error naming the option
 * (and, when k >= 0 and the value is past the limit, the limit) and returns
 * false. */
bool tool_count(const char *cmd, const char *opt, const char *v, uint64_t lo, uint64_t hi, int k, uint64_t *out);
/* Parses and verifies a model file; prints the diagnostic on failure. */
struct graph_module *tool_load_model(const char *path, bool verify);
/* Ops of dialects npusim does not know (other dialects, ops newer than
 * npusim): when m has any, prints one line to f naming each dialect, its op
 * count and its first op with its position, and returns their number. */
int tool_unknown_dialects(const struct graph_module *m, const char *path, FILE *f);
/* Input i of a --random-inputs SEED run (interp and run give the same):
 * weight-like tensors (rank >= 2) get a standard deviation of 1/sqrt(fan-in),
 * as common initialisations do.  procedural: a tensor of at least
 * TOOL_PROCEDURAL_MIN_BYTES is lazy (base_tensor_create_random: each value
 * computed when read, never stored whole; the same values); smaller ones,
 * and all with !procedural, are stored. */
#define TOOL_PROCEDURAL_MIN_BYTES (UINT64_C(64) << 10)
enum base_status tool_random_tensor(const struct graph_type *ty, uint64_t seed, int i, bool procedural,
                                    struct base_tensor **out);
/* Elided constants (dense_resource<__elided__>) of m: with seed >= 0 they are
 * filled with random values (a stream of their own, so arguments keep theirs)
 * and a line on stderr says how many; with seed < 0 and need_values, an error
 * names the first and asks for --random-inputs.  TOOL_OK or TOOL_FAIL. */
int tool_fill_elided(struct graph_module *m, const char *cmd, long seed, bool need_values);
/* Option parsing helpers: "--name value" or "--name=value". */
bool tool_opt(int argc, char **argv, int *i, const char *name, const char **value);
bool tool_flag(const char *arg, const char *name);
/* "default", "high" or "highest" (the --precision option). */
bool tool_precision_parse(const char *s, enum isa_precision *out);
/* A JSON string: quotes, backslashes and control characters escaped ("" for
 * NULL).  The one escaper of tools/ (report/ has its own for the run report). */
void tool_json_str(FILE *f, const char *s);
/* Dynamic shapes (tools/dyn.c, docs/dynamic-shapes.md): --shape ARG=DIMS,
 * --dim ARG=N, --no-refine of interp and run. */
#define TOOL_DYN_MAX 64
struct tool_dyn {
    const char *shapes[TOOL_DYN_MAX];
    int n_shapes;
    const char *dims[TOOL_DYN_MAX];
    int n_dims;
    bool no_refine;
};
struct graph_refine_result;
/* Consumes argv[*i] when it is one of the options above. */
bool tool_dyn_opt(int argc, char **argv, int *i, struct tool_dyn *d);
/* When *m is dynamic: refines it (graph_refine) from the shapes and scalar
 * values of the --inputs files (inputs: their comma-separated list, or NULL)
 * or from --shape and --dim, prints what it did on stderr, and hands back
 * the refined module in *m and the original in *orig (NULL when nothing was
 * refined).  TOOL_OK, or an error printed (TOOL_FAIL, TOOL_USAGE). */
int tool_dyn_refine(const char *cmd, struct graph_module **m, struct graph_module **orig, const char *entry,
                    const char *inputs, const struct tool_dyn *d, struct graph_refine_result *res);
/* Random inputs of a refined program: the dimension arguments get the values
 * refinement gave them. */
void tool_dyn_set_dim_args(struct base_tensor **in, int n, const struct graph_refine_result *res);
/* An output file written whole or not at all (base_out: a temporary name in
 * the same folder, renamed at the end).  path NULL: stdout (o->f = stdout).
 * begin prints the error and returns false; end commits when ok (or aborts,
 * removing the temporary) and returns TOOL_OK or TOOL_FAIL, the error
 * printed naming the file and the reason. */
bool tool_out_begin(struct base_out *o, const char *path);
int tool_out_end(struct base_out *o, bool ok);
/* a and b name the same existing file (an output must not overwrite its input). */
bool tool_same_file(const char *a, const char *b);
/* The --out folder: made when missing (the last folder only: its parent
 * must exist); false with the error printed. */
bool tool_out_dir(const char *cmd, const char *path);

/* --weights PATH (a .safetensors file, a directory of shards with its
 * model.safetensors.index.json, or the index): each argument of func from
 * the tensor --weights-map (MAP, may be NULL) names for it, else the tensor
 * of its own name, else of its jax.arg_info; lazy (memory-mapped, converted
 * to the argument's type when read); arguments the file lacks random
 * (seed >= 0) or an error.  0, or TOOL_FAIL after saying why (tools/weights.c). */
int tool_weights_inputs(const char *path, const char *map_path, const struct graph_op *func, long seed,
                        struct base_tensor **in);

/* ------------------------------------------------------------ memory */
struct rt_mem_estimate;
/* The memory limit of a run: --max-memory (opt, may be NULL) or the machine's
 * available memory.  Prints the estimate; when it exceeds the limit, prints
 * "out of memory: needed N, available M" and returns TOOL_FAIL (nothing has
 * run yet); a bad SIZE is TOOL_USAGE.  Otherwise an explicit --max-memory
 * becomes the process's data limit (setrlimit RLIMIT_DATA; not under the
 * sanitizers), so that an estimate too low ends in a clear out-of-memory
 * error, not the system's OOM killer.  `quiet`: the estimate line only when refusing. */
int tool_memory_admit(const char *cmd, const struct rt_mem_estimate *est, const char *max_memory, bool quiet);
/* "npusim CMD: out of memory: needed N, available M: what" on stderr. */
void tool_print_nomem(const char *cmd, uint64_t needed, const char *what);
/* A failed run's diagnostic; an out-of-memory one also says what the whole
 * run was estimated to need. */
void tool_print_run_error(const char *cmd, const struct base_diag *d, uint64_t estimate_bytes);
/* "npusim CMD: peak memory X (estimated Y)" on stderr. */
void tool_print_peak_memory(const char *cmd, uint64_t estimate_bytes);

/* ------------------------------------------------------------ progress */
/* One line on stderr, rewritten in place, for runs longer than 2 s when
 * stderr is a terminal (and not --quiet): the phase, ops compiled, kernels
 * simulated, simulated time so far, ETA (tools/progress.c). */
struct cc_plan;
struct tool_progress {
    bool enabled, printed;
    FILE *out;
    double t0, phase_t0, last_print;
    const char *phase;
    const struct cc_plan *plan;
    uint32_t n_kernels;
    uint8_t *kernel_seen;           /* per plan kernel: emitted (launched once) */
    uint64_t ops_compiled, ops_total;
    uint64_t launches, launches_expected;
    uint64_t sim_ps;
    _Atomic uint64_t ops_interpreted;
    uint64_t interp_ops_expected;
};
/* What one line shows (the formatter's input, for tests). */
struct tool_progress_state {
    const char *phase;
    double elapsed_s, phase_elapsed_s;
    uint64_t ops_interpreted, ops_compiled, ops_total, launches, sim_ps;
    uint64_t expected, done; /* the phase's work: ETA = time so far x (expected - done) / done */
};
/* Enabled when f is a terminal and !quiet. */
void tool_progress_init(struct tool_progress *p, FILE *f, bool quiet);
void tool_progress_phase(struct tool_progress *p, const char *phase);
/* The plan's kernels, ops and expected launches (loops by their trip counts). */
void tool_progress_plan(struct tool_progress *p, const struct cc_plan *plan);
void tool_progress_launch(struct tool_progress *p, uint32_t kernel, uint64_t start_ps);
/* interp_options.on_op (user: the progress); thread-safe. */
void tool_progress_interp_op(void *user);
/* Erases the line if one is shown (before other output). */
void tool_progress_done(struct tool_progress *p);
void tool_progress_free(struct tool_progress *p);
/* The line for s into buf; its length. */
size_t tool_progress_format(const struct tool_progress_state *s, char *buf, size_t cap);

#endif
