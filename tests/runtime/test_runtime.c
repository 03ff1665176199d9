/* rt_run: plans run on the simulated chips match the golden interpreter;
 * modes differ in time only; control flow, checks, dispatch overheads and
 * the bound rule (runtime/runtime.c). */
#include "tests/prog.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct run {
    struct cc_plan *plan;
    struct rt_report rep;
    struct base_tensor *outs[8];
    enum base_status st;
    struct base_diag diag;
};

static void load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load %s", name);
    }
}

/* Compiles m for chip in mode and runs it (inputs may be NULL when timing_only). */
static void run_plan(struct graph_module *m, const struct chip_desc *chip, enum cc_mode mode, bool timing_only,
                     struct base_tensor *const *in, int n_in, struct run *r)
{
    memset(r, 0, sizeof *r);
    base_diag_clear(&r->diag);
    struct cc_options o;
    cc_options_default(&o);
    o.mode = mode;
    if (cc_compile(m, chip, &o, &r->plan, &r->diag) != BASE_OK) {
        base_diag_print(&r->diag, stderr);
        fail_msg("cc_compile on %s", chip->name);
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = timing_only;
    struct sim *s = NULL;
    assert_int_equal(sim_create(chip, &so, &s, &r->diag), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = timing_only;
    ro.max_steps = 100000; /* a broken loop fails instead of spinning */
    r->st = rt_run(r->plan, s, in, n_in, &ro, r->outs, &r->rep, &r->diag);
    sim_destroy(s);
}

static void run_ok(struct graph_module *m, const struct chip_desc *chip, enum cc_mode mode, bool timing_only,
                   struct base_tensor *const *in, int n_in, struct run *r)
{
    run_plan(m, chip, mode, timing_only, in, n_in, r);
    if (r->st != BASE_OK) {
        base_diag_print(&r->diag, stderr);
        fail_msg("rt_run on %s (%s): %s", chip->name, cc_mode_name(mode), base_status_str(r->st));
    }
}

static void run_free(struct run *r)
{
    for (int i = 0; i < 8; i++) base_tensor_release(r->outs[i]);
    rt_report_free(&r->rep);
    cc_plan_destroy(r->plan);
    memset(r, 0, sizeof *r);
}

static void random_inputs(struct graph_module *m, struct base_tensor **in, int *n, uint64_t seed)
{
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    *n = b->n_args;
    for (int i = 0; i < b->n_args; i++) {
        const struct graph_type *t = b->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[i], seed * 7919 + (uint64_t)i, 1.0), BASE_OK);
    }
}

/* The interpreter's outputs vs the run's, within the documented tolerance. */
static void expect_matches_interpreter(struct graph_module *m, struct base_tensor *const *in, int n_in,
                                       const struct run *r, const char *what)
{
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result gold;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_run(m, NULL, in, n_in, &io, &gold, &d), BASE_OK);
    assert_int_equal(gold.n_outputs, cc_plan_n_outputs(r->plan));
    for (int i = 0; i < gold.n_outputs; i++) {
        struct rt_compare c;
        rt_compare_output(r->plan, r->outs[i], gold.outputs[i], &c);
        if (!c.passed)
            fail_msg("%s: output %d: %lld elements out of bound, worst at [%lld]: %.9g vs %.9g (%.3g of the bound)", what,
                     i, (long long)c.n_bad, (long long)c.worst, c.got_at_worst, c.want_at_worst, c.worst_ratio);
    }
    interp_result_free(&gold);
}

/* softmax over rows, a scaled residual, a row sum and a bf16 matmul with a
 * bias and a row sum: elementwise chains, reduce prologues, broadcasts and
 * transposes as views, a dot */
