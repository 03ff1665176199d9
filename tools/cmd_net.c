/* npusim net: time one collective on a modelled chip-to-chip network
 * (interconnect/interconnect.h, docs/interconnect.md). */
#include "tools/tools.h"

#include "interconnect/interconnect.h"
#include "chip/chip.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim net --chip NAME|FILE.chip --topology SHAPE [--collective C] [--bytes N]\n"
            "                  [--algorithm A] [--groups G] [--pairs P] [--wrap auto|all|none]\n"
            "                  [--dcn-gbps X] [--dcn-latency-us X] [--reduce-gbs X] [--chunks N]\n"
            "                  [--link-gbs X] [--latency-ns X] [--launch-us X] [--lnc N | --ranks-per-chip N]\n"
            "                  [--representative | --full] [--links N] [--json]\n"
            "\n"
            "Builds the network from the chip's [links] and SHAPE, builds the collective's\n"
            "schedule of transfers, runs it with max-min fair link sharing and prints the\n"
            "time, the algorithm, the alpha-beta closed form, the achieved bus bandwidth\n"
            "(NCCL's: size/time x 2(n-1)/n for all_reduce, x (n-1)/n for all_gather,\n"
            "reduce_scatter and all_to_all, x 1 otherwise) and the link utilisation.\n"
            "\n"
            "  --topology SHAPE     \"16\" (ring), \"4x4\", \"2x16x16\", \"ultraserver\" (trn2, 64 chips),\n"
            "                       \"switch:64\", \"N slices of SHAPE\" (slices joined by the DCN)\n"
            "  --lnc N              Neuron chips: N physical cores per logical core (rank); trn2\n"
            "                       and trn3 default to 2 (4 ranks per chip), trn1 and inf2 to 1\n"
            "  --ranks-per-chip N   logical devices per chip (default: the chip file's, e.g. 2 on\n"
            "                       tpu-7x); groups, pairs and --bytes are per rank, rank r on chip\n"
            "                       r / N; ranks of one chip talk through its HBM, not the links\n"
            "  --collective C       all_reduce (default), all_gather, reduce_scatter, all_to_all,\n"
            "                       collective_permute, collective_broadcast\n"
            "  --bytes N            per chip (all_gather: the gathered output); suffixes K M G\n"
            "                       (KiB...), KB MB GB (decimal); default 1M\n"
            "  --algorithm A        auto (default), ring, biring, torus, hierarchical, tree, direct\n"
            "  --groups G           replica groups \"0,1,2,3;4,5,6,7\" (default: all chips, one group)\n"
            "  --pairs P            collective_permute pairs \"0:1,1:2,2:3,3:0\" (default: i -> i+1)\n"
            "  --wrap W             torus wrap links: auto (the chip's rule), all, none\n"
            "  --dcn-gbps X         DCN per chip and direction in Gb/s (default: the chip file's)\n"
            "  --dcn-latency-us X   one DCN traversal (default: the chip file's)\n"
            "  --reduce-gbs X       local reduction speed in GB/s (default: free)\n"
            "  --chunks N           pipelined broadcast chunks (default: the closed form's optimum)\n"
            "  --link-gbs X         override the chip's link bandwidth (GB/s per link and direction)\n"
            "  --latency-ns X       override the chip's per-hop link latency\n"
            "  --launch-us X        override the chip's software cost per collective\n"
            "                       (collective_launch_ns; 0: none)\n"
            "  --representative     simulate one group and one ring per phase, infer the rest\n"
            "                       (default above 1024 chips); --full simulates every chip\n"
            "  --links N            busiest links to list (default 6)\n"
            "\n"
            "examples:\n"
            "  npusim net --chip trn2 --topology 4x4 --bytes 1G\n"
            "  npusim net --chip tpu-v5e --topology 16 --bytes 64K --algorithm ring\n"
            "  npusim net --chip tpu-v6e --topology '32 slices of 16x16' --bytes 1G\n"
            "  npusim net --chip tpu-7x --topology 2x2x1 --collective all_gather --bytes 4M --groups '0,2,4,6;1,3,5,7'\n"
            "  npusim net --chip trn3 --topology switch:8 --ranks-per-chip 1 --link-gbs 40.909 --latency-ns 500 \\\n"
            "      --launch-us 0 --bytes 1G      # an 8-GPU NVSwitch box (11 x 40.9 = 450 GB/s each way)\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool parse_bytes(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0)) return false;
    double mul = 1;
    if (!strcmp(end, "") || !strcmp(end, "B")) mul = 1;
    else if (!strcmp(end, "K") || !strcmp(end, "KiB") || !strcmp(end, "k")) mul = 1024.0;
    else if (!strcmp(end, "M") || !strcmp(end, "MiB")) mul = 1024.0 * 1024;
    else if (!strcmp(end, "G") || !strcmp(end, "GiB")) mul = 1024.0 * 1024 * 1024;
    else if (!strcmp(end, "KB")) mul = 1e3;
    else if (!strcmp(end, "MB")) mul = 1e6;
    else if (!strcmp(end, "GB")) mul = 1e9;
    else return false;
    *out = floor(v * mul);
    return true;
}

