/* model: the workloads.  A prefill, a decode step and a training step, each
 * a func.func @main whose layers are stablehlo.while loops over stacked
 * weights (one loop per layer group), verified before it is handed out.
 * docs/model.md. */
#include "model/mdl_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS (4 * MDL_MAX_WEIGHTS + 16)

/* The entry's arguments and results as they are being laid out. */
struct sig {
    int n_args, n_res;
    const struct graph_type *args[MAX_ARGS], *res[MAX_ARGS];
    char names[MAX_ARGS][40];
    enum mdl_role roles[MAX_ARGS][GRAPH_MAX_RANK]; /* per dim, for the layouts */
    bool stacked[MAX_ARGS];                        /* dim 0 is the layers */
};

static int add_arg(struct mdl_gen *g, struct sig *s, const char *name, enum base_dtype dt, int rank,
                   const int64_t *dims, const enum mdl_role *roles, bool stacked)
{
    BASE_ASSERT(s->n_args < MAX_ARGS);
    int i = s->n_args++;
    s->args[i] = mdl_ty(g, dt, rank, dims);
    snprintf(s->names[i], sizeof s->names[i], "%s", name);
    for (int d = 0; d < rank; d++) s->roles[i][d] = roles ? roles[d] : MDL_R_NONE;
    s->stacked[i] = stacked;
    return i;
}

static void add_res(struct mdl_gen *g, struct sig *s, const struct graph_type *t)
{
    (void)g;
    BASE_ASSERT(s->n_res < MAX_ARGS);
    s->res[s->n_res++] = t;
}

/* Weight i as an argument: [layers of its group, dims...] when per layer. */
static int weight_arg(struct mdl_gen *g, struct sig *s, int i, enum base_dtype dt, const char *prefix)
{
    const struct mdl_weight *w = &g->ws.w[i];
    int64_t dims[5];
    enum mdl_role roles[5];
    int r = 0;
    if (w->group >= 0) {
        dims[r] = g->ws.groups[w->group].n;
        roles[r++] = MDL_R_NONE;
    }
    for (int d = 0; d < w->rank; d++) {
        dims[r] = w->dims[d];
        roles[r++] = w->roles[d];
    }
    char name[48];
    if (w->group >= 0) snprintf(name, sizeof name, "%s%s_%d", prefix, w->name, w->group);
    else snprintf(name, sizeof name, "%s%s", prefix, w->name);
    return add_arg(g, s, name, dt, r, dims, roles, w->group >= 0);
}

static gval *i32(struct mdl_gen *g, int64_t v) { return mdl_scalar(g, (double)v, BASE_DT_SI32); }

/* ------------------------------------------------------------------------ */
/* Loops                                                                     */

/* A while loop `for (i = 0; i < n; i++)` carrying vals[0..n_vals) besides
 * the counter: returns the op; body[] gets the body's arguments (body[0]
 * the counter).  The body is the current block until loop_end. */
static struct graph_op *loop_begin(struct mdl_gen *g, int64_t n, gval *const *vals, int n_vals, gval **body)
{
    gval *init[MAX_ARGS];
    const struct graph_type *t[MAX_ARGS];
    init[0] = i32(g, 0);
    for (int i = 0; i < n_vals; i++) init[1 + i] = vals[i];
    for (int i = 0; i <= n_vals; i++) {
        if (!init[i]) return NULL;
        t[i] = init[i]->type;
    }
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_WHILE, init, n_vals + 1, t, n_vals + 1);
    gval *ca[MAX_ARGS];
    graph_builder_region(g->b, op, t, n_vals + 1, ca);
    gval *p = mdl_cmp(g, ca[0], i32(g, n), "LT", false);
    graph_builder_return(g->b, &p, 1);
    graph_builder_region(g->b, op, t, n_vals + 1, body);
    return op;
}

/* Ends the body with the counter + 1 and next[0..n_vals); out[] gets the
 * loop's results after the counter. */
static void loop_end(struct mdl_gen *g, struct graph_op *op, gval *counter, gval *const *next, int n_vals, gval **out)
{
    gval *r[MAX_ARGS];
    r[0] = mdl_add(g, counter, i32(g, 1));
    for (int i = 0; i < n_vals; i++) r[1 + i] = next[i];
    graph_builder_return(g->b, r, n_vals + 1);
    for (int i = 0; i < n_vals; i++) out[i] = graph_builder_result(op, 1 + i);
}

