/* rep_run: the report of a small compiled graph run timing-only agrees with
 * figures computed here from the simulator's statistics and the runtime's
 * report; its JSON parses and has every documented key (docs/report.md);
 * --check rows, the pass verdict and the precision hint (report/). */
#include "tests/prog.h"
#include "tests/runtime/rt_test_util.h"

#include "report/report.h"

#include <math.h>
#include <stdio.h>

/* x (64 x 128) . w (128 x 256) + b: one matmul, an add. */
#define M 64
#define K 128
#define N 256
static const char k_mlp[] =
    "func.func @main(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>, %b: tensor<64x256xbf16>) -> "
    "tensor<64x256xbf16> {\n"
    "  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xbf16>, "
    "tensor<128x256xbf16>) -> tensor<64x256xbf16>\n"
    "  %r = stablehlo.add %p, %b : tensor<64x256xbf16>\n"
    "  func.return %r : tensor<64x256xbf16>\n"
    "}\n";

/* A 2 x 2 f32 matmul (the peak is fp32's; one bf16 pass on TPU by default). */
static const char k_f32[] =
    "func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
    "  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> "
    "tensor<2x2xf32>\n"
    "  func.return %c : tensor<2x2xf32>\n"
    "}\n";

/* Tensor parallel on 4 partitions, the all_reduce inside a loop of 3 trips:
 * one collective op that runs 3 times. */
static const char k_loop_tp[] =
    "sdy.mesh @mesh = <[\"tp\"=4]>\n"
    "func.func @main(%x: tensor<64x256xbf16>) -> tensor<64x256xbf16> {\n"
    "  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] "
    "manual_axes={\"tp\"}\n"
    "      (%lx: tensor<64x256xbf16>) {\n"
    "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %w:2 = stablehlo.while(%i = %c0, %v = %lx) : tensor<i32>, tensor<64x256xbf16>\n"
    "    cond {\n"
    "      %n = stablehlo.constant dense<3> : tensor<i32>\n"
    "      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "      stablehlo.return %p : tensor<i1>\n"
    "    } do {\n"
    "      %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "      %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "      %s = \"stablehlo.all_reduce\"(%v) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
    "      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "        %t = stablehlo.add %a, %b : tensor<bf16>\n"
    "        stablehlo.return %t : tensor<bf16>\n"
    "      }) : (tensor<64x256xbf16>) -> tensor<64x256xbf16>\n"
    "      stablehlo.return %i2, %s : tensor<i32>, tensor<64x256xbf16>\n"
    "    }\n"
    "    sdy.return %w#1 : tensor<64x256xbf16>\n"
    "  } : (tensor<64x256xbf16>) -> tensor<64x256xbf16>\n"
    "  return %r : tensor<64x256xbf16>\n"
    "}\n";

/* A plan run timing-only on one chip, with its report built while the
 * simulator (and its statistics) still lives. */
struct ran {
    struct chip_desc chip;
    struct graph_module *m;
    struct cc_plan *plan;
    struct sim **sims;
    struct rt_report rep;
    struct rep_run *r;
};

static void run_report(const char *src, const char *chip_name, enum isa_precision prec, const char *model,
                       struct ran *x)
{
    memset(x, 0, sizeof *x);
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(chip_name, &x->chip, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load %s", chip_name);
    }
    x->m = prog_parse(src);
    struct cc_options co;
    cc_options_default(&co);
    co.default_precision = prec;
    if (cc_compile(x->m, &x->chip, &co, &x->plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile on %s", chip_name);
    }
    x->sims = make_sims(&x->chip, 1, true);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    struct base_tensor *outs[8] = {0};
    assert_true(cc_plan_n_outputs(x->plan) <= 8);
    if (rt_run(x->plan, x->sims[0], NULL, cc_plan_n_inputs(x->plan), &ro, outs, &x->rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run on %s", chip_name);
    }
    struct rep_source rs = {.model = model, .plan = x->plan, .stats = sim_get_stats(x->sims[0]), .chips = &x->rep,
                            .n_chips = 1, .timing_only = true};
    assert_int_equal(rep_run_create(&rs, &x->r), BASE_OK);
    assert_non_null(x->r);
}

static void ran_free(struct ran *x)
{
    rep_run_destroy(x->r);
    rt_report_free(&x->rep);
    if (x->sims) free_sims(x->sims, 1);
    cc_plan_destroy(x->plan);
    graph_module_destroy(x->m);
    memset(x, 0, sizeof *x);
}

/* What f's writer printed, as a heap string (free()). */
typedef void (*write_fn)(const struct rep_run *r, FILE *f);
static char *written(const struct rep_run *r, write_fn w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    w(r, f);
    assert_int_equal(fclose(f), 0);
    assert_non_null(buf);
    return buf;
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-12 * fabs(want))) fail_msg("%.17g, expected %.17g", got, want);
}

