/* custom_calls that are the identity on values (compiler/k_custom.c): they
 * compile to views (no kernel, no host step), run on tpu-v5e and trn2 with
 * host fallback off, and agree with the interpreter; a shape-changing one
 * is refused, located. */
#include "tests/prog.h"

#include "compiler/cc_internal.h"
#include "runtime/runtime.h"

#include <string.h>

static const char *annotated =
    "func.func @main() -> tensor<4x3xf32> {\n"
    "  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.5, 2.5, 3.5]]> : tensor<4x3xf32>\n"
    "  %s = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = \"{replicated}\"} : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  %m = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  %d = stablehlo.add %m, %m : tensor<4x3xf32>\n"
    "  %f = stablehlo.custom_call @SPMDShardToFullShape(%d) {mhlo.sharding = \"{replicated}\"} : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  %h = stablehlo.custom_call @MoveToHost(%f) : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  %r = stablehlo.custom_call @MoveToDevice(%h) : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
    "  check.expect_eq_const %r, dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0], [14.0, 16.0, 18.0], [3.0, 5.0, 7.0]]> : tensor<4x3xf32>\n"
    "  func.return %r : tensor<4x3xf32>\n}\n";

static void load(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) fail_msg("chip %s", name);
}

static void test_k_custom_identities_run_on_chip(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int i = 0; i < 2; i++) {
        struct chip_desc c;
        load(chips[i], &c);
        struct cc_options o;
        cc_options_default(&o);
        o.no_fallback = true; /* a host step would be an error */
        struct interp_case_result res;
        assert_int_equal(rt_run_case(annotated, strlen(annotated), "custom.mlir", 1, &c, &o, &res, NULL), BASE_OK);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[i], res.reason);
        /* and the golden interpreter runs them too */
        struct interp_options io;
        memset(&io, 0, sizeof io);
        assert_int_equal(interp_run_case(annotated, strlen(annotated), "custom.mlir", 1, &io, &res), BASE_OK);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("interpreter: %s", res.reason);
    }
}

static void test_k_custom_are_views_not_kernels(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%x: tensor<8x16xbf16>) -> tensor<8x16xbf16> {\n"
        "  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[1,1]<=[1]}\"} : (tensor<8x16xbf16>) -> tensor<8x16xbf16>\n"
        "  %e = stablehlo.exponential %s : tensor<8x16xbf16>\n"
        "  %l = stablehlo.custom_call @LayoutConstraint(%e) : (tensor<8x16xbf16>) -> tensor<8x16xbf16>\n"
        "  func.return %l : tensor<8x16xbf16>\n}\n");
    struct chip_desc c;
    load("trn2", &c);
    struct cc_options o;
    cc_options_default(&o);
    o.no_fallback = true;
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &c, &o, &p, &d), BASE_OK);
    assert_int_equal(cc_plan_n_kernels(p), 1); /* the exponential alone */
    for (uint32_t i = 0; i < cc_plan_n_steps(p); i++) assert_int_not_equal(cc_plan_step(p, i)->kind, CC_STEP_HOST);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* tt-xla's pjrt test export (base2in_shlo.mlir): an add, its @Sharding, an
 * add of that: the two adds fuse, and the second reads the first's value
 * through the identity (it was "operand not available in the kernel");
 * optimization_barrier binds its result to its operand the same way. */
static const char *fused_through_identity =
    "func.func @main() -> (tensor<2x3xi32>, tensor<2x3xi32>) {\n"
    "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
    "  %b = stablehlo.constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>\n"
    "  %c = stablehlo.constant dense<1> : tensor<2x3xi32>\n"
    "  %0 = stablehlo.add %a, %c : tensor<2x3xi32>\n"
    "  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = \"{devices=[1,2]0,1}\"} : (tensor<2x3xi32>) -> tensor<2x3xi32>\n"
    "  %2 = stablehlo.add %1, %b : tensor<2x3xi32>\n"
    "  %3 = stablehlo.optimization_barrier %2 : tensor<2x3xi32>\n"
    "  %4 = stablehlo.add %3, %c : tensor<2x3xi32>\n"
    "  check.expect_eq_const %1, dense<[[2, 3, 4], [5, 6, 7]]> : tensor<2x3xi32>\n"
    "  check.expect_eq_const %4, dense<[[13, 24, 35], [46, 57, 68]]> : tensor<2x3xi32>\n"
    "  func.return %1, %4 : tensor<2x3xi32>, tensor<2x3xi32>\n}\n";

