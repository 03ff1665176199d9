/* npusim chips [--json] [NAME|PATH ...]: the chip descriptions with derived figures. */
#include "tools/tools.h"

#include "chip/chip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Derived peaks must agree with the published ones within this (docs/chips.md). */
#define PEAK_TOLERANCE_PCT 3.0

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim chips [--json] [NAME|PATH ...]\n"
            "\n"
            "Lists chip descriptions (all bundled chips when none is named) with figures\n"
            "derived from their engines, beside the published ones:\n"
            "  peak FLOP/s = cores x arrays x rows x cols x 2 x clock x rows per cycle\n"
            "                of the rate class (bf16, fp8, int8)\n"
            "  HBM bandwidth and capacity, scratchpad and accumulator per core, price.\n"
            "A NAME is looked up as NAME.chip in $NPUSIM_CHIPS, ./chips, then the chips/\n"
            "directory of the source tree this npusim was built in; anything containing '/'\n"
            "or ending in .chip is a path to your own file (format: docs/chips.md).\n"
            "  --json   one JSON object {\"chips\": [...]} instead of the table\n"
            "A derived peak more than %.0f%% from the published one is marked '!'.\n"
            "Exit status 1 when a chip file fails to load.\n",
            PEAK_TOLERANCE_PCT);
}

struct peak {
    double derived, published, alt; /* FLOP/s; 0 = none */
};

static struct peak peak_of(const struct chip_desc *c, enum chip_rate_class rc)
{
    struct peak p = {chip_peak_flops(c, rc), 0, 0};
    switch (rc) {
    case CHIP_RATE_BF16:
        p.published = c->published_bf16_tflops * 1e12;
        p.alt = c->published_alt_bf16_tflops * 1e12;
        break;
    case CHIP_RATE_FP8:
        p.published = c->published_fp8_tflops * 1e12;
        p.alt = c->published_alt_fp8_tflops * 1e12;
        break;
    case CHIP_RATE_INT8:
        p.published = c->published_int8_tops * 1e12;
        p.alt = c->published_alt_int8_tops * 1e12;
        break;
    default: break;
    }
    return p;
}

static double diff_pct(double derived, double published) { return (derived / published - 1.0) * 100.0; }

static uint32_t count_kind(const struct chip_desc *c, enum isa_engine_kind k)
{
    uint32_t n = 0;
    for (uint32_t e = 0; e < c->n_engines; e++) n += c->engines[e].kind == k;
    return n;
}

static const struct chip_engine_desc *first_kind(const struct chip_desc *c, enum isa_engine_kind k)
{
    for (uint32_t e = 0; e < c->n_engines; e++)
        if (c->engines[e].kind == k) return &c->engines[e];
    return NULL;
}

static uint64_t sram_bytes(const struct chip_sram_desc *m) { return (uint64_t)m->partitions * m->bytes_per_partition; }

/* ------------------------------------------------------------------------ */
/* Table                                                                     */

static void print_peak_cell(struct peak p, bool *off)
{
    if (p.derived <= 0 && p.published <= 0) {
        printf(" %7s %5s %7s", "-", "-", "");
        return;
    }
    char pub[16] = "-", diff[16] = "";
    if (p.published > 0) {
        double d = diff_pct(p.derived, p.published);
        snprintf(pub, sizeof pub, "%.0f", p.published / 1e12);
        snprintf(diff, sizeof diff, "%+.1f%%%s", d, fabs(d) > PEAK_TOLERANCE_PCT ? "!" : "");
        if (fabs(d) > PEAK_TOLERANCE_PCT) *off = true;
    }
    printf(" %7.1f %5s %-7s", p.derived / 1e12, pub, diff);
}

