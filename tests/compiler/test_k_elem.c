/* Fused elementwise kernels on the simulator (tpu-v5e and trn2, every core,
 * checks on) against the golden interpreter: every op of the list, every
 * element type it takes, random values plus the special ones (signed zeros,
 * infinities, NaN, subnormals, ties, integer extremes), compared bit for bit
 * (NaN matches any NaN) unless a tolerance is stated. */
#include "tests/compiler/k_test_util.h"

#define SHAPE "3x257"
#define N_ELEMS (3 * 257)

static const double fspecial[] = {0.0,  -0.0, INFINITY, -INFINITY, NAN,   1,     -1,    0.5,   -0.5,  1.5,
                                  2.5,  -2.5, 3.5,      -3.5,      1e-40, -1e-39, 65504, 3e38, -7.25, 0.1,
                                  100, -100, 0.75,     2};
#define N_FSPECIAL ((int)ARRAY_LEN(fspecial))

/* Fills argument i: random values, then the first 24 x 24 elements cross the
 * special values of the type with those of the other argument. */
static void fill_args(struct kt *t, uint64_t seed)
{
    kt_random_inputs(t, seed, 2.0);
    struct base_rng r;
    base_rng_seed(&r, seed * 7919 + 1);
    for (int i = 0; i < t->n_args; i++) {
        struct base_tensor *x = t->args[i];
        enum base_dtype dt = x->dtype;
        bool fl = base_dtype_is_float(dt);
        int64_t ispecial[24] = {0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 63, 64, 65, 127, -128, 255, 256, 1000, -1000, 5, 3,
                                0, 0, 0};
        if (!fl && dt != BASE_DT_I1) {
            ispecial[21] = base_int_min(dt);
            ispecial[22] = (int64_t)base_int_max(dt);
            ispecial[23] = base_int_min(dt) + 1;
            for (int64_t j = 0; j < x->count; j++) base_elem_set_i64(dt, x->data, (size_t)j, (int64_t)base_rng_next(&r));
        }
        for (int64_t j = 0; j < 24 * 24 && j < x->count; j++) {
            int k = (int)(i == 0 ? j / 24 : j % 24);
            if (fl) base_elem_set_f64(dt, x->data, (size_t)j, fspecial[k]);
            else if (dt == BASE_DT_I1) base_elem_set_i64(dt, x->data, (size_t)j, k & 1);
            else base_elem_set_i64(dt, x->data, (size_t)j, ispecial[k]);
        }
    }
}

static void check_src(const char *src, uint64_t seed, double ulps)
{
    struct kt t;
    kt_parse(&t, src, CC_K_ELEMENTWISE);
    fill_args(&t, seed ^ (test_seed() - 1) * 0x9E3779B97F4A7C15ull); /* --seed N varies the values */
    kt_check_both(&t, cc_emit_elementwise, ulps);
    kt_free(&t);
}

static void binary(const char *op, const char *dt, uint64_t seed, double ulps)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%a: tensor<" SHAPE "x%s>, %%b: tensor<" SHAPE "x%s>) -> tensor<" SHAPE "x%s> {\n"
             "  %%r = \"stablehlo.%s\"(%%a, %%b) : (tensor<" SHAPE "x%s>, tensor<" SHAPE "x%s>) -> tensor<" SHAPE "x%s>\n"
             "  func.return %%r : tensor<" SHAPE "x%s>\n}\n",
             dt, dt, dt, op, dt, dt, dt, dt);
    print_message("  %s %s\n", op, dt);
    check_src(src, seed, ulps);
}

static void unary(const char *op, const char *dt, const char *rt, uint64_t seed, double ulps)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%a: tensor<" SHAPE "x%s>) -> tensor<" SHAPE "x%s> {\n"
             "  %%r = \"stablehlo.%s\"(%%a) : (tensor<" SHAPE "x%s>) -> tensor<" SHAPE "x%s>\n"
             "  func.return %%r : tensor<" SHAPE "x%s>\n}\n",
             dt, rt, op, dt, rt, rt);
    print_message("  %s %s -> %s\n", op, dt, rt);
    check_src(src, seed, ulps);
}

