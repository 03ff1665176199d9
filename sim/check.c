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
 * dropped from its systolic array.
 *
 * Making them cheap without weakening them:
 *  - written bits are only ever set, so the memories remember a few boxes
 *    known fully written (memory.h): a read inside one, or a write inside
 *    one, skips the bitmaps; an access whose bytes are exactly its extent
 *    (dense) is checked and marked as one box, which is then remembered;
 *  - an engine's access that repeats one of its recent records (same
 *    instruction operand, same bytes, same kind) replaces it: any access
 *    that would race with the older record races with the newer one and
 *    meets it first (records are searched newest first), so the findings and
 *    messages are the same; a loop over one tile keeps one record per operand;
 *    When an instruction's previous records are the engine's newest (a
 *    one-instruction loop body), they are renewed in place;
 *  - each engine keeps the union of its records' boxes per space (and of its
 *    writes): an access outside the union skips that engine's records;
 *  - an instruction that runs again at the same addresses (a loop over the
 *    same tiles) skips bounds, uninitialised reads and write marks (they
 *    passed, and written bits only grow), and skips the race search too
 *    while no other engine has made a record since (its own clock only
 *    grows, so what it has seen only grows; other records only go away);
 *  - an operand with the same pattern as an earlier one of the instruction
 *    is not searched again when the earlier search was at least as strict;
 *  - vector clocks have one component per engine that has a stream.
 * tests/sim/test_check.c has a test for each shortcut's edge. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define REC_CAP_MIN 64u
#define REC_CAP_MAX (1u << 16) /* capacities are powers of two (ring indices mask) */
/* A repeated access replaces its previous record when that is among the
 * engine's last COALESCE_MAX records (the records after it move down). */
#define COALESCE_MAX 64u

/* Replicates sim_ap_runs' merging of contiguous dims: the length of the one
 * run per partition (HBM: in all) when the pattern is one ascending run
 * from addr, else 0. */
static uint64_t single_run_bytes(const struct isa_ap *ap)
{
    int64_t esize = (int64_t)sim_elem_size(ap);
    struct {
        uint64_t count;
        int64_t stride;
    } dims[ISA_MAX_DIMS + 1];
    int n = 0;
    bool hbm = ap->space == ISA_SPACE_HBM;
    if (ap->part_count == 0) return 0;
    if (hbm && ap->part_count > 1) {
        dims[n].count = ap->part_count;
        dims[n++].stride = ap->part_stride_bytes;
    }
    for (int d = 0; d < ap->ndims && d < ISA_MAX_DIMS; d++) {
        if (ap->count[d] == 0) return 0;
        if (ap->count[d] == 1) continue;
        dims[n].count = ap->count[d];
        dims[n++].stride = ap->stride[d] * esize;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && dims[m - 1].stride == dims[i].stride * (int64_t)dims[i].count) {
            dims[m - 1].count *= dims[i].count;
            dims[m - 1].stride = dims[i].stride;
        } else {
            dims[m++] = dims[i];
        }
    }
    if (m == 0) return (uint64_t)esize;
    if (m == 1 && dims[0].stride == esize) return dims[0].count * (uint64_t)esize;
    return 0;
}

void sim_prepare_operand(const struct isa_ap *ap, struct sim_operand_info *oi)
{
    memset(oi, 0, sizeof *oi);
    if (ap->space == ISA_SPACE_NONE) return;
    struct isa_ap at0 = *ap;
    at0.addr = 0;
    isa_ap_extent(&at0, &oi->rel_lo, &oi->rel_hi);
    oi->elems = isa_ap_total_elems(ap);
    oi->esize = (uint32_t)sim_elem_size(ap);
    if (ap->space == ISA_SPACE_HBM) {
        oi->p0 = 0;
        oi->p1 = 1;
    } else {
        oi->p0 = ap->part_start;
        oi->p1 = (uint16_t)(ap->part_start + ap->part_count);
    }
    uint64_t run = single_run_bytes(ap);
    oi->dense = run > 0 && oi->elems > 0 && oi->rel_lo == 0 && (uint64_t)oi->rel_hi == run;
    oi->stepped = (ap->loop_step_bytes[0] | ap->loop_step_bytes[1]) != 0;
}

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
                 (unsigned)ap->part_start, (unsigned)(ap->part_start + ap->part_count - 1), (unsigned long long)lo,
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

static struct mem_sram *sram_w(struct sim *s, uint32_t core, unsigned space)
{
    return space == ISA_SPACE_SP ? &s->cores[core].sp : &s->cores[core].acc;
}

