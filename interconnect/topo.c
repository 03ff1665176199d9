/* Topologies, link ids and deterministic routes (interconnect.h). */
#include "interconnect/icn_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char axis_name[ICN_MAX_DIMS] = {'x', 'y', 'z'};

static uint32_t ici_links_per_chip(const struct icn_topo *t)
{
    return t->kind == ICN_TOPO_TORUS ? 2 * t->ndims : 2;
}

static uint32_t dcn_base(const struct icn_topo *t) { return t->n_chips * ici_links_per_chip(t); }
static uint32_t local_base(const struct icn_topo *t) { return dcn_base(t) + (t->slices > 1 ? 2 * t->n_chips : 0); }

/* n_chips, n_ranks, n_links, max_hops and desc from the rest. */
static void finish(struct icn_topo *t)
{
    if (t->ranks_per_chip == 0) t->ranks_per_chip = 1;
    t->n_chips = t->slice_chips * t->slices;
    t->n_ranks = t->n_chips * t->ranks_per_chip;
    t->n_links = local_base(t) + (t->ranks_per_chip > 1 ? 2 * t->n_ranks : 0);
    uint32_t h = 0;
    if (t->kind == ICN_TOPO_TORUS) {
        for (uint32_t d = 0; d < t->ndims; d++) h += t->wrap[d] ? t->dims[d] / 2 : t->dims[d] - 1;
    } else {
        h = 2;
    }
    if ((t->slices > 1 || t->ranks_per_chip > 1) && h < 2) h = 2;
    t->max_hops = h ? h : 1;
    char *p = t->desc;
    size_t cap = sizeof t->desc;
    int n;
    if (t->kind == ICN_TOPO_TORUS) {
        n = 0;
        for (uint32_t d = 0; d < t->ndims; d++)
            n += snprintf(p + n, cap - (size_t)n, "%s%u", d ? "x" : "", t->dims[d]);
        n += snprintf(p + n, cap - (size_t)n, " %s", t->ndims == 1 ? "ring" : "torus");
        bool any = false;
        for (uint32_t d = 0; d < t->ndims; d++) any |= t->wrap[d];
        if (!any) {
            n += snprintf(p + n, cap - (size_t)n, " (no wrap)");
        } else if (t->ndims > 1) {
            n += snprintf(p + n, cap - (size_t)n, " (wrap");
            for (uint32_t d = 0; d < t->ndims; d++)
                if (t->wrap[d]) n += snprintf(p + n, cap - (size_t)n, " %c", axis_name[d]);
            n += snprintf(p + n, cap - (size_t)n, ")");
        }
    } else {
        n = snprintf(p, cap, "switch of %u", t->slice_chips);
    }
    if (t->slices > 1 && n >= 0 && (size_t)n < cap) n += snprintf(p + n, cap - (size_t)n, ", %u slices over DCN", t->slices);
    if (t->ranks_per_chip > 1 && n >= 0 && (size_t)n < cap)
        snprintf(p + n, cap - (size_t)n, ", %u ranks per chip", t->ranks_per_chip);
}

enum base_status icn_topo_torus(struct icn_topo *t, uint32_t ndims, const uint32_t *dims, const bool *wrap,
                                double bytes_per_ns, uint64_t latency_ps)
{
    memset(t, 0, sizeof *t);
    if (ndims < 1 || ndims > ICN_MAX_DIMS || !(bytes_per_ns > 0)) return BASE_ERR_INVALID;
    t->kind = ICN_TOPO_TORUS;
    uint64_t chips = 1;
    for (uint32_t d = 0; d < ndims; d++) {
        if (dims[d] == 0) return BASE_ERR_INVALID;
        chips *= dims[d];
        if (chips > (UINT64_C(1) << 24)) return BASE_ERR_LIMIT;
        if (dims[d] == 1) continue; /* an axis of one chip has no links */
        uint32_t k = t->ndims++;
        t->dims[k] = dims[d];
        t->wrap[k] = wrap ? wrap[d] : false;
    }
    if (t->ndims == 0) {
        t->ndims = 1;
        t->dims[0] = 1;
    }
    for (uint32_t d = 0; d < ICN_MAX_DIMS; d++) {
        if (d >= t->ndims) t->dims[d] = 1;
        t->dim_bytes_per_ns[d] = bytes_per_ns;
        t->dim_latency_ps[d] = latency_ps;
    }
    t->slice_chips = (uint32_t)chips;
    t->slices = 1;
    t->dcn = icn_dcn_default();
    finish(t);
    return BASE_OK;
}

