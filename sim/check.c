/* Checks on every memory access of an instruction, before it runs:
 *  - bounds (always on): partitions inside the scratchpad / accumulator,
 *    bytes inside a partition (overflow), HBM addresses inside its capacity;
 *  - uninitialised reads (check_uninit): every byte read was written before
 *    (by an instruction or by the host), tracked one bit per byte;
 *  - races (check_races): two engines touch overlapping bytes, at least one
 *    writing, and neither access happens-before the other.  Happens-before
 *    is program order on an engine plus semaphores: each engine keeps a
 *    vector clock (its own component counts its instructions); a signal
 *    carries the signaller's clock as of the signalling instruction into the
 *    semaphore, a wait that passes joins the semaphore's clock.  Each engine
 *    keeps its recent accesses (epoch, bounding box); an access is checked
 *    against the other engines' accesses not ordered before it (epoch >
 *    what this engine has seen of them), by bounding box and then exactly,
 *    byte by byte, so interleaved strided accesses do not collide.
 * Then writes are marked and any stationary operand they overwrite is
 * dropped from its systolic array. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define REC_CAP_MIN 64u
#define REC_CAP_MAX (1u << 16)

enum base_status sim_check_init(struct sim *s)
{
    (void)s;
    return BASE_OK;
}

void sim_check_deinit(struct sim *s) { (void)s; }

static const char *role(const struct isa_instr *in, int i)
{
    static const char *const generic[4] = {"dst", "src0", "src1", "src2"};
    switch ((enum isa_op)in->op) {
    case ISA_OP_MATMUL: return i == 1 ? "stationary" : i == 2 ? "moving" : generic[i];
    case ISA_OP_DMA: return i == 1 ? "src" : generic[i];
    case ISA_OP_SELECT: return i == 1 ? "condition" : i == 2 ? "on-true" : i == 3 ? "on-false" : generic[i];
    case ISA_OP_ACTIVATE: return i == 1 ? "src" : i == 2 ? "scale" : i == 3 ? "bias" : generic[i];
    case ISA_OP_TENSOR_SCALAR: return i == 1 ? "src" : i == 2 ? "scalar0" : i == 3 ? "scalar1" : generic[i];
    default: return generic[i];
    }
}

static const char *space_long(unsigned sp)
{
    return sp == ISA_SPACE_SP ? "scratchpad" : sp == ISA_SPACE_ACC ? "accumulator" : sp == ISA_SPACE_HBM ? "hbm" : "none";
}

static const struct mem_sram *sram_of(struct sim *s, uint32_t core, unsigned space)
{
    return space == ISA_SPACE_SP ? &s->cores[core].sp : &s->cores[core].acc;
}

/* "sp partitions 0..127 bytes [0x0, 0x400)" */
static void range_str(const struct isa_ap *ap, int64_t lo, int64_t hi, char *buf, size_t cap)
{
    if (ap->space == ISA_SPACE_HBM)
        snprintf(buf, cap, "hbm bytes [0x%llx, 0x%llx)", (unsigned long long)lo, (unsigned long long)hi);
    else
        snprintf(buf, cap, "%s partitions %u..%u bytes [0x%llx, 0x%llx)", isa_space_name((enum isa_space)ap->space),
                 ap->part_start, ap->part_start + ap->part_count - 1, (unsigned long long)lo,
                 (unsigned long long)hi);
}

static enum base_status check_bounds(struct sim *s, struct sim_exec *x, int i, int64_t lo, int64_t hi, bool write)
{
    const struct isa_ap *ap = x->ap[i];
    const char *verb = write ? "writes" : "reads";
    char r[160]; /* formatted only on the failure paths: this runs per instruction */
    if (ap->space == ISA_SPACE_HBM) {
        if (mem_hbm_in_range(&s->hbm, lo, hi)) return BASE_OK;
        range_str(ap, lo, hi, r, sizeof r);
        return sim_fail(s, x, BASE_ERR_CHECK, "hbm out of capacity: %s %s %s, beyond the %llu-byte HBM", verb,
                        role(x->in, i), r, (unsigned long long)s->hbm.capacity_bytes);
    }
    if (ap->space != ISA_SPACE_SP && ap->space != ISA_SPACE_ACC)
        return sim_fail(s, x, BASE_ERR_CHECK, "%s %s in memory space %u", verb, role(x->in, i), ap->space);
    const struct mem_sram *m = sram_of(s, x->e->core, ap->space);
    bool parts_ok = (uint32_t)ap->part_start + ap->part_count <= m->partitions;
    if (parts_ok && lo >= 0 && (uint64_t)hi <= m->bytes_per_partition) return BASE_OK;
    range_str(ap, lo, hi, r, sizeof r);
    if (!parts_ok)
        return sim_fail(s, x, BASE_ERR_CHECK, "partition out of range: %s %s %s, the %s has %u partitions", verb,
                        role(x->in, i), r, space_long(ap->space), m->partitions);
    return sim_fail(s, x, BASE_ERR_CHECK, "%s overflow: %s %s %s, a partition has %llu bytes", space_long(ap->space),
                    verb, role(x->in, i), r, (unsigned long long)m->bytes_per_partition);
}

