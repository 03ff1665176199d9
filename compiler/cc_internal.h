/* Private to compiler/: views, and (below) the kernel builder.
 *
 * A view is how a kernel sees a tensor in HBM without copying it: an element
 * at multi-index i of the view lives at byte
 *     addr + elem_size * sum_d(i_d * strides[d])
 * Strides are in elements; 0 repeats an element (broadcast), a negative
 * stride walks backwards (reverse).  transpose, broadcast_in_dim, slice,
 * reverse and most reshapes of a tensor are views of it, so they cost nothing
 * of their own: they become the access patterns of the DMAs that read it. */
#ifndef NPUSIM_COMPILER_CC_INTERNAL_H
#define NPUSIM_COMPILER_CC_INTERNAL_H

#include "compiler/compiler.h"

struct cc_view {
    uint64_t addr; /* byte address of element (0, ..., 0) */
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    int64_t strides[BASE_MAX_RANK]; /* in elements */
};

/* A row-major tensor at addr. */
void cc_view_dense(struct cc_view *v, uint64_t addr, enum base_dtype dt, int rank, const int64_t *dims);
int64_t cc_view_count(const struct cc_view *v);
/* Row-major and gap-free (a plain buffer). */
bool cc_view_is_dense(const struct cc_view *v);
/* stablehlo.transpose: dim i of out is dim perm[i] of in. */
void cc_view_transpose(const struct cc_view *in, const int64_t *perm, struct cc_view *out);
/* stablehlo.broadcast_in_dim: dim i of in becomes dim bdims[i] of out
 * (size 1 in `in` broadcasts); the other out dims repeat. */
void cc_view_broadcast(const struct cc_view *in, int out_rank, const int64_t *out_dims, const int64_t *bdims,
                       struct cc_view *out);
/* stablehlo.slice (start, limit, stride per dim). */
void cc_view_slice(const struct cc_view *in, const int64_t *start, const int64_t *limit, const int64_t *stride,
                   struct cc_view *out);
/* stablehlo.reverse over the dims listed. */
void cc_view_reverse(const struct cc_view *in, const int64_t *dims, int n_dims, struct cc_view *out);
/* stablehlo.reshape, when the new shape can be addressed with strides
 * (always for a dense view); false when it needs a copy. */
bool cc_view_reshape(const struct cc_view *in, int rank, const int64_t *dims, struct cc_view *out);
/* Same dtype reinterpretation is not a view: convert is a kernel. */

/* A box of a view: start[d] .. start[d] + count[d] on each dim. */
struct cc_box {
    int64_t start[BASE_MAX_RANK];
    int64_t count[BASE_MAX_RANK];
};

/* The HBM access pattern that reads (or writes) a box of a view with view
 * dim `part_dim` on partitions (-1: one partition) and the listed free dims,
 * outermost first (dims of count 1 may be left out; dims not listed must
 * have count 1 in the box).  Adjacent free dims that address memory as one
 * are merged.  False when more than ISA_MAX_DIMS free dims remain after
 * merging, or the box has more than ISA_MAX_PARTITIONS rows on part_dim. */
bool cc_view_box_ap(const struct cc_view *v, const struct cc_box *box, int part_dim, const int *free_dims,
                    int n_free, struct isa_ap *ap);

/* ------------------------------------------------------------- kernels */

/* What a kernel computes; each kind has an emitter (k_*.c). */
#define X_CC_KERNEL_KINDS(X)                                                        \
    X(ELEMENTWISE, "fusion")       /* elementwise ops, converts, compares, selects */ \
    X(DOT, "dot_general")          /* + an elementwise epilogue */                  \
    X(CONV, "convolution")                                                          \
    X(REDUCE, "reduce")            /* + an elementwise prologue */                  \
    X(REDUCE_WINDOW, "reduce_window")                                               \
    X(COPY, "copy")                /* a view that must be materialised */            \
    X(CONCAT, "concatenate")                                                        \
    X(PAD, "pad")                                                                   \
    X(GATHER, "gather")                                                             \
    X(SCATTER, "scatter")                                                           \
    X(DYNAMIC_SLICE, "dynamic_slice")                                               \
    X(DYNAMIC_UPDATE_SLICE, "dynamic_update_slice")                                \
    X(RNG_BIT_GENERATOR, "rng_bit_generator") /* k_rng.c */                        \
    X(RNG, "rng")                                                                  \
    X(SELECT_AND_SCATTER, "select_and_scatter") /* k_sas.c */                      \
    X(SORT, "sort")                /* sort, chlo.top_k, top-k custom calls (k_sort.c) */
