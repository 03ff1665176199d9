/* interconnect: chip-to-chip links, topologies, routing, a flow network with
 * max-min fair link sharing, and collective algorithms as schedules of
 * transfers (docs/interconnect.md has the model, the formulas and what is
 * assumed).
 *
 * - struct icn_topo: the machine's links.  Tori (ring = 1-D torus, 2-D, 3-D;
 *   wrap links only where the wrap rule allows), a switched fabric (each chip
 *   one uplink to a non-blocking switch) and several slices joined by a
 *   data-centre network (DCN).  Every physical link direction is one
 *   resource with a bandwidth and a latency.  Built from a chip description's
 *   [links] plus a shape ("16", "4x4", "2x16x16", "ultraserver",
 *   "4 slices of 16x16"), or directly from named parameters.
 * - icn_route: deterministic routes (dimension-ordered on tori, shortest
 *   direction, ties go the + way; uplink+downlink on a switch; the two
 *   chips' DCN ports between slices).
 * - struct icn_net: transfers (flows) over routes on the event kernel
 *   (event/event.h).  Active flows share every link max-min fairly
 *   (progressive filling over multi-link paths), recomputed when flows start
 *   or end (batched per instant).  A flow of B bytes over a route of total
 *   latency L completes at L + its bandwidth phase (B / rate while rates
 *   hold).  The flow pool is allocated at init; nothing is allocated per
 *   flow.
 * - struct icn_plan: a collective as transfers with dependencies, for
 *   StableHLO replica groups; algorithms ring, bidirectional ring, every
 *   torus axis at once (a part of the buffer per axis, the parts' axis
 *   orders rotated), hierarchical (slices over the DCN), tree and direct; a
 *   chooser; alpha-beta closed forms; the chip's launch cost per collective.
 * - ranks: a chip may expose several ranks (logical devices); ids are
 *   ranks, and two ranks of one chip talk over on-chip paths.
 * - struct icn_exec: runs a plan on a network inside the caller's scheduler
 *   (the simulator's); icn_run does it standalone and reports the time and
 *   link utilisation.
 */
#ifndef NPUSIM_INTERCONNECT_H
#define NPUSIM_INTERCONNECT_H

#include "base/base.h"
#include "chip/chip.h"
#include "event/event.h"
#include "graph/graph.h"

#define ICN_MAX_DIMS 3
#define ICN_NONE UINT32_MAX

/* ---------------------------------------------------------------- topology */

enum icn_topo_kind { ICN_TOPO_TORUS, ICN_TOPO_SWITCH };

/* Wrap rule for the torus axes.  AUTO follows the chip (tpu.md §4):
 * TPU torus2d chips wrap an axis only when it spans the pod's axis
 * (sqrt(domain_chips): 16 on v5e/v6e); TPU torus3d chips wrap every axis only
 * when all axes are multiples of 4 (full 4x4x4 cubes), else none; Neuron
 * chips (fixed instance wiring) wrap every axis of 3 or more chips. */
enum icn_wrap { ICN_WRAP_AUTO, ICN_WRAP_ALL, ICN_WRAP_NONE };

/* Named data-centre network parameters (per chip, per direction).  A chip
 * file gives them in [links] (dcn_bytes_per_ns, dcn_latency_ns); topologies
 * built from named parameters, and chips whose file does not, take
 * icn_dcn_default. */
struct icn_dcn {
    double bytes_per_ns; /* one chip's share of its host's NICs, per direction */
    uint64_t latency_ps; /* one DCN traversal (NIC to NIC) */
};
/* 100 Gb/s per chip (v6e, TPU7x [S5]) = 12.5 B/ns; 10 us (EST). */
#define ICN_DCN_DEFAULT_BYTES_PER_NS 12.5
#define ICN_DCN_DEFAULT_LATENCY_PS UINT64_C(10000000)
/* trn2 UltraServer: the 4 instances' same-coordinate chips form a ring (Z).
 * EST: 256 GB/s inter-instance per chip [S11] / 2 links / 2 directions. */
#define ICN_TRN2_US_Z_BYTES_PER_NS 64.0