/* -------------------------------------------------------- uninitialised */

struct uninit_ctx {
    struct sim *s;
    const struct mem_sram *sram;
    bool bad;
    uint32_t part;
    uint64_t at;
};

static void uninit_run(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct uninit_ctx *c = vc;
    if (c->bad) return;
    uint64_t first;
    bool ok = c->sram ? mem_sram_all_written(c->sram, p, (uint64_t)byte, (uint64_t)byte + len, &first)
                      : mem_hbm_all_written(&c->s->hbm, (uint64_t)byte, (uint64_t)byte + len, &first);
    if (!ok) {
        c->bad = true;
        c->part = p;
        c->at = first;
    }
}

static enum base_status check_uninit(struct sim *s, struct sim_exec *x, int i, int64_t lo, int64_t hi)
{
    const struct isa_ap *ap = x->ap[i];
    struct uninit_ctx c = {s, ap->space == ISA_SPACE_HBM ? NULL : sram_of(s, x->e->core, ap->space), false, 0, 0};
    sim_ap_runs(ap, uninit_run, &c);
    if (!c.bad) return BASE_OK;
    char r[160];
    range_str(ap, lo, hi, r, sizeof r);
    if (ap->space == ISA_SPACE_HBM)
        return sim_fail(s, x, BASE_ERR_CHECK,
                        "uninitialised read: %s reads hbm byte 0x%llx (of %s), which was never written", role(x->in, i),
                        (unsigned long long)c.at, r);
    return sim_fail(s, x, BASE_ERR_CHECK,
                    "uninitialised read: %s reads %s partition %u byte 0x%llx (of %s), which was never written",
                    role(x->in, i), isa_space_name((enum isa_space)ap->space), c.part, (unsigned long long)c.at, r);
}

/* ------------------------------------------------------------- writes */

struct mark_ctx {
    struct sim *s;
    struct mem_sram *sram;
    enum base_status st;
};

static void mark_run(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct mark_ctx *c = vc;
    if (c->sram)
        mem_sram_mark_written(c->sram, p, (uint64_t)byte, (uint64_t)byte + len);
    else if (mem_hbm_mark_written(&c->s->hbm, (uint64_t)byte, (uint64_t)byte + len) != BASE_OK)
        c->st = BASE_ERR_NOMEM;
}

static bool boxes_overlap(uint32_t pa0, uint32_t pa1, int64_t a0, int64_t a1, uint32_t pb0, uint32_t pb1, int64_t b0,
                          int64_t b1)
{
    return pa0 < pb1 && pb0 < pa1 && a0 < b1 && b0 < a1;
}

static void part_range(const struct isa_ap *ap, uint32_t *p0, uint32_t *p1)
{
    if (ap->space == ISA_SPACE_HBM) {
        *p0 = 0;
        *p1 = 1;
    } else {
        *p0 = ap->part_start;
        *p1 = (uint32_t)ap->part_start + ap->part_count;
    }
}

/* A write to the scratchpad drops stationary operands it overlaps. */
static void invalidate_stationary(struct sim *s, uint32_t core, const struct isa_ap *ap, int64_t lo, int64_t hi)
{
    uint32_t n = s->chip.n_engines, p0, p1;
    part_range(ap, &p0, &p1);
    for (uint32_t i = 0; i < n; i++) {
        struct sim_engine *e = &s->eng[core * n + i];
        if (!e->loaded_valid) continue;
        uint32_t q0 = e->loaded.part_start, q1 = q0 + e->loaded.part_count;
        if (boxes_overlap(p0, p1, lo, hi, q0, q1, e->loaded_lo, e->loaded_hi)) e->loaded_valid = false;
    }
}

/* ---------------------------------------------------------------- races */

struct box {
    uint32_t p0, p1;
    int64_t lo, hi;
    uint8_t *bits;
    uint64_t width;
    bool hit;
};

