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
 *  - activate: t = f32(f32(src * scale) + bias), then f(t) with the C
 *    library's f32 functions: expf, logf, tanhf, erff, sqrtf, sinf, cosf;
 *    sigmoid(t) = 1 / (1 + exp(-t)); silu(t) = t * sigmoid(t); gelu(t) =
 *    0.5 t (1 + erf(t / sqrt 2)); gelu_tanh(t) = 0.5 t (1 + tanh(sqrt(2/pi)
 *    (t + 0.044715 t^3))); rsqrt(t) = 1 / sqrt(t). */
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

static bool is_bitwise(unsigned f)
{
    return f == ISA_ALU_AND || f == ISA_ALU_OR || f == ISA_ALU_XOR || f == ISA_ALU_SHL || f == ISA_ALU_SHR ||
           f == ISA_ALU_NOT;
}

static float fmax_nan(float a, float b) { return isnan(a) || isnan(b) ? NAN : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
static float fmin_nan(float a, float b) { return isnan(a) || isnan(b) ? NAN : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }

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
    case ISA_ALU_POW: return powf(a, b);
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
    default: return NAN;
    }
}

static float act_f32(unsigned f, float x)
{
    switch ((enum isa_act)f) {
    case ISA_ACT_IDENTITY: return x;
    case ISA_ACT_EXP: return expf(x);
    case ISA_ACT_LOG: return logf(x);
    case ISA_ACT_TANH: return tanhf(x);
    case ISA_ACT_SIGMOID: return 1.0f / (1.0f + expf(-x));
    case ISA_ACT_GELU: return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    case ISA_ACT_GELU_TANH: {
        float inner = 0.79788456080286536f * (x + 0.044715f * x * x * x);
        return 0.5f * x * (1.0f + tanhf(inner));
    }
    case ISA_ACT_SILU: return x * (1.0f / (1.0f + expf(-x)));
    case ISA_ACT_RELU: return isnan(x) ? x : (x > 0 ? x : 0.0f);
    case ISA_ACT_RSQRT: return 1.0f / sqrtf(x);
    case ISA_ACT_SQRT: return sqrtf(x);
    case ISA_ACT_RECIPROCAL: return 1.0f / x;
    case ISA_ACT_SQUARE: return x * x;
    case ISA_ACT_SIN: return sinf(x);
    case ISA_ACT_COS: return cosf(x);
    case ISA_ACT_ERF: return erff(x);
    default: return NAN;
    }
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

/* o[i] = act(o[i]) for a row, the function chosen once. */
static void act_row(unsigned f, float *o, size_t n)
{
    switch ((enum isa_act)f) {
    case ISA_ACT_IDENTITY: break;
    case ISA_ACT_EXP:
        for (size_t i = 0; i < n; i++) o[i] = expf(o[i]);
        break;
    case ISA_ACT_RELU:
        for (size_t i = 0; i < n; i++) o[i] = isnan(o[i]) ? o[i] : (o[i] > 0 ? o[i] : 0.0f);
        break;
    case ISA_ACT_SQUARE:
        for (size_t i = 0; i < n; i++) o[i] = o[i] * o[i];
        break;
    default:
        for (size_t i = 0; i < n; i++) o[i] = act_f32(f, o[i]);
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
        for (uint64_t p = 0; p < P; p++) {
            float c0 = s0 ? s0[p] : (float)in->imm0, c1 = s1 ? s1[p] : (float)in->imm1;
            const float *ap = a + p * F;
            float *op = o + p * F;
            if (in->op == ISA_OP_ACTIVATE) { /* t = f32(f32(src * scale) + bias), then f(t) */
                for (uint64_t f = 0; f < F; f++) {
                    float t = ap[f] * c0;
                    op[f] = t + c1;
                }
                act_row(in->func, op, (size_t)F);
            } else { /* v = func(src, c0), then func2(v, c1) */
                alu_row(in->func, op, ap, NULL, c0, (size_t)F);
                if (in->func2 != ISA_ALU_BYPASS) alu_row(in->func2, op, op, NULL, c1, (size_t)F);
            }
        }
        break;
    }
    default: return BASE_ERR_UNSUPPORTED;
    }
    return sim_scatter_f32(s, core, dst, o);
}
