/* isa: the instruction set shared by TPU TensorCores and Trainium NeuronCores.
 *
 * A program is a set of instruction streams, one per engine of a core (the
 * engines a chip file declares: systolic arrays, vector, scalar/activation,
 * gpsimd, DMA queues).  Streams run in parallel and synchronise only through
 * semaphores.  Instructions address memory through access patterns: a range
 * of partitions and up to four strided free dimensions, so one instruction
 * moves or computes a whole tile.
 *
 * Everything about an opcode is written once, in isa/isa_ops_list.h; the
 * enum, names, operand formats, assembler, disassembler, binary encoding and
 * the simulator's execute dispatch are all generated from it.
 */
#ifndef NPUSIM_ISA_H
#define NPUSIM_ISA_H

#include "base/base.h"
#include "isa/isa_ops_list.h"

/* ------------------------------------------------------------------------ */
/* Memory spaces and access patterns                                         */

/* X(ENUM, "asm name").  NONE is first, so an all-zero access pattern (an
 * operand the op does not use) has space NONE. */
#define ISA_SPACES(X)        \
    X(NONE, "none")          \
    X(HBM, "hbm")            \
    X(SP, "sp")    /* scratchpad: TPU VMEM, Neuron SBUF; up to 256 partitions */ \
    X(ACC, "acc")  /* accumulator: TPU MXU result buffers, Neuron PSUM; banked */

enum isa_space {
#define X(e, name) ISA_SPACE_##e,
    ISA_SPACES(X)
#undef X
    ISA_SPACE_COUNT
};

#define ISA_MAX_DIMS 4
/* 256: the 256-row MXUs of TPU v6e / 7x take K = 256 partitions per matmul. */
#define ISA_MAX_PARTITIONS 256
#define ISA_MAX_LOOP_DEPTH 2
/* Structural limits (isa_instr_validate): every byte an access pattern
 * touches, in every loop iteration, lies in [0, ISA_MAX_ADDR); each
 * |stride * (count - 1)|, |part_stride_bytes| and |loop_step_bytes| is at most
 * ISA_MAX_SPAN, and so is an access pattern's element count.  So address
 * arithmetic in int64 never overflows. */
#define ISA_MAX_ADDR (INT64_C(1) << 48)
#define ISA_MAX_SPAN (INT64_C(1) << 40)

/* Access pattern.  The element at partition p (0 <= p < part_count) and free
 * index (i0..i3) is at byte
 *     addr + p * part_stride_bytes + elem_size * sum_k(i_k * stride[k])
 * in partition part_start + p of an SP/ACC space, or at that byte address of
 * HBM (where "partitions" are just the outermost dimension).  Strides are in
 * elements and may be 0 (broadcast) or negative; dims are listed outermost
 * first.  loop_step_bytes[d] is added to addr on each iteration of the d-th
 * enclosing LOOP (0 = innermost), which lets a compact loop walk tiles. */
struct isa_ap {
    uint8_t space;             /* enum isa_space */
    uint8_t dtype;             /* enum base_dtype of the elements in memory */
    uint8_t ndims;             /* 0..ISA_MAX_DIMS (0: one element per partition) */
    uint8_t reserved;
    uint16_t part_start;
    uint16_t part_count;       /* 1..ISA_MAX_PARTITIONS for SP/ACC */
    uint64_t addr;
    int64_t part_stride_bytes; /* HBM only; SP/ACC partitions are separate memories */
    int64_t stride[ISA_MAX_DIMS];
    uint32_t count[ISA_MAX_DIMS];
    int64_t loop_step_bytes[ISA_MAX_LOOP_DEPTH];
};

/* Elements per partition (product of counts; 1 when ndims == 0). */
uint64_t isa_ap_free_elems(const struct isa_ap *ap);
uint64_t isa_ap_total_elems(const struct isa_ap *ap);
/* Lowest and one-past-highest byte touched in each partition (SP/ACC) or in
 * HBM, for capacity, range and race checks. */
void isa_ap_extent(const struct isa_ap *ap, int64_t *lo, int64_t *hi);
/* The same over every iteration of the enclosing loops: trips[d] is the
 * iteration count of the d-th enclosing LOOP (0 = innermost), depth <=
 * ISA_MAX_LOOP_DEPTH; a loop with 0 trips is taken as 1. */
void isa_ap_extent_loops(const struct isa_ap *ap, const uint32_t *trips, int depth, int64_t *lo, int64_t *hi);

/* ------------------------------------------------------------------------ */
/* Engines                                                                   */

