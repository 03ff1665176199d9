/* Verifier rules for data-movement ops: reshape, transpose, broadcast,
 * slice, pad, concatenate, iota, bitcast_convert and their dynamic forms
 * (spec.md "Constraints" of each op). */
#include "graph/verify_internal.h"

#include <string.h>

#define R GRAPH_MAX_RANK

/* Element types equal, except that a per-axis quantized operand's
 * quantization dimension and parameters may change (broadcast_in_dim,
 * reshape, transpose (C1)). */
static bool elem_equal_but_axis(const struct graph_type *a, const struct graph_type *b)
{
    if (!verify_is_per_axis(a)) return graph_verify_elem_equal(a, b);
    if (!b->quant) return false;
    return a->quant->storage == b->quant->storage && a->quant->expressed == b->quant->expressed &&
           a->quant->storage_min == b->quant->storage_min &&
           a->quant->storage_max == b->quant->storage_max;
}

static enum base_status need_elem_but_axis(struct verify_ctx *cx, const struct graph_op *op,
                                           const struct graph_type *in,
                                           const struct graph_type *out)
{
    if (elem_equal_but_axis(in, out)) return BASE_OK;
    char ti[160], to[160];
    return graph_verify_fail(cx, op, "(C1) operand and result must have the same element type, got %s and %s",
                       graph_verify_tstr(in, ti, sizeof ti), graph_verify_tstr(out, to, sizeof to));
}

/* reshape, transpose (C1): two per-axis quantized types carry the same scales
 * and zero points, the first min(n, m) of each compared (upstream
 * isSameQuantPerAxisScaleZeroPoint). */
static enum base_status same_axis_params(struct verify_ctx *cx, const struct graph_op *op,
                                         const struct graph_type *in, const struct graph_type *out)
{
    if (!verify_is_per_axis(in) || !verify_is_per_axis(out)) return BASE_OK;
    const struct graph_quant *a = in->quant, *b = out->quant;
    int n = a->n_scales < b->n_scales ? a->n_scales : b->n_scales;
    for (int i = 0; i < n; i++)
        if (a->scales[i] != b->scales[i] || a->zero_points[i] != b->zero_points[i]) {
            char ti[160], to[160];
            return graph_verify_fail(cx, op, "(C1) expect same quantization scales and zero_points but got %s vs %s",
                                     graph_verify_tstr(in, ti, sizeof ti), graph_verify_tstr(out, to, sizeof to));
        }
    return BASE_OK;
}

/* Start indices of dynamic_slice / dynamic_update_slice: 0-d integer tensors
 * of one type. */
static enum base_status start_indices(struct verify_ctx *cx, const struct graph_op *op, int first,
                                      const char *label_same)
{
    for (int i = first; i < op->n_operands; i++) {
        char what[48];
        snprintf(what, sizeof what, "start index %d", i - first);
        VTRY(graph_verify_need_class(cx, op, what, verify_in(op, i), VC_INT));
        VTRY(graph_verify_need_rank(cx, op, what, verify_in(op, i), 0));
        if (i > first && !graph_verify_type_compat(verify_in(op, first), verify_in(op, i))) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "%s start indices must have the same type, got %s and %s",
                               label_same, graph_verify_tstr(verify_in(op, first), ta, sizeof ta),
                               graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
        }
    }
    return BASE_OK;
}

/* A 1-D integer tensor operand of statically known size `want` (when both
 * are known); `need_static`: a statically shaped one (upstream's
 * HLO_StaticDimensionTensor operands). */
static enum base_status shape_operand(struct verify_ctx *cx, const struct graph_op *op, int i,
                                      const char *what, const char *label, int64_t want, bool need_static)
{
    const struct graph_type *t = verify_in(op, i);
    VTRY(graph_verify_need_class(cx, op, what, t, VC_INT));
    VTRY(graph_verify_need_rank(cx, op, what, t, 1));
    char ts[160];
    if (need_static && (t->rank != 1 || t->dims[0] == GRAPH_DYN))
        return graph_verify_fail(cx, op, "operand #%d (%s) must be statically shaped, got %s", i, what,
                                 graph_verify_tstr(t, ts, sizeof ts));
    if (want >= 0 && t->rank == 1 && t->dims[0] != GRAPH_DYN && t->dims[0] != want)
        return graph_verify_fail(cx, op, "%s %s must have %lld elements, got %s", label, what,
                           (long long)want, graph_verify_tstr(t, ts, sizeof ts));
    return BASE_OK;
}

