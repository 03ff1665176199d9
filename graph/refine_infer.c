/* Shape refinement: dimensions (constants, a*s + c of a dimension argument
 * not known yet, opaque) and the per-op shape rules of the StableHLO spec
 * (docs/spec.md, each op's "Semantics" and "Constraints"), with the dynamic
 * ops' shapes read from their folded shape operands. */
#include "graph/refine_internal.h"
#include "graph/print_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum base_status graph_rf_fail(struct rf_ctx *cx, const struct graph_op *op, enum base_status st, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return graph_op_diag(cx->diag, op, st, "%s: %s", op ? op->name : "refine", msg);
}

/* ------------------------------------------------------------------------ */
/* Dimensions                                                                */

static bool mul_ok(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}
static bool add_ok(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}

struct rf_dim graph_rf_norm(const struct rf_ctx *cx, struct rf_dim d)
{
    if (d.sym >= 0 && d.sym < cx->n_syms && cx->syms[d.sym].known) {
        int64_t p, r;
        if (!mul_ok(d.a, cx->syms[d.sym].value, &p) || !add_ok(p, d.c, &r)) return rf_opaque();
        struct rf_dim k = rf_const(r);
        if (d.a == 1 && d.c == 0) { /* the argument's value itself */
            k.from_arg = (int16_t)(cx->syms[d.sym].arg + 1);
            k.from_dim = -1;
        }
        return k;
    }
    if (d.sym >= 0 && d.a == 0) return rf_const(d.c);
    return d;
}

bool graph_rf_get_const(const struct rf_ctx *cx, struct rf_dim d, int64_t *v)
{
    d = graph_rf_norm(cx, d);
    if (!rf_is_const(d)) return false;
    *v = d.c;
    return true;
}

struct rf_dim graph_rf_add(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y)
{
    x = graph_rf_norm(cx, x);
    y = graph_rf_norm(cx, y);
    if (x.sym == RF_OPAQUE || y.sym == RF_OPAQUE) return rf_opaque();
    if (x.sym >= 0 && y.sym >= 0 && x.sym != y.sym) return rf_opaque();
    struct rf_dim r = rf_affine(0, x.sym >= 0 ? x.sym : y.sym, 0);
    if (!add_ok(x.c, y.c, &r.c) || !add_ok(x.sym >= 0 ? x.a : 0, y.sym >= 0 ? y.a : 0, &r.a)) return rf_opaque();
    if (r.sym < 0) r.sym = RF_CONST;
    return graph_rf_norm(cx, r);
}

struct rf_dim graph_rf_mul(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y)
{
    x = graph_rf_norm(cx, x);
    y = graph_rf_norm(cx, y);
    if (x.sym == RF_OPAQUE || y.sym == RF_OPAQUE) return rf_opaque();
    if (x.sym >= 0 && y.sym >= 0) return rf_opaque();
    if (x.sym >= 0) { /* y constant */
        struct rf_dim t = x;
        x = y;
        y = t;
    }
    /* x constant */
    struct rf_dim r = rf_affine(0, y.sym, 0);
    if (!mul_ok(x.c, y.c, &r.c) || !mul_ok(x.c, y.a, &r.a)) return rf_opaque();
    return graph_rf_norm(cx, r);
}

struct rf_dim graph_rf_sub(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y)
{
    return graph_rf_add(cx, x, graph_rf_mul(cx, rf_const(-1), y));
}

/* x / k when exact (constants: floor division), else opaque. */
static struct rf_dim dim_div(const struct rf_ctx *cx, struct rf_dim x, int64_t k)
{
    x = graph_rf_norm(cx, x);
    if (k <= 0 || x.sym == RF_OPAQUE) return rf_opaque();
    if (rf_is_const(x)) return rf_const(x.c >= 0 ? x.c / k : -((-x.c + k - 1) / k));
    if (x.a % k || x.c % k) return rf_opaque();
    return rf_affine(x.a / k, x.sym, x.c / k);
}

bool graph_rf_dim_equal(const struct rf_ctx *cx, struct rf_dim x, struct rf_dim y)
{
    x = graph_rf_norm(cx, x);
    y = graph_rf_norm(cx, y);
    if (x.sym == RF_OPAQUE || y.sym == RF_OPAQUE) return false;
    return x.sym == y.sym && x.c == y.c && (x.sym < 0 || x.a == y.a);
}

static const char *sym_name(const struct rf_ctx *cx, int s, char *buf, size_t cap)
{
    const struct rf_sym *y = &cx->syms[s];
    if (y->name)
        snprintf(buf, cap, "%%%s", y->name);
    else
        snprintf(buf, cap, "argument %d", y->arg);
    return buf;
}

const char *graph_rf_dim_str(const struct rf_ctx *cx, struct rf_dim d, char *buf, size_t cap)
{
    d = graph_rf_norm(cx, d);
    char nm[64];
    if (d.sym == RF_OPAQUE)
        snprintf(buf, cap, "?");
    else if (rf_is_const(d))
        snprintf(buf, cap, "%lld", (long long)d.c);
    else if (d.c == 0)
        snprintf(buf, cap, "%s%s", d.a == 1 ? "" : "", sym_name(cx, d.sym, nm, sizeof nm));
    else
        snprintf(buf, cap, "%s%s%s%lld", "", sym_name(cx, d.sym, nm, sizeof nm), d.c < 0 ? "-" : "+",
                 (long long)(d.c < 0 ? -d.c : d.c));
    if (d.sym >= 0 && d.a != 1) {
        char tmp[96];
        snprintf(tmp, sizeof tmp, "%lld*%s", (long long)d.a, buf);
        snprintf(buf, cap, "%s", tmp);
    }
    return buf;
}

/* " (dimension 0 of argument 1 (%x))" for a size that came from an argument. */
static const char *origin(const struct rf_ctx *cx, struct rf_dim d, char *buf, size_t cap)
{
    buf[0] = 0;
    if (!rf_is_const(d) || d.from_arg <= 0 || !cx->entry) return buf;
    int a = d.from_arg - 1;
    const struct graph_block *b = cx->entry->n_regions ? &cx->entry->regions[0].blocks[0] : NULL;
    const char *nm = b && a < b->n_args ? b->args[a].name : NULL;
    char arg[96];
    if (nm)
        snprintf(arg, sizeof arg, "argument %d (%%%s)", a, nm);
    else
        snprintf(arg, sizeof arg, "argument %d", a);
    if (d.from_dim >= 0)
        snprintf(buf, cap, " (dimension %d of %s)", d.from_dim, arg);
    else
        snprintf(buf, cap, " (the value of dimension %s)", arg);
    return buf;
}

static void solve(struct rf_ctx *cx, const struct graph_op *op, int s, int64_t v)
{
    cx->syms[s].known = true;
    cx->syms[s].value = v;
    cx->syms[s].how = GRAPH_REFINE_INFERRED;
    cx->syms[s].solved_at = op;
    cx->progress = true;
}

enum base_status graph_rf_unify(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim x, struct rf_dim y,
                                const char *fmt, ...)
{
    x = graph_rf_norm(cx, x);
    y = graph_rf_norm(cx, y);
    if (x.sym == RF_OPAQUE || y.sym == RF_OPAQUE) return BASE_OK;
    if (graph_rf_dim_equal(cx, x, y)) return BASE_OK;
    if (x.sym >= 0 && y.sym >= 0 && x.sym != y.sym) return BASE_OK; /* a relation between two unknowns */
    if (rf_is_const(x) && !rf_is_const(y)) {
        struct rf_dim t = x;
        x = y;
        y = t;
    }
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char bx[96], by[96], nm[64];
    if (!rf_is_const(x)) {
        /* a*s + c == y: a*s = y - c (y constant, or the same symbol's) */
        int64_t num = y.c - x.c, den = x.a - (y.sym >= 0 ? y.a : 0);
        if (den != 0 && num % den == 0 && num / den >= 0) {
            solve(cx, op, x.sym, num / den);
            return BASE_OK;
        }
        return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                             "%s differ: %s and %s, which no value of dimension argument %s makes equal", what,
                             graph_rf_dim_str(cx, x, bx, sizeof bx), graph_rf_dim_str(cx, y, by, sizeof by),
                             sym_name(cx, x.sym, nm, sizeof nm));
    }
    char ox[160], oy[160];
    return graph_rf_fail(cx, op, BASE_ERR_INVALID, "%s differ: %s%s and %s%s", what,
                         graph_rf_dim_str(cx, x, bx, sizeof bx), origin(cx, x, ox, sizeof ox),
                         graph_rf_dim_str(cx, y, by, sizeof by), origin(cx, y, oy, sizeof oy));
}