static const char *const float_types[] = {"f32", "bf16", "f16", "f8E4M3FN", "f8E5M2"};
static const char *const int_types[] = {"i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"};

static void test_k_elem_float_binary_ops_exact(void **state)
{
    (void)state;
    const char *ops[] = {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2"};
    for (size_t d = 0; d < ARRAY_LEN(float_types); d++)
        for (size_t o = 0; o < ARRAY_LEN(ops); o++) binary(ops[o], float_types[d], 10 + o, 0);
}

static void test_k_elem_float_unary_ops_exact(void **state)
{
    (void)state;
    const char *ops[] = {"abs",  "negate", "sign", "floor", "ceil", "round_nearest_even", "round_nearest_afz",
                         "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "sqrt", "rsqrt",
                         "sine", "cosine", "tan"};
    for (size_t d = 0; d < ARRAY_LEN(float_types); d++) {
        for (size_t o = 0; o < ARRAY_LEN(ops); o++) unary(ops[o], float_types[d], float_types[d], 20 + o, 0);
        unary("is_finite", float_types[d], "i1", 40, 0);
    }
}

/* tanh and cbrt: the interpreter evaluates its own f64 formulas, the chip the
 * C library's; after rounding they agree but for an f64 result within a few
 * f64 ulps of a rounding boundary: 1 ulp allowed. */
static void test_k_elem_tanh_cbrt_within_one_ulp(void **state)
{
    (void)state;
    for (size_t d = 0; d < ARRAY_LEN(float_types); d++) {
        unary("tanh", float_types[d], float_types[d], 50, 1);
        unary("cbrt", float_types[d], float_types[d], 51, 1);
    }
}

static void test_k_elem_integer_binary_ops_exact(void **state)
{
    (void)state;
    const char *ops[] = {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power",
                         "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"};
    for (size_t d = 0; d < ARRAY_LEN(int_types); d++)
        for (size_t o = 0; o < ARRAY_LEN(ops); o++) binary(ops[o], int_types[d], 60 + o, 0);
}

static void test_k_elem_integer_unary_ops_exact(void **state)
{
    (void)state;
    const char *ops[] = {"abs", "negate", "sign", "not", "popcnt", "count_leading_zeros"};
    for (size_t d = 0; d < ARRAY_LEN(int_types); d++)
        for (size_t o = 0; o < ARRAY_LEN(ops); o++) unary(ops[o], int_types[d], int_types[d], 80 + o, 0);
}

static void test_k_elem_boolean_ops_exact(void **state)
{
    (void)state;
    const char *ops[] = {"and", "or", "xor", "add", "multiply", "maximum", "minimum"};
    for (size_t o = 0; o < ARRAY_LEN(ops); o++) binary(ops[o], "i1", 90 + o, 0);
    unary("not", "i1", "i1", 97, 0);
}

static void compare(const char *dir, const char *type, const char *dt, uint64_t seed)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%a: tensor<" SHAPE "x%s>, %%b: tensor<" SHAPE "x%s>) -> tensor<" SHAPE "xi1> {\n"
             "  %%r = \"stablehlo.compare\"(%%a, %%b) {comparison_direction = #stablehlo<comparison_direction %s>,\n"
             "      compare_type = #stablehlo<comparison_type %s>} : (tensor<" SHAPE "x%s>, tensor<" SHAPE "x%s>) -> tensor<" SHAPE "xi1>\n"
             "  func.return %%r : tensor<" SHAPE "xi1>\n}\n",
             dt, dt, dir, type, dt, dt);
    print_message("  compare %s %s %s\n", dir, type, dt);
    check_src(src, seed, 0);
}

static void test_k_elem_compare_every_direction_and_type(void **state)
{
    (void)state;
    const char *dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    const char *cases[][2] = {{"FLOAT", "f32"},      {"FLOAT", "bf16"},      {"FLOAT", "f16"},   {"TOTALORDER", "f32"},
                              {"TOTALORDER", "bf16"}, {"TOTALORDER", "f16"}, {"SIGNED", "i32"},  {"SIGNED", "i64"},
                              {"SIGNED", "i8"},       {"UNSIGNED", "ui32"},  {"UNSIGNED", "ui64"}, {"UNSIGNED", "i1"}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++)
        for (size_t d = 0; d < ARRAY_LEN(dirs); d++) compare(dirs[d], cases[c][0], cases[c][1], 100 + d);
}

