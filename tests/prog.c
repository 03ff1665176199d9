/* Test support for the interpreter tests (see prog.h). */
#include "tests/prog.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>

struct graph_module *prog_parse(const char *src)
{
    struct graph_parse_options po = {.path = "test.mlir"};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse(src, strlen(src), &po, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("parse failed");
    }
    return m;
}

void prog_start(struct prog *p, const char *src, struct base_tensor *const *inputs, int n_inputs, int replicas,
                int partitions)
{
    memset(p, 0, sizeof *p);
    base_diag_clear(&p->diag);
    p->m = prog_parse(src);
    struct interp_options opt = {.num_replicas = replicas, .num_partitions = partitions};
    p->st = interp_run(p->m, NULL, inputs, n_inputs, &opt, &p->res, &p->diag);
}

void prog_expect_ok(const struct prog *p)
{
    if (p->st != BASE_OK) base_diag_print(&p->diag, stderr);
    assert_int_equal(p->st, BASE_OK);
    for (int i = 0; i < p->res.n_checks; i++)
        if (!p->res.checks[i].passed) fprintf(stderr, "check failed: %s\n", p->res.checks[i].what);
    assert_int_equal(p->res.n_checks_failed, 0);
}

void prog_run(struct prog *p, const char *src, struct base_tensor *const *inputs, int n_inputs)
{
    prog_start(p, src, inputs, n_inputs, 1, 1);
    prog_expect_ok(p);
}

void prog_free(struct prog *p)
{
    interp_result_free(&p->res);
    graph_module_destroy(p->m);
    p->m = NULL;
}

const struct base_tensor *prog_output(const struct prog *p, int process, int i)
{
    assert_true(process < p->res.n_processes && i < p->res.n_outputs);
    return p->res.outputs[process * p->res.n_outputs + i];
}

const struct base_tensor *prog_out(const struct prog *p, int i) { return prog_output(p, 0, i); }

struct base_tensor *prog_run_output(const char *src, int i)
{
    struct prog p;
    prog_run(&p, src, NULL, 0);
    assert_true(i < p.res.n_outputs);
    struct base_tensor *t = base_tensor_retain(p.res.outputs[i]);
    prog_free(&p);
    return t;
}

void prog_run_checks(const char *src, int replicas, int partitions, int want_checks)
{
    struct prog p;
    prog_start(&p, src, NULL, 0, replicas, partitions);
    prog_expect_ok(&p);
    assert_int_equal(p.res.n_checks, want_checks);
    prog_free(&p);
}

void prog_run_fails(const char *src, enum base_status want, const char *frag, int line)
{
    struct prog p;
    prog_start(&p, src, NULL, 0, 1, 1);
    bool ok = p.st != BASE_OK && (want == BASE_OK || p.st == want) && (!frag || strstr(p.diag.msg, frag)) &&
              (line ? p.diag.line == line : p.diag.line > 0);
    if (!ok) {
        base_diag_print(&p.diag, stderr);
        fail_msg("want status %s with '%s' at line %d, got %s", want == BASE_OK ? "(any error)" : base_status_str(want),
                 frag ? frag : "", line, base_status_str(p.st));
    }
    prog_free(&p);
}

void prog_expect_shape(const struct base_tensor *t, int rank, const int64_t *dims)
{
    assert_int_equal(t->rank, rank);
    for (int d = 0; d < rank; d++)
        if (t->dims[d] != dims[d]) fail_msg("dim %d: got %lld, want %lld", d, (long long)t->dims[d], (long long)dims[d]);
}

void prog_expect_i64(const struct base_tensor *t, const int64_t *want, size_t n)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        int64_t got = base_elem_get_i64(t->dtype, t->data, i);
        if (got != want[i]) fail_msg("element %zu: got %lld, want %lld", i, (long long)got, (long long)want[i]);
    }
}

void prog_expect_u64(const struct base_tensor *t, const uint64_t *want, size_t n)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        uint64_t got = base_elem_get_u64(t->dtype, t->data, i);
        if (got != want[i])
            fail_msg("element %zu: got %llu, want %llu", i, (unsigned long long)got, (unsigned long long)want[i]);
    }
}

void prog_expect_bools(const struct base_tensor *t, const char *want)
{
    size_t n = strlen(want);
    assert_int_equal(t->dtype, BASE_DT_I1);
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        int got = ((const uint8_t *)t->data)[i];
        if (got != (want[i] == '1')) fail_msg("element %zu: got %d, want %c", i, got, want[i]);
    }
}

void prog_expect_f64(const struct base_tensor *t, const double *want, size_t n, double rel)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double got = base_elem_get_f64(t->dtype, t->data, i);
        bool ok;
        if (isnan(want[i])) ok = isnan(got);
        else if (rel == 0.0) ok = got == want[i] && signbit(got) == signbit(want[i]);
        else ok = fabs(got - want[i]) <= rel * fabs(want[i]);
        if (!ok) fail_msg("element %zu: got %.17g, want %.17g", i, got, want[i]);
    }
}

void prog_expect_f64_signed(const struct base_tensor *t, const double *want, size_t n)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double got = base_elem_get_f64(t->dtype, t->data, i);
        bool ok = (isnan(want[i]) ? isnan(got) : got == want[i]) && signbit(got) == signbit(want[i]);
        if (!ok) fail_msg("element %zu: got %.17g, want %.17g", i, got, want[i]);
    }
}

void prog_expect_f64_near(const struct base_tensor *t, const double *want, size_t n, double tol)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double got = base_elem_get_f64(t->dtype, t->data, i);
        if (!(fabs(got - want[i]) <= tol)) fail_msg("element %zu: got %.17g, want %.17g (tol %g)", i, got, want[i], tol);
    }
}

void prog_expect_c128(const struct base_tensor *t, const double *want_re_im, size_t n, double rel)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double re, im;
        base_elem_get_c128(t->dtype, t->data, i, &re, &im);
        double wr = want_re_im[2 * i], wi = want_re_im[2 * i + 1];
        if (fabs(re - wr) > rel * fabs(wr) + 1e-300 || fabs(im - wi) > rel * fabs(wi) + 1e-300)
            fail_msg("element %zu: got (%.17g, %.17g), want (%.17g, %.17g)", i, re, im, wr, wi);
    }
}

void prog_expect_c128_near(const struct base_tensor *t, const double *want_re_im, size_t n, double tol)
{
    assert_int_equal(t->count, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double re, im;
        base_elem_get_c128(t->dtype, t->data, i, &re, &im);
        double wr = want_re_im[2 * i], wi = want_re_im[2 * i + 1];
        if (!(fabs(re - wr) <= tol && fabs(im - wi) <= tol))
            fail_msg("element %zu: got (%.17g, %.17g), want (%.17g, %.17g) (tol %g)", i, re, im, wr, wi, tol);
    }
}
