/* Golden interpreter: gather, dynamic_gather, scatter, torch_index_select.
 *
 * gather copies one slice window per batch index with interp_shape_copy (an
 * embedding lookup becomes one memcpy per looked-up row).  scatter walks the
 * updates in row-major order, as the reference interpreter does, one
 * contiguous run of the last update dimension at a time; the update region is
 * skipped when it is "return the update" (a memcpy) or a plain binary op
 * (interp_scalar_binary), and called per element otherwise.
 */
#include "interp/interp_shape_internal.h"

#include <string.h>

#define MAXR GRAPH_MAX_RANK

/* Index values beyond this are out of bounds for any tensor; clamping them here
 * keeps the index arithmetic free of overflow. */
#define FAR_INDEX (INT64_C(1) << 40)

static enum base_status operand(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, int i, struct base_tensor **t)
{
    if (i >= op->n_operands || !(*t = iv_t(in[i])))
        return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is missing or not a tensor", i);
    return BASE_OK;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static bool contains(const int64_t *a, int n, int64_t v)
{
    for (int i = 0; i < n; i++)
        if (a[i] == v) return true;
    return false;
}

/* Reads a dimension-numbers list field; fails when it is too long. */
static enum base_status dn_list(struct interp_proc *p, const struct graph_op *op,
                                const struct graph_attr *dn, const char *name, int64_t *out, int *n)
{
    *n = interp_i64_list(graph_dict_get(dn, name), out, MAXR);
    if (*n < 0 || *n > MAXR)
        return interp_fail(p, op, BASE_ERR_VERIFY, "%s is not a list of at most %d dimensions",
                           name, MAXR);
    return BASE_OK;
}

/* index_vector_dim of gather / scatter dimension numbers; 0 when absent (the
 * pretty form omits it then). */
static enum base_status index_vector_dim(struct interp_proc *p, const struct graph_op *op,
                                         const struct graph_attr *dn, int64_t *ivd)
{
    const struct graph_attr *a = graph_dict_get(dn, "index_vector_dim");
    *ivd = 0;
    if (a && !graph_attr_as_i64(a, ivd))
        return interp_fail(p, op, BASE_ERR_VERIFY, "index_vector_dim is not an integer");
    return BASE_OK;
}

/* All entries in [0, bound) and unique. */
static enum base_status check_dims(struct interp_proc *p, const struct graph_op *op,
                                   const char *name, const int64_t *a, int n, int64_t bound)
{
    for (int i = 0; i < n; i++) {
        if (a[i] < 0 || a[i] >= bound || contains(a, i, a[i]))
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "%s[%d] = %lld is out of range [0, %lld) or repeated", name, i,
                               (long long)a[i], (long long)bound);
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* gather                                                                    */

static enum base_status gather_common(struct interp_proc *p, const struct graph_op *op,
                                      struct base_tensor *x, struct base_tensor *si,
                                      const int64_t *slice, struct interp_value **out)
{
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    if (!dn) return interp_fail(p, op, BASE_ERR_VERIFY, "dimension_numbers is missing");
    int64_t offd[MAXR], coll[MAXR], obd[MAXR], sibd[MAXR], sim[MAXR], ivd;
    int n_off, n_coll, n_obd, n_sibd, n_sim;
    TRY(dn_list(p, op, dn, "offset_dims", offd, &n_off));
    TRY(dn_list(p, op, dn, "collapsed_slice_dims", coll, &n_coll));
    TRY(dn_list(p, op, dn, "operand_batching_dims", obd, &n_obd));
    TRY(dn_list(p, op, dn, "start_indices_batching_dims", sibd, &n_sibd));
    TRY(dn_list(p, op, dn, "start_index_map", sim, &n_sim));
    TRY(index_vector_dim(p, op, dn, &ivd));

    int R = x->rank, S = si->rank;
    if (!base_dtype_is_int(si->dtype))
        return interp_fail(p, op, BASE_ERR_VERIFY, "start_indices must have an integer type");
    if (interp_result_dtype(p, op, 0) != x->dtype)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "result element type differs from the operand's");
    if (ivd < 0 || ivd > S)
        return interp_fail(p, op, BASE_ERR_VERIFY, "index_vector_dim %lld not in [0, %d]",
                           (long long)ivd, S);
    if (n_off + n_coll + n_obd != R)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "rank(operand) != size(offset_dims) + size(collapsed_slice_dims) + "
                           "size(operand_batching_dims)");
    if (n_sim != (ivd < S ? si->dims[ivd] : 1))
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "size(start_index_map) does not match the index vector");
    if (n_obd != n_sibd)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "operand_batching_dims and start_indices_batching_dims differ in size");
    TRY(check_dims(p, op, "collapsed_slice_dims", coll, n_coll, R));
    TRY(check_dims(p, op, "operand_batching_dims", obd, n_obd, R));
    TRY(check_dims(p, op, "start_index_map", sim, n_sim, R));
    TRY(check_dims(p, op, "start_indices_batching_dims", sibd, n_sibd, S));
    for (int d = 0; d < R; d++) {
        if (slice[d] < 0 || slice[d] > x->dims[d])
            return interp_fail(p, op, BASE_ERR_VERIFY, "slice_sizes[%d] = %lld not in [0, %lld]", d,
                               (long long)slice[d], (long long)x->dims[d]);
        if ((contains(coll, n_coll, d) || contains(obd, n_obd, d)) && slice[d] > 1)
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "slice_sizes[%d] of a collapsed or batching dimension exceeds 1", d);
        if (contains(coll, n_coll, d) && contains(obd, n_obd, d))
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "dimension %d is both collapsed and batching", d);
    }
    for (int i = 0; i < n_sibd; i++) {
        if (sibd[i] == ivd)
            return interp_fail(p, op, BASE_ERR_VERIFY, "index_vector_dim is a batching dimension");
        if (si->dims[sibd[i]] != x->dims[obd[i]])
            return interp_fail(p, op, BASE_ERR_VERIFY, "batching dimension sizes differ");
    }

    /* Batch dims of the result <-> start_indices dims other than ivd, in order;
     * window (offset) dims of the result <-> operand dims neither collapsed nor
     * batching, in order. */
    int n_batch = S - (ivd < S ? 1 : 0), rrank = n_batch + n_off;
    if (rrank > MAXR) return interp_fail(p, op, BASE_ERR_VERIFY, "result rank exceeds %d", MAXR);
    TRY(check_dims(p, op, "offset_dims", offd, n_off, rrank));
    int64_t rdims[MAXR], bdims[MAXR], bsid[MAXR], bpos[MAXR], wod[MAXR];
    for (int j = 0, s = 0; j < n_batch; j++, s++) {
        if (s == ivd) s++;
        bsid[j] = s;
        bdims[j] = si->dims[s];
    }
    for (int d = 0, w = 0; d < R; d++)
        if (!contains(coll, n_coll, d) && !contains(obd, n_obd, d)) wod[w++] = d;
    for (int d = 0, j = 0, w = 0; d < rrank; d++) {
        if (w < n_off && offd[w] == d)
            rdims[d] = slice[wod[w++]];
        else {
            bpos[j] = d;
            rdims[d] = bdims[j++];
        }
    }
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, rrank, rdims, &r));

    int64_t xst[MAXR], rst[MAXR], sist[MAXR], wdims[MAXR], wds[MAXR], wss[MAXR], jb[MAXR];
    base_shape_strides(R, x->dims, xst);
    base_shape_strides(rrank, rdims, rst);
    base_shape_strides(S, si->dims, sist);
    for (int w = 0; w < n_off; w++) {
        wdims[w] = slice[wod[w]];
        wds[w] = rst[offd[w]];
        wss[w] = xst[wod[w]];
    }
    for (int i = 0; i < n_obd; i++) jb[i] = sibd[i] < ivd ? sibd[i] : sibd[i] - 1;
    int64_t ivstride = ivd < S ? sist[ivd] : 0;
    size_t esz = base_dtype_size(x->dtype);

    if (r->count) {
        int64_t bidx[MAXR] = {0};
        for (;;) {
            int64_t sipos = 0, roff = 0, xoff = 0, full[MAXR] = {0};
            for (int j = 0; j < n_batch; j++) {
                sipos += bidx[j] * sist[bsid[j]];
                roff += bidx[j] * rst[bpos[j]];
            }
            for (int k = 0; k < n_sim; k++) {
                int64_t od = sim[k];
                int64_t v = interp_shape_index_at(si, sipos + k * ivstride);
                full[od] += clamp64(v, 0, x->dims[od] - slice[od]);
            }
            for (int i = 0; i < n_obd; i++) full[obd[i]] += bidx[jb[i]];
            for (int d = 0; d < R; d++) {
                if (full[d] < 0 || full[d] + slice[d] > x->dims[d]) {
                    base_tensor_release(r);
                    return interp_fail(p, op, BASE_ERR_VERIFY,
                                       "slice start %lld of dimension %d leaves the operand "
                                       "(start_index_map overlaps batching dims?)",
                                       (long long)full[d], d);
                }
                xoff += full[d] * xst[d];
            }
            interp_shape_copy(esz, n_off, wdims, (char *)r->data + (size_t)roff * esz, wds,
                              (const char *)x->data + (size_t)xoff * esz, wss);
            int j = n_batch - 1;
            for (; j >= 0; j--) {
                if (++bidx[j] < bdims[j]) break;
                bidx[j] = 0;
            }
            if (j < 0) break;
        }
    }
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status k_gather(struct interp_proc *p, const struct graph_op *op,
                                 struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x, *si;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &si));
    int64_t slice[MAXR];
    if (interp_shape_attr_list(op, "slice_sizes", slice, MAXR) != x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "slice_sizes must list rank(operand) = %d values", x->rank);
    return gather_common(p, op, x, si, slice, out);
}

