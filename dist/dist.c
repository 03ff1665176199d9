/* dist: processes of an MPI job (docs/distributed.md).  mpi.h is included
 * here only, and only in a build that found MPI (NPUSIM_HAVE_MPI). */
#include "dist/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef NPUSIM_HAVE_MPI
#include <mpi.h>
#endif

static int g_rank = 0, g_size = 1;
static bool g_joined = false;

bool dist_built_with_mpi(void)
{
#ifdef NPUSIM_HAVE_MPI
    return true;
#else
    return false;
#endif
}

/* The launchers' environment: Open MPI's mpirun, then PMIx and PMI (Slurm's srun, MPICH's hydra). */
bool dist_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1) return true;
    }
    return false;
}

enum base_status dist_init(struct base_diag *diag)
{
#ifdef NPUSIM_HAVE_MPI
    if (g_joined) return BASE_OK;
    int started = 0;
    MPI_Initialized(&started);
    if (!started && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0, "MPI_Init failed");
    /* errors come back as codes: a failed exchange is reported, not a crash */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    g_joined = true;
    return BASE_OK;
#else
    return base_diag_set(diag, BASE_ERR_UNSUPPORTED, NULL, 0, 0,
                         "this npusim was built without MPI: install Open MPI (Debian: apt-get install "
                         "libopenmpi-dev openmpi-bin, or scripts/install-deps.sh) and rebuild (make); "
                         "docs/distributed.md");
#endif
}

void dist_finalize(void)
{
#ifdef NPUSIM_HAVE_MPI
    if (g_joined) MPI_Finalize();
#endif
    g_joined = false;
    g_rank = 0;
    g_size = 1;
}

static FILE *g_held;      /* a rank's stderr, held back */
static int g_stderr = -1; /* the real stderr meanwhile */

enum base_status dist_hold_output(struct base_diag *diag)
{
    if (g_rank == 0 || g_held) return BASE_OK;
    fflush(stdout);
    fflush(stderr);
    if (!freopen("/dev/null", "w", stdout))
        return base_diag_set(diag, BASE_ERR_IO, NULL, 0, 0, "rank %d: cannot drop its stdout", g_rank);
    g_held = tmpfile();
    g_stderr = g_held ? dup(STDERR_FILENO) : -1;
    if (g_stderr < 0 || dup2(fileno(g_held), STDERR_FILENO) < 0) {
        if (g_held) fclose(g_held);
        g_held = NULL;
        return base_diag_set(diag, BASE_ERR_IO, NULL, 0, 0, "rank %d: cannot hold back its stderr", g_rank);
    }
    return BASE_OK;
}

void dist_release_output(bool show)
{
    if (!g_held) return;
    fflush(stderr);
    dup2(g_stderr, STDERR_FILENO);
    close(g_stderr);
    g_stderr = -1;
    if (show) {
        char line[1024];
        bool start = true;
        rewind(g_held);
        while (fgets(line, sizeof line, g_held)) {
            if (start) fprintf(stderr, "[rank %d] ", g_rank);
            fputs(line, stderr);
            start = line[strlen(line) - 1] == '\n';
        }
        fflush(stderr);
    }
    fclose(g_held);
    g_held = NULL;
}

_Noreturn void dist_abort(int code)
{
    dist_release_output(true);
#ifdef NPUSIM_HAVE_MPI
    if (g_joined) MPI_Abort(MPI_COMM_WORLD, code);
#endif
    exit(code);
}

int dist_rank(void) { return g_rank; }
int dist_size(void) { return g_size; }

void dist_share(int n, int size, int rank, int *lo, int *hi)
{
    if (size < 1) size = 1;
    int q = n / size, rem = n % size;
    *lo = rank * q + (rank < rem ? rank : rem);
    *hi = *lo + q + (rank < rem ? 1 : 0);
}

int dist_owner(int n, int size, int i)
{
    for (int r = 0; r < size; r++) {
        int lo, hi;
        dist_share(n, size, r, &lo, &hi);
        if (i >= lo && i < hi) return r;
    }
    return -1;
}

void dist_gathered_free(struct dist_gathered *g)
{
    if (!g) return;
    free(g->data);
    free(g->offset);
    memset(g, 0, sizeof *g);
}

#ifdef NPUSIM_HAVE_MPI
static enum base_status mpi_fail(struct base_diag *diag, int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) len = 0;
    msg[len] = 0;
    return base_diag_set(diag, BASE_ERR_RUNTIME, NULL, 0, 0, "MPI %s failed: %s", what, msg);
}

