/* The binary encoding: its documented layout, round trips of randomised
 * programs (encode -> decode, disasm -> asm, binary -> text -> binary), and
 * truncated or corrupt binaries rejected with a byte offset. */
#include "tests/harness.h"
#include "isa/isa.h"

#include <math.h>
#include <unistd.h>

enum { HDR = 80, SHDR = 24, REC = 408 };

/* ------------------------------------------------------------------------ */
/* Random valid programs                                                     */

struct gen {
    struct base_rng r;
};

static uint64_t rnd(struct gen *g, uint64_t n) { return base_rng_next(&g->r) % n; }

static const enum base_dtype any_types[] = {BASE_DT_BF16, BASE_DT_F16,  BASE_DT_F32,      BASE_DT_F64,
                                            BASE_DT_SI8,  BASE_DT_UI8,  BASE_DT_SI16,     BASE_DT_SI32,
                                            BASE_DT_UI32, BASE_DT_SI64, BASE_DT_F8E4M3FN, BASE_DT_F8E5M2,
                                            BASE_DT_I1,   BASE_DT_SI4,  BASE_DT_F4E2M1FN};
static const enum base_dtype int_types[] = {BASE_DT_SI8, BASE_DT_UI8, BASE_DT_SI16, BASE_DT_SI32, BASE_DT_UI32,
                                            BASE_DT_SI64, BASE_DT_I1};
static const enum base_dtype mm_types[] = {BASE_DT_BF16, BASE_DT_F16, BASE_DT_F32, BASE_DT_SI8,
                                           BASE_DT_UI8, BASE_DT_F8E4M3FN, BASE_DT_F8E5M2};

static enum base_dtype pick_type(struct gen *g, bool ints)
{
    return ints ? int_types[rnd(g, ARRAY_LEN(int_types))] : any_types[rnd(g, ARRAY_LEN(any_types))];
}

static double gen_imm(struct gen *g, bool integer)
{
    if (integer) return (double)((int64_t)rnd(g, 1u << 20) - (1 << 19));
    switch (rnd(g, 8)) {
    case 0: return (double)((int64_t)rnd(g, 2000) - 1000);
    case 1: return INFINITY;
    case 2: return -0.0;
    case 3: return rnd(g, 2) ? NAN : -NAN;
    case 4: return 4.9406564584124654e-324; /* the smallest subnormal */
    case 5: return ldexp(base_rng_uniform(&g->r), (int)rnd(g, 2000) - 1000);
    default: return base_rng_normal(&g->r);
    }
}

/* A pattern of P partitions holding F elements each, walked by `depth` loops. */
static struct isa_ap gen_ap(struct gen *g, enum isa_space sp, enum base_dtype dt, uint32_t P, uint64_t F, int min_dims,
                            int depth)
{
    struct isa_ap a = {.space = (uint8_t)sp, .dtype = (uint8_t)dt, .part_count = (uint16_t)P};
    if (sp == ISA_SPACE_HBM) a.part_stride_bytes = (int64_t)rnd(g, 5) * 512 - 1024;
    else a.part_start = (uint16_t)rnd(g, ISA_MAX_PARTITIONS - P + 1);
    int nd = min_dims + (int)rnd(g, (uint64_t)(ISA_MAX_DIMS - min_dims + 1));
    if (F > 1 && nd == 0) nd = 1;
    uint64_t rem = F;
    for (int d = 0; d < nd; d++) {
        uint64_t c = rem;
        if (d + 1 < nd) { /* a random divisor of what is left */
            uint64_t divs[64];
            int nds = 0;
            for (uint64_t k = 1; k <= rem && nds < 64; k++)
                if (rem % k == 0) divs[nds++] = k;
            c = divs[rnd(g, (uint64_t)nds)];
        }
        a.count[d] = (uint32_t)c;
        rem /= c;
        a.stride[d] = (int64_t)rnd(g, 12) - 3;
    }
    a.ndims = (uint8_t)nd;
    for (int d = 0; d < depth; d++) a.loop_step_bytes[d] = rnd(g, 2) ? (int64_t)rnd(g, 8) * 128 : 0;
    int64_t lo, hi;
    isa_ap_extent(&a, &lo, &hi);
    a.addr = (uint64_t)(-lo) + rnd(g, 4096);
    return a;
}

