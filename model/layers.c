/* model: the decoder layer of each family, written with emit.c's helpers.
 *
 * Shapes: x [B, S, D] in the activation type (bf16); a weight is used in
 * that type (a training step's f32 master slice is converted at its use, so
 * its gradient comes back in f32 through the convert).  Norms, RoPE, the
 * softmax and the routing run in f32, every matmul in the activation type
 * (f32 accumulation), as MaxText's defaults do (base.yml: dtype bfloat16,
 * cast_logits_to_fp32).  docs/model.md describes each family. */
#include "model/mdl_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* MaxText attention_op.py DEFAULT_MASK_VALUE = -0.7 * float32 max: masked
 * scores, finite so that a row stays defined */
#define MASK_VALUE (-0.7 * (double)FLT_MAX)

static gval *W(struct mdl_gen *g, gval *w) { return mdl_convert(g, w, g->dt); }

static gval *add_bias(struct mdl_gen *g, gval *y, gval *bias)
{
    if (!bias) return y;
    int r = mdl_rank(y);
    return mdl_add(g, y, mdl_bcast_to(g, W(g, bias), y, (int64_t[]){r - 1}));
}

/* x [..., K] @ w [K, N] (+ b) */
static gval *proj(struct mdl_gen *g, gval *x, gval *w, gval *b) { return add_bias(g, mdl_matmul(g, x, W(g, w)), b); }

static gval *norm_impl(struct mdl_gen *g, gval *x, gval *scale, gval *bias, bool layernorm)
{
    if (!x) return NULL;
    int r = mdl_rank(x);
    int64_t last = r - 1, n = mdl_dim(x, r - 1);
    int64_t kept[GRAPH_MAX_RANK];
    for (int i = 0; i < r - 1; i++) kept[i] = i;
    gval *xf = mdl_convert(g, x, BASE_DT_F32);
    if (layernorm) {
        gval *mean = mdl_scale(g, mdl_reduce(g, xf, GRAPH_OP_ADD, 1, &last), 1.0 / (double)n);
        xf = mdl_sub(g, xf, mdl_bcast_to(g, mean, xf, kept));
    }
    gval *ms = mdl_scale(g, mdl_reduce(g, mdl_mul(g, xf, xf), GRAPH_OP_ADD, 1, &last), 1.0 / (double)n);
    gval *rs = mdl_un(g, GRAPH_OP_RSQRT, mdl_add(g, ms, mdl_splat_like(g, g->c->norm_eps, ms)));
    gval *y = mdl_mul(g, xf, mdl_bcast_to(g, rs, xf, kept));
    y = mdl_mul(g, y, mdl_bcast_to(g, mdl_convert(g, scale, BASE_DT_F32), y, &last));
    if (bias) y = mdl_add(g, y, mdl_bcast_to(g, mdl_convert(g, bias, BASE_DT_F32), y, &last));
    return mdl_convert(g, y, g->dt);
}

gval *mdl_norm(struct mdl_gen *g, gval *x, gval *scale, gval *bias)
{
    return norm_impl(g, x, scale, bias, g->c->layernorm);
}

/* RMSNorm whatever the family (MLA's q/kv norms, Qwen3's qk-norm) */
static gval *rms_norm(struct mdl_gen *g, gval *x, gval *scale) { return norm_impl(g, x, scale, NULL, false); }

void mdl_rope_tables(struct mdl_gen *g, int64_t s, int64_t rope_dim, gval *p0, gval **cos, gval **sin)
{
    int64_t h = rope_dim / 2;
    int64_t dims[2] = {s, h};
    /* inv_freq[j] = theta^(-2j / rope_dim) = exp(-2j ln(theta) / rope_dim) */
    gval *j = mdl_iota(g, BASE_DT_F32, 2, dims, 1);
    gval *inv = mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_scale(g, j, -2.0 * log(g->c->rope_theta) / (double)rope_dim));
    gval *pos = mdl_iota(g, BASE_DT_SI32, 2, dims, 0);
    if (p0) pos = mdl_add(g, pos, mdl_bcast(g, p0, 2, dims, NULL));
    gval *ang = mdl_mul(g, mdl_convert(g, pos, BASE_DT_F32), inv);
    *cos = mdl_un(g, GRAPH_OP_COSINE, ang);
    *sin = mdl_un(g, GRAPH_OP_SINE, ang);
}

