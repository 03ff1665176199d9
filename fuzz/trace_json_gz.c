/* Fuzz target: Perfetto JSON through gzip.  The input, gzip-compressed, is
 * read as a .json.gz (the inflating reader, capped at inflated-bytes), and
 * the raw input is read as a .json.gz too (a broken or plain stream); both
 * through trc_read_json and through trc_open (the viewer's path).  Every
 * refusal has a message. */
#include "fuzz/fuzz_util.h"
#include "traces/traces.h"

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
    struct trc_file *f = NULL;
    base_diag_clear(&d);
    st = trc_open(path, &f, &d);
    if (st != BASE_OK) {
        fuzz_check_refusal(st, &d);
        return;
    }
    uint64_t end = trc_file_end_ps(f);
    for (uint32_t lane = 0; lane < trc_file_n_lanes(f); lane++) {
        struct trc_slice_vec sv = {0};
        base_diag_clear(&d);
        st = trc_file_slices(f, lane, 0, end + 1, &sv, &d);
        if (st != BASE_OK) fuzz_check_refusal(st, &d);
        trc_slice_vec_free(&sv);
    }
    trc_close(f);
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
