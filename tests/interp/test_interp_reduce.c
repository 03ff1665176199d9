/* Reductions on the golden interpreter: reduce, reduce_window,
 * select_and_scatter, map and chlo.scan.  Expected values are the spec's
 * worked examples, the reference interpreter's test suite, or worked by hand
 * in the comments.
 *
 * Fast paths (a body that is a single add / max / ...) must give exactly the
 * bits the body gives when it is called: every step is rounded to the element
 * type (a bf16 sum rounds to bf16 at every step; no wider accumulator). */
#include "tests/prog.h"

#include <math.h>

/* ---- reduce -------------------------------------------------------------- */

/* spec example: sum over dimension 1 of [[0, 1, 2, 3, 4, 5]] is [15]. */
static void test_reduce_spec_example_sums_row(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1xi64> {\n"
             "  %input = stablehlo.constant dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>\n"
             "  %init = stablehlo.constant dense<0> : tensor<i64>\n"
             "  %r = \"stablehlo.reduce\"(%input, %init) ({\n"
             "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "      %s = stablehlo.add %a, %b : tensor<i64>\n"
             "      stablehlo.return %s : tensor<i64>\n"
             "  }) {dimensions = array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>\n"
             "  return %r : tensor<1xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {15};
    prog_expect_i64(prog_out(&r, 0), want, 1);
    prog_free(&r);
}

/* Reducing the outer dimension of a 2x3 matrix keeps the columns:
 * [[1, 2, 3], [10, 20, 30]] -> [11, 22, 33] (and max -> [10, 20, 30]). */
static void test_reduce_outer_dimension_keeps_columns(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<3xf32>, tensor<3xf32>) {\n"
             "  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>\n"
             "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
             "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
             "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
             "  %t = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
             "  return %s, %t : tensor<3xf32>, tensor<3xf32>\n"
             "}\n",
             NULL, 0);
    const double sums[] = {11, 22, 33}, maxs[] = {10, 20, 30};
    prog_expect_f64(prog_out(&r, 0), sums, 3, 0);
    prog_expect_f64(prog_out(&r, 1), maxs, 3, 0);
    prog_free(&r);
}

/* A bf16 sum rounds to bf16 at every step, as its add body does: 256 + 1 is
 * 257, not a bf16 value (the spacing at 256 is 2), and rounds to even, 256;
 * so 256 + 1 + 1 + 1 + 1 is 256 (summing in a wider type would give 260). */
static void test_reduce_bf16_sum_rounds_every_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<bf16> {\n"
             "  %x = stablehlo.constant dense<[256.0, 1.0, 1.0, 1.0, 1.0]> : tensor<5xbf16>\n"
             "  %z = stablehlo.constant dense<0.0> : tensor<bf16>\n"
             "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<5xbf16>, tensor<bf16>) -> tensor<bf16>\n"
             "  return %s : tensor<bf16>\n"
             "}\n",
             NULL, 0);
    const double want[] = {256};
    prog_expect_f64(prog_out(&r, 0), want, 1, 0);
    prog_free(&r);
}

/* An f32 sum adds in f32: 1e8 + 1 is 1e8 (the f32 spacing at 1e8 is 8), so
 * [1e8, 1, -1e8] sums to 0, along the last dim and along an outer dim. */
static void test_reduce_f32_sums_step_by_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<f32>, tensor<2xf32>) {\n"
             "  %x = stablehlo.constant dense<[1.0e8, 1.0, -1.0e8]> : tensor<3xf32>\n"
             "  %y = stablehlo.constant dense<[[1.0e8, 2.0], [1.0, 2.0], [-1.0e8, 2.0]]> : tensor<3x2xf32>\n"
             "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
             "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
             "  %t = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x2xf32>, tensor<f32>) -> tensor<2xf32>\n"
             "  return %s, %t : tensor<f32>, tensor<2xf32>\n"
             "}\n",
             NULL, 0);
    const double s0[] = {0}, t0[] = {0, 6};
    prog_expect_f64(prog_out(&r, 0), s0, 1, 0);
    prog_expect_f64(prog_out(&r, 1), t0, 2, 0);
    prog_free(&r);
}

