/* Verifier rules for linear algebra: dot_general, dot, chlo.ragged_dot,
 * convolution, dynamic_conv, fft, cholesky, triangular_solve and the batch
 * norm ops (spec.md "Constraints"; ragged_dot from ChloOps.cpp). */
#include "graph/verify_internal.h"

#include <string.h>

#define R GRAPH_MAX_RANK

/* precision_config: at most 2 entries (spec (C11)/(C24) says 2; MLIR also
 * accepts an absent or empty list). */
static enum base_status precision_config(struct verify_ctx *cx, const struct graph_op *op,
                                         const char *label)
{
    const struct graph_attr *p = graph_op_attr(op, "precision_config");
    if (!p) return BASE_OK;
    if (p->kind != GRAPH_ATTR_ARRAY)
        return graph_verify_fail(cx, op, "%s precision_config must be a list of precisions", label);
    if (p->u.array.n > 2)
        return graph_verify_fail(cx, op, "%s precision_config must have 2 entries, got %d", label,
                           p->u.array.n);
    for (int i = 0; i < p->u.array.n; i++) {
        const struct graph_attr *e = p->u.array.items[i];
        if (!(graph_verify_word_is(e, "DEFAULT") || graph_verify_word_is(e, "HIGH") ||
              graph_verify_word_is(e, "HIGHEST")))
            return graph_verify_fail(cx, op, "%s precision_config[%d] must be DEFAULT, HIGH or HIGHEST",
                               label, i);
    }
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* dot_general                                                               */

struct dot_dims {
    struct verify_dlist lb, rb, lc, rc;
};

/* (C1)-(C10): the dimension numbers against the operand shapes. */
static enum base_status dot_dims_check(struct verify_ctx *cx, const struct graph_op *op,
                                       const struct graph_type *l, const struct graph_type *r,
                                       const struct dot_dims *d)
{
    if (d->lb.n != d->rb.n)
        return graph_verify_fail(cx, op, "(C1) lhs has %d batching dims but rhs has %d", d->lb.n, d->rb.n);
    if (d->lc.n != d->rc.n)
        return graph_verify_fail(cx, op, "(C2) lhs has %d contracting dims but rhs has %d", d->lc.n,
                           d->rc.n);
    int64_t all[2 * VERIFY_MAX_LIST];
    memcpy(all, d->lb.v, (size_t)d->lb.n * sizeof *all);
    memcpy(all + d->lb.n, d->lc.v, (size_t)d->lc.n * sizeof *all);
    VTRY(graph_verify_list_is_unique(cx, op, "(C3)", "lhs batching + contracting dims", d->lb.n + d->lc.n, all));
    memcpy(all, d->rb.v, (size_t)d->rb.n * sizeof *all);
    memcpy(all + d->rb.n, d->rc.v, (size_t)d->rc.n * sizeof *all);
    VTRY(graph_verify_list_is_unique(cx, op, "(C4)", "rhs batching + contracting dims", d->rb.n + d->rc.n, all));
    if (l->rank >= 0) {
        VTRY(graph_verify_list_in_range(cx, op, "(C5)", "lhs_batching_dimensions", d->lb.n, d->lb.v, l->rank));
        VTRY(graph_verify_list_in_range(cx, op, "(C6)", "lhs_contracting_dimensions", d->lc.n, d->lc.v, l->rank));
    }
    if (r->rank >= 0) {
        VTRY(graph_verify_list_in_range(cx, op, "(C7)", "rhs_batching_dimensions", d->rb.n, d->rb.v, r->rank));
        VTRY(graph_verify_list_in_range(cx, op, "(C8)", "rhs_contracting_dimensions", d->rc.n, d->rc.v, r->rank));
    }
    if (l->rank < 0 || r->rank < 0) return BASE_OK;
    for (int i = 0; i < d->lb.n; i++) {
        int64_t a = l->dims[d->lb.v[i]], b = r->dims[d->rb.v[i]];
        if (!verify_dim_compat(a, b))
            return graph_verify_fail(cx, op, "(C9) lhs batching dim %lld has size %lld but rhs batching dim %lld has size %lld",
                               (long long)d->lb.v[i], (long long)a, (long long)d->rb.v[i], (long long)b);
    }
    for (int i = 0; i < d->lc.n; i++) {
        int64_t a = l->dims[d->lc.v[i]], b = r->dims[d->rc.v[i]];
        if (!verify_dim_compat(a, b))
            return graph_verify_fail(cx, op, "(C10) lhs contracting dim %lld has size %lld but rhs contracting dim %lld has size %lld",
                               (long long)d->lc.v[i], (long long)a, (long long)d->rc.v[i], (long long)b);
    }
    return BASE_OK;
}

static enum base_status dot_dims_read(struct verify_ctx *cx, const struct graph_op *op,
                                      const char *attr, struct dot_dims *d)
{
    const struct graph_attr *dn = graph_op_attr(op, attr);
    if (!dn || dn->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "requires a '%s' attribute", attr);
    VTRY(graph_verify_dict_list(cx, op, dn, "lhs_batching_dimensions", &d->lb));
    VTRY(graph_verify_dict_list(cx, op, dn, "rhs_batching_dimensions", &d->rb));
    VTRY(graph_verify_dict_list(cx, op, dn, "lhs_contracting_dimensions", &d->lc));
    VTRY(graph_verify_dict_list(cx, op, dn, "rhs_contracting_dimensions", &d->rc));
    return BASE_OK;
}

/* Quantization rules of dot_general (C13)-(C20) and convolution (C27)-(C34):
 * rhs_axis_dim is the dim a per-axis rhs must be quantized on (-1: any but
 * the contracting ones, checked by the caller). */
static enum base_status quant_rules(struct verify_ctx *cx, const struct graph_op *op,
                                    const struct graph_type *l, const struct graph_type *r,
                                    const struct graph_type *o, const char *const *lab)
{
    /* lab: nonquant elem, is_quantized, storage, expressed, per-tensor, hybrid */
    char tl[160], tr[160], to[160];
    graph_verify_tstr(l, tl, sizeof tl);
    graph_verify_tstr(r, tr, sizeof tr);
    graph_verify_tstr(o, to, sizeof to);
    /* unquantized: dot_general takes any element types (the upstream verifier
     * does not check the spec's C13; exports mix f32 and bf16); convolution
     * and dynamic_conv keep lhs and rhs alike (C27, upstream too) */
    if (!l->quant && !r->quant && !o->quant) {
        if (op->kind != GRAPH_OP_DOT_GENERAL && l->elem != r->elem)
            return graph_verify_fail(cx, op, "%s expects lhs and rhs to have compatible element type, got %s and %s",
                                     lab[0], tl, tr);
        return BASE_OK;
    }
    bool lq = l->quant != NULL, rq = r->quant != NULL, oq = o->quant != NULL;
    if (lq != (oq && rq))
        return graph_verify_fail(cx, op, "%s quantized lhs needs quantized rhs and result (and only then), got %s, %s and %s",
                           lab[1], tl, tr, to);
    if (!rq)
        return graph_verify_fail(cx, op, "%s a quantized operation needs a quantized rhs, got %s", lab[1], tr);
    if (lq) {
        if (l->quant->storage != r->quant->storage)
            return graph_verify_fail(cx, op, "%s lhs and rhs must have the same storage type, got %s and %s",
                               lab[2], tl, tr);
        if (l->quant->expressed != r->quant->expressed || l->quant->expressed != o->quant->expressed)
            return graph_verify_fail(cx, op, "%s lhs, rhs and result must have the same expressed type, got %s, %s and %s",
                               lab[3], tl, tr, to);
        if (!verify_is_per_axis(r) && verify_is_per_axis(o))
            return graph_verify_fail(cx, op, "%s a per-tensor quantized rhs needs a per-tensor quantized result, got %s",
                               lab[4], to);
        return BASE_OK;
    }
    if (l->elem != r->quant->expressed || o->quant || l->elem != o->elem)
        return graph_verify_fail(cx, op, "%s hybrid quantization needs element_type(lhs) = expressed_type(rhs) = element_type(result), got %s, %s and %s",
                           lab[5], tl, tr, to);
    return BASE_OK;
}

/* The algorithms upstream knows some hardware to run (stablehlo/dialect/
 * Base.cpp getKnownDotAlgorithm, dot_general i8-i10): single components; any
 * fp8 pair accumulating in f32; else one of a fixed list. */
static enum base_status known_dot_algorithm(struct verify_ctx *cx, const struct graph_op *op,
                                            const struct graph_attr *alg, const int64_t *counts)
{
    static const char *const f8[] = {"f8E3M4", "f8E4M3", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
                                     "f8E5M2FNUZ", NULL};
    static const struct {
        const char *lhs, *rhs, *acc;
        int64_t ops;
    } known[] = {{"f16", "f16", "f16", 1},  {"f16", "f16", "f32", 1},  {"bf16", "bf16", "bf16", 1},
                 {"bf16", "bf16", "f32", 1}, {"bf16", "bf16", "f32", 3}, {"bf16", "bf16", "f32", 6},
                 {"bf16", "bf16", "f32", 9}, {"tf32", "tf32", "f32", 1}, {"tf32", "tf32", "f32", 3},
                 {"f32", "f32", "f32", 1},   {"f64", "f64", "f64", 1}};
    const struct graph_attr *lt = graph_dict_get(alg, "lhs_precision_type"), *rt = graph_dict_get(alg, "rhs_precision_type"),
                            *at = graph_dict_get(alg, "accumulation_type");
    bool imprecise = graph_attr_bool_or(graph_dict_get(alg, "allow_imprecise_accumulation"), false);
    bool ok = false;
    if (counts[0] == 1 && counts[1] == 1) {
        bool lf8 = false, rf8 = false;
        for (int i = 0; f8[i]; i++) {
            lf8 |= graph_verify_word_is(lt, f8[i]);
            rf8 |= graph_verify_word_is(rt, f8[i]);
        }
        if (lf8 && rf8 && graph_verify_word_is(at, "f32") && counts[2] == 1) ok = true;
        for (size_t i = 0; !ok && !imprecise && i < ARRAY_LEN(known); i++)
            ok = graph_verify_word_is(lt, known[i].lhs) && graph_verify_word_is(rt, known[i].rhs) &&
                 graph_verify_word_is(at, known[i].acc) && counts[2] == known[i].ops;
    }
    if (ok) return BASE_OK;
    size_t nl = 0, nr = 0, na = 0;
    const char *ls = graph_verify_attr_word(lt, &nl), *rs = graph_verify_attr_word(rt, &nr),
               *as = graph_verify_attr_word(at, &na);
    return graph_verify_fail(cx, op, "dot algorithm not known to be supported on any hardware: {lhs:'%.*s', rhs:'%.*s', "
                             "accum:'%.*s', lhs_components:%lld, rhs_components:%lld, primitive_ops:%lld, imprecise:%d}",
                             (int)nl, ls ? ls : "", (int)nr, rs ? rs : "", (int)na, as ? as : "", (long long)counts[0],
                             (long long)counts[1], (long long)counts[2], imprecise);
}

static enum base_status dot_general(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) lhs", l));
    VTRY(graph_verify_need_tensor(cx, op, "(I2) rhs", r));
    VTRY(graph_verify_need_tensor(cx, op, "result", o));
    struct dot_dims d;
    VTRY(dot_dims_read(cx, op, "dot_dimension_numbers", &d));
    VTRY(dot_dims_check(cx, op, l, r, &d));
    VTRY(precision_config(cx, op, "(C11)"));
    if (l->rank >= 0 && r->rank >= 0) {
        int64_t dims[2 * R];
        int k = 0;
        for (int i = 0; i < d.lb.n; i++) dims[k++] = l->dims[d.lb.v[i]];
        for (int i = 0; i < l->rank; i++)
            if (!graph_verify_list_has(d.lb.n, d.lb.v, i) && !graph_verify_list_has(d.lc.n, d.lc.v, i))
                dims[k++] = l->dims[i];
        for (int i = 0; i < r->rank; i++)
            if (!graph_verify_list_has(d.rb.n, d.rb.v, i) && !graph_verify_list_has(d.rc.n, d.rc.v, i))
                dims[k++] = r->dims[i];
        VTRY(graph_verify_result_dims(cx, op, "(C12)", "result", o, k, dims));
    }
    static const char *const lab[] = {"(C13)", "(C14)", "(C17)", "(C18)", "(C19)", "(C20)"};
    VTRY(quant_rules(cx, op, l, r, o, lab));
    if (r->quant) {
        for (int i = 0; i < r->quant->n_scales; i++)
            if (r->quant->zero_points[i] != 0)
                return graph_verify_fail(cx, op, "(C15) rhs zero points must be 0, got %lld",
                                   (long long)r->quant->zero_points[i]);
        if (verify_is_per_axis(r) && graph_verify_list_has(d.rc.n, d.rc.v, r->quant->quant_dim))
            return graph_verify_fail(cx, op, "(C16) rhs quantization dimension %d must not be a contracting dim",
                               r->quant->quant_dim);
    }
    /* a non-empty algorithm needs DEFAULT precision and positive counts */
    const struct graph_attr *alg = graph_op_attr(op, "algorithm");
    if (alg && alg->kind == GRAPH_ATTR_DICT && alg->u.dict.n > 0) {
        const struct graph_attr *p = graph_op_attr(op, "precision_config");
        for (int i = 0; p && p->kind == GRAPH_ATTR_ARRAY && i < p->u.array.n; i++)
            if (!graph_verify_word_is(p->u.array.items[i], "DEFAULT"))
                return graph_verify_fail(cx, op, "(C21) precision_config must be DEFAULT when an algorithm is set");
        static const char *const counts[] = {"lhs_component_count", "rhs_component_count",
                                             "num_primitive_operations"};
        static const char *const cl[] = {"(C22)", "(C23)", "(C24)"};
        int64_t cv[3] = {1, 1, 1};
        for (int i = 0; i < 3; i++) {
            bool present;
            VTRY(graph_verify_attr_int(cx, op, graph_dict_get(alg, counts[i]), counts[i], &present, &cv[i]));
            if (present && cv[i] <= 0)
                return graph_verify_fail(cx, op, "%s %s = %lld must be > 0", cl[i], counts[i], (long long)cv[i]);
        }
        VTRY(known_dot_algorithm(cx, op, alg, cv));
    }
    return BASE_OK;
}

