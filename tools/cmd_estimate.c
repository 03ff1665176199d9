/* npusim estimate PRESET|MODEL.mlir --chips CHIP:N,... [--workload W] [--batch B] [--seq S]
 *                 [--parallel AXES] [--price CHIP=USD]... [--json|--csv] [--plot FILE.png]
 * The estimator's table: report/estimate.h; docs/estimate.md. */
#include "tools/tools.h"

#include "report/estimate.h"
#include "visualizer/visualizer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim estimate PRESET|MODEL.mlir --chips CHIP:N[,CHIP:N...]\n"
            "                       [--workload train|prefill|decode] [--batch B] [--seq S]\n"
            "                       [--parallel dp=..,fsdp=..,tp=..,pp=..,mb=..] [--search N]\n"
            "                       [--price CHIP=USD_PER_HOUR]... [--pricing P] [--region R]\n"
            "                       [--prices FILE.tsv] [--json|--csv] [--plot FILE.png]\n"
            "                       [--checks] [--no-loop-reuse] [--precision P]\n"
            "\n"
            "Which chip, how many, at what cost: one row per system (a chip kind and a\n"
            "count) running one step of the workload, simulated timing-only on a\n"
            "representative chip: step time, tokens/s per system and per chip, MFU,\n"
            "memory per chip and whether it fits, exposed communication, $ per step and\n"
            "$ per 1M tokens.  docs/estimate.md defines every figure.\n"
            "  PRESET             a model preset (npusim model --list): the program is\n"
            "                     generated for each layout; without --parallel the\n"
            "                     DP/FSDP/TP/PP layouts are searched for the cheapest\n"
            "                     $ per 1M tokens that fits (the --search N best ranked\n"
            "                     are simulated, default 3)\n"
            "  MODEL.mlir         your graph, as it is: an SPMD program of P partitions\n"
            "                     runs on P chips, replicated to fill the system; --batch\n"
            "                     and --seq say how many tokens one run of it processes\n"
            "  --chips LIST       systems: tpu-v6e:256,trn2:64 (bundled names or .chip files)\n"
            "  --workload W       train (default), prefill or decode\n"
            "  --batch B          sequences per step, global (presets: train 256, prefill 32,\n"
            "                     decode 64)\n"
            "  --seq S            tokens per sequence; decode: the KV cache length (2048)\n"
            "  --parallel AXES    a fixed layout (its product the system's chips)\n"
            "  --price CHIP=USD   $ per chip-hour for CHIP, over chips/prices.tsv\n"
            "  --pricing P        price rows of this kind: on-demand, spot, commit-1y,\n"
            "                     commit-3y, capacity-block, ri-effective (default: each\n"
            "                     chip's default row, the chip file's price)\n"
            "  --region R         price rows listing region R\n"
            "  --prices FILE      another prices file (chips/prices.tsv's columns)\n"
            "  --json, --csv      the table as JSON or CSV (docs/estimate.md)\n"
            "  --plot FILE.png    a chart of $ per 1M tokens and tokens/s per system\n"
            "  --checks           the simulator's race and uninitialised-read checks (slow)\n"
            "  --no-loop-reuse    simulate every trip of the layer loops\n"
            "  --precision P      f32 matmuls at default, high or highest\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct progress {
    double t0, last;
};

static void on_row(void *user, const struct rep_compare_row *r)
{
    struct progress *p = user;
    double t = now_s();
    if (r->ok)
        fprintf(stderr, "npusim estimate: %s x%u: %s, step %.6g s, host %.2f s\n", r->chip, r->chips, r->layout,
                (double)r->step_ps * 1e-12, t - p->last);
    else
        fprintf(stderr, "npusim estimate: %s x%u: %s (host %.2f s)\n", r->chip, r->chips, r->error, t - p->last);
    p->last = t;
}

/* A graph file rather than a preset's name. */
static bool is_graph(const char *s)
{
    struct stat st;
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".mlir")) || (n > 5 && !strcmp(s + n - 5, ".mlirbc")) ||
           stat(s, &st) == 0;
}

