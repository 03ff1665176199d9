/* Walking the bytes of an access pattern: contiguous runs in element order
 * (partition-major, then free dims outermost first), with adjacent dims
 * merged where they are contiguous, so a plain tile is one run per
 * partition.  Raw and f32 gather/scatter for functional execution. */
#include "sim/sim_internal.h"

#include <string.h>

size_t sim_elem_size(const struct isa_ap *ap) { return base_dtype_size((enum base_dtype)ap->dtype); }

struct dim {
    uint64_t count;
    int64_t stride; /* bytes */
};

void sim_ap_runs(const struct isa_ap *ap, sim_run_fn fn, void *ctx)
{
    int64_t esize = (int64_t)sim_elem_size(ap);
    struct dim dims[ISA_MAX_DIMS + 1];
    int n = 0;
    bool hbm = ap->space == ISA_SPACE_HBM;
    if (ap->part_count == 0) return;
    if (hbm && ap->part_count > 1) dims[n++] = (struct dim){ap->part_count, ap->part_stride_bytes};
    for (int d = 0; d < ap->ndims && d < ISA_MAX_DIMS; d++) {
        if (ap->count[d] == 0) return;
        if (ap->count[d] == 1) continue;
        dims[n++] = (struct dim){ap->count[d], ap->stride[d] * esize};
    }
    /* merge contiguous neighbours: outer.stride == inner.stride * inner.count */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && dims[m - 1].stride == dims[i].stride * (int64_t)dims[i].count) {
            dims[m - 1].count *= dims[i].count;
            dims[m - 1].stride = dims[i].stride;
        } else {
            dims[m++] = dims[i];
        }
    }
    n = m;
    uint64_t run = (uint64_t)esize;
    if (n > 0 && dims[n - 1].stride == esize) {
        run = dims[n - 1].count * (uint64_t)esize;
        n--;
    }
    uint32_t p0 = hbm ? 0 : ap->part_start, p1 = hbm ? 1 : (uint32_t)ap->part_start + ap->part_count;
    for (uint32_t p = p0; p < p1; p++) {
        if (n == 0) {
            fn(ctx, p, (int64_t)ap->addr, run);
            continue;
        }
        uint64_t idx[ISA_MAX_DIMS + 1] = {0};
        int64_t off = (int64_t)ap->addr;
        for (;;) {
            fn(ctx, p, off, run);
            int d = n - 1;
            while (d >= 0) {
                off += dims[d].stride;
                if (++idx[d] < dims[d].count) break;
                off -= dims[d].stride * (int64_t)dims[d].count;
                idx[d] = 0;
                d--;
            }
            if (d < 0) break;
        }
    }
}

struct raw_ctx {
    struct sim *s;
    const struct mem_sram *sram;
    uint8_t *buf;
    enum base_status st;
};

static const struct mem_sram *sram_of(struct sim *s, uint32_t core, const struct isa_ap *ap)
{
    return ap->space == ISA_SPACE_SP ? &s->cores[core].sp : ap->space == ISA_SPACE_ACC ? &s->cores[core].acc : NULL;
}

static void gather_run(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct raw_ctx *c = vc;
    if (c->sram)
        memcpy(c->buf, mem_sram_row(c->sram, p) + byte, len);
    else
        mem_hbm_read(&c->s->hbm, (uint64_t)byte, c->buf, len);
    c->buf += len;
}

static void scatter_run(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct raw_ctx *c = vc;
    if (c->sram)
        memcpy(mem_sram_row(c->sram, p) + byte, c->buf, len);
    else if (mem_hbm_write(&c->s->hbm, (uint64_t)byte, c->buf, len) != BASE_OK)
        c->st = BASE_ERR_NOMEM;
    c->buf += len;
}

void sim_gather_raw(struct sim *s, uint32_t core, const struct isa_ap *ap, void *out)
{
    struct raw_ctx c = {s, sram_of(s, core, ap), out, BASE_OK};
    sim_ap_runs(ap, gather_run, &c);
}

enum base_status sim_scatter_raw(struct sim *s, uint32_t core, const struct isa_ap *ap, const void *in)
{
    struct raw_ctx c = {s, sram_of(s, core, ap), (uint8_t *)(uintptr_t)in, BASE_OK};
    sim_ap_runs(ap, scatter_run, &c);
    return c.st;
}

float *sim_gather_f32(struct sim *s, uint32_t core, const struct isa_ap *ap, int which_buf)
{
    size_t n = (size_t)isa_ap_total_elems(ap);
    float *out = sim_buf(s, which_buf, n * sizeof(float));
    if (!out) return NULL;
    if (ap->dtype == BASE_DT_F32) {
        sim_gather_raw(s, core, ap, out);
        return out;
    }
    void *raw = sim_buf(s, SIM_BUF_RAW, n * sim_elem_size(ap));
    if (!raw) return NULL;
    sim_gather_raw(s, core, ap, raw);
    base_convert(BASE_DT_F32, out, (enum base_dtype)ap->dtype, raw, n);
    return out;
}

enum base_status sim_scatter_f32(struct sim *s, uint32_t core, const struct isa_ap *ap, const float *v)
{
    size_t n = (size_t)isa_ap_total_elems(ap);
    if (ap->dtype == BASE_DT_F32) return sim_scatter_raw(s, core, ap, v);
    void *raw = sim_buf(s, SIM_BUF_RAW, n * sim_elem_size(ap));
    if (!raw) return BASE_ERR_NOMEM;
    base_convert((enum base_dtype)ap->dtype, raw, BASE_DT_F32, v, n);
    return sim_scatter_raw(s, core, ap, raw);
}

void sim_convert_via_f32(enum base_dtype dst_dt, void *dst, enum base_dtype src_dt, const void *src, size_t n)
{
    if (dst_dt == BASE_DT_F32 || src_dt == BASE_DT_F32) {
        base_convert(dst_dt, dst, src_dt, src, n);
        return;
    }
    enum { CHUNK = 1024 };
    float tmp[CHUNK];
    size_t ds = base_dtype_size(dst_dt), ss = base_dtype_size(src_dt);
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        base_convert(BASE_DT_F32, tmp, src_dt, (const uint8_t *)src + i * ss, m);
        base_convert(dst_dt, (uint8_t *)dst + i * ds, BASE_DT_F32, tmp, m);
    }
}
