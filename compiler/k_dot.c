/* Dot kernels (CC_K_DOT): stablehlo.dot_general and stablehlo.dot, with an
 * optional elementwise epilogue; and the general sum-of-matmuls engine
 * (cc_mm_emit, cc_internal.h) that convolutions use too.
 *
 * A dot_general's dims fall into four roles: batch (both operands and the
 * result), contracting (K: both operands), lhs free (M: lhs and result), rhs
 * free (N: rhs and result).  Within a role, consecutive dims merge when
 * every view that sees them addresses them as one (stride[d] == stride[d+1]
 * x size[d+1]); size-1 dims drop.  What remains:
 *  - the GEMM path (compiler/gemm.c, the tiled generator of npusim gemm):
 *    one K dim, float operands and result, no epilogue but a convert.  The
 *    innermost M and N dims are the GEMM's M and N; batch dims and the outer
 *    M and N dims become jobs (GEMMs of one shape at other offsets); the lhs
 *    is the stationary At[K, M] read through its strides (a transposing DMA
 *    when it is stored A[M, K]), the rhs B[K, N], the result C[M, N].  Cores
 *    take contiguous shares of all jobs' output blocks.
 *  - the general engine (cc_mm_emit) otherwise: K pieces (the outer
 *    contracting index tuples, row-major) x the innermost contracting dim,
 *    M = the innermost lhs free dim, N = a box over the rhs free dims, jobs
 *    = batch x outer M dims; epilogues run on the result tiles before the
 *    store (k_elem.c's tile programs, the sum as their source).
 * Numerics: docs/compiler.md "Kernels: dot_general". */
#include "compiler/cc_internal.h"
#include "compiler/gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====================================================== the general engine */




#define MM_RING_MAX 8   /* moving tiles in flight */
#define MM_ACC_MAX 8    /* accumulator tiles (one bank each) */

struct mm_kt {          /* a K tile: rows [r0, r0 + rows) of piece p */
    int piece;
    uint32_t r0, rows;
};

struct mm_tile {
    int64_t index;      /* in the grid (cc_tiling order) */
    int64_t job, m0, group;
    int64_t nbox;       /* v_panel: the n box's index in its job */
    uint32_t mr;
    int64_t n0[CC_MM_MAX_N], nc[CC_MM_MAX_N];
    uint64_t F;
};

struct mm {
    const struct cc_target *t;
    const struct cc_kernel *k;
    const struct cc_mm *p;
    struct cc_kb *b;
    uint32_t n_jobs;
    /* geometry */
    uint32_t mt, kt;
    int64_t ncnt[CC_MM_MAX_N];
    uint64_t fmax;          /* free elements of the largest tile */
    int n_kt;
    struct mm_kt *kts;
    /* the tile grid: [job, M, n...] or, with an epilogue, the result's dims */
    struct cc_tiling *tl;
    int gm, gn[CC_MM_MAX_N]; /* grid dims of M (-1: none, one row) and of the n box */
    int gj;                  /* the leading gj grid dims are the jobs' */
    int64_t lo, hi;
    /* engines */
    int n_pe, pe[CHIP_MAX_ENGINES];
    int n_ld, ld[CHIP_MAX_ENGINES], ld_next;
    int n_st, st[CHIP_MAX_ENGINES], st_next;
    int n_ev, ev[2], fill;
    /* buffers */
    bool panel_mode;
    bool v_panel;           /* the panel holds the moving tiles of n_group n boxes instead (plain_moving) */
    int64_t n_boxes;        /* n boxes per job */
    int64_t n_group;        /* v_panel: n boxes per group (a row of tiles shares one stationary panel;
                             * a wave is whole rows, at most n_pe tiles) */
    int panel;              /* 2 slots: a group's stationary (or moving) tiles, all K tiles */
    int spanel[2];          /* v_panel: per wave parity, a slot per row of the wave: its stationary tiles */
    int ring_n, ring_buf[MM_RING_MAX / 4 + 1], sring_buf[MM_RING_MAX / 4 + 1];
    int stage, n_stage;
    int cvt;                /* integer sums: the cast to the stored type, 2 slots */
    int acc_buf[2], n_acc;
    uint64_t bank_bytes;
    struct cc_ew *ew;
    size_t es_mm, es_acc;
    /* halo mode (convolutions: pieces that differ only in their n offsets):
     * per tile and K chunk one moving halo, the pieces strided views of it */
    bool halo;
    int n_hc, hring, hbpc;       /* chunks per piece, tiles in flight, buffers per chunk */
    int64_t hmin[CC_MM_MAX_N], hmax[CC_MM_MAX_N];
    int hbuf[64];
};


static struct isa_ap sp_ap(enum isa_space space, uint32_t p0, uint32_t np, uint64_t addr, enum base_dtype dt,
                           uint64_t n)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    a.space = (uint8_t)space;
    a.dtype = (uint8_t)dt;
    a.part_start = (uint16_t)p0;
    a.part_count = (uint16_t)np;
    a.addr = addr;
    if (n) {
        a.ndims = 1;
        a.stride[0] = 1;
        a.count[0] = (uint32_t)n;
    }
    return a;
}

static uint64_t hbm_addr(uint64_t base, enum base_dtype dt, int64_t off)
{
    return (uint64_t)((int64_t)base + off * (int64_t)base_dtype_size(dt));
}

static struct isa_ap hbm_ap(uint64_t addr, enum base_dtype dt, uint32_t np, int64_t part, int nd, const int64_t *stride,
                            const int64_t *count)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    a.space = ISA_SPACE_HBM;
    a.dtype = (uint8_t)dt;
    a.part_count = (uint16_t)np;
    a.part_stride_bytes = part * (int64_t)base_dtype_size(dt);
    a.addr = addr;
    int n = 0;
    for (int d = 0; d < nd; d++) {
        if (count[d] == 1) continue;
        if (n < ISA_MAX_DIMS) {
            a.stride[n] = stride[d];
            a.count[n] = (uint32_t)count[d];
        }
        n++;
    }
    a.ndims = (uint8_t)n; /* above ISA_MAX_DIMS: no access pattern holds it (callers that may ask check) */
    return a;
}

/* A DMA on the queues qs (round robin from *next), in at most nq pieces
 * (cc_dma_split): appended to ins / eng (room for CHIP_MAX_ENGINES more) at *n. */
static void dma_split(const int *qs, int nq, int *next, const struct isa_ap *dst, const struct isa_ap *src, int pieces,
                      struct isa_instr *ins, int *eng, int *n)
{
    cc_dma_split(qs, nq, next, dst, src, pieces > nq ? nq : pieces, ins, eng, n);
}

/* One DMA (dma_split) as one access. */
static enum base_status mm_dma(struct mm *m, const int *qs, int nq, int *next, const struct isa_ap *dst,
                               const struct isa_ap *src, const struct cc_access *acc, int n_acc, int pieces)
{
    struct isa_instr ins[CHIP_MAX_ENGINES];
    int eng[CHIP_MAX_ENGINES], n = 0;
    dma_split(qs, nq, next, dst, src, pieces, ins, eng, &n);
    return cc_kb_emit_group(m->b, ins, eng, n, acc, n_acc);
}

/* Bytes per result element an epilogue moves: its inputs of the result's
 * shape (the kernel's inputs after the dot's two operands; scalars stay)
 * and its outputs. */
static double epilogue_bytes(const struct cc_kernel *k)
{
    double b = 0;
    for (int i = 2; i < k->n_in; i++)
        if (k->in[i].value->type->rank > 0) b += (double)base_dtype_size(k->in[i].value->type->elem);
    for (int i = 0; i < k->n_out; i++) b += (double)base_dtype_size(k->out[i].value->type->elem);
    return b;
}

/* DMA queues for loads and for stores, in proportion to the bytes each
 * moves per tile (at least one each when there are two). */
static void split_queues(struct mm *m, double ld_bytes, double st_bytes)
{
    const struct cc_target *t = m->t;
    int n = t->n_dma;
    m->n_st = n >= 2 ? (int)(n * st_bytes / (ld_bytes + st_bytes) + 0.5) : 1;
    if (n >= 2 && m->n_st < 1) m->n_st = 1;
    if (n >= 2 && m->n_st > n - 1) m->n_st = n - 1;
    m->n_ld = n >= 2 ? n - m->n_st : 1;
    for (int i = 0; i < m->n_ld; i++) m->ld[i] = t->dma[i];
    for (int i = 0; i < m->n_st; i++) m->st[i] = t->dma[n - m->n_st + i];
    m->ld_next = m->st_next = 0;
    /* an epilogue's loads and stores (cc_kb_dma) on the store queues: on
     * the load queues they would wait behind the panels, and the arrays
     * for them */
    m->b->dma_q = m->st;
    m->b->n_dma_q = m->n_st;
    m->b->dma_next = 0;
}

/* The valid n of dim d in [lo, lo + cnt) for a piece with offset add: the
 * first, the step and the count, and the view index of the first and its
 * step (docs on struct cc_mm). */
static void dim_valid(const struct cc_mm *p, int d, int64_t add, int64_t lo, int64_t cnt, int64_t *first,
                      int64_t *step, int64_t *count, int64_t *src0, int64_t *src_step)
{
    int64_t mul = p->mul[d], div = p->div[d], lim = p->lim[d];
    /* 0 <= n mul + add <= lim - 1 */
    int64_t nlo = -cc_floor_div(add, mul), nhi = cc_floor_div(lim - 1 - add, mul);
    if (nlo < lo) nlo = lo;
    if (nhi > lo + cnt - 1) nhi = lo + cnt - 1;
    int64_t T = div / cc_gcd(mul, div), n0 = nlo;
    while (n0 < nlo + div && n0 <= nhi && ((n0 * mul + add) % div + div) % div != 0) n0++;
    *step = T;
    if (n0 > nhi || ((n0 * mul + add) % div + div) % div != 0) {
        *count = 0;
        *first = lo;
        *src0 = 0;
        *src_step = 0;
        return;
    }
    *first = n0;
    *count = (nhi - n0) / T + 1;
    *src0 = (n0 * mul + add) / div;
    *src_step = T * mul / div;
}

static void tile_of(const struct mm *m, int64_t index, struct mm_tile *tt)
{
    const struct cc_mm *p = m->p;
    int region;
    struct cc_box box;
    cc_tiling_tile(m->tl, index, &region, &box);
    memset(tt, 0, sizeof *tt);
    tt->index = index;
    const struct cc_region *r = &m->tl->r[0];
    int64_t job = 0;
    for (int d = 0; d < m->gj; d++) job = job * r->dims[d] + box.start[d];
    tt->job = job;
    tt->m0 = m->gm >= 0 ? box.start[m->gm] : 0;
    tt->mr = m->gm >= 0 ? (uint32_t)box.count[m->gm] : 1;
    tt->F = 1;
    for (int d = 0; d < p->n_nd; d++) {
        tt->n0[d] = box.start[m->gn[d]];
        tt->nc[d] = box.count[m->gn[d]];
        tt->F *= (uint64_t)tt->nc[d];
    }
    if (m->v_panel) { /* the tiles of n_group n boxes share their moving tiles */
        int64_t nb = 0;
        for (int d = 0; d < p->n_nd; d++) nb = nb * cc_ceil_div(p->n[d], m->ncnt[d]) + tt->n0[d] / m->ncnt[d];
        tt->nbox = nb;
        tt->group = job * cc_ceil_div(m->n_boxes, m->n_group) + nb / m->n_group;
    } else {
        tt->group = job * cc_ceil_div(p->M, m->mt) + tt->m0 / m->mt;
    }
}

/* Buffer and slot of ring position r. */
static int ring_buf(const struct mm *m, const int *bufs, int r) { return bufs[(r % m->ring_n) / 4]; }
static int ring_slot(const struct mm *m, int r) { return (r % m->ring_n) % 4; }

static struct cc_access acc_slot(const struct mm *m, int64_t u, int mode)
{
    int s = (int)(u % m->n_acc);
    return (struct cc_access){m->acc_buf[s / 4], s % 4, mode};
}

static uint64_t acc_addr(const struct mm *m, int64_t u) { return (uint64_t)(u % m->n_acc) * m->bank_bytes; }

/* Quantized operands (cc_quant_mm): the loaded storage values minus the
 * zero point, in place (exact: |q - zp| <= 255 in bf16); padding was filled
 * with zp, so it becomes 0. */
static enum base_status sub_zp(struct mm *m, double zp, const struct isa_ap *ap, int buf, int slot)
{
    if (zp == 0) return BASE_OK;
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_TENSOR_SCALAR;
    in.func = ISA_ALU_SUB;
    in.func2 = ISA_ALU_BYPASS;
    in.imm0 = zp;
    in.dst = *ap;
    in.src0 = *ap;
    struct cc_access ac = {buf, slot, CC_RW};
    return cc_kb_emit(m->b, m->fill, &in, &ac, 1);
}

/* Panel loads: many DMAs emitted as one access (the parts write disjoint
 * bytes of one slot and need not wait for each other). */
struct dma_batch {
    struct isa_instr *ins;
    int *eng;
    int n;
};

static enum base_status batch_new(struct mm *m, size_t n_dmas, struct dma_batch *b)
{
    size_t cap = n_dmas * CHIP_MAX_ENGINES;
    b->ins = malloc(cap * sizeof *b->ins);
    b->eng = malloc(cap * sizeof *b->eng);
    b->n = 0;
    if (b->ins && b->eng) return BASE_OK;
    free(b->ins);
    free(b->eng);
    return cc_kb_fail(m->b, BASE_ERR_NOMEM, "out of memory");
}

