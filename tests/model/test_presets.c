/* The model presets and configurations (model/config.c): the table checks
 * itself, parameter counts reproduce the published ones and the derived
 * counts of notes/research/model_presets.tsv, FLOPs follow MaxText's
 * formula, configuration files and --parallel specs are read with located
 * errors naming the field. */
#include "tests/harness.h"

#include "model/mdl_internal.h"
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct mdl_config preset(const char *name)
{
    struct mdl_config c;
    struct base_diag d;
    base_diag_clear(&d);
    if (mdl_preset_get(name, &c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("preset %s", name);
    }
    return c;
}

static void test_presets_names_unique_sources_given_sizes_valid(void **state)
{
    (void)state;
    assert_true(mdl_preset_count() >= 40);
    for (int i = 0; i < mdl_preset_count(); i++) {
        const char *n = mdl_preset_name(i);
        assert_non_null(n);
        for (int j = 0; j < i; j++) assert_string_not_equal(n, mdl_preset_name(j));
        struct mdl_config c = preset(n);
        assert_string_equal(c.name, n);
        assert_true(strlen(c.source) > 20);
        assert_non_null(strchr(c.source, '['));       /* a source id */
        assert_true(strlen(c.source) < sizeof c.source - 1); /* not cut */
        struct base_diag d;
        base_diag_clear(&d);
        if (mdl_config_check(&c, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("preset %s does not check", n);
        }
        assert_int_equal(c.dtype, BASE_DT_BF16);
    }
    assert_null(mdl_preset_name(mdl_preset_count()));
}

static void test_presets_unknown_name_lists_the_presets(void **state)
{
    (void)state;
    struct mdl_config c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_preset_get("llama9-1t", &c, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "llama9-1t"));
    assert_non_null(strstr(d.msg, "llama3-8b"));
    assert_non_null(strstr(d.msg, "deepseek-v3"));
}

/* The derived counts of notes/research/model_presets.tsv
 * (derived_total_params_B, derived_active_params_B; tools/param_count.py),
 * to their 3 decimals. */
static void test_presets_params_match_the_research_tables_derived_counts(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double total_b, active_b;
    } rows[] = {
        {"llama2-7b", 6.738, 6.738},       {"llama2-70b", 68.977, 68.977},    {"llama3-8b", 8.030, 8.030},
        {"llama3.1-405b", 405.853, 405.853}, {"qwen2.5-7b", 7.616, 7.616},    {"qwen3-0.6b", 0.596, 0.596},
        {"qwen3-32b", 32.762, 32.762},     {"qwen3-30b-a3b", 30.532, 3.353}, {"qwen3-235b-a22b", 235.094, 22.191},
        {"mistral-7b", 7.242, 7.242},      {"mixtral-8x7b", 46.703, 12.880}, {"mixtral-8x22b", 140.630, 39.161},
        {"deepseek-v3", 671.026, 37.552},  {"gpt-oss-20b", 20.915, 4.187},   {"gpt-oss-120b", 116.829, 5.712},
        {"gpt3-175b", 174.604, 174.604},   {"maxtext-16b", 15.832, 15.832},  {"maxtext-128b", 125.079, 125.079},
        {"nemo-gpt3-23b", 22.980, 22.980}, {"nemo-gpt3-46b", 45.532, 45.532},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        struct mdl_config c = preset(rows[i].name);
        double t, a;
        mdl_params(&c, &t, &a);
        if (fabs(t / 1e9 - rows[i].total_b) > 0.0005 || fabs(a / 1e9 - rows[i].active_b) > 0.0005)
            fail_msg("%s: %.4fB / %.4fB, the table derives %.3fB / %.3fB", rows[i].name, t / 1e9, a / 1e9,
                     rows[i].total_b, rows[i].active_b);
    }
}

/* A published figure p (given to its significant digits) matches a count x
 * when |x - p| <= 1% of p, or when p is x rounded or truncated to p's
 * significant digits ("3.3B activated" for 3.353B). */
static bool matches_published(double x, double p)
{
    if (fabs(x - p) <= 0.01 * p) return true;
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", p);
    int digits = 0;
    for (const char *s = buf; *s && *s != 'e'; s++) digits += *s >= '0' && *s <= '9';
    while (digits > 1 && buf[strlen(buf) - 1] == '0') buf[strlen(buf) - 1] = 0, digits--; /* trailing zeros */
    double unit = pow(10, floor(log10(p)) - (digits - 1));
    return fabs(x - p) <= 0.5 * unit || (x >= p && x < p + unit);
}