enum base_status icn_topo_switch(struct icn_topo *t, uint32_t n, double bytes_per_ns, uint64_t latency_ps)
{
    memset(t, 0, sizeof *t);
    if (n == 0 || n > (1u << 24) || !(bytes_per_ns > 0)) return BASE_ERR_INVALID;
    t->kind = ICN_TOPO_SWITCH;
    t->ndims = 1;
    t->dims[0] = n;
    t->dims[1] = t->dims[2] = 1;
    t->switch_bytes_per_ns = bytes_per_ns;
    t->switch_latency_ps = latency_ps;
    t->slice_chips = n;
    t->slices = 1;
    t->dcn = icn_dcn_default();
    finish(t);
    return BASE_OK;
}

enum base_status icn_topo_multislice(struct icn_topo *t, uint32_t slices, const struct icn_dcn *dcn)
{
    if (slices == 0 || (uint64_t)slices * t->slice_chips * (t->ranks_per_chip ? t->ranks_per_chip : 1) > (UINT64_C(1) << 24))
        return BASE_ERR_INVALID;
    if (dcn && !(dcn->bytes_per_ns > 0)) return BASE_ERR_INVALID;
    t->slices = slices;
    if (dcn) t->dcn = *dcn;
    finish(t);
    return BASE_OK;
}

enum base_status icn_topo_ranks(struct icn_topo *t, uint32_t ranks_per_chip, double local_bytes_per_ns,
                                uint64_t local_latency_ps)
{
    if (ranks_per_chip == 0 || (uint64_t)t->n_chips * ranks_per_chip > (UINT64_C(1) << 24)) return BASE_ERR_INVALID;
    if (ranks_per_chip > 1 && !(local_bytes_per_ns > 0)) return BASE_ERR_INVALID;
    t->ranks_per_chip = ranks_per_chip;
    t->local_bytes_per_ns = ranks_per_chip > 1 ? local_bytes_per_ns : 0;
    t->local_latency_ps = ranks_per_chip > 1 ? local_latency_ps : 0;
    finish(t);
    return BASE_OK;
}

double icn_local_bytes_per_ns(const struct chip_desc *chip)
{
    uint32_t r = chip->ranks_per_chip ? chip->ranks_per_chip : 1;
    return (chip->rank_view ? chip->hbm.bytes_per_ns : chip->hbm.bytes_per_ns / r) / 2;
}

struct icn_dcn icn_dcn_default(void)
{
    return (struct icn_dcn){.bytes_per_ns = ICN_DCN_DEFAULT_BYTES_PER_NS, .latency_ps = ICN_DCN_DEFAULT_LATENCY_PS};
}

/* ------------------------------------------------------------ from a chip */

static enum base_status bad_shape(struct base_diag *diag, const char *shape, const char *fmt, ...) BASE_PRINTF(3, 4);
static enum base_status bad_shape(struct base_diag *diag, const char *shape, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(diag, BASE_ERR_INVALID, "--topology", 0, 0, "topology '%s': %s", shape, msg);
}

/* Parses a positive integer at *s, advancing it. */
static bool parse_uint(const char **s, uint32_t *out)
{
    if (!isdigit((unsigned char)**s)) return false;
    char *end;
    errno = 0;
    unsigned long v = strtoul(*s, &end, 10);
    if (errno || v == 0 || v > (1ul << 24)) return false;
    *s = end;
    *out = (uint32_t)v;
    return true;
}