static enum base_status batch_emit(struct mm *m, struct dma_batch *b, int buf, int slot)
{
    struct cc_access ac = {buf, slot, CC_WR};
    enum base_status st = cc_kb_emit_group(m->b, b->ins, b->eng, b->n, &ac, 1);
    free(b->ins);
    free(b->eng);
    return st;
}

/* K tiles from i on of one piece and row count (one DMA loads them). */
static int same_kts(const struct mm *m, int i)
{
    int n = 1;
    while (i + n < m->n_kt && m->kts[i + n].piece == m->kts[i].piece && m->kts[i + n].rows == m->kts[i].rows) n++;
    return n;
}

/* n_same K tiles of `width` elements in a panel slot, at byte `at` and a
 * pitch of `pitch` elements per K tile. */
static struct isa_ap panel_ap(const struct mm *m, int buf, int slot, uint64_t at, uint32_t rows, int n_same,
                              uint64_t pitch, uint64_t width)
{
    struct isa_ap a = cc_kb_sp(m->b, buf, slot, at, 0, rows, m->p->mm_dt, 0);
    a.ndims = 2;
    a.stride[0] = (int64_t)pitch;
    a.count[0] = (uint32_t)n_same;
    a.stride[1] = 1;
    a.count[1] = (uint32_t)width;
    return a;
}

/* The stationary tiles of group (job, m0) into slot `slot` of buffer buf
 * (the panel, or a v_panel row's): per piece, its full K tiles in one DMA,
 * the ragged one apart. */
static enum base_status load_panel(struct mm *m, const struct mm_tile *tt, int buf, int slot)
{
    const struct cc_mm *p = m->p;
    int64_t job_s = p->job_off ? p->job_off[tt->job][0] : 0;
    struct dma_batch b;
    TRY(batch_new(m, (size_t)m->n_kt, &b));
    for (int i = 0; i < m->n_kt;) {
        const struct mm_kt *kq = &m->kts[i];
        const struct cc_mm_piece *pc = &p->pieces[kq->piece];
        int n_same = same_kts(m, i);
        struct isa_ap dst = panel_ap(m, buf, slot, (uint64_t)i * m->mt * m->es_mm, kq->rows, n_same, m->mt, tt->mr);
        int64_t st[2] = {(int64_t)m->kt * pc->s_k, p->s_m}, cn[2] = {n_same, tt->mr};
        uint64_t a = hbm_addr(p->s_addr, p->s_dt, job_s + pc->s_off + (int64_t)kq->r0 * pc->s_k + tt->m0 * p->s_m);
        struct isa_ap src = hbm_ap(a, p->s_dt, kq->rows, pc->s_k, 2, st, cn); /* same element order as dst */
        int pieces = cc_kb_dma_pieces(m->b, (uint64_t)kq->rows * n_same * tt->mr * m->es_mm, kq->rows);
        dma_split(m->ld, m->n_ld, &m->ld_next, &dst, &src, pieces, b.ins, b.eng, &b.n);
        i += n_same;
    }
    enum base_status st = batch_emit(m, &b, buf, slot);
    for (int i = 0; i < m->n_kt && st == BASE_OK && p->s_zp != 0;) {
        int n_same = same_kts(m, i);
        struct isa_ap dst =
            panel_ap(m, buf, slot, (uint64_t)i * m->mt * m->es_mm, m->kts[i].rows, n_same, m->mt, tt->mr);
        st = sub_zp(m, p->s_zp, &dst, buf, slot);
        i += n_same;
    }
    return st;
}

/* Stationary tile of K tile kq alone (stream mode) into ring position r. */
static enum base_status load_s_tile(struct mm *m, const struct mm_tile *tt, const struct mm_kt *kq, int r)
{
    const struct cc_mm *p = m->p;
    const struct cc_mm_piece *pc = &p->pieces[kq->piece];
    int64_t job_s = p->job_off ? p->job_off[tt->job][0] : 0;
    int buf = ring_buf(m, m->sring_buf, r), slot = ring_slot(m, r);
    struct isa_ap dst = cc_kb_sp(m->b, buf, slot, 0, 0, kq->rows, p->mm_dt, tt->mr);
    int64_t st[1] = {p->s_m}, cn[1] = {tt->mr};
    uint64_t a = hbm_addr(p->s_addr, p->s_dt, job_s + pc->s_off + (int64_t)kq->r0 * pc->s_k + tt->m0 * p->s_m);
    struct isa_ap src = hbm_ap(a, p->s_dt, kq->rows, pc->s_k, 1, st, cn);
    struct cc_access ac = {buf, slot, CC_WR};
    TRY(mm_dma(m, m->ld, m->n_ld, &m->ld_next, &dst, &src, &ac, 1, 1));
    return sub_zp(m, p->s_zp, &dst, buf, slot);
}

/* The moving tile of K tile kq for tile tt into ring position r: zeros
 * where the piece reads padding, then the valid sub-box. */
static enum base_status load_v_tile(struct mm *m, const struct mm_tile *tt, const struct mm_kt *kq, int r)
{
    const struct cc_mm *p = m->p;
    const struct cc_mm_piece *pc = &p->pieces[kq->piece];
    int64_t job_v = p->job_off ? p->job_off[tt->job][1] : 0;
    int buf = ring_buf(m, m->ring_buf, r), slot = ring_slot(m, r);
    int nd = p->n_nd;
    /* zeroed: gcc -O2 cannot see that every d < nd is filled below */
    int64_t first[CC_MM_MAX_N] = {0}, step[CC_MM_MAX_N] = {0}, cnt[CC_MM_MAX_N] = {0}, s0[CC_MM_MAX_N] = {0},
            ss[CC_MM_MAX_N] = {0};
    bool full = true, empty = false;
    for (int d = 0; d < nd; d++) {
        dim_valid(p, d, pc->add[d], tt->n0[d], tt->nc[d], &first[d], &step[d], &cnt[d], &s0[d], &ss[d]);
        if (cnt[d] != tt->nc[d]) full = false;
        if (cnt[d] == 0) empty = true;
    }
    struct cc_access ac = {buf, slot, CC_WR};
    struct isa_ap whole = cc_kb_sp(m->b, buf, slot, 0, 0, kq->rows, p->mm_dt, tt->F);
    if (!full) {
        struct isa_instr ms;
        memset(&ms, 0, sizeof ms);
        ms.op = ISA_OP_MEMSET;
        ms.dst = whole;
        ms.imm0 = p->v_zp; /* padding: zp - zp = 0 below */
        TRY(cc_kb_emit(m->b, m->fill, &ms, &ac, 1));
        if (empty) return sub_zp(m, p->v_zp, &whole, buf, slot);
    }
    /* SP side: the tile's box row-major; the valid part strided in it */
    int64_t sps[CC_MM_MAX_N] = {0}, off = 0;
    int64_t acc_ = 1;
    for (int d = nd - 1; d >= 0; d--) {
        sps[d] = acc_;
        acc_ *= tt->nc[d];
    }
    int64_t vst[CC_MM_MAX_N] = {0}, sst[CC_MM_MAX_N] = {0};
    int64_t voff = job_v + pc->v_off + (int64_t)kq->r0 * pc->v_k;
    for (int d = 0; d < nd; d++) {
        off += (first[d] - tt->n0[d]) * sps[d];
        sst[d] = step[d] * sps[d];
        vst[d] = ss[d] * p->v_n[d];
        voff += s0[d] * p->v_n[d];
    }
    struct isa_ap dst = hbm_ap(0, p->mm_dt, kq->rows, 0, nd, sst, cnt);
    dst.space = ISA_SPACE_SP;
    dst.part_stride_bytes = 0;
    struct isa_ap ring = cc_kb_sp(m->b, buf, slot, (uint64_t)off * m->es_mm, 0, kq->rows, p->mm_dt, 0);
    dst.addr = ring.addr;
    if (full) dst = cc_kb_sp(m->b, buf, slot, 0, 0, kq->rows, p->mm_dt, tt->F);
    struct isa_ap src = hbm_ap(hbm_addr(p->v_addr, p->v_dt, voff), p->v_dt, kq->rows, pc->v_k, nd, vst, cnt);
    if (dst.ndims > ISA_MAX_DIMS || src.ndims > ISA_MAX_DIMS)
        return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "moving tile needs more than %d dims", ISA_MAX_DIMS);
    uint64_t bytes = (uint64_t)kq->rows * tt->F * m->es_mm;
    TRY(mm_dma(m, m->ld, m->n_ld, &m->ld_next, &dst, &src, &ac, 1, cc_kb_dma_pieces(m->b, bytes, kq->rows)));
    return sub_zp(m, p->v_zp, &whole, buf, slot);
}

/* Box nb (row-major over the n box grid) of the n dims: its first n and counts. */
static uint64_t box_of(const struct mm *m, int64_t nb, int64_t *n0, int64_t *nc)
{
    const struct cc_mm *p = m->p;
    uint64_t F = 1;
    for (int d = p->n_nd - 1; d >= 0; d--) {
        int64_t cnt = cc_ceil_div(p->n[d], m->ncnt[d]);
        n0[d] = (nb % cnt) * m->ncnt[d];
        nc[d] = p->n[d] - n0[d] < m->ncnt[d] ? p->n[d] - n0[d] : m->ncnt[d];
        nb /= cnt;
        F *= (uint64_t)nc[d];
    }
    return F;
}

/* The moving tiles of tt's group (its n_group n boxes), all K tiles, into
 * panel slot `slot` (box g's K tile i at (g x n_kt + i) x fmax elements):
 * plain_moving problems only, whose tiles hold no padding.  A piece's full
 * K tiles go in one DMA (split over the queues), as load_panel's: per-tile
 * DMAs would each pay the fixed cost. */
static enum base_status load_v_panel(struct mm *m, const struct mm_tile *tt, int slot)
{
    const struct cc_mm *p = m->p;
    int64_t job_v = p->job_off ? p->job_off[tt->job][1] : 0;
    int64_t b0 = tt->nbox / m->n_group * m->n_group, nbx = m->n_boxes - b0 < m->n_group ? m->n_boxes - b0 : m->n_group;
    struct dma_batch b;
    TRY(batch_new(m, (size_t)(m->n_kt * nbx), &b));
    /* source dims: the K tiles, then the n box's (one pattern needs at most ISA_MAX_DIMS) */
    bool merge = p->n_nd + 1 <= ISA_MAX_DIMS;
    for (int64_t g = 0; g < nbx; g++) {
        int64_t n0[CC_MM_MAX_N], nc[CC_MM_MAX_N];
        uint64_t F = box_of(m, b0 + g, n0, nc);
        for (int i = 0; i < m->n_kt;) {
            const struct mm_kt *kq = &m->kts[i];
            const struct cc_mm_piece *pc = &p->pieces[kq->piece];
            int n_same = merge ? same_kts(m, i) : 1;
            int64_t voff = job_v + pc->v_off + (int64_t)kq->r0 * pc->v_k, st[CC_MM_MAX_N + 1], cn[CC_MM_MAX_N + 1];
            st[0] = (int64_t)m->kt * pc->v_k;
            cn[0] = n_same;
            for (int d = 0; d < p->n_nd; d++) {
                voff += n0[d] * p->v_n[d];
                st[d + 1] = p->v_n[d];
                cn[d + 1] = nc[d];
            }
            uint64_t at = ((uint64_t)g * (uint64_t)m->n_kt + (uint64_t)i) * m->fmax * m->es_mm;
            struct isa_ap dst = panel_ap(m, m->panel, slot, at, kq->rows, n_same, m->fmax, F);
            struct isa_ap src =
                hbm_ap(hbm_addr(p->v_addr, p->v_dt, voff), p->v_dt, kq->rows, pc->v_k, p->n_nd + 1, st, cn);
            int pieces = cc_kb_dma_pieces(m->b, (uint64_t)kq->rows * n_same * F * m->es_mm, kq->rows);
            dma_split(m->ld, m->n_ld, &m->ld_next, &dst, &src, pieces, b.ins, b.eng, &b.n);
            i += n_same;
        }
    }
    return batch_emit(m, &b, m->panel, slot);
}

/* last: the core's last tile (every queue is idle by then, the tail short). */
static enum base_status store_tile(struct mm *m, const struct mm_tile *tt, int buf, int slot, enum base_dtype dt,
                                   bool last)
{
    const struct cc_mm *p = m->p;
    int64_t job_c = p->job_off ? p->job_off[tt->job][2] : 0, st[CC_MM_MAX_N];
    int64_t coff = job_c + tt->m0 * p->c_m;
    for (int d = 0; d < p->n_nd; d++) {
        coff += tt->n0[d] * p->c_n[d];
        st[d] = p->c_n[d];
    }
    struct isa_ap dst = hbm_ap(hbm_addr(p->c_addr, p->c_dt, coff), p->c_dt, tt->mr, p->c_m, p->n_nd, st, tt->nc);
    struct isa_ap src = cc_kb_sp(m->b, buf, slot, 0, 0, tt->mr, dt, tt->F);
    struct cc_access ac = {buf, slot, CC_RD};
    uint64_t bytes = (uint64_t)tt->mr * tt->F * base_dtype_size(p->c_dt);
    if (last) {
        int next = 0;
        return mm_dma(m, m->t->dma, m->t->n_dma, &next, &dst, &src, &ac, 1, m->t->n_dma);
    }
    return mm_dma(m, m->st, m->n_st, &m->st_next, &dst, &src, &ac, 1, cc_kb_dma_pieces(m->b, bytes, tt->mr));
}

/* The sum, the epilogue (or the rounding copy) and the store of tile tt,
 * the core's u-th (from m->lo) in the order of the work. */
