/* npusim run over MPI ranks (docs/distributed.md): joining the job, and the
 * chips' traces gathered on rank 0.  The MPI calls themselves live in dist/. */
#include "tools/tools.h"

#include "dist/dist.h"
#include "record/record.h"
#include "traces/traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tool_mpi_start(bool asked)
{
    if (!asked && !dist_launched()) return TOOL_OK;
    struct base_diag d;
    base_diag_clear(&d);
    if (dist_init(&d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    /* rank 0 writes the report and the messages; another rank's stderr is
     * shown only when it fails alone */
    if (dist_hold_output(&d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    return TOOL_OK;
}

void tool_mpi_end(int rc, bool in_step)
{
    /* a rank that failed alone, where the others wait for it, ends the job
     * (dist_abort shows its messages); a failure in step is rank 0's to tell */
    if (rc != TOOL_OK && !in_step && dist_size() > 1) dist_abort(rc);
    dist_release_output(false);
    dist_finalize();
}

/* A private temporary .npt file in $TMPDIR (else /tmp): its descriptor, or -1. */
static int temp_npt(char *path, size_t cap)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, cap, "%s/npusim-mpi-XXXXXX.npt", dir && *dir ? dir : "/tmp");
    return mkstemps(path, 4);
}

/* A trace as the bytes of its .npt file (through a private temporary file:
 * the .npt writer is the one lossless form). */
static enum base_status trace_bytes(const struct trc_trace *t, struct dist_buf *b, struct base_diag *d)
{
    char path[4096];
    int fd = temp_npt(path, sizeof path);
    if (fd < 0) return base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot create a temporary trace file");
    close(fd);
    enum base_status st = trc_write_npt(t, path, d);
    FILE *f = st == BASE_OK ? fopen(path, "rb") : NULL;
    if (st == BASE_OK && !f) st = base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot read back the trace");
    uint64_t len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long e = ftell(f);
        len = e > 0 ? (uint64_t)e : 0;
        rewind(f);
    }
    uint8_t *data = f ? malloc(len ? len : 1) : NULL;
    if (f && (!data || fread(data, 1, len, f) != len))
        st = base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot read back the trace (%llu bytes)", (unsigned long long)len);
    if (f) fclose(f);
    unlink(path);
    if (st == BASE_OK) st = dist_buf_put(b, &len, sizeof len);
    if (st == BASE_OK) st = dist_buf_put(b, data, len);
    free(data);
    return st;
}

/* The inverse: len bytes of an .npt file as a trace. */
static enum base_status trace_from_bytes(const uint8_t *data, uint64_t len, struct trc_trace **out, struct base_diag *d)
{
    char path[4096];
    int fd = temp_npt(path, sizeof path);
    if (fd < 0) return base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot create a temporary trace file");
    FILE *f = fdopen(fd, "wb");
    enum base_status st = f && fwrite(data, 1, len, f) == len ? BASE_OK
                                                              : base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot write");
    if (f && fclose(f) != 0 && st == BASE_OK) st = base_diag_set(d, BASE_ERR_IO, path, 0, 0, "cannot write");
    if (!f) close(fd);
    if (st == BASE_OK) st = trc_read(path, out, d);
    unlink(path);
    return st;
}

enum base_status tool_mpi_merge_traces(struct trc_trace *t, struct rec_recorder **recs, int n_recs, uint64_t *n_records,
                                       struct base_diag *d)
{
    int lo = 0, hi = n_recs;
    bool dist = dist_size() > 1 && n_recs > 1; /* one chip: rank 0's alone */
    if (dist) dist_share(n_recs, dist_size(), dist_rank(), &lo, &hi);
    bool root = dist_rank() == 0;
    enum base_status st = BASE_OK;
    struct dist_buf b = {0};
    uint64_t mine = 0;
    for (int c = lo; c < hi; c++) mine += rec_recorder_n_records(recs[c]);
    /* rank 0 finished its first chip's (t; NULL: it failed, and only takes
     * part); it merges its others, then every other rank's in order */
    for (int c = root ? 1 : lo; c < hi && st == BASE_OK && (t || !root); c++) {
        struct trc_trace *tc = NULL;
        st = rec_recorder_finish(recs[c], &tc);
        if (st == BASE_OK) st = root ? trc_trace_merge(t, tc) : trace_bytes(tc, &b, d);
        trc_trace_destroy(tc);
    }
    *n_records = mine;
    if (!dist) return st;
    struct dist_buf msg = {0};
    struct base_diag mine_d = *d;
    if (st != BASE_OK && mine_d.status == BASE_OK) mine_d.status = st;
    if (st != BASE_OK) b.len = 0;
    enum base_status pst = dist_buf_put(&msg, &mine_d, sizeof mine_d);
    if (pst == BASE_OK) pst = dist_buf_put(&msg, &mine, sizeof mine);
    if (pst == BASE_OK && b.len) pst = dist_buf_put(&msg, b.data, b.len);
    dist_buf_free(&b);
    if (pst != BASE_OK) {
        fprintf(stderr, "npusim: rank %d: out of memory sending its traces\n", dist_rank());
        dist_abort(1);
    }
    struct dist_gathered g = {0};
    enum base_status xst = dist_gather(msg.data, msg.len, &g, d);
    dist_buf_free(&msg);
    if (xst != BASE_OK) return xst;
    if (!root) return st;
    for (int k = 1; k < dist_size() && st == BASE_OK && t; k++) {
        struct dist_reader r = {g.data + g.offset[k], g.data + g.offset[k + 1]};
        struct base_diag rd;
        uint64_t nr = 0;
        if (!dist_take(&r, &rd, sizeof rd) || !dist_take(&r, &nr, sizeof nr)) {
            st = base_diag_set(d, BASE_ERR_PARSE, NULL, 0, 0, "rank %d sent a short trace message", k);
            break;
        }
        if (rd.status != BASE_OK) {
            *d = rd;
            st = rd.status;
            break;
        }
        *n_records += nr;
        int klo, khi;
        dist_share(n_recs, dist_size(), k, &klo, &khi);
        for (int c = klo; c < khi && st == BASE_OK; c++) {
            uint64_t len = 0;
            if (!dist_take(&r, &len, sizeof len) || (uint64_t)(r.end - r.p) < len) {
                st = base_diag_set(d, BASE_ERR_PARSE, NULL, 0, 0, "rank %d sent a short trace of chip %d", k, c);
                break;
            }
            struct trc_trace *tc = NULL;
            st = trace_from_bytes(r.p, len, &tc, d);
            r.p += len;
            if (st == BASE_OK) st = trc_trace_merge(t, tc);
            trc_trace_destroy(tc);
        }
    }
    dist_gathered_free(&g);
    return st;
}
