/* The viewer, headless: a small trace built with the traces API, rendered
 * into the framebuffer, checked pixel by pixel; input replayed by scripts. */
#include "tests/harness.h"

#include "traces/traces.h"
#include "visualizer/visualizer.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

#define US 1000000ull /* ps */
#define W 1000
#define H 600
#define LABEL_W 170 /* the label column (docs/visualizer.md) */

enum { L_DMA, L_ACT, L_PE, L_KERN, L_HBM, L_BIG, L_CHIP1, L_IDLE, N_LANES };

struct fx {
    char path[64];
    struct trc_file *f;
    struct viz_viewer *v;
};

static uint32_t add_lane(struct trc_trace *t, const char *name, enum trc_lane_kind kind, uint32_t chip, int core,
                         uint32_t sort)
{
    struct trc_lane l;
    memset(&l, 0, sizeof l);
    snprintf(l.name, sizeof l.name, "%s", name);
    l.kind = kind;
    l.chip = chip;
    l.core = core;
    l.sort_index = sort;
    if (kind == TRC_LANE_COUNTER) snprintf(l.unit, sizeof l.unit, "GB/s");
    uint32_t id;
    assert_int_equal(trc_trace_add_lane(t, &l, &id), BASE_OK);
    return id;
}

static void add_slice(struct trc_trace *t, uint32_t lane, uint64_t start, uint64_t dur, enum trc_slice_kind kind,
                      const char *name, const char *op, const char *loc)
{
    struct trc_slice s;
    memset(&s, 0, sizeof s);
    s.start_ps = start;
    s.dur_ps = dur;
    s.kind = kind;
    s.bytes = 4096;
    s.flops = 1000000;
    assert_int_equal(trc_trace_intern(t, name, &s.name), BASE_OK);
    assert_int_equal(trc_trace_intern(t, op, &s.op), BASE_OK);
    assert_int_equal(trc_trace_intern(t, loc, &s.loc), BASE_OK);
    assert_int_equal(trc_trace_intern(t, "k0", &s.kernel), BASE_OK);
    assert_int_equal(trc_trace_add_slice(t, lane, &s), BASE_OK);
}

/* The fixture's trace, its times scaled by num / den (a compare view's B).
 * Lanes are added out of display order; the viewer must sort them. */
static struct trc_trace *fixture_trace(uint64_t num, uint64_t den)
{
    struct trc_trace *t;
    assert_int_equal(trc_trace_create(&t), BASE_OK);
    trc_trace_set_meta(t, "chip", "testchip");
    uint32_t ids[N_LANES];
    ids[L_DMA] = add_lane(t, "core0 dma0", TRC_LANE_DMA, 0, 0, 2);
    ids[L_ACT] = add_lane(t, "core0 act", TRC_LANE_ENGINE, 0, 0, 1);
    ids[L_PE] = add_lane(t, "core0 pe", TRC_LANE_ENGINE, 0, 0, 0);
    ids[L_KERN] = add_lane(t, "kernels", TRC_LANE_KERNELS, 0, -1, 0);
    ids[L_HBM] = add_lane(t, "hbm GB/s", TRC_LANE_COUNTER, 0, -1, 1);
    ids[L_BIG] = add_lane(t, "core1 pe", TRC_LANE_ENGINE, 0, 1, 0);
    ids[L_CHIP1] = add_lane(t, "core0 pe", TRC_LANE_ENGINE, 1, 0, 0);
    ids[L_IDLE] = add_lane(t, "core0 pool", TRC_LANE_ENGINE, 0, 0, 3);
    for (int i = 0; i < N_LANES; i++) assert_int_equal(ids[i], (uint32_t)i);
#define SC(x) ((x) * num / den)
    add_slice(t, L_PE, SC(100 * US), SC(2 * US), TRC_SLICE_INSTR, "matmul", "stablehlo.dot_general", "m.mlir:3:5");
    add_slice(t, L_PE, SC(150 * US), SC(50 * US), TRC_SLICE_WAIT, "wait s3", "", "");
    add_slice(t, L_ACT, SC(300 * US), SC(200 * US), TRC_SLICE_INSTR, "activate.exp", "stablehlo.exponential", "m.mlir:4:5");
    /* the exponential's location chain, as a JAX export gives it */
    struct trc_lane_data *act = &t->lanes[L_ACT];
    assert_int_equal(trc_trace_intern(t, "jit(f)/exp @ act (/src/model.py:31:8) <- <module> (/src/train.py:40:4)",
                                      &act->slices[act->n_slices - 1].src),
                     BASE_OK);
    add_slice(t, L_DMA, SC(200 * US), SC(60 * US), TRC_SLICE_DMA, "dma hbm->sp", "stablehlo.dot_general", "m.mlir:3:5");
    add_slice(t, L_KERN, SC(90 * US), SC(420 * US), TRC_SLICE_KERNEL, "fusion(dot)", "stablehlo.dot_general", "m.mlir:3:5");
    add_slice(t, L_CHIP1, SC(600 * US), SC(400 * US), TRC_SLICE_INSTR, "activate.tanh", "stablehlo.tanh", "m.mlir:5:5");
    /* 20 000 slices of 10 ns every 50 ns: enough for summaries */
    for (uint64_t k = 0; k < 20000; k++)
        add_slice(t, L_BIG, SC(k * 50000), SC(10000), TRC_SLICE_INSTR, "tensor_tensor.add", "stablehlo.add", "m.mlir:6:5");
    assert_int_equal(trc_trace_add_sample(t, L_HBM, 0, 0), BASE_OK);
    assert_int_equal(trc_trace_add_sample(t, L_HBM, SC(200 * US), 100), BASE_OK);
    assert_int_equal(trc_trace_add_sample(t, L_HBM, SC(260 * US), 0), BASE_OK);
#undef SC
    assert_int_equal(trc_trace_finalize(t), BASE_OK);
    return t;
}

