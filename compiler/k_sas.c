/* stablehlo.select_and_scatter (max-pool backward): CC_K_SELECT_AND_SCATTER.
 *
 * The interpreter (interp/interp_reduce.c) walks the source elements s in
 * row-major order; for each it selects one element of its window of the
 * operand (the first valid position, replaced by a later one whenever
 * select(selected, candidate) is false; padding positions are skipped) and
 * folds the source value into the result there: result[r] =
 * scatter(result[r], source[s]), the result starting at init_value.
 *
 * On chip, on one core (updates from overlapping windows meet), the source
 * space is cut into tiles that are contiguous row-major ranges of s (a dim k
 * chunked on partitions, every dim inside it whole in the free elements, the
 * dims outside it one index per tile), processed in order:
 *  0. the result is filled with init_value (a memset tile DMA'd over it);
 *  1. per tile, the selection: for each window position w (row-major) the
 *     operand's elements s stride + w - pad_lo are DMA'd in (the valid box:
 *     positions in the padding are not loaded), compared with the current
 *     selection by the select body's own compare (one instruction: f32 or
 *     exact integer compares), and where the candidate wins (or nothing is
 *     selected yet) the value and w's number replace the selection (selects
 *     of bits); a mask tracks the elements that have a selection;
 *  2. per tile, for each window position w in *reverse* row-major order, a
 *     read-modify-write of the result through the strided view s stride + w
 *     - pad_lo: result = (selected w here) ? scatter(result, source) :
 *     result, one instruction each.  For one result element, a later s in
 *     row-major order reaches it through an earlier w, so the contributions
 *     arrive in the interpreter's order; with overlapping windows every
 *     read-modify-write waits for the one before it (a scratchpad token), and
 *     tiles are contiguous ranges of s processed in order.
 * Values are bit for bit the interpreter's: the selection compares as the
 * body does, and each contribution is the scatter body's ALU function
 * rounded to the element type (add, multiply, maximum, minimum, and, or, xor).
 */
#include "compiler/cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAXR BASE_MAX_RANK

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* The select body: compare(arg0, arg1) (or swapped) returned as it is; the
 * ALU compare function for keep = select(current, candidate). */
static bool select_func(const struct graph_op *op, unsigned *f, char *why, size_t cap)
{
    if (op->n_regions < 2 || op->regions[0].n_blocks != 1) return why_set(why, cap, "the select body must be one block");
    const struct graph_block *b = &op->regions[0].blocks[0];
    const struct graph_op *ret = graph_block_terminator(b);
    if (b->n_args != 2 || !ret || ret->n_operands != 1) return why_set(why, cap, "the select body takes two scalars");
    const struct graph_op *c = ret->operands[0]->def;
    if (!c || c->kind != GRAPH_OP_COMPARE || c->parent != b || c->n_operands != 2)
        return why_set(why, cap, "the select body must be one compare of its arguments");
    const struct graph_type *t = b->args[0].type;
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant) return why_set(why, cap, "the select body's arguments");
    enum base_dtype dt = t->elem;
    bool fl = base_dtype_is_float(dt);
    if ((fl && base_dtype_bits(dt) > 32) || base_dtype_is_complex(dt))
        return why_set(why, cap, "selecting among f64 or complex elements: the vector engines compare in f32");
    if (fl && graph_attr_is_keyword(graph_op_attr(c, "compare_type"), "TOTALORDER"))
        return why_set(why, cap, "a TOTALORDER select");
    if (!cc_compare_func(c, f, !fl)) return why_set(why, cap, "bad comparison_direction");
    if (c->operands[0] == &b->args[0] && c->operands[1] == &b->args[1]) return true;
    if (c->operands[0] == &b->args[1] && c->operands[1] == &b->args[0]) {
        static const unsigned sw[][2] = {{ISA_ALU_LT, ISA_ALU_GT}, {ISA_ALU_GT, ISA_ALU_LT}, {ISA_ALU_LE, ISA_ALU_GE},
                                         {ISA_ALU_GE, ISA_ALU_LE}, {ISA_ALU_ILT, ISA_ALU_IGT}, {ISA_ALU_IGT, ISA_ALU_ILT},
                                         {ISA_ALU_ILE, ISA_ALU_IGE}, {ISA_ALU_IGE, ISA_ALU_ILE}};
        for (size_t i = 0; i < ARRAY_LEN(sw); i++)
            if (*f == sw[i][0]) {
                *f = sw[i][1];
                break;
            }
        return true;
    }
    return why_set(why, cap, "the select body must compare its two arguments");
}

