/* Bar charts rendered headless into an ARGB8888 pixel buffer and written as
 * PNG (visualizer.h "charts"; `npusim estimate --plot`).  Text is drawn with
 * a built-in 5 x 7 pixel font, scaled 2x, so a chart needs neither SDL nor a
 * TTF file: it renders the same on any machine. */
#include "visualizer/visualizer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 5 x 7 glyphs, one string of 7 rows of 5 pixels ('#' on) per character. */
struct glyph {
    char c;
    const char *rows; /* 35 characters */
};

static const struct glyph glyphs[] = {
    {'0', ".###.#...##..###.#.###..##...#.###."}, {'1', "..#...##....#....#....#....#...###."},
    {'2', ".###.#...#....#...#...#...#...#####"}, {'3', "#####...#...#.....#.....##...#.###."},
    {'4', "...#...##..#.#.#..#.#####...#....#."}, {'5', "######....####.....#....##...#.###."},
    {'6', "..##..#...#....####.#...##...#.###."}, {'7', "#####....#...#...#...#....#....#..."},
    {'8', ".###.#...##...#.###.#...##...#.###."}, {'9', ".###.#...##...#.####....#...#..##.."},
    {'A', ".###.#...##...#######...##...##...#"}, {'B', "####.#...##...#####.#...##...#####."},
    {'C', ".###.#...##....#....#....#...#.###."}, {'D', "###..#..#.#...##...##...##..#.###.."},
    {'E', "######....#....####.#....#....#####"}, {'F', "######....#....####.#....#....#...."},
    {'G', ".###.#...##....#.####...##...#.####"}, {'H', "#...##...##...#######...##...##...#"},
    {'I', ".###...#....#....#....#....#...###."}, {'J', "..###...#....#....#....#.#..#..##.."},
    {'K', "#...##..#.#.#..##...#.#..#..#.#...#"}, {'L', "#....#....#....#....#....#....#####"},
    {'M', "#...###.###.#.##.#.##...##...##...#"}, {'N', "#...##...###..##.#.##..###...##...#"},
    {'O', ".###.#...##...##...##...##...#.###."}, {'P', "####.#...##...#####.#....#....#...."},
    {'Q', ".###.#...##...##...##.#.##..#..##.#"}, {'R', "####.#...##...#####.#.#..#..#.#...#"},
    {'S', ".#####....#.....###.....#....#####."}, {'T', "#####..#....#....#....#....#....#.."},
    {'U', "#...##...##...##...##...##...#.###."}, {'V', "#...##...##...##...##...#.#.#...#.."},
    {'W', "#...##...##...##.#.##.#.##.#.#.#.#."}, {'X', "#...##...#.#.#...#...#.#.#...##...#"},
    {'Y', "#...##...#.#.#...#....#....#....#.."}, {'Z', "#####....#...#...#...#...#....#####"},
    {'a', "...........###.....#.#####...#.####"}, {'b', "#....#....#.##.##..##...##...#####."},
    {'c', "...........###.#....#....#...#.###."}, {'d', "....#....#.##.##..###...##...#.####"},
    {'e', "...........###.#...#######.....###."}, {'f', "..##..#..#.#...###...#....#....#..."},
    {'g', "......#####...##...#.####....#.###."}, {'h', "#....#....#.##.##..##...##...##...#"},
    {'i', "..#........##....#....#....#...###."}, {'j', "...#........##....#....#.#..#..##.."},
    {'k', "#....#....#..#.#.#..##...#.#..#..#."}, {'l', ".##....#....#....#....#....#...###."},
    {'m', "..........##.#.#.#.##.#.##...##...#"}, {'n', "..........#.##.##..##...##...##...#"},
    {'o', "...........###.#...##...##...#.###."}, {'p', "..........####.#...#####.#....#...."},
    {'q', "...........##.##..##.####....#....#"}, {'r', "..........#.##.##..##....#....#...."},
    {'s', "...........###.#.....###.....#####."}, {'t', ".#....#...###...#....#....#..#..##."},
    {'u', "..........#...##...##...##..##.##.#"}, {'v', "..........#...##...##...#.#.#...#.."},
    {'w', "..........#...##...##.#.##.#.#.#.#."}, {'x', "..........#...#.#.#...#...#.#.#...#"},
    {'y', "..........#...##...#.####....#.###."}, {'z', "..........#####...#...#...#...#####"},
    {' ', "..................................."}, {'.', "..........................##...##.."},
    {',', ".....................##....#...#..."}, {'-', "...............#####..............."},
    {':', "......##...##........##...##......."}, {'$', "..#...#####.#...###...#.#####...#.."},
    {'/', ".........#...#...#...#...#........."}, {'%', "##...##..#...#...#...#...#..##...##"},
    {'(', "...#...#...#....#....#.....#.....#."}, {')', ".#.....#.....#....#....#...#...#..."},
    {'=', "..........#####.....#####.........."}, {'+', ".......#....#..#####..#....#......."},
    {'*', ".......#..#.#.#.###.#.#.#..#......."}, {'_', "..............................#####"},
    {'\'', "..#....#....#......................"}, {'?', ".###.#...#....#...#...#.........#.."},
    {'!', "..#....#....#....#....#.........#.."}, {'<', "...#...#...#...#.....#.....#.....#."},
    {'>', ".#.....#.....#.....#...#...#...#..."},
};