void graph_rf_note_pending(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim d)
{
    d = graph_rf_norm(cx, d);
    if (d.sym < 0) return;
    if (!cx->pending) cx->pending = op;
    int arg = cx->syms[d.sym].arg;
    if (arg < 64) cx->pending_deps |= UINT64_C(1) << arg;
}

/* d as a constant; otherwise the op waits for its symbol (noted). */
static bool need_const(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim d, int64_t *v)
{
    if (graph_rf_get_const(cx, d, v)) return true;
    graph_rf_note_pending(cx, op, d);
    return false;
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

#define MAXL (4 * GRAPH_MAX_RANK)

static int attr_list(const struct graph_op *op, const char *name, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    int n = a ? graph_attr_as_i64_list(a, out, MAXL) : 0;
    return n > MAXL ? -1 : n;
}

static int dict_list(const struct graph_attr *dn, const char *name, int64_t *out)
{
    const struct graph_attr *a = dn ? graph_dict_get(dn, name) : NULL;
    int n = a ? graph_attr_as_i64_list(a, out, MAXL) : 0;
    return n > MAXL ? -1 : n;
}

static bool dict_int(const struct graph_attr *dn, const char *name, int64_t *out)
{
    const struct graph_attr *a = dn ? graph_dict_get(dn, name) : NULL;
    return a && graph_attr_as_i64(a, out);
}

static bool attr_int(const struct graph_op *op, const char *name, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    return a && graph_attr_as_i64(a, out);
}

static bool has(const int64_t *v, int n, int64_t x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */

static enum base_status out_init(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *out, int i, int rank)
{
    if (rank > GRAPH_MAX_RANK) return graph_rf_fail(cx, op, BASE_ERR_LIMIT, "result %d would have rank %d", i, rank);
    return graph_rf_val_init(cx, &out[i], op->results[i].type, rank);
}

static enum base_status out_copy_dims(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *out, int i,
                                      const struct rf_val *from)
{
    TRY(out_init(cx, op, out, i, from->rank));
    for (int d = 0; d < from->rank; d++) out[i].dims[d] = from->dims[d];
    return BASE_OK;
}

/* Result r as its type declares it: an op no rule of which gives shapes,
 * whose result types must then be static. */
static enum base_status declared(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *out, int r)
{
    const struct graph_type *t = op->results[r].type;
    if ((cx->final || cx->single) && !graph_type_is_static(t))
        return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                             "result %d has a dynamic type and no shape rule of refinement gives it", r);
    return graph_rf_val_from_decl(cx, &out[r], t);
}

static enum base_status need_ranked(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in, int i)
{
    if (i >= op->n_operands || !in[i] || in[i]->rank < 0)
        return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "operand %d is not a ranked tensor", i);
    return BASE_OK;
}

static enum base_status need_rank(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in, int i,
                                  int rank)
{
    TRY(need_ranked(cx, op, in, i));
    if (in[i]->rank != rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "operand %d has rank %d, %d expected", i, in[i]->rank, rank);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Rules                                                                     */

/* Elementwise: one shape (scalars broadcast in select and clamp). */
static enum base_status rule_elementwise(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                         struct rf_val *out)
{
    int rank = -1, base = -1;
    for (int i = 0; i < op->n_operands; i++) {
        TRY(need_ranked(cx, op, in, i));
        if (in[i]->rank > rank) {
            rank = in[i]->rank;
            base = i;
        }
    }
    if (base < 0) return graph_rf_val_from_decl(cx, &out[0], op->results[0].type);
    for (int r = 0; r < op->n_results; r++) TRY(out_copy_dims(cx, op, out, r, in[base]));
    for (int i = 0; i < op->n_operands; i++) {
        if (i == base || in[i]->rank == 0) continue;
        if (in[i]->rank != rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "operands %d and %d have ranks %d and %d", base, i, rank,
                                 in[i]->rank);
        for (int d = 0; d < rank; d++)
            TRY(graph_rf_unify(cx, op, in[base]->dims[d], in[i]->dims[d], "dimension %d of operands %d and %d", d, base,
                               i));
    }
    return BASE_OK;
}

static enum base_status rule_bitcast(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                     struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    const struct graph_type *rt = op->results[0].type;
    int wi = base_dtype_bits(in[0]->decl->elem), wo = base_dtype_bits(rt->elem);
    if (wi == wo) return out_copy_dims(cx, op, out, 0, in[0]);
    if (wo < wi) { /* one more dim: wi / wo */
        TRY(out_init(cx, op, out, 0, in[0]->rank + 1));
        for (int d = 0; d < in[0]->rank; d++) out[0].dims[d] = in[0]->dims[d];
        out[0].dims[in[0]->rank] = rf_const(wi / wo);
        return BASE_OK;
    }
    if (in[0]->rank < 1) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "a scalar cannot widen");
    TRY(out_init(cx, op, out, 0, in[0]->rank - 1));
    for (int d = 0; d + 1 < in[0]->rank; d++) out[0].dims[d] = in[0]->dims[d];
    return BASE_OK;
}

/* broadcast_in_dim (dims: the result's, from the type or the shape operand). */
static enum base_status rule_broadcast_in_dim(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                              struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t bd[MAXL];
    int nb = attr_list(op, "broadcast_dimensions", bd);
    if (nb != in[0]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "broadcast_dimensions has %d entries for an operand of rank %d",
                             nb, in[0]->rank);
    if (op->kind == GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM) {
        struct rf_dim dims[GRAPH_MAX_RANK];
        int n = graph_rf_val_dims(cx, op, in[1], dims, GRAPH_MAX_RANK);
        if (n < 0)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                 "output_dimensions is not a 1-D integer tensor of at most rank %d entries",
                                 GRAPH_MAX_RANK);
        TRY(out_init(cx, op, out, 0, n));
        for (int d = 0; d < n; d++) out[0].dims[d] = dims[d];
        if (ro) {
            ro->action = RF_REWRITE;
            ro->kind = GRAPH_OP_BROADCAST_IN_DIM;
        }
    } else {
        TRY(graph_rf_val_from_decl(cx, &out[0], op->results[0].type));
    }
    int rank = out[0].rank;
    for (int i = 0; i < nb; i++) {
        if (bd[i] < 0 || bd[i] >= rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                 "broadcast_dimensions[%d] = %lld is not below the result rank %d", i, (long long)bd[i],
                                 rank);
        int64_t v;
        struct rf_dim od = in[0]->dims[i];
        struct rf_dim *rd = &out[0].dims[bd[i]];
        if (graph_rf_get_const(cx, od, &v) && v == 1) continue;
        if (graph_rf_norm(cx, *rd).sym == RF_OPAQUE && op->kind == GRAPH_OP_BROADCAST_IN_DIM) {
            *rd = od; /* a '?' of the result where the operand's dim is not 1 */
            continue;
        }
        if (rf_is_const(graph_rf_norm(cx, od)))
            TRY(graph_rf_unify(cx, op, od, *rd, "operand dimension %d and result dimension %lld (broadcast_dimensions)",
                               i, (long long)bd[i]));
    }
    return BASE_OK;
}

