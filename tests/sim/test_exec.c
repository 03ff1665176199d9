/* Functional results of every op against hand-computed values (and the
 * matmul against a plain loop with the documented numerics). */
#include "tests/sim/sim_test_util.h"

struct fx {
    struct chip_desc chip;
    struct isa_program prog;
    struct sim *sim;
};

SIM_TEST_FIXTURE(struct fx)


static void begin(struct fx *f) { f->sim = tsim_new(&f->chip, NULL, &f->prog, NULL, NULL); }

/* Values of a P x F tensor read back as doubles. */
static void expect_vals(struct fx *f, struct sim_loc loc, enum base_dtype dt, int64_t P, int64_t F, const double *want,
                        double tol)
{
    int64_t dims[2] = {P, F};
    struct base_tensor *t = tget(f->sim, loc, dt, 2, dims);
    for (int64_t i = 0; i < P * F; i++) {
        double g = base_elem_get_f64(dt, t->data, (size_t)i);
        bool ok = isnan(want[i]) ? isnan(g)
                                 : g == want[i] || fabs(g - want[i]) <= tol * (fabs(want[i]) > 1 ? fabs(want[i]) : 1);
        if (!ok) {
            base_tensor_release(t);
            fail_msg("element %lld: got %.9g, want %.9g", (long long)i, g, want[i]);
        }
    }
    base_tensor_release(t);
}

/* --------------------------------------------------------------- matmul */

static float ref_bf16(float v) { return base_bf16_to_f32(base_f32_to_bf16(v)); }

static void test_exec_matmul_small_by_hand(void **state)
{
    struct fx *f = *state;
    /* stationary [K=2, M=2] = [[1, 2], [3, 4]]; moving [K=2, N=3] = [[1, 0, 2], [0, 1, 1]]
     * dst[M, N] = st^T @ mv = [[1, 3, 5], [2, 4, 8]] */
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 2, 0, BASE_DT_F32, 3), ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_BF16, 2),
                    ap_sp(ISA_SPACE_SP, 0, 2, 64, BASE_DT_BF16, 3), ISA_FLAG_START));
    begin(f);
    int64_t ds[2] = {2, 2}, dm[2] = {2, 3};
    double st[] = {1, 2, 3, 4}, mv[] = {1, 0, 2, 0, 1, 1};
    tput(f->sim, loc_sp(0, 0), BASE_DT_BF16, 2, ds, st);
    tput(f->sim, loc_sp(0, 64), BASE_DT_BF16, 2, dm, mv);
    tsim_run_ok(f->sim);
    double want[] = {1, 3, 5, 2, 4, 8};
    expect_vals(f, loc_acc(0, 0), BASE_DT_F32, 2, 3, want, 0);
}

/* Random bf16 K x M and K x N, accumulated over two matmuls (start, then
 * accumulate), against one f32 running sum over both K tiles in k order. */
static void test_exec_matmul_random_matches_plain_loop(void **state)
{
    struct fx *f = *state;
    enum { K = 128, M = 100, N = 200 };
    uint64_t seed = test_seed();
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, M, 0, BASE_DT_F32, N), ap_sp(ISA_SPACE_SP, 0, K, 0, BASE_DT_BF16, M),
                    ap_sp(ISA_SPACE_SP, 0, K, 1024, BASE_DT_BF16, N), ISA_FLAG_START));
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, M, 0, BASE_DT_F32, N), ap_sp(ISA_SPACE_SP, 0, K, 4096, BASE_DT_BF16, M),
                    ap_sp(ISA_SPACE_SP, 0, K, 1024, BASE_DT_BF16, N), ISA_FLAG_STOP));
    begin(f);
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    static double a0[K * M], a1[K * M], b[K * N];
    for (int i = 0; i < K * M; i++) a0[i] = ref_bf16((float)base_rng_normal(&rng));
    for (int i = 0; i < K * M; i++) a1[i] = ref_bf16((float)base_rng_normal(&rng));
    for (int i = 0; i < K * N; i++) b[i] = ref_bf16((float)base_rng_normal(&rng));
    int64_t da[2] = {K, M}, db[2] = {K, N};
    tput(f->sim, loc_sp(0, 0), BASE_DT_BF16, 2, da, a0);
    tput(f->sim, loc_sp(0, 4096), BASE_DT_BF16, 2, da, a1);
    tput(f->sim, loc_sp(0, 1024), BASE_DT_BF16, 2, db, b);
    tsim_run_ok(f->sim);
    int64_t dd[2] = {M, N};
    struct base_tensor *t = tget(f->sim, loc_acc(0, 0), BASE_DT_F32, 2, dd);
    const float *got = t->data;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            float want = 0;
            for (int k = 0; k < K; k++) want += (float)a0[k * M + m] * (float)b[k * N + n];
            for (int k = 0; k < K; k++) want += (float)a1[k * M + m] * (float)b[k * N + n];
            if (memcmp(&want, &got[m * N + n], 4))
                fail_msg("seed %llu: dst[%d][%d] = %.9g, want %.9g", (unsigned long long)seed, m, n, got[m * N + n],
                         want);
        }
    base_tensor_release(t);
}

