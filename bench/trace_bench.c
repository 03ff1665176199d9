/* Trace costs (issue 5 bars).
 *
 *  1. A real run traced vs untraced: the glm layer compiled for trn2 and run
 *     timing-only with the simulator checks off, alternately without and
 *     with the recorder (and writing the .npt), 15 times each; the ratio of
 *     the best host CPU times (goal <= 1.3x; the medians are printed too).
 *  2. A synthetic trace of N events (default 10 million: 160 lanes), written
 *     as .npt and reopened: write time, file size, open time, and the time
 *     to fetch what a viewer draws (every lane's summary at the zoom of the
 *     whole run on 2000 pixels, then the slices of a 1/1000 window).
 *
 *   build/release/bench/trace_bench MODEL.mlir [CHIP [EVENTS]]
 * CHIP defaults to trn2 (run from the source tree, or set NPUSIM_CHIPS); MODEL "-"
 * skips part 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler/compiler.h"
#include "graph/graph.h"
#include "runtime/runtime.h"
#include "bench/synthetic_trace.h"
#include "record/record.h"
#include "traces/traces.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const struct base_diag *d, const char *what)
{
    fprintf(stderr, "trace_bench: %s\n", what);
    if (d && d->status != BASE_OK) base_diag_print(d, stderr);
    exit(1);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One run; with rec, traced and written to path.  Returns CPU seconds. */
/* CPU seconds of the traced run's phases: simulation with the hooks, finish (sort, counters), write. */
struct phases {
    double sim, finish, write;
};

static double run_once(const struct cc_plan *p, const struct chip_desc *chip, bool traced, const char *path,
                       uint64_t *records, off_t *bytes, struct phases *ph)
{
    struct base_diag d;
    base_diag_clear(&d);
    double t0 = cpu_s();
    struct rec_recorder *rec = NULL;
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    so.check_races = so.check_uninit = false;
    if (traced) {
        if (rec_recorder_create(chip, 0, &rec) != BASE_OK || rec_recorder_describe_plan(rec, p) != BASE_OK)
            die(NULL, "recorder");
        so.hooks = rec_recorder_hooks(rec);
    }
    struct sim *s = NULL;
    if (sim_create(chip, &so, &s, &d) != BASE_OK) die(&d, "sim_create");
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    if (rec) {
        ro.on_launch = rec_recorder_on_launch;
        ro.launch_user = rec;
    }
    if (rt_run(p, s, NULL, cc_plan_n_inputs(p), &ro, NULL, NULL, &d) != BASE_OK) die(&d, "rt_run");
    double t1 = cpu_s();
    if (rec) {
        struct trc_trace *t = NULL;
        *records = rec_recorder_n_records(rec);
        if (rec_recorder_finish(rec, &t) != BASE_OK) die(NULL, "finish");
        double t2 = cpu_s();
        if (trc_write_npt(t, path, &d) != BASE_OK) die(&d, "write");
        double t3 = cpu_s();
        if (ph) {
            ph->sim = t1 - t0;
            ph->finish = t2 - t1;
            ph->write = t3 - t2;
        }
        trc_trace_destroy(t);
        rec_recorder_destroy(rec);
        struct stat stt;
        if (stat(path, &stt) == 0) *bytes = stt.st_size;
    }
    sim_destroy(s);
    return cpu_s() - t0;
}

