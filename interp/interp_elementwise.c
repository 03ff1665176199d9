/* Golden interpreter: elementwise kernels (unary, binary, ternary ops of
 * StableHLO and the elementwise chlo ops).
 *
 * Numerics: floats compute in double and round once to the result type
 * (f64 natively); complex in double complex; integers in 64-bit unsigned
 * arithmetic, wrapped to the type's width on store.  Edge cases follow the
 * spec's reference interpreter and XLA: integer x / 0 = -1 (all ones),
 * INT_MIN / -1 = INT_MIN, x % 0 = x, INT_MIN % -1 = 0, shifts by >= width give
 * 0 (or the sign fill for arithmetic right shifts), float maximum/minimum
 * propagate NaN and order -0 < +0.
 *
 * Speed: f32 and bf16 (and the common integer widths) have tight loops for the
 * ops that dominate real models; the generic path goes element by element
 * through double / double complex / uint64 values.
 */
#include "interp/interp_internal.h"
#include "interp/interp_math.h"

#include <complex.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Element access                                                            */

/* Rounds d to f32 with "round to odd": the result keeps a sticky bit, so a
 * second rounding to a format with at most 22 significant bits (bf16, f16) is
 * the correctly rounded value of d (no double-rounding error). */
static inline float f32_round_odd(double d)
{
    float f = (float)d;
    if ((double)f == d || isnan(d) || isinf(f)) return f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (fabs((double)f) > fabs(d)) u -= 1; /* truncate toward zero */
    u |= 1;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* bf16 round to nearest even from f32 (NaN stays NaN, quieted). */
static inline uint16_t bf16_rne(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

static inline uint16_t bf16_from_f64(double d) { return bf16_rne(f32_round_odd(d)); }
static inline uint16_t f16_from_f64(double d) { return base_f32_to_f16(f32_round_odd(d)); }

static inline double ldf(enum base_dtype dt, const void *d, size_t i)
{
    switch (dt) {
    case BASE_DT_F32: return ((const float *)d)[i];
    case BASE_DT_F64: return ((const double *)d)[i];
    case BASE_DT_BF16: return base_bf16_to_f32(((const uint16_t *)d)[i]);
    case BASE_DT_F16: return base_f16_to_f32(((const uint16_t *)d)[i]);
    default: return base_elem_get_f64(dt, d, i);
    }
}

static inline void stf(enum base_dtype dt, void *d, size_t i, double v)
{
    switch (dt) {
    case BASE_DT_F32: ((float *)d)[i] = (float)v; break;
    case BASE_DT_F64: ((double *)d)[i] = v; break;
    case BASE_DT_BF16: ((uint16_t *)d)[i] = bf16_from_f64(v); break;
    case BASE_DT_F16: ((uint16_t *)d)[i] = f16_from_f64(v); break;
    default: base_elem_set_f64(dt, d, i, v); break;
    }
}

static inline double complex ldc(enum base_dtype dt, const void *d, size_t i)
{
    if (dt == BASE_DT_C64) {
        const float *f = (const float *)d + 2 * i;
        return CMPLX(f[0], f[1]);
    }
    if (dt == BASE_DT_C128) {
        const double *f = (const double *)d + 2 * i;
        return CMPLX(f[0], f[1]);
    }
    double re, im;
    base_elem_get_c128(dt, d, i, &re, &im);
    return CMPLX(re, im);
}

static inline void stc(enum base_dtype dt, void *d, size_t i, double complex v)
{
    if (dt == BASE_DT_C64) {
        float *f = (float *)d + 2 * i;
        f[0] = (float)creal(v);
        f[1] = (float)cimag(v);
    } else if (dt == BASE_DT_C128) {
        double *f = (double *)d + 2 * i;
        f[0] = creal(v);
        f[1] = cimag(v);
    } else {
        base_elem_set_c128(dt, d, i, creal(v), cimag(v));
    }
}

static inline bool dt_signed(enum base_dtype dt) { return base_dtype_kind(dt) == BASE_KIND_SINT; }

/* Integers as uint64: sign-extended for signed types, zero-extended else. */
static inline uint64_t ldi(enum base_dtype dt, const void *d, size_t i)
{
    switch (dt) {
    case BASE_DT_I1: return ((const uint8_t *)d)[i] != 0;
    case BASE_DT_SI8: return (uint64_t)(int64_t)((const int8_t *)d)[i];
    case BASE_DT_SI16: return (uint64_t)(int64_t)((const int16_t *)d)[i];
    case BASE_DT_SI32: return (uint64_t)(int64_t)((const int32_t *)d)[i];
    case BASE_DT_SI64:
    case BASE_DT_INDEX: return (uint64_t)((const int64_t *)d)[i];
    case BASE_DT_UI8: return ((const uint8_t *)d)[i];
    case BASE_DT_UI16: return ((const uint16_t *)d)[i];
    case BASE_DT_UI32: return ((const uint32_t *)d)[i];
    case BASE_DT_UI64: return ((const uint64_t *)d)[i];
    default:
        return dt_signed(dt) ? (uint64_t)base_elem_get_i64(dt, d, i) : base_elem_get_u64(dt, d, i);
    }
}

/* Stores v wrapped to the type's width (booleans: v != 0). */
static inline void sti(enum base_dtype dt, void *d, size_t i, uint64_t v)
{
    switch (dt) {
    case BASE_DT_I1: ((uint8_t *)d)[i] = v != 0; break;
    case BASE_DT_SI8:
    case BASE_DT_UI8: ((uint8_t *)d)[i] = (uint8_t)v; break;
    case BASE_DT_SI16:
    case BASE_DT_UI16: ((uint16_t *)d)[i] = (uint16_t)v; break;
    case BASE_DT_SI32:
    case BASE_DT_UI32: ((uint32_t *)d)[i] = (uint32_t)v; break;
    case BASE_DT_SI64:
    case BASE_DT_UI64:
    case BASE_DT_INDEX: ((uint64_t *)d)[i] = v; break;
    default: base_elem_set_i64(dt, d, i, (int64_t)v); break;
    }
}

static inline bool is_bool(enum base_dtype dt) { return dt == BASE_DT_I1; }

/* ------------------------------------------------------------------------ */
/* Scalar semantics: floats                                                  */

static double f_sign(double x)
{
    if (isnan(x) || x == 0.0) return x;
    return x < 0 ? -1.0 : 1.0;
}

static double f_logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

/* tanh through exp/expm1: a few double ulps (glibc's tanh is exact to an ulp
 * but twice as slow), so only for results rounded to f32 or narrower. */
static inline double tanh_narrow(double x)
{
    double ax = fabs(x);
    if (ax > 22.0) return copysign(1.0, x);
    if (ax >= 0.625) {
        double e = exp(2.0 * ax);
        return copysign(1.0 - 2.0 / (e + 1.0), x);
    }
    double e = expm1(2.0 * ax);
    return copysign(e / (e + 2.0), x);
}

/* Unary float ops that do not depend on the element type. */
static bool f_unary_ok(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ABS: case GRAPH_OP_CBRT: case GRAPH_OP_CEIL: case GRAPH_OP_COSINE:
    case GRAPH_OP_EXPONENTIAL: case GRAPH_OP_EXPONENTIAL_MINUS_ONE: case GRAPH_OP_FLOOR:
    case GRAPH_OP_LOG: case GRAPH_OP_LOG_PLUS_ONE: case GRAPH_OP_LOGISTIC: case GRAPH_OP_NEGATE:
    case GRAPH_OP_ROUND_NEAREST_AFZ: case GRAPH_OP_ROUND_NEAREST_EVEN: case GRAPH_OP_RSQRT:
    case GRAPH_OP_SIGN: case GRAPH_OP_SINE: case GRAPH_OP_SQRT: case GRAPH_OP_TAN:
    case GRAPH_OP_TANH: case GRAPH_OP_REAL: case GRAPH_OP_IMAG: case GRAPH_OP_CHLO_ACOS:
    case GRAPH_OP_CHLO_ACOSH: case GRAPH_OP_CHLO_ASIN: case GRAPH_OP_CHLO_ASINH:
    case GRAPH_OP_CHLO_ATAN: case GRAPH_OP_CHLO_ATANH: case GRAPH_OP_CHLO_BESSEL_I1E:
    case GRAPH_OP_CHLO_CONJ: case GRAPH_OP_CHLO_COSH: case GRAPH_OP_CHLO_DIGAMMA:
    case GRAPH_OP_CHLO_ERF: case GRAPH_OP_CHLO_ERF_INV: case GRAPH_OP_CHLO_ERFC:
    case GRAPH_OP_CHLO_LGAMMA: case GRAPH_OP_CHLO_SINH: case GRAPH_OP_CHLO_SQUARE:
    case GRAPH_OP_CHLO_TAN:
        return true;
    default:
        return false;
    }
}

static double f_unary(enum graph_op_kind k, double x)
{
    switch (k) {
    case GRAPH_OP_ABS: return fabs(x);
    case GRAPH_OP_CBRT: return interp_math_cbrt(x);
    case GRAPH_OP_CEIL: return ceil(x);
    case GRAPH_OP_COSINE: return cos(x);
    case GRAPH_OP_EXPONENTIAL: return exp(x);
    case GRAPH_OP_EXPONENTIAL_MINUS_ONE: return expm1(x);
    case GRAPH_OP_FLOOR: return floor(x);
    case GRAPH_OP_LOG: return log(x);
    case GRAPH_OP_LOG_PLUS_ONE: return log1p(x);
    case GRAPH_OP_LOGISTIC: return f_logistic(x);
    case GRAPH_OP_NEGATE: return -x;
    case GRAPH_OP_ROUND_NEAREST_AFZ: return round(x);
    case GRAPH_OP_ROUND_NEAREST_EVEN: return nearbyint(x); /* default mode: ties to even */
    case GRAPH_OP_RSQRT: return 1.0 / sqrt(x);
    case GRAPH_OP_SIGN: return f_sign(x);
    case GRAPH_OP_SINE: return sin(x);
    case GRAPH_OP_SQRT: return sqrt(x);
    case GRAPH_OP_TAN: case GRAPH_OP_CHLO_TAN: return tan(x);
    case GRAPH_OP_TANH: return tanh(x);
    case GRAPH_OP_REAL: case GRAPH_OP_CHLO_CONJ: return x;
    case GRAPH_OP_IMAG: return 0.0;
    case GRAPH_OP_CHLO_ACOS: return acos(x);
    case GRAPH_OP_CHLO_ACOSH: return acosh(x);
    case GRAPH_OP_CHLO_ASIN: return asin(x);
    case GRAPH_OP_CHLO_ASINH: return asinh(x);
    case GRAPH_OP_CHLO_ATAN: return atan(x);
    case GRAPH_OP_CHLO_ATANH: return atanh(x);
    case GRAPH_OP_CHLO_BESSEL_I1E: return interp_math_bessel_i1e(x);
    case GRAPH_OP_CHLO_COSH: return cosh(x);
    case GRAPH_OP_CHLO_DIGAMMA: return interp_math_digamma(x);
    case GRAPH_OP_CHLO_ERF: return erf(x);
    case GRAPH_OP_CHLO_ERF_INV: return interp_math_erf_inv(x);
    case GRAPH_OP_CHLO_ERFC: return erfc(x);
    case GRAPH_OP_CHLO_LGAMMA: return interp_math_lgamma(x);
    case GRAPH_OP_CHLO_SINH: return sinh(x);
    case GRAPH_OP_CHLO_SQUARE: return x * x;
    default: return NAN;
    }
}

static bool f_binary_ok(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ADD: case GRAPH_OP_SUBTRACT: case GRAPH_OP_MULTIPLY: case GRAPH_OP_DIVIDE:
    case GRAPH_OP_REMAINDER: case GRAPH_OP_MAXIMUM: case GRAPH_OP_MINIMUM: case GRAPH_OP_POWER:
    case GRAPH_OP_ATAN2: case GRAPH_OP_CHLO_POLYGAMMA: case GRAPH_OP_CHLO_ZETA:
        return true;
    default:
        return false;
    }
}