static void test_exec_matmul_start_acc_keeps_dst(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 1, 0, BASE_DT_F32, 2), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_BF16, 1),
                    ap_sp(ISA_SPACE_SP, 0, 1, 64, BASE_DT_BF16, 2), ISA_FLAG_START | ISA_FLAG_ACCUMULATE));
    begin(f);
    int64_t d1[2] = {1, 1}, d2[2] = {1, 2};
    double st[] = {2}, mv[] = {3, -1}, acc[] = {10, 20};
    tput(f->sim, loc_sp(0, 0), BASE_DT_BF16, 2, d1, st);
    tput(f->sim, loc_sp(0, 64), BASE_DT_BF16, 2, d2, mv);
    tput(f->sim, loc_acc(0, 0), BASE_DT_F32, 2, d2, acc);
    tsim_run_ok(f->sim);
    double want[] = {16, 18};
    expect_vals(f, loc_acc(0, 0), BASE_DT_F32, 1, 2, want, 0);
}

/* f32 inputs: default rounds to bf16 (1 pass), high keeps bf16x3 accuracy. */
static void test_exec_matmul_fp32_precision_passes(void **state)
{
    struct fx *f = *state;
    f->chip.family = CHIP_FAMILY_TPU;
    struct isa_instr d = ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 1, 0, BASE_DT_F32, 1),
                                    ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 1),
                                    ap_sp(ISA_SPACE_SP, 0, 1, 64, BASE_DT_F32, 1), ISA_FLAG_START);
    struct isa_instr h = d, hh = d;
    h.dst.addr = 64;
    h.func = ISA_PREC_HIGH;
    hh.dst.addr = 128;
    hh.func = ISA_PREC_HIGHEST;
    push(&f->prog, "pe", d);
    push(&f->prog, "pe", h);
    push(&f->prog, "pe", hh);
    begin(f);
    int64_t d1[2] = {1, 1};
    double x = 1 + ldexp(1, -10) + ldexp(1, -20), y = 3;
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d1, &x);
    tput(f->sim, loc_sp(0, 64), BASE_DT_F32, 2, d1, &y);
    tsim_run_ok(f->sim);
    /* bf16 keeps 8 significant bits: x = 1 + 2^-10 + 2^-20 splits into 1, 2^-10, 2^-20 */
    double hi = 1, lo = ldexp(1, -10);
    double want_default[] = {hi * y};
    double want_high[] = {(float)((float)(lo * y) + (float)(hi * y))};
    double want_highest[] = {(float)x * 3.0f};
    expect_vals(f, loc_acc(0, 0), BASE_DT_F32, 1, 1, want_default, 0);
    expect_vals(f, loc_acc(0, 64), BASE_DT_F32, 1, 1, want_high, 0);
    expect_vals(f, loc_acc(0, 128), BASE_DT_F32, 1, 1, want_highest, 0);
    assert_true(want_high[0] != want_default[0] && want_highest[0] != want_high[0]);
}

