/* Text and pixel primitives on the viewer's ARGB8888 framebuffer.  Glyphs
 * (Latin-1) are rendered once by SDL2_ttf into alpha masks and blended by
 * hand: a frame draws thousands of short labels, and a per-glyph SDL blit
 * costs more than the blend itself. */
#include "visualizer/viz_internal.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const font_paths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", /* Debian, Ubuntu: fonts-dejavu-core */
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",          /* Fedora */
    "/usr/share/fonts/TTF/DejaVuSans.ttf",             /* Arch */
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/opt/homebrew/share/fonts/DejaVuSans.ttf",
};

const char *viz_font_find(void)
{
    for (size_t i = 0; i < ARRAY_LEN(font_paths); i++) {
        FILE *f = fopen(font_paths[i], "rb");
        if (f) {
            fclose(f);
            return font_paths[i];
        }
    }
    return NULL;
}

enum base_status viz_text_init(struct viz_viewer *v, const char *path, int pt, struct base_diag *diag)
{
    if (!path) path = viz_font_find();
    if (!path)
        return base_diag_set(diag, BASE_ERR_IO, NULL, 0, 0,
                             "visualizer: no TTF font found (looked for DejaVuSans.ttf under /usr/share/fonts); "
                             "install fonts-dejavu-core (apt-get install fonts-dejavu-core) or pass --font FILE.ttf");
    if (!TTF_WasInit() && TTF_Init() != 0)
        return base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0, "visualizer: TTF_Init failed: %s", TTF_GetError());
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0,
                             "visualizer: cannot open the font file; install fonts-dejavu-core or pass --font FILE.ttf");
    fclose(probe);
    v->font = TTF_OpenFont(path, pt);
    if (!v->font) return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "visualizer: not a usable TTF font: %s", TTF_GetError());
    TTF_SetFontHinting(v->font, TTF_HINTING_LIGHT);
    v->line_h = TTF_FontHeight(v->font);
    SDL_Color white = {255, 255, 255, 255};
    for (int c = 32; c < 256; c++) {
        int minx, maxx, miny, maxy, adv;
        if (TTF_GlyphMetrics(v->font, (Uint16)c, &minx, &maxx, &miny, &maxy, &adv) != 0) continue;
        v->glyphs[c].advance = adv;
        if (c == 32) continue;
        SDL_Surface *s = TTF_RenderGlyph_Blended(v->font, (Uint16)c, white);
        if (!s) continue;
        SDL_Surface *conv = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
        SDL_FreeSurface(s);
        if (!conv) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "visualizer: out of memory (glyphs)");
        /* keep only the ink box's alpha */
        int bx0 = conv->w, by0 = conv->h, bx1 = -1, by1 = -1;
        for (int y = 0; y < conv->h; y++) {
            const uint32_t *row = (const uint32_t *)((const uint8_t *)conv->pixels + (size_t)y * (size_t)conv->pitch);
            for (int x = 0; x < conv->w; x++)
                if (row[x] >> 24) {
                    if (x < bx0) bx0 = x;
                    if (x > bx1) bx1 = x;
                    if (y < by0) by0 = y;
                    if (y > by1) by1 = y;
                }
        }
        if (bx1 >= bx0) {
            struct glyph *g = &v->glyphs[c];
            g->x0 = bx0;
            g->y0 = by0;
            g->w = bx1 - bx0 + 1;
            g->h = by1 - by0 + 1;
            g->alpha = malloc((size_t)g->w * (size_t)g->h);
            if (!g->alpha) {
                SDL_FreeSurface(conv);
                return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "visualizer: out of memory (glyphs)");
            }
            for (int y = 0; y < g->h; y++) {
                const uint32_t *row =
                    (const uint32_t *)((const uint8_t *)conv->pixels + (size_t)(y + by0) * (size_t)conv->pitch);
                for (int x = 0; x < g->w; x++) g->alpha[(size_t)y * (size_t)g->w + (size_t)x] = (uint8_t)(row[x + bx0] >> 24);
            }
        }
        SDL_FreeSurface(conv);
    }
    return BASE_OK;
}

