/* One frame: header, overview strip, ruler, lanes (slices, summary buckets or
 * counter step plots), the details and top-ops panel, the tooltip. */
#include "visualizer/viz_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pixel coordinate from a double, clamped: at a tiny ps-per-pixel (--range
 * 1000:1001) a slice far away maps to x ~ 1e15, which (int) cannot hold. */
static int viz_px(double x) { return x < -1e9 ? -1000000000 : x > 1e9 ? 1000000000 : (int)x; }

#define C_HEADER_BG 0xFF263238u
#define C_HEADER_FG 0xFFECEFF1u
#define C_LABEL_BG 0xFFF5F5F5u
#define C_TEXT 0xFF212121u
#define C_TEXT_DIM 0xFF757575u
#define C_GRID 0xFFE0E0E0u
#define C_CHIP_BG 0xFFCFD8DCu
#define C_CORE_BG 0xFFECEFF1u
#define C_OV 0xFF5C7CA6u
#define C_COUNTER 0xFF2E7D32u
#define C_COUNTER_FILL 0xFFA5D6A7u
#define C_SEL 0xFF000000u
#define C_MATCH 0xFFD50000u

static const uint32_t palette[20] = {
    0xFF4E79A7u, 0xFFF28E2Bu, 0xFFE15759u, 0xFF76B7B2u, 0xFF59A14Fu, 0xFFEDC948u, 0xFFB07AA1u,
    0xFFFF9DA7u, 0xFF9C755Fu, 0xFF86BCB6u, 0xFFA0CBE8u, 0xFFFFBE7Du, 0xFF8CD17Du, 0xFFB6992Du,
    0xFFF1CE63u, 0xFF499894u, 0xFFFF9D9Au, 0xFFD37295u, 0xFFFABFD2u, 0xFFD4A6C8u,
};

uint32_t viz_name_color(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 16777619u;
    return palette[h % ARRAY_LEN(palette)];
}

static uint32_t mix(uint32_t a, uint32_t b, double t) /* (1 - t) a + t b */
{
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    uint32_t out = 0xFF000000u;
    for (int s = 0; s < 24; s += 8) {
        double x = (double)(a >> s & 255) * (1 - t) + (double)(b >> s & 255) * t;
        out |= (uint32_t)(x + 0.5) << s;
    }
    return out;
}

static bool dark(uint32_t c)
{
    return (c >> 16 & 255) * 299 + (c >> 8 & 255) * 587 + (c & 255) * 114 < 140000;
}

static uint32_t slice_color(const struct viz_viewer *v, uint32_t lane, const struct trc_slice *s)
{
    uint32_t id = s->op ? s->op : s->name;
    uint32_t c = s->kind == TRC_SLICE_WAIT         ? VIZ_COLOR_WAIT
                 : s->kind == TRC_SLICE_DISPATCH   ? VIZ_COLOR_DISPATCH
                 : s->kind == TRC_SLICE_COLLECTIVE ? VIZ_COLOR_COLLECTIVE
                 : s->kind == TRC_SLICE_LINK       ? mix(VIZ_COLOR_BG, VIZ_COLOR_LINK, 0.3 + 0.7 * trc_link_util(s))
                                                   : viz_str_color(v, lane, id);
    if (v->match_any && !viz_slice_matches(v, lane, s)) c = mix(c, VIZ_COLOR_BG, 0.8);
    return c;
}

/* ------------------------------------------------------------ lanes */

/* Per-pixel accumulation of slices or buckets narrower than a pixel. */
struct column {
    int x;
    double busy, wait, best;
    uint32_t color;
};

static void column_flush(struct viz_viewer *v, struct column *c, int y, int h)
{
    if (c->x < 0) return;
    if (c->busy > 0) {
        double frac = c->busy / v->ppp;
        viz_vline(v, c->x, y, h, mix(VIZ_COLOR_BG, c->color, 0.35 + 0.65 * frac));
    } else if (c->wait > 0) {
        viz_vline(v, c->x, y, h, mix(VIZ_COLOR_BG, VIZ_COLOR_WAIT, 0.35 + 0.65 * c->wait / v->ppp));
    }
    c->x = -1;
    c->busy = c->wait = c->best = 0;
}

static void column_add(struct viz_viewer *v, struct column *c, int x, double busy, double wait, uint32_t color, int y,
                       int h)
{
    if (x != c->x) {
        column_flush(v, c, y, h);
        c->x = x;
    }
    c->busy += busy;
    c->wait += wait;
    if (busy > c->best || (c->best == 0 && c->busy == 0)) {
        c->best = busy;
        c->color = color;
    }
}

static bool contains_text(const char *hay, const char *needle)
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

static const char *short_op(const char *op)
{
    return strncmp(op, "stablehlo.", 10) == 0 ? op + 10 : op;
}

static void draw_slice_label(struct viz_viewer *v, uint32_t lane, const struct trc_slice *s, int x0, int x1, int y, int h,
                             uint32_t color)
{
    char buf[160];
    const char *name = viz_str(v, lane, s->name);
    const char *op = viz_str(v, lane, s->op);
    if (s->kind == TRC_SLICE_LINK)
        snprintf(buf, sizeof buf, "%s  %.1f GB/s  %.0f%%", name, trc_link_gbps(s), 100.0 * trc_link_util(s));
    else if (s->kind == TRC_SLICE_COLLECTIVE)
        snprintf(buf, sizeof buf, "%s  %s", name, viz_str(v, lane, s->kernel));
    else if (*op && strcmp(name, op) != 0) snprintf(buf, sizeof buf, "%s  %s", name, short_op(op));
    else snprintf(buf, sizeof buf, "%s", name);
    SDL_Rect old = v->fb->clip_rect, r = {x0 + 2, y, x1 - x0 - 4, h};
    SDL_Rect in;
    if (!SDL_IntersectRect(&old, &r, &in)) return;
    SDL_SetClipRect(v->fb, &in);
    viz_text_draw(v, x0 + 3, y + (h - v->line_h) / 2, buf, dark(color) ? 0xFFFFFFFFu : C_TEXT);
    SDL_SetClipRect(v->fb, &old);
}

static size_t first_slice_at(const struct trc_slice *s, size_t n, double t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((double)s[mid].start_ps < t) lo = mid + 1;
        else hi = mid;
    }
    /* an earlier slice may still reach into [t, ...) */
    /* (only the last non-zero one before t can: they do not overlap; zero-length ones may sit in between) */
    for (size_t back = 0; lo > 0 && back < 64; back++) {
        lo--;
        if (s[lo].dur_ps) break;
    }
    return lo;
}

