/* Running one conformance case: parse, verify, interpret, collect checks;
 * or, for a verifier case (`expected-error` comments), parse and verify and
 * expect a rejection. */
#include "interp/interp.h"

#include <ctype.h>
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

/* ------------------------------------------------------------------------ */
/* Verifier cases                                                            */

/* The first `expected-error{{msg}}` of text (also `expected-error-re` and
 * with a `@+N` / `@above` designator), as MLIR's -verify-diagnostics reads
 * them from comments: copies msg into buf and returns its 1-based line, or 0
 * when the text has none. */
static int find_expected_error(const char *text, size_t len, char *buf, size_t cap)
{
    static const char key[] = "expected-error";
    const size_t klen = sizeof key - 1;
    int line = 1;
    const char *line_start = text, *end = text + len;
    for (const char *c = text; c < end; c++) {
        if (*c == '\n') {
            line++;
            line_start = c + 1;
            continue;
        }
        if ((size_t)(end - c) < klen || memcmp(c, key, klen) != 0) continue;
        /* only in a comment */
        bool comment = false;
        for (const char *q = line_start; q + 1 < c; q++)
            if (q[0] == '/' && q[1] == '/') comment = true;
        if (!comment) continue;
        const char *q = c + klen;
        if (end - q >= 3 && !memcmp(q, "-re", 3)) q += 3;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q < end && *q == '@')
            while (q < end && *q != '{' && *q != '\n') q++;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (end - q < 2 || q[0] != '{' || q[1] != '{') continue;
        q += 2;
        const char *eol = q;
        while (eol < end && *eol != '\n') eol++;
        const char *close = NULL; /* the last "}}" of the line */
        for (const char *r = q; r + 1 < eol; r++)
            if (r[0] == '}' && r[1] == '}') close = r;
        if (!close) continue;
        size_t n = (size_t)(close - q);
        if (n >= cap) n = cap - 1;
        memcpy(buf, q, n);
        buf[n] = 0;
        return line;
    }
    return 0;
}

static bool stopword(const char *w)
{
    static const char *const words[] = {"the", "and", "but", "got", "must", "have", "has", "with", "that",
                                        "this", "are", "not", "expected", "expects", "expect", "which", "its",
                                        "all", "each", "should", "for", "from", "instead", "op", NULL};
    for (int i = 0; words[i]; i++)
        if (!strcmp(w, words[i])) return true;
    return false;
}

bool interp_message_resembles(const char *expected, const char *actual)
{
    char low[BASE_DIAG_MSG_MAX + 200];
    size_t n = 0;
    for (const char *c = actual; *c && n + 1 < sizeof low; c++) low[n++] = (char)tolower((unsigned char)*c);
    low[n] = 0;
    int words = 0, found = 0;
    const char *c = expected;
    while (*c) {
        if (c[0] == '{' && c[1] == '{') { /* a regex part of expected-error-re */
            const char *e = strstr(c + 2, "}}");
            c = e ? e + 2 : c + strlen(c);
            continue;
        }
        if (!isalnum((unsigned char)*c) && *c != '_') {
            c++;
            continue;
        }
        char w[64];
        size_t k = 0;
        while ((isalnum((unsigned char)*c) || *c == '_') && k + 1 < sizeof w) w[k++] = (char)tolower((unsigned char)*c++);
        while (isalnum((unsigned char)*c) || *c == '_') c++;
        w[k] = 0;
        if (k < 3 || stopword(w)) continue;
        words++;
        /* "dimensions" matches "dimension", "operands" "operand" */
        if (k > 5) w[k - 1] = 0;
        if (strstr(low, w)) found++;
    }
    return words == 0 || 2 * found >= words;
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
    if (st != BASE_OK) { /* no checkable form at the sizes tried: parsed and verified only */
        res->outcome = INTERP_CASE_NOCHECK;
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

/* Whether a block (recursively) holds a check op: check.*, interpreter.probe
 * or print, or the older custom_call @check.* form. */
static bool block_has_checks(const struct graph_block *b, int depth)
{
    if (depth > 4 * GRAPH_MAX_NESTING) return true; /* the interpreter reports it */
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (graph_op_kind_cat(op->kind) == GRAPH_CAT_CHECK) return true;
        if (op->kind == GRAPH_OP_CUSTOM_CALL) {
            const struct graph_attr *t = graph_op_attr(op, "call_target_name");
            if (t && t->kind == GRAPH_ATTR_STRING && t->u.str.len > 6 && !memcmp(t->u.str.s, "check.", 6))
                return true;
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                if (block_has_checks(&op->regions[r].blocks[k], depth + 1)) return true;
    }
    return false;
}

enum base_status interp_run_case(const char *text, size_t len, const char *path, int first_line,
                                const struct interp_options *opt, struct interp_case_result *res)
{
    memset(res, 0, sizeof *res);
    struct base_diag d;
    base_diag_clear(&d);
    int expect_line = find_expected_error(text, len, res->expected, sizeof res->expected);
    res->expects_error = expect_line > 0;
    struct graph_parse_options po = {0};
    po.path = path;
    struct graph_module *m = NULL;
    enum base_status st = graph_parse(text, len, &po, &m, &d);
    if (st == BASE_ERR_NOMEM) return st;
    if (st == BASE_OK) {
        st = graph_verify(m, &d);
        if (st == BASE_ERR_NOMEM) {
            graph_module_destroy(m);
            return st;
        }
    }
    res->accepted = st == BASE_OK;
    if (res->expects_error) {
        /* a verifier case: the front end must reject it */
        if (res->accepted) {
            res->outcome = INTERP_CASE_FAIL;
            snprintf(res->reason, sizeof res->reason, "%s:%d: expected an error: %s", path,
                     expect_line + first_line - 1, res->expected);
        } else {
            res->outcome = INTERP_CASE_PASS;
            set_reason(res, &d, first_line);
            res->message_resembles = interp_message_resembles(res->expected, d.msg);
        }
        graph_module_destroy(m);
        return BASE_OK;
    }
    if (st != BASE_OK) {
        res->outcome = st == BASE_ERR_UNSUPPORTED ? INTERP_CASE_UNSUPPORTED : INTERP_CASE_FAIL;
        set_reason(res, &d, first_line);
        graph_module_destroy(m);
        return BASE_OK;
    }
    const struct graph_op *entry = graph_module_entry(m);
    if (entry && interp_case_is_dynamic(m, entry)) { /* its own checks: the refined program against it */
        st = run_dynamic_case(m, entry, path, first_line, res);
        graph_module_destroy(m);
        return st;
    }
    if (m->body.n_ops == 0) { /* nothing to run or check: never a pass (upstream has empty modules on purpose) */
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "%s:%d: an empty case (no operations): parsed and verified only",
                 path, first_line);
        graph_module_destroy(m);
        return BASE_OK;
    }
    if (!block_has_checks(&m->body, 0)) {
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "no check ops: parsed and verified only");
        graph_module_destroy(m);
        return BASE_OK;
    }
    if (!entry) {
        /* checks but no entry function: nothing runs them, never a pass */
        res->outcome = INTERP_CASE_NOCHECK;
        snprintf(res->reason, sizeof res->reason, "no entry function: parsed and verified only");
        graph_module_destroy(m);
        return BASE_OK;
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
