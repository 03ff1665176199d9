/* Verifier rules for collectives, point-to-point and token ops, and the
 * Shardy ops (sdy.mesh, sdy.manual_computation). */
#include "graph/verify_internal.h"

#include <stdlib.h>
#include <string.h>

#define R GRAPH_MAX_RANK

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* channel_id: the handle of channel_handle (0 when absent). */
static int64_t channel_id(const struct graph_op *op, int64_t *type)
{
    const struct graph_attr *ch = graph_op_attr(op, "channel_handle");
    int64_t h = 0, t = 0;
    graph_attr_as_i64(graph_dict_get(ch, "handle"), &h);
    graph_attr_as_i64(graph_dict_get(ch, "type"), &t);
    if (type) *type = t;
    return h;
}

static bool use_global_ids(const struct graph_op *op)
{
    const struct graph_attr *a = graph_op_attr(op, "use_global_device_ids");
    return a && (a->kind == GRAPH_ATTR_UNIT || (a->kind == GRAPH_ATTR_BOOL && a->u.b));
}

/* replica_groups: 2-D, ids unique (and, with `cover`, covering [0, count):
 * size(replica_groups) is the number of replicas or processes); -1 pads
 * groups of ops that allow groups of different sizes.  *group_size gets
 * dim 1. */
static bool has_symbol(const struct verify_ctx *cx, const char *name, size_t len)
{
    for (int i = 0; i < cx->m->body.n_ops; i++) {
        size_t l;
        const char *n = graph_verify_attr_word(graph_op_attr(cx->m->body.ops[i], "sym_name"), &l);
        if (n && l == len && !memcmp(n, name, len)) return true;
    }
    return false;
}

/* replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m | #stablehlo.mesh<...>, axes = [...]>:
 * the groups come from a mesh; checked as upstream does (the mesh symbol
 * exists; an inline mesh has the axes named). */
static enum base_status mesh_axes_groups(struct verify_ctx *cx, const struct graph_op *op, const struct graph_attr *a)
{
    const struct graph_attr *mesh = graph_dict_get(a, "mesh");
    size_t len;
    if (mesh && mesh->kind == GRAPH_ATTR_SYMBOL) {
        const char *name = graph_verify_attr_word(mesh, &len);
        if (!has_symbol(cx, name, len))
            return graph_verify_fail(cx, op, "replica_groups: mesh symbol '%.*s' not found", (int)len, name);
        return BASE_OK;
    }
    if (!mesh || mesh->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "replica_groups: mesh must be a symbol or a #stablehlo.mesh");
    const struct graph_attr *axes = graph_dict_get(a, "axes"), *maxes = graph_dict_get(mesh, "axes");
    for (int i = 0; axes && axes->kind == GRAPH_ATTR_ARRAY && i < axes->u.array.n; i++) {
        const struct graph_attr *ax = axes->u.array.items[i];
        const char *name = graph_verify_attr_word(ax->kind == GRAPH_ATTR_DICT ? graph_dict_get(ax, "name") : ax, &len);
        if (!name) return graph_verify_fail(cx, op, "replica_groups: expected AxisRefAttr in axes list");
        bool found = false;
        for (int j = 0; maxes && maxes->kind == GRAPH_ATTR_ARRAY && j < maxes->u.array.n && !found; j++) {
            size_t l;
            const char *n = graph_verify_attr_word(graph_dict_get(maxes->u.array.items[j], "name"), &l);
            found = n && l == len && !memcmp(n, name, len);
        }
        if (!found) return graph_verify_fail(cx, op, "replica_groups: axis '%.*s' not found in mesh definition", (int)len, name);
    }
    return BASE_OK;
}

