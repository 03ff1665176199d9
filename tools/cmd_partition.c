/* npusim partition MODEL.mlir --mesh SPEC [--shard ARG=SPEC]... [-o OUT.mlir] [--entry NAME] */
#include "tools/tools.h"

#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim partition MODEL.mlir [--mesh SPEC] [--shard ARG=SPEC]... [-o OUT.mlir]\n"
            "                        [--entry NAME]\n"
            "\n"
            "Partitions an unsharded StableHLO program for a device mesh: the result is\n"
            "one sdy.manual_computation over every mesh axis whose body computes one\n"
            "partition's shards, with the collectives (all_reduce, all_gather) the\n"
            "sharded ops need.  `npusim interp` runs it with num_partitions = the mesh\n"
            "size, `npusim run` compiles its body as one partition's program.\n"
            "Rules and limits: docs/partitioner.md.\n"
            "  --mesh SPEC       named axes \"data=4,model=2\", or sizes \"4\", \"4x2\" (axes\n"
            "                    x, y, z); default: the module's sdy.mesh, or the mesh\n"
            "                    its mhlo.sharding attributes imply\n"
            "  --shard ARG=SPEC  argument ARG (its index, or its name: arg0, %%x) split\n"
            "                    per dim: \"data,_\" (dim 0 over axis data), \"_,model\",\n"
            "                    \"{data,model},_\" (dim 0 over both), \"replicated\";\n"
            "                    default: the argument's sdy.sharding / mhlo.sharding,\n"
            "                    else replicated\n"
            "  -o OUT.mlir       write the program there (default: stdout)\n"
            "  --entry NAME      function to partition (default: @main, or the only one)\n"
            "\n"
            "stderr gets a summary: the mesh, each argument's and result's sharding, the\n"
            "collectives inserted and the ops that ran replicated.\n"
            "\n"
            "example:\n"
            "  npusim partition mlp.mlir --mesh model=4 --shard 1=_,model --shard 2=model,_\n");
}

static const char *coll_name(enum part_coll_kind k)
{
    switch (k) {
    case PART_ALL_REDUCE: return "all_reduce";
    case PART_ALL_GATHER: return "all_gather";
    case PART_ALL_TO_ALL: return "all_to_all";
    case PART_REDUCE_SCATTER: return "reduce_scatter";
    }
    return "?";
}

/* ARG as an index or an argument name ("arg0", "%x"). */
static int arg_index(const struct graph_op *func, const char *s, size_t n)
{
    if (n && s[0] == '%') {
        s++;
        n--;
    }
    char *end;
    long v = strtol(s, &end, 10);
    if (n && (size_t)(end - s) == n) return (int)v;
    const struct graph_block *b = &func->regions[0].blocks[0];
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].name && strlen(b->args[i].name) == n && !memcmp(b->args[i].name, s, n)) return i;
    return -1;
}

static void summary(const struct part_report *r)
{
    char buf[512];
    fprintf(stderr, "mesh:");
    for (int a = 0; a < r->mesh.n_axes; a++)
        fprintf(stderr, " %s=%lld", r->mesh.names[a], (long long)r->mesh.sizes[a]);
    fprintf(stderr, " (%lld partitions)\n", (long long)part_mesh_size(&r->mesh));
    for (int i = 0; i < r->n_args; i++) {
        part_sharding_str(&r->args[i], &r->mesh, buf, sizeof buf);
        fprintf(stderr, "  argument %d: %s\n", i, buf);
    }
    for (int i = 0; i < r->n_results; i++) {
        part_sharding_str(&r->results[i], &r->mesh, buf, sizeof buf);
        fprintf(stderr, "  result %d: %s\n", i, buf);
    }
    int64_t total = 0;
    for (int i = 0; i < r->n_colls; i++) total += r->colls[i].bytes;
    fprintf(stderr, "collectives: %d (%lld bytes per partition in)\n", r->n_colls, (long long)total);
    for (int i = 0; i < r->n_colls; i++) {
        const struct part_coll *c = &r->colls[i];
        fprintf(stderr, "  %-10s %12lld B  groups of %d  line %d %s: %s\n", coll_name(c->kind), (long long)c->bytes,
                c->group_size, c->loc.line, c->op_name ? c->op_name : "", c->why ? c->why : "");
    }
    fprintf(stderr, "ops on shards: %d; ops run replicated on gathered operands: %d\n", r->n_sharded_ops,
            r->n_fallbacks);
    for (int i = 0; i < r->n_fallbacks && i < 20; i++)
        fprintf(stderr, "  line %d: %s\n", r->fallback_locs[i].line, r->fallback_ops[i]);
    if (r->n_fallbacks > 20) fprintf(stderr, "  ... %d more\n", r->n_fallbacks - 20);
}