static const char *const small_src =
    "func.func @main(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>, %w: tensor<256x128xbf16>, %bias: tensor<128xf32>)"
    " -> (tensor<64x256xf32>, tensor<64xf32>, tensor<64x128xf32>) {\n"
    "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %half = stablehlo.constant dense<0.5> : tensor<64x256xf32>\n"
    "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>\n"
    "  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<64xf32>) -> tensor<64x256xf32>\n"
    "  %d = stablehlo.subtract %x, %mb : tensor<64x256xf32>\n"
    "  %e = stablehlo.exponential %d : tensor<64x256xf32>\n"
    "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>\n"
    "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<64xf32>) -> tensor<64x256xf32>\n"
    "  %p = stablehlo.divide %e, %sb : tensor<64x256xf32>\n"
    "  %yh = stablehlo.multiply %y, %half : tensor<64x256xf32>\n"
    "  %r = stablehlo.add %p, %yh : tensor<64x256xf32>\n"
    "  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<64x256xf32>) -> tensor<256x64xf32>\n"
    "  %tt = stablehlo.transpose %t, dims = [1, 0] : (tensor<256x64xf32>) -> tensor<64x256xf32>\n"
    "  %rs = stablehlo.reduce(%tt init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>\n"
    "  %rb = stablehlo.convert %r : (tensor<64x256xf32>) -> tensor<64x256xbf16>\n"
    "  %mm = stablehlo.dot_general %rb, %w, contracting_dims = [1] x [0] : (tensor<64x256xbf16>, tensor<256x128xbf16>) -> tensor<64x128xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<128xf32>) -> tensor<64x128xf32>\n"
    "  %o = stablehlo.add %mm, %bb : tensor<64x128xf32>\n"
    "  func.return %r, %rs, %o : tensor<64x256xf32>, tensor<64xf32>, tensor<64x128xf32>\n}\n";

static void check_small_on(const char *chip_name)
{
    struct chip_desc chip;
    load_chip(chip_name, &chip);
    struct graph_module *m = prog_parse(small_src);
    struct base_tensor *in[8] = {NULL};
    int n;
    random_inputs(m, in, &n, test_seed());
    for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
        struct run r;
        run_ok(m, &chip, (enum cc_mode)mode, false, in, n, &r);
        char what[96];
        snprintf(what, sizeof what, "%s %s", chip_name, cc_mode_name((enum cc_mode)mode));
        expect_matches_interpreter(m, in, n, &r, what);
        run_free(&r);
    }
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    graph_module_destroy(m);
}

static void test_runtime_small_graph_matches_interpreter_on_tpu_v5e(void **state)
{
    (void)state;
    check_small_on("tpu-v5e");
}

static void test_runtime_small_graph_matches_interpreter_on_trn2(void **state)
{
    (void)state;
    check_small_on("trn2");
}

/* Modes change the time, not the values; eager pays a dispatch per kernel. */
static void test_runtime_eager_is_slower_than_compiled(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("tpu-v5e", &chip);
    struct graph_module *m = prog_parse(small_src);
    struct base_tensor *in[8] = {NULL};
    int n;
    random_inputs(m, in, &n, test_seed());
    struct run c, e;
    run_ok(m, &chip, CC_MODE_COMPILED, false, in, n, &c);
    run_ok(m, &chip, CC_MODE_EAGER, false, in, n, &e);
    assert_true(e.rep.total_ps > c.rep.total_ps);
    assert_true(e.rep.launches > c.rep.launches);
    /* eager: one host dispatch per kernel; compiled: one for the program and
     * the device's gap between kernels */
    assert_int_equal(e.rep.dispatch_ps, e.rep.launches * chip.host.dispatch_overhead_ps);
    assert_int_equal(c.rep.dispatch_ps,
                     chip.host.dispatch_overhead_ps + (c.rep.launches - 1) * chip.host.kernel_launch_ps);
    assert_int_equal(e.rep.total_ps, e.rep.device_ps + e.rep.dispatch_ps);
    for (int i = 0; i < cc_plan_n_outputs(c.plan); i++) {
        assert_int_equal(c.outs[i]->count, e.outs[i]->count);
        assert_memory_equal(c.outs[i]->data, e.outs[i]->data, base_tensor_nbytes(c.outs[i]));
    }
    run_free(&c);
    run_free(&e);
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    graph_module_destroy(m);
}

