/* Simulator speed: simulated instructions per host second (CPU time of
 * sim_run, so other jobs on the machine matter less), for programs built
 * in memory, each run repeatedly for at least 0.5 s:
 *   - vector: three engines in loops over 128 x 64 f32 tiles (binary,
 *     activation, tensor_scalar + reduce), ordered once by a semaphore;
 *   - pipeline: double-buffered DMA in -> matmul -> activation -> DMA out,
 *     semaphores with backpressure between four engines, nested loops;
 * in three modes: timing-only with the checks off, timing-only with the
 * default checks (uninitialised reads and races), and functional (values
 * computed, default checks).
 *
 *   build/release/bench/sim_bench [CHIP [DIVISOR]]
 * CHIP defaults to trn2 (run from the source tree, or set NPUSIM_CHIPS);
 * DIVISOR (default 1) divides the loop counts, for a quick look.
 */
#define _POSIX_C_SOURCE 200809L
#include "sim/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_SECONDS 0.5

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* vec, act and pool each loop n times over their own tiles. */
static int vector_program(char *buf, size_t cap, unsigned n)
{
    return snprintf(buf, cap,
                    ".program bench_vector\n"
                    ".engine vec\n"
                    "    memset sp[0:128, 0x0, [1,64] x f32], 1\n"
                    "    memset sp[0:128, 0x2000, [1,64] x f32], 2 signal s0+=1\n"
                    "    loop %u, 1\n"
                    "        binary.add sp[0:128, 0x4000, [1,64] x f32], sp[0:128, 0x0, [1,64] x f32], "
                    "sp[0:128, 0x0, [1,64] x f32]\n"
                    ".engine act\n"
                    "    sem_wait s0>=1\n"
                    "    loop %u, 1\n"
                    "        activate.exp sp[0:128, 0x1000, [1,64] x f32], sp[0:128, 0x2000, [1,64] x f32], 1, 0\n"
                    ".engine pool\n"
                    "    sem_wait s0>=1\n"
                    "    loop %u, 2\n"
                    "        tensor_scalar.mul.add sp[0:128, 0x6000, [1,64] x f32], sp[0:128, 0x2000, [1,64] x f32], 2, 1\n"
                    "        reduce.add sp[0:128, 0x8000, [1,1] x f32], sp[0:128, 0x6000, [1,64] x f32], 1\n",
                    n, n, n);
}

/* 2 * h tiles: dma0 loads moving tile i (128 x 512 bf16) into sp buffer
 * i % 2, pe multiplies it with a resident stationary tile into acc buffer
 * i % 2, act applies exp into sp out buffer i % 2, dma1 stores it.  Each
 * stage waits for its input (s0..s2 >= i + 1) and for the buffer it
 * overwrites to be free (>= i - 1). */
static int pipeline_program(char *buf, size_t cap, unsigned h)
{
    return snprintf(buf, cap,
                    ".program bench_pipeline\n"
                    ".engine dma0\n"
                    "    loop %u, 2\n"
                    "        loop 2, 1\n"
                    "            dma sp[0:128, 0x0, [1,512] x bf16 step=1024,0], hbm[0:128, 0x0 +p1024, [1,512] x bf16 "
                    "step=131072,0] wait s1>=-1 step=1,2 signal s0+=1\n"
                    ".engine pe\n"
                    "    loop %u, 3\n"
                    "        loop 2, 2\n"
                    "            sem_wait s2>=-1 step=1,2\n"
                    "            matmul acc[0:128, 0x0, [1,512] x f32 step=2048,0], sp[0:128, 0x10000, [1,128] x bf16], "
                    "sp[0:128, 0x0, [1,512] x bf16 step=1024,0] start stop wait s0>=1 step=1,2 signal s1+=1\n"
                    ".engine act\n"
                    "    loop %u, 3\n"
                    "        loop 2, 2\n"
                    "            sem_wait s3>=-1 step=1,2\n"
                    "            activate.exp sp[0:128, 0x4000, [1,512] x bf16 step=1024,0], acc[0:128, 0x0, [1,512] x f32 "
                    "step=2048,0], 1, 0 wait s1>=1 step=1,2 signal s2+=1\n"
                    ".engine dma1\n"
                    "    loop %u, 2\n"
                    "        loop 2, 1\n"
                    "            dma hbm[0:128, 0x8000000 +p1024, [1,512] x bf16 step=131072,0], sp[0:128, 0x4000, [1,512] "
                    "x bf16 step=1024,0] wait s2>=1 step=1,2 signal s3+=1\n",
                    h, h, h, h);
}

