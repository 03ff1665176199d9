/* A program built against an installed npusim with pkg-config
 * (tests/install/test_install.sh): the module API (npusim.h) parses a
 * model, the stable C API (npusim_api.h) checks it and runs a command. */
#include <npusim.h>
#include <npusim_api.h>

#include <stdio.h>
#include <string.h>

static const char model[] = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                            "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n"
                            "  return %0 : tensor<4xf32>\n"
                            "}\n";

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hello MODEL.mlir OUT.txt\n");
        return 2;
    }
    if (npusim_api_version() != NPUSIM_API_VERSION) return 1;
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse(model, strlen(model), NULL, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        return 1;
    }
    graph_module_destroy(m);
    int n_funcs = 0, n_ops = 0;
    char err[512];
    if (npusim_check_module(model, strlen(model), "hello", &n_funcs, &n_ops, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* a bad module: its diagnostic names the line */
    if (npusim_check_module("func.func @f(", 13, "bad.mlir", NULL, NULL, err, sizeof err) == 0 || !strstr(err, "bad.mlir:1:"))
        return 1;
    const char *args[] = {"run", argv[1], "--chip", "trn2", "--random-inputs", "1", "--check"};
    int rc = npusim_command(7, args, argv[2], NULL);
    printf("npusim %s: %d func, %d ops; run: %d\n", npusim_version(), n_funcs, n_ops, rc);
    return rc;
}