static void test_runtime_timing_only_gives_identical_time(void **state)
{
    (void)state;
    const char *chips[] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        struct graph_module *m = prog_parse(small_src);
        struct base_tensor *in[8] = {NULL};
        int n;
        random_inputs(m, in, &n, test_seed());
        for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
            struct run f, t;
            run_ok(m, &chip, (enum cc_mode)mode, false, in, n, &f);
            run_ok(m, &chip, (enum cc_mode)mode, true, NULL, n, &t);
            assert_int_equal(f.rep.total_ps, t.rep.total_ps);
            assert_int_equal(f.rep.launches, t.rep.launches);
            assert_null(t.outs[0]);
            run_free(&f);
            run_free(&t);
        }
        for (int i = 0; i < n; i++) base_tensor_release(in[i]);
        graph_module_destroy(m);
    }
}

static const char *const loop_src =
    "func.func @main(%x: tensor<128xf32>) -> (tensor<128xf32>, tensor<i32>) {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<128xf32>\n"
    "  cond {\n"
    "    %n = stablehlo.constant dense<5> : tensor<i32>\n"
    "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %p : tensor<i1>\n"
    "  } do {\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %k = stablehlo.constant dense<0.75> : tensor<128xf32>\n"
    "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "    %v2 = stablehlo.multiply %v, %k : tensor<128xf32>\n"
    "    %v3 = stablehlo.add %v2, %k : tensor<128xf32>\n"
    "    stablehlo.return %i2, %v3 : tensor<i32>, tensor<128xf32>\n"
    "  }\n"
    "  func.return %r#1, %r#0 : tensor<128xf32>, tensor<i32>\n}\n";

static void test_runtime_while_loop_runs_its_trips(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(loop_src);
    struct base_tensor *in[2] = {NULL};
    int n;
    random_inputs(m, in, &n, test_seed());
    struct run f, t;
    run_ok(m, &chip, CC_MODE_COMPILED, false, in, n, &f);
    expect_matches_interpreter(m, in, n, &f, "while");
    assert_int_equal(((const int32_t *)f.outs[1]->data)[0], 5);
    /* timing-only: the trip count is static (counter, constant, constant) */
    run_ok(m, &chip, CC_MODE_COMPILED, true, NULL, n, &t);
    assert_int_equal(f.rep.total_ps, t.rep.total_ps);
    assert_int_equal(f.rep.launches, t.rep.launches);
    run_free(&f);
    run_free(&t);
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    graph_module_destroy(m);
}

static const char *const if_src =
    "func.func @main(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>\n"
    "  %p = stablehlo.compare GT, %s, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "  %r = \"stablehlo.if\"(%p) ({\n"
    "    %a = stablehlo.add %x, %y : tensor<16xf32>\n"
    "    stablehlo.return %a : tensor<16xf32>\n"
    "  }, {\n"
    "    %b = stablehlo.subtract %x, %y : tensor<16xf32>\n"
    "    stablehlo.return %b : tensor<16xf32>\n"
    "  }) : (tensor<i1>) -> tensor<16xf32>\n"
    "  func.return %r : tensor<16xf32>\n}\n";

static void test_runtime_if_takes_the_computed_branch(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("tpu-v5e", &chip);
    struct graph_module *m = prog_parse(if_src);
    for (int sign = 0; sign < 2; sign++) {
        struct base_tensor *in[2] = {NULL};
        int n;
        random_inputs(m, in, &n, test_seed() + (uint64_t)sign);
        for (int i = 0; i < 16; i++) /* all positive, or all negative */
            ((float *)in[0]->data)[i] = (sign ? -1.0f : 1.0f) * (1.0f + fabsf(((float *)in[0]->data)[i]));
        struct run r;
        run_ok(m, &chip, CC_MODE_COMPILED, false, in, n, &r);
        expect_matches_interpreter(m, in, n, &r, sign ? "if, false branch" : "if, true branch");
        run_free(&r);
        for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    }
    /* timing-only cannot read the predicate: a located error naming the op */
    struct run t;
    run_plan(m, &chip, CC_MODE_COMPILED, true, NULL, 2, &t);
    assert_int_equal(t.st, BASE_ERR_UNSUPPORTED);
    assert_int_equal(t.diag.line, 5);
    assert_non_null(strstr(t.diag.msg, "stablehlo.if"));
    run_free(&t);
    graph_module_destroy(m);
}