/* ------------------------------------------------------------------------ */
/* Shared pieces                                                             */

struct ctx {
    struct mdl_gen *g;
    struct sig s;
    gval *args[MAX_ARGS];
    int w_arg[MDL_MAX_WEIGHTS]; /* argument index of each weight */
    int64_t b, sq;              /* batch, query length */
    int64_t rope_dim;
    gval *cos, *sin;
};

static gval *warg(struct ctx *x, int g, const char *name)
{
    int i = mdl_weight_find(&x->g->ws, g, name);
    return i >= 0 ? x->args[x->w_arg[i]] : NULL;
}

/* Token ids clamped into the vocabulary (a gather clamps, a scatter would
 * drop: the clamp makes the lookup and its transpose agree). */
static gval *clamp_ids(struct ctx *x, gval *ids)
{
    struct mdl_gen *g = x->g;
    return mdl_clamp(g, i32(g, 0), ids, i32(g, g->c->vocab - 1));
}

/* x0 = embed[ids] (+ positions [p0, p0 + S)), in the activation type. */
static gval *embed(struct ctx *x, gval *ids)
{
    struct mdl_gen *g = x->g;
    gval *e = mdl_convert(g, mdl_gather_rows(g, warg(x, -1, "embed"), ids), g->dt);
    gval *pe = warg(x, -1, "pos_embed");
    if (pe) {
        gval *p = mdl_convert(g, mdl_slice(g, pe, 0, 0, x->sq), g->dt);
        e = mdl_add(g, e, mdl_bcast_to(g, p, e, (int64_t[]){1, 2}));
    }
    return e;
}

static void layer_weights(struct ctx *x, int grp, gval *li, gval **w)
{
    struct mdl_gen *g = x->g;
    for (int i = 0; i < g->ws.n; i++)
        w[i] = g->ws.w[i].group == grp ? mdl_layer_slice(g, x->args[x->w_arg[i]], li) : NULL;
}

static void layer_io(struct ctx *x, int grp, gval *li, struct mdl_layer_io *io)
{
    struct mdl_gen *g = x->g;
    memset(io, 0, sizeof *io);
    io->layer = g->ws.groups[grp].first ? mdl_add(g, li, i32(g, g->ws.groups[grp].first)) : li;
    io->cos = x->cos;
    io->sin = x->sin;
}

static void rope_for(struct ctx *x, gval *p0)
{
    struct mdl_gen *g = x->g;
    const struct mdl_config *c = g->c;
    if (c->learned_pos) return;
    x->rope_dim = c->family == MDL_FAMILY_MLA_MOE ? c->qk_rope_head_dim : c->head_dim;
    mdl_rope_tables(g, x->sq, x->rope_dim, p0, &x->cos, &x->sin);
}

/* Cache shapes per layer: keys / values [B, T, KV, hd], or MLA's latent
 * [B, T, kv_lora_rank] and rotated key [B, T, rope]. */
static int cache_dims(const struct mdl_config *c, int64_t b, int64_t t, bool key, int64_t *dims, enum mdl_role *roles)
{
    dims[0] = b;
    dims[1] = t;
    roles[0] = roles[1] = MDL_R_NONE;
    if (c->family == MDL_FAMILY_MLA_MOE) {
        dims[2] = key ? c->kv_lora_rank : c->qk_rope_head_dim;
        roles[2] = MDL_R_NONE;
        return 3;
    }
    dims[2] = c->kv_heads;
    dims[3] = c->head_dim;
    roles[2] = MDL_R_KV;
    roles[3] = MDL_R_NONE;
    return 4;
}

/* ------------------------------------------------------------------------ */
/* Inference                                                                 */

