/* npusim exec PROG.s --chip NAME [--inputs NAME=FILE.npy@LOC ...] [--dump NAME=LOC:SHAPE:DTYPE ...] ... */
#include "tools/tools.h"

#include "sim/sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim exec PROG.s|PROG.bin --chip NAME|FILE.chip\n"
            "                   [--inputs NAME=FILE.npy@LOC[,...]]... [--dump NAME=LOC:SHAPE:DTYPE[,...]]...\n"
            "                   [--out DIR] [--timing-only] [--no-checks] [--no-race-check]\n"
            "                   [--no-uninit-check] [--json]\n"
            "\n"
            "Runs a program (assembly text, or the binary form from `npusim asm -o`) on\n"
            "core 0 of a simulated chip and prints the time it takes and per-engine\n"
            "statistics.  Timing rules: docs/timing.md; the instruction set: docs/isa.md.\n"
            "\n"
            "  --chip NAME          a bundled chip (npusim chips) or a .chip file\n"
            "  --inputs NAME=FILE.npy@LOC\n"
            "                       write FILE.npy into simulated memory before the run\n"
            "                       (repeat the option or separate with commas)\n"
            "  --dump NAME=LOC:SHAPE:DTYPE\n"
            "                       after the run, write the tensor at LOC as DIR/NAME.npy;\n"
            "                       SHAPE is like 128x512, DTYPE like f32, bf16, i8\n"
            "  --out DIR            where dumps go (default: the current directory)\n"
            "  --timing-only        store no values (no dumps); the timing is identical\n"
            "  --no-checks          skip the race and uninitialised-read checks (faster);\n"
            "                       bounds are always checked\n"
            "  --no-race-check, --no-uninit-check   skip one of them\n"
            "  --json               print the statistics as JSON\n"
            "\n"
            "LOC, a place in memory (numbers decimal or 0x hex):\n"
            "  hbm:ADDR             HBM byte address; a tensor is stored row-major there\n"
            "  sp:PART:ADDR         scratchpad, from partition PART, byte ADDR of each\n"
            "                       partition: the tensor's first dimension runs over\n"
            "                       partitions, the rest is row-major in each partition\n"
            "  acc:PART:ADDR        the accumulator, laid out the same way\n"
            "  cN.LOC               the same on core N (default core 0)\n"
            "\n"
            "examples:\n"
            "  npusim exec gemm.s --chip trn2 --inputs a=a.npy@sp:0:0,b=b.npy@sp:0:4096 \\\n"
            "      --dump c=acc:0:0:128x512:f32 --out out/\n"
            "  npusim exec kernel.s --chip tpu-v5e --inputs x=x.npy@hbm:0 --timing-only --json\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define MAX_IO 64

struct io {
    char name[128];
    char file[1024];
    struct sim_loc loc;
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
};

/* NAME=FILE.npy@LOC */
static bool parse_input(const char *s, struct io *io)
{
    const char *eq = strchr(s, '='), *at = strrchr(s, '@');
    if (!eq || !at || at < eq || (size_t)(eq - s) >= sizeof io->name || (size_t)(at - eq - 1) >= sizeof io->file)
        return false;
    memcpy(io->name, s, (size_t)(eq - s));
    io->name[eq - s] = 0;
    memcpy(io->file, eq + 1, (size_t)(at - eq - 1));
    io->file[at - eq - 1] = 0;
    const char *end;
    return sim_loc_parse(at + 1, &io->loc, &end) == BASE_OK && *end == 0 && io->file[0];
}

/* NAME=LOC:SHAPE:DTYPE (sim_region_parse) */
static bool parse_dump(const char *s, struct io *io)
{
    const char *eq = strchr(s, '=');
    if (!eq || (size_t)(eq - s) >= sizeof io->name || eq == s) return false;
    memcpy(io->name, s, (size_t)(eq - s));
    io->name[eq - s] = 0;
    return sim_region_parse(eq + 1, &io->loc, &io->dtype, &io->rank, io->dims) == BASE_OK;
}

/* Splits a comma-separated option value into entries. */
static int add_list(const char *opt, const char *v, struct io *ios, int n, bool dump)
{
    char *copy = strdup(v), *save = NULL;
    if (!copy) return -1;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n >= MAX_IO) {
            fprintf(stderr, "npusim exec: at most %d %s\n", MAX_IO, opt);
            n = -1;
            break;
        }
        memset(&ios[n], 0, sizeof ios[n]);
        if (!(dump ? parse_dump(tok, &ios[n]) : parse_input(tok, &ios[n]))) {
            fprintf(stderr, "npusim exec: bad %s entry '%s' (want %s)\n", opt, tok,
                    dump ? "NAME=LOC:SHAPE:DTYPE, e.g. c=acc:0:0:128x512:f32" : "NAME=FILE.npy@LOC, e.g. a=a.npy@hbm:0");
            n = -1;
            break;
        }
        n++;
    }
    free(copy);
    return n;
}

