/* The viewer: lane layout, the view (time range, scroll), input handling,
 * picking, search, and the accessors tests read. */
#include "visualizer/viz_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int viz_track_top(const struct viz_viewer *v)
{
    (void)v;
    return HEADER_H + OVERVIEW_H + RULER_H;
}

int viz_track_bottom(const struct viz_viewer *v)
{
    int b = v->h - PANEL_H;
    return b > viz_track_top(v) + 40 ? b : v->h;
}

static int track_w(const struct viz_viewer *v)
{
    int w = v->w - LABEL_W;
    return w > 1 ? w : 1;
}

/* ------------------------------------------------------------ layout */

struct lane_key {
    uint32_t lane, chip, sort_index;
    int32_t core;
    int cls; /* core lanes: enum lane_class; chip-wide: -1 */
};

static int cmp_lane_key(const void *a, const void *b)
{
    const struct lane_key *x = a, *y = b;
    if (x->chip != y->chip) return x->chip < y->chip ? -1 : 1;
    if (x->core != y->core) return x->core < y->core ? -1 : 1; /* chip-wide (-1) first */
    if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;     /* engines, DMA queues, counters */
    if (x->sort_index != y->sort_index) return x->sort_index < y->sort_index ? -1 : 1;
    return x->lane < y->lane ? -1 : x->lane > y->lane;
}

static int lane_class_of(const struct trc_lane *ln)
{
    if (ln->core < 0) return -1;
    return ln->kind == TRC_LANE_DMA ? CLASS_DMA : ln->kind == TRC_LANE_COUNTER ? CLASS_COUNTERS : CLASS_ENGINES;
}

/* A header hides every following row deeper than itself. */
static void layout(struct viz_viewer *v)
{
    int y = 0, hide_depth = -1;
    for (size_t r = 0; r < v->n_rows; r++) {
        struct row *row = &v->rows[r];
        if (hide_depth >= 0 && row->depth > hide_depth) {
            row->hidden = true;
        } else {
            row->hidden = false;
            hide_depth = row->kind != ROW_LANE && row->collapsed ? row->depth : -1;
        }
        row->y = y;
        if (!row->hidden) y += row->h;
    }
    v->content_h = y;
}

static void clamp_scroll(struct viz_viewer *v)
{
    int view_h = viz_track_bottom(v) - viz_track_top(v);
    int max = v->content_h - view_h;
    if (v->scroll_y > max) v->scroll_y = max;
    if (v->scroll_y < 0) v->scroll_y = 0;
}

static void push_row(struct viz_viewer *v, size_t *r, struct row row)
{
    v->rows[(*r)++] = row;
}

static enum base_status build_rows(struct viz_viewer *v)
{
    uint32_t n = v->n_lanes;
    struct lane_key *keys = malloc((n ? n : 1) * sizeof *keys);
    v->rows = malloc((5 * (size_t)n + 2) * sizeof *v->rows);
    v->lane_order = malloc((n ? n : 1) * sizeof *v->lane_order);
    v->lane_row = malloc((n ? n : 1) * sizeof *v->lane_row);
    v->lane_spacing_ps = malloc((n ? n : 1) * sizeof *v->lane_spacing_ps);
    if (!keys || !v->rows || !v->lane_order || !v->lane_row || !v->lane_spacing_ps) {
        free(keys);
        return BASE_ERR_NOMEM;
    }
    size_t r = 0, n_order = 0;
    for (uint32_t si = 0; si < v->n_src; si++) {
        const struct viz_src *src = &v->src[si];
        uint32_t nk = 0;
        for (uint32_t l = src->lane0; l < src->lane0 + src->n_lanes; l++) {
            const struct trc_lane *ln = viz_lane(v, l);
            v->lane_row[l] = UINT32_MAX;
            uint64_t cnt = trc_file_lane_count(src->f, l - src->lane0);
            v->lane_spacing_ps[l] = cnt ? (double)src->end_ps / (double)cnt : 0;
            /* idle lanes (no slices; counters that stay at 0) are left out, as the JSON writer does */
            if (cnt == 0) continue;
            if (ln->kind == TRC_LANE_COUNTER) {
                viz_counter_load(v, l);
                if (v->counters[l].max <= 0) continue;
            }
            keys[nk++] = (struct lane_key){l, ln->chip, ln->sort_index, ln->core < 0 ? -1 : ln->core, lane_class_of(ln)};
        }
        qsort(keys, nk, sizeof *keys, cmp_lane_key);
        int base = 0;
        if (v->n_src > 1) {
            push_row(v, &r, (struct row){ROW_SRC, 0, si, 0, -1, -1, 0, GROUP_H, 0, false, false, nk});
            base = 1;
        }
        for (uint32_t i = 0; i < nk; i++) {
            const struct lane_key *k = &keys[i];
            bool new_chip = i == 0 || k->chip != keys[i - 1].chip;
            bool new_core = new_chip || k->core != keys[i - 1].core;
            bool new_cls = new_core || k->cls != keys[i - 1].cls;
            if (new_chip) {
                uint32_t m = 0;
                for (uint32_t j = i; j < nk && keys[j].chip == k->chip; j++) m++;
                push_row(v, &r, (struct row){ROW_CHIP, 0, si, k->chip, -1, -1, base, GROUP_H, 0, false, false, m});
            }
            if (k->core >= 0 && new_core) {
                uint32_t m = 0;
                for (uint32_t j = i; j < nk && keys[j].chip == k->chip && keys[j].core == k->core; j++) m++;
                push_row(v, &r, (struct row){ROW_CORE, 0, si, k->chip, k->core, -1, base + 1, GROUP_H, 0, false, false, m});
            }
            int depth = k->core < 0 ? base + 1 : base + 2;
            if (k->core >= 0) { /* an engine class of two or more lanes gets a header */
                uint32_t m = 0;
                uint32_t j0 = i;
                while (j0 > 0 && keys[j0 - 1].chip == k->chip && keys[j0 - 1].core == k->core && keys[j0 - 1].cls == k->cls) j0--;
                for (uint32_t j = j0; j < nk && keys[j].chip == k->chip && keys[j].core == k->core && keys[j].cls == k->cls; j++)
                    m++;
                if (m >= 2) {
                    if (new_cls)
                        push_row(v, &r, (struct row){ROW_CLASS, 0, si, k->chip, k->core, k->cls, base + 2, GROUP_H, 0, false,
                                                     false, m});
                    depth = base + 3;
                }
            }
            const struct trc_lane *ln = viz_lane(v, k->lane);
            int h = ln->kind == TRC_LANE_COUNTER ? COUNTER_H : LANE_H;
            if (h < v->line_h + 3) h = v->line_h + 3;
            if (ln->kind == TRC_LANE_COUNTER && h < 2 * v->line_h + 2) h = 2 * v->line_h + 2;
            v->lane_row[k->lane] = (uint32_t)r;
            push_row(v, &r, (struct row){ROW_LANE, k->lane, si, k->chip, k->core, -1, depth, h, 0, false, false, 0});
            v->lane_order[n_order++] = k->lane;
        }
    }
    v->n_rows = r;
    v->n_order = n_order;
    free(keys);
    layout(v);
    return BASE_OK;
}

