/* Functional numerics of the elementwise engines (docs/isa.md, Numerics).
 *
 * Elements are read in their stored type and converted to f32 (exact for
 * bf16, f16, fp8 and ints up to 2^24); the arithmetic is f32, each
 * operation rounded (no fused multiply-add; immediates rounded to f32
 * first); results are converted to the destination type with round to
 * nearest even (integers: truncation toward zero with saturation, NaN to 0,
 * base_convert semantics).
 *  - Moves (copy, transpose, part_broadcast, select's chosen value) copy bits
 *    when source and destination types are equal, else convert through f32.
 *  - iota computes base + multiplier * p + i in f64 (exact) and converts once;
 *    memset converts its value directly.
 *  - Bitwise functions (and, or, xor, shl, shr, not) work on 32-bit two's
 *    complement integers (elements wrapped to 32 bits); a shift count outside
 *    0..31 gives 0 (or the sign fill for an arithmetic shr; shr is arithmetic
 *    for a signed src0 type, logical for an unsigned one).  tensor_scalar with
 *    two bitwise functions (or one and bypass) stays in integers; mixed with
 *    an arithmetic function, the bitwise step takes the truncated integer
 *    values of its f32 operands.
 *  - max/min give NaN when either input is NaN; comparisons give 1 or 0 (a
 *    NaN compares false except for ne).
 *  - Reductions fold in order from the first element (reduce: along the free
 *    index; part_reduce: partition outermost, then the free index), in f32
 *    (int32 for bitwise functions).
 *  - activate: t = f32(f32(src * scale) + bias), then f(t) evaluated in f64
 *    with the C library's f64 functions (exp, log, tanh, erf, sqrt, sin, cos,
 *    tan, expm1, log1p, cbrt); sigmoid(t) = 1 / (1 + exp(-t)); silu(t) =
 *    t / (1 + exp(-t)); gelu(t) = 0.5 t (1 + erf(t / sqrt 2)); gelu_tanh(t)
 *    = 0.5 t (1 + tanh(sqrt(2/pi) (t + 0.044715 t^3))); rsqrt(t) = 1 /
 *    sqrt(t); rounded once to the destination type.  pow and atan2 likewise
 *    when they are an instruction's last function (else rounded to f32).
 *  - rem is fmodf; floor, ceil, round_even, round_afz, sign, is_finite are
 *    exact in f32.
 *  - cast converts straight from the source type to the destination type
 *    (base_convert: StableHLO convert semantics), never through f32.
 *  - Integer functions (iadd .. clz) take every element exactly as a 64-bit
 *    integer (sign- or zero-extended), compute StableHLO's integer semantics
 *    at the width and signedness of src0's type, and store the result
 *    wrapped to the destination's width; reductions with them fold in
 *    64 bits. */
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

static bool is_bitwise(unsigned f)
{
    return f == ISA_ALU_AND || f == ISA_ALU_OR || f == ISA_ALU_XOR || f == ISA_ALU_SHL || f == ISA_ALU_SHR ||
           f == ISA_ALU_NOT;
}

/* max / min: a NaN operand is the result (a's first, its sign and payload
 * kept, as the interpreter's maximum and minimum give it: a NaN's sign is
 * visible to bitcasts and total-order compares); -0 < +0. */
static float fmax_nan(float a, float b)
{
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    return a > b ? a : (b > a ? b : (signbit(a) ? b : a));
}
static float fmin_nan(float a, float b)
{
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    return a < b ? a : (b < a ? b : (signbit(a) ? a : b));
}

static int64_t f2i(float v)
{
    if (isnan(v)) return 0;
    if (v >= 9.2233720368547758e18f) return INT64_MAX;
    if (v <= -9.2233720368547758e18f) return INT64_MIN;
    return (int64_t)v;
}

/* A bitwise function on the 32-bit two's complement wraps of a and b. */
static int64_t alu_i32(unsigned f, int64_t a64, int64_t b64, bool sign)
{
    int32_t a = (int32_t)(uint32_t)a64, b = (int32_t)(uint32_t)b64;
    switch ((enum isa_alu)f) {
    case ISA_ALU_AND: return a & b;
    case ISA_ALU_OR: return a | b;
    case ISA_ALU_XOR: return a ^ b;
    case ISA_ALU_NOT: return ~a;
    case ISA_ALU_SHL: return b < 0 || b > 31 ? 0 : (int32_t)((uint32_t)a << b);
    case ISA_ALU_SHR:
        if (b < 0 || b > 31) return sign && a < 0 ? -1 : 0;
        return sign ? a >> b : (int32_t)((uint32_t)a >> b);
    default: return a;
    }
}

