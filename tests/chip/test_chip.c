/* Chip files: every bundled file parses, derived peaks agree with the
 * published ones (which cite ../shared/hw/chips.tsv), every number has a
 * source, malformed files give located errors, truncated and mutated files
 * never crash the parser, user files load by path, and `npusim chips --json`
 * prints valid JSON. */
#include "tests/harness.h"

#include "chip/chip.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* Tests run from the source tree (make check); NPUSIM_CHIPS overrides. */
static const char *chips_dir(void)
{
    const char *e = getenv("NPUSIM_CHIPS");
    return e && *e ? e : "chips";
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 16384;
            char *grown = realloc(buf, cap);
            assert_non_null(grown);
            buf = grown;
        }
        size_t r = fread(buf + n, 1, 4096, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static void load_ok(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load chip %s", name);
    }
}

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

/* ------------------------------------------------------------------------ */
/* Bundled files                                                             */

static void test_chip_bundled_files_parse(void **state)
{
    (void)state;
    const char **names;
    int n = chip_list(&names);
    assert_int_equal(n, 9);
    for (int i = 0; i < n; i++) {
        struct chip_desc c;
        load_ok(names[i], &c);
        assert_string_equal(c.name, names[i]);
        assert_true(c.cores >= 1);
        assert_non_null(first_kind(&c, ISA_ENGINE_SYSTOLIC));
        assert_non_null(first_kind(&c, ISA_ENGINE_VECTOR));
        assert_non_null(first_kind(&c, ISA_ENGINE_DMA));
        assert_true(c.hbm.capacity_bytes > 0 && c.hbm.bytes_per_ns > 0);
        /* one partition per array row (256 on v6e / 7x), so a matmul's K fills the array */
        assert_int_equal(c.scratchpad.partitions, first_kind(&c, ISA_ENGINE_SYSTOLIC)->rows);
        assert_true(c.published_bf16_tflops > 0);
        char want[256];
        snprintf(want, sizeof want, "/%s.chip", names[i]);
        assert_non_null(strstr(c.path, want));
    }
}

/* The bundled list and chips/ hold the same chips. */
static void test_chip_list_matches_directory(void **state)
{
    (void)state;
    const char **names;
    int n = chip_list(&names);
    size_t np;
    char **paths = test_dir_paths(chips_dir(), &np);
    int files = 0;
    for (size_t i = 0; i < np; i++) {
        size_t l = strlen(paths[i]);
        if (l < 5 || strcmp(paths[i] + l - 5, ".chip")) continue;
        files++;
        const char *base = strrchr(paths[i], '/') + 1;
        bool listed = false;
        for (int k = 0; k < n; k++)
            if (strlen(names[k]) == (size_t)(l - 5 - (size_t)(base - paths[i])) && !strncmp(base, names[k], strlen(names[k])))
                listed = true;
        if (!listed) fail_msg("%s is not in chip_list", paths[i]);
    }
    test_paths_free(paths, np);
    assert_int_equal(files, n);
}

/* Derived peaks (from the engines) agree with the file's [published] peaks
 * within 3%, for every rate class that has a published figure. */
static void test_chip_derived_peaks_match_published(void **state)
{
    (void)state;
    const char **names;
    int n = chip_list(&names);
    for (int i = 0; i < n; i++) {
        struct chip_desc c;
        load_ok(names[i], &c);
        const struct {
            enum chip_rate_class rc;
            double published;
        } peaks[] = {{CHIP_RATE_BF16, c.published_bf16_tflops},
                     {CHIP_RATE_FP8, c.published_fp8_tflops},
                     {CHIP_RATE_INT8, c.published_int8_tops}};
        for (size_t k = 0; k < ARRAY_LEN(peaks); k++) {
            double derived = chip_peak_flops(&c, peaks[k].rc);
            if (peaks[k].published <= 0) continue;
            double ratio = derived / (peaks[k].published * 1e12);
            if (fabs(ratio - 1.0) > 0.03)
                fail_msg("%s %s: derived %.1f TF vs published %.1f TF (%.1f%%)", names[i],
                         chip_rate_class_name(peaks[k].rc), derived / 1e12, peaks[k].published, (ratio - 1) * 100);
        }
        /* HBM bandwidth: the file's figure is the published one */
        assert_true(fabs(c.hbm.bytes_per_ns / c.published_hbm_gbps - 1.0) < 0.03);
    }
}

/* Numbers of one chips.tsv row: the cells of the given columns. */
struct tsv_row {
    char cells[32][512];
    int n;
};

static bool tsv_find_row(const char *tsv, const char *prefix, struct tsv_row *row)
{
    const char *p = tsv;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!strncmp(p, prefix, strlen(prefix))) {
            row->n = 0;
            size_t i = 0;
            while (i <= len && row->n < 32) {
                size_t j = i;
                while (j < len && p[j] != '\t') j++;
                size_t cl = j - i < 511 ? j - i : 511;
                memcpy(row->cells[row->n], p + i, cl);
                row->cells[row->n][cl] = 0;
                row->n++;
                i = j + 1;
            }
            return true;
        }
        p = e ? e + 1 : p + len;
    }
    return false;
}

static int tsv_column(const char *tsv, const char *name)
{
    struct tsv_row hdr;
    assert_true(tsv_find_row(tsv, "chip\t", &hdr));
    for (int i = 0; i < hdr.n; i++)
        if (!strcmp(hdr.cells[i], name)) return i;
    fail_msg("chips.tsv has no column %s", name);
    return -1;
}

/* Does v appear in the cell, as a number n (times one of the factors)? */
static bool cell_has(const char *cell, double v, const double *factors, int nf)
{
    for (const char *q = cell; *q; q++) {
        if (!(*q >= '0' && *q <= '9') || (q > cell && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '.'))) continue;
        double x = strtod(q, NULL);
        for (int f = 0; f < nf; f++)
            if (x > 0 && fabs(x * factors[f] / v - 1.0) < 0.005) return true;
    }
    return false;
}

/* The [published] figures are chips.tsv's: each equals a number in the
 * chip's row (peak columns), or that number times the core count (per-core
 * figures); HBM in GB/s, TB/s or GiB/s. */