/* A constant shape operand against the result type (upstream
 * verifyShapeOperandIsCompatibleWithResultType): no negative sizes, and the
 * result's static dims equal to it.  *n gets the values' count (-1: not a
 * constant). */
static enum base_status const_shape(struct verify_ctx *cx, const struct graph_op *op, int i, const char *label,
                                    const struct graph_type *out, int64_t *v, int *n)
{
    *n = graph_verify_const_ints(op, i, v, R);
    if (*n < 0) return BASE_OK;
    bool ok = out->rank < 0 || *n == out->rank;
    for (int k = 0; k < *n; k++)
        if (v[k] < 0 || (ok && out->rank >= 0 && !verify_dim_compat(v[k], out->dims[k]))) ok = false;
    if (ok) return BASE_OK;
    char ls[200], ts[160];
    return graph_verify_fail(cx, op, "%s output shape %s is incompatible with the result type %s", label,
                             graph_verify_lstr(*n, v, ls, sizeof ls), graph_verify_tstr(out, ts, sizeof ts));
}

static enum base_status bitcast_convert(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    bool ci = graph_verify_class(in) == VC_COMPLEX, co = graph_verify_class(out) == VC_COMPLEX;
    char ti[160], to[160];
    graph_verify_tstr(in, ti, sizeof ti);
    graph_verify_tstr(out, to, sizeof to);
    if (ci != co)
        return graph_verify_fail(cx, op, "(C2) cannot convert between complex and non-complex types (%s to %s)",
                           ti, to);
    if (in->rank < 0 || out->rank < 0) return BASE_OK;
    int bi = graph_verify_elem_bits(in), bo = graph_verify_elem_bits(out);
    int r = in->rank;
    if (bi == bo) {
        if (!graph_verify_shape_compat(in, out))
            return graph_verify_fail(cx, op, "(C1) with equal element widths operand and result must have the same shape, got %s and %s",
                               ti, to);
        return BASE_OK;
    }
    if (bo < bi) {
        if (out->rank != r + 1)
            return graph_verify_fail(cx, op, "(C1) result rank must be operand rank + 1 = %d when narrowing %d to %d bits, got %s",
                               r + 1, bi, bo, to);
        for (int i = 0; i < r; i++)
            if (!verify_dim_compat(in->dims[i], out->dims[i]))
                return graph_verify_fail(cx, op, "(C1) result dim %d has size %lld but operand dim %d has size %lld",
                                   i, (long long)out->dims[i], i, (long long)in->dims[i]);
        if (out->dims[r] != GRAPH_DYN && out->dims[r] * bo != bi)
            return graph_verify_fail(cx, op, "(C1) result dim %d has size %lld but must be %d / %d = %d", r,
                               (long long)out->dims[r], bi, bo, bi / bo);
        return BASE_OK;
    }
    if (out->rank != r - 1)
        return graph_verify_fail(cx, op, "(C1) result rank must be operand rank - 1 = %d when widening %d to %d bits, got %s",
                           r - 1, bi, bo, to);
    for (int i = 0; i < r - 1; i++)
        if (!verify_dim_compat(in->dims[i], out->dims[i]))
            return graph_verify_fail(cx, op, "(C1) result dim %d has size %lld but operand dim %d has size %lld",
                               i, (long long)out->dims[i], i, (long long)in->dims[i]);
    if (in->dims[r - 1] != GRAPH_DYN && in->dims[r - 1] * bi != bo)
        return graph_verify_fail(cx, op, "(C1) operand dim %d has size %lld but must be %d / %d = %d", r - 1,
                           (long long)in->dims[r - 1], bo, bi, bo / bi);
    return BASE_OK;
}

