/* npusim model PRESET|--config FILE [--workload train|prefill|decode] [--batch B] [--seq S]
 *              [--parallel dp=..,tp=..] [--set KEY=VALUE,...] [-o OUT.mlir]
 * npusim model --list */
#include "tools/tools.h"

#include "model/model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim model PRESET|--config FILE [--workload train|prefill|decode]\n"
            "                    [--batch B] [--seq S] [--parallel dp=N,fsdp=N,tp=N,sp=N,ep=N,pp=N,mb=N]\n"
            "                    [--set KEY=VALUE,...] [--grads-only] [-o OUT.mlir]\n"
            "       npusim model --list\n"
            "\n"
            "Generates the StableHLO program of a transformer (a preset's published sizes, or a\n"
            "configuration file of KEY = VALUE lines) for a workload: a training step (forward,\n"
            "backward with each layer recomputed, AdamW), a prefill (filling the KV cache) or a\n"
            "decode step (one token per sequence against a cache of SEQ).  Layers are a\n"
            "stablehlo.while over stacked weights.  The program goes to stdout (or OUT) in the\n"
            "generic form `npusim parse` reads; a summary to stderr.  docs/model.md.\n"
            "  --list            the presets: family, parameters (total / active), source\n"
            "  --workload W      train, prefill (default) or decode\n"
            "  --batch B         sequences per step (default 1)\n"
            "  --seq S           tokens per sequence; decode: the cache length (default 2048)\n"
            "  --parallel SPEC   mesh axes for the layout (sdy shardings on the arguments)\n"
            "  --set K=V,...     change fields of the configuration (hidden=64,layers=2,dtype=f32)\n"
            "  --grads-only      train: return the loss and the gradients (no optimiser step)\n"
            "  -o OUT.mlir       write the program to OUT\n");
}

static int list_presets(void)
{
    printf("%-18s %-8s %10s %10s  %s\n", "preset", "family", "params", "active", "source");
    for (int i = 0; i < mdl_preset_count(); i++) {
        struct mdl_config c;
        struct base_diag d;
        base_diag_clear(&d);
        if (mdl_preset_get(mdl_preset_name(i), &c, &d) != BASE_OK) continue;
        double t, a;
        mdl_params(&c, &t, &a);
        printf("%-18s %-8s %9.3fB %9.3fB  %s\n", c.name, mdl_family_name(c.family), t / 1e9, a / 1e9, c.source);
    }
    return TOOL_OK;
}

static bool parse_count(const char *v, int64_t *out)
{
    char *e;
    errno = 0;
    long long x = strtoll(v, &e, 10);
    if (*e || x < 1 || errno) return false;
    *out = x;
    return true;
}

/* "k=v,k=v" onto c */
static int apply_sets(struct mdl_config *c, const char *spec)
{
    char *s = strdup(spec), *save = NULL;
    if (!s) return TOOL_FAIL;
    int rc = TOOL_OK;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            fprintf(stderr, "npusim model: --set: '%s' is not KEY=VALUE\n", tok);
            rc = TOOL_USAGE;
            break;
        }
        *eq = 0;
        struct base_diag d;
        base_diag_clear(&d);
        if (mdl_config_set(c, tok, eq + 1, &d) != BASE_OK) {
            fprintf(stderr, "npusim model: --set: %s\n", d.msg);
            rc = TOOL_USAGE;
            break;
        }
    }
    free(s);
    return rc;
}

static int count_ops(const struct graph_block *b)
{
    int n = 0;
    for (int i = 0; i < b->n_ops; i++) {
        n++;
        for (int r = 0; r < b->ops[i]->n_regions; r++)
            for (int k = 0; k < b->ops[i]->regions[r].n_blocks; k++) n += count_ops(&b->ops[i]->regions[r].blocks[k]);
    }
    return n;
}

int cmd_model(int argc, char **argv)
{
    const char *preset = NULL, *config = NULL, *out = NULL, *par = NULL, *sets = NULL, *v = NULL;
    struct mdl_workload w;
    mdl_workload_default(&w);
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_flag(argv[i], "--list")) {
            list = true;
        } else if (tool_flag(argv[i], "--grads-only")) {
            w.grads_only = true;
        } else if (tool_opt(argc, argv, &i, "--config", &config)) {
        } else if (tool_opt(argc, argv, &i, "-o", &out)) {
        } else if (tool_opt(argc, argv, &i, "--parallel", &par)) {
        } else if (tool_opt(argc, argv, &i, "--set", &sets)) {
        } else if (tool_opt(argc, argv, &i, "--workload", &v)) {
            if (!mdl_workload_lookup(v, &w.kind)) {
                fprintf(stderr, "npusim model: --workload takes train, prefill or decode (not '%s')\n", v);
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--batch", &v)) {
            if (!parse_count(v, &w.batch)) {
                fprintf(stderr, "npusim model: --batch needs a count >= 1\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--seq", &v)) {
            if (!parse_count(v, &w.seq)) {
                fprintf(stderr, "npusim model: --seq needs a count >= 1\n");
                return TOOL_USAGE;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim model: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!preset) {
            preset = argv[i];
        } else {
            fprintf(stderr, "npusim model: one model at a time\n");
            return TOOL_USAGE;
        }
    }
    if (list) return list_presets();
    if (!preset == !config) {
        fprintf(stderr, "npusim model: give a preset or --config FILE (npusim model --list names the presets)\n");
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    struct mdl_config c;
    if ((config ? mdl_config_read(config, &c, &d) : mdl_preset_get(preset, &c, &d)) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    if (sets) {
        int rc = apply_sets(&c, sets);
        if (rc) return rc;
    }
    if (par && mdl_parallel_parse(par, &w.par, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_USAGE;
    }
    struct graph_module *m = NULL;
    if (mdl_generate(&c, &w, &m, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct base_out o;
    if (!tool_out_begin(&o, out)) {
        graph_module_destroy(m);
        return TOOL_FAIL;
    }
    enum base_status st = tool_out_end(&o, graph_print(m, o.f) == BASE_OK) == TOOL_OK ? BASE_OK : BASE_ERR_IO;
    double total, active;
    mdl_params(&c, &total, &active);
    fprintf(stderr, "npusim model: %s %s, batch %lld, seq %lld: %.3fB parameters (%.3fB active), %d ops, %.4g FLOPs / step\n",
            c.name, mdl_workload_name(w.kind), (long long)w.batch, (long long)w.seq, total / 1e9, active / 1e9,
            count_ops(&m->body), mdl_workload_flops(&c, &w));
    graph_module_destroy(m);
    if (st != BASE_OK) {
        fprintf(stderr, "npusim model: writing the program: %s\n", base_status_str(st));
        return TOOL_FAIL;
    }
    return TOOL_OK;
}
