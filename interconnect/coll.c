/* Collectives as schedules of transfers, the chooser and the alpha-beta
 * closed forms (docs/interconnect.md).
 *
 * Ring passes: on a ring of m chips, in step k every member i sends one
 * chunk to its successor; the send depends on the chunk received in step
 * k-1 (and on the member's own previous send).  Reduce-scatter is m-1 such
 * steps (sends from step 1 on carry a reduction first), all-gather m-1
 * steps, all-reduce the two in a row.  A bidirectional ring runs two
 * passes, one each way, on half the data each.  The per-axis algorithm
 * ("torus"; "hierarchical" when the slice axis is one of the axes) does
 * reduce-scatter along each axis of the group in turn on the data left from
 * the previous axis, then all-gather in reverse order.  Each chip's
 * progress is kept as the (up to two) last transfers into it, the
 * dependencies of its next phase. */
#include "interconnect/icn_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const coll_names[] = {
#define X(e, name, f) name,
    ICN_COLLECTIVES(X)
#undef X
};
static const int coll_factor[] = {
#define X(e, name, f) f,
    ICN_COLLECTIVES(X)
#undef X
};
static const char *const alg_names[] = {
#define X(e, name) name,
    ICN_ALGORITHMS(X)
#undef X
};
_Static_assert(ARRAY_LEN(coll_names) == ICN_COLL_COUNT, "collective table");
_Static_assert(ARRAY_LEN(coll_factor) == ICN_COLL_COUNT, "collective table");
_Static_assert(ARRAY_LEN(alg_names) == ICN_ALG_COUNT, "algorithm table");

const char *icn_coll_name(enum icn_coll c) { return (unsigned)c < ICN_COLL_COUNT ? coll_names[c] : "?"; }
const char *icn_alg_name(enum icn_alg a) { return (unsigned)a < ICN_ALG_COUNT ? alg_names[a] : "?"; }

bool icn_coll_parse(const char *s, enum icn_coll *out)
{
    for (int i = 0; i < ICN_COLL_COUNT; i++)
        if (!strcmp(s, coll_names[i])) {
            *out = (enum icn_coll)i;
            return true;
        }
    return false;
}

bool icn_alg_parse(const char *s, enum icn_alg *out)
{
    for (int i = 0; i < ICN_ALG_COUNT; i++)
        if (!strcmp(s, alg_names[i])) {
            *out = (enum icn_alg)i;
            return true;
        }
    return false;
}

bool icn_coll_of_op(enum graph_op_kind k, enum icn_coll *out)
{
    switch (k) {
#define X(e, name, f)                                                                                                  \
    case GRAPH_OP_##e:                                                                                                 \
        if (out) *out = ICN_COLL_##e;                                                                                  \
        return true;
        ICN_COLLECTIVES(X)
#undef X
    default: return false;
    }
}

double icn_busbw_factor(enum icn_coll c, uint32_t n)
{
    if ((unsigned)c >= ICN_COLL_COUNT || n == 0) return 0;
    switch (coll_factor[c]) {
    case 0: return 2.0 * (n - 1) / n;
    case 1: return (double)(n - 1) / n;
    default: return 1.0;
    }
}

/* --------------------------------------------------------------- groups */

/* the torus axes, then the ranks of a chip, then the slice axis */
#define AX_LOCAL ICN_MAX_DIMS
#define AX_SLICE (ICN_MAX_DIMS + 1)
#define N_AXES (ICN_MAX_DIMS + 2)
#define MAX_PARTS ICN_MAX_DIMS

/* The replica groups, checked; and whether each is a Cartesian product of
 * coordinate sets per axis (the per-axis algorithm needs that). */
struct groups {
    uint32_t *ids; /* n_groups * m */
    uint32_t n_groups, m;
    bool cart;     /* every group is a product of per-axis sets */
    bool spans_slices;
};

static uint32_t axis_coord(const struct icn_topo *t, uint32_t rank, uint32_t a)
{
    if (a == AX_LOCAL) return rank % t->ranks_per_chip;
    uint32_t slice, co[ICN_MAX_DIMS];
    icn_chip_coords(t, rank, &slice, co);
    return a == AX_SLICE ? slice : co[a];
}

static uint32_t axis_size(const struct icn_topo *t, uint32_t a)
{
    return a == AX_SLICE ? t->slices : a == AX_LOCAL ? t->ranks_per_chip : t->dims[a];
}

static uint32_t max_axis(const struct icn_topo *t)
{
    uint32_t maxdim = t->slices > t->ranks_per_chip ? t->slices : t->ranks_per_chip;
    for (uint32_t a = 0; a < ICN_MAX_DIMS; a++)
        if (t->dims[a] > maxdim) maxdim = t->dims[a];
    return maxdim;
}

/* Sorted distinct values of axis a over the group g (into vals, of capacity
 * axis_size); returns their count. */
static uint32_t axis_values(const struct icn_topo *t, const uint32_t *g, uint32_t m, uint32_t a, uint32_t *vals,
                            uint8_t *seen)
{
    uint32_t n = axis_size(t, a), k = 0;
    memset(seen, 0, n);
    for (uint32_t i = 0; i < m; i++) seen[axis_coord(t, g[i], a)] = 1;
    for (uint32_t v = 0; v < n; v++)
        if (seen[v]) vals[k++] = v;
    return k;
}

static void groups_free(struct groups *G) { free(G->ids); }

static enum base_status groups_load(const struct icn_topo *t, const struct icn_coll_desc *d, struct groups *G,
                                    struct base_diag *diag)
{
    memset(G, 0, sizeof *G);
    if (d->groups) {
        G->n_groups = d->n_groups;
        G->m = d->group_size;
    } else {
        G->n_groups = 1;
        G->m = t->n_ranks;
    }
    if (G->n_groups == 0 || G->m == 0 || (uint64_t)G->n_groups * G->m > t->n_ranks)
        return base_diag_set(diag, BASE_ERR_INVALID, "replica_groups", 0, 0,
                             "%s: %u groups of %u ranks do not fit %u ranks", icn_coll_name(d->coll), G->n_groups,
                             G->m, t->n_ranks);
    size_t n = (size_t)G->n_groups * G->m;
    G->ids = malloc(n * sizeof *G->ids);
    uint8_t *seen = calloc(t->n_ranks, 1);
    uint32_t maxdim = max_axis(t);
    uint32_t *vals = malloc((size_t)maxdim * sizeof *vals);
    uint8_t *seen_v = malloc(maxdim);
    if (!G->ids || !seen || !vals || !seen_v) {
        free(seen);
        free(vals);
        free(seen_v);
        groups_free(G);
        return BASE_ERR_NOMEM;
    }
    enum base_status st = BASE_OK;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = d->groups ? d->groups[i] : (uint32_t)i;
        if (c >= t->n_ranks || seen[c]) {
            st = base_diag_set(diag, BASE_ERR_INVALID, "replica_groups", 0, 0,
                               "%s: %s %u %s (group %zu)", icn_coll_name(d->coll), t->ranks_per_chip > 1 ? "rank" : "chip",
                               c, c >= t->n_ranks ? "is not in the topology" : "appears twice", i / G->m);
            break;
        }
        seen[c] = 1;
        G->ids[i] = c;
    }
    G->cart = st == BASE_OK;
    for (uint32_t g = 0; st == BASE_OK && g < G->n_groups && G->cart; g++) {
        const uint32_t *ids = G->ids + (size_t)g * G->m;
        uint64_t prod = 1;
        for (uint32_t a = 0; a < N_AXES; a++) {
            uint32_t k = axis_values(t, ids, G->m, a, vals, seen_v);
            prod *= k;
            if (a == AX_SLICE && k > 1) G->spans_slices = true;
        }
        if (prod != G->m) G->cart = false;
    }
    free(seen);
    free(vals);
    free(seen_v);
    if (st) groups_free(G);
    return st;
}

