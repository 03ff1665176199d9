/* complex64 on chip, as pairs of f32 (docs/compiler.md "Kernels: complex
 * numbers").
 *
 * No engine computes on complex elements, so inside an elementwise kernel a
 * complex64 value is two f32 values: its real and imaginary parts, loaded
 * from (and stored to) the interleaved HBM layout through two strided f32
 * views (k_elem.c: the real part at the element's address, the imaginary
 * part 4 bytes on, strides doubled).  Each complex op is its textbook
 * formula on the parts, instruction by instruction in f32.  Moves of
 * complex64 elements (copies of views, concatenate, pad, gather, slices)
 * move each element as one 64-bit word (compile.c gives those kernels u64
 * views of the complex buffers).  complex128 needs f64 arithmetic: host. */
#include "compiler/cc_internal.h"

#include <math.h>
#include <string.h>

#define F BASE_DT_F32
#define I1 BASE_DT_I1

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

static bool is_c(const struct graph_type *t) { return t && t->kind == GRAPH_TYPE_TENSOR && base_dtype_is_complex(t->elem); }

bool cc_complex_claims(const struct graph_op *op)
{
    if (op->kind == GRAPH_OP_CONSTANT) return false;
    for (int i = 0; i < op->n_operands; i++)
        if (is_c(op->operands[i]->type)) return true;
    for (int i = 0; i < op->n_results; i++)
        if (is_c(op->results[i].type)) return true;
    return false;
}

bool cc_complex_splat(const struct graph_op *op, double *re, double *im)
{
    if (op->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(op, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count < 1 || t->dtype != BASE_DT_C64) return false;
    const float *f = t->data;
    for (int64_t i = 1; i < t->count; i++)
        if (memcmp(&f[2 * i], &f[0], 8)) return false;
    *re = f[0];
    *im = f[1];
    return true;
}

bool cc_complex_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (op->n_results != 1) return why_set(why, cap, "one result");
    for (int i = 0; i < op->n_operands + 1; i++) {
        const struct graph_type *ty = i < op->n_operands ? op->operands[i]->type : op->results[0].type;
        if (ty->quant) return why_set(why, cap, "quantized complex values");
        if (ty->elem == BASE_DT_C128 || (base_dtype_is_float(ty->elem) && base_dtype_bits(ty->elem) > 32))
            return why_set(why, cap, cc_f64_limit(t)); /* complex128's parts are f64 */
    }
    switch (op->kind) {
    case GRAPH_OP_REAL:
    case GRAPH_OP_IMAG:
    case GRAPH_OP_COMPLEX:
    case GRAPH_OP_CHLO_CONJ:
    case GRAPH_OP_ADD:
    case GRAPH_OP_SUBTRACT:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_DIVIDE:
    case GRAPH_OP_NEGATE:
    case GRAPH_OP_ABS:
    case GRAPH_OP_EXPONENTIAL:
    case GRAPH_OP_LOG:
    case GRAPH_OP_SIGN:
    case GRAPH_OP_SELECT:
    case GRAPH_OP_CHLO_SQUARE: return true;
    case GRAPH_OP_COMPARE: {
        const struct graph_attr *d = graph_op_attr(op, "comparison_direction");
        if (graph_attr_is_keyword(d, "EQ") || graph_attr_is_keyword(d, "NE")) return true;
        return why_set(why, cap, "ordered compares of complex values");
    }
    case GRAPH_OP_CONVERT: {
        enum base_dtype a = op->operands[0]->type->elem, r = op->results[0].type->elem;
        if (base_dtype_is_complex(a) && base_dtype_is_complex(r)) return true;
        if (base_dtype_is_complex(r) && (base_dtype_is_float(a) || base_dtype_is_int(a) || a == BASE_DT_I1))
            return true;
        if (base_dtype_is_complex(a)) return true; /* the real part, converted */
        return why_set(why, cap, "this complex convert");
    }
    default: return why_set(why, cap, "this op on complex values is not lowered (complex64: real, imag, complex, conj, "
                                      "add, subtract, multiply, divide, negate, abs, exp, log, sign, select, "
                                      "compare EQ/NE, convert)");
    }
}

struct cx {
    struct cc_ewb *b;
};

