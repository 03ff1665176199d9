/* graph/refine.h: shape refinement of dynamic programs (docs/dynamic-shapes.md).
 *
 * A program whose types have '?' dimensions (JAX shape polymorphism,
 * torch.export dynamic batch or sequence sizes) or bounded ones
 * (tensor<?x5xf32, #stablehlo.bounds<8, ?>>) runs once the concrete shapes
 * of its entry arguments are known.  graph_refine does what upstream
 * StableHLO's stablehlo-refine-arguments, -refine-shapes,
 * -canonicalize-dynamism and -check-shape-assertions passes do together: from
 * the argument shapes it propagates static shapes through every op, folds
 * the integer computations that make shapes (get_dimension_size and the
 * shape operands of dynamic_broadcast_in_dim, dynamic_reshape, dynamic_iota,
 * dynamic_pad, dynamic_gather, dynamic_conv, real_dynamic_slice, rng,
 * custom_call @shape_assertion ...), rewrites the dynamic ops into their
 * static forms and builds a new, static module with the graph builder, which
 * the interpreter and the compiler take as any other.
 *
 * Dimension arguments.  A scalar integer entry argument that a shape is
 * computed from (JAX's dimension variables: `%arg0: tensor<i64>` in
 * `dynamic_iota(%arg0 * 2)`) is specialised: its value comes from the
 * caller (graph_refine_arg.value), or is inferred from the argument shapes
 * (the value that makes every shape consistent), and the refined program
 * reads it as a constant.  graph_refine_result says which arguments were so
 * treated and with what values, so a caller that makes random inputs can
 * give them those values.
 */
#ifndef NPUSIM_GRAPH_REFINE_H
#define NPUSIM_GRAPH_REFINE_H

#include "graph/graph.h"

/* What is known of one entry argument. */
struct graph_refine_arg {
    int rank; /* -1: no shape given (static and bounded dims need none) */
    int64_t dims[GRAPH_MAX_RANK];
    bool has_value; /* a scalar integer argument's value (a dimension argument) */
    int64_t value;
};

struct graph_refine_options {
    const char *entry;                   /* NULL: graph_module_entry */
    const struct graph_refine_arg *args; /* n_args entries (NULL: nothing known) */
    int n_args;
    /* A dimension argument that nothing determines takes the size of the
     * entry arguments' dynamic dimensions when they all have one size (the
     * single dimension variable of most JAX exports without their shape
     * wrapper); otherwise it is an error naming the argument. */
    bool guess_dim_args;
};

#define GRAPH_REFINE_MAX_DIM_ARGS 64

enum graph_refine_how {
    GRAPH_REFINE_GIVEN,    /* its value was given */
    GRAPH_REFINE_INFERRED, /* from the shapes it must agree with */
    GRAPH_REFINE_GUESSED,  /* guess_dim_args */
};

struct graph_refine_result {
    int n_dim_args;
    struct graph_refine_dim_arg {
        int arg; /* entry argument index */
        int64_t value;
        enum graph_refine_how how;
    } dim_args[GRAPH_REFINE_MAX_DIM_ARGS];
    int n_rewritten;   /* dynamic ops made static (incl. get_dimension_size) */
    int n_assertions;  /* shape assertions checked and removed */
    int n_specialized; /* called functions refined (one per function and argument shapes) */
};

/* True when m is a program for graph_refine: some type has a '?' dimension,
 * is unranked or bounded, or an op is one refinement makes static or removes
 * (the dynamic_* ops, real_dynamic_slice, get_dimension_size,
 * set_dimension_size, custom_call @shape_assertion). */
bool graph_module_is_dynamic(const struct graph_module *m);
/* True when the entry function's (entry NULL: graph_module_entry) argument
 * types are not all static. */
bool graph_entry_is_dynamic(const struct graph_module *m, const char *entry);

/* Refines m for the argument shapes and values of opt (see above) into a new
 * static module *out (graph_module_destroy).  res (may be NULL) says what was
 * done.  Errors are located and name the op and the constraint: a dynamic
 * argument dimension with no shape given ("argument 1 (%x) of @main:
 * dimension 0 is dynamic: give its size"), a given shape that contradicts
 * the declared type or a bound, shapes that the program's ops make
 * inconsistent, a failing shape assertion (its message, with the values),
 * a shape that depends on values computed at run time. */
enum base_status graph_refine(const struct graph_module *m, const struct graph_refine_options *opt,
                              struct graph_module **out, struct graph_refine_result *res, struct base_diag *diag);

/* The result shapes of one op from its operands' concrete values (operands[i]
 * NULL for a token or tuple), with graph_refine's rules: how the golden
 * interpreter runs an op whose result types are dynamic.  ranks[i] and
 * dims[i] get result i's shape.  An op whose shape needs what the operands
 * do not say (a region's results, a call) is ERR_UNSUPPORTED. */
enum base_status graph_refine_op_shapes(const struct graph_op *op, const struct base_tensor *const *operands,
                                        int *ranks, int64_t (*dims)[GRAPH_MAX_RANK], struct base_diag *diag);

#endif
