/* npusim interp MODEL.mlir [--inputs a.npy,...] [--random-inputs SEED] [--out DIR] ... */
#include "tools/tools.h"
#include "interp/interp.h"
#include "graph/refine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim interp MODEL.mlir [--inputs A.npy,B.npy,...] [--random-inputs SEED]\n"
            "                     [--out DIR] [--entry NAME] [--partitions N] [--replicas N]\n"
            "                     [--shape ARG=DIMS]... [--dim ARG=N]... [--no-refine]\n"
            "\n"
            "Runs a StableHLO program on the golden interpreter (StableHLO spec semantics)\n"
            "and prints a summary of each output.\n"
            "  --inputs LIST        one .npy per entry-function argument, in order\n"
            "  --random-inputs SEED generate inputs: floats uniform with mean 0 and standard\n"
            "                       deviation 1, or 1/sqrt(last dim) for rank >= 2 (weight-like);\n"
            "                       integers uniform in [0, 1000); booleans 50/50.\n"
            "                       Deterministic for a seed.\n"
            "  --out DIR            write outputs as DIR/output_<i>.npy (process p of a\n"
            "                       multi-process run: DIR/p<p>_output_<i>.npy)\n"
            "  --entry NAME         function to run (default: @main, or the only function)\n"
            "  --partitions N       SPMD partitions (default: the size of the module's sdy.mesh)\n"
            "  --replicas N         replicas (default 1)\n"
            "  --shape ARG=DIMS     a dynamic program ('?' dimensions) runs at these argument\n"
            "                       shapes (ARG: index or name; DIMS: 4x128), with\n"
            "                       --random-inputs; with --inputs, the files' shapes\n"
            "  --dim ARG=N          the value of a dimension argument (a scalar integer a\n"
            "                       shape is computed from), when the shapes do not tell it\n"
            "  --no-refine          run a dynamic program as it is, not refined to static\n"
            "                       shapes first (docs/dynamic-shapes.md)\n"
            "bf16 is read and written as '<V2' .npy (ml_dtypes' raw bfloat16).\n");
}


static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A 64-bit digest of a tensor's bytes (and shape), to compare runs. */
static uint64_t digest(const struct base_tensor *t)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)t->dtype;
    for (int d = 0; d < t->rank; d++) h = (h ^ (uint64_t)t->dims[d]) * UINT64_C(0x100000001B3);
    size_t n = base_tensor_nbytes(t), i = 0;
    const unsigned char *p = t->data;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0xFF51AFD7ED558CCD);
        h ^= h >> 32;
    }
    for (; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001B3);
    return h;
}

/* One line per output: type, min/max/mean over the non-NaN elements, the
 * first values and a digest of the bytes.  Converted in chunks with base_convert (fast for bf16/f32),
 * as outputs of real models have hundreds of millions of elements. */
static void summarize(int i, const struct base_tensor *t)
{
    char ty[128];
    base_tensor_type_str(t, ty, sizeof ty);
    printf("output %d: tensor<%s>", i, ty);
    if (t->count == 0 || base_dtype_is_complex(t->dtype)) {
        printf("%s  digest %016llx\n", t->count ? "" : " (empty)", (unsigned long long)digest(t));
        return;
    }
    enum { CHUNK = 4096 };
    double buf[CHUNK];
    double mn = INFINITY, mx = -INFINITY, sum = 0, first[4] = {0};
    int64_t nan = 0;
    size_t esize = base_dtype_size(t->dtype);
    for (int64_t start = 0; start < t->count; start += CHUNK) {
        size_t m = (size_t)(t->count - start < CHUNK ? t->count - start : CHUNK);
        base_convert(BASE_DT_F64, buf, t->dtype, (const char *)t->data + (size_t)start * esize, m);
        if (start == 0) memcpy(first, buf, (m < 4 ? m : 4) * sizeof *buf);
        for (size_t j = 0; j < m; j++) {
            double v = buf[j];
            if (isnan(v)) {
                nan++;
                continue;
            }
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
            sum += v;
        }
    }
    int64_t n = t->count - nan;
    printf("  min %.6g  max %.6g  mean %.6g", mn, mx, n ? sum / (double)n : NAN);
    if (nan) printf("  NaN: %lld", (long long)nan);
    printf("  first:");
    for (int64_t j = 0; j < t->count && j < 4; j++) printf(" %.6g", first[j]);
    printf("  digest %016llx\n", (unsigned long long)digest(t));
}

