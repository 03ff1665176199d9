/* The kernel builder (cc_internal.h): engines of a core, scratchpad buffers,
 * dependency-tracked synchronisation, DMA queues, and the tiler. */
#include "compiler/cc_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kernel_kind_names[] = {
#define X(e, name) name,
    X_CC_KERNEL_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(kernel_kind_names) == CC_K_COUNT, "kernel_kind_names");

const char *cc_kernel_kind_name(enum cc_kernel_kind k)
{
    return (unsigned)k < CC_K_COUNT ? kernel_kind_names[k] : "?";
}

const char *cc_f64_limit(const struct cc_target *t)
{
    if (t && t->chip && t->chip->family == CHIP_FAMILY_TPU)
        return "f64 arithmetic: the TPU has no f64 unit (XLA:TPU emulates f64 as pairs of f32, with f32's exponent range "
               "and 48-bit significands, not IEEE f64)";
    return "f64 arithmetic: the NeuronCore has no f64 unit (Neuron's data types are 32, 16 and 8 bits; torch-xla lowers "
           "f64 to f32 on Neuron)";
}

void cc_target_init(struct cc_target *t, const struct chip_desc *chip)
{
    memset(t, 0, sizeof *t);
    t->chip = chip;
    t->vec = t->act = t->pool = -1;
    for (uint32_t i = 0; i < chip->n_engines && i < CHIP_MAX_ENGINES; i++) {
        switch (chip->engines[i].kind) {
        case ISA_ENGINE_SYSTOLIC: t->pe[t->n_pe++] = (int)i; break;
        case ISA_ENGINE_DMA: t->dma[t->n_dma++] = (int)i; break;
        case ISA_ENGINE_VECTOR:
            if (t->vec < 0) t->vec = (int)i;
            break;
        case ISA_ENGINE_SCALAR:
            if (t->act < 0) t->act = (int)i;
            break;
        case ISA_ENGINE_GPSIMD:
            if (t->pool < 0) t->pool = (int)i;
            break;
        default: break;
        }
    }
}

/* ------------------------------------------------------------------ builder */

/* The kernel's name as a program name ([A-Za-z0-9_.-]): "fusion(mul,add)" -> "fusion.mul.add". */
static void program_name(struct isa_program *p, const struct cc_kernel *k)
{
    const char *s = k->info.name[0] ? k->info.name : cc_kernel_kind_name(k->kind);
    size_t n = 0;
    for (; *s && n + 1 < sizeof p->name; s++) {
        char c = *s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
            c == '.')
            p->name[n++] = c;
        else if (c == '(' || c == ',')
            p->name[n++] = '.';
    }
    if (n == 0) p->name[n++] = 'k';
    p->name[n] = 0;
}

struct cc_kb *cc_kb_new(const struct cc_target *t, const struct cc_kernel *k, struct isa_program *out,
                        struct base_diag *diag)
{
    struct cc_kb *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->t = t;
    b->k = k;
    b->prog = out;
    b->diag = diag;
    b->partitions = t->chip->scratchpad.partitions;
    if (b->partitions > ISA_MAX_PARTITIONS) b->partitions = ISA_MAX_PARTITIONS;
    b->sp_bytes = t->chip->scratchpad.bytes_per_partition;
    const struct graph_op *root = k->info.root ? k->info.root : (k->n_ops > 0 ? k->ops[0] : NULL);
    b->tag = root ? root->id : 0;
    if (out && out->name[0] == 0) program_name(out, k);
    return b;
}

void cc_kb_free(struct cc_kb *b) { free(b); }

int cc_kernel_input_index(const struct cc_kernel *k, const struct graph_value *v)
{
    for (int i = 0; i < k->n_in; i++)
        if (k->in[i].value == v) return i;
    return -1;
}

enum base_status cc_kernel_fail(const struct cc_target *t, const struct cc_kernel *k, const struct graph_op *op,
                                struct base_diag *diag, enum base_status st, const char *msg)
{
    const char *name = k->info.name[0] ? k->info.name : cc_kernel_kind_name(k->kind);
    if (op)
        return base_diag_set(diag, st, op->loc.file, op->loc.line, op->loc.col, "kernel %s (%s) on %s: %s", name,
                             op->name, t->chip->name, msg);
    return base_diag_set(diag, st, NULL, 0, 0, "kernel %s on %s: %s", name, t->chip->name, msg);
}

