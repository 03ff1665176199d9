/* Dynamic shapes on the command line (interp, run): --shape ARG=DIMS and
 * --dim ARG=N, and refining a dynamic program (graph_refine) from them or
 * from the shapes of --inputs (docs/dynamic-shapes.md). */
#include "tools/tools.h"
#include "graph/refine.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool tool_dyn_opt(int argc, char **argv, int *i, struct tool_dyn *d)
{
    const char *v;
    if (tool_opt(argc, argv, i, "--shape", &v)) {
        if (d->n_shapes < TOOL_DYN_MAX) d->shapes[d->n_shapes++] = v;
        return true;
    }
    if (tool_opt(argc, argv, i, "--dim", &v)) {
        if (d->n_dims < TOOL_DYN_MAX) d->dims[d->n_dims++] = v;
        return true;
    }
    if (tool_flag(argv[*i], "--no-refine")) {
        d->no_refine = true;
        return true;
    }
    return false;
}

/* The argument ARG names: an index, or a name with or without '%'. */
static int find_arg(const struct graph_block *b, const char *s, size_t n)
{
    if (n && s[0] == '%') {
        s++;
        n--;
    }
    bool digits = n > 0;
    for (size_t k = 0; k < n; k++) digits &= isdigit((unsigned char)s[k]) != 0;
    if (digits) {
        long i = strtol(s, NULL, 10);
        return i < b->n_args ? (int)i : -1;
    }
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].name && strlen(b->args[i].name) == n && !strncmp(b->args[i].name, s, n)) return i;
    return -1;
}

/* "ARG=..." -> the argument and the text after '='. */
static int split_opt(const char *cmd, const char *opt, const char *v, const struct graph_block *b, const char **rest)
{
    const char *eq = strchr(v, '=');
    if (!eq) {
        fprintf(stderr, "npusim %s: %s %s: write ARG=VALUE (ARG an argument's index or name)\n", cmd, opt, v);
        return -2;
    }
    int i = find_arg(b, v, (size_t)(eq - v));
    if (i < 0) {
        fprintf(stderr, "npusim %s: %s %s: the entry function has no argument '%.*s' (it takes %d)\n", cmd, opt, v,
                (int)(eq - v), v, b->n_args);
        return -2;
    }
    *rest = eq + 1;
    return i;
}

static bool parse_dims(const char *s, struct graph_refine_arg *a)
{
    a->rank = 0;
    if (!*s || !strcmp(s, "scalar")) return true;
    while (*s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < 0 || a->rank >= GRAPH_MAX_RANK) return false;
        a->dims[a->rank++] = v;
        s = end;
        if (*s == 'x' || *s == ',')
            s++;
        else if (*s)
            return false;
    }
    return true;
}

static const struct graph_op *entry_of(const struct graph_module *m, const char *entry)
{
    const struct graph_op *f = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    return f && f->n_regions > 0 && f->regions[0].n_blocks > 0 ? f : NULL;
}

