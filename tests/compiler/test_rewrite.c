/* Graph peepholes (compiler/rewrite.c): every rewrite checked against the
 * golden interpreter running the original and the rewritten compare. */
#include "tests/prog.h"

#include "compiler/cc_internal.h"
#include "runtime/runtime.h"
#include "interp/interp.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t f64_bits(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* x: the edge values of f32, and the floats around each tested c */
static const float xs[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.1f, 0x1.99999ap-4f, 0x1.999998p-4f,
                           FLT_MAX, -FLT_MAX, 0x1p-149f, -0x1p-149f, FLT_MIN, 3.0f, 0x1.fffffep-1f, 0x1.000002p0f};
#define NX (sizeof xs / sizeof xs[0])

static const char *const dir_names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};

/* The program: compare(convert(x) , c) (or c, convert(x) when swap) with c
 * an f64 splat; or, when cbits32 is given, compare(x, c') on f32. */
static void program(char *buf, size_t cap, const char *dir, bool swap, bool f32, uint64_t cbits, const char *ctype)
{
    size_t n = (size_t)snprintf(buf, cap, "func.func @main() -> tensor<%zuxi1> {\n  %%x = stablehlo.constant dense<[", NX);
    for (size_t i = 0; i < NX; i++) n += (size_t)snprintf(buf + n, cap - n, "%s0x%08X", i ? ", " : "", f32_bits(xs[i]));
    n += (size_t)snprintf(buf + n, cap - n, "]> : tensor<%zuxf32>\n", NX);
    if (f32) {
        n += (size_t)snprintf(buf + n, cap - n,
                              "  %%c = stablehlo.constant dense<0x%08X> : tensor<%zuxf32>\n"
                              "  %%r = stablehlo.compare %s, %%x, %%c%s : (tensor<%zuxf32>, tensor<%zuxf32>) -> tensor<%zuxi1>\n",
                              (unsigned)cbits, NX, dir, ctype, NX, NX, NX);
    } else {
        n += (size_t)snprintf(buf + n, cap - n,
                              "  %%w = stablehlo.convert %%x : (tensor<%zuxf32>) -> tensor<%zuxf64>\n"
                              "  %%c = stablehlo.constant dense<0x%016llX> : tensor<%zuxf64>\n"
                              "  %%r = stablehlo.compare %s, %s%s : (tensor<%zuxf64>, tensor<%zuxf64>) -> tensor<%zuxi1>\n",
                              NX, NX, (unsigned long long)cbits, NX, dir, swap ? "%c, %w" : "%w, %c", ctype, NX, NX,
                              NX);
    }
    snprintf(buf + n, cap - n, "  func.return %%r : tensor<%zuxi1>\n}\n", NX);
}

static const struct graph_op *find_compare(const struct graph_module *m)
{
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == GRAPH_OP_COMPARE) return b->ops[i];
    return NULL;
}

/* The interpreter's answer on the original program equals its answer on the
 * rewritten one, for every x. */
static void check_rewrite(double c, int dir, bool swap)
{
    char src[4096], want[NX + 1], got[NX + 1];
    program(src, sizeof src, dir_names[dir], swap, false, f64_bits(c), "");
    struct base_tensor *w = prog_run_output(src, 0);
    for (size_t i = 0; i < NX; i++) want[i] = base_elem_get_i64(BASE_DT_I1, w->data, i) ? '1' : '0';
    want[NX] = 0;
    base_tensor_release(w);

    struct graph_module *m = prog_parse(src);
    struct base_arena a;
    base_arena_init(&a, 4096);
    const struct graph_op *rw = cc_rewrite_f64_compare(find_compare(m), m->n_values, &a);
    assert_non_null(rw);
    const struct graph_attr *va = graph_op_attr(rw->operands[1]->def, "value");
    assert_non_null(va);
    const struct base_tensor *ct = va->u.elements.value;
    assert_int_equal(ct->dtype, BASE_DT_F32);
    uint64_t cbits = base_elem_get_bits(BASE_DT_F32, ct->data, 0);
    const struct graph_attr *da = graph_op_attr(rw, "comparison_direction");
    char dir2[8];
    snprintf(dir2, sizeof dir2, "%.*s", (int)da->u.str.len, da->u.str.s);
    base_arena_deinit(&a);
    graph_module_destroy(m);

    program(src, sizeof src, dir2, false, true, cbits, "");
    struct base_tensor *g = prog_run_output(src, 0);
    for (size_t i = 0; i < NX; i++) got[i] = base_elem_get_i64(BASE_DT_I1, g->data, i) ? '1' : '0';
    got[NX] = 0;
    base_tensor_release(g);
    if (strcmp(got, want)) fail_msg("c = %a, %s%s: interpreter %s, rewritten %s", c, dir_names[dir],
                                    swap ? " (c on the left)" : "", want, got);
}

static void check_all_dirs(double c)
{
    for (int d = 0; d < 6; d++) {
        check_rewrite(c, d, false);
        check_rewrite(c, d, true);
    }
}

static void test_rewrite_compare_exact_constant(void **state)
{
    (void)state;
    check_all_dirs(1.0);
    check_all_dirs(-0.0);
    check_all_dirs(0.0);
    check_all_dirs(0x1p-149);
    check_all_dirs((double)FLT_MAX);
}

/* 0.1 lies strictly between two floats: EQ never, the bounds round apart */
static void test_rewrite_compare_between_floats(void **state)
{
    (void)state;
    check_all_dirs(0.1);
    check_all_dirs(-0.1);
    check_all_dirs(1.0 + 0x1p-30);
    check_all_dirs(0x1p-151); /* below the smallest subnormal */
}

