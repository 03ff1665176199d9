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
        roles[r++] = MDL_R_LAYER;
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
    roles[0] = MDL_R_BATCH;
    roles[1] = MDL_R_NONE;
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
/* Parallel layouts                                                          */

/* The mesh: one axis per parallelism of size > 1, named after it. */
#define MDL_AXES(X) X(dp) X(fsdp) X(tp) X(sp) X(ep) X(pp)

static int mesh_axes(const struct mdl_parallel *p, const char **names, int *sizes)
{
    int n = 0;
#define X(a)                 \
    if (p->a > 1) {          \
        names[n] = #a;       \
        sizes[n++] = p->a;   \
    }
    MDL_AXES(X)
#undef X
    return n;
}

/* The mesh axes a dim of a role is split over (major first). */
static int role_axes(const struct mdl_config *c, const struct mdl_parallel *p, enum mdl_role r, const char **ax)
{
    int n = 0;
    switch (r) {
    case MDL_R_BATCH:
        if (p->dp > 1) ax[n++] = "dp";
        if (p->fsdp > 1) ax[n++] = "fsdp";
        if (p->ep > 1) ax[n++] = "ep";
        break;
    case MDL_R_SEQ:
        if (p->sp > 1) ax[n++] = "sp";
        break;
    case MDL_R_EMBED:
        if (p->fsdp > 1) ax[n++] = "fsdp";
        break;
    case MDL_R_KV:
        if (p->tp > 1 && c->kv_heads % p->tp == 0) ax[n++] = "tp"; /* else the kv heads are replicated (Megatron) */
        break;
    case MDL_R_HEADS:
    case MDL_R_FFN:
    case MDL_R_VOCAB:
        if (p->tp > 1) ax[n++] = "tp";
        break;
    case MDL_R_EXPERT:
        if (p->ep > 1) ax[n++] = "ep";
        break;
    case MDL_R_LAYER:
        if (p->pp > 1) ax[n++] = "pp";
        break;
    default:
        break;
    }
    return n;
}

static int axis_size(const struct mdl_parallel *p, const char *a)
{
#define X(n) if (!strcmp(a, #n)) return p->n;
    MDL_AXES(X)
#undef X
    return 1;
}

/* The layout's sizes must divide what they split. */
static enum base_status check_layout(const struct mdl_config *c, const struct mdl_workload *w, struct base_diag *d)
{
    const struct mdl_parallel *p = &w->par;
    int64_t bsplit = (int64_t)p->dp * p->fsdp * p->ep;
#define NEED(cond, ...) \
    if (!(cond)) return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, __VA_ARGS__);
    NEED(w->batch % bsplit == 0, "parallel: batch %lld does not divide over dp x fsdp x ep = %lld",
         (long long)w->batch, (long long)bsplit);
    NEED(w->kind == MDL_DECODE || w->seq % p->sp == 0, "parallel: seq %lld does not divide over sp = %d",
         (long long)w->seq, p->sp);
    NEED(w->kind != MDL_DECODE || p->sp == 1, "parallel: decode has one token per sequence: sp must be 1");
    NEED(c->heads % p->tp == 0, "parallel: heads %lld do not divide over tp = %d", (long long)c->heads, p->tp);
    NEED(c->hidden % p->fsdp == 0, "parallel: hidden %lld does not divide over fsdp = %d", (long long)c->hidden, p->fsdp);
    NEED(c->family == MDL_FAMILY_DENSE || c->experts % p->ep == 0, "parallel: experts %lld do not divide over ep = %d",
         (long long)c->experts, p->ep);
    NEED(p->ep == 1 || c->family != MDL_FAMILY_DENSE, "parallel: ep needs experts (a MoE family)");
#undef NEED
    if (p->pp > 1)
        return base_diag_set(d, BASE_ERR_UNSUPPORTED, NULL, 0, 0,
                             "parallel: pipeline stages (pp = %d) are not generated as one program; npusim estimate "
                             "composes them from a generated stage (docs/estimate.md)", p->pp);
    return BASE_OK;
}

/* #sdy.sharding<@mesh, [{"a"}, {}]> of a value of type t whose dims have
 * the given roles: each dim over its role's axes when they divide it and no
 * earlier dim took them. */
