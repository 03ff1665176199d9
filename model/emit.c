/* model: op helpers over the graph builder.  Each computes its result type
 * from its operands and writes the op in the canonical attribute form
 * (docs/graph-ir.md), so the generated module is what the parser would make
 * of its printed text. */
#include "model/mdl_internal.h"

#include <math.h>
#include <string.h>

const struct graph_type *mdl_ty(struct mdl_gen *g, enum base_dtype dt, int rank, const int64_t *dims)
{
    return graph_builder_tensor_type(g->b, dt, rank, dims);
}

/* A scalar constant broadcast to the shape, as JAX writes a splat (a
 * literal of a weight's size would be materialised by every consumer);
 * constant for the reverse-mode pass. */
gval *mdl_splat(struct mdl_gen *g, double x, enum base_dtype dt, int rank, const int64_t *dims)
{
    const struct graph_type *st = mdl_ty(g, dt, 0, NULL);
    gval *s = graph_builder_constant(g->b, graph_builder_attr_splat_f64(g->b, st, x));
    if (rank == 0) return s;
    gval *v = mdl_bcast(g, s, rank, dims, NULL);
    mdl_stop(g, v);
    return v;
}

gval *mdl_scalar(struct mdl_gen *g, double x, enum base_dtype dt) { return mdl_splat(g, x, dt, 0, NULL); }

gval *mdl_splat_like(struct mdl_gen *g, double x, const gval *like)
{
    if (!like) return NULL;
    return mdl_splat(g, x, like->type->elem, like->type->rank, like->type->dims);
}

gval *mdl_un(struct mdl_gen *g, enum graph_op_kind k, gval *a)
{
    if (!a) return NULL;
    return graph_builder_op1(g->b, k, &a, 1, a->type);
}

gval *mdl_bin(struct mdl_gen *g, enum graph_op_kind k, gval *a, gval *b)
{
    if (!a || !b) return NULL;
    BASE_ASSERT(graph_type_equal(a->type, b->type));
    return graph_builder_op1(g->b, k, (gval *[]){a, b}, 2, a->type);
}

gval *mdl_add(struct mdl_gen *g, gval *a, gval *b) { return mdl_bin(g, GRAPH_OP_ADD, a, b); }
gval *mdl_sub(struct mdl_gen *g, gval *a, gval *b) { return mdl_bin(g, GRAPH_OP_SUBTRACT, a, b); }
gval *mdl_mul(struct mdl_gen *g, gval *a, gval *b) { return mdl_bin(g, GRAPH_OP_MULTIPLY, a, b); }
gval *mdl_div(struct mdl_gen *g, gval *a, gval *b) { return mdl_bin(g, GRAPH_OP_DIVIDE, a, b); }

gval *mdl_scale(struct mdl_gen *g, gval *a, double x) { return mdl_mul(g, a, mdl_splat_like(g, x, a)); }

gval *mdl_cmp(struct mdl_gen *g, gval *a, gval *b, const char *dir, bool is_float)
{
    if (!a || !b) return NULL;
    const struct graph_type *t = mdl_ty(g, BASE_DT_I1, a->type->rank, a->type->dims);
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_COMPARE, (gval *[]){a, b}, 2, &t, 1);
    graph_builder_set_attr(g->b, op, "comparison_direction", graph_builder_attr_comparison(g->b, dir));
    graph_builder_set_attr(g->b, op, "compare_type",
                           graph_builder_attr_keyword(g->b, "stablehlo.comparison_type", is_float ? "FLOAT" : "SIGNED"));
    return graph_builder_result(op, 0);
}

gval *mdl_select(struct mdl_gen *g, gval *p, gval *a, gval *b)
{
    if (!p || !a || !b) return NULL;
    return graph_builder_op1(g->b, GRAPH_OP_SELECT, (gval *[]){p, a, b}, 3, a->type);
}

gval *mdl_clamp(struct mdl_gen *g, gval *lo, gval *x, gval *hi)
{
    if (!lo || !x || !hi) return NULL;
    return graph_builder_op1(g->b, GRAPH_OP_CLAMP, (gval *[]){lo, x, hi}, 3, x->type);
}

