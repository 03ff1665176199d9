/* The assembler and disassembler: every op's text form, the operand syntax
 * of docs/isa.md, canonical text, and located errors for malformed lines. */
#include "tests/harness.h"
#include "isa/isa.h"

#include <math.h>

/* Assembles text; fails the test (printing the diagnostic) on error. */
static void assemble_ok(const char *text, struct isa_program *p)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (isa_assemble(text, strlen(text), "t.s", p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
}

/* The single instruction of ".engine e\n<line>". */
static struct isa_instr one(const char *line)
{
    char text[2048];
    snprintf(text, sizeof text, ".engine e\n%s\n", line);
    struct isa_program p;
    assemble_ok(text, &p);
    assert_int_equal(p.n_streams, 1);
    assert_int_equal(p.streams[0].n, 1);
    struct isa_instr in = p.streams[0].instrs[0];
    isa_program_deinit(&p);
    return in;
}

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

static uint64_t bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* ------------------------------------------------------------------------ */
/* Operands                                                                  */

static void test_asm_scratchpad_operand_fields(void **state)
{
    (void)state;
    struct isa_instr in = one("dma sp[0:128, 0x400, [4,128],[1,64] x bf16], sp[32:64, 4096, [-2,8],[1,4096] x f32]");
    assert_int_equal(in.op, ISA_OP_DMA);
    const struct isa_ap *a = &in.dst;
    assert_int_equal(a->space, ISA_SPACE_SP);
    assert_int_equal(a->part_start, 0);
    assert_int_equal(a->part_count, 128);
    assert_int_equal(a->addr, 0x400);
    assert_int_equal(a->ndims, 2);
    assert_int_equal(a->stride[0], 4);
    assert_int_equal(a->count[0], 128);
    assert_int_equal(a->stride[1], 1);
    assert_int_equal(a->count[1], 64);
    assert_int_equal(a->dtype, BASE_DT_BF16);
    /* the source: 32 partitions from 32, one dim walking backwards */
    const struct isa_ap *s = &in.src0;
    assert_int_equal(s->part_start, 32);
    assert_int_equal(s->part_count, 32);
    assert_int_equal(s->addr, 4096);
    assert_int_equal(s->stride[0], -2);
    assert_int_equal(s->count[1], 4096);
    assert_int_equal(s->dtype, BASE_DT_F32);
}

static void test_asm_hbm_partition_stride(void **state)
{
    (void)state;
    struct isa_instr in = one("dma sp[0:128, 0x0, [1,512] x f32], hbm[0:128, 0x1000 +p2048, [1,512] x f32]");
    assert_int_equal(in.src0.space, ISA_SPACE_HBM);
    assert_int_equal(in.src0.addr, 0x1000);
    assert_int_equal(in.src0.part_stride_bytes, 2048);
    assert_int_equal(in.src0.part_count, 128);
    in = one("dma sp[0:4, 0x0 x f32], hbm[0:4, 0x1000 +p-4 x f32]");
    assert_int_equal(in.src0.part_stride_bytes, -4);
    assert_int_equal(in.src0.ndims, 0);
}

static void test_asm_flags_and_sync(void **state)
{
    (void)state;
    struct isa_instr in = one("matmul acc[0:128, 0x0, [1,512] x f32], sp[0:128, 0x0, [1,128] x bf16], "
                              "sp[0:128, 0x100, [1,512] x bf16] start stop acc wait s3>=2 signal s4+=1 tag=77");
    assert_int_equal(in.flags, ISA_FLAG_START | ISA_FLAG_STOP | ISA_FLAG_ACCUMULATE | ISA_FLAG_WAIT | ISA_FLAG_SIGNAL);
    assert_int_equal(in.wait_sem, 3);
    assert_int_equal(in.wait_value, 2);
    assert_int_equal(in.signal_sem, 4);
    assert_int_equal(in.signal_inc, 1);
    assert_int_equal(in.tag, 77);
    in = one("sem_wait s255>=-7");
    assert_int_equal(in.flags, ISA_FLAG_WAIT);
    assert_int_equal(in.wait_sem, 255);
    assert_int_equal(in.wait_value, -7);
    in = one("sem_signal s0+=-2 wait s1>=1");
    assert_int_equal(in.flags, ISA_FLAG_SIGNAL | ISA_FLAG_WAIT);
    assert_int_equal(in.signal_inc, -2);
}

static void test_asm_loop_and_steps(void **state)
{
    (void)state;
    struct isa_program p;
    assemble_ok(".engine act\n"
                "loop 16, 3\n"
                "  loop 4, 1\n"
                "    memset sp[0:128, 0x0, [1,64] x f32 step=256,16384], 0 wait s2>=1 step=1,4\n"
                "  nop\n",
                &p);
    const struct isa_stream *s = &p.streams[0];
    assert_int_equal(s->n, 4);
    assert_int_equal(s->instrs[0].op, ISA_OP_LOOP);
    assert_int_equal(s->instrs[0].count, 16);
    assert_int_equal(s->instrs[0].body, 3);
    assert_int_equal(s->instrs[1].count, 4);
    const struct isa_instr *m = &s->instrs[2];
    assert_int_equal(m->dst.loop_step_bytes[0], 256);
    assert_int_equal(m->dst.loop_step_bytes[1], 16384);
    assert_int_equal(m->wait_step[0], 1);
    assert_int_equal(m->wait_step[1], 4);
    assert_int_equal(m->src_line, 4);
    char *text = disasm_to_string(&p);
    assert_string_equal(text, ".engine act\n"
                              "    loop 16, 3\n"
                              "        loop 4, 1\n"
                              "            memset sp[0:128, 0x0, [1,64] x f32 step=256,16384], 0 wait s2>=1 step=1,4\n"
                              "        nop\n");
    free(text);
    isa_program_deinit(&p);
}

static void test_asm_immediates(void **state)
{
    (void)state;
    const char *pre = "memset sp[0:1, 0x0 x f32], ";
    struct {
        const char *text;
        double value;
        const char *canonical;
    } cases[] = {
        {"2", 2.0, "2"},
        {"-0.5", -0.5, "-0.5"},
        {"0.1", 0.1, "0.1"},
        {"1e-06", 1e-6, "1e-06"},
        {"0x1.8p+1", 3.0, "3"},     /* hex float */
        {"+7", 7.0, "7"},
        {"0x10", 16.0, "16"},
        {"1.7976931348623157e+308", 1.7976931348623157e308, "1.7976931348623157e+308"},
        {"inf", INFINITY, "inf"},
        {"-inf", -INFINITY, "-inf"},
    };
    char line[256], buf[512];
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        snprintf(line, sizeof line, "%s%s", pre, cases[i].text);
        struct isa_instr in = one(line);
        assert_int_equal(bits(in.imm0), bits(cases[i].value));
        assert_int_equal(isa_disassemble_instr(&in, buf, sizeof buf), BASE_OK);
        snprintf(line, sizeof line, "%s%s", pre, cases[i].canonical);
        assert_string_equal(buf, line);
    }
    /* signed zero and the canonical NaNs keep their bits */
    struct isa_instr z = one("memset sp[0:1, 0x0 x f32], -0");
    assert_int_equal(bits(z.imm0), UINT64_C(0x8000000000000000));
    struct isa_instr n = one("memset sp[0:1, 0x0 x f32], nan");
    assert_int_equal(bits(n.imm0), UINT64_C(0x7ff8000000000000));
    n = one("memset sp[0:1, 0x0 x f32], -nan");
    assert_int_equal(bits(n.imm0), UINT64_C(0xfff8000000000000));
    assert_int_equal(isa_disassemble_instr(&n, buf, sizeof buf), BASE_OK);
    assert_string_equal(buf, "memset sp[0:1, 0x0 x f32], -nan");
}