static double f_binary(enum graph_op_kind k, double x, double y)
{
    switch (k) {
    case GRAPH_OP_ADD: return x + y;
    case GRAPH_OP_SUBTRACT: return x - y;
    case GRAPH_OP_MULTIPLY: return x * y;
    case GRAPH_OP_DIVIDE: return x / y;
    case GRAPH_OP_REMAINDER: return fmod(x, y);
    case GRAPH_OP_MAXIMUM: return interp_math_fmax(x, y);
    case GRAPH_OP_MINIMUM: return interp_math_fmin(x, y);
    case GRAPH_OP_POWER: return pow(x, y);
    case GRAPH_OP_ATAN2: return atan2(x, y);
    case GRAPH_OP_CHLO_POLYGAMMA: return interp_math_polygamma(x, y);
    case GRAPH_OP_CHLO_ZETA: return interp_math_zeta(x, y);
    default: return NAN;
    }
}

/* Bit-level float ops need the format. */
struct fbits {
    int nbits;
    uint64_t sign; /* sign bit mask, 0 for unsigned formats */
};

static struct fbits fbits_of(enum base_dtype dt)
{
    struct fbits b;
    b.nbits = base_dtype_bits(dt);
    b.sign = interp_float_sign_mask(dt);
    return b;
}

/* chlo.next_after on the bit patterns (as XLA's decomposition does). */
static void next_after_elem(enum base_dtype dt, struct fbits fb, const void *a, size_t ai,
                            const void *b, size_t bi, void *r, size_t ri)
{
    double x = ldf(dt, a, ai), y = ldf(dt, b, bi);
    if (isnan(x) || isnan(y)) {
        stf(dt, r, ri, NAN);
        return;
    }
    uint64_t xb = base_elem_get_bits(dt, a, ai), yb = base_elem_get_bits(dt, b, bi);
    if (x == y) {
        base_elem_set_bits(dt, r, ri, yb);
        return;
    }
    uint64_t ysign = yb & fb.sign;
    if (x == 0.0) {
        base_elem_set_bits(dt, r, ri, ysign | 1);
        return;
    }
    uint64_t xsign = xb & fb.sign;
    uint64_t xmag = xb & ~fb.sign, ymag = yb & ~fb.sign;
    bool smaller = xsign != ysign || xmag > ymag;
    /* Magnitudes of one sign are monotonic in the bits: step the magnitude. */
    base_elem_set_bits(dt, r, ri, smaller ? xb - 1 : xb + 1);
}

/* stablehlo.reduce_precision on the bit pattern (IEEE-like formats). */
static uint64_t reduce_precision_bits(uint64_t v, int nbits, int src_e, int src_m, int e, int m)
{
    if (m < src_m) {
        uint64_t last = UINT64_C(1) << (src_m - m);
        uint64_t bias = (last >> 1) - 1 + ((v & last) >> (src_m - m));
        v = (v + bias) & ~(last - 1);
    }
    if (e < src_e) {
        uint64_t sign = UINT64_C(1) << (nbits - 1);
        uint64_t expmask = ((UINT64_C(1) << src_e) - 1) << src_m;
        uint64_t ebias = (UINT64_C(1) << (src_e - 1)) - 1;
        uint64_t rbias = e > 0 ? (UINT64_C(1) << (e - 1)) - 1 : 0;
        uint64_t xe = v & expmask;
        bool over = xe > ((ebias + rbias) << src_m);
        bool under = xe <= ((ebias - rbias) << src_m);
        if (over) v = (v & sign) | expmask;
        if (under) v = v & sign;
    }
    return v & base_wmask(nbits);
}

