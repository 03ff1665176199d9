/* Collectives, point-to-point ops and sdy.manual_computation on the golden
 * interpreter: spec examples and hand-computed values. */
#include "tests/prog.h"
#include "interp/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* spec example: all_reduce over replicas [[0, 1]] adds [1,2,3,4] + [5,6,7,8]. */
static void test_all_reduce_sums_group_in_order(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @main() -> tensor<4xi64> {\n"
               "  %rid = stablehlo.replica_id : tensor<ui32>\n"
               "  %c = stablehlo.convert %rid : (tensor<ui32>) -> tensor<i64>\n"
               "  %four = stablehlo.constant dense<4> : tensor<i64>\n"
               "  %off = stablehlo.multiply %c, %four : tensor<i64>\n"
               "  %b = stablehlo.broadcast_in_dim %off, dims = [] : (tensor<i64>) -> tensor<4xi64>\n"
               "  %i = stablehlo.iota dim = 0 : tensor<4xi64>\n"
               "  %one = stablehlo.constant dense<1> : tensor<4xi64>\n"
               "  %i1 = stablehlo.add %i, %one : tensor<4xi64>\n"
               "  %v = stablehlo.add %i1, %b : tensor<4xi64>\n"
               "  %r = \"stablehlo.all_reduce\"(%v) ({\n"
               "    ^bb0(%a: tensor<i64>, %b2: tensor<i64>):\n"
               "      %s = stablehlo.add %a, %b2 : tensor<i64>\n"
               "      stablehlo.return %s : tensor<i64>\n"
               "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>\n"
               "  return %r : tensor<4xi64>\n"
               "}\n",
               NULL, 0, 2, 1);
    prog_expect_ok(&r);
    assert_int_equal(r.res.n_processes, 2);
    const int64_t want[4] = {6, 8, 10, 12};
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 4; i++) assert_int_equal(((const int64_t *)prog_output(&r, p, 0)->data)[i], want[i]);
    prog_free(&r);
}

/* The same all_reduce, run by a while loop three times on values that change
 * every iteration, never mixes iterations: each round doubles the sum.
 * Replica 0 starts at 1, replica 1 at 2: 3 -> 6 -> 12 (per round x = sum). */