static enum base_status rule_broadcast(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                       struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t sz[MAXL];
    int n = attr_list(op, "broadcast_sizes", sz);
    if (n < 0) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad broadcast_sizes");
    TRY(out_init(cx, op, out, 0, n + in[0]->rank));
    for (int i = 0; i < n; i++) out[0].dims[i] = rf_const(sz[i]);
    for (int d = 0; d < in[0]->rank; d++) out[0].dims[n + d] = in[0]->dims[d];
    return BASE_OK;
}

static enum base_status rule_concatenate(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                         struct rf_val *out)
{
    int64_t dim;
    if (op->n_operands < 1) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "no operands");
    TRY(need_ranked(cx, op, in, 0));
    if (!attr_int(op, "dimension", &dim) || dim < 0 || dim >= in[0]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "dimension is missing or not below rank %d", in[0]->rank);
    TRY(out_copy_dims(cx, op, out, 0, in[0]));
    for (int i = 1; i < op->n_operands; i++) {
        TRY(need_rank(cx, op, in, i, in[0]->rank));
        for (int d = 0; d < in[0]->rank; d++) {
            if (d == dim)
                out[0].dims[d] = graph_rf_add(cx, out[0].dims[d], in[i]->dims[d]);
            else
                TRY(graph_rf_unify(cx, op, in[0]->dims[d], in[i]->dims[d], "dimension %d of operands 0 and %d", d, i));
        }
    }
    return BASE_OK;
}

/* gather and dynamic_gather (slice sizes from the attribute or operand 2). */
static enum base_status rule_gather(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                    struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(need_ranked(cx, op, in, 1));
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    int64_t offset[MAXL], collapsed[MAXL], obatch[MAXL], sizes[MAXL], ivd;
    int no = dict_list(dn, "offset_dims", offset), nc = dict_list(dn, "collapsed_slice_dims", collapsed);
    int nob = dict_list(dn, "operand_batching_dims", obatch);
    if (!dn || no < 0 || nc < 0 || nob < 0) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dimension_numbers");
    if (!dict_int(dn, "index_vector_dim", &ivd)) ivd = 0; /* the attribute's default */
    int ns;
    struct rf_dim sdims[MAXL];
    if (op->kind == GRAPH_OP_DYNAMIC_GATHER) {
        if (!graph_rf_val_ints(cx, op, in[2], sizes, MAXL, &ns)) {
            /* not known yet: the result's shape waits */
            TRY(graph_rf_val_from_decl(cx, &out[0], op->results[0].type));
            for (int d = 0; d < out[0].rank; d++) out[0].dims[d] = rf_opaque();
            return BASE_OK;
        }
        if (ro) {
            ro->action = RF_REWRITE;
            ro->kind = GRAPH_OP_GATHER;
            ro->n_ints = ns;
            ro->ints = graph_rf_alloc(cx, (size_t)(ns ? ns : 1) * sizeof *ro->ints);
            if (!ro->ints) return BASE_ERR_NOMEM;
            memcpy(ro->ints, sizes, (size_t)ns * sizeof *sizes);
        }
    } else {
        ns = attr_list(op, "slice_sizes", sizes);
    }
    if (ns != in[0]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "slice_sizes has %d entries for an operand of rank %d", ns,
                             in[0]->rank);
    for (int i = 0; i < ns; i++) {
        sdims[i] = rf_const(sizes[i]);
        int64_t od;
        if (graph_rf_get_const(cx, in[0]->dims[i], &od) && (sizes[i] < 0 || sizes[i] > od))
            return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                 "slice_sizes[%d] = %lld is outside [0, %lld], the operand's dimension", i,
                                 (long long)sizes[i], (long long)od);
    }
    int ir = in[1]->rank;
    struct rf_dim batch[GRAPH_MAX_RANK + 1];
    int nbatch = 0;
    for (int d = 0; d < ir; d++)
        if (d != ivd) batch[nbatch++] = in[1]->dims[d];
    int rank = no + nbatch;
    TRY(out_init(cx, op, out, 0, rank));
    int bi = 0, oi = 0;
    for (int d = 0; d < rank; d++) {
        if (has(offset, no, d)) {
            while (oi < ns && (has(collapsed, nc, oi) || has(obatch, nob, oi))) oi++;
            if (oi >= ns) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "more offset_dims than slice dimensions");
            out[0].dims[d] = sdims[oi++];
        } else {
            if (bi >= nbatch) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "result rank does not match the indices");
            out[0].dims[d] = batch[bi++];
        }
    }
    return BASE_OK;
}

static enum base_status rule_iota(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                  struct rf_val *out, struct rf_op *ro)
{
    struct rf_dim dims[GRAPH_MAX_RANK];
    int n = graph_rf_val_dims(cx, op, in[0], dims, GRAPH_MAX_RANK);
    if (n < 0)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                             "output_shape is not a 1-D integer tensor of at most rank %d entries", GRAPH_MAX_RANK);
    TRY(out_init(cx, op, out, 0, n));
    for (int d = 0; d < n; d++) out[0].dims[d] = dims[d];
    if (ro) {
        ro->action = RF_REWRITE;
        ro->kind = GRAPH_OP_IOTA;
    }
    return BASE_OK;
}

/* pad and dynamic_pad: lo + hi + x + (x - 1) * interior. */
static enum base_status rule_pad(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                 struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    int rank = in[0]->rank;
    int64_t lo[MAXL], hi[MAXL], it[MAXL];
    int nl, nh, ni;
    if (op->kind == GRAPH_OP_DYNAMIC_PAD) {
        bool ok = graph_rf_val_ints(cx, op, in[2], lo, MAXL, &nl);
        ok = graph_rf_val_ints(cx, op, in[3], hi, MAXL, &nh) && ok;
        ok = graph_rf_val_ints(cx, op, in[4], it, MAXL, &ni) && ok;
        if (!ok) {
            TRY(out_init(cx, op, out, 0, rank));
            for (int d = 0; d < rank; d++) out[0].dims[d] = rf_opaque();
            return BASE_OK;
        }
    } else {
        nl = attr_list(op, "edge_padding_low", lo);
        nh = attr_list(op, "edge_padding_high", hi);
        ni = attr_list(op, "interior_padding", it);
    }
    if (nl != rank || nh != rank || ni != rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                             "padding lists have %d, %d and %d entries for an operand of rank %d", nl, nh, ni, rank);
    TRY(out_init(cx, op, out, 0, rank));
    for (int d = 0; d < rank; d++) {
        if (it[d] < 0)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "interior_padding[%d] = %lld is negative", d,
                                 (long long)it[d]);
        int64_t x;
        struct rf_dim r;
        if (graph_rf_get_const(cx, in[0]->dims[d], &x)) {
            r = rf_const(lo[d] + hi[d] + x + (x > 0 ? (x - 1) * it[d] : 0));
            if (r.c < 0)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID, "dimension %d would be %lld long", d, (long long)r.c);
        } else { /* x >= 1 assumed */
            r = graph_rf_add(cx, graph_rf_mul(cx, in[0]->dims[d], rf_const(1 + it[d])),
                             rf_const(lo[d] + hi[d] - it[d]));
        }
        out[0].dims[d] = r;
    }
    if (ro && op->kind == GRAPH_OP_DYNAMIC_PAD) {
        ro->action = RF_REWRITE;
        ro->kind = GRAPH_OP_PAD;
        ro->n_ints = 3 * rank;
        ro->ints = graph_rf_alloc(cx, (size_t)(3 * rank + 1) * sizeof *ro->ints);
        if (!ro->ints) return BASE_ERR_NOMEM;
        memcpy(ro->ints, lo, (size_t)rank * sizeof *lo);
        memcpy(ro->ints + rank, hi, (size_t)rank * sizeof *hi);
        memcpy(ro->ints + 2 * rank, it, (size_t)rank * sizeof *it);
    }
    return BASE_OK;
}

