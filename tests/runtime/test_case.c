/* rt_run_case and rt_module_in_scope (runtime/case.c): a conformance case
 * run through the compiled path is judged by its own check ops on the
 * values the simulated machine produced; the scope follows the op and type
 * list of the compiled-conformance bar. */
#include "tests/prog.h"

#include "runtime/runtime.h"
#include "interp/interp.h"

#include <stdio.h>
#include <string.h>

static void load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load %s", name);
    }
}

static void run_case_info(const char *chip_name, const char *src, struct interp_case_result *res,
                          struct rt_case_info *info)
{
    struct chip_desc chip;
    load_chip(chip_name, &chip);
    assert_int_equal(rt_run_case(src, strlen(src), "case.mlir", 1, &chip, NULL, res, info), BASE_OK);
}

static void run_case(const char *chip_name, const char *src, struct interp_case_result *res, bool *in_scope)
{
    struct rt_case_info info;
    run_case_info(chip_name, src, res, &info);
    if (in_scope) *in_scope = info.in_scope;
}

/* 1.5 * x + 2 over four f32 values, all exactly representable: any chip
 * must give these bits. */
static const char k_pass[] =
    "func.func @main() {\n"
    "  %x = stablehlo.constant dense<[1.0, -2.0, 0.5, 8.0]> : tensor<4xf32>\n"
    "  %a = stablehlo.constant dense<1.5> : tensor<4xf32>\n"
    "  %b = stablehlo.constant dense<2.0> : tensor<4xf32>\n"
    "  %m = stablehlo.multiply %x, %a : tensor<4xf32>\n"
    "  %y = stablehlo.add %m, %b : tensor<4xf32>\n"
    "  %e = stablehlo.constant dense<[3.5, -1.0, 2.75, 14.0]> : tensor<4xf32>\n"
    "  stablehlo.custom_call @check.expect_eq(%y, %e) : (tensor<4xf32>, tensor<4xf32>) -> ()\n"
    "  return\n"
    "}\n";

static void test_case_passes_when_the_machine_computes_the_expected_values(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct interp_case_result res;
        bool in_scope = false;
        run_case(chips[c], k_pass, &res, &in_scope);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[c], res.reason);
        assert_int_equal(res.n_checks, 1);
        assert_int_equal(res.n_checks_failed, 0);
        assert_true(in_scope);
    }
}

static void test_case_fails_with_the_located_check_when_a_value_differs(void **state)
{
    (void)state;
    char src[sizeof k_pass];
    memcpy(src, k_pass, sizeof k_pass);
    char *e = strstr(src, "14.0]");
    assert_non_null(e);
    memcpy(e, "15.0]", 5); /* 8 * 1.5 + 2 is 14, not 15 */
    struct interp_case_result res;
    run_case("trn2", src, &res, NULL);
    assert_int_equal(res.outcome, INTERP_CASE_FAIL);
    assert_int_equal(res.n_checks_failed, 1);
    if (!strstr(res.reason, "case.mlir:8:")) fail_msg("reason does not name line 8: %s", res.reason);
}

