/* Special functions of the golden interpreter (graph/interp_math.c), checked
 * against independently known values (closed forms and published tables). */
#include "tests/harness.h"

#include <math.h>

#include "interp/interp_math.h"

#define PI 3.14159265358979323846
#define EULER_GAMMA 0.57721566490153286061

/* |got - want| <= rel * |want| (or <= rel when want is 0). */
static void assert_rel(double got, double want, double rel)
{
    double tol = want == 0.0 ? rel : rel * fabs(want);
    if (!(fabs(got - want) <= tol)) fail_msg("got %.17g, want %.17g (rel tol %g)", got, want, rel);
}

static void test_cbrt_of_exact_cubes_is_exact(void **state)
{
    (void)state;
    assert_true(interp_math_cbrt(27.0) == 3.0);
    assert_true(interp_math_cbrt(-8.0) == -2.0);
    assert_true(interp_math_cbrt(0x1p-300) == 0x1p-100);
    assert_true(interp_math_cbrt(0.125) == 0.5);
    assert_true(signbit(interp_math_cbrt(-0.0)));
    assert_true(interp_math_cbrt(-INFINITY) == -INFINITY);
}

static void test_lgamma_half_is_log_sqrt_pi(void **state)
{
    (void)state;
    assert_rel(interp_math_lgamma(0.5), 0.5 * log(PI), 1e-15);
}

static void test_lgamma_integers_are_log_factorials(void **state)
{
    (void)state;
    assert_rel(interp_math_lgamma(1.0), 0.0, 1e-300);
    assert_rel(interp_math_lgamma(2.0), 0.0, 1e-300);
    assert_rel(interp_math_lgamma(5.0), log(24.0), 1e-15);
    assert_rel(interp_math_lgamma(11.0), log(3628800.0), 1e-15);
}

static void test_lgamma_poles_and_infinities_are_pos_inf(void **state)
{
    (void)state;
    assert_true(interp_math_lgamma(0.0) == INFINITY);
    assert_true(interp_math_lgamma(-3.0) == INFINITY);
    assert_true(interp_math_lgamma(INFINITY) == INFINITY);
    assert_true(interp_math_lgamma(-INFINITY) == INFINITY);
    assert_true(isnan(interp_math_lgamma(NAN)));
}

static void test_lgamma_negative_half(void **state)
{
    (void)state;
    /* Gamma(-1/2) = -2 sqrt(pi) */
    assert_rel(interp_math_lgamma(-0.5), log(2.0 * sqrt(PI)), 1e-15);
}

static void test_digamma_one_is_minus_euler_gamma(void **state)
{
    (void)state;
    assert_rel(interp_math_digamma(1.0), -EULER_GAMMA, 1e-15);
}

static void test_digamma_half(void **state)
{
    (void)state;
    /* psi(1/2) = -gamma - 2 ln 2 */
    assert_rel(interp_math_digamma(0.5), -EULER_GAMMA - 2.0 * log(2.0), 1e-15);
}

static void test_digamma_recurrence_and_reflection(void **state)
{
    (void)state;
    /* psi(n + 1) = psi(1) + H_n;  psi(-1/2) = psi(1/2) + 2 */
    assert_rel(interp_math_digamma(11.0), -EULER_GAMMA + 7381.0 / 2520.0, 1e-15);
    assert_rel(interp_math_digamma(-0.5), 0.036489973978576521, 2e-14);
}

static void test_digamma_keeps_relative_accuracy_at_its_root(void **state)
{
    (void)state;
    /* The positive root x0 = 1.46163214496836234126...; the double nearest it
     * is x0 - 9.549995e-17, where psi = -9.549995e-17 * psi'(x0). */
    assert_rel(interp_math_digamma(1.4616321449683622), -9.549995429965697e-17 * 0.9676722454476212,
               1e-6);
    assert_rel(interp_math_digamma(1.5), 0.036489973978576521, 1e-14);
}

static void test_digamma_poles_are_nan(void **state)
{
    (void)state;
    assert_true(isnan(interp_math_digamma(0.0)));
    assert_true(isnan(interp_math_digamma(-2.0)));
    assert_true(isnan(interp_math_digamma(-INFINITY)));
    assert_true(interp_math_digamma(INFINITY) == INFINITY);
}

