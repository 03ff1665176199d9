/* The timing rules docs/timing.md lists as untested before (its section 12):
 * event priorities seen through the engines, signals and the signal ring,
 * systolic details, elementwise operand and rate choices, DMA byte counts,
 * the race check's semaphore history and record limits, statistics and hook
 * records.  Every expected time comes from the chip description's named
 * parameters. */
#include "tests/sim/sim_test_util.h"

/* Records, plus the now_ps each hook was called with. */
struct nrec {
    struct trec t;
    uint64_t instr_now[TREC_MAX], dma_now[256], wait_now[256];
};

static void n_instr(void *u, uint64_t now, const struct sim_instr_record *r)
{
    struct nrec *n = u;
    if (n->t.n < TREC_MAX) n->instr_now[n->t.n] = now;
    trec_instr(&n->t, now, r);
}

static void n_dma(void *u, uint64_t now, const struct sim_dma_record *r)
{
    struct nrec *n = u;
    if (n->t.ndma < 256) n->dma_now[n->t.ndma] = now;
    trec_dma(&n->t, now, r);
}

static void n_wait(void *u, uint64_t now, const struct sim_wait_record *r)
{
    struct nrec *n = u;
    if (n->t.nwait < 256) n->wait_now[n->t.nwait] = now;
    trec_wait(&n->t, now, r);
}

struct fx {
    struct chip_desc chip;
    struct isa_program prog;
    struct nrec rec;
    struct sim_hooks hooks;
    struct sim *sim;
};

SIM_TEST_FIXTURE(struct fx)

/* A fresh program and no sim (the chip is kept). */
static void reset(struct fx *f)
{
    sim_destroy(f->sim);
    f->sim = NULL;
    isa_program_deinit(&f->prog);
    isa_program_init(&f->prog);
}

static struct chip_engine_desc *eng(struct fx *f, const char *name)
{
    return (struct chip_engine_desc *)tchip_find(&f->chip, name);
}

/* Marks a region written (timing-only: the values do not matter). */
static void zero(struct sim *s, struct sim_loc loc, int rank, const int64_t *dims)
{
    struct base_tensor *t;
    assert_int_equal(base_tensor_create(BASE_DT_UI8, rank, dims, &t), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_write_tensor(s, &loc, t, &d) != BASE_OK) fail_msg("sim_write_tensor: %s", d.msg);
    base_tensor_release(t);
}

/* Builds the sim (timing-only), writes zeros to the first 32 KiB of every
 * scratchpad partition, the accumulator and the HBM's first 4 MiB. */
static void start(struct fx *f)
{
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = true;
    memset(&f->rec, 0, sizeof f->rec);
    f->hooks = (struct sim_hooks){&f->rec, n_instr, n_dma, n_wait};
    o.hooks = &f->hooks;
    f->sim = tsim_new(&f->chip, &o, &f->prog, NULL, NULL);
    int64_t dims[2] = {128, 32 * 1024};
    zero(f->sim, loc_sp(0, 0), 2, dims);
    int64_t ad[2] = {128, (int64_t)f->chip.accumulator.bytes_per_partition};
    zero(f->sim, loc_acc(0, 0), 2, ad);
    int64_t hd[1] = {4 << 20};
    zero(f->sim, loc_hbm(0), 1, hd);
}

static void run(struct fx *f)
{
    start(f);
    tsim_run_ok(f->sim);
}

static enum base_status run_status(struct fx *f, struct base_diag *d)
{
    start(f);
    base_diag_clear(d);
    return sim_run(f->sim, d);
}

static const struct sim_instr_record *rec(struct fx *f, const char *name, uint32_t index)
{
    return trec_find(&f->rec.t, name, index);
}

/* The record of name's instruction index in iteration it of its innermost loop. */
static const struct sim_instr_record *rec_iter(struct fx *f, const char *name, uint32_t index, uint32_t it)
{
    for (int i = 0; i < f->rec.t.n; i++) {
        const struct sim_instr_record *r = &f->rec.t.r[i];
        if (!strcmp(r->engine_name, name) && r->stream_index == index && r->loop_iter[0] == it) return r;
    }
    fail_msg("no record of %s instruction %u iteration %u", name, index, it);
    return NULL;
}

static const struct sim_stats *stats(struct fx *f) { return sim_get_stats(f->sim); }

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* docs/timing.md section 1: ceil(a / b) in double, dropping a fraction of at most 1e-9. */
static uint64_t ceil_ratio(double a, double b)
{
    double x = a / b;
    uint64_t r = (uint64_t)x;
    return x - (double)r > 1e-9 ? r + 1 : r;
}

/* Matmul K x M stationary at sp byte st_addr, K x N moving at 16 KiB, into acc. */
static struct isa_instr mm(uint16_t K, uint32_t M, uint32_t N, uint64_t st_addr, enum base_dtype dt, uint64_t acc)
{
    return ins_matmul(ap_sp(ISA_SPACE_ACC, 0, (uint16_t)M, acc, BASE_DT_F32, N),
                      ap_sp(ISA_SPACE_SP, 0, K, st_addr, dt, M), ap_sp(ISA_SPACE_SP, 0, K, 16384, dt, N), ISA_FLAG_START);
}

/* A generic array (no preload) in dataflow df: rows x cols, one row loaded per cycle, no minimum. */
static struct chip_engine_desc *generic_pe(struct fx *f, enum chip_dataflow df, uint32_t rows, uint32_t cols)
{
    struct chip_engine_desc *pe = eng(f, "pe");
    pe->preload = false;
    pe->dataflow = df;
    pe->load_rows_per_cycle = 1;
    pe->min_stream_cycles = 0;
    pe->rows = rows;
    pe->cols = cols;
    return pe;
}

static struct isa_instr ins_copy(struct isa_ap dst, struct isa_ap src) { return ins_unary_op(ISA_OP_COPY, 0, dst, src); }

/* ------------------------------------------------------- 2. event priorities */

/* A signal and a waiting engine's step at the same time: the signal is
 * applied first (SIM_PRIO_SIGNAL < SIM_PRIO_ENGINE), so the wait passes
 * without blocking.  Blocking and waking at the same instant gives the same
 * times, so it shows only in the heap: the run fires exactly the events of
 * the same program without the wait (a blocked wait would cost one more). */
