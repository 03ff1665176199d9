/* The in-memory trace: interned strings, lanes, slices, samples, flows,
 * and its canonical (finalized) form. */
#include "traces/trc_internal.h"

#include <math.h>
#include <stdio.h>

static const char *const lane_kind_names[] = {
#define X(e, name) name,
    TRC_LANE_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(lane_kind_names) == TRC_LANE_KIND_COUNT, "lane_kind_names");
static const char *const slice_kind_names[] = {
#define X(e, name) name,
    TRC_SLICE_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(slice_kind_names) == TRC_SLICE_KIND_COUNT, "slice_kind_names");

static const char *const space_names[] = {
#define X(e, name) name,
    TRC_SPACES(X)
#undef X
};
_Static_assert(sizeof space_names / sizeof space_names[0] == TRC_SPACE_COUNT, "space names");

const char *trc_space_name(uint64_t space) { return space < TRC_SPACE_COUNT ? space_names[space] : NULL; }

const char *trc_lane_kind_name(enum trc_lane_kind k) { return (unsigned)k < TRC_LANE_KIND_COUNT ? lane_kind_names[k] : "?"; }
const char *trc_slice_kind_name(enum trc_slice_kind k)
{
    return (unsigned)k < TRC_SLICE_KIND_COUNT ? slice_kind_names[k] : "?";
}

bool trc_slice_kind_lookup(const char *name, enum trc_slice_kind *out)
{
    for (unsigned i = 0; i < TRC_SLICE_KIND_COUNT; i++)
        if (!strcmp(name, slice_kind_names[i])) {
            *out = (enum trc_slice_kind)i;
            return true;
        }
    return false;
}

bool trc_lane_kind_lookup(const char *name, enum trc_lane_kind *out)
{
    for (unsigned i = 0; i < TRC_LANE_KIND_COUNT; i++)
        if (!strcmp(name, lane_kind_names[i])) {
            *out = (enum trc_lane_kind)i;
            return true;
        }
    return false;
}

double trc_link_gbps(const struct trc_slice *s)
{
    return s->dur_ps ? (double)s->bytes / (double)s->dur_ps * 1000.0 : 0.0; /* bytes/ps x 1000 = GB/s */
}

double trc_link_util(const struct trc_slice *s)
{
    double bw = trc_bits_f64(s->b);
    return bw > 0 && isfinite(bw) ? trc_link_gbps(s) / bw : 0.0;
}

/* ------------------------------------------------------------- strings */

static uint32_t str_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void strtab_free(struct trc_strtab *st)
{
    for (uint32_t i = 0; i < st->n; i++) free(st->s[i]);
    free(st->s);
    free(st->hash);
    memset(st, 0, sizeof *st);
}

static bool strtab_rehash(struct trc_strtab *st, uint32_t hcap)
{
    uint32_t *h = calloc(hcap, sizeof *h);
    if (!h) return false;
    for (uint32_t i = 1; i < st->n; i++) {
        uint32_t j = str_hash(st->s[i]) & (hcap - 1);
        while (h[j]) j = (j + 1) & (hcap - 1);
        h[j] = i + 1;
    }
    free(st->hash);
    st->hash = h;
    st->hcap = hcap;
    return true;
}

/* s[0] = "" */
static bool strtab_init(struct trc_strtab *st)
{
    memset(st, 0, sizeof *st);
    st->s = calloc(16, sizeof *st->s);
    if (!st->s) return false;
    st->cap = 16;
    st->s[0] = calloc(1, 1);
    if (!st->s[0]) return false;
    st->n = 1;
    return strtab_rehash(st, 64);
}

static enum base_status strtab_intern(struct trc_strtab *st, const char *s, uint32_t *id)
{
    *id = 0;
    if (!s || !*s) return BASE_OK;
    if (st->n == 0 && !strtab_init(st)) return BASE_ERR_NOMEM;
    if ((st->n + 1) * 2 > st->hcap && !strtab_rehash(st, st->hcap ? st->hcap * 2 : 64)) return BASE_ERR_NOMEM;
    uint32_t j = str_hash(s) & (st->hcap - 1);
    while (st->hash[j]) {
        if (!strcmp(st->s[st->hash[j] - 1], s)) {
            *id = st->hash[j] - 1;
            return BASE_OK;
        }
        j = (j + 1) & (st->hcap - 1);
    }
    size_t cap = st->cap;
    if (!base_grow((void **)&st->s, &cap, st->n + 1, sizeof *st->s)) return BASE_ERR_NOMEM;
    st->cap = (uint32_t)cap;
    char *c = strdup(s);
    if (!c) return BASE_ERR_NOMEM;
    st->s[st->n] = c;
    st->hash[j] = st->n + 1;
    *id = st->n++;
    return BASE_OK;
}

