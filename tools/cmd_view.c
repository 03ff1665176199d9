/* npusim view TRACE [TRACE_B] [--screenshot OUT.png] [--range T0:T1] [--size WxH]
 *                             [--script FILE] [--font FILE.ttf] */
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim view TRACE [TRACE_B] [--screenshot OUT.png] [--range T0:T1] [--size WxH]\n"
            "                                   [--script FILE] [--font FILE.ttf]\n"
            "\n"
            "The trace viewer (SDL2; docs/visualizer.md).  TRACE is .npt, .json or .json.gz\n"
            "(npusim's own).  Lanes per chip, core and engine; wheel or W/S zoom at the\n"
            "cursor, drag or A/D pan, click a slice for details, / searches ops, locations\n"
            "and kernels, F zooms to the selection, 0 shows the whole run, click a header\n"
            "or C collapses a chip, core or engine class, X collapses every core, E expands\n"
            "all, G groups the top ops by op, kind, kernel or source line, Q quits.\n"
            "With TRACE_B: a compare view, both traces on one time axis and the top-ops\n"
            "rows matched: time in A, in B, B - A (trn2 against tpu-v6e, eager against\n"
            "compiled).\n"
            "  --screenshot OUT.png  render headless (no display needed) and write a PNG\n"
            "  --range T0:T1         initial time range (12ns:3.5us; a bare number is ps)\n"
            "  --size WxH            window or screenshot size (default 1280x800)\n"
            "  --script FILE         replay input first (zoom, pan, click, keys, search)\n"
            "  --font FILE.ttf       the font (default DejaVuSans from fonts-dejavu-core;\n"
            "                        also env NPUSIM_FONT)\n"
            "Traces come from `npusim run MODEL --chip CHIP --trace FILE.npt`.\n");
}

#ifdef NPUSIM_NO_SDL

int cmd_view(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        }
    fprintf(stderr, "npusim view: this npusim was built without SDL2 (NO_SDL=1); rebuild with libsdl2-dev and "
                    "libsdl2-ttf-dev installed (scripts/install-deps.sh), or open the trace's JSON in Perfetto "
                    "(npusim trace convert FILE.npt FILE.json.gz)\n");
    return TOOL_FAIL;
}

#else

#include "traces/traces.h"
#include "visualizer/visualizer.h"

static int fail(const struct base_diag *d, enum base_status st)
{
    if (d->status != BASE_OK) tool_print_diag(d);
    else fprintf(stderr, "npusim view: %s\n", base_status_str(st));
    return TOOL_FAIL;
}

int cmd_view(int argc, char **argv)
{
    const char *path = NULL, *path_b = NULL, *shot = NULL, *range = NULL, *size = NULL, *script = NULL, *font = NULL, *v;
    int frames = 0;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--screenshot", &v)) {
            shot = v;
        } else if (tool_opt(argc, argv, &i, "--range", &v)) {
            range = v;
        } else if (tool_opt(argc, argv, &i, "--size", &v)) {
            size = v;
        } else if (tool_opt(argc, argv, &i, "--script", &v)) {
            script = v;
        } else if (tool_opt(argc, argv, &i, "--font", &v)) {
            font = v;
        } else if (tool_opt(argc, argv, &i, "--frames", &v)) { /* tests: quit the window after N frames */
            frames = atoi(v);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim view: unknown option %s\n", argv[i]);
            return TOOL_USAGE;
        } else if (!path) {
            path = argv[i];
        } else if (!path_b) {
            path_b = argv[i];
        } else {
            fprintf(stderr, "npusim view: one trace, or two to compare\n");
            return TOOL_USAGE;
        }
    }
    if (!path) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct viz_options o = {0, 0, NULL, 0, 0};
    if (size && (sscanf(size, "%dx%d", &o.width_px, &o.height_px) != 2 || o.width_px <= 0 || o.height_px <= 0)) {
        fprintf(stderr, "npusim view: --size wants WxH (e.g. 1600x900), got '%s'\n", size);
        return TOOL_USAGE;
    }
    uint64_t t0 = 0, t1 = 0;
    if (range) {
        char a[64], b[64];
        const char *colon = strchr(range, ':');
        size_t la = colon ? (size_t)(colon - range) : 0;
        if (!colon || la == 0 || la >= sizeof a || strlen(colon + 1) >= sizeof b) {
            fprintf(stderr, "npusim view: --range wants T0:T1 (e.g. 1us:2.5us), got '%s'\n", range);
            return TOOL_USAGE;
        }
        memcpy(a, range, la);
        a[la] = 0;
        strcpy(b, colon + 1);
        if (!viz_time_parse(a, &t0) || !viz_time_parse(b, &t1) || t1 <= t0) {
            fprintf(stderr, "npusim view: --range wants T0:T1 with T0 < T1 and units ps, ns, us, ms or s; got '%s'\n",
                    range);
            return TOOL_USAGE;
        }
    }
    o.font_path = font ? font : getenv("NPUSIM_FONT");
    if (o.font_path && !*o.font_path) o.font_path = NULL;

    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *f = NULL, *fb = NULL;
    const char *paths[2] = {path, path_b};
    for (int k = 0; k < 2 && paths[k]; k++) {
        enum trc_format fmt;
        if (!trc_format_from_path(paths[k], &fmt)) {
            fprintf(stderr, "npusim view: %s: a trace's name ends in .npt, .json or .json.gz\n", paths[k]);
            trc_close(f);
            return TOOL_USAGE;
        }
        enum base_status ost = trc_open(paths[k], k ? &fb : &f, &d); /* JSON: converted on open */
        if (ost != BASE_OK) {
            trc_close(f);
            return fail(&d, ost);
        }
    }
    struct viz_viewer *vw = NULL;
    enum base_status st = fb ? viz_viewer_create_compare(f, fb, &o, &vw, &d) : viz_viewer_create(f, &o, &vw, &d);
    if (st == BASE_OK && range) viz_set_range(vw, t0, t1);
    if (st == BASE_OK && script) {
        char *text = NULL;
        size_t len = 0;
        st = base_file_read_lim(script, tool_limits(), &text, &len, &d);
        if (st == BASE_OK && strlen(text) != len)
            st = base_diag_set(&d, BASE_ERR_PARSE, script, 0, 0, "script: a NUL byte in the text");
        if (st == BASE_OK) st = viz_script_run(vw, text, script, &d);
        free(text);
    }
    if (st == BASE_OK) {
        if (shot) {
            st = viz_render(vw, &d);
            if (st == BASE_OK) st = viz_write_png(vw, shot, &d);
            if (st == BASE_OK) {
                uint64_t a, b;
                viz_get_range(vw, &a, &b);
                fprintf(stderr, "npusim view: wrote %s (%llu ps to %llu ps)\n", shot, (unsigned long long)a,
                        (unsigned long long)b);
            }
        } else {
            char title[300];
            snprintf(title, sizeof title, "npusim view %s%s%s", path, path_b ? " vs " : "", path_b ? path_b : "");
            st = viz_run_window(vw, title, frames, &d);
        }
    }
    viz_viewer_destroy(vw);
    trc_close(f);
    trc_close(fb);
    return st == BASE_OK ? TOOL_OK : fail(&d, st);
}

#endif
