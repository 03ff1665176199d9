/* compiler/gemm: a tiled GEMM program generator, for measuring the machine.
 *
 * C[M, N] = A[M, K] @ B[K, N] on one core of a chip (struct chip_desc),
 * as one isa_program (a stream per engine).  docs/gemm.md has the worked
 * examples and the measured tables.
 *
 * Layout in HBM (DMA mode), all row-major from cfg.hbm_base, 64-byte aligned:
 *     At[K, M]  A stored transposed (K-major): a matmul takes K on partitions
 *               for both operands, so each DMA row is a contiguous run of M
 *               (a transposing DMA from A[M, K] would move 2-byte pieces)
 *     B[K, N]
 *     C[M, N]   in cfg.out_dtype (f32 for f32 inputs, bf16 for bf16 / fp8)
 *
 * The kernel (DMA mode).  Tiles: kt = K rows per matmul (<= the array rows
 * and the partitions), mt = M rows (<= the array cols and the accumulator
 * partitions), nt = N cols (<= one accumulator bank of f32, 512).  An output
 * block of mb x nb tiles lives in the accumulator, double-buffered (two
 * blocks fit), its tiles spread over the core's systolic engines.  Block rows
 * (bm) are outermost: the block row's panel At[:, bm] (all of K) is loaded
 * once into the scratchpad (double-buffered when two fit) and reused by every
 * block of the row, so only B streams: chunks of kc k-tiles x Nb columns,
 * double-buffered, each chunk split by partitions over the B queues.  The
 * systolic engines wait for a chunk, multiply with start/stop accumulation
 * over K, and signal; the B queues wait for the chunk two back to be consumed
 * before overwriting its buffer.  Per block, the evacuation engines (act,
 * vec) copy the finished tiles from the accumulator to a staging buffer,
 * converting to the output type, and the C queues write them to HBM.  Every
 * ordering is a semaphore: each queue and engine counts its own completions
 * (one signal per chunk, block or panel), waiters wait for exact counts.
 * Loops keep the program small: block rows are unrolled, pairs of blocks
 * (the two accumulator buffers) loop at depth 1 and pairs of chunks (the two
 * B buffers) at depth 0; the first and last chunk of a block (start, stop)
 * and edge tiles are peeled.
 *
 * Ideal memory (cfg.ideal_memory): no DMA.  A^T and B are placed in the
 * scratchpad by the host (K on partitions: regions [kt][nk][M] and
 * [kt][nk][N]) and C stays in the accumulator ([mt][nm * nn * ntp] f32, ntp
 * = nt rounded up to a divisor of the bank).  The program is only matmuls,
 * in the fold order of the array's dataflow, so the array time can be
 * compared with the closed forms below:
 *     ws: for each M tile i, K tile t: a fold streaming all N (matmuls over
 *         the N tiles j share the stationary A(t, i) and continue the fold)
 *     os: for each M tile i, N tile j: a fold streaming all K (matmuls over
 *         the K tiles t accumulate into one dst: start ... stop)
 *     is: for each N tile j, K tile t: a fold streaming all M (matmuls over
 *         the M tiles i share the moving B(t, j))
 * Folds are spread over the systolic engines (rows i on ws / os, cols j on
 * is, round robin).  When the operands do not fit the scratchpad or C the
 * accumulator, the plan aliases them (plan.timing_only): each engine's C
 * tiles share one accumulator slot, A and B tiles share a few scratchpad
 * slots chosen so consecutive folds still hold different operands; the
 * timing is exactly that of the full layout (it depends on addresses only
 * through "the same held operand"), the values are meaningless.
 *
 * Closed forms (cycles of the array clock; D = dispatch_cycles, p = passes,
 * L(Sr) = ceil(Sr / load_rows_per_cycle), S(T) = max(ceil(T /
 * rows_per_cycle), min_stream_cycles); sim/engine_systolic.c has the
 * instruction-level model they follow):
 *   no preload, per fold with Sr x Sc held and T streamed in n pieces T_1..T_n:
 *       fold = n D + p (L + S(T_1) + ... + S(T_n) + drain)   (p = 1)
 *       fold = sum over its matmuls of D + p (L + S(T_i) + drain)   (p > 1: no continuation)
 *   with L = L(Sr), drain = Sr + Sc - 2 (the rows and columns the fold uses),
 *   or, on arrays with fold_full_array (`--array`: SCALE-Sim v2's accounting),
 *   L = rows (ws, is) or 0 (os) and drain = rows + cols - 2 whatever the fold
 *   uses; the GEMM takes the sum over an engine's folds (max over engines).
 *   The generator's mapping: ws Sr = K, Sc = M, T = N; os Sr = M, Sc = N,
 *   T = K; is Sr = K, Sc = N, T = M (SCALE-Sim's ws and is hold / stream the
 *   other operand: cc_gemm_scalesim_transposes).
 *   preload (ws; TPU MXUs, the Neuron PE): each engine runs its matmuls
 *   1..n back to back, matmul i loading L_i = L(K_i) (0 when it reuses the
 *   previous stationary operand, p = 1) while i - 1 streams:
 *       start_1 = D + p L_1,  start_i = start_{i-1} + max(p S_{i-1}, D + p L_i)
 *       cycles  = start_n + p S_n + rows + cols - 1
 *   = D + p L_1 + p (S_1 + ... + S_n) + rows + cols - 1 when every load hides
 *   behind a stream (p S >= D + p L).
 */