enum base_status cc_kb_fail(struct cc_kb *b, enum base_status st, const char *fmt, ...)
{
    const struct graph_op *root = b->k->info.root ? b->k->info.root : (b->k->n_ops > 0 ? b->k->ops[0] : NULL);
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cc_kernel_fail(b->t, b->k, root, b->diag, st, msg);
}

int cc_kb_buffer(struct cc_kb *b, uint64_t slot_bytes, int slots)
{
    if (slots < 1) slots = 1;
    if (b->n_bufs >= CC_KB_MAX_BUFS || slots > CC_KB_MAX_SLOTS) {
        cc_kb_fail(b, BASE_ERR_LIMIT, "more than %d scratchpad buffers", CC_KB_MAX_BUFS);
        return -1;
    }
    slot_bytes = (slot_bytes + 63) & ~(uint64_t)63;
    if (slot_bytes == 0) slot_bytes = 64;
    uint64_t need = slot_bytes * (uint64_t)slots;
    if (b->sp_top + need > b->sp_bytes) {
        cc_kb_fail(b, BASE_ERR_LIMIT,
                   "scratchpad: %d x %llu bytes per partition do not fit (%llu of %llu bytes per partition in use)",
                   slots, (unsigned long long)slot_bytes, (unsigned long long)b->sp_top,
                   (unsigned long long)b->sp_bytes);
        return -1;
    }
    struct cc_kb_buf *f = &b->bufs[b->n_bufs];
    memset(f, 0, sizeof *f);
    f->addr = b->sp_top;
    f->slot_bytes = slot_bytes;
    f->slots = slots;
    b->sp_top += need;
    return b->n_bufs++;
}

int cc_kb_alias(struct cc_kb *b, int of)
{
    if (of < 0 || of >= b->n_bufs || b->n_bufs >= CC_KB_MAX_BUFS) {
        cc_kb_fail(b, BASE_ERR_LIMIT, "more than %d scratchpad buffers", CC_KB_MAX_BUFS);
        return -1;
    }
    struct cc_kb_buf *f = &b->bufs[b->n_bufs];
    *f = b->bufs[of];
    memset(f->st, 0, sizeof f->st);
    return b->n_bufs++;
}

uint64_t cc_kb_free_bytes(const struct cc_kb *b) { return b->sp_top < b->sp_bytes ? b->sp_bytes - b->sp_top : 0; }

struct isa_ap cc_kb_sp(const struct cc_kb *b, int buf, int slot, uint64_t off, uint32_t p0, uint32_t np,
                       enum base_dtype dt, uint64_t n)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    const struct cc_kb_buf *f = &b->bufs[buf];
    a.space = ISA_SPACE_SP;
    a.dtype = (uint8_t)dt;
    a.part_start = (uint16_t)p0;
    a.part_count = (uint16_t)np;
    a.addr = f->addr + (uint64_t)slot * f->slot_bytes + off;
    if (n > 0) {
        a.ndims = 1;
        a.stride[0] = 1;
        a.count[0] = (uint32_t)n;
    }
    return a;
}

const char *cc_kb_engine_name(const struct cc_kb *b, int engine) { return b->t->chip->engines[engine].name; }

static enum base_status push(struct cc_kb *b, int engine, const struct isa_instr *in)
{
    struct isa_stream *s = isa_program_stream(b->prog, cc_kb_engine_name(b, engine));
    if (!s) return cc_kb_fail(b, BASE_ERR_NOMEM, "cannot add a stream for engine %s", cc_kb_engine_name(b, engine));
    enum base_status st = isa_stream_push(s, in);
    if (st != BASE_OK) {
        uint64_t n = 0;
        for (int i = 0; i < b->prog->n_streams; i++) n += b->prog->streams[i].n;
        return cc_kb_fail(b, st, "%s adding instruction %llu of the kernel's program (%llu bytes each)",
                          st == BASE_ERR_NOMEM ? "out of memory" : base_status_str(st), (unsigned long long)n + 1,
                          (unsigned long long)sizeof *in);
    }
    return BASE_OK;
}