static void note_drawn(struct viz_viewer *v, uint32_t lane, enum tile_type type, uint32_t level, uint64_t i0,
                       uint64_t i1)
{
    if (v->n_drawn < v->n_lanes) v->drawn[v->n_drawn++] = (struct drawn_span){lane, type, level, i0, i1};
}

/* A tile not read yet (progressive loading): light stripes over its range. */
static void placeholder(struct viz_viewer *v, uint64_t ti, uint32_t shift, int y, int h, int xa, int xb)
{
    double a = xa + ((double)(ti << shift) - v->t0) / v->ppp, b = a + ldexp(1.0, (int)shift) / v->ppp;
    int x0 = a < xa ? xa : (int)a, x1 = b > xb ? xb : (int)b;
    for (int x = x0; x < x1; x++)
        if ((x + y) % 6 < 3) viz_vline(v, x, y, h, 0xFFEEEEEEu);
}

static void draw_lane_slices(struct viz_viewer *v, uint32_t lane, int y, int h, int xa, int xb)
{
    double t0 = v->t0, t1 = v->t0 + (double)(xb - xa) * v->ppp;
    uint32_t tl = trc_level_for(v->ppp < 1 ? 1 : (uint64_t)v->ppp);
    uint32_t shift = tl + TILE_SHIFT;
    uint64_t i0 = (uint64_t)(t0 < 0 ? 0 : t0) >> shift, i1 = (uint64_t)t1 >> shift;
    note_drawn(v, lane, TILE_SLICES, tl, i0, i1);
    struct column col = {-1, 0, 0, 0, 0};
    for (uint64_t ti = i0; ti <= i1; ti++) {
        const struct tile *tile = viz_cache_get(v, lane, TILE_SLICES, tl, ti);
        if (!tile) {
            if (v->err.status != BASE_OK) return;
            column_flush(v, &col, y, h);
            placeholder(v, ti, shift, y, h, xa, xb);
            continue;
        }
        const struct trc_slice *sl = tile->data;
        double tile_t0 = (double)(ti << shift);
        for (size_t k = first_slice_at(sl, tile->n, t0); k < tile->n; k++) {
            const struct trc_slice *s = &sl[k];
            double st = (double)s->start_ps, en = st + (double)s->dur_ps;
            if (st >= t1) break;
            if (en < t0 || (en == t0 && s->dur_ps)) continue;
            if (ti > i0 && st < tile_t0) continue; /* drawn from the previous tile */
            v->stats.slices_drawn++;
            double xs = xa + (st - t0) / v->ppp, xe = xa + (en - t0) / v->ppp;
            uint32_t c = slice_color(v, lane, s);
            if (xe - xs < 1.5) {
                int x = viz_px(floor(xs));
                if (x < xa) x = xa;
                if (x >= xb) continue;
                double d = (double)s->dur_ps;
                column_add(v, &col, x, s->kind == TRC_SLICE_WAIT ? 0 : (d > 0 ? d : v->ppp * 0.3),
                           s->kind == TRC_SLICE_WAIT ? d : 0, c, y, h);
                continue;
            }
            column_flush(v, &col, y, h);
            int x0 = viz_px(floor(xs + 0.5)), x1 = viz_px(floor(xe + 0.5));
            if (x0 < xa) x0 = xa;
            if (x1 > xb) x1 = xb;
            viz_fill(v, x0, y, x1 - x0, h, c);
            if (x1 - x0 >= 4) viz_fill(v, x1 - 1, y, 1, h, mix(c, 0xFF000000u, 0.25));
            if (v->match_any && viz_slice_matches(v, lane, s)) {
                viz_fill(v, x0, y + h - 3, x1 - x0, 3, C_MATCH);
            }
            if (x1 - x0 >= 32) draw_slice_label(v, lane, s, x0, x1, y, h, c);
        }
    }
    column_flush(v, &col, y, h);
}

/* The selected slice's outline, in whichever way its lane is drawn. */
static void draw_selection(struct viz_viewer *v, uint32_t lane, int y, int h, int xa, int xb)
{
    if (!v->sel_valid || v->sel_lane != lane) return;
    double xs = xa + ((double)v->sel.start_ps - v->t0) / v->ppp;
    double xe = xa + ((double)(v->sel.start_ps + v->sel.dur_ps) - v->t0) / v->ppp;
    if (xe < xa || xs >= xb) return;
    int x0 = viz_px(floor(xs + 0.5)), x1 = viz_px(floor(xe + 0.5));
    if (x1 - x0 < 2) x1 = x0 + 2;
    viz_fill(v, x0, y, x1 - x0, 2, C_SEL);
    viz_fill(v, x0, y + h - 2, x1 - x0, 2, C_SEL);
    viz_fill(v, x0, y, 2, h, C_SEL);
    viz_fill(v, x1 - 2, y, 2, h, C_SEL);
}