/* X(ENUM, "asm name") — the kinds of engine a core can have. */
#define ISA_ENGINE_KINDS(X)                                           \
    X(SYSTOLIC, "pe")     /* TPU MXU / Neuron Tensor engine */        \
    X(VECTOR, "vec")      /* TPU VPU / Neuron Vector engine */        \
    X(SCALAR, "act")      /* Neuron Scalar (activation) engine */     \
    X(GPSIMD, "pool")     /* Neuron GpSimd engine */                  \
    X(DMA, "dma")         /* one DMA queue */

enum isa_engine_kind {
#define X(e, name) ISA_ENGINE_##e,
    ISA_ENGINE_KINDS(X)
#undef X
    ISA_ENGINE_KIND_COUNT
};

/* ------------------------------------------------------------------------ */
/* Sub-operations                                                            */

/* ALU functions of elementwise, tensor-scalar, reduce and compare ops.
 * X(ENUM, "asm name", arity) */
#define ISA_ALU_OPS(X)          \
    X(BYPASS, "bypass", 1)      \
    X(ADD, "add", 2)            \
    X(SUB, "sub", 2)            \
    X(MUL, "mul", 2)            \
    X(DIV, "div", 2)            \
    X(MAX, "max", 2)            \
    X(MIN, "min", 2)            \
    X(POW, "pow", 2)            \
    X(AND, "and", 2)            \
    X(OR, "or", 2)              \
    X(XOR, "xor", 2)            \
    X(SHL, "shl", 2)            \
    X(SHR, "shr", 2)            \
    X(EQ, "eq", 2)              \
    X(NE, "ne", 2)              \
    X(LT, "lt", 2)              \
    X(LE, "le", 2)              \
    X(GT, "gt", 2)              \
    X(GE, "ge", 2)              \
    X(NEG, "neg", 1)            \
    X(ABS, "abs", 1)            \
    X(NOT, "not", 1)            \
    /* appended (the encoding of the ones above is unchanged): */ \
    X(REM, "rem", 2)            \
    X(ATAN2, "atan2", 2)        \
    X(FLOOR, "floor", 1)        \
    X(CEIL, "ceil", 1)          \
    X(ROUND_EVEN, "round_even", 1) \
    X(ROUND_AFZ, "round_afz", 1) \
    X(SIGN, "sign", 1)          \
    X(IS_FINITE, "is_finite", 1) \
    X(CAST, "cast", 1)          \
    /* integer functions: exact 64-bit integer arithmetic (docs/isa.md) */ \
    X(IADD, "iadd", 2)          \
    X(ISUB, "isub", 2)          \
    X(IMUL, "imul", 2)          \
    X(IDIV, "idiv", 2)          \
    X(IREM, "irem", 2)          \
    X(IMAX, "imax", 2)          \
    X(IMIN, "imin", 2)          \
    X(IPOW, "ipow", 2)          \
    X(ISHL, "ishl", 2)          \
    X(ISHRL, "ishrl", 2)        \
    X(ISHRA, "ishra", 2)        \
    X(IAND, "iand", 2)          \
    X(IOR, "ior", 2)            \
    X(IXOR, "ixor", 2)          \
    X(IEQ, "ieq", 2)            \
    X(INE, "ine", 2)            \
    X(ILT, "ilt", 2)            \
    X(ILE, "ile", 2)            \
    X(IGT, "igt", 2)            \
    X(IGE, "ige", 2)            \
    X(INEG, "ineg", 1)          \
    X(IABS, "iabs", 1)          \
    X(INOT, "inot", 1)          \
    X(ISIGN, "isign", 1)        \
    X(POPCNT, "popcnt", 1)      \
    X(CLZ, "clz", 1)

enum isa_alu {
#define X(e, name, arity) ISA_ALU_##e,
    ISA_ALU_OPS(X)
#undef X
    ISA_ALU_COUNT
};

/* The integer functions (iadd .. clz): every tensor operand holds integers
 * (or i1), taken exactly; see docs/isa.md. */
static inline bool isa_alu_is_int(unsigned f) { return f >= ISA_ALU_IADD && f <= ISA_ALU_CLZ; }
/* Functions whose result is evaluated in f64 and rounded once to the
 * destination type when it is the instruction's last step (pow, atan2). */
static inline bool isa_alu_is_transcendental(unsigned f) { return f == ISA_ALU_POW || f == ISA_ALU_ATAN2; }

