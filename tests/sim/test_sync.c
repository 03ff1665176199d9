/* Semaphores, deadlock detection, loops (nesting, stepped addresses and
 * waits) and program loading. */
#include "tests/sim/sim_test_util.h"

struct fx {
    struct chip_desc chip;
    struct isa_program prog;
    struct trec rec;
    struct sim_hooks hooks;
    struct sim *sim;
};

SIM_TEST_FIXTURE(struct fx)


static const struct chip_engine_desc *eng(struct fx *f, const char *name) { return tchip_find(&f->chip, name); }

static void begin(struct fx *f) { f->sim = tsim_new(&f->chip, NULL, &f->prog, &f->rec, &f->hooks); }

static void test_sync_wait_blocks_until_signals_add_up(void **state)
{
    struct fx *f = *state;
    /* pool signals s5 twice (+1 each); act waits for s5 >= 2 */
    push(&f->prog, "pool", with_signal(ins(ISA_OP_NOP), 5, 1));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "pool", with_signal(ins(ISA_OP_NOP), 5, 1));
    push(&f->prog, "act", with_wait(ins(ISA_OP_NOP), 5, 2));
    begin(f);
    tsim_run_ok(f->sim);
    const struct chip_engine_desc *pool = eng(f, "pool");
    uint64_t d = c2p(pool, pool->dispatch_cycles);
    assert_int_equal(trec_find(&f->rec, "pool", 2)->visible_ps, 3 * d);
    assert_int_equal(trec_find(&f->rec, "act", 0)->start_ps, 3 * d);
}

static void test_sync_satisfied_wait_does_not_block(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "act", ins_sem_wait(7, 0)); /* 0 >= 0 */
    push(&f->prog, "act", ins(ISA_OP_NOP));
    begin(f);
    tsim_run_ok(f->sim);
    const struct chip_engine_desc *act = eng(f, "act");
    assert_int_equal(trec_find(&f->rec, "act", 1)->start_ps, c2p(act, act->dispatch_cycles));
    assert_int_equal(f->rec.nwait, 0);
}

static void test_sync_deadlock_names_engines_and_semaphores(void **state)
{
    struct fx *f = *state;
    struct isa_instr w1 = ins_sem_wait(1, 1), w2 = ins_sem_wait(2, 3);
    w1.src_line = 4;
    w2.src_line = 9;
    push(&f->prog, "pe", w1);
    push(&f->prog, "act", ins(ISA_OP_NOP));
    push(&f->prog, "act", w2);
    push(&f->prog, "vec", with_signal(ins(ISA_OP_NOP), 2, 1)); /* only 1 of 3 */
    begin(f);
    struct base_diag d;
    tsim_run_fails(f->sim, BASE_ERR_RUNTIME, "deadlock", "pe instruction 0 (sem_wait, line 4) waits for s1 >= 1 (s1 is 0)",
                   &d);
    if (!strstr(d.msg, "act instruction 1 (sem_wait, line 9) waits for s2 >= 3 (s2 is 1)"))
        fail_msg("message: %s", d.msg);
    assert_int_equal(d.line, 4);
    assert_int_equal(d.col, 1);
    assert_string_equal(d.file, "test.s");
}

static void test_sync_cycle_of_waits_deadlocks(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "pe", with_signal(ins_sem_wait(1, 1), 2, 1));
    push(&f->prog, "vec", with_signal(ins_sem_wait(2, 1), 1, 1));
    begin(f);
    tsim_run_fails(f->sim, BASE_ERR_RUNTIME, "2 engines wait", "vec instruction 0", NULL);
}

static void test_sync_nested_loops_execute_without_unrolling(void **state)
{
    struct fx *f = *state;
    /* loop 3 { nop; loop 2 { nop }; nop } */
    push(&f->prog, "pool", ins_loop(3, 4));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "pool", ins_loop(2, 1));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "pool", ins(ISA_OP_NOP));
    push(&f->prog, "pool", ins(ISA_OP_HALT));
    push(&f->prog, "pool", ins(ISA_OP_NOP)); /* after halt: never runs */
    begin(f);
    tsim_run_ok(f->sim);
    const struct chip_engine_desc *pool = eng(f, "pool");
    /* 1 + 3 * (1 + 1 + 2 + 1) + halt */
    uint64_t n = 1 + 3 * 5 + 1;
    assert_int_equal(sim_get_stats(f->sim)->instructions, n);
    assert_int_equal(sim_get_stats(f->sim)->total_ps, n * c2p(pool, pool->dispatch_cycles));
    assert_int_equal(f->rec.n, (int)n);
    /* the inner body ran with loop_iter = {inner, outer} */
    const struct sim_instr_record *last_inner = NULL;
    for (int i = 0; i < f->rec.n; i++)
        if (f->rec.r[i].stream_index == 3) last_inner = &f->rec.r[i];
    assert_non_null(last_inner);
    assert_int_equal(last_inner->loop_iter[0], 1);
    assert_int_equal(last_inner->loop_iter[1], 2);
}

