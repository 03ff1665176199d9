/* The chlo special functions as vector-engine instruction sequences
 * (compiler/k_special.c) against the golden interpreter (f64 libm-class
 * evaluation) on tpu-v5e and trn2: random values over each function's
 * domain plus edge values (signed zeros, infinities, NaN, poles, the ends
 * of the domain, near-integers).  Each function has a bound: at most `ulps`
 * units in the last place of the interpreter's value, or `atol` absolute
 * (functions with zeros: lgamma at 1 and 2, digamma at its root); the
 * measured worst errors are printed (docs/compiler.md quotes them). */
#include "tests/compiler/k_test_util.h"

struct fn {
    const char *op;      /* "chlo.lgamma" */
    double lo, hi;       /* random values in [lo, hi] */
    double ulps, atol;   /* bound for f32 results */
    double edges[12];
    int n_edges;
};

static const struct fn fns[] = {
    {"chlo.lgamma", -20, 30, 40, 2e-6, {0, -0.0, 1, 2, 0.5, -0.5, -3, -2.5, INFINITY, -INFINITY, NAN, 1e30}, 12},
    {"chlo.digamma", -10, 30, 8, 2e-6, {0, -1, 1, 2, 0.5, -0.5, 1.4616321, INFINITY, NAN, 1e10}, 10},
    {"chlo.erf_inv", -1, 1, 4, 0, {0, -0.0, 1, -1, 0.999999, -0.9999, 1e-30, 2, NAN, 0.5}, 10},
    {"chlo.erfc", -5, 12, 6, 0, {0, -0.0, 0.5, 0.4999999, -0.5, 10, 30, INFINITY, -INFINITY, NAN, 3e38, 10.1}, 12},
    {"chlo.bessel_i1e", -30, 30, 12, 0, {0, -0.0, 8, -8, 7.999999, 100, 1e6, INFINITY, -INFINITY, NAN}, 10},
    {"chlo.asin", -1, 1, 3, 0, {0, -0.0, 1, -1, 0.5, -0.999999, 1e-30, 1.5, NAN}, 9},
    {"chlo.acos", -1, 1, 3, 0, {0, -0.0, 1, -1, 0.5, 0.999999, -0.999999, 1.5, NAN}, 9},
    {"chlo.atan", -50, 50, 1, 0, {0, -0.0, 1, -1, 1e30, INFINITY, -INFINITY, NAN}, 8},
    {"chlo.asinh", -100, 100, 3, 0, {0, -0.0, 1e-30, 1e20, -1e30, INFINITY, -INFINITY, NAN}, 8},
    {"chlo.acosh", 1, 100, 3, 0, {1, 1.0000001, 0.5, 1e20, 1e38, INFINITY, NAN}, 7},
    {"chlo.atanh", -1, 1, 3, 0, {0, -0.0, 1, -1, 0.9999999, -0.9230769, 1e-20, 2, NAN}, 9},
    {"chlo.sinh", -20, 20, 3, 0, {0, -0.0, 0.999999, -1, 1, 88, 89.5, -89.5, INFINITY, NAN}, 10},
    {"chlo.cosh", -20, 20, 0, 0, {0, -0.0, 1, 88, 89.5, -89.5, INFINITY, -INFINITY, NAN}, 9},
};

static void run_fn(const struct fn *f, const char *ty, const char *chip, double *worst_ulps, double *worst_abs)
{
    char src[512];
    snprintf(src, sizeof src,
             "func.func @main(%%x: tensor<300x%s>) -> tensor<300x%s> {\n"
             "  %%r = %s %%x : tensor<300x%s> -> tensor<300x%s>\n"
             "  func.return %%r : tensor<300x%s>\n}\n",
             ty, ty, f->op, ty, ty, ty);
    struct kt t;
    kt_parse(&t, src, CC_K_ELEMENTWISE);
    kt_random_inputs(&t, 11, 1.0);
    struct base_tensor *x = t.args[0];
    struct base_rng r;
    base_rng_seed(&r, 42);
    for (int64_t i = 0; i < x->count; i++) {
        double v = f->lo + (f->hi - f->lo) * base_rng_uniform(&r);
        if (i < f->n_edges) v = f->edges[i];
        else if (i < 40 && !strcmp(f->op, "chlo.lgamma")) v = -(double)(i - f->n_edges) * 0.5 - 0.25 * (i % 2);
        base_elem_set_f64(x->dtype, x->data, (size_t)i, v);
    }
    struct chip_desc c;
    kt_load_chip(chip, &c);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(t.m, NULL, t.args, t.n_args, &io, &res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter failed");
    }
    struct kt_run run;
    kt_run(&t, &c, cc_emit_elementwise, false, 0, &run);
    const struct base_tensor *g = run.outs[0], *w = res.outputs[0];
    enum base_dtype dt = g->dtype;
    const struct base_float_format *ff = base_float_format(dt);
    double tol_ulps = dt == BASE_DT_F32 ? f->ulps : 1; /* f16 / bf16: one rounding of an f32 value off by a few */
    for (int64_t i = 0; i < g->count; i++) {
        double a = base_elem_get_f64(dt, g->data, (size_t)i), b = base_elem_get_f64(dt, w->data, (size_t)i);
        double xi = base_elem_get_f64(dt, x->data, (size_t)i);
        if (isnan(a) && isnan(b)) continue;
        if (a == b) continue;
        if (!isfinite(a) || !isfinite(b))
            fail_msg("%s %s on %s: x = %.9g: got %.9g, want %.9g", f->op, ty, chip, xi, a, b);
        int e;
        frexp(fabs(b) > ff->min_normal ? b : ff->min_normal, &e);
        double ulp = ldexp(1.0, e - 1 - ff->man_bits), err = fabs(a - b);
        if (err / ulp > *worst_ulps && err > f->atol) *worst_ulps = err / ulp;
        if (err > *worst_abs) *worst_abs = err;
        if (err > tol_ulps * ulp && err > f->atol)
            fail_msg("%s %s on %s: x = %.9g: got %.9g, want %.9g (%.1f ulps)", f->op, ty, chip, xi, a, b, err / ulp);
    }
    kt_run_free(&run);
    interp_result_free(&res);
    kt_free(&t);
}