gval *mdl_convert(struct mdl_gen *g, gval *a, enum base_dtype dt)
{
    if (!a) return NULL;
    if (a->type->elem == dt) return a;
    return graph_builder_op1(g->b, GRAPH_OP_CONVERT, &a, 1, mdl_ty(g, dt, a->type->rank, a->type->dims));
}

gval *mdl_bcast(struct mdl_gen *g, gval *a, int rank, const int64_t *dims, const int64_t *bdims)
{
    if (!a) return NULL;
    struct graph_op *op =
        graph_builder_op(g->b, GRAPH_OP_BROADCAST_IN_DIM, &a, 1,
                         (const struct graph_type *[]){mdl_ty(g, a->type->elem, rank, dims)}, 1);
    graph_builder_set_attr(g->b, op, "broadcast_dimensions", graph_builder_attr_dense_i64(g->b, bdims, a->type->rank));
    return graph_builder_result(op, 0);
}

gval *mdl_bcast_to(struct mdl_gen *g, gval *a, const gval *like, const int64_t *bdims)
{
    if (!a || !like) return NULL;
    return mdl_bcast(g, a, like->type->rank, like->type->dims, bdims);
}

gval *mdl_reshape(struct mdl_gen *g, gval *a, int rank, const int64_t *dims)
{
    if (!a) return NULL;
    const struct graph_type *t = mdl_ty(g, a->type->elem, rank, dims);
    if (graph_type_equal(t, a->type)) return a;
    return graph_builder_op1(g->b, GRAPH_OP_RESHAPE, &a, 1, t);
}

gval *mdl_transpose(struct mdl_gen *g, gval *a, const int64_t *perm)
{
    if (!a) return NULL;
    int64_t dims[GRAPH_MAX_RANK];
    bool id = true;
    for (int i = 0; i < a->type->rank; i++) {
        dims[i] = a->type->dims[perm[i]];
        id = id && perm[i] == i;
    }
    if (id) return a;
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_TRANSPOSE, &a, 1,
                                           (const struct graph_type *[]){mdl_ty(g, a->type->elem, a->type->rank, dims)}, 1);
    graph_builder_set_attr(g->b, op, "permutation", graph_builder_attr_dense_i64(g->b, perm, a->type->rank));
    return graph_builder_result(op, 0);
}

gval *mdl_slice(struct mdl_gen *g, gval *a, int dim, int64_t start, int64_t limit)
{
    if (!a) return NULL;
    int r = a->type->rank;
    int64_t lo[GRAPH_MAX_RANK], hi[GRAPH_MAX_RANK], st[GRAPH_MAX_RANK], dims[GRAPH_MAX_RANK];
    for (int i = 0; i < r; i++) {
        lo[i] = i == dim ? start : 0;
        hi[i] = i == dim ? limit : a->type->dims[i];
        st[i] = 1;
        dims[i] = hi[i] - lo[i];
    }
    struct graph_op *op =
        graph_builder_op(g->b, GRAPH_OP_SLICE, &a, 1, (const struct graph_type *[]){mdl_ty(g, a->type->elem, r, dims)}, 1);
    graph_builder_set_attr(g->b, op, "start_indices", graph_builder_attr_dense_i64(g->b, lo, r));
    graph_builder_set_attr(g->b, op, "limit_indices", graph_builder_attr_dense_i64(g->b, hi, r));
    graph_builder_set_attr(g->b, op, "strides", graph_builder_attr_dense_i64(g->b, st, r));
    return graph_builder_result(op, 0);
}

gval *mdl_concat(struct mdl_gen *g, gval *const *v, int n, int dim)
{
    for (int i = 0; i < n; i++)
        if (!v[i]) return NULL;
    int64_t dims[GRAPH_MAX_RANK];
    memcpy(dims, v[0]->type->dims, sizeof dims);
    dims[dim] = 0;
    for (int i = 0; i < n; i++) dims[dim] += v[i]->type->dims[dim];
    struct graph_op *op = graph_builder_op(
        g->b, GRAPH_OP_CONCATENATE, v, n, (const struct graph_type *[]){mdl_ty(g, v[0]->type->elem, v[0]->type->rank, dims)},
        1);
    graph_builder_set_attr(g->b, op, "dimension", graph_builder_attr_int(g->b, dim));
    return graph_builder_result(op, 0);
}