/* -------------------------------------------------------------- builder */

#define ICN_MAX_DIRECT_XFERS (UINT64_C(1) << 24)

struct bld {
    const struct icn_topo *t;
    const struct icn_coll_desc *d;
    struct icn_plan *p;
    uint32_t *ready;  /* per part, 2 per rank: the last transfers into it (ICN_NONE: none) */
    uint32_t *stamp;  /* per part, per rank: the phase that last set ready[] (0: none) */
    uint32_t *sent;   /* per part, 2 per rank: its last sends of the phase (per-axis algorithm) */
    uint32_t part;    /* the part of the buffer being built (per-axis algorithm; else 0) */
    uint32_t cur;     /* the phase being built (1, 2, ...) */
    uint32_t anchor;  /* representative runs: the rank whose progress others copy */
    bool rep;
};

static enum base_status push(struct bld *b, uint32_t src, uint32_t dst, double bytes, uint64_t delay,
                             const uint32_t *deps, uint32_t n_deps, uint32_t *id)
{
    struct icn_plan *p = b->p;
    if (p->n_xfers == p->cap_xfers) {
        uint32_t cap = p->cap_xfers ? 2 * p->cap_xfers : 256;
        struct icn_xfer *x = realloc(p->xfers, (size_t)cap * sizeof *x);
        if (!x) return BASE_ERR_NOMEM;
        p->xfers = x;
        p->cap_xfers = cap;
    }
    while (p->n_deps + n_deps > p->cap_deps) {
        uint32_t cap = p->cap_deps ? 2 * p->cap_deps : 512;
        uint32_t *dd = realloc(p->deps, (size_t)cap * sizeof *dd);
        if (!dd) return BASE_ERR_NOMEM;
        p->deps = dd;
        p->cap_deps = cap;
    }
    struct icn_xfer *x = &p->xfers[p->n_xfers];
    x->src = src;
    x->dst = dst;
    x->bytes = bytes;
    x->delay_ps = delay;
    x->dep_first = p->n_deps;
    x->n_deps = 0;
    for (uint32_t k = 0; k < n_deps; k++) {
        if (deps[k] == ICN_NONE) continue;
        bool dup = false;
        for (uint32_t j = 0; j < x->n_deps; j++) dup |= p->deps[x->dep_first + j] == deps[k];
        if (!dup) p->deps[p->n_deps + x->n_deps++] = deps[k];
    }
    p->n_deps += x->n_deps;
    *id = p->n_xfers++;
    return BASE_OK;
}

static uint64_t reduce_ps(const struct bld *b, double bytes)
{
    double r = b->d->reduce_bytes_per_ns;
    return r > 0 ? event_bytes_to_ps(bytes, r) : 0;
}

/* The chip's start dependencies.  In a representative run a chip whose
 * ring of the previous phase was not simulated (its ready[] is older than
 * that phase) copies the anchor's, which took part in every phase: its
 * ring there is a translate of the chip's (symmetry). */
static void start_of(const struct bld *b, uint32_t chip, uint32_t out[2])
{
    size_t base = (size_t)b->part * b->t->n_ranks;
    uint32_t c = (b->rep && b->stamp[base + chip] + 1 < b->cur) ? b->anchor : chip;
    out[0] = b->ready[2 * (base + c)];
    out[1] = b->ready[2 * (base + c) + 1];
}

static void set_sent(struct bld *b, uint32_t chip, uint32_t a, uint32_t c)
{
    if (!b->sent) return;
    size_t base = (size_t)b->part * b->t->n_ranks;
    b->sent[2 * (base + chip)] = a;
    b->sent[2 * (base + chip) + 1] = c;
}

static void set_ready(struct bld *b, uint32_t chip, uint32_t a, uint32_t c)
{
    size_t base = (size_t)b->part * b->t->n_ranks;
    b->ready[2 * (base + chip)] = a;
    b->ready[2 * (base + chip) + 1] = c;
    b->stamp[base + chip] = b->cur;
}

/* How a part moves along an axis of len members (the file comment). */
enum ax_shape { AX_RING1, AX_HALFRING, AX_LINE };

static enum ax_shape axis_shape(const struct icn_topo *t, uint32_t a, uint32_t len)
{
    /* a switch, the ranks of a chip and the DCN have one port per rank or
     * chip each way: a one-way ring */
    if (a >= ICN_MAX_DIMS || t->kind != ICN_TOPO_TORUS) return AX_RING1;
    /* the whole axis with its wrap links (a ring of 2 has one link each way) */
    if (t->wrap[a] && len == t->dims[a] && len >= 3) return AX_HALFRING;
    return AX_LINE;
}

/* Sequential steps of a pass and, of them, those moving half a chunk. */
static void shape_steps(enum ax_shape sh, uint32_t m, uint32_t *full, uint32_t *half)
{
    *half = 0;
    if (sh == AX_HALFRING) {
        *full = m / 2;
        if (m % 2 == 0) {
            *full -= 1;
            *half = 1;
        }
    } else {
        *full = m - 1;
    }
}

enum pass_kind { PASS_RS, PASS_AG };

/* One pass of `steps` steps over ring[0..m) in direction dir (+1/-1), chunk
 * bytes per send; starts from start[2m]; sends of steps [red_lo, red_hi]
 * reduce first.  last_in[i]: the last transfer into member i. */
static enum base_status ring_pass(struct bld *b, const uint32_t *ring, uint32_t m, int dir, double chunk,
                                  uint32_t steps, uint32_t red_lo, uint32_t red_hi, const uint32_t *start,
                                  uint32_t *last_in, uint32_t *scratch)
{
    uint32_t *prev_send = scratch, *cur_in = scratch + m;
    for (uint32_t i = 0; i < m; i++) prev_send[i] = last_in[i] = ICN_NONE;
    uint64_t red = reduce_ps(b, chunk);
    for (uint32_t k = 0; k < steps; k++) {
        for (uint32_t i = 0; i < m; i++) {
            uint32_t j = (uint32_t)(((int64_t)i + dir + m) % m);
            uint32_t deps[2];
            if (k == 0) {
                deps[0] = start[2 * i];
                deps[1] = start[2 * i + 1];
            } else {
                deps[0] = last_in[i];
                deps[1] = prev_send[i];
            }
            uint64_t delay = (k >= red_lo && k <= red_hi) ? red : 0;
            uint32_t id;
            TRY(push(b, ring[i], ring[j], chunk, delay, deps, 2, &id));
            cur_in[j] = id;
            prev_send[i] = id;
        }
        memcpy(last_in, cur_in, (size_t)m * sizeof *cur_in);
    }
    return BASE_OK;
}

