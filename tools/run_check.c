/* npusim run's output checks (docs/compiler.md "Reports and tolerances"):
 * --check against the golden interpreter computing as the chip does,
 * --expect DIR against a user's reference outputs, --rtol / --atol with
 * per-output overrides. */
#include "tools/tools.h"
#include "runtime/runtime.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "VALUE" or "OUTPUT=VALUE" where OUTPUT is an index or output_N. */
static bool parse_tol(const char *opt, const char *v, struct tool_check_opts *c, bool is_atol)
{
    const char *eq = strchr(v, '=');
    int output = -1;
    if (eq) {
        const char *name = v;
        if (strncmp(name, "output_", 7) == 0) name += 7;
        char *end = NULL;
        long n = strtol(name, &end, 10);
        if (end == name || end != eq || n < 0 || n > 1000000) {
            fprintf(stderr, "npusim run: %s %s: the output must be an index or output_N (as --out names them)\n", opt, v);
            return false;
        }
        output = (int)n;
        v = eq + 1;
    }
    char *end = NULL;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= 0) || x > 1e300) {
        fprintf(stderr, "npusim run: %s takes a number >= 0 or OUTPUT=NUMBER (not '%s')\n", opt, v);
        return false;
    }
    if (output < 0) {
        if (is_atol) c->atol = x;
        else c->rtol = x;
        return true;
    }
    if (c->n_over == TOOL_CHECK_MAX_OVERRIDES) {
        fprintf(stderr, "npusim run: more than %d per-output tolerances\n", TOOL_CHECK_MAX_OVERRIDES);
        return false;
    }
    c->over[c->n_over].output = output;
    c->over[c->n_over].is_atol = is_atol;
    c->over[c->n_over].value = x;
    c->n_over++;
    return true;
}

void tool_check_opts_init(struct tool_check_opts *c)
{
    memset(c, 0, sizeof *c);
    c->rtol = c->atol = -1;
}

bool tool_check_opt(int argc, char **argv, int *i, struct tool_check_opts *c, bool *bad)
{
    const char *v = NULL;
    if (tool_opt(argc, argv, i, "--rtol", &v)) *bad = !parse_tol("--rtol", v, c, false);
    else if (tool_opt(argc, argv, i, "--atol", &v)) *bad = !parse_tol("--atol", v, c, true);
    else if (tool_opt(argc, argv, i, "--expect", &c->expect_dir)) *bad = false;
    else return false;
    return true;
}

/* The user's reference outputs: DIR/output_N.npy, as --out writes them,
 * of the outputs' shapes.  A float reference of another float type (numpy
 * has no bf16: an f32 file for a bf16 output) is rounded to the output's. */
static int read_expected(const char *dir, int n, struct base_tensor *const *outs, struct base_tensor **want)
{
    for (int i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/output_%d.npy", dir, i);
        struct base_diag d;
        memset(&d, 0, sizeof d);
        if (base_npy_read(file, &want[i], &d) != BASE_OK) {
            tool_print_diag(&d);
            fprintf(stderr, "npusim run: --expect %s: output %d needs %s (as --out writes it)\n", dir, i, file);
            return TOOL_FAIL;
        }
        const struct base_tensor *got = outs[i], *w = want[i];
        bool same_shape = got && got->rank == w->rank;
        for (int k = 0; same_shape && k < w->rank; k++) same_shape = got->dims[k] == w->dims[k];
        char gt[96], wt[96];
        base_tensor_type_str(w, wt, sizeof wt);
        if (got) base_tensor_type_str(got, gt, sizeof gt);
        if (!same_shape || (got->dtype != w->dtype && !(base_dtype_is_float(got->dtype) && base_dtype_is_float(w->dtype)))) {
            fprintf(stderr, "npusim run: --expect: %s holds tensor<%s>, output %d is tensor<%s>\n", file, wt, i,
                    got ? gt : "?");
            return TOOL_FAIL;
        }
        if (got->dtype != w->dtype) {
            struct base_tensor *r = NULL;
            if (base_tensor_create(got->dtype, w->rank, w->dims, &r) != BASE_OK) return TOOL_FAIL;
            base_convert(got->dtype, r->data, w->dtype, w->data, (size_t)w->count);
            base_tensor_release(want[i]);
            want[i] = r;
        }
    }
    return TOOL_OK;
}

