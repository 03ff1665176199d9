/* Private to graph/: special functions for the golden interpreter's
 * elementwise kernels (interp_elementwise.c), and the maximum / minimum that
 * the reductions' fast paths share with them.
 *
 * Everything computes in double (complex: double complex) and is meant to be
 * rounded once to the result element type by the caller.  Real functions that
 * glibc's libm covers accurately (lgamma, erf, erfc, expm1, log1p, cbrt,
 * atan2, ...) are used directly; the rest live here.  Complex functions follow
 * C11 Annex G conventions for signed zeros, infinities and branch cuts.
 */
#ifndef NPUSIM_GRAPH_INTERP_MATH_H
#define NPUSIM_GRAPH_INTERP_MATH_H

#include <complex.h>
#include <math.h>
#include <stdbool.h>

/* glibc defines CMPLX for gcc only; clang has the same builtin. */
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

/* ---- maximum and minimum ----------------------------------------------- */

/* StableHLO maximum / minimum: a NaN operand propagates (the first one), and
 * -0 < +0. */
static inline double interp_math_fmax(double x, double y)
{
    if (isnan(x)) return x;
    if (isnan(y)) return y;
    if (x == y) return signbit(x) ? y : x; /* max(-0, +0) = +0 */
    return x > y ? x : y;
}

static inline double interp_math_fmin(double x, double y)
{
    if (isnan(x)) return x;
    if (isnan(y)) return y;
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}

static inline float interp_math_fmaxf(float x, float y)
{
    if (isnan(x)) return x;
    if (isnan(y)) return y;
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
}

static inline float interp_math_fminf(float x, float y)
{
    if (isnan(x)) return x;
    if (isnan(y)) return y;
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}

/* ---- real special functions ------------------------------------------- */

/* Cube root, correctly rounded in practice (glibc's cbrt is off by an ulp
 * for exact cubes such as 27). */
double interp_math_cbrt(double x);

/* log|Gamma(x)|; +inf at the poles (non-positive integers) and at +-inf. */
double interp_math_lgamma(double x);
/* psi(x) = d/dx log Gamma(x); NaN at non-positive integers (as XLA). */
double interp_math_digamma(double x);
/* Inverse of erf on (-1, 1); +-inf at +-1, NaN outside. */
double interp_math_erf_inv(double x);
/* Exponentially scaled modified Bessel function of order one:
 * exp(-|x|) * I1(x). */
double interp_math_bessel_i1e(double x);
/* Hurwitz zeta function zeta(x, q) = sum_{k>=0} (k + q)^-x, for x > 1;
 * NaN for x < 1, +inf for x == 1 (as XLA). */
double interp_math_zeta(double x, double q);
/* n-th derivative of digamma; n must be a non-negative integer (else NaN). */
double interp_math_polygamma(double n, double x);

/* cosh and sinh of f32 (and narrower) values as XLA computes them, in f32
 * arithmetic: e^(x + log 1/2) +- e^(-x + log 1/2).  The expected values of the
 * StableHLO corpus come from this formula, which differs from the exact
 * value by a few f32 ulps for large |x| (sinh uses the exact value for
 * |x| < 1, where XLA's expm1-based formula is accurate). */
float interp_math_cosh_f32(float x);
float interp_math_sinh_f32(float x);

/* ---- complex functions ------------------------------------------------- */

double complex interp_math_cmul(double complex a, double complex b);
double complex interp_math_cdiv(double complex a, double complex b);
double complex interp_math_cexp(double complex z);
double complex interp_math_cexpm1(double complex z);
double complex interp_math_clog(double complex z);
double complex interp_math_clog1p(double complex z);
double complex interp_math_csqrt(double complex z);
double complex interp_math_crsqrt(double complex z);
double complex interp_math_ccbrt(double complex z);
double complex interp_math_cpow(double complex a, double complex b);
double complex interp_math_csin(double complex z);
double complex interp_math_ccos(double complex z);
double complex interp_math_ctan(double complex z);
double complex interp_math_csinh(double complex z);
double complex interp_math_ccosh(double complex z);
double complex interp_math_ctanh(double complex z);
double complex interp_math_casin(double complex z);
double complex interp_math_cacos(double complex z);
double complex interp_math_catan(double complex z);
double complex interp_math_casinh(double complex z);
double complex interp_math_cacosh(double complex z);
double complex interp_math_catanh(double complex z);
double complex interp_math_clogistic(double complex z);
double complex interp_math_csign(double complex z);
double complex interp_math_csquare(double complex z);
/* atan2 for complex operands: -i * log((x + i y) / sqrt(x^2 + y^2)). */
double complex interp_math_catan2(double complex y, double complex x);

#endif
