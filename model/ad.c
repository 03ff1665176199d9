/* model: a small reverse-mode pass over the ops the generator just built.
 *
 * The forward of a layer (or of the head) is built op by op in the current
 * block; mdl_ad_grad then walks those ops backwards, from the seeded output
 * cotangents, and appends each op's vector-Jacobian product to the same
 * block, reading the forward values (which are still in scope).  One rule
 * per op kind, as JAX's transpose rules state them (docs/model.md "The
 * backward").  Values marked with mdl_stop (the softmax's max, one-hot
 * masks, routing decisions) and values of integer or boolean type take no
 * cotangent, as jax.lax.stop_gradient and integer inputs do. */
#include "model/mdl_internal.h"

#include <stdlib.h>
#include <string.h>

static bool grow(struct mdl_gen *g, uint32_t need)
{
    if (need <= g->cap) return true;
    uint32_t cap = g->cap ? g->cap : 1024;
    while (cap < need) cap *= 2;
    uint8_t *s = realloc(g->stop, cap);
    if (!s) return false;
    g->stop = s;
    struct graph_value **c = realloc(g->ct, cap * sizeof *c);
    if (!c) return false;
    g->ct = c;
    memset(g->stop + g->cap, 0, cap - g->cap);
    memset(g->ct + g->cap, 0, (cap - g->cap) * sizeof *c);
    g->cap = cap;
    return true;
}

void mdl_stop(struct mdl_gen *g, gval *v)
{
    if (!v) return;
    if (!grow(g, v->id + 1)) {
        g->oom = true;
        return;
    }
    g->stop[v->id] |= 1;
}

/* bit 1 of stop[]: a value of the tape being differentiated (or a leaf asked
 * for); only those take cotangents */
static void set_live(struct mdl_gen *g, const gval *v, bool on)
{
    if (!v || !grow(g, v->id + 1)) {
        if (v) g->oom = true;
        return;
    }
    if (on) g->stop[v->id] |= 2;
    else g->stop[v->id] &= (uint8_t)~2u;
}

int mdl_ad_begin(struct mdl_gen *g) { return graph_builder_block(g->b)->n_ops; }

static bool differentiable(struct mdl_gen *g, const gval *v)
{
    if (!v || !base_dtype_is_float(v->type->elem)) return false;
    if (v->id >= g->cap || (g->stop[v->id] & 1) || !(g->stop[v->id] & 2)) return false;
    if (v->def && (v->def->kind == GRAPH_OP_CONSTANT || v->def->kind == GRAPH_OP_IOTA)) return false;
    return true;
}

/* ct[v] += d */
static void acc(struct mdl_gen *g, gval *v, gval *d)
{
    if (!d || !differentiable(g, v)) return;
    if (!grow(g, v->id + 1)) {
        g->oom = true;
        return;
    }
    if (!graph_type_equal(d->type, v->type)) d = mdl_convert(g, d, v->type->elem);
    g->ct[v->id] = g->ct[v->id] ? mdl_add(g, g->ct[v->id], d) : d;
}

static gval *get_ct(struct mdl_gen *g, const gval *v) { return v && v->id < g->cap ? g->ct[v->id] : NULL; }

static int list_attr(const struct graph_op *op, const struct graph_attr *dict, const char *field, const char *name,
                     int64_t *out)
{
    const struct graph_attr *a = dict ? graph_dict_get(dict, field) : graph_op_attr(op, name);
    int n = a ? graph_attr_as_i64_list(a, out, GRAPH_MAX_RANK) : 0;
    return n < 0 ? 0 : n;
}

static bool in_list(int64_t x, const int64_t *l, int n)
{
    for (int i = 0; i < n; i++)
        if (l[i] == x) return true;
    return false;
}

/* Rank of x among the sorted entries of l (how many entries are smaller). */
static int rank_in(int64_t x, const int64_t *l, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++) r += l[i] < x;
    return r;
}

