/* Random numbers on the vector engines: stablehlo.rng_bit_generator
 * (CC_K_RNG_BIT_GENERATOR) and stablehlo.rng (CC_K_RNG).
 *
 * Both are counter-based generators, so every output element is a pure
 * function of its index and the state: the output (a dense buffer, walked as
 * a flat row-major index space) is cut into tiles of P partitions x F
 * elements, and per tile the index L of each element comes from `iota`, then
 * a straight line of integer instructions (docs/isa.md "Integer functions":
 * exact 64-bit arithmetic, wrapped to the destination's width) computes the
 * bits the golden interpreter computes (interp/interp_rng.c):
 *
 *   THREE_FRY  Threefry-2x32, 20 rounds, key = state[0], counter state[1]:
 *              64-bit outputs take block counter + L; narrower ones block
 *              counter + Lh, word L's parity along XLA's split dimension
 *              (Lh: L's index in the half shape), masked to the width.
 *   PHILOX     Philox-4x32, 10 rounds, key = state[0], 128-bit counter
 *              (state[1], state[2]) + L / 4 (word L % 4; 64-bit outputs:
 *              block L / 2, words 2 (L % 2) and 2 (L % 2) + 1).
 *   rng        splitmix64 seeded as the interpreter seeds it (its default
 *              seed 0: the op's id); draw i of the stream is a pure function
 *              of i.  Integers: lo + draw % (hi - lo), exact.  UNIFORM floats
 *              lo + (hi - lo) u and NORMAL lo + hi sqrt(-2 ln u1) cos(2 pi u2)
 *              are computed in f32 (the interpreter: f64, one rounding), so
 *              they agree within a few ulps of f32.
 *
 * The key, counter and bounds are read from HBM at run time (per-partition
 * scalars); the new state (rng_bit_generator's first result) is computed on
 * one partition of core 0.  Results are bit for bit the interpreter's for
 * rng_bit_generator (both algorithms, every element width of 8 to 64 bits). */
#include "compiler/cc_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A value of the tile program: buffer, type, per-partition scalar (one
 * element per partition, resident) or tile, byte offset into the slot. */
struct rv {
    int buf;
    enum base_dtype dt;
    bool psc;
    uint64_t off;
};

/* A scalar operand of tensor_scalar: an immediate or a per-partition value. */
struct rs {
    bool ap;
    struct rv v;
    double imm;
};

struct rg {
    struct cc_kb *b;
    const struct cc_kernel *k;
    const struct graph_op *op;
    int eng;
    int slot;
    uint32_t P;
    uint64_t F;
};

static struct rs IMM(double x)
{
    struct rs s;
    memset(&s, 0, sizeof s);
    s.imm = x;
    return s;
}

static struct rs AP(struct rv v)
{
    struct rs s;
    memset(&s, 0, sizeof s);
    s.ap = true;
    s.v = v;
    return s;
}

static struct rv at(struct rv v, uint64_t elem) /* element `elem` of a per-partition array */
{
    v.off += elem * base_dtype_size(v.dt);
    return v;
}

static struct rv as(struct rv v, enum base_dtype dt) /* the same storage read as dt */
{
    v.dt = dt;
    return v;
}

static struct isa_ap ap_of(const struct rg *g, struct rv v)
{
    return cc_kb_sp(g->b, v.buf, v.psc ? 0 : g->slot, v.off, 0, g->P, v.dt, v.psc ? 0 : g->F);
}

/* Adds the access of v to acc (merging one buffer slot's modes). */
static void add_acc(const struct rg *g, struct cc_access *acc, int *n, struct rv v, int mode)
{
    int slot = v.psc ? 0 : g->slot;
    for (int i = 0; i < *n; i++)
        if (acc[i].buf == v.buf && acc[i].slot == slot) {
            acc[i].mode |= mode;
            return;
        }
    acc[(*n)++] = (struct cc_access){v.buf, slot, mode};
}

static enum base_status emit(struct rg *g, struct isa_instr *in, struct rv dst, const struct rv *src, int n_src)
{
    struct cc_access acc[5];
    int n = 0;
    for (int i = 0; i < n_src; i++) add_acc(g, acc, &n, src[i], CC_RD);
    add_acc(g, acc, &n, dst, CC_WR);
    return cc_kb_emit(g->b, g->eng, in, acc, n);
}

/* dst = (src f s0) f2 s1 (f2 = ISA_ALU_BYPASS: one function). */
static enum base_status ts(struct rg *g, unsigned f, struct rv dst, struct rv src, struct rs s0, unsigned f2,
                           struct rs s1)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_TENSOR_SCALAR;
    in.func = (uint8_t)f;
    in.func2 = (uint8_t)f2;
    in.dst = ap_of(g, dst);
    in.src0 = ap_of(g, src);
    struct rv srcs[3] = {src};
    int n = 1;
    if (s0.ap) {
        in.flags |= ISA_FLAG_SCALE_AP;
        in.src1 = cc_kb_sp(g->b, s0.v.buf, 0, s0.v.off, 0, g->P, s0.v.dt, 0);
        srcs[n++] = s0.v;
    } else {
        in.imm0 = s0.imm;
    }
    if (f2 != ISA_ALU_BYPASS) {
        if (s1.ap) {
            in.flags |= ISA_FLAG_BIAS_AP;
            in.src2 = cc_kb_sp(g->b, s1.v.buf, 0, s1.v.off, 0, g->P, s1.v.dt, 0);
            srcs[n++] = s1.v;
        } else {
            in.imm1 = s1.imm;
        }
    }
    return emit(g, &in, dst, srcs, n);
}

