/* The GEMM generator (compiler/gemm.h): ideal-memory cycles against closed
 * forms written here from the arrays' named parameters, results against a
 * reference GEMM written here, the simulator's checks, and properties of the
 * DMA kernel (overlap, bandwidth, determinism). */
#include "tests/sim/sim_test_util.h"

#include "compiler/gemm.h"

#include <time.h>

/* ------------------------------------------------------------ running */

struct run {
    uint64_t total_ps, total_cycles, instructions;
    uint64_t busy_pe, busy_dma_max;   /* summed over systolic engines; the busiest DMA queue */
    uint64_t busy[CHIP_MAX_ENGINES];
    struct base_tensor *c;            /* C[M, N] (functional runs) */
    struct cc_gemm_plan plan;
    struct cc_gemm_model model;
};

static void run_free(struct run *r)
{
    base_tensor_release(r->c);
    r->c = NULL;
}

static struct base_tensor *random_matrix(enum base_dtype dt, int64_t rows, int64_t cols, uint64_t seed)
{
    int64_t dims[2] = {rows, cols};
    struct base_tensor *t;
    assert_int_equal(base_tensor_create(dt, 2, dims, &t), BASE_OK);
    assert_int_equal(base_tensor_fill_random(t, seed, 1.0), BASE_OK);
    return t;
}

/* Builds and runs the GEMM (A, B NULL: timing only); checks on unless told. */
static void gemm_run(const struct chip_desc *chip, const struct cc_gemm_config *cfg, const struct base_tensor *a,
                     const struct base_tensor *b, bool checks, struct run *r)
{
    memset(r, 0, sizeof *r);
    struct base_diag d;
    base_diag_clear(&d);
    struct isa_program prog;
    if (cc_gemm_build(chip, cfg, &prog, &r->plan, &d) != BASE_OK) fail_msg("cc_gemm_build: %s", d.msg);
    assert_int_equal(cc_gemm_model(chip, &r->plan, &r->model), BASE_OK);
    bool functional = a && b && !r->plan.timing_only;
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = !functional;
    o.check_races = o.check_uninit = checks;
    struct sim *s = NULL;
    if (sim_create(chip, &o, &s, &d) != BASE_OK || sim_load(s, 0, &prog, "gemm", &d) != BASE_OK)
        fail_msg("sim: %s", d.msg);
    struct base_tensor *pa, *pb;
    assert_int_equal(cc_gemm_pack_a(&r->plan, functional ? a : NULL, &pa), BASE_OK);
    assert_int_equal(cc_gemm_pack_b(&r->plan, functional ? b : NULL, &pb), BASE_OK);
    struct sim_loc la = {r->plan.a.space, 0, r->plan.a.partition, r->plan.a.addr};
    struct sim_loc lb = {r->plan.b.space, 0, r->plan.b.partition, r->plan.b.addr};
    if (sim_write_tensor(s, &la, pa, &d) != BASE_OK || sim_write_tensor(s, &lb, pb, &d) != BASE_OK)
        fail_msg("inputs: %s", d.msg);
    base_tensor_release(pa);
    base_tensor_release(pb);
    if (sim_run(s, &d) != BASE_OK) fail_msg("sim_run: %s", d.msg);
    const struct sim_stats *st = sim_get_stats(s);
    r->total_ps = st->total_ps;
    r->total_cycles = st->total_cycles;
    r->instructions = st->instructions;
    for (uint32_t i = 0; i < st->n_engines && i < CHIP_MAX_ENGINES; i++) {
        r->busy[i] = st->engines[i].busy_ps;
        if (st->engines[i].kind == ISA_ENGINE_SYSTOLIC) r->busy_pe += st->engines[i].busy_ps;
        if (st->engines[i].kind == ISA_ENGINE_DMA && st->engines[i].busy_ps > r->busy_dma_max)
            r->busy_dma_max = st->engines[i].busy_ps;
    }
    if (functional) {
        struct sim_loc lc = {r->plan.c.space, 0, r->plan.c.partition, r->plan.c.addr};
        struct base_tensor *raw = NULL;
        if (sim_read_tensor(s, &lc, r->plan.c.dtype, r->plan.c.rank, r->plan.c.dims, &raw, &d) != BASE_OK)
            fail_msg("read C: %s", d.msg);
        assert_int_equal(cc_gemm_unpack_c(&r->plan, raw, &r->c), BASE_OK);
        base_tensor_release(raw);
    }
    sim_destroy(s);
    isa_program_deinit(&prog);
}

