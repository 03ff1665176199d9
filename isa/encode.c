/* Binary encoding of programs (layout in docs/isa.md): little-endian, a
 * versioned header, then per stream its engine name, instruction count and
 * fixed-size records.  Written field by field, so the layout does not depend
 * on the host's struct layout or byte order.  The decoder trusts nothing: it
 * checks sizes before it allocates and validates every record. */
#include "isa/isa_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    HDR_BYTES = 80,     /* magic[6] version u16 n_streams u32 record_bytes u32 name[64] */
    STREAM_BYTES = 24,  /* engine[16] n_instrs u32 reserved u32 */
    AP_BYTES = 88,
    REC_HEAD_BYTES = 56,
    REC_BYTES = REC_HEAD_BYTES + 4 * AP_BYTES, /* 408 */
};

/* ------------------------------------------------------------------------ */
/* Little-endian fields                                                      */

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t dbl_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double bits_dbl(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static void put_ap(uint8_t *p, const struct isa_ap *ap)
{
    p[0] = ap->space;
    p[1] = ap->dtype;
    p[2] = ap->ndims;
    p[3] = ap->reserved;
    put(p + 4, ap->part_start, 2);
    put(p + 6, ap->part_count, 2);
    put(p + 8, ap->addr, 8);
    put(p + 16, (uint64_t)ap->part_stride_bytes, 8);
    for (int d = 0; d < ISA_MAX_DIMS; d++) put(p + 24 + 8 * d, (uint64_t)ap->stride[d], 8);
    for (int d = 0; d < ISA_MAX_DIMS; d++) put(p + 56 + 4 * d, ap->count[d], 4);
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) put(p + 72 + 8 * d, (uint64_t)ap->loop_step_bytes[d], 8);
}

static void get_ap(const uint8_t *p, struct isa_ap *ap)
{
    ap->space = p[0];
    ap->dtype = p[1];
    ap->ndims = p[2];
    ap->reserved = p[3];
    ap->part_start = (uint16_t)get(p + 4, 2);
    ap->part_count = (uint16_t)get(p + 6, 2);
    ap->addr = get(p + 8, 8);
    ap->part_stride_bytes = (int64_t)get(p + 16, 8);
    for (int d = 0; d < ISA_MAX_DIMS; d++) ap->stride[d] = (int64_t)get(p + 24 + 8 * d, 8);
    for (int d = 0; d < ISA_MAX_DIMS; d++) ap->count[d] = (uint32_t)get(p + 56 + 4 * d, 4);
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) ap->loop_step_bytes[d] = (int64_t)get(p + 72 + 8 * d, 8);
}

static void put_instr(uint8_t *p, const struct isa_instr *in)
{
    p[0] = in->op;
    p[1] = in->func;
    p[2] = in->func2;
    p[3] = in->flags;
    put(p + 4, in->wait_sem, 2);
    put(p + 6, in->signal_sem, 2);
    put(p + 8, (uint32_t)in->wait_value, 4);
    put(p + 12, (uint32_t)in->signal_inc, 4);
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) put(p + 16 + 4 * d, (uint32_t)in->wait_step[d], 4);
    put(p + 24, in->count, 4);
    put(p + 28, in->body, 4);
    put(p + 32, dbl_bits(in->imm0), 8);
    put(p + 40, dbl_bits(in->imm1), 8);
    put(p + 48, in->tag, 4);
    put(p + 52, 0, 4); /* reserved */
    const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    for (int a = 0; a < 4; a++) put_ap(p + REC_HEAD_BYTES + AP_BYTES * a, aps[a]);
}

static void get_instr(const uint8_t *p, struct isa_instr *in)
{
    memset(in, 0, sizeof *in);
    in->op = p[0];
    in->func = p[1];
    in->func2 = p[2];
    in->flags = p[3];
    in->wait_sem = (uint16_t)get(p + 4, 2);
    in->signal_sem = (uint16_t)get(p + 6, 2);
    in->wait_value = (int32_t)(uint32_t)get(p + 8, 4);
    in->signal_inc = (int32_t)(uint32_t)get(p + 12, 4);
    for (int d = 0; d < ISA_MAX_LOOP_DEPTH; d++) in->wait_step[d] = (int32_t)(uint32_t)get(p + 16 + 4 * d, 4);
    in->count = (uint32_t)get(p + 24, 4);
    in->body = (uint32_t)get(p + 28, 4);
    in->imm0 = bits_dbl(get(p + 32, 8));
    in->imm1 = bits_dbl(get(p + 40, 8));
    in->tag = (uint32_t)get(p + 48, 4);
    struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    for (int a = 0; a < 4; a++) get_ap(p + REC_HEAD_BYTES + AP_BYTES * a, aps[a]);
}

