/* Private to graph/refine*.c: shape refinement's values, op records and the
 * per-op rules (refine_infer.c), shared by the pass (refine.c), its folding
 * of integer values (refine_fold.c) and the interpreter's per-op entry
 * (graph_refine_op_shapes).
 *
 * A dimension, and an element of a folded integer value, is an rf_dim:
 * a constant, or a*s + c of one symbol s (a dimension argument whose value is
 * not known yet, solved when it meets a known size), or opaque (computed at
 * run time, or too complex to follow).  Refinement runs its analysis until
 * every symbol it needs is solved, then once more with constants only, and
 * builds the static module from that last analysis.
 */
#ifndef NPUSIM_GRAPH_REFINE_INTERNAL_H
#define NPUSIM_GRAPH_REFINE_INTERNAL_H

#include "graph/refine.h"

/* Integer values of at most this many elements are folded (shapes are a
 * few elements; JAX's shape arithmetic is on scalars). */
#define RF_FOLD_MAX 4096
#define RF_MAX_SYMS GRAPH_REFINE_MAX_DIM_ARGS

enum { RF_CONST = -1, RF_OPAQUE = -2 };

struct rf_dim {
    int64_t c; /* the constant, or the offset of a*s + c */
    int64_t a; /* the symbol's factor (sym >= 0) */
    int sym;   /* symbol index, RF_CONST or RF_OPAQUE */
    /* where a size comes from, for messages: 1 + the entry argument it is
     * a dimension (from_dim >= 0) or the value (from_dim -1) of; 0: unknown */
    int16_t from_arg;
    int8_t from_dim;
};

static inline struct rf_dim rf_const(int64_t c) { return (struct rf_dim){c, 0, RF_CONST, 0, 0}; }
static inline struct rf_dim rf_opaque(void) { return (struct rf_dim){0, 0, RF_OPAQUE, 0, 0}; }
static inline struct rf_dim rf_affine(int64_t a, int sym, int64_t c) { return (struct rf_dim){c, a, sym, 0, 0}; }
static inline bool rf_is_const(struct rf_dim d) { return d.sym == RF_CONST; }

/* What refinement knows of a value. */
struct rf_val {
    const struct graph_type *decl; /* its declared type */
    int rank;                      /* -1: not a ranked tensor (token, tuple, unranked) */
    struct rf_dim *dims;           /* rank entries */
    struct rf_dim *elems;          /* an integer value's elements when folded (n_elems, row-major) */
    int64_t n_elems;
    uint64_t deps;   /* entry arguments the elements depend on (bit i: argument i < 64) */
    bool from_shape; /* the elements are (made from) shape sizes: get_dimension_size */
};

enum rf_action {
    RF_KEEP,     /* the op as it is, with refined types */
    RF_DROP,     /* removed (a shape assertion that holds) */
    RF_CONSTANT, /* its one result becomes a constant (folded) */
    RF_REWRITE,  /* becomes the static op `kind` (a dynamic op) */
    RF_FORWARD,  /* its one result is operand `forward` */
};

/* What becomes of one op. */
struct rf_op {
    uint8_t action;
    bool live;
    enum graph_op_kind kind; /* RF_REWRITE: the static op */
    int forward;             /* RF_FORWARD */
    int n_ints;              /* RF_REWRITE: the folded operands it needs */
    int64_t *ints;
    struct rf_spec *callee; /* func.call, composite */
};

struct rf_sym {
    int arg;          /* entry argument */
    const char *name; /* its name in the source ("arg0"), or NULL */
    bool known;
    bool retired; /* not a dimension argument after all: data */
    int64_t value;
    enum graph_refine_how how;
    const struct graph_op *solved_at;
};

struct rf_func;
struct rf_spec;

