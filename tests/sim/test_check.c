/* Each check fires with a located message naming the instruction, the
 * engines and the range, and stays quiet on correct programs. */
#include "tests/sim/sim_test_util.h"

struct fx {
    struct chip_desc chip;
    struct isa_program prog;
    struct sim_options opt;
    struct sim *sim;
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    if (!f) return -1;
    tchip_init(&f->chip);
    isa_program_init(&f->prog);
    sim_options_default(&f->opt);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    sim_destroy(f->sim);
    isa_program_deinit(&f->prog);
    free(f);
    return 0;
}


/* Zeros in sp partitions 0..127 bytes [0, 32 KiB) and hbm [0, 1 MiB). */
static void begin(struct fx *f, bool init)
{
    f->sim = tsim_new(&f->chip, &f->opt, &f->prog, NULL, NULL);
    if (!init) return;
    int64_t dims[2] = {128, 32 * 1024};
    tput(f->sim, loc_sp(0, 0), BASE_DT_UI8, 2, dims, NULL);
    int64_t hd[1] = {1 << 20};
    tput(f->sim, loc_hbm(0), BASE_DT_UI8, 1, hd, NULL);
}

static struct isa_instr at_line(struct isa_instr in, uint32_t line)
{
    in.src_line = line;
    return in;
}

static struct isa_instr copy(struct isa_ap dst, struct isa_ap src) { return ins_unary_op(ISA_OP_COPY, 0, dst, src); }

static void test_check_partition_out_of_range(void **state)
{
    struct fx *f = *state;
    f->chip.scratchpad.partitions = 64;
    push(&f->prog, "vec",
         at_line(copy(ap_sp(ISA_SPACE_SP, 32, 64, 0, BASE_DT_F32, 4), ap_sp(ISA_SPACE_SP, 0, 64, 0, BASE_DT_F32, 4)), 3));
    f->opt.check_uninit = false;
    begin(f, false);
    struct base_diag d;
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 0 (copy, line 3)",
                   "partition out of range: writes dst sp partitions 32..95", &d);
    assert_non_null(strstr(d.msg, "64 partitions"));
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 1); /* the instruction's line, from its first column */
}

static void test_check_scratchpad_overflow(void **state)
{
    struct fx *f = *state;
    uint64_t cap = f->chip.scratchpad.bytes_per_partition;
    push(&f->prog, "act", copy(ap_sp(ISA_SPACE_SP, 0, 2, cap - 8, BASE_DT_F32, 4), ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 4)));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "scratchpad overflow: writes dst sp partitions 0..1 bytes [0xfff8, 0x10008)",
                   "a partition has 65536 bytes", NULL);
}

static void test_check_accumulator_overflow(void **state)
{
    struct fx *f = *state;
    uint64_t cap = f->chip.accumulator.bytes_per_partition;
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_ACC, 0, 1, cap, BASE_DT_F32, 1), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 1)));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "accumulator overflow", "acc partitions 0..0", NULL);
}

static void test_check_hbm_out_of_capacity(void **state)
{
    struct fx *f = *state;
    f->chip.hbm.capacity_bytes = 1 << 20;
    push(&f->prog, "dma2", ins_dma(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 64), ap_hbm((1 << 20) - 512, 4, 64, BASE_DT_F32)));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "hbm out of capacity: reads src hbm bytes [0xffe00, 0x100200)",
                   "1048576-byte HBM", NULL);
}

static void test_check_uninitialised_reads(void **state)
{
    struct fx *f = *state;
    /* bytes [0, 16) of partition 5 written, 16..31 not */
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 8, 1024, BASE_DT_F32, 8), ap_sp(ISA_SPACE_SP, 0, 8, 0, BASE_DT_F32, 8)));
    begin(f, false);
    int64_t d2[2] = {1, 4}, d3[2] = {5, 8};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d3, NULL);
    tput(f->sim, loc_sp(5, 0), BASE_DT_F32, 2, d2, NULL);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "uninitialised read: src0 reads sp partition 5 byte 0x10",
                   "which was never written", NULL);
}

