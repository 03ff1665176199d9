/* Bar charts (visualizer/chart.c): bars scale to the largest value, a
 * missing value draws no bar, the PNG is written. */
#include "tests/harness.h"

#include "visualizer/visualizer.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

/* The longest run of pixels of colour c in one row, over the rows [y0, y1). */
static int longest_run(const uint32_t *px, int w, int y0, int y1, uint32_t c)
{
    int best = 0;
    for (int y = y0; y < y1; y++)
        for (int x = 0, run = 0; x < w; x++) {
            run = px[(size_t)y * (size_t)w + (size_t)x] == c ? run + 1 : 0;
            if (run > best) best = run;
        }
    return best;
}

static void test_chart_bars_scale_to_the_largest(void **state)
{
    (void)state;
    const char *labels[3] = {"tpu-v6e x256", "trn2 x64", "trn3 x4"};
    const double usd[3] = {0.5, 1.0, NAN};
    const struct viz_bar_series s[1] = {{"$ per 1M tokens", "USD", usd, "no price"}};
    struct viz_bar_chart ch = {"title", 3, labels, 1, s};
    int w, h;
    viz_chart_size(&ch, &w, &h);
    assert_true(w > 600 && h > 100);
    uint32_t *px = malloc((size_t)w * (size_t)h * sizeof *px);
    assert_non_null(px);
    assert_int_equal(viz_chart_render(&ch, px, w, h), BASE_OK);
    const uint32_t blue = 0xFF1E88E5u; /* the first series' colour */
    /* the largest bar is 520 pixels long, the half one 260; the missing one none */
    assert_int_equal(longest_run(px, w, 0, h, blue), 520);
    int rows_full = 0, rows_half = 0;
    for (int y = 0; y < h; y++) {
        int r = longest_run(px, w, y, y + 1, blue);
        rows_full += r == 520;
        rows_half += r == 260;
    }
    assert_int_equal(rows_full, 22); /* one bar's height each */
    assert_int_equal(rows_half, 22);
    free(px);
    char path[] = "/tmp/npusim_chart_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(viz_chart_png(&ch, path, &d), BASE_OK);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char sig[8];
    assert_int_equal(fread(sig, 1, 8, f), 8);
    fclose(f);
    remove(path);
    assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
}

TEST_MAIN(NULL, NULL, T(test_chart_bars_scale_to_the_largest))