/* The whole-run busy fraction per overview bin of one trace, from the
 * coarse summaries (or the slices of lanes too small to have any), over the
 * view's time axis (the longer trace's run). */
static enum base_status build_overview(struct viz_viewer *v, struct viz_src *src, struct base_diag *diag)
{
    double *acc = calloc(OV_BINS, sizeof *acc);
    if (!acc) return BASE_ERR_NOMEM;
    double bin_ps = (double)(v->end_ps ? v->end_ps : 1) / OV_BINS;
    uint32_t level = trc_level_for(bin_ps < 1 ? 1 : (uint64_t)bin_ps);
    uint32_t counted = 0;
    struct trc_bucket_vec bv = {NULL, 0, 0};
    struct trc_slice_vec sv = {NULL, 0, 0};
    enum base_status st = BASE_OK;
    for (uint32_t l = 0; l < src->n_lanes && st == BASE_OK; l++) {
        const struct trc_lane *ln = trc_file_lane(src->f, l);
        if (ln->kind != TRC_LANE_ENGINE && ln->kind != TRC_LANE_DMA) continue;
        if (trc_file_lane_count(src->f, l) == 0) continue;
        counted++;
        uint32_t lo, hi;
        trc_file_lane_levels(src->f, l, &lo, &hi);
        if (lo <= hi) {
            uint32_t lv = level < lo ? lo : level > hi ? hi : level;
            bv.n = 0;
            st = trc_file_summary(src->f, l, lv, 0, UINT64_MAX, &bv, diag);
            double bw = ldexp(1.0, (int)lv);
            for (size_t i = 0; i < bv.n && st == BASE_OK; i++) {
                size_t b = (size_t)((double)bv.v[i].index * bw / bin_ps);
                if (b < OV_BINS) acc[b] += (double)bv.v[i].busy_ps;
            }
        } else {
            sv.n = 0;
            st = trc_file_slices(src->f, l, 0, UINT64_MAX, &sv, diag);
            for (size_t i = 0; i < sv.n && st == BASE_OK; i++) {
                if (sv.v[i].kind == TRC_SLICE_WAIT) continue;
                /* spread the slice over the bins it covers */
                double s = (double)sv.v[i].start_ps, e = s + (double)sv.v[i].dur_ps;
                size_t b = (size_t)(s / bin_ps);
                while (b < OV_BINS && s < e) {
                    double be = (double)(b + 1) * bin_ps, seg = (e < be ? e : be) - s;
                    acc[b] += seg;
                    s += seg;
                    b++;
                }
            }
        }
    }
    /* a bucket coarser than a bin puts all its time in one bin: carry the
     * excess over to the next bins, so the strip shows a fraction, not spikes */
    double cap = bin_ps * (counted ? counted : 1);
    for (size_t b = 0; b < OV_BINS; b++) {
        if (acc[b] > cap && b + 1 < OV_BINS) acc[b + 1] += acc[b] - cap;
        double f = acc[b] / cap;
        src->ov[b] = (float)(f > 1 ? 1 : f);
    }
    /* drawn relative to the busiest bin: the strip shows the run's shape */
    float top = 0;
    for (size_t b = 0; b < OV_BINS; b++) top = src->ov[b] > top ? src->ov[b] : top;
    for (size_t b = 0; top > 0 && b < OV_BINS; b++) src->ov[b] /= top;
    free(acc);
    trc_bucket_vec_free(&bv);
    trc_slice_vec_free(&sv);
    return st;
}

/* ------------------------------------------------------------ top ops */


const char *viz_group_search_text(const struct viz_viewer *v, const struct viz_src *s, const struct trc_group_row *r)
{
    switch (v->group) {
    case TRC_GROUP_OP: return r->loc ? trc_file_string(s->f, r->loc) : trc_file_string(s->f, r->op);
    case TRC_GROUP_KIND: return trc_file_string(s->f, r->op);
    case TRC_GROUP_KERNEL: return trc_file_string(s->f, r->kernel);
    default: return r->key;
    }
}

enum base_status viz_groups_build(struct viz_viewer *v, struct base_diag *diag)
{
    for (uint32_t i = 0; i < v->n_src; i++) {
        trc_groups_free(&v->src[i].groups);
        TRY(trc_file_groups(v->src[i].f, v->group, &v->src[i].groups, diag));
    }
    free(v->diff);
    v->diff = NULL;
    v->n_diff = 0;
    if (v->n_src > 1 && trc_groups_diff(&v->src[0].groups, &v->src[1].groups, &v->diff, &v->n_diff) != BASE_OK)
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return BASE_OK;
}

