/* A synthetic trace for the benchmarks (trace_bench, view_bench): `lanes`
 * lanes of `lanes_per_core` each per core (4 engines, the rest DMA queues),
 * events / lanes slices per lane from a fixed seed: back to back with
 * random gaps and lengths, 8 instruction names, 32 graph ops in runs of
 * ~500.  Returns a finalized trace (NULL on failure). */
#ifndef NPUSIM_BENCH_SYNTHETIC_TRACE_H
#define NPUSIM_BENCH_SYNTHETIC_TRACE_H

#include "base/base.h"
#include "traces/traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline struct trc_trace *synthetic_trace(uint64_t events, uint32_t lanes, uint32_t lanes_per_core,
                                                const char *model)
{
    uint64_t per = events / lanes;
    struct trc_trace *t;
    if (trc_trace_create(&t) != BASE_OK) return NULL;
    trc_trace_set_meta(t, "chip", "synthetic");
    if (model) trc_trace_set_meta(t, "model", model);
    uint32_t names[8], ops[32];
    for (int i = 0; i < 8; i++) {
        char b[32];
        snprintf(b, sizeof b, "instr%d", i);
        trc_trace_intern(t, b, &names[i]);
    }
    for (int i = 0; i < 32; i++) {
        char b[48];
        snprintf(b, sizeof b, "stablehlo.op_%d", i);
        trc_trace_intern(t, b, &ops[i]);
    }
    struct base_rng rng;
    base_rng_seed(&rng, 1);
    for (uint32_t l = 0; l < lanes; l++) {
        struct trc_lane ln;
        memset(&ln, 0, sizeof ln);
        snprintf(ln.name, sizeof ln.name, "core%u e%u", l / lanes_per_core, l % lanes_per_core);
        ln.kind = l % lanes_per_core >= 4 ? TRC_LANE_DMA : TRC_LANE_ENGINE;
        ln.core = (int32_t)(l / lanes_per_core);
        ln.sort_index = l % lanes_per_core;
        uint32_t id;
        if (trc_trace_add_lane(t, &ln, &id) != BASE_OK) goto fail;
        struct trc_lane_data *ld = &t->lanes[id];
        ld->slices = malloc(per * sizeof *ld->slices);
        if (!ld->slices) goto fail;
        ld->cap_slices = per;
        uint64_t now = 0;
        for (uint64_t k = 0; k < per; k++) {
            uint64_t r = base_rng_next(&rng);
            struct trc_slice *s = &ld->slices[k];
            memset(s, 0, sizeof *s);
            now += (r & 3) == 0 ? (r >> 2) % 2000 : 0;
            s->start_ps = now;
            s->dur_ps = 200 + (r >> 12) % 4000;
            s->kind = ln.kind == TRC_LANE_DMA ? TRC_SLICE_DMA : TRC_SLICE_INSTR;
            s->name = names[(r >> 24) % 8];
            s->op = ops[(k / 500 + (r >> 28) % 2) % 32];
            s->bytes = (r >> 32) % 65536;
            s->flops = (r >> 40) % 100000;
            s->a = k;
            now += s->dur_ps;
        }
        ld->n_slices = per;
    }
    if (trc_trace_finalize(t) != BASE_OK) goto fail;
    return t;
fail:
    trc_trace_destroy(t);
    return NULL;
}

#endif
