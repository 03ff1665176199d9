/* Self-tests of the instruction table: unique names and encodings, units
 * and formats as the ISA documents them, and every op's text form
 * round-tripping through the assembler, the disassembler and the binary. */
#include "tests/harness.h"
#include "isa/isa.h"

#include <ctype.h>

/* One canonical line per op, written by hand from docs/isa.md. */
static const char *const samples[] = {
    [ISA_OP_NOP] = "nop wait s1>=2",
    [ISA_OP_HALT] = "halt",
    [ISA_OP_SEM_WAIT] = "sem_wait s3>=2 signal s4+=1",
    [ISA_OP_SEM_SIGNAL] = "sem_signal s3+=-1",
    [ISA_OP_LOOP] = "loop 16, 1",
    [ISA_OP_DMA] = "dma sp[0:128, 0x400, [4,128],[1,64] x bf16], hbm[0:128, 0x1000 +p16384, [1,8192] x bf16] acc",
    [ISA_OP_MATMUL] = "matmul.high acc[0:128, 0x0, [1,512] x f32], sp[0:64, 0x0, [1,128] x f32], "
                      "sp[0:64, 0x200, [1,512] x bf16] start stop acc",
    [ISA_OP_TRANSPOSE] = "transpose sp[0:32, 0x0, [1,128] x f32], sp[0:128, 0x100, [1,32] x f32]",
    [ISA_OP_COPY] = "copy sp[0:128, 0x0, [1,64] x bf16], acc[0:128, 0x0, [1,64] x f32]",
    [ISA_OP_UNARY] = "unary.neg sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x100, [-1,64] x f32]",
    [ISA_OP_BINARY] = "binary.pow sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32], "
                      "sp[0:128, 0x400, [0,64] x f32]",
    [ISA_OP_TENSOR_SCALAR] = "tensor_scalar.mul.add sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32], "
                             "0.1, sp[0:128, 0x1000 x f32]",
    [ISA_OP_SELECT] = "select sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x800, [1,64] x i1], "
                      "sp[0:128, 0x0, [1,64] x f32], sp[0:128, 0x400, [1,64] x f32]",
    [ISA_OP_IOTA] = "iota sp[0:128, 0x0, [1,64] x i32], -3, 64",
    [ISA_OP_MEMSET] = "memset sp[0:128, 0x0, [8,8],[1,8] x f32], -inf",
    [ISA_OP_REDUCE] = "reduce.max sp[0:128, 0x1000, [1,8] x f32], sp[0:128, 0x0, [8,8],[1,8] x f32], 1",
    [ISA_OP_PART_REDUCE] = "part_reduce.add sp[0:1, 0x1100 x f32], sp[0:128, 0x0, [1,64] x f32], 1",
    [ISA_OP_PART_BROADCAST] = "part_broadcast sp[0:128, 0x1200, [1,64] x f32], sp[0:1, 0x1100, [1,64] x f32]",
    [ISA_OP_ACTIVATE] = "activate.gelu_tanh sp[0:128, 0x0, [1,64] x bf16], acc[0:128, 0x0, [1,64] x f32], "
                        "1.5, -0.25 signal s2+=1 tag=9",
};
_Static_assert(ARRAY_LEN(samples) == ISA_OP_COUNT, "a sample for every op");

static void test_table_op_names_unique_identifiers(void **state)
{
    (void)state;
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        const char *n = isa_op_name((enum isa_op)i);
        assert_true(n[0] >= 'a' && n[0] <= 'z');
        for (const char *c = n; *c; c++) assert_true(islower((unsigned char)*c) || *c == '_');
        for (int j = 0; j < i; j++) assert_string_not_equal(n, isa_op_name((enum isa_op)j));
    }
}

static void check_unique(const char *(*name)(int), int count)
{
    for (int i = 0; i < count; i++) {
        assert_true(name(i)[0] != 0 && name(i)[0] != '?');
        for (int j = 0; j < i; j++) assert_string_not_equal(name(i), name(j));
    }
}
static const char *alu(int i) { return isa_alu_name((enum isa_alu)i); }
static const char *act(int i) { return isa_act_name((enum isa_act)i); }
static const char *space(int i) { return isa_space_name((enum isa_space)i); }
static const char *engine(int i) { return isa_engine_kind_name((enum isa_engine_kind)i); }
static const char *prec(int i) { return isa_precision_name((enum isa_precision)i); }

