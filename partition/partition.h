/* partition: the SPMD partitioner.
 *
 * An unsharded StableHLO program (a plain func @main, as JAX or torch export
 * it before SPMD partitioning), a device mesh and per-argument shardings give
 * an equivalent program written per partition: a module whose entry function
 * is one sdy.manual_computation over all mesh axes (and a return), whose body
 * computes one partition's shards and holds the collectives the sharded ops
 * need.  That is the form the golden interpreter (num_partitions = mesh size),
 * the compiler (one partition's plan) and `npusim run` already take.
 *
 * Shardings propagate forward in program order; ops the partitioner does not
 * shard run replicated on all-gathered operands.  Rules: docs/partitioner.md.
 */
#ifndef NPUSIM_PARTITION_H
#define NPUSIM_PARTITION_H

#include "base/base.h"
#include "graph/graph.h"

#define PART_MAX_AXES 8
#define PART_MAX_DIM_AXES 4 /* mesh axes one tensor dim may be split over */
#define PART_AXIS_NAME_MAX 32

/* Devices are numbered row-major over the axes in their written order. */
struct part_mesh {
    int n_axes;
    char names[PART_MAX_AXES][PART_AXIS_NAME_MAX];
    int64_t sizes[PART_MAX_AXES];
};

/* Per dim, the mesh axes (indices into the mesh) it is split over, major
 * first; a dim with none is whole on every device.  rank -1: not given
 * (read it from the graph, else replicated). */
struct part_sharding {
    int rank;
    int n_axes[BASE_MAX_RANK];
    int axes[BASE_MAX_RANK][PART_MAX_DIM_AXES];
};

/* One collective the partitioner inserted. */
enum part_coll_kind { PART_ALL_REDUCE, PART_ALL_GATHER, PART_ALL_TO_ALL, PART_REDUCE_SCATTER };

struct part_coll {
    enum part_coll_kind kind;
    int64_t bytes;            /* per partition: the operand's local size */
    int group_size;           /* partitions per replica group */
    struct graph_loc loc;     /* the op that needed it */
    const char *op_name;      /* "stablehlo.dot_general", ... (static) */
    const char *why;          /* "partial sums of a sharded contraction", ... (static) */
};

struct part_report {
    struct part_mesh mesh;
    int n_args;
    struct part_sharding *args;    /* the entry's argument shardings used */
    int n_results;
    struct part_sharding *results; /* the entry's result shardings */
    int n_colls;
    struct part_coll *colls;
    int n_fallbacks;               /* ops run replicated on gathered operands */
    struct graph_loc *fallback_locs;
    const char **fallback_ops;     /* op names (static) */
    int n_sharded_ops;             /* ops that ran on shards */
};

void part_report_free(struct part_report *rep);

/* "data=4,model=2", or sizes only: "4" (axis x), "4x2" (axes x, y), "2x2x2"
 * (x, y, z).  Axis sizes >= 1; at most PART_MAX_AXES axes. */
enum base_status part_parse_mesh(const char *s, struct part_mesh *out, struct base_diag *diag);
/* One entry per dim, comma separated: "data,_" / "_,model" / "{data,model},_"
 * ('_' or '{}': replicated).  "replicated" (or "") leaves every dim whole with
 * rank -1 (any rank). */
enum base_status part_parse_sharding(const char *s, const struct part_mesh *mesh, struct part_sharding *out,
                                     struct base_diag *diag);
/* "[data, _]" style text of a sharding, for summaries. */
void part_sharding_str(const struct part_sharding *s, const struct part_mesh *mesh, char *buf, size_t cap);
int64_t part_mesh_size(const struct part_mesh *mesh);

/* Partitions function `entry` (NULL: graph_module_entry) of m.
 * mesh NULL: the module's sdy.mesh, else the mesh the mhlo.sharding
 * attributes imply.  args NULL (or an entry with rank -1): the argument's
 * sdy.sharding / mhlo.sharding attribute, else replicated.  n_args may be
 * fewer than the entry's arguments (the rest as if NULL).
 * out gets the new module (graph_module_destroy; it does not refer to m),
 * built with graph/'s builder and verified: each op keeps the location of
 * the source op it comes from (graph_print_str_positions writes them), its
 * values are named _0, _1, ... in the order they were made.  rep (may be
 * NULL) gets what was done (free with part_report_free).  Bad shardings (an
 * axis twice, a dim that does not divide, a wrong rank) come back located. */
enum base_status part_partition(const struct graph_module *m, const char *entry, const struct part_mesh *mesh,
                                const struct part_sharding *args, int n_args, struct graph_module **out,
                                struct part_report *rep, struct base_diag *diag);

#endif