/* Reduce-scatter or all-gather of `bytes` (the per-chip buffer the ring
 * works on) over one ring, one or both directions. */
static enum base_status ring_coll(struct bld *b, const uint32_t *ring, uint32_t m, enum pass_kind kind, double bytes,
                                  bool bidir, uint32_t *scratch)
{
    if (m < 2) return BASE_OK;
    uint32_t *start = scratch, *in_f = start + 2 * m, *in_b = in_f + m, *sc = in_b + m;
    for (uint32_t i = 0; i < m; i++) start_of(b, ring[i], start + 2 * i);
    uint32_t ndir = bidir ? 2 : 1;
    double chunk = bytes / ndir / m;
    uint32_t red_lo = kind == PASS_RS ? 1 : UINT32_MAX, red_hi = kind == PASS_RS ? m - 2 : 0;
    TRY(ring_pass(b, ring, m, +1, chunk, m - 1, red_lo, red_hi, start, in_f, sc));
    for (uint32_t i = 0; i < m; i++) set_sent(b, ring[i], sc[i], ICN_NONE);
    if (bidir) {
        TRY(ring_pass(b, ring, m, -1, chunk, m - 1, red_lo, red_hi, start, in_b, sc));
        if (b->sent)
            for (uint32_t i = 0; i < m; i++) b->sent[2 * ((size_t)b->part * b->t->n_ranks + ring[i]) + 1] = sc[i];
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t a = in_f[i], c = bidir ? in_b[i] : ICN_NONE;
        if (kind == PASS_RS && b->d->reduce_bytes_per_ns > 0) {
            /* the last received chunk(s) reduced into the result */
            uint32_t deps[2] = {a, c}, id;
            TRY(push(b, ring[i], ring[i], 0, reduce_ps(b, chunk * ndir), deps, 2, &id));
            a = id;
            c = ICN_NONE;
        }
        set_ready(b, ring[i], a, c);
    }
    return BASE_OK;
}

/* Reduce-scatter or all-gather of `bytes` per member over ring[0..m)
 * shaped as a bidirectional half-way ring or a line.  Every shard is split
 * Each send moves a chunk of bytes / m (half of one in the step where an
 * even ring's antipodal shard goes both ways, half each way).  Half-way ring: in
 * every step every member sends to both neighbours; m / 2 steps.  Line:
 * direction + (and - mirrored), member at position p sends in the
 * all-gather at steps 0..p (its own shard, then what it received), in the
 * reduce-scatter at steps p..m-2 (its partial sums, each after the one it
 * received); the last position never sends; m - 1 steps.  A send depends on
 * the member's last receive in its direction and its previous send there
 * (its first on the member's start). */
static enum base_status sym_pass(struct bld *b, const uint32_t *ring, uint32_t m, enum pass_kind kind,
                                 enum ax_shape shape, double bytes, uint32_t *scratch)
{
    if (m < 2) return BASE_OK;
    uint32_t *start = scratch, *last_in = start + 2 * m, *prev = last_in + 2 * m, *cur_in = prev + 2 * m;
    for (uint32_t i = 0; i < m; i++) start_of(b, ring[i], start + 2 * i);
    for (uint32_t i = 0; i < 2 * m; i++) last_in[i] = prev[i] = ICN_NONE;
    double c = bytes / m;
    uint32_t full, half;
    shape_steps(shape, m, &full, &half);
    uint32_t steps = full + half;
    for (uint32_t k = 0; k < steps; k++) {
        double chunk = c;
        if (half && ((kind == PASS_AG && k == steps - 1) || (kind == PASS_RS && k == 0))) chunk = c / 2;
        memcpy(cur_in, last_in, (size_t)2 * m * sizeof *cur_in);
        for (uint32_t dir = 0; dir < 2; dir++) {
            for (uint32_t i = 0; i < m; i++) {
                if (shape == AX_LINE) {
                    uint32_t pos = dir == 0 ? i : m - 1 - i;
                    if (pos == m - 1 || (kind == PASS_AG ? k > pos : k < pos)) continue;
                }
                uint32_t j = dir == 0 ? (i + 1) % m : (i + m - 1) % m;
                uint32_t li = last_in[dir * m + i], pv = prev[dir * m + i];
                uint32_t deps[4] = {li, pv, pv == ICN_NONE ? start[2 * i] : ICN_NONE,
                                    pv == ICN_NONE ? start[2 * i + 1] : ICN_NONE};
                uint64_t delay = kind == PASS_RS && li != ICN_NONE ? reduce_ps(b, chunk) : 0;
                uint32_t id;
                TRY(push(b, ring[i], ring[j], chunk, delay, deps, 4, &id));
                cur_in[dir * m + j] = id;
                prev[dir * m + i] = id;
            }
        }
        memcpy(last_in, cur_in, (size_t)2 * m * sizeof *cur_in);
    }
    for (uint32_t i = 0; i < m; i++) {
        set_sent(b, ring[i], prev[i], prev[m + i]);
        uint32_t a = last_in[i], e = last_in[m + i];
        if (kind == PASS_RS && b->d->reduce_bytes_per_ns > 0) {
            /* the last received partial sums reduced into the result */
            uint32_t deps[2] = {a, e}, id;
            double in = (a != ICN_NONE ? c : 0) + (e != ICN_NONE ? c : 0);
            TRY(push(b, ring[i], ring[i], 0, reduce_ps(b, in), deps, 2, &id));
            a = id;
            e = ICN_NONE;
        }
        set_ready(b, ring[i], a, e);
    }
    return BASE_OK;
}

/* The per-axis phases of a Cartesian group g: for each varying axis, the
 * rings along it (members that agree on every other axis), in ring order by
 * coordinate.  fn is called per ring. */
struct axis_set {
    uint32_t n;                 /* varying axes */
    uint32_t axis[N_AXES];
    uint32_t size[N_AXES];      /* ring length along it */
    uint32_t *vals[N_AXES];     /* sorted coordinates */
};

static void axis_set_free(struct axis_set *A)
{
    for (uint32_t i = 0; i < N_AXES; i++) free(A->vals[i]);
}

static enum base_status axis_set_of(const struct icn_topo *t, const uint32_t *g, uint32_t m, struct axis_set *A)
{
    memset(A, 0, sizeof *A);
    uint32_t maxdim = max_axis(t);
    uint8_t *seen = malloc(maxdim);
    if (!seen) return BASE_ERR_NOMEM;
    for (uint32_t a = 0; a < N_AXES; a++) {
        uint32_t *vals = malloc((size_t)maxdim * sizeof *vals);
        if (!vals) {
            free(seen);
            axis_set_free(A);
            return BASE_ERR_NOMEM;
        }
        uint32_t k = axis_values(t, g, m, a, vals, seen);
        if (k < 2) {
            free(vals);
            continue;
        }
        A->axis[A->n] = a;
        A->size[A->n] = k;
        A->vals[A->n] = vals;
        A->n++;
    }
    free(seen);
    return BASE_OK;
}

