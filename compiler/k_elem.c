/* Fused elementwise kernels (CC_K_ELEMENTWISE).
 *
 * The group's ops become a small tile program: values (tiles of P x F
 * elements, per-partition scalars of P x 1, or immediates) and instructions
 * over them, each op rounded to its own result type (every intermediate lives
 * in a scratchpad buffer of the graph's element type), so a fused chain
 * computes exactly what the unfused ops compute.  The output index space is
 * tiled (cc_tiling_plan); per tile: DMA-in of each loaded input's box, the
 * program on the vector / scalar / gpsimd engines (each instruction on the
 * engine that balances the load), DMA-out of each output box; two slots per
 * buffer so that the loads of tile i+1 and the stores of tile i-1 overlap the
 * compute of tile i.  Numerics per op: docs/compiler.md "Kernels:
 * elementwise". */
#include "compiler/cc_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALS 512
#define MAX_INSTRS 512
#define N_SLOTS 2

enum vk { VK_TILE, VK_PSC, VK_IMM }; /* P x F tile, P x 1 per-partition scalar, immediate */

struct eval {
    enum vk kind;
    enum base_dtype dt;
    double imm;
    int in;         /* loaded from k->in[in]; -1 */
    int view;       /* tiler view index of a loaded or iota value; -1 */
    int iota;       /* 1: an iota value (view = its index view) */
    int alias;      /* >= 0: the storage of value `alias`, read as dt */
    int def;        /* defining instruction; -1 */
    int last;       /* last instruction reading it; -1 */
    bool output;    /* stored to some k->out */
    bool sink;      /* handed to the caller (cc_ew sinks) */
    int src;        /* >= 0: source `src`, written per tile by the caller (cc_ew_source_ap); -1 */
    int im;         /* a complex value: this is its real part, `im` its imaginary part; -1 */
    bool resident;  /* the same for every tile: loaded or computed once */
    int buf;        /* builder buffer; -1 */
    const struct graph_value *gv;
};

struct einstr {
    struct isa_instr in; /* op, func, func2, imm0, imm1 */
    int dst, src[3];     /* value ids (-1: none); src[1], src[2] of tensor_scalar may be scalars */
    unsigned kinds;      /* engine kinds that may run it (ISA_U_*) */
    bool two_in, transc;
    bool hoisted;        /* resident: emitted once before the tiles */
    int engine;
    int iota_scratch;    /* IOTA whose dst is iota scratch (shaped per tile) */
    int bcast;           /* COPY of a P x 1 (or iota scratch) value broadcast into a tile */
};

struct eprog {
    const struct cc_target *t;
    const struct cc_ew_spec *spec;
    int n_vals;
    struct eval v[MAX_VALS];
    int n_ins;
    struct einstr ins[MAX_INSTRS];
    /* graph value -> program value, for the group's values */
    const struct graph_value *gv_of[MAX_VALS];
    int id_of[MAX_VALS];
    int n_map;
    /* views for the tiler: kernel inputs, outputs, iota index views */
    int n_views;
    struct cc_view views[CC_TILE_MAX_VIEWS];
    int out_view[CC_TILE_MAX_VIEWS]; /* per output: its view index */
    int out_val[CC_TILE_MAX_VIEWS];  /* per output: the value stored */
    int out_view_im[CC_TILE_MAX_VIEWS]; /* complex outputs: the imaginary parts' view and value; -1 */
    int out_val_im[CC_TILE_MAX_VIEWS];
    int sink_val[CC_TILE_MAX_VIEWS]; /* per sink: its value */
    int rank;
    int64_t dims[BASE_MAX_RANK];
    /* the shape class of each view's value, decided on a tiling (NULL: tiles) */
    const enum vk *view_kind;
    const bool *view_res;
    char why[200];
};

/* ------------------------------------------------------------- dtypes */

static bool float_ok(enum base_dtype dt) { return base_dtype_is_float(dt) && base_dtype_bits(dt) <= 32; }
static bool int_ok(enum base_dtype dt)
{
    return base_dtype_is_int(dt) || dt == BASE_DT_I1;
}

static enum base_dtype result_dt(const struct graph_op *op)
{
    const struct graph_type *t = op->n_results > 0 ? op->results[0].type : NULL;
    return t && t->kind == GRAPH_TYPE_TENSOR ? t->elem : BASE_DT_COUNT;
}

static enum base_dtype value_dt(const struct graph_value *v)
{
    return v && v->type && v->type->kind == GRAPH_TYPE_TENSOR ? v->type->elem : BASE_DT_COUNT;
}

