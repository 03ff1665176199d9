/* Reference-counted tensors with shared, 64-byte aligned storage. */
#include "base/base.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct base_blob {
    atomic_long refs;
    size_t nbytes;
    void *data; /* 64-byte aligned, inside raw; NULL for a lazy source */
    void *raw;
    /* lazy: the source and its tensor's shape */
    struct base_lazy_src src;
    int src_rank;
    int64_t src_dims[BASE_MAX_RANK];
};

static struct base_blob *blob_create(size_t nbytes)
{
    struct base_blob *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    /* calloc rather than aligned_alloc + memset: large blocks come from
     * mmap already zeroed, so big tensors cost no up-front fill. */
    size_t alloc = nbytes + 64;
    if (alloc < nbytes) {
        free(b);
        return NULL;
    }
    b->raw = calloc(1, alloc);
    if (!b->raw) {
        free(b);
        return NULL;
    }
    b->data = (void *)(((uintptr_t)b->raw + 63) & ~(uintptr_t)63);
    atomic_init(&b->refs, 1);
    b->nbytes = nbytes;
    return b;
}

static void blob_release(struct base_blob *b)
{
    if (b && atomic_fetch_sub(&b->refs, 1) == 1) {
        if (b->src.release) b->src.release(b->src.user);
        free(b->raw);
        free(b);
    }
}

int64_t base_shape_count(int rank, const int64_t *dims)
{
    /* the product of the nonzero dims is the largest stride: it must stay
     * within the limit even when a zero dim makes the count 0
     * (tensor<0x99999999999x99999999999xf32>) */
    int64_t n = 1;
    bool zero = false;
    for (int i = 0; i < rank; i++) {
        if (dims[i] < 0) return -1;
        if (dims[i] == 0) zero = true;
        else if (n > BASE_MAX_ELEMS / dims[i]) return -1;
        else n *= dims[i];
    }
    return zero ? 0 : n;
}

bool base_shape_bytes(int rank, const int64_t *dims, enum base_dtype dt, uint64_t *bytes)
{
    int64_t n = base_shape_count(rank, dims);
    return n >= 0 && (unsigned)dt < BASE_DT_COUNT && base_mul_u64((uint64_t)n, base_dtype_size(dt), bytes);
}

void base_shape_strides(int rank, const int64_t *dims, int64_t *strides)
{
    int64_t s = 1;
    for (int i = rank - 1; i >= 0; i--) {
        strides[i] = s;
        s *= dims[i] > 0 ? dims[i] : 1;
    }
}

static enum base_status tensor_header(enum base_dtype dt, int rank, const int64_t *dims,
                                      struct base_tensor **out)
{
    *out = NULL;
    if ((unsigned)dt >= BASE_DT_COUNT || rank < 0 || rank > BASE_MAX_RANK) return BASE_ERR_LIMIT;
    int64_t count = base_shape_count(rank, dims);
    if (count < 0) return BASE_ERR_LIMIT;
    struct base_tensor *t = calloc(1, sizeof *t);
    if (!t) return BASE_ERR_NOMEM;
    t->dtype = dt;
    t->rank = rank;
    if (rank) memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    t->count = count;
    atomic_init(&t->refs, 1);
    *out = t;
    return BASE_OK;
}

enum base_status base_tensor_create(enum base_dtype dt, int rank, const int64_t *dims,
                                    struct base_tensor **out)
{
    TRY(tensor_header(dt, rank, dims, out));
    struct base_tensor *t = *out;
    t->blob = blob_create((size_t)t->count * base_dtype_size(dt));
    if (!t->blob) {
        free(t);
        *out = NULL;
        return BASE_ERR_NOMEM;
    }
    t->data = t->blob->data;
    return BASE_OK;
}

enum base_status base_tensor_create_like(const struct base_tensor *t, struct base_tensor **out)
{
    return base_tensor_create(t->dtype, t->rank, t->dims, out);
}