/* Rotate-half RoPE on x [B, S, N, R] (f32 inside) with tables [S, R/2]. */
static gval *rope(struct mdl_gen *g, gval *x, gval *cos, gval *sin)
{
    if (!x) return NULL;
    int64_t r = mdl_dim(x, 3), h = r / 2;
    gval *xf = mdl_convert(g, x, BASE_DT_F32);
    gval *x1 = mdl_slice(g, xf, 3, 0, h), *x2 = mdl_slice(g, xf, 3, h, r);
    int64_t bd[2] = {1, 3};
    gval *c = mdl_bcast_to(g, cos, x1, bd), *s = mdl_bcast_to(g, sin, x1, bd);
    gval *o1 = mdl_sub(g, mdl_mul(g, x1, c), mdl_mul(g, x2, s));
    gval *o2 = mdl_add(g, mdl_mul(g, x2, c), mdl_mul(g, x1, s));
    return mdl_convert(g, mdl_concat(g, (gval *[]){o1, o2}, 2, 3), mdl_elem(x));
}

/* The causal (and sliding-window) mask [S, T]: key t visible to query
 * q0 + s when t <= q0 + s and, with a window, t > q0 + s - window. */
static gval *attn_mask(struct mdl_gen *g, int64_t s, int64_t t, gval *q0, gval *window)
{
    int64_t dims[2] = {s, t};
    gval *q = mdl_iota(g, BASE_DT_SI32, 2, dims, 0);
    if (q0) q = mdl_add(g, q, mdl_bcast(g, q0, 2, dims, NULL));
    gval *k = mdl_iota(g, BASE_DT_SI32, 2, dims, 1);
    gval *m = mdl_cmp(g, k, q, "LE", false);
    if (window) {
        gval *lo = mdl_sub(g, q, mdl_bcast(g, window, 2, dims, NULL));
        m = mdl_bin(g, GRAPH_OP_AND, m, mdl_cmp(g, k, lo, "GT", false));
    }
    return m;
}

/* The window of this layer: gpt-oss alternates a sliding window (even
 * layers) with full attention; a scalar i32 or NULL. */
static gval *layer_window(struct mdl_gen *g, struct mdl_layer_io *io)
{
    if (g->c->sliding_window <= 0) return NULL;
    gval *two = mdl_scalar(g, 2, BASE_DT_SI32);
    gval *odd = mdl_cmp(g, mdl_bin(g, GRAPH_OP_REMAINDER, io->layer, two), mdl_scalar(g, 0, BASE_DT_SI32), "NE", false);
    /* a full layer: a window longer than any sequence */
    return mdl_select(g, odd, mdl_scalar(g, (double)(1 << 30), BASE_DT_SI32),
                      mdl_scalar(g, (double)g->c->sliding_window, BASE_DT_SI32));
}

/* Softmax over the last dim of scores (f32) where mask (broadcast by
 * mask_bd to the scores) holds; sinks (broadcast like the scores without
 * the last dim, f32) join the denominator.  Returns probabilities in dt. */
static gval *masked_softmax(struct mdl_gen *g, gval *sc, gval *mask, const int64_t *mask_bd, gval *sinks)
{
    int r = mdl_rank(sc);
    int64_t last = r - 1, kept[GRAPH_MAX_RANK];
    for (int i = 0; i < r - 1; i++) kept[i] = i;
    gval *mb = mdl_bcast_to(g, mask, sc, mask_bd);
    sc = mdl_select(g, mb, sc, mdl_splat_like(g, MASK_VALUE, sc));
    gval *m = mdl_reduce(g, sc, GRAPH_OP_MAXIMUM, 1, &last);
    if (sinks) m = mdl_bin(g, GRAPH_OP_MAXIMUM, m, sinks);
    mdl_stop(g, m); /* the softmax does not depend on it: jax.nn.softmax stops its gradient */
    gval *e = mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_sub(g, sc, mdl_bcast_to(g, m, sc, kept)));
    gval *den = mdl_reduce(g, e, GRAPH_OP_ADD, 1, &last);
    if (sinks) den = mdl_add(g, den, mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_sub(g, sinks, m)));
    gval *p = mdl_div(g, e, mdl_bcast_to(g, den, e, kept));
    return mdl_convert(g, p, g->dt);
}

/* decode: writes x [B, 1, ...] into the stacked cache at (li, :, q_pos),
 * keeps the new stack in io, and returns the layer's cache [B, T, ...]. */
static gval *cache_write(struct mdl_gen *g, struct mdl_layer_io *io, gval *x, bool key)
{
    gval *st = key ? io->k_stack : io->v_stack;
    int r = mdl_rank(st);
    int64_t dims[GRAPH_MAX_RANK];
    dims[0] = 1;
    for (int i = 0; i < mdl_rank(x); i++) dims[i + 1] = mdl_dim(x, i);
    gval *idx[GRAPH_MAX_RANK] = {io->li, NULL, io->q_pos};
    gval *ns = mdl_dupdate(g, st, mdl_reshape(g, x, r, dims), idx);
    if (key) io->k_new = ns;
    else io->v_new = ns;
    return mdl_layer_slice(g, ns, io->li);
}

