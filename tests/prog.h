/* Test support for the interpreter tests: parse a StableHLO program, run its
 * @main, fetch outputs, expect a located failure, and compare output
 * elements against independently known values. */
#ifndef NPUSIM_TESTS_PROG_H
#define NPUSIM_TESTS_PROG_H

#include "tests/harness.h"

#include "graph/graph.h"
#include "interp/interp.h"

/* One parsed and run program; free with prog_free. */
struct prog {
    struct graph_module *m;
    struct interp_result res;
    struct base_diag diag;
    enum base_status st; /* of the run */
};

/* A @main without inputs whose BODY defines %r of type T, which it returns. */
#define PROGRAM(T, BODY) "func.func @main() -> " T " {\n" BODY "\n  func.return %r : " T "\n}\n"

/* Parses src ("test.mlir"); a parse error prints its diag and fails the test. */
struct graph_module *prog_parse(const char *src);

/* Parses src and runs @main with the given inputs on replicas x partitions
 * processes (0 counts as 1).  Asserts nothing about the run: its status is
 * p->st and its diag p->diag. */
void prog_start(struct prog *p, const char *src, struct base_tensor *const *inputs, int n_inputs, int replicas,
                int partitions);
/* Asserts that the run succeeded (printing its diag) and that no check failed. */
void prog_expect_ok(const struct prog *p);
/* prog_start on one process, then prog_expect_ok. */
void prog_run(struct prog *p, const char *src, struct base_tensor *const *inputs, int n_inputs);
void prog_free(struct prog *p);

/* Output i of process `process`; prog_out is process 0. */
const struct base_tensor *prog_output(const struct prog *p, int process, int i);
const struct base_tensor *prog_out(const struct prog *p, int i);

/* Runs src (no inputs, one process) and returns its output i as a new reference. */
struct base_tensor *prog_run_output(const char *src, int i);
/* Runs src (no inputs) and expects success and want_checks checks, all passed. */
void prog_run_checks(const char *src, int replicas, int partitions, int want_checks);
/* Runs src (no inputs, one process) and expects a located error: status want
 * (BASE_OK: any error), a message containing frag (NULL: any message), on
 * line `line` (0: any line > 0). */
void prog_run_fails(const char *src, enum base_status want, const char *frag, int line);

/* Element checks; each names the first wrong element.  n is the expected count. */
void prog_expect_shape(const struct base_tensor *t, int rank, const int64_t *dims);
void prog_expect_i64(const struct base_tensor *t, const int64_t *want, size_t n);
void prog_expect_u64(const struct base_tensor *t, const uint64_t *want, size_t n);
/* '1'/'0' per element of an i1 tensor. */
void prog_expect_bools(const struct base_tensor *t, const char *want);
/* |got - want| <= rel * |want|; rel 0: exactly, with the sign of zero.  A NaN
 * matches a NaN of either sign. */
void prog_expect_f64(const struct base_tensor *t, const double *want, size_t n, double rel);
/* Exactly, with the sign of zeros and of NaNs. */
void prog_expect_f64_signed(const struct base_tensor *t, const double *want, size_t n);
/* |got - want| <= tol (absolute). */
void prog_expect_f64_near(const struct base_tensor *t, const double *want, size_t n, double tol);
/* Complex elements, want as (re, im) pairs: each part within rel of its
 * wanted value (rel 0: exactly), or within the absolute tol. */
void prog_expect_c128(const struct base_tensor *t, const double *want_re_im, size_t n, double rel);
void prog_expect_c128_near(const struct base_tensor *t, const double *want_re_im, size_t n, double tol);

#endif
