/* Element types and numerics: the dtype table, the minifloat codec, fast
 * paths, element access and StableHLO convert.  Expected values are IEEE /
 * OCP / APFloat facts written down independently (bit patterns computed by
 * hand, C casts done by the host FPU), never the code under test. */
#include "tests/harness.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#define DT(x) BASE_DT_##x

static uint64_t enc(enum base_dtype dt, double v) { return base_float_bits_from_f64(dt, v); }
static double dec(enum base_dtype dt, uint64_t b) { return base_float_f64_from_bits(dt, b); }

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double bits_d(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static void check_enc_(enum base_dtype dt, double v, uint64_t want, const char *file, int line)
{
    uint64_t got = enc(dt, v);
    if (got != want) {
        print_error("%s(%a = %.17g) = 0x%llx, want 0x%llx\n", base_dtype_name(dt), v, v,
                    (unsigned long long)got, (unsigned long long)want);
        _fail(file, line);
    }
}
#define CHECK_ENC(dt, v, want) check_enc_(DT(dt), (v), (want), __FILE__, __LINE__)

static void check_dec_(enum base_dtype dt, uint64_t b, double want, const char *file, int line)
{
    double got = dec(dt, b);
    if (dbits(got) != dbits(want)) {
        print_error("%s bits 0x%llx decode to %.17g, want %.17g\n", base_dtype_name(dt),
                    (unsigned long long)b, got, want);
        _fail(file, line);
    }
}
#define CHECK_DEC(dt, b, want) check_dec_(DT(dt), (b), (want), __FILE__, __LINE__)

static void check_u64_(uint64_t got, uint64_t want, const char *what, const char *file, int line)
{
    if (got != want) {
        print_error("%s = 0x%llx, want 0x%llx\n", what, (unsigned long long)got,
                    (unsigned long long)want);
        _fail(file, line);
    }
}
#define CHECK_U64(got, want) check_u64_((uint64_t)(got), (uint64_t)(want), #got, __FILE__, __LINE__)

static const enum base_dtype float_dts[] = {
    DT(F4E2M1FN), DT(F6E2M3FN),      DT(F6E3M2FN), DT(F8E3M4),     DT(F8E4M3),
    DT(F8E4M3FN), DT(F8E4M3FNUZ),    DT(F8E4M3B11FNUZ), DT(F8E5M2), DT(F8E5M2FNUZ),
    DT(F8E8M0FNU), DT(BF16),         DT(F16),      DT(F32),        DT(F64),
};

/* ------------------------------------------------------------------------ */
/* The table                                                                 */

static void test_dtype_names_parse_back(void **state)
{
    (void)state;
    for (int i = 0; i < BASE_DT_COUNT; i++) {
        const char *name = base_dtype_name((enum base_dtype)i);
        enum base_dtype dt = DT(F64);
        assert_true(base_dtype_parse(name, strlen(name), &dt));
        assert_int_equal(dt, i);
        for (int j = 0; j < i; j++) assert_string_not_equal(name, base_dtype_name((enum base_dtype)j));
    }
}

static void test_dtype_parse_mlir_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        enum base_dtype dt;
    } cases[] = {
        {"i1", DT(I1)},           {"i4", DT(SI4)},           {"i64", DT(SI64)},
        {"ui8", DT(UI8)},         {"ui2", DT(UI2)},          {"index", DT(INDEX)},
        {"bf16", DT(BF16)},       {"f16", DT(F16)},          {"f8E4M3FN", DT(F8E4M3FN)},
        {"f8E5M2FNUZ", DT(F8E5M2FNUZ)}, {"f8E4M3B11FNUZ", DT(F8E4M3B11FNUZ)},
        {"f8E8M0FNU", DT(F8E8M0FNU)}, {"f4E2M1FN", DT(F4E2M1FN)}, {"f6E3M2FN", DT(F6E3M2FN)},
        {"complex<f32>", DT(C64)}, {"complex<f64>", DT(C128)},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        enum base_dtype dt = DT(F64);
        assert_true(base_dtype_parse(cases[i].s, strlen(cases[i].s), &dt));
        assert_int_equal(dt, cases[i].dt);
    }
}

static void test_dtype_parse_uses_length_not_nul(void **state)
{
    (void)state;
    enum base_dtype dt = DT(I1);
    assert_true(base_dtype_parse("f32>, %arg", 3, &dt));
    assert_int_equal(dt, DT(F32));
    assert_true(base_dtype_parse("bf16x", 4, &dt));
    assert_int_equal(dt, DT(BF16));
    assert_true(base_dtype_parse("complex<f32>>", 12, &dt));
    assert_int_equal(dt, DT(C64));
}

static void test_dtype_parse_rejects_non_types(void **state)
{
    (void)state;
    static const char *bad[] = {"", "f", "bf1", "f3", "f128", "i3", "u8", "si8", "F32", "f8E4M3fn",
                                "f8e4m3fn", "complex<f16>", "complex<f32", "tensor<f32>", "bf16 "};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        enum base_dtype dt = DT(F64);
        assert_false(base_dtype_parse(bad[i], strlen(bad[i]), &dt));
        assert_int_equal(dt, DT(F64)); /* untouched */
    }
    enum base_dtype dt;
    assert_false(base_dtype_parse("f32", 2, &dt)); /* "f3" */
}

static void test_dtype_bits_sizes_kinds(void **state)
{
    (void)state;
    static const struct {
        enum base_dtype dt;
        int bits;
        size_t size;
        enum base_dtype_kind kind;
    } cases[] = {
        {DT(I1), 1, 1, BASE_KIND_BOOL},        {DT(SI2), 2, 1, BASE_KIND_SINT},
        {DT(SI4), 4, 1, BASE_KIND_SINT},       {DT(SI8), 8, 1, BASE_KIND_SINT},
        {DT(SI16), 16, 2, BASE_KIND_SINT},     {DT(SI32), 32, 4, BASE_KIND_SINT},
        {DT(SI64), 64, 8, BASE_KIND_SINT},     {DT(UI4), 4, 1, BASE_KIND_UINT},
        {DT(UI64), 64, 8, BASE_KIND_UINT},     {DT(INDEX), 64, 8, BASE_KIND_SINT},
        {DT(F4E2M1FN), 4, 1, BASE_KIND_FLOAT}, {DT(F6E2M3FN), 6, 1, BASE_KIND_FLOAT},
        {DT(F8E8M0FNU), 8, 1, BASE_KIND_FLOAT}, {DT(BF16), 16, 2, BASE_KIND_FLOAT},
        {DT(F16), 16, 2, BASE_KIND_FLOAT},     {DT(F32), 32, 4, BASE_KIND_FLOAT},
        {DT(F64), 64, 8, BASE_KIND_FLOAT},     {DT(C64), 64, 8, BASE_KIND_COMPLEX},
        {DT(C128), 128, 16, BASE_KIND_COMPLEX},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        assert_int_equal(base_dtype_bits(cases[i].dt), cases[i].bits);
        assert_int_equal(base_dtype_size(cases[i].dt), cases[i].size);
        assert_int_equal(base_dtype_kind(cases[i].dt), cases[i].kind);
    }
    assert_true(base_dtype_is_float(DT(F8E4M3FN)));
    assert_true(base_dtype_is_int(DT(UI2)));
    assert_false(base_dtype_is_int(DT(I1)));
    assert_true(base_dtype_is_complex(DT(C128)));
}

static void test_dtype_component_of_complex(void **state)
{
    (void)state;
    assert_int_equal(base_dtype_component(DT(C64)), DT(F32));
    assert_int_equal(base_dtype_component(DT(C128)), DT(F64));
    assert_int_equal(base_dtype_component(DT(BF16)), DT(BF16));
    assert_int_equal(base_dtype_component(DT(SI8)), DT(SI8));
}

static void test_dtype_int_limits(void **state)
{
    (void)state;
    assert_int_equal(base_int_min(DT(I1)), 0);
    assert_int_equal(base_int_max(DT(I1)), 1);
    assert_int_equal(base_int_min(DT(SI2)), -2);
    assert_int_equal(base_int_max(DT(SI2)), 1);
    assert_int_equal(base_int_min(DT(SI4)), -8);
    assert_int_equal(base_int_max(DT(SI4)), 7);
    assert_int_equal(base_int_min(DT(SI8)), -128);
    assert_int_equal(base_int_max(DT(SI8)), 127);
    assert_int_equal(base_int_min(DT(SI16)), -32768);
    assert_int_equal(base_int_max(DT(SI32)), 2147483647);
    assert_true(base_int_min(DT(SI64)) == INT64_MIN);
    assert_true(base_int_max(DT(SI64)) == (uint64_t)INT64_MAX);
    assert_true(base_int_min(DT(INDEX)) == INT64_MIN);
    assert_int_equal(base_int_min(DT(UI2)), 0);
    assert_int_equal(base_int_max(DT(UI2)), 3);
    assert_int_equal(base_int_max(DT(UI4)), 15);
    assert_int_equal(base_int_max(DT(UI8)), 255);
    assert_int_equal(base_int_max(DT(UI16)), 65535);
    assert_int_equal(base_int_max(DT(UI32)), 4294967295u);
    assert_true(base_int_max(DT(UI64)) == UINT64_MAX);
    assert_int_equal(base_int_min(DT(UI64)), 0);
}

/* ------------------------------------------------------------------------ */
/* Float format parameters                                                   */

