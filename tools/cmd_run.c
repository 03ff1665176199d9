/* npusim run MODEL.mlir --chip NAME [--mode M] [--inputs ...|--random-inputs SEED] [--timing-only]
 *                       [--check] [--out DIR] [--json] [--trace FILE] */
#include "tools/tools.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "sim/sim.h"
#include "record/record.h"
#include "traces/traces.h"
#include "interp/interp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim run MODEL.mlir --chip NAME|FILE.chip [--mode compiled|fused-eager|eager]\n"
            "                  [--inputs A.npy,B.npy,...|--random-inputs SEED] [--timing-only]\n"
            "                  [--check] [--out DIR] [--json] [--entry NAME] [--cores N]\n"
            "                  [--precision default|high|highest] [--no-checks] [--trace FILE]\n"
            "                  [--chips N] [--mesh AXES] [--shard ARG=SPEC]... [--topology SHAPE]\n"
            "\n"
            "Compiles a StableHLO program for a chip and runs it on the simulated chip:\n"
            "total time and cycles, MFU, HBM traffic and bandwidth, engine utilisation\n"
            "and a table of kernels (time, FLOPs, bytes, what bounds each).  The plan,\n"
            "the modes and the report: docs/compiler.md.\n"
            "  --chip NAME          a bundled chip (npusim chips) or a .chip file\n"
            "  --mode M             compiled (default: whole graph, fused), fused-eager\n"
            "                       (op by op, small elementwise runs fused) or eager\n"
            "                       (every op a dispatch through HBM)\n"
            "  --inputs LIST        one .npy per entry-function argument, in order\n"
            "  --random-inputs SEED random inputs, as `npusim interp --random-inputs`\n"
            "  --timing-only        store no values: the same time, much faster; needs no\n"
            "                       inputs; branches on computed values are an error\n"
            "  --check              also run the golden interpreter and compare every output\n"
            "                       (exact for integers; floats within the documented bound)\n"
            "  --out DIR            write outputs as DIR/output_<i>.npy\n"
            "  --json               the report as JSON\n"
            "  --entry NAME         function to run (default: @main, or the only function)\n"
            "  --cores N            spread kernels over N cores (default: all of the chip's)\n"
            "  --precision P        f32 matmuls that ask for the default precision run at P:\n"
            "                       default (the chip's: one bf16 pass on TPU), high or highest\n"
            "  --no-checks          skip the simulator's race and uninitialised-read checks\n"
            "  --trace FILE         record a trace of the run: FILE.npt (native, for npusim\n"
            "                       trace/view), FILE.json or FILE.json.gz (Perfetto); docs/traces.md\n"
            "  --chips N            run on N simulated chips: an SPMD program's partitions,\n"
            "                       or an unsharded program partitioned over a mesh of N\n"
            "  --mesh AXES          partition an unsharded program over a device mesh:\n"
            "                       \"data=4,model=2\", \"8\", \"2x4\" (docs/partitioner.md)\n"
            "  --shard ARG=SPEC     split argument ARG (index or name) per dim over mesh\n"
            "                       axes: \"data,_\", \"_,model\", \"replicated\" (repeatable;\n"
            "                       default: the graph's own shardings, else replicated)\n"
            "  --topology SHAPE     an SPMD program's chips, for its collectives: \"8\" (a ring),\n"
            "                       \"2x4\", \"4x4x4\", \"ultraserver\", \"N slices of SHAPE\"\n"
            "                       (default: the chip's links, the smallest slice of the\n"
            "                       partitions); docs/interconnect.md\n"
            "\n"
            "A program of several partitions (an SPMD export: one sdy.manual_computation,\n"
            "or one partitioned with --mesh) runs every partition on its own simulated\n"
            "chip, values moving through the collectives; --check compares with the\n"
            "interpreter's multi-process run (or the unsharded program's run).  With\n"
            "--timing-only, one representative partition is simulated and the others\n"
            "inferred (they do the same work); collectives are timed on the topology\n"
            "(docs/compiler.md \"SPMD plans\").\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The same inputs as `npusim interp --random-inputs SEED`. */
static enum base_status random_tensor(const struct graph_type *ty, uint64_t seed, int i, struct base_tensor **out)
{
    *out = NULL;
    if (ty->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ty)) return BASE_ERR_UNSUPPORTED;
    TRY(base_tensor_create(ty->elem, ty->rank, ty->dims, out));
    double scale = ty->rank >= 2 && ty->dims[ty->rank - 1] > 0 ? 1.0 / sqrt((double)ty->dims[ty->rank - 1]) : 1.0;
    return base_tensor_fill_random(*out, seed * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)i, scale);
}