struct icn_topo {
    enum icn_topo_kind kind;
    /* one slice: a torus of dims[0] x dims[1] x dims[2] (unused dims 1), or a switch of slice_chips */
    uint32_t ndims;
    uint32_t dims[ICN_MAX_DIMS];
    bool wrap[ICN_MAX_DIMS];
    double dim_bytes_per_ns[ICN_MAX_DIMS]; /* per link, per direction */
    uint64_t dim_latency_ps[ICN_MAX_DIMS]; /* per hop */
    double switch_bytes_per_ns;            /* uplink and downlink, per direction */
    uint64_t switch_latency_ps;            /* one switched transfer */
    uint32_t slice_chips;
    uint32_t slices;                       /* > 1: slices joined by the DCN */
    struct icn_dcn dcn;
    uint32_t n_chips;                      /* slices * slice_chips; chip id = slice * slice_chips + local id */
    /* Ranks (logical devices) per chip.  Every id a collective, a route or
     * the network takes is a rank: rank r on chip r / ranks_per_chip (1:
     * ranks are chips).  Two ranks of one chip talk over the chip's own
     * memory: each rank has an on-chip egress and ingress path of
     * local_bytes_per_ns, and a transfer between them costs local_latency_ps,
     * never the links. */
    uint32_t ranks_per_chip;
    uint32_t n_ranks;                      /* n_chips * ranks_per_chip */
    double local_bytes_per_ns;
    uint64_t local_latency_ps;
    /* The software cost of one collective (the chip file's
     * collective_launch_ns): its first transfers start this late, in the
     * schedules and in the closed forms. */
    uint64_t launch_ps;
    uint32_t n_links;                      /* resources: see icn_link_info */
    uint32_t max_hops;                     /* longest route */
    char desc[96];                         /* "4x4 torus (wrap x y)" for reports */
};

/* A torus slice (ndims 1..3) of the given dims, links of bytes_per_ns each
 * way and latency_ps per hop; wrap per axis.  Axes of 1 chip are dropped. */
enum base_status icn_topo_torus(struct icn_topo *t, uint32_t ndims, const uint32_t *dims, const bool *wrap,
                                double bytes_per_ns, uint64_t latency_ps);
/* n chips, each with one uplink of bytes_per_ns each way to a non-blocking switch. */
enum base_status icn_topo_switch(struct icn_topo *t, uint32_t n, double bytes_per_ns, uint64_t latency_ps);
/* Replicates the slice `slices` times, joined by the DCN. */
enum base_status icn_topo_multislice(struct icn_topo *t, uint32_t slices, const struct icn_dcn *dcn);
/* Exposes ranks_per_chip ranks per chip (>= 1), each with an on-chip path of
 * local_bytes_per_ns (> 0 when ranks_per_chip > 1) each way to the other
 * ranks of its chip, latency local_latency_ps.  Call after the slices. */
enum base_status icn_topo_ranks(struct icn_topo *t, uint32_t ranks_per_chip, double local_bytes_per_ns,
                                uint64_t local_latency_ps);

/* Builds from a chip's [links] and a shape:
 *   "16" (a ring), "4x4", "2x16x16", "ultraserver" (trn2: 4x4 instances in a
 *   ring of 4, Z links at ICN_TRN2_US_Z_BYTES_PER_NS), "switch:64" or "64" on
 *   a switch chip, and "N slices of SHAPE".  dcn NULL: the chip file's
 *   dcn_bytes_per_ns / dcn_latency_ns (icn_dcn_default where it gives none).
 *   The chip's ranks_per_chip ranks per chip, each on-chip path at
 *   icn_local_bytes_per_ns, and its collective_launch_ns.  Errors name the
 *   rule broken. */
enum base_status icn_topo_from_chip(const struct chip_desc *chip, const char *shape, enum icn_wrap wrap,
                                    const struct icn_dcn *dcn, struct icn_topo *t, struct base_diag *diag);
/* The same within lim (NULL: the defaults): at most `chips` ranks (slices x
 * chips x ranks per chip), checked before anything is built. */
enum base_status icn_topo_from_chip_lim(const struct chip_desc *chip, const char *shape, enum icn_wrap wrap,
                                        const struct icn_dcn *dcn, const struct base_limits *lim, struct icn_topo *t,
                                        struct base_diag *diag);
struct icn_dcn icn_dcn_default(void);
/* A rank's on-chip path to another rank of its chip, per direction: EST, the
 * chip's HBM bandwidth shared by its ranks, each byte read once and written
 * once: hbm / ranks_per_chip / 2 (a rank view's hbm is already its share). */
double icn_local_bytes_per_ns(const struct chip_desc *chip);

/* Coordinates of rank r's chip within its slice (unused axes 0); with one
 * rank per chip, of chip r. */
void icn_chip_coords(const struct icn_topo *t, uint32_t rank, uint32_t *slice, uint32_t coords[ICN_MAX_DIMS]);
/* The chip at these coordinates (its first rank is chip * ranks_per_chip). */
uint32_t icn_chip_id(const struct icn_topo *t, uint32_t slice, const uint32_t coords[ICN_MAX_DIMS]);
static inline uint32_t icn_rank_chip(const struct icn_topo *t, uint32_t rank) { return rank / t->ranks_per_chip; }