/* ------------------------------------------------------------------------ */
/* A minimal JSON reader: checks the syntax and collects the keys, each       */
/* named by its path ("kernels.name": key name of an object in "kernels").    */

struct json {
    const char *p;
    int n_keys;
    char keys[256][128];
    char model[128]; /* the top-level "model" string, decoded */
};

static void json_ws(struct json *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') j->p++;
}

/* A string into out (ASCII; \uXXXX below 0x80 decoded). */
static bool json_string(struct json *j, char *out, size_t cap)
{
    size_t n = 0;
    if (*j->p != '"') return false;
    j->p++;
    while (*j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20 || c == 0) return false;
        if (c == '\\') {
            char e = *j->p++;
            if (e == '"' || e == '\\' || e == '/') c = e;
            else if (e == 'n') c = '\n';
            else if (e == 't') c = '\t';
            else if (e == 'u') {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *j->p++;
                    if (h >= '0' && h <= '9') v = v * 16 + (unsigned)(h - '0');
                    else if (h >= 'a' && h <= 'f') v = v * 16 + (unsigned)(h - 'a' + 10);
                    else return false;
                }
                if (v >= 0x80) return false;
                c = (char)v;
            } else
                return false;
        }
        if (n + 1 < cap) out[n++] = c;
    }
    j->p++;
    out[n] = 0;
    return true;
}

static bool json_value(struct json *j, const char *path, int depth);

static void json_key(struct json *j, const char *path)
{
    for (int i = 0; i < j->n_keys; i++)
        if (!strcmp(j->keys[i], path)) return;
    if (j->n_keys < 256 && strlen(path) < sizeof j->keys[0]) strcpy(j->keys[j->n_keys++], path);
}

static bool json_value(struct json *j, const char *path, int depth)
{
    json_ws(j);
    if (*j->p == '{') {
        j->p++;
        json_ws(j);
        if (*j->p == '}') {
            j->p++;
            return true;
        }
        for (;;) {
            char key[64], sub[128];
            json_ws(j);
            if (!json_string(j, key, sizeof key)) return false;
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", key);
            json_key(j, sub);
            json_ws(j);
            if (*j->p++ != ':') return false;
            json_ws(j);
            if (depth == 0 && !strcmp(key, "model")) {
                if (!json_string(j, j->model, sizeof j->model)) return false;
            } else if (!json_value(j, sub, depth + 1))
                return false;
            json_ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            return *j->p++ == '}';
        }
    }
    if (*j->p == '[') {
        j->p++;
        json_ws(j);
        if (*j->p == ']') {
            j->p++;
            return true;
        }
        for (;;) {
            if (!json_value(j, path, depth + 1)) return false;
            json_ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            return *j->p++ == ']';
        }
    }
    if (*j->p == '"') {
        char s[256];
        return json_string(j, s, sizeof s);
    }
    for (const char *lit = "true\0false\0null\0"; *lit; lit += strlen(lit) + 1)
        if (!strncmp(j->p, lit, strlen(lit))) {
            j->p += strlen(lit);
            return true;
        }
    /* a number: -?digits(.digits)?([eE][+-]?digits)? */
    const char *s = j->p;
    if (*j->p == '-') j->p++;
    if (*j->p < '0' || *j->p > '9') return false;
    while (*j->p >= '0' && *j->p <= '9') j->p++;
    if (*j->p == '.') {
        j->p++;
        if (*j->p < '0' || *j->p > '9') return false;
        while (*j->p >= '0' && *j->p <= '9') j->p++;
    }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-') j->p++;
        if (*j->p < '0' || *j->p > '9') return false;
        while (*j->p >= '0' && *j->p <= '9') j->p++;
    }
    return j->p > s;
}