static void print_table(struct chip_desc *chips, int n)
{
    printf("%-9s %-6s %5s %-17s | %-21s | %-21s | %-21s | %8s %7s | %7s %7s | %s\n", "", "", "", "systolic arrays",
           "bf16 TFLOP/s", "fp8 TFLOP/s", "int8 TOP/s", "HBM", "HBM", "SRAM", "ACC", "price");
    printf("%-9s %-6s %5s %-17s | %7s %5s %-7s | %7s %5s %-7s | %7s %5s %-7s | %8s %7s | %7s %7s | %s\n", "chip",
           "family", "cores", "per core @ GHz", "derived", "pub", "diff", "derived", "pub", "diff", "derived", "pub",
           "diff", "GB/s", "GiB", "MiB/co", "MiB/co", "$/chip-h");
    bool any_est = false, any_off = false;
    for (int i = 0; i < n; i++) {
        const struct chip_desc *c = &chips[i];
        const struct chip_engine_desc *pe = first_kind(c, ISA_ENGINE_SYSTOLIC);
        char arr[40] = "-";
        if (pe)
            snprintf(arr, sizeof arr, "%ux%ux%u @%.3g", count_kind(c, ISA_ENGINE_SYSTOLIC), pe->rows, pe->cols,
                     pe->clock_ghz);
        printf("%-9s %-6s %5u %-17s |", c->name, chip_family_name(c->family), c->cores, arr);
        print_peak_cell(peak_of(c, CHIP_RATE_BF16), &any_off);
        printf(" |");
        print_peak_cell(peak_of(c, CHIP_RATE_FP8), &any_off);
        printf(" |");
        print_peak_cell(peak_of(c, CHIP_RATE_INT8), &any_off);
        char price[24] = "-";
        if (c->price_per_chip_hour_usd > 0)
            snprintf(price, sizeof price, "%.2f%s", c->price_per_chip_hour_usd, c->price_is_estimate ? "*" : "");
        else if (c->price_is_estimate)
            snprintf(price, sizeof price, "n/p");
        any_est |= c->price_is_estimate && c->price_per_chip_hour_usd > 0;
        printf(" | %8.0f %7.1f | %7.1f %7.1f | %s\n", c->hbm.bytes_per_ns, (double)c->hbm.capacity_bytes / (1u << 30),
               (double)sram_bytes(&c->scratchpad) / (1u << 20), (double)sram_bytes(&c->accumulator) / (1u << 20),
               price);
    }
    printf("\nderived = cores x arrays x rows x cols x 2 x clock x rows per cycle of the rate class;\n"
           "pub = the chip file's [published] figure (from ../shared/hw/chips.tsv); SRAM = scratchpad\n"
           "(VMEM / SBUF), ACC = accumulator (MXU results / PSUM), both per core.\n");
    if (any_off) printf("! derived peak more than %.0f%% from the published one\n", PEAK_TOLERANCE_PCT);
    if (any_est)
        printf("* price is an estimate (EST in the chip file: its chips/prices.tsv default row is not a list price)\n");
}

