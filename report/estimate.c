/* The estimator (report/estimate.h): parsing systems and layouts, prices,
 * the row arithmetic, the memory model, the layout search, simulating a
 * program on a system, and the user's graph on each system.  The preset
 * driver is report/estimate_model.c; the writers report/estimate_write.c.
 * Formulas and their sources: docs/estimate.md. */
#include "report/estimate.h"
#include "interp/interp.h"
#include "partition/partition.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const workload_names[] = {
#define X(e, name) name,
    REP_WORKLOADS(X)
#undef X
};
_Static_assert(ARRAY_LEN(workload_names) == REP_WORKLOAD_COUNT, "workload_names");

const char *rep_workload_name(enum rep_workload w) { return (unsigned)w < REP_WORKLOAD_COUNT ? workload_names[w] : "?"; }

bool rep_workload_lookup(const char *name, enum rep_workload *out)
{
    for (int i = 0; i < REP_WORKLOAD_COUNT; i++)
        if (!strcmp(name, workload_names[i])) {
            *out = (enum rep_workload)i;
            return true;
        }
    return false;
}

double rep_workload_tokens(enum rep_workload w, int64_t batch, int64_t seq)
{
    return w == REP_DECODE ? (double)batch : (double)batch * (double)seq;
}

/* ------------------------------------------------------------------ parsing */

/* A whole decimal number >= 1 in s[0..n). */
static bool parse_count(const char *s, size_t n, long long max, long long *out)
{
    if (!n || n > 18) return false;
    long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v < 1 || v > max) return false;
    *out = v;
    return true;
}

enum base_status rep_est_systems_parse(const char *s, struct rep_est_system *out, int cap, int *n,
                                       struct base_diag *diag)
{
    *n = 0;
    const char *p = s;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int col = (int)(p - s) + 1;
        if (!len) return base_diag_set(diag, BASE_ERR_INVALID, "--chips", 1, col, "an empty system (give CHIP:COUNT)");
        if (*n == cap) return base_diag_set(diag, BASE_ERR_LIMIT, "--chips", 1, col, "more than %d systems", cap);
        struct rep_est_system *sy = &out[*n];
        const char *colon = memchr(p, ':', len);
        size_t name_len = colon ? (size_t)(colon - p) : len;
        if (!name_len || name_len >= sizeof sy->chip)
            return base_diag_set(diag, BASE_ERR_INVALID, "--chips", 1, col, "a system needs a chip name (CHIP:COUNT)");
        memcpy(sy->chip, p, name_len);
        sy->chip[name_len] = 0;
        long long count = 1;
        if (colon && !parse_count(colon + 1, len - name_len - 1, 1 << 20, &count))
            return base_diag_set(diag, BASE_ERR_INVALID, "--chips", 1, (int)(colon + 1 - s) + 1,
                                 "%s: the count must be a whole number from 1 to 1048576", sy->chip);
        sy->chips = (uint32_t)count;
        (*n)++;
        if (!e) return BASE_OK;
        p = e + 1;
    }
}

int rep_est_layout_devices(const struct rep_est_layout *l)
{
    return l->dp * l->fsdp * l->tp * l->sp * l->ep * l->pp;
}

enum base_status rep_est_layout_parse(const char *s, struct rep_est_layout *out, struct base_diag *diag)
{
    *out = (struct rep_est_layout){1, 1, 1, 1, 1, 1, 0};
    static const char *const keys[] = {"dp", "fsdp", "tp", "sp", "ep", "pp", "mb"};
    int *fields[] = {&out->dp, &out->fsdp, &out->tp, &out->sp, &out->ep, &out->pp, &out->microbatches};
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int col = (int)(p - s) + 1;
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        int k = -1;
        for (int i = 0; i < (int)ARRAY_LEN(keys); i++)
            if (klen == strlen(keys[i]) && !strncmp(p, keys[i], klen)) k = i;
        if (k < 0 || !eq)
            return base_diag_set(diag, BASE_ERR_INVALID, "--parallel", 1, col,
                                 "'%.*s': give AXIS=N with AXIS one of dp, fsdp, tp, sp, ep, pp, mb", (int)len, p);
        long long v;
        if (!parse_count(eq + 1, len - klen - 1, 1 << 20, &v))
            return base_diag_set(diag, BASE_ERR_INVALID, "--parallel", 1, (int)(eq + 1 - s) + 1,
                                 "%s must be a whole number >= 1", keys[k]);
        *fields[k] = (int)v;
        if (!e) break;
        p = e + 1;
    }
    return BASE_OK;
}