static void test_check_uninitialised_hbm_and_accumulator(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "dma0", ins_dma(ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 4), ap_hbm(4096, 1, 4, BASE_DT_F32)));
    begin(f, false);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "uninitialised read: src reads hbm byte 0x1000", NULL, NULL);
    sim_destroy(f->sim);
    isa_program_deinit(&f->prog);
    /* a matmul without start accumulates into never-written acc */
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 4, 0, BASE_DT_F32, 4), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_BF16, 4),
                    ap_sp(ISA_SPACE_SP, 0, 4, 64, BASE_DT_BF16, 4), 0));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "uninitialised read: dst reads acc partition 0 byte 0x0", NULL, NULL);
}

static void test_check_uninit_off_lets_it_run(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "dma0", ins_dma(ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 4), ap_hbm(4096, 1, 4, BASE_DT_F32)));
    f->opt.check_uninit = false;
    begin(f, false);
    tsim_run_ok(f->sim);
}

static void test_check_race_two_dma_writes(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "dma0", at_line(ins_dma(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16), ap_hbm(0, 4, 16, BASE_DT_F32)), 5));
    push(&f->prog, "dma1",
         at_line(ins_dma(ap_sp(ISA_SPACE_SP, 2, 4, 32, BASE_DT_F32, 16), ap_hbm(4096, 4, 16, BASE_DT_F32)), 8));
    begin(f, true);
    struct base_diag d;
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "race", "sp partitions 2..3 bytes [0x20, 0x40)", &d);
    /* located at the second access (dma1's), naming the first */
    assert_non_null(strstr(d.msg, "dma1 instruction 0 (dma, line 8): race: writes dst while dma0 instruction 0 (dma, line 5) writes dst"));
    assert_non_null(strstr(d.msg, "between dma1 and dma0"));
    assert_int_equal(d.line, 8);
}

static void test_check_race_ordered_by_semaphore_is_fine(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "dma0", with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16), ap_hbm(0, 4, 16, BASE_DT_F32)), 9, 1));
    push(&f->prog, "dma1",
         with_wait(ins_dma(ap_sp(ISA_SPACE_SP, 2, 4, 32, BASE_DT_F32, 16), ap_hbm(4096, 4, 16, BASE_DT_F32)), 9, 1));
    push(&f->prog, "vec", with_wait(copy(ap_sp(ISA_SPACE_SP, 0, 8, 4096, BASE_DT_F32, 16),
                                         ap_sp(ISA_SPACE_SP, 0, 8, 0, BASE_DT_F32, 16)),
                                    9, 1)); /* reads dma1's bytes too, unordered */
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "race", "vec", NULL);
    /* and with vec ordered after dma1 as well: clean */
    sim_destroy(f->sim);
    isa_program_deinit(&f->prog);
    push(&f->prog, "dma0", with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16), ap_hbm(0, 4, 16, BASE_DT_F32)), 9, 1));
    push(&f->prog, "dma1",
         with_signal(with_wait(ins_dma(ap_sp(ISA_SPACE_SP, 2, 4, 32, BASE_DT_F32, 16), ap_hbm(4096, 4, 16, BASE_DT_F32)), 9, 1),
                     10, 1));
    push(&f->prog, "vec", with_wait(copy(ap_sp(ISA_SPACE_SP, 0, 8, 4096, BASE_DT_F32, 16),
                                         ap_sp(ISA_SPACE_SP, 0, 8, 0, BASE_DT_F32, 16)),
                                    10, 1));
    begin(f, true);
    tsim_run_ok(f->sim);
}

/* Transitive ordering: a -> b by s1, b -> c by s2 orders a before c. */
static void test_check_race_transitive_order_is_fine(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "pool", with_signal(copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 8),
                                            ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8)),
                                       1, 1));
    push(&f->prog, "act", with_signal(ins_sem_wait(1, 1), 2, 1));
    push(&f->prog, "vec", with_wait(copy(ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8),
                                         ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 8)),
                                    2, 1));
    begin(f, true);
    tsim_run_ok(f->sim);
}