/* The chip-page footnotes, one line per chip that has them. */
static void print_alt_notes(struct chip_desc *chips, int n)
{
    static const enum chip_rate_class rcs[] = {CHIP_RATE_BF16, CHIP_RATE_FP8, CHIP_RATE_INT8};
    static const char *const units[] = {"TF bf16", "TF fp8", "TOPS int8"};
    for (int i = 0; i < n; i++) {
        const struct chip_desc *c = &chips[i];
        int k = 0;
        for (size_t r = 0; r < ARRAY_LEN(rcs); r++) {
            struct peak p = peak_of(c, rcs[r]);
            if (p.alt <= 0) continue;
            if (k++ == 0) printf("%s: the chip page quotes", c->name);
            printf("%s %.0f %s (derived %+.1f%%)", k > 1 ? "," : "", p.alt / 1e12, units[r],
                   diff_pct(p.derived, p.alt));
        }
        if (k) printf("; the file follows the per-core figures (see %s)\n", c->path);
    }
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */

/* A number, or null for "none" (0 or not finite). */
static void json_num_or_null(double v)
{
    if (v > 0 && isfinite(v))
        printf("%.6g", v);
    else
        printf("null");
}

static void json_peak(const char *key, struct peak p, bool last)
{
    printf("        \"%s\": {\"derived_flops\": ", key);
    printf("%.6g", p.derived);
    printf(", \"published_flops\": ");
    json_num_or_null(p.published);
    printf(", \"diff_pct\": ");
    if (p.published > 0)
        printf("%.3f", diff_pct(p.derived, p.published));
    else
        printf("null");
    printf(", \"chip_page_flops\": ");
    json_num_or_null(p.alt);
    printf("}%s\n", last ? "" : ",");
}

static void print_json(struct chip_desc *chips, int n)
{
    printf("{\n  \"tolerance_pct\": %.1f,\n  \"chips\": [\n", PEAK_TOLERANCE_PCT);
    for (int i = 0; i < n; i++) {
        const struct chip_desc *c = &chips[i];
        printf("    {\n      \"name\": ");
        tool_json_str(stdout, c->name);
        printf(",\n      \"path\": ");
        tool_json_str(stdout, c->path);
        printf(",\n      \"family\": \"%s\",\n      \"cores\": %u,\n", chip_family_name(c->family), c->cores);
        printf("      \"engines_per_core\": {");
        for (int k = 0; k < ISA_ENGINE_KIND_COUNT; k++) {
            static const char *const kn[] = {
#define X(e, name) name,
                ISA_ENGINE_KINDS(X)
#undef X
            };
            _Static_assert(ARRAY_LEN(kn) == ISA_ENGINE_KIND_COUNT, "kind names");
            printf("%s\"%s\": %u", k ? ", " : "", kn[k], count_kind(c, (enum isa_engine_kind)k));
        }
        printf("},\n");
        const struct chip_engine_desc *pe = first_kind(c, ISA_ENGINE_SYSTOLIC);
        if (pe)
            printf("      \"systolic\": {\"rows\": %u, \"cols\": %u, \"clock_ghz\": %.6g, \"preload\": %s},\n", pe->rows,
                   pe->cols, pe->clock_ghz, pe->preload ? "true" : "false");
        printf("      \"peak\": {\n");
        printf("        \"fp32\": {\"derived_flops\": %.6g},\n", chip_peak_flops(c, CHIP_RATE_FP32));
        json_peak("bf16", peak_of(c, CHIP_RATE_BF16), false);
        json_peak("fp8", peak_of(c, CHIP_RATE_FP8), false);
        json_peak("int8", peak_of(c, CHIP_RATE_INT8), true);
        printf("      },\n");
        printf("      \"hbm\": {\"capacity_bytes\": %llu, \"bytes_per_s\": %.6g, \"published_bytes_per_s\": ",
               (unsigned long long)c->hbm.capacity_bytes, c->hbm.bytes_per_ns * 1e9);
        json_num_or_null(c->published_hbm_gbps * 1e9);
        printf(", \"latency_ps\": %llu, \"channels\": %u},\n", (unsigned long long)c->hbm.latency_ps, c->hbm.channels);
        printf("      \"scratchpad\": {\"partitions\": %u, \"bytes_per_partition\": %llu, \"bytes_per_core\": %llu},\n",
               c->scratchpad.partitions, (unsigned long long)c->scratchpad.bytes_per_partition,
               (unsigned long long)sram_bytes(&c->scratchpad));
        printf("      \"accumulator\": {\"partitions\": %u, \"bytes_per_partition\": %llu, \"banks\": %u, "
               "\"bytes_per_core\": %llu},\n",
               c->accumulator.partitions, (unsigned long long)c->accumulator.bytes_per_partition,
               c->accumulator.banks, (unsigned long long)sram_bytes(&c->accumulator));
        printf("      \"links\": {\"count\": %u, \"bytes_per_s_per_direction\": %.6g, \"latency_ps\": %llu, "
               "\"topology\": \"%s\", \"domain_chips\": %u},\n",
               c->links.count, c->links.bytes_per_ns * 1e9, (unsigned long long)c->links.latency_ps,
               chip_topology_name(c->links.topology), c->links.domain_chips);
        printf("      \"price_per_chip_hour_usd\": ");
        json_num_or_null(c->price_per_chip_hour_usd);
        printf(",\n      \"price_is_estimate\": %s\n    }%s\n", c->price_is_estimate ? "true" : "false",
               i + 1 < n ? "," : "");
    }
    printf("  ]\n}\n");
}

int cmd_chips(int argc, char **argv)
{
    bool json = false;
    int n_names = 0;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_flag(argv[i], "--json")) {
            json = true;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim chips: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else {
            n_names++;
        }
    }
    const char **bundled_names;
    int n_bundled = chip_list(&bundled_names);
    int n = n_names ? n_names : n_bundled;
    struct chip_desc *chips = calloc((size_t)n, sizeof *chips);
    if (!chips) {
        tool_print_nomem("chips", (uint64_t)n * sizeof *chips, "the chips' table");
        return TOOL_FAIL;
    }
    int loaded = 0, rc = TOOL_OK;
    for (int i = 1, k = 0; k < n; i++) {
        const char *name;
        if (n_names) {
            if (argv[i][0] == '-') continue;
            name = argv[i];
        } else {
            name = bundled_names[k];
        }
        k++;
        struct base_diag d;
        base_diag_clear(&d);
        if (chip_load(name, &chips[loaded], &d) != BASE_OK) {
            tool_print_diag(&d);
            rc = TOOL_FAIL;
            continue;
        }
        loaded++;
    }
    if (json) {
        print_json(chips, loaded);
    } else if (loaded) {
        print_table(chips, loaded);
        print_alt_notes(chips, loaded);
    }
    free(chips);
    return rc;
}
