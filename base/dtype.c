/* Element types: the dtype table, an exact minifloat codec, element access
 * on raw storage and StableHLO `convert`.
 *
 * Every float format goes through one codec (encode_exact / decode_bits),
 * parametrised by struct base_float_format plus a NaN encoding.  A value to
 * encode is held exactly as sign * m * 2^e with a 64-bit m, so doubles and
 * 64-bit integers are rounded once, to nearest even.  Special cases follow
 * LLVM APFloat (the StableHLO reference interpreter's arithmetic):
 *  - overflow: inf where the format has it, else NaN (NanOnly formats), else
 *    the largest finite value (FiniteOnly f4/f6);
 *  - FNUZ formats have one NaN (0x80) and no -0 (a -0 result becomes +0);
 *  - f8E8M0FNU has no zero: zero and underflow give the smallest value 2^-127
 *    (0x00), as APFloat's makeSmallestNormalized does; ties round up (its
 *    only significand bit is the implicit 1).  Negative inputs, which APFloat
 *    cannot represent, give NaN (0xFF).
 * f4/f6 have neither NaN nor inf: inf saturates to +-max and NaN becomes +0
 * (the MX spec leaves NaN conversion implementation-defined).
 *
 * Storage is little-endian (the host's; npusim runs on little-endian hosts). */
#include "base/base.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The dtype table                                                           */

static const char *const dtype_names[] = {
#define X(e, name, bits, bytes, kind) name,
    BASE_DTYPES(X)
#undef X
};
_Static_assert(ARRAY_LEN(dtype_names) == BASE_DT_COUNT, "dtype names");

static const unsigned char dtype_bits[] = {
#define X(e, name, bits, bytes, kind) bits,
    BASE_DTYPES(X)
#undef X
};
_Static_assert(ARRAY_LEN(dtype_bits) == BASE_DT_COUNT, "dtype bits");

static const unsigned char dtype_bytes[] = {
#define X(e, name, bits, bytes, kind) bytes,
    BASE_DTYPES(X)
#undef X
};
_Static_assert(ARRAY_LEN(dtype_bytes) == BASE_DT_COUNT, "dtype bytes");

static const enum base_dtype_kind dtype_kinds[] = {
#define X(e, name, bits, bytes, kind) BASE_KIND_##kind,
    BASE_DTYPES(X)
#undef X
};
_Static_assert(ARRAY_LEN(dtype_kinds) == BASE_DT_COUNT, "dtype kinds");

const char *base_dtype_name(enum base_dtype dt)
{
    if ((unsigned)dt >= BASE_DT_COUNT) return "?";
    return dtype_names[dt];
}

int base_dtype_bits(enum base_dtype dt)
{
    BASE_ASSERT((unsigned)dt < BASE_DT_COUNT);
    return dtype_bits[dt];
}

size_t base_dtype_size(enum base_dtype dt)
{
    BASE_ASSERT((unsigned)dt < BASE_DT_COUNT);
    return dtype_bytes[dt];
}

enum base_dtype_kind base_dtype_kind(enum base_dtype dt)
{
    BASE_ASSERT((unsigned)dt < BASE_DT_COUNT);
    return dtype_kinds[dt];
}

bool base_dtype_parse(const char *s, size_t n, enum base_dtype *out)
{
    for (int i = 0; i < BASE_DT_COUNT; i++) {
        const char *name = dtype_names[i];
        if (strlen(name) == n && memcmp(name, s, n) == 0) {
            *out = (enum base_dtype)i;
            return true;
        }
    }
    return false;
}

enum base_dtype base_dtype_component(enum base_dtype dt)
{
    if (dt == BASE_DT_C64) return BASE_DT_F32;
    if (dt == BASE_DT_C128) return BASE_DT_F64;
    return dt;
}

int64_t base_int_min(enum base_dtype dt)
{
    enum base_dtype_kind k = base_dtype_kind(dt);
    if (k != BASE_KIND_SINT) return 0;
    return (int64_t)(UINT64_C(0) - (UINT64_C(1) << (base_dtype_bits(dt) - 1)));
}

