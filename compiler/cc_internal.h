/* Private to compiler/: views, and (below) the kernel builder.
 *
 * A view is how a kernel sees a tensor in HBM without copying it: an element
 * at multi-index i of the view lives at byte
 *     addr + elem_size * sum_d(i_d * strides[d])
 * Strides are in elements; 0 repeats an element (broadcast), a negative
 * stride walks backwards (reverse).  transpose, broadcast_in_dim, slice,
 * reverse and most reshapes of a tensor are views of it, so they cost nothing
 * of their own: they become the access patterns of the DMAs that read it. */
#ifndef NPUSIM_COMPILER_CC_INTERNAL_H
#define NPUSIM_COMPILER_CC_INTERNAL_H

#include "compiler/compiler.h"

struct cc_view {
    uint64_t addr; /* byte address of element (0, ..., 0) */
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    int64_t strides[BASE_MAX_RANK]; /* in elements */
};

/* A row-major tensor at addr. */
void cc_view_dense(struct cc_view *v, uint64_t addr, enum base_dtype dt, int rank, const int64_t *dims);
int64_t cc_view_count(const struct cc_view *v);
/* Row-major and gap-free (a plain buffer). */
bool cc_view_is_dense(const struct cc_view *v);
/* stablehlo.transpose: dim i of out is dim perm[i] of in. */
void cc_view_transpose(const struct cc_view *in, const int64_t *perm, struct cc_view *out);
/* stablehlo.broadcast_in_dim: dim i of in becomes dim bdims[i] of out
 * (size 1 in `in` broadcasts); the other out dims repeat. */
void cc_view_broadcast(const struct cc_view *in, int out_rank, const int64_t *out_dims, const int64_t *bdims,
                       struct cc_view *out);
/* stablehlo.slice (start, limit, stride per dim). */
void cc_view_slice(const struct cc_view *in, const int64_t *start, const int64_t *limit, const int64_t *stride,
                   struct cc_view *out);
/* stablehlo.reverse over the dims listed. */
void cc_view_reverse(const struct cc_view *in, const int64_t *dims, int n_dims, struct cc_view *out);
/* stablehlo.reshape, when the new shape can be addressed with strides
 * (always for a dense view); false when it needs a copy. */
bool cc_view_reshape(const struct cc_view *in, int rank, const int64_t *dims, struct cc_view *out);
/* Same dtype reinterpretation is not a view: convert is a kernel. */

/* A box of a view: start[d] .. start[d] + count[d] on each dim. */
struct cc_box {
    int64_t start[BASE_MAX_RANK];
    int64_t count[BASE_MAX_RANK];
};

/* The HBM access pattern that reads (or writes) a box of a view with view
 * dim `part_dim` on partitions (-1: one partition) and the listed free dims,
 * outermost first (dims of count 1 may be left out; dims not listed must
 * have count 1 in the box).  Adjacent free dims that address memory as one
 * are merged.  False when more than ISA_MAX_DIMS free dims remain after
 * merging, or the box has more than ISA_MAX_PARTITIONS rows on part_dim. */
bool cc_view_box_ap(const struct cc_view *v, const struct cc_box *box, int part_dim, const int *free_dims,
                    int n_free, struct isa_ap *ap);

#endif