static void test_chip_published_figures_cite_chips_tsv(void **state)
{
    (void)state;
    size_t len;
    char *tsv = read_all(test_shared_path("hw/chips.tsv"), &len);
    const struct {
        const char *chip;
        const char *rows[2];
    } map[] = {
        {"tpu-v4", {"TPU v4\t", NULL}},
        {"tpu-v5e", {"TPU v5e\t", NULL}},
        {"tpu-v5p", {"TPU v5p\t", NULL}},
        {"tpu-v6e", {"TPU v6e (Trillium)\t", NULL}},
        {"tpu-7x", {"TPU7x (Ironwood)\t", NULL}},
        {"trn1", {"Trainium1 (trn1)\t", NULL}},
        {"inf2", {"Inferentia2 (inf2)\t", "Trainium1 (trn1)\t"}}, /* inf2's row says "as trn1" */
        {"trn2", {"Trainium2 (trn2)\t", NULL}},
        {"trn3", {"Trainium3 (trn3)\t", NULL}},
    };
    int cols[3] = {tsv_column(tsv, "bf16_dense_TFLOPs"), tsv_column(tsv, "fp8_dense_TFLOPs"),
                   tsv_column(tsv, "int8_dense_TOPs")};
    int hbm_col = tsv_column(tsv, "hbm_bw");
    for (size_t m = 0; m < ARRAY_LEN(map); m++) {
        struct chip_desc c;
        load_ok(map[m].chip, &c);
        double figures[] = {c.published_bf16_tflops,     c.published_fp8_tflops,     c.published_int8_tops,
                            c.published_alt_bf16_tflops, c.published_alt_fp8_tflops, c.published_alt_int8_tops};
        double peak_factors[] = {1.0, (double)c.cores};
        for (size_t k = 0; k < ARRAY_LEN(figures); k++) {
            if (figures[k] <= 0) continue;
            bool found = false;
            for (int r = 0; r < 2 && map[m].rows[r] && !found; r++) {
                struct tsv_row row;
                if (!tsv_find_row(tsv, map[m].rows[r], &row)) fail_msg("chips.tsv has no row %s", map[m].rows[r]);
                for (int q = 0; q < 3 && !found; q++) found = cell_has(row.cells[cols[q]], figures[k], peak_factors, 2);
            }
            if (!found) fail_msg("%s: published figure %g is not in its chips.tsv row", map[m].chip, figures[k]);
        }
        struct tsv_row row;
        assert_true(tsv_find_row(tsv, map[m].rows[0], &row));
        double bw_factors[] = {1.0, 1000.0, 1.073741824};
        if (!cell_has(row.cells[hbm_col], c.published_hbm_gbps, bw_factors, 3))
            fail_msg("%s: hbm_gbps %g is not in its chips.tsv row (%s)", map[m].chip, c.published_hbm_gbps,
                     row.cells[hbm_col]);
    }
    free(tsv);
}

/* Peaks computed here from the published engine facts, not from the code. */
static void test_chip_peak_known_answers(void **state)
{
    (void)state;
    struct chip_desc c;
    load_ok("tpu-v5e", &c);
    /* tpu.md §1: 4 MXU x 128 x 128 x 2 x 1.5 GHz */
    double v5e = 4.0 * 128 * 128 * 2 * 1.5e9;
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_BF16) - v5e) < 1.0);
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_INT8) - 2 * v5e) < 1.0);
    assert_true(chip_peak_flops(&c, CHIP_RATE_FP8) == 0.0); /* no fp8 MXU */
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_FP32) - v5e / 6) < 1.0); /* HIGHEST: 6 bf16 passes */

    load_ok("trn2", &c);
    /* neuroncore.md §2: 8 cores x 128 x 128 x 2 x 2.4 GHz; fp8 double_row 2x; fp32 4x slower */
    double trn2 = 8.0 * 128 * 128 * 2 * 2.4e9;
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_BF16) - trn2) < 1.0);
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_FP8) - 2 * trn2) < 1.0);
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_FP32) - trn2 / 4) < 1.0);
    assert_true(chip_peak_flops(&c, CHIP_RATE_INT8) == 0.0);

    load_ok("tpu-v6e", &c);
    /* the configuration the file follows: 4 x 256x256 at 1.75 GHz reproduces 918 TF */
    assert_true(fabs(chip_peak_flops(&c, CHIP_RATE_BF16) / 918e12 - 1) < 0.005);
    assert_int_equal(first_kind(&c, ISA_ENGINE_SYSTOLIC)->rows, 256);
}

/* An independent scan of the files' text: every line whose value is a
 * number, a flag or a list ends in "# [Sn] ..." or "# EST: ...". */
static void test_chip_every_numeric_line_has_source(void **state)
{
    (void)state;
    const char **names;
    int n = chip_list(&names);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.chip", chips_dir(), names[i]);
        size_t len;
        char *text = read_all(path, &len);
        int lineno = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            lineno++;
            char *eq = strchr(line, '=');
            char *hash = strchr(line, '#');
            if (!eq || (hash && hash < eq)) continue;
            const char *v = eq + 1;
            while (*v == ' ') v++;
            bool numeric = (*v >= '0' && *v <= '9') || *v == '-' || *v == '.' || *v == '[' ||
                           !strncmp(v, "true", 4) || !strncmp(v, "false", 5);
            if (!numeric) continue;
            checked++;
            const char *cm = hash ? hash + 1 : NULL;
            while (cm && *cm == ' ') cm++;
            bool ok = cm && (!strncmp(cm, "EST: ", 5) || (cm[0] == '[' && cm[1] == 'S' && cm[2] >= '1' && cm[2] <= '9'));
            if (!ok) fail_msg("%s: a line without a source comment: %s", path, line);
        }
        (void)lineno;
        free(text);
    }
    assert_true(checked > 9 * 30);
}