uint64_t base_int_max(enum base_dtype dt)
{
    enum base_dtype_kind k = base_dtype_kind(dt);
    int bits = base_dtype_bits(dt);
    if (k == BASE_KIND_BOOL) return 1;
    if (k == BASE_KIND_SINT) return (UINT64_C(1) << (bits - 1)) - 1;
    if (k == BASE_KIND_UINT) return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Float formats                                                             */

enum nan_kind {
    NAN_IEEE,     /* exponent all ones, mantissa != 0; canonical: quiet bit */
    NAN_ALL_ONES, /* S.1111.111 (f8E4M3FN); E8M0's 0xFF */
    NAN_NEG_ZERO, /* 0x80 (FNUZ) */
    NAN_NONE,     /* f4/f6 */
};

struct fmt_info {
    struct base_float_format f;
    enum nan_kind nan;
    uint64_t max_mag; /* magnitude bits of the largest finite value */
};

#define MASK(n) ((UINT64_C(1) << (n)) - 1)
/* X(dt, exp, man, bias, sign, inf, nan, negzero, zero, max, min_normal, min_sub, nankind, max_mag) */
#define FLOAT_FORMATS(X)                                                                        \
    X(F4E2M1FN, 2, 1, 1, 1, 0, 0, 1, 1, 0x1.8p2, 0x1p0, 0x1p-1, NAN_NONE, 0x7)                  \
    X(F6E2M3FN, 2, 3, 1, 1, 0, 0, 1, 1, 0x1.ep2, 0x1p0, 0x1p-3, NAN_NONE, 0x1F)                 \
    X(F6E3M2FN, 3, 2, 3, 1, 0, 0, 1, 1, 0x1.cp4, 0x1p-2, 0x1p-4, NAN_NONE, 0x1F)                \
    X(F8E3M4, 3, 4, 3, 1, 1, 1, 1, 1, 0x1.fp3, 0x1p-2, 0x1p-6, NAN_IEEE, 0x6F)                  \
    X(F8E4M3, 4, 3, 7, 1, 1, 1, 1, 1, 0x1.ep7, 0x1p-6, 0x1p-9, NAN_IEEE, 0x77)                  \
    X(F8E4M3FN, 4, 3, 7, 1, 0, 1, 1, 1, 0x1.cp8, 0x1p-6, 0x1p-9, NAN_ALL_ONES, 0x7E)            \
    X(F8E4M3FNUZ, 4, 3, 8, 1, 0, 1, 0, 1, 0x1.ep7, 0x1p-7, 0x1p-10, NAN_NEG_ZERO, 0x7F)         \
    X(F8E4M3B11FNUZ, 4, 3, 11, 1, 0, 1, 0, 1, 0x1.ep4, 0x1p-10, 0x1p-13, NAN_NEG_ZERO, 0x7F)    \
    X(F8E5M2, 5, 2, 15, 1, 1, 1, 1, 1, 0x1.cp15, 0x1p-14, 0x1p-16, NAN_IEEE, 0x7B)              \
    X(F8E5M2FNUZ, 5, 2, 16, 1, 0, 1, 0, 1, 0x1.cp15, 0x1p-15, 0x1p-17, NAN_NEG_ZERO, 0x7F)      \
    X(F8E8M0FNU, 8, 0, 127, 0, 0, 1, 0, 0, 0x1p127, 0x1p-127, 0x1p-127, NAN_ALL_ONES, 0xFE)     \
    X(BF16, 8, 7, 127, 1, 1, 1, 1, 1, 0x1.fep127, 0x1p-126, 0x1p-133, NAN_IEEE, 0x7F7F)         \
    X(F16, 5, 10, 15, 1, 1, 1, 1, 1, 0x1.ffcp15, 0x1p-14, 0x1p-24, NAN_IEEE, 0x7BFF)            \
    X(F32, 8, 23, 127, 1, 1, 1, 1, 1, 0x1.fffffep127, 0x1p-126, 0x1p-149, NAN_IEEE, 0x7F7FFFFF) \
    X(F64, 11, 52, 1023, 1, 1, 1, 1, 1, 0x1.fffffffffffffp1023, 0x1p-1022, 0x1p-1074, NAN_IEEE, \
      UINT64_C(0x7FEFFFFFFFFFFFFF))

enum float_index {
#define X(dt, ...) FMT_##dt,
    FLOAT_FORMATS(X)
#undef X
    FMT_COUNT
};

/* every FLOAT kind in BASE_DTYPES has a row here */
#define COUNT_FLOAT(e, name, bits, bytes, kind) +(BASE_KIND_##kind == BASE_KIND_FLOAT)
_Static_assert(FMT_COUNT == 0 BASE_DTYPES(COUNT_FLOAT), "a float dtype lacks a format");
#undef COUNT_FLOAT

static const struct fmt_info fmt_table[] = {
#define X(dt, e, m, b, s, inf, nan, nz, z, mx, mn, ms, nk, mm) \
    {{e, m, b, s, inf, nan, nz, z, mx, mn, ms}, nk, mm},
    FLOAT_FORMATS(X)
#undef X
};
_Static_assert(ARRAY_LEN(fmt_table) == FMT_COUNT, "float formats");

/* dtype -> index in fmt_table, -1 for non-floats */
static int fmt_index(enum base_dtype dt)
{
    switch (dt) {
#define X(dt, ...) \
    case BASE_DT_##dt: return FMT_##dt;
        FLOAT_FORMATS(X)
#undef X
    default: return -1;
    }
}

static const struct fmt_info *fmt_info(enum base_dtype dt)
{
    int k = fmt_index(dt);
    BASE_ASSERT(k >= 0);
    return &fmt_table[k < 0 ? 0 : k]; /* (the assert stops first; cppcheck cannot tell) */
}

const struct base_float_format *base_float_format(enum base_dtype dt)
{
    int k = fmt_index(dt);
    return k < 0 ? NULL : &fmt_table[k].f;
}

/* ------------------------------------------------------------------------ */
/* The generic codec                                                         */

static int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }

static uint64_t sign_bit(const struct fmt_info *fi, bool neg)
{
    if (!fi->f.has_sign || !neg) return 0;
    return UINT64_C(1) << (fi->f.exp_bits + fi->f.man_bits);
}

static uint64_t nan_bits(const struct fmt_info *fi, bool neg)
{
    int e = fi->f.exp_bits, m = fi->f.man_bits;
    switch (fi->nan) {
    case NAN_IEEE: return sign_bit(fi, neg) | (MASK(e) << m) | (UINT64_C(1) << (m - 1));
    case NAN_ALL_ONES: return sign_bit(fi, neg) | MASK(e + m);
    case NAN_NEG_ZERO: return UINT64_C(1) << (e + m);
    case NAN_NONE: break;
    }
    return 0; /* f4/f6: NaN -> +0 (see the file comment) */
}

static uint64_t zero_bits(const struct fmt_info *fi, bool neg)
{
    /* no zero (E8M0): the smallest value, 2^-127, encoded 0 */
    return fi->f.has_neg_zero ? sign_bit(fi, neg) : 0;
}

/* Result of a value too large for the format, or of an infinity. */
static uint64_t overflow_bits(const struct fmt_info *fi, bool neg)
{
    if (fi->f.has_inf) return sign_bit(fi, neg) | (MASK(fi->f.exp_bits) << fi->f.man_bits);
    if (fi->f.has_nan) return nan_bits(fi, neg);
    return sign_bit(fi, neg) | fi->max_mag;
}

/* m >> sh rounded to nearest, ties to even; sh >= 1. */
static uint64_t shift_rne(uint64_t m, int sh)
{
    if (sh >= 64) return (sh == 64 && m > (UINT64_C(1) << 63)) ? 1 : 0;
    uint64_t n = m >> sh;
    uint64_t rem = m & MASK(sh);
    uint64_t half = UINT64_C(1) << (sh - 1);
    if (rem > half || (rem == half && (n & 1))) n++;
    return n;
}

/* E8M0: powers of two 2^-127..2^127, APFloat rounding with a one-bit
 * significand (ties away), no zero, no negatives. */
static uint64_t encode_e8m0(bool neg, uint64_t m, int e)
{
    if (m == 0) return 0;
    if (neg) return 0xFF;
    int top = msb64(m);
    int ex = top + e;
    if (top > 0 && (m & MASK(top)) >= (UINT64_C(1) << (top - 1))) ex++;
    if (ex < -127) return 0;
    if (ex > 127) return 0xFF;
    return (uint64_t)(ex + 127);
}

/* Encodes (-1)^neg * m * 2^e, rounding once to nearest even. */
static uint64_t encode_exact(const struct fmt_info *fi, bool neg, uint64_t m, int e)
{
    if (fi->f.man_bits == 0) return encode_e8m0(neg, m, e);
    if (m == 0) return zero_bits(fi, neg);
    const int man = fi->f.man_bits, bias = fi->f.bias;
    const int emin = 1 - bias;
    int ex = msb64(m) + e;           /* value in [2^ex, 2^(ex+1)) */
    int q = (ex > emin ? ex : emin) - man; /* exponent of one ulp */
    int sh = q - e;
    uint64_t n = sh <= 0 ? m << -sh : shift_rne(m, sh);
    if (n == 0) return zero_bits(fi, neg);
    if (n >> (man + 1)) { /* rounding carried into the next binade */
        n >>= 1;
        q++;
    }
    uint64_t mag;
    if (n >> man) {
        int64_t biased = (int64_t)q + man + bias;
        if (biased > (int64_t)MASK(fi->f.exp_bits)) return overflow_bits(fi, neg);
        mag = ((uint64_t)biased << man) | (n & MASK(man));
    } else {
        mag = n; /* subnormal */
    }
    if (mag > fi->max_mag) return overflow_bits(fi, neg);
    return sign_bit(fi, neg) | mag;
}