static void test_asm_every_op_text_form(void **state)
{
    (void)state;
    const char *d = "sp[0:128, 0x0, [1,64] x f32]";
    struct {
        const char *line;
        enum isa_op op;
        unsigned func, func2, flags;
    } cases[] = {
        {"nop", ISA_OP_NOP, 0, 0, 0},
        {"halt", ISA_OP_HALT, 0, 0, 0},
        {"sem_wait s1>=1", ISA_OP_SEM_WAIT, 0, 0, ISA_FLAG_WAIT},
        {"sem_signal s1+=1", ISA_OP_SEM_SIGNAL, 0, 0, ISA_FLAG_SIGNAL},
        {"dma D, hbm[0:128, 0x0 +p256, [1,64] x f32]", ISA_OP_DMA, 0, 0, 0},
        {"matmul.highest acc[0:64, 0x0, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32], D start", ISA_OP_MATMUL,
         ISA_PREC_HIGHEST, 0, ISA_FLAG_START},
        {"transpose sp[0:64, 0x0, [1,128] x f32], D", ISA_OP_TRANSPOSE, 0, 0, 0},
        {"copy D, D", ISA_OP_COPY, 0, 0, 0},
        {"unary.abs D, D", ISA_OP_UNARY, ISA_ALU_ABS, 0, 0},
        {"binary.ge D, D, D", ISA_OP_BINARY, ISA_ALU_GE, 0, 0},
        {"tensor_scalar.max D, D, 0", ISA_OP_TENSOR_SCALAR, ISA_ALU_MAX, ISA_ALU_BYPASS, 0},
        {"tensor_scalar.sub.mul D, D, sp[0:128, 0x800 x f32], sp[0:128, 0x900 x f32]", ISA_OP_TENSOR_SCALAR,
         ISA_ALU_SUB, ISA_ALU_MUL, ISA_FLAG_SCALE_AP | ISA_FLAG_BIAS_AP},
        {"select D, D, D, D", ISA_OP_SELECT, 0, 0, 0},
        {"iota D, 0, 1", ISA_OP_IOTA, 0, 0, 0},
        {"memset D, 0", ISA_OP_MEMSET, 0, 0, 0},
        {"reduce.add sp[0:128, 0x0 x f32], D, 1", ISA_OP_REDUCE, ISA_ALU_ADD, 0, 0},
        {"part_reduce.min sp[0:1, 0x0, [1,64] x f32], D, 0", ISA_OP_PART_REDUCE, ISA_ALU_MIN, 0, 0},
        {"part_broadcast D, sp[0:1, 0x0, [1,64] x f32]", ISA_OP_PART_BROADCAST, 0, 0, 0},
        {"activate.sigmoid D, D, 2, sp[0:128, 0x900 x f32]", ISA_OP_ACTIVATE, ISA_ACT_SIGMOID, 0, ISA_FLAG_BIAS_AP},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        /* expand D into the 128 x 64 f32 tile */
        char line[1024] = "";
        for (const char *c = cases[i].line; *c; c++) {
            if (*c == 'D' && (c[1] == ',' || c[1] == ' ' || c[1] == 0)) strcat(line, d);
            else strncat(line, c, 1);
        }
        struct isa_instr in = one(line);
        assert_int_equal(in.op, cases[i].op);
        assert_int_equal(in.func, cases[i].func);
        assert_int_equal(in.func2, cases[i].func2);
        assert_int_equal(in.flags, cases[i].flags);
        char buf[1024];
        assert_int_equal(isa_disassemble_instr(&in, buf, sizeof buf), BASE_OK);
        struct isa_instr again = one(buf);
        assert_memory_equal(&again, &in, sizeof in);
    }
    struct isa_instr act = one("activate.exp sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32]");
    assert_true(act.imm0 == 1.0 && act.imm1 == 0.0); /* func(src * 1 + 0) */
}

