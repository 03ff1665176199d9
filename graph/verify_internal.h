/* Private to graph/verify*.c: the verifier's context, type and attribute
 * helpers shared by the per-family rule files.
 *
 * Every rule reads the op's types and attributes and compares them with the
 * StableHLO spec's constraints (docs/spec.md, "Constraints" of each op; CHLO
 * from the chlo dialect definitions).  Where the spec and the upstream
 * verifier (stablehlo/dialect/TypeInference.cpp, StablehloOps.cpp/.td)
 * disagree, the rule is the verifier's: the front end accepts what
 * stablehlo-opt accepts and rejects what it rejects (docs/graph-ir.md,
 * "Verifier vs spec").  Dynamic dimensions (GRAPH_DYN) are compatible with
 * anything within their bounds: only static facts are checked.  A failing
 * rule returns graph_verify_fail(), which locates the op and names it, the
 * constraint and the values involved.
 */
#ifndef NPUSIM_GRAPH_VERIFY_INTERNAL_H
#define NPUSIM_GRAPH_VERIFY_INTERNAL_H

#include "graph/graph.h"

/* Longest dimension list an attribute may hold (every such list is bounded by
 * a rank, or by 2x a rank for combined lists). */
#define VERIFY_MAX_LIST (2 * GRAPH_MAX_RANK)
/* Most inputs a variadic reduction (reduce, sort, scatter, ...) may have here;
 * more is valid StableHLO that npusim reports as unsupported. */
#define VERIFY_MAX_VARIADIC 128

struct verify_ctx {
    const struct graph_module *m;
    struct base_diag *diag;
    const struct graph_op **funcs; /* func.func ops sorted by name */
    int n_funcs;
    const struct graph_op *func;   /* the func.func being verified */
    int64_t *scratch;              /* growable buffer for large attributes */
    size_t scratch_cap;
    const struct graph_op *mesh;   /* last sdy.mesh looked up by name */
    const char *mesh_name;
    size_t mesh_name_len;
};

/* ------------------------------------------------------------------------ */
/* Failing                                                                   */

/* Sets a BASE_ERR_VERIFY diag at op's location: "<op name>: <message>". */
enum base_status graph_verify_fail(struct verify_ctx *cx, const struct graph_op *op, const char *fmt, ...)
    BASE_PRINTF(3, 4);
/* Same with BASE_ERR_UNSUPPORTED: valid StableHLO that npusim does not handle. */
enum base_status graph_verify_unsupported(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *fmt, ...) BASE_PRINTF(3, 4);