/* Runs an op (pre + body + post: reduce or reduce_window text over %x with
 * init %z) twice: once with a plain add body (the fast path) and once with
 * add, negate, negate (the same values, through region calls); the results
 * are outputs 0 and 1. */
static void run_add_both_ways(struct prog *r, const char *pre, const char *post, const char *ty, const char *rty,
                              struct base_tensor *x)
{
    const char *fast = "    %s = stablehlo.add %a, %b : tensor<ELT>\n    stablehlo.return %s : tensor<ELT>\n";
    const char *slow = "    %s = stablehlo.add %a, %b : tensor<ELT>\n    %n = stablehlo.negate %s : tensor<ELT>\n"
                       "    %m = stablehlo.negate %n : tensor<ELT>\n    stablehlo.return %m : tensor<ELT>\n";
    const char *elt = base_dtype_name(x->dtype);
    char body[2][512], src[4096];
    for (int i = 0; i < 2; i++) {
        const char *b = i ? slow : fast;
        size_t o = 0;
        for (const char *c = b; *c && o + 16 < sizeof body[i]; c++) {
            if (!strncmp(c, "ELT", 3)) {
                o += (size_t)snprintf(body[i] + o, sizeof body[i] - o, "%s", elt);
                c += 2;
            } else {
                body[i][o++] = *c;
            }
        }
        body[i][o] = 0;
    }
    snprintf(src, sizeof src,
             "func.func @main(%%x: %s) -> (%s, %s) {\n"
             "  %%z = stablehlo.constant dense<0.0> : tensor<%s>\n"
             "  %%r0 = %s%s%s\n"
             "  %%r1 = %s%s%s\n"
             "  return %%r0, %%r1 : %s, %s\n"
             "}\n",
             ty, rty, rty, elt, pre, body[0], post, pre, body[1], post, rty, rty);
    struct base_tensor *in[1] = {x};
    prog_run(r, src, in, 1);
}

/* Pseudo-random values in [-4, 4) spread over magnitudes, rounded to t's type. */
static void fill_spread(struct base_tensor *t)
{
    struct base_rng rng;
    base_rng_seed(&rng, test_seed() * 31 + 3);
    for (int64_t i = 0; i < t->count; i++) {
        double v = (base_rng_uniform(&rng) * 8.0 - 4.0) * ldexp(1.0, (int)(base_rng_next(&rng) % 12) - 6);
        base_elem_set_f64(t->dtype, t->data, (size_t)i, v);
    }
}

static void expect_same_bits(const struct base_tensor *a, const struct base_tensor *b)
{
    assert_int_equal(a->count, b->count);
    int64_t bad = 0;
    for (int64_t i = 0; i < a->count; i++) {
        uint64_t x = base_elem_get_bits(a->dtype, a->data, (size_t)i), y = base_elem_get_bits(b->dtype, b->data, (size_t)i);
        if (x != y && bad++ < 5)
            fprintf(stderr, "element %lld: 0x%llx vs 0x%llx (seed %llu)\n", (long long)i, (unsigned long long)x,
                    (unsigned long long)y, (unsigned long long)test_seed());
    }
    assert_int_equal(bad, 0);
}

/* The fast bf16 / f32 sums give exactly the bits of their body called
 * element by element, and of a plain loop that rounds to the type after each
 * add; along the last dim and along the first. */
