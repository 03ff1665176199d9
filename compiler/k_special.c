/* The chlo special functions as vector-engine instruction sequences
 * (docs/compiler.md "Kernels: special functions").
 *
 * Each op becomes a straight line of tile instructions inside an
 * elementwise kernel (k_elem.c's builder), in f32 as XLA's own
 * decompositions compute them (bf16 / f16 operands are widened to f32 and
 * the result rounded once to their type, as XLA does):
 *   lgamma, digamma     Lanczos (g = 7, 9 terms) with the reflection for
 *                       x < 0.5, XLA's formulas (xla/client/lib/math.cc)
 *   erf_inv             Giles' single-precision polynomials (XLA's ErfInv32)
 *                       in w = -log((1 - x)(1 + x))
 *   erfc                1 - erf(x) below 0.5, else the Numerical Recipes
 *                       Chebyshev fit t exp(-x^2 + P(t)), t = 1 / (1 + x / 2),
 *                       with x^2 split exactly (hi^2 + lo (x + hi))
 *   bessel_i1e          Cephes' Chebyshev expansions (the interpreter's
 *                       tables), evaluated by Clenshaw's recurrence in f32
 *   asin acos atan      atan2 (the vector engine's f64 function) of
 *                       sqrt((1 - x)(1 + x)) and x (XLA: atan2 forms)
 *   asinh acosh atanh   log1p forms (accurate near 0 and 1), log x + log 2
 *                       past 1e18
 *   sinh cosh           XLA's exp(x + log(1/2)) +- exp(log(1/2) - x) (the
 *                       interpreter's f32 formula, so equal bit for bit), sinh
 *                       below 1 by its Taylor series
 *   next_after          on the bits, as the interpreter (integer instructions)
 *   is_inf, is_pos_inf, is_neg_inf, mulhi   exact
 * The transcendental building blocks (exp, log, log1p, sqrt, sin, cos,
 * atan2) are the engines' activation functions: f64 inside, one rounding.
 * Accuracy against the interpreter (which evaluates in f64): the table in
 * docs/compiler.md, measured by tests/compiler/test_k_special.c. */
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

bool cc_special_claims(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_CHLO_LGAMMA:
    case GRAPH_OP_CHLO_DIGAMMA:
    case GRAPH_OP_CHLO_ERF_INV:
    case GRAPH_OP_CHLO_ERFC:
    case GRAPH_OP_CHLO_BESSEL_I1E:
    case GRAPH_OP_CHLO_ASIN:
    case GRAPH_OP_CHLO_ACOS:
    case GRAPH_OP_CHLO_ATAN:
    case GRAPH_OP_CHLO_ASINH:
    case GRAPH_OP_CHLO_ACOSH:
    case GRAPH_OP_CHLO_ATANH:
    case GRAPH_OP_CHLO_SINH:
    case GRAPH_OP_CHLO_COSH:
    case GRAPH_OP_CHLO_NEXT_AFTER:
    case GRAPH_OP_CHLO_IS_INF:
    case GRAPH_OP_CHLO_IS_POS_INF:
    case GRAPH_OP_CHLO_IS_NEG_INF:
    case GRAPH_OP_CHLO_MULHI: return true;
    default: return false;
    }
}

double cc_decomposition_ulps(const struct graph_op *op, double *abs_err)
{
    /* the bounds tests/compiler/test_k_special.c asserts on tpu-v5e and trn2 */
    *abs_err = op->kind == GRAPH_OP_CHLO_LGAMMA || op->kind == GRAPH_OP_CHLO_DIGAMMA ? 2e-6 : 0;
    switch (op->kind) {
    case GRAPH_OP_RNG: return cc_rng_decomposition_ulps(op, abs_err);
    case GRAPH_OP_CHLO_LGAMMA: return 40;
    case GRAPH_OP_CHLO_BESSEL_I1E: return 12;
    case GRAPH_OP_CHLO_DIGAMMA: return 8;
    case GRAPH_OP_CHLO_ERFC: return 6;
    case GRAPH_OP_CHLO_ERF_INV: return 4;
    case GRAPH_OP_CHLO_ASIN:
    case GRAPH_OP_CHLO_ACOS:
    case GRAPH_OP_CHLO_ATAN:
    case GRAPH_OP_CHLO_ASINH:
    case GRAPH_OP_CHLO_ACOSH:
    case GRAPH_OP_CHLO_ATANH:
    case GRAPH_OP_CHLO_SINH: return 3;
    default: return 0;
    }
}

