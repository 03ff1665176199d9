/* npusim: the command line.  Thin: it parses arguments and strings library
 * calls together; every subcommand lives in tools/cmd_<name>.c. */
#include "tools/tools.h"

#include <string.h>


static void usage(FILE *f)
{
    size_t n_cmds;
    const struct tool_cmd *cmds = tool_commands(&n_cmds);
    fprintf(f,
            "npusim %s: a cycle-approximate simulator of TPU and Trainium chips.\n"
            "\n"
            "usage: npusim COMMAND [ARGS...]\n"
            "       npusim COMMAND --help\n"
            "\n"
            "commands:\n",
            NPUSIM_VERSION);
    for (size_t i = 0; i < n_cmds; i++) fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(f,
            "\n"
            "examples:\n"
            "  npusim parse model.mlir --print\n"
            "  npusim interp examples/transformer_block.mlir --random-inputs 1 --out out/\n"
            "  npusim conform ../shared/conformance/stablehlo-interpret\n"
            "\n"
            "every command also takes:\n"
            "  --limit NAME=N         raise (or lower) one of npusim's limits (docs/limits.md):\n");
    for (int k = 0; k < BASE_LIMIT_COUNT; k++)
        fprintf(f, "      %-18s %llu: %s\n", base_limit_name((enum base_limit)k),
                (unsigned long long)base_limit_default((enum base_limit)k), base_limit_what((enum base_limit)k));
    fprintf(f, "  --allow-special-files  read FIFOs and devices too (up to input-bytes)\n");
}

/* Takes the limit options out of argv into tool_limits_edit(); TOOL_OK or
 * TOOL_USAGE. */
static int take_limits(int *argc, char **argv)
{
    struct base_limits *lim = tool_limits_edit();
    base_limits_default(lim);
    int n = 1;
    for (int i = 1; i < *argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--allow-special-files")) {
            lim->special_files = true;
            continue;
        }
        if (!strncmp(argv[i], "--limit=", 8)) v = argv[i] + 8;
        else if (!strcmp(argv[i], "--limit")) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "npusim: --limit needs NAME=VALUE (docs/limits.md)\n");
                return TOOL_USAGE;
            }
            v = argv[++i];
        }
        if (v) {
            struct base_diag d;
            base_diag_clear(&d);
            if (base_limits_set(lim, v, &d) != BASE_OK) {
                tool_print_diag(&d);
                return TOOL_USAGE;
            }
            continue;
        }
        argv[n++] = argv[i];
    }
    argv[n] = NULL;
    *argc = n;
    base_limits_install(lim); /* every reader honours them */
    return TOOL_OK;
}

int main(int argc, char **argv)
{
    /* progress goes to stderr, results to stdout: keep them in order on a terminal or a pipe */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (take_limits(&argc, argv) != TOOL_OK) return TOOL_USAGE;
    size_t n_cmds;
    const struct tool_cmd *cmds = tool_commands(&n_cmds); /* tools/commands.c */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            for (size_t i = 0; i < n_cmds; i++)
                if (!strcmp(argv[2], cmds[i].name)) {
                    char *help_argv[] = {argv[2], (char *)"--help", NULL};
                    return cmds[i].run(2, help_argv);
                }
        }
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("npusim %s\n", NPUSIM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < n_cmds; i++)
        if (!strcmp(argv[1], cmds[i].name)) return cmds[i].run(argc - 1, argv + 1);
    fprintf(stderr, "npusim: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
