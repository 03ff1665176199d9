/* Verifier rules for gather, dynamic_gather, scatter and torch_index_select
 * (spec.md "Constraints", with the batching dimensions of StableHLO 1.x). */
#include "graph/verify_internal.h"

#include <string.h>

#define R GRAPH_MAX_RANK

static enum base_status dict_int(struct verify_ctx *cx, const struct graph_op *op,
                                 const struct graph_attr *dn, const char *name, int64_t *out)
{
    bool present;
    VTRY(graph_verify_attr_int(cx, op, graph_dict_get(dn, name), name, &present, out));
    if (!present) *out = 0;
    return BASE_OK;
}

static enum base_status need_sorted_unique(struct verify_ctx *cx, const struct graph_op *op,
                                           const char *label, const char *what,
                                           const struct verify_dlist *l, bool sorted)
{
    VTRY(graph_verify_list_is_unique(cx, op, label, what, l->n, l->v));
    if (sorted && !graph_verify_list_sorted(l->n, l->v)) {
        char ls[200];
        return graph_verify_fail(cx, op, "%s %s must be sorted, got %s", label, what,
                           graph_verify_lstr(l->n, l->v, ls, sizeof ls));
    }
    return BASE_OK;
}

static enum base_status need_unique2(struct verify_ctx *cx, const struct graph_op *op,
                                     const char *label, const char *what, const struct verify_dlist *a,
                                     const struct verify_dlist *b)
{
    int64_t all[2 * VERIFY_MAX_LIST];
    memcpy(all, a->v, (size_t)a->n * sizeof *all);
    memcpy(all + a->n, b->v, (size_t)b->n * sizeof *all);
    return graph_verify_list_is_unique(cx, op, label, what, a->n + b->n, all);
}

/* The index-vector checks shared by gather and scatter:
 * 0 <= index_vector_dim <= rank(indices), its size equals size(map), and the
 * batching dims of the indices. */
static enum base_status index_checks(struct verify_ctx *cx, const struct graph_op *op,
                                     const struct graph_type *idx, int64_t ivd,
                                     const struct verify_dlist *map, const char *map_name,
                                     const struct verify_dlist *idx_batch, const char *const *lab)
{
    /* lab: ivd range, map size, batch unique, batch range, ivd not in batch */
    if (idx->rank < 0) return BASE_OK;
    if (ivd < 0 || ivd > idx->rank)
        return graph_verify_fail(cx, op, "%s index_vector_dim %lld must be in [0, %d]", lab[0],
                           (long long)ivd, idx->rank);
    int64_t vec = ivd < idx->rank ? idx->dims[ivd] : 1;
    if (vec != GRAPH_DYN && vec != map->n)
        return graph_verify_fail(cx, op,
                           "%s %s has %d entries but the index vector (dim %lld of the indices) "
                           "has size %lld",
                           lab[1], map_name, map->n, (long long)ivd, (long long)vec);
    VTRY(graph_verify_list_is_unique(cx, op, lab[2], "the indices' batching dims", idx_batch->n,
                               idx_batch->v));
    VTRY(graph_verify_list_in_range(cx, op, lab[3], "the indices' batching dims", idx_batch->n,
                              idx_batch->v, idx->rank));
    if (graph_verify_list_has(idx_batch->n, idx_batch->v, ivd))
        return graph_verify_fail(cx, op, "%s index_vector_dim %lld must not be a batching dim", lab[4],
                           (long long)ivd);
    return BASE_OK;
}

/* Operand batching dims against the indices' ones: same count, same sizes. */
static enum base_status batch_sizes(struct verify_ctx *cx, const struct graph_op *op,
                                    const char *c_count, const char *c_size,
                                    const struct graph_type *x, const struct verify_dlist *xb,
                                    const struct graph_type *idx, const struct verify_dlist *ib)
{
    if (xb->n != ib->n)
        return graph_verify_fail(cx, op, "%s %d operand batching dims but %d indices batching dims",
                           c_count, xb->n, ib->n);
    if (x->rank < 0 || idx->rank < 0) return BASE_OK;
    for (int i = 0; i < xb->n; i++) {
        int64_t a = x->dims[xb->v[i]], b = idx->dims[ib->v[i]];
        if (!verify_dim_compat(a, b))
            return graph_verify_fail(cx, op,
                               "%s operand batching dim %lld has size %lld but indices batching "
                               "dim %lld has size %lld",
                               c_size, (long long)xb->v[i], (long long)a, (long long)ib->v[i],
                               (long long)b);
    }
    return BASE_OK;
}