/* The scatter body's ALU function (region 1, as the reduce kernels read a body). */
static bool scatter_func(const struct graph_op *op, unsigned *f, char *why, size_t cap)
{
    struct graph_op tmp = *op;
    tmp.regions = &op->regions[1];
    tmp.n_regions = 1;
    return cc_body_binary_func(&tmp, f, why, cap);
}

struct sas_attrs {
    int rank;
    int64_t win[MAXR], stride[MAXR], pad_lo[MAXR], pad_hi[MAXR];
};

static bool read_attrs(const struct graph_op *op, struct sas_attrs *a, char *why, size_t cap)
{
    const struct graph_type *xt = op->operands[0]->type;
    a->rank = xt->rank;
    int64_t v[2 * MAXR];
    if (graph_attr_as_i64_list(graph_op_attr(op, "window_dimensions"), a->win, MAXR) != a->rank)
        return why_set(why, cap, "window_dimensions");
    if (graph_op_attr(op, "window_strides")) {
        if (graph_attr_as_i64_list(graph_op_attr(op, "window_strides"), a->stride, MAXR) != a->rank)
            return why_set(why, cap, "window_strides");
    } else {
        for (int d = 0; d < a->rank; d++) a->stride[d] = 1;
    }
    for (int d = 0; d < a->rank; d++) a->pad_lo[d] = a->pad_hi[d] = 0;
    const struct graph_attr *p = graph_op_attr(op, "padding");
    if (p) {
        if (graph_attr_as_i64_list(p, v, 2 * MAXR) == 2 * a->rank) {
            for (int d = 0; d < a->rank; d++) a->pad_lo[d] = v[2 * d], a->pad_hi[d] = v[2 * d + 1];
        } else if (p->kind == GRAPH_ATTR_ELEMENTS && p->u.elements.value && p->u.elements.value->count == 2 * a->rank) {
            const struct base_tensor *t = p->u.elements.value;
            for (int d = 0; d < a->rank; d++) {
                a->pad_lo[d] = base_elem_get_i64(t->dtype, t->data, (size_t)(2 * d));
                a->pad_hi[d] = base_elem_get_i64(t->dtype, t->data, (size_t)(2 * d + 1));
            }
        } else {
            return why_set(why, cap, "padding");
        }
    }
    const char *dil[2] = {"base_dilations", "window_dilations"};
    for (int i = 0; i < 2; i++) {
        const struct graph_attr *da = graph_op_attr(op, dil[i]);
        if (!da) continue;
        int n = graph_attr_as_i64_list(da, v, MAXR);
        for (int d = 0; d < n; d++)
            if (v[d] != 1) return why_set(why, cap, "dilated select_and_scatter windows");
    }
    for (int d = 0; d < a->rank; d++)
        if (a->win[d] < 1 || a->stride[d] < 1 || a->pad_lo[d] < 0 || a->pad_hi[d] < 0)
            return why_set(why, cap, "empty windows, zero strides or negative padding");
    return true;
}

