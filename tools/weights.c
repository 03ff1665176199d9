/* --weights FILE.safetensors | DIR | INDEX.json: the entry's arguments from
 * a safetensors checkpoint, memory-mapped and read (and converted to the
 * argument's element type) only when used (docs/memory.md). */
#include "tools/tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One "ARG TENSOR" line of a --weights-map file. */
struct map_entry {
    char *arg, *tensor;
    int line;
    bool used;
};

static void map_free(struct map_entry *m, int n)
{
    for (int i = 0; i < n; i++) {
        free(m[i].arg);
        free(m[i].tensor);
    }
    free(m);
}

/* The map file: one "ARG TENSOR" per line (ARG: the argument's name, with or
 * without '%', or its index), '#' to the end of a line a comment. */
static int map_read(const char *path, struct map_entry **out, int *n_out)
{
    *out = NULL;
    *n_out = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "npusim run: --weights-map %s: %s\n", path, strerror(errno));
        return TOOL_FAIL;
    }
    struct map_entry *m = NULL;
    int n = 0, cap = 0, line = 0, rc = 0;
    char buf[4096];
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            fprintf(stderr, "npusim run: %s:%d: line longer than %zu characters\n", path, line, sizeof buf - 2);
            rc = TOOL_FAIL;
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *save = NULL, *arg = strtok_r(buf, " \t\r\n", &save);
        if (!arg) continue;
        char *tensor = strtok_r(NULL, " \t\r\n", &save);
        char *extra = tensor ? strtok_r(NULL, " \t\r\n", &save) : NULL;
        if (!tensor || extra) {
            fprintf(stderr, "npusim run: %s:%d: expected 'ARGUMENT TENSOR' (two words), got %s\n", path, line,
                    tensor ? "more" : "one");
            rc = TOOL_FAIL;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            struct map_entry *g = realloc(m, (size_t)cap * sizeof *g);
            if (!g) {
                tool_print_nomem("run", (size_t)cap * sizeof *g, "the --weights-map table");
                rc = TOOL_FAIL;
                break;
            }
            m = g;
        }
        if (arg[0] == '%') arg++;
        m[n] = (struct map_entry){strdup(arg), strdup(tensor), line, false};
        if (!m[n].arg || !m[n].tensor) {
            n++;
            tool_print_nomem("run", strlen(arg) + strlen(tensor) + 2, "the --weights-map table");
            rc = TOOL_FAIL;
            break;
        }
        n++;
    }
    if (!rc && ferror(f)) {
        fprintf(stderr, "npusim run: --weights-map %s: read error\n", path);
        rc = TOOL_FAIL;
    }
    fclose(f);
    if (rc) {
        map_free(m, n);
        return rc;
    }
    *out = m;
    *n_out = n;
    return 0;
}

/* The jax.arg_info string of argument i (older JAX exports name each
 * argument's pytree path there), or NULL. */
static const char *jax_arg_info(const struct graph_op *func, int i, char *buf, size_t cap)
{
    const struct graph_attr *aa = graph_op_attr(func, "arg_attrs");
    if (!aa || aa->kind != GRAPH_ATTR_ARRAY || i >= aa->u.array.n) return NULL;
    const struct graph_attr *s = graph_dict_get(aa->u.array.items[i], "jax.arg_info");
    if (!s || s->kind != GRAPH_ATTR_STRING || s->u.str.len >= cap) return NULL;
    memcpy(buf, s->u.str.s, s->u.str.len);
    buf[s->u.str.len] = 0;
    return buf;
}

