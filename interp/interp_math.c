/* Special functions for the golden interpreter (see interp_math.h).
 *
 * Real functions are computed in double, accurately enough that rounding the
 * result to f32 or narrower is (almost always) the correctly rounded value.
 * Complex functions use glibc's C11 Annex G implementations where those are
 * careful (cexp, clog, csqrt, casin, ...: they handle branch cuts, signed
 * zeros and overflow for large or tiny magnitudes) and explicit formulas
 * elsewhere.
 */
#include "interp/interp_math.h"

#include <float.h>
#include <math.h>

#define PI 3.14159265358979323846264338327950288

/* ------------------------------------------------------------------------ */
/* cbrt                                                                      */

double interp_math_cbrt(double x)
{
    double y = cbrt(x);
    if (y == 0.0 || !isfinite(y)) return y;
    /* One Newton step with the residual y^3 - x evaluated in double-double. */
    double y2 = y * y, e2 = fma(y, y, -y2);
    double y3 = y2 * y, e3 = fma(y2, y, -y3) + e2 * y;
    double resid = (y3 - x) + e3;
    return y - resid / (3.0 * y2);
}

/* ------------------------------------------------------------------------ */
/* lgamma                                                                    */

double interp_math_lgamma(double x)
{
    if (isinf(x)) return INFINITY;
    int sign;
    return lgamma_r(x, &sign); /* reentrant: no write to the global signgam */
}

/* ------------------------------------------------------------------------ */
/* digamma                                                                   */

/* pi * cot(pi * x), reducing x to [-1/2, 1/2] first so that pi * x is exact
 * enough near the poles. */
static double pi_cot_pi(double x)
{
    double r = x - nearbyint(x); /* exact */
    if (r == 0.0) return NAN;
    return PI / tan(PI * r);
}

/* The root of digamma near 1.4616 and the Taylor series of digamma around it
 * (psi^(k)(x0) / k!), so results near the root keep full relative accuracy. */
static const double digamma_root = 1.4616321449683622;
static const double digamma_root_lo = 9.549995429965697e-17; /* x0 - digamma_root */
static const double digamma_taylor[] = {
    0.9676722454476212,   -0.4427631689835921,  0.258499760955651,
    -0.16394270544240652, 0.10782405069126237,  -0.07219956125645471,
    0.04880428816414311,  -0.03316112647484736, 0.022597648232218104,
    -0.01542476590494896, 0.010538791616612175,
};

double interp_math_digamma(double x)
{
    if (isnan(x)) return x;
    if (x == INFINITY) return INFINITY;
    if (x == -INFINITY) return NAN;
    if (x <= 0.0 && x == floor(x)) return NAN; /* poles */
    double result = 0.0;
    if (x < 0.5) {
        /* Reflection: psi(x) = psi(1 - x) - pi cot(pi x). */
        result = -pi_cot_pi(x);
        x = 1.0 - x;
    }
    if (result == 0.0 && fabs(x - digamma_root) < 0.0625) {
        double d = (x - digamma_root) - digamma_root_lo;
        double s = 0.0;
        for (int k = (int)(sizeof digamma_taylor / sizeof digamma_taylor[0]) - 1; k >= 0; k--)
            s = s * d + digamma_taylor[k];
        return s * d;
    }
    while (x < 10.0) {
        result -= 1.0 / x;
        x += 1.0;
    }
    /* Asymptotic series: psi(x) = ln x - 1/(2x) - sum B_2k / (2k x^2k). */
    double f = 1.0 / (x * x);
    double t = f * (-1.0 / 12 +
               f * (1.0 / 120 +
               f * (-1.0 / 252 +
               f * (1.0 / 240 +
               f * (-1.0 / 132 +
               f * (691.0 / 32760 +
               f * (-1.0 / 12 + f * (3617.0 / 8160))))))));
    return result + (log(x) - 0.5 / x + t);
}

/* ------------------------------------------------------------------------ */
/* erf_inv                                                                   */

