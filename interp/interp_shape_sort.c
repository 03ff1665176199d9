/* Golden interpreter: sort and chlo.top_k.
 *
 * sort orders each 1-D slice along `dimension` with one stable merge sort
 * (also for is_stable = false, which allows any order of equivalent
 * elements), calling the comparator region through interp_call_region.  When
 * the comparator is a single `compare` of the first operand's two arguments,
 * the same merge sort runs on precomputed keys with the same predicate, so the
 * order is exactly the region's (also for NaN, whatever the compare type).
 *
 * chlo.top_k(x, k): the k largest entries of each last-dim row, in descending
 * order, ties (and equal NaNs) by lower index first; floats compare in IEEE
 * totalOrder (-NaN < -inf < ... < -0 < +0 < ... < inf < +NaN), as the CHLO
 * decomposition (a stable sort with a GT TOTALORDER comparator) does.
 * The top-k custom calls run the same kernel: @mhlo.topk (StableHLO's
 * experimental op: mhlo.attributes = {k, largest}, largest by default;
 * tt-mlir writes k/dim/largest into backend_config) and XLA's @TopK (k from
 * the result type, largest from its comparator: GT largest, LT smallest),
 * largest = false giving the k smallest in ascending order.
 */
#include "interp/interp_shape_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAXR GRAPH_MAX_RANK

enum key_kind { KEY_F64, KEY_I64, KEY_U64 };

/* How two slice positions compare. */
struct sort_ctx {
    /* keyed fast path */
    bool keyed;
    enum key_kind kind;
    enum interp_cmp_dir dir;
    bool swapped; /* the compare reads (arg1, arg0) */
    double *kf;
    int64_t *ki;
    uint64_t *ku;
    /* region path */
    struct interp_proc *p;
    const struct graph_op *op;
    const struct graph_region *region;
    int n; /* operands */
    struct base_tensor *const *xs;
    int64_t base, stride; /* slice position i is element base + i * stride */
    struct interp_shape_args args;
    enum base_status st; /* first error of a region call */
};

static bool region_less(struct sort_ctx *c, int64_t a, int64_t b)
{
    if (c->st != BASE_OK) return false;
    int64_t ea = c->base + a * c->stride, eb = c->base + b * c->stride;
    for (int m = 0; m < c->n && c->st == BASE_OK; m++) {
        c->st = interp_shape_args_set(&c->args, 2 * m, c->xs[m]->dtype, c->xs[m]->data, ea);
        if (c->st == BASE_OK)
            c->st = interp_shape_args_set(&c->args, 2 * m + 1, c->xs[m]->dtype, c->xs[m]->data, eb);
    }
    if (c->st != BASE_OK) {
        c->st = interp_fail(c->p, c->op, c->st, "cannot build comparator arguments");
        return false;
    }
    struct interp_value *rv[INTERP_SHAPE_MAX_ARGS];
    int nr = 0;
    c->st =
        interp_call_region(c->p, c->region, 2 * c->n, c->args.v, rv, INTERP_SHAPE_MAX_ARGS, &nr);
    if (c->st != BASE_OK) return false;
    bool r = false;
    struct base_tensor *t = nr == 1 ? iv_t(rv[0]) : NULL;
    if (!t || t->count != 1 || t->dtype != BASE_DT_I1)
        c->st = interp_fail(c->p, c->op, BASE_ERR_VERIFY, "comparator must return one i1 scalar");
    else
        r = base_elem_get_i64(t->dtype, t->data, 0) != 0;
    for (int i = 0; i < nr; i++) interp_value_release(rv[i]);
    return r;
}

/* Does slice position a go before b? */
static bool less(struct sort_ctx *c, int64_t a, int64_t b)
{
    if (!c->keyed) return region_less(c, a, b);
    if (c->swapped) {
        int64_t t = a;
        a = b;
        b = t;
    }
    switch (c->kind) {
    case KEY_F64: return INTERP_CMP(c->dir, c->kf[a], c->kf[b]);
    case KEY_I64: return INTERP_CMP(c->dir, c->ki[a], c->ki[b]);
    case KEY_U64: return INTERP_CMP(c->dir, c->ku[a], c->ku[b]);
    }
    return false;
}