static enum base_status replica_groups(struct verify_ctx *cx, const struct graph_op *op,
                                       const char *c_unique, const char *c_range,
                                       bool allow_padding, bool cover, bool required,
                                       int64_t *group_size)
{
    const int64_t *v;
    int64_t rows, cols;
    *group_size = GRAPH_DYN;
    const struct graph_attr *rg = graph_op_attr(op, "replica_groups");
    if (rg && rg->kind == GRAPH_ATTR_DICT && rg->tag && !strcmp(rg->tag, "stablehlo.replica_group_mesh_axes"))
        return mesh_axes_groups(cx, op, rg);
    VTRY(graph_verify_op_matrix(cx, op, "replica_groups", &v, &rows, &cols));
    if (rows < 0) {
        if (required) return graph_verify_fail(cx, op, "requires a 2-dimensional 'replica_groups' attribute");
        return BASE_OK;
    }
    *group_size = cols;
    if (use_global_ids(op) && rows * cols == 0)
        return graph_verify_fail(cx, op, "replica_groups cannot be empty with use_global_device_ids");
    if (!v) return BASE_OK;
    int64_t n = rows * cols;
    int64_t *s = malloc((size_t)(n ? n : 1) * sizeof *s);
    if (!s) return base_diag_set(cx->diag, BASE_ERR_NOMEM, op->loc.file, op->loc.line, op->loc.col,
                                 "%s: out of memory", op->name);
    int64_t m = 0;
    enum base_status st = BASE_OK;
    for (int64_t i = 0; i < n; i++) {
        if (v[i] == -1 && allow_padding) continue;
        if (v[i] < 0) {
            st = graph_verify_fail(cx, op, "%s replica id %lld must be >= 0", c_range, (long long)v[i]);
            break;
        }
        s[m++] = v[i];
    }
    if (st == BASE_OK) {
        qsort(s, (size_t)m, sizeof *s, cmp_i64);
        for (int64_t i = 0; i < m && st == BASE_OK; i++) {
            if (i > 0 && s[i] == s[i - 1])
                st = graph_verify_fail(cx, op, "%s replica id %lld appears more than once in replica_groups",
                                 c_unique, (long long)s[i]);
            else if (cover && s[i] != i)
                st = graph_verify_fail(cx, op, "%s replica id %lld is missing from replica_groups (ids must cover [0, %lld))",
                                 c_range, (long long)i, (long long)m);
        }
    }
    free(s);
    return st;
}

static enum base_status global_ids_need_channel(struct verify_ctx *cx, const struct graph_op *op,
                                                const char *label)
{
    if (use_global_ids(op) && channel_id(op, NULL) <= 0)
        return graph_verify_fail(cx, op, "%s use_global_device_ids needs a channel_id > 0", label);
    return BASE_OK;
}

/* all_gather (upstream verifyAllGatherOp): the result dim at all_gather_dim
 * is a multiple of the operand's; the spec's "operand size x group size" is
 * left to the run (the group size depends on how the program is run when
 * channel ids are involved). */
static enum base_status all_gather(struct verify_ctx *cx, const struct graph_op *op)
{
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, 1, -1, n, n, 0));
    int64_t dim, gs;
    VTRY(graph_verify_op_int(cx, op, "all_gather_dim", NULL, &dim));
    if (dim < 0) return graph_verify_fail(cx, op, "(C1) all_gather_dim %lld must be non-negative", (long long)dim);
    VTRY(replica_groups(cx, op, "(C2)", "(C4)", false, true, true, &gs));
    if (use_global_ids(op) && channel_id(op, NULL) < 0)
        return graph_verify_fail(cx, op, "(C5) channel_id cannot be negative when use_global_device_ids is set");
    for (int i = 0; i < n; i++) {
        const struct graph_type *in = verify_in(op, i), *out = verify_out(op, i);
        VTRY(graph_verify_need_rank(cx, op, "(I1) operand", in, -1));
        VTRY(graph_verify_need_rank(cx, op, "result", out, -1));
        VTRY(graph_verify_same_elem(cx, op, "(C6)", "operand", in, "result", out));
        if (in->rank < 0 || out->rank < 0) continue;
        if (dim >= in->rank)
            return graph_verify_fail(cx, op, "(C1) all_gather_dim %lld must be a valid index of operand %d (rank %d)",
                                     (long long)dim, i, in->rank);
        if (in->dims[dim] == 0)
            return graph_verify_fail(cx, op, "dimension size of operand %d at all_gather_dim cannot be zero", i);
        if (out->rank != in->rank)
            return graph_verify_fail(cx, op, "(C6) operand %d and result %d must have the same rank, got %d and %d", i,
                                     i, in->rank, out->rank);
        for (int d = 0; d < in->rank; d++)
            if (d != dim && !verify_dim_compat(in->dims[d], out->dims[d])) {
                char ta[160], tb[160];
                return graph_verify_fail(cx, op, "(C6) operand %s and result %s must have the same shape except at all_gather_dim",
                                         graph_verify_tstr(in, ta, sizeof ta), graph_verify_tstr(out, tb, sizeof tb));
            }
        /* as upstream: a dynamic gathered dim ends the checks */
        if (in->dims[dim] == GRAPH_DYN || out->dims[dim] == GRAPH_DYN) return BASE_OK;
        if (out->dims[dim] % in->dims[dim] != 0)
            return graph_verify_fail(cx, op, "(C6) result gather dimension has size %lld, expected to be a multiple of "
                                     "operand gather dimension size %lld",
                                     (long long)out->dims[dim], (long long)in->dims[dim]);
    }
    return BASE_OK;
}

/* A trailing root operand (has_dynamic_root): a rank-1 i32 tensor with one
 * element per data operand (upstream verifyCollectiveBroadcastOp/ReduceOp). */
