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

/* The user's reference for output i: DIR/output_i.npy, as --out writes it,
 * of the output's shape.  A float reference of another float type (numpy
 * has no bf16: an f32 file for a bf16 output) is rounded to the output's. */
static int read_expected(const char *dir, int i, const struct base_tensor *got, struct base_tensor **want)
{
    char file[4096];
    snprintf(file, sizeof file, "%s/output_%d.npy", dir, i);
    struct base_diag d;
    memset(&d, 0, sizeof d);
    if (base_npy_read(file, want, &d) != BASE_OK) {
        tool_print_diag(&d);
        fprintf(stderr, "npusim run: --expect %s: output %d needs %s (as --out writes it)\n", dir, i, file);
        return TOOL_FAIL;
    }
    const struct base_tensor *w = *want;
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
        base_tensor_release(*want);
        *want = r;
    }
    return TOOL_OK;
}

int tool_check_begin(struct tool_check *k, const struct tool_check_opts *c, const struct cc_plan *p,
                     const struct graph_module *m, const char *entry, struct base_tensor *const *in, int n_in,
                     int num_partitions, void (*on_op)(void *user), void *op_user)
{
    memset(k, 0, sizeof *k);
    k->opts = c;
    int n = k->n = cc_plan_n_outputs(p);
    k->co = calloc((size_t)n + 1, sizeof *k->co);
    k->want = calloc((size_t)n + 1, sizeof *k->want);
    k->exact = calloc((size_t)n + 1, sizeof *k->exact);
    if (!k->co || !k->want || !k->exact) {
        tool_print_nomem("run", 3 * ((uint64_t)n + 1) * sizeof *k->co, "the output checks");
        return TOOL_FAIL;
    }
    k->active = true;
    for (int i = 0; i < n; i++) {
        rt_check_options_default(&k->co[i]);
        k->co[i].ref_at_target = !c->expect_dir;
        k->co[i].rtol = c->rtol;
        k->co[i].atol = c->atol;
    }
    for (int j = 0; j < c->n_over; j++) {
        if (c->over[j].output >= n) {
            fprintf(stderr, "npusim run: --%s %d=...: the program has %d output(s)\n", c->over[j].is_atol ? "atol" : "rtol",
                    c->over[j].output, n);
            return TOOL_FAIL;
        }
        if (c->over[j].is_atol) k->co[c->over[j].output].atol = c->over[j].value;
        else k->co[c->over[j].output].rtol = c->over[j].value;
    }
    if (c->expect_dir) { /* read output by output, as the chips give them back */
        snprintf(k->against, sizeof k->against, "the expected outputs in %s", c->expect_dir);
        return TOOL_OK;
    }
    bool reduced = rt_plan_reduces_precision(p);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    io.num_partitions = num_partitions;
    io.on_op = on_op;
    io.op_user = op_user;
    io.limits = tool_limits();
    rt_interp_target_precision(p, &io.matmul);
    struct interp_result r;
    memset(&r, 0, sizeof r);
    struct base_diag d;
    memset(&d, 0, sizeof d);
    /* the golden run at the chip's precision, then (when the chip's matmuls
     * lose precision) with the spec's f32 products for the precision effect;
     * only process 0's outputs are kept (what the chips' outputs are
     * compared with), the other processes' go before the second run */
    for (int run = 0; run < (reduced ? 2 : 1); run++) {
        if (run == 1) memset(&io.matmul, 0, sizeof io.matmul);
        if (interp_run(m, entry, in, n_in, &io, &r, &d) != BASE_OK) {
            tool_print_diag(&d);
            return TOOL_FAIL;
        }
        struct base_tensor **keep = run ? k->exact : k->want;
        for (int i = 0; i < n && i < r.n_outputs; i++) keep[i] = base_tensor_retain(r.outputs[i]);
        interp_result_free(&r);
    }
    snprintf(k->against, sizeof k->against, "the golden interpreter computing as %s does%s", cc_plan_chip(p)->name,
             reduced ? " (its matmul precision)" : "");
    return TOOL_OK;
}

int tool_check_output(struct tool_check *k, const struct cc_plan *p, int i, const struct base_tensor *got,
                      struct rep_output_check *row)
{
    if (!k->active || i >= k->n) return TOOL_OK;
    if (k->opts->expect_dir && read_expected(k->opts->expect_dir, i, got, &k->want[i]) != TOOL_OK) return TOOL_FAIL;
    if (!k->want[i]) return TOOL_OK; /* the reference has fewer outputs */
    rep_output_check_fill_opts(row, p, i, got, k->want[i], &k->co[i], k->exact[i]);
    base_tensor_release(k->want[i]); /* compared: the reference goes */
    base_tensor_release(k->exact[i]);
    k->want[i] = k->exact[i] = NULL;
    k->n_checked++;
    return TOOL_OK;
}

enum base_status tool_check_finish(const struct tool_check *k, struct rep_run *report, const struct rep_output_check *rows)
{
    struct rep_check_spec spec = {.against = k->against, .per_output = k->co};
    return rep_run_set_output_checks_spec(report, rows, k->n_checked, &spec);
}

void tool_check_free(struct tool_check *k)
{
    for (int i = 0; i < k->n; i++) {
        if (k->want) base_tensor_release(k->want[i]);
        if (k->exact) base_tensor_release(k->exact[i]);
    }
    free(k->want);
    free(k->exact);
    free(k->co);
    memset(k, 0, sizeof *k);
}