static void config(struct cc_gemm_config *c, uint32_t m, uint32_t k, uint32_t n, enum base_dtype dt, bool ideal)
{
    cc_gemm_config_default(c);
    c->m = m;
    c->k = k;
    c->n = n;
    c->dtype = dt;
    c->out_dtype = cc_gemm_default_out_dtype(dt);
    c->ideal_memory = ideal;
}

static struct chip_desc *load_chip(const char *name)
{
    static struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, &c, &d) != BASE_OK) fail_msg("chip %s: %s", name, d.msg);
    return &c;
}

static const struct chip_engine_desc *first_pe(const struct chip_desc *c)
{
    for (uint32_t i = 0; i < c->n_engines; i++)
        if (c->engines[i].kind == ISA_ENGINE_SYSTOLIC) return &c->engines[i];
    fail_msg("no systolic engine");
    return NULL;
}

static uint32_t n_pe(const struct chip_desc *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->n_engines; i++) n += c->engines[i].kind == ISA_ENGINE_SYSTOLIC;
    return n;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* ------------------------------------------------------- closed forms */

/* Pieces of a dimension: `total` in pieces of at most `tile`. */
static uint64_t piece(uint64_t total, uint64_t tile, uint64_t i) { return min_u64(tile, total - i * tile); }

/* cycles to stream T rows / load Sr rows on array d */
static uint64_t S_of(const struct chip_engine_desc *d, uint64_t T, enum chip_rate_class rc)
{
    uint64_t s = (uint64_t)ceil((double)T / d->rows_per_cycle[rc] - 1e-9);
    return s < d->min_stream_cycles ? d->min_stream_cycles : s;
}
static uint64_t L_of(const struct chip_engine_desc *d, uint64_t Sr) { return cdiv(Sr, d->load_rows_per_cycle); }

/* SCALE-Sim's accounting on one generic array: each fold is charged as the
 * whole R x C array whatever it uses, R + C - 2 of drain and (ws, is) R of
 * load: 2 R + C + T - 2 (os: R + C + T - 2) with S = T at rate 1; the
 * streamed dim is cut into pieces by the ISA limits (K: partitions; N: an
 * accumulator bank; M: accumulator partitions), fill and drain paid once. */
static uint64_t generic_closed_form(const struct chip_desc *c, const struct cc_gemm_config *cfg)
{
    const struct chip_engine_desc *d = first_pe(c);
    enum chip_rate_class rc = chip_rate_class_of(cfg->dtype);
    uint64_t psp = c->scratchpad.partitions, pacc = c->accumulator.partitions;
    uint64_t bank = c->accumulator.bytes_per_partition / c->accumulator.banks / 4;
    uint64_t M = cfg->m, K = cfg->k, N = cfg->n, R = d->rows, C = d->cols, D = d->dispatch_cycles;
    /* (held rows dim, its tile), (held cols dim, its tile), (streamed dim, its piece) */
    uint64_t sr, srt, sc, sct, t, tp;
    switch (d->dataflow) {
    case CHIP_DATAFLOW_OS: sr = M, srt = min_u64(R, pacc), sc = N, sct = min_u64(C, bank), t = K, tp = psp; break;
    case CHIP_DATAFLOW_IS: sr = K, srt = min_u64(R, psp), sc = N, sct = min_u64(C, bank), t = M, tp = pacc; break;
    default: sr = K, srt = min_u64(R, psp), sc = M, sct = min_u64(C, pacc), t = N, tp = bank; break;
    }
    srt = min_u64(srt, sr);
    sct = min_u64(sct, sc);
    tp = min_u64(tp, t);
    uint64_t total = 0, n = cdiv(t, tp), stream = 0;
    for (uint64_t i = 0; i < n; i++) stream += S_of(d, piece(t, tp, i), rc);
    for (uint64_t i = 0; i < cdiv(sr, srt); i++)
        for (uint64_t j = 0; j < cdiv(sc, sct); j++) {
            (void)piece(sr, srt, i), (void)piece(sc, sct, j);
            total += n * D + (d->dataflow == CHIP_DATAFLOW_OS ? 0 : L_of(d, R)) + stream + R + C - 2;
        }
    return total;
}