static void test_float_format_limits(void **state)
{
    (void)state;
    static const struct {
        enum base_dtype dt;
        double max, min_normal, min_sub;
    } cases[] = {
        {DT(F4E2M1FN), 6.0, 1.0, 0.5},
        {DT(F6E2M3FN), 7.5, 1.0, 0.125},
        {DT(F6E3M2FN), 28.0, 0.25, 0.0625},
        {DT(F8E3M4), 15.5, 0.25, 0.015625},
        {DT(F8E4M3), 240.0, 0.015625, 0.001953125},
        {DT(F8E4M3FN), 448.0, 0.015625, 0.001953125},
        {DT(F8E4M3FNUZ), 240.0, 0.0078125, 0.0009765625},
        {DT(F8E4M3B11FNUZ), 30.0, 0.0009765625, 0.0001220703125},
        {DT(F8E5M2), 57344.0, 6.103515625e-05, 1.52587890625e-05},
        {DT(F8E5M2FNUZ), 57344.0, 3.0517578125e-05, 7.62939453125e-06},
        {DT(F8E8M0FNU), 1.7014118346046923e+38, 5.877471754111438e-39, 5.877471754111438e-39},
        {DT(BF16), 3.3895313892515355e+38, 1.1754943508222875e-38, 9.183549615799121e-41},
        {DT(F16), 65504.0, 6.103515625e-05, 5.960464477539063e-08},
        {DT(F32), FLT_MAX, FLT_MIN, 1.401298464324817e-45},
        {DT(F64), DBL_MAX, DBL_MIN, 4.9406564584124654e-324},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct base_float_format *f = base_float_format(cases[i].dt);
        assert_non_null(f);
        assert_true(f->max_finite == cases[i].max);
        assert_true(f->min_normal == cases[i].min_normal);
        assert_true(f->min_subnormal == cases[i].min_sub);
        /* the limits are values of the format */
        assert_true(base_float_round(cases[i].dt, f->max_finite) == f->max_finite);
        assert_true(base_float_round(cases[i].dt, f->min_subnormal) == f->min_subnormal);
    }
    assert_null(base_float_format(DT(SI32)));
    assert_null(base_float_format(DT(C64)));
}

static void test_float_format_flags(void **state)
{
    (void)state;
    const struct base_float_format *f;
    for (int i = 0; i < BASE_DT_COUNT; i++) {
        f = base_float_format((enum base_dtype)i);
        assert_int_equal(f != NULL, base_dtype_is_float((enum base_dtype)i));
        if (f) assert_int_equal(f->exp_bits + f->man_bits + f->has_sign, base_dtype_bits((enum base_dtype)i));
    }
    f = base_float_format(DT(F16));
    assert_true(f->has_inf && f->has_nan && f->has_neg_zero && f->has_zero && f->has_sign);
    assert_int_equal(f->exp_bits, 5);
    assert_int_equal(f->man_bits, 10);
    assert_int_equal(f->bias, 15);
    f = base_float_format(DT(F8E4M3FN));
    assert_true(!f->has_inf && f->has_nan && f->has_neg_zero);
    f = base_float_format(DT(F8E5M2FNUZ));
    assert_true(!f->has_inf && f->has_nan && !f->has_neg_zero);
    assert_int_equal(f->bias, 16);
    f = base_float_format(DT(F8E4M3B11FNUZ));
    assert_int_equal(f->bias, 11);
    f = base_float_format(DT(F4E2M1FN));
    assert_true(!f->has_inf && !f->has_nan && f->has_neg_zero);
    f = base_float_format(DT(F8E8M0FNU));
    assert_true(!f->has_sign && !f->has_zero && !f->has_inf && f->has_nan);
    assert_int_equal(f->exp_bits, 8);
    assert_int_equal(f->man_bits, 0);
}

/* ------------------------------------------------------------------------ */
/* Known encodings                                                           */

static void test_float_known_bit_patterns(void **state)
{
    (void)state;
    CHECK_ENC(BF16, 1.0 / 3.0, 0x3EAB);
    CHECK_ENC(BF16, 1.0, 0x3F80);
    CHECK_ENC(BF16, -2.0, 0xC000);
    CHECK_ENC(BF16, 3.140625, 0x4049);
    CHECK_ENC(F16, 1.0, 0x3C00);
    CHECK_ENC(F16, -2.0, 0xC000);
    CHECK_ENC(F16, 0.1, 0x2E66);
    CHECK_ENC(F16, 1.0 / 3.0, 0x3555);
    CHECK_ENC(F16, 65504.0, 0x7BFF);
    CHECK_ENC(F16, 6.103515625e-05, 0x0400);
    CHECK_ENC(F16, 5.960464477539063e-08, 0x0001);
    CHECK_ENC(F32, 0.1, 0x3DCCCCCD);
    CHECK_ENC(F32, 1.0 / 3.0, 0x3EAAAAAB);
    CHECK_ENC(F64, 0.1, UINT64_C(0x3FB999999999999A));
    CHECK_ENC(F8E4M3FN, 448.0, 0x7E);
    CHECK_ENC(F8E4M3FN, -448.0, 0xFE);
    CHECK_ENC(F8E4M3FN, 1.0, 0x38);
    CHECK_ENC(F8E4M3FN, 0.001953125, 0x01);
    CHECK_ENC(F8E4M3, 240.0, 0x77);
    CHECK_ENC(F8E4M3, 1.0, 0x38);
    CHECK_ENC(F8E5M2, 57344.0, 0x7B);
    CHECK_ENC(F8E5M2, 1.0, 0x3C);
    CHECK_ENC(F8E5M2, 1.52587890625e-05, 0x01);
    CHECK_ENC(F8E4M3FNUZ, 240.0, 0x7F);
    CHECK_ENC(F8E4M3FNUZ, 1.0, 0x40);
    CHECK_ENC(F8E4M3B11FNUZ, 30.0, 0x7F);
    CHECK_ENC(F8E4M3B11FNUZ, 1.0, 0x58);
    CHECK_ENC(F8E5M2FNUZ, 57344.0, 0x7F);
    CHECK_ENC(F8E5M2FNUZ, 1.0, 0x40);
    CHECK_ENC(F8E3M4, 15.5, 0x6F);
    CHECK_ENC(F8E3M4, 1.0, 0x30);
    CHECK_ENC(F8E8M0FNU, 1.0, 0x7F);
    CHECK_ENC(F8E8M0FNU, 0.5, 0x7E);
    CHECK_ENC(F8E8M0FNU, 5.877471754111438e-39, 0x00);
    CHECK_ENC(F8E8M0FNU, 1.7014118346046923e+38, 0xFE);
    CHECK_ENC(F6E2M3FN, 7.5, 0x1F);
    CHECK_ENC(F6E2M3FN, -0.125, 0x21);
    CHECK_ENC(F6E3M2FN, 28.0, 0x1F);
    CHECK_ENC(F6E3M2FN, 0.0625, 0x01);
    CHECK_ENC(F6E3M2FN, -1.0, 0x2C);
}

