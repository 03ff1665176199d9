/* Timing rules, each computed from the chip description's named parameters
 * (docs/timing.md). */
#include "tests/sim/sim_test_util.h"

struct fx {
    struct chip_desc chip;
    struct isa_program prog;
    struct trec rec;
    struct sim_hooks hooks;
    struct sim *sim;
};

SIM_TEST_FIXTURE(struct fx)

static struct chip_engine_desc *eng(struct fx *f, const char *name)
{
    return (struct chip_engine_desc *)tchip_find(&f->chip, name);
}

/* Builds the sim (timing-only unless functional), writes zeros to the first
 * 32 KiB of every scratchpad partition and the HBM's first 4 MiB. */
static void start(struct fx *f, bool timing_only)
{
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = timing_only;
    f->sim = tsim_new(&f->chip, &o, &f->prog, &f->rec, &f->hooks);
    int64_t dims[2] = {128, 32 * 1024};
    tput(f->sim, loc_sp(0, 0), BASE_DT_UI8, 2, dims, NULL);
    int64_t hd[1] = {4 << 20};
    tput(f->sim, loc_hbm(0), BASE_DT_UI8, 1, hd, NULL);
}

static void run(struct fx *f, bool timing_only)
{
    start(f, timing_only);
    tsim_run_ok(f->sim);
}

static void test_timing_control_costs_dispatch(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "act", ins(ISA_OP_NOP));
    push(&f->prog, "act", ins(ISA_OP_NOP));
    push(&f->prog, "pe", ins(ISA_OP_NOP));
    run(f, true);
    const struct chip_engine_desc *act = eng(f, "act"), *pe = eng(f, "pe");
    const struct sim_instr_record *a0 = trec_find(&f->rec, "act", 0), *a1 = trec_find(&f->rec, "act", 1);
    assert_int_equal(a0->start_ps, 0);
    assert_int_equal(a0->end_ps, c2p(act, act->dispatch_cycles));
    assert_int_equal(a1->start_ps, a0->end_ps);
    assert_int_equal(a1->end_ps, a0->end_ps + c2p(act, act->dispatch_cycles));
    assert_int_equal(trec_find(&f->rec, "pe", 0)->end_ps, c2p(pe, pe->dispatch_cycles));
    const struct sim_stats *st = sim_get_stats(f->sim);
    assert_int_equal(st->total_ps, a1->end_ps);
    assert_int_equal(st->instructions, 3);
}

static void test_timing_vector_two_inputs_per_partition_pass(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    vec->lanes = 64; /* 128 partitions take two passes */
    uint32_t F = 500;
    push(&f->prog, "vec",
         ins_binary(ISA_ALU_ADD, ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_BF16, F),
                    ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_BF16, F), ap_sp(ISA_SPACE_SP, 0, 128, 2048, BASE_DT_BF16, F)));
    run(f, true);
    const struct sim_instr_record *r = trec_find(&f->rec, "vec", 0);
    uint64_t passes = (128 + vec->lanes - 1) / vec->lanes;
    uint64_t per = (uint64_t)ceil(F / vec->elems_per_cycle_2in[CHIP_RATE_BF16]);
    assert_int_equal(r->end_ps, r->start_ps + c2p(vec, vec->dispatch_cycles + passes * per));
}

static void test_timing_vector_rate_class_of_dtype(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *vec = eng(f, "vec");
    uint32_t F = 1000;
    /* bf16 -> bf16 copy runs at the bf16 rate; bf16 -> f32 at the slower f32 rate */
    push(&f->prog, "vec",
         ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 32, 8192, BASE_DT_BF16, F),
                      ap_sp(ISA_SPACE_SP, 0, 32, 0, BASE_DT_BF16, F)));
    push(&f->prog, "vec",
         ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 32, 16384, BASE_DT_F32, F),
                      ap_sp(ISA_SPACE_SP, 0, 32, 0, BASE_DT_BF16, F)));
    run(f, true);
    const struct sim_instr_record *r0 = trec_find(&f->rec, "vec", 0), *r1 = trec_find(&f->rec, "vec", 1);
    assert_int_equal(r0->end_ps - r0->start_ps,
                     c2p(vec, vec->dispatch_cycles + (uint64_t)ceil(F / vec->elems_per_cycle[CHIP_RATE_BF16])));
    assert_int_equal(r1->end_ps - r1->start_ps,
                     c2p(vec, vec->dispatch_cycles + (uint64_t)ceil(F / vec->elems_per_cycle[CHIP_RATE_FP32])));
}

