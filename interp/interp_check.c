/* The test-harness ops of the StableHLO suites: check.expect_* (and their
 * custom_call @check.* spellings), interpreter.probe and interpreter.print.
 * Semantics: ../shared/conformance/NOTES.md. */
#include "interp/interp_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum cmp_mode { CMP_EQ, CMP_ALMOST, CMP_CLOSE };

struct cmp_rule {
    enum cmp_mode mode;
    double tolerance;      /* CMP_ALMOST */
    uint64_t min_ulp, max_ulp; /* CMP_CLOSE */
};

/* ULP distance between two finite-or-not floats of dtype dt, given as raw
 * storage bits: |bits(|a|) - bits(|b|)| with the same sign, their sum when the
 * signs differ.  NaN vs NaN is 0; NaN vs number and inf vs other is "far". */
static uint64_t ulp_distance(enum base_dtype dt, uint64_t a, uint64_t b)
{
    const struct base_float_format *f = base_float_format(dt);
    double da = base_float_f64_from_bits(dt, a), db = base_float_f64_from_bits(dt, b);
    if (isnan(da) || isnan(db)) return isnan(da) && isnan(db) ? 0 : UINT64_MAX;
    if (isinf(da) || isinf(db)) return da == db ? 0 : UINT64_MAX;
    if (!f->has_sign) return a > b ? a - b : b - a;
    int bits = base_dtype_bits(dt);
    uint64_t sign = UINT64_C(1) << (bits - 1);
    uint64_t ma = a & (sign - 1), mb = b & (sign - 1);
    bool sa = (a & sign) != 0, sb = (b & sign) != 0;
    if (sa == sb) return ma > mb ? ma - mb : mb - ma;
    return ma + mb;
}

static bool float_eq(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static bool almost(double a, double b, double tol)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b)) return a == b;
    return fabs(a - b) <= tol;
}

/* Compares element i; on mismatch writes a description into why. */
static bool elem_matches(const struct cmp_rule *r, enum base_dtype dt, const void *a, const void *b, size_t i,
                         char *why, size_t cap)
{
    enum base_dtype_kind k = base_dtype_kind(dt);
    if (k == BASE_KIND_BOOL || k == BASE_KIND_SINT || k == BASE_KIND_UINT) {
        uint64_t x = base_elem_get_bits(dt, a, i), y = base_elem_get_bits(dt, b, i);
        if (x == y) return true;
        if (k == BASE_KIND_UINT)
            snprintf(why, cap, "%llu (actual) vs %llu (expected)", (unsigned long long)base_elem_get_u64(dt, a, i),
                     (unsigned long long)base_elem_get_u64(dt, b, i));
        else
            snprintf(why, cap, "%lld (actual) vs %lld (expected)", (long long)base_elem_get_i64(dt, a, i),
                     (long long)base_elem_get_i64(dt, b, i));
        return false;
    }
    if (k == BASE_KIND_COMPLEX) {
        double ar, ai, br, bi;
        base_elem_get_c128(dt, a, i, &ar, &ai);
        base_elem_get_c128(dt, b, i, &br, &bi);
        bool ok;
        if (r->mode == CMP_ALMOST) {
            ok = almost(ar, br, r->tolerance) && almost(ai, bi, r->tolerance);
        } else if (r->mode == CMP_CLOSE) {
            enum base_dtype c = base_dtype_component(dt);
            uint64_t d1 = ulp_distance(c, base_float_bits_from_f64(c, ar), base_float_bits_from_f64(c, br));
            uint64_t d2 = ulp_distance(c, base_float_bits_from_f64(c, ai), base_float_bits_from_f64(c, bi));
            uint64_t d = d1 > d2 ? d1 : d2;
            ok = d >= r->min_ulp && d <= r->max_ulp;
        } else {
            ok = float_eq(ar, br) && float_eq(ai, bi);
        }
        if (!ok)
            snprintf(why, cap, "(%.17g, %.17g) (actual) vs (%.17g, %.17g) (expected)", ar, ai, br, bi);
        return ok;
    }
    double x = base_elem_get_f64(dt, a, i), y = base_elem_get_f64(dt, b, i);
    bool ok;
    if (r->mode == CMP_ALMOST) {
        ok = almost(x, y, r->tolerance);
    } else if (r->mode == CMP_CLOSE) {
        uint64_t d = ulp_distance(dt, base_elem_get_bits(dt, a, i), base_elem_get_bits(dt, b, i));
        ok = d >= r->min_ulp && d <= r->max_ulp;
        if (!ok) {
            if (d == UINT64_MAX)
                snprintf(why, cap, "%.17g (actual) vs %.17g (expected)", x, y);
            else
                snprintf(why, cap, "%.17g (actual) vs %.17g (expected), %llu ULP apart (allowed %llu..%llu)", x, y,
                         (unsigned long long)d, (unsigned long long)r->min_ulp, (unsigned long long)r->max_ulp);
            return false;
        }
    } else {
        ok = float_eq(x, y);
    }
    if (!ok) snprintf(why, cap, "%.17g (actual) vs %.17g (expected)", x, y);
    return ok;
}