static void test_rules_signal_applied_before_step_at_equal_time(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *act = eng(f, "act"), *pool = eng(f, "pool");
    act->clock_ghz = pool->clock_ghz;
    act->dispatch_cycles = pool->dispatch_cycles; /* act reaches its wait when pool's signal fires */
    uint64_t ev[2];
    for (int with_wait = 0; with_wait < 2; with_wait++) {
        reset(f);
        push(&f->prog, "pool", with_signal(ins(ISA_OP_NOP), 0, 1));
        push(&f->prog, "pool", ins(ISA_OP_NOP));
        push(&f->prog, "act", ins(ISA_OP_NOP));
        push(&f->prog, "act", with_wait ? ins_sem_wait(0, 1) : ins(ISA_OP_NOP));
        run(f);
        const struct sim_instr_record *w = rec(f, "act", 1), *s = rec(f, "pool", 0);
        assert_int_equal(w->start_ps, s->visible_ps); /* the same instant */
        assert_int_equal(w->start_ps, c2p(act, act->dispatch_cycles));
        assert_int_equal(f->rec.t.nwait, 0);
        assert_int_equal(stats(f)->engines[2].wait_ps, 0);
        ev[with_wait] = stats(f)->events;
    }
    assert_int_equal(ev[1], ev[0]);
}

/* ------------------------------------------------------------- 3. control */

/* A signalling control instruction waits for its engine's earlier results
 * (a preloaded matmul's drain); a plain nop does not. */
static void test_rules_signalling_control_waits_for_visible(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    push(&f->prog, "pe", mm(128, 128, 512, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", ins(ISA_OP_NOP));
    push(&f->prog, "pe", ins_sem_signal(0, 1));
    push(&f->prog, "act", ins_sem_wait(0, 1));
    run(f);
    uint64_t D = pe->dispatch_cycles, L = ceil_div(128, pe->load_rows_per_cycle);
    uint64_t S = ceil_ratio(512, pe->rows_per_cycle[CHIP_RATE_BF16]);
    uint64_t ready = c2p(pe, D + L), vis = ready + c2p(pe, S) + c2p(pe, pe->rows + pe->cols - 1);
    const struct sim_instr_record *m = rec(f, "pe", 0), *nop = rec(f, "pe", 1), *sig = rec(f, "pe", 2);
    assert_int_equal(m->visible_ps, vis);
    /* the nop is reached at the stream start and is not held back */
    assert_int_equal(nop->end_ps, ready + c2p(pe, D));
    assert_true(nop->end_ps < vis);
    /* the signal waits for the matmul's results, then costs D */
    assert_int_equal(sig->start_ps, vis);
    assert_int_equal(sig->end_ps, vis + c2p(pe, D));
    assert_int_equal(sig->visible_ps, vis + c2p(pe, D));
    assert_int_equal(f->rec.t.w[0].end_ps, vis + c2p(pe, D));
}

/* halt waits for the engine's earlier results too. */
static void test_rules_halt_waits_for_visible(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    push(&f->prog, "pe", mm(128, 128, 512, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", ins(ISA_OP_HALT));
    push(&f->prog, "pe", ins(ISA_OP_NOP)); /* never reached */
    run(f);
    const struct sim_instr_record *m = rec(f, "pe", 0), *h = rec(f, "pe", 1);
    assert_int_equal(h->start_ps, m->visible_ps);
    assert_int_equal(h->end_ps, m->visible_ps + c2p(pe, pe->dispatch_cycles));
    assert_int_equal(stats(f)->instructions, 2);
    assert_int_equal(stats(f)->total_ps, h->end_ps);
}

/* ----------------------------------------------------------- 4. semaphores */

/* Pipelined matmuls that each signal: the 65th finds SIM_SIGNAL_RING = 64
 * signals pending and starts when the oldest fires (the first's visible). */
static void test_rules_signal_ring_stalls_at_64_pending(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *pe = eng(f, "pe");
    pe->dispatch_cycles = 0;
    pe->min_stream_cycles = 0;
    const uint32_t ring = 64; /* SIM_SIGNAL_RING, docs/timing.md section 4 */
    push(&f->prog, "pe", ins_loop(ring + 6, 1));
    struct isa_instr m = with_signal(mm(128, 128, 1, 0, BASE_DT_BF16, 0), 0, 1);
    push(&f->prog, "pe", m);
    run(f);
    uint64_t L = ceil_div(128, pe->load_rows_per_cycle), S = ceil_ratio(1, pe->rows_per_cycle[CHIP_RATE_BF16]);
    uint64_t s1 = c2p(pe, S), vis0 = c2p(pe, L) + s1 + c2p(pe, pe->rows + pe->cols - 1);
    assert_int_equal(rec_iter(f, "pe", 1, 0)->visible_ps, vis0);
    /* the first 64 stream back to back (the same weights: no load) */
    const struct sim_instr_record *last = rec_iter(f, "pe", 1, ring - 1), *stalled = rec_iter(f, "pe", 1, ring);
    assert_int_equal(last->end_ps, c2p(pe, L) + ring * s1);
    assert_true(vis0 > last->end_ps);
    /* the 65th waits for the first signal */
    assert_int_equal(stalled->start_ps, vis0);
    assert_int_equal(stalled->end_ps, vis0 + s1);
    assert_int_equal(rec_iter(f, "pe", 1, ring + 1)->end_ps, vis0 + 2 * s1);
}

/* ------------------------------------------------------------- 5. systolic */

/* Mixed operand classes stream at the slower class's rows_per_cycle, in
 * either role. */
static void test_rules_matmul_mixed_types_use_slower_rate(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    uint32_t N = 512;
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 128, 0, BASE_DT_F32, N), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F8E4M3FN, 128),
                    ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_BF16, N), ISA_FLAG_START));
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 128, 2048, BASE_DT_F32, N), ap_sp(ISA_SPACE_SP, 0, 128, 4096, BASE_DT_BF16, 128),
                    ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_F8E4M3FN, N), ISA_FLAG_START));
    run(f);
    double fp8 = pe->rows_per_cycle[CHIP_RATE_FP8], bf16 = pe->rows_per_cycle[CHIP_RATE_BF16];
    assert_true(fp8 != bf16);
    uint64_t S = ceil_ratio(N, fp8 < bf16 ? fp8 : bf16), L = ceil_div(128, pe->load_rows_per_cycle);
    uint64_t end0 = c2p(pe, pe->dispatch_cycles + L) + c2p(pe, S);
    assert_int_equal(rec(f, "pe", 0)->end_ps, end0);
    assert_int_equal(rec(f, "pe", 1)->end_ps, end0 + c2p(pe, S)); /* its load hidden behind the first */
}

/* transpose on the array: K = P, M = F, N = P streamed at the source's
 * class; a class without a rate uses bf16's; no flops. */