/* A splat constant's value as a double (exact), or false. */
static bool splat_value(const struct graph_op *op, double *out)
{
    if (op->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(op, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count < 1) return false;
    enum base_dtype dt = t->dtype;
    if (base_dtype_is_complex(dt)) return false;
    if (!base_elems_splat(dt, t->data, t->count)) return false;
    double v;
    if (base_dtype_is_float(dt)) {
        v = base_elem_get_f64(dt, t->data, 0);
        if (base_dtype_bits(dt) > 32 && (double)(float)v != v && !isnan(v)) return false;
    } else if (base_dtype_kind(dt) == BASE_KIND_UINT) {
        uint64_t u = base_elem_get_u64(dt, t->data, 0);
        if (u > (UINT64_C(1) << 53)) return false;
        v = (double)u;
    } else {
        int64_t s = base_elem_get_i64(dt, t->data, 0);
        if (s > (INT64_C(1) << 53) || s < -(INT64_C(1) << 53)) return false;
        v = (double)s;
    }
    *out = v;
    return true;
}

/* --------------------------------------------------------- op support */

bool cc_activation_of(enum graph_op_kind k, unsigned *act)
{
    switch (k) {
    case GRAPH_OP_EXPONENTIAL: *act = ISA_ACT_EXP; return true;
    case GRAPH_OP_EXPONENTIAL_MINUS_ONE: *act = ISA_ACT_EXPM1; return true;
    case GRAPH_OP_LOG: *act = ISA_ACT_LOG; return true;
    case GRAPH_OP_LOG_PLUS_ONE: *act = ISA_ACT_LOG1P; return true;
    case GRAPH_OP_LOGISTIC: *act = ISA_ACT_SIGMOID; return true;
    case GRAPH_OP_TANH: *act = ISA_ACT_TANH; return true;
    case GRAPH_OP_SQRT: *act = ISA_ACT_SQRT; return true;
    case GRAPH_OP_RSQRT: *act = ISA_ACT_RSQRT; return true;
    case GRAPH_OP_CBRT: *act = ISA_ACT_CBRT; return true;
    case GRAPH_OP_SINE: *act = ISA_ACT_SIN; return true;
    case GRAPH_OP_COSINE: *act = ISA_ACT_COS; return true;
    case GRAPH_OP_TAN:
    case GRAPH_OP_CHLO_TAN: *act = ISA_ACT_TAN; return true;
    case GRAPH_OP_CHLO_ERF: *act = ISA_ACT_ERF; return true;
    default: return false;
    }
}

/* The ALU function of a binary op for operand type dt (float or integer). */
static bool binary_func(enum graph_op_kind k, enum base_dtype dt, unsigned *f)
{
    bool fl = base_dtype_is_float(dt);
    switch (k) {
    case GRAPH_OP_ADD: *f = fl ? ISA_ALU_ADD : ISA_ALU_IADD; return true;
    case GRAPH_OP_SUBTRACT: *f = fl ? ISA_ALU_SUB : ISA_ALU_ISUB; return dt != BASE_DT_I1;
    case GRAPH_OP_MULTIPLY: *f = fl ? ISA_ALU_MUL : ISA_ALU_IMUL; return true;
    case GRAPH_OP_DIVIDE: *f = fl ? ISA_ALU_DIV : ISA_ALU_IDIV; return dt != BASE_DT_I1;
    case GRAPH_OP_REMAINDER: *f = fl ? ISA_ALU_REM : ISA_ALU_IREM; return dt != BASE_DT_I1;
    case GRAPH_OP_MAXIMUM: *f = fl ? ISA_ALU_MAX : ISA_ALU_IMAX; return true;
    case GRAPH_OP_MINIMUM: *f = fl ? ISA_ALU_MIN : ISA_ALU_IMIN; return true;
    case GRAPH_OP_POWER: *f = fl ? ISA_ALU_POW : ISA_ALU_IPOW; return dt != BASE_DT_I1;
    case GRAPH_OP_ATAN2: *f = ISA_ALU_ATAN2; return fl;
    case GRAPH_OP_AND: *f = ISA_ALU_IAND; return !fl;
    case GRAPH_OP_OR: *f = ISA_ALU_IOR; return !fl;
    case GRAPH_OP_XOR: *f = ISA_ALU_IXOR; return !fl;
    case GRAPH_OP_SHIFT_LEFT: *f = ISA_ALU_ISHL; return !fl && dt != BASE_DT_I1;
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL: *f = ISA_ALU_ISHRL; return !fl && dt != BASE_DT_I1;
    case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC: *f = ISA_ALU_ISHRA; return !fl && dt != BASE_DT_I1;
    default: return false;
    }
}

static bool unary_func(enum graph_op_kind k, enum base_dtype dt, unsigned *f)
{
    bool fl = base_dtype_is_float(dt);
    switch (k) {
    case GRAPH_OP_NEGATE: *f = fl ? ISA_ALU_NEG : ISA_ALU_INEG; return dt != BASE_DT_I1;
    case GRAPH_OP_ABS: *f = fl ? ISA_ALU_ABS : ISA_ALU_IABS; return dt != BASE_DT_I1;
    case GRAPH_OP_SIGN: *f = fl ? ISA_ALU_SIGN : ISA_ALU_ISIGN; return dt != BASE_DT_I1;
    case GRAPH_OP_FLOOR: *f = ISA_ALU_FLOOR; return fl;
    case GRAPH_OP_CEIL: *f = ISA_ALU_CEIL; return fl;
    case GRAPH_OP_ROUND_NEAREST_EVEN: *f = ISA_ALU_ROUND_EVEN; return fl;
    case GRAPH_OP_ROUND_NEAREST_AFZ: *f = ISA_ALU_ROUND_AFZ; return fl;
    case GRAPH_OP_IS_FINITE: *f = ISA_ALU_IS_FINITE; return fl;
    case GRAPH_OP_NOT: *f = ISA_ALU_INOT; return !fl;
    case GRAPH_OP_POPCNT: *f = ISA_ALU_POPCNT; return !fl && dt != BASE_DT_I1;
    case GRAPH_OP_COUNT_LEADING_ZEROS: *f = ISA_ALU_CLZ; return !fl && dt != BASE_DT_I1;
    default: return false;
    }
}

bool cc_compare_func(const struct graph_op *op, unsigned *f, bool integer)
{
    static const char *const names[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    static const unsigned ff[] = {ISA_ALU_EQ, ISA_ALU_NE, ISA_ALU_GE, ISA_ALU_GT, ISA_ALU_LE, ISA_ALU_LT};
    static const unsigned fi[] = {ISA_ALU_IEQ, ISA_ALU_INE, ISA_ALU_IGE, ISA_ALU_IGT, ISA_ALU_ILE, ISA_ALU_ILT};
    const struct graph_attr *a = graph_op_attr(op, "comparison_direction");
    for (int i = 0; i < 6; i++)
        if (graph_attr_is_keyword(a, names[i])) {
            *f = integer ? fi[i] : ff[i];
            return true;
        }
    return false;
}

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* A reduce_precision's exponent_bits and mantissa_bits (clamped to 62 as
 * the interpreter does), false when malformed. */
static bool reduce_precision_bits(const struct graph_op *op, int *e, int *m)
{
    int64_t e64, m64;
    if (!graph_attr_as_i64(graph_op_attr(op, "exponent_bits"), &e64) ||
        !graph_attr_as_i64(graph_op_attr(op, "mantissa_bits"), &m64) || e64 < 1 || m64 < 0)
        return false;
    *e = (int)(e64 > 62 ? 62 : e64);
    *m = (int)(m64 > 62 ? 62 : m64);
    return true;
}

bool cc_elem_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
#define X(f)                                                                                                           \
    if (cc_##f##_claims(op)) return cc_##f##_supported(op, t, why, cap);
    CC_EWX_FAMILIES(X)
#undef X
    if (cc_quant_involved(op)) return cc_quant_elem_supported(op, t, why, cap);
    if (op->n_results != 1) return why_set(why, cap, "an elementwise op has one result");
    enum base_dtype rt = result_dt(op);
    const struct graph_type *ty = op->results[0].type;
    if (!ty || ty->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ty) || ty->quant)
        return why_set(why, cap, "needs a static, non-quantized tensor result");
    for (int i = 0; i < op->n_operands; i++) {
        const struct graph_type *ot = op->operands[i]->type;
        if (!ot || ot->kind != GRAPH_TYPE_TENSOR || ot->quant) return why_set(why, cap, "quantized or non-tensor operand");
        if (base_dtype_is_complex(ot->elem)) return why_set(why, cap, "complex elements are not supported on chip");
    }
    if (base_dtype_is_complex(rt)) return why_set(why, cap, "complex elements are not supported on chip");
    enum base_dtype dt0 = op->n_operands > 0 ? value_dt(op->operands[0]) : rt;
    unsigned f;
    switch (op->kind) {
    case GRAPH_OP_CONSTANT: {
        double v;
        if (!splat_value(op, &v)) return why_set(why, cap, "only splat constants that fit an immediate are fused");
        return true;
    }
    case GRAPH_OP_IOTA:
        if (rt == BASE_DT_F64 || !(float_ok(rt) || int_ok(rt)) || rt == BASE_DT_I1)
            return why_set(why, cap, "iota of this element type is not computed on chip");
        return true;
    case GRAPH_OP_CONVERT:
        if (dt0 == rt) return true;
        return true; /* cast converts any real type exactly (f64 included) */
    case GRAPH_OP_SELECT:
        return true; /* chooses bits: any real type */
    case GRAPH_OP_COMPARE: {
        bool integer = !base_dtype_is_float(dt0);
        if (!cc_compare_func(op, &f, integer)) return why_set(why, cap, "bad comparison_direction");
        if (base_dtype_is_float(dt0) && !float_ok(dt0))
            return why_set(why, cap, cc_f64_limit(t));
        return true;
    }
    case GRAPH_OP_CLAMP:
        if (base_dtype_is_float(dt0) ? !float_ok(dt0) : !int_ok(dt0)) return why_set(why, cap, cc_f64_limit(t));
        return true;
    case GRAPH_OP_CHLO_SQUARE:
        if (!float_ok(dt0)) return why_set(why, cap, "square of this element type");
        return true;
    case GRAPH_OP_REDUCE_PRECISION: {
        int e, m;
        if (!reduce_precision_bits(op, &e, &m)) return why_set(why, cap, "needs exponent_bits >= 1 and mantissa_bits >= 0");
        const struct base_float_format *ff = base_float_format(dt0);
        if (!ff || (e >= ff->exp_bits && m >= ff->man_bits)) return true; /* the identity */
        int w = base_dtype_bits(dt0);
        if (!(ff->has_inf && ff->has_nan && ff->has_sign) || (w != 8 && w != 16 && w != 32))
            return why_set(why, cap, "reduce_precision rounds the bits of IEEE formats with inf and NaN (f32, bf16, "
                                     "f16, f8E5M2, f8E4M3) only");
        return true;
    }
    default: break;
    }
    if (cc_activation_of(op->kind, &f)) {
        if (!float_ok(dt0)) return why_set(why, cap, base_dtype_is_float(dt0) ? cc_f64_limit(t) : "transcendental functions run on f32/bf16/f16/fp8 elements only");
        return true;
    }
    if (graph_op_kind_cat(op->kind) == GRAPH_CAT_BINARY) {
        if (!binary_func(op->kind, dt0, &f)) return why_set(why, cap, "op or element type not lowered");
        if (base_dtype_is_float(dt0) && !float_ok(dt0))
            return why_set(why, cap, cc_f64_limit(t));
        return true;
    }
    if (graph_op_kind_cat(op->kind) == GRAPH_CAT_UNARY) {
        if (!unary_func(op->kind, dt0, &f)) return why_set(why, cap, "op or element type not lowered");
        if (base_dtype_is_float(dt0) && !float_ok(dt0))
            return why_set(why, cap, cc_f64_limit(t));
        return true;
    }
    return why_set(why, cap, "not an elementwise op");
}

/* ----------------------------------------------------- program building */

static int new_val(struct eprog *e, enum vk kind, enum base_dtype dt)
{
    if (e->n_vals >= MAX_VALS) return -1;
    struct eval *v = &e->v[e->n_vals];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->dt = dt;
    v->in = v->view = v->alias = v->def = v->last = v->buf = v->src = v->im = -1;
    return e->n_vals++;
}

static int imm_val(struct eprog *e, double x, enum base_dtype dt)
{
    int v = new_val(e, VK_IMM, dt);
    if (v >= 0) e->v[v].imm = x;
    return v;
}

static int add_ins(struct eprog *e, enum isa_op op, unsigned func, unsigned func2, int dst, int s0, int s1, int s2,
                   unsigned kinds)
{
    if (e->n_ins >= MAX_INSTRS || dst < 0) return -1;
    struct einstr *x = &e->ins[e->n_ins];
    memset(x, 0, sizeof *x);
    x->in.op = (uint8_t)op;
    x->in.func = (uint8_t)func;
    x->in.func2 = (uint8_t)func2;
    x->dst = dst;
    x->src[0] = s0;
    x->src[1] = s1;
    x->src[2] = s2;
    x->kinds = kinds;
    x->engine = -1;
    x->iota_scratch = x->bcast = 0;
    e->v[dst].def = e->n_ins;
    return e->n_ins++;
}

/* A value of shape class `kind` holding the immediate (for positions that need memory). */
static int materialize_imm(struct eprog *e, int v, enum vk kind)
{
    int r = new_val(e, kind, e->v[v].dt);
    if (r < 0) return -1;
    int i = add_ins(e, ISA_OP_MEMSET, 0, 0, r, -1, -1, -1, ISA_U_ELEM);
    if (i < 0) return -1;
    e->ins[i].in.imm0 = e->v[v].imm;
    return r;
}

/* v as a full tile (broadcasting a per-partition scalar or an immediate). */
static int as_tile(struct eprog *e, int v)
{
    if (v < 0) return -1;
    if (e->v[v].kind == VK_TILE) return v;
    if (e->v[v].kind == VK_IMM) return materialize_imm(e, v, VK_TILE);
    int r = new_val(e, VK_TILE, e->v[v].dt);
    if (r < 0) return -1;
    int i = add_ins(e, ISA_OP_COPY, 0, 0, r, v, -1, -1, ISA_U_ELEM);
    if (i < 0) return -1;
    e->ins[i].bcast = 1;
    return r;
}

static int as_mem(struct eprog *e, int v)
{
    if (v < 0) return -1;
    return e->v[v].kind == VK_IMM ? materialize_imm(e, v, VK_PSC) : v;
}

static bool is_scalar(const struct eprog *e, int v) { return e->v[v].kind != VK_TILE; }

static bool commutative(unsigned f)
{
    switch (f) {
    case ISA_ALU_ADD: case ISA_ALU_MUL: case ISA_ALU_MAX: case ISA_ALU_MIN: case ISA_ALU_EQ: case ISA_ALU_NE:
    case ISA_ALU_IADD: case ISA_ALU_IMUL: case ISA_ALU_IMAX: case ISA_ALU_IMIN: case ISA_ALU_IAND: case ISA_ALU_IOR:
    case ISA_ALU_IXOR: case ISA_ALU_IEQ: case ISA_ALU_INE:
        return true;
    default:
        return false;
    }
}

/* a OP b == b swapped(OP) a for the order comparisons. */
static bool swapped_compare(unsigned f, unsigned *g)
{
    switch (f) {
    case ISA_ALU_LT: *g = ISA_ALU_GT; return true;
    case ISA_ALU_GT: *g = ISA_ALU_LT; return true;
    case ISA_ALU_LE: *g = ISA_ALU_GE; return true;
    case ISA_ALU_GE: *g = ISA_ALU_LE; return true;
    case ISA_ALU_ILT: *g = ISA_ALU_IGT; return true;
    case ISA_ALU_IGT: *g = ISA_ALU_ILT; return true;
    case ISA_ALU_ILE: *g = ISA_ALU_IGE; return true;
    case ISA_ALU_IGE: *g = ISA_ALU_ILE; return true;
    default: return false;
    }
}

