/* The tiled GEMM generator (compiler/gemm.h has the kernel, the layouts and
 * the closed forms; docs/gemm.md the worked examples).
 *
 * Emission: each engine's stream is produced by walking the same loop
 * structure with a per-role hook that returns the instructions of one
 * position (a chunk, a block prologue ...) at concrete indices.  Inside a
 * LOOP the hook is evaluated at the first iterations, and the differences
 * give loop_step_bytes and wait_step, so the generator never derives a step
 * by hand; the emitter checks that the values are affine (the same shape,
 * equal differences) and fails with ERR_INTERNAL otherwise. */
#include "compiler/gemm.h"
#include "compiler/cc_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- config */

enum base_dtype cc_gemm_default_out_dtype(enum base_dtype in)
{
    return in == BASE_DT_F32 ? BASE_DT_F32 : BASE_DT_BF16;
}

void cc_gemm_config_default(struct cc_gemm_config *c)
{
    memset(c, 0, sizeof *c);
    c->m = c->k = c->n = 128;
    c->dtype = BASE_DT_BF16;
    c->out_dtype = BASE_DT_BF16;
    c->precision = ISA_PREC_HIGHEST;
}

const char *cc_gemm_dataflow_name(enum chip_dataflow df)
{
    switch (df) {
    case CHIP_DATAFLOW_OS: return "os";
    case CHIP_DATAFLOW_IS: return "is";
    default: return "ws";
    }
}

/* ------------------------------------------------------- generator state */

#define MAX_Q 64
#define LIST_MAX 4096 /* instructions one hook returns at one position */

enum { V_BM, V_GRP, V_BLK, V_C, V_NVARS };   /* DMA mode position */
enum { V_I = 0, V_T = 1, V_J = 2 };          /* ideal mode position (same slots) */

enum role_kind { R_PE, R_QA, R_QB, R_QC, R_EV };
enum event { E_BM, E_BLK_PRO, E_CHUNK, E_BLK_EPI, E_MM };

struct group {           /* blocks bn0 .. bn0 + nblk - 1 of block row bm, of one shape */
    uint32_t bm, bn0, nblk;
    uint64_t b0;         /* index (in this program) of its first block */
};

struct brow {            /* a block row of this program: block row bm of job `job` */
    uint32_t job, bm;
};

struct gen {
    const struct chip_desc *chip;
    struct cc_gemm_config cfg;
    struct cc_gemm_plan *plan;
    const struct chip_engine_desc *pe_desc;
    int n_pe, n_q, n_ev;
    int pe[CHIP_MAX_ENGINES], q[CHIP_MAX_ENGINES], ev[2];
    int q_a, q_b, q_c;      /* queues per role (q[0 .. q_a) load At, then B, then C) */
    uint32_t es, eso;       /* element sizes of A / B and of C (on chip: matmul and staging types) */
    uint32_t M, K, N;
    uint32_t kt, mt, nt, nk, nm, nn, nkf, klast, mlast, nlast;
    uint32_t bank_f32, ntp, tpb, slots;
    /* DMA mode */
    uint32_t mb, nb, kc, nch, Mb, Nb, npanel, nbm;
    uint64_t sp_panel[2], sp_b[2], sp_stage[2];
    struct cc_gemm_view va, vb, vc; /* HBM views (the dense layout or the caller's) */
    const int64_t (*job_off)[3];
    enum base_dtype stage_dt;
    bool layout;            /* the caller's views (else the dense layout, placed here) */
    bool split_first;       /* layout mode: the first panel loads in two parts, the first B chunk between */
    uint32_t n_jobs, core, n_cores, tag;
    struct brow *rows;      /* per bm (this program's block rows) */
    uint16_t sem_a0, sem_a, sem_b, sem_prog, sem_ev, sem_st;
    struct group *grp;
    uint32_t n_grp;
    uint32_t *grp_first;    /* per bm: index of its first group */
    uint64_t *blocks_end;   /* per bm: blocks (of this program) up to its end */
    /* ideal mode */
    bool alias_sp, alias_acc;
    uint64_t sp_a, sp_bb;
};

static enum base_status gen_fail(const struct gen *g, struct base_diag *diag, enum base_status st, const char *fmt,
                                 ...) BASE_PRINTF(4, 5);
