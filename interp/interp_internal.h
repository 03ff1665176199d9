/* Private to graph/: the golden interpreter's internals (interp.c), shared by
 * the kernel families (interp_<family>.c; each registers its kernels below).
 *
 * Semantics follow the StableHLO spec (docs/spec.md).  Each kernel reads its
 * operands, allocates fresh result tensors and never mutates an operand.
 */
#ifndef NPUSIM_INTERP_INTERNAL_H
#define NPUSIM_INTERP_INTERNAL_H

#include "interp/interp.h"

/* ------------------------------------------------------------------------ */
/* Runtime values                                                            */

enum interp_value_kind { IV_TENSOR, IV_TOKEN, IV_TUPLE };

struct interp_value {
    _Atomic long refs;
    enum interp_value_kind kind;
    struct base_tensor *t;          /* IV_TENSOR: owned reference */
    int n;                          /* IV_TUPLE */
    struct interp_value **elems;    /* IV_TUPLE: owned references */
};

/* Wraps a tensor, taking over the caller's reference to it.  NULL on OOM
 * (and then t is released). */
struct interp_value *interp_value_tensor(struct base_tensor *t);
struct interp_value *interp_value_token(void);
/* Takes over the references in elems. */
struct interp_value *interp_value_tuple(int n, struct interp_value **elems);
struct interp_value *interp_value_retain(struct interp_value *v);
void interp_value_release(struct interp_value *v); /* NULL is a no-op */

/* ------------------------------------------------------------------------ */
/* Processes                                                                 */

struct interp_ctx;    /* one run: module, options, rendezvous state (interp.c) */
struct interp_coll;   /* collective rendezvous state (interp_collective.c) */

struct interp_proc {
    struct interp_ctx *run;
    const struct graph_module *module;
    const struct interp_options *opt;
    int replica_id;
    int partition_id;
    int process_id;                 /* replica_id * num_partitions + partition_id */
    int num_replicas;
    int num_partitions;
    struct interp_value **env;      /* value id -> current value (SSA, module-wide ids) */
    int call_depth;
    const struct graph_op **call_stack; /* active func.func ops, call_depth of them */
    struct base_diag diag;          /* first error of this process */
    /* check results */
    int n_checks, cap_checks, n_checks_failed;
    struct interp_check_result *checks;
    /* Set by the quantization wrapper: kernels then produce the expressed
     * (float) type instead of the quantized storage type. */
    bool dequant_mode;
    /* interpreter.probe recordings (interp_check.c) */
    int n_probes;
    struct interp_probe *probes;
};

/* ------------------------------------------------------------------------ */
/* Kernels                                                                   */

/* A kernel reads in[0..op->n_operands) and sets out[0..op->n_results) to new
 * references.  On failure it returns a status after interp_fail(); any out[]
 * it already set are released by the caller. */
typedef enum base_status (*interp_kernel_fn)(struct interp_proc *p, const struct graph_op *op,
                                              struct interp_value *const *in,
                                              struct interp_value **out);

/* Each family fills the entries it implements (called once, in interp.c). */
void interp_register_elementwise(interp_kernel_fn *table);
void interp_register_shape(interp_kernel_fn *table);
void interp_register_reduce(interp_kernel_fn *table);
void interp_register_linalg(interp_kernel_fn *table);
/* The linear-algebra family is split over files; interp_register_linalg
 * (interp_linalg.c) calls these. */
void interp_register_dot(interp_kernel_fn *table);  /* interp_dot.c: dot_general, dot, chlo.ragged_dot */
void interp_register_conv(interp_kernel_fn *table); /* interp_conv.c: convolution, dynamic_conv */
void interp_register_fft(interp_kernel_fn *table);  /* interp_fft.c: fft */
void interp_register_collective(interp_kernel_fn *table);
void interp_register_quant(interp_kernel_fn *table);
void interp_register_check(interp_kernel_fn *table);
void interp_register_control(interp_kernel_fn *table);
void interp_register_rng(interp_kernel_fn *table);

/* graph_attr_as_i64_list, except that an absent attribute (a == NULL) reads
 * as an empty list (0), the spec's default for dimension lists. */
int interp_i64_list(const struct graph_attr *a, int64_t *out, int cap);

/* Per value id, the op after which the value is no longer needed: the last
 * op of its own block that uses it (directly or inside its regions), or its
 * defining op when nothing uses it.  NULL when out of memory; free(). */
const struct graph_op **interp_last_users(const struct graph_module *m);
/* Whether operand i of op may stay lazy (its values computed when read)
 * rather than be read whole before the op runs. */
bool interp_keeps_lazy(const struct graph_op *op, int i);

/* Records a located runtime error naming the op; returns st. */
enum base_status interp_fail(struct interp_proc *p, const struct graph_op *op, enum base_status st,
                             const char *fmt, ...) BASE_PRINTF(4, 5);

/* Result element type and static shape of result i, honouring dequant_mode
 * (quantized results report their expressed type).  Dims may be GRAPH_DYN:
 * kernels whose output shape depends on values compute it themselves. */
