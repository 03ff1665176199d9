/* The differential fuzzer's generator: random valid StableHLO programs built
 * with the graph builder (graph/graph.h "Building").
 *
 * A program is @main(args) -> results, or for SPMD graphs @main(global args)
 * whose body is one sdy.manual_computation over a mesh, with collectives in
 * it.  Ops are drawn from families weighted toward what ML graphs use; an
 * op's operands come from the values made so far (preferring ones nobody
 * reads yet, so that most of the graph reaches the outputs), adapted to the
 * type the op needs by chains of reshape / slice / pad / broadcast /
 * transpose / convert (which makes many views, and views of views).
 *
 * Valid by construction: graph_verify must accept every program; a
 * verification failure is a bug of this file.  The differential run must
 * also be meaningful: the chips match the interpreter bit for bit except
 * where docs/compiler.md says they may not (f32 matmuls on a TPU, bf16/f16
 * sums, tanh and cbrt within an ulp), so a value computed by such an op is
 * marked inexact and never feeds an op that would turn an ulp into a
 * different answer (compare, floor, convert to an integer, an index, a sort
 * key, exp of a large value...) or be compared at a finer precision than it
 * was computed in (a widening convert).  SPMD programs track which values
 * may differ between partitions, so that no collective sits under a branch
 * some partitions skip.
 *
 * Deterministic: the program is a function of struct df_gen_opts only. */
#include "fuzz/diff/diff.h"

#include "compiler/compiler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 6 /* ranks generated */

static const char *const k_family_names[] = {
#define X(e, name) name,
    DF_FAMILIES(X)
#undef X
};
_Static_assert(ARRAY_LEN(k_family_names) == DF_FAM_COUNT, "a name per family");

const char *df_family_name(enum df_family f) { return (unsigned)f < DF_FAM_COUNT ? k_family_names[f] : "?"; }

uint64_t df_mix(uint64_t x)
{
    x += UINT64_C(0x9E3779B97F4A7C15);
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

/* ------------------------------------------------------------------------ */
/* State                                                                     */

enum {
    DV_INEXACT = 1u << 0, /* may differ from the interpreter's by rounding (see the top) */
    DV_VARYING = 1u << 1, /* SPMD: may differ between partitions */
    DV_NOVIEW = 1u << 2,  /* complex or quantized: only elementwise consumers */
    /* may hold a NaN made by float arithmetic, whose sign and payload no one
     * promises (docs/compiler.md: "a NaN matching any NaN"): no op may look
     * at its bits (bitcast_convert, total-order compares and sorts,
     * reduce_precision to no mantissa) */
    DV_NANBITS = 1u << 3,
    /* every element the same (a splat, a broadcast scalar): a matmul that
     * rounds (an f32 one on a TPU) sums like products, whose rounding errors
     * add up coherently, K ulps rather than the tolerance's sqrt(K) */
    DV_UNIFORM = 1u << 4,
    /* a function the chip approximates with an absolute error (lgamma at 1
     * and 2, digamma: cc_decomposition_ulps): where the interpreter gives 0
     * the chip may give 1e-7, and inf times it is inf on chip, NaN in the
     * interpreter: no product (multiply, a product reduction, a matmul)
     * takes it */
    DV_ABSERR = 1u << 5,
};

struct dv {
    struct graph_value *v;
    unsigned flags;
    int uses;
};

struct fn {
    char name[16];
    int n_in, n_out;
    const struct graph_type *in[4], *out[3];
};

struct gen {
    struct graph_builder *b;
    struct base_rng r;
    const struct df_gen_opts *o;
    struct dv *pool;
    int n, cap;
    int *slot; /* builder value number -> pool index + 1 (0: not in the pool) */
    size_t slot_cap;
    int ops, budget;
    int depth;
    int64_t max_elems;
    bool spmd;    /* in the manual computation's body */
    bool no_coll; /* in a region some partitions may skip */
    int chips, mesh_axes, axis_size[2];
    int channel;
    int n_funcs;
    struct fn funcs[3];
    struct graph_module *qmod;
    const struct graph_type *qt[4];
    int n_qt;
    /* pass 2: the result types pass 1 found (NULL in pass 1) */
    const struct graph_type **main_out;
    int n_main_out;
    /* pass 1 records them here */
    enum base_dtype rec_dt[64];
    int rec_rank[64];
    int64_t rec_dims[64][MAXR];
    int rec_shard[64];
    int n_rec;
};

/* ------------------------------------------------------------------------ */
/* Randomness                                                                */

static uint64_t rnd64(struct gen *g) { return base_rng_next(&g->r); }
static int64_t rnd(struct gen *g, int64_t n) { return n <= 1 ? 0 : (int64_t)(rnd64(g) % (uint64_t)n); }
static int64_t rrange(struct gen *g, int64_t lo, int64_t hi) { return hi <= lo ? lo : lo + rnd(g, hi - lo + 1); }
static bool chance(struct gen *g, double p) { return base_rng_uniform(&g->r) < p; }
static int pickw(struct gen *g, const int *w, int n)
{
    int t = 0;
    for (int i = 0; i < n; i++) t += w[i];
    int x = (int)rnd(g, t);
    for (int i = 0; i < n; i++) {
        if (x < w[i]) return i;
        x -= w[i];
    }
    return n - 1;
}
/* log-uniform in [lo, hi] */
static int64_t rlog(struct gen *g, int64_t lo, int64_t hi)
{
    if (hi <= lo) return lo;
    double a = log((double)lo), b = log((double)hi + 1);
    int64_t v = (int64_t)exp(a + (b - a) * base_rng_uniform(&g->r));
    return v < lo ? lo : v > hi ? hi : v;
}
static void shuffle(struct gen *g, int64_t *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rnd(g, i + 1);
        int64_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static int man_bits(enum base_dtype dt)
{
    const struct base_float_format *f = base_dtype_is_float(dt) ? base_float_format(dt) : NULL;
    return f ? f->man_bits : 64;
}
static bool is_float(enum base_dtype dt) { return base_dtype_is_float(dt); }
static bool is_int(enum base_dtype dt) { return base_dtype_is_int(dt); }
static bool is_bool(enum base_dtype dt) { return dt == BASE_DT_I1; }
static bool is_cplx(enum base_dtype dt) { return base_dtype_is_complex(dt); }
static bool is_signed(enum base_dtype dt) { return base_dtype_kind(dt) == BASE_KIND_SINT; }

static const struct graph_type *T(struct graph_value *v) { return v->type; }
static bool is_tensor(struct graph_value *v) { return v && v->type->kind == GRAPH_TYPE_TENSOR && v->type->rank >= 0; }
static enum base_dtype E(struct graph_value *v) { return v->type->elem; }
static int RK(struct graph_value *v) { return v->type->rank; }
static int64_t count_of(int rank, const int64_t *dims)
{
    int64_t c = 1;
    for (int i = 0; i < rank; i++) c *= dims[i];
    return c;
}
static int64_t CNT(struct graph_value *v) { return count_of(RK(v), v->type->dims); }

static const struct graph_type *tt(struct gen *g, enum base_dtype dt, int rank, const int64_t *dims)
{
    return graph_builder_tensor_type(g->b, dt, rank, dims);
}
static const struct graph_type *st(struct gen *g, enum base_dtype dt) { return graph_builder_scalar_type(g->b, dt); }

/* An element type for general values. */
static enum base_dtype draw_dtype(struct gen *g)
{
    static const enum base_dtype dts[] = {BASE_DT_F32,  BASE_DT_BF16, BASE_DT_F16,      BASE_DT_SI32,   BASE_DT_SI64,
                                          BASE_DT_SI8,  BASE_DT_SI16, BASE_DT_UI8,      BASE_DT_UI16,   BASE_DT_UI32,
                                          BASE_DT_UI64, BASE_DT_I1,   BASE_DT_F64,      BASE_DT_F8E4M3FN, BASE_DT_F8E5M2,
                                          BASE_DT_SI4,  BASE_DT_UI4};
    static const int w[] = {300, 200, 60, 120, 30, 40, 20, 30, 10, 30, 10, 60, 20, 8, 8, 3, 3};
    _Static_assert(ARRAY_LEN(dts) == ARRAY_LEN(w), "weights");
    return dts[pickw(g, w, (int)ARRAY_LEN(w))];
}
static enum base_dtype draw_float(struct gen *g)
{
    static const enum base_dtype dts[] = {BASE_DT_F32, BASE_DT_BF16, BASE_DT_F16, BASE_DT_F64, BASE_DT_F8E4M3FN,
                                          BASE_DT_F8E5M2};
    static const int w[] = {50, 30, 10, 4, 2, 2};
    return dts[pickw(g, w, 6)];
}
static enum base_dtype draw_index_type(struct gen *g)
{
    static const enum base_dtype dts[] = {BASE_DT_SI32, BASE_DT_SI64, BASE_DT_UI32, BASE_DT_SI8, BASE_DT_UI8,
                                          BASE_DT_SI16};
    static const int w[] = {60, 20, 8, 4, 4, 4};
    return dts[pickw(g, w, 6)];
}

static int64_t draw_dim(struct gen *g)
{
    static const int w[] = {14, 36, 30, 14, 5, 1};
    switch (pickw(g, w, 6)) {
    case 0: return 1;
    case 1: return rrange(g, 2, 8);
    case 2: return rrange(g, 9, 32);
    case 3: return rrange(g, 33, 128);
    case 4: return rrange(g, 129, 512);
    default: return chance(g, 0.5) ? 0 : rrange(g, 513, 2048);
    }
}

/* Shrinks dims (largest first) until the count fits max. */
static void fit(int rank, int64_t *dims, int64_t max)
{
    if (max < 1) max = 1;
    for (;;) {
        int64_t c = count_of(rank, dims);
        if (c <= max) return;
        int big = 0;
        for (int i = 1; i < rank; i++)
            if (dims[i] > dims[big]) big = i;
        dims[big] = (dims[big] + 1) / 2;
    }
}

static int draw_rank(struct gen *g)
{
    static const int w[] = {5, 20, 35, 25, 12, 3};
    return pickw(g, w, 6);
}

static int draw_shape(struct gen *g, int64_t *dims)
{
    int rank = draw_rank(g);
    for (int i = 0; i < rank; i++) dims[i] = draw_dim(g);
    fit(rank, dims, g->max_elems);
    return rank;
}

/* ------------------------------------------------------------------------ */
/* The pool of values                                                        */

static struct dv *dv_of(struct gen *g, struct graph_value *v)
{
    uint32_t id = v->id;
    if (id < g->slot_cap && g->slot[id]) return &g->pool[g->slot[id] - 1];
    return NULL;
}

static unsigned flags_of(struct gen *g, struct graph_value *v)
{
    struct dv *d = dv_of(g, v);
    return d ? d->flags : 0;
}

static void push(struct gen *g, struct graph_value *v, unsigned flags)
{
    if (!v) return;
    if (is_cplx(E(v)) || v->type->quant) flags |= DV_NOVIEW;
    if (!is_float(E(v))) flags &= ~(unsigned)(DV_INEXACT | DV_ABSERR);
    if (!is_float(E(v)) && !is_cplx(E(v))) flags &= ~(unsigned)DV_NANBITS;
    if (is_tensor(v) && CNT(v) <= 1) flags |= DV_UNIFORM;
    if (g->n == g->cap) {
        int nc = g->cap ? 2 * g->cap : 256;
        struct dv *p = realloc(g->pool, (size_t)nc * sizeof *p);
        if (!p) return;
        g->pool = p;
        g->cap = nc;
    }
    if (v->id >= g->slot_cap) {
        size_t nc = g->slot_cap ? g->slot_cap : 1024;
        while (nc <= v->id) nc *= 2;
        int *s = realloc(g->slot, nc * sizeof *s);
        if (!s) return;
        memset(s + g->slot_cap, 0, (nc - g->slot_cap) * sizeof *s);
        g->slot = s;
        g->slot_cap = nc;
    }
    g->pool[g->n] = (struct dv){v, flags, 0};
    g->slot[v->id] = ++g->n;
}

static void pop_to(struct gen *g, int n)
{
    while (g->n > n) {
        g->n--;
        g->slot[g->pool[g->n].v->id] = 0;
    }
}

static unsigned join(struct gen *g, struct graph_value *const *in, int n)
{
    unsigned f = 0, all = DV_UNIFORM;
    for (int i = 0; i < n; i++)
        if (in[i]) {
            f |= flags_of(g, in[i]) & (DV_INEXACT | DV_VARYING | DV_NANBITS | DV_ABSERR);
            all &= flags_of(g, in[i]);
        }
    return f | (n ? all : 0);
}

/* Whether a product may take these operands: none DV_ABSERR. */
static bool product_ok(struct gen *g, struct graph_value *const *in, int n)
{
    for (int i = 0; i < n; i++)
        if (in[i] && (flags_of(g, in[i]) & DV_ABSERR)) return false;
    return true;
}

/* An op at the end of the current block; its operands count as used. */
static struct graph_op *mk(struct gen *g, enum graph_op_kind k, struct graph_value *const *in, int n_in,
                           const struct graph_type *const *rt, int n_out)
{
    struct graph_op *op = graph_builder_op(g->b, k, in, n_in, rt, n_out);
    g->ops++;
    for (int i = 0; i < n_in; i++) {
        struct dv *d = in[i] ? dv_of(g, in[i]) : NULL;
        if (d) d->uses++;
    }
    return op;
}
static struct graph_value *mk1(struct gen *g, enum graph_op_kind k, struct graph_value *const *in, int n_in,
                               const struct graph_type *rt)
{
    return graph_builder_result(mk(g, k, in, n_in, &rt, 1), 0);
}
static void attr(struct gen *g, struct graph_op *op, const char *name, const struct graph_attr *a)
{
    if (op) graph_builder_set_attr(g->b, op, name, a);
}
static const struct graph_attr *dense(struct gen *g, const int64_t *v, int n)
{
    return graph_builder_attr_dense_i64(g->b, v, n);
}
static const struct graph_attr *aint(struct gen *g, int64_t v) { return graph_builder_attr_int(g->b, v); }

/* Values a consumer may take: a ranked tensor, not a token, exactness and
 * partition-uniformity as asked. */
struct want {
    bool need_exact;   /* the consumer is discontinuous: no inexact value */
    bool need_bits;    /* the consumer sees a NaN's bits: no DV_NANBITS value */
    bool any_type;     /* any element type (else elem) */
    enum base_dtype elem;
    int rank;          /* -1: any */
    const int64_t *dims; /* NULL: any */
    int min_rank;
    bool allow_noview; /* complex / quantized values too */
    bool need_uniform; /* SPMD: the same on every partition */
    bool float_only, int_only, nonbool;
};

static bool fits(const struct want *w, const struct dv *d)
{
    struct graph_value *v = d->v;
    if (!is_tensor(v) || v->type->quant) return false; /* quantized values: only g_quantized uses them */
    if ((d->flags & DV_NOVIEW) && !w->allow_noview) return false;
    if (w->need_exact && (d->flags & DV_INEXACT)) return false;
    if (w->need_bits && (d->flags & DV_NANBITS)) return false;
    if (w->need_uniform && (d->flags & DV_VARYING)) return false;
    if (!w->any_type && E(v) != w->elem) return false;
    if (w->float_only && !is_float(E(v))) return false;
    if (w->int_only && !is_int(E(v))) return false;
    if (w->nonbool && is_bool(E(v))) return false;
    if (RK(v) < w->min_rank) return false;
    if (w->rank >= 0 && RK(v) != w->rank) return false;
    if (w->dims)
        for (int i = 0; i < RK(v); i++)
            if (v->type->dims[i] != w->dims[i]) return false;
    return true;
}

/* A value of the pool matching w (NULL when none): unused and recent ones
 * first, half the time. */
static struct dv *pick(struct gen *g, const struct want *w)
{
    int n = 0, n_unused = 0;
    for (int i = 0; i < g->n; i++)
        if (fits(w, &g->pool[i])) {
            n++;
            n_unused += g->pool[i].uses == 0;
        }
    if (!n) return NULL;
    int mode = (int)rnd(g, 10);
    int k;
    bool unused = mode < 5 && n_unused > 0;
    int m = unused ? n_unused : n;
    if (mode % 2 == 0) /* recent: among the last 8 */
        k = m - 1 - (int)rnd(g, m < 8 ? m : 8);
    else
        k = (int)rnd(g, m);
    for (int i = 0; i < g->n; i++)
        if (fits(w, &g->pool[i]) && (!unused || g->pool[i].uses == 0) && k-- == 0) return &g->pool[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Literals                                                                  */

static double draw_float_value(struct gen *g)
{
    switch (rnd(g, 10)) {
    case 0: return 0.0;
    case 1: return (double)rrange(g, -4, 4);
    case 2: return base_rng_normal(&g->r) * 10;
    default: return base_rng_normal(&g->r);
    }
}

static int64_t draw_int_value(struct gen *g, enum base_dtype dt)
{
    if (is_bool(dt)) return rnd(g, 2);
    int w = base_dtype_bits(dt);
    if (chance(g, 0.7)) return is_signed(dt) ? rrange(g, -8, 8) : rrange(g, 0, 16);
    uint64_t bits = rnd64(g) & base_wmask(w);
    return is_signed(dt) ? base_sext(bits, w) : (int64_t)bits;
}

static void fill_literal(struct gen *g, struct base_tensor *t)
{
    for (int64_t i = 0; i < t->count; i++) {
        if (is_float(t->dtype)) base_elem_set_f64(t->dtype, t->data, (size_t)i, draw_float_value(g));
        else if (is_cplx(t->dtype))
            base_elem_set_c128(t->dtype, t->data, (size_t)i, draw_float_value(g), draw_float_value(g));
        else base_elem_set_i64(t->dtype, t->data, (size_t)i, draw_int_value(g, t->dtype));
    }
}

/* stablehlo.constant: a splat of v, or (small tensors, dense) random values. */
static struct graph_value *constant(struct gen *g, const struct graph_type *t, bool splat, double v)
{
    const struct graph_attr *a;
    if (splat || graph_type_count(t) > 256) {
        a = graph_builder_attr_splat_f64(g->b, t, v);
    } else {
        struct base_tensor *x = NULL;
        if (base_tensor_create(t->elem, t->rank, t->dims, &x) != BASE_OK) return NULL;
        fill_literal(g, x);
        a = graph_builder_attr_elements(g->b, t, x);
        base_tensor_release(x);
    }
    struct graph_value *r = graph_builder_constant(g->b, a);
    g->ops++;
    push(g, r, splat || graph_type_count(t) > 256 ? DV_UNIFORM : 0);
    return r;
}

static struct graph_value *scalar_const(struct gen *g, enum base_dtype dt, double v)
{
    if (is_float(dt) || is_cplx(dt)) return constant(g, st(g, dt), true, v);
    /* integers: exactly, saturated to the type (no double -> int64 overflow) */
    struct base_tensor *x = NULL;
    if (base_tensor_create(dt, 0, NULL, &x) != BASE_OK) return NULL;
    int64_t i;
    if (is_bool(dt)) i = v != 0;
    else if (v <= (double)base_int_min(dt)) i = base_int_min(dt);
    else if (v >= (double)base_int_max(dt)) i = (int64_t)base_int_max(dt);
    else i = (int64_t)v;
    base_elem_set_i64(dt, x->data, 0, i);
    struct graph_value *r = graph_builder_constant(g->b, graph_builder_attr_elements(g->b, st(g, dt), x));
    base_tensor_release(x);
    g->ops++;
    push(g, r, 0);
    return r;
}

/* The identity of a reduction (add 0, mul 1, max -inf/min, ...). */
static double identity(enum graph_op_kind k, enum base_dtype dt)
{
    switch (k) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR: return 0;
    case GRAPH_OP_MULTIPLY: return 1;
    case GRAPH_OP_AND: return is_bool(dt) ? 1 : -1;
    case GRAPH_OP_MAXIMUM:
        if (is_float(dt)) return base_float_format(dt)->has_inf ? -INFINITY : -base_float_format(dt)->max_finite;
        return is_bool(dt) ? 0 : (double)base_int_min(dt);
    case GRAPH_OP_MINIMUM:
        if (is_float(dt)) return base_float_format(dt)->has_inf ? INFINITY : base_float_format(dt)->max_finite;
        return is_bool(dt) ? 1 : (double)base_int_max(dt);
    default: return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* Adapting values to the type an op needs                                   */

static struct graph_value *reshape(struct gen *g, struct graph_value *v, int rank, const int64_t *dims)
{
    struct graph_value *r = mk1(g, GRAPH_OP_RESHAPE, &v, 1, graph_builder_type_with_dims(g->b, T(v), rank, dims));
    push(g, r, flags_of(g, v));
    return r;
}

static struct graph_value *convert(struct gen *g, struct graph_value *v, enum base_dtype dt)
{
    if (E(v) == dt) return v;
    struct graph_value *r = mk1(g, GRAPH_OP_CONVERT, &v, 1, tt(g, dt, RK(v), T(v)->dims));
    push(g, r, flags_of(g, v));
    return r;
}

static struct graph_value *slice1(struct gen *g, struct graph_value *v, int64_t start, int64_t limit, int64_t stride)
{
    int64_t n = (limit - start + stride - 1) / stride;
    if (n < 0) n = 0;
    struct graph_op *op = mk(g, GRAPH_OP_SLICE, &v, 1,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(v), 1, &n)}, 1);
    attr(g, op, "start_indices", dense(g, &start, 1));
    attr(g, op, "limit_indices", dense(g, &limit, 1));
    attr(g, op, "strides", dense(g, &stride, 1));
    struct graph_value *r = graph_builder_result(op, 0);
    push(g, r, flags_of(g, v));
    return r;
}

/* A rank-1 value of n elements from a rank-1 value. */
static struct graph_value *resize1(struct gen *g, struct graph_value *v, int64_t n)
{
    int64_t c = T(v)->dims[0];
    if (c == n) return v;
    if (c > n) {
        int64_t stride = n > 0 && c >= 2 * n && chance(g, 0.3) ? 2 : 1;
        int64_t span = n > 0 ? (n - 1) * stride + 1 : 0;
        int64_t start = rnd(g, c - span + 1);
        return slice1(g, v, start, start + span, stride);
    }
    if (c > 0 && chance(g, 0.4)) { /* concatenate copies of it */
        struct graph_value *parts[8];
        int k = 0;
        int64_t have = 0;
        while (have < n && k < 8) {
            parts[k++] = v;
            have += c;
        }
        if (have >= n) {
            int64_t d = have;
            struct graph_op *op = mk(g, GRAPH_OP_CONCATENATE, parts, k,
                                     (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(v), 1, &d)}, 1);
            attr(g, op, "dimension", aint(g, 0));
            struct graph_value *r = graph_builder_result(op, 0);
            push(g, r, flags_of(g, v));
            return resize1(g, r, n);
        }
    }
    /* pad: high, or interior when it lands exactly */
    int64_t lo = 0, hi = n - c, in = 0;
    if (c > 1 && chance(g, 0.3)) {
        in = (n - c) / (c - 1);
        if (in > 2) in = 2;
        int64_t used = c + (c - 1) * in;
        lo = rnd(g, n - used + 1);
        hi = n - used - lo;
    } else if (chance(g, 0.3)) {
        lo = rnd(g, n - c + 1);
        hi = n - c - lo;
    }
    struct graph_value *pv = scalar_const(g, E(v), 0);
    struct graph_value *in2[2] = {v, pv};
    struct graph_op *op = mk(g, GRAPH_OP_PAD, in2, 2,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(v), 1, &n)}, 1);
    attr(g, op, "edge_padding_low", dense(g, &lo, 1));
    attr(g, op, "edge_padding_high", dense(g, &hi, 1));
    attr(g, op, "interior_padding", dense(g, &in, 1));
    struct graph_value *r = graph_builder_result(op, 0);
    push(g, r, flags_of(g, v));
    return r;
}