static void test_k_elem_convert_between_all_types(void **state)
{
    (void)state;
    const char *types[] = {"f32", "bf16", "f16", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "ui64"};
    for (size_t a = 0; a < ARRAY_LEN(types); a++)
        for (size_t b = 0; b < ARRAY_LEN(types); b++)
            if (a != b) unary("convert", types[a], types[b], 120 + a * 16 + b, 0);
}

/* select, clamp with scalar and tensor bounds, iota on two dims, splat
 * constants as immediates, all in one fusion */
static void test_k_elem_select_clamp_iota_constants_fused(void **state)
{
    (void)state;
    check_src("func.func @main(%a: tensor<5x300xf32>, %b: tensor<5x300xf32>, %lo: tensor<f32>) -> (tensor<5x300xf32>, tensor<5x300xi32>) {\n"
              "  %two = stablehlo.constant dense<2.0> : tensor<5x300xf32>\n"
              "  %hi = stablehlo.constant dense<0.75> : tensor<f32>\n"
              "  %p = stablehlo.compare LT, %a, %b : (tensor<5x300xf32>, tensor<5x300xf32>) -> tensor<5x300xi1>\n"
              "  %m = stablehlo.multiply %a, %two : tensor<5x300xf32>\n"
              "  %c = stablehlo.clamp %lo, %b, %hi : (tensor<f32>, tensor<5x300xf32>, tensor<f32>) -> tensor<5x300xf32>\n"
              "  %s = stablehlo.select %p, %m, %c : tensor<5x300xi1>, tensor<5x300xf32>\n"
              "  %c2 = stablehlo.clamp %a, %s, %b : tensor<5x300xf32>\n"
              "  %i0 = stablehlo.iota dim = 0 : tensor<5x300xi32>\n"
              "  %i1 = stablehlo.iota dim = 1 : tensor<5x300xi32>\n"
              "  %k = stablehlo.constant dense<1000> : tensor<5x300xi32>\n"
              "  %i2 = stablehlo.multiply %i0, %k : tensor<5x300xi32>\n"
              "  %i = stablehlo.add %i2, %i1 : tensor<5x300xi32>\n"
              "  func.return %c2, %i : tensor<5x300xf32>, tensor<5x300xi32>\n}\n",
              200, 0);
}

/* a bf16 chain: every op rounds to bf16, as the unfused ops do */
static void test_k_elem_bf16_chain_rounds_after_every_op(void **state)
{
    (void)state;
    check_src("func.func @main(%a: tensor<200x300xbf16>, %b: tensor<200x300xbf16>, %c: tensor<200x300xbf16>) -> tensor<200x300xbf16> {\n"
              "  %m = stablehlo.multiply %a, %b : tensor<200x300xbf16>\n"
              "  %s = stablehlo.add %m, %c : tensor<200x300xbf16>\n"
              "  %e = stablehlo.exponential %s : tensor<200x300xbf16>\n"
              "  %l = stablehlo.logistic %e : tensor<200x300xbf16>\n"
              "  %r = stablehlo.divide %l, %a : tensor<200x300xbf16>\n"
              "  func.return %r : tensor<200x300xbf16>\n}\n",
              201, 0);
}

/* operands through views: a per-row scalar (broadcast), a transposed tensor,
 * a reversed slice; an f32 -> bf16 -> f32 convert chain in between */