/* The deprecated dot: [m,k]x[k,n], [k]x[k,n], [m,k]x[k], [k]x[k]. */
static enum base_status dot(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "lhs", l));
    VTRY(graph_verify_need_tensor(cx, op, "rhs", r));
    VTRY(precision_config(cx, op, ""));
    if (l->rank < 0 || r->rank < 0) return BASE_OK;
    if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
        return graph_verify_fail(cx, op, "lhs and rhs must have rank 1 or 2, got %d and %d", l->rank,
                           r->rank);
    int64_t a = l->dims[l->rank - 1], b = r->dims[0];
    if (!verify_dim_compat(a, b))
        return graph_verify_fail(cx, op, "lhs contracting dim %d has size %lld but rhs contracting dim 0 has size %lld",
                           l->rank - 1, (long long)a, (long long)b);
    int64_t dims[2];
    int k = 0;
    if (l->rank == 2) dims[k++] = l->dims[0];
    if (r->rank == 2) dims[k++] = r->dims[1];
    return graph_verify_result_dims(cx, op, "", "result", o, k, dims);
}

/* chlo.ragged_dot: dot_general dims plus one lhs ragged dim and (in the
 * non-contracting mode) one rhs group dim. */
static enum base_status ragged_dot(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 3, 3, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *g = verify_in(op, 2),
                            *o = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "lhs", l));
    VTRY(graph_verify_need_tensor(cx, op, "rhs", r));
    VTRY(graph_verify_need_class(cx, op, "group_sizes", g, VC_INT));
    VTRY(precision_config(cx, op, ""));
    struct dot_dims d;
    VTRY(dot_dims_read(cx, op, "ragged_dot_dimension_numbers", &d));
    VTRY(dot_dims_check(cx, op, l, r, &d));
    const struct graph_attr *dn = graph_op_attr(op, "ragged_dot_dimension_numbers");
    struct verify_dlist lr, rg;
    VTRY(graph_verify_dict_list(cx, op, dn, "lhs_ragged_dimensions", &lr));
    VTRY(graph_verify_dict_list(cx, op, dn, "rhs_group_dimensions", &rg));
    if (lr.n != 1)
        return graph_verify_fail(cx, op, "there must be exactly one lhs ragged dimension, got %d", lr.n);
    if (l->rank < 0 || r->rank < 0 || g->rank < 0) return BASE_OK;
    int64_t rag = lr.v[0];
    if (rag < 0 || rag >= l->rank)
        return graph_verify_fail(cx, op, "lhs ragged dimension %lld must be in [0, %d)", (long long)rag,
                           l->rank);
    enum { NONCONTRACTING, CONTRACTING, BATCH } mode =
        graph_verify_list_has(d.lb.n, d.lb.v, rag)   ? BATCH
        : graph_verify_list_has(d.lc.n, d.lc.v, rag) ? CONTRACTING
                                               : NONCONTRACTING;
    /* group_sizes: [g] or [b..., x..., g] */
    if (g->rank < 1) return graph_verify_fail(cx, op, "group_sizes must have rank >= 1");
    if (g->rank != 1) {
        int64_t prefix[R];
        int np = 0;
        for (int i = 0; i < d.lb.n && np < R; i++) {
            if (mode == BATCH && d.lb.v[i] == rag) break;
            prefix[np++] = l->dims[d.lb.v[i]];
        }
        if (mode == CONTRACTING)
            for (int i = 0; i < d.lc.n && d.lc.v[i] != rag && np < R; i++) prefix[np++] = l->dims[d.lc.v[i]];
        if (mode == NONCONTRACTING)
            for (int i = 0; i < rag && np < R; i++)
                if (!graph_verify_list_has(d.lb.n, d.lb.v, i) && !graph_verify_list_has(d.lc.n, d.lc.v, i))
                    prefix[np++] = l->dims[i];
        if (g->rank != np + 1)
            return graph_verify_fail(cx, op, "group_sizes must have rank %d, got %d", np + 1, g->rank);
        for (int i = 0; i < np; i++)
            if (!verify_dim_compat(prefix[i], g->dims[i]))
                return graph_verify_fail(cx, op, "group_sizes dim %d has size %lld but must be %lld", i,
                                   (long long)g->dims[i], (long long)prefix[i]);
    }
    int64_t ng = g->dims[g->rank - 1];
    VTRY(graph_verify_list_in_range(cx, op, "", "rhs_group_dimensions", rg.n, rg.v, r->rank));
    for (int i = 0; i < rg.n; i++)
        if (graph_verify_list_has(d.rb.n, d.rb.v, rg.v[i]) || graph_verify_list_has(d.rc.n, d.rc.v, rg.v[i]))
            return graph_verify_fail(cx, op, "rhs group dimension %lld is also a batching or contracting dim",
                               (long long)rg.v[i]);
    if (mode != NONCONTRACTING && rg.n != 0)
        return graph_verify_fail(cx, op, "there must be no rhs group dimension when the ragged dim is batch or contracting");
    if (mode == NONCONTRACTING) {
        if (rg.n != 1)
            return graph_verify_fail(cx, op, "there must be exactly one rhs group dimension when the ragged dim is non-contracting, got %d",
                               rg.n);
        if (!verify_dim_compat(ng, r->dims[rg.v[0]]))
            return graph_verify_fail(cx, op, "rhs group dimension has size %lld but group_sizes gives %lld groups",
                               (long long)r->dims[rg.v[0]], (long long)ng);
    }
    int64_t dims[2 * R + 1];
    int k = 0;
    if (mode == CONTRACTING) dims[k++] = ng;
    for (int i = 0; i < d.lb.n; i++) dims[k++] = l->dims[d.lb.v[i]];
    for (int i = 0; i < l->rank; i++)
        if (!graph_verify_list_has(d.lb.n, d.lb.v, i) && !graph_verify_list_has(d.lc.n, d.lc.v, i))
            dims[k++] = l->dims[i];
    for (int i = 0; i < r->rank; i++)
        if (!graph_verify_list_has(d.rb.n, d.rb.v, i) && !graph_verify_list_has(d.rc.n, d.rc.v, i) &&
            !graph_verify_list_has(rg.n, rg.v, i))
            dims[k++] = r->dims[i];
    return graph_verify_result_dims(cx, op, "", "result", o, k, dims);
}