/* A Neuron core multiplies f32 natively (its passes are 1). */
static void test_exec_matmul_fp32_neuron_native(void **state)
{
    struct fx *f = *state;
    push(&f->prog, "pe",
         ins_matmul(ap_sp(ISA_SPACE_ACC, 0, 1, 0, BASE_DT_F32, 1), ap_sp(ISA_SPACE_SP, 0, 1, 0, BASE_DT_F32, 1),
                    ap_sp(ISA_SPACE_SP, 0, 1, 64, BASE_DT_F32, 1), ISA_FLAG_START));
    begin(f);
    int64_t d1[2] = {1, 1};
    double x = 1 + ldexp(1, -10) + ldexp(1, -20), y = 3;
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d1, &x);
    tput(f->sim, loc_sp(0, 64), BASE_DT_F32, 2, d1, &y);
    tsim_run_ok(f->sim);
    double want[] = {(float)x * 3.0f};
    expect_vals(f, loc_acc(0, 0), BASE_DT_F32, 1, 1, want, 0);
}

static void test_exec_transpose_on_pe_and_vec(void **state)
{
    struct fx *f = *state;
    struct isa_instr t = ins_unary_op(ISA_OP_TRANSPOSE, 0, ap_sp(ISA_SPACE_ACC, 0, 3, 0, BASE_DT_F32, 2),
                                      ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 3));
    push(&f->prog, "pe", t);
    t.dst = ap_sp(ISA_SPACE_SP, 0, 3, 256, BASE_DT_BF16, 2);
    push(&f->prog, "vec", t);
    begin(f);
    int64_t d[2] = {2, 3};
    double v[] = {1, 2, 3, 4, 5, 6.5};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, v);
    tsim_run_ok(f->sim);
    double want[] = {1, 4, 2, 5, 3, 6.5};
    expect_vals(f, loc_acc(0, 0), BASE_DT_F32, 3, 2, want, 0);
    expect_vals(f, loc_sp(0, 256), BASE_DT_BF16, 3, 2, want, 0);
}

/* ------------------------------------------------------------------ dma */

static void test_exec_dma_roundtrip_transpose_convert_accumulate(void **state)
{
    struct fx *f = *state;
    /* hbm [2 x 3] f32 -> sp partitions 0..1, 3 elems each */
    push(&f->prog, "dma0",
         with_signal(ins_dma(ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 3), ap_hbm(0, 2, 3, BASE_DT_F32)), 0, 1));
    /* transposing read: hbm [2 x 3] -> sp [3 partitions x 2], as bf16 */
    struct isa_ap tr = ap_hbm(0, 3, 2, BASE_DT_F32);
    tr.part_stride_bytes = 4; /* partition p = column p */
    tr.stride[0] = 3;         /* free index = row */
    push(&f->prog, "dma1", ins_dma(ap_sp(ISA_SPACE_SP, 4, 3, 0, BASE_DT_BF16, 2), tr));
    /* accumulate sp into hbm at 64 */
    struct isa_instr acc = ins_dma(ap_hbm(64, 2, 3, BASE_DT_F32), ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 3));
    acc.flags |= ISA_FLAG_ACCUMULATE;
    push(&f->prog, "dma2", with_wait(acc, 0, 1));
    begin(f);
    int64_t d[1] = {6};
    double v[] = {1, 2, 3, 4, 5, 1 + ldexp(1, -9)};
    double base[] = {10, 20, 30, 40, 50, 60};
    tput(f->sim, loc_hbm(0), BASE_DT_F32, 1, d, v);
    tput(f->sim, loc_hbm(64), BASE_DT_F32, 1, d, base);
    tsim_run_ok(f->sim);
    expect_vals(f, loc_sp(0, 0), BASE_DT_F32, 2, 3, v, 0);
    double tw[] = {1, 4, 2, 5, 3, 1}; /* 1 + 2^-9 rounds to 1 in bf16 (a quarter of its ulp) */
    expect_vals(f, loc_sp(4, 0), BASE_DT_BF16, 3, 2, tw, 0);
    double sum[] = {11, 22, 33, 44, 55, 61 + ldexp(1, -9)};
    expect_vals(f, loc_hbm(64), BASE_DT_F32, 2, 3, sum, 0);
}

/* ---------------------------------------------------------- elementwise */