static enum isa_space sp_or_acc(struct gen *g) { return rnd(g, 2) ? ISA_SPACE_SP : ISA_SPACE_ACC; }

static const uint64_t free_sizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 30, 64, 128, 512, 1000};

static bool bitwise(unsigned f)
{
    return f == ISA_ALU_AND || f == ISA_ALU_OR || f == ISA_ALU_XOR || f == ISA_ALU_SHL || f == ISA_ALU_SHR ||
           f == ISA_ALU_NOT || isa_alu_is_int(f); /* integer functions take integer elements too */
}

static void gen_scalars(struct gen *g, struct isa_instr *in, bool two, bool ints0, bool ints1, enum isa_space sp,
                        enum base_dtype dt, int depth)
{
    if (rnd(g, 3) == 0) {
        in->flags |= ISA_FLAG_SCALE_AP;
        in->src1 = gen_ap(g, sp, dt, in->dst.part_count, 1, 0, depth);
    } else {
        in->imm0 = gen_imm(g, ints0);
    }
    if (!two) return;
    if (rnd(g, 3) == 0) {
        in->flags |= ISA_FLAG_BIAS_AP;
        in->src2 = gen_ap(g, sp, dt, in->dst.part_count, 1, 0, depth);
    } else {
        in->imm1 = gen_imm(g, ints1);
    }
}

