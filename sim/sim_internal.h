/* sim: private state shared by the simulator's files (never included from
 * outside sim/). */
#ifndef NPUSIM_SIM_INTERNAL_H
#define NPUSIM_SIM_INTERNAL_H

#include "memory/memory.h"
#include "sim/sim.h"

/* Event priorities at equal times: semaphore increments first (so a wait at
 * time t sees every signal of time t), then HBM transfer completions, then
 * DMA phase ends, then engine steps. */
enum { SIM_PRIO_SIGNAL = 0, SIM_PRIO_FLOW = 1, SIM_PRIO_DMA = 2, SIM_PRIO_ENGINE = 3 };

/* Signals an engine may have in flight (pipelined matmuls); a full ring
 * stalls the engine until the oldest fires. */
#define SIM_SIGNAL_RING 64

struct sim;
struct sim_engine;

struct sim_pending_signal {
    uint64_t time_ps;
    uint16_t sem;
    int32_t inc;
};

/* One recorded memory access, for the race check.  The effective access
 * pattern is rebuilt from the instruction and its loop iterations. */
struct sim_access_rec {
    uint32_t epoch;          /* the engine's own clock at the instruction */
    uint32_t pc;
    uint32_t iter[ISA_MAX_LOOP_DEPTH];
    uint8_t which;           /* 0 dst, 1 src0, 2 src1, 3 src2 */
    uint8_t space;
    bool write;
    uint16_t part_lo, part_hi; /* SP/ACC partitions [lo, hi) */
    int64_t lo, hi;          /* bytes (per partition for SP/ACC) */
};

/* Static facts of an instruction's operand, computed once at load
 * (sim_prepare_operand) so the per-execution path only adds the loop
 * offset of the address. */
struct sim_operand_info {
    int64_t rel_lo, rel_hi;  /* isa_ap_extent minus addr (exact: validated spans) */
    uint64_t elems;          /* isa_ap_total_elems */
    uint32_t esize;          /* bytes per element */
    uint16_t p0, p1;         /* partitions touched (HBM: 0, 1) */
    bool dense;              /* the bytes are exactly the extent (per partition): one ascending run */
    bool stepped;            /* a loop_step_bytes is nonzero */
    int8_t same_as;          /* an earlier operand with the identical pattern (same bytes in every iteration), or -1 */
};

struct sim_instr_info {
    struct sim_operand_info op[4]; /* dst, src0, src1, src2 */
    uint64_t elem_ps;        /* elementwise ops: the duration (engine_elem.c) */
    uint64_t flops;          /* elementwise ops */
    uint8_t rd, wr;          /* elementwise ops: operands read / written */
    bool elem;               /* elem_ps, flops, rd, wr are set */
};

/* What the checks saw at an instruction's last executions (the two most
 * recent address sets: double buffering alternates two): when it runs
 * again at the same addresses, bounds, uninitialised reads and write marks
 * need no second look (written bits only grow), and neither do races while
 * no other engine has recorded an access since (sim/check.c). */
struct sim_instr_seen {
    uint64_t addr[4];        /* the operands' effective addresses */
    uint64_t others;         /* records made by other engines by then (core or chip-wide) */
    uint8_t used;            /* operands checked (0: never ran) */
};
struct sim_instr_state {
    struct sim_instr_seen seen[2]; /* most recent first */
};

/* The union of the boxes of an engine's records in one space (a filter:
 * it may be larger than the records left). */
struct sim_rec_union {
    bool any;
    uint16_t p0, p1;
    int64_t lo, hi;
};

/* The instruction being executed. */
struct sim_exec {
    struct sim_engine *e;
    const struct isa_instr *in;
    const struct sim_instr_info *info; /* static facts of in */
    uint32_t pc;
    uint32_t iter[ISA_MAX_LOOP_DEPTH];
    const struct isa_ap *ap[4]; /* dst, src0, src1, src2 with loop offsets applied */
    struct isa_ap ap_buf[4];
    uint64_t now;
    /* results */
    uint64_t start, end, visible, next; /* interval, results visible, front end free */
    uint64_t bytes, flops;
    bool async;                         /* a DMA: completes later */
};

enum sim_engine_state { SIM_ENG_IDLE, SIM_ENG_RUN, SIM_ENG_WAIT_SEM, SIM_ENG_WAIT_DMA, SIM_ENG_DONE };

struct sim_loop {
    uint32_t start, end, count, iter;
};

struct sim_engine {
    struct sim *sim;
    const struct chip_engine_desc *d;
    uint32_t core, idx, gidx; /* idx within the core; gidx = core * n + idx */
    uint32_t vslot;           /* race check: its component in the vector clocks (engines with a stream) */
    uint64_t khz;
    uint64_t dispatch_ps;
    const struct isa_stream *stream;
    struct sim_instr_info *info; /* per instruction of stream (owned; kept across loads) */
    struct sim_instr_state *istate; /* per instruction of stream (owned; kept across loads) */
    uint32_t info_cap;           /* entries info and istate hold */
    enum sim_engine_state state;

