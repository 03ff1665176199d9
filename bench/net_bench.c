/* Interconnect benchmark: all_reduce bus bandwidth against message size on
 * a trn2 instance (4x4 torus, 64 ranks at LNC=2) and a tpu-v5e pod (16x16),
 * each pod's 1 GiB bus bandwidth beside the vendor's figure, and the host
 * time of timing-only all_reduces over 256 and 8192 chips
 * (docs/interconnect.md).
 *   net_bench            (run from the source tree: chips/ is looked up in ./chips) */
#include "interconnect/interconnect.h"
#include "chip/chip.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ranks_per_chip 0: the chip file's */
static int topo_of(const char *chip_name, const char *shape, uint32_t ranks_per_chip, struct icn_topo *t)
{
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(chip_name, &chip, &d) != BASE_OK ||
        (ranks_per_chip && chip_set_ranks(&chip, ranks_per_chip, &d) != BASE_OK) ||
        icn_topo_from_chip(&chip, shape, ICN_WRAP_AUTO, NULL, t, &d)) {
        fprintf(stderr, "net_bench: %s %s: %s\n", chip_name, shape, d.msg);
        return -1;
    }
    return 0;
}

/* One all_reduce: simulated ps (0 on failure), plan facts, host seconds. */
static uint64_t run_ar(const struct icn_topo *t, double bytes, enum icn_alg alg, bool rep, struct icn_plan *info,
                       double *host_s, double *cf_ps)
{
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = alg, .bytes = bytes, .representative = rep};
    struct icn_plan p;
    struct base_diag diag;
    double t0 = now_s();
    if (icn_plan_build(t, &d, &p, &diag) != BASE_OK) {
        fprintf(stderr, "net_bench: %s\n", diag.msg);
        return 0;
    }
    const struct icn_plan *pp = &p;
    struct icn_run_result r;
    enum base_status st = icn_run(t, &pp, 1, &r, NULL);
    *host_s = now_s() - t0;
    if (cf_ps) *cf_ps = icn_closed_form_ps(t, &d, p.alg);
    *info = p;
    info->xfers = NULL;
    info->deps = NULL;
    icn_plan_deinit(&p);
    return st == BASE_OK ? r.time_ps : 0;
}

static void sweep(const char *chip, const char *shape)
{
    struct icn_topo t;
    if (topo_of(chip, shape, 0, &t)) return;
    printf("  %s, %s (%u ranks; bytes per rank):\n", chip, t.desc, t.n_ranks);
    printf("    %10s  %-12s %12s %12s %10s\n", "bytes", "algorithm", "time us", "busbw GB/s", "vs a-b");
    for (double b = 1024; b <= 1024.0 * 1024 * 1024; b *= 4) {
        struct icn_plan info;
        double host, cf;
        uint64_t ps = run_ar(&t, b, ICN_ALG_AUTO, false, &info, &host, &cf);
        if (!ps) continue;
        double busbw = b / ((double)ps * 1e-12) * icn_busbw_factor(ICN_COLL_ALL_REDUCE, info.group_size);
        char sz[32];
        if (b >= 1024.0 * 1024 * 1024) snprintf(sz, sizeof sz, "%.0f GiB", b / (1024.0 * 1024 * 1024));
        else if (b >= 1024.0 * 1024) snprintf(sz, sizeof sz, "%.0f MiB", b / (1024.0 * 1024));
        else snprintf(sz, sizeof sz, "%.0f KiB", b / 1024.0);
        printf("    %10s  %-12s %12.2f %12.2f %+9.2f%%\n", sz, icn_alg_name(info.alg), (double)ps * 1e-6, busbw * 1e-9,
               cf > 0 ? 100.0 * ((double)ps - cf) / cf : 0.0);
    }
}

/* The 1 GiB all_reduce's bus bandwidth on a whole pod or instance, beside
 * the vendor's figure per chip (0: none). */
static void pod(const char *chip, const char *shape, uint32_t ranks_per_chip, double vendor_gbs, const char *what)
{
    struct icn_topo t;
    if (topo_of(chip, shape, ranks_per_chip, &t)) return;
    const double b = 1024.0 * 1024 * 1024;
    struct icn_plan info;
    double host;
    uint64_t ps = run_ar(&t, b, ICN_ALG_AUTO, t.n_ranks > 1024, &info, &host, NULL);
    if (!ps) return;
    double busbw = b / ((double)ps * 1e-12) * icn_busbw_factor(ICN_COLL_ALL_REDUCE, info.group_size) * 1e-9;
    printf("  %-8s %-11s %5u ranks %-12s busbw %7.1f GB/s", chip, shape, t.n_ranks, icn_alg_name(info.alg), busbw);
    if (vendor_gbs > 0) printf("   vendor %6.1f (%+.1f%%)", vendor_gbs, 100.0 * (busbw - vendor_gbs) / vendor_gbs);
    printf("   %s\n", what);
}

static void scale(const char *chip, const char *shape, bool rep)
{
    struct icn_topo t;
    if (topo_of(chip, shape, 0, &t)) return;
    const double b = 1024.0 * 1024 * 1024;
    struct icn_plan info;
    double host, cf;
    uint64_t ps = run_ar(&t, b, ICN_ALG_AUTO, rep, &info, &host, &cf);
    if (!ps) return;
    double busbw = b / ((double)ps * 1e-12) * icn_busbw_factor(ICN_COLL_ALL_REDUCE, info.group_size);
    printf("  %5u chips %-30s %-12s %-14s simulated %9.1f us, busbw %6.1f GB/s; %7u transfers over %4u chips; "
           "host %.3f s\n",
           t.n_chips, t.desc, icn_alg_name(info.alg), rep ? "representative" : "every chip", (double)ps * 1e-6,
           busbw * 1e-9, info.n_xfers, info.chips_simulated, host);
}

int main(void)
{
    printf("all_reduce bus bandwidth vs size (NCCL busbw = size/time x 2(n-1)/n; chosen algorithm;\n"
           "simulated time against the alpha-beta closed form of that algorithm):\n");
    sweep("trn2", "4x4");
    sweep("tpu-v5e", "16x16");
    printf("1 GiB all_reduce over a whole pod or instance (every torus axis at once), against the vendor's\n"
           "pod all-reduce bandwidth per chip:\n");
    pod("tpu-v5e", "16x16", 0, 51.2e3 / 256, "GCP 51.2 TB/s per pod [S2]");
    pod("tpu-v6e", "16x16", 0, 102.4e3 / 256, "GCP 102.4 TB/s per pod [S4]");
    pod("tpu-v4", "4x4x4", 0, 1.1e6 / 4096, "GCP 1.1 PB/s per 4096-chip pod [S1] (a cube)");
    pod("tpu-v4", "16x16x16", 0, 1.1e6 / 4096, "GCP 1.1 PB/s per 4096-chip pod [S1]");
    pod("tpu-v5p", "4x4x4", 0, 0, "");
    pod("tpu-7x", "4x4x4", 0, 0, "2 ranks per chip, 1 GiB each");
    pod("trn2", "4x4", 0, 0, "LNC=2: 4 ranks per chip, 1 GiB each");
    pod("trn2", "4x4", 1, 0, "a rank per chip");
    pod("trn2", "ultraserver", 1, 0, "a rank per chip");
    printf("timing-only 1 GiB all_reduce at scale (goal: well under 1 s of host time with symmetry):\n");
    scale("tpu-v6e", "16x16", false);
    scale("tpu-v6e", "16x16", true);
    scale("tpu-v6e", "32 slices of 16x16", true);
    scale("tpu-v6e", "32 slices of 16x16", false);
    return 0;
}