static int setup(void **state)
{
    struct fx *fx = calloc(1, sizeof *fx);
    snprintf(fx->path, sizeof fx->path, "/tmp/npusim_test_viz_%d.npt", (int)getpid());
    struct trc_trace *t = fixture_trace(1, 1);
    assert_true(t->end_ps == 1000 * US);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, fx->path, &d), BASE_OK);
    trc_trace_destroy(t);
    assert_int_equal(trc_open(fx->path, &fx->f, &d), BASE_OK);
    uint32_t lo, hi;
    trc_file_lane_levels(fx->f, L_BIG, &lo, &hi);
    assert_true(lo <= hi); /* the big lane has summaries */
    struct viz_options o = {W, H, NULL, 0, 0};
    enum base_status st = viz_viewer_create(fx->f, &o, &fx->v, &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fx *fx = *state;
    viz_viewer_destroy(fx->v);
    trc_close(fx->f);
    unlink(fx->path);
    free(fx);
    return 0;
}

static void render(struct viz_viewer *v)
{
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = viz_render(v, &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
}

static void script(struct viz_viewer *v, const char *text)
{
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = viz_script_run(v, text, "test", &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
}

static int lane_mid_y(struct viz_viewer *v, uint32_t lane)
{
    int y, h, x0, x1;
    assert_true(viz_lane_rect(v, lane, &y, &h, &x0, &x1));
    return y + h / 2;
}

/* A pixel row inside a lane's slices above any label ink (labels are
 * vertically centred; the top rows of a glyph box are empty). */
static int fill_y(struct viz_viewer *v, uint32_t lane)
{
    int y, h, x0, x1;
    assert_true(viz_lane_rect(v, lane, &y, &h, &x0, &x1));
    return y + 2;
}

static int x_of(struct viz_viewer *v, uint64_t t)
{
    return (int)(viz_time_to_x(v, t) + 0.5);
}

/* Pixels of colour c in the run containing x on row y. */
static int run_width(struct viz_viewer *v, int x, int y, uint32_t c)
{
    if (viz_pixel(v, x, y) != c) return 0;
    int a = x, b = x;
    while (viz_pixel(v, a - 1, y) == c) a--;
    while (viz_pixel(v, b + 1, y) == c) b++;
    return b - a + 1;
}

static void test_viewer_orders_lanes_by_chip_core_sort_index(void **state)
{
    struct fx *fx = *state;
    size_t n;
    const uint32_t *order = viz_lane_order(fx->v, &n);
    /* chip-wide lanes first (by sort_index), then core 0, core 1, then chip 1; the idle lane is left out */
    const uint32_t want[] = {L_KERN, L_HBM, L_PE, L_ACT, L_DMA, L_BIG, L_CHIP1};
    assert_int_equal(n, ARRAY_LEN(want));
    for (size_t i = 0; i < n; i++) assert_int_equal(order[i], want[i]);
    int y, h, x0, x1;
    assert_false(viz_lane_rect(fx->v, L_IDLE, &y, &h, &x0, &x1));
    int prev = -1;
    for (size_t i = 0; i + 1 < n; i++) { /* the last lane may be scrolled out at 600 px */
        assert_true(viz_lane_rect(fx->v, want[i], &y, &h, &x0, &x1));
        assert_true(y >= prev);
        prev = y + h;
        assert_int_equal(x0, LABEL_W);
        assert_int_equal(x1, W);
    }
}

static void test_viewer_draws_slices_in_their_lane_with_op_colour(void **state)
{
    struct fx *fx = *state;
    uint32_t exp_c = viz_name_color("stablehlo.exponential"), dot_c = viz_name_color("stablehlo.dot_general");
    assert_int_not_equal(exp_c, dot_c); /* else the test could not tell them apart */
    viz_set_range(fx->v, 140 * US, 540 * US);
    render(fx->v);
    int xe = x_of(fx->v, 400 * US), xw = x_of(fx->v, 175 * US), xd = x_of(fx->v, 230 * US);
    assert_int_equal(viz_pixel(fx->v, xe, fill_y(fx->v, L_ACT)), exp_c);
    assert_int_equal(viz_pixel(fx->v, xw, fill_y(fx->v, L_PE)), VIZ_COLOR_WAIT);
    assert_int_equal(viz_pixel(fx->v, xd, fill_y(fx->v, L_DMA)), dot_c);
    /* the exp slice is in the act lane only; the dma slice in the dma lane only */
    assert_int_not_equal(viz_pixel(fx->v, xe, fill_y(fx->v, L_PE)), exp_c);
    assert_int_not_equal(viz_pixel(fx->v, xe, fill_y(fx->v, L_DMA)), exp_c);
    assert_int_not_equal(viz_pixel(fx->v, xd, fill_y(fx->v, L_ACT)), dot_c);
    /* the slice spans exactly its time: 200 us at 400 us over 830 px */
    int w = run_width(fx->v, xe, fill_y(fx->v, L_ACT), exp_c);
    double want = 200.0 / 400.0 * (W - LABEL_W);
    assert_true(w >= want - 3 && w <= want + 1);
}

static void test_viewer_zoom_widens_a_narrow_slice(void **state)
{
    struct fx *fx = *state;
    uint32_t dot_c = viz_name_color("stablehlo.dot_general");
    render(fx->v); /* whole run: the 2 us slice is ~1.7 px */
    int y = fill_y(fx->v, L_PE), x = x_of(fx->v, 101 * US);
    int narrow = 0;
    for (int dx = -3; dx <= 3; dx++)
        if (viz_pixel(fx->v, x + dx, y) != VIZ_COLOR_BG && viz_pixel(fx->v, x + dx, y) != 0xFFE0E0E0u) narrow++;
    assert_true(narrow >= 1 && narrow <= 3);
    uint64_t t_cursor = viz_x_to_time(fx->v, x);
    char s[64];
    snprintf(s, sizeof s, "wheel %d %d 20\n", x, y); /* 1.25^20 = 87x */
    script(fx->v, s);
    render(fx->v);
    int wide = run_width(fx->v, x_of(fx->v, 101 * US), y, dot_c);
    assert_true(wide > 100);
    uint64_t t0, t1;
    viz_get_range(fx->v, &t0, &t1);
    assert_true(t0 < 101 * US && t1 > 101 * US);
    assert_true(viz_x_to_time(fx->v, x) - t_cursor < 20000); /* zoomed at the cursor: its time stays under it */
    assert_true((int64_t)(t1 - t0) < 1000 * (int64_t)US / 80);
}

static void test_viewer_keys_zoom_and_pan(void **state)
{
    struct fx *fx = *state;
    viz_set_range(fx->v, 200 * US, 600 * US);
    script(fx->v, "key W 3\n");
    uint64_t t0, t1;
    viz_get_range(fx->v, &t0, &t1);
    double span = 400.0 / (1.25 * 1.25 * 1.25); /* us, around the centre (no mouse yet) */
    assert_true(fabs((double)(t1 - t0) / US - span) < 0.01);
    assert_true(fabs((double)(t0 + t1) / 2 / US - 400) < 0.01);
    script(fx->v, "key S 3\nkey A\n");
    viz_get_range(fx->v, &t0, &t1);
    assert_true(fabs((double)t0 / US - 160) < 0.01); /* back to 400 us wide, then 10% to the left */
    assert_true(fabs((double)t1 / US - 560) < 0.01);
    script(fx->v, "key D 2\n");
    viz_get_range(fx->v, &t0, &t1);
    assert_true(fabs((double)t0 / US - 240) < 0.01);
    /* drag right by 83 px = 40 us (400 us over 830 px) moves the view earlier */
    script(fx->v, "drag 500 200 583 200\n");
    viz_get_range(fx->v, &t0, &t1);
    assert_true(fabs((double)t0 / US - 200) < 0.1);
    script(fx->v, "key 0\n");
    viz_get_range(fx->v, &t0, &t1);
    assert_true(t0 == 0 && t1 == 1000 * US);
}

static void test_viewer_overview_click_centres_the_view(void **state)
{
    struct fx *fx = *state;
    viz_set_range(fx->v, 0, 100 * US);
    /* the overview strip spans the run over the track width, below the 20 px header */
    int x = LABEL_W + (W - LABEL_W) * 3 / 4;
    char s[64];
    snprintf(s, sizeof s, "click %d 40\n", x);
    script(fx->v, s);
    uint64_t t0, t1;
    viz_get_range(fx->v, &t0, &t1);
    assert_true(t1 - t0 == 100 * US); /* same zoom */
    double centre = (double)(t0 + t1) / 2 / US;
    assert_true(fabs(centre - 750) < 2);
}

static void test_viewer_chip_header_click_collapses_its_lanes(void **state)
{
    struct fx *fx = *state;
    int y, h, x0, x1;
    viz_set_range(fx->v, 0, 1000 * US);
    assert_true(viz_lane_rect(fx->v, L_PE, &y, &h, &x0, &x1));
    int pe_y = y;
    /* chip 0's header row is the first row of the track area, just above the kernels lane */
    assert_true(viz_lane_rect(fx->v, L_KERN, &y, &h, &x0, &x1));
    char s[64];
    snprintf(s, sizeof s, "click 20 %d\n", y - 4);
    script(fx->v, s);
    assert_false(viz_lane_rect(fx->v, L_PE, &y, &h, &x0, &x1));
    assert_false(viz_lane_rect(fx->v, L_KERN, &y, &h, &x0, &x1));
    assert_true(viz_lane_rect(fx->v, L_CHIP1, &y, &h, &x0, &x1)); /* chip 1 moves up */
    assert_true(y < pe_y);
    script(fx->v, s); /* and expands again */
    assert_true(viz_lane_rect(fx->v, L_PE, &y, &h, &x0, &x1));
    assert_int_equal(y, pe_y);
}

static void test_viewer_click_selects_the_slice_under_the_cursor(void **state)
{
    struct fx *fx = *state;
    viz_set_range(fx->v, 0, 1000 * US);
    render(fx->v);
    char s[128];
    snprintf(s, sizeof s, "click %d %d\n", x_of(fx->v, 400 * US), lane_mid_y(fx->v, L_ACT));
    script(fx->v, s);
    uint32_t lane;
    struct trc_slice sl;
    assert_true(viz_selection(fx->v, &lane, &sl));
    assert_int_equal(lane, L_ACT);
    assert_true(sl.start_ps == 300 * US && sl.dur_ps == 200 * US);
    assert_string_equal(trc_file_string(fx->f, sl.op), "stablehlo.exponential");
    assert_string_equal(trc_file_string(fx->f, sl.name), "activate.exp");
    assert_string_equal(trc_file_string(fx->f, sl.loc), "m.mlir:4:5");
    /* the 2 us matmul at whole-run zoom (under 2 px): a click next to it still finds it */
    snprintf(s, sizeof s, "click %d %d\n", x_of(fx->v, 101 * US) + 1, lane_mid_y(fx->v, L_PE));
    script(fx->v, s);
    assert_true(viz_selection(fx->v, &lane, &sl));
    assert_int_equal(lane, L_PE);
    assert_true(sl.start_ps == 100 * US);
    assert_string_equal(trc_file_string(fx->f, sl.name), "matmul");
    /* the details panel shows it: F zooms to it */
    script(fx->v, "key F\n");
    uint64_t t0, t1;
    viz_get_range(fx->v, &t0, &t1);
    assert_true(t0 <= 100 * US && t1 >= 102 * US && t1 - t0 < 10 * US);
    /* empty space clears the selection */
    script(fx->v, "key 0\n");
    snprintf(s, sizeof s, "click %d %d\n", x_of(fx->v, 700 * US), lane_mid_y(fx->v, L_ACT));
    script(fx->v, s);
    assert_false(viz_selection(fx->v, NULL, NULL));
}

static void test_viewer_ruler_unit_follows_zoom(void **state)
{
    struct fx *fx = *state;
    size_t n;
    viz_set_range(fx->v, 0, 1000 * US); /* 100 px = 120 us: ticks every 200 us */
    render(fx->v);
    assert_string_equal(viz_ruler_unit(fx->v), "\xC2\xB5s");
    assert_string_equal(viz_ruler_label(fx->v, 1, &n), "200 \xC2\xB5s");
    assert_int_equal(n, 5); /* 0, 200, 400, 600, 800 */
    viz_set_range(fx->v, 0, 1000000); /* 1 us: ticks every 200 ns */
    render(fx->v);
    assert_string_equal(viz_ruler_unit(fx->v), "ns");
    assert_string_equal(viz_ruler_label(fx->v, 1, &n), "200 ns");
    viz_set_range(fx->v, 5000, 5800); /* 800 ps: ticks every 100 ps */
    render(fx->v);
    assert_string_equal(viz_ruler_unit(fx->v), "ps");
    assert_string_equal(viz_ruler_label(fx->v, 0, &n), "5000 ps");
    assert_string_equal(viz_ruler_label(fx->v, 1, &n), "5100 ps");
}

static void test_viewer_search_highlights_matching_ops(void **state)
{
    struct fx *fx = *state;
    uint32_t exp_c = viz_name_color("stablehlo.exponential"), dot_c = viz_name_color("stablehlo.dot_general");
    viz_set_range(fx->v, 140 * US, 540 * US);
    script(fx->v, "key /\ntype expo\n");
    bool editing;
    assert_string_equal(viz_search_query(fx->v, &editing), "expo"); /* the '/' itself is not typed */
    assert_true(editing);
    script(fx->v, "key W\nkey Return\n"); /* W types a letter while the box is open */
    assert_string_equal(viz_search_query(fx->v, &editing), "expow");
    assert_false(editing);
    script(fx->v, "search exponential\n");
    assert_string_equal(viz_search_query(fx->v, &editing), "exponential");
    render(fx->v);
    int xe = x_of(fx->v, 400 * US), xd = x_of(fx->v, 230 * US);
    /* (a match has a yellow border at the top: look mid-row, right of the label) */
    assert_int_equal(viz_pixel(fx->v, xe, lane_mid_y(fx->v, L_ACT)), exp_c);
    uint32_t faded = viz_pixel(fx->v, xd, fill_y(fx->v, L_DMA));
    assert_int_not_equal(faded, dot_c);
    assert_int_not_equal(faded, VIZ_COLOR_BG);
    script(fx->v, "key Escape\n");
    render(fx->v);
    assert_int_equal(viz_pixel(fx->v, xd, fill_y(fx->v, L_DMA)), dot_c);
}

static void test_viewer_draws_summaries_zoomed_out_and_slices_zoomed_in(void **state)
{
    struct fx *fx = *state;
    uint32_t add_c = viz_name_color("stablehlo.add");
    struct viz_frame_stats st;
    viz_set_range(fx->v, 0, 1000 * US);
    render(fx->v);
    viz_frame_stats(fx->v, &st);
    assert_true(st.lanes_summary >= 1 && st.buckets_drawn > 0);
    /* 20% busy everywhere: every column is tinted, none at full colour */
    int y = fill_y(fx->v, L_BIG);
    uint32_t c = viz_pixel(fx->v, x_of(fx->v, 500 * US), y);
    assert_int_not_equal(c, VIZ_COLOR_BG);
    assert_int_not_equal(c, add_c);
    viz_set_range(fx->v, 500 * US, 501 * US); /* 20 slices of 8 px */
    render(fx->v);
    viz_frame_stats(fx->v, &st);
    assert_int_equal(st.lanes_summary, 0);
    assert_true(st.slices_drawn >= 20);
    int w = run_width(fx->v, x_of(fx->v, 500 * US + 5000), y, add_c);
    assert_true(w >= 6 && w <= 10); /* 10 ns at 1 us over 830 px = 8.3 px */
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 500 * US + 30000), y), VIZ_COLOR_BG);
}