/* Shared by broadcast_in_dim and dynamic_broadcast_in_dim: (C1)-(C6). */
static enum base_status broadcast_dims(struct verify_ctx *cx, const struct graph_op *op,
                                       const struct graph_type *in, const struct graph_type *out)
{
    int64_t bd[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "broadcast_dimensions", true, bd, &n));
    VTRY(need_elem_but_axis(cx, op, in, out));
    if (in->rank >= 0 && n != in->rank)
        return graph_verify_fail(cx, op, "(C2) broadcast_dimensions has %d entries but the operand has rank %d",
                           n, in->rank);
    if (out->rank >= 0) VTRY(graph_verify_list_in_range(cx, op, "(C3)", "broadcast_dimensions", n, bd, out->rank));
    VTRY(graph_verify_list_is_unique(cx, op, "(C4)", "broadcast_dimensions", n, bd));
    if (in->rank >= 0 && out->rank >= 0)
        for (int d = 0; d < n; d++) {
            int64_t od = in->dims[d], rd = out->dims[bd[d]];
            if (od != 1 && !verify_dim_compat(od, rd))
                return graph_verify_fail(cx, op,
                                   "(C5) operand dim %d has size %lld, which is neither 1 nor the "
                                   "size %lld of result dim %lld",
                                   d, (long long)od, (long long)rd, (long long)bd[d]);
        }
    if (verify_is_per_axis(out)) {
        if (!verify_is_per_axis(in))
            return graph_verify_fail(cx, op, "(C6) a per-axis quantized result needs a per-axis quantized operand");
        int qd = in->quant->quant_dim;
        if (qd < n && out->quant->quant_dim != bd[qd])
            return graph_verify_fail(cx, op, "(C6) result quantization dimension is %d but must be broadcast_dimensions[%d] = %lld",
                               out->quant->quant_dim, qd, (long long)bd[qd]);
        /* an expanded quantization dim repeats the operand's one scale (upstream) */
        if (in->rank > qd && in->dims[qd] == 1)
            for (int i = 0; i < out->quant->n_scales; i++) {
                if (out->quant->scales[i] != in->quant->scales[0])
                    return graph_verify_fail(cx, op, "(C6) mismatch result scale %d (%e) and operand scale 0 (%e)", i,
                                             out->quant->scales[i], in->quant->scales[0]);
                if (out->quant->zero_points[i] != in->quant->zero_points[0])
                    return graph_verify_fail(cx, op, "(C6) mismatch result zero_point %d (%lld) and operand zero_point 0 (%lld)",
                                             i, (long long)out->quant->zero_points[i], (long long)in->quant->zero_points[0]);
            }
    }
    return BASE_OK;
}

static enum base_status broadcast_in_dim(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", verify_in(op, 0)));
    VTRY(graph_verify_need_tensor(cx, op, "result", verify_out(op, 0)));
    return broadcast_dims(cx, op, verify_in(op, 0), verify_out(op, 0));
}

static enum base_status dynamic_broadcast_in_dim(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    VTRY(broadcast_dims(cx, op, in, out));
    VTRY(shape_operand(cx, op, 1, "output_dimensions", "(C7)", out->rank, true));
    int64_t shape[R];
    int ns;
    VTRY(const_shape(cx, op, 1, "(C7)", out, shape, &ns));
    int64_t ke[VERIFY_MAX_LIST], kn[VERIFY_MAX_LIST], all[2 * VERIFY_MAX_LIST];
    int ne, nn;
    VTRY(graph_verify_op_list(cx, op, "known_expanding_dimensions", false, ke, &ne));
    VTRY(graph_verify_op_list(cx, op, "known_nonexpanding_dimensions", false, kn, &nn));
    if (ne < 0) ne = 0;
    if (nn < 0) nn = 0;
    memcpy(all, ke, (size_t)ne * sizeof *ke);
    memcpy(all + ne, kn, (size_t)nn * sizeof *kn);
    VTRY(graph_verify_list_is_unique(cx, op, "(C8)", "known_expanding_dimensions + known_nonexpanding_dimensions",
                               ne + nn, all));
    if (in->rank >= 0) {
        VTRY(graph_verify_list_in_range(cx, op, "(C9)", "known_expanding_dimensions", ne, ke, in->rank));
        VTRY(graph_verify_list_in_range(cx, op, "(C10)", "known_nonexpanding_dimensions", nn, kn, in->rank));
    }
    /* a constant output_dimensions fixes each broadcast dim */
    if (ns >= 0 && graph_type_is_static(in)) {
        int64_t bd[VERIFY_MAX_LIST];
        int nb;
        VTRY(graph_verify_op_list(cx, op, "broadcast_dimensions", true, bd, &nb));
        for (int d = 0; d < nb && d < in->rank; d++)
            if (bd[d] >= 0 && bd[d] < ns && in->dims[d] != 1 && in->dims[d] != shape[bd[d]])
                return graph_verify_fail(cx, op, "(C5) size of operand dimension %d (%lld) is not equal to 1 or value of "
                                         "shape at index %lld (%lld)",
                                         d, (long long)in->dims[d], (long long)bd[d], (long long)shape[bd[d]]);
    }
    return BASE_OK;
}