/* The preload pipeline on every MXU of the core (ws): matmul i issues
 * max(S_{i-1}, D + L_i) after i - 1; each MXU takes every n_pe-th M tile and
 * runs its K tiles x N pieces (the stationary tile reused along N: L = 0). */
static uint64_t preload_closed_form(const struct chip_desc *c, const struct cc_gemm_config *cfg)
{
    const struct chip_engine_desc *d = first_pe(c);
    enum chip_rate_class rc = chip_rate_class_of(cfg->dtype);
    uint64_t kt = min_u64(min_u64(d->rows, c->scratchpad.partitions), cfg->k);
    uint64_t mt = min_u64(min_u64(d->cols, c->accumulator.partitions), cfg->m);
    uint64_t nt = min_u64(c->accumulator.bytes_per_partition / c->accumulator.banks / 4, cfg->n);
    uint64_t best = 0, D = d->dispatch_cycles;
    for (uint64_t e = 0; e < n_pe(c); e++) {
        uint64_t start = 0, lastS = 0;
        bool any = false;
        for (uint64_t i = e; i < cdiv(cfg->m, mt); i += n_pe(c))
            for (uint64_t t = 0; t < cdiv(cfg->k, kt); t++)
                for (uint64_t j = 0; j < cdiv(cfg->n, nt); j++) {
                    uint64_t L = j ? 0 : L_of(d, piece(cfg->k, kt, t)), S = S_of(d, piece(cfg->n, nt, j), rc);
                    uint64_t issue = D + L;
                    start = any ? start + (lastS > issue ? lastS : issue) : issue;
                    lastS = S;
                    any = true;
                }
        uint64_t cyc = any ? start + lastS + d->rows + d->cols - 1 : 0;
        if (cyc > best) best = cyc;
    }
    return best;
}

static void expect_within_1pct(uint64_t got, uint64_t want, const char *what)
{
    double diff = fabs((double)got - (double)want) / (double)want;
    if (!(diff <= 0.01)) fail_msg("%s: simulated %llu cycles, closed form %llu (%.3f%%)", what, (unsigned long long)got,
                                  (unsigned long long)want, 100 * diff);
}

/* ------------------------------------------------------------ reference */

static float bf16r(float v) { return base_bf16_to_f32(base_f32_to_bf16(v)); }

/* C = A @ B as the arrays compute it: inputs in cfg->dtype, products rounded
 * to f32, one f32 sum per element in k order; TPU f32 through bf16 passes
 * (1: a0 b0; 3: + a0 b1 + a1 b0; 6: + a0 b2 + a1 b1 + a2 b0). */
static struct base_tensor *reference(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                     const struct base_tensor *a, const struct base_tensor *b, bool to_out)
{
    uint32_t M = cfg->m, K = cfg->k, N = cfg->n;
    uint32_t passes = cfg->precision == ISA_PREC_HIGHEST ? chip->fp32_passes_highest
                      : cfg->precision == ISA_PREC_HIGH  ? chip->fp32_passes_high
                                                         : chip->fp32_passes_default;
    bool split = cfg->dtype == BASE_DT_F32 && chip->family == CHIP_FAMILY_TPU && (passes == 1 || passes == 3 || passes == 6);
    static const int pa[6] = {0, 0, 1, 0, 1, 2}, pb[6] = {0, 1, 0, 2, 1, 0};
    int64_t dims[2] = {M, N};
    struct base_tensor *c;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &c), BASE_OK);
    float *C = c->data, *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    assert_non_null(A);
    assert_non_null(B);
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = (float)base_float_round(cfg->dtype, base_elem_get_f64(a->dtype, a->data, i));
    for (size_t i = 0; i < (size_t)K * N; i++)
        B[i] = (float)base_float_round(cfg->dtype, base_elem_get_f64(b->dtype, b->data, i));
    for (uint32_t m = 0; m < M; m++)
        for (uint32_t n = 0; n < N; n++) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < K; k++) {
                float x = A[(size_t)m * K + k], y = B[(size_t)k * N + n];
                if (!split) {
                    volatile float p = x * y;
                    acc = acc + p;
                    continue;
                }
                float xp[3], yp[3];
                for (int q = 0; q < 3; q++) {
                    xp[q] = bf16r(x);
                    x = x - xp[q];
                    yp[q] = bf16r(y);
                    y = y - yp[q];
                }
                for (uint32_t q = 0; q < passes; q++) {
                    volatile float p = xp[pa[q]] * yp[pb[q]];
                    acc = acc + p;
                }
            }
            C[(size_t)m * N + n] = acc;
        }
    free(A);
    free(B);
    if (!to_out || cfg->out_dtype == BASE_DT_F32) return c;
    struct base_tensor *o;
    assert_int_equal(base_tensor_create(cfg->out_dtype, 2, dims, &o), BASE_OK);
    base_convert(cfg->out_dtype, o->data, BASE_DT_F32, c->data, (size_t)c->count);
    base_tensor_release(c);
    return o;
}