static const struct graph_attr *sharding_of(struct mdl_gen *g, const struct graph_type *t, const enum mdl_role *roles)
{
    const struct mdl_parallel *p = &g->w->par;
    const struct graph_attr *dims[GRAPH_MAX_RANK];
    const char *used[8];
    int n_used = 0;
    for (int d = 0; d < t->rank; d++) {
        const char *ax[4];
        int na = role_axes(g->c, p, roles[d], ax), keep = 0;
        int64_t parts = 1;
        const struct graph_attr *items[4];
        for (int k = 0; k < na; k++) {
            bool dup = false;
            for (int u = 0; u < n_used; u++) dup |= !strcmp(used[u], ax[k]);
            int64_t sz = axis_size(p, ax[k]);
            if (dup || t->dims[d] % (parts * sz)) continue; /* e.g. a vocabulary that tp does not divide */
            parts *= sz;
            used[n_used++] = ax[k];
            items[keep++] = graph_builder_attr_string(g->b, ax[k]);
        }
        dims[d] = graph_builder_attr_array(g->b, items, keep);
    }
    static const char *const names[2] = {"mesh", "dims"};
    const struct graph_attr *v[2] = {graph_builder_attr_symbol(g->b, "mesh"), graph_builder_attr_array(g->b, dims, t->rank)};
    return graph_builder_attr_dict(g->b, "sdy.sharding", names, v, 2);
}

static const struct graph_attr *arg_sharding(struct ctx *x, int i)
{
    return sharding_of(x->g, x->s.args[i], x->s.roles[i]);
}

/* v laid out as its roles say (sdy.sharding_constraint), when the layout
 * has more than one device: a weight's gradient sharded like the weight,
 * so that the partial sums of a data-split batch are reduce-scattered
 * (FSDP) rather than all-reduced and cut. */
static gval *constrain(struct mdl_gen *g, gval *v, const enum mdl_role *roles)
{
    if (!v || mdl_parallel_devices(&g->w->par) < 2) return v;
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_SDY_SHARDING_CONSTRAINT, &v, 1, &v->type, 1);
    graph_builder_set_attr(g->b, op, "sharding", sharding_of(g, v->type, roles));
    return graph_builder_result(op, 0);
}

/* sdy.mesh @mesh (when the layout has more than one device), then
 * func.func @main with the arguments' shardings. */
