/* custom_calls that real exports carry around the ops (docs/compiler.md
 * "Custom calls"): sharding annotations and memory-space moves that are the
 * identity on the values of a program as one partition runs it.  They become
 * views of their operand (no kernel), as XLA's SPMD partitioner and its
 * host-offloading pass remove them before code generation. */
#include "compiler/cc_internal.h"

#include <stdio.h>
#include <string.h>

/* X(name, what it is) */
#define CC_IDENTITY_CALLS(X)                                                                               \
    X("Sharding", "GSPMD's sharding annotation (mhlo.sharding on the call)")                               \
    X("SPMDFullToShardShape", "entry to a manual region (shard_map): the shard, here the whole value")     \
    X("SPMDShardToFullShape", "exit from a manual region")                                                 \
    X("MoveToHost", "host-offloading annotation (memory space)")                                           \
    X("MoveToDevice", "host-offloading annotation (memory space)")                                         \
    X("LayoutConstraint", "a layout request (layouts are the compiler's)")                                 \
    X("annotate_device_placement", "a memory-kind annotation (jax.device_put)")

static const char *const identity_names[] = {
#define X(n, what) n,
    CC_IDENTITY_CALLS(X)
#undef X
};

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

bool cc_custom_call_claims(const struct graph_op *op)
{
    if (op->kind != GRAPH_OP_CUSTOM_CALL) return false;
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    if (!t || t->kind != GRAPH_ATTR_STRING) return false;
    for (size_t i = 0; i < ARRAY_LEN(identity_names); i++)
        if (t->u.str.len == strlen(identity_names[i]) && !memcmp(t->u.str.s, identity_names[i], t->u.str.len))
            return true;
    return false;
}

bool cc_custom_call_view(const struct graph_op *op, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    if (!cc_custom_call_claims(op)) return why_set(why, cap, "not an identity custom_call");
    if (op->n_operands != op->n_results || op->n_results < 1)
        return why_set(why, cap, "an identity custom_call returns its operands");
    for (int i = 0; i < op->n_results; i++) {
        const struct graph_type *a = op->operands[i]->type, *b = op->results[i].type;
        if (!graph_type_equal(a, b))
            return why_set(why, cap, "a custom_call that changes the shape (a full-to-shard of a multi-partition program "
                                     "needs the SPMD partitioner: npusim partition)");
    }
    return true;
}

const struct graph_value *cc_identity_source(const struct graph_value *gv)
{
    const struct graph_op *op = gv ? gv->def : NULL;
    if (!op || gv->index >= op->n_operands) return NULL;
    if (op->kind == GRAPH_OP_OPTIMIZATION_BARRIER || graph_op_kind_has(op->kind, GRAPH_OPF_IDENTITY) ||
        cc_custom_call_claims(op))
        return op->operands[gv->index];
    return NULL;
}