/* --------------------------------------------------------------- trace */

enum base_status trc_trace_create(struct trc_trace **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return BASE_ERR_NOMEM;
    if (!strtab_init(&(*out)->strings)) {
        trc_trace_destroy(*out);
        *out = NULL;
        return BASE_ERR_NOMEM;
    }
    return BASE_OK;
}

void trc_trace_destroy(struct trc_trace *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        free(t->lanes[i].slices);
        free(t->lanes[i].samples);
    }
    free(t->lanes);
    free(t->flows);
    free(t->meta);
    strtab_free(&t->strings);
    free(t);
}

enum base_status trc_trace_intern(struct trc_trace *t, const char *s, uint32_t *id)
{
    return strtab_intern(&t->strings, s, id);
}

const char *trc_trace_string(const struct trc_trace *t, uint32_t id) { return id < t->strings.n ? t->strings.s[id] : ""; }

enum base_status trc_trace_set_meta(struct trc_trace *t, const char *key, const char *value)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (!strcmp(t->meta[i].key, key)) {
            snprintf(t->meta[i].value, sizeof t->meta[i].value, "%s", value);
            return BASE_OK;
        }
    struct trc_meta_kv *m = realloc(t->meta, (t->n_meta + 1) * sizeof *m);
    if (!m) return BASE_ERR_NOMEM;
    t->meta = m;
    memset(&m[t->n_meta], 0, sizeof m[t->n_meta]);
    snprintf(m[t->n_meta].key, sizeof m->key, "%s", key);
    snprintf(m[t->n_meta].value, sizeof m->value, "%s", value);
    t->n_meta++;
    return BASE_OK;
}

const char *trc_trace_meta(const struct trc_trace *t, const char *key)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (!strcmp(t->meta[i].key, key)) return t->meta[i].value;
    return NULL;
}

enum base_status trc_trace_add_lane(struct trc_trace *t, const struct trc_lane *l, uint32_t *id)
{
    struct trc_lane_data *n = realloc(t->lanes, (t->n_lanes + 1) * sizeof *n);
    if (!n) return BASE_ERR_NOMEM;
    t->lanes = n;
    memset(&n[t->n_lanes], 0, sizeof n[t->n_lanes]);
    n[t->n_lanes].lane = *l;
    if (id) *id = t->n_lanes;
    t->n_lanes++;
    return BASE_OK;
}

enum base_status trc_trace_add_slice(struct trc_trace *t, uint32_t lane, const struct trc_slice *s)
{
    if (lane >= t->n_lanes) return BASE_ERR_INVALID;
    struct trc_lane_data *l = &t->lanes[lane];
    if (!base_grow((void **)&l->slices, &l->cap_slices, l->n_slices + 1, sizeof *l->slices)) return BASE_ERR_NOMEM;
    l->slices[l->n_slices++] = *s;
    return BASE_OK;
}

enum base_status trc_trace_add_sample(struct trc_trace *t, uint32_t lane, uint64_t t_ps, double value)
{
    if (lane >= t->n_lanes) return BASE_ERR_INVALID;
    struct trc_lane_data *l = &t->lanes[lane];
    if (!base_grow((void **)&l->samples, &l->cap_samples, l->n_samples + 1, sizeof *l->samples)) return BASE_ERR_NOMEM;
    l->samples[l->n_samples].t_ps = t_ps;
    l->samples[l->n_samples].value = value;
    l->n_samples++;
    return BASE_OK;
}

enum base_status trc_trace_add_flow(struct trc_trace *t, const struct trc_flow *f)
{
    if (!base_grow((void **)&t->flows, &t->cap_flows, t->n_flows + 1, sizeof *t->flows)) return BASE_ERR_NOMEM;
    t->flows[t->n_flows++] = *f;
    return BASE_OK;
}

/* ------------------------------------------------------------ finalize */