static enum base_status finish_tile(struct mm *m, const struct mm_tile *tt, int64_t u, const struct isa_ap *sum,
                                    struct cc_access sum_acc, int engine)
{
    const struct cc_mm *p = m->p;
    bool last = u + 1 == m->hi;
    struct isa_instr cp;
    memset(&cp, 0, sizeof cp);
    cp.op = ISA_OP_COPY;
    cp.src0 = *sum;
    if (m->ew) {
#ifdef CC_EW_SOURCES
        int slot = (int)((u - m->lo) % CC_EW_SLOTS);
        TRY(cc_ew_loads(m->ew, tt->index, slot));
        struct cc_access a[2] = {sum_acc, {0, 0, 0}};
        cp.dst = cc_ew_source_ap(m->ew, 0, tt->index, slot, &a[1]);
        TRY(cc_kb_emit(m->b, engine, &cp, a, 2));
        TRY(cc_ew_compute(m->ew, tt->index, slot, NULL, NULL));
        return cc_ew_stores(m->ew, tt->index, slot);
#else
        return cc_kb_fail(m->b, BASE_ERR_UNSUPPORTED, "epilogues need k_elem.c's tile sources (CC_EW_SOURCES)");
#endif
    }
    if (p->integer) {
        /* the sum is a tile of acc_dt in the scratchpad: stored as is, or
         * cast exactly to the stored type (a DMA would go through f32) */
        if (p->c_dt == p->acc_dt) return store_tile(m, tt, sum_acc.buf, sum_acc.slot, p->acc_dt, last);
        int cs = (int)(u % 2);
        cp.op = ISA_OP_UNARY;
        cp.func = ISA_ALU_CAST;
        cp.dst = cc_kb_sp(m->b, m->cvt, cs, 0, 0, tt->mr, p->c_dt, tt->F);
        struct cc_access a[2] = {sum_acc, {m->cvt, cs, CC_WR}};
        TRY(cc_kb_emit(m->b, engine, &cp, a, 2));
        return store_tile(m, tt, m->cvt, cs, p->c_dt, last);
    }
    int slot = (int)(u % m->n_stage);
    int sb = m->stage + slot / 4, ss = slot % 4;
    cp.dst = cc_kb_sp(m->b, sb, ss, 0, 0, tt->mr, p->acc_dt, tt->F);
    struct cc_access a[2] = {sum_acc, {sb, ss, CC_WR}};
    TRY(cc_kb_emit(m->b, engine, &cp, a, 2));
    return store_tile(m, tt, sb, ss, p->acc_dt, last);
}

struct step {
    int64_t u;  /* tile (index in this core's share) */
    int t;      /* K tile */
};

/* The panel of tt's group: its stationary or (v_panel) its moving tiles. */
static enum base_status load_group_panel(struct mm *m, const struct mm_tile *tt, int slot)
{
    return m->v_panel ? load_v_panel(m, tt, slot) : load_panel(m, tt, m->panel, slot);
}