/* The same on the value, for formats without an IEEE layout. */
static double reduce_precision_value(double x, const struct base_float_format *f, int e, int m)
{
    if (isnan(x)) return m > 0 ? x : INFINITY;
    if (isinf(x) || x == 0.0) return x;
    if (m < f->man_bits) {
        int ex;
        (void)frexp(x, &ex); /* x = f * 2^ex, 0.5 <= |f| < 1 */
        int emin = 2 - f->bias; /* frexp exponent of the smallest normal */
        if (ex < emin) ex = emin; /* subnormals: fixed quantum */
        double scale = ldexp(1.0, m + 1 - ex);
        x = nearbyint(x * scale) / scale;
    }
    if (e < f->exp_bits) {
        int rbias = (1 << (e - 1)) - 1;
        if (fabs(x) >= ldexp(1.0, rbias + 1)) return copysign(INFINITY, x);
        if (fabs(x) < ldexp(1.0, 1 - rbias)) return copysign(0.0, x);
    }
    return x;
}

/* ------------------------------------------------------------------------ */
/* Scalar semantics: complex                                                 */

static bool c_unary_ok(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_CBRT: case GRAPH_OP_COSINE: case GRAPH_OP_EXPONENTIAL:
    case GRAPH_OP_EXPONENTIAL_MINUS_ONE: case GRAPH_OP_LOG: case GRAPH_OP_LOG_PLUS_ONE:
    case GRAPH_OP_LOGISTIC: case GRAPH_OP_NEGATE: case GRAPH_OP_RSQRT: case GRAPH_OP_SIGN:
    case GRAPH_OP_SINE: case GRAPH_OP_SQRT: case GRAPH_OP_TAN: case GRAPH_OP_TANH:
    case GRAPH_OP_CHLO_ACOS: case GRAPH_OP_CHLO_ACOSH: case GRAPH_OP_CHLO_ASIN:
    case GRAPH_OP_CHLO_ASINH: case GRAPH_OP_CHLO_ATAN: case GRAPH_OP_CHLO_ATANH:
    case GRAPH_OP_CHLO_CONJ: case GRAPH_OP_CHLO_COSH: case GRAPH_OP_CHLO_SINH:
    case GRAPH_OP_CHLO_SQUARE: case GRAPH_OP_CHLO_TAN:
        return true;
    default:
        return false;
    }
}

static double complex c_unary(enum graph_op_kind k, double complex z)
{
    switch (k) {
    case GRAPH_OP_CBRT: return interp_math_ccbrt(z);
    case GRAPH_OP_COSINE: return interp_math_ccos(z);
    case GRAPH_OP_EXPONENTIAL: return interp_math_cexp(z);
    case GRAPH_OP_EXPONENTIAL_MINUS_ONE: return interp_math_cexpm1(z);
    case GRAPH_OP_LOG: return interp_math_clog(z);
    case GRAPH_OP_LOG_PLUS_ONE: return interp_math_clog1p(z);
    case GRAPH_OP_LOGISTIC: return interp_math_clogistic(z);
    case GRAPH_OP_NEGATE: return CMPLX(-creal(z), -cimag(z));
    case GRAPH_OP_RSQRT: return interp_math_crsqrt(z);
    case GRAPH_OP_SIGN: return interp_math_csign(z);
    case GRAPH_OP_SINE: return interp_math_csin(z);
    case GRAPH_OP_SQRT: return interp_math_csqrt(z);
    case GRAPH_OP_TAN: case GRAPH_OP_CHLO_TAN: return interp_math_ctan(z);
    case GRAPH_OP_TANH: return interp_math_ctanh(z);
    case GRAPH_OP_CHLO_ACOS: return interp_math_cacos(z);
    case GRAPH_OP_CHLO_ACOSH: return interp_math_cacosh(z);
    case GRAPH_OP_CHLO_ASIN: return interp_math_casin(z);
    case GRAPH_OP_CHLO_ASINH: return interp_math_casinh(z);
    case GRAPH_OP_CHLO_ATAN: return interp_math_catan(z);
    case GRAPH_OP_CHLO_ATANH: return interp_math_catanh(z);
    case GRAPH_OP_CHLO_CONJ: return CMPLX(creal(z), -cimag(z));
    case GRAPH_OP_CHLO_COSH: return interp_math_ccosh(z);
    case GRAPH_OP_CHLO_SINH: return interp_math_csinh(z);
    case GRAPH_OP_CHLO_SQUARE: return interp_math_csquare(z);
    default: return CMPLX(NAN, NAN);
    }
}

/* Lexicographic (real, imag) order used by maximum/minimum (spec). */
static bool c_greater(double complex a, double complex b)
{
    return creal(a) == creal(b) ? cimag(a) > cimag(b) : creal(a) > creal(b);
}

static bool c_less(double complex a, double complex b)
{
    return creal(a) == creal(b) ? cimag(a) < cimag(b) : creal(a) < creal(b);
}

static bool c_binary_ok(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ADD: case GRAPH_OP_SUBTRACT: case GRAPH_OP_MULTIPLY: case GRAPH_OP_DIVIDE:
    case GRAPH_OP_MAXIMUM: case GRAPH_OP_MINIMUM: case GRAPH_OP_POWER: case GRAPH_OP_ATAN2:
        return true;
    default:
        return false;
    }
}

static double complex c_binary(enum graph_op_kind k, double complex a, double complex b)
{
    switch (k) {
    case GRAPH_OP_ADD: return CMPLX(creal(a) + creal(b), cimag(a) + cimag(b));
    case GRAPH_OP_SUBTRACT: return CMPLX(creal(a) - creal(b), cimag(a) - cimag(b));
    case GRAPH_OP_MULTIPLY: return interp_math_cmul(a, b);
    case GRAPH_OP_DIVIDE: return interp_math_cdiv(a, b);
    case GRAPH_OP_MAXIMUM: return c_greater(a, b) ? a : b;
    case GRAPH_OP_MINIMUM: return c_less(a, b) ? a : b;
    case GRAPH_OP_POWER: return interp_math_cpow(a, b);
    case GRAPH_OP_ATAN2: return interp_math_catan2(a, b);
    default: return CMPLX(NAN, NAN);
    }
}

/* ------------------------------------------------------------------------ */
/* Scalar semantics: integers and booleans                                   */

static bool i_unary_ok(enum graph_op_kind k, bool boolean)
{
    switch (k) {
    case GRAPH_OP_NOT: return true;
    case GRAPH_OP_ABS: case GRAPH_OP_NEGATE: case GRAPH_OP_POPCNT:
    case GRAPH_OP_COUNT_LEADING_ZEROS: case GRAPH_OP_SIGN:
        return !boolean;
    default:
        return false;
    }
}

static uint64_t i_unary(enum graph_op_kind k, uint64_t v, int w, bool sgn)
{
    switch (k) {
    case GRAPH_OP_NOT: return w == 1 ? !v : ~v;
    case GRAPH_OP_ABS: return sgn && base_sext(v, w) < 0 ? 0 - v : v;
    case GRAPH_OP_NEGATE: return 0 - v;
    case GRAPH_OP_POPCNT: return (uint64_t)__builtin_popcountll(v & base_wmask(w));
    case GRAPH_OP_COUNT_LEADING_ZEROS: {
        uint64_t u = v & base_wmask(w);
        return u == 0 ? (uint64_t)w : (uint64_t)(__builtin_clzll(u) - (64 - w));
    }
    case GRAPH_OP_SIGN:
        if (sgn) {
            int64_t s = base_sext(v, w);
            return s < 0 ? ~UINT64_C(0) : s > 0;
        }
        return (v & base_wmask(w)) != 0;
    default: return 0;
    }
}