static enum base_status broadcast(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", in));
    VTRY(graph_verify_same_elem(cx, op, "", "operand", in, "result", out));
    int64_t sizes[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "broadcast_sizes", true, sizes, &n));
    if (in->rank < 0) return BASE_OK;
    if (n + in->rank > R) return graph_verify_fail(cx, op, "result rank %d exceeds %d", n + in->rank, R);
    int64_t dims[2 * R];
    memcpy(dims, sizes, (size_t)n * sizeof *dims);
    memcpy(dims + n, in->dims, (size_t)in->rank * sizeof *dims);
    return graph_verify_result_dims(cx, op, "", "result", out, n + in->rank, dims);
}

static enum base_status concatenate(struct verify_ctx *cx, const struct graph_op *op)
{
    if (op->n_operands < 1) return graph_verify_fail(cx, op, "(C3) needs at least one input");
    VTRY(graph_verify_counts(cx, op, 1, -1, 1, 1, 0));
    const struct graph_type *in0 = verify_in(op, 0), *out = verify_out(op, 0);
    for (int i = 0; i < op->n_operands; i++) {
        char what[32];
        snprintf(what, sizeof what, "input %d", i);
        VTRY(graph_verify_need_tensor(cx, op, what, verify_in(op, i)));
        if (!graph_verify_elem_equal(in0, verify_in(op, i))) {
            char ta[160], tb[160];
            return graph_verify_fail(cx, op, "(C1) all inputs must have the same element type, got %s and %s",
                               graph_verify_tstr(in0, ta, sizeof ta),
                               graph_verify_tstr(verify_in(op, i), tb, sizeof tb));
        }
    }
    VTRY(graph_verify_same_elem(cx, op, "(C5)", "inputs", in0, "result", out));
    int64_t dim;
    VTRY(graph_verify_op_int(cx, op, "dimension", NULL, &dim));
    int rank = -1;
    for (int i = 0; i < op->n_operands && rank < 0; i++) rank = verify_in(op, i)->rank;
    if (rank < 0) return BASE_OK;
    if (dim < 0 || dim >= rank)
        return graph_verify_fail(cx, op, "(C4) dimension %lld must be in [0, %d)", (long long)dim, rank);
    int64_t dims[R];
    for (int d = 0; d < rank; d++) dims[d] = GRAPH_DYN;
    int64_t sum = 0;
    for (int i = 0; i < op->n_operands; i++) {
        const struct graph_type *t = verify_in(op, i);
        if (t->rank < 0) {
            sum = GRAPH_DYN;
            continue;
        }
        if (t->rank != rank)
            return graph_verify_fail(cx, op, "(C2) input %d has rank %d but input 0 has rank %d", i,
                               t->rank, rank);
        for (int d = 0; d < rank; d++) {
            if (d == dim) continue;
            if (!verify_dim_compat(dims[d], t->dims[d]))
                return graph_verify_fail(cx, op,
                                   "(C2) inputs must agree on dim %d (all but dimension %lld), got "
                                   "sizes %lld and %lld",
                                   d, (long long)dim, (long long)dims[d], (long long)t->dims[d]);
            if (t->dims[d] != GRAPH_DYN) dims[d] = t->dims[d];
        }
        if (sum != GRAPH_DYN) sum = t->dims[dim] == GRAPH_DYN ? GRAPH_DYN : sum + t->dims[dim];
    }
    dims[dim] = sum;
    return graph_verify_result_dims(cx, op, "(C6)", "result", out, rank, dims);
}