static enum base_status gen_fail(const struct gen *g, struct base_diag *diag, enum base_status st, const char *fmt,
                                 ...)
{
    char msg[BASE_DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(diag, st, g->chip->path[0] ? g->chip->path : g->chip->name, 0, 0,
                         "gemm %ux%ux%u on chip %s: %s", g->M, g->K, g->N, g->chip->name, msg);
}

static uint64_t align64(uint64_t x) { return (x + 63) / 64 * 64; }
static uint32_t ceil_div(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }
static uint64_t cdiv64(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint32_t range_lo(uint32_t q, uint32_t n, uint32_t total) { return (uint32_t)((uint64_t)q * total / n); }

/* ----------------------------------------------------------- instructions */

static struct isa_ap ap_none(void)
{
    struct isa_ap a;
    memset(&a, 0, sizeof a);
    return a;
}

/* SP / ACC: partitions [p0, p0 + np), ndims dims (outermost first). */
static struct isa_ap ap_part(enum isa_space sp, uint32_t p0, uint32_t np, uint64_t addr, enum base_dtype dt, int ndims,
                             const int64_t *stride, const uint32_t *count)
{
    struct isa_ap a = ap_none();
    a.space = (uint8_t)sp;
    a.dtype = (uint8_t)dt;
    a.part_start = (uint16_t)p0;
    a.part_count = (uint16_t)np;
    a.addr = addr;
    a.ndims = (uint8_t)ndims;
    for (int d = 0; d < ndims; d++) {
        a.stride[d] = stride[d];
        a.count[d] = count[d];
    }
    return a;
}

/* n contiguous elements per partition */
static struct isa_ap ap_row(enum isa_space sp, uint32_t p0, uint32_t np, uint64_t addr, enum base_dtype dt, uint32_t n)
{
    int64_t s = 1;
    return ap_part(sp, p0, np, addr, dt, 1, &s, &n);
}

/* HBM rows of view v: np rows `part` elements apart (any sign), ndims dims per row */
static struct isa_ap ap_hbm(const struct cc_gemm_view *v, uint32_t np, uint64_t addr, int64_t part, int ndims,
                            const int64_t *stride, const uint32_t *count)
{
    struct isa_ap a = ap_part(ISA_SPACE_HBM, 0, np, addr, v->dtype, ndims, stride, count);
    a.part_stride_bytes = part * (int64_t)base_dtype_size(v->dtype);
    return a;
}

/* Byte address of element (r, c) of view v (operand i: 0 A, 1 B, 2 C) of job j. */
static uint64_t view_addr(const struct gen *g, const struct cc_gemm_view *v, int i, uint32_t j, int64_t r, int64_t c)
{
    int64_t off = (g->job_off ? g->job_off[j][i] : 0) + r * v->s_row + c * v->s_col;
    return (uint64_t)((int64_t)v->addr + off * (int64_t)base_dtype_size(v->dtype));
}

static struct isa_instr instr(enum isa_op op)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    return in;
}

struct wait {
    uint16_t sem;
    int64_t value;
};

struct list {
    struct isa_instr *v;
    int n;
    struct wait pend[MAX_Q + CHIP_MAX_ENGINES];
    int n_pend;
    bool overflow;
};

static void list_raw(struct list *l, const struct isa_instr *in)
{
    if (l->n >= LIST_MAX) {
        l->overflow = true;
        return;
    }
    l->v[l->n++] = *in;
}

static void list_wait(struct list *l, uint16_t sem, int64_t value)
{
    if (l->n_pend < (int)ARRAY_LEN(l->pend)) l->pend[l->n_pend++] = (struct wait){sem, value};
}

/* Pending waits become sem_waits, the last folded into in. */
static void list_push(struct list *l, struct isa_instr in)
{
    for (int i = 0; i < l->n_pend; i++) {
        struct isa_instr *t = &in, w;
        if (i < l->n_pend - 1 || (in.flags & ISA_FLAG_WAIT)) {
            w = instr(ISA_OP_SEM_WAIT);
            t = &w;
        }
        t->flags |= ISA_FLAG_WAIT;
        t->wait_sem = l->pend[i].sem;
        t->wait_value = (int32_t)l->pend[i].value;
        if (t != &in) list_raw(l, t);
    }
    l->n_pend = 0;
    list_raw(l, &in);
}

static void list_signal_last(struct list *l, uint16_t sem, int first)
{
    if (l->n > first && !(l->v[l->n - 1].flags & ISA_FLAG_SIGNAL) && l->v[l->n - 1].op != ISA_OP_SEM_WAIT) {
        l->v[l->n - 1].flags |= ISA_FLAG_SIGNAL;
        l->v[l->n - 1].signal_sem = sem;
        l->v[l->n - 1].signal_inc = 1;
        return;
    }
    l->n_pend = 0; /* nothing to order: the signal alone */
    struct isa_instr s = instr(ISA_OP_SEM_SIGNAL);
    s.flags = ISA_FLAG_SIGNAL;
    s.signal_sem = sem;
    s.signal_inc = 1;
    list_raw(l, &s);
}

/* --------------------------------------------------------------- emitter */

typedef void (*hook_fn)(const struct gen *g, int role, int idx, enum event ev, const int64_t *pos, struct list *out);

struct loop_ctx {
    int var;
    int64_t stride;
    uint32_t count;
    uint32_t head;
};

struct em {
    const struct gen *g;
    struct isa_stream *s;
    hook_fn hook;
    int role, idx;
    int depth;
    struct loop_ctx loop[ISA_MAX_LOOP_DEPTH]; /* [0] outermost */
    struct list l[3];
    enum base_status st;
    struct base_diag *diag;
};

static bool ap_shape_eq(const struct isa_ap *a, const struct isa_ap *b)
{
    if (a->space != b->space || a->dtype != b->dtype || a->ndims != b->ndims || a->part_start != b->part_start ||
        a->part_count != b->part_count || a->part_stride_bytes != b->part_stride_bytes)
        return false;
    for (int d = 0; d < ISA_MAX_DIMS; d++)
        if (a->stride[d] != b->stride[d] || a->count[d] != b->count[d]) return false;
    return true;
}

static bool instr_shape_eq(const struct isa_instr *a, const struct isa_instr *b)
{
    if (a->op != b->op || a->func != b->func || a->func2 != b->func2 || a->flags != b->flags ||
        a->wait_sem != b->wait_sem || a->signal_sem != b->signal_sem || a->signal_inc != b->signal_inc ||
        a->count != b->count || a->body != b->body)
        return false;
    const struct isa_ap *pa[4] = {&a->dst, &a->src0, &a->src1, &a->src2}, *pb[4] = {&b->dst, &b->src0, &b->src1, &b->src2};
    for (int i = 0; i < 4; i++)
        if (!ap_shape_eq(pa[i], pb[i])) return false;
    return true;
}

static struct isa_ap *ap_of(struct isa_instr *in, int i)
{
    return i == 0 ? &in->dst : i == 1 ? &in->src0 : i == 2 ? &in->src1 : &in->src2;
}

static void em_error(struct em *m, const char *what)
{
    if (m->st != BASE_OK) return;
    m->st = BASE_ERR_INTERNAL;
    base_diag_set(m->diag, BASE_ERR_INTERNAL, "compiler/gemm.c", 0, 0, "gemm generator: stream %s: %s", m->s->engine,
                  what);
}

static void em_run_hook(struct em *m, enum event ev, const int64_t *pos, struct list *l)
{
    l->n = 0;
    l->n_pend = 0;
    l->overflow = false;
    m->hook(m->g, m->role, m->idx, ev, pos, l);
    if (l->overflow) em_error(m, "too many instructions at one position");
}

/* The hook's instructions at pos, with loop steps from the enclosing loops. */
static void em_emit(struct em *m, enum event ev, const int64_t *pos)
{
    if (m->st != BASE_OK) return;
    struct list *l0 = &m->l[0], *l1 = &m->l[1], *l2 = &m->l[2];
    em_run_hook(m, ev, pos, l0);
    if (l0->n == 0 || m->st != BASE_OK) return;
    for (int k = 0; k < m->depth; k++) {
        const struct loop_ctx *lc = &m->loop[k];
        int d = m->depth - 1 - k; /* ISA loop index: 0 = innermost */
        int64_t p1[V_NVARS], p2[V_NVARS];
        memcpy(p1, pos, sizeof p1);
        p1[lc->var] += lc->stride;
        memcpy(p2, p1, sizeof p2);
        p2[lc->var] += lc->stride;
        em_run_hook(m, ev, p1, l1);
        if (lc->count >= 3) em_run_hook(m, ev, p2, l2);
        if (m->st != BASE_OK) return;
        if (l1->n != l0->n || (lc->count >= 3 && l2->n != l0->n)) {
            em_error(m, "instruction count varies over a loop");
            return;
        }
        for (int i = 0; i < l0->n; i++) {
            struct isa_instr *a = &l0->v[i], *b = &l1->v[i], *c = &l2->v[i];
            if (!instr_shape_eq(a, b) || (lc->count >= 3 && !instr_shape_eq(a, c))) {
                em_error(m, "instruction shape varies over a loop");
                return;
            }
            for (int o = 0; o < 4; o++) {
                struct isa_ap *x = ap_of(a, o);
                if (x->space == ISA_SPACE_NONE) continue;
                int64_t step = (int64_t)(ap_of(b, o)->addr - x->addr);
                if (lc->count >= 3 && (int64_t)(ap_of(c, o)->addr - ap_of(b, o)->addr) != step) {
                    em_error(m, "address not affine over a loop");
                    return;
                }
                x->loop_step_bytes[d] = step;
            }
            if (a->flags & ISA_FLAG_WAIT) {
                int64_t ws = (int64_t)b->wait_value - a->wait_value;
                if (lc->count >= 3 && (int64_t)c->wait_value - b->wait_value != ws) {
                    em_error(m, "wait target not affine over a loop");
                    return;
                }
                a->wait_step[d] = (int32_t)ws;
            }
        }
    }
    for (int i = 0; i < l0->n; i++) {
        l0->v[i].tag = m->g->tag;
        if (isa_stream_push(m->s, &l0->v[i]) != BASE_OK) {
            m->st = BASE_ERR_NOMEM;
            return;
        }
    }
}

/* A loop over `count` iterations advancing pos[var] by stride; callers emit
 * the body at the first iteration's pos.  count < 2: no LOOP (count 1: the
 * body once). */
static bool em_loop_open(struct em *m, int var, int64_t stride, uint32_t count)
{
    if (count < 2 || m->st != BASE_OK) return false;
    if (m->depth >= ISA_MAX_LOOP_DEPTH) {
        em_error(m, "loops nest too deep");
        return false;
    }
    struct isa_instr lp = instr(ISA_OP_LOOP);
    lp.count = count;
    lp.body = 1; /* patched at close */
    lp.tag = m->g->tag;
    m->loop[m->depth] = (struct loop_ctx){var, stride, count, m->s->n};
    m->depth++;
    if (isa_stream_push(m->s, &lp) != BASE_OK) m->st = BASE_ERR_NOMEM;
    return true;
}

static void em_loop_close(struct em *m, bool opened)
{
    if (!opened) return;
    m->depth--;
    uint32_t head = m->loop[m->depth].head;
    if (m->st != BASE_OK) return;
    uint32_t body = m->s->n - head - 1;
    if (body == 0) {
        m->s->n--; /* nothing in it: drop the loop */
        return;
    }
    m->s->instrs[head].body = body;
}

/* ------------------------------------------------------- common geometry */

static uint32_t k_rows(const struct gen *g, uint32_t t) { return t < g->nkf ? g->kt : g->klast; }
static uint32_t m_rows(const struct gen *g, uint32_t i) { return i + 1 < g->nm ? g->mt : g->mlast; }
static uint32_t n_cols(const struct gen *g, uint32_t j) { return j + 1 < g->nn ? g->nt : g->nlast; }

/* Accumulator byte address of tile slot s (tiles never straddle a bank). */
static uint64_t acc_slot_addr(const struct gen *g, uint64_t s)
{
    uint64_t bank_bytes = (uint64_t)g->bank_f32 * 4;
    return s / g->tpb * bank_bytes + s % g->tpb * (uint64_t)g->ntp * 4;
}

static struct isa_instr matmul(const struct gen *g, struct isa_ap dst, struct isa_ap st, struct isa_ap mv, uint32_t t)
{
    struct isa_instr in = instr(ISA_OP_MATMUL);
    in.dst = dst;
    in.src0 = st;
    in.src1 = mv;
    if (g->cfg.dtype == BASE_DT_F32) in.func = (uint8_t)g->cfg.precision;
    if (t == 0) in.flags |= ISA_FLAG_START;
    if (t + 1 == g->nk) in.flags |= ISA_FLAG_STOP;
    return in;
}

/* ------------------------------------------------------------ ideal mode */

/* Scratchpad / accumulator addresses of the tiles.  Aliased: A and B tiles
 * share slots chosen by the parity of the fold indices the held operand
 * changes with (so consecutive folds hold different operands), and each
 * engine's C tiles one accumulator slot. */
static uint64_t ideal_a_addr(const struct gen *g, uint32_t t, uint32_t i)
{
    if (!g->alias_sp) return g->sp_a + ((uint64_t)t * g->M + (uint64_t)i * g->mt) * g->es;
    if (g->plan->dataflow != CHIP_DATAFLOW_WS) return g->sp_a;
    uint32_t il = i / (uint32_t)g->n_pe;
    return g->sp_a + (uint64_t)((t % 2) * 2 + il % 2) * g->mt * g->es;
}

static uint64_t ideal_b_addr(const struct gen *g, uint32_t t, uint32_t j)
{
    if (!g->alias_sp) return g->sp_bb + ((uint64_t)t * g->N + (uint64_t)j * g->nt) * g->es;
    if (g->plan->dataflow != CHIP_DATAFLOW_IS) return g->sp_bb;
    uint32_t jl = j / (uint32_t)g->n_pe;
    return g->sp_bb + (uint64_t)((t % 2) * 2 + jl % 2) * g->nt * g->es;
}

static uint64_t ideal_c_addr(const struct gen *g, int e, uint32_t i, uint32_t j)
{
    if (g->alias_acc) return acc_slot_addr(g, (uint64_t)e);
    return acc_slot_addr(g, (uint64_t)i * g->nn + j);
}

static void hook_ideal(const struct gen *g, int role, int e, enum event ev, const int64_t *pos, struct list *out)
{
    (void)role;
    if (ev != E_MM) return;
    uint32_t i = (uint32_t)pos[V_I], t = (uint32_t)pos[V_T], j = (uint32_t)pos[V_J];
    uint32_t kr = k_rows(g, t), mr = m_rows(g, i), nc = n_cols(g, j);
    struct isa_ap st = ap_row(ISA_SPACE_SP, 0, kr, ideal_a_addr(g, t, i), g->cfg.dtype, mr);
    struct isa_ap mv = ap_row(ISA_SPACE_SP, 0, kr, ideal_b_addr(g, t, j), g->cfg.dtype, nc);
    struct isa_ap dst = ap_row(ISA_SPACE_ACC, 0, mr, ideal_c_addr(g, e, i, j), BASE_DT_F32, nc);
    list_push(out, matmul(g, dst, st, mv, t));
}

/* One matmul at (i, t, j) */
static void ideal_mm(struct em *m, uint32_t i, uint32_t t, uint32_t j)
{
    int64_t pos[V_NVARS] = {0};
    pos[V_I] = i;
    pos[V_T] = t;
    pos[V_J] = j;
    em_emit(m, E_MM, pos);
}

/* The matmuls of a fold's chain over `var` (V_J on ws, V_I on is) at fixed
 * (i or j, t): full tiles in a loop, the ragged last one after. */
static void ideal_chain(struct em *m, int var, uint32_t i, uint32_t t, uint32_t j)
{
    const struct gen *g = m->g;
    uint32_t n = var == V_J ? g->nn : g->nm;
    bool last_full = var == V_J ? g->nlast == g->nt : g->mlast == g->mt;
    uint32_t full = last_full ? n : n - 1;
    bool lp = em_loop_open(m, var, 1, full);
    if (full >= 1) ideal_mm(m, var == V_I ? 0 : i, t, var == V_J ? 0 : j);
    em_loop_close(m, lp);
    if (!last_full) ideal_mm(m, var == V_I ? n - 1 : i, t, var == V_J ? n - 1 : j);
}

/* ws / is: the K tiles of one row (ws: M tile i) or column (is: N tile j):
 * t = 0 (start), the middle in pairs (the aliased slots alternate with t),
 * t = nk - 1 (stop); each t a chain. */
static void ideal_k_rows(struct em *m, int chain_var, uint32_t i, uint32_t j)
{
    const struct gen *g = m->g;
    ideal_chain(m, chain_var, i, 0, j);
    if (g->nk >= 3) {
        uint32_t mid = g->nk - 2, pairs = mid / 2;
        bool lp = em_loop_open(m, V_T, 2, pairs);
        if (pairs >= 1) {
            ideal_chain(m, chain_var, i, 1, j);
            ideal_chain(m, chain_var, i, 2, j);
        }
        em_loop_close(m, lp);
        if (mid % 2) ideal_chain(m, chain_var, i, g->nk - 2, j);
    }
    if (g->nk >= 2) ideal_chain(m, chain_var, i, g->nk - 1, j);
}

/* os: one fold (i, j): its K tiles accumulate into one dst. */
static void ideal_os_fold(struct em *m, uint32_t i, uint32_t j)
{
    const struct gen *g = m->g;
    ideal_mm(m, i, 0, j);
    if (g->nk >= 3) {
        bool lp = em_loop_open(m, V_T, 1, g->nk - 2);
        ideal_mm(m, i, 1, j);
        em_loop_close(m, lp);
    }
    if (g->nk >= 2) ideal_mm(m, i, g->nk - 1, j);
}

static void walk_ideal(struct em *m)
{
    const struct gen *g = m->g;
    int e = m->idx, np = g->n_pe;
    switch (g->plan->dataflow) {
    case CHIP_DATAFLOW_WS:
        for (uint32_t i = (uint32_t)e; i < g->nm; i += (uint32_t)np) ideal_k_rows(m, V_J, i, 0);
        break;
    case CHIP_DATAFLOW_IS:
        for (uint32_t j = (uint32_t)e; j < g->nn; j += (uint32_t)np) ideal_k_rows(m, V_I, 0, j);
        break;
    default:
        for (uint32_t i = (uint32_t)e; i < g->nm; i += (uint32_t)np) {
            uint32_t full = g->nlast == g->nt ? g->nn : g->nn - 1;
            bool lp = em_loop_open(m, V_J, 1, full);
            if (full >= 1) ideal_os_fold(m, i, 0);
            em_loop_close(m, lp);
            if (full < g->nn) ideal_os_fold(m, i, g->nn - 1);
        }
        break;
    }
}

/* -------------------------------------------------------------- DMA mode */

struct blk_geom {
    uint32_t bm, bn;           /* bm: this program's block row (g->rows) */
    uint64_t b;                /* global block index */
    uint32_t rows, cols;       /* elements of C */
    uint32_t mb, nb;           /* tiles */
    uint32_t rows_last, cols_last;
};

static void blk_geom(const struct gen *g, const int64_t *pos, struct blk_geom *bg)
{
    const struct group *gr = &g->grp[pos[V_GRP]];
    bg->bm = gr->bm;
    bg->bn = gr->bn0 + (uint32_t)pos[V_BLK];
    bg->b = gr->b0 + (uint64_t)pos[V_BLK];
    uint64_t r0 = (uint64_t)g->rows[bg->bm].bm * g->Mb, c0 = (uint64_t)bg->bn * g->Nb;
    bg->rows = (uint32_t)(g->M - r0 < g->Mb ? g->M - r0 : g->Mb);
    bg->cols = (uint32_t)(g->N - c0 < g->Nb ? g->N - c0 : g->Nb);
    bg->mb = ceil_div(bg->rows, g->mt);
    bg->nb = ceil_div(bg->cols, g->nt);
    bg->rows_last = bg->rows - (bg->mb - 1) * g->mt;
    bg->cols_last = bg->cols - (bg->nb - 1) * g->nt;
}

static uint32_t tile_rows(const struct blk_geom *bg, const struct gen *g, uint32_t ii)
{
    return ii + 1 < bg->mb ? g->mt : bg->rows_last;
}
static uint32_t tile_cols(const struct blk_geom *bg, const struct gen *g, uint32_t jj)
{
    return jj + 1 < bg->nb ? g->nt : bg->cols_last;
}

/* K tiles of chunk c: [t0, t0 + n), of which nfull are full */
static void chunk_tiles(const struct gen *g, uint32_t c, uint32_t *t0, uint32_t *n, uint32_t *nfull)
{
    *t0 = c * g->kc;
    *n = *t0 + g->kc <= g->nk ? g->kc : g->nk - *t0;
    *nfull = *t0 + *n <= g->nkf ? *n : g->nkf > *t0 ? g->nkf - *t0 : 0;
}

static uint64_t acc_tile_addr(const struct gen *g, uint64_t b, uint32_t k)
{
    return acc_slot_addr(g, (b % 2) * (g->slots / 2) + k);
}

static void hook_pe(const struct gen *g, int e, enum event ev, const int64_t *pos, struct list *out)
{
    if (ev == E_BM) { /* the block row's At panel is in */
        if (pos[V_BM] == 0 && g->split_first) return; /* waited for chunk by chunk */
        if (pos[V_BM] == 0)
            for (int q = 0; q < g->q_a + g->q_b + g->q_c; q++) list_wait(out, (uint16_t)(g->sem_a0 + q), 1);
        else
            for (int q = 0; q < g->q_a; q++) list_wait(out, (uint16_t)(g->sem_a + q), pos[V_BM]);
        if (out->n_pend) list_push(out, instr(ISA_OP_NOP));
        return;
    }
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    if (ev == E_BLK_PRO) {
        /* the accumulator buffer of block b - 2 has been evacuated */
        for (int v = 0; v < g->n_ev; v++) list_wait(out, (uint16_t)(g->sem_ev + v), (int64_t)bg.b - 1);
        list_push(out, instr(ISA_OP_NOP));
        return;
    }
    if (ev != E_CHUNK) return;
    uint32_t c = (uint32_t)pos[V_C], t0, nt_c, nfull;
    chunk_tiles(g, c, &t0, &nt_c, &nfull);
    uint64_t gc = bg.b * g->nch + c;
    uint32_t ntiles = bg.mb * bg.nb;
    bool mine = false;
    for (uint32_t k = (uint32_t)e; k < ntiles; k += (uint32_t)g->n_pe) mine = true;
    if (!mine) {
        list_signal_last(out, (uint16_t)(g->sem_prog + e), out->n);
        return;
    }
    if (g->split_first && bg.b == 0) /* the first panel's part for this chunk */
        for (int q = 0; q < g->q_a + g->q_b + g->q_c; q++) list_wait(out, (uint16_t)(g->sem_a0 + q), (int64_t)c + 1);
    for (int q = 0; q < g->q_b; q++) list_wait(out, (uint16_t)(g->sem_b + q), (int64_t)gc + 1);
    uint64_t panel = g->sp_panel[bg.bm % g->npanel], bbuf = g->sp_b[gc % 2];
    enum chip_dataflow df = g->plan->dataflow;
    /* loop order keeps the array's held operand across consecutive matmuls */
    uint32_t n0, n1, n2;
    if (df == CHIP_DATAFLOW_OS)
        n0 = bg.mb, n1 = bg.nb, n2 = nt_c;
    else if (df == CHIP_DATAFLOW_IS)
        n0 = nt_c, n1 = bg.nb, n2 = bg.mb;
    else
        n0 = nt_c, n1 = bg.mb, n2 = bg.nb;
    int first = out->n;
    for (uint32_t a = 0; a < n0; a++)
        for (uint32_t b = 0; b < n1; b++)
            for (uint32_t x = 0; x < n2; x++) {
                uint32_t u, ii, jj;
                if (df == CHIP_DATAFLOW_OS)
                    ii = a, jj = b, u = x;
                else if (df == CHIP_DATAFLOW_IS)
                    u = a, jj = b, ii = x;
                else
                    u = a, ii = b, jj = x;
                uint32_t k = ii * bg.nb + jj;
                if (k % (uint32_t)g->n_pe != (uint32_t)e) continue;
                uint32_t t = t0 + u, kr = k_rows(g, t), mr = tile_rows(&bg, g, ii), nc = tile_cols(&bg, g, jj);
                struct isa_ap st = ap_row(ISA_SPACE_SP, 0, kr, panel + ((uint64_t)t * g->Mb + (uint64_t)ii * g->mt) * g->es,
                                          g->cfg.dtype, mr);
                struct isa_ap mv = ap_row(ISA_SPACE_SP, 0, kr, bbuf + ((uint64_t)u * g->Nb + (uint64_t)jj * g->nt) * g->es,
                                          g->cfg.dtype, nc);
                struct isa_ap dst = ap_row(ISA_SPACE_ACC, 0, mr, acc_tile_addr(g, bg.b, k), BASE_DT_F32, nc);
                list_push(out, matmul(g, dst, st, mv, t));
            }
    list_signal_last(out, (uint16_t)(g->sem_prog + e), first);
}

static void last_store(const struct gen *g, int qi, uint16_t sem, enum event ev, const int64_t *pos, struct list *out);

/* Loads of K tiles [t0, t1) of At panel bm, partitions [p0, p1) of each;
 * signals sem. */
static void panel_load_range(const struct gen *g, uint32_t bm, uint32_t p0, uint32_t p1, uint32_t t0, uint32_t t1,
                             uint16_t sem, struct list *out)
{
    const struct cc_gemm_view *va = &g->va;
    uint32_t job = g->rows[bm].job;
    uint64_t r0 = (uint64_t)g->rows[bm].bm * g->Mb;
    uint32_t rows = (uint32_t)(g->M - r0 < g->Mb ? g->M - r0 : g->Mb);
    uint64_t panel = g->sp_panel[bm % g->npanel];
    int first = out->n;
    uint32_t f1 = t1 < g->nkf ? t1 : g->nkf;
    if (f1 > t0 && p1 > p0) {
        int64_t hs[2] = {(int64_t)g->kt * va->s_col, va->s_row}, ss[2] = {g->Mb, 1};
        uint32_t cnt[2] = {f1 - t0, rows};
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_part(ISA_SPACE_SP, p0, p1 - p0, panel + (uint64_t)t0 * g->Mb * g->es, g->cfg.dtype, 2, ss, cnt);
        d.src0 = ap_hbm(va, p1 - p0, view_addr(g, va, 0, job, (int64_t)r0, (int64_t)t0 * g->kt + p0), va->s_col, 2, hs,
                        cnt);
        list_push(out, d);
    }
    if (g->klast < g->kt && p0 < g->klast && p1 > p0 && g->nkf >= t0 && g->nkf < t1) {
        uint32_t pe = p1 < g->klast ? p1 : g->klast;
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_row(ISA_SPACE_SP, p0, pe - p0, panel + (uint64_t)g->nkf * g->Mb * g->es, g->cfg.dtype, rows);
        int64_t s1 = va->s_row;
        d.src0 = ap_hbm(va, pe - p0, view_addr(g, va, 0, job, (int64_t)r0, (int64_t)g->nkf * g->kt + p0), va->s_col, 1,
                        &s1, &rows);
        list_push(out, d);
    }
    list_signal_last(out, sem, first);
}

static void panel_load(const struct gen *g, uint32_t bm, uint32_t p0, uint32_t p1, uint16_t sem, struct list *out)
{
    panel_load_range(g, bm, p0, p1, 0, g->nk, sem, out);
}

static void chunk_load(const struct gen *g, const int64_t *pos, uint32_t p0, uint32_t p1, struct list *out);

/* The first panel: every queue takes a share (all are idle at the start). */
static void first_panel(const struct gen *g, int qi, enum event ev, const int64_t *pos, struct list *out)
{
    if (ev != E_BM || pos[V_BM] != 0) return;
    uint32_t n = (uint32_t)(g->q_a + g->q_b + g->q_c), p0 = range_lo((uint32_t)qi, n, g->kt),
             p1 = range_lo((uint32_t)qi + 1, n, g->kt);
    if (!g->split_first) panel_load(g, 0, p0, p1, (uint16_t)(g->sem_a0 + qi), out);
}

/* Layout mode: the first panel loads chunk by chunk, part c (chunk c's K
 * tiles, every queue a partition share, signal c + 1) just before chunk c
 * of the program's first block, so the arrays start after a chunk's worth
 * instead of the whole panel. */
static void first_panel_part(const struct gen *g, int qi, enum event ev, const int64_t *pos, struct list *out)
{
    if (!g->split_first || ev != E_CHUNK) return;
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    if (bg.b != 0) return;
    uint32_t n = (uint32_t)(g->q_a + g->q_b + g->q_c), t0, nt_c, nfull;
    chunk_tiles(g, (uint32_t)pos[V_C], &t0, &nt_c, &nfull);
    panel_load_range(g, 0, range_lo((uint32_t)qi, n, g->kt), range_lo((uint32_t)qi + 1, n, g->kt), t0, t0 + nt_c,
                     (uint16_t)(g->sem_a0 + qi), out);
}

/* Loads of the later At panels (queue q's partitions). */
static void hook_qa(const struct gen *g, int q, enum event ev, const int64_t *pos, struct list *out)
{
    last_store(g, q, (uint16_t)(g->sem_a + q), ev, pos, out);
    first_panel_part(g, q, ev, pos, out);
    if (ev != E_BM) return;
    uint32_t bm = (uint32_t)pos[V_BM];
    if (bm == 0) {
        first_panel(g, q, ev, pos, out);
        return;
    }
    if (bm >= g->npanel)
        for (int e = 0; e < g->n_pe; e++)
            list_wait(out, (uint16_t)(g->sem_prog + e), (int64_t)(g->blocks_end[bm - g->npanel] * g->nch));
    panel_load(g, bm, range_lo((uint32_t)q, (uint32_t)g->q_a, g->kt), range_lo((uint32_t)q + 1, (uint32_t)g->q_a, g->kt),
               (uint16_t)(g->sem_a + q), out);
}

/* Loads of B chunk c of a block (queue q's partitions). */
static void hook_qb(const struct gen *g, int q, enum event ev, const int64_t *pos, struct list *out)
{
    first_panel(g, g->q_a + q, ev, pos, out);
    first_panel_part(g, g->q_a + q, ev, pos, out);
    last_store(g, g->q_a + q, (uint16_t)(g->sem_b + q), ev, pos, out);
    if (ev != E_CHUNK) return;
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    uint32_t c = (uint32_t)pos[V_C], t0, nt_c, nfull;
    chunk_tiles(g, c, &t0, &nt_c, &nfull);
    uint64_t gc = bg.b * g->nch + c;
    /* the buffer's previous chunk (gc - 2) consumed by every engine */
    for (int e = 0; e < g->n_pe; e++) list_wait(out, (uint16_t)(g->sem_prog + e), (int64_t)gc - 1);
    int first = out->n;
    chunk_load(g, pos, range_lo((uint32_t)q, (uint32_t)g->q_b, g->kt), range_lo((uint32_t)q + 1, (uint32_t)g->q_b, g->kt),
               out);
    list_signal_last(out, (uint16_t)(g->sem_b + q), first);
}

/* The DMAs of B chunk pos[V_C] of block pos, partitions [p0, p1). */
static void chunk_load(const struct gen *g, const int64_t *pos, uint32_t p0, uint32_t p1, struct list *out)
{
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    uint32_t c = (uint32_t)pos[V_C], t0, nt_c, nfull;
    chunk_tiles(g, c, &t0, &nt_c, &nfull);
    uint64_t gc = bg.b * g->nch + c;
    uint64_t bbuf = g->sp_b[gc % 2], c0 = (uint64_t)bg.bn * g->Nb;
    const struct cc_gemm_view *vb = &g->vb;
    uint32_t job = g->rows[bg.bm].job;
    if (nfull > 0 && p1 > p0) {
        int64_t hs[2] = {(int64_t)g->kt * vb->s_row, vb->s_col}, ss[2] = {g->Nb, 1};
        uint32_t cnt[2] = {nfull, bg.cols};
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_part(ISA_SPACE_SP, p0, p1 - p0, bbuf, g->cfg.dtype, 2, ss, cnt);
        d.src0 = ap_hbm(vb, p1 - p0, view_addr(g, vb, 1, job, (int64_t)t0 * g->kt + p0, (int64_t)c0), vb->s_row, 2, hs,
                        cnt);
        list_push(out, d);
    }
    if (nfull < nt_c && p0 < g->klast && p1 > p0) { /* the ragged last K tile */
        uint32_t pe = p1 < g->klast ? p1 : g->klast;
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_row(ISA_SPACE_SP, p0, pe - p0, bbuf + (uint64_t)nfull * g->Nb * g->es, g->cfg.dtype, bg.cols);
        int64_t s1 = vb->s_col;
        uint32_t cols = bg.cols;
        d.src0 = ap_hbm(vb, pe - p0, view_addr(g, vb, 1, job, (int64_t)(t0 + nfull) * g->kt + p0, (int64_t)c0),
                        vb->s_row, 1, &s1, &cols);
        list_push(out, d);
    }
}

/* Evacuation of a finished block: accumulator -> staging, converting. */
static void hook_ev(const struct gen *g, int v, enum event ev, const int64_t *pos, struct list *out)
{
    if (ev != E_BLK_EPI) return;
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    for (int e = 0; e < g->n_pe; e++)
        list_wait(out, (uint16_t)(g->sem_prog + e), (int64_t)(bg.b + 1) * g->nch);
    for (int s = 0; s < g->q_c; s++) list_wait(out, (uint16_t)(g->sem_st + s), (int64_t)bg.b - 1);
    uint64_t stage = g->sp_stage[bg.b % 2];
    int first = out->n;
    for (uint32_t k = (uint32_t)v; k < bg.mb * bg.nb; k += (uint32_t)g->n_ev) {
        uint32_t ii = k / bg.nb, jj = k % bg.nb, mr = tile_rows(&bg, g, ii), nc = tile_cols(&bg, g, jj);
        struct isa_instr cp = instr(ISA_OP_COPY);
        cp.dst = ap_row(ISA_SPACE_SP, 0, mr, stage + ((uint64_t)ii * g->Nb + (uint64_t)jj * g->nt) * g->eso,
                        g->stage_dt, nc);
        cp.src0 = ap_row(ISA_SPACE_ACC, 0, mr, acc_tile_addr(g, bg.b, k), BASE_DT_F32, nc);
        list_push(out, cp);
    }
    list_signal_last(out, (uint16_t)(g->sem_ev + v), first);
}

/* Stores of block bg's staged rows, partitions [p0, p1) of each tile row;
 * signals sem. */
static void store_rows(const struct gen *g, const struct blk_geom *bg, uint32_t p0, uint32_t p1, uint16_t sem,
                       struct list *out)
{
    const struct cc_gemm_view *vc = &g->vc;
    uint32_t job = g->rows[bg->bm].job;
    uint64_t stage = g->sp_stage[bg->b % 2], r0 = (uint64_t)g->rows[bg->bm].bm * g->Mb, c0 = (uint64_t)bg->bn * g->Nb;
    uint32_t mfull = bg->rows_last == g->mt ? bg->mb : bg->mb - 1;
    int first = out->n;
    if (mfull > 0 && p1 > p0) {
        int64_t hs[2] = {(int64_t)g->mt * vc->s_row, vc->s_col}, ss[2] = {g->Nb, 1};
        uint32_t cnt[2] = {mfull, bg->cols};
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_hbm(vc, p1 - p0, view_addr(g, vc, 2, job, (int64_t)(r0 + p0), (int64_t)c0), vc->s_row, 2, hs, cnt);
        d.src0 = ap_part(ISA_SPACE_SP, p0, p1 - p0, stage, g->stage_dt, 2, ss, cnt);
        list_push(out, d);
    }
    if (mfull < bg->mb && p0 < bg->rows_last && p1 > p0) {
        uint32_t pe = p1 < bg->rows_last ? p1 : bg->rows_last, ii = bg->mb - 1, cols = bg->cols;
        int64_t s1 = vc->s_col;
        struct isa_instr d = instr(ISA_OP_DMA);
        d.dst = ap_hbm(vc, pe - p0, view_addr(g, vc, 2, job, (int64_t)(r0 + (uint64_t)ii * g->mt + p0), (int64_t)c0),
                       vc->s_row, 1, &s1, &cols);
        d.src0 = ap_row(ISA_SPACE_SP, p0, pe - p0, stage + (uint64_t)ii * g->Nb * g->eso, g->stage_dt, cols);
        list_push(out, d);
    }
    list_signal_last(out, sem, first);
}

/* Layout mode: the program's last block is stored by every queue (all are
 * idle by then), so the kernel's tail is short. */
static bool spread_last(const struct gen *g, const struct blk_geom *bg)
{
    return g->layout && g->nbm && bg->b + 1 == g->blocks_end[g->nbm - 1];
}

static void last_store(const struct gen *g, int qi, uint16_t sem, enum event ev, const int64_t *pos, struct list *out)
{
    if (ev != E_BLK_EPI) return;
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    if (!spread_last(g, &bg)) return;
    for (int v = 0; v < g->n_ev; v++) list_wait(out, (uint16_t)(g->sem_ev + v), (int64_t)bg.b + 1);
    uint32_t n = (uint32_t)(g->q_a + g->q_b + g->q_c);
    store_rows(g, &bg, range_lo((uint32_t)qi, n, g->mt), range_lo((uint32_t)qi + 1, n, g->mt), sem, out);
}

/* Stores of a block's staged rows (queue s's partitions). */
static void hook_qc(const struct gen *g, int s, enum event ev, const int64_t *pos, struct list *out)
{
    first_panel(g, g->q_a + g->q_b + s, ev, pos, out);
    first_panel_part(g, g->q_a + g->q_b + s, ev, pos, out);
    if (ev != E_BLK_EPI) return;
    struct blk_geom bg;
    blk_geom(g, pos, &bg);
    if (spread_last(g, &bg)) {
        last_store(g, g->q_a + g->q_b + s, (uint16_t)(g->sem_st + s), ev, pos, out);
        return;
    }
    for (int v = 0; v < g->n_ev; v++) list_wait(out, (uint16_t)(g->sem_ev + v), (int64_t)bg.b + 1);
    uint32_t p0 = range_lo((uint32_t)s, (uint32_t)g->q_c, g->mt), p1 = range_lo((uint32_t)s + 1, (uint32_t)g->q_c, g->mt);
    store_rows(g, &bg, p0, p1, (uint16_t)(g->sem_st + s), out);
}

static void hook_dma_mode(const struct gen *g, int role, int idx, enum event ev, const int64_t *pos, struct list *out)
{
    switch ((enum role_kind)role) {
    case R_PE: hook_pe(g, idx, ev, pos, out); break;
    case R_QA: hook_qa(g, idx, ev, pos, out); break;
    case R_QB: hook_qb(g, idx, ev, pos, out); break;
    case R_QC: hook_qc(g, idx, ev, pos, out); break;
    case R_EV: hook_ev(g, idx, ev, pos, out); break;
    }
}

/* A block: chunks [0, pf) one by one (pf >= 1: the first has `start`),
 * the middle in pairs, the last (`stop`). */
static void dma_block(struct em *m, int64_t *pos, uint32_t pf)
{
    const struct gen *g = m->g;
    pos[V_C] = 0;
    em_emit(m, E_BLK_PRO, pos);
    em_emit(m, E_CHUNK, pos);
    for (uint32_t c = 1; c < pf && c + 1 < g->nch; c++) {
        pos[V_C] = c;
        em_emit(m, E_CHUNK, pos);
    }
    if (pf < 1) pf = 1;
    if (g->nch >= pf + 2) {
        uint32_t mid = g->nch - 1 - pf, pairs = mid / 2;
        bool lp = em_loop_open(m, V_C, 2, pairs);
        if (pairs >= 1) {
            pos[V_C] = pf;
            em_emit(m, E_CHUNK, pos);
            pos[V_C] = pf + 1;
            em_emit(m, E_CHUNK, pos);
        }
        em_loop_close(m, lp);
        if (mid % 2) {
            pos[V_C] = g->nch - 2;
            em_emit(m, E_CHUNK, pos);
        }
    }
    if (g->nch >= 2) {
        pos[V_C] = g->nch - 1;
        em_emit(m, E_CHUNK, pos);
    }
    pos[V_C] = 0;
    em_emit(m, E_BLK_EPI, pos);
}

static void walk_dma(struct em *m)
{
    const struct gen *g = m->g;
    for (uint32_t bm = 0; bm < g->nbm; bm++) {
        int64_t pos[V_NVARS] = {bm, g->grp_first[bm], 0, 0};
        em_emit(m, E_BM, pos);
        uint32_t gend = bm + 1 < g->nbm ? g->grp_first[bm + 1] : g->n_grp;
        for (uint32_t gi = g->grp_first[bm]; gi < gend; gi++) {
            const struct group *gr = &g->grp[gi];
            pos[V_GRP] = gi;
            /* layout mode: the program's first block (its first chunk comes
             * with the first panel) and last block (stored by every queue)
             * outside the loop */
            uint32_t b0 = 0, n = gr->nblk;
            if (g->split_first && gi == 0) {
                pos[V_BLK] = 0;
                dma_block(m, pos, g->nch);
                b0 = 1;
                n--;
            }
            uint32_t pairs = n / 2;
            bool peel = g->layout && gi + 1 == g->n_grp && n % 2 == 0 && pairs >= 1;
            bool lp = em_loop_open(m, V_BLK, 2, pairs - (peel ? 1 : 0));
            if (pairs - (peel ? 1 : 0) >= 1) {
                pos[V_BLK] = b0;
                dma_block(m, pos, 1);
                pos[V_BLK] = b0 + 1;
                dma_block(m, pos, 1);
            }
            em_loop_close(m, lp);
            if (peel) {
                pos[V_BLK] = b0 + n - 2;
                dma_block(m, pos, 1);
                pos[V_BLK] = b0 + n - 1;
                dma_block(m, pos, 1);
            }
            if (n % 2) {
                pos[V_BLK] = b0 + n - 1;
                dma_block(m, pos, 1);
            }
        }
    }
}

/* ------------------------------------------------------------- planning */

static bool is_pe(const struct chip_engine_desc *d) { return d->kind == ISA_ENGINE_SYSTOLIC; }

static enum base_status setup_common(struct gen *g, const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                     struct cc_gemm_plan *plan, bool any_float, struct base_diag *diag)
{
    memset(g, 0, sizeof *g);
    g->chip = chip;
    g->cfg = *cfg;
    g->plan = plan;
    g->M = cfg->m;
    g->K = cfg->k;
    g->N = cfg->n;
    if (!cfg->m || !cfg->k || !cfg->n) return gen_fail(g, diag, BASE_ERR_INVALID, "M, K and N must be > 0");
    if (cfg->m > (1u << 30) || cfg->k > (1u << 30) || cfg->n > (1u << 30))
        return gen_fail(g, diag, BASE_ERR_LIMIT, "dimensions above 2^30");
    if (!any_float && cfg->dtype != BASE_DT_BF16 && cfg->dtype != BASE_DT_F8E4M3FN && cfg->dtype != BASE_DT_F32)
        return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "dtype %s: bf16, f8E4M3FN or f32",
                        base_dtype_name(cfg->dtype));
    if ((unsigned)cfg->dtype >= BASE_DT_COUNT || !base_dtype_is_float(cfg->dtype) || base_dtype_bits(cfg->dtype) > 32)
        return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "dtype %s: a float of at most 32 bits",
                        (unsigned)cfg->dtype < BASE_DT_COUNT ? base_dtype_name(cfg->dtype) : "?");
    if (!base_dtype_is_float(cfg->out_dtype) || base_dtype_size(cfg->out_dtype) > 4)
        return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "output dtype %s: a float of at most 32 bits",
                        base_dtype_name(cfg->out_dtype));
    bool ok = chip->matmul_supports[cfg->dtype] ||
              (cfg->dtype == BASE_DT_F32 && chip->family == CHIP_FAMILY_TPU && chip->matmul_supports[BASE_DT_BF16]);
    if (!ok)
        return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "the arrays do not take %s (matmul_types)",
                        base_dtype_name(cfg->dtype));
    for (uint32_t i = 0; i < chip->n_engines; i++) {
        const struct chip_engine_desc *d = &chip->engines[i];
        if (is_pe(d)) {
            if (!g->n_pe) g->pe_desc = d;
            g->pe[g->n_pe++] = (int)i;
        } else if (d->kind == ISA_ENGINE_DMA) {
            g->q[g->n_q++] = (int)i;
        }
    }
    for (int kind = 0; kind < 2; kind++)
        for (uint32_t i = 0; i < chip->n_engines && g->n_ev < 2; i++)
            if (chip->engines[i].kind == (kind == 0 ? ISA_ENGINE_SCALAR : ISA_ENGINE_VECTOR)) g->ev[g->n_ev++] = (int)i;
    if (!g->n_pe) return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "the core has no systolic array");
    const struct chip_engine_desc *pe = g->pe_desc;
    for (int e = 1; e < g->n_pe; e++) {
        const struct chip_engine_desc *d = &chip->engines[g->pe[e]];
        if (d->rows != pe->rows || d->cols != pe->cols || d->dataflow != pe->dataflow || d->preload != pe->preload)
            return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "systolic engines %s and %s differ", pe->name, d->name);
    }
    g->es = (uint32_t)base_dtype_size(cfg->dtype);
    g->eso = (uint32_t)base_dtype_size(cfg->out_dtype);
    uint32_t psp = chip->scratchpad.partitions, pacc = chip->accumulator.partitions;
    uint32_t banks = chip->accumulator.banks ? chip->accumulator.banks : 1;
    g->bank_f32 = (uint32_t)(chip->accumulator.bytes_per_partition / banks / 4);
    if (!g->bank_f32) return gen_fail(g, diag, BASE_ERR_LIMIT, "an accumulator bank holds no f32");
    uint32_t R = pe->rows, C = pe->cols;
    plan->dataflow = pe->dataflow;
    plan->preload = pe->preload && pe->dataflow == CHIP_DATAFLOW_WS;
    switch (pe->dataflow) {
    case CHIP_DATAFLOW_OS: /* Sr = M, Sc = N, T = K */
        g->kt = psp;
        g->mt = R < pacc ? R : pacc;
        g->nt = C < g->bank_f32 ? C : g->bank_f32;
        break;
    case CHIP_DATAFLOW_IS: /* Sr = K, Sc = N, T = M */
        g->kt = R < psp ? R : psp;
        g->mt = pacc;
        g->nt = C < g->bank_f32 ? C : g->bank_f32;
        break;
    default: /* Sr = K, Sc = M, T = N */
        g->kt = R < psp ? R : psp;
        g->mt = C < pacc ? C : pacc;
        g->nt = g->bank_f32;
        break;
    }
    if (g->kt > g->K) g->kt = g->K;
    if (g->mt > g->M) g->mt = g->M;
    if (g->nt > g->N) g->nt = g->N;
    g->nkf = g->K / g->kt;
    g->nk = ceil_div(g->K, g->kt);
    g->klast = g->K - (g->nk - 1) * g->kt;
    g->nm = ceil_div(g->M, g->mt);
    g->mlast = g->M - (g->nm - 1) * g->mt;
    g->nn = ceil_div(g->N, g->nt);
    g->nlast = g->N - (g->nn - 1) * g->nt;
    /* accumulator tile pitch: the smallest divisor of the bank >= nt */
    g->ntp = g->nt;
    while (g->bank_f32 % g->ntp) g->ntp++;
    g->tpb = g->bank_f32 / g->ntp;
    g->slots = banks * g->tpb;
    plan->cfg = *cfg;
    plan->n_pe = (uint32_t)g->n_pe;
    plan->kt = g->kt;
    plan->mt = g->mt;
    plan->nt = g->nt;
    plan->nk = g->nk;
    plan->nm = g->nm;
    plan->nn = g->nn;
    return BASE_OK;
}

