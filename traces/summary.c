/* Summaries per zoom level (docs/traces.md "Summaries") and the slice
 * record codec shared by the .npt writer and reader. */
#include "traces/trc_internal.h"

void trc_slice_vec_free(struct trc_slice_vec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}
void trc_bucket_vec_free(struct trc_bucket_vec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}
void trc_sample_vec_free(struct trc_sample_vec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}
void trc_flow_vec_free(struct trc_flow_vec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}

uint32_t trc_level_for(uint64_t ps_per_pixel)
{
    uint32_t l = 0;
    while (l < 63 && (ps_per_pixel >> (l + 1))) l++;
    return l;
}

/* A lane that fits in one slice chunk has no summaries: reading its one
 * chunk costs what reading a summary chunk would, and drawing 1024 slices
 * is cheap.  (Tiny summary chunks would also make writing slow: each zlib
 * stream has a fixed cost.) */
#define MIN_SLICES_FOR_SUMMARY (TRC_NPT_SLICES_PER_CHUNK + 1)
/* The finest level's buckets span about this many slices on average. */
#define SLICES_PER_FINEST_BUCKET 8

void trc_lane_level_range(const struct trc_slice *s, size_t n, uint64_t end_ps, uint32_t *min_level,
                          uint32_t *max_level)
{
    uint32_t max = 0;
    while (max < 63 && (end_ps >> max) != 0) max++; /* one bucket [0, 2^max) covers the run */
    *max_level = max;
    if (n < MIN_SLICES_FOR_SUMMARY) {
        *min_level = max + 1;
        return;
    }
    (void)s;
    uint64_t span = end_ps / n * SLICES_PER_FINEST_BUCKET;
    uint32_t min = 0;
    while (min < max && ((uint64_t)1 << min) < span) min++;
    *min_level = min;
}

/* Per-bucket candidates for the dominant op: exact while a bucket holds at
 * most CAND distinct ones (later newcomers are not tracked). */
#define CAND 8
struct acc {
    struct trc_bucket b;
    uint32_t n_cand;
    uint32_t cand_id[CAND];
    uint64_t cand_ps[CAND];
};
struct acc_vec {
    struct acc *v;
    size_t n, cap;
};

static void acc_add(struct acc *a, uint32_t id, uint64_t ps)
{
    for (uint32_t i = 0; i < a->n_cand; i++)
        if (a->cand_id[i] == id) {
            a->cand_ps[i] += ps;
            return;
        }
    if (a->n_cand < CAND) {
        a->cand_id[a->n_cand] = id;
        a->cand_ps[a->n_cand++] = ps;
    }
}

/* The bucket `index` of av (kept sorted): usually the last or a new one;
 * an earlier one for a zero-length slice nested in a long one. */
static struct acc *acc_at(struct acc_vec *av, uint64_t index)
{
    if (av->n && av->v[av->n - 1].b.index == index) return &av->v[av->n - 1];
    size_t at = av->n;
    if (av->n && av->v[av->n - 1].b.index > index) {
        size_t lo = 0, hi = av->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (av->v[mid].b.index < index) lo = mid + 1;
            else hi = mid;
        }
        if (av->v[lo].b.index == index) return &av->v[lo];
        at = lo;
    }
    if (!base_grow((void **)&av->v, &av->cap, av->n + 1, sizeof *av->v)) return NULL;
    memmove(&av->v[at + 1], &av->v[at], (av->n - at) * sizeof *av->v);
    av->n++;
    struct acc *a = &av->v[at];
    memset(a, 0, sizeof *a);
    a->b.index = index;
    return a;
}

static enum base_status level_from_slices(const struct trc_slice *s, size_t n, uint32_t level, struct acc_vec *av)
{
    av->n = 0;
    for (size_t i = 0; i < n; i++) {
        const struct trc_slice *x = &s[i];
        uint64_t t0 = x->start_ps, t1 = x->start_ps + x->dur_ps;
        uint64_t first = t0 >> level;
        bool wait = x->kind == TRC_SLICE_WAIT;
        uint32_t id = x->op ? x->op : x->name;
        struct acc *a = acc_at(av, first);
        if (!a) return BASE_ERR_NOMEM;
        a->b.count++;
        a->b.bytes += x->bytes;
        for (uint64_t b = first;; b++) {
            if (b != first && !(a = acc_at(av, b))) return BASE_ERR_NOMEM;
            uint64_t lo = b << level, hi = lo + ((uint64_t)1 << level);
            uint64_t from = t0 > lo ? t0 : lo, to = t1 < hi ? t1 : hi;
            uint64_t ps = to > from ? to - from : 0;
            if (wait) {
                a->b.wait_ps += ps;
            } else if (ps) {
                a->b.busy_ps += ps;
                acc_add(a, id, ps);
            }
            if (t1 <= hi) break;
        }
    }
    return BASE_OK;
}

