/* npusim parse MODEL.mlir [--print] [--no-verify] [--shape ARG=DIMS]... [--dim ARG=N]... */
#include "tools/tools.h"
#include "graph/refine.h"

#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim parse MODEL.mlir [--print] [--no-verify] [--shape ARG=DIMS]... [--dim ARG=N]...\n"
            "\n"
            "Parses a StableHLO text file (pretty or generic form, as JAX, torch_xla and\n"
            "torch.compile print it), or a StableHLO portable artifact (MLIR bytecode, .mlir.bc,\n"
            "as jax.export serializes it), and verifies every op's shapes and types.\n"
            "  --print       print the module back, in MLIR's generic form\n"
            "  --no-verify   parse only\n"
            "  --shape ARG=DIMS, --dim ARG=N\n"
            "                refine a dynamic program to these argument shapes (and\n"
            "                dimension argument values), verify and --print the static\n"
            "                program (docs/dynamic-shapes.md)\n"
            "Errors name the file, line, column and the offending text; exit status 1.\n"
            "A file with ops of other dialects (ttir.*, tosa.*, ...) parses, but is not\n"
            "StableHLO: parse names those dialects and exits with status 1.\n");
}

static void count_ops(const struct graph_block *b, int *n_ops, int *n_funcs)
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op->kind == GRAPH_OP_FUNC) (*n_funcs)++;
        else if (graph_op_kind_cat(op->kind) != GRAPH_CAT_META) (*n_ops)++;
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) count_ops(&op->regions[r].blocks[k], n_ops, n_funcs);
    }
}

int cmd_parse(int argc, char **argv)
{
    const char *path = NULL;
    bool print = false, verify = true;
    struct tool_dyn dyn;
    memset(&dyn, 0, sizeof dyn);
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_flag(argv[i], "--print")) {
            print = true;
        } else if (tool_flag(argv[i], "--no-verify")) {
            verify = false;
        } else if (tool_dyn_opt(argc, argv, &i, &dyn)) {
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim parse: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "npusim parse: one file at a time\n");
            return TOOL_USAGE;
        }
    }
    if (!path) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct graph_module *m = tool_load_model(path, verify);
    if (!m) return TOOL_FAIL;
    if (dyn.n_shapes || dyn.n_dims) {
        struct graph_module *orig = NULL;
        struct graph_refine_result res;
        struct base_diag d;
        base_diag_clear(&d);
        int rc_dyn = tool_dyn_refine("parse", &m, &orig, NULL, NULL, &dyn, &res);
        if (rc_dyn != TOOL_OK) {
            graph_module_destroy(m);
            return rc_dyn;
        }
        graph_module_destroy(orig);
        if (verify && graph_verify(m, &d) != BASE_OK) {
            tool_print_diag(&d);
            graph_module_destroy(m);
            return TOOL_FAIL;
        }
    }
    if (print) {
        graph_print(m, stdout);
    } else if (tool_unknown_dialects(m, path, stdout)) {
        graph_module_destroy(m);
        return TOOL_FAIL;
    } else {
        int n_ops = 0, n_funcs = 0;
        count_ops(&m->body, &n_ops, &n_funcs);
        int n_elided = 0;
        graph_module_fill_elided(m, NULL, NULL, &n_elided, NULL);
        printf("%s: ok%s: %d functions, %d ops, %u values", path, verify ? " (verified)" : "", n_funcs, n_ops,
               m->n_values);
        if (n_elided)
            printf("; %d constant%s elided (runs timing-only, or with --random-inputs values)", n_elided,
                   n_elided == 1 ? "" : "s");
        printf("\n");
    }
    graph_module_destroy(m);
    return TOOL_OK;
}