static void draw_lane_summary(struct viz_viewer *v, uint32_t lane, uint32_t level, int y, int h, int xa, int xb)
{
    double t0 = v->t0, t1 = v->t0 + (double)(xb - xa) * v->ppp;
    uint32_t shift = level + TILE_SHIFT;
    uint64_t i0 = (uint64_t)(t0 < 0 ? 0 : t0) >> shift, i1 = (uint64_t)t1 >> shift;
    note_drawn(v, lane, TILE_SUMMARY, level, i0, i1);
    const struct viz_src *src = viz_src_of(v, lane);
    double bw = ldexp(1.0, (int)level);
    struct column col = {-1, 0, 0, 0, 0};
    for (uint64_t ti = i0; ti <= i1; ti++) {
        const struct tile *tile = viz_cache_get(v, lane, TILE_SUMMARY, level, ti);
        if (!tile) {
            if (v->err.status != BASE_OK) return;
            column_flush(v, &col, y, h);
            placeholder(v, ti, shift, y, h, xa, xb);
            continue;
        }
        const struct trc_bucket *b = tile->data;
        /* buckets are sorted by index: binary search the first visible one */
        uint64_t first = (uint64_t)(t0 < 0 ? 0 : t0 / bw);
        size_t lo = 0, hi = tile->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (b[mid].index < first) lo = mid + 1;
            else hi = mid;
        }
        for (size_t k = lo; k < tile->n; k++) {
            double bs = (double)b[k].index * bw;
            if (bs >= t1) break;
            v->stats.buckets_drawn++;
            uint32_t dom = b[k].dominant;
            uint32_t c = viz_str_color(v, lane, dom);
            bool faded = v->match_any && !(dom < src->n_strings && src->match[dom]);
            if (faded) c = mix(c, VIZ_COLOR_BG, 0.8);
            double xs = xa + (bs - t0) / v->ppp, xe = xs + bw / v->ppp;
            if (xe - xs >= 1.5) { /* only at the coarsest level: a bucket wider than a pixel */
                column_flush(v, &col, y, h);
                int x0 = viz_px(floor(xs + 0.5)), x1 = viz_px(floor(xe + 0.5));
                if (x0 < xa) x0 = xa;
                if (x1 > xb) x1 = xb;
                double frac = (double)b[k].busy_ps / bw;
                if (b[k].busy_ps) viz_fill(v, x0, y, x1 - x0, h, mix(VIZ_COLOR_BG, c, 0.35 + 0.65 * frac));
                else if (b[k].wait_ps) viz_fill(v, x0, y, x1 - x0, h, VIZ_COLOR_WAIT);
                continue;
            }
            int x = viz_px(floor(xs));
            if (x < xa) x = xa;
            if (x >= xb) continue;
            column_add(v, &col, x, (double)b[k].busy_ps, (double)b[k].wait_ps, c, y, h);
        }
    }
    column_flush(v, &col, y, h);
}

void viz_counter_load(struct viz_viewer *v, uint32_t lane)
{
    struct counter_data *cd = &v->counters[lane];
    if (cd->loaded) return;
    cd->loaded = true;
    struct trc_sample_vec sv = {NULL, 0, 0};
    struct base_diag d;
    base_diag_clear(&d);
    if (trc_file_samples(viz_src_of(v, lane)->f, viz_local(v, lane), 0, UINT64_MAX, &sv, &d) != BASE_OK) {
        if (v->err.status == BASE_OK) v->err = d;
        trc_sample_vec_free(&sv);
        return;
    }
    cd->s = sv.v;
    cd->n = sv.n;
    cd->max = 0;
    for (size_t i = 0; i < sv.n; i++)
        if (sv.v[i].value > cd->max) cd->max = sv.v[i].value;
}

static void draw_lane_counter(struct viz_viewer *v, uint32_t lane, int y, int h, int xa, int xb)
{
    viz_counter_load(v, lane);
    struct counter_data *cd = &v->counters[lane];
    if (!cd->n || cd->max <= 0) return;
    double t0 = v->t0;
    /* the sample in force at t0: the last one with t <= t0 */
    size_t lo = 0, hi = cd->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((double)cd->s[mid].t_ps <= t0) lo = mid + 1;
        else hi = mid;
    }
    bool have = lo > 0;
    size_t k = have ? lo - 1 : 0, j = lo;
    int prev_top = -1, ph = h - 3;
    /* each column shows the largest value in force within it (a step plot when zoomed in) */
    for (int x = xa; x < xb; x++) {
        double ct0 = t0 + (double)(x - xa) * v->ppp, ct1 = ct0 + v->ppp;
        if (ct0 >= (double)v->end_ps) break;
        double m = have ? cd->s[k].value : 0;
        bool any = have;
        while (j < cd->n && (double)cd->s[j].t_ps < ct1) {
            if (!any || cd->s[j].value > m) m = cd->s[j].value;
            any = true;
            k = j++;
        }
        have = any;
        if (!any) continue;
        int top = y + h - 1 - viz_px(floor((m > 0 ? m : 0) / cd->max * ph + 0.5));
        if (m > 0) viz_vline(v, x, top, y + h - top, C_COUNTER_FILL);
        int a = prev_top < 0 || top < prev_top ? top : prev_top, b = prev_top > top ? prev_top : top;
        viz_vline(v, x, a, b - a + 1, C_COUNTER); /* the step's vertical edge, then the level */
        prev_top = top;
    }
}

/* ------------------------------------------------------------ frame parts */

static void draw_header(struct viz_viewer *v)
{
    viz_fill(v, 0, 0, v->w, HEADER_H, C_HEADER_BG);
    char buf[800], a[32], b[32], s[32];
    double t1 = v->t0 + (double)(v->w - LABEL_W) * v->ppp;
    double span = t1 - v->t0;
    viz_format_time(a, sizeof a, v->t0, span);
    viz_format_time(b, sizeof b, t1, span);
    viz_format_time(s, sizeof s, span, 0);
    char run[32];
    viz_format_time(run, sizeof run, (double)v->src[0].end_ps, 0);
    if (v->n_src > 1) {
        char run_b[32];
        viz_format_time(run_b, sizeof run_b, (double)v->src[1].end_ps, 0);
        snprintf(buf, sizeof buf, "%s  run %s   vs   %s  run %s   view %s - %s (%s)", v->src[0].label, run,
                 v->src[1].label, run_b, a, b, s);
    } else {
        const char *model = trc_file_meta(v->src[0].f, "model"), *chip = trc_file_meta(v->src[0].f, "chip");
        snprintf(buf, sizeof buf, "%s%s%s   run %s   view %s - %s (%s)", model ? model : "", model ? "  " : "",
                 chip ? chip : "", run, a, b, s);
    }
    viz_text_draw(v, 6, (HEADER_H - v->line_h) / 2, buf, C_HEADER_FG);
    if (v->editing || v->query[0]) {
        snprintf(buf, sizeof buf, v->editing ? "search: %s_" : "search: %s  (Esc clears)", v->query);
        int tw = viz_text_width(v, buf);
        int x = v->w - tw - 8;
        if (x < v->w / 2) x = v->w / 2;
        viz_fill(v, x - 4, 2, v->w - x + 4, HEADER_H - 4, v->editing ? 0xFFFFF59Du : 0xFF455A64u);
        viz_text_draw(v, x, (HEADER_H - v->line_h) / 2, buf, v->editing ? C_TEXT : C_HEADER_FG);
    }
}

