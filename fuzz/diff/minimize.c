/* The differential fuzzer's minimizer on program text: the entry's results
 * are dropped to the fewest that still show the finding, then ops are cut
 * (their results become new arguments, which makes what computed them dead)
 * in chunks, largest first (ddmin), and dead ops are removed.  For an SPMD
 * program the same happens inside its manual computation: a new argument is
 * replicated.  Every candidate is evaluated as a whole (df_evaluate) and
 * kept when it gives a finding of the same signature. */
#include "fuzz/diff/diff.h"

#include <stdlib.h>
#include <string.h>

struct plan {
    bool *keep; /* per result of the working block's terminator */
    bool *cut;  /* per op of the working block */
};

struct work {
    struct graph_module *m;
    const struct graph_op *entry, *mc, *term;
    const struct graph_block *blk; /* the entry's body, or the manual computation's */
    int n_ops, n_res;
};

static bool open_work(const char *text, size_t len, struct work *w)
{
    memset(w, 0, sizeof *w);
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse(text, len, &(struct graph_parse_options){.path = "min.mlir"}, &w->m, &d) != BASE_OK) return false;
    w->entry = graph_module_entry(w->m);
    if (!w->entry || w->entry->n_regions < 1 || w->entry->regions[0].n_blocks != 1) return false;
    const struct graph_block *b = &w->entry->regions[0].blocks[0];
    w->blk = b;
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION) w->mc = b->ops[i];
    if (w->mc) {
        if (w->mc->n_regions < 1 || w->mc->regions[0].n_blocks != 1) return false;
        /* operands must be the entry's arguments, results returned as they are */
        for (int i = 0; i < w->mc->n_operands; i++)
            if (w->mc->operands[i]->def) return false;
        w->blk = &w->mc->regions[0].blocks[0];
    }
    w->term = graph_block_terminator(w->blk);
    if (!w->term) return false;
    w->n_ops = w->blk->n_ops;
    w->n_res = w->term->n_operands;
    return true;
}

static bool plain_tensor(const struct graph_type *t)
{
    return t->kind == GRAPH_TYPE_TENSOR && graph_type_is_static(t) && !t->quant;
}

/* Marks the values every op of blk (and its regions) reads. */
static void mark_uses(const struct graph_op *op, bool *need)
{
    for (int k = 0; k < op->n_operands; k++) need[op->operands[k]->id] = true;
    for (int r = 0; r < op->n_regions; r++)
        for (int bi = 0; bi < op->regions[r].n_blocks; bi++) {
            const struct graph_block *b = &op->regions[r].blocks[bi];
            for (int i = 0; i < b->n_ops; i++) mark_uses(b->ops[i], need);
        }
}

/* Marks the functions op (and its regions) calls, and theirs. */
static void mark_calls(const struct graph_module *m, const struct graph_op *op, bool *called, int depth)
{
    if (depth > 64) return;
    if (op->kind == GRAPH_OP_CALL) {
        const struct graph_attr *c = graph_op_attr(op, "callee");
        for (int i = 0; c && i < m->body.n_ops; i++) {
            const struct graph_op *f = m->body.ops[i];
            const char *name = f->kind == GRAPH_OP_FUNC ? graph_func_name(f) : NULL;
            if (called[i] || !name || strlen(name) != c->u.str.len || strncmp(name, c->u.str.s, c->u.str.len)) continue;
            called[i] = true;
            for (int r = 0; r < f->n_regions; r++)
                for (int b = 0; b < f->regions[r].n_blocks; b++)
                    for (int k = 0; k < f->regions[r].blocks[b].n_ops; k++)
                        mark_calls(m, f->regions[r].blocks[b].ops[k], called, depth + 1);
        }
    }
    for (int r = 0; r < op->n_regions; r++)
        for (int b = 0; b < op->regions[r].n_blocks; b++)
            for (int k = 0; k < op->regions[r].blocks[b].n_ops; k++)
                mark_calls(m, op->regions[r].blocks[b].ops[k], called, depth + 1);
}

/* Which ops are live under plan p; false when a cut op has a result that
 * cannot become an argument. */