static void test_table_sub_op_names_unique(void **state)
{
    (void)state;
    check_unique(alu, ISA_ALU_COUNT);
    check_unique(act, ISA_ACT_COUNT);
    check_unique(space, ISA_SPACE_COUNT);
    check_unique(engine, ISA_ENGINE_KIND_COUNT);
    check_unique(prec, ISA_PREC_COUNT);
}

static void test_table_names_are_the_documented_ones(void **state)
{
    (void)state;
    assert_string_equal(isa_op_name(ISA_OP_MATMUL), "matmul");
    assert_string_equal(isa_op_name(ISA_OP_TENSOR_SCALAR), "tensor_scalar");
    assert_string_equal(isa_alu_name(ISA_ALU_ADD), "add");
    assert_string_equal(isa_act_name(ISA_ACT_GELU_TANH), "gelu_tanh");
    assert_string_equal(isa_space_name(ISA_SPACE_SP), "sp");
    assert_string_equal(isa_engine_kind_name(ISA_ENGINE_SYSTOLIC), "pe");
    assert_string_equal(isa_engine_kind_name(ISA_ENGINE_SCALAR), "act");
    assert_string_equal(isa_precision_name(ISA_PREC_HIGHEST), "highest");
    /* out of range never crashes a printer */
    assert_string_equal(isa_op_name((enum isa_op)ISA_OP_COUNT), "?");
    assert_string_equal(isa_alu_name((enum isa_alu)200), "?");
    assert_int_equal(isa_op_units((enum isa_op)250), 0);
}

static void test_table_alu_arity(void **state)
{
    (void)state;
    assert_int_equal(isa_alu_arity(ISA_ALU_BYPASS), 1);
    assert_int_equal(isa_alu_arity(ISA_ALU_NEG), 1);
    assert_int_equal(isa_alu_arity(ISA_ALU_ABS), 1);
    assert_int_equal(isa_alu_arity(ISA_ALU_NOT), 1);
    assert_int_equal(isa_alu_arity(ISA_ALU_ADD), 2);
    assert_int_equal(isa_alu_arity(ISA_ALU_GE), 2);
    assert_int_equal(isa_alu_arity(ISA_ALU_SHR), 2);
    for (int i = 0; i < ISA_ALU_COUNT; i++) assert_true(isa_alu_arity((enum isa_alu)i) == 1 || isa_alu_arity((enum isa_alu)i) == 2);
}

/* The units follow the hardware (docs/isa.md, shared/hw/neuroncore.md). */
static void test_table_units_follow_the_hardware(void **state)
{
    (void)state;
    unsigned pe = 1u << ISA_ENGINE_SYSTOLIC, vec = 1u << ISA_ENGINE_VECTOR, actu = 1u << ISA_ENGINE_SCALAR,
             pool = 1u << ISA_ENGINE_GPSIMD, dma = 1u << ISA_ENGINE_DMA;
    assert_int_equal(isa_op_units(ISA_OP_MATMUL), pe);      /* only the array multiplies */
    assert_int_equal(isa_op_units(ISA_OP_DMA), dma);        /* only queues touch HBM */
    assert_int_equal(isa_op_units(ISA_OP_TRANSPOSE), pe | vec);
    assert_true(isa_op_units(ISA_OP_ACTIVATE) & actu);
    assert_true(isa_op_units(ISA_OP_IOTA) & pool);
    assert_false(isa_op_units(ISA_OP_BINARY) & actu);     /* ScalarE reads one tensor */
    for (int op = 0; op < ISA_OP_COUNT; op++) assert_true(isa_op_units((enum isa_op)op) != 0);
    unsigned all = pe | vec | actu | pool | dma;
    assert_int_equal(isa_op_units(ISA_OP_NOP), all);
    assert_int_equal(isa_op_units(ISA_OP_SEM_WAIT), all);
    assert_int_equal(isa_op_units(ISA_OP_LOOP), all);
}