/* Stable merge sort of perm[0..n) (tmp has room for n). */
static void merge_sort(struct sort_ctx *c, int64_t *perm, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    if (n <= 8) { /* insertion sort: stable, takes from the right only when strictly before */
        for (int64_t i = 1; i < n; i++) {
            int64_t v = perm[i], j = i;
            while (j > 0 && less(c, v, perm[j - 1])) {
                perm[j] = perm[j - 1];
                j--;
            }
            perm[j] = v;
        }
        return;
    }
    int64_t mid = n / 2;
    merge_sort(c, perm, tmp, mid);
    merge_sort(c, perm + mid, tmp, n - mid);
    if (!less(c, perm[mid], perm[mid - 1])) return; /* already in order */
    memcpy(tmp, perm, (size_t)mid * sizeof *perm);
    int64_t i = 0, j = mid, k = 0;
    while (i < mid && j < n) {
        if (less(c, perm[j], tmp[i]))
            perm[k++] = perm[j++];
        else
            perm[k++] = tmp[i++];
    }
    while (i < mid) perm[k++] = tmp[i++];
}

/* Recognises a comparator that is one `compare` of arg0 and arg1 (in either
 * order) whose result is returned, over the first operand's element type. */
static void sort_choose(struct interp_proc *p, const struct graph_op *op,
                        const struct base_tensor *x0, struct sort_ctx *c)
{
    c->keyed = false;
    const struct graph_region *r = &op->regions[0];
    if (p->dequant_mode || r->n_blocks != 1) return;
    const struct graph_block *b = &r->blocks[0];
    const struct graph_op *term = graph_block_terminator(b);
    if (b->n_ops != 2 || !term || term->n_operands != 1) return;
    const struct graph_op *cmp = b->ops[0];
    if (cmp->kind != GRAPH_OP_COMPARE || cmp->n_operands != 2 ||
        term->operands[0] != &cmp->results[0])
        return;
    const struct graph_value *a0 = cmp->operands[0], *a1 = cmp->operands[1];
    if (a0->def || a1->def || a0->block != b || a1->block != b) return;
    if (!((a0->index == 0 && a1->index == 1) || (a0->index == 1 && a1->index == 0))) return;
    for (int i = 0; i < 2; i++) {
        const struct graph_type *t = b->args[i].type;
        if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || t->elem != x0->dtype) return;
    }
    enum interp_cmp_dir dir;
    if (!interp_compare_dir(cmp, &dir)) return;
    const struct graph_attr *ta = graph_op_attr(cmp, "compare_type");
    enum base_dtype dt = x0->dtype;
    enum base_dtype_kind k = base_dtype_kind(dt);
    if (k == BASE_KIND_COMPLEX) return;
    if (ta && !graph_attr_is_keyword(ta, "NOTYPE")) {
        if (graph_attr_is_keyword(ta, "FLOAT") && k == BASE_KIND_FLOAT)
            c->kind = KEY_F64;
        else if (graph_attr_is_keyword(ta, "TOTALORDER") && k == BASE_KIND_FLOAT)
            c->kind = KEY_I64;
        else if (graph_attr_is_keyword(ta, "SIGNED") && k == BASE_KIND_SINT)
            c->kind = KEY_I64;
        else if (graph_attr_is_keyword(ta, "UNSIGNED") && (k == BASE_KIND_UINT || k == BASE_KIND_BOOL))
            c->kind = KEY_U64;
        else
            return;
    } else {
        c->kind = k == BASE_KIND_FLOAT ? KEY_F64 : k == BASE_KIND_SINT ? KEY_I64 : KEY_U64;
    }
    c->dir = dir;
    c->swapped = a0->index == 1;
    c->keyed = true;
}

