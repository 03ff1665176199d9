/* complex64 on chip as pairs of f32 (compiler/k_complex.c, k_elem.c's
 * complex values, compile.c's 64-bit moves) against the golden interpreter
 * on tpu-v5e and trn2: exact for real/imag/complex/conj/add/subtract/negate/
 * select/compare and moves; multiply, divide, abs, exp, log, sign within
 * the documented bounds (f32 arithmetic; the interpreter computes in f64). */
#include "tests/compiler/k_test_util.h"

static const char *chips[] = {"tpu-v5e", "trn2"};

/* Every element's parts within `ulps` f32 ulps of the larger part of the
 * interpreter's element (both parts NaN-equal, infinities equal). */
static void compare_c64(const struct base_tensor *got, const struct base_tensor *want, double ulps, const char *what)
{
    assert_int_equal(got->dtype, want->dtype);
    if (got->dtype != BASE_DT_C64) {
        kt_compare(got, want, ulps, what);
        return;
    }
    const float *g = got->data, *w = want->data;
    for (int64_t i = 0; i < got->count; i++) {
        double m = fmax(fabs(w[2 * i]), fabs(w[2 * i + 1]));
        int e;
        frexp(m > 0 ? m : 1e-38, &e);
        double ulp = ldexp(1.0, e - 24);
        for (int k = 0; k < 2; k++) {
            double a = g[2 * i + k], b = w[2 * i + k];
            if ((isnan(a) && isnan(b)) || a == b) continue;
            if (isfinite(a) && isfinite(b) && fabs(a - b) <= ulps * ulp) continue;
            fail_msg("%s: element %lld part %d: got %.9g, want %.9g (%.1f ulps of the element)", what, (long long)i, k,
                     a, b, fabs(a - b) / ulp);
        }
    }
}

static void check(const char *src, enum cc_kernel_kind kind, cc_emit_fn fn, double ulps, uint64_t seed, bool infs)
{
    for (int c = 0; c < 2; c++) {
        struct kt t;
        kt_parse(&t, src, kind);
        if (kind == CC_K_COPY) { /* the input is the folded view */
            t.k.n_in = 1;
            t.k.in = &t.in[t.n_in - 1];
            t.k.n_ops = 0;
        }
        kt_random_inputs(&t, seed, 3.0);
        for (int a = 0; a < t.n_args; a++) { /* edges: zeros, an infinity, a NaN */
            struct base_tensor *x = t.args[a];
            if (x->dtype != BASE_DT_C64 || x->count < 8) continue;
            float *f = x->data;
            f[0] = f[1] = 0;
            f[2] = -0.0f;
            if (infs) f[5] = INFINITY;
            f[6] = NAN;
        }
        /* moves go through u64 views, as the plan gives them */
        for (int i = 0; kind != CC_K_ELEMENTWISE && i < t.k.n_in; i++)
            if (t.in[i].view.dtype == BASE_DT_C64) ((struct cc_operand *)t.k.in)[i].view.dtype = BASE_DT_UI64;
        for (int i = 0; kind != CC_K_ELEMENTWISE && i < t.n_out; i++)
            if (t.out[i].view.dtype == BASE_DT_C64) t.out[i].view.dtype = BASE_DT_UI64;
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
        kt_run(&t, &chip, fn, false, 0, &r);
        for (int i = 0; i < t.n_out; i++) {
            char what[96];
            snprintf(what, sizeof what, "%s output %d", chips[c], i);
            if (r.outs[i]->dtype == BASE_DT_UI64) r.outs[i]->dtype = BASE_DT_C64; /* the same bytes */
            compare_c64(r.outs[i], res.outputs[i], ulps, what);
        }
        kt_run_free(&r);
        interp_result_free(&res);
        kt_free(&t);
    }
}