/* The count of v's elements as a dim (a product of dims). */
static struct rf_dim val_count(const struct rf_ctx *cx, const struct rf_val *v)
{
    struct rf_dim n = rf_const(1);
    for (int d = 0; d < v->rank; d++) n = graph_rf_mul(cx, n, v->dims[d]);
    return n;
}

/* reshape (a '?' of the result from the element count) and dynamic_reshape. */
static enum base_status rule_reshape(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                     struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    if (op->kind == GRAPH_OP_DYNAMIC_RESHAPE) {
        struct rf_dim dims[GRAPH_MAX_RANK];
        int n = graph_rf_val_dims(cx, op, in[1], dims, GRAPH_MAX_RANK);
        if (n < 0)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                 "output_shape is not a 1-D integer tensor of at most rank %d entries", GRAPH_MAX_RANK);
        TRY(out_init(cx, op, out, 0, n));
        for (int d = 0; d < n; d++) out[0].dims[d] = dims[d];
        if (ro) {
            ro->action = RF_REWRITE;
            ro->kind = GRAPH_OP_RESHAPE;
        }
    } else {
        TRY(graph_rf_val_from_decl(cx, &out[0], op->results[0].type));
        if (out[0].rank < 0) return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "an unranked result");
        int unknown = -1, n_unknown = 0;
        struct rf_dim known = rf_const(1);
        for (int d = 0; d < out[0].rank; d++) {
            if (graph_rf_norm(cx, out[0].dims[d]).sym == RF_OPAQUE) {
                unknown = d;
                n_unknown++;
            } else {
                known = graph_rf_mul(cx, known, out[0].dims[d]);
            }
        }
        if (n_unknown > 1)
            return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                                 "a reshape to a type with %d dynamic dimensions (use dynamic_reshape)", n_unknown);
        if (n_unknown == 1) {
            int64_t k;
            struct rf_dim total = val_count(cx, in[0]);
            if (graph_rf_get_const(cx, known, &k) && k > 0) out[0].dims[unknown] = dim_div(cx, total, k);
            if (graph_rf_norm(cx, out[0].dims[unknown]).sym == RF_OPAQUE) {
                for (int d = 0; d < in[0]->rank; d++) graph_rf_note_pending(cx, op, in[0]->dims[d]);
            }
            return BASE_OK;
        }
    }
    return graph_rf_unify(cx, op, val_count(cx, in[0]), val_count(cx, &out[0]), "element counts of operand and result");
}

static enum base_status rule_slice(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                   struct rf_val *out, const int64_t *start, const int64_t *limit,
                                   const int64_t *stride, int n)
{
    TRY(need_ranked(cx, op, in, 0));
    int rank = in[0]->rank;
    if (n != rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "%d start/limit/stride entries for an operand of rank %d", n,
                             rank);
    TRY(out_init(cx, op, out, 0, rank));
    for (int d = 0; d < rank; d++) {
        int64_t x = -1;
        bool known = graph_rf_get_const(cx, in[0]->dims[d], &x);
        if (stride[d] <= 0 || start[d] < 0 || limit[d] < start[d] || (known && limit[d] > x))
            return graph_rf_fail(cx, op, BASE_ERR_INVALID,
                                 "dimension %d: start %lld, limit %lld, stride %lld do not fit a dimension of %s", d,
                                 (long long)start[d], (long long)limit[d], (long long)stride[d],
                                 known ? (x >= 0 ? "that size" : "?") : "unknown size");
        out[0].dims[d] = rf_const((limit[d] - start[d] + stride[d] - 1) / stride[d]);
    }
    return BASE_OK;
}

/* Whether a and b are the same computation (pure ops of the same kind,
 * attributes and types over the same values). */
static bool same_value(const struct graph_value *a, const struct graph_value *b, int depth)
{
    if (a == b) return true;
    if (depth > 8 || !a->def || !b->def || a->index != b->index || !graph_type_equal(a->type, b->type)) return false;
    const struct graph_op *x = a->def, *y = b->def;
    enum graph_op_cat cat = graph_op_kind_cat(x->kind);
    bool pure = cat == GRAPH_CAT_UNARY || cat == GRAPH_CAT_BINARY || cat == GRAPH_CAT_TERNARY ||
                cat == GRAPH_CAT_SHAPE || x->kind == GRAPH_OP_CONSTANT;
    if (x->kind != y->kind || !pure || x->n_regions || y->n_regions || x->n_operands != y->n_operands ||
        x->n_attrs != y->n_attrs)
        return false;
    for (int i = 0; i < x->n_attrs; i++)
        if (strcmp(x->attrs[i].name, y->attrs[i].name) || !graph_attr_equal(x->attrs[i].value, y->attrs[i].value))
            return false;
    for (int i = 0; i < x->n_operands; i++)
        if (!same_value(x->operands[i], y->operands[i], depth + 1)) return false;
    return true;
}

/* Whether v's elements are known constants (nothing noted either way). */
static bool known_ints(const struct rf_ctx *cx, const struct rf_val *v)
{
    return v && v->elems && v->n_elems <= MAXL && graph_rf_val_elems_const(cx, v);
}

/* real_dynamic_slice: a slice when start, limit and strides fold; a
 * dynamic_slice when limit = start + constant with unit strides (upstream's
 * two forms). */
static enum base_status rule_real_dynamic_slice(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                                struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    int rank = in[0]->rank;
    int64_t v[3][MAXL];
    int n[3];
    /* the start indices matter only to the first form: looked at first, so
     * that a start computed at run time is not taken for a shape */
    bool ok = known_ints(cx, in[1]) && known_ints(cx, in[2]) && known_ints(cx, in[3]);
    for (int k = 0; ok && k < 3; k++) ok = graph_rf_val_ints(cx, op, in[1 + k], v[k], MAXL, &n[k]);
    if (!graph_rf_val_ints(cx, op, in[3], v[2], MAXL, &n[2])) n[2] = -1;
    if (ok) {
        if (n[0] != n[1] || n[1] != n[2])
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "start_indices, limit_indices and strides differ in length");
        TRY(rule_slice(cx, op, in, out, v[0], v[1], v[2], n[0]));
        if (ro) {
            ro->action = RF_REWRITE;
            ro->kind = GRAPH_OP_SLICE;
            ro->n_ints = 3 * rank;
            ro->ints = graph_rf_alloc(cx, (size_t)(3 * rank + 1) * sizeof *ro->ints);
            if (!ro->ints) return BASE_ERR_NOMEM;
            for (int k = 0; k < 3; k++) memcpy(ro->ints + k * rank, v[k], (size_t)rank * sizeof(int64_t));
        }
        return BASE_OK;
    }
    /* limit = add(start, sizes) or add(sizes, start), the sizes folded and
     * start the same computation as the start indices (JAX computes it twice) */
    const struct graph_value *lim = op->operands[2], *start = op->operands[1];
    const struct graph_op *add = lim->def;
    const struct graph_value *c = NULL;
    if (add && add->kind == GRAPH_OP_ADD && add->n_operands == 2) {
        if (same_value(add->operands[0], start, 0))
            c = add->operands[1];
        else if (same_value(add->operands[1], start, 0))
            c = add->operands[0];
    }
    int64_t sizes[MAXL];
    int ns = -1;
    const struct rf_val *cv = c && cx->val_of ? cx->val_of(cx, c) : NULL;
    if (cv && cv->elems && cv->n_elems <= MAXL) {
        if (!graph_rf_val_ints(cx, op, cv, sizes, MAXL, &ns)) ns = -2; /* waits for a dimension argument */
    } else if (c && c->def && c->def->kind == GRAPH_OP_CONSTANT) {
        ns = graph_attr_as_i64_list(graph_op_attr(c->def, "value"), sizes, MAXL);
    }
    if (ns == -1) { /* neither form: the op waits for what its operands need */
        for (int k = 0; k < 2; k++) graph_rf_val_ints(cx, op, in[1 + k], v[k], MAXL, &n[k]);
    }
    if (ns == rank && n[2] == rank) {
        for (int d = 0; d < rank; d++)
            if (v[2][d] != 1) ns = -1;
    } else if (ns == rank && n[2] != rank) {
        ns = -1; /* strides not known */
    }
    TRY(out_init(cx, op, out, 0, rank));
    if (ns != rank) {
        for (int d = 0; d < rank; d++) out[0].dims[d] = rf_opaque();
        return BASE_OK;
    }
    for (int d = 0; d < rank; d++) {
        if (sizes[d] < 0) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "slice size %d is negative", d);
        out[0].dims[d] = rf_const(sizes[d]);
    }
    if (ro) {
        ro->action = RF_REWRITE;
        ro->kind = GRAPH_OP_DYNAMIC_SLICE;
        ro->n_ints = rank;
        ro->ints = graph_rf_alloc(cx, (size_t)(rank + 1) * sizeof *ro->ints);
        if (!ro->ints) return BASE_ERR_NOMEM;
        memcpy(ro->ints, sizes, (size_t)rank * sizeof *sizes);
    }
    return BASE_OK;
}

