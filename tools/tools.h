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

/* Prints a diagnostic to stderr as "npusim: file:line:col: error: ...".  A
 * diagnostic without a message is a bug: it prints what it can and, under
 * NPUSIM_STRICT_DIAG=1 (the tests), aborts. */
void tool_print_diag(const struct base_diag *d);
/* The limits of this run (docs/limits.md): defaults raised by --limit
 * NAME=VALUE and --allow-special-files, which main takes from any command's
 * arguments before the command sees them. */
const struct base_limits *tool_limits(void);
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
 * as common initialisations do. */
enum base_status tool_random_tensor(const struct graph_type *ty, uint64_t seed, int i, struct base_tensor **out);
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

#endif