static void test_timing_activation_transcendental_cost(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *act = eng(f, "act");
    act->transcendental_cost = 4;
    uint32_t F = 256;
    struct isa_instr e = ins_unary_op(ISA_OP_ACTIVATE, ISA_ACT_EXP, ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_F32, F),
                                      ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, F));
    e.imm0 = 1;
    struct isa_instr r = e;
    r.func = ISA_ACT_RELU;
    push(&f->prog, "act", e);
    push(&f->prog, "act", r);
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "act", 0), *b = trec_find(&f->rec, "act", 1);
    uint64_t per = (uint64_t)ceil(F / act->elems_per_cycle[CHIP_RATE_FP32]);
    assert_int_equal(a->end_ps - a->start_ps,
                     c2p(act, act->dispatch_cycles + (uint64_t)ceil(act->transcendental_cost * (double)per)));
    assert_int_equal(b->end_ps - b->start_ps, c2p(act, act->dispatch_cycles + per));
}

/* Matmul K x M stationary at sp byte st_addr, K x N moving at 16 KiB, into acc. */
static struct isa_instr mm(uint16_t K, uint32_t M, uint32_t N, uint64_t st_addr, enum base_dtype dt, uint64_t acc)
{
    return ins_matmul(ap_sp(ISA_SPACE_ACC, 0, (uint16_t)M, acc, BASE_DT_F32, N),
                      ap_sp(ISA_SPACE_SP, 0, K, st_addr, dt, M), ap_sp(ISA_SPACE_SP, 0, K, 16384, dt, N), ISA_FLAG_START);
}