static void draw_overview(struct viz_viewer *v)
{
    int y = HEADER_H, h = OVERVIEW_H, xa = LABEL_W, tw = v->w - LABEL_W;
    viz_fill(v, 0, y, v->w, h, C_LABEL_BG);
    viz_text_draw(v, 6, y + (h - v->line_h) / 2, "overview", C_TEXT_DIM);
    if (tw <= 0) return;
    /* one strip per trace: A above B in a compare view */
    int sh = (h - 4) / (int)v->n_src;
    for (uint32_t k = 0; k < v->n_src; k++) {
        const float *ov = v->src[k].ov;
        int base = y + 2 + sh * (int)(k + 1);
        for (int x = 0; x < tw; x++) {
            int b0 = (int)((int64_t)x * OV_BINS / tw), b1 = (int)((int64_t)(x + 1) * OV_BINS / tw);
            if (b1 <= b0) b1 = b0 + 1;
            float m = 0;
            for (int b = b0; b < b1 && b < OV_BINS; b++) m += ov[b];
            m /= (float)(b1 - b0);
            int bh = (int)(m * (float)sh + 0.5f);
            if (m > 0 && bh < 1) bh = 1;
            viz_vline(v, xa + x, base - bh, bh, k ? 0xFFA65C5Cu : C_OV);
        }
    }
    /* the visible window */
    double sx = (double)tw / (double)(v->end_ps ? v->end_ps : 1);
    int w0 = xa + viz_px(floor(v->t0 * sx)), w1 = xa + viz_px(ceil((v->t0 + (double)tw * v->ppp) * sx));
    if (w1 - w0 < 2) w1 = w0 + 2;
    viz_fill_blend(v, xa, y, w0 - xa, h, 0xFF000000u, 70);
    viz_fill_blend(v, w1, y, v->w - w1, h, 0xFF000000u, 70);
    viz_fill(v, w0, y, 1, h, 0xFF1A237Eu);
    viz_fill(v, w1 - 1, y, 1, h, 0xFF1A237Eu);
    viz_fill(v, w0, y, w1 - w0, 1, 0xFF1A237Eu);
    viz_fill(v, w0, y + h - 1, w1 - w0, 1, 0xFF1A237Eu);
}

static void draw_ruler(struct viz_viewer *v, int grid_y0, int grid_y1)
{
    int y = HEADER_H + OVERVIEW_H, h = RULER_H, xa = LABEL_W;
    viz_fill(v, 0, y, v->w, h, C_LABEL_BG);
    viz_fill(v, 0, y + h - 1, v->w, 1, 0xFFBDBDBDu);
    double raw = 100 * v->ppp;
    double base = pow(10, floor(log10(raw > 1e-6 ? raw : 1e-6)));
    double step = base >= raw ? base : 2 * base >= raw ? 2 * base : 5 * base >= raw ? 5 * base : 10 * base;
    /* step is 1, 2 or 5 x 10^k ps, at least 100 px apart */
    static const struct {
        double div;
        const char *name;
    } units[] = {{1, "ps"}, {1e3, "ns"}, {1e6, "\xC2\xB5s"}, {1e9, "ms"}, {1e12, "s"}};
    size_t u = 0;
    while (u + 1 < ARRAY_LEN(units) && step >= units[u + 1].div) u++;
    /* the step's unit, unless labels would need 5+ digits before the point
     * (121500 ns reads better as 121.5 us) */
    double t1 = v->t0 + (double)(v->w - xa) * v->ppp;
    while (u + 1 < ARRAY_LEN(units) && t1 / units[u].div >= 10000) u++;
    snprintf(v->ruler_unit, sizeof v->ruler_unit, "%s", units[u].name);
    double q = step / units[u].div;
    int dec = 0;
    while (dec < 6 && q * pow(10, dec) < 0.999) dec++;
    v->n_ruler_labels = 0;
    for (double t = ceil(v->t0 / step) * step; t < t1; t += step) {
        int x = xa + viz_px(floor((t - v->t0) / v->ppp + 0.5));
        viz_fill(v, x, y + h - 7, 1, 6, 0xFF616161u);
        viz_fill(v, x, grid_y0, 1, grid_y1 - grid_y0, C_GRID);
        for (int k = 1; k < 5; k++) {
            int xm = xa + viz_px(floor((t + step * k / 5 - v->t0) / v->ppp + 0.5));
            viz_fill(v, xm, y + h - 4, 1, 3, 0xFF9E9E9Eu);
        }
        char buf[24];
        snprintf(buf, sizeof buf, "%.*f %s", dec, t / units[u].div, units[u].name);
        if (v->n_ruler_labels < RULER_MAX_LABELS) {
            snprintf(v->ruler_labels[v->n_ruler_labels], sizeof v->ruler_labels[0], "%s", buf);
            v->n_ruler_labels++;
        }
        viz_text_draw(v, x + 3, y + 2, buf, C_TEXT);
    }
}

/* A collapsed header's track: the lanes under it drawn over one another
 * in a strip (busy wherever any of them is), up to 64 of them. */
static void draw_collapsed(struct viz_viewer *v, size_t r, int y, int h, int xa, int xb, const SDL_Rect *clip)
{
    SDL_Rect tclip = {xa, y + 2, xb - xa, h - 4}, in;
    if (!SDL_IntersectRect(clip, &tclip, &in)) return;
    SDL_SetClipRect(v->fb, &in);
    viz_fill(v, xa, y + 2, xb - xa, h - 4, mix(C_CORE_BG, VIZ_COLOR_BG, 0.5));
    int depth = v->rows[r].depth, drawn = 0;
    for (size_t k = r + 1; k < v->n_rows && v->rows[k].depth > depth && drawn < 64; k++) {
        const struct row *lr = &v->rows[k];
        if (lr->kind != ROW_LANE || viz_lane(v, lr->lane)->kind == TRC_LANE_COUNTER) continue;
        uint32_t level;
        if (viz_lane_uses_slices(v, lr->lane, &level)) draw_lane_slices(v, lr->lane, y + 3, h - 6, xa, xb);
        else draw_lane_summary(v, lr->lane, level, y + 3, h - 6, xa, xb);
        drawn++;
    }
    SDL_SetClipRect(v->fb, clip);
}