static enum base_status iota(struct verify_ctx *cx, const struct graph_op *op, bool dynamic)
{
    VTRY(graph_verify_counts(cx, op, dynamic ? 1 : 0, dynamic ? 1 : 0, 1, 1, 0));
    const struct graph_type *out = verify_out(op, 0);
    VTRY(graph_verify_need_class(cx, op, "result", out, VC_INT | VC_FLOAT | VC_COMPLEX | VC_QUANT));
    if (dynamic) {
        int64_t shape[R];
        int ns;
        VTRY(shape_operand(cx, op, 0, "output_shape", "(C2)", out->rank, true));
        VTRY(const_shape(cx, op, 0, "(C2)", out, shape, &ns));
    }
    int64_t d;
    VTRY(graph_verify_op_int(cx, op, "iota_dimension", NULL, &d));
    if (out->rank >= 0 && (d < 0 || d >= out->rank))
        return graph_verify_fail(cx, op, "(C1) iota_dimension %lld must be in [0, %d)", (long long)d,
                           out->rank);
    return BASE_OK;
}

static enum base_status pad(struct verify_ctx *cx, const struct graph_op *op, bool dynamic)
{
    VTRY(graph_verify_counts(cx, op, dynamic ? 5 : 2, dynamic ? 5 : 2, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *pv = verify_in(op, 1), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_rank(cx, op, "(I2) padding_value", pv, 0));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "operand", in, "padding_value", pv));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "operand", in, "result", out));
    if (dynamic) {
        static const char *const names[] = {"edge_padding_low", "edge_padding_high",
                                            "interior_padding"};
        for (int i = 0; i < 3; i++)
            VTRY(shape_operand(cx, op, 2 + i, names[i], "(C2)", in->rank, true));
        if (in->rank >= 0 && out->rank >= 0 && in->rank != out->rank)
            return graph_verify_fail(cx, op, "(C4) result rank %d must equal operand rank %d", out->rank,
                               in->rank);
        /* constant paddings (upstream verifyDynamicPadOp) */
        int64_t pl[R], ph[R], pi[R];
        int ni = graph_verify_const_ints(op, 4, pi, R);
        for (int k = 0; k < ni; k++)
            if (pi[k] < 0)
                return graph_verify_fail(cx, op, "(C3) interior_padding must be non-negative, but got %lld at %d",
                                         (long long)pi[k], k);
        int nl = graph_verify_const_ints(op, 2, pl, R), nh = graph_verify_const_ints(op, 3, ph, R);
        if (ni < 0 || nl < 0 || nh < 0 || !graph_type_is_static(in) || !graph_type_is_static(out) ||
            ni != in->rank || nl != in->rank || nh != in->rank || out->rank != in->rank)
            return BASE_OK;
        for (int d = 0; d < in->rank; d++) {
            int64_t want = in->dims[d] + pl[d] + (in->dims[d] > 1 ? in->dims[d] - 1 : 0) * pi[d] + ph[d];
            if (out->dims[d] != want)
                return graph_verify_fail(cx, op, "(C4) expected output dimension at index %d to equal %lld, but got %lld",
                                         d, (long long)want, (long long)out->dims[d]);
        }
        return BASE_OK;
    }
    int64_t lo[VERIFY_MAX_LIST], hi[VERIFY_MAX_LIST], in_pad[VERIFY_MAX_LIST];
    int nl, nh, ni;
    VTRY(graph_verify_op_list(cx, op, "edge_padding_low", true, lo, &nl));
    VTRY(graph_verify_op_list(cx, op, "edge_padding_high", true, hi, &nh));
    VTRY(graph_verify_op_list(cx, op, "interior_padding", true, in_pad, &ni));
    if (nl != nh || nl != ni)
        return graph_verify_fail(cx, op, "(C2) edge_padding_low, edge_padding_high and interior_padding must have the same size, got %d, %d and %d",
                           nl, nh, ni);
    if (in->rank >= 0 && nl != in->rank)
        return graph_verify_fail(cx, op, "(C2) padding lists have %d entries but the operand has rank %d",
                           nl, in->rank);
    for (int i = 0; i < ni; i++)
        if (in_pad[i] < 0)
            return graph_verify_fail(cx, op, "(C3) interior_padding[%d] = %lld must be >= 0", i,
                               (long long)in_pad[i]);
    if (in->rank < 0) return BASE_OK;
    int64_t dims[R];
    for (int i = 0; i < nl; i++) {
        int64_t d = in->dims[i];
        if (d == GRAPH_DYN) {
            dims[i] = GRAPH_DYN;
            continue;
        }
        dims[i] = d + lo[i] + hi[i] + (d > 0 ? d - 1 : 0) * in_pad[i];
        if (dims[i] < 0)
            return graph_verify_fail(cx, op, "(C4) padding gives dim %d a negative size %lld", i,
                               (long long)dims[i]);
    }
    return graph_verify_result_dims(cx, op, "(C4)", "result", out, nl, dims);
}