static void test_check_race_read_read_and_interleaved_writes_are_fine(void **state)
{
    struct fx *f = *state;
    /* two engines read the same bytes; two engines write the even and odd
     * elements of one region (overlapping boxes, disjoint bytes) */
    struct isa_ap even = ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 8), odd = even;
    even.stride[0] = 2;
    odd.stride[0] = 2;
    odd.addr += 4;
    push(&f->prog, "vec", copy(even, ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8)));
    push(&f->prog, "pool", copy(odd, ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8)));
    begin(f, true);
    tsim_run_ok(f->sim);
}

static void test_check_race_hbm_across_cores(void **state)
{
    struct fx *f = *state;
    f->chip.cores = 2;
    f->opt.check_uninit = false;
    push(&f->prog, "dma0", ins_dma(ap_hbm(0, 1, 64, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 64)));
    begin(f, true);
    assert_int_equal(sim_load(f->sim, 1, &f->prog, "core1.s", NULL), BASE_OK);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "race", "core 1 dma0", NULL);
}

static void test_check_accumulator_bank(void **state)
{
    struct fx *f = *state;
    uint64_t bank = f->chip.accumulator.bytes_per_partition / f->chip.accumulator.banks;
    push(&f->prog, "pe",
         at_line(ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 4, bank - 64, BASE_DT_F32, 32),
                            ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_BF16, 4), ap_sp(ISA_SPACE_SP, 0, 4, 64, BASE_DT_BF16, 32),
                            ISA_FLAG_START),
                 7));
    begin(f, true);
    struct base_diag d;
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "accumulator bank: dst bytes [0x7c0, 0x840) span banks 0..1",
                   "a bank is 2048 bytes", &d);
    assert_int_equal(d.line, 7);
}

static void test_check_matmul_larger_than_array(void **state)
{
    struct fx *f = *state;
    ((struct chip_engine_desc *)tchip_find(&f->chip, "pe"))->cols = 64;
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 100, 0, BASE_DT_F32, 8), ap_sp(ISA_SPACE_SP, 0, 16, 0, BASE_DT_BF16, 100),
                    ap_sp(ISA_SPACE_SP, 0, 16, 4096, BASE_DT_BF16, 8), ISA_FLAG_START));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_LIMIT, "K x M (weight stationary) = 16 x 100 in a 128 x 64 array", NULL, NULL);
}

static void test_check_unsupported_matmul_type(void **state)
{
    struct fx *f = *state;
    f->chip.matmul_supports[BASE_DT_SI8] = false;
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 4, 0, BASE_DT_F32, 8), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_SI8, 4),
                    ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_BF16, 8), ISA_FLAG_START));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_UNSUPPORTED, "stationary operand is i8", "test-chip", NULL);
}

static void test_check_bad_chip_rejected(void **state)
{
    struct fx *f = *state;
    ((struct chip_engine_desc *)tchip_find(&f->chip, "dma1"))->bytes_per_ns = 0;
    struct sim *s = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(sim_create(&f->chip, NULL, &s, &d), BASE_ERR_INVALID);
    assert_null(s);
    assert_non_null(strstr(d.msg, "engine dma1: bytes_per_ns must be > 0"));
}


/* ------------------------------------------- the checks' caches stay exact */

/* Host data in sp partitions [0, np) bytes [0, bytes). */
static void put_sp(struct fx *f, uint32_t np, int64_t bytes)
{
    int64_t d[2] = {np, bytes};
    tput(f->sim, loc_sp(0, 0), BASE_DT_UI8, 2, d, NULL);
}

static void test_check_uninit_read_just_past_a_cached_box(void **state)
{
    struct fx *f = *state;
    /* the first copy reads (and caches) bytes [0, 64) of partitions 0..3;
     * the second reads one element more */
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)));
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 17), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 17)));
    begin(f, false);
    put_sp(f, 4, 64);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy)",
                   "uninitialised read: src0 reads sp partition 0 byte 0x40", NULL);
}