/* Engines per core, per family (the brief's list). */
static void test_chip_engines_per_family(void **state)
{
    (void)state;
    const char *tpus[] = {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-7x"};
    for (size_t i = 0; i < ARRAY_LEN(tpus); i++) {
        struct chip_desc c;
        load_ok(tpus[i], &c);
        assert_int_equal(c.family, CHIP_FAMILY_TPU);
        assert_int_equal(count_kind(&c, ISA_ENGINE_SYSTOLIC), 4);
        assert_int_equal(count_kind(&c, ISA_ENGINE_VECTOR), 1);
        assert_int_equal(count_kind(&c, ISA_ENGINE_SCALAR), 0); /* the VPU runs activations */
        assert_int_equal(count_kind(&c, ISA_ENGINE_GPSIMD), 0);
        assert_true(count_kind(&c, ISA_ENGINE_DMA) >= 1);
        const struct chip_engine_desc *m = chip_engine(&c, "mxu3");
        assert_non_null(m);
        assert_true(m->preload);
        assert_int_equal(m->rows, m->cols);
        assert_int_equal(m->rows, i >= 3 ? 256 : 128);
        assert_null(chip_engine(&c, "mxu4"));
        assert_null(chip_engine(&c, "act"));
    }
    const struct {
        const char *name;
        double dma_bytes_per_ns, pe_ghz, fp8_rows;
    } neurons[] = {{"trn1", 17, 2.8, 1}, {"inf2", 17, 2.8, 1}, {"trn2", 23, 2.4, 2}, {"trn3", 33, 2.4, 4}};
    for (size_t i = 0; i < ARRAY_LEN(neurons); i++) {
        struct chip_desc c;
        load_ok(neurons[i].name, &c);
        assert_int_equal(c.family, CHIP_FAMILY_NEURON);
        const struct chip_engine_desc *pe = chip_engine(&c, "pe");
        assert_non_null(pe);
        assert_int_equal(pe->rows, 128);
        assert_int_equal(pe->cols, 128);
        assert_int_equal(pe->min_stream_cycles, 64);       /* max(N, 64) */
        assert_true(pe->preload);                          /* background LoadStationary */
        assert_true(pe->rows_per_cycle[CHIP_RATE_FP32] == 0.25); /* fp32 4x slower */
        assert_true(pe->rows_per_cycle[CHIP_RATE_FP8] == neurons[i].fp8_rows);
        assert_true(fabs(pe->clock_ghz - neurons[i].pe_ghz) < 1e-9);
        assert_non_null(chip_engine(&c, "act"));
        assert_non_null(chip_engine(&c, "vec"));
        assert_non_null(chip_engine(&c, "pool"));
        assert_int_equal(count_kind(&c, ISA_ENGINE_DMA), 16);
        const struct chip_engine_desc *d = chip_engine(&c, "dma15");
        assert_non_null(d);
        assert_int_equal(d->kind, ISA_ENGINE_DMA);
        assert_true(d->bytes_per_ns == neurons[i].dma_bytes_per_ns);
        assert_true(d->fixed_ps == 1300000); /* ~1.3 us per transfer, neuroncore.md §4 */
        assert_null(chip_engine(&c, "dma16"));
    }
}

/* Scratchpad and accumulator geometry from the tables. */
static void test_chip_sram_geometry(void **state)
{
    (void)state;
    const struct {
        const char *name;
        uint64_t sp_mib;
        uint64_t acc_bytes_per_partition;
        uint32_t acc_banks;
    } t[] = {
        {"tpu-v4", 16, 0, 0},  {"tpu-v5e", 128, 0, 0}, {"tpu-v5p", 64, 0, 0},
        {"tpu-v6e", 128, 0, 0}, {"tpu-7x", 64, 0, 0},   {"trn1", 24, 16384, 8},
        {"inf2", 24, 16384, 8}, {"trn2", 28, 16384, 8}, {"trn3", 32, 16384, 8},
    };
    for (size_t i = 0; i < ARRAY_LEN(t); i++) {
        struct chip_desc c;
        load_ok(t[i].name, &c);
        assert_int_equal(c.scratchpad.partitions, first_kind(&c, ISA_ENGINE_SYSTOLIC)->rows);
        assert_int_equal((uint64_t)c.scratchpad.partitions * c.scratchpad.bytes_per_partition, t[i].sp_mib << 20);
        assert_int_equal(c.scratchpad.banks, 1);
        if (t[i].acc_banks) {
            assert_int_equal(c.accumulator.partitions, 128);
            assert_int_equal(c.accumulator.bytes_per_partition, t[i].acc_bytes_per_partition);
            assert_int_equal(c.accumulator.banks, t[i].acc_banks);
        }
        assert_int_equal(c.accumulator.bytes_per_partition % c.accumulator.banks, 0);
    }
}

static void test_chip_fp32_passes(void **state)
{
    (void)state;
    struct chip_desc c;
    load_ok("tpu-v5p", &c);
    assert_int_equal(c.fp32_passes_default, 1);
    assert_int_equal(c.fp32_passes_high, 3);
    assert_int_equal(c.fp32_passes_highest, 6);
    assert_true(c.matmul_supports[BASE_DT_BF16] && c.matmul_supports[BASE_DT_F32]);
    assert_true(chip_engine(&c, "mxu0")->rows_per_cycle[CHIP_RATE_FP32] == 0); /* f32 by bf16 passes */
    load_ok("trn1", &c);
    assert_int_equal(c.fp32_passes_highest, 1); /* native fp32, at 1/4 rate */
    assert_true(c.matmul_supports[BASE_DT_F32]);
}

static void test_chip_rate_class_of(void **state)
{
    (void)state;
    assert_int_equal(chip_rate_class_of(BASE_DT_BF16), CHIP_RATE_BF16);
    assert_int_equal(chip_rate_class_of(BASE_DT_F16), CHIP_RATE_BF16);
    assert_int_equal(chip_rate_class_of(BASE_DT_F32), CHIP_RATE_FP32);
    assert_int_equal(chip_rate_class_of(BASE_DT_F64), CHIP_RATE_FP32);
    assert_int_equal(chip_rate_class_of(BASE_DT_F8E4M3FN), CHIP_RATE_FP8);
    assert_int_equal(chip_rate_class_of(BASE_DT_F8E5M2), CHIP_RATE_FP8);
    assert_int_equal(chip_rate_class_of(BASE_DT_F4E2M1FN), CHIP_RATE_FP8);
    assert_int_equal(chip_rate_class_of(BASE_DT_SI8), CHIP_RATE_INT8);
    assert_int_equal(chip_rate_class_of(BASE_DT_UI8), CHIP_RATE_INT8);
    assert_int_equal(chip_rate_class_of(BASE_DT_SI4), CHIP_RATE_INT8);
    assert_int_equal(chip_rate_class_of(BASE_DT_SI32), CHIP_RATE_FP32);
    /* predicates at the full-width rate (docs/timing.md section 5) */
    assert_int_equal(chip_rate_class_of(BASE_DT_I1), CHIP_RATE_FP32);
}

static void test_chip_prices_flag_estimates(void **state)
{
    (void)state;
    struct chip_desc c;
    load_ok("tpu-v6e", &c); /* [S45]: a list price */
    assert_true(fabs(c.price_per_chip_hour_usd - 2.70) < 1e-9);
    assert_false(c.price_is_estimate);
    load_ok("trn2", &c); /* one catalog row, unconfirmed */
    assert_true(c.price_per_chip_hour_usd > 0 && c.price_is_estimate);
    load_ok("trn3", &c); /* not found */
    assert_true(c.price_per_chip_hour_usd == 0 && c.price_is_estimate);
}

/* chips/prices.tsv: every row has a price, a source and a date; a chip has
 * at most one default row, and the chip file's price is it (0 without one),
 * flagged EST unless the row is a list price. */
static void test_chip_prices_file_rows_and_chip_files_agree(void **state)
{
    (void)state;
    struct chip_prices p;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_prices_load(NULL, &p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("chips/prices.tsv does not load");
    }
    assert_true(p.n >= 30);
    for (int i = 0; i < p.n; i++) {
        const struct chip_price *r = &p.rows[i];
        if (!r->source[0] || !r->source_date[0] || !(r->usd_per_chip_hour > 0) || !r->chip[0])
            fail_msg("prices.tsv:%d: a row without its chip, price, source or date", r->line);
        for (int j = 0; j < i; j++)
            assert_false(r->is_default && p.rows[j].is_default && !strcmp(r->chip, p.rows[j].chip));
    }
    const char **names;
    int n = chip_list(&names);
    for (int i = 0; i < n; i++) {
        struct chip_desc c;
        load_ok(names[i], &c);
        const struct chip_price *r = chip_price_find(&p, names[i], -1, NULL);
        double want = r ? r->usd_per_chip_hour : 0;
        if (fabs(c.price_per_chip_hour_usd - want) > 1e-9)
            fail_msg("%s.chip: price %g, prices.tsv's default row %g", names[i], c.price_per_chip_hour_usd, want);
        if (r) assert_int_equal(c.price_is_estimate, r->status != CHIP_PRICE_LIST);
    }
    /* lookups by pricing and region */
    const struct chip_price *r = chip_price_find(&p, "tpu-v6e", CHIP_PRICING_COMMIT_1Y, NULL);
    assert_non_null(r);
    assert_true(fabs(r->usd_per_chip_hour - 1.89) < 1e-9);
    r = chip_price_find(&p, "tpu-v6e", CHIP_PRICING_ON_DEMAND, "europe-west4");
    assert_non_null(r);
    assert_true(fabs(r->usd_per_chip_hour - 2.97) < 1e-9);
    assert_null(chip_price_find(&p, "trn3", -1, NULL));
    assert_null(chip_price_find(&p, "tpu-v5e", CHIP_PRICING_COMMIT_1Y, NULL));
    chip_prices_free(&p);
}

/* A bad row is a located error naming the rule. */
static void test_chip_prices_bad_rows_are_located(void **state)
{
    (void)state;
    static const char head[] = "# comment\nchip\tprovider\tinstance\tregion\tpricing\tusd_per_chip_hour\t"
                               "usd_per_instance_hour\tchips_per_instance\tdefault\tstatus\tsource\tsource_date\tnotes\n";
    static const struct {
        const char *row;
        int col;
        const char *frag;
    } cases[] = {
        {"x\tP\ti\tr\ton-demand\t1.5\t\t\tyes\tlist\t\td\t\n", 34, "source"},
        {"x\tP\ti\tr\ton-demand\t1.5\t\t\tyes\tlist\t[S1]\t\t\n", 39, "date"},
        {"x\tP\ti\tr\tmonthly\t1.5\t\t\tyes\tlist\t[S1]\td\t\n", 9, "pricing"},
        {"x\tP\ti\tr\ton-demand\tn/p\t\t\tyes\tlist\t[S1]\td\t\n", 19, "price > 0"},
        {"x\tP\ti\tr\ton-demand\t1.5\t\t\tyes\tguess\t[S1]\td\t\n", 29, "status"},
        {"x\tP\ti\tr\ton-demand\t1.5\t\t\tyes\tlist\t[S1]\td\n", 1, "fields"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, cases[i].row);
        struct chip_prices p;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(chip_prices_parse(text, strlen(text), "p.tsv", &p, &d), BASE_ERR_INVALID);
        assert_int_equal(d.line, 3);
        if (d.col != cases[i].col || !strstr(d.msg, cases[i].frag))
            fail_msg("case %zu: %d:%d: %s", i, d.line, d.col, d.msg);
    }
    /* two default rows for one chip */
    char text[1024];
    snprintf(text, sizeof text, "%sx\tP\ti\tr\ton-demand\t1\t\t\tyes\tlist\t[S1]\td\t\n"
                                "x\tP\ti\tr\tspot\t0.5\t\t\tyes\tlist\t[S1]\td\t\n", head);
    struct chip_prices p;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_prices_parse(text, strlen(text), "p.tsv", &p, &d), BASE_ERR_INVALID);
    assert_int_equal(d.line, 4);
    assert_non_null(strstr(d.msg, "second default"));
}