/* The peak MFU is measured against: bf16, unless every matmul takes f32, or one takes fp8. */
static enum chip_rate_class peak_class(const struct cc_plan *p)
{
    bool any = false, all_f32 = true, fp8 = false;
    for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
        const struct graph_op *op = cc_plan_kernel_info(p, k)->root;
        if (!op || (op->kind != GRAPH_OP_DOT_GENERAL && op->kind != GRAPH_OP_DOT && op->kind != GRAPH_OP_CONVOLUTION) ||
            op->n_operands < 2)
            continue;
        any = true;
        for (int i = 0; i < 2; i++) {
            enum chip_rate_class rc = chip_rate_class_of(op->operands[i]->type->elem);
            if (rc != CHIP_RATE_FP32) all_f32 = false;
            if (rc == CHIP_RATE_FP8) fp8 = true;
        }
    }
    if (fp8) return CHIP_RATE_FP8;
    return any && all_f32 ? CHIP_RATE_FP32 : CHIP_RATE_BF16;
}

static bool any_f32_matmul(const struct cc_plan *p)
{
    for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
        const struct graph_op *op = cc_plan_kernel_info(p, k)->root;
        if (op && (op->kind == GRAPH_OP_DOT_GENERAL || op->kind == GRAPH_OP_DOT || op->kind == GRAPH_OP_CONVOLUTION) &&
            op->n_operands >= 2 && op->operands[0]->type->elem == BASE_DT_F32)
            return true;
    }
    return false;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