/* ------------------------------------------------------------------------ */
/* Convolution                                                               */

static enum base_status conv_int(struct verify_ctx *cx, const struct graph_op *op,
                                 const struct graph_attr *dn, const char *name, int64_t *out)
{
    bool present;
    VTRY(graph_verify_attr_int(cx, op, graph_dict_get(dn, name), name, &present, out));
    if (!present) return graph_verify_fail(cx, op, "dimension_numbers lack '%s'", name);
    return BASE_OK;
}

static enum base_status conv_window_list(struct verify_ctx *cx, const struct graph_op *op,
                                         const char *name, const char *c_size, const char *c_pos,
                                         int ns, bool strict, int64_t *out)
{
    int n;
    VTRY(graph_verify_op_list(cx, op, name, false, out, &n));
    /* absent or empty: the default (upstream's verifySize takes an empty list) */
    if (n <= 0 || (!strict && n != ns)) {
        for (int i = 0; i < ns; i++) out[i] = c_pos ? 1 : 0;
        return BASE_OK;
    }
    if (n != ns)
        return graph_verify_fail(cx, op, "%s %s has %d entries but there are %d spatial dims", c_size,
                           name, n, ns);
    for (int i = 0; c_pos && i < n; i++)
        if (out[i] <= 0)
            return graph_verify_fail(cx, op, "%s %s[%d] = %lld must be > 0", c_pos, name, i,
                               (long long)out[i]);
    return BASE_OK;
}