static enum base_status dynamic_root(struct verify_ctx *cx, const struct graph_op *op, int n_data)
{
    const struct graph_type *root = verify_in(op, n_data);
    char ts[160];
    if (!verify_ranked(root) || root->quant || root->elem != BASE_DT_SI32 || root->rank != 1)
        return graph_verify_fail(cx, op, "last operand with has_dynamic_root must be a rank-1 i32 tensor, but got %s",
                                 graph_verify_tstr(root, ts, sizeof ts));
    if (root->dims[0] != n_data)
        return graph_verify_fail(cx, op, "last operand with has_dynamic_root must have the same number of elements as "
                                 "data operands (%d), but got %lld", n_data, (long long)root->dims[0]);
    return BASE_OK;
}

/* all_reduce, collective_reduce: one computation shared by all data operands. */
static enum base_status all_reduce(struct verify_ctx *cx, const struct graph_op *op)
{
    bool dyn_root = op->kind == GRAPH_OP_COLLECTIVE_REDUCE && graph_op_attr(op, "has_dynamic_root") != NULL;
    int n = op->n_operands - (dyn_root ? 1 : 0);
    VTRY(graph_verify_counts(cx, op, dyn_root ? 2 : 1, -1, n, n, 1));
    int64_t gs;
    VTRY(replica_groups(cx, op, "(C1)", "(C3)", true, true, false, &gs));
    VTRY(global_ids_need_channel(cx, op, "(C4)"));
    if (dyn_root) VTRY(dynamic_root(cx, op, n));
    const struct graph_type *in0 = verify_in(op, 0), *acc[1];
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in0));
    VTRY(graph_verify_reducer(cx, op, 0, "(C5) computation", 1, &in0, NULL, 0, NULL, acc));
    for (int i = 0; i < n; i++) {
        const struct graph_type *in = verify_in(op, i), *out = verify_out(op, i);
        VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
        if (!graph_verify_promotable(in, acc[0])) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "(C5) operand %d of type %s is not promotable to the computation's %s",
                               i, graph_verify_tstr(in, ta, sizeof ta), graph_verify_tstr(acc[0], tb, sizeof tb));
        }
        VTRY(graph_verify_same_shape(cx, op, "(C6)", "operand", in, "result", out));
        if (!graph_verify_elem_baseline_equal(out, acc[0])) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "(C7) result %d has type %s but the computation computes %s", i,
                               graph_verify_tstr(out, ta, sizeof ta), graph_verify_tstr(acc[0], tb, sizeof tb));
        }
    }
    return BASE_OK;
}

static enum base_status all_to_all(struct verify_ctx *cx, const struct graph_op *op)
{
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, 1, -1, n, n, 0));
    int64_t sd, cd, sc, gs;
    VTRY(graph_verify_op_int(cx, op, "split_dimension", NULL, &sd));
    VTRY(graph_verify_op_int(cx, op, "concat_dimension", NULL, &cd));
    VTRY(graph_verify_op_int(cx, op, "split_count", NULL, &sc));
    if (sc <= 0) return graph_verify_fail(cx, op, "(C4) split_count = %lld must be > 0", (long long)sc);
    VTRY(replica_groups(cx, op, "(C5)", "(C7)", false, true, true, &gs));
    if (gs != GRAPH_DYN && gs != sc)
        return graph_verify_fail(cx, op, "(C8) replica groups have size %lld but split_count is %lld",
                           (long long)gs, (long long)sc);
    for (int i = 0; i < n; i++) {
        const struct graph_type *in = verify_in(op, i), *out = verify_out(op, i);
        VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
        VTRY(graph_verify_same_elem(cx, op, "(C9)", "operand", in, "result", out));
        if (in->rank < 0) continue;
        if (sd < 0 || sd >= in->rank)
            return graph_verify_fail(cx, op, "(C1) split_dimension %lld must be in [0, %d)", (long long)sd,
                               in->rank);
        if (cd < 0 || cd >= in->rank)
            return graph_verify_fail(cx, op, "(C3) concat_dimension %lld must be in [0, %d)", (long long)cd,
                               in->rank);
        if (in->dims[sd] != GRAPH_DYN && in->dims[sd] % sc != 0)
            return graph_verify_fail(cx, op, "(C2) split dimension %lld has size %lld, not a multiple of split_count %lld",
                               (long long)sd, (long long)in->dims[sd], (long long)sc);
        int64_t dims[R];
        memcpy(dims, in->dims, (size_t)in->rank * sizeof *dims);
        if (sd != cd) {
            if (dims[sd] != GRAPH_DYN) dims[sd] /= sc;
            if (dims[cd] != GRAPH_DYN) dims[cd] *= sc;
        }
        VTRY(graph_verify_result_dims(cx, op, "(C9)", "result", out, in->rank, dims));
    }
    return BASE_OK;
}