enum cc_kernel_kind {
#define X(e, name) CC_K_##e,
    X_CC_KERNEL_KINDS(X)
#undef X
        CC_K_COUNT
};
const char *cc_kernel_kind_name(enum cc_kernel_kind k);

/* A value a kernel reads from HBM (or writes to it): the buffer holding it
 * and the view through which this kernel sees it. */
struct cc_operand {
    const struct graph_value *value;
    uint32_t buffer;
    struct cc_view view;
};

/* One kernel of the plan: a group of graph ops that runs as one launch. */
struct cc_kernel {
    enum cc_kernel_kind kind;
    struct cc_kernel_info info;
    int n_ops;
    const struct graph_op *const *ops;  /* the group, in program order */
    int n_in;
    const struct cc_operand *in;        /* values defined outside the group, as ops[] use them */
    int n_out;
    const struct cc_operand *out;       /* values used after the group (or returned) */
    int n_dyn;
    const uint32_t *dyn_buffers;        /* read by the runtime before emission (compiler.h) */
    const struct cc_view *dyn_views;    /* dyn operand i as the op sees it, addr relative to its buffer */
};

struct cc_target;
/* The index of the kernel input holding graph value v, or -1. */
int cc_kernel_input_index(const struct cc_kernel *k, const struct graph_value *v);
/* A located error for kernel k (op's location; the kernel's name, else its
 * kind's): "kernel NAME (OP) on CHIP: msg"; returns st. */
enum base_status cc_kernel_fail(const struct cc_target *t, const struct cc_kernel *k, const struct graph_op *op,
                                struct base_diag *diag, enum base_status st, const char *msg);

/* The engines of one core of a chip, by kind (indices into chip->engines;
 * -1 / 0 when the chip has none). */
#define CC_MAX_ENGINES_OF_KIND CHIP_MAX_ENGINES
struct cc_target {
    const struct chip_desc *chip;
    int n_pe, pe[CC_MAX_ENGINES_OF_KIND];
    int n_dma, dma[CC_MAX_ENGINES_OF_KIND];
    int vec, act, pool;
    /* cc_options.default_precision: what f32 dots and convolutions that do
     * not ask for a precision run at (cc_target_init: ISA_PREC_DEFAULT, the
     * chip's default; cc_compile sets it from its options) */
    enum isa_precision default_precision;
};
void cc_target_init(struct cc_target *t, const struct chip_desc *chip);

/* Emits kernel k's program for core ctx->core (its share of the work when
 * ctx->n_cores > 1).  Every emitter follows the same contract: inputs read
 * from their operand views, outputs written through theirs, values as the
 * golden interpreter computes them (docs/compiler.md states the
 * tolerances), the program race-free under the simulator's checks. */
typedef enum base_status (*cc_emit_fn)(const struct cc_target *t, const struct cc_kernel *k,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out,
                                       struct base_diag *diag);


/* --------------------------------------------------------- kernel builder
 * (compiler/kernel.c) Builds one core's program for one kernel:
 *  - scratchpad buffers of N slots (N-buffering), bump-allocated against the
 *    chip's partition size (ERR_LIMIT naming the kernel when they cannot fit);
 *  - synchronisation by dependency tracking: every data instruction signals
 *    its engine's own semaphore (semaphore = engine index; a monotone count
 *    of that engine's completed instructions, which complete in order), and
 *    an instruction touching a buffer slot waits for the slot's earlier
 *    writers (and, when it writes, readers) on other engines: a wait folded
 *    into the instruction plus sem_wait instructions for further engines;
 *  - DMA split into partition ranges on the queues round-robin;
 *  - a tiler that cuts an index space seen through several views into tiles
 *    (one dim chunked on partitions, up to 4 free dims) for cc_view_box_ap. */

#define CC_KB_MAX_BUFS 96
#define CC_KB_MAX_SLOTS 4

/* How an instruction touches a buffer slot. */
enum { CC_RD = 1, CC_WR = 2, CC_RW = 3 };
struct cc_access {
    int buf, slot, mode;
};

struct cc_kb_slot {
    int32_t w[CHIP_MAX_ENGINES]; /* last writers: per engine, its signal count */
    int32_t r[CHIP_MAX_ENGINES]; /* readers since the last write */
};

struct cc_kb_buf {
    uint64_t addr;       /* scratchpad byte of slot 0, in every partition */
    uint64_t slot_bytes; /* per partition */
    int slots;
    struct cc_kb_slot st[CC_KB_MAX_SLOTS];
};