int tool_dyn_refine(const char *cmd, struct graph_module **m, struct graph_module **orig, const char *entry,
                    const char *inputs, const struct tool_dyn *d, struct graph_refine_result *res)
{
    *orig = NULL;
    memset(res, 0, sizeof *res);
    const struct graph_op *func = entry_of(*m, entry);
    if (!func) return TOOL_OK; /* the command reports it */
    const struct graph_block *b = &func->regions[0].blocks[0];
    bool dynamic = graph_module_is_dynamic(*m);
    if (!dynamic) {
        if (d->n_shapes || d->n_dims)
            fprintf(stderr, "npusim %s: the program's shapes are static: --shape and --dim are not needed\n", cmd);
        return TOOL_OK;
    }
    struct graph_refine_arg *args = calloc((size_t)b->n_args + 1, sizeof *args);
    if (!args) return TOOL_FAIL;
    for (int i = 0; i < b->n_args; i++) args[i].rank = -1;
    int rc = TOOL_OK;
    struct base_diag diag;
    base_diag_clear(&diag);
    if (inputs) { /* their shapes, and the values of scalar integers */
        char *list = strdup(inputs), *save = NULL;
        int n = 0;
        for (char *tok = strtok_r(list, ",", &save); tok && rc == TOOL_OK; tok = strtok_r(NULL, ",", &save), n++) {
            struct base_tensor *t = NULL;
            if (n >= b->n_args) continue;
            if (base_npy_read(tok, &t, &diag) != BASE_OK) {
                tool_print_diag(&diag);
                rc = TOOL_FAIL;
                break;
            }
            args[n].rank = t->rank;
            memcpy(args[n].dims, t->dims, sizeof args[n].dims);
            if (t->rank == 0 && (base_dtype_is_int(t->dtype) || t->dtype == BASE_DT_INDEX)) {
                args[n].has_value = true;
                args[n].value = base_elem_get_i64(t->dtype, t->data, 0);
            }
            base_tensor_release(t);
        }
        free(list);
    }
    for (int k = 0; rc == TOOL_OK && k < d->n_shapes; k++) {
        const char *rest;
        int i = split_opt(cmd, "--shape", d->shapes[k], b, &rest);
        if (i < 0 || !parse_dims(rest, &args[i])) {
            if (i >= 0) fprintf(stderr, "npusim %s: --shape %s: write dimensions as 4x128\n", cmd, d->shapes[k]);
            rc = TOOL_USAGE;
        }
    }
    for (int k = 0; rc == TOOL_OK && k < d->n_dims; k++) {
        const char *rest;
        char *end;
        int i = split_opt(cmd, "--dim", d->dims[k], b, &rest);
        long long v = i >= 0 ? strtoll(rest, &end, 10) : 0;
        if (i < 0 || end == rest || *end) {
            if (i >= 0) fprintf(stderr, "npusim %s: --dim %s: give an integer value\n", cmd, d->dims[k]);
            rc = TOOL_USAGE;
            continue;
        }
        args[i].has_value = true;
        args[i].value = v;
    }
    struct graph_module *r = NULL;
    if (rc == TOOL_OK) {
        struct graph_refine_options o = {.entry = entry, .args = args, .n_args = b->n_args, .guess_dim_args = true};
        if (graph_refine(*m, &o, &r, res, &diag) != BASE_OK) {
            tool_print_diag(&diag);
            rc = TOOL_FAIL;
        }
    }
    if (rc == TOOL_OK) {
        fprintf(stderr, "npusim %s: refined the dynamic shapes: %d dynamic op%s made static", cmd, res->n_rewritten,
                res->n_rewritten == 1 ? "" : "s");
        if (res->n_assertions)
            fprintf(stderr, ", %d shape assertion%s checked", res->n_assertions, res->n_assertions == 1 ? "" : "s");
        if (res->n_specialized)
            fprintf(stderr, ", %d called function%s specialised", res->n_specialized,
                    res->n_specialized == 1 ? "" : "s");
        fprintf(stderr, "\n");
        for (int k = 0; k < res->n_dim_args; k++) {
            const struct graph_refine_dim_arg *a = &res->dim_args[k];
            const char *nm = b->args[a->arg].name;
            fprintf(stderr, "npusim %s: dimension argument %d%s%s%s = %lld (%s)\n", cmd, a->arg, nm ? " (%" : "",
                    nm ? nm : "", nm ? ")" : "", (long long)a->value,
                    a->how == GRAPH_REFINE_GIVEN ? "given"
                    : a->how == GRAPH_REFINE_INFERRED
                        ? "inferred from the shapes"
                        : "taken as the size of every dynamic dimension; give --dim otherwise");
        }
        *orig = *m;
        *m = r;
    }
    free(args);
    return rc;
}

void tool_dyn_set_dim_args(struct base_tensor **in, int n, const struct graph_refine_result *res)
{
    for (int k = 0; k < res->n_dim_args; k++) {
        int a = res->dim_args[k].arg;
        if (a < n && in[a] && in[a]->count == 1)
            base_elem_set_i64(in[a]->dtype, in[a]->data, 0, res->dim_args[k].value);
    }
}