/* collective_broadcast: data operands, plus a trailing 1-D integer root
 * operand with `has_dynamic_root` (one root per data operand). */
static enum base_status collective_broadcast(struct verify_ctx *cx, const struct graph_op *op)
{
    bool dyn_root = graph_op_attr(op, "has_dynamic_root") != NULL;
    int n = op->n_operands - (dyn_root ? 1 : 0);
    VTRY(graph_verify_counts(cx, op, dyn_root ? 2 : 1, -1, n, n, 0));
    int64_t gs;
    VTRY(replica_groups(cx, op, "(C1)", "(C2)", false, false, true, &gs));
    for (int i = 0; i < n; i++) {
        VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", verify_in(op, i)));
        VTRY(graph_verify_same_type(cx, op, "(C3)", "operand", verify_in(op, i), "result",
                              verify_out(op, i)));
    }
    return dyn_root ? dynamic_root(cx, op, n) : BASE_OK;
}

static enum base_status collective_permute(struct verify_ctx *cx, const struct graph_op *op)
{
    int n = op->n_operands;
    VTRY(graph_verify_counts(cx, op, 1, -1, n, n, 0));
    for (int i = 0; i < n; i++) {
        VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", verify_in(op, i)));
        VTRY(graph_verify_same_type(cx, op, "(C5)", "operand", verify_in(op, i), "result",
                              verify_out(op, i)));
    }
    const int64_t *v;
    int64_t rows, cols;
    VTRY(graph_verify_op_matrix(cx, op, "source_target_pairs", &v, &rows, &cols));
    if (rows < 0) return graph_verify_fail(cx, op, "requires a 'source_target_pairs' attribute");
    if (cols != 2)
        return graph_verify_fail(cx, op, "(C1) source_target_pairs must have 2 columns, got %lld", (long long)cols);
    if (!v) return BASE_OK;
    for (int64_t i = 0; i < rows; i++)
        if (v[2 * i] < 0 || v[2 * i + 1] < 0)
            return graph_verify_fail(cx, op, "(C4) source_target_pairs[%lld] = [%lld, %lld] must be >= 0",
                               (long long)i, (long long)v[2 * i], (long long)v[2 * i + 1]);
    /* uniqueness of each column, by sorting a copy (n log n for large meshes) */
    int64_t *col = malloc((size_t)(rows ? rows : 1) * sizeof *col);
    if (!col) return base_diag_set(cx->diag, BASE_ERR_NOMEM, op->loc.file, op->loc.line, op->loc.col,
                                   "%s: out of memory", op->name);
    enum base_status st = BASE_OK;
    for (int c = 0; c < 2 && st == BASE_OK; c++) {
        for (int64_t i = 0; i < rows; i++) col[i] = v[2 * i + c];
        qsort(col, (size_t)rows, sizeof *col, cmp_i64);
        for (int64_t i = 1; i < rows && st == BASE_OK; i++)
            if (col[i] == col[i - 1])
                st = graph_verify_fail(cx, op, "%s %s %lld appears more than once", c ? "(C3)" : "(C2)",
                                 c ? "target" : "source", (long long)col[i]);
    }
    free(col);
    return st;
}

/* reduce_scatter (upstream verifyReduceScatterOp): the operand's scatter
 * dim is a multiple of the result's; the spec's "operand size / group size"
 * is left to the run, as for all_gather. */
