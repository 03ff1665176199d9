/* The estimator's preset driver (report/estimate.h rep_estimate_preset): a
 * preset of model/ generated for each layout, partitioned, simulated. */
#include "report/estimate.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "partition/partition.h"

static const enum mdl_workload_kind kinds[REP_WORKLOAD_COUNT] = {
    [REP_TRAIN] = MDL_TRAIN, [REP_PREFILL] = MDL_PREFILL, [REP_DECODE] = MDL_DECODE};

static void model_size(const struct mdl_config *c, struct rep_est_model_size *s)
{
    memset(s, 0, sizeof *s);
    mdl_params(c, &s->params, &s->params_active);
    s->layers = c->layers;
    s->hidden = c->hidden;
    s->heads = c->heads;
    s->kv_heads = c->kv_heads;
    s->head_dim = c->head_dim;
    s->ffn = c->ffn;
    s->vocab = c->vocab;
    s->dtype_bytes = (uint32_t)base_dtype_size(c->dtype);
    s->master_bytes = (uint32_t)base_dtype_size(c->master_dtype);
}

static void workload_of(const struct rep_est_request *q, const struct rep_est_layout *l, struct mdl_workload *w)
{
    mdl_workload_default(w);
    w->kind = kinds[q->workload];
    w->batch = q->batch;
    w->seq = q->seq;
    w->par = (struct mdl_parallel){l->dp, l->fsdp, l->tp, l->sp, l->ep, l->pp, l->microbatches};
}

struct eval_ctx {
    const struct mdl_config *c;
    const struct rep_est_request *q;
    const struct chip_desc *chip;
    uint32_t chips;
};

/* Generates, partitions and simulates one layout into row. */
static enum base_status eval(void *user, const struct rep_est_layout *l, struct rep_compare_row *row,
                             struct base_diag *diag)
{
    (void)diag;
    const struct eval_ctx *x = user;
    struct mdl_workload w;
    workload_of(x->q, l, &w);
    rep_est_layout_str(l, row->layout, sizeof row->layout);
    row->dp = l->dp;
    row->fsdp = l->fsdp;
    row->tp = l->tp;
    row->sp = l->sp;
    row->ep = l->ep;
    row->pp = l->pp;
    row->microbatches = l->pp > 1 ? (l->microbatches ? l->microbatches : 2 * l->pp) : 0;
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_module *gm = NULL, *pm = NULL;
    const char *phase = "generating";
    enum base_status st = mdl_generate(x->c, &w, &gm, &d);
    if (st == BASE_OK && rep_est_layout_devices(l) > 1) {
        phase = "partitioning";
        st = part_partition(gm, NULL, NULL, NULL, 0, &pm, NULL, &d);
    }
    if (st == BASE_OK) {
        phase = "simulating";
        st = rep_est_simulate(pm ? pm : gm, x->chip, x->chips, &x->q->sim, row, NULL, &d);
    }
    graph_module_destroy(pm);
    graph_module_destroy(gm);
    if (st != BASE_OK) { /* out of memory too: the row says so, the other rows go on */
        row->ok = false;
        if (d.msg[0]) base_diag_format(&d, row->error, sizeof row->error);
        else
            snprintf(row->error, sizeof row->error, "%s while %s the program", base_status_str(st), phase);
        return BASE_OK;
    }
    /* the model's FLOPs (no recomputation), the workload's tokens */
    row->model_flops = mdl_workload_flops(x->c, &w);
    row->thr.tokens_per_step = mdl_workload_tokens(&w);
    rep_est_price(x->q->prices, x->chip, &row->thr);
    rep_est_row_finish(row);
    return BASE_OK;
}