/* An integer function (docs/isa.md) on 64-bit values; w and sgn: src0's type. */
static uint64_t alu_int(unsigned f, uint64_t a, uint64_t b, int w, bool sgn)
{
    uint64_t m = base_wmask(w);
    switch ((enum isa_alu)f) {
    case ISA_ALU_IADD: return a + b;
    case ISA_ALU_ISUB: return a - b;
    case ISA_ALU_IMUL: return a * b;
    case ISA_ALU_IDIV:
        if (sgn) {
            int64_t x = base_sext(a, w), y = base_sext(b, w);
            if (y == 0) return ~UINT64_C(0);
            if (y == -1) return 0 - a;
            return (uint64_t)(x / y);
        }
        if ((b & m) == 0) return ~UINT64_C(0);
        return (a & m) / (b & m);
    case ISA_ALU_IREM:
        if (sgn) {
            int64_t x = base_sext(a, w), y = base_sext(b, w);
            if (y == 0) return a;
            if (y == -1) return 0;
            return (uint64_t)(x % y);
        }
        if ((b & m) == 0) return a;
        return (a & m) % (b & m);
    case ISA_ALU_IMAX: return sgn ? (base_sext(a, w) > base_sext(b, w) ? a : b) : ((a & m) > (b & m) ? a : b);
    case ISA_ALU_IMIN: return sgn ? (base_sext(a, w) < base_sext(b, w) ? a : b) : ((a & m) < (b & m) ? a : b);
    case ISA_ALU_IPOW: return base_ipow(a, b, w, sgn);
    case ISA_ALU_ISHL: return (b & m) >= (uint64_t)w ? 0 : a << (b & m);
    case ISA_ALU_ISHRL: return (b & m) >= (uint64_t)w ? 0 : (a & m) >> (b & m);
    case ISA_ALU_ISHRA: {
        int64_t x = base_sext(a, w);
        if ((b & m) >= (uint64_t)w) return x < 0 ? ~UINT64_C(0) : 0;
        return (uint64_t)(x >> (b & m));
    }
    case ISA_ALU_IAND: return a & b;
    case ISA_ALU_IOR: return a | b;
    case ISA_ALU_IXOR: return a ^ b;
    case ISA_ALU_IEQ: return (a & m) == (b & m);
    case ISA_ALU_INE: return (a & m) != (b & m);
    case ISA_ALU_ILT: return sgn ? base_sext(a, w) < base_sext(b, w) : (a & m) < (b & m);
    case ISA_ALU_ILE: return sgn ? base_sext(a, w) <= base_sext(b, w) : (a & m) <= (b & m);
    case ISA_ALU_IGT: return sgn ? base_sext(a, w) > base_sext(b, w) : (a & m) > (b & m);
    case ISA_ALU_IGE: return sgn ? base_sext(a, w) >= base_sext(b, w) : (a & m) >= (b & m);
    case ISA_ALU_INEG: return 0 - a;
    case ISA_ALU_IABS: return sgn && base_sext(a, w) < 0 ? 0 - a : a;
    case ISA_ALU_INOT: return w == 1 ? !(a & 1) : ~a;
    case ISA_ALU_ISIGN:
        if (sgn) {
            int64_t x = base_sext(a, w);
            return x < 0 ? ~UINT64_C(0) : x > 0;
        }
        return (a & m) != 0;
    case ISA_ALU_POPCNT: return (uint64_t)__builtin_popcountll(a & m);
    case ISA_ALU_CLZ: return (a & m) == 0 ? (uint64_t)w : (uint64_t)(__builtin_clzll(a & m) - (64 - w));
    default: return a;
    }
}

static float fsign(float a) { return isnan(a) || a == 0 ? a : (a < 0 ? -1.0f : 1.0f); }

/* pow and atan2 in f64 (rounded by the caller). */
static double alu_f64(unsigned f, double a, double b)
{
    return f == ISA_ALU_ATAN2 ? atan2(a, b) : pow(a, b);
}


