/* Access patterns and structural validation of instructions. */
#include "isa/isa_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Saturating int64 arithmetic: extents of invalid patterns must not overflow */

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return r;
}

static int ap_ndims(const struct isa_ap *ap) { return ap->ndims <= ISA_MAX_DIMS ? ap->ndims : ISA_MAX_DIMS; }

static int64_t elem_bytes(const struct isa_ap *ap)
{
    return ap->dtype < BASE_DT_COUNT ? (int64_t)base_dtype_size((enum base_dtype)ap->dtype) : 1;
}

uint64_t isa_ap_free_elems(const struct isa_ap *ap)
{
    uint64_t n = 1;
    for (int d = 0; d < ap_ndims(ap); d++) n *= ap->count[d];
    return n;
}

uint64_t isa_ap_total_elems(const struct isa_ap *ap) { return isa_ap_free_elems(ap) * ap->part_count; }

/* Adds the byte span `bytes` (lowest or highest end) to [lo, hi). */
static void widen(int64_t bytes, int64_t *lo, int64_t *hi)
{
    if (bytes < 0) *lo = sat_add(*lo, bytes);
    else *hi = sat_add(*hi, bytes);
}

void isa_ap_extent(const struct isa_ap *ap, int64_t *lo, int64_t *hi)
{
    int64_t esize = elem_bytes(ap);
    int64_t base = ap->addr > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ap->addr;
    *lo = *hi = base;
    for (int d = 0; d < ap_ndims(ap); d++)
        widen(sat_mul(sat_mul(ap->stride[d], ap->count[d] ? (int64_t)ap->count[d] - 1 : 0), esize), lo, hi);
    widen(sat_mul(ap->part_stride_bytes, ap->part_count ? (int64_t)ap->part_count - 1 : 0), lo, hi);
    *hi = sat_add(*hi, esize);
}

void isa_ap_extent_loops(const struct isa_ap *ap, const uint32_t *trips, int depth, int64_t *lo, int64_t *hi)
{
    isa_ap_extent(ap, lo, hi);
    for (int d = 0; d < depth && d < ISA_MAX_LOOP_DEPTH; d++)
        widen(sat_mul(ap->loop_step_bytes[d], trips[d] ? (int64_t)trips[d] - 1 : 0), lo, hi);
}

bool isa_ap_is_zero(const struct isa_ap *ap)
{
    static const struct isa_ap zero;
    return memcmp(ap, &zero, sizeof zero) == 0;
}

/* ------------------------------------------------------------------------ */
/* Immediates                                                                */

static uint64_t dbits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

bool isa_double_is_canonical(double v)
{
    if (!isnan(v)) return true;
    uint64_t b = dbits(v) & ~(UINT64_C(1) << 63);
    return b == UINT64_C(0x7ff8000000000000);
}

void isa_fmt_double(double v, char *buf, size_t cap)
{
    if (isnan(v)) {
        snprintf(buf, cap, "%s", signbit(v) ? "-nan" : "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, cap, "%s", v < 0 ? "-inf" : "inf");
        return;
    }
    char tmp[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (dbits(strtod(tmp, NULL)) == dbits(v)) break;
    }
    snprintf(buf, cap, "%s", tmp);
}

/* ------------------------------------------------------------------------ */
/* Validation                                                                */

struct chk {
    char *why;
    size_t cap;
    enum isa_field *field;
};

static enum base_status bad(struct chk *c, enum isa_field f, const char *fmt, ...) BASE_PRINTF(3, 4);
static enum base_status bad(struct chk *c, enum isa_field f, const char *fmt, ...)
{
    *c->field = f;
    if (c->why && c->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->cap, fmt, ap);
        va_end(ap);
    }
    return BASE_ERR_VERIFY;
}