enum base_dtype interp_result_dtype(struct interp_proc *p, const struct graph_op *op, int i);
const struct graph_type *interp_result_type(const struct graph_op *op, int i);
/* A zero-filled tensor of result i's dtype and static shape; ERR_UNSUPPORTED if
 * the result type is dynamic. */
enum base_status interp_alloc_result(struct interp_proc *p, const struct graph_op *op, int i,
                                     struct base_tensor **out);

/* Hands t (taking the caller's reference) to out[i]; a located ERR_NOMEM
 * when that fails (t is then released). */
enum base_status interp_set_out(struct interp_proc *p, const struct graph_op *op, struct interp_value **out, int i,
                                struct base_tensor *t);
/* With st == BASE_OK, hands res[0..n) to out[0..n) one by one as
 * interp_set_out does; what is not handed over (everything, when st is an
 * error) is released.  Clears res; returns st or the first failure. */
enum base_status interp_set_outs(struct interp_proc *p, const struct graph_op *op, enum base_status st,
                                 struct interp_value **out, struct base_tensor **res, int n);
/* Releases v[0..n) and sets them to NULL. */
void interp_values_release(struct interp_value **v, int n);

/* The tensor of an IV_TENSOR value (NULL for tokens/tuples). */
static inline struct base_tensor *iv_t(const struct interp_value *v) {
    return v && v->kind == IV_TENSOR ? v->t : NULL;
}

/* Runs a region's entry block with the given arguments (borrowed).  Results of
 * its terminator are returned as new references in results[0..*n_results);
 * cap is the capacity of results. */
enum base_status interp_call_region(struct interp_proc *p, const struct graph_region *r, int n_args,
                                    struct interp_value *const *args, struct interp_value **results,
                                    int cap, int *n_results);
/* Calls a func.func op with borrowed args. */
enum base_status interp_call_func(struct interp_proc *p, const struct graph_op *func, int n_args,
                                  struct interp_value *const *args, struct interp_value **results,
                                  int cap, int *n_results);

/* The element type that argument i of region r's entry block declares, or
 * fallback when it declares none (no such block or argument, not a tensor,
 * or a quantized one). */
enum base_dtype interp_region_arg_dtype(const struct graph_region *r, int i, enum base_dtype fallback);
/* Copies the one element of scalar value v (a region's result) into element
 * i of t, converted to t's element type; false when v is not a one-element
 * tensor. */
bool interp_store_scalar(const struct interp_value *v, struct base_tensor *t, int64_t i);

/* If region r is a single binary elementwise op over its two scalar arguments
 * (in either order for commutative ops) whose result is returned, e.g. the
 * `add` of a sum reduction, returns that op's kind; otherwise
 * GRAPH_OP_UNKNOWN.  Kernels use it to skip the per-element region call. */
enum graph_op_kind interp_region_simple_binary(const struct graph_region *r);

/* Applies a simple binary op kind (from interp_region_simple_binary) to two
 * scalars held as raw elements of dtype dt: dst[di] = a[ai] op b[bi]. */
void interp_scalar_binary(enum graph_op_kind k, enum base_dtype dt, void *dst, size_t di,
                          const void *a, size_t ai, const void *b, size_t bi);

/* comparison_direction values, in the spec's order. */
enum interp_cmp_dir { INTERP_CMP_EQ, INTERP_CMP_NE, INTERP_CMP_GE, INTERP_CMP_GT, INTERP_CMP_LE, INTERP_CMP_LT };

/* x <dir> y for real operands of one type (a NaN operand makes every
 * direction but NE false, as IEEE comparisons do). */
#define INTERP_CMP(dir, x, y)                                                                      \
    ((dir) == INTERP_CMP_LT   ? (x) < (y)                                                          \
     : (dir) == INTERP_CMP_GT ? (x) > (y)                                                          \
     : (dir) == INTERP_CMP_LE ? (x) <= (y)                                                         \
     : (dir) == INTERP_CMP_GE ? (x) >= (y)                                                         \
     : (dir) == INTERP_CMP_EQ ? (x) == (y)                                                         \
                              : (x) != (y))

/* The comparison_direction of a compare op; false when absent or unknown
 * (interp_elementwise.c). */
bool interp_compare_dir(const struct graph_op *cmp, enum interp_cmp_dir *dir);

/* The sign-bit mask of float type dt; 0 when the format has no sign. */
uint64_t interp_float_sign_mask(enum base_dtype dt);

/* IEEE totalOrder of a float's raw bits as a signed key: -NaN < -inf < ... <
 * -0 < +0 < ... < +inf < +NaN.  sign is interp_float_sign_mask of its type
 * (0: an unsigned format, whose bits are the key). */
static inline int64_t interp_total_order_key(uint64_t bits, uint64_t sign)
{
    if (!sign) return (int64_t)bits;
    int64_t mag = (int64_t)(bits & ~sign);
    return (bits & sign) ? -mag - 1 : mag;
}

/* The binary ops that the scalar fast paths (compiled reduction bodies,
 * scatter updates) apply with interp_scalar_binary: add, subtract, multiply,
 * maximum, minimum, and, or, xor. */