/* Index of weight `name` of this layer's group in w[] (NULL when absent). */
#define LW(name) lw(g, group, w, name)
static gval *lw(struct mdl_gen *g, int group, gval *const *w, const char *name)
{
    int i = mdl_weight_find(&g->ws, group, name);
    return i >= 0 ? w[i] : NULL;
}

/* Grouped-query attention (MHA when kv_heads == heads).  xn [B, S, D]. */
static gval *attention(struct mdl_gen *g, int group, gval *xn, gval *const *w, struct mdl_layer_io *io)
{
    const struct mdl_config *c = g->c;
    int64_t b = mdl_dim(xn, 0), s = mdl_dim(xn, 1), h = c->heads, kv = c->kv_heads, hd = c->head_dim, gr = h / kv;
    gval *q = proj(g, xn, LW("wq"), LW("bq"));
    gval *k = proj(g, xn, LW("wk"), LW("bk"));
    gval *v = proj(g, xn, LW("wv"), LW("bv"));
    q = mdl_reshape(g, q, 4, (int64_t[]){b, s, h, hd});
    k = mdl_reshape(g, k, 4, (int64_t[]){b, s, kv, hd});
    v = mdl_reshape(g, v, 4, (int64_t[]){b, s, kv, hd});
    if (c->qk_norm) {
        q = rms_norm(g, q, LW("q_norm"));
        k = rms_norm(g, k, LW("k_norm"));
    }
    if (io->cos) {
        q = rope(g, q, io->cos, io->sin);
        k = rope(g, k, io->cos, io->sin);
    }
    gval *kk = k, *vv = v;
    int64_t t = s;
    if (g->w->kind == MDL_DECODE) {
        /* the token's keys and values written at q_pos, then the layer's
         * whole cache [B, T, KV, hd] attended to */
        kk = cache_write(g, io, k, true);
        vv = cache_write(g, io, v, false);
        t = mdl_dim(kk, 1);
    } else if (io->cache) {
        io->k_new = k;
        io->v_new = v;
    }
    /* queries scaled by 1 / sqrt(head_dim) (MaxText scales the query) */
    q = mdl_scale(g, q, 1.0 / sqrt((double)hd));
    gval *mask = attn_mask(g, s, t, g->w->kind == MDL_DECODE ? io->q_pos : NULL, layer_window(g, io));
    gval *sk = c->attention_sinks ? mdl_convert(g, LW("sinks"), BASE_DT_F32) : NULL;
    gval *o;
    if (c->kv_heads != h && g->w->par.tp > 1 && c->kv_heads % g->w->par.tp) {
        /* tensor parallel over more ways than kv heads: each kv head
         * repeated for its query heads (Megatron keeps the kv heads whole
         * on every rank), attention per query head, which tp splits */
        int64_t td[5] = {b, t, kv, gr, hd};
        kk = mdl_reshape(g, mdl_bcast(g, kk, 5, td, (int64_t[]){0, 1, 2, 4}), 4, (int64_t[]){b, t, h, hd});
        vv = mdl_reshape(g, mdl_bcast(g, vv, 5, td, (int64_t[]){0, 1, 2, 4}), 4, (int64_t[]){b, t, h, hd});
        /* [B, H, S, T] */
        gval *sc = mdl_dot(g, q, kk, 2, (int64_t[]){0, 2}, (int64_t[]){0, 2}, 1, (int64_t[]){3}, (int64_t[]){3});
        sc = mdl_convert(g, sc, BASE_DT_F32);
        gval *sinks = sk ? mdl_bcast(g, sk, 3, (int64_t[]){b, h, s}, (int64_t[]){1}) : NULL;
        gval *p = masked_softmax(g, sc, mask, (int64_t[]){2, 3}, sinks);
        o = mdl_dot(g, p, vv, 2, (int64_t[]){0, 1}, (int64_t[]){0, 2}, 1, (int64_t[]){3}, (int64_t[]){1});
        o = mdl_transpose(g, o, (int64_t[]){0, 2, 1, 3});
    } else {
        /* the query heads of a kv head [B, KV, G, S, hd]: the sequence the
         * innermost free dim of the score and value matmuls (their rows),
         * not the few query heads per kv head */
        gval *q5 = mdl_transpose(g, mdl_reshape(g, q, 5, (int64_t[]){b, s, kv, gr, hd}), (int64_t[]){0, 2, 3, 1, 4});
        /* [B, KV, G, S, T] */
        gval *sc = mdl_dot(g, q5, kk, 2, (int64_t[]){0, 1}, (int64_t[]){0, 2}, 1, (int64_t[]){4}, (int64_t[]){3});
        sc = mdl_convert(g, sc, BASE_DT_F32);
        gval *sinks = NULL;
        if (sk) sinks = mdl_bcast(g, mdl_reshape(g, sk, 2, (int64_t[]){kv, gr}), 4, (int64_t[]){b, kv, gr, s},
                                  (int64_t[]){1, 2});
        gval *p = masked_softmax(g, sc, mask, (int64_t[]){3, 4}, sinks);
        /* [B, KV, G, S, hd] */
        o = mdl_dot(g, p, vv, 2, (int64_t[]){0, 1}, (int64_t[]){0, 2}, 1, (int64_t[]){4}, (int64_t[]){1});
        o = mdl_transpose(g, o, (int64_t[]){0, 3, 1, 2, 4});
    }
    o = mdl_reshape(g, o, 3, (int64_t[]){b, s, h * hd});
    return proj(g, o, LW("wo"), LW("bo"));
}