static void test_asm_comments_blank_lines_sections(void **state)
{
    (void)state;
    struct isa_program p;
    assemble_ok("# a program\r\n"
                "\r\n"
                ".program demo-1.v2   # named\r\n"
                ".engine pe\r\n"
                "   nop   # first\r\n"
                ".engine dma0\n"
                "halt\n"
                ".engine pe\n"
                "\thalt\t\n", /* appends to pe */
                &p);
    assert_string_equal(p.name, "demo-1.v2");
    assert_int_equal(p.n_streams, 2);
    assert_string_equal(p.streams[0].engine, "pe");
    assert_int_equal(p.streams[0].n, 2);
    assert_int_equal(p.streams[0].instrs[1].op, ISA_OP_HALT);
    assert_int_equal(p.streams[0].instrs[1].src_line, 9);
    assert_string_equal(p.streams[1].engine, "dma0");
    char *text = disasm_to_string(&p);
    assert_string_equal(text, ".program demo-1.v2\n\n.engine pe\n    nop\n    halt\n\n.engine dma0\n    halt\n");
    free(text);
    isa_program_deinit(&p);
    /* empty text: an empty program */
    assemble_ok("", &p);
    assert_int_equal(p.n_streams, 0);
    isa_program_deinit(&p);
}

static void test_asm_canonicalises_spacing(void **state)
{
    (void)state;
    struct isa_instr in = one("dma   sp[ 0 : 128 ,16,[ 1 , 4 ]x f32],hbm[0:128,0X10 + p16,[1,4] x f32 ]acc  # hi");
    char buf[512];
    assert_int_equal(isa_disassemble_instr(&in, buf, sizeof buf), BASE_OK);
    assert_string_equal(buf, "dma sp[0:128, 0x10, [1,4] x f32], hbm[0:128, 0x10 +p16, [1,4] x f32] acc");
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

struct bad_line {
    const char *line;
    const char *at;  /* the error's column: where this occurs in line (NULL: the end, "": column 1) */
    int skip;        /* characters after `at` */
    const char *msg; /* part of the message */
};

#define T4 "sp[0:128, 0x0, [1,4] x f32]"

static const struct bad_line bad_lines[] = {
    {"frobnicate " T4, "frobnicate", 0, "unknown instruction 'frobnicate'"},
    {"binary " T4 ", " T4 ", " T4, "binary", 0, "takes one ALU function"},
    {"binary.frob " T4 ", " T4 ", " T4, "frob", 0, "unknown ALU function 'frob'"},
    {"halt.now", "now", 0, "takes no function"},
    {"matmul.fast acc[0:1, 0x0 x f32], sp[0:1, 0x0 x f32], sp[0:1, 0x0 x f32]", "fast", 0, "unknown precision"},
    {"copy " T4, NULL, 0, "expected ','"},
    {"copy sp[0:128 0x0, [1,4] x f32], " T4, "0x0", 0, "expected ','"},
    {"copy " T4 ", xp[0:128, 0x0, [1,4] x f32]", "xp", 0, "expected an operand"},
    {"copy " T4 ", sp[0:128, 0x0, [1,4] f32]", "[1,4] f32", 6, "'x TYPE'"},
    {"copy sp[0:128, 0x0, [1,4] x f33], " T4, "f33", 0, "element type"},
    {"copy sp[4:2, 0x0, [1,4] x f32], " T4, "4:2", 0, "empty"},
    {"copy sp[0:128, 0x0, [1,4,5] x f32], " T4, ",5]", 0, "expected ']'"},
    {"copy sp[0:128, 0x0, [1,4],[1,4],[1,4],[1,4],[1,4] x f32], " T4, "[1,4] x", 0, "more than 4 free dims"},
    {"copy sp[0:128, 0x0, [1,99999999999] x f32], " T4, "99999999999", 0, "out of range"},
    {"copy sp[0:128, 0x0 +p16, [1,4] x f32], " T4, "sp", 0, "hbm only"},
    {"copy " T4 ", sp[0:64, 0x0, [1,4] x f32]", "sp[0:64", 0, "shapes must match"},
    {"copy sp[0:128, 0x0, [1,0] x f32], " T4, "sp", 0, "count 0"},
    {"copy sp[0:128, 0x0, [1,4] x f32 stride=1], " T4, "stride", 0, "expected 'step=' or ']'"},
    {"loop 4", NULL, 0, "expected ','"},
    {"loop -1, 2", "-1", 0, "out of range"},
    {"nop wait s3>2", ">2", 0, "expected '>='"},
    {"nop wait x3>=2", "x3", 0, "expected a semaphore"},
    {"nop signal s1+=0", "signal", 0, "adds 0"},
    {"nop wait s999>=1", "wait", 0, "out of range"},
    {"nop start", "start", 0, "flag start is not allowed on nop"},
    {"nop tag=1 tag=2", "tag=2", 0, "one tag per instruction"},
    {"nop stop stop", "stop", 5, "given twice"},
    {"matmul acc[0:128, 0x0, [1,512] x f32], sp[0:128, 0x0, [1,128] x bf16], sp[0:128, 0x100, [1,512] x bf16] acc",
     "] acc", 2, "only modifies start"},
    {"dma " T4 ", hbm[0:128, 0x0, [1,4] x f32] start", "start", 0, "flag start is not allowed on dma"},
    {"memset " T4 ", 1.2.3", "1.2.3", 0, "expected a number"},
    {"memset " T4 ", nan(1)", "(1)", 0, "expected start, stop"},
    {"tensor_scalar.mul " T4 ", " T4 ", 1, 2", ", 2", 0, "one function takes one scalar"},
    {"tensor_scalar.mul.add " T4 ", " T4 ", 1", NULL, 0, "before scalar1"},
    {"tensor_scalar.mul.bypass " T4 ", " T4 ", 1", "bypass", 0, "no second function"},
    {"reduce.sub sp[0:128, 0x0, [1,1] x f32], sp[0:128, 0x10, [1,4] x f32], 1", "reduce", 0, "associative"},
    {"reduce.add sp[0:128, 0x0, [1,1] x f32], sp[0:128, 0x10, [1,4] x f32], 2", "2", 0, "innermost dims"},
    {"activate.exp " T4 ", " T4 ", 1, 0, 5", ", 5", 0, "expected start, stop"},
    {"binary.add " T4 ", " T4 ", hbm[0:128, 0x0, [1,4] x f32]", "hbm", 0, "hbm needs a dma"},
    {"copy sp[0:128, 0x0, [1,4] x f32 step=1], " T4, "", 0, "step for loop level 0, but 0 loop(s)"},
};

/* The column `b` expects in `line` (1-based). */
static int expected_col(const struct bad_line *b)
{
    if (!b->at) return (int)strlen(b->line) + 1;
    if (!b->at[0]) return 1;
    const char *p = strcmp(b->at, "2") == 0 ? strrchr(b->line, '2') : strstr(b->line, b->at);
    assert_non_null(p);
    return (int)(p - b->line) + 1 + b->skip;
}

static void test_asm_errors_located(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(bad_lines); i++) {
        const struct bad_line *b = &bad_lines[i];
        char text[1024];
        snprintf(text, sizeof text, ".engine pe\n%s\n", b->line);
        struct isa_program p;
        struct base_diag d;
        base_diag_clear(&d);
        enum base_status st = isa_assemble(text, strlen(text), "bad.s", &p, &d);
        int col = expected_col(b);
        if (st == BASE_OK || d.line != 2 || d.col != col || !strstr(d.msg, b->msg) || strcmp(d.file, "bad.s") != 0) {
            fprintf(stderr, "line %zu: %s\n  expected 2:%d '%s', got status %d ", i, b->line, col, b->msg, st);
            base_diag_print(&d, stderr);
            fail();
        }
        /* the instruction is named and the line shown */
        if (strncmp(b->msg, "step for loop", 13) != 0) assert_non_null(strstr(d.msg, "in '"));
        assert_string_equal(d.snippet, b->line);
        assert_int_equal(p.n_streams, 0); /* left empty */
        isa_program_deinit(&p);
    }
}