/* The ring along axis set index ai through chip c. */
static void ring_through(const struct icn_topo *t, const struct axis_set *A, uint32_t ai, uint32_t c, uint32_t *ring)
{
    uint32_t slice, co[ICN_MAX_DIMS], local = c % t->ranks_per_chip;
    icn_chip_coords(t, c, &slice, co);
    uint32_t a = A->axis[ai];
    for (uint32_t i = 0; i < A->size[ai]; i++) {
        if (a == AX_SLICE) slice = A->vals[ai][i];
        else if (a == AX_LOCAL) local = A->vals[ai][i];
        else co[a] = A->vals[ai][i];
        ring[i] = icn_chip_id(t, slice, co) * t->ranks_per_chip + local;
    }
}

/* The parts of the per-axis algorithm for the axis set A: part j visits
 * (for reduce-scatter) the ranks of a chip, then the torus axes rotated by
 * j, then the slices; frac[j][q] is the share of the whole buffer part j
 * works on at its q-th axis. */
struct parts {
    uint32_t n, len;
    uint32_t order[MAX_PARTS][N_AXES]; /* indices into A */
    double frac[MAX_PARTS][N_AXES];
};

static void parts_of(const struct axis_set *A, struct parts *P)
{
    uint32_t chip[N_AXES], nc = 0, loc = ICN_NONE, sl = ICN_NONE;
    for (uint32_t i = 0; i < A->n; i++) {
        if (A->axis[i] == AX_LOCAL) loc = i;
        else if (A->axis[i] == AX_SLICE) sl = i;
        else chip[nc++] = i;
    }
    memset(P, 0, sizeof *P);
    P->n = nc ? nc : 1;
    for (uint32_t j = 0; j < P->n; j++) {
        uint32_t q = 0;
        if (loc != ICN_NONE) P->order[j][q++] = loc;
        for (uint32_t i = 0; i < nc; i++) P->order[j][q++] = chip[(j + i) % nc];
        if (sl != ICN_NONE) P->order[j][q++] = sl;
        P->len = q;
        double f = 1.0 / P->n;
        for (uint32_t k = 0; k < q; k++) {
            P->frac[j][k] = f;
            f /= A->size[P->order[j][k]];
        }
    }
}

/* The parts meet at the end of a phase on every rank a part moved data on
 * in it: one local step on all the parts' last transfers into and out of
 * the rank, the start of each part's next phase there.  So no axis ever
 * carries two parts at once, even where the parts' phases take different
 * times (axes of different lengths or speeds, lines whose ends finish
 * sending after they finish receiving). */
static enum base_status join_parts(struct bld *b, const uint32_t *g, uint32_t m, uint32_t n_parts)
{
    size_t nr = b->t->n_ranks;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t c = g[i];
        bool moved = false;
        for (uint32_t j = 0; j < n_parts; j++) moved |= b->stamp[j * nr + c] == b->cur;
        if (!moved) continue;
        uint32_t deps[4 * MAX_PARTS], nd = 0;
        for (uint32_t j = 0; j < n_parts; j++) {
            b->part = j;
            start_of(b, c, deps + nd);
            nd += 2;
            if (b->stamp[j * nr + c] == b->cur) { /* its own sends in this phase */
                deps[nd++] = b->sent[2 * (j * nr + c)];
                deps[nd++] = b->sent[2 * (j * nr + c) + 1];
            }
        }
        uint32_t id;
        TRY(push(b, c, c, 0, 0, deps, nd, &id));
        for (uint32_t j = 0; j < n_parts; j++) {
            b->part = j;
            set_ready(b, c, id, ICN_NONE);
        }
    }
    b->part = 0;
    return BASE_OK;
}

/* All phases of the per-axis algorithm for group g (the file comment). */
static enum base_status torus_group(struct bld *b, const uint32_t *g, uint32_t m, enum icn_coll coll, double bytes,
                                    uint32_t *scratch, uint32_t *ring)
{
    const struct icn_topo *t = b->t;
    struct axis_set A;
    TRY(axis_set_of(t, g, m, &A));
    struct parts P;
    parts_of(&A, &P);
    enum base_status st = BASE_OK;
    bool do_rs = coll != ICN_COLL_ALL_GATHER, do_ag = coll != ICN_COLL_REDUCE_SCATTER;
    for (uint32_t pass = 0; pass < 2 && st == BASE_OK; pass++) {
        if ((pass == 0 && !do_rs) || (pass == 1 && !do_ag)) continue;
        for (uint32_t k = 0; k < P.len && st == BASE_OK; k++) {
            uint32_t q = pass == 0 ? k : P.len - 1 - k;
            b->cur++;
            for (uint32_t j = 0; j < P.n && st == BASE_OK; j++) {
                b->part = j;
                uint32_t ai = P.order[j][q], a = A.axis[ai], len = A.size[ai];
                enum ax_shape sh = axis_shape(t, a, len);
                double data = bytes * P.frac[j][q];
                /* representative: only the ring through the anchor (its first member) */
                uint32_t only = ICN_NONE;
                if (b->rep) {
                    ring_through(t, &A, ai, b->anchor, ring);
                    only = ring[0];
                }
                /* the rings of this phase: one per member that is first along the axis */
                for (uint32_t i = 0; i < m && st == BASE_OK; i++) {
                    if (axis_coord(t, g[i], a) != A.vals[ai][0]) continue;
                    if (only != ICN_NONE && g[i] != only) continue;
                    ring_through(t, &A, ai, g[i], ring);
                    enum pass_kind kind = pass == 0 ? PASS_RS : PASS_AG;
                    st = sh == AX_RING1 ? ring_coll(b, ring, len, kind, data, false, scratch)
                                        : sym_pass(b, ring, len, kind, sh, data, scratch);
                }
            }
            if (st == BASE_OK && P.n > 1) st = join_parts(b, g, m, P.n);
        }
    }
    b->part = 0;
    axis_set_free(&A);
    return st;
}

