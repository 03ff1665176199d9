/* Data-dependent addressing: CC_K_GATHER, CC_K_DYNAMIC_SLICE,
 * CC_K_DYNAMIC_UPDATE_SLICE, CC_K_SCATTER (replacing updates only).
 *
 * The runtime reads the index operands (the kernel's dyn operands) from HBM
 * before emission, so every start is a known number here: each kernel is
 * HBM -> HBM DMAs between views, the source a slice of the operand at the
 * (clamped) start.  gather moves one slice per batch index (the cores share
 * the batch indices); dynamic_update_slice copies the operand into the
 * output and then the update over it, each core its own rows so that the
 * update's writes can wait for the copy's (a scratchpad token orders them);
 * scatter likewise on one core, one DMA per update window.  Without
 * dyn values (timing-only runs) every index is 0.  Bits move unchanged. */
#include "compiler/cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR BASE_MAX_RANK

static int find_in(const struct cc_kernel *k, const struct graph_value *v)
{
    for (int i = 0; i < k->n_in; i++)
        if (k->in[i].value == v) return i;
    return -1;
}

static bool contains(const int64_t *a, int n, int64_t v)
{
    for (int i = 0; i < n; i++)
        if (a[i] == v) return true;
    return false;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Element e (row-major over its view's dims) of dyn operand i; 0 without
 * values. */
static bool dyn_at(const struct cc_kernel *k, const struct cc_emit_ctx *ctx, int i, int64_t e, int64_t *out)
{
    *out = 0;
    if (!ctx || !ctx->dyn) return true;
    if (i >= k->n_dyn || !k->dyn_views || !ctx->dyn[i]) return false;
    const struct cc_view *v = &k->dyn_views[i];
    const struct base_tensor *t = ctx->dyn[i];
    size_t es = base_dtype_size(v->dtype);
    if (es != base_dtype_size(t->dtype) || !base_dtype_is_int(v->dtype)) return false;
    int64_t off = (int64_t)(v->addr / es);
    for (int d = v->rank - 1; d >= 0; d--) {
        int64_t n = v->dims[d] > 0 ? v->dims[d] : 1;
        off += (e % n) * v->strides[d];
        e /= n;
    }
    if (off < 0 || (uint64_t)off >= (uint64_t)t->count) return false;
    *out = base_elem_get_i64(v->dtype, t->data, (size_t)off);
    return true;
}

/* Elements per partition of an HBM -> HBM tile (as k_move.c). */
static int64_t move_free(const struct cc_kb *b, int64_t count, size_t es)
{
    uint64_t tile = (uint64_t)count * es;
    if (tile < (1u << 20)) tile = 1u << 20;
    if (tile > (16u << 20)) tile = 16u << 20;
    int64_t f = (int64_t)(tile / ((uint64_t)b->partitions * es));
    return f < 1 ? 1 : f;
}

/* DMAs dst <- src (same dims) tile by tile, every DMA with access acc. */
static enum base_status copy_view(struct cc_kb *b, struct cc_tiling *tl, const struct cc_view *src,
                                  const struct cc_view *dst, const struct cc_access *acc, int n_acc)
{
    int64_t count = cc_view_count(src);
    if (count == 0) return BASE_OK;
    size_t es = base_dtype_size(src->dtype);
    struct cc_view views[2] = {*src, *dst};
    enum base_status st = cc_tiling_plan(tl, src->rank, src->dims, views, 2, b->partitions, move_free(b, count, es));
    if (st != BASE_OK) return cc_kb_fail(b, st, "cannot tile a slice");
    for (int64_t g = 0; g < tl->n_tiles; g++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, g, &region, &box);
        struct isa_ap s, d;
        if (!cc_tiling_ap(tl, region, 0, &box, &s) || !cc_tiling_ap(tl, region, 1, &box, &d))
            return cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a tile");
        uint32_t P = cc_tiling_parts(tl, region, &box);
        uint64_t F = cc_tiling_free(tl, region, &box);
        TRY(cc_kb_dma(b, &d, &s, acc, n_acc, cc_kb_dma_pieces(b, (uint64_t)P * F * es, P)));
    }
    return BASE_OK;
}

/* The view of `in` at start, of sizes (a slice). */
static void view_at(const struct cc_view *in, const int64_t *start, const int64_t *sizes, struct cc_view *out)
{
    int64_t limit[MAXR], stride[MAXR];
    for (int d = 0; d < in->rank; d++) {
        limit[d] = start[d] + sizes[d];
        stride[d] = 1;
    }
    cc_view_slice(in, start, limit, stride, out);
}

/* Clamped starts of a dynamic slice: dyn operands first.. of one element each. */
static enum base_status starts_of(struct cc_kb *b, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                  const struct cc_view *x, const int64_t *sizes, int64_t *start)
{
    if (k->n_dyn != x->rank) return cc_kb_fail(b, BASE_ERR_INVALID, "%d start indices for rank %d", k->n_dyn, x->rank);
    for (int d = 0; d < x->rank; d++) {
        if (sizes[d] < 0 || sizes[d] > x->dims[d])
            return cc_kb_fail(b, BASE_ERR_INVALID, "slice size %lld of dimension %d exceeds the operand",
                              (long long)sizes[d], d);
        int64_t v;
        if (!dyn_at(k, ctx, d, 0, &v)) return cc_kb_fail(b, BASE_ERR_INVALID, "cannot read start index %d", d);
        start[d] = clamp64(v, 0, x->dims[d] - sizes[d]);
    }
    return BASE_OK;
}

struct ix {
    struct cc_kb *b;
    struct cc_tiling *tl;
    const struct graph_op *op;
};

static enum base_status ix_begin(struct ix *s, const struct cc_target *t, const struct cc_kernel *k,
                                 struct isa_program *out, struct base_diag *diag, enum graph_op_kind kind)
{
    s->b = cc_kb_new(t, k, out, diag);
    s->tl = calloc(1, sizeof *s->tl);
    s->op = k->n_ops == 1 ? k->ops[0] : NULL;
    if (!s->b || !s->tl) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (!s->op || s->op->kind != kind || k->n_out != 1 || s->op->n_operands < 1 || find_in(k, s->op->operands[0]) < 0)
        return cc_kb_fail(s->b, BASE_ERR_INVALID, "a %s kernel is the op alone", cc_kernel_kind_name(k->kind));
    return BASE_OK;
}

static void ix_end(struct ix *s)
{
    free(s->tl);
    cc_kb_free(s->b);
}

enum base_status cc_emit_dynamic_slice(const struct cc_target *t, const struct cc_kernel *k,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    struct ix s;
    enum base_status st = ix_begin(&s, t, k, out, diag, GRAPH_OP_DYNAMIC_SLICE);
    if (st != BASE_OK) goto done;
    const struct cc_view *x = &k->in[find_in(k, s.op->operands[0])].view;
    int64_t sizes[MAXR], start[MAXR];
    if (graph_attr_as_i64_list(graph_op_attr(s.op, "slice_sizes"), sizes, MAXR) != x->rank) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "slice_sizes must have one size per operand dimension");
        goto done;
    }
    st = starts_of(s.b, k, ctx, x, sizes, start);
    if (st != BASE_OK) goto done;
    /* one core moves it: a slice is one transfer's worth */
    if (ctx && ctx->core != 0) goto done;
    struct cc_view src;
    view_at(x, start, sizes, &src);
    st = copy_view(s.b, s.tl, &src, &k->out[0].view, NULL, 0);
