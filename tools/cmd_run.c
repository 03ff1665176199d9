/* npusim run MODEL.mlir --chip NAME [--mode M] [--inputs ...|--random-inputs SEED] [--timing-only]
 *                       [--check] [--out DIR] [--json] [--trace FILE] */
#include "tools/tools.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "sim/sim.h"
#include "record/record.h"
#include "traces/traces.h"
#include "interp/interp.h"
#include "report/report.h"
#include "graph/refine.h"

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
            "                  [--precision default|high|highest] [--checks|--no-checks]\n"
            "                  [--no-loop-reuse] [--trace FILE]\n"
            "                  [--chips N] [--mesh AXES] [--shard ARG=SPEC]... [--topology SHAPE]\n"
            "                  [--shape ARG=DIMS]... [--dim ARG=N]... [--lnc N | --ranks-per-chip N]\n"
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
            "  --shape ARG=DIMS     a dynamic program ('?' dimensions) is refined to these\n"
            "                       argument shapes (ARG: index or name; DIMS: 4x128), or to\n"
            "                       the shapes of --inputs, before it is compiled\n"
            "  --dim ARG=N          the value of a dimension argument (a scalar integer a\n"
            "                       shape is computed from), when the shapes do not tell it\n"
            "                       (docs/dynamic-shapes.md)\n"
            "  --no-fallback        an op the chip cannot run is an error (by default it runs on\n"
            "                       the host, its transfers and host time charged)\n"
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
            "  --checks             the simulator's race and uninitialised-read checks (on by\n"
            "                       default, except in --timing-only runs, where they would\n"
            "                       cost many times the time: docs/compiler.md)\n"
            "  --no-checks          skip them\n"
            "  --no-loop-reuse      --timing-only: simulate every trip of every while loop (by\n"
            "                       default a loop whose trips repeat exactly is simulated for\n"
            "                       a few trips and the rest charged as copies; docs/compiler.md)\n"
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
            "  --lnc N              Neuron chips: N physical cores per logical core (trn2, trn3:\n"
            "                       2 by default, 4 ranks per chip; trn1, inf2: 1)\n"
            "  --ranks-per-chip N   logical devices per chip (default: the chip file's; 2 on\n"
            "                       tpu-7x).  An SPMD program's partition runs on one rank (the\n"
            "                       chip's cores and HBM divided by N), rank r on chip r / N;\n"
            "                       collectives between the ranks of a chip go through its HBM,\n"
            "                       not the links.  A program of one partition runs on the whole\n"
            "                       chip unless --lnc or --ranks-per-chip is given\n"
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


