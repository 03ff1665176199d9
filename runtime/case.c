/* Running one conformance case through the compiled path: parse, verify,
 * compile for a chip, run on the simulator (functional, with the
 * simulator's checks on), and let the case's own check ops judge the values
 * the simulated machine produced. */
#include "runtime/runtime.h"
#include "interp/interp.h"
#include "graph/refine.h"

#include <stdlib.h>
#include <string.h>

/* The ops the compiler promises to lower (the compiler issue's list): every
 * elementwise op, the shape and indexing ops, reductions, dot and
 * convolution, control flow and the check ops.  Kept here, not in the
 * compiler, because it is a statement about the conformance bar, not about
 * what happens to be implemented. */
static const char *const scope_ops[] = {
    /* elementwise */
    "abs", "add", "and", "atan2", "bitcast_convert", "cbrt", "ceil", "clamp", "compare", "convert", "cosine",
    "count_leading_zeros", "divide", "exponential", "exponential_minus_one", "floor", "is_finite", "log",
    "log_plus_one", "logistic", "maximum", "minimum", "multiply", "negate", "not", "or", "popcnt", "power",
    "reduce_precision", "remainder", "round_nearest_afz", "round_nearest_even", "rsqrt", "select",
    "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan",
    "tanh", "xor", "iota", "constant",
    /* reductions, linear algebra */
    "reduce", "reduce_window", "dot_general", "convolution",
    /* shape and indexing */
    "broadcast_in_dim", "reshape", "transpose", "slice", "concatenate", "pad", "reverse", "gather", "scatter",
    "dynamic_slice", "dynamic_update_slice",
    /* sorting (issue 14): sort and top-k */
    "sort",
    /* control flow and structure */
    "while", "if", "case", "return", "call", "custom_call",
};

static bool op_in_scope(const char *name)
{
    const char *n = name;
    if (!strncmp(n, "stablehlo.", 10)) n += 10;
    else if (!strcmp(n, "func.func") || !strcmp(n, "func.call") || !strcmp(n, "func.return")) return true;
    else if (!strncmp(n, "check.", 6)) return true;
    else if (!strcmp(n, "chlo.top_k")) return true;
    else return false;
    for (size_t i = 0; i < sizeof scope_ops / sizeof *scope_ops; i++)
        if (!strcmp(n, scope_ops[i])) return true;
    return false;
}

static bool type_in_scope(const struct graph_type *t)
{
    if (!t) return true;
    if (t->kind == GRAPH_TYPE_TUPLE) {
        for (int i = 0; i < t->n_elems; i++)
            if (!type_in_scope(t->elems[i])) return false;
        return true;
    }
    if (t->kind != GRAPH_TYPE_TENSOR) return true; /* tokens and the like carry no elements */
    if (t->quant) return false;
    switch (t->elem) {
    case BASE_DT_BF16: case BASE_DT_F16: case BASE_DT_F32: case BASE_DT_I1:
    case BASE_DT_SI8: case BASE_DT_SI16: case BASE_DT_SI32: case BASE_DT_SI64:
    case BASE_DT_UI8: case BASE_DT_UI16: case BASE_DT_UI32: case BASE_DT_UI64:
        return true;
    default: return false;
    }
}

static bool block_in_scope(const struct graph_block *b, char *why, size_t n);

static bool op_tree_in_scope(const struct graph_op *op, char *why, size_t n)
{
    if (!op_in_scope(op->name)) {
        snprintf(why, n, "op %s", op->name);
        return false;
    }
    for (int i = 0; i < op->n_results; i++)
        if (!type_in_scope(op->results[i].type)) {
            snprintf(why, n, "element type of a %s result", op->name);
            return false;
        }
    for (int r = 0; r < op->n_regions; r++)
        for (int b = 0; b < op->regions[r].n_blocks; b++)
            if (!block_in_scope(&op->regions[r].blocks[b], why, n)) return false;
    return true;
}

static bool block_in_scope(const struct graph_block *b, char *why, size_t n)
{
    for (int i = 0; i < b->n_args; i++)
        if (!type_in_scope(b->args[i].type)) {
            snprintf(why, n, "element type of a block argument");
            return false;
        }
    for (int i = 0; i < b->n_ops; i++)
        if (!op_tree_in_scope(b->ops[i], why, n)) return false;
    return true;
}