static void test_rules_transpose_on_array_streams_source_class(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *pe = eng(f, "pe");
    uint16_t P = 128;
    uint32_t F = 64;
    struct isa_instr t = ins_copy(ap_sp(ISA_SPACE_ACC, 0, (uint16_t)F, 0, BASE_DT_F32, P), ap_sp(ISA_SPACE_SP, 0, P, 0, BASE_DT_F32, F));
    t.op = ISA_OP_TRANSPOSE;
    push(&f->prog, "pe", t);
    run(f);
    uint64_t L = ceil_div(P, pe->load_rows_per_cycle), S = ceil_ratio(P, pe->rows_per_cycle[CHIP_RATE_FP32]);
    assert_true(S > pe->min_stream_cycles);
    const struct sim_instr_record *r = rec(f, "pe", 0);
    uint64_t end = c2p(pe, pe->dispatch_cycles + L) + c2p(pe, S);
    assert_int_equal(r->end_ps, end);
    assert_int_equal(r->visible_ps, end + c2p(pe, pe->rows + pe->cols - 1));
    assert_int_equal(r->flops, 0);

    /* a class the array has no rate for (fp8 here) streams at bf16's */
    reset(f);
    pe->rows_per_cycle[CHIP_RATE_FP8] = 0;
    pe->min_stream_cycles = 0;
    struct isa_instr t8 = ins_copy(ap_sp(ISA_SPACE_ACC, 0, (uint16_t)F, 0, BASE_DT_F8E4M3FN, P),
                                   ap_sp(ISA_SPACE_SP, 0, P, 0, BASE_DT_F8E4M3FN, F));
    t8.op = ISA_OP_TRANSPOSE;
    push(&f->prog, "pe", t8);
    run(f);
    S = ceil_ratio(P, pe->rows_per_cycle[CHIP_RATE_BF16]);
    assert_int_equal(rec(f, "pe", 0)->end_ps, c2p(pe, pe->dispatch_cycles + L) + c2p(pe, S));
}

/* A transpose on an os or is array leaves nothing held: the matmul after it
 * is a head (waits for the transpose's drain, loads), even though it would
 * continue the matmul before the transpose. */
static void test_rules_transpose_breaks_os_and_is_chain(void **state)
{
    struct fx *f = *state;
    for (int k = 0; k < 2; k++) {
        reset(f);
        bool os = k == 0;
        const struct chip_engine_desc *pe = generic_pe(f, os ? CHIP_DATAFLOW_OS : CHIP_DATAFLOW_IS, os ? 64 : 128, 64);
        uint16_t K = os ? 100 : 96;
        uint32_t M = os ? 40 : 128, N = os ? 56 : 48;
        struct isa_instr a = mm(K, M, N, 0, BASE_DT_BF16, 0);
        if (os) a.flags = ISA_FLAG_START; /* no stop: the outputs stay in the PEs */
        struct isa_instr t = ins_copy(ap_sp(ISA_SPACE_ACC, 0, 48, 4096, BASE_DT_F32, 32), ap_sp(ISA_SPACE_SP, 0, 32, 12288, BASE_DT_F32, 48));
        t.op = ISA_OP_TRANSPOSE;
        struct isa_instr b = mm(K, M, N, 4096, BASE_DT_BF16, os ? 0 : 8192);
        if (os) {
            b.flags = ISA_FLAG_STOP; /* continues a's dst */
            b.src1.addr = 24576;
        } /* is: the same moving operand as a */
        push(&f->prog, "pe", a);
        push(&f->prog, "pe", t);
        push(&f->prog, "pe", b);
        run(f);
        uint64_t Sr = os ? M : K, Sc = N, T = os ? K : M, D = pe->dispatch_cycles;
        uint64_t fold = D + ceil_div(Sr, pe->load_rows_per_cycle) + T + Sr + Sc - 2;
        const struct sim_instr_record *ra = rec(f, "pe", 0), *rt = rec(f, "pe", 1), *rb = rec(f, "pe", 2);
        assert_int_equal(ra->visible_ps, c2p(pe, fold));
        assert_int_equal(rt->start_ps, ra->visible_ps); /* the transpose is a head */
        assert_int_equal(rb->start_ps, rt->visible_ps);
        assert_int_equal(rb->visible_ps, rt->visible_ps + c2p(pe, fold));
    }
}

/* Without preload, an f32 matmul on a TPU takes p passes of load, stream,
 * fill and drain: D + p (L + S + Sr + Sc - 2). */
static void test_rules_matmul_passes_multiply_fill_and_drain_without_preload(void **state)
{
    struct fx *f = *state;
    f->chip.family = CHIP_FAMILY_TPU;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_WS, 128, 128);
    uint16_t K = 128;
    uint32_t M = 64, N = 200;
    struct isa_instr m = mm(K, M, N, 0, BASE_DT_F32, 0);
    m.func = ISA_PREC_HIGH;
    push(&f->prog, "pe", m);
    run(f);
    uint64_t p = f->chip.fp32_passes_high, D = pe->dispatch_cycles;
    assert_true(p > 1);
    uint64_t L = ceil_div(K, pe->load_rows_per_cycle), S = ceil_ratio(N, pe->rows_per_cycle[CHIP_RATE_BF16]);
    const struct sim_instr_record *r = rec(f, "pe", 0);
    assert_int_equal(r->visible_ps, c2p(pe, D + p * (L + S + K + M - 2)));
    assert_int_equal(r->end_ps, r->visible_ps);
}

/* os: a write to the held outputs' dst between two matmuls of a chain does
 * not break it (the partial sums are in the PEs): no load, no wait. */
static void test_rules_os_outputs_survive_writes_to_dst(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_OS, 64, 64);
    uint16_t K = 100;
    uint32_t M = 40, N = 56;
    struct isa_instr a = with_signal(mm(K, M, N, 0, BASE_DT_BF16, 0), 1, 1);
    struct isa_instr b = with_wait(mm(K, M, N, 4096, BASE_DT_BF16, 0), 2, 1);
    b.flags = (uint8_t)((b.flags & ~ISA_FLAG_START) | ISA_FLAG_STOP);
    b.src1.addr = 24576;
    push(&f->prog, "pe", a);
    push(&f->prog, "pe", b);
    struct isa_instr w = ins(ISA_OP_MEMSET);
    w.dst = ap_sp(ISA_SPACE_ACC, 0, (uint16_t)M, 0, BASE_DT_F32, N);
    push(&f->prog, "vec", with_signal(with_wait(w, 1, 1), 2, 1));
    run(f);
    uint64_t Sr = M, Sc = N, D = pe->dispatch_cycles;
    const struct sim_instr_record *v = rec(f, "vec", 0), *rb = rec(f, "pe", 1);
    assert_true(v->end_ps > rec(f, "pe", 0)->visible_ps);
    assert_int_equal(rb->start_ps, v->end_ps);
    assert_int_equal(rb->visible_ps, v->end_ps + c2p(pe, D + K + Sr + Sc - 2)); /* L = 0 */
}