static uint64_t encode_f64(const struct fmt_info *fi, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    bool neg = u >> 63;
    int be = (int)((u >> 52) & 0x7FF);
    uint64_t frac = u & MASK(52);
    if (be == 0x7FF) {
        if (frac) return fi->f.man_bits == 0 ? 0xFF : nan_bits(fi, neg);
        if (fi->f.man_bits == 0) return 0xFF;
        return overflow_bits(fi, neg);
    }
    if (be == 0) return encode_exact(fi, neg, frac, -1074);
    return encode_exact(fi, neg, frac | (UINT64_C(1) << 52), be - 1075);
}

/* 2^k for k in the normal double range. */
static double pow2(int k)
{
    uint64_t u = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static double decode_bits(const struct fmt_info *fi, uint64_t bits)
{
    const int ebits = fi->f.exp_bits, man = fi->f.man_bits;
    if (fi == &fmt_table[FMT_F64]) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    if (man == 0) { /* E8M0 */
        bits &= 0xFF;
        return bits == 0xFF ? (double)NAN : pow2((int)bits - 127);
    }
    bool neg = fi->f.has_sign && ((bits >> (ebits + man)) & 1);
    uint64_t mag = bits & MASK(ebits + man);
    uint64_t bexp = mag >> man, frac = mag & MASK(man);
    double v;
    if (fi->nan == NAN_NEG_ZERO && neg && mag == 0) return (double)NAN;
    if (fi->nan == NAN_ALL_ONES && mag == MASK(ebits + man)) {
        v = (double)NAN;
    } else if (fi->nan == NAN_IEEE && bexp == MASK(ebits)) {
        v = frac ? (double)NAN : (double)INFINITY;
    } else if (bexp == 0) {
        v = (double)frac * pow2(1 - fi->f.bias - man); /* exact: frac < 2^52 */
    } else { /* same significand bits, rebiased into a double */
        uint64_t u = (uint64_t)((int64_t)bexp - fi->f.bias + 1023) << 52 | frac << (52 - man);
        memcpy(&v, &u, sizeof v);
    }
    return neg ? -v : v;
}

uint64_t base_float_bits_from_f64(enum base_dtype dt, double v)
{
    return encode_f64(fmt_info(dt), v);
}

double base_float_f64_from_bits(enum base_dtype dt, uint64_t bits)
{
    return decode_bits(fmt_info(dt), bits);
}

uint64_t base_float_bits_from_i64(enum base_dtype dt, int64_t v)
{
    bool neg = v < 0;
    uint64_t m = neg ? UINT64_C(0) - (uint64_t)v : (uint64_t)v;
    return encode_exact(fmt_info(dt), neg, m, 0);
}

uint64_t base_float_bits_from_u64(enum base_dtype dt, uint64_t v)
{
    return encode_exact(fmt_info(dt), false, v, 0);
}

double base_float_round(enum base_dtype dt, double v)
{
    const struct fmt_info *fi = fmt_info(dt);
    return decode_bits(fi, encode_f64(fi, v));
}

/* ------------------------------------------------------------------------ */
/* Fast paths (bit-identical to the codec; tests check it)                   */

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline double f64_from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint16_t bf16_from_f32_bits(uint32_t u)
{
    if ((u & 0x7FFFFFFF) > 0x7F800000) return (uint16_t)(((u >> 16) & 0x8000) | 0x7FC0);
    u += 0x7FFF + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

static inline uint16_t f16_from_f32_bits(uint32_t x)
{
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    x &= 0x7FFFFFFF;
    if (x > 0x7F800000) return sign | 0x7E00;
    if (x >= 0x477FF000) return sign | 0x7C00; /* >= 65520 rounds to inf */
    if (x >= 0x38800000) {                     /* normal f16 */
        uint32_t r = x - 0x38000000;           /* rebias 127 -> 15 */
        r += 0xFFF + ((r >> 13) & 1);
        return sign | (uint16_t)(r >> 13);
    }
    if (x <= 0x33000000) return sign; /* <= 2^-25 rounds to zero */
    uint32_t m = (x & 0x7FFFFF) | 0x800000;
    int sh = 126 - (int)(x >> 23); /* value / 2^-24 = m >> sh, sh in 14..24 */
    uint32_t n = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (n & 1))) n++;
    return sign | (uint16_t)n;
}