bool cc_special_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (op->n_results != 1 || op->n_operands < 1) return why_set(why, cap, "one result");
    for (int i = 0; i < op->n_operands; i++)
        if (op->operands[i]->type->quant || op->operands[i]->type->kind != GRAPH_TYPE_TENSOR)
            return why_set(why, cap, "quantized operands");
    enum base_dtype dt = op->operands[0]->type->elem;
    if (op->kind == GRAPH_OP_CHLO_MULHI) {
        if (!base_dtype_is_int(dt) || (base_dtype_bits(dt) != 8 && base_dtype_bits(dt) != 16 &&
                                       base_dtype_bits(dt) != 32 && base_dtype_bits(dt) != 64))
            return why_set(why, cap, "mulhi of 8 to 64-bit integers");
        return true;
    }
    if (base_dtype_is_complex(dt)) return why_set(why, cap, "complex elements are not supported on chip");
    if (!base_dtype_is_float(dt) || base_dtype_bits(dt) > 32)
        return why_set(why, cap, cc_f64_limit(t));
    if (op->kind == GRAPH_OP_CHLO_NEXT_AFTER) {
        const struct base_float_format *ff = base_float_format(dt);
        int w = base_dtype_bits(dt);
        if (!ff || !ff->has_sign || (w != 8 && w != 16 && w != 32))
            return why_set(why, cap, "next_after of signed 8, 16 or 32-bit floats");
    }
    return true;
}

/* ------------------------------------------------------------ helpers */

struct sp {
    struct cc_ewb *b;
};

static int K(struct sp *s, double v) { return cc_ewb_imm(s->b, v, F); }
static int add(struct sp *s, int x, int y) { return cc_ewb_bin(s->b, ISA_ALU_ADD, x, y, F); }
static int sub(struct sp *s, int x, int y) { return cc_ewb_bin(s->b, ISA_ALU_SUB, x, y, F); }
static int mul(struct sp *s, int x, int y) { return cc_ewb_bin(s->b, ISA_ALU_MUL, x, y, F); }
static int dvd(struct sp *s, int x, int y) { return cc_ewb_bin(s->b, ISA_ALU_DIV, x, y, F); }
static int cmp(struct sp *s, unsigned f, int x, int y) { return cc_ewb_bin(s->b, f, x, y, I1); }
static int sel(struct sp *s, int p, int x, int y) { return cc_ewb_sel(s->b, p, x, y, F); }
static int neg(struct sp *s, int x) { return cc_ewb_un(s->b, ISA_ALU_NEG, x, F); }
static int fabs_(struct sp *s, int x) { return cc_ewb_un(s->b, ISA_ALU_ABS, x, F); }
static int floor_(struct sp *s, int x) { return cc_ewb_un(s->b, ISA_ALU_FLOOR, x, F); }
static int act(struct sp *s, unsigned a, int x) { return cc_ewb_act(s->b, a, x, F); }
static int band(struct sp *s, int p, int q) { return cc_ewb_bin(s->b, ISA_ALU_IAND, p, q, I1); }
static int isinf_(struct sp *s, int x) { return cmp(s, ISA_ALU_EQ, fabs_(s, x), K(s, INFINITY)); }

/* c[0] + w (c[1] + w (...)), c highest order first: Horner */
static int horner(struct sp *s, int w, const double *c, int n)
{
    int p = K(s, c[0]);
    for (int i = 1; i < n; i++) p = add(s, mul(s, p, w), K(s, c[i]));
    return p;
}

/* Lanczos (XLA's kLanczosGamma = 7, kLanczosCoefficients) */
static const double lanczos_c[8] = {676.520368121885098567009190444019, -1259.13921672240287047156078755283,
                                    771.3234287776530788486528258894,   -176.61502916214059906584551354,
                                    12.507343278686904814458936853,     -0.13857109526572011689554707,
                                    9.984369578019570859563e-6,         1.50563273514931155834e-7};
static const double lanczos_base = 0.99999999999980993227684700473478;
static const double lanczos_g = 7.0;

