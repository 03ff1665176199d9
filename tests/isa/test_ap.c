/* Access-pattern helpers and structural validation of instructions.
 * Extents are worked out by hand from the address formula in isa/isa.h. */
#include "tests/harness.h"
#include "isa/isa.h"

static struct isa_ap ap2(enum isa_space sp, enum base_dtype dt, uint16_t p0, uint16_t np, uint64_t addr, int64_t s0,
                         uint32_t c0, int64_t s1, uint32_t c1)
{
    struct isa_ap a = {.space = (uint8_t)sp, .dtype = (uint8_t)dt, .ndims = 2, .part_start = p0, .part_count = np,
                       .addr = addr, .stride = {s0, s1}, .count = {c0, c1}};
    return a;
}

static struct isa_ap ap1(enum isa_space sp, enum base_dtype dt, uint16_t np, uint64_t addr, int64_t s0, uint32_t c0)
{
    struct isa_ap a = {.space = (uint8_t)sp, .dtype = (uint8_t)dt, .ndims = 1, .part_count = np, .addr = addr,
                       .stride = {s0}, .count = {c0}};
    return a;
}

static void test_ap_elems(void **state)
{
    (void)state;
    struct isa_ap a = ap2(ISA_SPACE_SP, BASE_DT_BF16, 0, 128, 0x400, 4, 128, 1, 64);
    assert_int_equal(isa_ap_free_elems(&a), 128 * 64);
    assert_int_equal(isa_ap_total_elems(&a), 128 * 128 * 64);
    struct isa_ap one = {.space = ISA_SPACE_SP, .dtype = BASE_DT_F32, .part_count = 7};
    assert_int_equal(isa_ap_free_elems(&one), 1); /* no dims: one element per partition */
    assert_int_equal(isa_ap_total_elems(&one), 7);
}

static void test_ap_extent_positive_strides(void **state)
{
    (void)state;
    /* last element: 0x400 + 2 * (4*127 + 1*63) = 1024 + 1142; one past it: +2 */
    struct isa_ap a = ap2(ISA_SPACE_SP, BASE_DT_BF16, 0, 128, 0x400, 4, 128, 1, 64);
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi);
    assert_int_equal(lo, 1024);
    assert_int_equal(hi, 1024 + 1142 + 2);
}

static void test_ap_extent_negative_stride(void **state)
{
    (void)state;
    /* f32 walking backwards from 1000: elements at 1000, 996, ..., 964 */
    struct isa_ap a = ap1(ISA_SPACE_SP, BASE_DT_F32, 1, 1000, -1, 10);
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi);
    assert_int_equal(lo, 964);
    assert_int_equal(hi, 1004);
}

static void test_ap_extent_broadcast_is_one_element(void **state)
{
    (void)state;
    struct isa_ap a = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 64, 0, 512);
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi);
    assert_int_equal(lo, 64);
    assert_int_equal(hi, 68);
}

static void test_ap_extent_hbm_partition_stride(void **state)
{
    (void)state;
    /* 4 rows of 10 f32, 100 bytes apart: last byte 300 + 36 + 3 */
    struct isa_ap a = ap1(ISA_SPACE_HBM, BASE_DT_F32, 4, 0, 1, 10);
    a.part_stride_bytes = 100;
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 340);
    a.addr = 1000;
    a.part_stride_bytes = -100; /* rows going down */
    isa_ap_extent(&a, &lo, &hi);
    assert_int_equal(lo, 700);
    assert_int_equal(hi, 1040);
}