bool viz_set_group(struct viz_viewer *v, const char *name)
{
    enum trc_group g;
    if (!trc_group_lookup(name, &g)) return false;
    v->group = g;
    struct base_diag d;
    base_diag_clear(&d);
    if (viz_groups_build(v, &d) != BASE_OK && v->err.status == BASE_OK) v->err = d;
    return true;
}

const char *viz_get_group(const struct viz_viewer *v) { return trc_group_name(v->group); }

bool viz_panel_row(const struct viz_viewer *v, size_t i, const char **key, uint64_t *a_ps, uint64_t *b_ps)
{
    if (v->n_src > 1) {
        if (i >= v->n_diff) return false;
        if (key) *key = v->diff[i].key;
        if (a_ps) *a_ps = v->diff[i].a_ps;
        if (b_ps) *b_ps = v->diff[i].b_ps;
        return true;
    }
    const struct trc_groups *g = &v->src[0].groups;
    if (i >= g->n) return false;
    if (key) *key = g->rows[i].key;
    if (a_ps) *a_ps = g->rows[i].time_ps;
    if (b_ps) *b_ps = 0;
    return true;
}

static enum base_status src_init(struct viz_viewer *v, uint32_t si, struct trc_file *f, uint32_t lane0)
{
    struct viz_src *s = &v->src[si];
    s->f = f;
    s->lane0 = lane0;
    s->n_lanes = trc_file_n_lanes(f);
    s->end_ps = trc_file_end_ps(f);
    s->n_strings = trc_file_n_strings(f);
    s->str_color = malloc((s->n_strings + 1) * sizeof *s->str_color);
    s->match = calloc(s->n_strings + 1, sizeof *s->match);
    if (!s->str_color || !s->match) return BASE_ERR_NOMEM;
    for (uint32_t i = 0; i < s->n_strings; i++) s->str_color[i] = viz_name_color(trc_file_string(f, i));
    for (uint32_t l = 0; l < s->n_lanes; l++) s->multi_chip |= trc_file_lane(f, l)->chip != 0;
    const char *model = trc_file_meta(f, "model"), *chip = trc_file_meta(f, "chip"), *mode = trc_file_meta(f, "mode");
    const char *chips = trc_file_meta(f, "chips");
    if (model) {
        const char *slash = strrchr(model, '/');
        model = slash ? slash + 1 : model;
    }
    snprintf(s->label, sizeof s->label, "%s%s%s%s%s%s%s%s", v->n_src > 1 ? (si ? "B  " : "A  ") : "", chip ? chip : "?",
             mode ? " " : "", mode ? mode : "", chips ? " x" : "", chips ? chips : "", model ? "  " : "", model ? model : "");
    return BASE_OK;
}

static enum base_status create(struct trc_file *a, struct trc_file *b, const struct viz_options *o, struct viz_viewer **out,
                               struct base_diag *diag)
{
    *out = NULL;
    struct viz_viewer *v = calloc(1, sizeof *v);
    if (!v) return BASE_ERR_NOMEM;
    v->n_src = b ? 2 : 1;
    v->w = o && o->width_px > 0 ? o->width_px : 1280;
    v->h = o && o->height_px > 0 ? o->height_px : 800;
    if (v->w < LABEL_W + 64 || v->h < viz_track_top(v) + 40 || v->w > 16384 || v->h > 16384) {
        int w = v->w, h = v->h, min_h = viz_track_top(v) + 40;
        free(v);
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "visualizer: size %dx%d out of range (min %dx%d)",
                             w, h, LABEL_W + 64, min_h);
    }
    enum base_status st = viz_text_init(v, o ? o->font_path : NULL, o && o->font_pt > 0 ? o->font_pt : 12, diag);
    if (st != BASE_OK) goto fail;
    v->fb = SDL_CreateRGBSurfaceWithFormat(0, v->w, v->h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!v->fb) {
        st = base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0, "visualizer: cannot create the framebuffer: %s",
                           SDL_GetError());
        goto fail;
    }
    viz_cache_init(&v->cache, o && o->cache_bytes ? o->cache_bytes : (uint64_t)512 << 20);
    st = src_init(v, 0, a, 0);
    if (st == BASE_OK && b) st = src_init(v, 1, b, trc_file_n_lanes(a));
    if (st != BASE_OK) goto fail;
    v->n_lanes = v->src[0].n_lanes + (b ? v->src[1].n_lanes : 0);
    v->end_ps = v->src[0].end_ps;
    if (b && v->src[1].end_ps > v->end_ps) v->end_ps = v->src[1].end_ps;
    v->counters = calloc(v->n_lanes + 1, sizeof *v->counters);
    v->drawn = calloc(v->n_lanes + 1, sizeof *v->drawn);
    if (!v->counters || !v->drawn) {
        st = BASE_ERR_NOMEM;
        goto fail;
    }
    st = build_rows(v);
    if (st == BASE_OK && v->err.status != BASE_OK) {
        if (diag) *diag = v->err;
        st = v->err.status;
    }
    for (uint32_t i = 0; i < v->n_src && st == BASE_OK; i++) st = build_overview(v, &v->src[i], diag);
    if (st == BASE_OK) st = viz_groups_build(v, diag);
    if (st != BASE_OK) goto fail;
    if (b) viz_collapse(v, "cores", 1); /* two traces: each core a strip, so both fit on the screen */
    viz_set_range(v, 0, v->end_ps);
    *out = v;
    return BASE_OK;
fail:
    viz_viewer_destroy(v);
    return st;
}

enum base_status viz_viewer_create(struct trc_file *f, const struct viz_options *o, struct viz_viewer **out,
                                   struct base_diag *diag)
{
    return create(f, NULL, o, out, diag);
}

enum base_status viz_viewer_create_compare(struct trc_file *a, struct trc_file *b, const struct viz_options *o,
                                           struct viz_viewer **out, struct base_diag *diag)
{
    return create(a, b, o, out, diag);
}