static int K(struct cx *c, double v) { return cc_ewb_imm(c->b, v, F); }
static int add(struct cx *c, int x, int y) { return cc_ewb_bin(c->b, ISA_ALU_ADD, x, y, F); }
static int sub(struct cx *c, int x, int y) { return cc_ewb_bin(c->b, ISA_ALU_SUB, x, y, F); }
static int mul(struct cx *c, int x, int y) { return cc_ewb_bin(c->b, ISA_ALU_MUL, x, y, F); }
static int dvd(struct cx *c, int x, int y) { return cc_ewb_bin(c->b, ISA_ALU_DIV, x, y, F); }
static int neg(struct cx *c, int x) { return cc_ewb_un(c->b, ISA_ALU_NEG, x, F); }
static int fabs_(struct cx *c, int x) { return cc_ewb_un(c->b, ISA_ALU_ABS, x, F); }
static int sel(struct cx *c, int p, int x, int y) { return cc_ewb_sel(c->b, p, x, y, F); }
static int cmp(struct cx *c, unsigned f, int x, int y) { return cc_ewb_bin(c->b, f, x, y, I1); }

/* |z| = m sqrt(1 + (n / m)^2), m = max(|re|, |im|), n = min: no overflow;
 * 0 for 0, inf when a part is inf (even with a NaN), NaN otherwise */
static int cabs_(struct cx *c, int re, int im)
{
    int a = fabs_(c, re), b = fabs_(c, im);
    int m = cc_ewb_bin(c->b, ISA_ALU_MAX, a, b, F), n = cc_ewb_bin(c->b, ISA_ALU_MIN, a, b, F);
    int q = dvd(c, n, m);
    int r = mul(c, m, cc_ewb_act(c->b, ISA_ACT_SQRT, add(c, K(c, 1), mul(c, q, q)), F));
    r = sel(c, cmp(c, ISA_ALU_EQ, m, K(c, 0)), K(c, 0), r);
    int inf = cc_ewb_bin(c->b, ISA_ALU_IOR, cmp(c, ISA_ALU_EQ, a, K(c, INFINITY)), cmp(c, ISA_ALU_EQ, b, K(c, INFINITY)), I1);
    return sel(c, inf, K(c, INFINITY), r);
}

/* the value of operand x as a complex pair (a real operand: imaginary 0) */
static void parts(struct cx *c, int x, int *re, int *im)
{
    *re = x;
    *im = cc_ewb_imag(c->b, x);
    if (*im < 0) *im = K(c, 0);
}

