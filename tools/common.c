/* Helpers shared by the subcommands. */
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

void tool_print_diag(const struct base_diag *d)
{
    fprintf(stderr, "npusim: ");
    base_diag_print(d, stderr);
}

struct graph_module *tool_load_model(const char *path, bool verify)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_module *m = NULL;
    if (graph_parse_file(path, &m, &d) != BASE_OK) {
        tool_print_diag(&d);
        return NULL;
    }
    if (verify && graph_verify(m, &d) != BASE_OK) {
        tool_print_diag(&d);
        graph_module_destroy(m);
        return NULL;
    }
    return m;
}

bool tool_flag(const char *arg, const char *name) { return !strcmp(arg, name); }

bool tool_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n)) return false;
    if (a[n] == '=') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] != 0) return false;
    if (*i + 1 >= argc) {
        fprintf(stderr, "npusim: option %s needs a value\n", name);
        exit(TOOL_USAGE);
    }
    *value = argv[++*i];
    return true;
}