/* One-partition elementwise op on inputs a (and b) of n f32 elements. */
static void run_elem(struct fx *f, const char *engine, struct isa_instr in, const double *a, const double *b, int n)
{
    push(&f->prog, engine, in);
    begin(f);
    int64_t d[2] = {1, n};
    if (a) tput(f->sim, loc_sp(0, 0), (enum base_dtype)in.src0.dtype, 2, d, a);
    if (b) tput(f->sim, loc_sp(0, 1024), (enum base_dtype)in.src1.dtype, 2, d, b);
    tsim_run_ok(f->sim);
}

static struct isa_ap v1(uint64_t addr, enum base_dtype dt, uint32_t n) { return ap_sp(ISA_SPACE_SP, 0, 1, addr, dt, n); }

static void test_exec_binary_arithmetic(void **state)
{
    struct fx *f = *state;
    const unsigned fns[] = {ISA_ALU_ADD, ISA_ALU_SUB, ISA_ALU_MUL, ISA_ALU_DIV, ISA_ALU_MAX, ISA_ALU_MIN, ISA_ALU_POW};
    double a[] = {1.5, -2, 3, 0.5}, b[] = {2, 4, -1, 3};
    double want[][4] = {{3.5, 2, 2, 3.5},   {-0.5, -6, 4, -2.5}, {3, -8, -3, 1.5},
                        {0.75, -0.5, -3, 1.0f / 6.0f}, {2, 4, 3, 3},        {1.5, -2, -1, 0.5},
                        {2.25, 16, 1.0 / 3.0, 0.125}};
    for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
        sim_destroy(f->sim);
        f->sim = NULL;
        isa_program_deinit(&f->prog);
        run_elem(f, "vec", ins_binary(fns[i], v1(2048, BASE_DT_F32, 4), v1(0, BASE_DT_F32, 4), v1(1024, BASE_DT_F32, 4)),
                 a, b, 4);
        expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 1, 4, want[i], 1e-7);
    }
}

static void test_exec_binary_compare_and_nan_max(void **state)
{
    struct fx *f = *state;
    double a[] = {1, 2, NAN, -0.0}, b[] = {2, 2, 1, 0};
    run_elem(f, "pool", ins_binary(ISA_ALU_LE, v1(2048, BASE_DT_BF16, 4), v1(0, BASE_DT_F32, 4), v1(1024, BASE_DT_F32, 4)),
             a, b, 4);
    double le[] = {1, 1, 0, 1};
    expect_vals(f, loc_sp(0, 2048), BASE_DT_BF16, 1, 4, le, 0);
    sim_destroy(f->sim);
    f->sim = NULL;
    isa_program_deinit(&f->prog);
    run_elem(f, "vec", ins_binary(ISA_ALU_MAX, v1(2048, BASE_DT_F32, 4), v1(0, BASE_DT_F32, 4), v1(1024, BASE_DT_F32, 4)),
             a, b, 4);
    double mx[] = {2, 2, NAN, 0};
    expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 1, 4, mx, 0);
}

static void test_exec_bitwise_on_integers(void **state)
{
    struct fx *f = *state;
    /* 0x7fffff01 is not exact in f32: bitwise ops must use integers */
    double a[] = {2147483393.0, 12, -8, 5}, b[] = {0xff, 10, 1, 2};
    run_elem(f, "vec", ins_binary(ISA_ALU_AND, v1(2048, BASE_DT_SI32, 4), v1(0, BASE_DT_SI32, 4), v1(1024, BASE_DT_SI32, 4)),
             a, b, 4);
    double and_[] = {1, 8, 0, 0};
    expect_vals(f, loc_sp(0, 2048), BASE_DT_SI32, 1, 4, and_, 0);
    sim_destroy(f->sim);
    f->sim = NULL;
    isa_program_deinit(&f->prog);
    run_elem(f, "vec", ins_binary(ISA_ALU_SHR, v1(2048, BASE_DT_SI32, 4), v1(0, BASE_DT_SI32, 4), v1(1024, BASE_DT_SI32, 4)),
             a, b, 4);
    double shr[] = {0, 0, -4, 1}; /* a shift by 255 (beyond 31) gives 0; -8 >> 1 is arithmetic */
    expect_vals(f, loc_sp(0, 2048), BASE_DT_SI32, 1, 4, shr, 0);
}

