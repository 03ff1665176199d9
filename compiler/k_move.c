/* Data movement kernels: CC_K_COPY (a view materialised into a buffer),
 * CC_K_CONCAT, CC_K_PAD.
 *
 * copy and concatenate are HBM -> HBM DMAs whose two access patterns walk the
 * same box of the index space (the tiler keeps every pattern within the
 * ISA's four free dims, so the source view never needs a trip through the
 * scratchpad).  pad writes each output tile twice on one DMA queue (program
 * order, no semaphore): the padding value from a scratchpad tile filled once,
 * then the operand's elements that land in the tile, through strided
 * patterns (interior padding) and cropped boxes (negative padding); tiles
 * the operand covers entirely skip the fill.  Bits move unchanged: exact. */
#include "compiler/cc_internal.h"

#include <stdlib.h>
#include <string.h>

/* Elements per partition of an HBM -> HBM tile: big transfers, but enough
 * tiles to share among the cores (8 each). */
static int64_t move_free(const struct cc_kb *b, int64_t count, size_t es, const struct cc_emit_ctx *ctx)
{
    uint32_t nc = ctx && ctx->n_cores ? ctx->n_cores : 1;
    uint64_t total = (uint64_t)count * es;
    uint64_t tile = total / (8u * nc);
    if (tile < (1u << 20)) tile = 1u << 20;
    if (tile > (16u << 20)) tile = 16u << 20;
    int64_t f = (int64_t)(tile / ((uint64_t)b->partitions * es));
    return f < 1 ? 1 : f;
}

static bool same_dims(const struct cc_view *a, const struct cc_view *b)
{
    if (a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d]) return false;
    return true;
}

/* DMAs dst <- src over every tile of tiling tl in [lo, hi) (global tile
 * indices start at base). */
static enum base_status copy_tiles(struct cc_kb *b, const struct cc_tiling *tl, int64_t base, int64_t lo, int64_t hi,
                                   size_t es)
{
    for (int64_t g = lo > base ? lo : base; g < hi && g < base + tl->n_tiles; g++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, g - base, &region, &box);
        struct isa_ap src, dst;
        if (!cc_tiling_ap(tl, region, 0, &box, &src) || !cc_tiling_ap(tl, region, 1, &box, &dst))
            return cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a tile");
        uint32_t P = cc_tiling_parts(tl, region, &box);
        uint64_t F = cc_tiling_free(tl, region, &box);
        TRY(cc_kb_dma(b, &dst, &src, NULL, 0, cc_kb_dma_pieces(b, (uint64_t)P * F * es, P)));
    }
    return BASE_OK;
}

enum base_status cc_emit_copy(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct cc_tiling *tl = calloc(1, sizeof *tl);
    enum base_status st = BASE_OK;
    if (!b || !tl) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if (k->n_in != 1 || k->n_out != 1) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "a copy has one input and one output");
        goto done;
    }
    struct cc_view views[2] = {k->in[0].view, k->out[0].view};
    if (views[0].dtype != views[1].dtype) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "a copy keeps the element type");
        goto done;
    }
    if (!same_dims(&views[0], &views[1]) && !cc_view_reshape(&k->out[0].view, views[0].rank, views[0].dims, &views[1]) &&
        !cc_view_reshape(&k->in[0].view, views[1].rank, views[1].dims, &views[0])) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "neither side of the copy can take the other's shape");
        goto done;
    }
    size_t es = base_dtype_size(views[0].dtype);
    st = cc_tiling_plan(tl, views[0].rank, views[0].dims, views, 2, b->partitions,
                        move_free(b, cc_view_count(&views[0]), es, ctx));
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "cannot tile the copy");
        goto done;
    }
    int64_t lo, hi;
    cc_core_share(tl->n_tiles, ctx, &lo, &hi);
    st = copy_tiles(b, tl, 0, lo, hi, es);
done:
    free(tl);
    cc_kb_free(b);
    return st;
}