static enum base_status convolution(struct verify_ctx *cx, const struct graph_op *op, bool dynamic)
{
    VTRY(graph_verify_counts(cx, op, dynamic ? 3 : 2, dynamic ? 3 : 2, 1, 1, 0));
    const struct graph_type *l = verify_in(op, 0), *r = verify_in(op, 1), *o = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) lhs", l));
    VTRY(graph_verify_need_tensor(cx, op, "(I2) rhs", r));
    VTRY(graph_verify_need_tensor(cx, op, "result", o));
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    if (!dn || dn->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "requires a 'dimension_numbers' attribute");
    int64_t ib, iff, ko, ki, ob, of;
    VTRY(conv_int(cx, op, dn, "input_batch_dimension", &ib));
    VTRY(conv_int(cx, op, dn, "input_feature_dimension", &iff));
    VTRY(conv_int(cx, op, dn, "kernel_input_feature_dimension", &ki));
    VTRY(conv_int(cx, op, dn, "kernel_output_feature_dimension", &ko));
    VTRY(conv_int(cx, op, dn, "output_batch_dimension", &ob));
    VTRY(conv_int(cx, op, dn, "output_feature_dimension", &of));
    struct verify_dlist is, ks, os;
    VTRY(graph_verify_dict_list(cx, op, dn, "input_spatial_dimensions", &is));
    VTRY(graph_verify_dict_list(cx, op, dn, "kernel_spatial_dimensions", &ks));
    VTRY(graph_verify_dict_list(cx, op, dn, "output_spatial_dimensions", &os));
    int N = l->rank >= 0 ? l->rank : r->rank >= 0 ? r->rank : is.n + 2;
    if ((l->rank >= 0 && l->rank != N) || (r->rank >= 0 && r->rank != N))
        return graph_verify_fail(cx, op, "(C1) lhs and rhs must have the same rank, got %d and %d", l->rank,
                           r->rank);
    int ns = N - 2;
    if (ns < 0) return graph_verify_fail(cx, op, "(C1) lhs and rhs must have rank >= 2, got %d", N);
    if (is.n != ns) return graph_verify_fail(cx, op, "(C12) input_spatial_dimensions has %d entries, expected %d", is.n, ns);
    if (ks.n != ns) return graph_verify_fail(cx, op, "(C17) kernel_spatial_dimensions has %d entries, expected %d", ks.n, ns);
    if (os.n != ns) return graph_verify_fail(cx, op, "(C19) output_spatial_dimensions has %d entries, expected %d", os.n, ns);
    int64_t dims[VERIFY_MAX_LIST + 2];
    dims[0] = ib;
    memcpy(dims + 1, is.v, (size_t)ns * sizeof *dims);
    dims[ns + 1] = iff;
    VTRY(graph_verify_list_is_unique(cx, op, "(C13)", "input dimensions", ns + 2, dims));
    VTRY(graph_verify_list_in_range(cx, op, "(C13)", "input dimensions", ns + 2, dims, N));
    memcpy(dims, ks.v, (size_t)ns * sizeof *dims);
    dims[ns] = ki;
    dims[ns + 1] = ko;
    VTRY(graph_verify_list_is_unique(cx, op, "(C18)", "kernel dimensions", ns + 2, dims));
    VTRY(graph_verify_list_in_range(cx, op, "(C18)", "kernel dimensions", ns + 2, dims, N));
    dims[0] = ob;
    memcpy(dims + 1, os.v, (size_t)ns * sizeof *dims);
    dims[ns + 1] = of;
    VTRY(graph_verify_list_is_unique(cx, op, "(C20)", "output dimensions", ns + 2, dims));
    VTRY(graph_verify_list_in_range(cx, op, "(C20)", "output dimensions", ns + 2, dims, N));

    int64_t strides[VERIFY_MAX_LIST], ldil[VERIFY_MAX_LIST], rdil[VERIFY_MAX_LIST], rev[VERIFY_MAX_LIST];
    /* dynamic_conv: upstream checks the window attributes only when the
     * padding is a constant (inferDynamicConvOp; testdata/dynamic has 2
     * strides for 1 spatial dim and a padding argument) */
    int64_t cpad[2 * VERIFY_MAX_LIST];
    int ncpad = dynamic ? graph_verify_const_ints(op, 2, cpad, 2 * VERIFY_MAX_LIST) : -1;
    bool strict = !dynamic || ncpad == 2 * ns;
    VTRY(conv_window_list(cx, op, "window_strides", "(C2)", "(C3)", ns, strict, strides));
    VTRY(conv_window_list(cx, op, "lhs_dilation", "(C5)", "(C6)", ns, strict, ldil));
    VTRY(conv_window_list(cx, op, "rhs_dilation", "(C7)", "(C8)", ns, strict, rdil));
    VTRY(conv_window_list(cx, op, "window_reversal", "(C9)", NULL, ns, strict, rev));
    int64_t lo[VERIFY_MAX_LIST], hi[VERIFY_MAX_LIST];
    for (int i = 0; i < ns; i++) lo[i] = hi[i] = 0;
    bool pad_known = true;
    if (dynamic) {
        const struct graph_type *p = verify_in(op, 2);
        VTRY(graph_verify_need_class(cx, op, "(I3) padding", p, VC_INT));
        VTRY(graph_verify_need_rank(cx, op, "(I3) padding", p, 2));
        if (p->rank == 2 && ((p->dims[0] != GRAPH_DYN && p->dims[0] != ns) ||
                             (p->dims[1] != GRAPH_DYN && p->dims[1] != 2)))
            return graph_verify_fail(cx, op, "(C4) padding must have shape [%d, 2]", ns);
        pad_known = strict;
        for (int i = 0; strict && i < ns; i++) {
            lo[i] = cpad[2 * i];
            hi[i] = cpad[2 * i + 1];
        }
    } else {
        const int64_t *pv;
        int64_t rows, cols;
        VTRY(graph_verify_op_matrix(cx, op, "padding", &pv, &rows, &cols));
        if (rows > 0) {
            if (rows != ns || cols != 2)
                return graph_verify_fail(cx, op, "(C4) padding must have shape [%d, 2], got [%lld, %lld]", ns,
                                   (long long)rows, (long long)cols);
            for (int i = 0; pv && i < ns; i++) {
                lo[i] = pv[2 * i];
                hi[i] = pv[2 * i + 1];
            }
            pad_known = pv != NULL;
        }
    }
    int64_t fgc = 1, bgc = 1;
    bool present;
    VTRY(graph_verify_op_int(cx, op, "feature_group_count", &present, &fgc));
    if (!present) fgc = 1;
    VTRY(graph_verify_op_int(cx, op, "batch_group_count", &present, &bgc));
    if (!present) bgc = 1;
    if (fgc <= 0) return graph_verify_fail(cx, op, "(C21) feature_group_count = %lld must be > 0", (long long)fgc);
    if (bgc <= 0) return graph_verify_fail(cx, op, "(C22) batch_group_count = %lld must be > 0", (long long)bgc);
    if (fgc != 1 && bgc != 1)
        return graph_verify_fail(cx, op, "(C23) feature_group_count (%lld) or batch_group_count (%lld) must be 1",
                           (long long)fgc, (long long)bgc);
    VTRY(precision_config(cx, op, "(C24)"));
    if (l->rank >= 0) {
        int64_t b = l->dims[ib], f = l->dims[iff];
        if (b != GRAPH_DYN && b % bgc != 0)
            return graph_verify_fail(cx, op, "(C10) lhs batch dim %lld has size %lld, not a multiple of batch_group_count %lld",
                               (long long)ib, (long long)b, (long long)bgc);
        if (f != GRAPH_DYN && f % fgc != 0)
            return graph_verify_fail(cx, op, "(C11) lhs feature dim %lld has size %lld, not a multiple of feature_group_count %lld",
                               (long long)iff, (long long)f, (long long)fgc);
        if (r->rank >= 0 && f != GRAPH_DYN && !verify_dim_compat(r->dims[ki], f / fgc))
            return graph_verify_fail(cx, op, "(C14) rhs input feature dim %lld has size %lld but lhs feature size %lld / feature_group_count %lld = %lld",
                               (long long)ki, (long long)r->dims[ki], (long long)f, (long long)fgc,
                               (long long)(f / fgc));
    }
    if (r->rank >= 0) {
        int64_t k = r->dims[ko];
        if (k != GRAPH_DYN && k % bgc != 0)
            return graph_verify_fail(cx, op, "(C15) rhs output feature dim %lld has size %lld, not a multiple of batch_group_count %lld",
                               (long long)ko, (long long)k, (long long)bgc);
        if (k != GRAPH_DYN && k % fgc != 0)
            return graph_verify_fail(cx, op, "(C16) rhs output feature dim %lld has size %lld, not a multiple of feature_group_count %lld",
                               (long long)ko, (long long)k, (long long)fgc);
    }
    for (int s = 0; strict && r->rank >= 0 && s < ns; s++)
        if (r->dims[ks.v[s]] != GRAPH_DYN && r->dims[ks.v[s]] <= 0)
            return graph_verify_fail(cx, op, "expects window to have positive value for %d-th window dimension, but got %lld",
                                     s, (long long)r->dims[ks.v[s]]);
    if (l->rank >= 0 && r->rank >= 0) {
        int64_t res[R];
        int64_t b = l->dims[ib];
        res[ob] = b == GRAPH_DYN ? GRAPH_DYN : b / bgc;
        res[of] = r->dims[ko];
        for (int s = 0; s < ns; s++) {
            int64_t in = l->dims[is.v[s]], win = r->dims[ks.v[s]];
            if (in == GRAPH_DYN || win == GRAPH_DYN || !pad_known) {
                res[os.v[s]] = GRAPH_DYN;
                continue;
            }
            /* sizes from attributes: any int64, so every step is checked */
            int64_t dil_in = 0, padded = 0, dil_win = 0;
            bool ok = (in == 0 || (base_mul_i64(in - 1, ldil[s], &dil_in) && base_add_i64(dil_in, 1, &dil_in))) &&
                      base_add_i64(lo[s], dil_in, &padded) && base_add_i64(padded, hi[s], &padded) &&
                      (win == 0 || (base_mul_i64(win - 1, rdil[s], &dil_win) && base_add_i64(dil_win, 1, &dil_win)));
            if (!ok)
                return graph_verify_fail(cx, op, "(C25) spatial dim %d: the dilated and padded sizes pass 2^63", s);
            res[os.v[s]] = padded <= 0 || dil_win > padded ? 0 : (padded - dil_win) / strides[s] + 1;
        }
        VTRY(graph_verify_result_dims(cx, op, "(C25)", "result", o, N, res));
    }
    if (o->rank >= 0 && o->rank != N)
        return graph_verify_fail(cx, op, "(C26) result rank %d must be %d", o->rank, N);
    static const char *const lab[] = {"(C27)", "(C28)", "(C31)", "(C32)", "(C33)", "(C34)"};
    /* the result element type is left free: the reference verifier accepts
     * e.g. i8 x i8 -> i32 (interpret/convolution.mlir) */
    VTRY(quant_rules(cx, op, l, r, o, lab));
    if (verify_is_per_axis(r) && r->quant->quant_dim != ko)
        return graph_verify_fail(cx, op, "(C29) rhs quantization dimension %d must be the kernel output feature dim %lld",
                           r->quant->quant_dim, (long long)ko);
    if (verify_is_per_axis(o) && o->quant->quant_dim != of)
        return graph_verify_fail(cx, op, "(C30) result quantization dimension %d must be the output feature dim %lld",
                           o->quant->quant_dim, (long long)of);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* fft, cholesky, triangular_solve                                           */