static void expect_equal_bits(const struct base_tensor *got, const struct base_tensor *want)
{
    assert_int_equal(got->dtype, want->dtype);
    assert_int_equal(got->count, want->count);
    for (int64_t i = 0; i < got->count; i++) {
        uint64_t g = base_elem_get_bits(got->dtype, got->data, (size_t)i);
        uint64_t w = base_elem_get_bits(want->dtype, want->data, (size_t)i);
        if (g != w)
            fail_msg("C element %lld: simulated %.9g, reference %.9g", (long long)i,
                     base_elem_get_f64(got->dtype, got->data, (size_t)i), base_elem_get_f64(want->dtype, want->data, (size_t)i));
    }
}

/* Functional run of cfg on chip, compared bit for bit with the reference
 * (and the library's cc_gemm_reference with it). */
static void expect_functional(const struct chip_desc *chip, const struct cc_gemm_config *cfg)
{
    uint64_t seed = test_seed();
    struct base_tensor *a = random_matrix(cfg->dtype, cfg->m, cfg->k, seed);
    struct base_tensor *b = random_matrix(cfg->dtype, cfg->k, cfg->n, seed + 1);
    struct run r;
    gemm_run(chip, cfg, a, b, true, &r);
    assert_false(r.plan.timing_only);
    assert_non_null(r.c);
    struct base_tensor *want = reference(chip, cfg, a, b, !cfg->ideal_memory), *lib = NULL;
    expect_equal_bits(r.c, want);
    assert_int_equal(cc_gemm_reference(chip, cfg, a, b, &lib), BASE_OK);
    expect_equal_bits(lib, want);
    base_tensor_release(lib);
    base_tensor_release(want);
    base_tensor_release(a);
    base_tensor_release(b);
    run_free(&r);
}

/* A test chip (tests/sim/sim_test_util.h) with its array replaced by a
 * generic R x C one in dataflow df. */
static void generic_chip(struct chip_desc *out, uint32_t R, uint32_t C, enum chip_dataflow df)
{
    struct chip_desc base;
    tchip_init(&base);
    struct base_diag d;
    base_diag_clear(&d);
    if (cc_gemm_array_chip(&base, R, C, df, out, &d) != BASE_OK) fail_msg("array chip: %s", d.msg);
    const struct chip_engine_desc *pe = first_pe(out);
    assert_false(pe->preload);
    assert_int_equal(pe->rows, R);
    assert_int_equal(pe->cols, C);
}

/* --------------------------------------------------------------- tests */

struct shape {
    uint32_t m, k, n;
};

/* Ideal memory, every dataflow, shapes on and off the array's multiples:
 * the simulated cycles are within 1% of the closed form (and equal the
 * library's model of it). */
static void expect_generic_closed_form(enum chip_dataflow df)
{
    static const struct shape shapes[] = {{96, 64, 144}, {100, 77, 300}, {37, 200, 50}, {130, 300, 700}};
    static const uint32_t arrays[][2] = {{32, 48}, {64, 64}};
    for (size_t a = 0; a < ARRAY_LEN(arrays); a++) {
        struct chip_desc chip;
        generic_chip(&chip, arrays[a][0], arrays[a][1], df);
        for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
            struct cc_gemm_config cfg;
            config(&cfg, shapes[i].m, shapes[i].k, shapes[i].n, BASE_DT_BF16, true);
            struct run r;
            gemm_run(&chip, &cfg, NULL, NULL, true, &r);
            uint64_t want = generic_closed_form(&chip, &cfg);
            char what[96];
            snprintf(what, sizeof what, "%s %ux%u gemm %ux%ux%u", cc_gemm_dataflow_name(df), arrays[a][0], arrays[a][1],
                     cfg.m, cfg.k, cfg.n);
            expect_within_1pct(r.total_cycles, want, what);
            assert_int_equal(r.model.array_cycles, want);
        }
    }
}

