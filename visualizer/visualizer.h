/* visualizer: the SDL2 viewer over an .npt trace (`npusim view`).
 *
 * The viewer draws into its own ARGB8888 software framebuffer (an SDL
 * surface) with SDL2_ttf text, so one code path serves the window and the
 * headless screenshot: a window only copies the framebuffer to the screen.
 * It reads the trace through the traces/ random-access reader and never runs
 * a simulation.
 *
 *   lanes        grouped by chip, then core (chip-wide lanes first), ordered by
 *                the lane's sort_index; a header row per chip and core
 *   level of     at ps-per-pixel P a lane with summaries at trc_level_for(P)
 *   detail       is drawn from its buckets (trc_file_summary), below its
 *                finest level from its slices; fetched ranges are cached in
 *                tiles (lane, level, index), least recently used out
 *   input        wheel or W/S: zoom at the cursor (centre without one); drag
 *                or A/D: pan; click: select a slice; '/' search; Esc clear;
 *                F: zoom to the selection; 0 / Home: whole run; click a
 *                header or C: collapse a chip, core or engine class; X:
 *                collapse every core, E: expand all; G: group top ops by
 *                op, kind, kernel, source line
 *
 * This header has no SDL types, so the tool that uses it needs no SDL flags.
 * The PNG writer and the charts (png.c, chart.c) need no SDL at all: a
 * NO_SDL=1 build has them.
 * Times are picoseconds of simulated time; pixels count from the top left.
 */
#ifndef NPUSIM_VISUALIZER_H
#define NPUSIM_VISUALIZER_H

#include "base/base.h"

struct trc_file;
struct trc_slice;
struct viz_viewer;

struct viz_options {
    int width_px, height_px; /* framebuffer size; 0: 1280 x 800 */
    const char *font_path;   /* a TTF; NULL: DejaVuSans from fonts-dejavu-core (viz_font_find) */
    int font_pt;             /* 0: 12 */
    uint64_t cache_bytes;    /* tile cache budget; 0: 512 MiB */
};

/* The font the viewer uses when none is given: the first of the known
 * fonts-dejavu-core locations that exists; NULL when none does. */
const char *viz_font_find(void);

/* A viewer over f (borrowed: it must outlive the viewer).  Reads the whole-run
 * summaries for the overview strip and the ops chunk for the top-ops panel.
 * A missing font is ERR_IO with a message naming the package to install. */
enum base_status viz_viewer_create(struct trc_file *f, const struct viz_options *o, struct viz_viewer **out,
                                   struct base_diag *diag);
/* A compare view: traces a and b (both borrowed) one above the other on
 * one time axis (each from its own 0), a header row per trace; the panel
 * lists the top-ops rows of both matched by key: time in A, in B, B - A.
 * Global lanes: a's lanes first, then b's (lane + trc_file_n_lanes(a)). */
enum base_status viz_viewer_create_compare(struct trc_file *a, struct trc_file *b, const struct viz_options *o,
                                           struct viz_viewer **out, struct base_diag *diag);
void viz_viewer_destroy(struct viz_viewer *v);

/* Draws one frame into the framebuffer. */
enum base_status viz_render(struct viz_viewer *v, struct base_diag *diag);
/* The framebuffer: ARGB8888 (0xAARRGGBB), *pitch_px pixels per row. */
const uint32_t *viz_pixels(const struct viz_viewer *v, int *w, int *h, int *pitch_px);
uint32_t viz_pixel(const struct viz_viewer *v, int x, int y); /* 0 outside */
/* Writes the framebuffer as an 8-bit RGB PNG. */
enum base_status viz_write_png(const struct viz_viewer *v, const char *path, struct base_diag *diag);
/* An RGB PNG of w x h ARGB8888 pixels (pitch in pixels). */
enum base_status viz_png_write(const char *path, const uint32_t *px, int w, int h, int pitch_px,
                               struct base_diag *diag);

/* ------------------------------------------------------------ the view */