static void bench_glm(const char *model, const char *chip_name, const char *dir)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    if (chip_load(chip_name, &chip, &d) != BASE_OK) die(&d, "chip");
    struct graph_module *m = NULL;
    if (graph_parse_file(model, &m, &d) != BASE_OK || graph_verify(m, &d) != BASE_OK) die(&d, "model");
    struct cc_options co;
    cc_options_default(&co);
    struct cc_plan *p = NULL;
    if (cc_compile(m, &chip, &co, &p, &d) != BASE_OK) die(&d, "compile");
    char path[512];
    snprintf(path, sizeof path, "%s/glm.npt", dir);
    enum { R = 15 };
    double plain[R], traced[R];
    uint64_t records = 0;
    off_t bytes = 0;
    struct phases ph[R];
    double sim_traced[R], fin[R], wr[R];
    run_once(p, &chip, false, path, &records, &bytes, NULL); /* warm up */
    for (int i = 0; i < R; i++) {
        plain[i] = run_once(p, &chip, false, path, &records, &bytes, NULL);
        traced[i] = run_once(p, &chip, true, path, &records, &bytes, &ph[i]);
        sim_traced[i] = ph[i].sim;
        fin[i] = ph[i].finish;
        wr[i] = ph[i].write;
    }
    qsort(sim_traced, R, sizeof *sim_traced, cmp_d);
    qsort(fin, R, sizeof *fin, cmp_d);
    qsort(wr, R, sizeof *wr, cmp_d);
    qsort(plain, R, sizeof *plain, cmp_d);
    qsort(traced, R, sizeof *traced, cmp_d);
    printf("  %s on %s, compiled, timing-only, checks off: untraced %.3f s, traced + .npt written %.3f s "
           "(best of %d, CPU; other jobs share the machine): ratio %.2fx (goal <= 1.3x); medians %.3f / %.3f s = %.2fx; "
           "%llu records, %.2f MB .npt\n",
           model, chip_name, plain[0], traced[0], R, traced[0] / plain[0], plain[R / 2], traced[R / 2],
           traced[R / 2] / plain[R / 2], (unsigned long long)records,
           (double)bytes / 1e6);
    printf("    traced phases (best): simulation with the hooks %.3f s (%.2fx the untraced run), finish %.3f s, "
           "write .npt %.3f s\n",
           sim_traced[0], sim_traced[0] / plain[0], fin[0], wr[0]);
    unlink(path);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void bench_synthetic(uint64_t events, const char *dir)
{
    const uint32_t lanes = 160;
    const uint64_t per = events / lanes;
    double t0 = wall_s();
    struct trc_trace *t = synthetic_trace(events, lanes, 20, NULL);
    if (!t) die(NULL, "synthetic trace");
    double t_gen = wall_s() - t0;
    char path[512];
    snprintf(path, sizeof path, "%s/synthetic.npt", dir);
    struct base_diag d;
    base_diag_clear(&d);
    t0 = wall_s();
    double c0 = cpu_s();
    if (trc_write_npt(t, path, &d) != BASE_OK) die(&d, "write");
    double t_write = wall_s() - t0, c_write = cpu_s() - c0;
    uint64_t end = t->end_ps;
    trc_trace_destroy(t);
    struct stat st;
    stat(path, &st);
    t0 = wall_s();
    struct trc_file *f;
    if (trc_open(path, &f, &d) != BASE_OK) die(&d, "open");
    double t_open = wall_s() - t0;
    /* what a viewer fetches for the whole run on 2000 pixels */
    t0 = wall_s();
    uint32_t level = trc_level_for(end / 2000);
    struct trc_bucket_vec bv = {NULL, 0, 0};
    for (uint32_t l = 0; l < trc_file_n_lanes(f); l++) {
        uint32_t lo, hi;
        trc_file_lane_levels(f, l, &lo, &hi);
        if (lo > hi) continue; /* a small lane: drawn from its slices */
        uint32_t lv = level < lo ? lo : level > hi ? hi : level;
        bv.n = 0;
        if (trc_file_summary(f, l, lv, 0, end, &bv, &d) != BASE_OK) die(&d, "summary");
    }
    double t_overview = wall_s() - t0;
    t0 = wall_s();
    struct trc_slice_vec sv = {NULL, 0, 0};
    size_t n_window = 0;
    for (uint32_t l = 0; l < trc_file_n_lanes(f); l++) {
        sv.n = 0;
        if (trc_file_slices(f, l, end / 2, end / 2 + end / 1000, &sv, &d) != BASE_OK) die(&d, "slices");
        n_window += sv.n;
    }
    double t_window = wall_s() - t0;
    trc_bucket_vec_free(&bv);
    trc_slice_vec_free(&sv);
    trc_close(f);
    printf("  synthetic %llu events (%u lanes, %.1f us simulated): generated %.2f s; .npt written in %.2f s (CPU %.2f s), %.1f MB "
           "(%.1f bytes/event); reopened in %.1f ms; whole-run summaries of every lane (level %u) %.1f ms; "
           "slices of a 1/1000 window (%zu) %.1f ms\n",
           (unsigned long long)(per * lanes), lanes, (double)end * 1e-6, t_gen, t_write, c_write, (double)st.st_size / 1e6,
           (double)st.st_size / (double)(per * lanes), t_open * 1e3, level, t_overview * 1e3, n_window, t_window * 1e3);
    unlink(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trace_bench MODEL.mlir [CHIP [EVENTS]]\n");
        return 2;
    }
    const char *chip = argc > 2 ? argv[2] : "trn2";
    uint64_t events = argc > 3 ? strtoull(argv[3], NULL, 10) : 10000000ull;
    char dir[] = "/tmp/npusim_trace_bench_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (strcmp(argv[1], "-") != 0) bench_glm(argv[1], chip, dir); /* "-": the synthetic trace only */
    bench_synthetic(events, dir);
    rmdir(dir);
    return 0;
}