static void draw_rows(struct viz_viewer *v)
{
    int top = viz_track_top(v), bottom = viz_track_bottom(v);
    int xa = LABEL_W, xb = v->w;
    SDL_Rect clip = {0, top, v->w, bottom - top};
    SDL_SetClipRect(v->fb, &clip);
    for (size_t r = 0; r < v->n_rows; r++) {
        struct row *row = &v->rows[r];
        if (row->hidden) continue;
        int y = top + row->y - v->scroll_y;
        if (y + row->h <= top) continue;
        if (y >= bottom) break;
        char buf[240];
        if (row->kind != ROW_LANE) {
            static const char *const cls[CLASS_COUNT] = {"engines", "dma queues", "counters"};
            viz_fill(v, 0, y, v->w, row->h, row->kind == ROW_CORE || row->kind == ROW_CLASS ? C_CORE_BG : C_CHIP_BG);
            const char *sign = row->collapsed ? "+" : "-";
            char more[32] = "";
            if (row->collapsed) snprintf(more, sizeof more, "  (%u lanes)", row->n_lanes);
            const struct viz_src *src = &v->src[row->src];
            if (row->kind == ROW_SRC) {
                snprintf(buf, sizeof buf, "%s %s%s", sign, src->label, more);
            } else if (row->kind == ROW_CHIP) {
                const char *chip = trc_file_meta(src->f, "chip");
                snprintf(buf, sizeof buf, "%s %schip %u%s%s%s", sign, v->n_src > 1 ? (row->src ? "B " : "A ") : "",
                         row->chip, chip ? "  " : "", chip ? chip : "", more);
            } else if (row->kind == ROW_CORE) {
                snprintf(buf, sizeof buf, "%s core %d%s", sign, row->core, more);
            } else {
                snprintf(buf, sizeof buf, "%s %s (%u)", sign, cls[row->cls], row->n_lanes);
            }
            /* an open header has an empty track: its name may run across it */
            SDL_Rect hclip = {0, y, row->collapsed ? xa - 2 : v->w, row->h}, in;
            if (SDL_IntersectRect(&clip, &hclip, &in)) {
                SDL_SetClipRect(v->fb, &in);
                viz_text_draw(v, 4 + 10 * (row->depth > 0 ? row->depth : 0), y + (row->h - v->line_h) / 2, buf, C_TEXT);
                SDL_SetClipRect(v->fb, &clip);
            }
            if (row->collapsed) draw_collapsed(v, r, y, row->h, xa, xb, &clip);
            continue;
        }
        const struct trc_lane *ln = viz_lane(v, row->lane);
        viz_fill(v, 0, y, xa, row->h, C_LABEL_BG);
        viz_fill(v, 0, y + row->h - 1, v->w, 1, C_GRID);
        SDL_Rect lclip = {0, y, xa - 4, row->h}, in;
        if (SDL_IntersectRect(&clip, &lclip, &in)) {
            SDL_SetClipRect(v->fb, &in);
            bool ctr = ln->kind == TRC_LANE_COUNTER && v->counters[row->lane].loaded;
            viz_text_draw(v, 12 + 10 * row->depth, ctr ? y : y + (row->h - v->line_h) / 2, ln->name, C_TEXT);
            if (ctr) {
                char m[32];
                viz_format_si(m, sizeof m, v->counters[row->lane].max);
                snprintf(buf, sizeof buf, "max %s %s", m, ln->unit);
                viz_text_draw(v, 20 + 10 * row->depth, y + row->h - v->line_h - 1, buf, C_TEXT_DIM);
            }
        }
        SDL_Rect tclip = {xa, y, xb - xa, row->h - 1};
        if (!SDL_IntersectRect(&clip, &tclip, &in)) continue;
        SDL_SetClipRect(v->fb, &in);
        uint32_t level;
        int ly = y + 1, lh = row->h - 3;
        if (ln->kind == TRC_LANE_COUNTER) {
            draw_lane_counter(v, row->lane, ly, lh, xa, xb);
        } else if (viz_lane_uses_slices(v, row->lane, &level)) {
            v->stats.lanes_slices++;
            draw_lane_slices(v, row->lane, ly, lh, xa, xb);
        } else {
            v->stats.lanes_summary++;
            draw_lane_summary(v, row->lane, level, ly, lh, xa, xb);
        }
        draw_selection(v, row->lane, ly, lh, xa, xb);
        SDL_SetClipRect(v->fb, &clip);
    }
    SDL_SetClipRect(v->fb, NULL);
    viz_fill(v, xa - 1, top, 1, bottom - top, 0xFFBDBDBDu);
}