/* dst = x f y, choosing binary or tensor_scalar by the operands' shapes. */
static int lower_binary(struct eprog *e, unsigned f, int x, int y, enum base_dtype rt)
{
    if (x < 0 || y < 0) return -1;
    if (e->v[x].kind == VK_IMM && e->v[y].kind == VK_IMM) x = materialize_imm(e, x, VK_PSC);
    if (x < 0) return -1;
    enum vk rk = (e->v[x].kind == VK_TILE || e->v[y].kind == VK_TILE) ? VK_TILE : VK_PSC;
    int r = new_val(e, rk, rt);
    if (r < 0) return -1;
    unsigned g;
    int i;
    if (!is_scalar(e, x) || rk == VK_PSC) {
        if (is_scalar(e, y) && !(rk == VK_PSC && e->v[y].kind == VK_PSC && e->v[x].kind == VK_PSC)) {
            if (rk == VK_PSC && e->v[x].kind == VK_IMM) goto swap;
            i = add_ins(e, ISA_OP_TENSOR_SCALAR, f, ISA_ALU_BYPASS, r, x, y, -1, ISA_U_ELEM);
            return i < 0 ? -1 : r;
        }
        if (rk == VK_PSC && e->v[x].kind == VK_IMM) goto swap;
        i = add_ins(e, ISA_OP_BINARY, f, 0, r, x, y, -1, ISA_U_VEC | ISA_U_POOL);
        if (i >= 0) e->ins[i].two_in = true;
        return i < 0 ? -1 : r;
    }
swap:
    /* x is a scalar, y a tile (or both scalars with x an immediate) */
    if (commutative(f)) {
        i = add_ins(e, ISA_OP_TENSOR_SCALAR, f, ISA_ALU_BYPASS, r, y, x, -1, ISA_U_ELEM);
        return i < 0 ? -1 : r;
    }
    if (swapped_compare(f, &g)) {
        i = add_ins(e, ISA_OP_TENSOR_SCALAR, g, ISA_ALU_BYPASS, r, y, x, -1, ISA_U_ELEM);
        return i < 0 ? -1 : r;
    }
    if (f == ISA_ALU_SUB || f == ISA_ALU_ISUB) { /* x - y = (y * -1) + x, exactly */
        int m1 = imm_val(e, -1.0, e->v[y].dt);
        if (m1 < 0) return -1;
        i = add_ins(e, ISA_OP_TENSOR_SCALAR, f == ISA_ALU_SUB ? ISA_ALU_MUL : ISA_ALU_IMUL,
                    f == ISA_ALU_SUB ? ISA_ALU_ADD : ISA_ALU_IADD, r, y, m1, x, ISA_U_ELEM);
        return i < 0 ? -1 : r;
    }
    int xm = rk == VK_TILE ? as_tile(e, x) : as_mem(e, x);
    if (xm < 0) return -1;
    i = add_ins(e, ISA_OP_BINARY, f, 0, r, xm, as_mem(e, y), -1, ISA_U_VEC | ISA_U_POOL);
    if (i >= 0) e->ins[i].two_in = true;
    return i < 0 ? -1 : r;
}

static int lower_unary(struct eprog *e, enum isa_op op, unsigned f, int x, enum base_dtype rt, unsigned kinds)
{
    x = as_mem(e, x);
    if (x < 0) return -1;
    int r = new_val(e, e->v[x].kind, rt);
    if (r < 0) return -1;
    int i = add_ins(e, op, f, 0, r, x, -1, -1, kinds);
    if (i < 0) return -1;
    if (op == ISA_OP_ACTIVATE) {
        e->ins[i].in.imm0 = 1.0;  /* scale */
        e->ins[i].in.imm1 = -0.0; /* bias: x + -0 == x, also for x = -0 */
        e->ins[i].transc = true;
    }
    return r;
}

/* The total-order key of a float x (as a signed integer of its width):
 * x ^ ((x >> (w-1)) & max), as interp_total_order_key. */
static int total_order_key(struct eprog *e, int x)
{
    x = as_mem(e, x);
    if (x < 0) return -1;
    enum base_dtype it;
    switch (base_dtype_bits(e->v[x].dt)) {
    case 16: it = BASE_DT_SI16; break;
    case 32: it = BASE_DT_SI32; break;
    case 8: it = BASE_DT_SI8; break;
    default: return -1;
    }
    int w = base_dtype_bits(it);
    int bits = new_val(e, e->v[x].kind, it); /* x's storage read as an integer */
    if (bits < 0) return -1;
    e->v[bits].alias = x;
    int m = new_val(e, e->v[x].kind, it);
    int sh = imm_val(e, (double)(w - 1), it), mx = imm_val(e, ldexp(1.0, w - 1) - 1, it);
    if (m < 0 || sh < 0 || mx < 0) return -1;
    if (add_ins(e, ISA_OP_TENSOR_SCALAR, ISA_ALU_ISHRA, ISA_ALU_IAND, m, bits, sh, mx, ISA_U_ELEM) < 0) return -1;
    return lower_binary(e, ISA_ALU_IXOR, bits, m, it);
}

static int map_get(const struct eprog *e, const struct graph_value *gv)
{
    for (; gv; gv = cc_identity_source(gv)) /* an identity's result is its operand's buffer */
        for (int i = 0; i < e->n_map; i++)
            if (e->gv_of[i] == gv) return e->id_of[i];
    return -1;
}

static bool map_put(struct eprog *e, const struct graph_value *gv, int id)
{
    if (e->n_map >= MAX_VALS || id < 0) return false;
    e->gv_of[e->n_map] = gv;
    e->id_of[e->n_map++] = id;
    return true;
}

/* An index value over the index space: a view with stride 1 on dim `dim`
 * of the ops' space (iota; cc_ewb_index). */
static int index_val(struct eprog *e, int64_t dim, enum base_dtype rt)
{
    if (dim < 0 || dim >= e->rank) return -1;
    if (e->spec->dim_of) dim = e->spec->dim_of[dim];
    if (e->n_views >= CC_TILE_MAX_VIEWS) return -1;
    struct cc_view *w = &e->views[e->n_views];
    memset(w, 0, sizeof *w);
    w->dtype = BASE_DT_UI8; /* byte offsets are element indices */
    w->rank = e->rank;
    for (int d = 0; d < e->rank; d++) w->dims[d] = e->dims[d];
    w->strides[dim] = 1;
    int v = new_val(e, e->view_kind ? e->view_kind[e->n_views] : VK_TILE, rt);
    if (v < 0) return -1;
    e->v[v].iota = 1;
    e->v[v].view = e->n_views++;
    if (add_ins(e, ISA_OP_IOTA, 0, 0, v, -1, -1, -1, ISA_U_VEC | ISA_U_POOL) < 0) return -1;
    return v;
}

/* An iota value over the index space: a view with stride 1 on its dim. */
static int iota_val(struct eprog *e, const struct graph_op *op, enum base_dtype rt)
{
    int64_t dim;
    if (!graph_attr_as_i64(graph_op_attr(op, "iota_dimension"), &dim)) return -1;
    return index_val(e, dim, rt);
}

/* ------------------------------------------- the builder other files use
 * (cc_internal.h "elementwise op lowerings elsewhere") */

struct cc_ewb {
    struct eprog e;
};

static struct eprog *ewp(struct cc_ewb *b) { return (struct eprog *)b; }

int cc_ewb_imm(struct cc_ewb *b, double v, enum base_dtype dt) { return imm_val(ewp(b), v, dt); }
int cc_ewb_bin(struct cc_ewb *b, unsigned alu, int x, int y, enum base_dtype rt)
{
    return x < 0 || y < 0 ? -1 : lower_binary(ewp(b), alu, x, y, rt);
}
int cc_ewb_un(struct cc_ewb *b, unsigned alu, int x, enum base_dtype rt)
{
    return x < 0 ? -1 : lower_unary(ewp(b), ISA_OP_UNARY, alu, x, rt, ISA_U_VEC | ISA_U_POOL);
}
int cc_ewb_act(struct cc_ewb *b, unsigned act, int x, enum base_dtype rt)
{
    return x < 0 ? -1 : lower_unary(ewp(b), ISA_OP_ACTIVATE, act, x, rt, ISA_U_ACT | ISA_U_VEC);
}
int cc_ewb_sel(struct cc_ewb *b, int p, int x, int y, enum base_dtype rt)
{
    struct eprog *e = ewp(b);
    if (p < 0 || x < 0 || y < 0) return -1;
    bool any_tile = !is_scalar(e, p) || !is_scalar(e, x) || !is_scalar(e, y);
    p = any_tile ? as_tile(e, p) : as_mem(e, p);
    x = any_tile ? as_tile(e, x) : as_mem(e, x);
    y = any_tile ? as_tile(e, y) : as_mem(e, y);
    if (p < 0 || x < 0 || y < 0) return -1;
    int r = new_val(e, any_tile ? VK_TILE : VK_PSC, rt);
    if (r < 0 || add_ins(e, ISA_OP_SELECT, 0, 0, r, p, x, y, ISA_U_VEC | ISA_U_POOL) < 0) return -1;
    e->ins[e->n_ins - 1].two_in = true;
    return r;
}
int cc_ewb_bits(struct cc_ewb *b, int x, enum base_dtype as)
{
    struct eprog *e = ewp(b);
    x = x < 0 ? -1 : as_mem(e, x);
    if (x < 0 || base_dtype_size(as) != base_dtype_size(e->v[x].dt)) return -1;
    int r = new_val(e, e->v[x].kind, as);
    if (r >= 0) e->v[r].alias = x;
    return r;
}
int cc_ewb_index(struct cc_ewb *b, int dim, enum base_dtype dt) { return index_val(ewp(b), dim, dt); }
enum base_dtype cc_ewb_dt(const struct cc_ewb *b, int x)
{
    return x < 0 ? BASE_DT_COUNT : ((const struct eprog *)b)->v[x].dt;
}
bool cc_ewb_is_imm(const struct cc_ewb *b, int x, double *v)
{
    const struct eprog *e = (const struct eprog *)b;
    if (x < 0 || e->v[x].kind != VK_IMM) return false;
    if (v) *v = e->v[x].imm;
    return true;
}
int cc_ewb_rank(const struct cc_ewb *b) { return ((const struct eprog *)b)->rank; }
int cc_ewb_imag(const struct cc_ewb *b, int x) { return x < 0 ? -1 : ((const struct eprog *)b)->v[x].im; }
int cc_ewb_pair(struct cc_ewb *b, int re, int im)
{
    struct eprog *e = ewp(b);
    if (re < 0 || im < 0) return -1;
    int r;
    if (e->v[re].kind == VK_IMM) {
        r = imm_val(e, e->v[re].imm, e->v[re].dt);
    } else {
        r = new_val(e, e->v[re].kind, e->v[re].dt); /* another name for re's storage */
        if (r >= 0) e->v[r].alias = re;
    }
    if (r >= 0) e->v[r].im = im;
    return r;
}
const struct cc_target *cc_ewb_target(const struct cc_ewb *b) { return ((const struct eprog *)b)->t; }

