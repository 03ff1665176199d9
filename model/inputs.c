/* model: inputs for a generated program, with values a real step would see:
 * token ids inside the vocabulary, weights at their initialisation scale
 * (1 / sqrt(fan in) for matrices, around 1 for norm scales, small biases),
 * Adam's second moment non-negative, the decode position at the end of the
 * cache.  Tests and estimates use them; `npusim run --random-inputs` gives
 * arbitrary values instead (ids out of range are clamped by the program). */
#include "model/mdl_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The weight an argument holds: "wq_0" (group 0), "m_wq_0", "embed". */
static const struct mdl_weight *weight_of(const struct mdl_weights *ws, const char *name, bool *second_moment)
{
    *second_moment = false;
    if (!strncmp(name, "m_", 2)) name += 2;
    else if (!strncmp(name, "v_", 2)) {
        name += 2;
        *second_moment = true;
    }
    for (int i = 0; i < ws->n; i++) {
        char full[48];
        if (ws->w[i].group >= 0) snprintf(full, sizeof full, "%s_%d", ws->w[i].name, ws->w[i].group);
        else snprintf(full, sizeof full, "%s", ws->w[i].name);
        if (!strcmp(full, name)) return &ws->w[i];
    }
    return NULL;
}

enum base_status mdl_inputs(const struct mdl_config *c, const struct mdl_workload *w, const struct graph_module *m,
                            uint64_t seed, struct base_tensor **in, int n, struct base_diag *diag)
{
    const struct graph_op *fn = graph_module_entry(m);
    if (!fn || fn->n_regions < 1) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no entry function");
    const struct graph_block *blk = &fn->regions[0].blocks[0];
    if (n != blk->n_args)
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "@main takes %d inputs, %d asked for", blk->n_args, n);
    struct mdl_weights ws;
    mdl_weights_of(c, &ws);
    struct base_rng r;
    base_rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        const struct graph_type *t = blk->args[i].type;
        const char *name = blk->args[i].name ? blk->args[i].name : "";
        TRY(base_tensor_create(t->elem, t->rank, t->dims, &in[i]));
        struct base_tensor *x = in[i];
        if (!strcmp(name, "tokens") || !strcmp(name, "targets")) {
            for (int64_t k = 0; k < x->count; k++)
                base_elem_set_i64(x->dtype, x->data, (size_t)k, (int64_t)(base_rng_next(&r) % (uint64_t)c->vocab));
            continue;
        }
        if (!strcmp(name, "pos")) {
            base_elem_set_i64(x->dtype, x->data, 0, w->seq - 1);
            continue;
        }
        if (!strcmp(name, "step")) {
            base_elem_set_i64(x->dtype, x->data, 0, 10);
            continue;
        }
        bool v2 = false;
        const struct mdl_weight *wt = weight_of(&ws, name, &v2);
        double scale = 1.0, mean = 0.0;
        if (wt) {
            scale = wt->init_scale > 0 ? wt->init_scale : 1.0 / sqrt((double)wt->dims[wt->rank - 2 >= 0 ? wt->rank - 2 : 0]);
            /* norm scales around 1 */
            if (wt->init_scale == 1.0 && wt->rank == 1 && strcmp(wt->name, "sinks")) {
                mean = 1.0;
                scale = 0.1;
            }
            if (!strncmp(name, "m_", 2) || v2) {
                mean = 0;
                scale *= 0.01; /* optimiser state: small */
            }
        }
        for (int64_t k = 0; k < x->count; k++) {
            double v = mean + scale * base_rng_normal(&r);
            if (v2) v = fabs(v) * scale; /* second moments are squares */
            base_elem_set_f64(x->dtype, x->data, (size_t)k, v);
        }
    }
    return BASE_OK;
}
