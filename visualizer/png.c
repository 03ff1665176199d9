/* A minimal PNG writer (8-bit RGB, one IDAT, zlib level 9), for headless
 * screenshots.  Each row takes the filter (none, sub or up) with the least
 * sum of absolute residuals, the usual heuristic (RFC 2083 / PNG spec 12.8). */
#include "visualizer/visualizer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put32(uint8_t *p, uint32_t x)
{
    p[0] = (uint8_t)(x >> 24);
    p[1] = (uint8_t)(x >> 16);
    p[2] = (uint8_t)(x >> 8);
    p[3] = (uint8_t)x;
}

static bool chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
    uint8_t hdr[8];
    put32(hdr, (uint32_t)n);
    memcpy(hdr + 4, type, 4);
    uLong crc = crc32(0, (const Bytef *)type, 4);
    if (n) crc = crc32(crc, data, (uInt)n);
    uint8_t tail[4];
    put32(tail, (uint32_t)crc);
    return fwrite(hdr, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) && fwrite(tail, 1, 4, f) == 4;
}

static unsigned absdiff_sum(const uint8_t *r, size_t n)
{
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s += r[i] < 128 ? r[i] : 256u - r[i];
    return s;
}

enum base_status viz_png_write(const char *path, const uint32_t *px, int w, int h, int pitch_px,
                               struct base_diag *diag)
{
    if (w <= 0 || h <= 0) return base_diag_set(diag, BASE_ERR_INVALID, path, 0, 0, "png: empty image");
    size_t row = (size_t)w * 3;
    size_t raw_n = (row + 1) * (size_t)h;
    uint8_t *raw = malloc(raw_n);
    uint8_t *cur = malloc(row), *prev = calloc(row, 1), *cand = malloc(3 * row);
    uLongf comp_n = compressBound((uLong)raw_n);
    uint8_t *comp = malloc(comp_n);
    enum base_status st = BASE_OK;
    if (!raw || !cur || !prev || !cand || !comp) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "png: out of memory for a %dx%d image", w, h);
        goto out;
    }
    for (int y = 0; y < h; y++) {
        const uint32_t *src = px + (size_t)y * (size_t)pitch_px;
        for (int x = 0; x < w; x++) {
            cur[3 * x] = (uint8_t)(src[x] >> 16);
            cur[3 * x + 1] = (uint8_t)(src[x] >> 8);
            cur[3 * x + 2] = (uint8_t)src[x];
        }
        uint8_t *none = cand, *sub = cand + row, *up = cand + 2 * row;
        for (size_t i = 0; i < row; i++) {
            none[i] = cur[i];
            sub[i] = (uint8_t)(cur[i] - (i >= 3 ? cur[i - 3] : 0));
            up[i] = (uint8_t)(cur[i] - prev[i]);
        }
        unsigned s0 = absdiff_sum(none, row), s1 = absdiff_sum(sub, row), s2 = absdiff_sum(up, row);
        int ft = s1 < s0 ? (s2 < s1 ? 2 : 1) : (s2 < s0 ? 2 : 0);
        uint8_t *dst = raw + (size_t)y * (row + 1);
        dst[0] = (uint8_t)ft;
        memcpy(dst + 1, ft == 0 ? none : ft == 1 ? sub : up, row);
        uint8_t *t = prev;
        prev = cur;
        cur = t;
    }
    if (compress2(comp, &comp_n, raw, (uLong)raw_n, 9) != Z_OK) {
        st = base_diag_set(diag, BASE_ERR_INTERNAL, path, 0, 0, "png: zlib compress2 failed");
        goto out;
    }
    struct base_out o; /* whole or not at all: renamed on success */
    if ((st = base_out_open(&o, path, diag)) != BASE_OK) goto out;
    FILE *f = o.f;
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    if (fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) && chunk(f, "IDAT", comp, comp_n))
        chunk(f, "IEND", NULL, 0);
    st = base_out_commit(&o, diag); /* sees any failed write (ferror) */
out:
    free(raw);
    free(cur);
    free(prev);
    free(cand);
    free(comp);
    return st;
}
