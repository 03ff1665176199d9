/* The instruction table, written once.  X(ENUM, "asm name", FORMAT, UNITS)
 * UNITS is a bit set of the engine kinds that may execute the op.
 * Expanded for the enum, names, formats, units, the assembler and
 * disassembler, the binary encoding and the simulator's execute dispatch.
 * Semantics, shape rules and numerics of every op: docs/isa.md. */
#ifndef NPUSIM_ISA_OPS_LIST_H
#define NPUSIM_ISA_OPS_LIST_H

#define ISA_U_PE (1u << 0)   /* ISA_ENGINE_SYSTOLIC */
#define ISA_U_VEC (1u << 1)  /* ISA_ENGINE_VECTOR */
#define ISA_U_ACT (1u << 2)  /* ISA_ENGINE_SCALAR */
#define ISA_U_POOL (1u << 3) /* ISA_ENGINE_GPSIMD */
#define ISA_U_DMA (1u << 4)  /* ISA_ENGINE_DMA */
#define ISA_U_ALL (ISA_U_PE | ISA_U_VEC | ISA_U_ACT | ISA_U_POOL | ISA_U_DMA)
#define ISA_U_ELEM (ISA_U_VEC | ISA_U_ACT | ISA_U_POOL)

/* X(ENUM, "what the format carries").  The format decides which fields an
 * instruction uses (all others are 0) and its assembly syntax. */
#define ISA_FORMATS(X)                                                            \
    X(NONE, "no operands")                                                        \
    X(SEM, "a semaphore and a value")                                             \
    X(LOOP, "an iteration count and a body length")                               \
    X(DMA, "dst <- src0, any spaces, optional accumulate")                        \
    X(MATMUL, "acc dst <- stationary src0 (K x M) ^T @ moving src1 (K x N); func: precision") \
    X(UNARY, "dst <- func(src0), func a one-input ALU function")                 \
    X(BINARY, "dst <- func(src0, src1)")                                          \
    X(TENSOR_SCALAR, "dst <- (src0 func s0) func2 s1; s = imm or per-partition")  \
    X(SELECT, "dst <- src0 ? src1 : src2")                                        \
    X(IOTA, "dst <- imm0 + imm1 * partition + free index")                        \
    X(MEMSET, "dst <- imm0")                                                      \
    X(REDUCE, "dst <- reduce(func) over src0's innermost `count` free dims")      \
    X(ACTIVATE, "dst <- act(src0 * scale + bias); scale/bias imm or per-partition") \
    X(COPY, "dst <- src0 with no function: copy/convert, transpose, partition broadcast")

/* Operands: P = partitions, F = free elements per partition (product of the
 * access pattern's counts).                                                  */
#define ISA_OPS(X)                                                  \
    X(NOP, "nop", NONE, ISA_U_ALL)              /* only its wait/signal */          \
    X(HALT, "halt", NONE, ISA_U_ALL)            /* the stream ends */               \
    X(SEM_WAIT, "sem_wait", SEM, ISA_U_ALL)     /* = nop with ISA_FLAG_WAIT */      \
    X(SEM_SIGNAL, "sem_signal", SEM, ISA_U_ALL) /* = nop with ISA_FLAG_SIGNAL */    \
    X(LOOP, "loop", LOOP, ISA_U_ALL)            /* next `body` instrs, `count` times */ \
    X(DMA, "dma", DMA, ISA_U_DMA)               /* k-th src elem -> k-th dst elem */ \
    X(MATMUL, "matmul", MATMUL, ISA_U_PE)       /* dst[M,N] (+)= src0[K,M]^T src1[K,N] */ \
    X(TRANSPOSE, "transpose", COPY, ISA_U_PE | ISA_U_VEC)   /* dst[F,P] = src0[P,F] */ \
    X(COPY, "copy", COPY, ISA_U_ELEM)           /* dst[P,F] = src0[P,F], converting */ \
    X(UNARY, "unary", UNARY, ISA_U_VEC | ISA_U_POOL)                            \
    X(BINARY, "binary", BINARY, ISA_U_VEC | ISA_U_POOL)  /* also compares: eq..ge */ \
    X(TENSOR_SCALAR, "tensor_scalar", TENSOR_SCALAR, ISA_U_ELEM)                \
    X(SELECT, "select", SELECT, ISA_U_VEC | ISA_U_POOL)                         \
    X(IOTA, "iota", IOTA, ISA_U_POOL | ISA_U_VEC)                               \
    X(MEMSET, "memset", MEMSET, ISA_U_ELEM)                                     \
    X(REDUCE, "reduce", REDUCE, ISA_U_VEC | ISA_U_POOL)  /* over free dims, per partition */ \
    X(PART_REDUCE, "part_reduce", REDUCE, ISA_U_POOL | ISA_U_VEC) /* over partitions (+ free dims) */ \
    X(PART_BROADCAST, "part_broadcast", COPY, ISA_U_POOL | ISA_U_VEC) /* dst[P,F] = src0[1,F] */ \
    X(ACTIVATE, "activate", ACTIVATE, ISA_U_ACT | ISA_U_VEC)

#endif