static void test_viewer_counter_is_a_step_plot(void **state)
{
    struct fx *fx = *state;
    viz_set_range(fx->v, 140 * US, 340 * US);
    render(fx->v);
    int y, h, x0, x1;
    assert_true(viz_lane_rect(fx->v, L_HBM, &y, &h, &x0, &x1));
    /* 100 GB/s (the maximum) from 200 to 260 us: filled up near the top; 0 elsewhere */
    int high = y + h / 3;
    assert_int_not_equal(viz_pixel(fx->v, x_of(fx->v, 230 * US), high), VIZ_COLOR_BG);
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 180 * US) + 1, high), VIZ_COLOR_BG);
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 300 * US) + 1, high), VIZ_COLOR_BG);
    /* the step is vertical: full at 201 us, empty at 259.x us + a column */
    assert_int_not_equal(viz_pixel(fx->v, x_of(fx->v, 201 * US), high), VIZ_COLOR_BG);
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 262 * US), high), VIZ_COLOR_BG);
}

/* Decodes our own PNG (RGB, filters none/sub/up) and compares with the framebuffer. */
static void test_viewer_screenshot_png_decodes_to_the_framebuffer(void **state)
{
    struct fx *fx = *state;
    char path[80];
    snprintf(path, sizeof path, "/tmp/npusim_test_viz_%d.png", (int)getpid());
    viz_set_range(fx->v, 140 * US, 540 * US);
    char s[128];
    snprintf(s, sizeof s, "screenshot %s\n", path);
    script(fx->v, s);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[4 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    unlink(path);
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    assert_memory_equal(buf, sig, 8);
    size_t p = 8;
    uint32_t w = 0, h = 0;
    uint8_t *idat = malloc(n);
    size_t idat_n = 0;
    bool end = false;
    while (p + 12 <= n && !end) {
        uint32_t len = (uint32_t)buf[p] << 24 | (uint32_t)buf[p + 1] << 16 | (uint32_t)buf[p + 2] << 8 | buf[p + 3];
        const uint8_t *type = buf + p + 4, *data = buf + p + 8;
        assert_true(p + 12 + len <= n);
        uint32_t crc = (uint32_t)crc32(0, type, 4 + len);
        const uint8_t *c = data + len;
        assert_true(crc == ((uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3]));
        if (!memcmp(type, "IHDR", 4)) {
            w = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
            h = (uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 | (uint32_t)data[6] << 8 | data[7];
            assert_int_equal(data[8], 8);
            assert_int_equal(data[9], 2);
        } else if (!memcmp(type, "IDAT", 4)) {
            memcpy(idat + idat_n, data, len);
            idat_n += len;
        } else if (!memcmp(type, "IEND", 4)) {
            end = true;
        }
        p += 12 + len;
    }
    assert_true(end);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    uLongf raw_n = (uLongf)(w * 3 + 1) * h;
    uint8_t *raw = malloc(raw_n);
    assert_int_equal(uncompress(raw, &raw_n, idat, idat_n), Z_OK);
    assert_int_equal(raw_n, (w * 3 + 1) * h);
    size_t stride = w * 3 + 1;
    size_t bad = 0;
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = raw + y * stride + 1;
        uint8_t ft = row[-1];
        assert_true(ft <= 2);
        for (size_t i = 0; i < w * 3; i++) {
            uint8_t left = i >= 3 ? row[i - 3] : 0, up = y ? raw[(y - 1) * stride + 1 + i] : 0;
            row[i] = (uint8_t)(row[i] + (ft == 1 ? left : ft == 2 ? up : 0));
        }
        for (uint32_t x = 0; x < w; x++) {
            uint32_t px = viz_pixel(fx->v, (int)x, (int)y);
            uint32_t got = 0xFF000000u | (uint32_t)row[3 * x] << 16 | (uint32_t)row[3 * x + 1] << 8 | row[3 * x + 2];
            bad += px != got;
        }
    }
    assert_int_equal(bad, 0);
    free(raw);
    free(idat);
}

static void test_viewer_window_opens_under_the_sdl_video_driver(void **state)
{
    struct fx *fx = *state;
    struct base_diag d;
    base_diag_clear(&d);
    /* make check sets SDL_VIDEODRIVER=dummy; without any usable driver this fails (never skips) */
    enum base_status st = viz_run_window(fx->v, "test", 3, &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
}

static void push(SDL_Event *e)
{
    assert_int_equal(SDL_PushEvent(e), 1);
}

/* Real SDL events through the window's loop: motion + wheel zoom at the
 * mouse, D pans, '/' + text + Return searches, a button press and release
 * selects. */
static void test_viewer_window_dispatches_sdl_events(void **state)
{
    struct fx *fx = *state;
    viz_set_range(fx->v, 200 * US, 600 * US);
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) fail_msg("SDL video: %s", SDL_GetError());
    int x = x_of(fx->v, 400 * US), y = lane_mid_y(fx->v, L_ACT);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    push(&e);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = 2;
    e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
    push(&e);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = x;
    e.button.y = y;
    push(&e);
    e.type = SDL_MOUSEBUTTONUP;
    push(&e);
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_d;
    push(&e);
    e.key.keysym.sym = SDLK_SLASH;
    push(&e);
    const char *text[] = {"/", "e", "x", "p"};
    for (size_t i = 0; i < ARRAY_LEN(text); i++) {
        memset(&e, 0, sizeof e);
        e.type = SDL_TEXTINPUT;
        snprintf(e.text.text, sizeof e.text.text, "%s", text[i]);
        push(&e);
    }
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_RETURN;
    push(&e);
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = viz_run_window(fx->v, "test", 2, &d);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
    uint64_t t0, t1;
    viz_get_range(fx->v, &t0, &t1);
    double span = 400.0 / 1.5625; /* us: two wheel steps of 1.25x at 400 us (the mouse), then D: +10% */
    assert_true(fabs((double)(t1 - t0) / US - span) < 0.05);
    double want_t0 = 400 - (400 - 200) / 1.5625 + span * 0.1;
    assert_true(fabs((double)t0 / US - want_t0) < 0.5);
    uint32_t lane;
    struct trc_slice sl;
    assert_true(viz_selection(fx->v, &lane, &sl)); /* the click came before the pan */
    assert_int_equal(lane, L_ACT);
    bool editing;
    assert_string_equal(viz_search_query(fx->v, &editing), "exp");
    assert_false(editing);
}

static void test_viewer_missing_font_names_the_package(void **state)
{
    struct fx *fx = *state;
    struct viz_options o = {W, H, "/nonexistent/font.ttf", 0, 0};
    struct viz_viewer *v = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(viz_viewer_create(fx->f, &o, &v, &d), BASE_ERR_IO);
    assert_null(v);
    assert_non_null(strstr(d.msg, "fonts-dejavu-core"));
}

static void test_viewer_script_errors_name_the_line(void **state)
{
    struct fx *fx = *state;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(viz_script_run(fx->v, "# zoom\nkey W\nrange 5us\n", "s.txt", &d), BASE_ERR_PARSE);
    assert_string_equal(d.file, "s.txt");
    assert_int_equal(d.line, 3);
    base_diag_clear(&d);
    assert_int_equal(viz_script_run(fx->v, "key NoSuchKey\n", "s.txt", &d), BASE_ERR_PARSE);
    base_diag_clear(&d);
    assert_int_equal(viz_script_run(fx->v, "jump 3\n", "s.txt", &d), BASE_ERR_PARSE);
}

static void test_viewer_progressive_loading_completes_to_the_full_frame(void **state)
{
    struct fx *fx = *state;
    /* a tiny budget: each frame reads one tile, then defers the rest */
    viz_set_fetch_budget(fx->v, 1e-9);
    viz_set_range(fx->v, 300 * US, 700 * US);
    render(fx->v);
    struct viz_frame_stats st;
    viz_frame_stats(fx->v, &st);
    assert_true(st.tiles_deferred > 0);
    int frames = 1;
    while (st.tiles_deferred && frames < 200) {
        render(fx->v);
        viz_frame_stats(fx->v, &st);
        frames++;
    }
    assert_int_equal(st.tiles_deferred, 0);
    assert_true(frames > 2);
    int w, h, pitch;
    const uint32_t *px = viz_pixels(fx->v, &w, &h, &pitch);
    uint32_t *copy = malloc((size_t)w * (size_t)h * sizeof *copy);
    for (int y = 0; y < h; y++) memcpy(copy + (size_t)y * (size_t)w, px + (size_t)y * (size_t)pitch, (size_t)w * 4);
    /* the same view read in full by a fresh viewer */
    struct viz_options o = {W, H, NULL, 0, 0};
    struct viz_viewer *v2;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(viz_viewer_create(fx->f, &o, &v2, &d), BASE_OK);
    viz_set_range(v2, 300 * US, 700 * US);
    render(v2);
    size_t bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) bad += viz_pixel(v2, x, y) != copy[(size_t)y * (size_t)w + (size_t)x];
    assert_int_equal(bad, 0);
    free(copy);
    viz_viewer_destroy(v2);
}