static enum base_status plan_ideal(struct gen *g, struct base_diag *diag)
{
    const struct chip_desc *chip = g->chip;
    struct cc_gemm_plan *p = g->plan;
    uint64_t cap = chip->scratchpad.bytes_per_partition;
    uint64_t a_bytes = align64((uint64_t)g->nk * g->M * g->es), b_bytes = align64((uint64_t)g->nk * g->N * g->es);
    g->alias_sp = a_bytes + b_bytes > cap;
    if (g->alias_sp) {
        a_bytes = align64(4ull * g->mt * g->es);
        b_bytes = align64(4ull * g->nt * g->es);
    }
    g->sp_a = 0;
    g->sp_bb = a_bytes;
    g->alias_acc = (uint64_t)g->nm * g->nn > g->slots;
    if (g->alias_acc && (uint64_t)g->n_pe > g->slots)
        return gen_fail(g, diag, BASE_ERR_LIMIT, "%d arrays need %d accumulator slots, there are %u", g->n_pe, g->n_pe,
                        g->slots);
    p->timing_only = g->alias_sp || g->alias_acc;
    p->sp_bytes = a_bytes + b_bytes;
    enum base_dtype dt = g->cfg.dtype;
    p->a = (struct cc_gemm_region){ISA_SPACE_SP, 0, g->sp_a, dt, 3, {g->kt, g->nk, g->M}};
    p->b = (struct cc_gemm_region){ISA_SPACE_SP, 0, g->sp_bb, dt, 3, {g->kt, g->nk, g->N}};
    if (g->alias_sp) {
        p->a = (struct cc_gemm_region){ISA_SPACE_SP, 0, g->sp_a, dt, 2, {g->kt, 4ll * g->mt, 0}};
        p->b = (struct cc_gemm_region){ISA_SPACE_SP, 0, g->sp_bb, dt, 2, {g->kt, 4ll * g->nt, 0}};
    }
    if (g->alias_acc)
        p->c = (struct cc_gemm_region){ISA_SPACE_NONE, 0, 0, BASE_DT_F32, 0, {0, 0, 0}};
    else
        p->c = (struct cc_gemm_region){ISA_SPACE_ACC, 0, 0, BASE_DT_F32, 3,
                                       {g->mt, g->nm, (int64_t)g->nn * g->ntp}};
    return BASE_OK;
}

