/* Fuzz target: whatever parses prints in generic form, reads back to an
 * equal module, and prints identically the second time. */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct graph_parse_options opt = {"fuzz.mlir", 0, INT64_C(1) << 16, false};
    struct graph_module *a = NULL, *b = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse((const char *)data, size, &opt, &a, &d) != BASE_OK) return 0;
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    if (graph_print_str(a, &t1, &n1) != BASE_OK) abort();
    base_diag_clear(&d);
    struct graph_parse_options opt2 = {"printed.mlir", 0, INT64_C(1) << 16, false};
    if (graph_parse(t1, n1, &opt2, &b, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fprintf(stderr, "%.*s\n", (int)n1, t1);
        abort();
    }
    if (!graph_module_equal(a, b)) abort();
    if (graph_print_str(b, &t2, &n2) != BASE_OK) abort();
    if (n1 != n2 || memcmp(t1, t2, n1) != 0) abort();
    free(t1);
    free(t2);
    graph_module_destroy(a);
    graph_module_destroy(b);
    return 0;
}