static void test_viewer_opens_an_empty_trace(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/npusim_test_viz_empty_%d.npt", (int)getpid());
    struct trc_trace *t;
    assert_int_equal(trc_trace_create(&t), BASE_OK);
    add_lane(t, "core0 pe", TRC_LANE_ENGINE, 0, 0, 0);
    assert_int_equal(trc_trace_finalize(t), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, path, &d), BASE_OK);
    trc_trace_destroy(t);
    struct trc_file *f;
    assert_int_equal(trc_open(path, &f, &d), BASE_OK);
    struct viz_options o = {W, H, NULL, 0, 0};
    struct viz_viewer *v;
    assert_int_equal(viz_viewer_create(f, &o, &v, &d), BASE_OK);
    script(v, "key W 5\nwheel 500 300 3\nclick 500 150\ndrag 400 200 600 250\nkey 0\nsearch x\nrender\n");
    size_t n;
    viz_lane_order(v, &n);
    assert_int_equal(n, 0); /* its only lane is idle */
    assert_false(viz_selection(v, NULL, NULL));
    assert_int_equal(viz_pixel(v, W / 2, H / 2 - 50), VIZ_COLOR_BG);
    viz_viewer_destroy(v);
    trc_close(f);
    unlink(path);
}

/* Collectives and links: their own lanes, in their own colours; a link
 * slice's colour pales with its utilisation (docs/visualizer.md). */
