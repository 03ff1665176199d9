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
 * weights), so the program does not grow with depth.
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
    X(MOE, "moe")         /* mixture of experts: Mixtral, gpt-oss */           \
    X(MLA_MOE, "mla-moe") /* DeepSeek-V3: multi-head latent attention + MoE */

enum mdl_family {
#define X(e, name) MDL_FAMILY_##e,
    MDL_FAMILIES(X)
#undef X
    MDL_FAMILY_COUNT
};

struct mdl_config {
    char name[64];              /* "llama3-8b" */
    enum mdl_family family;
    int64_t hidden, layers, heads, kv_heads, head_dim;
    int64_t ffn;                /* dense MLP width (SwiGLU: each of gate/up) */
    int64_t vocab;
    bool tied_embeddings;
    bool qkv_bias;              /* Qwen 2 */
    bool gelu_mlp;              /* GPT-3: a 2-matrix GELU MLP instead of SwiGLU */
    /* MoE */
    int64_t experts, experts_per_token, shared_experts, moe_ffn, first_dense_layers;
    /* MLA (DeepSeek-V3) */
    int64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    /* attention variants */
    int64_t sliding_window;     /* 0: none; gpt-oss alternates windowed and full layers */
    bool attention_sinks;       /* gpt-oss */
    enum base_dtype dtype;      /* weights and activations (bf16) */
    char source[256];           /* where the sizes come from (presets) */
};

/* The bundled presets, and each one's sizes (with the list of
 * names for an unknown one: ERR_INVALID). */
int mdl_preset_count(void);
const char *mdl_preset_name(int i);
enum base_status mdl_preset_get(const char *name, struct mdl_config *out, struct base_diag *diag);
/* Parameters of a configuration: total, and active per token (MoE). */
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

/* Parallelism: mesh axis sizes (1: unused).  Their product is the number of
 * devices.  pp > 1 splits the layers into stages run on microbatches. */
struct mdl_parallel {
    int dp, fsdp, tp, sp, ep, pp;
    int microbatches;           /* pipeline microbatches (>= pp; 0: 2 x pp) */
};

struct mdl_workload {
    enum mdl_workload_kind kind;
    int64_t batch;              /* sequences per step (global) */
    int64_t seq;                /* tokens per sequence (decode: the KV cache length) */
    struct mdl_parallel par;
    bool remat;                 /* train: recompute each layer's forward in the backward (default on) */
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

#endif
