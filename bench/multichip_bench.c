/* Thousand-chip timing-only runs (issue 6, "Scale"): one data-parallel
 * training step of a GEMM layer stack (bench/dp_gemm.h), partitioned over
 * N chips (batch split, weights replicated: one gradient all_reduce per
 * layer), compiled for one partition and run timing-only as the
 * representative partition, its collectives timed by the interconnect model
 * on the whole system's topology (docs/interconnect.md "Scale").
 *   multichip_bench [ROWS_PER_CHIP [LAYERS [WIDTH]]]     (defaults 1024 4 4096)
 * Run from the source tree (chips/ is looked up in ./chips). */
#include "bench/dp_gemm.h"
#include "compiler/compiler.h"
#include "interconnect/interconnect.h"
#include "partition/partition.h"
#include "runtime/runtime.h"
#include "chip/chip.h"
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct config {
    const char *chip;
    const char *topology; /* icn_topo_from_chip's shape */
    const char *label;
};

/* Host seconds of each phase and what the run reported. */
struct result {
    double gen_s, partition_s, compile_s, run_s; /* run: sim_create + rt_run */
    int n_colls_inserted;
    int64_t coll_bytes_inserted; /* per partition, summed */
    struct rt_report rep;
};

static int fail(const char *what, const struct base_diag *d)
{
    fflush(stdout);
    fprintf(stderr, "multichip_bench: %s: ", what);
    base_diag_print(d, stderr);
    return -1;
}

/* Generate, partition over n chips, compile, run timing-only on topo. */
static int run_one(const struct chip_desc *chip, const struct icn_topo *topo, uint32_t n, int layers,
                   int64_t rows_per_chip, int64_t width, struct result *res)
{
    struct base_diag d;
    base_diag_clear(&d);
    int rc = -1;
    struct graph_module *m0 = NULL, *m = NULL;
    struct cc_plan *plan = NULL;
    struct sim *sim = NULL;
    char *text = NULL;
    struct part_report prep;
    memset(&prep, 0, sizeof prep);
    memset(res, 0, sizeof *res);

    /* the unsharded program, parsed and verified as the CLI loads one */
    double t0 = now_s();
    size_t len = 0;
    text = dp_gemm_text(layers, rows_per_chip * (int64_t)n, width, "bf16", 0.01, &len);
    if (!text) {
        fprintf(stderr, "multichip_bench: out of memory\n");
        goto done;
    }
    struct graph_parse_options po = {.path = "dp_gemm.mlir"};
    if (graph_parse(text, len, &po, &m0, &d) != BASE_OK || graph_verify(m0, &d) != BASE_OK) {
        fail("the generated program", &d);
        goto done;
    }
    double t1 = now_s();
    res->gen_s = t1 - t0;

    /* mesh "n" (axis x); x and t split on the batch, the weights replicated */
    char mesh_s[32];
    snprintf(mesh_s, sizeof mesh_s, "%u", n);
    struct part_mesh mesh;
    struct part_sharding sh[2];
    if (part_parse_mesh(mesh_s, &mesh, &d) != BASE_OK || part_parse_sharding("x,_", &mesh, &sh[0], &d) != BASE_OK) {
        fail("mesh", &d);
        goto done;
    }
    sh[1] = sh[0];
    if (part_partition(m0, NULL, &mesh, sh, 2, &m, &prep, &d) != BASE_OK) {
        fail("part_partition", &d);
        goto done;
    }
    double t2 = now_s();
    res->partition_s = t2 - t1;
    res->n_colls_inserted = prep.n_colls;
    for (int i = 0; i < prep.n_colls; i++) res->coll_bytes_inserted += prep.colls[i].bytes;

    struct cc_options co;
    cc_options_default(&co);
    if (cc_compile(m, chip, &co, &plan, &d) != BASE_OK) {
        fail("cc_compile", &d);
        goto done;
    }
    double t3 = now_s();
    res->compile_s = t3 - t2;
    if (cc_plan_num_partitions(plan) != (int)n) {
        fprintf(stderr, "multichip_bench: a plan of %d partitions, not %u\n", cc_plan_num_partitions(plan), n);
        goto done;
    }

    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = true;
    so.check_races = so.check_uninit = false; /* as --no-checks: the simulator's own checks cost host time */
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    ro.topo = topo;
    if (sim_create(chip, &so, &sim, &d) != BASE_OK) {
        fail("sim_create", &d);
        goto done;
    }
    int n_out = cc_plan_n_outputs(plan);
    struct base_tensor **outs = calloc((size_t)n_out + 1, sizeof *outs);
    if (!outs) goto done;
    enum base_status st = rt_run(plan, sim, NULL, cc_plan_n_inputs(plan), &ro, outs, &res->rep, &d);
    free(outs);
    res->run_s = now_s() - t3;
    if (st != BASE_OK) {
        fail("rt_run", &d);
        goto done;
    }
    rc = 0;
done:
    sim_destroy(sim);
    cc_plan_destroy(plan);
    graph_module_destroy(m);
    graph_module_destroy(m0);
    part_report_free(&prep);
    free(text);
    return rc;
}

/* What the interconnect model builds for one of the step's all_reduces on
 * the whole system (the runtime asks it the same: one group of every
 * chip, representative), for the "simulated vs inferred" line. */