enum icn_link_class { ICN_LINK_ICI, ICN_LINK_SWITCH, ICN_LINK_DCN, ICN_LINK_LOCAL };
struct icn_link_info {
    bool present;             /* false: a wrap link the rule leaves out */
    enum icn_link_class cls;
    uint32_t from, to;        /* chips (for switch and DCN links: the chip and ICN_NONE) */
    uint32_t dim;             /* torus axis */
    int dir;                  /* +1 / -1 on a torus; uplink/egress +1, downlink/ingress -1 */
    double bytes_per_ns;
    uint64_t latency_ps;
};
/* Link ids: torus chip c, axis d, direction + (0) or - (1): c*2*ndims + 2d + dir;
 * switch: 2c (up), 2c+1 (down); after the slices' links, DCN: base + 2c
 * (egress), base + 2c + 1 (ingress); after those, with several ranks per
 * chip, each rank r's on-chip path: lbase + 2r (out), lbase + 2r + 1 (in). */
void icn_link_get(const struct icn_topo *t, uint32_t link, struct icn_link_info *out);
/* "c5 x+ -> c6", "c3 up", "c9 dcn out", "r7 local in" */
void icn_link_name(const struct icn_topo *t, uint32_t link, char *buf, size_t cap);

/* The route from rank src to rank dst: link ids into links[] (cap >=
 * t->max_hops); returns the hop count (0 for src == dst) and the summed
 * latency.  Ranks of one chip: their on-chip paths. */
uint32_t icn_route(const struct icn_topo *t, uint32_t src, uint32_t dst, uint32_t *links, uint64_t *latency_ps);
/* Hops on the torus route; 1 across a switch, the DCN or a chip; 0 for src == dst. */
uint32_t icn_hops(const struct icn_topo *t, uint32_t src, uint32_t dst);

/* ----------------------------------------------------------------- network */

struct icn_net;
struct icn_flow;
/* Called from an event when a transfer has fully arrived; the flow's slot
 * is already free again, so the callback may start new transfers. */
typedef void (*icn_done_fn)(struct icn_net *net, void *user, uint64_t tag);
/* Optional observer (traces): called on each arrival, before done(), with
 * the flow still filled in (src, dst, bytes, send_ps, data_end_ps; now is
 * the arrival).  Must not start transfers. */
typedef void (*icn_observe_fn)(void *user, const struct icn_flow *f);

struct icn_link_state {
    double bytes_per_ns;
    uint64_t latency_ps;
    uint32_t n_flows;      /* flows in their bandwidth phase on it */
    uint32_t active_pos;   /* index in the active-link list, ICN_NONE when idle */
    double load;           /* sum of its flows' rates */
    double rem;            /* scratch for progressive filling */
    uint32_t unfrozen;     /* scratch */
    bool bottleneck;       /* scratch */
    double bytes;          /* moved through it so far */
    uint64_t busy_ps;      /* time with at least one flow */
};

enum icn_flow_phase { ICN_FLOW_FREE, ICN_FLOW_WAIT, ICN_FLOW_DATA, ICN_FLOW_TAIL };

struct icn_flow {
    struct event ev;   /* WAIT (the start delay) and TAIL (route latency) */
    struct icn_net *net;
    enum icn_flow_phase phase;
    uint32_t *links;       /* into the net's route pool */
    uint32_t n_links;
    uint64_t latency_ps;
    double left_bytes;
    double cap_bytes_per_ns; /* 0: none */
    double rate_bytes_per_ns;
    uint64_t finish_ps;    /* of the bandwidth phase, projected at the last recompute */
    uint32_t active_pos;
    uint32_t next_free;
    bool frozen;           /* scratch */
    icn_done_fn done;
    void *user;
    uint64_t tag;
    /* for observers */
    uint32_t src, dst;
    double bytes;
    uint64_t send_ps;      /* start of the bandwidth phase (after the delay) */
    uint64_t data_end_ps;  /* its end; arrival = data_end_ps + latency_ps */
};

/* The latest time a collective may end (2^62 ps, 53 days): icn_run returns
 * ERR_LIMIT past it (times saturate rather than wrap). */
#define ICN_MAX_TIME_PS (UINT64_C(1) << 62)