struct run_args {
    const char *path, *chip_name, *inputs, *out_dir, *entry, *trace, *topology, *mesh;
    const char *shards[64];
    int n_shards;
    enum cc_mode mode;
    long seed;
    int cores, chips, lnc, ranks_per_chip;
    bool timing_only, check, json, no_fallback, no_loop_reuse;
    int sim_checks; /* -1: the default (on, but off when timing-only); 0 off; 1 on */
    enum isa_precision precision;
    struct tool_dyn dyn;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = -1;
    a->sim_checks = -1;
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
        } else if (tool_opt(argc, argv, &i, "--lnc", &v)) {
            uint64_t x;
            if (!tool_count("run", "--lnc", v, 1, CHIP_MAX_CORES, -1, &x)) return TOOL_USAGE;
            a->lnc = (int)x;
            if (a->ranks_per_chip) {
                fprintf(stderr, "npusim run: --lnc needs a count >= 1 (and no --ranks-per-chip)\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--ranks-per-chip", &v)) {
            uint64_t x;
            if (!tool_count("run", "--ranks-per-chip", v, 1, CHIP_MAX_CORES, -1, &x)) return TOOL_USAGE;
            a->ranks_per_chip = (int)x;
            if (a->lnc) {
                fprintf(stderr, "npusim run: --ranks-per-chip needs a count >= 1 (and no --lnc)\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--chips", &v)) {
            uint64_t x; /* "4x" and 99999999999 are refused, not read as 4 or wrapped */
            if (!tool_count("run", "--chips", v, 1, 0, BASE_LIMIT_CHIPS, &x)) return TOOL_USAGE;
            if (x > INT32_MAX) {
                fprintf(stderr, "npusim run: --chips %llu: at most %d\n", (unsigned long long)x, INT32_MAX);
                return TOOL_USAGE;
            }
            a->chips = (int)x;
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
            uint64_t x; /* at most the chip's cores: checked once the chip is loaded */
            if (!tool_count("run", "--cores", v, 1, UINT32_MAX, -1, &x)) return TOOL_USAGE;
            a->cores = (int)x;
        } else if (tool_flag(argv[i], "--timing-only")) {
            a->timing_only = true;
        } else if (tool_flag(argv[i], "--no-fallback")) {
            a->no_fallback = true;
        } else if (tool_flag(argv[i], "--check")) {
            a->check = true;
        } else if (tool_flag(argv[i], "--json")) {
            a->json = true;
        } else if (tool_flag(argv[i], "--no-checks")) {
            a->sim_checks = 0;
        } else if (tool_flag(argv[i], "--checks")) {
            a->sim_checks = 1;
        } else if (tool_flag(argv[i], "--no-loop-reuse")) {
            a->no_loop_reuse = true;
        } else if (tool_dyn_opt(argc, argv, &i, &a->dyn)) {
            if (a->dyn.no_refine) {
                fprintf(stderr, "npusim run: --no-refine: the compiler needs static shapes\n");
                return TOOL_USAGE;
            }
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
    if (a->sim_checks < 0) a->sim_checks = !a->timing_only;
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
            if (base_npy_read_lim(tok, tool_limits(), &in[n], &d) != BASE_OK) {
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
        if (tool_random_tensor(b->args[i].type, (uint64_t)a->seed, i, &in[i]) != BASE_OK) {
            char ty[128];
            graph_type_str(b->args[i].type, ty, sizeof ty);
            fprintf(stderr, "npusim run: cannot generate input %d of type %s\n", i, ty);
            return TOOL_FAIL;
        }
    fprintf(stderr, "npusim run: random inputs, seed %ld\n", a->seed);
    return 0;
}

/* --trace: a recorder for the run, its parameters in the trace header. */
static int start_trace(const struct run_args *a, const struct chip_desc *chip, const struct cc_plan *p,
                       uint32_t chip_index, struct rec_recorder **out)
{
    struct rec_recorder *r = NULL;
    char v[64];
    snprintf(v, sizeof v, "%ld", a->seed);
    enum base_status st = rec_recorder_create(chip, chip_index, &r);
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

/* Writes the trace (every chip's recorder merged: one process per chip);
 * also after a failed run (error: its message), which is when one is most
 * wanted. */
static int finish_trace(const struct run_args *a, struct rec_recorder **recs, int n_recs, uint64_t total_ps,
                        const struct base_diag *error)
{
    double t0 = now_s();
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)total_ps);
    struct trc_trace *t = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    uint64_t n = 0;
    for (int c = 0; c < n_recs; c++) n += rec_recorder_n_records(recs[c]);
    enum base_status st = rec_recorder_set_meta(recs[0], "total_ps", v);
    if (st == BASE_OK && n_recs > 1) {
        snprintf(v, sizeof v, "%d", n_recs);
        st = rec_recorder_set_meta(recs[0], "chips", v);
    }
    if (st == BASE_OK && error) {
        char msg[BASE_DIAG_MSG_MAX + 64];
        base_diag_format(error, msg, sizeof msg);
        st = rec_recorder_set_meta(recs[0], "error", msg);
    }
    if (st == BASE_OK) st = rec_recorder_finish(recs[0], &t);
    for (int c = 1; c < n_recs && st == BASE_OK; c++) {
        struct trc_trace *tc = NULL;
        st = rec_recorder_finish(recs[c], &tc);
        if (st == BASE_OK) st = trc_trace_merge(t, tc);
        trc_trace_destroy(tc);
    }
    enum trc_format fmt = TRC_FORMAT_NPT;
    trc_format_from_path(a->trace, &fmt);
    if (st == BASE_OK) st = trc_write(t, a->trace, fmt, &d);
    trc_trace_destroy(t);
    if (st != BASE_OK) {
        if (d.status != BASE_OK) tool_print_diag(&d);
        else fprintf(stderr, "npusim run: --trace %s: %s\n", a->trace, base_status_str(st));
        return TOOL_FAIL;
    }
    fprintf(stderr, "npusim run: trace %s: %llu records%s, written in %.2f s\n", a->trace, (unsigned long long)n,
            n_recs > 1 ? " (every chip)" : "", now_s() - t0);
    return 0;
}

/* Whether m is written per partition already (its entry one
 * sdy.manual_computation), rather than an unsharded program, perhaps with
 * argument shardings and a mesh (`npusim model --parallel`), that
 * --chips N partitions. */
static bool spmd_program(const struct graph_module *m, const char *entry)
{
    const struct graph_op *f = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1) return interp_module_mesh_size(m) > 1;
    const struct graph_block *b = &f->regions[0].blocks[0];
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION) return true;
    return false;
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
    if (chip_load(a.chip_name, &chip, &d) != BASE_OK ||
        (a.lnc && chip_set_lnc(&chip, (uint32_t)a.lnc, &d) != BASE_OK) ||
        (a.ranks_per_chip && chip_set_ranks(&chip, (uint32_t)a.ranks_per_chip, &d) != BASE_OK)) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    if (a.cores && (uint32_t)a.cores > chip.cores) {
        fprintf(stderr, "npusim run: --cores %d: chip %s has %u cores\n", a.cores, chip.name, chip.cores);
        return TOOL_USAGE;
    }
    struct graph_module *m = tool_load_model(a.path, true);
    if (!m) return TOOL_FAIL;
    /* timing-only runs need no values: elided constants stay as they are */
    if (tool_unknown_dialects(m, a.path, stderr) ||
        tool_fill_elided(m, "run", a.timing_only ? -1 : a.seed, !a.timing_only)) {
        graph_module_destroy(m);
        return TOOL_FAIL;
    }
    /* a dynamic program is compiled refined to its inputs' shapes; --check
     * runs the original, dynamic one on the interpreter */
    struct graph_module *m_dyn = NULL;
    struct graph_refine_result rres;
    int rc_dyn = tool_dyn_refine("run", &m, &m_dyn, a.entry, a.inputs, &a.dyn, &rres);
    if (rc_dyn != TOOL_OK) {
        graph_module_destroy(m);
        return rc_dyn;
    }
    /* an unsharded program with a mesh (--mesh, --shard, or --chips N: a
     * mesh of N) runs partitioned; m0 stays the program the golden
     * interpreter runs */
    struct graph_module *m0 = NULL;
    bool partition = a.mesh || a.n_shards || (a.chips > 1 && !spmd_program(m, a.entry));
    if (partition) {
        char mesh_buf[32];
        snprintf(mesh_buf, sizeof mesh_buf, "%d", a.chips);
        struct graph_module *mp = NULL; /* its ops at the original ops' positions */
        rc = tool_partition(m, a.path, a.entry, a.mesh ? a.mesh : a.chips > 1 && interp_module_mesh_size(m) == 1 ? mesh_buf : NULL, a.shards, a.n_shards,
                            &mp);
        if (rc != TOOL_OK) {
            graph_module_destroy(m);
            graph_module_destroy(m_dyn);
            return rc;
        }
        m0 = m;
        m = mp;
    }
    /* an SPMD program's partitions run on ranks: each on one rank's share of
     * a chip (its cores and HBM), rank r on chip r / ranks_per_chip; a
     * program of one partition on the whole chip, unless --lnc or
     * --ranks-per-chip asks for a rank (docs/interconnect.md "Ranks") */
    if (interp_module_mesh_size(m) > 1 || a.lnc || a.ranks_per_chip) chip_rank_view(&chip, &chip);
    const struct graph_op *func = a.entry ? graph_module_find_func(m, a.entry) : graph_module_entry(m);
    if (!func || func->n_regions < 1 || func->regions[0].n_blocks < 1) {
        fprintf(stderr, "npusim run: %s: no function %s%s to run\n", a.path, a.entry ? "@" : "@main", a.entry ? a.entry : "");
        graph_module_destroy(m);
        graph_module_destroy(m0);
        graph_module_destroy(m_dyn);
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
    struct rec_recorder **recs = NULL; /* one per simulated chip */
    void **users = NULL;                /* the same, for rt_options.chip_users */
    struct rep_run *report = NULL;
    rc = TOOL_FAIL;
    if (make_inputs(&a, func, in)) goto done;
    if (!a.inputs) tool_dyn_set_dim_args(in, n_args, &rres);
    struct cc_options co;
    cc_options_default(&co);
    co.mode = a.mode;
    co.entry = a.entry;
    co.n_cores = a.cores;
    co.default_precision = a.precision;
    co.no_fallback = a.no_fallback;
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
    if (a.topology && icn_topo_from_chip_lim(&chip, a.topology, ICN_WRAP_AUTO, NULL, tool_limits(), &topo, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    if (a.topology && topo.n_ranks != (uint32_t)cc_plan_num_partitions(p)) {
        fprintf(stderr, "npusim run: --topology %s has %u rank%s, but %s is a program of %d partition(s): one rank "
                        "per partition\n",
                a.topology, topo.n_ranks, topo.n_ranks == 1 ? "" : "s", a.path, cc_plan_num_partitions(p));
        goto done;
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = a.timing_only;
    so.check_races = so.check_uninit = a.sim_checks;
    so.limits = tool_limits();
    /* an SPMD program with values runs every partition on its own chip; else
     * one chip (a representative partition when timing-only) */
    bool multi = cc_plan_num_partitions(p) > 1 && !a.timing_only;
    n_sims = multi ? cc_plan_num_partitions(p) : 1;
    sims = calloc((size_t)n_sims, sizeof *sims);
    reps = calloc((size_t)n_sims, sizeof *reps);
    recs = calloc((size_t)n_sims, sizeof *recs);
    users = calloc((size_t)n_sims, sizeof *users);
    if (!sims || !reps || !recs || !users) goto done;
    for (int c = 0; a.trace && c < n_sims; c++) /* every chip its own recorder, merged at the end */
        if (start_trace(&a, &chip, p, (uint32_t)c, &recs[c]) != 0) goto done;
        else users[c] = recs[c];
    for (int c = 0; c < n_sims; c++) {
        so.hooks = recs[c] ? rec_recorder_hooks(recs[c]) : NULL;
        if (sim_create(&chip, &so, &sims[c], &d) != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
    }
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = a.timing_only;
    ro.limits = tool_limits();
    ro.loop_reuse = a.timing_only && !a.no_loop_reuse && !a.trace; /* a trace wants every trip's events */
    if (a.topology) ro.topo = &topo;
    if (a.trace) {
        ro.on_launch = rec_recorder_on_launch;
        ro.launch_user = recs[0];
        ro.on_collective = rec_recorder_on_collective;
        ro.collective_user = recs[0];
        ro.chip_users = multi ? users : NULL;
    }
    outs = calloc((size_t)cc_plan_n_outputs(p) + 1, sizeof *outs);
    double t1 = now_s();
    enum base_status rst = multi ? rt_run_spmd(p, sims, n_sims, in, n_args, &ro, outs, reps, &d)
                                 : rt_run(p, sims[0], in, n_args, &ro, outs, reps, &d);
    if (rst != BASE_OK) {
        tool_print_diag(&d);
        if (a.trace) finish_trace(&a, recs, n_sims, sim_now_ps(sims[0]), &d);
        goto done;
    }
    double t_run = now_s() - t1;
    if (a.trace && finish_trace(&a, recs, n_sims, reps[0].total_ps, NULL) != 0) goto done;
    struct rep_source src = {.model = a.path, .plan = p, .stats = sim_get_stats(sims[0]), .chips = reps,
                             .n_chips = n_sims, .timing_only = a.timing_only, .topology = a.topology,
                             .ranks_per_chip = chip.ranks_per_chip};
    if (rep_run_create(&src, &report) != BASE_OK) {
        fprintf(stderr, "npusim run: out of memory\n");
        goto done;
    }
    /* the text report now; the JSON object once the outputs are checked */
    if (!a.json) {
        rep_run_write_text(report, stdout);
        fprintf(stderr, "npusim run: host time %.2f s\n", now_s() - t0);
    }
    for (int c = 0; c < n_sims; c++) { /* their memory, before the golden run takes its own */
        sim_destroy(sims[c]);
        sims[c] = NULL;
    }
    if (a.check) {
        struct interp_options io;
        memset(&io, 0, sizeof io);
        io.num_partitions = m0 ? 1 : cc_plan_num_partitions(p); /* the unsharded program, or the SPMD one */
        io.limits = tool_limits();
        if (interp_run(m_dyn ? m_dyn : m0 ? m0 : m, a.entry, in, n_args, &io, &gold, &d) != BASE_OK) {
            if (a.json) rep_run_write_json(report, stdout);
            tool_print_diag(&d);
            goto done;
        }
        if (rep_run_check_outputs(report, p, outs, gold.outputs, gold.n_outputs) != BASE_OK) {
            fprintf(stderr, "npusim run: out of memory\n");
            goto done;
        }
        if (!a.json) rep_run_write_text_checks(report, stdout);
    }
    if (a.json) rep_run_write_json(report, stdout);
    if (a.out_dir && !a.timing_only) {
        if (!tool_out_dir("run", a.out_dir)) goto done;
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
    for (int i = 0; i < report->n_hints; i++) fprintf(stderr, "npusim run: hint: %s\n", report->hints[i]);
    rc = report->passed ? TOOL_OK : TOOL_FAIL;
done:
    rep_run_destroy(report);
    if (outs && p)
        for (int i = 0; i < cc_plan_n_outputs(p); i++) base_tensor_release(outs[i]);
    free(outs);
    interp_result_free(&gold);
    for (int c = 0; reps && c < n_sims; c++) rt_report_free(&reps[c]);
    free(reps);
    for (int c = 0; sims && c < n_sims; c++) sim_destroy(sims[c]);
    free(sims);
    for (int c = 0; recs && c < n_sims; c++) rec_recorder_destroy(recs[c]);
    free(recs);
    free(users);
    cc_plan_destroy(p);
    for (int i = 0; i < n_args; i++) base_tensor_release(in[i]);
    free(in);
    graph_module_destroy(m);
    graph_module_destroy(m0);
    graph_module_destroy(m_dyn);
    return rc;
}