int cmd_exec(int argc, char **argv)
{
    const char *path = NULL, *chip_name = NULL, *out_dir = ".", *v = NULL;
    bool timing_only = false, json = false, races = true, uninit = true;
    static struct io inputs[MAX_IO], dumps[MAX_IO];
    int n_in = 0, n_dump = 0;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--chip", &chip_name)) {
        } else if (tool_opt(argc, argv, &i, "--out", &out_dir)) {
        } else if (tool_opt(argc, argv, &i, "--inputs", &v)) {
            if ((n_in = add_list("--inputs", v, inputs, n_in, false)) < 0) return TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--dump", &v)) {
            if ((n_dump = add_list("--dump", v, dumps, n_dump, true)) < 0) return TOOL_USAGE;
        } else if (tool_flag(argv[i], "--timing-only")) {
            timing_only = true;
        } else if (tool_flag(argv[i], "--json")) {
            json = true;
        } else if (tool_flag(argv[i], "--no-checks")) {
            races = uninit = false;
        } else if (tool_flag(argv[i], "--no-race-check")) {
            races = false;
        } else if (tool_flag(argv[i], "--no-uninit-check")) {
            uninit = false;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim exec: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "npusim exec: one program at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!path || !chip_name) {
        fprintf(stderr, "npusim exec: give a program and --chip\n");
        help(stderr);
        return TOOL_USAGE;
    }
    if (timing_only && n_dump) {
        fprintf(stderr, "npusim exec: --timing-only stores no values to --dump\n");
        return TOOL_USAGE;
    }

    struct base_diag d;
    base_diag_clear(&d);
    static struct chip_desc chip;
    if (chip_load(chip_name, &chip, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    /* dump names stay inside --out (checked before the run, not after it) */
    static char files[MAX_IO][4096];
    for (int i = 0; i < n_dump; i++)
        if (base_path_join(out_dir, dumps[i].name, ".npy", files[i], sizeof files[i], "--dump name", &d) != BASE_OK) {
            tool_print_diag(&d);
            return TOOL_USAGE;
        }
    static struct isa_program prog;
    if (isa_program_load_lim(path, tool_limits(), &prog, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct sim_options opt;
    sim_options_default(&opt);
    opt.timing_only = timing_only;
    opt.check_races = races;
    opt.check_uninit = uninit;
    opt.limits = tool_limits();
    struct sim *s = NULL;
    int rc = TOOL_FAIL;
    if (sim_create(&chip, &opt, &s, &d) != BASE_OK || sim_load(s, 0, &prog, path, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    for (int i = 0; i < n_in; i++) {
        struct base_tensor *t = NULL;
        if (base_npy_read_lim(inputs[i].file, tool_limits(), &t, &d) != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
        enum base_status st = sim_write_tensor(s, &inputs[i].loc, t, &d);
        base_tensor_release(t);
        if (st != BASE_OK) {
            fprintf(stderr, "npusim exec: input %s (%s): ", inputs[i].name, inputs[i].file);
            base_diag_print(&d, stderr);
            goto done;
        }
    }
    double t0 = now_s();
    enum base_status st = sim_run(s, &d);
    double host_s = now_s() - t0;
    const struct sim_stats *stats = sim_get_stats(s);
    if (st != BASE_OK) {
        tool_print_diag(&d);
        fprintf(stderr, "npusim exec: stopped at %llu ps\n", (unsigned long long)stats->total_ps);
        goto done;
    }
    if (json)
        sim_stats_write_json(stats, chip.name, stdout);
    else
        sim_stats_write_text(stats, stdout);
    if (n_dump && !tool_out_dir("exec", out_dir)) goto done;
    for (int i = 0; i < n_dump; i++) {
        struct base_tensor *t = NULL;
        if (sim_read_tensor(s, &dumps[i].loc, dumps[i].dtype, dumps[i].rank, dumps[i].dims, &t, &d) != BASE_OK) {
            fprintf(stderr, "npusim exec: dump %s: ", dumps[i].name);
            base_diag_print(&d, stderr);
            goto done;
        }
        const char *file = files[i];
        st = base_npy_write(file, t, &d);
        base_tensor_release(t);
        if (st != BASE_OK) {
            tool_print_diag(&d);
            goto done;
        }
        if (!json) printf("wrote %s\n", file);
    }
    fprintf(stderr, "npusim exec: %llu instructions in %.3f s host time (%.2f M instructions/s)\n",
            (unsigned long long)stats->instructions, host_s,
            host_s > 0 ? (double)stats->instructions / host_s / 1e6 : 0.0);
    rc = TOOL_OK;
done:
    sim_destroy(s);
    isa_program_deinit(&prog);
    return rc;
}