static void test_rewrite_compare_huge_and_infinite(void **state)
{
    (void)state;
    check_all_dirs(1e39);
    check_all_dirs(-1e39);
    check_all_dirs((double)FLT_MAX * (1 + 0x1p-30)); /* rounds to FLT_MAX, above it */
    check_all_dirs(INFINITY);
    check_all_dirs(-INFINITY);
}

static void test_rewrite_compare_nan_constant(void **state)
{
    (void)state;
    check_all_dirs(NAN);
}

/* glm's masking compare: x == -inf */
static void test_rewrite_compare_glm_mask(void **state)
{
    (void)state;
    check_rewrite(-INFINITY, 0, false);
}

/* TOTALORDER compares and non-constant sides are left alone */
static void test_rewrite_compare_only_float_splat(void **state)
{
    (void)state;
    char src[4096];
    program(src, sizeof src, "EQ", false, false, f64_bits(1.0), ", TOTALORDER");
    struct graph_module *m = prog_parse(src);
    struct base_arena a;
    base_arena_init(&a, 4096);
    assert_null(cc_rewrite_f64_compare(find_compare(m), m->n_values, &a));
    base_arena_deinit(&a);
    graph_module_destroy(m);
    m = prog_parse("func.func @main(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xi1> {\n"
                   "  %w = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf64>\n"
                   "  %r = stablehlo.compare EQ, %w, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>\n"
                   "  func.return %r : tensor<4xi1>\n}\n");
    base_arena_init(&a, 4096);
    assert_null(cc_rewrite_f64_compare(find_compare(m), m->n_values, &a));
    base_arena_deinit(&a);
    graph_module_destroy(m);
}

/* the compiler takes the f64 compare through the rewrite */
static void test_rewrite_compare_compiles_on_trn2(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct graph_module *m =
        prog_parse("func.func @main(%x: tensor<96x32xf32>) -> tensor<96x32xi1> {\n"
                   "  %w = stablehlo.convert %x : (tensor<96x32xf32>) -> tensor<96x32xf64>\n"
                   "  %c = stablehlo.constant dense<0xFFF0000000000000> : tensor<96x32xf64>\n"
                   "  %r = stablehlo.compare EQ, %w, %c : (tensor<96x32xf64>, tensor<96x32xf64>) -> tensor<96x32xi1>\n"
                   "  func.return %r : tensor<96x32xi1>\n}\n");
    struct cc_options o;
    cc_options_default(&o);
    struct cc_plan *p = NULL;
    if (cc_compile(m, &chip, &o, &p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile failed");
    }
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* qwen's mask: the f64 side is a broadcast of a scalar constant; the
 * rewritten compare gives the interpreter's answer on the original. */
static void test_rewrite_compare_through_broadcast(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main() -> tensor<2x3xi1> {\n"
        "  %x = stablehlo.constant dense<[[0xFF800000, 1.0, -3.0], [0x7FC00000, 0xFF800000, 0.0]]> : tensor<2x3xf32>\n"
        "  %w = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xf64>\n"
        "  %s = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>\n"
        "  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f64>) -> tensor<2x3xf64>\n"
        "  %r = stablehlo.compare EQ, %w, %c : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>\n"
        "  func.return %r : tensor<2x3xi1>\n}\n";
    struct graph_module *m = prog_parse(src);
    struct base_arena a;
    base_arena_init(&a, 4096);
    const struct graph_op *rw = cc_rewrite_f64_compare(find_compare(m), m->n_values, &a);
    assert_non_null(rw);
    const struct base_tensor *ct = graph_op_attr(rw->operands[1]->def, "value")->u.elements.value;
    assert_int_equal(ct->dtype, BASE_DT_F32);
    assert_true(isinf(base_elem_get_f64(BASE_DT_F32, ct->data, 0)));
    base_arena_deinit(&a);
    graph_module_destroy(m);
    /* and the compiled program computes the interpreter's mask */
    struct base_tensor *want = prog_run_output(src, 0);
    static const int expect[6] = {1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 6; i++) assert_int_equal(base_elem_get_i64(BASE_DT_I1, want->data, (size_t)i), expect[i]);
    base_tensor_release(want);
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct interp_case_result res;
    char chk[2048];
    snprintf(chk, sizeof chk, "%.*s", (int)(strstr(src, "  func.return") - src), src);
    /* turn it into a case: check the mask against its known value */
    char *sig = strstr(chk, " -> tensor<2x3xi1>");
    memmove(sig, sig + strlen(" -> tensor<2x3xi1>"), strlen(sig + strlen(" -> tensor<2x3xi1>")) + 1);
    strcat(chk, "  %e = stablehlo.constant dense<[[true, false, false], [false, true, false]]> : tensor<2x3xi1>\n"
                "  stablehlo.custom_call @check.expect_eq(%r, %e) : (tensor<2x3xi1>, tensor<2x3xi1>) -> ()\n"
                "  func.return\n}\n");
    assert_int_equal(rt_run_case(chk, strlen(chk), "mask.mlir", 1, &chip, NULL, &res, NULL), BASE_OK);
    if (res.outcome != INTERP_CASE_PASS) fail_msg("%s", res.reason);
}

TEST_MAIN(NULL, NULL, T(test_rewrite_compare_exact_constant), T(test_rewrite_compare_between_floats),
          T(test_rewrite_compare_huge_and_infinite), T(test_rewrite_compare_nan_constant),
          T(test_rewrite_compare_glm_mask), T(test_rewrite_compare_through_broadcast), T(test_rewrite_compare_only_float_splat),
          T(test_rewrite_compare_compiles_on_trn2))