static int plot(const struct rep_estimate *e, const char *path)
{
    uint32_t n = e->n_rows;
    char(*labels)[48] = calloc(n + 1, sizeof *labels);
    const char **lp = calloc(n + 1, sizeof *lp);
    double *usd = calloc(n + 1, sizeof *usd), *tps = calloc(n + 1, sizeof *tps);
    int rc = TOOL_FAIL;
    if (!labels || !lp || !usd || !tps) goto done;
    for (uint32_t i = 0; i < n; i++) {
        const struct rep_compare_row *r = &e->rows[i];
        snprintf(labels[i], sizeof labels[i], "%.31s x%u", r->chip, r->chips);
        lp[i] = labels[i];
        usd[i] = r->ok && r->thr.has_price ? r->thr.usd_per_mtok : NAN;
        tps[i] = r->ok ? r->thr.tokens_per_s : NAN;
    }
    char title[400];
    snprintf(title, sizeof title, "%.200s, %s, %.0f tokens per step", e->model, e->workload, e->tokens_per_step);
    const struct viz_bar_series series[2] = {
        {"$ per 1M tokens", "USD", usd, "no price / no figures"},
        {"tokens/s per system", NULL, tps, "no figures"},
    };
    struct viz_bar_chart ch = {title, (int)n, lp, 2, series};
    struct base_diag d;
    base_diag_clear(&d);
    if (viz_chart_png(&ch, path, &d) != BASE_OK) {
        tool_print_diag(&d);
        goto done;
    }
    fprintf(stderr, "npusim estimate: chart %s\n", path);
    rc = TOOL_OK;
done:
    free(labels);
    free(lp);
    free(usd);
    free(tps);
    return rc;
}

#define MAX_SYSTEMS 32

/* A whole number >= 1 for option opt, else a message. */
static bool whole(const char *v, const char *opt, long long *out)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end || end == v || x < 1) {
        fprintf(stderr, "npusim estimate: %s needs a whole number >= 1 (not '%s')\n", opt, v);
        return false;
    }
    *out = x;
    return true;
}

