/* Fuzz target: the .chip reader never crashes, refuses with a located
 * message, and a chip it accepts can be simulated: a fixed program (a matmul,
 * an activation, a DMA-free loop) runs to its end or stops with a message,
 * never an assertion (issue 20: a tiny rate aborted the simulator). */
#include "fuzz/fuzz_util.h"
#include "chip/chip.h"
#include "isa/isa.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char program[] =
    ".engine pe\n"
    "    matmul acc[0:128, 0x0, [1,512] x f32], sp[0:128, 0x0, [1,128] x bf16], sp[0:128, 0x1000, [1,512] x bf16] "
    "start stop signal s0+=1\n"
    ".engine act\n"
    "    activate.exp sp[0:128, 0x2000, [1,512] x bf16], acc[0:128, 0x0, [1,512] x f32], 1, 0 wait s0>=1\n"
    ".engine pool\n"
    "    loop 3, 1\n"
    "        nop\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    enum base_status st = chip_parse((const char *)data, size, "fuzz.chip", &chip, &d);
    if (st != BASE_OK) {
        fuzz_check_refusal(st, &d);
        return 0;
    }
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = true; /* no memory the size the file claims */
    struct sim *s = NULL;
    base_diag_clear(&d);
    st = sim_create(&chip, &o, &s, &d);
    if (st != BASE_OK) {
        fuzz_check_refusal(st, &d);
        return 0;
    }
    struct isa_program p;
    base_diag_clear(&d);
    st = isa_assemble(program, sizeof program - 1, "fuzz.s", &p, &d);
    if (st == BASE_OK) {
        st = sim_load(s, 0, &p, "fuzz.s", &d);
        if (st == BASE_OK) st = sim_run(s, &d);
        if (st != BASE_OK) fuzz_check_refusal(st, &d); /* e.g. the program does not fit this chip */
        isa_program_deinit(&p);
    } else {
        fuzz_check_refusal(st, &d);
    }
    sim_destroy(s);
    return 0;
}