/* Binomial tree over g (member 0 the root): up (reduce) and/or down (broadcast). */
static enum base_status tree_group(struct bld *b, const uint32_t *g, uint32_t m, bool up, bool down, double bytes)
{
    uint32_t top = 1;
    while (top < m) top *= 2;
    if (up) {
        for (uint32_t s = 1; s < m; s *= 2)
            for (uint32_t i = s; i < m; i += 2 * s) {
                uint32_t st[2], id;
                start_of(b, g[i], st);
                TRY(push(b, g[i], g[i - s], bytes, 0, st, 2, &id));
                uint32_t pr[2];
                start_of(b, g[i - s], pr);
                uint32_t deps[3] = {id, pr[0], pr[1]}, node;
                TRY(push(b, g[i - s], g[i - s], 0, reduce_ps(b, bytes), deps, 3, &node));
                set_ready(b, g[i - s], node, ICN_NONE);
            }
    }
    if (down) {
        for (uint32_t s = top / 2; s >= 1; s /= 2)
            for (uint32_t i = 0; i + s < m; i += 2 * s) {
                /* a member's sends go one after the other */
                uint32_t st[2], id;
                start_of(b, g[i], st);
                TRY(push(b, g[i], g[i + s], bytes, 0, st, 2, &id));
                set_ready(b, g[i], st[0], id);
                set_ready(b, g[i + s], id, ICN_NONE);
            }
    }
    return BASE_OK;
}

/* Every member sends to every other at once (member i to i+1, i+2, ...;
 * root_only != ICN_NONE: only that member sends), `per` bytes per send;
 * then each member's receives are joined (with the local reduction of
 * `reduce_bytes`, if any). */
static enum base_status direct_group(struct bld *b, const uint32_t *g, uint32_t m, double per, double reduce_bytes,
                                     uint32_t root_only, uint32_t *scratch)
{
    uint32_t base = b->p->n_xfers;
    uint32_t *start = scratch;
    for (uint32_t i = 0; i < m; i++) start_of(b, g[i], start + 2 * i);
    for (uint32_t i = 0; i < m; i++) {
        if (root_only != ICN_NONE && i != root_only) continue;
        for (uint32_t k = 1; k < m; k++) {
            uint32_t id;
            TRY(push(b, g[i], g[(i + k) % m], per, 0, start + 2 * i, 2, &id));
        }
    }
    /* joins: one local node per receiving member on all its receives; the
     * send from i at offset k is transfer base + i (m-1) + k-1 */
    uint32_t *deps = malloc((size_t)m * sizeof *deps);
    if (!deps) return BASE_ERR_NOMEM;
    enum base_status st = BASE_OK;
    bool reduces = reduce_bytes > 0 && b->d->reduce_bytes_per_ns > 0;
    for (uint32_t j = 0; j < m && st == BASE_OK; j++) {
        uint32_t nd = 0;
        if (root_only != ICN_NONE) {
            if (j != root_only) deps[nd++] = base + (j + m - root_only) % m - 1;
        } else {
            for (uint32_t i = 0; i < m; i++)
                if (i != j) deps[nd++] = base + i * (m - 1) + (j + m - i) % m - 1;
        }
        if (nd == 0) continue;
        if (nd == 1 && !reduces) {
            set_ready(b, g[j], deps[0], ICN_NONE);
            continue;
        }
        uint32_t id;
        st = push(b, g[j], g[j], 0, reduce_ps(b, reduce_bytes), deps, nd, &id);
        if (st == BASE_OK) set_ready(b, g[j], id, ICN_NONE);
    }
    free(deps);
    return st;
}

/* Broadcast from member 0 along the chain 0 -> 1 -> ... in `chunks` pieces. */
static enum base_status chain_group(struct bld *b, const uint32_t *g, uint32_t m, double bytes, uint32_t chunks,
                                    uint32_t *scratch)
{
    uint32_t *prev_in = scratch, *prev_send = scratch + m;
    for (uint32_t i = 0; i < m; i++) prev_in[i] = prev_send[i] = ICN_NONE;
    uint32_t st0[2];
    start_of(b, g[0], st0);
    for (uint32_t c = 0; c < chunks; c++)
        for (uint32_t i = 0; i + 1 < m; i++) {
            uint32_t deps[3] = {i == 0 ? st0[0] : prev_in[i], i == 0 ? st0[1] : ICN_NONE, prev_send[i]}, id;
            TRY(push(b, g[i], g[i + 1], bytes / chunks, 0, deps, 3, &id));
            prev_send[i] = id;
            prev_in[i + 1] = id;
        }
    for (uint32_t i = 1; i < m; i++) set_ready(b, g[i], prev_in[i], ICN_NONE);
    return BASE_OK;
}

static uint32_t bcast_chunks(const struct icn_topo *t, const struct icn_coll_desc *d, uint32_t m)
{
    if (d->chunks) return d->chunks;
    /* minimises (m - 2 + C) (alpha + B / (C beta)): C* = sqrt((m - 2) B / (alpha beta)) */
    double alpha = (double)(t->kind == ICN_TOPO_SWITCH ? t->switch_latency_ps : t->dim_latency_ps[0]) / 1000.0;
    double beta = t->kind == ICN_TOPO_SWITCH ? t->switch_bytes_per_ns : t->dim_bytes_per_ns[0];
    double c = alpha > 0 && m > 2 ? sqrt((m - 2) * d->bytes / (alpha * beta)) : 1;
    if (c < 1) c = 1;
    if (c > 256) c = 256;
    return (uint32_t)c;
}

static bool alg_valid(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                      enum icn_alg a)
{
    (void)t;
    switch (d->coll) {
    case ICN_COLL_ALL_REDUCE:
        if (a == ICN_ALG_TREE) return true;
        /* fall through */
    case ICN_COLL_ALL_GATHER:
    case ICN_COLL_REDUCE_SCATTER:
        if (a == ICN_ALG_RING || a == ICN_ALG_BIRING || a == ICN_ALG_DIRECT) return true;
        if (a == ICN_ALG_TORUS) return G->cart && !G->spans_slices;
        if (a == ICN_ALG_HIER) return G->cart && G->spans_slices;
        return false;
    case ICN_COLL_ALL_TO_ALL:
    case ICN_COLL_COLLECTIVE_PERMUTE: return a == ICN_ALG_DIRECT;
    case ICN_COLL_COLLECTIVE_BROADCAST: return a == ICN_ALG_TREE || a == ICN_ALG_DIRECT || a == ICN_ALG_RING;
    default: return false;
    }
}

/* ---------------------------------------------------------- closed forms */

/* One step in which every listed (src -> dst) sends `bytes` at once: the
 * longest route latency plus the busiest link's bytes over its bandwidth
 * (alpha + c B / beta, c the flows sharing the busiest link). */
struct loads {
    const struct icn_topo *t;
    double *bytes;     /* per link */
    uint8_t *in_used;  /* per link: listed in used[] */
    uint32_t *used, n_used;
    uint64_t lat_max;
    uint32_t *route;
};

static enum base_status loads_init(struct loads *L, const struct icn_topo *t)
{
    memset(L, 0, sizeof *L);
    L->t = t;
    L->bytes = calloc(t->n_links, sizeof *L->bytes);
    L->in_used = calloc(t->n_links, 1);
    L->used = malloc((size_t)t->n_links * sizeof *L->used);
    L->route = malloc((size_t)t->max_hops * sizeof *L->route);
    if (!L->bytes || !L->in_used || !L->used || !L->route) return BASE_ERR_NOMEM;
    return BASE_OK;
}

static void loads_free(struct loads *L)
{
    free(L->bytes);
    free(L->in_used);
    free(L->used);
    free(L->route);
}

