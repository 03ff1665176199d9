/* The estimate's rows in other execution modes (--modes) and their
 * recompile figures (--seq-lengths): docs/estimate.md. */
#include "report/estimate.h"
#include "report/rep_internal.h"

#include <stdlib.h>
#include <string.h>

enum base_status rep_estimate_modes(const struct graph_module *m, const struct rep_est_request *q,
                                    const enum cc_mode *modes, int n_modes, struct rep_estimate *e,
                                    struct base_diag *diag)
{
    if (n_modes < 1) return BASE_OK;
    struct rep_mode_row *rows = calloc((size_t)e->n_rows * (size_t)n_modes, sizeof *rows);
    if (!rows) return BASE_ERR_NOMEM;
    free(e->modes);
    e->modes = rows;
    e->n_modes = 0;
    for (uint32_t i = 0; i < e->n_rows; i++) {
        const struct rep_compare_row *base = &e->rows[i];
        uint32_t first = e->n_modes;
        uint64_t eager_ps = 0;
        for (int k = 0; k < n_modes; k++) {
            struct rep_mode_row *mr = &rows[e->n_modes++];
            snprintf(mr->chip, sizeof mr->chip, "%s", base->chip);
            mr->chips = base->chips;
            snprintf(mr->layout, sizeof mr->layout, "%s", base->layout);
            snprintf(mr->mode, sizeof mr->mode, "%s", cc_mode_name(modes[k]));
            if (!base->ok) {
                snprintf(mr->error, sizeof mr->error, "the system has no figures");
                continue;
            }
            /* the system again, in this mode, at the layout the estimate chose */
            struct rep_est_request one = *q;
            struct rep_est_system sys = q->systems[i];
            struct rep_est_layout lay = {base->dp, base->fsdp, base->tp, base->sp, base->ep, base->pp, base->microbatches};
            one.systems = &sys;
            one.n_systems = 1;
            one.sim.mode = modes[k];
            one.on_row = NULL;
            if (!m) one.layout = &lay;
            struct rep_estimate *r = NULL;
            struct base_diag d;
            memset(&d, 0, sizeof d);
            enum base_status st = m ? rep_estimate_graph(m, &one, &r, &d) : rep_estimate_preset(&one, &r, &d);
            if (st == BASE_ERR_NOMEM) {
                rep_estimate_destroy(r);
                return st;
            }
            if (st == BASE_OK && r && r->n_rows == 1 && r->rows[0].ok) {
                const struct rep_compare_row *x = &r->rows[0];
                mr->ok = true;
                mr->step_ps = x->step_ps;
                mr->kernel_ps = x->kernel_ps;
                mr->dispatch_ps = x->dispatch_ps;
                mr->launches = x->launches;
                mr->tokens_per_s = x->thr.tokens_per_s;
                mr->usd_per_mtok = x->thr.has_price ? x->thr.usd_per_mtok : 0;
                if (modes[k] == CC_MODE_EAGER) eager_ps = x->step_ps;
            } else if (st != BASE_OK) {
                if (d.msg[0]) base_diag_format(&d, mr->error, sizeof mr->error);
                else snprintf(mr->error, sizeof mr->error, "%s", base_status_str(st));
            } else {
                snprintf(mr->error, sizeof mr->error, "%.150s", r && r->n_rows ? r->rows[0].error : "no row");
            }
            rep_estimate_destroy(r);
        }
        for (uint32_t k = first; k < e->n_modes; k++)
            if (rows[k].ok && eager_ps) rows[k].speedup_vs_eager = (double)eager_ps / (double)rows[k].step_ps;
    }
    (void)diag;
    return BASE_OK;
}

enum base_status rep_estimate_recompiles(const struct rep_lengths *l, int64_t align, double requests,
                                         const struct rep_est_request *q, struct rep_estimate *e,
                                         struct base_diag *diag)
{
    struct rep_recompile *rc = calloc(e->n_rows ? e->n_rows : 1, sizeof *rc);
    if (!rc) return BASE_ERR_NOMEM;
    free(e->recompiles);
    e->recompiles = rc;
    snprintf(e->seq_lengths, sizeof e->seq_lengths, "%s", l->source);
    e->bucket_align = align;
    for (uint32_t i = 0; i < e->n_rows; i++) {
        struct rep_compare_row *row = &e->rows[i];
        if (!row->ok || e->seq <= 0) continue;
        struct chip_desc chip;
        struct base_diag d;
        memset(&d, 0, sizeof d);
        if (i >= (uint32_t)q->n_systems || chip_load(q->systems[i].chip, &chip, &d) != BASE_OK) continue;
        /* a step's time scales with its tokens (attention's quadratic part
         * is not separated: docs/estimate.md) */
        struct rep_bucket_cost c = {
            .step_fixed_s = 0,
            .step_s_per_token = (double)row->step_ps * 1e-12 / (double)e->seq,
            .compile_s = chip.host.compile_us_per_op * 1e-6 * (double)row->graph_ops,
            .requests = requests,
        };
        double usd_per_s = row->thr.has_price ? row->thr.usd_per_chip_hour * row->chips / 3600.0 : 0;
        TRY(rep_recompile_compute(l, &c, align, usd_per_s, &rc[i], diag));
        row->has_recompiles = true;
        row->recompiles = rc[i].optimal.compiles;
        row->recompile_s = rc[i].optimal.compile_s;
    }
    return BASE_OK;
}
