/* graph: StableHLO text -> graph IR, printer, verifier (the golden interpreter reads it: interp/).
 *
 * The IR mirrors MLIR's structure: a module holds top-level ops (func.func,
 * sdy.mesh, ...); ops have operands, results, attributes and regions; regions
 * hold blocks; blocks hold arguments and ops.  Everything of a module lives in
 * the module's arena and is freed with it.
 *
 * Attributes are normalised at parse time: the pretty and the generic form of
 * an op give the same attribute set (the generic form's names), so the printer,
 * verifier and interpreter see one shape.
 */
#ifndef NPUSIM_GRAPH_H
#define NPUSIM_GRAPH_H

#include "base/base.h"
#include "graph/graph_ops_list.h"

#define GRAPH_MAX_RANK BASE_MAX_RANK
#define GRAPH_DYN INT64_MIN /* a '?' dimension */

/* Parser limits: hostile input gets a located ERR_LIMIT, never a crash. */
#define GRAPH_MAX_NESTING 64          /* regions, brackets, attribute nesting */
#define GRAPH_MAX_TUPLE_DEPTH 16

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

/* FUTURE: !stablehlo.future<T, ...>, the result of stablehlo.async_start
 * (its types in n_elems/elems, as a tuple's). */
enum graph_type_kind { GRAPH_TYPE_TENSOR, GRAPH_TYPE_TOKEN, GRAPH_TYPE_TUPLE, GRAPH_TYPE_FUTURE };

/* !quant.uniform<storage<min:max>:expressed{:dim}, scale:zp, ...> */
struct graph_quant {
    enum base_dtype storage;   /* i8, ui8, i4, i16, i32, ... */
    enum base_dtype expressed; /* f32, bf16, f16, ... */
    int64_t storage_min;       /* defaults: the storage type's range */
    int64_t storage_max;
    int quant_dim;             /* -1: per-tensor */
    int n_scales;              /* 1 for per-tensor */
    const double *scales;
    const int64_t *zero_points;
};

struct graph_attr;

struct graph_type {
    enum graph_type_kind kind;
    /* TENSOR */
    enum base_dtype elem;             /* for quantized tensors: the storage type */
    const struct graph_quant *quant;  /* non-NULL when the element type is !quant.uniform */
    int rank;                         /* -1: unranked (tensor<*xf32>) */
    int64_t dims[GRAPH_MAX_RANK];     /* GRAPH_DYN for '?' */
    const struct graph_attr *encoding; /* e.g. #stablehlo.bounds<?, 5>, or NULL */
    /* TUPLE, FUTURE */
    int n_elems;
    const struct graph_type *const *elems;
};

bool graph_type_equal(const struct graph_type *a, const struct graph_type *b);
bool graph_type_is_static(const struct graph_type *t);
/* Bounded dynamism: bound[d] (d < t->rank) is the bound of '?' dimension d
 * (#stablehlo.bounds<8, ?>, or type_extensions), -1 where there is none. */