enum base_status cc_emit_concat(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    const struct graph_op *op = k->n_ops > 0 ? k->ops[k->n_ops - 1] : NULL;
    int n = op ? op->n_operands : 0;
    struct cc_tiling *tl = calloc(n > 0 ? (size_t)n : 1, sizeof *tl);
    enum base_status st = BASE_OK;
    if (!b || !tl) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    int64_t dim;
    if (!op || op->kind != GRAPH_OP_CONCATENATE || k->n_out != 1 ||
        !graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim) || dim < 0 || dim >= k->out[0].view.rank) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "a concatenate kernel is one stablehlo.concatenate with its dimension");
        goto done;
    }
    const struct cc_view *o = &k->out[0].view;
    size_t es = base_dtype_size(o->dtype);
    int64_t off = 0, total = 0;
    for (int i = 0; i < n; i++) {
        int j = cc_kernel_input_index(k, op->operands[i]);
        if (j < 0) {
            st = cc_kb_fail(b, BASE_ERR_INVALID, "operand %d is not a kernel input", i);
            goto done;
        }
        struct cc_view v[2] = {k->in[j].view, *o};
        v[1].dims[dim] = v[0].dims[dim];
        v[1].addr = (uint64_t)((int64_t)o->addr + off * o->strides[dim] * (int64_t)es);
        off += v[0].dims[dim];
        if (!same_dims(&v[0], &v[1]) || v[0].dtype != o->dtype) {
            st = cc_kb_fail(b, BASE_ERR_INVALID, "operand %d does not fit the output", i);
            goto done;
        }
        st = cc_tiling_plan(&tl[i], v[0].rank, v[0].dims, v, 2, b->partitions,
                            move_free(b, cc_view_count(o), es, ctx));
        if (st != BASE_OK) {
            cc_kb_fail(b, st, "cannot tile operand %d", i);
            goto done;
        }
        total += tl[i].n_tiles;
    }
    int64_t lo, hi, base = 0;
    cc_core_share(total, ctx, &lo, &hi);
    for (int i = 0; i < n && st == BASE_OK; i++) {
        st = copy_tiles(b, &tl[i], base, lo, hi, es);
        base += tl[i].n_tiles;
    }
done:
    free(tl);
    cc_kb_free(b);
    return st;
}

/* ---------------------------------------------------------------------- pad */


