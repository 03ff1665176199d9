/* Shared by the model tests: tiny configurations of each family, generating
 * a workload, running it on the interpreter and compiled on a simulated
 * chip, comparing the two as `npusim run --check` does. */
#ifndef NPUSIM_TESTS_MODEL_TEST_UTIL_H
#define NPUSIM_TESTS_MODEL_TEST_UTIL_H

#include "tests/harness.h"

#include "chip/chip.h"
#include "compiler/compiler.h"
#include "interp/interp.h"
#include "model/mdl_internal.h"
#include "model/model.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The families at test size: hidden 64, 2 layers, 4 heads, vocab 128. */
struct tiny {
    const char *label, *preset, *sets;
};
static const struct tiny tiny_models[] = {
    {"llama (GQA, RoPE, SwiGLU)", "llama3-8b", "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,ffn=128,vocab=128"},
    {"qwen2 (qkv bias)", "qwen2-7b", "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,ffn=128,vocab=128"},
    {"qwen3 (qk-norm, tied)", "qwen3-0.6b", "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,ffn=128,vocab=128"},
    {"gpt3 (LayerNorm, GELU, biases, learned positions)", "gpt3-125m",
     "hidden=64,layers=2,heads=4,kv_heads=4,head_dim=16,ffn=256,vocab=128,learned_pos=32"},
    {"mixtral (top-2 of 8)", "mixtral-8x7b", "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,moe_ffn=32,vocab=128"},
    {"qwen3-moe (softmax then top-k)", "qwen3-30b-a3b",
     "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,moe_ffn=32,vocab=128,experts=8,experts_per_token=2"},
    {"gpt-oss (sinks, windows, clamped SwiGLU, biases)", "gpt-oss-20b",
     "hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,moe_ffn=32,vocab=128,experts=8,experts_per_token=2,"
     "sliding_window=4"},
    {"deepseek-v3 (MLA, shared expert, group routing, dense first layer)", "deepseek-v3",
     "hidden=64,layers=3,heads=4,vocab=128,moe_ffn=32,ffn=96,experts=16,experts_per_token=4,router_groups=4,"
     "router_topk_groups=2,first_dense_layers=1,q_lora_rank=32,kv_lora_rank=16,qk_nope_head_dim=16,"
     "qk_rope_head_dim=8,v_head_dim=16"},
};
#define N_TINY ((int)ARRAY_LEN(tiny_models))

static inline struct mdl_config tiny_config(int i, const char *more)
{
    struct mdl_config c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_preset_get(tiny_models[i].preset, &c, &d), BASE_OK);
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s%s", tiny_models[i].sets, more ? "," : "", more ? more : "");
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = 0;
        if (mdl_config_set(&c, tok, eq + 1, &d) != BASE_OK) fail_msg("%s: %s", tiny_models[i].label, d.msg);
    }
    return c;
}

static inline struct mdl_workload tiny_workload(enum mdl_workload_kind k, int64_t batch, int64_t seq)
{
    struct mdl_workload w;
    mdl_workload_default(&w);
    w.kind = k;
    w.batch = batch;
    w.seq = seq;
    return w;
}