static enum base_status ts1(struct rg *g, unsigned f, struct rv dst, struct rv src, struct rs s0)
{
    return ts(g, f, dst, src, s0, ISA_ALU_BYPASS, IMM(0));
}

static enum base_status bin(struct rg *g, unsigned f, struct rv dst, struct rv a, struct rv b)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_BINARY;
    in.func = (uint8_t)f;
    in.dst = ap_of(g, dst);
    in.src0 = ap_of(g, a);
    in.src1 = ap_of(g, b);
    struct rv s[2] = {a, b};
    return emit(g, &in, dst, s, 2);
}

static enum base_status un(struct rg *g, enum isa_op op, unsigned f, struct rv dst, struct rv a)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.func = (uint8_t)f;
    in.dst = ap_of(g, dst);
    in.src0 = ap_of(g, a);
    return emit(g, &in, dst, &a, 1);
}

static enum base_status cast(struct rg *g, struct rv dst, struct rv a) { return un(g, ISA_OP_UNARY, ISA_ALU_CAST, dst, a); }

static enum base_status act(struct rg *g, unsigned f, struct rv dst, struct rv a, double scale)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_ACTIVATE;
    in.func = (uint8_t)f;
    in.dst = ap_of(g, dst);
    in.src0 = ap_of(g, a);
    in.imm0 = scale;
    in.imm1 = -0.0;
    int e = g->eng; /* activations run on the scalar engine (or the vector engine) */
    g->eng = g->b->t->act >= 0 ? g->b->t->act : g->b->t->vec;
    enum base_status st = emit(g, &in, dst, &a, 1);
    g->eng = e;
    return st;
}

static enum base_status sel(struct rg *g, struct rv dst, struct rv p, struct rv a, struct rv b)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_SELECT;
    in.dst = ap_of(g, dst);
    in.src0 = ap_of(g, p);
    in.src1 = ap_of(g, a);
    in.src2 = ap_of(g, b);
    struct rv s[3] = {p, a, b};
    return emit(g, &in, dst, s, 3);
}

static enum base_status memset_(struct rg *g, struct rv dst, double v)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_MEMSET;
    in.dst = ap_of(g, dst);
    in.imm0 = v;
    return emit(g, &in, dst, NULL, 0);
}

/* dst[p, i] = base + mult p + i (exact below 2^53). */
static enum base_status iota(struct rg *g, struct rv dst, double base, double mult)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_IOTA;
    in.dst = ap_of(g, dst);
    in.imm0 = base;
    in.imm1 = mult;
    return emit(g, &in, dst, NULL, 0);
}

/* A 64-bit constant beyond the immediates' 2^53 into a per-partition u64. */
static enum base_status const64(struct rg *g, struct rv dst, uint64_t c)
{
    TRY(memset_(g, dst, (double)(c >> 32)));
    return ts(g, ISA_ALU_ISHL, dst, dst, IMM(32), ISA_ALU_IOR, IMM((double)(c & 0xFFFFFFFFu)));
}

/* Element e of HBM operand `in` (rank-1 view) into every partition of dst. */
static enum base_status load_elem(struct rg *g, const struct cc_operand *o, int64_t e, struct rv dst)
{
    struct isa_ap src;
    memset(&src, 0, sizeof src);
    src.space = ISA_SPACE_HBM;
    src.dtype = (uint8_t)dst.dt;
    src.addr = o->view.addr + (uint64_t)(e * (o->view.rank ? o->view.strides[0] : 0)) * base_dtype_size(dst.dt);
    src.part_count = (uint16_t)g->P;
    struct isa_ap d = ap_of(g, dst);
    struct cc_access a = {dst.buf, 0, CC_WR};
    return cc_kb_dma(g->b, &d, &src, &a, 1, 1);
}

/* ------------------------------------------------------------- generators */

static enum base_status threefry2x32(struct rg *g, struct rv x0, struct rv x1, struct rv t, const struct rv ks[3])
{
    static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    TRY(ts1(g, ISA_ALU_IADD, x0, x0, AP(ks[0])));
    TRY(ts1(g, ISA_ALU_IADD, x1, x1, AP(ks[1])));
    for (int block = 0; block < 5; block++) {
        const int *r = rot + (block % 2) * 4;
        for (int i = 0; i < 4; i++) {
            TRY(bin(g, ISA_ALU_IADD, x0, x0, x1));
            TRY(ts1(g, ISA_ALU_ISHL, t, x1, IMM(r[i])));
            TRY(ts1(g, ISA_ALU_ISHRL, x1, x1, IMM(32 - r[i])));
            TRY(bin(g, ISA_ALU_IOR, x1, x1, t));
            TRY(bin(g, ISA_ALU_IXOR, x1, x1, x0));
        }
        TRY(ts1(g, ISA_ALU_IADD, x0, x0, AP(ks[(block + 1) % 3])));
        TRY(ts(g, ISA_ALU_IADD, x1, x1, AP(ks[(block + 2) % 3]), ISA_ALU_IADD, IMM(block + 1)));
    }
    return BASE_OK;
}

/* Philox-4x32-10 on x[0..3] (u32 tiles), y[] and p[2] (u64) as scratch;
 * k0s, k1s: the round keys (per-partition arrays of 10).  The result ends in
 * x[] (the rounds swap the roles of x and y). */