static enum base_status reduce_scatter(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 1));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0), *acc[1];
    VTRY(graph_verify_need_rank(cx, op, "(I1) operand", in, -1));
    VTRY(graph_verify_need_rank(cx, op, "result", out, -1));
    int64_t sd, gs;
    VTRY(graph_verify_op_int(cx, op, "scatter_dimension", NULL, &sd));
    if (sd < 0) return graph_verify_fail(cx, op, "(C2) scatter_dimension %lld must be non-negative", (long long)sd);
    VTRY(replica_groups(cx, op, "(C3)", "(C5)", false, true, true, &gs));
    VTRY(graph_verify_reducer(cx, op, 0, "(C7) computation", 1, &in, NULL, 0, NULL, acc));
    char ta[160], tb[160];
    if (in->rank >= 0 && out->rank >= 0) {
        if (in->rank != out->rank)
            return graph_verify_fail(cx, op, "(C8) operand and result should have same rank, got %s and %s",
                                     graph_verify_tstr(in, ta, sizeof ta), graph_verify_tstr(out, tb, sizeof tb));
        if (sd >= in->rank)
            return graph_verify_fail(cx, op, "(C2) scatter_dimension %lld must be in [0, %d)", (long long)sd, in->rank);
    }
    VTRY(global_ids_need_channel(cx, op, "(C6)"));
    if (in->rank >= 0 && out->rank >= 0 && in->dims[sd] != GRAPH_DYN && out->dims[sd] != GRAPH_DYN) {
        if (out->dims[sd] == 0)
            return graph_verify_fail(cx, op, "(C8) result dimension size at scatter_dimension cannot be zero");
        if (in->dims[sd] == 0)
            return graph_verify_fail(cx, op, "(C8) operand dimension size at scatter_dimension cannot be zero");
        if (in->dims[sd] % out->dims[sd] != 0)
            return graph_verify_fail(cx, op, "(C8) operand scatter dimension has size %lld, expected to be a multiple "
                                     "of result scatter dimension size %lld",
                                     (long long)in->dims[sd], (long long)out->dims[sd]);
        for (int d = 0; d < in->rank; d++)
            if (d != sd && !verify_dim_compat(in->dims[d], out->dims[d]))
                return graph_verify_fail(cx, op, "(C8) non scatter dimensions should be same for operand (%s) and "
                                         "result (%s)",
                                         graph_verify_tstr(in, ta, sizeof ta), graph_verify_tstr(out, tb, sizeof tb));
    }
    if (!graph_verify_elem_baseline_equal(out, acc[0]))
        return graph_verify_fail(cx, op, "(C9) result has type %s but the computation computes %s",
                           graph_verify_tstr(out, ta, sizeof ta), graph_verify_tstr(acc[0], tb, sizeof tb));
    return BASE_OK;
}

static enum base_status need_token(struct verify_ctx *cx, const struct graph_op *op,
                                   const char *what, const struct graph_type *t)
{
    if (t && t->kind == GRAPH_TYPE_TOKEN) return BASE_OK;
    char ts[160];
    return graph_verify_fail(cx, op, "%s must be a !stablehlo.token, got %s", what,
                       graph_verify_tstr(t, ts, sizeof ts));
}

static enum base_status scalar_ui32(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 1, 1, 0));
    const struct graph_type *t = verify_out(op, 0);
    if (verify_is_tensor(t) && !t->quant && t->elem == BASE_DT_UI32 && t->rank <= 0) return BASE_OK;
    char ts[160];
    return graph_verify_fail(cx, op, "result must be a 0-dimensional tensor of ui32, got %s",
                       graph_verify_tstr(t, ts, sizeof ts));
}

/* recv, infeed: tensors then a token. */
static enum base_status payload_then_token(struct verify_ctx *cx, const struct graph_op *op,
                                           const char *c_count, const char *c_tensors,
                                           const char *c_token)
{
    VTRY(need_token(cx, op, "(I1) token", verify_in(op, 0)));
    if (op->n_results < 1) return graph_verify_fail(cx, op, "%s needs at least one result", c_count);
    for (int i = 0; i + 1 < op->n_results; i++)
        VTRY(graph_verify_need_tensor(cx, op, c_tensors, verify_out(op, i)));
    return need_token(cx, op, c_token, verify_out(op, op->n_results - 1));
}

/* infeed's optional layout: one array of integers per payload result
 * (upstream verifyInfeedOp). */
static enum base_status infeed_layout(struct verify_ctx *cx, const struct graph_op *op)
{
    const struct graph_attr *l = graph_op_attr(op, "layout");
    if (!l) return BASE_OK;
    if (l->kind != GRAPH_ATTR_ARRAY) return graph_verify_fail(cx, op, "layout-attribute expected to be of array-type");
    if (l->u.array.n != op->n_results - 1)
        return graph_verify_fail(cx, op, "layout-attribute size must be %d (which is the number of op-results - 1 (for "
                                 "token result)), but got %d", op->n_results - 1, l->u.array.n);
    for (int i = 0; i < l->u.array.n; i++) {
        const struct graph_attr *c = l->u.array.items[i];
        if (c->kind != GRAPH_ATTR_ARRAY && c->kind != GRAPH_ATTR_DENSE_ARRAY)
            return graph_verify_fail(cx, op, "layout-attribute expected to have elements of type array, but element %d is not", i);
        for (int k = 0; c->kind == GRAPH_ATTR_ARRAY && k < c->u.array.n; k++)
            if (c->u.array.items[k]->kind != GRAPH_ATTR_INT)
                return graph_verify_fail(cx, op, "layout-attribute's leaf elements are expected to be of type integer "
                                         "(element %d, %d)", i, k);
    }
    return BASE_OK;
}