/* Byte offset, within a record, of the field a validation error names. */
static size_t field_offset(enum isa_field f)
{
    switch (f) {
    case ISA_FIELD_OP: return 0;
    case ISA_FIELD_FLAGS: return 3;
    case ISA_FIELD_WAIT: return 4;
    case ISA_FIELD_SIGNAL: return 6;
    case ISA_FIELD_COUNT: return 24;
    case ISA_FIELD_BODY: return 28;
    case ISA_FIELD_IMM0: return 32;
    case ISA_FIELD_IMM1: return 40;
    case ISA_FIELD_DST:
    case ISA_FIELD_SRC0:
    case ISA_FIELD_SRC1:
    case ISA_FIELD_SRC2: return REC_HEAD_BYTES + AP_BYTES * (size_t)(f - ISA_FIELD_DST);
    default: return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* Encoder                                                                   */

enum base_status isa_encode(const struct isa_program *p, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    int si;
    uint32_t ii;
    char why[320];
    TRY(isa_program_check(p, &si, &ii, why, sizeof why));
    size_t total = HDR_BYTES;
    for (int s = 0; s < p->n_streams; s++) {
        size_t add = STREAM_BYTES + (size_t)p->streams[s].n * REC_BYTES;
        if (total > SIZE_MAX - add) return BASE_ERR_LIMIT; /* 64-bit size_t: never */
        total += add;
    }
    uint8_t *buf = calloc(1, total);
    if (!buf) return BASE_ERR_NOMEM;
    memcpy(buf, ISA_BIN_MAGIC, 6);
    put(buf + 6, ISA_BIN_VERSION, 2);
    put(buf + 8, (uint32_t)p->n_streams, 4);
    put(buf + 12, REC_BYTES, 4);
    memcpy(buf + 16, p->name, strnlen(p->name, sizeof p->name)); /* NUL-padded by calloc */
    size_t off = HDR_BYTES;
    for (int s = 0; s < p->n_streams; s++) {
        const struct isa_stream *st = &p->streams[s];
        memcpy(buf + off, st->engine, strnlen(st->engine, sizeof st->engine));
        put(buf + off + 16, st->n, 4);
        off += STREAM_BYTES;
        for (uint32_t i = 0; i < st->n; i++, off += REC_BYTES) put_instr(buf + off, &st->instrs[i]);
    }
    *out = buf;
    *len = total;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Decoder                                                                   */

static enum base_status bin_err(struct base_diag *diag, const char *path, size_t off, const char *fmt, ...)
    BASE_PRINTF(4, 5);
static enum base_status bin_err(struct base_diag *diag, const char *path, size_t off, const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0, "at byte offset %zu: %s", off, msg);
}

/* A NUL-padded name field: name chars, a NUL, then only NULs. */
static bool padded_name(const uint8_t *p, size_t cap, size_t *len)
{
    size_t n = 0;
    while (n < cap && p[n]) n++;
    if (n == cap) return false;
    for (size_t i = n; i < cap; i++)
        if (p[i]) return false;
    *len = n;
    return true;
}

static enum base_status decode(const uint8_t *buf, size_t len, const char *path, struct isa_program *out,
                               struct base_diag *diag, size_t *stream_off)
{
    if (len < HDR_BYTES)
        return bin_err(diag, path, len, "truncated header: %zu bytes, a header has %d", len, HDR_BYTES);
    if (memcmp(buf, ISA_BIN_MAGIC, 6) != 0) return bin_err(diag, path, 0, "not an npusim program (no NPUISA magic)");
    unsigned version = (unsigned)get(buf + 6, 2);
    if (version != ISA_BIN_VERSION)
        return bin_err(diag, path, 6, "version %u, this build reads version %d", version, ISA_BIN_VERSION);
    uint32_t n_streams = (uint32_t)get(buf + 8, 4);
    if (n_streams > ISA_MAX_STREAMS) return bin_err(diag, path, 8, "%u streams, at most %d", n_streams, ISA_MAX_STREAMS);
    uint32_t rec = (uint32_t)get(buf + 12, 4);
    if (rec != REC_BYTES) return bin_err(diag, path, 12, "records of %u bytes, version 1 has %d", rec, REC_BYTES);
    size_t nlen;
    if (!padded_name(buf + 16, 64, &nlen) || !isa_program_name_ok((const char *)buf + 16, nlen))
        return bin_err(diag, path, 16, "bad program name (NUL-padded, [A-Za-z0-9_.-], at most 63 bytes)");
    memcpy(out->name, buf + 16, nlen);
    size_t off = HDR_BYTES;
    for (uint32_t s = 0; s < n_streams; s++) {
        if (len - off < STREAM_BYTES)
            return bin_err(diag, path, len, "truncated: stream %u header needs %d bytes, %zu left", s, STREAM_BYTES,
                           len - off);
        const uint8_t *h = buf + off;
        size_t elen;
        if (!padded_name(h, 16, &elen) || !isa_engine_name_ok((const char *)h, elen))
            return bin_err(diag, path, off, "stream %u: bad engine name (NUL-padded [A-Za-z_][A-Za-z0-9_]*, 1-15 bytes)", s);
        char name[16];
        memcpy(name, h, 16);
        for (int j = 0; j < out->n_streams; j++)
            if (strcmp(out->streams[j].engine, name) == 0)
                return bin_err(diag, path, off, "a second stream for engine '%s'", name);
        uint32_t n = (uint32_t)get(h + 16, 4);
        if (get(h + 20, 4)) return bin_err(diag, path, off + 20, "stream '%s': reserved word is not 0", name);
        off += STREAM_BYTES;
        if ((len - off) / REC_BYTES < n)
            return bin_err(diag, path, len, "truncated: stream '%s' declares %u instructions, %zu bytes hold %zu",
                           name, n, len - off, (len - off) / REC_BYTES);
        struct isa_stream *st = isa_program_stream(out, name);
        if (!st) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "cannot add stream '%s'", name);
        stream_off[s] = off;
        if (n) {
            st->instrs = malloc((size_t)n * sizeof *st->instrs);
            if (!st->instrs) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "cannot hold %u instructions", n);
            st->cap = n;
        }
        for (uint32_t i = 0; i < n; i++, off += REC_BYTES) {
            struct isa_instr in;
            get_instr(buf + off, &in);
            if (get(buf + off + 52, 4))
                return bin_err(diag, path, off + 52, "stream '%s', instruction %u: reserved word is not 0", name, i);
            char why[256];
            enum isa_field f;
            if (isa_instr_check(&in, why, sizeof why, &f) != BASE_OK)
                return base_diag_set(diag, BASE_ERR_VERIFY, path, 0, 0,
                                     "at byte offset %zu: stream '%s', instruction %u (%s): %s",
                                     off + field_offset(f), name, i, isa_op_name((enum isa_op)in.op), why);
            st->instrs[st->n++] = in;
        }
    }
    if (off != len) return bin_err(diag, path, off, "%zu bytes after the last stream", len - off);
    int es;
    uint32_t ei;
    char why[320];
    if (isa_program_check(out, &es, &ei, why, sizeof why) != BASE_OK) {
        if (es < 0 || ei == UINT32_MAX) return base_diag_set(diag, BASE_ERR_VERIFY, path, 0, 0, "%s", why);
        return base_diag_set(diag, BASE_ERR_VERIFY, path, 0, 0,
                             "at byte offset %zu: stream '%s', instruction %u (%s): %s",
                             stream_off[es] + (size_t)ei * REC_BYTES, out->streams[es].engine, ei,
                             isa_op_name((enum isa_op)out->streams[es].instrs[ei].op), why);
    }
    return BASE_OK;
}

enum base_status isa_decode(const uint8_t *buf, size_t len, const char *path, struct isa_program *out,
                            struct base_diag *diag)
{
    isa_program_init(out);
    size_t stream_off[ISA_MAX_STREAMS] = {0};
    enum base_status st = decode(buf, len, path ? path : "", out, diag, stream_off);
    if (st != BASE_OK) isa_program_deinit(out);
    return st;
}
