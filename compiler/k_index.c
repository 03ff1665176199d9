/* Data-dependent addressing: CC_K_GATHER, CC_K_DYNAMIC_SLICE,
 * CC_K_DYNAMIC_UPDATE_SLICE, CC_K_SCATTER.
 *
 * The runtime reads the index operands (the kernel's dyn operands) from HBM
 * before emission, so every start is a known number here: each kernel is
 * HBM -> HBM DMAs between views, the source a slice of the operand at the
 * (clamped) start.  gather moves one slice per batch index (the cores share
 * the batch indices); dynamic_update_slice copies the operand into the
 * output and then the update over it, each core its own rows so that the
 * update's writes can wait for the copy's (a scratchpad token orders them);
 * scatter likewise on one core, one DMA per replacing update window, a
 * read-modify-write (scratchpad, one vector binary) per combining one.
 * Without dyn values (timing-only runs) every index is 0.  Bits move
 * unchanged, except through a scatter's combining function. */
#include "compiler/cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR BASE_MAX_RANK

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
    if (!base_dtype_is_int(v->dtype)) return false;
    int64_t off = 0;
    for (int d = v->rank - 1; d >= 0; d--) {
        int64_t n = v->dims[d] > 0 ? v->dims[d] : 1;
        off += (e % n) * v->strides[d];
        e /= n;
    }
    /* the element's bytes in the buffer, which a view may read as another
     * type (a bitcast_convert between widths: i32[n, 2] read as i64[n]) */
    int64_t byte = (int64_t)v->addr + off * (int64_t)es;
    if (byte < 0 || (uint64_t)byte + es > base_tensor_nbytes(t)) return false;
    if (es == base_dtype_size(t->dtype) && byte % (int64_t)es == 0 && v->dtype == t->dtype) {
        *out = base_elem_get_i64(v->dtype, t->data, (size_t)(byte / (int64_t)es));
        return true;
    }
    unsigned char raw[16] = {0};
    memcpy(raw, (const unsigned char *)t->data + byte, es);
    *out = base_elem_get_i64(v->dtype, raw, 0);
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
    if (!s->op || s->op->kind != kind || k->n_out != 1 || s->op->n_operands < 1 || cc_kernel_input_index(k, s->op->operands[0]) < 0)
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
    const struct cc_view *x = &k->in[cc_kernel_input_index(k, s.op->operands[0])].view;
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
    int ui = s.op->n_operands > 1 ? cc_kernel_input_index(k, s.op->operands[1]) : -1;
    const struct cc_view *x = &k->in[cc_kernel_input_index(k, s.op->operands[0])].view;
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
    const struct cc_view *x = &k->in[cc_kernel_input_index(k, op->operands[0])].view;
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
    int64_t bsid[MAXR], bdims[MAXR], bpos[MAXR], wod[MAXR] = {0}, jb[MAXR];
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
        int64_t bidx[MAXR] = {0}, rem = g, sipos = 0, roff = 0, xoff = 0, full[MAXR] = {0};
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

/* How a scatter's update_computation combines the current value (its
 * argument 0) with the update (argument 1). */
enum sc_kind {
    SC_REPLACE, /* returns the update */
    SC_KEEP,    /* returns the current value: the result is the operand */
    SC_ALU,     /* func(current, update); swapped: func(update, current) */
};
struct sc_comb {
    enum sc_kind kind;
    unsigned func;
    bool swapped;
};

static bool scalar_of(const struct graph_type *t, enum base_dtype dt)
{
    return t && t->kind == GRAPH_TYPE_TENSOR && !t->quant && t->rank == 0 && t->elem == dt;
}

/* Which argument of block b the value v is, or -1. */
static int arg_index(const struct graph_block *b, const struct graph_value *v)
{
    for (int i = 0; i < b->n_args; i++)
        if (v == &b->args[i]) return i;
    return -1;
}