static enum base_status reshape(struct verify_ctx *cx, const struct graph_op *op, bool dynamic)
{
    VTRY(graph_verify_counts(cx, op, dynamic ? 2 : 1, dynamic ? 2 : 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    VTRY(need_elem_but_axis(cx, op, in, out));
    VTRY(same_axis_params(cx, op, in, out));
    if (dynamic) {
        int64_t shape[R];
        int ns;
        VTRY(shape_operand(cx, op, 1, "output_shape", "(C4)", out->rank, true));
        VTRY(const_shape(cx, op, 1, "(C4)", out, shape, &ns));
        int64_t ni = graph_type_count(in), nshape = 1;
        for (int k = 0; k < ns; k++) nshape *= shape[k];
        if (ns >= 0 && ni >= 0 && ni != nshape)
            return graph_verify_fail(cx, op, "(C2) output_shape is incompatible with the operand: it has %lld elements, "
                                     "output_shape %lld",
                                     (long long)ni, (long long)nshape);
    }
    int64_t ni = graph_type_count(in), no = graph_type_count(out);
    if (ni >= 0 && no >= 0 && ni != no) {
        char ti[160], to[160];
        return graph_verify_fail(cx, op, "(C2) operand has %lld elements but result has %lld (%s to %s)",
                           (long long)ni, (long long)no, graph_verify_tstr(in, ti, sizeof ti),
                           graph_verify_tstr(out, to, sizeof to));
    }
    if (verify_is_per_axis(in) && verify_is_per_axis(out) && ni >= 0 && no >= 0) {
        int qi = in->quant->quant_dim, qo = out->quant->quant_dim;
        if (qi < in->rank && qo < out->rank) {
            int64_t pi = 1, po = 1;
            for (int i = 0; i < qi; i++) pi *= in->dims[i];
            for (int i = 0; i < qo; i++) po *= out->dims[i];
            if (pi != po || in->dims[qi] != out->dims[qo])
                return graph_verify_fail(cx, op, "(C3) reshape must keep the quantization dimension (%d -> %d) and the dims before it",
                                   qi, qo);
        }
    }
    return BASE_OK;
}

static enum base_status reverse(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_same_type(cx, op, "(C1)", "operand", in, "result", out));
    int64_t d[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "dimensions", true, d, &n));
    VTRY(graph_verify_list_is_unique(cx, op, "(C2)", "dimensions", n, d));
    int rank = out->rank >= 0 ? out->rank : in->rank;
    if (rank >= 0) VTRY(graph_verify_list_in_range(cx, op, "(C3)", "dimensions", n, d, rank));
    return BASE_OK;
}

static enum base_status slice(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "operand", in, "result", out));
    int64_t st[VERIFY_MAX_LIST], li[VERIFY_MAX_LIST], sd[VERIFY_MAX_LIST];
    int ns, nl, nd;
    VTRY(graph_verify_op_list(cx, op, "start_indices", true, st, &ns));
    VTRY(graph_verify_op_list(cx, op, "limit_indices", true, li, &nl));
    VTRY(graph_verify_op_list(cx, op, "strides", false, sd, &nd));
    if (nd < 0) {
        nd = ns;
        for (int i = 0; i < nd; i++) sd[i] = 1;
    }
    if (ns != nl || ns != nd)
        return graph_verify_fail(cx, op, "(C2) start_indices, limit_indices and strides must have the same size, got %d, %d and %d",
                           ns, nl, nd);
    if (in->rank >= 0 && ns != in->rank)
        return graph_verify_fail(cx, op, "(C2) start_indices has %d entries but the operand has rank %d",
                           ns, in->rank);
    int64_t dims[VERIFY_MAX_LIST];
    for (int i = 0; i < ns; i++) {
        int64_t bound = in->rank >= 0 ? in->dims[i] : GRAPH_DYN;
        if (st[i] < 0 || st[i] > li[i] || (bound != GRAPH_DYN && li[i] > bound))
            return graph_verify_fail(cx, op,
                               "(C3) dim %d needs 0 <= start %lld <= limit %lld <= size %lld", i,
                               (long long)st[i], (long long)li[i], (long long)bound);
        if (sd[i] <= 0)
            return graph_verify_fail(cx, op, "(C4) strides[%d] = %lld must be > 0", i, (long long)sd[i]);
        dims[i] = li[i] == st[i] ? 0 : (li[i] - st[i] - 1) / sd[i] + 1; /* ceil, without passing INT64_MAX */
    }
    return graph_verify_result_dims(cx, op, "(C5)", "result", out, ns, dims);
}