/* Waits of engine e for deps (per engine: signal count needed). */
static enum base_status emit_waits(struct cc_kb *b, int e, const int32_t *deps, struct isa_instr *in)
{
    int n_eng = (int)b->t->chip->n_engines;
    bool folded = false;
    for (int f = 0; f < n_eng; f++) {
        if (f == e || deps[f] <= b->known[e][f]) continue;
        if (!folded && !(in->flags & ISA_FLAG_WAIT)) {
            in->flags |= ISA_FLAG_WAIT;
            in->wait_sem = (uint16_t)f;
            in->wait_value = deps[f];
            folded = true;
        } else {
            struct isa_instr w;
            memset(&w, 0, sizeof w);
            w.op = ISA_OP_SEM_WAIT;
            w.flags = ISA_FLAG_WAIT;
            w.wait_sem = (uint16_t)f;
            w.wait_value = deps[f];
            w.tag = b->tag;
            TRY(push(b, e, &w));
        }
        b->known[e][f] = deps[f];
    }
    return BASE_OK;
}

enum base_status cc_kb_emit_group(struct cc_kb *b, const struct isa_instr *ins, const int *engines, int n,
                                  const struct cc_access *acc, int n_acc)
{
    int32_t deps[CHIP_MAX_ENGINES] = {0};
    for (int a = 0; a < n_acc; a++) {
        const struct cc_kb_slot *s = &b->bufs[acc[a].buf].st[acc[a].slot];
        for (int f = 0; f < CHIP_MAX_ENGINES; f++) {
            if (s->w[f] > deps[f]) deps[f] = s->w[f];
            if ((acc[a].mode & CC_WR) && s->r[f] > deps[f]) deps[f] = s->r[f];
        }
    }
    int32_t done[CHIP_MAX_ENGINES] = {0};
    for (int i = 0; i < n; i++) {
        struct isa_instr in = ins[i];
        int e = engines[i];
        TRY(emit_waits(b, e, deps, &in));
        in.flags |= ISA_FLAG_SIGNAL;
        in.signal_sem = (uint16_t)e;
        in.signal_inc = 1;
        if (!in.tag) in.tag = b->tag;
        TRY(push(b, e, &in));
        done[e] = ++b->signals[e];
    }
    for (int a = 0; a < n_acc; a++) {
        struct cc_kb_slot *s = &b->bufs[acc[a].buf].st[acc[a].slot];
        if (acc[a].mode & CC_WR) {
            memcpy(s->w, done, sizeof s->w);
            memset(s->r, 0, sizeof s->r);
        } else {
            for (int f = 0; f < CHIP_MAX_ENGINES; f++)
                if (done[f] > s->r[f]) s->r[f] = done[f];
        }
    }
    return BASE_OK;
}

enum base_status cc_kb_emit(struct cc_kb *b, int engine, const struct isa_instr *in, const struct cc_access *acc,
                            int n_acc)
{
    return cc_kb_emit_group(b, in, &engine, 1, acc, n_acc);
}

int cc_kb_dma_pieces(const struct cc_kb *b, uint64_t bytes, uint32_t parts)
{
    const struct chip_desc *c = b->t->chip;
    if (b->t->n_dma == 0) return 1;
    const struct chip_engine_desc *q = &c->engines[b->t->dma[0]];
    double rate = q->bytes_per_ns;
    double share = c->hbm.bytes_per_ns / ((double)b->t->n_dma * (c->cores ? c->cores : 1));
    if (share > 0 && share < rate) rate = share;
    double dead_ns = (double)(q->fixed_ps + c->hbm.latency_ps) / 1000.0;
    double min_bytes = 4.0 * dead_ns * rate;
    if (min_bytes < 4096) min_bytes = 4096;
    int64_t p = (int64_t)((double)bytes / min_bytes);
    /* A transfer below that and below the 256 KiB that streamed tiles have at
     * least (pipeline_cap) is a small kernel's lone tile: nothing else wants
     * the queues, and its time is latency-bound, dead + bytes / (pieces x
     * rate); pieces of half the bytes a queue moves during its fixed cost
     * halve it or better. */
    if (p < 1 && bytes < (256u << 10)) {
        double half = dead_ns * rate / 2.0;
        p = (int64_t)((double)bytes / (half > 4096 ? half : 4096));
    }
    if (p > b->t->n_dma) p = b->t->n_dma;
    if (p > (int64_t)parts) p = parts;
    return p < 1 ? 1 : (int)p;
}