/* Parses text (one value, then a newline and nothing else) into j. */
static void json_parse(const char *text, struct json *j)
{
    memset(j, 0, sizeof *j);
    j->p = text;
    if (!json_value(j, "", 0)) fail_msg("not JSON at offset %td: %.40s", j->p - text, j->p);
    if (strcmp(j->p, "\n") != 0) fail_msg("after the object: '%.40s'", j->p);
}

static bool json_has(const struct json *j, const char *key)
{
    for (int i = 0; i < j->n_keys; i++)
        if (!strcmp(j->keys[i], key)) return true;
    return false;
}

/* Every key of docs/report.md that a report without --check has. */
static const char *const k_keys[] = {
    "model", "chip", "mode", "cores", "timing_only", "total_ps", "total_cycles", "clock_ghz", "kernel_ps",
    "dispatch_ps", "launches", "steps", "model_flops", "peak_class", "peak_flops", "mfu", "mfu_kernels",
    "hbm_bytes", "hbm_gbps", "hbm_gbps_kernels", "hbm_peak_gbps", "plan_hbm_bytes", "engines", "kernels",
    "kernels.name", "kernels.launches", "kernels.time_ps", "kernels.dispatch_ps", "kernels.model_flops",
    "kernels.flops", "kernels.hbm_bytes", "kernels.bound", "kernels.line", "kernels.col", "partitions", "ranks_per_chip", "system_chips",
    "collectives", "collective_bytes", "collective_ps", "collective_exposed_ps", "host_ops", "host_bytes", "host_ps",
    "loop_trips_simulated", "loop_trips_reused", "collective_table",
    "chips_simulated", "chips", "chips.total_ps", "chips.kernel_ps", "chips.dispatch_ps", "chips.collective_ps",
    "chips.collective_exposed_ps", "system_ps", "checks", "checks_failed",
};
static const char *const k_coll_keys[] = {
    "collective_table.op", "collective_table.line", "collective_table.bytes", "collective_table.algorithm",
    "collective_table.group_size", "collective_table.groups", "collective_table.start_ps",
    "collective_table.time_ps", "collective_table.exposed_ps", "collective_table.busbw_gbps",
    "collective_table.link_util_mean", "collective_table.link_util_max",
};
static const char *const k_check_keys[] = {
    "check", "check.output", "check.passed", "check.bad", "check.worst_ratio", "check.max_abs_err", "check.rtol",
    "check.atol", "check.exact",
};

/* ------------------------------------------------------------------------ */

static void test_report_totals_match_runtime(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_mlp, "trn2", ISA_PREC_DEFAULT, "mlp.mlir", &x);
    const struct rep_run *r = x.r;
    assert_string_equal(r->model, "mlp.mlir");
    assert_string_equal(r->chip, "trn2");
    assert_string_equal(r->mode, "compiled");
    assert_true(r->timing_only);
    assert_int_equal(r->cores, cc_plan_n_cores(x.plan));
    assert_int_equal(r->partitions, 1);
    assert_int_equal(r->total_ps, x.rep.total_ps);
    assert_int_equal(r->kernel_ps, x.rep.device_ps);
    assert_int_equal(r->dispatch_ps, x.rep.dispatch_ps);
    assert_int_equal(r->total_ps, r->kernel_ps + r->dispatch_ps); /* no collectives */
    assert_int_equal(r->launches, x.rep.launches);
    assert_int_equal(r->steps, x.rep.steps);
    assert_int_equal(r->plan_kernels, cc_plan_n_kernels(x.plan));
    assert_int_equal(r->n_kernels, cc_plan_n_kernels(x.plan));
    /* the graph's FLOPs: 2 per multiply-add of the matmul, one per add */
    assert_int_equal(r->model_flops, 2ull * M * K * N + (uint64_t)M * N);
    uint64_t sum = 0, launches = 0;
    for (uint32_t k = 0; k < r->n_kernels; k++) {
        const struct rep_kernel *ks = &r->kernels[k];
        assert_string_equal(ks->name, cc_plan_kernel_info(x.plan, k)->name);
        assert_int_equal(ks->time_ps, x.rep.kernels[k].time_ps);
        assert_int_equal(ks->hbm_bytes, x.rep.kernels[k].hbm_bytes);
        assert_true(ks->has_loc);
        assert_string_equal(ks->file, "test.mlir"); /* the op's file, not the model's name */
        sum += ks->model_flops;
        launches += ks->launches;
    }
    assert_int_equal(sum, r->model_flops);
    assert_int_equal(launches, r->launches);
    assert_int_equal(r->n_chips, 1);
    assert_int_equal(r->chips[0].total_ps, r->total_ps);
    assert_int_equal(r->system_ps, r->total_ps);
    assert_int_equal(r->n_colls, 0);
    assert_int_equal(r->n_checks, 0);
    assert_true(r->passed);
    assert_false(r->outputs_checked);
    assert_int_equal(r->n_hints, 0);
    assert_false(r->throughput.present); /* the estimator's sections: absent */
    assert_int_equal(r->n_compare, 0);
    assert_int_equal(r->n_modes, 0);
    ran_free(&x);
}