void viz_viewer_destroy(struct viz_viewer *v)
{
    if (!v) return;
    viz_cache_deinit(&v->cache);
    if (v->counters)
        for (uint32_t l = 0; l < v->n_lanes; l++) free(v->counters[l].s);
    free(v->counters);
    free(v->drawn);
    trc_flow_vec_free(&v->sel_flows);
    free(v->rows);
    free(v->lane_order);
    free(v->lane_row);
    free(v->lane_spacing_ps);
    for (uint32_t i = 0; i < 2; i++) {
        free(v->src[i].str_color);
        free(v->src[i].match);
        trc_groups_free(&v->src[i].groups);
    }
    free(v->diff);
    if (v->fb) SDL_FreeSurface(v->fb);
    viz_text_deinit(v);
    free(v);
}

const uint32_t *viz_pixels(const struct viz_viewer *v, int *w, int *h, int *pitch_px)
{
    *w = v->w;
    *h = v->h;
    *pitch_px = v->fb->pitch / 4;
    return v->fb->pixels;
}

uint32_t viz_pixel(const struct viz_viewer *v, int x, int y)
{
    if (x < 0 || y < 0 || x >= v->w || y >= v->h) return 0;
    return ((const uint32_t *)((const uint8_t *)v->fb->pixels + (size_t)y * (size_t)v->fb->pitch))[x];
}

enum base_status viz_write_png(const struct viz_viewer *v, const char *path, struct base_diag *diag)
{
    return viz_png_write(path, v->fb->pixels, v->w, v->h, v->fb->pitch / 4, diag);
}

static enum base_status resize(struct viz_viewer *v, int w, int h)
{
    if (w < LABEL_W + 64) w = LABEL_W + 64;
    if (h < viz_track_top(v) + 40) h = viz_track_top(v) + 40;
    SDL_Surface *fb = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!fb) return BASE_ERR_NOMEM;
    SDL_FreeSurface(v->fb);
    v->fb = fb;
    double t0 = v->t0, t1 = v->t0 + v->ppp * track_w(v);
    v->w = w;
    v->h = h;
    viz_set_range(v, (uint64_t)t0, (uint64_t)t1);
    clamp_scroll(v);
    return BASE_OK;
}

/* ------------------------------------------------------------ the view */

static void set_view(struct viz_viewer *v, double t0, double ppp)
{
    double tw = track_w(v);
    double max_ppp = (double)(v->end_ps ? v->end_ps : 1) / tw;
    double min_ppp = 1.0 / 64;
    if (ppp > max_ppp) ppp = max_ppp;
    if (ppp < min_ppp) ppp = min_ppp;
    double span = ppp * tw;
    if (t0 + span > (double)v->end_ps) t0 = (double)v->end_ps - span;
    if (t0 < 0) t0 = 0;
    v->t0 = t0;
    v->ppp = ppp;
}

void viz_set_range(struct viz_viewer *v, uint64_t t0_ps, uint64_t t1_ps)
{
    if (t1_ps <= t0_ps) t1_ps = t0_ps + 1;
    set_view(v, (double)t0_ps, (double)(t1_ps - t0_ps) / track_w(v));
}

void viz_get_range(const struct viz_viewer *v, uint64_t *t0_ps, uint64_t *t1_ps)
{
    *t0_ps = (uint64_t)floor(v->t0 + 0.5);
    *t1_ps = (uint64_t)floor(v->t0 + v->ppp * track_w(v) + 0.5);
}

double viz_time_to_x(const struct viz_viewer *v, uint64_t t_ps)
{
    return LABEL_W + ((double)t_ps - v->t0) / v->ppp;
}

uint64_t viz_x_to_time(const struct viz_viewer *v, int x)
{
    double t = v->t0 + (x - LABEL_W) * v->ppp;
    return t <= 0 ? 0 : (uint64_t)t;
}

bool viz_lane_rect(const struct viz_viewer *v, uint32_t lane, int *y, int *h, int *x0, int *x1)
{
    if (lane >= v->n_lanes || v->lane_row[lane] == UINT32_MAX) return false;
    const struct row *row = &v->rows[v->lane_row[lane]];
    int top = viz_track_top(v), bottom = viz_track_bottom(v);
    *y = top + row->y - v->scroll_y;
    *h = row->h;
    *x0 = LABEL_W;
    *x1 = v->w;
    return !row->hidden && *y >= top && *y + *h <= bottom;
}

const uint32_t *viz_lane_order(const struct viz_viewer *v, size_t *n)
{
    *n = v->n_order;
    return v->lane_order;
}

bool viz_lane_uses_slices(const struct viz_viewer *v, uint32_t lane, uint32_t *level)
{
    uint32_t lo, hi;
    trc_file_lane_levels(viz_src_of(v, lane)->f, viz_local(v, lane), &lo, &hi);
    /* slices while a pixel covers less than a slice's worth of time (the
     * run over the lane's slices); else the summary level of the zoom,
     * which is at least the lane's finest (buckets of ~8 slices, so a few
     * pixels wide just past the switch) */
    if (lo > hi || v->ppp <= v->lane_spacing_ps[lane]) return true;
    uint32_t l = trc_level_for(v->ppp < 1 ? 1 : (uint64_t)v->ppp);
    *level = l < lo ? lo : l > hi ? hi : l;
    return false;
}

static void zoom_at(struct viz_viewer *v, int x, double factor)
{
    if (x < LABEL_W || x >= v->w) x = LABEL_W + track_w(v) / 2;
    double t = v->t0 + (x - LABEL_W) * v->ppp;
    double ppp = v->ppp / factor;
    set_view(v, 0, ppp); /* clamp ppp first */
    set_view(v, t - (x - LABEL_W) * v->ppp, v->ppp);
}

/* ------------------------------------------------------------ picking */