static void test_runtime_check_ops_run_on_the_host(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(
        "func.func @main() {\n"
        "  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
        "  %b = stablehlo.add %a, %a : tensor<4xf32>\n"
        "  check.expect_eq_const %b, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>\n"
        "  check.expect_eq_const %b, dense<[2.0, 4.0, 6.0, 9.0]> : tensor<4xf32>\n"
        "  func.return\n}\n");
    struct run r;
    run_ok(m, &chip, CC_MODE_EAGER, false, NULL, 0, &r);
    assert_int_equal(r.rep.n_checks, 2);
    assert_int_equal(r.rep.n_checks_failed, 1);
    assert_true(r.rep.checks[0].passed);
    assert_false(r.rep.checks[1].passed);
    assert_int_equal(r.rep.checks[1].loc.line, 5);
    run_free(&r);
    graph_module_destroy(m);
}

/* got = want except `n` elements off by `times` their bound. */
static bool compare_with_outliers(const struct cc_plan *p, int64_t count, int n, double times)
{
    struct base_tensor *want = NULL, *got = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, &count, &want), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, &count, &got), BASE_OK);
    for (int64_t i = 0; i < count; i++) ((float *)want->data)[i] = ((float *)got->data)[i] = 1.0f;
    struct rt_tolerance tol;
    rt_tolerance_for(p, want, &tol);
    for (int k = 0; k < n; k++) ((float *)got->data)[k * 997] = (float)(1.0 + times * (tol.atol + tol.rtol));
    struct rt_compare c;
    rt_compare_output(p, got, want, &c);
    assert_int_equal(c.n_bad, n);
    base_tensor_release(want);
    base_tensor_release(got);
    return c.passed;
}

/* A large float output may hold 1 in 100 000 elements past their bound (by
 * at most 4x: a deep network's rounding flips); a small one none. */
static void test_runtime_compare_allows_rare_small_outliers_in_large_outputs(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct graph_module *m = prog_parse("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                        "  %r = stablehlo.negate %a : tensor<4xf32>\n"
                                        "  return %r : tensor<4xf32>\n}\n");
    struct cc_plan *p = NULL;
    assert_int_equal(cc_compile(m, &chip, NULL, &p, &d), BASE_OK);
    assert_true(compare_with_outliers(p, 200000, 0, 0));
    assert_true(compare_with_outliers(p, 200000, 2, 3.5));   /* 2 allowed */
    assert_false(compare_with_outliers(p, 200000, 3, 1.5));  /* 3 are too many */
    assert_false(compare_with_outliers(p, 200000, 1, 5));    /* more than 4x */
    assert_false(compare_with_outliers(p, 99999, 1, 1.5));   /* small outputs: none */
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* |a - b| <= eps (this cmocka has no assert_double_equal) */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* An f32 dot (K = 256) compiled for chip at precision prec. */
static struct cc_plan *f32_dot_plan(const char *chip_name, enum isa_precision prec, struct chip_desc *chip,
                                    struct graph_module **m)
{
    load_chip(chip_name, chip);
    *m = prog_parse("func.func @main(%a: tensor<16x256xf32>, %b: tensor<256x16xf32>) -> tensor<16x16xf32> {\n"
                    "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x16xf32>) -> tensor<16x16xf32>\n"
                    "  return %r : tensor<16x16xf32>\n}\n");
    struct cc_options o;
    cc_options_default(&o);
    o.default_precision = prec;
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(*m, chip, &o, &p, &d), BASE_OK);
    return p;
}