static struct isa_instr gen_instr(struct gen *g, enum isa_op op, int depth)
{
    struct isa_instr in = {.op = (uint8_t)op};
    uint32_t P = 1 + (uint32_t)rnd(g, ISA_MAX_PARTITIONS);
    uint64_t F = free_sizes[rnd(g, ARRAY_LEN(free_sizes))];
    enum isa_space s = sp_or_acc(g);
    switch (op) {
    case ISA_OP_NOP:
    case ISA_OP_HALT:
    case ISA_OP_LOOP: break;
    case ISA_OP_SEM_WAIT: in.flags |= ISA_FLAG_WAIT; break;
    case ISA_OP_SEM_SIGNAL: in.flags |= ISA_FLAG_SIGNAL; break;
    case ISA_OP_DMA: {
        uint64_t total = P * F;
        enum isa_space ds = (enum isa_space)(1 + rnd(g, 3)), ss = (enum isa_space)(1 + rnd(g, 3));
        uint32_t P2 = 1;
        for (uint32_t k = 1; k <= ISA_MAX_PARTITIONS && k <= total; k++)
            if (total % k == 0 && rnd(g, 3) == 0) P2 = k;
        in.dst = gen_ap(g, ds, pick_type(g, false), P, F, 0, depth);
        in.src0 = gen_ap(g, ss, pick_type(g, false), P2, total / P2, 0, depth);
        if (rnd(g, 4) == 0) in.flags |= ISA_FLAG_ACCUMULATE;
        break;
    }
    case ISA_OP_MATMUL: {
        uint32_t K = 1 + (uint32_t)rnd(g, 128), M = 1 + (uint32_t)rnd(g, 128);
        enum base_dtype a = mm_types[rnd(g, ARRAY_LEN(mm_types))], b = mm_types[rnd(g, ARRAY_LEN(mm_types))];
        in.src0 = gen_ap(g, ISA_SPACE_SP, a, K, M, 0, depth);
        in.src1 = gen_ap(g, ISA_SPACE_SP, b, K, F, 0, depth);
        in.dst = gen_ap(g, ISA_SPACE_ACC, BASE_DT_F32, M, F, 0, depth);
        if (a == BASE_DT_F32 || b == BASE_DT_F32) in.func = (uint8_t)rnd(g, ISA_PREC_COUNT);
        in.flags |= (uint8_t)(rnd(g, 2) ? ISA_FLAG_START : 0) | (uint8_t)(rnd(g, 2) ? ISA_FLAG_STOP : 0);
        if ((in.flags & ISA_FLAG_START) && rnd(g, 2)) in.flags |= ISA_FLAG_ACCUMULATE;
        break;
    }
    case ISA_OP_TRANSPOSE: {
        uint32_t Fp = 1 + (uint32_t)rnd(g, 128);
        in.src0 = gen_ap(g, sp_or_acc(g), pick_type(g, false), P, Fp, 0, depth);
        in.dst = gen_ap(g, s, pick_type(g, false), Fp, P, 0, depth);
        break;
    }
    case ISA_OP_COPY:
    case ISA_OP_UNARY:
    case ISA_OP_BINARY:
    case ISA_OP_SELECT: {
        if (op == ISA_OP_UNARY) {
            static const enum isa_alu un[] = {ISA_ALU_NEG, ISA_ALU_ABS, ISA_ALU_NOT};
            in.func = (uint8_t)un[rnd(g, 3)];
        } else if (op == ISA_OP_BINARY) {
            do in.func = (uint8_t)rnd(g, ISA_ALU_COUNT);
            while (isa_alu_arity((enum isa_alu)in.func) != 2);
        }
        bool ints = bitwise(in.func);
        in.dst = gen_ap(g, s, pick_type(g, ints), P, F, 0, depth);
        in.src0 = gen_ap(g, sp_or_acc(g), pick_type(g, ints), P, F, 0, depth);
        if (op == ISA_OP_BINARY || op == ISA_OP_SELECT)
            in.src1 = gen_ap(g, sp_or_acc(g), pick_type(g, ints), P, F, 0, depth);
        if (op == ISA_OP_SELECT) in.src2 = gen_ap(g, sp_or_acc(g), pick_type(g, ints), P, F, 0, depth);
        break;
    }
    case ISA_OP_TENSOR_SCALAR:
    case ISA_OP_ACTIVATE: {
        bool ts = op == ISA_OP_TENSOR_SCALAR;
        if (ts) {
            do in.func = (uint8_t)rnd(g, ISA_ALU_COUNT);
            while (isa_alu_arity((enum isa_alu)in.func) != 2);
            if (rnd(g, 2)) do in.func2 = (uint8_t)rnd(g, ISA_ALU_COUNT);
                while (isa_alu_arity((enum isa_alu)in.func2) != 2);
        } else {
            in.func = (uint8_t)rnd(g, ISA_ACT_COUNT);
        }
        bool ints = ts && (bitwise(in.func) || bitwise(in.func2));
        in.dst = gen_ap(g, s, pick_type(g, ints), P, F, 0, depth);
        in.src0 = gen_ap(g, sp_or_acc(g), pick_type(g, ints), P, F, 0, depth);
        gen_scalars(g, &in, !ts || in.func2 != ISA_ALU_BYPASS, ts && bitwise(in.func), ts && bitwise(in.func2),
                    sp_or_acc(g), pick_type(g, ints), depth);
        break;
    }
    case ISA_OP_IOTA:
    case ISA_OP_MEMSET:
        in.dst = gen_ap(g, s, pick_type(g, false), P, F, 0, depth);
        in.imm0 = gen_imm(g, false);
        if (op == ISA_OP_IOTA) in.imm1 = gen_imm(g, false);
        break;
    case ISA_OP_REDUCE:
    case ISA_OP_PART_REDUCE: {
        static const enum isa_alu red[] = {ISA_ALU_ADD, ISA_ALU_MUL, ISA_ALU_MAX, ISA_ALU_MIN,
                                           ISA_ALU_AND, ISA_ALU_OR,  ISA_ALU_XOR};
        in.func = (uint8_t)red[rnd(g, ARRAY_LEN(red))];
        bool ints = bitwise(in.func), part = op == ISA_OP_PART_REDUCE;
        in.src0 = gen_ap(g, sp_or_acc(g), pick_type(g, ints), P, F, 1, depth);
        in.count = part ? (uint32_t)rnd(g, in.src0.ndims + 1u) : 1 + (uint32_t)rnd(g, in.src0.ndims);
        uint64_t kept = 1;
        for (unsigned d = 0; d + in.count < in.src0.ndims; d++) kept *= in.src0.count[d];
        in.dst = gen_ap(g, s, pick_type(g, ints), part ? 1 : P, kept, 0, depth);
        break;
    }
    case ISA_OP_PART_BROADCAST:
        in.src0 = gen_ap(g, sp_or_acc(g), pick_type(g, false), 1, F, 0, depth);
        in.dst = gen_ap(g, s, pick_type(g, false), P, F, 0, depth);
        break;
    case ISA_OP_COUNT: break;
    }
    /* sync and tag on any instruction */
    if ((in.flags & ISA_FLAG_WAIT) || rnd(g, 4) == 0) {
        in.flags |= ISA_FLAG_WAIT;
        in.wait_sem = (uint16_t)rnd(g, ISA_MAX_SEMAPHORES);
        in.wait_value = (int32_t)(uint32_t)base_rng_next(&g->r);
        for (int d = 0; d < depth; d++) in.wait_step[d] = (int32_t)rnd(g, 5) - 1;
    }
    if ((in.flags & ISA_FLAG_SIGNAL) || rnd(g, 4) == 0) {
        in.flags |= ISA_FLAG_SIGNAL;
        in.signal_sem = (uint16_t)rnd(g, ISA_MAX_SEMAPHORES);
        in.signal_inc = (int32_t)rnd(g, 7) - 3;
        if (!in.signal_inc) in.signal_inc = INT32_MIN;
    }
    if (rnd(g, 3) == 0) in.tag = (uint32_t)base_rng_next(&g->r);
    return in;
}

