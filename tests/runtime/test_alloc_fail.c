/* The out-of-memory paths (issue 20): a small run (parse, verify, compile
 * for trn2, simulate with values, interpret, write and read a .npy and a
 * trace) is repeated with its Nth allocation failing, for every N until a
 * run sees no failure.  Each run must end OK or with an error that says
 * something; none may crash, and under make check-asan none may leak.
 * malloc, calloc and realloc are wrapped at link time (the Makefile gives
 * this binary -Wl,--wrap=...). */
#include "tests/harness.h"

#include "chip/chip.h"
#include "compiler/compiler.h"
#include "graph/graph.h"
#include "interp/interp.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

static long fail_at;  /* 0: never */
static long n_allocs; /* since the run began */
static bool failed;   /* the injected failure happened */

static bool fail_now(void)
{
    if (fail_at && ++n_allocs == fail_at) {
        failed = true;
        return true;
    }
    return false;
}
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return fail_now() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

static const char program[] = "func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {\n"
                              "  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :"
                              " (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>\n"
                              "  %z = stablehlo.exponential %y : tensor<8x8xf32>\n"
                              "  %s = stablehlo.add %z, %y : tensor<8x8xf32>\n"
                              "  return %s : tensor<8x8xf32>\n"
                              "}\n";

/* One small run; its status, the diag of the step that failed in *d. */
static enum base_status small_run(const struct chip_desc *chip, const char *npy, struct base_diag *d)
{
    struct graph_parse_options po = {"alloc.mlir", 0, 0, false};
    struct graph_module *m = NULL;
    struct cc_plan *plan = NULL;
    struct sim *s = NULL;
    struct base_tensor *in[2] = {NULL, NULL}, *outs[4] = {NULL}, *back = NULL;
    struct rt_report rep;
    memset(&rep, 0, sizeof rep);
    struct interp_result ir;
    memset(&ir, 0, sizeof ir);
    enum base_status st = graph_parse(program, sizeof program - 1, &po, &m, d);
    if (st == BASE_OK) st = graph_verify(m, d);
    const int64_t dx[2] = {8, 16}, dw[2] = {16, 8};
    if (st == BASE_OK && (st = base_tensor_create(BASE_DT_F32, 2, dx, &in[0])) != BASE_OK)
        base_diag_set(d, st, "<test>", 0, 0, "out of memory creating an input");
    if (st == BASE_OK && (st = base_tensor_create(BASE_DT_F32, 2, dw, &in[1])) != BASE_OK)
        base_diag_set(d, st, "<test>", 0, 0, "out of memory creating an input");
    if (st == BASE_OK) {
        base_tensor_fill_random(in[0], 1, 1.0);
        base_tensor_fill_random(in[1], 2, 1.0);
        st = cc_compile(m, chip, NULL, &plan, d);
    }
    if (st == BASE_OK) {
        struct sim_options so;
        sim_options_default(&so);
        st = sim_create(chip, &so, &s, d);
    }
    if (st == BASE_OK) {
        struct rt_options ro;
        rt_options_default(&ro);
        st = rt_run(plan, s, in, 2, &ro, outs, &rep, d);
    }
    if (st == BASE_OK) {
        struct interp_options io;
        memset(&io, 0, sizeof io);
        st = interp_run(m, NULL, in, 2, &io, &ir, d);
    }
    if (st == BASE_OK) st = base_npy_write(npy, outs[0], d);
    if (st == BASE_OK) st = base_npy_read(npy, &back, d);
    base_tensor_release(back);
    interp_result_free(&ir);
    for (int i = 0; i < 4; i++) base_tensor_release(outs[i]);
    rt_report_free(&rep);
    sim_destroy(s);
    cc_plan_destroy(plan);
    base_tensor_release(in[0]);
    base_tensor_release(in[1]);
    graph_module_destroy(m);
    return st;
}

static void test_every_allocation_failure_is_a_clear_error(void **state)
{
    (void)state;
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    char npy[64];
    snprintf(npy, sizeof npy, "/tmp/npusim_alloc_fail_%d.npy", (int)getpid());
    /* the run without failures, and how many allocations it makes */
    assert_int_equal(small_run(&chip, npy, &d), BASE_OK);
    long n_runs = 0, n_errors = 0;
    for (long n = 1;; n++) {
        base_diag_clear(&d);
        fail_at = n;
        n_allocs = 0;
        failed = false;
        enum base_status st = small_run(&chip, npy, &d);
        fail_at = 0;
        n_runs++;
        if (!failed) {
            assert_int_equal(st, BASE_OK); /* past the last allocation: the whole run */
            break;
        }
        if (st != BASE_OK) {
            n_errors++;
            if (!d.msg[0]) fail_msg("allocation %ld failed: status %s without a message", n, base_status_str(st));
        }
        /* a failed write leaves nothing behind: the .npy is whole or absent */
        struct base_tensor *t = NULL;
        struct base_diag d2;
        base_diag_clear(&d2);
        if (access(npy, F_OK) == 0) {
            enum base_status rs = base_npy_read(npy, &t, &d2);
            if (rs != BASE_OK) fail_msg("allocation %ld: %s is not whole: %s", n, npy, d2.msg);
            base_tensor_release(t);
        }
        unlink(npy);
    }
    print_message("%ld runs, each with one allocation failing; %ld ended in an error, all with a message\n", n_runs,
                  n_errors);
    assert_true(n_runs > 100); /* the run allocates: the walk covered something */
    unlink(npy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_failure_is_a_clear_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