bool cc_sas_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (op->n_operands != 3 || op->n_results != 1 || op->n_regions != 2)
        return why_set(why, cap, "select_and_scatter takes an operand, a source, an init value and two bodies");
    if (t->vec < 0) return why_set(why, cap, "the chip has no vector engine");
    enum base_dtype rt = op->results[0].type->elem, st = op->operands[1]->type->elem;
    if (st != rt || op->operands[2]->type->elem != rt)
        return why_set(why, cap, "the source, init value and result must have one element type");
    if (base_dtype_is_complex(rt) || (base_dtype_is_float(rt) && base_dtype_bits(rt) > 32))
        return why_set(why, cap, base_dtype_is_complex(rt) ? "select_and_scatter of complex elements" : cc_f64_limit(t));
    unsigned f;
    if (!select_func(op, &f, why, cap)) return false;
    if (!scatter_func(op, &f, why, cap)) return false;
    struct sas_attrs a;
    if (!read_attrs(op, &a, why, cap)) return false;
    if (a.rank < 1) return why_set(why, cap, "a rank-0 select_and_scatter");
    int64_t nw = 1;
    for (int d = 0; d < a.rank; d++) nw *= a.win[d];
    if (nw > (INT64_C(1) << 24)) return why_set(why, cap, "a window of more than 2^24 positions");
    return true;
}

/* --------------------------------------------------------------- tiling */

struct sas {
    struct cc_kb *b;
    const struct cc_kernel *k;
    const struct graph_op *op;
    struct sas_attrs a;
    int rank;
    int64_t sdims[MAXR]; /* source (= windows) space */
    int64_t xdims[MAXR];
    int kdim;            /* the dim chunked on partitions */
    int nf, fd[ISA_MAX_DIMS];
    int64_t F, n_tiles;
    uint32_t P;
    int eng;
};

/* Tile i: dims before k one index each, k a chunk of P, the rest whole. */
static void tile_box(const struct sas *s, int64_t i, struct cc_box *box)
{
    memset(box, 0, sizeof *box);
    int64_t chunks = (s->sdims[s->kdim] + s->P - 1) / s->P;
    int64_t c = i % chunks;
    i /= chunks;
    for (int d = s->rank - 1; d >= 0; d--) {
        if (d > s->kdim) {
            box->start[d] = 0;
            box->count[d] = s->sdims[d];
        } else if (d == s->kdim) {
            box->start[d] = c * s->P;
            int64_t r = s->sdims[d] - box->start[d];
            box->count[d] = r < (int64_t)s->P ? r : (int64_t)s->P;
        } else {
            box->start[d] = i % s->sdims[d];
            box->count[d] = 1;
            i /= s->sdims[d];
        }
    }
}

/* The box of B whose window position w reads operand elements (q = s
 * stride + w - pad_lo inside the operand); false when empty. */
static bool valid_box(const struct sas *s, const struct cc_box *B, const int64_t *w, struct cc_box *V)
{
    for (int d = 0; d < s->rank; d++) {
        int64_t st = s->a.stride[d], off = w[d] - s->a.pad_lo[d];
        int64_t lo = cc_ceil_div(-off, st), hi = cc_floor_div(s->xdims[d] - 1 - off, st) + 1;
        if (lo < B->start[d]) lo = B->start[d];
        if (hi > B->start[d] + B->count[d]) hi = B->start[d] + B->count[d];
        if (hi <= lo) return false;
        V->start[d] = lo;
        V->count[d] = hi - lo;
    }
    return true;
}

static bool box_equal(const struct sas *s, const struct cc_box *a, const struct cc_box *b)
{
    for (int d = 0; d < s->rank; d++)
        if (a->start[d] != b->start[d] || a->count[d] != b->count[d]) return false;
    return true;
}

/* The scratchpad pattern of sub-box V of tile B in buffer buf (row-major
 * free layout over the tile's free dims). */
static struct isa_ap sb_ap(const struct sas *s, int buf, const struct cc_box *B, const struct cc_box *V,
                           enum base_dtype dt)
{
    int k = s->kdim;
    uint32_t p0 = (uint32_t)(V->start[k] - B->start[k]), np = (uint32_t)V->count[k];
    struct isa_ap ap = cc_kb_sp(s->b, buf, 0, 0, p0, np, dt, 0);
    int64_t pitch = 1, off = 0;
    ap.ndims = (uint8_t)s->nf;
    for (int i = s->nf - 1; i >= 0; i--) {
        int d = s->fd[i];
        off += (V->start[d] - B->start[d]) * pitch;
        ap.stride[i] = pitch;
        ap.count[i] = (uint32_t)V->count[d];
        pitch *= B->count[d];
    }
    ap.addr += (uint64_t)off * base_dtype_size(dt);
    if (s->nf == 0) { /* one element per partition */
        ap.ndims = 1;
        ap.stride[0] = 1;
        ap.count[0] = 1;
    }
    return ap;
}