static enum base_status philox(struct rg *g, struct rv x[4], struct rv y[4], const struct rv p[2], struct rv k0s,
                               struct rv k1s)
{
    for (int round = 0; round < 10; round++) {
        TRY(ts1(g, ISA_ALU_IMUL, p[0], x[0], IMM(0xD2511F53u)));
        TRY(ts1(g, ISA_ALU_IMUL, p[1], x[2], IMM(0xCD9E8D57u)));
        TRY(ts(g, ISA_ALU_ISHRL, y[0], p[1], IMM(32), ISA_ALU_IXOR, AP(at(k0s, (uint64_t)round))));
        TRY(bin(g, ISA_ALU_IXOR, y[0], y[0], x[1]));
        TRY(cast(g, y[1], p[1]));
        TRY(ts(g, ISA_ALU_ISHRL, y[2], p[0], IMM(32), ISA_ALU_IXOR, AP(at(k1s, (uint64_t)round))));
        TRY(bin(g, ISA_ALU_IXOR, y[2], y[2], x[3]));
        TRY(cast(g, y[3], p[0]));
        for (int i = 0; i < 4; i++) {
            struct rv s = x[i];
            x[i] = y[i];
            y[i] = s;
        }
    }
    return BASE_OK;
}

/* splitmix64 draw: z = s + G (the state after the draw), then the mixing. */
static enum base_status splitmix(struct rg *g, struct rv z, struct rv t, const struct rv m[2])
{
    TRY(ts1(g, ISA_ALU_ISHRL, t, z, IMM(30)));
    TRY(bin(g, ISA_ALU_IXOR, z, z, t));
    TRY(ts1(g, ISA_ALU_IMUL, z, z, AP(m[0])));
    TRY(ts1(g, ISA_ALU_ISHRL, t, z, IMM(27)));
    TRY(bin(g, ISA_ALU_IXOR, z, z, t));
    TRY(ts1(g, ISA_ALU_IMUL, z, z, AP(m[1])));
    TRY(ts1(g, ISA_ALU_ISHRL, t, z, IMM(31)));
    return bin(g, ISA_ALU_IXOR, z, z, t);
}

/* -------------------------------------------------------------- support */

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

static bool bits_ok(enum base_dtype dt)
{
    int w = base_dtype_bits(dt);
    return !base_dtype_is_complex(dt) && dt != BASE_DT_I1 && (w == 8 || w == 16 || w == 32 || w == 64) &&
           (int)base_dtype_size(dt) * 8 == w;
}

/* NORMAL: lo + hi sqrt(-2 ln u1) cos(2 pi u2), u rounded to f32 and the
 * functions f32 activations, against the interpreter's doubles.  The error
 * is the angle's (an f32 ulp of 2 pi plus u2's rounding, about 1.2e-6 rad)
 * times the radius (at most sqrt(-2 ln 2^-53) = 8.6), so |hi| 1.2e-5 in
 * absolute terms (what an element near 0 of a large radius sees), and
 * relative to the largest draw 16 ulps (measured: 11.7 ulps, 6.9e-6 of a
 * largest 4.9, over 512K draws; tests/compiler/test_k_rng.c asserts it). */
double cc_rng_decomposition_ulps(const struct graph_op *op, double *abs_err)
{
    *abs_err = 0;
    if (op->kind != GRAPH_OP_RNG || op->n_operands < 2 ||
        !graph_attr_is_keyword(graph_op_attr(op, "rng_distribution"), "NORMAL"))
        return 0;
    double hi = 1; /* the scale when it is not a constant: the usual N(0, 1) */
    const struct graph_op *d = op->operands[1]->def;
    const struct graph_attr *a = d && d->kind == GRAPH_OP_CONSTANT ? graph_op_attr(d, "value") : NULL;
    const struct base_tensor *v = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (v && v->data && v->count == 1 && base_dtype_is_float(v->dtype)) hi = fabs(base_elem_get_f64(v->dtype, v->data, 0));
    *abs_err = 1.2e-5 * (isfinite(hi) ? hi : 1);
    return 16;
}

bool cc_rng_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (t->vec < 0) return why_set(why, cap, "the chip has no vector engine");
    if (op->kind == GRAPH_OP_RNG_BIT_GENERATOR) {
        if (op->n_operands != 1 || op->n_results != 2) return why_set(why, cap, "rng_bit_generator takes a state, gives two results");
        const struct graph_type *st = op->operands[0]->type, *ot = op->results[1].type;
        if (st->rank != 1 || st->dims[0] < 2 || base_dtype_bits(st->elem) != 64 || !base_dtype_is_int(st->elem))
            return why_set(why, cap, "the state must be a 1-D 64-bit integer tensor of at least 2 elements");
        const struct graph_attr *alg = graph_op_attr(op, "rng_algorithm");
        if (alg && !graph_attr_is_keyword(alg, "THREE_FRY") && !graph_attr_is_keyword(alg, "PHILOX") &&
            !graph_attr_is_keyword(alg, "DEFAULT"))
            return why_set(why, cap, "unknown rng_algorithm");
        if (!bits_ok(ot->elem)) return why_set(why, cap, "random bits of 8, 16, 32 or 64-bit elements only");
        int64_t n = 1;
        for (int d = 0; d < ot->rank; d++) n *= ot->dims[d];
        if (n > (INT64_C(1) << 50)) return why_set(why, cap, "more than 2^50 random elements");
        return true;
    }
    if (op->kind == GRAPH_OP_RNG) {
        if (op->n_operands != 3 || op->n_results != 1) return why_set(why, cap, "rng takes a, b and a shape");
        const struct graph_type *rt = op->results[0].type;
        enum base_dtype dt = rt->elem;
        const struct graph_attr *dist = graph_op_attr(op, "rng_distribution");
        bool normal = graph_attr_is_keyword(dist, "NORMAL");
        if (base_dtype_is_int(dt)) {
            if (normal) return why_set(why, cap, "NORMAL integers");
            return true;
        }
        if (!base_dtype_is_float(dt) || base_dtype_bits(dt) > 32)
            return why_set(why, cap, "rng of f64 or non-real elements: the vector engines compute in f32");
        if (!base_dtype_is_float(op->operands[0]->type->elem) || !base_dtype_is_float(op->operands[1]->type->elem))
            return why_set(why, cap, "float rng with integer bounds");
        return true;
    }
    return why_set(why, cap, "not a random-number op");
}