static bool liveness(const struct work *w, const struct plan *p, bool *need, bool *live)
{
    memset(need, 0, w->m->n_values * sizeof *need);
    for (int i = 0; i < w->n_res; i++)
        if (p->keep[i]) need[w->term->operands[i]->id] = true;
    for (int i = w->n_ops - 1; i >= 0; i--) {
        const struct graph_op *op = w->blk->ops[i];
        live[i] = false;
        if (op == w->term) continue;
        for (int k = 0; k < op->n_results; k++) live[i] |= need[op->results[k].id];
        if (!live[i]) continue;
        if (p->cut[i]) {
            for (int k = 0; k < op->n_results; k++)
                if (need[op->results[k].id] && !plain_tensor(op->results[k].type)) return false;
            continue;
        }
        mark_uses(op, need);
    }
    return true;
}

static const struct graph_attr *replicated(struct graph_builder *b, const char *mesh, int rank)
{
    const struct graph_attr *dims[GRAPH_MAX_RANK];
    for (int d = 0; d < rank; d++) dims[d] = graph_builder_attr_array(b, NULL, 0);
    static const char *const names[2] = {"mesh", "dims"};
    const struct graph_attr *v[2] = {graph_builder_attr_symbol(b, mesh), graph_builder_attr_array(b, dims, rank)};
    return graph_builder_attr_dict(b, "sdy.sharding", names, v, 2);
}