int tool_weights_inputs(const char *path, const char *map_path, const struct graph_op *func, long seed,
                        struct base_tensor **in)
{
    const struct graph_block *b = &func->regions[0].blocks[0];
    struct base_diag d;
    base_diag_clear(&d);
    struct base_st_set *set = NULL;
    if (base_st_set_open(path, &set, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct map_entry *map = NULL;
    int n_map = 0, rc = 0, n_file = 0, n_random = 0;
    if (map_path && (rc = map_read(map_path, &map, &n_map)) != 0) goto done;
    for (int i = 0; !rc && i < b->n_args; i++) {
        const struct graph_value *v = &b->args[i];
        char idx[16], info[512];
        snprintf(idx, sizeof idx, "%d", i);
        /* the tensor: the map's (by name, location or index), else the
         * argument's own name, its loc("...") name, its jax.arg_info */
        const char *loc = v->loc ? v->loc->name : NULL;
        const char *want = NULL, *why = NULL;
        int map_line = 0;
        for (int k = 0; k < n_map && !want; k++)
            if ((v->name && !strcmp(map[k].arg, v->name)) || (loc && !strcmp(map[k].arg, loc)) ||
                !strcmp(map[k].arg, idx)) {
                want = map[k].tensor;
                map_line = map[k].line;
                map[k].used = true;
                why = "--weights-map";
            }
        struct base_st_file *f = NULL;
        int ti = -1;
        if (want) {
            if (!base_st_set_find(set, want, &f, &ti)) {
                fprintf(stderr, "npusim run: %s:%d: argument %d (%%%s) maps to tensor '%s', which %s does not hold\n",
                        map_path, map_line, i, v->name ? v->name : idx, want, path);
                rc = TOOL_FAIL;
                break;
            }
        } else if (v->name && base_st_set_find(set, v->name, &f, &ti)) {
            why = "its name";
        } else if (loc && base_st_set_find(set, loc, &f, &ti)) {
            why = "its location";
        } else if (jax_arg_info(func, i, info, sizeof info) && base_st_set_find(set, info, &f, &ti)) {
            why = "jax.arg_info";
        }
        (void)why;
        const struct graph_type *ty = v->type;
        if (f) {
            if (ty->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ty)) {
                char ts[128];
                graph_type_str(ty, ts, sizeof ts);
                fprintf(stderr, "npusim run: argument %d (%%%s) is %s: --weights gives statically shaped tensors only\n",
                        i, v->name ? v->name : idx, ts);
                rc = TOOL_FAIL;
                break;
            }
            if (base_st_tensor_lazy(f, ti, ty->elem, ty->rank, ty->dims, &in[i], &d) != BASE_OK) {
                char ts[128];
                graph_type_str(ty, ts, sizeof ts);
                tool_print_diag(&d);
                fprintf(stderr, "npusim run: (for argument %d %%%s: %s)\n", i, v->name ? v->name : idx, ts);
                rc = TOOL_FAIL;
                break;
            }
            n_file++;
            continue;
        }
        if (seed < 0) {
            char ts[128];
            graph_type_str(ty, ts, sizeof ts);
            fprintf(stderr,
                    "npusim run: argument %d (%%%s: %s) is not in %s (by name%s%s): map it with --weights-map, or "
                    "give --random-inputs SEED to fill what the file lacks\n",
                    i, v->name ? v->name : idx, ts, path, loc ? ", location" : "", jax_arg_info(func, i, info, sizeof info) ? " or jax.arg_info" : "");
            rc = TOOL_FAIL;
            break;
        }
        if (tool_random_tensor(ty, (uint64_t)seed, i, true, &in[i]) != BASE_OK) {
            char ts[128];
            graph_type_str(ty, ts, sizeof ts);
            fprintf(stderr, "npusim run: cannot generate input %d of type %s\n", i, ts);
            rc = TOOL_FAIL;
            break;
        }
        n_random++;
    }
    for (int k = 0; !rc && k < n_map; k++)
        if (!map[k].used) {
            fprintf(stderr, "npusim run: %s:%d: @%s has no argument '%s'\n", map_path, map[k].line,
                    graph_func_name(func), map[k].arg);
            rc = TOOL_FAIL;
        }
    if (!rc) {
        fprintf(stderr, "npusim run: %d argument(s) from %s (%d file(s), read when used)", n_file, path,
                base_st_set_n_files(set));
        if (n_random) fprintf(stderr, ", %d random (seed %ld)", n_random, seed);
        fputc('\n', stderr);
    }
done:
    map_free(map, n_map);
    base_st_set_close(set); /* the lazy tensors keep their files open */
    return rc;
}