static enum base_status rule_transpose(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                       struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t perm[MAXL];
    int n = attr_list(op, "permutation", perm);
    if (n != in[0]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "permutation has %d entries for rank %d", n, in[0]->rank);
    TRY(out_init(cx, op, out, 0, n));
    for (int d = 0; d < n; d++) {
        if (perm[d] < 0 || perm[d] >= n) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad permutation");
        out[0].dims[d] = in[0]->dims[perm[d]];
    }
    return BASE_OK;
}

static enum base_status rule_reduce(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                    struct rf_val *out)
{
    int n = op->n_operands / 2;
    int64_t dims[MAXL];
    int nd = attr_list(op, "dimensions", dims);
    if (n < 1 || nd < 0) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad operands or dimensions");
    TRY(need_ranked(cx, op, in, 0));
    int rank = in[0]->rank;
    for (int i = 1; i < n; i++) {
        TRY(need_rank(cx, op, in, i, rank));
        for (int d = 0; d < rank; d++)
            TRY(graph_rf_unify(cx, op, in[0]->dims[d], in[i]->dims[d], "dimension %d of inputs 0 and %d", d, i));
    }
    for (int r = 0; r < op->n_results && r < n; r++) {
        TRY(out_init(cx, op, out, r, rank - nd));
        int k = 0;
        for (int d = 0; d < rank; d++)
            if (!has(dims, nd, d)) {
                if (k >= rank - nd) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dimensions");
                out[r].dims[k++] = in[0]->dims[d];
            }
    }
    return BASE_OK;
}

/* floor((padded - dilated window) / stride) + 1, or 0 */
static struct rf_dim window_out(struct rf_ctx *cx, const struct graph_op *op, struct rf_dim x, int64_t base_dil,
                                int64_t lo, int64_t hi, int64_t win, int64_t win_dil, int64_t stride)
{
    int64_t v;
    if (!need_const(cx, op, x, &v)) return rf_opaque();
    int64_t dilated = v > 0 ? (v - 1) * base_dil + 1 : 0;
    int64_t padded = dilated + lo + hi;
    int64_t wd = win > 0 ? (win - 1) * win_dil + 1 : 0;
    if (stride <= 0) return rf_opaque();
    return rf_const(padded < wd ? 0 : (padded - wd) / stride + 1);
}

static enum base_status padding_matrix(const struct graph_op *op, int n, int64_t *lo, int64_t *hi)
{
    for (int i = 0; i < n; i++) lo[i] = hi[i] = 0;
    const struct graph_attr *p = graph_op_attr(op, "padding");
    if (!p) return BASE_OK;
    int64_t v[2 * MAXL];
    int k = graph_attr_as_i64_list(p, v, 2 * MAXL);
    if (k < 0 && p->kind == GRAPH_ATTR_ELEMENTS && p->u.elements.value) {
        const struct base_tensor *t = p->u.elements.value;
        if (t->count > 2 * MAXL) return BASE_ERR_INVALID;
        k = (int)t->count;
        for (int i = 0; i < k; i++) v[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
    }
    if (k != 2 * n) return k == 0 ? BASE_OK : BASE_ERR_INVALID;
    for (int i = 0; i < n; i++) {
        lo[i] = v[2 * i];
        hi[i] = v[2 * i + 1];
    }
    return BASE_OK;
}

/* An optional list attribute of n entries (absent: dflt each). */
static enum base_status list_or(struct rf_ctx *cx, const struct graph_op *op, const char *name, int n, int64_t dflt,
                                int64_t *out)
{
    int64_t v[MAXL];
    const struct graph_attr *a = graph_op_attr(op, name);
    int k = a ? attr_list(op, name, v) : n;
    if (k != n) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "%s has %d entries, %d expected", name, k, n);
    for (int i = 0; i < n; i++) out[i] = a ? v[i] : dflt;
    return BASE_OK;
}

static enum base_status rule_reduce_window(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                           struct rf_val *out)
{
    int n = op->n_operands / 2;
    TRY(need_ranked(cx, op, in, 0));
    int rank = in[0]->rank;
    int64_t win[MAXL], ws[MAXL], bd[MAXL], wd[MAXL], lo[MAXL], hi[MAXL];
    if (attr_list(op, "window_dimensions", win) != rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "window_dimensions does not have %d entries", rank);
    TRY(list_or(cx, op, "window_strides", rank, 1, ws));
    TRY(list_or(cx, op, "base_dilations", rank, 1, bd));
    TRY(list_or(cx, op, "window_dilations", rank, 1, wd));
    if (padding_matrix(op, rank, lo, hi) != BASE_OK) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad padding");
    for (int r = 0; r < op->n_results && r < n; r++) {
        TRY(need_rank(cx, op, in, r, rank));
        TRY(out_init(cx, op, out, r, rank));
        for (int d = 0; d < rank; d++)
            out[r].dims[d] = window_out(cx, op, in[r]->dims[d], bd[d], lo[d], hi[d], win[d], wd[d], ws[d]);
    }
    return BASE_OK;
}