void viz_text_deinit(struct viz_viewer *v)
{
    for (int c = 0; c < 256; c++) {
        free(v->glyphs[c].alpha);
        v->glyphs[c].alpha = NULL;
    }
    if (v->font) TTF_CloseFont(v->font);
    v->font = NULL;
}

/* Next Latin-1 code point of UTF-8 text ('?' for others). */
static int next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    int c = *s++;
    if (c >= 0x80) {
        int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        int cp = c & (0x3F >> n);
        for (int i = 0; i < n && (*s & 0xC0) == 0x80; i++) cp = cp << 6 | (*s++ & 0x3F);
        c = cp < 256 ? cp : '?';
    }
    *p = s;
    return c;
}

int viz_text_width(const struct viz_viewer *v, const char *s)
{
    int w = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int c = next_cp(&p);
        w += c >= 32 ? v->glyphs[c].advance : 0;
    }
    return w;
}

static void blend_glyph(SDL_Surface *fb, const struct glyph *g, int x, int y, uint32_t argb)
{
    const SDL_Rect *clip = &fb->clip_rect;
    x += g->x0;
    y += g->y0;
    int x0 = x < clip->x ? clip->x : x, y0 = y < clip->y ? clip->y : y;
    int x1 = x + g->w, y1 = y + g->h;
    if (x1 > clip->x + clip->w) x1 = clip->x + clip->w;
    if (y1 > clip->y + clip->h) y1 = clip->y + clip->h;
    uint32_t cr = argb >> 16 & 255, cg = argb >> 8 & 255, cb = argb & 255;
    for (int yy = y0; yy < y1; yy++) {
        const uint8_t *src = g->alpha + (size_t)(yy - y) * (size_t)g->w - x;
        uint32_t *dst = (uint32_t *)((uint8_t *)fb->pixels + (size_t)yy * (size_t)fb->pitch);
        for (int xx = x0; xx < x1; xx++) {
            uint32_t a = src[xx];
            if (!a) continue;
            if (a == 255) {
                dst[xx] = 0xFF000000u | argb;
                continue;
            }
            uint32_t d = dst[xx], na = 255 - a;
            /* x / 255 as (x * 257 + 257) >> 16: exact for x <= 255 * 255 */
            uint32_t r = (((d >> 16 & 255) * na + cr * a) * 257 + 257) >> 16;
            uint32_t gg = (((d >> 8 & 255) * na + cg * a) * 257 + 257) >> 16;
            uint32_t b = (((d & 255) * na + cb * a) * 257 + 257) >> 16;
            dst[xx] = 0xFF000000u | r << 16 | gg << 8 | b;
        }
    }
}

int viz_text_draw(struct viz_viewer *v, int x, int y, const char *s, uint32_t argb)
{
    const unsigned char *p = (const unsigned char *)s;
    int right = v->fb->clip_rect.x + v->fb->clip_rect.w;
    while (*p && x < right) {
        int c = next_cp(&p);
        if (c < 32) continue;
        if (v->glyphs[c].alpha) blend_glyph(v->fb, &v->glyphs[c], x, y, argb);
        x += v->glyphs[c].advance;
    }
    return x;
}

/* (SDL_FillRect measured several times slower here: per call overhead and
 * its generic path) */
void viz_fill(struct viz_viewer *v, int x, int y, int w, int h, uint32_t argb)
{
    const SDL_Rect *clip = &v->fb->clip_rect;
    int x0 = x < clip->x ? clip->x : x, y0 = y < clip->y ? clip->y : y;
    int x1 = x + w, y1 = y + h;
    if (x1 > clip->x + clip->w) x1 = clip->x + clip->w;
    if (y1 > clip->y + clip->h) y1 = clip->y + clip->h;
    if (x1 <= x0 || y1 <= y0) return;
    size_t pitch = (size_t)v->fb->pitch / 4, n = (size_t)(x1 - x0);
    uint32_t *first = (uint32_t *)v->fb->pixels + (size_t)y0 * pitch + (size_t)x0, *row = first;
    if (n < 32) { /* narrow: plain stores (a memcpy call per row costs more) */
        for (int yy = y0; yy < y1; yy++, row += pitch)
            for (size_t i = 0; i < n; i++) row[i] = argb;
        return;
    }
    for (size_t i = 0; i < n; i++) first[i] = argb;
    for (int yy = y0 + 1; yy < y1; yy++) { /* the other rows copy the first (memcpy is vectorised) */
        row += pitch;
        memcpy(row, first, n * sizeof *row);
    }
}