static void test_k_custom_fusion_reads_through_identity(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v6e", "trn2"};
    for (int i = 0; i < 2; i++) {
        struct chip_desc c;
        load(chips[i], &c);
        struct cc_options o;
        cc_options_default(&o);
        o.no_fallback = true;
        struct interp_case_result res;
        assert_int_equal(
            rt_run_case(fused_through_identity, strlen(fused_through_identity), "fused.mlir", 1, &c, &o, &res, NULL),
            BASE_OK);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[i], res.reason);
    }
}

/* Shardy's and mhlo's annotations (sdy.sharding_constraint, sdy.reshard,
 * sdy.propagation_barrier, mhlo.copy) bind their result to their operand:
 * no kernel of their own, the fused neighbours read through them. */
static const char *annotations =
    "module {\n  sdy.mesh @mesh = <[\"x\"=1]>\n"
    "  func.func @main() -> tensor<2x3xf32> {\n"
    "    %a = sdy.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n"
    "    %0 = stablehlo.multiply %a, %a : tensor<2x3xf32>\n"
    "    %1 = sdy.sharding_constraint %0 <@mesh, [{\"x\"}, {}]> : tensor<2x3xf32>\n"
    "    %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<2x3xf32>\n"
    "    %3 = sdy.propagation_barrier %2 allowed_direction=BOTH : tensor<2x3xf32>\n"
    "    %4 = mhlo.copy %3 : tensor<2x3xf32>\n"
    "    %r = stablehlo.add %4, %a : tensor<2x3xf32>\n"
    "    check.expect_eq_const %r, dense<[[2.0, 6.0, 12.0], [20.0, 30.0, 42.0]]> : tensor<2x3xf32>\n"
    "    func.return %r : tensor<2x3xf32>\n  }\n}\n";

static void test_k_custom_annotations_are_views(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v6e", "trn2"};
    for (int i = 0; i < 2; i++) {
        struct chip_desc c;
        load(chips[i], &c);
        struct cc_options o;
        cc_options_default(&o);
        o.no_fallback = true;
        struct interp_case_result res;
        assert_int_equal(rt_run_case(annotations, strlen(annotations), "ann.mlir", 1, &c, &o, &res, NULL), BASE_OK);
        if (res.outcome != INTERP_CASE_PASS) fail_msg("%s: %s", chips[i], res.reason);
    }
    struct graph_module *m = prog_parse(annotations);
    struct chip_desc c;
    load("trn2", &c);
    struct cc_options o;
    cc_options_default(&o);
    o.no_fallback = true;
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &c, &o, &p, &d), BASE_OK);
    assert_int_equal(cc_plan_n_kernels(p), 1); /* multiply and add, fused */
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_k_custom_shape_change_is_refused_located(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%x: tensor<8x16xf32>) -> tensor<2x16xf32> {\n"
        "  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[4,1]<=[4]}\"} : (tensor<8x16xf32>) -> tensor<8x16xf32>\n"
        "  %m = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<8x16xf32>) -> tensor<2x16xf32>\n"
        "  func.return %m : tensor<2x16xf32>\n}\n");
    struct chip_desc c;
    load("tpu-v5e", &c);
    struct cc_options o;
    cc_options_default(&o);
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &c, &o, &p, &d), BASE_ERR_UNSUPPORTED);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "SPMD partitioner"));
    graph_module_destroy(m);
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_custom_identities_run_on_chip),
          cmocka_unit_test(test_k_custom_are_views_not_kernels),
          cmocka_unit_test(test_k_custom_fusion_reads_through_identity),
          cmocka_unit_test(test_k_custom_annotations_are_views),
          cmocka_unit_test(test_k_custom_shape_change_is_refused_located))