bool rt_module_in_scope(const struct graph_module *m, char *why, size_t why_len)
{
    char dummy[8];
    if (!why) {
        why = dummy;
        why_len = sizeof dummy;
    }
    why[0] = 0;
    return block_in_scope(&m->body, why, why_len);
}

static void set_reason(struct interp_case_result *res, struct base_diag *d, int first_line)
{
    if (d->line > 0) d->line += first_line - 1;
    base_diag_format(d, res->reason, sizeof res->reason);
    for (char *c = res->reason; *c; c++)
        if (*c == '\n') *c = ' ';
}

static enum interp_case_outcome outcome_of(enum base_status st)
{
    return st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
}

/* A dynamic case (interp_dyn_case_prepare): the refined program compiled
 * and run on the random inputs, each output compared with the dynamic
 * program's on the interpreter within --check's tolerances (one check per
 * output).  In scope when the refined program is. */
static enum base_status run_dynamic_case(const struct graph_module *m, const struct graph_op *entry, const char *path,
                                         int first_line, const struct chip_desc *chip, const struct cc_options *copt,
                                         struct interp_case_result *res, struct rt_case_info *info)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct interp_dyn_case c;
    struct cc_plan *plan = NULL;
    struct sim *sim = NULL;
    struct base_tensor **outs = NULL;
    struct rt_report rep;
    memset(&rep, 0, sizeof rep);
    enum base_status st = interp_dyn_case_prepare(m, entry, &c, &d);
    if (st == BASE_ERR_NOMEM) goto done;
    if (st != BASE_OK) { /* no checkable form at the sizes tried (interp_dyn_case_prepare) */
        res->outcome = INTERP_CASE_NOCHECK;
        set_reason(res, &d, first_line);
        st = BASE_OK;
        goto done;
    }
    info->in_scope = rt_module_in_scope(c.refined, NULL, 0);
    struct cc_options co;
    if (copt) co = *copt;
    else cc_options_default(&co);
    co.entry = graph_func_name(entry);
    st = cc_compile(c.refined, chip, &co, &plan, &d);
    if (st != BASE_OK) goto failed;
    struct sim_options so;
    sim_options_default(&so);
    st = sim_create(chip, &so, &sim, &d);
    if (st != BASE_OK) goto failed;
    outs = calloc((size_t)cc_plan_n_outputs(plan) + 1, sizeof *outs);
    if (!outs) {
        st = BASE_ERR_NOMEM;
        goto done;
    }
    struct rt_options ro;
    rt_options_default(&ro);
    st = rt_run(plan, sim, c.inputs, c.n_inputs, &ro, outs, &rep, &d);
    if (st != BASE_OK) goto failed;
    info->host_ops = rep.host_ops;
    info->launches = rep.launches;
    info->ran = true;
    res->outcome = INTERP_CASE_PASS;
    res->n_checks = c.n_want;
    for (int i = 0; i < c.n_want; i++) {
        struct rt_compare cmp;
        memset(&cmp, 0, sizeof cmp);
        if (i < cc_plan_n_outputs(plan) && outs[i]) rt_compare_output(plan, outs[i], c.want[i], &cmp);
        if (cmp.passed) continue;
        res->n_checks_failed++;
        if (res->outcome == INTERP_CASE_PASS)
            snprintf(res->reason, sizeof res->reason,
                     "%s:%d: output %d differs from the dynamic program's on the interpreter: %lld element(s) out of "
                     "bound, worst at %lld: %g, want %g",
                     path, entry->loc.line > 0 ? entry->loc.line + first_line - 1 : 0, i, (long long)cmp.n_bad,
                     (long long)cmp.worst, cmp.got_at_worst, cmp.want_at_worst);
        res->outcome = INTERP_CASE_FAIL;
    }
    goto done;
failed:
    if (st == BASE_ERR_NOMEM) goto done;
    res->outcome = outcome_of(st);
    set_reason(res, &d, first_line);
    st = BASE_OK;
done:
    if (outs)
        for (int i = 0; i < cc_plan_n_outputs(plan); i++) base_tensor_release(outs[i]);
    free(outs);
    rt_report_free(&rep);
    sim_destroy(sim);
    cc_plan_destroy(plan);
    interp_dyn_case_free(&c);
    return st;
}