static const struct row *row_at(const struct viz_viewer *v, int y)
{
    int top = viz_track_top(v);
    if (y < top || y >= viz_track_bottom(v)) return NULL;
    int cy = y - top + v->scroll_y;
    size_t lo = 0, hi = v->n_rows;
    while (lo < hi) { /* the last visible row with row->y <= cy */
        size_t mid = (lo + hi) / 2;
        if (v->rows[mid].y <= cy) lo = mid + 1;
        else hi = mid;
    }
    while (lo > 0) {
        const struct row *r = &v->rows[lo - 1];
        if (!r->hidden) return cy < r->y + r->h ? r : NULL;
        lo--;
    }
    return NULL;
}

bool viz_row_lane_at(const struct viz_viewer *v, int y, uint32_t *lane)
{
    const struct row *r = row_at(v, y);
    if (!r || r->kind != ROW_LANE) return false;
    *lane = r->lane;
    return true;
}

bool viz_pick(struct viz_viewer *v, int x, int y, uint32_t *lane, struct trc_slice *out)
{
    const struct row *r = row_at(v, y);
    if (!r || r->kind != ROW_LANE || x < LABEL_W) return false;
    const struct trc_lane *ln = viz_lane(v, r->lane);
    if (ln->kind == TRC_LANE_COUNTER) return false;
    double t = v->t0 + (x - LABEL_W + 0.5) * v->ppp;
    double slack = 3 * v->ppp;
    uint64_t a = t - slack <= 0 ? 0 : (uint64_t)(t - slack), b = (uint64_t)(t + slack) + 1;
    struct trc_slice_vec sv = {NULL, 0, 0};
    struct base_diag d;
    base_diag_clear(&d);
    if (trc_file_slices(viz_src_of(v, r->lane)->f, viz_local(v, r->lane), a, b, &sv, &d) != BASE_OK) {
        trc_slice_vec_free(&sv);
        return false;
    }
    /* the non-zero slice under the cursor, else the nearest within 3 px */
    size_t best = SIZE_MAX;
    double best_d = slack;
    for (size_t i = 0; i < sv.n; i++) {
        double s = (double)sv.v[i].start_ps, e = s + (double)sv.v[i].dur_ps;
        double dist = t < s ? s - t : t >= e ? t - e : 0;
        if (dist == 0 && sv.v[i].dur_ps) {
            best = i;
            break;
        }
        if (dist < best_d || (best == SIZE_MAX && dist <= best_d)) {
            best = i;
            best_d = dist;
        }
    }
    bool ok = best != SIZE_MAX;
    if (ok) {
        *lane = r->lane;
        *out = sv.v[best];
    }
    trc_slice_vec_free(&sv);
    return ok;
}

/* ------------------------------------------------------------ search */

static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (!n) return false;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return true;
    }
    return false;
}

/* Every string of each trace: names, ops, locations, location chains,
 * kernels. */
static void update_matches(struct viz_viewer *v)
{
    for (uint32_t k = 0; k < v->n_src; k++) {
        struct viz_src *s = &v->src[k];
        for (uint32_t i = 0; i < s->n_strings; i++) s->match[i] = i > 0 && contains_ci(trc_file_string(s->f, i), v->query);
    }
    /* a query that matches nothing still dims everything: nothing is highlighted */
    v->match_any = v->query[0] != 0;
}

bool viz_slice_matches(const struct viz_viewer *v, uint32_t lane, const struct trc_slice *s)
{
    const struct viz_src *x = viz_src_of(v, lane);
    const uint32_t ids[5] = {s->op, s->name, s->loc, s->src, s->kernel};
    for (int i = 0; i < 5; i++)
        if (ids[i] && ids[i] < x->n_strings && x->match[ids[i]]) return true;
    return false;
}

/* ------------------------------------------------------------ input */

void viz_select(struct viz_viewer *v, uint32_t lane, const struct trc_slice *s)
{
    v->sel_valid = true;
    v->sel_lane = lane;
    v->sel = *s;
    /* the flows that start in it or end in it (a DMA -> the wait it released) */
    struct trc_flow_vec all = {NULL, 0, 0};
    struct base_diag d;
    base_diag_clear(&d);
    v->sel_flows.n = 0;
    uint64_t a = s->start_ps, b = s->start_ps + (s->dur_ps ? s->dur_ps : 1); /* [start, end): the next slice owns its start */
    const struct viz_src *src = viz_src_of(v, lane);
    if (trc_file_flows(src->f, a, b, &all, &d) == BASE_OK) {
        for (size_t i = 0; i < all.n; i++) {
            struct trc_flow g = all.v[i]; /* global lanes */
            g.from_lane += src->lane0;
            g.to_lane += src->lane0;
            const struct trc_flow *fl = &g;
            bool out = fl->from_lane == lane && fl->from_ps >= a && fl->from_ps < b;
            bool in = fl->to_lane == lane && fl->to_ps >= a && fl->to_ps < b;
            if (!out && !in) continue;
            if (v->sel_flows.n == v->sel_flows.cap) {
                size_t cap = v->sel_flows.cap ? v->sel_flows.cap * 2 : 8;
                struct trc_flow *nv = realloc(v->sel_flows.v, cap * sizeof *nv);
                if (!nv) break;
                v->sel_flows.v = nv;
                v->sel_flows.cap = cap;
            }
            v->sel_flows.v[v->sel_flows.n++] = *fl;
        }
    }
    trc_flow_vec_free(&all);
}

static struct row *header_at(struct viz_viewer *v, int y)
{
    const struct row *r = row_at(v, y);
    return r && r->kind != ROW_LANE ? (struct row *)r : NULL;
}

static void toggle_row(struct viz_viewer *v, struct row *r)
{
    r->collapsed = !r->collapsed;
    layout(v);
    clamp_scroll(v);
}