/* The interpreter multiplies as the plan's chip: a TPU's passes per level,
 * the plan's default level; nothing on a NeuronCore (f32 native).  Only a
 * TPU below 6 passes loses precision. */
static void test_runtime_interp_target_precision(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct graph_module *m = NULL;
    struct interp_matmul_precision mp;
    struct cc_plan *p = f32_dot_plan("tpu-v5e", ISA_PREC_DEFAULT, &chip, &m);
    rt_interp_target_precision(p, &mp);
    assert_true(mp.emulate);
    assert_int_equal(mp.default_level, 0);
    assert_int_equal(mp.passes[0], chip.fp32_passes_default);
    assert_int_equal(mp.passes[1], chip.fp32_passes_high);
    assert_int_equal(mp.passes[2], chip.fp32_passes_highest);
    assert_true(rt_plan_reduces_precision(p));
    cc_plan_destroy(p);
    graph_module_destroy(m);
    p = f32_dot_plan("tpu-v5e", ISA_PREC_HIGHEST, &chip, &m);
    rt_interp_target_precision(p, &mp);
    assert_int_equal(mp.default_level, 2);
    assert_false(rt_plan_reduces_precision(p));
    cc_plan_destroy(p);
    graph_module_destroy(m);
    p = f32_dot_plan("trn2", ISA_PREC_DEFAULT, &chip, &m);
    rt_interp_target_precision(p, &mp);
    assert_false(mp.emulate);
    assert_false(rt_plan_reduces_precision(p));
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* Against a reference at the chip's precision the dot's products match: its
 * bound loses the one-pass term; the user's rtol / atol replace the derived
 * ones (rtol alone: atol = rtol max |want|). */
static void test_runtime_tolerance_options(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct graph_module *m = NULL;
    struct cc_plan *p = f32_dot_plan("tpu-v5e", ISA_PREC_DEFAULT, &chip, &m);
    int64_t n = 4;
    struct base_tensor *want = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, &n, &want), BASE_OK);
    for (int i = 0; i < 4; i++) ((float *)want->data)[i] = (float)(i - 2); /* max |want| = 2 */
    struct rt_tolerance f32ref, target, user;
    struct rt_check_options o;
    rt_check_options_default(&o);
    rt_tolerance_for_opts(p, want, &o, &f32ref);
    o.ref_at_target = true;
    rt_tolerance_for_opts(p, want, &o, &target);
    /* 2 sqrt(256) (2^-8 + 2^-24) against 2 sqrt(256) 2^-24, plus 4 eps each */
    assert_near(f32ref.rtol, 4 * ldexp(1.0, -23) + 32 * (ldexp(1.0, -8) + ldexp(1.0, -24)), 1e-15);
    assert_near(target.rtol, 4 * ldexp(1.0, -23) + 32 * ldexp(1.0, -24), 1e-15);
    o.rtol = 1e-3;
    rt_tolerance_for_opts(p, want, &o, &user);
    assert_near(user.rtol, 1e-3, 0);
    assert_near(user.atol, 2e-3, 1e-15);
    o.atol = 0.5;
    rt_tolerance_for_opts(p, want, &o, &user);
    assert_near(user.atol, 0.5, 0);
    base_tensor_release(want);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* Under the user's tolerance every element must be within it: no
 * deep-network allowance. */