/* The arrays' time per K tile of a block (ns): the busiest engine's tiles,
 * each streaming nt rows (p passes for f32 on a TPU). */
static double tile_ns(const struct gen *g)
{
    const struct chip_engine_desc *d = g->pe_desc;
    enum chip_rate_class rc = chip_rate_class_of(g->cfg.dtype);
    double p = 1;
    if (g->cfg.dtype == BASE_DT_F32 && g->chip->family == CHIP_FAMILY_TPU) {
        rc = CHIP_RATE_BF16;
        enum isa_precision pr = g->cfg.precision;
        uint32_t n = pr == ISA_PREC_HIGHEST ? g->chip->fp32_passes_highest
                     : pr == ISA_PREC_HIGH  ? g->chip->fp32_passes_high
                                            : g->chip->fp32_passes_default;
        p = n ? n : 1;
    }
    double rpc = d->rows_per_cycle[rc] > 0 ? d->rows_per_cycle[rc] : 1;
    double S = ceil(g->nt / rpc);
    if (S < d->min_stream_cycles) S = d->min_stream_cycles;
    double tiles = ceil((double)g->mb * g->nb / g->n_pe);
    return tiles * S * p / d->clock_ghz;
}

/* Queues per role, in proportion to the bytes each moves per block: B (K x
 * Nb), C (Mb x Nb) and the At panel (K x Mb, once per block row); at least
 * one each, at most one per partition of what it splits. */
