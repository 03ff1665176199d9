/* Helpers shared by the fuzz targets (header-only: each target is one
 * translation unit, built alone by `make fuzz`). */
#ifndef NPUSIM_FUZZ_UTIL_H
#define NPUSIM_FUZZ_UTIL_H

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A refusal must say where and what (issue 20: no empty error). */
static inline void fuzz_check_refusal(enum base_status st, const struct base_diag *d)
{
    if (st != BASE_ERR_NOMEM && !d->msg[0]) {
        fprintf(stderr, "fuzz: status %s without a message\n", base_status_str(st));
        abort();
    }
}

/* A refusal located at its file too (readers of files name the file). */
static inline void fuzz_check_located_refusal(enum base_status st, const struct base_diag *d)
{
    if (st != BASE_ERR_NOMEM && !d->file[0]) {
        fprintf(stderr, "fuzz: status %s without a file\n", base_status_str(st));
        abort();
    }
    fuzz_check_refusal(st, d);
}

/* The input in a fresh temporary file named *SUFFIX (readers take paths). */
static inline void fuzz_to_file(const uint8_t *data, size_t size, const char *suffix, char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/npusim_fuzz_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    close(fd);
}

#ifdef NPUSIM_TRACES_H
/* The trace at path opened lazily (trc_open, the viewer's path), then every
 * query the viewer makes: slices, summaries at each level, samples, flows,
 * verify, load; every refusal is checked (located: with its file). */
static inline void fuzz_walk_trace(const char *path, bool located)
{
    void (*check)(enum base_status, const struct base_diag *) =
        located ? fuzz_check_located_refusal : fuzz_check_refusal;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *f = NULL;
    enum base_status st = trc_open(path, &f, &d);
    if (st != BASE_OK) {
        check(st, &d);
        return;
    }
    uint64_t end = trc_file_end_ps(f);
    for (uint32_t lane = 0; lane < trc_file_n_lanes(f); lane++) {
        struct trc_slice_vec sv = {0};
        base_diag_clear(&d);
        st = trc_file_slices(f, lane, 0, end + 1, &sv, &d);
        if (st != BASE_OK) check(st, &d);
        trc_slice_vec_free(&sv);
        uint32_t lo = 0, hi = 0;
        trc_file_lane_levels(f, lane, &lo, &hi);
        for (uint32_t level = lo; level <= hi && level < 64; level++) {
            struct trc_bucket_vec bv = {0};
            base_diag_clear(&d);
            st = trc_file_summary(f, lane, level, 0, end + 1, &bv, &d);
            if (st != BASE_OK) check(st, &d);
            trc_bucket_vec_free(&bv);
        }
        struct trc_sample_vec smp = {0};
        base_diag_clear(&d);
        st = trc_file_samples(f, lane, 0, end + 1, &smp, &d);
        if (st != BASE_OK) check(st, &d);
        trc_sample_vec_free(&smp);
    }
    struct trc_flow_vec fv = {0};
    base_diag_clear(&d);
    st = trc_file_flows(f, 0, end + 1, &fv, &d);
    if (st != BASE_OK) check(st, &d);
    trc_flow_vec_free(&fv);
    base_diag_clear(&d);
    st = trc_file_verify(f, &d);
    if (st != BASE_OK) check(st, &d);
    struct trc_trace *t = NULL;
    base_diag_clear(&d);
    st = trc_file_load(f, &t, &d);
    if (st != BASE_OK) check(st, &d);
    trc_trace_destroy(t);
    trc_close(f);
}
#endif

#endif
