/* Helpers for the trace tests: a small real run recorded through the
 * simulator hooks, a synthetic trace, temporary files. */
#ifndef NPUSIM_TESTS_TRACE_TEST_UTIL_H
#define NPUSIM_TESTS_TRACE_TEST_UTIL_H

#include "tests/harness.h"

#include "compiler/compiler.h"
#include "graph/graph.h"
#include "runtime/runtime.h"
#include "record/record.h"
#include "traces/traces.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* A matmul then an exponential, run op by op (eager: two kernels, each
 * after a host dispatch). */
static const char k_small_model[] =
    "func.func @main(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {\n"
    "  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16>\n"
    "  %e = stablehlo.exponential %c : tensor<256x256xbf16>\n"
    "  return %e : tensor<256x256xbf16>\n"
    "}\n";

struct small_run {
    struct trc_trace *t;
    uint64_t total_ps, device_ps, dispatch_ps, hbm_bytes;
    uint32_t n_engines;
    struct sim_engine_stats eng[CHIP_MAX_ENGINES * 8];
    uint64_t launches;
};

/* Plan p run timing-only on a new chip, recorded by rec as `npusim run
 * --trace` wires it (engines, kernels, collectives); its report in *rep and
 * the chip in *sim (the caller destroys it). */
static inline void recorded_run(const struct chip_desc *chip, const struct cc_plan *p, struct rec_recorder *rec,
                                struct rt_report *rep, struct sim **sim)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    so.hooks = rec_recorder_hooks(rec);
    assert_int_equal(sim_create(chip, &so, sim, &d), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    ro.on_launch = rec_recorder_on_launch;
    ro.launch_user = rec;
    ro.on_collective = rec_recorder_on_collective;
    ro.collective_user = rec;
    struct base_tensor **outs = calloc((size_t)cc_plan_n_outputs(p) + 1, sizeof *outs);
    assert_non_null(outs);
    if (rt_run(p, *sim, NULL, cc_plan_n_inputs(p), &ro, outs, rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run on %s", chip->name);
    }
    free(outs);
}

static inline void small_run_do(struct small_run *out)
{
    memset(out, 0, sizeof *out);
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    if (chip_load("trn2", &chip, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load trn2");
    }
    struct graph_module *m = NULL;
    struct graph_parse_options po;
    memset(&po, 0, sizeof po);
    po.path = "small.mlir";
    if (graph_parse(k_small_model, strlen(k_small_model), &po, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("parse");
    }
    struct cc_options co;
    cc_options_default(&co);
    co.mode = CC_MODE_EAGER;
    struct cc_plan *p = NULL;
    if (cc_compile(m, &chip, &co, &p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("compile");
    }
    struct rec_recorder *rec = NULL;
    assert_int_equal(rec_recorder_create(&chip, 0, &rec), BASE_OK);
    assert_int_equal(rec_recorder_describe_plan(rec, p), BASE_OK);
    assert_int_equal(rec_recorder_set_meta(rec, "seed", "1"), BASE_OK);
    struct sim *s = NULL;
    struct rt_report rep;
    recorded_run(&chip, p, rec, &rep, &s);
    const struct sim_stats *st = sim_get_stats(s);
    out->total_ps = rep.total_ps;
    out->device_ps = rep.device_ps;
    out->dispatch_ps = rep.dispatch_ps;
    out->launches = rep.launches;
    out->hbm_bytes = st->hbm_bytes;
    out->n_engines = st->n_engines;
    assert_true(st->n_engines <= ARRAY_LEN(out->eng));
    memcpy(out->eng, st->engines, st->n_engines * sizeof *st->engines);
    assert_int_equal(rec_recorder_finish(rec, &out->t), BASE_OK);
    rt_report_free(&rep);
    rec_recorder_destroy(rec);
    sim_destroy(s);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* A temporary directory and files in it. */
struct tmpdir {
    char dir[64];
};
static inline void tmpdir_make(struct tmpdir *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/npusim_trc_XXXXXX");
    assert_non_null(mkdtemp(t->dir));
}
static inline const char *tmpdir_path(const struct tmpdir *t, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", t->dir, name);
    return buf;
}
static inline void tmpdir_remove(struct tmpdir *t, const char *const *names, size_t n)
{
    char p[256];
    for (size_t i = 0; i < n; i++) unlink(tmpdir_path(t, names[i], p, sizeof p));
    rmdir(t->dir);
}

static inline uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)sz + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)sz, f), (size_t)sz);
    fclose(f);
    *n = (size_t)sz;
    return b;
}