enum base_status rt_run_case(const char *text, size_t len, const char *path, int first_line,
                             const struct chip_desc *chip, const struct cc_options *copt,
                             struct interp_case_result *res, struct rt_case_info *info)
{
    memset(res, 0, sizeof *res);
    struct rt_case_info dummy;
    if (!info) info = &dummy;
    memset(info, 0, sizeof *info);
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_parse_options po = {0};
    po.path = path;
    struct graph_module *m = NULL;
    struct cc_plan *plan = NULL;
    struct sim *sim = NULL;
    struct base_tensor **outs = NULL;
    struct rt_report rep;
    memset(&rep, 0, sizeof rep);
    enum base_status st = graph_parse(text, len, &po, &m, &d);
    if (st == BASE_ERR_NOMEM) return st;
    if (st != BASE_OK) {
        res->outcome = outcome_of(st);
        set_reason(res, &d, first_line);
        info->in_scope = true; /* npusim's failure to read the case, whatever it holds */
        return BASE_OK;
    }
    info->in_scope = rt_module_in_scope(m, NULL, 0);
    st = graph_verify(m, &d);
    if (st != BASE_OK) goto failed;
    res->accepted = true;
    const struct graph_op *entry = graph_module_entry(m);
    if (!entry) { /* nothing runs: never a pass */
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "%s:%d: %s", path, first_line,
                 m->body.n_ops ? "no entry function: parsed and verified only"
                               : "an empty case (no operations): parsed and verified only");
        goto done;
    }
    if (interp_case_is_dynamic(m, entry)) {
        st = run_dynamic_case(m, entry, path, first_line, chip, copt, res, info);
        goto done;
    }
    if (entry->n_regions > 0 && entry->regions[0].n_blocks > 0 && entry->regions[0].blocks[0].n_args > 0) {
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "@%s takes arguments and the case supplies none",
                 graph_func_name(entry));
        goto done;
    }
    if (graph_module_is_dynamic(m)) { /* dynamic ops of a static program: their static forms */
        struct graph_module *r = NULL;
        struct graph_refine_options ro = {.entry = graph_func_name(entry)};
        st = graph_refine(m, &ro, &r, NULL, &d);
        if (st != BASE_OK) goto failed;
        entry = graph_module_find_func(r, ro.entry);
        graph_module_destroy(m);
        m = r;
        info->in_scope = rt_module_in_scope(m, NULL, 0);
    }
    struct cc_options co;
    if (copt) co = *copt;
    else cc_options_default(&co);
    co.entry = graph_func_name(entry);
    st = cc_compile(m, chip, &co, &plan, &d);
    if (st != BASE_OK) goto failed;
    struct sim_options so;
    sim_options_default(&so);
    st = sim_create(chip, &so, &sim, &d);
    if (st != BASE_OK) goto failed;
    outs = calloc((size_t)cc_plan_n_outputs(plan) + 1, sizeof *outs);
    if (!outs) {
        st = BASE_ERR_NOMEM;
        goto done;
    }
    struct rt_options ro;
    rt_options_default(&ro);
    st = rt_run(plan, sim, NULL, 0, &ro, outs, &rep, &d);
    info->host_ops = rep.host_ops;
    info->launches = rep.launches;
    if (st != BASE_OK) goto failed;
    info->ran = true;
    res->n_checks = rep.n_checks;
    res->n_checks_failed = rep.n_checks_failed;
    res->outcome = rep.n_checks_failed ? INTERP_CASE_FAIL : INTERP_CASE_PASS;
    if (rep.n_checks == 0) { /* ran, but nothing judged it: not a pass */
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "no check ops: compiled and ran, nothing to judge");
    }
    for (int i = 0; i < rep.n_checks; i++)
        if (!rep.checks[i].passed) {
            const struct interp_check_result *c = &rep.checks[i];
            snprintf(res->reason, sizeof res->reason, "%s:%d:%d: %s", path,
                     c->loc.line > 0 ? c->loc.line + first_line - 1 : 0, c->loc.col, c->what);
            break;
        }
    goto done;
failed:
    if (st == BASE_ERR_NOMEM) goto done;
    res->outcome = outcome_of(st);
    set_reason(res, &d, first_line);
    st = BASE_OK;
done:
    if (outs)
        for (int i = 0; i < cc_plan_n_outputs(plan); i++) base_tensor_release(outs[i]);
    free(outs);
    rt_report_free(&rep);
    sim_destroy(sim);
    cc_plan_destroy(plan);
    graph_module_destroy(m);
    return st;
}