struct icn_net {
    const struct icn_topo *topo;
    struct event_sched *sched;
    struct event ev;            /* the next bandwidth completion, or a batched recompute now */
    struct icn_link_state *links;   /* topo->n_links */
    uint32_t *active_links, n_active_links;
    struct icn_flow *flows;         /* the pool */
    uint32_t *route_pool;           /* max_flows * max_hops */
    uint32_t *active, n_active;     /* flows in their bandwidth phase */
    uint32_t max_flows, free_head, n_busy;
    uint64_t last_ps;
    bool dirty;
    /* statistics */
    uint64_t flows_started, recomputes;
    double bytes_sent;
    icn_observe_fn observe;         /* NULL: none */
    void *observe_user;
};

/* A network over topo (borrowed, must outlive it) for at most max_flows
 * transfers at once.  The scheduler needs room for max_flows + 1 events.
 * priority: of the net's recompute/completion event; the flows' own events
 * (start delay, arrival) use priority - 1, so with a large number (200)
 * every transfer started at one instant shares one recompute.  ERR_NOMEM.
 *
 * Integration (the simulator): one net per system on the system's
 * scheduler; a DMA to another chip is icn_net_send with cap_bytes_per_ns =
 * the DMA queue's rate and its completion as done(); a collective op is an
 * icn_plan run by an icn_exec started when the op issues.  Link bytes and
 * busy time (net->links[]) feed the report. */
enum base_status icn_net_init(struct icn_net *net, const struct icn_topo *topo, struct event_sched *sched,
                              uint32_t max_flows, uint8_t priority);
void icn_net_deinit(struct icn_net *net);
/* Starts a transfer of `bytes` from src to dst after delay_ps (local work
 * such as a reduction), capped at cap_bytes_per_ns (0: none).  src == dst or
 * bytes == 0 completes after the delay (and the route latency).
 * done(net, user, tag) fires on arrival.  ERR_LIMIT when max_flows are in
 * flight, ERR_INVALID for a bad chip id. */
enum base_status icn_net_send(struct icn_net *net, uint32_t src, uint32_t dst, double bytes, uint64_t delay_ps,
                              double cap_bytes_per_ns, icn_done_fn done, void *user, uint64_t tag);
static inline bool icn_net_idle(const struct icn_net *net) { return net->n_busy == 0; }

/* ------------------------------------------------------------- collectives */

/* X(ENUM, "name", busbw factor kind: 0 = 2(n-1)/n, 1 = (n-1)/n, 2 = 1).
 * Each row is named after the stablehlo op it runs (GRAPH_OP_ENUM,
 * "stablehlo.name"): icn_coll_of_op is generated from this list, so it is
 * the set of collectives the compiler lowers and the runtime runs. */
#define ICN_COLLECTIVES(X)                          \
    X(ALL_REDUCE, "all_reduce", 0)                  \
    X(ALL_GATHER, "all_gather", 1)                  \
    X(REDUCE_SCATTER, "reduce_scatter", 1)          \
    X(ALL_TO_ALL, "all_to_all", 1)                  \
    X(COLLECTIVE_PERMUTE, "collective_permute", 2)  \
    X(COLLECTIVE_BROADCAST, "collective_broadcast", 2)

enum icn_coll {
#define X(e, name, f) ICN_COLL_##e,
    ICN_COLLECTIVES(X)
#undef X
    ICN_COLL_COUNT
};

/* X(ENUM, "name") */
#define ICN_ALGORITHMS(X)    \
    X(AUTO, "auto")          \
    X(RING, "ring")          \
    X(BIRING, "biring")      \
    X(TORUS, "torus")        \
    X(HIER, "hierarchical")  \
    X(TREE, "tree")          \
    X(DIRECT, "direct")

enum icn_alg {
#define X(e, name) ICN_ALG_##e,
    ICN_ALGORITHMS(X)
#undef X
    ICN_ALG_COUNT
};

const char *icn_coll_name(enum icn_coll c);
const char *icn_alg_name(enum icn_alg a);
bool icn_coll_parse(const char *s, enum icn_coll *out);
bool icn_alg_parse(const char *s, enum icn_alg *out);
/* The collective graph op k runs as, in *out (out may be NULL); false for
 * every other op, collective or not (collective_reduce, cross-replica-sum). */
bool icn_coll_of_op(enum graph_op_kind k, enum icn_coll *out);
/* NCCL's bus-bandwidth factor: busbw = bytes / time * factor. */
double icn_busbw_factor(enum icn_coll c, uint32_t group_size);

/* What to run.  bytes, per chip: all_reduce the buffer; all_gather the
 * gathered output; reduce_scatter the input; all_to_all the send buffer;
 * collective_permute and collective_broadcast the operand. */