void rep_est_layout_str(const struct rep_est_layout *l, char *buf, size_t cap)
{
    static const char *const keys[] = {"dp", "fsdp", "tp", "sp", "ep", "pp"};
    const int v[] = {l->dp, l->fsdp, l->tp, l->sp, l->ep, l->pp};
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < 6; i++)
        if (v[i] > 1 && n < cap) n += (size_t)snprintf(buf + n, cap - n, "%s%s=%d", n ? "," : "", keys[i], v[i]);
    if (l->pp > 1 && n < cap) snprintf(buf + n, cap - n, ",mb=%d", l->microbatches ? l->microbatches : 2 * l->pp);
    if (!buf[0]) snprintf(buf, cap, "1 chip");
}

/* ------------------------------------------------------------------ prices */

enum base_status rep_est_price_override(struct rep_est_prices *p, const char *s, struct base_diag *diag)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= CHIP_NAME_MAX)
        return base_diag_set(diag, BASE_ERR_INVALID, "--price", 1, 1, "'%s': give CHIP=USD_PER_CHIP_HOUR", s);
    char *end;
    errno = 0;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || errno || !(v > 0) || !isfinite(v))
        return base_diag_set(diag, BASE_ERR_INVALID, "--price", 1, (int)(eq - s) + 2,
                             "'%s': the price must be a number of $ per chip-hour > 0", eq + 1);
    if (p->n_overrides == REP_MAX_PRICE_OVERRIDES)
        return base_diag_set(diag, BASE_ERR_LIMIT, "--price", 1, 1, "more than %d prices", REP_MAX_PRICE_OVERRIDES);
    snprintf(p->override_chip[p->n_overrides], CHIP_NAME_MAX, "%.*s", (int)(eq - s), s);
    p->override_usd[p->n_overrides++] = v;
    return BASE_OK;
}

void rep_est_price(const struct rep_est_prices *p, const struct chip_desc *chip, struct rep_throughput *thr)
{
    thr->has_price = false;
    thr->usd_per_chip_hour = 0;
    thr->price_is_estimate = false;
    thr->price_basis[0] = 0;
    for (int i = p ? p->n_overrides - 1 : -1; i >= 0; i--) /* the last one given wins */
        if (!strcmp(p->override_chip[i], chip->name)) {
            thr->has_price = true;
            thr->usd_per_chip_hour = p->override_usd[i];
            snprintf(thr->price_basis, sizeof thr->price_basis, "--price");
            return;
        }
    const struct chip_price *r = p && p->table ? chip_price_find(p->table, chip->name, p->pricing, p->region) : NULL;
    if (r) {
        thr->has_price = true;
        thr->usd_per_chip_hour = r->usd_per_chip_hour;
        thr->price_is_estimate = r->status != CHIP_PRICE_LIST;
        snprintf(thr->price_basis, sizeof thr->price_basis, "%s, %.24s %.48s, %.100s%s%s (prices.tsv:%d)",
                 chip_pricing_name(r->pricing), r->provider, r->instance, r->region,
                 r->status != CHIP_PRICE_LIST ? ", " : "", r->status != CHIP_PRICE_LIST ? chip_price_status_name(r->status) : "",
                 r->line);
        return;
    }
    if (p && p->table && (p->pricing >= 0 || p->region)) return; /* asked for a pricing the table does not have */
    if (chip->price_per_chip_hour_usd > 0) {
        thr->has_price = true;
        thr->usd_per_chip_hour = chip->price_per_chip_hour_usd;
        thr->price_is_estimate = chip->price_is_estimate;
        snprintf(thr->price_basis, sizeof thr->price_basis, "the chip file (%.150s)", chip->path);
    }
}