static void test_float_f4e2m1_all_values(void **state)
{
    (void)state;
    static const double vals[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
    for (unsigned b = 0; b < 8; b++) {
        CHECK_DEC(F4E2M1FN, b, vals[b]);
        CHECK_DEC(F4E2M1FN, b | 8, -vals[b]);
        CHECK_ENC(F4E2M1FN, vals[b], b);
        CHECK_ENC(F4E2M1FN, -vals[b], b | 8);
    }
}

static void test_float_known_decodings(void **state)
{
    (void)state;
    CHECK_DEC(F8E4M3FN, 0x7E, 448.0);
    CHECK_DEC(F8E4M3FN, 0x08, 0.015625);
    CHECK_DEC(F8E4M3FN, 0x07, 0.013671875); /* 7 * 2^-9 */
    CHECK_DEC(F8E4M3, 0x78, INFINITY);
    CHECK_DEC(F8E4M3, 0xF8, -INFINITY);
    CHECK_DEC(F8E5M2, 0x7C, INFINITY);
    CHECK_DEC(F8E5M2, 0x7B, 57344.0);
    CHECK_DEC(F8E4M3FNUZ, 0x7F, 240.0);
    CHECK_DEC(F8E4M3FNUZ, 0x01, 0.0009765625);
    CHECK_DEC(F8E4M3FNUZ, 0xFF, -240.0);
    CHECK_DEC(F8E4M3B11FNUZ, 0x7F, 30.0);
    CHECK_DEC(F8E5M2FNUZ, 0x01, 7.62939453125e-06);
    CHECK_DEC(F8E3M4, 0x70, INFINITY);
    CHECK_DEC(F8E3M4, 0x01, 0.015625);
    CHECK_DEC(F8E8M0FNU, 0x00, 5.877471754111438e-39);
    CHECK_DEC(F8E8M0FNU, 0x7F, 1.0);
    CHECK_DEC(F8E8M0FNU, 0x80, 2.0);
    CHECK_DEC(F8E8M0FNU, 0xFE, 1.7014118346046923e+38);
    CHECK_DEC(F6E2M3FN, 0x1F, 7.5);
    CHECK_DEC(F6E2M3FN, 0x3F, -7.5);
    CHECK_DEC(F6E3M2FN, 0x1F, 28.0);
    CHECK_DEC(F16, 0x7C00, INFINITY);
    CHECK_DEC(F16, 0x0001, 5.960464477539063e-08);
    CHECK_DEC(F16, 0x3555, 0.333251953125);
    CHECK_DEC(BF16, 0x3EAB, 0.333984375);
    CHECK_DEC(BF16, 0x0001, 9.183549615799121e-41);
    assert_true(isnan(dec(DT(F8E4M3FN), 0x7F)));
    assert_true(isnan(dec(DT(F8E4M3FN), 0xFF)));
    assert_true(isnan(dec(DT(F8E4M3FNUZ), 0x80)));
    assert_true(isnan(dec(DT(F8E5M2FNUZ), 0x80)));
    assert_true(isnan(dec(DT(F8E8M0FNU), 0xFF)));
    assert_true(isnan(dec(DT(F8E5M2), 0x7D)));
    assert_true(isnan(dec(DT(F16), 0x7E01)));
    CHECK_DEC(F8E4M3FN, 0x80, -0.0);
}

/* ------------------------------------------------------------------------ */
/* Rounding                                                                  */

static void test_float_ties_round_to_even(void **state)
{
    (void)state;
    CHECK_ENC(F16, 1.0 + 0x1p-11, 0x3C00);     /* tie, 1.0 is even */
    CHECK_ENC(F16, 1.0 + 3 * 0x1p-11, 0x3C02); /* tie, 1+2^-9 is even */
    CHECK_ENC(F16, 1.0 + 0x1p-11 + 0x1p-40, 0x3C01);
    CHECK_ENC(BF16, 1.0 + 0x1p-8, 0x3F80);
    CHECK_ENC(BF16, 1.0 + 3 * 0x1p-8, 0x3F82);
    CHECK_ENC(F32, 1.0 + 0x1p-24, 0x3F800000);
    CHECK_ENC(F32, 1.0 + 3 * 0x1p-24, 0x3F800002);
    CHECK_ENC(F8E4M3FN, 17.0, 0x58); /* 16 | 18: to 16 */
    CHECK_ENC(F8E4M3FN, 19.0, 0x5A); /* 18 | 20: to 20 */
    CHECK_ENC(F8E4M3FN, 464.0, 0x7E); /* 448 | 480(NaN): to 448 (even) */
    CHECK_ENC(F8E5M2, 1.125, 0x3C);   /* 1 | 1.25 */
    CHECK_ENC(F8E5M2, 1.375, 0x3E);   /* 1.25 | 1.5 */
    CHECK_ENC(F4E2M1FN, 2.5, 0x4);
    CHECK_ENC(F4E2M1FN, 3.5, 0x6);
    CHECK_ENC(F4E2M1FN, 5.0, 0x6);
    CHECK_ENC(F4E2M1FN, 0.25, 0x0);
    CHECK_ENC(F4E2M1FN, 0.75, 0x2);
    CHECK_ENC(F4E2M1FN, -1.25, 0xA);
    CHECK_ENC(F4E2M1FN, 1.2500001, 0x3);
    CHECK_ENC(F6E3M2FN, 26.0, 0x1E); /* 24 | 28: to 24 (0b111.10) */
}

static void test_float_e8m0_rounds_ties_up(void **state)
{
    (void)state;
    /* APFloat: the only significand bit is the implicit 1, so a tie rounds up */
    CHECK_ENC(F8E8M0FNU, 1.5, 0x80);
    CHECK_ENC(F8E8M0FNU, 3.0, 0x81);
    CHECK_ENC(F8E8M0FNU, 1.4999, 0x7F);
    CHECK_ENC(F8E8M0FNU, 0.75, 0x7F);
    CHECK_ENC(F8E8M0FNU, 0.7499, 0x7E);
}

static void test_float_subnormal_rounding(void **state)
{
    (void)state;
    CHECK_ENC(F16, 0x1p-25, 0x0000);          /* tie between 0 and 2^-24: to 0 */
    CHECK_ENC(F16, 0x1p-25 + 0x1p-60, 0x0001);
    CHECK_ENC(F16, 3 * 0x1p-25, 0x0002);      /* tie between 1 and 2 ulps: 2 */
    CHECK_ENC(F16, 5 * 0x1p-25, 0x0002);      /* tie between 2 and 3 ulps: 2 */
    CHECK_ENC(F16, 0x1p-14 - 0x1p-25, 0x0400); /* rounds up into the normal range */
    CHECK_ENC(F16, 0x1p-14 - 0x1p-24, 0x03FF);
    CHECK_ENC(F16, -0x1p-26, 0x8000);          /* sign of zero kept */
    CHECK_ENC(F16, 1e-300, 0x0000);
    CHECK_ENC(F32, 0x1p-150, 0x00000000);
    CHECK_ENC(F32, 0x1.8p-149, 0x00000002);
    CHECK_ENC(F32, -0x1p-160, 0x80000000);
    CHECK_ENC(F8E4M3FN, 0x1p-10, 0x00);
    CHECK_ENC(F8E4M3FN, 0x1.8p-10, 0x01);
    CHECK_ENC(F8E4M3FN, -0x1p-11, 0x80);
    CHECK_ENC(F8E4M3FN, 0x1p-6 - 0x1p-10, 0x08); /* 7.5 ulps: to 8 = min normal */
    CHECK_ENC(F8E4M3FNUZ, -0x1p-12, 0x00);      /* no -0 in FNUZ */
    CHECK_ENC(F8E5M2FNUZ, -1e-30, 0x00);
    CHECK_ENC(F8E4M3FNUZ, -0.0, 0x00);
    CHECK_ENC(F8E4M3B11FNUZ, -0.0, 0x00);
    CHECK_ENC(F8E5M2, 0x1p-17, 0x00);
    CHECK_ENC(F8E5M2, 0x1.0001p-17, 0x01);
    CHECK_ENC(F4E2M1FN, -0.2, 0x8);
    CHECK_ENC(F16, -0.0, 0x8000);
    CHECK_ENC(F8E4M3FN, -0.0, 0x80);
    CHECK_ENC(F4E2M1FN, -0.0, 0x8);
    CHECK_ENC(F6E2M3FN, -0.0, 0x20);
    CHECK_ENC(BF16, -0.0, 0x8000);
}

static void test_float_overflow_per_format(void **state)
{
    (void)state;
    /* IEEE formats: inf */
    CHECK_ENC(F16, 65519.0, 0x7BFF);
    CHECK_ENC(F16, 65520.0, 0x7C00); /* tie with odd max: up, i.e. inf */
    CHECK_ENC(F16, -1e6, 0xFC00);
    CHECK_ENC(BF16, FLT_MAX, 0x7F80);
    CHECK_ENC(F32, 1e300, 0x7F800000);
    CHECK_ENC(F32, -1e300, 0xFF800000);
    CHECK_ENC(F8E5M2, 61440.0, 0x7C);
    CHECK_ENC(F8E5M2, 61439.0, 0x7B);
    CHECK_ENC(F8E4M3, 248.0, 0x78);
    CHECK_ENC(F8E4M3, 247.0, 0x77);
    CHECK_ENC(F8E3M4, 16.0, 0x70);
    CHECK_ENC(F8E3M4, -16.0, 0xF0);
    /* NaN-only formats: NaN (APFloat) */
    CHECK_ENC(F8E4M3FN, 465.0, 0x7F);
    CHECK_ENC(F8E4M3FN, 480.0, 0x7F);
    CHECK_ENC(F8E4M3FN, 1e9, 0x7F);
    CHECK_ENC(F8E4M3FN, -1e9, 0xFF);
    CHECK_ENC(F8E4M3FNUZ, 1e9, 0x80);
    CHECK_ENC(F8E4M3FNUZ, -1e9, 0x80);
    CHECK_ENC(F8E4M3FNUZ, 248.0, 0x80);
    CHECK_ENC(F8E4M3FNUZ, 247.0, 0x7F);
    CHECK_ENC(F8E4M3B11FNUZ, 31.0, 0x80);
    CHECK_ENC(F8E4M3B11FNUZ, 30.9, 0x7F);
    CHECK_ENC(F8E5M2FNUZ, 61440.0, 0x80);
    CHECK_ENC(F8E8M0FNU, 0x1p128, 0xFF);
    CHECK_ENC(F8E8M0FNU, 0x1.7p127, 0xFE);
    CHECK_ENC(F8E8M0FNU, 0x1.8p127, 0xFF);
    /* finite-only f4/f6: saturate */
    CHECK_ENC(F4E2M1FN, 7.0, 0x7);
    CHECK_ENC(F4E2M1FN, 100.0, 0x7);
    CHECK_ENC(F4E2M1FN, -100.0, 0xF);
    CHECK_ENC(F6E2M3FN, 8.0, 0x1F);
    CHECK_ENC(F6E2M3FN, -1e30, 0x3F);
    CHECK_ENC(F6E3M2FN, 1e9, 0x1F);
}

static void test_float_infinity_inputs(void **state)
{
    (void)state;
    CHECK_ENC(F16, INFINITY, 0x7C00);
    CHECK_ENC(BF16, -INFINITY, 0xFF80);
    CHECK_ENC(F8E5M2, -INFINITY, 0xFC);
    CHECK_ENC(F8E4M3FN, INFINITY, 0x7F);
    CHECK_ENC(F8E4M3FN, -INFINITY, 0xFF);
    CHECK_ENC(F8E4M3FNUZ, -INFINITY, 0x80);
    CHECK_ENC(F8E8M0FNU, INFINITY, 0xFF);
    CHECK_ENC(F4E2M1FN, INFINITY, 0x7);
    CHECK_ENC(F4E2M1FN, -INFINITY, 0xF);
    CHECK_ENC(F6E3M2FN, -INFINITY, 0x3F);
}

static void test_float_nan_canonical_per_format(void **state)
{
    (void)state;
    double nn = -(double)NAN;
    CHECK_ENC(F32, NAN, 0x7FC00000);
    CHECK_ENC(F32, nn, 0xFFC00000);
    CHECK_ENC(F64, NAN, UINT64_C(0x7FF8000000000000));
    CHECK_ENC(F64, bits_d(UINT64_C(0x7FF0000000000001)), UINT64_C(0x7FF8000000000000));
    CHECK_ENC(BF16, NAN, 0x7FC0);
    CHECK_ENC(BF16, nn, 0xFFC0);
    CHECK_ENC(F16, NAN, 0x7E00);
    CHECK_ENC(F16, nn, 0xFE00);
    CHECK_ENC(F8E5M2, NAN, 0x7E);
    CHECK_ENC(F8E4M3, NAN, 0x7C);
    CHECK_ENC(F8E3M4, nn, 0xF8);
    CHECK_ENC(F8E4M3FN, NAN, 0x7F);
    CHECK_ENC(F8E4M3FN, nn, 0xFF);
    CHECK_ENC(F8E4M3FNUZ, NAN, 0x80);
    CHECK_ENC(F8E4M3FNUZ, nn, 0x80);
    CHECK_ENC(F8E4M3B11FNUZ, NAN, 0x80);
    CHECK_ENC(F8E5M2FNUZ, nn, 0x80);
    CHECK_ENC(F8E8M0FNU, NAN, 0xFF);
    /* f4/f6 have no NaN: NaN becomes +0 (documented choice) */
    CHECK_ENC(F4E2M1FN, NAN, 0x0);
    CHECK_ENC(F6E2M3FN, nn, 0x00);
}

static void test_float_e8m0_zero_and_negative(void **state)
{
    (void)state;
    /* no zero: APFloat gives the smallest value 2^-127 for zero and underflow */
    CHECK_ENC(F8E8M0FNU, 0.0, 0x00);
    CHECK_ENC(F8E8M0FNU, -0.0, 0x00);
    CHECK_ENC(F8E8M0FNU, 1e-300, 0x00);
    /* unsigned: negative values have no encoding */
    CHECK_ENC(F8E8M0FNU, -1.0, 0xFF);
    CHECK_ENC(F8E8M0FNU, -1e-300, 0xFF);
    CHECK_ENC(F8E8M0FNU, -INFINITY, 0xFF);
}

static void test_float_round_helper(void **state)
{
    (void)state;
    assert_true(base_float_round(DT(BF16), 1.0 / 3.0) == 0.333984375);
    assert_true(base_float_round(DT(F16), 0.1) == 0.0999755859375);
    assert_true(base_float_round(DT(F8E4M3FN), 300.0) == 288.0);
    assert_true(base_float_round(DT(F8E5M2), 1e6) == INFINITY);
    assert_true(isnan(base_float_round(DT(F8E4M3FN), 1e6)));
    assert_true(base_float_round(DT(F4E2M1FN), 1e6) == 6.0);
    assert_true(base_float_round(DT(F32), 0.1) == (double)0.1f);
    assert_true(base_float_round(DT(F64), 0.1) == 0.1);
}

/* ------------------------------------------------------------------------ */
/* Exact integer conversion (one rounding)                                   */

static void test_float_from_int_single_rounding(void **state)
{
    (void)state;
    CHECK_U64(base_float_bits_from_i64(DT(F64), (INT64_C(1) << 53) + 1), UINT64_C(0x4340000000000000));
    CHECK_U64(base_float_bits_from_i64(DT(F64), (INT64_C(1) << 53) + 3), UINT64_C(0x4340000000000002));
    CHECK_U64(base_float_bits_from_i64(DT(F64), -((INT64_C(1) << 53) + 1)), UINT64_C(0xC340000000000000));
    /* 2^62 + 2^38 + 1: just above the f32 midpoint; via f64 it would tie and go down */
    CHECK_U64(base_float_bits_from_i64(DT(F32), (INT64_C(1) << 62) + (INT64_C(1) << 38) + 1), 0x5E800001);
    CHECK_U64(base_float_bits_from_i64(DT(F32), (INT64_C(1) << 62) + (INT64_C(1) << 38)), 0x5E800000);
    CHECK_U64(base_float_bits_from_i64(DT(F32), INT64_MAX), 0x5F000000);
    CHECK_U64(base_float_bits_from_i64(DT(F32), INT64_MIN), 0xDF000000);
    CHECK_U64(base_float_bits_from_i64(DT(F64), INT64_MIN), UINT64_C(0xC3E0000000000000));
    CHECK_U64(base_float_bits_from_u64(DT(F32), UINT64_MAX), 0x5F800000);
    CHECK_U64(base_float_bits_from_u64(DT(F64), UINT64_MAX), UINT64_C(0x43F0000000000000));
    CHECK_U64(base_float_bits_from_u64(DT(F32), UINT64_MAX - (UINT64_C(1) << 39) + 1), 0x5F800000);
    CHECK_U64(base_float_bits_from_u64(DT(F32), UINT64_MAX - (UINT64_C(1) << 39)), 0x5F7FFFFF);
    /* 2^40 + 2^32 + 1 to bf16: one rounding goes up; i64->f32->bf16 would tie down */
    CHECK_U64(base_float_bits_from_i64(DT(BF16), (INT64_C(1) << 40) + (INT64_C(1) << 32) + 1), 0x5381);
    CHECK_U64(base_float_bits_from_i64(DT(F16), 65519), 0x7BFF);
    CHECK_U64(base_float_bits_from_i64(DT(F16), 65520), 0x7C00);
    CHECK_U64(base_float_bits_from_i64(DT(F16), -2049), 0xE800); /* tie: -2048 */
    CHECK_U64(base_float_bits_from_i64(DT(F16), 2051), 0x6802);  /* tie: 2052 */
    CHECK_U64(base_float_bits_from_i64(DT(F8E4M3FN), 1000), 0x7F);
    CHECK_U64(base_float_bits_from_i64(DT(F8E4M3FNUZ), 0), 0x00);
    CHECK_U64(base_float_bits_from_i64(DT(F8E8M0FNU), 0), 0x00);
    CHECK_U64(base_float_bits_from_i64(DT(F8E8M0FNU), 1024), 0x89);
    CHECK_U64(base_float_bits_from_i64(DT(F8E8M0FNU), -4), 0xFF);
    CHECK_U64(base_float_bits_from_i64(DT(F4E2M1FN), -7), 0xF);
    CHECK_U64(base_float_bits_from_i64(DT(F4E2M1FN), 0), 0x0);
}

/* The host FPU converts int64/uint64 to float and double with one rounding. */
static void test_float_from_int_matches_host_fpu(void **state)
{
    (void)state;
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (int i = 0; i < 200000; i++) {
        uint64_t u = base_rng_next(&r) >> (base_rng_next(&r) % 64);
        int64_t s = (int64_t)base_rng_next(&r) >> (base_rng_next(&r) % 64);
        CHECK_U64(base_float_bits_from_u64(DT(F32), u), fbits((float)u));
        CHECK_U64(base_float_bits_from_u64(DT(F64), u), dbits((double)u));
        CHECK_U64(base_float_bits_from_i64(DT(F32), s), fbits((float)s));
        CHECK_U64(base_float_bits_from_i64(DT(F64), s), dbits((double)s));
    }
}

/* ------------------------------------------------------------------------ */
/* Every value of every small format                                         */

static void test_float_small_formats_roundtrip_exactly(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(float_dts); k++) {
        enum base_dtype dt = float_dts[k];
        int bits = base_dtype_bits(dt);
        if (bits > 16) continue;
        for (uint64_t b = 0; b < (UINT64_C(1) << bits); b++) {
            double v = dec(dt, b);
            uint64_t back = enc(dt, v);
            if (isnan(v)) {
                assert_true(isnan(dec(dt, back)));
                continue;
            }
            if (back != b) {
                print_error("%s: 0x%llx -> %.17g -> 0x%llx\n", base_dtype_name(dt),
                            (unsigned long long)b, v, (unsigned long long)back);
                fail();
            }
        }
    }
}