struct cc_kb {
    const struct cc_target *t;
    const struct cc_kernel *k;
    struct isa_program *prog;
    struct base_diag *diag;
    uint32_t partitions;          /* the scratchpad's */
    uint64_t sp_bytes, sp_top;    /* bytes per partition; next free byte */
    int n_bufs;
    struct cc_kb_buf bufs[CC_KB_MAX_BUFS];
    int32_t signals[CHIP_MAX_ENGINES];                /* signalling instructions emitted per engine */
    int32_t known[CHIP_MAX_ENGINES][CHIP_MAX_ENGINES]; /* known[e][f]: e already waited for f >= value */
    int dma_next;                 /* round-robin position among the DMA queues */
    const int *dma_q;             /* the queues cc_kb_dma uses (NULL: t->dma): a matmul gives */
    int n_dma_q;                  /* its epilogue's transfers the store queues (k_dot.c) */
    uint32_t tag;                 /* put on every instruction (graph op id of the root) */
};

/* b is large: allocate it (cc_kb_new / cc_kb_free). */
struct cc_kb *cc_kb_new(const struct cc_target *t, const struct cc_kernel *k, struct isa_program *out,
                        struct base_diag *diag);
void cc_kb_free(struct cc_kb *b);
/* A located error naming the kernel (its root op's location); returns st. */
enum base_status cc_kb_fail(struct cc_kb *b, enum base_status st, const char *fmt, ...) BASE_PRINTF(3, 4);
/* A scratchpad buffer of `slots` slots of slot_bytes per partition (rounded up
 * to 64 bytes); returns its id, or -1 with ERR_LIMIT set when it does not fit. */
int cc_kb_buffer(struct cc_kb *b, uint64_t slot_bytes, int slots);
/* A second name for buffer `of`'s storage with its own dependency tracking:
 * for disjoint parts of the same slots that separate instructions touch. */
int cc_kb_alias(struct cc_kb *b, int of);
uint64_t cc_kb_free_bytes(const struct cc_kb *b); /* per partition */
/* Scratchpad AP of buffer slot: partitions [p0, p0 + np), `n` contiguous
 * elements of dt at byte offset off of the slot (ndims 1; n == 0: ndims 0). */
struct isa_ap cc_kb_sp(const struct cc_kb *b, int buf, int slot, uint64_t off, uint32_t p0, uint32_t np,
                       enum base_dtype dt, uint64_t n);
/* Emits n instructions (each on engines[i], a chip engine index) that
 * together make one access to the listed slots: waits are computed once from
 * the slots' state, each instruction signals its engine, then the slots'
 * state records them all (pieces of one access do not wait for each other). */
enum base_status cc_kb_emit_group(struct cc_kb *b, const struct isa_instr *ins, const int *engines, int n,
                                  const struct cc_access *acc, int n_acc);
enum base_status cc_kb_emit(struct cc_kb *b, int engine, const struct isa_instr *in, const struct cc_access *acc,
                            int n_acc);
/* A DMA dst <- src split into `pieces` partition ranges (when both sides have
 * the same partition count) on successive DMA queues. */
enum base_status cc_kb_dma(struct cc_kb *b, const struct isa_ap *dst, const struct isa_ap *src,
                           const struct cc_access *acc, int n_acc, int pieces);
/* The instructions of such a DMA on the queues qs[0..nq) (round robin from
 * *next), at most CC_MAX_ENGINES_OF_KIND pieces: appended to ins / eng at *n
 * (room for CC_MAX_ENGINES_OF_KIND more). */
void cc_dma_split(const int *qs, int nq, int *next, const struct isa_ap *dst, const struct isa_ap *src, int pieces,
                  struct isa_instr *ins, int *eng, int *n);
/* How many pieces a DMA of `bytes` should be cut into: enough for each to
 * hide a queue's fixed cost (about 4x the bytes it could move meanwhile),
 * at most the queue count and `parts`. */
int cc_kb_dma_pieces(const struct cc_kb *b, uint64_t bytes, uint32_t parts);
/* Cycles (of engine e's clock, as docs/timing.md section 6) of an elementwise
 * instruction streaming P x F elements of the slowest type dt; two_in for
 * binary/select, transcendental for activations. */
double cc_kb_elem_ns(const struct cc_target *t, int engine, uint32_t P, uint64_t F, enum base_dtype dt,
                     bool two_in, bool transcendental);
/* Chip engine index -> stream name. */
const char *cc_kb_engine_name(const struct cc_kb *b, int engine);

/* ----------------------------------------------------------------- tiler */

#define CC_TILE_MAX_VIEWS 48
#define CC_TILE_MAX_REGIONS 4

/* A rectangular index space seen through views (all of its shape), cut into
 * tiles: boxes with `count` elements per dim (the last tile of a dim may be
 * smaller), part_dim on partitions (-1: one partition), the other dims with
 * count > 1 listed in free_dims (outermost first, at most 4). */