/* Visible time range [t0, t1) (clamped to the run; at least w/64 ps wide). */
void viz_set_range(struct viz_viewer *v, uint64_t t0_ps, uint64_t t1_ps);
void viz_get_range(const struct viz_viewer *v, uint64_t *t0_ps, uint64_t *t1_ps);
/* x of time t (may lie outside the track area) and the time at x. */
double viz_time_to_x(const struct viz_viewer *v, uint64_t t_ps);
uint64_t viz_x_to_time(const struct viz_viewer *v, int x);
/* The row of lane on screen: top y and height in pixels, and the track area's
 * x range [*x0, *x1).  false when the lane is hidden (collapsed group or
 * scrolled out of the track area). */
bool viz_lane_rect(const struct viz_viewer *v, uint32_t lane, int *y, int *h, int *x0, int *x1);
/* Lanes in display order (header rows excluded): *n lanes. */
const uint32_t *viz_lane_order(const struct viz_viewer *v, size_t *n);
/* Collapses (how 1), expands (0) or toggles (-1) the groups `path` names:
 * "all" (every header: each chip shrinks to its header row), "cores" (every
 * core and engine class: the chip-wide lanes and the core headers stay),
 * "chipN", "chipN/coreM", "chipN/coreM/engines|dma|counters" (a core's
 * engine class); in a compare view "A:" or "B:" first, or "A" / "B" alone
 * for a whole trace.  false when the path names no group. */
bool viz_collapse(struct viz_viewer *v, const char *path, int how);
/* Whether a group is collapsed (false when there is no such group). */
bool viz_collapsed(const struct viz_viewer *v, const char *path);
/* How the top-ops panel groups: "op", "kind", "kernel" or "source"
 * (traces.h enum trc_group); false for another name. */
bool viz_set_group(struct viz_viewer *v, const char *name);
const char *viz_get_group(const struct viz_viewer *v);
/* The panel's rows as text, for tests: row i's key, and its time (compare
 * view: a_ps and b_ps; else a_ps only); false past the last row. */
bool viz_panel_row(const struct viz_viewer *v, size_t i, const char **key, uint64_t *a_ps, uint64_t *b_ps);

/* The colour of slices of op (or instruction) `name`: a fixed palette
 * entry chosen by the FNV-1a hash of the name (docs/visualizer.md). */
uint32_t viz_name_color(const char *name);
#define VIZ_COLOR_BG 0xFFFFFFFFu   /* track background */
#define VIZ_COLOR_WAIT 0xFFB0B0B0u     /* semaphore waits */
#define VIZ_COLOR_DISPATCH 0xFF90A4AEu /* host dispatch and launch gaps (the host lane) */
#define VIZ_COLOR_COLLECTIVE 0xFF7B1FA2u /* collectives (the collectives lane) */
#define VIZ_COLOR_LINK 0xFF00897Bu       /* link transfers at full utilisation; paler as it falls */

/* ------------------------------------------------------------- input */

/* The same handlers the window's events go to. */
void viz_input_motion(struct viz_viewer *v, int x, int y);
void viz_input_button(struct viz_viewer *v, int x, int y, bool down);
void viz_input_wheel(struct viz_viewer *v, int x, int y, int dy);
/* An SDL key name ("W", "Escape", "Return", "/"). false: unknown key. */
bool viz_input_key(struct viz_viewer *v, const char *key_name);
void viz_input_text(struct viz_viewer *v, const char *utf8);

/* Replays a script, one command per line ('#' comments):
 *   range T0 T1        set the visible range (times: 12, 12ps, 3.5ns, 2us, 1ms, 0.1s)
 *   key NAME [N]       press a key N times (W, S, A, D, F, 0, Escape, Return, /, ...)
 *   type TEXT          text input (the search box after `key /`)
 *   search TEXT        `key /`, `type TEXT`, `key Return`
 *   move X Y           the mouse moves to (X, Y) (hover tooltip)
 *   click X Y          press and release the left button at (X, Y)
 *   drag X0 Y0 X1 Y1   press at (X0, Y0), move to (X1, Y1), release
 *   wheel X Y N        N wheel steps at (X, Y) (N > 0 zooms in)
 *   collapse PATH      viz_collapse(PATH, 1); `expand PATH`: 0; `toggle PATH`: -1
 *   group NAME         the top-ops grouping: op, kind, kernel or source
 *   render             draw a frame
 *   screenshot PATH    draw a frame and write it as a PNG
 * Errors name the script line. */