static int lgamma_f32(struct sp *s, int x)
{
    int one = K(s, 1), half = K(s, 0.5);
    int reflect = cmp(s, ISA_ALU_LT, x, half);
    int z = sel(s, reflect, neg(s, x), sub(s, x, one));
    int sum = K(s, lanczos_base);
    for (int i = 0; i < 8; i++) sum = add(s, sum, dvd(s, K(s, lanczos_c[i]), add(s, add(s, z, K(s, i)), one)));
    int t = add(s, K(s, lanczos_g + 0.5), z);
    int log_t = add(s, K(s, log(lanczos_g + 0.5)), act(s, ISA_ACT_LOG1P, dvd(s, z, K(s, lanczos_g + 0.5))));
    int log_y = add(s, add(s, K(s, (log(2.0) + log(M_PI)) / 2), mul(s, sub(s, add(s, z, half), dvd(s, t, log_t)), log_t)),
                    act(s, ISA_ACT_LOG, sum));
    int ax = fabs_(s, x);
    int frac = sub(s, ax, floor_(s, ax));
    int red = sel(s, cmp(s, ISA_ALU_GT, frac, half), sub(s, one, frac), frac);
    int den = act(s, ISA_ACT_LOG, act(s, ISA_ACT_SIN, mul(s, K(s, M_PI), red)));
    int fin = cc_ewb_un(s->b, ISA_ALU_IS_FINITE, den, I1);
    int refl = sel(s, fin, sub(s, sub(s, K(s, log(M_PI)), den), log_y), neg(s, den));
    int r = sel(s, reflect, refl, log_y);
    return sel(s, isinf_(s, x), K(s, INFINITY), r);
}

static int digamma_f32(struct sp *s, int x)
{
    int one = K(s, 1), half = K(s, 0.5);
    int reflect = cmp(s, ISA_ALU_LT, x, half);
    int z = sel(s, reflect, neg(s, x), sub(s, x, one));
    int num = K(s, 0), den = K(s, lanczos_base);
    for (int i = 0; i < 8; i++) {
        int zi = add(s, add(s, z, K(s, i)), one);
        num = sub(s, num, dvd(s, K(s, lanczos_c[i]), mul(s, zi, zi)));
        den = add(s, den, dvd(s, K(s, lanczos_c[i]), zi));
    }
    int t = add(s, K(s, lanczos_g + 0.5), z);
    int log_t = add(s, K(s, log(lanczos_g + 0.5)), act(s, ISA_ACT_LOG1P, dvd(s, z, K(s, lanczos_g + 0.5))));
    int y = sub(s, add(s, log_t, dvd(s, num, den)), dvd(s, K(s, lanczos_g), t));
    int red = add(s, x, fabs_(s, floor_(s, add(s, x, half))));
    int px = mul(s, K(s, M_PI), red);
    int refl = sub(s, y, dvd(s, mul(s, K(s, M_PI), act(s, ISA_ACT_COS, px)), act(s, ISA_ACT_SIN, px)));
    int r = sel(s, reflect, refl, y);
    int pole = band(s, cmp(s, ISA_ALU_LE, x, K(s, 0)), cmp(s, ISA_ALU_EQ, x, floor_(s, x)));
    return sel(s, pole, K(s, NAN), r);
}

static int erf_inv_f32(struct sp *s, int x)
{
    static const double lt5[9] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,  -4.39150654e-06, 0.00021858087,
                                  -0.00125372503, -0.00417768164, 0.246640727,     1.50140941};
    static const double ge5[9] = {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                                  -0.0076224613,   0.00943887047,  1.00167406,    2.83297682};
    /* w = -log((1 - x)(1 + x)) (Giles' own form: accurate as |x| -> 1,
     * where XLA's -log1p(-x^2) loses the low bits of 1 - x^2) */
    int w = neg(s, act(s, ISA_ACT_LOG, mul(s, sub(s, K(s, 1), x), add(s, K(s, 1), x))));
    int lt = cmp(s, ISA_ALU_LT, w, K(s, 5.0));
    int p1 = horner(s, sub(s, w, K(s, 2.5)), lt5, 9);
    int p2 = horner(s, sub(s, act(s, ISA_ACT_SQRT, w), K(s, 3.0)), ge5, 9);
    int r = mul(s, sel(s, lt, p1, p2), x);
    /* erf_inv(+-1) = +-inf (the interpreter's), beyond: NaN from the log */
    return sel(s, cmp(s, ISA_ALU_EQ, fabs_(s, x), K(s, 1)), mul(s, x, K(s, INFINITY)), r);
}

