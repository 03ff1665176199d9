/* The bundled model presets: one row per model, its published sizes and
 * where they come from.  X(NAME, FAMILY, MASTER, SOURCE, field = value...):
 * FAMILY an enum mdl_family suffix, MASTER the training weights' element
 * type suffix (F32: f32 master weights and optimiser state; BF16: bf16),
 * the rest designated initialisers of struct mdl_config.  Unset fields are
 * zero; mdl_preset_get fills dtype (bf16), norm_eps (1e-5) and, for MoE,
 * capacity_factor and routed_scale (config.c says from where).
 *
 * Source ids are those of ../shared/hw/sources.md and of the project's
 * research notes on the model configurations:
 *   S52  MaxText src/maxtext/configs/models/<name>.yml (AI-Hypercomputer/maxtext@e591f30)
 *   S53  MaxText checkpoint_conversion/utils/hf_model_configs.py (@e591f30), transcriptions
 *        of the Hugging Face config.json files
 *   S54  gpt-oss model card figures (116.8B / 5.1B, 20.9B / 3.6B)
 *   S55  Mixtral paper / Mistral blog figures (46.7B / 12.9B; 141B / 39B)
 *   S56  Mistral 7B paper arXiv:2310.06825 (7.3B)
 *   S57  GPT-3 paper arXiv:2005.14165 Table 2.1 (layers, d_model, heads, d_head, nparams)
 *   S58  secondary transcriptions of the Qwen2 / Qwen2.5 configs
 *   S59  apxml.com/models/qwen3-30b-a3b (30.5B / 3.3B, quoting the model card)
 *   S30  MaxText configs/tpu/v5e/{16,32,64,128}b.sh + base.yml + get_individual_scales()
 *   S21  aws-neuron-sdk about-neuron/benchmarks/trn1 CSVs (the calibration runs)
 *   S62  aws-neuron/neuronx-nemo-megatron run scripts (87acba2b): gpt_23b/46b/175b.sh, llama_7b/13b.sh
 *   and the DeepSeek-V3 technical report's abstract, arXiv:2412.19437 (671B total, 37B activated)
 * Published counts are recorded only where a figure was published (not a
 * name such as "7B"). */
#ifndef NPUSIM_MODEL_PRESETS_LIST_H
#define NPUSIM_MODEL_PRESETS_LIST_H

/* Shared shapes (no designator twice in a row: -Woverride-init). */
#define MDL_LLAMA2(d, L, H, KV, f)                                                                     \
    .hidden = d, .layers = L, .heads = H, .kv_heads = KV, .head_dim = 128, .ffn = f, .vocab = 32000, \
    .rope_theta = 10000
#define MDL_LLAMA3(d, L, H, f)                                                                          \
    .hidden = d, .layers = L, .heads = H, .kv_heads = 8, .head_dim = 128, .ffn = f, .vocab = 128256, \
    .rope_theta = 500000
#define MDL_QWEN2(d, L, H, KV, f)                                                                       \
    .hidden = d, .layers = L, .heads = H, .kv_heads = KV, .head_dim = 128, .ffn = f, .vocab = 152064, \
    .qkv_bias = true, .rope_theta = 1000000, .norm_eps = 1e-6
#define MDL_QWEN3(d, L, H, f)                                                                           \
    .hidden = d, .layers = L, .heads = H, .kv_heads = 8, .head_dim = 128, .ffn = f, .vocab = 151936, \
    .qk_norm = true, .rope_theta = 1000000, .norm_eps = 1e-6
/* GPT-3 style (GPT-2 architecture): LayerNorm with bias, biases on every
 * projection, a 4 x d GELU MLP, learned positions (2048), tied embeddings,
 * the GPT-2 BPE vocabulary of 50257 */
#define MDL_GPT3(d, L, H, hd)                                                                          \
    .hidden = d, .layers = L, .heads = H, .kv_heads = H, .head_dim = hd, .ffn = 4 * (d), .vocab = 50257, \
    .tied_embeddings = true, .gelu_mlp = true, .layernorm = true, .linear_bias = true, .learned_pos = 2048
#define MDL_MAXTEXT(d, L, H, f)                                                                        \
    .hidden = d, .layers = L, .heads = H, .kv_heads = H, .head_dim = 128, .ffn = f, .vocab = 32000, \
    .rope_theta = 10000

#define MDL_SRC_S52(f) "[S52] MaxText src/maxtext/configs/models/" f " (AI-Hypercomputer/maxtext@e591f30)"
#define MDL_SRC_S53(f) "[S53] MaxText checkpoint_conversion/utils/hf_model_configs.py (@e591f30): " f
#define MDL_SRC_S57(row)                                                                                \
    "[S57] Brown et al. 2020 (arXiv:2005.14165) Table 2.1, " row " (layers, d_model, heads, d_head); " \
    "GPT-2 vocabulary 50257 and 2048 learned positions"