/* Positive encodings are ordered like their values, and the sign bit negates. */
static void test_float_small_formats_monotonic_and_symmetric(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(float_dts); k++) {
        enum base_dtype dt = float_dts[k];
        const struct base_float_format *f = base_float_format(dt);
        int bits = base_dtype_bits(dt);
        if (bits > 16) continue;
        int mag_bits = f->exp_bits + f->man_bits;
        double prev = -1.0;
        for (uint64_t b = 0; b < (UINT64_C(1) << mag_bits); b++) {
            double v = dec(dt, b);
            if (isnan(v)) continue;
            assert_true(v > prev);
            prev = v;
            if (f->has_sign && !(b == 0 && !f->has_neg_zero)) {
                double n = dec(dt, b | (UINT64_C(1) << mag_bits));
                assert_true(n == -v);
            }
        }
        /* the largest finite value is the last non-special one */
        assert_true(prev == (f->has_inf ? INFINITY : f->max_finite));
    }
}

static void test_float_small_formats_special_counts(void **state)
{
    (void)state;
    static const struct {
        enum base_dtype dt;
        int nans, infs;
    } cases[] = {
        {DT(F16), 2046, 2},      {DT(BF16), 254, 2},       {DT(F8E5M2), 6, 2},
        {DT(F8E4M3), 14, 2},     {DT(F8E3M4), 30, 2},      {DT(F8E4M3FN), 2, 0},
        {DT(F8E4M3FNUZ), 1, 0},  {DT(F8E4M3B11FNUZ), 1, 0}, {DT(F8E5M2FNUZ), 1, 0},
        {DT(F8E8M0FNU), 1, 0},   {DT(F6E2M3FN), 0, 0},     {DT(F6E3M2FN), 0, 0},
        {DT(F4E2M1FN), 0, 0},
    };
    for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
        int nans = 0, infs = 0;
        int bits = base_dtype_bits(cases[k].dt);
        for (uint64_t b = 0; b < (UINT64_C(1) << bits); b++) {
            double v = dec(cases[k].dt, b);
            nans += isnan(v) != 0;
            infs += isinf(v) != 0;
        }
        assert_int_equal(nans, cases[k].nans);
        assert_int_equal(infs, cases[k].infs);
    }
}

/* Midpoints between neighbours round to the even one, just above/below go
 * to the nearer one; checked for every adjacent pair of positive values. */