/* x split as hi + lo with hi of 12 significant bits (hi^2 exact in f32) */
static void split12(struct sp *s, int x, int *hi, int *lo)
{
    int bits = cc_ewb_bits(s->b, x, BASE_DT_UI32);
    int hb = cc_ewb_bin(s->b, ISA_ALU_IAND, bits, cc_ewb_imm(s->b, (double)0xFFFFF000u, BASE_DT_UI32), BASE_DT_UI32);
    *hi = cc_ewb_bits(s->b, hb, F);
    *lo = sub(s, x, *hi);
}

static int erfc_f32(struct sp *s, int x)
{
    /* Numerical Recipes erfcc: fractional error below 1.2e-7 for x >= 0 */
    static const double c[10] = {0.17087277,  -0.82215223, 1.48851587,  -1.13520398, 0.27886807,
                                 -0.18628806, 0.09678418,  0.37409196, 1.00002368,  -1.26551223};
    int near = sub(s, K(s, 1), act(s, ISA_ACT_ERF, x));
    int t = dvd(s, K(s, 1), add(s, K(s, 1), mul(s, K(s, 0.5), x)));
    int hi, lo;
    split12(s, x, &hi, &lo);
    /* exp(-x^2 + P(t)) = exp(-hi^2) exp(-lo (x + hi) + P(t)) */
    int e1 = act(s, ISA_ACT_EXP, neg(s, mul(s, hi, hi)));
    int e2 = act(s, ISA_ACT_EXP, sub(s, horner(s, t, c, 10), mul(s, lo, add(s, x, hi))));
    int tail = mul(s, t, mul(s, e1, e2));
    /* past 10.1 erfc is below half the smallest f32 subnormal: 0, and the
     * split's x + hi would overflow (0 x inf: NaN) for x near FLT_MAX */
    tail = sel(s, cmp(s, ISA_ALU_GT, x, K(s, 10.1)), K(s, 0), tail);
    return sel(s, cmp(s, ISA_ALU_LT, x, K(s, 0.5)), near, tail);
}

/* Clenshaw's recurrence for Cephes' chbevl */
static int chbevl(struct sp *s, int x, const double *c, int n)
{
    int b0 = K(s, c[0]), b1 = K(s, 0), b2 = K(s, 0);
    for (int i = 1; i < n; i++) {
        b2 = b1;
        b1 = b0;
        b0 = add(s, sub(s, mul(s, x, b1), b2), K(s, c[i]));
    }
    return mul(s, K(s, 0.5), sub(s, b0, b2));
}

static int bessel_i1e_f32(struct sp *s, int x)
{
    /* Cephes i1e's tables (as interp/interp_math.c), the terms below 1e-11 dropped */
    static const double a[] = {
        1.17361862988909016308E-11,  -6.66348972350202774223E-11, 3.62559028155211703701E-10,
        -1.88724975172282928790E-9,  9.38153738649577178388E-9,   -4.44505912879632808065E-8,
        2.00329475355213526229E-7,   -8.56872026469545474066E-7,  3.47025130813767847674E-6,
        -1.32731636560394358279E-5,  4.78156510755005422638E-5,   -1.61760815825896745588E-4,
        5.12285956168575772895E-4,   -1.51357245063125314899E-3,  4.15642294431288815669E-3,
        -1.05640848946261981558E-2,  2.47264490306265168283E-2,   -5.29459812080949914269E-2,
        1.02643658689847095384E-1,   -1.76416518357834055153E-1,  2.52587186443633654823E-1};
    static const double bt[] = {
        1.41258074366137813316E-11,  3.25260358301548823856E-11,  -1.89749581235054123450E-11,
        -5.58974346219658380687E-10, -3.83538038596423702205E-9,  -2.63146884688951950684E-8,
        -2.51223623787020892529E-7,  -3.88256480887769039346E-6,  -1.10588938762623716291E-4,
        -9.76109749136146840777E-3,  7.78576235018280120474E-1};
    int z = fabs_(s, x);
    int ra = mul(s, chbevl(s, sub(s, mul(s, K(s, 0.5), z), K(s, 2)), a, (int)(sizeof a / sizeof a[0])), z);
    int rb = mul(s, chbevl(s, sub(s, dvd(s, K(s, 32), z), K(s, 2)), bt, (int)(sizeof bt / sizeof bt[0])),
                 act(s, ISA_ACT_RSQRT, z));
    int r = sel(s, cmp(s, ISA_ALU_LE, z, K(s, 8)), ra, rb);
    r = sel(s, cmp(s, ISA_ALU_EQ, z, K(s, INFINITY)), K(s, 0), r);
    /* the sign of x (NaN stays NaN) */
    return sel(s, cmp(s, ISA_ALU_LT, x, K(s, 0)), neg(s, r), sel(s, cmp(s, ISA_ALU_NE, x, x), x, r));
}