/* Runs one comparison and records it; returns whether it passed. */
static bool compare(struct interp_proc *p, const struct graph_op *op, const char *what, const struct cmp_rule *r,
                    const struct base_tensor *actual, const struct base_tensor *expected)
{
    char as[96], es[96];
    base_tensor_type_str(actual, as, sizeof as);
    base_tensor_type_str(expected, es, sizeof es);
    bool same_shape = actual->rank == expected->rank && actual->count == expected->count;
    for (int d = 0; same_shape && d < actual->rank; d++) same_shape = actual->dims[d] == expected->dims[d];
    if (!same_shape || actual->dtype != expected->dtype) {
        interp_record_check(p, op, false, "%s: type mismatch: %s (actual) vs %s (expected)", what, as, es);
        return false;
    }
    char why[200];
    for (int64_t i = 0; i < actual->count; i++) {
        if (!elem_matches(r, actual->dtype, actual->data, expected->data, (size_t)i, why, sizeof why)) {
            int64_t idx[BASE_MAX_RANK];
            char at[96] = "";
            size_t n = 0;
            interp_index_from_linear(actual->rank, actual->dims, i, idx);
            for (int d = 0; d < actual->rank && n < sizeof at; d++)
                n += (size_t)snprintf(at + n, sizeof at - n, "%s%lld", d ? "," : "", (long long)idx[d]);
            interp_record_check(p, op, false, "%s: element [%s] of %s: %s", what, at, as, why);
            return false;
        }
    }
    interp_record_check(p, op, true, "%s", what);
    return true;
}

static double attr_f64(const struct graph_op *op, const char *name, double dflt)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) return dflt;
    if (a->kind == GRAPH_ATTR_FLOAT) return a->u.f;
    if (a->kind == GRAPH_ATTR_INT) return (double)a->u.i;
    return dflt;
}

static uint64_t attr_u64(const struct graph_op *op, const char *name, uint64_t dflt)
{
    int64_t v;
    return graph_attr_as_i64(graph_op_attr(op, name), &v) ? (uint64_t)v : dflt;
}

static enum base_status operand_tensors(struct interp_proc *p, const struct graph_op *op,
                                        struct interp_value *const *in, int n, const struct base_tensor **t)
{
    if (op->n_operands < n) return interp_fail(p, op, BASE_ERR_INVALID, "needs %d operands", n);
    for (int i = 0; i < n; i++) {
        t[i] = iv_t(in[i]);
        if (!t[i]) return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is not a tensor", i);
    }
    return BASE_OK;
}

static enum base_status const_value(struct interp_proc *p, const struct graph_op *op, const struct base_tensor **t)
{
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS || !v->u.elements.value)
        return interp_fail(p, op, BASE_ERR_INVALID, "missing expected value");
    *t = v->u.elements.value;
    return BASE_OK;
}

