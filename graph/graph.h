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
#define X(e, name, cat) GRAPH_OP_##e,
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

const char *graph_op_kind_name(enum graph_op_kind k);
enum graph_op_cat graph_op_kind_cat(enum graph_op_kind k);
/* GRAPH_OP_UNKNOWN when the name is not registered. */
enum graph_op_kind graph_op_kind_from_name(const char *name, size_t len);

struct graph_loc {
    const char *file; /* source path as given to the parser */
    int line;         /* 1-based position of the op's first token */
    int col;
    const char *name; /* from loc("...") / #locN alias, or NULL */
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
/* The op that ends a block (return / stablehlo.return / func.return / sdy.return), or NULL. */
const struct graph_op *graph_block_terminator(const struct graph_block *b);

/* ------------------------------------------------------------------------ */
/* Parsing and printing                                                      */

struct graph_parse_options {
    const char *path;          /* for diagnostics; also stored in locs */
    int max_nesting;           /* 0: GRAPH_MAX_NESTING */
    int64_t max_elements;      /* per literal/type; 0: BASE_MAX_ELEMS */
    bool positions_from_locs;  /* an op's loc("file":line:col) is its position (file, line, col) */
};

/* Parses one module (or a bare list of funcs, wrapped in an implicit module).
 * Tolerates the trailing "----- END OF MLIR MODULE -----" banner line of
 * torch_xla exports.  On error returns a status with a located diag. */
enum base_status graph_parse(const char *text, size_t len, const struct graph_parse_options *opt,
                             struct graph_module **out, struct base_diag *diag);
enum base_status graph_parse_file(const char *path, struct graph_module **out, struct base_diag *diag);
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
/* Verification                                                              */

/* Checks each op's operand/result counts, shapes and element types per the
 * StableHLO spec; the first violation comes back located, naming op and rule. */
enum base_status graph_verify(const struct graph_module *m, struct base_diag *diag);

#endif