static void test_viewer_draws_collective_and_link_lanes(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/npusim_test_viz_links_%d.npt", (int)getpid());
    struct trc_trace *t;
    assert_int_equal(trc_trace_create(&t), BASE_OK);
    uint32_t pe = add_lane(t, "core0 pe", TRC_LANE_ENGINE, 0, 0, 0);
    uint32_t coll = add_lane(t, "collectives", TRC_LANE_COLLECTIVE, 0, -1, 2);
    uint32_t link = add_lane(t, "ici x+ 0->1", TRC_LANE_LINK, 0, -1, 3);
    add_slice(t, pe, 0, 1000 * US, TRC_SLICE_INSTR, "matmul", "stablehlo.dot_general", "m.mlir:3:5");
    add_slice(t, coll, 100 * US, 400 * US, TRC_SLICE_COLLECTIVE, "all_reduce", "stablehlo.all_reduce", "m.mlir:4:5");
    /* 4096 B over 400 us and over 200 us, on links of 0.01024 and 0.04096 GB/s: 100% and 50% */
    struct trc_slice s;
    memset(&s, 0, sizeof s);
    s.kind = TRC_SLICE_LINK;
    s.start_ps = 100 * US;
    s.dur_ps = 400 * US;
    s.bytes = 4096;
    double bw = 4096.0 / (400.0 * US) * 1000.0;
    memcpy(&s.b, &bw, sizeof bw);
    assert_int_equal(trc_trace_intern(t, "all_reduce", &s.name), BASE_OK);
    assert_int_equal(trc_trace_add_slice(t, link, &s), BASE_OK);
    s.start_ps = 600 * US;
    s.dur_ps = 200 * US;
    bw = 4096.0 / (200.0 * US) * 1000.0 * 2;
    memcpy(&s.b, &bw, sizeof bw);
    assert_int_equal(trc_trace_add_slice(t, link, &s), BASE_OK);
    assert_int_equal(trc_trace_finalize(t), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, path, &d), BASE_OK);
    trc_trace_destroy(t);
    struct trc_file *f;
    assert_int_equal(trc_open(path, &f, &d), BASE_OK);
    struct viz_options o = {W, H, NULL, 0, 0};
    struct viz_viewer *v;
    assert_int_equal(viz_viewer_create(f, &o, &v, &d), BASE_OK);
    size_t n;
    const uint32_t *order = viz_lane_order(v, &n);
    assert_int_equal(n, 3); /* chip-wide first: collectives, the link; then core 0 */
    assert_int_equal(order[0], coll);
    assert_int_equal(order[1], link);
    assert_int_equal(order[2], pe);
    viz_set_range(v, 0, 1000 * US);
    render(v);
    assert_int_equal(viz_pixel(v, x_of(v, 300 * US), fill_y(v, coll)), VIZ_COLOR_COLLECTIVE);
    assert_int_equal(viz_pixel(v, x_of(v, 300 * US), fill_y(v, link)), VIZ_COLOR_LINK);
    /* 50%: 0.3 + 0.7 x 0.5 = 0.65 of the link colour over the white background, channel by channel */
    uint32_t half = 0xFF000000u;
    for (int sh = 0; sh < 24; sh += 8)
        half |= (uint32_t)(255.0 * 0.35 + (double)(VIZ_COLOR_LINK >> sh & 255) * 0.65 + 0.5) << sh;
    assert_int_equal(viz_pixel(v, x_of(v, 700 * US), fill_y(v, link)), half);
    assert_int_equal(viz_pixel(v, x_of(v, 550 * US), fill_y(v, link)), VIZ_COLOR_BG); /* between the two */
    viz_viewer_destroy(v);
    trc_close(f);
    unlink(path);
}