/* dot_general's two transposes (JAX _dot_general_transpose_lhs / _rhs). */
static void dot_vjp(struct mdl_gen *g, const struct graph_op *op, gval *dy)
{
    gval *a = op->operands[0], *b = op->operands[1];
    const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
    int64_t lb[GRAPH_MAX_RANK], rb[GRAPH_MAX_RANK], lc[GRAPH_MAX_RANK], rc[GRAPH_MAX_RANK];
    int nb = list_attr(op, dn, "lhs_batching_dimensions", NULL, lb);
    list_attr(op, dn, "rhs_batching_dimensions", NULL, rb);
    int nc = list_attr(op, dn, "lhs_contracting_dimensions", NULL, lc);
    list_attr(op, dn, "rhs_contracting_dimensions", NULL, rc);
    int ra = a->type->rank, rbk = b->type->rank;
    int64_t lf[GRAPH_MAX_RANK], rf[GRAPH_MAX_RANK];
    int nlf = 0, nrf = 0;
    for (int i = 0; i < ra; i++)
        if (!in_list(i, lb, nb) && !in_list(i, lc, nc)) lf[nlf++] = i;
    for (int i = 0; i < rbk; i++)
        if (!in_list(i, rb, nb) && !in_list(i, rc, nc)) rf[nrf++] = i;
    int64_t ybatch[GRAPH_MAX_RANK], ylf[GRAPH_MAX_RANK], yrf[GRAPH_MAX_RANK];
    for (int i = 0; i < nb; i++) ybatch[i] = i;
    for (int i = 0; i < nlf; i++) ylf[i] = nb + i;
    for (int i = 0; i < nrf; i++) yrf[i] = nb + nlf + i;
    if (differentiable(g, a)) {
        /* dy [batch, lf, rf] . b over rf -> [batch, lf, b's contracting dims (sorted)] */
        gval *r = mdl_dot(g, dy, b, nb, ybatch, rb, nrf, yrf, rf);
        int64_t perm[GRAPH_MAX_RANK];
        for (int i = 0; i < nb; i++) perm[lb[i]] = i;
        for (int i = 0; i < nlf; i++) perm[lf[i]] = nb + i;
        for (int k = 0; k < nc; k++) perm[lc[k]] = nb + nlf + rank_in(rc[k], rc, nc);
        acc(g, a, mdl_transpose(g, r, perm));
    }
    if (differentiable(g, b)) {
        /* a . dy over lf -> [batch, a's contracting dims (sorted), rf] */
        gval *r = mdl_dot(g, a, dy, nb, lb, ybatch, nlf, lf, ylf);
        int64_t perm[GRAPH_MAX_RANK];
        for (int i = 0; i < nb; i++) perm[rb[i]] = i;
        for (int k = 0; k < nc; k++) perm[rc[k]] = nb + rank_in(lc[k], lc, nc);
        for (int i = 0; i < nrf; i++) perm[rf[i]] = nb + nc + i;
        acc(g, b, mdl_transpose(g, r, perm));
    }
}