    /* front end */
    uint32_t pc;
    int depth;
    struct sim_loop loops[ISA_MAX_LOOP_DEPTH];
    uint64_t t_ready;
    struct event ev_step;

    /* semaphore wait */
    uint16_t wait_sem;
    int64_t wait_target;
    uint64_t wait_since;
    bool waited;

    /* signals in flight */
    struct sim_pending_signal ring[SIM_SIGNAL_RING];
    uint32_t ring_head, ring_n;
    uint32_t *ring_vc;       /* SIM_SIGNAL_RING x n_vc snapshots (race check) */
    struct event ev_signal;

    /* timing state */
    uint64_t busy_until;     /* end of the last instruction interval */
    uint64_t last_visible;   /* latest result visible */
    uint64_t array_free_ps;  /* systolic: streaming unit free */
    bool loaded_valid;       /* systolic: stationary operand in the array */
    struct isa_ap loaded;
    uint8_t loaded_prec;
    uint8_t loaded_op;
    int64_t loaded_lo, loaded_hi;

    /* DMA in flight */
    struct mem_flow flow;
    struct event ev_dma;
    struct sim_exec dma_x;   /* the transfer's instruction, completed later */
    struct sim_dma_record dma_rec;
    int dma_phase;
    double dma_hbm_cap_scale; /* the flow's cap: the queue's rate x HBM-side bytes / B */
    double dma_hbm_bytes;     /* bytes the transfer moves through HBM */

    /* stats */
    struct sim_engine_stats *st;

    /* race check */
    uint32_t *vc;
    struct sim_access_rec *recs;
    uint32_t rec_head, rec_n, rec_cap;
    uint64_t rec_base;       /* absolute number of the record at rec_head */
    uint64_t *rec_last;      /* per (pc, operand): 1 + absolute number of its latest record, 0: none */
    struct sim_rec_union uni[ISA_SPACE_COUNT], uni_w[ISA_SPACE_COUNT]; /* all / written records */
    uint64_t rec_made;       /* records this engine made (appended or renewed) */
};

/* The last SIM_SEM_HIST signals of a semaphore, for the race check: the
 * value after each and the join of the signallers' clocks up to it.  A
 * wait for >= T synchronises with the shortest prefix of signals that
 * reached T (not with later ones that happen to have arrived already), so
 * a protocol that relies on more signals than it waits for is a race
 * whatever the timing.  Older signals are forgotten (they then count as
 * seen, which can only hide a race). */
#define SIM_SEM_HIST 32
struct sim_sem_hist {
    uint32_t head, n;
    bool unordered;  /* some signal lowered the value: values are not ascending (no binary search) */
    int64_t value[SIM_SEM_HIST];
    uint32_t vc[]; /* SIM_SEM_HIST x n_vc */
};

struct sim_core {
    struct mem_sram sp, acc;
    const struct isa_program *prog;
    char src[256];            /* the program's file, for diagnostics */
    int64_t sem[ISA_MAX_SEMAPHORES];
    uint32_t sem_waiters[ISA_MAX_SEMAPHORES]; /* bit per engine of the core */
    struct sim_sem_hist *hist[ISA_MAX_SEMAPHORES]; /* race check: recent signals (lazily allocated) */
    uint32_t rec_engines;     /* race check: bit per engine of the core that has access records */
    uint64_t rec_made;        /* race check: records made by the core's engines */
};

/* Scratch buffers for functional execution (grown, never shrunk). */
enum { SIM_BUF_A, SIM_BUF_B, SIM_BUF_C, SIM_BUF_D, SIM_BUF_E, SIM_BUF_F, SIM_BUF_RAW, SIM_BUF_COUNT };

struct sim {
    struct chip_desc chip;
    struct sim_options opt;
    struct sim_hooks hooks;
    bool has_hooks;
    struct event_sched sched;
    struct mem_hbm hbm;
    struct mem_bw hbm_bw;
    struct sim_core *cores;
    struct sim_engine *eng;
    uint32_t n_eng;          /* cores * chip.n_engines */
    uint32_t n_vc;           /* vector clock width when checking races: the engines with a stream (set by sim_run) */
    uint32_t *vc_engine;     /* race check: the engine (global index) of each clock component */
    uint32_t systolic_engines; /* bit per engine index of a core that is a systolic array */
    uint64_t rec_made;         /* race check: records made by every engine */
    struct sim_engine_stats *est;
    struct sim_stats stats;
    bool ran;                /* a run has happened (the next one is a new launch) */
    uint64_t clock_ps;       /* the time between runs: the last end plus sim_advance */
    enum base_status err;
    struct base_diag diag;
    void *buf[SIM_BUF_COUNT];
    size_t buf_cap[SIM_BUF_COUNT];
    uint32_t *overlap_bits;  /* scratch for exact overlap tests */
    size_t overlap_cap;
};

