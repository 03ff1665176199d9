/* Private to the data-movement kernels (interp_shape.c, interp_shape_gather.c,
 * interp_shape_sort.c): attribute readers, the strided copy engine and the
 * scalar plumbing for region calls. */
#ifndef NPUSIM_GRAPH_INTERP_SHAPE_INTERNAL_H
#define NPUSIM_GRAPH_INTERP_SHAPE_INTERNAL_H

#include "interp/interp_internal.h"

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

/* Integer list attribute `name` of op (DENSE, ARRAY of INT or 1-D ELEMENTS).
 * Returns the count (<= cap), or -1 when absent or not a list. */
int interp_shape_attr_list(const struct graph_op *op, const char *name, int64_t *out, int cap);
/* Integer attribute; returns false when absent. */
bool interp_shape_attr_i64(const struct graph_op *op, const char *name, int64_t *out);

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

/* Element i of an integer tensor as int64 (sign- or zero-extended). */
int64_t interp_shape_index_at(const struct base_tensor *t, int64_t i);

/* A fresh tensor for result i with the given shape and the result's element
 * type (interp_result_dtype).  When the result type is static its shape must
 * equal dims (else a located ERR_VERIFY). */
enum base_status interp_shape_alloc(struct interp_proc *p, const struct graph_op *op, int i,
                                    int rank, const int64_t *dims, struct base_tensor **out);

/* ------------------------------------------------------------------------ */
/* Copy engine                                                               */

/* dst[sum idx*dst_strides] = src[sum idx*src_strides] for every idx in dims;
 * strides in elements (may be 0 or negative), esz bytes per element.  Merges
 * contiguous dimensions, copies contiguous runs with memcpy, fills splats, and
 * tiles transpositions for the cache. */
void interp_shape_copy(size_t esz, int rank, const int64_t *dims, void *dst,
                       const int64_t *dst_strides, const void *src, const int64_t *src_strides);

/* Fills n elements of dst with the element at val. */
void interp_shape_fill(size_t esz, void *dst, int64_t n, const void *val);

/* ------------------------------------------------------------------------ */
/* Regions                                                                   */

/* If region r's entry block only returns one of its arguments, its index;
 * else -1.  (scatter's "return the update" region.) */
int interp_shape_region_returns_arg(const struct graph_region *r);

/* Scalar argument slots for repeated region calls: each call gets fresh or
 * reused (when nobody else holds them) rank-0 tensors. */
#define INTERP_SHAPE_MAX_ARGS 128
struct interp_shape_args {
    int n;
    enum base_dtype dt[INTERP_SHAPE_MAX_ARGS];
    struct interp_value *v[INTERP_SHAPE_MAX_ARGS];
};

/* Prepares n slots with element types dt[0..n). */
void interp_shape_args_init(struct interp_shape_args *a, int n, const enum base_dtype *dt);
/* Sets slot i to element si of src (dtype src_dt, converted if needed). */
enum base_status interp_shape_args_set(struct interp_shape_args *a, int i, enum base_dtype src_dt,
                                       const void *src, int64_t si);
void interp_shape_args_deinit(struct interp_shape_args *a);

/* ------------------------------------------------------------------------ */
/* Kernels in the other files                                                */

void interp_register_shape_gather(interp_kernel_fn *table);
void interp_register_shape_sort(interp_kernel_fn *table);
/* custom_call @mhlo.topk / @TopK (interp_topk_call): values and indices. */
enum base_status interp_custom_call_top_k(struct interp_proc *p, const struct graph_op *op,
                                          struct interp_value *const *in, struct interp_value **out);

#endif