/* The name of an operand in messages (the assembly text's order and roles). */
const char *isa_field_role(enum isa_fmt fmt, enum isa_field f)
{
    switch (f) {
    case ISA_FIELD_DST: return "dst";
    case ISA_FIELD_SRC0:
        return fmt == ISA_FMT_MATMUL ? "stationary" : fmt == ISA_FMT_SELECT ? "pred" : fmt == ISA_FMT_BINARY ? "src0" : "src";
    case ISA_FIELD_SRC1:
        return fmt == ISA_FMT_MATMUL ? "moving" : fmt == ISA_FMT_SELECT ? "on_true"
             : fmt == ISA_FMT_TENSOR_SCALAR ? "scalar0" : fmt == ISA_FMT_ACTIVATE ? "scale" : "src1";
    case ISA_FIELD_SRC2:
        return fmt == ISA_FMT_SELECT ? "on_false" : fmt == ISA_FMT_TENSOR_SCALAR ? "scalar1"
             : fmt == ISA_FMT_ACTIVATE ? "bias" : "src2";
    case ISA_FIELD_IMM0:
        return fmt == ISA_FMT_IOTA ? "base" : fmt == ISA_FMT_MEMSET ? "value" : fmt == ISA_FMT_TENSOR_SCALAR ? "scalar0"
             : fmt == ISA_FMT_ACTIVATE ? "scale" : "imm0";
    case ISA_FIELD_IMM1:
        return fmt == ISA_FMT_IOTA ? "multiplier" : fmt == ISA_FMT_TENSOR_SCALAR ? "scalar1"
             : fmt == ISA_FMT_ACTIVATE ? "bias" : "imm1";
    case ISA_FIELD_COUNT: return fmt == ISA_FMT_LOOP ? "iterations" : "count";
    case ISA_FIELD_BODY: return "body";
    default: return "?";
    }
}

static const char *const flag_names[8] = {"start", "stop", "acc", "wait", "signal", "scale_ap", "bias_ap", "bit7"};

static bool span_ok(int64_t v) { return v >= -ISA_MAX_SPAN && v <= ISA_MAX_SPAN; }

static enum base_status check_ap(struct chk *c, enum isa_field f, const char *r, const struct isa_ap *ap)
{
    if (ap->space == ISA_SPACE_NONE || ap->space >= ISA_SPACE_COUNT)
        return bad(c, f, "%s: memory space must be hbm, sp or acc", r);
    if (ap->dtype >= BASE_DT_COUNT) return bad(c, f, "%s: unknown element type %u", r, ap->dtype);
    enum base_dtype dt = (enum base_dtype)ap->dtype;
    if (base_dtype_is_complex(dt) || dt == BASE_DT_INDEX)
        return bad(c, f, "%s: element type %s is not a memory element type", r, base_dtype_name(dt));
    if (ap->reserved) return bad(c, f, "%s: reserved byte is %u, must be 0", r, ap->reserved);
    if (ap->ndims > ISA_MAX_DIMS) return bad(c, f, "%s: %u free dims, at most %d", r, ap->ndims, ISA_MAX_DIMS);
    uint64_t total = ap->part_count;
    for (int d = 0; d < ISA_MAX_DIMS; d++) {
        if (d >= ap->ndims) {
            if (ap->stride[d] || ap->count[d])
                return bad(c, f, "%s: dim %d is beyond its %u dims but not 0", r, d, ap->ndims);
            continue;
        }
        if (ap->count[d] == 0) return bad(c, f, "%s: dim %d has count 0 (counts must be > 0)", r, d);
        if (!span_ok(ap->stride[d]) || !span_ok(sat_mul(ap->stride[d], (int64_t)ap->count[d] - 1)))
            return bad(c, f, "%s: dim %d spans more than 2^40 elements", r, d);
        total *= ap->count[d];
        if (total > (uint64_t)ISA_MAX_SPAN) return bad(c, f, "%s: more than 2^40 elements", r);
    }
    if (ap->part_count == 0) return bad(c, f, "%s: partition count must be > 0", r);
    if (ap->space == ISA_SPACE_HBM) {
        if (ap->part_start) return bad(c, f, "%s: hbm partitions must start at 0 (they are a dimension)", r);
        if (!span_ok(ap->part_stride_bytes)) return bad(c, f, "%s: partition stride beyond 2^40 bytes", r);
    } else {
        if ((unsigned)ap->part_start + ap->part_count > ISA_MAX_PARTITIONS)
            return bad(c, f, "%s: partitions %u:%u exceed the %d partitions", r, ap->part_start,
                       (unsigned)ap->part_start + ap->part_count, ISA_MAX_PARTITIONS);
        if (ap->part_stride_bytes)
            return bad(c, f, "%s: a partition stride is for hbm only (%s partitions are separate memories)", r,
                       isa_space_name((enum isa_space)ap->space));
    }
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++)
        if (!span_ok(ap->loop_step_bytes[d])) return bad(c, f, "%s: loop step beyond 2^40 bytes", r);
    if (ap->addr >= (uint64_t)ISA_MAX_ADDR) return bad(c, f, "%s: address beyond 2^48", r);
    int64_t lo, hi;
    isa_ap_extent(ap, &lo, &hi);
    if (lo < 0 || hi > ISA_MAX_ADDR)
        return bad(c, f, "%s: touches bytes [%lld, %lld), outside [0, 2^48)", r, (long long)lo, (long long)hi);
    return BASE_OK;
}