double interp_math_erf_inv(double y)
{
    if (isnan(y)) return y;
    if (y == 1.0) return INFINITY;
    if (y == -1.0) return -INFINITY;
    if (y > 1.0 || y < -1.0) return NAN;
    if (y == 0.0) return y;
    /* Initial approximation (Giles, "Approximating the erfinv function"). */
    double w = -log1p(-y * y);
    double x;
    if (w < 6.25) {
        static const double c[] = {
            -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
            1.115787767802518096e-17,   -1.333171662854620906e-16, 2.0972767875968561637e-17,
            6.6376381343583238325e-15,  -4.0545662729752068639e-14, -8.1519341976054721522e-14,
            2.6335093153082322977e-12,  -1.2975133253453532498e-11, -5.4154120542946279317e-11,
            1.051212273321532285e-09,   -4.1126339803469836976e-09, -2.9070369957882005086e-08,
            4.2347877827932403518e-07,  -1.3654692000834678645e-06, -1.3882523362786468719e-05,
            0.0001867342080340571352,   -0.00074070253416626697512, -0.0060336708714301490533,
            0.24015818242558961693,     1.6536545626831027356};
        double v = w - 3.125, p = c[0];
        for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = p * v + c[i];
        x = p * y;
    } else if (w < 16.0) {
        static const double c[] = {
            2.2137376921775787049e-09,  9.0756561938885390979e-08, -2.7517406297064545428e-07,
            1.8239629214389227755e-08,  1.5027403968909827627e-06, -4.013867526981545969e-06,
            2.9234449089955446044e-06,  1.2475304481671778723e-05, -4.7318229009055733981e-05,
            6.8284851459573175448e-05,  2.4031110387097893999e-05, -0.0003550375203628474796,
            0.00095328937973738049703,  -0.0016882755560235047313, 0.0024914420961078508066,
            -0.0037512085075692412107,  0.005370914553590063617,   1.0052589676941592334,
            3.0838856104922207635};
        double v = sqrt(w) - 3.25, p = c[0];
        for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = p * v + c[i];
        x = p * y;
    } else {
        static const double c[] = {
            -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
            -3.7894654401267369937e-09, 7.6157012080783393804e-09,  -1.4960026627149240478e-08,
            2.9147953450901080826e-08,  -6.7711997758452339498e-08, 2.2900482228026654717e-07,
            -9.9298272942317002539e-07, 4.5260625972231537039e-06,  -1.9681778105531670567e-05,
            7.5995277030017761139e-05,  -0.00021503011930044477347, -0.00013871931833623122026,
            1.0103004648645343977,      4.8499064014085844221};
        double v = sqrt(w) - 5.0, p = c[0];
        for (unsigned i = 1; i < sizeof c / sizeof c[0]; i++) p = p * v + c[i];
        x = p * y;
    }
    /* One Newton step on erf(x) = y; near |y| = 1 work with erfc, where
     * 1 - |y| is exact, so the residual keeps its accuracy. */
    double ay = fabs(y), ax = fabs(x);
    double resid = ay < 0.5 ? erf(ax) - ay : (1.0 - ay) - erfc(ax);
    double deriv = 2.0 / sqrt(PI) * exp(-ax * ax);
    if (deriv > 0.0 && isfinite(resid)) ax -= resid / deriv;
    return copysign(ax, y);
}

/* ------------------------------------------------------------------------ */
/* bessel_i1e (Cephes' Chebyshev expansions)                                 */

static double chbevl(double x, const double *c, int n)
{
    double b0 = c[0], b1 = 0.0, b2 = 0.0;
    for (int i = 1; i < n; i++) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + c[i];
    }
    return 0.5 * (b0 - b2);
}

double interp_math_bessel_i1e(double x)
{
    static const double a[] = {
        2.77791411276104639959E-18,  -2.11142121435816608115E-17, 1.55363195773620046921E-16,
        -1.10559694773538630805E-15, 7.60068429473540693410E-15,  -5.04218550472791168711E-14,
        3.22379336594557470981E-13,  -1.98397439776494371520E-12, 1.17361862988909016308E-11,
        -6.66348972350202774223E-11, 3.62559028155211703701E-10,  -1.88724975172282928790E-9,
        9.38153738649577178388E-9,   -4.44505912879632808065E-8,  2.00329475355213526229E-7,
        -8.56872026469545474066E-7,  3.47025130813767847674E-6,   -1.32731636560394358279E-5,
        4.78156510755005422638E-5,   -1.61760815825896745588E-4,  5.12285956168575772895E-4,
        -1.51357245063125314899E-3,  4.15642294431288815669E-3,   -1.05640848946261981558E-2,
        2.47264490306265168283E-2,   -5.29459812080949914269E-2,  1.02643658689847095384E-1,
        -1.76416518357834055153E-1,  2.52587186443633654823E-1};
    static const double b[] = {
        7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
        -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
        -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
        4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
        -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
        3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
        -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
        -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
        7.78576235018280120474E-1};
    if (isnan(x)) return x;
    double z = fabs(x), r;
    if (z == INFINITY) return copysign(0.0, x);
    if (z <= 8.0)
        r = chbevl(0.5 * z - 2.0, a, (int)(sizeof a / sizeof a[0])) * z;
    else
        r = chbevl(32.0 / z - 2.0, b, (int)(sizeof b / sizeof b[0])) / sqrt(z);
    return x < 0 ? -r : r;
}