gval *mdl_pad(struct mdl_gen *g, gval *a, const int64_t *lo, const int64_t *hi)
{
    if (!a) return NULL;
    int r = a->type->rank;
    int64_t dims[GRAPH_MAX_RANK], in[GRAPH_MAX_RANK];
    for (int i = 0; i < r; i++) {
        dims[i] = a->type->dims[i] + lo[i] + hi[i];
        in[i] = 0;
    }
    gval *zero = mdl_scalar(g, 0, a->type->elem);
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_PAD, (gval *[]){a, zero}, 2,
                                           (const struct graph_type *[]){mdl_ty(g, a->type->elem, r, dims)}, 1);
    graph_builder_set_attr(g->b, op, "edge_padding_low", graph_builder_attr_dense_i64(g->b, lo, r));
    graph_builder_set_attr(g->b, op, "edge_padding_high", graph_builder_attr_dense_i64(g->b, hi, r));
    graph_builder_set_attr(g->b, op, "interior_padding", graph_builder_attr_dense_i64(g->b, in, r));
    return graph_builder_result(op, 0);
}

gval *mdl_iota(struct mdl_gen *g, enum base_dtype dt, int rank, const int64_t *dims, int dim)
{
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_IOTA, NULL, 0, (const struct graph_type *[]){mdl_ty(g, dt, rank, dims)}, 1);
    graph_builder_set_attr(g->b, op, "iota_dimension", graph_builder_attr_int(g->b, dim));
    return graph_builder_result(op, 0);
}

static bool in_list(int64_t x, const int64_t *l, int n)
{
    for (int i = 0; i < n; i++)
        if (l[i] == x) return true;
    return false;
}

gval *mdl_dot(struct mdl_gen *g, gval *a, gval *b, int nb, const int64_t *lb, const int64_t *rb, int nc,
              const int64_t *lc, const int64_t *rc)
{
    if (!a || !b) return NULL;
    int64_t dims[GRAPH_MAX_RANK];
    int n = 0;
    for (int i = 0; i < nb; i++) dims[n++] = a->type->dims[lb[i]];
    for (int i = 0; i < a->type->rank; i++)
        if (!in_list(i, lb, nb) && !in_list(i, lc, nc)) dims[n++] = a->type->dims[i];
    for (int i = 0; i < b->type->rank; i++)
        if (!in_list(i, rb, nb) && !in_list(i, rc, nc)) dims[n++] = b->type->dims[i];
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_DOT_GENERAL, (gval *[]){a, b}, 2,
                                           (const struct graph_type *[]){mdl_ty(g, a->type->elem, n, dims)}, 1);
    graph_builder_set_attr(g->b, op, "dot_dimension_numbers", graph_builder_attr_dot_dims(g->b, lb, rb, nb, lc, rc, nc));
    return graph_builder_result(op, 0);
}

gval *mdl_matmul(struct mdl_gen *g, gval *x, gval *w)
{
    if (!x || !w) return NULL;
    return mdl_dot(g, x, w, 0, NULL, NULL, 1, (int64_t[]){x->type->rank - 1}, (int64_t[]){0});
}

gval *mdl_reduce(struct mdl_gen *g, gval *a, enum graph_op_kind k, int n, const int64_t *rdims)
{
    if (!a) return NULL;
    enum base_dtype dt = a->type->elem;
    int64_t dims[GRAPH_MAX_RANK];
    int r = 0;
    for (int i = 0; i < a->type->rank; i++)
        if (!in_list(i, rdims, n)) dims[r++] = a->type->dims[i];
    double init = k == GRAPH_OP_ADD ? 0.0 : -base_float_format(dt)->max_finite;
    if (k == GRAPH_OP_MAXIMUM && base_float_format(dt)->has_inf) init = -INFINITY;
    gval *z = mdl_scalar(g, init, dt);
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_REDUCE, (gval *[]){a, z}, 2,
                                           (const struct graph_type *[]){mdl_ty(g, dt, r, dims)}, 1);
    graph_builder_set_attr(g->b, op, "dimensions", graph_builder_attr_dense_i64(g->b, rdims, n));
    const struct graph_type *st = mdl_ty(g, dt, 0, NULL);
    gval *p[2] = {NULL, NULL};
    graph_builder_region(g->b, op, (const struct graph_type *[]){st, st}, 2, p);
    gval *t = graph_builder_op1(g->b, k, p, 2, st);
    graph_builder_return(g->b, &t, 1);
    return graph_builder_result(op, 0);
}