static bool is_bitwise(unsigned f)
{
    return f == ISA_ALU_AND || f == ISA_ALU_OR || f == ISA_ALU_XOR || f == ISA_ALU_SHL || f == ISA_ALU_SHR ||
           f == ISA_ALU_NOT;
}

static bool is_reduce_fn(unsigned f)
{
    return f == ISA_ALU_ADD || f == ISA_ALU_MUL || f == ISA_ALU_MAX || f == ISA_ALU_MIN || f == ISA_ALU_AND ||
           f == ISA_ALU_OR || f == ISA_ALU_XOR || f == ISA_ALU_IADD || f == ISA_ALU_IMUL || f == ISA_ALU_IMAX ||
           f == ISA_ALU_IMIN || f == ISA_ALU_IAND || f == ISA_ALU_IOR || f == ISA_ALU_IXOR;
}

static bool matmul_dtype(enum base_dtype dt)
{
    int bits = base_dtype_bits(dt);
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT: return bits == 8 || bits == 16 || bits == 32;
    case BASE_KIND_SINT:
    case BASE_KIND_UINT: return bits == 8;
    default: return false;
    }
}

static bool int_dtype(uint8_t dt)
{
    enum base_dtype_kind k = base_dtype_kind((enum base_dtype)dt);
    return k == BASE_KIND_SINT || k == BASE_KIND_UINT || k == BASE_KIND_BOOL;
}

static bool is_int_value(double v) { return v == floor(v) && fabs(v) < 4294967296.0; }
/* Immediates of the integer functions: integers exact in a double. */
static bool is_int64_value(double v) { return v == floor(v) && fabs(v) <= 9007199254740992.0; }

#define CHECK(e)                                \
    do {                                        \
        enum base_status st_ = (e);             \
        if (st_ != BASE_OK) return st_;         \
    } while (0)

/* dst and src have the same partitions and free elements per partition. */
static enum base_status same_shape(struct chk *c, enum isa_fmt fmt, enum isa_field f, const struct isa_ap *dst,
                                   const struct isa_ap *src)
{
    if (src->part_count != dst->part_count || isa_ap_free_elems(src) != isa_ap_free_elems(dst))
        return bad(c, f, "%s: %u partitions x %llu elements, dst has %u x %llu (elementwise shapes must match)",
                   isa_field_role(fmt, f), src->part_count, (unsigned long long)isa_ap_free_elems(src), dst->part_count,
                   (unsigned long long)isa_ap_free_elems(dst));
    return BASE_OK;
}