/* The HBM pattern of box V (source space) through view v at positions
 * s mul + add (mul, add per dim; add may be negative, V keeps it inside). */
static bool hbm_ap(const struct sas *s, const struct cc_view *v, const int64_t *mul, const int64_t *add,
                   const struct cc_box *V, struct isa_ap *ap)
{
    struct cc_view w;
    memset(&w, 0, sizeof w);
    w.dtype = v->dtype;
    w.rank = s->rank;
    int64_t off = 0;
    for (int d = 0; d < s->rank; d++) {
        off += (V->start[d] * mul[d] + add[d]) * v->strides[d];
        w.dims[d] = V->count[d];
        w.strides[d] = v->strides[d] * mul[d];
    }
    w.addr = (uint64_t)((int64_t)v->addr + off * (int64_t)base_dtype_size(v->dtype));
    struct cc_box z;
    memset(&z, 0, sizeof z);
    for (int d = 0; d < s->rank; d++) z.count[d] = V->count[d];
    return cc_view_box_ap(&w, &z, s->kdim, s->fd, s->nf, ap);
}

static enum base_status emit(struct sas *s, struct isa_instr *in, const struct cc_access *acc, int n)
{
    return cc_kb_emit(s->b, s->eng, in, acc, n);
}

/* A compute instruction over whole tiles: dst = op(src...). */
static enum base_status tile_ins(struct sas *s, enum isa_op op, unsigned f, int dst, enum base_dtype ddt,
                                 const int *src, const enum base_dtype *sdt, int n_src, const struct cc_box *B,
                                 double imm0, double imm1)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.func = (uint8_t)f;
    in.dst = sb_ap(s, dst, B, B, ddt);
    struct isa_ap *sp[3] = {&in.src0, &in.src1, &in.src2};
    struct cc_access acc[4];
    int na = 0;
    for (int i = 0; i < n_src; i++) {
        *sp[i] = sb_ap(s, src[i], B, B, sdt[i]);
        bool dup = false;
        for (int j = 0; j < na; j++) dup |= acc[j].buf == src[i];
        if (!dup) acc[na++] = (struct cc_access){src[i], 0, CC_RD};
    }
    bool dup = false;
    for (int j = 0; j < na; j++)
        if (acc[j].buf == dst) acc[j].mode |= CC_WR, dup = true;
    if (!dup) acc[na++] = (struct cc_access){dst, 0, CC_WR};
    if (op == ISA_OP_TENSOR_SCALAR) {
        in.imm0 = imm0;
        in.func2 = ISA_ALU_BYPASS;
    }
    if (op == ISA_OP_MEMSET) in.imm0 = imm0;
    (void)imm1;
    return emit(s, &in, acc, na);
}