static void test_timing_matmul_preload_pipeline(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    uint16_t K = 128;
    uint32_t M = 128, N = 512;
    push(&f->prog, "pe", mm(K, M, N, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", mm(K, M, N, 4096, BASE_DT_BF16, 2048)); /* other weights: a load, hidden */
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *b = trec_find(&f->rec, "pe", 1);
    uint64_t L = (K + pe->load_rows_per_cycle - 1) / pe->load_rows_per_cycle;
    uint64_t S = (uint64_t)ceil(N / pe->rows_per_cycle[CHIP_RATE_BF16]);
    uint64_t ready0 = c2p(pe, pe->dispatch_cycles + L);
    uint64_t end0 = ready0 + c2p(pe, S);
    assert_int_equal(a->start_ps, 0);
    assert_int_equal(a->end_ps, end0);
    assert_int_equal(a->visible_ps, end0 + c2p(pe, pe->rows + pe->cols - 1));
    /* the second's dispatch and load overlap the first's streaming */
    uint64_t ready1 = ready0 + c2p(pe, pe->dispatch_cycles + L);
    uint64_t start1 = ready1 > end0 ? ready1 : end0;
    assert_int_equal(b->end_ps, start1 + c2p(pe, S));
    assert_int_equal(b->start_ps, a->end_ps); /* intervals never overlap */
    assert_int_equal(b->visible_ps, b->end_ps + c2p(pe, pe->rows + pe->cols - 1));
    assert_int_equal(sim_get_stats(f->sim)->total_ps, b->visible_ps);
}

static void test_timing_matmul_exposed_load(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *pe = eng(f, "pe");
    pe->load_rows_per_cycle = 1; /* 128-cycle load, longer than a 64-cycle stream */
    uint16_t K = 128;
    uint32_t M = 64, N = 32;
    push(&f->prog, "pe", mm(K, M, N, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", mm(K, M, N, 4096, BASE_DT_BF16, 2048));
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *b = trec_find(&f->rec, "pe", 1);
    uint64_t L = K / pe->load_rows_per_cycle;
    uint64_t S = pe->min_stream_cycles; /* N = 32 streams for the minimum */
    assert_true(S > (uint64_t)ceil(N / pe->rows_per_cycle[CHIP_RATE_BF16]));
    uint64_t ready0 = c2p(pe, pe->dispatch_cycles + L), end0 = ready0 + c2p(pe, S);
    assert_int_equal(a->end_ps, end0);
    uint64_t ready1 = ready0 + c2p(pe, pe->dispatch_cycles + L);
    assert_true(ready1 > end0);
    assert_int_equal(b->end_ps, ready1 + c2p(pe, S));
}

static void test_timing_matmul_same_weights_skip_load(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    push(&f->prog, "pe", mm(128, 128, 64, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", mm(128, 128, 64, 0, BASE_DT_BF16, 2048));
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *b = trec_find(&f->rec, "pe", 1);
    uint64_t L = 128 / pe->load_rows_per_cycle, S = 64;
    uint64_t ready0 = c2p(pe, pe->dispatch_cycles + L), end0 = ready0 + c2p(pe, S);
    assert_int_equal(a->end_ps, end0);
    uint64_t ready1 = ready0 + c2p(pe, pe->dispatch_cycles); /* no load */
    uint64_t start1 = ready1 > end0 ? ready1 : end0;
    assert_int_equal(b->end_ps, start1 + c2p(pe, S));
}

static void test_timing_matmul_overwritten_weights_reload(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *pe = eng(f, "pe");
    pe->load_rows_per_cycle = 1;
    push(&f->prog, "pe", with_signal(mm(128, 128, 64, 0, BASE_DT_BF16, 0), 1, 1));
    /* the vector engine rewrites the stationary operand between the two */
    push(&f->prog, "vec",
         with_signal(with_wait(ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_BF16, 16),
                                            ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_BF16, 16)),
                               1, 1),
                     2, 1));
    push(&f->prog, "pe", with_wait(mm(128, 128, 64, 0, BASE_DT_BF16, 2048), 2, 1));
    run(f, true);
    const struct sim_instr_record *b = trec_find(&f->rec, "pe", 1), *v = trec_find(&f->rec, "vec", 0);
    uint64_t L = 128, S = 64;
    assert_true(v->end_ps > trec_find(&f->rec, "pe", 0)->end_ps);
    /* the wait ends at the copy's end; dispatch + a full load follow */
    assert_int_equal(b->end_ps, v->end_ps + c2p(pe, pe->dispatch_cycles + L) + c2p(pe, S));
}

static void test_timing_matmul_fp8_rate_and_min_stream(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    push(&f->prog, "pe", mm(64, 64, 512, 0, BASE_DT_F8E4M3FN, 0));
    push(&f->prog, "pe", mm(64, 64, 100, 8192, BASE_DT_F8E4M3FN, 2048)); /* 50 < 64 cycles */
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *b = trec_find(&f->rec, "pe", 1);
    uint64_t L = 64 / pe->load_rows_per_cycle;
    uint64_t S0 = (uint64_t)ceil(512 / pe->rows_per_cycle[CHIP_RATE_FP8]);
    uint64_t ready0 = c2p(pe, pe->dispatch_cycles + L), end0 = ready0 + c2p(pe, S0);
    assert_int_equal(a->end_ps, end0);
    uint64_t ready1 = ready0 + c2p(pe, pe->dispatch_cycles + L);
    assert_int_equal(b->end_ps, (ready1 > end0 ? ready1 : end0) + c2p(pe, pe->min_stream_cycles));
}

static void test_timing_matmul_fp32_neuron_rate(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = eng(f, "pe");
    push(&f->prog, "pe", mm(128, 128, 256, 0, BASE_DT_F32, 0));
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0);
    uint64_t L = 128 / pe->load_rows_per_cycle, S = (uint64_t)ceil(256 / pe->rows_per_cycle[CHIP_RATE_FP32]);
    assert_int_equal(a->end_ps, c2p(pe, pe->dispatch_cycles + L) + c2p(pe, S));
}

static void test_timing_matmul_fp32_tpu_passes(void **state)
{
    struct fx *f = *state;
    f->chip.family = CHIP_FAMILY_TPU;
    const struct chip_engine_desc *pe = eng(f, "pe");
    struct isa_instr hi = mm(128, 128, 256, 0, BASE_DT_F32, 0);
    hi.func = ISA_PREC_HIGHEST;
    push(&f->prog, "pe", hi);
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0);
    uint64_t p = f->chip.fp32_passes_highest;
    uint64_t L = 128 / pe->load_rows_per_cycle, S = (uint64_t)ceil(256 / pe->rows_per_cycle[CHIP_RATE_BF16]);
    assert_int_equal(a->end_ps, c2p(pe, pe->dispatch_cycles + p * L) + c2p(pe, p * S));
}

/* A generic array without preload costs exactly SCALE-Sim's per-fold
 * 2 Sr + Sc + T - 2 per matmul (plus dispatch, 0 here) when consecutive
 * matmuls share no held operand (the second has other stationary and moving
 * operands: with the same moving operand an is array would continue the
 * fold, test_timing_matmul_chain_*). */
static void test_timing_matmul_scalesim_fold_per_dataflow(void **state)
{
    struct fx *f = *state;
    struct chip_engine_desc *pe = eng(f, "pe");
    pe->preload = false;
    pe->dispatch_cycles = 0;
    pe->load_rows_per_cycle = 1;
    pe->min_stream_cycles = 0;
    pe->rows = 32;
    pe->cols = 64;
    uint64_t K = 24, M = 40, N = 56;
    const enum chip_dataflow flows[3] = {CHIP_DATAFLOW_WS, CHIP_DATAFLOW_OS, CHIP_DATAFLOW_IS};
    const uint64_t Sr[3] = {K, M, K}, Sc[3] = {M, N, N}, Tt[3] = {N, K, M};
    for (int i = 0; i < 3; i++) {
        pe->dataflow = flows[i];
        if (flows[i] == CHIP_DATAFLOW_OS) pe->rows = 64; /* M = 40 rows */
        isa_program_deinit(&f->prog);
        sim_destroy(f->sim);
        f->sim = NULL;
        push(&f->prog, "pe", mm((uint16_t)K, (uint32_t)M, (uint32_t)N, 0, BASE_DT_BF16, 0));
        struct isa_instr second = mm((uint16_t)K, (uint32_t)M, (uint32_t)N, 4096, BASE_DT_BF16, 0);
        second.src1.addr = 24576;
        push(&f->prog, "pe", second);
        run(f, true);
        uint64_t fold = 2 * Sr[i] + Sc[i] + Tt[i] - 2;
        const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *b = trec_find(&f->rec, "pe", 1);
        assert_int_equal(a->end_ps, c2p(pe, fold));
        assert_int_equal(a->visible_ps, a->end_ps);
        assert_int_equal(b->start_ps, a->end_ps);
        assert_int_equal(b->end_ps, a->end_ps + c2p(pe, fold));
        assert_int_equal(sim_get_stats(f->sim)->total_cycles, 2 * fold);
    }
}

/* A generic array (no preload) in dataflow df: rows x cols, loads one row per cycle, no minimum. */
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

/* os: a fold streamed as three matmuls into one dst (start, -, stop) pays the
 * fill and drain once: n D + L + S1 + S2 + S3 + Sr + Sc - 2. */
static void test_timing_matmul_chain_os_pays_fill_once(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_OS, 64, 64);
    uint32_t M = 40, N = 56;
    const uint16_t Ks[3] = {128, 128, 24};
    const uint64_t st_at[3] = {0, 4096, 8192};
    for (int i = 0; i < 3; i++) {
        struct isa_instr m = mm(Ks[i], M, N, st_at[i], BASE_DT_BF16, 0);
        m.src1.addr = 12288 + 4096 * (uint64_t)i;
        m.flags = (uint8_t)(i == 0 ? ISA_FLAG_START : i == 2 ? ISA_FLAG_STOP : 0);
        push(&f->prog, "pe", m);
    }
    run(f, true);
    uint64_t Sr = M, Sc = N, L = Sr / pe->load_rows_per_cycle, D = pe->dispatch_cycles;
    uint64_t T = (uint64_t)Ks[0] + Ks[1] + Ks[2];
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *c = trec_find(&f->rec, "pe", 2);
    assert_int_equal(a->end_ps, c2p(pe, D + L + Ks[0] + Sr + Sc - 2));
    /* each continuation begins at the previous stream end and streams only */
    uint64_t se0 = c2p(pe, D + L + Ks[0]), se1 = se0 + c2p(pe, D + Ks[1]);
    assert_int_equal(c->visible_ps, se1 + c2p(pe, D + Ks[2] + Sr + Sc - 2));
    /* = SCALE-Sim's fold with T = the whole K (to the cycle) */
    assert_int_equal(sim_get_stats(f->sim)->total_cycles, 3 * D + 2 * Sr + Sc + T - 2);
}

