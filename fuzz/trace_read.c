/* Fuzz target: the trace readers never crash on any bytes.  The input is
 * read as a .npt file (opened lazily, then every query the viewer makes:
 * fuzz_walk_trace) and as Perfetto JSON; every refusal is a located error
 * with a message. */
#include "traces/traces.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_json(const char *path)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_trace *t = NULL;
    enum base_status st = trc_read_json(path, &t, &d);
    if (st != BASE_OK) fuzz_check_located_refusal(st, &d);
    trc_trace_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    fuzz_to_file(data, size, ".npt", path, sizeof path);
    fuzz_walk_trace(path, true);
    unlink(path);
    fuzz_to_file(data, size, ".json", path, sizeof path);
    read_json(path);
    unlink(path);
    return 0;
}