static void test_runtime_user_tolerance_allows_no_outlier(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct graph_module *m = NULL;
    struct cc_plan *p = f32_dot_plan("trn2", ISA_PREC_DEFAULT, &chip, &m);
    int64_t n = 200000;
    struct base_tensor *want = NULL, *got = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, &n, &want), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, &n, &got), BASE_OK);
    for (int64_t i = 0; i < n; i++) ((float *)want->data)[i] = ((float *)got->data)[i] = 1.0f;
    ((float *)got->data)[7] = 1.25f;
    struct rt_check_options o;
    rt_check_options_default(&o);
    o.rtol = 0.1;
    o.atol = 0.1; /* bound 0.2 at 1: the 0.25 is 1.25x past it */
    struct rt_compare c;
    rt_compare_output_opts(p, got, want, &o, &c);
    assert_int_equal(c.n_bad, 1);
    assert_int_equal(c.n_allowed, 0);
    assert_false(c.passed);
    o.atol = 0.2; /* bound 0.3 */
    rt_compare_output_opts(p, got, want, &o, &c);
    assert_true(c.passed);
    base_tensor_release(want);
    base_tensor_release(got);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* A big elementwise op is memory-bound; a tiny eager one is dispatch-bound. */
static void test_runtime_bound_rule(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("tpu-v5e", &chip);
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<4096x1024xf32>, %b: tensor<4096x1024xf32>, %c: tensor<8xf32>) -> (tensor<4096x1024xf32>, tensor<8xf32>) {\n"
        "  %s = stablehlo.add %a, %b : tensor<4096x1024xf32>\n"
        "  %n = stablehlo.negate %c : tensor<8xf32>\n"
        "  func.return %s, %n : tensor<4096x1024xf32>, tensor<8xf32>\n}\n");
    struct run r;
    run_ok(m, &chip, CC_MODE_EAGER, true, NULL, 3, &r);
    assert_int_equal(r.rep.n_kernels, 2);
    assert_int_equal(r.rep.kernels[0].bound, RT_BOUND_MEMORY);
    assert_int_equal(r.rep.kernels[1].bound, RT_BOUND_DISPATCH);
    /* the add moves 3 x 16 MiB through HBM */
    assert_int_equal(r.rep.kernels[0].hbm_bytes, 3 * 4096 * 1024 * 4);
    run_free(&r);
    graph_module_destroy(m);
}

/* A sort the chip does not lower between two kernels: it runs on the host
 * (host fallback), the outputs are the interpreter's, and its time is the
 * chip file's host figures applied to its bytes and elements: one dispatch,
 * operands and results over the host link, the results computed at the
 * host's rate.  The chip waits: total = kernels + dispatch + host.  With
 * no_fallback it is the located error it was. */
static const char *const fallback_src =
    "func.func @main(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {\n"
    "  %a = stablehlo.exponential %x : tensor<16x64xf32>\n"
    "  %s = \"stablehlo.sort\"(%a) ({\n"
    "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
    "      %c = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "      stablehlo.return %c : tensor<i1>\n"
    "  }) {dimension = 1 : i64, is_stable = true} : (tensor<16x64xf32>) -> tensor<16x64xf32>\n"
    "  %b = stablehlo.add %s, %x : tensor<16x64xf32>\n"
    "  return %b : tensor<16x64xf32>\n"
    "}\n";

static void test_runtime_host_fallback_runs_what_the_chip_cannot(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int k = 0; k < 2; k++) {
        struct chip_desc chip;
        load_chip(chips[k], &chip);
        struct graph_module *m = prog_parse(fallback_src);
        struct base_tensor *in[1];
        int n_in = 0;
        random_inputs(m, in, &n_in, 5);
        struct run r;
        run_ok(m, &chip, CC_MODE_COMPILED, false, in, n_in, &r);
        expect_matches_interpreter(m, in, n_in, &r, chips[k]);
        assert_int_equal(r.rep.host_ops, 1);
        double bytes = 2.0 * 16 * 64 * 4; /* the f32 operand out, the result back */
        const struct chip_host_desc *h = &chip.host;
        assert_true(h->pcie_bytes_per_ns > 0 && h->fallback_elems_per_ns > 0);
        uint64_t want = h->dispatch_overhead_ps + event_bytes_to_ps(bytes, h->pcie_bytes_per_ns) +
                        event_bytes_to_ps(16.0 * 64, h->fallback_elems_per_ns);
        assert_true(r.rep.host_bytes == bytes);
        assert_int_equal(r.rep.host_ps, want);
        assert_int_equal(r.rep.total_ps, r.rep.device_ps + r.rep.dispatch_ps + r.rep.host_ps);
        run_free(&r);
        /* timing-only: the same time */
        run_ok(m, &chip, CC_MODE_COMPILED, true, NULL, n_in, &r);
        assert_int_equal(r.rep.host_ps, want);
        run_free(&r);
        /* no_fallback: refused, located at the sort */
        struct cc_options o;
        cc_options_default(&o);
        o.no_fallback = true;
        struct cc_plan *p = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(cc_compile(m, &chip, &o, &p, &d), BASE_ERR_UNSUPPORTED);
        assert_int_equal(d.line, 3);
        assert_non_null(strstr(d.msg, "stablehlo.sort is not lowered"));
        base_tensor_release(in[0]);
        graph_module_destroy(m);
    }
}

