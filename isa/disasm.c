/* The disassembler: instructions to canonical text (docs/isa.md).  The
 * assembler reads every line printed here back to the identical instruction. */
#include "isa/isa_impl.h"

#include <stdarg.h>
#include <string.h>

void isa_sbuf_printf(struct isa_sbuf *b, const char *fmt, ...)
{
    if (b->overflow || b->cap == 0) {
        b->overflow = true;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= b->cap - b->len) {
        b->overflow = true;
        b->len = b->cap - 1;
        return;
    }
    b->len += (size_t)n;
}

static void put_steps(struct isa_sbuf *b, const char *pre, int64_t s0, int64_t s1)
{
    if (s1) isa_sbuf_printf(b, "%sstep=%lld,%lld", pre, (long long)s0, (long long)s1);
    else if (s0) isa_sbuf_printf(b, "%sstep=%lld", pre, (long long)s0);
}

static void put_ap(struct isa_sbuf *b, const struct isa_ap *ap)
{
    isa_sbuf_printf(b, "%s[%u:%u, 0x%llx", isa_space_name((enum isa_space)ap->space), ap->part_start,
                    (unsigned)ap->part_start + ap->part_count, (unsigned long long)ap->addr);
    if (ap->part_stride_bytes) isa_sbuf_printf(b, " +p%lld", (long long)ap->part_stride_bytes);
    int nd = ap->ndims <= ISA_MAX_DIMS ? ap->ndims : ISA_MAX_DIMS;
    for (int d = 0; d < nd; d++)
        isa_sbuf_printf(b, "%s[%lld,%u]", d ? "," : ", ", (long long)ap->stride[d], ap->count[d]);
    isa_sbuf_printf(b, " x %s",
                    ap->dtype < BASE_DT_COUNT ? base_dtype_name((enum base_dtype)ap->dtype) : "?");
    put_steps(b, " ", ap->loop_step_bytes[0], ap->loop_step_bytes[1]);
    isa_sbuf_printf(b, "]");
}

static void put_imm(struct isa_sbuf *b, double v)
{
    char tmp[64];
    isa_fmt_double(v, tmp, sizeof tmp);
    isa_sbuf_printf(b, "%s", tmp);
}

/* A scalar operand: an immediate, or a per-partition pattern when flag is set. */
static void put_scalar(struct isa_sbuf *b, const struct isa_instr *in, unsigned flag, double imm,
                       const struct isa_ap *ap)
{
    isa_sbuf_printf(b, ", ");
    if (in->flags & flag) put_ap(b, ap);
    else put_imm(b, imm);
}

static void put_wait(struct isa_sbuf *b, const struct isa_instr *in)
{
    isa_sbuf_printf(b, "s%u>=%d", in->wait_sem, in->wait_value);
    put_steps(b, " ", in->wait_step[0], in->wait_step[1]);
}