static void auto_wrap(const struct chip_desc *chip, uint32_t ndims, const uint32_t *dims, bool *wrap)
{
    if (chip->family == CHIP_FAMILY_NEURON || chip->links.topology == CHIP_TOPO_RING) {
        for (uint32_t d = 0; d < ndims; d++) wrap[d] = dims[d] >= 3;
        return;
    }
    if (chip->links.topology == CHIP_TOPO_TORUS3D) {
        /* full 4x4x4 cubes: every axis (the missing ones count as 1) a multiple of 4 */
        bool all = ndims == 3;
        for (uint32_t d = 0; d < ndims; d++) all = all && dims[d] % 4 == 0;
        for (uint32_t d = 0; d < ndims; d++) wrap[d] = all;
        return;
    }
    /* torus2d TPUs: only axes that span the pod's (16 on v5e / v6e) */
    uint32_t pod_axis = (uint32_t)llround(sqrt((double)chip->links.domain_chips));
    for (uint32_t d = 0; d < ndims; d++) wrap[d] = dims[d] >= 3 && dims[d] == pod_axis;
}

enum base_status icn_topo_from_chip(const struct chip_desc *chip, const char *shape, enum icn_wrap wrap,
                                    const struct icn_dcn *dcn, struct icn_topo *t, struct base_diag *diag)
{
    return icn_topo_from_chip_lim(chip, shape, wrap, dcn, NULL, t, diag);
}

/* The chips limit, before anything is built (a topology's arrays grow with
 * its chips): slices x chips per slice x ranks per chip. */
static enum base_status check_chips(const struct chip_desc *chip, const char *shape, uint64_t slices, uint64_t chips,
                                    const struct base_limits *lim, struct base_diag *diag)
{
    uint64_t r = chip->ranks_per_chip ? chip->ranks_per_chip : 1, n;
    if (!base_mul_u64(slices, chips, &n) || !base_mul_u64(n, r, &n)) n = UINT64_MAX;
    if (n > base_limit(lim, BASE_LIMIT_CHIPS))
        return base_limit_fail(diag, "--topology", 0, 0, lim, BASE_LIMIT_CHIPS, n, "topology '%s': ranks", shape);
    if (n > (UINT64_C(1) << 24))
        return bad_shape(diag, shape, "%llu ranks: at most 2^24", (unsigned long long)n);
    return BASE_OK;
}