void rep_est_row_finish(struct rep_compare_row *row)
{
    struct rep_throughput *t = &row->thr;
    t->present = true;
    t->chips = row->chips;
    t->step_s = (double)row->step_ps * 1e-12;
    double s = t->step_s;
    t->tokens_per_s = s > 0 ? t->tokens_per_step / s : 0;
    t->tokens_per_s_per_chip = row->chips ? t->tokens_per_s / row->chips : 0;
    row->mfu = s > 0 && row->peak_flops > 0 && row->chips ? row->model_flops / (s * row->chips * row->peak_flops) : 0;
    t->usd_per_step = t->has_price ? t->usd_per_chip_hour * row->chips * s / 3600.0 : 0;
    t->usd_per_mtok = t->has_price && t->tokens_per_step > 0 ? t->usd_per_step / t->tokens_per_step * 1e6 : 0;
}

/* ------------------------------------------------------------ memory model */

/* One layer's activations in flight (bytes of 16-bit activations), after
 * Korthikanti et al. 2022 eq. (2) with tensor parallelism t and no sequence
 * parallelism: sq b h (10 + 24/t) + 5 a sq skv b / t (the last term the
 * attention scores of sq queries against skv keys). */
static double layer_activations(double sq, double skv, double b, double h, double a, double t)
{
    return sq * b * h * (10.0 + 24.0 / t) + 5.0 * a * sq * skv * b / t;
}

void rep_est_memory(const struct rep_est_model_size *m, enum rep_workload w, int64_t batch, int64_t seq,
                    const struct rep_est_layout *l, double capacity, struct rep_memory *out)
{
    memset(out, 0, sizeof *out);
    out->modelled = true;
    out->capacity = capacity;
    double tp = l->tp, pp = l->pp, shards = (double)l->tp * l->pp * l->fsdp * l->ep;
    double mb = l->pp > 1 ? (l->microbatches ? l->microbatches : 2 * l->pp) : 1;
    double b_dev = (double)batch / ((double)l->dp * l->fsdp); /* sequences per data-parallel rank */
    double b_mb = b_dev / mb;
    double s = (double)seq, h = (double)m->hidden, a = (double)m->heads, L = (double)m->layers;
    double wb = m->dtype_bytes, act_scale = m->dtype_bytes / 2.0;
    double kvh = m->kv_heads > 0 ? ceil((double)m->kv_heads / tp) : 1;
    if (w == REP_TRAIN) {
        double mbytes = m->master_bytes ? m->master_bytes : wb;
        out->weights = m->params * mbytes / shards;
        out->optimizer = 2.0 * m->params * mbytes / shards; /* AdamW's first and second moments */
        out->gradients = m->params * mbytes / shards;
        /* rematerialised layers: each layer's input kept, for the microbatches a
         * stage holds (1F1B: up to pp), plus one layer recomputed and its logits */
        double held = l->pp > 1 ? (mb < pp ? mb : pp) : 1;
        out->activations = (L / pp * b_mb * s * h * wb * held) + layer_activations(s, s, b_mb, h, a, tp) * act_scale +
                           2.0 * b_mb * s * (double)m->vocab * 4.0 / tp; /* f32 logits and their gradient */
    } else {
        out->weights = m->params * wb / shards;
        double sq = w == REP_DECODE ? 1 : s;
        out->activations = layer_activations(sq, s, b_dev, h, a, tp) * act_scale + b_dev * (double)m->vocab * 4.0 / tp;
        out->kv_cache = 2.0 * (L / pp) * b_dev * s * kvh * (double)m->head_dim * wb;
    }
    out->total = out->weights + out->optimizer + out->gradients + out->activations + out->kv_cache;
    out->fits = out->total <= capacity;
}

/* ------------------------------------------------------------------ search */

