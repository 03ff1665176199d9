/* Host access to simulated memory (inputs and outputs), outside simulated
 * time, and the text form of a memory location. */
#include "sim/sim_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool parse_u64(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s) return false;
    *out = v;
    *p = end;
    return true;
}

enum base_status sim_loc_parse(const char *text, struct sim_loc *out, const char **end)
{
    const char *p = text;
    memset(out, 0, sizeof *out);
    if (p[0] == 'c' && p[1] >= '0' && p[1] <= '9') {
        const char *q = p + 1;
        uint64_t core;
        if (!parse_u64(&q, &core) || *q != '.' || core > 1024) return BASE_ERR_PARSE;
        out->core = (uint32_t)core;
        p = q + 1;
    }
    size_t n = strcspn(p, ":");
    if (p[n] != ':') return BASE_ERR_PARSE;
    if (n == 3 && !strncmp(p, "hbm", 3))
        out->space = ISA_SPACE_HBM;
    else if (n == 2 && !strncmp(p, "sp", 2))
        out->space = ISA_SPACE_SP;
    else if (n == 3 && !strncmp(p, "acc", 3))
        out->space = ISA_SPACE_ACC;
    else
        return BASE_ERR_PARSE;
    p += n + 1;
    uint64_t a, b;
    if (!parse_u64(&p, &a)) return BASE_ERR_PARSE;
    if (out->space == ISA_SPACE_HBM) {
        out->addr = a;
    } else {
        if (*p != ':' || a >= ISA_MAX_PARTITIONS) return BASE_ERR_PARSE;
        p++;
        if (!parse_u64(&p, &b)) return BASE_ERR_PARSE;
        out->partition = (uint32_t)a;
        out->addr = b;
    }
    if (end) *end = p;
    return BASE_OK;
}

enum base_status sim_region_parse(const char *text, struct sim_loc *loc, enum base_dtype *dt, int *rank,
                                  int64_t *dims)
{
    const char *p;
    if (sim_loc_parse(text, loc, &p) != BASE_OK || *p != ':') return BASE_ERR_PARSE;
    p++;
    *rank = 0;
    for (;;) {
        uint64_t v;
        if (*p < '0' || *p > '9' || *rank >= BASE_MAX_RANK) return BASE_ERR_PARSE;
        errno = 0;
        char *end;
        unsigned long long u = strtoull(p, &end, 10);
        if (errno || u > (unsigned long long)INT64_MAX) return BASE_ERR_PARSE;
        v = u;
        dims[(*rank)++] = (int64_t)v;
        p = end;
        if (*p == 'x') {
            p++;
            continue;
        }
        if (*p != ':') return BASE_ERR_PARSE;
        p++;
        break;
    }
    return base_dtype_parse(p, strlen(p), dt) ? BASE_OK : BASE_ERR_PARSE;
}

/* The access pattern covering a row-major tensor of `dims` at loc.  Every
 * size and end address is checked arithmetic: an address near 2^64 plus a
 * size must not wrap past the bounds check (exec --inputs x=a.npy@sp:0:
 * 18446744073709551488). */
static enum base_status loc_ap(const struct sim *s, const struct sim_loc *loc, enum base_dtype dt, int rank,
                               const int64_t *dims, struct isa_ap *ap, struct base_diag *diag)
{
    memset(ap, 0, sizeof *ap);
    ap->space = (uint8_t)loc->space;
    ap->dtype = (uint8_t)dt;
    ap->addr = loc->addr;
    if (loc->core >= s->chip.cores)
        return base_diag_set(diag, BASE_ERR_INVALID, "<host>", 0, 0, "core %u: chip %s has %u cores", loc->core,
                             s->chip.name, s->chip.cores);
    int64_t count = rank >= 0 && rank <= BASE_MAX_RANK ? base_shape_count(rank, dims) : -1;
    if (count < 0 || (unsigned)dt >= BASE_DT_COUNT)
        return base_diag_set(diag, BASE_ERR_LIMIT, "<host>", 0, 0,
                             "a tensor of rank %d with a negative dim or more than %lld elements", rank,
                             (long long)BASE_MAX_ELEMS);
    uint64_t es = base_dtype_size(dt), end;
    if (loc->space == ISA_SPACE_HBM) {
        if (!base_add_u64(loc->addr, (uint64_t)count * es, &end) || end > s->hbm.capacity_bytes)
            return base_diag_set(diag, BASE_ERR_CHECK, "<host>", 0, 0,
                                 "hbm bytes [0x%llx, +%lld elements) beyond the %llu-byte HBM",
                                 (unsigned long long)loc->addr, (long long)count,
                                 (unsigned long long)s->hbm.capacity_bytes);
        /* a pattern's counts are 32-bit: the tensor's dims, innermost first,
         * grouped into at most ISA_MAX_DIMS runs of fewer than 2^32
         * elements (a step's activations can hold more in all) */
        uint64_t run[ISA_MAX_DIMS], cur = 1;
        int n = 0;
        for (int d = rank - 1; d >= 0 && n < ISA_MAX_DIMS; d--) {
            uint64_t dn = (uint64_t)dims[d];
            if (cur > 1 && dn > UINT32_MAX / cur) run[n++] = cur, cur = 1;
            cur *= dn;
        }
        if (n < ISA_MAX_DIMS) run[n++] = cur;
        uint64_t covered = 1;
        bool fits = true;
        for (int i = 0; i < n; i++) {
            covered *= run[i];
            fits &= run[i] <= UINT32_MAX;
        }
        if (covered != (uint64_t)count || !fits)
            return base_diag_set(diag, BASE_ERR_LIMIT, "<host>", 0, 0,
                                 "a tensor of %lld elements whose dims do not group into %d runs of fewer than 2^32",
                                 (long long)count, ISA_MAX_DIMS);
        ap->part_count = 1;
        ap->ndims = (uint8_t)n;
        int64_t stride = 1;
        for (int i = 0; i < n; i++) { /* outermost first */
            ap->count[n - 1 - i] = (uint32_t)run[i];
            ap->stride[n - 1 - i] = stride;
            stride *= (int64_t)run[i];
        }
        return BASE_OK;
    }
    if (loc->space != ISA_SPACE_SP && loc->space != ISA_SPACE_ACC)
        return base_diag_set(diag, BASE_ERR_INVALID, "<host>", 0, 0, "no memory space %u", loc->space);
    const struct mem_sram *m = loc->space == ISA_SPACE_SP ? &s->cores[loc->core].sp : &s->cores[loc->core].acc;
    int64_t parts = rank >= 1 ? dims[0] : 1, per = rank >= 1 && dims[0] ? count / dims[0] : count;
    if (rank >= 1 && dims[0] == 0) per = 0;
    if (parts < 1 || (uint64_t)parts > m->partitions || loc->partition > m->partitions - (uint64_t)parts)
        return base_diag_set(diag, BASE_ERR_CHECK, "<host>", 0, 0, "%s partitions %u..+%lld outside its %u partitions",
                             isa_space_name(loc->space), loc->partition, (long long)parts, m->partitions);
    if (per > UINT32_MAX || !base_add_u64(loc->addr, (uint64_t)per * es, &end) || end > m->bytes_per_partition)
        return base_diag_set(diag, BASE_ERR_CHECK, "<host>", 0, 0,
                             "%s bytes [0x%llx, +%llu) of a partition overflow its %llu bytes",
                             isa_space_name(loc->space), (unsigned long long)loc->addr,
                             (unsigned long long)((uint64_t)per * es), (unsigned long long)m->bytes_per_partition);
    ap->part_start = (uint16_t)loc->partition;
    ap->part_count = (uint16_t)parts;
    ap->ndims = 1;
    ap->count[0] = (uint32_t)per;
    ap->stride[0] = 1;
    return BASE_OK;
}