static void test_case_f64_and_unlisted_ops_are_out_of_scope_and_run_on_the_host(void **state)
{
    (void)state;
    static const char f64[] =
        "func.func @main() {\n"
        "  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>\n"
        "  %y = stablehlo.add %x, %x : tensor<2xf64>\n"
        "  %e = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf64>\n"
        "  stablehlo.custom_call @check.expect_eq(%y, %e) : (tensor<2xf64>, tensor<2xf64>) -> ()\n"
        "  return\n"
        "}\n";
    static const char chol[] =
        "func.func @main() {\n"
        "  %x = stablehlo.constant dense<[[4.0, 2.0], [2.0, 5.0]]> : tensor<2x2xf32>\n"
        "  %y = stablehlo.cholesky %x, lower = true : tensor<2x2xf32>\n"
        "  %e = stablehlo.constant dense<[[2.0, 0.0], [1.0, 2.0]]> : tensor<2x2xf32>\n"
        "  stablehlo.custom_call @check.expect_eq(%y, %e) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()\n"
        "  return\n"
        "}\n";
    const char *srcs[] = {f64, chol};
    const char *whys[] = {"element type", "stablehlo.cholesky"};
    for (int i = 0; i < 2; i++) {
        struct graph_parse_options po = {0};
        struct graph_module *m = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(graph_parse(srcs[i], strlen(srcs[i]), &po, &m, &d), BASE_OK);
        char why[128];
        assert_false(rt_module_in_scope(m, why, sizeof why));
        if (!strstr(why, whys[i])) fail_msg("case %d: why is '%s'", i, why);
        graph_module_destroy(m);
        /* out of the old scope, but they run: on the host */
        struct interp_case_result res;
        struct rt_case_info info;
        run_case_info("trn2", srcs[i], &res, &info);
        assert_false(info.in_scope);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("case %d: %s", i, res.reason);
        assert_true(info.ran);
        assert_int_equal(info.host_ops, 1);
    }
    /* one that runs entirely on the chip */
    struct interp_case_result res;
    struct rt_case_info info;
    run_case_info("trn2", k_pass, &res, &info);
    assert_true(info.ran);
    assert_int_equal(info.host_ops, 0);
    assert_true(info.launches > 0);
}

static void test_case_with_arguments_is_nocheck(void **state)
{
    (void)state;
    static const char src[] = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                              "  return %a : tensor<2xf32>\n"
                              "}\n";
    struct interp_case_result res;
    run_case("tpu-v5e", src, &res, NULL);
    assert_int_equal(res.outcome, INTERP_CASE_NOCHECK);
}

/* Entry arguments of dynamic shape: refined at size 3 (the dimension
 * argument inferred), compiled, and compared with the dynamic program on the
 * interpreter, one check per output; in scope as the refined program is. */
static void test_case_with_dynamic_arguments_runs_refined(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%b: tensor<i64>, %x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<4xf32>) {\n"
        "  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>\n"
        "  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>\n"
        "  %c4 = stablehlo.constant dense<4> : tensor<1xi32>\n"
        "  %sh = stablehlo.concatenate %b1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
        "  %k = stablehlo.constant dense<0.5> : tensor<f32>\n"
        "  %kb = stablehlo.dynamic_broadcast_in_dim %k, %sh, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>\n"
        "  %y = stablehlo.multiply %x, %kb : tensor<?x4xf32>\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, "
        "tensor<f32>) -> tensor<4xf32>\n"
        "  return %y, %s : tensor<?x4xf32>, tensor<4xf32>\n"
        "}\n";
    struct interp_case_result res;
    bool in_scope = false;
    run_case("trn2", src, &res, &in_scope);
    if (res.outcome != INTERP_CASE_PASS) fail_msg("%s", res.reason);
    assert_int_equal(res.n_checks, 2);
    assert_true(in_scope);
}

static void test_case_parse_error_is_a_located_failure(void **state)
{
    (void)state;
    static const char src[] = "func.func @main() {\n  %x = stablehlo.bogus\n}\n";
    struct interp_case_result res;
    struct rt_case_info info;
    run_case_info("trn2", src, &res, &info);
    assert_true(res.outcome == INTERP_CASE_FAIL || res.outcome == INTERP_CASE_UNSUPPORTED);
    if (!strstr(res.reason, "case.mlir:2:")) fail_msg("reason: %s", res.reason);
    assert_true(info.in_scope); /* npusim's failure, never "out of scope" */
    assert_false(info.ran);
}

/* bitcast_convert between byte widths regroups the same little-endian
 * bytes (0x01020304 -> [4, 3, 2, 1]), also from a transposed view and
 * through bf16 pairs; compiled on both families. */