static void test_all_reduce_in_while_loop_matches_iterations(void **state)
{
    (void)state;
    prog_run_checks("func.func @body(%x : tensor<i64>) -> tensor<i64> {\n"
                    "  %zero = stablehlo.constant dense<0> : tensor<i64>\n"
                    "  %three = stablehlo.constant dense<3> : tensor<i64>\n"
                    "  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i64>, tensor<i64>\n"
                    "   cond {\n"
                    "    %c = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
                    "    stablehlo.return %c : tensor<i1>\n"
                    "  } do {\n"
                    "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
                    "    %n = stablehlo.add %i, %one : tensor<i64>\n"
                    "    %s = \"stablehlo.all_reduce\"(%v) ({\n"
                    "      ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
                    "        %t = stablehlo.add %a, %b : tensor<i64>\n"
                    "        stablehlo.return %t : tensor<i64>\n"
                    "    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>\n"
                    "    stablehlo.return %n, %s : tensor<i64>, tensor<i64>\n"
                    "  }\n"
                    "  return %r#1 : tensor<i64>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<1> : tensor<i64>\n"
                    "  %b = stablehlo.constant dense<2> : tensor<i64>\n"
                    "  %r:2 = \"interpreter.run_parallel\"(%a, %b) {programs = [[@body], [@body]]} :\n"
                    "      (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)\n"
                    "  check.expect_eq_const %r#0, dense<12> : tensor<i64>\n"
                    "  check.expect_eq_const %r#1, dense<12> : tensor<i64>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* Two groups of one op run at once and do not mix: replicas [[0, 2], [1, 3]]
 * gather 0+2 and 1+3.  The bodies gather their replica id along dim 0. */
static void test_all_gather_keeps_groups_apart(void **state)
{
    (void)state;
    prog_run_checks("func.func @g() -> tensor<2xui32> {\n"
                    "  %id = stablehlo.replica_id : tensor<ui32>\n"
                    "  %v = stablehlo.reshape %id : (tensor<ui32>) -> tensor<1xui32>\n"
                    "  %r = \"stablehlo.all_gather\"(%v) {all_gather_dim = 0 : i64,\n"
                    "      replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<1xui32>) -> tensor<2xui32>\n"
                    "  return %r : tensor<2xui32>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %r:4 = \"interpreter.run_parallel\"() {programs = [[@g], [@g], [@g], [@g]]} :\n"
                    "      () -> (tensor<2xui32>, tensor<2xui32>, tensor<2xui32>, tensor<2xui32>)\n"
                    "  check.expect_eq_const %r#0, dense<[0, 2]> : tensor<2xui32>\n"
                    "  check.expect_eq_const %r#1, dense<[1, 3]> : tensor<2xui32>\n"
                    "  check.expect_eq_const %r#2, dense<[0, 2]> : tensor<2xui32>\n"
                    "  check.expect_eq_const %r#3, dense<[1, 3]> : tensor<2xui32>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 4);
}

/* spec example (reduce_scatter): [[1,2,3,4],[5,6,7,8]] + [[9,10,11,12],
 * [13,14,15,16]] scattered over dim 1: replica 0 gets [[10,12],[18,20]],
 * replica 1 [[14,16],[22,24]]. */
static void test_reduce_scatter_matches_spec_example(void **state)
{
    (void)state;
    prog_run_checks("func.func @rs(%x : tensor<2x4xi64>) -> tensor<2x2xi64> {\n"
                    "  %r = \"stablehlo.reduce_scatter\"(%x) ({\n"
                    "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<i64>\n"
                    "      stablehlo.return %s : tensor<i64>\n"
                    "  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}\n"
                    "      : (tensor<2x4xi64>) -> tensor<2x2xi64>\n"
                    "  return %r : tensor<2x2xi64>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>\n"
                    "  %b = stablehlo.constant dense<[[9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<2x4xi64>\n"
                    "  %r:2 = \"interpreter.run_parallel\"(%a, %b) {programs = [[@rs], [@rs]]} :\n"
                    "      (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)\n"
                    "  check.expect_eq_const %r#0, dense<[[10, 12], [18, 20]]> : tensor<2x2xi64>\n"
                    "  check.expect_eq_const %r#1, dense<[[14, 16], [22, 24]]> : tensor<2x2xi64>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* A reduction whose region is not a single binary op runs the region per
 * element, in group order: f(a, b) = 2a + b over [1], [10], [100] gives
 * 2(2*1 + 10) + 100 = 124. */
static void test_all_reduce_runs_general_region_in_group_order(void **state)
{
    (void)state;
    prog_run_checks("func.func @ar(%x : tensor<1xi64>) -> tensor<1xi64> {\n"
                    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
                    "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
                    "      %d = stablehlo.add %a, %a : tensor<i64>\n"
                    "      %s = stablehlo.add %d, %b : tensor<i64>\n"
                    "      stablehlo.return %s : tensor<i64>\n"
                    "  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<1xi64>) -> tensor<1xi64>\n"
                    "  return %r : tensor<1xi64>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<[1]> : tensor<1xi64>\n"
                    "  %b = stablehlo.constant dense<[10]> : tensor<1xi64>\n"
                    "  %c = stablehlo.constant dense<[100]> : tensor<1xi64>\n"
                    "  %r:3 = \"interpreter.run_parallel\"(%a, %b, %c) {programs = [[@ar], [@ar], [@ar]]} :\n"
                    "      (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>)\n"
                    "  check.expect_eq_const %r#0, dense<[124]> : tensor<1xi64>\n"
                    "  check.expect_eq_const %r#2, dense<[124]> : tensor<1xi64>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* Large all_reduces share the work between the members; the values must
 * still be the group-order fold, rounded at each step: in bf16
 * ((256 + 1) + 1) - 256 is 0 (257 rounds to 256 twice), where another order
 * would give 1 or 2. */
static void test_large_all_reduce_folds_in_group_order(void **state)
{
    (void)state;
    prog_run_checks("func.func @ar(%x : tensor<65536xbf16>) -> tensor<65536xbf16> {\n"
                    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
                    "    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<bf16>\n"
                    "      stablehlo.return %s : tensor<bf16>\n"
                    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<65536xbf16>) -> "
                    "tensor<65536xbf16>\n"
                    "  return %r : tensor<65536xbf16>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<256.0> : tensor<65536xbf16>\n"
                    "  %b = stablehlo.constant dense<1.0> : tensor<65536xbf16>\n"
                    "  %c = stablehlo.constant dense<-256.0> : tensor<65536xbf16>\n"
                    "  %r:4 = \"interpreter.run_parallel\"(%a, %b, %b, %c) {programs = [[@ar], [@ar], [@ar], [@ar]]} :\n"
                    "      (tensor<65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>) ->\n"
                    "      (tensor<65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>)\n"
                    "  check.expect_eq_const %r#0, dense<0.0> : tensor<65536xbf16>\n"
                    "  check.expect_eq_const %r#3, dense<0.0> : tensor<65536xbf16>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* spec (C5)/(C7): the computation's element type E may be wider than the
 * operands' (is_promotable); the operands are reduced in E.  2048 + 1 is
 * 2049 in f32 but rounds back to 2048 in f16.  Three paths: a plain add, a
 * body that is not a plain op (region calls), and a large plain add (each
 * member folds a slice). */
static void test_all_reduce_promotes_operands_to_the_computation_type(void **state)
{
    (void)state;
    prog_run_checks("func.func @ar(%x : tensor<2xf16>, %y : tensor<8192xf16>) -> (tensor<2xf32>, tensor<2xf32>, "
                    "tensor<8192xf32>) {\n"
                    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                    "      stablehlo.return %s : tensor<f32>\n"
                    "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf16>) -> tensor<2xf32>\n"
                    "  %g = \"stablehlo.all_reduce\"(%x) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                    "      %n = stablehlo.negate %s : tensor<f32>\n"
                    "      %m = stablehlo.negate %n : tensor<f32>\n"
                    "      stablehlo.return %m : tensor<f32>\n"
                    "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf16>) -> tensor<2xf32>\n"
                    "  %l = \"stablehlo.all_reduce\"(%y) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                    "      stablehlo.return %s : tensor<f32>\n"
                    "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8192xf16>) -> "
                    "tensor<8192xf32>\n"
                    "  return %r, %g, %l : tensor<2xf32>, tensor<2xf32>, tensor<8192xf32>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<[2048.0, 1.0]> : tensor<2xf16>\n"
                    "  %b = stablehlo.constant dense<[1.0, 0.5]> : tensor<2xf16>\n"
                    "  %c = stablehlo.constant dense<2048.0> : tensor<8192xf16>\n"
                    "  %d = stablehlo.constant dense<1.0> : tensor<8192xf16>\n"
                    "  %r:6 = \"interpreter.run_parallel\"(%a, %c, %b, %d) {programs = [[@ar], [@ar]]} :\n"
                    "      (tensor<2xf16>, tensor<8192xf16>, tensor<2xf16>, tensor<8192xf16>) ->\n"
                    "      (tensor<2xf32>, tensor<2xf32>, tensor<8192xf32>, tensor<2xf32>, tensor<2xf32>, tensor<8192xf32>)\n"
                    "  check.expect_eq_const %r#0, dense<[2049.0, 1.5]> : tensor<2xf32>\n"
                    "  check.expect_eq_const %r#1, dense<[2049.0, 1.5]> : tensor<2xf32>\n"
                    "  check.expect_eq_const %r#2, dense<2049.0> : tensor<8192xf32>\n"
                    "  check.expect_eq_const %r#5, dense<2049.0> : tensor<8192xf32>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 4);
}

/* A process that fails makes the others, which wait for it in a collective,
 * fail too instead of hanging; the reported error is the real cause. */
static void test_failing_process_aborts_waiting_collective(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @ok(%x : tensor<2xf32>) -> tensor<2xf32> {\n"
               "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
               "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
               "      %s = stablehlo.add %a, %b : tensor<f32>\n"
               "      stablehlo.return %s : tensor<f32>\n"
               "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
               "  return %r : tensor<2xf32>\n"
               "}\n"
               "func.func @bad(%x : tensor<2xf32>) -> tensor<2xf32> {\n"
               "  %y = stablehlo.custom_call @no_such_target(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
               "  return %y : tensor<2xf32>\n"
               "}\n"
               "func.func @main() {\n"
               "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
               "  %r:2 = \"interpreter.run_parallel\"(%a, %a) {programs = [[@ok], [@bad]]} :\n"
               "      (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
               "  func.return\n"
               "}\n",
               NULL, 0, 1, 1);
    assert_int_not_equal(r.st, BASE_OK);
    assert_non_null(strstr(r.diag.msg, "no_such_target"));
    prog_free(&r);
}

/* Processes that run different collectives at the same point fail with a
 * located mismatch error. */
static void test_mismatched_collectives_fail(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @ar(%x : tensor<2xf32>) -> tensor<2xf32> {\n"
               "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
               "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
               "      %s = stablehlo.add %a, %b : tensor<f32>\n"
               "      stablehlo.return %s : tensor<f32>\n"
               "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
               "  return %r : tensor<2xf32>\n"
               "}\n"
               "func.func @ag(%x : tensor<2xf32>) -> tensor<2xf32> {\n"
               "  %r = \"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64,\n"
               "      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>\n"
               "  %s = stablehlo.slice %r [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
               "  return %s : tensor<2xf32>\n"
               "}\n"
               "func.func @main() {\n"
               "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
               "  %r:2 = \"interpreter.run_parallel\"(%a, %a) {programs = [[@ar], [@ag]]} :\n"
               "      (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
               "  func.return\n"
               "}\n",
               NULL, 0, 1, 1);
    assert_int_equal(r.st, BASE_ERR_RUNTIME);
    assert_non_null(strstr(r.diag.msg, "mismatch"));
    prog_free(&r);
}

/* Every process waiting for a message nobody sends is a deadlock, reported
 * as an error rather than a hang. */
static void test_recv_without_send_reports_deadlock(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @rv(%t : !stablehlo.token) -> tensor<2xi64> {\n"
               "  %v, %t2 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>,\n"
               "      is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)\n"
               "  return %v : tensor<2xi64>\n"
               "}\n"
               "func.func @main() {\n"
               "  %t = stablehlo.after_all : !stablehlo.token\n"
               "  %r:2 = \"interpreter.run_parallel\"(%t, %t) {programs = [[@rv], [@rv]]} :\n"
               "      (!stablehlo.token, !stablehlo.token) -> (tensor<2xi64>, tensor<2xi64>)\n"
               "  func.return\n"
               "}\n",
               NULL, 0, 1, 1);
    assert_int_equal(r.st, BASE_ERR_RUNTIME);
    assert_non_null(strstr(r.diag.msg, "deadlock"));
    prog_free(&r);
}

/* The grid shares one condition variable: while process 2 waits for process
 * 3 (slow), the pair 0/1 completing its all_reduce wakes it too.  That wakeup
 * must not count process 2 as blocked twice, or 0 and 1 finishing would make
 * "every process blocked or done" look true and abort a healthy grid as a
 * deadlock.  The race is timing-dependent, so the grid runs several times. */
static void test_unrelated_wakeup_is_not_a_deadlock(void **state)
{
    (void)state;
    const char *src =
        "func.func @spin(%x : tensor<2xi64>, %n : tensor<i64>) -> tensor<2xi64> {\n"
        "  %zero = stablehlo.constant dense<0> : tensor<i64>\n"
        "  %one = stablehlo.constant dense<1> : tensor<i64>\n"
        "  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i64>, tensor<2xi64>\n"
        "   cond {\n"
        "    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n"
        "    %i1 = stablehlo.add %i, %one : tensor<i64>\n"
        "    stablehlo.return %i1, %v : tensor<i64>, tensor<2xi64>\n"
        "  }\n"
        "  %s = \"stablehlo.all_reduce\"(%r#1) ({\n"
        "    ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
        "      %t = stablehlo.add %a, %b : tensor<i64>\n"
        "      stablehlo.return %t : tensor<i64>\n"
        "  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>\n"
        "  return %s : tensor<2xi64>\n"
        "}\n"
        "func.func @main() {\n"
        "  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
        "  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>\n"
        "  %short = stablehlo.constant dense<200> : tensor<i64>\n"
        "  %none = stablehlo.constant dense<0> : tensor<i64>\n"
        "  %long = stablehlo.constant dense<20000> : tensor<i64>\n"
        "  %r:4 = \"interpreter.run_parallel\"(%a, %short, %a, %short, %b, %none, %b, %long)\n"
        "      {programs = [[@spin], [@spin], [@spin], [@spin]]} :\n"
        "      (tensor<2xi64>, tensor<i64>, tensor<2xi64>, tensor<i64>, tensor<2xi64>, tensor<i64>,\n"
        "       tensor<2xi64>, tensor<i64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)\n"
        "  check.expect_eq_const %r#0, dense<[2, 4]> : tensor<2xi64>\n"
        "  check.expect_eq_const %r#1, dense<[2, 4]> : tensor<2xi64>\n"
        "  check.expect_eq_const %r#2, dense<[20, 40]> : tensor<2xi64>\n"
        "  check.expect_eq_const %r#3, dense<[20, 40]> : tensor<2xi64>\n"
        "  func.return\n"
        "}\n";
    for (int i = 0; i < 12; i++) prog_run_checks(src, 1, 1, 4);
}

/* collective_permute (spec example): 0 -> 1; process 0 is no target and gets
 * zeros. */
static void test_collective_permute_zeros_for_non_targets(void **state)
{
    (void)state;
    prog_run_checks("func.func @cp(%x : tensor<2xi64>) -> tensor<2xi64> {\n"
                    "  %r = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}\n"
                    "      : (tensor<2xi64>) -> tensor<2xi64>\n"
                    "  return %r : tensor<2xi64>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
                    "  %b = stablehlo.constant dense<[5, 6]> : tensor<2xi64>\n"
                    "  %r:2 = \"interpreter.run_parallel\"(%a, %b) {programs = [[@cp], [@cp]]} :\n"
                    "      (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)\n"
                    "  check.expect_eq_const %r#0, dense<[0, 0]> : tensor<2xi64>\n"
                    "  check.expect_eq_const %r#1, dense<[1, 2]> : tensor<2xi64>\n"
                    "  func.return\n"
                    "}\n",
                    1, 1, 2);
}

/* The processes of a grid run at once: with a probe folder each writes its
 * own files (p<process>_<id>_<iteration>.npy) holding its own value. */
static void test_probe_files_are_per_process(void **state)
{
    (void)state;
    char dir[] = "/tmp/npusim_probe_XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct graph_module *m = prog_parse("func.func @main() -> tensor<ui32> {\n"
                                        "  %r = stablehlo.replica_id : tensor<ui32>\n"
                                        "  %p = interpreter.probe %r, probe_id = \"rid\" : tensor<ui32>\n"
                                        "  return %p : tensor<ui32>\n"
                                        "}\n");
    struct interp_options opt = {.num_replicas = 2, .num_partitions = 1, .probe_dir = dir};
    struct interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_run(m, NULL, NULL, 0, &opt, &res, &d), BASE_OK);
    for (int p = 0; p < 2; p++) {
        char path[256];
        snprintf(path, sizeof path, "%s/p%d_rid_0.npy", dir, p);
        struct base_tensor *t = NULL;
        assert_int_equal(base_npy_read(path, &t, &d), BASE_OK);
        assert_int_equal(base_elem_get_u64(t->dtype, t->data, 0), (uint64_t)p);
        base_tensor_release(t);
        remove(path);
    }
    assert_int_equal(rmdir(dir), 0); /* nothing else was written */
    interp_result_free(&res);
    graph_module_destroy(m);
}

/* ---- SPMD ---------------------------------------------------------------- */

static void test_mesh_size_is_product_of_axes(void **state)
{
    (void)state;
    const char *src = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=3]>\n"
                      "func.func @main(%x : tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }\n";
    struct graph_module *m = prog_parse(src);
    assert_int_equal(interp_module_mesh_size(m), 6);
    graph_module_destroy(m);
    src = "func.func @main(%x : tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }\n";
    m = prog_parse(src);
    assert_int_equal(interp_module_mesh_size(m), 1);
    graph_module_destroy(m);
}

/* 4 devices on a 2x2 mesh ("x" major).  x (4x2) is split by rows over "x"
 * and by columns over "y"; each device adds 10 * its partition id to its
 * 2x1 shard, so device d = 2*cx + cy owns rows 2cx..2cx+1, column cy.
 * The result is rebuilt from the shards: element [i][j] = x[i][j] + 10 *
 * (2 * (i / 2) + j).  The second result is split over "y" only (rows are
 * replicated over "x"): it is taken from the devices with x-coordinate 0. */
static void test_manual_computation_shards_and_rebuilds(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
               "func.func @main() -> (tensor<4x2xf32>, tensor<2x2xf32>) {\n"
               "  %c = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : "
               "tensor<4x2xf32>\n"
               "  %r:2 = sdy.manual_computation(%c) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>]\n"
               "      out_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>, <@mesh, [{}, {\"y\"}]>]\n"
               "      manual_axes={\"x\", \"y\"} (%l: tensor<2x1xf32>) {\n"
               "    %pid = stablehlo.partition_id : tensor<ui32>\n"
               "    %f = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>\n"
               "    %ten = stablehlo.constant dense<10.0> : tensor<f32>\n"
               "    %o = stablehlo.multiply %f, %ten : tensor<f32>\n"
               "    %b = stablehlo.broadcast_in_dim %o, dims = [] : (tensor<f32>) -> tensor<2x1xf32>\n"
               "    %s = stablehlo.add %l, %b : tensor<2x1xf32>\n"
               "    sdy.return %s, %s : tensor<2x1xf32>, tensor<2x1xf32>\n"
               "  } : (tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x2xf32>)\n"
               "  return %r#0, %r#1 : tensor<4x2xf32>, tensor<2x2xf32>\n"
               "}\n",
               NULL, 0, 1, 4);
    prog_expect_ok(&r);
    assert_int_equal(r.res.n_processes, 4);
    const float want0[8] = {1, 12, 3, 14, 25, 36, 27, 38};
    const float want1[4] = {1, 12, 3, 14};
    for (int p = 0; p < 4; p++) {
        const struct base_tensor *a = prog_output(&r, p, 0), *b = prog_output(&r, p, 1);
        assert_int_equal(a->count, 8);
        assert_int_equal(b->count, 4);
        for (int i = 0; i < 8; i++) assert_true(((const float *)a->data)[i] == want0[i]);
        for (int i = 0; i < 4; i++) assert_true(((const float *)b->data)[i] == want1[i]);
    }
    prog_free(&r);
}

/* Tensor-parallel matmul on 4 devices: x (2x8) split along the contracting
 * dim, w (8x3) along its rows; each device multiplies its 2x2 by 2x3 shard and
 * an all_reduce sums the partial products.  The replicated result must equal
 * the unsharded dot_general of the same operands (integer-valued f32, so the
 * summation order does not matter). */
static void test_tensor_parallel_matmul_equals_unsharded(void **state)
{
    (void)state;
    prog_run_checks("sdy.mesh @mesh = <[\"tp\"=4]>\n"
                    "func.func @main() -> tensor<2x3xf32> {\n"
                    "  %i = stablehlo.iota dim = 1 : tensor<2x8xf32>\n"
                    "  %j = stablehlo.iota dim = 0 : tensor<2x8xf32>\n"
                    "  %x = stablehlo.add %i, %j : tensor<2x8xf32>\n"
                    "  %k = stablehlo.iota dim = 0 : tensor<8x3xf32>\n"
                    "  %l = stablehlo.iota dim = 1 : tensor<8x3xf32>\n"
                    "  %m = stablehlo.multiply %k, %l : tensor<8x3xf32>\n"
                    "  %w = stablehlo.subtract %m, %k : tensor<8x3xf32>\n"
                    "  %full = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : "
                    "(tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>\n"
                    "  %tp = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{}, {\"tp\"}]>, <@mesh, [{\"tp\"}, "
                    "{}]>]\n"
                    "      out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"tp\"} (%xs: tensor<2x2xf32>, %ws: "
                    "tensor<2x3xf32>) {\n"
                    "    %p = stablehlo.dot_general %xs, %ws, contracting_dims = [1] x [0] : (tensor<2x2xf32>, "
                    "tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                    "    %s = \"stablehlo.all_reduce\"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = "
                    "1>,\n"
                    "        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
                    "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "        %t = stablehlo.add %a, %b : tensor<f32>\n"
                    "        stablehlo.return %t : tensor<f32>\n"
                    "    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                    "    sdy.return %s : tensor<2x3xf32>\n"
                    "  } : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>\n"
                    "  check.expect_eq %tp, %full : tensor<2x3xf32>\n"
                    "  return %tp : tensor<2x3xf32>\n"
                    "}\n",
                    1, 4, 4);
}

/* A mesh whose size differs from the process grid is a located error. */
static void test_manual_computation_needs_mesh_sized_grid(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "sdy.mesh @mesh = <[\"tp\"=4]>\n"
               "func.func @main() -> tensor<4xf32> {\n"
               "  %x = stablehlo.constant dense<1.0> : tensor<4xf32>\n"
               "  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{\"tp\"}]>] out_shardings=[<@mesh, "
               "[{\"tp\"}]>]\n"
               "      manual_axes={\"tp\"} (%l: tensor<1xf32>) {\n"
               "    sdy.return %l : tensor<1xf32>\n"
               "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
               "  return %r : tensor<4xf32>\n"
               "}\n",
               NULL, 0, 1, 2);
    assert_int_equal(r.st, BASE_ERR_INVALID);
    assert_non_null(strstr(r.diag.msg, "num_partitions = 4"));
    prog_free(&r);
}

/* async_start runs its all_reduce at once; async_done gives its value. */
static void test_async_all_reduce_gives_its_value_at_done(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @main() -> tensor<2xi64> {\n"
               "  %rid = stablehlo.replica_id : tensor<ui32>\n"
               "  %c = stablehlo.convert %rid : (tensor<ui32>) -> tensor<i64>\n"
               "  %v = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<2xi64>\n"
               "  %f = \"stablehlo.async_start\"(%v) ({\n"
               "  ^bb0(%x: tensor<2xi64>):\n"
               "    %s = \"stablehlo.all_reduce\"(%x) ({\n"
               "      ^bb0(%a: tensor<i64>, %b: tensor<i64>):\n"
               "        %t = stablehlo.add %a, %b : tensor<i64>\n"
               "        stablehlo.return %t : tensor<i64>\n"
               "    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi64>) -> tensor<2xi64>\n"
               "    \"stablehlo.return\"(%s) : (tensor<2xi64>) -> ()\n"
               "  }) : (tensor<2xi64>) -> !stablehlo.future<tensor<2xi64>>\n"
               "  %r = \"stablehlo.async_done\"(%f) : (!stablehlo.future<tensor<2xi64>>) -> tensor<2xi64>\n"
               "  return %r : tensor<2xi64>\n"
               "}\n",
               NULL, 0, 3, 1);
    prog_expect_ok(&r);
    const int64_t want[2] = {3, 3}; /* 0 + 1 + 2 */
    for (int p = 0; p < 3; p++) prog_expect_i64(prog_output(&r, p, 0), want, 2);
    prog_free(&r);
}

/* The verifier leaves all_gather's gathered size to the run (as upstream):
 * a result type that the group does not fill is a located run error. */
static void test_all_gather_result_type_checked_at_run(void **state)
{
    (void)state;
    struct prog r;
    prog_start(&r,
               "func.func @main() -> tensor<6xi64> {\n"
               "  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
               "  %r = \"stablehlo.all_gather\"(%v) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : "
               "tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<6xi64>\n"
               "  return %r : tensor<6xi64>\n"
               "}\n",
               NULL, 0, 2, 1);
    assert_int_not_equal(r.st, BASE_OK);
    assert_int_equal(r.diag.line, 3);
    assert_non_null(strstr(r.diag.msg, "result 0 is tensor<4xi64> but the op's type says tensor<6xi64>"));
    prog_free(&r);
}

TEST_MAIN(NULL, NULL, T(test_all_reduce_sums_group_in_order), T(test_all_reduce_in_while_loop_matches_iterations),
          T(test_all_gather_keeps_groups_apart), T(test_reduce_scatter_matches_spec_example),
          T(test_all_reduce_runs_general_region_in_group_order),
          T(test_large_all_reduce_folds_in_group_order),
          T(test_all_reduce_promotes_operands_to_the_computation_type), T(test_failing_process_aborts_waiting_collective),
          T(test_mismatched_collectives_fail), T(test_recv_without_send_reports_deadlock),
          T(test_unrelated_wakeup_is_not_a_deadlock),
          T(test_collective_permute_zeros_for_non_targets), T(test_probe_files_are_per_process),
          T(test_mesh_size_is_product_of_axes),
          T(test_manual_computation_shards_and_rebuilds), T(test_tensor_parallel_matmul_equals_unsharded),
          T(test_manual_computation_needs_mesh_sized_grid), T(test_async_all_reduce_gives_its_value_at_done),
          T(test_all_gather_result_type_checked_at_run))