/* The next coarser level: buckets 2i and 2i+1 make bucket i.  Sums are
 * exact; candidates merge in time order (exact while at most CAND). */
static enum base_status level_up(const struct acc_vec *child, struct acc_vec *parent)
{
    parent->n = 0;
    for (size_t i = 0; i < child->n; i++) {
        const struct acc *c = &child->v[i];
        struct acc *p = acc_at(parent, c->b.index >> 1);
        if (!p) return BASE_ERR_NOMEM;
        p->b.busy_ps += c->b.busy_ps;
        p->b.wait_ps += c->b.wait_ps;
        p->b.bytes += c->b.bytes;
        p->b.count += c->b.count;
        for (uint32_t k = 0; k < c->n_cand; k++) acc_add(p, c->cand_id[k], c->cand_ps[k]);
    }
    return BASE_OK;
}

/* Buckets with their dominant op (most busy time; ties: the smaller id). */
static enum base_status to_buckets(const struct acc_vec *av, struct trc_bucket_vec *out)
{
    if (!base_grow((void **)&out->v, &out->cap, out->n + av->n, sizeof *out->v)) return BASE_ERR_NOMEM;
    for (size_t i = 0; i < av->n; i++) {
        const struct acc *a = &av->v[i];
        uint32_t best = 0;
        uint64_t best_ps = 0;
        for (uint32_t k = 0; k < a->n_cand; k++)
            if (a->cand_ps[k] > best_ps || (a->cand_ps[k] == best_ps && a->cand_id[k] < best)) {
                best = a->cand_id[k];
                best_ps = a->cand_ps[k];
            }
        out->v[out->n] = a->b;
        out->v[out->n++].dominant = best;
    }
    return BASE_OK;
}

enum base_status trc_summarize(const struct trc_slice *s, size_t n, uint32_t level, struct trc_bucket_vec *out)
{
    struct acc_vec av = {NULL, 0, 0};
    enum base_status st = level_from_slices(s, n, level, &av);
    if (st == BASE_OK) st = to_buckets(&av, out);
    free(av.v);
    return st;
}

enum base_status trc_summarize_levels(const struct trc_slice *s, size_t n, uint32_t lo, uint32_t hi, trc_level_fn emit,
                                      void *user)
{
    struct acc_vec a = {NULL, 0, 0}, b = {NULL, 0, 0};
    struct trc_bucket_vec out = {NULL, 0, 0};
    enum base_status st = lo <= hi ? level_from_slices(s, n, lo, &a) : BASE_OK;
    for (uint32_t level = lo; level <= hi && st == BASE_OK; level++) {
        if (level > lo) {
            st = level_up(&a, &b);
            struct acc_vec t = a;
            a = b;
            b = t;
        }
        out.n = 0;
        if (st == BASE_OK) st = to_buckets(&a, &out);
        if (st == BASE_OK) st = emit(user, level, out.v, out.n);
    }
    free(a.v);
    free(b.v);
    free(out.v);
    return st;
}

/* -------------------------------------------------------- slice codec */

/* Flags of a slice record (two bytes): which fields repeat the previous
 * slice's, so a typical record is the flags and two or three short
 * varints. */
enum {
    F_KIND = 1 << 0, /* kind, name, op, loc, kernel: as the previous slice's */
    F_NAME = 1 << 1,
    F_OP = 1 << 2,
    F_LOC = 1 << 3,
    F_KERNEL = 1 << 4,
    F_FLOPS = 1 << 5, /* flops, b, c, bytes, dur: as the previous slice's */
    F_B = 1 << 6,
    F_C = 1 << 7,
    F_BYTES = 1 << 8,
    F_DUR = 1 << 9,
    F_A1 = 1 << 10,   /* a = the previous slice's a + 1 (the next instruction of a stream) */
    F_GAP0 = 1 << 11, /* starts where the previous slice ends */
    F_SRC = 1 << 12,  /* src: as the previous slice's (version 3) */
    F_ALL = (1 << 13) - 1,
};