static enum base_status gather(struct verify_ctx *cx, const struct graph_op *op, bool dynamic)
{
    VTRY(graph_verify_counts(cx, op, dynamic ? 3 : 2, dynamic ? 3 : 2, 1, 1, 0));
    const struct graph_type *x = verify_in(op, 0), *idx = verify_in(op, 1), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", x));
    VTRY(graph_verify_need_class(cx, op, "(I2) start_indices", idx, VC_INT));
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    if (!dn || dn->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "requires a 'dimension_numbers' attribute");
    struct verify_dlist offs, coll, xbat, ibat, map, ss;
    int64_t ivd;
    VTRY(graph_verify_dict_list(cx, op, dn, "offset_dims", &offs));
    VTRY(graph_verify_dict_list(cx, op, dn, "collapsed_slice_dims", &coll));
    VTRY(graph_verify_dict_list(cx, op, dn, "operand_batching_dims", &xbat));
    VTRY(graph_verify_dict_list(cx, op, dn, "start_indices_batching_dims", &ibat));
    VTRY(graph_verify_dict_list(cx, op, dn, "start_index_map", &map));
    VTRY(dict_int(cx, op, dn, "index_vector_dim", &ivd));
    int xr = x->rank;
    bool know_sizes = !dynamic;
    if (dynamic) {
        const struct graph_type *s = verify_in(op, 2);
        VTRY(graph_verify_need_class(cx, op, "(I3) slice_sizes", s, VC_INT));
        VTRY(graph_verify_need_rank(cx, op, "(I3) slice_sizes", s, 1));
        if (xr >= 0 && s->rank == 1 && s->dims[0] != GRAPH_DYN && s->dims[0] != xr)
            return graph_verify_fail(cx, op, "(C11) slice_sizes has %lld elements but the operand has rank %d",
                               (long long)s->dims[0], xr);
        ss.n = xr >= 0 ? xr : 0;
        for (int i = 0; i < ss.n; i++) ss.v[i] = GRAPH_DYN;
        /* constant slice sizes are checked as gather's (upstream inferDynamicGatherOp) */
        int nc = graph_verify_const_ints(op, 2, ss.v, VERIFY_MAX_LIST);
        if (nc >= 0 && (xr < 0 || nc == xr)) {
            ss.n = nc;
            know_sizes = true;
        }
    } else {
        VTRY(graph_verify_op_list(cx, op, "slice_sizes", true, ss.v, &ss.n));
    }
    if (xr >= 0 && xr != offs.n + coll.n + xbat.n)
        return graph_verify_fail(cx, op,
                           "(C1) operand rank %d must equal size(offset_dims) %d + "
                           "size(collapsed_slice_dims) %d + size(operand_batching_dims) %d",
                           xr, offs.n, coll.n, xbat.n);
    static const char *const lab[] = {"(C2)", "(C3)", "(C13)", "(C14)", "(C15)"};
    VTRY(index_checks(cx, op, idx, ivd, &map, "start_index_map", &ibat, lab));
    VTRY(need_sorted_unique(cx, op, "(C4)", "offset_dims", &offs, true));
    if (out->rank >= 0) VTRY(graph_verify_list_in_range(cx, op, "(C5)", "offset_dims", offs.n, offs.v, out->rank));
    VTRY(need_unique2(cx, op, "(C6)", "collapsed_slice_dims + operand_batching_dims", &coll, &xbat));
    VTRY(need_sorted_unique(cx, op, "(C7)", "collapsed_slice_dims", &coll, true));
    VTRY(need_sorted_unique(cx, op, "(C10)", "operand_batching_dims", &xbat, true));
    if (xr >= 0) {
        VTRY(graph_verify_list_in_range(cx, op, "(C8)", "collapsed_slice_dims", coll.n, coll.v, xr));
        VTRY(graph_verify_list_in_range(cx, op, "(C11)", "operand_batching_dims", xbat.n, xbat.v, xr));
        VTRY(graph_verify_list_in_range(cx, op, "(C19)", "start_index_map", map.n, map.v, xr));
    }
    if (know_sizes) {
        for (int i = 0; i < coll.n; i++)
            if (coll.v[i] < ss.n && ss.v[coll.v[i]] > 1)
                return graph_verify_fail(cx, op, "(C9) slice_sizes[%lld] = %lld must be <= 1 (a collapsed dim)",
                                   (long long)coll.v[i], (long long)ss.v[coll.v[i]]);
        for (int i = 0; i < xbat.n; i++)
            if (xbat.v[i] < ss.n && ss.v[xbat.v[i]] > 1)
                return graph_verify_fail(cx, op, "(C12) slice_sizes[%lld] = %lld must be <= 1 (a batching dim)",
                                   (long long)xbat.v[i], (long long)ss.v[xbat.v[i]]);
    }
    VTRY(batch_sizes(cx, op, "(C16)", "(C17)", x, &xbat, idx, &ibat));
    VTRY(need_unique2(cx, op, "(C18)", "start_index_map + operand_batching_dims", &map, &xbat));
    if (xr < 0) return graph_verify_same_elem(cx, op, "(C23)", "operand", x, "result", out);
    if (know_sizes) {
        if (ss.n != xr)
            return graph_verify_fail(cx, op, "(C20) slice_sizes has %d entries but the operand has rank %d",
                               ss.n, xr);
        for (int i = 0; i < xr; i++)
            if (ss.v[i] < 0 || (x->dims[i] != GRAPH_DYN && ss.v[i] > x->dims[i]))
                return graph_verify_fail(cx, op, "(C21) slice_sizes[%d] = %lld must be in [0, %lld]", i,
                                   (long long)ss.v[i], (long long)x->dims[i]);
    }
    /* (C22) result = batch dims of the indices, with the slice's offset dims
     * interleaved at offset_dims */
    if (idx->rank >= 0) {
        int64_t batch[R], offset[R];
        int nb = 0, no = 0;
        for (int d = 0; d < idx->rank; d++)
            if (d != ivd) batch[nb++] = idx->dims[d];
        for (int d = 0; d < xr; d++)
            if (!graph_verify_list_has(coll.n, coll.v, d) && !graph_verify_list_has(xbat.n, xbat.v, d))
                offset[no++] = ss.v[d];
        int rank = nb + no;
        if (rank > R) return graph_verify_fail(cx, op, "(C22) result rank %d exceeds %d", rank, R);
        int64_t dims[R];
        int bi = 0, oi = 0;
        for (int d = 0; d < rank; d++) {
            if (graph_verify_list_has(offs.n, offs.v, d)) dims[d] = oi < no ? offset[oi++] : GRAPH_DYN;
            else dims[d] = bi < nb ? batch[bi++] : GRAPH_DYN;
        }
        VTRY(graph_verify_result_dims(cx, op, "(C22)", "result", out, rank, dims));
    }
    return graph_verify_same_elem(cx, op, "(C23)", "operand", x, "result", out);
}