/* convolution and dynamic_conv (padding from operand 2). */
static enum base_status rule_convolution(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                         struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(need_rank(cx, op, in, 1, in[0]->rank));
    int rank = in[0]->rank, ns = rank - 2;
    const struct graph_attr *dn = graph_op_attr(op, "dimension_numbers");
    int64_t ib, ifd, kif, kof, ob, of, is[MAXL], ks[MAXL], os[MAXL];
    if (!dn || !dict_int(dn, "input_batch_dimension", &ib) || !dict_int(dn, "input_feature_dimension", &ifd) ||
        !dict_int(dn, "kernel_input_feature_dimension", &kif) ||
        !dict_int(dn, "kernel_output_feature_dimension", &kof) || !dict_int(dn, "output_batch_dimension", &ob) ||
        !dict_int(dn, "output_feature_dimension", &of) || dict_list(dn, "input_spatial_dimensions", is) != ns ||
        dict_list(dn, "kernel_spatial_dimensions", ks) != ns || dict_list(dn, "output_spatial_dimensions", os) != ns)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dimension_numbers");
    int64_t lo[MAXL], hi[MAXL], st[MAXL], ld[MAXL], rd[MAXL], bgc = 1, fgc = 1;
    TRY(list_or(cx, op, "window_strides", ns, 1, st));
    TRY(list_or(cx, op, "lhs_dilation", ns, 1, ld));
    TRY(list_or(cx, op, "rhs_dilation", ns, 1, rd));
    attr_int(op, "batch_group_count", &bgc);
    attr_int(op, "feature_group_count", &fgc);
    (void)fgc;
    bool known = true;
    if (op->kind == GRAPH_OP_DYNAMIC_CONV) {
        int64_t pv[2 * MAXL];
        int np;
        known = graph_rf_val_ints(cx, op, in[2], pv, 2 * MAXL, &np);
        if (known && np != 2 * ns)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "padding has %d entries, %d expected", np, 2 * ns);
        for (int i = 0; known && i < ns; i++) {
            lo[i] = pv[2 * i];
            hi[i] = pv[2 * i + 1];
        }
        if (known && ro) {
            ro->action = RF_REWRITE;
            ro->kind = GRAPH_OP_CONVOLUTION;
            ro->n_ints = 2 * ns;
            ro->ints = graph_rf_alloc(cx, (size_t)(2 * ns + 1) * sizeof *ro->ints);
            if (!ro->ints) return BASE_ERR_NOMEM;
            memcpy(ro->ints, pv, (size_t)(2 * ns) * sizeof *pv);
        }
    } else if (padding_matrix(op, ns, lo, hi) != BASE_OK) {
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad padding");
    }
    if (ib < 0 || ib >= rank || kof < 0 || kof >= rank || ob < 0 || ob >= rank || of < 0 || of >= rank || bgc < 1)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dimension_numbers");
    TRY(out_init(cx, op, out, 0, rank));
    out[0].dims[ob] = dim_div(cx, in[0]->dims[ib], bgc);
    out[0].dims[of] = in[1]->dims[kof];
    TRY(graph_rf_unify(cx, op, in[0]->dims[ifd], graph_rf_mul(cx, in[1]->dims[kif], rf_const(fgc)),
                       "the input feature dimension and kernel input features x feature_group_count"));
    for (int i = 0; i < ns; i++) {
        if (os[i] < 0 || os[i] >= rank || is[i] < 0 || is[i] >= rank || ks[i] < 0 || ks[i] >= rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad spatial dimensions");
        int64_t w;
        if (!known || !need_const(cx, op, in[1]->dims[ks[i]], &w)) {
            out[0].dims[os[i]] = rf_opaque();
            continue;
        }
        out[0].dims[os[i]] = window_out(cx, op, in[0]->dims[is[i]], ld[i], lo[i], hi[i], w, rd[i], st[i]);
    }
    return BASE_OK;
}

static enum base_status rule_dot_general(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                         struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(need_ranked(cx, op, in, 1));
    const struct graph_attr *dn = graph_op_attr(op, "dot_dimension_numbers");
    int64_t lb[MAXL], rb[MAXL], lc[MAXL], rc[MAXL];
    int nlb = dict_list(dn, "lhs_batching_dimensions", lb), nrb = dict_list(dn, "rhs_batching_dimensions", rb);
    int nlc = dict_list(dn, "lhs_contracting_dimensions", lc), nrc = dict_list(dn, "rhs_contracting_dimensions", rc);
    if (nlb < 0 || nlb != nrb || nlc < 0 || nlc != nrc)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dot_dimension_numbers");
    const struct rf_val *l = in[0], *r = in[1];
    for (int i = 0; i < nlb; i++) {
        if (lb[i] < 0 || lb[i] >= l->rank || rb[i] < 0 || rb[i] >= r->rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad batching dimensions");
        TRY(graph_rf_unify(cx, op, l->dims[lb[i]], r->dims[rb[i]], "batching dimensions %lld (lhs) and %lld (rhs)",
                           (long long)lb[i], (long long)rb[i]));
    }
    for (int i = 0; i < nlc; i++) {
        if (lc[i] < 0 || lc[i] >= l->rank || rc[i] < 0 || rc[i] >= r->rank)
            return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad contracting dimensions");
        TRY(graph_rf_unify(cx, op, l->dims[lc[i]], r->dims[rc[i]], "contracting dimensions %lld (lhs) and %lld (rhs)",
                           (long long)lc[i], (long long)rc[i]));
    }
    int rank = l->rank + r->rank - nlb - nlc - nrc;
    TRY(out_init(cx, op, out, 0, rank));
    int k = 0;
    for (int i = 0; i < nlb; i++) out[0].dims[k++] = l->dims[lb[i]];
    for (int d = 0; d < l->rank; d++)
        if (!has(lb, nlb, d) && !has(lc, nlc, d)) out[0].dims[k++] = l->dims[d];
    for (int d = 0; d < r->rank; d++)
        if (!has(rb, nrb, d) && !has(rc, nrc, d)) out[0].dims[k++] = r->dims[d];
    return BASE_OK;
}

static enum base_status rule_dot(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                 struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(need_ranked(cx, op, in, 1));
    const struct rf_val *l = in[0], *r = in[1];
    if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "operands of ranks %d and %d", l->rank, r->rank);
    TRY(graph_rf_unify(cx, op, l->dims[l->rank - 1], r->dims[0], "contracting dimensions"));
    TRY(out_init(cx, op, out, 0, (l->rank - 1) + (r->rank - 1)));
    int k = 0;
    if (l->rank == 2) out[0].dims[k++] = l->dims[0];
    if (r->rank == 2) out[0].dims[k++] = r->dims[1];
    return BASE_OK;
}

static enum base_status rule_torch_index_select(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                                struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(need_ranked(cx, op, in, 1));
    int64_t dim = 0, bd = 0;
    attr_int(op, "dim", &dim);
    attr_int(op, "batch_dims", &bd);
    if (dim < 0 || dim >= in[0]->rank || bd < 0 || bd > in[1]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad dim or batch_dims");
    int rank = in[0]->rank - 1 + in[1]->rank - (int)bd;
    TRY(out_init(cx, op, out, 0, rank));
    int k = 0;
    for (int d = 0; d < dim; d++) out[0].dims[k++] = in[0]->dims[d];
    for (int d = (int)bd; d < in[1]->rank; d++) out[0].dims[k++] = in[1]->dims[d];
    for (int d = (int)dim + 1; d < in[0]->rank; d++) out[0].dims[k++] = in[0]->dims[d];
    return BASE_OK;
}

/* Every result shaped as operand `from` (sort, scatter's inputs, map, ...). */
static enum base_status rule_like(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                  struct rf_val *out, int from, bool per_operand)
{
    for (int r = 0; r < op->n_results; r++) {
        int i = per_operand ? from + r : from;
        if (i >= op->n_operands || !in[i] || in[i]->rank < 0) {
            TRY(graph_rf_val_from_decl(cx, &out[r], op->results[r].type));
            continue;
        }
        TRY(out_copy_dims(cx, op, out, r, in[i]));
    }
    return BASE_OK;
}

static int group_size(const struct graph_op *op)
{
    const struct graph_attr *g = graph_op_attr(op, "replica_groups");
    if (!g || g->kind != GRAPH_ATTR_ELEMENTS || !g->u.elements.type || g->u.elements.type->rank != 2) return -1;
    return (int)g->u.elements.type->dims[1];
}

static enum base_status rule_collective(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                        struct rf_val *out)
{
    int64_t dim = -1, dim2 = -1, count = 0;
    int64_t gs = group_size(op);
    switch (op->kind) {
    case GRAPH_OP_ALL_GATHER:
        attr_int(op, "all_gather_dim", &dim);
        count = gs;
        break;
    case GRAPH_OP_REDUCE_SCATTER:
        attr_int(op, "scatter_dimension", &dim);
        count = -gs;
        break;
    case GRAPH_OP_ALL_TO_ALL:
        attr_int(op, "split_dimension", &dim);
        attr_int(op, "concat_dimension", &dim2);
        attr_int(op, "split_count", &count);
        break;
    default: return rule_like(cx, op, in, out, 0, true);
    }
    for (int r = 0; r < op->n_results; r++) {
        if (r >= op->n_operands || !in[r] || in[r]->rank < 0) {
            TRY(graph_rf_val_from_decl(cx, &out[r], op->results[r].type));
            continue;
        }
        TRY(out_copy_dims(cx, op, out, r, in[r]));
        if (dim < 0 || dim >= in[r]->rank || count == 0) {
            if (!graph_type_is_static(op->results[r].type))
                return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED, "the group size is not known");
            TRY(graph_rf_val_from_decl(cx, &out[r], op->results[r].type));
            continue;
        }
        if (op->kind == GRAPH_OP_ALL_TO_ALL) {
            out[r].dims[dim] = dim_div(cx, out[r].dims[dim], count);
            if (dim2 >= 0 && dim2 < in[r]->rank)
                out[r].dims[dim2] = graph_rf_mul(cx, out[r].dims[dim2], rf_const(count));
        } else if (count > 0) {
            out[r].dims[dim] = graph_rf_mul(cx, out[r].dims[dim], rf_const(count));
        } else {
            out[r].dims[dim] = dim_div(cx, out[r].dims[dim], -count);
        }
    }
    return BASE_OK;
}