static float alu_f32(unsigned f, float a, float b)
{
    switch ((enum isa_alu)f) {
    case ISA_ALU_BYPASS: return a;
    case ISA_ALU_ADD: return a + b;
    case ISA_ALU_SUB: return a - b;
    case ISA_ALU_MUL: return a * b;
    case ISA_ALU_DIV: return a / b;
    case ISA_ALU_MAX: return fmax_nan(a, b);
    case ISA_ALU_MIN: return fmin_nan(a, b);
    case ISA_ALU_POW: return (float)pow((double)a, (double)b);
    case ISA_ALU_AND:
    case ISA_ALU_OR:
    case ISA_ALU_XOR:
    case ISA_ALU_SHL:
    case ISA_ALU_SHR: return (float)alu_i32(f, f2i(a), f2i(b), true);
    case ISA_ALU_EQ: return a == b ? 1.0f : 0.0f;
    case ISA_ALU_NE: return a != b ? 1.0f : 0.0f;
    case ISA_ALU_LT: return a < b ? 1.0f : 0.0f;
    case ISA_ALU_LE: return a <= b ? 1.0f : 0.0f;
    case ISA_ALU_GT: return a > b ? 1.0f : 0.0f;
    case ISA_ALU_GE: return a >= b ? 1.0f : 0.0f;
    case ISA_ALU_NEG: return -a;
    case ISA_ALU_ABS: return fabsf(a);
    case ISA_ALU_NOT: return (float)alu_i32(f, f2i(a), 0, true);
    case ISA_ALU_REM: return fmodf(a, b);
    case ISA_ALU_ATAN2: return (float)atan2((double)a, (double)b);
    case ISA_ALU_FLOOR: return floorf(a);
    case ISA_ALU_CEIL: return ceilf(a);
    case ISA_ALU_ROUND_EVEN: return nearbyintf(a);
    case ISA_ALU_ROUND_AFZ: return roundf(a);
    case ISA_ALU_SIGN: return fsign(a);
    case ISA_ALU_IS_FINITE: return isfinite(a) ? 1.0f : 0.0f;
    default: return NAN;
    }
}

/* An activation function of the f32 t, in f64 (rounded once by the caller). */
static double act_f64(unsigned f, float tf)
{
    double x = tf;
    switch ((enum isa_act)f) {
    case ISA_ACT_IDENTITY: return x;
    case ISA_ACT_EXP: return exp(x);
    case ISA_ACT_LOG: return log(x);
    case ISA_ACT_TANH: return tanh(x);
    case ISA_ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case ISA_ACT_GELU: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
    case ISA_ACT_GELU_TANH: {
        double inner = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
        return 0.5 * x * (1.0 + tanh(inner));
    }
    case ISA_ACT_SILU: return x / (1.0 + exp(-x));
    case ISA_ACT_RELU: return isnan(x) ? x : (x > 0 ? x : 0.0);
    case ISA_ACT_RSQRT: return 1.0 / sqrt(x);
    case ISA_ACT_SQRT: return sqrt(x);
    case ISA_ACT_RECIPROCAL: return 1.0 / x;
    case ISA_ACT_SQUARE: return x * x;
    case ISA_ACT_SIN: return sin(x);
    case ISA_ACT_COS: return cos(x);
    case ISA_ACT_ERF: return erf(x);
    case ISA_ACT_EXPM1: return expm1(x);
    case ISA_ACT_LOG1P: return log1p(x);
    case ISA_ACT_TAN: return tan(x);
    case ISA_ACT_CBRT: return cbrt(x);
    default: return NAN;
    }
}

/* Rounds f64 values once to ap's type and stores them. */
static enum base_status scatter_f64(struct sim *s, uint32_t core, const struct isa_ap *ap, const double *v)
{
    size_t n = (size_t)isa_ap_total_elems(ap);
    void *raw = sim_buf(s, SIM_BUF_RAW, n * sim_elem_size(ap));
    if (!raw) return BASE_ERR_NOMEM;
    base_convert((enum base_dtype)ap->dtype, raw, BASE_DT_F64, v, n);
    return sim_scatter_raw(s, core, ap, raw);
}


/* o[i] = f(a[i], b ? b[i] : c) for a row: the function chosen once, not per
 * element (the same f32 operations as alu_f32, so the same values). */