int cmd_interp(int argc, char **argv)
{
    const char *path = NULL, *inputs = NULL, *out_dir = NULL, *entry = NULL, *v = NULL;
    long seed = -1;
    int partitions = 0, replicas = 1;
    struct tool_dyn dyn;
    memset(&dyn, 0, sizeof dyn);
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--inputs", &inputs)) {
        } else if (tool_opt(argc, argv, &i, "--out", &out_dir)) {
        } else if (tool_opt(argc, argv, &i, "--entry", &entry)) {
        } else if (tool_opt(argc, argv, &i, "--random-inputs", &v)) {
            char *end;
            seed = strtol(v, &end, 0);
            if (*end || seed < 0) {
                fprintf(stderr, "npusim interp: --random-inputs needs a seed >= 0\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--partitions", &v)) {
            partitions = atoi(v);
        } else if (tool_opt(argc, argv, &i, "--replicas", &v)) {
            replicas = atoi(v);
        } else if (tool_dyn_opt(argc, argv, &i, &dyn)) {
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim interp: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "npusim interp: one model at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!path) {
        help(stderr);
        return TOOL_USAGE;
    }
    if (inputs && seed >= 0) {
        fprintf(stderr, "npusim interp: give --inputs or --random-inputs, not both\n");
        return TOOL_USAGE;
    }
    if (replicas < 1 || partitions < 0 || (long)replicas * (partitions ? partitions : 1) > 4096) {
        fprintf(stderr, "npusim interp: bad --replicas/--partitions\n");
        return TOOL_USAGE;
    }
    double t0 = now_s();
    struct graph_module *m = tool_load_model(path, true);
    if (!m) return TOOL_FAIL;
    if (tool_unknown_dialects(m, path, stderr) || tool_fill_elided(m, "interp", seed, true)) {
        graph_module_destroy(m);
        return TOOL_FAIL;
    }
    /* a dynamic program: refined to the shapes of its inputs */
    struct graph_module *m_dyn = NULL;
    struct graph_refine_result rres;
    memset(&rres, 0, sizeof rres);
    int rc_dyn = dyn.no_refine && inputs ? TOOL_OK : tool_dyn_refine("interp", &m, &m_dyn, entry, inputs, &dyn, &rres);
    if (rc_dyn != TOOL_OK) {
        graph_module_destroy(m);
        return rc_dyn;
    }
    double t_parse = now_s() - t0;
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func || func->n_regions < 1 || func->regions[0].n_blocks < 1) {
        fprintf(stderr, "npusim interp: %s: no function %s%s to run\n", path, entry ? "@" : "@main",
                entry ? entry : "");
        graph_module_destroy(m);
        return TOOL_FAIL;
    }
    if (!partitions) partitions = interp_module_mesh_size(m);
    const struct graph_block *b = &func->regions[0].blocks[0];
    int n_args = b->n_args;
    struct base_tensor **in = calloc((size_t)(n_args ? n_args : 1), sizeof *in);
    int rc = TOOL_FAIL;
    struct base_diag d;
    base_diag_clear(&d);
    if (inputs) {
        char *list = strdup(inputs), *save = NULL;
        int n = 0;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (n >= n_args) {
                n++;
                continue;
            }
            if (base_npy_read(tok, &in[n], &d) != BASE_OK) {
                tool_print_diag(&d);
                free(list);
                goto done;
            }
            n++;
        }
        free(list);
        if (n != n_args) {
            fprintf(stderr, "npusim interp: @%s takes %d input(s), --inputs gives %d\n", graph_func_name(func), n_args, n);
            goto done;
        }
    } else if (n_args > 0) {
        if (seed < 0) {
            fprintf(stderr, "npusim interp: @%s takes %d input(s): give --inputs or --random-inputs SEED\n",
                    graph_func_name(func), n_args);
            goto done;
        }
        for (int i = 0; i < n_args; i++) {
            enum base_status st = tool_random_tensor(b->args[i].type, (uint64_t)seed, i, true, &in[i]);
            if (st != BASE_OK) {
                char ty[128];
                graph_type_str(b->args[i].type, ty, sizeof ty);
                fprintf(stderr, "npusim interp: cannot generate input %d of type %s: %s\n", i, ty,
                        base_status_str(st));
                goto done;
            }
        }
        tool_dyn_set_dim_args(in, n_args, &rres);
        fprintf(stderr, "npusim interp: random inputs, seed %ld\n", seed);
    }
    double t1 = now_s();
    struct interp_options opt = {0};
    opt.num_replicas = replicas;
    opt.num_partitions = partitions;
    struct base_logger log;
    base_logger_init(&log, BASE_LOG_WARN);
    opt.log = &log;
    struct interp_result res;
    enum base_status st = interp_run(dyn.no_refine && m_dyn ? m_dyn : m, entry, in, n_args, &opt, &res, &d);
    double t_run = now_s() - t1;
    if (res.n_checks)
        printf("checks: %d run, %d failed\n", res.n_checks, res.n_checks_failed);
    for (int i = 0; i < res.n_checks; i++)
        if (!res.checks[i].passed)
            printf("  FAIL %s:%d:%d: %s\n", path, res.checks[i].loc.line, res.checks[i].loc.col, res.checks[i].what);
    if (st != BASE_OK) {
        tool_print_diag(&d);
        interp_result_free(&res);
        goto done;
    }
    int nproc = res.n_processes;
    for (int i = 0; i < res.n_outputs; i++) summarize(i, res.outputs[i]);
    if (out_dir) {
        if (!tool_out_dir("interp", out_dir)) {
            interp_result_free(&res);
            goto done;
        }
        for (int p = 0; p < nproc; p++)
            for (int i = 0; i < res.n_outputs; i++) {
                char file[4096];
                if (nproc == 1) snprintf(file, sizeof file, "%s/output_%d.npy", out_dir, i);
                else snprintf(file, sizeof file, "%s/p%d_output_%d.npy", out_dir, p, i);
                if (base_npy_write(file, res.outputs[p * res.n_outputs + i], &d) != BASE_OK) {
                    tool_print_diag(&d);
                    interp_result_free(&res);
                    goto done;
                }
            }
        printf("wrote %d output file(s) to %s\n", nproc * res.n_outputs, out_dir);
    }
    fprintf(stderr, "npusim interp: parse+verify %.2f s, run %.2f s on %d process(es)\n", t_parse, t_run, nproc);
    rc = res.n_checks_failed ? TOOL_FAIL : TOOL_OK;
    interp_result_free(&res);
done:
    for (int i = 0; i < n_args; i++) base_tensor_release(in[i]);
    free(in);
    graph_module_destroy(m);
    graph_module_destroy(m_dyn);
    return rc;
}