/* Fills the keys of slice positions 0..n of x (element base + i * stride). */
static void fill_keys(struct sort_ctx *c, const struct base_tensor *x, int64_t n, bool total_order)
{
    enum base_dtype dt = x->dtype;
    uint64_t sign = total_order ? interp_float_sign_mask(dt) : 0;
    for (int64_t i = 0; i < n; i++) {
        size_t e = (size_t)(c->base + i * c->stride);
        switch (c->kind) {
        case KEY_F64: c->kf[i] = base_elem_get_f64(dt, x->data, e); break;
        case KEY_I64:
            c->ki[i] = total_order ? interp_total_order_key(base_elem_get_bits(dt, x->data, e), sign)
                                   : base_elem_get_i64(dt, x->data, e);
            break;
        case KEY_U64: c->ku[i] = base_elem_get_u64(dt, x->data, e); break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* sort                                                                      */

static enum base_status k_sort(struct interp_proc *p, const struct graph_op *op,
                               struct interp_value *const *in, struct interp_value **out)
{
    int n = op->n_operands;
    if (n < 1 || op->n_results != n || op->n_regions != 1 || 2 * n > INTERP_SHAPE_MAX_ARGS)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "sort needs 1..%d operands, as many results and a comparator",
                           INTERP_SHAPE_MAX_ARGS / 2);
    struct base_tensor *xs[INTERP_SHAPE_MAX_ARGS / 2];
    for (int m = 0; m < n; m++) {
        if (!(xs[m] = iv_t(in[m])))
            return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is not a tensor", m);
        if (xs[m]->rank != xs[0]->rank ||
            memcmp(xs[m]->dims, xs[0]->dims, (size_t)xs[0]->rank * sizeof(int64_t)))
            return interp_fail(p, op, BASE_ERR_VERIFY, "operands differ in shape");
        if (interp_result_dtype(p, op, m) != xs[m]->dtype)
            return interp_fail(p, op, BASE_ERR_VERIFY,
                               "result %d element type differs from operand's", m);
    }
    const struct base_tensor *x0 = xs[0];
    int64_t dim = -1;
    interp_shape_attr_i64(op, "dimension", &dim);
    if (dim < 0) dim += x0->rank;
    if (x0->rank == 0)
        dim = 0;
    else if (dim < 0 || dim >= x0->rank)
        return interp_fail(p, op, BASE_ERR_VERIFY, "dimension is out of range for rank %d",
                           x0->rank);

    struct base_tensor *res[INTERP_SHAPE_MAX_ARGS / 2] = {NULL};
    enum base_status st = BASE_OK;
    for (int m = 0; m < n && st == BASE_OK; m++)
        st = interp_shape_alloc(p, op, m, xs[m]->rank, xs[m]->dims, &res[m]);

    int64_t len = x0->rank ? x0->dims[dim] : 1, inner = 1, outer = 1;
    for (int d = 0; d < x0->rank; d++) {
        if (d < dim) outer *= x0->dims[d];
        if (d > dim) inner *= x0->dims[d];
    }
    struct sort_ctx c = {
        .p = p, .op = op, .region = &op->regions[0], .n = n, .xs = xs, .stride = inner};
    if (st == BASE_OK) sort_choose(p, op, x0, &c);
    bool total = false;
    if (c.keyed) {
        const struct graph_attr *ta =
            graph_op_attr(op->regions[0].blocks[0].ops[0], "compare_type");
        total = graph_attr_is_keyword(ta, "TOTALORDER");
    } else if (st == BASE_OK) {
        const struct graph_region *r = &op->regions[0];
        if (r->n_blocks != 1 || r->blocks[0].n_args != 2 * n)
            st = interp_fail(p, op, BASE_ERR_VERIFY, "comparator must take %d scalars", 2 * n);
        enum base_dtype adt[INTERP_SHAPE_MAX_ARGS];
        for (int i = 0; i < 2 * n; i++)
            adt[i] = p->dequant_mode ? xs[i / 2]->dtype : interp_region_arg_dtype(r, i, xs[i / 2]->dtype);
        interp_shape_args_init(&c.args, 2 * n, adt);
    }
    int64_t *perm = NULL, *tmp = NULL;
    void *keys = NULL;
    if (st == BASE_OK && len > 0) {
        perm = malloc((size_t)len * sizeof *perm);
        tmp = malloc((size_t)len * sizeof *tmp);
        keys = c.keyed ? malloc((size_t)len * 8) : NULL;
        if (!perm || !tmp || (c.keyed && !keys))
            st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        c.kf = keys;
        c.ki = keys;
        c.ku = keys;
    }
    for (int64_t o = 0; o < outer && st == BASE_OK && len > 0; o++)
        for (int64_t i = 0; i < inner && st == BASE_OK; i++) {
            c.base = o * len * inner + i;
            for (int64_t j = 0; j < len; j++) perm[j] = j;
            if (c.keyed) fill_keys(&c, x0, len, total);
            c.st = BASE_OK;
            merge_sort(&c, perm, tmp, len);
            if (c.st != BASE_OK) {
                st = c.st;
                break;
            }
            for (int m = 0; m < n; m++) {
                size_t esz = base_dtype_size(xs[m]->dtype);
                char *dst = res[m]->data;
                const char *src = xs[m]->data;
                for (int64_t j = 0; j < len; j++)
                    memcpy(dst + (size_t)(c.base + j * inner) * esz,
                           src + (size_t)(c.base + perm[j] * inner) * esz, esz);
            }
        }
    free(perm);
    free(tmp);
    free(keys);
    if (!c.keyed) interp_shape_args_deinit(&c.args);
    return interp_set_outs(p, op, st, out, res, n);
}

/* ------------------------------------------------------------------------ */
/* chlo.top_k                                                                */

/* The k largest (or, largest false, smallest) entries of each last-dim row
 * of x, in that order, ties by lower index first (IEEE totalOrder for
 * floats): values in result 0, indices in result 1. */
static enum base_status top_k_eval(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                   struct interp_value **out, int64_t k, bool largest)
{
    struct base_tensor *x = op->n_operands == 1 ? iv_t(in[0]) : NULL;
    if (!x || op->n_results != 2)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "top_k takes one tensor and gives values and indices");
    if (x->rank < 1 || k < 0 || k > x->dims[x->rank - 1])
        return interp_fail(p, op, BASE_ERR_VERIFY, "k = %lld must be in [0, last dimension]",
                           (long long)k);
    if (interp_result_dtype(p, op, 0) != x->dtype)
        return interp_fail(p, op, BASE_ERR_VERIFY,
                           "values element type differs from the operand's");
    enum base_dtype_kind kind = base_dtype_kind(x->dtype);
    if (kind == BASE_KIND_COMPLEX)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "top_k of complex values");
    int64_t rdims[MAXR];
    memcpy(rdims, x->dims, sizeof rdims);
    rdims[x->rank - 1] = k;
    struct base_tensor *vals = NULL, *idx = NULL;
    TRY(interp_shape_alloc(p, op, 0, x->rank, rdims, &vals));
    enum base_status st = interp_shape_alloc(p, op, 1, x->rank, rdims, &idx);
    if (st == BASE_OK && !base_dtype_is_int(idx->dtype))
        st = interp_fail(p, op, BASE_ERR_VERIFY, "indices must have an integer type");
    int64_t len = x->dims[x->rank - 1], rows = len ? x->count / len : 0;
    struct sort_ctx c = {.keyed = true, .dir = largest ? INTERP_CMP_GT : INTERP_CMP_LT, .stride = 1};
    c.kind = kind == BASE_KIND_FLOAT ? KEY_I64 : kind == BASE_KIND_SINT ? KEY_I64 : KEY_U64;
    int64_t *perm = NULL, *tmp = NULL;
    void *keys = NULL;
    if (st == BASE_OK && len > 0 && k > 0) {
        perm = malloc((size_t)len * sizeof *perm);
        tmp = malloc((size_t)len * sizeof *tmp);
        keys = malloc((size_t)len * 8);
        if (!perm || !tmp || !keys) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        c.ki = keys;
        c.ku = keys;
        size_t esz = base_dtype_size(x->dtype);
        for (int64_t r = 0; r < rows && st == BASE_OK; r++) {
            c.base = r * len;
            fill_keys(&c, x, len, kind == BASE_KIND_FLOAT);
            for (int64_t j = 0; j < len; j++) perm[j] = j;
            merge_sort(&c, perm, tmp, len);
            for (int64_t j = 0; j < k; j++) {
                memcpy((char *)vals->data + (size_t)(r * k + j) * esz,
                       (const char *)x->data + (size_t)(r * len + perm[j]) * esz, esz);
                base_elem_set_i64(idx->dtype, idx->data, (size_t)(r * k + j), perm[j]);
            }
        }
    }
    free(perm);
    free(tmp);
    free(keys);
    struct base_tensor *res[2] = {vals, idx};
    return interp_set_outs(p, op, st, out, res, 2);
}