/* The transpose of broadcast_in_dim: sum over the new and the expanded dims. */
static gval *unbroadcast(struct mdl_gen *g, gval *dy, const gval *x, const int64_t *bd)
{
    int r = dy->type->rank, rx = x->type->rank;
    int64_t red[GRAPH_MAX_RANK];
    int nr = 0;
    for (int d = 0; d < r; d++) {
        int src = -1;
        for (int i = 0; i < rx; i++)
            if (bd[i] == d) src = i;
        if (src < 0 || (x->type->dims[src] == 1 && dy->type->dims[d] != 1)) red[nr++] = d;
    }
    gval *s = nr ? mdl_reduce(g, dy, GRAPH_OP_ADD, nr, red) : dy;
    /* kept dims in result order: bd[i] of the operand dims not reduced */
    int64_t kept[GRAPH_MAX_RANK], kd[GRAPH_MAX_RANK];
    int nk = 0;
    for (int d = 0; d < r; d++)
        if (!in_list(d, red, nr)) {
            for (int i = 0; i < rx; i++)
                if (bd[i] == d) kept[nk] = i;
            kd[nk] = dy->type->dims[d];
            nk++;
        }
    /* operand order: a transpose when bd is not increasing, then ones back */
    int64_t perm[GRAPH_MAX_RANK], pd[GRAPH_MAX_RANK];
    int np = 0;
    for (int i = 0; i < rx; i++)
        for (int k = 0; k < nk; k++)
            if (kept[k] == i) {
                perm[np] = k;
                pd[np++] = kd[k];
            }
    s = mdl_reshape(g, s, nk, kd);
    s = mdl_transpose(g, s, perm);
    (void)pd;
    return mdl_reshape(g, s, rx, x->type->dims);
}

static gval *zeros_like(struct mdl_gen *g, const gval *v) { return mdl_splat_like(g, 0, v); }