#define MDL_SRC_S30(f)                                                                                  \
    "[S30] MaxText configs/tpu/v5e/" f " + configs/base.yml (base_emb_dim 2048, 16 heads, mlp 7168, 16 " \
    "layers, head_dim 128, vocab 32000) scaled by get_individual_scales (@e591f30)"
#define MDL_SRC_S62(f)                                                                                  \
    "[S21] aws-neuron-sdk about-neuron/benchmarks/trn1/trn1_trn1n_nlp_data.csv; [S62] "                 \
    "aws-neuron/neuronx-nemo-megatron nemo/examples/nlp/language_modeling/" f " (87acba2b)"
#define MDL_SRC_S62_GPT(f) MDL_SRC_S62(f) " + test.sh: FFN 4 x hidden, GPT-2 BPE, LayerNorm eps 1e-5"

#define MDL_PRESETS(X)                                                                                     \
    X("llama2-7b", DENSE, F32, MDL_SRC_S52("llama2-7b.yml"), MDL_LLAMA2(4096, 32, 32, 32, 11008))           \
    X("llama2-13b", DENSE, F32, MDL_SRC_S52("llama2-13b.yml"), MDL_LLAMA2(5120, 40, 40, 40, 13824))         \
    X("llama2-70b", DENSE, F32, MDL_SRC_S52("llama2-70b.yml"), MDL_LLAMA2(8192, 80, 64, 8, 28672))          \
    X("llama3-8b", DENSE, F32, MDL_SRC_S52("llama3-8b.yml"), MDL_LLAMA3(4096, 32, 32, 14336))               \
    X("llama3-70b", DENSE, F32, MDL_SRC_S52("llama3-70b.yml"), MDL_LLAMA3(8192, 80, 64, 28672))             \
    X("llama3.1-8b", DENSE, F32, MDL_SRC_S53("llama31_8b_config; rope_scaling llama3 factor 8 not modelled"), \
      MDL_LLAMA3(4096, 32, 32, 14336))                                                                     \
    X("llama3.1-70b", DENSE, F32, MDL_SRC_S53("llama31_70b_config; rope_scaling not modelled"),              \
      MDL_LLAMA3(8192, 80, 64, 28672))                                                                     \
    X("llama3.1-405b", DENSE, F32,                                                                          \
      MDL_SRC_S53("llama31_405b_config") "; " MDL_SRC_S52("llama3.1-405b.yml"),                              \
      MDL_LLAMA3(16384, 126, 128, 53248))                                                                  \
    X("qwen2-7b", DENSE, F32, "[S58] secondary transcription of the Qwen2-7B config (dims as Qwen2.5-7B in [S53])", \
      MDL_QWEN2(3584, 28, 28, 4, 18944))                                                                   \
    X("qwen2-72b", DENSE, F32, "[S58] secondary transcriptions of the Qwen2-72B config",                     \
      MDL_QWEN2(8192, 80, 64, 8, 29568))                                                                   \
    X("qwen2.5-7b", DENSE, F32, MDL_SRC_S53("qwen25_7b_config") "; " MDL_SRC_S52("qwen2.5-7b.yml"),         \
      MDL_QWEN2(3584, 28, 28, 4, 18944))                                                                   \
    X("qwen2.5-72b", DENSE, F32, "[S58] secondary transcriptions of the Qwen2.5-72B config (72.7B total)",   \
      MDL_QWEN2(8192, 80, 64, 8, 29568), .published_total = 72.7e9)                                       \
    X("qwen3-0.6b", DENSE, F32, MDL_SRC_S53("qwen3_0_6b_config") "; " MDL_SRC_S52("qwen3-0.6b.yml"),        \
      MDL_QWEN3(1024, 28, 16, 3072), .tied_embeddings = true)                                              \
    X("qwen3-8b", DENSE, F32, MDL_SRC_S53("qwen3_8b_config"), MDL_QWEN3(4096, 36, 32, 12288))               \
    X("qwen3-32b", DENSE, F32, MDL_SRC_S53("qwen3_32b_config"), MDL_QWEN3(5120, 64, 64, 25600))             \
    X("qwen3-30b-a3b", MOE, F32,                                                                            \
      MDL_SRC_S53("qwen3_30b_a3b_base_config") "; [S59] 30.5B total, 3.3B activated",                       \
      .hidden = 2048, .layers = 48, .heads = 32, .kv_heads = 4, .head_dim = 128, .vocab = 151936,           \
      .qk_norm = true, .rope_theta = 1000000, .norm_eps = 1e-6, .experts = 128, .experts_per_token = 8,     \
      .moe_ffn = 768, .router = MDL_ROUTER_SOFTMAX_TOPK, .published_total = 30.5e9,                        \
      .published_active = 3.3e9)                                                                          \
    X("qwen3-235b-a22b", MOE, F32,                                                                          \
      MDL_SRC_S53("qwen3_235b_a22b_thinking_2507_config") "; " MDL_SRC_S52("qwen3-235b-a22b.yml"),          \
      .hidden = 4096, .layers = 94, .heads = 64, .kv_heads = 4, .head_dim = 128, .vocab = 151936,           \
      .qk_norm = true, .rope_theta = 5000000, .norm_eps = 1e-6, .experts = 128, .experts_per_token = 8,     \
      .moe_ffn = 1536, .router = MDL_ROUTER_SOFTMAX_TOPK)                                                  \
    X("mistral-7b", DENSE, F32,                                                                             \
      MDL_SRC_S52("mistral-7b.yml") "; [S56] 7.3B; the v0.1 sliding window (4096) is not modelled, as in " \
                                    "MaxText",                                                             \
      .hidden = 4096, .layers = 32, .heads = 32, .kv_heads = 8, .head_dim = 128, .ffn = 14336,             \
      .vocab = 32000, .rope_theta = 1000000, .published_total = 7.3e9)                                     \
    X("gpt3-125m", DENSE, F32, MDL_SRC_S57("GPT-3 Small"), MDL_GPT3(768, 12, 12, 64))                       \
    X("gpt3-350m", DENSE, F32, MDL_SRC_S57("GPT-3 Medium"), MDL_GPT3(1024, 24, 16, 64))                     \
    X("gpt3-760m", DENSE, F32, MDL_SRC_S57("GPT-3 Large"), MDL_GPT3(1536, 24, 16, 96))                      \
    X("gpt3-1.3b", DENSE, F32, MDL_SRC_S57("GPT-3 XL (d_head 128 x 24 heads: 3072, not d_model)"),          \
      MDL_GPT3(2048, 24, 24, 128))                                                                         \
    X("gpt3-2.7b", DENSE, F32, MDL_SRC_S57("GPT-3 2.7B"), MDL_GPT3(2560, 32, 32, 80))                       \
    X("gpt3-6.7b", DENSE, F32, MDL_SRC_S57("GPT-3 6.7B"), MDL_GPT3(4096, 32, 32, 128))                      \
    X("gpt3-13b", DENSE, F32, MDL_SRC_S57("GPT-3 13B, nparams 13.0B"), MDL_GPT3(5140, 40, 40, 128),         \
      .published_total = 13.0e9)                                                                           \
    X("gpt3-175b", DENSE, F32,                                                                              \
      MDL_SRC_S57("GPT-3 175B, nparams 175.0B") "; " MDL_SRC_S52("gpt3-175b.yml"),                           \
      MDL_GPT3(12288, 96, 96, 128), .published_total = 175.0e9)                                            \
    X("mixtral-8x7b", MOE, F32, MDL_SRC_S53("mixtral_8x7b_dict") "; [S55] 46.7B total, 12.9B active",      \
      .hidden = 4096, .layers = 32, .heads = 32, .kv_heads = 8, .head_dim = 128, .vocab = 32000,            \
      .rope_theta = 1000000, .experts = 8, .experts_per_token = 2, .moe_ffn = 14336,                       \
      .router = MDL_ROUTER_TOPK_SOFTMAX, .published_total = 46.7e9, .published_active = 12.9e9)            \
    X("mixtral-8x22b", MOE, F32, MDL_SRC_S53("mixtral_8x22b_dict") "; [S55] 141B total, 39B active",       \
      .hidden = 6144, .layers = 56, .heads = 48, .kv_heads = 8, .head_dim = 128, .vocab = 32768,            \
      .rope_theta = 1000000, .experts = 8, .experts_per_token = 2, .moe_ffn = 16384,                       \
      .router = MDL_ROUTER_TOPK_SOFTMAX, .published_total = 141e9, .published_active = 39e9)               \
    X("deepseek-v3", MLA_MOE, F32,                                                                          \
      MDL_SRC_S53("deepseek3_671b_dict") "; " MDL_SRC_S52("deepseek3-671b.yml")                              \
          "; arXiv:2412.19437 (abstract): 671B total, 37B activated; YaRN scaling and the MTP module not modelled",                \
      .hidden = 7168, .layers = 61, .heads = 128, .kv_heads = 128, .ffn = 18432, .vocab = 129280,           \
      .rope_theta = 10000, .norm_eps = 1e-6, .experts = 256, .experts_per_token = 8, .shared_experts = 1,  \
      .moe_ffn = 2048, .first_dense_layers = 3, .router = MDL_ROUTER_SIGMOID_GROUP, .router_groups = 8,    \
      .router_topk_groups = 4, .routed_scale = 2.5, .q_lora_rank = 1536, .kv_lora_rank = 512,              \
      .qk_nope_head_dim = 128, .qk_rope_head_dim = 64, .v_head_dim = 128, .published_total = 671e9,        \
      .published_active = 37e9, .published_active_excludes_embedding = true)                              \
    X("gpt-oss-20b", MOE, F32, MDL_SRC_S53("gpt_oss_20b_dict") "; " MDL_SRC_S52("gpt-oss-20b.yml")          \
                                   "; [S54] 20.9B total, 3.6B active; YaRN scaling not modelled",           \
      .hidden = 2880, .layers = 24, .heads = 64, .kv_heads = 8, .head_dim = 64, .vocab = 201088,            \
      .attn_bias = true, .rope_theta = 150000, .experts = 32, .experts_per_token = 4, .moe_ffn = 2880,     \
      .router = MDL_ROUTER_TOPK_SOFTMAX, .expert_bias = true, .swiglu_limit = 7.0, .sliding_window = 128,  \
      .attention_sinks = true, .published_total = 20.9e9, .published_active = 3.6e9,                      \
      .published_active_excludes_embedding = true)                                                         \
    X("gpt-oss-120b", MOE, F32, MDL_SRC_S53("gpt_oss_120b_dict") "; [S54] 116.8B total, 5.1B active",       \
      .hidden = 2880, .layers = 36, .heads = 64, .kv_heads = 8, .head_dim = 64, .vocab = 201088,            \
      .attn_bias = true, .rope_theta = 150000, .experts = 128, .experts_per_token = 4, .moe_ffn = 2880,    \
      .router = MDL_ROUTER_TOPK_SOFTMAX, .expert_bias = true, .swiglu_limit = 7.0, .sliding_window = 128,  \
      .attention_sinks = true, .published_total = 116.8e9, .published_active = 5.1e9,                     \
      .published_active_excludes_embedding = true)                                                         \
    X("maxtext-16b", DENSE, F32, MDL_SRC_S30("16b.sh"), MDL_MAXTEXT(4096, 32, 64, 28672))                   \
    X("maxtext-32b", DENSE, F32, MDL_SRC_S30("32b.sh"), MDL_MAXTEXT(8192, 32, 64, 28672))                   \
    X("maxtext-64b", DENSE, F32, MDL_SRC_S30("64b.sh"), MDL_MAXTEXT(8192, 64, 64, 28672))                   \
    X("maxtext-128b", DENSE, F32, MDL_SRC_S30("128b.sh"), MDL_MAXTEXT(8192, 64, 128, 57344))                \
    X("nemo-gpt3-23b", DENSE, BF16, MDL_SRC_S62_GPT("gpt_23b.sh") "; BF16 + stochastic rounding",               \
      MDL_GPT3(8192, 28, 64, 128))                                                                         \
    X("nemo-gpt3-46b", DENSE, BF16, MDL_SRC_S62_GPT("gpt_46b.sh") "; BF16 + stochastic rounding",               \
      MDL_GPT3(8192, 56, 64, 128))                                                                         \
    X("nemo-gpt3-175b", DENSE, BF16, MDL_SRC_S62_GPT("gpt_175b.sh") "; BF16 + stochastic rounding",             \
      MDL_GPT3(12288, 96, 96, 128))                                                                        \
    X("nemo-llama2-7b", DENSE, BF16, MDL_SRC_S62("llama_7b.sh") "; sizes as llama2-7b; BF16 + stochastic rounding",             \
      MDL_LLAMA2(4096, 32, 32, 32, 11008))                                                                 \
    X("nemo-llama2-13b", DENSE, BF16, MDL_SRC_S62("llama_13b.sh") "; sizes as llama2-13b; BF16 + stochastic rounding",           \
      MDL_LLAMA2(5120, 40, 40, 40, 13824))                                                                 \
    X("nxd-llama3.1-8b", DENSE, F32,                                                                        \
      "[S21] aws-neuron-sdk about-neuron/benchmarks/trn1/training_data_decoder.csv (7c165a3e): BF16 "      \
      "autocast, FP32 optimizer; sizes as llama3.1-8b",                                                    \
      MDL_LLAMA3(4096, 32, 32, 14336))                                                                     \
    X("nxd-llama3.1-70b", DENSE, F32,                                                                       \
      "[S21] aws-neuron-sdk about-neuron/benchmarks/trn1/training_data_decoder.csv (7c165a3e): BF16 "      \
      "autocast, FP32 optimizer; sizes as llama3.1-70b",                                                   \
      MDL_LLAMA3(8192, 80, 64, 28672))

#endif