/* ----------------------------------------------------------- 6. elementwise */

/* iota and memset read nothing: they stream their dst (P passes of F). */
static void test_rules_elem_iota_memset_stream_dst(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    vec->lanes = 64;
    uint16_t P = 128;
    uint32_t F = 1000;
    struct isa_instr ms = ins(ISA_OP_MEMSET);
    ms.dst = ap_sp(ISA_SPACE_SP, 0, P, 0, BASE_DT_BF16, F);
    struct isa_instr io = ins(ISA_OP_IOTA);
    io.dst = ap_sp(ISA_SPACE_SP, 0, P, 4096, BASE_DT_F32, F);
    push(&f->prog, "vec", ms);
    push(&f->prog, "vec", io);
    run(f);
    uint64_t passes = ceil_div(P, vec->lanes);
    assert_int_equal(passes, 2u);
    const struct sim_instr_record *a = rec(f, "vec", 0), *b = rec(f, "vec", 1);
    assert_int_equal(a->end_ps - a->start_ps,
                     c2p(vec, vec->dispatch_cycles + passes * ceil_ratio(F, vec->elems_per_cycle[CHIP_RATE_BF16])));
    assert_int_equal(b->end_ps - b->start_ps,
                     c2p(vec, vec->dispatch_cycles + passes * ceil_ratio(F, vec->elems_per_cycle[CHIP_RATE_FP32])));
}

/* part_broadcast streams its one-partition source: one pass whatever dst's P. */
static void test_rules_elem_part_broadcast_streams_source(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    vec->lanes = 32; /* dst's 128 partitions would take 4 passes */
    uint32_t F = 700;
    push(&f->prog, "vec",
         ins_copy(ap_sp(ISA_SPACE_SP, 0, 128, 4096, BASE_DT_F32, F), ap_sp(ISA_SPACE_SP, 5, 1, 0, BASE_DT_F32, F)));
    f->prog.streams[0].instrs[0].op = ISA_OP_PART_BROADCAST;
    run(f);
    const struct sim_instr_record *r = rec(f, "vec", 0);
    assert_int_equal(r->end_ps - r->start_ps,
                     c2p(vec, vec->dispatch_cycles + ceil_ratio(F, vec->elems_per_cycle[CHIP_RATE_FP32])));
    assert_int_equal(r->flops, 0);
}

/* A 2-input op whose class has no 2-input rate uses the class's 1-input
 * rate; a class with neither uses fp32's (the 2-input fp32 rate for a
 * 2-input op, sim/engine_elem.c). */
static void test_rules_elem_rate_fallbacks(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    vec->elems_per_cycle_2in[CHIP_RATE_BF16] = 0;
    vec->elems_per_cycle_2in[CHIP_RATE_FP8] = 0;
    vec->elems_per_cycle[CHIP_RATE_FP8] = 0;
    assert_true(vec->elems_per_cycle[CHIP_RATE_BF16] != vec->elems_per_cycle_2in[CHIP_RATE_FP32]);
    assert_true(vec->elems_per_cycle[CHIP_RATE_FP32] != vec->elems_per_cycle_2in[CHIP_RATE_FP32]);
    uint32_t F = 600;
    enum base_dtype f8 = BASE_DT_F8E4M3FN;
    push(&f->prog, "vec",
         ins_binary(ISA_ALU_ADD, ap_sp(ISA_SPACE_SP, 0, 64, 8192, BASE_DT_BF16, F), ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_BF16, F),
                    ap_sp(ISA_SPACE_SP, 0, 64, 2048, BASE_DT_BF16, F)));
    push(&f->prog, "vec",
         ins_binary(ISA_ALU_ADD, ap_sp(ISA_SPACE_SP, 0, 64, 12288, f8, F), ap_sp(ISA_SPACE_SP, 0, 64, 0, f8, F),
                    ap_sp(ISA_SPACE_SP, 0, 64, 2048, f8, F)));
    push(&f->prog, "vec", ins_copy(ap_sp(ISA_SPACE_SP, 0, 64, 16384, f8, F), ap_sp(ISA_SPACE_SP, 0, 64, 0, f8, F)));
    run(f);
    const double want[3] = {vec->elems_per_cycle[CHIP_RATE_BF16], vec->elems_per_cycle_2in[CHIP_RATE_FP32],
                            vec->elems_per_cycle[CHIP_RATE_FP32]};
    for (uint32_t i = 0; i < 3; i++) {
        const struct sim_instr_record *r = rec(f, "vec", i);
        assert_int_equal(r->end_ps - r->start_ps, c2p(vec, vec->dispatch_cycles + ceil_ratio(F, want[i])));
    }
}

/* select runs at the 2-input rate, over all of its tensor operands' classes
 * (on_false's f32 slows it). */
static void test_rules_elem_select_uses_two_input_rate(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    vec->elems_per_cycle_2in[CHIP_RATE_BF16] = 2;
    vec->elems_per_cycle_2in[CHIP_RATE_FP32] = 0.25;
    assert_true(vec->elems_per_cycle[CHIP_RATE_BF16] != vec->elems_per_cycle_2in[CHIP_RATE_BF16]);
    uint32_t F = 900;
    struct isa_instr s = ins(ISA_OP_SELECT);
    s.dst = ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_BF16, F);
    s.src0 = ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_BF16, F);
    s.src1 = ap_sp(ISA_SPACE_SP, 0, 128, 2048, BASE_DT_BF16, F);
    s.src2 = ap_sp(ISA_SPACE_SP, 0, 128, 4096, BASE_DT_BF16, F);
    struct isa_instr s32 = s;
    s32.dst.addr = 12288;
    s32.src2 = ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_F32, F);
    push(&f->prog, "vec", s);
    push(&f->prog, "vec", s32);
    run(f);
    const struct sim_instr_record *a = rec(f, "vec", 0), *b = rec(f, "vec", 1);
    assert_int_equal(a->end_ps - a->start_ps,
                     c2p(vec, vec->dispatch_cycles + ceil_ratio(F, vec->elems_per_cycle_2in[CHIP_RATE_BF16])));
    assert_int_equal(b->end_ps - b->start_ps,
                     c2p(vec, vec->dispatch_cycles + ceil_ratio(F, vec->elems_per_cycle_2in[CHIP_RATE_FP32])));
    assert_int_equal(a->flops, 0);
}