static enum base_status k_dynamic_gather(struct interp_proc *p, const struct graph_op *op,
                                         struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *x, *si, *ts;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &si));
    TRY(operand(p, op, in, 2, &ts));
    int64_t slice[MAXR];
    if (!base_dtype_is_int(ts->dtype) || ts->rank != 1 || ts->count != x->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "slice_sizes must be a 1-D integer tensor of %d values", x->rank);
    for (int d = 0; d < x->rank; d++) slice[d] = interp_shape_index_at(ts, d);
    return gather_common(p, op, x, si, slice, out);
}

/* torch_index_select(operand, index, dim, batch_dims):
 * result[p..., q..., s...] = operand[p..., index[p[:batch_dims]..., q...], s...]
 * with p the first `dim` dims, q the non-batch dims of index.  Indices are
 * clamped into range, as gather (its lowering) does. */
static enum base_status k_torch_index_select(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in,
                                             struct interp_value **out)
{
    struct base_tensor *x, *ix;
    TRY(operand(p, op, in, 0, &x));
    TRY(operand(p, op, in, 1, &ix));
    int64_t dim = 0, nb = 0;
    if (!interp_shape_attr_i64(op, "dim", &dim))
        return interp_fail(p, op, BASE_ERR_VERIFY, "dim is missing");
    interp_shape_attr_i64(op, "batch_dims", &nb);
    if (dim < 0) dim += x->rank;
    if (nb < 0) nb += ix->rank;
    if (dim < 0 || dim >= x->rank || nb < 0 || nb > dim || nb > ix->rank ||
        !base_dtype_is_int(ix->dtype))
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "dim/batch_dims out of range or integer index expected");
    for (int d = 0; d < nb; d++)
        if (ix->dims[d] != x->dims[d])
            return interp_fail(p, op, BASE_ERR_VERIFY, "batch dimension %d differs", d);
    if (interp_result_dtype(p, op, 0) != x->dtype)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "result element type differs from the operand's");
    int nq = ix->rank - (int)nb, rrank = x->rank - 1 + nq;
    if (rrank > MAXR) return interp_fail(p, op, BASE_ERR_VERIFY, "result rank exceeds %d", MAXR);
    int64_t rdims[MAXR];
    int k = 0;
    for (int d = 0; d < dim; d++) rdims[k++] = x->dims[d];
    for (int d = (int)nb; d < ix->rank; d++) rdims[k++] = ix->dims[d];
    for (int d = (int)dim + 1; d < x->rank; d++) rdims[k++] = x->dims[d];
    struct base_tensor *r;
    TRY(interp_shape_alloc(p, op, 0, rrank, rdims, &r));
    /* outer = prod(dims[:dim]) (batch part first), rows of the index, inner run. */
    int64_t inner = 1, pre_b = 1, pre_rest = 1, nqc = 1;
    for (int d = (int)dim + 1; d < x->rank; d++) inner *= x->dims[d];
    for (int d = 0; d < nb; d++) pre_b *= x->dims[d];
    for (int d = (int)nb; d < dim; d++) pre_rest *= x->dims[d];
    for (int d = (int)nb; d < ix->rank; d++) nqc *= ix->dims[d];
    size_t esz = base_dtype_size(x->dtype), run = (size_t)inner * esz;
    int64_t n = x->dims[dim];
    char *dst = r->data;
    if (r->count)
        for (int64_t b = 0; b < pre_b; b++)
            for (int64_t m = 0; m < pre_rest; m++)
                for (int64_t q = 0; q < nqc; q++) {
                    int64_t v = clamp64(interp_shape_index_at(ix, b * nqc + q), 0, n - 1);
                    const char *src = (const char *)x->data +
                                      (size_t)(((b * pre_rest + m) * n + v) * inner) * esz;
                    memcpy(dst, src, run);
                    dst += run;
                }
    return interp_set_out(p, op, out, 0, r);
}