/* ------------------------------------------------------------------------ */
/* Hurwitz zeta and polygamma                                                */

double interp_math_zeta(double x, double q)
{
    /* Euler-Maclaurin summation (Cephes zeta.c), with XLA's domain rules. */
    static const double coef[] = {
        12.0,
        -720.0,
        30240.0,
        -1209600.0,
        47900160.0,
        -1.8924375803183791606e9,
        7.47242496e10,
        -2.950130727918164224e12,
        1.1646782814350067249e14,
        -4.5979787224074726105e15,
        1.8152105401943546773e17,
        -7.1661652561756670113e18};
    if (isnan(x) || isnan(q)) return NAN;
    if (x == 1.0) return INFINITY;
    if (x < 1.0) return NAN;
    if (q <= 0.0) {
        if (q == floor(q)) return (x == floor(x) && fmod(x, 2.0) == 0.0) ? INFINITY : NAN;
        if (x != floor(x)) return NAN; /* q^-x not real */
    }
    if (x == INFINITY) return q == 1.0 ? 1.0 : (q > 1.0 ? 0.0 : INFINITY);
    double s = pow(q, -x), a = q, b = 0.0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i++;
        a += 1.0;
        b = pow(a, -x);
        s += b;
        if (fabs(b / s) < DBL_EPSILON / 2) return s;
        if (i > 100000) break;
    }
    double w = a;
    s += b * w / (x - 1.0);
    s -= 0.5 * b;
    double aa = 1.0, k = 0.0;
    for (int j = 0; j < 12; j++) {
        aa *= x + k;
        b /= w;
        double t = aa * b / coef[j];
        s += t;
        if (fabs(t / s) < DBL_EPSILON / 2) break;
        k += 1.0;
        aa *= x + k;
        b /= w;
        k += 1.0;
    }
    return s;
}

double interp_math_polygamma(double n, double x)
{
    if (isnan(n) || isnan(x)) return NAN;
    if (n != floor(n) || n < 0.0) return NAN;
    if (n == 0.0) return interp_math_digamma(x);
    /* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) */
    double sign = fmod(n, 2.0) == 1.0 ? 1.0 : -1.0;
    double z = interp_math_zeta(n + 1.0, x);
    double lf = lgamma(n + 1.0);
    if (lf > 700.0) return sign * exp(lf + log(fabs(z))) * (z < 0 ? -1.0 : 1.0);
    return sign * exp(lf) * z;
}

/* ------------------------------------------------------------------------ */
/* cosh / sinh in f32, as XLA decomposes them                                */

static float expf_rn(float x) { return (float)exp((double)x); }

float interp_math_cosh_f32(float x)
{
    const float log_half = (float)log(0.5);
    float a = expf_rn(x + log_half);
    float b = expf_rn(log_half - x);
    return a + b;
}

float interp_math_sinh_f32(float x)
{
    /* Below 1 XLA's formula is accurate to an ulp or so: use the exact value. */
    if (fabsf(x) < 1.0f) return (float)sinh((double)x);
    const float log_half = (float)log(0.5);
    float a = expf_rn(x + log_half);
    float b = expf_rn(log_half - x);
    return a - b;
}

/* ------------------------------------------------------------------------ */
/* Complex                                                                   */

double complex interp_math_cmul(double complex a, double complex b)
{
    /* The textbook formula (no Annex G inf recovery), as the spec's
     * reference and XLA compute it. */
    double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
    return CMPLX(ar * br - ai * bi, ar * bi + ai * br);
}

double complex interp_math_cdiv(double complex a, double complex b)
{
    return a / b; /* libgcc __divdc3: scaled Smith's algorithm */
}

double complex interp_math_cexp(double complex z) { return cexp(z); }