/* Tiles by group, then by index: a group's tiles one after the other. */
static int by_group(const void *a, const void *b)
{
    const struct mm_tile *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The halo of tile tt: per n dim its first view index q_lo (before the
 * view's index map is applied) and extent; row-major pitches. */
static void halo_geom(const struct mm *m, const struct mm_tile *tt, int64_t *q_lo, int64_t *ext, int64_t *pitch,
                      uint64_t *elems)
{
    const struct cc_mm *p = m->p;
    uint64_t n = 1;
    for (int d = p->n_nd - 1; d >= 0; d--) {
        q_lo[d] = tt->n0[d] * p->mul[d] + m->hmin[d];
        ext[d] = (tt->nc[d] - 1) * p->mul[d] + (m->hmax[d] - m->hmin[d]) + 1;
        pitch[d] = (int64_t)n;
        n *= (uint64_t)ext[d];
    }
    *elems = n;
}

static void halo_slot(const struct mm *m, int64_t u, int c, int *buf, int *slot)
{
    int r = (int)(u % m->hring);
    *buf = m->hbuf[c * m->hbpc + r / 4];
    *slot = r % 4;
}

/* The halo of tile u, K chunk c: zeros where the view reads padding or lhs
 * dilation holes, then the valid strided sub-box. */
static enum base_status load_halo(struct mm *m, const struct mm_tile *tt, int64_t u, int c)
{
    const struct cc_mm *p = m->p;
    const struct mm_kt *kq = &m->kts[c]; /* piece 0's chunk c: the same rows in every piece */
    const struct cc_mm_piece *pc = &p->pieces[0];
    int buf, slot;
    halo_slot(m, u, c, &buf, &slot);
    int nd = p->n_nd;
    int64_t q_lo[CC_MM_MAX_N], ext[CC_MM_MAX_N], pitch[CC_MM_MAX_N], cnt[CC_MM_MAX_N], sst[CC_MM_MAX_N],
        vst[CC_MM_MAX_N];
    uint64_t elems;
    halo_geom(m, tt, q_lo, ext, pitch, &elems);
    bool full = true, empty = false;
    int64_t off = 0, voff = (p->job_off ? p->job_off[tt->job][1] : 0) + pc->v_off + (int64_t)kq->r0 * pc->v_k;
    for (int d = 0; d < nd; d++) {
        int64_t div = p->div[d], qa = q_lo[d] > 0 ? q_lo[d] : 0, qb = q_lo[d] + ext[d] - 1;
        if (qb > p->lim[d] - 1) qb = p->lim[d] - 1;
        int64_t q0 = (qa + div - 1) / div * div;
        cnt[d] = q0 <= qb ? (qb - q0) / div + 1 : 0;
        if (cnt[d] != ext[d]) full = false;
        if (cnt[d] == 0) empty = true;
        off += (q0 - q_lo[d]) * pitch[d];
        sst[d] = div * pitch[d];
        vst[d] = p->v_n[d];
        voff += q0 / div * p->v_n[d];
    }
    struct cc_access ac = {buf, slot, CC_WR};
    struct isa_ap whole = cc_kb_sp(m->b, buf, slot, 0, 0, kq->rows, p->mm_dt, elems);
    if (!full) {
        struct isa_instr ms;
        memset(&ms, 0, sizeof ms);
        ms.op = ISA_OP_MEMSET;
        ms.dst = whole;
        ms.imm0 = p->v_zp;
        TRY(cc_kb_emit(m->b, m->fill, &ms, &ac, 1));
        if (empty) return sub_zp(m, p->v_zp, &whole, buf, slot);
    }
    struct isa_ap dst = hbm_ap(0, p->mm_dt, kq->rows, 0, nd, sst, cnt);
    dst.space = ISA_SPACE_SP;
    dst.part_stride_bytes = 0;
    dst.addr = cc_kb_sp(m->b, buf, slot, (uint64_t)off * m->es_mm, 0, kq->rows, p->mm_dt, 0).addr;
    struct isa_ap src = hbm_ap(hbm_addr(p->v_addr, p->v_dt, voff), p->v_dt, kq->rows, pc->v_k, nd, vst, cnt);
    uint64_t bytes = (uint64_t)kq->rows * elems * m->es_mm;
    TRY(mm_dma(m, m->ld, m->n_ld, &m->ld_next, &dst, &src, &ac, 1, cc_kb_dma_pieces(m->b, bytes, kq->rows)));
    return sub_zp(m, p->v_zp, &whole, buf, slot);
}

/* The moving operand of piece kq for tile tt: a strided view of its halo. */
static struct isa_ap halo_view(const struct mm *m, const struct mm_tile *tt, int64_t u, const struct mm_kt *kq,
                               struct cc_access *acc)
{
    const struct cc_mm *p = m->p;
    const struct cc_mm_piece *pc = &p->pieces[kq->piece];
    int c = (int)(kq->r0 / m->kt), buf, slot;
    halo_slot(m, u, c, &buf, &slot);
    int64_t q_lo[CC_MM_MAX_N], ext[CC_MM_MAX_N], pitch[CC_MM_MAX_N];
    uint64_t elems;
    halo_geom(m, tt, q_lo, ext, pitch, &elems);
    int64_t off = 0;
    struct isa_ap a = cc_kb_sp(m->b, buf, slot, 0, 0, kq->rows, p->mm_dt, 0);
    int n = 0;
    for (int d = 0; d < p->n_nd; d++) {
        off += (pc->add[d] - m->hmin[d]) * pitch[d];
        if (tt->nc[d] == 1) continue;
        a.stride[n] = p->mul[d] * pitch[d];
        a.count[n++] = (uint32_t)tt->nc[d];
    }
    a.ndims = (uint8_t)n;
    a.addr += (uint64_t)off * m->es_mm;
    *acc = (struct cc_access){buf, slot, CC_RD};
    return a;
}

/* Float sums on the systolic arrays. */
static enum base_status run_float(struct mm *m)
{
    const struct cc_mm *p = m->p;
    int64_t nt = m->hi - m->lo;
    struct mm_tile *tiles = calloc((size_t)nt, sizeof *tiles);
    struct step *steps = calloc((size_t)nt * (size_t)m->n_kt, sizeof *steps);
    int64_t *wave_end = calloc((size_t)nt, sizeof *wave_end); /* per tile: one past the last tile of its wave */
    int64_t *wstart = calloc((size_t)nt + 1, sizeof *wstart), *gord = calloc((size_t)nt, sizeof *gord);
    int64_t *row_of = calloc((size_t)nt, sizeof *row_of), *rstart = calloc((size_t)nt + 1, sizeof *rstart);
    int64_t *wave_of = calloc((size_t)nt, sizeof *wave_of);
    enum base_status st = BASE_OK;
    if (!tiles || !steps || !wave_end || !wstart || !gord || !row_of || !rstart || !wave_of) {
        st = cc_kb_fail(m->b, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t u = 0; u < nt; u++) tile_of(m, m->lo + u, &tiles[u]);
    /* v_panel: the grid walks M before n, the work group by group (a group
     * row by row: the tiles of one M tile, which share its stationary panel) */
    if (m->v_panel) qsort(tiles, (size_t)nt, sizeof *tiles, by_group);
    int64_t nr = 0;
    for (int64_t u = 0; u < nt; u++) {
        if (u == 0 || tiles[u].group != tiles[u - 1].group || tiles[u].m0 != tiles[u - 1].m0) rstart[nr++] = u;
        row_of[u] = nr - 1;
    }
    rstart[nr] = nt;
    /* waves: up to n_pe consecutive tiles of one group (v_panel: whole rows),
     * their K tiles interleaved so the arrays work side by side */
    int64_t ns = 0;
    for (int64_t u = 0; u < nt;) {
        int64_t w = 1;
        if (m->v_panel) {
            w = rstart[row_of[u] + 1] - u;
            for (int64_t r = row_of[u] + 1; r < nr && tiles[rstart[r]].group == tiles[u].group &&
                                            w + rstart[r + 1] - rstart[r] <= m->n_pe;
                 r++)
                w += rstart[r + 1] - rstart[r];
        }
        while (!m->v_panel && u + w < nt && w < m->n_pe && tiles[u + w].group == tiles[u].group) w++;
        for (int t = 0; t < m->n_kt; t++)
            for (int64_t i = 0; i < w; i++) steps[ns++] = (struct step){u + i, t};
        for (int64_t i = 0; i < w; i++) wave_end[u + i] = u + w;
        u += w;
    }
    int R = m->halo ? 1 : m->ring_n;
    /* halo mode: the halos of waves D ahead (tiles in flight: hring) */
    int nw = 0;
    for (int64_t u = 0; u < nt; u = wave_end[u]) wstart[nw++] = u;
    wstart[nw] = nt;
    for (int w = 0; w < nw; w++)
        for (int64_t u = wstart[w]; u < wstart[w + 1]; u++) wave_of[u] = w;
    int D = m->halo ? m->hring / m->n_pe - 1 : 0, next_wave = 0;
#define LOAD_WAVE(w_)                                                                                   \
    do {                                                                                                \
        for (int64_t u_ = wstart[w_]; u_ < wstart[(w_) + 1] && st == BASE_OK; u_++)                     \
            for (int c_ = 0; c_ < m->n_hc && st == BASE_OK; c_++) st = load_halo(m, &tiles[u_], u_, c_); \
    } while (0)
    /* group ordinal per tile, for the panel slots */
    int64_t gi = -1, last_group = -1;
    for (int64_t u = 0; u < nt; u++) {
        if (tiles[u].group != last_group) gi++, last_group = tiles[u].group;
        gord[u] = gi;
    }
    /* loads of step s (v_panel: none, the panels hold every operand) */
#define LOAD_STEP(s_)                                                                                   \
    do {                                                                                                \
        const struct step *sp_ = &steps[s_];                                                            \
        if (m->v_panel) break;                                                                          \
        if (!m->panel_mode) st = load_s_tile(m, &tiles[sp_->u], &m->kts[sp_->t], (int)(s_));            \
        if (st == BASE_OK) st = load_v_tile(m, &tiles[sp_->u], &m->kts[sp_->t], (int)(s_));              \
    } while (0)
    if (m->panel_mode && nt > 0) st = load_group_panel(m, &tiles[0], 0);
    /* v_panel: the stationary tiles of wave w_'s rows, a slot each */
#define LOAD_SROWS(w_)                                                                                  \
    do {                                                                                                \
        for (int64_t r_ = row_of[wstart[w_]]; r_ < nr && rstart[r_] < wstart[(w_) + 1] && st == BASE_OK; r_++) \
            st = load_panel(m, &tiles[rstart[r_]], m->spanel[(w_) % 2], (int)(r_ - row_of[wstart[w_]]));  \
    } while (0)
    if (m->v_panel && nw > 0 && st == BASE_OK) LOAD_SROWS(0);
    if (m->halo)
        for (; next_wave < D && next_wave < nw && st == BASE_OK; next_wave++) LOAD_WAVE(next_wave);
    else
        for (int64_t s = 0; s < R - 1 && s < ns && st == BASE_OK; s++) LOAD_STEP(s);
    int64_t next_panel_tile = 0; /* first tile of the next group whose panel is not loaded */
    for (int64_t u = 1; u < nt; u++)
        if (gord[u] != gord[0]) {
            next_panel_tile = u;
            break;
        }
    if (next_panel_tile == 0) next_panel_tile = nt;
    int ev_next = 0;
    for (int64_t s = 0; s < ns && st == BASE_OK; s++) {
        const struct step *sp = &steps[s];
        const struct mm_tile *tt = &tiles[sp->u];
        /* the next group's panel, once this group has started */
        if (m->panel_mode && sp->t == 0 && next_panel_tile < nt && gord[next_panel_tile] == gord[sp->u] + 1) {
            st = load_group_panel(m, &tiles[next_panel_tile], (int)(gord[next_panel_tile] % 2));
            int64_t v = next_panel_tile;
            while (v < nt && gord[v] == gord[next_panel_tile]) v++;
            next_panel_tile = v;
            if (st != BASE_OK) break;
        }
        if (m->v_panel) {
            /* the next wave's stationary tiles, once this wave has started */
            int w = (int)wave_of[sp->u];
            if (sp->t == 0 && sp->u == wstart[w] && w + 1 < nw) LOAD_SROWS(w + 1);
        } else if (m->halo) {
            if (sp->t == 0 && sp->u == wstart[next_wave - D > 0 ? next_wave - D : 0] && next_wave < nw) {
                LOAD_WAVE(next_wave);
                next_wave++;
            }
        } else if (s + R - 1 < ns) {
            LOAD_STEP(s + R - 1);
        }
        if (st != BASE_OK) break;
        const struct mm_kt *kq = &m->kts[sp->t];
        struct isa_instr mm;
        memset(&mm, 0, sizeof mm);
        mm.op = ISA_OP_MATMUL;
        mm.dst = sp_ap(ISA_SPACE_ACC, 0, tt->mr, acc_addr(m, sp->u), BASE_DT_F32, tt->F);
        struct cc_access a[3];
        int na = 0;
        if (m->v_panel) {
            int w = (int)wave_of[sp->u], b = m->spanel[w % 2], slot = (int)(row_of[sp->u] - row_of[wstart[w]]);
            mm.src0 = cc_kb_sp(m->b, b, slot, (uint64_t)sp->t * m->mt * m->es_mm, 0, kq->rows, p->mm_dt, tt->mr);
            a[na++] = (struct cc_access){b, slot, CC_RD};
        } else if (m->panel_mode) {
            int slot = (int)(gord[sp->u] % 2);
            mm.src0 = cc_kb_sp(m->b, m->panel, slot, (uint64_t)sp->t * m->mt * m->es_mm, 0, kq->rows, p->mm_dt, tt->mr);
            a[na++] = (struct cc_access){m->panel, slot, CC_RD};
        } else {
            int b = ring_buf(m, m->sring_buf, (int)s), sl = ring_slot(m, (int)s);
            mm.src0 = cc_kb_sp(m->b, b, sl, 0, 0, kq->rows, p->mm_dt, tt->mr);
            a[na++] = (struct cc_access){b, sl, CC_RD};
        }
        if (m->halo) {
            mm.src1 = halo_view(m, tt, sp->u, kq, &a[na]);
            na++;
        } else if (m->v_panel) {
            int slot = (int)(gord[sp->u] % 2);
            uint64_t at = ((uint64_t)(tt->nbox % m->n_group) * (uint64_t)m->n_kt + (uint64_t)sp->t) * m->fmax * m->es_mm;
            mm.src1 = cc_kb_sp(m->b, m->panel, slot, at, 0, kq->rows, p->mm_dt, tt->F);
            a[na++] = (struct cc_access){m->panel, slot, CC_RD};
        } else {
            int vb = ring_buf(m, m->ring_buf, (int)s), vs = ring_slot(m, (int)s);
            mm.src1 = cc_kb_sp(m->b, vb, vs, 0, 0, kq->rows, p->mm_dt, tt->F);
            a[na++] = (struct cc_access){vb, vs, CC_RD};
        }
        a[na++] = acc_slot(m, sp->u, sp->t == 0 ? CC_WR : CC_RW);
        if (sp->t == 0) mm.flags |= ISA_FLAG_START;
        if (sp->t == m->n_kt - 1) mm.flags |= ISA_FLAG_STOP;
        if (p->mm_dt == BASE_DT_F32) mm.func = (uint8_t)p->prec;
        st = cc_kb_emit(m->b, m->pe[sp->u % m->n_pe], &mm, a, na);
        if (st != BASE_OK) break;
        /* after the wave's last matmul: finish its tiles */
        if (sp->t == m->n_kt - 1 && sp->u + 1 == wave_end[sp->u]) {
            int64_t w0 = sp->u;
            while (w0 > 0 && wave_end[w0 - 1] == wave_end[sp->u]) w0--;
            for (int64_t u = w0; u <= sp->u && st == BASE_OK; u++) {
                struct isa_ap sum = sp_ap(ISA_SPACE_ACC, 0, tiles[u].mr, acc_addr(m, u), BASE_DT_F32, tiles[u].F);
                st = finish_tile(m, &tiles[u], m->lo + u, &sum, acc_slot(m, u, CC_RD), m->ev[ev_next]);
                ev_next = (ev_next + 1) % m->n_ev;
            }
        }
    }
#undef LOAD_STEP
#undef LOAD_WAVE
#undef LOAD_SROWS
done:
    free(wave_of);
    free(row_of);
    free(rstart);
    free(gord);
    free(wstart);
    free(tiles);
    free(steps);
    free(wave_end);
    return st;
}

/* Integer sums on the vector engines: per K row, the moving row (every
 * partition holds it) times the stationary column (a per-partition scalar),
 * added to the tile: exact, wrapping to the result's width. */
static enum base_status run_int(struct mm *m)
{
    const struct cc_mm *p = m->p;
    int e_mul = m->t->pool >= 0 ? m->t->pool : m->t->vec, e_add = m->t->vec >= 0 ? m->t->vec : m->t->pool;
    if (e_mul < 0 || e_add < 0) return cc_kb_fail(m->b, BASE_ERR_UNSUPPORTED, "integer sums need a vector engine");
    enum base_status st = BASE_OK;
    int64_t step = 0;
    for (int64_t u = 0; u < m->hi - m->lo && st == BASE_OK; u++) {
        struct mm_tile tt;
        tile_of(m, m->lo + u, &tt);
        int ab = m->stage + (int)(u % m->n_stage) / 4, as = (int)(u % m->n_stage) % 4;
        struct isa_ap accap = cc_kb_sp(m->b, ab, as, 0, 0, tt.mr, p->acc_dt, tt.F);
        struct isa_instr ms;
        memset(&ms, 0, sizeof ms);
        ms.op = ISA_OP_MEMSET;
        ms.dst = accap;
        struct cc_access aw = {ab, as, CC_WR};
        TRY(cc_kb_emit(m->b, e_add, &ms, &aw, 1));
        for (int t = 0; t < m->n_kt && st == BASE_OK; t++, step++) {
            const struct mm_kt *kq = &m->kts[t];
            const struct cc_mm_piece *pc = &p->pieces[kq->piece];
            int r = (int)(step % m->ring_n);
            int sb = ring_buf(m, m->sring_buf, r), ss = ring_slot(m, r);
            int vb = ring_buf(m, m->ring_buf, r), vs = ring_slot(m, r);
            /* S: [mr partitions (m)][rows (k)] */
            int64_t job_s = p->job_off ? p->job_off[tt.job][0] : 0, job_v = p->job_off ? p->job_off[tt.job][1] : 0;
            int64_t sst[1] = {pc->s_k}, scn[1] = {kq->rows};
            struct isa_ap src = hbm_ap(hbm_addr(p->s_addr, p->s_dt, job_s + pc->s_off + (int64_t)kq->r0 * pc->s_k +
                                                                         tt.m0 * p->s_m),
                                       p->s_dt, tt.mr, p->s_m, 1, sst, scn);
            struct isa_ap dst = cc_kb_sp(m->b, sb, ss, 0, 0, tt.mr, p->s_dt, kq->rows);
            struct cc_access sa = {sb, ss, CC_WR};
            TRY(mm_dma(m, m->ld, m->n_ld, &m->ld_next, &dst, &src, &sa, 1, 1));
            /* V: every partition [rows][box], zeros where the piece reads padding */
            int nd = p->n_nd;
            int64_t first[CC_MM_MAX_N], stp[CC_MM_MAX_N], cnt[CC_MM_MAX_N], s0[CC_MM_MAX_N], sst2[CC_MM_MAX_N];
            bool full = true, empty = false;
            for (int d = 0; d < nd; d++) {
                dim_valid(p, d, pc->add[d], tt.n0[d], tt.nc[d], &first[d], &stp[d], &cnt[d], &s0[d], &sst2[d]);
                if (cnt[d] != tt.nc[d]) full = false;
                if (cnt[d] == 0) empty = true;
            }
            struct cc_access va = {vb, vs, CC_WR};
            if (!full) {
                memset(&ms, 0, sizeof ms);
                ms.op = ISA_OP_MEMSET;
                ms.dst = cc_kb_sp(m->b, vb, vs, 0, 0, tt.mr, p->v_dt, (uint64_t)kq->rows * tt.F);
                TRY(cc_kb_emit(m->b, e_mul, &ms, &va, 1));
            }
            if (!empty) {
                int64_t sps[CC_MM_MAX_N + 1] = {0}, dstr[CC_MM_MAX_N + 1], vstr[CC_MM_MAX_N + 1], cn[CC_MM_MAX_N + 1];
                int64_t acc_ = 1, off = 0, voff = job_v + pc->v_off + (int64_t)kq->r0 * pc->v_k;
                for (int d = nd - 1; d >= 0; d--) {
                    sps[d] = acc_;
                    acc_ *= tt.nc[d];
                }
                dstr[0] = (int64_t)tt.F;
                vstr[0] = pc->v_k;
                cn[0] = kq->rows;
                for (int d = 0; d < nd; d++) {
                    off += (first[d] - tt.n0[d]) * sps[d];
                    dstr[d + 1] = stp[d] * sps[d];
                    vstr[d + 1] = sst2[d] * p->v_n[d];
                    cn[d + 1] = cnt[d];
                    voff += s0[d] * p->v_n[d];
                }
                /* one DMA of [rows][box dims], or (more dims than an access
                 * pattern has) one per index of the outer box dims */
                for (int outer = 0; outer <= nd; outer++) {
                    int64_t ds[CC_MM_MAX_N + 1], vs2[CC_MM_MAX_N + 1], cs[CC_MM_MAX_N + 1];
                    int n2 = 0;
                    ds[n2] = dstr[0], vs2[n2] = vstr[0], cs[n2++] = cn[0];
                    for (int d = outer; d < nd; d++) ds[n2] = dstr[d + 1], vs2[n2] = vstr[d + 1], cs[n2++] = cn[d + 1];
                    struct isa_ap vd = hbm_ap(0, p->v_dt, tt.mr, 0, n2, ds, cs);
                    struct isa_ap vsrc = hbm_ap(0, p->v_dt, tt.mr, 0, n2, vs2, cs);
                    if ((vd.ndims > ISA_MAX_DIMS || vsrc.ndims > ISA_MAX_DIMS) && outer < nd) continue;
                    if (vd.ndims > ISA_MAX_DIMS || vsrc.ndims > ISA_MAX_DIMS)
                        return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "no access pattern for an integer sum's moving rows");
                    int64_t idx[CC_MM_MAX_N] = {0}, n_iter = 1;
                    for (int d = 0; d < outer; d++) n_iter *= cn[d + 1];
                    for (int64_t it = 0; it < n_iter; it++) {
                        int64_t o2 = off, v2 = voff;
                        for (int d = 0; d < outer; d++) o2 += idx[d] * dstr[d + 1], v2 += idx[d] * vstr[d + 1];
                        for (int d = outer - 1; d >= 0; d--) { /* the next index, innermost fastest */
                            if (++idx[d] < cn[d + 1]) break;
                            idx[d] = 0;
                        }
                        struct isa_ap dst2 = hbm_ap(0, p->v_dt, tt.mr, 0, n2, ds, cs);
                        struct isa_ap ring =
                            cc_kb_sp(m->b, vb, vs, (uint64_t)o2 * base_dtype_size(p->v_dt), 0, tt.mr, p->v_dt, 0);
                        dst2.space = ISA_SPACE_SP;
                        dst2.addr = ring.addr;
                        dst2.part_stride_bytes = 0;
                        struct isa_ap src2 = hbm_ap(hbm_addr(p->v_addr, p->v_dt, v2), p->v_dt, tt.mr, 0, n2, vs2, cs);
                        TRY(mm_dma(m, m->ld, m->n_ld, &m->ld_next, &dst2, &src2, &va, 1, 1));
                    }
                    break;
                }
            }
            for (uint32_t k = 0; k < kq->rows; k++) {
                int tslot = (int)(k % 2);
                struct isa_instr mu;
                memset(&mu, 0, sizeof mu);
                mu.op = ISA_OP_TENSOR_SCALAR;
                mu.func = ISA_ALU_IMUL;
                mu.func2 = ISA_ALU_BYPASS;
                mu.flags = ISA_FLAG_SCALE_AP;
                mu.dst = cc_kb_sp(m->b, m->panel, tslot, 0, 0, tt.mr, p->acc_dt, tt.F);
                mu.src0 = cc_kb_sp(m->b, vb, vs, (uint64_t)k * tt.F * base_dtype_size(p->v_dt), 0, tt.mr, p->v_dt, tt.F);
                mu.src1 = cc_kb_sp(m->b, sb, ss, (uint64_t)k * base_dtype_size(p->s_dt), 0, tt.mr, p->s_dt, 0);
                struct cc_access ma[3] = {{m->panel, tslot, CC_WR}, {vb, vs, CC_RD}, {sb, ss, CC_RD}};
                TRY(cc_kb_emit(m->b, e_mul, &mu, ma, 3));
                struct isa_instr ad;
                memset(&ad, 0, sizeof ad);
                ad.op = ISA_OP_BINARY;
                ad.func = ISA_ALU_IADD;
                ad.dst = accap;
                ad.src0 = accap;
                ad.src1 = mu.dst;
                struct cc_access aa[2] = {{ab, as, CC_RW}, {m->panel, tslot, CC_RD}};
                TRY(cc_kb_emit(m->b, e_add, &ad, aa, 2));
            }
        }
        if (st == BASE_OK) st = finish_tile(m, &tt, m->lo + u, &accap, (struct cc_access){ab, as, CC_RD}, e_add);
    }
    return st;
}

/* qsort order of int64_t. */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether the moving operand's tiles hold no padding (no convolution
 * offsets, dilations or limits) and no zero point: a panel of them is one
 * DMA per K tile (load_v_panel). */
static bool plain_moving(const struct cc_mm *p)
{
    if (p->v_zp != 0) return false;
    for (int d = 0; d < p->n_nd; d++) {
        if (p->mul[d] != 1 || p->div[d] != 1 || p->lim[d] < p->n[d]) return false;
        for (int i = 0; i < p->n_pieces; i++)
            if (p->pieces[i].add[d] != 0) return false;
    }
    return true;
}

/* Whether this core's tiles read fewer bytes with the moving tiles of an n
 * box kept (each stationary tile streamed per tile) than with the
 * stationary tiles of an M group kept (each moving tile streamed): per K
 * row, groups x the kept width + tiles x the streamed width.  A GEMM's
 * rhs is read once per M group the other way (a 4096^3 matmul: 32 times). */
static bool prefer_v_panel(struct mm *m)
{
    int64_t nt = m->hi - m->lo, s_groups = 0, v_groups = 0, last = -1;
    int64_t *ids = malloc((size_t)nt * sizeof *ids);
    if (!ids) return false;
    struct mm_tile tt;
    m->v_panel = false;
    for (int64_t u = 0; u < nt; u++) {
        tile_of(m, m->lo + u, &tt);
        if (tt.group != last) s_groups++, last = tt.group;
    }
    m->v_panel = true;
    for (int64_t u = 0; u < nt; u++) {
        tile_of(m, m->lo + u, &tt);
        ids[u] = tt.group;
    }
    m->v_panel = false;
    qsort(ids, (size_t)nt, sizeof *ids, cmp_i64);
    for (int64_t u = 0; u < nt; u++) v_groups += u == 0 || ids[u] != ids[u - 1];
    free(ids);
    double keep_s = (double)s_groups * m->mt + (double)nt * (double)m->fmax;
    double rows = (double)nt / (double)m->n_group; /* about: a row holds n_group tiles */
    double keep_v = (double)v_groups * (double)m->n_group * (double)m->fmax + (rows < v_groups ? v_groups : rows) * m->mt;
    return keep_v < keep_s;
}

/* Tile counts of the n box: innermost dims whole while they fit fmax, then a
 * chunk of the next (a divisor when one is at least half the chunk). */
static void box_counts(const struct cc_mm *p, uint64_t fmax, int64_t *cnt)
{
    int64_t acc = 1;
    int d = p->n_nd - 1;
    for (int e = 0; e < p->n_nd; e++) cnt[e] = 1;
    for (; d >= 0; d--) {
        if (acc * p->n[d] <= (int64_t)fmax) {
            cnt[d] = p->n[d];
            acc *= p->n[d];
            continue;
        }
        int64_t c = (int64_t)fmax / acc;
        if (c < 1) c = 1;
        for (int64_t x = c; x >= (c + 1) / 2 && x > 1; x--)
            if (p->n[d] % x == 0) {
                c = x;
                break;
            }
        cnt[d] = c;
        break;
    }
}

enum base_status cc_mm_emit(const struct cc_target *t, const struct cc_kernel *k, const struct cc_mm *p,
                            const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    struct mm m;
    memset(&m, 0, sizeof m);
    m.t = t;
    m.k = k;
    m.p = p;
    m.b = cc_kb_new(t, k, out, diag);
    m.tl = calloc(1, sizeof *m.tl);
    enum base_status st = BASE_OK;
    if (!m.b || !m.tl) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    const struct chip_desc *chip = t->chip;
    m.n_jobs = p->n_jobs ? p->n_jobs : 1;
    m.es_mm = base_dtype_size(p->integer ? p->v_dt : p->mm_dt);
    m.es_acc = base_dtype_size(p->acc_dt);
    if (p->M < 1 || p->n_nd < 0 || p->n_nd > CC_MM_MAX_N || p->n_pieces < 1) {
        st = cc_kb_fail(m.b, BASE_ERR_INTERNAL, "malformed matmul problem");
        goto done;
    }
    for (int d = 0; d < p->n_nd; d++)
        if (p->n[d] < 1) goto done; /* an empty result: nothing to do */
    /* engines */
    for (int i = 0; i < t->n_pe; i++) m.pe[m.n_pe++] = t->pe[i];
    if (!p->integer && !m.n_pe) {
        st = cc_kb_fail(m.b, BASE_ERR_UNSUPPORTED, "the core has no systolic array");
        goto done;
    }
    if (t->n_dma < 1) {
        st = cc_kb_fail(m.b, BASE_ERR_UNSUPPORTED, "the core has no DMA queue");
        goto done;
    }
    split_queues(&m, 7, 1);
    if (t->act >= 0) m.ev[m.n_ev++] = t->act;
    if (t->vec >= 0) m.ev[m.n_ev++] = t->vec;
    if (!m.n_ev && t->pool >= 0) m.ev[m.n_ev++] = t->pool;
    m.fill = t->pool >= 0 ? t->pool : t->vec >= 0 ? t->vec : t->act;
    if (!m.n_ev || m.fill < 0) {
        st = cc_kb_fail(m.b, BASE_ERR_UNSUPPORTED, "the core has no vector or scalar engine");
        goto done;
    }
    /* geometry */
    uint32_t psp = m.b->partitions, pacc = chip->accumulator.partitions;
    if (pacc > ISA_MAX_PARTITIONS) pacc = ISA_MAX_PARTITIONS;
    uint32_t banks = chip->accumulator.banks ? chip->accumulator.banks : 1;
    m.bank_bytes = chip->accumulator.bytes_per_partition / banks;
    uint64_t bank_f32 = m.bank_bytes / 4;
    if (p->integer) {
        m.mt = psp;
        m.kt = 32;
        m.fmax = 512;
    } else {
        const struct chip_engine_desc *pe = &chip->engines[m.pe[0]];
        m.kt = pe->rows < psp ? pe->rows : psp;
        m.mt = pe->cols < pacc ? pe->cols : pacc;
        if (m.mt > psp) m.mt = psp;
        m.fmax = bank_f32;
        if (!m.fmax) {
            st = cc_kb_fail(m.b, BASE_ERR_LIMIT, "an accumulator bank holds no f32");
            goto done;
        }
    }
    if ((int64_t)m.mt > p->M) m.mt = (uint32_t)p->M;
    box_counts(p, m.fmax, m.ncnt);
    m.fmax = 1;
    for (int d = 0; d < p->n_nd; d++) m.fmax *= (uint64_t)m.ncnt[d];
    /* K tiles */
    int64_t nkt = 0;
    for (int i = 0; i < p->n_pieces; i++) nkt += p->pieces[i].rows ? cc_ceil_div(p->pieces[i].rows, m.kt) : 0;
    if (nkt < 1 || nkt > (1 << 24)) {
        st = cc_kb_fail(m.b, nkt < 1 ? BASE_ERR_INTERNAL : BASE_ERR_LIMIT, "%lld K tiles", (long long)nkt);
        goto done;
    }
    m.kts = calloc((size_t)nkt, sizeof *m.kts);
    if (!m.kts) {
        st = cc_kb_fail(m.b, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < p->n_pieces; i++)
        for (uint32_t r0 = 0; r0 < p->pieces[i].rows; r0 += m.kt) {
            uint32_t rows = p->pieces[i].rows - r0 < m.kt ? p->pieces[i].rows - r0 : m.kt;
            m.kts[m.n_kt++] = (struct mm_kt){i, r0, rows};
        }
    /* the tile grid */
    struct cc_region *r = &m.tl->r[0];
    m.tl->n_regions = 1;
    if (p->epi) {
        r->rank = p->epi->rank;
        for (int d = 0; d < r->rank; d++) r->dims[d] = p->epi->dims[d], r->count[d] = 1;
        m.gm = p->epi_m_dim;
        for (int d = 0; d < p->n_nd; d++) m.gn[d] = p->epi_n_dim[d];
        m.gj = m.gm >= 0 ? m.gm : p->n_nd > 0 ? m.gn[0] : r->rank;
    } else {
        r->rank = 2 + p->n_nd;
        r->dims[0] = m.n_jobs;
        r->dims[1] = p->M;
        for (int d = 0; d < r->rank; d++) r->count[d] = 1;
        m.gm = 1;
        m.gj = 1;
        for (int d = 0; d < p->n_nd; d++) m.gn[d] = 2 + d, r->dims[2 + d] = p->n[d];
    }
    r->part_dim = m.gm;
    if (m.gm >= 0) r->count[m.gm] = m.mt;
    for (int d = 0; d < p->n_nd; d++) {
        r->count[m.gn[d]] = m.ncnt[d];
        if (m.ncnt[d] > 1 && r->n_free < ISA_MAX_DIMS) r->free_dims[r->n_free++] = m.gn[d];
    }
    r->n_tiles = 1;
    for (int d = 0; d < r->rank; d++) r->n_tiles *= cc_ceil_div(r->dims[d], r->count[d]);
    m.tl->n_tiles = r->n_tiles;
    cc_core_share(m.tl->n_tiles, ctx, &m.lo, &m.hi);
    if (m.lo >= m.hi) goto done; /* no work on this core */
    /* the epilogue's buffers first: they size by the tile */
    if (p->epi) {
#ifdef CC_EW_SOURCES
        st = cc_ew_new(p->epi, m.b, &m.ew);
        const struct cc_view *views;
        int nv = st == BASE_OK ? cc_ew_views(m.ew, &views) : 0;
        m.tl->n_views = nv;
        for (int v = 0; v < nv; v++) r->views[v] = views[v];
        if (st == BASE_OK) st = cc_ew_prepare(m.ew, m.tl, m.lo, m.hi);
        if (st != BASE_OK) goto done;
#else
        st = cc_kb_fail(m.b, BASE_ERR_UNSUPPORTED, "epilogues need k_elem.c's tile sources (CC_EW_SOURCES)");
        goto done;
#endif
    }
    /* buffers: accumulator slots (tracked by dummy buffers), staging, the
     * panel when two fit in half of what is left, the ring of moving tiles */
    m.n_acc = (int)(banks < MM_ACC_MAX ? banks : MM_ACC_MAX);
    if (!p->integer)
        for (int i = 0; i * 4 < m.n_acc; i++)
            if ((m.acc_buf[i] = cc_kb_buffer(m.b, 64, m.n_acc - i * 4 < 4 ? m.n_acc - i * 4 : 4)) < 0) goto fail;
    m.n_stage = p->integer ? 2 : (m.ew ? 0 : 2);
    size_t es_stage = m.es_acc > base_dtype_size(p->c_dt) ? m.es_acc : base_dtype_size(p->c_dt);
    if (m.n_stage && (m.stage = cc_kb_buffer(m.b, m.fmax * es_stage, m.n_stage)) < 0) goto fail;
    if (p->integer) { /* the products (in the panel's place), two slots */
        if ((m.panel = cc_kb_buffer(m.b, m.fmax * m.es_acc, 2)) < 0) goto fail;
        if (p->c_dt != p->acc_dt && !m.ew && (m.cvt = cc_kb_buffer(m.b, m.fmax * base_dtype_size(p->c_dt), 2)) < 0)
            goto fail;
        uint64_t per = m.fmax * base_dtype_size(p->v_dt) * m.kt + m.kt * base_dtype_size(p->s_dt) + 128;
        uint64_t fr = cc_kb_free_bytes(m.b);
        while (m.kt > 1 && 2 * per > fr) {
            m.kt /= 2;
            per = m.fmax * base_dtype_size(p->v_dt) * m.kt + m.kt * base_dtype_size(p->s_dt) + 128;
        }
        if (2 * per > fr) {
            st = cc_kb_fail(m.b, BASE_ERR_LIMIT, "integer tiles do not fit the scratchpad");
            goto done;
        }
        /* rebuild the K tiles with the smaller kt */
        m.n_kt = 0;
        free(m.kts);
        nkt = 0;
        for (int i = 0; i < p->n_pieces; i++) nkt += cc_ceil_div(p->pieces[i].rows, m.kt);
        m.kts = calloc((size_t)nkt, sizeof *m.kts);
        if (!m.kts) {
            st = cc_kb_fail(m.b, BASE_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (int i = 0; i < p->n_pieces; i++)
            for (uint32_t r0 = 0; r0 < p->pieces[i].rows; r0 += m.kt) {
                uint32_t rows = p->pieces[i].rows - r0 < m.kt ? p->pieces[i].rows - r0 : m.kt;
                m.kts[m.n_kt++] = (struct mm_kt){i, r0, rows};
            }
        m.ring_n = 2;
        if ((m.ring_buf[0] = cc_kb_buffer(m.b, m.fmax * base_dtype_size(p->v_dt) * m.kt, 2)) < 0) goto fail;
        if ((m.sring_buf[0] = cc_kb_buffer(m.b, m.kt * base_dtype_size(p->s_dt), 2)) < 0) goto fail;
        split_queues(&m, (double)m.n_kt * m.mt * m.kt * m.fmax * base_dtype_size(p->v_dt),
                     (double)m.mt * m.fmax * base_dtype_size(p->c_dt));
        st = run_int(&m);
        goto done;
    }
    m.n_boxes = 1;
    for (int d = 0; d < p->n_nd; d++) m.n_boxes *= cc_ceil_div(p->n[d], m.ncnt[d]);
    uint64_t panel_bytes = (uint64_t)m.n_kt * m.mt * m.es_mm, v_panel_bytes = (uint64_t)m.n_kt * m.fmax * m.es_mm;
    /* v_panel: two moving panels of n_group boxes each and, per wave
     * parity, a stationary panel per row of the wave (n_pe at most).
     * n_group: the largest divisor of n_pe (so rows fill the waves) that
     * the boxes and half the scratchpad allow: a row of n_group tiles shares
     * its stationary panel, the lhs is read once per group (more than n_pe
     * boxes measured slower on tpu-v5e) */
    m.n_group = 0;
    for (int64_t g = m.n_pe; g >= 1 && !m.n_group; g--)
        if (m.n_pe % g == 0 && g <= m.n_boxes &&
            2 * (uint64_t)g * v_panel_bytes + 2 * (uint64_t)m.n_pe * panel_bytes <= cc_kb_free_bytes(m.b) / 2)
            m.n_group = g;
    if (m.n_group >= 1 && m.n_pe <= CC_KB_MAX_SLOTS && plain_moving(p) && prefer_v_panel(&m)) {
        m.v_panel = m.panel_mode = true;
        for (int i = 0; i < 2; i++)
            if ((m.spanel[i] = cc_kb_buffer(m.b, panel_bytes, m.n_pe)) < 0) goto fail;
        panel_bytes = v_panel_bytes * (uint64_t)m.n_group;
    } else {
        m.panel_mode = 2 * panel_bytes <= cc_kb_free_bytes(m.b) / 2;
    }
    if (m.panel_mode && (m.panel = cc_kb_buffer(m.b, panel_bytes, 2)) < 0) goto fail;
    /* halo mode: pieces that differ only in their n offsets (convolution
     * windows) read one halo per tile and K chunk */
    bool same = p->n_pieces > 1 && p->n_nd > 0 && m.panel_mode && !m.v_panel;
    for (int i = 1; i < p->n_pieces && same; i++)
        same = p->pieces[i].rows == p->pieces[0].rows && p->pieces[i].v_off == p->pieces[0].v_off &&
               p->pieces[i].v_k == p->pieces[0].v_k;
    if (same) {
        struct mm_tile big;
        memset(&big, 0, sizeof big);
        for (int d = 0; d < p->n_nd; d++) {
            m.hmin[d] = m.hmax[d] = p->pieces[0].add[d];
            for (int i = 1; i < p->n_pieces; i++) {
                if (p->pieces[i].add[d] < m.hmin[d]) m.hmin[d] = p->pieces[i].add[d];
                if (p->pieces[i].add[d] > m.hmax[d]) m.hmax[d] = p->pieces[i].add[d];
            }
            big.nc[d] = m.ncnt[d];
        }
        int64_t ql[CC_MM_MAX_N], ex[CC_MM_MAX_N], pt[CC_MM_MAX_N];
        uint64_t elems;
        halo_geom(&m, &big, ql, ex, pt, &elems);
        m.n_hc = (int)cc_ceil_div(p->pieces[0].rows, m.kt);
        int W = m.n_pe, D = W >= 4 ? 1 : 4 / W;
        uint64_t hb = (elems * m.es_mm + 63) & ~(uint64_t)63;
        for (; D >= 1; D--)
            if ((uint64_t)W * (D + 1) * m.n_hc * hb <= cc_kb_free_bytes(m.b) / 2) break;
        if (D >= 1 && elems <= 64 * m.fmax && m.n_hc * ((W * (D + 1) + 3) / 4) <= 64) {
            m.halo = true;
            m.hring = W * (D + 1);
            m.hbpc = (m.hring + 3) / 4;
            for (int c = 0; c < m.n_hc; c++)
                for (int j = 0; j < m.hbpc; j++) {
                    int slots = m.hring - 4 * j < 4 ? m.hring - 4 * j : 4;
                    if ((m.hbuf[c * m.hbpc + j] = cc_kb_buffer(m.b, elems * m.es_mm, slots)) < 0) goto fail;
                }
            m.ring_n = 1;
            split_queues(&m, (double)m.n_hc * m.kt * elems * m.es_mm, (double)m.mt * m.fmax * base_dtype_size(p->c_dt));
            st = run_float(&m);
            goto done;
        }
    }
    /* the ring: the streamed tiles (moving, or both); none with v_panel */
    bool ring_v = !m.v_panel, ring_s = !m.panel_mode;
    m.ring_n = 1;
    if (ring_v) {
        uint64_t slot_bytes = ((m.fmax * m.es_mm + 63) & ~(uint64_t)63) + (ring_s ? ((m.mt * m.es_mm + 63) & ~(uint64_t)63) : 0);
        uint64_t fr = cc_kb_free_bytes(m.b);
        m.ring_n = fr / slot_bytes >= 8 ? 8 : fr / slot_bytes >= 4 ? 4 : 2;
        int nbuf = m.ring_n > 4 ? m.ring_n / 4 : 1, per_buf = m.ring_n > 4 ? 4 : m.ring_n;
        for (int i = 0; i < nbuf; i++) {
            if ((m.ring_buf[i] = cc_kb_buffer(m.b, m.fmax * m.es_mm, per_buf)) < 0) goto fail;
            if (ring_s && (m.sring_buf[i] = cc_kb_buffer(m.b, m.mt * m.es_mm, per_buf)) < 0) goto fail;
        }
    }
    /* bytes loaded per tile: a moving tile each (and a stationary one when
     * streamed), or v_panel's row panel shared by n_group tiles */
    double ld_tile = (double)m.n_kt * m.kt * m.es_mm *
                     (ring_v ? (double)m.fmax + (ring_s ? (double)m.mt : 0) : (double)m.mt / (double)m.n_group);
    split_queues(&m, ld_tile,
                 (double)m.mt * m.fmax * (m.ew ? epilogue_bytes(k) : (double)base_dtype_size(p->c_dt)));
    st = run_float(&m);
    goto done;
fail:
    st = diag->status ? diag->status : BASE_ERR_LIMIT;
done:
#ifdef CC_EW_SOURCES
    cc_ew_free(m.ew);
#endif
    free(m.kts);
    free(m.tl);
    cc_kb_free(m.b);
    return st;
}

/* Zeros through view v, in tiles: one scratchpad tile set once, stored
 * to every tile of this core's share. */
enum base_status cc_mm_emit_zeros(const struct cc_target *t, const struct cc_kernel *k, const struct cc_view *v,
                                  const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    if (cc_view_count(v) == 0) return BASE_OK;
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct cc_tiling *tl = calloc(1, sizeof *tl);
    enum base_status st = BASE_OK;
    if (!b || !tl) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    size_t es = base_dtype_size(v->dtype);
    int64_t per_part = cc_ceil_div(cc_view_count(v), b->partitions), fmax = (int64_t)(cc_kb_free_bytes(b) / 2 / es);
    if (fmax > 8192) fmax = 8192;
    if (fmax > per_part) fmax = per_part;
    if (fmax < 1) fmax = 1;
    st = cc_tiling_plan(tl, v->rank, v->dims, v, 1, b->partitions, fmax);
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "cannot tile the result");
        goto done;
    }
    int64_t lo, hi;
    cc_core_share(tl->n_tiles, ctx, &lo, &hi);
    if (lo >= hi) goto done;
    uint64_t F = 1;
    uint32_t P = 1;
    for (int64_t i = lo; i < hi; i++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, i, &region, &box);
        if (cc_tiling_free(tl, region, &box) > F) F = cc_tiling_free(tl, region, &box);
        if (cc_tiling_parts(tl, region, &box) > P) P = cc_tiling_parts(tl, region, &box);
    }
    int zb = cc_kb_buffer(b, F * es, 1);
    int eng = t->pool >= 0 ? t->pool : t->vec >= 0 ? t->vec : t->act;
    if (zb < 0) {
        st = BASE_ERR_LIMIT;
        goto done;
    }
    if (eng < 0) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no elementwise engine");
        goto done;
    }
    struct isa_instr ms;
    memset(&ms, 0, sizeof ms);
    ms.op = ISA_OP_MEMSET;
    ms.dst = cc_kb_sp(b, zb, 0, 0, 0, P, v->dtype, F);
    struct cc_access wr = {zb, 0, CC_WR}, rd = {zb, 0, CC_RD};
    st = cc_kb_emit(b, eng, &ms, &wr, 1);
    for (int64_t i = lo; i < hi && st == BASE_OK; i++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, i, &region, &box);
        struct isa_ap dst;
        if (!cc_tiling_ap(tl, region, 0, &box, &dst)) {
            st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a result tile");
            break;
        }
        uint32_t np = cc_tiling_parts(tl, region, &box);
        uint64_t nf = cc_tiling_free(tl, region, &box);
        struct isa_ap src = cc_kb_sp(b, zb, 0, 0, 0, np, v->dtype, nf);
        st = cc_kb_dma(b, &dst, &src, &rd, 1, cc_kb_dma_pieces(b, (uint64_t)np * nf * es, np));
    }