/* One system's row: the given layout, or the search's best. */
static enum base_status system_row(const struct mdl_config *c, const struct rep_est_model_size *ms,
                                   const struct rep_est_request *q, const struct chip_desc *chip, uint32_t chips,
                                   struct rep_compare_row *row, struct base_diag *diag)
{
    struct eval_ctx x = {c, q, chip, chips};
    double cap = (double)chip->hbm.capacity_bytes;
    if (q->layout) {
        if ((uint32_t)rep_est_layout_devices(q->layout) != chips) {
            char l[96];
            rep_est_layout_str(q->layout, l, sizeof l);
            snprintf(row->error, sizeof row->error, "--parallel %s is %d devices, the system %u chips", l,
                     rep_est_layout_devices(q->layout), chips);
            return BASE_OK;
        }
        struct rep_memory mem;
        rep_est_memory(ms, q->workload, q->batch, q->seq, q->layout, cap, &mem);
        TRY(eval(&x, q->layout, row, diag));
        double plan = row->mem.plan_bytes, donated = row->mem.plan_donated_bytes;
        row->mem = mem;
        row->mem.plan_bytes = plan;
        row->mem.plan_donated_bytes = donated;
        row->layouts_considered = row->layouts_fit = row->layouts_simulated = 1;
        row->layouts_fit = mem.fits;
        return BASE_OK;
    }
    int n = rep_est_layouts(chips, ms, q->workload, q->batch, NULL, 0);
    struct rep_est_layout *ls = calloc((size_t)n + 1, sizeof *ls);
    struct rep_est_candidate *cs = calloc((size_t)n + 1, sizeof *cs);
    if (!ls || !cs) {
        free(ls);
        free(cs);
        return BASE_ERR_NOMEM;
    }
    rep_est_layouts(chips, ms, q->workload, q->batch, ls, n);
    for (int i = 0; i < n; i++) {
        cs[i].layout = ls[i];
        rep_est_memory(ms, q->workload, q->batch, q->seq, &ls[i], cap, &cs[i].mem);
        cs[i].rank_s = cs[i].mem.fits ? rep_est_rank(ms, q->workload, q->batch, q->seq, &ls[i], chip) : -1;
    }
    enum base_status st = rep_est_search(cs, n, q->max_simulated, eval, &x, row, diag);
    free(ls);
    free(cs);
    return st;
}

enum base_status rep_estimate_preset(const struct rep_est_request *q, struct rep_estimate **out,
                                     struct base_diag *diag)
{
    *out = NULL;
    struct mdl_config c;
    TRY(mdl_preset_get(q->model, &c, diag));
    struct rep_est_model_size ms;
    model_size(&c, &ms);
    struct rep_estimate *e = calloc(1, sizeof *e);
    if (!e) return BASE_ERR_NOMEM;
    e->rows = calloc((size_t)(q->n_systems > 0 ? q->n_systems : 1), sizeof *e->rows);
    struct chip_desc *chip = malloc(sizeof *chip);
    if (!e->rows || !chip) {
        free(chip);
        rep_estimate_destroy(e);
        return BASE_ERR_NOMEM;
    }
    snprintf(e->model, sizeof e->model, "%s", q->model);
    snprintf(e->source, sizeof e->source, "preset");
    snprintf(e->workload, sizeof e->workload, "%s", rep_workload_name(q->workload));
    e->batch = q->batch;
    e->seq = q->seq;
    e->tokens_per_step = rep_workload_tokens(q->workload, q->batch, q->seq);
    e->params_total = ms.params;
    e->params_active = ms.params_active;
    enum base_status st = BASE_OK;
    for (int i = 0; i < q->n_systems && st == BASE_OK; i++) {
        struct rep_compare_row *row = &e->rows[e->n_rows++];
        memset(row, 0, sizeof *row);
        snprintf(row->kind, sizeof row->kind, "simulated");
        snprintf(row->chip, sizeof row->chip, "%.31s", q->systems[i].chip);
        snprintf(row->mode, sizeof row->mode, "compiled");
        row->chips = q->systems[i].chips;
        row->thr.tokens_per_step = e->tokens_per_step;
        struct base_diag d;
        base_diag_clear(&d);
        if (chip_load(q->systems[i].chip, chip, &d) != BASE_OK) {
            base_diag_format(&d, row->error, sizeof row->error);
        } else {
            snprintf(row->chip, sizeof row->chip, "%s", chip->name);
            rep_est_price(q->prices, chip, &row->thr);
            st = system_row(&c, &ms, q, chip, row->chips, row, diag);
        }
        if (q->on_row) q->on_row(q->user, row);
    }
    free(chip);
    if (st != BASE_OK) {
        rep_estimate_destroy(e);
        return st;
    }
    *out = e;
    return BASE_OK;
}