static void gen_block(struct gen *g, struct isa_stream *s, int items, int depth)
{
    for (int i = 0; i < items; i++) {
        if (depth < ISA_MAX_LOOP_DEPTH && rnd(g, 6) == 0) {
            struct isa_instr loop = gen_instr(g, ISA_OP_LOOP, depth);
            loop.count = 1 + (uint32_t)rnd(g, 64);
            uint32_t at = s->n;
            assert_int_equal(isa_stream_push(s, &loop), BASE_OK);
            gen_block(g, s, 1 + (int)rnd(g, 3), depth + 1);
            s->instrs[at].body = s->n - at - 1;
        } else {
            enum isa_op op;
            do op = (enum isa_op)rnd(g, ISA_OP_COUNT);
            while (op == ISA_OP_LOOP);
            struct isa_instr in = gen_instr(g, op, depth);
            assert_int_equal(isa_stream_push(s, &in), BASE_OK);
        }
    }
}

static void gen_program(struct gen *g, struct isa_program *p)
{
    isa_program_init(p);
    static const char *const names[] = {"pe", "vec", "act", "pool", "dma0", "dma15", "mxu3", "_x"};
    int n = 1 + (int)rnd(g, ARRAY_LEN(names));
    if (rnd(g, 2)) snprintf(p->name, sizeof p->name, "prog-%u.v1", (unsigned)rnd(g, 1000));
    for (int i = 0; i < n; i++) {
        struct isa_stream *s = isa_program_stream(p, names[i]);
        assert_non_null(s);
        gen_block(g, s, (int)rnd(g, 12), 0);
    }
}

/* ------------------------------------------------------------------------ */

static char *disasm_to_string(const struct isa_program *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(isa_disassemble(p, f), BASE_OK);
    fclose(f);
    return buf;
}