static enum base_dtype complex_of(enum base_dtype f)
{
    return f == BASE_DT_F64 ? BASE_DT_C128 : f == BASE_DT_F32 ? BASE_DT_C64 : BASE_DT_COUNT;
}

static enum base_status fft(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "(I1) operand", in, VC_FLOAT | VC_COMPLEX));
    VTRY(graph_verify_need_class(cx, op, "result", out, VC_FLOAT | VC_COMPLEX));
    int64_t len[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "fft_length", true, len, &n));
    if (n < 1 || n > 3) return graph_verify_fail(cx, op, "(C3) fft_length must have 1 to 3 entries, got %d", n);
    if (in->rank >= 0 && n > in->rank)
        return graph_verify_fail(cx, op, "(C1) fft_length has %d entries, more than the operand rank %d", n,
                           in->rank);
    const struct graph_attr *ty = graph_op_attr(op, "fft_type");
    bool fwd = graph_verify_word_is(ty, "FFT"), inv = graph_verify_word_is(ty, "IFFT"),
         rf = graph_verify_word_is(ty, "RFFT"), irf = graph_verify_word_is(ty, "IRFFT");
    if (!fwd && !inv && !rf && !irf)
        return graph_verify_fail(cx, op, "(I2) fft_type must be FFT, IFFT, RFFT or IRFFT");
    char ti[160], to[160];
    graph_verify_tstr(in, ti, sizeof ti);
    graph_verify_tstr(out, to, sizeof to);
    if ((fwd || inv) && (graph_verify_class(in) != VC_COMPLEX || in->elem != out->elem))
        return graph_verify_fail(cx, op, "(C2) FFT/IFFT need operand and result of the same complex type, got %s and %s",
                           ti, to);
    if (rf && (graph_verify_class(in) != VC_FLOAT || out->elem != complex_of(in->elem)))
        return graph_verify_fail(cx, op, "(C2) RFFT needs a floating-point operand and the matching complex result, got %s and %s",
                           ti, to);
    if (irf && (graph_verify_class(out) != VC_FLOAT || in->elem != complex_of(out->elem)))
        return graph_verify_fail(cx, op, "(C2) IRFFT needs a complex operand and the matching floating-point result, got %s and %s",
                           ti, to);
    if (in->rank < 0 || out->rank < 0) return BASE_OK;
    if (in->rank != out->rank)
        return graph_verify_fail(cx, op, "(C5) operand and result must have the same rank, got %s and %s", ti, to);
    /* the operand's trailing dims against fft_length (upstream inferFftOp) */
    char ls[120];
    for (int i = 0; irf && i + 1 < n; i++)
        if (!verify_dim_compat(in->dims[in->rank - n + i], len[i]))
            return graph_verify_fail(cx, op, "(C4) IRFFT requires non-final dimensions to be compatible with fft_length "
                                     "%s, got %s", graph_verify_lstr(n, len, ls, sizeof ls), ti);
    if (irf && !(verify_dim_compat(in->dims[in->rank - 1], 0) && len[n - 1] == 0) &&
        !verify_dim_compat(in->dims[in->rank - 1], len[n - 1] / 2 + 1))
        return graph_verify_fail(cx, op, "(C4) IRFFT requires innermost dimension to be compatible with "
                                 "fft_length[-1]/2+1 = %lld, got %s", (long long)(len[n - 1] / 2 + 1), ti);
    const struct graph_type *real = rf ? in : irf ? out : NULL;
    if (real) {
        if (n > real->rank) return graph_verify_fail(cx, op, "(C4) fft_length has more entries than the real tensor's rank");
        for (int i = 0; i < n; i++) {
            int64_t d = real->dims[real->rank - n + i];
            if (d != GRAPH_DYN && d != len[i])
                return graph_verify_fail(cx, op, "(C4) the real tensor's trailing dims must be fft_length %s, got %s",
                                   graph_verify_lstr(n, len, ti, sizeof ti), real == in ? ti : to);
        }
    }
    int64_t dims[R];
    memcpy(dims, in->dims, (size_t)in->rank * sizeof *dims);
    int last = in->rank - 1;
    if (last >= 0 && rf && in->dims[last] != GRAPH_DYN)
        dims[last] = in->dims[last] == 0 ? 0 : in->dims[last] / 2 + 1;
    if (last >= 0 && irf) {
        int64_t want = out->dims[last] == GRAPH_DYN ? GRAPH_DYN
                       : out->dims[last] == 0       ? 0
                                                    : out->dims[last] / 2 + 1;
        if (!verify_dim_compat(in->dims[last], want))
            return graph_verify_fail(cx, op, "(C5) IRFFT operand's last dim has size %lld but must be %lld",
                               (long long)in->dims[last], (long long)want);
        dims[last] = out->dims[last];
    }
    return graph_verify_result_dims(cx, op, "(C5)", "result", out, in->rank, dims);
}