static void split_queues(struct gen *g)
{
    double nbn = ceil((double)g->N / g->Nb);
    double wb = (double)g->K * g->Nb * g->es, wc = (double)g->Mb * g->Nb * g->eso, wa = (double)g->K * g->Mb * g->es / nbn;
    double n = g->n_q, w = wa + wb + wc;
    g->q_a = (int)(n * wa / w + 0.5);
    g->q_c = (int)(n * wc / w + 0.5);
    if (g->q_a < 1) g->q_a = 1;
    if (g->q_c < 1) g->q_c = 1;
    if ((uint32_t)g->q_a > g->kt) g->q_a = (int)g->kt;
    if ((uint32_t)g->q_c > g->mt) g->q_c = (int)g->mt;
    while (g->n_q - g->q_a - g->q_c < 1) {
        if (g->q_a >= g->q_c)
            g->q_a--;
        else
            g->q_c--;
    }
    g->q_b = g->n_q - g->q_a - g->q_c;
    if ((uint32_t)g->q_b > g->kt) g->q_b = (int)g->kt;
}

static enum base_status plan_dma(struct gen *g, struct base_diag *diag)
{
    const struct chip_desc *chip = g->chip;
    struct cc_gemm_plan *p = g->plan;
    if (g->n_q < 3) return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "the kernel needs 3 DMA queues, the core has %d", g->n_q);
    if (!g->n_ev)
        return gen_fail(g, diag, BASE_ERR_UNSUPPORTED, "the kernel needs a vector or scalar engine to evacuate results");
    /* the semaphores: the first panel's (one per queue), then per role */
    g->sem_a0 = 0;
    /* block: mb x nb tiles, two blocks in the accumulator */
    uint32_t tiles_max = g->slots / 2;
    if (!tiles_max) return gen_fail(g, diag, BASE_ERR_LIMIT, "the accumulator holds fewer than two output tiles");
    /* the B queues' bandwidth and fixed cost decide the chunk size */
    const struct chip_engine_desc *qb;
    uint64_t cap = chip->scratchpad.bytes_per_partition;
    for (uint32_t mb = tiles_max < g->nm ? tiles_max : g->nm; mb >= 1; mb--) {
        g->mb = mb;
        g->nb = tiles_max / mb < g->nn ? tiles_max / mb : g->nn;
        g->Mb = mb * g->mt;
        g->Nb = g->nb * g->nt;
        split_queues(g);
        qb = &chip->engines[g->q[g->q_a]];
        uint64_t parts_q = ceil_div(g->kt, (uint32_t)g->q_b);
        /* a chunk's load (fixed cost and HBM latency, then bytes at the
         * queue's share of HBM) must hide behind the chunk before it:
         * kc t_tile >= fixed + kc x (t_tile: the arrays' time per K tile,
         * x: a queue's load time per K tile); and the fixed part at most
         * 20% of a load */
        double fixed_ns = (double)(qb->fixed_ps + chip->hbm.latency_ps) / 1000.0, bw = qb->bytes_per_ns;
        double sharers = (double)g->q_b * (g->n_cores > 1 ? g->n_cores : 1); /* the B queues of every core */
        if (chip->hbm.bytes_per_ns / sharers < bw) bw = chip->hbm.bytes_per_ns / sharers;
        uint64_t per_tile = parts_q * g->Nb * g->es;
        double x = (double)per_tile / bw, t_tile = tile_ns(g);
        uint64_t kc = (uint64_t)ceil(4.0 * fixed_ns / x);
        if (t_tile > x) {
            uint64_t hide = (uint64_t)ceil(1.5 * fixed_ns / (t_tile - x));
            if (hide > kc) kc = hide;
        }
        if (kc < 1) kc = 1;
        if (kc > g->nk) kc = g->nk;
        kc = cdiv64(g->nk, cdiv64(g->nk, kc)); /* chunks of equal size: the DMA of the next hides behind this one */
        uint64_t panel = align64((uint64_t)g->nk * g->Mb * g->es), stage = align64((uint64_t)mb * g->Nb * g->eso);
        for (g->npanel = 2; g->npanel >= 1; g->npanel--) {
            for (; kc >= 1; kc--) {
                uint64_t bbuf = align64(kc * g->Nb * g->es);
                uint64_t total = g->npanel * panel + 2 * bbuf + 2 * stage;
                if (total <= cap) {
                    g->kc = (uint32_t)kc;
                    g->sp_panel[0] = 0;
                    g->sp_panel[1] = g->npanel == 2 ? panel : 0;
                    g->sp_b[0] = g->npanel * panel;
                    g->sp_b[1] = g->sp_b[0] + bbuf;
                    g->sp_stage[0] = g->sp_b[1] + bbuf;
                    g->sp_stage[1] = g->sp_stage[0] + stage;
                    p->sp_bytes = total;
                    goto fits;
                }
            }
            kc = 1;
        }
    }
    return gen_fail(g, diag, BASE_ERR_LIMIT,
                    "an At panel of one tile row (K x %u %s = %llu bytes per partition) does not fit the %llu-byte "
                    "scratchpad partition",
                    g->mt, base_dtype_name(g->cfg.dtype), (unsigned long long)((uint64_t)g->nk * g->mt * g->es),
                    (unsigned long long)cap);