static void test_gemm_ideal_ws_matches_closed_form(void **state)
{
    (void)state;
    expect_generic_closed_form(CHIP_DATAFLOW_WS);
}

static void test_gemm_ideal_os_matches_closed_form(void **state)
{
    (void)state;
    expect_generic_closed_form(CHIP_DATAFLOW_OS);
}

static void test_gemm_ideal_is_matches_closed_form(void **state)
{
    (void)state;
    expect_generic_closed_form(CHIP_DATAFLOW_IS);
}

/* `npusim gemm --array` against SCALE-Sim v2 itself: the stall-free cycles
 * it printed (scalesim-project/scale-sim-v2 @22f88b1, GEMM mode, CALC
 * bandwidth; run beside npusim, not part of the project) for GEMMs of M x N
 * with K contracted.  SCALE-Sim's figure is the index (from 0) of its last
 * cycle: ours is that + 1.  Its ws and is hold / stream the other operand
 * than the generator's, which therefore gets the transposed problem. */
static void test_gemm_array_equals_scalesim_runs(void **state)
{
    (void)state;
    static const struct {
        uint32_t m, n, k, rows, cols;
        enum chip_dataflow df;
        uint64_t printed;
    } runs[] = {
        {128, 128, 128, 128, 128, CHIP_DATAFLOW_WS, 509},     {128, 128, 128, 128, 128, CHIP_DATAFLOW_OS, 381},
        {128, 128, 128, 128, 128, CHIP_DATAFLOW_IS, 509},     {1024, 1024, 1024, 128, 128, CHIP_DATAFLOW_WS, 89983},
        {1024, 1024, 1024, 128, 128, CHIP_DATAFLOW_OS, 81791}, {1024, 1024, 1024, 128, 128, CHIP_DATAFLOW_IS, 89983},
        {128, 128, 128, 256, 256, CHIP_DATAFLOW_WS, 893},     {128, 128, 128, 256, 256, CHIP_DATAFLOW_OS, 637},
        {128, 128, 128, 256, 256, CHIP_DATAFLOW_IS, 893},     {300, 200, 700, 32, 32, CHIP_DATAFLOW_WS, 60675},
        {300, 200, 700, 32, 32, CHIP_DATAFLOW_OS, 53339},     {300, 200, 700, 32, 32, CHIP_DATAFLOW_IS, 64679},
        {300, 200, 700, 32, 64, CHIP_DATAFLOW_WS, 37487},     {300, 200, 700, 32, 64, CHIP_DATAFLOW_OS, 31759},
        {300, 200, 700, 32, 64, CHIP_DATAFLOW_IS, 35859},
    };
    const struct chip_desc *base = load_chip("trn2");
    for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
        struct chip_desc chip;
        struct base_diag d;
        base_diag_clear(&d);
        if (cc_gemm_array_chip(base, runs[i].rows, runs[i].cols, runs[i].df, &chip, &d) != BASE_OK)
            fail_msg("array chip: %s", d.msg);
        bool swap = cc_gemm_scalesim_transposes(runs[i].df);
        struct cc_gemm_config cfg;
        config(&cfg, swap ? runs[i].n : runs[i].m, runs[i].k, swap ? runs[i].m : runs[i].n, BASE_DT_BF16, true);
        struct run r;
        gemm_run(&chip, &cfg, NULL, NULL, true, &r);
        if (r.total_cycles != runs[i].printed + 1 || r.model.scalesim_cycles != runs[i].printed)
            fail_msg("%s %ux%u array, M %u N %u K %u: simulated %llu, model %llu, SCALE-Sim printed %llu",
                     cc_gemm_dataflow_name(runs[i].df), runs[i].rows, runs[i].cols, runs[i].m, runs[i].n, runs[i].k,
                     (unsigned long long)r.total_cycles, (unsigned long long)r.model.scalesim_cycles,
                     (unsigned long long)runs[i].printed);
    }
}