/* The header under y, or the innermost header over the lane under y. */
static struct row *group_at(struct viz_viewer *v, int y)
{
    const struct row *r = row_at(v, y);
    if (!r) return NULL;
    if (r->kind != ROW_LANE) return (struct row *)r;
    for (size_t i = (size_t)(r - v->rows); i > 0; i--)
        if (v->rows[i - 1].kind != ROW_LANE && v->rows[i - 1].depth < r->depth) return &v->rows[i - 1];
    return NULL;
}

static void click(struct viz_viewer *v, int x, int y)
{
    int top = viz_track_top(v), bottom = viz_track_bottom(v);
    if (y >= top && y < bottom) {
        struct row *h = header_at(v, y);
        if (h) { /* a chip, core, engine class or trace header: collapse or expand it */
            toggle_row(v, h);
            return;
        }
        uint32_t lane;
        struct trc_slice s;
        if (x >= LABEL_W && viz_pick(v, x, y, &lane, &s)) viz_select(v, lane, &s);
        else if (x >= LABEL_W) v->sel_valid = false;
        return;
    }
    if (y >= bottom && x > v->w / 2) { /* the panel's title cycles the grouping; a row: search for it */
        int first = bottom + 4 + v->line_h + 2 + (v->n_src > 1 ? v->line_h : 0);
        if (y < bottom + 4 + v->line_h) {
            viz_set_group(v, trc_group_name((enum trc_group)((v->group + 1) % TRC_GROUP_COUNT)));
            return;
        }
        if (y < first) return;
        size_t i = (size_t)((y - first) / v->line_h);
        const char *text = NULL;
        char buf[TRC_KEY_MAX + 2];
        if (v->n_src > 1 && i < v->n_diff) {
            const struct trc_diff_row *d = &v->diff[i];
            const struct viz_src *s = d->a_row != SIZE_MAX ? &v->src[0] : &v->src[1];
            text = viz_group_search_text(v, s, &s->groups.rows[d->a_row != SIZE_MAX ? d->a_row : d->b_row]);
        } else if (v->n_src == 1 && i < v->src[0].groups.n) {
            text = viz_group_search_text(v, &v->src[0], &v->src[0].groups.rows[i]);
        }
        if (!text) return;
        if (v->group == TRC_GROUP_SOURCE) { /* "file:line:" matches that line's positions only */
            snprintf(buf, sizeof buf, "%s:", text);
            text = buf;
        }
        snprintf(v->query, sizeof v->query, "%s", text);
        v->editing = false;
        update_matches(v);
    }
}

/* ------------------------------------------------------------ groups */

static const char *const class_names[CLASS_COUNT] = {"engines", "dma", "counters"};

/* The header rows path names (see viz_collapse); calls fn on each. */
static bool each_group(struct viz_viewer *v, const char *path, void (*fn)(struct row *r, void *u), void *u)
{
    int want_src = -1;
    if ((path[0] == 'A' || path[0] == 'B') && (path[1] == ':' || !path[1])) {
        want_src = path[0] - 'A';
        if (want_src >= (int)v->n_src) return false;
        if (!path[1]) {
            for (size_t i = 0; i < v->n_rows; i++)
                if (v->rows[i].kind == ROW_SRC && (int)v->rows[i].src == want_src) {
                    fn(&v->rows[i], u);
                    return true;
                }
            return false; /* one trace: no header of its own */
        }
        path += 2;
    }
    bool all = !strcmp(path, "all"), cores = !strcmp(path, "cores");
    unsigned chip = 0, core = 0;
    int n = 0, cls = -1;
    char cname[16] = "";
    if (!all && !cores) {
        int used = 0;
        if (sscanf(path, "chip%u%n", &chip, &used) != 1) return false;
        n = 1;
        const char *p = path + used;
        if (*p == '/') {
            if (sscanf(p, "/core%u%n", &core, &used) != 1) return false;
            n = 2;
            p += used;
            if (*p == '/') {
                if (sscanf(p, "/%15[a-z]%n", cname, &used) != 1 || p[used]) return false;
                for (int c = 0; c < CLASS_COUNT; c++)
                    if (!strcmp(cname, class_names[c])) cls = c;
                if (cls < 0) return false;
                n = 3;
            } else if (*p) {
                return false;
            }
        } else if (*p) {
            return false;
        }
    }
    bool any = false;
    for (size_t i = 0; i < v->n_rows; i++) {
        struct row *r = &v->rows[i];
        if (r->kind == ROW_LANE || r->kind == ROW_SRC || (want_src >= 0 && (int)r->src != want_src)) continue;
        bool hit = all ? true
                   : cores ? r->kind == ROW_CORE || r->kind == ROW_CLASS
                   : n == 1 ? r->kind == ROW_CHIP && r->chip == chip
                   : n == 2 ? r->kind == ROW_CORE && r->chip == chip && r->core == (int32_t)core
                            : r->kind == ROW_CLASS && r->chip == chip && r->core == (int32_t)core && r->cls == cls;
        if (!hit) continue;
        fn(r, u);
        any = true;
    }
    if (all && want_src < 0)
        for (size_t i = 0; i < v->n_rows; i++)
            if (v->rows[i].kind == ROW_SRC) fn(&v->rows[i], u), any = true;
    return any || all || cores;
}

static void set_collapsed(struct row *r, void *u)
{
    int how = *(int *)u;
    r->collapsed = how < 0 ? !r->collapsed : how != 0;
}

bool viz_collapse(struct viz_viewer *v, const char *path, int how)
{
    bool all = !strcmp(path, "all");
    if (all && how == 1) { /* every chip shrinks to its header: the cores under it close too */
        int one = 1;
        each_group(v, "cores", set_collapsed, &one);
    }
    bool ok = each_group(v, path, set_collapsed, &how);
    if (ok) {
        layout(v);
        clamp_scroll(v);
    }
    return ok;
}

static void is_collapsed(struct row *r, void *u) { *(bool *)u |= r->collapsed; }

bool viz_collapsed(const struct viz_viewer *v, const char *path)
{
    bool c = false;
    return each_group((struct viz_viewer *)v, path, is_collapsed, &c) && c;
}