static void test_exec_unary_copy_convert(void **state)
{
    struct fx *f = *state;
    double a[] = {-1.5, 2, 1 + ldexp(1, -8) + ldexp(1, -9), 70000};
    push(&f->prog, "vec", ins_unary_op(ISA_OP_UNARY, ISA_ALU_ABS, v1(2048, BASE_DT_F32, 4), v1(0, BASE_DT_F32, 4)));
    push(&f->prog, "pool", ins_unary_op(ISA_OP_UNARY, ISA_ALU_NEG, v1(4096, BASE_DT_F32, 4), v1(0, BASE_DT_F32, 4)));
    push(&f->prog, "act", ins_unary_op(ISA_OP_COPY, 0, v1(6144, BASE_DT_BF16, 4), v1(0, BASE_DT_F32, 4)));
    push(&f->prog, "act", ins_unary_op(ISA_OP_COPY, 0, v1(8192, BASE_DT_F16, 4), v1(0, BASE_DT_F32, 4)));
    begin(f);
    int64_t d[2] = {1, 4};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, a);
    tsim_run_ok(f->sim);
    double abs_[] = {1.5, 2, a[2], 70000}, neg[] = {1.5, -2, -a[2], -70000};
    double bf[] = {-1.5, 2, 1 + ldexp(1, -7), 70144}; /* round to nearest even (8 significant bits) */
    double h[] = {-1.5, 2, 1 + ldexp(1, -8) + ldexp(1, -9), INFINITY};
    expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 1, 4, abs_, 0);
    expect_vals(f, loc_sp(0, 4096), BASE_DT_F32, 1, 4, neg, 0);
    expect_vals(f, loc_sp(0, 6144), BASE_DT_BF16, 1, 4, bf, 0);
    expect_vals(f, loc_sp(0, 8192), BASE_DT_F16, 1, 4, h, 0);
}

static void test_exec_tensor_scalar_imm_and_per_partition(void **state)
{
    struct fx *f = *state;
    struct isa_instr t = ins(ISA_OP_TENSOR_SCALAR);
    t.func = ISA_ALU_MUL;
    t.func2 = ISA_ALU_ADD;
    t.imm0 = 2;
    t.imm1 = 0.5;
    t.dst = ap_sp(ISA_SPACE_SP, 0, 2, 2048, BASE_DT_F32, 3);
    t.src0 = ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 3);
    push(&f->prog, "act", t);
    struct isa_instr u = t;
    u.flags = ISA_FLAG_SCALE_AP | ISA_FLAG_BIAS_AP;
    u.imm0 = u.imm1 = 0;
    u.func = ISA_ALU_SUB;
    u.func2 = ISA_ALU_MAX;
    u.dst.addr = 4096;
    u.src1 = ap_sp(ISA_SPACE_SP, 0, 2, 512, BASE_DT_F32, 1);
    u.src2 = ap_sp(ISA_SPACE_SP, 0, 2, 768, BASE_DT_F32, 1);
    push(&f->prog, "vec", u);
    begin(f);
    int64_t d[2] = {2, 3}, ds[2] = {2, 1};
    double x[] = {1, 2, 3, 4, 5, 6}, s0[] = {1, 10}, s1[] = {0, -7};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, x);
    tput(f->sim, loc_sp(0, 512), BASE_DT_F32, 2, ds, s0);
    tput(f->sim, loc_sp(0, 768), BASE_DT_F32, 2, ds, s1);
    tsim_run_ok(f->sim);
    double w0[] = {2.5, 4.5, 6.5, 8.5, 10.5, 12.5};
    double w1[] = {0, 1, 2, -6, -5, -4}; /* max(x - s0, s1) per partition */
    expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 2, 3, w0, 0);
    expect_vals(f, loc_sp(0, 4096), BASE_DT_F32, 2, 3, w1, 0);
}