/* allgather (root < 0) or gather to root: sizes first, then the bytes. */
static enum base_status exchange(const void *buf, size_t n, int root, struct dist_gathered *out,
                                 struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    /* MPI counts are ints: one message of 2 GiB or more is refused, named */
    if (n > (size_t)INT_MAX)
        return base_diag_set(diag, BASE_ERR_LIMIT, NULL, 0, 0,
                             "an MPI message of %zu bytes: at most %d bytes per rank per exchange", n, INT_MAX);
    int mine = (int)n, rc;
    bool receive = root < 0 || g_rank == root;
    int *counts = calloc((size_t)g_size, sizeof *counts), *displs = calloc((size_t)g_size, sizeof *displs);
    if (!counts || !displs) {
        free(counts);
        free(displs);
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    rc = root < 0 ? MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD)
                  : MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, root, MPI_COMM_WORLD);
    enum base_status st = rc == MPI_SUCCESS ? BASE_OK : mpi_fail(diag, rc, "gather of sizes");
    size_t total = 0;
    if (st == BASE_OK && receive) {
        for (int r = 0; r < g_size; r++) {
            displs[r] = (int)(total < (size_t)INT_MAX ? total : 0);
            total += (size_t)counts[r];
        }
        /* every rank of an allgather sees the same counts, so all refuse together */
        if (total > (size_t)INT_MAX)
            st = base_diag_set(diag, BASE_ERR_LIMIT, NULL, 0, 0,
                               "an MPI exchange of %zu bytes: at most %d bytes in all", total, INT_MAX);
        else {
            out->offset = calloc((size_t)g_size + 1, sizeof *out->offset);
            out->data = malloc(total ? total : 1);
            if (!out->offset || !out->data)
                st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory: needed %zu bytes for an MPI exchange",
                                   total);
            for (int r = 0; out->offset && r < g_size; r++) out->offset[r + 1] = out->offset[r] + (size_t)counts[r];
        }
        /* the other ranks would wait for this one forever: end the job, said why */
        if (st != BASE_OK && (root >= 0 || st == BASE_ERR_NOMEM)) {
            char msg[BASE_DIAG_MSG_MAX + 64];
            base_diag_format(diag, msg, sizeof msg);
            fprintf(stderr, "npusim: rank %d: %s\n", g_rank, msg);
            dist_abort(1);
        }
    }
    if (st == BASE_OK) {
        rc = root < 0 ? MPI_Allgatherv(buf, mine, MPI_BYTE, out->data, counts, displs, MPI_BYTE, MPI_COMM_WORLD)
                      : MPI_Gatherv(buf, mine, MPI_BYTE, receive ? out->data : NULL, counts, displs, MPI_BYTE, root,
                                    MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) st = mpi_fail(diag, rc, "exchange");
    }
    free(counts);
    free(displs);
    if (st != BASE_OK) dist_gathered_free(out);
    return st;
}
#endif

/* One process: its own bytes. */
static enum base_status own_bytes(const void *buf, size_t n, struct dist_gathered *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->offset = calloc(2, sizeof *out->offset);
    out->data = malloc(n ? n : 1);
    if (!out->offset || !out->data) {
        dist_gathered_free(out);
        return base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (n) memcpy(out->data, buf, n);
    out->offset[1] = n;
    return BASE_OK;
}

enum base_status dist_allgather(const void *buf, size_t n, struct dist_gathered *out, struct base_diag *diag)
{
#ifdef NPUSIM_HAVE_MPI
    if (g_joined && g_size > 1) return exchange(buf, n, -1, out, diag);
#endif
    return own_bytes(buf, n, out, diag);
}

enum base_status dist_gather(const void *buf, size_t n, struct dist_gathered *out, struct base_diag *diag)
{
#ifdef NPUSIM_HAVE_MPI
    if (g_joined && g_size > 1) return exchange(buf, n, 0, out, diag);
#endif
    return own_bytes(buf, n, out, diag);
}

void dist_buf_free(struct dist_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

enum base_status dist_buf_put(struct dist_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) return BASE_ERR_NOMEM;
        b->data = d;
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return BASE_OK;
}

/* A tensor's header in a message: dtype, rank, dims; dtype -1 for NULL. */
struct packed_tensor {
    int32_t dtype, rank;
    int64_t dims[BASE_MAX_RANK];
};

enum base_status dist_buf_put_tensor(struct dist_buf *b, const struct base_tensor *t)
{
    struct packed_tensor h;
    memset(&h, 0, sizeof h);
    h.dtype = t ? (int32_t)t->dtype : -1;
    h.rank = t ? t->rank : 0;
    for (int d = 0; t && d < t->rank; d++) h.dims[d] = t->dims[d];
    enum base_status st = dist_buf_put(b, &h, sizeof h);
    if (st == BASE_OK && t) st = dist_buf_put(b, t->data, (size_t)t->count * base_dtype_size(t->dtype));
    return st;
}

bool dist_take(struct dist_reader *r, void *out, size_t n)
{
    if ((size_t)(r->end - r->p) < n) return false;
    if (n) memcpy(out, r->p, n);
    r->p += n;
    return true;
}

enum base_status dist_take_tensor(struct dist_reader *r, struct base_tensor **out, struct base_diag *diag)
{
    *out = NULL;
    struct packed_tensor h;
    if (!dist_take(r, &h, sizeof h))
        return base_diag_set(diag, BASE_ERR_PARSE, NULL, 0, 0, "an MPI message ends inside a tensor's header");
    if (h.dtype == -1) return BASE_OK;
    if (h.dtype < 0 || h.dtype >= BASE_DT_COUNT || h.rank < 0 || h.rank > BASE_MAX_RANK)
        return base_diag_set(diag, BASE_ERR_PARSE, NULL, 0, 0, "an MPI message holds no tensor (type %d, rank %d)",
                             (int)h.dtype, (int)h.rank);
    struct base_tensor *t = NULL;
    enum base_status st = base_tensor_create((enum base_dtype)h.dtype, h.rank, h.dims, &t);
    if (st != BASE_OK) return base_diag_set(diag, st, NULL, 0, 0, "a tensor of an MPI message: %s", base_status_str(st));
    size_t bytes = (size_t)t->count * base_dtype_size(t->dtype);
    if (!dist_take(r, t->data, bytes)) {
        base_tensor_release(t);
        return base_diag_set(diag, BASE_ERR_PARSE, NULL, 0, 0, "an MPI message ends inside a tensor's %zu bytes", bytes);
    }
    *out = t;
    return BASE_OK;
}