static enum base_status scatter(struct verify_ctx *cx, const struct graph_op *op)
{
    if (op->n_operands < 3 || op->n_operands % 2 != 1)
        return graph_verify_fail(cx, op, "(C5) expects N > 0 inputs, the indices and N updates, got %d operands",
                           op->n_operands);
    int n = (op->n_operands - 1) / 2;
    VTRY(graph_verify_counts(cx, op, 2 * n + 1, 2 * n + 1, n, n, 1));
    if (n > VERIFY_MAX_VARIADIC)
        return graph_verify_unsupported(cx, op, "more than %d inputs", VERIFY_MAX_VARIADIC);
    const struct graph_type *x = verify_in(op, 0), *idx = verify_in(op, n),
                            *up = verify_in(op, n + 1);
    VTRY(graph_verify_need_class(cx, op, "(I2) scatter_indices", idx, VC_INT));
    const struct graph_type *ins[VERIFY_MAX_VARIADIC];
    for (int i = 0; i < n; i++) {
        char wi[32], wu[32], wr[32];
        snprintf(wi, sizeof wi, "input %d", i);
        snprintf(wu, sizeof wu, "update %d", i);
        snprintf(wr, sizeof wr, "result %d", i);
        ins[i] = verify_in(op, i);
        VTRY(graph_verify_need_tensor(cx, op, wi, ins[i]));
        VTRY(graph_verify_need_tensor(cx, op, wu, verify_in(op, n + 1 + i)));
        VTRY(graph_verify_same_shape(cx, op, "(C1)", "input 0", x, wi, ins[i]));
        VTRY(graph_verify_same_shape(cx, op, "(C3)", "update 0", up, wu, verify_in(op, n + 1 + i)));
        VTRY(graph_verify_same_shape(cx, op, "(C24)", wi, ins[i], wr, verify_out(op, i)));
    }
    const struct graph_attr *dn = graph_op_attr(op, "scatter_dimension_numbers");
    if (!dn || dn->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "requires a 'scatter_dimension_numbers' attribute");
    struct verify_dlist uwd, iwd, xbat, ibat, map;
    int64_t ivd;
    VTRY(graph_verify_dict_list(cx, op, dn, "update_window_dims", &uwd));
    VTRY(graph_verify_dict_list(cx, op, dn, "inserted_window_dims", &iwd));
    VTRY(graph_verify_dict_list(cx, op, dn, "input_batching_dims", &xbat));
    VTRY(graph_verify_dict_list(cx, op, dn, "scatter_indices_batching_dims", &ibat));
    VTRY(graph_verify_dict_list(cx, op, dn, "scatter_dims_to_operand_dims", &map));
    VTRY(dict_int(cx, op, dn, "index_vector_dim", &ivd));
    int xr = x->rank;
    if (xr >= 0 && xr != uwd.n + iwd.n + xbat.n)
        return graph_verify_fail(cx, op,
                           "(C2) input rank %d must equal size(update_window_dims) %d + "
                           "size(inserted_window_dims) %d + size(input_batching_dims) %d",
                           xr, uwd.n, iwd.n, xbat.n);
    VTRY(need_sorted_unique(cx, op, "(C7)", "update_window_dims", &uwd, true));
    if (up->rank >= 0) VTRY(graph_verify_list_in_range(cx, op, "(C8)", "update_window_dims", uwd.n, uwd.v, up->rank));
    VTRY(need_unique2(cx, op, "(C9)", "inserted_window_dims + input_batching_dims", &iwd, &xbat));
    VTRY(need_sorted_unique(cx, op, "(C10)", "inserted_window_dims", &iwd, true));
    VTRY(need_sorted_unique(cx, op, "(C12)", "input_batching_dims", &xbat, true));
    if (xr >= 0) {
        VTRY(graph_verify_list_in_range(cx, op, "(C11)", "inserted_window_dims", iwd.n, iwd.v, xr));
        VTRY(graph_verify_list_in_range(cx, op, "(C13)", "input_batching_dims", xbat.n, xbat.v, xr));
        VTRY(graph_verify_list_in_range(cx, op, "(C21)", "scatter_dims_to_operand_dims", map.n, map.v, xr));
    }
    static const char *const lab[] = {"(C22)", "(C19)", "(C14)", "(C15)", "(C16)"};
    VTRY(index_checks(cx, op, idx, ivd, &map, "scatter_dims_to_operand_dims", &ibat, lab));
    VTRY(batch_sizes(cx, op, "(C17)", "(C18)", x, &xbat, idx, &ibat));
    VTRY(need_unique2(cx, op, "(C20)", "scatter_dims_to_operand_dims + input_batching_dims", &map, &xbat));
    /* (C4) updates = scatter dims of the indices with window dims at update_window_dims */
    if (xr >= 0 && idx->rank >= 0 && up->rank >= 0) {
        int64_t sdims[R], wdims[R];
        int ns = 0, nw = 0;
        for (int d = 0; d < idx->rank; d++)
            if (d != ivd) sdims[ns++] = idx->dims[d];
        for (int d = 0; d < xr; d++)
            if (!graph_verify_list_has(iwd.n, iwd.v, d) && !graph_verify_list_has(xbat.n, xbat.v, d))
                wdims[nw++] = x->dims[d];
        if (up->rank != ns + uwd.n)
            return graph_verify_fail(cx, op,
                               "(C4) updates have rank %d but must have %d (%d scatter dims of the "
                               "indices + %d update_window_dims)",
                               up->rank, ns + uwd.n, ns, uwd.n);
        int si = 0, wi = 0;
        for (int d = 0; d < up->rank; d++) {
            int64_t u = up->dims[d];
            if (graph_verify_list_has(uwd.n, uwd.v, d)) {
                int64_t b = wi < nw ? wdims[wi] : GRAPH_DYN;
                wi++;
                if (u != GRAPH_DYN && b != GRAPH_DYN && u > b)
                    return graph_verify_fail(cx, op, "(C4) update window dim %d has size %lld, more than the input's %lld",
                                       d, (long long)u, (long long)b);
            } else {
                int64_t s = si < ns ? sdims[si] : GRAPH_DYN;
                si++;
                if (!verify_dim_compat(u, s))
                    return graph_verify_fail(cx, op, "(C4) update scatter dim %d has size %lld but the indices give %lld",
                                       d, (long long)u, (long long)s);
            }
        }
    }
    /* as upstream's verifyScatterOp: the updates' element types act as the
     * reducer's init values (promotable to its results); the spec's
     * "updates have the inputs' element types" (C6) is not checked */
    const struct graph_type *acc[VERIFY_MAX_VARIADIC], *upd[VERIFY_MAX_VARIADIC];
    struct graph_type upd_scalar[VERIFY_MAX_VARIADIC];
    for (int i = 0; i < n; i++) {
        upd_scalar[i] = *verify_in(op, n + 1 + i);
        upd_scalar[i].rank = 0;
        upd_scalar[i].encoding = NULL;
        upd[i] = &upd_scalar[i];
    }
    VTRY(graph_verify_reducer(cx, op, 0, "(C23) update_computation", n, ins, upd, 0, NULL, acc));
    for (int i = 0; i < n; i++)
        if (!graph_verify_elem_baseline_equal(verify_out(op, i), acc[i])) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "(C25) result %d has type %s but update_computation computes %s",
                               i, graph_verify_tstr(verify_out(op, i), ta, sizeof ta),
                               graph_verify_tstr(acc[i], tb, sizeof tb));
        }
    return BASE_OK;
}