/* The program under plan p, printed; NULL when it cannot be made. */
static char *rebuild(const struct work *w, const struct plan *p, int *counter, size_t *out_len)
{
    bool *need = calloc(w->m->n_values + 1, sizeof *need);
    bool *live = calloc((size_t)w->n_ops + 1, sizeof *live);
    int cap = w->blk->n_args + 1;
    for (int i = 0; i < w->n_ops; i++) cap += w->blk->ops[i]->n_results;
    const struct graph_type **tys = calloc((size_t)cap, sizeof *tys), **gtys = calloc((size_t)cap, sizeof *gtys);
    const char **names = calloc((size_t)cap, sizeof *names);
    char(*namebuf)[24] = calloc((size_t)cap, sizeof *namebuf);
    const struct graph_value **srcs = calloc((size_t)cap, sizeof *srcs);
    const struct graph_attr **shs = calloc((size_t)cap + (size_t)w->n_res, sizeof *shs);
    struct graph_value **args = calloc((size_t)cap, sizeof *args), **largs = calloc((size_t)cap, sizeof *largs);
    struct graph_value **vals = calloc((size_t)w->n_res + 1, sizeof *vals);
    const struct graph_type **rt = calloc((size_t)w->n_res + 1, sizeof *rt),
                            **lrt = calloc((size_t)w->n_res + 1, sizeof *lrt);
    struct graph_op **copy = calloc((size_t)w->n_ops + 1, sizeof *copy);
    char *text = NULL;
    struct graph_builder *b = NULL;
    struct graph_module *nm = NULL;
    if (!need || !live || !tys || !gtys || !names || !namebuf || !srcs || !shs || !args || !largs || !vals || !rt ||
        !lrt || !copy || !liveness(w, p, need, live))
        goto out;
    int n_out = 0;
    for (int i = 0; i < w->n_res; i++) n_out += p->keep[i];
    if (!n_out) goto out;
    const struct graph_attr *ins = w->mc ? graph_op_attr(w->mc, "in_shardings") : NULL;
    const struct graph_attr *outs = w->mc ? graph_op_attr(w->mc, "out_shardings") : NULL;
    char mesh[64] = "mesh";
    if (ins && ins->kind == GRAPH_ATTR_ARRAY && ins->u.array.n > 0) {
        const struct graph_attr *ms = graph_dict_get(ins->u.array.items[0], "mesh");
        if (ms && ms->kind == GRAPH_ATTR_SYMBOL) snprintf(mesh, sizeof mesh, "%.*s", (int)ms->u.str.len, ms->u.str.s);
    }
    if (graph_builder_create("min.mlir", &b) != BASE_OK) goto out;
    /* arguments: the block's that are needed, then the cut values */
    int n_args = 0;
    for (int i = 0; i < w->blk->n_args; i++) {
        if (!need[w->blk->args[i].id]) continue;
        srcs[n_args] = &w->blk->args[i];
        tys[n_args] = w->blk->args[i].type;
        const struct graph_value *ga = w->mc ? w->mc->operands[i] : &w->blk->args[i];
        gtys[n_args] = ga->type;
        names[n_args] = ga->name;
        if (w->mc) shs[n_args] = ins && ins->kind == GRAPH_ATTR_ARRAY && i < ins->u.array.n ? ins->u.array.items[i] : NULL;
        n_args++;
    }
    for (int i = 0; i < w->n_ops; i++) {
        if (!live[i] || !p->cut[i]) continue;
        const struct graph_op *op = w->blk->ops[i];
        for (int k = 0; k < op->n_results; k++) {
            if (!need[op->results[k].id]) continue;
            srcs[n_args] = &op->results[k];
            tys[n_args] = gtys[n_args] = op->results[k].type;
            snprintf(namebuf[n_args], sizeof namebuf[n_args], "c%d", (*counter)++);
            names[n_args] = namebuf[n_args];
            if (w->mc) shs[n_args] = replicated(b, mesh, op->results[k].type->rank);
            n_args++;
        }
    }
    /* the other top-level ops as they are: meshes, and the functions live ops call */
    bool *called = calloc((size_t)w->m->body.n_ops + 1, sizeof *called);
    if (!called) goto out;
    for (int i = 0; i < w->n_ops; i++)
        if (live[i] && !p->cut[i]) mark_calls(w->m, w->blk->ops[i], called, 0);
    for (int i = 0; i < w->m->body.n_ops; i++) {
        const struct graph_op *op = w->m->body.ops[i];
        if (op != w->entry && (op->kind != GRAPH_OP_FUNC || called[i])) graph_builder_clone(b, op, NULL, NULL);
    }
    free(called);
    int k = 0;
    for (int i = 0; i < w->n_res; i++)
        if (p->keep[i]) {
            rt[k] = w->mc ? w->mc->results[i].type : w->term->operands[i]->type;
            lrt[k++] = w->term->operands[i]->type;
        }
    if (!graph_builder_func(b, graph_func_name(w->entry), gtys, names, n_args, rt, n_out, args)) goto out;
    struct graph_op *mc = NULL;
    if (w->mc) {
        mc = graph_builder_op(b, GRAPH_OP_SDY_MANUAL_COMPUTATION, args, n_args, lrt, n_out);
        if (!graph_builder_region(b, mc, tys, n_args, largs)) goto out;
        for (int i = 0; i < n_args; i++) {
            graph_builder_map(b, srcs[i], largs[i]);
            if (w->blk->n_args > 0 && srcs[i]->block == w->blk && srcs[i]->name)
                graph_builder_set_name(b, largs[i], srcs[i]->name);
        }
    } else {
        for (int i = 0; i < n_args; i++) graph_builder_map(b, srcs[i], args[i]);
    }
    for (int i = 0; i < w->n_ops; i++)
        if (live[i] && !p->cut[i]) copy[i] = graph_builder_clone(b, w->blk->ops[i], NULL, NULL);
    /* the kept results, through the copies */
    k = 0;
    for (int i = 0; i < w->n_res; i++) {
        if (!p->keep[i]) continue;
        const struct graph_value *v = w->term->operands[i];
        struct graph_value *nv = NULL;
        for (int a = 0; a < n_args && !nv; a++)
            if (srcs[a] == v) nv = w->mc ? largs[a] : args[a];
        for (int j = 0; j < w->n_ops && !nv; j++)
            if (copy[j] && v->def == w->blk->ops[j]) nv = graph_builder_result(copy[j], v->index);
        if (!nv) goto out;
        vals[k] = nv;
        if (w->mc) shs[cap + k] = outs && outs->kind == GRAPH_ATTR_ARRAY && i < outs->u.array.n ? outs->u.array.items[i] : NULL;
        k++;
    }
    if (w->mc) {
        for (int i = 0; i < n_args; i++)
            if (!shs[i]) goto out;
        for (int i = 0; i < n_out; i++)
            if (!shs[cap + i]) goto out;
        graph_builder_return(b, vals, n_out); /* sdy.return */
        graph_builder_set_attr(b, mc, "in_shardings", graph_builder_attr_array(b, shs, n_args));
        graph_builder_set_attr(b, mc, "out_shardings", graph_builder_attr_array(b, shs + cap, n_out));
        const struct graph_attr *man = graph_op_attr(w->mc, "manual_axes");
        if (man) graph_builder_set_attr(b, mc, "manual_axes", man);
        for (int i = 0; i < n_out; i++) vals[i] = graph_builder_result(mc, i);
    }
    graph_builder_return(b, vals, n_out);
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_builder_finish(b, &nm, &d) != BASE_OK) goto out;
    size_t len = 0;
    if (graph_print_str(nm, &text, &len) != BASE_OK) text = NULL;
    *out_len = len;
out:
    free(need);
    free(live);
    free(tys);
    free(gtys);
    free(names);
    free(namebuf);
    free(srcs);
    free(shs);
    free(args);
    free(largs);
    free(vals);
    free(rt);
    free(lrt);
    free(copy);
    graph_builder_destroy(b);
    graph_module_destroy(nm);
    return text;
}