static bool why_is(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* The combination the region computes, in the golden interpreter's terms:
 * returning an argument, subtract (either order; the reduce kernels do not
 * take it), or a reduction body as the reduce kernels identify it
 * (cc_body_binary_func: add, multiply, maximum, minimum, and, or, xor,
 * boolean bodies by their truth table). */
static bool sc_combiner(const struct graph_op *op, struct sc_comb *c, char *why, size_t cap)
{
    memset(c, 0, sizeof *c);
    enum base_dtype dt = op->operands[0]->type->elem;
    if (op->n_regions != 1 || op->regions[0].n_blocks != 1)
        return why_is(why, cap, "the update_computation must be one block");
    const struct graph_block *b = &op->regions[0].blocks[0];
    const struct graph_op *ret = graph_block_terminator(b);
    if (b->n_args != 2 || !ret || ret->n_operands != 1 || !scalar_of(b->args[0].type, dt) ||
        !scalar_of(b->args[1].type, dt))
        return why_is(why, cap, "the update_computation must take two scalars of the element type and return one");
    int a = arg_index(b, ret->operands[0]);
    if (a >= 0) {
        c->kind = a == 1 ? SC_REPLACE : SC_KEEP;
        return true;
    }
    bool fl = base_dtype_is_float(dt);
    if (base_dtype_is_complex(dt) || (fl && base_dtype_bits(dt) > 32))
        return why_is(why, cap, "accumulating scatter of f64 or complex elements is not lowered");
    const struct graph_op *o = ret->operands[0]->def;
    if (o && o->parent == b && o->kind == GRAPH_OP_SUBTRACT && o->n_operands == 2 && o->n_results == 1 &&
        scalar_of(o->results[0].type, dt)) {
        int i0 = arg_index(b, o->operands[0]), i1 = arg_index(b, o->operands[1]);
        if (i0 >= 0 && i1 >= 0 && i0 != i1) {
            /* on i1 the interpreter's a - b is stored as (a - b) != 0: xor */
            c->kind = SC_ALU;
            c->func = dt == BASE_DT_I1 ? ISA_ALU_IXOR : fl ? ISA_ALU_SUB : ISA_ALU_ISUB;
            c->swapped = i0 == 1;
            return true;
        }
    }
    char w[200];
    if (!cc_body_binary_func(op, &c->func, w, sizeof w)) {
        if (why && cap) snprintf(why, cap, "update_computation not lowered: %s (or subtract, or returning an argument)", w);
        return false;
    }
    if (dt == BASE_DT_I1) { /* the interpreter's add and maximum are or, multiply and minimum and */
        if (c->func == ISA_ALU_IADD || c->func == ISA_ALU_IMAX) c->func = ISA_ALU_IOR;
        if (c->func == ISA_ALU_IMUL || c->func == ISA_ALU_IMIN) c->func = ISA_ALU_IAND;
    }
    c->kind = SC_ALU; /* every function cc_body_binary_func gives commutes */
    return true;
}

bool cc_scatter_op_supported(const struct graph_op *op, char *why, size_t cap)
{
    if (op->n_operands > 3 && op->n_operands % 2 == 1 && op->n_results == (op->n_operands - 1) / 2)
        return why_is(why, cap, "scatter of several inputs (variadic) is not lowered");
    if (op->n_operands != 3 || op->n_results != 1) return why_is(why, cap, "malformed scatter");
    if (op->operands[2]->type->elem != op->operands[0]->type->elem)
        return why_is(why, cap, "updates of another element type are not lowered");
    struct sc_comb c;
    return sc_combiner(op, &c, why, cap);
}

/* A scatter's geometry (as the interpreter's k_scatter) and the walk over
 * its updates: update dims it[0..n_it) one index at a time in row-major
 * order, the other (window) dims of the update each step's piece. */
struct sc {
    const struct cc_kernel *k;
    const struct cc_emit_ctx *ctx;
    const struct cc_view *u, *o;
    int R, U, n_sc, n_sdod, n_ibd;
    int64_t wod[MAXR], usd[MAXR], sid_of[MAXR], ubd[MAXR], ibd[MAXR], sdod[MAXR], sist[MAXR], ivstride;
    int win_of[MAXR]; /* update dim -> window ordinal (operand dim wod[]), or -1 */
    int n_it, it[MAXR];
    bool iterated[MAXR];
    int64_t n_pieces;
};

/* One step: the window cropped to the result (u and o offsets and strides in
 * elements) and the result box it covers. */
struct sc_piece {
    int64_t uoff, ooff;
    int n;
    int64_t dims[MAXR], ustr[MAXR], ostr[MAXR];
    int64_t lo[MAXR], hi[MAXR];
    int64_t org[MAXR]; /* where the window's first element would land (uncropped) */
};

/* The walk: split = false steps over the update scatter dims (a piece is a
 * whole update window); true steps over every update dim up to the last
 * scatter dim, so that the pieces come in the interpreter's row-major update
 * order even when a window dim precedes a scatter dim. */
static void sc_walk(struct sc *g, bool split)
{
    int last = -1;
    for (int j = 0; j < g->n_sc; j++)
        if (g->usd[j] > last) last = (int)g->usd[j];
    g->n_it = 0;
    g->n_pieces = cc_view_count(g->u) > 0 ? 1 : 0;
    for (int d = 0; d < g->U; d++) {
        g->iterated[d] = g->win_of[d] < 0 || (split && d < last);
        if (!g->iterated[d]) continue;
        g->it[g->n_it++] = d;
        g->n_pieces *= g->u->dims[d];
    }
}

/* Piece i of the walk; *inside false when it leaves the result (skipped, as
 * the interpreter skips update elements out of bounds). */
static bool sc_piece_at(const struct sc *g, int64_t i, struct sc_piece *p, bool *inside)
{
    int64_t idx[MAXR] = {0}, full[MAXR] = {0}, sipos = 0, rem = i;
    memset(p, 0, sizeof *p);
    *inside = false;
    for (int q = g->n_it - 1; q >= 0; q--) {
        int d = g->it[q];
        idx[d] = rem % g->u->dims[d];
        rem /= g->u->dims[d];
        p->uoff += idx[d] * g->u->strides[d];
    }
    for (int j = 0; j < g->n_sc; j++) sipos += idx[g->usd[j]] * g->sist[g->sid_of[j]];
    for (int q = 0; q < g->n_sdod; q++) {
        int64_t v;
        if (!dyn_at(g->k, g->ctx, 0, sipos + q * g->ivstride, &v)) return false;
        full[g->sdod[q]] += clamp64(v, -((int64_t)1 << 40), (int64_t)1 << 40);
    }
    for (int q = 0; q < g->n_ibd; q++) full[g->ibd[q]] += idx[g->ubd[q]];
    memcpy(p->org, full, sizeof p->org);
    bool piece_dim[MAXR] = {false};
    for (int d = 0; d < g->U; d++) {
        if (g->win_of[d] < 0) continue;
        int64_t od = g->wod[g->win_of[d]];
        if (g->iterated[d]) full[od] += idx[d]; /* one position of the window */
        else piece_dim[od] = true;
    }
    for (int d = 0; d < g->R; d++) {
        if (piece_dim[d]) continue;
        if (full[d] < 0 || full[d] >= g->o->dims[d]) return true;
        p->ooff += full[d] * g->o->strides[d];
        p->lo[d] = full[d];
        p->hi[d] = full[d] + 1;
    }
    for (int d = 0; d < g->U; d++) {
        if (g->win_of[d] < 0 || g->iterated[d]) continue;
        int64_t od = g->wod[g->win_of[d]], size = g->u->dims[d];
        int64_t lo = full[od] < 0 ? -full[od] : 0;
        int64_t hi = g->o->dims[od] - full[od] < size ? g->o->dims[od] - full[od] : size;
        if (lo >= hi) return true;
        p->dims[p->n] = hi - lo;
        p->ustr[p->n] = g->u->strides[d];
        p->ostr[p->n] = g->o->strides[od];
        p->uoff += lo * g->u->strides[d];
        p->ooff += (full[od] + lo) * g->o->strides[od];
        p->lo[od] = full[od] + lo;
        p->hi[od] = full[od] + hi;
        p->n++;
    }
    *inside = true;
    return true;
}

/* Whether the order in which updates reach an element changes its value:
 * not for the integer functions that commute and associate (wrapping). */
static bool sc_ordered(const struct sc_comb *c, enum base_dtype dt)
{
    if (c->kind != SC_ALU) return true;
    /* float maximum and minimum are exact and commute (NaN propagates from
     * either side, -0 < +0): only a NaN's payload may follow the order, and
     * a NaN matches any NaN.  Position by position along the window (the
     * split walk) a 20 x 468 window of 130 updates took 1.2 M pieces. */
    if (base_dtype_is_float(dt)) return c->func != ISA_ALU_MAX && c->func != ISA_ALU_MIN;
    switch (c->func) {
    case ISA_ALU_IADD:
    case ISA_ALU_IMUL:
    case ISA_ALU_IMAX:
    case ISA_ALU_IMIN:
    case ISA_ALU_IAND:
    case ISA_ALU_IOR:
    case ISA_ALU_IXOR: return false;
    case ISA_ALU_ISUB: return c->swapped; /* x - a - b = x - b - a */
    default: return true;
    }
}

/* A group's extent along one result dim, for sorting. */
struct sc_key {
    int64_t lo, hi, g;
};

static int key_cmp(const void *a, const void *b)
{
    const struct sc_key *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return x->g < y->g ? -1 : x->g > y->g;
}

static bool boxes_meet(const int64_t *alo, const int64_t *ahi, const int64_t *blo, const int64_t *bhi, int R)
{
    for (int d = 0; d < R; d++)
        if (!(alo[d] < bhi[d] && blo[d] < ahi[d])) return false;
    return true;
}

/* Scratchpad state of the read-modify-writes; the slots are the loads in
 * flight ahead of the vector engine. */
#define SC_SLOTS CC_KB_MAX_SLOTS
#define SC_UPD_BUFS 4
struct sc_rmw {
    int cur;                /* the result's current values (SC_SLOTS slots) */
    int upd[SC_UPD_BUFS];   /* the updates (SC_SLOTS slots each, used in turn) */
    int64_t max_free;
    int engine;
    int64_t n, nu; /* result tiles and update tiles so far (slot rotation) */
};

/* dst (in the result) = dst (func) src (the updates) for each update at
 * src + du[k] bytes in turn, tile by tile: DMA the result's tile in, and per
 * update its tile and one binary instruction, then DMA the tile back.  The
 * result's reads wait for the token's writers (the operand's copy; with
 * chain, the windows before), with chain its writes write the token. */
static enum base_status sc_rmw(struct cc_kb *b, struct cc_tiling *tl, struct sc_rmw *m, const struct sc_comb *c,
                               const struct cc_view *src, const struct cc_view *dst, const int64_t *du, int64_t n_du,
                               int tok, bool chain)
{
    if (cc_view_count(src) == 0) return BASE_OK;
    enum base_dtype dt = dst->dtype;
    size_t es = base_dtype_size(dt);
    struct cc_view views[2] = {*src, *dst};
    enum base_status st = cc_tiling_plan(tl, src->rank, src->dims, views, 2, b->partitions, m->max_free);
    if (st != BASE_OK) return cc_kb_fail(b, st, "cannot tile an update window");
    for (int64_t t = 0; t < tl->n_tiles; t++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, t, &region, &box);
        struct isa_ap us, os;
        if (!cc_tiling_ap(tl, region, 0, &box, &us) || !cc_tiling_ap(tl, region, 1, &box, &os))
            return cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a tile");
        uint32_t P = cc_tiling_parts(tl, region, &box);
        uint64_t F = cc_tiling_free(tl, region, &box);
        int sl = (int)(m->n++ % SC_SLOTS), pieces = cc_kb_dma_pieces(b, (uint64_t)P * F * es, P);
        struct isa_ap cur = cc_kb_sp(b, m->cur, sl, 0, 0, P, dt, F);
        struct cc_access la[2] = {{m->cur, sl, CC_WR}, {tok, 0, CC_RD}};
        TRY(cc_kb_dma(b, &cur, &os, la, 2, pieces));
        for (int64_t k = 0; k < n_du; k++) {
            int64_t r = m->nu++ % (SC_UPD_BUFS * SC_SLOTS);
            int ub = m->upd[r / SC_SLOTS], ul = (int)(r % SC_SLOTS);
            struct isa_ap upd = cc_kb_sp(b, ub, ul, 0, 0, P, dt, F), ua = us;
            ua.addr = (uint64_t)((int64_t)ua.addr + du[k]);
            struct cc_access uacc = {ub, ul, CC_WR};
            TRY(cc_kb_dma(b, &upd, &ua, &uacc, 1, pieces));
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_BINARY;
            in.func = (uint8_t)c->func;
            in.dst = cur;
            in.src0 = c->swapped ? upd : cur;
            in.src1 = c->swapped ? cur : upd;
            struct cc_access ba[2] = {{m->cur, sl, CC_RW}, {ub, ul, CC_RD}};
            TRY(cc_kb_emit(b, m->engine, &in, ba, 2));
        }
        struct cc_access sa[2] = {{m->cur, sl, CC_RD}, {tok, 0, CC_WR}};
        TRY(cc_kb_dma(b, &os, &cur, sa, chain ? 2 : 1, pieces));
    }
    return BASE_OK;
}