static bool i_binary_ok(enum graph_op_kind k, bool boolean)
{
    switch (k) {
    case GRAPH_OP_ADD: case GRAPH_OP_MULTIPLY: case GRAPH_OP_MAXIMUM: case GRAPH_OP_MINIMUM:
    case GRAPH_OP_AND: case GRAPH_OP_OR: case GRAPH_OP_XOR:
        return true;
    case GRAPH_OP_SUBTRACT: case GRAPH_OP_DIVIDE: case GRAPH_OP_REMAINDER: case GRAPH_OP_POWER:
    case GRAPH_OP_SHIFT_LEFT: case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC:
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL: case GRAPH_OP_CHLO_MULHI:
        return !boolean;
    default:
        return false;
    }
}

static uint64_t i_mulhi(uint64_t a, uint64_t b, int w, bool sgn)
{
    if (w <= 32) {
        if (sgn) return (uint64_t)((base_sext(a, w) * base_sext(b, w)) >> w);
        return ((a & base_wmask(w)) * (b & base_wmask(w))) >> w;
    }
    if (sgn) {
        __int128 p = (__int128)(int64_t)a * (__int128)(int64_t)b;
        return (uint64_t)(p >> 64);
    }
    unsigned __int128 p = (unsigned __int128)a * (unsigned __int128)b;
    return (uint64_t)(p >> 64);
}

static uint64_t i_binary(enum graph_op_kind k, uint64_t a, uint64_t b, int w, bool sgn)
{
    switch (k) {
    case GRAPH_OP_ADD: return w == 1 ? (a | b) : a + b;
    case GRAPH_OP_SUBTRACT: return a - b;
    case GRAPH_OP_MULTIPLY: return w == 1 ? (a & b) : a * b;
    case GRAPH_OP_AND: return a & b;
    case GRAPH_OP_OR: return a | b;
    case GRAPH_OP_XOR: return a ^ b;
    case GRAPH_OP_MAXIMUM:
        if (sgn) return base_sext(a, w) > base_sext(b, w) ? a : b;
        return (a & base_wmask(w)) > (b & base_wmask(w)) ? a : b;
    case GRAPH_OP_MINIMUM:
        if (sgn) return base_sext(a, w) < base_sext(b, w) ? a : b;
        return (a & base_wmask(w)) < (b & base_wmask(w)) ? a : b;
    case GRAPH_OP_DIVIDE:
        if (sgn) {
            int64_t x = base_sext(a, w), y = base_sext(b, w);
            if (y == 0) return ~UINT64_C(0);
            if (y == -1) return 0 - a; /* INT_MIN / -1 wraps to INT_MIN */
            return (uint64_t)(x / y);
        }
        if ((b & base_wmask(w)) == 0) return ~UINT64_C(0);
        return (a & base_wmask(w)) / (b & base_wmask(w));
    case GRAPH_OP_REMAINDER:
        if (sgn) {
            int64_t x = base_sext(a, w), y = base_sext(b, w);
            if (y == 0) return a;
            if (y == -1) return 0;
            return (uint64_t)(x % y);
        }
        if ((b & base_wmask(w)) == 0) return a;
        return (a & base_wmask(w)) % (b & base_wmask(w));
    case GRAPH_OP_POWER: return base_ipow(a, b, w, sgn);
    case GRAPH_OP_SHIFT_LEFT: {
        uint64_t s = b & base_wmask(w);
        return s >= (uint64_t)w ? 0 : a << s;
    }
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL: {
        uint64_t s = b & base_wmask(w);
        return s >= (uint64_t)w ? 0 : (a & base_wmask(w)) >> s;
    }
    case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC: {
        /* On the w-bit pattern, also for unsigned types (as XLA). */
        uint64_t s = b & base_wmask(w);
        int64_t x = base_sext(a, w);
        if (s >= (uint64_t)w) return x < 0 ? ~UINT64_C(0) : 0;
        return (uint64_t)(x >> s);
    }
    case GRAPH_OP_CHLO_MULHI: return i_mulhi(a, b, w, sgn);
    default: return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* Comparison                                                                */

static bool cmp_c(enum interp_cmp_dir d, double complex a, double complex b)
{
    bool eq = creal(a) == creal(b) && cimag(a) == cimag(b);
    switch (d) {
    case INTERP_CMP_EQ: return eq;
    case INTERP_CMP_NE: return !eq;
    case INTERP_CMP_GE: return c_greater(a, b) || eq;
    case INTERP_CMP_GT: return c_greater(a, b);
    case INTERP_CMP_LE: return c_less(a, b) || eq;
    case INTERP_CMP_LT: return c_less(a, b);
    }
    return false;
}

uint64_t interp_float_sign_mask(enum base_dtype dt)
{
    const struct base_float_format *f = base_float_format(dt);
    return f && !f->has_sign ? 0 : UINT64_C(1) << (base_dtype_bits(dt) - 1);
}

bool interp_compare_dir(const struct graph_op *cmp, enum interp_cmp_dir *dir)
{
    const struct graph_attr *a = graph_op_attr(cmp, "comparison_direction");
    static const char *const names[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    for (int i = 0; i < 6; i++) {
        if (graph_attr_is_keyword(a, names[i])) {
            *dir = (enum interp_cmp_dir)i;
            return true;
        }
    }
    return false;
}

#define CMP_LOOP(T, LOAD, CMPFN)                                                  \
    do {                                                                          \
        const T *x_ = (const T *)a->data, *y_ = (const T *)b->data;               \
        switch (d) {                                                              \
        case INTERP_CMP_EQ: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) == LOAD(y_[i]); break; \
        case INTERP_CMP_NE: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) != LOAD(y_[i]); break; \
        case INTERP_CMP_GE: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) >= LOAD(y_[i]); break; \
        case INTERP_CMP_GT: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) > LOAD(y_[i]); break; \
        case INTERP_CMP_LE: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) <= LOAD(y_[i]); break; \
        case INTERP_CMP_LT: for (size_t i = 0; i < n; i++) r[i] = LOAD(x_[i]) < LOAD(y_[i]); break; \
        }                                                                         \
    } while (0)

#define ID(v) (v)