static enum base_status send_recv(struct verify_ctx *cx, const struct graph_op *op, bool send)
{
    if (send) {
        VTRY(graph_verify_counts(cx, op, 1, -1, 1, 1, 0));
        for (int i = 0; i + 1 < op->n_operands; i++)
            VTRY(graph_verify_need_tensor(cx, op, "(I1) input", verify_in(op, i)));
        VTRY(need_token(cx, op, "(I2) token", verify_in(op, op->n_operands - 1)));
        VTRY(need_token(cx, op, "result", verify_out(op, 0)));
    } else {
        VTRY(graph_verify_counts(cx, op, 1, 1, 1, -1, 0));
        VTRY(payload_then_token(cx, op, "(C2)", "(C3) payload result", "(C4) last result"));
    }
    bool host;
    VTRY(graph_verify_op_bool(cx, op, "is_host_transfer", false, &host));
    /* the channel type, as upstream checks it (inferSendOp, RecvOp::verify):
     * also when it is 0 or the channel_handle is absent */
    int64_t type;
    channel_id(op, &type);
    int64_t want = host ? (send ? 2 : 3) : 1;
    static const char *const names[] = {"INVALID", "DEVICE_TO_DEVICE", "DEVICE_TO_HOST",
                                        "HOST_TO_DEVICE"};
    if (type != want)
        return graph_verify_fail(cx, op, "(C1) channel type should be %s when is_host_transfer is %s, got %lld",
                           names[want], host ? "true" : "false", (long long)type);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Shardy                                                                    */

static const struct graph_op *find_mesh(struct verify_ctx *cx, const char *name, size_t len)
{
    /* shardings of one manual_computation name the same mesh: remember it */
    if (cx->mesh && cx->mesh_name_len == len && memcmp(cx->mesh_name, name, len) == 0)
        return cx->mesh;
    for (int i = 0; i < cx->m->body.n_ops; i++) {
        const struct graph_op *op = cx->m->body.ops[i];
        if (op->kind != GRAPH_OP_SDY_MESH) continue;
        size_t l;
        const char *n = graph_verify_attr_word(graph_op_attr(op, "sym_name"), &l);
        if (n && l == len && memcmp(n, name, len) == 0) {
            cx->mesh = op;
            cx->mesh_name = n;
            cx->mesh_name_len = l;
            return op;
        }
    }
    return NULL;
}

/* Size of a mesh axis; a sub-axis "x":(p)s has size s.  0: not in the mesh. */
static int64_t axis_size(const struct graph_attr *mesh, const char *name, size_t len)
{
    const char *colon = memchr(name, ':', len);
    if (colon) {
        const char *rp = memchr(colon, ')', len - (size_t)(colon - name));
        if (!rp) return 0;
        int64_t s = 0;
        for (const char *p = rp + 1; p < name + len; p++) {
            if (*p < '0' || *p > '9') return 0;
            s = s * 10 + (*p - '0');
        }
        return s;
    }
    const struct graph_attr *axes = graph_dict_get(mesh, "axes");
    for (int i = 0; axes && axes->kind == GRAPH_ATTR_ARRAY && i < axes->u.array.n; i++) {
        const struct graph_attr *ax = axes->u.array.items[i];
        size_t l;
        const char *n = graph_verify_attr_word(graph_dict_get(ax, "name"), &l);
        int64_t s;
        if (n && l == len && memcmp(n, name, len) == 0 &&
            graph_attr_as_i64(graph_dict_get(ax, "size"), &s))
            return s;
    }
    return 0;
}

static enum base_status sdy_mesh(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, 0, 0, 0, 0));
    const struct graph_attr *mesh = graph_op_attr(op, "mesh");
    if (!mesh || mesh->kind != GRAPH_ATTR_DICT)
        return graph_verify_fail(cx, op, "requires a 'mesh' attribute");
    const struct graph_attr *axes = graph_dict_get(mesh, "axes");
    int n = axes && axes->kind == GRAPH_ATTR_ARRAY ? axes->u.array.n : 0;
    int64_t total = 1;
    for (int i = 0; i < n; i++) {
        const struct graph_attr *ax = axes->u.array.items[i];
        size_t l;
        const char *name = graph_verify_attr_word(graph_dict_get(ax, "name"), &l);
        int64_t s;
        if (!name || !graph_attr_as_i64(graph_dict_get(ax, "size"), &s))
            return graph_verify_fail(cx, op, "mesh axis %d needs a name and a size", i);
        if (s <= 0)
            return graph_verify_fail(cx, op, "mesh axis \"%.*s\" has size %lld, must be > 0", (int)l, name,
                               (long long)s);
        for (int j = 0; j < i; j++) {
            size_t l2;
            const char *n2 = graph_verify_attr_word(graph_dict_get(axes->u.array.items[j], "name"), &l2);
            if (n2 && l2 == l && memcmp(n2, name, l) == 0)
                return graph_verify_fail(cx, op, "mesh axis \"%.*s\" is defined twice", (int)l, name);
        }
        if (total <= INT64_MAX / s) total *= s;
    }
    int64_t ids[VERIFY_MAX_LIST];
    int nid;
    const struct graph_attr *dev = graph_dict_get(mesh, "device_ids");
    if (!dev || (dev->kind == GRAPH_ATTR_DENSE_ARRAY && dev->u.dense.n > VERIFY_MAX_LIST))
        return BASE_OK; /* long device lists: left to the partitioner */
    VTRY(graph_verify_attr_list(cx, op, dev, "device_ids", false, ids, &nid));
    if (nid > 1 && nid != total)
        return graph_verify_fail(cx, op, "device_ids has %d entries but the mesh has %lld devices", nid,
                           (long long)total);
    return BASE_OK;
}