done:
    ix_end(&s);
    return st;
}

enum base_status cc_emit_dynamic_update_slice(const struct cc_target *t, const struct cc_kernel *k,
                                              const struct cc_emit_ctx *ctx, struct isa_program *out,
                                              struct base_diag *diag)
{
    struct ix s;
    enum base_status st = ix_begin(&s, t, k, out, diag, GRAPH_OP_DYNAMIC_UPDATE_SLICE);
    if (st != BASE_OK) goto done;
    int ui = s.op->n_operands > 1 ? find_in(k, s.op->operands[1]) : -1;
    const struct cc_view *x = &k->in[find_in(k, s.op->operands[0])].view;
    const struct cc_view *o = &k->out[0].view;
    if (ui < 0 || k->in[ui].view.rank != x->rank || o->rank != x->rank) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "the update must be a kernel input of the operand's rank");
        goto done;
    }
    const struct cc_view *u = &k->in[ui].view;
    int64_t start[MAXR];
    st = starts_of(s.b, k, ctx, x, u->dims, start);
    if (st != BASE_OK) goto done;
    /* each core takes a range of rows (dim 0): the operand's rows, then the
     * part of the update that lands in them, ordered by a token */
    int64_t lo = 0, hi = 1;
    if (x->rank > 0)
        cc_core_share(x->dims[0], ctx, &lo, &hi);
    else if (ctx && ctx->core != 0)
        goto done;
    if (lo >= hi) goto done;
    int tok = cc_kb_buffer(s.b, 64, 1);
    if (tok < 0) {
        st = BASE_ERR_LIMIT;
        goto done;
    }
    struct cc_access rd = {tok, 0, CC_RD}, wr = {tok, 0, CC_WR};
    int64_t z[MAXR] = {0}, sizes[MAXR];
    struct cc_view xr = *x, orow = *o, dst, ur = *u;
    if (x->rank > 0) {
        memcpy(sizes, x->dims, sizeof sizes);
        z[0] = lo;
        sizes[0] = hi - lo;
        view_at(x, z, sizes, &xr);
        view_at(o, z, sizes, &orow);
    }
    if (x->addr != o->addr || memcmp(x->strides, o->strides, sizeof x->strides) != 0) {
        st = copy_view(s.b, s.tl, &xr, &orow, &rd, 1);
        if (st != BASE_OK) goto done;
    }
    int64_t ustart[MAXR];
    memcpy(ustart, start, sizeof ustart);
    if (x->rank > 0) { /* the update's rows in [lo, hi) */
        int64_t a = start[0] > lo ? start[0] : lo, e = start[0] + u->dims[0] < hi ? start[0] + u->dims[0] : hi;
        if (a >= e) goto done;
        int64_t uz[MAXR] = {0}, usz[MAXR];
        memcpy(usz, u->dims, sizeof usz);
        uz[0] = a - start[0];
        usz[0] = e - a;
        view_at(u, uz, usz, &ur);
        ustart[0] = a;
    }
    view_at(o, ustart, ur.dims, &dst);
    st = copy_view(s.b, s.tl, &ur, &dst, &wr, 1);