/* Host inputs of the pipeline: two HBM tiles and the stationary tile. */
static enum base_status pipeline_inputs(struct sim *s, struct base_diag *d)
{
    struct base_tensor *t = NULL;
    int64_t hd[1] = {2 * 128 * 1024};
    TRY(base_tensor_create(BASE_DT_UI8, 1, hd, &t));
    uint8_t *p = t->data;
    for (int64_t i = 0; i < hd[0]; i++) p[i] = (uint8_t)((i * 7 + 3) & 0x3f); /* small bf16 values */
    struct sim_loc hbm = {ISA_SPACE_HBM, 0, 0, 0};
    enum base_status st = sim_write_tensor(s, &hbm, t, d);
    base_tensor_release(t);
    TRY(st);
    int64_t sd[2] = {128, 256};
    TRY(base_tensor_create(BASE_DT_UI8, 2, sd, &t));
    p = t->data;
    for (int64_t i = 0; i < 128 * 256; i++) p[i] = (uint8_t)((i * 5 + 1) & 0x3f);
    struct sim_loc sp = {ISA_SPACE_SP, 0, 0, 0x10000};
    st = sim_write_tensor(s, &sp, t, d);
    base_tensor_release(t);
    return st;
}

struct workload {
    const char *name;
    int (*build)(char *buf, size_t cap, unsigned n);
    unsigned n_timing, n_functional; /* loop counts */
    bool inputs;
};

enum mode { MODE_FAST, MODE_CHECKED, MODE_FUNCTIONAL, MODE_COUNT };
static const char *const mode_name[MODE_COUNT] = {"timing-only, checks off", "timing-only, checks on ",
                                                   "functional, checks on  "};

/* Runs the program repeatedly for MIN_SECONDS of sim_run CPU time; the rate in instructions/s. */
static int measure(const struct chip_desc *chip, const struct isa_program *prog, bool inputs, enum mode m,
                   double *rate, uint64_t *instrs, double *secs)
{
    struct sim_options opt;
    sim_options_default(&opt);
    opt.timing_only = m != MODE_FUNCTIONAL;
    opt.check_uninit = opt.check_races = m != MODE_FAST;
    double t = 0;
    uint64_t n = 0;
    do {
        struct sim *s = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        if (sim_create(chip, &opt, &s, &d) != BASE_OK || sim_load(s, 0, prog, prog->name, &d) != BASE_OK ||
            (inputs && pipeline_inputs(s, &d) != BASE_OK)) {
            base_diag_print(&d, stderr);
            sim_destroy(s);
            return 1;
        }
        double a = cpu_s();
        enum base_status st = sim_run(s, &d);
        t += cpu_s() - a;
        if (st != BASE_OK) {
            base_diag_print(&d, stderr);
            sim_destroy(s);
            return 1;
        }
        n += sim_get_stats(s)->instructions;
        sim_destroy(s);
    } while (t < MIN_SECONDS);
    *rate = (double)n / t;
    *instrs = n;
    *secs = t;
    return 0;
}

int main(int argc, char **argv)
{
    const char *chip_name = argc > 1 ? argv[1] : "trn2";
    unsigned divisor = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
    if (divisor < 1) divisor = 1;
    static struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(chip_name, &chip, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        return 1;
    }
    static const struct workload work[] = {
        {"vector (3 engines)", vector_program, 100000, 300, false},
        {"pipeline (dma/pe/act/dma)", pipeline_program, 20000, 10, true},
    };
    static char text[8192];
    int rc = 0;
    double sum_log[MODE_COUNT] = {0};
    printf("  chip %s; instructions per second of sim_run CPU time, each over >= %.1f s\n", chip.name, MIN_SECONDS);
    for (size_t w = 0; w < ARRAY_LEN(work); w++) {
        for (int m = 0; m < MODE_COUNT; m++) {
            unsigned n = (m == MODE_FUNCTIONAL ? work[w].n_functional : work[w].n_timing) / divisor;
            if (n < 1) n = 1;
            int len = work[w].build(text, sizeof text, n);
            struct isa_program prog;
            if (len <= 0 || (size_t)len >= sizeof text ||
                isa_assemble(text, (size_t)len, work[w].name, &prog, &d) != BASE_OK) {
                base_diag_print(&d, stderr);
                return 1;
            }
            double rate = 0, secs = 0;
            uint64_t instrs = 0;
            if (measure(&chip, &prog, work[w].inputs, (enum mode)m, &rate, &instrs, &secs) != 0) {
                rc = 1;
            } else {
                printf("  %-26s %s: %8.3f M instr/s  (%llu instructions in %.2f s)\n", work[w].name, mode_name[m],
                       rate / 1e6, (unsigned long long)instrs, secs);
                fflush(stdout);
                sum_log[m] += rate > 0 ? log(rate) : 0;
            }
            isa_program_deinit(&prog);
        }
    }
    for (int m = 0; m < MODE_COUNT; m++)
        printf("  geometric mean, %s: %8.3f M instr/s%s\n", mode_name[m],
               exp(sum_log[m] / (double)ARRAY_LEN(work)) / 1e6, m != MODE_FUNCTIONAL ? "  (goal >= 5)" : "");
    return rc;
}
