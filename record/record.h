/* record: what a simulation did, recorded as a trace (traces/).
 *
 * A recorder for one chip is fed by the simulator's hooks (sim/sim.h struct
 * sim_hooks) and the runtime's launch and collective callbacks
 * (runtime/runtime.h); rec_recorder_finish hands over a struct trc_trace that
 * traces/ writes as .npt or Perfetto JSON.  traces/ itself knows only the file
 * formats; this module is the glue between the simulator and them.
 */
#ifndef NPUSIM_RECORD_RECORD_H
#define NPUSIM_RECORD_RECORD_H

#include "chip/chip.h"
#include "sim/sim.h"
#include "traces/traces.h"

struct rec_recorder;

/* A recorder for one chip (chip index `chip_index`: the process it lands
 * in).  The chip description is copied.  A multi-chip run records each
 * chip with its own recorder (rt_options.chip_users) and merges their
 * traces (trc_trace_merge): one process per chip. */
enum base_status rec_recorder_create(const struct chip_desc *chip, uint32_t chip_index, struct rec_recorder **out);
void rec_recorder_destroy(struct rec_recorder *r);
/* The hooks to pass in sim_options.hooks (they point at r). */
const struct sim_hooks *rec_recorder_hooks(struct rec_recorder *r);
/* Names graph op `id` (the tag of the instructions it produced): its name,
 * its position in the .mlir and its whole location chain (graph_loc.chain;
 * NULL: none), which its slices carry (trc_slice.src). */
enum base_status rec_recorder_set_op(struct rec_recorder *r, uint32_t id, const char *name, const char *file, int line,
                                     int col, const char *chain);
/* A kernel launch starts at start_ps, after gap_ps of host dispatch or
 * launch gap (a `dispatch` slice on the host lane): records until the next
 * launch belong to it. */
void rec_recorder_launch(struct rec_recorder *r, uint32_t kernel_index, const char *kernel_name, uint32_t root_op,
                         uint64_t start_ps, uint64_t gap_ps);
enum base_status rec_recorder_set_meta(struct rec_recorder *r, const char *key, const char *value);
/* Closes the last launch, derives the counters (HBM GB/s per chip,
 * utilisation % per engine kind per core) and finalizes; the caller owns
 * *out (trc_trace_destroy).  The recorder is empty afterwards (its lanes
 * kept; meta, op names and the plan forgotten: describe it again to record
 * another run).  A hook that ran out of memory makes this ERR_NOMEM. */
enum base_status rec_recorder_finish(struct rec_recorder *r, struct trc_trace **out);
uint64_t rec_recorder_n_records(const struct rec_recorder *r);

/* Runtime glue (record/plan.c): names every graph op of the plan's module
 * (borrowed: it must outlive the recording) and records the mode.  Then
 * pass rec_recorder_on_launch as rt_options.on_launch with the recorder as
 * launch_user: it names each launch after the plan's kernel. */
struct cc_plan;
enum base_status rec_recorder_describe_plan(struct rec_recorder *r, const struct cc_plan *plan);
void rec_recorder_on_launch(void *user, uint32_t kernel, uint64_t start_ps, uint64_t gap_ps);
/* Runtime glue (record/collective.c): rt_options.on_collective with the
 * recorder as collective_user.  A `collective` slice on the chip's
 * `collectives` lane, and a `link` slice on one lane per link the
 * recorder's chip sends on (its outgoing torus links, its switch uplink,
 * its DCN egress) that the collective moved bytes over, with those bytes
 * (link_bytes: topo->n_links entries, the interconnect model's per-link
 * totals; NULL: no link lanes).  The exposed time is derived at
 * rec_recorder_finish from the kernel and host lanes (the runtime knows it
 * only when the collective ends).  Meta: `topology`, and `gbps.<lane>`
 * for each link lane. */
struct rt_collective;
struct icn_topo;
void rec_recorder_on_collective(void *user, const struct rt_collective *c, const struct icn_topo *topo,
                                const double *link_bytes);

#endif