static void test_exec_activate_functions(void **state)
{
    struct fx *f = *state;
    double x[] = {-2, -0.5, 0.3, 1.5};
    const unsigned fns[] = {ISA_ACT_EXP,  ISA_ACT_TANH, ISA_ACT_SIGMOID, ISA_ACT_GELU, ISA_ACT_SILU,
                            ISA_ACT_RELU, ISA_ACT_SQUARE, ISA_ACT_RECIPROCAL, ISA_ACT_ERF, ISA_ACT_IDENTITY};
    for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
        sim_destroy(f->sim);
        f->sim = NULL;
        isa_program_deinit(&f->prog);
        struct isa_instr a = ins_unary_op(ISA_OP_ACTIVATE, fns[i], v1(2048, BASE_DT_F32, 4), v1(0, BASE_DT_F32, 4));
        a.imm0 = 2;    /* scale */
        a.imm1 = -0.5; /* bias */
        run_elem(f, "act", a, x, NULL, 4);
        double want[4];
        for (int k = 0; k < 4; k++) {
            double t = (float)x[k] * 2.0f - 0.5f;
            switch (fns[i]) {
            case ISA_ACT_EXP: want[k] = exp(t); break;
            case ISA_ACT_TANH: want[k] = tanh(t); break;
            case ISA_ACT_SIGMOID: want[k] = 1 / (1 + exp(-t)); break;
            case ISA_ACT_GELU: want[k] = 0.5 * t * (1 + erf(t / sqrt(2))); break;
            case ISA_ACT_SILU: want[k] = t / (1 + exp(-t)); break;
            case ISA_ACT_RELU: want[k] = t > 0 ? t : 0; break;
            case ISA_ACT_SQUARE: want[k] = t * t; break;
            case ISA_ACT_RECIPROCAL: want[k] = 1 / t; break;
            case ISA_ACT_ERF: want[k] = erf(t); break;
            default: want[k] = t; break;
            }
        }
        expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 1, 4, want, 2e-6);
    }
}

static void test_exec_select_iota_memset(void **state)
{
    struct fx *f = *state;
    struct isa_instr s = ins(ISA_OP_SELECT);
    s.dst = v1(4096, BASE_DT_F32, 4);
    s.src0 = v1(0, BASE_DT_F32, 4);
    s.src1 = v1(1024, BASE_DT_F32, 4);
    s.src2 = v1(2048, BASE_DT_F32, 4);
    push(&f->prog, "vec", s);
    struct isa_instr io = ins(ISA_OP_IOTA);
    io.dst = ap_sp(ISA_SPACE_SP, 0, 3, 8192, BASE_DT_SI32, 4);
    io.imm0 = 100;
    io.imm1 = 10;
    push(&f->prog, "pool", io);
    struct isa_instr ms = ins(ISA_OP_MEMSET);
    ms.dst = ap_sp(ISA_SPACE_SP, 0, 2, 12288, BASE_DT_BF16, 3);
    ms.imm0 = 1.0 / 3.0;
    push(&f->prog, "act", ms);
    begin(f);
    int64_t d[2] = {1, 4};
    double c[] = {1, 0, NAN, -0.0}, a[] = {1, 2, 3, 4}, b[] = {-1, -2, -3, -4};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, c);
    tput(f->sim, loc_sp(0, 1024), BASE_DT_F32, 2, d, a);
    tput(f->sim, loc_sp(0, 2048), BASE_DT_F32, 2, d, b);
    tsim_run_ok(f->sim);
    double sel[] = {1, -2, 3, -4};
    expect_vals(f, loc_sp(0, 4096), BASE_DT_F32, 1, 4, sel, 0);
    double iota[] = {100, 101, 102, 103, 110, 111, 112, 113, 120, 121, 122, 123};
    expect_vals(f, loc_sp(0, 8192), BASE_DT_SI32, 3, 4, iota, 0);
    double third = base_bf16_to_f32(base_f32_to_bf16(1.0f / 3.0f));
    double ms_want[] = {third, third, third, third, third, third};
    expect_vals(f, loc_sp(0, 12288), BASE_DT_BF16, 2, 3, ms_want, 0);
}

