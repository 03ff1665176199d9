/* Private to partition/: sharding text and graph attributes (spec.c) shared
 * with the propagation (partition.c). */
#ifndef NPUSIM_PART_INTERNAL_H
#define NPUSIM_PART_INTERNAL_H

#include "partition/partition.h"

/* The module's first sdy.mesh; *found false when it has none. */
enum base_status part_mesh_from_module(const struct graph_module *m, struct part_mesh *out, bool *found,
                                       struct base_diag *diag);

/* A mesh whose axes refine every mhlo.sharding tiling of the entry's
 * arguments (named x, y, z, ...); *found false when none has a tiling. */
enum base_status part_mesh_from_mhlo(const struct graph_op *func, struct part_mesh *out, bool *found,
                                     struct base_diag *diag);

/* Argument i's sharding from its sdy.sharding or mhlo.sharding attribute;
 * *found false when it has neither.  Errors are located at the function. */
enum base_status part_arg_sharding(const struct graph_op *func, int i, int rank, const struct part_mesh *mesh,
                                   struct part_sharding *out, bool *found, struct base_diag *diag);

/* A #sdy.sharding attribute (sh) of a value of that rank, over mesh; errors
 * located at op, naming what ("sdy.sharding_constraint"). */
enum base_status part_sdy_sharding(const struct graph_op *op, const char *what, int rank, const struct graph_attr *sh,
                                   const struct part_mesh *mesh, struct part_sharding *out, struct base_diag *diag);

/* A sharding with every dim whole. */
void part_sharding_replicated(struct part_sharding *s, int rank);

#endif