static enum base_status torch_index_select(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *x = verify_in(op, 0), *idx = verify_in(op, 1), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", x));
    VTRY(graph_verify_need_class(cx, op, "index", idx, VC_INT));
    VTRY(graph_verify_same_elem(cx, op, "", "operand", x, "result", out));
    int64_t dim, bd;
    VTRY(graph_verify_op_int(cx, op, "dim", NULL, &dim));
    VTRY(graph_verify_op_int(cx, op, "batch_dims", NULL, &bd));
    if (x->rank < 0 || idx->rank < 0) return BASE_OK;
    if (dim < 0) dim += x->rank;
    if (bd < 0) bd += idx->rank;
    if (dim < 0 || dim >= x->rank || bd < 0 || bd > dim || bd > idx->rank)
        return graph_verify_fail(cx, op, "needs 0 <= batch_dims <= dim < operand rank %d and batch_dims <= index rank %d",
                           x->rank, idx->rank);
    int rank = (int)(x->rank - 1 + idx->rank - bd);
    if (rank > R) return graph_verify_fail(cx, op, "result rank %d exceeds %d", rank, R);
    int64_t dims[R];
    int k = 0;
    for (int d = 0; d < dim; d++) dims[k++] = x->dims[d];
    for (int d = (int)bd; d < idx->rank; d++) dims[k++] = idx->dims[d];
    for (int d = (int)dim + 1; d < x->rank; d++) dims[k++] = x->dims[d];
    return graph_verify_result_dims(cx, op, "", "result", out, rank, dims);
}

enum base_status graph_verify_gather_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_GATHER: return gather(cx, op, false);
    case GRAPH_OP_DYNAMIC_GATHER: return gather(cx, op, true);
    case GRAPH_OP_SCATTER: return scatter(cx, op);
    case GRAPH_OP_TORCH_INDEX_SELECT: return torch_index_select(cx, op);
    default: return BASE_OK;
    }
}
