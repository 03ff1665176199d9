/* model: stop-gradient marks (the reverse-mode pass comes with training).
 *
 * The forward of a layer (or of the head) is built op by op in the current
 * block; mdl_ad_grad then walks those ops backwards, from the seeded output
 * cotangents, and appends each op's vector-Jacobian product to the same
 * block, reading the forward values (which are still in scope).  One rule
 * per op kind, as JAX's transpose rules state them (docs/model.md "The
 * backward").  Values marked with mdl_stop (the softmax's max, one-hot
 * masks, routing decisions) and values of integer or boolean type take no
 * cotangent, as jax.lax.stop_gradient and integer inputs do. */
#include "model/mdl_internal.h"

#include <stdlib.h>
#include <string.h>

static bool grow(struct mdl_gen *g, uint32_t need)
{
    if (need <= g->cap) return true;
    uint32_t cap = g->cap ? g->cap : 1024;
    while (cap < need) cap *= 2;
    uint8_t *s = realloc(g->stop, cap);
    if (!s) return false;
    g->stop = s;
    struct graph_value **c = realloc(g->ct, cap * sizeof *c);
    if (!c) return false;
    g->ct = c;
    memset(g->stop + g->cap, 0, cap - g->cap);
    memset(g->ct + g->cap, 0, (cap - g->cap) * sizeof *c);
    g->cap = cap;
    return true;
}

void mdl_stop(struct mdl_gen *g, gval *v)
{
    if (!v) return;
    if (!grow(g, v->id + 1)) {
        g->oom = true;
        return;
    }
    g->stop[v->id] |= 1;
}

