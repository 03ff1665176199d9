/* Fuzz target: the MLIR bytecode reader never crashes, and every error it
 * reports is located (file, line 1, column = byte offset + 1, a message). */
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* inputs without the magic get it, so mutations stay on the bytecode path */
    uint8_t *buf = malloc(size + 4);
    if (!buf) return 0;
    size_t n = size;
    if (size >= 4 && !memcmp(data, "ML\xefR", 4)) {
        memcpy(buf, data, size);
    } else {
        memcpy(buf, "ML\xefR", 4);
        memcpy(buf + 4, data, size);
        n = size + 4;
    }
    struct graph_parse_options opt = {"fuzz.mlir.bc", 0, INT64_C(1) << 16, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse((const char *)buf, n, &opt, &m, &d);
    if (st == BASE_OK) {
        if (!m) abort();
        graph_module_destroy(m);
    } else {
        if (m) abort();
        if (st != BASE_ERR_NOMEM && (d.status != st || d.line < 1 || d.col < 1 || !d.file[0] || !d.msg[0])) abort();
    }
    free(buf);
    return 0;
}