static void test_exec_reduce_and_part_reduce(void **state)
{
    struct fx *f = *state;
    /* src [2 partitions x (2 x 3)]: reduce the innermost dim (3) */
    struct isa_ap src = ap_sp(ISA_SPACE_SP, 0, 2, 0, BASE_DT_F32, 0);
    src.ndims = 2;
    src.count[0] = 2;
    src.count[1] = 3;
    src.stride[0] = 3;
    src.stride[1] = 1;
    struct isa_instr r = ins_unary_op(ISA_OP_REDUCE, ISA_ALU_ADD, ap_sp(ISA_SPACE_SP, 0, 2, 1024, BASE_DT_F32, 2), src);
    r.count = 1;
    push(&f->prog, "vec", r);
    struct isa_instr m = ins_unary_op(ISA_OP_PART_REDUCE, ISA_ALU_MAX, ap_sp(ISA_SPACE_SP, 0, 1, 2048, BASE_DT_F32, 2), src);
    m.count = 1;
    push(&f->prog, "pool", m);
    struct isa_instr all = ins_unary_op(ISA_OP_PART_REDUCE, ISA_ALU_ADD, ap_sp(ISA_SPACE_SP, 0, 1, 3072, BASE_DT_F32, 6), src);
    push(&f->prog, "vec", all); /* count 0: over partitions only */
    struct isa_instr bc = ins_unary_op(ISA_OP_PART_BROADCAST, 0, ap_sp(ISA_SPACE_SP, 4, 3, 0, BASE_DT_F32, 6),
                                       ap_sp(ISA_SPACE_SP, 1, 1, 0, BASE_DT_F32, 6));
    push(&f->prog, "pool", bc);
    begin(f);
    int64_t d[2] = {2, 6};
    double v[] = {1, 2, 3, 4, 5, 6, -1, 7, 0, 2, 2, 9};
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, v);
    tsim_run_ok(f->sim);
    double sums[] = {6, 15, 6, 13}, maxes[] = {7, 9}, colsum[] = {0, 9, 3, 6, 7, 15};
    expect_vals(f, loc_sp(0, 1024), BASE_DT_F32, 2, 2, sums, 0);
    expect_vals(f, loc_sp(0, 2048), BASE_DT_F32, 1, 2, maxes, 0);
    expect_vals(f, loc_sp(0, 3072), BASE_DT_F32, 1, 6, colsum, 0);
    double bcw[18];
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < 6; i++) bcw[p * 6 + i] = v[6 + i];
    expect_vals(f, loc_sp(4, 0), BASE_DT_F32, 3, 6, bcw, 0);
}

static void test_exec_loop_steps_addresses(void **state)
{
    struct fx *f = *state;
    /* 3 iterations: copy 4 f32 from byte 16*i to byte 256 + 16*i, doubling on the way */
    struct isa_instr t = ins(ISA_OP_TENSOR_SCALAR);
    t.func = ISA_ALU_MUL;
    t.imm0 = 2;
    t.dst = v1(256, BASE_DT_F32, 4);
    t.src0 = v1(0, BASE_DT_F32, 4);
    t.dst.loop_step_bytes[0] = 16;
    t.src0.loop_step_bytes[0] = 16;
    push(&f->prog, "vec", ins_loop(3, 1));
    push(&f->prog, "vec", t);
    begin(f);
    int64_t d[2] = {1, 12};
    double v[12];
    for (int i = 0; i < 12; i++) v[i] = i + 1;
    tput(f->sim, loc_sp(0, 0), BASE_DT_F32, 2, d, v);
    tsim_run_ok(f->sim);
    double w[12];
    for (int i = 0; i < 12; i++) w[i] = 2 * (i + 1);
    expect_vals(f, loc_sp(0, 256), BASE_DT_F32, 1, 12, w, 0);
    assert_int_equal(sim_get_stats(f->sim)->instructions, 4); /* the loop + 3 iterations */
}

TEST_MAIN(NULL, NULL, TF(test_exec_matmul_small_by_hand), TF(test_exec_matmul_random_matches_plain_loop),
          TF(test_exec_matmul_start_acc_keeps_dst), TF(test_exec_matmul_fp32_precision_passes),
          TF(test_exec_matmul_fp32_neuron_native),
          TF(test_exec_transpose_on_pe_and_vec), TF(test_exec_dma_roundtrip_transpose_convert_accumulate),
          TF(test_exec_binary_arithmetic), TF(test_exec_binary_compare_and_nan_max), TF(test_exec_bitwise_on_integers),
          TF(test_exec_unary_copy_convert), TF(test_exec_tensor_scalar_imm_and_per_partition),
          TF(test_exec_activate_functions), TF(test_exec_select_iota_memset), TF(test_exec_reduce_and_part_reduce),
          TF(test_exec_loop_steps_addresses))