static struct graph_value *broadcast_in_dim(struct gen *g, struct graph_value *v, int rank, const int64_t *dims,
                                            const int64_t *map)
{
    struct graph_op *op =
        mk(g, GRAPH_OP_BROADCAST_IN_DIM, &v, 1, (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(v), rank, dims)}, 1);
    attr(g, op, "broadcast_dimensions", dense(g, map, RK(v)));
    struct graph_value *r = graph_builder_result(op, 0);
    push(g, r, flags_of(g, v));
    return r;
}

/* Whether v broadcasts to dims with an order-keeping map (each dim equal or 1). */
static bool broadcast_map(struct graph_value *v, int rank, const int64_t *dims, int64_t *map)
{
    int j = 0;
    for (int i = 0; i < RK(v); i++) {
        int64_t d = T(v)->dims[i];
        while (j < rank && !(dims[j] == d || d == 1)) j++;
        if (j >= rank) return false;
        map[i] = j++;
    }
    return true;
}

/* v with shape dims (same element type). */
static struct graph_value *to_shape(struct gen *g, struct graph_value *v, int rank, const int64_t *dims)
{
    bool same = RK(v) == rank;
    for (int i = 0; same && i < rank; i++) same = T(v)->dims[i] == dims[i];
    if (same) return v;
    int64_t cs = CNT(v), ct = count_of(rank, dims);
    if (cs == ct) {
        /* a permutation of the dims: a transpose, sometimes */
        if (RK(v) == rank && rank > 1 && chance(g, 0.5)) {
            int64_t perm[MAXR];
            bool used[MAXR] = {false}, ok = true;
            for (int i = 0; i < rank && ok; i++) {
                ok = false;
                for (int j = 0; j < rank; j++)
                    if (!used[j] && T(v)->dims[j] == dims[i]) {
                        perm[i] = j;
                        used[j] = ok = true;
                        break;
                    }
            }
            if (ok) {
                struct graph_op *op = mk(g, GRAPH_OP_TRANSPOSE, &v, 1,
                                         (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(v), rank, dims)}, 1);
                attr(g, op, "permutation", dense(g, perm, rank));
                struct graph_value *r = graph_builder_result(op, 0);
                push(g, r, flags_of(g, v));
                return r;
            }
        }
        return reshape(g, v, rank, dims);
    }
    int64_t map[MAXR];
    if (chance(g, 0.5) && RK(v) <= rank && cs > 0 && broadcast_map(v, rank, dims, map))
        return broadcast_in_dim(g, v, rank, dims, map);
    if (cs == 1 && ct > 0) {
        if (RK(v) > 0) v = reshape(g, v, 0, NULL);
        return broadcast_in_dim(g, v, rank, dims, NULL);
    }
    if (RK(v) != 1) v = reshape(g, v, 1, &cs);
    v = resize1(g, v, ct);
    if (rank == 1) return v;
    return reshape(g, v, rank, dims);
}

/* Whether a value with these flags and type may become type `to`. */
static bool can_flow(unsigned flags, enum base_dtype from, enum base_dtype to)
{
    if (is_cplx(from) != is_cplx(to)) return false;
    if (!(flags & DV_INEXACT) || from == to) return true;
    return is_float(to) && man_bits(to) <= man_bits(from);
}

static struct graph_value *fresh(struct gen *g, enum base_dtype dt, int rank, const int64_t *dims)
{
    const struct graph_type *t = tt(g, dt, rank, dims);
    if (rank > 0 && !is_bool(dt) && !is_cplx(dt) && chance(g, 0.3)) {
        int64_t d = rnd(g, rank);
        struct graph_op *op = mk(g, GRAPH_OP_IOTA, NULL, 0, &t, 1);
        attr(g, op, "iota_dimension", aint(g, d));
        struct graph_value *r = graph_builder_result(op, 0);
        push(g, r, 0);
        return r;
    }
    return constant(g, t, chance(g, 0.3), draw_float_value(g));
}

/* A value of type (dt, rank, dims) for an op: one of the pool's, adapted,
 * or a new literal. */
static struct graph_value *want_type(struct gen *g, enum base_dtype dt, int rank, const int64_t *dims, bool need_exact)
{
    struct want w = {.need_exact = need_exact, .elem = dt, .rank = rank, .dims = dims, .allow_noview = true,
                     .need_uniform = false};
    if (chance(g, 0.45)) {
        struct dv *d = pick(g, &w);
        if (d) return d->v;
    }
    if (!is_cplx(dt) && chance(g, 0.35)) {
        /* the same shape in another type (a convert), or the same count (a reshape) */
        int64_t want_count = count_of(rank, dims);
        int n = 0, best = 0;
        for (int i = 0; i < g->n; i++) {
            struct dv *d = &g->pool[i];
            if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT)) ||
                !can_flow(d->flags, E(d->v), dt))
                continue;
            bool same = RK(d->v) == rank;
            for (int k = 0; same && k < rank; k++) same = T(d->v)->dims[k] == dims[k];
            int score = same ? 2 : CNT(d->v) == want_count ? 1 : 0;
            if (score > best) {
                best = score;
                n = 0;
            }
            if (score == best && score > 0) n++;
        }
        if (n) {
            int k = chance(g, 0.5) ? n - 1 : (int)rnd(g, n);
            for (int i = 0; i < g->n; i++) {
                struct dv *d = &g->pool[i];
                if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT)) ||
                    !can_flow(d->flags, E(d->v), dt))
                    continue;
                bool same = RK(d->v) == rank;
                for (int q = 0; same && q < rank; q++) same = T(d->v)->dims[q] == dims[q];
                int score = same ? 2 : CNT(d->v) == want_count ? 1 : 0;
                if (score == best && k-- == 0) return to_shape(g, convert(g, d->v, dt), rank, dims);
            }
        }
    }
    if (!is_cplx(dt) && chance(g, 0.92)) {
        /* any value that may flow into dt */
        int n = 0;
        for (int i = 0; i < g->n; i++) {
            struct dv *d = &g->pool[i];
            if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT))) continue;
            if (!can_flow(d->flags, E(d->v), dt)) continue;
            n++;
        }
        if (n) {
            int k;
            if (chance(g, 0.6)) { /* prefer unused */
                int nu = 0;
                for (int i = 0; i < g->n; i++) {
                    struct dv *d = &g->pool[i];
                    if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT)) ||
                        !can_flow(d->flags, E(d->v), dt) || d->uses)
                        continue;
                    nu++;
                }
                if (nu) {
                    k = nu - 1 - (int)rnd(g, nu < 6 ? nu : 6);
                    for (int i = 0; i < g->n; i++) {
                        struct dv *d = &g->pool[i];
                        if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT)) ||
                            !can_flow(d->flags, E(d->v), dt) || d->uses)
                            continue;
                        if (k-- == 0) {
                            struct graph_value *v = d->v;
                            if (CNT(v) > count_of(rank, dims)) v = to_shape(g, v, rank, dims);
                            v = convert(g, v, dt);
                            return to_shape(g, v, rank, dims);
                        }
                    }
                }
            }
            k = (int)rnd(g, n);
            for (int i = 0; i < g->n; i++) {
                struct dv *d = &g->pool[i];
                if (!is_tensor(d->v) || (d->flags & DV_NOVIEW) || (need_exact && (d->flags & DV_INEXACT))) continue;
                if (!can_flow(d->flags, E(d->v), dt)) continue;
                if (k-- == 0) {
                    struct graph_value *v = d->v;
                    if (CNT(v) > count_of(rank, dims)) v = to_shape(g, v, rank, dims);
                    v = convert(g, v, dt);
                    return to_shape(g, v, rank, dims);
                }
            }
        }
    }
    return fresh(g, dt, rank, dims);
}

static struct graph_value *want_like(struct gen *g, struct graph_value *like, bool need_exact)
{
    return want_type(g, E(like), RK(like), T(like)->dims, need_exact);
}

/* An exact integer scalar of type dt (an index, a predicate's source). */
static struct graph_value *want_scalar_int(struct gen *g, enum base_dtype dt, int64_t lo, int64_t hi)
{
    if (chance(g, 0.4)) return scalar_const(g, dt, (double)rrange(g, lo, hi));
    return want_type(g, dt, 0, NULL, true);
}

/* ------------------------------------------------------------------------ */
/* Op families                                                               */

static struct dv *pick_any(struct gen *g, bool need_exact)
{
    struct want w = {.need_exact = need_exact, .any_type = true, .rank = -1};
    return pick(g, &w);
}

/* Unary ops by element class: the op, and whether an inexact operand is
 * allowed: continuous and Lipschitz at the output's scale (the --check
 * tolerance is relative to the largest element of an output, so a rounding
 * difference near 0 that sqrt, rsqrt, cbrt, log or a division blows up is
 * not a bug). */
struct uop {
    enum graph_op_kind k;
    bool inexact_ok;
    bool makes_inexact; /* within an ulp of the interpreter (docs/compiler.md) */
    bool to_bool;
    int w;
};

static const struct uop k_float_unary[] = {
    {GRAPH_OP_ABS, true, false, false, 6},
    {GRAPH_OP_NEGATE, true, false, false, 8},
    {GRAPH_OP_SIGN, false, false, false, 2},
    {GRAPH_OP_FLOOR, false, false, false, 2},
    {GRAPH_OP_CEIL, false, false, false, 2},
    {GRAPH_OP_ROUND_NEAREST_EVEN, false, false, false, 1},
    {GRAPH_OP_ROUND_NEAREST_AFZ, false, false, false, 1},
    {GRAPH_OP_EXPONENTIAL, false, false, false, 8},
    {GRAPH_OP_EXPONENTIAL_MINUS_ONE, false, false, false, 2},
    {GRAPH_OP_LOG, false, false, false, 4},
    {GRAPH_OP_LOG_PLUS_ONE, false, false, false, 2},
    {GRAPH_OP_LOGISTIC, false, false, false, 5}, /* exp-like in its tail: tiny outputs, relative errors of x */
    {GRAPH_OP_SQRT, false, false, false, 4},
    {GRAPH_OP_RSQRT, false, false, false, 5},
    {GRAPH_OP_CBRT, false, true, false, 1},
    {GRAPH_OP_TANH, false, true, false, 6}, /* bounded: an input's rounding at a scale of 100 is not one at 1 */
    {GRAPH_OP_SINE, false, false, false, 2},
    {GRAPH_OP_COSINE, false, false, false, 2},
    {GRAPH_OP_TAN, false, false, false, 1},
    {GRAPH_OP_IS_FINITE, false, false, true, 1},
    {GRAPH_OP_CHLO_ERF, false, false, false, 2},
    {GRAPH_OP_CHLO_SQUARE, true, false, false, 1},
    {GRAPH_OP_CHLO_TAN, false, false, false, 1},
    {GRAPH_OP_CHLO_SINH, false, true, false, 1}, /* a decomposition: within its documented ulps */
    {GRAPH_OP_CHLO_COSH, false, false, false, 1},
    {GRAPH_OP_CHLO_ATAN, false, false, false, 1},
    {GRAPH_OP_CHLO_ASINH, false, true, false, 1}, /* a decomposition: within its documented ulps */
    {GRAPH_OP_CHLO_LGAMMA, false, true, false, 1}, /* a decomposition: within its documented ulps */
    {GRAPH_OP_CHLO_DIGAMMA, false, true, false, 1}, /* a decomposition: within its documented ulps */
    {GRAPH_OP_CHLO_ERFC, false, true, false, 1}, /* a decomposition: within its documented ulps */
    {GRAPH_OP_CHLO_IS_INF, false, false, true, 1},
    {GRAPH_OP_CHLO_IS_NEG_INF, false, false, true, 1},
    {GRAPH_OP_CHLO_IS_POS_INF, false, false, true, 1},
};
static const struct uop k_int_unary[] = {
    {GRAPH_OP_NEGATE, true, false, false, 3}, {GRAPH_OP_NOT, true, false, false, 3},
    {GRAPH_OP_POPCNT, true, false, false, 2}, {GRAPH_OP_COUNT_LEADING_ZEROS, true, false, false, 2},
    {GRAPH_OP_ABS, true, false, false, 3},    {GRAPH_OP_SIGN, true, false, false, 2}, /* signed only: the last two */
};

static bool g_unary(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    enum base_dtype dt = E(x);
    const struct uop *tab;
    int n;
    if (is_float(dt)) {
        tab = k_float_unary;
        n = (int)ARRAY_LEN(k_float_unary);
    } else if (is_int(dt)) {
        tab = k_int_unary;
        n = (int)ARRAY_LEN(k_int_unary) - (is_signed(dt) ? 0 : 2);
    } else if (is_bool(dt)) {
        struct graph_value *r = mk1(g, GRAPH_OP_NOT, &x, 1, T(x));
        push(g, r, join(g, &x, 1));
        return true;
    } else {
        return false;
    }
    int ws[64];
    for (int i = 0; i < n; i++) ws[i] = (d->flags & DV_INEXACT) && !tab[i].inexact_ok ? 0 : tab[i].w;
    const struct uop *u = &tab[pickw(g, ws, n)];
    if (ws[u - tab] == 0) return false;
    /* f64 and the 8-bit floats: keep to ops with an exact reference */
    const struct graph_type *rt = u->to_bool ? tt(g, BASE_DT_I1, RK(x), T(x)->dims) : T(x);
    struct graph_value *r = mk1(g, u->k, &x, 1, rt);
    bool bits_kept = u->k == GRAPH_OP_ABS || u->k == GRAPH_OP_NEGATE || u->to_bool;
    double abs_err = 0;
    (void)cc_decomposition_ulps(r->def, &abs_err);
    push(g, r, join(g, &x, 1) | (u->makes_inexact ? DV_INEXACT : 0) | (bits_kept ? 0 : DV_NANBITS) |
                   (abs_err > 0 ? DV_ABSERR : 0));
    return true;
}