/* os: start begins a new fold, which waits for the previous one to drain. */
static void test_timing_matmul_chain_os_start_waits_for_drain(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_OS, 64, 64);
    uint32_t M = 40, N = 56;
    uint16_t K = 100;
    struct isa_instr b = mm(K, M, N, 4096, BASE_DT_BF16, 0);
    b.src1.addr = 24576;
    push(&f->prog, "pe", mm(K, M, N, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", b);
    run(f, true);
    uint64_t fold = pe->dispatch_cycles + M / pe->load_rows_per_cycle + K + M + N - 2;
    const struct sim_instr_record *r0 = trec_find(&f->rec, "pe", 0), *r1 = trec_find(&f->rec, "pe", 1);
    assert_int_equal(r0->visible_ps, c2p(pe, fold));
    assert_int_equal(r1->start_ps, r0->visible_ps);
    assert_int_equal(r1->visible_ps, r0->visible_ps + c2p(pe, fold));
}

/* is: matmuls with the same moving (held) operand stream behind each other
 * (M split in pieces), into different dsts. */
static void test_timing_matmul_chain_is_same_moving(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_IS, 128, 64);
    uint16_t K = 96;
    uint32_t N = 48;
    const uint32_t Ms[2] = {128, 72};
    push(&f->prog, "pe", mm(K, Ms[0], N, 0, BASE_DT_BF16, 0));
    push(&f->prog, "pe", mm(K, Ms[1], N, 4096, BASE_DT_BF16, 2048));
    run(f, true);
    uint64_t Sr = K, Sc = N, D = pe->dispatch_cycles, L = Sr / pe->load_rows_per_cycle;
    const struct sim_instr_record *r1 = trec_find(&f->rec, "pe", 1);
    assert_int_equal(r1->visible_ps, c2p(pe, D + L + Ms[0]) + c2p(pe, D + Ms[1] + Sr + Sc - 2));
    assert_int_equal(sim_get_stats(f->sim)->total_cycles, 2 * D + 2 * Sr + Sc + Ms[0] + Ms[1] - 2);
}