static void overview_center(struct viz_viewer *v, int x)
{
    double t = (double)(x - LABEL_W) / track_w(v) * (double)v->end_ps;
    set_view(v, t - v->ppp * track_w(v) / 2, v->ppp);
}

void viz_input_motion(struct viz_viewer *v, int x, int y)
{
    v->mouse_x = x;
    v->mouse_y = y;
    v->mouse_in = true;
    if (!v->pressed) return;
    if (v->drag_overview) {
        overview_center(v, x);
        return;
    }
    if (!v->dragging && (abs(x - v->press_x) > 3 || abs(y - v->press_y) > 3)) v->dragging = true;
    if (v->dragging) {
        set_view(v, v->drag_t0 - (x - v->press_x) * v->ppp, v->ppp);
        v->scroll_y = v->drag_scroll - (y - v->press_y);
        clamp_scroll(v);
    }
}

void viz_input_button(struct viz_viewer *v, int x, int y, bool down)
{
    v->mouse_x = x;
    v->mouse_y = y;
    v->mouse_in = true;
    if (down) {
        v->pressed = true;
        v->dragging = false;
        v->press_x = x;
        v->press_y = y;
        v->drag_t0 = v->t0;
        v->drag_scroll = v->scroll_y;
        v->drag_overview = y >= HEADER_H && y < HEADER_H + OVERVIEW_H && x >= LABEL_W;
        if (v->drag_overview) overview_center(v, x);
        return;
    }
    if (!v->pressed) return;
    if (!v->dragging && !v->drag_overview) click(v, x, y);
    v->pressed = v->dragging = v->drag_overview = false;
}

void viz_input_wheel(struct viz_viewer *v, int x, int y, int dy)
{
    v->mouse_x = x;
    v->mouse_y = y;
    v->mouse_in = true;
    if (y >= viz_track_bottom(v)) return; /* the panel */
    if (x < LABEL_W && y >= viz_track_top(v)) { /* over the lane names: scroll */
        v->scroll_y -= dy * 3 * LANE_H;
        clamp_scroll(v);
        return;
    }
    zoom_at(v, x, pow(1.25, dy));
}

static void pop_utf8(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && ((unsigned char)s[n - 1] & 0xC0) == 0x80) n--;
    if (n > 0) n--;
    s[n] = 0;
}

static void key(struct viz_viewer *v, SDL_Keycode k)
{
    if (v->editing) {
        if (k == SDLK_RETURN || k == SDLK_KP_ENTER) {
            v->editing = false;
        } else if (k == SDLK_ESCAPE) {
            v->editing = false;
            v->query[0] = 0;
            update_matches(v);
        } else if (k == SDLK_BACKSPACE) {
            pop_utf8(v->query);
            update_matches(v);
        }
        return;
    }
    int mx = v->mouse_in && v->mouse_x >= LABEL_W ? v->mouse_x : -1;
    double span = v->ppp * track_w(v);
    /* a held key repeats ~30 times a second: smaller steps then */
    double zf = v->key_repeat ? 1.08 : 1.25;
    switch (k) {
    case SDLK_w: zoom_at(v, mx, zf); break;
    case SDLK_s: zoom_at(v, mx, 1 / zf); break;
    case SDLK_a: set_view(v, v->t0 - span * 0.1, v->ppp); break;
    case SDLK_d: set_view(v, v->t0 + span * 0.1, v->ppp); break;
    case SDLK_UP: v->scroll_y -= LANE_H; clamp_scroll(v); break;
    case SDLK_DOWN: v->scroll_y += LANE_H; clamp_scroll(v); break;
    case SDLK_PAGEUP: v->scroll_y -= (viz_track_bottom(v) - viz_track_top(v)) * 9 / 10; clamp_scroll(v); break;
    case SDLK_PAGEDOWN: v->scroll_y += (viz_track_bottom(v) - viz_track_top(v)) * 9 / 10; clamp_scroll(v); break;
    case SDLK_0:
    case SDLK_HOME: viz_set_range(v, 0, v->end_ps); break;
    case SDLK_f:
        if (v->sel_valid) {
            double d = (double)(v->sel.dur_ps ? v->sel.dur_ps : 100);
            set_view(v, (double)v->sel.start_ps - d * 0.25, d * 1.5 / track_w(v));
        }
        break;
    case SDLK_c: { /* the group under the mouse */
        struct row *g = v->mouse_in ? group_at(v, v->mouse_y) : NULL;
        if (g) toggle_row(v, g);
        break;
    }
    case SDLK_x: { /* every core: collapse them, or expand them when they all are */
        bool open = false;
        for (size_t i = 0; i < v->n_rows; i++)
            open |= (v->rows[i].kind == ROW_CORE || v->rows[i].kind == ROW_CLASS) && !v->rows[i].collapsed;
        viz_collapse(v, "cores", open ? 1 : 0);
        break;
    }
    case SDLK_e: viz_collapse(v, "all", 0); break;
    case SDLK_g: viz_set_group(v, trc_group_name((enum trc_group)((v->group + 1) % TRC_GROUP_COUNT))); break;
    case SDLK_ESCAPE:
        v->sel_valid = false;
        v->query[0] = 0;
        update_matches(v);
        break;
    case SDLK_SLASH:
        v->editing = true;
        v->skip_slash = true;
        v->query[0] = 0;
        update_matches(v);
        break;
    default: break;
    }
}

bool viz_input_key(struct viz_viewer *v, const char *key_name)
{
    SDL_Keycode k = SDL_GetKeyFromName(key_name);
    if (k == SDLK_UNKNOWN) return false;
    key(v, k);
    /* a printable key also produces text input, as SDL delivers it */
    if (k >= 32 && k < 127 && k != SDLK_DELETE) {
        char t[2] = {(char)k, 0};
        viz_input_text(v, t);
    }
    return true;
}