/* ---------------------------------------------------- groups, compare */

static bool visible(struct viz_viewer *v, uint32_t lane)
{
    int y, h, x0, x1;
    return viz_lane_rect(v, lane, &y, &h, &x0, &x1);
}

static void test_viewer_cores_and_engine_classes_collapse(void **state)
{
    struct fx *fx = *state;
    struct base_diag d;
    viz_set_range(fx->v, 0, 1000 * US);
    int y, h, x0, x1;
    assert_true(viz_lane_rect(fx->v, L_DMA, &y, &h, &x0, &x1));
    int dma_y = y;
    /* core 0's compute engines (pe, act: a class of two) fold into their header */
    script(fx->v, "collapse chip0/core0/engines\n");
    assert_true(viz_collapsed(fx->v, "chip0/core0/engines"));
    assert_false(visible(fx->v, L_PE) || visible(fx->v, L_ACT));
    assert_true(viz_lane_rect(fx->v, L_DMA, &y, &h, &x0, &x1));
    assert_true(y < dma_y);
    /* the collapsed header draws its lanes in one strip: the exponential at 400 us */
    render(fx->v);
    assert_true(viz_lane_rect(fx->v, L_DMA, &y, &h, &x0, &x1));
    int strip_y = y - 18 / 2; /* the header row just above the DMA lane */
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 400 * US), strip_y), viz_name_color("stablehlo.exponential"));
    /* the whole core, then every core (X), then everything back (E) */
    script(fx->v, "expand chip0/core0/engines\ncollapse chip0/core0\n");
    assert_false(visible(fx->v, L_PE) || visible(fx->v, L_DMA));
    assert_true(visible(fx->v, L_BIG) && visible(fx->v, L_KERN));
    script(fx->v, "key E\nkey X\n");
    assert_false(visible(fx->v, L_PE) || visible(fx->v, L_BIG) || visible(fx->v, L_CHIP1));
    assert_true(visible(fx->v, L_KERN) && visible(fx->v, L_HBM)); /* chip-wide lanes stay */
    script(fx->v, "key X\n"); /* X again: every core open */
    assert_true(visible(fx->v, L_PE) && visible(fx->v, L_BIG));
    /* C folds the innermost group of the lane under the mouse */
    char s[64];
    snprintf(s, sizeof s, "move 400 %d\nkey C\n", lane_mid_y(fx->v, L_ACT));
    script(fx->v, s);
    assert_true(viz_collapsed(fx->v, "chip0/core0/engines"));
    assert_true(visible(fx->v, L_DMA));
    script(fx->v, "collapse all\n");
    assert_false(visible(fx->v, L_KERN) || visible(fx->v, L_CHIP1));
    script(fx->v, "expand all\n");
    for (uint32_t l = 0; l < L_IDLE; l++)
        if (l != L_CHIP1) assert_true(visible(fx->v, l)); /* (chip 1 is below the screen) */
    /* a path that names no group is a located script error */
    base_diag_clear(&d);
    assert_int_equal(viz_script_run(fx->v, "render\ncollapse chip0/core9\n", "s.txt", &d), BASE_ERR_PARSE);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "no such group"));
    assert_false(viz_collapse(fx->v, "chip0/core0/vectors", 1));
}