struct run_args {
    const char *path, *chip_name, *inputs, *out_dir, *entry, *trace, *topology, *mesh;
    const char *shards[64];
    int n_shards;
    enum cc_mode mode;
    long seed;
    int cores, chips;
    bool timing_only, check, json, sim_checks;
    enum isa_precision precision;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = -1;
    a->sim_checks = true;
    const char *v = NULL;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return -1;
        } else if (tool_opt(argc, argv, &i, "--chip", &a->chip_name)) {
        } else if (tool_opt(argc, argv, &i, "--inputs", &a->inputs)) {
        } else if (tool_opt(argc, argv, &i, "--out", &a->out_dir)) {
        } else if (tool_opt(argc, argv, &i, "--entry", &a->entry)) {
        } else if (tool_opt(argc, argv, &i, "--topology", &a->topology)) {
        } else if (tool_opt(argc, argv, &i, "--mesh", &a->mesh)) {
        } else if (tool_opt(argc, argv, &i, "--shard", &v)) {
            if (a->n_shards == 64) {
                fprintf(stderr, "npusim run: too many --shard options\n");
                return TOOL_USAGE;
            }
            a->shards[a->n_shards++] = v;
        } else if (tool_opt(argc, argv, &i, "--chips", &v)) {
            a->chips = atoi(v);
            if (a->chips < 1) {
                fprintf(stderr, "npusim run: --chips needs a count >= 1\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--trace", &a->trace)) {
            enum trc_format tf;
            if (!trc_format_from_path(a->trace, &tf)) {
                fprintf(stderr, "npusim run: --trace %s: the name must end in .npt, .json or .json.gz\n", a->trace);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--mode", &v)) {
            if (!cc_mode_lookup(v, &a->mode)) {
                fprintf(stderr, "npusim run: --mode takes compiled, fused-eager or eager (not '%s')\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--precision", &v)) {
            if (!tool_precision_parse(v, &a->precision)) {
                fprintf(stderr, "npusim run: --precision takes default, high or highest (not '%s')\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--random-inputs", &v)) {
            char *end;
            a->seed = strtol(v, &end, 0);
            if (*end || a->seed < 0) {
                fprintf(stderr, "npusim run: --random-inputs needs a seed >= 0\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--cores", &v)) {
            a->cores = atoi(v);
            if (a->cores < 1) {
                fprintf(stderr, "npusim run: --cores needs a count >= 1\n");
                return TOOL_USAGE;
            }
        } else if (tool_flag(argv[i], "--timing-only")) {
            a->timing_only = true;
        } else if (tool_flag(argv[i], "--check")) {
            a->check = true;
        } else if (tool_flag(argv[i], "--json")) {
            a->json = true;
        } else if (tool_flag(argv[i], "--no-checks")) {
            a->sim_checks = false;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim run: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!a->path) {
            a->path = argv[i];
        } else {
            fprintf(stderr, "npusim run: one model at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!a->path || !a->chip_name) {
        fprintf(stderr, "npusim run: give a model and --chip\n");
        help(stderr);
        return TOOL_USAGE;
    }
    if (a->inputs && a->seed >= 0) {
        fprintf(stderr, "npusim run: give --inputs or --random-inputs, not both\n");
        return TOOL_USAGE;
    }
    if (a->timing_only && (a->check || a->out_dir)) {
        fprintf(stderr, "npusim run: --timing-only has no values to --check or write to --out\n");
        return TOOL_USAGE;
    }
    return 0;
}

/* Inputs from --inputs or --random-inputs (timing-only: none needed). */
static int make_inputs(const struct run_args *a, const struct graph_op *func, struct base_tensor **in)
{
    const struct graph_block *b = &func->regions[0].blocks[0];
    int n_args = b->n_args;
    struct base_diag d;
    base_diag_clear(&d);
    if (a->inputs) {
        char *list = strdup(a->inputs), *save = NULL;
        int n = 0;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
            if (n >= n_args) continue;
            if (base_npy_read(tok, &in[n], &d) != BASE_OK) {
                tool_print_diag(&d);
                free(list);
                return TOOL_FAIL;
            }
        }
        free(list);
        if (n != n_args) {
            fprintf(stderr, "npusim run: @%s takes %d input(s), --inputs gives %d\n", graph_func_name(func), n_args, n);
            return TOOL_FAIL;
        }
        return 0;
    }
    if (n_args == 0 || a->timing_only) return 0;
    if (a->seed < 0) {
        fprintf(stderr, "npusim run: @%s takes %d input(s): give --inputs or --random-inputs SEED (or --timing-only)\n",
                graph_func_name(func), n_args);
        return TOOL_FAIL;
    }
    for (int i = 0; i < n_args; i++)
        if (random_tensor(b->args[i].type, (uint64_t)a->seed, i, &in[i]) != BASE_OK) {
            char ty[128];
            graph_type_str(b->args[i].type, ty, sizeof ty);
            fprintf(stderr, "npusim run: cannot generate input %d of type %s\n", i, ty);
            return TOOL_FAIL;
        }
    fprintf(stderr, "npusim run: random inputs, seed %ld\n", a->seed);
    return 0;
}

static void print_text(const struct run_args *a, const struct cc_plan *p, const struct sim *s,
                       const struct rt_report *rep, double host_s)
{
    const struct chip_desc *chip = cc_plan_chip(p);
    const struct sim_stats *st = sim_get_stats(s);
    double total_s = (double)rep->total_ps * 1e-12;
    uint64_t model_flops = 0;
    for (uint32_t k = 0; k < rep->n_kernels; k++) model_flops += rep->kernels[k].model_flops;
    enum chip_rate_class rc = peak_class(p);
    double peak = chip_peak_flops(chip, rc);
    printf("%s on %s, %s mode, %d core(s)%s\n", a->path, chip->name, cc_mode_name(cc_plan_mode(p)), cc_plan_n_cores(p),
           a->timing_only ? ", timing only" : "");
    printf("kernels: %u in the plan, %llu launched (%llu steps)\n", cc_plan_n_kernels(p),
           (unsigned long long)rep->launches, (unsigned long long)rep->steps);
    if (cc_plan_num_partitions(p) > 1 && a->timing_only)
        printf("SPMD: the program of one of %d partitions, simulated as a representative partition\n",
               cc_plan_num_partitions(p));
    else if (cc_plan_num_partitions(p) > 1)
        printf("SPMD: %d partitions on %d simulated chips; chip 0's report (every chip: below)\n",
               cc_plan_num_partitions(p), cc_plan_num_partitions(p));
    printf("total: %llu ps = %.3f us = %llu cycles at %.3g GHz (kernels %.3f us, dispatch and launch gaps %.3f us)\n",
           (unsigned long long)rep->total_ps, (double)rep->total_ps * 1e-6,
           (unsigned long long)(st->clock_ghz > 0 ? (uint64_t)((double)rep->total_ps * st->clock_ghz / 1000.0) : 0),
           st->clock_ghz, (double)rep->device_ps * 1e-6, (double)rep->dispatch_ps * 1e-6);
    if (rep->collectives)
        printf("collectives: %llu, %.3f MB per chip, %.3f us, of which %.3f us exposed (%.1f%% hidden behind "
               "kernels)\n",
               (unsigned long long)rep->collectives, rep->collective_bytes * 1e-6, (double)rep->collective_ps * 1e-6,
               (double)rep->collective_exposed_ps * 1e-6,
               rep->collective_ps ? 100.0 * (1.0 - (double)rep->collective_exposed_ps / (double)rep->collective_ps)
                                  : 0.0);
    printf("FLOPs: %.4g (model)", (double)model_flops);
    if (peak > 0 && total_s > 0)
        printf(", %.3g TFLOP/s, MFU %.2f%% of the %.1f TFLOP/s %s peak (%.2f%% over the kernels' time)\n",
               (double)model_flops / total_s * 1e-12, 100.0 * (double)model_flops / (total_s * peak), peak * 1e-12,
               chip_rate_class_name(rc),
               rep->device_ps ? 100.0 * (double)model_flops / ((double)rep->device_ps * 1e-12 * peak) : 0.0);
    else
        printf("\n");
    double gbps = total_s > 0 ? (double)st->hbm_bytes / total_s * 1e-9 : 0;
    printf("HBM: %llu bytes, %.1f GB/s achieved = %.1f%% of %.0f GB/s; plan occupies %.3f MiB\n",
           (unsigned long long)st->hbm_bytes, gbps, chip->hbm.bytes_per_ns > 0 ? 100.0 * gbps / chip->hbm.bytes_per_ns : 0,
           chip->hbm.bytes_per_ns, (double)cc_plan_hbm_bytes(p) / 1048576.0);
    printf("engine utilisation (busy / total, mean over engines of a kind, all cores):");
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++) {
        uint64_t busy = 0, n = 0;
        for (uint32_t e = 0; e < st->n_engines; e++)
            if ((int)st->engines[e].kind == kd) {
                busy += st->engines[e].busy_ps;
                n++;
            }
        if (n && rep->total_ps)
            printf(" %s %.1f%%", isa_engine_kind_name((enum isa_engine_kind)kd),
                   100.0 * (double)busy / ((double)n * (double)rep->total_ps));
    }
    printf("\n");
    printf("%4s  %-40s %6s %11s %6s %11s %11s %-8s %s\n", "#", "kernel", "runs", "time us", "%", "GFLOP", "MB", "bound",
           "location");
    for (uint32_t k = 0; k < rep->n_kernels; k++) {
        const struct rt_kernel_stats *ks = &rep->kernels[k];
        const struct cc_kernel_info *ki = cc_plan_kernel_info(p, k);
        char loc[160] = "";
        if (ki->root) snprintf(loc, sizeof loc, "%s:%d:%d", ki->root->loc.file ? ki->root->loc.file : a->path,
                               ki->root->loc.line, ki->root->loc.col);
        if (!ks->launches) {
            printf("%4u  %-40.40s %6s %11s %6s %11s %11s %-8s %s\n", k, ki->name, "0", "-", "-", "-", "-", "-", loc);
            continue;
        }
        printf("%4u  %-40.40s %6llu %11.3f %6.2f %11.4g %11.4g %-8s %s\n", k, ki->name, (unsigned long long)ks->launches,
               (double)ks->time_ps * 1e-6, rep->total_ps ? 100.0 * (double)(ks->time_ps + ks->dispatch_ps) / (double)rep->total_ps : 0,
               (double)ks->model_flops * 1e-9, (double)ks->hbm_bytes * 1e-6, rt_bound_name(ks->bound), loc);
    }
    if (rep->n_checks) {
        printf("checks: %d run, %d failed\n", rep->n_checks, rep->n_checks_failed);
        for (int i = 0; i < rep->n_checks; i++)
            if (!rep->checks[i].passed)
                printf("  FAIL %s:%d:%d: %s\n", a->path, rep->checks[i].loc.line, rep->checks[i].loc.col, rep->checks[i].what);
    }
    fprintf(stderr, "npusim run: host time %.2f s\n", host_s);
}

/* The collective table: one row per collective op (its runs summed). */
static void print_collectives(const struct run_args *a, const struct rt_report *rep)
{
    if (!rep->n_colls) return;
    printf("%-22s %5s %11s %-13s %6s %11s %11s %10s %9s  %s\n", "collective", "runs", "MB each", "algorithm", "group",
           "us each", "exposed us", "busbw GB/s", "links %", "location");
    for (uint32_t i = 0; i < rep->n_colls; i++) {
        const struct rt_collective *c = &rep->colls[i];
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++) seen = rep->colls[j].op == c->op;
        if (seen) continue;
        uint64_t runs = 0, exposed = 0;
        for (uint32_t j = i; j < rep->n_colls; j++)
            if (rep->colls[j].op == c->op) {
                runs++;
                exposed += rep->colls[j].exposed_ps;
            }
        const char *name = strrchr(c->op->name, '.');
        printf("%-22s %5llu %11.4g %-13s %6u %11.3f %11.3f %10.1f %4.0f/%-4.0f  %s:%d:%d\n", name ? name + 1 : c->op->name,
               (unsigned long long)runs, c->bytes * 1e-6, c->algorithm, c->group_size, (double)c->time_ps * 1e-6,
               (double)exposed * 1e-6, c->busbw_gbps, 100 * c->link_util_mean, 100 * c->link_util_max,
               c->op->loc.file ? c->op->loc.file : a->path, c->op->loc.line, c->op->loc.col);
    }
    printf("  (links %%: mean/max utilisation of the links a collective uses, over its time)\n");
}

/* A multi-chip run: each chip's time, and the system's (the slowest chip). */
static void print_chips(const struct rt_report *reps, int n)
{
    uint64_t sys = 0;
    printf("%5s %14s %14s %14s %14s %14s\n", "chip", "total us", "kernels us", "gaps us", "collect. us", "exposed us");
    for (int c = 0; c < n; c++) {
        const struct rt_report *r = &reps[c];
        if (r->total_ps > sys) sys = r->total_ps;
        printf("%5d %14.3f %14.3f %14.3f %14.3f %14.3f\n", c, (double)r->total_ps * 1e-6, (double)r->device_ps * 1e-6,
               (double)r->dispatch_ps * 1e-6, (double)r->collective_ps * 1e-6,
               (double)r->collective_exposed_ps * 1e-6);
    }
    printf("system: %.3f us (the slowest of %d chips)\n", (double)sys * 1e-6, n);
}

static void print_json(const struct run_args *a, const struct cc_plan *p, const struct sim *s,
                       const struct rt_report *rep, const struct rt_report *reps, int n_chips)
{
    const struct chip_desc *chip = cc_plan_chip(p);
    const struct sim_stats *st = sim_get_stats(s);
    double total_s = (double)rep->total_ps * 1e-12;
    uint64_t model_flops = 0;
    for (uint32_t k = 0; k < rep->n_kernels; k++) model_flops += rep->kernels[k].model_flops;
    enum chip_rate_class rc = peak_class(p);
    double peak = chip_peak_flops(chip, rc);
    printf("{\"model\": ");
    json_str(stdout, a->path);
    printf(", \"chip\": ");
    json_str(stdout, chip->name);
    printf(", \"mode\": \"%s\", \"cores\": %d, \"timing_only\": %s,\n", cc_mode_name(cc_plan_mode(p)), cc_plan_n_cores(p),
           a->timing_only ? "true" : "false");
    printf(" \"total_ps\": %llu, \"total_cycles\": %llu, \"clock_ghz\": %g, \"kernel_ps\": %llu, \"dispatch_ps\": %llu,\n",
           (unsigned long long)rep->total_ps,
           (unsigned long long)(st->clock_ghz > 0 ? (uint64_t)((double)rep->total_ps * st->clock_ghz / 1000.0) : 0),
           st->clock_ghz, (unsigned long long)rep->device_ps, (unsigned long long)rep->dispatch_ps);
    printf(" \"launches\": %llu, \"steps\": %llu, \"model_flops\": %llu, \"peak_class\": \"%s\", \"peak_flops\": %g, "
           "\"mfu\": %g,\n",
           (unsigned long long)rep->launches, (unsigned long long)rep->steps, (unsigned long long)model_flops,
           chip_rate_class_name(rc), peak, peak > 0 && total_s > 0 ? (double)model_flops / (total_s * peak) : 0.0);
    printf(" \"mfu_kernels\": %g,\n",
           peak > 0 && rep->device_ps ? (double)model_flops / ((double)rep->device_ps * 1e-12 * peak) : 0.0);
    printf(" \"hbm_bytes\": %llu, \"hbm_gbps\": %g, \"hbm_gbps_kernels\": %g, \"hbm_peak_gbps\": %g, "
           "\"plan_hbm_bytes\": %llu,\n \"engines\": {",
           (unsigned long long)st->hbm_bytes, total_s > 0 ? (double)st->hbm_bytes / total_s * 1e-9 : 0.0,
           rep->device_ps ? (double)st->hbm_bytes / ((double)rep->device_ps * 1e-12) * 1e-9 : 0.0,
           chip->hbm.bytes_per_ns, (unsigned long long)cc_plan_hbm_bytes(p));
    bool first = true;
    for (int kd = 0; kd < ISA_ENGINE_KIND_COUNT; kd++) {
        uint64_t busy = 0, n = 0;
        for (uint32_t e = 0; e < st->n_engines; e++)
            if ((int)st->engines[e].kind == kd) {
                busy += st->engines[e].busy_ps;
                n++;
            }
        if (!n) continue;
        printf("%s\"%s\": %g", first ? "" : ", ", isa_engine_kind_name((enum isa_engine_kind)kd),
               rep->total_ps ? (double)busy / ((double)n * (double)rep->total_ps) : 0.0);
        first = false;
    }
    printf("},\n \"kernels\": [");
    for (uint32_t k = 0; k < rep->n_kernels; k++) {
        const struct rt_kernel_stats *ks = &rep->kernels[k];
        const struct cc_kernel_info *ki = cc_plan_kernel_info(p, k);
        printf("%s\n  {\"name\": ", k ? "," : "");
        json_str(stdout, ki->name);
        printf(", \"launches\": %llu, \"time_ps\": %llu, \"dispatch_ps\": %llu, \"model_flops\": %llu, \"flops\": %llu, "
               "\"hbm_bytes\": %llu, \"bound\": \"%s\"",
               (unsigned long long)ks->launches, (unsigned long long)ks->time_ps, (unsigned long long)ks->dispatch_ps,
               (unsigned long long)ks->model_flops, (unsigned long long)ks->flops, (unsigned long long)ks->hbm_bytes,
               ks->launches ? rt_bound_name(ks->bound) : "none");
        if (ki->root) printf(", \"line\": %d, \"col\": %d", ki->root->loc.line, ki->root->loc.col);
        printf("}");
    }
    printf("\n ],\n \"partitions\": %d, \"collectives\": %llu, \"collective_bytes\": %.17g, \"collective_ps\": %llu, "
           "\"collective_exposed_ps\": %llu,\n \"collective_table\": [",
           cc_plan_num_partitions(p), (unsigned long long)rep->collectives, rep->collective_bytes,
           (unsigned long long)rep->collective_ps, (unsigned long long)rep->collective_exposed_ps);
    for (uint32_t i = 0; i < rep->n_colls; i++) {
        const struct rt_collective *c = &rep->colls[i];
        printf("%s\n  {\"op\": ", i ? "," : "");
        json_str(stdout, c->op->name);
        printf(", \"line\": %d, \"bytes\": %.17g, \"algorithm\": \"%s\", \"group_size\": %u, \"groups\": %u, "
               "\"start_ps\": %llu, \"time_ps\": %llu, \"exposed_ps\": %llu, \"busbw_gbps\": %g, \"link_util_mean\": %g, "
               "\"link_util_max\": %g}",
               c->op->loc.line, c->bytes, c->algorithm, c->group_size, c->n_groups, (unsigned long long)c->start_ps,
               (unsigned long long)c->time_ps, (unsigned long long)c->exposed_ps, c->busbw_gbps, c->link_util_mean,
               c->link_util_max);
    }
    printf("\n ],");
    /* the chips simulated (one: the representative partition of an SPMD plan run timing-only) */
    uint64_t sys = 0;
    printf("\n \"chips_simulated\": %d, \"chips\": [", n_chips);
    for (int c = 0; c < n_chips; c++) {
        const struct rt_report *r = &reps[c];
        if (r->total_ps > sys) sys = r->total_ps;
        printf("%s\n  {\"total_ps\": %llu, \"kernel_ps\": %llu, \"dispatch_ps\": %llu, \"collective_ps\": %llu, "
               "\"collective_exposed_ps\": %llu}",
               c ? "," : "", (unsigned long long)r->total_ps, (unsigned long long)r->device_ps,
               (unsigned long long)r->dispatch_ps, (unsigned long long)r->collective_ps,
               (unsigned long long)r->collective_exposed_ps);
    }
    printf("\n ],\n \"system_ps\": %llu,", (unsigned long long)sys);
    printf("\n \"checks\": %d, \"checks_failed\": %d", rep->n_checks, rep->n_checks_failed);
}

/* --trace: a recorder for the run, its parameters in the trace header. */
static int start_trace(const struct run_args *a, const struct chip_desc *chip, const struct cc_plan *p,
                       struct rec_recorder **out)
{
    struct rec_recorder *r = NULL;
    char v[64];
    snprintf(v, sizeof v, "%ld", a->seed);
    enum base_status st = rec_recorder_create(chip, 0, &r);
    if (st == BASE_OK) st = rec_recorder_describe_plan(r, p);
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "model", a->path);
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "seed", a->seed >= 0 ? v : "none");
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "timing_only", a->timing_only ? "true" : "false");
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "precision", isa_precision_name(a->precision));
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "sim_checks", a->sim_checks ? "true" : "false");
    if (st == BASE_OK) st = rec_recorder_set_meta(r, "npusim", NPUSIM_VERSION);
    if (st != BASE_OK) {
        fprintf(stderr, "npusim run: --trace: %s\n", base_status_str(st));
        rec_recorder_destroy(r);
        return TOOL_FAIL;
    }
    *out = r;
    return 0;
}