enum base_status base_tensor_reshape(struct base_tensor *t, int rank, const int64_t *dims,
                                     struct base_tensor **out)
{
    if (t->lazy && !t->lazy_whole) {
        *out = NULL;
        return BASE_ERR_UNSUPPORTED;
    }
    TRY(tensor_header(t->dtype, rank, dims, out));
    if ((*out)->count != t->count) {
        free(*out);
        *out = NULL;
        return BASE_ERR_INVALID;
    }
    atomic_fetch_add(&t->blob->refs, 1);
    (*out)->blob = t->blob;
    (*out)->data = t->data;
    (*out)->lazy = t->lazy;
    (*out)->lazy_whole = t->lazy_whole;
    return BASE_OK;
}

enum base_status base_tensor_clone(const struct base_tensor *t, struct base_tensor **out)
{
    TRY(base_tensor_create(t->dtype, t->rank, t->dims, out));
    enum base_status st = base_tensor_read(t, 0, t->count, (*out)->data);
    if (st != BASE_OK) {
        base_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

/* ------------------------------------------------------------------ lazy */

enum base_status base_tensor_create_lazy(enum base_dtype dt, int rank, const int64_t *dims,
                                         const struct base_lazy_src *src, struct base_tensor **out)
{
    enum base_status st = tensor_header(dt, rank, dims, out);
    struct base_blob *b = st == BASE_OK ? calloc(1, sizeof *b) : NULL;
    if (st == BASE_OK && !b) st = BASE_ERR_NOMEM;
    if (st != BASE_OK) {
        if (src->release) src->release(src->user);
        if (*out) free(*out);
        *out = NULL;
        return st;
    }
    atomic_init(&b->refs, 1);
    b->src = *src;
    b->src_rank = rank;
    if (rank) memcpy(b->src_dims, dims, (size_t)rank * sizeof *dims);
    (*out)->blob = b;
    (*out)->lazy = true;
    (*out)->lazy_whole = true;
    return BASE_OK;
}

struct random_src {
    enum base_dtype dt;
    uint64_t seed;
    double scale;
};

static enum base_status random_read(void *user, int64_t first, int64_t n, void *out)
{
    const struct random_src *r = user;
    base_random_elems(r->dt, r->seed, r->scale, first, n, out);
    return BASE_OK;
}

enum base_status base_tensor_create_random(enum base_dtype dt, int rank, const int64_t *dims, uint64_t seed,
                                           double scale, struct base_tensor **out)
{
    *out = NULL;
    struct random_src *r = malloc(sizeof *r);
    if (!r) return BASE_ERR_NOMEM;
    r->dt = dt;
    r->seed = seed;
    r->scale = scale;
    struct base_lazy_src src = {random_read, free, r};
    /* cppcheck-suppress memleak ; the tensor owns r (released with it, or here on failure) */
    return base_tensor_create_lazy(dt, rank, dims, &src, out);
}

/* Elements [first, first + n) of lazy view t: row by row of its box, each
 * row a contiguous run of the source. */
static enum base_status lazy_view_read(const struct base_tensor *t, int64_t first, int64_t n, char *out)
{
    const struct base_blob *b = t->blob;
    size_t es = base_dtype_size(t->dtype);
    int r = t->rank;
    if (r == 0) return b->src.read(b->src.user, 0, n, out);
    int64_t ss[BASE_MAX_RANK], idx[BASE_MAX_RANK];
    base_shape_strides(r, b->src_dims, ss);
    int64_t lin = first;
    for (int d = r - 1; d >= 0; d--) {
        idx[d] = t->dims[d] ? lin % t->dims[d] : 0;
        lin = t->dims[d] ? lin / t->dims[d] : 0;
    }
    while (n > 0) {
        int64_t src = 0;
        for (int d = 0; d < r; d++) src += (idx[d] + t->lazy_off[d]) * ss[d];
        int64_t run = t->dims[r - 1] - idx[r - 1];
        if (run > n) run = n;
        TRY(b->src.read(b->src.user, src, run, out));
        out += (size_t)run * es;
        n -= run;
        idx[r - 1] += run;
        for (int d = r - 1; d > 0 && idx[d] >= t->dims[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
        }
    }
    return BASE_OK;
}

enum base_status base_tensor_read(const struct base_tensor *t, int64_t first, int64_t n, void *out)
{
    if (n <= 0) return BASE_OK;
    if (first < 0 || first + n > t->count) return BASE_ERR_INVALID;
    size_t es = base_dtype_size(t->dtype);
    if (!t->lazy) {
        memcpy(out, (const char *)t->data + (size_t)first * es, (size_t)n * es);
        return BASE_OK;
    }
    if (t->lazy_whole) return t->blob->src.read(t->blob->src.user, first, n, out);
    return lazy_view_read(t, first, n, out);
}

enum base_status base_tensor_read_box(const struct base_tensor *t, const int64_t *off, const int64_t *size,
                                      struct base_tensor **out)
{
    TRY(base_tensor_create(t->dtype, t->rank, size, out));
    struct base_tensor *o = *out;
    int r = t->rank;
    for (int d = 0; d < r; d++)
        if (off[d] < 0 || size[d] < 0 || off[d] + size[d] > t->dims[d]) {
            base_tensor_release(o);
            *out = NULL;
            return BASE_ERR_INVALID;
        }
    if (o->count == 0) return BASE_OK;
    if (r == 0) return base_tensor_read(t, 0, 1, o->data);
    size_t es = base_dtype_size(t->dtype);
    int64_t ts[BASE_MAX_RANK], idx[BASE_MAX_RANK] = {0};
    base_shape_strides(r, t->dims, ts);
    int64_t row = size[r - 1];
    char *dst = o->data;
    enum base_status st = BASE_OK;
    for (int64_t done = 0; done < o->count && st == BASE_OK; done += row) {
        int64_t at = 0;
        for (int d = 0; d < r; d++) at += (off[d] + idx[d]) * ts[d];
        st = base_tensor_read(t, at, row, dst);
        dst += (size_t)row * es;
        for (int d = r - 2; d >= 0; d--) {
            if (++idx[d] < size[d]) break;
            idx[d] = 0;
        }
    }
    if (st != BASE_OK) {
        base_tensor_release(o);
        *out = NULL;
    }
    return st;
}

enum base_status base_tensor_box(struct base_tensor *t, const int64_t *off, const int64_t *size,
                                 struct base_tensor **out)
{
    const struct base_blob *b = t->blob;
    /* a view of the source needs the source's rank (a reshaped whole one has another) */
    if (!t->lazy || t->rank != b->src_rank || (t->lazy_whole && memcmp(t->dims, b->src_dims, (size_t)t->rank * sizeof t->dims[0])))
        return base_tensor_read_box(t, off, size, out);
    for (int d = 0; d < t->rank; d++)
        if (off[d] < 0 || size[d] < 0 || off[d] + size[d] > t->dims[d]) {
            *out = NULL;
            return BASE_ERR_INVALID;
        }
    TRY(tensor_header(t->dtype, t->rank, size, out));
    struct base_tensor *o = *out;
    atomic_fetch_add(&t->blob->refs, 1);
    o->blob = t->blob;
    o->lazy = true;
    bool whole = true;
    for (int d = 0; d < t->rank; d++) {
        o->lazy_off[d] = (t->lazy_whole ? 0 : t->lazy_off[d]) + off[d];
        if (o->lazy_off[d] != 0 || size[d] != b->src_dims[d]) whole = false;
    }
    o->lazy_whole = whole;
    return BASE_OK;
}

enum base_status base_tensor_materialize(struct base_tensor *t, struct base_tensor **out)
{
    if (!t->lazy) {
        *out = base_tensor_retain(t);
        return BASE_OK;
    }
    return base_tensor_clone(t, out);
}

size_t base_tensor_stored_bytes(const struct base_tensor *t) { return t->lazy ? 0 : base_tensor_nbytes(t); }

struct base_tensor *base_tensor_retain(struct base_tensor *t)
{
    if (t) atomic_fetch_add(&t->refs, 1);
    return t;
}

void base_tensor_release(struct base_tensor *t)
{
    if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
        blob_release(t->blob);
        free(t);
    }
}

size_t base_tensor_nbytes(const struct base_tensor *t)
{
    return (size_t)t->count * base_dtype_size(t->dtype);
}

void base_tensor_type_str(const struct base_tensor *t, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < t->rank && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%lldx", (long long)t->dims[i]);
    if (n < cap) snprintf(buf + n, cap - n, "%s", base_dtype_name(t->dtype));
}