int rep_est_layouts(uint32_t chips, const struct rep_est_model_size *m, enum rep_workload w, int64_t batch,
                    struct rep_est_layout *out, int cap)
{
    (void)w;
    int n = 0;
    for (uint32_t tp = 1; tp <= chips; tp++) {
        if (chips % tp || (m->heads > 0 && m->heads % tp)) continue;
        for (uint32_t pp = 1; pp <= chips / tp; pp++) {
            if ((chips / tp) % pp || (m->layers > 0 && m->layers % pp)) continue;
            uint32_t rest = chips / tp / pp;
            for (uint32_t fsdp = 1; fsdp <= rest; fsdp++) {
                if (rest % fsdp) continue;
                uint32_t dp = rest / fsdp;
                int64_t ranks = (int64_t)dp * fsdp;
                if (batch % ranks) continue;
                int mb = pp > 1 ? 2 * (int)pp : 0;
                if (pp > 1 && (batch / ranks) % mb) continue;
                if (n < cap) out[n] = (struct rep_est_layout){(int)dp, (int)fsdp, (int)tp, 1, 1, (int)pp, mb};
                n++;
            }
        }
    }
    return n;
}

/* Replica groups of one mesh axis (dp, fsdp, pp, tp outermost to innermost:
 * tp's chips are neighbours): chips that differ only in that axis. */
static uint32_t *axis_groups(const struct rep_est_layout *l, int axis, uint32_t *n_groups, uint32_t *size)
{
    const int dims[4] = {l->dp, l->fsdp, l->pp, l->tp};
    uint32_t n = (uint32_t)(l->dp * l->fsdp * l->pp * l->tp), g = (uint32_t)dims[axis], stride = 1;
    for (int i = axis + 1; i < 4; i++) stride *= (uint32_t)dims[i];
    uint32_t *ids = malloc((size_t)n * sizeof *ids);
    if (!ids) return NULL;
    uint32_t k = 0;
    for (uint32_t c = 0; c < n; c++) {
        if ((c / stride) % g) continue; /* c is the first of its group */
        for (uint32_t j = 0; j < g; j++) ids[k++] = c + j * stride;
    }
    *n_groups = n / g;
    *size = g;
    return ids;
}

/* Seconds of `count` collectives of `bytes` per chip over one mesh axis. */
static double axis_coll_s(const struct icn_topo *topo, const struct rep_est_layout *l, int axis, enum icn_coll kind,
                          double bytes, double count)
{
    const int dims[4] = {l->dp, l->fsdp, l->pp, l->tp};
    if (dims[axis] <= 1 || bytes <= 0 || count <= 0 || !topo) return 0;
    struct icn_coll_desc d;
    memset(&d, 0, sizeof d);
    d.coll = kind;
    d.alg = ICN_ALG_AUTO;
    d.bytes = bytes;
    d.groups = axis_groups(l, axis, &d.n_groups, &d.group_size);
    if (!d.groups) return -1;
    double ps = icn_closed_form_ps(topo, &d, ICN_ALG_AUTO);
    free((void *)d.groups);
    return ps < 0 ? -1 : ps * 1e-12 * count;
}