static bool parse_pos(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0)) return false;
    *out = v;
    return true;
}

/* "0,1,2,3;4,5,6,7" -> ids (malloc'd), groups x size */
static bool parse_groups(const char *s, uint32_t **ids, uint32_t *n_groups, uint32_t *size)
{
    size_t cap = strlen(s) + 1, n = 0;
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v) return false;
    uint32_t groups = 0, cur = 0, sz = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(p, &end, 10);
        if (errno || end == p || x >= UINT32_MAX) break;
        v[n++] = (uint32_t)x;
        cur++;
        p = end;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ';' || *p == 0) {
            if (groups == 0) sz = cur;
            if (cur != sz) break;
            groups++;
            cur = 0;
            if (*p == 0) {
                *ids = v;
                *n_groups = groups;
                *size = sz;
                return true;
            }
            p++;
            continue;
        }
        break;
    }
    free(v);
    return false;
}

/* "0:1,1:2" -> pairs */
static bool parse_pairs(const char *s, uint32_t **pairs, uint32_t *n_pairs)
{
    size_t cap = strlen(s) + 2, n = 0;
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v) return false;
    const char *p = s;
    for (;;) {
        char *end;
        unsigned long a = strtoul(p, &end, 10);
        if (end == p || *end != ':') break;
        p = end + 1;
        unsigned long b = strtoul(p, &end, 10);
        if (end == p) break;
        v[n++] = (uint32_t)a;
        v[n++] = (uint32_t)b;
        p = end;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == 0) {
            *pairs = v;
            *n_pairs = (uint32_t)(n / 2);
            return true;
        }
        break;
    }
    free(v);
    return false;
}

struct busy {
    uint32_t link;
    double util;
};

static int busy_cmp(const void *a, const void *b)
{
    const struct busy *x = a, *y = b;
    if (x->util != y->util) return x->util < y->util ? 1 : -1;
    return x->link < y->link ? -1 : x->link > y->link;
}