/* transcendental_cost multiplies the already rounded passes x per_pass. */
static void test_rules_elem_transcendental_cost_after_rounding(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *act = eng(f, "act");
    act->elems_per_cycle[CHIP_RATE_FP32] = 3;
    act->transcendental_cost = 2.5;
    uint32_t F = 1000;
    struct isa_instr e = ins_unary_op(ISA_OP_ACTIVATE, ISA_ACT_TANH, ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_F32, F),
                                      ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, F));
    e.imm0 = 1;
    push(&f->prog, "act", e);
    run(f);
    uint64_t per = ceil_ratio(F, act->elems_per_cycle[CHIP_RATE_FP32]);
    uint64_t cyc = ceil_ratio(act->transcendental_cost * (double)per, 1);
    assert_true(cyc != ceil_ratio(act->transcendental_cost * F, act->elems_per_cycle[CHIP_RATE_FP32]));
    const struct sim_instr_record *r = rec(f, "act", 0);
    assert_int_equal(r->end_ps - r->start_ps, c2p(act, act->dispatch_cycles + cyc));
}

/* ------------------------------------------------------------------ 7. DMA */

/* HBM to HBM: 2B through HBM at a cap of 2 x bytes_per_ns; hbm_bytes 2B. */
static void test_rules_dma_hbm_to_hbm_twice_bytes_twice_cap(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma0");
    f->chip.hbm.bytes_per_ns = 1.5 * q->bytes_per_ns; /* between the cap and twice it */
    push(&f->prog, "dma0", ins_dma(ap_hbm(1 << 20, 64, 2048, BASE_DT_BF16), ap_hbm(0, 64, 2048, BASE_DT_BF16)));
    run(f);
    uint64_t B = 64 * 2048 * 2;
    double rate = 2 * q->bytes_per_ns < f->chip.hbm.bytes_per_ns ? 2 * q->bytes_per_ns : f->chip.hbm.bytes_per_ns;
    uint64_t data = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    uint64_t end = data + event_bytes_to_ps(2.0 * (double)B, rate);
    assert_true(end != data + event_bytes_to_ps((double)B, q->bytes_per_ns));
    const struct sim_instr_record *r = rec(f, "dma0", 0);
    assert_int_equal(r->end_ps, end);
    assert_int_equal(r->bytes, B);
    assert_int_equal(f->rec.t.d[0].data_start_ps, data);
    assert_true(f->rec.t.d[0].hbm);
    assert_int_equal(stats(f)->hbm_bytes, 2 * B);
}

/* A converting DMA takes the larger side's time on its queue; HBM carries
 * (and counts) only the HBM side's bytes. */
static void test_rules_dma_converting_counts_hbm_side_bytes(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma1");
    uint32_t F = 512;
    push(&f->prog, "dma1", ins_dma(ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_F32, F), ap_hbm(0, 64, F, BASE_DT_BF16)));
    run(f);
    uint64_t B = 64 * F * base_dtype_size(BASE_DT_F32), H = 64 * F * base_dtype_size(BASE_DT_BF16);
    /* the queue's time is B's; HBM carries only the bf16 side */
    double cap = q->bytes_per_ns * (double)H / (double)B;
    double rate = cap < f->chip.hbm.bytes_per_ns ? cap : f->chip.hbm.bytes_per_ns;
    uint64_t data = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    const struct sim_instr_record *r = rec(f, "dma1", 0);
    assert_int_equal(r->end_ps, data + event_bytes_to_ps((double)H, rate));
    assert_int_equal(r->end_ps, data + event_bytes_to_ps((double)B, q->bytes_per_ns)); /* the queue is the limit */
    assert_int_equal(r->bytes, B);
    assert_int_equal(f->rec.t.d[0].bytes, B);
    assert_int_equal(stats(f)->hbm_bytes, H);
}

/* dma acc: flops = dst elements; the time is a copy's. */
static void test_rules_dma_acc_flops_and_time(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma2");
    uint32_t F = 100;
    struct isa_instr a = ins_dma(ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_F32, F), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, F));
    a.flags = ISA_FLAG_ACCUMULATE;
    struct isa_instr c = a;
    c.flags = 0;
    push(&f->prog, "dma2", a);
    push(&f->prog, "dma2", c);
    run(f);
    uint64_t B = 128 * F * 4, d = c2p(q, q->dispatch_cycles) + q->fixed_ps + event_bytes_to_ps((double)B, q->bytes_per_ns);
    const struct sim_instr_record *ra = rec(f, "dma2", 0), *rc = rec(f, "dma2", 1);
    assert_int_equal(ra->flops, 128 * F);
    assert_int_equal(rc->flops, 0);
    assert_int_equal(ra->end_ps, d);
    assert_int_equal(rc->end_ps - ra->end_ps, d);
    assert_int_equal(stats(f)->flops, 128 * F);
}

/* ---------------------------------------------------------------- 9. races */

/* dma0 writes A then B, signalling s0 after each; vec reads B after s0 is
 * already 2.  wait s0>=1 orders it after the first signal only (the
 * shortest prefix that reached 1): a race on B; wait s0>=2 is clean. */
static void test_rules_race_shortest_prefix(void **state)
{
    struct fx *f = *state;
    for (int target = 1; target <= 2; target++) {
        reset(f);
        push(&f->prog, "dma0",
             with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 128, 0x4000, BASE_DT_UI8, 16), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_UI8, 16)), 0, 1));
        push(&f->prog, "dma0",
             with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 128, 0x5000, BASE_DT_UI8, 16), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_UI8, 16)), 0, 1));
        struct isa_instr delay = ins(ISA_OP_MEMSET);
        delay.dst = ap_sp(ISA_SPACE_SP, 0, 128, 0x6000, BASE_DT_BF16, 4000);
        push(&f->prog, "vec", delay);
        push(&f->prog, "vec",
             with_wait(ins_copy(ap_sp(ISA_SPACE_SP, 0, 128, 0x7000, BASE_DT_UI8, 16), ap_sp(ISA_SPACE_SP, 0, 128, 0x5000, BASE_DT_UI8, 16)), 0,
                       target));
        struct base_diag d;
        enum base_status st = run_status(f, &d);
        if (target == 1) {
            if (st != BASE_ERR_CHECK || !strstr(d.msg, "race") || !strstr(d.msg, "dma0 instruction 1"))
                fail_msg("want a race on B with dma0 instruction 1, got %s: %s", base_status_str(st), d.msg);
            /* s0 was 2 when vec got there: the timing did not decide */
            const struct sim_instr_record *b = rec(f, "dma0", 1), *m = rec(f, "vec", 0);
            assert_true(b->visible_ps < m->end_ps);
        } else {
            if (st != BASE_OK) fail_msg("wait s0>=2: %s", d.msg);
        }
    }
}

