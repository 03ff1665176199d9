/* Fuzz target: the parser never crashes, and every error it reports is
 * located (file, line, column) with a message. */
#include "graph/graph.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct graph_parse_options opt = {"fuzz.mlir", 0, INT64_C(1) << 16, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse((const char *)data, size, &opt, &m, &d);
    if (st == BASE_OK) {
        if (!m) abort();
        graph_module_destroy(m);
        return 0;
    }
    if (m) abort();
    if (st != BASE_ERR_NOMEM) {
        /* located: file, 1-based line and column, a message */
        if (d.status != st || d.line < 1 || d.col < 1 || !d.file[0] || !d.msg[0]) abort();
    }
    return 0;
}
