/* Helpers for the simulator tests: a small chip built by hand with named
 * parameters, access patterns, instructions and a one-call run. */
#ifndef NPUSIM_TESTS_SIM_TEST_UTIL_H
#define NPUSIM_TESTS_SIM_TEST_UTIL_H

#include "tests/harness.h"

#include "sim/sim.h"

#include <math.h>
#include <stdio.h>

/* A generic Neuron-like core: pe (128x128 systolic, preload), vec, act,
 * pool, dma0..dma3; sp 128 x 64 KiB; acc 128 x 16 KiB in 8 banks; 1 GiB HBM. */
static inline void tchip_engine(struct chip_desc *c, const char *name, enum isa_engine_kind kind)
{
    struct chip_engine_desc *d = &c->engines[c->n_engines++];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->kind = kind;
    switch (kind) {
    case ISA_ENGINE_SYSTOLIC:
        d->clock_ghz = 1.4;
        d->dispatch_cycles = 4;
        d->rows = 128;
        d->cols = 128;
        d->preload = true;
        d->load_rows_per_cycle = 4;
        d->min_stream_cycles = 64;
        d->rows_per_cycle[CHIP_RATE_FP32] = 0.25;
        d->rows_per_cycle[CHIP_RATE_BF16] = 1;
        d->rows_per_cycle[CHIP_RATE_FP8] = 2;
        d->rows_per_cycle[CHIP_RATE_INT8] = 2;
        break;
    case ISA_ENGINE_DMA:
        d->clock_ghz = 1.4;
        d->dispatch_cycles = 2;
        d->bytes_per_ns = 20;
        d->fixed_ps = 2000;
        break;
    default:
        d->clock_ghz = kind == ISA_ENGINE_VECTOR ? 1.12 : 1.4;
        d->dispatch_cycles = kind == ISA_ENGINE_SCALAR ? 100 : 60;
        d->lanes = 128;
        for (int r = 0; r < CHIP_RATE_COUNT; r++) {
            d->elems_per_cycle[r] = r == CHIP_RATE_BF16 && kind == ISA_ENGINE_VECTOR ? 4 : 1;
            d->elems_per_cycle_2in[r] = 0.5;
        }
        d->transcendental_cost = kind == ISA_ENGINE_SCALAR ? 1 : 4;
        break;
    }
}

static inline void tchip_init(struct chip_desc *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "test-chip");
    c->family = CHIP_FAMILY_NEURON;
    c->cores = 1;
    tchip_engine(c, "pe", ISA_ENGINE_SYSTOLIC);
    tchip_engine(c, "vec", ISA_ENGINE_VECTOR);
    tchip_engine(c, "act", ISA_ENGINE_SCALAR);
    tchip_engine(c, "pool", ISA_ENGINE_GPSIMD);
    tchip_engine(c, "dma0", ISA_ENGINE_DMA);
    tchip_engine(c, "dma1", ISA_ENGINE_DMA);
    tchip_engine(c, "dma2", ISA_ENGINE_DMA);
    tchip_engine(c, "dma3", ISA_ENGINE_DMA);
    c->scratchpad = (struct chip_sram_desc){128, 64 * 1024, 1, 64};
    c->accumulator = (struct chip_sram_desc){128, 16 * 1024, 8, 64};
    c->hbm = (struct chip_hbm_desc){UINT64_C(1) << 30, 50, 500, 4, 0};
    c->matmul_supports[BASE_DT_BF16] = true;
    c->matmul_supports[BASE_DT_F16] = true;
    c->matmul_supports[BASE_DT_F32] = true;
    c->matmul_supports[BASE_DT_F8E4M3FN] = true;
    c->matmul_supports[BASE_DT_F8E5M2] = true;
    c->matmul_supports[BASE_DT_SI8] = true;
    c->fp32_passes_default = 1;
    c->fp32_passes_high = 3;
    c->fp32_passes_highest = 6;
}

static inline const struct chip_engine_desc *tchip_find(const struct chip_desc *c, const char *name)
{
    for (uint32_t i = 0; i < c->n_engines; i++)
        if (!strcmp(c->engines[i].name, name)) return &c->engines[i];
    fail_msg("no engine %s", name);
    return NULL;
}

/* n contiguous elements per partition, partitions [p0, p0 + np). */
static inline struct isa_ap ap_sp(enum isa_space sp, uint16_t p0, uint16_t np, uint64_t addr, enum base_dtype dt,
                                  uint32_t n)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    a.space = (uint8_t)sp;
    a.dtype = (uint8_t)dt;
    a.part_start = p0;
    a.part_count = np;
    a.addr = addr;
    a.ndims = 1;
    a.count[0] = n;
    a.stride[0] = 1;
    return a;
}