/* The preload model on a TPU chip's four MXUs. */
static void test_gemm_ideal_preload_tpu_matches_closed_form(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("tpu-v5e");
    assert_true(first_pe(chip)->preload);
    assert_true(n_pe(chip) > 1);
    static const struct shape shapes[] = {{512, 256, 1024}, {300, 200, 700}, {1024, 384, 640}};
    for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
        struct cc_gemm_config cfg;
        config(&cfg, shapes[i].m, shapes[i].k, shapes[i].n, BASE_DT_BF16, true);
        struct run r;
        gemm_run(chip, &cfg, NULL, NULL, true, &r);
        uint64_t want = preload_closed_form(chip, &cfg);
        expect_within_1pct(r.total_cycles, want, "tpu-v5e preload");
        assert_int_equal(r.model.array_cycles, want);
    }
}

/* v6e's 256-row MXUs take K = 256 per matmul (256 partitions), so a large
 * GEMM gets near the whole array's peak, not half of it. */
static void test_gemm_v6e_fills_256_row_arrays(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("tpu-v6e");
    const struct chip_engine_desc *d = first_pe(chip);
    assert_int_equal(d->rows, 256);
    assert_int_equal(chip->scratchpad.partitions, d->rows);
    struct cc_gemm_config cfg;
    config(&cfg, 2048, 2048, 2048, BASE_DT_BF16, true);
    struct run r;
    gemm_run(chip, &cfg, NULL, NULL, true, &r);
    assert_int_equal(r.plan.kt, d->rows);
    double secs = (double)r.total_ps * 1e-12;
    double peak = (double)n_pe(chip) * d->rows * d->cols * 2 * d->clock_ghz * 1e9 * d->rows_per_cycle[CHIP_RATE_BF16];
    assert_true(2.0 * cfg.m * cfg.n * cfg.k / secs > 0.9 * peak);
}

static void test_gemm_functional_bf16_matches_reference(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip);
    static const struct shape shapes[] = {{128, 128, 512}, {100, 300, 70}, {1, 1, 1}, {260, 130, 600}};
    for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
        struct cc_gemm_config cfg;
        config(&cfg, shapes[i].m, shapes[i].k, shapes[i].n, BASE_DT_BF16, false);
        expect_functional(&chip, &cfg);
        cfg.ideal_memory = true;
        expect_functional(&chip, &cfg);
    }
}

static void test_gemm_functional_f32_matches_reference(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip); /* Neuron-like: native f32 */
    struct cc_gemm_config cfg;
    config(&cfg, 70, 200, 130, BASE_DT_F32, false);
    expect_functional(&chip, &cfg);
    /* TPU: f32 through 1, 3 and 6 bf16 passes */
    const struct chip_desc *tpu = load_chip("tpu-v5e");
    for (int p = 0; p < ISA_PREC_COUNT; p++) {
        config(&cfg, 70, 200, 130, BASE_DT_F32, false);
        cfg.precision = (enum isa_precision)p;
        expect_functional(tpu, &cfg);
    }
}

static void test_gemm_functional_fp8_matches_reference(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip);
    struct cc_gemm_config cfg;
    config(&cfg, 150, 260, 90, BASE_DT_F8E4M3FN, false);
    assert_int_equal(cfg.out_dtype, BASE_DT_BF16);
    expect_functional(&chip, &cfg);
}

/* Generic arrays of each dataflow compute the same values. */
static void test_gemm_functional_generic_dataflows(void **state)
{
    (void)state;
    const enum chip_dataflow dfs[3] = {CHIP_DATAFLOW_WS, CHIP_DATAFLOW_OS, CHIP_DATAFLOW_IS};
    for (int i = 0; i < 3; i++) {
        struct chip_desc chip;
        generic_chip(&chip, 32, 48, dfs[i]);
        struct cc_gemm_config cfg;
        config(&cfg, 70, 90, 110, BASE_DT_BF16, false);
        expect_functional(&chip, &cfg);
        cfg.ideal_memory = true;
        expect_functional(&chip, &cfg);
    }
}

