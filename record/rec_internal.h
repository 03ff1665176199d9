/* Private to record/: the recorder's state (recorder.c, plan.c, collective.c). */
#ifndef NPUSIM_RECORD_INTERNAL_H
#define NPUSIM_RECORD_INTERNAL_H

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#define REC_NAME_CACHE_BITS 10
#define REC_SIG_RING 4
#define REC_COUNTER_SAMPLES 4096

struct rec_op_names {
    uint32_t op, loc, src; /* string ids */
};

struct rec_sig {
    uint64_t visible_ps, start_ps;
    uint64_t launch;
    uint32_t lane;
    bool dma;
};
/* The last signals of one semaphore of one core. */
struct rec_sig_ring {
    struct rec_sig e[REC_SIG_RING];
    uint32_t head;
};

struct rec_recorder {
    struct chip_desc chip;
    uint32_t chip_index;
    struct trc_trace *t;
    struct sim_hooks hooks;
    uint32_t kernels_lane, host_lane;
    struct rec_op_names *ops; /* by graph op id (= instruction tag) */
    size_t n_ops;
    /* instruction names by (op, func, func2) */
    uint32_t name_key[1u << REC_NAME_CACHE_BITS], name_id[1u << REC_NAME_CACHE_BITS];
    uint32_t name_used;
    uint32_t dma_name[ISA_SPACE_COUNT][ISA_SPACE_COUNT];
    uint32_t wait_name[ISA_MAX_SEMAPHORES];
    uint32_t dispatch_name;
    /* the open launch */
    bool k_open;
    uint32_t k_name, k_op, k_loc, k_src, k_index;
    uint64_t k_start, k_end;
    uint64_t k_hbm_bytes, k_sim_flops; /* of its instructions and transfers, as the simulator counts them */
    uint64_t k_model_flops;            /* the plan's FLOPs of the kernel (cc_kernel_info.flops); UINT64_MAX: unknown */
    uint64_t last_end; /* of the previous launch (0 before the first) */
    uint64_t launches;
    struct rec_sig_ring *sig; /* [core][sem] */
    /* on-chip footprint of the open launch per core: one past the highest
     * scratchpad / accumulator byte any of its instructions touched
     * ([core][0] sp, [core][1] acc); closed launches' footprints: occ */
    uint64_t (*k_foot)[2];
    struct rec_occ {
        uint64_t start_ps, end_ps;
        uint32_t core;
        uint64_t sp, acc;
    } *occ;
    size_t n_occ, cap_occ;
    bool oom;
    uint64_t n_records;
    const struct cc_plan *plan; /* rec_recorder_describe_plan */
    /* collectives (collective.c): lanes made on first use; a collective
     * that starts before the previous one on a lane ends goes on another
     * lane of the same link (the runtime runs one at a time: never so far) */
    struct rec_track {
        uint32_t lane;
        uint32_t link;   /* link lanes: the link id; collectives: UINT32_MAX */
        uint64_t end_ps; /* of its latest slice */
    } *tracks;
    size_t n_tracks, cap_tracks;
    uint64_t n_colls;
};

/* collective.c: at rec_recorder_finish (before the counters), gives the
 * collective and link lanes their sort indices from *sort on and sets each
 * collective's exposed time; reset forgets them (the lanes go with the trace). */
enum base_status rec_collectives_finish(struct rec_recorder *r, uint32_t *sort);
void rec_collectives_reset(struct rec_recorder *r);

#endif