static enum base_status build_fail(struct eprog *e, const struct graph_op *op, const char *msg)
{
    snprintf(e->why, sizeof e->why, "%s: %s", op ? op->name : "kernel", msg);
    return BASE_ERR_UNSUPPORTED;
}

/* stablehlo.reduce_precision of x (an IEEE format of 8, 16 or 32 bits) to
 * e exponent and m mantissa bits, on its bits as the interpreter does
 * (graph/interp_elementwise.c): the mantissa rounded to nearest even by adding
 * (half - 1 + the last kept bit) and clearing the dropped bits; then
 * exponents above the new range become inf, those at or below its bottom
 * zero (sign kept); a NaN stays itself (m > 0) or becomes inf (m == 0). */
static int lower_reduce_precision(struct eprog *e, int x, int eb, int mb)
{
    enum base_dtype ft = e->v[x].dt;
    const struct base_float_format *ff = base_float_format(ft);
    int w = base_dtype_bits(ft), se = ff->exp_bits, sm = ff->man_bits;
    if (eb >= se && mb >= sm) return x; /* nothing to drop */
    x = as_mem(e, x);
    if (x < 0) return -1;
    enum vk kind = e->v[x].kind;
    enum base_dtype it = w == 32 ? BASE_DT_UI32 : w == 16 ? BASE_DT_UI16 : BASE_DT_UI8;
    int bits = new_val(e, kind, it); /* x's storage read as an unsigned integer */
    if (bits < 0) return -1;
    e->v[bits].alias = x;
    double sign = ldexp(1.0, w - 1), expmask = ldexp(1.0, w - 1) - ldexp(1.0, sm);
    int v = bits;
    if (mb < sm) {
        int s = sm - mb;
        double last = ldexp(1.0, s);
        int lsb = new_val(e, kind, it), sh = imm_val(e, s, it), one = imm_val(e, 1, it);
        if (lsb < 0 || sh < 0 || one < 0) return -1;
        if (add_ins(e, ISA_OP_TENSOR_SCALAR, ISA_ALU_ISHRL, ISA_ALU_IAND, lsb, bits, sh, one, ISA_U_ELEM) < 0) return -1;
        int sum = lower_binary(e, ISA_ALU_IADD, bits, lsb, it);
        int r = new_val(e, kind, it), half = imm_val(e, last / 2 - 1, it),
            keep = imm_val(e, ldexp(1.0, w) - last, it);
        if (sum < 0 || r < 0 || half < 0 || keep < 0) return -1;
        if (add_ins(e, ISA_OP_TENSOR_SCALAR, ISA_ALU_IADD, ISA_ALU_IAND, r, sum, half, keep, ISA_U_ELEM) < 0) return -1;
        v = r;
    }
    if (eb < se) {
        double ebias = ldexp(1.0, se - 1) - 1, rbias = ldexp(1.0, eb - 1) - 1;
        int xe = lower_binary(e, ISA_ALU_IAND, v, imm_val(e, expmask, it), it);
        int over = lower_binary(e, ISA_ALU_IGT, xe, imm_val(e, ldexp(ebias + rbias, sm), it), BASE_DT_I1);
        int under = lower_binary(e, ISA_ALU_ILE, xe, imm_val(e, ldexp(ebias - rbias, sm), it), BASE_DT_I1);
        int sg = lower_binary(e, ISA_ALU_IAND, v, imm_val(e, sign, it), it);
        int inf = lower_binary(e, ISA_ALU_IOR, sg, imm_val(e, expmask, it), it);
        if (over < 0 || under < 0 || sg < 0 || inf < 0) return -1;
        int a = new_val(e, kind, it), b = new_val(e, kind, it);
        if (a < 0 || b < 0 || add_ins(e, ISA_OP_SELECT, 0, 0, a, over, inf, v, ISA_U_VEC | ISA_U_POOL) < 0) return -1;
        e->ins[e->n_ins - 1].two_in = true;
        if (add_ins(e, ISA_OP_SELECT, 0, 0, b, under, sg, a, ISA_U_VEC | ISA_U_POOL) < 0) return -1;
        e->ins[e->n_ins - 1].two_in = true;
        v = b;
    }
    /* NaN: itself, or inf of its sign when no mantissa bit remains */
    int nan = lower_binary(e, ISA_ALU_NE, x, x, BASE_DT_I1);
    int keep = bits;
    if (mb == 0) keep = lower_binary(e, ISA_ALU_IOR, lower_binary(e, ISA_ALU_IAND, bits, imm_val(e, sign, it), it),
                                     imm_val(e, expmask, it), it);
    int r = new_val(e, kind, it);
    if (nan < 0 || keep < 0 || r < 0 || add_ins(e, ISA_OP_SELECT, 0, 0, r, nan, keep, v, ISA_U_VEC | ISA_U_POOL) < 0)
        return -1;
    e->ins[e->n_ins - 1].two_in = true;
    int f = new_val(e, kind, ft); /* the bits read as the float type */
    if (f < 0) return -1;
    e->v[f].alias = r;
    return f;
}

/* One op of the group -> instructions; its result is mapped. */
static enum base_status lower_op(struct eprog *e, const struct graph_op *op)
{
    char why[160];
    if (!cc_elem_op_supported(op, e->t, why, sizeof why)) return build_fail(e, op, why);
    enum base_dtype rt = result_dt(op);
    int x[3] = {-1, -1, -1};
    for (int i = 0; i < op->n_operands && i < 3; i++) {
        x[i] = map_get(e, op->operands[i]);
        if (x[i] < 0) return build_fail(e, op, "operand not available in the kernel");
    }
#define X(f)                                                                                                           \
    if (cc_##f##_claims(op)) {                                                                                         \
        int r_ = cc_##f##_lower((struct cc_ewb *)e, op, x);                                                            \
        if (r_ < 0) return build_fail(e, op, "too many values or instructions in one fusion");                        \
        if (!map_put(e, &op->results[0], r_)) return build_fail(e, op, "too many values");                            \
        return BASE_OK;                                                                                                \
    }
    CC_EWX_FAMILIES(X)
#undef X
    /* quantized operands and results: dequantize, the op on the expressed
     * type, quantize (the interpreter's wrapper; k_quant.c) */
    const struct graph_type *rqt = NULL;
    if (cc_quant_involved(op)) {
        for (int i = 0; i < op->n_operands && i < 3; i++)
            if (op->operands[i]->type->quant) x[i] = cc_quant_dequant((struct cc_ewb *)e, x[i], op->operands[i]->type);
        for (int i = 0; i < op->n_operands && i < 3; i++)
            if (x[i] < 0) return build_fail(e, op, "too many values or instructions in one fusion");
        if (op->results[0].type->quant) {
            rqt = op->results[0].type;
            rt = rqt->quant->expressed;
        }
    }
    enum base_dtype dt0 = op->n_operands > 0 ? e->v[x[0]].dt : rt;
    unsigned f;
    int r = -1;
    switch (op->kind) {
    case GRAPH_OP_CONSTANT: {
        double c = 0;
        splat_value(op, &c);
        r = imm_val(e, c, rt);
        break;
    }
    case GRAPH_OP_IOTA: {
        r = iota_val(e, op, rt);
        break;
    }
    case GRAPH_OP_CONVERT:
        if (dt0 == rt) {
            r = x[0];
        } else if (e->v[x[0]].kind == VK_IMM) {
            r = lower_unary(e, ISA_OP_UNARY, ISA_ALU_CAST, x[0], rt, ISA_U_VEC | ISA_U_POOL);
        } else {
            r = lower_unary(e, ISA_OP_UNARY, ISA_ALU_CAST, x[0], rt, ISA_U_VEC | ISA_U_POOL);
        }
        break;
    case GRAPH_OP_SELECT: {
        bool any_tile = !is_scalar(e, x[0]) || !is_scalar(e, x[1]) || !is_scalar(e, x[2]);
        int p = any_tile ? as_tile(e, x[0]) : as_mem(e, x[0]);
        int a = any_tile ? as_tile(e, x[1]) : as_mem(e, x[1]);
        int b = any_tile ? as_tile(e, x[2]) : as_mem(e, x[2]);
        if (p < 0 || a < 0 || b < 0) return build_fail(e, op, "too many values");
        r = new_val(e, any_tile ? VK_TILE : VK_PSC, rt);
        if (r < 0 || add_ins(e, ISA_OP_SELECT, 0, 0, r, p, a, b, ISA_U_VEC | ISA_U_POOL) < 0) r = -1;
        else e->ins[e->n_ins - 1].two_in = true;
        break;
    }
    case GRAPH_OP_CLAMP: {
        bool fl = base_dtype_is_float(dt0);
        int lo = x[0], v = x[1], hi = x[2];
        unsigned fmax = fl ? ISA_ALU_MAX : ISA_ALU_IMAX, fmin = fl ? ISA_ALU_MIN : ISA_ALU_IMIN;
        if (!is_scalar(e, v) && is_scalar(e, lo) && is_scalar(e, hi)) {
            r = new_val(e, VK_TILE, rt);
            if (r < 0 || add_ins(e, ISA_OP_TENSOR_SCALAR, fmax, fmin, r, v, lo, hi, ISA_U_ELEM) < 0) r = -1;
        } else {
            int m = lower_binary(e, fmax, v, lo, rt);
            r = lower_binary(e, fmin, m, hi, rt);
        }
        break;
    }
    case GRAPH_OP_COMPARE: {
        bool fl = base_dtype_is_float(dt0);
        cc_compare_func(op, &f, !fl);
        if (fl && graph_attr_is_keyword(graph_op_attr(op, "compare_type"), "TOTALORDER")) {
            cc_compare_func(op, &f, true);
            int ka = total_order_key(e, x[0]), kb = total_order_key(e, x[1]);
            if (ka < 0 || kb < 0) return build_fail(e, op, "total order of this element type");
            r = lower_binary(e, f, ka, kb, rt);
        } else {
            r = lower_binary(e, f, x[0], x[1], rt);
        }
        break;
    }
    case GRAPH_OP_CHLO_SQUARE:
        r = lower_binary(e, ISA_ALU_MUL, x[0], x[0], rt);
        break;
    case GRAPH_OP_REDUCE_PRECISION: {
        int eb = 0, mb = 0;
        reduce_precision_bits(op, &eb, &mb);
        r = lower_reduce_precision(e, x[0], eb, mb);
        break;
    }
    default:
        if (cc_activation_of(op->kind, &f)) {
            r = lower_unary(e, ISA_OP_ACTIVATE, f, x[0], rt, ISA_U_ACT | ISA_U_VEC);
        } else if (graph_op_kind_cat(op->kind) == GRAPH_CAT_BINARY) {
            binary_func(op->kind, dt0, &f);
            r = lower_binary(e, f, x[0], x[1], rt);
        } else {
            unary_func(op->kind, dt0, &f);
            r = lower_unary(e, ISA_OP_UNARY, f, x[0], rt, ISA_U_VEC | ISA_U_POOL);
        }
        break;
    }
    if (rqt && r >= 0) r = cc_quant_quant((struct cc_ewb *)e, r, rqt);
    if (r < 0) return build_fail(e, op, "too many values or instructions in one fusion");
    if (!map_put(e, &op->results[0], r)) return build_fail(e, op, "too many values");
    return BASE_OK;
}