static void test_ap_extent_over_loop_steps(void **state)
{
    (void)state;
    struct isa_ap a = ap1(ISA_SPACE_SP, BASE_DT_BF16, 128, 0x1000, 1, 512); /* [4096, 5120) */
    a.loop_step_bytes[0] = 1024;
    a.loop_step_bytes[1] = -8192;
    uint32_t trips[2] = {4, 3};
    int64_t lo, hi;
    isa_ap_extent_loops(&a, trips, 1, &lo, &hi); /* inner loop only: 3 more steps of 1024 */
    assert_int_equal(lo, 4096);
    assert_int_equal(hi, 5120 + 3 * 1024);
    a.addr = 0x10000;
    isa_ap_extent_loops(&a, trips, 2, &lo, &hi); /* outer: 2 steps of -8192 */
    assert_int_equal(lo, 65536 - 2 * 8192);
    assert_int_equal(hi, 65536 + 1024 + 3 * 1024);
    int64_t lo0, hi0;
    isa_ap_extent_loops(&a, trips, 0, &lo, &hi);
    isa_ap_extent(&a, &lo0, &hi0);
    assert_int_equal(lo, lo0);
    assert_int_equal(hi, hi0);
}

static void test_ap_extent_never_overflows(void **state)
{
    (void)state;
    struct isa_ap a = ap1(ISA_SPACE_HBM, BASE_DT_F64, 65535, UINT64_MAX, INT64_MAX, UINT32_MAX);
    a.part_stride_bytes = INT64_MIN;
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi); /* saturates, no UB (ubsan build) */
    assert_true(lo <= hi);
}

/* ------------------------------------------------------------------------ */

static struct isa_instr copy_instr(void)
{
    struct isa_instr in = {.op = ISA_OP_COPY};
    in.dst = ap1(ISA_SPACE_SP, BASE_DT_BF16, 128, 0, 1, 64);
    in.src0 = ap1(ISA_SPACE_ACC, BASE_DT_F32, 128, 0, 1, 64);
    return in;
}

static struct isa_instr matmul_instr(void)
{
    struct isa_instr in = {.op = ISA_OP_MATMUL, .flags = ISA_FLAG_START};
    in.dst = ap1(ISA_SPACE_ACC, BASE_DT_F32, 128, 0, 1, 512);   /* M x N */
    in.src0 = ap1(ISA_SPACE_SP, BASE_DT_BF16, 64, 0, 1, 128);   /* K x M */
    in.src1 = ap1(ISA_SPACE_SP, BASE_DT_BF16, 64, 256, 1, 512); /* K x N */
    return in;
}