struct cc_region {
    int rank;
    int64_t dims[BASE_MAX_RANK];
    struct cc_view views[CC_TILE_MAX_VIEWS];
    int part_dim;
    int64_t count[BASE_MAX_RANK];
    int n_free;
    int free_dims[ISA_MAX_DIMS];
    int64_t n_tiles;
};

struct cc_tiling {
    int n_views;
    int n_regions;
    struct cc_region r[CC_TILE_MAX_REGIONS];
    int64_t n_tiles;
};

/* Plans tiles over dims (rank may be 0) seen through views[0..n): size-1
 * dims are dropped, dims contiguous in every view merged, the largest dim
 * goes on partitions (split when it is long so that a tile fills them), and
 * the innermost other dims fill at most max_free elements per partition.
 * views[i] must have rank `rank` and these dims. */
enum base_status cc_tiling_plan(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                                int n_views, uint32_t partitions, int64_t max_free);
/* The same over the dims exactly as given (no dropping, merging or
 * splitting; one region), for kernels that map tile boxes to other tensors
 * by index (pad, reduce_window).  rank 0 becomes one dim of 1. */
enum base_status cc_tiling_plan_dims(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                                     int n_views, uint32_t partitions, int64_t max_free);
/* Tile i (0 <= i < n_tiles): its region and box. */
void cc_tiling_tile(const struct cc_tiling *tl, int64_t i, int *region, struct cc_box *box);
/* Partitions and free elements per partition of a tile. */
uint32_t cc_tiling_parts(const struct cc_tiling *tl, int region, const struct cc_box *box);
uint64_t cc_tiling_free(const struct cc_tiling *tl, int region, const struct cc_box *box);
/* The HBM access pattern of view v over the box (cc_view_box_ap). */
bool cc_tiling_ap(const struct cc_tiling *tl, int region, int v, const struct cc_box *box, struct isa_ap *ap);
/* This core's share of n tiles: [*lo, *hi). */
void cc_core_share(int64_t n, const struct cc_emit_ctx *ctx, int64_t *lo, int64_t *hi);

/* ------------------------------------------------- elementwise tile programs
 * (k_elem.c) The machinery of fused elementwise kernels, also used for the
 * prologues of reductions: elementwise ops over an index space, inputs
 * loaded through views over that space, outputs stored through views, and
 * "sinks": values handed to the caller per tile (written by their defining
 * instruction straight into an access pattern the caller gives). */
struct cc_ew_spec {
    int n_ops;
    const struct graph_op *const *ops;   /* elementwise ops, program order */
    int rank;
    int64_t dims[BASE_MAX_RANK];          /* the index space */
    int n_in;
    const struct cc_operand *in;          /* candidate inputs; in_ok[i]: its view is over the space */
    const bool *in_ok;
    int n_out;
    const struct cc_operand *out;         /* outputs: views over the space */
    int n_sink;
    const struct graph_value *const *sink;
    const int *dim_of;                    /* the ops' dim d is space dim dim_of[d] (iota); NULL: same */
    int n_src;                            /* (h-cc-dot) values given per tile: cc_ew_source_ap */
    const struct graph_value *const *src;
};
struct cc_ew;
/* Builds the program (every loaded input a tile); errors through b. */
enum base_status cc_ew_new(const struct cc_ew_spec *spec, struct cc_kb *b, struct cc_ew **out);
void cc_ew_free(struct cc_ew *w);
/* Scratchpad bytes per partition: per tile element (all slots) and fixed. */
void cc_ew_bytes(const struct cc_ew *w, uint64_t *per_elem, uint64_t *fixed);
/* Views of the program for a tiling (inputs, iota index views, outputs), in
 * the order cc_tiling_plan must see them. */
int cc_ew_views(const struct cc_ew *w, const struct cc_view **views);
/* Fixes the tiling (its views: cc_ew_views) and this core's tiles [lo, hi):
 * classifies inputs (per-partition scalars, residents), rebuilds, picks
 * engines, allocates buffers, and emits the resident loads and hoisted
 * instructions. */
enum base_status cc_ew_prepare(struct cc_ew *w, const struct cc_tiling *tl, int64_t lo, int64_t hi);
enum base_status cc_ew_loads(struct cc_ew *w, int64_t tile, int slot);
/* The tile's instructions; sink i goes to sink_ap[i] (tile-shaped: P x F
 * elements of the sink's type) with access sink_acc[i]. */
enum base_status cc_ew_compute(struct cc_ew *w, int64_t tile, int slot, const struct isa_ap *sink_ap,
                               const struct cc_access *sink_acc);