/* A per-partition scalar operand: one element in each of dst's partitions. */
static enum base_status per_partition(struct chk *c, enum isa_fmt fmt, enum isa_field f, const struct isa_ap *dst,
                                      const struct isa_ap *s)
{
    if (s->part_count != dst->part_count || isa_ap_free_elems(s) != 1)
        return bad(c, f, "%s: a per-partition scalar needs %u partitions x 1 element, has %u x %llu", isa_field_role(fmt, f),
                   dst->part_count, s->part_count, (unsigned long long)isa_ap_free_elems(s));
    return BASE_OK;
}

static enum base_status check_func(struct chk *c, const struct isa_instr *in, enum isa_fmt fmt)
{
    const char *opn = isa_op_name((enum isa_op)in->op);
    switch (fmt) {
    case ISA_FMT_UNARY:
        if (in->func >= ISA_ALU_COUNT || isa_alu_arity((enum isa_alu)in->func) != 1 || in->func == ISA_ALU_BYPASS)
            return bad(c, ISA_FIELD_OP, "%s needs a one-input ALU function (neg, abs, not, floor, cast, ...), not %s", opn,
                       isa_alu_name((enum isa_alu)in->func));
        break;
    case ISA_FMT_BINARY:
    case ISA_FMT_TENSOR_SCALAR:
        if (in->func >= ISA_ALU_COUNT || isa_alu_arity((enum isa_alu)in->func) != 2)
            return bad(c, ISA_FIELD_OP, "%s needs a two-input ALU function, not %s", opn,
                       isa_alu_name((enum isa_alu)in->func));
        break;
    case ISA_FMT_REDUCE:
        if (!is_reduce_fn(in->func))
            return bad(c, ISA_FIELD_OP,
                       "%s needs an associative function (add, mul, max, min, and, or, xor, or their integer forms), not %s",
                       opn, isa_alu_name((enum isa_alu)in->func));
        break;
    case ISA_FMT_ACTIVATE:
        if (in->func >= ISA_ACT_COUNT) return bad(c, ISA_FIELD_OP, "unknown activation function %u", in->func);
        break;
    case ISA_FMT_MATMUL:
        if (in->func >= ISA_PREC_COUNT) return bad(c, ISA_FIELD_OP, "unknown matmul precision %u", in->func);
        break;
    default:
        if (in->func) return bad(c, ISA_FIELD_OP, "%s takes no function (func is %u)", opn, in->func);
        break;
    }
    if (fmt == ISA_FMT_TENSOR_SCALAR) {
        if (in->func2 >= ISA_ALU_COUNT || (in->func2 != ISA_ALU_BYPASS && isa_alu_arity((enum isa_alu)in->func2) != 2))
            return bad(c, ISA_FIELD_OP, "%s: the second function must be a two-input ALU function, not %s", opn,
                       isa_alu_name((enum isa_alu)in->func2));
    } else if (in->func2) {
        return bad(c, ISA_FIELD_OP, "%s takes no second function (func2 is %u)", opn, in->func2);
    }
    return BASE_OK;
}