static void loads_add(struct loads *L, uint32_t src, uint32_t dst, double bytes)
{
    uint64_t lat;
    uint32_t h = icn_route(L->t, src, dst, L->route, &lat);
    if (lat > L->lat_max) L->lat_max = lat;
    for (uint32_t k = 0; k < h; k++) {
        uint32_t l = L->route[k];
        if (!L->in_used[l]) {
            L->in_used[l] = 1;
            L->used[L->n_used++] = l;
        }
        L->bytes[l] += bytes;
    }
}

/* Time of the step so far, then cleared for the next. */
static double loads_take(struct loads *L)
{
    double worst = 0;
    for (uint32_t i = 0; i < L->n_used; i++) {
        uint32_t l = L->used[i];
        struct icn_link_info li;
        icn_link_get(L->t, l, &li);
        double ns = L->bytes[l] / li.bytes_per_ns;
        if (ns > worst) worst = ns;
        L->bytes[l] = 0;
        L->in_used[l] = 0;
    }
    double ps = worst * 1000.0 + (double)L->lat_max;
    L->n_used = 0;
    L->lat_max = 0;
    return ps;
}

static void loads_clear(struct loads *L)
{
    for (uint32_t i = 0; i < L->n_used; i++) {
        L->bytes[L->used[i]] = 0;
        L->in_used[L->used[i]] = 0;
    }
    L->n_used = 0;
    L->lat_max = 0;
}

/* One full step of a pass of shape sh over ring[0..len), chunk bytes per
 * send: eval 0 adds its loads; eval 1 raises *lat to its longest route
 * (ps) and *bw to the time of its busiest link under the loads added (ps). */
static void ring_step(struct loads *L, const uint32_t *ring, uint32_t len, enum ax_shape sh, double chunk, int eval,
                      double *lat, double *bw)
{
    for (uint32_t k = 0; k < len; k++)
        for (int dir = 0; dir < 2; dir++) {
            if (dir == 1 && sh == AX_RING1) continue;
            if (sh == AX_LINE && (dir == 0 ? k + 1 == len : k == 0)) continue;
            uint32_t src = ring[k], dst = ring[dir == 0 ? (k + 1) % len : (k + len - 1) % len];
            if (!eval) {
                loads_add(L, src, dst, chunk);
                continue;
            }
            uint64_t l_ps;
            uint32_t h = icn_route(L->t, src, dst, L->route, &l_ps);
            if ((double)l_ps > *lat) *lat = (double)l_ps;
            for (uint32_t x = 0; x < h; x++) {
                struct icn_link_info li;
                icn_link_get(L->t, L->route[x], &li);
                double ps = L->bytes[L->route[x]] / li.bytes_per_ns * 1000.0;
                if (ps > *bw) *bw = ps;
            }
        }
}

static double red_ps(const struct icn_coll_desc *d, double bytes)
{
    return d->reduce_bytes_per_ns > 0 ? bytes / d->reduce_bytes_per_ns * 1000.0 : 0;
}

static double closed_form_body(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                               enum icn_alg alg, struct loads *L)
{
    uint32_t m = G->m;
    double B = d->bytes;
    if (m < 2 && d->coll != ICN_COLL_COLLECTIVE_PERMUTE) return 0;
    bool rs = d->coll == ICN_COLL_ALL_REDUCE || d->coll == ICN_COLL_REDUCE_SCATTER;
    bool ag = d->coll == ICN_COLL_ALL_REDUCE || d->coll == ICN_COLL_ALL_GATHER;
    double total = 0;
    switch (alg) {
    case ICN_ALG_RING:
    case ICN_ALG_BIRING: {
        uint32_t ndir = alg == ICN_ALG_BIRING ? 2 : 1;
        if (d->coll == ICN_COLL_COLLECTIVE_BROADCAST) {
            uint32_t C = bcast_chunks(t, d, m);
            for (uint32_t g = 0; g < G->n_groups; g++)
                for (uint32_t i = 0; i + 1 < m; i++) loads_add(L, G->ids[g * m + i], G->ids[g * m + i + 1], B / C);
            return (m - 2 + C) * loads_take(L);
        }
        double chunk = B / ndir / m;
        for (uint32_t g = 0; g < G->n_groups; g++)
            for (uint32_t i = 0; i < m; i++) {
                loads_add(L, G->ids[g * m + i], G->ids[g * m + (i + 1) % m], chunk);
                if (ndir == 2) loads_add(L, G->ids[g * m + i], G->ids[g * m + (i + m - 1) % m], chunk);
            }
        double step = loads_take(L);
        uint32_t passes = (uint32_t)rs + (uint32_t)ag;
        /* reductions: one chunk per send of steps 1..m-2, then the last chunk(s) */
        total = passes * (m - 1) * step + (rs ? (m - 2) * red_ps(d, chunk) + red_ps(d, chunk * ndir) : 0);
        return total;
    }
    case ICN_ALG_TORUS:
    case ICN_ALG_HIER: {
        struct axis_set A;
        if (axis_set_of(t, G->ids, m, &A)) return -1;
        uint32_t *ring = malloc((size_t)(m + 1) * sizeof *ring);
        if (!ring) {
            axis_set_free(&A);
            return -1;
        }
        struct parts P;
        parts_of(&A, &P);
        for (uint32_t q = 0; q < P.len; q++) {
            /* every part's rings of this phase load the links at once; each
             * part's step then takes its longest route and its busiest link */
            for (int eval = 0; eval < 2; eval++) {
                double rs_phase = 0, ag_phase = 0;
                for (uint32_t j = 0; j < P.n; j++) {
                    uint32_t ai = P.order[j][q], a = A.axis[ai], len = A.size[ai];
                    enum ax_shape sh = axis_shape(t, a, len);
                    double chunk = B * P.frac[j][q] / len;
                    double lat = 0, bw = 0;
                    for (uint32_t g = 0; g < G->n_groups; g++)
                        for (uint32_t i = 0; i < m; i++) {
                            uint32_t c = G->ids[g * m + i];
                            if (axis_coord(t, c, a) != A.vals[ai][0]) continue;
                            ring_through(t, &A, ai, c, ring);
                            ring_step(L, ring, len, sh, chunk, eval, &lat, &bw);
                        }
                    if (!eval) continue;
                    uint32_t full, half;
                    shape_steps(sh, len, &full, &half);
                    double step = full * (lat + bw) + half * (lat + bw / 2);
                    /* reductions: the sends that forward a partial sum, then the last ones */
                    double red = sh == AX_RING1 ? (len - 2) * red_ps(d, chunk) + red_ps(d, chunk)
                                                : (full + half - 1) * red_ps(d, chunk) + red_ps(d, 2 * chunk);
                    if (step + red > rs_phase) rs_phase = step + red;
                    if (step > ag_phase) ag_phase = step;
                }
                if (eval) total += (rs ? rs_phase : 0) + (ag ? ag_phase : 0);
            }
            loads_clear(L);
        }
        free(ring);
        axis_set_free(&A);
        return total;
    }
    case ICN_ALG_TREE: {
        bool up = d->coll == ICN_COLL_ALL_REDUCE;
        uint32_t top = 1;
        while (top < m) top *= 2;
        for (uint32_t s = 1; up && s < m; s *= 2) {
            for (uint32_t g = 0; g < G->n_groups; g++)
                for (uint32_t i = s; i < m; i += 2 * s) loads_add(L, G->ids[g * m + i], G->ids[g * m + i - s], B);
            total += loads_take(L) + red_ps(d, B);
        }
        for (uint32_t s = top / 2; s >= 1; s /= 2) {
            for (uint32_t g = 0; g < G->n_groups; g++)
                for (uint32_t i = 0; i + s < m; i += 2 * s) loads_add(L, G->ids[g * m + i], G->ids[g * m + i + s], B);
            total += loads_take(L);
        }
        return total;
    }
    case ICN_ALG_DIRECT: {
        if (d->coll == ICN_COLL_COLLECTIVE_PERMUTE) {
            for (uint32_t i = 0; i < d->n_pairs; i++) loads_add(L, d->pairs[2 * i], d->pairs[2 * i + 1], B);
            return loads_take(L);
        }
        double per = (d->coll == ICN_COLL_ALL_REDUCE || d->coll == ICN_COLL_COLLECTIVE_BROADCAST) ? B : B / m;
        for (uint32_t g = 0; g < G->n_groups; g++)
            for (uint32_t i = 0; i < m; i++) {
                if (d->coll == ICN_COLL_COLLECTIVE_BROADCAST && i) break;
                for (uint32_t k = 1; k < m; k++) loads_add(L, G->ids[g * m + i], G->ids[g * m + (i + k) % m], per);
            }
        total = loads_take(L);
        if (rs) total += red_ps(d, per * (m - 1));
        return total;
    }
    default: return -1;
    }
}

