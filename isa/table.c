/* The instruction table expanded: names, formats, units, arities, lookups. */
#include "isa/isa_impl.h"

#include <string.h>

/* The unit bits of isa_ops_list.h are engine-kind bits. */
_Static_assert(ISA_U_PE == 1u << ISA_ENGINE_SYSTOLIC, "unit bit of the systolic array");
_Static_assert(ISA_U_VEC == 1u << ISA_ENGINE_VECTOR, "unit bit of the vector engine");
_Static_assert(ISA_U_ACT == 1u << ISA_ENGINE_SCALAR, "unit bit of the scalar engine");
_Static_assert(ISA_U_POOL == 1u << ISA_ENGINE_GPSIMD, "unit bit of the gpsimd engine");
_Static_assert(ISA_U_DMA == 1u << ISA_ENGINE_DMA, "unit bit of a DMA queue");
_Static_assert(ISA_ENGINE_KIND_COUNT == 5, "ISA_U_ALL covers every engine kind");
/* Enumerations must fit the uint8_t fields of isa_instr / isa_ap. */
_Static_assert(ISA_OP_COUNT <= 256 && ISA_ALU_COUNT <= 256 && ISA_ACT_COUNT <= 256, "uint8_t op/func");
_Static_assert(ISA_SPACE_COUNT <= 256 && BASE_DT_COUNT <= 256, "uint8_t space/dtype");
_Static_assert(ISA_SPACE_NONE == 0, "an all-zero access pattern is an unused operand");
_Static_assert(ISA_ALU_BYPASS == 0 && ISA_PREC_DEFAULT == 0, "0 is the default function");
/* No padding: equal instructions are equal bytes (tests compare with memcmp). */
_Static_assert(sizeof(struct isa_ap) == 88, "isa_ap has no padding");
_Static_assert(sizeof(struct isa_instr) == 48 + 4 * 88 + 8, "isa_instr has no padding");
_Static_assert(ISA_MAX_SEMAPHORES <= 65536, "uint16_t semaphore ids");

static const char *const op_names[] = {
#define X(e, name, fmt, units) name,
    ISA_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(op_names) == ISA_OP_COUNT, "op_names");

static const unsigned char op_fmts[] = {
#define X(e, name, fmt, units) ISA_FMT_##fmt,
    ISA_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(op_fmts) == ISA_OP_COUNT, "op_fmts");

static const unsigned op_units[] = {
#define X(e, name, fmt, units) (units),
    ISA_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(op_units) == ISA_OP_COUNT, "op_units");

static const char *const fmt_names[] = {
#define X(e, desc) #e,
    ISA_FORMATS(X)
#undef X
};
_Static_assert(ARRAY_LEN(fmt_names) == ISA_FMT_COUNT, "fmt_names");

static const char *const alu_names[] = {
#define X(e, name, arity) name,
    ISA_ALU_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(alu_names) == ISA_ALU_COUNT, "alu_names");

static const unsigned char alu_arity[] = {
#define X(e, name, arity) arity,
    ISA_ALU_OPS(X)
#undef X
};
_Static_assert(ARRAY_LEN(alu_arity) == ISA_ALU_COUNT, "alu_arity");

static const char *const act_names[] = {
#define X(e, name) name,
    ISA_ACT_FUNCS(X)
#undef X
};
_Static_assert(ARRAY_LEN(act_names) == ISA_ACT_COUNT, "act_names");

static const char *const space_names[] = {
#define X(e, name) name,
    ISA_SPACES(X)
#undef X
};
_Static_assert(ARRAY_LEN(space_names) == ISA_SPACE_COUNT, "space_names");

static const char *const engine_names[] = {
#define X(e, name) name,
    ISA_ENGINE_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(engine_names) == ISA_ENGINE_KIND_COUNT, "engine_names");

static const char *const prec_names[] = {
#define X(e, name) name,
    ISA_PRECISIONS(X)
#undef X
};
_Static_assert(ARRAY_LEN(prec_names) == ISA_PREC_COUNT, "prec_names");