/* Writes the trace; also after a failed run (error: its message), which is
 * when one is most wanted. */
static int finish_trace(const struct run_args *a, struct rec_recorder *r, uint64_t total_ps, const struct base_diag *error)
{
    double t0 = now_s();
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)total_ps);
    struct trc_trace *t = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    uint64_t n = rec_recorder_n_records(r);
    enum base_status st = rec_recorder_set_meta(r, "total_ps", v);
    if (st == BASE_OK && error) {
        char msg[BASE_DIAG_MSG_MAX + 64];
        base_diag_format(error, msg, sizeof msg);
        st = rec_recorder_set_meta(r, "error", msg);
    }
    if (st == BASE_OK) st = rec_recorder_finish(r, &t);
    enum trc_format fmt = TRC_FORMAT_NPT;
    trc_format_from_path(a->trace, &fmt);
    if (st == BASE_OK) st = trc_write(t, a->trace, fmt, &d);
    trc_trace_destroy(t);
    if (st != BASE_OK) {
        if (d.status != BASE_OK) tool_print_diag(&d);
        else fprintf(stderr, "npusim run: --trace %s: %s\n", a->trace, base_status_str(st));
        return TOOL_FAIL;
    }
    fprintf(stderr, "npusim run: trace %s: %llu records, written in %.2f s\n", a->trace, (unsigned long long)n,
            now_s() - t0);
    return 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc < 0 ? TOOL_OK : rc;
    double t0 = now_s();
    struct base_diag d;
    base_diag_clear(&d);
    static struct chip_desc chip;
    if (chip_load(a.chip_name, &chip, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct graph_module *m = tool_load_model(a.path, true);
    if (!m) return TOOL_FAIL;
    /* an unsharded program with a mesh (--mesh, --shard, or --chips N: a
     * mesh of N) runs partitioned; m0 stays the program the golden
     * interpreter runs */
    struct graph_module *m0 = NULL;
    bool partition = a.mesh || a.n_shards || (a.chips > 1 && interp_module_mesh_size(m) == 1);
    if (partition) {
        char mesh_buf[32];
        snprintf(mesh_buf, sizeof mesh_buf, "%d", a.chips);
        struct graph_module *mp = NULL; /* its ops at the original ops' positions */
        rc = tool_partition(m, a.path, a.entry, a.mesh ? a.mesh : a.chips > 1 ? mesh_buf : NULL, a.shards, a.n_shards,
                            &mp);
        if (rc != TOOL_OK) {
            graph_module_destroy(m);
            return rc;
        }
        m0 = m;
        m = mp;
    }
    const struct graph_op *func = a.entry ? graph_module_find_func(m, a.entry) : graph_module_entry(m);
    if (!func || func->n_regions < 1 || func->regions[0].n_blocks < 1) {
        fprintf(stderr, "npusim run: %s: no function %s%s to run\n", a.path, a.entry ? "@" : "@main", a.entry ? a.entry : "");
        graph_module_destroy(m);
        graph_module_destroy(m0);
        return TOOL_FAIL;
    }
    int n_args = func->regions[0].blocks[0].n_args;
    struct base_tensor **in = calloc((size_t)n_args + 1, sizeof *in);
    struct cc_plan *p = NULL;
    struct sim **sims = NULL;
    int n_sims = 0;
    struct base_tensor **outs = NULL;
    struct rt_report *reps = NULL;
    struct interp_result gold;
    memset(&gold, 0, sizeof gold);
    struct rec_recorder *rec = NULL;
    rc = TOOL_FAIL;
    if (make_inputs(&a, func, in)) goto done;
    struct cc_options co;
    cc_options_default(&co);
    co.mode = a.mode;
    co.entry = a.entry;
    co.n_cores = a.cores;
    co.default_precision = a.precision;
    if (cc_compile(m, &chip, &co, &p, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    if (a.chips && a.chips != cc_plan_num_partitions(p)) {
        fprintf(stderr, "npusim run: --chips %d, but %s is a program of %d partition(s)%s\n", a.chips, a.path,
                cc_plan_num_partitions(p), partition ? " on the --mesh given" : " (its sdy.mesh)");
        goto done;
    }
    static struct icn_topo topo;
    if (a.topology && icn_topo_from_chip(&chip, a.topology, ICN_WRAP_AUTO, NULL, &topo, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = a.timing_only;
    so.check_races = so.check_uninit = a.sim_checks;
    if (a.trace && start_trace(&a, &chip, p, &rec) != 0) goto done;
    if (rec) so.hooks = rec_recorder_hooks(rec);
    /* an SPMD program with values runs every partition on its own chip; else
     * one chip (a representative partition when timing-only) */
    bool multi = cc_plan_num_partitions(p) > 1 && !a.timing_only;
    n_sims = multi ? cc_plan_num_partitions(p) : 1;
    sims = calloc((size_t)n_sims, sizeof *sims);
    reps = calloc((size_t)n_sims, sizeof *reps);
    if (!sims || !reps) goto done;
    for (int c = 0; c < n_sims; c++) {
        if (c > 0) so.hooks = NULL; /* the trace follows chip 0 */
        if (sim_create(&chip, &so, &sims[c], &d) != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
    }
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = a.timing_only;
    if (a.topology) ro.topo = &topo;
    if (rec) {
        ro.on_launch = rec_recorder_on_launch;
        ro.launch_user = rec;
        ro.on_collective = rec_recorder_on_collective;
        ro.collective_user = rec;
    }
    outs = calloc((size_t)cc_plan_n_outputs(p) + 1, sizeof *outs);
    double t1 = now_s();
    enum base_status rst = multi ? rt_run_spmd(p, sims, n_sims, in, n_args, &ro, outs, reps, &d)
                                 : rt_run(p, sims[0], in, n_args, &ro, outs, reps, &d);
    if (rst != BASE_OK) {
        tool_print_diag(&d);
        if (rec) finish_trace(&a, rec, sim_now_ps(sims[0]), &d);
        goto done;
    }
    struct sim *s = sims[0];
    struct rt_report rep = reps[0];
    double t_run = now_s() - t1;
    if (rec && finish_trace(&a, rec, rep.total_ps, NULL) != 0) goto done;
    if (a.json) print_json(&a, p, s, &rep, reps, n_sims);
    else print_text(&a, p, s, &rep, now_s() - t0);
    if (!a.json) print_collectives(&a, &rep);
    if (multi && !a.json) print_chips(reps, n_sims);
    else if (cc_plan_num_partitions(p) > 1 && !a.json)
        printf("system: %.3f us: %d chips, 1 simulated (the representative partition), %d inferred by SPMD "
               "symmetry; collectives on %s\n",
               (double)rep.total_ps * 1e-6, cc_plan_num_partitions(p), cc_plan_num_partitions(p) - 1,
               a.topology ? a.topology : "the chip's default slice");
    bool ok = true;
    for (int c = 0; c < n_sims; c++) ok &= reps[c].n_checks_failed == 0;
    for (int c = 0; c < n_sims; c++) { /* their memory, before the golden run takes its own */
        sim_destroy(sims[c]);
        sims[c] = NULL;
    }
    if (a.check) {
        struct interp_options io;
        memset(&io, 0, sizeof io);
        io.num_partitions = m0 ? 1 : cc_plan_num_partitions(p); /* the unsharded program, or the SPMD one */
        if (interp_run(m0 ? m0 : m, a.entry, in, n_args, &io, &gold, &d) != BASE_OK) {
            if (a.json) printf("}\n");
            tool_print_diag(&d);
            goto done;
        }
        if (a.json) printf(",\n \"check\": [");
        for (int i = 0; i < cc_plan_n_outputs(p) && i < gold.n_outputs; i++) {
            struct rt_compare cmp;
            rt_compare_output(p, outs[i], gold.outputs[i], &cmp);
            ok &= cmp.passed;
            char ty[96];
            base_tensor_type_str(gold.outputs[i], ty, sizeof ty);
            if (a.json) {
                printf("%s\n  {\"output\": %d, \"passed\": %s, \"bad\": %lld, \"worst_ratio\": %g, \"max_abs_err\": %g, "
                       "\"rtol\": %g, \"atol\": %g, \"exact\": %s}",
                       i ? "," : "", i, cmp.passed ? "true" : "false", (long long)cmp.n_bad,
                       isfinite(cmp.worst_ratio) ? cmp.worst_ratio : -1.0, cmp.max_abs_err, cmp.tol.rtol, cmp.tol.atol,
                       cmp.tol.exact ? "true" : "false");
            } else if (cmp.tol.exact) {
                printf("check output %d tensor<%s>: %s (exact)", i, ty, cmp.passed ? "ok" : "MISMATCH");
                if (!cmp.passed)
                    printf(": %lld elements differ, e.g. [%lld] %.17g vs %.17g", (long long)cmp.n_bad, (long long)cmp.worst,
                           cmp.got_at_worst, cmp.want_at_worst);
                printf("\n");
            } else {
                printf("check output %d tensor<%s>: %s: worst error %.3g of its bound at [%lld] (%.9g vs %.9g), max "
                       "|err| %.3g, bound %.3g + %.3g |want|%s\n",
                       i, ty, cmp.passed ? "ok" : "MISMATCH", cmp.worst_ratio, (long long)cmp.worst, cmp.got_at_worst,
                       cmp.want_at_worst, cmp.max_abs_err, cmp.tol.atol, cmp.tol.rtol,
                       cmp.passed ? "" : " (elements out of bound)");
                if (cmp.n_bad)
                    printf("  %lld elements out of bound (%lld allowed, by at most 4x: docs/compiler.md)\n",
                           (long long)cmp.n_bad, (long long)cmp.n_allowed);
            }
        }
        if (a.json) printf("\n ]");
    }
    if (a.json) printf("}\n");
    if (a.out_dir && !a.timing_only) {
        if (tool_mkdir_p(a.out_dir) != 0) {
            fprintf(stderr, "npusim run: cannot create %s: %s\n", a.out_dir, strerror(errno));
            goto done;
        }
        for (int i = 0; i < cc_plan_n_outputs(p); i++) {
            char file[4096];
            snprintf(file, sizeof file, "%s/output_%d.npy", a.out_dir, i);
            if (base_npy_write(file, outs[i], &d) != BASE_OK) {
                tool_print_diag(&d);
                goto done;
            }
        }
        if (!a.json) printf("wrote %d output file(s) to %s\n", cc_plan_n_outputs(p), a.out_dir);
    }
    fprintf(stderr, "npusim run: simulation %.2f s\n", t_run);
    if (!ok && a.check && a.precision != ISA_PREC_HIGHEST && chip.fp32_passes_default <= 1 &&
        any_f32_matmul(p))
        fprintf(stderr, "npusim run: hint: f32 matmuls ran at the chip's DEFAULT precision (%u bf16 pass, as on the "
                        "real chip); --precision highest compares at f32 (docs/compiler.md)\n",
                chip.fp32_passes_default);
    rc = ok ? TOOL_OK : TOOL_FAIL;
done:
    if (outs && p)
        for (int i = 0; i < cc_plan_n_outputs(p); i++) base_tensor_release(outs[i]);
    free(outs);
    interp_result_free(&gold);
    for (int c = 0; reps && c < n_sims; c++) rt_report_free(&reps[c]);
    free(reps);
    for (int c = 0; sims && c < n_sims; c++) sim_destroy(sims[c]);
    free(sims);
    rec_recorder_destroy(rec);
    cc_plan_destroy(p);
    for (int i = 0; i < n_args; i++) base_tensor_release(in[i]);
    free(in);
    graph_module_destroy(m);
    graph_module_destroy(m0);
    return rc;
}