static void test_k_special_functions_f32(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
        double wu = 0, wa = 0;
        run_fn(&fns[i], "f32", "tpu-v5e", &wu, &wa);
        run_fn(&fns[i], "f32", "trn2", &wu, &wa);
        printf("  %-16s f32: worst %.2f ulps (beyond atol %g), worst |error| %.3g\n", fns[i].op, wu, fns[i].atol, wa);
    }
}

/* bf16 and f16: computed in f32, rounded once: at most an ulp off */
static void test_k_special_functions_narrow(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
        double wu = 0, wa = 0;
        run_fn(&fns[i], "bf16", "trn2", &wu, &wa);
        run_fn(&fns[i], "f16", "tpu-v5e", &wu, &wa);
    }
}

static void check_exact(const char *src)
{
    struct kt t;
    kt_parse(&t, src, CC_K_ELEMENTWISE);
    kt_random_inputs(&t, 5, 100.0);
    /* edges: equal operands, zeros of both signs, infinities, NaN, extremes */
    struct base_tensor *x = t.args[0], *y = t.n_args > 1 ? t.args[1] : NULL;
    if (base_dtype_is_float(x->dtype)) {
        static const double ex[] = {0, -0.0, 1, INFINITY, -INFINITY, NAN, 5, -0.0, 1e-40, 3.4e38};
        static const double ey[] = {0, 0, 1, 0, INFINITY, 1, NAN, -0.0, 0, INFINITY};
        for (int i = 0; i < 10; i++) {
            base_elem_set_f64(x->dtype, x->data, (size_t)i, ex[i]);
            if (y) base_elem_set_f64(y->dtype, y->data, (size_t)i, ey[i]);
        }
    } else {
        for (int64_t i = 0; i < x->count; i++) { /* full-range integers */
            base_elem_set_bits(x->dtype, x->data, (size_t)i, (uint64_t)(i * 0x9E3779B97F4A7C15ull) ^ 0x5555aaaa5555aaaaull);
            base_elem_set_bits(y->dtype, y->data, (size_t)i, (uint64_t)(i * 0xBF58476D1CE4E5B9ull) + 0x123456789ull);
        }
    }
    kt_check_both(&t, cc_emit_elementwise, 0);
    kt_free(&t);
}

static void test_k_special_exact_ops(void **state)
{
    (void)state;
    const char *types[] = {"f32", "bf16", "f16"};
    for (int i = 0; i < 3; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "func.func @main(%%x: tensor<500x%s>, %%y: tensor<500x%s>) -> (tensor<500x%s>, tensor<500xi1>, "
                 "tensor<500xi1>, tensor<500xi1>) {\n"
                 "  %%n = chlo.next_after %%x, %%y : tensor<500x%s>, tensor<500x%s> -> tensor<500x%s>\n"
                 "  %%a = chlo.is_inf %%x : tensor<500x%s> -> tensor<500xi1>\n"
                 "  %%b = chlo.is_pos_inf %%y : tensor<500x%s> -> tensor<500xi1>\n"
                 "  %%c = chlo.is_neg_inf %%y : tensor<500x%s> -> tensor<500xi1>\n"
                 "  func.return %%n, %%a, %%b, %%c : tensor<500x%s>, tensor<500xi1>, tensor<500xi1>, tensor<500xi1>\n}\n",
                 types[i], types[i], types[i], types[i], types[i], types[i], types[i], types[i], types[i], types[i]);
        check_exact(src);
    }
    const char *itypes[] = {"i8", "ui16", "i32", "ui32", "i64", "ui64"};
    for (int i = 0; i < 6; i++) {
        char src[512];
        snprintf(src, sizeof src,
                 "func.func @main(%%x: tensor<300x%s>, %%y: tensor<300x%s>) -> tensor<300x%s> {\n"
                 "  %%r = chlo.mulhi %%x, %%y : tensor<300x%s>, tensor<300x%s> -> tensor<300x%s>\n"
                 "  func.return %%r : tensor<300x%s>\n}\n",
                 itypes[i], itypes[i], itypes[i], itypes[i], itypes[i], itypes[i], itypes[i]);
        check_exact(src);
    }
}

/* sinh, cosh fuse with their neighbours into one kernel like any elementwise op */
static void test_k_special_fuses(void **state)
{
    (void)state;
    struct kt t;
    kt_parse(&t,
             "func.func @main(%x: tensor<64x50xf32>) -> tensor<64x50xf32> {\n"
             "  %a = chlo.cosh %x : tensor<64x50xf32> -> tensor<64x50xf32>\n"
             "  %b = chlo.atan %a : tensor<64x50xf32> -> tensor<64x50xf32>\n"
             "  %c = stablehlo.add %b, %x : tensor<64x50xf32>\n"
             "  func.return %c : tensor<64x50xf32>\n}\n",
             CC_K_ELEMENTWISE);
    kt_random_inputs(&t, 3, 2.0);
    kt_check_both(&t, cc_emit_elementwise, 2);
    kt_free(&t);
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_special_functions_f32), cmocka_unit_test(test_k_special_functions_narrow),
          cmocka_unit_test(test_k_special_exact_ops), cmocka_unit_test(test_k_special_fuses))