/* The real (part 0) or imaginary (part 1) f32 view of a complex64 view. */
static struct cc_view part_view(const struct cc_view *w, int part)
{
    struct cc_view r = *w;
    r.dtype = BASE_DT_F32;
    for (int d = 0; d < r.rank; d++) r.strides[d] *= 2;
    r.addr += (uint64_t)part * 4;
    return r;
}

/* ------------------------------------------------------------ analysis */

static int root_val(const struct eprog *e, int v)
{
    while (v >= 0 && e->v[v].alias >= 0) v = e->v[v].alias;
    return v;
}

/* Liveness: last reader of each (root) value. */
static void liveness(struct eprog *e)
{
    for (int i = 0; i < e->n_vals; i++) e->v[i].last = -1;
    for (int i = 0; i < e->n_ins; i++)
        for (int s = 0; s < 3; s++) {
            int v = root_val(e, e->ins[i].src[s]);
            if (v >= 0) e->v[v].last = i;
        }
}

/* Resident values: loaded invariants, and what only they (and immediates)
 * feed; such instructions run once, before the tiles. */
static void hoist(struct eprog *e)
{
    for (int i = 0; i < e->n_ins; i++) {
        struct einstr *x = &e->ins[i];
        bool all = !e->v[x->dst].iota;
        for (int s = 0; s < 3 && all; s++) {
            int v = root_val(e, x->src[s]);
            if (v >= 0 && e->v[v].kind != VK_IMM && !e->v[v].resident) all = false;
        }
        if (x->in.op == ISA_OP_IOTA) all = false;
        x->hoisted = all;
        if (all) e->v[x->dst].resident = true;
    }
    for (int i = 0; i < e->n_vals; i++)
        if (e->v[i].alias >= 0) e->v[i].resident = e->v[root_val(e, i)].resident;
}

/* Per-partition bytes of the buffers per tile element (for the budget) and
 * the fixed bytes of P x 1 buffers. */
static void buffer_bytes(const struct eprog *e, uint64_t *per_elem, uint64_t *fixed)
{
    *per_elem = 0;
    *fixed = 0;
    uint64_t ies = 0;
    for (int i = 0; i < e->n_vals; i++) {
        const struct eval *v = &e->v[i];
        if (v->alias >= 0 || v->kind == VK_IMM) continue;
        if (v->in < 0 && v->def < 0 && !v->iota && v->src < 0) continue;
        uint64_t es = base_dtype_size(v->dt), slots = v->resident ? 1 : N_SLOTS;
        if (v->kind == VK_TILE) *per_elem += es * slots;
        else *fixed += 64 * slots;
        /* iotas also share a scratch tile of at least 4-byte elements (cc_ew_prepare's iota_buf) */
        if (v->iota && (es < 4 ? 4 : es) > ies) ies = es < 4 ? 4 : es;
    }
    *per_elem += ies * N_SLOTS;
}

/* Classify the views' values on a tiling: per-partition scalars (stride 0
 * on every free dim with more than one element) and residents (stride 0 on
 * every dim cut into several tiles; loaded inputs only). */
static void classify(const struct eprog *e, const struct cc_tiling *tl, enum vk *kind, bool *res)
{
    for (int vi = 0; vi < e->n_views; vi++) {
        bool psc = true, r_ok = tl->n_regions <= 1;
        for (int ri = 0; ri < tl->n_regions; ri++) {
            const struct cc_region *r = &tl->r[ri];
            const struct cc_view *w = &r->views[vi];
            for (int k = 0; k < r->n_free; k++)
                if (w->strides[r->free_dims[k]] != 0) psc = false;
            for (int d = 0; d < r->rank; d++) {
                bool cut = r->count[d] < r->dims[d];
                if (cut && w->strides[d] != 0) r_ok = false;
                if (cut && d != r->part_dim && r->dims[d] % r->count[d] != 0) r_ok = false;
            }
        }
        kind[vi] = psc ? VK_PSC : VK_TILE;
        res[vi] = r_ok;
    }
    for (int i = 0; i < e->n_vals; i++) /* iota values are computed per tile */
        if (e->v[i].iota) res[e->v[i].view] = false;
}

/* ------------------------------------------------------------- emission */

struct cc_ew {
    struct eprog e;
    struct cc_ew_spec spec;
    struct cc_kb *b;
    const struct cc_tiling *tl;
    int64_t lo, hi;
    uint32_t max_p;
    uint64_t max_f;
    int iota_buf;
    bool sink_direct[CC_TILE_MAX_VIEWS];
    int sink_engine;
    enum vk kind[CC_TILE_MAX_VIEWS];
    bool res[CC_TILE_MAX_VIEWS];
};

static struct isa_ap val_ap(const struct cc_ew *m, int v, int slot, uint32_t P, uint64_t F, bool scalar_shape)
{
    const struct eprog *e = &m->e;
    int r = root_val(e, v);
    const struct eval *rv = &e->v[r];
    int s = rv->resident ? 0 : slot;
    uint64_t n = rv->kind == VK_TILE && !scalar_shape ? F : 0;
    return cc_kb_sp(m->b, rv->buf, s, 0, 0, P, e->v[v].dt, n);
}

static struct cc_access val_acc(const struct cc_ew *m, int v, int slot, int mode)
{
    int r = root_val(&m->e, v);
    const struct eval *rv = &m->e.v[r];
    struct cc_access a = {rv->buf, rv->resident ? 0 : slot, mode};
    return a;
}

static void tile_shape(const struct cc_ew *m, int64_t tile, int *region, struct cc_box *box, uint32_t *P,
                       uint64_t *F)
{
    memset(box, 0, sizeof *box);
    *region = 0;
    if (tile < 0) {
        *P = m->max_p;
        *F = m->max_f;
        return;
    }
    cc_tiling_tile(m->tl, tile, region, box);
    *P = cc_tiling_parts(m->tl, *region, box);
    *F = cc_tiling_free(m->tl, *region, box);
}

static enum base_status emit_load(struct cc_ew *m, int v, int64_t tile, int slot)
{
    struct eval *ev = &m->e.v[v];
    int region;
    struct cc_box box;
    uint32_t P;
    uint64_t F;
    tile_shape(m, tile, &region, &box, &P, &F);
    struct isa_ap src;
    if (ev->kind == VK_PSC) {
        const struct cc_region *r = &m->tl->r[region];
        for (int d = 0; d < r->rank; d++)
            if (d != r->part_dim) box.count[d] = 1;
        if (!cc_view_box_ap(&r->views[ev->view], &box, r->part_dim, NULL, 0, &src))
            return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "input %d: no access pattern for its tile", ev->in);
        F = 1;
    } else if (!cc_tiling_ap(m->tl, region, ev->view, &box, &src)) {
        return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "input %d: no access pattern for its tile", ev->in);
    }
    struct isa_ap dst = val_ap(m, v, slot, P, F, ev->kind == VK_PSC);
    struct cc_access a = val_acc(m, v, slot, CC_WR);
    int pieces = cc_kb_dma_pieces(m->b, (uint64_t)P * F * base_dtype_size(ev->dt), P);
    return cc_kb_dma(m->b, &dst, &src, &a, 1, pieces);
}

static enum base_status emit_store(struct cc_ew *m, int o, int64_t tile, int slot, bool imag)
{
    int v = imag ? m->e.out_val_im[o] : m->e.out_val[o];
    int region;
    struct cc_box box;
    uint32_t P;
    uint64_t F;
    tile_shape(m, tile, &region, &box, &P, &F);
    struct isa_ap dst;
    if (!cc_tiling_ap(m->tl, region, imag ? m->e.out_view_im[o] : m->e.out_view[o], &box, &dst))
        return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "output %d: no access pattern for its tile", o);
    struct isa_ap src = val_ap(m, v, slot, P, F, false);
    struct cc_access a = val_acc(m, v, slot, CC_RD);
    int pieces = cc_kb_dma_pieces(m->b, (uint64_t)P * F * base_dtype_size(m->e.v[v].dt), P);
    return cc_kb_dma(m->b, &dst, &src, &a, 1, pieces);
}