/* sqrt((1 - x)(1 + x)) */
static int cosine_of_asin(struct sp *s, int x)
{
    return act(s, ISA_ACT_SQRT, mul(s, sub(s, K(s, 1), x), add(s, K(s, 1), x)));
}

static int log2_plus(struct sp *s, int ax) { return add(s, act(s, ISA_ACT_LOG, ax), K(s, log(2.0))); }

static int asinh_f32(struct sp *s, int x)
{
    int ax = fabs_(s, x);
    int a2 = mul(s, ax, ax);
    int r = act(s, ISA_ACT_LOG1P, add(s, ax, dvd(s, a2, add(s, K(s, 1), act(s, ISA_ACT_SQRT, add(s, K(s, 1), a2))))));
    r = sel(s, cmp(s, ISA_ALU_GT, ax, K(s, 1e18)), log2_plus(s, ax), r);
    r = sel(s, cmp(s, ISA_ALU_LT, x, K(s, 0)), neg(s, r), r);
    return sel(s, cmp(s, ISA_ALU_EQ, x, K(s, 0)), x, r); /* +-0 */
}

static int acosh_f32(struct sp *s, int x)
{
    int a = sub(s, x, K(s, 1));
    int r = act(s, ISA_ACT_LOG1P, add(s, a, act(s, ISA_ACT_SQRT, mul(s, a, add(s, x, K(s, 1))))));
    return sel(s, cmp(s, ISA_ALU_GT, x, K(s, 1e18)), log2_plus(s, x), r);
}

/* atanh is odd: 0.5 log1p(2|x| / (1 - |x|)) has no cancellation */
static int atanh_f32(struct sp *s, int x)
{
    int ax = fabs_(s, x);
    int r = mul(s, K(s, 0.5), act(s, ISA_ACT_LOG1P, dvd(s, mul(s, K(s, 2), ax), sub(s, K(s, 1), ax))));
    r = sel(s, cmp(s, ISA_ALU_LT, x, K(s, 0)), neg(s, r), r);
    return sel(s, cmp(s, ISA_ALU_EQ, x, K(s, 0)), x, r); /* +-0 */
}

/* exp(x + log(1/2)) and exp(log(1/2) - x), as the interpreter's f32 formula */
static void half_exps(struct sp *s, int x, int *a, int *b)
{
    double log_half = (double)(float)log(0.5);
    *a = act(s, ISA_ACT_EXP, add(s, x, K(s, log_half)));
    *b = act(s, ISA_ACT_EXP, sub(s, K(s, log_half), x));
}

static int sinh_f32(struct sp *s, int x)
{
    int a, b;
    half_exps(s, x, &a, &b);
    int big = sub(s, a, b);
    /* |x| < 1: x (1 + x^2/3! + x^4/5! + ...) */
    static const double c[8] = {1.0 / 1307674368000.0, 1.0 / 6227020800.0, 1.0 / 39916800.0, 1.0 / 362880.0,
                                1.0 / 5040.0,          1.0 / 120.0,        1.0 / 6.0,         1.0};
    int y = mul(s, x, x);
    int small = mul(s, x, horner(s, y, c, 8));
    return sel(s, cmp(s, ISA_ALU_LT, fabs_(s, x), K(s, 1)), small, big);
}

static int cosh_f32(struct sp *s, int x)
{
    int a, b;
    half_exps(s, x, &a, &b);
    return add(s, a, b);
}