static void test_k_elem_views_broadcast_transpose_slice(void **state)
{
    (void)state;
    check_src("func.func @main(%a: tensor<130x70xf32>, %m: tensor<130xf32>, %t: tensor<70x130xf32>, %s: tensor<140x75xf32>) -> tensor<130x70xf32> {\n"
              "  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<130xf32>) -> tensor<130x70xf32>\n"
              "  %tt = stablehlo.transpose %t, dims = [1, 0] : (tensor<70x130xf32>) -> tensor<130x70xf32>\n"
              "  %sl = stablehlo.slice %s [2:132, 1:71] : (tensor<140x75xf32>) -> tensor<130x70xf32>\n"
              "  %sr = stablehlo.reverse %sl, dims = [1] : tensor<130x70xf32>\n"
              "  %d = stablehlo.subtract %a, %mb : tensor<130x70xf32>\n"
              "  %q = stablehlo.multiply %d, %tt : tensor<130x70xf32>\n"
              "  %h = stablehlo.convert %q : (tensor<130x70xf32>) -> tensor<130x70xbf16>\n"
              "  %f = stablehlo.convert %h : (tensor<130x70xbf16>) -> tensor<130x70xf32>\n"
              "  %r = stablehlo.add %f, %sr : tensor<130x70xf32>\n"
              "  func.return %r : tensor<130x70xf32>\n}\n",
              202, 0);
}

/* scalar - tensor and scalar / tensor: the immediate on the left */
static void test_k_elem_immediate_on_the_left(void **state)
{
    (void)state;
    check_src("func.func @main(%a: tensor<64x33xf32>, %i: tensor<64x33xi32>) -> (tensor<64x33xf32>, tensor<64x33xi32>, tensor<64x33xi1>) {\n"
              "  %one = stablehlo.constant dense<1.0> : tensor<64x33xf32>\n"
              "  %s = stablehlo.subtract %one, %a : tensor<64x33xf32>\n"
              "  %d = stablehlo.divide %one, %s : tensor<64x33xf32>\n"
              "  %k = stablehlo.constant dense<-5> : tensor<64x33xi32>\n"
              "  %is = stablehlo.subtract %k, %i : tensor<64x33xi32>\n"
              "  %ish = stablehlo.shift_left %k, %is : tensor<64x33xi32>\n"
              "  %c = stablehlo.compare GT, %one, %a : (tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x33xi1>\n"
              "  func.return %d, %ish, %c : tensor<64x33xf32>, tensor<64x33xi32>, tensor<64x33xi1>\n}\n",
              203, 0);
}

/* A large f32 add in timing-only mode on every core of the chip: HBM
 * bandwidth achieved within [80%, 100%] of the chip's; emitted and simulated
 * quickly. */
static void big_add(const char *chip_name, int N)
{
    struct kt t;
    char src[512];
    snprintf(src, sizeof src,
             "func.func @main(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n"
             "  %%r = stablehlo.add %%a, %%b : tensor<%dx%dxf32>\n"
             "  func.return %%r : tensor<%dx%dxf32>\n}\n",
             N, N, N, N, N, N, N, N, N, N);
    kt_parse(&t, src, CC_K_ELEMENTWISE);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct kt_run r;
    kt_run(&t, &chip, cc_emit_elementwise, true, 0, &r);
    double frac = r.st.hbm_gbps / chip.hbm.bytes_per_ns;
    printf("  %s: f32 add of 2 x %d MiB: %.3f ms, HBM %.0f GB/s = %.1f%% of %.0f; %llu instructions; emit %.2f s, "
           "simulate %.2f s\n",
           chip_name, N / 512 * N / 512, (double)r.st.total_ps / 1e9, r.st.hbm_gbps, 100 * frac, chip.hbm.bytes_per_ns,
           (unsigned long long)r.instructions, r.emit_s, r.sim_s);
    assert_true(r.st.hbm_bytes == 3ull * N * N * 4);
    assert_true(frac >= 0.80);
    assert_true(frac <= 1.0 + 1e-9);
    kt_run_free(&r);
    kt_free(&t);
}

static void test_k_elem_big_add_reaches_hbm_bandwidth(void **state)
{
    (void)state;
    int n = getenv("KT_BIG_N") ? atoi(getenv("KT_BIG_N")) : 8192;
    big_add("tpu-v5e", n);
    big_add("trn2", n);
}

/* Double buffering: on one core, the time during which a DMA and a compute
 * instruction run at once is most of the compute time. */
struct ivals {
    size_t n, cap;
    uint64_t *lo, *hi;
};

