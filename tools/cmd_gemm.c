/* npusim gemm M K N --chip NAME: generate, run and check a tiled GEMM (compiler/gemm.h, docs/gemm.md). */
#include "tools/tools.h"

#include "compiler/gemm.h"
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim gemm M K N --chip NAME|FILE.chip [--dtype bf16|fp8|f32] [--out-dtype TYPE]\n"
            "                   [--precision default|high|highest] [--dataflow ws|os|is] [--array RxC]\n"
            "                   [--ideal-memory] [--timing-only] [--seed S] [--no-checks] [--asm FILE] [--json]\n"
            "\n"
            "Generates a tiled GEMM C[M,N] = A[M,K] @ B[K,N] for core 0 of the chip (A stored\n"
            "transposed in HBM, double-buffered DMA, accumulation in the accumulator,\n"
            "write-back; compiler/gemm.h), runs it and prints the simulated time, the\n"
            "achieved TFLOP/s against the arrays' peak, the closed-form prediction,\n"
            "per-engine utilisation and host times.  Unless --timing-only, A and B are\n"
            "random (seeded) and C is checked bit for bit against a host GEMM with the\n"
            "same numerics: exit code 1 on a mismatch.  Formulas and tables: docs/gemm.md.\n"
            "\n"
            "  --chip NAME          a bundled chip (npusim chips) or a .chip file\n"
            "  --dtype T            A and B: bf16 (default), fp8 (f8E4M3FN) or f32\n"
            "  --out-dtype T        C in HBM (default: f32 for f32 inputs, else bf16)\n"
            "  --precision P        f32 matmuls on a TPU: the chip's fp32_passes_P (default highest)\n"
            "  --dataflow D         ws, os or is: of the --array (default ws), else of the chip's arrays\n"
            "                       (preload applies to ws only)\n"
            "  --array RxC          replace the systolic arrays by one generic R x C array\n"
            "                       without preload (SCALE-Sim's accounting)\n"
            "  --ideal-memory       no DMA: operands placed in the scratchpad, C left in the\n"
            "                       accumulator; the array cycles compare with the closed form\n"
            "                       (too large for the memories: timing only, addresses aliased)\n"
            "  --timing-only        store no values, no check (the timing is identical)\n"
            "  --seed S             random inputs (default 1)\n"
            "  --no-checks          skip the simulator's race and uninitialised-read checks\n"
            "  --asm FILE           also write the generated program as assembly text\n"
            "  --json               print the results as JSON\n"
            "\n"
            "examples:\n"
            "  npusim gemm 4096 4096 4096 --chip trn2 --timing-only\n"
            "  npusim gemm 512 1000 384 --chip tpu-v5e --dtype f32 --precision high\n"
            "  npusim gemm 1024 1024 1024 --chip trn2 --array 128x128 --dataflow os --ideal-memory\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool parse_u32(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || v == 0 || v > UINT32_MAX || s[0] == '-') return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_dtype(const char *s, enum base_dtype *out)
{
    if (!strcmp(s, "fp8")) {
        *out = BASE_DT_F8E4M3FN;
        return true;
    }
    return base_dtype_parse(s, strlen(s), out);
}

static bool parse_dataflow(const char *s, enum chip_dataflow *out)
{
    for (int d = 0; d < CHIP_DATAFLOW_COUNT; d++)
        if (!strcmp(s, cc_gemm_dataflow_name((enum chip_dataflow)d))) {
            *out = (enum chip_dataflow)d;
            return true;
        }
    return false;
}

static bool parse_precision(const char *s, enum isa_precision *out)
{
    for (int p = 0; p < ISA_PREC_COUNT; p++)
        if (!strcmp(s, isa_precision_name((enum isa_precision)p))) {
            *out = (enum isa_precision)p;
            return true;
        }
    return false;
}

static double pct_diff(double got, double want) { return want > 0 ? 100.0 * (got - want) / want : 0.0; }

static enum base_status write_region(struct sim *s, const struct cc_gemm_region *r, const struct base_tensor *t,
                                     struct base_diag *d)
{
    struct sim_loc loc = {r->space, 0, r->partition, r->addr};
    return sim_write_tensor(s, &loc, t, d);
}

/* First element whose bits differ; -1 when equal. */
static int64_t first_mismatch(const struct base_tensor *a, const struct base_tensor *b)
{
    for (int64_t i = 0; i < a->count; i++)
        if (base_elem_get_bits(a->dtype, a->data, (size_t)i) != base_elem_get_bits(b->dtype, b->data, (size_t)i))
            return i;
    return -1;
}