static void test_erf_inv_known_values(void **state)
{
    (void)state;
    assert_rel(interp_math_erf_inv(0.5), 0.4769362762044699, 1e-15);
    assert_rel(interp_math_erf_inv(-0.5), -0.4769362762044699, 1e-15);
    assert_rel(interp_math_erf_inv(0.9), 1.1630871536766743, 1e-15);
    assert_true(interp_math_erf_inv(0.0) == 0.0);
}

static void test_erf_inv_near_one_and_near_zero(void **state)
{
    (void)state;
    /* Values from a 30-digit evaluation: 1 - 2^-30 is exact in double, so
     * the erfc-based refinement must keep full accuracy there. */
    assert_rel(interp_math_erf_inv(0.999), 2.3267537655135245, 1e-15);
    assert_rel(interp_math_erf_inv(1.0 - 0x1p-30), 4.3280282758009465, 1e-15);
    assert_rel(interp_math_erf_inv(0.1), 0.088855990494257692, 1e-15);
    assert_rel(interp_math_erf_inv(1e-300), 8.8622692545275804e-301, 1e-15);
}

static void test_erf_inv_edges(void **state)
{
    (void)state;
    assert_true(interp_math_erf_inv(1.0) == INFINITY);
    assert_true(interp_math_erf_inv(-1.0) == -INFINITY);
    assert_true(isnan(interp_math_erf_inv(1.5)));
    assert_true(isnan(interp_math_erf_inv(NAN)));
}

static void test_bessel_i1e_known_values(void **state)
{
    (void)state;
    /* I1(1) = 0.565159103992485..., I1(10) = 2670.988303701254... */
    assert_rel(interp_math_bessel_i1e(1.0), 0.2079104153497085, 1e-14);
    assert_rel(interp_math_bessel_i1e(-1.0), -0.2079104153497085, 1e-14);
    assert_rel(interp_math_bessel_i1e(10.0), 2670.988303701254 * exp(-10.0), 1e-14);
    assert_true(interp_math_bessel_i1e(0.0) == 0.0);
}

static void test_zeta_riemann_values(void **state)
{
    (void)state;
    assert_rel(interp_math_zeta(2.0, 1.0), PI * PI / 6.0, 1e-15);
    assert_rel(interp_math_zeta(4.0, 1.0), pow(PI, 4) / 90.0, 1e-15);
    /* zeta(2, 1/2) = (2^2 - 1) zeta(2) = pi^2 / 2 */
    assert_rel(interp_math_zeta(2.0, 0.5), PI * PI / 2.0, 1e-15);
}

static void test_zeta_domain(void **state)
{
    (void)state;
    assert_true(interp_math_zeta(1.0, 2.0) == INFINITY);
    assert_true(isnan(interp_math_zeta(0.5, 2.0)));
}

static void test_polygamma_known_values(void **state)
{
    (void)state;
    /* psi'(1) = pi^2/6, psi''(1) = -2 zeta(3), psi'(1/2) = pi^2/2 */
    assert_rel(interp_math_polygamma(1.0, 1.0), PI * PI / 6.0, 1e-15);
    assert_rel(interp_math_polygamma(2.0, 1.0), -2.0 * 1.2020569031595942, 1e-15);
    assert_rel(interp_math_polygamma(1.0, 0.5), PI * PI / 2.0, 1e-15);
    assert_rel(interp_math_polygamma(0.0, 1.0), -EULER_GAMMA, 1e-15);
    assert_true(isnan(interp_math_polygamma(1.5, 1.0)));
    assert_true(isnan(interp_math_polygamma(-1.0, 1.0)));
}

static void test_complex_sqrt_branch_cut_keeps_signed_zero(void **state)
{
    (void)state;
    double complex a = interp_math_csqrt(CMPLX(-4.0, 0.0));
    double complex b = interp_math_csqrt(CMPLX(-4.0, -0.0));
    assert_true(creal(a) == 0.0 && cimag(a) == 2.0);
    assert_true(creal(b) == 0.0 && cimag(b) == -2.0);
}

