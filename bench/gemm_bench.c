/* Functional GEMM throughput: the simulator's functional matmul (a whole
 * `npusim gemm` run: DMA, matmuls, evacuation, stores) against OpenBLAS
 * sgemm on one thread, same shape, in host seconds.
 *
 *   gemm_bench [M K N] [--chip trn2] [--dtype f32] [--reps 5]
 *
 * OpenBLAS is loaded at run time (dlopen "libopenblas.so.0"), so the
 * project builds without it; when it is missing the ratio is skipped with
 * the command that installs it.  Best of --reps runs each. */
#include "compiler/gemm.h"
#include "sim/sim.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*sgemm_fn)(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                         const float *b, int ldb, float beta, float *c, int ldc);
typedef void (*threads_fn)(int n);
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const char *what, const struct base_diag *d)
{
    fprintf(stderr, "gemm_bench: %s", what);
    if (d && d->msg[0]) fprintf(stderr, ": %s", d->msg);
    fprintf(stderr, "\n");
    return 1;
}

/* One functional simulation; host seconds of sim_run (checks on or off). */
static int sim_once(const struct chip_desc *chip, const struct cc_gemm_config *cfg, const struct base_tensor *a,
                    const struct base_tensor *b, bool checks, double *secs)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct isa_program prog;
    struct cc_gemm_plan plan;
    if (cc_gemm_build(chip, cfg, &prog, &plan, &d) != BASE_OK) return fail("build", &d);
    struct sim_options opt;
    sim_options_default(&opt);
    opt.check_races = opt.check_uninit = checks;
    struct sim *s = NULL;
    struct base_tensor *pa = NULL, *pb = NULL;
    int rc = 1;
    if (sim_create(chip, &opt, &s, &d) != BASE_OK || sim_load(s, 0, &prog, prog.name, &d) != BASE_OK) {
        fail("sim", &d);
        goto done;
    }
    struct sim_loc la = {plan.a.space, 0, plan.a.partition, plan.a.addr}, lb = {plan.b.space, 0, plan.b.partition, plan.b.addr};
    if (cc_gemm_pack_a(&plan, a, &pa) != BASE_OK || cc_gemm_pack_b(&plan, b, &pb) != BASE_OK ||
        sim_write_tensor(s, &la, pa, &d) != BASE_OK || sim_write_tensor(s, &lb, pb, &d) != BASE_OK) {
        fail("inputs", &d);
        goto done;
    }
    double t0 = now_s();
    if (sim_run(s, &d) != BASE_OK) {
        fail("run", &d);
        goto done;
    }
    *secs = now_s() - t0;
    rc = 0;
done:
    base_tensor_release(pa);
    base_tensor_release(pb);
    sim_destroy(s);
    isa_program_deinit(&prog);
    return rc;
}

int main(int argc, char **argv)
{
    uint32_t dims[3] = {1024, 1024, 1024};
    const char *chip_name = "trn2", *dtype = "f32";
    int reps = 5, npos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chip") && i + 1 < argc)
            chip_name = argv[++i];
        else if (!strcmp(argv[i], "--dtype") && i + 1 < argc)
            dtype = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (argv[i][0] != '-' && npos < 3)
            dims[npos++] = (uint32_t)strtoul(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: gemm_bench [M K N] [--chip NAME] [--dtype f32|bf16] [--reps N]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    if (chip_load(chip_name, &chip, &d) != BASE_OK) return fail("chip", &d);
    struct cc_gemm_config cfg;
    cc_gemm_config_default(&cfg);
    cfg.m = dims[0];
    cfg.k = dims[1];
    cfg.n = dims[2];
    if (!base_dtype_parse(dtype, strlen(dtype), &cfg.dtype)) return fail("dtype", NULL);
    cfg.out_dtype = cc_gemm_default_out_dtype(cfg.dtype);
    int64_t ad[2] = {cfg.m, cfg.k}, bd[2] = {cfg.k, cfg.n}, cd[2] = {cfg.m, cfg.n};
    struct base_tensor *a = NULL, *b = NULL, *af = NULL, *bf = NULL, *c = NULL;
    if (base_tensor_create(cfg.dtype, 2, ad, &a) != BASE_OK || base_tensor_create(cfg.dtype, 2, bd, &b) != BASE_OK ||
        base_tensor_fill_random(a, 1, 1.0) != BASE_OK || base_tensor_fill_random(b, 2, 1.0) != BASE_OK ||
        base_tensor_create(BASE_DT_F32, 2, ad, &af) != BASE_OK || base_tensor_create(BASE_DT_F32, 2, bd, &bf) != BASE_OK ||
        base_tensor_create(BASE_DT_F32, 2, cd, &c) != BASE_OK)
        return fail("out of memory", NULL);
    base_convert(BASE_DT_F32, af->data, cfg.dtype, a->data, (size_t)a->count);
    base_convert(BASE_DT_F32, bf->data, cfg.dtype, b->data, (size_t)b->count);
    double flops = 2.0 * cfg.m * cfg.n * (double)cfg.k;

    double sim_s = 1e30, sim_nc = 1e30;
    for (int r = 0; r < reps; r++) {
        double t;
        if (sim_once(&chip, &cfg, a, b, true, &t)) return 1;
        if (t < sim_s) sim_s = t;
        if (sim_once(&chip, &cfg, a, b, false, &t)) return 1;
        if (t < sim_nc) sim_nc = t;
    }
    printf("  npusim gemm %ux%ux%u %s on %s, functional: %.3f s (%.1f GFLOP/s); without race/uninit checks %.3f s\n",
           cfg.m, cfg.k, cfg.n, dtype, chip.name, sim_s, flops / sim_s / 1e9, sim_nc);

    void *lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("  OpenBLAS not found (%s): skipped; install it with `sudo apt-get install libopenblas0` "
               "(or libopenblas-dev, or scripts/install-deps.sh --bench)\n", dlerror());
        return 0;
    }
    sgemm_fn sgemm;
    threads_fn threads;
    void *p1 = dlsym(lib, "cblas_sgemm"), *p2 = dlsym(lib, "openblas_set_num_threads");
    if (!p1 || !p2) {
        printf("  OpenBLAS lacks cblas_sgemm / openblas_set_num_threads: skipped\n");
        return 0;
    }
    memcpy(&sgemm, &p1, sizeof sgemm);
    memcpy(&threads, &p2, sizeof threads);
    threads(1);
    double blas_s = 1e30;
    for (int r = 0; r < reps + 1; r++) { /* the first run warms up */
        double t0 = now_s();
        sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int)cfg.m, (int)cfg.n, (int)cfg.k, 1.0f, af->data,
              (int)cfg.k, bf->data, (int)cfg.n, 0.0f, c->data, (int)cfg.n);
        double t = now_s() - t0;
        if (r && t < blas_s) blas_s = t;
    }
    printf("  OpenBLAS sgemm, 1 thread: %.3f s (%.1f GFLOP/s)\n", blas_s, flops / blas_s / 1e9);
    printf("  ratio OpenBLAS time / npusim time (goal >= 0.5): %.2f without the race/uninit checks, %.2f with them "
           "(npusim gemm's default)\n",
           blas_s / sim_nc, blas_s / sim_s);
    base_tensor_release(a);
    base_tensor_release(b);
    base_tensor_release(af);
    base_tensor_release(bf);
    base_tensor_release(c);
    dlclose(lib);
    return 0;
}