/* rep_est_rank on a topology of the layout's chips (NULL: no communication). */
static double rank_on(const struct rep_est_model_size *m, enum rep_workload w, int64_t batch, int64_t seq,
                      const struct rep_est_layout *l, const struct chip_desc *chip, const struct icn_topo *topo)
{
    double n = rep_est_layout_devices(l);
    double peak = chip_peak_flops(chip, CHIP_RATE_BF16), bw = chip->hbm.bytes_per_ns * 1e9;
    if (!(peak > 0) || !(bw > 0) || n < 1) return -1;
    double tokens = rep_workload_tokens(w, batch, seq);
    bool train = w == REP_TRAIN;
    double flops = (train ? 6.0 : 2.0) * m->params_active * tokens;
    double wb = m->dtype_bytes, shards_tp_pp = (double)l->tp * l->pp;
    /* bytes through HBM per chip: the weights once per pass (train: forward,
     * recomputed forward, backward), the KV cache once (inference) */
    struct rep_memory mem;
    rep_est_memory(m, w, batch, seq, l, 0, &mem);
    double bytes = (train ? 3.0 : 1.0) * m->params * wb / shards_tp_pp + mem.kv_cache;
    double t_chip = fmax(flops / n / peak, bytes / bw);
    double mb = l->pp > 1 ? (l->microbatches ? l->microbatches : 2 * l->pp) : 1;
    double t = t_chip * (1.0 + (l->pp - 1) / mb); /* the pipeline bubble, (p - 1) / m */
    double b_mb = (double)batch / ((double)l->dp * l->fsdp) / mb, sq = w == REP_DECODE ? 1 : (double)seq;
    double layer_per_stage = (double)m->layers / l->pp;
    /* tensor parallel: 2 all-reduces of a layer's activations per layer in the
     * forward, 2 in the backward, 2 in the recomputed forward */
    double c = axis_coll_s(topo, l, 3, ICN_COLL_ALL_REDUCE, b_mb * sq * (double)m->hidden * wb,
                           layer_per_stage * mb * (train ? 6.0 : 2.0));
    /* FSDP: the weights gathered per pass, the gradients reduce-scattered */
    double wshard = m->params * wb / shards_tp_pp;
    double f = axis_coll_s(topo, l, 1, ICN_COLL_ALL_GATHER, wshard, train ? 3.0 : 1.0);
    double g = train ? axis_coll_s(topo, l, 1, ICN_COLL_REDUCE_SCATTER, wshard, 1.0) : 0;
    /* DP: the gradients all-reduced */
    double d = train ? axis_coll_s(topo, l, 0, ICN_COLL_ALL_REDUCE, wshard / l->fsdp, 1.0) : 0;
    if (c < 0 || f < 0 || g < 0 || d < 0) return -1;
    return t + c + f + g + d;
}

void rep_est_topology(const struct chip_desc *chip, uint32_t n, char *buf, size_t cap)
{
    uint32_t dom = chip->links.domain_chips;
    if (dom > 1 && n > dom && n % dom == 0) {
        char shape[64];
        rt_default_shape(chip, dom, shape, sizeof shape);
        snprintf(buf, cap, "%u slices of %s", n / dom, shape);
        return;
    }
    rt_default_shape(chip, n, buf, cap);
}

double rep_est_rank(const struct rep_est_model_size *m, enum rep_workload w, int64_t batch, int64_t seq,
                    const struct rep_est_layout *l, const struct chip_desc *chip)
{
    uint32_t n = (uint32_t)rep_est_layout_devices(l);
    struct icn_topo topo;
    char shape[96];
    rep_est_topology(chip, n, shape, sizeof shape);
    struct base_diag d;
    base_diag_clear(&d);
    bool have = n > 1 && icn_topo_from_chip(chip, shape, ICN_WRAP_AUTO, NULL, &topo, &d) == BASE_OK;
    return rank_on(m, w, batch, seq, l, chip, have ? &topo : NULL);
}

static int cand_cmp(const void *x, const void *y)
{
    const struct rep_est_candidate *a = x, *b = y;
    if (a->mem.fits != b->mem.fits) return a->mem.fits ? -1 : 1;
    double ra = a->rank_s < 0 ? INFINITY : a->rank_s, rb = b->rank_s < 0 ? INFINITY : b->rank_s;
    if (ra != rb) return ra < rb ? -1 : 1;
    return a->mem.total < b->mem.total ? -1 : a->mem.total > b->mem.total ? 1 : 0;
}

/* Whether row a is better than b: cheaper per token, else faster. */
static bool better(const struct rep_compare_row *a, const struct rep_compare_row *b)
{
    if (!b->ok) return a->ok;
    if (!a->ok) return false;
    if (a->thr.has_price && b->thr.has_price && a->thr.usd_per_mtok != b->thr.usd_per_mtok)
        return a->thr.usd_per_mtok < b->thr.usd_per_mtok;
    return a->step_ps < b->step_ps;
}