static inline uint32_t f32_bits_from_f16(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return sign | (m ? 0x7FC00000u : 0x7F800000u);
    if (e == 0) {
        if (!m) return sign;
        int p = 31 - __builtin_clz(m); /* value = m * 2^-24 */
        return sign | ((uint32_t)(p + 103) << 23) | ((m << (23 - p)) & 0x7FFFFF);
    }
    return sign | ((e + 112) << 23) | (m << 13);
}

static inline uint32_t canon_nan32(uint32_t u)
{
    return (u & 0x7FFFFFFF) > 0x7F800000 ? (u & 0x80000000u) | 0x7FC00000u : u;
}

static inline uint64_t canon_nan64(uint64_t u)
{
    return (u & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF0000000000000)
               ? (u & (UINT64_C(1) << 63)) | UINT64_C(0x7FF8000000000000)
               : u;
}

uint16_t base_f32_to_bf16(float f) { return bf16_from_f32_bits(f32_bits(f)); }

void base_f32_bf16_parts(float v, float parts[3])
{
    parts[1] = parts[2] = 0;
    if (!isfinite(v)) {
        parts[0] = v;
        return;
    }
    for (int j = 0; j < 3; j++) {
        uint32_t u = f32_bits(v);
        float h = base_bf16_to_f32(bf16_from_f32_bits(u));
        if (!isfinite(h)) h = base_bf16_to_f32((uint16_t)(u >> 16)); /* rounded up past the largest: truncate */
        parts[j] = h;
        v = v - h;
    }
}
float base_f16_to_f32(uint16_t h) { return f32_from_bits(f32_bits_from_f16(h)); }
uint16_t base_f32_to_f16(float f) { return f16_from_f32_bits(f32_bits(f)); }

/* ------------------------------------------------------------------------ */
/* Raw storage                                                               */