done:
    ix_end(&s);
    return st;
}

enum base_status cc_emit_gather(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag)
{
    struct ix s;
    enum base_status st = ix_begin(&s, t, k, out, diag, GRAPH_OP_GATHER);
    if (st != BASE_OK) goto done;
    const struct graph_op *op = s.op;
    const struct cc_view *x = &k->in[find_in(k, op->operands[0])].view;
    const struct cc_view *o = &k->out[0].view;
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    int64_t offd[MAXR], coll[MAXR], obd[MAXR], sibd[MAXR], sim[MAXR], slice[MAXR], ivd = 0;
    int n_off = graph_attr_as_i64_list(graph_dict_get(dn, "offset_dims"), offd, MAXR);
    int n_coll = graph_attr_as_i64_list(graph_dict_get(dn, "collapsed_slice_dims"), coll, MAXR);
    int n_obd = graph_attr_as_i64_list(graph_dict_get(dn, "operand_batching_dims"), obd, MAXR);
    int n_sibd = graph_attr_as_i64_list(graph_dict_get(dn, "start_indices_batching_dims"), sibd, MAXR);
    int n_sim = graph_attr_as_i64_list(graph_dict_get(dn, "start_index_map"), sim, MAXR);
    const struct graph_attr *ivda = graph_dict_get(dn, "index_vector_dim");
    /* absent lists are empty */
    n_off = n_off < 0 ? 0 : n_off;
    n_coll = n_coll < 0 ? 0 : n_coll;
    n_obd = n_obd < 0 ? 0 : n_obd;
    n_sibd = n_sibd < 0 ? 0 : n_sibd;
    n_sim = n_sim < 0 ? 0 : n_sim;
    const struct graph_type *sty = op->n_operands > 1 ? op->operands[1]->type : NULL;
    int R = x->rank, S = sty ? sty->rank : -1;
    if (!dn || (ivda && !graph_attr_as_i64(ivda, &ivd)) || S < 0 || k->n_dyn != 1 || !k->dyn_views ||
        k->dyn_views[0].rank != S || graph_attr_as_i64_list(graph_op_attr(op, "slice_sizes"), slice, MAXR) != R ||
        ivd < 0 || ivd > S || n_off + n_coll + n_obd != R || n_obd != n_sibd) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed gather");
        goto done;
    }
    const int64_t *sidims = k->dyn_views[0].dims;
    int64_t sist[MAXR];
    base_shape_strides(S, sidims, sist);
    int n_batch = S - (ivd < S ? 1 : 0);
    if (n_sim != (ivd < S ? sidims[ivd] : 1) || n_batch + n_off != o->rank) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed gather");
        goto done;
    }
    int64_t bsid[MAXR], bdims[MAXR], bpos[MAXR], wod[MAXR], jb[MAXR];
    for (int j = 0, q = 0; j < n_batch; j++, q++) {
        if (q == ivd) q++;
        bsid[j] = q;
        bdims[j] = sidims[q];
    }
    for (int d = 0, w = 0; d < R; d++)
        if (!contains(coll, n_coll, d) && !contains(obd, n_obd, d)) wod[w++] = d;
    for (int d = 0, j = 0, w = 0; d < o->rank; d++) {
        if (w < n_off && offd[w] == d)
            w++;
        else
            bpos[j++] = d;
    }
    for (int i = 0; i < n_obd; i++) jb[i] = sibd[i] < ivd ? sibd[i] : sibd[i] - 1;
    int64_t ivstride = ivd < S ? sist[ivd] : 0;
    size_t es = base_dtype_size(x->dtype);
    /* the slice's window, and where it lands: views of rank n_off */
    struct cc_view src, dst;
    memset(&src, 0, sizeof src);
    src.dtype = x->dtype;
    src.rank = n_off;
    dst = src;
    for (int w = 0; w < n_off; w++) {
        src.dims[w] = slice[wod[w]];
        src.strides[w] = x->strides[wod[w]];
        dst.dims[w] = o->dims[offd[w]];
        dst.strides[w] = o->strides[offd[w]];
        if (src.dims[w] != dst.dims[w]) {
            st = cc_kb_fail(s.b, BASE_ERR_INVALID, "offset dim %d of the result is not its slice size", w);
            goto done;
        }
    }
    int64_t n_slices = 1;
    for (int j = 0; j < n_batch; j++) n_slices *= bdims[j];
    int64_t lo, hi;
    cc_core_share(n_slices, ctx, &lo, &hi);
    /* this core's slices: operand and result offsets (elements) */
    int64_t (*offs)[2] = calloc((size_t)(hi > lo ? hi - lo : 1), sizeof *offs);
    if (!offs) {
        st = cc_kb_fail(s.b, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t g = lo; g < hi && st == BASE_OK; g++) {
        int64_t bidx[MAXR], rem = g, sipos = 0, roff = 0, xoff = 0, full[MAXR] = {0};
        for (int j = n_batch - 1; j >= 0; j--) {
            bidx[j] = rem % bdims[j];
            rem /= bdims[j];
        }
        for (int j = 0; j < n_batch; j++) {
            sipos += bidx[j] * sist[bsid[j]];
            roff += bidx[j] * o->strides[bpos[j]];
        }
        for (int q = 0; q < n_sim; q++) {
            int64_t v;
            if (!dyn_at(k, ctx, 0, sipos + q * ivstride, &v)) {
                st = cc_kb_fail(s.b, BASE_ERR_INVALID, "cannot read start index %lld", (long long)(sipos + q * ivstride));
                break;
            }
            full[sim[q]] += clamp64(v, 0, x->dims[sim[q]] - slice[sim[q]]);
        }
        for (int i = 0; i < n_obd; i++) full[obd[i]] += bidx[jb[i]];
        for (int d = 0; d < R && st == BASE_OK; d++) {
            if (full[d] < 0 || full[d] + slice[d] > x->dims[d]) {
                st = cc_kb_fail(s.b, BASE_ERR_INVALID, "slice start %lld of dimension %d leaves the operand",
                                (long long)full[d], d);
                break;
            }
            xoff += full[d] * x->strides[d];
        }
        offs[g - lo][0] = xoff;
        offs[g - lo][1] = roff;
    }
    /* runs of slices whose offsets step evenly (repeated or consecutive
     * indices) move as one DMA, the run an outer dim of both views */
    for (int64_t g = lo; g < hi && st == BASE_OK;) {
        int64_t n = 1, dx = 0, dr = 0;
        if (n_off < MAXR && g + 1 < hi) {
            dx = offs[g + 1 - lo][0] - offs[g - lo][0];
            dr = offs[g + 1 - lo][1] - offs[g - lo][1];
            if (dr != 0)
                while (g + n < hi && offs[g + n - lo][0] - offs[g + n - 1 - lo][0] == dx &&
                       offs[g + n - lo][1] - offs[g + n - 1 - lo][1] == dr)
                    n++;
        }
        struct cc_view sr = src, ds = dst;
        if (n > 1) {
            for (int w = n_off; w > 0; w--) {
                sr.dims[w] = sr.dims[w - 1];
                sr.strides[w] = sr.strides[w - 1];
                ds.dims[w] = ds.dims[w - 1];
                ds.strides[w] = ds.strides[w - 1];
            }
            sr.rank = ds.rank = n_off + 1;
            sr.dims[0] = ds.dims[0] = n;
            sr.strides[0] = dx;
            ds.strides[0] = dr;
        }
        sr.addr = (uint64_t)((int64_t)x->addr + offs[g - lo][0] * (int64_t)es);
        ds.addr = (uint64_t)((int64_t)o->addr + offs[g - lo][1] * (int64_t)es);
        st = copy_view(s.b, s.tl, &sr, &ds, NULL, 0);
        g += n;
    }
    free(offs);
done:
    ix_end(&s);
    return st;
}