static void test_presets_params_reproduce_the_published_counts(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < mdl_preset_count(); i++) {
        struct mdl_config c = preset(mdl_preset_name(i));
        double t, a;
        mdl_params(&c, &t, &a);
        if (c.published_total > 0) {
            if (!matches_published(t, c.published_total))
                fail_msg("%s: %.4fB parameters, published %.4gB", c.name, t / 1e9, c.published_total / 1e9);
            checked++;
        }
        if (c.published_active > 0) {
            double act = c.published_active_excludes_embedding ? a - (double)c.vocab * (double)c.hidden : a;
            if (!matches_published(act, c.published_active))
                fail_msg("%s: %.4fB active, published %.4gB", c.name, act / 1e9, c.published_active / 1e9);
            checked++;
        }
    }
    assert_true(checked >= 15);
}

/* A MoE's active count takes k of the E experts; a dense one is its total. */
static void test_params_active_counts_k_experts(void **state)
{
    (void)state;
    struct mdl_config c = preset("mixtral-8x7b");
    double t, a;
    mdl_params(&c, &t, &a);
    double expert = 3.0 * (double)c.hidden * (double)c.moe_ffn * (double)c.layers; /* one expert, all layers */
    assert_true(fabs((t - a) - expert * (double)(c.experts - c.experts_per_token)) < 1.0);
    c = preset("llama3-8b");
    mdl_params(&c, &t, &a);
    assert_true(t == a);
}

/* MaxText calculate_tflops_training_per_device: 6 x tokens x matmul params
 * + 3 x causal attention (4 B S^2 H hd / 2 per layer), written here from
 * the named sizes; our causal count is the exact triangle (S (S + 1) / 2
 * keys), so it exceeds MaxText's S^2 / 2 by S / 2 per row. */
static void test_flops_follow_maxtexts_formula(void **state)
{
    (void)state;
    struct mdl_config c = preset("llama3-8b");
    struct mdl_workload w;
    mdl_workload_default(&w);
    w.kind = MDL_TRAIN;
    w.batch = 4;
    w.seq = 2048;
    double L = (double)c.layers, d = (double)c.hidden, h = (double)c.heads, kv = (double)c.kv_heads,
           hd = (double)c.head_dim, f = (double)c.ffn, v = (double)c.vocab, b = (double)w.batch, s = (double)w.seq;
    double weights = L * (d * (h + 2 * kv) * hd + h * hd * d + 3 * d * f + 2 * d) + d + v * d; /* norms: 6N convention */
    double att = L * 4 * b * h * hd * (s * (s + 1) / 2);
    double want = 3 * (2 * b * s * weights + att);
    double got = mdl_workload_flops(&c, &w);
    assert_true(fabs(got - want) <= 1e-9 * want);
    assert_true(mdl_workload_tokens(&w) == b * s);
    /* inference: one third; decode: the whole cache per token */
    w.kind = MDL_PREFILL;
    assert_true(fabs(mdl_workload_flops(&c, &w) - want / 3) <= 1e-9 * want);
    w.kind = MDL_DECODE;
    double dec = 2 * b * weights + L * 4 * b * h * hd * s;
    assert_true(fabs(mdl_workload_flops(&c, &w) - dec) <= 1e-9 * dec);
    assert_true(mdl_workload_tokens(&w) == b);
}

static void test_capacity_is_maxtexts(void **state)
{
    (void)state;
    struct mdl_config c = preset("mixtral-8x7b");
    /* int(max(ceil(T k / E) cf, cf)): 2048 tokens, k 2, E 8, cf 1.25 -> 640 */
    assert_true(c.capacity_factor == 1.25);
    assert_int_equal(mdl_capacity(&c, 2048), 640);
    assert_int_equal(mdl_capacity(&c, 1), 1);
}

static const char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/npusim_model_%d.cfg", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_config_file_takes_a_preset_and_changes(void **state)
{
    (void)state;
    const char *p = write_tmp("# a small llama\npreset = llama3-8b\nhidden = 64   # comment\n\nlayers = 2\n"
                              "name = tiny\ndtype = f32\nqk_norm = true\n");
    struct mdl_config c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_config_read(p, &c, &d), BASE_OK);
    assert_int_equal(c.hidden, 64);
    assert_int_equal(c.layers, 2);
    assert_int_equal(c.heads, 32);
    assert_int_equal(c.dtype, BASE_DT_F32);
    assert_true(c.qk_norm);
    assert_string_equal(c.name, "tiny");
    assert_non_null(strstr(c.source, "llama3-8b"));
    unlink(p);
}

