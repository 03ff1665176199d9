/* model: StableHLO programs of transformer families, generated from a
 * configuration through the graph builder (graph/graph.h graph_builder_*).
 *
 * A configuration (struct mdl_config) gives a family's sizes; presets carry
 * the published sizes of known models (each with its source).  A workload
 * (struct mdl_workload) says what to generate: a training step (forward,
 * backward, the AdamW update, with activation rematerialisation), a prefill,
 * or a decode step with a KV cache, for a batch and sequence length, and how
 * it is laid out over a mesh (data, FSDP, tensor, sequence/context, expert
 * and pipeline parallelism), expressed as Shardy shardings the partitioner
 * (partition/) consumes.  Layers are a loop (stablehlo.while over stacked
 * weights), so the program does not grow with depth.  docs/model.md.
 *
 * Use:
 *     struct mdl_config c;
 *     mdl_preset_get("llama3-8b", &c, &diag);       // or fill c by hand
 *     struct mdl_workload w;
 *     mdl_workload_default(&w);                      // prefill, batch 1, seq 2048
 *     w.kind = MDL_TRAIN; w.batch = 8; w.seq = 4096;
 *     struct graph_module *m;
 *     mdl_generate(&c, &w, &m, &diag);               // verified StableHLO
 *     ...
 *     graph_module_destroy(m);
 */
#ifndef NPUSIM_MODEL_MODEL_H
#define NPUSIM_MODEL_MODEL_H

#include "base/base.h"
#include "graph/graph.h"

/* X(ENUM, "name") */
#define MDL_FAMILIES(X)                                                       \
    X(DENSE, "dense")     /* decoder: Llama 2/3, Qwen 2/3, Mistral, GPT-3 */  \
    X(MOE, "moe")         /* mixture of experts: Mixtral, Qwen3 MoE, gpt-oss */ \
    X(MLA_MOE, "mla-moe") /* DeepSeek-V3: multi-head latent attention + MoE */

enum mdl_family {
#define X(e, name) MDL_FAMILY_##e,
    MDL_FAMILIES(X)
#undef X
    MDL_FAMILY_COUNT
};
const char *mdl_family_name(enum mdl_family f);

/* How a MoE layer picks its experts and weighs them (X(ENUM, "name")). */
#define MDL_ROUTERS(X)                                                                                   \
    X(TOPK_SOFTMAX, "topk-softmax")   /* top-k of the logits, softmax over the k (Mixtral, gpt-oss) */     \
    X(SOFTMAX_TOPK, "softmax-topk")   /* top-k of the logits, weights = softmax over all experts at the \
                                         k, renormalised (Qwen3 MoE: norm_topk_prob) */                   \
    X(SIGMOID_GROUP, "sigmoid-group") /* DeepSeek-V3: sigmoid scores, bias-corrected group-limited top-k, \
                                         normalised and scaled */

enum mdl_router {
#define X(e, name) MDL_ROUTER_##e,
    MDL_ROUTERS(X)
#undef X
    MDL_ROUTER_COUNT
};

struct mdl_config {
    char name[64];              /* "llama3-8b" */
    enum mdl_family family;
    int64_t hidden, layers, heads, kv_heads, head_dim;
    int64_t ffn;                /* dense MLP width (SwiGLU: each of gate/up) */
    int64_t vocab;
    bool tied_embeddings;       /* the output projection is the embedding table */
    bool qkv_bias;              /* Qwen 2: biases on q, k, v */
    bool qk_norm;               /* Qwen 3: RMSNorm over head_dim of q and k */
    bool gelu_mlp;              /* GPT-3: a 2-matrix GELU MLP (with biases) instead of SwiGLU */
    bool layernorm;             /* GPT-3: LayerNorm with bias instead of RMSNorm */
    bool linear_bias;           /* GPT-3: biases on every projection (q, k, v, o, MLP) */
    bool attn_bias;             /* gpt-oss: biases on q, k, v and o */
    int64_t learned_pos;        /* > 0: a learned position table of that many rows (GPT-3); 0: RoPE */
    double rope_theta;          /* RoPE base (rotate-half form) */
    double norm_eps;
    /* MoE */
    int64_t experts, experts_per_token, shared_experts, moe_ffn, first_dense_layers;
    enum mdl_router router;
    int64_t router_groups, router_topk_groups; /* DeepSeek-V3: n_group, topk_group */
    double routed_scale;        /* DeepSeek-V3 routed_scaling_factor (1: none) */
    bool expert_bias;           /* gpt-oss: biases on the experts' projections and the router */
    double swiglu_limit;        /* gpt-oss: clamped SwiGLU (0: plain SwiGLU) */
    double capacity_factor;     /* expert capacity = ceil(tokens x k / experts) x this (per group) */
    /* MLA (DeepSeek-V3) */
    int64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    /* attention variants */
    int64_t sliding_window;     /* 0: none; gpt-oss alternates windowed (even layers) and full layers */
    bool attention_sinks;       /* gpt-oss: a learned logit per head in each softmax's denominator */
    enum base_dtype dtype;      /* activations and the weights the layers compute with (bf16) */
    enum base_dtype master_dtype; /* training: the weights and optimiser state kept (f32, or bf16) */
    /* published parameter counts (0: not published beyond the name) and
     * whether the publisher's active count leaves out the input embedding */
    double published_total, published_active;
    bool published_active_excludes_embedding;
    char source[512];           /* where the sizes come from (presets) */
};