/* The last 32 signals of a semaphore are kept, each with the join of all
 * before it: once the first signal is forgotten, a wait for >= 1 joins a
 * later signal's clock and the race it should report is hidden. */
static void test_rules_race_forgotten_signals_hide_race(void **state)
{
    struct fx *f = *state;
    const uint32_t hist = 32; /* SIM_SEM_HIST, docs/timing.md section 9 */
    for (uint32_t later = hist - 1; later <= hist; later++) {
        reset(f);
        /* vec: signal, write B, then `later` more signals */
        push(&f->prog, "vec", with_signal(ins(ISA_OP_NOP), 0, 1));
        struct isa_instr w = ins(ISA_OP_MEMSET);
        w.dst = ap_sp(ISA_SPACE_SP, 0, 128, 0x5000, BASE_DT_UI8, 16);
        push(&f->prog, "vec", w);
        push(&f->prog, "vec", ins_loop(later, 1));
        push(&f->prog, "vec", with_signal(ins(ISA_OP_NOP), 0, 1));
        /* pool: after every signal has arrived, reads B with wait s0>=1 */
        struct isa_instr delay = ins(ISA_OP_MEMSET);
        delay.dst = ap_sp(ISA_SPACE_SP, 0, 128, 0x6000, BASE_DT_F32, 8000);
        push(&f->prog, "pool", delay);
        push(&f->prog, "pool",
             with_wait(ins_copy(ap_sp(ISA_SPACE_SP, 0, 128, 0x7000, BASE_DT_UI8, 16), ap_sp(ISA_SPACE_SP, 0, 128, 0x5000, BASE_DT_UI8, 16)), 0,
                       1));
        struct base_diag d;
        enum base_status st = run_status(f, &d);
        assert_true(rec_iter(f, "vec", 3, later - 1)->visible_ps < rec(f, "pool", 0)->end_ps);
        if (later < hist) {
            /* 1 + later <= 32 signals: the first is kept, the read races with the write */
            if (st != BASE_ERR_CHECK || !strstr(d.msg, "race"))
                fail_msg("%u signals: want a race, got %s: %s", later + 1, base_status_str(st), d.msg);
        } else if (st != BASE_OK) {
            fail_msg("%u signals: the first is forgotten, want no report, got %s", later + 1, d.msg);
        }
    }
}

/* An engine keeps its last 65536 access records: when more unseen ones
 * follow, the oldest is forgotten and its race goes unreported. */
static void test_rules_race_forgotten_records_hide_race(void **state)
{
    struct fx *f = *state;
    const uint32_t recs = 1u << 16; /* the record limit, docs/timing.md section 9 */
    f->chip.scratchpad.bytes_per_partition = 4 * recs;
    struct chip_engine_desc *vec = eng(f, "vec"), *pool = eng(f, "pool");
    vec->dispatch_cycles = 0;
    /* pool's dispatch outlasts vec's writes: one memset of one element per cycle */
    pool->dispatch_cycles = 2 * recs * (uint32_t)ceil(pool->clock_ghz / vec->clock_ghz + 1);
    for (uint32_t more = recs - 1; more <= recs; more++) {
        reset(f);
        struct isa_instr x = ins(ISA_OP_MEMSET); /* X: partition 0, bytes [0, 16) */
        x.dst = ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_UI8, 16);
        push(&f->prog, "vec", x);
        push(&f->prog, "vec", ins_loop(more, 1));
        struct isa_instr m = ins(ISA_OP_MEMSET); /* one new byte each iteration: a new record */
        m.dst = ap_sp(ISA_SPACE_SP, 1, 1, recs, BASE_DT_UI8, 1);
        m.dst.loop_step_bytes[0] = 1;
        push(&f->prog, "vec", m);
        push(&f->prog, "pool", ins(ISA_OP_NOP));
        push(&f->prog, "pool", ins_copy(ap_sp(ISA_SPACE_SP, 0, 1, 0x100, BASE_DT_UI8, 16), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_UI8, 16)));
        struct base_diag d;
        enum base_status st = run_status(f, &d);
        assert_true(stats(f)->engines[1].finish_ps < rec(f, "pool", 0)->end_ps); /* vec wrote them all first */
        if (more < recs) {
            if (st != BASE_ERR_CHECK || !strstr(d.msg, "race") || !strstr(d.msg, "vec instruction 0"))
                fail_msg("%u records: want a race with vec instruction 0, got %s: %s", more + 1, base_status_str(st), d.msg);
        } else if (st != BASE_OK) {
            fail_msg("%u records: the first is forgotten, want no report, got %s", more + 1, d.msg);
        }
    }
}

/* ------------------------------------------------------------ 10. statistics */