fits:
    g->sem_a = (uint16_t)g->n_q;
    g->sem_b = (uint16_t)(g->sem_a + g->q_a);
    g->sem_prog = (uint16_t)(g->sem_b + g->q_b);
    g->sem_ev = (uint16_t)(g->sem_prog + g->n_pe);
    g->sem_st = (uint16_t)(g->sem_ev + g->n_ev);
    g->nch = ceil_div(g->nk, g->kc);
    uint32_t nbm_job = ceil_div(g->M, g->Mb);
    uint32_t nbn = ceil_div(g->N, g->Nb), nbn_full = g->N / g->Nb;
    /* HBM: the dense layout (npusim gemm) unless the caller gave views */
    if (!g->layout) {
        uint64_t at = align64(g->cfg.hbm_base);
        uint64_t bb = align64(at + (uint64_t)g->K * g->M * g->es);
        uint64_t cc = align64(bb + (uint64_t)g->K * g->N * g->es);
        uint64_t end = cc + (uint64_t)g->M * g->N * g->eso;
        if (end > chip->hbm.capacity_bytes)
            return gen_fail(g, diag, BASE_ERR_LIMIT, "At, B and C need %llu bytes of HBM, the chip has %llu",
                            (unsigned long long)end, (unsigned long long)chip->hbm.capacity_bytes);
        g->va = (struct cc_gemm_view){at, g->cfg.dtype, 1, g->M};
        g->vb = (struct cc_gemm_view){bb, g->cfg.dtype, g->N, 1};
        g->vc = (struct cc_gemm_view){cc, g->cfg.out_dtype, g->N, 1};
        p->a = (struct cc_gemm_region){ISA_SPACE_HBM, 0, at, g->cfg.dtype, 2, {g->K, g->M, 0}};
        p->b = (struct cc_gemm_region){ISA_SPACE_HBM, 0, bb, g->cfg.dtype, 2, {g->K, g->N, 0}};
        p->c = (struct cc_gemm_region){ISA_SPACE_HBM, 0, cc, g->cfg.out_dtype, 2, {g->M, g->N, 0}};
    }
    /* this program's blocks: a contiguous share of all jobs' blocks (job,
     * block row, block column); groups: per block row, the full blocks and
     * the ragged last one */
    uint64_t per_job = (uint64_t)nbm_job * nbn, total = per_job * g->n_jobs;
    uint32_t nc = g->n_cores ? g->n_cores : 1, core = g->core < nc ? g->core : nc;
    struct cc_emit_ctx share_ctx = {core, nc, NULL};
    int64_t lo_i, hi_i;
    cc_core_share((int64_t)total, &share_ctx, &lo_i, &hi_i);
    uint64_t lo = (uint64_t)lo_i, hi = (uint64_t)hi_i;
    uint64_t row_lo = lo / nbn, row_hi = hi ? (hi - 1) / nbn + 1 : 0;
    g->nbm = hi > lo ? (uint32_t)(row_hi - row_lo) : 0;
    g->grp = calloc((size_t)g->nbm * 2 + 1, sizeof *g->grp);
    g->grp_first = calloc((size_t)g->nbm + 1, sizeof *g->grp_first);
    g->blocks_end = calloc((size_t)g->nbm + 1, sizeof *g->blocks_end);
    g->rows = calloc((size_t)g->nbm + 1, sizeof *g->rows);
    if (!g->grp || !g->grp_first || !g->blocks_end || !g->rows) return BASE_ERR_NOMEM;
    uint64_t b = 0;
    for (uint32_t bm = 0; bm < g->nbm; bm++) {
        uint64_t r = row_lo + bm, first = r * nbn;
        uint32_t bn0 = (uint32_t)(lo > first ? lo - first : 0), bn1 = (uint32_t)(hi < first + nbn ? hi - first : nbn);
        g->rows[bm] = (struct brow){(uint32_t)(r / nbm_job), (uint32_t)(r % nbm_job)};
        g->grp_first[bm] = g->n_grp;
        uint32_t full_end = bn1 < nbn_full ? bn1 : nbn_full;
        if (full_end > bn0) {
            g->grp[g->n_grp++] = (struct group){bm, bn0, full_end - bn0, b};
            b += full_end - bn0;
        }
        if (nbn > nbn_full && bn1 == nbn && bn0 <= nbn_full) {
            g->grp[g->n_grp++] = (struct group){bm, nbn_full, 1, b};
            b++;
        }
        g->blocks_end[bm] = b;
    }
    p->mb = g->mb;
    p->nb = g->nb;
    p->kc = g->kc;
    p->a_panels = g->npanel;
    p->q_a = (uint32_t)g->q_a;
    p->q_b = (uint32_t)g->q_b;
    p->q_c = (uint32_t)g->q_c;
    p->n_evac = (uint32_t)g->n_ev;
    g->split_first = g->layout && g->nch >= 2 && g->nbm > 0;
    return BASE_OK;
}

static void gen_free(struct gen *g)
{
    free(g->grp);
    free(g->grp_first);
    free(g->blocks_end);
    free(g->rows);
}

static enum base_status emit_stream(struct gen *g, struct isa_program *prog, const char *engine, int role, int idx,
                                    struct list *bufs, struct base_diag *diag)
{
    struct em m;
    memset(&m, 0, sizeof m);
    m.g = g;
    m.s = isa_program_stream(prog, engine);
    if (!m.s) return BASE_ERR_NOMEM;
    m.hook = g->cfg.ideal_memory ? hook_ideal : hook_dma_mode;
    m.role = role;
    m.idx = idx;
    m.diag = diag;
    for (int i = 0; i < 3; i++) m.l[i] = bufs[i];
    if (g->cfg.ideal_memory)
        walk_ideal(&m);
    else
        walk_dma(&m);
    return m.st;
}

/* Both entry points; lay NULL: the dense layout (or ideal memory). */
static enum base_status build(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                              const struct cc_gemm_layout *lay, struct isa_program *prog, struct cc_gemm_plan *plan,
                              struct base_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    struct gen g;
    struct cc_gemm_config c = *cfg;
    if (lay) {
        c.ideal_memory = false;
        c.hbm_base = 0;
        c.out_dtype = lay->stage_dtype;
    }
    enum base_status st = setup_common(&g, chip, &c, plan, lay != NULL, diag);
    g.n_jobs = 1;
    g.n_cores = 1;
    g.stage_dt = c.out_dtype;
    if (lay && st == BASE_OK) {
        g.layout = true;
        g.va = lay->a;
        g.vb = lay->b;
        g.vc = lay->c;
        g.n_jobs = lay->n_jobs ? lay->n_jobs : 1;
        g.job_off = lay->job_off;
        g.core = lay->core;
        g.n_cores = lay->n_cores ? lay->n_cores : 1;
        g.tag = lay->tag;
        const struct cc_gemm_view *vs[3] = {&lay->a, &lay->b, &lay->c};
        for (int i = 0; i < 3 && st == BASE_OK; i++)
            if ((unsigned)vs[i]->dtype >= BASE_DT_COUNT || base_dtype_is_complex(vs[i]->dtype) ||
                base_dtype_bits(vs[i]->dtype) > 64)
                st = gen_fail(&g, diag, BASE_ERR_UNSUPPORTED, "operand %c in HBM: type %s", "ABC"[i],
                              (unsigned)vs[i]->dtype < BASE_DT_COUNT ? base_dtype_name(vs[i]->dtype) : "?");
    }
    if (st == BASE_OK) st = c.ideal_memory ? plan_ideal(&g, diag) : plan_dma(&g, diag);
    struct list bufs[3];
    memset(bufs, 0, sizeof bufs);
    for (int i = 0; i < 3 && st == BASE_OK; i++)
        if (!(bufs[i].v = malloc(LIST_MAX * sizeof *bufs[i].v))) st = BASE_ERR_NOMEM;
    if (!lay || !prog->name[0]) snprintf(prog->name, sizeof prog->name, "gemm_%ux%ux%u", cfg->m, cfg->k, cfg->n);
    for (int e = 0; e < g.n_pe && st == BASE_OK; e++)
        st = emit_stream(&g, prog, chip->engines[g.pe[e]].name, R_PE, e, bufs, diag);
    if (!c.ideal_memory) {
        for (int q = 0; q < g.q_a && st == BASE_OK; q++)
            st = emit_stream(&g, prog, chip->engines[g.q[q]].name, R_QA, q, bufs, diag);
        for (int q = 0; q < g.q_b && st == BASE_OK; q++)
            st = emit_stream(&g, prog, chip->engines[g.q[g.q_a + q]].name, R_QB, q, bufs, diag);
        for (int q = 0; q < g.q_c && st == BASE_OK; q++)
            st = emit_stream(&g, prog, chip->engines[g.q[g.q_a + g.q_b + q]].name, R_QC, q, bufs, diag);
        for (int v = 0; v < g.n_ev && st == BASE_OK; v++)
            st = emit_stream(&g, prog, chip->engines[g.ev[v]].name, R_EV, v, bufs, diag);
    }
    for (int i = 0; i < 3; i++) free(bufs[i].v);
    gen_free(&g);
    if (st == BASE_OK) {
        /* drop streams left empty (an engine without work) */
        int w = 0;
        for (int i = 0; i < prog->n_streams; i++) {
            if (prog->streams[i].n == 0) {
                free(prog->streams[i].instrs);
                continue;
            }
            prog->streams[w++] = prog->streams[i];
        }
        for (int i = w; i < prog->n_streams; i++) memset(&prog->streams[i], 0, sizeof prog->streams[i]);
        prog->n_streams = w;
        st = isa_program_validate(prog, "gemm", diag);
    }
    if (st != BASE_OK) {
        if (diag && !diag->msg[0]) base_diag_set(diag, st, "gemm", 0, 0, "gemm generator: %s", base_status_str(st));
        isa_program_deinit(prog);
    }
    return st;
}