/* ------------------------------------------------------------------------ */
/* A small valid file, and malformed variants of it                          */

static const char *const toy[] = {
    "# toy chip",                       /* 1 */
    "[chip]",                           /* 2 */
    "name = toy",                       /* 3 */
    "family = neuron",                  /* 4 */
    "cores = 2                # EST: t", /* 5 */
    "[engine pe]",                      /* 6 */
    "kind = pe",                        /* 7 */
    "clock_ghz = 1.0          # EST: t", /* 8 */
    "dispatch_cycles = 0      # EST: t", /* 9 */
    "rows = 4                 # EST: t", /* 10 */
    "cols = 4                 # EST: t", /* 11 */
    "preload = true           # EST: t", /* 12 */
    "load_rows_per_cycle = 1  # EST: t", /* 13 */
    "min_stream_cycles = 2    # EST: t", /* 14 */
    "rows_per_cycle_bf16 = 1  # EST: t", /* 15 */
    "[engine vec]",                     /* 16 */
    "kind = vec",                       /* 17 */
    "clock_ghz = 1            # EST: t", /* 18 */
    "dispatch_cycles = 1      # EST: t", /* 19 */
    "lanes = 4                # EST: t", /* 20 */
    "elems_per_cycle_fp32 = 1 # EST: t", /* 21 */
    "elems_per_cycle_bf16 = 1 # EST: t", /* 22 */
    "elems_per_cycle_fp8 = 1  # EST: t", /* 23 */
    "elems_per_cycle_int8 = 1 # EST: t", /* 24 */
    "transcendental_cost = 1  # EST: t", /* 25 */
    "[engine q]",                       /* 26 */
    "kind = dma",                       /* 27 */
    "count = 2                # [S18] neuroncore.md §4", /* 28 */
    "bytes_per_ns = 10        # EST: t", /* 29 */
    "fixed_ns = 100           # EST: t", /* 30 */
    "[scratchpad]",                     /* 31 */
    "partitions = 4           # EST: t", /* 32 */
    "bytes_per_partition = 1024 # EST: t", /* 33 */
    "bytes_per_cycle = 4      # EST: t", /* 34 */
    "[accumulator]",                    /* 35 */
    "partitions = 4           # EST: t", /* 36 */
    "bytes_per_partition = 256 # EST: t", /* 37 */
    "banks = 2                # EST: t", /* 38 */
    "bytes_per_cycle = 4      # EST: t", /* 39 */
    "[hbm]",                            /* 40 */
    "capacity_bytes = 1_048_576 # EST: t", /* 41 */
    "bytes_per_ns = 100       # EST: t", /* 42 */
    "latency_ns = 0.5         # EST: t", /* 43 */
    "channels = 1             # EST: t", /* 44 */
    "[numerics]",                       /* 45 */
    "matmul_types = [bf16]    # EST: t", /* 46 */
    "fp32_passes_default = 1  # EST: t", /* 47 */
    "fp32_passes_high = 1     # EST: t", /* 48 */
    "fp32_passes_highest = 1  # EST: t", /* 49 */
};

