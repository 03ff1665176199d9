/* Programs: named instruction streams, and their structural validation. */
#include "isa/isa_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void isa_program_init(struct isa_program *p) { memset(p, 0, sizeof *p); }

void isa_program_deinit(struct isa_program *p)
{
    if (!p) return;
    for (int i = 0; i < ISA_MAX_STREAMS; i++) free(p->streams[i].instrs); /* reset keeps spare buffers */
    isa_program_init(p);
}

void isa_program_reset(struct isa_program *p)
{
    for (int i = 0; i < p->n_streams; i++) p->streams[i].n = 0;
    p->n_streams = 0;
    p->name[0] = 0;
}

static bool ident_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

bool isa_engine_name_ok(const char *s, size_t n)
{
    if (n == 0 || n >= sizeof(((struct isa_stream *)0)->engine)) return false;
    for (size_t i = 0; i < n; i++)
        if (!ident_char(s[i], i == 0)) return false;
    return true;
}

bool isa_program_name_ok(const char *s, size_t n)
{
    if (n >= sizeof(((struct isa_program *)0)->name)) return false;
    for (size_t i = 0; i < n; i++)
        if (!ident_char(s[i], false) && s[i] != '.' && s[i] != '-') return false;
    return true;
}

struct isa_stream *isa_program_stream(struct isa_program *p, const char *engine)
{
    size_t n = strlen(engine);
    for (int i = 0; i < p->n_streams; i++)
        if (strcmp(p->streams[i].engine, engine) == 0) return &p->streams[i];
    if (p->n_streams >= ISA_MAX_STREAMS || n == 0 || n >= sizeof p->streams[0].engine) return NULL;
    struct isa_stream *s = &p->streams[p->n_streams++];
    struct isa_instr *spare = s->instrs; /* a buffer isa_program_reset kept */
    uint32_t cap = s->cap;
    memset(s, 0, sizeof *s);
    s->instrs = spare;
    s->cap = cap;
    memcpy(s->engine, engine, n + 1);
    return s;
}

enum base_status isa_stream_push(struct isa_stream *s, const struct isa_instr *in)
{
    if (s->n == s->cap) {
        if (s->cap >= UINT32_MAX / 2) return BASE_ERR_LIMIT;
        uint32_t cap = s->cap ? s->cap * 2 : 16;
        struct isa_instr *ni = realloc(s->instrs, (size_t)cap * sizeof *ni);
        if (!ni) return BASE_ERR_NOMEM;
        s->instrs = ni;
        s->cap = cap;
    }
    s->instrs[s->n++] = *in;
    return BASE_OK;
}

uint64_t isa_program_count(const struct isa_program *p)
{
    uint64_t n = 0;
    for (int i = 0; i < p->n_streams; i++) n += p->streams[i].n;
    return n;
}

uint64_t isa_stream_steps(const struct isa_stream *s, uint32_t *heaviest)
{
    uint64_t total = 0, mult[ISA_MAX_LOOP_DEPTH + 1] = {1}, worst = 0;
    uint64_t end[ISA_MAX_LOOP_DEPTH + 1] = {0};
    int depth = 0;
    if (heaviest) *heaviest = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        while (depth > 0 && i >= end[depth]) depth--;
        const struct isa_instr *in = &s->instrs[i];
        total = base_sat_add_u64(total, mult[depth]);
        if (in->op == ISA_OP_LOOP && depth < ISA_MAX_LOOP_DEPTH) {
            depth++;
            end[depth] = (uint64_t)i + 1 + in->body;
            mult[depth] = base_sat_mul_u64(mult[depth - 1], in->count ? in->count : 1); /* 0 trips run once */
            if (mult[depth] > worst) {
                worst = mult[depth];
                if (heaviest) *heaviest = i;
            }
        }
    }
    return total;
}

/* ------------------------------------------------------------------------ */
/* Structural validation                                                     */

struct open_loop {
    uint64_t end; /* index one past the body */
    uint32_t trips;
};

static enum base_status why_set(char *why, size_t cap, const char *fmt, ...) BASE_PRINTF(3, 4);
static enum base_status why_set(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return BASE_ERR_VERIFY;
}