static void test_check_uninit_partition_past_a_cached_box(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)));
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 5, 8192, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 5, 0, BASE_DT_F32, 16)));
    begin(f, false);
    put_sp(f, 4, 64);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy)",
                   "uninitialised read: src0 reads sp partition 4 byte 0x0", NULL);
}

static void test_check_uninit_strided_read_past_a_cached_box(void **state)
{
    struct fx *f = *state;
    /* every other f32 of bytes [0, 72): the last one, at byte 64, was never written */
    struct isa_ap strided = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 9);
    strided.stride[0] = 2;
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)));
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 9), strided));
    begin(f, false);
    put_sp(f, 4, 64);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy)",
                   "uninitialised read: src0 reads sp partition 0 byte 0x40", NULL);
}

static void test_check_uninit_loop_steps_into_unwritten_bytes(void **state)
{
    struct fx *f = *state;
    /* loop 3 { copy 32 bytes, src stepping 32 }: iteration 2 reads [64, 96) */
    struct isa_instr c = copy(ap_sp(ISA_SPACE_SP, 0, 2, 4096, BASE_DT_F32, 8), ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 8));
    c.src0.loop_step_bytes[0] = 32;
    c.dst.loop_step_bytes[0] = 32;
    push(&f->prog, "vec", ins_loop(3, 1));
    push(&f->prog, "vec", at_line(c, 4));
    begin(f, false);
    put_sp(f, 2, 64);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy, line 4)",
                   "uninitialised read: src0 reads sp partition 0 byte 0x40", NULL);
    assert_int_equal(sim_get_stats(f->sim)->instructions, 3); /* the loop and iterations 0 and 1 ran */
}

static void test_check_uninit_pieces_written_then_read_whole(void **state)
{
    struct fx *f = *state;
    struct isa_instr m0 = ins(ISA_OP_MEMSET), m1 = ins(ISA_OP_MEMSET);
    m0.dst = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 8);
    m1.dst = ap_sp(ISA_SPACE_SP, 0, 4, 32, BASE_DT_F32, 8);
    push(&f->prog, "vec", m0);
    push(&f->prog, "vec", m1);
    /* [0, 64) was written in two pieces: fine */
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 4096, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)));
    /* [0, 68) was not */
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 17), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 17)));
    begin(f, false);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 3 (copy)",
                   "uninitialised read: src0 reads sp partition 0 byte 0x40", NULL);
}

static void test_check_uninit_hbm_read_past_a_cached_range(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "dma0", ins_dma(ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 16), ap_hbm(0, 2, 16, BASE_DT_F32)));
    push(&f->prog, "dma0", ins_dma(ap_sp(ISA_SPACE_SP, 0, 2, 64, BASE_DT_F32, 16), ap_hbm(4, 2, 16, BASE_DT_F32)));
    begin(f, false);
    int64_t hd[1] = {128};
    tput(f->sim, loc_hbm(0), BASE_DT_UI8, 1, hd, NULL);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "dma0 instruction 1 (dma)", "uninitialised read: src reads hbm byte 0x80",
                   NULL);
}

/* Another engine writes a tile one engine reads over and over (its record
 * renewed each iteration), with no ordering. */
static void test_check_race_with_a_repeated_access(void **state)
{
    struct fx *f = *state;
    struct isa_instr big = ins(ISA_OP_MEMSET);
    big.dst = ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_F32, 1024);
    push(&f->prog, "vec", ins_loop(200, 1));
    push(&f->prog, "vec", at_line(copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 16),
                                       ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)),
                                  2));
    struct isa_instr m = ins(ISA_OP_MEMSET);
    m.dst = ap_sp(ISA_SPACE_SP, 2, 1, 32, BASE_DT_F32, 1);
    push(&f->prog, "pool", big); /* while vec loops */
    push(&f->prog, "pool", at_line(m, 9));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "pool instruction 1 (memset, line 9): race: writes dst while vec instruction 1 "
                                           "(copy, line 2) reads src0",
                   "sp partitions 2..2 bytes [0x20, 0x24)", NULL);
}

