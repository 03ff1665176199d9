/* Fuzz target: Perfetto JSON through gzip.  The input, gzip-compressed, is
 * read as a .json.gz (the inflating reader, capped at inflated-bytes), and
 * the raw input is read as a .json.gz too (a broken or plain stream); both
 * through trc_read_json and through trc_open with every query the viewer
 * makes (fuzz_walk_trace).  Every refusal has a message. */
#include "traces/traces.h"
#include "fuzz/fuzz_util.h"

#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_both(const char *path)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_trace *t = NULL;
    enum base_status st = trc_read_json(path, &t, &d);
    if (st != BASE_OK) fuzz_check_refusal(st, &d);
    trc_trace_destroy(t);
    fuzz_walk_trace(path, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/npusim_fuzz_gz_%d.json.gz", (int)getpid());
    gzFile gz = gzopen(path, "wb1");
    if (!gz) abort();
    if (size && gzwrite(gz, data, (unsigned)size) != (int)size) abort();
    if (gzclose(gz) != Z_OK) abort();
    read_both(path);
    unlink(path);
    fuzz_to_file(data, size, ".json.gz", path, sizeof path);
    read_both(path);
    unlink(path);
    return 0;
}