done:
    free(tl);
    cc_kb_free(b);
    return st;
}

/* ============================================================ dot_general */

#define MAX_JOBS (1 << 20)

/* One dim of a role: its size and strides in the lhs, rhs and result views
 * (0 where the view does not have it). */
struct rdim {
    int64_t size, s[3];
};

struct dotp {
    const struct graph_op *op;
    const struct cc_operand *lhs, *rhs, *out;
    int nb, nm, nn, nk;
    struct rdim b[BASE_MAX_RANK], m[BASE_MAX_RANK], n[BASE_MAX_RANK], k[BASE_MAX_RANK];
    int res_rank;
    int64_t res_dims[BASE_MAX_RANK];
    enum base_dtype lt, rt, res_dt;
    enum isa_precision prec;
    bool quant;              /* quantized operands (cc_quant_mm): float sums of storage - zp */
    enum base_dtype quant_mm;
    double zp[2];            /* the lhs's and rhs's zero points */
};

static bool has(const int64_t *v, int n, int64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* The dims attributes of a dot_general (or the legacy dot's). */
static bool dot_dims(const struct graph_op *op, int *nb, int64_t *lb, int64_t *rb, int *nc, int64_t *lc, int64_t *rc)
{
    const struct graph_type *l = op->operands[0]->type, *r = op->operands[1]->type;
    if (op->kind == GRAPH_OP_DOT) {
        if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2) return false;
        *nb = 0;
        *nc = 1;
        lc[0] = l->rank - 1;
        rc[0] = 0;
        return true;
    }
    /* a list the attribute leaves out is empty (the pretty form omits empty
     * lists: "contracting_dims = [] x []") */
    const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
    static const char *const names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                         "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
    int64_t *lists[4] = {lb, rb, lc, rc};
    int n[4];
    for (int i = 0; i < 4; i++) {
        const struct graph_attr *a = dn ? graph_dict_get(dn, names[i]) : NULL;
        n[i] = a ? graph_attr_as_i64_list(a, lists[i], BASE_MAX_RANK) : 0;
        if (n[i] < 0 || n[i] > BASE_MAX_RANK) return false;
    }
    *nb = n[0];
    *nc = n[2];
    if (n[0] != n[1] || n[2] != n[3]) return false;
    for (int i = 0; i < *nb; i++)
        if (lb[i] < 0 || lb[i] >= l->rank || rb[i] < 0 || rb[i] >= r->rank) return false;
    for (int i = 0; i < *nc; i++)
        if (lc[i] < 0 || lc[i] >= l->rank || rc[i] < 0 || rc[i] >= r->rank) return false;
    return true;
}

/* A dot algorithm (the op's `algorithm`; spec: dot_general) as the
 * precision of the arrays' f32 passes that computes it: products of bf16
 * parts (1 component: one pass, DEFAULT; 3 components and 3 or 6 products:
 * bf16x3 HIGH, bf16x6 HIGHEST), or f32 / f16 products (HIGHEST: six passes
 * of a TPU hold them exactly or within f32 rounding; native on Neuron),
 * summed in f32.  Integer dots ignore it: their sums are exact, as the
 * interpreter's.  False (why) for what the arrays cannot do. */
static bool algorithm_precision(const struct graph_op *op, bool integer, enum isa_precision *p, char *why, size_t cap)
{
    const struct graph_attr *alg = op->kind == GRAPH_OP_DOT_GENERAL ? graph_op_attr(op, "algorithm") : NULL;
    *p = ISA_PREC_COUNT; /* none */
    if (!alg || alg->kind != GRAPH_ATTR_DICT || alg->u.dict.n == 0 || integer) return true;
    const struct graph_attr *lt = graph_dict_get(alg, "lhs_precision_type"), *rt = graph_dict_get(alg, "rhs_precision_type");
    const struct graph_attr *acc = graph_dict_get(alg, "accumulation_type");
    int64_t c[3] = {1, 1, 1};
    static const char *const counts[3] = {"lhs_component_count", "rhs_component_count", "num_primitive_operations"};
    for (int i = 0; i < 3; i++) {
        const struct graph_attr *a = graph_dict_get(alg, counts[i]);
        if (a && !graph_attr_as_i64(a, &c[i])) return why_set(why, cap, "malformed dot algorithm");
    }
    if (!acc || !graph_attr_is_keyword(acc, "f32"))
        return why_set(why, cap, "dot algorithm: only accumulation_type = f32 is lowered (the arrays sum in f32)");
    const char *types[3] = {"bf16", "f32", "f16"};
    int ty = -1;
    for (int i = 0; i < 3; i++)
        if (lt && rt && graph_attr_is_keyword(lt, types[i]) && graph_attr_is_keyword(rt, types[i])) ty = i;
    if (ty < 0)
        return why_set(why, cap, "dot algorithm: precision types other than bf16, f16 or f32 on both sides (e.g. tf32) "
                                 "are not lowered: the arrays do not round to them");
    if (ty == 0 && c[0] == 1 && c[1] == 1 && c[2] == 1) *p = ISA_PREC_DEFAULT;
    else if (ty == 0 && c[0] == 3 && c[1] == 3 && c[2] == 3) *p = ISA_PREC_HIGH;
    else if (ty == 0 && c[0] == 3 && c[1] == 3 && c[2] == 6) *p = ISA_PREC_HIGHEST;
    else if (ty > 0 && c[0] == 1 && c[1] == 1 && c[2] == 1) *p = ISA_PREC_HIGHEST;
    else
        return why_set(why, cap, "dot algorithm: component counts other than bf16 1x1 (1 product), 3x3 (3 or 6) or "
                                 "f16 / f32 1x1 are not lowered");
    return true;
}

/* The precision of the dot's f32 matmuls: its algorithm's, else HIGH or
 * HIGHEST when precision_config asks, else the compilation's default
 * (cc_options.default_precision, as a framework's global setting). */
enum isa_precision cc_dot_precision(const struct graph_op *op, const struct cc_target *t)
{
    enum isa_precision p = ISA_PREC_DEFAULT;
    if (algorithm_precision(op, false, &p, NULL, 0) && p != ISA_PREC_COUNT) return p;
    p = ISA_PREC_DEFAULT;
    const struct graph_attr *pc = graph_op_attr(op, "precision_config");
    if (pc && pc->kind == GRAPH_ATTR_ARRAY)
        for (int i = 0; i < pc->u.array.n; i++) {
            const struct graph_attr *a = pc->u.array.items[i];
            if (graph_attr_is_keyword(a, "HIGHEST")) p = ISA_PREC_HIGHEST;
            else if (graph_attr_is_keyword(a, "HIGH") && p < ISA_PREC_HIGH) p = ISA_PREC_HIGH;
        }
    if (p == ISA_PREC_DEFAULT && t && (unsigned)t->default_precision < ISA_PREC_COUNT) p = t->default_precision;
    return p;
}

static bool real_float(enum base_dtype dt) { return base_dtype_is_float(dt) && base_dtype_bits(dt) <= 32; }
static bool int_like(enum base_dtype dt) { return base_dtype_is_int(dt) || dt == BASE_DT_I1; }

bool cc_dot_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if ((op->kind != GRAPH_OP_DOT_GENERAL && op->kind != GRAPH_OP_DOT) || op->n_operands != 2 || op->n_results != 1)
        return why_set(why, cap, "not a dot_general");
    const struct graph_type *l = op->operands[0]->type, *r = op->operands[1]->type, *o = op->results[0].type;
    const struct graph_type *ts[3] = {l, r, o};
    for (int i = 0; i < 3; i++) {
        if (!ts[i] || ts[i]->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ts[i]))
            return why_set(why, cap, "needs static tensor operands and result");
        if (ts[i]->quant) {
            enum base_dtype mm;
            double zl, zr;
            return cc_quant_mm(op, 0, 1, t, &mm, &zl, &zr, why, cap);
        }
        if (base_dtype_is_complex(ts[i]->elem)) return why_set(why, cap, "complex elements are not supported on chip");
        if (ts[i]->elem == BASE_DT_F64)
            return why_set(why, cap, cc_f64_limit(t));
    }
    int nb, nc;
    int64_t lb[BASE_MAX_RANK], rb[BASE_MAX_RANK], lc[BASE_MAX_RANK], rc[BASE_MAX_RANK];
    if (!dot_dims(op, &nb, lb, rb, &nc, lc, rc)) return why_set(why, cap, "malformed dot_dimension_numbers");
    bool fl = real_float(l->elem) && real_float(r->elem) && real_float(o->elem);
    bool in = int_like(l->elem) && int_like(r->elem) && int_like(o->elem);
    if (!fl && !in)
        return why_set(why, cap, "mixed float and integer operands or result are not lowered");
    enum isa_precision ap;
    return algorithm_precision(op, in, &ap, why, cap);
}