enum base_status cc_gemm_build(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                               struct isa_program *prog, struct cc_gemm_plan *plan, struct base_diag *diag)
{
    isa_program_init(prog);
    return build(chip, cfg, NULL, prog, plan, diag);
}

enum base_status cc_gemm_build_layout(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                      const struct cc_gemm_layout *lay, struct isa_program *prog,
                                      struct cc_gemm_plan *plan, struct base_diag *diag)
{
    return build(chip, cfg, lay, prog, plan, diag);
}

/* ------------------------------------------------------------ host side */

static enum base_status region_zeros(const struct cc_gemm_region *r, struct base_tensor **out)
{
    return base_tensor_create(r->dtype, r->rank, r->dims, out);
}

/* t converted to dt (a fresh tensor, or t retained when it already is dt) */
static enum base_status as_dtype(const struct base_tensor *t, enum base_dtype dt, struct base_tensor **out)
{
    if (t->dtype == dt) {
        *out = base_tensor_retain((struct base_tensor *)t);
        return BASE_OK;
    }
    TRY(base_tensor_create(dt, t->rank, t->dims, out));
    base_convert(dt, (*out)->data, t->dtype, t->data, (size_t)t->count);
    return BASE_OK;
}

static bool is_matrix(const struct base_tensor *t, int64_t r, int64_t c)
{
    return t && t->rank == 2 && t->dims[0] == r && t->dims[1] == c;
}

static void copy_elems(void *dst, const void *src, size_t es, size_t n)
{
    memcpy(dst, src, es * n);
}