/* ws without preload: the same stationary operand streams on (N split in
 * pieces); overwriting it in between breaks the chain. */
static void test_timing_matmul_chain_ws_same_stationary(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_WS, 128, 128);
    uint16_t K = 128;
    uint32_t M = 64;
    const uint32_t Ns[3] = {512, 512, 200};
    for (int i = 0; i < 3; i++) {
        struct isa_instr m = mm(K, M, Ns[i], 0, BASE_DT_BF16, 2048 * (uint64_t)i);
        m.src1.addr = 8192 + 2048 * (uint64_t)i;
        push(&f->prog, "pe", m);
    }
    run(f, true);
    uint64_t Sr = K, Sc = M, D = pe->dispatch_cycles, L = Sr / pe->load_rows_per_cycle;
    uint64_t T = (uint64_t)Ns[0] + Ns[1] + Ns[2];
    assert_int_equal(sim_get_stats(f->sim)->total_cycles, 3 * D + L + T + Sr + Sc - 2);
}

static void test_timing_matmul_chain_broken_by_overwrite(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *pe = generic_pe(f, CHIP_DATAFLOW_WS, 128, 128);
    uint16_t K = 128;
    uint32_t M = 64, N = 256;
    push(&f->prog, "pe", with_signal(mm(K, M, N, 0, BASE_DT_BF16, 0), 1, 1));
    /* the vector engine rewrites the stationary operand between the two */
    push(&f->prog, "vec",
         with_signal(with_wait(ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_BF16, 16),
                                            ap_sp(ISA_SPACE_SP, 0, 128, 8192, BASE_DT_BF16, 16)),
                               1, 1),
                     2, 1));
    struct isa_instr b = with_wait(mm(K, M, N, 0, BASE_DT_BF16, 2048), 2, 1);
    b.src1.addr = 24576;
    push(&f->prog, "pe", b);
    run(f, true);
    uint64_t fold = pe->dispatch_cycles + K / pe->load_rows_per_cycle + N + K + M - 2;
    const struct sim_instr_record *v = trec_find(&f->rec, "vec", 0), *r1 = trec_find(&f->rec, "pe", 1);
    assert_int_equal(r1->visible_ps, v->end_ps + c2p(pe, fold));
}

