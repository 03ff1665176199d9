/* model: configurations, presets, the weight list, parameter and FLOP
 * counts, workloads and parallel layouts (their text forms). */
#include "model/mdl_internal.h"
#include "model/presets_list.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const family_names[] = {
#define X(e, name) name,
    MDL_FAMILIES(X)
#undef X
};
_Static_assert(ARRAY_LEN(family_names) == MDL_FAMILY_COUNT, "family names");

static const char *const router_names[] = {
#define X(e, name) name,
    MDL_ROUTERS(X)
#undef X
};
_Static_assert(ARRAY_LEN(router_names) == MDL_ROUTER_COUNT, "router names");

static const char *const workload_names[] = {
#define X(e, name) name,
    MDL_WORKLOADS(X)
#undef X
};
_Static_assert(ARRAY_LEN(workload_names) == MDL_WORKLOAD_COUNT, "workload names");

const char *mdl_family_name(enum mdl_family f)
{
    return (unsigned)f < MDL_FAMILY_COUNT ? family_names[f] : "?";
}

const char *mdl_workload_name(enum mdl_workload_kind k)
{
    return (unsigned)k < MDL_WORKLOAD_COUNT ? workload_names[k] : "?";
}

bool mdl_workload_lookup(const char *name, enum mdl_workload_kind *out)
{
    for (int i = 0; i < MDL_WORKLOAD_COUNT; i++)
        if (!strcmp(name, workload_names[i])) {
            *out = (enum mdl_workload_kind)i;
            return true;
        }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Presets                                                                   */

static const struct mdl_config presets[] = {
#define X(nm, fam, master, src, ...)                                                                 \
    {.name = nm, .family = MDL_FAMILY_##fam, .master_dtype = BASE_DT_##master, .source = src, __VA_ARGS__},
    MDL_PRESETS(X)
#undef X
};

int mdl_preset_count(void) { return (int)ARRAY_LEN(presets); }

const char *mdl_preset_name(int i) { return i >= 0 && i < mdl_preset_count() ? presets[i].name : NULL; }

/* Defaults for what the rows leave unset:
 *  - dtype bf16: MaxText base.yml `dtype: "bfloat16"` (activations), the
 *    NeMo/NxD runs' BF16 (S21);
 *  - norm_eps 1e-5: MaxText base.yml normalization_layer_epsilon (S52);
 *  - capacity_factor 1.25: MaxText's Mixtral tests on TPU run the dropping
 *    dense_matmul path with capacity_factor=1.25
 *    (tests/end_to_end/tpu/mixtral/8x7b/2_test_mixtral.sh, @e591f30);
 *  - routed_scale 1 (no scaling) unless the row gives DeepSeek's. */
static void fill_defaults(struct mdl_config *c)
{
    if (c->dtype == 0) c->dtype = BASE_DT_BF16;
    if (c->master_dtype == 0) c->master_dtype = BASE_DT_F32;
    if (c->norm_eps == 0) c->norm_eps = 1e-5;
    if (c->experts > 0 && c->capacity_factor == 0) c->capacity_factor = 1.25;
    if (c->routed_scale == 0) c->routed_scale = 1.0;
}

enum base_status mdl_preset_get(const char *name, struct mdl_config *out, struct base_diag *diag)
{
    for (int i = 0; i < mdl_preset_count(); i++)
        if (name && !strcmp(name, presets[i].name)) {
            *out = presets[i];
            fill_defaults(out);
            return BASE_OK;
        }
    char list[2048];
    size_t n = 0;
    list[0] = 0;
    for (int i = 0; i < mdl_preset_count() && n + 40 < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", presets[i].name);
    return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "unknown model preset '%s' (presets: %s)",
                         name ? name : "(null)", list);
}

/* ------------------------------------------------------------------------ */
/* Checking                                                                  */

static enum base_status bad(struct base_diag *d, const struct mdl_config *c, const char *field, const char *rule)
{
    return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "model %s: %s %s", c->name[0] ? c->name : "(config)", field,
                         rule);
}

enum base_status mdl_config_check(const struct mdl_config *c, struct base_diag *d)
{
    if ((unsigned)c->family >= MDL_FAMILY_COUNT) return bad(d, c, "family", "is not dense, moe or mla-moe");
    if (c->hidden <= 0) return bad(d, c, "hidden", "must be positive");
    if (c->layers <= 0) return bad(d, c, "layers", "must be positive");
    if (c->heads <= 0) return bad(d, c, "heads", "must be positive");
    if (c->vocab <= 0) return bad(d, c, "vocab", "must be positive");
    if (c->norm_eps <= 0) return bad(d, c, "norm_eps", "must be positive");
    if (!base_dtype_is_float(c->dtype)) return bad(d, c, "dtype", "must be a float type");
    if (!base_dtype_is_float(c->master_dtype)) return bad(d, c, "master_dtype", "must be a float type");
    if (c->family == MDL_FAMILY_MLA_MOE) {
        if (c->q_lora_rank <= 0 || c->kv_lora_rank <= 0)
            return bad(d, c, "q_lora_rank/kv_lora_rank", "must be positive for mla-moe");
        if (c->qk_nope_head_dim <= 0 || c->qk_rope_head_dim <= 0 || c->v_head_dim <= 0)
            return bad(d, c, "qk_nope_head_dim/qk_rope_head_dim/v_head_dim", "must be positive for mla-moe");
        if (c->qk_rope_head_dim % 2) return bad(d, c, "qk_rope_head_dim", "must be even (RoPE rotates pairs)");
    } else {
        if (c->kv_heads <= 0 || c->heads % c->kv_heads)
            return bad(d, c, "kv_heads", "must be positive and divide heads");
        if (c->head_dim <= 0) return bad(d, c, "head_dim", "must be positive");
        if (!c->learned_pos && c->head_dim % 2) return bad(d, c, "head_dim", "must be even (RoPE rotates pairs)");
    }
    if (!c->learned_pos && c->rope_theta <= 1) return bad(d, c, "rope_theta", "must be > 1 (RoPE) or give learned_pos");
    if (c->learned_pos < 0) return bad(d, c, "learned_pos", "must be >= 0");
    if (c->family == MDL_FAMILY_DENSE || c->first_dense_layers > 0)
        if (c->ffn <= 0) return bad(d, c, "ffn", "must be positive for dense layers");
    if (c->family != MDL_FAMILY_DENSE) {
        if (c->experts <= 1) return bad(d, c, "experts", "must be > 1 for a MoE family");
        if (c->experts_per_token <= 0 || c->experts_per_token > c->experts)
            return bad(d, c, "experts_per_token", "must be in 1..experts");
        if (c->moe_ffn <= 0) return bad(d, c, "moe_ffn", "must be positive");
        if (c->first_dense_layers < 0 || c->first_dense_layers >= c->layers)
            return bad(d, c, "first_dense_layers", "must be in 0..layers-1");
        if (c->capacity_factor <= 0) return bad(d, c, "capacity_factor", "must be positive");
        if ((unsigned)c->router >= MDL_ROUTER_COUNT) return bad(d, c, "router", "is not a known router");
        if (c->router == MDL_ROUTER_SIGMOID_GROUP) {
            if (c->router_groups <= 0 || c->experts % c->router_groups)
                return bad(d, c, "router_groups", "must be positive and divide experts");
            if (c->router_topk_groups <= 0 || c->router_topk_groups > c->router_groups)
                return bad(d, c, "router_topk_groups", "must be in 1..router_groups");
            if (c->experts / c->router_groups < 2) return bad(d, c, "router_groups", "must leave >= 2 experts a group");
            if (c->experts_per_token > c->router_topk_groups * (c->experts / c->router_groups))
                return bad(d, c, "experts_per_token", "exceeds the experts of the selected groups");
        }
    } else if (c->experts) {
        return bad(d, c, "experts", "must be 0 for the dense family");
    }
    if (c->gelu_mlp && c->family != MDL_FAMILY_DENSE) return bad(d, c, "gelu_mlp", "applies to the dense family only");
    if (c->sliding_window < 0) return bad(d, c, "sliding_window", "must be >= 0");
    if (c->swiglu_limit < 0) return bad(d, c, "swiglu_limit", "must be >= 0");
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Weights                                                                   */

static struct mdl_weight *add_w(struct mdl_weights *ws, int group, const char *name, int rank, const int64_t *dims,
                                const enum mdl_role *roles)
{
    BASE_ASSERT(ws->n < MDL_MAX_WEIGHTS && rank <= 4);
    struct mdl_weight *w = &ws->w[ws->n++];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%.*s", (int)sizeof w->name - 1, name);
    w->group = group;
    w->rank = rank;
    for (int i = 0; i < rank; i++) {
        w->dims[i] = dims[i];
        w->roles[i] = roles ? roles[i] : MDL_R_NONE;
    }
    w->trainable = true;
    return w;
}

#define W1(g, n, a, ra) add_w(ws, g, n, 1, (int64_t[]){a}, (enum mdl_role[]){ra})
#define W2(g, n, a, b, ra, rb) add_w(ws, g, n, 2, (int64_t[]){a, b}, (enum mdl_role[]){ra, rb})
#define W3(g, n, a, b, c3, ra, rb, rc) add_w(ws, g, n, 3, (int64_t[]){a, b, c3}, (enum mdl_role[]){ra, rb, rc})

/* A norm's scale (initialised to 1) and, for LayerNorm, its bias. */
static void norm_w(struct mdl_weights *ws, const struct mdl_config *c, int g, const char *name, int64_t n,
                   enum mdl_role r)
{
    W1(g, name, n, r)->init_scale = 1.0;
    if (c->layernorm) {
        char b[40];
        snprintf(b, sizeof b, "%s_b", name);
        W1(g, b, n, r)->init_scale = 0.02;
    }
}

static void attention_weights(struct mdl_weights *ws, const struct mdl_config *c, int g)
{
    int64_t d = c->hidden;
    enum mdl_role E = MDL_R_EMBED;
    norm_w(ws, c, g, "attn_norm", d, E);
    if (c->family == MDL_FAMILY_MLA_MOE) {
        int64_t h = c->heads, qk = c->qk_nope_head_dim + c->qk_rope_head_dim;
        W2(g, "wq_a", d, c->q_lora_rank, E, MDL_R_NONE);
        W1(g, "q_norm", c->q_lora_rank, MDL_R_NONE)->init_scale = 1.0;
        W2(g, "wq_b", c->q_lora_rank, h * qk, MDL_R_NONE, MDL_R_HEADS);
        W2(g, "wkv_a", d, c->kv_lora_rank + c->qk_rope_head_dim, E, MDL_R_NONE);
        W1(g, "kv_norm", c->kv_lora_rank, MDL_R_NONE)->init_scale = 1.0;
        W2(g, "wkv_b", c->kv_lora_rank, h * (c->qk_nope_head_dim + c->v_head_dim), MDL_R_NONE, MDL_R_HEADS);
        W2(g, "wo", h * c->v_head_dim, d, MDL_R_HEADS, E);
        return;
    }
    int64_t q = c->heads * c->head_dim, kv = c->kv_heads * c->head_dim;
    W2(g, "wq", d, q, E, MDL_R_HEADS);
    W2(g, "wk", d, kv, E, MDL_R_KV);
    W2(g, "wv", d, kv, E, MDL_R_KV);
    W2(g, "wo", q, d, MDL_R_HEADS, E);
    if (c->qkv_bias || c->attn_bias || c->linear_bias) {
        W1(g, "bq", q, MDL_R_HEADS)->init_scale = 0.02;
        W1(g, "bk", kv, MDL_R_KV)->init_scale = 0.02;
        W1(g, "bv", kv, MDL_R_KV)->init_scale = 0.02;
    }
    if (c->attn_bias || c->linear_bias) W1(g, "bo", d, E)->init_scale = 0.02;
    if (c->qk_norm) {
        W1(g, "q_norm", c->head_dim, MDL_R_NONE)->init_scale = 1.0;
        W1(g, "k_norm", c->head_dim, MDL_R_NONE)->init_scale = 1.0;
    }
    if (c->attention_sinks) W1(g, "sinks", c->heads, MDL_R_HEADS)->init_scale = 1.0;
}

static void mlp_weights(struct mdl_weights *ws, const struct mdl_config *c, int g, const char *prefix, int64_t f)
{
    int64_t d = c->hidden;
    enum mdl_role E = MDL_R_EMBED, F = MDL_R_FFN;
    char n[40];
    if (c->gelu_mlp) {
        snprintf(n, sizeof n, "%sfc", prefix);
        W2(g, n, d, f, E, F);
        snprintf(n, sizeof n, "%sfc_b", prefix);
        W1(g, n, f, F)->init_scale = 0.02;
        snprintf(n, sizeof n, "%sproj", prefix);
        W2(g, n, f, d, F, E);
        snprintf(n, sizeof n, "%sproj_b", prefix);
        W1(g, n, d, E)->init_scale = 0.02;
        return;
    }
    snprintf(n, sizeof n, "%sgate", prefix);
    W2(g, n, d, f, E, F);
    snprintf(n, sizeof n, "%sup", prefix);
    W2(g, n, d, f, E, F);
    snprintf(n, sizeof n, "%sdown", prefix);
    W2(g, n, f, d, F, E);
}

static void moe_weights(struct mdl_weights *ws, const struct mdl_config *c, int g)
{
    int64_t d = c->hidden, e = c->experts, f = c->moe_ffn;
    enum mdl_role E = MDL_R_EMBED, X = MDL_R_EXPERT, F = MDL_R_FFN;
    W2(g, "router", d, e, E, MDL_R_NONE);
    if (c->expert_bias) W1(g, "router_b", e, MDL_R_NONE)->init_scale = 0.02;
    if (c->router == MDL_ROUTER_SIGMOID_GROUP) {
        struct mdl_weight *b = W1(g, "router_corr", e, MDL_R_NONE);
        b->trainable = false; /* e_score_correction_bias: updated by the balancing rule, not by gradients */
        b->init_scale = 0.02;
    }
    W3(g, "we_gate", e, d, f, X, E, F)->expert = true;
    W3(g, "we_up", e, d, f, X, E, F)->expert = true;
    W3(g, "we_down", e, f, d, X, F, E)->expert = true;
    if (c->expert_bias) {
        struct mdl_weight *w = W2(g, "be_gate", e, f, X, F);
        w->expert = true;
        w->init_scale = 0.02;
        w = W2(g, "be_up", e, f, X, F);
        w->expert = true;
        w->init_scale = 0.02;
        w = W2(g, "be_down", e, d, X, E);
        w->expert = true;
        w->init_scale = 0.02;
    }
    if (c->shared_experts > 0) mlp_weights(ws, c, g, "ws_", f * c->shared_experts);
}

void mdl_weights_of(const struct mdl_config *c, struct mdl_weights *ws)
{
    memset(ws, 0, sizeof *ws);
    int64_t d = c->hidden;
    W2(-1, "embed", c->vocab, d, MDL_R_VOCAB, MDL_R_EMBED)->init_scale = 1.0;
    if (c->learned_pos > 0) W2(-1, "pos_embed", c->learned_pos, d, MDL_R_NONE, MDL_R_EMBED)->init_scale = 0.02;
    norm_w(ws, c, -1, "final_norm", d, MDL_R_EMBED);
    if (!c->tied_embeddings) W2(-1, "lm_head", d, c->vocab, MDL_R_EMBED, MDL_R_VOCAB);
    int64_t dense = c->family == MDL_FAMILY_DENSE ? c->layers : c->first_dense_layers;
    if (dense > 0) {
        int g = ws->n_groups++;
        ws->groups[g] = (struct mdl_group){.first = 0, .n = dense, .moe = false};
        attention_weights(ws, c, g);
        norm_w(ws, c, g, "mlp_norm", d, MDL_R_EMBED);
        mlp_weights(ws, c, g, "w_", c->ffn);
    }
    if (c->layers > dense) {
        int g = ws->n_groups++;
        ws->groups[g] = (struct mdl_group){.first = dense, .n = c->layers - dense, .moe = true};
        attention_weights(ws, c, g);
        norm_w(ws, c, g, "mlp_norm", d, MDL_R_EMBED);
        moe_weights(ws, c, g);
    }
}

int mdl_weight_find(const struct mdl_weights *ws, int g, const char *name)
{
    for (int i = 0; i < ws->n; i++)
        if (ws->w[i].group == g && !strcmp(ws->w[i].name, name)) return i;
    return -1;
}

int64_t mdl_weight_count(const struct mdl_weight *w)
{
    int64_t n = 1;
    for (int i = 0; i < w->rank; i++) n *= w->dims[i];
    return n;
}

void mdl_params(const struct mdl_config *c, double *total, double *active)
{
    struct mdl_weights ws;
    mdl_weights_of(c, &ws);
    double t = 0, a = 0;
    for (int i = 0; i < ws.n; i++) {
        const struct mdl_weight *w = &ws.w[i];
        if (!w->trainable) continue;
        double n = (double)mdl_weight_count(w) * (w->group >= 0 ? (double)ws.groups[w->group].n : 1.0);
        t += n;
        a += w->expert ? n * (double)c->experts_per_token / (double)c->experts : n;
    }
    if (total) *total = t;
    if (active) *active = a;
}

/* ------------------------------------------------------------------------ */
/* Workloads                                                                 */

void mdl_workload_default(struct mdl_workload *w)
{
    memset(w, 0, sizeof *w);
    w->kind = MDL_PREFILL;
    w->batch = 1;
    w->seq = 2048;
    w->par = (struct mdl_parallel){1, 1, 1, 1, 1, 1, 0};
    w->remat = true;
}

double mdl_workload_tokens(const struct mdl_workload *w)
{
    return w->kind == MDL_DECODE ? (double)w->batch : (double)w->batch * (double)w->seq;
}

int64_t mdl_capacity(const struct mdl_config *c, int64_t tokens)
{
    /* MaxText moe.py generate_masks: int(max(ceil(tokens x k / E) x cf, cf)) */
    double per = ceil((double)(tokens * c->experts_per_token) / (double)c->experts) * c->capacity_factor;
    int64_t cap = (int64_t)(per > c->capacity_factor ? per : c->capacity_factor);
    if (cap < 1) cap = 1;
    if (cap > tokens) cap = tokens;
    return cap;
}

/* Key positions a query at position q attends to, summed over the queries
 * [q0, q0 + nq) of a causal mask (window w: at most w keys). */
static double attended(int64_t q0, int64_t nq, int64_t w)
{
    double s = 0;
    for (int64_t q = q0; q < q0 + nq; q++) s += (double)(w > 0 && q + 1 > w ? w : q + 1);
    return s;
}

/* MaxText maxtext_utils.calculate_tflops_training_per_device (@e591f30):
 * 2 x tokens x the matmul weights (the output projection counted, the
 * embedding lookup not), x 3 for the backward; attention 4 x B x S^2 x H x
 * head_dim / 2 (causal) per layer, x 3 for the backward.  Here the causal
 * count is exact (sum of the keys each query sees, windows included), and
 * decode attends to the whole cache. */
double mdl_workload_flops(const struct mdl_config *c, const struct mdl_workload *w)
{
    double total, active;
    mdl_params(c, &total, &active);
    (void)total;
    double emb = (double)c->vocab * (double)c->hidden;
    double matmul = active - (c->tied_embeddings ? 0 : emb) - (double)c->learned_pos * (double)c->hidden;
    double tokens = mdl_workload_tokens(w);
    double f = 2 * tokens * matmul;
    int64_t dqk = c->family == MDL_FAMILY_MLA_MOE ? c->qk_nope_head_dim + c->qk_rope_head_dim : c->head_dim;
    int64_t dv = c->family == MDL_FAMILY_MLA_MOE ? c->v_head_dim : c->head_dim;
    double att = 0;
    for (int64_t l = 0; l < c->layers; l++) {
        int64_t win = c->sliding_window > 0 && l % 2 == 0 ? c->sliding_window : 0;
        double pairs = w->kind == MDL_DECODE ? (double)(win > 0 && win < w->seq ? win : w->seq)
                                             : attended(0, w->seq, win);
        att += 2.0 * (double)w->batch * pairs * (double)c->heads * (double)(dqk + dv);
    }
    f += att;
    return w->kind == MDL_TRAIN ? 3 * f : f;
}

/* ------------------------------------------------------------------------ */
/* Parallel layouts                                                          */

int mdl_parallel_devices(const struct mdl_parallel *p)
{
    return p->dp * p->fsdp * p->tp * p->sp * p->ep * p->pp;
}

enum base_status mdl_parallel_parse(const char *s, struct mdl_parallel *out, struct base_diag *d)
{
    *out = (struct mdl_parallel){1, 1, 1, 1, 1, 1, 0};
    const char *p = s;
    while (p && *p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end)
            return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "--parallel: '%.*s' is not KEY=N", (int)(end - p), p);
        char key[16];
        snprintf(key, sizeof key, "%.*s", (int)(eq - p < 15 ? eq - p : 15), p);
        char *e;
        errno = 0;
        long v = strtol(eq + 1, &e, 10);
        if (e != end || v < 1 || v > 1 << 20 || errno)
            return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0, "--parallel: %s needs a count >= 1 (got '%.*s')", key,
                                 (int)(end - eq - 1), eq + 1);
        int *dst = !strcmp(key, "dp")     ? &out->dp
                   : !strcmp(key, "fsdp") ? &out->fsdp
                   : !strcmp(key, "tp")   ? &out->tp
                   : !strcmp(key, "sp")   ? &out->sp
                   : !strcmp(key, "ep")   ? &out->ep
                   : !strcmp(key, "pp")   ? &out->pp
                   : !strcmp(key, "mb")   ? &out->microbatches
                                          : NULL;
        if (!dst)
            return base_diag_set(d, BASE_ERR_INVALID, NULL, 0, 0,
                                 "--parallel: unknown key '%s' (dp, fsdp, tp, sp, ep, pp, mb)", key);
        *dst = (int)v;
        p = *end ? end + 1 : end;
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Configuration files                                                       */

/* The fields a file may set: X(name, kind) with kind I (int64), D (double),
 * B (bool). */
#define MDL_CONFIG_FIELDS(X)                                                                          \
    X(hidden, I) X(layers, I) X(heads, I) X(kv_heads, I) X(head_dim, I) X(ffn, I) X(vocab, I)         \
    X(tied_embeddings, B) X(qkv_bias, B) X(qk_norm, B) X(gelu_mlp, B) X(layernorm, B) X(linear_bias, B) \
    X(attn_bias, B) X(learned_pos, I) X(rope_theta, D) X(norm_eps, D) X(experts, I)                   \
    X(experts_per_token, I) X(shared_experts, I) X(moe_ffn, I) X(first_dense_layers, I)               \
    X(router_groups, I) X(router_topk_groups, I) X(routed_scale, D) X(expert_bias, B)                \
    X(swiglu_limit, D) X(capacity_factor, D) X(q_lora_rank, I) X(kv_lora_rank, I)                     \
    X(qk_nope_head_dim, I) X(qk_rope_head_dim, I) X(v_head_dim, I) X(sliding_window, I)              \
    X(attention_sinks, B)

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

static bool parse_dtype(const char *v, enum base_dtype *out)
{
    return base_dtype_parse(v, strlen(v), out) && base_dtype_is_float(*out);
}

static enum base_status set_field(struct mdl_config *c, const char *key, const char *v, const char *path, int line,
                                  struct base_diag *d);

enum base_status mdl_config_set(struct mdl_config *c, const char *key, const char *value, struct base_diag *diag)
{
    return set_field(c, key, value, NULL, 0, diag);
}

static enum base_status set_field(struct mdl_config *c, const char *key, const char *v, const char *path, int line,
                                  struct base_diag *d)
{
    char *e;
#define I_SET(f) long long x = strtoll(v, &e, 10); if (*e || x < 0) goto bad_value; c->f = x;
#define D_SET(f) double x = strtod(v, &e); if (*e || !isfinite(x)) goto bad_value; c->f = x;
#define B_SET(f)                                                                  \
    if (!strcmp(v, "true") || !strcmp(v, "1")) c->f = true;                       \
    else if (!strcmp(v, "false") || !strcmp(v, "0")) c->f = false;               \
    else goto bad_value;
#define X(f, kind)                  \
    if (!strcmp(key, #f)) {         \
        kind##_SET(f)               \
        return BASE_OK;             \
    }
    MDL_CONFIG_FIELDS(X)
#undef X
#undef I_SET
#undef D_SET
#undef B_SET
    (void)e;
    if (!strcmp(key, "name")) {
        snprintf(c->name, sizeof c->name, "%s", v);
        return BASE_OK;
    }
    if (!strcmp(key, "source")) {
        snprintf(c->source, sizeof c->source, "%s", v);
        return BASE_OK;
    }
    if (!strcmp(key, "family")) {
        for (int i = 0; i < MDL_FAMILY_COUNT; i++)
            if (!strcmp(v, family_names[i])) {
                c->family = (enum mdl_family)i;
                return BASE_OK;
            }
        return base_diag_set(d, BASE_ERR_INVALID, path, line, 1, "family must be dense, moe or mla-moe, not '%s'", v);
    }
    if (!strcmp(key, "router")) {
        for (int i = 0; i < MDL_ROUTER_COUNT; i++)
            if (!strcmp(v, router_names[i])) {
                c->router = (enum mdl_router)i;
                return BASE_OK;
            }
        return base_diag_set(d, BASE_ERR_INVALID, path, line, 1,
                             "router must be topk-softmax, softmax-topk or sigmoid-group, not '%s'", v);
    }
    if (!strcmp(key, "dtype") || !strcmp(key, "master_dtype")) {
        if (!parse_dtype(v, !strcmp(key, "dtype") ? &c->dtype : &c->master_dtype))
            return base_diag_set(d, BASE_ERR_INVALID, path, line, 1, "%s must be a float type (bf16, f32, ...), not '%s'",
                                 key, v);
        return BASE_OK;
    }
    return base_diag_set(d, BASE_ERR_INVALID, path, line, 1, "unknown configuration key '%s'", key);
bad_value:
    return base_diag_set(d, BASE_ERR_INVALID, path, line, 1, "%s: '%s' is not a valid value", key, v);
}

enum base_status mdl_config_read(const char *path, struct mdl_config *out, struct base_diag *d)
{
    char *text = NULL;
    size_t len = 0;
    TRY(base_file_read(path, &text, &len, d));
    struct mdl_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "config");
    snprintf(c.source, sizeof c.source, "configuration file %s", path);
    enum base_status st = BASE_OK;
    int line = 0;
    char *save = NULL;
    /* strtok_r skips empty lines, so count lines by hand */
    char *p = text;
    while (st == BASE_OK && p && *p) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        line++;
        char *hash = strchr(p, '#');
        if (hash) *hash = 0;
        char *s = trim(p);
        if (*s) {
            char *eq = strchr(s, '=');
            if (!eq) {
                st = base_diag_set(d, BASE_ERR_INVALID, path, line, 1, "expected KEY = VALUE");
                break;
            }
            *eq = 0;
            char *key = trim(s), *val = trim(eq + 1);
            if (!strcmp(key, "preset")) {
                char src[sizeof c.source];
                st = mdl_preset_get(val, &c, d);
                if (st != BASE_OK) {
                    d->line = line;
                    snprintf(d->file, sizeof d->file, "%s", path);
                    break;
                }
                snprintf(src, sizeof src, "%s", c.source);
                int n = snprintf(c.source, sizeof c.source, "preset %.60s changed by %.200s: ", val, path);
                if (n > 0 && (size_t)n < sizeof c.source)
                    snprintf(c.source + n, sizeof c.source - (size_t)n, "%.*s", (int)(sizeof c.source - (size_t)n - 1), src);
            } else {
                st = set_field(&c, key, val, path, line, d);
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    (void)save;
    free(text);
    if (st != BASE_OK) return st;
    fill_defaults(&c);
    *out = c;
    return BASE_OK;
}