int cmd_estimate(int argc, char **argv)
{
    const char *model = NULL, *chips_s = NULL, *par_s = NULL, *plot_path = NULL, *prices_path = NULL, *v = NULL;
    const char *region = NULL;
    long long batch = 0, seq = 0;
    int search = 0;
    bool json = false, csv = false;
    struct rep_est_request q;
    rep_est_request_default(&q);
    static struct rep_est_prices prices;
    memset(&prices, 0, sizeof prices);
    prices.pricing = -1;
    struct base_diag d;
    base_diag_clear(&d);
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--chips", &chips_s)) {
        } else if (tool_opt(argc, argv, &i, "--parallel", &par_s)) {
        } else if (tool_opt(argc, argv, &i, "--plot", &plot_path)) {
        } else if (tool_opt(argc, argv, &i, "--prices", &prices_path)) {
        } else if (tool_opt(argc, argv, &i, "--region", &region)) {
        } else if (tool_opt(argc, argv, &i, "--workload", &v)) {
            if (!rep_workload_lookup(v, &q.workload)) {
                fprintf(stderr, "npusim estimate: --workload takes train, prefill or decode (not '%s')\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--batch", &v)) {
            if (!whole(v, "--batch", &batch)) return TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--seq", &v)) {
            if (!whole(v, "--seq", &seq)) return TOOL_USAGE;
        } else if (tool_opt(argc, argv, &i, "--search", &v)) {
            long long x;
            if (!whole(v, "--search", &x)) return TOOL_USAGE;
            search = x > 1000 ? 1000 : (int)x;
        } else if (tool_opt(argc, argv, &i, "--price", &v)) {
            if (rep_est_price_override(&prices, v, &d) != BASE_OK) {
                tool_print_diag(&d);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--pricing", &v)) {
            enum chip_pricing pr;
            if (!chip_pricing_lookup(v, &pr)) {
                fprintf(stderr,
                        "npusim estimate: --pricing takes on-demand, spot, commit-1y, commit-3y, capacity-block or "
                        "ri-effective (not '%s')\n",
                        v);
                return TOOL_USAGE;
            }
            prices.pricing = (int)pr;
        } else if (tool_opt(argc, argv, &i, "--precision", &v)) {
            if (!tool_precision_parse(v, &q.sim.precision)) {
                fprintf(stderr, "npusim estimate: --precision takes default, high or highest (not '%s')\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_flag(argv[i], "--json")) {
            json = true;
        } else if (tool_flag(argv[i], "--csv")) {
            csv = true;
        } else if (tool_flag(argv[i], "--checks")) {
            q.sim.checks = true;
        } else if (tool_flag(argv[i], "--no-loop-reuse")) {
            q.sim.no_loop_reuse = true;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim estimate: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!model) {
            model = argv[i];
        } else {
            fprintf(stderr, "npusim estimate: one model at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!model || !chips_s) {
        fprintf(stderr, "npusim estimate: give a preset or a MODEL.mlir and --chips CHIP:N,...\n");
        help(stderr);
        return TOOL_USAGE;
    }
    if (json && csv) {
        fprintf(stderr, "npusim estimate: --json or --csv, not both\n");
        return TOOL_USAGE;
    }
    static struct rep_est_system systems[MAX_SYSTEMS];
    int n_systems = 0;
    if (rep_est_systems_parse(chips_s, systems, MAX_SYSTEMS, &n_systems, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_USAGE;
    }
    struct rep_est_layout layout;
    if (par_s && rep_est_layout_parse(par_s, &layout, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_USAGE;
    }
    bool graph = is_graph(model);
    if (graph && par_s) {
        fprintf(stderr, "npusim estimate: --parallel lays out a preset; a graph runs as it is (partition it with "
                        "npusim partition, or export it sharded)\n");
        return TOOL_USAGE;
    }
    if (graph && (!batch || (!seq && q.workload != REP_DECODE))) {
        fprintf(stderr, "npusim estimate: %s: give --batch%s: the tokens one run of the graph processes\n", model,
                q.workload != REP_DECODE ? " and --seq" : "");
        return TOOL_USAGE;
    }
    if (!batch) batch = q.workload == REP_TRAIN ? 256 : q.workload == REP_PREFILL ? 32 : 64;
    if (!seq) seq = 2048;
    static struct chip_prices table;
    if (chip_prices_load(prices_path, &table, &d) != BASE_OK) {
        tool_print_diag(&d);
        if (prices_path) return TOOL_FAIL;
        fprintf(stderr, "npusim estimate: no prices file: the chip files' prices are used\n");
    } else {
        prices.table = &table;
    }
    prices.region = region;
    q.model = model;
    q.batch = batch;
    q.seq = seq;
    q.systems = systems;
    q.n_systems = n_systems;
    q.layout = par_s ? &layout : NULL;
    q.prices = &prices;
    q.max_simulated = search;
    struct progress pr = {now_s(), now_s()};
    q.on_row = on_row;
    q.user = &pr;
    struct rep_estimate *e = NULL;
    enum base_status st;
    if (graph) {
        struct graph_module *m = tool_load_model(model, true);
        if (!m) {
            chip_prices_free(&table);
            return TOOL_FAIL;
        }
        if (tool_unknown_dialects(m, model, stderr) || tool_fill_elided(m, "estimate", -1, false)) {
            graph_module_destroy(m);
            chip_prices_free(&table);
            return TOOL_FAIL;
        }
        st = rep_estimate_graph(m, &q, &e, &d);
        graph_module_destroy(m);
    } else {
        st = rep_estimate_preset(&q, &e, &d);
    }
    chip_prices_free(&table);
    if (st != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    if (json) rep_estimate_write_json(e, stdout);
    else if (csv) rep_estimate_write_csv(e, stdout);
    else rep_estimate_write_text(e, stdout);
    int rc = TOOL_FAIL;
    for (uint32_t i = 0; i < e->n_rows; i++)
        if (e->rows[i].ok) rc = TOOL_OK;
    if (plot_path && plot(e, plot_path) != TOOL_OK) rc = TOOL_FAIL;
    fprintf(stderr, "npusim estimate: host time %.2f s\n", now_s() - pr.t0);
    rep_estimate_destroy(e);
    return rc;
}