static void test_float_small_formats_midpoints(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(float_dts); k++) {
        enum base_dtype dt = float_dts[k];
        const struct base_float_format *f = base_float_format(dt);
        if (base_dtype_bits(dt) > 16 || f->man_bits == 0) continue;
        uint64_t top = UINT64_C(1) << (f->exp_bits + f->man_bits);
        for (uint64_t b = 0; b + 1 < top; b++) {
            double lo = dec(dt, b), hi = dec(dt, b + 1);
            if (isnan(lo) || isnan(hi) || isinf(hi)) continue;
            double mid = (lo + hi) / 2; /* exact in f64 */
            uint64_t even = (b & 1) ? b + 1 : b;
            CHECK_U64(enc(dt, mid), even);
            CHECK_U64(enc(dt, nextafter(mid, 0)), b);
            CHECK_U64(enc(dt, nextafter(mid, INFINITY)), b + 1);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Fast paths agree with the codec                                           */

static void test_fast_bf16_matches_codec(void **state)
{
    (void)state;
    static const uint32_t lows[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x1234, 0xC000};
    for (uint32_t hi = 0; hi < 0x10000; hi++) {
        for (size_t j = 0; j < ARRAY_LEN(lows); j++) {
            float f = bits_f(hi << 16 | lows[j]);
            uint16_t fast = base_f32_to_bf16(f);
            uint64_t slow = enc(DT(BF16), (double)f);
            if (fast != slow) {
                print_error("bf16(0x%08x): fast 0x%04x codec 0x%04llx\n", hi << 16 | lows[j], fast,
                            (unsigned long long)slow);
                fail();
            }
        }
        double d = dec(DT(BF16), hi);
        float g = base_bf16_to_f32((uint16_t)hi);
        if (isnan(d)) assert_true(isnan(g));
        else assert_true(fbits(g) == fbits((float)d));
    }
}

static void test_fast_f16_decode_matches_codec(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        double d = dec(DT(F16), h);
        float g = base_f16_to_f32((uint16_t)h);
        if (isnan(d)) {
            assert_true(isnan(g));
            assert_int_equal(fbits(g), (h & 0x8000 ? 0xFFC00000u : 0x7FC00000u));
        } else {
            assert_int_equal(fbits(g), fbits((float)d));
        }
    }
}

static void check_f16_fast(float f)
{
    uint16_t fast = base_f32_to_f16(f);
    uint64_t slow = enc(DT(F16), (double)f);
    if (fast != slow) {
        print_error("f16(0x%08x): fast 0x%04x codec 0x%04llx\n", fbits(f), fast,
                    (unsigned long long)slow);
        fail();
    }
}

static void test_fast_f16_encode_matches_codec(void **state)
{
    (void)state;
    /* around every f16 value and every midpoint, both signs */
    for (uint32_t h = 0; h < 0x7C00; h++) {
        double lo = dec(DT(F16), h), hi = dec(DT(F16), h + 1);
        float pts[] = {(float)lo, (float)((lo + hi) / 2)};
        for (size_t j = 0; j < ARRAY_LEN(pts); j++) {
            float p = pts[j];
            float cand[] = {p, nextafterf(p, 0), nextafterf(p, INFINITY), -p};
            for (size_t c = 0; c < ARRAY_LEN(cand); c++) check_f16_fast(cand[c]);
        }
    }
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (int i = 0; i < 2000000; i++) check_f16_fast(bits_f((uint32_t)base_rng_next(&r)));
    check_f16_fast(INFINITY);
    check_f16_fast(-INFINITY);
    check_f16_fast(NAN);
    check_f16_fast(FLT_MAX);
    check_f16_fast(1e-45f);
}

/* f64 -> f32 by the host FPU (one IEEE rounding) equals the codec. */
static void test_codec_f32_matches_host_fpu(void **state)
{
    (void)state;
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (int i = 0; i < 1000000; i++) {
        double d;
        if (i & 1) {
            d = bits_d(base_rng_next(&r));
        } else { /* exponents around the f32 range, incl. subnormals and overflow */
            int e = (int)(base_rng_next(&r) % 300) - 160;
            d = ldexp(1.0 + base_rng_uniform(&r), e);
            if (base_rng_next(&r) & 1) d = -d;
            if (base_rng_next(&r) % 8 == 0) d = ldexp(round(ldexp(d, 30)), -30); /* many ties */
        }
        float f = (float)d;
        if (isnan(d)) continue;
        CHECK_U64(enc(DT(F32), d), fbits(f));
        CHECK_U64(enc(DT(F64), d), dbits(d));
        assert_true(dec(DT(F32), fbits(f)) == (double)f);
    }
}

/* ------------------------------------------------------------------------ */
/* Element access                                                            */

static void test_elem_subbyte_ints_wrap_and_sign_extend(void **state)
{
    (void)state;
    unsigned char buf[4] = {0};
    base_elem_set_i64(DT(SI4), buf, 1, 9);
    assert_int_equal(buf[1], 0xF9);
    assert_int_equal(base_elem_get_i64(DT(SI4), buf, 1), -7);
    base_elem_set_i64(DT(SI4), buf, 0, -8);
    assert_int_equal(buf[0], 0xF8);
    base_elem_set_i64(DT(SI4), buf, 0, 8);
    assert_int_equal(base_elem_get_i64(DT(SI4), buf, 0), -8);
    base_elem_set_i64(DT(UI4), buf, 2, 17);
    assert_int_equal(buf[2], 0x01);
    base_elem_set_i64(DT(UI4), buf, 2, -1);
    assert_int_equal(buf[2], 0x0F);
    assert_int_equal(base_elem_get_u64(DT(UI4), buf, 2), 15);
    base_elem_set_i64(DT(SI2), buf, 3, 2);
    assert_int_equal(buf[3], 0xFE);
    assert_int_equal(base_elem_get_i64(DT(SI2), buf, 3), -2);
    base_elem_set_i64(DT(SI2), buf, 3, 5);
    assert_int_equal(base_elem_get_i64(DT(SI2), buf, 3), 1);
    base_elem_set_i64(DT(UI2), buf, 3, 6);
    assert_int_equal(buf[3], 0x02);
}

static void test_elem_wide_ints(void **state)
{
    (void)state;
    unsigned char buf[16] = {0};
    base_elem_set_i64(DT(SI8), buf, 0, 300);
    assert_int_equal(base_elem_get_i64(DT(SI8), buf, 0), 44);
    base_elem_set_i64(DT(UI16), buf, 1, -1);
    assert_int_equal(base_elem_get_u64(DT(UI16), buf, 1), 65535);
    assert_int_equal(buf[2], 0xFF);
    assert_int_equal(buf[3], 0xFF);
    base_elem_set_i64(DT(UI32), buf, 1, -1);
    assert_int_equal(base_elem_get_i64(DT(UI32), buf, 1), 4294967295LL);
    base_elem_set_i64(DT(SI32), buf, 0, INT64_C(0x123456789));
    assert_int_equal(base_elem_get_i64(DT(SI32), buf, 0), 0x23456789);
    base_elem_set_i64(DT(SI64), buf, 1, INT64_MIN);
    assert_true(base_elem_get_i64(DT(SI64), buf, 1) == INT64_MIN);
    assert_true(base_elem_get_u64(DT(SI64), buf, 1) == UINT64_C(0x8000000000000000));
    base_elem_set_i64(DT(SI16), buf, 0, -2);
    assert_int_equal(buf[0], 0xFE); /* little-endian */
    assert_int_equal(buf[1], 0xFF);
}

static void test_elem_i1_is_zero_or_one(void **state)
{
    (void)state;
    unsigned char buf[3] = {7, 7, 7};
    base_elem_set_i64(DT(I1), buf, 0, 5); /* setters wrap to the width: 5 & 1 */
    base_elem_set_i64(DT(I1), buf, 1, 2);
    base_elem_set_f64(DT(I1), buf, 2, -0.5);
    assert_int_equal(buf[0], 1);
    assert_int_equal(buf[1], 0);
    assert_int_equal(buf[2], 1);
    base_elem_set_f64(DT(I1), buf, 2, 0.0);
    assert_int_equal(buf[2], 0);
    base_elem_set_f64(DT(I1), buf, 2, NAN); /* NaN is not zero */
    assert_int_equal(buf[2], 1);
    assert_int_equal(base_elem_get_i64(DT(I1), buf, 0), 1);
    assert_true(base_elem_get_f64(DT(I1), buf, 1) == 0.0);
}

static void test_elem_set_f64_truncates_and_saturates_ints(void **state)
{
    (void)state;
    unsigned char buf[8] = {0};
    static const struct {
        enum base_dtype dt;
        double v;
        int64_t want;
    } cases[] = {
        {DT(SI8), 200.5, 127},  {DT(SI8), -200.5, -128}, {DT(SI8), -3.9, -3},   {DT(SI8), 3.9, 3},
        {DT(SI8), NAN, 0},      {DT(UI8), -3.0, 0},      {DT(UI8), 255.9, 255}, {DT(UI8), 1e10, 255},
        {DT(UI8), -0.9, 0},     {DT(SI4), 7.9, 7},       {DT(SI4), -100, -8},   {DT(UI4), 99, 15},
        {DT(SI2), -1.5, -1},    {DT(SI2), 9, 1},         {DT(UI2), INFINITY, 3},
        {DT(SI32), 3e9, INT32_MAX}, {DT(SI32), -INFINITY, INT32_MIN},
        {DT(SI64), 1e19, INT64_MAX}, {DT(SI64), -1e19, INT64_MIN},
        {DT(SI64), 9223372036854775808.0, INT64_MAX},
        {DT(SI64), -9223372036854775808.0, INT64_MIN},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        base_elem_set_f64(cases[i].dt, buf, 0, cases[i].v);
        if (base_elem_get_i64(cases[i].dt, buf, 0) != cases[i].want) {
            print_error("case %zu: %s(%g) = %lld, want %lld\n", i, base_dtype_name(cases[i].dt),
                        cases[i].v, (long long)base_elem_get_i64(cases[i].dt, buf, 0),
                        (long long)cases[i].want);
            fail();
        }
    }
    base_elem_set_f64(DT(UI64), buf, 0, 1.8446744073709552e19);
    assert_true(base_elem_get_u64(DT(UI64), buf, 0) == UINT64_MAX);
    base_elem_set_f64(DT(UI64), buf, 0, 1.8446744073709550e19);
    assert_true(base_elem_get_u64(DT(UI64), buf, 0) == UINT64_C(18446744073709549568));
}

static void test_elem_floats_round_on_set(void **state)
{
    (void)state;
    unsigned char buf[16] = {0};
    base_elem_set_f64(DT(BF16), buf, 1, 1.0 / 3.0);
    assert_int_equal(buf[2], 0xAB);
    assert_int_equal(buf[3], 0x3E);
    assert_true(base_elem_get_f64(DT(BF16), buf, 1) == 0.333984375);
    base_elem_set_f64(DT(F8E4M3FN), buf, 5, 1000.0);
    assert_int_equal(buf[5], 0x7F);
    assert_true(isnan(base_elem_get_f64(DT(F8E4M3FN), buf, 5)));
    base_elem_set_f64(DT(F4E2M1FN), buf, 6, -5.5);
    assert_int_equal(buf[6], 0x0F);
    assert_true(base_elem_get_f64(DT(F4E2M1FN), buf, 6) == -6.0);
    base_elem_set_i64(DT(F32), buf, 2, (INT64_C(1) << 62) + (INT64_C(1) << 38) + 1);
    assert_int_equal(base_elem_get_bits(DT(F32), buf, 2), 0x5E800001);
    base_elem_set_f64(DT(F64), buf, 1, -2.5);
    assert_true(base_elem_get_f64(DT(F64), buf, 1) == -2.5);
    assert_int_equal(base_elem_get_i64(DT(F64), buf, 1), -2);
    assert_int_equal(base_elem_get_u64(DT(F64), buf, 1), 0);
}

static void test_elem_bits_roundtrip(void **state)
{
    (void)state;
    unsigned char buf[16] = {0};
    base_elem_set_i64(DT(SI4), buf, 0, -7);
    assert_int_equal(base_elem_get_bits(DT(SI4), buf, 0), 0x9);
    base_elem_set_bits(DT(SI4), buf, 1, 0xC);
    assert_int_equal(base_elem_get_i64(DT(SI4), buf, 1), -4);
    assert_int_equal(buf[1], 0xFC);
    base_elem_set_bits(DT(F4E2M1FN), buf, 2, 0xFD);
    assert_int_equal(buf[2], 0x0D);
    assert_true(base_elem_get_f64(DT(F4E2M1FN), buf, 2) == -3.0);
    base_elem_set_bits(DT(F16), buf, 2, 0x3C00);
    assert_true(base_elem_get_f64(DT(F16), buf, 2) == 1.0);
    base_elem_set_bits(DT(F64), buf, 1, UINT64_C(0x7FF0000000000001));
    assert_true(base_elem_get_bits(DT(F64), buf, 1) == UINT64_C(0x7FF0000000000001));
    base_elem_set_bits(DT(UI2), buf, 0, 0xFF);
    assert_int_equal(buf[0], 3);
}

static void test_elem_complex_parts(void **state)
{
    (void)state;
    double buf[4] = {0};
    double re, im;
    base_elem_set_c128(DT(C128), buf, 1, 1.5, -2.25);
    assert_true(buf[2] == 1.5 && buf[3] == -2.25);
    base_elem_get_c128(DT(C128), buf, 1, &re, &im);
    assert_true(re == 1.5 && im == -2.25);
    float fb[4] = {0};
    base_elem_set_c128(DT(C64), fb, 1, 0.1, 1e300);
    assert_true(fb[2] == 0.1f && isinf(fb[3]));
    base_elem_get_c128(DT(C64), fb, 1, &re, &im);
    assert_true(re == (double)0.1f && isinf(im));
    assert_true(base_elem_get_f64(DT(C64), fb, 1) == (double)0.1f);
    int32_t ib[1] = {-5};
    base_elem_get_c128(DT(SI32), ib, 0, &re, &im);
    assert_true(re == -5.0 && im == 0.0);
    base_elem_set_c128(DT(SI32), ib, 0, 7.9, 3.0);
    assert_int_equal(ib[0], 7);
}

/* ------------------------------------------------------------------------ */
/* convert: the interpret suite's convert.mlir cases                         */

static void test_convert_mlir_i1_sources(void **state)
{
    (void)state;
    const unsigned char src[2] = {1, 0};
    unsigned char b[2];
    int64_t i64[2];
    uint64_t u64[2];
    double f64[2];
    double c128[4];
    base_convert(DT(I1), b, DT(I1), src, 2);
    assert_memory_equal(b, src, 2);
    base_convert(DT(SI64), i64, DT(I1), src, 2);
    assert_true(i64[0] == 1 && i64[1] == 0);
    base_convert(DT(UI64), u64, DT(I1), src, 2);
    assert_true(u64[0] == 1 && u64[1] == 0);
    base_convert(DT(F64), f64, DT(I1), src, 2);
    assert_true(f64[0] == 1.0 && f64[1] == 0.0);
    base_convert(DT(C128), c128, DT(I1), src, 2);
    assert_true(c128[0] == 1.0 && c128[1] == 0.0 && c128[2] == 0.0 && c128[3] == 0.0);
}

static void test_convert_mlir_int_sources(void **state)
{
    (void)state;
    const int64_t s[3] = {-1, 0, 1};
    const unsigned char s4[3] = {0xFF, 0, 1}; /* i4 [-1, 0, 1] */
    const uint64_t u[2] = {0, 1};
    const unsigned char u4[2] = {0, 1};
    unsigned char b[3];
    int64_t i64[3];
    uint64_t u64[3];
    double f64[3], c128[6];
    base_convert(DT(I1), b, DT(SI64), s, 3);
    assert_true(b[0] == 1 && b[1] == 0 && b[2] == 1);
    base_convert(DT(SI64), i64, DT(SI64), s, 3);
    assert_memory_equal(i64, s, sizeof s);
    base_convert(DT(UI64), u64, DT(SI4), s4 + 1, 2);
    assert_true(u64[0] == 0 && u64[1] == 1);
    base_convert(DT(F64), f64, DT(SI64), s, 3);
    assert_true(f64[0] == -1.0 && f64[1] == 0.0 && f64[2] == 1.0);
    base_convert(DT(C128), c128, DT(SI4), s4, 3);
    assert_true(c128[0] == -1.0 && c128[1] == 0.0 && c128[2] == 0.0 && c128[4] == 1.0 && c128[5] == 0.0);
    base_convert(DT(I1), b, DT(UI64), u, 2);
    assert_true(b[0] == 0 && b[1] == 1);
    base_convert(DT(SI64), i64, DT(UI64), u, 2);
    assert_true(i64[0] == 0 && i64[1] == 1);
    base_convert(DT(UI64), u64, DT(UI4), u4, 2);
    assert_true(u64[0] == 0 && u64[1] == 1);
    base_convert(DT(F64), f64, DT(UI64), u, 2);
    assert_true(f64[0] == 0.0 && f64[1] == 1.0);
    base_convert(DT(C128), c128, DT(UI4), u4, 2);
    assert_true(c128[0] == 0.0 && c128[1] == 0.0 && c128[2] == 1.0 && c128[3] == 0.0);
}

static void test_convert_mlir_float_and_complex_sources(void **state)
{
    (void)state;
    const double f[3] = {-1.0, 0.0, 1.0};
    const double c[6] = {-1.0, 0.0, 0.0, 1.0, 1.0, 0.0};
    unsigned char b[3];
    int64_t i64[3];
    uint64_t u64[2];
    double f64[3], c128[6];
    base_convert(DT(I1), b, DT(F64), f, 3);
    assert_true(b[0] == 1 && b[1] == 0 && b[2] == 1);
    base_convert(DT(SI64), i64, DT(F64), f, 3);
    assert_true(i64[0] == -1 && i64[1] == 0 && i64[2] == 1);
    base_convert(DT(UI64), u64, DT(F64), f + 1, 2);
    assert_true(u64[0] == 0 && u64[1] == 1);
    base_convert(DT(F64), f64, DT(F64), f, 3);
    assert_memory_equal(f64, f, sizeof f);
    base_convert(DT(C128), c128, DT(F64), f, 3);
    assert_true(c128[0] == -1.0 && c128[1] == 0.0 && c128[4] == 1.0 && c128[5] == 0.0);
    base_convert(DT(I1), b, DT(C128), c, 3);
    assert_true(b[0] == 1 && b[1] == 0 && b[2] == 1); /* (0, 1) -> false: real part */
    base_convert(DT(SI64), i64, DT(C128), c, 3);
    assert_true(i64[0] == -1 && i64[1] == 0 && i64[2] == 1);
    base_convert(DT(UI64), u64, DT(C128), c + 2, 2);
    assert_true(u64[0] == 0 && u64[1] == 1);
    base_convert(DT(F64), f64, DT(C128), c, 3);
    assert_true(f64[0] == -1.0 && f64[1] == 0.0 && f64[2] == 1.0);
    base_convert(DT(C128), c128, DT(C128), c, 3);
    assert_memory_equal(c128, c, sizeof c);
}

/* ------------------------------------------------------------------------ */
/* convert: semantics beyond the suite                                       */

static void test_convert_int_to_int_wraps(void **state)
{
    (void)state;
    const int32_t s[4] = {300, -1, 9, 17};
    int8_t i8[4];
    uint8_t u8[4], i4[4], u4[4], i2[4];
    base_convert(DT(SI8), i8, DT(SI32), s, 4);
    assert_true(i8[0] == 44 && i8[1] == -1 && i8[2] == 9 && i8[3] == 17);
    base_convert(DT(UI8), u8, DT(SI32), s, 4);
    assert_true(u8[0] == 44 && u8[1] == 255);
    base_convert(DT(SI4), i4, DT(SI32), s, 4);
    assert_true(i4[0] == 0xFC && i4[1] == 0xFF && i4[2] == 0xF9 && i4[3] == 0x01);
    base_convert(DT(UI4), u4, DT(SI32), s, 4);
    assert_true(u4[0] == 0x0C && u4[1] == 0x0F && u4[2] == 0x09 && u4[3] == 0x01);
    base_convert(DT(SI2), i2, DT(SI4), i4, 4); /* -4, -1, -7, 1 -> 0, -1, 1, 1 */
    assert_true(i2[0] == 0 && i2[1] == 0xFF && i2[2] == 1 && i2[3] == 1);
    const uint8_t big[1] = {255};
    int64_t out;
    base_convert(DT(SI64), &out, DT(UI8), big, 1); /* zero-extended */
    assert_int_equal(out, 255);
    base_convert(DT(SI64), &out, DT(SI4), i4 + 2, 1); /* sign-extended */
    assert_int_equal(out, -7);
    const uint64_t umax = UINT64_MAX;
    base_convert(DT(SI64), &out, DT(UI64), &umax, 1);
    assert_int_equal(out, -1);
}

static void test_convert_float_to_int_truncates_saturates(void **state)
{
    (void)state;
    const float f[8] = {300.7f, -300.0f, NAN, -0.9f, INFINITY, -INFINITY, 2.5f, -2.5f};
    int8_t i8[8];
    uint8_t u8[8];
    int32_t i32[8];
    int64_t i64[8];
    base_convert(DT(SI8), i8, DT(F32), f, 8);
    assert_true(i8[0] == 127 && i8[1] == -128 && i8[2] == 0 && i8[3] == 0 && i8[4] == 127 &&
                i8[5] == -128 && i8[6] == 2 && i8[7] == -2);
    base_convert(DT(UI8), u8, DT(F32), f, 8);
    assert_true(u8[0] == 255 && u8[1] == 0 && u8[2] == 0 && u8[3] == 0 && u8[4] == 255 && u8[5] == 0 &&
                u8[6] == 2 && u8[7] == 0);
    base_convert(DT(SI32), i32, DT(F32), f, 8); /* fast path */
    assert_true(i32[0] == 300 && i32[1] == -300 && i32[2] == 0 && i32[3] == 0 &&
                i32[4] == INT32_MAX && i32[5] == INT32_MIN && i32[6] == 2 && i32[7] == -2);
    base_convert(DT(SI64), i64, DT(F32), f, 8); /* fast path */
    assert_true(i64[0] == 300 && i64[2] == 0 && i64[4] == INT64_MAX && i64[5] == INT64_MIN);
    const float edge[3] = {2147483648.0f, -2147483648.0f, 2147483520.0f};
    base_convert(DT(SI32), i32, DT(F32), edge, 3);
    assert_true(i32[0] == INT32_MAX && i32[1] == INT32_MIN && i32[2] == 2147483520);
    const uint16_t h[2] = {0xFC00, 0x7E00}; /* f16 -inf, NaN */
    uint32_t u32[2];
    base_convert(DT(UI32), u32, DT(F16), h, 2);
    assert_true(u32[0] == 0 && u32[1] == 0);
}

static void test_convert_to_bool_is_nonzero(void **state)
{
    (void)state;
    const float f[4] = {-0.0f, NAN, 1e-40f, 0.0f};
    unsigned char b[4];
    base_convert(DT(I1), b, DT(F32), f, 4);
    assert_true(b[0] == 0 && b[1] == 1 && b[2] == 1 && b[3] == 0);
    const unsigned char e8m0[1] = {0x00}; /* 2^-127: never zero */
    base_convert(DT(I1), b, DT(F8E8M0FNU), e8m0, 1);
    assert_int_equal(b[0], 1);
    const int8_t i[3] = {-128, 0, 2};
    base_convert(DT(I1), b, DT(SI8), i, 3);
    assert_true(b[0] == 1 && b[1] == 0 && b[2] == 1);
}

static void test_convert_int_to_float_single_rounding(void **state)
{
    (void)state;
    const int64_t s[2] = {(INT64_C(1) << 62) + (INT64_C(1) << 38) + 1, (INT64_C(1) << 40) + (INT64_C(1) << 32) + 1};
    uint32_t f32[2];
    uint16_t bf[2];
    base_convert(DT(F32), f32, DT(SI64), s, 2); /* fast path */
    assert_int_equal(f32[0], 0x5E800001);
    base_convert(DT(BF16), bf, DT(SI64), s, 2);
    assert_int_equal(bf[1], 0x5381);
    const uint64_t u[1] = {UINT64_MAX};
    base_convert(DT(F32), f32, DT(UI64), u, 1);
    assert_int_equal(f32[0], 0x5F800000);
    const int32_t i[2] = {16777217, -16777219};
    base_convert(DT(F32), f32, DT(SI32), i, 2); /* fast path: ties to even */
    assert_int_equal(f32[0], 0x4B800000);
    assert_int_equal(f32[1], 0xCB800002);
    uint8_t f8[2];
    base_convert(DT(F8E4M3FN), f8, DT(SI32), i, 2);
    assert_true(f8[0] == 0x7F && f8[1] == 0xFF);
}

static void test_convert_float_to_float(void **state)
{
    (void)state;
    const float f[6] = {1.0f / 3.0f, 65520.0f, -1e-8f, NAN, 448.0f, 1000.0f};
    uint16_t bf[6], h[6];
    uint8_t e4[6], e5[6];
    base_convert(DT(BF16), bf, DT(F32), f, 6);
    assert_true(bf[0] == 0x3EAB && bf[3] == 0x7FC0 && bf[4] == 0x43E0);
    base_convert(DT(F16), h, DT(F32), f, 6);
    assert_true(h[0] == 0x3555 && h[1] == 0x7C00 && h[2] == 0x8000 && h[3] == 0x7E00);
    base_convert(DT(F8E4M3FN), e4, DT(F32), f, 6);
    assert_true(e4[4] == 0x7E && e4[5] == 0x7F && e4[3] == 0x7F && e4[2] == 0x80);
    base_convert(DT(F8E5M2), e5, DT(BF16), bf, 6);
    assert_true(e5[5] == 0x64 && e5[3] == 0x7E); /* 1000 -> 1024 = 0x64 */
    /* f8 -> f32 is exact */
    uint32_t back[6];
    base_convert(DT(F32), back, DT(F8E4M3FN), e4, 6);
    assert_int_equal(back[4], 0x43E00000);
    assert_int_equal(back[5], 0x7FC00000);
    /* FNUZ NaN (0x80) becomes a positive quiet NaN, as APFloat does */
    const uint8_t fnuz_nan = 0x80;
    base_convert(DT(F32), back, DT(F8E4M3FNUZ), &fnuz_nan, 1);
    assert_int_equal(back[0], 0x7FC00000);
    /* f64 -> f32 -> f64 and f64 -> f16 directly (no double rounding through f32) */
    const double d[1] = {1.0 + 0x1p-11 + 0x1p-30}; /* f32 would round to the tie */
    base_convert(DT(F16), h, DT(F64), d, 1);
    assert_int_equal(h[0], 0x3C01);
}

static void test_convert_complex(void **state)
{
    (void)state;
    const double c[2] = {0.1, 1e300};
    float c64[2];
    base_convert(DT(C64), c64, DT(C128), c, 1);
    assert_true(c64[0] == 0.1f && isinf(c64[1]));
    double back[2];
    base_convert(DT(C128), back, DT(C64), c64, 1);
    assert_true(back[0] == (double)0.1f && isinf(back[1]));
    uint16_t h;
    base_convert(DT(F16), &h, DT(C64), c64, 1);
    assert_int_equal(h, 0x2E66);
    const uint16_t bf = 0x3F80;
    base_convert(DT(C64), c64, DT(BF16), &bf, 1);
    assert_true(c64[0] == 1.0f && c64[1] == 0.0f);
}

/* Every pair runs and agrees with the element accessors on a mixed sample. */
static void test_convert_all_pairs_agree_with_elem_access(void **state)
{
    (void)state;
    static const double sample[] = {0.0, -0.0, 1.0, -1.0, 2.5, -3.75, 100.25, -1000.5, 7.0, 1e-3,
                                    65504.0, 1e10, -1e10, 0.1, 3.0, 255.0};
    enum { N = ARRAY_LEN(sample) };
    for (int s = 0; s < BASE_DT_COUNT; s++) {
        unsigned char src[N * 16];
        for (int i = 0; i < N; i++) base_elem_set_f64((enum base_dtype)s, src, (size_t)i, sample[i]);
        for (int d = 0; d < BASE_DT_COUNT; d++) {
            unsigned char dst[N * 16], want[N * 16];
            memset(dst, 0xAA, sizeof dst);
            memset(want, 0xAA, sizeof want);
            base_convert((enum base_dtype)d, dst, (enum base_dtype)s, src, N);
            for (int i = 0; i < N; i++) {
                enum base_dtype sd = (enum base_dtype)s, dd = (enum base_dtype)d;
                if (base_dtype_is_int(sd) || sd == DT(I1)) {
                    /* the sample keeps unsigned values below 2^63 */
                    int64_t v = base_elem_get_i64(sd, src, (size_t)i);
                    base_elem_set_i64(dd, want, (size_t)i, dd == DT(I1) ? v != 0 : v);
                } else {
                    double re, im;
                    base_elem_get_c128(sd, src, (size_t)i, &re, &im);
                    base_elem_set_c128(dd, want, (size_t)i, re, im);
                }
            }
            if (memcmp(dst, want, N * base_dtype_size((enum base_dtype)d)) != 0) {
                print_error("convert %s -> %s disagrees with element access\n",
                            base_dtype_name((enum base_dtype)s), base_dtype_name((enum base_dtype)d));
                fail();
            }
        }
    }
}

/* The fast loops give the same bits as the codec on random data. */
static void test_convert_fast_pairs_match_codec(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint32_t f32[N], f32b[N];
    static uint16_t h16[N];
    static uint64_t f64[N], out64[N];
    static int32_t i32[N];
    static int64_t i64[N];
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (int i = 0; i < N; i++) {
        f32[i] = (uint32_t)base_rng_next(&r);
        f64[i] = base_rng_next(&r);
        i32[i] = (int32_t)base_rng_next(&r);
        i64[i] = (int64_t)base_rng_next(&r) >> (base_rng_next(&r) % 64);
    }
    base_convert(DT(BF16), h16, DT(F32), f32, N);
    for (int i = 0; i < N; i++) CHECK_U64(h16[i], enc(DT(BF16), (double)bits_f(f32[i])));
    base_convert(DT(F32), f32b, DT(BF16), h16, N);
    for (int i = 0; i < N; i++) CHECK_U64(f32b[i], enc(DT(F32), dec(DT(BF16), h16[i])));
    base_convert(DT(F16), h16, DT(F32), f32, N);
    for (int i = 0; i < N; i++) CHECK_U64(h16[i], enc(DT(F16), (double)bits_f(f32[i])));
    base_convert(DT(F32), f32b, DT(F16), h16, N);
    for (int i = 0; i < N; i++) CHECK_U64(f32b[i], enc(DT(F32), dec(DT(F16), h16[i])));
    base_convert(DT(F64), out64, DT(F32), f32, N);
    for (int i = 0; i < N; i++) CHECK_U64(out64[i], enc(DT(F64), (double)bits_f(f32[i])));
    base_convert(DT(F32), f32b, DT(F64), f64, N);
    for (int i = 0; i < N; i++) CHECK_U64(f32b[i], enc(DT(F32), bits_d(f64[i])));
    base_convert(DT(F32), f32b, DT(SI32), i32, N);
    for (int i = 0; i < N; i++) CHECK_U64(f32b[i], base_float_bits_from_i64(DT(F32), i32[i]));
    base_convert(DT(F32), f32b, DT(SI64), i64, N);
    for (int i = 0; i < N; i++) CHECK_U64(f32b[i], base_float_bits_from_i64(DT(F32), i64[i]));
    base_convert(DT(F64), out64, DT(SI32), i32, N);
    for (int i = 0; i < N; i++) CHECK_U64(out64[i], base_float_bits_from_i64(DT(F64), i32[i]));
    base_convert(DT(F64), out64, DT(BF16), h16, N);
    for (int i = 0; i < N; i++) CHECK_U64(out64[i], enc(DT(F64), dec(DT(BF16), h16[i])));
    base_convert(DT(F64), out64, DT(SI64), i64, N);
    for (int i = 0; i < N; i++) CHECK_U64(out64[i], base_float_bits_from_i64(DT(F64), i64[i]));
    base_convert(DT(SI64), i64, DT(SI32), i32, N);
    for (int i = 0; i < N; i++) assert_true(i64[i] == i32[i]);
    static int64_t wide[N];
    for (int i = 0; i < N; i++) wide[i] = (int64_t)base_rng_next(&r);
    base_convert(DT(SI32), i32, DT(SI64), wide, N);
    for (int i = 0; i < N; i++) assert_true(i32[i] == (int32_t)(uint32_t)(uint64_t)wide[i]);
    static double dd[N];
    for (int i = 0; i < N; i++) dd[i] = bits_d(f64[i]);
    base_convert(DT(SI64), wide, DT(F64), dd, N);
    base_convert(DT(SI32), i32, DT(F64), dd, N);
    for (int i = 0; i < N; i++) {
        double t = trunc(dd[i]);
        int64_t w64 = isnan(t) ? 0 : t >= 0x1p63 ? INT64_MAX : t < -0x1p63 ? INT64_MIN : (int64_t)t;
        int64_t w32 = isnan(t) ? 0 : t >= 0x1p31 ? INT32_MAX : t < -0x1p31 ? INT32_MIN : (int64_t)t;
        assert_true(wide[i] == w64);
        assert_true(i32[i] == w32);
    }
    const uint8_t bools[3] = {1, 0, 1};
    float fl[3];
    base_convert(DT(F32), fl, DT(I1), bools, 3);
    assert_true(fl[0] == 1.0f && fl[1] == 0.0f && fl[2] == 1.0f);
    base_convert(DT(SI32), i32, DT(F32), f32, N);
    base_convert(DT(SI64), i64, DT(F32), f32, N);
    for (int i = 0; i < N; i++) {
        float x = bits_f(f32[i]);
        double t = trunc((double)x);
        int64_t w32 = isnan(x) ? 0 : t >= 2147483647.0 ? INT32_MAX : t <= -2147483648.0 ? INT32_MIN : (int64_t)t;
        int64_t w64 = isnan(x) ? 0 : t >= 0x1p63 ? INT64_MAX : t <= -0x1p63 ? INT64_MIN : (int64_t)t;
        assert_int_equal(i32[i], w32);
        assert_true(i64[i] == w64);
    }
}

/* base_elems_splat: every element's bits equal to the first's (whole-byte
 * types by one memcmp, sub-byte types element by element). */
static void test_dtype_elems_splat(void **state)
{
    (void)state;
    uint16_t bf[5];
    for (int i = 0; i < 5; i++) base_elem_set_f64(BASE_DT_BF16, bf, (size_t)i, 1.5);
    assert_true(base_elems_splat(BASE_DT_BF16, bf, 5));
    base_elem_set_f64(BASE_DT_BF16, bf, 4, -1.5);
    assert_false(base_elems_splat(BASE_DT_BF16, bf, 5));
    assert_true(base_elems_splat(BASE_DT_BF16, bf, 4));
    assert_true(base_elems_splat(BASE_DT_BF16, bf, 1));
    assert_false(base_elems_splat(BASE_DT_BF16, bf, 0));
    float f[3] = {0.0f, -0.0f, 0.0f}; /* equal as numbers, not as bits */
    assert_false(base_elems_splat(BASE_DT_F32, f, 3));
    uint8_t s4[4];
    for (int i = 0; i < 4; i++) base_elem_set_i64(BASE_DT_SI4, s4, (size_t)i, -3);
    assert_true(base_elems_splat(BASE_DT_SI4, s4, 4));
    base_elem_set_i64(BASE_DT_SI4, s4, 2, 5);
    assert_false(base_elems_splat(BASE_DT_SI4, s4, 4));
}

/* The bf16 parts of the TPU's f32 passes: finite values split exactly
 * (to 2^-24), a non-finite one has no low parts, and a value whose nearest
 * bf16 would overflow splits into finite parts (diff_fuzz: inf x 1 gave
 * NaN through inf - inf). */
static void test_f32_bf16_parts(void **state)
{
    (void)state;
    float p[3];
    base_f32_bf16_parts(1.0f, p);
    assert_true(p[0] == 1.0f && p[1] == 0 && p[2] == 0);
    base_f32_bf16_parts(1.0f + 0x1p-10f + 0x1p-20f, p);
    assert_true(p[0] == 1.0f && p[1] == 0x1p-10f && p[2] == 0x1p-20f);
    base_f32_bf16_parts(INFINITY, p);
    assert_true(p[0] == INFINITY && p[1] == 0 && p[2] == 0);
    base_f32_bf16_parts(-INFINITY, p);
    assert_true(p[0] == -INFINITY && p[1] == 0 && p[2] == 0);
    base_f32_bf16_parts(NAN, p);
    assert_true(isnan(p[0]) && p[1] == 0 && p[2] == 0);
    float big = 0x1.fffffep127f; /* FLT_MAX: its nearest bf16 is inf */
    base_f32_bf16_parts(big, p);
    assert_true(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
    assert_true((double)p[0] + (double)p[1] + (double)p[2] == (double)big);
    base_f32_bf16_parts(-big, p);
    assert_true(isfinite(p[0]) && (double)p[0] + (double)p[1] + (double)p[2] == -(double)big);
}

TEST_MAIN(NULL, NULL,
          T(test_dtype_elems_splat),
          T(test_dtype_names_parse_back),
          T(test_dtype_parse_mlir_spellings),
          T(test_dtype_parse_uses_length_not_nul),
          T(test_dtype_parse_rejects_non_types),
          T(test_dtype_bits_sizes_kinds),
          T(test_dtype_component_of_complex),
          T(test_dtype_int_limits),
          T(test_float_format_limits),
          T(test_float_format_flags),
          T(test_float_known_bit_patterns),
          T(test_float_f4e2m1_all_values),
          T(test_float_known_decodings),
          T(test_float_ties_round_to_even),
          T(test_float_e8m0_rounds_ties_up),
          T(test_float_subnormal_rounding),
          T(test_float_overflow_per_format),
          T(test_float_infinity_inputs),
          T(test_float_nan_canonical_per_format),
          T(test_float_e8m0_zero_and_negative),
          T(test_float_round_helper),
          T(test_float_from_int_single_rounding),
          T(test_float_from_int_matches_host_fpu),
          T(test_float_small_formats_roundtrip_exactly),
          T(test_float_small_formats_monotonic_and_symmetric),
          T(test_float_small_formats_special_counts),
          T(test_float_small_formats_midpoints),
          T(test_fast_bf16_matches_codec),
          T(test_fast_f16_decode_matches_codec),
          T(test_fast_f16_encode_matches_codec),
          T(test_codec_f32_matches_host_fpu),
          T(test_elem_subbyte_ints_wrap_and_sign_extend),
          T(test_elem_wide_ints),
          T(test_elem_i1_is_zero_or_one),
          T(test_elem_set_f64_truncates_and_saturates_ints),
          T(test_elem_floats_round_on_set),
          T(test_elem_bits_roundtrip),
          T(test_elem_complex_parts),
          T(test_convert_mlir_i1_sources),
          T(test_convert_mlir_int_sources),
          T(test_convert_mlir_float_and_complex_sources),
          T(test_convert_int_to_int_wraps),
          T(test_convert_float_to_int_truncates_saturates),
          T(test_convert_to_bool_is_nonzero),
          T(test_convert_int_to_float_single_rounding),
          T(test_convert_float_to_float),
          T(test_convert_complex),
          T(test_convert_all_pairs_agree_with_elem_access),
          T(test_convert_fast_pairs_match_codec),
          T(test_f32_bf16_parts))