/* Double buffering in loops: the producer (dma0) fills buffer i % 2 and
 * signals s0; the consumer (vec) waits s0 >= i + 1 (wait_step), reads it and
 * signals s1; the producer waits s1 >= i - 1 before reusing a buffer.
 * Correctly synchronised: no race, and the values arrive. */
static void build_pipeline(struct fx *f, bool backpressure, uint32_t iters)
{
    struct isa_instr d = ins_dma(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8), ap_hbm(0, 4, 8, BASE_DT_F32));
    d.src0.loop_step_bytes[0] = 4 * 8 * 4;
    /* buffer i % 2: the inner loop of 2 steps 128 bytes, the outer loop walks hbm */
    d.dst.loop_step_bytes[0] = 128;
    d.src0.loop_step_bytes[1] = 2 * 4 * 8 * 4;
    d.src0.loop_step_bytes[0] = 4 * 8 * 4;
    d = with_signal(d, 0, 1);
    if (backpressure) {
        d = with_wait(d, 1, -1);
        d.wait_step[0] = 1;
        d.wait_step[1] = 2;
    }
    push(&f->prog, "dma0", ins_loop(iters / 2, 2));
    push(&f->prog, "dma0", ins_loop(2, 1));
    push(&f->prog, "dma0", d);
    struct isa_instr t = ins(ISA_OP_TENSOR_SCALAR);
    t.func = ISA_ALU_ADD;
    t.imm0 = 1000;
    t.src0 = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8);
    t.src0.loop_step_bytes[0] = 128;
    t.dst = ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 8);
    t.dst.loop_step_bytes[0] = 32;
    t.dst.loop_step_bytes[1] = 64;
    t = with_signal(with_wait(t, 0, 1), 1, 1);
    t.wait_step[0] = 1;
    t.wait_step[1] = 2;
    push(&f->prog, "vec", ins_loop(iters / 2, 2));
    push(&f->prog, "vec", ins_loop(2, 1));
    push(&f->prog, "vec", t);
}

static void test_sync_double_buffered_loops_are_race_free(void **state)
{
    struct fx *f = *state;
    enum { ITERS = 8 };
    build_pipeline(f, true, ITERS);
    begin(f);
    int64_t dims[1] = {ITERS * 32};
    double v[ITERS * 32];
    for (int i = 0; i < ITERS * 32; i++) v[i] = i;
    tput(f->sim, loc_hbm(0), BASE_DT_F32, 1, dims, v);
    tsim_run_ok(f->sim);
    /* iteration i wrote partition p, elements [8 i, 8 i + 8) of the 4 KiB output row */
    int64_t od[2] = {4, ITERS * 8};
    struct base_tensor *t = tget(f->sim, loc_sp(0, 4096), BASE_DT_F32, 2, od);
    const float *o = t->data;
    for (int i = 0; i < ITERS; i++)
        for (int p = 0; p < 4; p++)
            for (int k = 0; k < 8; k++) {
                double want = i * 32 + p * 8 + k + 1000;
                if (o[p * ITERS * 8 + i * 8 + k] != want)
                    fail_msg("iteration %d partition %d element %d: %g, want %g", i, p, k, o[p * ITERS * 8 + i * 8 + k],
                             want);
            }
    base_tensor_release(t);
    assert_int_equal(f->rec.n, 2 * (1 + ITERS / 2 + ITERS));
}

static void test_sync_missing_backpressure_is_a_race(void **state)
{
    struct fx *f = *state;
    build_pipeline(f, false, 8);
    begin(f);
    int64_t dims[1] = {8 * 32};
    tput(f->sim, loc_hbm(0), BASE_DT_F32, 1, dims, NULL);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "race", "no semaphore ordering between", NULL);
}

static void test_sync_load_rejects_unknown_engine_and_wrong_kind(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "mxu7", ins(ISA_OP_NOP));
    struct sim *s = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(sim_create(&f->chip, NULL, &s, &d), BASE_OK);
    assert_int_equal(sim_load(s, 0, &f->prog, "x.s", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "mxu7"));
    assert_non_null(strstr(d.msg, "dma3"));
    isa_program_deinit(&f->prog);
    struct isa_instr m = ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 1, 0, BASE_DT_F32, 1), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_BF16, 1),
                                    ap_sp(ISA_SPACE_SP, 0, 1, 64, BASE_DT_BF16, 1), ISA_FLAG_START);
    m.src_line = 12;
    push(&f->prog, "vec", m);
    base_diag_clear(&d);
    assert_int_equal(sim_load(s, 0, &f->prog, "x.s", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "matmul cannot run on vec"));
    assert_int_equal(d.line, 12);
    sim_destroy(s);
}