static enum base_status build_infer(struct ctx *x, struct base_diag *diag)
{
    struct mdl_gen *g = x->g;
    const struct mdl_config *c = g->c;
    const struct mdl_workload *w = g->w;
    bool dec = w->kind == MDL_DECODE;
    int64_t b = w->batch, t = w->seq;
    x->b = b;
    x->sq = dec ? 1 : t;
    struct sig *s = &x->s;
    int a_tok = add_arg(g, s, "tokens", BASE_DT_SI32, 2, (int64_t[]){b, x->sq}, NULL, false);
    int a_pos = dec ? add_arg(g, s, "pos", BASE_DT_SI32, 0, NULL, NULL, false) : -1;
    int a_cache[MDL_MAX_GROUPS][2];
    add_res(g, s, mdl_ty(g, BASE_DT_F32, 2, (int64_t[]){b, c->vocab}));
    for (int grp = 0; grp < g->ws.n_groups; grp++)
        for (int kv = 0; kv < 2; kv++) {
            int64_t dims[6], pd[5];
            enum mdl_role roles[6], pr[5];
            int r = cache_dims(c, b, t, kv == 0, pd, pr);
            dims[0] = g->ws.groups[grp].n;
            roles[0] = MDL_R_NONE;
            for (int d = 0; d < r; d++) {
                dims[1 + d] = pd[d];
                roles[1 + d] = pr[d];
            }
            char name[32];
            snprintf(name, sizeof name, "%s_cache_%d", kv ? "v" : "k", grp);
            if (dec) a_cache[grp][kv] = add_arg(g, s, name, g->dt, r + 1, dims, roles, true);
            add_res(g, s, mdl_ty(g, g->dt, r + 1, dims));
        }
    for (int i = 0; i < g->ws.n; i++) x->w_arg[i] = weight_arg(g, s, i, g->dt, "");
    const char *names[MAX_ARGS];
    for (int i = 0; i < s->n_args; i++) names[i] = s->names[i];
    struct graph_op *fn = graph_builder_func(g->b, "main", s->args, names, s->n_args, s->res, s->n_res, x->args);
    (void)fn;

    gval *pos = NULL;
    if (dec) pos = mdl_clamp(g, i32(g, 0), x->args[a_pos], i32(g, t - 1));
    rope_for(x, pos);
    gval *h = embed(x, clamp_ids(x, x->args[a_tok]));
    if (dec && warg(x, -1, "pos_embed")) {
        /* learned positions: the token's row, not row 0 */
        gval *pe = warg(x, -1, "pos_embed");
        gval *row = mdl_convert(g, mdl_dslice(g, pe, (gval *[]){pos, NULL}, (int64_t[]){1, c->hidden}), g->dt);
        gval *first = mdl_convert(g, mdl_slice(g, pe, 0, 0, 1), g->dt);
        int64_t bd[2] = {1, 2};
        h = mdl_add(g, mdl_sub(g, h, mdl_bcast_to(g, first, h, bd)), mdl_bcast_to(g, row, h, bd));
    }
    gval *caches_out[MDL_MAX_GROUPS][2];
    for (int grp = 0; grp < g->ws.n_groups; grp++) {
        int64_t n = g->ws.groups[grp].n;
        gval *init[3] = {h, NULL, NULL};
        for (int kv = 0; kv < 2; kv++) {
            if (dec) {
                init[1 + kv] = x->args[a_cache[grp][kv]];
            } else {
                int64_t dims[6], pd[5];
                enum mdl_role pr[5];
                int r = cache_dims(c, b, t, kv == 0, pd, pr);
                dims[0] = n;
                memcpy(dims + 1, pd, (size_t)r * sizeof *pd);
                init[1 + kv] = mdl_splat(g, 0, g->dt, r + 1, dims);
            }
        }
        gval *body[4];
        struct graph_op *lp = loop_begin(g, n, init, 3, body);
        if (!lp) break;
        gval *wl[MDL_MAX_WEIGHTS];
        layer_weights(x, grp, body[0], wl);
        struct mdl_layer_io io;
        layer_io(x, grp, body[0], &io);
        io.q_pos = pos;
        io.cache = true;
        io.k_stack = body[2];
        io.v_stack = body[3];
        io.li = body[0];
        gval *y = mdl_layer(g, grp, body[1], wl, &io);
        gval *next[3] = {y, NULL, NULL};
        if (dec) {
            next[1] = io.k_new;
            next[2] = io.v_new;
        } else {
            next[1] = mdl_layer_update(g, body[2], io.k_new, body[0]);
            next[2] = mdl_layer_update(g, body[3], io.v_new, body[0]);
        }
        gval *out[3];
        loop_end(g, lp, body[0], next, 3, out);
        h = out[0];
        caches_out[grp][0] = out[1];
        caches_out[grp][1] = out[2];
    }
    /* logits of the last position */
    gval *last = x->sq > 1 ? mdl_slice(g, h, 1, x->sq - 1, x->sq) : h;
    bool tied = c->tied_embeddings;
    gval *lg = mdl_head(g, last, warg(x, -1, "final_norm"), warg(x, -1, "final_norm_b"),
                        tied ? warg(x, -1, "embed") : warg(x, -1, "lm_head"), tied);
    gval *ret[MAX_ARGS];
    int nr = 0;
    ret[nr++] = mdl_reshape(g, lg, 2, (int64_t[]){b, c->vocab});
    for (int grp = 0; grp < g->ws.n_groups; grp++) {
        ret[nr++] = caches_out[grp][0];
        ret[nr++] = caches_out[grp][1];
    }
    graph_builder_return(g->b, ret, nr);
    (void)diag;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Training                                                                  */

static enum base_status build_train(struct ctx *x, struct base_diag *diag)
{
    (void)x;
    return base_diag_set(diag, BASE_ERR_UNSUPPORTED, NULL, 0, 0, "workload train: not generated yet");
}

/* ------------------------------------------------------------------------ */
/* Checks and the entry point                                                */

static enum base_status check_workload(const struct mdl_config *c, const struct mdl_workload *w, struct base_diag *d)
{
    if ((unsigned)w->kind >= MDL_WORKLOAD_COUNT)
        return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "workload: kind is not train, prefill or decode");
    if (w->batch <= 0) return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "workload: batch must be positive");
    if (w->seq <= 0) return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "workload: seq must be positive");
    if (c->learned_pos && w->seq > c->learned_pos)
        return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0,
                             "workload: seq %lld exceeds the %lld learned positions of %s",
                             (long long)w->seq, (long long)c->learned_pos, c->name);
    if (w->kind == MDL_TRAIN && !w->remat)
        return base_diag_set(d, BASE_ERR_UNSUPPORTED, NULL, 0, 0,
                             "workload: training without rematerialisation is not generated (remat must be on: "
                             "each layer's input saved, its forward run again in the backward)");
    const struct mdl_parallel *p = &w->par;
    int *ax[] = {(int *)&p->dp, (int *)&p->fsdp, (int *)&p->tp, (int *)&p->sp, (int *)&p->ep, (int *)&p->pp};
    static const char *const axn[] = {"dp", "fsdp", "tp", "sp", "ep", "pp"};
    for (int i = 0; i < 6; i++)
        if (*ax[i] < 1) return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "parallel: %s must be >= 1", axn[i]);
    return BASE_OK;
}