struct bop {
    enum graph_op_kind k;
    bool inexact_ok;
    int w;
};
static const struct bop k_float_binary[] = {
    {GRAPH_OP_ADD, true, 12},     {GRAPH_OP_SUBTRACT, true, 6}, {GRAPH_OP_MULTIPLY, true, 12},
    {GRAPH_OP_DIVIDE, false, 4},  {GRAPH_OP_MAXIMUM, true, 5},  {GRAPH_OP_MINIMUM, true, 3},
    {GRAPH_OP_POWER, false, 1},   {GRAPH_OP_REMAINDER, false, 1}, {GRAPH_OP_ATAN2, false, 1},
    {GRAPH_OP_CHLO_NEXT_AFTER, false, 1},
};
static const struct bop k_int_binary[] = {
    {GRAPH_OP_ADD, true, 8},       {GRAPH_OP_SUBTRACT, true, 4},  {GRAPH_OP_MULTIPLY, true, 6},
    {GRAPH_OP_DIVIDE, true, 2},    {GRAPH_OP_REMAINDER, true, 2}, {GRAPH_OP_MAXIMUM, true, 3},
    {GRAPH_OP_MINIMUM, true, 3},   {GRAPH_OP_AND, true, 2},       {GRAPH_OP_OR, true, 2},
    {GRAPH_OP_XOR, true, 2},       {GRAPH_OP_SHIFT_LEFT, true, 2}, {GRAPH_OP_SHIFT_RIGHT_ARITHMETIC, true, 2},
    {GRAPH_OP_SHIFT_RIGHT_LOGICAL, true, 2}, {GRAPH_OP_POWER, true, 1}, {GRAPH_OP_CHLO_MULHI, true, 1},
};
static const struct bop k_bool_binary[] = {
    {GRAPH_OP_AND, true, 4}, {GRAPH_OP_OR, true, 4}, {GRAPH_OP_XOR, true, 2},
    {GRAPH_OP_MAXIMUM, true, 1}, {GRAPH_OP_MINIMUM, true, 1},
};

static bool g_binary(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d) return false;
    struct graph_value *x = d->v;
    enum base_dtype dt = E(x);
    const struct bop *tab;
    int n;
    if (is_float(dt)) {
        tab = k_float_binary;
        n = (int)ARRAY_LEN(k_float_binary);
    } else if (is_int(dt)) {
        tab = k_int_binary;
        n = (int)ARRAY_LEN(k_int_binary);
    } else if (is_bool(dt)) {
        tab = k_bool_binary;
        n = (int)ARRAY_LEN(k_bool_binary);
    } else {
        return false;
    }
    int ws[32];
    for (int i = 0; i < n; i++) ws[i] = (d->flags & DV_INEXACT) && !tab[i].inexact_ok ? 0 : tab[i].w;
    const struct bop *bo = &tab[pickw(g, ws, n)];
    if (!ws[bo - tab]) return false;
    struct graph_value *y = chance(g, 0.15) ? x : want_like(g, x, !bo->inexact_ok);
    struct graph_value *in[2] = {x, y};
    if (bo->k == GRAPH_OP_MULTIPLY && !product_ok(g, in, 2)) return false;
    if (chance(g, 0.5)) {
        in[0] = y;
        in[1] = x;
    }
    struct graph_value *r = mk1(g, bo->k, in, 2, T(x));
    /* max and min give the NaN operand itself; the rest make new NaNs */
    push(g, r, join(g, in, 2) | (bo->k == GRAPH_OP_MAXIMUM || bo->k == GRAPH_OP_MINIMUM ? 0 : DV_NANBITS));
    return true;
}

static bool g_compare(struct gen *g)
{
    struct dv *d = pick_any(g, true);
    if (!d) return false;
    struct graph_value *x = d->v;
    enum base_dtype dt = E(x);
    struct graph_value *in[2] = {x, chance(g, 0.2) ? x : want_like(g, x, true)};
    static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    struct graph_op *op = mk(g, GRAPH_OP_COMPARE, in, 2,
                             (const struct graph_type *[]){tt(g, BASE_DT_I1, RK(x), T(x)->dims)}, 1);
    attr(g, op, "comparison_direction", graph_builder_attr_comparison(g->b, dirs[rnd(g, 6)]));
    const char *ct = NULL;
    bool bits = !((flags_of(g, in[0]) | flags_of(g, in[1])) & DV_NANBITS);
    if (is_float(dt)) ct = bits && chance(g, 0.2) ? "TOTALORDER" : chance(g, 0.5) ? "FLOAT" : NULL;
    else if (is_bool(dt) || !is_signed(dt)) ct = chance(g, 0.5) ? "UNSIGNED" : NULL;
    else ct = chance(g, 0.5) ? "SIGNED" : NULL;
    if (ct) attr(g, op, "compare_type", graph_builder_attr_keyword(g->b, "stablehlo.comparison_type", ct));
    push(g, graph_builder_result(op, 0), join(g, in, 2));
    return true;
}

static bool g_select(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d) return false;
    struct graph_value *x = d->v;
    struct graph_value *p = chance(g, 0.2) ? want_type(g, BASE_DT_I1, 0, NULL, true)
                                           : want_type(g, BASE_DT_I1, RK(x), T(x)->dims, true);
    struct graph_value *y = want_like(g, x, false);
    struct graph_value *in[3] = {p, x, y};
    struct graph_value *r = mk1(g, GRAPH_OP_SELECT, in, 3, T(x));
    push(g, r, join(g, in, 3));
    return true;
}

static bool g_clamp(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .nonbool = true};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    struct graph_value *lo = chance(g, 0.6) ? want_type(g, E(x), 0, NULL, false) : want_like(g, x, false);
    struct graph_value *hi = chance(g, 0.6) ? want_type(g, E(x), 0, NULL, false) : want_like(g, x, false);
    struct graph_value *in[3] = {lo, x, hi};
    struct graph_value *r = mk1(g, GRAPH_OP_CLAMP, in, 3, T(x));
    push(g, r, join(g, in, 3));
    return true;
}

static bool g_convert(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d) return false;
    struct graph_value *x = d->v;
    enum base_dtype to = draw_dtype(g);
    if (!can_flow(d->flags, E(x), to) || to == E(x)) return false;
    struct graph_value *r = convert(g, x, to);
    return r != NULL;
}

/* ---- shapes */

static bool g_broadcast(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d || RK(d->v) >= MAXR) return false;
    struct graph_value *x = d->v;
    int r0 = RK(x);
    int rank = (int)rrange(g, r0, r0 + 2 > MAXR ? MAXR : r0 + 2);
    int64_t map[MAXR], dims[MAXR];
    /* the operand's dims at increasing (or, sometimes, any) positions */
    int64_t pos[MAXR];
    for (int i = 0; i < rank; i++) pos[i] = i;
    shuffle(g, pos, rank);
    for (int i = 0; i < r0; i++) map[i] = pos[i];
    bool sorted = chance(g, 0.8);
    if (sorted)
        for (int i = 0; i < r0; i++)
            for (int j = i + 1; j < r0; j++)
                if (map[j] < map[i]) {
                    int64_t t = map[i];
                    map[i] = map[j];
                    map[j] = t;
                }
    for (int i = 0; i < rank; i++) dims[i] = rrange(g, 1, 8);
    for (int i = 0; i < r0; i++) {
        int64_t s = T(x)->dims[i];
        dims[map[i]] = s == 1 && chance(g, 0.5) ? rrange(g, 1, 16) : s;
    }
    if (count_of(rank, dims) > g->max_elems * 2) return false;
    if (chance(g, 0.1) && sorted) { /* the legacy broadcast: new dims in front */
        int extra = rank - r0;
        int64_t sizes[MAXR];
        for (int i = 0; i < extra; i++) sizes[i] = rrange(g, 1, 6);
        int64_t nd[MAXR];
        for (int i = 0; i < extra; i++) nd[i] = sizes[i];
        for (int i = 0; i < r0; i++) nd[extra + i] = T(x)->dims[i];
        struct graph_op *op = mk(g, GRAPH_OP_BROADCAST, &x, 1,
                                 (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, nd)}, 1);
        attr(g, op, "broadcast_sizes", dense(g, sizes, extra));
        push(g, graph_builder_result(op, 0), join(g, &x, 1));
        return true;
    }
    broadcast_in_dim(g, x, rank, dims, map);
    return true;
}

/* A random factorisation of v's count into a shape. */
static bool g_reshape(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d) return false;
    struct graph_value *x = d->v;
    int64_t c = CNT(x);
    int64_t dims[MAXR];
    int rank = 0;
    int target = draw_rank(g);
    if (c == 0) {
        rank = target ? target : 1;
        for (int i = 0; i < rank; i++) dims[i] = rrange(g, 1, 4);
        dims[rnd(g, rank)] = 0;
    } else {
        int64_t rest = c;
        while (rank < target - 1 && rest > 1) {
            int64_t f[64];
            int nf = 0;
            for (int64_t k = 1; k <= rest && nf < 64; k++)
                if (rest % k == 0) f[nf++] = k;
            int64_t k = f[rnd(g, nf)];
            dims[rank++] = k;
            rest /= k;
        }
        dims[rank++] = rest;
        shuffle(g, dims, rank);
        if (chance(g, 0.2) && rank < MAXR) { /* a unit dim */
            int at = (int)rnd(g, rank + 1);
            memmove(dims + at + 1, dims + at, (size_t)(rank - at) * sizeof *dims);
            dims[at] = 1;
            rank++;
        }
    }
    reshape(g, x, rank, dims);
    return true;
}

static bool g_transpose(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 2};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    int64_t perm[MAXR], dims[MAXR];
    for (int i = 0; i < rank; i++) perm[i] = i;
    shuffle(g, perm, rank);
    for (int i = 0; i < rank; i++) dims[i] = T(x)->dims[perm[i]];
    struct graph_op *op = mk(g, GRAPH_OP_TRANSPOSE, &x, 1,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
    attr(g, op, "permutation", dense(g, perm, rank));
    push(g, graph_builder_result(op, 0), join(g, &x, 1));
    return true;
}

static bool g_slice(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    int64_t s[MAXR], l[MAXR], k[MAXR], dims[MAXR];
    for (int i = 0; i < rank; i++) {
        int64_t n = T(x)->dims[i];
        s[i] = chance(g, 0.5) ? 0 : rnd(g, n + 1);
        l[i] = chance(g, 0.4) ? n : rrange(g, s[i], n);
        k[i] = chance(g, 0.7) ? 1 : rrange(g, 1, 3);
        dims[i] = l[i] > s[i] ? (l[i] - s[i] + k[i] - 1) / k[i] : 0;
    }
    struct graph_op *op = mk(g, GRAPH_OP_SLICE, &x, 1,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
    attr(g, op, "start_indices", dense(g, s, rank));
    attr(g, op, "limit_indices", dense(g, l, rank));
    attr(g, op, "strides", dense(g, k, rank));
    push(g, graph_builder_result(op, 0), join(g, &x, 1));
    return true;
}

static bool g_concat(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x), dim = (int)rnd(g, rank), n = (int)rrange(g, 2, 4);
    struct graph_value *in[4];
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || chance(g, 0.2)) {
            in[i] = x;
        } else {
            int64_t dims[MAXR];
            memcpy(dims, T(x)->dims, (size_t)rank * sizeof *dims);
            dims[dim] = rlog(g, 1, 64);
            in[i] = want_type(g, E(x), rank, dims, false);
        }
        total += T(in[i])->dims[dim];
    }
    int64_t dims[MAXR];
    memcpy(dims, T(x)->dims, (size_t)rank * sizeof *dims);
    dims[dim] = total;
    struct graph_op *op = mk(g, GRAPH_OP_CONCATENATE, in, n,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
    attr(g, op, "dimension", aint(g, dim));
    push(g, graph_builder_result(op, 0), join(g, in, n));
    return true;
}