static void expect_error(const char *text, int line, int col, const char *msg)
{
    struct isa_program p;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_not_equal(isa_assemble(text, strlen(text), "bad.s", &p, &d), BASE_OK);
    if (d.line != line || d.col != col || !strstr(d.msg, msg)) {
        fprintf(stderr, "expected %d:%d '%s', got ", line, col, msg);
        base_diag_print(&d, stderr);
        fail();
    }
    isa_program_deinit(&p);
}

static void test_asm_directive_errors_located(void **state)
{
    (void)state;
    expect_error("nop\n", 1, 1, "before the first '.engine NAME'");
    expect_error(".engine pe\n.engine 9x\n", 2, 9, "engine name");
    expect_error(".engine a_name_of_16_chars\n", 1, 9, "engine name");
    expect_error("\n.section text\n", 2, 1, "unknown directive");
    expect_error(".program a\n.program b\n", 2, 1, "already named");
    expect_error(".engine pe extra\n", 1, 12, "unexpected text");
    expect_error(".engine pe\nloop 2, 1\n", 2, 1, "runs past the end of the stream");
    /* an embedded NUL, with the real length */
    static const char nul[] = ".engine pe\nnop \0\n";
    struct isa_program p;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(isa_assemble(nul, sizeof nul - 1, "nul.s", &p, &d), BASE_ERR_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 5);
    assert_non_null(strstr(d.msg, "byte 0x00"));
    /* too many streams */
    char big[8192] = "";
    for (int i = 0; i <= ISA_MAX_STREAMS; i++) {
        char l[32];
        snprintf(l, sizeof l, ".engine e%d\n", i);
        strcat(big, l);
    }
    expect_error(big, ISA_MAX_STREAMS + 1, 9, "more than 64 engine streams");
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */

/* text -> asm -> text -> asm: same instructions, and the canonical text is a fixed point. */
static void check_round_trip(const char *text)
{
    struct isa_program p, q, r;
    assemble_ok(text, &p);
    char *t1 = disasm_to_string(&p);
    assemble_ok(t1, &q);
    assert_int_equal(p.n_streams, q.n_streams);
    for (int s = 0; s < p.n_streams; s++) {
        assert_string_equal(p.streams[s].engine, q.streams[s].engine);
        assert_int_equal(p.streams[s].n, q.streams[s].n);
        for (uint32_t i = 0; i < p.streams[s].n; i++) {
            struct isa_instr a = p.streams[s].instrs[i], b = q.streams[s].instrs[i];
            a.src_line = b.src_line = 0;
            assert_memory_equal(&a, &b, sizeof a);
        }
    }
    char *t2 = disasm_to_string(&q);
    assert_string_equal(t1, t2);
    /* and through the binary */
    uint8_t *bin;
    size_t len;
    assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(isa_decode(bin, len, "x.bin", &r, &d), BASE_OK);
    char *t3 = disasm_to_string(&r);
    assert_string_equal(t1, t3);
    free(bin);
    free(t1);
    free(t2);
    free(t3);
    isa_program_deinit(&p);
    isa_program_deinit(&q);
    isa_program_deinit(&r);
}

/* Every ```asm block of docs/isa.md assembles and round-trips. */
static void test_asm_docs_examples_round_trip(void **state)
{
    (void)state;
    char *doc = NULL;
    size_t len = 0;
    struct base_diag d;
    base_diag_clear(&d);
    if (base_file_read("docs/isa.md", &doc, &len, &d) != BASE_OK) {
        fprintf(stderr, "run from the repository root: ");
        base_diag_print(&d, stderr);
        fail();
    }
    int blocks = 0;
    for (char *p = strstr(doc, "```asm\n"); p; p = strstr(p, "```asm\n")) {
        p += 7;
        char *end = strstr(p, "```");
        assert_non_null(end);
        *end = 0;
        check_round_trip(p);
        blocks++;
        p = end + 3;
    }
    assert_true(blocks >= 5); /* dma in, two K tiles, activation, semaphores, loop */
    free(doc);
}

static void test_disasm_canonical_text_is_a_fixed_point(void **state)
{
    (void)state;
    const char *canon = ".program fixed\n"
                        "\n"
                        ".engine pe\n"
                        "    matmul acc[0:128, 0x0, [1,512] x f32], sp[0:128, 0x0, [1,128] x bf16], sp[0:128, 0x100, "
                        "[1,512] x bf16] start wait s0>=1\n"
                        "\n"
                        ".engine act\n"
                        "    loop 2, 2\n"
                        "        activate.exp sp[0:128, 0x2000, [1,512] x bf16 step=1024], acc[0:128, 0x0, [1,512] x "
                        "f32 step=2048], 0.5, -1\n"
                        "        nop signal s1+=1\n"
                        "    halt\n";
    struct isa_program p;
    assemble_ok(canon, &p);
    char *t = disasm_to_string(&p);
    assert_string_equal(t, canon);
    free(t);
    isa_program_deinit(&p);
}

/* Mutated lines: the assembler never crashes, every error is located, and
 * whatever it accepts round-trips. */
static void test_asm_mutations_never_crash(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    static const char *const lines[] = {
        "dma sp[0:128, 0x400, [4,128],[1,64] x bf16], hbm[0:128, 0x1000 +p16384, [1,8192] x bf16] acc",
        "matmul acc[0:128, 0x0, [1,512] x f32], sp[0:128, 0x0, [1,128] x bf16], sp[0:128, 0x100, [1,512] x bf16] "
        "start stop wait s0>=1 signal s1+=1",
        "tensor_scalar.mul.add sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32], 0.1, sp[0:128, 0x1000 x f32]",
        "activate.gelu sp[0:128, 0x0, [1,64] x bf16], acc[0:128, 0x0, [1,64] x f32], 1.5, -0.25 tag=9",
        "loop 4, 1\n memset sp[0:128, 0x0, [1,64] x f32 step=256], -inf wait s2>=0 step=1",
        "reduce.max sp[0:128, 0x1000, [1,8] x f32], sp[0:128, 0x0, [8,8],[1,8] x f32], 1",
    };
    static const char alphabet[] = "0123456789abcdefx[]:,.+-=# \tspacchbmf\n\0";
    int accepted = 0;
    for (int iter = 0; iter < 4000; iter++) {
        char text[512];
        const char *src = lines[base_rng_next(&rng) % ARRAY_LEN(lines)];
        int n = snprintf(text, sizeof text, ".engine pe\n%s\n", src);
        int muts = 1 + (int)(base_rng_next(&rng) % 4);
        for (int m = 0; m < muts; m++) {
            size_t at = 11 + base_rng_next(&rng) % (size_t)(n - 11);
            switch (base_rng_next(&rng) % 3) {
            case 0: text[at] = alphabet[base_rng_next(&rng) % (sizeof alphabet - 1)]; break;
            case 1: memmove(text + at, text + at + 1, (size_t)(n - (int)at)); n--; break;
            default:
                if (n + 1 < (int)sizeof text) {
                    memmove(text + at + 1, text + at, (size_t)(n - (int)at) + 1);
                    n++;
                }
            }
        }
        struct isa_program p;
        struct base_diag d;
        base_diag_clear(&d);
        enum base_status st = isa_assemble(text, (size_t)n, "m.s", &p, &d);
        if (st == BASE_OK) {
            accepted++;
            char *t = disasm_to_string(&p);
            struct isa_program q;
            assemble_ok(t, &q);
            char *t2 = disasm_to_string(&q);
            if (strcmp(t, t2) != 0) {
                fprintf(stderr, "seed %llu iteration %d: not a fixed point:\n%s\n%s\n", (unsigned long long)seed, iter,
                        t, t2);
                fail();
            }
            free(t);
            free(t2);
            isa_program_deinit(&q);
        } else if (d.line < 1 || d.col < 1 || !d.msg[0] || d.status != st) {
            fprintf(stderr, "seed %llu iteration %d: unlocated error for:\n%.*s\n", (unsigned long long)seed, iter, n,
                    text);
            base_diag_print(&d, stderr);
            fail();
        }
        isa_program_deinit(&p);
    }
    assert_true(accepted > 0);
}

TEST_MAIN(NULL, NULL, T(test_asm_scratchpad_operand_fields), T(test_asm_hbm_partition_stride),
          T(test_asm_flags_and_sync), T(test_asm_loop_and_steps), T(test_asm_immediates),
          T(test_asm_every_op_text_form), T(test_asm_comments_blank_lines_sections),
          T(test_asm_canonicalises_spacing), T(test_asm_errors_located), T(test_asm_directive_errors_located),
          T(test_asm_docs_examples_round_trip), T(test_disasm_canonical_text_is_a_fixed_point),
          T(test_asm_mutations_never_crash))