/* rows x cols row-major in HBM (rows as the partition dimension). */
static inline struct isa_ap ap_hbm(uint64_t addr, uint16_t rows, uint32_t cols, enum base_dtype dt)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    a.space = ISA_SPACE_HBM;
    a.dtype = (uint8_t)dt;
    a.part_count = rows;
    a.part_stride_bytes = (int64_t)cols * (int64_t)base_dtype_size(dt);
    a.addr = addr;
    a.ndims = 1;
    a.count[0] = cols;
    a.stride[0] = 1;
    return a;
}

static inline struct isa_instr ins(enum isa_op op)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    return in;
}

static inline struct isa_instr ins_dma(struct isa_ap dst, struct isa_ap src)
{
    struct isa_instr in = ins(ISA_OP_DMA);
    in.dst = dst;
    in.src0 = src;
    return in;
}

static inline struct isa_instr ins_matmul(struct isa_ap dst, struct isa_ap st, struct isa_ap mv, unsigned flags)
{
    struct isa_instr in = ins(ISA_OP_MATMUL);
    in.dst = dst;
    in.src0 = st;
    in.src1 = mv;
    in.flags = (uint8_t)flags;
    return in;
}

static inline struct isa_instr ins_unary_op(enum isa_op op, unsigned func, struct isa_ap dst, struct isa_ap src)
{
    struct isa_instr in = ins(op);
    in.func = (uint8_t)func;
    in.dst = dst;
    in.src0 = src;
    return in;
}

static inline struct isa_instr ins_binary(unsigned func, struct isa_ap dst, struct isa_ap a, struct isa_ap b)
{
    struct isa_instr in = ins(ISA_OP_BINARY);
    in.func = (uint8_t)func;
    in.dst = dst;
    in.src0 = a;
    in.src1 = b;
    return in;
}

static inline struct isa_instr with_wait(struct isa_instr in, uint16_t sem, int32_t value)
{
    in.flags |= ISA_FLAG_WAIT;
    in.wait_sem = sem;
    in.wait_value = value;
    return in;
}

static inline struct isa_instr with_signal(struct isa_instr in, uint16_t sem, int32_t inc)
{
    in.flags |= ISA_FLAG_SIGNAL;
    in.signal_sem = sem;
    in.signal_inc = inc;
    return in;
}

static inline struct isa_instr ins_sem_wait(uint16_t sem, int32_t value)
{
    return with_wait(ins(ISA_OP_SEM_WAIT), sem, value);
}

static inline struct isa_instr ins_sem_signal(uint16_t sem, int32_t inc)
{
    return with_signal(ins(ISA_OP_SEM_SIGNAL), sem, inc);
}

static inline struct isa_instr ins_loop(uint32_t count, uint32_t body)
{
    struct isa_instr in = ins(ISA_OP_LOOP);
    in.count = count;
    in.body = body;
    return in;
}

static inline void push(struct isa_program *p, const char *engine, struct isa_instr in)
{
    struct isa_stream *s = isa_program_stream(p, engine);
    assert_non_null(s);
    assert_int_equal(isa_stream_push(s, &in), BASE_OK);
}

/* Records every instruction interval. */
#define TREC_MAX 4096
struct trec {
    int n;
    struct sim_instr_record r[TREC_MAX];
    int ndma;
    struct sim_dma_record d[256];
    int nwait;
    struct sim_wait_record w[256];
};

static inline void trec_instr(void *u, uint64_t now, const struct sim_instr_record *r)
{
    (void)now;
    struct trec *t = u;
    if (t->n < TREC_MAX) t->r[t->n++] = *r;
}

static inline void trec_dma(void *u, uint64_t now, const struct sim_dma_record *r)
{
    (void)now;
    struct trec *t = u;
    if (t->ndma < 256) t->d[t->ndma++] = *r;
}

static inline void trec_wait(void *u, uint64_t now, const struct sim_wait_record *r)
{
    (void)now;
    struct trec *t = u;
    if (t->nwait < 256) t->w[t->nwait++] = *r;
}

/* The record of engine `name`'s stream instruction `index` (first execution). */
static inline const struct sim_instr_record *trec_find(const struct trec *t, const char *name, uint32_t index)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->r[i].engine_name, name) && t->r[i].stream_index == index) return &t->r[i];
    fail_msg("no record of %s instruction %u", name, index);
    return NULL;
}

