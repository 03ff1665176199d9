/* npusim trace stats FILE [--top N] [--by op|kind|kernel|source]
 * npusim trace compare A B [--top N] [--by op|kind|kernel|source]
 * npusim trace convert IN OUT
 * npusim trace check FILE */
#include "tools/tools.h"

#include "traces/traces.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim trace stats FILE [--top N] [--by op|kind|kernel|source]\n"
            "       npusim trace compare A B [--top N] [--by op|kind|kernel|source]\n"
            "       npusim trace convert IN OUT\n"
            "       npusim trace check FILE.npt\n"
            "\n"
            "Traces come from `npusim run ... --trace FILE` (docs/traces.md).  Formats by\n"
            "extension: .npt (native: chunked, zlib-compressed, crc32-checked, indexed),\n"
            ".json and .json.gz (Perfetto / chrome://tracing).\n"
            "  stats    simulation parameters, per-lane busy and wait time, bytes, FLOPs,\n"
            "           the collectives and the links each chip sends on (busy, exposed, MB,\n"
            "           GB/s, link utilisation), and the top N graph ops by engine time\n"
            "           (default 15) with totals and shares, one row per graph op (--by op,\n"
            "           the default), op kind, kernel (with its launches' wall time) or\n"
            "           source line (the first file:line of the op's location chain)\n"
            "  compare  the rows of two traces grouped alike, matched by key: time in A,\n"
            "           in B, B - A, by the size of the difference (npusim view A B shows it too)\n"
            "  convert  between formats: npt <-> json(.gz); npt -> npt is byte-identical\n"
            "  check    reads every chunk of an .npt and checks its crc32 and contents\n");
}

static int fail_diag(const struct base_diag *d, enum base_status st, const char *path)
{
    if (d->status != BASE_OK) tool_print_diag(d);
    else fprintf(stderr, "npusim trace: %s: %s\n", path, base_status_str(st));
    return TOOL_FAIL;
}

static bool parse_by(const char *v, enum trc_group *by)
{
    if (trc_group_lookup(v, by)) return true;
    fprintf(stderr, "npusim trace: --by %s: want op, kind, kernel or source\n", v);
    return false;
}

static int stats(int argc, char **argv)
{
    const char *path = NULL;
    const char *v;
    size_t top = 15;
    enum trc_group by = TRC_GROUP_OP;
    for (int i = 2; i < argc; i++) {
        if (tool_opt(argc, argv, &i, "--top", &v)) {
            top = (size_t)strtoul(v, NULL, 10);
        } else if (tool_opt(argc, argv, &i, "--by", &v)) {
            if (!parse_by(v, &by)) return TOOL_USAGE;
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
        trc_file_stats_write_text(f, &s, top, by, stdout);
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
    trc_stats_write_text(t, &s, top, by, stdout);
    trc_stats_free(&s);
    trc_trace_destroy(t);
    return TOOL_OK;
}

static int compare(int argc, char **argv)
{
    const char *path[2] = {NULL, NULL}, *v;
    size_t top = 20, np = 0;
    enum trc_group by = TRC_GROUP_OP;
    for (int i = 2; i < argc; i++) {
        if (tool_opt(argc, argv, &i, "--top", &v)) {
            top = (size_t)strtoul(v, NULL, 10);
        } else if (tool_opt(argc, argv, &i, "--by", &v)) {
            if (!parse_by(v, &by)) return TOOL_USAGE;
        } else if (argv[i][0] == '-' || np == 2) {
            fprintf(stderr, "npusim trace compare: unexpected %s\n", argv[i]);
            return TOOL_USAGE;
        } else {
            path[np++] = argv[i];
        }
    }
    if (np != 2) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *f[2] = {NULL, NULL};
    struct trc_groups g[2];
    memset(g, 0, sizeof g);
    int rc = TOOL_OK;
    for (int k = 0; k < 2 && rc == TOOL_OK; k++) {
        enum base_status st = trc_open(path[k], &f[k], &d);
        if (st == BASE_OK) st = trc_file_groups(f[k], by, &g[k], &d);
        if (st != BASE_OK) rc = fail_diag(&d, st, path[k]);
    }
    struct trc_diff_row *rows = NULL;
    size_t n = 0;
    if (rc == TOOL_OK && trc_groups_diff(&g[0], &g[1], &rows, &n) != BASE_OK) {
        tool_print_nomem("trace compare", (uint64_t)(g[0].n + g[1].n) * sizeof *rows, "the table of differences");
        rc = TOOL_FAIL;
    }
    if (rc == TOOL_OK) {
        for (int k = 0; k < 2; k++) {
            const char *chip = trc_file_meta(f[k], "chip"), *mode = trc_file_meta(f[k], "mode");
            printf("%c: %s (%s%s%s), %.3f us, %s time %.3f us\n", 'A' + k, path[k], chip ? chip : "?", mode ? ", " : "",
                   mode ? mode : "", (double)trc_file_end_ps(f[k]) * 1e-6,
                   by == TRC_GROUP_KERNEL ? "kernel" : "engine", (double)g[k].total_ps * 1e-6);
        }
        printf("\nby %s (%s time), largest differences first:\n", trc_group_name(by),
               by == TRC_GROUP_KERNEL ? "kernel wall" : "engine busy");
        printf("%4s  %-48s %12s %12s %12s %8s\n", "#", trc_group_name(by), "A us", "B us", "B - A us", "B / A");
        for (size_t i = 0; i < n && i < top; i++) {
            const struct trc_diff_row *r = &rows[i];
            char ratio[16] = "-";
            if (r->a_ps && r->b_ps) snprintf(ratio, sizeof ratio, "%.2fx", (double)r->b_ps / (double)r->a_ps);
            printf("%4zu  %-48.48s %12.3f %12.3f %+12.3f %8s\n", i + 1, r->key, (double)r->a_ps * 1e-6,
                   (double)r->b_ps * 1e-6, (double)r->delta_ps * 1e-6, ratio);
        }
        if (n > top) printf("%4s  (%zu more)\n", "", n - top);
        printf("%4s  %-48s %12.3f %12.3f %+12.3f\n", "", "total", (double)g[0].total_ps * 1e-6,
               (double)g[1].total_ps * 1e-6, ((double)g[1].total_ps - (double)g[0].total_ps) * 1e-6);
    }
    free(rows);
    for (int k = 0; k < 2; k++) {
        trc_groups_free(&g[k]);
        trc_close(f[k]);
    }
    return rc;
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
    if (!strcmp(argv[1], "compare")) return compare(argc, argv);
    if (!strcmp(argv[1], "convert")) return convert(argc, argv);
    if (!strcmp(argv[1], "check")) return check(argc, argv);
    fprintf(stderr, "npusim trace: unknown subcommand %s\n", argv[1]);
    help(stderr);
    return TOOL_USAGE;
}
