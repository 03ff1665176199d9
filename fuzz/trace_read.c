/* Fuzz target: the trace readers never crash on any bytes.  The input is
 * read as a .npt file (opened lazily, then every query the viewer makes:
 * slices, summaries at each level, samples, flows, ops, stats, verify, load)
 * and as Perfetto JSON; every refusal is a located error with a message. */
#include "traces/traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refusal(enum base_status st, const struct base_diag *d)
{
    if (st != BASE_ERR_NOMEM && (!d->file[0] || !d->msg[0])) abort();
}

/* The input in a temporary file named *.SUFFIX (the readers take paths). */
static void to_file(const uint8_t *data, size_t size, const char *suffix, char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/npusim_fuzz_trace_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    close(fd);
}

static void read_npt(const char *path)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *f = NULL;
    enum base_status st = trc_open(path, &f, &d);
    if (st != BASE_OK) {
        check_refusal(st, &d);
        return;
    }
    uint64_t end = trc_file_end_ps(f);
    for (uint32_t lane = 0; lane < trc_file_n_lanes(f); lane++) {
        struct trc_slice_vec sv = {0};
        base_diag_clear(&d);
        st = trc_file_slices(f, lane, 0, end + 1, &sv, &d);
        if (st != BASE_OK) check_refusal(st, &d);
        trc_slice_vec_free(&sv);
        uint32_t lo = 0, hi = 0;
        trc_file_lane_levels(f, lane, &lo, &hi);
        for (uint32_t level = lo; level <= hi && level < 64; level++) {
            struct trc_bucket_vec bv = {0};
            base_diag_clear(&d);
            st = trc_file_summary(f, lane, level, 0, end + 1, &bv, &d);
            if (st != BASE_OK) check_refusal(st, &d);
            trc_bucket_vec_free(&bv);
        }
        struct trc_sample_vec smp = {0};
        base_diag_clear(&d);
        st = trc_file_samples(f, lane, 0, end + 1, &smp, &d);
        if (st != BASE_OK) check_refusal(st, &d);
        trc_sample_vec_free(&smp);
    }
    struct trc_flow_vec fv = {0};
    base_diag_clear(&d);
    st = trc_file_flows(f, 0, end + 1, &fv, &d);
    if (st != BASE_OK) check_refusal(st, &d);
    trc_flow_vec_free(&fv);
    base_diag_clear(&d);
    st = trc_file_verify(f, &d);
    if (st != BASE_OK) check_refusal(st, &d);
    struct trc_trace *t = NULL;
    base_diag_clear(&d);
    st = trc_file_load(f, &t, &d);
    if (st != BASE_OK) check_refusal(st, &d);
    trc_trace_destroy(t);
    trc_close(f);
}

static void read_json(const char *path)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_trace *t = NULL;
    enum base_status st = trc_read_json(path, &t, &d);
    if (st != BASE_OK) check_refusal(st, &d);
    trc_trace_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    to_file(data, size, ".npt", path, sizeof path);
    read_npt(path);
    unlink(path);
    to_file(data, size, ".json", path, sizeof path);
    read_json(path);
    unlink(path);
    return 0;
}