static uint64_t load_raw(size_t size, const void *data, size_t i)
{
    const unsigned char *p = (const unsigned char *)data + i * size;
    switch (size) {
    case 1: return p[0];
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static void store_raw(size_t size, void *data, size_t i, uint64_t v)
{
    unsigned char *p = (unsigned char *)data + i * size;
    switch (size) {
    case 1: p[0] = (unsigned char)v; break;
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: memcpy(p, &v, 8); break;
    }
}

/* Truncates toward zero and saturates to dt's range (NaN -> 0). */
static int64_t f64_to_sint(double d, int bits)
{
    if (d != d) return 0;
    double t = trunc(d);
    double lim = ldexp(1.0, bits - 1);
    if (t >= lim) return (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
    if (t < -lim) return (int64_t)(UINT64_C(0) - (UINT64_C(1) << (bits - 1)));
    return (int64_t)t;
}

static uint64_t f64_to_uint(double d, int bits)
{
    if (d != d) return 0;
    double t = trunc(d);
    if (t <= 0) return 0;
    if (t >= ldexp(1.0, bits)) return bits == 64 ? UINT64_MAX : MASK(bits);
    return (uint64_t)t;
}

/* The storage encoding of an integer value of type dt, wrapped to width. */
static uint64_t int_storage(enum base_dtype dt, uint64_t v)
{
    int bits = base_dtype_bits(dt);
    enum base_dtype_kind k = base_dtype_kind(dt);
    if (k == BASE_KIND_BOOL) return v & 1;
    if (k == BASE_KIND_SINT) return (uint64_t)base_sext(v, bits);
    return bits >= 64 ? v : v & MASK(bits);
}

/* A value on its way through convert. */
enum val_kind { VAL_INT, VAL_UINT, VAL_FLOAT, VAL_COMPLEX };
struct val {
    enum val_kind kind;
    uint64_t u; /* VAL_INT: two's complement bits; VAL_UINT: value */
    double re, im;
};

/* What load/store need to know about a dtype, looked up once per call. */
struct dt_info {
    enum base_dtype dt;
    enum base_dtype_kind kind;
    size_t size;
    int bits;
    const struct fmt_info *fi; /* floats; the component format for complex */
};

static struct dt_info dt_info_of(enum base_dtype dt)
{
    struct dt_info d = {dt, base_dtype_kind(dt), base_dtype_size(dt), base_dtype_bits(dt), NULL};
    if (d.kind == BASE_KIND_FLOAT) d.fi = fmt_info(dt);
    if (d.kind == BASE_KIND_COMPLEX) d.fi = fmt_info(base_dtype_component(dt));
    return d;
}

static struct val load_val(const struct dt_info *d, const void *data, size_t i)
{
    struct val v = {VAL_INT, 0, 0, 0};
    switch (d->kind) {
    case BASE_KIND_BOOL:
        v.kind = VAL_UINT;
        v.u = load_raw(1, data, i) & 1;
        break;
    case BASE_KIND_SINT:
        v.kind = VAL_INT;
        v.u = (uint64_t)base_sext(load_raw(d->size, data, i), d->bits);
        break;
    case BASE_KIND_UINT:
        v.kind = VAL_UINT;
        v.u = load_raw(d->size, data, i);
        if (d->bits < 64) v.u &= MASK(d->bits);
        break;
    case BASE_KIND_FLOAT:
        v.kind = VAL_FLOAT;
        if (d->dt == BASE_DT_F64) v.re = f64_from_bits(load_raw(8, data, i));
        else if (d->dt == BASE_DT_F32) v.re = f32_from_bits((uint32_t)load_raw(4, data, i));
        else v.re = decode_bits(d->fi, load_raw(d->size, data, i));
        break;
    case BASE_KIND_COMPLEX:
        v.kind = VAL_COMPLEX;
        if (d->dt == BASE_DT_C64) {
            v.re = f32_from_bits((uint32_t)load_raw(4, data, 2 * i));
            v.im = f32_from_bits((uint32_t)load_raw(4, data, 2 * i + 1));
        } else {
            v.re = f64_from_bits(load_raw(8, data, 2 * i));
            v.im = f64_from_bits(load_raw(8, data, 2 * i + 1));
        }
        break;
    }
    return v;
}

/* Rounds v once to the float format fi (f64 keeps the double as is). */
static uint64_t float_bits_of_val(const struct fmt_info *fi, const struct val *v)
{
    if (v->kind == VAL_INT) {
        bool neg = (int64_t)v->u < 0;
        return encode_exact(fi, neg, neg ? UINT64_C(0) - v->u : v->u, 0);
    }
    if (v->kind == VAL_UINT) return encode_exact(fi, false, v->u, 0);
    if (fi == &fmt_table[FMT_F64]) return canon_nan64(f64_bits(v->re));
    return encode_f64(fi, v->re);
}

static void store_val(const struct dt_info *d, void *data, size_t i, const struct val *v)
{
    bool is_int = v->kind == VAL_INT || v->kind == VAL_UINT;
    uint64_t out;
    switch (d->kind) {
    case BASE_KIND_BOOL:
        out = is_int ? v->u != 0 : v->re != 0; /* NaN is nonzero */
        break;
    case BASE_KIND_SINT:
        out = is_int ? v->u : (uint64_t)f64_to_sint(v->re, d->bits);
        out = (uint64_t)base_sext(out, d->bits);
        break;
    case BASE_KIND_UINT:
        out = is_int ? v->u : f64_to_uint(v->re, d->bits);
        if (d->bits < 64) out &= MASK(d->bits);
        break;
    case BASE_KIND_FLOAT:
        out = float_bits_of_val(d->fi, v);
        break;
    case BASE_KIND_COMPLEX: {
        struct val im = {VAL_FLOAT, 0, v->kind == VAL_COMPLEX ? v->im : 0.0, 0};
        size_t cs = d->size / 2;
        store_raw(cs, data, 2 * i, float_bits_of_val(d->fi, v));
        store_raw(cs, data, 2 * i + 1, float_bits_of_val(d->fi, &im));
        return;
    }
    default: return;
    }
    store_raw(d->size, data, i, out); /* store_raw keeps the low bytes: wraps */
}

static struct val load_one(enum base_dtype dt, const void *data, size_t i)
{
    struct dt_info d = dt_info_of(dt);
    return load_val(&d, data, i);
}

static void store_one(enum base_dtype dt, void *data, size_t i, const struct val *v)
{
    struct dt_info d = dt_info_of(dt);
    store_val(&d, data, i, v);
}

int64_t base_elem_get_i64(enum base_dtype dt, const void *data, size_t i)
{
    struct val v = load_one(dt, data, i);
    if (v.kind == VAL_INT || v.kind == VAL_UINT) return (int64_t)v.u;
    return f64_to_sint(v.re, 64);
}

uint64_t base_elem_get_u64(enum base_dtype dt, const void *data, size_t i)
{
    struct val v = load_one(dt, data, i);
    if (v.kind == VAL_INT || v.kind == VAL_UINT) return v.u;
    return f64_to_uint(v.re, 64);
}

void base_elem_set_i64(enum base_dtype dt, void *data, size_t i, int64_t x)
{
    if (dt == BASE_DT_I1) { /* wraps to one bit, like every int type (convert uses != 0) */
        ((unsigned char *)data)[i] = (unsigned char)(x & 1);
        return;
    }
    struct val v = {VAL_INT, (uint64_t)x, 0, 0};
    store_one(dt, data, i, &v);
}

double base_elem_get_f64(enum base_dtype dt, const void *data, size_t i)
{
    struct val v = load_one(dt, data, i);
    if (v.kind == VAL_INT) return (double)(int64_t)v.u;
    if (v.kind == VAL_UINT) return (double)v.u;
    return v.re;
}

void base_elem_set_f64(enum base_dtype dt, void *data, size_t i, double x)
{
    struct val v = {VAL_FLOAT, 0, x, 0};
    store_one(dt, data, i, &v);
}

uint64_t base_elem_get_bits(enum base_dtype dt, const void *data, size_t i)
{
    size_t size = base_dtype_size(dt);
    int bits = base_dtype_bits(dt);
    if (dt == BASE_DT_C128) return load_raw(8, data, 2 * i); /* real part only */
    uint64_t raw = load_raw(size, data, i);
    return bits >= 64 ? raw : raw & MASK(bits);
}

bool base_elems_splat(enum base_dtype dt, const void *data, int64_t count)
{
    if (!data || count < 1) return false;
    size_t size = base_dtype_size(dt);
    if (dt != BASE_DT_C128 && (size_t)base_dtype_bits(dt) == 8 * size)
        return count == 1 || !memcmp((const char *)data + size, data, (size_t)(count - 1) * size);
    uint64_t b0 = base_elem_get_bits(dt, data, 0);
    for (int64_t i = 1; i < count; i++)
        if (base_elem_get_bits(dt, data, (size_t)i) != b0) return false;
    return true;
}

void base_elem_set_bits(enum base_dtype dt, void *data, size_t i, uint64_t bits)
{
    enum base_dtype_kind k = base_dtype_kind(dt);
    if (dt == BASE_DT_C128) {
        store_raw(8, data, 2 * i, bits);
        return;
    }
    if (k == BASE_KIND_BOOL || k == BASE_KIND_SINT || k == BASE_KIND_UINT) {
        store_raw(base_dtype_size(dt), data, i, int_storage(dt, bits));
        return;
    }
    int nb = base_dtype_bits(dt);
    store_raw(base_dtype_size(dt), data, i, nb >= 64 ? bits : bits & MASK(nb));
}

void base_elem_get_c128(enum base_dtype dt, const void *data, size_t i, double *re, double *im)
{
    struct val v = load_one(dt, data, i);
    *im = 0;
    if (v.kind == VAL_INT) *re = (double)(int64_t)v.u;
    else if (v.kind == VAL_UINT) *re = (double)v.u;
    else {
        *re = v.re;
        *im = v.im;
    }
}

void base_elem_set_c128(enum base_dtype dt, void *data, size_t i, double re, double im)
{
    struct val v = {VAL_COMPLEX, 0, re, im};
    store_one(dt, data, i, &v);
}

/* ------------------------------------------------------------------------ */
/* convert                                                                   */

/* Tight loops for the hot pairs.  Loads and stores go through memcpy so that
 * unaligned buffers are fine; compilers turn them into plain moves. */
#define CONVERT_LOOP(SRC_T, DST_T, EXPR)                       \
    do {                                                       \
        const unsigned char *s_ = src;                         \
        unsigned char *d_ = dst;                               \
        for (size_t i_ = 0; i_ < n; i_++) {                    \
            SRC_T x;                                           \
            memcpy(&x, s_ + i_ * sizeof(SRC_T), sizeof x);     \
            DST_T y = (EXPR);                                  \
            memcpy(d_ + i_ * sizeof(DST_T), &y, sizeof y);     \
        }                                                      \
    } while (0)

static inline int32_t f32_to_i32_sat(float f)
{
    if (f != f) return 0;
    if (f >= 2147483648.0f) return INT32_MAX;
    if (f <= -2147483648.0f) return INT32_MIN;
    return (int32_t)f;
}

static inline int64_t f32_to_i64_sat(float f)
{
    if (f != f) return 0;
    if (f >= 9223372036854775808.0f) return INT64_MAX;
    if (f <= -9223372036854775808.0f) return INT64_MIN;
    return (int64_t)f;
}

static bool convert_fast(enum base_dtype dd, void *dst, enum base_dtype sd, const void *src, size_t n)
{
#define PAIR(a, b) ((unsigned)(a) * BASE_DT_COUNT + (unsigned)(b))
    switch (PAIR(sd, dd)) {
    case PAIR(BASE_DT_F32, BASE_DT_BF16): CONVERT_LOOP(uint32_t, uint16_t, bf16_from_f32_bits(x)); return true;
    case PAIR(BASE_DT_BF16, BASE_DT_F32): CONVERT_LOOP(uint16_t, uint32_t, canon_nan32((uint32_t)x << 16)); return true;
    case PAIR(BASE_DT_F32, BASE_DT_F16): CONVERT_LOOP(uint32_t, uint16_t, f16_from_f32_bits(x)); return true;
    case PAIR(BASE_DT_F16, BASE_DT_F32): CONVERT_LOOP(uint16_t, uint32_t, f32_bits_from_f16(x)); return true;
    case PAIR(BASE_DT_F32, BASE_DT_F64):
        CONVERT_LOOP(uint32_t, uint64_t, canon_nan64(f64_bits((double)f32_from_bits(x))));
        return true;
    case PAIR(BASE_DT_F64, BASE_DT_F32):
        CONVERT_LOOP(uint64_t, uint32_t, canon_nan32(f32_bits((float)f64_from_bits(x))));
        return true;
    case PAIR(BASE_DT_SI32, BASE_DT_F32): CONVERT_LOOP(int32_t, float, (float)x); return true;
    case PAIR(BASE_DT_SI64, BASE_DT_F32): CONVERT_LOOP(int64_t, float, (float)x); return true;
    case PAIR(BASE_DT_F32, BASE_DT_SI32): CONVERT_LOOP(float, int32_t, f32_to_i32_sat(x)); return true;
    case PAIR(BASE_DT_F32, BASE_DT_SI64): CONVERT_LOOP(float, int64_t, f32_to_i64_sat(x)); return true;
    case PAIR(BASE_DT_SI32, BASE_DT_F64): CONVERT_LOOP(int32_t, double, (double)x); return true;
    case PAIR(BASE_DT_BF16, BASE_DT_F64):
        CONVERT_LOOP(uint16_t, uint64_t, canon_nan64(f64_bits((double)f32_from_bits((uint32_t)x << 16))));
        return true;
    case PAIR(BASE_DT_SI64, BASE_DT_F64): CONVERT_LOOP(int64_t, double, (double)x); return true;
    case PAIR(BASE_DT_F64, BASE_DT_SI64): CONVERT_LOOP(double, int64_t, f64_to_sint(x, 64)); return true;
    case PAIR(BASE_DT_F64, BASE_DT_SI32): CONVERT_LOOP(double, int32_t, (int32_t)f64_to_sint(x, 32)); return true;
    case PAIR(BASE_DT_SI32, BASE_DT_SI64): CONVERT_LOOP(int32_t, int64_t, x); return true;
    case PAIR(BASE_DT_SI64, BASE_DT_SI32): CONVERT_LOOP(int64_t, uint32_t, (uint32_t)x); return true;
    case PAIR(BASE_DT_I1, BASE_DT_F32): CONVERT_LOOP(uint8_t, float, (float)(x & 1)); return true;
    default: return false;
    }
#undef PAIR
}

void base_convert(enum base_dtype dst_dt, void *dst, enum base_dtype src_dt, const void *src, size_t n)
{
    if (n == 0) return;
    if (dst_dt == src_dt) {
        memmove(dst, src, n * base_dtype_size(src_dt));
        return;
    }
    if (convert_fast(dst_dt, dst, src_dt, src, n)) return;
    struct dt_info sd = dt_info_of(src_dt), dd = dt_info_of(dst_dt);
    for (size_t i = 0; i < n; i++) {
        struct val v = load_val(&sd, src, i);
        store_val(&dd, dst, i, &v);
    }
}