static void test_config_file_errors_are_located_and_named(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line;
        const char *frag;
    } cases[] = {
        {"preset = llama3-8b\nhiden = 4\n", 2, "unknown configuration key 'hiden'"},
        {"hidden = 64\nlayers = -2\n", 2, "layers"},
        {"\n\nfamily = sparse\n", 3, "family must be"},
        {"dtype = i32\n", 1, "dtype must be a float type"},
        {"preset = nope\n", 1, "unknown model preset"},
        {"hidden 64\n", 1, "KEY = VALUE"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const char *p = write_tmp(cases[i].text);
        struct mdl_config c;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(mdl_config_read(p, &c, &d), BASE_ERR_INVALID);
        if (d.line != cases[i].line || !strstr(d.msg, cases[i].frag))
            fail_msg("case %zu: line %d '%s'", i, d.line, d.msg);
        assert_string_equal(d.file, p);
        unlink(p);
    }
}

static void test_config_check_names_the_field(void **state)
{
    (void)state;
    static const struct {
        const char *key, *value, *frag;
    } cases[] = {
        {"kv_heads", "5", "kv_heads must be positive and divide heads"},
        {"head_dim", "0", "head_dim"},
        {"hidden", "0", "hidden must be positive"},
        {"experts_per_token", "9", "experts_per_token"},
        {"capacity_factor", "0", "capacity_factor"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct mdl_config c = preset(i >= 3 ? "mixtral-8x7b" : "llama3-8b");
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(mdl_config_set(&c, cases[i].key, cases[i].value, &d), BASE_OK);
        assert_int_equal(mdl_config_check(&c, &d), BASE_ERR_INVALID);
        if (!strstr(d.msg, cases[i].frag)) fail_msg("case %zu: '%s'", i, d.msg);
    }
    struct mdl_config c = preset("deepseek-v3");
    struct base_diag d;
    base_diag_clear(&d);
    c.router_groups = 7;
    assert_int_equal(mdl_config_check(&c, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "router_groups"));
}

static void test_parallel_spec_parses_and_refuses_with_the_key(void **state)
{
    (void)state;
    struct mdl_parallel p;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse("dp=2,tp=4,pp=2,mb=4", &p, &d), BASE_OK);
    assert_int_equal(p.dp, 2);
    assert_int_equal(p.tp, 4);
    assert_int_equal(p.pp, 2);
    assert_int_equal(p.microbatches, 4);
    assert_int_equal(p.fsdp, 1);
    assert_int_equal(mdl_parallel_devices(&p), 16);
    assert_int_equal(mdl_parallel_parse("dp=2,xp=4", &p, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "xp"));
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse("tp=0", &p, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "tp"));
    base_diag_clear(&d);
    assert_int_equal(mdl_parallel_parse("tp", &p, &d), BASE_ERR_INVALID);
}

static void test_weights_list_per_family(void **state)
{
    (void)state;
    struct mdl_weights ws;
    struct mdl_config c = preset("deepseek-v3");
    mdl_weights_of(&c, &ws);
    assert_int_equal(ws.n_groups, 2);
    assert_int_equal(ws.groups[0].n, 3);
    assert_false(ws.groups[0].moe);
    assert_int_equal(ws.groups[1].first, 3);
    assert_int_equal(ws.groups[1].n, 58);
    assert_true(mdl_weight_find(&ws, 1, "wkv_b") >= 0);
    assert_true(mdl_weight_find(&ws, 1, "ws_gate") >= 0);
    int rc = mdl_weight_find(&ws, 1, "router_corr");
    assert_true(rc >= 0 && !ws.w[rc].trainable);
    c = preset("gpt3-175b");
    mdl_weights_of(&c, &ws);
    assert_int_equal(ws.n_groups, 1);
    assert_true(mdl_weight_find(&ws, -1, "pos_embed") >= 0);
    assert_true(mdl_weight_find(&ws, -1, "lm_head") < 0); /* tied */
    assert_true(mdl_weight_find(&ws, 0, "fc_b") < 0 && mdl_weight_find(&ws, 0, "w_fc_b") >= 0);
    assert_true(mdl_weight_find(&ws, 0, "attn_norm_b") >= 0);
}

TEST_MAIN(NULL, NULL, T(test_presets_names_unique_sources_given_sizes_valid),
          T(test_presets_unknown_name_lists_the_presets), T(test_presets_params_match_the_research_tables_derived_counts),
          T(test_presets_params_reproduce_the_published_counts), T(test_params_active_counts_k_experts),
          T(test_flops_follow_maxtexts_formula), T(test_capacity_is_maxtexts),
          T(test_config_file_takes_a_preset_and_changes), T(test_config_file_errors_are_located_and_named),
          T(test_config_check_names_the_field), T(test_parallel_spec_parses_and_refuses_with_the_key),
          T(test_weights_list_per_family))