/* Timing-only and functional runs give the same cycles on every engine. */
static void test_gemm_timing_only_equals_functional(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip);
    struct cc_gemm_config cfg;
    config(&cfg, 200, 300, 600, BASE_DT_BF16, false);
    struct base_tensor *a = random_matrix(cfg.dtype, cfg.m, cfg.k, 3), *b = random_matrix(cfg.dtype, cfg.k, cfg.n, 4);
    struct run f, t;
    gemm_run(&chip, &cfg, a, b, true, &f);
    gemm_run(&chip, &cfg, NULL, NULL, true, &t);
    assert_non_null(f.c);
    assert_null(t.c);
    assert_int_equal(f.total_ps, t.total_ps);
    assert_int_equal(f.instructions, t.instructions);
    for (uint32_t i = 0; i < chip.n_engines; i++) assert_int_equal(f.busy[i], t.busy[i]);
    run_free(&f);
    base_tensor_release(a);
    base_tensor_release(b);
}

/* Two runs of the same program: identical cycles and statistics. */
static void test_gemm_runs_are_deterministic(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("trn2");
    struct cc_gemm_config cfg;
    config(&cfg, 512, 1024, 1024, BASE_DT_BF16, false);
    struct run a, b;
    gemm_run(chip, &cfg, NULL, NULL, true, &a);
    gemm_run(chip, &cfg, NULL, NULL, true, &b);
    assert_int_equal(a.total_ps, b.total_ps);
    assert_memory_equal(a.busy, b.busy, sizeof a.busy);
}

/* The program passes the race and uninitialised-read checks (gemm_run runs
 * with them on); and they are live: without the wait that orders a matmul
 * after its B chunk's DMA, the run fails a check. */
static void test_gemm_checks_catch_a_dropped_wait(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip);
    struct cc_gemm_config cfg;
    config(&cfg, 128, 256, 512, BASE_DT_BF16, false);
    struct base_diag d;
    base_diag_clear(&d);
    struct isa_program prog;
    struct cc_gemm_plan plan;
    assert_int_equal(cc_gemm_build(&chip, &cfg, &prog, &plan, &d), BASE_OK);
    /* drop every wait of the array's stream */
    struct isa_stream *pe = isa_program_stream(&prog, "pe");
    assert_non_null(pe);
    int dropped = 0;
    for (uint32_t i = 0; i < pe->n; i++) {
        struct isa_instr *in = &pe->instrs[i];
        if (!(in->flags & ISA_FLAG_WAIT)) continue;
        if (in->op == ISA_OP_SEM_WAIT) in->op = ISA_OP_NOP;
        in->flags &= (uint8_t)~ISA_FLAG_WAIT;
        in->wait_sem = 0;
        in->wait_value = 0;
        in->wait_step[0] = in->wait_step[1] = 0;
        dropped++;
    }
    assert_true(dropped > 0);
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = true;
    struct sim *s = NULL;
    assert_int_equal(sim_create(&chip, &o, &s, &d), BASE_OK);
    assert_int_equal(sim_load(s, 0, &prog, "gemm", &d), BASE_OK);
    struct base_tensor *pa, *pb;
    assert_int_equal(cc_gemm_pack_a(&plan, NULL, &pa), BASE_OK);
    assert_int_equal(cc_gemm_pack_b(&plan, NULL, &pb), BASE_OK);
    struct sim_loc la = {plan.a.space, 0, 0, plan.a.addr}, lb = {plan.b.space, 0, 0, plan.b.addr};
    assert_int_equal(sim_write_tensor(s, &la, pa, &d), BASE_OK);
    assert_int_equal(sim_write_tensor(s, &lb, pb, &d), BASE_OK);
    assert_int_equal(sim_run(s, &d), BASE_ERR_CHECK);
    base_tensor_release(pa);
    base_tensor_release(pb);
    sim_destroy(s);
    isa_program_deinit(&prog);
}

/* Double buffering overlaps: with DMA costs, the run takes less than the
 * arrays' busy time plus the busiest queue's. */