static enum base_status dynamic_slice(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, -1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_same_elem(cx, op, "(C1)", "operand", in, "result", out));
    int64_t ss[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "slice_sizes", true, ss, &n));
    int nstart = op->n_operands - 1;
    if (nstart != n || (in->rank >= 0 && n != in->rank))
        return graph_verify_fail(cx, op, "(C2) the operand has rank %d, with %d start indices and %d slice_sizes",
                           in->rank, nstart, n);
    VTRY(start_indices(cx, op, 1, "(C3)"));
    for (int i = 0; i < n; i++) {
        int64_t bound = in->rank >= 0 ? in->dims[i] : GRAPH_DYN;
        if (ss[i] < 0 || (bound != GRAPH_DYN && ss[i] > bound))
            return graph_verify_fail(cx, op, "(C4) slice_sizes[%d] = %lld must be in [0, %lld]", i,
                               (long long)ss[i], (long long)bound);
    }
    return graph_verify_result_dims(cx, op, "(C5)", "result", out, n, ss);
}

static enum base_status dynamic_update_slice(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, -1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *up = verify_in(op, 1), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_tensor(cx, op, "(I2) update", up));
    VTRY(graph_verify_same_type(cx, op, "(C1)", "operand", in, "result", out));
    VTRY(graph_verify_same_elem(cx, op, "(C2)", "update", up, "operand", in));
    if (in->rank >= 0 && up->rank >= 0 && in->rank != up->rank)
        return graph_verify_fail(cx, op, "(C3) update rank %d must equal operand rank %d", up->rank,
                           in->rank);
    int nstart = op->n_operands - 2;
    if (in->rank >= 0 && nstart != in->rank)
        return graph_verify_fail(cx, op, "(C4) expects %d start indices (the operand rank), got %d",
                           in->rank, nstart);
    VTRY(start_indices(cx, op, 2, "(C5)"));
    if (in->rank >= 0 && up->rank >= 0)
        for (int i = 0; i < in->rank; i++)
            if (up->dims[i] != GRAPH_DYN && in->dims[i] != GRAPH_DYN && up->dims[i] > in->dims[i])
                return graph_verify_fail(cx, op, "(C6) update dim %d has size %lld, more than the operand's %lld",
                                   i, (long long)up->dims[i], (long long)in->dims[i]);
    return BASE_OK;
}

static enum base_status real_dynamic_slice(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 4, 4, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", in));
    VTRY(graph_verify_same_elem(cx, op, "", "operand", in, "result", out));
    static const char *const names[] = {"start_indices", "limit_indices", "strides"};
    for (int i = 0; i < 3; i++) VTRY(shape_operand(cx, op, 1 + i, names[i], "", in->rank, false));
    if (in->rank >= 0 && out->rank >= 0 && in->rank != out->rank)
        return graph_verify_fail(cx, op, "result rank %d must equal operand rank %d", out->rank, in->rank);
    return BASE_OK;
}

static enum base_status get_dimension_size(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_rank(cx, op, "result", out, 0));
    if (out->quant || out->elem != BASE_DT_SI32) {
        char to[160];
        return graph_verify_fail(cx, op, "result must be a 0-dimensional tensor of type si32, got %s",
                           graph_verify_tstr(out, to, sizeof to));
    }
    int64_t d;
    VTRY(graph_verify_op_int(cx, op, "dimension", NULL, &d));
    if (in->rank >= 0 && (d < 0 || d >= in->rank))
        return graph_verify_fail(cx, op, "(C1) dimension %lld must be in [0, %d)", (long long)d, in->rank);
    return BASE_OK;
}