static enum base_status rule_batch_norm(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                        struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t f = -1;
    attr_int(op, "feature_index", &f);
    if (f < 0 || f >= in[0]->rank) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad feature_index");
    TRY(out_copy_dims(cx, op, out, 0, in[0]));
    for (int r = 1; r < op->n_results; r++) {
        TRY(out_init(cx, op, out, r, 1));
        out[r].dims[0] = in[0]->dims[f];
    }
    return BASE_OK;
}

static enum base_status rule_fft(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                 struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    TRY(out_copy_dims(cx, op, out, 0, in[0]));
    int64_t len[MAXL];
    int n = attr_list(op, "fft_length", len);
    const struct graph_attr *t = graph_op_attr(op, "fft_type");
    if (n < 1 || n > in[0]->rank) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad fft_length");
    int last = in[0]->rank - 1;
    if (graph_attr_is_keyword(t, "RFFT"))
        out[0].dims[last] = rf_const(len[n - 1] / 2 + 1);
    else if (graph_attr_is_keyword(t, "IRFFT"))
        out[0].dims[last] = rf_const(len[n - 1]);
    return BASE_OK;
}

static enum base_status rule_top_k(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                   struct rf_val *out)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t k;
    if (!attr_int(op, "k", &k) || in[0]->rank < 1) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad k");
    for (int r = 0; r < op->n_results; r++) {
        TRY(out_copy_dims(cx, op, out, r, in[0]));
        out[r].dims[in[0]->rank - 1] = rf_const(k);
    }
    return BASE_OK;
}

static enum base_status rule_set_dimension_size(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                                struct rf_val *out, struct rf_op *ro)
{
    TRY(need_ranked(cx, op, in, 0));
    int64_t dim;
    if (!attr_int(op, "dimension", &dim) || dim < 0 || dim >= in[0]->rank)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "dimension is missing or not below rank %d", in[0]->rank);
    TRY(out_copy_dims(cx, op, out, 0, in[0]));
    const struct graph_type *rt = op->results[0].type;
    if (rt->kind == GRAPH_TYPE_TENSOR && rt->rank == in[0]->rank && rt->dims[dim] != GRAPH_DYN) {
        out[0].dims[dim] = rf_const(rt->dims[dim]); /* a static result keeps its size */
        return BASE_OK;
    }
    struct rf_dim size[1];
    if (graph_rf_val_dims(cx, op, in[1], size, 1) != 1)
        return graph_rf_fail(cx, op, BASE_ERR_INVALID, "size is not an integer scalar");
    out[0].dims[dim] = size[0];
    int64_t s;
    if (ro && graph_rf_get_const(cx, size[0], &s)) {
        ro->action = RF_REWRITE;
        ro->kind = GRAPH_OP_SET_DIMENSION_SIZE;
        ro->n_ints = 2;
        ro->ints = graph_rf_alloc(cx, 2 * sizeof *ro->ints);
        if (!ro->ints) return BASE_ERR_NOMEM;
        ro->ints[0] = dim;
        ro->ints[1] = s;
    }
    return BASE_OK;
}

/* The message of a failing shape assertion, {i} replaced by its i-th value. */
static void assertion_message(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in, char *buf,
                              size_t cap)
{
    const struct graph_attr *m = graph_op_attr(op, "error_message");
    const char *s = m && m->kind == GRAPH_ATTR_STRING ? m->u.str.s : "shape assertion failed";
    size_t len = m && m->kind == GRAPH_ATTR_STRING ? m->u.str.len : strlen(s), o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        if (s[i] == '{' && i + 2 < len && s[i + 1] >= '0' && s[i + 1] <= '9') {
            size_t j = i + 1;
            int k = 0;
            while (j < len && s[j] >= '0' && s[j] <= '9') k = k * 10 + (s[j++] - '0');
            int64_t v;
            int n;
            if (j < len && s[j] == '}' && 1 + k < op->n_operands && graph_rf_val_ints(cx, op, in[1 + k], &v, 1, &n) &&
                n == 1) {
                o += (size_t)snprintf(buf + o, cap - o, "%lld", (long long)v);
                if (o >= cap) o = cap - 1;
                i = j;
                continue;
            }
        }
        buf[o++] = s[i];
    }
    buf[o] = 0;
}

static enum base_status rule_custom_call(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                         struct rf_val *out, struct rf_op *ro)
{
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    const char *target = t && (t->kind == GRAPH_ATTR_STRING || t->kind == GRAPH_ATTR_SYMBOL) ? t->u.str.s : "";
    if (!strcmp(target, "shape_assertion")) {
        int64_t ok;
        int n;
        if (op->n_operands < 1) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "@shape_assertion without a predicate");
        if (!graph_rf_val_ints(cx, op, in[0], &ok, 1, &n)) {
            if (cx->final || cx->single)
                return graph_rf_fail(cx, op, BASE_ERR_UNSUPPORTED,
                                     "@shape_assertion: the predicate is computed at run time, not from shapes");
            return BASE_OK;
        }
        if (n != 1 || !ok) {
            char msg[300];
            assertion_message(cx, op, in, msg, sizeof msg);
            return graph_rf_fail(cx, op, BASE_ERR_CHECK, "@shape_assertion failed: %s", msg);
        }
        if (ro) ro->action = RF_DROP;
        return BASE_OK;
    }
    if (!strcmp(target, "stablehlo.shape_refinement_operand_wrapper") && op->n_operands >= 2 && op->n_results == 1) {
        TRY(need_ranked(cx, op, in, 0));
        TRY(out_copy_dims(cx, op, out, 0, in[0]));
        struct rf_dim dims[GRAPH_MAX_RANK];
        int n = graph_rf_val_dims(cx, op, in[1], dims, GRAPH_MAX_RANK);
        if (n == in[0]->rank)
            for (int d = 0; d < n; d++)
                TRY(graph_rf_unify(cx, op, in[0]->dims[d], dims[d], "dimension %d of the operand and of its shape", d));
        if (ro) {
            ro->action = RF_FORWARD;
            ro->forward = 0;
        }
        return BASE_OK;
    }
    int64_t idx[MAXL];
    int ni = attr_list(op, "indices_of_shape_operands", idx);
    for (int r = 0; r < op->n_results; r++) {
        if (ni == op->n_results && idx[r] >= 0 && idx[r] < op->n_operands) {
            struct rf_dim dims[GRAPH_MAX_RANK];
            int n = graph_rf_val_dims(cx, op, in[idx[r]], dims, GRAPH_MAX_RANK);
            if (n < 0)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID, "shape operand %lld is not a 1-D integer tensor",
                                     (long long)idx[r]);
            TRY(out_init(cx, op, out, r, n));
            for (int d = 0; d < n; d++) out[r].dims[d] = dims[d];
        } else {
            TRY(declared(cx, op, out, r));
        }
    }
    return BASE_OK;
}