enum base_status cc_ew_stores(struct cc_ew *w, int64_t tile, int slot);
/* Slots per buffer of the tile pipeline. */
#define CC_EW_SLOTS 2

/* ------------------------------------ elementwise op lowerings elsewhere
 * Ops that become several tile instructions are written in files of their
 * own against this builder of k_elem.c's tile program (the op still joins
 * fusions like any elementwise op).  Values are ints; -1 (out of values or
 * instructions) propagates through every function. */
struct cc_ewb;
int cc_ewb_imm(struct cc_ewb *b, double v, enum base_dtype dt);
/* dst = x f y: binary or tensor_scalar by the operands' shapes (ALU f) */
int cc_ewb_bin(struct cc_ewb *b, unsigned alu, int x, int y, enum base_dtype rt);
int cc_ewb_un(struct cc_ewb *b, unsigned alu, int x, enum base_dtype rt);   /* unary ALU */
int cc_ewb_act(struct cc_ewb *b, unsigned act, int x, enum base_dtype rt);  /* activate (f64 inside, one rounding) */
int cc_ewb_sel(struct cc_ewb *b, int p, int x, int y, enum base_dtype rt);  /* p ? x : y (bits) */
int cc_ewb_bits(struct cc_ewb *b, int x, enum base_dtype as);               /* x's storage read as `as` */
int cc_ewb_index(struct cc_ewb *b, int dim, enum base_dtype dt);           /* the index along dim of the space */
enum base_dtype cc_ewb_dt(const struct cc_ewb *b, int x);
bool cc_ewb_is_imm(const struct cc_ewb *b, int x, double *v);
/* complex64 values are pairs of f32 values: cc_ewb_imag is x's imaginary
 * part (-1: x is real); cc_ewb_pair names the pair (re, im), returning it */
int cc_ewb_imag(const struct cc_ewb *b, int x);
int cc_ewb_pair(struct cc_ewb *b, int re, int im);
/* (k_complex.c) a splat complex64 constant's parts */
bool cc_complex_splat(const struct graph_op *op, double *re, double *im);
int cc_ewb_rank(const struct cc_ewb *b);
const struct cc_target *cc_ewb_target(const struct cc_ewb *b);

/* The families: cc_F_claims(op) says the op is F's; cc_F_supported is its
 * cc_elem_op_supported; cc_F_lower(b, op, x) its tile instructions (x: the
 * operands' values), returning the result's value. */
#define CC_EWX_FAMILIES(X) X(complex) X(special) X(quant)
#define X(f)                                                                                                           \
    bool cc_##f##_claims(const struct graph_op *op);                                                                  \
    bool cc_##f##_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);            \
    int cc_##f##_lower(struct cc_ewb *b, const struct graph_op *op, const int *x);
CC_EWX_FAMILIES(X)
#undef X

/* Quantized types (k_quant.c).  cc_quant_involved: an operand or result is
 * !quant.uniform.  The interpreter runs every op on quantized tensors but
 * quantize / dequantize as dequantize -> op -> quantize (interp/interp.c):
 * cc_quant_dequant / cc_quant_quant are its two steps as tile instructions
 * (x: a value of t's storage type; r: a value of the expressed type).
 * cc_quant_types_ok: quantized types an op other than an elementwise one may
 * carry (moves whose quantized types all agree: the storage bits move;
 * dots and convolutions: cc_quant_mm). */