/* the exact ops, fused: complex, conj, add, subtract, negate, select, compare, real, imag */
static void test_k_complex_exact_ops(void **state)
{
    (void)state;
    check("func.func @main(%re: tensor<40x33xf32>, %im: tensor<40x33xf32>, %z: tensor<40x33xcomplex<f32>>) -> "
          "(tensor<40x33xcomplex<f32>>, tensor<40x33xf32>, tensor<40x33xf32>, tensor<40x33xi1>) {\n"
          "  %c = stablehlo.complex %re, %im : tensor<40x33xcomplex<f32>>\n"
          "  %a = stablehlo.add %c, %z : tensor<40x33xcomplex<f32>>\n"
          "  %j = chlo.conj %a : tensor<40x33xcomplex<f32>> -> tensor<40x33xcomplex<f32>>\n"
          "  %n = stablehlo.negate %z : tensor<40x33xcomplex<f32>>\n"
          "  %s = stablehlo.subtract %j, %n : tensor<40x33xcomplex<f32>>\n"
          "  %p = stablehlo.compare GT, %re, %im : (tensor<40x33xf32>, tensor<40x33xf32>) -> tensor<40x33xi1>\n"
          "  %q = stablehlo.select %p, %s, %z : tensor<40x33xi1>, tensor<40x33xcomplex<f32>>\n"
          "  %r = stablehlo.real %q : (tensor<40x33xcomplex<f32>>) -> tensor<40x33xf32>\n"
          "  %i = stablehlo.imag %a : (tensor<40x33xcomplex<f32>>) -> tensor<40x33xf32>\n"
          "  %e = stablehlo.compare NE, %q, %z : (tensor<40x33xcomplex<f32>>, tensor<40x33xcomplex<f32>>) -> tensor<40x33xi1>\n"
          "  func.return %q, %r, %i, %e : tensor<40x33xcomplex<f32>>, tensor<40x33xf32>, tensor<40x33xf32>, tensor<40x33xi1>\n}\n",
          CC_K_ELEMENTWISE, cc_emit_elementwise, 0, 1, true);
}

/* f32 arithmetic: within 2 ulps of the element's larger part */
static void test_k_complex_arithmetic(void **state)
{
    (void)state;
    const char *ops[] = {"multiply", "divide"};
    for (int k = 0; k < 2; k++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "func.func @main(%%a: tensor<300xcomplex<f32>>, %%b: tensor<300xcomplex<f32>>) -> tensor<300xcomplex<f32>> {\n"
                 "  %%r = stablehlo.%s %%a, %%b : tensor<300xcomplex<f32>>\n"
                 "  func.return %%r : tensor<300xcomplex<f32>>\n}\n",
                 ops[k]);
        /* a division by an infinity: the interpreter's C division recovers the
         * infinities (C11 Annex G), Smith's algorithm gives NaN (documented) */
        check(src, CC_K_ELEMENTWISE, cc_emit_elementwise, 2, 2 + (uint64_t)k, k == 0);
    }
    const char *un[] = {"abs", "exponential", "log", "sign"};
    for (int k = 0; k < 4; k++) {
        char src[1024];
        const char *rt = k == 0 ? "tensor<300xf32>" : "tensor<300xcomplex<f32>>";
        snprintf(src, sizeof src,
                 "func.func @main(%%a: tensor<300xcomplex<f32>>) -> %s {\n"
                 "  %%r = stablehlo.%s %%a : (tensor<300xcomplex<f32>>) -> %s\n"
                 "  func.return %%r : %s\n}\n",
                 rt, un[k], rt, rt);
        check(src, CC_K_ELEMENTWISE, cc_emit_elementwise, 2, 5 + (uint64_t)k, true);
    }
}

/* a complex view materialised, a concatenation: 64-bit words, exact */
static void test_k_complex_moves(void **state)
{
    (void)state;
    check("func.func @main(%x: tensor<30x50xcomplex<f32>>) -> tensor<50x30xcomplex<f32>> {\n"
          "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<30x50xcomplex<f32>>) -> tensor<50x30xcomplex<f32>>\n"
          "  func.return %t : tensor<50x30xcomplex<f32>>\n}\n",
          CC_K_COPY, cc_emit_copy, 0, 9, true);
    check("func.func @main(%a: tensor<3x7xcomplex<f32>>, %b: tensor<3x5xcomplex<f32>>) -> tensor<3x12xcomplex<f32>> {\n"
          "  %r = stablehlo.concatenate %a, %b, dim = 1 : (tensor<3x7xcomplex<f32>>, tensor<3x5xcomplex<f32>>) -> "
          "tensor<3x12xcomplex<f32>>\n"
          "  func.return %r : tensor<3x12xcomplex<f32>>\n}\n",
          CC_K_CONCAT, cc_emit_concat, 0, 10, true);
}

TEST_MAIN(NULL, NULL, cmocka_unit_test(test_k_complex_exact_ops), cmocka_unit_test(test_k_complex_arithmetic),
          cmocka_unit_test(test_k_complex_moves))