static gval *zero_index(struct mdl_gen *g) { return mdl_scalar(g, 0, BASE_DT_SI32); }

gval *mdl_dslice(struct mdl_gen *g, gval *a, gval *const *idx, const int64_t *sizes)
{
    if (!a) return NULL;
    int r = a->type->rank;
    gval *ops[1 + GRAPH_MAX_RANK];
    ops[0] = a;
    gval *z = NULL;
    for (int i = 0; i < r; i++) {
        if (idx && idx[i]) {
            ops[1 + i] = idx[i];
        } else {
            if (!z) z = zero_index(g);
            ops[1 + i] = z;
        }
    }
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_DYNAMIC_SLICE, ops, 1 + r,
                                           (const struct graph_type *[]){mdl_ty(g, a->type->elem, r, sizes)}, 1);
    graph_builder_set_attr(g->b, op, "slice_sizes", graph_builder_attr_dense_i64(g->b, sizes, r));
    return graph_builder_result(op, 0);
}

gval *mdl_dupdate(struct mdl_gen *g, gval *a, gval *upd, gval *const *idx)
{
    if (!a || !upd) return NULL;
    int r = a->type->rank;
    gval *ops[2 + GRAPH_MAX_RANK];
    ops[0] = a;
    ops[1] = upd;
    gval *z = NULL;
    for (int i = 0; i < r; i++) {
        if (idx && idx[i]) {
            ops[2 + i] = idx[i];
        } else {
            if (!z) z = zero_index(g);
            ops[2 + i] = z;
        }
    }
    return graph_builder_op1(g->b, GRAPH_OP_DYNAMIC_UPDATE_SLICE, ops, 2 + r, a->type);
}

gval *mdl_layer_slice(struct mdl_gen *g, gval *stacked, gval *i)
{
    if (!stacked) return NULL;
    int r = stacked->type->rank;
    int64_t sizes[GRAPH_MAX_RANK];
    gval *idx[GRAPH_MAX_RANK] = {i};
    for (int d = 0; d < r; d++) sizes[d] = d == 0 ? 1 : stacked->type->dims[d];
    gval *s = mdl_dslice(g, stacked, idx, sizes);
    return mdl_reshape(g, s, r - 1, stacked->type->dims + 1);
}

gval *mdl_layer_update(struct mdl_gen *g, gval *stacked, gval *v, gval *i)
{
    if (!stacked || !v) return NULL;
    int r = stacked->type->rank;
    int64_t dims[GRAPH_MAX_RANK];
    dims[0] = 1;
    for (int d = 1; d < r; d++) dims[d] = stacked->type->dims[d];
    gval *idx[GRAPH_MAX_RANK] = {i};
    return mdl_dupdate(g, stacked, mdl_reshape(g, v, r, dims), idx);
}

gval *mdl_gather_rows(struct mdl_gen *g, gval *table, gval *ids)
{
    if (!table || !ids) return NULL;
    int r = ids->type->rank;
    int64_t idims[GRAPH_MAX_RANK], odims[GRAPH_MAX_RANK];
    for (int i = 0; i < r; i++) idims[i] = odims[i] = ids->type->dims[i];
    idims[r] = 1;
    odims[r] = table->type->dims[1];
    gval *ix = mdl_reshape(g, ids, r + 1, idims);
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_GATHER, (gval *[]){table, ix}, 2,
                                           (const struct graph_type *[]){mdl_ty(g, table->type->elem, r + 1, odims)}, 1);
    static const char *const names[4] = {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim"};
    const struct graph_attr *v[4] = {
        graph_builder_attr_dense_i64(g->b, (int64_t[]){r}, 1), graph_builder_attr_dense_i64(g->b, (int64_t[]){0}, 1),
        graph_builder_attr_dense_i64(g->b, (int64_t[]){0}, 1), graph_builder_attr_int(g->b, r)};
    graph_builder_set_attr(g->b, op, "dimension_numbers", graph_builder_attr_dict(g->b, "stablehlo.gather", names, v, 4));
    graph_builder_set_attr(g->b, op, "slice_sizes",
                           graph_builder_attr_dense_i64(g->b, (int64_t[]){1, table->type->dims[1]}, 2));
    graph_builder_set_attr(g->b, op, "indices_are_sorted", graph_builder_attr_bool(g->b, false));
    return graph_builder_result(op, 0);
}