static const char *glyph_rows(char c)
{
    for (size_t i = 0; i < ARRAY_LEN(glyphs); i++)
        if (glyphs[i].c == c) return glyphs[i].rows;
    return glyph_rows('?');
}

#define GLYPH_W 5
#define GLYPH_H 7
#define SCALE 2
#define ADVANCE ((GLYPH_W + 1) * SCALE)

struct canvas {
    uint32_t *px;
    int w, h;
};

static void fill(struct canvas *c, int x0, int y0, int x1, int y1, uint32_t argb)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->w) x1 = c->w;
    if (y1 > c->h) y1 = c->h;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) c->px[(size_t)y * (size_t)c->w + (size_t)x] = argb;
}

static int text_width(const char *s) { return (int)strlen(s) * ADVANCE; }

/* Draws s with its top left at (x, y); returns the x after it. */
static int text(struct canvas *c, int x, int y, const char *s, uint32_t argb)
{
    for (; *s; s++, x += ADVANCE) {
        const char *g = glyph_rows(*s);
        for (int r = 0; r < GLYPH_H; r++)
            for (int k = 0; k < GLYPH_W; k++)
                if (g[r * GLYPH_W + k] == '#')
                    fill(c, x + k * SCALE, y + r * SCALE, x + (k + 1) * SCALE, y + (r + 1) * SCALE, argb);
    }
    return x;
}

/* A value with 3 significant digits and k / M / G. */
static void fmt_value(char *buf, size_t cap, double v)
{
    double a = fabs(v);
    if (a >= 1e9) snprintf(buf, cap, "%.3g G", v * 1e-9);
    else if (a >= 1e6) snprintf(buf, cap, "%.3g M", v * 1e-6);
    else if (a >= 1e4) snprintf(buf, cap, "%.3g k", v * 1e-3);
    else snprintf(buf, cap, "%.3g", v);
}

#define COLOR_BG 0xFFFFFFFFu
#define COLOR_TEXT 0xFF202020u
#define COLOR_AXIS 0xFF808080u
#define COLOR_MISSING 0xFF9E9E9Eu
static const uint32_t series_colors[] = {0xFF1E88E5u, 0xFFF4511Eu, 0xFF43A047u, 0xFF8E24AAu};

#define MARGIN 16
#define BAR_H 22
#define BAR_GAP 10
#define TITLE_H (GLYPH_H * SCALE + 12)

