/* The interpreter core (graph/interp.c, interp_control.c, interp_check.c,
 * conform.c): calls, control flow, value lifetimes, check recording, errors,
 * multi-process runs and conformance-case outcomes. */
#include "tests/prog.h"
#include "interp/interp.h"

#include <stdio.h>

static int64_t scalar_i64(const struct base_tensor *t)
{
    assert_int_equal(t->count, 1);
    return base_elem_get_i64(t->dtype, t->data, 0);
}

/* Runs @main without inputs and returns scalar output 0 as int64. */
static int64_t run_scalar(const char *src)
{
    struct base_tensor *t = prog_run_output(src, 0);
    int64_t v = scalar_i64(t);
    base_tensor_release(t);
    return v;
}

/* sum of 1..10 with a while loop */
static void test_while_sums_counter(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() -> tensor<i64> {\n"
        "  %c0 = stablehlo.constant dense<0> : tensor<i64>\n"
        "  %c1 = stablehlo.constant dense<1> : tensor<i64>\n"
        "  %c10 = stablehlo.constant dense<10> : tensor<i64>\n"
        "  %r:2 = stablehlo.while(%i = %c1, %s = %c0) : tensor<i64>, tensor<i64>\n"
        "   cond {\n"
        "    %p = stablehlo.compare LE, %i, %c10 : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    stablehlo.return %p : tensor<i1>\n"
        "  } do {\n"
        "    %s2 = stablehlo.add %s, %i : tensor<i64>\n"
        "    %i2 = stablehlo.add %i, %c1 : tensor<i64>\n"
        "    stablehlo.return %i2, %s2 : tensor<i64>, tensor<i64>\n"
        "  }\n"
        "  func.return %r#1 : tensor<i64>\n"
        "}\n";
    assert_int_equal(run_scalar(src), 55);
}

static void test_call_passes_arguments_and_results(void **state)
{
    (void)state;
    const char *src =
        "func.func private @twice(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {\n"
        "  %y = stablehlo.add %x, %x : tensor<i32>\n"
        "  func.return %y, %x : tensor<i32>, tensor<i32>\n"
        "}\n"
        "func.func @main() -> tensor<i32> {\n"
        "  %c = stablehlo.constant dense<21> : tensor<i32>\n"
        "  %r:2 = func.call @twice(%c) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)\n"
        "  %s = stablehlo.subtract %r#0, %r#1 : tensor<i32>\n"
        "  func.return %s : tensor<i32>\n"
        "}\n";
    assert_int_equal(run_scalar(src), 21);
}

static const char *if_src(const char *pred)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "func.func @main() -> tensor<i32> {\n"
             "  %%p = stablehlo.constant dense<%s> : tensor<i1>\n"
             "  %%a = stablehlo.constant dense<7> : tensor<i32>\n"
             "  %%r = \"stablehlo.if\"(%%p) ({\n"
             "    stablehlo.return %%a : tensor<i32>\n"
             "  }, {\n"
             "    %%n = stablehlo.negate %%a : tensor<i32>\n"
             "    stablehlo.return %%n : tensor<i32>\n"
             "  }) : (tensor<i1>) -> tensor<i32>\n"
             "  func.return %%r : tensor<i32>\n"
             "}\n",
             pred);
    return buf;
}

static void test_if_takes_the_branch_of_the_predicate(void **state)
{
    (void)state;
    assert_int_equal(run_scalar(if_src("true")), 7);
    assert_int_equal(run_scalar(if_src("false")), -7);
}

static const char *case_src(int index)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "func.func @main() -> tensor<i32> {\n"
             "  %%i = stablehlo.constant dense<%d> : tensor<i32>\n"
             "  %%r = \"stablehlo.case\"(%%i) ({\n"
             "    %%a = stablehlo.constant dense<10> : tensor<i32>\n"
             "    stablehlo.return %%a : tensor<i32>\n"
             "  }, {\n"
             "    %%b = stablehlo.constant dense<20> : tensor<i32>\n"
             "    stablehlo.return %%b : tensor<i32>\n"
             "  }) : (tensor<i32>) -> tensor<i32>\n"
             "  func.return %%r : tensor<i32>\n"
             "}\n",
             index);
    return buf;
}