static bool g_pad(struct gen *g)
{
    struct dv *d = pick_any(g, false);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    int64_t lo[MAXR], hi[MAXR], in[MAXR], dims[MAXR];
    for (int i = 0; i < rank; i++) {
        int64_t n = T(x)->dims[i];
        in[i] = chance(g, 0.15) ? rrange(g, 1, 2) : 0;
        int64_t span = n > 0 ? n + (n - 1) * in[i] : 0;
        lo[i] = chance(g, 0.5) ? rrange(g, 0, 3) : chance(g, 0.5) ? 0 : -rnd(g, span / 2 + 1);
        hi[i] = chance(g, 0.5) ? rrange(g, 0, 3) : chance(g, 0.5) ? 0 : -rnd(g, span / 2 + 1);
        if (span + lo[i] + hi[i] < 0) hi[i] = -(span + lo[i]);
        dims[i] = span + lo[i] + hi[i];
    }
    if (count_of(rank, dims) > 2 * g->max_elems) return false;
    /* an exact padding value: a rounded scalar (one element of a matmul
     * that cancels) would fill most of the result, the tolerance's scale
     * then its own (docs/fuzzing.md, "The tolerance's scale") */
    struct graph_value *pv = want_type(g, E(x), 0, NULL, true);
    struct graph_value *ins[2] = {x, pv};
    struct graph_op *op = mk(g, GRAPH_OP_PAD, ins, 2,
                             (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
    attr(g, op, "edge_padding_low", dense(g, lo, rank));
    attr(g, op, "edge_padding_high", dense(g, hi, rank));
    attr(g, op, "interior_padding", dense(g, in, rank));
    push(g, graph_builder_result(op, 0), join(g, ins, 2));
    return true;
}

static bool g_reverse(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int64_t dims[MAXR];
    int n = 0;
    for (int i = 0; i < RK(x); i++)
        if (chance(g, 0.5)) dims[n++] = i;
    if (!n) dims[n++] = rnd(g, RK(x));
    struct graph_op *op = mk(g, GRAPH_OP_REVERSE, &x, 1, (const struct graph_type *[]){T(x)}, 1);
    attr(g, op, "dimensions", dense(g, dims, n));
    push(g, graph_builder_result(op, 0), join(g, &x, 1));
    return true;
}

static bool g_fresh(struct gen *g)
{
    int64_t dims[MAXR];
    int rank = draw_shape(g, dims);
    fresh(g, draw_dtype(g), rank, dims);
    return true;
}

/* ---- dot_general and convolution */

struct dot_types {
    enum base_dtype l, r, out;
    int w;
};
static const struct dot_types k_dot_types[] = {
    {BASE_DT_F32, BASE_DT_F32, BASE_DT_F32, 35},       {BASE_DT_BF16, BASE_DT_BF16, BASE_DT_BF16, 20},
    {BASE_DT_BF16, BASE_DT_BF16, BASE_DT_F32, 15},     {BASE_DT_F16, BASE_DT_F16, BASE_DT_F16, 4},
    {BASE_DT_F16, BASE_DT_F16, BASE_DT_F32, 3},        {BASE_DT_SI8, BASE_DT_SI8, BASE_DT_SI32, 6},
    {BASE_DT_SI32, BASE_DT_SI32, BASE_DT_SI32, 4},     {BASE_DT_F8E4M3FN, BASE_DT_F8E4M3FN, BASE_DT_F32, 2},
    {BASE_DT_F64, BASE_DT_F64, BASE_DT_F64, 2},
    {BASE_DT_UI8, BASE_DT_UI8, BASE_DT_UI32, 2},       {BASE_DT_SI16, BASE_DT_SI16, BASE_DT_SI64, 1},
    {BASE_DT_F8E5M2, BASE_DT_F8E5M2, BASE_DT_BF16, 1},
};

static const struct dot_types *draw_dot_types(struct gen *g)
{
    int w[ARRAY_LEN(k_dot_types)];
    for (size_t i = 0; i < ARRAY_LEN(k_dot_types); i++) w[i] = k_dot_types[i].w;
    return &k_dot_types[pickw(g, w, (int)ARRAY_LEN(w))];
}

/* Whether a matmul of these types may differ from the interpreter by
 * rounding (f32 and f16 products on a TPU), and whether its operands must be
 * exact (the result is finer than they are, or integers mix with floats). */
static void dot_exactness(const struct dot_types *t, bool *makes_inexact, bool *need_exact)
{
    bool fl = is_float(t->l), fr = is_float(t->r);
    *makes_inexact = (fl && man_bits(t->l) > 7 && t->l != BASE_DT_F64) ||
                     (fr && man_bits(t->r) > 7 && t->r != BASE_DT_F64) || fl != fr;
    *need_exact = !is_float(t->out) || (fl && man_bits(t->out) > man_bits(t->l)) ||
                  (fr && man_bits(t->out) > man_bits(t->r)) || fl != fr;
}

/* Whether a rounding matmul may take these operands: none of more than a
 * few elements all alike (DV_UNIFORM). */
static bool uniform_ok(struct gen *g, struct graph_value *const *in, int n)
{
    for (int i = 0; i < n; i++)
        if ((flags_of(g, in[i]) & DV_UNIFORM) && CNT(in[i]) > 4) return false;
    return true;
}

static void precision(struct gen *g, struct graph_op *op)
{
    if (chance(g, 0.7)) return;
    static const char *const p[] = {"DEFAULT", "HIGH", "HIGHEST"};
    const char *a = p[rnd(g, 3)], *b = chance(g, 0.7) ? a : p[rnd(g, 3)];
    const struct graph_attr *items[2] = {graph_builder_attr_keyword(g->b, "stablehlo.precision", a),
                                         graph_builder_attr_keyword(g->b, "stablehlo.precision", b)};
    attr(g, op, "precision_config", graph_builder_attr_array(g->b, items, 2));
}

static bool g_dot(struct gen *g)
{
    const struct dot_types *ty = draw_dot_types(g);
    bool makes_inexact, need_exact;
    dot_exactness(ty, &makes_inexact, &need_exact);
    if (chance(g, 0.1)) { /* the legacy dot: matrix or vector */
        int64_t m = rlog(g, 1, 128), k = rlog(g, 1, 256), n = rlog(g, 1, 128);
        int lr = chance(g, 0.7) ? 2 : 1, rr = chance(g, 0.7) ? 2 : 1;
        int64_t ld[2] = {m, k}, rd[2] = {k, n};
        if (lr == 1) ld[0] = k;
        struct graph_value *in[2] = {want_type(g, ty->l, lr, ld, need_exact), want_type(g, ty->r, rr, rd, need_exact)};
        if ((makes_inexact && !uniform_ok(g, in, 2)) || !product_ok(g, in, 2)) return false;
        int64_t od[2];
        int orank = 0;
        if (lr == 2) od[orank++] = m;
        if (rr == 2) od[orank++] = n;
        struct graph_op *op = mk(g, GRAPH_OP_DOT, in, 2, (const struct graph_type *[]){tt(g, ty->out, orank, od)}, 1);
        precision(g, op);
        push(g, graph_builder_result(op, 0), join(g, in, 2) | (makes_inexact ? DV_INEXACT : 0) | DV_NANBITS);
        return true;
    }
    static const int wb[] = {55, 35, 10}, wc[] = {10, 75, 15}, wf[] = {20, 60, 20};
    int nb = pickw(g, wb, 3), nc = pickw(g, wc, 3), nl = pickw(g, wf, 3), nr = pickw(g, wf, 3);
    int64_t bs[2], cs[2], ls[2], rs[2];
    for (int i = 0; i < nb; i++) bs[i] = rlog(g, 1, 8);
    for (int i = 0; i < nc; i++) cs[i] = rlog(g, 1, 256);
    for (int i = 0; i < nl; i++) ls[i] = rlog(g, 1, 128);
    for (int i = 0; i < nr; i++) rs[i] = rlog(g, 1, 128);
    /* keep operands and result within the graph's size */
    for (int it = 0; it < 40; it++) {
        int64_t b = count_of(nb, bs), c = count_of(nc, cs), l = count_of(nl, ls), r = count_of(nr, rs);
        int64_t big = b * (c * (l > r ? l : r) > l * r ? c * (l > r ? l : r) : l * r);
        if (big <= g->max_elems) break;
        int64_t *cand[8] = {NULL};
        int n = 0;
        for (int i = 0; i < nc; i++) cand[n++] = &cs[i];
        for (int i = 0; i < nl; i++) cand[n++] = &ls[i];
        for (int i = 0; i < nr; i++) cand[n++] = &rs[i];
        for (int i = 0; i < nb; i++) cand[n++] = &bs[i];
        if (!n) break;
        int64_t *mx = cand[0];
        for (int i = 1; i < n; i++)
            if (*cand[i] > *mx) mx = cand[i];
        *mx = (*mx + 1) / 2;
    }
    /* operand layouts: roles in a random order */
    int lrank = nb + nc + nl, rrank = nb + nc + nr;
    int64_t lp[MAXR], rp[MAXR]; /* position -> role index */
    for (int i = 0; i < lrank; i++) lp[i] = i;
    for (int i = 0; i < rrank; i++) rp[i] = i;
    if (chance(g, 0.6)) shuffle(g, lp, lrank);
    if (chance(g, 0.6)) shuffle(g, rp, rrank);
    int64_t ld[MAXR], rd[MAXR], lb[2], rb[2], lc[2], rc[2], od[MAXR];
    int orank = 0;
    /* role r of lhs: [0, nb) batch, [nb, nb + nc) contracting, then free */
    for (int p = 0; p < lrank; p++) {
        int64_t role = lp[p];
        ld[p] = role < nb ? bs[role] : role < nb + nc ? cs[role - nb] : ls[role - nb - nc];
        if (role < nb) lb[role] = p;
        else if (role < nb + nc) lc[role - nb] = p;
    }
    for (int p = 0; p < rrank; p++) {
        int64_t role = rp[p];
        rd[p] = role < nb ? bs[role] : role < nb + nc ? cs[role - nb] : rs[role - nb - nc];
        if (role < nb) rb[role] = p;
        else if (role < nb + nc) rc[role - nb] = p;
    }
    for (int i = 0; i < nb; i++) od[orank++] = bs[i];
    for (int p = 0; p < lrank; p++)
        if (lp[p] >= nb + nc) od[orank++] = ld[p];
    for (int p = 0; p < rrank; p++)
        if (rp[p] >= nb + nc) od[orank++] = rd[p];
    if (lrank > MAXR || rrank > MAXR || orank > MAXR) return false;
    struct graph_value *in[2] = {want_type(g, ty->l, lrank, ld, need_exact), want_type(g, ty->r, rrank, rd, need_exact)};
    if ((makes_inexact && !uniform_ok(g, in, 2)) || !product_ok(g, in, 2)) return false;
    struct graph_op *op = mk(g, GRAPH_OP_DOT_GENERAL, in, 2, (const struct graph_type *[]){tt(g, ty->out, orank, od)}, 1);
    attr(g, op, "dot_dimension_numbers", graph_builder_attr_dot_dims(g->b, lb, rb, nb, lc, rc, nc));
    precision(g, op);
    push(g, graph_builder_result(op, 0), join(g, in, 2) | (makes_inexact ? DV_INEXACT : 0) | DV_NANBITS);
    return true;
}

static const struct graph_attr *conv_dims(struct gen *g, int64_t ib, int64_t ifd, const int64_t *isp, int64_t ki,
                                          int64_t ko, const int64_t *ksp, int64_t ob, int64_t of, const int64_t *osp,
                                          int nsp)
{
    static const char *const names[9] = {"input_batch_dimension",  "input_feature_dimension",
                                         "input_spatial_dimensions", "kernel_input_feature_dimension",
                                         "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                                         "output_batch_dimension", "output_feature_dimension",
                                         "output_spatial_dimensions"};
    const struct graph_attr *v[9] = {aint(g, ib), aint(g, ifd), dense(g, isp, nsp), aint(g, ki), aint(g, ko),
                                     dense(g, ksp, nsp), aint(g, ob), aint(g, of), dense(g, osp, nsp)};
    return graph_builder_attr_dict(g->b, "stablehlo.conv", names, v, 9);
}

static bool g_conv(struct gen *g)
{
    static const int wsp[] = {25, 65, 10};
    int nsp = pickw(g, wsp, 3) + 1, rank = nsp + 2;
    const struct dot_types *ty;
    do ty = draw_dot_types(g);
    while (ty->l != ty->r);
    bool makes_inexact, need_exact;
    dot_exactness(ty, &makes_inexact, &need_exact);
    int64_t N = rlog(g, 1, 4), Ci = rlog(g, 1, 64), Co = rlog(g, 1, 64);
    int64_t G = 1, Bg = 1;
    if (chance(g, 0.15)) { /* feature groups: depthwise or grouped */
        if (chance(g, 0.5)) {
            G = Ci;
            Co = Ci * rrange(g, 1, 2);
        } else {
            G = rrange(g, 2, 4);
            Ci = G * rlog(g, 1, 16);
            Co = G * rlog(g, 1, 16);
        }
    } else if (chance(g, 0.05)) {
        Bg = rrange(g, 2, 3);
        N = Bg * rrange(g, 1, 2);
        Co = Bg * rlog(g, 1, 16);
    }
    int64_t in_sp[3], w_sp[3], out_sp[3], stride[3], lo[3], hi[3], ldil[3], rdil[3], rev[3];
    int64_t spatial_budget = g->max_elems / (N * Ci > 0 ? N * Ci : 1);
    for (int i = 0; i < nsp; i++) {
        in_sp[i] = rlog(g, 1, nsp == 1 ? 128 : nsp == 2 ? 32 : 8);
        w_sp[i] = rrange(g, 1, 5);
        stride[i] = chance(g, 0.7) ? 1 : rrange(g, 2, 3);
        lo[i] = chance(g, 0.5) ? 0 : rrange(g, -1, 2);
        hi[i] = chance(g, 0.5) ? 0 : rrange(g, -1, 2);
        ldil[i] = chance(g, 0.85) ? 1 : 2;
        rdil[i] = chance(g, 0.85) ? 1 : 2;
        rev[i] = chance(g, 0.08);
    }
    fit(nsp, in_sp, spatial_budget > 1 ? spatial_budget : 1);
    for (int i = 0; i < nsp; i++) {
        int64_t span = (in_sp[i] - 1) * ldil[i] + 1 + lo[i] + hi[i];
        int64_t win = (w_sp[i] - 1) * rdil[i] + 1;
        if (in_sp[i] == 0) span = lo[i] + hi[i];
        if (span < win) hi[i] += win - span;
        span = (in_sp[i] > 0 ? (in_sp[i] - 1) * ldil[i] + 1 : 0) + lo[i] + hi[i];
        out_sp[i] = (span - win) / stride[i] + 1;
    }
    if (count_of(nsp, out_sp) * N / Bg * Co > 2 * g->max_elems) return false;
    /* layouts */
    int64_t il[MAXR], kl[MAXR], ol[MAXR]; /* position -> role: 0 batch/in-feature... */
    for (int i = 0; i < rank; i++) il[i] = kl[i] = ol[i] = i;
    int layout = (int)rnd(g, 3);
    if (layout == 0) { /* NHWC / HWIO / NHWC: roles 0 batch, 1 feature, 2.. spatial */
        il[0] = 0;
        for (int i = 0; i < nsp; i++) il[1 + i] = 2 + i;
        il[rank - 1] = 1;
        for (int i = 0; i < nsp; i++) kl[i] = 2 + i;
        kl[nsp] = 0; /* i */
        kl[nsp + 1] = 1; /* o */
        memcpy(ol, il, sizeof il);
    } else if (layout == 2) {
        shuffle(g, il, rank);
        shuffle(g, kl, rank);
        shuffle(g, ol, rank);
    } /* layout 1: NCHW / OIHW (kernel roles: 0 i, 1 o -> want o first) */
    if (layout == 1) {
        kl[0] = 1;
        kl[1] = 0;
    }
    int64_t idims[MAXR], kdims[MAXR], odims[MAXR], isp[3], ksp[3], osp[3], ib = 0, ifd = 0, ki = 0, ko = 0, ob = 0, of = 0;
    for (int p = 0; p < rank; p++) {
        int64_t r = il[p];
        if (r == 0) {
            ib = p;
            idims[p] = N;
        } else if (r == 1) {
            ifd = p;
            idims[p] = Ci;
        } else {
            isp[r - 2] = p;
            idims[p] = in_sp[r - 2];
        }
        r = kl[p];
        if (r == 0) {
            ki = p;
            kdims[p] = Ci / G;
        } else if (r == 1) {
            ko = p;
            kdims[p] = Co;
        } else {
            ksp[r - 2] = p;
            kdims[p] = w_sp[r - 2];
        }
        r = ol[p];
        if (r == 0) {
            ob = p;
            odims[p] = N / Bg;
        } else if (r == 1) {
            of = p;
            odims[p] = Co;
        } else {
            osp[r - 2] = p;
            odims[p] = out_sp[r - 2];
        }
    }
    struct graph_value *in[2] = {want_type(g, ty->l, rank, idims, need_exact),
                                 want_type(g, ty->r, rank, kdims, need_exact)};
    if ((makes_inexact && !uniform_ok(g, in, 2)) || !product_ok(g, in, 2)) return false;
    struct graph_op *op =
        mk(g, GRAPH_OP_CONVOLUTION, in, 2, (const struct graph_type *[]){tt(g, ty->out, rank, odims)}, 1);
    attr(g, op, "dimension_numbers", conv_dims(g, ib, ifd, isp, ki, ko, ksp, ob, of, osp, nsp));
    attr(g, op, "feature_group_count", aint(g, G));
    attr(g, op, "batch_group_count", aint(g, Bg));
    bool any_stride = false, any_pad = false, any_ld = false, any_rd = false, any_rev = false;
    for (int i = 0; i < nsp; i++) {
        any_stride |= stride[i] != 1;
        any_pad |= lo[i] || hi[i];
        any_ld |= ldil[i] != 1;
        any_rd |= rdil[i] != 1;
        any_rev |= rev[i] != 0;
    }
    if (any_stride || chance(g, 0.3)) attr(g, op, "window_strides", dense(g, stride, nsp));
    if (any_pad || chance(g, 0.3)) {
        int64_t pads[6];
        for (int i = 0; i < nsp; i++) {
            pads[2 * i] = lo[i];
            pads[2 * i + 1] = hi[i];
        }
        attr(g, op, "padding", graph_builder_attr_elements_i64(g->b, pads, 2, (const int64_t[]){nsp, 2}));
    }
    if (any_ld) attr(g, op, "lhs_dilation", dense(g, ldil, nsp));
    if (any_rd) attr(g, op, "rhs_dilation", dense(g, rdil, nsp));
    if (any_rev) attr(g, op, "window_reversal", graph_builder_attr_dense_array(g->b, BASE_DT_I1, rev, nsp));
    precision(g, op);
    push(g, graph_builder_result(op, 0), join(g, in, 2) | (makes_inexact ? DV_INEXACT : 0) | DV_NANBITS);
    return true;
}

/* ---- reductions */

/* A body of n accumulators: acc_i = kind_i(acc_i, x_i). */
static void simple_body(struct gen *g, struct graph_op *op, int n, const enum base_dtype *dt,
                        const enum graph_op_kind *kind, bool replace)
{
    const struct graph_type *ts[16] = {NULL};
    for (int i = 0; i < n; i++) ts[i] = ts[n + i] = st(g, dt[i]);
    struct graph_value *a[16];
    if (!graph_builder_region(g->b, op, ts, 2 * n, a)) return;
    struct graph_value *r[8];
    for (int i = 0; i < n; i++) {
        if (replace) {
            r[i] = a[n + i];
            continue;
        }
        struct graph_value *ab[2] = {a[i], a[n + i]};
        r[i] = graph_builder_op1(g->b, kind[i], ab, 2, ts[i]);
    }
    graph_builder_return(g->b, r, n);
}

static enum graph_op_kind draw_reducer_any(struct gen *g, enum base_dtype dt, int64_t n_reduced)
{
    if (is_bool(dt)) {
        static const enum graph_op_kind k[] = {GRAPH_OP_AND, GRAPH_OP_OR, GRAPH_OP_XOR, GRAPH_OP_MAXIMUM};
        return k[rnd(g, 4)];
    }
    if (is_float(dt) || is_cplx(dt)) {
        static const enum graph_op_kind k[] = {GRAPH_OP_ADD, GRAPH_OP_MAXIMUM, GRAPH_OP_MINIMUM, GRAPH_OP_MULTIPLY};
        static const int w[] = {50, 25, 12, 5};
        enum graph_op_kind r = k[pickw(g, w, 4)];
        /* a product below f32 rounds per chunk on chip, per step in the
         * interpreter: one side overflows (or reaches 0) where the other
         * does not, inf against a finite value, which no tolerance covers */
        if (r == GRAPH_OP_MULTIPLY && (n_reduced > 16 || (is_float(dt) && base_dtype_bits(dt) < 32))) r = GRAPH_OP_ADD;
        if (is_cplx(dt) && r != GRAPH_OP_MULTIPLY) r = GRAPH_OP_ADD;
        return r;
    }
    static const enum graph_op_kind k[] = {GRAPH_OP_ADD,     GRAPH_OP_MAXIMUM, GRAPH_OP_MINIMUM, GRAPH_OP_MULTIPLY,
                                           GRAPH_OP_AND, GRAPH_OP_OR,      GRAPH_OP_XOR};
    static const int w[] = {40, 15, 10, 5, 4, 4, 4};
    return k[pickw(g, w, 7)];
}

/* A reducer for x's elements: not a product of a DV_ABSERR value. */
static enum graph_op_kind draw_reducer(struct gen *g, struct graph_value *x, int64_t n_reduced)
{
    enum graph_op_kind k = draw_reducer_any(g, E(x), n_reduced);
    return k == GRAPH_OP_MULTIPLY && !product_ok(g, &x, 1) ? GRAPH_OP_MAXIMUM : k;
}

static bool sum_inexact(enum graph_op_kind k, enum base_dtype dt)
{
    return is_float(dt) && base_dtype_bits(dt) < 32 && (k == GRAPH_OP_ADD || k == GRAPH_OP_MULTIPLY);
}

/* A reduction whose order is the chip's own may leave a NaN of any bits: a
 * sum or product makes new NaNs, and max / min over several NaNs (a bitcast
 * makes NaNs of many payloads) keep whichever comes first. */
static unsigned reducer_nanbits(enum graph_op_kind k)
{
    return k == GRAPH_OP_ADD || k == GRAPH_OP_MULTIPLY || k == GRAPH_OP_MAXIMUM || k == GRAPH_OP_MINIMUM ? DV_NANBITS
                                                                                                         : 0;
}

static struct graph_value *init_value(struct gen *g, enum graph_op_kind k, enum base_dtype dt)
{
    if (chance(g, 0.8)) return scalar_const(g, dt, identity(k, dt));
    return want_type(g, dt, 0, NULL, false);
}

/* argmax / argmin over one dim, as jnp.argmax writes it. */
static bool g_argmax(struct gen *g, struct graph_value *x)
{
    int rank = RK(x);
    int64_t dim = rnd(g, rank);
    enum base_dtype it = chance(g, 0.8) ? BASE_DT_SI32 : BASE_DT_SI64;
    const struct graph_type *ixt = tt(g, it, rank, T(x)->dims);
    struct graph_op *io = mk(g, GRAPH_OP_IOTA, NULL, 0, &ixt, 1);
    attr(g, io, "iota_dimension", aint(g, dim));
    struct graph_value *idx = graph_builder_result(io, 0);
    push(g, idx, 0);
    bool is_max = chance(g, 0.6);
    struct graph_value *init_v = scalar_const(g, E(x), identity(is_max ? GRAPH_OP_MAXIMUM : GRAPH_OP_MINIMUM, E(x)));
    struct graph_value *init_i = scalar_const(g, it, 0);
    int64_t od[MAXR];
    int orank = 0;
    for (int i = 0; i < rank; i++)
        if (i != dim) od[orank++] = T(x)->dims[i];
    struct graph_value *in[4] = {x, idx, init_v, init_i};
    struct graph_op *op =
        mk(g, GRAPH_OP_REDUCE, in, 4, (const struct graph_type *[]){tt(g, E(x), orank, od), tt(g, it, orank, od)}, 2);
    attr(g, op, "dimensions", dense(g, &dim, 1));
    const struct graph_type *sv = st(g, E(x)), *si = st(g, it), *sb = st(g, BASE_DT_I1);
    struct graph_value *a[4];
    if (!graph_builder_region(g->b, op, (const struct graph_type *[]){sv, si, sv, si}, 4, a)) return false;
    /* a0, i0: the accumulator; a1 (=a[1]) ... the body args are (acc_v, acc_i, x_v, x_i) */
    struct graph_value *av = a[0], *ai = a[1], *bv = a[2], *bi = a[3];
    struct graph_op *c1 = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){av, bv}, 2, &sb, 1);
    graph_builder_set_attr(g->b, c1, "comparison_direction", graph_builder_attr_comparison(g->b, is_max ? "GT" : "LT"));
    struct graph_op *c2 = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){av, av}, 2, &sb, 1);
    graph_builder_set_attr(g->b, c2, "comparison_direction", graph_builder_attr_comparison(g->b, "NE"));
    struct graph_value *pick_a =
        graph_builder_op1(g->b, GRAPH_OP_OR, (struct graph_value *[]){graph_builder_result(c1, 0), graph_builder_result(c2, 0)}, 2, sb);
    struct graph_op *c3 = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){av, bv}, 2, &sb, 1);
    graph_builder_set_attr(g->b, c3, "comparison_direction", graph_builder_attr_comparison(g->b, "EQ"));
    struct graph_op *c4 = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){ai, bi}, 2, &sb, 1);
    graph_builder_set_attr(g->b, c4, "comparison_direction", graph_builder_attr_comparison(g->b, "LT"));
    struct graph_value *tie = graph_builder_op1(
        g->b, GRAPH_OP_AND, (struct graph_value *[]){graph_builder_result(c3, 0), graph_builder_result(c4, 0)}, 2, sb);
    struct graph_value *sel = graph_builder_op1(g->b, GRAPH_OP_OR, (struct graph_value *[]){pick_a, tie}, 2, sb);
    struct graph_value *rv = graph_builder_op1(g->b, GRAPH_OP_SELECT, (struct graph_value *[]){sel, av, bv}, 3, sv);
    struct graph_value *ri = graph_builder_op1(g->b, GRAPH_OP_SELECT, (struct graph_value *[]){sel, ai, bi}, 3, si);
    graph_builder_return(g->b, (struct graph_value *[]){rv, ri}, 2);
    unsigned f = join(g, &x, 1);
    push(g, graph_builder_result(op, 0), f);
    push(g, graph_builder_result(op, 1), f);
    return true;
}