enum base_status cc_gemm_pack_a(const struct cc_gemm_plan *p, const struct base_tensor *a, struct base_tensor **out)
{
    *out = NULL;
    const struct cc_gemm_config *c = &p->cfg;
    if (p->timing_only || !a) return region_zeros(&p->a, out);
    if (!is_matrix(a, c->m, c->k)) return BASE_ERR_INVALID;
    struct base_tensor *ac;
    TRY(as_dtype(a, c->dtype, &ac));
    enum base_status st = region_zeros(&p->a, out);
    if (st == BASE_OK) {
        size_t es = base_dtype_size(c->dtype);
        const uint8_t *s = ac->data;
        uint8_t *d = (*out)->data;
        if (c->ideal_memory) { /* [kt][nk][M]: (p, t, m) = A[m][t kt + p] */
            for (uint32_t t = 0; t < p->nk; t++)
                for (uint32_t q = 0; q < p->kt && (uint64_t)t * p->kt + q < c->k; q++)
                    for (uint32_t m = 0; m < c->m; m++)
                        copy_elems(d + (((uint64_t)q * p->nk + t) * c->m + m) * es,
                                   s + ((uint64_t)m * c->k + (uint64_t)t * p->kt + q) * es, es, 1);
        } else { /* At[K][M] */
            for (uint32_t m = 0; m < c->m; m++)
                for (uint32_t k = 0; k < c->k; k++)
                    copy_elems(d + ((uint64_t)k * c->m + m) * es, s + ((uint64_t)m * c->k + k) * es, es, 1);
        }
    }
    base_tensor_release(ac);
    if (st != BASE_OK) {
        base_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

enum base_status cc_gemm_pack_b(const struct cc_gemm_plan *p, const struct base_tensor *b, struct base_tensor **out)
{
    *out = NULL;
    const struct cc_gemm_config *c = &p->cfg;
    if (p->timing_only || !b) return region_zeros(&p->b, out);
    if (!is_matrix(b, c->k, c->n)) return BASE_ERR_INVALID;
    struct base_tensor *bc;
    TRY(as_dtype(b, c->dtype, &bc));
    enum base_status st = region_zeros(&p->b, out);
    if (st == BASE_OK) {
        size_t es = base_dtype_size(c->dtype);
        const uint8_t *s = bc->data;
        uint8_t *d = (*out)->data;
        if (c->ideal_memory) { /* [kt][nk][N]: (p, t, n) = B[t kt + p][n] */
            for (uint32_t t = 0; t < p->nk; t++)
                for (uint32_t q = 0; q < p->kt && (uint64_t)t * p->kt + q < c->k; q++)
                    copy_elems(d + (((uint64_t)q * p->nk + t) * c->n) * es,
                               s + (((uint64_t)t * p->kt + q) * c->n) * es, es, c->n);
        } else {
            memcpy(d, s, (size_t)c->k * c->n * es);
        }
    }
    base_tensor_release(bc);
    if (st != BASE_OK) {
        base_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

enum base_status cc_gemm_unpack_c(const struct cc_gemm_plan *p, const struct base_tensor *raw, struct base_tensor **out)
{
    *out = NULL;
    const struct cc_gemm_config *c = &p->cfg;
    if (p->c.space == ISA_SPACE_NONE || !raw || raw->dtype != p->c.dtype || raw->count != base_shape_count(p->c.rank, p->c.dims))
        return BASE_ERR_INVALID;
    int64_t dims[2] = {c->m, c->n};
    if (!c->ideal_memory) return base_tensor_reshape((struct base_tensor *)raw, 2, dims, out);
    TRY(base_tensor_create(BASE_DT_F32, 2, dims, out));
    const float *s = raw->data;
    float *d = (*out)->data;
    uint64_t pitch = (uint64_t)p->c.dims[2], ntp = pitch / p->nn;
    for (uint32_t i = 0; i < p->nm; i++)
        for (uint32_t q = 0; q < p->mt && (uint64_t)i * p->mt + q < c->m; q++)
            for (uint32_t j = 0; j < p->nn; j++)
                for (uint32_t n = 0; n < p->nt && (uint64_t)j * p->nt + n < c->n; n++)
                    d[((uint64_t)i * p->mt + q) * c->n + (uint64_t)j * p->nt + n] =
                        s[((uint64_t)q * p->nm + i) * pitch + (uint64_t)j * ntp + n];
    return BASE_OK;
}

/* ------------------------------------------------------------ reference */

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* products rounded to f32 before the add, as the array does (gcc: ISO C default) */
#endif

static uint32_t prec_passes(const struct chip_desc *chip, enum isa_precision prec)
{
    uint32_t p = prec == ISA_PREC_HIGHEST ? chip->fp32_passes_highest
                 : prec == ISA_PREC_HIGH  ? chip->fp32_passes_high
                                          : chip->fp32_passes_default;
    return p ? p : 1;
}

/* c[0..n) += a * b[0..n), each product rounded, then the add */
static void axpy(float a, const float *b, float *c, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        float prod = a * b[j];
        c[j] = c[j] + prod;
    }
}

enum base_status cc_gemm_reference(const struct chip_desc *chip, const struct cc_gemm_config *cfg,
                                   const struct base_tensor *a, const struct base_tensor *b, struct base_tensor **c)
{
    *c = NULL;
    uint32_t M = cfg->m, K = cfg->k, N = cfg->n;
    if (!is_matrix(a, M, K) || !is_matrix(b, K, N)) return BASE_ERR_INVALID;
    /* inputs rounded to the matmul type, then exactly to f32 */
    struct base_tensor *ar = NULL, *br = NULL, *af = NULL, *bf = NULL, *cf = NULL;
    enum base_status st = as_dtype(a, cfg->dtype, &ar);
    if (st == BASE_OK) st = as_dtype(b, cfg->dtype, &br);
    if (st == BASE_OK) st = as_dtype(ar, BASE_DT_F32, &af);
    if (st == BASE_OK) st = as_dtype(br, BASE_DT_F32, &bf);
    int64_t cd[2] = {M, N};
    if (st == BASE_OK) st = base_tensor_create(BASE_DT_F32, 2, cd, &cf);
    static const uint8_t one[][2] = {{0, 0}};
    static const uint8_t three[][2] = {{0, 0}, {0, 1}, {1, 0}};
    static const uint8_t six[][2] = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {2, 0}};
    uint32_t passes = prec_passes(chip, cfg->precision);
    bool split = cfg->dtype == BASE_DT_F32 && chip->family == CHIP_FAMILY_TPU &&
                 (passes == 1 || passes == 3 || passes == 6);
    float *bparts = NULL;
    if (st == BASE_OK && split && !(bparts = malloc((size_t)3 * K * N * sizeof(float)))) st = BASE_ERR_NOMEM;
    if (st == BASE_OK) {
        const float *A = af->data, *B = bf->data;
        float *C = cf->data;
        if (!split) {
            for (uint32_t m = 0; m < M; m++) {
                float *crow = C + (size_t)m * N;
                for (uint32_t k = 0; k < K; k++) axpy(A[(size_t)m * K + k], B + (size_t)k * N, crow, N);
            }
        } else {
            /* bf16 parts x0 = bf16(x), x1 = bf16(x - x0), x2 = bf16(x - x0 - x1) */
            const uint8_t(*plan)[2] = passes == 6 ? six : passes == 3 ? three : one;
            for (size_t i = 0; i < (size_t)K * N; i++) {
                float p[3];
                base_f32_bf16_parts(B[i], p);
                for (int q = 0; q < 3; q++) bparts[(size_t)q * K * N + i] = p[q];
            }
            for (uint32_t m = 0; m < M; m++) {
                float *crow = C + (size_t)m * N;
                for (uint32_t k = 0; k < K; k++) {
                    float ap[3];
                    base_f32_bf16_parts(A[(size_t)m * K + k], ap);
                    const float *b0 = bparts + (size_t)k * N;
                    /* a non-finite x0 * y0 is the k's whole contribution (the simulator's rule) */
                    bool finite = true;
                    for (uint32_t n = 0; n < N && finite && passes > 1; n++) finite = isfinite(ap[0] * b0[n]);
                    if (finite) {
                        for (uint32_t q = 0; q < passes; q++)
                            axpy(ap[plan[q][0]], bparts + (size_t)plan[q][1] * K * N + (size_t)k * N, crow, N);
                        continue;
                    }
                    for (uint32_t n = 0; n < N; n++) {
                        float p0 = ap[0] * b0[n];
                        if (!isfinite(p0)) {
                            crow[n] = crow[n] + p0;
                            continue;
                        }
                        for (uint32_t q = 0; q < passes; q++) {
                            float pq = ap[plan[q][0]] * bparts[(size_t)plan[q][1] * K * N + (size_t)k * N + n];
                            crow[n] = crow[n] + pq;
                        }
                    }
                }
            }
        }
        if (cfg->ideal_memory || cfg->out_dtype == BASE_DT_F32) {
            *c = base_tensor_retain(cf);
        } else {
            st = base_tensor_create(cfg->out_dtype, 2, cd, c);
            if (st == BASE_OK) base_convert(cfg->out_dtype, (*c)->data, BASE_DT_F32, cf->data, (size_t)cf->count);
        }
    }
    free(bparts);
    base_tensor_release(ar);
    base_tensor_release(br);
    base_tensor_release(af);
    base_tensor_release(bf);
    base_tensor_release(cf);
    return st;
}

/* ------------------------------------------------------------ closed forms */

struct arr {
    uint64_t D, lrpc, min_s, rows, cols, p;
    double rpc;
    bool preload;
    bool full;     /* fold_full_array: SCALE-Sim's accounting */
    bool os;       /* output stationary: no load under `full` */
};

/* The load of a fold holding sr rows (the whole array under `full`). */
static uint64_t arr_L(const struct arr *a, uint64_t sr)
{
    if (a->full) sr = a->os ? 0 : a->rows;
    return (sr + a->lrpc - 1) / a->lrpc;
}

/* The drain of a fold of sr x sc (the whole array under `full`). */
static uint64_t arr_drain(const struct arr *a, uint64_t sr, uint64_t sc)
{
    return a->full ? a->rows + a->cols - 2 : sr + sc - 2;
}

static uint64_t arr_S(const struct arr *a, uint64_t t)
{
    double x = (double)t / a->rpc;
    uint64_t s = (uint64_t)x;
    if (x - (double)s > 1e-9) s++;
    return s < a->min_s ? a->min_s : s;
}

/* No preload: one fold, Sr x Sc held, n pieces streamed. */
static uint64_t fold_cycles(const struct arr *a, uint64_t sr, uint64_t sc, const uint64_t *t, uint32_t n)
{
    uint64_t cyc = 0;
    if (a->p == 1) {
        cyc = n * a->D + arr_L(a, sr) + arr_drain(a, sr, sc);
        for (uint32_t i = 0; i < n; i++) cyc += arr_S(a, t[i]);
    } else {
        for (uint32_t i = 0; i < n; i++) cyc += a->D + a->p * (arr_L(a, sr) + arr_S(a, t[i]) + arr_drain(a, sr, sc));
    }
    return cyc;
}

/* Preload: the recurrence of a stream of matmuls (ws). */
struct pl {
    uint64_t start, last_s;
    bool any;
};
static void pl_add(const struct arr *a, struct pl *s, uint64_t L, uint64_t S)
{
    uint64_t issue = a->D + a->p * L;
    if (!s->any)
        s->start = issue;
    else
        s->start += a->p * s->last_s > issue ? a->p * s->last_s : issue;
    s->last_s = S;
    s->any = true;
}

enum base_status cc_gemm_model(const struct chip_desc *chip, const struct cc_gemm_plan *plan,
                               struct cc_gemm_model *out)
{
    memset(out, 0, sizeof *out);
    const struct chip_engine_desc *pe = NULL;
    uint32_t n_pe = 0;
    for (uint32_t i = 0; i < chip->n_engines; i++)
        if (chip->engines[i].kind == ISA_ENGINE_SYSTOLIC) {
            if (!pe) pe = &chip->engines[i];
            n_pe++;
        }
    if (!pe || !plan->nk) return BASE_ERR_INVALID;
    const struct cc_gemm_config *cfg = &plan->cfg;
    struct arr a = {pe->dispatch_cycles, pe->load_rows_per_cycle ? pe->load_rows_per_cycle : 1, pe->min_stream_cycles,
                    pe->rows, pe->cols, 1, 0, plan->preload, pe->fold_full_array,
                    plan->dataflow == CHIP_DATAFLOW_OS};
    enum chip_rate_class rc = chip_rate_class_of(cfg->dtype);
    if (cfg->dtype == BASE_DT_F32 && chip->family == CHIP_FAMILY_TPU) {
        rc = CHIP_RATE_BF16;
        a.p = prec_passes(chip, cfg->precision);
    }
    a.rpc = pe->rows_per_cycle[rc];
    if (!(a.rpc > 0)) return BASE_ERR_UNSUPPORTED;
    uint32_t nk = plan->nk, nm = plan->nm, nn = plan->nn;
    uint64_t *kr = malloc(nk * sizeof *kr), *mr = malloc(nm * sizeof *mr), *nc = malloc(nn * sizeof *nc);
    if (!kr || !mr || !nc) {
        free(kr);
        free(mr);
        free(nc);
        return BASE_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < nk; t++) kr[t] = t + 1 < nk ? plan->kt : cfg->k - (uint64_t)(nk - 1) * plan->kt;
    for (uint32_t i = 0; i < nm; i++) mr[i] = i + 1 < nm ? plan->mt : cfg->m - (uint64_t)(nm - 1) * plan->mt;
    for (uint32_t j = 0; j < nn; j++) nc[j] = j + 1 < nn ? plan->nt : cfg->n - (uint64_t)(nn - 1) * plan->nt;
    uint64_t best = 0;
    for (uint32_t e = 0; e < plan->n_pe; e++) {
        uint64_t cyc = 0;
        if (plan->preload) {
            struct pl s = {0, 0, false};
            for (uint32_t i = e; i < nm; i += plan->n_pe)
                for (uint32_t t = 0; t < nk; t++)
                    for (uint32_t j = 0; j < nn; j++)
                        pl_add(&a, &s, j > 0 && a.p == 1 ? 0 : arr_L(&a, kr[t]), arr_S(&a, nc[j]));
            if (s.any) cyc = s.start + a.p * s.last_s + a.rows + a.cols - 1;
        } else if (plan->dataflow == CHIP_DATAFLOW_WS) {
            for (uint32_t i = e; i < nm; i += plan->n_pe)
                for (uint32_t t = 0; t < nk; t++) cyc += fold_cycles(&a, kr[t], mr[i], nc, nn);
        } else if (plan->dataflow == CHIP_DATAFLOW_OS) {
            for (uint32_t i = e; i < nm; i += plan->n_pe)
                for (uint32_t j = 0; j < nn; j++) cyc += fold_cycles(&a, mr[i], nc[j], kr, nk);
        } else {
            for (uint32_t j = e; j < nn; j += plan->n_pe)
                for (uint32_t t = 0; t < nk; t++) cyc += fold_cycles(&a, kr[t], nc[j], mr, nm);
        }
        if (cyc > best) best = cyc;
    }
    out->array_cycles = best;
    out->folds = plan->dataflow == CHIP_DATAFLOW_OS ? (uint64_t)nm * nn
                 : plan->dataflow == CHIP_DATAFLOW_IS ? (uint64_t)nn * nk
                                                     : (uint64_t)nm * nk;
    if (a.full) {
        /* SCALE-Sim v2's stall-free figure: the cycle index (from 0) of its
         * last demand line, folds x per-fold - 1, the fold as the plan maps
         * it (cc_gemm_scalesim_transposes gives SCALE-Sim's mapping) */
        uint64_t sr, sc, T;
        switch (plan->dataflow) {
        case CHIP_DATAFLOW_OS: sr = cfg->m, sc = cfg->n, T = cfg->k; break;
        case CHIP_DATAFLOW_IS: sr = cfg->k, sc = cfg->n, T = cfg->m; break;
        default: sr = cfg->k, sc = cfg->m, T = cfg->n; break;
        }
        uint64_t folds = ((sr + a.rows - 1) / a.rows) * ((sc + a.cols - 1) / a.cols);
        uint64_t per_fold = arr_L(&a, a.rows) + arr_S(&a, T) + arr_drain(&a, a.rows, a.cols); /* T at the dtype's rate */
        out->scalesim_cycles = folds * a.p * per_fold - 1;
    }
    free(kr);
    free(mr);
    free(nc);
    out->clock_ghz = pe->clock_ghz;
    out->peak_flops = (double)n_pe * pe->rows * pe->cols * 2.0 * pe->clock_ghz * 1e9 * a.rpc / (double)a.p;
    out->flops = 2.0 * cfg->m * cfg->n * (double)cfg->k;
    if (!cfg->ideal_memory) {
        double es = (double)base_dtype_size(cfg->dtype), eso = (double)base_dtype_size(cfg->out_dtype);
        uint64_t nbm = plan->mb ? (cfg->m + (uint64_t)plan->mb * plan->mt - 1) / ((uint64_t)plan->mb * plan->mt) : 1;
        out->hbm_bytes = (double)cfg->k * cfg->m * es + (double)nbm * cfg->k * cfg->n * es + (double)cfg->m * cfg->n * eso;
        double q = 0;
        for (uint32_t i = 0; i < chip->n_engines; i++)
            if (chip->engines[i].kind == ISA_ENGINE_DMA) q += chip->engines[i].bytes_per_ns;
        out->dma_bytes_per_ns = q < chip->hbm.bytes_per_ns ? q : chip->hbm.bytes_per_ns;
        if (out->dma_bytes_per_ns > 0)
            out->memory_cycles = (uint64_t)ceil(out->hbm_bytes / out->dma_bytes_per_ns * pe->clock_ghz);
    }
    return BASE_OK;
}

/* -------------------------------------------------------- generic array */

static uint64_t scale_bytes(uint64_t total, uint32_t parts, uint64_t multiple)
{
    uint64_t b = total / parts;
    return b / multiple * multiple;
}

enum base_status cc_gemm_array_chip(const struct chip_desc *chip, uint32_t rows, uint32_t cols,
                                    enum chip_dataflow df, struct chip_desc *out, struct base_diag *diag)
{
    const char *src = chip->path[0] ? chip->path : chip->name;
    const struct chip_engine_desc *pe = NULL;
    for (uint32_t i = 0; i < chip->n_engines && !pe; i++)
        if (chip->engines[i].kind == ISA_ENGINE_SYSTOLIC) pe = &chip->engines[i];
    if (!pe) return base_diag_set(diag, BASE_ERR_UNSUPPORTED, src, 0, 0, "chip %s has no systolic array", chip->name);
    if (!rows || !cols || rows > ISA_MAX_PARTITIONS)
        return base_diag_set(diag, BASE_ERR_LIMIT, src, 0, 0, "--array %ux%u: rows must be 1..%d (a partition per row)",
                             rows, cols, ISA_MAX_PARTITIONS);
    uint32_t banks = chip->accumulator.banks ? chip->accumulator.banks : 1;
    uint64_t bank_f32 = chip->accumulator.bytes_per_partition / banks / 4;
    if (df == CHIP_DATAFLOW_WS ? cols > ISA_MAX_PARTITIONS : cols > bank_f32)
        return base_diag_set(diag, BASE_ERR_LIMIT, src, 0, 0,
                             "--array %ux%u: %s columns hold %s, at most %llu", rows, cols, cc_gemm_dataflow_name(df),
                             df == CHIP_DATAFLOW_WS ? "M (accumulator partitions)" : "N (one accumulator bank of f32)",
                             (unsigned long long)(df == CHIP_DATAFLOW_WS ? ISA_MAX_PARTITIONS : bank_f32));
    struct chip_engine_desc arr = *pe;
    snprintf(arr.name, sizeof arr.name, "pe");
    arr.rows = rows;
    arr.cols = cols;
    arr.preload = false;
    arr.dataflow = df;
    arr.load_rows_per_cycle = 1;
    arr.min_stream_cycles = 0;
    arr.dispatch_cycles = 0;
    arr.fold_full_array = true;
    *out = *chip;
    out->n_engines = 0;
    out->engines[out->n_engines++] = arr;
    for (uint32_t i = 0; i < chip->n_engines; i++)
        if (chip->engines[i].kind != ISA_ENGINE_SYSTOLIC && strcmp(chip->engines[i].name, "pe") != 0)
            out->engines[out->n_engines++] = chip->engines[i];
    uint32_t need = rows;
    if (df == CHIP_DATAFLOW_WS && cols > need) need = cols;
    if (need > out->scratchpad.partitions) {
        uint64_t total = (uint64_t)out->scratchpad.partitions * out->scratchpad.bytes_per_partition;
        out->scratchpad.partitions = need;
        out->scratchpad.bytes_per_partition = scale_bytes(total, need, 64);
    }
    if (need > out->accumulator.partitions) {
        uint64_t total = (uint64_t)out->accumulator.partitions * out->accumulator.bytes_per_partition;
        out->accumulator.partitions = need;
        out->accumulator.bytes_per_partition = scale_bytes(total, need, (uint64_t)banks * 4);
    }
    return BASE_OK;
}

bool cc_gemm_scalesim_transposes(enum chip_dataflow df)
{
    /* the generator's ws holds At (Sc = M, T = N) and its is streams At
     * (Sc = N, T = M); SCALE-Sim's ws holds the filter B (Sc = N, T = M)
     * and its is streams it (Sc = M, T = N): the transposed problem */
    return df == CHIP_DATAFLOW_WS || df == CHIP_DATAFLOW_IS;
}