static enum base_status vjp(struct mdl_gen *g, const struct graph_op *op, struct base_diag *diag)
{
    if (op->n_results < 1) return BASE_OK;
    gval *y = &op->results[0];
    gval *dy = get_ct(g, y);
    if (op->kind != GRAPH_OP_CHLO_TOP_K && !dy) return BASE_OK;
    gval *const *a = op->operands;
    switch (op->kind) {
    case GRAPH_OP_CONSTANT:
    case GRAPH_OP_IOTA:
    case GRAPH_OP_COMPARE:
        return BASE_OK;
    case GRAPH_OP_ADD:
        acc(g, a[0], dy);
        acc(g, a[1], dy);
        return BASE_OK;
    case GRAPH_OP_SUBTRACT:
        acc(g, a[0], dy);
        if (differentiable(g, a[1])) acc(g, a[1], mdl_un(g, GRAPH_OP_NEGATE, dy));
        return BASE_OK;
    case GRAPH_OP_MULTIPLY:
        if (differentiable(g, a[0])) acc(g, a[0], mdl_mul(g, dy, a[1]));
        if (differentiable(g, a[1])) acc(g, a[1], mdl_mul(g, dy, a[0]));
        return BASE_OK;
    case GRAPH_OP_DIVIDE:
        if (differentiable(g, a[0])) acc(g, a[0], mdl_div(g, dy, a[1]));
        if (differentiable(g, a[1])) acc(g, a[1], mdl_un(g, GRAPH_OP_NEGATE, mdl_div(g, mdl_mul(g, dy, y), a[1])));
        return BASE_OK;
    case GRAPH_OP_NEGATE:
        acc(g, a[0], mdl_un(g, GRAPH_OP_NEGATE, dy));
        return BASE_OK;
    case GRAPH_OP_EXPONENTIAL:
        acc(g, a[0], mdl_mul(g, dy, y));
        return BASE_OK;
    case GRAPH_OP_LOG:
        acc(g, a[0], mdl_div(g, dy, a[0]));
        return BASE_OK;
    case GRAPH_OP_RSQRT: /* d x^-1/2 = -1/2 x^-3/2 = -1/2 y^3 */
        acc(g, a[0], mdl_scale(g, mdl_mul(g, dy, mdl_mul(g, mdl_mul(g, y, y), y)), -0.5));
        return BASE_OK;
    case GRAPH_OP_SQRT:
        acc(g, a[0], mdl_div(g, mdl_scale(g, dy, 0.5), y));
        return BASE_OK;
    case GRAPH_OP_TANH:
        acc(g, a[0], mdl_mul(g, dy, mdl_sub(g, mdl_splat_like(g, 1, y), mdl_mul(g, y, y))));
        return BASE_OK;
    case GRAPH_OP_LOGISTIC:
        acc(g, a[0], mdl_mul(g, dy, mdl_mul(g, y, mdl_sub(g, mdl_splat_like(g, 1, y), y))));
        return BASE_OK;
    case GRAPH_OP_CONVERT:
        if (differentiable(g, a[0])) acc(g, a[0], mdl_convert(g, dy, a[0]->type->elem));
        return BASE_OK;
    case GRAPH_OP_SELECT:
        if (differentiable(g, a[1])) acc(g, a[1], mdl_select(g, a[0], dy, zeros_like(g, dy)));
        if (differentiable(g, a[2])) acc(g, a[2], mdl_select(g, a[0], zeros_like(g, dy), dy));
        return BASE_OK;
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM: {
        gval *p = mdl_cmp(g, a[0], a[1], op->kind == GRAPH_OP_MAXIMUM ? "GE" : "LE", true);
        if (differentiable(g, a[0])) acc(g, a[0], mdl_select(g, p, dy, zeros_like(g, dy)));
        if (differentiable(g, a[1])) acc(g, a[1], mdl_select(g, p, zeros_like(g, dy), dy));
        return BASE_OK;
    }
    case GRAPH_OP_CLAMP: { /* clamp(lo, x, hi): lo and hi constants here */
        gval *lo = a[0], *x = a[1], *hi = a[2];
        int64_t bd0[1] = {0};
        if (lo->type->rank == 0 && x->type->rank > 0) lo = mdl_bcast_to(g, lo, x, bd0);
        if (hi->type->rank == 0 && x->type->rank > 0) hi = mdl_bcast_to(g, hi, x, bd0);
        gval *in = mdl_bin(g, GRAPH_OP_AND, mdl_cmp(g, x, lo, "GE", true), mdl_cmp(g, x, hi, "LE", true));
        acc(g, x, mdl_select(g, in, dy, zeros_like(g, dy)));
        return BASE_OK;
    }
    case GRAPH_OP_BROADCAST_IN_DIM: {
        int64_t bd[GRAPH_MAX_RANK];
        list_attr(op, NULL, NULL, "broadcast_dimensions", bd);
        if (differentiable(g, a[0])) acc(g, a[0], unbroadcast(g, dy, a[0], bd));
        return BASE_OK;
    }
    case GRAPH_OP_RESHAPE:
        acc(g, a[0], mdl_reshape(g, dy, a[0]->type->rank, a[0]->type->dims));
        return BASE_OK;
    case GRAPH_OP_TRANSPOSE: {
        int64_t p[GRAPH_MAX_RANK], inv[GRAPH_MAX_RANK];
        int n = list_attr(op, NULL, NULL, "permutation", p);
        for (int i = 0; i < n; i++) inv[p[i]] = i;
        acc(g, a[0], mdl_transpose(g, dy, inv));
        return BASE_OK;
    }
    case GRAPH_OP_SLICE: {
        int64_t st[GRAPH_MAX_RANK], lim[GRAPH_MAX_RANK], str[GRAPH_MAX_RANK], lo[GRAPH_MAX_RANK], hi[GRAPH_MAX_RANK];
        int n = list_attr(op, NULL, NULL, "start_indices", st);
        list_attr(op, NULL, NULL, "limit_indices", lim);
        int ns = list_attr(op, NULL, NULL, "strides", str);
        for (int i = 0; i < n; i++) {
            if (ns > i && str[i] != 1)
                return graph_op_diag(diag, op, BASE_ERR_UNSUPPORTED, "the backward of a strided slice is not written");
            lo[i] = st[i];
            hi[i] = a[0]->type->dims[i] - lim[i];
        }
        acc(g, a[0], mdl_pad(g, dy, lo, hi));
        return BASE_OK;
    }
    case GRAPH_OP_CONCATENATE: {
        int64_t dim = 0;
        graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim);
        int64_t off = 0;
        for (int i = 0; i < op->n_operands; i++) {
            int64_t n = a[i]->type->dims[dim];
            if (differentiable(g, a[i])) acc(g, a[i], mdl_slice(g, dy, (int)dim, off, off + n));
            off += n;
        }
        return BASE_OK;
    }
    case GRAPH_OP_DOT_GENERAL:
        dot_vjp(g, op, dy);
        return BASE_OK;
    case GRAPH_OP_REDUCE: {
        const struct graph_op *body =
            op->n_regions == 1 && op->regions[0].blocks[0].n_ops >= 1 ? op->regions[0].blocks[0].ops[0] : NULL;
        if (op->n_operands != 2 || !body || body->kind != GRAPH_OP_ADD)
            return graph_op_diag(diag, op, BASE_ERR_UNSUPPORTED,
                                 "the backward of a reduce other than a sum is not written (stop its gradient)");
        int64_t rd[GRAPH_MAX_RANK], kept[GRAPH_MAX_RANK];
        int nr = list_attr(op, NULL, NULL, "dimensions", rd), nk = 0;
        for (int i = 0; i < a[0]->type->rank; i++)
            if (!in_list(i, rd, nr)) kept[nk++] = i;
        (void)nk;
        acc(g, a[0], mdl_bcast_to(g, dy, a[0], kept));
        return BASE_OK;
    }
    case GRAPH_OP_CHLO_TOP_K: { /* the values' transpose: a one-hot scatter back to the positions */
        if (!dy || !differentiable(g, a[0])) return BASE_OK;
        gval *idx = &op->results[1];
        int r = a[0]->type->rank;
        int64_t n = a[0]->type->dims[r - 1], k = y->type->dims[r - 1];
        gval *oh = mdl_one_hot(g, idx, n, dy->type->elem); /* [..., k, n] */
        int64_t dims[GRAPH_MAX_RANK], bd[GRAPH_MAX_RANK];
        for (int i = 0; i < r; i++) {
            dims[i] = y->type->dims[i];
            bd[i] = i;
        }
        dims[r] = n;
        gval *w = mdl_mul(g, oh, mdl_bcast(g, dy, r + 1, dims, bd));
        (void)k;
        acc(g, a[0], mdl_reduce(g, w, GRAPH_OP_ADD, 1, (int64_t[]){r - 1}));
        return BASE_OK;
    }
    default:
        return graph_op_diag(diag, op, BASE_ERR_UNSUPPORTED, "model: no backward rule for %s", op->name);
    }
}