/* interpreter.probe reads its operand back to the host: each iteration's
 * value is written where the interpreter writes it (<dir>/<id>_<i>.npy, the
 * same bytes), and check.expect_serialized_eq judges against it.  Probes and
 * an outfeed are the host's I/O: each costs a dispatch and its bytes over
 * the host link, no host computation; the token the outfeed threads through
 * the loop moves nothing. */
static void test_runtime_probe_writes_what_the_interpreter_writes(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main() -> tensor<4xf32> {\n"
        "  %x0 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
        "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %t0 = stablehlo.after_all : !stablehlo.token\n"
        "  %r:3 = stablehlo.while(%x = %x0, %i = %i0, %t = %t0) : tensor<4xf32>, tensor<i32>, !stablehlo.token\n"
        "   cond {\n"
        "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
        "    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n"
        "    %y = stablehlo.multiply %x, %x : tensor<4xf32>\n"
        "    %p = interpreter.probe %y, probe_id = \"sq\" : tensor<4xf32>\n"
        "    %t1 = \"stablehlo.outfeed\"(%p, %t) : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token\n"
        "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %j = stablehlo.add %i, %one : tensor<i32>\n"
        "    stablehlo.return %p, %j, %t1 : tensor<4xf32>, tensor<i32>, !stablehlo.token\n"
        "  }\n"
        "  %e = stablehlo.constant dense<[1.0, 16.0, 81.0, 256.0]> : tensor<4xf32>\n"
        "  check.expect_serialized_eq %e, probe_id = \"sq\", iter = 1 : tensor<4xf32>\n"
        "  return %r#0 : tensor<4xf32>\n"
        "}\n";
    char dir_rt[] = "/tmp/npusim_rt_probe_XXXXXX", dir_in[] = "/tmp/npusim_in_probe_XXXXXX";
    assert_non_null(mkdtemp(dir_rt));
    assert_non_null(mkdtemp(dir_in));
    struct graph_module *m = prog_parse(src);
    struct base_diag d;
    base_diag_clear(&d);
    struct interp_options io = {.probe_dir = dir_in};
    struct interp_result ir;
    assert_int_equal(interp_run(m, NULL, NULL, 0, &io, &ir, &d), BASE_OK);
    assert_int_equal(ir.n_checks_failed, 0);
    interp_result_free(&ir);
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct cc_options o;
    cc_options_default(&o);
    struct cc_plan *p = NULL;
    assert_int_equal(cc_compile(m, &chip, &o, &p, &d), BASE_OK);
    struct sim_options so;
    sim_options_default(&so);
    struct sim *s = NULL;
    assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.probe_dir = dir_rt;
    struct rt_report rep;
    struct base_tensor *out[1] = {NULL};
    if (rt_run(p, s, NULL, 0, &ro, out, &rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run");
    }
    assert_int_equal(rep.n_checks, 1);
    assert_int_equal(rep.n_checks_failed, 0);
    assert_true(base_elem_get_f64(out[0]->dtype, out[0]->data, 1) == 256.0); /* 2^(2^3) */
    /* three probes and three outfeeds, 16 bytes each, nothing computed */
    const struct chip_host_desc *h = &chip.host;
    assert_int_equal(rep.host_ops, 6);
    assert_true(rep.host_bytes == 6 * 16.0);
    assert_int_equal(rep.host_ps, 6 * (h->dispatch_overhead_ps + event_bytes_to_ps(16.0, h->pcie_bytes_per_ns)));
    for (int i = 0; i < 3; i++) {
        char a[256], b[256];
        snprintf(a, sizeof a, "%s/sq_%d.npy", dir_rt, i);
        snprintf(b, sizeof b, "%s/sq_%d.npy", dir_in, i);
        char *ta = NULL, *tb = NULL;
        size_t la = 0, lb = 0;
        assert_int_equal(base_file_read(a, &ta, &la, &d), BASE_OK);
        assert_int_equal(base_file_read(b, &tb, &lb, &d), BASE_OK);
        assert_int_equal(la, lb);
        assert_memory_equal(ta, tb, la);
        free(ta);
        free(tb);
        remove(a);
        remove(b);
    }
    assert_int_equal(rmdir(dir_rt), 0); /* nothing else was written */
    assert_int_equal(rmdir(dir_in), 0);
    base_tensor_release(out[0]);
    rt_report_free(&rep);
    sim_destroy(s);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* complex128 (16-byte elements, which no engine moves): a copy of a view (a
 * transpose) moves each element as two 64-bit words on chip; a dynamic slice
 * of complex128 runs on the host.  Both equal the interpreter exactly. */
static void test_runtime_complex128_copies_and_slices(void **state)
{
    (void)state;
    static const char *const src =
        "func.func @main(%x: tensor<4x6xcomplex<f64>>, %i: tensor<i32>) -> (tensor<6x4xcomplex<f64>>, "
        "tensor<2x6xcomplex<f64>>) {\n"
        "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xcomplex<f64>>) -> tensor<6x4xcomplex<f64>>\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %s = stablehlo.dynamic_slice %x, %i, %z, sizes = [2, 6] : (tensor<4x6xcomplex<f64>>, tensor<i32>, "
        "tensor<i32>) -> tensor<2x6xcomplex<f64>>\n"
        "  return %t, %s : tensor<6x4xcomplex<f64>>, tensor<2x6xcomplex<f64>>\n"
        "}\n";
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(src);
    struct base_tensor *in[2];
    int n_in = 0;
    random_inputs(m, in, &n_in, 11);
    base_elem_set_i64(in[1]->dtype, in[1]->data, 0, 1);
    struct run r;
    run_ok(m, &chip, CC_MODE_COMPILED, false, in, n_in, &r);
    expect_matches_interpreter(m, in, n_in, &r, "complex128");
    assert_int_equal(r.rep.host_ops, 1); /* the dynamic slice; the transpose ran on chip */
    run_free(&r);
    base_tensor_release(in[0]);
    base_tensor_release(in[1]);
    graph_module_destroy(m);
}

TEST_MAIN(NULL, NULL, T(test_runtime_small_graph_matches_interpreter_on_tpu_v5e),
          T(test_runtime_interp_target_precision), T(test_runtime_tolerance_options),
          T(test_runtime_user_tolerance_allows_no_outlier),
          T(test_runtime_small_graph_matches_interpreter_on_trn2), T(test_runtime_eager_is_slower_than_compiled),
          T(test_runtime_timing_only_gives_identical_time), T(test_runtime_while_loop_runs_its_trips),
          T(test_runtime_if_takes_the_computed_branch), T(test_runtime_check_ops_run_on_the_host),
          T(test_runtime_bound_rule), T(test_runtime_compare_allows_rare_small_outliers_in_large_outputs),
          T(test_runtime_host_fallback_runs_what_the_chip_cannot),
          T(test_runtime_probe_writes_what_the_interpreter_writes), T(test_runtime_complex128_copies_and_slices))