/* The bundled presets (model/presets_list.h), and each one's sizes (an
 * unknown name: ERR_INVALID, the message listing the names). */
int mdl_preset_count(void);
const char *mdl_preset_name(int i);
enum base_status mdl_preset_get(const char *name, struct mdl_config *out, struct base_diag *diag);
/* A configuration read from a file of `key = value` lines (# comments):
 * `preset = NAME` first takes a preset's sizes, then any field of struct
 * mdl_config by its name (hidden, layers, family = moe, dtype = f32, ...).
 * Errors are located at the line. */
enum base_status mdl_config_read(const char *path, struct mdl_config *out, struct base_diag *diag);
/* Sets one field by its name, as a configuration file line would. */
enum base_status mdl_config_set(struct mdl_config *c, const char *key, const char *value, struct base_diag *diag);
/* Checks the sizes (positive, heads divisible by kv_heads, the family's
 * fields present); ERR_INVALID naming the field and the rule. */
enum base_status mdl_config_check(const struct mdl_config *c, struct base_diag *diag);
/* Parameters of a configuration: total, and active per token (MoE: the k
 * routed experts and the shared ones; every embedding counted). */
void mdl_params(const struct mdl_config *c, double *total, double *active);

#define MDL_WORKLOADS(X)                                                          \
    X(TRAIN, "train")     /* forward, backward, AdamW, layer rematerialisation */ \
    X(PREFILL, "prefill") /* the forward over the prompt, filling the KV cache */  \
    X(DECODE, "decode")   /* one token per sequence against a KV cache of seq */

enum mdl_workload_kind {
#define X(e, name) MDL_##e,
    MDL_WORKLOADS(X)
#undef X
    MDL_WORKLOAD_COUNT
};
const char *mdl_workload_name(enum mdl_workload_kind k);
bool mdl_workload_lookup(const char *name, enum mdl_workload_kind *out);

/* Parallelism: mesh axis sizes (1: unused).  Their product is the number of
 * devices.  pp > 1 (layers in stages run on microbatches) is refused:
 * ERR_UNSUPPORTED (docs/model.md); the estimator composes pipelined
 * layouts from a stage's program (report/estimate_model.c). */
struct mdl_parallel {
    int dp, fsdp, tp, sp, ep, pp;
    int microbatches;           /* pipeline microbatches (>= pp; 0: 2 x pp) */
};
/* "dp=2,tp=4,..." (keys dp fsdp tp sp ep pp mb); ERR_INVALID naming the key. */
enum base_status mdl_parallel_parse(const char *s, struct mdl_parallel *out, struct base_diag *diag);
int mdl_parallel_devices(const struct mdl_parallel *p);

struct mdl_workload {
    enum mdl_workload_kind kind;
    int64_t batch;              /* sequences per step (global) */
    int64_t seq;                /* tokens per sequence (decode: the KV cache length) */
    struct mdl_parallel par;
    bool remat;                 /* train: recompute each layer's forward in the backward (default on) */
    bool grads_only;            /* train: return the loss and the gradients, no optimiser step (tests) */
};
void mdl_workload_default(struct mdl_workload *w);

/* Tokens one step of w processes (train/prefill: batch x seq; decode: batch). */
double mdl_workload_tokens(const struct mdl_workload *w);
/* The model FLOPs of one step of w (the usual 6 x active params x tokens for
 * training plus attention; 2 x ... for inference), for MFU. */
double mdl_workload_flops(const struct mdl_config *c, const struct mdl_workload *w);

/* Generates the program (verified; its entry is @main) of workload w for
 * configuration c.  Bad sizes (heads not dividing, a mesh that does not
 * divide the batch or the heads, ...) are ERR_INVALID naming the field. */
enum base_status mdl_generate(const struct mdl_config *c, const struct mdl_workload *w, struct graph_module **out,
                              struct base_diag *diag);

/* Inputs for the n arguments of m (generated from c and w) with values a
 * real step sees: token ids in the vocabulary, weights at their
 * initialisation scale, Adam's second moment >= 0, the decode position at
 * the cache's end.  in[i] get new tensors (base_tensor_release). */
enum base_status mdl_inputs(const struct mdl_config *c, const struct mdl_workload *w, const struct graph_module *m,
                            uint64_t seed, struct base_tensor **in, int n, struct base_diag *diag);

#endif