static void test_report_mfu_and_hbm_from_sim_stats(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_mlp, "trn2", ISA_PREC_DEFAULT, "mlp.mlir", &x);
    const struct rep_run *r = x.r;
    const struct sim_stats *st = sim_get_stats(x.sims[0]);
    double total_s = (double)x.rep.total_ps * 1e-12;
    double kernel_s = (double)x.rep.device_ps * 1e-12;
    double flops = 2.0 * M * K * N + (double)M * N;
    double peak = chip_peak_flops(&x.chip, CHIP_RATE_BF16);
    assert_true(peak > 0 && total_s > 0);
    assert_int_equal(r->peak_class, CHIP_RATE_BF16); /* bf16 operands */
    assert_false(r->any_f32_matmul);
    assert_close(r->peak_flops, peak);
    assert_close(r->mfu, flops / (total_s * peak));
    assert_close(r->mfu_kernels, flops / (kernel_s * peak));
    assert_true(r->mfu > 0 && r->mfu < r->mfu_kernels && r->mfu_kernels <= 1);
    assert_int_equal(r->hbm_bytes, st->hbm_bytes);
    assert_close(r->hbm_gbps, (double)st->hbm_bytes / total_s / 1e9);
    assert_close(r->hbm_gbps_kernels, (double)st->hbm_bytes / kernel_s / 1e9);
    assert_close(r->hbm_peak_gbps, x.chip.hbm.bytes_per_ns); /* bytes per ns = GB/s */
    assert_int_equal(r->plan_hbm_bytes, cc_plan_hbm_bytes(x.plan));
    assert_close(r->clock_ghz, st->clock_ghz);
    assert_int_equal(r->total_cycles, (uint64_t)((double)x.rep.total_ps * st->clock_ghz / 1000.0));
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++) {
        uint64_t busy = 0, n = 0;
        for (uint32_t e = 0; e < st->n_engines; e++)
            if ((int)st->engines[e].kind == kd) {
                busy += st->engines[e].busy_ps;
                n++;
            }
        assert_int_equal(r->engine_count[kd], n);
        assert_int_equal(r->engine_busy_ps[kd], busy);
        if (n) assert_close(r->engine_util[kd], (double)busy / ((double)n * (double)x.rep.total_ps));
    }
    assert_true(r->engine_busy_ps[ISA_ENGINE_SYSTOLIC] > 0); /* the matmul ran on the systolic array */
    ran_free(&x);
}

static void test_report_peak_class_f32(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_f32, "tpu-v6e", ISA_PREC_DEFAULT, "f32.mlir", &x);
    assert_int_equal(x.r->peak_class, CHIP_RATE_FP32);
    assert_true(x.r->any_f32_matmul);
    assert_close(x.r->peak_flops, chip_peak_flops(&x.chip, CHIP_RATE_FP32));
    ran_free(&x);
}