/* r[i] = a[i] <d> b[i]; false when the element type is not comparable. */
static bool compare_run(enum interp_cmp_dir d, bool total, const struct base_tensor *a,
                        const struct base_tensor *b, uint8_t *r)
{
    enum base_dtype dt = a->dtype;
    size_t n = (size_t)a->count;
    enum base_dtype_kind kind = base_dtype_kind(dt);
    if (kind == BASE_KIND_FLOAT && total) {
        uint64_t sign = interp_float_sign_mask(dt);
        for (size_t i = 0; i < n; i++)
            r[i] = INTERP_CMP(d, interp_total_order_key(base_elem_get_bits(dt, a->data, i), sign),
                              interp_total_order_key(base_elem_get_bits(dt, b->data, i), sign));
        return true;
    }
    switch (dt) {
    case BASE_DT_F32: CMP_LOOP(float, ID, _); return true;
    case BASE_DT_F64: CMP_LOOP(double, ID, _); return true;
    case BASE_DT_BF16: CMP_LOOP(uint16_t, base_bf16_to_f32, _); return true;
    case BASE_DT_SI32: CMP_LOOP(int32_t, ID, _); return true;
    case BASE_DT_SI64: CMP_LOOP(int64_t, ID, _); return true;
    case BASE_DT_UI32: CMP_LOOP(uint32_t, ID, _); return true;
    case BASE_DT_UI8: case BASE_DT_I1: CMP_LOOP(uint8_t, ID, _); return true;
    default: break;
    }
    switch (kind) {
    case BASE_KIND_FLOAT:
        for (size_t i = 0; i < n; i++) r[i] = INTERP_CMP(d, ldf(dt, a->data, i), ldf(dt, b->data, i));
        return true;
    case BASE_KIND_COMPLEX:
        for (size_t i = 0; i < n; i++) r[i] = cmp_c(d, ldc(dt, a->data, i), ldc(dt, b->data, i));
        return true;
    case BASE_KIND_SINT:
        for (size_t i = 0; i < n; i++)
            r[i] = INTERP_CMP(d, (int64_t)ldi(dt, a->data, i), (int64_t)ldi(dt, b->data, i));
        return true;
    case BASE_KIND_UINT:
    case BASE_KIND_BOOL:
        for (size_t i = 0; i < n; i++) r[i] = INTERP_CMP(d, ldi(dt, a->data, i), ldi(dt, b->data, i));
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Whole-tensor loops                                                        */


#define BIN_F32(EXPR)                                                             \
    do {                                                                          \
        for (size_t i = 0; i < n; i++) {                                          \
            float x = xa[i], y = ya[i];                                           \
            ra[i] = (EXPR);                                                       \
        }                                                                         \
        return true;                                                              \
    } while (0)

static bool binary_fast_f32(enum graph_op_kind k, const float *xa, const float *ya, float *ra,
                            size_t n)
{
    switch (k) {
    case GRAPH_OP_ADD: BIN_F32(x + y);
    case GRAPH_OP_SUBTRACT: BIN_F32(x - y);
    case GRAPH_OP_MULTIPLY: BIN_F32(x * y);
    case GRAPH_OP_DIVIDE: BIN_F32(x / y);
    case GRAPH_OP_MAXIMUM: BIN_F32(interp_math_fmaxf(x, y));
    case GRAPH_OP_MINIMUM: BIN_F32(interp_math_fminf(x, y));
    case GRAPH_OP_POWER: BIN_F32(y == 2.0f ? x * x : (float)pow(x, y));
    default: return false;
    }
}

/* bf16 through f32: f32 has more than 2 * 8 + 2 significant bits, so rounding
 * the f32 result of + - * / to bf16 equals rounding the exact result. */
#define BIN_BF16(EXPR)                                                            \
    do {                                                                          \
        for (size_t i = 0; i < n; i++) {                                          \
            float x = base_bf16_to_f32(xa[i]), y = base_bf16_to_f32(ya[i]);       \
            ra[i] = bf16_rne(EXPR);                                               \
        }                                                                         \
        return true;                                                              \
    } while (0)

static bool binary_fast_bf16(enum graph_op_kind k, const uint16_t *xa, const uint16_t *ya,
                             uint16_t *ra, size_t n)
{
    switch (k) {
    case GRAPH_OP_ADD: BIN_BF16(x + y);
    case GRAPH_OP_SUBTRACT: BIN_BF16(x - y);
    case GRAPH_OP_MULTIPLY: BIN_BF16(x * y);
    case GRAPH_OP_DIVIDE: BIN_BF16(x / y);
    case GRAPH_OP_MAXIMUM: BIN_BF16(interp_math_fmaxf(x, y));
    case GRAPH_OP_MINIMUM: BIN_BF16(interp_math_fminf(x, y));
    case GRAPH_OP_POWER:
        for (size_t i = 0; i < n; i++) {
            float x = base_bf16_to_f32(xa[i]), y = base_bf16_to_f32(ya[i]);
            ra[i] = y == 2.0f ? bf16_rne(x * x) : bf16_from_f64(pow(x, y));
        }
        return true;
    default: return false;
    }
}

/* r = a <k> b elementwise, all of dtype a->dtype (r preallocated, same shape).
 * False when k does not apply to the element type. */
static bool binary_run(enum graph_op_kind k, const struct base_tensor *a,
                       const struct base_tensor *b, struct base_tensor *r)
{
    enum base_dtype dt = a->dtype;
    size_t n = (size_t)a->count;
    const void *x = a->data, *y = b->data;
    void *z = r->data;
    if (dt == BASE_DT_F32 && binary_fast_f32(k, x, y, z, n)) return true;
    if (dt == BASE_DT_BF16 && binary_fast_bf16(k, x, y, z, n)) return true;
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT:
        if (k == GRAPH_OP_CHLO_NEXT_AFTER) {
            struct fbits fb = fbits_of(dt);
            for (size_t i = 0; i < n; i++) next_after_elem(dt, fb, x, i, y, i, z, i);
            return true;
        }
        if (!f_binary_ok(k)) return false;
        if (dt == BASE_DT_F64) {
            const double *xd = x, *yd = y;
            double *zd = z;
            for (size_t i = 0; i < n; i++) zd[i] = f_binary(k, xd[i], yd[i]);
            return true;
        }
        for (size_t i = 0; i < n; i++) stf(dt, z, i, f_binary(k, ldf(dt, x, i), ldf(dt, y, i)));
        return true;
    case BASE_KIND_COMPLEX:
        if (!c_binary_ok(k)) return false;
        for (size_t i = 0; i < n; i++) stc(dt, z, i, c_binary(k, ldc(dt, x, i), ldc(dt, y, i)));
        return true;
    case BASE_KIND_SINT:
    case BASE_KIND_UINT:
    case BASE_KIND_BOOL: {
        if (!i_binary_ok(k, is_bool(dt))) return false;
        int w = base_dtype_bits(dt);
        bool sgn = dt_signed(dt);
        if (dt == BASE_DT_SI32 || dt == BASE_DT_UI32) {
            const uint32_t *xi = x, *yi = y;
            uint32_t *zi = z;
            for (size_t i = 0; i < n; i++)
                zi[i] = (uint32_t)i_binary(k, sgn ? (uint64_t)(int64_t)(int32_t)xi[i] : xi[i],
                                           sgn ? (uint64_t)(int64_t)(int32_t)yi[i] : yi[i], w, sgn);
            return true;
        }
        for (size_t i = 0; i < n; i++) sti(dt, z, i, i_binary(k, ldi(dt, x, i), ldi(dt, y, i), w, sgn));
        return true;
    }
    }
    return false;
}

/* The element type a unary op produces from dt, or BASE_DT_COUNT if the op
 * does not take dt. */
static enum base_dtype unary_result_dtype(enum graph_op_kind k, enum base_dtype dt)
{
    enum base_dtype_kind kind = base_dtype_kind(dt);
    switch (k) {
    case GRAPH_OP_IS_FINITE: case GRAPH_OP_CHLO_IS_INF: case GRAPH_OP_CHLO_IS_NEG_INF:
    case GRAPH_OP_CHLO_IS_POS_INF:
        return kind == BASE_KIND_FLOAT ? BASE_DT_I1 : BASE_DT_COUNT;
    case GRAPH_OP_ABS: case GRAPH_OP_REAL: case GRAPH_OP_IMAG:
        if (kind == BASE_KIND_COMPLEX) return base_dtype_component(dt);
        if (k != GRAPH_OP_ABS && kind != BASE_KIND_FLOAT) return BASE_DT_COUNT;
        return dt;
    default:
        break;
    }
    switch (kind) {
    case BASE_KIND_FLOAT: return f_unary_ok(k) || k == GRAPH_OP_REDUCE_PRECISION ? dt : BASE_DT_COUNT;
    case BASE_KIND_COMPLEX: return c_unary_ok(k) ? dt : BASE_DT_COUNT;
    default: return i_unary_ok(k, is_bool(dt)) ? dt : BASE_DT_COUNT;
    }
}

#define UN_LOOP(TIN, TOUT, LOAD, STORE, TANH)                                           \
    do {                                                                          \
        const TIN *x_ = (const TIN *)a->data;                                     \
        TOUT *r_ = (TOUT *)r->data;                                               \
        switch (k) {                                                              \
        case GRAPH_OP_SQRT: for (size_t i = 0; i < n; i++) r_[i] = STORE(sqrt(LOAD(x_[i]))); break; \
        case GRAPH_OP_EXPONENTIAL: for (size_t i = 0; i < n; i++) r_[i] = STORE(exp(LOAD(x_[i]))); break; \
        case GRAPH_OP_TANH: for (size_t i = 0; i < n; i++) r_[i] = STORE(TANH(LOAD(x_[i]))); break; \
        case GRAPH_OP_RSQRT: for (size_t i = 0; i < n; i++) r_[i] = STORE(1.0 / sqrt(LOAD(x_[i]))); break; \
        case GRAPH_OP_LOGISTIC: for (size_t i = 0; i < n; i++) r_[i] = STORE(f_logistic(LOAD(x_[i]))); break; \
        default: for (size_t i = 0; i < n; i++) r_[i] = STORE(f_unary(k, LOAD(x_[i]))); break; \
        }                                                                         \
    } while (0)

#define TO_F32(v) ((float)(v))
#define F64_OF(v) ((double)(v))
#define BF16_LD(v) ((double)base_bf16_to_f32(v))

/* r = <k>(a); r has the dtype unary_result_dtype(k, a->dtype). */
static void unary_run(enum graph_op_kind k, const struct base_tensor *a, struct base_tensor *r)
{
    enum base_dtype dt = a->dtype;
    size_t n = (size_t)a->count;
    const void *x = a->data;
    void *z = r->data;
    enum base_dtype_kind kind = base_dtype_kind(dt);
    if (kind == BASE_KIND_FLOAT) {
        uint8_t *zb = z;
        switch (k) {
        case GRAPH_OP_IS_FINITE:
            for (size_t i = 0; i < n; i++) zb[i] = isfinite(ldf(dt, x, i)) != 0;
            return;
        case GRAPH_OP_CHLO_IS_INF:
            for (size_t i = 0; i < n; i++) zb[i] = isinf(ldf(dt, x, i)) != 0;
            return;
        case GRAPH_OP_CHLO_IS_NEG_INF:
            for (size_t i = 0; i < n; i++) zb[i] = ldf(dt, x, i) == -INFINITY;
            return;
        case GRAPH_OP_CHLO_IS_POS_INF:
            for (size_t i = 0; i < n; i++) zb[i] = ldf(dt, x, i) == INFINITY;
            return;
        case GRAPH_OP_NEGATE:
        case GRAPH_OP_ABS:
            /* Sign-bit arithmetic: exact, also for NaN. */
            if (dt == BASE_DT_F32) {
                const uint32_t *xi = x;
                uint32_t *zi = z;
                if (k == GRAPH_OP_NEGATE)
                    for (size_t i = 0; i < n; i++) zi[i] = xi[i] ^ 0x80000000u;
                else
                    for (size_t i = 0; i < n; i++) zi[i] = xi[i] & 0x7fffffffu;
                return;
            }
            if (dt == BASE_DT_BF16 || dt == BASE_DT_F16) {
                const uint16_t *xi = x;
                uint16_t *zi = z;
                if (k == GRAPH_OP_NEGATE)
                    for (size_t i = 0; i < n; i++) zi[i] = (uint16_t)(xi[i] ^ 0x8000u);
                else
                    for (size_t i = 0; i < n; i++) zi[i] = (uint16_t)(xi[i] & 0x7fffu);
                return;
            }
            if (dt == BASE_DT_F64) {
                const uint64_t *xi = x;
                uint64_t *zi = z;
                uint64_t sign = UINT64_C(1) << 63;
                if (k == GRAPH_OP_NEGATE)
                    for (size_t i = 0; i < n; i++) zi[i] = xi[i] ^ sign;
                else
                    for (size_t i = 0; i < n; i++) zi[i] = xi[i] & ~sign;
                return;
            }
            break;
        default:
            break;
        }
        if ((k == GRAPH_OP_CHLO_COSH || k == GRAPH_OP_CHLO_SINH) && dt != BASE_DT_F64) {
            /* XLA computes these in f32 (upcasting narrower types); see
             * interp_math.h. */
            for (size_t i = 0; i < n; i++) {
                float v = (float)ldf(dt, x, i);
                stf(dt, z, i, k == GRAPH_OP_CHLO_COSH ? interp_math_cosh_f32(v) : interp_math_sinh_f32(v));
            }
            return;
        }
        if (dt == BASE_DT_F32) {
            UN_LOOP(float, float, F64_OF, TO_F32, tanh_narrow);
            return;
        }
        if (dt == BASE_DT_F64) {
            UN_LOOP(double, double, F64_OF, F64_OF, tanh);
            return;
        }
        if (dt == BASE_DT_BF16 && k == GRAPH_OP_SQRT) {
            /* f32 sqrt then bf16: f32 carries more than 2 * 8 + 2 bits, so
             * the double rounding is innocuous. */
            const uint16_t *xi = x;
            uint16_t *zi = z;
            for (size_t i = 0; i < n; i++) zi[i] = bf16_rne(sqrtf(base_bf16_to_f32(xi[i])));
            return;
        }
        if (dt == BASE_DT_BF16) {
            UN_LOOP(uint16_t, uint16_t, BF16_LD, bf16_from_f64, tanh_narrow);
            return;
        }
        for (size_t i = 0; i < n; i++) stf(dt, z, i, f_unary(k, ldf(dt, x, i)));
        return;
    }
    if (kind == BASE_KIND_COMPLEX) {
        enum base_dtype ct = base_dtype_component(dt);
        switch (k) {
        case GRAPH_OP_ABS:
            for (size_t i = 0; i < n; i++) {
                double complex v = ldc(dt, x, i);
                stf(ct, z, i, hypot(creal(v), cimag(v)));
            }
            return;
        case GRAPH_OP_REAL:
            for (size_t i = 0; i < n; i++) stf(ct, z, i, creal(ldc(dt, x, i)));
            return;
        case GRAPH_OP_IMAG:
            for (size_t i = 0; i < n; i++) stf(ct, z, i, cimag(ldc(dt, x, i)));
            return;
        default:
            for (size_t i = 0; i < n; i++) stc(dt, z, i, c_unary(k, ldc(dt, x, i)));
            return;
        }
    }
    int w = base_dtype_bits(dt);
    bool sgn = dt_signed(dt);
    for (size_t i = 0; i < n; i++) sti(dt, z, i, i_unary(k, ldi(dt, x, i), w, sgn));
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                   */

static enum base_status new_tensor(struct interp_proc *p, const struct graph_op *op,
                                   enum base_dtype dt, const struct base_tensor *shape,
                                   struct base_tensor **out)
{
    enum base_status st = base_tensor_create(dt, shape->rank, shape->dims, out);
    if (st != BASE_OK)
        return interp_fail(p, op, st, "cannot allocate a result of %lld elements",
                           (long long)shape->count);
    return BASE_OK;
}

static bool same_shape(const struct base_tensor *a, const struct base_tensor *b)
{
    if (a->rank != b->rank) return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return false;
    return true;
}

/* The static result type, where known, must have the operand's shape. */
static enum base_status check_result_shape(struct interp_proc *p, const struct graph_op *op,
                                           const struct base_tensor *shape)
{
    const struct graph_type *t = interp_result_type(op, 0);
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->rank < 0) return BASE_OK;
    bool ok = t->rank == shape->rank;
    for (int i = 0; ok && i < t->rank; i++)
        if (t->dims[i] != GRAPH_DYN && t->dims[i] != shape->dims[i]) ok = false;
    if (!ok)
        return interp_fail(p, op, BASE_ERR_RUNTIME,
                           "result type's shape does not match the operand shape");
    return BASE_OK;
}

/* Converts *t to dt in place of the reference when the kernel's natural
 * result type differs from the op's (quantized results in dequant mode). */
static enum base_status coerce(struct interp_proc *p, const struct graph_op *op, enum base_dtype dt,
                               struct base_tensor **t)
{
    if ((*t)->dtype == dt) return BASE_OK;
    struct base_tensor *c = NULL;
    enum base_status st = new_tensor(p, op, dt, *t, &c);
    if (st != BASE_OK) return st;
    base_convert(dt, c->data, (*t)->dtype, (*t)->data, (size_t)(*t)->count);
    base_tensor_release(*t);
    *t = c;
    return BASE_OK;
}

static enum base_status finish(struct interp_proc *p, const struct graph_op *op,
                               struct base_tensor *r, struct interp_value **out)
{
    enum base_status st = coerce(p, op, interp_result_dtype(p, op, 0), &r);
    if (st != BASE_OK) {
        base_tensor_release(r);
        return st;
    }
    return interp_set_out(p, op, out, 0, r);
}

static enum base_status operand(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, int i, struct base_tensor **t)
{
    if (i >= op->n_operands || !(*t = iv_t(in[i])))
        return interp_fail(p, op, BASE_ERR_RUNTIME, "operand %d is not a tensor", i);
    return BASE_OK;
}

static enum base_status reduce_precision_run(struct interp_proc *p, const struct graph_op *op,
                                             const struct base_tensor *a, struct base_tensor *r)
{
    int64_t e, m;
    if (!graph_attr_as_i64(graph_op_attr(op, "exponent_bits"), &e) ||
        !graph_attr_as_i64(graph_op_attr(op, "mantissa_bits"), &m) || e < 1 || m < 0)
        return interp_fail(p, op, BASE_ERR_INVALID,
                           "reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0");
    enum base_dtype dt = a->dtype;
    const struct base_float_format *f = base_float_format(dt);
    size_t n = (size_t)a->count;
    int nb = base_dtype_bits(dt);
    if (e > 62) e = 62;
    if (m > 62) m = 62;
    if (f->has_inf && f->has_nan && f->has_sign) {
        for (size_t i = 0; i < n; i++) {
            uint64_t v = base_elem_get_bits(dt, a->data, i);
            uint64_t rv = reduce_precision_bits(v, nb, f->exp_bits, f->man_bits, (int)e, (int)m);
            if (isnan(ldf(dt, a->data, i))) {
                /* NaN stays NaN, unless no mantissa bits remain (then inf). */
                if (m > 0)
                    rv = v;
                else
                    rv = (v & (UINT64_C(1) << (nb - 1))) |
                         (((UINT64_C(1) << f->exp_bits) - 1) << f->man_bits);
            }
            base_elem_set_bits(dt, r->data, i, rv);
        }
    } else {
        for (size_t i = 0; i < n; i++)
            stf(dt, r->data, i, reduce_precision_value(ldf(dt, a->data, i), f, (int)e, (int)m));
    }
    return BASE_OK;
}

static enum base_status k_unary(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *a, *r = NULL;
    TRY(operand(p, op, in, 0, &a));
    TRY(check_result_shape(p, op, a));
    enum graph_op_kind k = op->kind;
    enum base_status st;
    if (k == GRAPH_OP_CONVERT) {
        enum base_dtype rdt = interp_result_dtype(p, op, 0);
        TRY(new_tensor(p, op, rdt, a, &r));
        base_convert(rdt, r->data, a->dtype, a->data, (size_t)a->count);
        return finish(p, op, r, out);
    }
    enum base_dtype nat = unary_result_dtype(k, a->dtype);
    if (nat == BASE_DT_COUNT)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "%s does not take element type %s",
                           graph_op_kind_name(k), base_dtype_name(a->dtype));
    TRY(new_tensor(p, op, nat, a, &r));
    if (k == GRAPH_OP_REDUCE_PRECISION) {
        st = reduce_precision_run(p, op, a, r);
        if (st != BASE_OK) {
            base_tensor_release(r);
            return st;
        }
    } else {
        unary_run(k, a, r);
    }
    return finish(p, op, r, out);
}