/* flops of every op (docs/timing.md sections 5-7). */
static void test_rules_stats_flops_per_op(void **state)
{
    struct fx *f = *state;
    const uint16_t P = 32;
    const uint32_t F = 64;
    const uint64_t n = (uint64_t)P * F;
#define SPF(addr) ap_sp(ISA_SPACE_SP, 0, P, addr, BASE_DT_F32, F)
    struct isa_instr ts1 = ins(ISA_OP_TENSOR_SCALAR), ts2, red = ins(ISA_OP_REDUCE), pr = ins(ISA_OP_PART_REDUCE),
                     sel = ins(ISA_OP_SELECT), io = ins(ISA_OP_IOTA), ms = ins(ISA_OP_MEMSET), tr, pb, act;
    ts1.func = ISA_ALU_MUL;
    ts1.func2 = ISA_ALU_BYPASS;
    ts1.dst = SPF(0x1000);
    ts1.src0 = SPF(0);
    ts1.imm0 = 2;
    ts2 = ts1;
    ts2.func2 = ISA_ALU_ADD;
    red.func = ISA_ALU_ADD;
    red.count = 1;
    red.dst = ap_sp(ISA_SPACE_SP, 0, P, 0x1400, BASE_DT_F32, 1);
    red.src0 = SPF(0);
    pr.func = ISA_ALU_ADD;
    pr.count = 0;
    pr.dst = ap_sp(ISA_SPACE_SP, 0, 1, 0x1800, BASE_DT_F32, F);
    pr.src0 = SPF(0);
    sel.dst = SPF(0x1000);
    sel.src0 = SPF(0);
    sel.src1 = SPF(0x200);
    sel.src2 = SPF(0x400);
    io.dst = SPF(0x1000);
    ms.dst = SPF(0x1000);
    tr = ins_copy(ap_sp(ISA_SPACE_SP, 0, (uint16_t)F, 0x2000, BASE_DT_F32, P), SPF(0));
    tr.op = ISA_OP_TRANSPOSE;
    pb = ins_copy(SPF(0x1000), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, F));
    pb.op = ISA_OP_PART_BROADCAST;
    act = ins_unary_op(ISA_OP_ACTIVATE, ISA_ACT_EXP, SPF(0x3000), SPF(0));
    act.imm0 = 1;
    struct {
        const char *engine;
        struct isa_instr in;
        uint64_t flops;
    } ops[] = {
        {"vec", ins_unary_op(ISA_OP_UNARY, ISA_ALU_NEG, SPF(0x1000), SPF(0)), n},
        {"vec", ins_binary(ISA_ALU_ADD, SPF(0x1000), SPF(0), SPF(0x200)), n},
        {"vec", ts1, n},
        {"vec", ts2, 2 * n},
        {"vec", red, n},
        {"vec", pr, n},
        {"vec", ins_copy(SPF(0x1000), SPF(0)), 0},
        {"vec", sel, 0},
        {"vec", io, 0},
        {"vec", ms, 0},
        {"vec", tr, 0},
        {"vec", pb, 0},
        {"act", act, 3 * n},
        {"pe", mm(64, 32, 48, 0, BASE_DT_BF16, 0), 2 * 64 * 32 * 48},
    };
#undef SPF
    uint64_t total = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        push(&f->prog, ops[i].engine, ops[i].in);
        total += ops[i].flops;
    }
    run(f);
    uint32_t idx[3] = {0, 0, 0}; /* next stream index of vec, act, pe */
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        int e = !strcmp(ops[i].engine, "vec") ? 0 : !strcmp(ops[i].engine, "act") ? 1 : 2;
        const struct sim_instr_record *r = rec(f, ops[i].engine, idx[e]++);
        if (r->flops != ops[i].flops)
            fail_msg("%s flops %llu, want %llu", isa_op_name((enum isa_op)ops[i].in.op), (unsigned long long)r->flops,
                     (unsigned long long)ops[i].flops);
    }
    assert_int_equal(stats(f)->flops, total);
    assert_int_equal(stats(f)->engines[1].flops, total - 3 * n - 2 * 64 * 32 * 48);
}

/* hbm_busy_fraction counts only time with a transfer in its data phase
 * (not fixed cost or latency, not the gap between transfers); hbm_gbps is
 * hbm_bytes per ns of the whole run. */
static void test_rules_stats_hbm_busy_fraction_and_gbps(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma0");
    push(&f->prog, "dma0", with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_BF16, 512), ap_hbm(0, 64, 512, BASE_DT_BF16)), 0, 1));
    push(&f->prog, "dma1", with_wait(ins_dma(ap_hbm(1 << 20, 64, 256, BASE_DT_BF16), ap_sp(ISA_SPACE_SP, 64, 64, 0, BASE_DT_BF16, 256)), 0, 1));
    run(f);
    assert_int_equal(f->rec.t.ndma, 2);
    const struct sim_dma_record *a = &f->rec.t.d[0], *b = &f->rec.t.d[1];
    uint64_t lead = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    assert_int_equal(b->data_start_ps, a->end_ps + lead); /* a gap with no transfer */
    const struct sim_stats *st = stats(f);
    assert_int_equal(st->total_ps, b->end_ps);
    uint64_t busy = (a->end_ps - a->data_start_ps) + (b->end_ps - b->data_start_ps);
    assert_true(fabs(st->hbm_busy_fraction - (double)busy / (double)st->total_ps) < 1e-12);
    uint64_t bytes = 64 * 512 * 2 + 64 * 256 * 2;
    assert_int_equal(st->hbm_bytes, bytes);
    assert_true(fabs(st->hbm_gbps - (double)bytes / ((double)st->total_ps / 1000.0)) < 1e-9);
}

/* finish_ps: an engine's latest visible or interval end; total_ps the
 * largest of them (a preloaded matmul's drain counts). */
static void test_rules_stats_finish_ps(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe"), *act = eng(f, "act");
    push(&f->prog, "pe", mm(128, 128, 512, 0, BASE_DT_BF16, 0));
    push(&f->prog, "act", ins(ISA_OP_NOP));
    run(f);
    uint64_t end = c2p(pe, pe->dispatch_cycles + ceil_div(128, pe->load_rows_per_cycle)) +
                   c2p(pe, ceil_ratio(512, pe->rows_per_cycle[CHIP_RATE_BF16]));
    uint64_t vis = end + c2p(pe, pe->rows + pe->cols - 1);
    const struct sim_stats *st = stats(f);
    assert_string_equal(st->engines[0].name, "pe");
    assert_int_equal(st->engines[0].busy_ps, end);
    assert_int_equal(st->engines[0].finish_ps, vis);
    assert_int_equal(st->engines[2].finish_ps, c2p(act, act->dispatch_cycles));
    assert_int_equal(st->engines[1].finish_ps, 0); /* no stream */
    assert_int_equal(st->total_ps, vis);
    assert_int_equal(st->engines[0].idle_ps, vis - end);
}

/* events counts heap events only: one engine running alone steps inline
 * after its first (heap) step. */
static void test_rules_stats_events_count_heap_only(void **state)
{
    struct fx *f = *state;
    for (int i = 0; i < 5; i++) push(&f->prog, "act", ins(ISA_OP_NOP));
    run(f);
    assert_int_equal(stats(f)->instructions, 5);
    assert_int_equal(stats(f)->events, 1);
    /* a signal is a heap event of its own, and the step due at its time is
     * not strictly before it, so it goes through the heap too */
    reset(f);
    for (int i = 0; i < 5; i++) push(&f->prog, "act", ins(ISA_OP_NOP));
    f->prog.streams[0].instrs[4] = with_signal(ins(ISA_OP_NOP), 0, 1);
    run(f);
    assert_int_equal(stats(f)->events, 3);
}

/* ---------------------------------------------------------------- 11. hooks */

/* on_instr is called when the front end executes the instruction (a
 * preloaded matmul: at issue, before its interval ends; a dma: at its end);
 * on_dma and on_wait at the end of the transfer and of the wait.  The
 * records carry the engine, index, loop iteration, tag, bytes and spaces. */