/* The schedule's time in the alpha-beta model, the collective's launch
 * included (paid once, before its first transfers). */
static double closed_form(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                          enum icn_alg alg, struct loads *L)
{
    double ps = closed_form_body(t, d, G, alg, L);
    if (ps < 0 || (G->m < 2 && d->coll != ICN_COLL_COLLECTIVE_PERMUTE)) return ps;
    return ps + (double)t->launch_ps;
}

/* Representative runs keep one group only when the groups do not load each
 * other's links: the closed form of all groups at once equals that of the
 * first alone. */
static bool groups_independent(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                               enum icn_alg alg)
{
    if (G->n_groups < 2) return true;
    struct loads L;
    bool ok = false;
    if (loads_init(&L, t) == BASE_OK) {
        struct groups one = *G;
        one.n_groups = 1;
        double all = closed_form(t, d, G, alg, &L), first = closed_form(t, d, &one, alg, &L);
        ok = all >= 0 && first >= 0 && all <= first * (1 + 1e-9);
    }
    loads_free(&L);
    return ok;
}

static enum base_status build(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                              enum icn_alg alg, struct icn_plan *p)
{
    struct bld b = {.t = t, .d = d, .p = p, .cur = 1};
    uint32_t m = G->m;
    size_t slots = (size_t)t->n_ranks * ((alg == ICN_ALG_TORUS || alg == ICN_ALG_HIER) ? MAX_PARTS : 1);
    b.ready = malloc(2 * slots * sizeof *b.ready);
    b.stamp = calloc(slots, sizeof *b.stamp);
    if (alg == ICN_ALG_TORUS || alg == ICN_ALG_HIER) b.sent = malloc(2 * slots * sizeof *b.sent);
    uint8_t *touched = calloc(t->n_ranks, 1);
    uint32_t *scratch = malloc((size_t)(8 * m + 8) * sizeof *scratch);
    uint32_t *ring = malloc((size_t)(m + 1) * sizeof *ring);
    if (!b.ready || !b.stamp || !touched || !scratch || !ring || ((alg == ICN_ALG_TORUS || alg == ICN_ALG_HIER) && !b.sent)) {
        free(b.ready);
        free(b.stamp);
        free(b.sent);
        free(touched);
        free(scratch);
        free(ring);
        return BASE_ERR_NOMEM;
    }
    for (size_t i = 0; i < 2 * slots; i++) b.ready[i] = ICN_NONE;
    for (size_t i = 0; b.sent && i < 2 * slots; i++) b.sent[i] = ICN_NONE;
    b.rep = d->representative && d->coll != ICN_COLL_COLLECTIVE_PERMUTE;
    if (b.rep && !groups_independent(t, d, G, alg)) {
        b.rep = false;
        p->rep_refused = true;
    }
    uint32_t n_groups = b.rep ? 1 : G->n_groups;
    p->groups_simulated = d->coll == ICN_COLL_COLLECTIVE_PERMUTE ? 0 : n_groups;
    enum base_status st = BASE_OK;
    if (d->coll == ICN_COLL_COLLECTIVE_PERMUTE) {
        for (uint32_t i = 0; i < d->n_pairs && st == BASE_OK; i++) {
            uint32_t id, none[1] = {ICN_NONE};
            uint32_t s = d->pairs[2 * i], q = d->pairs[2 * i + 1];
            if (s >= t->n_ranks || q >= t->n_ranks) {
                st = BASE_ERR_INVALID;
                break;
            }
            st = push(&b, s, q, d->bytes, 0, none, 1, &id);
        }
    }
    for (uint32_t gi = 0; gi < n_groups && st == BASE_OK && d->coll != ICN_COLL_COLLECTIVE_PERMUTE; gi++) {
        const uint32_t *g = G->ids + (size_t)gi * m;
        b.anchor = g[0];
        double B = d->bytes;
        if (m < 2) continue;
        switch (alg) {
        case ICN_ALG_RING:
        case ICN_ALG_BIRING: {
            bool bi = alg == ICN_ALG_BIRING;
            if (d->coll == ICN_COLL_COLLECTIVE_BROADCAST) {
                st = chain_group(&b, g, m, B, bcast_chunks(t, d, m), scratch);
                break;
            }
            if (d->coll != ICN_COLL_ALL_GATHER) st = ring_coll(&b, g, m, PASS_RS, B, bi, scratch);
            b.cur++;
            if (st == BASE_OK && d->coll != ICN_COLL_REDUCE_SCATTER) st = ring_coll(&b, g, m, PASS_AG, B, bi, scratch);
            break;
        }
        case ICN_ALG_TORUS:
        case ICN_ALG_HIER: st = torus_group(&b, g, m, d->coll, B, scratch, ring); break;
        case ICN_ALG_TREE:
            st = tree_group(&b, g, m, d->coll == ICN_COLL_ALL_REDUCE, true, B);
            break;
        case ICN_ALG_DIRECT:
            switch (d->coll) {
            case ICN_COLL_ALL_REDUCE: st = direct_group(&b, g, m, B, B * (m - 1), ICN_NONE, scratch); break;
            case ICN_COLL_REDUCE_SCATTER: st = direct_group(&b, g, m, B / m, B / m * (m - 1), ICN_NONE, scratch); break;
            case ICN_COLL_ALL_GATHER:
            case ICN_COLL_ALL_TO_ALL: st = direct_group(&b, g, m, B / m, 0, ICN_NONE, scratch); break;
            case ICN_COLL_COLLECTIVE_BROADCAST: st = direct_group(&b, g, m, B, 0, 0, scratch); break;
            default: st = BASE_ERR_INVALID; break;
            }
            break;
        default: st = BASE_ERR_INVALID; break;
        }
    }
    uint32_t chips = 0;
    if (st == BASE_OK) {
        /* the collective's software launch delays its first transfers */
        for (uint32_t i = 0; t->launch_ps && i < p->n_xfers; i++)
            if (p->xfers[i].n_deps == 0) p->xfers[i].delay_ps += t->launch_ps;
        for (uint32_t i = 0; i < p->n_xfers; i++) {
            chips += !touched[p->xfers[i].src];
            touched[p->xfers[i].src] = 1;
            chips += !touched[p->xfers[i].dst];
            touched[p->xfers[i].dst] = 1;
        }
    }
    p->chips_simulated = chips;
    uint32_t involved = d->coll == ICN_COLL_COLLECTIVE_PERMUTE ? chips : G->n_groups * m;
    p->inferred = st == BASE_OK && chips < involved;
    free(b.ready);
    free(b.stamp);
    free(b.sent);
    free(touched);
    free(scratch);
    free(ring);
    return st;
}