/* Activation functions: func(in * scale + bias).  X(ENUM, "asm name") */
#define ISA_ACT_FUNCS(X)                \
    X(IDENTITY, "identity")             \
    X(EXP, "exp")                       \
    X(LOG, "log")                       \
    X(TANH, "tanh")                     \
    X(SIGMOID, "sigmoid")               \
    X(GELU, "gelu")                     \
    X(GELU_TANH, "gelu_tanh")           \
    X(SILU, "silu")                     \
    X(RELU, "relu")                     \
    X(RSQRT, "rsqrt")                   \
    X(SQRT, "sqrt")                     \
    X(RECIPROCAL, "reciprocal")         \
    X(SQUARE, "square")                 \
    X(SIN, "sin")                       \
    X(COS, "cos")                       \
    X(ERF, "erf")                       \
    /* appended: */                     \
    X(EXPM1, "expm1")                   \
    X(LOG1P, "log1p")                   \
    X(TAN, "tan")                       \
    X(CBRT, "cbrt")

enum isa_act {
#define X(e, name) ISA_ACT_##e,
    ISA_ACT_FUNCS(X)
#undef X
    ISA_ACT_COUNT
};

/* Precision of a matmul with fp32 operands (the func field of MATMUL): the
 * chip file says how many bf16 passes each takes (fp32_passes_*).
 * X(ENUM, "asm name") */
#define ISA_PRECISIONS(X)    \
    X(DEFAULT, "default")    \
    X(HIGH, "high")          \
    X(HIGHEST, "highest")

enum isa_precision {
#define X(e, name) ISA_PREC_##e,
    ISA_PRECISIONS(X)
#undef X
    ISA_PREC_COUNT
};

/* ------------------------------------------------------------------------ */
/* Instructions                                                              */

enum isa_op {
#define X(e, name, fmt, units) ISA_OP_##e,
    ISA_OPS(X)
#undef X
    ISA_OP_COUNT
};

/* Operand formats (which fields an op uses, and its assembly syntax). */
enum isa_fmt {
#define X(e, desc) ISA_FMT_##e,
    ISA_FORMATS(X)
#undef X
    ISA_FMT_COUNT
};

/* Bits of isa_instr.flags */
enum {
    ISA_FLAG_START = 1 << 0,      /* matmul: first of an accumulation group: dst = result */
    ISA_FLAG_STOP = 1 << 1,       /* matmul: last of an accumulation group (dst complete) */
    ISA_FLAG_ACCUMULATE = 1 << 2, /* dma: dst += src (near-memory add); matmul, only with START:
                                     the group starts from dst's contents (dst += result).
                                     A matmul without START always does dst += result. */
    ISA_FLAG_WAIT = 1 << 3,       /* wait for sem >= wait_value before starting */
    ISA_FLAG_SIGNAL = 1 << 4,     /* sem += signal_inc on completion */
    ISA_FLAG_SCALE_AP = 1 << 5,   /* scale/operand0 comes from src1 (per partition), not imm0 */
    ISA_FLAG_BIAS_AP = 1 << 6,    /* bias/operand1 comes from src2 (per partition), not imm1 */
};

/* One instruction.  Fixed size; fields an op's format does not use are 0
 * (isa_instr_validate insists, so two equal instructions are equal bytes).
 *
 * Synchronisation, on any instruction: with ISA_FLAG_WAIT it starts only when
 * semaphore wait_sem >= wait_value (+ wait_step[d] * the iteration number of
 * the d-th enclosing LOOP, 0 = innermost, as loop_step_bytes does for
 * addresses); with ISA_FLAG_SIGNAL it adds signal_inc to signal_sem when it
 * completes.  SEM_WAIT and SEM_SIGNAL are instructions that do nothing else:
 * they always carry ISA_FLAG_WAIT / ISA_FLAG_SIGNAL and use these same fields,
 * so an executor handles waits and signals in one place for every op. */
struct isa_instr {
    uint8_t op;           /* enum isa_op */
    uint8_t func;         /* enum isa_alu (UNARY, BINARY, TENSOR_SCALAR, REDUCE) or enum isa_act (ACTIVATE) */
    uint8_t func2;        /* TENSOR_SCALAR: second ALU function (BYPASS: none) */
    uint8_t flags;
    uint16_t wait_sem;    /* semaphore waited on (ISA_FLAG_WAIT) */
    uint16_t signal_sem;  /* semaphore signalled (ISA_FLAG_SIGNAL) */
    int32_t wait_value;
    int32_t signal_inc;
    int32_t wait_step[ISA_MAX_LOOP_DEPTH]; /* added to wait_value per iteration of enclosing loop d */
    uint32_t count;       /* LOOP: iterations; REDUCE: innermost free dims reduced */
    uint32_t body;        /* LOOP: number of following instructions in the body */
    double imm0, imm1;    /* scalars: tensor_scalar operands, activation scale/bias, memset value,
                             iota base/partition multiplier */
    struct isa_ap dst, src0, src1, src2;
    uint32_t src_line;    /* line in the assembly source (0 if generated; not in the binary) */
    uint32_t tag;         /* free for generators: e.g. the graph op that produced it */
};