static void ivals_add(struct ivals *v, uint64_t lo, uint64_t hi)
{
    if (hi <= lo) return;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 1024;
        v->lo = realloc(v->lo, v->cap * sizeof *v->lo);
        v->hi = realloc(v->hi, v->cap * sizeof *v->hi);
        assert_non_null(v->lo);
        assert_non_null(v->hi);
    }
    v->lo[v->n] = lo;
    v->hi[v->n++] = hi;
}

struct overlap_rec {
    struct ivals dma, comp;
};

static void ov_instr(void *u, uint64_t now, const struct sim_instr_record *r)
{
    (void)now;
    struct overlap_rec *o = u;
    if (r->core != 0) return;
    enum isa_op op = (enum isa_op)r->instr->op;
    if (op == ISA_OP_DMA) ivals_add(&o->dma, r->start_ps, r->end_ps);
    else if (op != ISA_OP_SEM_WAIT && op != ISA_OP_NOP && op != ISA_OP_LOOP && op != ISA_OP_HALT)
        ivals_add(&o->comp, r->start_ps, r->end_ps);
}

/* Time covered by both sets (each a union of intervals), by sweeping a
 * fine grid of the run: enough for a ratio. */
static double covered_both(const struct ivals *a, const struct ivals *b, uint64_t total, double *b_time)
{
    enum { G = 200000 };
    uint8_t *m = calloc(G, 1);
    assert_non_null(m);
    for (size_t i = 0; i < a->n; i++)
        for (uint64_t g = a->lo[i] * G / total; g < a->hi[i] * G / total && g < G; g++) m[g] |= 1;
    for (size_t i = 0; i < b->n; i++)
        for (uint64_t g = b->lo[i] * G / total; g < b->hi[i] * G / total && g < G; g++) m[g] |= 2;
    size_t both = 0, bt = 0;
    for (size_t g = 0; g < G; g++) {
        both += m[g] == 3;
        bt += (m[g] & 2) != 0;
    }
    free(m);
    *b_time = (double)bt / G;
    return (double)both / G;
}

static void test_k_elem_double_buffering_overlaps(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t,
                 "func.func @main(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {\n"
                 "  %m = stablehlo.multiply %a, %b : tensor<4096x4096xbf16>\n"
                 "  %e = stablehlo.exponential %m : tensor<4096x4096xbf16>\n"
                 "  %s = stablehlo.add %e, %a : tensor<4096x4096xbf16>\n"
                 "  %r = stablehlo.tanh %s : tensor<4096x4096xbf16>\n"
                 "  func.return %r : tensor<4096x4096xbf16>\n}\n",
                 CC_K_ELEMENTWISE);
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct overlap_rec o;
        memset(&o, 0, sizeof o);
        struct sim_hooks h = {&o, ov_instr, NULL, NULL};
        struct kt_run r;
        kt_run_hooks(&t, &chip, cc_emit_elementwise, true, 0, &r, &h);
        double comp, both = covered_both(&o.dma, &o.comp, r.st.total_ps, &comp);
        printf("  %s: core 0 computes %.0f%% of the run, %.0f%% of that while a DMA moves data (%.3f ms, HBM %.0f GB/s)\n",
               chips[c], 100 * comp, 100 * both / comp, (double)r.st.total_ps / 1e9, r.st.hbm_gbps);
        assert_true(both >= 0.6 * comp);
        free(o.dma.lo);
        free(o.dma.hi);
        free(o.comp.lo);
        free(o.comp.hi);
        kt_run_free(&r);
        kt_free(&t);
    }
}

/* A scratchpad too small for even one element per buffer: ERR_LIMIT, located
 * at the kernel's op and naming the kernel. */
static void test_k_elem_too_small_scratchpad_is_a_located_limit(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t, "func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
                 "  %r = stablehlo.add %a, %b : tensor<64x64xf32>\n"
                 "  func.return %r : tensor<64x64xf32>\n}\n",
             CC_K_ELEMENTWISE);
    struct chip_desc chip;
    kt_load_chip("trn2", &chip);
    chip.scratchpad.bytes_per_partition = 256;
    struct cc_target tg;
    cc_target_init(&tg, &chip);
    struct isa_program p;
    isa_program_init(&p);
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_emit_ctx ctx = {0, 1, NULL};
    assert_int_equal(cc_emit_elementwise(&tg, &t.k, &ctx, &p, &d), BASE_ERR_LIMIT);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "kernel fusion"));
    assert_non_null(strstr(d.msg, "scratchpad"));
    isa_program_deinit(&p);
    kt_free(&t);
}