static void expect_invalid(const struct isa_instr *in, const char *needle)
{
    char why[256];
    assert_int_not_equal(isa_instr_validate(in, why, sizeof why), BASE_OK);
    if (!strstr(why, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", why, needle);
        fail();
    }
}

static void test_validate_accepts_valid(void **state)
{
    (void)state;
    char why[256];
    struct isa_instr a = copy_instr(), m = matmul_instr();
    assert_int_equal(isa_instr_validate(&a, why, sizeof why), BASE_OK);
    assert_int_equal(isa_instr_validate(&m, why, sizeof why), BASE_OK);
    struct isa_instr h = {.op = ISA_OP_HALT};
    assert_int_equal(isa_instr_validate(&h, why, sizeof why), BASE_OK);
}

static void test_validate_rejects_unknown_op(void **state)
{
    (void)state;
    struct isa_instr in = {.op = ISA_OP_COUNT};
    expect_invalid(&in, "unknown op");
}

static void test_validate_rejects_unused_fields(void **state)
{
    (void)state;
    struct isa_instr in = {.op = ISA_OP_NOP};
    in.src1.addr = 4;
    expect_invalid(&in, "must be all 0");
    struct isa_instr c = copy_instr();
    c.imm0 = -0.0; /* bitwise 0 only */
    expect_invalid(&c, "unused immediate");
    c = copy_instr();
    c.count = 3;
    expect_invalid(&c, "has no count");
    c = copy_instr();
    c.func = ISA_ALU_ADD;
    expect_invalid(&c, "takes no function");
}

static void test_validate_rejects_bad_patterns(void **state)
{
    (void)state;
    struct isa_instr c = copy_instr();
    c.dst.ndims = 5;
    expect_invalid(&c, "at most 4");
    c = copy_instr();
    c.dst.count[0] = 0;
    expect_invalid(&c, "count 0");
    c = copy_instr();
    c.dst.part_start = ISA_MAX_PARTITIONS - 64; /* 128 partitions from there run past the last */
    c.src0.part_start = ISA_MAX_PARTITIONS - 64;
    char want[64];
    snprintf(want, sizeof want, "exceed the %d partitions", ISA_MAX_PARTITIONS);
    expect_invalid(&c, want);
    c = copy_instr();
    c.dst.dtype = BASE_DT_C64;
    expect_invalid(&c, "not a memory element type");
    c = copy_instr();
    c.src0.dtype = 250;
    expect_invalid(&c, "unknown element type");
    c = copy_instr();
    c.dst.space = ISA_SPACE_NONE;
    expect_invalid(&c, "memory space");
    c = copy_instr();
    c.dst.part_stride_bytes = 64;
    expect_invalid(&c, "hbm only");
    c = copy_instr();
    c.dst.stride[0] = -1; /* walks below address 0 */
    expect_invalid(&c, "outside [0, 2^48)");
    c = copy_instr();
    c.dst.stride[2] = 1; /* beyond ndims */
    expect_invalid(&c, "beyond");
}

static void test_validate_rejects_hbm_on_compute_engines(void **state)
{
    (void)state;
    struct isa_instr c = copy_instr();
    c.src0.space = ISA_SPACE_HBM;
    expect_invalid(&c, "hbm needs a dma");
}

static void test_validate_matmul_shapes(void **state)
{
    (void)state;
    struct isa_instr m = matmul_instr();
    m.src1.part_count = 32;
    expect_invalid(&m, "(K)");
    m = matmul_instr();
    m.dst.part_count = 64;
    expect_invalid(&m, "M = 128");
    m = matmul_instr();
    m.dst.count[0] = 256;
    expect_invalid(&m, "N = 512");
    m = matmul_instr();
    m.dst.space = ISA_SPACE_SP;
    expect_invalid(&m, "writes acc");
    m = matmul_instr();
    m.src0.dtype = BASE_DT_SI32;
    expect_invalid(&m, "not a matmul type");
    m = matmul_instr();
    m.func = ISA_PREC_HIGH;
    expect_invalid(&m, "f32 operands only");
    m = matmul_instr();
    m.flags = ISA_FLAG_ACCUMULATE;
    expect_invalid(&m, "only modifies start");
}

static void test_validate_funcs(void **state)
{
    (void)state;
    struct isa_instr u = copy_instr();
    u.op = ISA_OP_UNARY;
    u.src0.dtype = BASE_DT_F32;
    u.func = ISA_ALU_ADD;
    expect_invalid(&u, "one-input");
    u.func = ISA_ALU_NEG;
    char why[256];
    assert_int_equal(isa_instr_validate(&u, why, sizeof why), BASE_OK);
    u.func = ISA_ALU_NOT; /* bitwise on floats */
    expect_invalid(&u, "integer elements");
    struct isa_instr r = {.op = ISA_OP_REDUCE, .func = ISA_ALU_SUB, .count = 1};
    r.dst = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 0, 1, 1);
    r.src0 = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 64, 1, 8);
    expect_invalid(&r, "associative");
    r.func = ISA_ALU_MAX;
    assert_int_equal(isa_instr_validate(&r, why, sizeof why), BASE_OK);
    r.count = 2;
    expect_invalid(&r, "innermost dims");
    struct isa_instr a = copy_instr();
    a.op = ISA_OP_ACTIVATE;
    a.func = ISA_ACT_COUNT;
    expect_invalid(&a, "unknown activation");
}