static enum base_status k_top_k(struct interp_proc *p, const struct graph_op *op,
                                struct interp_value *const *in, struct interp_value **out)
{
    int64_t k;
    if (!interp_shape_attr_i64(op, "k", &k))
        return interp_fail(p, op, BASE_ERR_VERIFY, "k is missing");
    return top_k_eval(p, op, in, out, k, true);
}

/* ------------------------------------------------------------------------ */
/* top-k custom calls                                                        */

/* The integer value of "key" in a JSON-like backend_config ("{\"k\": 8,
 * \"largest\": true}"): true/false give 1/0. */
static bool json_get(const char *s, size_t len, const char *key, int64_t *out)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 2 <= len; i++) {
        if (s[i] != '"' || memcmp(s + i + 1, key, kl) || s[i + 1 + kl] != '"') continue;
        size_t j = i + kl + 2;
        while (j < len && (s[j] == ' ' || s[j] == ':')) j++;
        if (j + 4 <= len && !memcmp(s + j, "true", 4)) return *out = 1, true;
        if (j + 5 <= len && !memcmp(s + j, "false", 5)) return *out = 0, true;
        bool neg = j < len && s[j] == '-';
        if (neg) j++;
        if (j >= len || s[j] < '0' || s[j] > '9') return false;
        int64_t v = 0;
        while (j < len && s[j] >= '0' && s[j] <= '9' && v < ((int64_t)1 << 56)) v = v * 10 + (s[j++] - '0');
        *out = neg ? -v : v;
        return true;
    }
    return false;
}