static void test_complex_log_of_tiny_and_huge(void **state)
{
    (void)state;
    double complex a = interp_math_clog(CMPLX(1e-300, 1e-300));
    assert_rel(creal(a), log(1e-300) + 0.5 * log(2.0), 1e-15);
    assert_rel(cimag(a), PI / 4, 1e-15);
    double complex b = interp_math_clog(CMPLX(1e300, 1e300));
    assert_rel(creal(b), log(1e300) + 0.5 * log(2.0), 1e-15);
}

static void test_complex_log1p_near_zero(void **state)
{
    (void)state;
    /* log(1 + z) ~ z - z^2/2 for tiny z */
    double complex r = interp_math_clog1p(CMPLX(1e-10, 1e-10));
    assert_rel(creal(r), 1e-10, 1e-9);
    assert_rel(cimag(r), 1e-10, 1e-9);
}

static void test_complex_expm1_near_zero(void **state)
{
    (void)state;
    /* exp(z) - 1 ~ z + z^2/2: real part of z = 1e-10 + 1e-10 i is 1e-10 */
    double complex r = interp_math_cexpm1(CMPLX(1e-10, 1e-10));
    assert_rel(creal(r), 1e-10, 1e-9);
    assert_rel(cimag(r), 1e-10, 1e-9);
}

static void test_complex_asin_of_real_beyond_one(void **state)
{
    (void)state;
    /* asin(2 + 0i) = pi/2 + i ln(2 + sqrt 3) */
    double complex r = interp_math_casin(CMPLX(2.0, 0.0));
    assert_rel(creal(r), PI / 2, 1e-15);
    assert_rel(cimag(r), log(2.0 + sqrt(3.0)), 1e-15);
}

static void test_complex_sign_is_unit(void **state)
{
    (void)state;
    double complex r = interp_math_csign(CMPLX(3.0, -4.0));
    assert_rel(creal(r), 0.6, 1e-15);
    assert_rel(cimag(r), -0.8, 1e-15);
    r = interp_math_csign(CMPLX(0.0, 0.0));
    assert_true(creal(r) == 0.0 && cimag(r) == 0.0);
    r = interp_math_csign(CMPLX(NAN, 1.0));
    assert_true(isnan(creal(r)) && isnan(cimag(r)));
}

static void test_complex_square_has_no_cancellation(void **state)
{
    (void)state;
    /* (1 + 1e-9 + i)^2: real part (x - y)(x + y) = 1e-9 (2 + 1e-9) */
    double x = 1.0 + 1e-9;
    double complex r = interp_math_csquare(CMPLX(x, 1.0));
    assert_rel(creal(r), (x - 1.0) * (x + 1.0), 1e-15);
    assert_rel(cimag(r), 2.0 * x, 1e-15);
}

static void test_complex_atan2_of_reals_matches_real_atan2(void **state)
{
    (void)state;
    double complex r = interp_math_catan2(CMPLX(1.0, 0.0), CMPLX(-1.0, 0.0));
    assert_rel(creal(r), 3.0 * PI / 4, 1e-15);
    assert_true(fabs(cimag(r)) < 1e-15);
}

TEST_MAIN(NULL, NULL,
          T(test_cbrt_of_exact_cubes_is_exact),
          T(test_lgamma_half_is_log_sqrt_pi),
          T(test_lgamma_integers_are_log_factorials),
          T(test_lgamma_poles_and_infinities_are_pos_inf),
          T(test_lgamma_negative_half),
          T(test_digamma_one_is_minus_euler_gamma),
          T(test_digamma_half),
          T(test_digamma_recurrence_and_reflection),
          T(test_digamma_keeps_relative_accuracy_at_its_root),
          T(test_digamma_poles_are_nan),
          T(test_erf_inv_known_values),
          T(test_erf_inv_near_one_and_near_zero),
          T(test_erf_inv_edges),
          T(test_bessel_i1e_known_values),
          T(test_zeta_riemann_values),
          T(test_zeta_domain),
          T(test_polygamma_known_values),
          T(test_complex_sqrt_branch_cut_keeps_signed_zero),
          T(test_complex_log_of_tiny_and_huge),
          T(test_complex_log1p_near_zero),
          T(test_complex_expm1_near_zero),
          T(test_complex_asin_of_real_beyond_one),
          T(test_complex_sign_is_unit),
          T(test_complex_square_has_no_cancellation),
          T(test_complex_atan2_of_reals_matches_real_atan2))
