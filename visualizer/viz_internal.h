/* visualizer internals (private to visualizer/). */
#ifndef NPUSIM_VIZ_INTERNAL_H
#define NPUSIM_VIZ_INTERNAL_H

#include "visualizer/visualizer.h"
#include "traces/traces.h"

#include <SDL.h>
#include <SDL_ttf.h>

/* layout (pixels) */
enum {
    HEADER_H = 20,
    OVERVIEW_H = 40,
    RULER_H = 22,
    LANE_H = 18,
    COUNTER_H = 30,
    GROUP_H = 18,
    LABEL_W = 170,
    PANEL_H = 172,
    OV_BINS = 4096,
    TILE_SHIFT = 10, /* a tile spans 2^(level + TILE_SHIFT) ps */
    RULER_MAX_LABELS = 64,
};

/* Rows: a header per trace (compare view), chip, core and engine class
 * (a core's compute engines, DMA queues or counters, when it has two or
 * more of them), each collapsible; then the lanes. */
enum row_kind { ROW_SRC, ROW_CHIP, ROW_CORE, ROW_CLASS, ROW_LANE };
enum lane_class { CLASS_ENGINES, CLASS_DMA, CLASS_COUNTERS, CLASS_COUNT };

struct row {
    enum row_kind kind;
    uint32_t lane;  /* ROW_LANE: global lane (viz_src_of) */
    uint32_t src;   /* the trace: 0, or 1 in a compare view */
    uint32_t chip;
    int32_t core;   /* ROW_CORE, ROW_CLASS, ROW_LANE; -1: chip-wide */
    int cls;        /* ROW_CLASS: enum lane_class; -1 otherwise */
    int depth;      /* a header hides the rows after it that are deeper */
    int h;
    int y;          /* content y (before scrolling), relative to the track area's top */
    bool hidden;    /* under a collapsed header */
    bool collapsed; /* header rows */
    uint32_t n_lanes; /* header rows: the lanes under it */
};

/* One trace of the view (two in a compare view); its lanes are global
 * lanes lane0 .. lane0 + n_lanes - 1. */
struct viz_src {
    struct trc_file *f;
    uint32_t lane0, n_lanes;
    uint32_t *str_color; /* per string id */
    bool *match;         /* per string id: contains the query */
    uint32_t n_strings;
    uint64_t end_ps;
    bool multi_chip;     /* lanes of more than one chip */
    char label[200];     /* "A  file  trn2 compiled" */
    float ov[OV_BINS];   /* whole-run busy fraction */
    struct trc_groups groups; /* top ops, grouped by viz_viewer.group */
};

/* cache of fetched tiles */
enum tile_type { TILE_SLICES, TILE_SUMMARY };
struct tile {
    uint32_t lane, level, type; /* level: tile span 2^(level + TILE_SHIFT) ps; summaries: bucket level */
    uint64_t index;
    bool used;                  /* slot holds a tile */
    uint64_t stamp;             /* last frame that used it */
    void *data;                 /* struct trc_slice[] or struct trc_bucket[] */
    size_t n;
    uint64_t bytes;
};
struct tile_cache {
    struct tile *slots;
    size_t cap, n_used; /* open addressing, cap a power of two */
    uint64_t bytes, budget;
};

struct counter_data {
    bool loaded;
    struct trc_sample *s;
    size_t n;
    double max;
};

struct glyph {
    uint8_t *alpha; /* coverage of the ink box, w x h */
    int x0, y0;     /* ink box offset from the pen position (top of the line) */
    int w, h;
    int advance;
};

struct viz_viewer {
    struct viz_src src[2];
    uint32_t n_src;
    int w, h;
    SDL_Surface *fb;
    TTF_Font *font;
    struct glyph glyphs[256]; /* Latin-1 */
    int line_h;

    uint64_t end_ps;
    double t0;  /* view start, ps */
    double ppp; /* ps per pixel */

    uint32_t n_lanes; /* of every trace */
    struct row *rows;
    size_t n_rows;
    uint32_t *lane_order;
    size_t n_order;
    int content_h;
    int scroll_y;
    uint32_t *lane_row; /* lane -> row index */
    double *lane_spacing_ps; /* run length / slices: a slice's worth of time */

    struct tile_cache cache;
    uint64_t frame;
    struct counter_data *counters; /* per lane */

    enum trc_group group;       /* how the top-ops panel groups */
    struct trc_diff_row *diff;  /* compare view: A's rows against B's */
    size_t n_diff;

    /* input */
    int mouse_x, mouse_y;
    bool mouse_in;
    bool pressed;
    int press_x, press_y;
    bool dragging;
    double drag_t0;
    int drag_scroll;
    bool drag_overview;
    bool key_repeat; /* the key event being handled is an auto-repeat */

    bool sel_valid;
    uint32_t sel_lane;
    struct trc_slice sel;
    struct trc_flow_vec sel_flows; /* flows into or out of the selection */