bool interp_scalar_binary_is_fast(enum graph_op_kind k);

/* Elementwise binary op on whole tensors of equal shape (used by reductions'
 * fast paths and collectives).  Out is a new tensor. */
enum base_status interp_binary_tensors(struct interp_proc *p, const struct graph_op *op,
                                       enum graph_op_kind k, struct base_tensor *a,
                                       struct base_tensor *b, struct base_tensor **out);

/* custom_call @check.<target> (interp_check.c); target excludes "check.". */
enum base_status interp_check_custom_call(struct interp_proc *p, const struct graph_op *op, const char *target,
                                          size_t len, struct interp_value *const *in, struct interp_value **out);
void interp_probes_free(struct interp_proc *p);

/* Records the outcome of a check op. */
void interp_record_check(struct interp_proc *p, const struct graph_op *op, bool passed,
                         const char *fmt, ...) BASE_PRINTF(4, 5);

/* Index helpers. */
void interp_index_from_linear(int rank, const int64_t *dims, int64_t linear, int64_t *idx);
int64_t interp_linear_from_index(int rank, const int64_t *dims, const int64_t *idx);
/* Advances a multi-index in row-major order; returns false after the last. */
bool interp_index_next(int rank, const int64_t *dims, int64_t *idx);

/* ------------------------------------------------------------------------ */
/* Collectives (interp_collective.c)                                         */

/* Process groups per the spec's cross_replica / cross_partition /
 * cross_replica_and_partition / flattened_ids modes.  Returns the group (as
 * process ids, in group order) that contains p, or an error. */
enum base_status interp_process_group(struct interp_proc *p, const struct graph_op *op,
                                      int *group, int cap, int *n);

/* Blocks until every process in group has contributed `mine` for this op
 * instance, then returns all contributions in group order (new references in
 * all[0..n)).  Deterministic: the order is the group order. */
enum base_status interp_rendezvous(struct interp_proc *p, const struct graph_op *op,
                                   const int *group, int n, struct interp_value *mine,
                                   struct interp_value **all);

/* Rendezvous state for one process grid (interp_collective.c).  abort wakes
 * every waiting process with an error, so one failing process cannot hang
 * the others. */
struct interp_coll *interp_coll_create(int n_processes);
void interp_coll_destroy(struct interp_coll *c);
void interp_coll_abort(struct interp_coll *c);

/* Tells the grid that one of its processes has finished its program, so a
 * wait that only finished processes could satisfy is reported as a deadlock
 * instead of hanging.  Call once per process, after its function returned. */
void interp_coll_process_done(struct interp_coll *c);

/* Functions listed by interpreter.run_parallel's `infeed` attribute, in
 * order: each stablehlo.infeed of the grid calls the next one and returns its
 * results (interp_collective.c).  funcs is copied. */
enum base_status interp_coll_set_infeed(struct interp_coll *c, const struct graph_op *const *funcs, int n);

/* Copies the box of extent size[] at src_off[] in src to dst_off[] in dst
 * (same dtype and rank; no bounds checks). */
void interp_copy_box(struct base_tensor *dst, const int64_t *dst_off, const struct base_tensor *src,
                     const int64_t *src_off, const int64_t *size);

/* sdy.manual_computation (interp_sdy.c); interp_register_collective calls it. */
void interp_register_sdy(interp_kernel_fn *table);

/* A process grid over a module (interp.c). */
struct interp_ctx *interp_ctx_create(const struct graph_module *m, const struct interp_options *opt,
                                     int num_replicas, int num_partitions);
void interp_ctx_destroy(struct interp_ctx *run);
/* The grid of process p. */
struct interp_coll *interp_proc_coll(const struct interp_proc *p);

/* Runs funcs[i] as process i of a new num_replicas x num_partitions grid, each
 * in its own thread (interpreter.run_parallel, sdy.manual_computation).
 * Process i takes n_args[i] borrowed args starting at the sum of the previous
 * n_args, and returns cap[i] values into results at the sum of the previous
 * caps (new references).  Checks recorded by the processes are merged into p. */
enum base_status interp_ctx_parallel(struct interp_proc *p, const struct graph_op *op,
                                     const struct graph_op *const *funcs, int num_replicas, int num_partitions,
                                     struct interp_value *const *args, const int *n_args,
                                     struct interp_value **results, const int *cap,
                                     const struct graph_op *const *infeed, int n_infeed);

/* ------------------------------------------------------------------------ */
/* Quantization (interp_quant.c)                                             */

/* Dequantizes a tensor stored in q->storage to q->expressed, in f32 as the
 * reference's lowering does: f32(i32(q) - zp) * f32(scale).  A float tensor
 * (already expressed) comes back as a new reference. */
enum base_status interp_dequantize(const struct graph_quant *q, const struct base_tensor *in,
                                   struct base_tensor **out);
/* Quantizes a float tensor to q->storage, in f32: round half to even of
 * clamp(x / scale + zp, storage_min, storage_max). */
enum base_status interp_quantize(const struct graph_quant *q, const struct base_tensor *in,
                                 struct base_tensor **out);

#endif