/* The toy file with up to two lines replaced (text NULL: line deleted;
 * line < 0: insert before -line), truncated after `upto` lines (0: all). */
struct edit {
    int line;
    const char *text;
};

static char *toy_text(const struct edit *edits, int n_edits, int upto)
{
    size_t cap = 8192;
    char *buf = malloc(cap);
    assert_non_null(buf);
    buf[0] = 0;
    int n = (int)ARRAY_LEN(toy);
    for (int l = 1; l <= n && (!upto || l <= upto); l++) {
        const char *line = toy[l - 1];
        bool skip = false;
        for (int e = 0; e < n_edits; e++) {
            if (edits[e].line == -l) {
                strcat(buf, edits[e].text);
                strcat(buf, "\n");
            }
            if (edits[e].line == l) {
                if (!edits[e].text)
                    skip = true;
                else
                    line = edits[e].text;
            }
        }
        if (skip) continue;
        strcat(buf, line);
        strcat(buf, "\n");
    }
    return buf;
}

static void test_chip_toy_file_parses(void **state)
{
    (void)state;
    char *text = toy_text(NULL, 0, 0);
    struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = chip_parse(text, strlen(text), "toy.chip", &c, &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
    assert_string_equal(c.name, "toy");
    assert_int_equal(c.n_engines, 4); /* pe, vec, q0, q1 */
    assert_non_null(chip_engine(&c, "q0"));
    assert_non_null(chip_engine(&c, "q1"));
    assert_null(chip_engine(&c, "q"));
    assert_true(chip_engine(&c, "q1")->clock_ghz == 1.0); /* DMA default: a cycle is a ns */
    assert_int_equal(chip_engine(&c, "q1")->fixed_ps, 100000);
    assert_int_equal(c.hbm.capacity_bytes, 1048576); /* digits grouped with '_' */
    assert_int_equal(c.hbm.latency_ps, 500);
    assert_int_equal(c.scratchpad.banks, 1); /* default */
    assert_int_equal(c.links.count, 0);      /* [links] is optional */
    assert_int_equal(c.links.topology, CHIP_TOPO_NONE);
    assert_true(c.matmul_supports[BASE_DT_BF16] && !c.matmul_supports[BASE_DT_F32]);
    /* 2 cores x 4 x 4 x 2 x 1 GHz */
    assert_true(chip_peak_flops(&c, CHIP_RATE_BF16) == 64e9);
    assert_string_equal(c.path, "toy.chip");
    free(text);
}

struct bad_case {
    struct edit edits[2];
    int n_edits;
    int upto;
    int line, col;
    const char *substr;
};

static void test_chip_errors_are_located(void **state)
{
    (void)state;
    const struct bad_case cases[] = {
        /* unknown section */
        {{{40, "[hmb]"}}, 1, 0, 40, 2, "unknown section [hmb]"},
        /* unknown key */
        {{{42, "bytes_per_sec = 100 # EST: t"}}, 1, 0, 42, 1, "unknown key 'bytes_per_sec' in [hbm]"},
        /* missing required key: located at its section's header */
        {{{42, NULL}}, 1, 0, 40, 1, "missing required key 'bytes_per_ns' in [hbm]"},
        /* bad number */
        {{{5, "cores = 2x # EST: t"}}, 1, 0, 5, 9, "bad number '2x' for 'cores'"},
        /* negative bandwidth */
        {{{29, "bytes_per_ns = -10 # EST: t"}}, 1, 0, 29, 16, "must not be negative (a bandwidth)"},
        /* duplicate engine name */
        {{{16, "[engine pe]"}}, 1, 0, 16, 9, "duplicate engine name 'pe' (first declared at line 6)"},
        /* an engine kind the family does not have */
        {{{4, "family = tpu"}, {17, "kind = act"}}, 2, 0, 17, 8, "engine kind 'act' does not exist on family tpu"},
        /* a numeric line without a source comment */
        {{{10, "rows = 4"}}, 1, 0, 10, 9, "without a source comment"},
        {{{10, "rows = 4 # from memory"}}, 1, 0, 10, 10, "without a source comment"},
        {{{10, "rows = 4 # [S6]"}}, 1, 0, 10, 10, "without a source comment"}, /* a tag must name the file */
        /* duplicate key */
        {{{-12, "cols = 8 # EST: t"}}, 1, 0, 12, 1, "duplicate key 'cols' in [engine pe] (first at line 11)"},
        /* a key of another engine kind */
        {{{20, "rows = 4 # EST: t"}}, 1, 0, 20, 1, "'rows' does not apply to an engine of kind vec"},
        /* kind first */
        {{{7, "clock_ghz = 1 # EST: t"}, {8, "kind = pe"}}, 2, 0, 7, 1, "'kind' must be the first key"},
        /* an integer key given a fraction */
        {{{10, "rows = 4.5 # EST: t"}}, 1, 0, 10, 8, "'rows' takes an integer"},
        /* matmul types and rates disagree */
        {{{46, "matmul_types = [bf16, f8E4M3FN] # EST: t"}}, 1, 0, 46, 16, "no pe engine has rows_per_cycle_fp8"},
        {{{46, "matmul_types = [bf16, f13] # EST: t"}}, 1, 0, 46, 23, "unknown element type 'f13'"},
        {{{46, "matmul_types = [bf16 # EST: t"}}, 1, 0, 46, 16, "unterminated list"},
        /* missing section */
        {{{0, NULL}}, 0, 44, 44, 1, "missing section [numerics]"},
        /* a key before any section */
        {{{-1, "cores = 1 # EST: t"}}, 1, 0, 1, 1, "outside a section"},
        /* [chip] first */
        {{{2, "[hbm]"}}, 1, 0, 2, 2, "[chip] must be the first section"},
        /* duplicate section */
        {{{45, "[hbm]"}}, 1, 0, 45, 2, "duplicate section [hbm] (first at line 40)"},
        /* fp32 passes out of order */
        {{{47, "fp32_passes_default = 2 # EST: t"}}, 1, 0, 48, 20, "must not decrease"},
        /* bad flag */
        {{{12, "preload = yes # EST: t"}}, 1, 0, 12, 11, "takes true or false"},
        /* trailing text */
        {{{5, "cores = 2 3 # EST: t"}}, 1, 0, 5, 11, "unexpected text after the value"},
        /* banks must divide the partition */
        {{{38, "banks = 3 # EST: t"}}, 1, 0, 38, 9, "multiple of banks"},
        /* range */
        {{{32, "partitions = 300 # EST: t"}}, 1, 0, 32, 14, "out of range"},
        /* more cores than the simulator takes */
        {{{5, "cores = 65 # EST: t"}}, 1, 0, 5, 9, "at most 64"},
        /* zero where a positive value is needed */
        {{{42, "bytes_per_ns = 0 # EST: t"}}, 1, 0, 42, 16, "must be > 0 (a bandwidth)"},
        /* unknown family */
        {{{4, "family = gpu"}}, 1, 0, 4, 10, "family must be tpu or neuron"},
        /* engine without a name */
        {{{16, "[engine]"}}, 1, 0, 16, 8, "[engine] needs a name"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char *text = toy_text(cases[i].edits, cases[i].n_edits, cases[i].upto);
        struct chip_desc c;
        struct base_diag d;
        base_diag_clear(&d);
        enum base_status st = chip_parse(text, strlen(text), "bad.chip", &c, &d);
        if (st != BASE_ERR_PARSE || d.line != cases[i].line || d.col != cases[i].col || !strstr(d.msg, cases[i].substr)) {
            base_diag_print(&d, stderr);
            fail_msg("case %zu: want %d:%d containing \"%s\", got %s at %d:%d", i, cases[i].line, cases[i].col,
                     cases[i].substr, base_status_str(st), d.line, d.col);
        }
        assert_string_equal(d.file, "bad.chip");
        assert_true(d.snippet[0] != 0 || cases[i].upto); /* the offending line */
        assert_int_equal(c.n_engines, 0);                 /* nothing half-filled */
        free(text);
    }
}

static void test_chip_nul_byte_is_located(void **state)
{
    (void)state;
    char *text = toy_text(NULL, 0, 0);
    size_t len = strlen(text);
    char *p = strstr(text, "cores = 2");
    p[8] = 0; /* "cores = \0" on line 5 */
    struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_parse(text, len, "nul.chip", &c, &d), BASE_ERR_PARSE);
    assert_int_equal(d.line, 5);
    assert_int_equal(d.col, 9);
    assert_non_null(strstr(d.msg, "NUL"));
    free(text);
}

/* ------------------------------------------------------------------------ */
/* Fuzz-style: truncated and mutated bundled files                           */

/* Length of line `line` (1-based) of text[0..len). */
static size_t line_length(const char *text, size_t len, int line)
{
    size_t i = 0;
    for (int l = 1; l < line && i < len; i++)
        if (text[i] == '\n') l++;
    size_t e = i;
    while (e < len && text[e] != '\n') e++;
    return e - i;
}

static void check_result(enum base_status st, const struct base_diag *d, const char *text, size_t len,
                         const char *what, uint64_t seed)
{
    if (st == BASE_OK) return;
    if (st != BASE_ERR_PARSE || d->line < 1 || d->col < 1 || !d->msg[0] || strcmp(d->file, "fuzz.chip") ||
        (size_t)d->col > line_length(text, len, d->line) + 1) {
        base_diag_print(d, stderr);
        fail_msg("%s (seed %llu): error not located: %s at %d:%d", what, (unsigned long long)seed,
                 base_status_str(st), d->line, d->col);
    }
}

static void test_chip_fuzz_truncated_and_mutated(void **state)
{
    (void)state;
    static const char alphabet[] = "=[]#\n -+0123456789._eExaZ\",\t\r\0\xff\xc2\xa7";
    const char **names;
    int n = chip_list(&names);
    uint64_t seed = test_seed();
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    struct chip_desc *c = malloc(sizeof *c);
    assert_non_null(c);
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.chip", chips_dir(), names[i]);
        size_t len;
        char *text = read_all(path, &len);
        char *buf = malloc(len + 64);
        assert_non_null(buf);
        /* every prefix, in steps of 3 bytes, and the last 64 one by one */
        for (size_t cut = 0; cut <= len; cut += (cut + 64 >= len ? 1 : 3)) {
            memcpy(buf, text, cut);
            struct base_diag d;
            base_diag_clear(&d);
            enum base_status st = chip_parse(buf, cut, "fuzz.chip", c, &d);
            check_result(st, &d, buf, cut, names[i], seed);
            if (st == BASE_OK) assert_true(c->n_engines > 0);
        }
        /* random edits: overwrite, insert or delete a few bytes */
        for (int m = 0; m < 400; m++) {
            size_t l = len;
            memcpy(buf, text, len);
            int edits = 1 + (int)(base_rng_next(&rng) % 3);
            for (int e = 0; e < edits; e++) {
                size_t pos = l ? (size_t)(base_rng_next(&rng) % l) : 0;
                char ch = alphabet[base_rng_next(&rng) % (sizeof alphabet - 1)];
                switch (base_rng_next(&rng) % 3) {
                case 0: if (l) buf[pos] = ch; break;
                case 1:
                    memmove(buf + pos + 1, buf + pos, l - pos);
                    buf[pos] = ch;
                    l++;
                    break;
                default:
                    if (l) {
                        memmove(buf + pos, buf + pos + 1, l - pos - 1);
                        l--;
                    }
                    break;
                }
            }
            struct base_diag d;
            base_diag_clear(&d);
            enum base_status st = chip_parse(buf, l, "fuzz.chip", c, &d);
            check_result(st, &d, buf, l, names[i], seed);
        }
        free(buf);
        free(text);
    }
    free(c);
}