static void test_validate_sync_fields(void **state)
{
    (void)state;
    struct isa_instr in = {.op = ISA_OP_NOP, .wait_sem = 3};
    expect_invalid(&in, "without the wait flag");
    in.flags = ISA_FLAG_WAIT;
    in.wait_sem = ISA_MAX_SEMAPHORES;
    expect_invalid(&in, "out of range");
    struct isa_instr s = {.op = ISA_OP_SEM_SIGNAL};
    expect_invalid(&s, "sem_signal without a signal");
    s.flags = ISA_FLAG_SIGNAL;
    s.signal_sem = 1;
    expect_invalid(&s, "adds 0");
    s.signal_inc = -1;
    char why[256];
    assert_int_equal(isa_instr_validate(&s, why, sizeof why), BASE_OK);
    s.flags |= ISA_FLAG_START;
    expect_invalid(&s, "flag start is not allowed");
}

static void test_validate_loop(void **state)
{
    (void)state;
    struct isa_instr l = {.op = ISA_OP_LOOP, .count = 0, .body = 1};
    expect_invalid(&l, "0 iterations");
    l.count = 2;
    l.body = 0;
    expect_invalid(&l, "empty body");
}

static void test_validate_nan_immediates(void **state)
{
    (void)state;
    struct isa_instr m = {.op = ISA_OP_MEMSET};
    m.dst = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 0, 1, 4);
    uint64_t bits = UINT64_C(0x7ff8000000000001); /* a payload */
    memcpy(&m.imm0, &bits, sizeof bits);
    expect_invalid(&m, "canonical quiet NaN");
    bits = UINT64_C(0xfff8000000000000);
    memcpy(&m.imm0, &bits, sizeof bits);
    char why[256];
    assert_int_equal(isa_instr_validate(&m, why, sizeof why), BASE_OK);
}

static void test_validate_tensor_scalar_scalars(void **state)
{
    (void)state;
    struct isa_instr t = copy_instr();
    t.op = ISA_OP_TENSOR_SCALAR;
    t.src0.dtype = BASE_DT_F32;
    t.func = ISA_ALU_MUL;
    t.imm0 = 2;
    char why[256];
    assert_int_equal(isa_instr_validate(&t, why, sizeof why), BASE_OK);
    t.imm1 = 1; /* no second function, so no scalar1 */
    expect_invalid(&t, "unused immediate");
    t.imm1 = 0;
    t.flags = ISA_FLAG_SCALE_AP; /* scalar0 from src1: one element per partition */
    t.imm0 = 0;
    t.src1 = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 4096, 1, 2);
    expect_invalid(&t, "per-partition scalar");
    t.src1.count[0] = 1;
    assert_int_equal(isa_instr_validate(&t, why, sizeof why), BASE_OK);
    t.imm0 = 3; /* both an AP and an immediate */
    expect_invalid(&t, "unused immediate");
}

/* ------------------------------------------------------------------------ */

static void test_program_streams_by_name(void **state)
{
    (void)state;
    struct isa_program p;
    isa_program_init(&p);
    struct isa_stream *a = isa_program_stream(&p, "pe");
    struct isa_stream *b = isa_program_stream(&p, "dma3");
    assert_non_null(a);
    assert_non_null(b);
    assert_ptr_equal(isa_program_stream(&p, "pe"), a);
    assert_null(isa_program_stream(&p, "a_name_longer_than_15"));
    struct isa_instr nop = {.op = ISA_OP_NOP};
    for (int i = 0; i < 1000; i++) assert_int_equal(isa_stream_push(a, &nop), BASE_OK);
    assert_int_equal(isa_stream_push(b, &nop), BASE_OK);
    assert_int_equal(isa_program_count(&p), 1001);
    char name[16];
    for (int i = 2; i < ISA_MAX_STREAMS; i++) {
        snprintf(name, sizeof name, "q%d", i);
        assert_non_null(isa_program_stream(&p, name));
    }
    assert_null(isa_program_stream(&p, "one_too_many"));
    isa_program_deinit(&p);
    assert_int_equal(p.n_streams, 0);
    isa_program_deinit(&p); /* twice is fine */
}