enum base_status graph_rf_infer(struct rf_ctx *cx, const struct graph_op *op, struct rf_val *const *in,
                                struct rf_val *out, struct rf_op *ro)
{
    enum base_status st;
    if (ro) ro->action = RF_KEEP;
    if (graph_op_kind_has(op->kind, GRAPH_OPF_ELEMENTWISE) && op->n_results >= 1) {
        st = rule_elementwise(cx, op, in, out);
    } else {
        switch (op->kind) {
        case GRAPH_OP_BITCAST_CONVERT: st = rule_bitcast(cx, op, in, out); break;
        case GRAPH_OP_BROADCAST_IN_DIM:
        case GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM: st = rule_broadcast_in_dim(cx, op, in, out, ro); break;
        case GRAPH_OP_BROADCAST: st = rule_broadcast(cx, op, in, out); break;
        case GRAPH_OP_CONCATENATE: st = rule_concatenate(cx, op, in, out); break;
        case GRAPH_OP_GATHER:
        case GRAPH_OP_DYNAMIC_GATHER: st = rule_gather(cx, op, in, out, ro); break;
        case GRAPH_OP_DYNAMIC_IOTA: st = rule_iota(cx, op, in, out, ro); break;
        case GRAPH_OP_PAD:
        case GRAPH_OP_DYNAMIC_PAD: st = rule_pad(cx, op, in, out, ro); break;
        case GRAPH_OP_RESHAPE:
        case GRAPH_OP_DYNAMIC_RESHAPE: st = rule_reshape(cx, op, in, out, ro); break;
        case GRAPH_OP_SLICE: {
            int64_t s[MAXL], l[MAXL], k[MAXL];
            int n = attr_list(op, "start_indices", s);
            if (attr_list(op, "limit_indices", l) != n)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID, "bad limit_indices");
            TRY(list_or(cx, op, "strides", n, 1, k));
            st = rule_slice(cx, op, in, out, s, l, k, n);
            break;
        }
        case GRAPH_OP_REAL_DYNAMIC_SLICE: st = rule_real_dynamic_slice(cx, op, in, out, ro); break;
        case GRAPH_OP_DYNAMIC_SLICE: {
            TRY(need_ranked(cx, op, in, 0));
            int64_t sz[MAXL];
            int n = attr_list(op, "slice_sizes", sz);
            if (n != in[0]->rank)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID, "slice_sizes has %d entries for rank %d", n,
                                     in[0]->rank);
            TRY(out_init(cx, op, out, 0, n));
            for (int d = 0; d < n; d++) out[0].dims[d] = rf_const(sz[d]);
            st = BASE_OK;
            break;
        }
        case GRAPH_OP_GET_DIMENSION_SIZE: {
            TRY(need_ranked(cx, op, in, 0));
            int64_t dim;
            if (!attr_int(op, "dimension", &dim) || dim < 0 || dim >= in[0]->rank)
                return graph_rf_fail(cx, op, BASE_ERR_INVALID, "dimension is missing or not below rank %d",
                                     in[0]->rank);
            TRY(out_init(cx, op, out, 0, 0));
            out[0].elems = graph_rf_alloc(cx, sizeof *out[0].elems);
            if (!out[0].elems) return BASE_ERR_NOMEM;
            out[0].elems[0] = graph_rf_norm(cx, in[0]->dims[dim]);
            out[0].n_elems = 1;
            out[0].from_shape = true;
            return BASE_OK;
        }
        case GRAPH_OP_SET_DIMENSION_SIZE: st = rule_set_dimension_size(cx, op, in, out, ro); break;
        case GRAPH_OP_TRANSPOSE: st = rule_transpose(cx, op, in, out); break;
        case GRAPH_OP_TORCH_INDEX_SELECT: st = rule_torch_index_select(cx, op, in, out); break;
        case GRAPH_OP_REVERSE:
        case GRAPH_OP_DYNAMIC_UPDATE_SLICE:
        case GRAPH_OP_SELECT_AND_SCATTER:
        case GRAPH_OP_CHOLESKY:
        case GRAPH_OP_UNIFORM_QUANTIZE:
        case GRAPH_OP_UNIFORM_DEQUANTIZE:
        case GRAPH_OP_BATCH_NORM_INFERENCE:
        case GRAPH_OP_MAP:
        case GRAPH_OP_INTERP_PROBE: st = rule_like(cx, op, in, out, 0, false); break;
        case GRAPH_OP_TRIANGULAR_SOLVE: st = rule_like(cx, op, in, out, 1, false); break;
        case GRAPH_OP_SORT:
        case GRAPH_OP_SCATTER:
        case GRAPH_OP_OPTIMIZATION_BARRIER:
        case GRAPH_OP_SDY_SHARDING_CONSTRAINT:
        case GRAPH_OP_SDY_RESHARD:
        case GRAPH_OP_SDY_PROPAGATION_BARRIER:
        case GRAPH_OP_MHLO_COPY: st = rule_like(cx, op, in, out, 0, true); break;
        case GRAPH_OP_REDUCE: st = rule_reduce(cx, op, in, out); break;
        case GRAPH_OP_REDUCE_WINDOW: st = rule_reduce_window(cx, op, in, out); break;
        case GRAPH_OP_CONVOLUTION:
        case GRAPH_OP_DYNAMIC_CONV: st = rule_convolution(cx, op, in, out, ro); break;
        case GRAPH_OP_DOT_GENERAL: st = rule_dot_general(cx, op, in, out); break;
        case GRAPH_OP_DOT: st = rule_dot(cx, op, in, out); break;
        case GRAPH_OP_FFT: st = rule_fft(cx, op, in, out); break;
        case GRAPH_OP_CHLO_TOP_K: st = rule_top_k(cx, op, in, out); break;
        case GRAPH_OP_BATCH_NORM_TRAINING:
        case GRAPH_OP_BATCH_NORM_GRAD: st = rule_batch_norm(cx, op, in, out); break;
        case GRAPH_OP_ALL_GATHER:
        case GRAPH_OP_ALL_REDUCE:
        case GRAPH_OP_ALL_TO_ALL:
        case GRAPH_OP_REDUCE_SCATTER:
        case GRAPH_OP_COLLECTIVE_PERMUTE:
        case GRAPH_OP_COLLECTIVE_BROADCAST:
        case GRAPH_OP_CROSS_REPLICA_SUM: st = rule_collective(cx, op, in, out); break;
        case GRAPH_OP_RNG: {
            struct rf_dim dims[GRAPH_MAX_RANK];
            int n = op->n_operands >= 3 ? graph_rf_val_dims(cx, op, in[2], dims, GRAPH_MAX_RANK) : -1;
            if (n < 0) return graph_rf_fail(cx, op, BASE_ERR_INVALID, "shape is not a 1-D integer tensor");
            TRY(out_init(cx, op, out, 0, n));
            for (int d = 0; d < n; d++) out[0].dims[d] = dims[d];
            st = BASE_OK;
            break;
        }
        case GRAPH_OP_CUSTOM_CALL: st = rule_custom_call(cx, op, in, out, ro); break;
        default:
            /* the declared types: constants, iota, tokens, tuples, rng_bit_generator, ... */
            for (int r = 0; r < op->n_results; r++) TRY(declared(cx, op, out, r));
            st = BASE_OK;
            break;
        }
    }
    if (st != BASE_OK) return st;
    for (int r = 0; r < op->n_results; r++)
        if (!out[r].decl) TRY(graph_rf_val_from_decl(cx, &out[r], op->results[r].type));
    if (op->n_results >= 1) TRY(graph_rf_fold(cx, op, in, out));
    return BASE_OK;
}