/* DeepSeek-V3 multi-head latent attention.  Training and prefill expand the
 * latent to per-head keys and values; decode attends in the latent space
 * with the up-projections absorbed into the query and the output, as
 * DeepSeek-V3's inference/model.py (attn_impl "absorb") does.  The caches
 * hold the normalised latent [B, T, kv_lora_rank] and the rotated shared
 * key [B, T, rope]. */
static gval *mla(struct mdl_gen *g, int group, gval *xn, gval *const *w, struct mdl_layer_io *io)
{
    const struct mdl_config *c = g->c;
    int64_t b = mdl_dim(xn, 0), s = mdl_dim(xn, 1), h = c->heads;
    int64_t nope = c->qk_nope_head_dim, rp = c->qk_rope_head_dim, vd = c->v_head_dim, kvr = c->kv_lora_rank;
    double scale = 1.0 / sqrt((double)(nope + rp));
    gval *cq = rms_norm(g, proj(g, xn, LW("wq_a"), NULL), LW("q_norm"));
    gval *q = mdl_reshape(g, proj(g, cq, LW("wq_b"), NULL), 4, (int64_t[]){b, s, h, nope + rp});
    gval *q_nope = mdl_slice(g, q, 3, 0, nope), *q_rope = mdl_slice(g, q, 3, nope, nope + rp);
    q_rope = rope(g, q_rope, io->cos, io->sin);
    gval *kva = proj(g, xn, LW("wkv_a"), NULL);
    gval *ckv = rms_norm(g, mdl_slice(g, kva, 2, 0, kvr), LW("kv_norm"));
    gval *kr = mdl_reshape(g, mdl_slice(g, kva, 2, kvr, kvr + rp), 4, (int64_t[]){b, s, 1, rp});
    kr = mdl_reshape(g, rope(g, kr, io->cos, io->sin), 3, (int64_t[]){b, s, rp});
    gval *wkvb = mdl_reshape(g, W(g, LW("wkv_b")), 3, (int64_t[]){kvr, h, nope + vd});
    if (g->w->kind == MDL_DECODE) {
        gval *cc = cache_write(g, io, ckv, true), *rc = cache_write(g, io, kr, false);
        int64_t t = mdl_dim(cc, 1);
        gval *w_uk = mdl_slice(g, wkvb, 2, 0, nope), *w_uv = mdl_slice(g, wkvb, 2, nope, nope + vd);
        /* q in the latent space: [H, B, S, kvr] */
        gval *ql = mdl_dot(g, q_nope, w_uk, 1, (int64_t[]){2}, (int64_t[]){1}, 1, (int64_t[]){3}, (int64_t[]){2});
        /* [B, H, S, T] */
        gval *s1 = mdl_dot(g, ql, cc, 1, (int64_t[]){1}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){2});
        gval *s2 = mdl_dot(g, q_rope, rc, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){2});
        s2 = mdl_transpose(g, s2, (int64_t[]){0, 2, 1, 3});
        gval *sc = mdl_scale(g, mdl_add(g, mdl_convert(g, s1, BASE_DT_F32), mdl_convert(g, s2, BASE_DT_F32)), scale);
        gval *p = masked_softmax(g, sc, attn_mask(g, s, t, io->q_pos, NULL), (int64_t[]){2, 3}, NULL);
        /* [B, H, S, kvr] then [H, B, S, vd] */
        gval *ol = mdl_dot(g, p, cc, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){1});
        gval *o = mdl_dot(g, ol, w_uv, 1, (int64_t[]){1}, (int64_t[]){1}, 1, (int64_t[]){3}, (int64_t[]){0});
        o = mdl_transpose(g, o, (int64_t[]){1, 2, 0, 3});
        o = mdl_reshape(g, o, 3, (int64_t[]){b, s, h * vd});
        return proj(g, o, LW("wo"), NULL);
    }
    if (io->cache) {
        io->k_new = ckv;
        io->v_new = kr;
    }
    /* [B, S, H, nope + vd] */
    gval *kvb = mdl_dot(g, ckv, wkvb, 0, NULL, NULL, 1, (int64_t[]){2}, (int64_t[]){0});
    gval *k_nope = mdl_slice(g, kvb, 3, 0, nope), *v = mdl_slice(g, kvb, 3, nope, nope + vd);
    gval *k_rope = mdl_bcast(g, kr, 4, (int64_t[]){b, s, h, rp}, (int64_t[]){0, 1, 3});
    gval *k = mdl_concat(g, (gval *[]){k_nope, k_rope}, 2, 3);
    gval *qq = mdl_concat(g, (gval *[]){q_nope, q_rope}, 2, 3);
    qq = mdl_scale(g, qq, scale);
    /* [B, H, S, T] */
    gval *sc = mdl_dot(g, qq, k, 2, (int64_t[]){0, 2}, (int64_t[]){0, 2}, 1, (int64_t[]){3}, (int64_t[]){3});
    sc = mdl_convert(g, sc, BASE_DT_F32);
    gval *p = masked_softmax(g, sc, attn_mask(g, s, s, NULL, NULL), (int64_t[]){2, 3}, NULL);
    /* [B, H, S, vd] */
    gval *o = mdl_dot(g, p, v, 2, (int64_t[]){0, 1}, (int64_t[]){0, 2}, 1, (int64_t[]){3}, (int64_t[]){1});
    o = mdl_transpose(g, o, (int64_t[]){0, 2, 1, 3});
    o = mdl_reshape(g, o, 3, (int64_t[]){b, s, h * vd});
    return proj(g, o, LW("wo"), NULL);
}