enum base_status rep_est_search(struct rep_est_candidate *cands, int n, int max_simulated, rep_est_eval_fn eval,
                                void *user, struct rep_compare_row *best, struct base_diag *diag)
{
    if (max_simulated <= 0) max_simulated = 3;
    qsort(cands, (size_t)n, sizeof *cands, cand_cmp); /* stable enough: ties broken by memory */
    uint32_t fit = 0;
    for (int i = 0; i < n; i++) fit += cands[i].mem.fits;
    struct rep_compare_row keep = *best, row;
    best->ok = false;
    int simulated = 0;
    char last_error[sizeof best->error] = "";
    for (int i = 0; i < n && cands[i].mem.fits && simulated < max_simulated; i++) {
        row = keep;
        row.ok = false;
        row.error[0] = 0;
        TRY(eval(user, &cands[i].layout, &row, diag));
        if (!row.ok) { /* refused (the generator, the partitioner): the next one takes its place */
            snprintf(last_error, sizeof last_error, "%s", row.error);
            continue;
        }
        simulated++;
        double plan = row.mem.plan_bytes, donated = row.mem.plan_donated_bytes;
        row.mem = cands[i].mem; /* the model's breakdown, the plan's figures */
        row.mem.plan_bytes = plan;
        row.mem.plan_donated_bytes = donated;
        if (better(&row, best)) *best = row;
    }
    if (!best->ok) {
        *best = keep;
        best->ok = false;
        if (!n)
            snprintf(best->error, sizeof best->error, "no layout of %u chips divides the model and the batch",
                     best->chips);
        else if (!fit)
            snprintf(best->error, sizeof best->error,
                     "does not fit: the smallest of %d layouts needs %.1f GB per chip, %.1f GB of HBM", n,
                     cands[0].mem.total * 1e-9, cands[0].mem.capacity * 1e-9);
        else
            snprintf(best->error, sizeof best->error, "no layout simulated: %.280s", last_error);
        best->mem = n ? cands[0].mem : best->mem;
    }
    best->layout_searched = true;
    best->layouts_considered = (uint32_t)n;
    best->layouts_fit = fit;
    best->layouts_simulated = (uint32_t)simulated;
    return BASE_OK;
}

/* ------------------------------------------------------------------ running */

/* The plan's buffers and, with the step's state donated, what they would be:
 * each output takes the place of a not yet taken input of its type and shape. */
static void plan_memory(const struct cc_plan *p, struct rep_memory *mem)
{
    uint32_t nb = cc_plan_n_buffers(p);
    bool *taken = calloc(nb + 1, sizeof *taken);
    double donated = 0;
    for (uint32_t o = 0; taken && o < nb; o++) {
        const struct cc_buffer *ob = cc_plan_buffer(p, o);
        if (ob->kind != CC_BUF_OUTPUT) continue;
        for (uint32_t i = 0; i < nb; i++) {
            const struct cc_buffer *ib = cc_plan_buffer(p, i);
            if (taken[i] || ib->kind != CC_BUF_INPUT || ib->addr == ob->addr || ib->dtype != ob->dtype ||
                ib->rank != ob->rank || memcmp(ib->dims, ob->dims, (size_t)ib->rank * sizeof ib->dims[0]))
                continue;
            taken[i] = true;
            donated += (double)ob->bytes;
            break;
        }
    }
    free(taken);
    mem->plan_bytes = (double)cc_plan_hbm_bytes(p);
    mem->plan_donated_bytes = mem->plan_bytes - donated;
}