static void test_report_text_has_every_kernel(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_mlp, "trn2", ISA_PREC_DEFAULT, "mlp.mlir", &x);
    char *t = written(x.r, rep_run_write_text);
    char head[128];
    snprintf(head, sizeof head, "mlp.mlir on trn2, compiled mode, %d core(s), timing only\n", x.r->cores);
    assert_memory_equal(t, head, strlen(head));
    char line[128];
    snprintf(line, sizeof line, "\nkernels: %u in the plan, %llu launched (%llu steps)\n", x.r->plan_kernels,
             (unsigned long long)x.r->launches, (unsigned long long)x.r->steps);
    assert_non_null(strstr(t, line));
    snprintf(line, sizeof line, "\ntotal: %llu ps = ", (unsigned long long)x.r->total_ps);
    assert_non_null(strstr(t, line));
    snprintf(line, sizeof line, "MFU %.2f%% of the", 100.0 * x.r->mfu);
    assert_non_null(strstr(t, line));
    for (uint32_t k = 0; k < x.r->n_kernels; k++) {
        snprintf(line, sizeof line, "test.mlir:%d:%d\n", x.r->kernels[k].line, x.r->kernels[k].col);
        assert_non_null(strstr(t, line));
    }
    assert_null(strstr(t, "collective")); /* no collective table, no system line */
    assert_null(strstr(t, "system:"));
    free(t);
    ran_free(&x);
}

static void test_report_json_has_every_key(void **state)
{
    (void)state;
    struct ran x;
    static const char odd[] = "dir/odd \"name\"\\\t.mlir"; /* a quote, a backslash, a tab */
    run_report(k_mlp, "trn2", ISA_PREC_DEFAULT, odd, &x);
    char *t = written(x.r, rep_run_write_json);
    struct json j;
    json_parse(t, &j);
    assert_string_equal(j.model, odd);
    for (size_t i = 0; i < ARRAY_LEN(k_keys); i++)
        if (!json_has(&j, k_keys[i])) fail_msg("no key %s", k_keys[i]);
    for (size_t i = 0; i < ARRAY_LEN(k_check_keys); i++) assert_false(json_has(&j, k_check_keys[i]));
    assert_true(json_has(&j, "engines.pe"));
    for (int i = 0; i < j.n_keys; i++) { /* nothing undocumented */
        bool known = !strncmp(j.keys[i], "engines.", 8);
        for (size_t k = 0; k < ARRAY_LEN(k_keys) && !known; k++) known = !strcmp(j.keys[i], k_keys[k]);
        if (!known) fail_msg("key %s is not in docs/report.md's list", j.keys[i]);
    }
    char want[64];
    snprintf(want, sizeof want, "\"total_ps\": %llu,", (unsigned long long)x.r->total_ps);
    assert_non_null(strstr(t, want));
    free(t);
    ran_free(&x);
}

static void test_report_spmd_collective_rows(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_loop_tp, "trn2", ISA_PREC_DEFAULT, "tp.mlir", &x);
    const struct rep_run *r = x.r;
    assert_int_equal(r->partitions, 4);
    assert_int_equal(r->n_chips, 1); /* one representative partition */
    assert_int_equal(r->collectives, 3);
    assert_int_equal(r->n_colls, 3);
    assert_int_equal(r->n_coll_ops, 1); /* one op, 3 runs */
    assert_int_equal(r->coll_ops[0].first, 0);
    assert_int_equal(r->coll_ops[0].runs, 3);
    uint64_t exposed = 0;
    for (uint32_t i = 0; i < x.rep.n_colls; i++) {
        exposed += x.rep.colls[i].exposed_ps;
        assert_string_equal(r->colls[i].op, "stablehlo.all_reduce");
        assert_int_equal(r->colls[i].time_ps, x.rep.colls[i].time_ps);
        assert_int_equal(r->colls[i].group_size, 4);
    }
    assert_int_equal(r->coll_ops[0].exposed_ps, exposed);
    assert_int_equal(r->collective_exposed_ps, x.rep.collective_exposed_ps);
    assert_int_equal(r->total_ps, r->kernel_ps + r->dispatch_ps + r->collective_exposed_ps);
    char *t = written(r, rep_run_write_text);
    assert_non_null(strstr(t, "\nall_reduce                 3 "));
    assert_non_null(strstr(t, "\nSPMD: the program of one of 4 partitions"));
    assert_non_null(strstr(t, "1 simulated (the representative partition), 3 inferred by SPMD symmetry; "
                              "collectives on the chip's default slice\n"));
    free(t);
    t = written(r, rep_run_write_json);
    struct json j;
    json_parse(t, &j);
    for (size_t i = 0; i < ARRAY_LEN(k_coll_keys); i++)
        if (!json_has(&j, k_coll_keys[i])) fail_msg("no key %s", k_coll_keys[i]);
    assert_non_null(strstr(t, "\"partitions\": 4, \"ranks_per_chip\": 1, \"system_chips\": 4, \"collectives\": 3,"));
    free(t);
    ran_free(&x);
}