/* next_after on the bits of x's own type, as the interpreter */
static int next_after(struct sp *s, int x, int y, enum base_dtype dt)
{
    struct cc_ewb *b = s->b;
    int w = base_dtype_bits(dt);
    enum base_dtype ut = w == 32 ? BASE_DT_UI32 : w == 16 ? BASE_DT_UI16 : BASE_DT_UI8;
    double sign = ldexp(1.0, w - 1);
    int xb = cc_ewb_bits(b, x, ut), yb = cc_ewb_bits(b, y, ut);
    int xs = cc_ewb_bin(b, ISA_ALU_IAND, xb, cc_ewb_imm(b, sign, ut), ut);
    int ys = cc_ewb_bin(b, ISA_ALU_IAND, yb, cc_ewb_imm(b, sign, ut), ut);
    int xm = cc_ewb_bin(b, ISA_ALU_IAND, xb, cc_ewb_imm(b, sign - 1, ut), ut);
    int ym = cc_ewb_bin(b, ISA_ALU_IAND, yb, cc_ewb_imm(b, sign - 1, ut), ut);
    int smaller = cc_ewb_bin(b, ISA_ALU_IOR, cc_ewb_bin(b, ISA_ALU_INE, xs, ys, I1),
                             cc_ewb_bin(b, ISA_ALU_IGT, xm, ym, I1), I1);
    int step = cc_ewb_sel(b, smaller, cc_ewb_bin(b, ISA_ALU_ISUB, xb, cc_ewb_imm(b, 1, ut), ut),
                          cc_ewb_bin(b, ISA_ALU_IADD, xb, cc_ewb_imm(b, 1, ut), ut), ut);
    int zero = cc_ewb_bin(b, ISA_ALU_IOR, ys, cc_ewb_imm(b, 1, ut), ut); /* x == 0: the smallest of y's sign */
    /* x and y as floats: equal, x zero, NaNs */
    int r = cc_ewb_sel(b, cc_ewb_bin(b, ISA_ALU_EQ, x, cc_ewb_imm(b, 0, dt), I1), zero, step, ut);
    r = cc_ewb_sel(b, cc_ewb_bin(b, ISA_ALU_EQ, x, y, I1), yb, r, ut);
    int rf = cc_ewb_bits(b, r, dt);
    int nan = cc_ewb_bin(b, ISA_ALU_IOR, cc_ewb_bin(b, ISA_ALU_NE, x, x, I1), cc_ewb_bin(b, ISA_ALU_NE, y, y, I1), I1);
    return cc_ewb_sel(b, nan, cc_ewb_imm(b, NAN, dt), rf, dt);
}

/* the high half of the product, exactly */
static int mulhi(struct cc_ewb *b, int x, int y, enum base_dtype dt)
{
    int w = base_dtype_bits(dt);
    bool sgn = base_dtype_kind(dt) == BASE_KIND_SINT;
    if (w <= 32) {
        enum base_dtype wt = sgn ? BASE_DT_SI64 : BASE_DT_UI64;
        int p = cc_ewb_bin(b, ISA_ALU_IMUL, cc_ewb_un(b, ISA_ALU_CAST, x, wt), cc_ewb_un(b, ISA_ALU_CAST, y, wt), wt);
        return cc_ewb_bin(b, sgn ? ISA_ALU_ISHRA : ISA_ALU_ISHRL, p, cc_ewb_imm(b, w, wt), dt);
    }
    enum base_dtype U = BASE_DT_UI64;
    int a = cc_ewb_bits(b, x, U), c = cc_ewb_bits(b, y, U);
    int M = cc_ewb_imm(b, 4294967295.0, U), S = cc_ewb_imm(b, 32, U);
    int al = cc_ewb_bin(b, ISA_ALU_IAND, a, M, U), ah = cc_ewb_bin(b, ISA_ALU_ISHRL, a, S, U);
    int cl = cc_ewb_bin(b, ISA_ALU_IAND, c, M, U), ch = cc_ewb_bin(b, ISA_ALU_ISHRL, c, S, U);
    int ll = cc_ewb_bin(b, ISA_ALU_IMUL, al, cl, U), lh = cc_ewb_bin(b, ISA_ALU_IMUL, al, ch, U);
    int hl = cc_ewb_bin(b, ISA_ALU_IMUL, ah, cl, U), hh = cc_ewb_bin(b, ISA_ALU_IMUL, ah, ch, U);
    int mid = cc_ewb_bin(b, ISA_ALU_IADD, cc_ewb_bin(b, ISA_ALU_ISHRL, ll, S, U),
                         cc_ewb_bin(b, ISA_ALU_IADD, cc_ewb_bin(b, ISA_ALU_IAND, lh, M, U),
                                    cc_ewb_bin(b, ISA_ALU_IAND, hl, M, U), U), U);
    int hi = cc_ewb_bin(b, ISA_ALU_IADD, hh,
                        cc_ewb_bin(b, ISA_ALU_IADD, cc_ewb_bin(b, ISA_ALU_ISHRL, lh, S, U),
                                   cc_ewb_bin(b, ISA_ALU_IADD, cc_ewb_bin(b, ISA_ALU_ISHRL, hl, S, U),
                                              cc_ewb_bin(b, ISA_ALU_ISHRL, mid, S, U), U), U), U);
    if (sgn) { /* signed: minus b where a < 0, minus a where b < 0 */
        int zero = cc_ewb_imm(b, 0, U);
        int na = cc_ewb_bin(b, ISA_ALU_ILT, x, cc_ewb_imm(b, 0, dt), I1), nb = cc_ewb_bin(b, ISA_ALU_ILT, y, cc_ewb_imm(b, 0, dt), I1);
        hi = cc_ewb_bin(b, ISA_ALU_ISUB, hi, cc_ewb_sel(b, na, c, zero, U), U);
        hi = cc_ewb_bin(b, ISA_ALU_ISUB, hi, cc_ewb_sel(b, nb, a, zero, U), U);
    }
    return cc_ewb_bits(b, hi, dt);
}