static void test_timing_matmul_signal_at_visible(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "pe", with_signal(mm(128, 128, 128, 0, BASE_DT_BF16, 0), 3, 1));
    push(&f->prog, "act", ins_sem_wait(3, 1));
    run(f, true);
    const struct sim_instr_record *a = trec_find(&f->rec, "pe", 0), *w = trec_find(&f->rec, "act", 0);
    assert_int_equal(w->start_ps, a->visible_ps);
    assert_int_equal(f->rec.nwait, 1);
    assert_int_equal(f->rec.w[0].start_ps, 0);
    assert_int_equal(f->rec.w[0].end_ps, a->visible_ps);
    assert_int_equal(sim_get_stats(f->sim)->engines[2].wait_ps, a->visible_ps);
}

static void test_timing_dma_sram_to_sram(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma0");
    push(&f->prog, "dma0",
         ins_dma(ap_sp(ISA_SPACE_SP, 0, 128, 40000, BASE_DT_F32, 1000), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 1000)));
    run(f, true);
    const struct sim_instr_record *r = trec_find(&f->rec, "dma0", 0);
    uint64_t bytes = 128 * 1000 * 4;
    assert_int_equal(r->end_ps, c2p(q, q->dispatch_cycles) + q->fixed_ps + event_bytes_to_ps((double)bytes, q->bytes_per_ns));
    assert_int_equal(r->bytes, bytes);
    assert_int_equal(f->rec.ndma, 1);
    assert_false(f->rec.d[0].hbm);
    assert_int_equal(sim_get_stats(f->sim)->hbm_bytes, 0);
}

static void test_timing_dma_hbm_alone(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *q = eng(f, "dma1");
    f->chip.hbm.bytes_per_ns = 12; /* below the queue's 20 */
    push(&f->prog, "dma1", ins_dma(ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_BF16, 2048), ap_hbm(0, 64, 2048, BASE_DT_BF16)));
    run(f, true);
    const struct sim_instr_record *r = trec_find(&f->rec, "dma1", 0);
    uint64_t bytes = 64 * 2048 * 2;
    uint64_t data = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    assert_int_equal(f->rec.d[0].data_start_ps, data);
    assert_int_equal(r->end_ps, data + event_bytes_to_ps((double)bytes, f->chip.hbm.bytes_per_ns));
    assert_int_equal(sim_get_stats(f->sim)->hbm_bytes, bytes);
}

static void test_timing_dma_contention_shares_hbm(void **state)
{
    struct fx *f = *state;
    f->chip.hbm.bytes_per_ns = 30; /* two queues of 20 want 40 */
    const struct chip_engine_desc *q = eng(f, "dma0");
    struct isa_instr d0 = ins_dma(ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_BF16, 2048), ap_hbm(0, 64, 2048, BASE_DT_BF16));
    struct isa_instr d1 = ins_dma(ap_sp(ISA_SPACE_SP, 64, 64, 0, BASE_DT_BF16, 2048), ap_hbm(1 << 20, 64, 2048, BASE_DT_BF16));
    push(&f->prog, "dma0", d0);
    push(&f->prog, "dma1", d1);
    run(f, true);
    uint64_t bytes = 64 * 2048 * 2;
    uint64_t data = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    uint64_t shared = data + event_bytes_to_ps((double)bytes, f->chip.hbm.bytes_per_ns / 2);
    uint64_t alone = data + event_bytes_to_ps((double)bytes, q->bytes_per_ns);
    const struct sim_instr_record *a = trec_find(&f->rec, "dma0", 0), *b = trec_find(&f->rec, "dma1", 0);
    assert_int_equal(a->end_ps, shared);
    assert_int_equal(b->end_ps, shared);
    assert_true(shared > alone);
    assert_int_equal(sim_get_stats(f->sim)->hbm_bytes, 2 * bytes);
}