static enum base_status begin_main(struct ctx *x, struct base_diag *diag)
{
    struct mdl_gen *g = x->g;
    struct sig *s = &x->s;
    const char *an[8];
    int as[8];
    int na = mesh_axes(&g->w->par, an, as);
    if (na) {
        const struct graph_attr *axes[8];
        for (int a = 0; a < na; a++) {
            static const char *const names[2] = {"name", "size"};
            const struct graph_attr *v[2] = {graph_builder_attr_string(g->b, an[a]), graph_builder_attr_int(g->b, as[a])};
            axes[a] = graph_builder_attr_dict(g->b, NULL, names, v, 2);
        }
        static const char *const mn[1] = {"axes"};
        const struct graph_attr *mv[1] = {graph_builder_attr_array(g->b, axes, na)};
        struct graph_op *mesh = graph_builder_op(g->b, GRAPH_OP_SDY_MESH, NULL, 0, NULL, 0);
        graph_builder_set_attr(g->b, mesh, "mesh", graph_builder_attr_dict(g->b, "sdy.mesh", mn, mv, 1));
        graph_builder_set_attr(g->b, mesh, "sym_name", graph_builder_attr_string(g->b, "mesh"));
    }
    const char *names[MAX_ARGS] = {NULL};
    for (int i = 0; i < s->n_args; i++) names[i] = s->names[i];
    struct graph_op *fn = graph_builder_func(g->b, "main", s->args, names, s->n_args, s->res, s->n_res, x->args);
    if (fn && na) {
        const struct graph_attr *aa[MAX_ARGS];
        static const char *const key[1] = {"sdy.sharding"};
        for (int i = 0; i < s->n_args; i++) {
            const struct graph_attr *v[1] = {arg_sharding(x, i)};
            aa[i] = graph_builder_attr_dict(g->b, NULL, key, v, 1);
        }
        graph_builder_set_attr(g->b, fn, "arg_attrs", graph_builder_attr_array(g->b, aa, s->n_args));
    }
    return graph_builder_status(g->b, diag);
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
    int a_tok = add_arg(g, s, "tokens", BASE_DT_SI32, 2, (int64_t[]){b, x->sq},
                        (enum mdl_role[]){MDL_R_BATCH, MDL_R_SEQ}, false);
    int a_pos = dec ? add_arg(g, s, "pos", BASE_DT_SI32, 0, NULL, NULL, false) : -1;
    int a_cache[MDL_MAX_GROUPS][2];
    add_res(g, s, mdl_ty(g, BASE_DT_F32, 2, (int64_t[]){b, c->vocab}));
    for (int grp = 0; grp < g->ws.n_groups; grp++)
        for (int kv = 0; kv < 2; kv++) {
            int64_t dims[6], pd[5];
            enum mdl_role roles[6], pr[5];
            int r = cache_dims(c, b, t, kv == 0, pd, pr);
            dims[0] = g->ws.groups[grp].n;
            roles[0] = MDL_R_LAYER;
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
    TRY(begin_main(x, diag));

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

/* AdamW as MaxText configures it (base.yml @e591f30: opt_type adamw,
 * learning_rate 3e-5, adam_b1 0.9, adam_b2 0.95, adam_eps 1e-8,
 * adam_eps_root 0, adam_weight_decay 0.1, gradient_clipping_threshold 1.0),
 * optax's update rule: clip by the global norm, then
 *     m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
 *     p -= lr (m / (1 - b1^t) / (sqrt(v / (1 - b2^t)) + eps) + wd p),  t = step + 1.
 * A constant learning rate (no schedule). */
#define ADAM_LR 3e-5
#define ADAM_B1 0.9
#define ADAM_B2 0.95
#define ADAM_EPS 1e-8
#define ADAM_WD 0.1
#define CLIP_NORM 1.0

static enum base_status build_train(struct ctx *x, struct base_diag *diag)
{
    struct mdl_gen *g = x->g;
    const struct mdl_config *c = g->c;
    const struct mdl_workload *w = g->w;
    enum base_dtype mdt = g->mdt;
    int64_t b = w->batch, s_len = w->seq, d = c->hidden;
    x->b = b;
    x->sq = s_len;
    struct sig *s = &x->s;
    static const enum mdl_role bs[2] = {MDL_R_BATCH, MDL_R_SEQ};
    int a_tok = add_arg(g, s, "tokens", BASE_DT_SI32, 2, (int64_t[]){b, s_len}, bs, false);
    int a_tgt = add_arg(g, s, "targets", BASE_DT_SI32, 2, (int64_t[]){b, s_len}, bs, false);
    for (int i = 0; i < g->ws.n; i++) x->w_arg[i] = weight_arg(g, s, i, mdt, "");
    int a_m[MDL_MAX_WEIGHTS], a_v[MDL_MAX_WEIGHTS], a_step = -1;
    int n_tr = 0, tr[MDL_MAX_WEIGHTS];
    for (int i = 0; i < g->ws.n; i++)
        if (g->ws.w[i].trainable) tr[n_tr++] = i;
    if (!w->grads_only) {
        for (int k = 0; k < n_tr; k++) a_m[k] = weight_arg(g, s, tr[k], mdt, "m_");
        for (int k = 0; k < n_tr; k++) a_v[k] = weight_arg(g, s, tr[k], mdt, "v_");
        a_step = add_arg(g, s, "step", BASE_DT_SI32, 0, NULL, NULL, false);
    }
    add_res(g, s, mdl_ty(g, BASE_DT_F32, 0, NULL));
    for (int k = 0; k < n_tr; k++) add_res(g, s, s->args[x->w_arg[tr[k]]]);
    if (!w->grads_only) {
        for (int k = 0; k < 2 * n_tr; k++) add_res(g, s, s->args[x->w_arg[tr[k % n_tr]]]);
        add_res(g, s, mdl_ty(g, BASE_DT_SI32, 0, NULL));
    }
    TRY(begin_main(x, diag));

    /* forward: each layer's input saved, the layers run again in the backward */
    rope_for(x, NULL);
    gval *tok = clamp_ids(x, x->args[a_tok]), *tgt = clamp_ids(x, x->args[a_tgt]);
    gval *h = embed(x, tok);
    gval *saved[MDL_MAX_GROUPS];
    for (int grp = 0; grp < g->ws.n_groups; grp++) {
        int64_t n = g->ws.groups[grp].n;
        gval *init[2] = {h, mdl_splat(g, 0, g->dt, 4, (int64_t[]){n, b, s_len, d})};
        gval *body[3];
        struct graph_op *lp = loop_begin(g, n, init, 2, body);
        if (!lp) break;
        gval *wl[MDL_MAX_WEIGHTS];
        layer_weights(x, grp, body[0], wl);
        struct mdl_layer_io io;
        layer_io(x, grp, body[0], &io);
        gval *next[2] = {mdl_layer(g, grp, body[1], wl, &io), mdl_layer_update(g, body[2], body[1], body[0])};
        gval *out[2];
        loop_end(g, lp, body[0], next, 2, out);
        h = out[0];
        saved[grp] = out[1];
    }
    /* the head and the loss: mean cross-entropy over the tokens */
    bool tied = c->tied_embeddings;
    gval *fn = warg(x, -1, "final_norm"), *fnb = warg(x, -1, "final_norm_b");
    gval *hp = tied ? warg(x, -1, "embed") : warg(x, -1, "lm_head");
    int mark = mdl_ad_begin(g);
    gval *lg = mdl_head(g, h, fn, fnb, hp, tied); /* [B, S, V] f32 */
    int64_t last = 2, kept[2] = {0, 1};
    gval *m = mdl_reduce(g, lg, GRAPH_OP_MAXIMUM, 1, &last);
    mdl_stop(g, m);
    gval *lse = mdl_add(g, mdl_un(g, GRAPH_OP_LOG, mdl_reduce(g, mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_sub(g, lg, mdl_bcast_to(g, m, lg, kept))),
                                                              GRAPH_OP_ADD, 1, &last)),
                        m);
    gval *tl = mdl_reduce(g, mdl_mul(g, lg, mdl_one_hot(g, tgt, c->vocab, BASE_DT_F32)), GRAPH_OP_ADD, 1, &last);
    gval *loss = mdl_scale(g, mdl_reduce(g, mdl_sub(g, lse, tl), GRAPH_OP_ADD, 2, (int64_t[]){0, 1}),
                           1.0 / (double)(b * s_len));
    gval *leaves[4] = {h, fn, fnb, hp}, *dl[4];
    gval *one = mdl_scalar(g, 1.0, BASE_DT_F32);
    TRY(mdl_ad_grad(g, mark, &loss, &one, 1, leaves, dl, 4, diag));
    gval *grad[MDL_MAX_WEIGHTS] = {NULL};
    int i_fn = mdl_weight_find(&g->ws, -1, "final_norm"), i_fnb = mdl_weight_find(&g->ws, -1, "final_norm_b");
    int i_hp = mdl_weight_find(&g->ws, -1, tied ? "embed" : "lm_head");
    grad[i_fn] = dl[1];
    if (i_fnb >= 0) grad[i_fnb] = dl[2];
    grad[i_hp] = dl[3];
    gval *dh = dl[0];
    /* the layers backwards, each recomputed from its saved input */
    for (int grp = g->ws.n_groups - 1; grp >= 0; grp--) {
        int64_t n = g->ws.groups[grp].n;
        int gi[MDL_MAX_WEIGHTS], ng = 0;
        for (int k = 0; k < n_tr; k++)
            if (g->ws.w[tr[k]].group == grp) gi[ng++] = tr[k];
        gval *init[MDL_MAX_WEIGHTS + 1];
        init[0] = dh;
        for (int k = 0; k < ng; k++) init[1 + k] = mdl_splat_like(g, 0, x->args[x->w_arg[gi[k]]]);
        gval *body[MDL_MAX_WEIGHTS + 2];
        struct graph_op *lp = loop_begin(g, n, init, ng + 1, body);
        if (!lp) break;
        gval *j = mdl_sub(g, i32(g, n - 1), body[0]);
        gval *xin = mdl_layer_slice(g, saved[grp], j);
        gval *wl[MDL_MAX_WEIGHTS];
        layer_weights(x, grp, j, wl);
        struct mdl_layer_io io;
        layer_io(x, grp, j, &io);
        int lmark = mdl_ad_begin(g);
        gval *y = mdl_layer(g, grp, xin, wl, &io);
        gval *lv[MDL_MAX_WEIGHTS + 1], *dv[MDL_MAX_WEIGHTS + 1];
        lv[0] = xin;
        for (int k = 0; k < ng; k++) lv[1 + k] = wl[gi[k]];
        TRY(mdl_ad_grad(g, lmark, &y, &body[1], 1, lv, dv, ng + 1, diag));
        gval *next[MDL_MAX_WEIGHTS + 1];
        next[0] = dv[0];
        for (int k = 0; k < ng; k++) {
            const struct mdl_weight *wt = &g->ws.w[gi[k]];
            next[1 + k] = mdl_layer_update(g, body[2 + k], constrain(g, dv[1 + k], wt->roles), j);
        }
        gval *out[MDL_MAX_WEIGHTS + 1];
        loop_end(g, lp, body[0], next, ng + 1, out);
        dh = out[0];
        for (int k = 0; k < ng; k++) grad[gi[k]] = out[1 + k];
    }
    /* the embedding: the lookup's transpose (rows added at the ids), plus
     * the output projection's gradient when tied; positions: summed over
     * the batch into their rows */
    int i_e = mdl_weight_find(&g->ws, -1, "embed");
    gval *de = mdl_scatter_add_rows(g, tok, mdl_convert(g, dh, mdt), c->vocab);
    grad[i_e] = tied ? mdl_add(g, grad[i_e], de) : de;
    int i_pe = mdl_weight_find(&g->ws, -1, "pos_embed");
    if (i_pe >= 0) {
        gval *dp = mdl_reduce(g, mdl_convert(g, dh, mdt), GRAPH_OP_ADD, 1, (int64_t[]){0});
        grad[i_pe] = mdl_pad(g, dp, (int64_t[]){0, 0}, (int64_t[]){c->learned_pos - s_len, 0});
    }
    for (int k = 0; k < n_tr; k++)
        if (g->ws.w[tr[k]].group < 0) grad[tr[k]] = constrain(g, grad[tr[k]], g->ws.w[tr[k]].roles);
    gval *ret[MAX_ARGS];
    int nr = 0;
    ret[nr++] = loss;
    if (w->grads_only) {
        for (int k = 0; k < n_tr; k++) ret[nr++] = grad[tr[k]];
        graph_builder_return(g->b, ret, nr);
        return BASE_OK;
    }
    /* clip by the global norm (f32) */
    gval *sq = mdl_scalar(g, 0, BASE_DT_F32);
    for (int k = 0; k < n_tr; k++) {
        gval *gf = mdl_convert(g, grad[tr[k]], BASE_DT_F32);
        int r = mdl_rank(gf);
        int64_t all[GRAPH_MAX_RANK];
        for (int q = 0; q < r; q++) all[q] = q;
        sq = mdl_add(g, sq, mdl_reduce(g, mdl_mul(g, gf, gf), GRAPH_OP_ADD, r, all));
    }
    gval *norm = mdl_un(g, GRAPH_OP_SQRT, sq);
    gval *clip = mdl_select(g, mdl_cmp(g, norm, mdl_scalar(g, CLIP_NORM, BASE_DT_F32), "LT", true),
                            mdl_scalar(g, 1, BASE_DT_F32), mdl_div(g, mdl_scalar(g, CLIP_NORM, BASE_DT_F32), norm));
    gval *step = x->args[a_step];
    gval *tf = mdl_convert(g, mdl_add(g, step, i32(g, 1)), BASE_DT_F32);
    /* 1 - b^t = 1 - exp(t ln b) */
    gval *bc1 = mdl_sub(g, mdl_scalar(g, 1, BASE_DT_F32), mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_scale(g, tf, log(ADAM_B1))));
    gval *bc2 = mdl_sub(g, mdl_scalar(g, 1, BASE_DT_F32), mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_scale(g, tf, log(ADAM_B2))));
    gval *newp[MDL_MAX_WEIGHTS], *newm[MDL_MAX_WEIGHTS], *newv[MDL_MAX_WEIGHTS];
    for (int k = 0; k < n_tr; k++) {
        gval *p = x->args[x->w_arg[tr[k]]];
        int r = mdl_rank(p);
        gval *gr = mdl_mul(g, mdl_convert(g, grad[tr[k]], mdt), mdl_bcast_to(g, mdl_convert(g, clip, mdt), p, NULL));
        (void)r;
        gval *mo = x->args[a_m[k]], *vo = x->args[a_v[k]];
        gval *mn = mdl_add(g, mdl_scale(g, mo, ADAM_B1), mdl_scale(g, gr, 1 - ADAM_B1));
        gval *vn = mdl_add(g, mdl_scale(g, vo, ADAM_B2), mdl_scale(g, mdl_mul(g, gr, gr), 1 - ADAM_B2));
        gval *mh = mdl_div(g, mn, mdl_bcast_to(g, mdl_convert(g, bc1, mdt), mn, NULL));
        gval *vh = mdl_div(g, vn, mdl_bcast_to(g, mdl_convert(g, bc2, mdt), vn, NULL));
        gval *upd = mdl_div(g, mh, mdl_add(g, mdl_un(g, GRAPH_OP_SQRT, vh), mdl_splat_like(g, ADAM_EPS, vh)));
        upd = mdl_add(g, upd, mdl_scale(g, p, ADAM_WD));
        newp[k] = mdl_sub(g, p, mdl_scale(g, upd, ADAM_LR));
        newm[k] = mn;
        newv[k] = vn;
    }
    for (int k = 0; k < n_tr; k++) ret[nr++] = newp[k];
    for (int k = 0; k < n_tr; k++) ret[nr++] = newm[k];
    for (int k = 0; k < n_tr; k++) ret[nr++] = newv[k];
    ret[nr++] = mdl_add(g, step, i32(g, 1));
    graph_builder_return(g->b, ret, nr);
    return BASE_OK;
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
    TRY(check_layout(c, w, diag));
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