static void test_rules_hooks_now_ps_and_records(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe"), *q = eng(f, "dma3");
    push(&f->prog, "pe", mm(128, 128, 512, 0, BASE_DT_BF16, 0));
    struct isa_instr m2 = mm(128, 128, 512, 4096, BASE_DT_BF16, 2048);
    m2.tag = 77;
    push(&f->prog, "pe", m2);
    push(&f->prog, "act", ins_loop(3, 1));
    struct isa_instr n = ins(ISA_OP_NOP);
    n.tag = 9;
    push(&f->prog, "act", n);
    push(&f->prog, "dma3", with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 16, 0x5000, BASE_DT_F32, 64), ap_hbm(0, 16, 64, BASE_DT_F32)), 4, 1));
    push(&f->prog, "pool", ins_sem_wait(4, 1));
    run(f);
    struct trec *t = &f->rec.t;
    for (int i = 0; i < t->n; i++) {
        const struct sim_instr_record *r = &t->r[i];
        uint64_t now = f->rec.instr_now[i];
        assert_int_equal(r->core, 0);
        assert_string_equal(r->engine_name, f->chip.engines[r->engine].name);
        assert_ptr_equal(r->instr, &isa_program_stream(&f->prog, r->engine_name)->instrs[r->stream_index]);
        if (!strcmp(r->engine_name, "pe")) {
            /* issued at t: 0, then the first's stream start */
            uint64_t t0 = r->stream_index == 0 ? 0 : c2p(pe, pe->dispatch_cycles + ceil_div(128, pe->load_rows_per_cycle));
            assert_int_equal(now, t0);
            assert_true(r->end_ps > now);
            assert_int_equal(r->flops, 2 * 128 * 128 * 512);
            /* reads stationary, moving; writes dst (start without acc: not read) */
            assert_int_equal(r->bytes, 128 * 128 * 2 + 128 * 512 * 2 + 128 * 512 * 4);
            assert_int_equal(r->tag, r->stream_index == 1 ? 77 : 0);
        } else if (!strcmp(r->engine_name, "dma3")) {
            assert_int_equal(now, r->end_ps);
        } else {
            assert_int_equal(now, r->start_ps); /* control: when the front end executes it (pool: when the wait passes) */
        }
    }
    for (uint32_t it = 0; it < 3; it++) {
        const struct sim_instr_record *r = rec_iter(f, "act", 1, it);
        assert_int_equal(r->tag, 9);
        assert_int_equal(r->engine, 2);
    }
    assert_int_equal(t->ndma, 1);
    const struct sim_dma_record *d = &t->d[0];
    assert_int_equal(f->rec.dma_now[0], d->end_ps);
    assert_int_equal(d->start_ps, 0);
    assert_int_equal(d->data_start_ps, c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps);
    assert_int_equal(d->bytes, 16 * 64 * 4);
    assert_true(d->hbm);
    assert_int_equal(d->src_space, ISA_SPACE_HBM);
    assert_int_equal(d->dst_space, ISA_SPACE_SP);
    assert_int_equal(d->end_ps, rec(f, "dma3", 0)->end_ps);
    assert_int_equal(t->nwait, 1);
    const struct sim_wait_record *w = &t->w[0];
    assert_int_equal(f->rec.wait_now[0], w->end_ps);
    assert_int_equal(w->end_ps, d->end_ps);
    assert_int_equal(w->start_ps, 0);
    assert_int_equal(w->sem, 4);
    assert_int_equal(w->target, 1);
    assert_string_equal(w->engine_name, "pool");
}


/* The host writes a tensor of more than 2^32 elements (a training step's
 * activations on a large chip) through an access pattern of several runs;
 * a single dim past 2^32 is a located limit, not a wrapped count. */
static void test_rules_host_writes_past_four_giga_elements(void **state)
{
    struct fx *f = *state;
    f->chip.hbm.capacity_bytes = (uint64_t)16 << 30;
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = true;
    f->sim = tsim_new(&f->chip, &o, &f->prog, NULL, NULL);
    struct base_tensor *t = NULL;
    int64_t dims[3] = {3, 40000, 65536}; /* 7.9e9 elements */
    assert_int_equal(base_tensor_create_random(BASE_DT_UI8, 3, dims, 1, 1.0, &t), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    struct sim_loc at = loc_hbm(4096);
    if (sim_write_tensor(f->sim, &at, t, &d) != BASE_OK) fail_msg("sim_write_tensor: %s", d.msg);
    base_tensor_release(t);
    int64_t flat[1] = {(int64_t)5 << 30};
    assert_int_equal(base_tensor_create_random(BASE_DT_UI8, 1, flat, 1, 1.0, &t), BASE_OK);
    base_diag_clear(&d);
    assert_int_equal(sim_write_tensor(f->sim, &at, t, &d), BASE_ERR_LIMIT);
    assert_non_null(strstr(d.msg, "2^32"));
    base_tensor_release(t);
}

TEST_MAIN(NULL, NULL, TF(test_rules_host_writes_past_four_giga_elements), TF(test_rules_signal_applied_before_step_at_equal_time),
          TF(test_rules_signalling_control_waits_for_visible), TF(test_rules_halt_waits_for_visible),
          TF(test_rules_signal_ring_stalls_at_64_pending), TF(test_rules_matmul_mixed_types_use_slower_rate),
          TF(test_rules_transpose_on_array_streams_source_class), TF(test_rules_transpose_breaks_os_and_is_chain),
          TF(test_rules_matmul_passes_multiply_fill_and_drain_without_preload),
          TF(test_rules_os_outputs_survive_writes_to_dst), TF(test_rules_elem_iota_memset_stream_dst),
          TF(test_rules_elem_part_broadcast_streams_source), TF(test_rules_elem_rate_fallbacks),
          TF(test_rules_elem_select_uses_two_input_rate), TF(test_rules_elem_transcendental_cost_after_rounding),
          TF(test_rules_dma_hbm_to_hbm_twice_bytes_twice_cap), TF(test_rules_dma_converting_counts_hbm_side_bytes),
          TF(test_rules_dma_acc_flops_and_time), TF(test_rules_race_shortest_prefix),
          TF(test_rules_race_forgotten_signals_hide_race), TF(test_rules_race_forgotten_records_hide_race),
          TF(test_rules_stats_flops_per_op), TF(test_rules_stats_hbm_busy_fraction_and_gbps),
          TF(test_rules_stats_finish_ps), TF(test_rules_stats_events_count_heap_only),
          TF(test_rules_hooks_now_ps_and_records))