int cc_complex_lower(struct cc_ewb *b, const struct graph_op *op, const int *x)
{
    struct cx c = {b};
    enum base_dtype rt = op->results[0].type->elem;
    int ar, ai, br = -1, bi = -1;
    parts(&c, x[0], &ar, &ai);
    if (op->n_operands > 1 && op->kind != GRAPH_OP_SELECT) parts(&c, x[1], &br, &bi);
    int r = -1, i = -1;
    switch (op->kind) {
    case GRAPH_OP_REAL: return cc_ewb_bits(b, ar, F); /* a name of its own: no imaginary part */
    case GRAPH_OP_IMAG: return ai;
    case GRAPH_OP_COMPLEX: return cc_ewb_pair(b, x[0], x[1]);
    case GRAPH_OP_CHLO_CONJ: r = ar, i = neg(&c, ai); break;
    case GRAPH_OP_NEGATE: r = neg(&c, ar), i = neg(&c, ai); break;
    case GRAPH_OP_ADD: r = add(&c, ar, br), i = add(&c, ai, bi); break;
    case GRAPH_OP_SUBTRACT: r = sub(&c, ar, br), i = sub(&c, ai, bi); break;
    case GRAPH_OP_MULTIPLY: /* the textbook formula (as the interpreter's and XLA's) */
        r = sub(&c, mul(&c, ar, br), mul(&c, ai, bi));
        i = add(&c, mul(&c, ar, bi), mul(&c, ai, br));
        break;
    case GRAPH_OP_CHLO_SQUARE:
        r = sub(&c, mul(&c, ar, ar), mul(&c, ai, ai));
        i = mul(&c, K(&c, 2), mul(&c, ar, ai));
        break;
    case GRAPH_OP_DIVIDE: { /* Smith's algorithm: no overflow in |b|^2 */
        int small = cmp(&c, ISA_ALU_LT, fabs_(&c, bi), fabs_(&c, br));
        /* |br| > |bi|: t = bi / br, d = br + bi t: ((ar + ai t) / d, (ai - ar t) / d) */
        int t1 = dvd(&c, bi, br), d1 = add(&c, br, mul(&c, bi, t1));
        int r1 = dvd(&c, add(&c, ar, mul(&c, ai, t1)), d1), i1 = dvd(&c, sub(&c, ai, mul(&c, ar, t1)), d1);
        /* else: t = br / bi, d = bi + br t: ((ar t + ai) / d, (ai t - ar) / d) */
        int t2 = dvd(&c, br, bi), d2 = add(&c, bi, mul(&c, br, t2));
        int r2 = dvd(&c, add(&c, mul(&c, ar, t2), ai), d2), i2 = dvd(&c, sub(&c, mul(&c, ai, t2), ar), d2);
        r = sel(&c, small, r1, r2);
        i = sel(&c, small, i1, i2);
        break;
    }
    case GRAPH_OP_ABS: return cabs_(&c, ar, ai);
    case GRAPH_OP_EXPONENTIAL: { /* e^re (cos im, sin im); im = 0 keeps the imaginary part 0 */
        int e = cc_ewb_act(b, ISA_ACT_EXP, ar, F);
        r = mul(&c, e, cc_ewb_act(b, ISA_ACT_COS, ai, F));
        i = sel(&c, cmp(&c, ISA_ALU_EQ, ai, K(&c, 0)), ai, mul(&c, e, cc_ewb_act(b, ISA_ACT_SIN, ai, F)));
        break;
    }
    case GRAPH_OP_LOG: /* (log |z|, atan2(im, re)) */
        r = cc_ewb_act(b, ISA_ACT_LOG, cabs_(&c, ar, ai), F);
        i = cc_ewb_bin(b, ISA_ALU_ATAN2, ai, ar, F);
        break;
    case GRAPH_OP_SIGN: { /* z / |z|; +0 for 0; an infinity's direction; NaN with a NaN part */
        int m = cabs_(&c, ar, ai);
        int z = cmp(&c, ISA_ALU_EQ, m, K(&c, 0));
        r = sel(&c, z, K(&c, 0), dvd(&c, ar, m));
        i = sel(&c, z, K(&c, 0), dvd(&c, ai, m));
        int ia = cmp(&c, ISA_ALU_EQ, fabs_(&c, ar), K(&c, INFINITY)), ib = cmp(&c, ISA_ALU_EQ, fabs_(&c, ai), K(&c, INFINITY));
        int dr = sel(&c, ia, cc_ewb_un(b, ISA_ALU_SIGN, ar, F), K(&c, 0)), di = sel(&c, ib, cc_ewb_un(b, ISA_ALU_SIGN, ai, F), K(&c, 0));
        int both = cc_ewb_bin(b, ISA_ALU_IAND, ia, ib, I1), any = cc_ewb_bin(b, ISA_ALU_IOR, ia, ib, I1);
        double h = 0.70710678118654752440; /* 1 / sqrt 2 */
        dr = sel(&c, both, mul(&c, dr, K(&c, h)), dr);
        di = sel(&c, both, mul(&c, di, K(&c, h)), di);
        r = sel(&c, any, dr, r);
        i = sel(&c, any, di, i);
        int nan = cc_ewb_bin(b, ISA_ALU_IOR, cmp(&c, ISA_ALU_NE, ar, ar), cmp(&c, ISA_ALU_NE, ai, ai), I1);
        r = sel(&c, nan, K(&c, NAN), r);
        i = sel(&c, nan, K(&c, NAN), i);
        break;
    }
    case GRAPH_OP_SELECT: {
        int sr, si, tr, ti;
        parts(&c, x[1], &sr, &si);
        parts(&c, x[2], &tr, &ti);
        r = sel(&c, x[0], sr, tr);
        i = sel(&c, x[0], si, ti);
        break;
    }
    case GRAPH_OP_COMPARE: {
        bool ne = graph_attr_is_keyword(graph_op_attr(op, "comparison_direction"), "NE");
        int er = cmp(&c, ISA_ALU_EQ, ar, br), ei = cmp(&c, ISA_ALU_EQ, ai, bi);
        int eq = cc_ewb_bin(b, ISA_ALU_IAND, er, ei, I1);
        return ne ? cc_ewb_un(b, ISA_ALU_INOT, eq, I1) : eq;
    }
    case GRAPH_OP_CONVERT: {
        if (!base_dtype_is_complex(rt)) return cc_ewb_un(b, ISA_ALU_CAST, ar, rt); /* the real part */
        int xr = cc_ewb_dt(b, ar) == F ? ar : cc_ewb_un(b, ISA_ALU_CAST, ar, F);
        return cc_ewb_pair(b, xr, cc_ewb_imag(b, x[0]) >= 0 ? ai : K(&c, 0));
    }
    default: return -1;
    }
    return cc_ewb_pair(b, r, i);
}
