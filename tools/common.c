/* Helpers shared by the subcommands. */
#include "tools/tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int tool_mkdir_p(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0) continue;
        char c = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        buf[i] = c;
    }
    return 0;
}

bool tool_precision_parse(const char *s, enum isa_precision *out)
{
    for (int p = 0; p < ISA_PREC_COUNT; p++)
        if (!strcmp(s, isa_precision_name((enum isa_precision)p))) {
            *out = (enum isa_precision)p;
            return true;
        }
    return false;
}

void tool_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}