static void alu_row(unsigned f, float *o, const float *a, const float *b, float c, size_t n)
{
#define ROW(expr)                                    \
    do {                                             \
        if (b)                                       \
            for (size_t i = 0; i < n; i++) {         \
                float x = a[i], y = b[i];            \
                o[i] = (expr);                       \
            }                                        \
        else                                         \
            for (size_t i = 0; i < n; i++) {         \
                float x = a[i], y = c;               \
                o[i] = (expr);                       \
            }                                        \
    } while (0)
    switch ((enum isa_alu)f) {
    case ISA_ALU_BYPASS:
        if (o != a) memmove(o, a, n * sizeof *o);
        break;
    case ISA_ALU_ADD: ROW(x + y); break;
    case ISA_ALU_SUB: ROW(x - y); break;
    case ISA_ALU_MUL: ROW(x * y); break;
    case ISA_ALU_DIV: ROW(x / y); break;
    case ISA_ALU_MAX: ROW(fmax_nan(x, y)); break;
    case ISA_ALU_MIN: ROW(fmin_nan(x, y)); break;
    case ISA_ALU_EQ: ROW(x == y ? 1.0f : 0.0f); break;
    case ISA_ALU_NE: ROW(x != y ? 1.0f : 0.0f); break;
    case ISA_ALU_LT: ROW(x < y ? 1.0f : 0.0f); break;
    case ISA_ALU_LE: ROW(x <= y ? 1.0f : 0.0f); break;
    case ISA_ALU_GT: ROW(x > y ? 1.0f : 0.0f); break;
    case ISA_ALU_GE: ROW(x >= y ? 1.0f : 0.0f); break;
    case ISA_ALU_NEG: ROW(((void)y, -x)); break;
    case ISA_ALU_ABS: ROW(((void)y, fabsf(x))); break;
    default: ROW(alu_f32(f, x, y)); break;
    }
#undef ROW
}

/* r[i] = act(t[i]) in f64 for a row, the function chosen once. */
static void act_row_f64(unsigned f, const float *t, double *r, size_t n)
{
    switch ((enum isa_act)f) {
    case ISA_ACT_IDENTITY:
        for (size_t i = 0; i < n; i++) r[i] = t[i];
        break;
    case ISA_ACT_EXP:
        for (size_t i = 0; i < n; i++) r[i] = exp((double)t[i]);
        break;
    default:
        for (size_t i = 0; i < n; i++) r[i] = act_f64(f, t[i]);
        break;
    }
}

/* Folds v[0..n) from the first element in order: acc = f(acc, v[i]). */
static float fold_row(unsigned f, float acc, const float *v, size_t n)
{
    switch ((enum isa_alu)f) {
    case ISA_ALU_ADD:
        for (size_t i = 0; i < n; i++) acc = acc + v[i];
        break;
    case ISA_ALU_MUL:
        for (size_t i = 0; i < n; i++) acc = acc * v[i];
        break;
    case ISA_ALU_MAX:
        for (size_t i = 0; i < n; i++) acc = fmax_nan(acc, v[i]);
        break;
    case ISA_ALU_MIN:
        for (size_t i = 0; i < n; i++) acc = fmin_nan(acc, v[i]);
        break;
    default:
        for (size_t i = 0; i < n; i++) acc = alu_f32(f, acc, v[i]);
        break;
    }
    return acc;
}

/* Elements of ap as int64 (base_convert semantics) in scratch buffer `which`. */
static int64_t *gather_i64(struct sim *s, uint32_t core, const struct isa_ap *ap, int which)
{
    size_t n = (size_t)isa_ap_total_elems(ap);
    int64_t *out = sim_buf(s, which, n * sizeof(int64_t));
    void *raw = sim_buf(s, SIM_BUF_RAW, n * sim_elem_size(ap));
    if (!out || !raw) return NULL;
    sim_gather_raw(s, core, ap, raw);
    base_convert(BASE_DT_SI64, out, (enum base_dtype)ap->dtype, raw, n);
    return out;
}

static enum base_status scatter_i64(struct sim *s, uint32_t core, const struct isa_ap *ap, const int64_t *v)
{
    size_t n = (size_t)isa_ap_total_elems(ap);
    void *raw = sim_buf(s, SIM_BUF_RAW, n * sim_elem_size(ap));
    if (!raw) return BASE_ERR_NOMEM;
    base_convert((enum base_dtype)ap->dtype, raw, BASE_DT_SI64, v, n);
    return sim_scatter_raw(s, core, ap, raw);
}