/* silu(gate) * up; gpt-oss: clamp(gate, max=limit), clamp(up, -limit,
 * limit), gate * sigmoid(1.702 gate) * (up + 1) (MaxText moe.py
 * apply_ffn_activation for GPT_OSS). */
static gval *glu(struct mdl_gen *g, gval *gate, gval *up)
{
    double lim = g->c->swiglu_limit;
    if (lim > 0) {
        gate = mdl_clamp(g, mdl_scalar(g, -base_float_format(g->dt)->max_finite, g->dt), gate, mdl_scalar(g, lim, g->dt));
        up = mdl_clamp(g, mdl_scalar(g, -lim, g->dt), up, mdl_scalar(g, lim, g->dt));
        gval *act = mdl_mul(g, gate, mdl_un(g, GRAPH_OP_LOGISTIC, mdl_scale(g, gate, 1.702)));
        return mdl_mul(g, act, mdl_add(g, up, mdl_splat_like(g, 1, up)));
    }
    return mdl_mul(g, mdl_mul(g, gate, mdl_un(g, GRAPH_OP_LOGISTIC, gate)), up);
}

/* GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as
 * jax.nn.gelu (approximate=True, MaxText's "gelu") and GPT-2 compute it. */
static gval *gelu(struct mdl_gen *g, gval *x)
{
    gval *x3 = mdl_mul(g, mdl_mul(g, x, x), x);
    gval *in = mdl_scale(g, mdl_add(g, x, mdl_scale(g, x3, 0.044715)), sqrt(2.0 / M_PI));
    gval *t = mdl_add(g, mdl_un(g, GRAPH_OP_TANH, in), mdl_splat_like(g, 1, x));
    return mdl_mul(g, mdl_scale(g, x, 0.5), t);
}

static gval *mlp(struct mdl_gen *g, int group, gval *xn, gval *const *w, const char *p)
{
    char a[40], bb[40], c3[40];
    if (g->c->gelu_mlp) {
        snprintf(a, sizeof a, "%sfc", p);
        snprintf(bb, sizeof bb, "%sfc_b", p);
        gval *h = gelu(g, proj(g, xn, LW(a), LW(bb)));
        snprintf(a, sizeof a, "%sproj", p);
        snprintf(bb, sizeof bb, "%sproj_b", p);
        return proj(g, h, LW(a), LW(bb));
    }
    snprintf(a, sizeof a, "%sgate", p);
    snprintf(bb, sizeof bb, "%sup", p);
    snprintf(c3, sizeof c3, "%sdown", p);
    gval *h = glu(g, proj(g, xn, LW(a), NULL), proj(g, xn, LW(bb), NULL));
    return proj(g, h, LW(c3), NULL);
}