void viz_vline(struct viz_viewer *v, int x, int y, int h, uint32_t argb)
{
    const SDL_Rect *clip = &v->fb->clip_rect;
    if (x < clip->x || x >= clip->x + clip->w) return;
    int y0 = y < clip->y ? clip->y : y, y1 = y + h;
    if (y1 > clip->y + clip->h) y1 = clip->y + clip->h;
    size_t pitch = (size_t)v->fb->pitch / 4;
    uint32_t *p = (uint32_t *)v->fb->pixels + (size_t)y0 * pitch + (size_t)x;
    for (int yy = y0; yy < y1; yy++, p += pitch) *p = argb;
}

void viz_fill_blend(struct viz_viewer *v, int x, int y, int w, int h, uint32_t argb, int alpha)
{
    const SDL_Rect *clip = &v->fb->clip_rect;
    int x0 = x < clip->x ? clip->x : x, y0 = y < clip->y ? clip->y : y;
    int x1 = x + w, y1 = y + h;
    if (x1 > clip->x + clip->w) x1 = clip->x + clip->w;
    if (y1 > clip->y + clip->h) y1 = clip->y + clip->h;
    uint32_t a = (uint32_t)(alpha < 0 ? 0 : alpha > 255 ? 255 : alpha);
    uint32_t cr = argb >> 16 & 255, cg = argb >> 8 & 255, cb = argb & 255;
    for (int yy = y0; yy < y1; yy++) {
        uint32_t *dst = (uint32_t *)((uint8_t *)v->fb->pixels + (size_t)yy * (size_t)v->fb->pitch);
        for (int xx = x0; xx < x1; xx++) {
            uint32_t d = dst[xx];
            uint32_t r = ((d >> 16 & 255) * (255 - a) + cr * a) / 255;
            uint32_t g = ((d >> 8 & 255) * (255 - a) + cg * a) / 255;
            uint32_t b = ((d & 255) * (255 - a) + cb * a) / 255;
            dst[xx] = 0xFF000000u | r << 16 | g << 8 | b;
        }
    }
}

/* "12.5 µs": the unit is chosen from unit_hint_ps (a span or tick step), or
 * from ps itself when the hint is 0. */
void viz_format_time(char *buf, size_t cap, double ps, double unit_hint_ps)
{
    static const struct {
        double div;
        const char *name;
    } units[] = {{1, "ps"}, {1e3, "ns"}, {1e6, "\xC2\xB5s"}, {1e9, "ms"}, {1e12, "s"}};
    double m = fabs(unit_hint_ps > 0 ? unit_hint_ps : ps);
    size_t u = 0;
    while (u + 1 < ARRAY_LEN(units) && m >= units[u + 1].div) u++;
    double x = ps / units[u].div;
    double ax = fabs(x);
    int dec = ax >= 100 || x == floor(x) ? 0 : ax >= 10 ? 1 : ax >= 1 ? 2 : 3;
    snprintf(buf, cap, "%.*f %s", dec, x, units[u].name);
}

void viz_format_si(char *buf, size_t cap, double x)
{
    static const char *const suf[] = {"", "k", "M", "G", "T", "P"};
    size_t i = 0;
    while (i + 1 < ARRAY_LEN(suf) && fabs(x) >= 1000) {
        x /= 1000;
        i++;
    }
    if (i == 0) snprintf(buf, cap, "%.0f", x);
    else snprintf(buf, cap, "%.*f%s", fabs(x) >= 100 ? 0 : fabs(x) >= 10 ? 1 : 2, x, suf[i]);
}