static bool same_program(const struct isa_program *a, const struct isa_program *b, char *why, size_t cap)
{
    if (a->n_streams != b->n_streams || strcmp(a->name, b->name) != 0) {
        snprintf(why, cap, "stream count or name differ");
        return false;
    }
    for (int s = 0; s < a->n_streams; s++) {
        if (strcmp(a->streams[s].engine, b->streams[s].engine) || a->streams[s].n != b->streams[s].n) {
            snprintf(why, cap, "stream %d differs", s);
            return false;
        }
        for (uint32_t i = 0; i < a->streams[s].n; i++) {
            struct isa_instr x = a->streams[s].instrs[i], y = b->streams[s].instrs[i];
            x.src_line = y.src_line = 0; /* source lines are not part of an instruction's meaning */
            if (memcmp(&x, &y, sizeof x) != 0) {
                char t1[2048], t2[2048];
                isa_disassemble_instr(&x, t1, sizeof t1);
                isa_disassemble_instr(&y, t2, sizeof t2);
                snprintf(why, cap, "stream %d instruction %u:\n  %s\n  %s", s, i, t1, t2);
                return false;
            }
        }
    }
    return true;
}

static void test_encode_random_programs_round_trip(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct gen g;
    base_rng_seed(&g.r, seed);
    uint64_t instrs = 0;
    for (int iter = 0; iter < 300; iter++) {
        struct isa_program p, q, r;
        gen_program(&g, &p);
        instrs += isa_program_count(&p);
        struct base_diag d;
        base_diag_clear(&d);
        if (isa_program_validate(&p, "gen", &d) != BASE_OK) {
            fprintf(stderr, "seed %llu program %d: generator made an invalid program: ", (unsigned long long)seed, iter);
            base_diag_print(&d, stderr);
            fail();
        }
        /* encode -> decode -> compare */
        uint8_t *bin, *bin2;
        size_t len, len2;
        assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
        if (isa_decode(bin, len, "gen.bin", &q, &d) != BASE_OK) {
            fprintf(stderr, "seed %llu program %d: ", (unsigned long long)seed, iter);
            base_diag_print(&d, stderr);
            fail();
        }
        char why[4600];
        if (!same_program(&p, &q, why, sizeof why)) {
            fprintf(stderr, "seed %llu program %d: decode differs: %s\n", (unsigned long long)seed, iter, why);
            fail();
        }
        /* disasm -> asm -> compare, and binary -> text -> binary byte for byte */
        char *text = disasm_to_string(&q);
        if (isa_assemble(text, strlen(text), "gen.s", &r, &d) != BASE_OK) {
            fprintf(stderr, "seed %llu program %d: disassembly does not assemble: ", (unsigned long long)seed, iter);
            base_diag_print(&d, stderr);
            fail();
        }
        if (!same_program(&p, &r, why, sizeof why)) {
            fprintf(stderr, "seed %llu program %d: asm(disasm) differs: %s\n", (unsigned long long)seed, iter, why);
            fail();
        }
        assert_int_equal(isa_encode(&r, &bin2, &len2), BASE_OK);
        assert_int_equal(len2, len);
        if (memcmp(bin, bin2, len) != 0) {
            fprintf(stderr, "seed %llu program %d: binary -> text -> binary changed bytes\n", (unsigned long long)seed,
                    iter);
            fail();
        }
        free(text);
        free(bin);
        free(bin2);
        isa_program_deinit(&p);
        isa_program_deinit(&q);
        isa_program_deinit(&r);
    }
    assert_true(instrs > 1000);
}

/* ------------------------------------------------------------------------ */
/* Layout and rejection                                                      */