enum base_status mdl_generate(const struct mdl_config *c, const struct mdl_workload *w, struct graph_module **out,
                              struct base_diag *diag)
{
    *out = NULL;
    TRY(mdl_config_check(c, diag));
    TRY(check_workload(c, w, diag));
    struct mdl_gen g;
    memset(&g, 0, sizeof g);
    g.c = c;
    g.w = w;
    g.dt = c->dtype;
    g.mdt = w->kind == MDL_TRAIN ? c->master_dtype : c->dtype;
    mdl_weights_of(c, &g.ws);
    char path[96];
    snprintf(path, sizeof path, "%s.%s", c->name[0] ? c->name : "model", mdl_workload_name(w->kind));
    TRY(graph_builder_create(path, &g.b));
    struct ctx *x = calloc(1, sizeof *x);
    enum base_status st = x ? BASE_OK : base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st == BASE_OK) {
        x->g = &g;
        graph_builder_set_module_name(g.b, "model");
        st = w->kind == MDL_TRAIN ? build_train(x, diag) : build_infer(x, diag);
    }
    struct graph_module *m = NULL;
    if (st == BASE_OK) st = graph_builder_finish(g.b, &m, diag);
    if (st == BASE_OK && g.oom) st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st == BASE_OK) {
        st = graph_verify(m, diag);
        if (st != BASE_OK) st = BASE_ERR_INTERNAL; /* a generated program must verify */
    }
    graph_builder_destroy(g.b);
    free(g.stop);
    free(g.ct);
    free(x);
    if (st != BASE_OK) {
        graph_module_destroy(m);
        return st;
    }
    *out = m;
    return BASE_OK;
}