static void test_viewer_top_ops_group_by_kind_kernel_and_source(void **state)
{
    struct fx *fx = *state;
    const char *key;
    uint64_t a, b;
    /* by graph op (the default): tanh 400 us, add 200 us and exponential 200 us, dot_general 62 us */
    assert_string_equal(viz_get_group(fx->v), "op");
    assert_true(viz_panel_row(fx->v, 0, &key, &a, &b));
    assert_string_equal(key, "stablehlo.tanh  m.mlir:5:5");
    assert_int_equal(a, 400 * US);
    script(fx->v, "group kind\n");
    assert_true(viz_panel_row(fx->v, 3, &key, &a, &b));
    assert_string_equal(key, "stablehlo.dot_general");
    assert_int_equal(a, 62 * US); /* the matmul and its DMA */
    assert_false(viz_panel_row(fx->v, 4, NULL, NULL, NULL));
    /* by kernel: the kernel slices' wall time */
    script(fx->v, "key G\n");
    assert_string_equal(viz_get_group(fx->v), "kernel");
    assert_true(viz_panel_row(fx->v, 0, &key, &a, &b));
    assert_string_equal(key, "k0");
    assert_int_equal(a, 420 * US);
    /* by source line: the chain's Python line for the exponential, the .mlir line otherwise */
    script(fx->v, "group source\n");
    bool py = false;
    for (size_t i = 0; viz_panel_row(fx->v, i, &key, &a, &b); i++)
        if (!strcmp(key, "/src/model.py:31")) py = a == 200 * US;
    assert_true(py);
    /* the panel: a click on the title cycles the grouping; on a row, searches for it */
    render(fx->v);
    char s[64];
    snprintf(s, sizeof s, "click %d %d\n", W - 100, H - 172 + 6);
    script(fx->v, s);
    assert_string_equal(viz_get_group(fx->v), "op");
    script(fx->v, "group kind\n");
    snprintf(s, sizeof s, "click %d %d\n", W - 300, H - 172 + 4 + 15 + 2 + 3);
    script(fx->v, s);
    assert_string_equal(viz_search_query(fx->v, NULL), "stablehlo.tanh");
    assert_false(viz_set_group(fx->v, "banana"));
}

static void test_viewer_search_finds_location_chains(void **state)
{
    struct fx *fx = *state;
    uint32_t exp_c = viz_name_color("stablehlo.exponential"), dot_c = viz_name_color("stablehlo.dot_general");
    viz_set_range(fx->v, 140 * US, 540 * US);
    script(fx->v, "search model.py:31\n"); /* in the exponential's chain only */
    render(fx->v);
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 400 * US), lane_mid_y(fx->v, L_ACT)), exp_c);
    assert_int_not_equal(viz_pixel(fx->v, x_of(fx->v, 230 * US), fill_y(fx->v, L_DMA)), dot_c);
    script(fx->v, "search m.mlir:3:5\n"); /* a .mlir location */
    render(fx->v);
    assert_int_equal(viz_pixel(fx->v, x_of(fx->v, 230 * US), fill_y(fx->v, L_DMA)), dot_c);
    assert_int_not_equal(viz_pixel(fx->v, x_of(fx->v, 400 * US), lane_mid_y(fx->v, L_ACT)), exp_c);
    /* the details of the exponential show its chain */
    script(fx->v, "key Escape\n");
    char s[64];
    snprintf(s, sizeof s, "click %d %d\n", x_of(fx->v, 400 * US), lane_mid_y(fx->v, L_ACT));
    script(fx->v, s);
    uint32_t lane;
    struct trc_slice sl;
    assert_true(viz_selection(fx->v, &lane, &sl));
    assert_int_equal(lane, L_ACT);
    assert_string_equal(trc_file_string(fx->f, sl.src),
                        "jit(f)/exp @ act (/src/model.py:31:8) <- <module> (/src/train.py:40:4)");
}