/* Elements of ap as raw bytes of type dt (converted through f32 if it differs). */
static void *gather_as(struct sim *s, uint32_t core, const struct isa_ap *ap, enum base_dtype dt, int which)
{
    size_t n = (size_t)isa_ap_total_elems(ap), es = sim_elem_size(ap);
    if (ap->dtype == dt) {
        void *out = sim_buf(s, which, n * es);
        if (out) sim_gather_raw(s, core, ap, out);
        return out;
    }
    void *raw = sim_buf(s, SIM_BUF_RAW, n * es);
    void *out = sim_buf(s, which, n * base_dtype_size(dt));
    if (!raw || !out) return NULL;
    sim_gather_raw(s, core, ap, raw);
    sim_convert_via_f32(dt, out, (enum base_dtype)ap->dtype, raw, n);
    return out;
}

/* Product of the innermost `count` dims' counts (the group a reduce folds). */
static uint64_t inner_group(const struct isa_ap *ap, uint32_t count)
{
    uint64_t g = 1;
    for (uint32_t d = 0; d < count && d < ap->ndims; d++) g *= ap->count[ap->ndims - 1 - d];
    return g;
}

static bool int_signed(uint8_t dt) { return base_dtype_kind((enum base_dtype)dt) == BASE_KIND_SINT; }

static enum base_status compute_reduce(struct sim *s, struct sim_exec *x)
{
    const struct isa_instr *in = x->in;
    uint32_t core = x->e->core;
    const struct isa_ap *src = x->ap[1], *dst = x->ap[0];
    uint64_t P = src->part_count, F = isa_ap_free_elems(src), G = inner_group(src, in->count), J = F / (G ? G : 1);
    bool part = in->op == ISA_OP_PART_REDUCE;
    size_t nout = (size_t)isa_ap_total_elems(dst);
    if (isa_alu_is_int(in->func)) {
        int64_t *v = gather_i64(s, core, src, SIM_BUF_A), *o = sim_buf(s, SIM_BUF_B, nout * sizeof(int64_t));
        if (!v || !o) return BASE_ERR_NOMEM;
        bool sg = int_signed(src->dtype);
        int w = base_dtype_bits((enum base_dtype)src->dtype);
        for (uint64_t q = 0; q < (part ? 1 : P); q++)
            for (uint64_t j = 0; j < J; j++) {
                bool first = true;
                uint64_t acc = 0;
                for (uint64_t p = part ? 0 : q; p < (part ? P : q + 1); p++)
                    for (uint64_t i = 0; i < G; i++) {
                        uint64_t y = (uint64_t)v[p * F + j * G + i];
                        acc = first ? y : alu_int(in->func, acc, y, w, sg);
                        first = false;
                    }
                o[q * J + j] = (int64_t)acc;
            }
        return scatter_i64(s, core, dst, o);
    }
    if (is_bitwise(in->func)) {
        int64_t *v = gather_i64(s, core, src, SIM_BUF_A), *o = sim_buf(s, SIM_BUF_B, nout * sizeof(int64_t));
        if (!v || !o) return BASE_ERR_NOMEM;
        bool sg = int_signed(src->dtype);
        for (uint64_t q = 0; q < (part ? 1 : P); q++)
            for (uint64_t j = 0; j < J; j++) {
                bool first = true;
                int64_t acc = 0;
                for (uint64_t p = part ? 0 : q; p < (part ? P : q + 1); p++)
                    for (uint64_t i = 0; i < G; i++) {
                        int64_t y = v[p * F + j * G + i];
                        acc = first ? y : alu_i32(in->func, acc, y, sg);
                        first = false;
                    }
                o[q * J + j] = acc;
            }
        return scatter_i64(s, core, dst, o);
    }
    float *v = sim_gather_f32(s, core, src, SIM_BUF_A), *o = sim_buf(s, SIM_BUF_B, nout * sizeof(float));
    if (!v || !o) return BASE_ERR_NOMEM;
    for (uint64_t q = 0; q < (part ? 1 : P); q++)
        for (uint64_t j = 0; j < J; j++) {
            bool first = true;
            float acc = 0;
            for (uint64_t p = part ? 0 : q; p < (part ? P : q + 1); p++) {
                const float *row = v + p * F + j * G;
                if (!G) continue;
                if (first) {
                    acc = fold_row(in->func, row[0], row + 1, (size_t)G - 1);
                    first = false;
                } else {
                    acc = fold_row(in->func, acc, row, (size_t)G);
                }
            }
            o[q * J + j] = acc;
        }
    return sim_scatter_f32(s, core, dst, o);
}