static enum base_status k_binary(struct interp_proc *p, const struct graph_op *op,
                                 struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *a, *b, *r = NULL;
    TRY(operand(p, op, in, 0, &a));
    TRY(operand(p, op, in, 1, &b));
    enum graph_op_kind k = op->kind;
    if (!same_shape(a, b))
        return interp_fail(p, op, BASE_ERR_RUNTIME, "operands have different shapes");
    if (a->dtype != b->dtype)
        return interp_fail(p, op, BASE_ERR_RUNTIME, "operands have different element types (%s, %s)",
                           base_dtype_name(a->dtype), base_dtype_name(b->dtype));
    TRY(check_result_shape(p, op, a));
    if (k == GRAPH_OP_COMPARE) {
        enum interp_cmp_dir d;
        if (!interp_compare_dir(op, &d))
            return interp_fail(p, op, BASE_ERR_INVALID, "missing or bad comparison_direction");
        bool total = graph_attr_is_keyword(graph_op_attr(op, "compare_type"), "TOTALORDER");
        TRY(new_tensor(p, op, BASE_DT_I1, a, &r));
        compare_run(d, total, a, b, r->data);
        return finish(p, op, r, out);
    }
    if (k == GRAPH_OP_COMPLEX) {
        enum base_dtype ct = a->dtype == BASE_DT_F32 ? BASE_DT_C64
                             : a->dtype == BASE_DT_F64 ? BASE_DT_C128 : BASE_DT_COUNT;
        if (ct == BASE_DT_COUNT)
            return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "complex needs f32 or f64 parts, not %s",
                               base_dtype_name(a->dtype));
        TRY(new_tensor(p, op, ct, a, &r));
        for (size_t i = 0; i < (size_t)a->count; i++)
            stc(ct, r->data, i, CMPLX(ldf(a->dtype, a->data, i), ldf(b->dtype, b->data, i)));
        return finish(p, op, r, out);
    }
    TRY(new_tensor(p, op, a->dtype, a, &r));
    if (!binary_run(k, a, b, r)) {
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "%s does not take element type %s",
                           graph_op_kind_name(k), base_dtype_name(a->dtype));
    }
    return finish(p, op, r, out);
}