void viz_chart_size(const struct viz_bar_chart *ch, int *w, int *h)
{
    int label_w = 0;
    for (int i = 0; i < ch->n_bars; i++) {
        int lw = text_width(ch->labels[i] ? ch->labels[i] : "");
        if (lw > label_w) label_w = lw;
    }
    *w = 2 * MARGIN + label_w + 12 + 520 + 12 + 14 * ADVANCE;
    int panel = TITLE_H + ch->n_bars * (BAR_H + BAR_GAP) + MARGIN;
    *h = MARGIN + (ch->title ? TITLE_H + 8 : 0) + ch->n_series * panel;
}

enum base_status viz_chart_render(const struct viz_bar_chart *ch, uint32_t *px, int w, int h)
{
    if (!ch || !px || w <= 0 || h <= 0 || ch->n_bars < 0 || ch->n_series < 0) return BASE_ERR_INVALID;
    struct canvas c = {px, w, h};
    fill(&c, 0, 0, w, h, COLOR_BG);
    int label_w = 0;
    for (int i = 0; i < ch->n_bars; i++) {
        int lw = text_width(ch->labels[i] ? ch->labels[i] : "");
        if (lw > label_w) label_w = lw;
    }
    int y = MARGIN;
    if (ch->title) {
        text(&c, MARGIN, y, ch->title, COLOR_TEXT);
        y += TITLE_H + 8;
    }
    int x_bars = MARGIN + label_w + 12, bar_max = 520;
    for (int s = 0; s < ch->n_series; s++) {
        const struct viz_bar_series *se = &ch->series[s];
        uint32_t color = series_colors[s % (int)ARRAY_LEN(series_colors)];
        char title[160];
        snprintf(title, sizeof title, "%s%s%s%s", se->name ? se->name : "", se->unit ? " (" : "", se->unit ? se->unit : "",
                 se->unit ? ")" : "");
        text(&c, MARGIN, y, title, COLOR_TEXT);
        y += TITLE_H;
        double max = 0;
        for (int i = 0; i < ch->n_bars; i++)
            if (isfinite(se->values[i]) && se->values[i] > max) max = se->values[i];
        fill(&c, x_bars - 1, y - 4, x_bars, y + ch->n_bars * (BAR_H + BAR_GAP), COLOR_AXIS);
        for (int i = 0; i < ch->n_bars; i++) {
            int yb = y + i * (BAR_H + BAR_GAP);
            int ty = yb + (BAR_H - GLYPH_H * SCALE) / 2;
            const char *label = ch->labels[i] ? ch->labels[i] : "";
            text(&c, x_bars - 12 - text_width(label), ty, label, COLOR_TEXT);
            double v = se->values[i];
            if (!isfinite(v) || v < 0) {
                text(&c, x_bars + 8, ty, se->missing ? se->missing : "n/a", COLOR_MISSING);
                continue;
            }
            int len = max > 0 ? (int)lround(v / max * bar_max) : 0;
            if (v > 0 && len < 1) len = 1;
            fill(&c, x_bars, yb, x_bars + len, yb + BAR_H, color);
            char val[48];
            fmt_value(val, sizeof val, v);
            text(&c, x_bars + len + 8, ty, val, COLOR_TEXT);
        }
        y += ch->n_bars * (BAR_H + BAR_GAP) + MARGIN;
    }
    return BASE_OK;
}

enum base_status viz_chart_png(const struct viz_bar_chart *ch, const char *path, struct base_diag *diag)
{
    int w, h;
    viz_chart_size(ch, &w, &h);
    uint32_t *px = malloc((size_t)w * (size_t)h * sizeof *px);
    if (!px) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory for a %d x %d chart", w, h);
    enum base_status st = viz_chart_render(ch, px, w, h);
    if (st != BASE_OK) st = base_diag_set(diag, st, path, 0, 0, "chart: nothing to draw");
    else st = viz_png_write(path, px, w, h, w, diag);
    free(px);
    return st;
}