/* The transpose of a 2-D tensor. */
static enum base_status transpose2d(const struct base_tensor *t, struct base_tensor **out)
{
    int64_t dims[2] = {t->dims[1], t->dims[0]};
    TRY(base_tensor_create(t->dtype, 2, dims, out));
    size_t es = base_dtype_size(t->dtype);
    for (int64_t i = 0; i < t->dims[0]; i++)
        for (int64_t j = 0; j < t->dims[1]; j++)
            memcpy((char *)(*out)->data + (size_t)(j * t->dims[0] + i) * es,
                   (const char *)t->data + (size_t)(i * t->dims[1] + j) * es, es);
    return BASE_OK;
}

struct opts {
    uint32_t m, k, n, rows, cols;
    const char *chip, *asm_path;
    struct cc_gemm_config cfg;
    enum chip_dataflow df;
    bool df_set, array, timing_only, json, checks, out_set;
    uint64_t seed;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
    cc_gemm_config_default(&o->cfg);
    o->checks = true;
    o->seed = 1;
    int npos = 0;
    uint32_t dims[3] = {0, 0, 0};
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return -1;
        } else if (tool_opt(argc, argv, &i, "--chip", &o->chip)) {
        } else if (tool_opt(argc, argv, &i, "--asm", &o->asm_path)) {
        } else if (tool_opt(argc, argv, &i, "--dtype", &v)) {
            if (!parse_dtype(v, &o->cfg.dtype)) {
                fprintf(stderr, "npusim gemm: --dtype %s: want bf16, fp8 or f32\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--out-dtype", &v)) {
            if (!parse_dtype(v, &o->cfg.out_dtype)) {
                fprintf(stderr, "npusim gemm: --out-dtype %s: not an element type\n", v);
                return TOOL_USAGE;
            }
            o->out_set = true;
        } else if (tool_opt(argc, argv, &i, "--precision", &v)) {
            if (!parse_precision(v, &o->cfg.precision)) {
                fprintf(stderr, "npusim gemm: --precision %s: want default, high or highest\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--dataflow", &v)) {
            if (!parse_dataflow(v, &o->df)) {
                fprintf(stderr, "npusim gemm: --dataflow %s: want ws, os or is\n", v);
                return TOOL_USAGE;
            }
            o->df_set = true;
        } else if (tool_opt(argc, argv, &i, "--array", &v)) {
            char *x = strchr(v, 'x');
            char r[32];
            if (!x || (size_t)(x - v) >= sizeof r) {
                fprintf(stderr, "npusim gemm: --array %s: want RxC, e.g. 128x128\n", v);
                return TOOL_USAGE;
            }
            memcpy(r, v, (size_t)(x - v));
            r[x - v] = 0;
            if (!parse_u32(r, &o->rows) || !parse_u32(x + 1, &o->cols)) {
                fprintf(stderr, "npusim gemm: --array %s: want RxC, e.g. 128x128\n", v);
                return TOOL_USAGE;
            }
            o->array = true;
        } else if (tool_opt(argc, argv, &i, "--seed", &v)) {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            if (errno || end == v || *end) {
                fprintf(stderr, "npusim gemm: --seed %s: not a number\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_flag(argv[i], "--ideal-memory")) {
            o->cfg.ideal_memory = true;
        } else if (tool_flag(argv[i], "--timing-only")) {
            o->timing_only = true;
        } else if (tool_flag(argv[i], "--no-checks")) {
            o->checks = false;
        } else if (tool_flag(argv[i], "--json")) {
            o->json = true;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim gemm: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (npos < 3) {
            if (!parse_u32(argv[i], &dims[npos])) {
                fprintf(stderr, "npusim gemm: %s: M, K and N are positive integers\n", argv[i]);
                return TOOL_USAGE;
            }
            npos++;
        } else {
            fprintf(stderr, "npusim gemm: too many arguments (%s)\n", argv[i]);
            return TOOL_USAGE;
        }
    }
    if (npos != 3 || !o->chip) {
        fprintf(stderr, "npusim gemm: give M K N and --chip\n");
        help(stderr);
        return TOOL_USAGE;
    }
    o->cfg.m = dims[0];
    o->cfg.k = dims[1];
    o->cfg.n = dims[2];
    if (!o->out_set) o->cfg.out_dtype = cc_gemm_default_out_dtype(o->cfg.dtype);
    return TOOL_OK;
}

static void print_engines_text(const struct sim_stats *st)
{
    printf("engines (busy / total):");
    int col = 0;
    for (uint32_t i = 0; i < st->n_engines; i++) {
        const struct sim_engine_stats *e = &st->engines[i];
        if (!e->instructions) continue;
        printf("%s %s %.1f%%", col % 6 ? "," : "\n ", e->name, 100.0 * e->utilization);
        col++;
    }
    printf("\n");
}

int cmd_gemm(int argc, char **argv)
{
    static struct opts o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc != TOOL_OK) return rc < 0 ? TOOL_OK : rc;

    struct base_diag d;
    base_diag_clear(&d);
    static struct chip_desc file_chip, chip;
    if (chip_load(o.chip, &file_chip, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    chip = file_chip;
    if (o.array) {
        if (cc_gemm_array_chip(&file_chip, o.rows, o.cols, o.df_set ? o.df : CHIP_DATAFLOW_WS, &chip, &d) != BASE_OK) {
            tool_print_diag(&d);
            return TOOL_FAIL;
        }
    } else if (o.df_set) {
        for (uint32_t i = 0; i < chip.n_engines; i++)
            if (chip.engines[i].kind == ISA_ENGINE_SYSTOLIC) chip.engines[i].dataflow = o.df;
    }

    /* --array maps the GEMM as SCALE-Sim does: for ws and is the generator
     * gets the transposed problem C^T = B^T A^T (cc_gemm_scalesim_transposes) */
    bool swap = o.array && cc_gemm_scalesim_transposes(o.df_set ? o.df : CHIP_DATAFLOW_WS);
    struct cc_gemm_config gcfg = o.cfg;
    if (swap) {
        gcfg.m = o.cfg.n;
        gcfg.n = o.cfg.m;
    }
    static struct isa_program prog;
    struct cc_gemm_plan plan;
    double t0 = now_s();
    if (cc_gemm_build(&chip, &gcfg, &prog, &plan, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    double build_s = now_s() - t0;
    if (o.asm_path) {
        struct base_out out;
        if (!tool_out_begin(&out, o.asm_path) || tool_out_end(&out, isa_disassemble(&prog, out.f) == BASE_OK)) {
            isa_program_deinit(&prog);
            return TOOL_FAIL;
        }
    }
    struct cc_gemm_model model;
    cc_gemm_model(&chip, &plan, &model);
    bool timing_only = o.timing_only || plan.timing_only;
    bool functional = !timing_only;

    struct sim_options opt;
    sim_options_default(&opt);
    opt.timing_only = timing_only;
    opt.check_races = opt.check_uninit = o.checks;
    struct sim *s = NULL;
    struct base_tensor *a = NULL, *b = NULL, *pa = NULL, *pb = NULL, *raw = NULL, *c = NULL, *ref = NULL;
    struct base_tensor *at = NULL, *bt = NULL; /* B^T and A^T when swapped */
    rc = TOOL_FAIL;
    if (sim_create(&chip, &opt, &s, &d) != BASE_OK || sim_load(s, 0, &prog, prog.name, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    /* what the two inputs take (each copy: created, transposed, packed) */
    uint64_t in_bytes = ((uint64_t)o.cfg.m * (uint64_t)o.cfg.k + (uint64_t)o.cfg.k * (uint64_t)o.cfg.n) *
                        base_dtype_size(o.cfg.dtype);
    if (functional) {
        int64_t ad[2] = {o.cfg.m, o.cfg.k}, bd[2] = {o.cfg.k, o.cfg.n};
        if (base_tensor_create(o.cfg.dtype, 2, ad, &a) != BASE_OK || base_tensor_create(o.cfg.dtype, 2, bd, &b) != BASE_OK ||
            base_tensor_fill_random(a, o.seed, 1.0) != BASE_OK || base_tensor_fill_random(b, o.seed + 1, 1.0) != BASE_OK) {
            tool_print_nomem("gemm", in_bytes, "the inputs");
            goto done;
        }
    }
    if (swap && functional && (transpose2d(b, &at) != BASE_OK || transpose2d(a, &bt) != BASE_OK)) {
        tool_print_nomem("gemm", in_bytes, "the transposed inputs");
        goto done;
    }
    if (cc_gemm_pack_a(&plan, swap ? at : a, &pa) != BASE_OK || cc_gemm_pack_b(&plan, swap ? bt : b, &pb) != BASE_OK) {
        tool_print_nomem("gemm", in_bytes, "packing the inputs");
        goto done;
    }
    if (write_region(s, &plan.a, pa, &d) != BASE_OK || write_region(s, &plan.b, pb, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    base_tensor_release(pa);
    base_tensor_release(pb);
    pa = pb = NULL;
    t0 = now_s();
    enum base_status st = sim_run(s, &d);
    double run_s = now_s() - t0;
    const struct sim_stats *stats = sim_get_stats(s);
    if (st != BASE_OK) {
        tool_print_diag(&d);
        fprintf(stderr, "npusim gemm: stopped at %llu ps\n", (unsigned long long)stats->total_ps);
        goto done;
    }
    double ref_s = 0;
    int64_t bad = -1;
    if (functional) {
        struct sim_loc loc = {plan.c.space, 0, plan.c.partition, plan.c.addr};
        if (sim_read_tensor(s, &loc, plan.c.dtype, plan.c.rank, plan.c.dims, &raw, &d) != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
        t0 = now_s();
        struct base_tensor *ct = NULL;
        if (swap && cc_gemm_unpack_c(&plan, raw, &ct) == BASE_OK) {
            transpose2d(ct, &c);
            base_tensor_release(ct);
        }
        if ((!swap && cc_gemm_unpack_c(&plan, raw, &c) != BASE_OK) || !c ||
            cc_gemm_reference(&chip, &o.cfg, a, b, &ref) != BASE_OK) {
            tool_print_nomem("gemm", 2 * (uint64_t)o.cfg.m * (uint64_t)o.cfg.n * sizeof(float), "checking the result");
            goto done;
        }
        ref_s = now_s() - t0;
        bad = first_mismatch(c, ref);
    }

    double secs = (double)stats->total_ps * 1e-12;
    double tflops = secs > 0 ? model.flops / secs / 1e12 : 0;
    double pct = model.peak_flops > 0 ? 100.0 * model.flops / secs / model.peak_flops : 0;
    uint64_t pred = o.cfg.ideal_memory ? model.array_cycles
                                       : (model.array_cycles > model.memory_cycles ? model.array_cycles : model.memory_cycles);
    /* the arrays' cycles (stats count the first systolic engine's clock) */
    uint64_t cyc = stats->total_cycles;
    const char *dfn = cc_gemm_dataflow_name(plan.dataflow);
    if (o.json) {
        printf("{\"chip\": \"%s\", \"m\": %u, \"k\": %u, \"n\": %u, \"dtype\": \"%s\", \"out_dtype\": \"%s\", "
               "\"dataflow\": \"%s\", \"preload\": %s, \"ideal_memory\": %s, \"timing_only\": %s, "
               "\"arrays\": %u, \"tiles\": [%u, %u, %u], \"block\": [%u, %u], \"kc\": %u, "
               "\"total_ps\": %llu, \"cycles\": %llu, \"clock_ghz\": %.17g, \"tflops\": %.17g, "
               "\"peak_tflops\": %.17g, \"pct_of_peak\": %.17g, \"closed_form_cycles\": %llu, "
               "\"array_cycles\": %llu, \"memory_cycles\": %llu, \"closed_form_diff_pct\": %.17g, "
               "\"scalesim_cycles\": %llu, \"instructions_static\": %llu, \"instructions\": %llu, "
               "\"host_build_s\": %.6f, \"host_run_s\": %.6f, \"host_reference_s\": %.6f, \"check\": \"%s\", "
               "\"engines\": [",
               chip.name, o.cfg.m, o.cfg.k, o.cfg.n, base_dtype_name(o.cfg.dtype), base_dtype_name(o.cfg.out_dtype), dfn,
               plan.preload ? "true" : "false", o.cfg.ideal_memory ? "true" : "false", timing_only ? "true" : "false",
               plan.n_pe, plan.kt, plan.mt, plan.nt, plan.mb, plan.nb, plan.kc, (unsigned long long)stats->total_ps,
               (unsigned long long)cyc, stats->clock_ghz, tflops, model.peak_flops / 1e12, pct,
               (unsigned long long)pred, (unsigned long long)model.array_cycles,
               (unsigned long long)model.memory_cycles, pct_diff((double)cyc, (double)pred),
               (unsigned long long)model.scalesim_cycles, (unsigned long long)isa_program_count(&prog),
               (unsigned long long)stats->instructions, build_s, run_s, ref_s,
               !functional ? "skipped" : bad < 0 ? "ok" : "mismatch");
        int first = 1;
        for (uint32_t i = 0; i < stats->n_engines; i++) {
            const struct sim_engine_stats *e = &stats->engines[i];
            if (!e->instructions) continue;
            printf("%s{\"name\": \"%s\", \"utilization\": %.17g, \"busy_ps\": %llu}", first ? "" : ", ", e->name,
                   e->utilization, (unsigned long long)e->busy_ps);
            first = 0;
        }
        printf("]}\n");
    } else {
        const struct chip_engine_desc *pe = NULL;
        for (uint32_t i = 0; i < chip.n_engines && !pe; i++)
            if (chip.engines[i].kind == ISA_ENGINE_SYSTOLIC) pe = &chip.engines[i];
        printf("gemm %ux%ux%u %s -> %s on %s core 0: %u %s array%s %ux%u%s, tiles K%u x M%u x N%u",
               o.cfg.m, o.cfg.k, o.cfg.n, base_dtype_name(o.cfg.dtype), o.cfg.ideal_memory ? "f32 (accumulator)" :
               base_dtype_name(o.cfg.out_dtype), chip.name, plan.n_pe, dfn, plan.n_pe > 1 ? "s" : "",
               pe ? pe->rows : 0, pe ? pe->cols : 0, plan.preload ? " (preload)" : "", plan.kt, plan.mt, plan.nt);
        if (o.cfg.ideal_memory)
            printf(", ideal memory%s\n", plan.timing_only ? " (aliased: timing only)" : "");
        else
            printf(", blocks %ux%u tiles, B chunks of %u k-tiles, %u At panel%s, queues %u/%u/%u (At/B/C)\n",
                   plan.mb, plan.nb, plan.kc, plan.a_panels, plan.a_panels > 1 ? "s" : "", plan.q_a, plan.q_b,
                   plan.q_c);
        printf("time: %.3f us = %llu cycles at %g GHz; %.2f TFLOP/s = %.1f%% of the core's arrays' %.2f TFLOP/s peak",
               secs * 1e6, (unsigned long long)cyc, stats->clock_ghz, tflops, pct, model.peak_flops / 1e12);
        if (chip.cores > 1) printf(" (the chip's %u cores: %.1f)", chip.cores, chip.cores * model.peak_flops / 1e12);
        printf("\n");
        if (o.cfg.ideal_memory) {
            printf("closed form (%s%s): %llu cycles, simulated %+.3f%%\n", plan.preload ? "preload pipeline" : "folds",
                   plan.preload ? "" : ", used rows/cols per fold", (unsigned long long)pred,
                   pct_diff((double)cyc, (double)pred));
        } else {
            printf("closed form: max(arrays %llu, memory %llu: %.1f MB at %.0f GB/s) = %llu cycles, simulated %+.1f%%\n",
                   (unsigned long long)model.array_cycles, (unsigned long long)model.memory_cycles,
                   model.hbm_bytes / 1e6, model.dma_bytes_per_ns, (unsigned long long)pred,
                   pct_diff((double)cyc, (double)pred));
        }
        if (model.scalesim_cycles)
            printf("SCALE-Sim v2 (stall-free, its last cycle's index): %llu cycles; simulated %llu = that + %lld\n",
                   (unsigned long long)model.scalesim_cycles, (unsigned long long)cyc,
                   (long long)cyc - (long long)model.scalesim_cycles);
        print_engines_text(stats);
        printf("host: build %.3f s (%llu instructions), run %.3f s (%llu executed, %.2f M/s)", build_s,
               (unsigned long long)isa_program_count(&prog), run_s, (unsigned long long)stats->instructions,
               run_s > 0 ? (double)stats->instructions / run_s / 1e6 : 0.0);
        if (functional) printf(", reference %.3f s", ref_s);
        printf("\n");
        if (!functional)
            printf("check: skipped (%s)\n", o.timing_only ? "--timing-only" : "aliased addresses: timing only");
    }
    if (functional && bad >= 0) {
        int64_t i = bad / o.cfg.n, j = bad % o.cfg.n;
        fprintf(stderr, "check: mismatch at C[%lld][%lld]: simulated %.9g, reference %.9g\n", (long long)i, (long long)j,
                base_elem_get_f64(c->dtype, c->data, (size_t)bad), base_elem_get_f64(ref->dtype, ref->data, (size_t)bad));
        goto done;
    }
    if (functional && !o.json) printf("check: ok (C equals the host reference bit for bit)\n");
    rc = TOOL_OK;
done:
    base_tensor_release(a);
    base_tensor_release(b);
    base_tensor_release(at);
    base_tensor_release(bt);
    base_tensor_release(pa);
    base_tensor_release(pb);
    base_tensor_release(raw);
    base_tensor_release(c);
    base_tensor_release(ref);
    sim_destroy(s);
    isa_program_deinit(&prog);
    return rc;
}