static void check_reduce_sum_matches_body(enum base_dtype dt)
{
    int64_t dims[2] = {3, 400};
    struct base_tensor *x = NULL;
    assert_int_equal(base_tensor_create(dt, 2, dims, &x), BASE_OK);
    fill_spread(x);
    for (int d = 0; d < 2; d++) {
        char ty[64], rty[64], pre[256], post[256];
        const char *e = base_dtype_name(dt);
        snprintf(ty, sizeof ty, "tensor<3x400x%s>", e);
        snprintf(rty, sizeof rty, "tensor<%dx%s>", d ? 3 : 400, e);
        snprintf(pre, sizeof pre, "\"stablehlo.reduce\"(%%x, %%z) ({\n  ^bb0(%%a: tensor<%s>, %%b: tensor<%s>):\n", e, e);
        snprintf(post, sizeof post, "  }) {dimensions = array<i64: %d>} : (%s, tensor<%s>) -> %s", d, ty, e, rty);
        struct prog r;
        run_add_both_ways(&r, pre, post, ty, rty, x);
        expect_same_bits(prog_out(&r, 0), prog_out(&r, 1));
        /* plain loop: acc = round(acc + x) in the element type, row-major */
        int64_t n_out = d ? 3 : 400;
        for (int64_t o = 0; o < n_out; o++) {
            double acc = 0.0;
            for (int64_t q = 0; q < (d ? 400 : 3); q++) {
                int64_t i = d ? o * 400 + q : q * 400 + o;
                acc = base_float_round(dt, acc + base_elem_get_f64(dt, x->data, (size_t)i));
            }
            double got = base_elem_get_f64(dt, prog_out(&r, 0)->data, (size_t)o);
            if (got != acc) fprintf(stderr, "dim %d output %lld: got %.17g, want %.17g\n", d, (long long)o, got, acc);
            assert_true(got == acc);
        }
        prog_free(&r);
    }
    base_tensor_release(x);
}

static void test_reduce_bf16_sum_matches_body(void **state)
{
    (void)state;
    check_reduce_sum_matches_body(BASE_DT_BF16);
}

static void test_reduce_f32_sum_matches_body(void **state)
{
    (void)state;
    check_reduce_sum_matches_body(BASE_DT_F32);
}

/* maximum propagates NaN (IEEE-754 maximum): max(1, NaN, 3) is NaN. */
static void test_reduce_max_propagates_nan(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<f32> {\n"
             "  %x = stablehlo.constant dense<[1.0, 0x7FC00000, 3.0]> : tensor<3xf32>\n"
             "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
             "  %s = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
             "  return %s : tensor<f32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {NAN};
    prog_expect_f64(prog_out(&r, 0), want, 1, 0);
    prog_free(&r);
}

/* Variadic reduce computing (max, argmax) with a body that keeps the earlier
 * index on ties: [3, 7, 7, 1] -> (7, 1). */
static void test_reduce_variadic_argmax_keeps_first_tie(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<i32>, tensor<i32>) {\n"
             "  %v = stablehlo.constant dense<[3, 7, 7, 1]> : tensor<4xi32>\n"
             "  %i = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>\n"
             "  %v0 = stablehlo.constant dense<-2147483648> : tensor<i32>\n"
             "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r:2 = \"stablehlo.reduce\"(%v, %i, %v0, %i0) ({\n"
             "    ^bb0(%av: tensor<i32>, %ai: tensor<i32>, %bv: tensor<i32>, %bi: tensor<i32>):\n"
             "      %gt = stablehlo.compare GT, %bv, %av : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      %nv = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<i32>\n"
             "      %ni = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>\n"
             "      stablehlo.return %nv, %ni : tensor<i32>, tensor<i32>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)\n"
             "  return %r#0, %r#1 : tensor<i32>, tensor<i32>\n"
             "}\n",
             NULL, 0);
    const int64_t v[] = {7}, i[] = {1};
    prog_expect_i64(prog_out(&r, 0), v, 1);
    prog_expect_i64(prog_out(&r, 1), i, 1);
    prog_free(&r);
}

/* The body sees (accumulator, element) in row-major order: with
 * body(a, b) = 2a + b and init 0 over [1, 2, 3]: ((0*2+1)*2+2)*2+3 = 11. */