int cmd_net(int argc, char **argv)
{
    const char *chip_name = NULL, *shape = NULL, *groups_s = NULL, *pairs_s = NULL, *v;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_AUTO, .bytes = 1024.0 * 1024};
    enum icn_wrap wrap = ICN_WRAP_AUTO;
    double dcn_gbps = 0, dcn_latency_us = -1;
    bool json = false, rep_set = false, rep = false;
    uint32_t top_links = 6, lnc = 0, rpc = 0;
    double link_gbs = 0, latency_ns = -1, launch_us = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        double x;
        if (tool_flag(a, "--help") || tool_flag(a, "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--chip", &v)) {
            chip_name = v;
        } else if (tool_opt(argc, argv, &i, "--topology", &v)) {
            shape = v;
        } else if (tool_opt(argc, argv, &i, "--collective", &v)) {
            if (!icn_coll_parse(v, &d.coll)) {
                fprintf(stderr, "npusim net: unknown collective '%s'\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--algorithm", &v)) {
            if (!icn_alg_parse(v, &d.alg)) {
                fprintf(stderr, "npusim net: unknown algorithm '%s'\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--bytes", &v)) {
            if (!parse_bytes(v, &d.bytes)) {
                fprintf(stderr, "npusim net: bad --bytes '%s'\n", v);
                return TOOL_USAGE;
            }
            if (d.bytes > (double)base_limit(tool_limits(), BASE_LIMIT_COLLECTIVE_BYTES)) {
                struct base_diag bd;
                base_diag_clear(&bd);
                base_limit_fail(&bd, "", 0, 0, tool_limits(), BASE_LIMIT_COLLECTIVE_BYTES,
                                d.bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)d.bytes, "npusim net --bytes");
                tool_print_diag(&bd);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--groups", &v)) {
            groups_s = v;
        } else if (tool_opt(argc, argv, &i, "--pairs", &v)) {
            pairs_s = v;
        } else if (tool_opt(argc, argv, &i, "--wrap", &v)) {
            if (!strcmp(v, "auto")) wrap = ICN_WRAP_AUTO;
            else if (!strcmp(v, "all")) wrap = ICN_WRAP_ALL;
            else if (!strcmp(v, "none")) wrap = ICN_WRAP_NONE;
            else {
                fprintf(stderr, "npusim net: --wrap takes auto, all or none\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--dcn-gbps", &v)) {
            if (!parse_pos(v, &x)) return fprintf(stderr, "npusim net: bad --dcn-gbps\n"), TOOL_USAGE;
            dcn_gbps = x;
        } else if (tool_opt(argc, argv, &i, "--dcn-latency-us", &v)) {
            if (!parse_pos(v, &x)) return fprintf(stderr, "npusim net: bad --dcn-latency-us\n"), TOOL_USAGE;
            dcn_latency_us = x;
        } else if (tool_opt(argc, argv, &i, "--reduce-gbs", &v)) {
            if (!parse_pos(v, &x)) return fprintf(stderr, "npusim net: bad --reduce-gbs\n"), TOOL_USAGE;
            d.reduce_bytes_per_ns = x;
        } else if (tool_opt(argc, argv, &i, "--chunks", &v)) {
            uint64_t c;
            if (!tool_count("net", "--chunks", v, 1, 0, BASE_LIMIT_CHUNKS, &c)) return TOOL_USAGE;
            d.chunks = (uint32_t)c;
        } else if (tool_opt(argc, argv, &i, "--link-gbs", &v)) {
            if (!parse_pos(v, &link_gbs)) return fprintf(stderr, "npusim net: bad --link-gbs\n"), TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--latency-ns", &v)) {
            char *end;
            latency_ns = strtod(v, &end);
            if (end == v || *end || !(latency_ns >= 0))
                return fprintf(stderr, "npusim net: bad --latency-ns\n"), TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--launch-us", &v)) {
            char *end;
            launch_us = strtod(v, &end);
            if (end == v || *end || !(launch_us >= 0))
                return fprintf(stderr, "npusim net: bad --launch-us\n"), TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--lnc", &v)) {
            uint64_t c;
            if (!tool_count("net", "--lnc", v, 1, CHIP_MAX_CORES, -1, &c)) return TOOL_USAGE;
            lnc = (uint32_t)c;
        } else if (tool_opt(argc, argv, &i, "--ranks-per-chip", &v)) {
            uint64_t c;
            if (!tool_count("net", "--ranks-per-chip", v, 1, CHIP_MAX_CORES, -1, &c)) return TOOL_USAGE;
            rpc = (uint32_t)c;
        } else if (tool_opt(argc, argv, &i, "--links", &v)) {
            uint64_t c;
            if (!tool_count("net", "--links", v, 0, 1u << 20, -1, &c)) return TOOL_USAGE;
            top_links = (uint32_t)c;
        } else if (tool_flag(a, "--representative")) {
            rep_set = rep = true;
        } else if (tool_flag(a, "--full")) {
            rep_set = true;
            rep = false;
        } else if (tool_flag(a, "--json")) {
            json = true;
        } else {
            fprintf(stderr, "npusim net: unknown argument '%s'\n\n", a);
            help(stderr);
            return TOOL_USAGE;
        }
    }
    if (!chip_name || !shape) {
        fprintf(stderr, "npusim net: --chip and --topology are required\n\n");
        help(stderr);
        return TOOL_USAGE;
    }
    struct base_diag diag;
    base_diag_clear(&diag);
    struct chip_desc chip;
    if (chip_load(chip_name, &chip, &diag) != BASE_OK) {
        tool_print_diag(&diag);
        return TOOL_FAIL;
    }
    if (link_gbs > 0) chip.links.bytes_per_ns = link_gbs;
    if (latency_ns >= 0) chip.links.latency_ps = (uint64_t)llround(latency_ns * 1000.0);
    if (launch_us >= 0) chip.links.collective_launch_ps = (uint64_t)llround(launch_us * 1e6);
    if (dcn_gbps > 0) chip.links.dcn_bytes_per_ns = dcn_gbps / 8.0;
    if (dcn_latency_us > 0) chip.links.dcn_latency_ps = (uint64_t)llround(dcn_latency_us * 1e6);
    if ((lnc && rpc) || (lnc && chip_set_lnc(&chip, lnc, &diag) != BASE_OK) ||
        (rpc && chip_set_ranks(&chip, rpc, &diag) != BASE_OK)) {
        if (lnc && rpc) fprintf(stderr, "npusim net: give --lnc or --ranks-per-chip, not both\n");
        else tool_print_diag(&diag);
        return TOOL_USAGE;
    }
    struct icn_topo topo;
    if (icn_topo_from_chip_lim(&chip, shape, wrap, NULL, tool_limits(), &topo, &diag) != BASE_OK) {
        tool_print_diag(&diag);
        return TOOL_FAIL;
    }
    uint32_t *gids = NULL, *pairs = NULL;
    if (groups_s) {
        if (!parse_groups(groups_s, &gids, &d.n_groups, &d.group_size)) {
            fprintf(stderr, "npusim net: bad --groups '%s' (groups of equal size: \"0,1;2,3\")\n", groups_s);
            return TOOL_USAGE;
        }
        d.groups = gids;
    }
    if (d.coll == ICN_COLL_COLLECTIVE_PERMUTE) {
        if (pairs_s) {
            if (!parse_pairs(pairs_s, &pairs, &d.n_pairs)) {
                fprintf(stderr, "npusim net: bad --pairs '%s'\n", pairs_s);
                free(gids);
                return TOOL_USAGE;
            }
        } else {
            pairs = malloc((size_t)2 * topo.n_ranks * sizeof *pairs);
            if (!pairs) return TOOL_FAIL;
            for (uint32_t c = 0; c < topo.n_ranks; c++) {
                pairs[2 * c] = c;
                pairs[2 * c + 1] = (c + 1) % topo.n_ranks;
            }
            d.n_pairs = topo.n_ranks;
        }
        d.pairs = pairs;
    }
    d.representative = rep_set ? rep : topo.n_ranks > 1024;

    double t0 = now_s();
    enum icn_alg chosen = icn_choose(&topo, &d);
    struct icn_plan plan;
    int rc = TOOL_OK;
    if (icn_plan_build(&topo, &d, &plan, &diag) != BASE_OK) {
        tool_print_diag(&diag);
        free(gids);
        free(pairs);
        return TOOL_FAIL;
    }
    double t1 = now_s();
    double *link_bytes = calloc(topo.n_links, sizeof *link_bytes);
    struct icn_run_result r;
    const struct icn_plan *pp = &plan;
    enum base_status st = link_bytes ? icn_run(&topo, &pp, 1, &r, link_bytes) : BASE_ERR_NOMEM;
    double t2 = now_s();
    if (st != BASE_OK) {
        if (st == BASE_ERR_LIMIT)
            fprintf(stderr, "npusim net: run failed: the collective would end past %llu ps (%.0f days): too many "
                            "bytes for these links\n",
                    (unsigned long long)ICN_MAX_TIME_PS, (double)ICN_MAX_TIME_PS / 86400e12);
        else
            fprintf(stderr, "npusim net: run failed: %s\n", base_status_str(st));
        rc = TOOL_FAIL;
        goto out;
    }
    double cf = icn_closed_form_ps(&topo, &d, plan.alg);
    uint32_t n = d.coll == ICN_COLL_COLLECTIVE_PERMUTE ? 2 : plan.group_size;
    double time_s = (double)r.time_ps * 1e-12;
    double algbw = time_s > 0 ? d.bytes / time_s : 0;
    double busbw = algbw * icn_busbw_factor(d.coll, n);

    struct busy *bl = malloc((size_t)(topo.n_links ? topo.n_links : 1) * sizeof *bl);
    uint32_t nb = 0;
    for (uint32_t l = 0; bl && l < topo.n_links; l++) {
        if (!(link_bytes[l] > 0) || r.time_ps == 0) continue;
        struct icn_link_info li;
        icn_link_get(&topo, l, &li);
        bl[nb].link = l;
        bl[nb].util = link_bytes[l] / (li.bytes_per_ns * (double)r.time_ps / 1000.0);
        nb++;
    }
    if (bl) qsort(bl, nb, sizeof *bl, busy_cmp);
    if (top_links > nb) top_links = nb;
    char name[64];
    if (json) {
        printf("{\n  \"chip\": \"%s\", \"topology\": \"%s\", \"chips\": %u, \"ranks\": %u, \"ranks_per_chip\": %u, "
               "\"links\": %u, \"launch_ps\": %llu,\n",
               chip.name, topo.desc, topo.n_chips, topo.n_ranks, topo.ranks_per_chip, topo.n_links,
               (unsigned long long)topo.launch_ps);
        printf("  \"collective\": \"%s\", \"algorithm\": \"%s\", \"chosen\": \"%s\", \"bytes\": %.0f,\n",
               icn_coll_name(d.coll), icn_alg_name(plan.alg), icn_alg_name(chosen), d.bytes);
        printf("  \"groups\": %u, \"group_size\": %u, \"representative\": %s, \"representative_refused\": %s, "
               "\"chips_simulated\": %u,\n",
               plan.n_groups, plan.group_size, plan.inferred ? "true" : "false", plan.rep_refused ? "true" : "false",
               plan.chips_simulated);
        printf("  \"time_ps\": %llu, \"closed_form_ps\": %.0f, \"algbw_gbs\": %.4f, \"busbw_gbs\": %.4f,\n",
               (unsigned long long)r.time_ps, cf, algbw * 1e-9, busbw * 1e-9);
        printf("  \"transfers\": %u, \"links_used\": %u, \"link_util_mean\": %.4f, \"link_util_max\": %.4f,\n",
               plan.n_xfers, r.links_used, r.link_util_mean, r.link_util_max);
        printf("  \"link_util_ici\": %.4f, \"link_util_dcn\": %.4f, \"recomputes\": %llu,\n", r.link_util_ici,
               r.link_util_dcn, (unsigned long long)r.recomputes);
        printf("  \"host_build_s\": %.4f, \"host_run_s\": %.4f,\n  \"busiest_links\": [", t1 - t0, t2 - t1);
        for (uint32_t i = 0; i < top_links; i++) {
            icn_link_name(&topo, bl[i].link, name, sizeof name);
            printf("%s{\"link\": \"%s\", \"util\": %.4f}", i ? ", " : "", name, bl[i].util);
        }
        printf("]\n}\n");
    } else {
        printf("topology:   %s, %u chips (%s links: %.4g B/ns per direction, %.0f ns per hop)\n", topo.desc,
               topo.n_chips, chip.name, chip.links.bytes_per_ns, (double)chip.links.latency_ps / 1000.0);
        if (topo.ranks_per_chip > 1)
            printf("ranks:      %u (%u per chip; on-chip path %.4g B/ns per rank and direction, %.0f ns)\n", topo.n_ranks,
                   topo.ranks_per_chip, topo.local_bytes_per_ns, (double)topo.local_latency_ps / 1000.0);
        if (topo.launch_ps) printf("launch:     %.1f us per collective (software)\n", (double)topo.launch_ps * 1e-6);
        if (topo.slices > 1)
            printf("dcn:        %.4g B/ns per chip and direction, %.1f us\n", topo.dcn.bytes_per_ns,
                   (double)topo.dcn.latency_ps * 1e-6);
        printf("collective: %s, %.0f B per %s, %u group%s of %u, algorithm %s%s\n", icn_coll_name(d.coll), d.bytes,
               topo.ranks_per_chip > 1 ? "rank" : "chip",
               plan.n_groups, plan.n_groups == 1 ? "" : "s", plan.group_size, icn_alg_name(plan.alg),
               d.alg == ICN_ALG_AUTO ? " (chosen)" : "");
        printf("time:       %.3f us", (double)r.time_ps * 1e-6);
        if (cf >= 0)
            printf("  (alpha-beta closed form %.3f us, %+.2f%%)", cf * 1e-6,
                   cf > 0 ? 100.0 * ((double)r.time_ps - cf) / cf : 0.0);
        printf("\nbandwidth:  algbw %.2f GB/s, busbw %.2f GB/s\n", algbw * 1e-9, busbw * 1e-9);
        printf("links:      %u used of %u; utilisation mean %.1f%%, max %.1f%% (%s %.1f%%", r.links_used, topo.n_links,
               100 * r.link_util_mean, 100 * r.link_util_max, topo.kind == ICN_TOPO_SWITCH ? "switch" : "ICI",
               100 * r.link_util_ici);
        if (topo.slices > 1) printf(", DCN %.1f%%", 100 * r.link_util_dcn);
        printf(")\n");
        printf("simulated:  %u transfers over %u %s%s; host %.3f s (build %.3f s)\n", plan.n_xfers,
               plan.chips_simulated, topo.ranks_per_chip > 1 ? "ranks" : "chips",
               plan.inferred       ? " (representative: the other groups and rings inferred by symmetry)"
               : plan.rep_refused ? " (representative refused: the groups share links)"
                                  : "",
               t2 - t0,
               t1 - t0);
        for (uint32_t i = 0; i < top_links; i++) {
            icn_link_name(&topo, bl[i].link, name, sizeof name);
            printf("  %-22s %5.1f%%\n", name, 100 * bl[i].util);
        }
    }
    free(bl);
out:
    free(link_bytes);
    icn_plan_deinit(&plan);
    free(gids);
    free(pairs);
    return rc;
}