/* the engines of a core, by kind, from the chip description */
static void test_k_elem_target_engines_by_kind(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct cc_target tg;
    kt_load_chip("trn2", &chip);
    cc_target_init(&tg, &chip);
    assert_int_equal(tg.n_dma, 16);
    assert_int_equal(tg.n_pe, 1);
    assert_string_equal(chip.engines[tg.vec].name, "vec");
    assert_string_equal(chip.engines[tg.act].name, "act");
    assert_string_equal(chip.engines[tg.pool].name, "pool");
    kt_load_chip("tpu-v5e", &chip);
    cc_target_init(&tg, &chip);
    assert_int_equal(tg.n_pe, 4);
    assert_int_equal(tg.n_dma, 8);
    assert_true(tg.vec >= 0);
    assert_int_equal(tg.act, -1);
    assert_int_equal(tg.pool, -1);
}

/* rank-0 values, and an output that depends on constants only */
static void test_k_elem_scalars_and_constant_outputs(void **state)
{
    (void)state;
    check_src("func.func @main(%a: tensor<f32>, %b: tensor<i64>) -> (tensor<f32>, tensor<i64>) {\n"
              "  %c = stablehlo.constant dense<3.0> : tensor<f32>\n"
              "  %r = stablehlo.multiply %a, %c : tensor<f32>\n"
              "  %k = stablehlo.constant dense<-9> : tensor<i64>\n"
              "  %q = stablehlo.shift_right_arithmetic %k, %b : tensor<i64>\n"
              "  func.return %r, %q : tensor<f32>, tensor<i64>\n}\n",
              204, 0);
    check_src("func.func @main() -> tensor<7x9xf32> {\n"
              "  %x = stablehlo.constant dense<2.0> : tensor<7x9xf32>\n"
              "  %y = stablehlo.constant dense<0.5> : tensor<7x9xf32>\n"
              "  %z = stablehlo.add %x, %y : tensor<7x9xf32>\n"
              "  func.return %z : tensor<7x9xf32>\n}\n",
              204, 0);
}

/* reduce_precision against values known by hand: to e8m7 an f32 rounds as
 * bf16 does (ties to even), to e5m10 as f16 does for normal values, with
 * overflow to inf and values below f16's smallest normal (2^-14) to a
 * signed zero (no subnormals); e5m0 keeps powers of two and turns NaN
 * into inf. */
static void test_k_elem_reduce_precision_hand_values(void **state)
{
    (void)state;
    const char *src = "func.func @main(%a: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) {\n"
                      "  %b = stablehlo.reduce_precision %a, format = e8m7 : tensor<10xf32>\n"
                      "  %h = stablehlo.reduce_precision %a, format = e5m10 : tensor<10xf32>\n"
                      "  %z = stablehlo.reduce_precision %a, format = e5m0 : tensor<10xf32>\n"
                      "  func.return %b, %h, %z : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>\n}\n";
    const double in[10] = {1 + 0x1p-8, 1 + 3 * 0x1p-8, 1 + 0x1p-11, 1 + 3 * 0x1p-11, 65520, 6e-5, -0.0, NAN, -3.0, 1e30};
    const double bf[10] = {1, 1 + 0x1p-6, 1, 1, 65536, 6.008148193359375e-05, -0.0, NAN, -3.0, 1.0002555517425873e30};
    const double hf[10] = {1 + 0x1p-8, 1 + 3 * 0x1p-8, 1, 1 + 0x1p-9, INFINITY, 0, -0.0, NAN, -3.0, INFINITY};
    /* no mantissa: ties to the even exponent (-3 -> -2); 6e-5 rounds up to 2^-14, in range */
    const double z[10] = {1, 1, 1, 1, INFINITY, 0x1p-14, -0.0, INFINITY, -2.0, INFINITY};
    const double *want[3] = {bf, hf, z};
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t, src, CC_K_ELEMENTWISE);
        kt_random_inputs(&t, 1, 1.0);
        for (int i = 0; i < 10; i++) kt_set(&t, 0, i, in[i]);
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct kt_run r;
        kt_run(&t, &chip, cc_emit_elementwise, false, 1, &r);
        for (int o = 0; o < 3; o++)
            for (int i = 0; i < 10; i++) {
                float g = ((const float *)r.outs[o]->data)[i], w = (float)want[o][i];
                if (isnan(w)) assert_true(isnan(g));
                else if (g != w || signbit(g) != signbit(w))
                    fail_msg("%s output %d element %d: %.9g, want %.9g", chips[c], o, i, g, w);
            }
        kt_run_free(&r);
        kt_free(&t);
    }
}