int tool_run_check(const struct tool_check_opts *c, struct rep_run *report, const struct cc_plan *p,
                   const struct graph_module *m, const char *entry, struct base_tensor *const *in, int n_in,
                   int num_partitions, struct base_tensor *const *outs)
{
    int n = cc_plan_n_outputs(p), rc = TOOL_FAIL;
    struct rt_check_options *co = calloc((size_t)n + 1, sizeof *co);
    struct base_tensor **want = calloc((size_t)n + 1, sizeof *want), **ex = calloc((size_t)n + 1, sizeof *ex);
    int n_want = n;
    bool has_exact = false;
    struct interp_result gold, exact;
    memset(&gold, 0, sizeof gold);
    memset(&exact, 0, sizeof exact);
    struct base_diag d;
    memset(&d, 0, sizeof d);
    char against[4200];
    bool reduced = !c->expect_dir && rt_plan_reduces_precision(p);
    if (!co || !want || !ex) goto done;
    for (int i = 0; i < n; i++) {
        rt_check_options_default(&co[i]);
        co[i].ref_at_target = !c->expect_dir;
        co[i].rtol = c->rtol;
        co[i].atol = c->atol;
    }
    for (int k = 0; k < c->n_over; k++) {
        if (c->over[k].output >= n) {
            fprintf(stderr, "npusim run: --%s %d=...: the program has %d output(s)\n", c->over[k].is_atol ? "atol" : "rtol",
                    c->over[k].output, n);
            goto done;
        }
        if (c->over[k].is_atol) co[c->over[k].output].atol = c->over[k].value;
        else co[c->over[k].output].rtol = c->over[k].value;
    }
    if (c->expect_dir) {
        if (read_expected(c->expect_dir, n, outs, want) != TOOL_OK) goto done;
        snprintf(against, sizeof against, "the expected outputs in %s", c->expect_dir);
    } else {
        struct interp_options io;
        memset(&io, 0, sizeof io);
        io.num_partitions = num_partitions;
        rt_interp_target_precision(p, &io.matmul);
        if (interp_run(m, entry, in, n_in, &io, &gold, &d) != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
        /* process 0's outputs are compared: the other processes' go before the
         * second run takes its own memory */
        n_want = gold.n_outputs < n ? gold.n_outputs : n;
        for (int i = 0; i < n_want; i++) want[i] = base_tensor_retain(gold.outputs[i]);
        interp_result_free(&gold);
        /* the same program with the spec's f32 products: the precision effect */
        if (reduced) {
            memset(&io.matmul, 0, sizeof io.matmul);
            if (interp_run(m, entry, in, n_in, &io, &exact, &d) != BASE_OK) {
                tool_print_diag(&d);
                goto done;
            }
            for (int i = 0; i < n && i < exact.n_outputs; i++) ex[i] = base_tensor_retain(exact.outputs[i]);
            has_exact = exact.n_outputs >= n;
            interp_result_free(&exact);
        }
        snprintf(against, sizeof against, "the golden interpreter computing as %s does%s", cc_plan_chip(p)->name,
                 reduced ? " (its matmul precision)" : "");
    }
    struct rep_check_spec spec = {.against = against, .per_output = co, .exact = has_exact ? ex : NULL};
    if (rep_run_check_outputs_with(report, p, outs, want, n_want, &spec) != BASE_OK) {
        fprintf(stderr, "npusim run: out of memory\n");
        goto done;
    }
    rc = TOOL_OK;
done:
    for (int i = 0; want && i < n; i++) base_tensor_release(want[i]);
    for (int i = 0; ex && i < n; i++) base_tensor_release(ex[i]);
    free(want);
    free(ex);
    free(co);
    interp_result_free(&gold);
    interp_result_free(&exact);
    return rc;
}