enum base_status icn_topo_from_chip_lim(const struct chip_desc *chip, const char *shape, enum icn_wrap wrap,
                                        const struct icn_dcn *dcn, const struct base_limits *lim, struct icn_topo *t,
                                        struct base_diag *diag)
{
    const struct chip_link_desc *l = &chip->links;
    if (l->count == 0 || l->topology == CHIP_TOPO_NONE || !(l->bytes_per_ns > 0))
        return bad_shape(diag, shape, "chip %s has no chip-to-chip links ([links] count %u)", chip->name, l->count);
    const char *s = shape;
    while (*s == ' ') s++;
    uint32_t slices = 1;
    {
        const char *q = s;
        uint32_t v;
        if (parse_uint(&q, &v)) {
            while (*q == ' ') q++;
            if (!strncmp(q, "slices of ", 10) || !strncmp(q, "slice of ", 9)) {
                slices = v;
                s = q + (q[5] == 's' ? 10 : 9);
                while (*s == ' ') s++;
            }
        }
    }
    enum base_status st;
    if (!strcmp(s, "ultraserver")) {
        if (chip->family != CHIP_FAMILY_NEURON || l->topology != CHIP_TOPO_TORUS2D)
            return bad_shape(diag, shape, "the UltraServer shape needs a Neuron chip with a 2-D torus (%s, %u links)",
                             chip->name, l->count);
        const uint32_t dims[3] = {4, 4, 4};
        const bool w[3] = {true, true, true};
        TRY(check_chips(chip, shape, slices, 64, lim, diag));
        st = icn_topo_torus(t, 3, dims, w, l->bytes_per_ns, l->latency_ps);
        if (st) return bad_shape(diag, shape, "cannot build the torus: %s", base_status_str(st));
        t->dim_bytes_per_ns[2] = ICN_TRN2_US_Z_BYTES_PER_NS;
        finish(t);
    } else {
        bool want_switch = l->topology == CHIP_TOPO_SWITCH;
        if (!strncmp(s, "switch:", 7)) {
            want_switch = true;
            s += 7;
        }
        uint32_t dims[ICN_MAX_DIMS] = {1, 1, 1}, nd = 0;
        for (;;) {
            if (nd == ICN_MAX_DIMS || !parse_uint(&s, &dims[nd]))
                return bad_shape(diag, shape, "expected N, AxB or AxBxC (at most 3 axes)");
            nd++;
            if (*s == 'x') {
                s++;
                continue;
            }
            break;
        }
        if (*s) return bad_shape(diag, shape, "unexpected text '%s'", s);
        uint64_t chips = (uint64_t)dims[0] * dims[1] * dims[2];
        TRY(check_chips(chip, shape, slices, chips, lim, diag));
        if (want_switch) {
            if (nd != 1) return bad_shape(diag, shape, "a switched fabric takes a chip count, not axes");
            /* the chip's links bundled into one uplink (docs/interconnect.md) */
            st = icn_topo_switch(t, dims[0], l->bytes_per_ns * l->count, l->latency_ps);
            if (st) return bad_shape(diag, shape, "cannot build the switch: %s", base_status_str(st));
        } else {
            uint32_t used = 0;
            for (uint32_t d = 0; d < nd; d++) used += dims[d] > 1;
            if (2 * used > l->count)
                return bad_shape(diag, shape, "a torus of this many axes needs 2 links per axis; %s has %u", chip->name,
                                 l->count);
            if (l->domain_chips && chips > l->domain_chips)
                return bad_shape(diag, shape, "more chips than %s's scale-up domain (%u); use 'N slices of SHAPE'",
                                 chip->name, l->domain_chips);
            bool w[ICN_MAX_DIMS] = {false, false, false};
            if (wrap == ICN_WRAP_AUTO) {
                auto_wrap(chip, nd, dims, w);
            } else {
                for (uint32_t d = 0; d < nd; d++) w[d] = wrap == ICN_WRAP_ALL && dims[d] >= 2;
            }
            st = icn_topo_torus(t, nd, dims, w, l->bytes_per_ns, l->latency_ps);
            if (st) return bad_shape(diag, shape, "cannot build the torus: %s", base_status_str(st));
        }
    }
    struct icn_dcn chip_dcn = icn_dcn_default();
    if (l->dcn_bytes_per_ns > 0) chip_dcn.bytes_per_ns = l->dcn_bytes_per_ns;
    if (l->dcn_latency_ps > 0) chip_dcn.latency_ps = l->dcn_latency_ps;
    if (!dcn) dcn = &chip_dcn;
    if (slices > 1) {
        st = icn_topo_multislice(t, slices, dcn);
        if (st) return bad_shape(diag, shape, "bad slice count (%u) or DCN parameters", slices);
    } else {
        t->dcn = *dcn;
    }
    uint32_t r = chip->ranks_per_chip ? chip->ranks_per_chip : 1;
    if (r > 1 && icn_topo_ranks(t, r, icn_local_bytes_per_ns(chip), chip->hbm.latency_ps) != BASE_OK)
        return bad_shape(diag, shape, "%u ranks per chip: too many ranks, or %s has no HBM bandwidth", r, chip->name);
    t->launch_ps = l->collective_launch_ps;
    return BASE_OK;
}

/* ---------------------------------------------------------------- ids */