static bool splat_of(const struct graph_value *v, double *out)
{
    const struct graph_op *op = v ? v->def : NULL;
    if (!op || op->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(op, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count != 1 || base_dtype_is_complex(t->dtype)) return false;
    double v0 = base_elem_get_f64(t->dtype, t->data, 0);
    uint8_t back[16];
    base_elem_set_f64(t->dtype, back, 0, v0); /* exact as a double? */
    if (base_elem_get_bits(t->dtype, back, 0) != base_elem_get_bits(t->dtype, t->data, 0)) return false;
    *out = v0;
    return true;
}

int cc_move_fill_tile(struct cc_kb *b, const struct cc_kernel *k, const struct graph_value *value, enum base_dtype dt,
                      uint32_t P, uint64_t F)
{
    size_t es = base_dtype_size(dt);
    int fill = cc_kb_buffer(b, F * es, 1);
    if (fill < 0) return -1;
    const struct cc_target *t = b->t;
    int eng = t->act >= 0 ? t->act : t->pool >= 0 ? t->pool : t->vec;
    if (eng < 0) {
        cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no elementwise engine");
        return -1;
    }
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.dst = cc_kb_sp(b, fill, 0, 0, 0, P, dt, F);
    struct cc_access a[2] = {{fill, 0, CC_WR}, {0, 0, 0}};
    int na = 1;
    double c;
    if (splat_of(value, &c)) {
        in.op = ISA_OP_MEMSET;
        in.imm0 = c;
    } else {
        int j = cc_kernel_input_index(k, value);
        if (j < 0) {
            cc_kb_fail(b, BASE_ERR_INVALID, "the scalar value is not a kernel input");
            return -1;
        }
        int sc = cc_kb_buffer(b, es, 1);
        if (sc < 0) return -1;
        struct isa_ap src;
        memset(&src, 0, sizeof src);
        src.space = ISA_SPACE_HBM;
        src.dtype = (uint8_t)dt;
        src.addr = k->in[j].view.addr;
        src.part_count = (uint16_t)P;
        struct isa_ap dst = cc_kb_sp(b, sc, 0, 0, 0, P, dt, 0);
        struct cc_access w = {sc, 0, CC_WR};
        if (cc_kb_dma(b, &dst, &src, &w, 1, 1) != BASE_OK) return -1;
        in.op = ISA_OP_COPY;
        in.src0 = cc_kb_sp(b, sc, 0, 0, 0, P, dt, F);
        in.src0.stride[0] = 0;
        a[na++] = (struct cc_access){sc, 0, CC_RD};
    }
    if (cc_kb_emit(b, eng, &in, a, na) != BASE_OK) return -1;
    return fill;
}

enum base_status cc_emit_pad(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct cc_tiling *tl = calloc(1, sizeof *tl);
    enum base_status st = BASE_OK;
    if (!b || !tl) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    const struct graph_op *op = k->n_ops > 0 ? k->ops[k->n_ops - 1] : NULL;
    if (!op || op->kind != GRAPH_OP_PAD || op->n_operands != 2 || k->n_out != 1) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "a pad kernel is one stablehlo.pad");
        goto done;
    }
    int xi = cc_kernel_input_index(k, op->operands[0]);
    if (xi < 0) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "the padded operand is not a kernel input");
        goto done;
    }
    const struct cc_view *x = &k->in[xi].view, *o = &k->out[0].view;
    int rank = o->rank;
    int64_t lo[BASE_MAX_RANK] = {0}, hi[BASE_MAX_RANK] = {0}, in[BASE_MAX_RANK] = {0};
    if (graph_attr_as_i64_list(graph_op_attr(op, "edge_padding_low"), lo, BASE_MAX_RANK) != rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "edge_padding_high"), hi, BASE_MAX_RANK) != rank ||
        graph_attr_as_i64_list(graph_op_attr(op, "interior_padding"), in, BASE_MAX_RANK) != rank ||
        x->rank != rank || x->dtype != o->dtype) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "pad needs edge_padding_low/high and interior_padding of rank %d", rank);
        goto done;
    }
    /* a scalar is padded by nothing: the copy of one element, as a 1-D pad
     * (the tiling gives a rank-0 space one dim of 1) */
    struct cc_view x1, o1;
    if (rank == 0) {
        x1 = *x;
        o1 = *o;
        x1.rank = o1.rank = rank = 1;
        x1.dims[0] = o1.dims[0] = 1;
        x1.strides[0] = o1.strides[0] = 1;
        x = &x1;
        o = &o1;
    }
    size_t es = base_dtype_size(o->dtype);
    uint64_t avail = b->sp_bytes > 8192 ? b->sp_bytes - 8192 : 0;
    int64_t max_free = (int64_t)(avail / es);
    int64_t mf = move_free(b, cc_view_count(o), es, ctx);
    if (mf < max_free) max_free = mf;
    st = cc_tiling_plan_dims(tl, rank, o->dims, o, 1, b->partitions, max_free);
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "cannot tile the output");
        goto done;
    }
    int64_t tlo, thi;
    cc_core_share(tl->n_tiles, ctx, &tlo, &thi);
    if (tlo >= thi) goto done;
    const struct cc_region *r = &tl->r[0];
    uint32_t pmax = r->part_dim >= 0 ? (uint32_t)r->count[r->part_dim] : 1;
    uint64_t fmax = 1;
    for (int d = 0; d < r->rank; d++)
        if (d != r->part_dim) fmax *= (uint64_t)r->count[d];
    int fill = -1;
    for (int64_t g = tlo; g < thi; g++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, g, &region, &box);
        struct cc_box sub;
        memset(&sub, 0, sizeof sub);
        bool full = true, any = true;
        int64_t first[BASE_MAX_RANK];
        for (int d = 0; d < rank; d++) {
            int64_t s = box.start[d], c = box.count[d], step = in[d] + 1;
            int64_t ilo = cc_ceil_div(s - lo[d], step), ihi = cc_floor_div(s + c - 1 - lo[d], step);
            if (ilo < 0) ilo = 0;
            if (ihi > x->dims[d] - 1) ihi = x->dims[d] - 1;
            int64_t cnt = ihi - ilo + 1;
            if (cnt <= 0) any = false;
            if (in[d] != 0 || cnt != c) full = false;
            first[d] = ilo;
            sub.start[d] = ilo;
            sub.count[d] = cnt > 0 ? cnt : 0;
        }
        int q = b->dma_next;
        uint32_t P = cc_tiling_parts(tl, region, &box);
        uint64_t F = cc_tiling_free(tl, region, &box);
        if (!full) {
            if (fill < 0) {
                fill = cc_move_fill_tile(b, k, op->operands[1], o->dtype, pmax, fmax);
                if (fill < 0) {
                    st = diag->status;
                    goto done;
                }
            }
            struct isa_ap dst, src = cc_kb_sp(b, fill, 0, 0, 0, P, o->dtype, F);
            if (!cc_tiling_ap(tl, region, 0, &box, &dst)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a tile");
                goto done;
            }
            struct cc_access a = {fill, 0, CC_RD};
            b->dma_next = q;
            st = cc_kb_dma(b, &dst, &src, &a, 1, 1);
            if (st != BASE_OK) goto done;
        }
        if (any) {
            /* the output positions of x's elements: a view of the output */
            struct cc_view pos = *o;
            int64_t off = 0;
            for (int d = 0; d < rank; d++) {
                off += (lo[d] + first[d] * (in[d] + 1)) * o->strides[d];
                pos.strides[d] = o->strides[d] * (in[d] + 1);
            }
            pos.addr = (uint64_t)((int64_t)o->addr + off * (int64_t)es);
            struct cc_box pb = sub;
            for (int d = 0; d < rank; d++) pb.start[d] = 0;
            struct isa_ap dst, src;
            if (!cc_view_box_ap(&pos, &pb, r->part_dim, r->free_dims, r->n_free, &dst) ||
                !cc_view_box_ap(x, &sub, r->part_dim, r->free_dims, r->n_free, &src)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for the operand's part of a tile");
                goto done;
            }
            b->dma_next = q;
            st = cc_kb_dma(b, &dst, &src, NULL, 0, 1);
            if (st != BASE_OK) goto done;
        }
    }
done:
    free(tl);
    cc_kb_free(b);
    return st;
}