static enum base_status check_sync(struct chk *c, const struct isa_instr *in)
{
    if (in->flags & ISA_FLAG_WAIT) {
        if (in->wait_sem >= ISA_MAX_SEMAPHORES)
            return bad(c, ISA_FIELD_WAIT, "wait: semaphore s%u out of range (s0..s%d)", in->wait_sem,
                       ISA_MAX_SEMAPHORES - 1);
    } else if (in->wait_sem || in->wait_value || in->wait_step[0] || in->wait_step[1]) {
        return bad(c, ISA_FIELD_WAIT, "wait fields set without the wait flag");
    }
    if (in->flags & ISA_FLAG_SIGNAL) {
        if (in->signal_sem >= ISA_MAX_SEMAPHORES)
            return bad(c, ISA_FIELD_SIGNAL, "signal: semaphore s%u out of range (s0..s%d)", in->signal_sem,
                       ISA_MAX_SEMAPHORES - 1);
        if (in->signal_inc == 0) return bad(c, ISA_FIELD_SIGNAL, "signal: adds 0 to s%u", in->signal_sem);
    } else if (in->signal_sem || in->signal_inc) {
        return bad(c, ISA_FIELD_SIGNAL, "signal fields set without the signal flag");
    }
    if (in->op == ISA_OP_SEM_WAIT && !(in->flags & ISA_FLAG_WAIT))
        return bad(c, ISA_FIELD_WAIT, "sem_wait without a wait (ISA_FLAG_WAIT)");
    if (in->op == ISA_OP_SEM_SIGNAL && !(in->flags & ISA_FLAG_SIGNAL))
        return bad(c, ISA_FIELD_SIGNAL, "sem_signal without a signal (ISA_FLAG_SIGNAL)");
    return BASE_OK;
}

static enum base_status check_flags(struct chk *c, const struct isa_instr *in, enum isa_fmt fmt)
{
    unsigned allowed = ISA_FLAG_WAIT | ISA_FLAG_SIGNAL;
    if (in->op == ISA_OP_MATMUL) allowed |= ISA_FLAG_START | ISA_FLAG_STOP | ISA_FLAG_ACCUMULATE;
    if (in->op == ISA_OP_DMA) allowed |= ISA_FLAG_ACCUMULATE;
    if (fmt == ISA_FMT_TENSOR_SCALAR || fmt == ISA_FMT_ACTIVATE) allowed |= ISA_FLAG_SCALE_AP | ISA_FLAG_BIAS_AP;
    for (int b = 0; b < 8; b++)
        if ((in->flags >> b & 1) && !(allowed >> b & 1))
            return bad(c, ISA_FIELD_FLAGS, "flag %s is not allowed on %s", flag_names[b],
                       isa_op_name((enum isa_op)in->op));
    if (in->op == ISA_OP_MATMUL && (in->flags & ISA_FLAG_ACCUMULATE) && !(in->flags & ISA_FLAG_START))
        return bad(c, ISA_FIELD_FLAGS, "acc on a matmul only modifies start (without start it always accumulates)");
    if (fmt == ISA_FMT_TENSOR_SCALAR && in->func2 == ISA_ALU_BYPASS && (in->flags & ISA_FLAG_BIAS_AP))
        return bad(c, ISA_FIELD_FLAGS, "tensor_scalar without a second function has no scalar1");
    return BASE_OK;
}