/* vec reads a tile, signals, works elsewhere, reads it again; pool, ordered
 * after the first read only, writes the tile in between: the second read
 * (same instruction, same addresses) races. */
static void test_check_race_on_a_repeated_access_after_another_write(void **state)
{
    struct fx *f = *state;
    struct isa_instr big = ins(ISA_OP_MEMSET);
    big.dst = ap_sp(ISA_SPACE_SP, 0, 128, 16384, BASE_DT_F32, 4096);
    push(&f->prog, "vec", ins_loop(3, 2));
    push(&f->prog, "vec", at_line(with_signal(copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 16),
                                                   ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)),
                                              0, 1),
                                  3));
    push(&f->prog, "vec", big);
    struct isa_instr m = ins(ISA_OP_MEMSET);
    m.dst = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16);
    push(&f->prog, "pool", at_line(with_wait(m, 0, 1), 7));
    begin(f, true);
    tsim_run_fails(f->sim, BASE_ERR_CHECK, "vec instruction 1 (copy, line 3): race: reads src0 while pool instruction 0 "
                                           "(memset, line 7) writes dst",
                   "between vec and pool", NULL);
    /* found at the second iteration: the loop, copy, memset ran before it */
    const struct sim_stats *st = sim_get_stats(f->sim);
    for (uint32_t i = 0; i < st->n_engines; i++)
        if (!strcmp(st->engines[i].name, "vec")) assert_int_equal(st->engines[i].instructions, 3);
}

static void test_check_repeated_access_then_ordered_write_is_fine(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "vec", ins_loop(100, 1));
    push(&f->prog, "vec", copy(ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16)));
    push(&f->prog, "vec", ins_sem_signal(0, 1));
    struct isa_instr m = ins(ISA_OP_MEMSET);
    m.dst = ap_sp(ISA_SPACE_SP, 0, 4, 0, BASE_DT_F32, 16);
    push(&f->prog, "pool", with_wait(m, 0, 1));
    /* and pool reading what vec wrote: ordered too */
    push(&f->prog, "pool", copy(ap_sp(ISA_SPACE_SP, 0, 4, 12288, BASE_DT_F32, 16), ap_sp(ISA_SPACE_SP, 0, 4, 8192, BASE_DT_F32, 16)));
    begin(f, true);
    tsim_run_ok(f->sim);
    assert_int_equal(sim_get_stats(f->sim)->instructions, 1 + 100 + 1 + 2);
}

TEST_MAIN(NULL, NULL, TF(test_check_partition_out_of_range), TF(test_check_scratchpad_overflow),
          TF(test_check_accumulator_overflow), TF(test_check_hbm_out_of_capacity), TF(test_check_uninitialised_reads),
          TF(test_check_uninitialised_hbm_and_accumulator), TF(test_check_uninit_off_lets_it_run),
          TF(test_check_race_two_dma_writes), TF(test_check_race_ordered_by_semaphore_is_fine),
          TF(test_check_race_transitive_order_is_fine), TF(test_check_race_read_read_and_interleaved_writes_are_fine),
          TF(test_check_race_hbm_across_cores), TF(test_check_accumulator_bank), TF(test_check_matmul_larger_than_array),
          TF(test_check_unsupported_matmul_type), TF(test_check_bad_chip_rejected),
          TF(test_check_uninit_read_just_past_a_cached_box), TF(test_check_uninit_partition_past_a_cached_box),
          TF(test_check_uninit_strided_read_past_a_cached_box), TF(test_check_uninit_loop_steps_into_unwritten_bytes),
          TF(test_check_uninit_pieces_written_then_read_whole), TF(test_check_uninit_hbm_read_past_a_cached_range),
          TF(test_check_race_with_a_repeated_access), TF(test_check_race_on_a_repeated_access_after_another_write),
          TF(test_check_repeated_access_then_ordered_write_is_fine))