#define VTRY(expr)                                 \
    do {                                           \
        enum base_status vst_ = (expr);            \
        if (vst_ != BASE_OK) return vst_;          \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static inline const struct graph_type *verify_in(const struct graph_op *op, int i)
{
    return op->operands[i]->type;
}
static inline const struct graph_type *verify_out(const struct graph_op *op, int i)
{
    return op->results[i].type;
}
static inline bool verify_is_tensor(const struct graph_type *t)
{
    return t && t->kind == GRAPH_TYPE_TENSOR;
}
static inline bool verify_ranked(const struct graph_type *t)
{
    return verify_is_tensor(t) && t->rank >= 0;
}
static inline bool verify_dim_compat(int64_t a, int64_t b)
{
    return a == GRAPH_DYN || b == GRAPH_DYN || a == b;
}
static inline bool verify_dim_static(int64_t d) { return d != GRAPH_DYN; }
static inline bool verify_is_quant(const struct graph_type *t) { return t && t->quant; }
static inline bool verify_is_per_axis(const struct graph_type *t)
{
    return t && t->quant && t->quant->quant_dim >= 0;
}

/* Element classes, one bit each, for "tensor of ... type" rules. */
enum {
    VC_BOOL = 1u << 0,
    VC_SINT = 1u << 1,
    VC_UINT = 1u << 2,
    VC_FLOAT = 1u << 3,
    VC_COMPLEX = 1u << 4,
    VC_QUANT = 1u << 5,      /* per-tensor quantized */
    VC_QUANT_AXIS = 1u << 6, /* per-axis quantized */
};
#define VC_INT (VC_SINT | VC_UINT)
#define VC_QANY (VC_QUANT | VC_QUANT_AXIS)
#define VC_ANY (VC_BOOL | VC_INT | VC_FLOAT | VC_COMPLEX | VC_QANY)

/* The class bit of a tensor's element type (0 for non-tensors). */
unsigned graph_verify_class(const struct graph_type *t);
/* Requires a tensor whose element class is in `mask`; `what` names the
 * operand ("(I1) operand", "result"). */
enum base_status graph_verify_need_class(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *what, const struct graph_type *t, unsigned mask);
/* Requires a tensor (of any element type). */
enum base_status graph_verify_need_tensor(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *what, const struct graph_type *t);
/* Requires a ranked tensor of exactly `rank` dims (rank < 0: any). */
enum base_status graph_verify_need_rank(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *what, const struct graph_type *t, int rank);

/* Shapes compatible: unranked or equal ranks with compatible dims. */
bool graph_verify_shape_compat(const struct graph_type *a, const struct graph_type *b);
/* Element types equal, quantization parameters included. */
bool graph_verify_elem_equal(const struct graph_type *a, const struct graph_type *b);
/* Element types equal up to scales and zero points (spec: baseline_element_type). */
bool graph_verify_elem_baseline_equal(const struct graph_type *a, const struct graph_type *b);
/* Same kind (tensor/token/tuple), compatible shapes, equal element types; tuples
 * element-wise.  The relation MLIR's HLO verifier uses between types that
 * "must be the same" (dynamic dims match anything). */
bool graph_verify_type_compat(const struct graph_type *a, const struct graph_type *b);
/* As graph_verify_type_compat with baseline element types. */
bool graph_verify_type_baseline_compat(const struct graph_type *a, const struct graph_type *b);
/* is_promotable(x, y) of the spec: same kind and no narrower. */
bool graph_verify_promotable(const struct graph_type *x, const struct graph_type *y);
/* As upstream's reducers check it (isPromotableElementType with
 * ignoreFpPrecision): any float to any float, else graph_verify_promotable. */
bool graph_verify_promotable_fp(const struct graph_type *x, const struct graph_type *y);
/* Bits of the element type (storage type for quantized; 2x component for complex). */
int graph_verify_elem_bits(const struct graph_type *t);

/* Prints a type (MLIR spelling) or a dim list ("2x?x4") into buf. */
const char *graph_verify_tstr(const struct graph_type *t, char *buf, size_t cap);
const char *graph_verify_dstr(int rank, const int64_t *dims, char *buf, size_t cap);
/* "[1, 2, 3]" */
const char *graph_verify_lstr(int n, const int64_t *v, char *buf, size_t cap);

/* Compares a result type's shape with an inferred one (dims may be GRAPH_DYN). */
enum base_status graph_verify_result_dims(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *label, const char *what,
                                    const struct graph_type *t, int rank, const int64_t *dims);
/* Requires compatible shapes: "<label> <wa> and <wb> must have the same shape". */
enum base_status graph_verify_same_shape(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *label, const char *wa, const struct graph_type *a,
                                   const char *wb, const struct graph_type *b);
/* Requires equal element types (quantization included). */
enum base_status graph_verify_same_elem(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *label, const char *wa, const struct graph_type *a,
                                  const char *wb, const struct graph_type *b);
/* Requires graph_verify_type_compat / graph_verify_type_baseline_compat. */
enum base_status graph_verify_same_type(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *label, const char *wa, const struct graph_type *a,
                                  const char *wb, const struct graph_type *b);
enum base_status graph_verify_same_baseline(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *label, const char *wa,
                                      const struct graph_type *a, const char *wb,
                                      const struct graph_type *b);

/* Operand/result/region counts; max < 0: unbounded. */
enum base_status graph_verify_counts(struct verify_ctx *cx, const struct graph_op *op, int min_in,
                               int max_in, int min_out, int max_out, int n_regions);

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

/* Integer attribute (INT or BOOL).  Absent: *present = false (if present is
 * NULL the attribute is required).  Other kinds fail. */
enum base_status graph_verify_attr_int(struct verify_ctx *cx, const struct graph_op *op,
                                 const struct graph_attr *a, const char *name, bool *present,
                                 int64_t *out);
enum base_status graph_verify_op_int(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                               bool *present, int64_t *out);
/* Boolean attribute (BOOL, or i1 INT); absent gives dflt. */
enum base_status graph_verify_op_bool(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                                bool dflt, bool *out);
/* A 1-D list of integers (DENSE_ARRAY, ARRAY of INT, 1-D integer ELEMENTS).
 * Absent: *n = -1 (if `required`, a failure). */
enum base_status graph_verify_attr_list(struct verify_ctx *cx, const struct graph_op *op,
                                  const struct graph_attr *a, const char *name, bool required,
                                  int64_t *out, int *n);
enum base_status graph_verify_op_list(struct verify_ctx *cx, const struct graph_op *op, const char *name,
                                bool required, int64_t *out, int *n);
/* A 2-D integer ELEMENTS attribute; values in cx->scratch (valid until the next
 * call).  Absent: *rows = -1.  A resource without data: *vals = NULL. */
enum base_status graph_verify_op_matrix(struct verify_ctx *cx, const struct graph_op *op,
                                  const char *name, const int64_t **vals, int64_t *rows,
                                  int64_t *cols);
/* The integers operand i holds when a constant op (stablehlo.constant,
 * arith.constant, chlo.constant) defines it, as upstream's matchInts reads
 * them: up to cap values into out, their count, or -1 when not constant. */
int graph_verify_const_ints(const struct graph_op *op, int i, int64_t *out, int cap);
/* A list field of a dimension-numbers dict (dot, conv, gather, scatter);
 * absent reads as empty (the printer drops empty fields). */
struct verify_dlist {
    int n;
    int64_t v[VERIFY_MAX_LIST];
};
enum base_status graph_verify_dict_list(struct verify_ctx *cx, const struct graph_op *op,
                                  const struct graph_attr *dn, const char *name, struct verify_dlist *l);
/* The string of a KEYWORD, STRING or SYMBOL attribute, or NULL. */
const char *graph_verify_attr_word(const struct graph_attr *a, size_t *len);
bool graph_verify_word_is(const struct graph_attr *a, const char *word);

/* An enum attribute whose value must be one of `words` (NULL-terminated). */
enum base_status graph_verify_op_enum(struct verify_ctx *cx, const struct graph_op *op, const char *label,
                                const char *name, const char *const *words, bool required);

/* List helpers. */
bool graph_verify_list_unique(int n, const int64_t *v);
bool graph_verify_list_sorted(int n, const int64_t *v);
bool graph_verify_list_has(int n, const int64_t *v, int64_t x);
/* Requires 0 <= v[i] < bound; label/what name the rule and the list. */
enum base_status graph_verify_list_in_range(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *label, const char *what, int n,
                                      const int64_t *v, int64_t bound);
enum base_status graph_verify_list_is_unique(struct verify_ctx *cx, const struct graph_op *op,
                                       const char *label, const char *what, int n,
                                       const int64_t *v);

/* Region helpers: the entry block of region r (NULL when empty) and its
 * terminator (NULL when missing). */
const struct graph_block *graph_verify_entry(const struct graph_op *op, int r);
const struct graph_op *graph_verify_term(const struct graph_block *b);
/* Requires region r to have one block with n_args arguments and a terminator
 * returning n_ret values (n_ret < 0: any); *blk and *ret receive them. */
enum base_status graph_verify_region_shape(struct verify_ctx *cx, const struct graph_op *op, int r,
                                     const char *rname, int n_args, int n_ret,
                                     const struct graph_block **blk, const struct graph_op **ret);
/* A reducer region (reduce, reduce_window, scatter, all_reduce, ...) as
 * upstream's verifyReducerShape checks it: 2N scalar-or-shaped args, N
 * results; the init values shaped as the results; inputs promotable to the
 * second arguments and inits to the results (float precision aside).
 * allowed_rank/allowed_dims: the dims a non-scalar block argument may take
 * (allowed_rank 0: scalars only). */
enum base_status graph_verify_reducer(struct verify_ctx *cx, const struct graph_op *op, int r,
                                const char *label, int n, const struct graph_type *const *inputs,
                                const struct graph_type *const *inits, int allowed_rank,
                                const int64_t *allowed_dims, const struct graph_type **acc_types);

/* Functions by name (binary search). */
const struct graph_op *graph_verify_find_func(const struct verify_ctx *cx, const char *name, size_t len);
/* A func.func's input/result types (from function_type); NULL when malformed. */
const struct graph_attr *graph_verify_func_types(const struct graph_op *func, const char *which);

/* ------------------------------------------------------------------------ */
/* Rule families                                                             */

/* verify_elementwise.c (also the CHLO broadcasting ops, constant, constant_like) */
enum base_status graph_verify_elementwise(struct verify_ctx *cx, const struct graph_op *op);
/* The CHLO ops of category MISC that verify_elementwise.c checks. */
bool graph_verify_is_chlo_misc(enum graph_op_kind k);
/* verify_shape.c: data movement */
enum base_status graph_verify_shape_op(struct verify_ctx *cx, const struct graph_op *op);
/* verify_gather.c: gather, scatter, dynamic_gather, torch_index_select */
enum base_status graph_verify_gather_op(struct verify_ctx *cx, const struct graph_op *op);
/* verify_reduce.c: reduce, reduce_window, select_and_scatter, map, sort, scan, top_k */
enum base_status graph_verify_reduce_op(struct verify_ctx *cx, const struct graph_op *op);
/* verify_linalg.c: dot, dot_general, convolution, fft, batch norm, ... */
enum base_status graph_verify_linalg_op(struct verify_ctx *cx, const struct graph_op *op);
/* verify_collective.c: collectives, token ops, sdy */
enum base_status graph_verify_collective_op(struct verify_ctx *cx, const struct graph_op *op);
/* verify_control.c: func, call, return, while, if, case, composite, misc, check */
enum base_status graph_verify_control_op(struct verify_ctx *cx, const struct graph_op *op);

#endif