static void test_case_bitcast_convert_regroups_bytes(void **state)
{
    (void)state;
    static const char src[] =
    "func.func @main() {\n"
    "  %x = stablehlo.constant dense<[16909060, -1, 305419896]> : tensor<3xi32>\n"
    "  %y = stablehlo.bitcast_convert %x : (tensor<3xi32>) -> tensor<3x4xi8>\n"
    "  %e = stablehlo.constant dense<[[4, 3, 2, 1], [-1, -1, -1, -1], [120, 86, 52, 18]]> : tensor<3x4xi8>\n"
    "  stablehlo.custom_call @check.expect_eq(%y, %e) : (tensor<3x4xi8>, tensor<3x4xi8>) -> ()\n"
    "  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<3x4xi8>) -> tensor<4x3xi8>\n"
    "  %u = stablehlo.transpose %t, dims = [1, 0] : (tensor<4x3xi8>) -> tensor<3x4xi8>\n"
    "  %z = stablehlo.bitcast_convert %u : (tensor<3x4xi8>) -> tensor<3xi32>\n"
    "  stablehlo.custom_call @check.expect_eq(%z, %x) : (tensor<3xi32>, tensor<3xi32>) -> ()\n"
    "  %h = stablehlo.bitcast_convert %x : (tensor<3xi32>) -> tensor<3x2xbf16>\n"
    "  %w = stablehlo.bitcast_convert %h : (tensor<3x2xbf16>) -> tensor<3xf32>\n"
    "  %v = stablehlo.bitcast_convert %x : (tensor<3xi32>) -> tensor<3xf32>\n"
    "  stablehlo.custom_call @check.expect_eq(%w, %v) : (tensor<3xf32>, tensor<3xf32>) -> ()\n"
    "  return\n"
    "}\n";
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct interp_case_result res;
        run_case(chips[c], src, &res, NULL);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[c], res.reason);
        assert_int_equal(res.n_checks, 3);
    }
}

/* The older check form, a verdict returned by @main: %r = custom_call
 * @check.eq(a, b) -> tensor<i1>; judged on the host like the others, and a
 * wrong value fails. */
static void test_case_check_eq_with_a_verdict_result(void **state)
{
    (void)state;
    static const char ok[] =
        "func.func @main() -> tensor<i1> {\n"
        "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  %b = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>\n"
        "  %s = stablehlo.add %a, %a : tensor<2xf32>\n"
        "  %r = stablehlo.custom_call @check.eq(%s, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>\n"
        "  return %r : tensor<i1>\n"
        "}\n";
    char bad[sizeof ok];
    memcpy(bad, ok, sizeof ok);
    char *e = strstr(bad, "[2.0, 4.0]");
    assert_non_null(e);
    e[6] = '5'; /* 2 + 2 is not 5 */
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct interp_case_result res;
        bool in_scope = false;
        run_case(chips[c], ok, &res, &in_scope);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[c], res.reason);
        assert_true(in_scope);
        run_case(chips[c], bad, &res, NULL);
        assert_int_equal(res.outcome, INTERP_CASE_FAIL);
        if (!strstr(res.reason, "case.mlir:5:")) fail_msg("reason: %s", res.reason);
    }
}

/* Tuples are flattened and tokens hold nothing: a loop carries a tuple and
 * a token (an outfeed and a probe inside), an if yields them, and the values
 * come out right on both families; a probe iteration that holds another
 * value fails. */