/* Out-of-range values come back as "?" so a printer never crashes. */
#define NAME_OF(tab, i) ((unsigned)(i) < ARRAY_LEN(tab) ? (tab)[(unsigned)(i)] : "?")

const char *isa_op_name(enum isa_op op) { return NAME_OF(op_names, op); }
enum isa_fmt isa_op_fmt(enum isa_op op) { return (unsigned)op < ISA_OP_COUNT ? (enum isa_fmt)op_fmts[op] : ISA_FMT_COUNT; }
unsigned isa_op_units(enum isa_op op) { return (unsigned)op < ISA_OP_COUNT ? op_units[op] : 0; }
const char *isa_alu_name(enum isa_alu f) { return NAME_OF(alu_names, f); }
int isa_alu_arity(enum isa_alu f) { return (unsigned)f < ISA_ALU_COUNT ? alu_arity[f] : 0; }
const char *isa_act_name(enum isa_act f) { return NAME_OF(act_names, f); }
const char *isa_space_name(enum isa_space s) { return NAME_OF(space_names, s); }
const char *isa_engine_kind_name(enum isa_engine_kind k) { return NAME_OF(engine_names, k); }
const char *isa_precision_name(enum isa_precision p) { return NAME_OF(prec_names, p); }
const char *isa_fmt_name(enum isa_fmt f) { return NAME_OF(fmt_names, f); }

static bool lookup(const char *const *names, size_t count, const char *s, size_t n, int *out)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) {
            *out = (int)i;
            return true;
        }
    return false;
}

#define LOOKUP_FN(fn, type, tab)                                      \
    bool fn(const char *s, size_t n, type *out)                       \
    {                                                                 \
        int i;                                                        \
        if (!lookup(tab, ARRAY_LEN(tab), s, n, &i)) return false;     \
        *out = (type)i;                                               \
        return true;                                                  \
    }
LOOKUP_FN(isa_op_lookup, enum isa_op, op_names)
LOOKUP_FN(isa_alu_lookup, enum isa_alu, alu_names)
LOOKUP_FN(isa_act_lookup, enum isa_act, act_names)
LOOKUP_FN(isa_space_lookup, enum isa_space, space_names)
LOOKUP_FN(isa_precision_lookup, enum isa_precision, prec_names)

#define B(f) (1u << ISA_FIELD_##f)
unsigned isa_fmt_fields(enum isa_fmt f)
{
    switch (f) {
    case ISA_FMT_NONE: return 0;
    case ISA_FMT_SEM: return 0; /* the wait/signal fields, which every op has */
    case ISA_FMT_LOOP: return B(COUNT) | B(BODY);
    case ISA_FMT_DMA: return B(DST) | B(SRC0);
    case ISA_FMT_MATMUL: return B(DST) | B(SRC0) | B(SRC1);
    case ISA_FMT_UNARY: return B(DST) | B(SRC0);
    case ISA_FMT_BINARY: return B(DST) | B(SRC0) | B(SRC1);
    case ISA_FMT_TENSOR_SCALAR: return B(DST) | B(SRC0) | B(IMM0) | B(IMM1) | B(SRC1) | B(SRC2);
    case ISA_FMT_SELECT: return B(DST) | B(SRC0) | B(SRC1) | B(SRC2);
    case ISA_FMT_IOTA: return B(DST) | B(IMM0) | B(IMM1);
    case ISA_FMT_MEMSET: return B(DST) | B(IMM0);
    case ISA_FMT_REDUCE: return B(DST) | B(SRC0) | B(COUNT);
    case ISA_FMT_ACTIVATE: return B(DST) | B(SRC0) | B(IMM0) | B(IMM1) | B(SRC1) | B(SRC2);
    case ISA_FMT_COPY: return B(DST) | B(SRC0);
    case ISA_FMT_COUNT: break;
    }
    return 0;
}
#undef B
