/* Views: data-movement ops as strides over a tensor in HBM (cc_internal.h). */
#include "compiler/cc_internal.h"

#include <string.h>

void cc_view_dense(struct cc_view *v, uint64_t addr, enum base_dtype dt, int rank, const int64_t *dims)
{
    memset(v, 0, sizeof *v);
    v->addr = addr;
    v->dtype = dt;
    v->rank = rank;
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        v->dims[d] = dims[d];
        v->strides[d] = s;
        s *= dims[d];
    }
}

int64_t cc_view_count(const struct cc_view *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->rank; d++) n *= v->dims[d];
    return n;
}

bool cc_view_is_dense(const struct cc_view *v)
{
    int64_t s = 1;
    for (int d = v->rank - 1; d >= 0; d--) {
        if (v->dims[d] != 1 && v->strides[d] != s) return false;
        s *= v->dims[d];
    }
    return true;
}

void cc_view_transpose(const struct cc_view *in, const int64_t *perm, struct cc_view *out)
{
    struct cc_view t = *in;
    for (int i = 0; i < in->rank; i++) {
        t.dims[i] = in->dims[perm[i]];
        t.strides[i] = in->strides[perm[i]];
    }
    *out = t;
}

void cc_view_broadcast(const struct cc_view *in, int out_rank, const int64_t *out_dims, const int64_t *bdims,
                       struct cc_view *out)
{
    struct cc_view t = *in;
    t.rank = out_rank;
    for (int d = 0; d < out_rank; d++) {
        t.dims[d] = out_dims[d];
        t.strides[d] = 0;
    }
    for (int i = 0; i < in->rank; i++)
        if (in->dims[i] != 1) t.strides[bdims[i]] = in->strides[i];
    *out = t;
}

void cc_view_slice(const struct cc_view *in, const int64_t *start, const int64_t *limit, const int64_t *stride,
                   struct cc_view *out)
{
    struct cc_view t = *in;
    int64_t off = 0;
    for (int d = 0; d < in->rank; d++) {
        off += start[d] * in->strides[d];
        t.dims[d] = limit[d] > start[d] ? (limit[d] - start[d] + stride[d] - 1) / stride[d] : 0;
        t.strides[d] = in->strides[d] * stride[d];
    }
    t.addr = (uint64_t)((int64_t)in->addr + off * (int64_t)base_dtype_size(in->dtype));
    *out = t;
}

void cc_view_reverse(const struct cc_view *in, const int64_t *dims, int n_dims, struct cc_view *out)
{
    struct cc_view t = *in;
    int64_t off = 0;
    for (int i = 0; i < n_dims; i++) {
        int d = (int)dims[i];
        if (t.dims[d] > 0) off += (t.dims[d] - 1) * t.strides[d];
        t.strides[d] = -t.strides[d];
    }
    t.addr = (uint64_t)((int64_t)in->addr + off * (int64_t)base_dtype_size(in->dtype));
    *out = t;
}

/* The reshape is a view when each group of old dims that maps onto a group
 * of new dims (equal products) is itself contiguous in memory; the new dims
 * of a group then take strides from the group's innermost stride. */
bool cc_view_reshape(const struct cc_view *in, int rank, const int64_t *dims, struct cc_view *out)
{
    struct cc_view t = *in;
    t.rank = rank;
    for (int d = 0; d < rank; d++) t.dims[d] = dims[d];
    int64_t n_new = 1;
    for (int d = 0; d < rank; d++) n_new *= dims[d];
    if (n_new != cc_view_count(in)) return false;
    if (n_new == 0) {
        cc_view_dense(&t, in->addr, in->dtype, rank, dims);
        *out = t;
        return true;
    }
    /* old dims without the size-1 ones (their strides do not matter) */
    int64_t od[BASE_MAX_RANK], os[BASE_MAX_RANK];
    int no = 0;
    for (int d = 0; d < in->rank; d++)
        if (in->dims[d] != 1) od[no] = in->dims[d], os[no++] = in->strides[d];
    int oi = 0, ni = 0;
    while (ni < rank) {
        if (dims[ni] == 1) {
            t.strides[ni++] = 0;
            continue;
        }
        if (oi >= no) return false;
        /* grow the old group [oi, oj) and new group [ni, nj) until the products meet */
        int oj = oi + 1, nj = ni + 1;
        int64_t po = od[oi], pn = dims[ni];
        while (po != pn) {
            if (pn < po) {
                if (nj >= rank) return false;
                pn *= dims[nj++];
            } else {
                if (oj >= no) return false;
                po *= od[oj++];
            }
        }
        for (int k = oi; k + 1 < oj; k++)
            if (os[k] != od[k + 1] * os[k + 1]) return false; /* the group is not one stride run */
        int64_t s = os[oj - 1];
        for (int k = nj - 1; k >= ni; k--) {
            t.strides[k] = dims[k] == 1 ? 0 : s;
            s *= dims[k];
        }
        oi = oj;
        ni = nj;
    }
    if (oi != no) return false;
    *out = t;
    return true;
}

bool cc_view_box_ap(const struct cc_view *v, const struct cc_box *box, int part_dim, const int *free_dims,
                    int n_free, struct isa_ap *ap)
{
    memset(ap, 0, sizeof *ap);
    int64_t esz = (int64_t)base_dtype_size(v->dtype);
    int64_t off = 0;
    for (int d = 0; d < v->rank; d++) off += box->start[d] * v->strides[d];
    ap->space = ISA_SPACE_HBM;
    ap->dtype = (uint8_t)v->dtype;
    ap->addr = (uint64_t)((int64_t)v->addr + off * esz);
    ap->part_start = 0;
    if (part_dim >= 0) {
        if (box->count[part_dim] > ISA_MAX_PARTITIONS) return false;
        ap->part_count = (uint16_t)box->count[part_dim];
        ap->part_stride_bytes = v->strides[part_dim] * esz;
    } else {
        ap->part_count = 1;
    }
    /* free dims, outermost first, skipping count-1 dims, merging runs */
    int64_t st[BASE_MAX_RANK], cn[BASE_MAX_RANK];
    int n = 0;
    for (int i = 0; i < n_free; i++) {
        int d = free_dims[i];
        if (box->count[d] == 1) continue;
        if (n > 0 && st[n - 1] == v->strides[d] * box->count[d]) {
            cn[n - 1] *= box->count[d]; /* dim d continues the previous one */
            st[n - 1] = v->strides[d];
            continue;
        }
        st[n] = v->strides[d];
        cn[n++] = box->count[d];
    }
    if (n > ISA_MAX_DIMS) return false;
    for (int i = 0; i < n; i++) {
        if (cn[i] > UINT32_MAX) return false;
        ap->stride[i] = st[i];
        ap->count[i] = (uint32_t)cn[i];
    }
    ap->ndims = (uint8_t)n;
    return true;
}
