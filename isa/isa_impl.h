/* isa: private helpers shared by the module's files (never included from
 * outside isa/). */
#ifndef NPUSIM_ISA_IMPL_H
#define NPUSIM_ISA_IMPL_H

#include "isa/isa.h"

/* Name lookups over the tables; s[0..n) need not be NUL-terminated. */
bool isa_op_lookup(const char *s, size_t n, enum isa_op *out);
bool isa_alu_lookup(const char *s, size_t n, enum isa_alu *out);
bool isa_act_lookup(const char *s, size_t n, enum isa_act *out);
bool isa_space_lookup(const char *s, size_t n, enum isa_space *out);
bool isa_precision_lookup(const char *s, size_t n, enum isa_precision *out);
const char *isa_fmt_name(enum isa_fmt f);

/* The parts of an instruction a validation error can point at; the assembler
 * maps them to columns, the decoder to byte offsets. */
enum isa_field {
    ISA_FIELD_OP, /* the mnemonic, including .func */
    ISA_FIELD_FLAGS,
    ISA_FIELD_WAIT,
    ISA_FIELD_SIGNAL,
    ISA_FIELD_COUNT,
    ISA_FIELD_BODY,
    ISA_FIELD_IMM0,
    ISA_FIELD_IMM1,
    ISA_FIELD_DST,
    ISA_FIELD_SRC0,
    ISA_FIELD_SRC1,
    ISA_FIELD_SRC2,
    ISA_FIELD_COUNT_
};

/* Fields each format uses (bits 1 << ISA_FIELD_x).  IMM0/SRC1 and IMM1/SRC2
 * of TENSOR_SCALAR and ACTIVATE are chosen by ISA_FLAG_SCALE_AP / BIAS_AP. */
unsigned isa_fmt_fields(enum isa_fmt f);

/* isa_instr_validate, also telling which field broke the rule. */
enum base_status isa_instr_check(const struct isa_instr *in, char *why, size_t cap, enum isa_field *field);

/* The operand's name in messages and docs: "dst", "stationary", "scale"... */
const char *isa_field_role(enum isa_fmt fmt, enum isa_field f);

/* isa_program_validate without a diagnostic: the failing stream (-1: none)
 * and instruction (UINT32_MAX: none) and the rule. */
enum base_status isa_program_check(const struct isa_program *p, int *stream, uint32_t *instr, char *why, size_t cap);

/* True when every byte of ap is 0 (an unused operand). */
bool isa_ap_is_zero(const struct isa_ap *ap);

/* Shortest decimal text that reads back (strtod) as exactly v; "nan", "-nan",
 * "inf", "-inf" for the specials. */
void isa_fmt_double(double v, char *buf, size_t cap);
/* The canonical quiet NaN of either sign (the only NaNs an immediate may hold). */
bool isa_double_is_canonical(double v);

/* An engine (stream) name: [A-Za-z_][A-Za-z0-9_]*, 1..15 characters. */
bool isa_engine_name_ok(const char *s, size_t n);
/* A program name: [A-Za-z0-9_.-]+, 1..63 characters (or empty: no name). */
bool isa_program_name_ok(const char *s, size_t n);

/* Append-only text buffer for the disassembler. */
struct isa_sbuf {
    char *buf;
    size_t cap, len;
    bool overflow;
};
void isa_sbuf_printf(struct isa_sbuf *b, const char *fmt, ...) BASE_PRINTF(2, 3);

#endif