/* The flat tiling: rows of F elements, P rows per tile, a tail row. */
struct flat {
    int64_t n, F, rows, tail, n_tiles;
    uint32_t P;
};

static void flat_plan(struct flat *f, int64_t n, uint32_t P, int64_t max_f)
{
    f->n = n;
    f->P = P;
    int64_t per = (n + P - 1) / P;
    f->F = per < 1 ? 1 : per > max_f ? max_f : per;
    f->rows = n / f->F;
    f->tail = n % f->F;
    f->n_tiles = (f->rows + P - 1) / P + (f->tail ? 1 : 0);
}

static void flat_tile(const struct flat *f, int64_t t, int64_t *start, uint32_t *P, uint64_t *F)
{
    int64_t main = (f->rows + f->P - 1) / f->P;
    if (t < main) {
        *start = t * (int64_t)f->P * f->F;
        int64_t r = f->rows - t * (int64_t)f->P;
        *P = (uint32_t)(r < (int64_t)f->P ? r : (int64_t)f->P);
        *F = (uint64_t)f->F;
    } else {
        *start = f->rows * f->F;
        *P = 1;
        *F = (uint64_t)f->tail;
    }
}

/* The tile's elements of dense view v at flat index start: P rows of F. */
static bool store_ap(const struct cc_view *v, int64_t start, uint32_t P, uint64_t F, enum base_dtype dt,
                     struct isa_ap *ap)
{
    if (!cc_view_is_dense(v)) return false;
    size_t es = base_dtype_size(v->dtype);
    memset(ap, 0, sizeof *ap);
    ap->space = ISA_SPACE_HBM;
    ap->dtype = (uint8_t)dt;
    ap->addr = v->addr + (uint64_t)start * es;
    ap->part_count = (uint16_t)P;
    ap->part_stride_bytes = (int64_t)(F * es);
    ap->ndims = 1;
    ap->stride[0] = 1;
    ap->count[0] = (uint32_t)F;
    return true;
}

static enum base_dtype ubits(int w)
{
    return w == 8 ? BASE_DT_UI8 : w == 16 ? BASE_DT_UI16 : w == 32 ? BASE_DT_UI32 : BASE_DT_UI64;
}

static const struct cc_operand *out_of(const struct cc_kernel *k, const struct graph_value *v)
{
    for (int i = 0; i < k->n_out; i++)
        if (k->out[i].value == v) return &k->out[i];
    return NULL;
}

static int engine_for_tile(const struct cc_target *t, int64_t i)
{
    if (t->pool >= 0 && (i & 1)) return t->pool;
    return t->vec;
}

/* ------------------------------------------------------ rng_bit_generator */

