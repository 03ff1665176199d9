/* Private to partition/: an IR builder for the partitioned module (build.c). */
#ifndef NPUSIM_PART_BUILD_H
#define NPUSIM_PART_BUILD_H

#include "graph/graph.h"

struct pb {
    struct base_arena arena;     /* everything of the new module */
    uint32_t next_value;
    uint32_t next_op;
    struct base_tensor **owned;  /* literals the new module's attributes hold */
    int n_owned, cap_owned;
    /* source value id -> its copy, for part_pb_copy_op / region copies; the
     * partitioner sets the entries of values defined outside a copied region */
    uint32_t n_src;
    struct graph_value **map;
    bool oom;
    bool bad_capture;            /* a region used a value with no copy */
};

/* A growing list of ops (the block being built). */
struct pb_vec {
    struct graph_op **ops;
    int n, cap;
};

void part_pb_init(struct pb *b, uint32_t n_src_values);
void part_pb_deinit(struct pb *b);
void *part_pb_alloc(struct pb *b, size_t n);

const struct graph_type *part_pb_tensor_type(struct pb *b, const struct graph_type *like, int rank, const int64_t *dims);
const struct graph_type *part_pb_scalar_type(struct pb *b, enum base_dtype elem);

const struct graph_attr *part_pb_int(struct pb *b, int64_t v);
const struct graph_attr *part_pb_unit(struct pb *b);
const struct graph_attr *part_pb_string(struct pb *b, const char *s);
const struct graph_attr *part_pb_symbol(struct pb *b, const char *s);
const struct graph_attr *part_pb_array(struct pb *b, int n, const struct graph_attr *const *items);
const struct graph_attr *part_pb_dict(struct pb *b, const char *tag, int n, const char *const *names,
                                 const struct graph_attr *const *values);
const struct graph_attr *part_pb_dense_i64(struct pb *b, int n, const int64_t *v); /* array<i64: ...> */
const struct graph_attr *part_pb_i64_matrix(struct pb *b, int rows, int cols, const int64_t *v);
const struct graph_attr *part_pb_splat(struct pb *b, const struct graph_type *ty, const struct base_tensor *src);

/* A new op with fresh result values (out_types may be NULL when n_out is 0
 * or the caller sets the types).  NULL when out of memory. */
struct graph_op *part_pb_op(struct pb *b, enum graph_op_kind kind, const char *name, int n_in,
                       struct graph_value *const *in, int n_out, const struct graph_type *const *out_types,
                       const struct graph_loc *loc);
bool part_pb_set_attrs(struct pb *b, struct graph_op *op, int n, const char *const *names,
                  const struct graph_attr *const *values);
bool part_pb_block_init(struct pb *b, struct graph_block *blk, int n_args, const struct graph_type *const *types);
bool part_pb_vec_push(struct pb_vec *v, struct graph_op *op);
bool part_pb_vec_finish(struct pb *b, struct pb_vec *v, struct graph_block *blk);
bool part_pb_binary_region(struct pb *b, struct graph_op *parent, enum graph_op_kind kind, enum base_dtype elem);
/* src with the given operands and result types (NULL: src's), its
 * attributes borrowed and (regions) its regions deep-copied through b->map. */
struct graph_op *part_pb_copy_op(struct pb *b, const struct graph_op *src, struct graph_value *const *operands,
                            const struct graph_type *const *result_types, bool regions);

/* Deep copies of src's regions into dst (replacing dst's). */
bool part_pb_copy_regions(struct pb *b, const struct graph_op *src, struct graph_op *dst, int depth);

#endif