static enum base_status k_check(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    (void)out;
    const struct base_tensor *t[2] = {NULL, NULL};
    struct cmp_rule r = {CMP_EQ, 0, 0, 0};
    bool is_const = op->kind == GRAPH_OP_CHECK_EXPECT_EQ_CONST || op->kind == GRAPH_OP_CHECK_EXPECT_ALMOST_EQ_CONST;
    TRY(operand_tensors(p, op, in, is_const ? 1 : 2, t));
    if (is_const) TRY(const_value(p, op, &t[1]));
    switch (op->kind) {
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ:
    case GRAPH_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
        r.mode = CMP_ALMOST;
        r.tolerance = attr_f64(op, "tolerance", 1e-4);
        break;
    case GRAPH_OP_CHECK_EXPECT_CLOSE:
        r.mode = CMP_CLOSE;
        r.min_ulp = attr_u64(op, "min_ulp_difference", 0);
        r.max_ulp = attr_u64(op, "max_ulp_difference", 3);
        break;
    default:
        break;
    }
    compare(p, op, op->name, &r, t[0], t[1]);
    return BASE_OK;
}

enum base_status interp_check_custom_call(struct interp_proc *p, const struct graph_op *op, const char *target,
                                          size_t len, struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *t[2];
    struct cmp_rule r = {CMP_EQ, 0, 0, 3};
    char what[64];
    snprintf(what, sizeof what, "custom_call @check.%.*s", (int)len, target);
#define IS(s) (len == sizeof(s) - 1 && !memcmp(target, s, len))
    if (IS("expect_eq")) {
        r.mode = CMP_EQ;
    } else if (IS("expect_close")) {
        r.mode = CMP_CLOSE;
    } else if (IS("expect_almost_eq")) {
        r.mode = CMP_ALMOST;
        r.tolerance = 1e-3;
    } else if (IS("eq")) {
        /* quantized suite: ints exact, floats within 1e-4; returns tensor<i1> */
        TRY(operand_tensors(p, op, in, 2, t));
        r.mode = base_dtype_is_int(t[1]->dtype) || t[1]->dtype == BASE_DT_I1 ? CMP_EQ : CMP_ALMOST;
        r.tolerance = 1e-4;
        bool ok = compare(p, op, what, &r, t[0], t[1]);
        if (op->n_results > 0) {
            struct base_tensor *res = NULL;
            enum base_status st = base_tensor_create(BASE_DT_I1, 0, NULL, &res);
            if (st != BASE_OK) return interp_fail(p, op, st, "out of memory");
            ((uint8_t *)res->data)[0] = ok;
            TRY(interp_set_out(p, op, out, 0, res));
        }
        return BASE_OK;
    } else {
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "unknown check target @check.%.*s", (int)len, target);
    }
#undef IS
    TRY(operand_tensors(p, op, in, 2, t));
    compare(p, op, what, &r, t[0], t[1]);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* interpreter.probe / check.expect_serialized_eq                            */

struct interp_probe {
    char id[128];
    int n, cap;
    struct base_tensor **values; /* one per iteration */
};

static struct interp_probe *probe_find(struct interp_proc *p, const char *id, size_t len, bool create)
{
    for (int i = 0; i < p->n_probes; i++)
        if (strlen(p->probes[i].id) == len && !memcmp(p->probes[i].id, id, len)) return &p->probes[i];
    if (!create || len >= sizeof p->probes[0].id) return NULL;
    struct interp_probe *np = realloc(p->probes, (size_t)(p->n_probes + 1) * sizeof *np);
    if (!np) return NULL;
    p->probes = np;
    struct interp_probe *pr = &p->probes[p->n_probes++];
    memset(pr, 0, sizeof *pr);
    memcpy(pr->id, id, len);
    return pr;
}