static enum base_status check_stream(const struct isa_stream *s, uint32_t *at, char *why, size_t cap)
{
    struct open_loop loops[ISA_MAX_LOOP_DEPTH];
    int depth = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct isa_instr *in = &s->instrs[i];
        *at = i;
        while (depth > 0 && loops[depth - 1].end <= i) depth--;
        TRY(isa_instr_check(in, why, cap, NULL));
        for (int d = depth; d < ISA_MAX_LOOP_DEPTH; d++)
            if (in->wait_step[d])
                return why_set(why, cap, "wait: step for loop level %d, but %d loop(s) enclose it", d, depth);
        const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
        enum isa_fmt fmt = isa_op_fmt((enum isa_op)in->op);
        uint32_t trips[ISA_MAX_LOOP_DEPTH] = {0};
        for (int d = 0; d < depth; d++) trips[d] = loops[depth - 1 - d].trips; /* 0 = innermost */
        for (int a = 0; a < 4; a++) {
            if (isa_ap_is_zero(aps[a])) continue;
            const char *r = isa_field_role(fmt, (enum isa_field)(ISA_FIELD_DST + a));
            for (int d = depth; d < ISA_MAX_LOOP_DEPTH; d++)
                if (aps[a]->loop_step_bytes[d])
                    return why_set(why, cap, "%s: step for loop level %d, but %d loop(s) enclose it", r, d, depth);
            int64_t lo, hi;
            isa_ap_extent_loops(aps[a], trips, depth, &lo, &hi);
            if (lo < 0 || hi > ISA_MAX_ADDR)
                return why_set(why, cap, "%s: over the loop iterations touches bytes [%lld, %lld), outside [0, 2^48)",
                               r, (long long)lo, (long long)hi);
        }
        if (in->op != ISA_OP_LOOP) continue;
        if (depth == ISA_MAX_LOOP_DEPTH) return why_set(why, cap, "loops nest deeper than %d", ISA_MAX_LOOP_DEPTH);
        uint64_t end = (uint64_t)i + 1 + in->body;
        if (end > s->n)
            return why_set(why, cap, "body of %u instructions runs past the end of the stream (%u follow)", in->body,
                           s->n - i - 1);
        if (depth > 0 && end > loops[depth - 1].end)
            return why_set(why, cap, "body of %u instructions runs past the end of the enclosing loop's body",
                           in->body);
        loops[depth].end = end;
        loops[depth].trips = in->count;
        depth++;
    }
    return BASE_OK;
}

enum base_status isa_program_check(const struct isa_program *p, int *stream, uint32_t *instr, char *why, size_t cap)
{
    *stream = -1;
    *instr = UINT32_MAX;
    if (p->n_streams < 0 || p->n_streams > ISA_MAX_STREAMS)
        return why_set(why, cap, "%d streams, at most %d", p->n_streams, ISA_MAX_STREAMS);
    if (!isa_program_name_ok(p->name, strnlen(p->name, sizeof p->name)))
        return why_set(why, cap, "bad program name (1-63 characters [A-Za-z0-9_.-])");
    for (int i = 0; i < p->n_streams; i++) {
        const struct isa_stream *s = &p->streams[i];
        *stream = i;
        if (!isa_engine_name_ok(s->engine, strnlen(s->engine, sizeof s->engine)))
            return why_set(why, cap, "stream %d: bad engine name (1-15 characters [A-Za-z_][A-Za-z0-9_]*)", i);
        for (int j = 0; j < i; j++)
            if (strcmp(p->streams[j].engine, s->engine) == 0)
                return why_set(why, cap, "two streams for engine '%s'", s->engine);
        if (s->n && !s->instrs) return why_set(why, cap, "stream '%s' has %u instructions and no storage", s->engine, s->n);
        TRY(check_stream(s, instr, why, cap));
        *instr = UINT32_MAX;
    }
    return BASE_OK;
}

enum base_status isa_program_validate(const struct isa_program *p, const char *path, struct base_diag *diag)
{
    int s;
    uint32_t i;
    char why[320];
    enum base_status st = isa_program_check(p, &s, &i, why, sizeof why);
    if (st == BASE_OK) return BASE_OK;
    if (s < 0 || i == UINT32_MAX) return base_diag_set(diag, st, path ? path : "", 0, 0, "%s", why);
    const struct isa_instr *in = &p->streams[s].instrs[i];
    return base_diag_set(diag, st, path ? path : "", (int)in->src_line, in->src_line ? 1 : 0,
                         "stream '%s', instruction %u (%s): %s", p->streams[s].engine, i,
                         isa_op_name((enum isa_op)in->op), why);
}

enum base_status isa_program_load(const char *path, struct isa_program *out, struct base_diag *diag)
{
    return isa_program_load_lim(path, NULL, out, diag);
}

static enum base_status isa_program_load_lim_impl(const char *path, const struct base_limits *lim, struct isa_program *out,
                                      struct base_diag *diag)
{
    isa_program_init(out);
    char *buf = NULL;
    size_t len = 0;
    TRY(base_file_read_lim(path, lim, &buf, &len, diag));
    enum base_status st;
    size_t mlen = strlen(ISA_BIN_MAGIC);
    if (len >= mlen && memcmp(buf, ISA_BIN_MAGIC, mlen) == 0)
        st = isa_decode((const uint8_t *)buf, len, path, out, diag);
    else
        st = isa_assemble(buf, len, path, out, diag);
    free(buf);
    return st;
}

enum base_status isa_program_load_lim(const char *path, const struct base_limits *lim, struct isa_program *out,
                                      struct base_diag *diag)
{
    return base_diag_ensure(diag, isa_program_load_lim_impl(path, lim, out, diag), path, "loading a program");
}