void cc_dma_split(const int *qs, int nq, int *next, const struct isa_ap *dst, const struct isa_ap *src, int pieces,
                  struct isa_instr *ins, int *eng, int *n)
{
    uint32_t P = dst->part_count;
    if (src->part_count != P || pieces < 1) pieces = 1;
    if (pieces > (int)P) pieces = (int)P;
    if (pieces > CC_MAX_ENGINES_OF_KIND) pieces = CC_MAX_ENGINES_OF_KIND;
    for (int i = 0; i < pieces; i++) {
        uint32_t p0 = (uint32_t)((uint64_t)P * (uint64_t)i / (uint64_t)pieces);
        uint32_t p1 = (uint32_t)((uint64_t)P * (uint64_t)(i + 1) / (uint64_t)pieces);
        struct isa_instr in;
        memset(&in, 0, sizeof in);
        in.op = ISA_OP_DMA;
        in.dst = *dst;
        in.src0 = *src;
        if (pieces > 1) {
            struct isa_ap *sides[2] = {&in.dst, &in.src0};
            for (int k = 0; k < 2; k++) {
                struct isa_ap *a = sides[k];
                if (a->space == ISA_SPACE_HBM)
                    a->addr = (uint64_t)((int64_t)a->addr + (int64_t)p0 * a->part_stride_bytes);
                else
                    a->part_start = (uint16_t)(a->part_start + p0);
                a->part_count = (uint16_t)(p1 - p0);
            }
        }
        ins[*n] = in;
        eng[(*n)++] = qs[*next % nq];
        *next = (*next + 1) % nq;
    }
}

enum base_status cc_kb_dma(struct cc_kb *b, const struct isa_ap *dst, const struct isa_ap *src,
                           const struct cc_access *acc, int n_acc, int pieces)
{
    if (b->t->n_dma == 0) return cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no DMA queue");
    struct isa_instr ins[CC_MAX_ENGINES_OF_KIND];
    int eng[CC_MAX_ENGINES_OF_KIND], n = 0;
    if (b->dma_q && b->n_dma_q > 0)
        cc_dma_split(b->dma_q, b->n_dma_q, &b->dma_next, dst, src, pieces < b->n_dma_q ? pieces : b->n_dma_q, ins, eng, &n);
    else
        cc_dma_split(b->t->dma, b->t->n_dma, &b->dma_next, dst, src, pieces, ins, eng, &n);
    return cc_kb_emit_group(b, ins, eng, n, acc, n_acc);
}

double cc_kb_elem_ns(const struct cc_target *t, int engine, uint32_t P, uint64_t F, enum base_dtype dt,
                     bool two_in, bool transcendental)
{
    const struct chip_engine_desc *d = &t->chip->engines[engine];
    enum chip_rate_class rc = chip_rate_class_of(dt);
    double epc = two_in && d->elems_per_cycle_2in[rc] > 0 ? d->elems_per_cycle_2in[rc] : d->elems_per_cycle[rc];
    if (epc <= 0) epc = d->elems_per_cycle[CHIP_RATE_FP32] > 0 ? d->elems_per_cycle[CHIP_RATE_FP32] : 1;
    uint32_t lanes = d->lanes ? d->lanes : 1;
    double passes = ceil((double)P / lanes);
    double cycles = d->dispatch_cycles + passes * ceil((double)F / epc) * (transcendental ? d->transcendental_cost : 1);
    return cycles / (d->clock_ghz > 0 ? d->clock_ghz : 1);
}

/* -------------------------------------------------------------------- tiler */

static void region_drop_dim(struct cc_region *r, int n_views, int d)
{
    for (int i = d; i + 1 < r->rank; i++) r->dims[i] = r->dims[i + 1];
    for (int v = 0; v < n_views; v++) {
        struct cc_view *w = &r->views[v];
        for (int i = d; i + 1 < w->rank; i++) {
            w->dims[i] = w->dims[i + 1];
            w->strides[i] = w->strides[i + 1];
        }
        w->rank--;
    }
    r->rank--;
}

/* Drops size-1 dims; merges dims d, d+1 contiguous in every view. */
static void region_canonicalize(struct cc_region *r, int n_views)
{
    for (int d = r->rank - 1; d >= 0; d--)
        if (r->dims[d] == 1) region_drop_dim(r, n_views, d);
    for (int d = r->rank - 2; d >= 0; d--) {
        bool ok = true;
        for (int v = 0; v < n_views && ok; v++)
            ok = r->views[v].strides[d] == r->views[v].strides[d + 1] * r->dims[d + 1];
        if (!ok) continue;
        r->dims[d] *= r->dims[d + 1];
        for (int v = 0; v < n_views; v++) {
            r->views[v].dims[d] = r->dims[d];
            r->views[v].strides[d] = r->views[v].strides[d + 1];
        }
        region_drop_dim(r, n_views, d + 1);
    }
}