/* The comparator function of a @TopK call (called_computations[0]), looked
 * up in the module's top block: its direction when it is one compare of
 * its first two arguments (GT: largest first; LT: smallest first). */
static bool topk_comparator_largest(const struct graph_op *op, bool *largest)
{
    const struct graph_attr *cc = graph_op_attr(op, "called_computations");
    if (!cc || cc->kind != GRAPH_ATTR_ARRAY || cc->u.array.n != 1 || cc->u.array.items[0]->kind != GRAPH_ATTR_SYMBOL)
        return false;
    const struct graph_attr *sym = cc->u.array.items[0];
    const struct graph_op *o = op;
    while (o->parent && o->parent->parent && o->parent->parent->parent) o = o->parent->parent->parent;
    const struct graph_block *top = o->parent;
    for (int i = 0; top && i < top->n_ops; i++) {
        const struct graph_op *f = top->ops[i];
        const char *nm = f->kind == GRAPH_OP_FUNC ? graph_func_name(f) : NULL;
        if (!nm || strlen(nm) != sym->u.str.len || memcmp(nm, sym->u.str.s, sym->u.str.len) || f->n_regions < 1 ||
            f->regions[0].n_blocks != 1)
            continue;
        const struct graph_block *b = &f->regions[0].blocks[0];
        const struct graph_op *term = graph_block_terminator(b);
        if (b->n_ops != 2 || !term || term->n_operands != 1 || b->ops[0]->kind != GRAPH_OP_COMPARE ||
            term->operands[0] != &b->ops[0]->results[0])
            return false;
        const struct graph_op *cmp = b->ops[0];
        const struct graph_value *a0 = cmp->operands[0], *a1 = cmp->operands[1];
        if (a0->def || a1->def || a0->block != b || a1->block != b || a0->index + a1->index != 1) return false;
        bool gt = graph_attr_is_keyword(graph_op_attr(cmp, "comparison_direction"), "GT");
        bool lt = graph_attr_is_keyword(graph_op_attr(cmp, "comparison_direction"), "LT");
        if (!gt && !lt) return false;
        *largest = gt == (a0->index == 0);
        return true;
    }
    return false;
}