static bool g_reduce(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    if (is_float(E(x)) && !(d->flags & DV_INEXACT) && chance(g, 0.15)) return g_argmax(g, x);
    int64_t dims[MAXR];
    int nd = 0;
    double pall = chance(g, 0.2) ? 1.0 : 0.4;
    for (int i = 0; i < rank; i++)
        if (chance(g, pall)) dims[nd++] = i;
    if (!nd && chance(g, 0.8)) dims[nd++] = rnd(g, rank);
    int64_t n_red = 1;
    for (int i = 0; i < nd; i++) n_red *= T(x)->dims[dims[i]];
    int n = chance(g, 0.1) ? 2 : 1;
    struct graph_value *in[4];
    enum base_dtype dt[2];
    enum graph_op_kind k[2];
    in[0] = x;
    if (n == 2) in[1] = want_type(g, draw_dtype(g), rank, T(x)->dims, false);
    if (n == 2 && (flags_of(g, in[1]) & DV_NOVIEW)) n = 1;
    unsigned f = 0;
    for (int i = 0; i < n; i++) {
        dt[i] = E(in[i]);
        k[i] = draw_reducer(g, in[i], n_red);
        if (sum_inexact(k[i], dt[i])) {
            /* a bf16/f16 sum the chip rounds per chunk, the interpreter per
             * step: the --check tolerance (2 sqrt(R) eps of the result's
             * scale) assumes no cancellation and a short sum (docs/fuzzing.md) */
            if (n_red > 64) k[i] = GRAPH_OP_MAXIMUM;
            else if (k[i] == GRAPH_OP_ADD) {
                unsigned fl = flags_of(g, in[i]);
                in[i] = mk1(g, GRAPH_OP_ABS, &in[i], 1, T(in[i]));
                push(g, in[i], fl);
            }
        } else if (k[i] == GRAPH_OP_ADD && is_float(dt[i]) && (flags_of(g, in[i]) & DV_INEXACT) &&
                   (flags_of(g, in[i]) & DV_UNIFORM) && n_red > 4) {
            /* like values rounded alike: their errors add up coherently, n
             * ulps rather than the tolerance's sqrt(n) (as for matmuls) */
            k[i] = GRAPH_OP_MAXIMUM;
        } else if (k[i] == GRAPH_OP_ADD && is_float(dt[i]) && (flags_of(g, in[i]) & DV_INEXACT)) {
            /* a sum of rounded values (a TPU's f32 matmul) that cancels is
             * judged at the scale of its result, not of its terms: keep the
             * terms non-negative */
            unsigned fl = flags_of(g, in[i]);
            in[i] = mk1(g, GRAPH_OP_ABS, &in[i], 1, T(in[i]));
            push(g, in[i], fl);
        }
        in[n + i] = sum_inexact(k[i], dt[i]) ? scalar_const(g, dt[i], identity(k[i], dt[i])) : init_value(g, k[i], dt[i]);
        if (sum_inexact(k[i], dt[i])) f |= DV_INEXACT;
    }
    int64_t od[MAXR];
    int orank = 0;
    for (int i = 0; i < rank; i++) {
        bool red = false;
        for (int j = 0; j < nd; j++) red |= dims[j] == i;
        if (!red) od[orank++] = T(x)->dims[i];
    }
    const struct graph_type *rt[2] = {tt(g, dt[0], orank, od), n == 2 ? tt(g, dt[1], orank, od) : NULL};
    struct graph_op *op = mk(g, GRAPH_OP_REDUCE, in, 2 * n, rt, n);
    attr(g, op, "dimensions", dense(g, dims, nd));
    simple_body(g, op, n, dt, k, false);
    f |= join(g, in, 2 * n);
    for (int i = 0; i < n; i++) f |= reducer_nanbits(k[i]);
    for (int i = 0; i < n; i++) push(g, graph_builder_result(op, i), f);
    return true;
}

static bool g_reduce_window(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    int64_t win[MAXR], str[MAXR], bd[MAXR], wd[MAXR], pad[2 * MAXR], od[MAXR];
    bool any_bd = false, any_wd = false, any_pad = false, any_str = false;
    for (int i = 0; i < rank; i++) {
        int64_t n = T(x)->dims[i];
        win[i] = chance(g, 0.4) ? 1 : rrange(g, 1, n < 4 ? (n > 0 ? n : 1) : 4);
        str[i] = chance(g, 0.6) ? 1 : rrange(g, 1, win[i] > 1 ? win[i] : 2);
        bd[i] = chance(g, 0.05) ? 2 : 1;
        wd[i] = chance(g, 0.05) ? 2 : 1;
        pad[2 * i] = chance(g, 0.8) ? 0 : rrange(g, 0, win[i]);
        pad[2 * i + 1] = chance(g, 0.8) ? 0 : rrange(g, 0, win[i]);
        int64_t span = (n > 0 ? (n - 1) * bd[i] + 1 : 0) + pad[2 * i] + pad[2 * i + 1];
        int64_t ws = (win[i] - 1) * wd[i] + 1;
        if (span < ws) {
            win[i] = 1;
            wd[i] = 1;
            ws = 1;
            if (span < 1) pad[2 * i + 1] += 1 - span, span = 1;
        }
        od[i] = (span - ws) / str[i] + 1;
        any_bd |= bd[i] != 1;
        any_wd |= wd[i] != 1;
        any_pad |= pad[2 * i] || pad[2 * i + 1];
        any_str |= str[i] != 1;
    }
    if (count_of(rank, od) > 2 * g->max_elems) return false;
    enum base_dtype dt = E(x);
    enum graph_op_kind k = draw_reducer(g, x, count_of(rank, win));
    if (k == GRAPH_OP_MULTIPLY) k = GRAPH_OP_ADD;
    struct graph_value *in[2] = {x, init_value(g, k, dt)};
    struct graph_op *op = mk(g, GRAPH_OP_REDUCE_WINDOW, in, 2, (const struct graph_type *[]){tt(g, dt, rank, od)}, 1);
    attr(g, op, "window_dimensions", dense(g, win, rank));
    if (any_str || chance(g, 0.3)) attr(g, op, "window_strides", dense(g, str, rank));
    if (any_bd) attr(g, op, "base_dilations", dense(g, bd, rank));
    if (any_wd) attr(g, op, "window_dilations", dense(g, wd, rank));
    if (any_pad) attr(g, op, "padding", graph_builder_attr_elements_i64(g->b, pad, 2, (const int64_t[]){rank, 2}));
    simple_body(g, op, 1, &dt, &k, false);
    push(g, graph_builder_result(op, 0), join(g, in, 2) | reducer_nanbits(k));
    return true;
}

/* ---- indexing */

static const struct graph_attr *gather_dims(struct gen *g, const int64_t *off, int n_off, const int64_t *col, int n_col,
                                            const int64_t *sim, int n_sim, int64_t ivd)
{
    const char *names[4];
    const struct graph_attr *v[4];
    int n = 0;
    if (n_off) names[n] = "offset_dims", v[n++] = dense(g, off, n_off);
    if (n_col) names[n] = "collapsed_slice_dims", v[n++] = dense(g, col, n_col);
    names[n] = "start_index_map", v[n++] = dense(g, sim, n_sim);
    names[n] = "index_vector_dim", v[n++] = aint(g, ivd);
    return graph_builder_attr_dict(g->b, "stablehlo.gather", names, v, n);
}

static const struct graph_attr *scatter_dims(struct gen *g, const int64_t *uwd, int n_uwd, const int64_t *iwd,
                                             int n_iwd, const int64_t *sd, int n_sd, int64_t ivd)
{
    const char *names[4];
    const struct graph_attr *v[4];
    int n = 0;
    if (n_uwd) names[n] = "update_window_dims", v[n++] = dense(g, uwd, n_uwd);
    if (n_iwd) names[n] = "inserted_window_dims", v[n++] = dense(g, iwd, n_iwd);
    names[n] = "scatter_dims_to_operand_dims", v[n++] = dense(g, sd, n_sd);
    names[n] = "index_vector_dim", v[n++] = aint(g, ivd);
    return graph_builder_attr_dict(g->b, "stablehlo.scatter", names, v, n);
}

/* Indices of type it, shape dims, each in [lo, hi] mostly (exact values). */
static struct graph_value *indices(struct gen *g, enum base_dtype it, int rank, const int64_t *dims, int64_t hi)
{
    if (chance(g, 0.35)) {
        const struct graph_type *t = tt(g, it, rank, dims);
        struct base_tensor *x = NULL;
        if (base_tensor_create(it, rank, dims, &x) != BASE_OK) return NULL;
        for (int64_t i = 0; i < x->count; i++)
            base_elem_set_i64(it, x->data, (size_t)i, chance(g, 0.9) ? rrange(g, 0, hi) : rrange(g, -3, hi + 3));
        struct graph_value *r = graph_builder_constant(g->b, graph_builder_attr_elements(g->b, t, x));
        base_tensor_release(x);
        g->ops++;
        push(g, r, 0);
        return r;
    }
    return want_type(g, it, rank, dims, true);
}

static bool g_gather(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    enum base_dtype it = draw_index_type(g);
    /* start_index_map: k operand dims in random order; collapsed: some of them */
    int64_t all[MAXR] = {0};
    for (int i = 0; i < rank; i++) all[i] = i;
    shuffle(g, all, rank);
    int k = chance(g, 0.6) ? 1 : (int)rrange(g, 1, rank);
    int64_t sim[MAXR], col[MAXR], ssz[MAXR];
    int n_col = 0;
    for (int i = 0; i < k; i++) sim[i] = all[i];
    for (int i = 0; i < rank; i++) ssz[i] = chance(g, 0.6) ? T(x)->dims[i] : rnd(g, T(x)->dims[i] + 1);
    for (int i = 0; i < k; i++)
        if (chance(g, 0.7) && T(x)->dims[sim[i]] >= 1) {
            col[n_col++] = sim[i];
            ssz[sim[i]] = 1;
        } else if (ssz[sim[i]] == T(x)->dims[sim[i]] && chance(g, 0.7)) {
            ssz[sim[i]] = rnd(g, T(x)->dims[sim[i]] + 1);
        }
    /* sort collapsed */
    for (int i = 0; i < n_col; i++)
        for (int j = i + 1; j < n_col; j++)
            if (col[j] < col[i]) {
                int64_t t = col[i];
                col[i] = col[j];
                col[j] = t;
            }
    /* indices: batch dims, with the index vector last (or implicit when k == 1) */
    int nbatch = (int)rrange(g, 0, 2);
    int64_t idims[MAXR];
    for (int i = 0; i < nbatch; i++) idims[i] = rlog(g, 1, 32);
    int off_n = rank - n_col;
    if (nbatch + off_n > MAXR) return false;
    bool implicit = k == 1 && chance(g, 0.3);
    int irank = nbatch + (implicit ? 0 : 1);
    int64_t ivd = implicit ? nbatch : nbatch;
    if (!implicit) idims[nbatch] = k;
    if (implicit && nbatch == 0) return false;
    int64_t mx = 0;
    for (int i = 0; i < rank; i++)
        if (T(x)->dims[i] > mx) mx = T(x)->dims[i];
    struct graph_value *ix = indices(g, it, irank, idims, mx);
    /* result: batch dims and offset dims (at sorted positions) */
    int orank = nbatch + off_n;
    int64_t pos[MAXR];
    for (int i = 0; i < orank; i++) pos[i] = i;
    shuffle(g, pos, orank);
    int64_t off[MAXR];
    for (int i = 0; i < off_n; i++) off[i] = pos[i];
    for (int i = 0; i < off_n; i++)
        for (int j = i + 1; j < off_n; j++)
            if (off[j] < off[i]) {
                int64_t t = off[i];
                off[i] = off[j];
                off[j] = t;
            }
    int64_t od[MAXR];
    int bi = 0, oi = 0;
    int64_t off_sizes[MAXR];
    int no = 0;
    for (int i = 0; i < rank; i++) {
        bool c = false;
        for (int j = 0; j < n_col; j++) c |= col[j] == i;
        if (!c) off_sizes[no++] = ssz[i];
    }
    for (int p = 0; p < orank; p++) {
        bool is_off = false;
        for (int j = 0; j < off_n; j++) is_off |= off[j] == p;
        od[p] = is_off ? off_sizes[oi++] : idims[bi++];
    }
    if (count_of(orank, od) > 2 * g->max_elems) return false;
    struct graph_value *in[2] = {x, ix};
    struct graph_op *op =
        mk(g, GRAPH_OP_GATHER, in, 2, (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), orank, od)}, 1);
    attr(g, op, "dimension_numbers", gather_dims(g, off, off_n, col, n_col, sim, k, ivd));
    attr(g, op, "slice_sizes", dense(g, ssz, rank));
    if (chance(g, 0.1)) attr(g, op, "indices_are_sorted", graph_builder_attr_bool(g->b, false));
    push(g, graph_builder_result(op, 0), join(g, in, 2));
    return true;
}

static bool g_scatter(struct gen *g)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    enum base_dtype it = draw_index_type(g);
    int64_t all[MAXR] = {0};
    for (int i = 0; i < rank; i++) all[i] = i;
    shuffle(g, all, rank);
    int k = chance(g, 0.6) ? 1 : (int)rrange(g, 1, rank);
    int64_t sd[MAXR], iwd[MAXR], wsz[MAXR];
    int n_iwd = 0;
    for (int i = 0; i < k; i++) sd[i] = all[i];
    for (int i = 0; i < k; i++)
        if (chance(g, 0.7)) iwd[n_iwd++] = sd[i];
    for (int i = 0; i < n_iwd; i++)
        for (int j = i + 1; j < n_iwd; j++)
            if (iwd[j] < iwd[i]) {
                int64_t t = iwd[i];
                iwd[i] = iwd[j];
                iwd[j] = t;
            }
    int nbatch = (int)rrange(g, 0, 2);
    int64_t idims[MAXR];
    for (int i = 0; i < nbatch; i++) idims[i] = rlog(g, 1, 16);
    int win_n = rank - n_iwd;
    if (nbatch + win_n > MAXR) return false;
    idims[nbatch] = k;
    int64_t mx = 0;
    for (int i = 0; i < rank; i++)
        if (T(x)->dims[i] > mx) mx = T(x)->dims[i];
    struct graph_value *ix = indices(g, it, nbatch + 1, idims, mx);
    /* window sizes of the non-inserted dims */
    int nw = 0;
    for (int i = 0; i < rank; i++) {
        bool ins = false;
        for (int j = 0; j < n_iwd; j++) ins |= iwd[j] == i;
        if (!ins) wsz[nw++] = chance(g, 0.5) ? T(x)->dims[i] : rnd(g, T(x)->dims[i] + 1);
    }
    int urank = nbatch + win_n;
    int64_t pos[MAXR];
    for (int i = 0; i < urank; i++) pos[i] = i;
    shuffle(g, pos, urank);
    int64_t uwd[MAXR];
    for (int i = 0; i < win_n; i++) uwd[i] = pos[i];
    for (int i = 0; i < win_n; i++)
        for (int j = i + 1; j < win_n; j++)
            if (uwd[j] < uwd[i]) {
                int64_t t = uwd[i];
                uwd[i] = uwd[j];
                uwd[j] = t;
            }
    int64_t ud[MAXR];
    int bi = 0, wi = 0;
    for (int p = 0; p < urank; p++) {
        bool isw = false;
        for (int j = 0; j < win_n; j++) isw |= uwd[j] == p;
        ud[p] = isw ? wsz[wi++] : idims[bi++];
    }
    struct graph_value *upd = want_type(g, E(x), urank, ud, false);
    struct graph_value *in[3] = {x, ix, upd};
    struct graph_op *op = mk(g, GRAPH_OP_SCATTER, in, 3, (const struct graph_type *[]){T(x)}, 1);
    attr(g, op, "scatter_dimension_numbers", scatter_dims(g, uwd, win_n, iwd, n_iwd, sd, k, nbatch));
    enum base_dtype dt = E(x);
    enum graph_op_kind kind = draw_reducer(g, x, 2);
    if (kind == GRAPH_OP_MULTIPLY && !product_ok(g, &upd, 1)) kind = GRAPH_OP_MAXIMUM;
    bool replace = chance(g, 0.3);
    simple_body(g, op, 1, &dt, &kind, replace);
    unsigned f = join(g, in, 3); /* combined exactly as the interpreter does, update by update */
    if (!replace && (kind == GRAPH_OP_ADD || kind == GRAPH_OP_MULTIPLY)) f |= DV_NANBITS;
    push(g, graph_builder_result(op, 0), f);
    return true;
}

static bool g_dynamic_slice(struct gen *g, bool update)
{
    struct want w = {.any_type = true, .rank = -1, .min_rank = 1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    enum base_dtype it = draw_index_type(g);
    int64_t sz[MAXR];
    for (int i = 0; i < rank; i++) sz[i] = chance(g, 0.3) ? T(x)->dims[i] : rnd(g, T(x)->dims[i] + 1);
    struct graph_value *in[2 + MAXR];
    int n = 0;
    in[n++] = x;
    if (update) in[n++] = want_type(g, E(x), rank, sz, false);
    for (int i = 0; i < rank; i++) in[n++] = want_scalar_int(g, it, -2, T(x)->dims[i] + 2);
    struct graph_op *op;
    if (update) {
        op = mk(g, GRAPH_OP_DYNAMIC_UPDATE_SLICE, in, n, (const struct graph_type *[]){T(x)}, 1);
    } else {
        op = mk(g, GRAPH_OP_DYNAMIC_SLICE, in, n,
                (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, sz)}, 1);
        attr(g, op, "slice_sizes", dense(g, sz, rank));
    }
    push(g, graph_builder_result(op, 0), join(g, in, n));
    return true;
}