/* Splits dim d (extent q * m) into (q, m). */
static void region_split(struct cc_region *r, int n_views, int d, int64_t m)
{
    int64_t q = r->dims[d] / m;
    for (int i = r->rank; i > d + 1; i--) r->dims[i] = r->dims[i - 1];
    r->dims[d] = q;
    r->dims[d + 1] = m;
    for (int v = 0; v < n_views; v++) {
        struct cc_view *w = &r->views[v];
        for (int i = w->rank; i > d + 1; i--) {
            w->dims[i] = w->dims[i - 1];
            w->strides[i] = w->strides[i - 1];
        }
        int64_t s = w->strides[d];
        w->dims[d] = q;
        w->dims[d + 1] = m;
        w->strides[d] = s * m;
        w->strides[d + 1] = s;
        w->rank++;
    }
    r->rank++;
}

/* The largest divisor of n in [lo, hi], or 0. */
static int64_t divisor_in(int64_t n, int64_t lo, int64_t hi)
{
    if (lo < 1) lo = 1;
    for (int64_t m = hi; m >= lo && m > 0; m--)
        if (n % m == 0) return m;
    return 0;
}

/* A tile count for a dim of extent n with at most c elements: a divisor in
 * [c/2, c] when there is one (no ragged last tile), else c. */
static int64_t chunk_of(int64_t n, int64_t c)
{
    if (c >= n) return n;
    if (c < 1) return 1;
    int64_t d = divisor_in(n, (c + 1) / 2, c);
    return d ? d : c;
}

static void region_shape(struct cc_region *r, uint32_t P, int64_t max_free)
{
    int p = r->part_dim;
    for (int d = 0; d < r->rank; d++) r->count[d] = 1;
    r->n_free = 0;
    if (p >= 0) r->count[p] = r->dims[p] < (int64_t)P ? r->dims[p] : (int64_t)P;
    int64_t acc = 1;
    int nf = 0, fd[ISA_MAX_DIMS];
    for (int d = r->rank - 1; d >= 0 && nf < ISA_MAX_DIMS; d--) {
        if (d == p || r->dims[d] == 1) continue;
        if (acc * r->dims[d] <= max_free) {
            r->count[d] = r->dims[d];
            acc *= r->dims[d];
            fd[nf++] = d;
            continue;
        }
        int64_t c = chunk_of(r->dims[d], max_free / acc);
        if (c > 1) {
            r->count[d] = c;
            fd[nf++] = d;
        }
        break;
    }
    for (int i = 0; i < nf; i++) r->free_dims[i] = fd[nf - 1 - i];
    r->n_free = nf;
    r->n_tiles = 1;
    for (int d = 0; d < r->rank; d++) r->n_tiles *= (r->dims[d] + r->count[d] - 1) / r->count[d];
}

static enum base_status plan(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                              int n_views, uint32_t partitions, int64_t max_free, bool keep_dims);

enum base_status cc_tiling_plan(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                                int n_views, uint32_t partitions, int64_t max_free)
{
    return plan(tl, rank, dims, views, n_views, partitions, max_free, false);
}

enum base_status cc_tiling_plan_dims(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                                     int n_views, uint32_t partitions, int64_t max_free)
{
    return plan(tl, rank, dims, views, n_views, partitions, max_free, true);
}