/* The iota of a tile: IOTA into scratch, then a strided copy that picks
 * base + part_step * p + sum(stride_k * i_k). */
static enum base_status emit_iota(struct cc_ew *m, const struct einstr *x, int slot, int region,
                                  const struct cc_box *box, uint32_t P, uint64_t F, const struct isa_ap *dst_over,
                                  const struct cc_access *acc_over)
{
    const struct eval *v = &m->e.v[x->dst];
    struct isa_ap ia;
    if (!cc_tiling_ap(m->tl, region, v->view, box, &ia))
        return cc_kb_fail(m->b, BASE_ERR_INTERNAL, "iota: no index pattern for the tile");
    int64_t span = 0;
    for (int k = 0; k < ia.ndims; k++) span += ia.stride[k] * (int64_t)(ia.count[k] - 1);
    enum base_dtype gen = v->dt;
    if (base_dtype_is_int(gen) && base_dtype_bits(gen) < 32) gen = BASE_DT_SI32; /* wraps like iota, via cast */
    struct isa_instr io;
    memset(&io, 0, sizeof io);
    io.op = ISA_OP_IOTA;
    io.imm0 = (double)ia.addr;
    io.imm1 = (double)ia.part_stride_bytes;
    io.dst = cc_kb_sp(m->b, m->iota_buf, slot, 0, 0, P, gen, (uint64_t)span + 1);
    if (ia.ndims == 0 || span == 0) io.dst.ndims = 0, io.dst.count[0] = 0, io.dst.stride[0] = 0;
    struct cc_access a = {m->iota_buf, slot, CC_WR};
    TRY(cc_kb_emit(m->b, x->engine, &io, &a, 1));
    struct isa_instr cp;
    memset(&cp, 0, sizeof cp);
    cp.op = ISA_OP_UNARY;
    cp.func = ISA_ALU_CAST;
    cp.dst = dst_over ? *dst_over : val_ap(m, x->dst, slot, P, F, false);
    cp.src0 = io.dst;
    if (v->kind != VK_PSC) {
        cp.src0.ndims = ia.ndims;
        for (int k = 0; k < ISA_MAX_DIMS; k++) {
            cp.src0.stride[k] = k < ia.ndims ? ia.stride[k] : 0;
            cp.src0.count[k] = k < ia.ndims ? ia.count[k] : 0;
        }
        if (ia.ndims == 0) { /* one index per partition, broadcast along the free dims */
            cp.src0.ndims = 1;
            cp.src0.stride[0] = 0;
            cp.src0.count[0] = (uint32_t)F;
        }
    }
    if (gen == v->dt) cp.op = ISA_OP_COPY, cp.func = 0;
    struct cc_access b2[2] = {{m->iota_buf, slot, CC_RD}, acc_over ? *acc_over : val_acc(m, x->dst, slot, CC_WR)};
    return cc_kb_emit(m->b, x->engine, &cp, b2, 2);
}

/* Instruction i for a tile (-1: once, for the largest tile shape); dst_over:
 * write there instead of the value's buffer (a sink). */
static enum base_status emit_ins(struct cc_ew *m, int i, int slot, int64_t tile, const struct isa_ap *dst_over,
                                 const struct cc_access *acc_over)
{
    const struct eprog *e = &m->e;
    const struct einstr *x = &e->ins[i];
    int region;
    struct cc_box box;
    uint32_t P;
    uint64_t F;
    tile_shape(m, tile, &region, &box, &P, &F);
    if (e->v[x->dst].iota) return emit_iota(m, x, slot, region, &box, P, F, dst_over, acc_over);
    const struct eval *d = &e->v[x->dst];
    struct isa_instr in = x->in;
    struct cc_access acc[4];
    int na = 0;
    in.dst = dst_over ? *dst_over : val_ap(m, x->dst, slot, P, F, false);
    acc[na++] = acc_over ? *acc_over : val_acc(m, x->dst, slot, CC_WR);
    bool psc_shape = d->kind == VK_PSC;
    enum isa_fmt fmt = isa_op_fmt((enum isa_op)in.op);
    for (int s = 0; s < 3; s++) {
        int v = x->src[s];
        if (v < 0) continue;
        struct isa_ap *ap = s == 0 ? &in.src0 : s == 1 ? &in.src1 : &in.src2;
        bool scalar_pos = fmt == ISA_FMT_TENSOR_SCALAR && s > 0;
        if (e->v[v].kind == VK_IMM) {
            if (s == 1) in.imm0 = e->v[v].imm;
            else in.imm1 = e->v[v].imm;
            continue;
        }
        if (scalar_pos) in.flags |= s == 1 ? ISA_FLAG_SCALE_AP : ISA_FLAG_BIAS_AP;
        *ap = val_ap(m, v, slot, P, F, scalar_pos || psc_shape || e->v[root_val(e, v)].kind == VK_PSC);
        if (x->bcast) { /* a per-partition scalar broadcast along the free elements */
            ap->ndims = 1;
            ap->stride[0] = 0;
            ap->count[0] = (uint32_t)F;
        }
        acc[na++] = val_acc(m, v, slot, CC_RD);
    }
    if (in.op == ISA_OP_MEMSET && psc_shape) in.dst.ndims = 0, in.dst.count[0] = 0, in.dst.stride[0] = 0;
    return cc_kb_emit(m->b, x->engine, &in, acc, na);
}

/* Engines for each instruction: the allowed engine of least estimated load. */
static int assign_engines(struct eprog *e, const struct cc_target *t, uint32_t P, uint64_t F, double *load)
{
    int cand[3] = {t->vec, t->act, t->pool};
    unsigned candk[3] = {ISA_U_VEC, ISA_U_ACT, ISA_U_POOL};
    for (int i = 0; i < e->n_ins; i++) {
        struct einstr *x = &e->ins[i];
        const struct eval *d = &e->v[x->dst];
        uint64_t f = d->kind == VK_TILE ? F : 1;
        if (x->in.op == ISA_OP_ACTIVATE && x->in.func == ISA_ACT_IDENTITY) x->transc = false;
        int best = -1;
        double best_t = 0;
        for (int c = 0; c < 3; c++) {
            if (cand[c] < 0 || !(x->kinds & candk[c])) continue;
            enum base_dtype dt = d->dt;
            for (int s = 0; s < 3; s++)
                if (x->src[s] >= 0 && e->v[x->src[s]].kind != VK_IMM &&
                    base_dtype_size(e->v[x->src[s]].dt) > base_dtype_size(dt))
                    dt = e->v[x->src[s]].dt;
            double ns = cc_kb_elem_ns(t, cand[c], P, f, dt, x->two_in, x->transc);
            if (x->hoisted) ns = 0;
            if (best < 0 || load[cand[c]] + ns < best_t) {
                best = cand[c];
                best_t = load[cand[c]] + ns;
            }
        }
        x->engine = best;
        if (best < 0) return i;
        load[best] = best_t;
    }
    return -1;
}

/* Physical buffers: one per stored value, reused by values whose lives do
 * not overlap (same element size, same shape class). */
static enum base_status alloc_buffers(struct cc_ew *m)
{
    struct eprog *e = &m->e;
    struct cc_kb *b = m->b;
    int owner_last[CC_KB_MAX_BUFS];
    size_t owner_es[CC_KB_MAX_BUFS];
    int owner_kind[CC_KB_MAX_BUFS];
    bool owner_res[CC_KB_MAX_BUFS];
    int n_pool = 0, pool_buf[CC_KB_MAX_BUFS];
    /* a resident read by a tile's instruction lives through every tile; one
     * read only by hoisted instructions dies in the prologue (a kernel whose
     * whole input is one tile is hoisted entirely: lgamma's ~100 values) */
    bool read_per_tile[MAX_VALS];
    memset(read_per_tile, 0, sizeof read_per_tile);
    for (int i = 0; i < e->n_ins; i++)
        for (int s = 0; s < 3; s++) {
            int r = root_val(e, e->ins[i].src[s]);
            if (r >= 0 && !e->ins[i].hoisted) read_per_tile[r] = true;
        }
    for (int i = 0; i < e->n_vals; i++) {
        struct eval *v = &e->v[i];
        if (v->alias >= 0 || v->kind == VK_IMM) continue;
        if (v->in < 0 && v->def < 0 && !v->iota && v->src < 0) continue;
        size_t es = base_dtype_size(v->dt);
        uint64_t bytes = v->kind == VK_TILE ? m->max_f * es : es;
        bool prologue_temp = v->resident && !read_per_tile[i] && !v->sink && v->def >= 0;
        if ((v->resident && !prologue_temp) || v->in >= 0 || v->output || v->iota || v->src >= 0) {
            v->buf = cc_kb_buffer(b, bytes, v->resident ? 1 : CC_EW_SLOTS);
            if (v->buf < 0) return b->diag->status;
            continue;
        }
        /* a temporary: reuse a pooled buffer (of the same lifetime class:
         * prologue or tiles) whose value died before this one is defined */
        int got = -1;
        for (int k = 0; k < n_pool; k++)
            if (owner_last[k] < v->def && owner_es[k] == es && owner_kind[k] == (int)v->kind &&
                owner_res[k] == prologue_temp) {
                got = k;
                break;
            }
        if (got < 0) {
            if (n_pool >= CC_KB_MAX_BUFS) return cc_kb_fail(b, BASE_ERR_LIMIT, "too many temporaries");
            int id = cc_kb_buffer(b, bytes, prologue_temp ? 1 : CC_EW_SLOTS);
            if (id < 0) return b->diag->status;
            got = n_pool++;
            pool_buf[got] = id;
            owner_es[got] = es;
            owner_kind[got] = (int)v->kind;
            owner_res[got] = prologue_temp;
        }
        owner_last[got] = v->last > v->def ? v->last : v->def;
        v->buf = pool_buf[got];
    }
    return BASE_OK;
}

/* An input value to load: read by some instruction or stored. */
static bool loaded(const struct eprog *e, int v)
{
    return e->v[v].in >= 0 && (e->v[v].last >= 0 || e->v[v].output || e->v[v].sink);
}