/* Coordinates of a chip (not a rank). */
static void chip_coords(const struct icn_topo *t, uint32_t chip, uint32_t *slice, uint32_t coords[ICN_MAX_DIMS])
{
    if (slice) *slice = chip / t->slice_chips;
    uint32_t c = chip % t->slice_chips;
    for (uint32_t d = 0; d < ICN_MAX_DIMS; d++) {
        coords[d] = c % t->dims[d];
        c /= t->dims[d];
    }
}

void icn_chip_coords(const struct icn_topo *t, uint32_t rank, uint32_t *slice, uint32_t coords[ICN_MAX_DIMS])
{
    chip_coords(t, rank / t->ranks_per_chip, slice, coords);
}

uint32_t icn_chip_id(const struct icn_topo *t, uint32_t slice, const uint32_t coords[ICN_MAX_DIMS])
{
    uint32_t c = 0;
    for (int d = ICN_MAX_DIMS - 1; d >= 0; d--) c = c * t->dims[d] + coords[d];
    return slice * t->slice_chips + c;
}

/* The neighbour of chip along axis d, direction + (dir 0) or - (1). */
static uint32_t neighbour(const struct icn_topo *t, uint32_t chip, uint32_t d, uint32_t dir)
{
    uint32_t slice, co[ICN_MAX_DIMS];
    chip_coords(t, chip, &slice, co);
    uint32_t n = t->dims[d];
    co[d] = dir == 0 ? (co[d] + 1) % n : (co[d] + n - 1) % n;
    return icn_chip_id(t, slice, co);
}

void icn_link_get(const struct icn_topo *t, uint32_t link, struct icn_link_info *o)
{
    memset(o, 0, sizeof *o);
    o->from = o->to = ICN_NONE;
    if (link >= t->n_links) return;
    uint32_t lb = local_base(t);
    if (link >= lb) {
        uint32_t k = link - lb;
        o->present = true;
        o->cls = ICN_LINK_LOCAL;
        o->from = k / 2;
        o->dir = k % 2 ? -1 : 1;
        o->bytes_per_ns = t->local_bytes_per_ns;
        o->latency_ps = k % 2 ? 0 : t->local_latency_ps;
        return;
    }
    uint32_t base = dcn_base(t);
    if (link >= base) {
        uint32_t k = link - base;
        o->present = true;
        o->cls = ICN_LINK_DCN;
        o->from = k / 2;
        o->dir = k % 2 ? -1 : 1;
        o->bytes_per_ns = t->dcn.bytes_per_ns;
        o->latency_ps = k % 2 ? 0 : t->dcn.latency_ps;
        return;
    }
    if (t->kind == ICN_TOPO_SWITCH) {
        o->present = true;
        o->cls = ICN_LINK_SWITCH;
        o->from = link / 2;
        o->dir = link % 2 ? -1 : 1;
        o->bytes_per_ns = t->switch_bytes_per_ns;
        o->latency_ps = link % 2 ? 0 : t->switch_latency_ps;
        return;
    }
    uint32_t per = 2 * t->ndims;
    uint32_t chip = link / per, d = (link % per) / 2, dir = link % 2;
    uint32_t slice, co[ICN_MAX_DIMS];
    chip_coords(t, chip, &slice, co);
    bool edge = dir == 0 ? co[d] == t->dims[d] - 1 : co[d] == 0;
    o->present = t->wrap[d] || !edge;
    o->cls = ICN_LINK_ICI;
    o->from = chip;
    o->to = neighbour(t, chip, d, dir);
    o->dim = d;
    o->dir = dir ? -1 : 1;
    o->bytes_per_ns = o->present ? t->dim_bytes_per_ns[d] : 0;
    o->latency_ps = t->dim_latency_ps[d];
}