static bool g_sort(struct gen *g)
{
    struct want w = {.need_exact = true, .need_bits = true, .any_type = true, .rank = -1, .min_rank = 1, .nonbool = true};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    if (chance(g, 0.25) && (is_float(E(x)) || is_int(E(x))) && T(x)->dims[rank - 1] > 0) { /* chlo.top_k */
        int64_t k = rrange(g, 1, T(x)->dims[rank - 1]);
        int64_t od[MAXR];
        memcpy(od, T(x)->dims, (size_t)rank * sizeof *od);
        od[rank - 1] = k;
        struct graph_op *op = mk(g, GRAPH_OP_CHLO_TOP_K, &x, 1,
                                 (const struct graph_type *[]){tt(g, E(x), rank, od), tt(g, BASE_DT_SI32, rank, od)}, 2);
        attr(g, op, "k", aint(g, k));
        unsigned f = join(g, &x, 1);
        push(g, graph_builder_result(op, 0), f);
        push(g, graph_builder_result(op, 1), f);
        return true;
    }
    int64_t dim = rnd(g, rank);
    int n = chance(g, 0.4) ? 2 : 1;
    struct graph_value *in[2] = {x, NULL};
    if (n == 2) {
        if (chance(g, 0.5)) {
            const struct graph_type *t = tt(g, BASE_DT_SI32, rank, T(x)->dims);
            struct graph_op *io = mk(g, GRAPH_OP_IOTA, NULL, 0, &t, 1);
            attr(g, io, "iota_dimension", aint(g, dim));
            in[1] = graph_builder_result(io, 0);
            push(g, in[1], 0);
        } else {
            in[1] = want_type(g, draw_dtype(g), rank, T(x)->dims, false);
            if (flags_of(g, in[1]) & DV_NOVIEW) n = 1;
        }
    }
    const struct graph_type *rt[2] = {T(in[0]), n == 2 ? T(in[1]) : NULL};
    struct graph_op *op = mk(g, GRAPH_OP_SORT, in, n, rt, n);
    attr(g, op, "dimension", aint(g, dim));
    attr(g, op, "is_stable", graph_builder_attr_bool(g->b, n > 1 || chance(g, 0.5)));
    const struct graph_type *ts[4];
    for (int i = 0; i < n; i++) ts[2 * i] = ts[2 * i + 1] = st(g, E(in[i]));
    struct graph_value *a[4];
    if (graph_builder_region(g->b, op, ts, 2 * n, a)) {
        const struct graph_type *sb = st(g, BASE_DT_I1);
        struct graph_op *c = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){a[0], a[1]}, 2, &sb, 1);
        graph_builder_set_attr(g->b, c, "comparison_direction", graph_builder_attr_comparison(g->b, chance(g, 0.5) ? "LT" : "GT"));
        const char *ct = is_float(E(x)) ? "TOTALORDER" : is_signed(E(x)) ? "SIGNED" : "UNSIGNED";
        graph_builder_set_attr(g->b, c, "compare_type", graph_builder_attr_keyword(g->b, "stablehlo.comparison_type", ct));
        struct graph_value *r = graph_builder_result(c, 0);
        graph_builder_return(g->b, &r, 1);
    }
    unsigned f = join(g, in, n);
    for (int i = 0; i < n; i++) push(g, graph_builder_result(op, i), f);
    return true;
}

/* ---- control flow */

static void gen_ops(struct gen *g, int n);

/* Values of the given types (made in the current block) for a region's
 * results. */
static void results_of_types(struct gen *g, const struct graph_type *const *ts, int n, struct graph_value **out,
                             bool need_exact)
{
    for (int i = 0; i < n; i++) out[i] = want_type(g, ts[i]->elem, ts[i]->rank, ts[i]->dims, need_exact);
}

/* Result types for a region op: like some values of the pool. */
static int draw_result_types(struct gen *g, const struct graph_type **ts, int max)
{
    int n = (int)rrange(g, 1, max);
    for (int i = 0; i < n; i++) {
        struct dv *d = pick_any(g, false);
        if (d) {
            ts[i] = T(d->v);
        } else {
            int64_t dims[MAXR];
            int rank = draw_shape(g, dims);
            ts[i] = tt(g, draw_dtype(g), rank, dims);
        }
    }
    return n;
}

static unsigned region_flags(struct gen *g, struct graph_value *const *v, int n)
{
    return join(g, v, n);
}

static bool g_while(struct gen *g)
{
    if (g->depth >= 3) return false;
    /* state: a counter, then 1-3 values */
    enum base_dtype ct = chance(g, 0.8) ? BASE_DT_SI32 : BASE_DT_SI64;
    struct graph_value *init[5];
    unsigned flags[5];
    int n = 0;
    init[n++] = scalar_const(g, ct, (double)rrange(g, 0, 1));
    int extra = (int)rrange(g, 1, 3);
    for (int i = 0; i < extra; i++) {
        struct dv *d = pick_any(g, false);
        if (!d) break;
        init[n++] = d->v;
    }
    int64_t trips = rrange(g, 0, 4);
    struct graph_value *limit = scalar_const(g, ct, (double)trips);
    const struct graph_type *ts[5];
    for (int i = 0; i < n; i++) {
        ts[i] = T(init[i]);
        flags[i] = flags_of(g, init[i]) | DV_NANBITS; /* what the body computes may make NaNs */
    }
    struct graph_op *op = mk(g, GRAPH_OP_WHILE, init, n, ts, n);
    /* cond: counter < limit */
    struct graph_value *a[5];
    int mark = g->n;
    g->depth++;
    if (!graph_builder_region(g->b, op, ts, n, a)) return false;
    const struct graph_type *sb = st(g, BASE_DT_I1);
    struct graph_op *c = graph_builder_op(g->b, GRAPH_OP_COMPARE, (struct graph_value *[]){a[0], limit}, 2, &sb, 1);
    graph_builder_set_attr(g->b, c, "comparison_direction", graph_builder_attr_comparison(g->b, "LT"));
    struct graph_value *p = graph_builder_result(c, 0);
    graph_builder_return(g->b, &p, 1);
    /* body: counter + 1, the values transformed by a few ops */
    if (!graph_builder_region(g->b, op, ts, n, a)) return false;
    unsigned all = 0;
    for (int i = 0; i < n; i++) {
        push(g, a[i], flags[i]);
        all |= flags[i];
    }
    /* the state's values stay inexact/varying through the loop */
    for (int i = 1; i < n; i++) g->pool[g->n - n + i].flags |= all & (DV_INEXACT | DV_VARYING);
    struct graph_value *one = scalar_const(g, ct, 1);
    struct graph_value *next = mk1(g, GRAPH_OP_ADD, (struct graph_value *[]){a[0], one}, 2, ts[0]);
    push(g, next, 0);
    bool save = g->no_coll;
    gen_ops(g, (int)rrange(g, 1, 8));
    g->no_coll = save;
    struct graph_value *res[5];
    res[0] = next;
    /* a scan-like update: state[i] = dynamic_update_slice(state, x, counter, 0...) */
    for (int i = 1; i < n; i++) {
        if (RK(a[i]) >= 1 && chance(g, 0.25) && T(a[i])->dims[0] > 0) {
            int64_t ud[MAXR];
            memcpy(ud, T(a[i])->dims, (size_t)RK(a[i]) * sizeof *ud);
            ud[0] = 1;
            struct graph_value *u = want_type(g, E(a[i]), RK(a[i]), ud, false);
            struct graph_value *in[2 + MAXR];
            int k = 0;
            in[k++] = a[i];
            in[k++] = u;
            in[k++] = a[0];
            struct graph_value *zero = scalar_const(g, ct, 0);
            for (int j = 1; j < RK(a[i]); j++) in[k++] = zero;
            res[i] = mk1(g, GRAPH_OP_DYNAMIC_UPDATE_SLICE, in, k, ts[i]);
            push(g, res[i], join(g, in, k));
        } else {
            res[i] = want_type(g, ts[i]->elem, ts[i]->rank, ts[i]->dims, false);
        }
        /* a value that became inexact in the body must not flow back as exact */
        if ((flags_of(g, res[i]) & DV_INEXACT) && !(flags[i] & DV_INEXACT) && is_float(E(res[i]))) {
            /* keep the loop exact: use the state as it was */
            res[i] = a[i];
        }
        if ((flags_of(g, res[i]) & DV_VARYING) && !(flags[i] & DV_VARYING)) res[i] = a[i];
    }
    graph_builder_return(g->b, res, n);
    pop_to(g, mark);
    g->depth--;
    for (int i = 0; i < n; i++) push(g, graph_builder_result(op, i), all & (DV_INEXACT | DV_VARYING) ? flags[i] | (all & DV_VARYING) : flags[i]);
    return true;
}

/* if / case: branches that compute values of the same types. */
static bool g_branches(struct gen *g, bool is_case)
{
    if (g->depth >= 3) return false;
    struct graph_value *sel;
    if (!is_case) {
        /* a predicate: a compare of an exact scalar, or an i1 value's element */
        if (chance(g, 0.6)) {
            struct dv *d = pick_any(g, true);
            struct graph_value *x = d ? d->v : NULL;
            if (!x || is_cplx(E(x))) return false;
            x = to_shape(g, x, 0, NULL);
            struct graph_value *y = want_type(g, E(x), 0, NULL, true);
            struct graph_op *c = mk(g, GRAPH_OP_COMPARE, (struct graph_value *[]){x, y}, 2,
                                    (const struct graph_type *[]){st(g, BASE_DT_I1)}, 1);
            static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
            attr(g, c, "comparison_direction", graph_builder_attr_comparison(g->b, dirs[rnd(g, 6)]));
            sel = graph_builder_result(c, 0);
            push(g, sel, join(g, (struct graph_value *[]){x, y}, 2));
        } else {
            sel = want_type(g, BASE_DT_I1, 0, NULL, true);
        }
    } else {
        sel = want_scalar_int(g, BASE_DT_SI32, -1, 3);
    }
    int nb = is_case ? (int)rrange(g, 1, 3) : 2;
    const struct graph_type *ts[4];
    int n = draw_result_types(g, ts, 3);
    struct graph_op *op = mk(g, is_case ? GRAPH_OP_CASE : GRAPH_OP_IF, &sel, 1, ts, n);
    bool save = g->no_coll;
    if (flags_of(g, sel) & DV_VARYING) g->no_coll = true;
    g->depth++;
    unsigned f = flags_of(g, sel) & DV_VARYING;
    for (int b = 0; b < nb; b++) {
        int mark = g->n;
        if (!graph_builder_region(g->b, op, NULL, 0, NULL)) return false;
        gen_ops(g, (int)rrange(g, 0, 6));
        struct graph_value *res[4];
        results_of_types(g, ts, n, res, false);
        f |= region_flags(g, res, n);
        graph_builder_return(g->b, res, n);
        pop_to(g, mark);
    }
    g->depth--;
    g->no_coll = save;
    for (int i = 0; i < n; i++) push(g, graph_builder_result(op, i), f);
    return true;
}

static bool g_call(struct gen *g)
{
    if (!g->n_funcs) return false;
    struct fn *f = &g->funcs[rnd(g, g->n_funcs)];
    struct graph_value *in[4];
    for (int i = 0; i < f->n_in; i++) in[i] = want_type(g, f->in[i]->elem, f->in[i]->rank, f->in[i]->dims, true);
    struct graph_op *op = graph_builder_call(g->b, f->name, in, f->n_in, f->out, f->n_out);
    g->ops++;
    for (int i = 0; i < f->n_in; i++) {
        struct dv *d = dv_of(g, in[i]);
        if (d) d->uses++;
    }
    unsigned fl = join(g, in, f->n_in);
    /* the callee's own inexact ops: it may use any */
    for (int i = 0; i < f->n_out; i++)
        push(g, graph_builder_result(op, i), fl | (is_float(f->out[i]->elem) ? DV_INEXACT | DV_NANBITS : 0));
    return true;
}

/* ---- collectives (in the manual computation's body) */

static const struct graph_attr *replica_groups(struct gen *g, int *group_size, bool *full)
{
    int n = g->chips;
    int64_t ids[16];
    int G = 1, S = n;
    if (n == 4 && chance(g, 0.35)) {
        G = 2;
        S = 2;
        if (chance(g, 0.5)) { /* [[0,1],[2,3]] */
            for (int i = 0; i < 4; i++) ids[i] = i;
        } else { /* [[0,2],[1,3]] */
            ids[0] = 0, ids[1] = 2, ids[2] = 1, ids[3] = 3;
        }
    } else {
        for (int i = 0; i < n; i++) ids[i] = i;
        if (chance(g, 0.3)) shuffle(g, ids, n);
    }
    *group_size = S;
    *full = G == 1;
    return graph_builder_attr_elements_i64(g->b, ids, 2, (const int64_t[]){G, S});
}

static const struct graph_attr *channel(struct gen *g)
{
    static const char *const names[2] = {"handle", "type"};
    const struct graph_attr *v[2] = {aint(g, ++g->channel), aint(g, 1)};
    return graph_builder_attr_dict(g->b, "stablehlo.channel_handle", names, v, 2);
}