/* Inclusive cumulative sum over dim 1 of x [G, N, E] (f32, small integer
 * counts), as two levels of triangular matmuls over blocks of at most 128:
 * within each block, then the blocks' totals.  Exact: the operands are 0/1
 * and counts <= 128, exact in bf16, and f32 accumulation sums integers
 * exactly.  (MaxText uses jnp.cumsum; its reduce_window costs N^2 here.) */
static gval *cumsum1(struct mdl_gen *g, gval *x)
{
    int64_t gg = mdl_dim(x, 0), n = mdl_dim(x, 1), e = mdl_dim(x, 2);
    int64_t n2 = n < 128 ? n : 128, n1 = (n + n2 - 1) / n2;
    if (n1 * n2 != n) x = mdl_pad(g, x, (int64_t[]){0, 0, 0}, (int64_t[]){0, n1 * n2 - n, 0});
    gval *xb = mdl_reshape(g, x, 4, (int64_t[]){gg, n1, n2, e});
    /* tri[i, j] = j <= i */
    int64_t td[2] = {n2, n2};
    gval *tri = mdl_select(g, mdl_cmp(g, mdl_iota(g, BASE_DT_SI32, 2, td, 1), mdl_iota(g, BASE_DT_SI32, 2, td, 0), "LE", false),
                           mdl_splat(g, 1, BASE_DT_F32, 2, td), mdl_splat(g, 0, BASE_DT_F32, 2, td));
    /* within blocks: [n2 (i), G, n1, E] */
    gval *in = mdl_dot(g, tri, xb, 0, NULL, NULL, 1, (int64_t[]){1}, (int64_t[]){2});
    in = mdl_transpose(g, in, (int64_t[]){1, 2, 0, 3});
    if (n1 > 1) {
        gval *tot = mdl_reduce(g, xb, GRAPH_OP_ADD, 1, (int64_t[]){2}); /* [G, n1, E] */
        int64_t bd2[2] = {n1, n1};
        gval *stri = mdl_select(g,
                                mdl_cmp(g, mdl_iota(g, BASE_DT_SI32, 2, bd2, 1), mdl_iota(g, BASE_DT_SI32, 2, bd2, 0), "LT", false),
                                mdl_splat(g, 1, BASE_DT_F32, 2, bd2), mdl_splat(g, 0, BASE_DT_F32, 2, bd2));
        gval *before = mdl_dot(g, stri, tot, 0, NULL, NULL, 1, (int64_t[]){1}, (int64_t[]){1}); /* [n1, G, E] */
        before = mdl_transpose(g, before, (int64_t[]){1, 0, 2});
        in = mdl_add(g, in, mdl_bcast_to(g, before, in, (int64_t[]){0, 1, 3}));
    }
    gval *r = mdl_reshape(g, in, 3, (int64_t[]){gg, n1 * n2, e});
    if (n1 * n2 != n) r = mdl_slice(g, r, 1, 0, n);
    return r;
}

/* The router: weights [G, T, k] (f32, differentiable) and expert indices
 * [G, T, k] (i32) from x [G, T, D]. */