/* The local (per-device) shape of `global` under a sharding over manual axes. */
static enum base_status local_shape(struct verify_ctx *cx, const struct graph_op *op,
                                    const struct graph_attr *sharding, const char *what, int idx,
                                    const struct graph_type *global, const struct graph_attr *manual,
                                    int64_t *dims, bool *known)
{
    *known = false;
    if (!sharding || sharding->kind != GRAPH_ATTR_DICT || global->rank < 0) return BASE_OK;
    const struct graph_attr *ms = graph_dict_get(sharding, "mesh");
    size_t ml;
    const char *mname = ms && ms->kind == GRAPH_ATTR_SYMBOL ? graph_verify_attr_word(ms, &ml) : NULL;
    const struct graph_op *mop = mname ? find_mesh(cx, mname, ml) : NULL;
    const struct graph_attr *mesh = mop ? graph_op_attr(mop, "mesh") : NULL;
    if (!mesh) return BASE_OK; /* inline or unknown mesh: not checked */
    const struct graph_attr *sd = graph_dict_get(sharding, "dims");
    if (!sd || sd->kind != GRAPH_ATTR_ARRAY) return BASE_OK;
    if (sd->u.array.n != global->rank)
        return graph_verify_fail(cx, op, "%s sharding %d has %d dims but the value has rank %d", what, idx,
                           sd->u.array.n, global->rank);
    for (int d = 0; d < global->rank; d++) {
        const struct graph_attr *axes = sd->u.array.items[d];
        int64_t div = 1;
        for (int k = 0; axes && axes->kind == GRAPH_ATTR_ARRAY && k < axes->u.array.n; k++) {
            size_t l;
            const char *an = graph_verify_attr_word(axes->u.array.items[k], &l);
            if (!an) continue;
            bool is_manual = false;
            size_t base_len = l;
            const char *colon = memchr(an, ':', l);
            if (colon) base_len = (size_t)(colon - an);
            for (int j = 0; manual && j < manual->u.array.n && !is_manual; j++) {
                size_t l2;
                const char *mn = graph_verify_attr_word(manual->u.array.items[j], &l2);
                is_manual = mn && l2 == base_len && memcmp(mn, an, l2) == 0;
            }
            if (!is_manual) continue;
            int64_t s = axis_size(mesh, an, l);
            if (s <= 0)
                return graph_verify_fail(cx, op, "%s sharding %d names axis \"%.*s\", which @%.*s lacks", what,
                                   idx, (int)l, an, (int)ml, mname);
            div *= s;
        }
        int64_t g = global->dims[d];
        if (g == GRAPH_DYN) {
            dims[d] = GRAPH_DYN;
            continue;
        }
        if (g % div != 0)
            return graph_verify_fail(cx, op, "%s %d dim %d has size %lld, not divisible by its manual axes (%lld devices)",
                               what, idx, d, (long long)g, (long long)div);
        dims[d] = g / div;
    }
    *known = true;
    return BASE_OK;
}