enum base_status cc_emit_select_and_scatter(const struct cc_target *t, const struct cc_kernel *k,
                                            const struct cc_emit_ctx *ctx, struct isa_program *out,
                                            struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    if (!b) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    enum base_status st = BASE_OK;
    struct sas s;
    memset(&s, 0, sizeof s);
    s.b = b;
    s.k = k;
    const struct graph_op *op = k->n_ops == 1 ? k->ops[0] : NULL;
    char why[160];
    if (!op || op->kind != GRAPH_OP_SELECT_AND_SCATTER || k->n_out != 1) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "a select_and_scatter kernel is one stablehlo.select_and_scatter");
        goto done;
    }
    if (!cc_sas_op_supported(op, t, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    s.op = op;
    unsigned fsel = 0, fsc = 0;
    select_func(op, &fsel, why, sizeof why);
    scatter_func(op, &fsc, why, sizeof why);
    read_attrs(op, &s.a, why, sizeof why);
    s.rank = s.a.rank;
    int ix = cc_kernel_input_index(k, op->operands[0]), is = cc_kernel_input_index(k, op->operands[1]);
    if (ix < 0 || is < 0) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "the operand and source must be kernel inputs");
        goto done;
    }
    const struct cc_view *xv = &k->in[ix].view, *sv = &k->in[is].view, *ov = &k->out[0].view;
    enum base_dtype xdt = xv->dtype, rdt = ov->dtype;
    for (int d = 0; d < s.rank; d++) {
        s.xdims[d] = xv->dims[d];
        s.sdims[d] = sv->dims[d];
    }
    /* one core: windows of neighbouring tiles meet in the result */
    if (ctx && ctx->core != 0) goto done;
    s.P = b->partitions;
    s.eng = t->vec;
    int64_t n_src = 1, n_win = 1;
    for (int d = 0; d < s.rank; d++) n_src *= s.sdims[d], n_win *= s.a.win[d];
    bool overlap = false;
    for (int d = 0; d < s.rank; d++) overlap |= s.a.stride[d] < s.a.win[d];

    /* 0. result = init: a tile of init DMA'd over the result */
    int tok = cc_kb_buffer(b, 64, 1);
    if (tok < 0) {
        st = diag->status;
        goto done;
    }
    size_t res = base_dtype_size(rdt);
    {
        int64_t n_out = cc_view_count(ov);
        int64_t fill_f = n_out / s.P > 2048 ? 2048 : (n_out + s.P - 1) / s.P;
        if (fill_f < 1) fill_f = 1;
        uint32_t fp = n_out < (int64_t)s.P ? (uint32_t)(n_out ? n_out : 1) : s.P;
        int fill = cc_move_fill_tile(b, k, op->operands[2], rdt, fp, (uint64_t)fill_f);
        if (fill < 0) {
            st = diag->status;
            goto done;
        }
        if (!cc_view_is_dense(ov)) {
            st = cc_kb_fail(b, BASE_ERR_INTERNAL, "the result buffer is not dense");
            goto done;
        }
        int64_t chunk = (int64_t)fp * fill_f;
        for (int64_t e = 0; e < n_out && st == BASE_OK; e += chunk) {
            int64_t m = n_out - e < chunk ? n_out - e : chunk;
            uint32_t rows = (uint32_t)(m / fill_f);
            int64_t rest = m % fill_f;
            struct cc_access a[2] = {{fill, 0, CC_RD}, {tok, 0, CC_RD}};
            if (rows) {
                struct isa_ap dst;
                memset(&dst, 0, sizeof dst);
                dst.space = ISA_SPACE_HBM;
                dst.dtype = (uint8_t)rdt;
                dst.addr = ov->addr + (uint64_t)e * res;
                dst.part_count = (uint16_t)rows;
                dst.part_stride_bytes = fill_f * (int64_t)res;
                dst.ndims = 1;
                dst.stride[0] = 1;
                dst.count[0] = (uint32_t)fill_f;
                struct isa_ap src = cc_kb_sp(b, fill, 0, 0, 0, rows, rdt, (uint64_t)fill_f);
                st = cc_kb_dma(b, &dst, &src, a, 2, cc_kb_dma_pieces(b, rows * (uint64_t)fill_f * res, rows));
            }
            if (rest && st == BASE_OK) {
                struct isa_ap dst;
                memset(&dst, 0, sizeof dst);
                dst.space = ISA_SPACE_HBM;
                dst.dtype = (uint8_t)rdt;
                dst.addr = ov->addr + (uint64_t)(e + (int64_t)rows * fill_f) * res;
                dst.part_count = 1;
                dst.ndims = 1;
                dst.stride[0] = 1;
                dst.count[0] = (uint32_t)rest;
                struct isa_ap src = cc_kb_sp(b, fill, 0, 0, 0, 1, rdt, (uint64_t)rest);
                st = cc_kb_dma(b, &dst, &src, a, 2, 1);
            }
        }
        if (st != BASE_OK) goto done;
        /* a fence: the result's reads wait for the whole fill */
        struct isa_instr fz;
        memset(&fz, 0, sizeof fz);
        fz.op = ISA_OP_MEMSET;
        fz.dst = cc_kb_sp(b, tok, 0, 0, 0, 1, BASE_DT_UI8, 1);
        struct cc_access ft = {tok, 0, CC_WR};
        st = emit(&s, &fz, &ft, 1);
        if (st != BASE_OK) goto done;
    }
    if (n_src == 0) goto done;

    /* the tiling: the outermost dim k whose inner dims fit the free budget */
    size_t xes = base_dtype_size(xdt), ses = base_dtype_size(sv->dtype);
    uint64_t per = 2 * xes + 2 * res + ses + 4 + 4 + 5; /* cur nv res tmp src idx wt + i1 masks */
    uint64_t freeb = cc_kb_free_bytes(b);
    int64_t max_f = freeb > 4096 ? (int64_t)((freeb - 4096) / per) : 1;
    if (max_f > 8192) max_f = 8192;
    if (max_f < 1) max_f = 1;
    s.kdim = s.rank - 1;
    for (int kd = 0; kd < s.rank; kd++) {
        int64_t prod = 1;
        int nf = 0;
        for (int d = kd + 1; d < s.rank; d++)
            if (s.sdims[d] > 1) prod *= s.sdims[d], nf++;
        if (prod <= max_f && nf <= ISA_MAX_DIMS) {
            s.kdim = kd;
            break;
        }
    }
    s.nf = 0;
    s.F = 1;
    for (int d = s.kdim + 1; d < s.rank; d++)
        if (s.sdims[d] > 1) s.fd[s.nf++] = d, s.F *= s.sdims[d];
    s.n_tiles = (s.sdims[s.kdim] + s.P - 1) / s.P;
    for (int d = 0; d < s.kdim; d++) s.n_tiles *= s.sdims[d];
    uint64_t F = (uint64_t)s.F;
    int cur = cc_kb_buffer(b, F * xes, 1), nv = cc_kb_buffer(b, F * xes, 1), idx = cc_kb_buffer(b, F * 4, 1),
        wt = cc_kb_buffer(b, F * 4, 1), keep = cc_kb_buffer(b, F, 1), msk = cc_kb_buffer(b, F, 1),
        has = cc_kb_buffer(b, F, 1), t1 = cc_kb_buffer(b, F, 1), hit = cc_kb_buffer(b, F, 1),
        srcb = cc_kb_buffer(b, F * ses, 1), rb = cc_kb_buffer(b, F * res, 1), tb = cc_kb_buffer(b, F * res, 1);
    if (cur < 0 || nv < 0 || idx < 0 || wt < 0 || keep < 0 || msk < 0 || has < 0 || t1 < 0 || hit < 0 || srcb < 0 ||
        rb < 0 || tb < 0) {
        st = diag->status;
        goto done;
    }
    const enum base_dtype I1 = BASE_DT_I1, I32 = BASE_DT_SI32;
    int64_t one[MAXR], wpos[MAXR];
    for (int d = 0; d < s.rank; d++) one[d] = 1;
    for (int64_t ti = 0; ti < s.n_tiles && st == BASE_OK; ti++) {
        struct cc_box B, V;
        tile_box(&s, ti, &B);
        /* 1. the selection */
        bool all_has = false, any = false;
        for (int64_t w = 0; w < n_win && st == BASE_OK; w++) {
            int64_t r = w;
            for (int d = s.rank - 1; d >= 0; d--) wpos[d] = r % s.a.win[d], r /= s.a.win[d];
            if (!valid_box(&s, &B, wpos, &V)) continue;
            bool full = box_equal(&s, &B, &V);
            int64_t add[MAXR];
            for (int d = 0; d < s.rank; d++) add[d] = wpos[d] - s.a.pad_lo[d];
            struct isa_ap src, dst;
            if (!hbm_ap(&s, xv, s.a.stride, add, &V, &src)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a window of the operand");
                break;
            }
            if (!any && !full) { /* every element defined before the first compare */
                st = tile_ins(&s, ISA_OP_MEMSET, 0, cur, xdt, NULL, NULL, 0, &B, 0, 0);
                if (st == BASE_OK) st = tile_ins(&s, ISA_OP_MEMSET, 0, nv, xdt, NULL, NULL, 0, &B, 0, 0);
                if (st == BASE_OK) st = tile_ins(&s, ISA_OP_MEMSET, 0, idx, I32, NULL, NULL, 0, &B, -1, 0);
                if (st != BASE_OK) break;
            }
            int into = (!any && full) ? cur : nv;
            dst = sb_ap(&s, into, &B, &V, xdt);
            struct cc_access a = {into, 0, CC_WR};
            st = cc_kb_dma(b, &dst, &src, &a, 1, 1);
            if (st != BASE_OK) break;
            if (!any && full) { /* the first position selects everywhere */
                st = tile_ins(&s, ISA_OP_MEMSET, 0, idx, I32, NULL, NULL, 0, &B, (double)w, 0);
                all_has = any = true;
                continue;
            }
            if (!any) st = tile_ins(&s, ISA_OP_MEMSET, 0, has, I1, NULL, NULL, 0, &B, 0, 0);
            any = true;
            /* keep = select(cur, nv) */
            int cs[2] = {cur, nv};
            enum base_dtype cd[2] = {xdt, xdt};
            if (st == BASE_OK) st = tile_ins(&s, ISA_OP_BINARY, fsel, keep, I1, cs, cd, 2, &B, 0, 0);
            if (st == BASE_OK) st = tile_ins(&s, ISA_OP_MEMSET, 0, wt, I32, NULL, NULL, 0, &B, (double)w, 0);
            int take = keep; /* select(take, cur, nv): keep the current where take */
            if (!(all_has && full)) {
                /* keep where: has && (keep || !valid) */
                if (st == BASE_OK) st = tile_ins(&s, ISA_OP_MEMSET, 0, msk, I1, NULL, NULL, 0, &B, 0, 0);
                if (st == BASE_OK) {
                    struct isa_instr in;
                    memset(&in, 0, sizeof in);
                    in.op = ISA_OP_MEMSET;
                    in.imm0 = 1;
                    in.dst = sb_ap(&s, msk, &B, &V, I1);
                    struct cc_access a2 = {msk, 0, CC_WR};
                    st = emit(&s, &in, &a2, 1);
                }
                int u[2] = {msk, msk};
                enum base_dtype ud[2] = {I1, I1};
                if (st == BASE_OK) st = tile_ins(&s, ISA_OP_UNARY, ISA_ALU_INOT, t1, I1, u, ud, 1, &B, 0, 0);
                int o2[2] = {keep, t1};
                if (st == BASE_OK) st = tile_ins(&s, ISA_OP_BINARY, ISA_ALU_IOR, t1, I1, o2, ud, 2, &B, 0, 0);
                if (!all_has) {
                    int a3[2] = {t1, has};
                    if (st == BASE_OK) st = tile_ins(&s, ISA_OP_BINARY, ISA_ALU_IAND, t1, I1, a3, ud, 2, &B, 0, 0);
                    int h2[2] = {has, msk};
                    if (st == BASE_OK) st = tile_ins(&s, ISA_OP_BINARY, ISA_ALU_IOR, has, I1, h2, ud, 2, &B, 0, 0);
                }
                take = t1;
                if (full) all_has = true;
            }
            int sv3[3] = {take, cur, nv};
            enum base_dtype sd3[3] = {I1, xdt, xdt};
            if (st == BASE_OK) st = tile_ins(&s, ISA_OP_SELECT, 0, cur, xdt, sv3, sd3, 3, &B, 0, 0);
            int si3[3] = {take, idx, wt};
            enum base_dtype sid[3] = {I1, I32, I32};
            if (st == BASE_OK) st = tile_ins(&s, ISA_OP_SELECT, 0, idx, I32, si3, sid, 3, &B, 0, 0);
        }
        if (st != BASE_OK || !any) continue;
        if (!all_has) { /* nothing selected where has is 0: an index no position has */
            int hs[3] = {has, idx, wt};
            enum base_dtype hd[3] = {I1, I32, I32};
            st = tile_ins(&s, ISA_OP_MEMSET, 0, wt, I32, NULL, NULL, 0, &B, -1, 0);
            if (st == BASE_OK) st = tile_ins(&s, ISA_OP_SELECT, 0, idx, I32, hs, hd, 3, &B, 0, 0);
        }
        /* the source tile */
        {
            struct isa_ap src, dst;
            int64_t zero[MAXR] = {0};
            if (!hbm_ap(&s, sv, one, zero, &B, &src)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for the source");
                break;
            }
            dst = sb_ap(&s, srcb, &B, &B, sv->dtype);
            struct cc_access a = {srcb, 0, CC_WR};
            st = cc_kb_dma(b, &dst, &src, &a, 1, 1);
            if (st != BASE_OK) break;
        }
        /* 2. the contributions, window positions in reverse order */
        for (int64_t w = n_win - 1; w >= 0 && st == BASE_OK; w--) {
            int64_t r = w;
            for (int d = s.rank - 1; d >= 0; d--) wpos[d] = r % s.a.win[d], r /= s.a.win[d];
            if (!valid_box(&s, &B, wpos, &V)) continue;
            int64_t add[MAXR];
            for (int d = 0; d < s.rank; d++) add[d] = wpos[d] - s.a.pad_lo[d];
            struct isa_ap hv;
            if (!hbm_ap(&s, ov, s.a.stride, add, &V, &hv)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a window of the result");
                break;
            }
            /* hit = (idx == w) on the valid box */
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_TENSOR_SCALAR;
            in.func = ISA_ALU_IEQ;
            in.func2 = ISA_ALU_BYPASS;
            in.imm0 = (double)w;
            in.dst = sb_ap(&s, hit, &B, &V, I1);
            in.src0 = sb_ap(&s, idx, &B, &V, I32);
            struct cc_access ah[2] = {{idx, 0, CC_RD}, {hit, 0, CC_WR}};
            st = emit(&s, &in, ah, 2);
            /* rb <- result view (after every earlier write of it) */
            struct isa_ap rd = sb_ap(&s, rb, &B, &V, rdt);
            struct cc_access al[2] = {{rb, 0, CC_WR}, {tok, 0, CC_RD}};
            if (st == BASE_OK) st = cc_kb_dma(b, &rd, &hv, al, 2, 1);
            /* tb = scatter(rb, src); rb = hit ? tb : rb */
            if (st == BASE_OK) {
                memset(&in, 0, sizeof in);
                in.op = ISA_OP_BINARY;
                in.func = (uint8_t)fsc;
                in.dst = sb_ap(&s, tb, &B, &V, rdt);
                in.src0 = sb_ap(&s, rb, &B, &V, rdt);
                in.src1 = sb_ap(&s, srcb, &B, &V, sv->dtype);
                struct cc_access ac[3] = {{rb, 0, CC_RD}, {srcb, 0, CC_RD}, {tb, 0, CC_WR}};
                st = emit(&s, &in, ac, 3);
            }
            if (st == BASE_OK) {
                memset(&in, 0, sizeof in);
                in.op = ISA_OP_SELECT;
                in.dst = sb_ap(&s, rb, &B, &V, rdt);
                in.src0 = sb_ap(&s, hit, &B, &V, I1);
                in.src1 = sb_ap(&s, tb, &B, &V, rdt);
                in.src2 = sb_ap(&s, rb, &B, &V, rdt);
                struct cc_access ac[3] = {{hit, 0, CC_RD}, {tb, 0, CC_RD}, {rb, 0, CC_RW}};
                st = emit(&s, &in, ac, 3);
            }
            /* the store; with overlapping windows the next read waits for it */
            struct isa_ap sr = sb_ap(&s, rb, &B, &V, rdt);
            struct cc_access as[2] = {{rb, 0, CC_RD}, {tok, 0, overlap ? CC_WR : CC_RD}};
            if (st == BASE_OK) st = cc_kb_dma(b, &hv, &sr, as, 2, 1);
        }
    }
done:
    cc_kb_free(b);
    return st;
}