/* select(pred, on_true, on_false): pred is i1 of the same shape or a scalar. */
static enum base_status k_select(struct interp_proc *p, const struct graph_op *op,
                                 struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *c, *a, *b, *r = NULL;
    TRY(operand(p, op, in, 0, &c));
    TRY(operand(p, op, in, 1, &a));
    TRY(operand(p, op, in, 2, &b));
    if (!same_shape(a, b) || a->dtype != b->dtype)
        return interp_fail(p, op, BASE_ERR_RUNTIME, "on_true and on_false differ in type");
    if (c->dtype != BASE_DT_I1 || (c->rank != 0 && !same_shape(c, a)))
        return interp_fail(p, op, BASE_ERR_RUNTIME,
                           "pred must be i1, a scalar or of the operands' shape");
    TRY(check_result_shape(p, op, a));
    TRY(new_tensor(p, op, a->dtype, a, &r));
    size_t n = (size_t)a->count, es = base_dtype_size(a->dtype);
    const uint8_t *pc = c->data;
    const char *pa = a->data, *pb = b->data;
    char *pr = r->data;
    if (c->rank == 0) {
        memcpy(pr, pc[0] ? pa : pb, n * es);
    } else if (es == 4) {
        const uint32_t *x = (const uint32_t *)pa, *y = (const uint32_t *)pb;
        uint32_t *z = (uint32_t *)pr;
        for (size_t i = 0; i < n; i++) z[i] = pc[i] ? x[i] : y[i];
    } else if (es == 2) {
        const uint16_t *x = (const uint16_t *)pa, *y = (const uint16_t *)pb;
        uint16_t *z = (uint16_t *)pr;
        for (size_t i = 0; i < n; i++) z[i] = pc[i] ? x[i] : y[i];
    } else {
        for (size_t i = 0; i < n; i++) memcpy(pr + i * es, (pc[i] ? pa : pb) + i * es, es);
    }
    return finish(p, op, r, out);
}

/* clamp(min, operand, max) = minimum(maximum(operand, min), max); min and max
 * may be scalars. */