bool cc_quant_involved(const struct graph_op *op);
bool cc_quant_elem_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
int cc_quant_dequant(struct cc_ewb *b, int x, const struct graph_type *t);
int cc_quant_quant(struct cc_ewb *b, int r, const struct graph_type *t);
bool cc_quant_types_ok(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
/* A quantized dot_general or convolution on the arrays: operands per tensor,
 * integer storage of at most 8 bits, the result's storage an integer with
 * scale = the operands' scales' product and zero point 0 (so its value is
 * the exact integer sum of (q_lhs - zp_lhs)(q_rhs - zp_rhs)).  mm_dt: i8
 * where the chip's arrays take it and both zero points are 0, else bf16
 * (|q - zp| <= 255 is exact in bf16: the Neuron compiler dequantizes int8 to
 * a float type, docs/compiler.md); zp: the operands' zero points. */
bool cc_quant_mm(const struct graph_op *op, int lhs, int rhs, const struct cc_target *t, enum base_dtype *mm_dt,
                 double *zp_lhs, double *zp_rhs, char *why, size_t cap);

/* ---------------------------------------------------------------- emitters */

/* What each emitter expects of its struct cc_kernel (docs/compiler.md):
 *  ELEMENTWISE  ops: elementwise ops (cc_elem_op_supported), all of the
 *               outputs' shape (splat constants of any shape); in: views of
 *               the outputs' shape, or rank 0 (scalars: broadcast); out: views
 *               of one shape.
 *  REDUCE       ops: [elementwise prologue..., the stablehlo.reduce]; the
 *               prologue's values have the reduced input's shape (its inputs:
 *               views of that shape or rank 0); out: the reduce's results
 *               (views of the kept dims) and prologue values (input's shape).
 *  REDUCE_WINDOW ops: [the stablehlo.reduce_window].
 *  COPY         in[0] -> out[0] (ops may be empty): the same element type and
 *               count; different shapes are a row-major reshape.
 *  CONCAT, PAD  ops: [the op]; operands found in `in` by value.
 * Inputs whose value is a splat constant become immediates (not loaded). */

/* Fused elementwise ops (k_elem.c).  cc_elem_op_supported says whether one
 * op can be part of an ELEMENTWISE kernel on target t (why: the reason when
 * not). */
bool cc_elem_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
enum base_status cc_emit_elementwise(const struct cc_target *t, const struct cc_kernel *k,
                                     const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag);
/* Data movement (k_move.c). */
enum base_status cc_emit_copy(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag);
enum base_status cc_emit_concat(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag);
enum base_status cc_emit_pad(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag);
/* A resident scratchpad buffer [P, F] of dt filled once with the scalar
 * `value` (a splat constant: memset; else a kernel input: loaded into every
 * partition and broadcast); its id, or -1 with the error set. */
int cc_move_fill_tile(struct cc_kb *b, const struct cc_kernel *k, const struct graph_value *value, enum base_dtype dt,
                      uint32_t P, uint64_t F);
/* Data-dependent addressing (k_index.c): GATHER, DYNAMIC_SLICE,
 * DYNAMIC_UPDATE_SLICE; ops: [the op]; the index operands are the kernel's
 * dyn operands (dyn_buffers / dyn_views, in operand order), read through
 * ctx->dyn (NULL: every index is 0). */
enum base_status cc_emit_gather(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag);
enum base_status cc_emit_dynamic_slice(const struct cc_target *t, const struct cc_kernel *k,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out,
                                       struct base_diag *diag);
enum base_status cc_emit_dynamic_update_slice(const struct cc_target *t, const struct cc_kernel *k,
                                              const struct cc_emit_ctx *ctx, struct isa_program *out,
                                              struct base_diag *diag);
/* Graph-level peepholes (rewrite.c).  cc_rewrite_f64_compare: when op is
 * compare(convert(x: f32 -> f64), c) (either order; c an f64 splat constant,
 * compare_type FLOAT or absent), an equivalent compare of x with an f32
 * splat constant c' (cc_rewrite_f32_bound; its value gets id id_base +
 * op->id), writing op's own result; NULL otherwise.  Allocated in a. */
const struct graph_op *cc_rewrite_f64_compare(const struct graph_op *op, uint32_t id_base, struct base_arena *a);
/* dir: 0..5 = EQ NE LT LE GT GE (x dir c). */
float cc_rewrite_f32_bound(int dir, double c);
/* SCATTER: one input, its region returning the update (replace), the
 * current value, or f(current, update) for an ALU function f
 * (cc_body_binary_func, or subtract in either order); the scatter indices
 * are dyn operand 0.  cc_scatter_op_supported says whether a scatter is of
 * that form (why: the reason when not). */
bool cc_scatter_op_supported(const struct graph_op *op, char *why, size_t cap);
enum base_status cc_emit_scatter(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                 struct isa_program *out, struct base_diag *diag);
/* Reductions (k_reduce.c). */
/* The ALU function of op's region 0 when it is a one-result body of two
 * scalars that the reduce kernels lower (a reduction body, a scatter's
 * update_computation): f(arg0, arg1) in either order with f add, multiply,
 * maximum, minimum, and, or or xor on the element type, or an i1 body
 * identified by its truth table (why: the reason when not). */
bool cc_body_binary_func(const struct graph_op *op, unsigned *func, char *why, size_t cap);
bool cc_reduce_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
enum base_status cc_emit_reduce(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag);
enum base_status cc_emit_reduce_window(const struct cc_target *t, const struct cc_kernel *k,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out,
                                       struct base_diag *diag);

/* Sorts and top-k (k_sort.c): SORT kernels, ops: [the stablehlo.sort,
 * chlo.top_k or top-k custom_call (interp_topk_call)]; in: its operands (any
 * views), out: its results that are read.  A sort whose results are only
 * read through slices of their first k' positions along the sort dimension
 * computes those only (a top-k network).  cc_sort_op_supported says whether
 * an op is one the kernel takes on target t: a comparator that is a
 * lexicographic order on keys computed from each element (the interpreter's
 * stable order is then the only one), element types the engines move, and a
 * sort dimension whose rows fit the scratchpad (why: the reason when not;
 * the host runs such sorts). */
bool cc_sort_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
enum base_status cc_emit_sort(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag);

/* Matmuls and convolutions (k_dot.c, k_conv.c; h-cc-dot).  The plan gives a
 * DOT kernel ops [the dot_general, then elementwise epilogue ops of the dot
 * result's shape...] (compiled mode; eager: the dot_general alone), in: the
 * dot's two operands (views of their shapes) and the epilogue's other inputs
 * (views of the result's shape, or rank 0), out: dense result views (the dot
 * result itself when something outside the kernel reads it).  CONV: ops
 * [the convolution].  compile.c links these once the files define them. */
enum base_status cc_emit_dot(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag);
enum base_status cc_emit_conv(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag);
/* Whether a dot_general / dot (cc_dot_op_supported) or a convolution
 * (cc_conv_op_supported) can be a kernel on target t (why: the reason when
 * not: f64 or complex elements, quantized types, dynamic shapes). */
bool cc_dot_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
bool cc_conv_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
/* The precision a dot's (its algorithm's, else the higher of its
 * precision_config's, else t's default) or a convolution's f32 matmuls run
 * at (cc_plan_op_precision). */
enum isa_precision cc_dot_precision(const struct graph_op *op, const struct cc_target *t);
enum isa_precision cc_conv_precision(const struct graph_op *op, const struct cc_target *t);
/* Whether the DOT kernel of dot on chip takes elementwise epilogues beyond
 * a lone convert (they need k_elem.c's tile sources, CC_EW_SOURCES below,
 * and a problem the general engine runs at the GEMM's pace); when false
 * the grouping leaves the ops after the dot to their own kernels. */
bool cc_dot_fuses_epilogues(const struct graph_op *dot, const struct chip_desc *chip);

/* A sum of matmuls (k_dot.c): the engine of the dot kernels the GEMM
 * generator (gemm.h) does not take (several contracting dims that do not
 * merge, integers, epilogues) and of convolutions.
 *     C[job][m][n] = sum over pieces p, k < rows_p of S[job][p][k][m] * V[job][p][k][n]
 * in piece order, k ascending within a piece (the interpreter's order when
 * the pieces list the contracting index tuples row-major).  n is a box over
 * n_nd dims; element (k, n) of V in piece p is, per dim d, index
 * q_d = n_d * mul[d] + add_p[d] of the view when 0 <= q_d < lim[d] and
 * q_d % div[d] == 0 (at q_d / div[d]; else 0: convolution padding and lhs
 * dilation); plain dims have mul = div = 1, add = 0, lim = n.  Offsets and
 * strides are in elements of each operand's HBM type.  Float sums run on the
 * systolic arrays (f32 accumulation, rounded to acc_dt on evacuation); integer
 * sums on the vector engines, exactly (wrapping to acc_dt). */
#define CC_MM_MAX_N 4
struct cc_mm_piece {
    uint32_t rows;
    int64_t s_off, s_k; /* stationary (S): offset, stride per k */
    int64_t v_off, v_k; /* moving (V) */
    int64_t add[CC_MM_MAX_N];
};
struct cc_mm {
    uint64_t s_addr, v_addr, c_addr;
    enum base_dtype s_dt, v_dt, c_dt;   /* in HBM; C is stored converted to c_dt */
    int64_t M, s_m, c_m;                /* M: on the accumulator's partitions */
    int n_nd;
    int64_t n[CC_MM_MAX_N], v_n[CC_MM_MAX_N], c_n[CC_MM_MAX_N];
    int64_t mul[CC_MM_MAX_N], div[CC_MM_MAX_N], lim[CC_MM_MAX_N];
    uint32_t n_jobs;                    /* 0 counts as 1 */
    const int64_t (*job_off)[3];        /* per job: offsets of S, V, C (NULL: 0) */
    int n_pieces;
    const struct cc_mm_piece *pieces;
    enum base_dtype mm_dt;              /* float sums: the matmul operand type */
    enum base_dtype acc_dt;             /* the sum's result type (the op's) */
    enum isa_precision prec;            /* f32 matmuls on a TPU */
    double s_zp, v_zp;                  /* quantized operands: zero points subtracted after the loads */
    bool integer;
    /* An elementwise epilogue over the result (NULL: none; k_elem.c with
     * CC_EW_SOURCES): its index space is the result's dims (epi_rank), jobs
     * being the row-major walk over the dims other than epi_m_dim and
     * epi_n_dim[], which precede epi_m_dim; the sum is its source 0. */
    const struct cc_ew_spec *epi;
    int epi_m_dim, epi_n_dim[CC_MM_MAX_N];
};
enum base_status cc_mm_emit(const struct cc_target *t, const struct cc_kernel *k, const struct cc_mm *mm,
                            const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag);
/* (k_dot.c) Zeros written through view v: the result of a sum over no
 * elements (a dot whose contracting dims hold none, a convolution with an
 * empty window or no input features); nothing when v has no elements. */
enum base_status cc_mm_emit_zeros(const struct cc_target *t, const struct cc_kernel *k, const struct cc_view *v,
                                  const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag);

/* Requested of k_elem.c by h-cc-dot for matmul epilogues (to define, with
 * CC_EW_SOURCES, where cc_ew is implemented): cc_ew_spec.src[0..n_src) are
 * values the caller computes per tile (a dot's result) instead of loads;
 * cc_ew_source_ap gives the tile-shaped (P x F) access pattern of source i
 * in `slot` for `tile` and the access that writes it, for the caller's own
 * instruction, emitted before cc_ew_compute of that tile and slot. */
#define CC_EW_SOURCES 1
struct isa_ap cc_ew_source_ap(const struct cc_ew *w, int i, int64_t tile, int slot, struct cc_access *acc);

/* Random numbers (k_rng.c): RNG_BIT_GENERATOR and RNG kernels, ops [the
 * op]; bits bit for bit the interpreter's (interp/interp_rng.c);
 * cc_rng_op_supported says whether an rng_bit_generator / rng can be one. */
bool cc_rng_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
/* rng NORMAL's f32 Box-Muller against the interpreter's f64 one: its bound
 * for cc_decomposition_ulps (0 for every other rng). */
double cc_rng_decomposition_ulps(const struct graph_op *op, double *abs_err);
enum base_status cc_emit_rng_bit_generator(const struct cc_target *t, const struct cc_kernel *k,
                                           const struct cc_emit_ctx *ctx, struct isa_program *out,
                                           struct base_diag *diag);
enum base_status cc_emit_rng(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag);

/* select_and_scatter (k_sas.c): ops [the op]; in: operand, source, init. */
bool cc_sas_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap);
enum base_status cc_emit_select_and_scatter(const struct cc_target *t, const struct cc_kernel *k,
                                            const struct cc_emit_ctx *ctx, struct isa_program *out,
                                            struct base_diag *diag);