/* Stable merge sort of n elements of size sz by less(). */
typedef bool (*less_fn)(const void *a, const void *b);

static bool msort(void *base, size_t n, size_t sz, less_fn less)
{
    uint8_t *a = base;
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++) sorted = !less(a + i * sz, a + (i - 1) * sz);
    if (sorted) return true;
    uint8_t *tmp = malloc(n * sz);
    if (!tmp) return false;
    uint8_t *src = a, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (less(src + j * sz, src + i * sz)) memcpy(dst + (k++) * sz, src + (j++) * sz, sz);
                else memcpy(dst + (k++) * sz, src + (i++) * sz, sz);
            }
            if (i < mid) memcpy(dst + k * sz, src + i * sz, (mid - i) * sz), k += mid - i;
            if (j < hi) memcpy(dst + k * sz, src + j * sz, (hi - j) * sz);
        }
        uint8_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != a) memcpy(a, src, n * sz);
    free(tmp);
    return true;
}

static bool slice_less(const void *a, const void *b)
{
    const struct trc_slice *x = a, *y = b;
    if (x->start_ps != y->start_ps) return x->start_ps < y->start_ps;
    return x->dur_ps < y->dur_ps; /* a zero-length slice before the one it touches */
}
static bool sample_less(const void *a, const void *b)
{
    return ((const struct trc_sample *)a)->t_ps < ((const struct trc_sample *)b)->t_ps;
}
static bool flow_less(const void *a, const void *b)
{
    const struct trc_flow *x = a, *y = b;
    if (x->from_ps != y->from_ps) return x->from_ps < y->from_ps;
    if (x->to_ps != y->to_ps) return x->to_ps < y->to_ps;
    if (x->from_lane != y->from_lane) return x->from_lane < y->from_lane;
    return x->to_lane < y->to_lane;
}

enum base_status trc_trace_finalize(struct trc_trace *t)
{
    uint64_t end = 0;
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        struct trc_lane_data *l = &t->lanes[i];
        if (!msort(l->slices, l->n_slices, sizeof *l->slices, slice_less)) return BASE_ERR_NOMEM;
        if (!msort(l->samples, l->n_samples, sizeof *l->samples, sample_less)) return BASE_ERR_NOMEM;
        for (size_t k = 0; k < l->n_slices; k++)
            if (l->slices[k].start_ps + l->slices[k].dur_ps > end) end = l->slices[k].start_ps + l->slices[k].dur_ps;
        if (l->n_samples && l->samples[l->n_samples - 1].t_ps > end) end = l->samples[l->n_samples - 1].t_ps;
    }
    if (!msort(t->flows, t->n_flows, sizeof *t->flows, flow_less)) return BASE_ERR_NOMEM;
    t->end_ps = end;
    /* strings in order of first use */
    uint32_t n = t->strings.n ? t->strings.n : 1;
    uint32_t *map = calloc(n, sizeof *map);
    if (!map) return BASE_ERR_NOMEM;
    struct trc_strtab nt;
    memset(&nt, 0, sizeof nt);
    enum base_status st = strtab_init(&nt) ? BASE_OK : BASE_ERR_NOMEM;
    for (uint32_t i = 0; i < t->n_lanes && st == BASE_OK; i++) {
        struct trc_lane_data *l = &t->lanes[i];
        for (size_t k = 0; k < l->n_slices && st == BASE_OK; k++) {
            uint32_t *f[5] = {&l->slices[k].name, &l->slices[k].op, &l->slices[k].loc, &l->slices[k].kernel,
                              &l->slices[k].src};
            for (int j = 0; j < 5 && st == BASE_OK; j++) {
                uint32_t o = *f[j];
                if (o == 0 || o >= n) {
                    *f[j] = 0;
                    continue;
                }
                if (!map[o]) st = strtab_intern(&nt, t->strings.s[o], &map[o]);
                *f[j] = map[o];
            }
        }
    }
    free(map);
    if (st != BASE_OK) {
        strtab_free(&nt);
        return st;
    }
    strtab_free(&t->strings);
    t->strings = nt;
    return BASE_OK;
}