static void route(struct mdl_gen *g, int group, gval *x, gval *const *w, gval **weights, gval **idx)
{
    const struct mdl_config *c = g->c;
    int64_t gg = mdl_dim(x, 0), t = mdl_dim(x, 1), e = c->experts, k = c->experts_per_token;
    gval *logits = mdl_convert(g, proj(g, x, LW("router"), LW("router_b")), BASE_DT_F32); /* [G, T, E] */
    int64_t last2 = 2, kept2[2] = {0, 1};
    gval *vals = NULL;
    switch (c->router) {
    case MDL_ROUTER_TOPK_SOFTMAX: {
        mdl_top_k(g, logits, k, &vals, idx);
        gval *m = mdl_reduce(g, vals, GRAPH_OP_MAXIMUM, 1, &last2);
        mdl_stop(g, m);
        gval *ex = mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_sub(g, vals, mdl_bcast_to(g, m, vals, kept2)));
        *weights = mdl_div(g, ex, mdl_bcast_to(g, mdl_reduce(g, ex, GRAPH_OP_ADD, 1, &last2), ex, kept2));
        return;
    }
    case MDL_ROUTER_SOFTMAX_TOPK: {
        gval *m = mdl_reduce(g, logits, GRAPH_OP_MAXIMUM, 1, &last2);
        mdl_stop(g, m);
        gval *ex = mdl_un(g, GRAPH_OP_EXPONENTIAL, mdl_sub(g, logits, mdl_bcast_to(g, m, logits, kept2)));
        gval *pr = mdl_div(g, ex, mdl_bcast_to(g, mdl_reduce(g, ex, GRAPH_OP_ADD, 1, &last2), ex, kept2));
        mdl_top_k(g, pr, k, &vals, idx);
        *weights = mdl_div(g, vals, mdl_bcast_to(g, mdl_reduce(g, vals, GRAPH_OP_ADD, 1, &last2), vals, kept2));
        return;
    }
    case MDL_ROUTER_SIGMOID_GROUP: {
        /* DeepSeek-V3: scores = sigmoid(logits); selection on scores + the
         * correction bias, restricted to the topk_group groups whose two best
         * experts score highest; weights = the scores of the chosen experts,
         * normalised, times routed_scaling_factor */
        gval *sco = mdl_un(g, GRAPH_OP_LOGISTIC, logits);
        gval *sel = mdl_add(g, sco, mdl_bcast_to(g, mdl_convert(g, LW("router_corr"), BASE_DT_F32), sco, &last2));
        mdl_stop(g, sel);
        int64_t ng = c->router_groups, per = e / ng, tg = c->router_topk_groups;
        gval *sg = mdl_reshape(g, sel, 4, (int64_t[]){gg, t, ng, per});
        gval *top2, *i2;
        mdl_top_k(g, sg, 2, &top2, &i2);
        gval *gs = mdl_reduce(g, top2, GRAPH_OP_ADD, 1, (int64_t[]){3}); /* [G, T, ng] */
        gval *gv, *gi;
        mdl_top_k(g, gs, tg, &gv, &gi);
        gval *gm = mdl_reduce(g, mdl_one_hot(g, gi, ng, BASE_DT_F32), GRAPH_OP_ADD, 1, (int64_t[]){2}); /* [G, T, ng] */
        gval *em = mdl_reshape(g, mdl_bcast(g, gm, 4, (int64_t[]){gg, t, ng, per}, (int64_t[]){0, 1, 2}), 3,
                               (int64_t[]){gg, t, e});
        gval *masked = mdl_select(g, mdl_cmp(g, em, mdl_splat_like(g, 0, em), "GT", true), sel,
                                  mdl_splat_like(g, MASK_VALUE, sel));
        mdl_stop(g, masked);
        gval *mv;
        mdl_top_k(g, masked, k, &mv, idx);
        gval *oh = mdl_one_hot(g, *idx, e, BASE_DT_F32); /* [G, T, k, E] */
        gval *wv = mdl_reduce(g, mdl_mul(g, oh, mdl_bcast(g, sco, 4, (int64_t[]){gg, t, k, e}, (int64_t[]){0, 1, 3})),
                              GRAPH_OP_ADD, 1, (int64_t[]){3});
        gval *den = mdl_add(g, mdl_reduce(g, wv, GRAPH_OP_ADD, 1, &last2), mdl_splat(g, 1e-20, BASE_DT_F32, 2, (int64_t[]){gg, t}));
        *weights = mdl_scale(g, mdl_div(g, wv, mdl_bcast_to(g, den, wv, kept2)), c->routed_scale);
        return;
    }
    default:
        BASE_ASSERT(!"router");
    }
}

/* A MoE MLP, MaxText's dense_matmul path with capacity (moe.py
 * generate_masks / dense_matmul, GShard): tokens are grouped (a training or
 * prefill step: per sequence; decode: the batch's tokens), each expert takes
 * at most C tokens per group in token order, and dispatch and combine are
 * one-hot einsums: "GTM,GTEC->EGCM", per-expert SwiGLU, "EGCM,GTEC->GTM".
 * Expert parallelism shards E of the dispatched tensors (an all_to_all). */