#ifndef NPUSIM_COMPILER_GEMM_H
#define NPUSIM_COMPILER_GEMM_H

#include "base/base.h"
#include "isa/isa.h"
#include "chip/chip.h"

struct cc_gemm_config {
    uint32_t m, k, n;
    enum base_dtype dtype;        /* A and B: BASE_DT_BF16, BASE_DT_F8E4M3FN or BASE_DT_F32 */
    enum base_dtype out_dtype;    /* C in HBM (DMA mode); ideal memory leaves f32 in the accumulator */
    enum isa_precision precision; /* f32 matmuls: the chip's fp32_passes_<precision> (TPU) */
    bool ideal_memory;
    uint64_t hbm_base;            /* first HBM byte used (DMA mode) */
};
/* m = k = n = 128, bf16 -> bf16, precision HIGHEST, DMA mode. */
void cc_gemm_config_default(struct cc_gemm_config *c);
/* The output type cc_gemm_config_default pairs with an input type: f32 for f32, else bf16. */
enum base_dtype cc_gemm_default_out_dtype(enum base_dtype in);

/* A tensor the host writes before the run (A, B) or reads after it (C):
 * `dims` row-major at (space, partition, addr); in SP / ACC dims[0] runs
 * over partitions from `partition` (sim_write_tensor's layout). */
struct cc_gemm_region {
    enum isa_space space;         /* ISA_SPACE_NONE: no region */
    uint32_t partition;
    uint64_t addr;
    enum base_dtype dtype;
    int rank;
    int64_t dims[3];
};

/* What cc_gemm_build decided. */
struct cc_gemm_plan {
    struct cc_gemm_config cfg;
    enum chip_dataflow dataflow;   /* of the core's systolic engines */
    bool preload;
    uint32_t n_pe;                /* systolic engines used */
    uint32_t kt, mt, nt;          /* tile sizes (K partitions, M rows, N columns) */
    uint32_t nk, nm, nn;          /* tile counts */
    uint32_t mb, nb, kc;          /* DMA mode: tiles per block (M x N), k-tiles per B chunk */
    uint32_t a_panels;            /* DMA mode: At panel buffers (2: the next row loads under this one) */
    uint32_t q_a, q_b, q_c, n_evac; /* DMA mode: queues loading At / B, storing C; evacuation engines */
    uint64_t sp_bytes;            /* scratchpad bytes per partition used */
    bool timing_only;             /* ideal memory with aliased addresses: values are meaningless */
    struct cc_gemm_region a, b, c; /* A (packed by cc_gemm_pack_a), B, C (cc_gemm_unpack_c) */
};

/* Builds the program for core 0 of chip into prog (initialised by the
 * call; isa_program_deinit it).  Errors (located at the chip file): a dtype
 * the arrays do not take, too few DMA queues (3) or no vector / scalar engine
 * in DMA mode, an At panel of one tile row that does not fit the scratchpad
 * (K too large), a shape that does not fit HBM. */
enum base_status cc_gemm_build(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                               struct isa_program *prog, struct cc_gemm_plan *plan, struct base_diag *diag);

/* Operands given as strided views in HBM instead of the dense layout above
 * (DMA mode; what the compiler's dot kernels use).  Element (r, c) of an
 * operand of job j lives at byte
 *     addr + size(dtype) * (job_off[j][i] + r * s_row + c * s_col)
 * (strides in elements, any sign; i = 0, 1, 2 for A, B, C), with
 *     A: (r, c) = (m, k)   B: (k, n)   C: (m, n).
 * The DMAs convert between the HBM types and the on-chip ones: A and B are
 * loaded as cfg.dtype (the matmul type); C is evacuated from the f32
 * accumulator rounded to stage_dtype (cfg.out_dtype is ignored) and stored
 * as c.dtype (a convert after the dot, rounding once more).  A with s_row 1
 * is At[K, M] as the dense layout; s_col 1 (A[M, K] row-major) makes the
 * panel loads transposing DMAs, which cost the same (docs/timing.md 7).
 * Jobs are GEMMs of one shape (batch, or outer dims that do not merge),
 * computed one after another; the blocks of all jobs (job-major, then block
 * rows, then block columns) are shared among n_cores cores in contiguous
 * ranges and this program is core `core`'s share (possibly empty). */