static enum base_status k_clamp(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, struct interp_value **out)
{
    struct base_tensor *lo, *x, *hi, *r = NULL;
    TRY(operand(p, op, in, 0, &lo));
    TRY(operand(p, op, in, 1, &x));
    TRY(operand(p, op, in, 2, &hi));
    if (lo->dtype != x->dtype || hi->dtype != x->dtype)
        return interp_fail(p, op, BASE_ERR_RUNTIME, "min, operand and max differ in element type");
    if ((lo->rank != 0 && !same_shape(lo, x)) || (hi->rank != 0 && !same_shape(hi, x)))
        return interp_fail(p, op, BASE_ERR_RUNTIME,
                           "min and max must be scalars or of the operand's shape");
    TRY(check_result_shape(p, op, x));
    enum base_dtype dt = x->dtype;
    TRY(new_tensor(p, op, dt, x, &r));
    size_t n = (size_t)x->count;
    size_t ls = lo->rank ? 1 : 0, hs = hi->rank ? 1 : 0;
    enum base_dtype_kind kind = base_dtype_kind(dt);
    if (dt == BASE_DT_F32) {
        const float *pl = lo->data, *px = x->data, *ph = hi->data;
        float *pr = r->data;
        for (size_t i = 0; i < n; i++)
            pr[i] = interp_math_fminf(interp_math_fmaxf(px[i], pl[i * ls]), ph[i * hs]);
    } else if (kind == BASE_KIND_FLOAT) {
        for (size_t i = 0; i < n; i++)
            stf(dt, r->data, i,
                interp_math_fmin(interp_math_fmax(ldf(dt, x->data, i), ldf(dt, lo->data, i * ls)),
                                 ldf(dt, hi->data, i * hs)));
    } else if (kind == BASE_KIND_COMPLEX) {
        for (size_t i = 0; i < n; i++)
            stc(dt, r->data, i,
                c_binary(GRAPH_OP_MINIMUM,
                         c_binary(GRAPH_OP_MAXIMUM, ldc(dt, x->data, i), ldc(dt, lo->data, i * ls)),
                         ldc(dt, hi->data, i * hs)));
    } else {
        int w = base_dtype_bits(dt);
        bool sgn = dt_signed(dt);
        for (size_t i = 0; i < n; i++)
            sti(dt, r->data, i,
                i_binary(GRAPH_OP_MINIMUM,
                         i_binary(GRAPH_OP_MAXIMUM, ldi(dt, x->data, i), ldi(dt, lo->data, i * ls),
                                  w, sgn),
                         ldi(dt, hi->data, i * hs), w, sgn));
    }
    return finish(p, op, r, out);
}

void interp_register_elementwise(interp_kernel_fn *table)
{
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        switch (graph_op_kind_cat((enum graph_op_kind)k)) {
        case GRAPH_CAT_UNARY: table[k] = k_unary; break;
        case GRAPH_CAT_BINARY: table[k] = k_binary; break;
        default: break;
        }
    }
    table[GRAPH_OP_SELECT] = k_select;
    table[GRAPH_OP_CLAMP] = k_clamp;
}

/* ------------------------------------------------------------------------ */
/* Helpers for other families                                                */

static bool simple_kind(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ADD: case GRAPH_OP_SUBTRACT: case GRAPH_OP_MULTIPLY: case GRAPH_OP_DIVIDE:
    case GRAPH_OP_REMAINDER: case GRAPH_OP_MAXIMUM: case GRAPH_OP_MINIMUM: case GRAPH_OP_AND:
    case GRAPH_OP_OR: case GRAPH_OP_XOR: case GRAPH_OP_POWER: case GRAPH_OP_ATAN2:
    case GRAPH_OP_SHIFT_LEFT: case GRAPH_OP_SHIFT_RIGHT_ARITHMETIC:
    case GRAPH_OP_SHIFT_RIGHT_LOGICAL:
        return true;
    default:
        return false;
    }
}

enum graph_op_kind interp_region_simple_binary(const struct graph_region *r)
{
    if (!r || r->n_blocks != 1) return GRAPH_OP_UNKNOWN;
    const struct graph_block *b = &r->blocks[0];
    if (b->n_args != 2 || b->n_ops != 2) return GRAPH_OP_UNKNOWN;
    const struct graph_op *o = b->ops[0], *ret = b->ops[1];
    if (!simple_kind(o->kind) || o->n_operands != 2 || o->n_results != 1 || o->n_regions != 0)
        return GRAPH_OP_UNKNOWN;
    if (ret != graph_block_terminator(b) || ret->n_operands != 1 ||
        ret->operands[0] != &o->results[0])
        return GRAPH_OP_UNKNOWN;
    const struct graph_value *a0 = &b->args[0], *a1 = &b->args[1];
    bool direct = o->operands[0] == a0 && o->operands[1] == a1;
    bool swapped = o->operands[0] == a1 && o->operands[1] == a0;
    if (!direct && !(swapped && graph_op_kind_has(o->kind, GRAPH_OPF_COMMUTATIVE))) return GRAPH_OP_UNKNOWN;
    /* Same element type in and out, and no quantized types. */
    const struct graph_type *t0 = a0->type, *t1 = a1->type, *tr = o->results[0].type;
    if (!t0 || !t1 || !tr || t0->kind != GRAPH_TYPE_TENSOR || t1->kind != GRAPH_TYPE_TENSOR ||
        tr->kind != GRAPH_TYPE_TENSOR || t0->quant || t1->quant || tr->quant ||
        t0->elem != t1->elem || t0->elem != tr->elem || t0->rank != 0 || tr->rank != 0)
        return GRAPH_OP_UNKNOWN;
    return o->kind;
}

bool interp_scalar_binary_is_fast(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_SUBTRACT:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM:
    case GRAPH_OP_AND:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR:
        return true;
    default:
        return false;
    }
}

void interp_scalar_binary(enum graph_op_kind k, enum base_dtype dt, void *dst, size_t di,
                          const void *a, size_t ai, const void *b, size_t bi)
{
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT:
        if (dt == BASE_DT_F32) {
            float x = ((const float *)a)[ai], y = ((const float *)b)[bi], z;
            switch (k) {
            case GRAPH_OP_ADD: z = x + y; break;
            case GRAPH_OP_MULTIPLY: z = x * y; break;
            case GRAPH_OP_MAXIMUM: z = interp_math_fmaxf(x, y); break;
            case GRAPH_OP_MINIMUM: z = interp_math_fminf(x, y); break;
            default: z = (float)f_binary(k, x, y); break;
            }
            ((float *)dst)[di] = z;
            return;
        }
        stf(dt, dst, di, f_binary(k, ldf(dt, a, ai), ldf(dt, b, bi)));
        return;
    case BASE_KIND_COMPLEX:
        stc(dt, dst, di, c_binary(k, ldc(dt, a, ai), ldc(dt, b, bi)));
        return;
    default: {
        uint64_t x = ldi(dt, a, ai), y = ldi(dt, b, bi);
        sti(dt, dst, di, i_binary(k, x, y, base_dtype_bits(dt), dt_signed(dt)));
        return;
    }
    }
}

enum base_status interp_binary_tensors(struct interp_proc *p, const struct graph_op *op,
                                       enum graph_op_kind k, struct base_tensor *a,
                                       struct base_tensor *b, struct base_tensor **out)
{
    *out = NULL;
    if (!same_shape(a, b) || a->dtype != b->dtype)
        return interp_fail(p, op, BASE_ERR_RUNTIME, "%s: operands differ in shape or type",
                           graph_op_kind_name(k));
    struct base_tensor *r = NULL;
    TRY(new_tensor(p, op, a->dtype, a, &r));
    if (!binary_run(k, a, b, r)) {
        base_tensor_release(r);
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "%s does not take element type %s",
                           graph_op_kind_name(k), base_dtype_name(a->dtype));
    }
    *out = r;
    return BASE_OK;
}