enum base_status viz_script_run(struct viz_viewer *v, const char *text, const char *name, struct base_diag *diag);
enum base_status viz_script_run_file(struct viz_viewer *v, const char *path, struct base_diag *diag);
/* "12", "12ps", "3.5ns", "2us", "2µs", "1ms", "0.1s" -> ps; false when malformed. */
bool viz_time_parse(const char *s, uint64_t *out_ps);

/* ------------------------------------------------------- viewer state */

/* The selected slice (copied); false when nothing is selected. */
bool viz_selection(const struct viz_viewer *v, uint32_t *lane, struct trc_slice *out);
/* The search query ("" when none) and whether the search box is open. */
const char *viz_search_query(const struct viz_viewer *v, bool *editing);
/* The unit of the time ruler's labels in the last frame: "ps", "ns", "µs",
 * "ms" or "s"; and its labels (n of them, left to right). */
const char *viz_ruler_unit(const struct viz_viewer *v);
const char *viz_ruler_label(const struct viz_viewer *v, size_t i, size_t *n);

/* What the last frame drew (level of detail, cache). */
struct viz_frame_stats {
    uint64_t slices_drawn;  /* slices visited */
    uint64_t buckets_drawn; /* summary buckets visited */
    uint32_t lanes_slices;  /* lanes drawn from slices */
    uint32_t lanes_summary; /* lanes drawn from summaries */
    uint32_t tiles_fetched; /* cache misses this frame */
    uint64_t cache_bytes;   /* tile cache size after the frame */
    uint32_t tiles_deferred; /* tiles left for later frames (fetch budget spent): drawn as placeholders */
};
void viz_frame_stats(const struct viz_viewer *v, struct viz_frame_stats *out);
/* Wall time a frame may spend reading tiles before it draws the rest as
 * placeholders and leaves them to later frames (progressive loading: the
 * window uses 8 ms).  0 (the default): read everything, so a frame is
 * complete (screenshots, tests). */
void viz_set_fetch_budget(struct viz_viewer *v, double ms);

/* ------------------------------------------------------------ window */

/* Opens a window (SDL video; SDL_VIDEODRIVER picks the driver) and runs the
 * event loop until the window is closed or Q is pressed, or after max_frames
 * frames when max_frames > 0 (tests).  Frames load tiles progressively (an
 * 8 ms fetch budget unless one was set).  ERR_RUNTIME when SDL cannot open a
 * window, with SDL's message, and when there is no display (SDL would fall
 * back to its invisible offscreen driver) unless SDL_VIDEODRIVER asks for
 * one or max_frames > 0. */
enum base_status viz_run_window(struct viz_viewer *v, const char *title, int max_frames, struct base_diag *diag);

/* ------------------------------------------------------------ charts */

/* A horizontal bar chart: one panel per series, one bar per label, drawn
 * headless into an ARGB8888 buffer with a built-in 5 x 7 pixel font (no SDL,
 * no font file), e.g. `npusim estimate --plot` ($ per 1M tokens and tokens/s
 * per system).  Bars scale to the panel's largest value; a value that is
 * NaN or negative is missing (the series' `missing` text, or "n/a"). */
struct viz_bar_series {
    const char *name;          /* the panel's title */
    const char *unit;          /* NULL: none */
    const double *values;      /* n_bars */
    const char *missing;       /* text for a missing value; NULL: "n/a" */
};
struct viz_bar_chart {
    const char *title;         /* NULL: none */
    int n_bars;
    const char *const *labels; /* n_bars */
    int n_series;
    const struct viz_bar_series *series;
};
/* The chart's size in pixels. */
void viz_chart_size(const struct viz_bar_chart *c, int *w, int *h);
/* Draws it into px (w x h, pitch w; viz_chart_size's size). */
enum base_status viz_chart_render(const struct viz_bar_chart *c, uint32_t *px, int w, int h);
/* Draws it and writes it as an RGB PNG. */
enum base_status viz_chart_png(const struct viz_bar_chart *c, const char *path, struct base_diag *diag);

#endif