void graph_type_bounds(const struct graph_type *t, int64_t *bound);
int64_t graph_type_count(const struct graph_type *t); /* -1 if dynamic */
/* MLIR spelling: "tensor<2x3xf32>", "!stablehlo.token", "tuple<...>", "!stablehlo.future<...>". */
void graph_type_str(const struct graph_type *t, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

enum graph_attr_kind {
    GRAPH_ATTR_UNIT,        /* a name with no value (`unit`) */
    GRAPH_ATTR_BOOL,        /* true / false */
    GRAPH_ATTR_INT,         /* 3 : i64  (type in elem; BASE_DT_SI64 when untyped) */
    GRAPH_ATTR_FLOAT,       /* 1.0 : f32 */
    GRAPH_ATTR_STRING,      /* "text" (escapes resolved; may hold NULs: use len) */
    GRAPH_ATTR_SYMBOL,      /* @name */
    GRAPH_ATTR_KEYWORD,     /* an enum value: LT, FLOAT, DEFAULT, e5m10, FFT, THREE_FRY ...
                               tag names the enum ("stablehlo.comparison_direction") or NULL */
    GRAPH_ATTR_ARRAY,       /* [a, b, ...] */
    GRAPH_ATTR_DENSE_ARRAY, /* array<i64: 1, 2>  (elem + ints or floats) */
    GRAPH_ATTR_ELEMENTS,    /* dense<...> : tensor<...>  -> a tensor literal */
    GRAPH_ATTR_DICT,        /* {k = v, ...}; with a tag: #stablehlo.gather<k = v, ...> */
    GRAPH_ATTR_TYPE,        /* a type used as a value (function_type, ...) */
    GRAPH_ATTR_OPAQUE,      /* any other #dialect... attribute, kept verbatim */
};

struct graph_named_attr {
    const char *name;
    const struct graph_attr *value;
};

struct graph_attr {
    enum graph_attr_kind kind;
    const char *tag;              /* KEYWORD/DICT: dialect attribute name, or NULL */
    enum base_dtype elem;         /* INT/FLOAT/DENSE_ARRAY element type */
    union {
        bool b;
        int64_t i;
        double f;
        struct { const char *s; size_t len; } str;  /* STRING, SYMBOL, KEYWORD, OPAQUE (verbatim) */
        struct { int n; const struct graph_attr *const *items; } array;
        struct { int n; const int64_t *i; const double *f; } dense; /* DENSE_ARRAY: i or f set */
        struct {
            const struct graph_type *type;
            struct base_tensor *value;  /* owned by the module */
            const char *resource;       /* dense_resource<name>: blob name (value filled from the
                                           {-# dialect_resources #-} trailer, NULL data if absent) */
        } elements;
        struct { int n; const struct graph_named_attr *items; } dict;
        const struct graph_type *type;
    } u;
};

/* Lookup helpers: NULL / false when absent or of another kind. */
const struct graph_attr *graph_dict_get(const struct graph_attr *dict, const char *name);
bool graph_attr_as_i64(const struct graph_attr *a, int64_t *out);
/* DENSE_ARRAY of ints, or ARRAY of INT, or 1-D integer ELEMENTS: copies up to cap values,
 * returns the count (-1 if a is not such an attribute). */
int graph_attr_as_i64_list(const struct graph_attr *a, int64_t *out, int cap);
/* BOOL as is, UNIT as true, INT as non-zero; dflt when a is NULL or of another kind. */
bool graph_attr_bool_or(const struct graph_attr *a, bool dflt);
/* True when a is a KEYWORD spelled exactly word ("LT", "TOTALORDER", "THREE_FRY"). */
bool graph_attr_is_keyword(const struct graph_attr *a, const char *word);

/* ------------------------------------------------------------------------ */
/* IR                                                                        */

enum graph_op_kind {
#define X(e, name, cat, flags) GRAPH_OP_##e,
    GRAPH_OPS(X)
#undef X
    GRAPH_OP_COUNT
};

/* What an op is, for the interpreter's dispatch and for reports. */
enum graph_op_cat {
    GRAPH_CAT_UNARY,     /* elementwise, 1 operand */
    GRAPH_CAT_BINARY,    /* elementwise, 2 operands */
    GRAPH_CAT_TERNARY,   /* elementwise, 3 operands (select, clamp) */
    GRAPH_CAT_SHAPE,     /* data movement: reshape, transpose, slice, gather ... */
    GRAPH_CAT_REDUCE,    /* reductions and windows, with regions */
    GRAPH_CAT_LINALG,    /* dot_general, convolution, fft, triangular_solve ... */
    GRAPH_CAT_CONTROL,   /* call, while, if, case, return ... */
    GRAPH_CAT_COLLECTIVE,
    GRAPH_CAT_QUANT,
    GRAPH_CAT_CHECK,     /* check.* test ops */
    GRAPH_CAT_MISC,      /* constant, iota, token ops, tuples, custom_call ... */
    GRAPH_CAT_META,      /* module-level: func.func, sdy.mesh, ... */
};

/* What an op does, as yes/no properties (the FLAGS column of GRAPH_OPS). */
enum graph_op_flag {
    /* one function per element position, no regions: the UNARY, BINARY and
     * TERNARY categories (set from the category) */
    GRAPH_OPF_ELEMENTWISE = 1u << 0,
    /* binary, f(a, b) == f(b, a) for every element type */
    GRAPH_OPF_COMMUTATIVE = 1u << 1,
    /* sums products over contracting dimensions (dot, dot_general, einsum,
     * ragged_dot, convolution): a matrix engine's work */
    GRAPH_OPF_CONTRACTION = 1u << 2,
    /* exchanges values among the processes of a group (replica groups or
     * source-target pairs): all_reduce, all_gather, reduce_scatter, ... */
    GRAPH_OPF_COLLECTIVE = 1u << 3,
    /* means something only in a program that is already SPMD: the
     * collectives, send / recv, partition_id, sdy.manual_computation */
    GRAPH_OPF_SPMD = 1u << 4,
    /* carries regions (a body, a comparator, branches, a function body);
     * the verifier gives every other op none */
    GRAPH_OPF_REGIONS = 1u << 5,
    /* control flow: its regions are blocks of the enclosing program that run
     * in place (while, if, case, sdy.manual_computation), not a computation
     * the op applies (a reduce body, a sort comparator) */
    GRAPH_OPF_CONTROL_FLOW = 1u << 6,
    /* its regions see no value defined outside the op (IsolatedFromAbove) */
    GRAPH_OPF_ISOLATED = 1u << 7,
    /* ends a block and yields the block's results (the returns) */
    GRAPH_OPF_TERMINATOR = 1u << 8,
    /* check.expect_*: asserts on its operands' values, against each other or
     * an attribute (not expect_serialized_eq, which reads a probe file) */
    GRAPH_OPF_VALUE_CHECK = 1u << 9,
    /* names a probe file: probe_id and `iteration` (printed so, kept as iter) */
    GRAPH_OPF_PROBE = 1u << 10,
    /* an annotation: each result is its operand, of the same type
     * (sdy.sharding_constraint, sdy.reshard, sdy.propagation_barrier,
     * mhlo.copy); it computes nothing in the program one partition runs */
    GRAPH_OPF_IDENTITY = 1u << 11,
};
#define GRAPH_OPF_ALL ((unsigned)GRAPH_OPF_IDENTITY * 2u - 1u) /* every flag (IDENTITY is the highest) */

const char *graph_op_kind_name(enum graph_op_kind k);
enum graph_op_cat graph_op_kind_cat(enum graph_op_kind k);
/* The GRAPH_OPF_* flags of k or-ed together (0 for an invalid kind). */
unsigned graph_op_kind_flags(enum graph_op_kind k);
/* Whether k has any of the flags in mask. */
static inline bool graph_op_kind_has(enum graph_op_kind k, unsigned mask)
{
    return (graph_op_kind_flags(k) & mask) != 0;
}
/* GRAPH_OP_UNKNOWN when the name is not registered. */
enum graph_op_kind graph_op_kind_from_name(const char *name, size_t len);

struct graph_loc {
    const char *file; /* source path as given to the parser */
    int line;         /* 1-based position of the op's first token */
    int col;
    const char *name; /* from loc("...") / #locN alias, or NULL */
    /* The whole location as text, aliases resolved (docs/graph-ir.md
     * "Locations"): its frames innermost first, `name`, `file:line:col` or
     * `name (file:line:col)`, joined by " <- " (callsite: callee <- caller),
     * ", " (fused) and " @ " (a name over a chain: the op's name in the
     * framework @ the code that made it).  NULL: no location, or unknown. */
    const char *chain;
};

struct graph_op;
struct graph_block;
struct graph_region;

struct graph_value {
    const struct graph_type *type;
    struct graph_op *def;       /* defining op, or NULL for a block argument */
    struct graph_block *block;  /* for block arguments */
    int index;                  /* result number / argument number */
    uint32_t id;                /* unique within the module, dense from 0 */
    const char *name;           /* source name without '%' ("0", "cst_3", "arg0"), or NULL */
    const struct graph_loc *loc; /* a block argument's loc(...) (JAX names parameters so), or NULL */
};

struct graph_op {
    enum graph_op_kind kind;
    const char *name;                 /* "stablehlo.add", also for UNKNOWN ops */
    int n_operands;
    struct graph_value **operands;
    int n_results;
    struct graph_value *results;      /* array of n_results */
    int n_attrs;
    struct graph_named_attr *attrs;   /* inherent (properties) and discardable, by name */
    int n_regions;
    struct graph_region *regions;     /* array of n_regions */
    struct graph_block *parent;
    struct graph_loc loc;
    uint32_t id;                      /* unique within the module */
};

struct graph_block {
    int n_args;
    struct graph_value *args;         /* array of n_args */
    int n_ops;
    struct graph_op **ops;
    struct graph_region *parent;
    const char *label;                /* "bb0" or NULL */
};

struct graph_region {
    int n_blocks;
    struct graph_block *blocks;       /* array; entry block first */
    struct graph_op *parent;
};

struct graph_module {
    const char *name;                 /* @name of the module, or NULL */
    int n_attrs;
    struct graph_named_attr *attrs;   /* module attributes {...} */
    struct graph_block body;          /* top-level ops: func.func, sdy.mesh, ... */
    const char *path;
    uint32_t n_values;                /* ids are < n_values */
    uint32_t n_ops;
    struct base_arena arena;
};

/* func.func ops keep: attr "sym_name" (STRING), "function_type" (TYPE of kind... see
 * graph_func_* helpers), optional "sym_visibility", "arg_attrs"/"res_attrs" (ARRAY of DICT);
 * region 0 is the body (its entry block's args are the parameters). */
struct graph_op *graph_module_find_func(const struct graph_module *m, const char *name);
/* The function to run by default: @main, else the only public function, else NULL. */
struct graph_op *graph_module_entry(const struct graph_module *m);
const char *graph_func_name(const struct graph_op *func);
int graph_func_n_results(const struct graph_op *func);
const struct graph_type *graph_func_result_type(const struct graph_op *func, int i);

const struct graph_attr *graph_op_attr(const struct graph_op *op, const char *name);
/* Sets diag to st with op's location (none when op is NULL) and the
 * formatted message (at most 400 bytes); returns st. */
enum base_status graph_op_diag(struct base_diag *diag, const struct graph_op *op, enum base_status st, const char *fmt,
                               ...) BASE_PRINTF(4, 5);
/* Ops npusim does not know (GRAPH_OP_UNKNOWN: other dialects such as ttir.*
 * or tosa.*, or ops newer than npusim), counted per dialect (the name up to
 * its first '.').  Fills *n_dialects <= cap entries, most frequent first
 * (ties: the dialect met first; dialects past the first cap are not listed);
 * returns the number of such ops. */
struct graph_dialect_count {
    char dialect[32];
    int n_ops;
    const struct graph_op *first; /* the first such op in the file */
};
int graph_module_unknown_dialects(const struct graph_module *m, struct graph_dialect_count *out, int cap,
                                  int *n_dialects);
/* Whether some op npusim knows is of this dialect (the name up to its first
 * '.', len bytes): stablehlo, chlo, func, sdy, ... An unknown op of a known
 * dialect is newer than npusim; one of another dialect is not StableHLO. */
bool graph_dialect_known(const char *dialect, size_t len);
/* Constants whose literal has no data: printed elided (dense_resource<__elided__>,
 * as MLIR's printer elides large literals) or a dense_resource whose blob the
 * file lacks.  They compile and run timing-only as they are; for values,
 * graph_module_fill_elided calls fill for each (in file order) and the
 * module takes the tensor it returns (of the literal's type).  Returns the
 * number of such constants (filled or, with fill NULL, counted); *first
 * (may be NULL) gets the first one. */
typedef enum base_status (*graph_fill_fn)(void *user, const struct graph_op *constant, const struct graph_type *type,
                                          struct base_tensor **out);
enum base_status graph_module_fill_elided(struct graph_module *m, graph_fill_fn fill, void *user, int *n,
                                          const struct graph_op **first);
/* The op that ends a block (return / stablehlo.return / func.return / sdy.return), or NULL. */
const struct graph_op *graph_block_terminator(const struct graph_block *b);

/* ------------------------------------------------------------------------ */
/* Parsing and printing                                                      */

struct graph_parse_options {
    const char *path;          /* for diagnostics; also stored in locs */
    int max_nesting;           /* 0: the nesting limit (base_limit; default GRAPH_MAX_NESTING) */
    int64_t max_elements;      /* per literal/type; 0: BASE_MAX_ELEMS */
    bool positions_from_locs;  /* an op's loc("file":line:col) is its position (file, line, col) */
};

/* Parses one module (or a bare list of funcs, wrapped in an implicit module).
 * Tolerates the trailing "----- END OF MLIR MODULE -----" banner line of
 * torch_xla exports.  On error returns a status with a located diag. */
enum base_status graph_parse(const char *text, size_t len, const struct graph_parse_options *opt,
                             struct graph_module **out, struct base_diag *diag);
enum base_status graph_parse_file(const char *path, struct graph_module **out, struct base_diag *diag);

/* StableHLO portable artifacts: MLIR bytecode of the VHLO dialect, as
 * jax.export and `stablehlo-translate --serialize` write them (StableHLO
 * v0.9.0 to v1.20.0).  graph_parse (so graph_parse_file) reads them when the
 * input starts with the bytecode magic "ML\xefR": each op keeps its source
 * location, or else is located at its bytes ("file":1:<offset + 1>), and a
 * bad byte gives such a located error.  See docs/graph-ir.md, "Bytecode". */
bool graph_is_bytecode(const void *data, size_t len);
/* The module of a bytecode file as the StableHLO generic text graph_parse
 * reads (heap string, free()); for `npusim parse --text` and tests. */
enum base_status graph_bytecode_to_text(const void *data, size_t len, const char *path, char **out, size_t *out_len,
                                        struct base_diag *diag);
void graph_module_destroy(struct graph_module *m);

/* Splits a file at lines "// -----" into chunks (as -split-input-file does).
 * Chunks point into text; starts, lens and first_lines are heap arrays (free()). */
enum base_status graph_split_chunks(const char *text, size_t len, int *n_chunks, size_t **starts,
                                    size_t **lens, int **first_lines);

/* Prints the module in generic form, which graph_parse reads back to an equal graph. */
enum base_status graph_print(const struct graph_module *m, FILE *f);
/* Prints into a heap string (free()). */
enum base_status graph_print_str(const struct graph_module *m, char **out, size_t *len);
/* The same, each op's source position kept as its location
 * (loc("file":line:col), fused with its name if it has one), so that a
 * program rewritten and printed (the partitioner's) is read back by
 * graph_parse with positions_from_locs at its ops' original positions. */
enum base_status graph_print_str_positions(const struct graph_module *m, char **out, size_t *len);
/* Structural equality (types, attributes, topology), ignoring locations and value names. */
bool graph_module_equal(const struct graph_module *a, const struct graph_module *b);

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

/* A module written op by op in C (the partitioner's output, generated
 * models), which every consumer takes exactly as if it had been parsed: the
 * module graph_builder_finish gives is the one graph_parse gives for its
 * printed text (graph_module_equal, and the same value and op ids).
 *
 *     struct graph_builder *b;
 *     graph_builder_create("model.mlir", &b);
 *     const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 2, (int64_t[]){8, 64});
 *     struct graph_value *x[2];
 *     graph_builder_func(b, "main", (const struct graph_type *[]){t, t}, NULL, 2, &t, 1, x);
 *     struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, x, 2, t);
 *     graph_builder_return(b, &s, 1);
 *     st = graph_builder_finish(b, &m, &diag);
 *     graph_builder_destroy(b);
 *
 * Ops go at the end of the current block: the module's body, a function's
 * body (graph_builder_func ... graph_builder_return) or a region of an op
 * (graph_builder_region ... graph_builder_return / graph_builder_end);
 * regions nest.  Counts follow the arrays they count.
 *
 * Errors are sticky: a call that fails (bad argument, out of memory) records
 * the first error and returns NULL; later calls return NULL and do nothing,
 * and take NULL arguments quietly, so a program can be written without a
 * check per call; graph_builder_finish (or graph_builder_status) reports it.
 * What the op's rules say (operand counts, shapes, attributes) is not
 * checked here: graph_verify does that, on the finished module.
 *
 * Types, attributes and strings passed in are borrowed: those of another
 * module (or builder) are copied into this one, literal tensors retained. */

struct graph_builder;

/* path: the module's path, the file of op locations by default (NULL: "<builder>"). */
enum base_status graph_builder_create(const char *path, struct graph_builder **out);
/* Frees b and, unless it was finished, everything built.  NULL is a no-op. */
void graph_builder_destroy(struct graph_builder *b);
/* Ends the module and hands it over (*out; b builds nothing more and must
 * still be destroyed).  Finalises what the parser sets up: parent links;
 * value ids dense from 0 in program order (a block's arguments, then each op
 * after its regions' values) and op ids in the order the parser finishes ops
 * (an op after its regions' ops), n_ops counting the module op as parsing
 * the printed module does; block labels; the module's own references to its
 * literal tensors.  Checks that every function and region was closed and
 * that each operand is a value of b defined before its use, in scope (not in
 * a region that does not enclose the use, not across a function).  Runs
 * nothing else: no verification (graph_verify).  On error (also a sticky
 * one) *out is NULL and diag says where. */
enum base_status graph_builder_finish(struct graph_builder *b, struct graph_module **out, struct base_diag *diag);
/* The sticky error so far (BASE_OK when none); diag (may be NULL) gets it. */
enum base_status graph_builder_status(const struct graph_builder *b, struct base_diag *diag);

void graph_builder_set_module_name(struct graph_builder *b, const char *name);
void graph_builder_set_module_attr(struct graph_builder *b, const char *name, const struct graph_attr *value);

/* Types.  rank -1: unranked; dims may hold GRAPH_DYN. */
const struct graph_type *graph_builder_tensor_type(struct graph_builder *b, enum base_dtype elem, int rank,
                                                   const int64_t *dims);
const struct graph_type *graph_builder_scalar_type(struct graph_builder *b, enum base_dtype elem);
/* like's element type (and quantization), with other dims and no encoding. */
const struct graph_type *graph_builder_type_with_dims(struct graph_builder *b, const struct graph_type *like,
                                                      int rank, const int64_t *dims);
const struct graph_type *graph_builder_token_type(struct graph_builder *b);
const struct graph_type *graph_builder_tuple_type(struct graph_builder *b, const struct graph_type *const *elems,
                                                  int n);

/* Attributes (docs/graph-ir.md lists each op's). */
const struct graph_attr *graph_builder_attr_unit(struct graph_builder *b);
const struct graph_attr *graph_builder_attr_bool(struct graph_builder *b, bool v);
const struct graph_attr *graph_builder_attr_int(struct graph_builder *b, int64_t v); /* i64 */
const struct graph_attr *graph_builder_attr_int_typed(struct graph_builder *b, int64_t v, enum base_dtype elem);
/* v rounded to elem (a float type), as the literal would read. */
const struct graph_attr *graph_builder_attr_float(struct graph_builder *b, double v, enum base_dtype elem);
const struct graph_attr *graph_builder_attr_string(struct graph_builder *b, const char *s);
const struct graph_attr *graph_builder_attr_symbol(struct graph_builder *b, const char *name); /* @name */
/* An enum value: tag "stablehlo.comparison_direction" and word "LT", tag
 * "stablehlo.precision" and "HIGHEST", ...; tag NULL: a bare word. */
const struct graph_attr *graph_builder_attr_keyword(struct graph_builder *b, const char *tag, const char *word);
/* compare's comparison_direction: "EQ", "NE", "GE", "GT", "LE", "LT". */
const struct graph_attr *graph_builder_attr_comparison(struct graph_builder *b, const char *direction);
const struct graph_attr *graph_builder_attr_type(struct graph_builder *b, const struct graph_type *t);
const struct graph_attr *graph_builder_attr_array(struct graph_builder *b, const struct graph_attr *const *items,
                                                  int n);
/* {name = value, ...}, keys sorted (a key given twice is an error); with a
 * tag, one of the dialect attributes of docs/graph-ir.md
 * (stablehlo.channel_handle, stablehlo.gather, sdy.sharding, ...), fields in
 * the order the parser gives them. */
const struct graph_attr *graph_builder_attr_dict(struct graph_builder *b, const char *tag, const char *const *names,
                                                 const struct graph_attr *const *values, int n);
/* array<i64: v...>; _array: of an integer (or i1) element type. */
const struct graph_attr *graph_builder_attr_dense_i64(struct graph_builder *b, const int64_t *v, int n);
const struct graph_attr *graph_builder_attr_dense_array(struct graph_builder *b, enum base_dtype elem,
                                                        const int64_t *v, int n);
/* dense<...> : type, the values of t (retained; t must not change after).
 * type NULL: t's element type and shape. */
const struct graph_attr *graph_builder_attr_elements(struct graph_builder *b, const struct graph_type *type,
                                                     struct base_tensor *t);
/* dense<...> : type with every element element 0 of t (t's element type). */
const struct graph_attr *graph_builder_attr_splat(struct graph_builder *b, const struct graph_type *type,
                                                  const struct base_tensor *t);
/* dense<v> : type (a float, complex (real part v) or integer element type). */
const struct graph_attr *graph_builder_attr_splat_f64(struct graph_builder *b, const struct graph_type *type, double v);
/* dense<...> : tensor<dims x i64> of v (row-major). */
const struct graph_attr *graph_builder_attr_elements_i64(struct graph_builder *b, const int64_t *v, int rank,
                                                         const int64_t *dims);
/* dot_general's dot_dimension_numbers (#stablehlo.dot<...>). */
const struct graph_attr *graph_builder_attr_dot_dims(struct graph_builder *b, const int64_t *lhs_batch,
                                                     const int64_t *rhs_batch, int n_batch,
                                                     const int64_t *lhs_contract, const int64_t *rhs_contract,
                                                     int n_contract);

/* An op at the end of the current block: kind (its registered name), the
 * operands, and one result per type (values of the op: graph_builder_result). */
struct graph_op *graph_builder_op(struct graph_builder *b, enum graph_op_kind kind, struct graph_value *const *operands,
                                  int n_operands, const struct graph_type *const *result_types, int n_results);
/* The same for any op name ("mhlo.foo": kind GRAPH_OP_UNKNOWN). */
struct graph_op *graph_builder_op_named(struct graph_builder *b, const char *name, struct graph_value *const *operands,
                                        int n_operands, const struct graph_type *const *result_types, int n_results);
/* An op with one result, which it returns. */
struct graph_value *graph_builder_op1(struct graph_builder *b, enum graph_op_kind kind,
                                      struct graph_value *const *operands, int n_operands,
                                      const struct graph_type *result_type);
/* Result i of op (NULL when op is NULL or has no such result). */
struct graph_value *graph_builder_result(const struct graph_op *op, int i);
/* Sets (or replaces) attribute name of op, in canonical form. */
void graph_builder_set_attr(struct graph_builder *b, struct graph_op *op, const char *name,
                            const struct graph_attr *value);
/* stablehlo.constant of value (an elements attribute); returns its result. */
struct graph_value *graph_builder_constant(struct graph_builder *b, const struct graph_attr *value);
/* func.call @callee. */
struct graph_op *graph_builder_call(struct graph_builder *b, const char *callee, struct graph_value *const *operands,
                                    int n_operands, const struct graph_type *const *result_types, int n_results);
/* Names a value as the text would (%name); NULL: unnamed (printed %_<id>). */
void graph_builder_set_name(struct graph_builder *b, struct graph_value *v, const char *name);
/* The location of the ops made from now on (NULL: none: the module's path,
 * line 0); loc->file NULL: the module's path. */
void graph_builder_set_loc(struct graph_builder *b, const struct graph_loc *loc);
void graph_builder_set_op_loc(struct graph_builder *b, struct graph_op *op, const struct graph_loc *loc);
/* Takes op out of its block; nothing may use its results then. */
void graph_builder_erase(struct graph_builder *b, struct graph_op *op);

/* func.func @name at the module's top level; its body is the current block
 * until graph_builder_return.  args (may be NULL) gets the n_args arguments;
 * arg_names may be NULL (or hold NULLs). */
struct graph_op *graph_builder_func(struct graph_builder *b, const char *name, const struct graph_type *const *arg_types,
                                    const char *const *arg_names, int n_args,
                                    const struct graph_type *const *result_types, int n_results,
                                    struct graph_value **args);
/* A new region of op (reduce and sort bodies, while cond then body, if
 * branches...): one block with the given arguments (args gets them, may be
 * NULL), the current block until graph_builder_return or graph_builder_end. */
struct graph_block *graph_builder_region(struct graph_builder *b, struct graph_op *op,
                                         const struct graph_type *const *arg_types, int n_args,
                                         struct graph_value **args);
/* Ends the current function or region with its terminator (func.return in a
 * function, sdy.return in sdy.manual_computation, stablehlo.return else). */
struct graph_op *graph_builder_return(struct graph_builder *b, struct graph_value *const *values, int n);
/* Ends the current region as it is (its terminator made with graph_builder_op,
 * or none); a region left without args and ops is an empty region. */
void graph_builder_end(struct graph_builder *b);
/* The block ops go to now (the module's body at the top level). */
struct graph_block *graph_builder_block(const struct graph_builder *b);
/* Values made so far.  Until graph_builder_finish a value's id is its number
 * in the order made (< this count); finish renumbers them in program order. */
uint32_t graph_builder_n_values(const struct graph_builder *b);

/* Copies of ops of another module.  graph_builder_map says which value of b
 * stands for a value src of that module (the operands of a copy, and the
 * values its regions use from outside them); copies enter their own values. */
void graph_builder_map(struct graph_builder *b, const struct graph_value *src, struct graph_value *v);
/* src (kind, name, attributes, location, regions deep-copied) at the end of
 * the current block, with the given operands (NULL: src's, through the map)
 * and result types (NULL: src's).  A region using a value with no map entry
 * is an error. */
struct graph_op *graph_builder_clone(struct graph_builder *b, const struct graph_op *src,
                                     struct graph_value *const *operands, const struct graph_type *const *result_types);
/* Appends copies of src's regions to op. */
void graph_builder_clone_regions(struct graph_builder *b, struct graph_op *op, const struct graph_op *src);

/* ------------------------------------------------------------------------ */
/* Verification                                                              */

/* Checks each op's operand/result counts, shapes and element types per the
 * StableHLO spec; the first violation comes back located, naming op and rule. */
enum base_status graph_verify(const struct graph_module *m, struct base_diag *diag);

#endif