static void test_sync_two_runs_are_identical(void **state)
{
    struct fx *f = *state;
    build_pipeline(f, true, 8);
    struct sim_stats a, b;
    struct sim_engine_stats ea[CHIP_MAX_ENGINES], eb[CHIP_MAX_ENGINES];
    for (int run = 0; run < 2; run++) {
        sim_destroy(f->sim);
        begin(f);
        int64_t dims[1] = {8 * 32};
        tput(f->sim, loc_hbm(0), BASE_DT_F32, 1, dims, NULL);
        tsim_run_ok(f->sim);
        const struct sim_stats *st = sim_get_stats(f->sim);
        *(run ? &b : &a) = *st;
        memcpy(run ? eb : ea, st->engines, st->n_engines * sizeof *ea);
    }
    assert_int_equal(a.total_ps, b.total_ps);
    assert_int_equal(a.events, b.events);
    assert_int_equal(a.hbm_bytes, b.hbm_bytes);
    assert_memory_equal(ea, eb, a.n_engines * sizeof *ea);
}


/* A wait synchronises with the first signals that reached its target even
 * when a later signal lowered the count and another raised it again (the
 * history is then not ascending): reading what the last signaller wrote is
 * still a race. */
static void test_sync_wait_joins_the_first_signals_despite_a_decrement(void **state)
{
    struct fx *f = *state;
    struct isa_instr x = ins(ISA_OP_MEMSET), y = ins(ISA_OP_MEMSET), big = ins(ISA_OP_MEMSET);
    x.dst = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16);
    y.dst = ap_sp(ISA_SPACE_SP, 0, 4, 1024, BASE_DT_F32, 16);
    big.dst = ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_F32, 4096);
    push(&f->prog, "pool", with_signal(x, 1, 1));  /* s1 = 1 */
    push(&f->prog, "pool", ins_sem_signal(1, -1)); /* s1 = 0 */
    push(&f->prog, "pool", with_signal(y, 1, 2));  /* s1 = 2 */
    push(&f->prog, "vec", big);                    /* long: every signal has fired by its end */
    push(&f->prog, "vec", with_wait(ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16),
                                                 ap_sp(ISA_SPACE_SP, 0, 4, 1024, BASE_DT_F32, 16)),
                                    1, 1));
    begin(f);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy): race: reads src0 while pool instruction 2 (memset) "
                                           "writes dst",
                   NULL, NULL);
    /* reading what the first signaller wrote is ordered */
    sim_destroy(f->sim);
    isa_program_deinit(&f->prog);
    push(&f->prog, "pool", with_signal(x, 1, 1));
    push(&f->prog, "pool", ins_sem_signal(1, -1));
    push(&f->prog, "pool", with_signal(y, 1, 2));
    push(&f->prog, "vec", big);
    push(&f->prog, "vec", with_wait(ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16),
                                                 ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)),
                                    1, 1));
    begin(f);
    tsim_run_ok(f->sim);
}

/* Ascending counts (the common case): a wait for >= 3 joins the third
 * signal's clock, not the first's, and not the fourth's. */
static void test_sync_wait_joins_the_signal_that_reached_its_target(void **state)
{
    struct fx *f = *state;
    struct isa_instr big = ins(ISA_OP_MEMSET);
    big.dst = ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_F32, 4096);
    for (int i = 0; i < 5; i++) {
        struct isa_instr m = ins(ISA_OP_MEMSET);
        m.dst = ap_sp(ISA_SPACE_SP, 0, 4, (uint64_t)i * 256, BASE_DT_F32, 16);
        push(&f->prog, "pool", with_signal(m, 2, 1)); /* s2 = i + 1 after tile i */
    }
    push(&f->prog, "vec", big);
    /* tiles 0..2 are ordered before a wait for s2 >= 3 */
    push(&f->prog, "vec", with_wait(ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16),
                                                 ap_sp(ISA_SPACE_SP, 0, 4, 512, BASE_DT_F32, 16)),
                                    2, 3));
    /* tile 3 is not */
    push(&f->prog, "vec", ins_unary_op(ISA_OP_COPY, 0, ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 16),
                                       ap_sp(ISA_SPACE_SP, 0, 4, 768, BASE_DT_F32, 16)));
    begin(f);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 2 (copy): race: reads src0 while pool instruction 3 (memset) "
                                           "writes dst",
                   NULL, NULL);
}

TEST_MAIN(NULL, NULL, TF(test_sync_wait_blocks_until_signals_add_up), TF(test_sync_satisfied_wait_does_not_block),
          TF(test_sync_deadlock_names_engines_and_semaphores), TF(test_sync_cycle_of_waits_deadlocks),
          TF(test_sync_nested_loops_execute_without_unrolling), TF(test_sync_double_buffered_loops_are_race_free),
          TF(test_sync_missing_backpressure_is_a_race), TF(test_sync_load_rejects_unknown_engine_and_wrong_kind),
          TF(test_sync_two_runs_are_identical), TF(test_sync_wait_joins_the_first_signals_despite_a_decrement),
          TF(test_sync_wait_joins_the_signal_that_reached_its_target))