enum base_status mdl_ad_grad(struct mdl_gen *g, int mark, gval *const *out, gval *const *dout, int n_out,
                             gval *const *x, gval **dx, int n_x, struct base_diag *diag)
{
    struct graph_block *blk = graph_builder_block(g->b);
    int end = blk->n_ops;
    /* clear the cotangents the tape's values may still hold from another pass */
    for (int i = mark; i < end; i++)
        for (int k = 0; k < blk->ops[i]->n_results; k++) {
            set_live(g, &blk->ops[i]->results[k], true);
            g->ct[blk->ops[i]->results[k].id] = NULL;
        }
    for (int i = 0; i < n_x; i++) {
        set_live(g, x[i], true);
        if (x[i]) g->ct[x[i]->id] = NULL;
    }
    if (g->oom) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n_out; i++) acc(g, out[i], dout[i]);
    enum base_status st = BASE_OK;
    for (int i = end - 1; st == BASE_OK && i >= mark; i--) st = vjp(g, blk->ops[i], diag);
    for (int i = 0; i < n_x; i++) {
        gval *d = get_ct(g, x[i]);
        dx[i] = d ? d : (x[i] ? zeros_like(g, x[i]) : NULL);
    }
    for (int i = mark; i < end; i++)
        for (int k = 0; k < blk->ops[i]->n_results; k++) set_live(g, &blk->ops[i]->results[k], false);
    for (int i = 0; i < n_x; i++) set_live(g, x[i], false);
    TRY(st);
    if (g->oom) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return BASE_OK;
}