/* A small valid binary: one stream "pe" with a nop (wait s1>=2) and a halt. */
static uint8_t *small_binary(size_t *len)
{
    struct isa_program p;
    struct base_diag d;
    base_diag_clear(&d);
    const char *text = ".program tiny\n.engine pe\nnop wait s1>=2\nmemset sp[0:2, 0x10, [1,3] x f32], 1.5\n";
    assert_int_equal(isa_assemble(text, strlen(text), "t.s", &p, &d), BASE_OK);
    uint8_t *bin;
    assert_int_equal(isa_encode(&p, &bin, len), BASE_OK);
    isa_program_deinit(&p);
    return bin;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void test_encode_layout_is_the_documented_one(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = small_binary(&len);
    assert_int_equal(len, HDR + SHDR + 2 * REC);
    assert_memory_equal(b, "NPUISA", 6);
    assert_int_equal(le(b + 6, 2), 1);       /* version */
    assert_int_equal(le(b + 8, 4), 1);       /* streams */
    assert_int_equal(le(b + 12, 4), REC);    /* record size */
    assert_string_equal((const char *)b + 16, "tiny");
    assert_string_equal((const char *)b + HDR, "pe");
    assert_int_equal(le(b + HDR + 16, 4), 2); /* instructions */
    const uint8_t *r0 = b + HDR + SHDR, *r1 = r0 + REC;
    assert_int_equal(r0[0], ISA_OP_NOP);
    assert_int_equal(r0[3], ISA_FLAG_WAIT);
    assert_int_equal(le(r0 + 4, 2), 1);  /* wait_sem */
    assert_int_equal(le(r0 + 8, 4), 2);  /* wait_value */
    assert_int_equal(r1[0], ISA_OP_MEMSET);
    assert_int_equal(le(r1 + 32, 8), UINT64_C(0x3FF8000000000000)); /* 1.5 as an IEEE double */
    const uint8_t *dst = r1 + 56;
    assert_int_equal(dst[0], ISA_SPACE_SP);
    assert_int_equal(dst[1], BASE_DT_F32);
    assert_int_equal(dst[2], 1);             /* ndims */
    assert_int_equal(le(dst + 6, 2), 2);     /* part_count */
    assert_int_equal(le(dst + 8, 8), 0x10);  /* addr */
    assert_int_equal(le(dst + 24, 8), 1);    /* stride[0] */
    assert_int_equal(le(dst + 56, 4), 3);    /* count[0] */
    free(b);
}

static void expect_decode_error(const uint8_t *b, size_t len, const char *msg, long offset)
{
    struct isa_program p;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = isa_decode(b, len, "bad.bin", &p, &d);
    char at[64];
    snprintf(at, sizeof at, "at byte offset %ld:", offset);
    if (st == BASE_OK || !strstr(d.msg, msg) || (offset >= 0 && !strstr(d.msg, at)) || strcmp(d.file, "bad.bin")) {
        fprintf(stderr, "expected '%s' %s, got status %d: ", msg, at, st);
        base_diag_print(&d, stderr);
        fail();
    }
    assert_int_equal(p.n_streams, 0);
    isa_program_deinit(&p);
}

static void test_decode_rejects_every_truncation(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = small_binary(&len);
    for (size_t n = 0; n < len; n++) {
        uint8_t *cut = malloc(n ? n : 1); /* exact size: ASan sees any over-read */
        memcpy(cut, b, n);
        struct isa_program p;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(isa_decode(cut, n, "cut.bin", &p, &d), BASE_ERR_PARSE);
        assert_non_null(strstr(d.msg, "at byte offset"));
        assert_non_null(strstr(d.msg, n < 6 ? "truncated" : n < HDR ? "truncated header" : "truncated"));
        free(cut);
    }
    free(b);
}

static void test_decode_rejects_corrupt_fields(void **state)
{
    (void)state;
    size_t len;
    uint8_t *good = small_binary(&len);
    uint8_t *b = malloc(len + 8);
    const size_t r0 = HDR + SHDR, r1 = r0 + REC, dst1 = r1 + 56;
    struct {
        size_t off;
        uint8_t value;
        const char *msg;
        long at;
    } cases[] = {
        {0, 'X', "no NPUISA magic", 0},
        {6, 2, "version 2", 6},
        {8, 65, "65 streams", 8},
        {12, 0, "records of", 12},
        {16 + 10, 'x', "bad program name", 16}, /* text after the NUL */
        {16, '/', "bad program name", 16},
        {HDR, '9', "bad engine name", HDR},
        {HDR + 20, 1, "reserved word", HDR + 20},
        {HDR + 16, 3, "declares 3 instructions", (long)len},
        {r0 + 0, 200, "unknown op 200", (long)r0},
        {r0 + 3, ISA_FLAG_WAIT | ISA_FLAG_START, "flag start is not allowed", (long)r0 + 3},
        {r0 + 4, 0, "", -1}, /* s0 is fine: must decode (checked below) */
        {r0 + 5, 1, "out of range", (long)r0 + 4},
        {r0 + 52, 1, "reserved word", (long)r0 + 52},
        {r0 + 56, ISA_SPACE_SP, "must be all 0", (long)r0 + 56},
        {dst1 + 0, 9, "memory space", (long)dst1},
        {dst1 + 1, 200, "unknown element type", (long)dst1},
        {dst1 + 1, BASE_DT_C64, "not a memory element type", (long)dst1},
        {dst1 + 2, 5, "at most 4", (long)dst1},
        {dst1 + 3, 1, "reserved byte", (long)dst1},
        {dst1 + 56, 0, "count 0", (long)dst1},
        {dst1 + 4, 255, "exceed the 256 partitions", (long)dst1}, /* part_start 255 + 128 > ISA_MAX_PARTITIONS */
        {r1 + 24, 1, "has no count", (long)r1 + 24},
        {r1 + 39, 0x7f, "", -1}, /* imm0 1.5 becomes the canonical NaN: still valid */
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        memcpy(b, good, len);
        b[cases[i].off] = cases[i].value;
        if (cases[i].at < 0) {
            struct isa_program p;
            struct base_diag d;
            base_diag_clear(&d);
            assert_int_equal(isa_decode(b, len, "ok.bin", &p, &d), BASE_OK);
            isa_program_deinit(&p);
            continue;
        }
        expect_decode_error(b, len, cases[i].msg, cases[i].at);
    }
    /* trailing bytes */
    memcpy(b, good, len);
    memset(b + len, 0, 8);
    expect_decode_error(b, len + 8, "8 bytes after the last stream", (long)len);
    free(b);
    free(good);
}

static void test_decode_rejects_bad_structure(void **state)
{
    (void)state;
    /* a loop whose body runs past the stream, and two streams for one engine */
    struct isa_program p;
    isa_program_init(&p);
    struct isa_stream *s = isa_program_stream(&p, "pe");
    struct isa_instr loop = {.op = ISA_OP_LOOP, .count = 2, .body = 1}, nop = {.op = ISA_OP_NOP};
    isa_stream_push(s, &nop);
    isa_stream_push(s, &loop);
    isa_stream_push(s, &nop);
    isa_program_stream(&p, "dma0");
    uint8_t *bin;
    size_t len;
    assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
    bin[HDR + 16] = 2; /* pe now holds 2 instructions: the loop's body is gone */
    /* move dma0's header up to keep the file consistent */
    memmove(bin + HDR + SHDR + 2 * REC, bin + HDR + SHDR + 3 * REC, SHDR);
    expect_decode_error(bin, len - REC, "runs past the end of the stream", HDR + SHDR + REC);
    free(bin);
    assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
    memcpy(bin + HDR + SHDR + 3 * REC, "pe\0\0", 4); /* dma0 renamed: a second stream named pe */
    expect_decode_error(bin, len, "second stream for engine 'pe'", HDR + SHDR + 3 * REC);
    free(bin);
    isa_program_deinit(&p);
}

static void test_decode_huge_count_does_not_allocate(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = small_binary(&len);
    b[HDR + 16] = b[HDR + 17] = b[HDR + 18] = b[HDR + 19] = 0xff; /* 4 billion instructions in 800 bytes */
    expect_decode_error(b, len, "declares 4294967295 instructions", (long)len);
    free(b);
}

/* Random byte flips: decoding either fails with a byte offset or gives a
 * program that encodes back to the same bytes. */
static void test_decode_random_corruption(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct gen g;
    base_rng_seed(&g.r, seed ^ 0xC0FFEE);
    int ok = 0;
    for (int iter = 0; iter < 400; iter++) {
        struct isa_program p;
        gen_program(&g, &p);
        uint8_t *bin;
        size_t len;
        assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
        isa_program_deinit(&p);
        int flips = 1 + (int)rnd(&g, 3);
        for (int f = 0; f < flips; f++) bin[rnd(&g, len)] ^= (uint8_t)(1u << rnd(&g, 8));
        size_t cut = rnd(&g, 4) == 0 ? rnd(&g, len + 1) : len;
        struct isa_program q;
        struct base_diag d;
        base_diag_clear(&d);
        enum base_status st = isa_decode(bin, cut, "flip.bin", &q, &d);
        if (st == BASE_OK) {
            ok++;
            uint8_t *again;
            size_t alen;
            assert_int_equal(isa_encode(&q, &again, &alen), BASE_OK);
            if (alen != cut || memcmp(again, bin, cut) != 0) {
                fprintf(stderr, "seed %llu iteration %d: decoded program encodes differently\n",
                        (unsigned long long)seed, iter);
                fail();
            }
            free(again);
        } else if (!strstr(d.msg, "at byte offset") || d.status != st) {
            fprintf(stderr, "seed %llu iteration %d: error without a byte offset: ", (unsigned long long)seed, iter);
            base_diag_print(&d, stderr);
            fail();
        }
        isa_program_deinit(&q);
        free(bin);
    }
    (void)ok;
}

static void test_encode_refuses_invalid_program(void **state)
{
    (void)state;
    struct isa_program p;
    isa_program_init(&p);
    struct isa_stream *s = isa_program_stream(&p, "pe");
    struct isa_instr bad = {.op = ISA_OP_LOOP, .count = 0, .body = 0};
    isa_stream_push(s, &bad);
    uint8_t *bin = (uint8_t *)&p;
    size_t len = 1;
    assert_int_equal(isa_encode(&p, &bin, &len), BASE_ERR_VERIFY);
    assert_null(bin);
    assert_int_equal(len, 0);
    isa_program_deinit(&p);
}

static void test_program_load_reads_both_forms(void **state)
{
    (void)state;
    char dir[] = "/tmp/npusim-isa-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char spath[64], bpath[64];
    snprintf(spath, sizeof spath, "%s/p.s", dir);
    snprintf(bpath, sizeof bpath, "%s/p.bin", dir);
    size_t len;
    uint8_t *b = small_binary(&len);
    FILE *f = fopen(bpath, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    fclose(f);
    f = fopen(spath, "w");
    fputs(".program tiny\n.engine pe\nnop wait s1>=2\nmemset sp[0:2, 0x10, [1,3] x f32], 1.5\n", f);
    fclose(f);
    struct isa_program a, c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(isa_program_load(bpath, &a, &d), BASE_OK);
    assert_int_equal(isa_program_load(spath, &c, &d), BASE_OK);
    char why[512];
    assert_true(same_program(&a, &c, why, sizeof why));
    assert_int_equal(c.streams[0].instrs[1].src_line, 4);
    assert_int_equal(a.streams[0].instrs[1].src_line, 0);
    isa_program_deinit(&a);
    isa_program_deinit(&c);
    base_diag_clear(&d);
    assert_int_equal(isa_program_load("/nonexistent/x.s", &a, &d), BASE_ERR_IO);
    assert_int_equal(a.n_streams, 0);
    remove(spath);
    remove(bpath);
    rmdir(dir);
    free(b);
}

TEST_MAIN(NULL, NULL, T(test_encode_random_programs_round_trip), T(test_encode_layout_is_the_documented_one),
          T(test_decode_rejects_every_truncation), T(test_decode_rejects_corrupt_fields),
          T(test_decode_rejects_bad_structure), T(test_decode_huge_count_does_not_allocate),
          T(test_decode_random_corruption), T(test_encode_refuses_invalid_program),
          T(test_program_load_reads_both_forms))