/* Shapes, spaces and types, per op; all used operands are valid patterns. */
static enum base_status check_op(struct chk *c, const struct isa_instr *in, enum isa_fmt fmt, unsigned used)
{
    const struct isa_ap *dst = &in->dst, *s0 = &in->src0, *s1 = &in->src1, *s2 = &in->src2;
    const struct isa_ap *aps[4] = {dst, s0, s1, s2};
    static const enum isa_field ap_fields[4] = {ISA_FIELD_DST, ISA_FIELD_SRC0, ISA_FIELD_SRC1, ISA_FIELD_SRC2};
    if (fmt != ISA_FMT_DMA)
        for (int i = 0; i < 4; i++)
            if ((used >> ap_fields[i] & 1) && aps[i]->space == ISA_SPACE_HBM)
                return bad(c, ap_fields[i], "%s: compute engines address sp and acc only (hbm needs a dma)",
                           isa_field_role(fmt, ap_fields[i]));
    switch ((enum isa_op)in->op) {
    case ISA_OP_DMA:
        if (isa_ap_total_elems(dst) != isa_ap_total_elems(s0))
            return bad(c, ISA_FIELD_SRC0, "src: %llu elements, dst has %llu (a dma moves element for element)",
                       (unsigned long long)isa_ap_total_elems(s0), (unsigned long long)isa_ap_total_elems(dst));
        break;
    case ISA_OP_MATMUL: {
        if (s0->space != ISA_SPACE_SP) return bad(c, ISA_FIELD_SRC0, "stationary: the systolic array reads sp");
        if (s1->space != ISA_SPACE_SP) return bad(c, ISA_FIELD_SRC1, "moving: the systolic array reads sp");
        if (dst->space != ISA_SPACE_ACC) return bad(c, ISA_FIELD_DST, "dst: the systolic array writes acc");
        if (dst->dtype != BASE_DT_F32) return bad(c, ISA_FIELD_DST, "dst: matmul accumulates in f32");
        if (!matmul_dtype((enum base_dtype)s0->dtype))
            return bad(c, ISA_FIELD_SRC0, "stationary: %s is not a matmul type (8/16/32-bit float, 8-bit int)",
                       base_dtype_name((enum base_dtype)s0->dtype));
        if (!matmul_dtype((enum base_dtype)s1->dtype))
            return bad(c, ISA_FIELD_SRC1, "moving: %s is not a matmul type (8/16/32-bit float, 8-bit int)",
                       base_dtype_name((enum base_dtype)s1->dtype));
        if (s0->part_count != s1->part_count)
            return bad(c, ISA_FIELD_SRC1, "moving: %u partitions (K), stationary has %u", s1->part_count,
                       s0->part_count);
        if (dst->part_count != isa_ap_free_elems(s0))
            return bad(c, ISA_FIELD_DST, "dst: %u partitions, stationary has M = %llu columns", dst->part_count,
                       (unsigned long long)isa_ap_free_elems(s0));
        if (isa_ap_free_elems(dst) != isa_ap_free_elems(s1))
            return bad(c, ISA_FIELD_DST, "dst: %llu elements per partition, moving has N = %llu",
                       (unsigned long long)isa_ap_free_elems(dst), (unsigned long long)isa_ap_free_elems(s1));
        if (in->func != ISA_PREC_DEFAULT && s0->dtype != BASE_DT_F32 && s1->dtype != BASE_DT_F32)
            return bad(c, ISA_FIELD_OP, "precision %s applies to f32 operands only",
                       isa_precision_name((enum isa_precision)in->func));
        break;
    }
    case ISA_OP_TRANSPOSE:
        if (dst->part_count != isa_ap_free_elems(s0) || isa_ap_free_elems(dst) != s0->part_count)
            return bad(c, ISA_FIELD_DST, "dst: %u x %llu, the transpose of src %u x %llu is %llu x %u",
                       dst->part_count, (unsigned long long)isa_ap_free_elems(dst), s0->part_count,
                       (unsigned long long)isa_ap_free_elems(s0), (unsigned long long)isa_ap_free_elems(s0),
                       s0->part_count);
        break;
    case ISA_OP_PART_BROADCAST:
        if (s0->part_count != 1) return bad(c, ISA_FIELD_SRC0, "src: broadcasts one partition, has %u", s0->part_count);
        if (isa_ap_free_elems(dst) != isa_ap_free_elems(s0))
            return bad(c, ISA_FIELD_DST, "dst: %llu elements per partition, src has %llu",
                       (unsigned long long)isa_ap_free_elems(dst), (unsigned long long)isa_ap_free_elems(s0));
        break;
    case ISA_OP_COPY:
    case ISA_OP_UNARY:
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC0, dst, s0));
        break;
    case ISA_OP_BINARY:
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC0, dst, s0));
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC1, dst, s1));
        break;
    case ISA_OP_SELECT:
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC0, dst, s0));
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC1, dst, s1));
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC2, dst, s2));
        break;
    case ISA_OP_TENSOR_SCALAR:
    case ISA_OP_ACTIVATE:
        CHECK(same_shape(c, fmt, ISA_FIELD_SRC0, dst, s0));
        if (in->flags & ISA_FLAG_SCALE_AP) CHECK(per_partition(c, fmt, ISA_FIELD_SRC1, dst, s1));
        if (in->flags & ISA_FLAG_BIAS_AP) CHECK(per_partition(c, fmt, ISA_FIELD_SRC2, dst, s2));
        break;
    case ISA_OP_REDUCE:
    case ISA_OP_PART_REDUCE: {
        bool part = in->op == ISA_OP_PART_REDUCE;
        if (in->count > s0->ndims || (!part && in->count == 0))
            return bad(c, ISA_FIELD_COUNT, "reduces %u innermost dims of a %u-dim src (must be %d..%u)", in->count,
                       s0->ndims, part ? 0 : 1, s0->ndims);
        uint64_t kept = 1;
        for (unsigned d = 0; d + in->count < s0->ndims; d++) kept *= s0->count[d];
        if (isa_ap_free_elems(dst) != kept)
            return bad(c, ISA_FIELD_DST, "dst: %llu elements per partition, the kept outer dims of src have %llu",
                       (unsigned long long)isa_ap_free_elems(dst), (unsigned long long)kept);
        if (part ? dst->part_count != 1 : dst->part_count != s0->part_count)
            return bad(c, ISA_FIELD_DST, "dst: %u partitions, must be %u", dst->part_count,
                       part ? 1u : s0->part_count);
        break;
    }
    default: break;
    }
    /* Bitwise functions work on integers (docs/isa.md). */
    bool bit0 = (fmt == ISA_FMT_UNARY || fmt == ISA_FMT_BINARY || fmt == ISA_FMT_TENSOR_SCALAR || fmt == ISA_FMT_REDUCE) &&
                is_bitwise(in->func);
    bool bit1 = fmt == ISA_FMT_TENSOR_SCALAR && is_bitwise(in->func2);
    /* Integer functions (iadd .. clz) likewise, with integer immediates up to 2^53. */
    bool int0 = (fmt == ISA_FMT_UNARY || fmt == ISA_FMT_BINARY || fmt == ISA_FMT_TENSOR_SCALAR || fmt == ISA_FMT_REDUCE) &&
                isa_alu_is_int(in->func);
    bool int1 = fmt == ISA_FMT_TENSOR_SCALAR && isa_alu_is_int(in->func2);
    if (int0 || int1) {
        for (int i = 0; i < 4; i++)
            if ((used >> ap_fields[i] & 1) && !isa_ap_is_zero(aps[i]) && !int_dtype(aps[i]->dtype))
                return bad(c, ap_fields[i], "%s: integer functions need integer elements, not %s",
                           isa_field_role(fmt, ap_fields[i]), base_dtype_name((enum base_dtype)aps[i]->dtype));
        if (int0 && fmt == ISA_FMT_TENSOR_SCALAR && !(in->flags & ISA_FLAG_SCALE_AP) && !is_int64_value(in->imm0))
            return bad(c, ISA_FIELD_IMM0, "scalar0: an integer function needs an integer of at most 2^53");
        if (int1 && !(in->flags & ISA_FLAG_BIAS_AP) && !is_int64_value(in->imm1))
            return bad(c, ISA_FIELD_IMM1, "scalar1: an integer function needs an integer of at most 2^53");
    }
    if (bit0 || bit1) {
        for (int i = 0; i < 4; i++)
            if ((used >> ap_fields[i] & 1) && !isa_ap_is_zero(aps[i]) && !int_dtype(aps[i]->dtype))
                return bad(c, ap_fields[i], "%s: bitwise functions need integer elements, not %s",
                           isa_field_role(fmt, ap_fields[i]), base_dtype_name((enum base_dtype)aps[i]->dtype));
        if (bit0 && fmt == ISA_FMT_TENSOR_SCALAR && !(in->flags & ISA_FLAG_SCALE_AP) && !is_int_value(in->imm0))
            return bad(c, ISA_FIELD_IMM0, "scalar0: a bitwise function needs an integer below 2^32");
        if (bit1 && !(in->flags & ISA_FLAG_BIAS_AP) && !is_int_value(in->imm1))
            return bad(c, ISA_FIELD_IMM1, "scalar1: a bitwise function needs an integer below 2^32");
    }
    return BASE_OK;
}