struct rf_ctx {
    const struct graph_module *m;
    const struct graph_op *entry; /* the function refined (names in messages) */
    struct base_diag *diag;
    struct base_arena arena; /* values of the current analysis */
    bool single;             /* graph_refine_op_shapes: one op, no functions */
    int n_syms;
    struct rf_sym syms[RF_MAX_SYMS];
    int sym_of_arg[RF_MAX_SYMS];    /* entry argument -> symbol, or -1 */
    bool final;                     /* every symbol needed is known: constants only */
    bool progress;                  /* a symbol was solved in this analysis */
    uint64_t dim_mask;              /* entry arguments a shape was computed from */
    const struct graph_op *pending; /* first op whose shape waits for an unknown symbol */
    uint64_t pending_deps;
    /* functions */
    int n_funcs;
    struct rf_func *funcs;
    struct rf_spec *specs, *specs_tail;
    int depth;
    int n_rewritten, n_assertions, n_specialized;
    /* what is known of any value of the function being analysed (NULL in
     * graph_refine_op_shapes, which knows only the op's operands) */
    struct rf_val *(*val_of)(struct rf_ctx *cx, const struct graph_value *v);
    struct rf_spec *cur;
};

/* ------------------------------------------------------------------ dims */

/* A symbol solved since the dim was made reads as its constant. */
struct rf_dim graph_rf_norm(const struct rf_ctx *cx, struct rf_dim d);
/* Whether d is (now) the constant *v. */
bool graph_rf_get_const(const struct rf_ctx *cx, struct rf_dim d, int64_t *v);
struct rf_dim graph_rf_add(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y);
struct rf_dim graph_rf_sub(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y);
struct rf_dim graph_rf_mul(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y);
bool graph_rf_dim_equal(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y);
/* Requires x == y, solving a symbol when one side is known: the rule's
 * failure is located at op, naming what (printf-style) and both sizes. */
enum base_status graph_rf_unify(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim x, struct rf_dim y,
                                const char *fmt, ...) BASE_PRINTF(5, 6);
/* "3", "2*arg0+1", "?" */
const char *graph_rf_dim_str(const struct rf_ctx *cx, struct rf_dim d, char *buf, size_t cap);
/* The op waits on what d depends on (symbols not known yet): noted for the next analysis. */
void graph_rf_note_pending(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim d);

/* ---------------------------------------------------------------- values */

void *graph_rf_alloc(struct rf_ctx *cx, size_t n); /* zeroed; NULL: out of memory (diag set) */
/* A value of decl's type with rank dims (all opaque). */
enum base_status graph_rf_val_init(struct rf_ctx *cx, struct rf_val *v, const struct graph_type *decl, int rank);
/* The value the declared type says: its static dims, '?' opaque. */
enum base_status graph_rf_val_from_decl(struct rf_ctx *cx, struct rf_val *v, const struct graph_type *decl);
/* The product of the dims, when all are constant (else -1). */
int64_t graph_rf_val_count(const struct rf_ctx *cx, const struct rf_val *v);
/* Whether v's elements are all constants. */
bool graph_rf_val_elems_const(const struct rf_ctx *cx, const struct rf_val *v);
/* v's elements as integers when they are all constants; on failure (not
 * folded, data-dependent, a symbol not known yet) notes the op as pending
 * and returns false.  deps of the elements join cx->dim_mask. */
bool graph_rf_val_ints(struct rf_ctx *cx, const struct graph_op *op, const struct rf_val *v, int64_t *out, int cap,
                       int *n);
/* As graph_rf_val_ints for one shape operand, but giving dims (constant, symbolic
 * or opaque) rather than failing. */
int graph_rf_val_dims(struct rf_ctx *cx, const struct graph_op *op, const struct rf_val *v, struct rf_dim *out,
                      int cap);

/* ------------------------------------------------------------ the rules */

/* The result values of op (not control flow: those are refine.c's) from its
 * operands': shapes per the op's spec rules, integer elements folded where
 * they can be; ro (may be NULL) gets the rewrite of a dynamic op. */
enum base_status graph_rf_infer(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                struct rf_val *out, struct rf_op *ro);
/* Integer folding of op's result 0 (refine_fold.c): elems of out from the
 * operands' when op is one that folds (elementwise integer arithmetic,
 * compare, select, convert, reshape, broadcast, concatenate, slice, iota,
 * constant, a reduce with a one-op body ...). */
enum base_status graph_rf_fold(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                               struct rf_val *out);

/* A located failure at op: "<op name>: <message>". */
enum base_status graph_rf_fail(struct rf_ctx *cx, const struct graph_op *op, enum base_status st, const char *fmt, ...)
    BASE_PRINTF(4, 5);

#endif