/* reduce_precision of f32, bf16, f16 and f8E5M2 to several formats (fewer
 * and more bits than the type's, the identity, no mantissa) bit for bit the
 * interpreter's, over random and special values. */
static void test_k_elem_reduce_precision_formats(void **state)
{
    (void)state;
    static const char *const types[4] = {"f32", "bf16", "f16", "f8E5M2"};
    static const int fmt[][2] = {{8, 7}, {5, 10}, {11, 52}, {5, 0}, {2, 1}, {4, 3}, {6, 20}, {3, 9}};
    char src[512];
    for (int ti = 0; ti < 4; ti++)
        for (size_t fi = 0; fi < ARRAY_LEN(fmt); fi++) {
            snprintf(src, sizeof src,
                     "func.func @main(%%a: tensor<" SHAPE "x%s>) -> tensor<" SHAPE "x%s> {\n"
                     "  %%r = stablehlo.reduce_precision %%a, format = e%dm%d : tensor<" SHAPE "x%s>\n"
                     "  func.return %%r : tensor<" SHAPE "x%s>\n}\n",
                     types[ti], types[ti], fmt[fi][0], fmt[fi][1], types[ti], types[ti]);
            check_src(src, 300 + fi, 0);
        }
    /* fused between other ops, its value both stored and used again */
    check_src("func.func @main(%a: tensor<" SHAPE "xf32>, %b: tensor<" SHAPE "xbf16>) -> (tensor<" SHAPE "xf32>, "
              "tensor<" SHAPE "xf32>, tensor<" SHAPE "xbf16>) {\n"
              "  %m = stablehlo.multiply %a, %a : tensor<" SHAPE "xf32>\n"
              "  %r = stablehlo.reduce_precision %m, format = e5m10 : tensor<" SHAPE "xf32>\n"
              "  %s = stablehlo.add %r, %a : tensor<" SHAPE "xf32>\n"
              "  %q = stablehlo.reduce_precision %b, format = e4m3 : tensor<" SHAPE "xbf16>\n"
              "  func.return %r, %s, %q : tensor<" SHAPE "xf32>, tensor<" SHAPE "xf32>, tensor<" SHAPE "xbf16>\n}\n",
              320, 0);
}

TEST_MAIN(NULL, NULL, T(test_k_elem_scalars_and_constant_outputs), T(test_k_elem_too_small_scratchpad_is_a_located_limit), T(test_k_elem_target_engines_by_kind), T(test_k_elem_double_buffering_overlaps), T(test_k_elem_float_binary_ops_exact), T(test_k_elem_float_unary_ops_exact),
          T(test_k_elem_tanh_cbrt_within_one_ulp), T(test_k_elem_integer_binary_ops_exact),
          T(test_k_elem_integer_unary_ops_exact), T(test_k_elem_boolean_ops_exact),
          T(test_k_elem_compare_every_direction_and_type), T(test_k_elem_convert_between_all_types),
          T(test_k_elem_select_clamp_iota_constants_fused), T(test_k_elem_bf16_chain_rounds_after_every_op),
          T(test_k_elem_views_broadcast_transpose_slice), T(test_k_elem_immediate_on_the_left),
          T(test_k_elem_big_add_reaches_hbm_bandwidth), T(test_k_elem_reduce_precision_hand_values),
          T(test_k_elem_reduce_precision_formats))
