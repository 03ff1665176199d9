/* Fuzz target: exec's location syntax (--inputs NAME=FILE@LOC, --dump
 * NAME=LOC:SHAPE:DTYPE) and the host access behind it.  The first line is a
 * --dump region, the second an --inputs location; both are parsed and, when
 * they parse, read and written on a simulated trn2 with values: every address
 * and size is checked (no wraparound past 2^64, issue 20), every refusal has
 * a message, and what is written reads back unchanged. */
#include "fuzz/fuzz_util.h"
#include "chip/chip.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sim *the_sim(void)
{
    static struct sim *s;
    if (s) return s;
    static struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load("trn2", &chip, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        abort();
    }
    struct sim_options o;
    sim_options_default(&o);
    o.check_uninit = false; /* reads of never-written memory are fine here */
    if (sim_create(&chip, &o, &s, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        abort();
    }
    return s;
}

/* Host reads allocate the whole region: beyond this the target skips (the
 * fuzzer's memory is small; the tool itself has the machine's). */
#define MAX_REGION_BYTES (UINT64_C(16) << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char text[4097];
    memcpy(text, data, size);
    text[size] = 0;
    char *second = strchr(text, '\n');
    if (second) *second++ = 0;
    struct sim *s = the_sim();
    struct base_diag d;
    base_diag_clear(&d);

    struct sim_loc loc;
    enum base_dtype dt;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    uint64_t bytes;
    if (sim_region_parse(text, &loc, &dt, &rank, dims) == BASE_OK && base_shape_bytes(rank, dims, dt, &bytes) &&
        bytes <= MAX_REGION_BYTES) {
        struct base_tensor *t = NULL;
        enum base_status st = sim_read_tensor(s, &loc, dt, rank, dims, &t, &d);
        if (st != BASE_OK) {
            fuzz_check_refusal(st, &d);
        } else {
            /* a pattern written there reads back the same */
            size_t n = base_tensor_nbytes(t);
            for (size_t i = 0; i < n; i++) ((uint8_t *)t->data)[i] = (uint8_t)(i * 131 + 7);
            base_diag_clear(&d);
            st = sim_write_tensor(s, &loc, t, &d);
            if (st != BASE_OK) abort(); /* the same region read fine */
            struct base_tensor *u = NULL;
            if (sim_read_tensor(s, &loc, dt, rank, dims, &u, &d) != BASE_OK) abort();
            if (n && memcmp(u->data, t->data, n)) abort();
            base_tensor_release(u);
        }
        base_tensor_release(t);
    }
    if (second) {
        const char *end;
        if (sim_loc_parse(second, &loc, &end) == BASE_OK && *end == 0) {
            /* a 128x4 f32 input at that place, as --inputs writes one */
            int64_t in_dims[2] = {128, 4};
            struct base_tensor *t = NULL;
            if (base_tensor_create(BASE_DT_F32, 2, in_dims, &t) != BASE_OK) abort();
            base_diag_clear(&d);
            enum base_status st = sim_write_tensor(s, &loc, t, &d);
            if (st != BASE_OK) fuzz_check_refusal(st, &d);
            base_tensor_release(t);
        }
    }
    return 0;
}