static enum base_status cholesky(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *a = verify_in(op, 0), *out = verify_out(op, 0);
    unsigned m = VC_FLOAT | VC_COMPLEX | VC_QUANT;
    VTRY(graph_verify_need_class(cx, op, "(I1) a", a, m));
    VTRY(graph_verify_need_class(cx, op, "result", out, m));
    VTRY(graph_verify_same_shape(cx, op, "(C1)", "a", a, "result", out));
    VTRY(graph_verify_same_baseline(cx, op, "(C1)", "a", a, "result", out));
    if (a->rank < 0) return BASE_OK;
    if (a->rank < 2) return graph_verify_fail(cx, op, "(C2) a must have rank >= 2, got %d", a->rank);
    if (!verify_dim_compat(a->dims[a->rank - 2], a->dims[a->rank - 1]))
        return graph_verify_fail(cx, op, "(C3) a must hold square matrices, got %lldx%lld",
                           (long long)a->dims[a->rank - 2], (long long)a->dims[a->rank - 1]);
    return BASE_OK;
}

static enum base_status triangular_solve(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *a = verify_in(op, 0), *b = verify_in(op, 1), *out = verify_out(op, 0);
    unsigned m = VC_FLOAT | VC_COMPLEX | VC_QUANT;
    VTRY(graph_verify_need_class(cx, op, "(I1) a", a, m));
    VTRY(graph_verify_need_class(cx, op, "(I2) b", b, m));
    VTRY(graph_verify_need_class(cx, op, "result", out, m));
    if (!graph_verify_elem_baseline_equal(a, b)) {
        char ta[160], tb[160];
        return graph_verify_fail(cx, op, "(C1) a and b must have the same element type, got %s and %s",
                           graph_verify_tstr(a, ta, sizeof ta), graph_verify_tstr(b, tb, sizeof tb));
    }
    VTRY(graph_verify_same_shape(cx, op, "(C4)", "b", b, "result", out));
    VTRY(graph_verify_same_baseline(cx, op, "(C4)", "b", b, "result", out));
    static const char *const modes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
    VTRY(graph_verify_op_enum(cx, op, "(I6)", "transpose_a", modes, true));
    bool left;
    VTRY(graph_verify_op_bool(cx, op, "left_side", false, &left));
    if (a->rank < 0 || b->rank < 0) return BASE_OK;
    if (a->rank < 2 || a->rank != b->rank)
        return graph_verify_fail(cx, op, "(C2) a and b must have the same rank >= 2, got %d and %d",
                           a->rank, b->rank);
    int rk = a->rank;
    for (int i = 0; i < rk - 2; i++)
        if (!verify_dim_compat(a->dims[i], b->dims[i]))
            return graph_verify_fail(cx, op, "(C3) batch dim %d: a has size %lld but b has %lld", i,
                               (long long)a->dims[i], (long long)b->dims[i]);
    int64_t n0 = a->dims[rk - 2], n1 = a->dims[rk - 1], nb = b->dims[left ? rk - 2 : rk - 1];
    if (!verify_dim_compat(n0, n1))
        return graph_verify_fail(cx, op, "(C3) a must hold square matrices, got %lldx%lld", (long long)n0,
                           (long long)n1);
    int64_t n = n0 != GRAPH_DYN ? n0 : n1;
    if (!verify_dim_compat(n, nb))
        return graph_verify_fail(cx, op, "(C3) b dim %d has size %lld but a is %lldx%lld (left_side = %s)",
                           left ? rk - 2 : rk - 1, (long long)nb, (long long)n0, (long long)n1,
                           left ? "true" : "false");
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Batch norm                                                                */

/* Values are inputs then outputs; bit i of multi_mask marks value i as
 * multi-dimensional (shaped like operand), the others are 1-D [feature]. */
static enum base_status batch_norm(struct verify_ctx *cx, const struct graph_op *op, int n_in,
                                   int n_out, const char *const *names, unsigned multi_mask)
{
    VTRY(graph_verify_counts(cx, op, n_in, n_in, n_out, n_out, 0));
    unsigned m = VC_FLOAT | VC_QUANT;
    const struct graph_type *x = verify_in(op, 0);
    int64_t fi;
    VTRY(graph_verify_op_int(cx, op, "feature_index", NULL, &fi));
    for (int i = 0; i < n_in + n_out; i++) {
        const struct graph_type *t = i < n_in ? verify_in(op, i) : verify_out(op, i - n_in);
        VTRY(graph_verify_need_class(cx, op, names[i], t, m));
        if (!graph_verify_elem_baseline_equal(t, x)) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "(C2) %s must have the element type of operand, got %s and %s",
                               names[i], graph_verify_tstr(t, ta, sizeof ta), graph_verify_tstr(x, tb, sizeof tb));
        }
    }
    if (x->rank >= 0 && (fi < 0 || fi >= x->rank))
        return graph_verify_fail(cx, op, "(C1) feature_index %lld must be in [0, %d)", (long long)fi, x->rank);
    int64_t feat = x->rank >= 0 ? x->dims[fi] : GRAPH_DYN;
    /* multi-dimensional values share the operand's shape; the others are [feat] */
    for (int i = 1; i < n_in + n_out; i++) {
        const struct graph_type *t = i < n_in ? verify_in(op, i) : verify_out(op, i - n_in);
        if (multi_mask & (1u << i)) {
            VTRY(graph_verify_same_shape(cx, op, "(C3)", "operand", x, names[i], t));
            continue;
        }
        VTRY(graph_verify_need_rank(cx, op, names[i], t, 1));
        if (t->rank == 1 && !verify_dim_compat(t->dims[0], feat))
            return graph_verify_fail(cx, op, "(C4) %s has %lld elements but the feature dim %lld has size %lld",
                               names[i], (long long)t->dims[0], (long long)fi, (long long)feat);
    }
    return BASE_OK;
}