gval *mdl_scatter_add_rows(struct mdl_gen *g, gval *ids, gval *upd, int64_t rows)
{
    if (!ids || !upd) return NULL;
    int64_t n = 1;
    for (int i = 0; i < ids->type->rank; i++) n *= ids->type->dims[i];
    int64_t d = upd->type->dims[upd->type->rank - 1];
    enum base_dtype dt = upd->type->elem;
    gval *ix = mdl_reshape(g, ids, 2, (int64_t[]){n, 1});
    gval *u = mdl_reshape(g, upd, 2, (int64_t[]){n, d});
    gval *zero = mdl_splat(g, 0, dt, 2, (int64_t[]){rows, d});
    const struct graph_type *rt = mdl_ty(g, dt, 2, (int64_t[]){rows, d});
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_SCATTER, (gval *[]){zero, ix, u}, 3, &rt, 1);
    static const char *const names[4] = {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                                         "index_vector_dim"};
    const struct graph_attr *v[4] = {
        graph_builder_attr_dense_i64(g->b, (int64_t[]){1}, 1), graph_builder_attr_dense_i64(g->b, (int64_t[]){0}, 1),
        graph_builder_attr_dense_i64(g->b, (int64_t[]){0}, 1), graph_builder_attr_int(g->b, 1)};
    graph_builder_set_attr(g->b, op, "scatter_dimension_numbers",
                           graph_builder_attr_dict(g->b, "stablehlo.scatter", names, v, 4));
    graph_builder_set_attr(g->b, op, "indices_are_sorted", graph_builder_attr_bool(g->b, false));
    graph_builder_set_attr(g->b, op, "unique_indices", graph_builder_attr_bool(g->b, false));
    const struct graph_type *st = mdl_ty(g, dt, 0, NULL);
    gval *p[2] = {NULL, NULL};
    graph_builder_region(g->b, op, (const struct graph_type *[]){st, st}, 2, p);
    gval *t = graph_builder_op1(g->b, GRAPH_OP_ADD, p, 2, st);
    graph_builder_return(g->b, &t, 1);
    return graph_builder_result(op, 0);
}

void mdl_top_k(struct mdl_gen *g, gval *a, int64_t k, gval **values, gval **indices)
{
    *values = *indices = NULL;
    if (!a) return;
    int r = a->type->rank;
    int64_t dims[GRAPH_MAX_RANK];
    memcpy(dims, a->type->dims, sizeof dims);
    dims[r - 1] = k;
    const struct graph_type *ts[2] = {mdl_ty(g, a->type->elem, r, dims), mdl_ty(g, BASE_DT_SI32, r, dims)};
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_CHLO_TOP_K, &a, 1, ts, 2);
    graph_builder_set_attr(g->b, op, "k", graph_builder_attr_int(g->b, k));
    *values = graph_builder_result(op, 0);
    *indices = graph_builder_result(op, 1);
}

gval *mdl_one_hot(struct mdl_gen *g, gval *ids, int64_t n, enum base_dtype dt)
{
    if (!ids) return NULL;
    int r = ids->type->rank;
    int64_t dims[GRAPH_MAX_RANK], bd[GRAPH_MAX_RANK];
    for (int i = 0; i < r; i++) {
        dims[i] = ids->type->dims[i];
        bd[i] = i;
    }
    dims[r] = n;
    gval *io = mdl_iota(g, ids->type->elem, r + 1, dims, r);
    gval *b = mdl_bcast(g, ids, r + 1, dims, bd);
    gval *eq = mdl_cmp(g, b, io, "EQ", false);
    gval *one = mdl_splat(g, 1, dt, r + 1, dims), *zero = mdl_splat(g, 0, dt, r + 1, dims);
    gval *oh = mdl_select(g, eq, one, zero);
    mdl_stop(g, oh);
    return oh;
}