static enum base_status build(struct eprog *e, const struct cc_target *t, const struct cc_ew_spec *sp,
                              const enum vk *kind, const bool *res)
{
    memset(e, 0, sizeof *e);
    e->t = t;
    e->spec = sp;
    e->view_kind = kind;
    e->view_res = res;
    e->rank = sp->rank;
    for (int d = 0; d < sp->rank; d++) e->dims[d] = sp->dims[d];
    if (sp->n_in + sp->n_out + 8 > CC_TILE_MAX_VIEWS) return build_fail(e, NULL, "too many operands");
    /* inputs: views over the index space (rank-0 ones broadcast) */
    for (int i = 0; i < sp->n_in; i++) {
        if (sp->in_ok && !sp->in_ok[i]) continue;
        const struct cc_operand *o = &sp->in[i];
        double c;
        int v;
        double cre, cim;
        if (o->value && o->value->def && splat_value(o->value->def, &c)) {
            v = imm_val(e, c, value_dt(o->value));
        } else if (o->value && o->value->def && cc_complex_splat(o->value->def, &cre, &cim)) {
            v = cc_ewb_pair((struct cc_ewb *)e, imm_val(e, cre, BASE_DT_F32), imm_val(e, cim, BASE_DT_F32));
        } else if (o->view.dtype == BASE_DT_C64) { /* two f32 inputs: the parts */
            if (e->n_views + 2 + 8 > CC_TILE_MAX_VIEWS) return build_fail(e, NULL, "too many complex operands");
            int part[2];
            for (int k = 0; k < 2; k++) {
                struct cc_view w = part_view(&o->view, k);
                if (w.rank == 0) {
                    w.rank = e->rank;
                    for (int d = 0; d < e->rank; d++) w.dims[d] = e->dims[d], w.strides[d] = 0;
                }
                if (w.rank != e->rank) return build_fail(e, NULL, "an input's view does not have the output's rank");
                part[k] = new_val(e, e->view_kind ? e->view_kind[e->n_views] : VK_TILE, BASE_DT_F32);
                if (part[k] < 0) return build_fail(e, NULL, "too many values");
                e->v[part[k]].resident = e->view_res ? e->view_res[e->n_views] : false;
                e->v[part[k]].in = i;
                e->v[part[k]].view = e->n_views;
                e->views[e->n_views++] = w;
            }
            v = part[0];
            e->v[v].im = part[1];
        } else {
            struct cc_view w = o->view;
            if (w.rank == 0) {
                w.rank = e->rank;
                for (int d = 0; d < e->rank; d++) w.dims[d] = e->dims[d], w.strides[d] = 0;
            }
            if (w.rank != e->rank) return build_fail(e, NULL, "an input's view does not have the output's rank");
            for (int d = 0; d < e->rank; d++)
                if (w.dims[d] != e->dims[d]) return build_fail(e, NULL, "an input's view does not have the output's shape");
            v = new_val(e, e->view_kind ? e->view_kind[e->n_views] : VK_TILE, o->view.dtype);
            if (v < 0) return build_fail(e, NULL, "too many values");
            e->v[v].resident = e->view_res ? e->view_res[e->n_views] : false;
            e->v[v].in = i;
            e->v[v].view = e->n_views;
            e->views[e->n_views++] = w;
        }
        if (v < 0 || !map_put(e, o->value, v)) return build_fail(e, NULL, "too many values");
        e->v[v].gv = o->value;
    }
    /* sources: tiles the caller writes (a matmul's result) */
    for (int i = 0; i < sp->n_src; i++) {
        int v = new_val(e, VK_TILE, value_dt(sp->src[i]));
        if (v < 0 || !map_put(e, sp->src[i], v)) return build_fail(e, NULL, "too many values");
        e->v[v].src = i;
        e->v[v].gv = sp->src[i];
    }
    for (int i = 0; i < sp->n_ops; i++) TRY(lower_op(e, sp->ops[i]));
    for (int o = 0; o < sp->n_out; o++) {
        const struct cc_view *w = &sp->out[o].view;
        if (w->rank != e->rank) return build_fail(e, NULL, "outputs of one fusion must have one shape");
        for (int d = 0; d < e->rank; d++)
            if (w->dims[d] != e->dims[d]) return build_fail(e, NULL, "outputs of one fusion must have one shape");
        int v = map_get(e, sp->out[o].value);
        if (v < 0) return build_fail(e, NULL, "an output is not computed by the fusion");
        e->out_view_im[o] = e->out_val_im[o] = -1;
        if (w->dtype == BASE_DT_C64) { /* the parts, stored through the parts' views */
            if (e->v[v].im < 0) return build_fail(e, NULL, "a complex output without its imaginary part");
            if (e->n_views + 2 > CC_TILE_MAX_VIEWS) return build_fail(e, NULL, "too many complex operands");
            e->out_view[o] = e->n_views;
            e->views[e->n_views++] = part_view(w, 0);
            e->out_view_im[o] = e->n_views;
            e->views[e->n_views++] = part_view(w, 1);
            e->out_val[o] = v;
            e->out_val_im[o] = e->v[v].im;
            continue;
        }
        e->out_view[o] = e->n_views;
        e->views[e->n_views++] = *w;
        e->out_val[o] = v;
    }
    for (int i = 0; i < sp->n_sink; i++) {
        int v = map_get(e, sp->sink[i]);
        if (v < 0) return build_fail(e, NULL, "a reduced value is not computed by the prologue");
        e->sink_val[i] = v;
        e->v[root_val(e, v)].sink = true;
    }
    return BASE_OK;
}

/* Outputs become per-tile tiles (stored): each output value that is not one
 * is broadcast or copied into one. */
static int output_tile(struct eprog *e, int v)
{
    if (e->v[v].kind != VK_TILE || e->v[v].alias >= 0 || e->v[v].resident) {
        int c;
        if (e->v[v].kind == VK_TILE) {
            c = new_val(e, VK_TILE, e->v[v].dt);
            if (c < 0 || add_ins(e, ISA_OP_COPY, 0, 0, c, v, -1, -1, ISA_U_ELEM) < 0) c = -1;
        } else {
            c = as_tile(e, v);
        }
        if (c < 0) return -1;
        v = c;
    }
    e->v[v].output = true;
    return v;
}

static enum base_status finish_outputs(struct eprog *e)
{
    for (int o = 0; o < e->spec->n_out; o++) {
        if (e->out_val_im[o] >= 0) { /* a complex output: both parts */
            int a = output_tile(e, e->out_val[o]), b = a < 0 ? -1 : output_tile(e, e->out_val_im[o]);
            if (a < 0 || b < 0) return build_fail(e, NULL, "too many values");
            e->out_val[o] = a;
            e->out_val_im[o] = b;
            continue;
        }
        int v = e->out_val[o];
        if (e->v[v].kind != VK_TILE || e->v[v].alias >= 0 || e->v[v].resident) {
            int c;
            if (e->v[v].kind == VK_TILE) {
                c = new_val(e, VK_TILE, e->v[v].dt);
                if (c < 0 || add_ins(e, ISA_OP_COPY, 0, 0, c, v, -1, -1, ISA_U_ELEM) < 0) c = -1;
            } else {
                c = as_tile(e, v);
            }
            if (c < 0) return build_fail(e, NULL, "too many values");
            v = c;
            e->out_val[o] = v;
        }
        e->v[v].output = true;
    }
    return BASE_OK;
}

/* Builds for the views' classes (NULL: all tiles), finishes the outputs, and
 * computes liveness and hoisting. */
static enum base_status build_all(struct eprog *e, const struct cc_target *t, const struct cc_ew_spec *sp,
                                  const enum vk *kind, const bool *res)
{
    TRY(build(e, t, sp, kind, res));
    TRY(finish_outputs(e));
    liveness(e);
    hoist(e);
    return BASE_OK;
}

enum base_status cc_ew_new(const struct cc_ew_spec *spec, struct cc_kb *b, struct cc_ew **out)
{
    *out = NULL;
    struct cc_ew *w = calloc(1, sizeof *w);
    if (!w) return cc_kb_fail(b, BASE_ERR_NOMEM, "out of memory");
    w->spec = *spec;
    w->b = b;
    w->iota_buf = -1;
    enum base_status st = build_all(&w->e, b->t, &w->spec, NULL, NULL);
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "%s", w->e.why);
        free(w);
        return st;
    }
    *out = w;
    return BASE_OK;
}

void cc_ew_free(struct cc_ew *w) { free(w); }

void cc_ew_bytes(const struct cc_ew *w, uint64_t *per_elem, uint64_t *fixed) { buffer_bytes(&w->e, per_elem, fixed); }

int cc_ew_views(const struct cc_ew *w, const struct cc_view **views)
{
    *views = w->e.views;
    return w->e.n_views;
}