static void line(struct viz_viewer *v, int x0, int y0, int x1, int y1, uint32_t c)
{
    int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    for (int guard = 0; guard < 20000; guard++) {
        viz_vline(v, x0, y0, 1, c);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/* Flows of the selection: a line from the DMA to the wait it released, with a head. */
static void draw_flows(struct viz_viewer *v)
{
    if (!v->sel_valid) return;
    SDL_Rect clip = {LABEL_W, viz_track_top(v), v->w - LABEL_W, viz_track_bottom(v) - viz_track_top(v)};
    SDL_SetClipRect(v->fb, &clip);
    for (size_t i = 0; i < v->sel_flows.n; i++) {
        const struct trc_flow *fl = &v->sel_flows.v[i];
        int ya, ha, yb, hb, x0, x1;
        if (!viz_lane_rect(v, fl->from_lane, &ya, &ha, &x0, &x1) || !viz_lane_rect(v, fl->to_lane, &yb, &hb, &x0, &x1))
            continue;
        double xa = viz_time_to_x(v, fl->from_ps), xb = viz_time_to_x(v, fl->to_ps);
        if (xa < -1e6 || xa > 1e6 || xb < -1e6 || xb > 1e6) continue;
        int ax = (int)xa, ay = ya + ha / 2, bx = (int)xb, by = yb + hb / 2;
        line(v, ax, ay, bx, by, 0xFF1A237Eu);
        line(v, ax, ay + 1, bx, by + 1, 0xFF1A237Eu);
        viz_fill(v, bx - 3, by - 3, 7, 7, 0xFF1A237Eu);
        viz_fill(v, ax - 2, ay - 2, 5, 5, 0xFF1A237Eu);
    }
    SDL_SetClipRect(v->fb, NULL);
}

static void kv(struct viz_viewer *v, int x, int *y, const char *k, const char *val)
{
    viz_text_draw(v, x, *y, k, C_TEXT_DIM);
    viz_text_draw(v, x + 90, *y, val, C_TEXT);
    *y += v->line_h;
}

static const char *space_label(uint64_t space)
{
    const char *n = trc_space_name(space);
    return n ? n : "?";
}

/* A right-aligned column ending at x_end. */
static void text_right(struct viz_viewer *v, int x_end, int y, const char *t, uint32_t c)
{
    viz_text_draw(v, x_end - viz_text_width(v, t), y, t, c);
}

/* A group row's name as the panel shows it. */
static void group_label(const struct viz_viewer *v, const struct viz_src *s, const struct trc_group_row *r, char *buf,
                        size_t cap)
{
    const char *op = trc_file_string(s->f, r->op);
    const char *sh = strncmp(op, "stablehlo.", 10) == 0 ? op + 10 : op;
    const char *loc = trc_file_string(s->f, r->loc), *src = trc_file_string(s->f, r->src);
    const char *slash = strrchr(loc, '/'); /* the panel is narrow: the file's name, not its path */
    if (slash) loc = slash + 1;
    char key[TRC_KEY_MAX];
    const char *ks = strrchr(r->key, '/');
    snprintf(key, sizeof key, "%s", v->group == TRC_GROUP_SOURCE && ks ? ks + 1 : r->key);
    switch (v->group) {
    case TRC_GROUP_OP: snprintf(buf, cap, "%s  %s%s%s", sh, loc, *src ? "  " : "", src); break;
    case TRC_GROUP_KIND: snprintf(buf, cap, "%s  (%u ops)", sh, r->n_ops); break;
    case TRC_GROUP_KERNEL: snprintf(buf, cap, "%s  (%llu launches)", r->key, (unsigned long long)r->launches); break;
    default: snprintf(buf, cap, "%s  %s (%u ops)", key, sh, r->n_ops); break;
    }
}

/* The top-ops panel: the rows of the grouping with time and share and a
 * total; in a compare view A's and B's rows matched by key: A, B, B - A. */
static void draw_top_ops(struct viz_viewer *v, int half, int y0, const SDL_Rect *right)
{
    static const char *const by[TRC_GROUP_COUNT] = {"graph op", "op kind", "kernel", "source line"};
    const char *what = v->group == TRC_GROUP_KERNEL ? "kernel time" : "engine time";
    int x = half + 8, y = y0 + 4;
    char buf[512], a[32], b[32], d[40];
    snprintf(buf, sizeof buf, "%s by %s, %s   (G: op / kind / kernel / source)",
             v->n_src > 1 ? "Compare A vs B:" : "Top ops:", by[v->group], what);
    viz_text_draw(v, x, y, buf, C_TEXT);
    y += v->line_h + 2;
    int c3 = v->w - 8, c2 = c3 - 86, c1 = c2 - 86; /* right edges of the number columns */
    if (v->n_src > 1) {
        text_right(v, c1, y, "A", C_TEXT_DIM);
        text_right(v, c2, y, "B", C_TEXT_DIM);
        text_right(v, c3, y, "B - A", C_TEXT_DIM);
        y += v->line_h;
        for (size_t i = 0; i < v->n_diff && y + 2 * v->line_h <= v->h; i++) {
            const struct trc_diff_row *r = &v->diff[i];
            const struct viz_src *s = r->a_row != SIZE_MAX ? &v->src[0] : &v->src[1];
            const struct trc_group_row *gr = &s->groups.rows[r->a_row != SIZE_MAX ? r->a_row : r->b_row];
            bool hit = v->match_any && contains_text(viz_group_search_text(v, s, gr), v->query);
            if (hit) viz_fill(v, half + 2, y, v->w - half - 4, v->line_h, 0xFFFFF59Du);
            viz_fill(v, x, y + 3, 10, v->line_h - 6, viz_name_color(trc_file_string(s->f, gr->op)));
            if (r->a_row != SIZE_MAX) viz_format_time(a, sizeof a, (double)r->a_ps, 0);
            else snprintf(a, sizeof a, "-");
            if (r->b_row != SIZE_MAX) viz_format_time(b, sizeof b, (double)r->b_ps, 0);
            else snprintf(b, sizeof b, "-");
            viz_format_time(d + 1, sizeof d - 1, (double)(r->delta_ps < 0 ? -r->delta_ps : r->delta_ps), 0);
            d[0] = r->delta_ps < 0 ? '-' : '+';
            text_right(v, c1, y, a, C_TEXT);
            text_right(v, c2, y, b, C_TEXT);
            text_right(v, c3, y, d, r->delta_ps > 0 ? 0xFFC62828u : r->delta_ps < 0 ? 0xFF2E7D32u : C_TEXT);
            SDL_Rect nclip = {x + 14, y, c1 - 70 - (x + 14), v->line_h + 3}, in;
            if (SDL_IntersectRect(right, &nclip, &in)) {
                SDL_SetClipRect(v->fb, &in);
                group_label(v, s, gr, buf, sizeof buf);
                viz_text_draw(v, x + 14, y, buf, C_TEXT);
                SDL_SetClipRect(v->fb, right);
            }
            y += v->line_h;
        }
        viz_format_time(a, sizeof a, (double)v->src[0].groups.total_ps, 0);
        viz_format_time(b, sizeof b, (double)v->src[1].groups.total_ps, 0);
        int64_t td = (int64_t)v->src[1].groups.total_ps - (int64_t)v->src[0].groups.total_ps;
        viz_format_time(d + 1, sizeof d - 1, (double)(td < 0 ? -td : td), 0);
        d[0] = td < 0 ? '-' : '+';
        y = y + v->line_h > v->h - 2 ? v->h - v->line_h - 2 : y;
        viz_fill(v, half + 2, y, v->w - half - 4, 1, C_GRID);
        viz_text_draw(v, x + 14, y, "total", C_TEXT);
        text_right(v, c1, y, a, C_TEXT);
        text_right(v, c2, y, b, C_TEXT);
        text_right(v, c3, y, d, C_TEXT);
        return;
    }
    const struct viz_src *s = &v->src[0];
    const struct trc_groups *g = &s->groups;
    for (size_t i = 0; i < g->n && y + 2 * v->line_h <= v->h; i++) {
        const struct trc_group_row *r = &g->rows[i];
        bool hit = v->match_any && contains_text(viz_group_search_text(v, s, r), v->query);
        if (hit) viz_fill(v, half + 2, y, v->w - half - 4, v->line_h, 0xFFFFF59Du);
        viz_fill(v, x, y + 3, 10, v->line_h - 6, viz_name_color(trc_file_string(s->f, r->op)));
        viz_format_time(a, sizeof a, (double)r->time_ps, 0);
        snprintf(buf, sizeof buf, "%.1f%%", g->total_ps ? 100.0 * (double)r->time_ps / (double)g->total_ps : 0.0);
        text_right(v, c2, y, a, C_TEXT);
        text_right(v, c3, y, buf, C_TEXT);
        SDL_Rect nclip = {x + 14, y, c1 - (x + 14), v->line_h + 3}, in;
        if (SDL_IntersectRect(right, &nclip, &in)) {
            SDL_SetClipRect(v->fb, &in);
            group_label(v, s, r, buf, sizeof buf);
            viz_text_draw(v, x + 14, y, buf, C_TEXT);
            SDL_SetClipRect(v->fb, right);
        }
        y += v->line_h;
    }
    viz_format_time(a, sizeof a, (double)g->total_ps, 0);
    y = y + v->line_h > v->h - 2 ? v->h - v->line_h - 2 : y;
    viz_fill(v, half + 2, y, v->w - half - 4, 1, C_GRID);
    snprintf(buf, sizeof buf, "total  (%zu rows)", g->n);
    viz_text_draw(v, x + 14, y, buf, C_TEXT);
    text_right(v, c2, y, a, C_TEXT);
    text_right(v, c3, y, "100%", C_TEXT);
}

static void draw_panel(struct viz_viewer *v)
{
    int y0 = v->h - PANEL_H;
    if (y0 <= viz_track_top(v)) return;
    viz_fill(v, 0, y0, v->w, PANEL_H, 0xFFFAFAFAu);
    viz_fill(v, 0, y0, v->w, 1, 0xFF9E9E9Eu);
    int half = v->w / 2;
    viz_fill(v, half, y0, 1, PANEL_H, 0xFFBDBDBDu);
    SDL_Rect left = {0, y0 + 1, half - 4, PANEL_H - 1};
    SDL_SetClipRect(v->fb, &left);
    int y = y0 + 4, x = 8;
    char buf[256], a[32];
    if (!v->sel_valid) {
        viz_text_draw(v, x, y, "Details: click a slice", C_TEXT_DIM);
        y += v->line_h;
        viz_text_draw(v, x, y, "wheel or W/S zoom, drag or A/D pan, / search, F zoom to selection, 0 whole run",
                      C_TEXT_DIM);
        y += v->line_h;
        viz_text_draw(v, x, y, "click a header or C: collapse, X: collapse cores, E: expand all, G: group top ops",
                      C_TEXT_DIM);
    } else {
        const struct trc_slice *s = &v->sel;
        uint32_t sl = v->sel_lane;
        const struct trc_lane *ln = viz_lane(v, sl);
        char where[48] = "";
        if (v->n_src > 1 || viz_src_of(v, sl)->multi_chip)
            snprintf(where, sizeof where, "%s%s%u ", v->n_src > 1 ? (viz_src_of(v, sl) == &v->src[0] ? "A " : "B ") : "",
                     "chip", ln ? ln->chip : 0);
        snprintf(buf, sizeof buf, "%s  (%s on %s%s)", viz_str(v, sl, s->name), trc_slice_kind_name(s->kind), where,
                 ln ? ln->name : "?");
        viz_text_draw(v, x, y, buf, C_TEXT);
        y += v->line_h + 2;
        const char *op = viz_str(v, sl, s->op);
        kv(v, x, &y, "graph op", *op ? op : "-");
        const char *loc = viz_str(v, sl, s->loc);
        kv(v, x, &y, "location", *loc ? loc : "-");
        const char *src = viz_str(v, sl, s->src);
        kv(v, x, &y, "source", *src ? src : "-");
        const char *k = viz_str(v, sl, s->kernel);
        bool coll = s->kind == TRC_SLICE_COLLECTIVE || s->kind == TRC_SLICE_LINK;
        kv(v, x, &y, coll ? "algorithm" : "kernel", *k ? k : "-");
        viz_format_time(a, sizeof a, (double)s->start_ps, 0);
        snprintf(buf, sizeof buf, "%s  (%llu ps)", a, (unsigned long long)s->start_ps);
        kv(v, x, &y, "start", buf);
        viz_format_time(a, sizeof a, (double)s->dur_ps, 0);
        snprintf(buf, sizeof buf, "%s  (%llu ps)", a, (unsigned long long)s->dur_ps);
        kv(v, x, &y, "duration", buf);
        char bb[32], ff[32];
        viz_format_si(bb, sizeof bb, (double)s->bytes);
        viz_format_si(ff, sizeof ff, (double)s->flops);
        snprintf(buf, sizeof buf, "%s B   FLOPs %s", bb, ff);
        kv(v, x, &y, "bytes", buf);
        switch (s->kind) {
        case TRC_SLICE_INSTR:
            snprintf(buf, sizeof buf, "stream index %llu, iteration %u/%u, results visible %llu ps after the end",
                     (unsigned long long)s->a, (unsigned)(s->b & 0xFFFFFFFFu), (unsigned)(s->b >> 32),
                     (unsigned long long)s->c);
            break;
        case TRC_SLICE_DMA:
            snprintf(buf, sizeof buf, "%s -> %s, data moves from %llu ps after the start", space_label(s->a),
                     space_label(s->b), (unsigned long long)s->c);
            break;
        case TRC_SLICE_WAIT:
            snprintf(buf, sizeof buf, "semaphore %llu until >= %lld (stream index %llu)", (unsigned long long)s->a,
                     (long long)s->b, (unsigned long long)s->c);
            break;
        case TRC_SLICE_DISPATCH:
            snprintf(buf, sizeof buf, "host dispatch / launch gap before kernel %llu of the plan (launch %llu)",
                     (unsigned long long)s->a, (unsigned long long)s->b);
            break;
        case TRC_SLICE_COLLECTIVE: {
            double bw;
            memcpy(&bw, &s->c, sizeof bw);
            snprintf(buf, sizeof buf, "%u groups of %u, bus bandwidth %.1f GB/s, %llu ps exposed", (unsigned)(s->a >> 32),
                     (unsigned)(s->a & 0xFFFFFFFFu), bw, (unsigned long long)s->b);
            break;
        }
        case TRC_SLICE_LINK: {
            double bw;
            memcpy(&bw, &s->b, sizeof bw);
            snprintf(buf, sizeof buf, "link %llu: %.2f GB/s of %.1f (%.1f%%), collective %llu", (unsigned long long)s->a,
                     trc_link_gbps(s), bw, 100.0 * trc_link_util(s), (unsigned long long)s->c);
            break;
        }
        default:
            snprintf(buf, sizeof buf, "kernel %llu of the plan, launch %llu", (unsigned long long)s->a,
                     (unsigned long long)s->b);
            break;
        }
        kv(v, x, &y, "", buf);
    }
    SDL_Rect right = {half + 1, y0 + 1, v->w - half - 1, PANEL_H - 1};
    SDL_SetClipRect(v->fb, &right);
    draw_top_ops(v, half, y0, &right);
    SDL_SetClipRect(v->fb, NULL);
}

/* Tooltip text where no slice is under the cursor: a counter's value, or
 * a summarised lane's figures for the pixel. */
static bool hover_info(struct viz_viewer *v, int x, int y, char *buf, size_t cap)
{
    uint32_t lane;
    if (!viz_row_lane_at(v, y, &lane)) return false;
    const struct trc_lane *ln = viz_lane(v, lane);
    double t = v->t0 + (x - LABEL_W + 0.5) * v->ppp;
    char ts[32];
    viz_format_time(ts, sizeof ts, t, 0);
    if (ln->kind == TRC_LANE_COUNTER) {
        const struct counter_data *cd = &v->counters[lane];
        size_t lo = 0, hi = cd->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if ((double)cd->s[mid].t_ps <= t) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return false;
        char val[32];
        viz_format_si(val, sizeof val, cd->s[lo - 1].value);
        snprintf(buf, cap, "%s  %s %s at %s", ln->name, val, ln->unit, ts);
        return true;
    }
    uint32_t level;
    if (viz_lane_uses_slices(v, lane, &level)) return false;
    double bw = ldexp(1.0, (int)level);
    uint64_t first = (uint64_t)((t - v->ppp / 2 < 0 ? 0 : t - v->ppp / 2) / bw), last = (uint64_t)((t + v->ppp / 2) / bw);
    uint32_t shift = level + TILE_SHIFT;
    uint64_t busy = 0, count = 0, best = 0;
    uint32_t dom = 0;
    for (uint64_t ti = first << level >> shift; ti <= last << level >> shift; ti++) {
        const struct tile *tile = viz_cache_get(v, lane, TILE_SUMMARY, level, ti);
        if (!tile) return false;
        const struct trc_bucket *b = tile->data;
        for (size_t k = 0; k < tile->n; k++) {
            if (b[k].index < first || b[k].index > last) continue;
            busy += b[k].busy_ps;
            count += b[k].count;
            if (b[k].busy_ps > best) {
                best = b[k].busy_ps;
                dom = b[k].dominant;
            }
        }
    }
    if (!count && !busy) return false;
    double span = (double)(last - first + 1) * bw;
    snprintf(buf, cap, "%llu slices, %.0f%% busy, mostly %s  (%s)", (unsigned long long)count, 100.0 * (double)busy / span,
             viz_str(v, lane, dom), ts);
    return true;
}

static void draw_tooltip(struct viz_viewer *v)
{
    if (!v->mouse_in || v->dragging || v->mouse_x < LABEL_W) return;
    if (v->mouse_y < viz_track_top(v) || v->mouse_y >= viz_track_bottom(v)) return;
    uint32_t lane;
    struct trc_slice s;
    char lines[5][200];
    int n = 0;
    uint32_t level;
    bool sliced = viz_row_lane_at(v, v->mouse_y, &lane) &&
                  viz_lane(v, lane)->kind != TRC_LANE_COUNTER && viz_lane_uses_slices(v, lane, &level);
    /* a slice where slices are drawn; else what the pixel summarises */
    if (sliced && viz_pick(v, v->mouse_x, v->mouse_y, &lane, &s)) {
        const char *op = viz_str(v, lane, s.op);
        char d[32];
        viz_format_time(d, sizeof d, (double)s.dur_ps, 0);
        snprintf(lines[n++], sizeof lines[0], "%s  %s", viz_str(v, lane, s.name), d);
        if (*op) snprintf(lines[n++], sizeof lines[0], "%s  %s", op, viz_str(v, lane, s.loc));
        const char *src = viz_str(v, lane, s.src);
        if (*src) snprintf(lines[n++], sizeof lines[0], "%s", src);
        const char *k = viz_str(v, lane, s.kernel);
        if (*k) snprintf(lines[n++], sizeof lines[0], "kernel %s", k);
    } else if (sliced || !hover_info(v, v->mouse_x, v->mouse_y, lines[0], sizeof lines[0])) {
        return;
    } else {
        n = 1;
    }
    int tw = 0;
    for (int i = 0; i < n; i++) {
        int w = viz_text_width(v, lines[i]);
        if (w > tw) tw = w;
    }
    int bw = tw + 12, bh = n * v->line_h + 8;
    int x = v->mouse_x + 14, y = v->mouse_y + 16;
    if (x + bw > v->w) x = v->mouse_x - bw - 4;
    if (x < 0) x = 0;
    if (y + bh > v->h) y = v->mouse_y - bh - 4;
    viz_fill(v, x, y, bw, bh, 0xFF424242u);
    viz_fill(v, x + 1, y + 1, bw - 2, bh - 2, 0xFFFFFDE7u);
    for (int i = 0; i < n; i++) viz_text_draw(v, x + 6, y + 4 + i * v->line_h, lines[i], C_TEXT);
}

enum base_status viz_render(struct viz_viewer *v, struct base_diag *diag)
{
    v->frame++;
    memset(&v->stats, 0, sizeof v->stats);
    base_diag_clear(&v->err);
    v->n_drawn = 0;
    v->frame_fetch_s = 0;
    SDL_SetClipRect(v->fb, NULL);
    viz_fill(v, 0, 0, v->w, v->h, VIZ_COLOR_BG);
    int top = viz_track_top(v), bottom = viz_track_bottom(v);
    draw_ruler(v, top, bottom);
    draw_rows(v);
    draw_flows(v);
    draw_overview(v);
    draw_header(v);
    draw_panel(v);
    draw_tooltip(v);
    viz_cache_prefetch(v, 6);
    viz_cache_trim(v);
    v->stats.cache_bytes = v->cache.bytes;
    if (v->err.status != BASE_OK) {
        if (diag) *diag = v->err;
        return v->err.status;
    }
    return BASE_OK;
}
