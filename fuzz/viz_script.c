/* Fuzz target: the viewer's --script language on a small trace (a viewer
 * built fresh for each input, headless): every line runs or is refused with
 * a located message, and nothing crashes whatever the zoom, pan, clicks and
 * keys.  `screenshot PATH` lines are run as `render` (the fuzzer must not
 * write files where its input says). */
#include "fuzz/fuzz_util.h"
#include "traces/traces.h"
#include "visualizer/visualizer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct trc_file *the_trace(void)
{
    static struct trc_file *f;
    if (f) return f;
    struct trc_trace *t;
    if (trc_trace_create(&t) != BASE_OK) abort();
    trc_trace_set_meta(t, "chip", "fuzzchip");
    static const struct {
        const char *name;
        enum trc_lane_kind kind;
        uint32_t chip;
        int core;
    } lanes[] = {{"core0 pe", TRC_LANE_ENGINE, 0, 0}, {"core0 dma0", TRC_LANE_DMA, 0, 0},
                 {"kernels", TRC_LANE_KERNELS, 0, -1}, {"hbm GB/s", TRC_LANE_COUNTER, 0, -1},
                 {"core0 pe", TRC_LANE_ENGINE, 1, 0}};
    for (uint32_t i = 0; i < ARRAY_LEN(lanes); i++) {
        struct trc_lane l;
        memset(&l, 0, sizeof l);
        snprintf(l.name, sizeof l.name, "%s", lanes[i].name);
        l.kind = lanes[i].kind;
        l.chip = lanes[i].chip;
        l.core = lanes[i].core;
        if (l.kind == TRC_LANE_COUNTER) snprintf(l.unit, sizeof l.unit, "GB/s");
        uint32_t id;
        if (trc_trace_add_lane(t, &l, &id) != BASE_OK) abort();
        if (l.kind == TRC_LANE_COUNTER) {
            trc_trace_add_sample(t, id, 0, 0);
            trc_trace_add_sample(t, id, 5000000, 80);
            continue;
        }
        for (uint64_t k = 0; k < 3000; k++) {
            struct trc_slice s;
            memset(&s, 0, sizeof s);
            s.start_ps = k * 40000 + i * 1000;
            s.dur_ps = 20000 + (k % 7) * 1000;
            s.kind = l.kind == TRC_LANE_DMA ? TRC_SLICE_DMA : l.kind == TRC_LANE_KERNELS ? TRC_SLICE_KERNEL
                                                                                             : TRC_SLICE_INSTR;
            s.bytes = 4096;
            s.flops = 1000;
            trc_trace_intern(t, k % 2 ? "matmul" : "activate.exp", &s.name);
            trc_trace_intern(t, k % 3 ? "stablehlo.dot_general" : "stablehlo.exponential", &s.op);
            trc_trace_intern(t, "m.mlir:3:5", &s.loc);
            trc_trace_intern(t, k % 5 ? "k0" : "k1", &s.kernel);
            if (trc_trace_add_slice(t, id, &s) != BASE_OK) abort();
        }
    }
    if (trc_trace_finalize(t) != BASE_OK) abort();
    char path[64];
    snprintf(path, sizeof path, "/tmp/npusim_fuzz_viz_%d.npt", (int)getpid());
    struct base_diag d;
    base_diag_clear(&d);
    if (trc_write_npt(t, path, &d) != BASE_OK || trc_open(path, &f, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        abort();
    }
    unlink(path); /* open: stays readable */
    trc_trace_destroy(t);
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    for (char *p = text; (p = strstr(p, "screenshot")) != NULL; p += 10) memcpy(p, "render    ", 10);
    static bool env;
    if (!env) {
        setenv("SDL_VIDEODRIVER", "dummy", 0);
        env = true;
    }
    struct viz_options o = {320, 200, NULL, 0, UINT64_C(8) << 20};
    struct viz_viewer *v = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (viz_viewer_create(the_trace(), &o, &v, &d) != BASE_OK) {
        base_diag_print(&d, stderr); /* no font: the target cannot run */
        abort();
    }
    enum base_status st = viz_script_run(v, text, "fuzz.script", &d);
    if (st != BASE_OK) fuzz_check_refusal(st, &d);
    base_diag_clear(&d);
    st = viz_render(v, &d);
    if (st != BASE_OK) fuzz_check_refusal(st, &d);
    viz_viewer_destroy(v);
    free(text);
    return 0;
}
