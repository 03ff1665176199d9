/* Reference-counted tensors with shared, 64-byte aligned storage. */
#include "base/base.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct base_blob {
    atomic_long refs;
    size_t nbytes;
    void *data; /* 64-byte aligned, inside raw */
    void *raw;
};

static struct base_blob *blob_create(size_t nbytes)
{
    struct base_blob *b = malloc(sizeof *b);
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
    TRY(tensor_header(t->dtype, rank, dims, out));
    if ((*out)->count != t->count) {
        free(*out);
        *out = NULL;
        return BASE_ERR_INVALID;
    }
    atomic_fetch_add(&t->blob->refs, 1);
    (*out)->blob = t->blob;
    (*out)->data = t->data;
    return BASE_OK;
}

enum base_status base_tensor_clone(const struct base_tensor *t, struct base_tensor **out)
{
    TRY(base_tensor_create(t->dtype, t->rank, t->dims, out));
    memcpy((*out)->data, t->data, base_tensor_nbytes(t));
    return BASE_OK;
}

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