struct session {
    const char *sig;
    const struct df_run_opts *o;
    int evals, max_evals, counter, verbose;
};

/* Whether text still shows the finding. */
static bool still(struct session *s, const char *text, size_t len)
{
    if (s->evals >= s->max_evals) return false;
    s->evals++;
    struct df_result r;
    df_evaluate(text, len, "min.mlir", s->o, &r);
    char sig[400];
    df_signature(&r, s->o, sig, sizeof sig);
    bool same = strcmp(sig, s->sig) == 0;
    if (s->verbose > 1) fprintf(stderr, "  minimize: eval %d: %s%s\n", s->evals, sig, same ? " (kept)" : "");
    return same;
}

/* Tries plan p; on success replaces the text. */
static bool try_plan(struct session *s, const struct work *w, const struct plan *p, char **text, size_t *len)
{
    size_t n = 0;
    char *t = rebuild(w, p, &s->counter, &n);
    if (!t) return false;
    if (n >= *len && strcmp(t, *text) == 0) {
        free(t);
        return false;
    }
    if (!still(s, t, n)) {
        free(t);
        return false;
    }
    free(*text);
    *text = t;
    *len = n;
    return true;
}

static int count_ops(const struct graph_block *b)
{
    int n = 0;
    for (int i = 0; i < b->n_ops; i++) {
        n++;
        const struct graph_op *op = b->ops[i];
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) n += count_ops(&op->regions[r].blocks[k]);
    }
    return n;
}

int df_minimize_text(char **text, size_t *len, const char *sig, const struct df_run_opts *o, int max_evals, int verbose)
{
    struct session s = {.sig = sig, .o = o, .max_evals = max_evals, .verbose = verbose};
    int chunk = -1;      /* ddmin's chunk size (-1: not started) */
    bool outputs_done = false;
    while (s.evals < s.max_evals) {
        struct work w;
        if (!open_work(*text, *len, &w)) {
            graph_module_destroy(w.m);
            break;
        }
        struct plan p;
        p.keep = calloc((size_t)w.n_res + 1, sizeof *p.keep);
        p.cut = calloc((size_t)w.n_ops + 1, sizeof *p.cut);
        bool changed = false;
        if (!p.keep || !p.cut) goto next;
        /* 1. one result, if one alone shows it; else a half */
        if (!outputs_done) {
            for (int i = 0; i < w.n_res && w.n_res > 1 && !changed; i++) {
                for (int j = 0; j < w.n_res; j++) p.keep[j] = j == i;
                changed = try_plan(&s, &w, &p, text, len);
            }
            for (int half = 0; half < 2 && !changed && w.n_res > 1; half++) {
                for (int j = 0; j < w.n_res; j++) p.keep[j] = (j < w.n_res / 2) == (half == 0);
                changed = try_plan(&s, &w, &p, text, len);
            }
            if (!changed) outputs_done = true;
            goto next;
        }
        for (int j = 0; j < w.n_res; j++) p.keep[j] = true;
        /* 2. cut chunks of ops, from the results back (ddmin) */
        int n = w.n_ops - 1; /* without the terminator */
        if (chunk < 0 || chunk > n) chunk = n;
        for (; chunk >= 1 && !changed && s.evals < s.max_evals; chunk = chunk > 1 ? chunk / 2 : 0) {
            for (int end = n; end > 0 && !changed && s.evals < s.max_evals; end -= chunk) {
                int start = end - chunk < 0 ? 0 : end - chunk;
                memset(p.cut, 0, (size_t)w.n_ops * sizeof *p.cut);
                bool any = false;
                for (int i = start; i < end; i++) {
                    const struct graph_op *op = w.blk->ops[i];
                    if (op->kind == GRAPH_OP_CONSTANT) continue;
                    p.cut[i] = true;
                    any = true;
                }
                if (any) changed = try_plan(&s, &w, &p, text, len);
            }
            if (changed) break;
        }
        if (verbose && changed) {
            struct work w2;
            if (open_work(*text, *len, &w2))
                fprintf(stderr, "  minimize: %d ops left after %d evaluations\n", count_ops(w2.blk), s.evals);
            graph_module_destroy(w2.m);
        }
    next:
        free(p.keep);
        free(p.cut);
        graph_module_destroy(w.m);
        if (!changed && outputs_done && chunk == 0) break;
    }
    return s.evals;
}