enum base_status isa_instr_check(const struct isa_instr *in, char *why, size_t cap, enum isa_field *field)
{
    enum isa_field dummy;
    struct chk c = {why, cap, field ? field : &dummy};
    *c.field = ISA_FIELD_OP;
    if (why && cap) why[0] = 0;
    if (in->op >= ISA_OP_COUNT) return bad(&c, ISA_FIELD_OP, "unknown op %u", in->op);
    enum isa_fmt fmt = isa_op_fmt((enum isa_op)in->op);
    unsigned used = isa_fmt_fields(fmt);
    CHECK(check_func(&c, in, fmt));
    CHECK(check_flags(&c, in, fmt));
    CHECK(check_sync(&c, in));

    /* Which scalar operands come from immediates and which from patterns. */
    if (fmt == ISA_FMT_TENSOR_SCALAR || fmt == ISA_FMT_ACTIVATE) {
        bool has1 = fmt == ISA_FMT_ACTIVATE || in->func2 != ISA_ALU_BYPASS;
        used &= ~(1u << ((in->flags & ISA_FLAG_SCALE_AP) ? ISA_FIELD_IMM0 : ISA_FIELD_SRC1));
        used &= ~(1u << ((in->flags & ISA_FLAG_BIAS_AP) ? ISA_FIELD_IMM1 : ISA_FIELD_SRC2));
        if (!has1) used &= ~(1u << ISA_FIELD_IMM1);
    }