/* core.c */
struct sim_core *sim_core_of(struct sim_engine *e);
/* Sets the run's error (the first wins) with a message located at x's
 * instruction and naming it; returns st. */
enum base_status sim_fail(struct sim *s, const struct sim_exec *x, enum base_status st, const char *fmt, ...)
    BASE_PRINTF(4, 5);
/* "pe instruction 3 (matmul, line 12)" */
void sim_describe_instr(const struct sim_engine *e, uint32_t pc, char *buf, size_t cap);
void *sim_buf(struct sim *s, int which, size_t bytes);
/* Completes an instruction: stats, hooks, signal at x->visible. */
void sim_instr_done(struct sim *s, struct sim_exec *x);
/* A DMA finished (called at its end time): resume the engine. */
void sim_dma_resume(struct sim *s, struct sim_engine *e);
/* engine_dma.c: the DMA phase event. */
void sim_dma_on_event(struct event_sched *sc, struct event *ev);

/* The effective access pattern of operand `which` of instruction `in` at
 * loop iterations iter (depth = number of enclosing loops). */
void sim_ap_effective(const struct isa_ap *ap, const uint32_t *iter, int depth, struct isa_ap *out);

/* memio.c: runs of bytes of an access pattern, in element order. */
typedef void (*sim_run_fn)(void *ctx, uint32_t partition, int64_t byte, uint64_t len);
void sim_ap_runs(const struct isa_ap *ap, sim_run_fn fn, void *ctx);
size_t sim_elem_size(const struct isa_ap *ap);
/* Raw element bytes of ap, in element order, into/out of a contiguous buffer. */
void sim_gather_raw(struct sim *s, uint32_t core, const struct isa_ap *ap, void *out);
enum base_status sim_scatter_raw(struct sim *s, uint32_t core, const struct isa_ap *ap, const void *in);
/* Elements converted to f32 (base_convert semantics) into a scratch buffer. */
float *sim_gather_f32(struct sim *s, uint32_t core, const struct isa_ap *ap, int which_buf);
/* A move between types: through f32 (docs/isa.md: as a Trainium DMA casts). */
void sim_convert_via_f32(enum base_dtype dst_dt, void *dst, enum base_dtype src_dt, const void *src, size_t n);
/* f32 values converted to ap's dtype (round to nearest even) and stored. */
enum base_status sim_scatter_f32(struct sim *s, uint32_t core, const struct isa_ap *ap, const float *v);

/* check.c: bounds (always), uninitialised reads, races; then marks writes
 * and invalidates stationary operands they overwrite.  mask: bit i set when
 * operand i (dst, src0..2) is read (rd) / written (wr). */
enum base_status sim_check_access(struct sim *s, struct sim_exec *x, unsigned rd, unsigned wr);
enum base_status sim_check_init(struct sim *s);
/* Static facts of operand ap (sim_load, once per instruction). */
void sim_prepare_operand(const struct isa_ap *ap, struct sim_operand_info *oi);
void sim_check_deinit(struct sim *s);

/* engine_*.c: timing (and functional execution through exec_*.c). */
enum base_status sim_exec_control(struct sim *s, struct sim_exec *x);
enum base_status sim_exec_systolic(struct sim *s, struct sim_exec *x);
enum base_status sim_exec_elem(struct sim *s, struct sim_exec *x);
enum base_status sim_exec_dma(struct sim *s, struct sim_exec *x);
/* Fills info's elementwise facts for an op engine e times with sim_exec_elem. */
void sim_prepare_elem(const struct sim_engine *e, const struct isa_instr *in, struct sim_instr_info *info);

/* exec_*.c: functional numerics (called only in functional mode). */
enum base_status sim_compute_matmul(struct sim *s, struct sim_exec *x, uint32_t passes);
enum base_status sim_compute_transpose(struct sim *s, struct sim_exec *x);
enum base_status sim_compute_elem(struct sim *s, struct sim_exec *x);
enum base_status sim_compute_dma(struct sim *s, struct sim_exec *x);
/* dst[M][N] (+)= sum over k of A[k][m] * B[k][n], each product rounded to
 * f32 and added in k order; first: start from 0. */
void sim_gemm_f32(uint32_t K, uint32_t M, uint32_t N, const float *A, size_t lda, const float *B, size_t ldb,
                  float *C, size_t ldc, bool first);

/* ceil(x) for a non-negative ratio, ignoring a fraction below 1e-9. */
uint64_t sim_ceil_ratio(double num, double den);
/* The latest simulated time an instruction may reach (2^62 ps, 53 days):
 * past it the run fails (ERR_LIMIT) instead of wrapping the clock. */
#define SIM_MAX_TIME_PS (UINT64_C(1) << 62)

#endif