struct mark {
    struct sim *s;
    uint32_t core;
    uint8_t space;
    enum base_status st;
};

static void mark_run(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct mark *m = vc;
    if (m->space == ISA_SPACE_HBM) {
        if (mem_hbm_mark_written(&m->s->hbm, (uint64_t)byte, (uint64_t)byte + len) != BASE_OK) m->st = BASE_ERR_NOMEM;
    } else {
        struct sim_core *co = &m->s->cores[m->core];
        mem_sram_mark_written(m->space == ISA_SPACE_SP ? &co->sp : &co->acc, p, (uint64_t)byte, (uint64_t)byte + len);
    }
}

enum base_status sim_write_tensor(struct sim *s, const struct sim_loc *loc, const struct base_tensor *t,
                                  struct base_diag *diag)
{
    struct isa_ap ap;
    TRY(loc_ap(s, loc, t->dtype, t->rank, t->dims, &ap, diag));
    if (t->count == 0) return BASE_OK;
    if (!s->opt.timing_only && t->lazy && ap.space == ISA_SPACE_HBM) {
        /* a lazy region: its values are computed when read, never stored whole */
        enum base_status st = mem_hbm_map_lazy(&s->hbm, loc->addr, (struct base_tensor *)(uintptr_t)t);
        if (st != BASE_OK)
            return base_diag_set(diag, st, "<host>", 0, 0, "%s mapping a lazy tensor of %zu bytes at hbm:0x%llx",
                                 st == BASE_ERR_NOMEM ? "out of memory" : "overlapping regions",
                                 base_tensor_nbytes(t), (unsigned long long)loc->addr);
    } else if (!s->opt.timing_only) {
        struct base_tensor *d = NULL;
        enum base_status st = base_tensor_materialize((struct base_tensor *)(uintptr_t)t, &d);
        if (st == BASE_OK) st = sim_scatter_raw(s, loc->core, &ap, d->data);
        base_tensor_release(d);
        if (st != BASE_OK)
            return base_diag_set(diag, st, "<host>", 0, 0, "%s writing a tensor of %zu bytes",
                                 st == BASE_ERR_NOMEM ? "out of memory" : base_status_str(st), base_tensor_nbytes(t));
    }
    struct mark m = {s, loc->core, ap.space, BASE_OK};
    sim_ap_runs(&ap, mark_run, &m);
    if (m.st != BASE_OK) return base_diag_set(diag, m.st, "<host>", 0, 0, "out of memory writing a tensor");
    /* the host's writes happen before everything: no engine has them on record */
    return BASE_OK;
}

enum base_status sim_read_tensor(struct sim *s, const struct sim_loc *loc, enum base_dtype dt, int rank,
                                 const int64_t *dims, struct base_tensor **out, struct base_diag *diag)
{
    *out = NULL;
    if (s->opt.timing_only)
        return base_diag_set(diag, BASE_ERR_UNSUPPORTED, "<host>", 0, 0, "a timing-only run stores no values to read");
    struct isa_ap ap;
    TRY(loc_ap(s, loc, dt, rank, dims, &ap, diag));
    enum base_status st = base_tensor_create(dt, rank, dims, out);
    if (st != BASE_OK) return base_diag_set(diag, st, "<host>", 0, 0, "cannot create a %d-d tensor", rank);
    if ((*out)->count) sim_gather_raw(s, loc->core, &ap, (*out)->data);
    return BASE_OK;
}