bool interp_topk_call(const struct graph_op *op, int64_t *k, bool *largest)
{
    if (op->kind != GRAPH_OP_CUSTOM_CALL || op->n_operands != 1 || op->n_results != 2) return false;
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    if (!t || t->kind != GRAPH_ATTR_STRING) return false;
    bool mhlo = t->u.str.len == 9 && !memcmp(t->u.str.s, "mhlo.topk", 9);
    bool xla = t->u.str.len == 4 && !memcmp(t->u.str.s, "TopK", 4);
    if (!mhlo && !xla) return false;
    const struct graph_type *vt = op->results[0].type;
    if (!vt || vt->kind != GRAPH_TYPE_TENSOR || vt->rank < 1 || vt->dims[vt->rank - 1] < 0) return false;
    *k = vt->dims[vt->rank - 1];
    *largest = true;
    const struct graph_attr *ma = graph_op_attr(op, "mhlo.attributes");
    const struct graph_attr *bc = graph_op_attr(op, "backend_config");
    int64_t v;
    if (ma && ma->kind == GRAPH_ATTR_DICT) {
        const struct graph_attr *a = graph_dict_get(ma, "k");
        if (a && (!graph_attr_as_i64(a, &v) || v != *k)) return false;
        *largest = graph_attr_bool_or(graph_dict_get(ma, "largest"), true);
    } else if (bc && bc->kind == GRAPH_ATTR_STRING && bc->u.str.len > 0) {
        /* tt-mlir's spelling: backend_config = "{\"k\": 8, \"dim\": -1, \"largest\": true, ...}" */
        if (json_get(bc->u.str.s, bc->u.str.len, "k", &v) && v != *k) return false;
        if (json_get(bc->u.str.s, bc->u.str.len, "dim", &v) && v != -1 && v != vt->rank - 1) return false;
        if (json_get(bc->u.str.s, bc->u.str.len, "largest", &v)) *largest = v != 0;
    } else if (graph_op_attr(op, "largest")) {
        *largest = graph_attr_bool_or(graph_op_attr(op, "largest"), true);
    } else if (xla && graph_op_attr(op, "called_computations")) {
        if (!topk_comparator_largest(op, largest)) return false;
    }
    return true;
}

enum base_status interp_custom_call_top_k(struct interp_proc *p, const struct graph_op *op,
                                          struct interp_value *const *in, struct interp_value **out)
{
    int64_t k;
    bool largest;
    if (!interp_topk_call(op, &k, &largest))
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED,
                           "a top-k custom_call must take one tensor and give values and indices, k and largest "
                           "readable from mhlo.attributes, backend_config or its comparator");
    return top_k_eval(p, op, in, out, k, largest);
}

void interp_register_shape_sort(interp_kernel_fn *table)
{
    table[GRAPH_OP_SORT] = k_sort;
    table[GRAPH_OP_CHLO_TOP_K] = k_top_k;
}
