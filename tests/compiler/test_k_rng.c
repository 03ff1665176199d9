/* Random-number kernels (compiler/k_rng.c) on the simulator against the
 * golden interpreter: rng_bit_generator bit for bit (THREE_FRY and PHILOX,
 * every output width, XLA's split of narrow outputs, counters that carry),
 * stablehlo.rng's integers exactly and its floats within f32 rounding. */
#include "tests/compiler/k_test_util.h"

static const char *chips[] = {"tpu-v5e", "trn2"};

/* Runs src's one rng op on every chip (all cores, then one core) with the
 * state argument set to words[0..n) and compares with the interpreter:
 * bit for bit when tol < 0, else |got - want| <= tol max|want|. */
static void check_state(const char *src, enum cc_kernel_kind kind, cc_emit_fn fn, const uint64_t *words, int n,
                        double tol)
{
    for (int c = 0; c < 2; c++)
        for (uint32_t cores = 0; cores < 2; cores++) {
            struct kt t;
            kt_parse(&t, src, kind);
            kt_random_inputs(&t, 7, 2.0);
            if (n > 0) {
                assert_int_equal(t.args[0]->count, n);
                for (int i = 0; i < n; i++) base_elem_set_bits(t.args[0]->dtype, t.args[0]->data, (size_t)i, words[i]);
            }
            struct chip_desc chip;
            kt_load_chip(chips[c], &chip);
            struct interp_options io;
            memset(&io, 0, sizeof io);
            struct interp_result res;
            struct base_diag d;
            base_diag_clear(&d);
            if (interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d) != BASE_OK) {
                base_diag_print(&d, stderr);
                fail_msg("interpreter failed");
            }
            struct kt_run r;
            kt_run(&t, &chip, fn, false, cores, &r);
            for (int i = 0; i < t.n_out; i++) {
                char what[96];
                snprintf(what, sizeof what, "%s (%u cores) output %d", chips[c], cores, i);
                if (tol < 0) {
                    kt_compare(r.outs[i], res.outputs[i], 0, what);
                    continue;
                }
                const struct base_tensor *g = r.outs[i], *w = res.outputs[i];
                double mx = 0, worst = 0;
                for (int64_t j = 0; j < w->count; j++) {
                    double y = base_elem_get_f64(w->dtype, w->data, (size_t)j);
                    if (fabs(y) > mx) mx = fabs(y);
                }
                for (int64_t j = 0; j < w->count; j++) {
                    double x = base_elem_get_f64(g->dtype, g->data, (size_t)j),
                           y = base_elem_get_f64(w->dtype, w->data, (size_t)j);
                    if (fabs(x - y) > worst) worst = fabs(x - y);
                }
                if (worst > tol * mx) fail_msg("%s: worst error %g > %g x max %g", what, worst, tol, mx);
            }
            kt_run_free(&r);
            interp_result_free(&res);
            kt_free(&t);
        }
}

static void rbg(const char *alg, const char *state_t, const char *out_t, const uint64_t *words, int n)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%s: %s) -> (%s, %s) {\n"
             "  %%ns, %%bits = stablehlo.rng_bit_generator %%s, algorithm = %s : (%s) -> (%s, %s)\n"
             "  func.return %%ns, %%bits : %s, %s\n}\n",
             state_t, state_t, out_t, alg, state_t, state_t, out_t, state_t, out_t);
    check_state(src, CC_K_RNG_BIT_GENERATOR, cc_emit_rng_bit_generator, words, n, -1);
}

static const uint64_t key_a[3] = {UINT64_C(0x0123456789ABCDEF), 42, 0};
/* a counter about to carry into its high word (PHILOX's 128-bit counter) */
static const uint64_t key_wrap[3] = {UINT64_C(0xDEADBEEFCAFEF00D), UINT64_C(0xFFFFFFFFFFFFFFF0), 7};

static void test_k_rng_threefry_u64(void **state)
{
    (void)state;
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<100x100xui64>", key_a, 2);
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<7x3xi64>", key_wrap, 2);
}

/* narrow outputs: one block per two elements along the first even dim
 * (here dim 1), else the largest (odd: the half rounds up) */