enum base_status cc_emit_rng_bit_generator(const struct cc_target *t, const struct cc_kernel *k,
                                           const struct cc_emit_ctx *ctx, struct isa_program *out,
                                           struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    if (!b) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    enum base_status st = BASE_OK;
    const struct graph_op *op = k->n_ops == 1 ? k->ops[0] : NULL;
    char why[160];
    if (!op || op->kind != GRAPH_OP_RNG_BIT_GENERATOR) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "an rng_bit_generator kernel is one stablehlo.rng_bit_generator");
        goto done;
    }
    if (!cc_rng_op_supported(op, t, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int si = cc_kernel_input_index(k, op->operands[0]);
    if (si < 0) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "the state is not a kernel input");
        goto done;
    }
    const struct cc_operand *state = &k->in[si];
    const struct cc_operand *o_state = out_of(k, &op->results[0]), *o_bits = out_of(k, &op->results[1]);
    bool threefry = graph_attr_is_keyword(graph_op_attr(op, "rng_algorithm"), "THREE_FRY");
    const struct graph_type *ot = op->results[1].type;
    int w = base_dtype_bits(ot->elem);
    int64_t n = 1;
    for (int d = 0; d < ot->rank; d++) n *= ot->dims[d];
    int64_t n_state = op->operands[0]->type->dims[0];
    /* XLA's split for narrow threefry: the first even dim, else the largest */
    int sd = 0;
    int64_t inner = 1, D = 1, hs = 1, half_count = 1;
    if (threefry && w < 64 && ot->rank > 0) {
        sd = -1;
        for (int d = 0; d < ot->rank && sd < 0; d++)
            if (ot->dims[d] % 2 == 0) sd = d;
        if (sd < 0) {
            sd = 0;
            for (int d = 1; d < ot->rank; d++)
                if (ot->dims[d] > ot->dims[sd]) sd = d;
        }
        for (int d = sd + 1; d < ot->rank; d++) inner *= ot->dims[d];
        D = ot->dims[sd];
        hs = (D + 1) / 2;
        half_count = n / (D ? D : 1) * hs;
    }
    /* how far the counter moves */
    int64_t advance = threefry ? (w == 64 ? n : ot->rank == 0 ? 1 : half_count)
                               : (w == 64 ? (2 * n + 3) / 4 : (n + 3) / 4);

    struct rg g = {b, k, op, t->vec, 0, b->partitions, 1};
    uint32_t P = b->partitions;
    /* per-partition scalars: the state words, keys, round keys */
    int sbuf = cc_kb_buffer(b, 64 * 8, 1);
    if (sbuf < 0) {
        st = diag->status;
        goto done;
    }
    struct rv S = {sbuf, BASE_DT_UI64, true, 0};
    struct rv st0 = at(S, 0), st1 = at(S, 1), st2 = at(S, 2);
    struct rv K = as(at(S, 4), BASE_DT_UI32); /* u32 array from byte 32 */
    struct rv k0 = at(K, 0), k1 = at(K, 1), ks2 = at(K, 2), k0s = at(K, 4), k1s = at(K, 14);
    struct rv ks[3] = {k0, k1, ks2};

    /* tile buffers: u64 A..D, u32 x0..x3, y0..y3, t, o; per element bytes */
    uint64_t per = 2 * (4 * 8 + 10 * 4);
    uint64_t freeb = cc_kb_free_bytes(b);
    int64_t max_f = freeb > 8192 ? (int64_t)((freeb - 8192) / per) : 1;
    if (max_f > 512) max_f = 512;
    if (max_f < 1) max_f = 1;
    struct flat fl;
    flat_plan(&fl, n, P, max_f);
    int64_t lo, hi;
    cc_core_share(fl.n_tiles, ctx, &lo, &hi);
    bool do_state = o_state && (!ctx || ctx->core == 0);
    if (lo >= hi && !do_state) goto done;

    g.P = P;
    if ((st = load_elem(&g, state, 0, st0)) != BASE_OK) goto done;
    if ((st = load_elem(&g, state, 1, st1)) != BASE_OK) goto done;
    if (!threefry && n_state > 2 && (st = load_elem(&g, state, 2, st2)) != BASE_OK) goto done;
    if ((st = cast(&g, k0, st0)) != BASE_OK) goto done;
    if ((st = ts1(&g, ISA_ALU_ISHRL, k1, st0, IMM(32))) != BASE_OK) goto done;
    if (threefry) {
        st = ts(&g, ISA_ALU_IXOR, ks2, k0, AP(k1), ISA_ALU_IXOR, IMM(0x1BD11BDA));
    } else {
        for (int r = 0; r < 10 && st == BASE_OK; r++) {
            st = ts1(&g, ISA_ALU_IADD, at(k0s, (uint64_t)r), k0, IMM((double)r * 0x9E3779B9u));
            if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, at(k1s, (uint64_t)r), k1, IMM((double)r * 0xBB67AE85u));
        }
    }
    if (st != BASE_OK) goto done;

    if (lo < hi) {
        if (!o_bits) goto state;
        int bA = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2), bB = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2),
            bC = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2), bD = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2);
        int u[10];
        for (int i = 0; i < 10; i++) u[i] = cc_kb_buffer(b, (uint64_t)fl.F * 4, 2);
        if (bA < 0 || bB < 0 || bC < 0 || bD < 0 || u[9] < 0) {
            st = diag->status;
            goto done;
        }
        struct rv A = {bA, BASE_DT_UI64, false, 0}, B = {bB, BASE_DT_UI64, false, 0},
                  C = {bC, BASE_DT_UI64, false, 0}, Dv = {bD, BASE_DT_UI64, false, 0};
        struct rv x[4], y[4], tt = {u[8], BASE_DT_UI32, false, 0}, o = {u[9], BASE_DT_UI32, false, 0};
        for (int i = 0; i < 4; i++) {
            x[i] = (struct rv){u[i], BASE_DT_UI32, false, 0};
            y[i] = (struct rv){u[4 + i], BASE_DT_UI32, false, 0};
        }
        enum base_dtype odt = ubits(w);
        for (int64_t ti = lo; ti < hi && st == BASE_OK; ti++) {
            int64_t start;
            flat_tile(&fl, ti, &start, &g.P, &g.F);
            g.slot = (int)((ti - lo) % 2);
            g.eng = engine_for_tile(t, ti - lo);
            struct rv res = w == 64 ? as(Dv, BASE_DT_UI64) : as(o, odt);
            st = iota(&g, A, (double)start, (double)g.F); /* L */
            if (st != BASE_OK) break;
            if (threefry) {
                struct rv word = tt; /* u32 parity of L along the split dim (narrow) */
                bool has_word = false;
                if (w < 64 && ot->rank > 0) {
                    /* q = L / inner, r = L % inner, j = q % D, outer = q / D */
                    struct rv q = A;
                    if (inner > 1) {
                        st = ts1(&g, ISA_ALU_IREM, C, A, IMM((double)inner)); /* r */
                        if (st == BASE_OK) st = ts1(&g, ISA_ALU_IDIV, B, A, IMM((double)inner));
                        q = B;
                    }
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_IREM, Dv, q, IMM((double)D)); /* j */
                    if (st == BASE_OK) st = ts(&g, ISA_ALU_IDIV, A, q, IMM((double)D), ISA_ALU_IMUL, IMM((double)hs));
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_IAND, word, Dv, IMM(1));
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, Dv, Dv, IMM(1));
                    if (st == BASE_OK) st = bin(&g, ISA_ALU_IADD, A, A, Dv);
                    if (inner > 1) {
                        if (st == BASE_OK) st = ts1(&g, ISA_ALU_IMUL, A, A, IMM((double)inner));
                        if (st == BASE_OK) st = bin(&g, ISA_ALU_IADD, A, A, C);
                    }
                    has_word = true;
                }
                /* c = counter + index; x0, x1 its halves */
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, A, A, AP(st1));
                if (st == BASE_OK) st = cast(&g, x[0], A);
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, x[1], A, IMM(32));
                if (st == BASE_OK) st = threefry2x32(&g, x[0], x[1], y[0], ks);
                if (st != BASE_OK) break;
                if (w == 64) {
                    st = cast(&g, res, x[0]);
                    if (st == BASE_OK) st = cast(&g, B, x[1]);
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHL, B, B, IMM(32));
                    if (st == BASE_OK) st = bin(&g, ISA_ALU_IOR, res, res, B);
                } else {
                    struct rv pick = x[0];
                    if (has_word) {
                        st = sel(&g, y[1], word, x[1], x[0]);
                        pick = y[1];
                    }
                    if (st == BASE_OK) st = cast(&g, res, pick);
                }
            } else {
                /* block and word: w < 64: L / 4, L % 4; w == 64: L / 2, L % 2 */
                int sh = w == 64 ? 1 : 2;
                st = ts1(&g, ISA_ALU_IAND, tt, A, IMM(w == 64 ? 1 : 3));
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, A, A, IMM(sh));
                /* (lo, hi) + block: l = lo + block, h = hi + (l < lo) */
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, A, A, AP(st1));
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ILT, B, A, AP(st1));
                if (st == BASE_OK && n_state > 2) st = ts1(&g, ISA_ALU_IADD, B, B, AP(st2));
                if (st == BASE_OK) st = cast(&g, x[0], A);
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, x[1], A, IMM(32));
                if (st == BASE_OK) st = cast(&g, x[2], B);
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, x[3], B, IMM(32));
                struct rv p2[2] = {C, Dv};
                if (st == BASE_OK) st = philox(&g, x, y, p2, k0s, k1s);
                if (st != BASE_OK) break;
                /* y[] is free now; o: the chosen word(s) */
                if (w == 64) {
                    st = sel(&g, y[0], tt, x[2], x[0]);
                    if (st == BASE_OK) st = sel(&g, y[1], tt, x[3], x[1]);
                    if (st == BASE_OK) st = cast(&g, res, y[0]);
                    if (st == BASE_OK) st = cast(&g, B, y[1]);
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHL, B, B, IMM(32));
                    if (st == BASE_OK) st = bin(&g, ISA_ALU_IOR, res, res, B);
                } else {
                    st = ts1(&g, ISA_ALU_IAND, y[2], tt, IMM(1));
                    if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, y[3], tt, IMM(1));
                    if (st == BASE_OK) st = sel(&g, y[0], y[2], x[1], x[0]);
                    if (st == BASE_OK) st = sel(&g, y[1], y[2], x[3], x[2]);
                    if (odt == BASE_DT_UI32) {
                        if (st == BASE_OK) st = sel(&g, o, y[3], y[1], y[0]);
                    } else {
                        if (st == BASE_OK) st = sel(&g, tt, y[3], y[1], y[0]);
                        if (st == BASE_OK) st = cast(&g, res, tt);
                    }
                }
            }
            if (st != BASE_OK) break;
            struct isa_ap dst;
            if (!store_ap(&o_bits->view, start, g.P, g.F, odt, &dst)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "the random bits' buffer is not dense");
                break;
            }
            struct isa_ap src = ap_of(&g, res);
            struct cc_access a = {res.buf, g.slot, CC_RD};
            st = cc_kb_dma(b, &dst, &src, &a, 1, cc_kb_dma_pieces(b, g.P * g.F * (uint64_t)(w / 8), g.P));
        }
        if (st != BASE_OK) goto done;
    }
