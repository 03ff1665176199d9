/* rng_bit_generator against the Random123 known-answer vectors
 * (Salmon et al., kat_vectors: threefry2x32_20 and philox4x32_10), through
 * the op, so that the state/counter layout is exercised too. */
#include "tests/prog.h"

#include <stdio.h>

/* Runs rng_bit_generator on state and returns the bits output as u32/u64 words. */
static void gen(const char *alg, const char *state, const char *state_ty, const char *out_ty, uint64_t *words, int n,
                uint64_t *new_state, int n_state)
{
    char src[2048];
    snprintf(src, sizeof src,
             "func.func @main() -> (%s, %s) {\n"
             "  %%s = stablehlo.constant dense<%s> : %s\n"
             "  %%ns, %%bits = stablehlo.rng_bit_generator %%s, algorithm = %s : (%s) -> (%s, %s)\n"
             "  func.return %%ns, %%bits : %s, %s\n"
             "}\n",
             state_ty, out_ty, state, state_ty, alg, state_ty, state_ty, out_ty, state_ty, out_ty);
    struct prog r;
    prog_run(&r, src, NULL, 0);
    const struct base_tensor *b = prog_out(&r, 1), *s = prog_out(&r, 0);
    assert_int_equal(b->count, n);
    for (int i = 0; i < n; i++) words[i] = base_elem_get_bits(b->dtype, b->data, (size_t)i);
    for (int i = 0; i < n_state; i++) new_state[i] = base_elem_get_bits(s->dtype, s->data, (size_t)i);
    prog_free(&r);
}

/* state = [key, counter]; one 64-bit output = one Threefry block, low word first */
static void test_threefry_matches_kat(void **state)
{
    (void)state;
    uint64_t w[1], ns[2];
    gen("THREE_FRY", "[0, 0]", "tensor<2xui64>", "tensor<1xui64>", w, 1, ns, 2);
    assert_int_equal(w[0], 0x99ba4efe6b200159ull);
    assert_int_equal(ns[1], 1);
    gen("THREE_FRY", "[18446744073709551615, 18446744073709551615]", "tensor<2xui64>", "tensor<1xui64>", w, 1, ns, 2);
    assert_int_equal(w[0], 0xbb002be71cb996fcull);
    /* key (0x13198a2e, 0x03707344), counter (0x243f6a88, 0x85a308d3) */
    gen("THREE_FRY", "[247824715720788526, 9629550131187509896]", "tensor<2xui64>", "tensor<1xui64>", w, 1, ns, 2);
    assert_int_equal(w[0], 0x483df7a0c4923a9cull);
}

/* 32-bit outputs: two elements per block along the first even dimension */
static void test_threefry_u32_splits_blocks(void **state)
{
    (void)state;
    uint64_t w[2], ns[2];
    gen("THREE_FRY", "[0, 0]", "tensor<2xui64>", "tensor<2xui32>", w, 2, ns, 2);
    assert_int_equal(w[0], 0x6b200159u);
    assert_int_equal(w[1], 0x99ba4efeu);
    assert_int_equal(ns[1], 1); /* one block consumed */
}

/* state = [key, counter lo, counter hi]; four 32-bit words per block */
static void test_philox_matches_kat(void **state)
{
    (void)state;
    uint64_t w[4], ns[3];
    gen("PHILOX", "[0, 0, 0]", "tensor<3xui64>", "tensor<4xui32>", w, 4, ns, 3);
    assert_int_equal(w[0], 0x6627e8d5u);
    assert_int_equal(w[1], 0xe169c58du);
    assert_int_equal(w[2], 0xbc57ac4cu);
    assert_int_equal(w[3], 0x9b00dbd8u);
    assert_int_equal(ns[1], 1);
    gen("PHILOX", "[18446744073709551615, 18446744073709551615, 18446744073709551615]", "tensor<3xui64>",
        "tensor<4xui32>", w, 4, ns, 3);
    assert_int_equal(w[0], 0x408f276du);
    assert_int_equal(w[1], 0x41c83b0eu);
    assert_int_equal(w[2], 0xa20bc7c6u);
    assert_int_equal(w[3], 0x6d5451fdu);
    /* the 128-bit counter carries into the high word */
    assert_int_equal(ns[1], 0);
    assert_int_equal(ns[2], 0);
}

TEST_MAIN(NULL, NULL, T(test_threefry_matches_kat), T(test_threefry_u32_splits_blocks), T(test_philox_matches_kat))