/* Static description of an op, from the table. */
const char *isa_op_name(enum isa_op op);
enum isa_fmt isa_op_fmt(enum isa_op op);
/* Bit set of engine kinds that may execute op (1u << ISA_ENGINE_xxx). */
unsigned isa_op_units(enum isa_op op);
const char *isa_alu_name(enum isa_alu f);
int isa_alu_arity(enum isa_alu f);
const char *isa_act_name(enum isa_act f);
const char *isa_precision_name(enum isa_precision p);
const char *isa_space_name(enum isa_space s);
const char *isa_engine_kind_name(enum isa_engine_kind k);

/* Structural validation of one instruction (format fields, dtypes, counts),
 * independent of any chip.  Chip limits are checked by the simulator. */
enum base_status isa_instr_validate(const struct isa_instr *in, char *why, size_t cap);

/* ------------------------------------------------------------------------ */
/* Programs                                                                  */

#define ISA_MAX_STREAMS 64
#define ISA_MAX_SEMAPHORES 256

/* One engine's instruction stream. */
struct isa_stream {
    char engine[16];            /* engine name as the chip file declares it: "pe", "act", "dma3", "mxu1" */
    uint32_t n, cap;
    struct isa_instr *instrs;
};

/* A program for one core: named streams.  Instructions are stored compactly
 * (loops are kept as LOOP instructions, never unrolled). */
struct isa_program {
    int n_streams;
    struct isa_stream streams[ISA_MAX_STREAMS];
    char name[64];
};

void isa_program_init(struct isa_program *p);
void isa_program_deinit(struct isa_program *p); /* leaves p empty (initialised) */
/* Empties p for a new program, keeping its streams' buffers for reuse (a
 * runtime emitting one kernel after another); isa_program_deinit frees them. */
void isa_program_reset(struct isa_program *p);
/* The stream for engine `name`, created on first use.  NULL on OOM / too many streams. */
struct isa_stream *isa_program_stream(struct isa_program *p, const char *engine);
enum base_status isa_stream_push(struct isa_stream *s, const struct isa_instr *in);
uint64_t isa_program_count(const struct isa_program *p); /* static instructions */
/* Instructions a stream executes, loops counted trip by trip (saturating at
 * UINT64_MAX; HALT not considered: an upper bound), for a validated stream;
 * *heaviest (may be NULL) gets the index of the loop with the most trips. */
uint64_t isa_stream_steps(const struct isa_stream *s, uint32_t *heaviest);
/* Every instruction valid (isa_instr_validate), and the loop structure sane:
 * each LOOP body lies inside its stream and inside the enclosing body, loops
 * nest at most ISA_MAX_LOOP_DEPTH deep, loop_step_bytes[d] and wait_step[d]
 * are 0 unless d < the depth of loops around the instruction, no address goes
 * negative over the iterations.  Errors name the stream and instruction and
 * are located at the instruction's src_line (path may be NULL). */
enum base_status isa_program_validate(const struct isa_program *p, const char *path, struct base_diag *diag);
/* Reads a program file: binary when it starts with ISA_BIN_MAGIC, else text. */
enum base_status isa_program_load(const char *path, struct isa_program *out, struct base_diag *diag);
/* The same within lim (NULL: the defaults; base_file_read_lim). */
enum base_status isa_program_load_lim(const char *path, const struct base_limits *lim, struct isa_program *out,
                                      struct base_diag *diag);

/* Text assembly.  The syntax is documented in docs/isa.md; errors are located
 * (file:line:col) and name the instruction and the rule.  asm -> text is the
 * disassembler; text -> asm -> text is the identity on canonical text.
 * isa_assemble and isa_decode initialise *out themselves, return a validated
 * program (isa_program_validate), and leave *out empty on error. */
enum base_status isa_assemble(const char *text, size_t len, const char *path, struct isa_program *out,
                              struct base_diag *diag);
enum base_status isa_disassemble(const struct isa_program *p, FILE *f);
enum base_status isa_disassemble_instr(const struct isa_instr *in, char *buf, size_t cap);

/* Binary encoding (little-endian, versioned header, per-stream sections of
 * fixed-size records; layout in docs/isa.md).  isa_encode refuses a program
 * that isa_program_validate rejects; *out is malloc'ed (free()). */
#define ISA_BIN_MAGIC "NPUISA"
#define ISA_BIN_VERSION 1
enum base_status isa_encode(const struct isa_program *p, uint8_t **out, size_t *len);
enum base_status isa_decode(const uint8_t *buf, size_t len, const char *path, struct isa_program *out,
                            struct base_diag *diag);

#endif