void interp_probes_free(struct interp_proc *p)
{
    for (int i = 0; i < p->n_probes; i++) {
        for (int j = 0; j < p->probes[i].n; j++) base_tensor_release(p->probes[i].values[j]);
        free(p->probes[i].values);
    }
    free(p->probes);
    p->probes = NULL;
    p->n_probes = 0;
}

static enum base_status k_probe(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    const struct graph_attr *id = graph_op_attr(op, "probe_id");
    if (!id || id->kind != GRAPH_ATTR_STRING) return interp_fail(p, op, BASE_ERR_INVALID, "probe_id missing");
    struct base_tensor *t = iv_t(in[0]);
    if (!t) return interp_fail(p, op, BASE_ERR_INVALID, "operand is not a tensor");
    struct interp_probe *pr = probe_find(p, id->u.str.s, id->u.str.len, true);
    if (!pr) return interp_fail(p, op, BASE_ERR_NOMEM, "cannot record probe");
    if (pr->n == pr->cap) {
        int cap = pr->cap ? pr->cap * 2 : 4;
        struct base_tensor **nv = realloc(pr->values, (size_t)cap * sizeof *nv);
        if (!nv) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        pr->values = nv;
        pr->cap = cap;
    }
    pr->values[pr->n++] = base_tensor_retain(t);
    if (p->opt && p->opt->probe_dir) {
        /* the processes of a grid run at once: each writes its own files */
        char path[1024], proc[32] = "";
        if (p->num_replicas * p->num_partitions > 1) snprintf(proc, sizeof proc, "p%d_", p->process_id);
        snprintf(path, sizeof path, "%s/%s%.*s_%d.npy", p->opt->probe_dir, proc, (int)id->u.str.len, id->u.str.s,
                 pr->n - 1);
        struct base_diag d;
        base_diag_clear(&d);
        if (base_npy_write(path, t, &d) != BASE_OK)
            return interp_fail(p, op, BASE_ERR_IO, "cannot write probe %s: %s", path, d.msg);
    }
    out[0] = interp_value_retain(in[0]);
    return BASE_OK;
}

/* The verdict of check.expect_serialized_eq: operand against the recorded
 * probe value (NULL: nothing was recorded for the probe and iteration). */
static void serialized_eq(struct interp_proc *p, const struct graph_op *op, const struct base_tensor *recorded,
                          const struct base_tensor *operand)
{
    const struct graph_attr *id = graph_op_attr(op, "probe_id");
    int64_t iter = 0;
    graph_attr_as_i64(graph_op_attr(op, "iter"), &iter);
    if (!recorded) {
        interp_record_check(p, op, false, "%s: no probe \"%.*s\" iteration %lld was recorded", op->name,
                            id && id->kind == GRAPH_ATTR_STRING ? (int)id->u.str.len : 0,
                            id && id->kind == GRAPH_ATTR_STRING ? id->u.str.s : "", (long long)iter);
        return;
    }
    struct cmp_rule r = {CMP_EQ, 0, 0, 0};
    compare(p, op, op->name, &r, recorded, operand);
}

static enum base_status k_serialized_eq(struct interp_proc *p, const struct graph_op *op,
                                        struct interp_value *const *in, struct interp_value **out)
{
    (void)out;
    const struct graph_attr *id = graph_op_attr(op, "probe_id");
    if (!id || id->kind != GRAPH_ATTR_STRING) return interp_fail(p, op, BASE_ERR_INVALID, "probe_id missing");
    const struct base_tensor *t[1];
    TRY(operand_tensors(p, op, in, 1, t));
    struct interp_probe *pr = probe_find(p, id->u.str.s, id->u.str.len, false);
    int64_t iter = 0;
    graph_attr_as_i64(graph_op_attr(op, "iter"), &iter);
    serialized_eq(p, op, pr && iter >= 0 && iter < pr->n ? pr->values[iter] : NULL, t[0]);
    return BASE_OK;
}