static void test_gemm_double_buffering_overlaps(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("trn2");
    struct cc_gemm_config cfg;
    config(&cfg, 2048, 2048, 2048, BASE_DT_BF16, false);
    struct run r;
    gemm_run(chip, &cfg, NULL, NULL, true, &r);
    assert_true(r.busy_dma_max > r.total_ps / 2); /* the DMA time is not negligible */
    assert_true(r.total_ps < r.busy_pe + r.busy_dma_max);
    /* and the arrays are busy most of the time */
    assert_true(r.busy_pe > r.total_ps * 8 / 10);
}

/* More HBM and queue bandwidth never makes the GEMM slower. */
static void test_gemm_more_bandwidth_never_slower(void **state)
{
    (void)state;
    struct chip_desc chip;
    tchip_init(&chip);
    struct cc_gemm_config cfg;
    config(&cfg, 256, 512, 1024, BASE_DT_BF16, false);
    const double scale[] = {0.25, 0.5, 1, 2, 4, 16};
    uint64_t prev = UINT64_MAX;
    double hbm = chip.hbm.bytes_per_ns, q = tchip_find(&chip, "dma0")->bytes_per_ns;
    for (size_t i = 0; i < ARRAY_LEN(scale); i++) {
        chip.hbm.bytes_per_ns = hbm * scale[i];
        for (uint32_t e = 0; e < chip.n_engines; e++)
            if (chip.engines[e].kind == ISA_ENGINE_DMA) chip.engines[e].bytes_per_ns = q * scale[i];
        struct run r;
        gemm_run(&chip, &cfg, NULL, NULL, false, &r);
        if (r.total_ps > prev)
            fail_msg("bandwidth x%g: %llu ps, slower than %llu ps", scale[i], (unsigned long long)r.total_ps,
                     (unsigned long long)prev);
        prev = r.total_ps;
    }
}

/* Loops keep the program small: 4096^3 on trn2 is a few thousand
 * instructions (no stream grows with K), built in milliseconds. */
static void test_gemm_program_stays_compact(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("trn2");
    struct cc_gemm_config cfg;
    uint64_t count[2];
    for (int i = 0; i < 2; i++) {
        config(&cfg, 4096, i ? 16384 : 4096, 4096, BASE_DT_BF16, false);
        struct base_diag d;
        base_diag_clear(&d);
        struct isa_program prog;
        struct cc_gemm_plan plan;
        clock_t t0 = clock();
        assert_int_equal(cc_gemm_build(chip, &cfg, &prog, &plan, &d), BASE_OK);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        count[i] = isa_program_count(&prog);
        assert_true(count[i] < 10000);
        assert_true(secs < 0.5);
        isa_program_deinit(&prog);
    }
    /* 4x the K: at most a few more instructions (peeled chunks), not 4x */
    assert_true(count[1] < count[0] + count[0] / 2);
}

/* Bad requests fail with a located message. */
static void test_gemm_rejects_unsupported(void **state)
{
    (void)state;
    const struct chip_desc *chip = load_chip("tpu-v5e"); /* no fp8 */
    struct cc_gemm_config cfg;
    config(&cfg, 128, 128, 128, BASE_DT_F8E4M3FN, false);
    struct base_diag d;
    base_diag_clear(&d);
    struct isa_program prog;
    struct cc_gemm_plan plan;
    assert_int_equal(cc_gemm_build(chip, &cfg, &prog, &plan, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "f8E4M3FN"));
    assert_non_null(strstr(d.file, "tpu-v5e"));
    assert_int_equal(prog.n_streams, 0);
}

TEST_MAIN(NULL, NULL, T(test_gemm_ideal_ws_matches_closed_form), T(test_gemm_ideal_os_matches_closed_form),
          T(test_gemm_ideal_is_matches_closed_form), T(test_gemm_array_equals_scalesim_runs),
          T(test_gemm_ideal_preload_tpu_matches_closed_form), T(test_gemm_v6e_fills_256_row_arrays),
          T(test_gemm_functional_bf16_matches_reference), T(test_gemm_functional_f32_matches_reference),
          T(test_gemm_functional_fp8_matches_reference), T(test_gemm_functional_generic_dataflows),
          T(test_gemm_timing_only_equals_functional), T(test_gemm_runs_are_deterministic),
          T(test_gemm_checks_catch_a_dropped_wait), T(test_gemm_double_buffering_overlaps),
          T(test_gemm_more_bandwidth_never_slower), T(test_gemm_program_stays_compact),
          T(test_gemm_rejects_unsupported))