enum base_status cc_ew_prepare(struct cc_ew *w, const struct cc_tiling *tl, int64_t lo, int64_t hi)
{
    struct cc_kb *b = w->b;
    w->tl = tl;
    w->lo = lo;
    w->hi = hi;
    classify(&w->e, tl, w->kind, w->res);
    enum base_status st = build_all(&w->e, b->t, &w->spec, w->kind, w->res);
    if (st != BASE_OK) return cc_kb_fail(b, st, "%s", w->e.why);
    w->max_p = 1;
    w->max_f = 1;
    int64_t biggest = lo; /* residents are loaded with the largest tile's shape */
    for (int64_t i = lo; i < hi; i++) {
        int region;
        struct cc_box box;
        cc_tiling_tile(tl, i, &region, &box);
        uint32_t p = cc_tiling_parts(tl, region, &box);
        uint64_t f = cc_tiling_free(tl, region, &box);
        if (p >= w->max_p && f >= w->max_f) biggest = i;
        if (p > w->max_p) w->max_p = p;
        if (f > w->max_f) w->max_f = f;
    }
    struct eprog *e = &w->e;
    double load[CHIP_MAX_ENGINES] = {0};
    int bad = assign_engines(e, b->t, w->max_p, w->max_f, load);
    if (bad >= 0)
        return cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "no engine of the chip runs %s",
                          isa_op_name((enum isa_op)e->ins[bad].in.op));
    /* sinks: written by their defining instruction when nothing else reads them */
    w->sink_engine = -1;
    for (int i = 0; i < w->spec.n_sink; i++) {
        int v = e->sink_val[i];
        const struct eval *ev = &e->v[v];
        w->sink_direct[i] = ev->kind == VK_TILE && ev->def >= 0 && ev->alias < 0 && !e->ins[ev->def].hoisted &&
                            ev->last < 0 && !ev->output && ev->in < 0;
        if (!w->sink_direct[i] && w->sink_engine < 0) {
            int cand[3] = {b->t->act, b->t->pool, b->t->vec};
            for (int c = 0; c < 3 && w->sink_engine < 0; c++) w->sink_engine = cand[c];
        }
    }
    TRY(alloc_buffers(w));
    size_t ies = 0;
    for (int i = 0; i < e->n_vals; i++)
        if (e->v[i].iota) {
            size_t es = base_dtype_size(e->v[i].dt) < 4 ? 4 : base_dtype_size(e->v[i].dt);
            if (es > ies) ies = es;
        }
    if (ies) {
        w->iota_buf = cc_kb_buffer(b, w->max_f * ies, CC_EW_SLOTS);
        if (w->iota_buf < 0) return b->diag->status;
    }
    if (lo >= hi) return BASE_OK;
    /* residents: loads and hoisted instructions, once */
    for (int i = 0; i < e->n_vals; i++)
        if (loaded(e, i) && e->v[i].resident) TRY(emit_load(w, i, biggest, 0));
    for (int i = 0; i < e->n_ins; i++)
        if (e->ins[i].hoisted) TRY(emit_ins(w, i, 0, -1, NULL, NULL));
    return BASE_OK;
}

enum base_status cc_ew_loads(struct cc_ew *w, int64_t tile, int slot)
{
    for (int i = 0; i < w->e.n_vals; i++)
        if (loaded(&w->e, i) && !w->e.v[i].resident) TRY(emit_load(w, i, tile, slot));
    return BASE_OK;
}

enum base_status cc_ew_compute(struct cc_ew *w, int64_t tile, int slot, const struct isa_ap *sink_ap,
                               const struct cc_access *sink_acc)
{
    const struct eprog *e = &w->e;
    for (int i = 0; i < e->n_ins; i++) {
        if (e->ins[i].hoisted) continue;
        const struct isa_ap *over = NULL;
        const struct cc_access *aover = NULL;
        for (int s = 0; s < w->spec.n_sink; s++)
            if (w->sink_direct[s] && e->sink_val[s] == e->ins[i].dst) over = &sink_ap[s], aover = &sink_acc[s];
        TRY(emit_ins(w, i, slot, tile, over, aover));
    }
    for (int s = 0; s < w->spec.n_sink; s++) {
        if (w->sink_direct[s]) continue;
        int v = e->sink_val[s];
        int region;
        struct cc_box box;
        uint32_t P;
        uint64_t F;
        tile_shape(w, tile, &region, &box, &P, &F);
        struct isa_instr in;
        memset(&in, 0, sizeof in);
        in.dst = sink_ap[s];
        struct cc_access acc[2] = {sink_acc[s], {0, 0, 0}};
        int na = 1;
        if (e->v[v].kind == VK_IMM) {
            in.op = ISA_OP_MEMSET;
            in.imm0 = e->v[v].imm;
        } else {
            in.op = ISA_OP_COPY;
            in.src0 = val_ap(w, v, slot, P, F, false);
            if (e->v[root_val(e, v)].kind == VK_PSC) {
                in.src0.ndims = 1;
                in.src0.stride[0] = 0;
                in.src0.count[0] = (uint32_t)F;
            }
            acc[na++] = val_acc(w, v, slot, CC_RD);
        }
        TRY(cc_kb_emit(w->b, w->sink_engine, &in, acc, na));
    }
    return BASE_OK;
}

struct isa_ap cc_ew_source_ap(const struct cc_ew *w, int i, int64_t tile, int slot, struct cc_access *acc)
{
    int v = -1;
    for (int j = 0; j < w->e.n_vals && v < 0; j++)
        if (w->e.v[j].src == i) v = j;
    int region;
    struct cc_box box;
    uint32_t P;
    uint64_t F;
    tile_shape(w, tile, &region, &box, &P, &F);
    *acc = val_acc(w, v, slot, CC_WR);
    return val_ap(w, v, slot, P, F, false);
}

enum base_status cc_ew_stores(struct cc_ew *w, int64_t tile, int slot)
{
    for (int o = 0; o < w->spec.n_out; o++) {
        TRY(emit_store(w, o, tile, slot, false));
        if (w->e.out_val_im[o] >= 0) TRY(emit_store(w, o, tile, slot, true));
    }
    return BASE_OK;
}

/* ------------------------------------------------------------ the kernel */

static int64_t budget_of(const struct cc_kb *b, uint64_t per_elem, uint64_t fixed)
{
    uint64_t avail = b->sp_bytes > fixed + 4096 ? b->sp_bytes - fixed - 4096 : 0;
    return per_elem ? (int64_t)(avail / per_elem) : (int64_t)avail;
}

/* At most the free elements that give every core 4 tiles (so loads, compute
 * and stores of successive tiles overlap), but not below 256 KiB per tile of
 * elements of es bytes (each transfer hides its queue's fixed cost). */
static int64_t pipeline_cap(const struct cc_kb *b, const struct cc_emit_ctx *ctx, int64_t count, size_t es,
                            int64_t budget)
{
    uint32_t nc = ctx && ctx->n_cores ? ctx->n_cores : 1;
    int64_t per_part = count / (int64_t)b->partitions;
    int64_t want = per_part / (4 * (int64_t)nc);
    int64_t floor_ = (int64_t)((256u << 10) / ((uint64_t)b->partitions * (es ? es : 1)));
    if (want < floor_) want = floor_;
    return want < budget ? want : budget;
}

enum base_status cc_emit_elementwise(const struct cc_target *t, const struct cc_kernel *k,
                                     const struct cc_emit_ctx *ctx, struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct cc_tiling *tl = calloc(1, sizeof *tl), *t2 = calloc(1, sizeof *t2);
    struct cc_ew *w = NULL, *w2 = NULL;
    enum base_status st = BASE_OK;
    if (!b || !tl || !t2) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if (k->n_out < 1) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "no outputs");
        goto done;
    }
    struct cc_ew_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.n_ops = k->n_ops;
    sp.ops = k->ops;
    sp.rank = k->out[0].view.rank;
    for (int d = 0; d < sp.rank; d++) sp.dims[d] = k->out[0].view.dims[d];
    sp.n_in = k->n_in;
    sp.in = k->in;
    sp.n_out = k->n_out;
    sp.out = k->out;
    /* inputs over the output's shape (or scalars); others are not this kernel's */
    bool in_ok[CC_TILE_MAX_VIEWS];
    if (k->n_in > CC_TILE_MAX_VIEWS) {
        st = cc_kb_fail(b, BASE_ERR_LIMIT, "more than %d inputs", CC_TILE_MAX_VIEWS);
        goto done;
    }
    for (int i = 0; i < k->n_in; i++) {
        const struct cc_view *v = &k->in[i].view;
        bool same = v->rank == sp.rank;
        for (int d = 0; d < sp.rank && same; d++) same = v->dims[d] == sp.dims[d];
        in_ok[i] = same || v->rank == 0;
    }
    sp.in_ok = in_ok;
    uint32_t P = b->partitions;
    uint64_t per_elem, fixed;
    const struct cc_view *views;
    /* 1: every loaded input a tile, for a first tiling */
    st = cc_ew_new(&sp, b, &w);
    if (st != BASE_OK) goto done;
    cc_ew_bytes(w, &per_elem, &fixed);
    int nv = cc_ew_views(w, &views);
    int64_t count = 1;
    for (int d = 0; d < sp.rank; d++) count *= sp.dims[d];
    size_t es = base_dtype_size(k->out[0].view.dtype);
    st = cc_tiling_plan(tl, sp.rank, sp.dims, views, nv, P,
                        pipeline_cap(b, ctx, count, es, budget_of(b, per_elem, fixed)));
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "cannot tile the output");
        goto done;
    }
    /* 2: classified on it; a larger tiling when it keeps the classes */
    classify(&w->e, tl, w->kind, w->res);
    st = build_all(&w->e, t, &w->spec, w->kind, w->res);
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "%s", w->e.why);
        goto done;
    }
    cc_ew_bytes(w, &per_elem, &fixed);
    int64_t budget = budget_of(b, per_elem, fixed);
    if (budget < 1) {
        st = cc_kb_fail(b, BASE_ERR_LIMIT, "%d values do not fit the scratchpad", w->e.n_vals);
        goto done;
    }
    budget = pipeline_cap(b, ctx, count, es, budget);
    if (cc_tiling_plan(t2, sp.rank, sp.dims, views, nv, P, budget) == BASE_OK) {
        enum vk kind2[CC_TILE_MAX_VIEWS];
        bool res2[CC_TILE_MAX_VIEWS];
        classify(&w->e, t2, kind2, res2);
        if (!memcmp(kind2, w->kind, sizeof(enum vk) * (size_t)nv) && !memcmp(res2, w->res, sizeof(bool) * (size_t)nv))
            *tl = *t2;
    }
    int64_t lo, hi;
    cc_core_share(tl->n_tiles, ctx, &lo, &hi);
    if (lo >= hi) goto done; /* no work on this core */
    st = cc_ew_prepare(w, tl, lo, hi);
    /* the tiles, loads one tile ahead */
    if (st == BASE_OK) st = cc_ew_loads(w, lo, 0);
    for (int64_t i = lo; i < hi && st == BASE_OK; i++) {
        int slot = (int)((i - lo) % CC_EW_SLOTS);
        if (i + 1 < hi) st = cc_ew_loads(w, i + 1, (int)((i + 1 - lo) % CC_EW_SLOTS));
        if (st == BASE_OK) st = cc_ew_compute(w, i, slot, NULL, NULL);
        if (st == BASE_OK) st = cc_ew_stores(w, i, slot);
    }
done:
    cc_ew_free(w);
    cc_ew_free(w2);
    cc_kb_free(b);
    free(t2);
    free(tl);
    return st;
}
