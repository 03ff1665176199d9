/* A sequence of launches on one simulation (sim_run again after sim_load,
 * sim_advance, sim_now_ps): time continues, semaphores restart, memory and
 * statistics carry over, a launch boundary is a full barrier for the race
 * check (sim/core.c). */
#include "tests/sim/sim_test_util.h"

struct lx {
    struct chip_desc chip;
    struct trec rec;
    struct sim_hooks hooks;
    struct sim *sim;
    struct isa_program a, b;
};

static int setup(void **state)
{
    struct lx *f = calloc(1, sizeof *f);
    if (!f) return -1;
    tchip_init(&f->chip);
    isa_program_init(&f->a);
    isa_program_init(&f->b);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct lx *f = *state;
    sim_destroy(f->sim);
    isa_program_deinit(&f->a);
    isa_program_deinit(&f->b);
    free(f);
    return 0;
}

static void load(struct lx *f, uint32_t core, struct isa_program *p)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_load(f->sim, core, p, "test.s", &d) != BASE_OK) fail_msg("sim_load: %s", d.msg);
}

/* 128 x n f32 memset on vec: its duration by docs/timing.md section 6. */
static struct isa_instr memset_sp(uint64_t addr, uint32_t n)
{
    struct isa_instr m = ins(ISA_OP_MEMSET);
    m.dst = ap_sp(ISA_SPACE_SP, 0, 128, addr, BASE_DT_F32, n);
    return m;
}

static uint64_t memset_ps(const struct lx *f, uint32_t n)
{
    const struct chip_engine_desc *v = tchip_find(&f->chip, "vec");
    return c2p(v, v->dispatch_cycles + (uint64_t)ceil((double)n / v->elems_per_cycle[CHIP_RATE_FP32]));
}

static void test_launch_time_continues_from_the_last_end(void **state)
{
    struct lx *f = *state;
    push(&f->a, "vec", memset_sp(0, 512));
    push(&f->b, "vec", memset_sp(4096, 256));
    f->sim = tsim_new(&f->chip, NULL, &f->a, &f->rec, &f->hooks);
    tsim_run_ok(f->sim);
    uint64_t end_a = sim_now_ps(f->sim);
    assert_int_equal(end_a, memset_ps(f, 512));
    assert_int_equal(sim_get_stats(f->sim)->total_ps, end_a);
    load(f, 0, &f->b);
    tsim_run_ok(f->sim);
    /* b's instruction starts where a ended */
    assert_int_equal(f->rec.n, 2);
    assert_int_equal(f->rec.r[1].start_ps, end_a);
    assert_int_equal(sim_now_ps(f->sim), end_a + memset_ps(f, 256));
    assert_int_equal(sim_get_stats(f->sim)->total_ps, sim_now_ps(f->sim));
}

static void test_launch_advance_adds_idle_time(void **state)
{
    struct lx *f = *state;
    push(&f->a, "vec", memset_sp(0, 512));
    push(&f->b, "vec", memset_sp(0, 512));
    f->sim = tsim_new(&f->chip, NULL, &f->a, &f->rec, &f->hooks);
    struct base_diag d;
    base_diag_clear(&d);
    const uint64_t host_ps = 20000000; /* a 20 us host dispatch */
    assert_int_equal(sim_advance(f->sim, host_ps, &d), BASE_OK); /* before the first launch too */
    tsim_run_ok(f->sim);
    assert_int_equal(f->rec.r[0].start_ps, host_ps);
    assert_int_equal(sim_advance(f->sim, host_ps, &d), BASE_OK);
    uint64_t t = 2 * host_ps + memset_ps(f, 512);
    assert_int_equal(sim_now_ps(f->sim), t);
    const struct sim_stats *st = sim_get_stats(f->sim);
    assert_int_equal(st->total_ps, t); /* idle time counts in the total */
    load(f, 0, &f->b);
    tsim_run_ok(f->sim);
    assert_int_equal(f->rec.r[1].start_ps, t);
    st = sim_get_stats(f->sim);
    const struct sim_engine_stats *vec = &st->engines[1];
    assert_string_equal(vec->name, "vec");
    /* busy time and instructions add up over launches; the rest is idle */
    assert_int_equal(vec->busy_ps, 2 * memset_ps(f, 512));
    assert_int_equal(vec->instructions, 2);
    assert_int_equal(vec->idle_ps, st->total_ps - vec->busy_ps - vec->wait_ps);
}

/* b waits for s0 >= 1; a left s0 at 2.  Semaphores restart at 0, so b's
 * pool blocks until b's own vec signals. */
static void test_launch_semaphores_restart_at_zero(void **state)
{
    struct lx *f = *state;
    push(&f->a, "vec", ins_sem_signal(0, 2));
    push(&f->b, "vec", with_signal(memset_sp(0, 512), 0, 1));
    push(&f->b, "pool", ins_sem_wait(0, 1));
    f->sim = tsim_new(&f->chip, NULL, &f->a, &f->rec, &f->hooks);
    tsim_run_ok(f->sim);
    uint64_t t0 = sim_now_ps(f->sim);
    load(f, 0, &f->b);
    tsim_run_ok(f->sim);
    assert_int_equal(f->rec.nwait, 1);
    assert_string_equal(f->rec.w[0].engine_name, "pool");
    assert_int_equal(f->rec.w[0].start_ps, t0);
    assert_int_equal(f->rec.w[0].end_ps, t0 + memset_ps(f, 512));
}