static enum base_status set_dimension_size(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 2, 2, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "operand", in));
    VTRY(graph_verify_need_class(cx, op, "size", verify_in(op, 1), VC_INT));
    VTRY(graph_verify_need_rank(cx, op, "size", verify_in(op, 1), 0));
    VTRY(graph_verify_same_elem(cx, op, "", "operand", in, "result", out));
    int64_t d;
    VTRY(graph_verify_op_int(cx, op, "dimension", NULL, &d));
    if (in->rank < 0) return BASE_OK;
    if (d < 0 || d >= in->rank)
        return graph_verify_fail(cx, op, "dimension %lld must be in [0, %d)", (long long)d, in->rank);
    int64_t dims[R];
    memcpy(dims, in->dims, (size_t)in->rank * sizeof *dims);
    dims[d] = GRAPH_DYN;
    return graph_verify_result_dims(cx, op, "", "result", out, in->rank, dims);
}

static enum base_status transpose(struct verify_ctx *cx, const struct graph_op *op)
{
    VTRY(graph_verify_counts(cx, op, 1, 1, 1, 1, 0));
    const struct graph_type *in = verify_in(op, 0), *out = verify_out(op, 0);
    VTRY(graph_verify_need_tensor(cx, op, "(I1) operand", in));
    VTRY(graph_verify_need_tensor(cx, op, "result", out));
    VTRY(need_elem_but_axis(cx, op, in, out));
    VTRY(same_axis_params(cx, op, in, out));
    int64_t p[VERIFY_MAX_LIST];
    int n;
    VTRY(graph_verify_op_list(cx, op, "permutation", true, p, &n));
    int rank = in->rank >= 0 ? in->rank : n;
    char ls[200];
    if (n != rank || !graph_verify_list_unique(n, p))
        return graph_verify_fail(cx, op, "(C2) permutation %s is not a permutation of range(%d)",
                           graph_verify_lstr(n, p, ls, sizeof ls), rank);
    VTRY(graph_verify_list_in_range(cx, op, "(C2)", "permutation", n, p, rank));
    if (in->rank >= 0) {
        int64_t dims[R];
        for (int i = 0; i < n; i++) dims[i] = in->dims[p[i]];
        VTRY(graph_verify_result_dims(cx, op, "(C3)", "result", out, n, dims));
    }
    if (verify_is_per_axis(out) && verify_is_per_axis(in) && out->quant->quant_dim < n &&
        in->quant->quant_dim != p[out->quant->quant_dim])
        return graph_verify_fail(cx, op, "(C4) operand quantization dimension %d must equal permutation[%d] = %lld",
                           in->quant->quant_dim, out->quant->quant_dim,
                           (long long)p[out->quant->quant_dim]);
    return BASE_OK;
}

enum base_status graph_verify_shape_op(struct verify_ctx *cx, const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_BITCAST_CONVERT: return bitcast_convert(cx, op);
    case GRAPH_OP_BROADCAST: return broadcast(cx, op);
    case GRAPH_OP_BROADCAST_IN_DIM: return broadcast_in_dim(cx, op);
    case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM: return dynamic_broadcast_in_dim(cx, op);
    case GRAPH_OP_CONCATENATE: return concatenate(cx, op);
    case GRAPH_OP_IOTA: return iota(cx, op, false);
    case GRAPH_OP_DYNAMIC_IOTA: return iota(cx, op, true);
    case GRAPH_OP_PAD: return pad(cx, op, false);
    case GRAPH_OP_DYNAMIC_PAD: return pad(cx, op, true);
    case GRAPH_OP_RESHAPE: return reshape(cx, op, false);
    case GRAPH_OP_DYNAMIC_RESHAPE: return reshape(cx, op, true);
    case GRAPH_OP_REVERSE: return reverse(cx, op);
    case GRAPH_OP_SLICE: return slice(cx, op);
    case GRAPH_OP_DYNAMIC_SLICE: return dynamic_slice(cx, op);
    case GRAPH_OP_DYNAMIC_UPDATE_SLICE: return dynamic_update_slice(cx, op);
    case GRAPH_OP_REAL_DYNAMIC_SLICE: return real_dynamic_slice(cx, op);
    case GRAPH_OP_GET_DIMENSION_SIZE: return get_dimension_size(cx, op);
    case GRAPH_OP_SET_DIMENSION_SIZE: return set_dimension_size(cx, op);
    case GRAPH_OP_TRANSPOSE: return transpose(cx, op);
    default: return BASE_OK;
    }
}