/* ------------------------------------------------------------------------ */
/* Loading by path and by name                                               */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A buyer's hypothetical chip: a copy of the toy file, loaded by path. */
static void test_chip_user_file_loads_by_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/npusim_chip_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/my-npu.chip", dir);
    struct edit e = {3, "name = my-npu"};
    char *text = toy_text(&e, 1, 0);
    write_file(path, text);
    struct chip_desc c;
    load_ok(path, &c);
    assert_string_equal(c.name, "my-npu");
    assert_string_equal(c.path, path);
    assert_true(chip_peak_flops(&c, CHIP_RATE_BF16) == 64e9);
    /* a relative path with '/' is a path too */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    load_ok("./my-npu.chip", &c);
    load_ok("my-npu.chip", &c); /* ends in .chip: a path, not a name */
    assert_int_equal(chdir(cwd), 0);
    /* by name through $NPUSIM_CHIPS */
    const char *old = getenv("NPUSIM_CHIPS");
    char *saved = old ? strdup(old) : NULL;
    setenv("NPUSIM_CHIPS", dir, 1);
    load_ok("my-npu", &c);
    assert_string_equal(c.name, "my-npu");
    /* a file found by name must carry that name */
    char other[256];
    snprintf(other, sizeof other, "%s/other.chip", dir);
    write_file(other, text);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("other", &c, &d), BASE_ERR_PARSE);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "must match the file name"));
    if (saved) {
        setenv("NPUSIM_CHIPS", saved, 1);
        free(saved);
    } else {
        unsetenv("NPUSIM_CHIPS");
    }
    free(text);
    remove(other);
    remove(path);
    rmdir(dir);
}