enum base_status sim_compute_transpose(struct sim *s, struct sim_exec *x)
{
    uint32_t core = x->e->core;
    const struct isa_ap *src = x->ap[1], *dst = x->ap[0];
    enum base_dtype dt = (enum base_dtype)dst->dtype;
    size_t es = base_dtype_size(dt);
    uint64_t P = src->part_count, F = isa_ap_free_elems(src);
    const uint8_t *in = gather_as(s, core, src, dt, SIM_BUF_A);
    uint8_t *out = sim_buf(s, SIM_BUF_B, (size_t)(P * F) * es);
    if (!in || !out) return BASE_ERR_NOMEM;
    for (uint64_t p = 0; p < P; p++)
        for (uint64_t f = 0; f < F; f++) memcpy(out + (f * P + p) * es, in + (p * F + f) * es, es);
    return sim_scatter_raw(s, core, dst, out);
}

enum base_status sim_compute_elem(struct sim *s, struct sim_exec *x)
{
    const struct isa_instr *in = x->in;
    uint32_t core = x->e->core;
    const struct isa_ap *dst = x->ap[0];
    enum base_dtype ddt = (enum base_dtype)dst->dtype;
    size_t n = (size_t)isa_ap_total_elems(dst), es = base_dtype_size(ddt);
    uint64_t P = dst->part_count, F = isa_ap_free_elems(dst);
    switch ((enum isa_op)in->op) {
    case ISA_OP_COPY: {
        void *v = gather_as(s, core, x->ap[1], ddt, SIM_BUF_A);
        if (!v) return BASE_ERR_NOMEM;
        return sim_scatter_raw(s, core, dst, v);
    }
    case ISA_OP_PART_BROADCAST: {
        const uint8_t *v = gather_as(s, core, x->ap[1], ddt, SIM_BUF_A);
        uint8_t *o = sim_buf(s, SIM_BUF_B, n * es);
        if (!v || !o) return BASE_ERR_NOMEM;
        for (uint64_t p = 0; p < P; p++) memcpy(o + p * F * es, v, F * es);
        return sim_scatter_raw(s, core, dst, o);
    }
    case ISA_OP_MEMSET: {
        uint8_t one[16];
        base_elem_set_f64(ddt, one, 0, in->imm0);
        uint8_t *o = sim_buf(s, SIM_BUF_B, n * es);
        if (!o) return BASE_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) memcpy(o + i * es, one, es);
        return sim_scatter_raw(s, core, dst, o);
    }
    case ISA_OP_IOTA: {
        double *v = sim_buf(s, SIM_BUF_A, n * sizeof(double));
        uint8_t *o = sim_buf(s, SIM_BUF_B, n * es);
        if (!v || !o) return BASE_ERR_NOMEM;
        for (uint64_t p = 0; p < P; p++)
            for (uint64_t f = 0; f < F; f++) v[p * F + f] = in->imm0 + in->imm1 * (double)p + (double)f;
        base_convert(ddt, o, BASE_DT_F64, v, n);
        return sim_scatter_raw(s, core, dst, o);
    }
    case ISA_OP_REDUCE:
    case ISA_OP_PART_REDUCE: return compute_reduce(s, x);
    default: break;
    }

    if (in->op == ISA_OP_UNARY && in->func == ISA_ALU_CAST) { /* straight conversion */
        const struct isa_ap *src = x->ap[1];
        size_t ses = sim_elem_size(src);
        uint8_t *raw = sim_buf(s, SIM_BUF_A, n * ses), *o = sim_buf(s, SIM_BUF_B, n * es);
        if (!raw || !o) return BASE_ERR_NOMEM;
        sim_gather_raw(s, core, src, raw);
        base_convert(ddt, o, (enum base_dtype)src->dtype, raw, n);
        return sim_scatter_raw(s, core, dst, o);
    }
    bool iint = false;
    if (in->op == ISA_OP_UNARY || in->op == ISA_OP_BINARY) iint = isa_alu_is_int(in->func);
    if (in->op == ISA_OP_TENSOR_SCALAR)
        iint = isa_alu_is_int(in->func) && (in->func2 == ISA_ALU_BYPASS || isa_alu_is_int(in->func2));
    if (iint) {
        bool sg = int_signed(x->ap[1]->dtype);
        int w = base_dtype_bits((enum base_dtype)x->ap[1]->dtype);
        int64_t *a = gather_i64(s, core, x->ap[1], SIM_BUF_A);
        int64_t *o = sim_buf(s, SIM_BUF_D, n * sizeof(int64_t));
        if (!a || !o) return BASE_ERR_NOMEM;
        if (in->op == ISA_OP_BINARY) {
            int64_t *b = gather_i64(s, core, x->ap[2], SIM_BUF_B);
            if (!b) return BASE_ERR_NOMEM;
            for (size_t i = 0; i < n; i++) o[i] = (int64_t)alu_int(in->func, (uint64_t)a[i], (uint64_t)b[i], w, sg);
        } else if (in->op == ISA_OP_UNARY) {
            for (size_t i = 0; i < n; i++) o[i] = (int64_t)alu_int(in->func, (uint64_t)a[i], 0, w, sg);
        } else {
            int64_t *s0 = (in->flags & ISA_FLAG_SCALE_AP) ? gather_i64(s, core, x->ap[2], SIM_BUF_B) : NULL;
            int64_t *s1 = (in->flags & ISA_FLAG_BIAS_AP) ? gather_i64(s, core, x->ap[3], SIM_BUF_C) : NULL;
            if (((in->flags & ISA_FLAG_SCALE_AP) && !s0) || ((in->flags & ISA_FLAG_BIAS_AP) && !s1))
                return BASE_ERR_NOMEM;
            for (uint64_t p = 0; p < P; p++) {
                uint64_t c0 = s0 ? (uint64_t)s0[p] : (uint64_t)(int64_t)in->imm0;
                uint64_t c1 = s1 ? (uint64_t)s1[p] : (uint64_t)(int64_t)in->imm1;
                for (uint64_t f = 0; f < F; f++) {
                    uint64_t v = alu_int(in->func, (uint64_t)a[p * F + f], c0, w, sg);
                    if (in->func2 != ISA_ALU_BYPASS) v = alu_int(in->func2, v, c1, w, sg);
                    o[p * F + f] = (int64_t)v;
                }
            }
        }
        return scatter_i64(s, core, dst, o);
    }
    bool ints = false;
    if (in->op == ISA_OP_UNARY || in->op == ISA_OP_BINARY) ints = is_bitwise(in->func);
    if (in->op == ISA_OP_TENSOR_SCALAR)
        ints = is_bitwise(in->func) && (in->func2 == ISA_ALU_BYPASS || is_bitwise(in->func2));
    if (ints) {
        bool sg = int_signed(x->ap[1]->dtype);
        int64_t *a = gather_i64(s, core, x->ap[1], SIM_BUF_A);
        int64_t *o = sim_buf(s, SIM_BUF_D, n * sizeof(int64_t));
        if (!a || !o) return BASE_ERR_NOMEM;
        if (in->op == ISA_OP_BINARY) {
            int64_t *b = gather_i64(s, core, x->ap[2], SIM_BUF_B);
            if (!b) return BASE_ERR_NOMEM;
            for (size_t i = 0; i < n; i++) o[i] = alu_i32(in->func, a[i], b[i], sg);
        } else if (in->op == ISA_OP_UNARY) {
            for (size_t i = 0; i < n; i++) o[i] = alu_i32(in->func, a[i], 0, sg);
        } else {
            int64_t *s0 = (in->flags & ISA_FLAG_SCALE_AP) ? gather_i64(s, core, x->ap[2], SIM_BUF_B) : NULL;
            int64_t *s1 = (in->flags & ISA_FLAG_BIAS_AP) ? gather_i64(s, core, x->ap[3], SIM_BUF_C) : NULL;
            if (((in->flags & ISA_FLAG_SCALE_AP) && !s0) || ((in->flags & ISA_FLAG_BIAS_AP) && !s1))
                return BASE_ERR_NOMEM;
            for (uint64_t p = 0; p < P; p++) {
                int64_t c0 = s0 ? s0[p] : (int64_t)in->imm0, c1 = s1 ? s1[p] : (int64_t)in->imm1;
                for (uint64_t f = 0; f < F; f++) {
                    int64_t v = alu_i32(in->func, a[p * F + f], c0, sg);
                    if (in->func2 != ISA_ALU_BYPASS) v = alu_i32(in->func2, v, c1, sg);
                    o[p * F + f] = v;
                }
            }
        }
        return scatter_i64(s, core, dst, o);
    }

    float *a = sim_gather_f32(s, core, x->ap[1], SIM_BUF_A);
    float *o = sim_buf(s, SIM_BUF_D, n * sizeof(float));
    if (!a || !o) return BASE_ERR_NOMEM;
    switch ((enum isa_op)in->op) {
    case ISA_OP_UNARY: alu_row(in->func, o, a, NULL, 0, n); break;
    case ISA_OP_BINARY: {
        float *b = sim_gather_f32(s, core, x->ap[2], SIM_BUF_B);
        if (!b) return BASE_ERR_NOMEM;
        if (isa_alu_is_transcendental(in->func)) { /* f64, rounded once to dst */
            double *r = sim_buf(s, SIM_BUF_F, n * sizeof(double));
            if (!r) return BASE_ERR_NOMEM;
            for (size_t i = 0; i < n; i++) r[i] = alu_f64(in->func, a[i], b[i]);
            return scatter_f64(s, core, dst, r);
        }
        alu_row(in->func, o, a, b, 0, n);
        break;
    }
    case ISA_OP_SELECT: {
        if (x->ap[2]->dtype == ddt && x->ap[3]->dtype == ddt) { /* the chosen bits, exactly */
            const uint8_t *b = gather_as(s, core, x->ap[2], ddt, SIM_BUF_B);
            const uint8_t *c = gather_as(s, core, x->ap[3], ddt, SIM_BUF_C);
            uint8_t *r = sim_buf(s, SIM_BUF_E, n * es);
            if (!b || !c || !r) return BASE_ERR_NOMEM;
            for (size_t i = 0; i < n; i++) memcpy(r + i * es, a[i] != 0 ? b + i * es : c + i * es, es);
            return sim_scatter_raw(s, core, dst, r);
        }
        float *b = sim_gather_f32(s, core, x->ap[2], SIM_BUF_B);
        float *c = sim_gather_f32(s, core, x->ap[3], SIM_BUF_C);
        if (!b || !c) return BASE_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) o[i] = a[i] != 0 ? b[i] : c[i];
        break;
    }
    case ISA_OP_TENSOR_SCALAR:
    case ISA_OP_ACTIVATE: {
        float *s0 = (in->flags & ISA_FLAG_SCALE_AP) ? sim_gather_f32(s, core, x->ap[2], SIM_BUF_B) : NULL;
        float *s1 = (in->flags & ISA_FLAG_BIAS_AP) ? sim_gather_f32(s, core, x->ap[3], SIM_BUF_C) : NULL;
        if (((in->flags & ISA_FLAG_SCALE_AP) && !s0) || ((in->flags & ISA_FLAG_BIAS_AP) && !s1))
            return BASE_ERR_NOMEM;
        /* activations and a transcendental last function: f64, rounded once to dst */
        unsigned last = in->op == ISA_OP_TENSOR_SCALAR && in->func2 != ISA_ALU_BYPASS ? in->func2 : in->func;
        bool wide = in->op == ISA_OP_ACTIVATE || isa_alu_is_transcendental(last);
        double *r = wide ? sim_buf(s, SIM_BUF_F, n * sizeof(double)) : NULL;
        if (wide && !r) return BASE_ERR_NOMEM;
        for (uint64_t p = 0; p < P; p++) {
            float c0 = s0 ? s0[p] : (float)in->imm0, c1 = s1 ? s1[p] : (float)in->imm1;
            const float *ap = a + p * F;
            float *op = o + p * F;
            double *rp = r ? r + p * F : NULL;
            if (in->op == ISA_OP_ACTIVATE) { /* t = f32(f32(src * scale) + bias), then f(t) */
                for (uint64_t f = 0; f < F; f++) {
                    float t = ap[f] * c0;
                    op[f] = t + c1;
                }
                act_row_f64(in->func, op, rp, (size_t)F);
            } else if (wide) {
                for (uint64_t f = 0; f < F; f++) {
                    if (in->func2 == ISA_ALU_BYPASS) {
                        rp[f] = alu_f64(in->func, ap[f], c0);
                    } else {
                        float v = alu_f32(in->func, ap[f], c0);
                        rp[f] = alu_f64(in->func2, v, c1);
                    }
                }
            } else { /* v = func(src, c0), then func2(v, c1) */
                alu_row(in->func, op, ap, NULL, c0, (size_t)F);
                if (in->func2 != ISA_ALU_BYPASS) alu_row(in->func2, op, op, NULL, c1, (size_t)F);
            }
        }
        if (wide) return scatter_f64(s, core, dst, r);
        break;
    }
    default: return BASE_ERR_UNSUPPORTED;
    }
    return sim_scatter_f32(s, core, dst, o);
}