static void format_instr(struct isa_sbuf *b, const struct isa_instr *in)
{
    enum isa_op op = (enum isa_op)in->op;
    enum isa_fmt fmt = isa_op_fmt(op);
    isa_sbuf_printf(b, "%s", isa_op_name(op));
    switch (fmt) {
    case ISA_FMT_UNARY:
    case ISA_FMT_BINARY:
    case ISA_FMT_REDUCE: isa_sbuf_printf(b, ".%s", isa_alu_name((enum isa_alu)in->func)); break;
    case ISA_FMT_TENSOR_SCALAR:
        isa_sbuf_printf(b, ".%s", isa_alu_name((enum isa_alu)in->func));
        if (in->func2 != ISA_ALU_BYPASS) isa_sbuf_printf(b, ".%s", isa_alu_name((enum isa_alu)in->func2));
        break;
    case ISA_FMT_ACTIVATE: isa_sbuf_printf(b, ".%s", isa_act_name((enum isa_act)in->func)); break;
    case ISA_FMT_MATMUL:
        if (in->func != ISA_PREC_DEFAULT) isa_sbuf_printf(b, ".%s", isa_precision_name((enum isa_precision)in->func));
        break;
    default: break;
    }
    bool wait_done = false, signal_done = false;
    switch (fmt) {
    case ISA_FMT_NONE:
    case ISA_FMT_COUNT: break;
    case ISA_FMT_SEM:
        isa_sbuf_printf(b, " ");
        if (op == ISA_OP_SEM_WAIT) {
            put_wait(b, in);
            wait_done = true;
        } else {
            isa_sbuf_printf(b, "s%u+=%d", in->signal_sem, in->signal_inc);
            signal_done = true;
        }
        break;
    case ISA_FMT_LOOP: isa_sbuf_printf(b, " %u, %u", in->count, in->body); break;
    case ISA_FMT_DMA:
    case ISA_FMT_UNARY:
    case ISA_FMT_COPY:
        isa_sbuf_printf(b, " ");
        put_ap(b, &in->dst);
        isa_sbuf_printf(b, ", ");
        put_ap(b, &in->src0);
        break;
    case ISA_FMT_MATMUL:
    case ISA_FMT_BINARY:
    case ISA_FMT_SELECT:
        isa_sbuf_printf(b, " ");
        put_ap(b, &in->dst);
        isa_sbuf_printf(b, ", ");
        put_ap(b, &in->src0);
        isa_sbuf_printf(b, ", ");
        put_ap(b, &in->src1);
        if (fmt == ISA_FMT_SELECT) {
            isa_sbuf_printf(b, ", ");
            put_ap(b, &in->src2);
        }
        break;
    case ISA_FMT_TENSOR_SCALAR:
    case ISA_FMT_ACTIVATE:
        isa_sbuf_printf(b, " ");
        put_ap(b, &in->dst);
        isa_sbuf_printf(b, ", ");
        put_ap(b, &in->src0);
        put_scalar(b, in, ISA_FLAG_SCALE_AP, in->imm0, &in->src1);
        if (fmt == ISA_FMT_ACTIVATE || in->func2 != ISA_ALU_BYPASS)
            put_scalar(b, in, ISA_FLAG_BIAS_AP, in->imm1, &in->src2);
        break;
    case ISA_FMT_IOTA:
    case ISA_FMT_MEMSET:
        isa_sbuf_printf(b, " ");
        put_ap(b, &in->dst);
        isa_sbuf_printf(b, ", ");
        put_imm(b, in->imm0);
        if (fmt == ISA_FMT_IOTA) {
            isa_sbuf_printf(b, ", ");
            put_imm(b, in->imm1);
        }
        break;
    case ISA_FMT_REDUCE:
        isa_sbuf_printf(b, " ");
        put_ap(b, &in->dst);
        isa_sbuf_printf(b, ", ");
        put_ap(b, &in->src0);
        isa_sbuf_printf(b, ", %u", in->count);
        break;
    }
    if (in->flags & ISA_FLAG_START) isa_sbuf_printf(b, " start");
    if (in->flags & ISA_FLAG_STOP) isa_sbuf_printf(b, " stop");
    if (in->flags & ISA_FLAG_ACCUMULATE) isa_sbuf_printf(b, " acc");
    if ((in->flags & ISA_FLAG_WAIT) && !wait_done) {
        isa_sbuf_printf(b, " wait ");
        put_wait(b, in);
    }
    if ((in->flags & ISA_FLAG_SIGNAL) && !signal_done)
        isa_sbuf_printf(b, " signal s%u+=%d", in->signal_sem, in->signal_inc);
    if (in->tag) isa_sbuf_printf(b, " tag=%u", in->tag);
}

enum base_status isa_disassemble_instr(const struct isa_instr *in, char *buf, size_t cap)
{
    struct isa_sbuf b = {buf, cap, 0, false};
    if (cap) buf[0] = 0;
    format_instr(&b, in);
    return b.overflow ? BASE_ERR_LIMIT : BASE_OK;
}

enum base_status isa_disassemble(const struct isa_program *p, FILE *f)
{
    char line[2048];
    if (p->name[0]) fprintf(f, ".program %.*s\n", (int)sizeof p->name, p->name);
    for (int s = 0; s < p->n_streams && s < ISA_MAX_STREAMS; s++) {
        const struct isa_stream *st = &p->streams[s];
        fprintf(f, "%s.engine %.*s\n", s || p->name[0] ? "\n" : "", (int)sizeof st->engine, st->engine);
        /* loop bodies are indented one level deeper than their loop */
        uint64_t ends[ISA_MAX_LOOP_DEPTH + 1];
        int depth = 0;
        for (uint32_t i = 0; i < st->n; i++) {
            while (depth > 0 && ends[depth - 1] <= i) depth--;
            const struct isa_instr *in = &st->instrs[i];
            if (isa_disassemble_instr(in, line, sizeof line) != BASE_OK) return BASE_ERR_LIMIT;
            fprintf(f, "%*s%s\n", 4 * (depth + 1), "", line);
            if (in->op == ISA_OP_LOOP && depth < ISA_MAX_LOOP_DEPTH + 1) ends[depth++] = (uint64_t)i + 1 + in->body;
        }
    }
    return ferror(f) ? BASE_ERR_IO : BASE_OK;
}