struct icn_coll_desc {
    enum icn_coll coll;
    enum icn_alg alg;           /* AUTO: icn_choose */
    double bytes;
    /* replica groups as StableHLO gives them: n_groups x group_size chip ids,
     * row-major; NULL: one group of every chip in id order */
    const uint32_t *groups;
    uint32_t n_groups, group_size;
    /* collective_permute: n_pairs (source, target) pairs; the groups are unused */
    const uint32_t *pairs;
    uint32_t n_pairs;
    double reduce_bytes_per_ns; /* local reduction speed (bytes of one operand); 0: free (default) */
    uint32_t chunks;            /* pipelined broadcast chunks; 0: auto */
    bool representative;        /* simulate one group and one ring per phase; infer the rest (symmetry) */
};

/* One transfer of the schedule; deps are indices into the plan's dep array. */
struct icn_xfer {
    uint32_t src, dst;
    double bytes;
    uint64_t delay_ps;     /* local work after the deps, before sending (reduction) */
    uint32_t dep_first, n_deps;
};

struct icn_plan {
    enum icn_coll coll;
    enum icn_alg alg;
    uint32_t group_size, n_groups;
    struct icn_xfer *xfers;
    uint32_t n_xfers, cap_xfers;
    uint32_t *deps;
    uint32_t n_deps, cap_deps;
    /* symmetry: how much was built vs the whole collective */
    uint32_t groups_simulated;
    uint32_t chips_simulated;   /* distinct chips that send or receive in the plan */
    bool inferred;              /* some groups or rings were left out (timing by symmetry) */
    bool rep_refused;           /* representative asked, but the groups share links: all simulated */
    double bytes;               /* desc->bytes */
};

/* The algorithm for a collective on a topology (docs/interconnect.md):
 * small messages (alpha-bound) direct or tree, large ones the bandwidth-
 * optimal ring family that the topology and the groups allow. */
enum icn_alg icn_choose(const struct icn_topo *t, const struct icn_coll_desc *d);
/* Builds the schedule (d->alg AUTO: the chooser's).  ERR_INVALID (with a
 * diag) for groups that are not a partition of chip ids, an algorithm the
 * collective or the groups do not support, ... */
enum base_status icn_plan_build(const struct icn_topo *t, const struct icn_coll_desc *d, struct icn_plan *p,
                                struct base_diag *diag);
void icn_plan_deinit(struct icn_plan *p);
/* The alpha-beta closed form of the algorithm, in ps (formulas:
 * docs/interconnect.md); alg AUTO: the chooser's.  < 0 when there is none. */
double icn_closed_form_ps(const struct icn_topo *t, const struct icn_coll_desc *d, enum icn_alg alg);

/* ------------------------------------------------------------------ runner */

struct icn_exec;
typedef void (*icn_exec_done_fn)(struct icn_exec *x, void *user);

struct icn_exec {
    struct icn_net *net;
    const struct icn_plan *plan;
    uint32_t *pending;    /* deps left per transfer */
    uint32_t *succ_first; /* n_xfers + 1 */
    uint32_t *succ;
    uint32_t *waitq;      /* ready transfers waiting for a free flow slot (ring buffer) */
    uint32_t wq_head, wq_n;
    uint32_t n_done;
    uint64_t start_ps, end_ps;
    icn_exec_done_fn done;
    void *user;
    enum base_status status; /* first error while running */
};

/* Prepares to run plan (borrowed) on net.  ERR_NOMEM. */
enum base_status icn_exec_init(struct icn_exec *x, struct icn_net *net, const struct icn_plan *plan,
                               icn_exec_done_fn done, void *user);
void icn_exec_deinit(struct icn_exec *x);
/* Starts the transfers without dependencies now (event_sched_now); the rest
 * follow from events; done(x, user) fires when the last one arrives. */
enum base_status icn_exec_start(struct icn_exec *x);
static inline bool icn_exec_finished(const struct icn_exec *x) { return x->n_done == x->plan->n_xfers; }

struct icn_run_result {
    uint64_t time_ps;
    double bytes_moved;       /* sum over transfers */
    uint32_t links_used;
    double link_util_max;     /* bytes / (bandwidth x time), over the links used */
    double link_util_mean;
    double link_util_ici, link_util_dcn; /* mean over used links of that class (0 if none) */
    uint64_t flows, recomputes, events;
};
/* Runs plans (n >= 1, concurrently, all starting at 0) on a fresh network
 * over t.  links_out (optional, t->n_links entries): bytes per link. */
enum base_status icn_run(const struct icn_topo *t, const struct icn_plan *const *plans, uint32_t n,
                         struct icn_run_result *out, double *link_bytes_out);

#endif
