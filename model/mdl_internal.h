/* model/ private: the weight list of a configuration, the generator's
 * context and its op helpers (emit.c), the reverse-mode pass (ad.c), the
 * layers (layers.c) and the workloads (generate.c). */
#ifndef NPUSIM_MODEL_MDL_INTERNAL_H
#define NPUSIM_MODEL_MDL_INTERNAL_H

#include "model/model.h"

/* ------------------------------------------------------------------------ */
/* Weights                                                                   */

/* What a weight's dim is, for the parallel layouts (docs/model.md). */
enum mdl_role {
    MDL_R_NONE,   /* whole everywhere */
    MDL_R_EMBED,  /* the hidden size (FSDP splits it) */
    MDL_R_HEADS,  /* query heads x head dim (TP: column-parallel) */
    MDL_R_KV,     /* kv heads x head dim (TP when the kv heads divide) */
    MDL_R_FFN,    /* an MLP's width (TP) */
    MDL_R_VOCAB,  /* the vocabulary (TP) */
    MDL_R_EXPERT, /* the experts (EP) */
    MDL_R_BATCH,  /* sequences (DP, FSDP and EP: the batch of the layers that are not experts) */
    MDL_R_SEQ,    /* tokens of a sequence (SP) */
    MDL_R_LAYER,  /* a stacked weight's layers (PP) */
};

#define MDL_MAX_WEIGHTS 64
#define MDL_MAX_GROUPS 2

/* One weight (argument) of the program.  A layer weight is stacked: its
 * argument is [layers of its group, dims...]. */
struct mdl_weight {
    char name[32];
    int group;                  /* -1: not per layer; else the layer group */
    int rank;                   /* per layer */
    int64_t dims[4];
    enum mdl_role roles[4];
    bool expert;                /* dim 0 is the experts (active: k of them per token) */
    bool trainable;             /* false: a buffer (DeepSeek's routing bias) */
    double init_scale;          /* tests and random inputs: 0 = 1/sqrt(fan in); else this constant */
};

/* Layers of one kind, one loop each: dense layers, or MoE layers. */
struct mdl_group {
    int64_t first, n;           /* layer indices [first, first + n) */
    bool moe;
};

struct mdl_weights {
    int n;
    struct mdl_weight w[MDL_MAX_WEIGHTS];
    int n_groups;
    struct mdl_group groups[MDL_MAX_GROUPS];
};

/* The weights of c in argument order: the embedding (and positions), the
 * final norm, the output projection, then each group's stacked weights. */
void mdl_weights_of(const struct mdl_config *c, struct mdl_weights *out);
/* Index of a weight by name in group g (-1 for the global ones), or -1. */
int mdl_weight_find(const struct mdl_weights *ws, int g, const char *name);
/* Elements of one layer's (or the global) weight. */
int64_t mdl_weight_count(const struct mdl_weight *w);

/* ------------------------------------------------------------------------ */
/* The generator                                                             */

struct mdl_gen {
    struct graph_builder *b;
    const struct mdl_config *c;
    const struct mdl_workload *w;
    struct mdl_weights ws;
    enum base_dtype dt;         /* activations */
    enum base_dtype mdt;        /* master weights (train) */
    /* stop-gradient marks and cotangents, by the builder's value number */
    uint8_t *stop;
    struct graph_value **ct;
    uint32_t cap;
    bool oom;
};

typedef struct graph_value gval;

const struct graph_type *mdl_ty(struct mdl_gen *g, enum base_dtype dt, int rank, const int64_t *dims);
/* A value's dims / rank / element type. */
static inline int mdl_rank(const gval *v) { return v->type->rank; }
static inline int64_t mdl_dim(const gval *v, int d) { return v->type->dims[d]; }
static inline enum base_dtype mdl_elem(const gval *v) { return v->type->elem; }

/* Constants: a splat of x of the given shape; a scalar. */
gval *mdl_splat(struct mdl_gen *g, double x, enum base_dtype dt, int rank, const int64_t *dims);
gval *mdl_scalar(struct mdl_gen *g, double x, enum base_dtype dt);
gval *mdl_splat_like(struct mdl_gen *g, double x, const gval *like);
/* Elementwise. */
gval *mdl_un(struct mdl_gen *g, enum graph_op_kind k, gval *a);
gval *mdl_bin(struct mdl_gen *g, enum graph_op_kind k, gval *a, gval *b);
gval *mdl_add(struct mdl_gen *g, gval *a, gval *b);
gval *mdl_sub(struct mdl_gen *g, gval *a, gval *b);
gval *mdl_mul(struct mdl_gen *g, gval *a, gval *b);
gval *mdl_div(struct mdl_gen *g, gval *a, gval *b);
gval *mdl_scale(struct mdl_gen *g, gval *a, double x); /* a * x */
gval *mdl_cmp(struct mdl_gen *g, gval *a, gval *b, const char *dir, bool is_float);
gval *mdl_select(struct mdl_gen *g, gval *p, gval *a, gval *b);
gval *mdl_clamp(struct mdl_gen *g, gval *lo, gval *x, gval *hi);
gval *mdl_convert(struct mdl_gen *g, gval *a, enum base_dtype dt);
/* Shapes. */
gval *mdl_bcast(struct mdl_gen *g, gval *a, int rank, const int64_t *dims, const int64_t *bdims);
/* a's dims are the leading / trailing / given dims of the result. */
gval *mdl_bcast_to(struct mdl_gen *g, gval *a, const gval *like, const int64_t *bdims);
gval *mdl_reshape(struct mdl_gen *g, gval *a, int rank, const int64_t *dims);
gval *mdl_transpose(struct mdl_gen *g, gval *a, const int64_t *perm);
gval *mdl_slice(struct mdl_gen *g, gval *a, int dim, int64_t start, int64_t limit);
gval *mdl_concat(struct mdl_gen *g, gval *const *v, int n, int dim);
gval *mdl_pad(struct mdl_gen *g, gval *a, const int64_t *lo, const int64_t *hi);
gval *mdl_iota(struct mdl_gen *g, enum base_dtype dt, int rank, const int64_t *dims, int dim);
/* dot_general: result dims batch, lhs free, rhs free (in order); elem: a's. */
gval *mdl_dot(struct mdl_gen *g, gval *a, gval *b, int nb, const int64_t *lb, const int64_t *rb, int nc,
              const int64_t *lc, const int64_t *rc);