static void test_table_every_format_is_used(void **state)
{
    (void)state;
    for (int f = 0; f < ISA_FMT_COUNT; f++) {
        bool used = false;
        for (int op = 0; op < ISA_OP_COUNT; op++) used |= isa_op_fmt((enum isa_op)op) == (enum isa_fmt)f;
        assert_true(used);
    }
    assert_int_equal(isa_op_fmt(ISA_OP_MATMUL), ISA_FMT_MATMUL);
    assert_int_equal(isa_op_fmt(ISA_OP_PART_REDUCE), ISA_FMT_REDUCE);
    assert_int_equal(isa_op_fmt(ISA_OP_TRANSPOSE), ISA_FMT_COPY);
}

/* Assembles ".engine e\n<line>" into one instruction. */
static void assemble_one(const char *line, struct isa_instr *out)
{
    char text[1024];
    bool loop = strncmp(line, "loop ", 5) == 0; /* a loop needs its body */
    snprintf(text, sizeof text, ".engine e\n%s\n%s", line, loop ? "nop\n" : "");
    struct isa_program p;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = isa_assemble(text, strlen(text), "sample.s", &p, &d);
    if (st != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
    assert_int_equal(p.n_streams, 1);
    assert_int_equal(p.streams[0].n, loop ? 2 : 1);
    *out = p.streams[0].instrs[0];
    isa_program_deinit(&p);
}

/* text -> asm -> text, and asm -> binary -> asm, for every op. */
static void test_table_every_op_round_trips(void **state)
{
    (void)state;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const char *line = samples[op];
        assert_non_null(line);
        struct isa_instr in;
        assemble_one(line, &in);
        assert_int_equal(in.op, op);
        assert_int_equal(in.src_line, 2);
        char buf[1024];
        assert_int_equal(isa_disassemble_instr(&in, buf, sizeof buf), BASE_OK);
        assert_string_equal(buf, line);

        /* a LOOP needs a body to be a valid program */
        struct isa_program p;
        isa_program_init(&p);
        struct isa_stream *s = isa_program_stream(&p, "e");
        assert_non_null(s);
        in.src_line = 0;
        assert_int_equal(isa_stream_push(s, &in), BASE_OK);
        struct isa_instr nop = {.op = ISA_OP_NOP};
        if (op == ISA_OP_LOOP) assert_int_equal(isa_stream_push(s, &nop), BASE_OK);
        uint8_t *bin;
        size_t len;
        assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
        struct isa_program q;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(isa_decode(bin, len, "x.bin", &q, &d), BASE_OK);
        assert_int_equal(q.streams[0].n, s->n);
        assert_memory_equal(&q.streams[0].instrs[0], &in, sizeof in);
        free(bin);
        isa_program_deinit(&q);
        isa_program_deinit(&p);
    }
}

/* Different ops never share an encoding: the op byte of each record is the
 * op's own, and decoding a record gives back its op. */
static void test_table_encodings_unique(void **state)
{
    (void)state;
    uint8_t seen[256] = {0};
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        struct isa_instr in;
        assemble_one(samples[op], &in);
        in.src_line = 0;
        struct isa_program p;
        isa_program_init(&p);
        struct isa_stream *s = isa_program_stream(&p, "e");
        assert_int_equal(isa_stream_push(s, &in), BASE_OK);
        struct isa_instr nop = {.op = ISA_OP_NOP};
        if (op == ISA_OP_LOOP) assert_int_equal(isa_stream_push(s, &nop), BASE_OK);
        uint8_t *bin;
        size_t len;
        assert_int_equal(isa_encode(&p, &bin, &len), BASE_OK);
        uint8_t code = bin[80 + 24]; /* header, stream header, then the record's op byte */
        assert_int_equal(code, op);
        assert_int_equal(seen[code], 0);
        seen[code] = 1;
        free(bin);
        isa_program_deinit(&p);
    }
}

TEST_MAIN(NULL, NULL, T(test_table_op_names_unique_identifiers), T(test_table_sub_op_names_unique),
          T(test_table_names_are_the_documented_ones), T(test_table_alu_arity),
          T(test_table_units_follow_the_hardware), T(test_table_every_format_is_used),
          T(test_table_every_op_round_trips), T(test_table_encodings_unique))
