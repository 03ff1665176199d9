/* dist: a run spread over processes with MPI (Open MPI; docs/distributed.md).
 *
 * The only module that includes mpi.h, and only when the build found MPI
 * (pkg-config ompi-c); without it there is one process and dist_init says how
 * to get MPI.  Until dist_init succeeds, rank 0 of 1.  Every exchange is
 * collective: every process must call it, in the same order.  Messages are
 * raw bytes: the processes run the same binary on the same kind of machine.
 */
#ifndef NPUSIM_DIST_H
#define NPUSIM_DIST_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>

/* Whether this binary was built with MPI. */
bool dist_built_with_mpi(void);
/* Whether the process was started by an MPI launcher (mpirun, srun with
 * PMI/PMIx) as one of several. */
bool dist_launched(void);
/* Joins the job (MPI_Init).  Built without MPI: BASE_ERR_UNSUPPORTED with how
 * to get it.  Safe to call twice. */
enum base_status dist_init(struct base_diag *diag);
/* Leaves the job (MPI_Finalize) when dist_init joined one. */
void dist_finalize(void);
/* Ends every process of the job at once, with code (MPI_Abort): for a
 * process that fails where the others wait for it. */
_Noreturn void dist_abort(int code);
int dist_rank(void);
int dist_size(void);
/* Ranks other than 0 print nothing: their stdout is dropped and their
 * stderr held back; dist_release_output(true) or dist_abort shows what they
 * held (each line prefixed with the rank), dist_release_output(false)
 * drops it.  Rank 0 keeps both. */
enum base_status dist_hold_output(struct base_diag *diag);
void dist_release_output(bool show);

/* The share of n items (chips) rank owns among size ranks: [lo, hi),
 * contiguous blocks in rank order, the first n % size ranks one more. */
void dist_share(int n, int size, int rank, int *lo, int *hi);
/* The rank that owns item i. */
int dist_owner(int n, int size, int i);

/* Bytes from every rank, in rank order: rank r's at data + offset[r], of
 * offset[r + 1] - offset[r] bytes. */
struct dist_gathered {
    uint8_t *data;
    size_t *offset; /* size + 1 entries */
};
void dist_gathered_free(struct dist_gathered *g);
/* Every rank gets every rank's bytes. */
enum base_status dist_allgather(const void *buf, size_t n, struct dist_gathered *out, struct base_diag *diag);
/* Rank 0 gets every rank's bytes; the others get nothing (out zeroed). */
enum base_status dist_gather(const void *buf, size_t n, struct dist_gathered *out, struct base_diag *diag);

/* A growable byte buffer for messages. */
struct dist_buf {
    uint8_t *data;
    size_t len, cap;
};
void dist_buf_free(struct dist_buf *b);
enum base_status dist_buf_put(struct dist_buf *b, const void *p, size_t n);
/* A tensor (or NULL) as bytes: type, shape, then its elements. */
enum base_status dist_buf_put_tensor(struct dist_buf *b, const struct base_tensor *t);

/* Reading a message back: take n bytes (false when fewer are left). */
struct dist_reader {
    const uint8_t *p, *end;
};
bool dist_take(struct dist_reader *r, void *out, size_t n);
/* A tensor written by dist_buf_put_tensor (NULL if it was NULL): a new
 * reference.  ERR_PARSE when the bytes are not one. */
enum base_status dist_take_tensor(struct dist_reader *r, struct base_tensor **out, struct base_diag *diag);

#endif