/* spec: an index out of range selects the last branch */
static void test_case_out_of_range_takes_last_branch(void **state)
{
    (void)state;
    assert_int_equal(run_scalar(case_src(0)), 10);
    assert_int_equal(run_scalar(case_src(1)), 20);
    assert_int_equal(run_scalar(case_src(5)), 20);
    assert_int_equal(run_scalar(case_src(-1)), 20);
}

static void test_recursion_is_reported(void **state)
{
    (void)state;
    const char *src =
        "func.func private @f(%x: tensor<i32>) -> tensor<i32> {\n"
        "  %y = func.call @f(%x) : (tensor<i32>) -> tensor<i32>\n"
        "  func.return %y : tensor<i32>\n"
        "}\n"
        "func.func @main() -> tensor<i32> {\n"
        "  %c = stablehlo.constant dense<1> : tensor<i32>\n"
        "  %r = func.call @f(%c) : (tensor<i32>) -> tensor<i32>\n"
        "  func.return %r : tensor<i32>\n"
        "}\n";
    prog_run_fails(src, BASE_ERR_UNSUPPORTED, "recursive call of @f", 0);
}

static void test_unsupported_op_is_located(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() -> tensor<2xf32> {\n"
        "  %c = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
        "  %r = \"foo.bar\"(%c) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %r : tensor<2xf32>\n"
        "}\n";
    prog_run_fails(src, BASE_ERR_UNSUPPORTED, "foo.bar", 3);
}

/* A value used twice after a loop and a value never used must both be
 * handled by the liveness release (ASan catches use-after-free / leaks). */
static void test_values_live_until_their_last_use(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() -> tensor<i64> {\n"
        "  %a = stablehlo.constant dense<3> : tensor<i64>\n"
        "  %unused = stablehlo.add %a, %a : tensor<i64>\n"
        "  %b = stablehlo.multiply %a, %a : tensor<i64>\n"
        "  %r = \"stablehlo.if\"(%t) ({\n"
        "    %x = stablehlo.add %b, %a : tensor<i64>\n"
        "    stablehlo.return %x : tensor<i64>\n"
        "  }, {\n"
        "    stablehlo.return %b : tensor<i64>\n"
        "  }) : (tensor<i1>) -> tensor<i64>\n"
        "  %s = stablehlo.add %r, %b : tensor<i64>\n"
        "  func.return %s : tensor<i64>\n"
        "}\n";
    /* %t is defined below: rewrite with a predicate first */
    char buf[2048];
    const char *at = strstr(src, "  %unused");
    snprintf(buf, sizeof buf, "%.*s  %%t = stablehlo.constant dense<true> : tensor<i1>\n%s", (int)(at - src), src,
             at);
    assert_int_equal(run_scalar(buf), 3 * 3 + 3 + 9);
}

static void test_checks_are_recorded_not_fatal(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() {\n"
        "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
        "  check.expect_eq_const %a, dense<[1, 2, 3]> : tensor<3xi32>\n"
        "  check.expect_eq_const %a, dense<[1, 5, 3]> : tensor<3xi32>\n"
        "  %f = stablehlo.constant dense<1.0> : tensor<f32>\n"
        "  check.expect_almost_eq_const %f, dense<1.00001> : tensor<f32>\n"
        "  func.return\n"
        "}\n";
    struct prog r;
    prog_start(&r, src, NULL, 0, 1, 1);
    assert_int_equal(r.st, BASE_OK);
    assert_int_equal(r.res.n_checks, 3);
    assert_int_equal(r.res.n_checks_failed, 1);
    assert_true(r.res.checks[0].passed);
    assert_false(r.res.checks[1].passed);
    assert_int_equal(r.res.checks[1].loc.line, 4);
    assert_non_null(strstr(r.res.checks[1].what, "[1]"));
    assert_true(r.res.checks[2].passed);
    prog_free(&r);
}

/* expect_close allows 3 ULP by default: 1.0 and 1.0 + 3 ulp pass, + 4 fail */
static void test_expect_close_counts_ulps(void **state)
{
    (void)state;
    const char *src =
        "func.func @main() {\n"
        "  %a = stablehlo.constant dense<[1.0, 1.0, -0.0]> : tensor<3xf32>\n"
        "  %b = stablehlo.constant dense<[0x3F800003, 0x3F800004, 0.0]> : tensor<3xf32>\n"
        "  %s1 = stablehlo.slice %a [0:1] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  %t1 = stablehlo.slice %b [0:1] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  %s2 = stablehlo.slice %a [1:2] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  %t2 = stablehlo.slice %b [1:2] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  %s3 = stablehlo.slice %a [2:3] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  %t3 = stablehlo.slice %b [2:3] : (tensor<3xf32>) -> tensor<1xf32>\n"
        "  stablehlo.custom_call @check.expect_close(%s1, %t1) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()\n"
        "  stablehlo.custom_call @check.expect_close(%s2, %t2) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()\n"
        "  stablehlo.custom_call @check.expect_close(%s3, %t3) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()\n"
        "  func.return\n"
        "}\n";
    struct prog r;
    prog_start(&r, src, NULL, 0, 1, 1);
    assert_int_equal(r.st, BASE_OK);
    assert_int_equal(r.res.n_checks, 3);
    assert_true(r.res.checks[0].passed);
    assert_false(r.res.checks[1].passed);
    assert_true(r.res.checks[2].passed); /* -0 vs +0: 0 ULP */
    prog_free(&r);
}

static void test_inputs_are_type_checked(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  func.return %x : tensor<2xf32>\n"
        "}\n";
    struct base_tensor *t = NULL;
    int64_t dims[1] = {3};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, dims, &t), BASE_OK);
    struct prog r;
    prog_start(&r, src, &t, 1, 1, 1);
    assert_int_equal(r.st, BASE_ERR_INVALID);
    assert_non_null(strstr(r.diag.msg, "expected tensor<2xf32>, got tensor<3xf32>"));
    base_tensor_release(t);
    prog_free(&r);
}

/* Four processes, each gets its own input; replica_id tells them apart. */
static void test_processes_run_with_their_own_inputs(void **state)
{
    (void)state;
    const char *src =
        "func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
        "  %id = stablehlo.replica_id : tensor<ui32>\n"
        "  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
        "  %c = stablehlo.constant dense<100> : tensor<i32>\n"
        "  %m = stablehlo.multiply %i, %c : tensor<i32>\n"
        "  %r = stablehlo.add %m, %x : tensor<i32>\n"
        "  func.return %r : tensor<i32>\n"
        "}\n";
    struct base_tensor *in[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(base_tensor_create(BASE_DT_SI32, 0, NULL, &in[i]), BASE_OK);
        ((int32_t *)in[i]->data)[0] = i + 1;
    }
    struct prog r;
    prog_start(&r, src, in, 4, 4, 1);
    prog_expect_ok(&r);
    assert_int_equal(r.res.n_processes, 4);
    for (int p = 0; p < 4; p++) assert_int_equal(scalar_i64(prog_output(&r, p, 0)), 100 * p + p + 1);
    prog_free(&r);
    for (int i = 0; i < 4; i++) base_tensor_release(in[i]);
}

static void run_case(const char *src, struct interp_case_result *r)
{
    assert_int_equal(interp_run_case(src, strlen(src), "case.mlir", 10, NULL, r), BASE_OK);
}

static void test_case_outcomes(void **state)
{
    (void)state;
    struct interp_case_result r;
    run_case("func.func @main() {\n"
             "  %a = stablehlo.constant dense<1> : tensor<i32>\n"
             "  check.expect_eq_const %a, dense<1> : tensor<i32>\n"
             "  func.return\n}\n",
             &r);
    assert_int_equal(r.outcome, INTERP_CASE_PASS);
    assert_int_equal(r.n_checks, 1);

    run_case("func.func @main() {\n"
             "  %a = stablehlo.constant dense<1> : tensor<i32>\n"
             "  check.expect_eq_const %a, dense<2> : tensor<i32>\n"
             "  func.return\n}\n",
             &r);
    assert_int_equal(r.outcome, INTERP_CASE_FAIL);
    /* chunk starting at file line 10: the check is on line 3 of the chunk */
    assert_non_null(strstr(r.reason, "case.mlir:12:"));

    run_case("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
             "  func.return %x : tensor<2xf32>\n}\n",
             &r);
    assert_int_equal(r.outcome, INTERP_CASE_NOCHECK);

    /* arguments of dynamic shape: run at size 3, refined against as it is */
    run_case("func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
             "  %y = stablehlo.negate %x : tensor<?xf32>\n"
             "  func.return %y : tensor<?xf32>\n}\n",
             &r);
    assert_int_equal(r.outcome, INTERP_CASE_PASS);
    assert_int_equal(r.n_checks, 1);

    /* no check ops: parsed and verified, not run */
    run_case("func.func @main() {\n  %a = \"foo.bar\"() : () -> tensor<i32>\n  func.return\n}\n", &r);
    assert_int_equal(r.outcome, INTERP_CASE_NOCHECK);
    assert_true(r.accepted);

    run_case("func.func @main() {\n  %a = \"foo.bar\"() : () -> tensor<i32>\n"
             "  check.expect_eq_const %a, dense<1> : tensor<i32>\n  func.return\n}\n",
             &r);
    assert_int_equal(r.outcome, INTERP_CASE_UNSUPPORTED);
    assert_non_null(strstr(r.reason, "case.mlir:11:"));

    run_case("func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<q32>\n  func.return\n}\n", &r);
    assert_int_equal(r.outcome, INTERP_CASE_FAIL);
    assert_non_null(strstr(r.reason, "case.mlir:11:"));
}

/* A chunk with an expected-error comment passes when the front end rejects
 * it and fails (naming the expected message) when it accepts it. */
static void test_case_verifier_rejection_passes(void **state)
{
    (void)state;
    struct interp_case_result r;
    run_case("func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n"
             "  // expected-error @+1 {{op requires compatible types for all operands and results}}\n"
             "  %b = stablehlo.abs %a : (tensor<2xf32>) -> tensor<3xf32>\n"
             "  func.return %b : tensor<3xf32>\n}\n",
             &r);
    assert_true(r.expects_error);
    assert_false(r.accepted);
    assert_int_equal(r.outcome, INTERP_CASE_PASS);
    assert_string_equal(r.expected, "op requires compatible types for all operands and results");
    assert_non_null(strstr(r.reason, "case.mlir:12:"));
}

static void test_case_verifier_acceptance_fails(void **state)
{
    (void)state;
    struct interp_case_result r;
    run_case("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
             "  // expected-error-re@+1 {{must be {{.*}} tensor}}\n"
             "  %b = stablehlo.abs %a : tensor<2xf32>\n"
             "  func.return %b : tensor<2xf32>\n}\n",
             &r);
    assert_true(r.expects_error);
    assert_true(r.accepted);
    assert_int_equal(r.outcome, INTERP_CASE_FAIL);
    assert_non_null(strstr(r.reason, "case.mlir:11: expected an error: must be {{.*}} tensor"));
    /* the words "expected-error" outside a comment, or without a message, are no verifier case */
    run_case("func.func @f() attributes {note = \"expected-error {{x}}\"} {\n  func.return\n}\n", &r);
    assert_false(r.expects_error);
    assert_int_equal(r.outcome, INTERP_CASE_NOCHECK);
}

static void test_message_resembles_counts_significant_words(void **state)
{
    (void)state;
    assert_true(interp_message_resembles("replica id #1 seen more than once",
                                         "all_reduce: (C1) replica id 1 appears more than once"));
    assert_false(interp_message_resembles("replica id #1 seen more than once", "dot_general: bad precision"));
    /* regex parts are ignored; plural and singular match */
    assert_true(interp_message_resembles("operand #0 must be {{.*}} tensors", "abs: operand 0 must be a tensor"));
    assert_true(interp_message_resembles("", "anything"));
}

TEST_MAIN(NULL, NULL, T(test_while_sums_counter), T(test_call_passes_arguments_and_results),
          T(test_if_takes_the_branch_of_the_predicate), T(test_case_out_of_range_takes_last_branch),
          T(test_recursion_is_reported), T(test_unsupported_op_is_located), T(test_values_live_until_their_last_use),
          T(test_checks_are_recorded_not_fatal), T(test_expect_close_counts_ulps), T(test_inputs_are_type_checked),
          T(test_processes_run_with_their_own_inputs), T(test_case_outcomes), T(test_case_verifier_rejection_passes), T(test_case_verifier_acceptance_fails),
          T(test_message_resembles_counts_significant_words))
