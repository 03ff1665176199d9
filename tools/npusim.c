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
            "  npusim conform ../shared/conformance/stablehlo-interpret\n");
}

int main(int argc, char **argv)
{
    /* progress goes to stderr, results to stdout: keep them in order on a terminal or a pipe */
    setvbuf(stdout, NULL, _IOLBF, 0);
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