/* x [..., K] @ w [K, N] -> [..., N] */
gval *mdl_matmul(struct mdl_gen *g, gval *x, gval *w);
/* reduce over dims with add / max (kind GRAPH_OP_ADD or GRAPH_OP_MAXIMUM). */
gval *mdl_reduce(struct mdl_gen *g, gval *a, enum graph_op_kind k, int n, const int64_t *dims);
/* dynamic_slice / dynamic_update_slice at scalar i32 indices (NULL: 0). */
gval *mdl_dslice(struct mdl_gen *g, gval *a, gval *const *idx, const int64_t *sizes);
gval *mdl_dupdate(struct mdl_gen *g, gval *a, gval *upd, gval *const *idx);
/* stacked[i] (the layer slice [dims...]) of a stacked [L, dims...] value. */
gval *mdl_layer_slice(struct mdl_gen *g, gval *stacked, gval *i);
/* stacked with slice i replaced by v [dims...]. */
gval *mdl_layer_update(struct mdl_gen *g, gval *stacked, gval *v, gval *i);
/* Embedding lookup: table [V, D], ids [...] (i32) -> [..., D]. */
gval *mdl_gather_rows(struct mdl_gen *g, gval *table, gval *ids);
/* The gather's transpose: zeros [V, D] plus the rows of upd [..., D] added at ids. */
gval *mdl_scatter_add_rows(struct mdl_gen *g, gval *ids, gval *upd, int64_t rows);
/* chlo.top_k over the last dim: values and indices (i32). */
void mdl_top_k(struct mdl_gen *g, gval *a, int64_t k, gval **values, gval **indices);
/* one_hot(ids [...], n) -> [..., n] of dt (1 where ids == position). */
gval *mdl_one_hot(struct mdl_gen *g, gval *ids, int64_t n, enum base_dtype dt);

/* Reverse mode.  mdl_stop marks v as constant for the pass (no cotangent
 * flows into it: jax.lax.stop_gradient).  mdl_ad_begin returns a mark (the
 * current block's op count); mdl_ad_grad runs the pass over the ops of the
 * current block made since the mark, seeded with (out, dout) pairs, and
 * returns in dx[i] the cotangent of x[i] (a zero splat when nothing flows
 * to it).  Rules: docs/model.md "The backward". */
void mdl_stop(struct mdl_gen *g, gval *v);
int mdl_ad_begin(struct mdl_gen *g);
enum base_status mdl_ad_grad(struct mdl_gen *g, int mark, gval *const *out, gval *const *dout, int n_out,
                             gval *const *x, gval **dx, int n_x, struct base_diag *diag);

/* ------------------------------------------------------------------------ */
/* Layers (layers.c)                                                         */

/* What a layer reads besides its weights. */
struct mdl_layer_io {
    gval *layer;                /* i32 scalar: the global layer index */
    gval *cos, *sin;            /* [S, rope/2] f32 (RoPE), or NULL */
    gval *q_pos;                /* i32 scalar: the first query's position (0 for train/prefill) */
    /* prefill (cache set): k_new / v_new get the layer's keys and values
     * [B, S, ...] for the cache.  decode: k_stack / v_stack are the stacked
     * caches [L, B, T, ...], li the layer's index in them; the token's keys
     * and values are written at q_pos and k_new / v_new get the new stacks. */
    bool cache;
    gval *k_stack, *v_stack, *li;
    gval *k_new, *v_new;
};

/* One decoder layer: x [B, S, D] -> [B, S, D], weights w[i] the layer
 * slices of group g's weights (in mdl_weights order, NULL for others). */
gval *mdl_layer(struct mdl_gen *g, int group, gval *x, gval *const *w, struct mdl_layer_io *io);
/* Final norm + output projection: x [B, S, D] -> logits [B, S, V] (f32). */
gval *mdl_head(struct mdl_gen *g, gval *x, gval *norm, gval *norm_b, gval *proj, bool proj_is_table);
/* RMSNorm / LayerNorm over the last dim (in f32), scaled (and shifted). */
gval *mdl_norm(struct mdl_gen *g, gval *x, gval *scale, gval *bias);
/* RoPE tables for positions [p0, p0 + S) (p0 an i32 scalar or NULL: 0). */
void mdl_rope_tables(struct mdl_gen *g, int64_t s, int64_t rope_dim, gval *p0, gval **cos, gval **sin);

/* Expert capacity per group of t tokens. */
int64_t mdl_capacity(const struct mdl_config *c, int64_t tokens);

#endif
