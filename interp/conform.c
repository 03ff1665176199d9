/* Running one conformance case: parse, verify, interpret, collect checks. */
#include "interp/interp.h"

#include <string.h>

const char *interp_case_outcome_name(enum interp_case_outcome o)
{
    switch (o) {
    case INTERP_CASE_PASS: return "pass";
    case INTERP_CASE_FAIL: return "fail";
    case INTERP_CASE_UNSUPPORTED: return "unsupported";
    case INTERP_CASE_NOCHECK: return "nocheck";
    }
    return "?";
}

static void set_reason(struct interp_case_result *res, struct base_diag *d, int first_line)
{
    if (d->line > 0) d->line += first_line - 1;
    base_diag_format(d, res->reason, sizeof res->reason);
    /* one line: the snippet goes after a separator */
    for (char *c = res->reason; *c; c++)
        if (*c == '\n') *c = ' ';
}

/* A dynamic case: the refined program against the original, run as it is,
 * on the same random inputs; one check per output, bit for bit. */
static enum base_status run_dynamic_case(const struct graph_module *m, const struct graph_op *entry, const char *path,
                                         int first_line, struct interp_case_result *res)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct interp_dyn_case c;
    enum base_status st = interp_dyn_case_prepare(m, entry, &c, &d);
    if (st == BASE_ERR_NOMEM) return st;
    if (st != BASE_OK) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
        return BASE_OK;
    }
    struct interp_options o = {0};
    struct interp_result ir;
    st = interp_run(c.refined, graph_func_name(entry), c.inputs, c.n_inputs, &o, &ir, &d);
    if (st == BASE_OK) {
        res->outcome = INTERP_CASE_PASS;
        res->n_checks = c.n_want;
        for (int i = 0; i < c.n_want; i++) {
            int64_t at;
            if (i < ir.n_outputs && interp_tensors_identical(ir.outputs[i], c.want[i], &at)) continue;
            res->n_checks_failed++;
            if (res->outcome == INTERP_CASE_PASS)
                snprintf(res->reason, sizeof res->reason,
                         "%s:%d: output %d of the refined program differs from the dynamic program's (element %lld)", path,
                         entry->loc.line > 0 ? entry->loc.line + first_line - 1 : 0, i, (long long)at);
            res->outcome = INTERP_CASE_FAIL;
        }
        interp_result_free(&ir);
    } else if (st != BASE_ERR_NOMEM) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
        interp_result_free(&ir);
        st = BASE_OK;
    }
    interp_dyn_case_free(&c);
    return st;
}

enum base_status interp_run_case(const char *text, size_t len, const char *path, int first_line,
                                const struct interp_options *opt, struct interp_case_result *res)
{
    memset(res, 0, sizeof *res);
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_parse_options po = {0};
    po.path = path;
    struct graph_module *m = NULL;
    enum base_status st = graph_parse(text, len, &po, &m, &d);
    if (st == BASE_ERR_NOMEM) return st;
    if (st != BASE_OK) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
        return BASE_OK;
    }
    st = graph_verify(m, &d);
    if (st != BASE_OK) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
        graph_module_destroy(m);
        return st == BASE_ERR_NOMEM ? st : BASE_OK;
    }
    const struct graph_op *entry = graph_module_entry(m);
    if (!entry) {
        /* an empty module (or only declarations) has nothing to run */
        res->outcome = INTERP_CASE_PASS;
        graph_module_destroy(m);
        return BASE_OK;
    }
    if (interp_case_is_dynamic(m, entry)) {
        st = run_dynamic_case(m, entry, path, first_line, res);
        graph_module_destroy(m);
        return st;
    }
    if (entry->n_regions > 0 && entry->regions[0].n_blocks > 0 && entry->regions[0].blocks[0].n_args > 0) {
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "@%s takes arguments and the case supplies none",
                 graph_func_name(entry));
        graph_module_destroy(m);
        return BASE_OK;
    }
    /* a program written for a Shardy mesh runs on one process per device */
    struct interp_options o = {0};
    if (opt) o = *opt;
    if (o.num_partitions <= 0) o.num_partitions = interp_module_mesh_size(m);
    struct interp_result ir;
    st = interp_run(m, graph_func_name(entry), NULL, 0, &o, &ir, &d);
    res->n_checks = ir.n_checks;
    res->n_checks_failed = ir.n_checks_failed;
    if (st != BASE_OK) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
    } else if (ir.n_checks_failed) {
        res->outcome = INTERP_CASE_FAIL;
        for (int i = 0; i < ir.n_checks; i++)
            if (!ir.checks[i].passed) {
                const struct interp_check_result *c = &ir.checks[i];
                snprintf(res->reason, sizeof res->reason, "%s:%d:%d: %s", path,
                         c->loc.line > 0 ? c->loc.line + first_line - 1 : 0, c->loc.col, c->what);
                break;
            }
    } else {
        res->outcome = INTERP_CASE_PASS;
    }
    interp_result_free(&ir);
    graph_module_destroy(m);
    return st == BASE_ERR_NOMEM ? st : BASE_OK;
}