    char query[TRC_KEY_MAX + 8];
    bool editing;
    bool skip_slash;
    bool match_any;

    char ruler_unit[8];
    char ruler_labels[RULER_MAX_LABELS][24];
    size_t n_ruler_labels;

    /* tiles drawn this frame per lane, for prefetching their neighbours */
    struct drawn_span {
        uint32_t lane, type, level;
        uint64_t i0, i1;
    } *drawn;
    size_t n_drawn;
    size_t prefetch_next; /* round-robin position in drawn[] */

    double fetch_budget_s; /* per frame; 0: unlimited */
    double frame_fetch_s;  /* spent fetching in this frame */

    struct viz_frame_stats stats;
    struct base_diag err; /* first fetch error of a frame */
};

/* The trace of global lane g, its lane there, and lookups through it. */
static inline const struct viz_src *viz_src_of(const struct viz_viewer *v, uint32_t g)
{
    return v->n_src > 1 && g >= v->src[1].lane0 ? &v->src[1] : &v->src[0];
}
static inline uint32_t viz_local(const struct viz_viewer *v, uint32_t g) { return g - viz_src_of(v, g)->lane0; }
static inline const struct trc_lane *viz_lane(const struct viz_viewer *v, uint32_t g)
{
    return trc_file_lane(viz_src_of(v, g)->f, viz_local(v, g));
}
static inline const char *viz_str(const struct viz_viewer *v, uint32_t g, uint32_t id)
{
    return trc_file_string(viz_src_of(v, g)->f, id);
}
static inline uint32_t viz_str_color(const struct viz_viewer *v, uint32_t g, uint32_t id)
{
    const struct viz_src *s = viz_src_of(v, g);
    return id < s->n_strings ? s->str_color[id] : 0xFF4E79A7u;
}
/* The row key of a top-ops row as the panel shows it and search finds it. */
const char *viz_group_search_text(const struct viz_viewer *v, const struct viz_src *s, const struct trc_group_row *r);
/* Rebuilds the groups (and the diff of a compare view) for v->group. */
enum base_status viz_groups_build(struct viz_viewer *v, struct base_diag *diag);

/* render.c */
enum base_status viz_text_init(struct viz_viewer *v, const char *path, int pt, struct base_diag *diag);
void viz_text_deinit(struct viz_viewer *v);
/* Loads a counter lane's samples (once) and its maximum. */
void viz_counter_load(struct viz_viewer *v, uint32_t lane);
int viz_text_width(const struct viz_viewer *v, const char *s);
/* Draws s at (x, y) (top left) clipped to the surface's clip rect; returns the end x. */
int viz_text_draw(struct viz_viewer *v, int x, int y, const char *s, uint32_t argb);
void viz_fill(struct viz_viewer *v, int x, int y, int w, int h, uint32_t argb);
/* A 1-pixel-wide vertical span, clipped. */
void viz_vline(struct viz_viewer *v, int x, int y, int h, uint32_t argb);
void viz_fill_blend(struct viz_viewer *v, int x, int y, int w, int h, uint32_t argb, int alpha);
void viz_format_time(char *buf, size_t cap, double ps, double unit_hint_ps);
void viz_format_si(char *buf, size_t cap, double v);

/* cache.c */
void viz_cache_init(struct tile_cache *c, uint64_t budget);
void viz_cache_deinit(struct tile_cache *c);
/* The tile (fetched on a miss); NULL with v->err set on failure, or NULL
 * with v->err clear when the frame's fetch budget is spent (deferred). */
const struct tile *viz_cache_get(struct viz_viewer *v, uint32_t lane, enum tile_type type, uint32_t level,
                                 uint64_t index);
void viz_cache_trim(struct viz_viewer *v);
bool viz_cache_has(struct viz_viewer *v, uint32_t lane, enum tile_type type, uint32_t level, uint64_t index);
/* Fetches up to budget missing neighbour tiles of what the frame drew. */
void viz_cache_prefetch(struct viz_viewer *v, int budget);

/* viewer.c */
int viz_track_top(const struct viz_viewer *v);
int viz_track_bottom(const struct viz_viewer *v);
/* Finds the slice under (x, y): true with lane and slice. */
/* Selects (lane, s) and fetches its flows. */
void viz_select(struct viz_viewer *v, uint32_t lane, const struct trc_slice *s);
bool viz_row_lane_at(const struct viz_viewer *v, int y, uint32_t *lane);
bool viz_pick(struct viz_viewer *v, int x, int y, uint32_t *lane, struct trc_slice *out);
bool viz_slice_matches(const struct viz_viewer *v, uint32_t lane, const struct trc_slice *s);
/* Whether lane is drawn from slices at the current zoom; else *level = the summary level. */
bool viz_lane_uses_slices(const struct viz_viewer *v, uint32_t lane, uint32_t *level);

#endif