int cc_special_lower(struct cc_ewb *b, const struct graph_op *op, const int *xin)
{
    struct sp s = {b};
    enum base_dtype dt = cc_ewb_dt(b, xin[0]), rt = op->results[0].type->elem;
    if (op->kind == GRAPH_OP_CHLO_MULHI) return mulhi(b, xin[0], xin[1], dt);
    if (op->kind == GRAPH_OP_CHLO_NEXT_AFTER) return next_after(&s, xin[0], xin[1], dt);
    if (op->kind == GRAPH_OP_CHLO_IS_INF || op->kind == GRAPH_OP_CHLO_IS_POS_INF ||
        op->kind == GRAPH_OP_CHLO_IS_NEG_INF) {
        int x = xin[0];
        if (op->kind == GRAPH_OP_CHLO_IS_INF) x = cc_ewb_un(b, ISA_ALU_ABS, x, dt);
        double v = op->kind == GRAPH_OP_CHLO_IS_NEG_INF ? -INFINITY : INFINITY;
        return cc_ewb_bin(b, ISA_ALU_EQ, x, cc_ewb_imm(b, v, dt), rt);
    }
    /* f32 throughout (bf16 / f16 widened, as XLA does), one rounding at the end */
    int x = dt == F ? xin[0] : cc_ewb_un(b, ISA_ALU_CAST, xin[0], F);
    int r;
    switch (op->kind) {
    case GRAPH_OP_CHLO_LGAMMA: r = lgamma_f32(&s, x); break;
    case GRAPH_OP_CHLO_DIGAMMA: r = digamma_f32(&s, x); break;
    case GRAPH_OP_CHLO_ERF_INV: r = erf_inv_f32(&s, x); break;
    case GRAPH_OP_CHLO_ERFC: r = erfc_f32(&s, x); break;
    case GRAPH_OP_CHLO_BESSEL_I1E: r = bessel_i1e_f32(&s, x); break;
    case GRAPH_OP_CHLO_ASIN: r = cc_ewb_bin(b, ISA_ALU_ATAN2, x, cosine_of_asin(&s, x), F); break;
    case GRAPH_OP_CHLO_ACOS: r = cc_ewb_bin(b, ISA_ALU_ATAN2, cosine_of_asin(&s, x), x, F); break;
    case GRAPH_OP_CHLO_ATAN: r = cc_ewb_bin(b, ISA_ALU_ATAN2, x, K(&s, 1), F); break;
    case GRAPH_OP_CHLO_ASINH: r = asinh_f32(&s, x); break;
    case GRAPH_OP_CHLO_ACOSH: r = acosh_f32(&s, x); break;
    case GRAPH_OP_CHLO_ATANH: r = atanh_f32(&s, x); break;
    case GRAPH_OP_CHLO_SINH: r = sinh_f32(&s, x); break;
    case GRAPH_OP_CHLO_COSH: r = cosh_f32(&s, x); break;
    default: return -1;
    }
    return rt == F ? r : cc_ewb_un(b, ISA_ALU_CAST, r, rt);
}