double complex interp_math_cexpm1(double complex z)
{
    /* exp(x) cos(y) - 1 = expm1(x) cos(y) - 2 sin^2(y/2), accurate near 0. */
    double x = creal(z), y = cimag(z);
    if (!isfinite(x) || !isfinite(y)) return cexp(z) - 1.0;
    if (x > 700.0) return cexp(z) - 1.0;
    double sh = sin(0.5 * y);
    double re = expm1(x) * cos(y) - 2.0 * sh * sh;
    double im = exp(x) * sin(y);
    return CMPLX(re, im);
}

double complex interp_math_clog(double complex z) { return clog(z); }

double complex interp_math_clog1p(double complex z)
{
    double x = creal(z), y = cimag(z);
    if (!isfinite(x) || !isfinite(y)) return clog(1.0 + z);
    double ax = fabs(x), ay = fabs(y);
    if (ax < 0.5 && ay < 0.5) {
        /* |1 + z|^2 - 1 = 2x + x^2 + y^2, summed smallest first. */
        double re = 0.5 * log1p(x * (2.0 + x) + y * y);
        return CMPLX(re, atan2(y, 1.0 + x));
    }
    return clog(CMPLX(1.0 + x, y));
}

double complex interp_math_csqrt(double complex z) { return csqrt(z); }

double complex interp_math_crsqrt(double complex z) { return 1.0 / csqrt(z); }

double complex interp_math_ccbrt(double complex z)
{
    double x = creal(z), y = cimag(z);
    double theta = atan2(y, x) / 3.0;
    double r = interp_math_cbrt(hypot(x, y));
    return CMPLX(r * cos(theta), r * sin(theta));
}

double complex interp_math_cpow(double complex a, double complex b)
{
    if (creal(b) == 0.0 && cimag(b) == 0.0) return CMPLX(1.0, 0.0);
    if (creal(a) == 0.0 && cimag(a) == 0.0) {
        /* 0^b: 0 for Re(b) > 0 (imag part of b must be 0 for a clean limit). */
        if (creal(b) > 0.0) return CMPLX(0.0, 0.0);
        return CMPLX(NAN, NAN);
    }
    return cpow(a, b);
}

double complex interp_math_csin(double complex z) { return csin(z); }
double complex interp_math_ccos(double complex z) { return ccos(z); }
double complex interp_math_ctan(double complex z) { return ctan(z); }
double complex interp_math_csinh(double complex z) { return csinh(z); }
double complex interp_math_ccosh(double complex z) { return ccosh(z); }
double complex interp_math_ctanh(double complex z) { return ctanh(z); }
double complex interp_math_casin(double complex z) { return casin(z); }
double complex interp_math_cacos(double complex z) { return cacos(z); }
double complex interp_math_catan(double complex z) { return catan(z); }
double complex interp_math_casinh(double complex z) { return casinh(z); }
double complex interp_math_cacosh(double complex z) { return cacosh(z); }
double complex interp_math_catanh(double complex z) { return catanh(z); }

double complex interp_math_clogistic(double complex z)
{
    return 1.0 / (1.0 + cexp(-z));
}

double complex interp_math_csign(double complex z)
{
    double x = creal(z), y = cimag(z);
    if (isnan(x) || isnan(y)) return CMPLX(NAN, NAN);
    if (x == 0.0 && y == 0.0) return CMPLX(0.0, 0.0);
    if (isinf(x) || isinf(y)) {
        /* Direction of the infinity; finite parts vanish. */
        double rx = isinf(x) ? copysign(1.0, x) : 0.0, ry = isinf(y) ? copysign(1.0, y) : 0.0;
        double n = hypot(rx, ry);
        return CMPLX(rx / n, ry / n);
    }
    double m = hypot(x, y);
    return CMPLX(x / m, y / m);
}

double complex interp_math_csquare(double complex z)
{
    /* (x + iy)^2 = (x - y)(x + y) + 2ixy: no cancellation in the real part. */
    double x = creal(z), y = cimag(z);
    if (!isfinite(x) || !isfinite(y)) return interp_math_cmul(z, z);
    return CMPLX((x - y) * (x + y), 2.0 * x * y);
}

double complex interp_math_catan2(double complex y, double complex x)
{
    /* -i * log((x + i y) / sqrt(x^2 + y^2)) */
    double complex iy = CMPLX(-cimag(y), creal(y));
    double complex num = x + iy;
    double complex den = csqrt(interp_math_cmul(x, x) + interp_math_cmul(y, y));
    double complex l = clog(num / den);
    return CMPLX(cimag(l), -creal(l));
}