state:
    if (do_state) {
        /* the new state on one partition: a copy with the counter advanced */
        g.P = 1;
        g.F = (uint64_t)n_state;
        g.eng = t->vec;
        g.slot = 0;
        int nb = cc_kb_buffer(b, (uint64_t)n_state * 8, 1), tb = cc_kb_buffer(b, 64, 1);
        if (nb < 0 || tb < 0) {
            st = diag->status;
            goto done;
        }
        struct rv NS = {nb, BASE_DT_UI64, true, 0}, T = {tb, BASE_DT_UI64, true, 0};
        struct isa_ap src;
        memset(&src, 0, sizeof src);
        src.space = ISA_SPACE_HBM;
        src.dtype = BASE_DT_UI64;
        src.addr = state->view.addr;
        src.part_count = 1;
        src.ndims = 1;
        src.stride[0] = state->view.strides[0];
        src.count[0] = (uint32_t)n_state;
        struct isa_ap d = cc_kb_sp(b, nb, 0, 0, 0, 1, BASE_DT_UI64, (uint64_t)n_state);
        struct cc_access a = {nb, 0, CC_WR};
        st = cc_kb_dma(b, &d, &src, &a, 1, 1);
        if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, T, at(NS, 1), IMM((double)advance));
        if (!threefry && n_state > 2) {
            if (st == BASE_OK) st = bin(&g, ISA_ALU_ILT, at(T, 1), T, at(NS, 1));
            if (st == BASE_OK) st = bin(&g, ISA_ALU_IADD, at(NS, 2), at(NS, 2), at(T, 1));
        }
        if (st == BASE_OK) st = cast(&g, at(NS, 1), T);
        if (st != BASE_OK) goto done;
        struct isa_ap dst;
        memset(&dst, 0, sizeof dst);
        dst.space = ISA_SPACE_HBM;
        dst.dtype = BASE_DT_UI64;
        dst.addr = o_state->view.addr;
        dst.part_count = 1;
        dst.ndims = 1;
        dst.stride[0] = o_state->view.rank ? o_state->view.strides[0] : 1;
        dst.count[0] = (uint32_t)n_state;
        struct isa_ap s2 = cc_kb_sp(b, nb, 0, 0, 0, 1, BASE_DT_UI64, (uint64_t)n_state);
        struct cc_access a2 = {nb, 0, CC_RD};
        st = cc_kb_dma(b, &dst, &s2, &a2, 1, 1);
    }