/* Creates a sim for chip c with options (NULL: defaults, functional) and a
 * recorder, loads p on core 0. */
static inline struct sim *tsim_new(const struct chip_desc *c, const struct sim_options *o, struct isa_program *p,
                                   struct trec *t, struct sim_hooks *h)
{
    struct sim_options opt;
    if (o)
        opt = *o;
    else
        sim_options_default(&opt);
    if (t) {
        memset(t, 0, sizeof *t);
        *h = (struct sim_hooks){t, trec_instr, trec_dma, trec_wait};
        opt.hooks = h;
    }
    struct sim *s = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = sim_create(c, &opt, &s, &d);
    if (st != BASE_OK) fail_msg("sim_create: %s", d.msg);
    st = sim_load(s, 0, p, "test.s", &d);
    if (st != BASE_OK) fail_msg("sim_load: %s", d.msg);
    return s;
}

/* Runs and expects success. */
static inline void tsim_run_ok(struct sim *s)
{
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = sim_run(s, &d);
    if (st != BASE_OK) fail_msg("sim_run: %s (%s)", d.msg, base_status_str(st));
}

/* Runs and expects failure with status want and a message containing each fragment. */
static inline void tsim_run_fails(struct sim *s, enum base_status want, const char *frag1, const char *frag2,
                                  struct base_diag *out)
{
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = sim_run(s, &d);
    if (st != want) fail_msg("sim_run: want %s, got %s: %s", base_status_str(want), base_status_str(st), d.msg);
    if (frag1 && !strstr(d.msg, frag1)) fail_msg("message lacks '%s': %s", frag1, d.msg);
    if (frag2 && !strstr(d.msg, frag2)) fail_msg("message lacks '%s': %s", frag2, d.msg);
    if (out) *out = d;
}

static inline uint64_t c2p(const struct chip_engine_desc *d, uint64_t cycles)
{
    return event_cycles_to_ps(cycles, d->clock_ghz);
}

/* Writes a tensor of dtype dt with values v[i] (converted) at loc. */
static inline void tput(struct sim *s, struct sim_loc loc, enum base_dtype dt, int rank, const int64_t *dims,
                        const double *v)
{
    struct base_tensor *t;
    assert_int_equal(base_tensor_create(dt, rank, dims, &t), BASE_OK);
    for (int64_t i = 0; i < t->count; i++) base_elem_set_f64(dt, t->data, (size_t)i, v ? v[i] : 0);
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_write_tensor(s, &loc, t, &d) != BASE_OK) fail_msg("sim_write_tensor: %s", d.msg);
    base_tensor_release(t);
}

static inline struct base_tensor *tget(struct sim *s, struct sim_loc loc, enum base_dtype dt, int rank,
                                       const int64_t *dims)
{
    struct base_tensor *t = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_read_tensor(s, &loc, dt, rank, dims, &t, &d) != BASE_OK) fail_msg("sim_read_tensor: %s", d.msg);
    return t;
}

static inline struct sim_loc loc_sp(uint32_t part, uint64_t addr)
{
    return (struct sim_loc){ISA_SPACE_SP, 0, part, addr};
}
static inline struct sim_loc loc_acc(uint32_t part, uint64_t addr)
{
    return (struct sim_loc){ISA_SPACE_ACC, 0, part, addr};
}
static inline struct sim_loc loc_hbm(uint64_t addr) { return (struct sim_loc){ISA_SPACE_HBM, 0, 0, addr}; }


/* setup() and teardown() for a test file's fixture type, a struct with
 * members chip, prog and sim (and any others, zeroed): the toy chip
 * (tchip_init) and an empty program; teardown destroys the sim and the
 * program.  TF(fn) registers a test with them. */
#define SIM_TEST_FIXTURE(fx_type)                                          \
    static int setup(void **state)                                         \
    {                                                                      \
        fx_type *f = calloc(1, sizeof *f);                                 \
        if (!f) return -1;                                                 \
        tchip_init(&f->chip);                                              \
        isa_program_init(&f->prog);                                        \
        *state = f;                                                        \
        return 0;                                                          \
    }                                                                      \
    static int teardown(void **state)                                      \
    {                                                                      \
        fx_type *f = *state;                                               \
        sim_destroy(f->sim);                                               \
        isa_program_deinit(&f->prog);                                      \
        free(f);                                                           \
        return 0;                                                          \
    }
#define TF(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

#endif