/* ------------------------------------------------------------------ scatter */

/* The region returns its second argument (the update) unchanged. */
static bool region_replaces(const struct graph_op *op)
{
    if (op->n_regions != 1 || op->regions[0].n_blocks != 1) return false;
    const struct graph_block *b = &op->regions[0].blocks[0];
    if (b->n_args != 2 || b->n_ops != 1) return false;
    const struct graph_op *term = b->ops[0];
    if (term->n_operands != 1) return false;
    const struct graph_value *v = term->operands[0];
    return !v->def && v->block == b && v->index == 1 && b->args[1].type && !b->args[1].type->quant &&
           b->args[1].type->elem == op->operands[0]->type->elem;
}

bool cc_scatter_op_supported(const struct graph_op *op, char *why, size_t cap)
{
    const char *msg = NULL;
    if (op->n_operands != 3 || op->n_results != 1)
        msg = "scatter of several inputs is not lowered";
    else if (op->operands[2]->type->elem != op->operands[0]->type->elem)
        msg = "updates of another element type are not lowered";
    else if (!region_replaces(op))
        msg = "only scatters whose update_computation returns the update are lowered";
    if (!msg) return true;
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* Updates in row-major order of their scatter dims, each window (cropped to
 * the result) one DMA after the operand's copy; all on one core, each write
 * waiting for the previous ones (a later update of the same place wins, as in
 * the interpreter).  Indices are not clamped: windows leaving the result are
 * cropped, and updates whose inserted or batching dims leave it are skipped. */
enum base_status cc_emit_scatter(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                 struct isa_program *out, struct base_diag *diag)
{
    struct ix s;
    enum base_status st = ix_begin(&s, t, k, out, diag, GRAPH_OP_SCATTER);
    if (st != BASE_OK) goto done;
    const struct graph_op *op = s.op;
    int ui = op->n_operands == 3 ? find_in(k, op->operands[2]) : -1;
    const struct graph_attr *dn = graph_op_attr(op, "scatter_dimension_numbers");
    if (ui < 0 || !dn || k->n_dyn != 1 || !k->dyn_views) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed scatter");
        goto done;
    }
    const struct cc_view *x = &k->in[find_in(k, op->operands[0])].view;
    const struct cc_view *u = &k->in[ui].view;
    const struct cc_view *o = &k->out[0].view;
    int64_t uwd[MAXR], iwd[MAXR], ibd[MAXR], sibd[MAXR], sdod[MAXR], ivd = 0;
    int n_uwd = graph_attr_as_i64_list(graph_dict_get(dn, "update_window_dims"), uwd, MAXR);
    int n_iwd = graph_attr_as_i64_list(graph_dict_get(dn, "inserted_window_dims"), iwd, MAXR);
    int n_ibd = graph_attr_as_i64_list(graph_dict_get(dn, "input_batching_dims"), ibd, MAXR);
    int n_sibd = graph_attr_as_i64_list(graph_dict_get(dn, "scatter_indices_batching_dims"), sibd, MAXR);
    int n_sdod = graph_attr_as_i64_list(graph_dict_get(dn, "scatter_dims_to_operand_dims"), sdod, MAXR);
    n_uwd = n_uwd < 0 ? 0 : n_uwd;
    n_iwd = n_iwd < 0 ? 0 : n_iwd;
    n_ibd = n_ibd < 0 ? 0 : n_ibd;
    n_sibd = n_sibd < 0 ? 0 : n_sibd;
    n_sdod = n_sdod < 0 ? 0 : n_sdod;
    const struct graph_attr *ivda = graph_dict_get(dn, "index_vector_dim");
    const struct cc_view *sv = &k->dyn_views[0];
    int R = x->rank, S = sv->rank, U = u->rank;
    int n_sc;
    if ((ivda && !graph_attr_as_i64(ivda, &ivd)) || ivd < 0 || ivd > S || n_uwd + n_iwd + n_ibd != R ||
        n_ibd != n_sibd || n_sdod != (ivd < S ? sv->dims[ivd] : 1) || o->rank != R) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed scatter");
        goto done;
    }
    n_sc = S - (ivd < S ? 1 : 0);
    if (U != n_sc + n_uwd) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed scatter");
        goto done;
    }
    int64_t wod[MAXR], usd[MAXR], sid_of[MAXR], ubd[MAXR], sist[MAXR];
    bool is_window[MAXR] = {false};
    for (int d = 0, w = 0; d < R && w < n_uwd; d++)
        if (!contains(iwd, n_iwd, d) && !contains(ibd, n_ibd, d)) wod[w++] = d;
    for (int w = 0; w < n_uwd; w++) is_window[uwd[w]] = true;
    for (int d = 0, j = 0, q = 0; d < U; d++) {
        if (is_window[d]) continue;
        if (q == ivd) q++;
        usd[j] = d;
        sid_of[j] = q;
        j++;
        q++;
    }
    for (int i = 0; i < n_ibd; i++) ubd[i] = usd[sibd[i] < ivd ? sibd[i] : sibd[i] - 1];
    base_shape_strides(S, sv->dims, sist);
    int64_t ivstride = ivd < S ? sist[ivd] : 0;
    size_t es = base_dtype_size(x->dtype);
    /* one core: updates may overlap and must land in order */
    if (ctx && ctx->core != 0) goto done;
    int tok = cc_kb_buffer(s.b, 64, 1);
    if (tok < 0) {
        st = BASE_ERR_LIMIT;
        goto done;
    }
    /* the copy writes the token; updates read it (they wait for the copy
     * only) unless two of them overlap: then each writes it (in order) */
    struct cc_access rd = {tok, 0, CC_RD}, wr = {tok, 0, CC_WR};
    if (x->addr != o->addr || memcmp(x->strides, o->strides, sizeof x->strides) != 0) {
        st = copy_view(s.b, s.tl, x, o, &wr, 1);
        if (st != BASE_OK) goto done;
    }
    int64_t n_upd = 1;
    for (int j = 0; j < n_sc; j++) n_upd *= u->dims[usd[j]];
    if (cc_view_count(u) == 0) n_upd = 0;
    enum { MAX_BOXES = 1024 };
    bool overlap = n_upd > MAX_BOXES;
    int64_t (*boxes)[2][MAXR] = overlap ? NULL : calloc((size_t)(n_upd + 1), sizeof *boxes);
    if (!overlap && !boxes) {
        st = cc_kb_fail(s.b, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int pass = overlap ? 1 : 0; pass < 2 && st == BASE_OK; pass++)
    for (int64_t g = 0; g < n_upd && st == BASE_OK; g++) {
        int64_t sidx[MAXR], rem = g, sipos = 0, uoff = 0, full[MAXR] = {0};
        for (int j = n_sc - 1; j >= 0; j--) {
            sidx[j] = rem % u->dims[usd[j]];
            rem /= u->dims[usd[j]];
        }
        for (int j = 0; j < n_sc; j++) {
            sipos += sidx[j] * sist[sid_of[j]];
            uoff += sidx[j] * u->strides[usd[j]];
        }
        for (int q = 0; q < n_sdod; q++) {
            int64_t v;
            if (!dyn_at(k, ctx, 0, sipos + q * ivstride, &v)) {
                st = cc_kb_fail(s.b, BASE_ERR_INVALID, "cannot read scatter index %lld", (long long)(sipos + q * ivstride));
                break;
            }
            full[sdod[q]] += clamp64(v, -((int64_t)1 << 40), (int64_t)1 << 40);
        }
        for (int i = 0; i < n_ibd; i++) {
            for (int j = 0; j < n_sc; j++)
                if (usd[j] == ubd[i]) full[ibd[i]] += sidx[j];
        }
        bool inside = st == BASE_OK;
        for (int d = 0; d < R; d++) {
            bool win = false;
            for (int w = 0; w < n_uwd; w++) win = win || wod[w] == d;
            if (!win && (full[d] < 0 || full[d] >= o->dims[d])) inside = false;
        }
        if (!inside) continue;
        struct cc_view src, dst;
        memset(&src, 0, sizeof src);
        src.dtype = x->dtype;
        src.rank = n_uwd;
        dst = src;
        int64_t soff = uoff, doff = 0;
        for (int d = 0; d < R; d++) {
            bool win = false;
            for (int w = 0; w < n_uwd; w++) win = win || wod[w] == d;
            if (!win) doff += full[d] * o->strides[d];
        }
        for (int w = 0; w < n_uwd && inside; w++) {
            int64_t d = wod[w], size = u->dims[uwd[w]];
            int64_t lo = full[d] < 0 ? -full[d] : 0;
            int64_t hi = o->dims[d] - full[d] < size ? o->dims[d] - full[d] : size;
            if (lo >= hi) inside = false;
            src.dims[w] = dst.dims[w] = hi - lo;
            src.strides[w] = u->strides[uwd[w]];
            dst.strides[w] = o->strides[d];
            soff += lo * src.strides[w];
            doff += (full[d] + lo) * dst.strides[w];
        }
        if (!inside) continue;
        if (pass == 0) { /* the written box; does it meet an earlier one? */
            int64_t *lo = boxes[g][0], *hi = boxes[g][1];
            for (int d = 0; d < R; d++) {
                lo[d] = full[d];
                hi[d] = full[d] + 1;
            }
            for (int w = 0; w < n_uwd; w++) {
                int64_t d = wod[w];
                lo[d] = full[d] < 0 ? 0 : full[d];
                hi[d] = lo[d] + src.dims[w];
            }
            for (int64_t h = 0; h < g && !overlap; h++) {
                bool meet = boxes[h][1][0] > boxes[h][0][0] || R == 0; /* empty (skipped) boxes meet nothing */
                for (int d = 0; d < R && meet; d++) meet = lo[d] < boxes[h][1][d] && boxes[h][0][d] < hi[d];
                overlap = meet;
            }
            continue;
        }
        src.addr = (uint64_t)((int64_t)u->addr + soff * (int64_t)es);
        dst.addr = (uint64_t)((int64_t)o->addr + doff * (int64_t)es);
        st = copy_view(s.b, s.tl, &src, &dst, overlap ? &wr : &rd, 1);
    }
    free(boxes);
done:
    ix_end(&s);
    return st;
}