/* A 2 x 2 f32 tensor of the given values. */
static struct base_tensor *f32_2x2(float a, float b, float c, float d)
{
    struct base_tensor *t = NULL;
    int64_t dims[2] = {2, 2};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_OK);
    float *v = t->data;
    v[0] = a, v[1] = b, v[2] = c, v[3] = d;
    return t;
}

static void test_report_check_outputs_pass(void **state)
{
    (void)state;
    struct ran x;
    run_report(k_f32, "tpu-v6e", ISA_PREC_DEFAULT, "f32.mlir", &x);
    struct base_tensor *want = f32_2x2(1, 2, 3, 4), *got = f32_2x2(1, 2, 3, 4);
    assert_int_equal(rep_run_check_outputs(x.r, x.plan, &got, &want, 1), BASE_OK);
    assert_true(x.r->outputs_checked);
    assert_int_equal(x.r->n_output_checks, 1);
    assert_true(x.r->output_checks[0].cmp.passed);
    assert_string_equal(x.r->output_checks[0].type, "2x2xf32");
    assert_true(x.r->passed);
    assert_int_equal(x.r->n_hints, 0);
    char *t = written(x.r, rep_run_write_text_checks);
    assert_memory_equal(t, "check output 0 tensor<2x2xf32>: ok: worst error 0 of its bound", 62);
    free(t);
    t = written(x.r, rep_run_write_json);
    struct json j;
    json_parse(t, &j);
    for (size_t i = 0; i < ARRAY_LEN(k_check_keys); i++)
        if (!json_has(&j, k_check_keys[i])) fail_msg("no key %s", k_check_keys[i]);
    free(t);
    base_tensor_release(want);
    base_tensor_release(got);
    ran_free(&x);
}

static void test_report_check_outputs_fail_hints_precision(void **state)
{
    (void)state;
    struct base_tensor *want = f32_2x2(1, 2, 3, 4), *got = f32_2x2(1, 2, 3, 40);
    struct ran x;
    run_report(k_f32, "tpu-v6e", ISA_PREC_DEFAULT, "f32.mlir", &x);
    assert_int_equal(x.r->fp32_passes_default, x.chip.fp32_passes_default);
    assert_int_equal(x.r->fp32_passes_default, 1);
    assert_int_equal(rep_run_check_outputs(x.r, x.plan, &got, &want, 1), BASE_OK);
    assert_false(x.r->output_checks[0].cmp.passed);
    assert_false(x.r->passed);
    assert_int_equal(x.r->n_hints, 1);
    assert_non_null(strstr(x.r->hints[0], "DEFAULT precision (1 bf16 pass"));
    char *t = written(x.r, rep_run_write_text_checks);
    assert_non_null(strstr(t, ": MISMATCH: "));
    free(t);
    ran_free(&x);
    /* at HIGHEST the f32 matmul is exact enough: a mismatch is no precision matter */
    run_report(k_f32, "tpu-v6e", ISA_PREC_HIGHEST, "f32.mlir", &x);
    assert_int_equal(rep_run_check_outputs(x.r, x.plan, &got, &want, 1), BASE_OK);
    assert_false(x.r->passed);
    assert_int_equal(x.r->n_hints, 0);
    ran_free(&x);
    base_tensor_release(want);
    base_tensor_release(got);
}

static void test_report_create_rejects_missing_source(void **state)
{
    (void)state;
    struct rep_run *r = (struct rep_run *)1;
    struct rep_source src = {.model = "m.mlir"};
    assert_int_equal(rep_run_create(&src, &r), BASE_ERR_INVALID);
    assert_null(r);
    rep_run_destroy(NULL);
}

TEST_MAIN(NULL, NULL, T(test_report_totals_match_runtime), T(test_report_mfu_and_hbm_from_sim_stats),
          T(test_report_peak_class_f32), T(test_report_text_has_every_kernel), T(test_report_json_has_every_key),
          T(test_report_spmd_collective_rows), T(test_report_check_outputs_pass),
          T(test_report_check_outputs_fail_hints_precision), T(test_report_create_rejects_missing_source))