void icn_link_name(const struct icn_topo *t, uint32_t link, char *buf, size_t cap)
{
    struct icn_link_info li;
    icn_link_get(t, link, &li);
    switch (li.cls) {
    case ICN_LINK_ICI:
        snprintf(buf, cap, "c%u %c%c -> c%u", li.from, axis_name[li.dim], li.dir > 0 ? '+' : '-', li.to);
        break;
    case ICN_LINK_SWITCH:
        snprintf(buf, cap, "c%u %s", li.from, li.dir > 0 ? "up" : "down");
        break;
    case ICN_LINK_DCN:
        snprintf(buf, cap, "c%u dcn %s", li.from, li.dir > 0 ? "out" : "in");
        break;
    case ICN_LINK_LOCAL:
        snprintf(buf, cap, "r%u local %s", li.from, li.dir > 0 ? "out" : "in");
        break;
    }
}

/* ---------------------------------------------------------------- routes */

/* Steps and direction (0 = +, 1 = -) along axis d from a to b: the shorter
 * way round when the axis wraps, ties going +; the only way otherwise. */
static uint32_t axis_steps(const struct icn_topo *t, uint32_t d, uint32_t a, uint32_t b, uint32_t *dir)
{
    uint32_t n = t->dims[d];
    if (a == b) {
        *dir = 0;
        return 0;
    }
    if (!t->wrap[d]) {
        *dir = b > a ? 0 : 1;
        return b > a ? b - a : a - b;
    }
    uint32_t fwd = (b + n - a) % n, back = n - fwd;
    *dir = back < fwd ? 1 : 0;
    return back < fwd ? back : fwd;
}

uint32_t icn_route(const struct icn_topo *t, uint32_t rsrc, uint32_t rdst, uint32_t *links, uint64_t *latency_ps)
{
    uint64_t lat = 0;
    uint32_t n = 0;
    uint32_t src = rsrc / t->ranks_per_chip, dst = rdst / t->ranks_per_chip;
    if (rsrc != rdst && src == dst) {
        uint32_t lb = local_base(t);
        links[n++] = lb + 2 * rsrc;
        links[n++] = lb + 2 * rdst + 1;
        lat = t->local_latency_ps;
    } else if (src != dst) {
        uint32_t ss = src / t->slice_chips, ds = dst / t->slice_chips;
        if (ss != ds) {
            uint32_t base = dcn_base(t);
            links[n++] = base + 2 * src;
            links[n++] = base + 2 * dst + 1;
            lat = t->dcn.latency_ps;
        } else if (t->kind == ICN_TOPO_SWITCH) {
            links[n++] = 2 * src;
            links[n++] = 2 * dst + 1;
            lat = t->switch_latency_ps;
        } else {
            uint32_t a[ICN_MAX_DIMS], b[ICN_MAX_DIMS];
            chip_coords(t, src, NULL, a);
            chip_coords(t, dst, NULL, b);
            uint32_t cur = src, per = 2 * t->ndims;
            for (uint32_t d = 0; d < t->ndims; d++) {
                uint32_t dir, k = axis_steps(t, d, a[d], b[d], &dir);
                for (uint32_t i = 0; i < k; i++) {
                    links[n++] = cur * per + 2 * d + dir;
                    lat += t->dim_latency_ps[d];
                    cur = neighbour(t, cur, d, dir);
                }
            }
            BASE_ASSERT(cur == dst);
        }
    }
    if (latency_ps) *latency_ps = lat;
    return n;
}

uint32_t icn_hops(const struct icn_topo *t, uint32_t rsrc, uint32_t rdst)
{
    if (rsrc == rdst) return 0;
    uint32_t src = rsrc / t->ranks_per_chip, dst = rdst / t->ranks_per_chip;
    if (src == dst) return 1;
    if (src / t->slice_chips != dst / t->slice_chips || t->kind == ICN_TOPO_SWITCH) return 1;
    uint32_t a[ICN_MAX_DIMS], b[ICN_MAX_DIMS], h = 0, dir;
    chip_coords(t, src, NULL, a);
    chip_coords(t, dst, NULL, b);
    for (uint32_t d = 0; d < t->ndims; d++) h += axis_steps(t, d, a[d], b[d], &dir);
    return h;
}