/* Merges consecutive dims whose every stride continues the next one's
 * (stride[d] == stride[d+1] x size[d+1]) after dropping size-1 dims. */
static int merge_dims(struct rdim *d, int n)
{
    int w = 0;
    for (int i = 0; i < n; i++)
        if (d[i].size != 1) d[w++] = d[i];
    n = w;
    for (int i = n - 2; i >= 0; i--) {
        bool ok = true;
        for (int v = 0; v < 3; v++)
            if (d[i].s[v] != d[i + 1].s[v] * d[i + 1].size) ok = false;
        if (!ok) continue;
        d[i].size *= d[i + 1].size;
        for (int v = 0; v < 3; v++) d[i].s[v] = d[i + 1].s[v];
        for (int j = i + 1; j + 1 < n; j++) d[j] = d[j + 1];
        n--;
    }
    return n;
}

static const struct cc_operand *find_in(const struct cc_kernel *k, const struct graph_value *v)
{
    int i = cc_kernel_input_index(k, v);
    return i < 0 ? NULL : &k->in[i];
}

/* Roles and strides of the dot (views: lhs, rhs, the result's out view or
 * a dense stand-in of the result's shape). */
static enum base_status dot_analyze(const struct cc_target *t, const struct cc_kernel *k, const struct graph_op *op,
                                    const struct cc_view *res, struct dotp *d, struct base_diag *diag)
{
    memset(d, 0, sizeof *d);
    d->op = op;
    char why[200];
    if (!cc_dot_op_supported(op, t, why, sizeof why)) return cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, why);
    d->lhs = find_in(k, op->operands[0]);
    d->rhs = find_in(k, op->operands[1]);
    if (!d->lhs || !d->rhs) return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "an operand is not a kernel input");
    const struct cc_view *L = &d->lhs->view, *R = &d->rhs->view;
    int nb, nc;
    int64_t lb[BASE_MAX_RANK], rb[BASE_MAX_RANK], lc[BASE_MAX_RANK], rc[BASE_MAX_RANK];
    dot_dims(op, &nb, lb, rb, &nc, lc, rc);
    d->lt = L->dtype;
    d->rt = R->dtype;
    d->res_dt = op->results[0].type->elem;
    d->prec = cc_dot_precision(op, t);
    if (op->results[0].type->quant) {
        d->quant = true;
        cc_quant_mm(op, 0, 1, t, &d->quant_mm, &d->zp[0], &d->zp[1], why, sizeof why);
    }
    int ro = 0;
    for (int i = 0; i < nb; i++, ro++)
        d->b[d->nb++] = (struct rdim){L->dims[lb[i]], {L->strides[lb[i]], R->strides[rb[i]], res->strides[ro]}};
    for (int i = 0; i < L->rank; i++)
        if (!has(lb, nb, i) && !has(lc, nc, i)) d->m[d->nm++] = (struct rdim){L->dims[i], {L->strides[i], 0, res->strides[ro++]}};
    for (int i = 0; i < R->rank; i++)
        if (!has(rb, nb, i) && !has(rc, nc, i)) d->n[d->nn++] = (struct rdim){R->dims[i], {0, R->strides[i], res->strides[ro++]}};
    for (int i = 0; i < nc; i++) d->k[d->nk++] = (struct rdim){L->dims[lc[i]], {L->strides[lc[i]], R->strides[rc[i]], 0}};
    if (ro != res->rank) return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "the result's rank does not match the dims");
    d->res_rank = res->rank;
    for (int i = 0; i < res->rank; i++) d->res_dims[i] = res->dims[i];
    return BASE_OK;
}