static bool g_collective(struct gen *g)
{
    if (!g->spmd || g->no_coll || g->chips < 2) return false;
    static const int w[] = {30, 20, 12, 10, 10, 6, 12};
    int which = pickw(g, w, 7);
    if (which == 6) { /* partition_id, as shard_map programs use it */
        struct graph_value *r = mk1(g, GRAPH_OP_PARTITION_ID, NULL, 0, st(g, BASE_DT_UI32));
        push(g, r, DV_VARYING);
        if (chance(g, 0.7)) convert(g, r, chance(g, 0.5) ? BASE_DT_SI32 : BASE_DT_F32);
        return true;
    }
    struct want wt = {.any_type = true, .rank = -1, .nonbool = which != 4};
    if (which == 1 || which == 2 || which == 3) wt.min_rank = 1;
    struct dv *d = pick(g, &wt);
    if (!d) return false;
    struct graph_value *x = d->v;
    /* collectives on views (a transpose or a slice of the operand), which
     * the compiler copies to a dense buffer first (dense_for_host) */
    if (RK(x) >= 1 && CNT(x) > 1 && chance(g, 0.2)) {
        int r = RK(x);
        int64_t s0[MAXR], l0[MAXR], k0[MAXR], dims[MAXR];
        for (int i = 0; i < r; i++) {
            int64_t n = T(x)->dims[i];
            s0[i] = n > 1 ? rnd(g, 2) : 0;
            l0[i] = n;
            k0[i] = 1;
            dims[i] = l0[i] - s0[i];
        }
        struct graph_op *sl = mk(g, GRAPH_OP_SLICE, &x, 1,
                                 (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), r, dims)}, 1);
        attr(g, sl, "start_indices", dense(g, s0, r));
        attr(g, sl, "limit_indices", dense(g, l0, r));
        attr(g, sl, "strides", dense(g, k0, r));
        struct graph_value *v = graph_builder_result(sl, 0);
        push(g, v, flags_of(g, x));
        x = v;
    }
    if (RK(x) >= 2 && chance(g, 0.4)) {
        int64_t perm[MAXR], dims[MAXR];
        for (int i = 0; i < RK(x); i++) perm[i] = i;
        shuffle(g, perm, RK(x));
        for (int i = 0; i < RK(x); i++) dims[i] = T(x)->dims[perm[i]];
        struct graph_op *t = mk(g, GRAPH_OP_TRANSPOSE, &x, 1,
                                (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), RK(x), dims)}, 1);
        attr(g, t, "permutation", dense(g, perm, RK(x)));
        struct graph_value *v = graph_builder_result(t, 0);
        push(g, v, flags_of(g, x));
        x = v;
    }
    int S;
    bool full;
    const struct graph_attr *groups = replica_groups(g, &S, &full);
    int rank = RK(x);
    int64_t dims[MAXR];
    memcpy(dims, T(x)->dims, (size_t)rank * sizeof *dims);
    struct graph_op *op;
    unsigned f = flags_of(g, x);
    switch (which) {
    case 0: { /* all_reduce */
        enum base_dtype dt = E(x);
        enum graph_op_kind k = draw_reducer(g, x, S);
        if (is_bool(dt)) return false;
        op = mk(g, GRAPH_OP_ALL_REDUCE, &x, 1, (const struct graph_type *[]){T(x)}, 1);
        attr(g, op, "replica_groups", groups);
        attr(g, op, "channel_handle", channel(g));
        if (chance(g, 0.5)) attr(g, op, "use_global_device_ids", graph_builder_attr_unit(g->b));
        simple_body(g, op, 1, &dt, &k, false);
        if (sum_inexact(k, dt)) f |= DV_INEXACT;
        f |= reducer_nanbits(k);
        f = full ? (f & ~(unsigned)DV_VARYING) : (f | DV_VARYING);
        break;
    }
    case 1: { /* all_gather */
        int64_t dim = rnd(g, rank);
        if (dims[dim] == 0) return false; /* the verifier refuses gathering an empty dim (as upstream's) */
        dims[dim] *= S;
        if (count_of(rank, dims) > 4 * g->max_elems) return false;
        op = mk(g, GRAPH_OP_ALL_GATHER, &x, 1, (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
        attr(g, op, "all_gather_dim", aint(g, dim));
        attr(g, op, "replica_groups", groups);
        attr(g, op, "channel_handle", channel(g));
        if (chance(g, 0.5)) attr(g, op, "use_global_device_ids", graph_builder_attr_unit(g->b));
        f = full ? (f & ~(unsigned)DV_VARYING) : (f | DV_VARYING);
        break;
    }
    case 2: { /* reduce_scatter */
        int64_t dim = rnd(g, rank);
        if (dims[dim] == 0) return false; /* the verifier refuses scattering an empty dim (C8, as upstream's) */
        if (dims[dim] % S) {
            /* make it divisible: pad the operand up */
            int64_t nd[MAXR];
            memcpy(nd, dims, sizeof nd);
            nd[dim] = (dims[dim] / S + 1) * S;
            x = to_shape(g, x, rank, nd);
            memcpy(dims, nd, sizeof nd);
        }
        dims[dim] /= S;
        enum base_dtype dt = E(x);
        enum graph_op_kind k = draw_reducer(g, x, S);
        if (is_bool(dt)) return false;
        op = mk(g, GRAPH_OP_REDUCE_SCATTER, &x, 1,
                (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
        attr(g, op, "scatter_dimension", aint(g, dim));
        attr(g, op, "replica_groups", groups);
        attr(g, op, "channel_handle", channel(g));
        if (chance(g, 0.5)) attr(g, op, "use_global_device_ids", graph_builder_attr_unit(g->b));
        simple_body(g, op, 1, &dt, &k, false);
        if (sum_inexact(k, dt)) f |= DV_INEXACT;
        f |= reducer_nanbits(k);
        f |= DV_VARYING;
        break;
    }
    case 3: { /* all_to_all */
        int64_t sdim = rnd(g, rank), cdim = rnd(g, rank);
        if (dims[sdim] % S) {
            int64_t nd[MAXR];
            memcpy(nd, dims, sizeof nd);
            nd[sdim] = (dims[sdim] / S + 1) * S;
            x = to_shape(g, x, rank, nd);
            memcpy(dims, nd, sizeof nd);
        }
        dims[sdim] /= S;
        dims[cdim] *= S;
        op = mk(g, GRAPH_OP_ALL_TO_ALL, &x, 1,
                (const struct graph_type *[]){graph_builder_type_with_dims(g->b, T(x), rank, dims)}, 1);
        attr(g, op, "split_dimension", aint(g, sdim));
        attr(g, op, "concat_dimension", aint(g, cdim));
        attr(g, op, "split_count", aint(g, S));
        attr(g, op, "replica_groups", groups);
        attr(g, op, "channel_handle", channel(g));
        f |= DV_VARYING;
        break;
    }
    case 4: { /* collective_permute: a (partial) permutation of the partitions */
        int n = g->chips;
        int64_t tgt[8], pairs[16];
        for (int i = 0; i < n; i++) tgt[i] = i;
        shuffle(g, tgt, n);
        int np = 0;
        for (int i = 0; i < n; i++)
            if (chance(g, 0.85)) {
                pairs[2 * np] = i;
                pairs[2 * np + 1] = tgt[i];
                np++;
            }
        if (!np) {
            pairs[0] = 0;
            pairs[1] = tgt[0];
            np = 1;
        }
        op = mk(g, GRAPH_OP_COLLECTIVE_PERMUTE, &x, 1, (const struct graph_type *[]){T(x)}, 1);
        attr(g, op, "source_target_pairs", graph_builder_attr_elements_i64(g->b, pairs, 2, (const int64_t[]){np, 2}));
        attr(g, op, "channel_handle", channel(g));
        f |= DV_VARYING;
        break;
    }
    default: { /* collective_broadcast */
        op = mk(g, GRAPH_OP_COLLECTIVE_BROADCAST, &x, 1, (const struct graph_type *[]){T(x)}, 1);
        attr(g, op, "replica_groups", groups);
        attr(g, op, "channel_handle", channel(g));
        f = full ? (f & ~(unsigned)DV_VARYING) : (f | DV_VARYING);
        break;
    }
    }
    push(g, graph_builder_result(op, 0), f);
    return true;
}

/* ---- the rest: bit casts, rng, quantized, complex, host-only ops */

static bool g_bitcast(struct gen *g)
{
    struct want w = {.need_exact = true, .need_bits = true, .any_type = true, .rank = -1};
    struct dv *d = pick(g, &w);
    if (!d || is_bool(E(d->v)) || base_dtype_bits(E(d->v)) < 8) return false;
    struct graph_value *x = d->v;
    static const enum base_dtype cands[] = {BASE_DT_F32, BASE_DT_SI32, BASE_DT_UI32, BASE_DT_BF16, BASE_DT_F16,
                                            BASE_DT_SI16, BASE_DT_UI16, BASE_DT_SI8,  BASE_DT_UI8,  BASE_DT_SI64,
                                            BASE_DT_F64,  BASE_DT_UI64, BASE_DT_F8E4M3FN};
    enum base_dtype to = cands[rnd(g, (int64_t)ARRAY_LEN(cands))];
    int a = base_dtype_bits(E(x)), b = base_dtype_bits(to), rank = RK(x);
    int64_t dims[MAXR + 1];
    memcpy(dims, T(x)->dims, (size_t)rank * sizeof *dims);
    int orank = rank;
    if (a > b) {
        if (rank >= MAXR) return false;
        dims[orank++] = a / b;
    } else if (a < b) {
        if (rank < 1 || dims[rank - 1] != b / a) {
            /* reshape so that the last dim is the ratio */
            int64_t c = CNT(x), r = b / a;
            if (c % r) return false;
            int64_t nd[2] = {c / r, r};
            x = reshape(g, x, 2, nd);
            rank = 2;
            memcpy(dims, nd, sizeof nd);
        }
        orank = rank - 1;
    }
    if (is_float(to) && base_float_format(to)->has_nan) { /* NaN bit patterns compare as NaN: fine */
    }
    struct graph_value *r = mk1(g, GRAPH_OP_BITCAST_CONVERT, &x, 1, tt(g, to, orank, dims));
    push(g, r, join(g, &x, 1));
    return true;
}

static bool g_rng_bit_generator(struct gen *g)
{
    static const char *const algs[] = {"DEFAULT", "THREE_FRY", "PHILOX"};
    int a = (int)rnd(g, 3);
    int64_t n = a == 2 && chance(g, 0.5) ? 3 : 2;
    struct graph_value *s = want_type(g, BASE_DT_UI64, 1, &n, true);
    int64_t dims[MAXR];
    int rank = draw_shape(g, dims);
    static const enum base_dtype outs[] = {BASE_DT_UI32, BASE_DT_UI64, BASE_DT_UI8, BASE_DT_SI32, BASE_DT_F32};
    enum base_dtype ot = outs[rnd(g, 5)];
    struct graph_op *op = mk(g, GRAPH_OP_RNG_BIT_GENERATOR, &s, 1,
                             (const struct graph_type *[]){T(s), tt(g, ot, rank, dims)}, 2);
    attr(g, op, "rng_algorithm", graph_builder_attr_keyword(g->b, "stablehlo.rng_algorithm", algs[a]));
    unsigned f = join(g, &s, 1);
    push(g, graph_builder_result(op, 0), f);
    push(g, graph_builder_result(op, 1), f);
    return true;
}

static bool g_quantized(struct gen *g)
{
    if (!g->n_qt) return false;
    const struct graph_type *q = g->qt[rnd(g, g->n_qt)];
    struct want w = {.need_exact = true, .elem = q->quant->expressed, .rank = -1};
    struct dv *d = pick(g, &w);
    struct graph_value *x = d ? d->v : NULL;
    if (!x) {
        int64_t dims[MAXR];
        int rank = draw_shape(g, dims);
        x = want_type(g, q->quant->expressed, rank, dims, true);
    }
    const struct graph_type *qt = graph_builder_type_with_dims(g->b, q, RK(x), T(x)->dims);
    struct graph_value *qv = mk1(g, GRAPH_OP_UNIFORM_QUANTIZE, &x, 1, qt);
    push(g, qv, join(g, &x, 1) | DV_NOVIEW);
    if (RK(x) >= 2 && chance(g, 0.4)) { /* data movement of quantized values */
        int64_t perm[MAXR], dims[MAXR];
        for (int i = 0; i < RK(x); i++) perm[i] = i;
        shuffle(g, perm, RK(x));
        for (int i = 0; i < RK(x); i++) dims[i] = T(x)->dims[perm[i]];
        struct graph_op *t =
            mk(g, GRAPH_OP_TRANSPOSE, &qv, 1, (const struct graph_type *[]){graph_builder_type_with_dims(g->b, qt, RK(x), dims)}, 1);
        attr(g, t, "permutation", dense(g, perm, RK(x)));
        qv = graph_builder_result(t, 0);
        push(g, qv, join(g, &x, 1) | DV_NOVIEW);
    }
    if (chance(g, 0.3)) { /* arithmetic on quantized values (dequantize, op, quantize) */
        struct graph_value *in[2] = {qv, qv};
        struct graph_value *r = mk1(g, GRAPH_OP_ADD, in, 2, T(qv));
        push(g, r, DV_NOVIEW);
        qv = r;
    }
    struct graph_value *r = mk1(g, GRAPH_OP_UNIFORM_DEQUANTIZE, &qv, 1,
                                tt(g, q->quant->expressed, RK(qv), T(qv)->dims));
    push(g, r, join(g, &x, 1));
    return true;
}

static bool g_complex(struct gen *g)
{
    struct want w = {.elem = BASE_DT_F32, .rank = -1};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *re = d->v, *im = want_like(g, re, false);
    struct graph_value *in[2] = {re, im};
    const struct graph_type *ct = tt(g, BASE_DT_C64, RK(re), T(re)->dims);
    struct graph_value *c = mk1(g, GRAPH_OP_COMPLEX, in, 2, ct);
    unsigned f = join(g, in, 2) | DV_NANBITS;
    push(g, c, f);
    int steps = (int)rrange(g, 0, 2);
    for (int i = 0; i < steps; i++) {
        static const enum graph_op_kind k[] = {GRAPH_OP_NEGATE, GRAPH_OP_MULTIPLY, GRAPH_OP_ADD, GRAPH_OP_CHLO_CONJ};
        enum graph_op_kind kk = k[rnd(g, 4)];
        struct graph_value *ab[2] = {c, c};
        if (kk == GRAPH_OP_MULTIPLY) {
            /* c conj(c) = |c|^2: a product of the chips' f32 parts that
             * never cancels (c c's a^2 - b^2 does when |a| ~ |b|, judged
             * at the result's scale, not the products') */
            ab[1] = mk1(g, GRAPH_OP_CHLO_CONJ, &c, 1, ct);
            push(g, ab[1], f);
        }
        c = mk1(g, kk, ab, kk == GRAPH_OP_MULTIPLY || kk == GRAPH_OP_ADD ? 2 : 1, ct);
        if (kk == GRAPH_OP_MULTIPLY) f |= DV_INEXACT; /* within 2 ulps (docs/compiler.md, complex) */
        push(g, c, f);
    }
    static const enum graph_op_kind outk[] = {GRAPH_OP_REAL, GRAPH_OP_IMAG, GRAPH_OP_ABS};
    enum graph_op_kind ok = outk[rnd(g, 3)];
    struct graph_value *r = mk1(g, ok, &c, 1, T(re));
    push(g, r, ok == GRAPH_OP_ABS ? f | DV_INEXACT : f);
    return true;
}

/* Linear algebra the chips leave to the host: cholesky, triangular_solve. */
static bool g_linalg(struct gen *g)
{
    int64_t n = rlog(g, 1, 16), m = rlog(g, 1, 16), bt = chance(g, 0.7) ? 0 : rrange(g, 1, 3);
    enum base_dtype dt = chance(g, 0.8) ? BASE_DT_F32 : BASE_DT_F64;
    int64_t ad[3], bd[3];
    int rank = bt ? 3 : 2;
    if (bt) ad[0] = bd[0] = bt;
    ad[rank - 2] = ad[rank - 1] = n;
    struct graph_value *a = want_type(g, dt, rank, ad, true);
    if (flags_of(g, a) & DV_NANBITS) return false;
    if (chance(g, 0.5)) {
        struct graph_op *op = mk(g, GRAPH_OP_CHOLESKY, &a, 1, (const struct graph_type *[]){T(a)}, 1);
        attr(g, op, "lower", graph_builder_attr_bool(g->b, chance(g, 0.5)));
        push(g, graph_builder_result(op, 0), join(g, &a, 1) | DV_NANBITS);
        return true;
    }
    bool left = chance(g, 0.5);
    bd[rank - 2] = left ? n : m;
    bd[rank - 1] = left ? m : n;
    struct graph_value *b = want_type(g, dt, rank, bd, true);
    struct graph_value *in[2] = {a, b};
    struct graph_op *op = mk(g, GRAPH_OP_TRIANGULAR_SOLVE, in, 2, (const struct graph_type *[]){T(b)}, 1);
    static const char *const tr[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
    attr(g, op, "left_side", graph_builder_attr_bool(g->b, left));
    attr(g, op, "lower", graph_builder_attr_bool(g->b, chance(g, 0.5)));
    attr(g, op, "unit_diagonal", graph_builder_attr_bool(g->b, chance(g, 0.3)));
    attr(g, op, "transpose_a", graph_builder_attr_keyword(g->b, "stablehlo.transpose", tr[rnd(g, 3)]));
    push(g, graph_builder_result(op, 0), join(g, in, 2) | DV_NANBITS);
    return true;
}

/* fft: an RFFT of real values, then back (IRFFT) or their magnitudes. */
static bool g_fft(struct gen *g)
{
    int64_t dims[3];
    int rank = (int)rrange(g, 1, 3), nf = (int)rrange(g, 1, rank < 2 ? rank : 2);
    for (int i = 0; i < rank; i++) dims[i] = rlog(g, 1, 32);
    fit(rank, dims, g->max_elems);
    struct graph_value *x = want_type(g, BASE_DT_F32, rank, dims, true);
    int64_t len[3], cd[3];
    for (int i = 0; i < nf; i++) len[i] = dims[rank - nf + i];
    memcpy(cd, dims, sizeof cd);
    cd[rank - 1] = dims[rank - 1] / 2 + 1;
    const struct graph_type *ct = tt(g, BASE_DT_C64, rank, cd);
    struct graph_op *op = mk(g, GRAPH_OP_FFT, &x, 1, &ct, 1);
    attr(g, op, "fft_type", graph_builder_attr_keyword(g->b, "stablehlo.fft_type", "RFFT"));
    attr(g, op, "fft_length", dense(g, len, nf));
    struct graph_value *c = graph_builder_result(op, 0);
    unsigned f = join(g, &x, 1) | DV_NANBITS;
    push(g, c, f);
    struct graph_value *r;
    if (chance(g, 0.5)) {
        struct graph_op *inv = mk(g, GRAPH_OP_FFT, &c, 1, (const struct graph_type *[]){T(x)}, 1);
        attr(g, inv, "fft_type", graph_builder_attr_keyword(g->b, "stablehlo.fft_type", "IRFFT"));
        attr(g, inv, "fft_length", dense(g, len, nf));
        r = graph_builder_result(inv, 0);
    } else {
        r = mk1(g, GRAPH_OP_ABS, &c, 1, tt(g, BASE_DT_F32, rank, cd));
        f |= DV_INEXACT; /* |z| on chip: within 2 ulps (docs/compiler.md, complex) */
    }
    push(g, r, f);
    return true;
}

/* select_and_scatter: max-pooling's gradient (the host runs it). */
static bool g_select_and_scatter(struct gen *g)
{
    struct want w = {.need_exact = true, .rank = -1, .min_rank = 1, .elem = BASE_DT_F32};
    struct dv *d = pick(g, &w);
    if (!d) return false;
    struct graph_value *x = d->v;
    int rank = RK(x);
    int64_t win[MAXR], str[MAXR], od[MAXR];
    for (int i = 0; i < rank; i++) {
        int64_t n = T(x)->dims[i];
        win[i] = n < 1 ? 1 : rrange(g, 1, n < 3 ? n : 3);
        str[i] = rrange(g, 1, win[i]);
        od[i] = n < win[i] ? 0 : (n - win[i]) / str[i] + 1;
    }
    struct graph_value *src = want_type(g, BASE_DT_F32, rank, od, false);
    struct graph_value *init = scalar_const(g, BASE_DT_F32, 0);
    struct graph_value *in[3] = {x, src, init};
    struct graph_op *op = mk(g, GRAPH_OP_SELECT_AND_SCATTER, in, 3, (const struct graph_type *[]){T(x)}, 1);
    attr(g, op, "window_dimensions", dense(g, win, rank));
    attr(g, op, "window_strides", dense(g, str, rank));
    const struct graph_type *s = st(g, BASE_DT_F32), *sb = st(g, BASE_DT_I1);
    struct graph_value *a[2];
    if (graph_builder_region(g->b, op, (const struct graph_type *[]){s, s}, 2, a)) {
        struct graph_op *c = graph_builder_op(g->b, GRAPH_OP_COMPARE, a, 2, &sb, 1);
        graph_builder_set_attr(g->b, c, "comparison_direction", graph_builder_attr_comparison(g->b, "GE"));
        struct graph_value *r = graph_builder_result(c, 0);
        graph_builder_return(g->b, &r, 1);
    }
    if (graph_builder_region(g->b, op, (const struct graph_type *[]){s, s}, 2, a)) {
        struct graph_value *r = graph_builder_op1(g->b, GRAPH_OP_ADD, a, 2, s);
        graph_builder_return(g->b, &r, 1);
    }
    push(g, graph_builder_result(op, 0), join(g, in, 3) | DV_NANBITS);
    return true;
}

/* stablehlo.rng: values the implementation picks (the host runs it with the
 * interpreter's seed). */
static bool g_rng(struct gen *g)
{
    int64_t dims[MAXR];
    int rank = draw_shape(g, dims);
    bool normal = chance(g, 0.4);
    enum base_dtype dt = normal ? BASE_DT_F32 : (chance(g, 0.5) ? BASE_DT_F32 : BASE_DT_SI32);
    struct graph_value *a = scalar_const(g, dt, normal ? 0 : -3), *b = scalar_const(g, dt, normal ? 1 : 5);
    struct graph_value *shape = NULL;
    {
        const struct graph_type *t = tt(g, BASE_DT_SI64, 1, (const int64_t[]){rank});
        shape = graph_builder_constant(g->b, graph_builder_attr_elements_i64(g->b, dims, 1, (const int64_t[]){rank}));
        (void)t;
        g->ops++;
        push(g, shape, 0);
    }
    struct graph_value *in[3] = {a, b, shape};
    struct graph_op *op = mk(g, GRAPH_OP_RNG, in, 3, (const struct graph_type *[]){tt(g, dt, rank, dims)}, 1);
    attr(g, op, "rng_distribution",
         graph_builder_attr_keyword(g->b, "stablehlo.rng_distribution", normal ? "NORMAL" : "UNIFORM"));
    /* float draws: a uniform within 4 ulps, a normal through log, sqrt and cos (docs/compiler.md, rng) */
    push(g, graph_builder_result(op, 0), DV_NANBITS | (dt == BASE_DT_F32 ? DV_INEXACT : 0));
    return true;
}

static bool g_misc(struct gen *g)
{
    switch (rnd(g, 13)) {
    case 9: return g_linalg(g);
    case 10: return g_fft(g);
    case 11: return g_select_and_scatter(g);
    case 12: return g_rng(g);
    case 0: return g_bitcast(g);
    case 1: return g_rng_bit_generator(g);
    case 2: return g_quantized(g);
    case 3: return g_complex(g);
    case 4: { /* reduce_precision */
        struct want w = {.need_exact = true, .need_bits = true, .rank = -1, .any_type = true, .float_only = true};
        struct dv *d = pick(g, &w);
        if (!d) return false;
        struct graph_value *x = d->v;
        struct graph_op *op = mk(g, GRAPH_OP_REDUCE_PRECISION, &x, 1, (const struct graph_type *[]){T(x)}, 1);
        attr(g, op, "exponent_bits", graph_builder_attr_int_typed(g->b, rrange(g, 2, 8), BASE_DT_SI32));
        attr(g, op, "mantissa_bits", graph_builder_attr_int_typed(g->b, rrange(g, 0, 10), BASE_DT_SI32));
        push(g, graph_builder_result(op, 0), join(g, &x, 1));
        return true;
    }
    case 5: { /* optimization_barrier of 1-3 values */
        struct graph_value *in[3];
        const struct graph_type *ts[3] = {NULL, NULL, NULL};
        int n = (int)rrange(g, 1, 3);
        for (int i = 0; i < n; i++) {
            struct dv *d = pick_any(g, false);
            if (!d) return false;
            in[i] = d->v;
            ts[i] = T(in[i]);
        }
        struct graph_op *op = mk(g, GRAPH_OP_OPTIMIZATION_BARRIER, in, n, ts, n);
        for (int i = 0; i < n; i++) push(g, graph_builder_result(op, i), flags_of(g, in[i]));
        return true;
    }
    case 6: { /* batch_norm_inference */
        int64_t dims[4] = {rlog(g, 1, 4), rlog(g, 1, 16), rlog(g, 1, 8), rlog(g, 1, 8)};
        int rank = (int)rrange(g, 2, 4);
        int64_t fi = rnd(g, rank);
        fit(rank, dims, g->max_elems);
        enum base_dtype dt = chance(g, 0.7) ? BASE_DT_F32 : BASE_DT_BF16;
        struct graph_value *in[5];
        in[0] = want_type(g, dt, rank, dims, true);
        for (int i = 1; i < 5; i++) in[i] = want_type(g, dt, 1, &dims[fi], true);
        struct graph_op *op = mk(g, GRAPH_OP_BATCH_NORM_INFERENCE, in, 5, (const struct graph_type *[]){T(in[0])}, 1);
        attr(g, op, "epsilon", graph_builder_attr_float(g->b, 1e-3, BASE_DT_F32));
        attr(g, op, "feature_index", aint(g, fi));
        push(g, graph_builder_result(op, 0), join(g, in, 5) | DV_NANBITS);
        return true;
    }
    case 7: { /* tuple + get_tuple_element */
        struct dv *a = pick_any(g, false), *b = pick_any(g, false);
        if (!a || !b) return false;
        struct graph_value *in[2] = {a->v, b->v};
        const struct graph_type *ts[2] = {T(in[0]), T(in[1])};
        const struct graph_type *tup = graph_builder_tuple_type(g->b, ts, 2);
        struct graph_value *t = mk1(g, GRAPH_OP_TUPLE, in, 2, tup);
        int64_t i = rnd(g, 2);
        struct graph_op *op = mk(g, GRAPH_OP_GET_TUPLE_ELEMENT, &t, 1, &ts[i], 1);
        attr(g, op, "index", graph_builder_attr_int_typed(g->b, i, BASE_DT_SI32));
        push(g, graph_builder_result(op, 0), flags_of(g, in[i]));
        return true;
    }
    default: { /* map of a small scalar function */
        struct want w = {.rank = -1, .any_type = true, .float_only = true, .min_rank = 1};
        struct dv *d = pick(g, &w);
        if (!d) return false;
        struct graph_value *x = d->v, *y = want_like(g, x, false);
        struct graph_value *in[2] = {x, y};
        struct graph_op *op = mk(g, GRAPH_OP_MAP, in, 2, (const struct graph_type *[]){T(x)}, 1);
        int64_t dims[MAXR];
        for (int i = 0; i < RK(x); i++) dims[i] = i;
        attr(g, op, "dimensions", dense(g, dims, RK(x)));
        const struct graph_type *s = st(g, E(x));
        struct graph_value *a[2];
        if (graph_builder_region(g->b, op, (const struct graph_type *[]){s, s}, 2, a)) {
            struct graph_value *m = graph_builder_op1(g->b, GRAPH_OP_MULTIPLY, a, 2, s);
            struct graph_value *r = graph_builder_op1(g->b, GRAPH_OP_ADD, (struct graph_value *[]){m, a[0]}, 2, s);
            graph_builder_return(g->b, &r, 1);
        }
        push(g, graph_builder_result(op, 0), join(g, in, 2) | DV_NANBITS);
        return true;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Programs                                                                  */

struct fam {
    enum df_family fam;
    bool (*fn)(struct gen *g);
    int w;
};

static bool g_dus(struct gen *g) { return g_dynamic_slice(g, true); }
static bool g_ds(struct gen *g) { return g_dynamic_slice(g, false); }
static bool g_if(struct gen *g) { return g_branches(g, false); }
static bool g_case(struct gen *g) { return g_branches(g, true); }

static const struct fam k_fams[] = {
    {DF_FAM_ELEM, g_unary, 14},        {DF_FAM_ELEM, g_binary, 20},     {DF_FAM_ELEM, g_compare, 4},
    {DF_FAM_ELEM, g_select, 4},        {DF_FAM_ELEM, g_clamp, 2},       {DF_FAM_ELEM, g_convert, 5},
    {DF_FAM_SHAPE, g_broadcast, 5},    {DF_FAM_SHAPE, g_reshape, 5},    {DF_FAM_SHAPE, g_transpose, 5},
    {DF_FAM_SHAPE, g_slice, 5},        {DF_FAM_SHAPE, g_concat, 3},     {DF_FAM_SHAPE, g_pad, 2},
    {DF_FAM_SHAPE, g_reverse, 2},      {DF_FAM_SHAPE, g_fresh, 2},      {DF_FAM_DOT, g_dot, 9},
    {DF_FAM_CONV, g_conv, 3},          {DF_FAM_REDUCE, g_reduce, 7},    {DF_FAM_REDUCE, g_reduce_window, 2},
    {DF_FAM_INDEX, g_gather, 2},       {DF_FAM_INDEX, g_scatter, 2},    {DF_FAM_INDEX, g_ds, 2},
    {DF_FAM_INDEX, g_dus, 2},          {DF_FAM_SORT, g_sort, 2},        {DF_FAM_CONTROL, g_while, 1},
    {DF_FAM_CONTROL, g_if, 1},         {DF_FAM_CONTROL, g_case, 1},     {DF_FAM_CONTROL, g_call, 1},
    {DF_FAM_COLL, g_collective, 8},    {DF_FAM_MISC, g_misc, 3},
};

static void gen_ops(struct gen *g, int n)
{
    int w[ARRAY_LEN(k_fams)];
    for (size_t i = 0; i < ARRAY_LEN(k_fams); i++) {
        w[i] = (g->o->families & (1u << k_fams[i].fam)) ? k_fams[i].w : 0;
        if (k_fams[i].fam == DF_FAM_COLL) w[i] = !g->spmd || g->no_coll ? 0 : 3 * w[i];
    }
    int total = 0;
    for (size_t i = 0; i < ARRAY_LEN(k_fams); i++) total += w[i];
    if (!total) return;
    int stop = g->ops + n;
    for (int tries = 0; g->ops < stop && g->ops < g->budget + (g->depth ? 64 : 0) && tries < 20 * n + 20; tries++) {
        const struct fam *f = &k_fams[pickw(g, w, (int)ARRAY_LEN(k_fams))];
        if (graph_builder_status(g->b, NULL) != BASE_OK) return;
        f->fn(g);
    }
}

/* Quantized types for g_quantized, from a parsed module. */
static void load_quant_types(struct gen *g)
{
    static const char text[] =
        "func.func @q(%a: tensor<1x!quant.uniform<i8:f32, 0.125:-3>>, %b: tensor<1x!quant.uniform<ui8:f32, 0.05:128>>,\n"
        "             %c: tensor<1x!quant.uniform<i8<-127:127>:f32, 2.0>>, %d: tensor<1x!quant.uniform<i16:f32, 0.001:0>>) {\n"
        "  func.return\n}\n";
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse(text, sizeof text - 1, &(struct graph_parse_options){.path = "quant"}, &g->qmod, &d) != BASE_OK)
        return;
    const struct graph_op *f = graph_module_find_func(g->qmod, "q");
    if (!f) return;
    const struct graph_block *b = &f->regions[0].blocks[0];
    for (int i = 0; i < b->n_args && i < 4; i++) g->qt[g->n_qt++] = b->args[i].type;
}

/* The arguments' local types (and for SPMD graphs the sharded dim). */
static int draw_args(struct gen *g, const struct graph_type **ts, int *shard, int max)
{
    int n = (int)rrange(g, 1, max);
    for (int i = 0; i < n; i++) {
        int64_t dims[MAXR];
        int rank = draw_shape(g, dims);
        enum base_dtype dt = draw_dtype(g);
        ts[i] = tt(g, dt, rank, dims);
        shard[i] = -1;
        if (g->chips > 1 && rank > 0 && chance(g, 0.6)) shard[i] = (int)rnd(g, rank);
    }
    return n;
}

static const struct graph_attr *sharding(struct gen *g, int rank, int dim)
{
    const struct graph_attr *dims[MAXR];
    for (int d = 0; d < rank; d++) {
        const struct graph_attr *ax[2];
        int n = 0;
        if (d == dim) {
            if (g->mesh_axes == 1) ax[n++] = graph_builder_attr_string(g->b, "x");
            else {
                ax[n++] = graph_builder_attr_string(g->b, "x");
                ax[n++] = graph_builder_attr_string(g->b, "y");
            }
        }
        dims[d] = graph_builder_attr_array(g->b, ax, n);
    }
    static const char *const names[2] = {"mesh", "dims"};
    const struct graph_attr *v[2] = {graph_builder_attr_symbol(g->b, "mesh"), graph_builder_attr_array(g->b, dims, rank)};
    return graph_builder_attr_dict(g->b, "sdy.sharding", names, v, 2);
}

static void mesh_op(struct gen *g)
{
    const struct graph_attr *axes[2];
    static const char *const an[2] = {"x", "y"};
    for (int a = 0; a < g->mesh_axes; a++) {
        static const char *const names[2] = {"name", "size"};
        const struct graph_attr *v[2] = {graph_builder_attr_string(g->b, an[a]), aint(g, g->axis_size[a])};
        axes[a] = graph_builder_attr_dict(g->b, NULL, names, v, 2);
    }
    static const char *const mnames[1] = {"axes"};
    const struct graph_attr *mv[1] = {graph_builder_attr_array(g->b, axes, g->mesh_axes)};
    static const char *const names[2] = {"mesh", "sym_name"};
    const struct graph_attr *v[2] = {graph_builder_attr_dict(g->b, "sdy.mesh", mnames, mv, 1),
                                     graph_builder_attr_string(g->b, "mesh")};
    struct graph_op *op = graph_builder_op(g->b, GRAPH_OP_SDY_MESH, NULL, 0, NULL, 0);
    for (int i = 0; i < 2; i++) attr(g, op, names[i], v[i]);
}

/* Private functions main may call (generated first: functions do not nest). */
static void gen_funcs(struct gen *g)
{
    if (!(g->o->families & (1u << DF_FAM_CONTROL))) return;
    int n = (int)rrange(g, 0, 2);
    for (int k = 0; k < n; k++) {
        struct fn *f = &g->funcs[g->n_funcs];
        snprintf(f->name, sizeof f->name, "f%d", k);
        int shard[4];
        int saved_chips = g->chips;
        g->chips = 1;
        f->n_in = draw_args(g, f->in, shard, 3);
        g->chips = saved_chips;
        f->n_out = (int)rrange(g, 1, 2);
        for (int i = 0; i < f->n_out; i++) {
            int64_t dims[MAXR];
            int rank = draw_shape(g, dims);
            f->out[i] = tt(g, draw_float(g), rank, dims);
        }
        struct graph_value *a[4];
        struct graph_op *fo = graph_builder_func(g->b, f->name, f->in, NULL, f->n_in, f->out, f->n_out, a);
        if (!fo) return;
        attr(g, fo, "sym_visibility", graph_builder_attr_string(g->b, "private"));
        int mark = g->n;
        bool spmd = g->spmd;
        g->spmd = false;
        for (int i = 0; i < f->n_in; i++) push(g, a[i], 0);
        int save_budget = g->budget, save_ops = g->ops;
        g->budget = g->ops + (int)rrange(g, 1, 12);
        gen_ops(g, g->budget - g->ops);
        struct graph_value *res[3];
        results_of_types(g, f->out, f->n_out, res, false);
        graph_builder_return(g->b, res, f->n_out);
        g->budget = save_budget;
        g->ops = save_ops;
        g->spmd = spmd;
        pop_to(g, mark);
        g->n_funcs++;
    }
}

/* The values main returns: tensors nobody reads (at most 16), else the last. */
static int choose_outputs(struct gen *g, struct graph_value **out, unsigned *flags, int max)
{
    int n = 0;
    for (int i = g->n - 1; i >= 0 && n < max; i--) {
        struct dv *d = &g->pool[i];
        if (d->uses || !is_tensor(d->v) || d->v->type->quant) continue;
        if (d->v->def == NULL && chance(g, 0.7)) continue; /* an unused argument */
        /* the --check tolerance is relative to an output's largest element:
         * a few values that differ by a documented rounding and cancelled
         * (a dot of a single result) have no scale to be judged at */
        if ((d->flags & DV_INEXACT) && CNT(d->v) < 64) continue;
        out[n] = d->v;
        flags[n++] = d->flags;
    }
    if (!n && g->n) {
        for (int i = g->n - 1; i >= 0; i--)
            if (is_tensor(g->pool[i].v) && !g->pool[i].v->type->quant && !(g->pool[i].flags & DV_INEXACT)) {
                out[n] = g->pool[i].v;
                flags[n++] = g->pool[i].flags;
                break;
            }
    }
    /* sometimes also an argument returned as it is, or a value twice */
    if (n && n < max && chance(g, 0.05)) {
        out[n] = out[0];
        flags[n] = flags[0];
        n++;
    }
    return n;
}

static enum base_status build(struct gen *g)
{
    const struct df_gen_opts *o = g->o;
    g->chips = o->chips > 1 ? o->chips : 1;
    g->mesh_axes = 1;
    g->axis_size[0] = g->chips;
    bool spmd = g->chips > 1;
    if (spmd && g->chips == 4 && chance(g, 0.3)) {
        g->mesh_axes = 2;
        g->axis_size[0] = g->axis_size[1] = 2;
    }
    if (spmd) mesh_op(g);
    gen_funcs(g);
    const struct graph_type *lts[8], *gts[8];
    int shard[8];
    int n_in = draw_args(g, lts, shard, 6);
    for (int i = 0; i < n_in; i++) {
        int64_t dims[MAXR];
        memcpy(dims, lts[i]->dims, (size_t)lts[i]->rank * sizeof *dims);
        if (shard[i] >= 0) dims[shard[i]] *= g->chips;
        gts[i] = tt(g, lts[i]->elem, lts[i]->rank, dims);
    }
    const char *names[8] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"};
    const struct graph_type *outs_t[64];
    int n_out = g->main_out ? g->n_main_out : 0;
    for (int i = 0; i < n_out; i++) outs_t[i] = g->main_out[i];
    struct graph_value *args[8];
    struct graph_op *f = graph_builder_func(g->b, "main", gts, names, n_in, outs_t, n_out, args);
    if (!f) return graph_builder_status(g->b, NULL);
    struct graph_op *mc = NULL;
    struct graph_value *largs[8];
    if (spmd) {
        /* local result types (pass 2 knows them from pass 1) */
        mc = graph_builder_op(g->b, GRAPH_OP_SDY_MANUAL_COMPUTATION, args, n_in, outs_t, n_out);
        if (!graph_builder_region(g->b, mc, lts, n_in, largs)) return graph_builder_status(g->b, NULL);
        static const char *const lnames[8] = {"l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7"};
        for (int i = 0; i < n_in; i++) graph_builder_set_name(g->b, largs[i], lnames[i]);
        g->spmd = true;
    }
    for (int i = 0; i < n_in; i++) push(g, spmd ? largs[i] : args[i], shard[i] >= 0 ? DV_VARYING : 0);
    gen_ops(g, g->budget);
    struct graph_value *res[64];
    unsigned rflags[64];
    int n = choose_outputs(g, res, rflags, 16);
    if (!g->main_out) { /* pass 1: record the types */
        g->n_rec = n;
        for (int i = 0; i < n; i++) {
            g->rec_dt[i] = E(res[i]);
            g->rec_rank[i] = RK(res[i]);
            memcpy(g->rec_dims[i], T(res[i])->dims, (size_t)RK(res[i]) * sizeof(int64_t));
            g->rec_shard[i] = -1;
            if (spmd && RK(res[i]) > 0 && chance(g, 0.5)) g->rec_shard[i] = (int)rnd(g, RK(res[i]));
        }
        return BASE_OK;
    }
    if (spmd) {
        graph_builder_return(g->b, res, n); /* sdy.return */
        const struct graph_attr *ins[8], *osh[64];
        for (int i = 0; i < n_in; i++) ins[i] = sharding(g, lts[i]->rank, shard[i]);
        for (int i = 0; i < n; i++) osh[i] = sharding(g, g->rec_rank[i], g->rec_shard[i]);
        const struct graph_attr *man[2] = {graph_builder_attr_string(g->b, "x"), graph_builder_attr_string(g->b, "y")};
        attr(g, mc, "in_shardings", graph_builder_attr_array(g->b, ins, n_in));
        attr(g, mc, "manual_axes", graph_builder_attr_array(g->b, man, g->mesh_axes));
        attr(g, mc, "out_shardings", graph_builder_attr_array(g->b, osh, n));
        struct graph_value *r[64];
        for (int i = 0; i < n; i++) r[i] = graph_builder_result(mc, i);
        graph_builder_return(g->b, r, n);
    } else {
        graph_builder_return(g->b, res, n);
    }
    return graph_builder_status(g->b, NULL);
}

static void gen_free(struct gen *g)
{
    free(g->pool);
    free(g->slot);
    graph_module_destroy(g->qmod);
    g->pool = NULL;
    g->slot = NULL;
    g->qmod = NULL;
}

static void gen_init(struct gen *g, const struct df_gen_opts *o)
{
    memset(g, 0, sizeof *g);
    g->o = o;
    base_rng_seed(&g->r, o->seed);
    g->budget = o->max_ops > 0 ? o->max_ops : 1;
    double s = o->scale > 0 ? o->scale : 1;
    g->max_elems = (int64_t)((double)rlog(g, 64, 65536) * s);
    if (g->max_elems < 1) g->max_elems = 1;
    load_quant_types(g);
}

enum base_status df_generate(const struct df_gen_opts *o, struct graph_module **out, struct base_diag *diag)
{
    *out = NULL;
    /* pass 1: the program, to learn its results' types */
    struct gen g;
    gen_init(&g, o);
    enum base_status st = graph_builder_create("fuzz.mlir", &g.b);
    if (st != BASE_OK) {
        gen_free(&g);
        return st;
    }
    st = build(&g);
    graph_builder_destroy(g.b);
    if (st != BASE_OK) {
        gen_free(&g);
        return base_diag_set(diag, st, NULL, 0, 0, "generator: pass 1 failed");
    }
    int n = g.n_rec;
    enum base_dtype dt[64];
    int rank[64], shard[64];
    int64_t dims[64][MAXR];
    memcpy(dt, g.rec_dt, sizeof dt);
    memcpy(rank, g.rec_rank, sizeof rank);
    memcpy(shard, g.rec_shard, sizeof shard);
    memcpy(dims, g.rec_dims, sizeof dims);
    gen_free(&g);
    /* pass 2: the same program (same seed), with the types known */
    gen_init(&g, o);
    st = graph_builder_create("fuzz.mlir", &g.b);
    if (st != BASE_OK) {
        gen_free(&g);
        return st;
    }
    g.n_rec = n;
    memcpy(g.rec_dt, dt, sizeof dt);
    memcpy(g.rec_rank, rank, sizeof rank);
    memcpy(g.rec_shard, shard, sizeof shard);
    memcpy(g.rec_dims, dims, sizeof dims);
    const struct graph_type *ot[64];
    for (int i = 0; i < n; i++) {
        int64_t gd[MAXR];
        memcpy(gd, dims[i], (size_t)rank[i] * sizeof *gd);
        if (shard[i] >= 0) gd[shard[i]] *= o->chips;
        ot[i] = graph_builder_tensor_type(g.b, dt[i], rank[i], gd);
    }
    g.main_out = ot;
    g.n_main_out = n;
    st = build(&g);
    if (st == BASE_OK) st = graph_builder_finish(g.b, out, diag);
    else graph_builder_status(g.b, diag);
    graph_builder_destroy(g.b);
    gen_free(&g);
    return st;
}
