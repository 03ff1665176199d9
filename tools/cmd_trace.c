/* npusim trace stats FILE [--top N]
 * npusim trace convert IN OUT
 * npusim trace check FILE */
#include "tools/tools.h"

#include "traces/traces.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim trace stats FILE [--top N]\n"
            "       npusim trace convert IN OUT\n"
            "       npusim trace check FILE.npt\n"
            "\n"
            "Traces come from `npusim run ... --trace FILE` (docs/traces.md).  Formats by\n"
            "extension: .npt (native: chunked, zlib-compressed, crc32-checked, indexed),\n"
            ".json and .json.gz (Perfetto / chrome://tracing).\n"
            "  stats    simulation parameters, per-lane busy and wait time, bytes, FLOPs,\n"
            "           the collectives and the links chip 0 sends on (busy, exposed, MB,\n"
            "           GB/s, link utilisation), and the top N graph ops by engine time\n"
            "           (default 15)\n"
            "  convert  between formats: npt <-> json(.gz); npt -> npt is byte-identical\n"
            "  check    reads every chunk of an .npt and checks its crc32 and contents\n");
}

static int fail_diag(const struct base_diag *d, enum base_status st, const char *path)
{
    if (d->status != BASE_OK) tool_print_diag(d);
    else fprintf(stderr, "npusim trace: %s: %s\n", path, base_status_str(st));
    return TOOL_FAIL;
}

static int stats(int argc, char **argv)
{
    const char *path = NULL;
    const char *v;
    size_t top = 15;
    for (int i = 2; i < argc; i++) {
        if (tool_opt(argc, argv, &i, "--top", &v)) {
            top = (size_t)strtoul(v, NULL, 10);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim trace stats: unknown option %s\n", argv[i]);
            return TOOL_USAGE;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    enum trc_format fmt = TRC_FORMAT_NPT;
    trc_format_from_path(path, &fmt);
    struct trc_stats s;
    if (fmt == TRC_FORMAT_NPT) { /* from the lane table and the ops chunk: no slice is read */
        struct trc_file *f = NULL;
        enum base_status st = trc_open(path, &f, &d);
        if (st == BASE_OK) st = trc_file_stats(f, &s, &d);
        if (st != BASE_OK) {
            trc_close(f);
            return fail_diag(&d, st, path);
        }
        trc_file_stats_write_text(f, &s, top, stdout);
        trc_stats_free(&s);
        trc_close(f);
        return TOOL_OK;
    }
    struct trc_trace *t = NULL;
    enum base_status st = trc_read(path, &t, &d);
    if (st != BASE_OK) return fail_diag(&d, st, path);
    st = trc_stats_compute(t, &s);
    if (st != BASE_OK) {
        trc_trace_destroy(t);
        return fail_diag(&d, st, path);
    }
    trc_stats_write_text(t, &s, top, stdout);
    trc_stats_free(&s);
    trc_trace_destroy(t);
    return TOOL_OK;
}

static int convert(int argc, char **argv)
{
    if (argc != 4) {
        help(stderr);
        return TOOL_USAGE;
    }
    enum trc_format fmt;
    if (!trc_format_from_path(argv[3], &fmt)) {
        fprintf(stderr, "npusim trace convert: %s: the name must end in .npt, .json or .json.gz\n", argv[3]);
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_trace *t = NULL;
    enum base_status st = trc_read(argv[2], &t, &d);
    if (st != BASE_OK) return fail_diag(&d, st, argv[2]);
    st = trc_write(t, argv[3], fmt, &d);
    trc_trace_destroy(t);
    if (st != BASE_OK) return fail_diag(&d, st, argv[3]);
    return TOOL_OK;
}

static int check(int argc, char **argv)
{
    if (argc != 3) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *f = NULL;
    enum base_status st = trc_open(argv[2], &f, &d);
    if (st == BASE_OK) st = trc_file_verify(f, &d);
    if (st != BASE_OK) {
        trc_close(f);
        return fail_diag(&d, st, argv[2]);
    }
    uint64_t n, z, raw;
    trc_file_chunk_stats(f, &n, &z, &raw);
    printf("%s: ok: %u lanes, %llu chunks, %llu bytes compressed from %llu\n", argv[2], trc_file_n_lanes(f),
           (unsigned long long)n, (unsigned long long)z, (unsigned long long)raw);
    trc_close(f);
    return TOOL_OK;
}

int cmd_trace(int argc, char **argv)
{
    if (argc < 2 || tool_flag(argv[1], "--help") || tool_flag(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? TOOL_USAGE : TOOL_OK;
    }
    if (!strcmp(argv[1], "stats")) return stats(argc, argv);
    if (!strcmp(argv[1], "convert")) return convert(argc, argv);
    if (!strcmp(argv[1], "check")) return check(argc, argv);
    fprintf(stderr, "npusim trace: unknown subcommand %s\n", argv[1]);
    help(stderr);
    return TOOL_USAGE;
}