static enum base_status manual_computation(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 0, -1, 0, -1, 1));
    const struct graph_attr *ins = graph_op_attr(op, "in_shardings");
    const struct graph_attr *outs = graph_op_attr(op, "out_shardings");
    const struct graph_attr *manual = graph_op_attr(op, "manual_axes");
    if (manual && manual->kind != GRAPH_ATTR_ARRAY) manual = NULL;
    const struct graph_block *b;
    const struct graph_op *t;
    VTRY(graph_verify_region_shape(cx, op, 0, "body", op->n_operands, op->n_results, &b, &t));
    if (ins && ins->kind == GRAPH_ATTR_ARRAY && ins->u.array.n != op->n_operands)
        return graph_verify_fail(cx, op, "has %d in_shardings for %d operands", ins->u.array.n,
                           op->n_operands);
    if (outs && outs->kind == GRAPH_ATTR_ARRAY && outs->u.array.n != op->n_results)
        return graph_verify_fail(cx, op, "has %d out_shardings for %d results", outs->u.array.n,
                           op->n_results);
    char ta[160], tb[160], ds[120];
    for (int side = 0; side < 2; side++) {
        int n = side ? op->n_results : op->n_operands;
        const struct graph_attr *sh = side ? outs : ins;
        for (int i = 0; i < n; i++) {
            const struct graph_type *global = side ? verify_out(op, i) : verify_in(op, i);
            const struct graph_type *local = side ? verify_in(t, i) : b->args[i].type;
            if (!verify_is_tensor(global) || !verify_is_tensor(local)) {
                if (!graph_verify_type_compat(global, local))
                    return graph_verify_fail(cx, op, "%s %d has type %s but the body has %s",
                                       side ? "result" : "operand", i,
                                       graph_verify_tstr(global, ta, sizeof ta),
                                       graph_verify_tstr(local, tb, sizeof tb));
                continue;
            }
            if (!graph_verify_elem_equal(global, local))
                return graph_verify_fail(cx, op, "%s %d has type %s but the body has %s",
                                   side ? "result" : "operand", i, graph_verify_tstr(global, ta, sizeof ta),
                                   graph_verify_tstr(local, tb, sizeof tb));
            int64_t dims[R];
            bool known;
            const struct graph_attr *s = sh && sh->kind == GRAPH_ATTR_ARRAY ? sh->u.array.items[i] : NULL;
            VTRY(local_shape(cx, op, s, side ? "result" : "operand", i, global, manual, dims, &known));
            if (!known) continue;
            bool ok = local->rank < 0 || local->rank == global->rank;
            for (int d = 0; ok && local->rank >= 0 && d < global->rank; d++)
                ok = verify_dim_compat(local->dims[d], dims[d]);
            if (!ok)
                return graph_verify_fail(cx, op, "%s %d of type %s has local shape %s on each device, but the body %s %s",
                                   side ? "result" : "operand", i, graph_verify_tstr(global, ta, sizeof ta),
                                   graph_verify_dstr(global->rank, dims, ds, sizeof ds),
                                   side ? "returns" : "takes", graph_verify_tstr(local, tb, sizeof tb));
        }
    }
    return BASE_OK;
}

enum base_status graph_verify_collective_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_ALL_GATHER: return all_gather(cx, op);
    case GRAPH_OP_ALL_REDUCE:
    case GRAPH_OP_COLLECTIVE_REDUCE: return all_reduce(cx, op);
    case GRAPH_OP_ALL_TO_ALL: return all_to_all(cx, op);
    case GRAPH_OP_COLLECTIVE_BROADCAST: return collective_broadcast(cx, op);
    case GRAPH_OP_COLLECTIVE_PERMUTE: return collective_permute(cx, op);
    case GRAPH_OP_REDUCE_SCATTER: return reduce_scatter(cx, op);
    case GRAPH_OP_CROSS_REPLICA_SUM:
        VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
        return graph_verify_same_type(cx, op, "", "operand", verify_in(op, 0), "result", verify_out(op, 0));
    case GRAPH_OP_PARTITION_ID:
    case GRAPH_OP_REPLICA_ID: return scalar_ui32(cx, op);
    case GRAPH_OP_SEND: return send_recv(cx, op, true);
    case GRAPH_OP_RECV: return send_recv(cx, op, false);
    case GRAPH_OP_INFEED:
        VTRY(graph_verify_counts(cx, op, 1, 1, 1, -1, 0));
        VTRY(payload_then_token(cx, op, "(C1)", "(C2) payload result", "(C3) last result"));
        return infeed_layout(cx, op);
    case GRAPH_OP_OUTFEED:
        VTRY(graph_verify_counts(cx, op, 1, -1, 1, 1, 0));
        for (int i = 0; i + 1 < op->n_operands; i++)
            VTRY(graph_verify_need_tensor(cx, op, "(I1) input", verify_in(op, i)));
        VTRY(need_token(cx, op, "(I2) token", verify_in(op, op->n_operands - 1)));
        return need_token(cx, op, "result", verify_out(op, 0));
    case GRAPH_OP_AFTER_ALL:
        VTRY(graph_verify_counts(cx, op, 0, -1, 1, 1, 0));
        for (int i = 0; i < op->n_operands; i++)
            VTRY(need_token(cx, op, "(I1) input", verify_in(op, i)));
        return need_token(cx, op, "result", verify_out(op, 0));
    case GRAPH_OP_CREATE_TOKEN:
        VTRY(graph_verify_counts(cx, op, 0, 0, 1, 1, 0));
        return need_token(cx, op, "result", verify_out(op, 0));
    case GRAPH_OP_SDY_MESH: return sdy_mesh(cx, op);
    case GRAPH_OP_SDY_MANUAL_COMPUTATION: return manual_computation(cx, op);
    case GRAPH_OP_SDY_RETURN: return graph_verify_counts(cx, op, 0, -1, 0, 0, 0);
    default: return BASE_OK;
    }
}