/* The arrays' operand type for a float dot: the operands' own when the
 * arrays take it, else one both convert to exactly (bf16, f16), else f32. */
static enum base_dtype pick_mm_dtype(const struct chip_desc *chip, enum base_dtype lt, enum base_dtype rt)
{
    const bool *ok = chip->matmul_supports;
    if (lt == rt && lt != BASE_DT_F32 && ok[lt]) return lt;
    bool small_l = base_dtype_bits(lt) <= 8, small_r = base_dtype_bits(rt) <= 8;
    if ((lt == BASE_DT_BF16 || small_l) && (rt == BASE_DT_BF16 || small_r) && ok[BASE_DT_BF16]) return BASE_DT_BF16;
    bool h_l = lt == BASE_DT_F16 || (small_l && lt != BASE_DT_F8E8M0FNU);
    bool h_r = rt == BASE_DT_F16 || (small_r && rt != BASE_DT_F8E8M0FNU);
    if (h_l && h_r && ok[BASE_DT_F16]) return BASE_DT_F16;
    return BASE_DT_F32;
}

/* Per job (row-major over dims[0..n)): the element offsets in the lhs, rhs
 * and result views. */
static int64_t (*job_offsets(const struct rdim *dims, int n, uint32_t *n_jobs))[3]
{
    int64_t count = 1;
    for (int i = 0; i < n; i++) count *= dims[i].size;
    if (count > MAX_JOBS) return NULL;
    *n_jobs = (uint32_t)count;
    int64_t(*off)[3] = calloc((size_t)(count ? count : 1), sizeof *off);
    if (!off) return NULL;
    int64_t idx[BASE_MAX_RANK * 3] = {0};
    for (int64_t j = 0; j < count; j++) {
        for (int v = 0; v < 3; v++) {
            int64_t o = 0;
            for (int i = 0; i < n; i++) o += idx[i] * dims[i].s[v];
            off[j][v] = o;
        }
        for (int i = n - 1; i >= 0; i--) {
            if (++idx[i] < dims[i].size) break;
            idx[i] = 0;
        }
    }
    return off;
}

/* The GEMM path: one K dim, M and N the innermost of theirs, the rest jobs. */
static enum base_status dot_gemm(const struct cc_target *t, const struct cc_kernel *k, const struct dotp *d,
                                 const struct cc_view *C, enum base_dtype mm, const struct cc_emit_ctx *ctx,
                                 struct isa_program *out, struct base_diag *diag)
{
    struct rdim jobs[BASE_MAX_RANK * 3];
    int nj = 0;
    for (int i = 0; i < d->nb; i++) jobs[nj++] = d->b[i];
    for (int i = 0; i + 1 < d->nm; i++) jobs[nj++] = d->m[i];
    for (int i = 0; i + 1 < d->nn; i++) jobs[nj++] = d->n[i];
    struct rdim M = d->nm ? d->m[d->nm - 1] : (struct rdim){1, {0, 0, 0}};
    struct rdim N = d->nn ? d->n[d->nn - 1] : (struct rdim){1, {0, 0, 0}};
    struct rdim K = d->nk ? d->k[0] : (struct rdim){1, {0, 0, 0}};
    if (M.size > (1 << 30) || N.size > (1 << 30) || K.size > (1 << 30)) return BASE_ERR_LIMIT;
    uint32_t n_jobs = 1;
    int64_t(*off)[3] = job_offsets(jobs, nj, &n_jobs);
    if (!off) return BASE_ERR_LIMIT;
    /* job offsets as (A, B, C) = (lhs, rhs, result) */
    struct cc_gemm_config cfg;
    cc_gemm_config_default(&cfg);
    cfg.m = (uint32_t)M.size;
    cfg.k = (uint32_t)K.size;
    cfg.n = (uint32_t)N.size;
    cfg.dtype = mm;
    cfg.out_dtype = d->res_dt;
    cfg.precision = d->prec;
    struct cc_gemm_layout lay;
    memset(&lay, 0, sizeof lay);
    lay.a = (struct cc_gemm_view){d->lhs->view.addr, d->lt, M.s[0], K.s[0]};
    lay.b = (struct cc_gemm_view){d->rhs->view.addr, d->rt, K.s[1], N.s[1]};
    lay.c = (struct cc_gemm_view){C->addr, C->dtype, M.s[2], N.s[2]};
    lay.n_jobs = n_jobs;
    lay.job_off = (const int64_t(*)[3])off;
    lay.stage_dtype = d->res_dt;
    lay.core = ctx ? ctx->core : 0;
    lay.n_cores = ctx && ctx->n_cores ? ctx->n_cores : 1;
    lay.tag = d->op->id;
    struct cc_gemm_plan plan;
    struct base_diag gd;
    base_diag_clear(&gd);
    char name[64];
    memcpy(name, out->name, sizeof name);
    enum base_status st = cc_gemm_build_layout(t->chip, &cfg, &lay, out, &plan, &gd);
    free(off);
    if (st == BASE_OK && !name[0]) {
        const char *s = k->info.name[0] ? k->info.name : "dot_general";
        size_t n = 0;
        for (; *s && n + 1 < sizeof out->name; s++) {
            char c = *s;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                c == '.')
                out->name[n++] = c;
            else if (c == '(' || c == ',')
                out->name[n++] = '.';
        }
        out->name[n] = 0;
    }
    if (st != BASE_OK && st != BASE_ERR_LIMIT) return cc_kernel_fail(t, k, d->op, diag, st, gd.msg);
    return st;
}

