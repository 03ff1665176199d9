/* npusim coverage MODEL.mlir --chip NAME [--entry NAME] [--no-fallback] [--json] [--shape ARG=DIMS]... */
#include "tools/tools.h"
#include "graph/refine.h"

#include "compiler/compiler.h"

#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim coverage MODEL.mlir --chip NAME|FILE.chip [--entry NAME] [--no-fallback] [--json]\n"
            "                       [--shape ARG=DIMS]... [--dim ARG=N]...\n"
            "\n"
            "Lists each op kind of the program (the entry function, the functions it\n"
            "calls and the regions of while/if/case) with its count and whether the\n"
            "compiler lowers it for the chip, and where the ones it does not are.\n"
            "An op the chip cannot run but the host can runs on the host (as torch_xla\n"
            "and the Neuron runtime fall back to the CPU): it is listed as 'host'.\n"
            "Exit status 1 when something cannot run (with --no-fallback: when\n"
            "something is not lowered for the chip).\n"
            "  --chip NAME    a bundled chip (npusim chips) or a .chip file\n"
            "  --entry NAME   function to start from (default: @main, or the only function)\n"
            "  --no-fallback  host-fallback ops count as not lowered\n"
            "  --json         machine-readable output\n"
            "  --shape ARG=DIMS, --dim ARG=N\n"
            "                 a dynamic program's argument shapes: the program refined to\n"
            "                 them is what `npusim run` compiles (docs/dynamic-shapes.md);\n"
            "                 a static program's dynamic ops are refined without them\n");
}

int cmd_coverage(int argc, char **argv)
{
    const char *path = NULL, *chip_name = NULL, *entry = NULL;
    bool json = false, no_fallback = false;
    struct tool_dyn dyn;
    memset(&dyn, 0, sizeof dyn);
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--chip", &chip_name)) {
        } else if (tool_opt(argc, argv, &i, "--entry", &entry)) {
        } else if (tool_flag(argv[i], "--json")) {
            json = true;
        } else if (tool_flag(argv[i], "--no-fallback")) {
            no_fallback = true;
        } else if (tool_dyn_opt(argc, argv, &i, &dyn)) {
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim coverage: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "npusim coverage: one model at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!path || !chip_name) {
        fprintf(stderr, "npusim coverage: give a model and --chip\n");
        help(stderr);
        return TOOL_USAGE;
    }
    struct base_diag d;
    base_diag_clear(&d);
    static struct chip_desc chip;
    if (chip_load(chip_name, &chip, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct graph_module *m = tool_load_model(path, true);
    if (!m) return TOOL_FAIL;
    /* what run compiles: the program refined (a dynamic entry needs --shape) */
    struct graph_module *m_dyn = NULL;
    struct graph_refine_result rres;
    if (dyn.n_shapes || dyn.n_dims || !graph_entry_is_dynamic(m, entry)) {
        int rc_dyn = tool_dyn_refine("coverage", &m, &m_dyn, entry, NULL, &dyn, &rres);
        if (rc_dyn != TOOL_OK) {
            graph_module_destroy(m);
            return rc_dyn;
        }
        graph_module_destroy(m_dyn);
    } else {
        fprintf(stderr, "npusim coverage: %s takes arguments of dynamic shapes: give --shape to see what run compiles\n",
                path);
    }
    struct cc_coverage cv;
    if (cc_coverage(m, &chip, entry, &cv, &d) != BASE_OK) {
        tool_print_diag(&d);
        graph_module_destroy(m);
        return TOOL_FAIL;
    }
    if (json) {
        printf("{\"model\": ");
        tool_json_str(stdout, path);
        printf(", \"chip\": ");
        tool_json_str(stdout, chip.name);
        printf(", \"ops\": %d, \"unsupported\": %d, \"host\": %d, \"kinds\": [", cv.n_ops, cv.n_unsupported,
               no_fallback ? 0 : cv.n_host);
        for (int i = 0; i < cv.n_entries; i++) {
            const struct cc_coverage_entry *e = &cv.entries[i];
            printf("%s\n  {\"op\": ", i ? "," : "");
            tool_json_str(stdout, e->name);
            printf(", \"count\": %d, \"supported\": %s, \"unsupported\": %d, \"host\": %d", e->count,
                   e->supported ? "true" : "false", e->n_unsupported, no_fallback ? 0 : e->n_host);
            if (!e->supported) {
                printf(", \"why\": ");
                tool_json_str(stdout, e->why);
                printf(", \"locations\": [");
                for (int j = 0; j < e->n_unsupported; j++)
                    printf("%s\"%s:%d:%d\"", j ? ", " : "", e->locs[j].file ? e->locs[j].file : path, e->locs[j].line,
                           e->locs[j].col);
                printf("]");
            }
            printf("}");
        }
        printf("\n]}\n");
    } else {
        int host = no_fallback ? 0 : cv.n_host;
        printf("%s on %s: %d ops of %d kinds, %d not lowered", path, chip.name, cv.n_ops, cv.n_entries,
               cv.n_unsupported);
        if (host) printf(" (%d of them run on the host)", host);
        printf("\n");
        for (int i = 0; i < cv.n_entries; i++) {
            const struct cc_coverage_entry *e = &cv.entries[i];
            int eh = no_fallback ? 0 : e->n_host;
            if (e->supported) printf("  %-36s %6d  lowered\n", e->name, e->count);
            else if (eh == e->n_unsupported) printf("  %-36s %6d  host (%d of them)\n", e->name, e->count, eh);
            else printf("  %-36s %6d  NOT LOWERED (%d of them; %d on the host)\n", e->name, e->count, e->n_unsupported, eh);
        }
        for (int i = 0; i < cv.n_entries; i++) {
            const struct cc_coverage_entry *e = &cv.entries[i];
            for (int j = 0; j < e->n_unsupported; j++)
                printf("%s:%d:%d: %s is not lowered for %s: %s%s\n", e->locs[j].file ? e->locs[j].file : path,
                       e->locs[j].line, e->locs[j].col, e->name, chip.name, e->why,
                       !no_fallback && e->n_host == e->n_unsupported ? " (runs on the host)" : "");
        }
    }
    if (!json) tool_unknown_dialects(m, path, stdout);
    int rc = cv.n_unsupported > (no_fallback ? 0 : cv.n_host) ? TOOL_FAIL : TOOL_OK;
    cc_coverage_free(&cv);
    graph_module_destroy(m);
    return rc;
}