/* One transfer ends first; the other then speeds up to its queue's cap. */
static void test_timing_dma_share_recomputed_when_one_ends(void **state)
{
    struct fx *f = *state;
    f->chip.hbm.bytes_per_ns = 30;
    const struct chip_engine_desc *q = eng(f, "dma0");
    uint64_t small = 64 * 512 * 2, big = 64 * 2048 * 2;
    push(&f->prog, "dma0", ins_dma(ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_BF16, 512), ap_hbm(0, 64, 512, BASE_DT_BF16)));
    push(&f->prog, "dma1", ins_dma(ap_sp(ISA_SPACE_SP, 64, 64, 0, BASE_DT_BF16, 2048), ap_hbm(1 << 20, 64, 2048, BASE_DT_BF16)));
    run(f, true);
    uint64_t data = c2p(q, q->dispatch_cycles) + q->fixed_ps + f->chip.hbm.latency_ps;
    double half = f->chip.hbm.bytes_per_ns / 2;
    uint64_t t1 = data + event_bytes_to_ps((double)small, half);
    double left = (double)big - half * (double)(t1 - data) / 1000.0;
    uint64_t t2 = t1 + event_bytes_to_ps(left, q->bytes_per_ns);
    assert_int_equal(trec_find(&f->rec, "dma0", 0)->end_ps, t1);
    assert_int_equal(trec_find(&f->rec, "dma1", 0)->end_ps, t2);
}

static void test_timing_stats_busy_wait_idle(void **state)
{
    struct fx *f = *state;
    const struct chip_engine_desc *act = eng(f, "act"), *pool = eng(f, "pool");
    push(&f->prog, "pool", with_signal(ins(ISA_OP_NOP), 0, 1));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "act", ins_sem_wait(0, 1));
    run(f, true);
    const struct sim_stats *st = sim_get_stats(f->sim);
    uint64_t dp = c2p(pool, pool->dispatch_cycles), da = c2p(act, act->dispatch_cycles);
    assert_int_equal(st->total_ps, dp + da > 3 * dp ? dp + da : 3 * dp);
    const struct sim_engine_stats *ea = &st->engines[2], *ep = &st->engines[3];
    assert_string_equal(ea->name, "act");
    assert_int_equal(ep->busy_ps, 3 * dp);
    assert_int_equal(ea->wait_ps, dp);
    assert_int_equal(ea->busy_ps, da);
    assert_int_equal(ea->idle_ps, st->total_ps - dp - da);
    assert_int_equal(ea->instructions, 1);
    assert_true(fabs(ep->utilization - (double)(3 * dp) / (double)st->total_ps) < 1e-12);
}


TEST_MAIN(NULL, NULL, TF(test_timing_control_costs_dispatch), TF(test_timing_vector_two_inputs_per_partition_pass),
          TF(test_timing_vector_rate_class_of_dtype), TF(test_timing_activation_transcendental_cost),
          TF(test_timing_matmul_preload_pipeline), TF(test_timing_matmul_exposed_load),
          TF(test_timing_matmul_same_weights_skip_load), TF(test_timing_matmul_overwritten_weights_reload),
          TF(test_timing_matmul_fp8_rate_and_min_stream), TF(test_timing_matmul_fp32_neuron_rate),
          TF(test_timing_matmul_fp32_tpu_passes), TF(test_timing_matmul_scalesim_fold_per_dataflow),
          TF(test_timing_matmul_chain_os_pays_fill_once), TF(test_timing_matmul_chain_os_start_waits_for_drain),
          TF(test_timing_matmul_chain_is_same_moving), TF(test_timing_matmul_chain_ws_same_stationary),
          TF(test_timing_matmul_chain_broken_by_overwrite),
          TF(test_timing_matmul_signal_at_visible), TF(test_timing_dma_sram_to_sram), TF(test_timing_dma_hbm_alone),
          TF(test_timing_dma_contention_shares_hbm), TF(test_timing_dma_share_recomputed_when_one_ends),
          TF(test_timing_stats_busy_wait_idle))