static inline void write_all(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* A synthetic trace: n_lanes lanes of back-to-back slices with random
 * gaps and lengths (some zero-length), named after a few ops; one counter
 * lane; flows between lanes.  Finalized. */
static inline struct trc_trace *synthetic_trace(uint32_t n_lanes, size_t per_lane, uint64_t seed)
{
    struct trc_trace *t;
    assert_int_equal(trc_trace_create(&t), BASE_OK);
    assert_int_equal(trc_trace_set_meta(t, "chip", "synthetic"), BASE_OK);
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    uint32_t names[4], ops[6], locs[6];
    const char *nm[4] = {"matmul", "activate.exp", "dma hbm->sp", "wait s3"};
    for (int i = 0; i < 4; i++) assert_int_equal(trc_trace_intern(t, nm[i], &names[i]), BASE_OK);
    for (int i = 0; i < 6; i++) {
        char b[64];
        snprintf(b, sizeof b, "stablehlo.op%d", i);
        assert_int_equal(trc_trace_intern(t, b, &ops[i]), BASE_OK);
        snprintf(b, sizeof b, "model.mlir:%d:5", 10 + i);
        assert_int_equal(trc_trace_intern(t, b, &locs[i]), BASE_OK);
    }
    for (uint32_t l = 0; l < n_lanes; l++) {
        struct trc_lane ln;
        memset(&ln, 0, sizeof ln);
        snprintf(ln.name, sizeof ln.name, "core%u e%u", l / 4, l % 4);
        ln.kind = l % 4 == 3 ? TRC_LANE_DMA : TRC_LANE_ENGINE;
        ln.core = (int32_t)(l / 4);
        ln.sort_index = l;
        assert_int_equal(trc_trace_add_lane(t, &ln, NULL), BASE_OK);
        uint64_t now = base_rng_next(&rng) % 1000;
        for (size_t k = 0; k < per_lane; k++) {
            struct trc_slice s;
            memset(&s, 0, sizeof s);
            uint64_t r = base_rng_next(&rng);
            now += r % 4 == 0 ? (r >> 8) % 5000 : 0;
            s.start_ps = now;
            s.dur_ps = (r >> 20) % 16 == 0 ? 0 : 100 + (r >> 24) % 3000;
            s.kind = (r >> 30) % 8 == 0 ? TRC_SLICE_WAIT : ln.kind == TRC_LANE_DMA ? TRC_SLICE_DMA : TRC_SLICE_INSTR;
            s.name = names[s.kind == TRC_SLICE_WAIT ? 3 : s.kind == TRC_SLICE_DMA ? 2 : (r >> 33) % 2];
            int o = (int)((r >> 36) % 6);
            s.op = ops[o];
            s.loc = locs[o];
            s.bytes = (r >> 40) % 65536;
            s.flops = s.kind == TRC_SLICE_INSTR ? (r >> 44) % 100000 : 0;
            s.a = k;
            s.b = (r >> 50) % 7;
            s.c = (r >> 53) % 11;
            assert_int_equal(trc_trace_add_slice(t, l, &s), BASE_OK);
            if ((r >> 56) % 16 == 0 && s.dur_ps > 2) {
                /* an instruction that completed while this one occupied the
                 * engine: zero-length, nested (as the simulator reports it) */
                struct trc_slice z = s;
                z.start_ps = s.start_ps + s.dur_ps / 2;
                z.dur_ps = 0;
                z.kind = TRC_SLICE_INSTR;
                z.name = names[0];
                z.bytes = 7;
                assert_int_equal(trc_trace_add_slice(t, l, &z), BASE_OK);
            }
            now += s.dur_ps;
        }
    }
    struct trc_lane cl;
    memset(&cl, 0, sizeof cl);
    snprintf(cl.name, sizeof cl.name, "hbm GB/s");
    snprintf(cl.unit, sizeof cl.unit, "GB/s");
    cl.kind = TRC_LANE_COUNTER;
    cl.core = -1;
    cl.sort_index = n_lanes;
    uint32_t cid;
    assert_int_equal(trc_trace_add_lane(t, &cl, &cid), BASE_OK);
    for (size_t k = 0; k < per_lane; k++)
        assert_int_equal(trc_trace_add_sample(t, cid, k * 4096, (double)(base_rng_next(&rng) % 3000) / 7.0), BASE_OK);
    for (size_t k = 0; k + 1 < per_lane && n_lanes > 1; k += 16) {
        const struct trc_slice *a = &t->lanes[3 % n_lanes].slices[k], *b = &t->lanes[0].slices[k + 1];
        struct trc_flow f = {3 % n_lanes, 0, a->start_ps, b->start_ps > a->start_ps ? b->start_ps : a->start_ps};
        assert_int_equal(trc_trace_add_flow(t, &f), BASE_OK);
    }
    assert_int_equal(trc_trace_finalize(t), BASE_OK);
    return t;
}

#endif