done:
    cc_kb_free(b);
    return st;
}

/* ------------------------------------------------------------ stablehlo.rng */

enum base_status cc_emit_rng(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                             struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    if (!b) return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    enum base_status st = BASE_OK;
    const struct graph_op *op = k->n_ops == 1 ? k->ops[0] : NULL;
    char why[160];
    if (!op || op->kind != GRAPH_OP_RNG || k->n_out != 1) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "an rng kernel is one stablehlo.rng");
        goto done;
    }
    if (!cc_rng_op_supported(op, t, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int ia = cc_kernel_input_index(k, op->operands[0]), ib = cc_kernel_input_index(k, op->operands[1]);
    if (ia < 0 || ib < 0) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "the bounds are not kernel inputs");
        goto done;
    }
    const struct graph_type *rt = op->results[0].type;
    enum base_dtype dt = rt->elem;
    bool integer = base_dtype_is_int(dt);
    bool normal = graph_attr_is_keyword(graph_op_attr(op, "rng_distribution"), "NORMAL");
    int64_t n = 1;
    for (int d = 0; d < rt->rank; d++) n *= rt->dims[d];
    /* the interpreter's stream: splitmix64 from seed * G + id, seed 0 */
    const uint64_t G = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t seed0 = (uint64_t)op->id;
    uint32_t P = b->partitions;
    struct rg g = {b, k, op, t->vec, 0, P, 1};
    int sbuf = cc_kb_buffer(b, 64 * 8, 1);
    if (sbuf < 0) {
        st = diag->status;
        goto done;
    }
    struct rv S = {sbuf, BASE_DT_UI64, true, 0};
    struct rv Gs = at(S, 0), m[2] = {at(S, 1), at(S, 2)};
    /* bounds: lo, hi as i64 (integers) or f32; range = hi - lo (or 1) */
    struct rv a_raw = as(at(S, 3), op->operands[0]->type->elem), b_raw = as(at(S, 4), op->operands[1]->type->elem);
    struct rv lo_i = as(at(S, 5), BASE_DT_SI64), hi_i = as(at(S, 6), BASE_DT_SI64), rng_u = at(S, 7),
              gt = at(S, 8), one = at(S, 9);
    struct rv lo_f = as(at(S, 10), BASE_DT_F32), hi_f = as(at(S, 11), BASE_DT_F32), d_f = as(at(S, 12), BASE_DT_F32);

    uint64_t per = 2 * (3 * 8 + 3 * 4 + 8);
    uint64_t freeb = cc_kb_free_bytes(b);
    int64_t max_f = freeb > 8192 ? (int64_t)((freeb - 8192) / per) : 1;
    if (max_f > 512) max_f = 512;
    struct flat fl;
    flat_plan(&fl, n, P, max_f < 1 ? 1 : max_f);
    int64_t lo, hi;
    cc_core_share(fl.n_tiles, ctx, &lo, &hi);
    if (lo >= hi) goto done;
    if ((st = const64(&g, Gs, G)) != BASE_OK) goto done;
    if ((st = const64(&g, m[0], UINT64_C(0xBF58476D1CE4E5B9))) != BASE_OK) goto done;
    if ((st = const64(&g, m[1], UINT64_C(0x94D049BB133111EB))) != BASE_OK) goto done;
    if ((st = load_elem(&g, &k->in[ia], 0, a_raw)) != BASE_OK) goto done;
    if ((st = load_elem(&g, &k->in[ib], 0, b_raw)) != BASE_OK) goto done;
    if (integer) {
        st = cast(&g, lo_i, a_raw);
        if (st == BASE_OK) st = cast(&g, hi_i, b_raw);
        if (st == BASE_OK) st = bin(&g, ISA_ALU_ISUB, rng_u, hi_i, lo_i);
        if (st == BASE_OK) st = bin(&g, ISA_ALU_IGT, gt, hi_i, lo_i);
        if (st == BASE_OK) st = memset_(&g, one, 1);
        if (st == BASE_OK) st = sel(&g, rng_u, gt, rng_u, one);
    } else {
        st = cast(&g, lo_f, a_raw);
        if (st == BASE_OK) st = cast(&g, hi_f, b_raw);
        if (st == BASE_OK && !normal) st = bin(&g, ISA_ALU_SUB, d_f, hi_f, lo_f);
    }
    if (st != BASE_OK) goto done;
    int bZ = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2), bZ2 = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2),
        bT = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2), bU = cc_kb_buffer(b, (uint64_t)fl.F * 4, 2),
        bV = cc_kb_buffer(b, (uint64_t)fl.F * 4, 2), bO = cc_kb_buffer(b, (uint64_t)fl.F * 8, 2);
    if (bZ < 0 || bZ2 < 0 || bT < 0 || bU < 0 || bV < 0 || bO < 0) {
        st = diag->status;
        goto done;
    }
    struct rv Z = {bZ, BASE_DT_UI64, false, 0}, Z2 = {bZ2, BASE_DT_UI64, false, 0}, T = {bT, BASE_DT_UI64, false, 0};
    struct rv U = {bU, BASE_DT_F32, false, 0}, V = {bV, BASE_DT_F32, false, 0}, O = {bO, dt, false, 0};
    for (int64_t ti = lo; ti < hi && st == BASE_OK; ti++) {
        int64_t start;
        flat_tile(&fl, ti, &start, &g.P, &g.F);
        g.slot = (int)((ti - lo) % 2);
        g.eng = engine_for_tile(t, ti - lo);
        /* draw j: the state after j + 1 steps is seed0 + (j + 1) G */
        if (normal) {
            /* draws 2 L and 2 L + 1: states 2 L + 1 and 2 L + 2 steps on */
            st = iota(&g, Z, (double)start, (double)g.F);
            if (st == BASE_OK) st = ts(&g, ISA_ALU_IMUL, Z, Z, IMM(2), ISA_ALU_IADD, IMM(1));
            if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, Z2, Z, IMM(1));
            if (st == BASE_OK) st = ts(&g, ISA_ALU_IMUL, Z2, Z2, AP(Gs), ISA_ALU_IADD, IMM((double)seed0));
            if (st == BASE_OK) st = splitmix(&g, Z2, T, m);
        } else {
            st = iota(&g, Z, (double)start + 1, (double)g.F);
        }
        if (st == BASE_OK) st = ts(&g, ISA_ALU_IMUL, Z, Z, AP(Gs), ISA_ALU_IADD, IMM((double)seed0));
        if (st == BASE_OK) st = splitmix(&g, Z, T, m);
        if (st != BASE_OK) break;
        if (integer) {
            st = ts1(&g, ISA_ALU_IREM, Z, Z, AP(rng_u));
            if (st == BASE_OK) st = ts1(&g, ISA_ALU_IADD, as(Z, BASE_DT_SI64), as(Z, BASE_DT_SI64), AP(lo_i));
            if (st == BASE_OK) st = cast(&g, O, as(Z, BASE_DT_SI64));
        } else {
            /* u = (z >> 11) 2^-53 (one rounding to f32 at the cast) */
            st = ts1(&g, ISA_ALU_ISHRL, Z, Z, IMM(11));
            if (st == BASE_OK) st = cast(&g, U, Z);
            if (st == BASE_OK) st = ts1(&g, ISA_ALU_MUL, U, U, IMM(ldexp(1.0, -53)));
            if (normal) {
                /* u1 (>= 2^-53 against log 0), u2; lo + hi sqrt(-2 ln u1) cos(2 pi u2) */
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_MAX, U, U, IMM(ldexp(1.0, -53)));
                if (st == BASE_OK) st = act(&g, ISA_ACT_LOG, U, U, 1.0);
                if (st == BASE_OK) st = act(&g, ISA_ACT_SQRT, U, U, -2.0);
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_ISHRL, Z2, Z2, IMM(11));
                if (st == BASE_OK) st = cast(&g, V, Z2);
                if (st == BASE_OK) st = ts1(&g, ISA_ALU_MUL, V, V, IMM(ldexp(1.0, -53)));
                if (st == BASE_OK) st = act(&g, ISA_ACT_COS, V, V, 6.283185307179586);
                if (st == BASE_OK) st = bin(&g, ISA_ALU_MUL, U, U, V);
                if (st == BASE_OK) st = ts(&g, ISA_ALU_MUL, O, U, AP(hi_f), ISA_ALU_ADD, AP(lo_f));
            } else if (st == BASE_OK) {
                st = ts(&g, ISA_ALU_MUL, O, U, AP(d_f), ISA_ALU_ADD, AP(lo_f));
            }
        }
        if (st != BASE_OK) break;
        struct isa_ap dst;
        if (!store_ap(&k->out[0].view, start, g.P, g.F, dt, &dst)) {
            st = cc_kb_fail(b, BASE_ERR_INTERNAL, "the result's buffer is not dense");
            break;
        }
        struct isa_ap src = ap_of(&g, O);
        struct cc_access a = {O.buf, g.slot, CC_RD};
        st = cc_kb_dma(b, &dst, &src, &a, 1, cc_kb_dma_pieces(b, g.P * g.F * base_dtype_size(dt), g.P));
    }
done:
    cc_kb_free(b);
    return st;
}