/* The general engine for a dot: K pieces = the outer contracting index
 * tuples, jobs = batch x outer M dims (x outer N dims without epilogue). */
static enum base_status dot_general_mm(const struct cc_target *t, const struct cc_kernel *k, struct dotp *d,
                                       const struct cc_view *C, enum base_dtype mm, const struct cc_ew_spec *epi,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    struct cc_mm p;
    memset(&p, 0, sizeof p);
    bool integer = !base_dtype_is_float(d->res_dt) && !d->quant;
    p.s_zp = d->zp[0];
    p.v_zp = d->zp[1];
    /* without an epilogue the result's dims may merge like the rest */
    if (!epi) {
        d->nb = merge_dims(d->b, d->nb);
        d->nm = merge_dims(d->m, d->nm);
        d->nn = merge_dims(d->n, d->nn);
    }
    struct rdim jobs[BASE_MAX_RANK * 3];
    int nj = 0;
    for (int i = 0; i < d->nb; i++) jobs[nj++] = d->b[i];
    for (int i = 0; i + 1 < d->nm; i++) jobs[nj++] = d->m[i];
    int n0 = 0; /* first rhs free dim in the box */
    if (!epi && d->nn > CC_MM_MAX_N) {
        n0 = d->nn - CC_MM_MAX_N;
        for (int i = 0; i < n0; i++) jobs[nj++] = d->n[i];
    }
    if (epi && d->nn > CC_MM_MAX_N)
        return cc_kernel_fail(t, k, d->op, diag, BASE_ERR_UNSUPPORTED, "an epilogue over more than 4 rhs free dims");
    struct rdim M = d->nm ? d->m[d->nm - 1] : (struct rdim){1, {0, 0, 0}};
    uint32_t n_jobs = 1;
    int64_t(*off)[3] = job_offsets(jobs, nj, &n_jobs);
    if (!off) return cc_kernel_fail(t, k, d->op, diag, BASE_ERR_LIMIT, "too many batch positions");
    p.job_off = (const int64_t(*)[3])off;
    p.n_jobs = n_jobs;
    p.s_addr = d->lhs->view.addr;
    p.s_dt = d->lt;
    p.v_addr = d->rhs->view.addr;
    p.v_dt = d->rt;
    p.c_addr = C->addr;
    p.c_dt = C->dtype;
    p.M = M.size;
    p.s_m = M.s[0];
    p.c_m = M.s[2];
    p.n_nd = d->nn - n0;
    for (int i = 0; i < p.n_nd; i++) {
        const struct rdim *x = &d->n[n0 + i];
        p.n[i] = x->size;
        p.v_n[i] = x->s[1];
        p.c_n[i] = x->s[2];
        p.mul[i] = p.div[i] = 1;
        p.lim[i] = x->size;
    }
    /* pieces: the outer contracting tuples row-major, the innermost dim in each */
    int nk = d->nk;
    struct rdim kin = nk ? d->k[nk - 1] : (struct rdim){1, {0, 0, 0}};
    int64_t np = 1;
    for (int i = 0; i + 1 < nk; i++) np *= d->k[i].size;
    if (np > (1 << 20) || kin.size > UINT32_MAX) {
        free(off);
        return cc_kernel_fail(t, k, d->op, diag, BASE_ERR_LIMIT, "too many contracting positions");
    }
    struct cc_mm_piece *pcs = calloc((size_t)(np ? np : 1), sizeof *pcs);
    if (!pcs) {
        free(off);
        return BASE_ERR_NOMEM;
    }
    int64_t idx[BASE_MAX_RANK] = {0};
    for (int64_t j = 0; j < np; j++) {
        struct cc_mm_piece *pc = &pcs[j];
        pc->rows = (uint32_t)kin.size;
        pc->s_k = kin.s[0];
        pc->v_k = kin.s[1];
        for (int i = 0; i + 1 < nk; i++) {
            pc->s_off += idx[i] * d->k[i].s[0];
            pc->v_off += idx[i] * d->k[i].s[1];
        }
        for (int i = nk - 2; i >= 0; i--) {
            if (++idx[i] < d->k[i].size) break;
            idx[i] = 0;
        }
    }
    p.n_pieces = (int)np;
    p.pieces = pcs;
    p.integer = integer;
    p.mm_dt = mm;
    p.acc_dt = d->res_dt;
    p.prec = d->prec;
    p.epi = epi;
    if (epi) {
        /* the result's dims: batch, lhs free (the last is M), rhs free */
        p.epi_m_dim = d->nm ? d->nb + d->nm - 1 : -1;
        for (int i = 0; i < d->nn; i++) p.epi_n_dim[i] = d->nb + d->nm + i;
    }
    enum base_status st = BASE_OK;
    if ((np == 0 || kin.size == 0) && epi) {
        st = cc_kernel_fail(t, k, d->op, diag, BASE_ERR_UNSUPPORTED, "an epilogue after a contraction over zero elements");
    } else if (np == 0 || kin.size == 0) {
        st = cc_mm_emit_zeros(t, k, C, ctx, out, diag); /* sums over nothing: 0 */
    } else {
        st = cc_mm_emit(t, k, &p, ctx, out, diag);
    }
    free(pcs);
    free(off);
    return st;
}

bool cc_dot_fuses_epilogues(const struct graph_op *dot, const struct chip_desc *chip)
{
#ifdef CC_EW_SOURCES
    /* The general engine (cc_mm_emit) runs a dot with an epilogue at the
     * GEMM's pace when it can keep the moving tiles of an n box over the
     * whole K (v_panel) or the lhs has few 128-row groups (each reads the
     * rhs once).  Otherwise (a long K: an FFN's down projection) it would
     * read the rhs once per group, several times the GEMM's bytes: the dot
     * takes the GEMM path and the epilogue a kernel of its own, which
     * costs one more write and read of the result. */
    int nb = 0, nc = 0;
    int64_t lb[BASE_MAX_RANK], rb[BASE_MAX_RANK], lc[BASE_MAX_RANK], rc[BASE_MAX_RANK];
    if (!dot_dims(dot, &nb, lb, rb, &nc, lc, rc)) return true; /* refused at emission, located */
    const struct graph_type *l = dot->operands[0]->type, *r = dot->operands[1]->type;
    if (!real_float(l->elem) || !real_float(r->elem)) return true; /* integer sums: the general engine alone */
    int64_t K = 1, M = 1, N = 1;
    for (int i = 0; i < nc; i++) K *= l->dims[lc[i]];
    for (int d = 0; d < l->rank; d++)
        if (!has(lb, nb, d) && !has(lc, nc, d)) M *= l->dims[d];
    for (int d = 0; d < r->rank; d++)
        if (!has(rb, nb, d) && !has(rc, nc, d)) N *= r->dims[d];
    struct cc_target t;
    cc_target_init(&t, chip);
    if (t.n_pe < 1) return true;
    const struct chip_engine_desc *pe = &chip->engines[t.pe[0]];
    uint64_t psp = chip->scratchpad.partitions, banks = chip->accumulator.banks ? chip->accumulator.banks : 1;
    uint64_t kt = pe->rows < psp ? pe->rows : psp, mt = pe->cols < psp ? pe->cols : psp;
    uint64_t fmax = chip->accumulator.bytes_per_partition / banks / 4;
    if (fmax > (uint64_t)N) fmax = (uint64_t)N;
    if (kt < 1 || mt < 1) return true;
    uint64_t es = base_dtype_size(pick_mm_dtype(chip, l->elem, r->elem)), n_kt = ((uint64_t)K + kt - 1) / kt;
    uint64_t keep = 2 * n_kt * fmax * es + 2 * (uint64_t)t.n_pe * n_kt * mt * es;
    bool few_groups = (uint64_t)M <= 2 * (uint64_t)t.n_pe * mt;
    return few_groups || keep <= chip->scratchpad.bytes_per_partition / 2;
#else
    (void)dot;
    (void)chip;
    return false;
#endif
}

static bool is_dot(const struct graph_op *op)
{
    return op->kind == GRAPH_OP_DOT_GENERAL || op->kind == GRAPH_OP_DOT;
}

enum base_status cc_emit_dot(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag)
{
    const struct graph_op *op = NULL;
    int at = -1;
    for (int i = 0; i < k->n_ops && !op; i++)
        if (is_dot(k->ops[i])) op = k->ops[i], at = i;
    if (!op) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "kernel %s: no dot_general", k->info.name);
    if (k->n_out < 1) return cc_kernel_fail(t, k, op, diag, BASE_ERR_INVALID, "no outputs");
    const struct graph_value *res = &op->results[0];
    /* the epilogue: the ops after the dot; a lone convert of the dot stored
     * by itself is the store's conversion */
    int n_epi = k->n_ops - at - 1;
    for (int i = 0; i < at; i++)
        if (k->ops[i]->kind != GRAPH_OP_CONSTANT)
            return cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, "ops before the dot in its kernel");
    const struct cc_view *C = &k->out[0].view;
    bool plain = n_epi == 0 && k->n_out == 1 && k->out[0].value == res;
    if (n_epi == 1 && k->n_out == 1 && k->ops[at + 1]->kind == GRAPH_OP_CONVERT &&
        k->ops[at + 1]->operands[0] == res && k->out[0].value == &k->ops[at + 1]->results[0])
        plain = true;
    /* the result as the kernel sees it: an out view of the result's shape */
    struct cc_view rv;
    const struct graph_type *rt = res->type;
    if (plain) {
        rv = *C;
    } else {
        const struct cc_operand *o = NULL;
        for (int i = 0; i < k->n_out && !o; i++)
            if (k->out[i].value == res) o = &k->out[i];
        if (o) rv = o->view;
        else cc_view_dense(&rv, 0, rt->elem, rt->rank, rt->dims);
    }
    struct dotp d;
    TRY(dot_analyze(t, k, op, &rv, &d, diag));
    if (cc_view_count(&rv) == 0) return BASE_OK; /* an empty result: nothing to compute */
    bool integer = !base_dtype_is_float(d.res_dt) && !d.quant;
    enum base_dtype mm = d.quant ? d.quant_mm : integer ? BASE_DT_COUNT : pick_mm_dtype(t->chip, d.lt, d.rt);
    if (!integer && mm == BASE_DT_F32 && !t->chip->matmul_supports[BASE_DT_F32] &&
        !(t->chip->family == CHIP_FAMILY_TPU && t->chip->matmul_supports[BASE_DT_BF16]))
        return cc_kernel_fail(t, k, op, diag, BASE_ERR_UNSUPPORTED, "the arrays take neither the operands' types nor f32");
    d.nk = merge_dims(d.k, d.nk);
    bool empty_k = false; /* sums over nothing: the general engine writes zeros */
    for (int i = 0; i < d.nk; i++)
        if (d.k[i].size == 0) empty_k = true;
    if (plain && !integer && !d.quant && d.nk <= 1 && !empty_k) {
        struct dotp g = d;
        g.nb = merge_dims(g.b, g.nb);
        g.nm = merge_dims(g.m, g.nm);
        g.nn = merge_dims(g.n, g.nn);
        enum base_status st = dot_gemm(t, k, &g, C, mm, ctx, out, diag);
        if (st != BASE_ERR_LIMIT) return st;
        isa_program_deinit(out); /* fall back to the general engine */
        isa_program_init(out);
    }
    if (plain) return dot_general_mm(t, k, &d, C, mm, NULL, ctx, out, diag);
    /* an epilogue: elementwise tile programs over the result, the sum their source */
    struct cc_ew_spec es;
    memset(&es, 0, sizeof es);
    es.n_ops = n_epi;
    es.ops = k->ops + at + 1;
    es.rank = rt->rank;
    for (int i = 0; i < rt->rank; i++) es.dims[i] = rt->dims[i];
    bool in_ok[CC_TILE_MAX_VIEWS];
    if (k->n_in > CC_TILE_MAX_VIEWS) return cc_kernel_fail(t, k, op, diag, BASE_ERR_LIMIT, "too many inputs");
    for (int i = 0; i < k->n_in; i++) {
        const struct cc_view *v = &k->in[i].view;
        bool same = v->rank == rt->rank;
        for (int j = 0; j < rt->rank && same; j++) same = v->dims[j] == rt->dims[j];
        /* the dot's operands are the matmul's, unless the epilogue reads one
         * too (c = a @ b; d = c * a with a of the result's shape, or a scalar) */
        bool epi_reads = false;
        for (int j = 0; j < n_epi && !epi_reads; j++)
            for (int q = 0; q < es.ops[j]->n_operands && !epi_reads; q++) epi_reads = es.ops[j]->operands[q] == k->in[i].value;
        in_ok[i] = (same || v->rank == 0) &&
                   (epi_reads || (k->in[i].value != op->operands[0] && k->in[i].value != op->operands[1]));
    }
    es.n_in = k->n_in;
    es.in = k->in;
    es.in_ok = in_ok;
    es.n_out = k->n_out;
    es.out = k->out;
    const struct graph_value *src[1] = {res};
    es.n_src = 1;
    es.src = src;
    return dot_general_mm(t, k, &d, C, mm, &es, ctx, out, diag);
}