enum base_status rep_est_simulate(const struct graph_module *m, const struct chip_desc *chip, uint32_t chips,
                                  const struct rep_est_sim_options *o, struct rep_compare_row *row,
                                  struct rep_run **run, struct base_diag *diag)
{
    if (run) *run = NULL;
    struct chip_desc *big = malloc(sizeof *big);
    if (!big) return BASE_ERR_NOMEM;
    *big = *chip;
    big->hbm.capacity_bytes = UINT64_C(1) << 50; /* fit is judged apart: compile whatever the program needs */
    struct cc_options co;
    cc_options_default(&co);
    co.mode = o ? o->mode : CC_MODE_COMPILED;
    co.default_precision = o ? o->precision : ISA_PREC_DEFAULT;
    struct cc_plan *p = NULL;
    struct sim *s = NULL;
    struct rt_report rep;
    memset(&rep, 0, sizeof rep);
    enum base_status st = cc_compile(m, big, &co, &p, diag);
    int parts = p ? cc_plan_num_partitions(p) : 1;
    uint32_t replicas = parts > 0 && chips >= (uint32_t)parts ? chips / (uint32_t)parts : 1;
    static const struct icn_topo zero_topo;
    struct icn_topo topo = zero_topo;
    if (st == BASE_OK && parts > 1) {
        char shape[96];
        rep_est_topology(chip, (uint32_t)parts, shape, sizeof shape);
        st = icn_topo_from_chip(chip, shape, ICN_WRAP_AUTO, NULL, &topo, diag);
    }
    if (st == BASE_OK) {
        /* the simulator's HBM: the chip's, or the plan's when it needs more */
        uint64_t need = cc_plan_hbm_bytes(p) + 4096;
        big->hbm.capacity_bytes = need > chip->hbm.capacity_bytes ? need : chip->hbm.capacity_bytes;
        struct sim_options so;
        sim_options_default(&so);
        so.timing_only = true;
        so.check_races = so.check_uninit = o && o->checks;
        st = sim_create(big, &so, &s, diag);
    }
    if (st == BASE_OK) {
        struct rt_options ro;
        rt_options_default(&ro);
        ro.timing_only = true;
        ro.loop_reuse = !(o && o->no_loop_reuse);
        if (parts > 1) ro.topo = &topo;
        st = rt_run(p, s, NULL, cc_plan_n_inputs(p), &ro, NULL, &rep, diag);
    }
    struct rep_run *r = NULL;
    if (st == BASE_OK) {
        struct rep_source src = {.model = m->path, .plan = p, .stats = sim_get_stats(s), .chips = &rep, .n_chips = 1,
                                 .timing_only = true, .topology = topo.desc[0] ? topo.desc : NULL};
        st = rep_run_create(&src, &r);
    }
    if (st == BASE_OK) {
        row->step_ps = rep.total_ps;
        row->kernel_ps = rep.device_ps;
        row->dispatch_ps = rep.dispatch_ps;
        row->collective_ps = rep.collective_ps;
        row->collective_exposed_ps = rep.collective_exposed_ps;
        row->host_ps = rep.host_ps;
        row->model_flops = (double)r->model_flops * parts * replicas;
        row->peak_flops = r->peak_flops;
        row->loop_trips_simulated = rep.loop_trips_simulated;
        row->loop_trips_reused = rep.loop_trips_reused;
        row->mem.capacity = (double)chip->hbm.capacity_bytes;
        plan_memory(p, &row->mem);
        snprintf(row->mode, sizeof row->mode, "%s", cc_mode_name(co.mode));
        row->ok = true;
    }
    if (run && st == BASE_OK) *run = r;
    else rep_run_destroy(r);
    rt_report_free(&rep);
    sim_destroy(s);
    cc_plan_destroy(p);
    free(big);
    return st;
}

/* ------------------------------------------------------------------ graphs */

void rep_est_request_default(struct rep_est_request *q)
{
    memset(q, 0, sizeof *q);
    q->workload = REP_TRAIN;
    q->sim.mode = CC_MODE_COMPILED;
}

void rep_estimate_destroy(struct rep_estimate *e)
{
    if (!e) return;
    free(e->rows);
    free(e->modes);
    free(e);
}

/* A row's fields that do not depend on the simulation. */
static void row_start(struct rep_compare_row *row, const struct rep_est_system *sy)
{
    memset(row, 0, sizeof *row);
    snprintf(row->kind, sizeof row->kind, "simulated");
    snprintf(row->chip, sizeof row->chip, "%.31s", sy->chip);
    snprintf(row->mode, sizeof row->mode, "compiled");
    row->chips = sy->chips;
    row->dp = row->fsdp = row->tp = row->sp = row->ep = row->pp = 1;
}

/* Whether m's entry is an SPMD program (one sdy.manual_computation). */
static bool is_spmd(const struct graph_module *m)
{
    const struct graph_op *f = graph_module_entry(m);
    if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1) return false;
    const struct graph_block *b = &f->regions[0].blocks[0];
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION) return true;
    return false;
}