/* The views of a window: its updates and where they land. */
static void sc_piece_views(const struct sc *g, const struct sc_piece *p, size_t es, struct cc_view *src,
                           struct cc_view *dst)
{
    memset(src, 0, sizeof *src);
    src->dtype = g->o->dtype;
    src->rank = p->n;
    for (int w = 0; w < p->n; w++) src->dims[w] = p->dims[w];
    *dst = *src;
    for (int w = 0; w < p->n; w++) {
        src->strides[w] = p->ustr[w];
        dst->strides[w] = p->ostr[w];
    }
    src->addr = (uint64_t)((int64_t)g->u->addr + p->uoff * (int64_t)es);
    dst->addr = (uint64_t)((int64_t)g->o->addr + p->ooff * (int64_t)es);
}

/* The operand copied into the result, then the updates in the interpreter's
 * order: replacing windows one DMA each (HBM -> HBM), combining ones a
 * read-modify-write.  All on one core; windows that meet others are
 * serialised through a token (each writes it, the next reads it), the rest
 * only wait for the copy.  Indices are not clamped: elements leaving the
 * result are skipped (windows cropped). */
enum base_status cc_emit_scatter(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                 struct isa_program *out, struct base_diag *diag)
{
    struct ix s;
    struct sc_piece *pc = NULL;                   /* the windows inside the result, in walk order */
    int64_t *next = NULL;                         /* per window: the next of its group */
    int64_t *first = NULL, *last = NULL, *size = NULL; /* per group */
    int64_t *table = NULL;                        /* hash of the groups' keys: group + 1, 0 empty */
    int64_t *du = NULL;
    struct sc_key *keys = NULL;
    enum base_status st = ix_begin(&s, t, k, out, diag, GRAPH_OP_SCATTER);
    if (st != BASE_OK) goto done;
    const struct graph_op *op = s.op;
    char why[256];
    struct sc_comb comb;
    if (!cc_scatter_op_supported(op, why, sizeof why) || !sc_combiner(op, &comb, why, sizeof why)) {
        st = cc_kb_fail(s.b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int ui = cc_kernel_input_index(k, op->operands[2]);
    const struct graph_attr *dn = graph_op_attr(op, "scatter_dimension_numbers");
    if (ui < 0 || !dn || k->n_dyn != 1 || !k->dyn_views) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed scatter");
        goto done;
    }
    struct sc g;
    memset(&g, 0, sizeof g);
    g.k = k;
    g.ctx = ctx;
    const struct cc_view *x = &k->in[cc_kernel_input_index(k, op->operands[0])].view;
    g.u = &k->in[ui].view;
    g.o = &k->out[0].view;
    int64_t uwd[MAXR], iwd[MAXR], sibd[MAXR], ivd = 0;
    int n_uwd = graph_attr_as_i64_list(graph_dict_get(dn, "update_window_dims"), uwd, MAXR);
    int n_iwd = graph_attr_as_i64_list(graph_dict_get(dn, "inserted_window_dims"), iwd, MAXR);
    int n_ibd = graph_attr_as_i64_list(graph_dict_get(dn, "input_batching_dims"), g.ibd, MAXR);
    int n_sibd = graph_attr_as_i64_list(graph_dict_get(dn, "scatter_indices_batching_dims"), sibd, MAXR);
    int n_sdod = graph_attr_as_i64_list(graph_dict_get(dn, "scatter_dims_to_operand_dims"), g.sdod, MAXR);
    n_uwd = n_uwd < 0 ? 0 : n_uwd;
    n_iwd = n_iwd < 0 ? 0 : n_iwd;
    n_ibd = n_ibd < 0 ? 0 : n_ibd;
    n_sibd = n_sibd < 0 ? 0 : n_sibd;
    n_sdod = n_sdod < 0 ? 0 : n_sdod;
    const struct graph_attr *ivda = graph_dict_get(dn, "index_vector_dim");
    const struct cc_view *sv = &k->dyn_views[0];
    int R = x->rank, S = sv->rank, U = g.u->rank;
    if ((ivda && !graph_attr_as_i64(ivda, &ivd)) || ivd < 0 || ivd > S || n_uwd + n_iwd + n_ibd != R ||
        n_ibd != n_sibd || n_sdod != (ivd < S ? sv->dims[ivd] : 1) || g.o->rank != R ||
        U != S - (ivd < S ? 1 : 0) + n_uwd) {
        st = cc_kb_fail(s.b, BASE_ERR_INVALID, "malformed scatter");
        goto done;
    }
    for (int w = 1; w < n_uwd; w++)
        if (uwd[w] <= uwd[w - 1]) {
            st = cc_kb_fail(s.b, BASE_ERR_INVALID, "update_window_dims must be sorted");
            goto done;
        }
    g.R = R;
    g.U = U;
    g.n_sc = S - (ivd < S ? 1 : 0);
    g.n_sdod = n_sdod;
    g.n_ibd = n_ibd;
    for (int d = 0, w = 0; d < R && w < n_uwd; d++)
        if (!contains(iwd, n_iwd, d) && !contains(g.ibd, n_ibd, d)) g.wod[w++] = d;
    for (int d = 0; d < U; d++) g.win_of[d] = -1;
    for (int w = 0; w < n_uwd; w++) g.win_of[uwd[w]] = w;
    for (int d = 0, j = 0, q = 0; d < U; d++) {
        if (g.win_of[d] >= 0) continue;
        if (q == ivd) q++;
        g.usd[j] = d;
        g.sid_of[j] = q;
        j++;
        q++;
    }
    for (int i = 0; i < n_ibd; i++) g.ubd[i] = g.usd[sibd[i] < ivd ? sibd[i] : sibd[i] - 1];
    base_shape_strides(S, sv->dims, g.sist);
    g.ivstride = ivd < S ? g.sist[ivd] : 0;
    size_t es = base_dtype_size(x->dtype);
    /* one core: updates may overlap and must land in order */
    if (ctx && ctx->core != 0) goto done;
    int tok = cc_kb_buffer(s.b, 64, 1);
    if (tok < 0) {
        st = BASE_ERR_LIMIT;
        goto done;
    }
    struct cc_access rd = {tok, 0, CC_RD}, wr = {tok, 0, CC_WR};
    if (x->addr != g.o->addr || memcmp(x->strides, g.o->strides, sizeof x->strides) != 0) {
        st = copy_view(s.b, s.tl, x, g.o, &wr, 1);
        if (st != BASE_OK) goto done;
    }
    if (comb.kind == SC_KEEP) goto done;
    /* The whole windows, in walk order, grouped by the box they cover and
     * where their first element would land.  When boxes of different groups
     * never meet, the groups are independent (they only wait for the copy):
     * a replacing group is its last window, a combining group one
     * read-modify-write applying its updates one after another in the
     * scratchpad.  Otherwise every window waits for the one before it, and
     * when the order of the updates matters and two windows that meet are
     * placed differently along window dims that come before the last scatter
     * dim, the walk goes position by position along those dims (an element
     * then takes its updates in another order than window by window). */
    enum { MAX_PIECES = 16384 };
    sc_walk(&g, false);
    bool early[MAXR] = {false}; /* operand dims of window dims before the last scatter dim */
    bool any_early = false;
    for (int d = 0; d < U; d++)
        if (g.win_of[d] >= 0)
            for (int j = 0; j < g.n_sc; j++)
                if (g.usd[j] > d) early[g.wod[g.win_of[d]]] = any_early = true;
    bool ordered = sc_ordered(&comb, x->dtype);
    bool grouped = g.n_pieces <= MAX_PIECES, split = !grouped && ordered && any_early;
    int64_t n_in = 0, n_grp = 0, hcap = 1;
    if (grouped && g.n_pieces > 0) {
        while (hcap < 2 * g.n_pieces) hcap *= 2;
        pc = calloc((size_t)g.n_pieces, sizeof *pc);
        next = calloc((size_t)g.n_pieces, sizeof *next);
        first = calloc((size_t)g.n_pieces, sizeof *first);
        last = calloc((size_t)g.n_pieces, sizeof *last);
        size = calloc((size_t)g.n_pieces, sizeof *size);
        table = calloc((size_t)hcap, sizeof *table);
        if (!pc || !next || !first || !last || !size || !table) {
            st = cc_kb_fail(s.b, BASE_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    for (int64_t i = 0; i < g.n_pieces && grouped; i++) {
        bool inside;
        if (!sc_piece_at(&g, i, &pc[n_in], &inside)) {
            st = cc_kb_fail(s.b, BASE_ERR_INVALID, "cannot read the scatter indices");
            goto done;
        }
        if (!inside) continue;
        const struct sc_piece *p = &pc[n_in];
        uint64_t h = 1469598103934665603u;
        for (int d = 0; d < R; d++) {
            h = (h ^ (uint64_t)p->lo[d]) * 1099511628211u;
            h = (h ^ (uint64_t)p->hi[d]) * 1099511628211u;
            h = (h ^ (uint64_t)p->org[d]) * 1099511628211u;
        }
        int64_t slot = (int64_t)(h & (uint64_t)(hcap - 1));
        for (;; slot = (slot + 1) & (hcap - 1)) {
            int64_t e = table[slot] - 1; /* a group, or -1: empty */
            if (e < 0) {
                table[slot] = ++n_grp;
                first[n_grp - 1] = last[n_grp - 1] = n_in;
                size[n_grp - 1] = 1;
                break;
            }
            const struct sc_piece *q = &pc[first[e]];
            if (!memcmp(q->lo, p->lo, sizeof p->lo) && !memcmp(q->hi, p->hi, sizeof p->hi) &&
                !memcmp(q->org, p->org, sizeof p->org)) {
                next[last[e]] = n_in;
                last[e] = n_in;
                size[e]++;
                break;
            }
        }
        n_in++;
    }
    /* Do groups meet?  A sweep along the result dim the windows are
     * narrowest in; every pair that meets is looked at (for split), up to a
     * budget past which they are assumed to meet in any way. */
    if (grouped && n_grp > 1) {
        keys = calloc((size_t)n_grp, sizeof *keys);
        if (!keys) {
            st = cc_kb_fail(s.b, BASE_ERR_NOMEM, "out of memory");
            goto done;
        }
        int sd = 0;
        double best = 2;
        for (int d = 0; d < R; d++) {
            double f = (double)(pc[first[0]].hi[d] - pc[first[0]].lo[d]) / (double)g.o->dims[d];
            if (f < best) best = f, sd = d;
        }
        for (int64_t e = 0; e < n_grp; e++) {
            keys[e].lo = pc[first[e]].lo[sd];
            keys[e].hi = pc[first[e]].hi[sd];
            keys[e].g = e;
        }
        qsort(keys, (size_t)n_grp, sizeof *keys, key_cmp);
        int64_t budget = (int64_t)1 << 22;
        for (int64_t a = 0; a < n_grp && (grouped || (ordered && any_early && !split)); a++)
            for (int64_t e = a + 1; e < n_grp && keys[e].lo < keys[a].hi; e++) {
                if (--budget < 0) {
                    grouped = false;
                    split = ordered && any_early;
                    a = n_grp;
                    break;
                }
                const struct sc_piece *p = &pc[first[keys[a].g]], *q = &pc[first[keys[e].g]];
                if (!boxes_meet(p->lo, p->hi, q->lo, q->hi, R)) continue;
                grouped = false;
                for (int d = 0; d < R && ordered; d++) split = split || (early[d] && p->org[d] != q->org[d]);
            }
    }
    struct sc_rmw m = {-1, {-1, -1, -1, -1}, 1, -1, 0, 0};
    if (comb.kind == SC_ALU) {
        uint64_t avail = cc_kb_free_bytes(s.b);
        avail = avail > 4096 ? avail - 4096 : 0;
        m.max_free = (int64_t)(avail / ((1 + SC_UPD_BUFS) * SC_SLOTS * es));
        if (m.max_free > 16384) m.max_free = 16384;
        if (m.max_free < 1) {
            st = cc_kb_fail(s.b, BASE_ERR_LIMIT, "no scratchpad room for the update tiles");
            goto done;
        }
        m.cur = cc_kb_buffer(s.b, (uint64_t)m.max_free * es, SC_SLOTS);
        for (int i = 0; i < SC_UPD_BUFS; i++)
            m.upd[i] = m.cur >= 0 && (i == 0 || m.upd[i - 1] >= 0) ? cc_kb_buffer(s.b, (uint64_t)m.max_free * es, SC_SLOTS) : -1;
        if (m.upd[SC_UPD_BUFS - 1] < 0) {
            st = diag->status;
            goto done;
        }
        m.engine = t->vec >= 0 ? t->vec : t->pool;
        if (m.engine < 0) {
            st = cc_kb_fail(s.b, BASE_ERR_UNSUPPORTED, "the chip has no vector engine to combine updates");
            goto done;
        }
    }
    if (grouped) {
        int64_t max_size = 1;
        for (int64_t e = 0; e < n_grp; e++)
            if (size[e] > max_size) max_size = size[e];
        du = calloc((size_t)max_size, sizeof *du);
        if (!du) {
            st = cc_kb_fail(s.b, BASE_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (int64_t e = 0; e < n_grp && st == BASE_OK; e++) {
            int64_t f = comb.kind == SC_REPLACE ? last[e] : first[e], n_du = 0;
            struct cc_view src, dst;
            sc_piece_views(&g, &pc[f], es, &src, &dst);
            if (comb.kind == SC_REPLACE) { /* the last update wins */
                st = copy_view(s.b, s.tl, &src, &dst, &rd, 1);
                continue;
            }
            for (int64_t q = f, j = 0; j < size[e]; j++, q = next[q])
                du[n_du++] = (pc[q].uoff - pc[f].uoff) * (int64_t)es;
            st = sc_rmw(s.b, s.tl, &m, &comb, &src, &dst, du, n_du, tok, false);
        }
        goto done;
    }
    /* windows that meet: one after another */
    if (split) sc_walk(&g, true);
    const int64_t zero = 0;
    for (int64_t i = 0; i < g.n_pieces && st == BASE_OK; i++) {
        struct sc_piece p;
        bool inside;
        if (!sc_piece_at(&g, i, &p, &inside)) {
            st = cc_kb_fail(s.b, BASE_ERR_INVALID, "cannot read the scatter indices");
            break;
        }
        if (!inside) continue;
        struct cc_view src, dst;
        sc_piece_views(&g, &p, es, &src, &dst);
        if (comb.kind == SC_REPLACE)
            st = copy_view(s.b, s.tl, &src, &dst, &wr, 1);
        else
            st = sc_rmw(s.b, s.tl, &m, &comb, &src, &dst, &zero, 1, tok, true);
    }
done:
    free(keys);
    free(du);
    free(table);
    free(size);
    free(last);
    free(first);
    free(next);
    free(pc);
    ix_end(&s);
    return st;
}