static inline uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0); }
static inline int64_t unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

void trc_slice_encode(struct trc_buf *b, const struct trc_slice *s, struct trc_slice *prev)
{
    uint64_t prev_end = prev->start_ps + prev->dur_ps;
    unsigned f = (s->kind == prev->kind ? F_KIND : 0) | (s->name == prev->name ? F_NAME : 0) |
                 (s->op == prev->op ? F_OP : 0) | (s->loc == prev->loc ? F_LOC : 0) |
                 (s->kernel == prev->kernel ? F_KERNEL : 0) | (s->flops == prev->flops ? F_FLOPS : 0) |
                 (s->b == prev->b ? F_B : 0) | (s->c == prev->c ? F_C : 0) | (s->bytes == prev->bytes ? F_BYTES : 0) |
                 (s->dur_ps == prev->dur_ps ? F_DUR : 0) | (s->a == prev->a + 1 ? F_A1 : 0) |
                 (s->start_ps == prev_end ? F_GAP0 : 0) | (s->src == prev->src ? F_SRC : 0);
    trc_buf_le(b, f, 2);
    if (!(f & F_GAP0)) trc_buf_uv(b, zigzag((int64_t)(s->start_ps - prev_end)));
    if (!(f & F_DUR)) trc_buf_uv(b, s->dur_ps);
    if (!(f & F_KIND)) trc_buf_uv(b, s->kind);
    if (!(f & F_NAME)) trc_buf_uv(b, s->name);
    if (!(f & F_OP)) trc_buf_uv(b, s->op);
    if (!(f & F_LOC)) trc_buf_uv(b, s->loc);
    if (!(f & F_KERNEL)) trc_buf_uv(b, s->kernel);
    if (!(f & F_SRC)) trc_buf_uv(b, s->src);
    if (!(f & F_BYTES)) trc_buf_uv(b, s->bytes);
    if (!(f & F_FLOPS)) trc_buf_uv(b, s->flops);
    if (!(f & F_A1)) trc_buf_uv(b, s->a);
    if (!(f & F_B)) trc_buf_uv(b, s->b);
    if (!(f & F_C)) trc_buf_uv(b, s->c);
    *prev = *s;
}

bool trc_slice_decode(struct trc_cur *c, struct trc_slice *s, struct trc_slice *prev)
{
    uint64_t f = trc_cur_le(c, 2);
    memset(s, 0, sizeof *s);
    if (f & ~(uint64_t)F_ALL) return false;
    uint64_t prev_end = prev->start_ps + prev->dur_ps;
    int64_t gap = (f & F_GAP0) ? 0 : unzigzag(trc_cur_uv(c));
    if ((gap < 0 && (uint64_t)-gap > prev_end) || (gap > 0 && (uint64_t)gap > UINT64_MAX - prev_end)) return false;
    s->start_ps = prev_end + (uint64_t)gap;
    s->dur_ps = (f & F_DUR) ? prev->dur_ps : trc_cur_uv(c);
    uint64_t v[5];
    const uint32_t *pv[5] = {&prev->kind, &prev->name, &prev->op, &prev->loc, &prev->kernel};
    for (int i = 0; i < 5; i++) {
        v[i] = (f & (1u << i)) ? *pv[i] : trc_cur_uv(c);
        if (v[i] > UINT32_MAX) return false;
    }
    s->kind = (uint32_t)v[0];
    s->name = (uint32_t)v[1];
    s->op = (uint32_t)v[2];
    s->loc = (uint32_t)v[3];
    s->kernel = (uint32_t)v[4];
    uint64_t src = (f & F_SRC) ? prev->src : trc_cur_uv(c);
    if (src > UINT32_MAX) return false;
    s->src = (uint32_t)src;
    s->bytes = (f & F_BYTES) ? prev->bytes : trc_cur_uv(c);
    s->flops = (f & F_FLOPS) ? prev->flops : trc_cur_uv(c);
    s->a = (f & F_A1) ? prev->a + 1 : trc_cur_uv(c);
    s->b = (f & F_B) ? prev->b : trc_cur_uv(c);
    s->c = (f & F_C) ? prev->c : trc_cur_uv(c);
    *prev = *s;
    return !c->bad && s->dur_ps <= UINT64_MAX - s->start_ps && s->kind < TRC_SLICE_KIND_COUNT;
}
