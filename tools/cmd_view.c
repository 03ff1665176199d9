/* npusim view FILE.npt [--screenshot OUT.png] [--range T0:T1] [--size WxH]
 *                      [--script FILE] [--font FILE.ttf] */
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim view FILE.npt [--screenshot OUT.png] [--range T0:T1] [--size WxH]\n"
            "                            [--script FILE] [--font FILE.ttf]\n"
            "\n"
            "The trace viewer (SDL2; docs/visualizer.md).  Lanes per chip, core and engine;\n"
            "wheel or W/S zoom at the cursor, drag or A/D pan, click a slice for details,\n"
            "/ searches op names, F zooms to the selection, 0 shows the whole run, Q quits.\n"
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
    const char *path = NULL, *shot = NULL, *range = NULL, *size = NULL, *script = NULL, *font = NULL, *v;
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
        } else {
            fprintf(stderr, "npusim view: one trace file only\n");
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
    enum trc_format fmt;
    if (!trc_format_from_path(path, &fmt) || fmt != TRC_FORMAT_NPT) {
        fprintf(stderr, "npusim view: %s: the viewer reads .npt traces (npusim trace convert %s OUT.npt)\n", path,
                path);
        return TOOL_USAGE;
    }
    struct trc_file *f = NULL;
    enum base_status st = trc_open(path, &f, &d);
    if (st != BASE_OK) return fail(&d, st);
    struct viz_viewer *vw = NULL;
    st = viz_viewer_create(f, &o, &vw, &d);
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
            snprintf(title, sizeof title, "npusim view %s", path);
            st = viz_run_window(vw, title, frames, &d);
        }
    }
    viz_viewer_destroy(vw);
    trc_close(f);
    return st == BASE_OK ? TOOL_OK : fail(&d, st);
}

#endif