struct cc_gemm_view {
    uint64_t addr;
    enum base_dtype dtype;
    int64_t s_row, s_col;
};
struct cc_gemm_layout {
    struct cc_gemm_view a, b, c;
    uint32_t n_jobs;             /* 0 counts as 1 */
    const int64_t (*job_off)[3]; /* [n_jobs] element offsets of A, B, C; NULL: all 0 */
    enum base_dtype stage_dtype; /* a float of at most 32 bits */
    uint32_t core, n_cores;      /* n_cores 0 counts as 1 */
    uint32_t tag;                /* put on every instruction */
};
/* Like cc_gemm_build in DMA mode (cfg.ideal_memory and cfg.hbm_base are
 * ignored) with the operands of `lay`.  prog must be initialised (and is
 * only appended to: its name is set when empty); on error it is left empty.
 * plan.a/b/c describe job 0's views as 2-D regions only when they are
 * dense; else their space is ISA_SPACE_NONE. */
enum base_status cc_gemm_build_layout(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                      const struct cc_gemm_layout *lay, struct isa_program *prog,
                                      struct cc_gemm_plan *plan, struct base_diag *diag);

/* A[M, K] (any real type; converted to cfg.dtype) -> the tensor for plan.a;
 * B[K, N] -> plan.b.  With plan.timing_only (or a == NULL / b == NULL) a
 * zero tensor of the region's shape: writing it marks the bytes initialised. */
enum base_status cc_gemm_pack_a(const struct cc_gemm_plan *plan, const struct base_tensor *a, struct base_tensor **out);
enum base_status cc_gemm_pack_b(const struct cc_gemm_plan *plan, const struct base_tensor *b, struct base_tensor **out);
/* The tensor read at plan.c -> C[M, N] (out_dtype; f32 in ideal memory). */
enum base_status cc_gemm_unpack_c(const struct cc_gemm_plan *plan, const struct base_tensor *raw,
                                  struct base_tensor **out);

/* The host reference with the simulator's numerics (docs/isa.md): inputs
 * rounded to cfg.dtype, each product rounded to f32 (exact for bf16 / fp8)
 * and added to one f32 sum per element in k order (no fused multiply-add);
 * f32 on a TPU through the bf16 passes of cfg.precision (1, 3 or 6: the
 * operands' bf16 parts, products of one k in the documented order); then
 * converted to out_dtype (ideal memory: left f32).  So C equals the
 * simulator's bit for bit. */
enum base_status cc_gemm_reference(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                   const struct base_tensor *a, const struct base_tensor *b, struct base_tensor **c);

/* The closed forms above, for the plan's tiling. */
struct cc_gemm_model {
    uint64_t array_cycles;        /* ideal memory, the formulas above (max over engines) */
    uint64_t scalesim_cycles;     /* arrays with fold_full_array (--array): SCALE-Sim v2's stall-free cycles,
                                     folds x p x per-fold - 1 (its last cycle's index); 0 otherwise */
    uint64_t folds;               /* per GEMM, all engines */
    double clock_ghz;             /* the arrays' clock */
    double peak_flops;            /* of the core's arrays at this dtype / precision */
    double flops;                 /* 2 M N K */
    double hbm_bytes;             /* DMA mode: At once, B once per block row, C once */
    double dma_bytes_per_ns;      /* min(HBM, sum of the queues' own limits) */
    uint64_t memory_cycles;       /* hbm_bytes at dma_bytes_per_ns, in array cycles */
};
enum base_status cc_gemm_model(const struct chip_desc *chip, const struct cc_gemm_plan *plan,
                               struct cc_gemm_model *out);

/* Whether, to map a GEMM onto an array of dataflow df as SCALE-Sim does
 * (ws holds the filter B[K, N] and streams the M rows of A; os holds the
 * outputs and streams K; is holds A and streams N), the generator must be
 * given the transposed problem C^T[N, M] = B^T A^T (ws and is). */
bool cc_gemm_scalesim_transposes(enum chip_dataflow df);

/* chip with its systolic engines replaced by one generic rows x cols array
 * named "pe": no preload, dataflow df, one row loaded per cycle, no dispatch
 * or minimum stream cost, every fold charged as the whole array
 * (fold_full_array), the rates and clock of the chip's first array: the
 * accounting of SCALE-Sim v2 (docs/gemm.md).  When rows or cols exceed the scratchpad or
 * accumulator partitions they are raised (at most ISA_MAX_PARTITIONS) with
 * the same total bytes, so the array can be filled. */
enum base_status cc_gemm_array_chip(const struct chip_desc *chip, uint32_t rows, uint32_t cols,
                                    enum chip_dataflow df, struct chip_desc *out, struct base_diag *diag);

const char *cc_gemm_dataflow_name(enum chip_dataflow df); /* "ws" "os" "is" */

#endif