static enum base_status check_uninit(struct sim *s, struct sim_exec *x, int i, int64_t lo, int64_t hi)
{
    const struct isa_ap *ap = x->ap[i];
    const struct sim_operand_info *oi = &x->info->op[i];
    bool hbm = ap->space == ISA_SPACE_HBM;
    struct mem_sram *m = hbm ? NULL : sram_w(s, x->e->core, ap->space);
    struct uninit_ctx c = {s, m, false, 0, 0};
    if (oi->dense) { /* the bytes are the box: one check (first gap in the same order as the runs) */
        c.bad = hbm ? !mem_hbm_range_written(&s->hbm, (uint64_t)lo, (uint64_t)hi, &c.at)
                    : !mem_sram_box_written(m, oi->p0, oi->p1, (uint64_t)lo, (uint64_t)hi, &c.part, &c.at);
    } else {
        struct mem_wcache *wc = hbm ? &s->hbm.wcache : &m->wcache;
        if (mem_wcache_has(wc, oi->p0, oi->p1, (uint64_t)lo, (uint64_t)hi)) return BASE_OK;
        /* A strided read (a transposed or broadcast view) walks many small
         * runs; when its whole bounding box is written, so is every run, and
         * the box goes into the known-written cache.  Only a box with a gap
         * needs the runs, to tell whether the gap is actually read. */
        uint64_t at;
        uint32_t part;
        if (hbm ? mem_hbm_range_written(&s->hbm, (uint64_t)lo, (uint64_t)hi, &at)
                : mem_sram_box_written(m, oi->p0, oi->p1, (uint64_t)lo, (uint64_t)hi, &part, &at))
            return BASE_OK;
        sim_ap_runs(ap, uninit_run, &c);
    }
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
    for (uint32_t bits = s->systolic_engines; bits; bits &= bits - 1) { /* only arrays hold operands */
        struct sim_engine *e = &s->eng[core * n + (uint32_t)__builtin_ctz(bits)];
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

static bool union_overlaps(const struct sim_rec_union *u, uint32_t p0, uint32_t p1, int64_t lo, int64_t hi)
{
    return u->any && boxes_overlap(p0, p1, lo, hi, u->p0, u->p1, u->lo, u->hi);
}

static enum base_status check_race(struct sim *s, struct sim_exec *x, int i, bool write, int64_t lo, int64_t hi)
{
    const struct isa_ap *ap = x->ap[i];
    struct sim_engine *e = x->e;
    uint32_t p0, p1;
    part_range(ap, &p0, &p1);
    bool shared = ap->space == ISA_SPACE_HBM;
    uint32_t c0 = shared ? 0 : e->core, c1 = shared ? s->chip.cores : e->core + 1;
    /* the other engines in order (core-major), only those with records */
    for (uint32_t c = c0; c < c1; c++) {
        for (uint32_t bits = s->cores[c].rec_engines; bits; bits &= bits - 1) {
            uint32_t g = c * s->chip.n_engines + (uint32_t)__builtin_ctz(bits);
            struct sim_engine *f = &s->eng[g];
            if (f == e) continue;
            /* a write conflicts with any record, a read only with writes */
            if (!union_overlaps(write ? &f->uni[ap->space] : &f->uni_w[ap->space], p0, p1, lo, hi)) continue;
            uint32_t seen = e->vc[f->vslot], mask = f->rec_cap - 1; /* capacities are powers of two */
            for (uint32_t k = f->rec_n; k-- > 0;) {
                const struct sim_access_rec *r = &f->recs[(f->rec_head + k) & mask];
                if (r->epoch <= seen) break;
                if (r->space != ap->space || !(write || r->write)) continue;
                if (!boxes_overlap(p0, p1, lo, hi, r->part_lo, r->part_hi, r->lo, r->hi)) continue;
                struct isa_ap other;
                sim_ap_effective(operand(&f->stream->instrs[r->pc], r->which), r->iter, ISA_MAX_LOOP_DEPTH, &other);
                uint32_t q0 = p0 > r->part_lo ? p0 : r->part_lo, q1 = p1 < r->part_hi ? p1 : r->part_hi;
                int64_t b0 = lo > r->lo ? lo : r->lo, b1 = hi < r->hi ? hi : r->hi;
                if (exact_overlap(s, &other, ap, q0, q1, b0, b1))
                    return race_error(s, x, i, write, f, r, b0, b1, q0, q1);
            }
        }
    }
    return BASE_OK;
}

static void union_add(struct sim_rec_union *u, uint32_t p0, uint32_t p1, int64_t lo, int64_t hi)
{
    if (!u->any) {
        *u = (struct sim_rec_union){true, (uint16_t)p0, (uint16_t)p1, lo, hi};
        return;
    }
    if (p0 < u->p0) u->p0 = (uint16_t)p0;
    if (p1 > u->p1) u->p1 = (uint16_t)p1;
    if (lo < u->lo) u->lo = lo;
    if (hi > u->hi) u->hi = hi;
}

static struct sim_access_rec *rec_at(struct sim_engine *e, uint64_t abs)
{
    return &e->recs[(e->rec_head + (uint32_t)(abs - e->rec_base)) & (e->rec_cap - 1)];
}

/* Keeps the core's bit of engines with records in step with rec_n. */
static void note_rec_n(struct sim *s, struct sim_engine *e)
{
    uint32_t *m = &s->cores[e->core].rec_engines;
    if (e->rec_n)
        *m |= 1u << e->idx;
    else
        *m &= ~(1u << e->idx);
}

/* The unions again from the records left (after dropping some). */
static void union_rebuild(struct sim_engine *e)
{
    memset(e->uni, 0, sizeof e->uni);
    memset(e->uni_w, 0, sizeof e->uni_w);
    for (uint32_t k = 0; k < e->rec_n; k++) {
        const struct sim_access_rec *r = &e->recs[(e->rec_head + k) & (e->rec_cap - 1)];
        union_add(&e->uni[r->space], r->part_lo, r->part_hi, r->lo, r->hi);
        if (r->write) union_add(&e->uni_w[r->space], r->part_lo, r->part_hi, r->lo, r->hi);
    }
}

static void pop_oldest(struct sim_engine *e)
{
    e->rec_head = (e->rec_head + 1) & (e->rec_cap - 1);
    e->rec_n--;
    e->rec_base++;
}

/* Drops records every other engine has already seen (they can no longer race). */
static void prune(struct sim *s, struct sim_engine *e)
{
    uint32_t min_seen = UINT32_MAX;
    for (uint32_t v = 0; v < s->n_vc; v++) { /* the engines with a stream */
        const struct sim_engine *f = &s->eng[s->vc_engine[v]];
        if (f == e || f->state == SIM_ENG_DONE) continue;
        if (f->vc[e->vslot] < min_seen) min_seen = f->vc[e->vslot];
    }
    uint32_t n = e->rec_n;
    while (e->rec_n && e->recs[e->rec_head].epoch <= min_seen) pop_oldest(e);
    if (e->rec_n != n) union_rebuild(e);
    note_rec_n(s, e);
}

/* Removes e's previous record of this operand if it is recent and covers
 * the same bytes the same way (the new record supersedes it). */
static void coalesce(struct sim_engine *e, uint32_t pc, int i, bool write, unsigned space, uint32_t p0, uint32_t p1,
                     int64_t lo, int64_t hi)
{
    uint64_t key = (uint64_t)pc * 4 + (uint64_t)i, last = e->rec_last[key];
    uint64_t end = e->rec_base + e->rec_n;
    if (!last || last - 1 < e->rec_base || end - (last - 1) > COALESCE_MAX) return;
    uint64_t a = last - 1;
    const struct sim_access_rec *r = rec_at(e, a);
    if (r->pc != pc || r->which != i || r->write != write || r->space != space || r->part_lo != p0 ||
        r->part_hi != p1 || r->lo != lo || r->hi != hi)
        return;
    for (uint64_t b = a + 1; b < end; b++) {
        const struct sim_access_rec *src = rec_at(e, b);
        uint64_t k2 = (uint64_t)src->pc * 4 + src->which;
        *rec_at(e, b - 1) = *src;
        if (e->rec_last[k2] == b + 1) e->rec_last[k2] = b;
    }
    e->rec_n--;
}

static enum base_status record(struct sim *s, struct sim_exec *x, int i, bool write, int64_t lo, int64_t hi)
{
    struct sim_engine *e = x->e;
    uint32_t p0, p1;
    part_range(x->ap[i], &p0, &p1);
    unsigned space = x->ap[i]->space;
    if (e->rec_n) coalesce(e, x->pc, i, write, space, p0, p1, lo, hi);
    bool full = e->rec_n == e->rec_cap;
    if (full) prune(s, e);
    /* a full ring grows when pruning freed little (rather than pruning again at the next record) */
    if (full && (e->rec_n == e->rec_cap || e->rec_n > e->rec_cap / 4 * 3)) {
        if (e->rec_cap < REC_CAP_MAX) {
            uint32_t cap = e->rec_cap ? e->rec_cap * 2 : REC_CAP_MIN;
            struct sim_access_rec *nr = malloc((size_t)cap * sizeof *nr);
            if (!nr) return BASE_ERR_NOMEM;
            for (uint32_t k = 0; k < e->rec_n; k++) nr[k] = e->recs[(e->rec_head + k) & (e->rec_cap - 1)];
            free(e->recs);
            e->recs = nr;
            e->rec_cap = cap;
            e->rec_head = 0;
        } else if (e->rec_n == e->rec_cap) { /* full: forget the oldest (its races can go unreported) */
            pop_oldest(e);
        }
    }
    if (!e->rec_n) { /* nothing left: the unions start afresh */
        memset(e->uni, 0, sizeof e->uni);
        memset(e->uni_w, 0, sizeof e->uni_w);
    }
    uint64_t abs = e->rec_base + e->rec_n;
    struct sim_access_rec *r = &e->recs[(e->rec_head + e->rec_n) & (e->rec_cap - 1)];
    *r = (struct sim_access_rec){
        .epoch = e->vc[e->vslot],
        .pc = x->pc,
        .iter = {x->iter[0], x->iter[1]},
        .which = (uint8_t)i,
        .space = (uint8_t)space,
        .write = write,
        .part_lo = (uint16_t)p0,
        .part_hi = (uint16_t)p1,
        .lo = lo,
        .hi = hi,
    };
    if (e->rec_n++ == 0) note_rec_n(s, e);
    e->rec_made++;
    s->cores[e->core].rec_made++;
    s->rec_made++;
    e->rec_last[(uint64_t)x->pc * 4 + (uint64_t)i] = abs + 1;
    union_add(&e->uni[space], p0, p1, lo, hi);
    if (write) union_add(&e->uni_w[space], p0, p1, lo, hi);
    return BASE_OK;
}

/* ---------------------------------------------------------------- entry */

static enum base_status mark_written(struct sim *s, struct sim_exec *x, int i, int64_t lo, int64_t hi)
{
    const struct isa_ap *ap = x->ap[i];
    const struct sim_operand_info *oi = &x->info->op[i];
    bool hbm = ap->space == ISA_SPACE_HBM;
    struct mem_sram *m = hbm ? NULL : sram_w(s, x->e->core, ap->space);
    if (oi->dense) {
        if (!hbm) {
            mem_sram_box_mark_written(m, oi->p0, oi->p1, (uint64_t)lo, (uint64_t)hi);
            return BASE_OK;
        }
        if (mem_hbm_range_mark_written(&s->hbm, (uint64_t)lo, (uint64_t)hi) == BASE_OK) return BASE_OK;
        return sim_fail(s, x, BASE_ERR_NOMEM, "out of memory tracking written bytes");
    }
    if (mem_wcache_has(hbm ? &s->hbm.wcache : &m->wcache, oi->p0, oi->p1, (uint64_t)lo, (uint64_t)hi))
        return BASE_OK; /* already all written */
    struct mark_ctx c = {s, m, BASE_OK};
    sim_ap_runs(ap, mark_run, &c);
    if (c.st != BASE_OK) return sim_fail(s, x, c.st, "out of memory tracking written bytes");
    return BASE_OK;
}

/* Records every operand.  When the instruction's previous records are the
 * engine's newest, one per operand in order with the same boxes (a loop
 * over the same tiles), they are renewed in place: the same outcome as
 * coalescing each, without moving records.  same_boxes: this execution has
 * the addresses of the instruction's previous one (so its latest records,
 * if still there, have these boxes). */
static enum base_status record_all(struct sim *s, struct sim_exec *x, unsigned rd, unsigned wr, const int64_t *lo,
                                   const int64_t *hi, bool same_boxes)
{
    struct sim_engine *e = x->e;
    unsigned used = rd | wr;
    uint32_t k = (used & 1) + (used >> 1 & 1) + (used >> 2 & 1) + (used >> 3 & 1), idx = 0;
    uint64_t end = e->rec_base + e->rec_n;
    const uint64_t *last = e->rec_last + (uint64_t)x->pc * 4;
    bool renew = e->rec_n >= k;
    /* rec_last[key] == a + 1 means the record at a is the operand's latest
     * (pc, which and so space, kind and partitions match); the bytes match
     * when the addresses are the previous execution's */
    for (int i = 0; i < 4 && renew; i++) {
        if (!(used >> i & 1)) continue;
        uint64_t a = end - k + idx++;
        renew = last[i] == a + 1;
        if (renew && !same_boxes) {
            const struct sim_access_rec *r = rec_at(e, a);
            renew = r->lo == lo[i] && r->hi == hi[i];
        }
    }
    if (renew) {
        uint32_t epoch = e->vc[e->vslot], mask = e->rec_cap - 1;
        for (uint32_t j = 0; j < k; j++) {
            struct sim_access_rec *r = &e->recs[(e->rec_head + e->rec_n - k + j) & mask];
            r->epoch = epoch;
            r->iter[0] = x->iter[0];
            r->iter[1] = x->iter[1];
        }
        e->rec_made += k;
        s->cores[e->core].rec_made += k;
        s->rec_made += k;
        return BASE_OK;
    }
    for (int i = 0; i < 4; i++)
        if (used >> i & 1) TRY(record(s, x, i, wr >> i & 1, lo[i], hi[i]));
    return BASE_OK;
}

/* The remembered execution of x's instruction at these addresses, or NULL. */
static struct sim_instr_seen *seen_before(struct sim_instr_state *st, const struct sim_exec *x, unsigned used)
{
    for (int k = 0; k < 2; k++) {
        struct sim_instr_seen *v = &st->seen[k];
        if (v->used != used) continue;
        bool same = true;
        for (int i = 0; i < 4 && same; i++) same = !(used >> i & 1) || v->addr[i] == x->ap[i]->addr;
        if (same) return v;
    }
    return NULL;
}

enum base_status sim_check_access(struct sim *s, struct sim_exec *x, unsigned rd, unsigned wr)
{
    const struct sim_instr_info *info = x->info;
    struct sim_instr_state *st = &x->e->istate[x->pc];
    int64_t lo[4] = {0}, hi[4] = {0};
    unsigned used = rd | wr;
    /* again: this instruction passed these checks before at the same addresses */
    struct sim_instr_seen *prev = seen_before(st, x, used);
    bool again = prev != NULL, hbm = false;
    for (int i = 0; i < 4; i++) {
        if (!(used >> i & 1)) continue;
        const struct sim_operand_info *oi = &info->op[i];
        uint64_t addr = x->ap[i]->addr; /* < 2^48 in every iteration (validated): no overflow below */
        lo[i] = (int64_t)addr + oi->rel_lo;
        hi[i] = (int64_t)addr + oi->rel_hi;
        hbm = hbm || x->ap[i]->space == ISA_SPACE_HBM;
        x->bytes += oi->elems * oi->esize * ((rd >> i & 1) + (wr >> i & 1));
    }
    if (!again) {
        for (int i = 0; i < 4; i++)
            if (used >> i & 1) TRY(check_bounds(s, x, i, lo[i], hi[i], wr >> i & 1));
        /* an operand with the same bytes as an earlier one needs no second
         * look when the earlier check was at least as strong (a read of the
         * same bytes; for races, a write or another read) */
        if (s->opt.check_uninit)
            for (int i = 0; i < 4; i++) {
                int j = info->op[i].same_as;
                if ((rd >> i & 1) && !(j >= 0 && (rd >> j & 1))) TRY(check_uninit(s, x, i, lo[i], hi[i]));
            }
    }
    uint64_t others = 0;
    if (s->n_vc) {
        struct sim_engine *e = x->e;
        others = (hbm ? s->rec_made : s->cores[e->core].rec_made) - e->rec_made;
        if (!again || others != prev->others)
            for (int i = 0; i < 4; i++) {
                int j = info->op[i].same_as;
                bool covered = j >= 0 && (used >> j & 1) && ((wr >> j & 1) || !(wr >> i & 1));
                if ((used >> i & 1) && !covered) TRY(check_race(s, x, i, wr >> i & 1, lo[i], hi[i]));
            }
        enum base_status rs = record_all(s, x, rd, wr, lo, hi, again && prev == &st->seen[0]);
        if (rs != BASE_OK) return sim_fail(s, x, rs, "out of memory recording accesses");
    }
    for (int i = 0; i < 4; i++) {
        if (!(wr >> i & 1)) continue;
        if (s->opt.check_uninit && !again) TRY(mark_written(s, x, i, lo[i], hi[i]));
        if (x->ap[i]->space == ISA_SPACE_SP) invalidate_stationary(s, x->e->core, x->ap[i], lo[i], hi[i]);
    }
    /* remember this execution, most recent first */
    struct sim_instr_seen now = {.others = others, .used = (uint8_t)used};
    for (int i = 0; i < 4; i++) now.addr[i] = x->ap[i]->addr;
    if (prev != &st->seen[0]) st->seen[1] = st->seen[0];
    st->seen[0] = now;
    return BASE_OK;
}