static void test_k_rng_threefry_narrow_split_dims(void **state)
{
    (void)state;
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<7x10x3xui32>", key_a, 2);
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<5x3x9xui8>", key_wrap, 2);
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<33xf32>", key_a, 2);
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<300x129xi16>", key_a, 2);
    rbg("THREE_FRY", "tensor<2xui64>", "tensor<ui32>", key_wrap, 2);
}

static void test_k_rng_philox_widths_and_carry(void **state)
{
    (void)state;
    rbg("PHILOX", "tensor<3xui64>", "tensor<1000xui32>", key_wrap, 3);
    rbg("PHILOX", "tensor<3xui64>", "tensor<257xui64>", key_wrap, 3);
    rbg("PHILOX", "tensor<2xui64>", "tensor<3x5xi16>", key_a, 2);
    rbg("DEFAULT", "tensor<3xui64>", "tensor<10x12xbf16>", key_a, 3);
    rbg("PHILOX", "tensor<3xui64>", "tensor<9xf64>", key_a, 3);
}

/* the testdata's case: the state a bitcast view of ui32 words */
static void test_k_rng_state_through_a_view(void **state)
{
    (void)state;
    static const uint64_t w[4] = {1, 4, 0, 1};
    check_state("func.func @main(%w: tensor<4xui32>) -> (tensor<2xui64>, tensor<100x100xui64>) {\n"
                "  %r = stablehlo.reshape %w : (tensor<4xui32>) -> tensor<2x2xui32>\n"
                "  %s = stablehlo.bitcast_convert %r : (tensor<2x2xui32>) -> tensor<2xui64>\n"
                "  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> "
                "(tensor<2xui64>, tensor<100x100xui64>)\n"
                "  func.return %ns, %bits : tensor<2xui64>, tensor<100x100xui64>\n}\n",
                CC_K_RNG_BIT_GENERATOR, cc_emit_rng_bit_generator, w, 4, -1);
}

static void rng(const char *dist, const char *bt, const char *out_t, const char *shape, int rank, double tol)
{
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%a: %s, %%b: %s) -> %s {\n"
             "  %%sh = stablehlo.constant dense<%s> : tensor<%dxi64>\n"
             "  %%r = \"stablehlo.rng\"(%%a, %%b, %%sh) {rng_distribution = #stablehlo<rng_distribution %s>} : "
             "(%s, %s, tensor<%dxi64>) -> %s\n"
             "  func.return %%r : %s\n}\n",
             bt, bt, out_t, shape, rank, dist, bt, bt, rank, out_t, out_t);
    check_state(src, CC_K_RNG, cc_emit_rng, NULL, 0, tol);
}

static void test_k_rng_rng_integers_exact(void **state)
{
    (void)state;
    rng("UNIFORM", "tensor<i32>", "tensor<300x7xi32>", "[300, 7]", 2, -1);
    rng("UNIFORM", "tensor<ui8>", "tensor<1000xui8>", "[1000]", 1, -1);
}

/* f32 arithmetic on chip, f64 in the interpreter: a few f32 ulps of the range */
static void test_k_rng_rng_floats(void **state)
{
    (void)state;
    rng("UNIFORM", "tensor<f32>", "tensor<2x3x500xf32>", "[2, 3, 500]", 3, 4e-7);
    rng("UNIFORM", "tensor<bf16>", "tensor<1000xbf16>", "[1000]", 1, 1.0 / 128);
    rng("NORMAL", "tensor<f32>", "tensor<4x333xf32>", "[4, 333]", 2, 2e-6);
    /* the bound --check allows (cc_decomposition_ulps): 16 f32 ulps of the
     * largest draw, over enough draws to reach the radius' tail */
    rng("NORMAL", "tensor<f32>", "tensor<128x1024xf32>", "[128, 1024]", 2, 16 * ldexp(1.0, -23));
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_rng_threefry_u64), cmocka_unit_test(test_k_rng_threefry_narrow_split_dims),
          cmocka_unit_test(test_k_rng_philox_widths_and_carry), cmocka_unit_test(test_k_rng_state_through_a_view),
          cmocka_unit_test(test_k_rng_rng_integers_exact), cmocka_unit_test(test_k_rng_rng_floats))