static gval *moe(struct mdl_gen *g, int group, gval *xn, gval *const *w)
{
    const struct mdl_config *c = g->c;
    int64_t b = mdl_dim(xn, 0), s = mdl_dim(xn, 1), d = c->hidden, e = c->experts, k = c->experts_per_token;
    int64_t gg = g->w->kind == MDL_DECODE ? 1 : b, t = b * s / gg;
    int64_t cap = mdl_capacity(c, t);
    gval *x = mdl_reshape(g, xn, 3, (int64_t[]){gg, t, d});
    gval *wts, *idx;
    route(g, group, x, w, &wts, &idx);
    /* positions in each expert's queue: cumsum over (token, choice) */
    gval *oh = mdl_one_hot(g, idx, e, BASE_DT_F32); /* [G, T, k, E] */
    gval *fused = mdl_reshape(g, oh, 3, (int64_t[]){gg, t * k, e});
    gval *cnt = cumsum1(g, fused);
    gval *keep = mdl_select(g, mdl_cmp(g, cnt, mdl_splat_like(g, (double)cap, cnt), "LE", true), fused,
                            mdl_splat_like(g, 0, fused));
    gval *pos = mdl_mul(g, keep, cnt);
    gval *pos_te = mdl_reduce(g, mdl_reshape(g, pos, 4, (int64_t[]){gg, t, k, e}), GRAPH_OP_ADD, 1, (int64_t[]){2});
    gval *keep_te = mdl_reduce(g, mdl_reshape(g, keep, 4, (int64_t[]){gg, t, k, e}), GRAPH_OP_ADD, 1, (int64_t[]){2});
    mdl_stop(g, pos_te);
    mdl_stop(g, keep_te);
    /* the gate of each (token, expert): its routing weight if kept */
    gval *gate = mdl_reduce(g, mdl_mul(g, oh, mdl_bcast(g, wts, 4, (int64_t[]){gg, t, k, e}, (int64_t[]){0, 1, 2})),
                            GRAPH_OP_ADD, 1, (int64_t[]){2});
    gate = mdl_mul(g, gate, keep_te);
    /* dispatch[g, t, e, c] = pos_te == c + 1 */
    int64_t dd[4] = {gg, t, e, cap};
    gval *slot = mdl_add(g, mdl_iota(g, BASE_DT_F32, 4, dd, 3), mdl_splat(g, 1, BASE_DT_F32, 4, dd));
    gval *disp = mdl_select(g, mdl_cmp(g, mdl_bcast(g, pos_te, 4, dd, (int64_t[]){0, 1, 2}), slot, "EQ", true),
                            mdl_splat(g, 1, BASE_DT_F32, 4, dd), mdl_splat(g, 0, BASE_DT_F32, 4, dd));
    mdl_stop(g, disp);
    gval *comb = mdl_convert(g, mdl_mul(g, disp, mdl_bcast(g, gate, 4, dd, (int64_t[]){0, 1, 2})), g->dt);
    gval *dispc = mdl_convert(g, disp, g->dt);
    /* [G, M, E, C] -> [E, G, C, M] */
    gval *xe = mdl_dot(g, x, dispc, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){1}, (int64_t[]){1});
    xe = mdl_transpose(g, xe, (int64_t[]){2, 0, 3, 1});
    /* experts: [E, G, C, F] */
    gval *wg = W(g, LW("we_gate")), *wu = W(g, LW("we_up")), *wd = W(g, LW("we_down"));
    gval *hg = mdl_dot(g, xe, wg, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){1});
    gval *hu = mdl_dot(g, xe, wu, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){1});
    if (c->expert_bias) {
        hg = mdl_add(g, hg, mdl_bcast_to(g, W(g, LW("be_gate")), hg, (int64_t[]){0, 3}));
        hu = mdl_add(g, hu, mdl_bcast_to(g, W(g, LW("be_up")), hu, (int64_t[]){0, 3}));
    }
    gval *hh = glu(g, hg, hu);
    gval *ye = mdl_dot(g, hh, wd, 1, (int64_t[]){0}, (int64_t[]){0}, 1, (int64_t[]){3}, (int64_t[]){1}); /* [E, G, C, M] */
    if (c->expert_bias) ye = mdl_add(g, ye, mdl_bcast_to(g, W(g, LW("be_down")), ye, (int64_t[]){0, 3}));
    /* combine: [G, T, M] */
    gval *y = mdl_dot(g, comb, ye, 1, (int64_t[]){0}, (int64_t[]){1}, 2, (int64_t[]){2, 3}, (int64_t[]){0, 2});
    y = mdl_reshape(g, y, 3, (int64_t[]){b, s, d});
    if (c->shared_experts > 0) y = mdl_add(g, y, mlp(g, group, xn, w, "ws_"));
    return y;
}

gval *mdl_layer(struct mdl_gen *g, int group, gval *x, gval *const *w, struct mdl_layer_io *io)
{
    gval *xn = mdl_norm(g, x, LW("attn_norm"), LW("attn_norm_b"));
    gval *a = g->c->family == MDL_FAMILY_MLA_MOE ? mla(g, group, xn, w, io) : attention(g, group, xn, w, io);
    x = mdl_add(g, x, a);
    xn = mdl_norm(g, x, LW("mlp_norm"), LW("mlp_norm_b"));
    gval *m = g->ws.groups[group].moe ? moe(g, group, xn, w) : mlp(g, group, xn, w, "w_");
    return mdl_add(g, x, m);
}

gval *mdl_head(struct mdl_gen *g, gval *x, gval *norm, gval *norm_b, gval *proj_w, bool proj_is_table)
{
    gval *xn = mdl_norm(g, x, norm, norm_b);
    int r = mdl_rank(xn);
    gval *l = proj_is_table ? mdl_dot(g, xn, W(g, proj_w), 0, NULL, NULL, 1, (int64_t[]){r - 1}, (int64_t[]){1})
                            : mdl_matmul(g, xn, W(g, proj_w));
    return mdl_convert(g, l, BASE_DT_F32);
}