enum base_status icn_plan_build(const struct icn_topo *t, const struct icn_coll_desc *d, struct icn_plan *p,
                                struct base_diag *diag)
{
    memset(p, 0, sizeof *p);
    if (!(d->bytes >= 0) || (unsigned)d->coll >= ICN_COLL_COUNT || (unsigned)d->alg >= ICN_ALG_COUNT)
        return base_diag_set(diag, BASE_ERR_INVALID, "collective", 0, 0, "bad collective, algorithm or size");
    struct groups G;
    TRY(groups_load(t, d, &G, diag));
    enum icn_alg alg = d->alg == ICN_ALG_AUTO ? icn_choose(t, d) : d->alg;
    if (!alg_valid(t, d, &G, alg)) {
        enum base_status st = base_diag_set(
            diag, BASE_ERR_INVALID, "collective", 0, 0, "%s: algorithm %s does not apply%s", icn_coll_name(d->coll),
            icn_alg_name(alg),
            (alg == ICN_ALG_TORUS || alg == ICN_ALG_HIER) ? " (groups must be products of per-axis coordinate sets; "
                                                            "hierarchical when they span slices, torus when not)"
                                                          : " to this collective");
        groups_free(&G);
        return st;
    }
    /* direct schedules grow as m^2 per group: refuse what would not fit in memory */
    if (alg == ICN_ALG_DIRECT && d->coll != ICN_COLL_COLLECTIVE_PERMUTE &&
        (uint64_t)G.m * G.m * (d->representative ? 1 : G.n_groups) > ICN_MAX_DIRECT_XFERS) {
        enum base_status st = base_diag_set(diag, BASE_ERR_LIMIT, "collective", 0, 0,
                                            "%s: a direct schedule over groups of %u chips is too large (%u groups)",
                                            icn_coll_name(d->coll), G.m, G.n_groups);
        groups_free(&G);
        return st;
    }
    p->coll = d->coll;
    p->alg = alg;
    p->group_size = G.m;
    p->n_groups = G.n_groups;
    p->bytes = d->bytes;
    enum base_status st = build(t, d, &G, alg, p);
    groups_free(&G);
    if (st) {
        icn_plan_deinit(p);
        return base_diag_set(diag, st, "collective", 0, 0, "%s: cannot build the %s schedule (%s)",
                             icn_coll_name(d->coll), icn_alg_name(alg), base_status_str(st));
    }
    return BASE_OK;
}

void icn_plan_deinit(struct icn_plan *p)
{
    free(p->xfers);
    free(p->deps);
    memset(p, 0, sizeof *p);
}

/* Direct schedules grow as m^2 (65536 transfers at 256): the chooser leaves
 * them to groups up to a pod. */
#define ICN_DIRECT_MAX_GROUP 256

static enum icn_alg choose(const struct icn_topo *t, const struct icn_coll_desc *d, const struct groups *G,
                           struct loads *L)
{
    /* on equal closed forms the earlier (simpler) one wins: a 1-D ring's
     * per-axis schedule is the bidirectional ring */
    static const enum icn_alg order[] = {ICN_ALG_DIRECT, ICN_ALG_TREE, ICN_ALG_RING, ICN_ALG_BIRING, ICN_ALG_TORUS,
                                         ICN_ALG_HIER};
    enum icn_alg best = ICN_ALG_DIRECT;
    double best_ps = -1;
    for (size_t i = 0; i < ARRAY_LEN(order); i++) {
        enum icn_alg a = order[i];
        if (!alg_valid(t, d, G, a)) continue;
        if (a == ICN_ALG_DIRECT && G->m > ICN_DIRECT_MAX_GROUP && d->coll != ICN_COLL_ALL_TO_ALL &&
            d->coll != ICN_COLL_COLLECTIVE_PERMUTE)
            continue;
        double ps = closed_form(t, d, G, a, L);
        if (ps < 0) continue;
        if (best_ps < 0 || ps < best_ps) {
            best = a;
            best_ps = ps;
        }
    }
    return best;
}

enum icn_alg icn_choose(const struct icn_topo *t, const struct icn_coll_desc *d)
{
    struct groups G;
    if (d->coll == ICN_COLL_ALL_TO_ALL || d->coll == ICN_COLL_COLLECTIVE_PERMUTE) return ICN_ALG_DIRECT;
    if (groups_load(t, d, &G, NULL)) return ICN_ALG_RING;
    struct loads L;
    enum icn_alg a = ICN_ALG_RING;
    if (loads_init(&L, t) == BASE_OK) a = choose(t, d, &G, &L);
    loads_free(&L);
    groups_free(&G);
    return a;
}

double icn_closed_form_ps(const struct icn_topo *t, const struct icn_coll_desc *d, enum icn_alg alg)
{
    struct groups G;
    memset(&G, 0, sizeof G);
    if (d->coll == ICN_COLL_COLLECTIVE_PERMUTE) {
        G.m = 1;
    } else if (groups_load(t, d, &G, NULL)) {
        return -1;
    }
    struct loads L;
    double ps = -1;
    if (loads_init(&L, t) == BASE_OK) {
        if (alg == ICN_ALG_AUTO) alg = d->coll == ICN_COLL_COLLECTIVE_PERMUTE ? ICN_ALG_DIRECT : choose(t, d, &G, &L);
        if (d->coll == ICN_COLL_COLLECTIVE_PERMUTE || alg_valid(t, d, &G, alg)) ps = closed_form(t, d, &G, alg, &L);
    }
    loads_free(&L);
    groups_free(&G);
    return ps;
}