static void coll_plan_facts(const struct icn_topo *t, double bytes, struct icn_plan *info, double *host_s)
{
    double t0 = now_s();
    *host_s = 0;
    struct icn_coll_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.coll = ICN_COLL_ALL_REDUCE;
    cd.bytes = bytes;
    cd.representative = true;
    struct base_diag d;
    base_diag_clear(&d);
    memset(info, 0, sizeof *info);
    struct icn_plan p;
    memset(&p, 0, sizeof p);
    if (icn_plan_build(t, &cd, &p, &d) != BASE_OK) return;
    const struct icn_plan *pp = &p;
    struct icn_run_result r;
    enum base_status st = icn_run(t, &pp, 1, &r, NULL);
    *host_s = st == BASE_OK ? now_s() - t0 : 0;
    *info = p;
    info->xfers = NULL;
    info->deps = NULL;
    icn_plan_deinit(&p);
}

int main(int argc, char **argv)
{
    int64_t rows_per_chip = argc > 1 ? atoll(argv[1]) : 1024;
    int layers = argc > 2 ? atoi(argv[2]) : 4;
    int64_t width = argc > 3 ? atoll(argv[3]) : 4096;
    if (rows_per_chip < 1 || layers < 1 || width < 1) {
        fprintf(stderr, "usage: multichip_bench [ROWS_PER_CHIP [LAYERS [WIDTH]]]\n");
        return 2;
    }
    static const struct config configs[] = {
        {"tpu-v6e", "16x16", "a v6e pod"},
        {"tpu-v6e", "32 slices of 16x16", "32 v6e pods over the DCN"},
        {"trn2", "ultraserver", "a trn2 UltraServer"},
    };
    double grad_bytes = (double)width * (double)width * 2;
    printf("  %d layers of %lld x %lld bf16, %lld rows per chip (global batch = rows x chips); per step per chip:\n",
           layers, (long long)width, (long long)width, (long long)rows_per_chip);
    printf("  forward, backward and update GEMMs, then one all_reduce of each layer's gradient (%.0f MiB); goal: seconds\n",
           grad_bytes / (1024.0 * 1024));
    int failures = 0;
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        const struct config *cf = &configs[c];
        struct chip_desc chip;
        struct icn_topo topo;
        struct base_diag d;
        base_diag_clear(&d);
        /* data-parallel over whole chips: a partition per chip (all of its
         * cores), whatever ranks the chip file gives */
        if (chip_load(cf->chip, &chip, &d) != BASE_OK || chip_set_ranks(&chip, 1, &d) != BASE_OK ||
            icn_topo_from_chip(&chip, cf->topology, ICN_WRAP_AUTO, NULL, &topo, &d) != BASE_OK) {
            fail(cf->chip, &d);
            failures++;
            continue;
        }
        uint32_t n = topo.n_chips;
        printf("  %-8s %5u chips, %s (%s):\n", cf->chip, n, topo.desc, cf->label);
        struct result r;
        double t0 = now_s();
        if (run_one(&chip, &topo, n, layers, rows_per_chip, width, &r) != 0) {
            printf("    failed (see above)\n");
            rt_report_free(&r.rep); /* a failed run may have filled part of it */
            failures++;
            continue;
        }
        double wall = now_s() - t0;
        const struct rt_report *rep = &r.rep;
        printf("    host: generate+parse %.1f ms, partition %.1f ms, compile %.1f ms, run %.1f ms; total %.3f s "
               "(goal: seconds)\n",
               r.gen_s * 1e3, r.partition_s * 1e3, r.compile_s * 1e3, r.run_s * 1e3, wall);
        printf("    simulated step %.3f ms: kernels %.3f ms, launch gaps %.3f ms, collectives exposed %.3f ms\n",
               (double)rep->total_ps * 1e-9, (double)rep->device_ps * 1e-9, (double)rep->dispatch_ps * 1e-9,
               (double)rep->collective_exposed_ps * 1e-9);
        const char *alg = rep->n_colls ? rep->colls[0].algorithm : "-";
        double busbw = rep->n_colls ? rep->colls[0].busbw_gbps : 0;
        printf("    collectives: %llu (partitioner inserted %d, %.1f MiB per chip), %.1f MiB per chip, %.3f ms "
               "(%s, busbw %.1f GB/s), %.1f%% hidden behind kernels\n",
               (unsigned long long)rep->collectives, r.n_colls_inserted,
               (double)r.coll_bytes_inserted / (1024.0 * 1024), rep->collective_bytes / (1024.0 * 1024),
               (double)rep->collective_ps * 1e-9, alg, busbw,
               rep->collective_ps ? 100.0 * (1.0 - (double)rep->collective_exposed_ps / (double)rep->collective_ps)
                                  : 0.0);
        struct icn_plan ip;
        double icn_s;
        coll_plan_facts(&topo, grad_bytes, &ip, &icn_s);
        printf("    simulated: 1 chip's kernels (%u inferred by SPMD symmetry); each all_reduce: %u transfers among "
               "%u chips' links modelled (%s, host %.1f ms), the rest %s\n",
               n - 1, ip.n_xfers, ip.chips_simulated, icn_alg_name(ip.alg), icn_s * 1e3,
               ip.inferred ? "inferred from them (representative rings and groups)" : "none: every chip modelled");
        rt_report_free(&r.rep);
    }
    return failures ? 1 : 0;
}
