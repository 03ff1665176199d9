/* The differential fuzzer (build/<b>/fuzz/diff_fuzz; not part of libnpusim).
 *
 * It generates random valid StableHLO programs with the graph builder
 * (gen.c), runs each on the golden interpreter and compiled + simulated on
 * chips of both families (run.c, each evaluation in a forked child), and
 * reports every crash, unexpected error and mismatch beyond the runtime's
 * documented tolerance (rt_compare_output).  A finding is minimized
 * (minimize.c) and written as a .mlir reproducer, which --replay runs again
 * (make check replays fuzz/corpus/diff_fuzz).  docs/fuzzing.md describes it.
 */
#ifndef NPUSIM_FUZZ_DIFF_H
#define NPUSIM_FUZZ_DIFF_H

#include "base/base.h"
#include "graph/graph.h"

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------ generator */

/* Op families the generator may use (a mask; the minimizer and --only turn
 * families off). */
#define DF_FAMILIES(X)                                                                  \
    X(ELEM, "elem")           /* unary, binary, compare, select, clamp, convert */       \
    X(SHAPE, "shape")         /* broadcast, reshape, transpose, slice, concat, pad, ... */ \
    X(DOT, "dot")             /* dot_general, dot */                                     \
    X(CONV, "conv")           /* convolution */                                          \
    X(REDUCE, "reduce")       /* reduce, reduce_window, argmax */                        \
    X(INDEX, "index")         /* gather, scatter, dynamic_slice, dynamic_update_slice */ \
    X(SORT, "sort")           /* sort, top_k */                                          \
    X(CONTROL, "control")     /* while, if, case, call */                                \
    X(COLL, "coll")           /* collectives (SPMD programs only) */                     \
    X(MISC, "misc")           /* bitcast, rng_bit_generator, quantized, complex, ... */
enum df_family {
#define X(e, name) DF_FAM_##e,
    DF_FAMILIES(X)
#undef X
        DF_FAM_COUNT
};
#define DF_FAM_ALL ((1u << DF_FAM_COUNT) - 1u)
const char *df_family_name(enum df_family f);

struct df_gen_opts {
    uint64_t seed;
    int max_ops;       /* the entry's ops (a budget: the last may overshoot by a few) */
    int chips;         /* > 1: an SPMD program over a mesh of this many devices */
    double scale;      /* tensor sizes scaled by this (1: normal; the minimizer shrinks it) */
    unsigned families; /* DF_FAM_* bits allowed */
};

/* Generates a module (verified by the caller: a verify failure is a
 * generator bug).  Deterministic in *o. */
enum base_status df_generate(const struct df_gen_opts *o, struct graph_module **out, struct base_diag *diag);

/* ------------------------------------------------------------ evaluation */

#define DF_MAX_CHIPS 4

/* What went wrong, worst first. */
#define DF_KINDS(X)                                                                \
    X(NONE, "none")                                                                \
    X(CRASH, "crash")             /* the child died of a signal (segfault, abort) */ \
    X(TIMEOUT, "timeout")         /* the child ran past its time limit */           \
    X(GENERATOR, "generator")     /* the generated program does not verify */       \
    X(PARSE, "parse")             /* the printed program does not parse back */     \
    X(INTERP, "interp-error")     /* the golden interpreter failed on a valid program */ \
    X(COMPILE, "compile-error")   /* cc_compile refused it, not a documented limit */ \
    X(RUN, "run-error")           /* the runtime or the simulator's checks failed */ \
    X(MISMATCH, "mismatch")       /* an output beyond rt_compare_output's bound */  \
    X(REFUSED, "refused")         /* a documented limit (not a finding) */
enum df_kind {
#define X(e, name) DF_KIND_##e,
    DF_KINDS(X)
#undef X
        DF_KIND_COUNT
};
const char *df_kind_name(enum df_kind k);
static inline bool df_kind_is_finding(enum df_kind k) { return k != DF_KIND_NONE && k != DF_KIND_REFUSED; }

struct df_run_opts {
    const char *chips[DF_MAX_CHIPS]; /* chip names, e.g. "trn2", "tpu-v5e" */
    int n_chips;
    int mode;            /* enum cc_mode */
    int n_cores;         /* 0: all */
    uint64_t input_seed; /* inputs drawn per argument name from this */
    double timeout_s;    /* per evaluation (the child is killed) */
    bool in_process;     /* no fork (debugging; a crash ends the fuzzer) */
    const char *dump_dir; /* when set: the inputs are written there (input_<i>.npy, for npusim run --inputs) */
    int verbose;
};

struct df_result {
    enum df_kind kind;
    int chip;                 /* index into df_run_opts.chips, -1: none / the interpreter */
    int status;               /* enum base_status of the failing call */
    int output;               /* MISMATCH: the output */
    int signal;               /* CRASH */
    char msg[1200];
    /* what ran */
    int n_outputs, host_ops;
    uint64_t kernels;
};

/* Parses text and evaluates it (in a forked child unless o->in_process). */
void df_evaluate(const char *text, size_t len, const char *path, const struct df_run_opts *o, struct df_result *res);
/* The finding's identity for deduplication and minimization: kind, chip
 * and the message with numbers, locations and types stripped. */
void df_signature(const struct df_result *r, const struct df_run_opts *o, char *buf, size_t cap);
void df_result_print(const struct df_result *r, const struct df_run_opts *o, FILE *f);

/* Inputs of an entry function: argument i is filled from (seed, its name). */
enum base_status df_make_input(const struct graph_value *arg, uint64_t seed, struct base_tensor **out);

/* ------------------------------------------------------------ minimizer */

/* Shrinks the module text *text (owned, replaced by the smaller text)
 * while evaluating it still gives a finding with signature sig; at most
 * max_evals evaluations.  Returns the number of evaluations made. */
int df_minimize_text(char **text, size_t *len, const char *sig, const struct df_run_opts *o, int max_evals,
                     int verbose);

/* Splitmix64 of x (hashes seeds and names). */
uint64_t df_mix(uint64_t x);

#endif