static void test_reduce_generic_body_order(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<i64> {\n"
             "  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>\n"
             "  %z = stablehlo.constant dense<0> : tensor<i64>\n"
             "  %r = \"stablehlo.reduce\"(%x, %z) ({\n"
             "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "      %d = stablehlo.add %a, %a : tensor<i64>\n"
             "      %s = stablehlo.add %d, %b : tensor<i64>\n"
             "      stablehlo.return %s : tensor<i64>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>\n"
             "  return %r : tensor<i64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {11};
    prog_expect_i64(prog_out(&r, 0), want, 1);
    prog_free(&r);
}

/* A body using values from the enclosing function (as exporters write "any"):
 * or(a, b) then select(or, true, false) over rows [[F, F], [F, T]] -> [F, T]. */
static void test_reduce_body_with_captured_constants(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2xi1> {\n"
             "  %x = stablehlo.constant dense<[[false, false], [false, true]]> : tensor<2x2xi1>\n"
             "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
             "  %f = stablehlo.constant dense<false> : tensor<i1>\n"
             "  %r = stablehlo.reduce(%x init: %f) across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>\n"
             "   reducer(%a: tensor<i1>, %b: tensor<i1>) {\n"
             "    %o = stablehlo.or %a, %b : tensor<i1>\n"
             "    %s = stablehlo.select %o, %t, %f : tensor<i1>, tensor<i1>\n"
             "    stablehlo.return %s : tensor<i1>\n"
             "  }\n"
             "  return %r : tensor<2xi1>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {0, 1};
    prog_expect_i64(prog_out(&r, 0), want, 2);
    prog_free(&r);
}

/* A boolean body that is not symmetric, (acc > x), keeps the argument order
 * (accumulator first): init true over rows [0,0,0] [0,0,1] [1,0,0] gives
 * T (1>0 thrice), F (1>1 at the end), F (1>1 at once, then 0>0). */
static void test_reduce_boolean_body_keeps_argument_order(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<3xi1> {\n"
             "  %x = stablehlo.constant dense<[[false, false, false], [false, false, true], [true, false, false]]> : tensor<3x3xi1>\n"
             "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
             "  %r = \"stablehlo.reduce\"(%x, %t) ({\n"
             "    ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
             "      %g = stablehlo.compare GT, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
             "      stablehlo.return %g : tensor<i1>\n"
             "  }) {dimensions = array<i64: 1>} : (tensor<3x3xi1>, tensor<i1>) -> tensor<3xi1>\n"
             "  return %r : tensor<3xi1>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {1, 0, 0};
    prog_expect_i64(prog_out(&r, 0), want, 3);
    prog_free(&r);
}

/* A body with an op the scalar evaluator does not cover (abs) runs through
 * region calls: max |x| over [-5, 3, -2] is 5. */
static void test_reduce_body_with_other_ops(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<i32> {\n"
             "  %x = stablehlo.constant dense<[-5, 3, -2]> : tensor<3xi32>\n"
             "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r = \"stablehlo.reduce\"(%x, %z) ({\n"
             "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
             "      %m = stablehlo.abs %b : tensor<i32>\n"
             "      %s = stablehlo.maximum %a, %m : tensor<i32>\n"
             "      stablehlo.return %s : tensor<i32>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<i32>) -> tensor<i32>\n"
             "  return %r : tensor<i32>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {5};
    prog_expect_i64(prog_out(&r, 0), want, 1);
    prog_free(&r);
}

/* compare with TOTALORDER orders NaN above +inf: a max-by-total-order body
 * over [1, NaN, inf] keeps NaN; with FLOAT comparison NaN never wins. */
static void test_reduce_total_order_compare(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<f32>, tensor<f32>) {\n"
             "  %x = stablehlo.constant dense<[1.0, 0x7FC00000, 0x7F800000]> : tensor<3xf32>\n"
             "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
             "  %t = \"stablehlo.reduce\"(%x, %m) ({\n"
             "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
             "      %c = stablehlo.compare GT, %b, %a, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
             "      %s = stablehlo.select %c, %b, %a : tensor<i1>, tensor<f32>\n"
             "      stablehlo.return %s : tensor<f32>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
             "  %u = \"stablehlo.reduce\"(%x, %m) ({\n"
             "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
             "      %c = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
             "      %s = stablehlo.select %c, %b, %a : tensor<i1>, tensor<f32>\n"
             "      stablehlo.return %s : tensor<f32>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
             "  return %t, %u : tensor<f32>, tensor<f32>\n"
             "}\n",
             NULL, 0);
    const double nan_want[] = {NAN}, inf_want[] = {INFINITY};
    prog_expect_f64(prog_out(&r, 0), nan_want, 1, 0);
    prog_expect_f64(prog_out(&r, 1), inf_want, 1, 0);
    prog_free(&r);
}

/* ---- reduce_window ------------------------------------------------------- */

/* spec example (interpret/reduce_window.mlir): base and window dilations with
 * padding give [[0, 0], [3, 4]]. */
static void test_reduce_window_spec_example(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x2xi64> {\n"
             "  %input = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>\n"
             "  %init = stablehlo.constant dense<0> : tensor<i64>\n"
             "  %r = \"stablehlo.reduce_window\"(%input, %init) ({\n"
             "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "      %s = stablehlo.add %a, %b : tensor<i64>\n"
             "      stablehlo.return %s : tensor<i64>\n"
             "  }) {base_dilations = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>,\n"
             "      window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>,\n"
             "      window_strides = array<i64: 4, 1>} : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>\n"
             "  return %r : tensor<2x2xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {0, 0, 3, 4};
    prog_expect_i64(prog_out(&r, 0), want, 4);
    prog_free(&r);
}

/* 1-D max pool, window 2, stride 2, padding [1, 1] with -inf:
 * padded [-inf, 1, 5, 2, 4, 3, -inf] -> windows [-inf,1] [5,2] [4,3] -> [1, 5, 4]. */
static void test_reduce_window_max_pool_with_padding(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<3xf32> {\n"
             "  %x = stablehlo.constant dense<[1.0, 5.0, 2.0, 4.0, 3.0]> : tensor<5xf32>\n"
             "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
             "  %r = \"stablehlo.reduce_window\"(%x, %m) ({\n"
             "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
             "      %s = stablehlo.maximum %a, %b : tensor<f32>\n"
             "      stablehlo.return %s : tensor<f32>\n"
             "  }) {padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>,\n"
             "      window_strides = array<i64: 2>} : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>\n"
             "  return %r : tensor<3xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {1, 5, 4};
    prog_expect_f64(prog_out(&r, 0), want, 3, 0);
    prog_free(&r);
}

/* A bf16 running sum (reduce_window, window 64 with padding, as a cumsum)
 * gives the bits of its body called step by step. */
static void test_reduce_window_bf16_sum_matches_body(void **state)
{
    (void)state;
    int64_t dims[1] = {300};
    struct base_tensor *x = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 1, dims, &x), BASE_OK);
    fill_spread(x);
    const char *pre = "\"stablehlo.reduce_window\"(%x, %z) ({\n  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n";
    const char *post = "  }) {padding = dense<[[63, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 64>} "
                       ": (tensor<300xbf16>, tensor<bf16>) -> tensor<300xbf16>";
    struct prog r;
    run_add_both_ways(&r, pre, post, "tensor<300xbf16>", "tensor<300xbf16>", x);
    expect_same_bits(prog_out(&r, 0), prog_out(&r, 1));
    prog_free(&r);
    base_tensor_release(x);
}

/* A window sums in f32 step by step: a window of 3 over [1e8, 1, -1e8] is 0. */
static void test_reduce_window_f32_sums_step_by_step(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<1xf32> {\n"
             "  %x = stablehlo.constant dense<[1.0e8, 1.0, -1.0e8]> : tensor<3xf32>\n"
             "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
             "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
             "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
             "      %s = stablehlo.add %a, %b : tensor<f32>\n"
             "      stablehlo.return %s : tensor<f32>\n"
             "  }) {window_dimensions = array<i64: 3>} : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>\n"
             "  return %r : tensor<1xf32>\n"
             "}\n",
             NULL, 0);
    const double want[] = {0};
    prog_expect_f64(prog_out(&r, 0), want, 1, 0);
    prog_free(&r);
}

/* The generic path (a body that is not a single op): window sums of squares
 * (a + b*b), window 2, stride 1 over [1, 2, 3] -> [1+4, 4+9] = [5, 13]. */
static void test_reduce_window_generic_body(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2xi32> {\n"
             "  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
             "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %r = \"stablehlo.reduce_window\"(%x, %z) ({\n"
             "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
             "      %q = stablehlo.multiply %b, %b : tensor<i32>\n"
             "      %s = stablehlo.add %a, %q : tensor<i32>\n"
             "      stablehlo.return %s : tensor<i32>\n"
             "  }) {window_dimensions = array<i64: 2>} : (tensor<3xi32>, tensor<i32>) -> tensor<2xi32>\n"
             "  return %r : tensor<2xi32>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {5, 13};
    prog_expect_i64(prog_out(&r, 0), want, 2);
    prog_free(&r);
}

/* ---- select_and_scatter -------------------------------------------------- */

/* spec example (interpret/select_and_scatter.mlir). */
static void test_select_and_scatter_spec_example(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<4x2xi64> {\n"
             "  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>\n"
             "  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>\n"
             "  %init = stablehlo.constant dense<0> : tensor<i64>\n"
             "  %r = \"stablehlo.select_and_scatter\"(%operand, %source, %init) ({\n"
             "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "      %c = stablehlo.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
             "      stablehlo.return %c : tensor<i1>\n"
             "  }, {\n"
             "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
             "      %s = stablehlo.add %a, %b : tensor<i64>\n"
             "      stablehlo.return %s : tensor<i64>\n"
             "  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>,\n"
             "      padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} :\n"
             "      (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>\n"
             "  return %r : tensor<4x2xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {0, 0, 0, 0, 5, 14, 7, 0};
    prog_expect_i64(prog_out(&r, 0), want, 8);
    prog_free(&r);
}

/* ---- map ----------------------------------------------------------------- */

/* spec example: map multiply over two 2x2 tensors. */
static void test_map_spec_example(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2x2xi64> {\n"
             "  %a = stablehlo.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>\n"
             "  %b = stablehlo.constant dense<[[4, 5], [6, 7]]> : tensor<2x2xi64>\n"
             "  %r = \"stablehlo.map\"(%a, %b) ({\n"
             "    ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
             "      %m = stablehlo.multiply %x, %y : tensor<i64>\n"
             "      stablehlo.return %m : tensor<i64>\n"
             "  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>\n"
             "  return %r : tensor<2x2xi64>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {0, 5, 12, 21};
    prog_expect_i64(prog_out(&r, 0), want, 4);
    prog_free(&r);
}

/* A map body with several ops and a result type of its own: x - y compared
 * with 0 gives [1 > 2, 5 > 3] = [false, true]. */
static void test_map_generic_body_changes_type(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> tensor<2xi1> {\n"
             "  %a = stablehlo.constant dense<[1, 5]> : tensor<2xi32>\n"
             "  %b = stablehlo.constant dense<[2, 3]> : tensor<2xi32>\n"
             "  %r = \"stablehlo.map\"(%a, %b) ({\n"
             "    ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"
             "      %d = stablehlo.subtract %x, %y : tensor<i32>\n"
             "      %z = stablehlo.constant dense<0> : tensor<i32>\n"
             "      %c = stablehlo.compare GT, %d, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      stablehlo.return %c : tensor<i1>\n"
             "  }) {dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>\n"
             "  return %r : tensor<2xi1>\n"
             "}\n",
             NULL, 0);
    const int64_t want[] = {0, 1};
    prog_expect_i64(prog_out(&r, 0), want, 2);
    prog_free(&r);
}

/* ---- chlo.scan ----------------------------------------------------------- */

/* interpret/chlo/scan.mlir: cumulative sum along dimension 1. */
static void test_scan_cumsum_along_dim1(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<2x3xi32>, tensor<2xi32>) {\n"
             "  %input = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
             "  %init = stablehlo.constant dense<0> : tensor<2xi32>\n"
             "  %0:2 = chlo.scan(%input) inits(%init) dimension=1 {\n"
             "  ^bb0(%x: tensor<2xi32>, %c: tensor<2xi32>):\n"
             "    %1 = stablehlo.add %x, %c : tensor<2xi32>\n"
             "    stablehlo.return %1, %1 : tensor<2xi32>, tensor<2xi32>\n"
             "  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)\n"
             "  return %0#0, %0#1 : tensor<2x3xi32>, tensor<2xi32>\n"
             "}\n",
             NULL, 0);
    const int64_t sums[] = {1, 3, 6, 4, 9, 15}, carry[] = {6, 15};
    prog_expect_i64(prog_out(&r, 0), sums, 6);
    prog_expect_i64(prog_out(&r, 1), carry, 2);
    prog_free(&r);
}

/* is_reverse scans from the end: suffix sums of [1, 2, 3, 4] are [10, 9, 7, 4]. */
static void test_scan_reverse_gives_suffix_sums(void **state)
{
    (void)state;
    struct prog r;
    prog_run(&r,
             "func.func @main() -> (tensor<4xi32>, tensor<i32>) {\n"
             "  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
             "  %init = stablehlo.constant dense<0> : tensor<i32>\n"
             "  %0:2 = chlo.scan(%input) inits(%init) dimension=0 attributes {is_reverse = true} {\n"
             "  ^bb0(%x: tensor<i32>, %c: tensor<i32>):\n"
             "    %1 = stablehlo.add %x, %c : tensor<i32>\n"
             "    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>\n"
             "  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)\n"
             "  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>\n"
             "}\n",
             NULL, 0);
    const int64_t sums[] = {10, 9, 7, 4}, carry[] = {10};
    prog_expect_i64(prog_out(&r, 0), sums, 4);
    prog_expect_i64(prog_out(&r, 1), carry, 1);
    prog_free(&r);
}

TEST_MAIN(NULL, NULL,
          T(test_reduce_spec_example_sums_row),
          T(test_reduce_outer_dimension_keeps_columns),
          T(test_reduce_bf16_sum_rounds_every_step),
          T(test_reduce_f32_sums_step_by_step),
          T(test_reduce_bf16_sum_matches_body),
          T(test_reduce_f32_sum_matches_body),
          T(test_reduce_max_propagates_nan),
          T(test_reduce_variadic_argmax_keeps_first_tie),
          T(test_reduce_generic_body_order),
          T(test_reduce_body_with_captured_constants),
          T(test_reduce_boolean_body_keeps_argument_order),
          T(test_reduce_body_with_other_ops),
          T(test_reduce_total_order_compare),
          T(test_reduce_window_spec_example),
          T(test_reduce_window_max_pool_with_padding),
          T(test_reduce_window_generic_body),
          T(test_reduce_window_bf16_sum_matches_body),
          T(test_reduce_window_f32_sums_step_by_step),
          T(test_select_and_scatter_spec_example),
          T(test_map_spec_example),
          T(test_map_generic_body_changes_type),
          T(test_scan_cumsum_along_dim1),
          T(test_scan_reverse_gives_suffix_sums))