/* dma0 writes HBM bytes in a; dma1 overwrites them in b with no semaphore:
 * in one launch that is a race, across launches it is ordered. */
static void test_launch_boundary_orders_accesses(void **state)
{
    struct lx *f = *state;
    struct sim_options o;
    sim_options_default(&o);
    o.check_races = true;
    push(&f->a, "vec", with_signal(memset_sp(0, 64), 0, 1));
    push(&f->a, "dma0", with_wait(ins_dma(ap_hbm(0, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 64)), 0, 1));
    push(&f->b, "vec", with_signal(memset_sp(0, 64), 0, 1));
    push(&f->b, "dma1", with_wait(ins_dma(ap_hbm(0, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 64)), 0, 1));
    f->sim = tsim_new(&f->chip, &o, &f->a, NULL, NULL);
    tsim_run_ok(f->sim);
    load(f, 0, &f->b);
    tsim_run_ok(f->sim);
    sim_destroy(f->sim);
    /* the same two writes in one launch race */
    struct isa_program both;
    isa_program_init(&both);
    push(&both, "vec", with_signal(memset_sp(0, 64), 0, 1));
    push(&both, "dma0", with_wait(ins_dma(ap_hbm(0, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 64)), 0, 1));
    push(&both, "dma1", with_wait(ins_dma(ap_hbm(0, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 64)), 0, 1));
    f->sim = tsim_new(&f->chip, &o, &both, NULL, NULL);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "race", NULL, NULL);
    isa_program_deinit(&both);
}

/* Values written in one launch are read in the next; the uninitialised-read
 * check remembers what was written. */
static void test_launch_memory_carries_over(void **state)
{
    struct lx *f = *state;
    struct isa_instr set = memset_sp(0, 64);
    set.imm0 = 2.5;
    push(&f->a, "vec", with_signal(set, 0, 1));
    push(&f->a, "dma0", with_wait(ins_dma(ap_hbm(8192, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 0, BASE_DT_F32, 64)), 0, 1));
    /* b: HBM -> another place in sp -> HBM elsewhere */
    push(&f->b, "dma1", with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 128, 1024, BASE_DT_F32, 64), ap_hbm(8192, 128, 64, BASE_DT_F32)), 0, 1));
    push(&f->b, "dma2", with_wait(ins_dma(ap_hbm(65536, 128, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 128, 1024, BASE_DT_F32, 64)), 0, 1));
    f->sim = tsim_new(&f->chip, NULL, &f->a, NULL, NULL);
    tsim_run_ok(f->sim);
    load(f, 0, &f->b);
    tsim_run_ok(f->sim);
    int64_t dims[2] = {128, 64};
    struct base_tensor *t = tget(f->sim, (struct sim_loc){ISA_SPACE_HBM, 0, 0, 65536}, BASE_DT_F32, 2, dims);
    for (int64_t i = 0; i < t->count; i++) assert_true(((float *)t->data)[i] == 2.5f);
    base_tensor_release(t);
}

/* A launch runs only what was loaded for it: the previous run's programs
 * are unloaded when it returns. */
static void test_launch_runs_only_the_new_programs(void **state)
{
    struct lx *f = *state;
    f->chip.cores = 2;
    push(&f->a, "vec", memset_sp(0, 512));
    push(&f->b, "vec", memset_sp(0, 256));
    f->sim = tsim_new(&f->chip, NULL, &f->a, &f->rec, &f->hooks);
    load(f, 1, &f->a);
    tsim_run_ok(f->sim);
    assert_int_equal(f->rec.n, 2);
    load(f, 1, &f->b);
    tsim_run_ok(f->sim);
    assert_int_equal(f->rec.n, 3);
    assert_int_equal(f->rec.r[2].core, 1);
    assert_int_equal(sim_get_stats(f->sim)->instructions, 3);
    /* nothing loaded: a run that does nothing */
    uint64_t t = sim_now_ps(f->sim);
    tsim_run_ok(f->sim);
    assert_int_equal(sim_now_ps(f->sim), t);
    assert_int_equal(f->rec.n, 3);
}

/* After a failed run the simulation refuses more work. */
static void test_launch_after_a_failure_is_refused(void **state)
{
    struct lx *f = *state;
    push(&f->a, "pool", ins_sem_wait(0, 1)); /* deadlock */
    push(&f->b, "vec", memset_sp(0, 64));
    f->sim = tsim_new(&f->chip, NULL, &f->a, NULL, NULL);
    tsim_run_fails(f->sim, BASE_ERR_RUNTIME, "deadlock", NULL, NULL);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(sim_load(f->sim, 0, &f->b, "b.s", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "earlier run"));
}

#define TL(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
TEST_MAIN(NULL, NULL, TL(test_launch_time_continues_from_the_last_end), TL(test_launch_advance_adds_idle_time),
          TL(test_launch_semaphores_restart_at_zero), TL(test_launch_boundary_orders_accesses),
          TL(test_launch_memory_carries_over), TL(test_launch_runs_only_the_new_programs),
          TL(test_launch_after_a_failure_is_refused))
