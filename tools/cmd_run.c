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
#include "dist/dist.h"

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
            "                  [--check | --expect DIR] [--rtol R] [--atol A] [--out DIR] [--json]\n"
            "                  [--entry NAME] [--cores N]\n"
            "                  [--precision default|high|highest] [--checks|--no-checks]\n"
            "                  [--no-loop-reuse] [--trace FILE]\n"
            "                  [--weights FILE|DIR [--weights-map MAP]] [--max-memory SIZE] [--quiet]\n"
            "                  [--chips N] [--mesh AXES] [--shard ARG=SPEC]... [--topology SHAPE]\n"
            "                  [--shape ARG=DIMS]... [--dim ARG=N]... [--lnc N | --ranks-per-chip N]\n"
            "                  [--mpi]\n"
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
            "  --random-inputs SEED random inputs, as `npusim interp --random-inputs`; large ones\n"
            "                       are computed when read, never stored whole (docs/memory.md)\n"
            "  --weights PATH       arguments from a .safetensors file, a directory of shards\n"
            "                       (model.safetensors.index.json) or the index: by argument\n"
            "                       name (its loc(\"...\") name, jax.arg_info), memory-mapped,\n"
            "                       converted when read;\n"
            "                       with --random-inputs, what the file lacks is random\n"
            "  --weights-map MAP    lines 'ARGUMENT TENSOR' (ARGUMENT: name, location or index)\n"
            "  --max-memory SIZE    refuse a run estimated to need more host memory than SIZE\n"
            "                       (16G, 800M; default: MemAvailable of /proc/meminfo), and\n"
            "                       stop any allocation past it with 'out of memory: needed N,\n"
            "                       available M' (docs/memory.md)\n"
            "  --quiet, -q          no memory estimate line and no progress line (a progress\n"
            "                       line is shown on a terminal for runs longer than 2 s)\n"
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
            "  --check              also run the golden interpreter, multiplying as the chip\n"
            "                       does, and compare every output (exact for integers;\n"
            "                       floats within the documented bound); prints the\n"
            "                       precision effect (chip precision against f32) apart\n"
            "  --expect DIR         compare with DIR/output_<i>.npy instead (e.g. real hardware)\n"
            "  --rtol R, --atol A   the float tolerance |got-want| <= A + R|want| (R alone:\n"
            "                       A = R max|want|); I=R sets output I's own\n"
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
            "  --mpi                spread the chips over the ranks of an MPI job (implied when\n"
            "                       started by mpirun): `mpirun -np 4 npusim run ...` gives the\n"
            "                       same outputs, trace and times as one process\n"
            "                       (docs/distributed.md)\n"
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
    const char *max_memory, *weights, *weights_map;
    bool quiet;
    struct tool_progress progress;
    const char *shards[64];
    int n_shards;
    enum cc_mode mode;
    long seed;
    int cores, chips, lnc, ranks_per_chip;
    bool timing_only, check, json, no_fallback, no_loop_reuse, mpi;
    int sim_checks; /* -1: the default (on, but off when timing-only); 0 off; 1 on */
    enum isa_precision precision;
    struct tool_dyn dyn;
    struct tool_check_opts chk; /* --rtol, --atol, --expect */
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = -1;
    a->sim_checks = -1;
    tool_check_opts_init(&a->chk);
    const char *v = NULL;
    bool bad_check_opt = false;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return -1;
        } else if (tool_check_opt(argc, argv, &i, &a->chk, &bad_check_opt)) {
            if (bad_check_opt) return TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--chip", &a->chip_name)) {
        } else if (tool_opt(argc, argv, &i, "--inputs", &a->inputs)) {
        } else if (tool_opt(argc, argv, &i, "--out", &a->out_dir)) {
        } else if (tool_opt(argc, argv, &i, "--entry", &a->entry)) {
        } else if (tool_opt(argc, argv, &i, "--topology", &a->topology)) {
        } else if (tool_opt(argc, argv, &i, "--max-memory", &a->max_memory)) {
            uint64_t b;
            if (!base_size_parse(a->max_memory, &b) || b == 0) {
                fprintf(stderr, "npusim run: --max-memory takes a size such as 16G, 800M or 1.5GiB (not '%s')\n",
                        a->max_memory);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--weights", &a->weights)) {
        } else if (tool_opt(argc, argv, &i, "--weights-map", &a->weights_map)) {
        } else if (tool_flag(argv[i], "--quiet") || tool_flag(argv[i], "-q")) {
            a->quiet = true;
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
        } else if (tool_flag(argv[i], "--mpi")) {
            a->mpi = true;
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
    if (a->weights_map && !a->weights) {
        fprintf(stderr, "npusim run: --weights-map names tensors of a --weights file: give --weights too\n");
        return TOOL_USAGE;
    }
    if (a->weights && a->inputs) {
        fprintf(stderr, "npusim run: give --inputs or --weights, not both (--weights with --random-inputs fills what "
                        "the file lacks)\n");
        return TOOL_USAGE;
    }
    if (a->sim_checks < 0) a->sim_checks = !a->timing_only;
    if (a->check && a->chk.expect_dir) {
        fprintf(stderr, "npusim run: --check and --expect %s: give one reference\n", a->chk.expect_dir);
        return TOOL_USAGE;
    }
    if (a->timing_only && (a->check || a->out_dir || a->chk.expect_dir)) {
        fprintf(stderr, "npusim run: --timing-only has no values to --check or write to --out\n");
        return TOOL_USAGE;
    }
    return 0;
}

/* Inputs from --inputs or --random-inputs (timing-only: none needed). */
/* func: the program's entry; named: the same arguments as the source
 * names them (a partitioned program's arguments lose their names). */
static int make_inputs(const struct run_args *a, const struct graph_op *func, const struct graph_op *named,
                       struct base_tensor **in)
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
    if (a->weights) return tool_weights_inputs(a->weights, a->weights_map, named ? named : func, a->seed, in);
    if (n_args == 0 || a->timing_only) return 0;
    if (a->seed < 0) {
        fprintf(stderr, "npusim run: @%s takes %d input(s): give --inputs or --random-inputs SEED (or --timing-only)\n",
                graph_func_name(func), n_args);
        return TOOL_FAIL;
    }
    for (int i = 0; i < n_args; i++)
        if (tool_random_tensor(b->args[i].type, (uint64_t)a->seed, i, true, &in[i]) != BASE_OK) {
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
    bool root = dist_rank() == 0; /* over MPI ranks, rank 0 writes it */
    enum base_status st = root ? rec_recorder_set_meta(recs[0], "total_ps", v) : BASE_OK;
    if (st == BASE_OK && root && n_recs > 1) {
        snprintf(v, sizeof v, "%d", n_recs);
        st = rec_recorder_set_meta(recs[0], "chips", v);
    }
    if (st == BASE_OK && root && error) {
        char msg[BASE_DIAG_MSG_MAX + 64];
        base_diag_format(error, msg, sizeof msg);
        st = rec_recorder_set_meta(recs[0], "error", msg);
    }
    if (st == BASE_OK && root) st = rec_recorder_finish(recs[0], &t);
    enum base_status mst = tool_mpi_merge_traces(st == BASE_OK ? t : NULL, recs, n_recs, &n, &d);
    if (st == BASE_OK) st = mst;
    if (!root) {
        if (st != BASE_OK && d.status != BASE_OK) tool_print_diag(&d);
        return st == BASE_OK ? 0 : TOOL_FAIL;
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

/* Each chip's launches and collectives: the trace's record of them, and
 * (chip 0) the progress line. */
struct launch_hook {
    struct tool_progress *progress; /* NULL but on chip 0 */
    struct rec_recorder *rec;
};

static void on_launch(void *user, uint32_t kernel, uint64_t start_ps, uint64_t gap_ps)
{
    struct launch_hook *h = user;
    if (h->rec) rec_recorder_on_launch(h->rec, kernel, start_ps, gap_ps);
    if (h->progress) tool_progress_launch(h->progress, kernel, start_ps);
}

static void on_collective(void *user, const struct rt_collective *c, const struct icn_topo *topo,
                          const double *link_bytes)
{
    struct launch_hook *h = user;
    if (h->rec) rec_recorder_on_collective(h->rec, c, topo, link_bytes);
}

/* --check and --out as the outputs come back from the chips, one at a time
 * (rt_options.on_output): compared with the golden output (which is then
 * freed), written; the runtime frees the chips' copy after the call. */
struct stream_ctx {
    const struct run_args *a;
    const struct cc_plan *plan;
    struct tool_check *check; /* --check, --expect: the reference, output by output */
    struct rep_output_check *checks;
    int n_checked, n_written;
    uint64_t estimate_bytes;
    struct base_diag diag;
};

static enum base_status stream_output(void *user, int i, const struct base_tensor *t)
{
    struct stream_ctx *c = user;
    if (c->check && c->check->active) {
        if (tool_check_output(c->check, c->plan, i, t, &c->checks[c->check->n_checked]) != TOOL_OK)
            return base_diag_set(&c->diag, BASE_ERR_INVALID, NULL, 0, 0, "output %d: no reference to compare it with", i);
        c->n_checked = c->check->n_checked;
    }
    if (c->a->out_dir) {
        char file[4096];
        snprintf(file, sizeof file, "%s/output_%d.npy", c->a->out_dir, i);
        if (base_npy_write(file, t, &c->diag) != BASE_OK) return c->diag.status;
        c->n_written++;
    }
    return BASE_OK;
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

/* over MPI ranks: whether this rank got where its failure is no longer its
 * own (the chips' lockstep, where every rank learns it; or a run of one chip,
 * where no rank waits for another); tool_mpi_end ends the job on a failure
 * before that */
static bool g_in_step;
static int cmd_run_args(const struct run_args *args);

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc < 0 ? TOOL_OK : rc;
    if (tool_mpi_start(a.mpi) != TOOL_OK) return TOOL_FAIL;
    rc = cmd_run_args(&a);
    tool_mpi_end(rc, g_in_step);
    return rc;
}

static int cmd_run_args(const struct run_args *args)
{
    struct run_args a = *args;
    int rc;
    double t0 = now_s();
    tool_progress_init(&a.progress, stderr, a.quiet);
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
    struct rt_report *reps = NULL;
    struct rec_recorder **recs = NULL; /* one per simulated chip */
    struct launch_hook *hooks = NULL;   /* per chip: its recorder (and chip 0 the progress line) */
    void **users = NULL;                /* the same, for rt_options.chip_users */
    struct rep_run *report = NULL;
    struct stream_ctx sc;
    memset(&sc, 0, sizeof sc);
    struct tool_check kc;
    memset(&kc, 0, sizeof kc);
    rc = TOOL_FAIL;
    if (!in) {
        tool_print_nomem("run", (size_t)n_args * sizeof *in, "the inputs' table");
        goto done;
    }
    const struct graph_op *func0 = m0 ? (a.entry ? graph_module_find_func(m0, a.entry) : graph_module_entry(m0)) : NULL;
    if (func0 && (func0->n_regions < 1 || func0->regions[0].n_blocks < 1 || func0->regions[0].blocks[0].n_args != n_args))
        func0 = NULL;
    if (make_inputs(&a, func, func0, in)) goto done;
    if (!a.inputs) tool_dyn_set_dim_args(in, n_args, &rres);
    tool_progress_phase(&a.progress, "compile");
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
    tool_progress_plan(&a.progress, p);
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
    /* an SPMD program with values runs every partition on its own chip; else
     * one chip (a representative partition when timing-only) */
    bool multi = cc_plan_num_partitions(p) > 1 && !a.timing_only;
    n_sims = multi ? cc_plan_num_partitions(p) : 1;
    /* over MPI ranks: each simulates its share of the chips; a run of one
     * chip is rank 0's alone */
    int lo = 0, hi = n_sims;
    if (dist_size() > 1 && !multi) {
        g_in_step = true; /* no rank waits for another */
        if (dist_rank() == 0)
            fprintf(stderr, "npusim run: %d MPI ranks, but this run simulates one chip: rank 0 runs it\n", dist_size());
        else {
            rc = TOOL_OK;
            goto done;
        }
    }
    if (dist_size() > 1 && multi) dist_share(n_sims, dist_size(), dist_rank(), &lo, &hi);
    /* the golden program: the unsharded one, the dynamic original, or the SPMD one */
    const struct graph_module *golden_m = m_dyn ? m_dyn : m0 ? m0 : m;
    int golden_procs = m0 ? 1 : cc_plan_num_partitions(p);
    /* memory: estimated before anything big is made; refused up front when it cannot fit */
    {
        struct rt_mem_request q = {.plan = p, .inputs = in, .n_inputs = n_args, .n_chips = n_sims,
                                   .timing_only = a.timing_only, .sim_checks = a.sim_checks, .check = a.check,
                                   .keep_outputs = a.out_dir != NULL, .interp_module = golden_m, .entry = a.entry,
                                   .interp_processes = golden_procs, .module_bytes = base_mem_rss()};
        struct rt_mem_estimate est;
        rt_memory_estimate(&q, &est);
        sc.estimate_bytes = est.total_bytes;
        int mrc = tool_memory_admit("run", &est, a.max_memory, a.quiet || a.json);
        if (mrc != TOOL_OK) {
            rc = mrc;
            goto done;
        }
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = a.timing_only;
    so.check_races = so.check_uninit = a.sim_checks;
    so.limits = tool_limits();
    /* --check: the golden interpreter first (--expect: the files as the
     * outputs come), so that each output is compared as the chips give it
     * back, then freed (streaming) */
    if ((a.check || a.chk.expect_dir) && dist_rank() == 0) { /* over MPI, rank 0 compares the outputs */
        tool_progress_phase(&a.progress, "interpret");
        int crc = tool_check_begin(&kc, &a.chk, p, golden_m, a.entry, in, n_args, golden_procs,
                                   tool_progress_interp_op, &a.progress);
        tool_progress_done(&a.progress);
        if (crc != TOOL_OK) goto done;
    }
    sims = calloc((size_t)n_sims, sizeof *sims);
    reps = calloc((size_t)n_sims, sizeof *reps);
    recs = calloc((size_t)n_sims, sizeof *recs);
    users = calloc((size_t)n_sims, sizeof *users);
    hooks = calloc((size_t)n_sims, sizeof *hooks);
    if (!sims || !reps || !recs || !users || !hooks) {
        tool_print_nomem("run", (size_t)n_sims * (sizeof *sims + sizeof *reps + sizeof *recs + sizeof *users +
                                                  sizeof *hooks),
                         "the chips' tables");
        goto done;
    }
    for (int c = lo; a.trace && c < hi; c++) /* every chip its own recorder, merged at the end */
        if (start_trace(&a, &chip, p, (uint32_t)c, &recs[c]) != 0) goto done;
    for (int c = lo; c < hi; c++) {
        hooks[c] = (struct launch_hook){c == lo ? &a.progress : NULL, recs[c]};
        users[c] = &hooks[c];
    }
    for (int c = lo; c < hi; c++) {
        so.hooks = recs[c] ? rec_recorder_hooks(recs[c]) : NULL;
        if (sim_create(&chip, &so, &sims[c], &d) != BASE_OK) {
            if (d.status == BASE_OK && sims[c] == NULL) {
                char what[64];
                snprintf(what, sizeof what, "simulated chip %d of %d", c, n_sims);
                tool_print_nomem("run", 0, what);
            } else {
                tool_print_diag(&d);
            }
            goto done;
        }
    }
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = a.timing_only;
    ro.limits = tool_limits();
    ro.loop_reuse = a.timing_only && !a.no_loop_reuse && !a.trace; /* a trace wants every trip's events */
    if (a.topology) ro.topo = &topo;
    ro.on_launch = on_launch;
    ro.launch_user = &hooks[0];
    if (a.trace) {
        ro.on_collective = on_collective;
        ro.collective_user = &hooks[0];
        ro.chip_users = multi ? users : NULL;
    }
    ro.distributed = multi;
    g_in_step = true; /* from here a failure is every rank's, met at the chips' next meeting */
    sc.a = &a;
    sc.plan = p;
    sc.check = &kc;
    sc.checks = calloc((size_t)cc_plan_n_outputs(p) + 1, sizeof *sc.checks);
    if (!sc.checks) {
        tool_print_nomem("run", (size_t)cc_plan_n_outputs(p) * sizeof *sc.checks, "the output checks");
        goto done;
    }
    if (!a.timing_only && (kc.active || a.out_dir) && dist_rank() == 0) { /* over MPI, rank 0 has the outputs */
        if (a.out_dir && !tool_out_dir("run", a.out_dir)) goto done;
        ro.on_output = stream_output;
        ro.output_user = &sc;
    }
    tool_progress_phase(&a.progress, "simulate");
    double t1 = now_s();
    enum base_status rst = multi ? rt_run_spmd(p, sims, n_sims, in, n_args, &ro, NULL, reps, &d)
                                 : rt_run(p, sims[0], in, n_args, &ro, NULL, reps, &d);
    tool_progress_done(&a.progress);
    if (rst != BASE_OK) {
        if (sc.diag.status != BASE_OK) d = sc.diag; /* the output's own failure, said in full */
        if (dist_rank() == 0) tool_print_run_error("run", &d, sc.estimate_bytes); /* every rank has it */
        if (a.trace) finish_trace(&a, recs, n_sims, sims[0] ? sim_now_ps(sims[0]) : 0, &d);
        goto done;
    }
    double t_run = now_s() - t1;
    if (a.trace && finish_trace(&a, recs, n_sims, reps[0].total_ps, NULL) != 0) goto done;
    if (dist_rank() != 0) { /* rank 0 reports */
        rc = TOOL_OK;
        goto done;
    }
    struct rep_source src = {.model = a.path, .plan = p, .stats = sim_get_stats(sims[0]), .chips = reps,
                             .n_chips = n_sims, .timing_only = a.timing_only, .topology = a.topology,
                             .ranks_per_chip = chip.ranks_per_chip};
    if (rep_run_create(&src, &report) != BASE_OK) {
        tool_print_nomem("run", 0, "the report");
        goto done;
    }
    if (kc.active && tool_check_finish(&kc, report, sc.checks) != BASE_OK) {
        tool_print_nomem("run", 0, "the report's output checks");
        goto done;
    }
    if (!a.json) {
        rep_run_write_text(report, stdout);
        fprintf(stderr, "npusim run: host time %.2f s\n", now_s() - t0);
    }
    if (a.json) rep_run_write_json(report, stdout);
    if (a.out_dir && !a.timing_only && !a.json)
        printf("wrote %d output file(s) to %s\n", sc.n_written, a.out_dir);
    fprintf(stderr, "npusim run: simulation %.2f s\n", t_run);
    tool_print_peak_memory("run", sc.estimate_bytes);
    for (int i = 0; i < report->n_hints; i++) fprintf(stderr, "npusim run: hint: %s\n", report->hints[i]);
    rc = report->passed ? TOOL_OK : TOOL_FAIL;
done:
    tool_progress_free(&a.progress);
    rep_run_destroy(report);
    free(sc.checks);
    tool_check_free(&kc);
    for (int c = 0; reps && c < n_sims; c++) rt_report_free(&reps[c]);
    free(reps);
    for (int c = 0; sims && c < n_sims; c++) sim_destroy(sims[c]);
    free(sims);
    for (int c = 0; recs && c < n_sims; c++) rec_recorder_destroy(recs[c]);
    free(recs);
    free(users);
    free(hooks);
    cc_plan_destroy(p);
    for (int i = 0; in && i < n_args; i++) base_tensor_release(in[i]);
    free(in);
    graph_module_destroy(m);
    graph_module_destroy(m0);
    graph_module_destroy(m_dyn);
    return rc;
}