static void test_chip_unknown_name_is_reported(void **state)
{
    (void)state;
    struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("tpu-v99", &c, &d), BASE_ERR_IO);
    assert_non_null(strstr(d.msg, "tpu-v99.chip"));
    assert_non_null(strstr(d.msg, "trn2")); /* lists the bundled chips */
    base_diag_clear(&d);
    assert_int_equal(chip_load("../etc/passwd", &c, &d), BASE_ERR_IO); /* a path: opened as such, not found */
    base_diag_clear(&d);
    assert_int_equal(chip_load("a b", &c, &d), BASE_ERR_INVALID);
    base_diag_clear(&d);
    assert_int_equal(chip_load("/nonexistent/x.chip", &c, &d), BASE_ERR_IO);
    assert_string_equal(d.file, "/nonexistent/x.chip");
}

/* ------------------------------------------------------------------------ */
/* npusim chips --json                                                       */

/* A minimal JSON checker: returns the end of one value, or NULL. */
static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p)
{
    if (*p != '"') return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\') {
            p++;
            if (!*p || !strchr("\"\\/bfnrtu", *p)) return NULL;
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 32) return NULL;
    p = json_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        bool obj = *p == '{';
        p = json_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (obj) {
                p = json_string(json_ws(p));
                if (!p) return NULL;
                p = json_ws(p);
                if (*p++ != ':') return NULL;
            }
            p = json_value(p, depth + 1);
            if (!p) return NULL;
            p = json_ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"') return json_string(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    char *end;
    strtod(p, &end);
    if (end == p || !((*p >= '0' && *p <= '9') || *p == '-')) return NULL;
    return end;
}

static bool json_valid(const char *s)
{
    const char *e = json_value(s, 0);
    return e && *json_ws(e) == 0;
}

/* The npusim binary next to the tests: build/<b>/tests/sim/../../npusim. */
static void npusim_path(char *buf, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = 0;
    *strrchr(exe, '/') = 0;
    char rel[PATH_MAX + 32];
    snprintf(rel, sizeof rel, "%s/../../npusim", exe);
    if (!realpath(rel, buf) || access(buf, X_OK)) fail_msg("npusim not built at %s (make all)", rel);
    (void)cap;
}

static char *run(const char *cmd, int *status)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    size_t r;
    while ((r = fread(out + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 >= cap) {
            cap *= 2;
            char *grown = realloc(out, cap);
            assert_non_null(grown);
            out = grown;
        }
    }
    out[n] = 0;
    *status = pclose(f);
    return out;
}

static void test_chip_cli_json_is_valid(void **state)
{
    (void)state;
    char bin[PATH_MAX], cmd[PATH_MAX + 128];
    npusim_path(bin, sizeof bin);
    int status;
    snprintf(cmd, sizeof cmd, "'%s' chips --json", bin);
    char *out = run(cmd, &status);
    assert_int_equal(status, 0);
    if (!json_valid(out)) fail_msg("not valid JSON:\n%s", out);
    const char **names;
    int n = chip_list(&names);
    for (int i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"name\": \"%s\"", names[i]);
        if (!strstr(out, key)) fail_msg("JSON lacks %s", key);
    }
    const char *keys[] = {"\"chips\":", "\"peak\":", "\"bf16\":", "\"fp8\":", "\"int8\":", "\"derived_flops\":",
                          "\"published_flops\":", "\"diff_pct\":", "\"hbm\":", "\"bytes_per_s\":",
                          "\"scratchpad\":", "\"accumulator\":", "\"cores\":", "\"price_per_chip_hour_usd\":",
                          "\"price_is_estimate\":", "\"links\":"};
    for (size_t k = 0; k < ARRAY_LEN(keys); k++)
        if (!strstr(out, keys[k])) fail_msg("JSON lacks %s", keys[k]);
    free(out);

    /* the checker itself rejects broken JSON */
    assert_false(json_valid("{\"a\": [1, 2,]}"));
    assert_false(json_valid("{\"a\": 1"));
    assert_true(json_valid("{\"a\": [1, -2.5e3, null, true, \"x\\\"y\"]}"));
}

/* Run from another directory with no NPUSIM_CHIPS: the executable finds the
 * source tree's chips/ (../../chips from build/<b>/npusim); a user path
 * loads too, and a bad name fails with status 1. */
static void test_chip_cli_finds_chips_from_anywhere(void **state)
{
    (void)state;
    char bin[PATH_MAX], cmd[PATH_MAX + 256];
    npusim_path(bin, sizeof bin);
    int status;
    snprintf(cmd, sizeof cmd, "cd / && env -u NPUSIM_CHIPS '%s' chips tpu-v5e trn2 2>&1", bin);
    char *out = run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "tpu-v5e"));
    assert_non_null(strstr(out, "trn2"));
    assert_non_null(strstr(out, "196.6")); /* 4 x 128 x 128 x 2 x 1.5 GHz */
    free(out);

    snprintf(cmd, sizeof cmd, "cd / && env -u NPUSIM_CHIPS '%s' chips tpu-v99 2>&1", bin);
    out = run(cmd, &status);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    assert_non_null(strstr(out, "tpu-v99.chip"));
    free(out);
}

/* [host]: optional (zeros without it), both keys when present; every
 * bundled chip gives them, a host dispatch costing more than the device's
 * gap between kernels of a compiled program. */