static inline struct graph_module *gen_or_fail(const struct mdl_config *c, const struct mdl_workload *w)
{
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (mdl_generate(c, w, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("mdl_generate %s %s", c->name, mdl_workload_name(w->kind));
    }
    return m;
}

static inline int n_args(const struct graph_module *m)
{
    return graph_module_entry(m)->regions[0].blocks[0].n_args;
}

static inline struct base_tensor **inputs_or_fail(const struct mdl_config *c, const struct mdl_workload *w,
                                                  const struct graph_module *m, uint64_t seed)
{
    int n = n_args(m);
    struct base_tensor **in = calloc((size_t)n + 1, sizeof *in);
    assert_non_null(in);
    struct base_diag d;
    base_diag_clear(&d);
    if (mdl_inputs(c, w, m, seed, in, n, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("mdl_inputs");
    }
    return in;
}

static inline void free_inputs(struct base_tensor **in, int n)
{
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    free(in);
}

static inline void interp_or_fail(const struct graph_module *m, struct base_tensor *const *in, int n,
                                  struct interp_result *res)
{
    struct interp_options io;
    memset(&io, 0, sizeof io);
    memset(res, 0, sizeof *res);
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(m, NULL, in, n, &io, res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interp_run");
    }
}

/* Largest |x| of a float tensor. */
static inline double max_abs(const struct base_tensor *t)
{
    double m = 0;
    for (int64_t k = 0; k < t->count; k++) {
        double v = fabs(base_elem_get_f64(t->dtype, t->data, (size_t)k));
        if (v > m) m = v;
    }
    return m;
}

/* m compiled for chip and run functionally on in[], each output compared
 * with the interpreter's as `npusim run --check` does (rt_compare_output).
 * An output whose interpreter values are all below noise_floor x the
 * largest value of the outputs of its kind is rounding noise around an
 * exact zero (a gradient the math makes zero, such as a key bias's: the
 * softmax does not see it) and is compared against that scale instead.
 * Returns the simulated time. */
static inline uint64_t check_compiled(const char *label, const struct graph_module *m, const char *chip_name,
                                      struct base_tensor *const *in, int n, double noise_floor)
{
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load(chip_name, &chip, &d), BASE_OK);
    struct cc_plan *plan = NULL;
    if (cc_compile(m, &chip, NULL, &plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("%s: cc_compile for %s", label, chip_name);
    }
    struct sim *sim = NULL;
    struct sim_options so;
    sim_options_default(&so);
    assert_int_equal(sim_create(&chip, &so, &sim, &d), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    int no = cc_plan_n_outputs(plan);
    struct base_tensor **out = calloc((size_t)no + 1, sizeof *out);
    assert_non_null(out);
    struct rt_report rep;
    memset(&rep, 0, sizeof rep);
    if (rt_run(plan, sim, in, n, &ro, out, &rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("%s: rt_run on %s", label, chip_name);
    }
    uint64_t t = rep.total_ps;
    rt_report_free(&rep);
    sim_destroy(sim);
    struct interp_result gold;
    interp_or_fail(m, in, n, &gold);
    assert_int_equal(gold.n_outputs, no);
    double scale = 0;
    for (int i = 0; i < no; i++)
        if (base_dtype_is_float(gold.outputs[i]->dtype)) {
            double s = max_abs(gold.outputs[i]);
            if (s > scale) scale = s;
        }
    for (int i = 0; i < no; i++) {
        struct rt_compare cmp;
        rt_compare_output(plan, out[i], gold.outputs[i], &cmp);
        if (cmp.passed) continue;
        double s = max_abs(gold.outputs[i]);
        if (noise_floor > 0 && s < noise_floor * scale) {
            /* noise around zero: judged at the scale of the largest output */
            double e = 0;
            for (int64_t k = 0; k < out[i]->count; k++)
                e = fmax(e, fabs(base_elem_get_f64(out[i]->dtype, out[i]->data, (size_t)k) -
                                 base_elem_get_f64(gold.outputs[i]->dtype, gold.outputs[i]->data, (size_t)k)));
            if (e <= cmp.tol.rtol * scale) continue;
        }
        char ty[64];
        base_tensor_type_str(gold.outputs[i], ty, sizeof ty);
        fail_msg("%s on %s: output %d (%s): %lld elements out of bound, worst at %lld: %.9g vs %.9g (ratio %.3g)",
                 label, chip_name, i, ty, (long long)cmp.n_bad, (long long)cmp.worst, cmp.got_at_worst,
                 cmp.want_at_worst, cmp.worst_ratio);
    }
    for (int i = 0; i < no; i++) base_tensor_release(out[i]);
    free(out);
    interp_result_free(&gold);
    cc_plan_destroy(plan);
    return t;
}

#endif
