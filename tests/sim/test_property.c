/* Properties over random programs (seed printed on failure):
 *  - timing-only and functional runs give the same cycles, statistics and
 *    instruction intervals;
 *  - two runs are identical;
 *  - more HBM bandwidth never slows a run. */
#include "tests/sim/sim_test_util.h"

enum { N_ENG = 8, MAX_REC = 4096 };

static const char *const engine_names[N_ENG] = {"dma0", "dma1", "dma2", "dma3", "pe", "vec", "act", "pool"};

static uint64_t rnd(struct base_rng *r, uint64_t n) { return n ? base_rng_next(r) % n : 0; }

static enum base_dtype rnd_dt(struct base_rng *r)
{
    static const enum base_dtype dts[] = {BASE_DT_F32, BASE_DT_BF16, BASE_DT_F8E4M3FN};
    return dts[rnd(r, 3)];
}

static struct isa_ap rnd_sp(struct base_rng *r, uint16_t parts, uint32_t n, enum base_dtype dt)
{
    uint16_t p0 = (uint16_t)rnd(r, 128 - parts + 1);
    uint64_t addr = rnd(r, 32 * 1024 - 256 * 4) / 4 * 4;
    return ap_sp(ISA_SPACE_SP, p0, parts, addr, dt, n);
}

static struct isa_instr rnd_instr(struct base_rng *r, int e)
{
    uint16_t parts = (uint16_t)(1 + rnd(r, 128));
    uint32_t n = (uint32_t)(1 + rnd(r, 256));
    enum base_dtype dt = rnd_dt(r);
    if (rnd(r, 10) == 0) return ins(ISA_OP_NOP);
    if (e < 4) { /* dma */
        struct isa_ap h = ap_hbm(rnd(r, 1 << 20) / 4 * 4, parts, n, dt);
        struct isa_ap s = rnd_sp(r, parts, n, dt);
        switch (rnd(r, 3)) {
        case 0: return ins_dma(s, h);
        case 1: return ins_dma(h, s);
        default: return ins_dma(rnd_sp(r, parts, n, dt), s);
        }
    }
    if (e == 4) { /* pe */
        uint16_t K = (uint16_t)(1 + rnd(r, 128));
        uint32_t M = (uint32_t)(1 + rnd(r, 128)), N = (uint32_t)(1 + rnd(r, 512));
        if (rnd(r, 5) == 0) {
            return ins_unary_op(ISA_OP_TRANSPOSE, 0, ap_sp(ISA_SPACE_ACC, 0, (uint16_t)M, rnd(r, 8) * 2048, BASE_DT_F32, K),
                                rnd_sp(r, K, M, BASE_DT_F32));
        }
        struct isa_instr m = ins_matmul(ap_sp(ISA_SPACE_ACC, 0, (uint16_t)M, rnd(r, 8) * 2048, BASE_DT_F32, N),
                                        rnd_sp(r, K, M, dt), rnd_sp(r, K, N, dt), rnd(r, 2) ? ISA_FLAG_START : 0);
        if (dt == BASE_DT_F32) m.func = (uint8_t)rnd(r, 3);
        return m;
    }
    struct isa_ap dst = rnd_sp(r, parts, n, dt), a = rnd_sp(r, parts, n, rnd_dt(r));
    if (e == 6) { /* act */
        struct isa_instr x = ins_unary_op(ISA_OP_ACTIVATE, (unsigned)rnd(r, ISA_ACT_COUNT), dst, a);
        x.imm0 = 1;
        return x;
    }
    switch (rnd(r, 4)) {
    case 0: return ins_binary(ISA_ALU_ADD + (unsigned)rnd(r, 6), dst, a, rnd_sp(r, parts, n, rnd_dt(r)));
    case 1: return ins_unary_op(ISA_OP_COPY, 0, dst, a);
    case 2: {
        struct isa_instr t = ins(ISA_OP_TENSOR_SCALAR);
        t.func = ISA_ALU_MUL;
        t.func2 = ISA_ALU_ADD;
        t.imm0 = 2;
        t.imm1 = 1;
        t.dst = dst;
        t.src0 = a;
        return t;
    }
    default: {
        struct isa_instr m = ins(ISA_OP_MEMSET);
        m.dst = dst;
        m.imm0 = 3;
        return m;
    }
    }
}

/* Engines are ranked by a random permutation; an engine waits only on the
 * semaphores of engines ranked before it (no cycles), for at most as many
 * signals as they send, so no program deadlocks. */