static void test_viewer_opens_json_traces_like_npt(void **state)
{
    struct fx *fx = *state;
    char paths[2][64];
    snprintf(paths[0], sizeof paths[0], "/tmp/npusim_test_viz_%d.json", (int)getpid());
    snprintf(paths[1], sizeof paths[1], "/tmp/npusim_test_viz_%d.json.gz", (int)getpid());
    struct trc_trace *t = fixture_trace(1, 1);
    struct base_diag d;
    base_diag_clear(&d);
    viz_set_range(fx->v, 140 * US, 540 * US);
    render(fx->v);
    int w, h, pitch;
    const uint32_t *want = viz_pixels(fx->v, &w, &h, &pitch);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(trc_write_json(t, paths[k], k == 1, &d), BASE_OK);
        struct trc_file *f = NULL;
        assert_int_equal(trc_open(paths[k], &f, &d), BASE_OK);
        struct viz_options o = {W, H, NULL, 0, 0};
        struct viz_viewer *v = NULL;
        assert_int_equal(viz_viewer_create(f, &o, &v, &d), BASE_OK);
        viz_set_range(v, 140 * US, 540 * US);
        render(v);
        int w2, h2, pitch2;
        const uint32_t *got = viz_pixels(v, &w2, &h2, &pitch2);
        for (int y = 0; y < h; y++) assert_memory_equal(got + (size_t)y * pitch2, want + (size_t)y * pitch, (size_t)w * 4);
        viz_viewer_destroy(v);
        trc_close(f);
        unlink(paths[k]);
    }
    trc_trace_destroy(t);
}

static void test_viewer_compare_view_puts_two_traces_on_one_axis(void **state)
{
    struct fx *fx = *state;
    char path_b[64];
    snprintf(path_b, sizeof path_b, "/tmp/npusim_test_viz_b_%d.npt", (int)getpid());
    struct trc_trace *t = fixture_trace(1, 2); /* B: everything twice as fast */
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, path_b, &d), BASE_OK);
    trc_trace_destroy(t);
    struct trc_file *fb = NULL;
    assert_int_equal(trc_open(path_b, &fb, &d), BASE_OK);
    struct viz_options o = {W, H, NULL, 0, 0};
    struct viz_viewer *v = NULL;
    assert_int_equal(viz_viewer_create_compare(fx->f, fb, &o, &v, &d), BASE_OK);
    /* one time axis: the longer run */
    uint64_t t0, t1;
    viz_get_range(v, &t0, &t1);
    assert_int_equal(t1, 1000 * US);
    /* B's lanes follow A's (global lanes: + A's lane count); cores start folded so both fit */
    uint32_t nb = N_LANES, b_kern = nb + L_KERN, b_act = nb + L_ACT;
    assert_true(visible(v, L_KERN) && visible(v, b_kern));
    assert_false(visible(v, L_ACT) || visible(v, b_act));
    script(v, "expand B:chip0/core0\nexpand B:chip0/core0/engines\ncollapse A\n");
    assert_true(visible(v, b_act));
    assert_false(visible(v, L_ACT));
    int ya, yb, h, x0, x1;
    script(v, "expand A\n");
    assert_true(viz_lane_rect(v, L_KERN, &ya, &h, &x0, &x1));
    assert_true(viz_lane_rect(v, b_kern, &yb, &h, &x0, &x1));
    assert_true(yb > ya);
    script(v, "collapse A\n"); /* A folded to its header: B's lanes fit */
    /* B's exponential at 150-250 us, drawn in B's lane */
    viz_set_range(v, 100 * US, 500 * US);
    render(v);
    int xb = (int)(viz_time_to_x(v, 200 * US) + 0.5);
    assert_true(viz_lane_rect(v, b_act, &yb, &h, &x0, &x1));
    assert_int_equal(viz_pixel(v, xb, yb + 2), viz_name_color("stablehlo.exponential"));
    /* the panel: each op in A and B, B - A */
    script(v, "group kind\n");
    const char *key;
    uint64_t a, b;
    bool tanh = false;
    for (size_t i = 0; viz_panel_row(v, i, &key, &a, &b); i++) {
        assert_int_equal(b * 2, a);
        if (!strcmp(key, "stablehlo.tanh")) tanh = a == 400 * US;
        if (i == 0) assert_string_equal(key, "stablehlo.tanh"); /* the largest difference first */
    }
    assert_true(tanh);
    /* a whole trace folds */
    script(v, "collapse B\n");
    assert_false(visible(v, b_kern));
    assert_true(viz_collapsed(v, "B"));
    assert_false(viz_collapse(v, "C:chip0", 1));
    char shot[80];
    snprintf(shot, sizeof shot, "/tmp/npusim_test_viz_cmp_%d.png", (int)getpid());
    assert_int_equal(viz_write_png(v, shot, &d), BASE_OK);
    unlink(shot);
    viz_viewer_destroy(v);
    trc_close(fb);
    unlink(path_b);
}

static void test_viz_time_parse_units(void **state)
{
    (void)state;
    uint64_t t;
    assert_true(viz_time_parse("12", &t) && t == 12);
    assert_true(viz_time_parse("12ps", &t) && t == 12);
    assert_true(viz_time_parse("3.5ns", &t) && t == 3500);
    assert_true(viz_time_parse("2us", &t) && t == 2000000);
    assert_true(viz_time_parse("2\xC2\xB5s", &t) && t == 2000000);
    assert_true(viz_time_parse("1ms", &t) && t == 1000000000ull);
    assert_true(viz_time_parse("0.1s", &t) && t == 100000000000ull);
    assert_false(viz_time_parse("x", &t));
    assert_false(viz_time_parse("5 parsecs", &t));
    assert_false(viz_time_parse("-1ns", &t));
}

TEST_MAIN(NULL, NULL, cmocka_unit_test_setup_teardown(test_viewer_orders_lanes_by_chip_core_sort_index, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_draws_slices_in_their_lane_with_op_colour, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_zoom_widens_a_narrow_slice, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_keys_zoom_and_pan, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_click_selects_the_slice_under_the_cursor, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_overview_click_centres_the_view, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_chip_header_click_collapses_its_lanes, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_ruler_unit_follows_zoom, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_search_highlights_matching_ops, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_draws_summaries_zoomed_out_and_slices_zoomed_in, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_counter_is_a_step_plot, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_screenshot_png_decodes_to_the_framebuffer, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_window_opens_under_the_sdl_video_driver, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_window_dispatches_sdl_events, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_missing_font_names_the_package, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_script_errors_name_the_line, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_progressive_loading_completes_to_the_full_frame, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_cores_and_engine_classes_collapse, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_top_ops_group_by_kind_kernel_and_source, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_search_finds_location_chains, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_opens_json_traces_like_npt, setup, teardown),
          cmocka_unit_test_setup_teardown(test_viewer_compare_view_puts_two_traces_on_one_axis, setup, teardown),
          T(test_viewer_opens_an_empty_trace), T(test_viewer_draws_collective_and_link_lanes),
          T(test_viz_time_parse_units))