static void test_chip_host_section(void **state)
{
    (void)state;
    struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    char *text = toy_text(NULL, 0, 0);
    assert_int_equal(chip_parse(text, strlen(text), "toy.chip", &c, &d), BASE_OK);
    assert_int_equal(c.host.dispatch_overhead_ps, 0);
    assert_int_equal(c.host.kernel_launch_ps, 0);
    free(text);
    struct edit with[1] = {{-45, "[host]\ndispatch_overhead_ns = 20000 # EST: t\nkernel_launch_ns = 0.5 # EST: t"}};
    text = toy_text(with, 1, 0);
    enum base_status st = chip_parse(text, strlen(text), "toy.chip", &c, &d);
    if (st != BASE_OK) base_diag_print(&d, stderr);
    assert_int_equal(st, BASE_OK);
    assert_int_equal(c.host.dispatch_overhead_ps, 20000000);
    assert_int_equal(c.host.kernel_launch_ps, 500);
    free(text);
    struct edit missing[1] = {{-45, "[host]\ndispatch_overhead_ns = 20000 # EST: t"}};
    text = toy_text(missing, 1, 0);
    base_diag_clear(&d);
    assert_int_not_equal(chip_parse(text, strlen(text), "toy.chip", &c, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "kernel_launch_ns"));
    free(text);
    const char **names;
    int n = chip_list(&names);
    for (int i = 0; i < n; i++) {
        load_ok(names[i], &c);
        if (!(c.host.dispatch_overhead_ps > c.host.kernel_launch_ps && c.host.kernel_launch_ps > 0))
            fail_msg("%s: [host] dispatch_overhead_ns must exceed kernel_launch_ns > 0", names[i]);
    }
}

/* Ranks per chip: what each bundled chip exposes (the megacore TPUs 1,
 * TPU7x 2, Neuron cores / LNC at the runtime's default LNC), --lnc on Neuron
 * only, a rank's share of the chip, and the rule that ranks divide cores. */
static void test_chip_ranks_per_chip(void **state)
{
    (void)state;
    static const struct {
        const char *chip;
        uint32_t ranks;
    } want[] = {{"tpu-v4", 1}, {"tpu-v5e", 1}, {"tpu-v5p", 1}, {"tpu-v6e", 1}, {"tpu-7x", 2},
                {"trn1", 2},   {"inf2", 2},    {"trn2", 4},    {"trn3", 4}};
    struct chip_desc c, r;
    struct base_diag d;
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        load_ok(want[i].chip, &c);
        if (c.ranks_per_chip != want[i].ranks)
            fail_msg("%s: %u ranks per chip, want %u", want[i].chip, c.ranks_per_chip, want[i].ranks);
    }
    load_ok("trn2", &c);
    base_diag_clear(&d);
    assert_int_equal(chip_set_lnc(&c, 1, &d), BASE_OK);
    assert_int_equal(c.ranks_per_chip, 8);
    assert_int_equal(chip_set_lnc(&c, 3, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "does not divide"));
    assert_int_equal(chip_set_lnc(&c, 2, &d), BASE_OK);
    chip_rank_view(&c, &r);
    assert_true(r.rank_view);
    assert_int_equal(r.cores, 2);
    assert_true(r.hbm.bytes_per_ns == c.hbm.bytes_per_ns / 4);
    assert_int_equal(r.hbm.capacity_bytes, c.hbm.capacity_bytes / 4);
    assert_int_equal(r.ranks_per_chip, 4);
    assert_int_equal(chip_set_lnc(&r, 1, &d), BASE_ERR_INVALID); /* a rank's view is not a chip */
    load_ok("tpu-7x", &c);
    base_diag_clear(&d);
    assert_int_equal(chip_set_lnc(&c, 1, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "Neuron"));
    chip_rank_view(&c, &r);
    assert_int_equal(r.cores, 1);
    load_ok("tpu-v5e", &c);
    chip_rank_view(&c, &r);
    assert_false(r.rank_view);
    assert_int_equal(r.cores, c.cores);
    /* a file whose ranks do not divide its cores: located */
    struct edit bad[1] = {{-6, "ranks_per_chip = 3       # EST: t"}};
    char *text = toy_text(bad, 1, 0);
    base_diag_clear(&d);
    assert_int_not_equal(chip_parse(text, strlen(text), "toy.chip", &c, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "must divide cores"));
    assert_int_equal(d.line, 6);
    free(text);
    text = toy_text(NULL, 0, 0);
    assert_int_equal(chip_parse(text, strlen(text), "toy.chip", &c, &d), BASE_OK);
    assert_int_equal(c.ranks_per_chip, 1); /* the default */
    free(text);
}

/* The links' DCN and launch keys: every chip with links gives its launch
 * cost, every chip that runs collectives between instances its DCN share. */
static void test_chip_links_dcn_and_launch(void **state)
{
    (void)state;
    const char **names;
    int n = chip_list(&names);
    for (int i = 0; i < n; i++) {
        struct chip_desc c;
        load_ok(names[i], &c);
        if (c.links.count == 0) continue;
        if (!(c.links.collective_launch_ps > 0)) fail_msg("%s: no collective_launch_ns", names[i]);
        if (strcmp(names[i], "inf2") && !(c.links.dcn_bytes_per_ns > 0 && c.links.dcn_latency_ps > 0))
            fail_msg("%s: no DCN figures", names[i]);
    }
    struct chip_desc c;
    load_ok("tpu-v5e", &c);
    assert_true(c.links.dcn_bytes_per_ns == 3.125); /* 25 Gb/s per chip [S2] */
    assert_true(c.links.bytes_per_ns == 50);        /* 400 GB/s bidirectional / 4 ports / 2 [S2] */
    load_ok("trn3", &c);
    assert_true(c.links.count * c.links.bytes_per_ns == 352); /* the trn3 tiers [S12] per direction */
}

TEST_MAIN(NULL, NULL, T(test_chip_bundled_files_parse), T(test_chip_ranks_per_chip), T(test_chip_links_dcn_and_launch), T(test_chip_list_matches_directory),
          T(test_chip_derived_peaks_match_published), T(test_chip_published_figures_cite_chips_tsv),
          T(test_chip_peak_known_answers), T(test_chip_every_numeric_line_has_source),
          T(test_chip_engines_per_family), T(test_chip_sram_geometry), T(test_chip_fp32_passes),
          T(test_chip_rate_class_of), T(test_chip_prices_flag_estimates), T(test_chip_prices_file_rows_and_chip_files_agree),
          T(test_chip_prices_bad_rows_are_located), T(test_chip_toy_file_parses),
          T(test_chip_errors_are_located), T(test_chip_nul_byte_is_located), T(test_chip_fuzz_truncated_and_mutated),
          T(test_chip_user_file_loads_by_path), T(test_chip_unknown_name_is_reported),
          T(test_chip_cli_json_is_valid), T(test_chip_cli_finds_chips_from_anywhere), T(test_chip_host_section))