enum base_status trc_trace_validate(const struct trc_trace *t, struct base_diag *diag)
{
    for (uint32_t i = 0; i < t->n_lanes; i++) {
        const struct trc_lane_data *l = &t->lanes[i];
        uint64_t max_end = 0;
        size_t max_k = 0;
        for (size_t k = 0; k < l->n_slices; k++) {
            const struct trc_slice *s = &l->slices[k];
            if (s->name >= t->strings.n || s->op >= t->strings.n || s->loc >= t->strings.n || s->kernel >= t->strings.n ||
                s->src >= t->strings.n)
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "lane %u '%s' slice %zu: string id out of range", i,
                                     l->lane.name, k);
            if (s->kind >= TRC_SLICE_KIND_COUNT)
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "lane %u '%s' slice %zu: kind %u unknown", i,
                                     l->lane.name, k, s->kind);
            if (k > 0 && s->start_ps < l->slices[k - 1].start_ps)
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "lane %u '%s': slice %zu starts before slice %zu",
                                     i, l->lane.name, k, k - 1);
            /* an engine's intervals never overlap; an instruction that
             * completes while an earlier one still occupies the engine is
             * a zero-length slice nested in it */
            if (s->dur_ps == 0) continue;
            if (s->start_ps < max_end)
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                     "lane %u '%s': slice %zu [%llu, +%llu) overlaps slice %zu, which ends at %llu", i,
                                     l->lane.name, k, (unsigned long long)s->start_ps, (unsigned long long)s->dur_ps, max_k,
                                     (unsigned long long)max_end);
            max_end = s->start_ps + s->dur_ps;
            max_k = k;
        }
        for (size_t k = 1; k < l->n_samples; k++)
            if (l->samples[k].t_ps < l->samples[k - 1].t_ps)
                return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "lane %u '%s': sample %zu goes back in time", i,
                                     l->lane.name, k);
    }
    for (size_t k = 0; k < t->n_flows; k++)
        if (t->flows[k].from_lane >= t->n_lanes || t->flows[k].to_lane >= t->n_lanes)
            return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "flow %zu: lane out of range", k);
    return BASE_OK;
}

enum base_status trc_trace_merge(struct trc_trace *dst, const struct trc_trace *src)
{
    uint32_t *map = calloc(src->strings.n ? src->strings.n : 1, sizeof *map);
    if (!map) return BASE_ERR_NOMEM;
    enum base_status st = BASE_OK;
    for (uint32_t i = 1; i < src->strings.n && st == BASE_OK; i++) st = trc_trace_intern(dst, src->strings.s[i], &map[i]);
    for (size_t i = 0; i < src->n_meta && st == BASE_OK; i++)
        if (!trc_trace_meta(dst, src->meta[i].key)) st = trc_trace_set_meta(dst, src->meta[i].key, src->meta[i].value);
    uint32_t lane0 = dst->n_lanes;
    for (uint32_t i = 0; i < src->n_lanes && st == BASE_OK; i++) {
        const struct trc_lane_data *l = &src->lanes[i];
        uint32_t id;
        st = trc_trace_add_lane(dst, &l->lane, &id);
        struct trc_lane_data *d = st == BASE_OK ? &dst->lanes[id] : NULL;
        if (d && l->n_slices) {
            d->slices = malloc(l->n_slices * sizeof *d->slices);
            if (!d->slices) st = BASE_ERR_NOMEM;
            for (size_t k = 0; st == BASE_OK && k < l->n_slices; k++) {
                struct trc_slice s = l->slices[k];
                uint32_t *f[5] = {&s.name, &s.op, &s.loc, &s.kernel, &s.src};
                for (int j = 0; j < 5; j++) *f[j] = *f[j] < src->strings.n ? map[*f[j]] : 0;
                d->slices[k] = s;
            }
            if (st == BASE_OK) d->n_slices = d->cap_slices = l->n_slices;
        }
        if (d && st == BASE_OK && l->n_samples) {
            d->samples = malloc(l->n_samples * sizeof *d->samples);
            if (!d->samples) st = BASE_ERR_NOMEM;
            else {
                memcpy(d->samples, l->samples, l->n_samples * sizeof *d->samples);
                d->n_samples = d->cap_samples = l->n_samples;
            }
        }
    }
    for (size_t k = 0; k < src->n_flows && st == BASE_OK; k++) {
        struct trc_flow f = src->flows[k];
        f.from_lane += lane0;
        f.to_lane += lane0;
        st = trc_trace_add_flow(dst, &f);
    }
    free(map);
    return st == BASE_OK ? trc_trace_finalize(dst) : st;
}