static void rnd_program(struct isa_program *p, uint64_t seed)
{
    struct base_rng r;
    base_rng_seed(&r, seed);
    int order[N_ENG];
    for (int i = 0; i < N_ENG; i++) order[i] = i;
    for (int i = N_ENG - 1; i > 0; i--) {
        int j = (int)rnd(&r, (uint64_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    int64_t signals[N_ENG] = {0};
    for (int k = 0; k < N_ENG; k++) {
        int e = order[k];
        int n = (int)(2 + rnd(&r, 12));
        for (int i = 0; i < n; i++) {
            uint32_t reps = 1;
            if (rnd(&r, 6) == 0) {
                reps = (uint32_t)(2 + rnd(&r, 3));
                push(p, engine_names[e], ins_loop(reps, 1));
            }
            struct isa_instr in = rnd_instr(&r, e);
            if (k > 0 && rnd(&r, 3) == 0) {
                int w = order[rnd(&r, (uint64_t)k)];
                if (signals[w] > 0) in = with_wait(in, (uint16_t)w, (int32_t)(1 + rnd(&r, (uint64_t)signals[w])));
            }
            if (rnd(&r, 3) == 0) {
                in = with_signal(in, (uint16_t)e, 1);
                signals[e] += reps;
            }
            push(p, engine_names[e], in);
        }
    }
}

struct run {
    struct sim_stats st;
    struct sim_engine_stats eng[CHIP_MAX_ENGINES];
    int n;
    struct {
        uint32_t engine, pc;
        uint64_t start, end, visible;
    } rec[MAX_REC];
};

static void on_instr(void *u, uint64_t now, const struct sim_instr_record *r)
{
    (void)now;
    struct run *x = u;
    if (x->n < MAX_REC) {
        x->rec[x->n].engine = r->engine;
        x->rec[x->n].pc = r->stream_index;
        x->rec[x->n].start = r->start_ps;
        x->rec[x->n].end = r->end_ps;
        x->rec[x->n].visible = r->visible_ps;
        x->n++;
    }
}

static void run_program(const struct chip_desc *c, const struct isa_program *p, bool timing_only, struct run *out,
                        uint64_t seed)
{
    memset(out, 0, sizeof *out);
    struct sim_hooks h = {out, on_instr, NULL, NULL};
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = timing_only;
    o.check_races = false; /* random programs race and read garbage: only timing matters here */
    o.check_uninit = false;
    o.hooks = &h;
    struct sim *s = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_create(c, &o, &s, &d) != BASE_OK) fail_msg("seed %llu: create: %s", (unsigned long long)seed, d.msg);
    if (sim_load(s, 0, p, "random.s", &d) != BASE_OK) fail_msg("seed %llu: load: %s", (unsigned long long)seed, d.msg);
    if (sim_run(s, &d) != BASE_OK) fail_msg("seed %llu: run: %s", (unsigned long long)seed, d.msg);
    const struct sim_stats *st = sim_get_stats(s);
    out->st = *st;
    memcpy(out->eng, st->engines, st->n_engines * sizeof *out->eng);
    out->st.engines = NULL;
    sim_destroy(s);
}

static void expect_same(const struct run *a, const struct run *b, uint64_t seed, const char *what)
{
    if (memcmp(&a->st, &b->st, sizeof a->st) || memcmp(a->eng, b->eng, sizeof a->eng))
        fail_msg("seed %llu: %s: statistics differ (total %llu vs %llu ps)", (unsigned long long)seed, what,
                 (unsigned long long)a->st.total_ps, (unsigned long long)b->st.total_ps);
    if (a->n != b->n || memcmp(a->rec, b->rec, (size_t)a->n * sizeof a->rec[0]))
        fail_msg("seed %llu: %s: instruction intervals differ", (unsigned long long)seed, what);
}

static void test_property_timing_only_equals_functional(void **state)
{
    (void)state;
    static struct run a, b, c;
    struct chip_desc chip;
    for (int i = 0; i < 40; i++) {
        uint64_t seed = test_seed() * 1000 + (uint64_t)i;
        tchip_init(&chip);
        if (i % 2) ((struct chip_engine_desc *)tchip_find(&chip, "pe"))->preload = false;
        if (i % 3 == 0) chip.family = CHIP_FAMILY_TPU;
        struct isa_program p;
        isa_program_init(&p);
        rnd_program(&p, seed);
        run_program(&chip, &p, false, &a, seed);
        run_program(&chip, &p, true, &b, seed);
        run_program(&chip, &p, true, &c, seed);
        expect_same(&a, &b, seed, "functional vs timing-only");
        expect_same(&b, &c, seed, "two timing-only runs");
        assert_true(a.st.instructions > 0);
        isa_program_deinit(&p);
    }
}

static void test_property_more_hbm_bandwidth_never_slower(void **state)
{
    (void)state;
    static struct run a, b;
    struct chip_desc chip;
    const double factors[] = {1.25, 2, 10};
    for (int i = 0; i < 60; i++) {
        uint64_t seed = test_seed() * 7919 + (uint64_t)i;
        struct isa_program p;
        isa_program_init(&p);
        rnd_program(&p, seed);
        tchip_init(&chip);
        chip.hbm.bytes_per_ns = 16 + (double)(seed % 50);
        run_program(&chip, &p, true, &a, seed);
        for (size_t k = 0; k < ARRAY_LEN(factors); k++) {
            struct chip_desc fast = chip;
            fast.hbm.bytes_per_ns *= factors[k];
            run_program(&fast, &p, true, &b, seed);
            if (b.st.total_ps > a.st.total_ps)
                fail_msg("seed %llu: %gx HBM bandwidth took %llu ps, 1x took %llu ps", (unsigned long long)seed,
                         factors[k], (unsigned long long)b.st.total_ps, (unsigned long long)a.st.total_ps);
        }
        isa_program_deinit(&p);
    }
}

TEST_MAIN(NULL, NULL, T(test_property_timing_only_equals_functional), T(test_property_more_hbm_bandwidth_never_slower))