/* ------------------------------------------------------------------------ */
/* scatter                                                                   */

enum scatter_mode { SC_GENERIC, SC_REPLACE, SC_BINARY };

/* Region argument i is a scalar of exactly dt (not quantized, no conversion). */
static bool region_arg_is(const struct graph_block *b, int i, enum base_dtype dt)
{
    if (i >= b->n_args) return false;
    const struct graph_type *t = b->args[i].type;
    return t && t->kind == GRAPH_TYPE_TENSOR && !t->quant && t->rank == 0 && t->elem == dt;
}

struct scatter_plan {
    enum scatter_mode mode;
    enum graph_op_kind kind; /* SC_BINARY */
    bool swapped;            /* region computes op(update, current) */
};

static void scatter_choose(struct interp_proc *p, const struct graph_op *op, int n_in,
                           enum base_dtype dt, enum base_dtype udt, struct scatter_plan *plan)
{
    plan->mode = SC_GENERIC;
    const struct graph_region *r = &op->regions[0];
    if (n_in != 1 || dt != udt || r->n_blocks != 1) return;
    const struct graph_block *b = &r->blocks[0];
    if (b->n_args != 2) return;
    int ret = interp_shape_region_returns_arg(r);
    if (ret == 1 && (p->dequant_mode || region_arg_is(b, 1, dt))) {
        plan->mode = SC_REPLACE;
        return;
    }
    if (p->dequant_mode || !region_arg_is(b, 0, dt) || !region_arg_is(b, 1, dt)) return;
    enum graph_op_kind k = interp_region_simple_binary(r);
    if (!interp_scalar_binary_is_fast(k) || b->n_ops != 2) return;
    const struct graph_op *bin = b->ops[0];
    if (bin->n_results != 1 || !bin->results[0].type || bin->results[0].type->elem != dt ||
        bin->results[0].type->quant)
        return;
    if (bin->n_operands != 2) return;
    const struct graph_value *a0 = bin->operands[0], *a1 = bin->operands[1];
    if (a0->def || a1->def || a0->block != b || a1->block != b || a0->index == a1->index) return;
    /* Keep the region's operand order: op(current, update) or op(update, current). */
    plan->swapped = a0->index == 1;
    plan->kind = k;
    plan->mode = SC_BINARY;
}