static const char k_tuples[] =
    "func.func @main() {\n"
    "  %i0 = stablehlo.constant dense<0> : tensor<i64>\n"
    "  %x0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
    "  %tok = stablehlo.after_all : !stablehlo.token\n"
    "  %t0 = stablehlo.tuple %i0, %x0 : tuple<tensor<i64>, tensor<2xf32>>\n"
    "  %r:2 = stablehlo.while(%s = %t0, %k = %tok) : tuple<tensor<i64>, tensor<2xf32>>, !stablehlo.token\n"
    "   cond {\n"
    "    %i = stablehlo.get_tuple_element %s[0] : (tuple<tensor<i64>, tensor<2xf32>>) -> tensor<i64>\n"
    "    %n = stablehlo.constant dense<3> : tensor<i64>\n"
    "    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %i = stablehlo.get_tuple_element %s[0] : (tuple<tensor<i64>, tensor<2xf32>>) -> tensor<i64>\n"
    "    %x = stablehlo.get_tuple_element %s[1] : (tuple<tensor<i64>, tensor<2xf32>>) -> tensor<2xf32>\n"
    "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
    "    %i1 = stablehlo.add %i, %one : tensor<i64>\n"
    "    %x1 = stablehlo.add %x, %x : tensor<2xf32>\n"
    "    %x2 = interpreter.probe %x1, probe_id = \"x\" : tensor<2xf32>\n"
    "    %k1 = \"stablehlo.outfeed\"(%x2, %k) : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token\n"
    "    %t = stablehlo.tuple %i1, %x2 : tuple<tensor<i64>, tensor<2xf32>>\n"
    "    stablehlo.return %t, %k1 : tuple<tensor<i64>, tensor<2xf32>>, !stablehlo.token\n"
    "  }\n"
    "  %x = stablehlo.get_tuple_element %r#0[1] : (tuple<tensor<i64>, tensor<2xf32>>) -> tensor<2xf32>\n"
    "  %i = stablehlo.get_tuple_element %r#0[0] : (tuple<tensor<i64>, tensor<2xf32>>) -> tensor<i64>\n"
    "  check.expect_eq_const %i, dense<3> : tensor<i64>\n"
    "  check.expect_almost_eq_const %x, dense<[8.0, 16.0]> : tensor<2xf32>\n"
    "  %e1 = stablehlo.constant dense<[4.0, 8.0]> : tensor<2xf32>\n"
    "  check.expect_serialized_eq %e1, probe_id = \"x\", iter = 1 : tensor<2xf32>\n"
    "  %p = stablehlo.constant dense<true> : tensor<i1>\n"
    "  %b:2 = \"stablehlo.if\"(%p) ({\n"
    "    %tt = stablehlo.tuple %x, %i : tuple<tensor<2xf32>, tensor<i64>>\n"
    "    stablehlo.return %tt, %r#1 : tuple<tensor<2xf32>, tensor<i64>>, !stablehlo.token\n"
    "  }, {\n"
    "    %tt = stablehlo.tuple %x0, %i0 : tuple<tensor<2xf32>, tensor<i64>>\n"
    "    stablehlo.return %tt, %tok : tuple<tensor<2xf32>, tensor<i64>>, !stablehlo.token\n"
    "  }) : (tensor<i1>) -> (tuple<tensor<2xf32>, tensor<i64>>, !stablehlo.token)\n"
    "  %bi = stablehlo.get_tuple_element %b#0[1] : (tuple<tensor<2xf32>, tensor<i64>>) -> tensor<i64>\n"
    "  check.expect_eq_const %bi, dense<3> : tensor<i64>\n"
    "  func.return\n"
    "}\n";

static void test_case_tuples_and_tokens_through_control_flow(void **state)
{
    (void)state;
    char bad[sizeof k_tuples];
    memcpy(bad, k_tuples, sizeof k_tuples);
    char *e = strstr(bad, "iter = 1");
    assert_non_null(e);
    e[7] = '2'; /* iteration 2 recorded [8, 16], not [4, 8] */
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct interp_case_result res;
        run_case(chips[c], k_tuples, &res, NULL);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[c], res.reason);
        assert_int_equal(res.n_checks, 4);
        run_case(chips[c], bad, &res, NULL);
        assert_int_equal(res.outcome, INTERP_CASE_FAIL);
        if (!strstr(res.reason, "expect_serialized_eq")) fail_msg("reason: %s", res.reason);
    }
}

TEST_MAIN(NULL, NULL, T(test_case_passes_when_the_machine_computes_the_expected_values),
          T(test_case_fails_with_the_located_check_when_a_value_differs),
          T(test_case_f64_and_unlisted_ops_are_out_of_scope_and_run_on_the_host), T(test_case_with_arguments_is_nocheck),
          T(test_case_with_dynamic_arguments_runs_refined),
          T(test_case_parse_error_is_a_located_failure), T(test_case_bitcast_convert_regroups_bytes),
          T(test_case_check_eq_with_a_verdict_result), T(test_case_tuples_and_tokens_through_control_flow))