/* custom_calls that are the identity on values (k_custom.c): @Sharding,
 * @SPMDFullToShardShape / @SPMDShardToFullShape (in a program one partition
 * runs: the same shape), @MoveToHost / @MoveToDevice, @LayoutConstraint,
 * @annotate_device_placement.  cc_custom_call_claims: the target is one of
 * them; cc_custom_call_view: each result is its operand, a view (why: the
 * reason when not). */
bool cc_custom_call_claims(const struct graph_op *op);
bool cc_custom_call_view(const struct graph_op *op, char *why, size_t cap);
/* The value gv is the identity of (an identity custom_call's, an
 * optimization_barrier's or an annotation's operand), or NULL: the plan binds both to one
 * buffer, so a kernel that maps graph values looks through it. */
const struct graph_value *cc_identity_source(const struct graph_value *gv);

/* ------------------------------------------------------------ plan (compile.c) */

/* Kernel k of the plan (its ops and operand views, addresses placed). */
const struct cc_kernel *cc_plan_kernel(const struct cc_plan *p, uint32_t k);
/* Whether kernels of kind k have an emitter. */
bool cc_kind_lowered(enum cc_kernel_kind k);

/* Integer helpers of the index arithmetic (any signs; b > 0). */
static inline int64_t cc_floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int64_t cc_ceil_div(int64_t a, int64_t b) { return -cc_floor_div(-a, b); }
static inline int64_t cc_gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Why f64 arithmetic is not lowered on target t, naming the chip's limit
 * (docs/compiler.md "f64"): the TPUs have no f64 unit (XLA:TPU emulates f64
 * as pairs of f32: not IEEE f64), the NeuronCores none either (Neuron's
 * types are 32, 16 and 8 bits; torch-xla lowers f64 to f32 there); such ops
 * run on the host, exactly. */
const char *cc_f64_limit(const struct cc_target *t);

/* The ALU compare function of a stablehlo.compare (float or integer form). */
bool cc_compare_func(const struct graph_op *op, unsigned *f, bool integer);
/* The activation-engine function of a unary graph op (exp, log, tanh...). */
bool cc_activation_of(enum graph_op_kind k, unsigned *act);

#endif