struct scatter_ctx {
    struct interp_proc *p;
    const struct graph_op *op;
    int n;                    /* number of inputs */
    struct base_tensor **res; /* n results (being written) */
    struct base_tensor **upd; /* n updates */
    struct scatter_plan plan;
    struct interp_shape_args args;
};

/* Applies updates[ui0 + w] to results[ri0 + w * rstride] for w in [w0, w1). */
static enum base_status scatter_run(struct scatter_ctx *c, int64_t ri0, int64_t rstride,
                                    int64_t ui0, int64_t w0, int64_t w1)
{
    struct base_tensor *res = c->res[0], *upd = c->upd[0];
    size_t esz = base_dtype_size(res->dtype);
    switch (c->plan.mode) {
    case SC_REPLACE:
        if (rstride == 1) {
            memcpy((char *)res->data + (size_t)(ri0 + w0) * esz,
                   (const char *)upd->data + (size_t)(ui0 + w0) * esz, (size_t)(w1 - w0) * esz);
        } else {
            for (int64_t w = w0; w < w1; w++)
                memcpy((char *)res->data + (size_t)(ri0 + w * rstride) * esz,
                       (const char *)upd->data + (size_t)(ui0 + w) * esz, esz);
        }
        return BASE_OK;
    case SC_BINARY:
        for (int64_t w = w0; w < w1; w++) {
            size_t ri = (size_t)(ri0 + w * rstride), ui = (size_t)(ui0 + w);
            if (c->plan.swapped)
                interp_scalar_binary(c->plan.kind, res->dtype, res->data, ri, upd->data, ui,
                                     res->data, ri);
            else
                interp_scalar_binary(c->plan.kind, res->dtype, res->data, ri, res->data, ri,
                                     upd->data, ui);
        }
        return BASE_OK;
    case SC_GENERIC: break;
    }
    const struct graph_region *region = &c->op->regions[0];
    int n = c->n;
    for (int64_t w = w0; w < w1; w++) {
        int64_t ri = ri0 + w * rstride, ui = ui0 + w;
        for (int m = 0; m < n; m++) {
            enum base_status st =
                interp_shape_args_set(&c->args, m, c->res[m]->dtype, c->res[m]->data, ri);
            if (st == BASE_OK)
                st = interp_shape_args_set(&c->args, n + m, c->upd[m]->dtype, c->upd[m]->data, ui);
            if (st != BASE_OK) return interp_fail(c->p, c->op, st, "cannot build region arguments");
        }
        struct interp_value *rv[INTERP_SHAPE_MAX_ARGS];
        int nr = 0;
        TRY(interp_call_region(c->p, region, 2 * n, c->args.v, rv, INTERP_SHAPE_MAX_ARGS, &nr));
        enum base_status st = BASE_OK;
        if (nr != n)
            st = interp_fail(c->p, c->op, BASE_ERR_VERIFY,
                             "update_computation returned %d values, expected %d", nr, n);
        for (int m = 0; m < nr && st == BASE_OK; m++)
            if (!interp_store_scalar(rv[m], c->res[m], ri))
                st = interp_fail(c->p, c->op, BASE_ERR_VERIFY,
                                 "update_computation result %d is not a scalar", m);
        for (int m = 0; m < nr; m++) interp_value_release(rv[m]);
        if (st != BASE_OK) return st;
    }
    return BASE_OK;
}