static void test_program_validate_loop_structure(void **state)
{
    (void)state;
    struct isa_program p;
    isa_program_init(&p);
    struct isa_stream *s = isa_program_stream(&p, "vec");
    struct isa_instr outer = {.op = ISA_OP_LOOP, .count = 2, .body = 3};
    struct isa_instr inner = {.op = ISA_OP_LOOP, .count = 4, .body = 1};
    struct isa_instr m = {.op = ISA_OP_MEMSET};
    m.dst = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 0, 1, 4);
    m.dst.loop_step_bytes[0] = 16;
    m.dst.loop_step_bytes[1] = 64;
    struct isa_instr nop = {.op = ISA_OP_NOP};
    isa_stream_push(s, &outer);
    isa_stream_push(s, &inner);
    isa_stream_push(s, &m);
    isa_stream_push(s, &nop);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_OK);
    isa_program_deinit(&p);

    /* a third level */
    isa_program_init(&p);
    s = isa_program_stream(&p, "vec");
    for (uint32_t body = 3; body >= 1; body--) {
        struct isa_instr l = {.op = ISA_OP_LOOP, .count = 2, .body = body};
        isa_stream_push(s, &l);
    }
    isa_stream_push(s, &nop);
    base_diag_clear(&d);
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_ERR_VERIFY);
    assert_non_null(strstr(d.msg, "deeper than 2"));
    isa_program_deinit(&p);

    /* a step for a loop that does not enclose the instruction */
    isa_program_init(&p);
    s = isa_program_stream(&p, "vec");
    isa_stream_push(s, &m);
    base_diag_clear(&d);
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_ERR_VERIFY);
    assert_non_null(strstr(d.msg, "step for loop level 0"));
    isa_program_deinit(&p);

    /* an inner body running past the outer one */
    isa_program_init(&p);
    s = isa_program_stream(&p, "vec");
    outer.body = 2;
    inner.body = 2;
    isa_stream_push(s, &outer);
    isa_stream_push(s, &inner);
    isa_stream_push(s, &nop);
    isa_stream_push(s, &nop);
    base_diag_clear(&d);
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_ERR_VERIFY);
    assert_non_null(strstr(d.msg, "enclosing loop"));
    isa_program_deinit(&p);
}

static void test_program_validate_addresses_over_iterations(void **state)
{
    (void)state;
    struct isa_program p;
    isa_program_init(&p);
    struct isa_stream *s = isa_program_stream(&p, "vec");
    struct isa_instr loop = {.op = ISA_OP_LOOP, .count = 5, .body = 1};
    struct isa_instr m = {.op = ISA_OP_MEMSET};
    m.dst = ap1(ISA_SPACE_SP, BASE_DT_F32, 128, 256, 1, 4);
    m.dst.loop_step_bytes[0] = -64; /* iteration 4 starts at 0: fine */
    isa_stream_push(s, &loop);
    isa_stream_push(s, &m);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_OK);
    s->instrs[0].count = 6; /* iteration 5 would start at -64 */
    assert_int_equal(isa_program_validate(&p, "x", &d), BASE_ERR_VERIFY);
    assert_non_null(strstr(d.msg, "over the loop iterations"));
    isa_program_deinit(&p);
}

TEST_MAIN(NULL, NULL, T(test_ap_elems), T(test_ap_extent_positive_strides), T(test_ap_extent_negative_stride),
          T(test_ap_extent_broadcast_is_one_element), T(test_ap_extent_hbm_partition_stride),
          T(test_ap_extent_over_loop_steps), T(test_ap_extent_never_overflows), T(test_validate_accepts_valid),
          T(test_validate_rejects_unknown_op), T(test_validate_rejects_unused_fields),
          T(test_validate_rejects_bad_patterns), T(test_validate_rejects_hbm_on_compute_engines),
          T(test_validate_matmul_shapes), T(test_validate_funcs), T(test_validate_sync_fields),
          T(test_validate_loop), T(test_validate_nan_immediates), T(test_validate_tensor_scalar_scalars),
          T(test_program_streams_by_name), T(test_program_validate_loop_structure),
          T(test_program_validate_addresses_over_iterations))