enum base_status graph_verify_linalg_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_DOT_GENERAL: return dot_general(cx, op);
    case GRAPH_OP_DOT: return dot(cx, op);
    case GRAPH_OP_CHLO_RAGGED_DOT: return ragged_dot(cx, op);
    case GRAPH_OP_CONVOLUTION: return convolution(cx, op, false);
    case GRAPH_OP_DYNAMIC_CONV: return convolution(cx, op, true);
    case GRAPH_OP_FFT: return fft(cx, op);
    case GRAPH_OP_CHOLESKY: return cholesky(cx, op);
    case GRAPH_OP_TRIANGULAR_SOLVE: return triangular_solve(cx, op);
    case GRAPH_OP_BATCH_NORM_INFERENCE: {
        static const char *const names[] = {"operand", "scale", "offset", "mean", "variance", "result"};
        return batch_norm(cx, op, 5, 1, names, 1u << 0 | 1u << 5);
    }
    case GRAPH_OP_BATCH_NORM_TRAINING: {
        static const char *const names[] = {"operand", "scale", "offset", "output", "batch_mean",
                                            "batch_var"};
        return batch_norm(cx, op, 3, 3, names, 1u << 0 | 1u << 3);
    }
    case GRAPH_OP_BATCH_NORM_GRAD: {
        static const char *const names[] = {"operand", "scale", "mean", "variance", "grad_output",
                                            "grad_operand", "grad_scale", "grad_offset"};
        return batch_norm(cx, op, 5, 3, names, 1u << 0 | 1u << 4 | 1u << 5);
    }
    case GRAPH_OP_UNARY_EINSUM: return graph_verify_counts(cx, op, 1, 1, 1, 1, 0);
    default: return BASE_OK; /* einsum: deprecated, not checked */
    }
}