static enum base_status k_scatter(struct interp_proc *p, const struct graph_op *op,
                                  struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands < 3 || (op->n_operands - 1) % 2 ||
        op->n_results != (op->n_operands - 1) / 2 || op->n_regions != 1)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "scatter needs N inputs, indices, N updates, N results and a region");
    int n = (op->n_operands - 1) / 2;
    if (2 * n > INTERP_SHAPE_MAX_ARGS)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "scatter with more than %d inputs",
                           INTERP_SHAPE_MAX_ARGS / 2);
    struct base_tensor *xs[INTERP_SHAPE_MAX_ARGS / 2], *us[INTERP_SHAPE_MAX_ARGS / 2], *si;
    for (int m = 0; m < n; m++) {
        TRY(operand(p, op, in, m, &xs[m]));
        TRY(operand(p, op, in, n + 1 + m, &us[m]));
    }
    TRY(operand(p, op, in, n, &si));
    struct base_tensor *x = xs[0], *u = us[0];
    for (int m = 0; m < n; m++) {
        if (xs[m]->rank != x->rank ||
            memcmp(xs[m]->dims, x->dims, (size_t)x->rank * sizeof x->dims[0]))
            return interp_fail(p, op, BASE_ERR_VERIFY, "inputs differ in shape");
        if (us[m]->rank != u->rank ||
            memcmp(us[m]->dims, u->dims, (size_t)u->rank * sizeof u->dims[0]))
            return interp_fail(p, op, BASE_ERR_VERIFY, "updates differ in shape");
        if (interp_result_dtype(p, op, m) != xs[m]->dtype)
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "result %d element type differs from input's", m);
    }
    if (!base_dtype_is_int(si->dtype))
        return interp_fail(p, op, BASE_ERR_VERIFY, "scatter_indices must have an integer type");

    const struct graph_attr *dn = graph_op_attr(op, "scatter_dimension_numbers");
    if (!dn) return interp_fail(p, op, BASE_ERR_VERIFY, "scatter_dimension_numbers is missing");
    int64_t uwd[MAXR], iwd[MAXR], ibd[MAXR], sibd[MAXR], sdod[MAXR], ivd;
    int n_uwd, n_iwd, n_ibd, n_sibd, n_sdod;
    TRY(dn_list(p, op, dn, "update_window_dims", uwd, &n_uwd));
    TRY(dn_list(p, op, dn, "inserted_window_dims", iwd, &n_iwd));
    TRY(dn_list(p, op, dn, "input_batching_dims", ibd, &n_ibd));
    TRY(dn_list(p, op, dn, "scatter_indices_batching_dims", sibd, &n_sibd));
    TRY(dn_list(p, op, dn, "scatter_dims_to_operand_dims", sdod, &n_sdod));
    TRY(index_vector_dim(p, op, dn, &ivd));

    int R = x->rank, S = si->rank, U = u->rank;
    if (ivd < 0 || ivd > S)
        return interp_fail(p, op, BASE_ERR_VERIFY, "index_vector_dim %lld not in [0, %d]",
                           (long long)ivd, S);
    if (n_uwd + n_iwd + n_ibd != R)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "rank(inputs[0]) != size(update_window_dims) + "
                           "size(inserted_window_dims) + size(input_batching_dims)");
    if (n_sdod != (ivd < S ? si->dims[ivd] : 1))
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "size(scatter_dims_to_operand_dims) does not match the index vector");
    int n_sc = S - (ivd < S ? 1 : 0); /* update scatter dims */
    if (U != n_sc + n_uwd)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "rank(updates) != number of scatter dims + size(update_window_dims)");
    if (n_ibd != n_sibd)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "input_batching_dims and scatter_indices_batching_dims differ in size");
    TRY(check_dims(p, op, "update_window_dims", uwd, n_uwd, U));
    TRY(check_dims(p, op, "inserted_window_dims", iwd, n_iwd, R));
    TRY(check_dims(p, op, "input_batching_dims", ibd, n_ibd, R));
    TRY(check_dims(p, op, "scatter_dims_to_operand_dims", sdod, n_sdod, R));
    TRY(check_dims(p, op, "scatter_indices_batching_dims", sibd, n_sibd, S));
    for (int i = 0; i < n_sibd; i++)
        if (sibd[i] == ivd)
            return interp_fail(p, op, BASE_ERR_VERIFY, "index_vector_dim is a batching dimension");

    /* Update dim roles: window dims map to the input dims that are neither
     * inserted nor batching (in order); scatter dims map to the indices dims
     * other than ivd (in order). */
    int64_t wod[MAXR], usd[MAXR] = {0}, sid_of[MAXR];
    bool is_window[MAXR] = {false};
    for (int d = 0, w = 0; d < R; d++)
        if (!contains(iwd, n_iwd, d) && !contains(ibd, n_ibd, d)) {
            if (w >= n_uwd) break;
            wod[uwd[w++]] = d;
        }
    for (int w = 0; w < n_uwd; w++) is_window[uwd[w]] = true;
    for (int d = 0, j = 0, s = 0; d < U; d++) {
        if (is_window[d]) continue;
        if (s == ivd) s++;
        usd[j] = d;
        sid_of[j] = s;
        if (u->dims[d] != si->dims[s])
            return interp_fail(
                p, op, BASE_ERR_VERIFY,
                "update scatter dimension %d (%lld) != scatter_indices dimension %d (%lld)", d,
                (long long)u->dims[d], s, (long long)si->dims[s]);
        j++;
        s++;
    }
    /* batching: input dim ibd[i] takes update dim ubd[i] */
    int64_t ubd[MAXR];
    for (int i = 0; i < n_ibd; i++) ubd[i] = usd[sibd[i] < ivd ? sibd[i] : sibd[i] - 1];

    struct base_tensor *res[INTERP_SHAPE_MAX_ARGS / 2] = {NULL};
    enum base_status st = BASE_OK;
    for (int m = 0; m < n && st == BASE_OK; m++) {
        st = base_tensor_clone(xs[m], &res[m]);
        if (st != BASE_OK) st = interp_fail(p, op, st, "cannot allocate result %d", m);
    }

    struct scatter_ctx c = {.p = p, .op = op, .n = n, .res = res, .upd = us};
    scatter_choose(p, op, n, x->dtype, u->dtype, &c.plan);
    if (c.plan.mode == SC_GENERIC && st == BASE_OK) {
        enum base_dtype adt[INTERP_SHAPE_MAX_ARGS];
        const struct graph_region *r = &op->regions[0];
        for (int m = 0; m < 2 * n; m++) {
            enum base_dtype own = m < n ? xs[m]->dtype : us[m - n]->dtype;
            /* The spec converts updates to the region's argument types. */
            adt[m] = p->dequant_mode ? own : interp_region_arg_dtype(r, m, own);
        }
        if (r->n_blocks != 1 || r->blocks[0].n_args != 2 * n)
            st = interp_fail(p, op, BASE_ERR_VERIFY, "update_computation must take %d scalars",
                             2 * n);
        interp_shape_args_init(&c.args, 2 * n, adt);
    }

    int64_t rst[MAXR], ust[MAXR], sist[MAXR];
    base_shape_strides(R, x->dims, rst);
    base_shape_strides(U, u->dims, ust);
    base_shape_strides(S, si->dims, sist);
    int64_t ivstride = ivd < S ? sist[ivd] : 0;

    /* Walk the updates in row-major order, one run of the last dim at a time
     * when it is a window dim (else element by element). */
    bool run_mode = U > 0 && is_window[U - 1];
    int outer = run_mode ? U - 1 : U;
    int64_t run = run_mode ? u->dims[U - 1] : 1;
    int64_t od_run = run_mode ? wod[U - 1] : -1;
    if (st == BASE_OK && u->count > 0) {
        int64_t uidx[MAXR] = {0};
        for (;;) {
            int64_t full[MAXR] = {0}, sipos = 0, uoff = 0;
            for (int d = 0; d < outer; d++) uoff += uidx[d] * ust[d];
            for (int j = 0; j < n_sc; j++) sipos += uidx[usd[j]] * sist[sid_of[j]];
            for (int k = 0; k < n_sdod; k++)
                full[sdod[k]] +=
                    clamp64(interp_shape_index_at(si, sipos + k * ivstride), -FAR_INDEX, FAR_INDEX);
            for (int i = 0; i < n_ibd; i++) full[ibd[i]] += uidx[ubd[i]];
            for (int d = 0; d < outer; d++)
                if (is_window[d]) full[wod[d]] += uidx[d];
            /* In bounds except along the run's dim, where [w0, w1) is. */
            bool inside = true;
            for (int d = 0; d < R; d++)
                if (d != od_run && (full[d] < 0 || full[d] >= x->dims[d])) inside = false;
            if (inside) {
                int64_t w0 = 0, w1 = run, roff = 0;
                if (run_mode) {
                    int64_t base = full[od_run];
                    if (base < 0) w0 = -base;
                    if (x->dims[od_run] - base < w1) w1 = x->dims[od_run] - base;
                }
                if (w0 < w1) {
                    for (int d = 0; d < R; d++) roff += full[d] * rst[d];
                    st = scatter_run(&c, roff, run_mode ? rst[od_run] : 0, uoff, w0, w1);
                    if (st != BASE_OK) break;
                }
            }
            int d = outer - 1;
            for (; d >= 0; d--) {
                if (++uidx[d] < u->dims[d]) break;
                uidx[d] = 0;
            }
            if (d < 0) break;
        }
    }
    if (c.plan.mode == SC_GENERIC) interp_shape_args_deinit(&c.args);
    return interp_set_outs(p, op, st, out, res, n);
}

void interp_register_shape_gather(interp_kernel_fn *table)
{
    table[GRAPH_OP_GATHER] = k_gather;
    table[GRAPH_OP_DYNAMIC_GATHER] = k_dynamic_gather;
    table[GRAPH_OP_SCATTER] = k_scatter;
    table[GRAPH_OP_TORCH_INDEX_SELECT] = k_torch_index_select;
}
