/* The stable C API (npusim_api.h): the command line's commands in process,
 * and a module check from memory. */
#include "npusim_api.h"
#include "tools/tools.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int npusim_api_version(void) { return NPUSIM_API_VERSION; }

const char *npusim_version(void) { return NPUSIM_VERSION; }

/* Points descriptor fd at path (replaced); *saved keeps the old one. */
static int redirect(int fd, const char *path, int *saved)
{
    *saved = -1;
    if (!path) return 0;
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f < 0) return -1;
    *saved = dup(fd);
    if (*saved < 0 || dup2(f, fd) < 0) {
        close(f);
        if (*saved >= 0) close(*saved);
        *saved = -1;
        return -1;
    }
    close(f);
    return 0;
}

static void restore(int fd, int saved)
{
    if (saved < 0) return;
    dup2(saved, fd);
    close(saved);
}

int npusim_command(int argc, const char *const *argv, const char *out_path, const char *err_path)
{
    if (argc < 1 || !argv || !argv[0]) return TOOL_USAGE;
    const struct tool_cmd *c = tool_command_find(argv[0]);
    if (!c) {
        fprintf(stderr, "npusim: unknown command '%s'\n", argv[0]);
        return TOOL_USAGE;
    }
    /* the commands take char ** (as main does) and never write to it */
    char **args = (char **)(uintptr_t)argv;
    fflush(stdout);
    fflush(stderr);
    int so = -1, se = -1;
    if (redirect(STDOUT_FILENO, out_path, &so) != 0) return -1;
    if (redirect(STDERR_FILENO, err_path, &se) != 0) {
        restore(STDOUT_FILENO, so);
        return -1;
    }
    int rc = c->run(argc, args);
    fflush(stdout);
    fflush(stderr);
    restore(STDOUT_FILENO, so);
    restore(STDERR_FILENO, se);
    return rc;
}

static int count_ops(const struct graph_block *b)
{
    int n = 0;
    for (int i = 0; i < b->n_ops; i++) {
        n++;
        const struct graph_op *op = b->ops[i];
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) n += count_ops(&op->regions[r].blocks[k]);
    }
    return n;
}

int npusim_check_module(const void *buf, size_t len, const char *name, int *n_funcs, int *n_ops, char *err,
                        size_t err_cap)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_module *m = NULL;
    struct graph_parse_options po;
    memset(&po, 0, sizeof po);
    po.path = name ? name : "<memory>";
    enum base_status st = graph_parse(buf, len, &po, &m, &d);
    if (st == BASE_OK) st = graph_verify(m, &d);
    if (st != BASE_OK) {
        if (err && err_cap) base_diag_format(&d, err, err_cap);
        graph_module_destroy(m);
        return 1;
    }
    int funcs = 0;
    for (int i = 0; i < m->body.n_ops; i++) funcs += m->body.ops[i]->kind == GRAPH_OP_FUNC;
    if (n_funcs) *n_funcs = funcs;
    if (n_ops) *n_ops = count_ops(&m->body);
    if (err && err_cap) err[0] = 0;
    graph_module_destroy(m);
    return 0;
}
