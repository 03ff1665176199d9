/* Runtime glue: names a plan's graph ops for the recorder and follows its
 * kernel launches (rt_options.on_launch).  The only file of traces/ that
 * sees the compiler and the graph IR. */
#include "record/rec_internal.h"

#include "compiler/compiler.h"
#include "graph/graph.h"

#include <stdio.h>

static enum base_status name_ops(struct rec_recorder *r, const struct graph_block *b, int depth)
{
    if (depth > 64) return BASE_OK; /* the parser caps nesting; belt and braces */
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        TRY(rec_recorder_set_op(r, op->id, op->name, op->loc.file, op->loc.line, op->loc.col, op->loc.chain));
        for (int g = 0; g < op->n_regions; g++)
            for (int k = 0; k < op->regions[g].n_blocks; k++) TRY(name_ops(r, &op->regions[g].blocks[k], depth + 1));
    }
    return BASE_OK;
}

enum base_status rec_recorder_describe_plan(struct rec_recorder *r, const struct cc_plan *plan)
{
    r->plan = plan;
    TRY(rec_recorder_set_meta(r, "mode", cc_mode_name(cc_plan_mode(plan))));
    char v[32];
    snprintf(v, sizeof v, "%d", cc_plan_n_cores(plan));
    TRY(rec_recorder_set_meta(r, "cores_used", v));
    /* the module's top block, from any kernel's root op */
    const struct graph_block *top = NULL;
    for (uint32_t k = 0; k < cc_plan_n_kernels(plan) && !top; k++) {
        const struct graph_op *op = cc_plan_kernel_info(plan, k)->root;
        if (!op) continue;
        const struct graph_block *b = op->parent;
        while (b && b->parent && b->parent->parent && b->parent->parent->parent) b = b->parent->parent->parent;
        top = b;
    }
    if (top) TRY(name_ops(r, top, 0));
    return BASE_OK;
}

void rec_recorder_on_launch(void *user, uint32_t kernel, uint64_t start_ps, uint64_t gap_ps)
{
    struct rec_recorder *r = user;
    if (!r->plan || kernel >= cc_plan_n_kernels(r->plan)) {
        rec_recorder_launch(r, kernel, "kernel", UINT32_MAX, start_ps, gap_ps);
        return;
    }
    const struct cc_kernel_info *ki = cc_plan_kernel_info(r->plan, kernel);
    rec_recorder_launch(r, kernel, ki->name, ki->root ? ki->root->id : UINT32_MAX, start_ps, gap_ps);
    r->k_model_flops = ki->flops;
}