int tool_partition(const struct graph_module *m, const char *model, const char *entry, const char *mesh_s,
                   const char *const *shards, int n_shards, struct graph_module **out)
{
    *out = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    struct part_mesh mesh;
    if (mesh_s && part_parse_mesh(mesh_s, &mesh, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_USAGE;
    }
    if (n_shards && !mesh_s) {
        fprintf(stderr, "npusim: --shard needs --mesh\n");
        return TOOL_USAGE;
    }
    const struct graph_op *func = entry ? graph_module_find_func(m, entry) : graph_module_entry(m);
    if (!func || func->n_regions < 1 || func->regions[0].n_blocks < 1) {
        fprintf(stderr, "npusim: %s: no function @%s\n", model, entry ? entry : "main");
        return TOOL_FAIL;
    }
    int n_args = func->regions[0].blocks[0].n_args;
    struct part_sharding *args = calloc((size_t)n_args + 1, sizeof *args);
    int rc = args ? TOOL_OK : TOOL_FAIL;
    for (int i = 0; i < n_args && args; i++) args[i].rank = -1;
    for (int k = 0; rc == TOOL_OK && k < n_shards; k++) {
        const char *eq = strchr(shards[k], '=');
        int a = eq ? arg_index(func, shards[k], (size_t)(eq - shards[k])) : -1;
        if (a < 0 || a >= n_args) {
            fprintf(stderr, "npusim: --shard %s: expected ARG=SPEC with ARG an argument of @%s (0..%d or its name)\n",
                    shards[k], graph_func_name(func), n_args - 1);
            rc = TOOL_USAGE;
            break;
        }
        if (part_parse_sharding(eq + 1, &mesh, &args[a], &d) != BASE_OK) {
            tool_print_diag(&d);
            rc = TOOL_USAGE;
            break;
        }
        if (args[a].rank < 0) { /* "replicated": every dim whole */
            const struct graph_type *t = func->regions[0].blocks[0].args[a].type;
            args[a].rank = t->kind == GRAPH_TYPE_TENSOR ? t->rank : 0;
        }
    }
    struct part_report rep;
    memset(&rep, 0, sizeof rep);
    if (rc == TOOL_OK && part_partition(m, entry, mesh_s ? &mesh : NULL, args, n_args, out, &rep, &d) != BASE_OK) {
        tool_print_diag(&d);
        rc = TOOL_FAIL;
    }
    if (rc == TOOL_OK) summary(&rep);
    part_report_free(&rep);
    free(args);
    return rc;
}

int cmd_partition(int argc, char **argv)
{
    const char *model = NULL, *mesh_s = NULL, *out_path = NULL, *entry = NULL;
    const char *shards[64];
    int n_shards = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_opt(argc, argv, &i, "--mesh", &v)) {
            mesh_s = v;
        } else if (tool_opt(argc, argv, &i, "--shard", &v)) {
            if (n_shards == 64) {
                fprintf(stderr, "npusim partition: too many --shard options\n");
                return TOOL_USAGE;
            }
            shards[n_shards++] = v;
        } else if (tool_opt(argc, argv, &i, "-o", &v) || tool_opt(argc, argv, &i, "--out", &v)) {
            out_path = v;
        } else if (tool_opt(argc, argv, &i, "--entry", &v)) {
            entry = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "npusim partition: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!model) {
            model = argv[i];
        } else {
            fprintf(stderr, "npusim partition: one model only\n");
            return TOOL_USAGE;
        }
    }
    if (!model) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct graph_module *m = tool_load_model(model, true);
    if (!m) return TOOL_FAIL;
    struct graph_module *mp = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = tool_partition(m, model, entry, mesh_s, shards, n_shards, &mp);
    if (rc == TOOL_OK && graph_print_str_positions(mp, &text, &len) != BASE_OK) { /* each op at its source line */
        tool_print_nomem("partition", 0, "printing the partitioned module");
        rc = TOOL_FAIL;
    }
    if (rc == TOOL_OK) {
        struct base_out o;
        if (out_path && tool_same_file(out_path, model)) {
            fprintf(stderr, "npusim partition: %s: the output is the input\n", out_path);
            rc = TOOL_FAIL;
        } else {
            rc = tool_out_begin(&o, out_path) ? tool_out_end(&o, fwrite(text, 1, len, o.f) == len) : TOOL_FAIL;
        }
    }
    free(text);
    graph_module_destroy(mp);
    graph_module_destroy(m);
    return rc;
}