enum base_status rep_estimate_graph(const struct graph_module *m, const struct rep_est_request *q,
                                    struct rep_estimate **out, struct base_diag *diag)
{
    *out = NULL;
    struct rep_estimate *e = calloc(1, sizeof *e);
    if (!e) return BASE_ERR_NOMEM;
    e->rows = calloc((size_t)(q->n_systems > 0 ? q->n_systems : 1), sizeof *e->rows);
    if (!e->rows) {
        rep_estimate_destroy(e);
        return BASE_ERR_NOMEM;
    }
    snprintf(e->model, sizeof e->model, "%s", q->model ? q->model : m->path);
    snprintf(e->source, sizeof e->source, "graph");
    snprintf(e->workload, sizeof e->workload, "%s", rep_workload_name(q->workload));
    e->batch = q->batch;
    e->seq = q->seq;
    e->tokens_per_step = rep_workload_tokens(q->workload, q->batch, q->seq);
    int parts = interp_module_mesh_size(m);
    if (parts < 1) parts = 1;
    /* a program with a mesh and shardings but written whole (as `npusim model
     * --parallel` writes it) is partitioned first, as `npusim run` does */
    struct graph_module *pm = NULL;
    if (parts > 1 && !is_spmd(m)) {
        enum base_status ps = part_partition(m, NULL, NULL, NULL, 0, &pm, NULL, diag);
        if (ps != BASE_OK) {
            rep_estimate_destroy(e);
            return ps;
        }
        m = pm;
    }
    enum base_status st = BASE_OK;
    for (int i = 0; i < q->n_systems && st == BASE_OK; i++) {
        struct rep_compare_row *row = &e->rows[e->n_rows++];
        row_start(row, &q->systems[i]);
        struct chip_desc *chip = malloc(sizeof *chip);
        if (!chip) {
            st = BASE_ERR_NOMEM;
            break;
        }
        struct base_diag d;
        base_diag_clear(&d);
        uint32_t n = q->systems[i].chips;
        if (chip_load(q->systems[i].chip, chip, &d) != BASE_OK) {
            base_diag_format(&d, row->error, sizeof row->error);
        } else if (n % (uint32_t)parts) {
            snprintf(row->chip, sizeof row->chip, "%s", chip->name);
            snprintf(row->error, sizeof row->error,
                     "the graph is a program of %d partitions: give a multiple of %d chips", parts, parts);
        } else {
            snprintf(row->chip, sizeof row->chip, "%s", chip->name);
            uint32_t replicas = n / (uint32_t)parts;
            /* the graph's own layout: its partitions, times independent replicas */
            int w = snprintf(row->layout, sizeof row->layout, "%d partition%s", parts, parts > 1 ? "s" : "");
            if (replicas > 1) snprintf(row->layout + w, sizeof row->layout - (size_t)w, " x %u", replicas);
            row->dp = (int)replicas;
            row->tp = parts; /* the graph's own partitioning, whatever its axes */
            enum base_status rs = rep_est_simulate(m, chip, n, &q->sim, row, NULL, &d);
            if (rs != BASE_OK && d.msg[0]) base_diag_format(&d, row->error, sizeof row->error);
            else if (rs != BASE_OK) snprintf(row->error, sizeof row->error, "%s", base_status_str(rs));
            row->thr.tokens_per_step = e->tokens_per_step * replicas;
            row->mem.total = row->mem.plan_donated_bytes;
            row->mem.capacity = (double)chip->hbm.capacity_bytes;
            row->mem.fits = row->mem.total <= row->mem.capacity;
            rep_est_price(q->prices, chip, &row->thr);
            if (row->ok) rep_est_row_finish(row);
        }
        free(chip);
        if (q->on_row) q->on_row(q->user, row);
    }
    graph_module_destroy(pm);
    if (st != BASE_OK) {
        rep_estimate_destroy(e);
        return base_diag_set(diag, st, NULL, 0, 0, "out of memory");
    }
    *out = e;
    return BASE_OK;
}