static enum base_status plan(struct cc_tiling *tl, int rank, const int64_t *dims, const struct cc_view *views,
                              int n_views, uint32_t partitions, int64_t max_free, bool keep_dims)
{
    memset(tl, 0, sizeof *tl);
    if (n_views > CC_TILE_MAX_VIEWS || rank > BASE_MAX_RANK - 2) return BASE_ERR_LIMIT;
    if (max_free < 1) max_free = 1;
    tl->n_views = n_views;
    for (int d = 0; d < rank; d++)
        if (dims[d] == 0) return BASE_OK; /* nothing to do: no tiles */
    /* regions still to shape: the first is the whole space */
    struct cc_region *r0 = &tl->r[0];
    r0->rank = rank;
    for (int d = 0; d < rank; d++) r0->dims[d] = dims[d];
    for (int v = 0; v < n_views; v++) r0->views[v] = views[v];
    tl->n_regions = 1;
    for (int ri = 0; ri < tl->n_regions; ri++) {
        struct cc_region *r = &tl->r[ri];
        if (!keep_dims) region_canonicalize(r, n_views);
        if (r->rank == 0) {
            r->rank = 1;
            r->dims[0] = 1;
            for (int v = 0; v < n_views; v++) {
                r->views[v].rank = 1;
                r->views[v].dims[0] = 1;
                r->views[v].strides[0] = 0;
            }
        }
        int p = 0;
        for (int d = 1; d < r->rank; d++)
            if (r->dims[d] > r->dims[p]) p = d;
        int64_t n = r->dims[p], inner = 1;
        for (int d = p + 1; d < r->rank; d++) inner *= r->dims[d];
        if (!keep_dims && n > (int64_t)partitions && inner < max_free && r->rank < BASE_MAX_RANK - 1) {
            int64_t mt = n / partitions;
            if (mt > max_free / inner) mt = max_free / inner;
            if (mt >= 2) {
                int64_t m = divisor_in(n, (mt + 1) / 2, mt);
                if (!m && tl->n_regions < CC_TILE_MAX_REGIONS) {
                    /* main part [n - n % mt] and a tail region */
                    struct cc_region *t = &tl->r[tl->n_regions++];
                    *t = *r;
                    int64_t main = n - n % mt;
                    t->dims[p] = n % mt;
                    for (int v = 0; v < n_views; v++) {
                        struct cc_view *w = &t->views[v];
                        w->dims[p] = t->dims[p];
                        w->addr = (uint64_t)((int64_t)w->addr +
                                             main * w->strides[p] * (int64_t)base_dtype_size(w->dtype));
                    }
                    r->dims[p] = main;
                    for (int v = 0; v < n_views; v++) r->views[v].dims[p] = main;
                    m = mt;
                }
                if (m >= 2) region_split(r, n_views, p, m);
            }
        }
        r->part_dim = p;
        region_shape(r, partitions, max_free);
        tl->n_tiles += r->n_tiles;
    }
    return BASE_OK;
}

void cc_tiling_tile(const struct cc_tiling *tl, int64_t i, int *region, struct cc_box *box)
{
    int ri = 0;
    while (ri + 1 < tl->n_regions && i >= tl->r[ri].n_tiles) i -= tl->r[ri++].n_tiles;
    const struct cc_region *r = &tl->r[ri];
    *region = ri;
    memset(box, 0, sizeof *box);
    for (int d = r->rank - 1; d >= 0; d--) {
        int64_t g = (r->dims[d] + r->count[d] - 1) / r->count[d];
        int64_t k = i % g;
        i /= g;
        box->start[d] = k * r->count[d];
        int64_t c = r->dims[d] - box->start[d];
        box->count[d] = c < r->count[d] ? c : r->count[d];
    }
}

uint32_t cc_tiling_parts(const struct cc_tiling *tl, int region, const struct cc_box *box)
{
    const struct cc_region *r = &tl->r[region];
    return r->part_dim >= 0 ? (uint32_t)box->count[r->part_dim] : 1;
}

uint64_t cc_tiling_free(const struct cc_tiling *tl, int region, const struct cc_box *box)
{
    const struct cc_region *r = &tl->r[region];
    uint64_t f = 1;
    for (int d = 0; d < r->rank; d++)
        if (d != r->part_dim) f *= (uint64_t)box->count[d];
    return f;
}

bool cc_tiling_ap(const struct cc_tiling *tl, int region, int v, const struct cc_box *box, struct isa_ap *ap)
{
    const struct cc_region *r = &tl->r[region];
    return cc_view_box_ap(&r->views[v], box, r->part_dim, r->free_dims, r->n_free, ap);
}

void cc_core_share(int64_t n, const struct cc_emit_ctx *ctx, int64_t *lo, int64_t *hi)
{
    uint32_t nc = ctx && ctx->n_cores ? ctx->n_cores : 1, c = ctx ? ctx->core : 0;
    if (c >= nc) {
        *lo = *hi = n;
        return;
    }
    /* the first n % nc cores take one more; with fewer items than cores,
     * cores 0..n-1 take one each (the rest stay idle) */
    int64_t base = n / nc, rem = n % nc;
    *lo = (int64_t)c * base + ((int64_t)c < rem ? (int64_t)c : rem);
    *hi = *lo + base + ((int64_t)c < rem ? 1 : 0);
}