static void box_mark(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct box *b = vc;
    if (p < b->p0 || p >= b->p1) return;
    int64_t s0 = byte > b->lo ? byte : b->lo, s1 = byte + (int64_t)len < b->hi ? byte + (int64_t)len : b->hi;
    for (int64_t k = s0; k < s1; k++) {
        uint64_t bit = (uint64_t)(p - b->p0) * b->width + (uint64_t)(k - b->lo);
        b->bits[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
}

static void box_test(void *vc, uint32_t p, int64_t byte, uint64_t len)
{
    struct box *b = vc;
    if (b->hit || p < b->p0 || p >= b->p1) return;
    int64_t s0 = byte > b->lo ? byte : b->lo, s1 = byte + (int64_t)len < b->hi ? byte + (int64_t)len : b->hi;
    for (int64_t k = s0; k < s1; k++) {
        uint64_t bit = (uint64_t)(p - b->p0) * b->width + (uint64_t)(k - b->lo);
        if (b->bits[bit >> 3] >> (bit & 7) & 1) {
            b->hit = true;
            return;
        }
    }
}

/* Do a and b share a byte (within their intersecting bounding box)? */
static bool exact_overlap(struct sim *s, const struct isa_ap *a, const struct isa_ap *b, uint32_t p0, uint32_t p1,
                          int64_t lo, int64_t hi)
{
    uint64_t width = (uint64_t)(hi - lo), bits = (uint64_t)(p1 - p0) * width;
    if (bits > (UINT64_C(1) << 30)) return true; /* too big to rasterise: assume they collide */
    size_t bytes = (size_t)((bits + 7) / 8);
    if (s->overlap_cap < bytes) {
        free(s->overlap_bits);
        s->overlap_bits = malloc(bytes);
        s->overlap_cap = s->overlap_bits ? bytes : 0;
        if (!s->overlap_bits) return true;
    }
    memset(s->overlap_bits, 0, bytes);
    struct box bx = {p0, p1, lo, hi, (uint8_t *)s->overlap_bits, width, false};
    sim_ap_runs(a, box_mark, &bx);
    sim_ap_runs(b, box_test, &bx);
    return bx.hit;
}

static const struct isa_ap *operand(const struct isa_instr *in, int i)
{
    const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
    return aps[i];
}

static enum base_status race_error(struct sim *s, struct sim_exec *x, int i, bool write, const struct sim_engine *f,
                                   const struct sim_access_rec *r, int64_t lo, int64_t hi, uint32_t p0, uint32_t p1)
{
    char theirs[160], at[160];
    sim_describe_instr(f, r->pc, theirs, sizeof theirs);
    if (x->ap[i]->space == ISA_SPACE_HBM)
        snprintf(at, sizeof at, "hbm bytes [0x%llx, 0x%llx)", (unsigned long long)lo, (unsigned long long)hi);
    else
        snprintf(at, sizeof at, "%s partitions %u..%u bytes [0x%llx, 0x%llx)",
                 isa_space_name((enum isa_space)x->ap[i]->space), p0, p1 - 1, (unsigned long long)lo,
                 (unsigned long long)hi);
    const struct isa_instr *oin = &f->stream->instrs[r->pc];
    return sim_fail(s, x, BASE_ERR_CHECK,
                    "race: %s %s while %s %s %s, both touching %s, with no semaphore ordering between %s and %s",
                    write ? "writes" : "reads", role(x->in, i), theirs, r->write ? "writes" : "reads",
                    role(oin, r->which), at, x->e->d->name, f->d->name);
}

static enum base_status check_race(struct sim *s, struct sim_exec *x, int i, bool write, int64_t lo, int64_t hi)
{
    const struct isa_ap *ap = x->ap[i];
    struct sim_engine *e = x->e;
    uint32_t p0, p1;
    part_range(ap, &p0, &p1);
    bool shared = ap->space == ISA_SPACE_HBM;
    uint32_t g0 = shared ? 0 : e->core * s->chip.n_engines, g1 = shared ? s->n_eng : g0 + s->chip.n_engines;
    for (uint32_t g = g0; g < g1; g++) {
        struct sim_engine *f = &s->eng[g];
        if (f == e || !f->rec_n) continue;
        uint32_t seen = e->vc[g];
        for (uint32_t k = f->rec_n; k-- > 0;) {
            const struct sim_access_rec *r = &f->recs[(f->rec_head + k) % f->rec_cap];
            if (r->epoch <= seen) break;
            if (r->space != ap->space || !(write || r->write)) continue;
            if (!shared && f->core != e->core) continue;
            if (!boxes_overlap(p0, p1, lo, hi, r->part_lo, r->part_hi, r->lo, r->hi)) continue;
            struct isa_ap other;
            sim_ap_effective(operand(&f->stream->instrs[r->pc], r->which), r->iter, ISA_MAX_LOOP_DEPTH, &other);
            uint32_t q0 = p0 > r->part_lo ? p0 : r->part_lo, q1 = p1 < r->part_hi ? p1 : r->part_hi;
            int64_t b0 = lo > r->lo ? lo : r->lo, b1 = hi < r->hi ? hi : r->hi;
            if (exact_overlap(s, &other, ap, q0, q1, b0, b1))
                return race_error(s, x, i, write, f, r, b0, b1, q0, q1);
        }
    }
    return BASE_OK;
}

/* Drops records every other engine has already seen (they can no longer race). */
static void prune(struct sim *s, struct sim_engine *e)
{
    uint32_t min_seen = UINT32_MAX;
    for (uint32_t g = 0; g < s->n_eng; g++) {
        const struct sim_engine *f = &s->eng[g];
        if (f == e || !f->stream || f->state == SIM_ENG_DONE) continue;
        if (f->vc[e->gidx] < min_seen) min_seen = f->vc[e->gidx];
    }
    while (e->rec_n && e->recs[e->rec_head].epoch <= min_seen) {
        e->rec_head = (e->rec_head + 1) % e->rec_cap;
        e->rec_n--;
    }
}

static enum base_status record(struct sim *s, struct sim_exec *x, int i, bool write, int64_t lo, int64_t hi)
{
    struct sim_engine *e = x->e;
    if (e->rec_n == e->rec_cap) prune(s, e);
    if (e->rec_n == e->rec_cap) {
        if (e->rec_cap < REC_CAP_MAX) {
            uint32_t cap = e->rec_cap ? e->rec_cap * 2 : REC_CAP_MIN;
            struct sim_access_rec *nr = malloc((size_t)cap * sizeof *nr);
            if (!nr) return BASE_ERR_NOMEM;
            for (uint32_t k = 0; k < e->rec_n; k++) nr[k] = e->recs[(e->rec_head + k) % e->rec_cap];
            free(e->recs);
            e->recs = nr;
            e->rec_cap = cap;
            e->rec_head = 0;
        } else { /* full: forget the oldest (its races can go unreported) */
            e->rec_head = (e->rec_head + 1) % e->rec_cap;
            e->rec_n--;
        }
    }
    uint32_t p0, p1;
    part_range(x->ap[i], &p0, &p1);
    struct sim_access_rec *r = &e->recs[(e->rec_head + e->rec_n) % e->rec_cap];
    *r = (struct sim_access_rec){
        .epoch = e->vc[e->gidx],
        .pc = x->pc,
        .iter = {x->iter[0], x->iter[1]},
        .which = (uint8_t)i,
        .space = x->ap[i]->space,
        .write = write,
        .part_lo = (uint16_t)p0,
        .part_hi = (uint16_t)p1,
        .lo = lo,
        .hi = hi,
    };
    e->rec_n++;
    return BASE_OK;
}

/* ---------------------------------------------------------------- entry */

enum base_status sim_check_access(struct sim *s, struct sim_exec *x, unsigned rd, unsigned wr)
{
    int64_t lo[4] = {0}, hi[4] = {0};
    unsigned used = rd | wr;
    for (int i = 0; i < 4; i++) {
        if (!(used >> i & 1)) continue;
        isa_ap_extent(x->ap[i], &lo[i], &hi[i]);
        TRY(check_bounds(s, x, i, lo[i], hi[i], wr >> i & 1));
        x->bytes += isa_ap_total_elems(x->ap[i]) * sim_elem_size(x->ap[i]) * ((rd >> i & 1) + (wr >> i & 1));
    }
    if (s->opt.check_uninit)
        for (int i = 0; i < 4; i++)
            if (rd >> i & 1) TRY(check_uninit(s, x, i, lo[i], hi[i]));
    if (s->n_vc) {
        for (int i = 0; i < 4; i++)
            if (used >> i & 1) TRY(check_race(s, x, i, wr >> i & 1, lo[i], hi[i]));
        for (int i = 0; i < 4; i++)
            if (used >> i & 1) TRY(record(s, x, i, wr >> i & 1, lo[i], hi[i]));
    }
    for (int i = 0; i < 4; i++) {
        if (!(wr >> i & 1)) continue;
        const struct isa_ap *ap = x->ap[i];
        if (s->opt.check_uninit) {
            struct mark_ctx c = {s, ap->space == ISA_SPACE_HBM ? NULL : (struct mem_sram *)sram_of(s, x->e->core, ap->space),
                                 BASE_OK};
            sim_ap_runs(ap, mark_run, &c);
            if (c.st != BASE_OK) return sim_fail(s, x, c.st, "out of memory tracking written bytes");
        }
        if (ap->space == ISA_SPACE_SP) invalidate_stationary(s, x->e->core, ap, lo[i], hi[i]);
    }
    return BASE_OK;
}