    if (used >> ISA_FIELD_COUNT & 1) {
        if (fmt == ISA_FMT_LOOP && in->count == 0) return bad(&c, ISA_FIELD_COUNT, "loop of 0 iterations");
    } else if (in->count) {
        return bad(&c, ISA_FIELD_COUNT, "%s has no count (it is %u)", isa_op_name((enum isa_op)in->op), in->count);
    }
    if (used >> ISA_FIELD_BODY & 1) {
        if (in->body == 0) return bad(&c, ISA_FIELD_BODY, "loop with an empty body");
    } else if (in->body) {
        return bad(&c, ISA_FIELD_BODY, "%s has no loop body (it is %u)", isa_op_name((enum isa_op)in->op), in->body);
    }
    const double imms[2] = {in->imm0, in->imm1};
    for (int i = 0; i < 2; i++) {
        enum isa_field f = i ? ISA_FIELD_IMM1 : ISA_FIELD_IMM0;
        if (used >> f & 1) {
            if (!isa_double_is_canonical(imms[i]))
                return bad(&c, f, "%s: a NaN immediate must be the canonical quiet NaN", isa_field_role(fmt, f));
        } else if (dbits(imms[i]) != 0) {
            return bad(&c, f, "%s: unused immediate must be 0", isa_field_role(fmt, f));
        }
    }
    const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    for (int i = 0; i < 4; i++) {
        enum isa_field f = (enum isa_field)(ISA_FIELD_DST + i);
        if (used >> f & 1) CHECK(check_ap(&c, f, isa_field_role(fmt, f), aps[i]));
        else if (!isa_ap_is_zero(aps[i])) return bad(&c, f, "%s: operand not used by %s must be all 0", isa_field_role(fmt, f),
                                                     isa_op_name((enum isa_op)in->op));
    }
    return check_op(&c, in, fmt, used);
}

enum base_status isa_instr_validate(const struct isa_instr *in, char *why, size_t cap)
{
    return isa_instr_check(in, why, cap, NULL);
}