void viz_input_text(struct viz_viewer *v, const char *utf8)
{
    if (!v->editing) return;
    if (v->skip_slash && strcmp(utf8, "/") == 0) { /* the '/' that opened the box */
        v->skip_slash = false;
        return;
    }
    v->skip_slash = false;
    size_t n = strlen(v->query), m = strlen(utf8);
    if (n + m >= sizeof v->query) return;
    memcpy(v->query + n, utf8, m + 1);
    update_matches(v);
}

/* ------------------------------------------------------------ state */

bool viz_selection(const struct viz_viewer *v, uint32_t *lane, struct trc_slice *out)
{
    if (!v->sel_valid) return false;
    if (lane) *lane = v->sel_lane;
    if (out) *out = v->sel;
    return true;
}

const char *viz_search_query(const struct viz_viewer *v, bool *editing)
{
    if (editing) *editing = v->editing;
    return v->query;
}

const char *viz_ruler_unit(const struct viz_viewer *v)
{
    return v->ruler_unit;
}

const char *viz_ruler_label(const struct viz_viewer *v, size_t i, size_t *n)
{
    if (n) *n = v->n_ruler_labels;
    return i < v->n_ruler_labels ? v->ruler_labels[i] : NULL;
}

void viz_frame_stats(const struct viz_viewer *v, struct viz_frame_stats *out)
{
    *out = v->stats;
}

void viz_set_fetch_budget(struct viz_viewer *v, double ms)
{
    v->fetch_budget_s = ms > 0 ? ms * 1e-3 : 0;
}

/* ------------------------------------------------------------ window */

enum base_status viz_run_window(struct viz_viewer *v, const char *title, int max_frames, struct base_diag *diag)
{
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
        return base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0,
                             "visualizer: cannot initialise SDL video (%s); without a display use --screenshot",
                             SDL_GetError());
    /* with no display SDL falls back to its offscreen driver: an invisible
     * window nobody can close.  Only tests (max_frames) or an explicit
     * SDL_VIDEODRIVER get one. */
    const char *drv = SDL_GetCurrentVideoDriver();
    const char *asked = SDL_GetHint(SDL_HINT_VIDEODRIVER);
    if (max_frames <= 0 && drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) && !(asked && *asked)) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0,
                             "visualizer: no display (SDL found only its '%s' video driver); set DISPLAY or "
                             "WAYLAND_DISPLAY, or render headless with --screenshot OUT.png",
                             drv);
    }
    SDL_Window *win = SDL_CreateWindow(title ? title : "npusim view", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                       v->w, v->h, SDL_WINDOW_RESIZABLE);
    if (!win) {
        enum base_status st = base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0,
                                            "visualizer: cannot open a window: %s", SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return st;
    }
    SDL_StartTextInput(); /* the search box reads SDL_TEXTINPUT */
    enum base_status st = BASE_OK;
    bool quit = false, dirty = true;
    double old_budget = v->fetch_budget_s;
    if (old_budget <= 0) viz_set_fetch_budget(v, 8); /* keep frames interactive: load the rest over the next frames */
    int frames = 0;
    while (!quit) {
        SDL_Event ev;
        bool got = dirty || max_frames > 0 ? SDL_PollEvent(&ev) : SDL_WaitEventTimeout(&ev, 250);
        while (got) {
            dirty = true;
            switch (ev.type) {
            case SDL_QUIT: quit = true; break;
            case SDL_MOUSEMOTION: viz_input_motion(v, ev.motion.x, ev.motion.y); break;
            case SDL_MOUSEBUTTONDOWN:
            case SDL_MOUSEBUTTONUP:
                if (ev.button.button == SDL_BUTTON_LEFT)
                    viz_input_button(v, ev.button.x, ev.button.y, ev.type == SDL_MOUSEBUTTONDOWN);
                break;
            case SDL_MOUSEWHEEL: {
                int flip = ev.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1 : 1;
                int dy = ev.wheel.y * flip;
                if (ev.wheel.x) /* a horizontal wheel or touchpad swipe pans */
                    set_view(v, v->t0 + ev.wheel.x * flip * 0.05 * v->ppp * track_w(v), v->ppp);
                if (!dy) break;
                if (SDL_GetModState() & KMOD_SHIFT) {
                    v->scroll_y -= dy * 3 * LANE_H;
                    clamp_scroll(v);
                } else {
                    viz_input_wheel(v, v->mouse_x, v->mouse_y, dy);
                }
                break;
            }
            case SDL_KEYDOWN:
                v->key_repeat = ev.key.repeat != 0;
                if (!v->editing && ev.key.keysym.sym == SDLK_q) quit = true;
                else key(v, ev.key.keysym.sym);
                v->key_repeat = false;
                break;
            case SDL_TEXTINPUT: viz_input_text(v, ev.text.text); break;
            case SDL_WINDOWEVENT:
                if (ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
                    st = resize(v, ev.window.data1, ev.window.data2);
                    if (st != BASE_OK) quit = true;
                } else if (ev.window.event == SDL_WINDOWEVENT_LEAVE) {
                    v->mouse_in = false;
                }
                break;
            default: break;
            }
            got = SDL_PollEvent(&ev);
        }
        if (quit) break;
        if (!dirty && max_frames <= 0) continue;
        st = viz_render(v, diag);
        if (st != BASE_OK) break;
        SDL_Surface *ws = SDL_GetWindowSurface(win);
        if (!ws) {
            st = base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0, "visualizer: no window surface: %s", SDL_GetError());
            break;
        }
        SDL_BlitSurface(v->fb, NULL, ws, NULL);
        SDL_UpdateWindowSurface(win);
        dirty = v->stats.tiles_deferred > 0; /* more to load: draw again */
        if (max_frames > 0 && ++frames >= max_frames) break;
    }
    v->fetch_budget_s = old_budget;
    SDL_DestroyWindow(win);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return st;
}