enum base_status interp_serialized_check_eval(const struct graph_op *op, const struct base_tensor *operand,
                                             const struct base_tensor *recorded, struct interp_check_result *res,
                                             struct base_diag *diag)
{
    memset(res, 0, sizeof *res);
    res->loc = op->loc;
    if (op->kind != GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ || !operand)
        return base_diag_set(diag, BASE_ERR_INVALID, op->loc.file, op->loc.line, op->loc.col,
                             "%s is not a check.expect_serialized_eq with an operand", op->name);
    struct interp_options opt;
    memset(&opt, 0, sizeof opt);
    struct interp_proc p;
    memset(&p, 0, sizeof p);
    p.opt = &opt;
    p.num_replicas = p.num_partitions = 1;
    serialized_eq(&p, op, recorded, operand);
    if (p.n_checks > 0) *res = p.checks[p.n_checks - 1];
    free(p.checks);
    return BASE_OK;
}

static enum base_status k_print(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    (void)out;
    const struct base_tensor *t = iv_t(in[0]);
    if (!t) return interp_fail(p, op, BASE_ERR_INVALID, "operand is not a tensor");
    char ty[96];
    base_tensor_type_str(t, ty, sizeof ty);
    BASE_LOG(p->opt ? p->opt->log : NULL, INTERP, INFO, "interpreter.print (process %d): tensor<%s>", p->process_id,
             ty);
    return BASE_OK;
}

void interp_register_check(interp_kernel_fn *table)
{
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if (graph_op_kind_has((enum graph_op_kind)k, GRAPH_OPF_VALUE_CHECK)) table[k] = k_check;
    table[GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ] = k_serialized_eq;
    table[GRAPH_OP_INTERP_PROBE] = k_probe;
    table[GRAPH_OP_INTERP_PRINT] = k_print;
}

enum base_status interp_check_eval(const struct graph_op *op, struct base_tensor *const *operands, int n_operands,
                                  struct interp_check_result *res, struct base_diag *diag)
{
    memset(res, 0, sizeof *res);
    res->loc = op->loc;
    if (n_operands < 0 || n_operands > 8 || n_operands != op->n_operands)
        return base_diag_set(diag, BASE_ERR_INVALID, op->loc.file, op->loc.line, op->loc.col,
                             "%s: %d operands given, the op has %d", op->name, n_operands, op->n_operands);
    struct interp_options opt;
    memset(&opt, 0, sizeof opt);
    struct interp_proc p;
    memset(&p, 0, sizeof p);
    p.module = NULL;
    p.opt = &opt;
    p.num_replicas = p.num_partitions = 1;
    struct interp_value *in[8] = {NULL}, *out[1] = {NULL};
    enum base_status st = BASE_OK;
    for (int i = 0; i < n_operands && st == BASE_OK; i++) {
        in[i] = interp_value_tensor(base_tensor_retain(operands[i]));
        if (!in[i]) st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (st == BASE_OK) {
        const struct graph_attr *t = graph_op_attr(op, "call_target_name");
        if (graph_op_kind_has(op->kind, GRAPH_OPF_VALUE_CHECK))
            st = k_check(&p, op, in, out);
        /* without results, or @check.eq's i1 verdict (the caller takes it from res->passed) */
        else if (op->kind == GRAPH_OP_CUSTOM_CALL && t && t->kind == GRAPH_ATTR_STRING && t->u.str.len > 6 &&
                 !memcmp(t->u.str.s, "check.", 6) && op->n_results <= 1)
            st = interp_check_custom_call(&p, op, t->u.str.s + 6, t->u.str.len - 6, in, out);
        else
            st = base_diag_set(diag, BASE_ERR_UNSUPPORTED, op->loc.file, op->loc.line, op->loc.col,
                               "%s is not a check interp_check_eval evaluates", op->name);
        if (st != BASE_OK && p.diag.status != BASE_OK && diag && diag->status == BASE_OK) *diag = p.diag;
    }
    if (p.n_checks > 0) *res = p.checks[p.n_checks - 1];
    interp_values_release(in, n_operands);
    interp_values_release(out, 1);
    free(p.checks);
    return st;
}
