/* Golden interpreter: reduce, reduce_window, select_and_scatter, map and
 * chlo.scan.
 *
 * Order: every reduction starts from the init value and folds the elements in
 * row-major order of the input (of the window, for reduce_window), calling
 * body(accumulator, element) as the StableHLO reference interpreter does.  The
 * spec leaves the order implementation-defined; this one is fixed.
 *
 * Fast paths (one input whose body is a single add/max/min/mul/and/or/xor,
 * found by interp_region_simple_binary) keep that order and give exactly the
 * bits the body would: every step is computed in the element type of the
 * body, as interp_scalar_binary (the elementwise kernels) computes it, e.g. a
 * bf16 add body rounds the running sum to bf16 at every step.  There is no
 * wider accumulator: f32 steps run on floats, f64 on doubles, bf16 on floats
 * rounded back to bf16 after each step, everything else through
 * interp_scalar_binary itself.
 */
#include "interp/interp_internal.h"
#include "interp/interp_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* An integer ELEMENTS attribute of shape [rank, 2] (padding), row-major into
 * out[2 * rank].  Absent: zeros.  Returns false when malformed. */
static bool padding_attr(const struct graph_attr *a, int rank, int64_t *out)
{
    for (int i = 0; i < 2 * rank; i++) out[i] = 0;
    if (!a) return true;
    if (a->kind == GRAPH_ATTR_ELEMENTS) {
        const struct base_tensor *t = a->u.elements.value;
        if (!t || !t->data || t->count != 2 * rank || !base_dtype_is_int(t->dtype)) return t && t->count == 0 && rank == 0;
        for (int64_t i = 0; i < t->count; i++) out[i] = base_elem_get_i64(t->dtype, t->data, (size_t)i);
        return true;
    }
    int64_t tmp[2 * BASE_MAX_RANK];
    int n = graph_attr_as_i64_list(a, tmp, 2 * BASE_MAX_RANK);
    if (n != 2 * rank) return false;
    memcpy(out, tmp, (size_t)n * sizeof *tmp);
    return true;
}

/* A rank-0 tensor value holding element i of (dt, data), converted to want. */
static enum base_status scalar_value(enum base_dtype dt, const void *data, int64_t i, enum base_dtype want,
                                     struct interp_value **out)
{
    *out = NULL;
    struct base_tensor *t = NULL;
    TRY(base_tensor_create(want, 0, NULL, &t));
    size_t es = base_dtype_size(dt);
    const char *src = (const char *)data + (size_t)i * es;
    if (want == dt) memcpy(t->data, src, es);
    else base_convert(want, t->data, dt, src, 1);
    *out = interp_value_tensor(t);
    return *out ? BASE_OK : BASE_ERR_NOMEM;
}

static void release_tensors(struct base_tensor **t, int n)
{
    for (int i = 0; i < n; i++) {
        base_tensor_release(t[i]);
        t[i] = NULL;
    }
}

/* Fills every element of t with element 0 of init (converted). */
static void fill_with(struct base_tensor *t, const struct base_tensor *init)
{
    size_t es = base_dtype_size(t->dtype);
    char one[16];
    if (init->dtype == t->dtype) memcpy(one, init->data, es);
    else base_convert(t->dtype, one, init->dtype, init->data, 1);
    char *d = t->data;
    for (int64_t i = 0; i < t->count; i++) memcpy(d + (size_t)i * es, one, es);
}

static bool is_fast_kind(enum graph_op_kind k)
{
    switch (k) {
    case GRAPH_OP_ADD:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_AND:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR:
        return true;
    default:
        return false;
    }
}

/* How a fast path steps.  F32 / F64: the op on floats / doubles, exactly as
 * the element type computes it; BF16: the op on floats, rounded back to bf16
 * after each step; STEP: interp_scalar_binary on raw elements. */
enum fold_type { FOLD_F32, FOLD_BF16, FOLD_F64, FOLD_STEP };

static enum fold_type fold_type_for(enum graph_op_kind k, enum base_dtype dt)
{
    bool arith = k == GRAPH_OP_ADD || k == GRAPH_OP_MAXIMUM || k == GRAPH_OP_MINIMUM || k == GRAPH_OP_MULTIPLY;
    if (!arith) return FOLD_STEP;
    if (dt == BASE_DT_F32) return FOLD_F32;
    if (dt == BASE_DT_F64) return FOLD_F64;
    /* bf16 products of two bf16 values can round twice through f32 in the
     * subnormal range; multiply keeps the exact interp_scalar_binary path */
    if (dt == BASE_DT_BF16 && k != GRAPH_OP_MULTIPLY) return FOLD_BF16;
    return FOLD_STEP;
}

static inline float fold_f32(enum graph_op_kind k, float acc, float x)
{
    switch (k) {
    case GRAPH_OP_ADD: return acc + x;
    case GRAPH_OP_MULTIPLY: return acc * x;
    case GRAPH_OP_MAXIMUM: return interp_math_fmaxf(acc, x);
    default: return interp_math_fminf(acc, x);
    }
}

static inline double fold_f64(enum graph_op_kind k, double acc, double x)
{
    switch (k) {
    case GRAPH_OP_ADD: return acc + x;
    case GRAPH_OP_MULTIPLY: return acc * x;
    case GRAPH_OP_MAXIMUM: return interp_math_fmax(acc, x);
    default: return interp_math_fmin(acc, x);
    }
}

/* The f32 value of the bf16 that the elementwise kernels store for the f32
 * result s: round to nearest even; NaN quieted with its sign and top payload
 * bits.  For + of two bf16 values f32 has more than 2 * 8 + 2 bits, so
 * rounding the f32 sum equals rounding the exact sum, as the kernels do. */
static inline float bf16_round_f32(float s)
{
    uint32_t u;
    memcpy(&u, &s, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) u |= 0x00400000u;
    else u += 0x7fffu + ((u >> 16) & 1u);
    u &= 0xffff0000u;
    memcpy(&s, &u, sizeof s);
    return s;
}

static inline float fold_bf16(enum graph_op_kind k, float acc, float x)
{
    return bf16_round_f32(fold_f32(k, acc, x));
}

static inline uint16_t bf16_bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);
}

/* ------------------------------------------------------------------------ */
/* Scalar bodies without the interpreter                                     */

/* Bodies of reductions run once per element.  A body made only of scalar
 * constants, binary arithmetic (interp_scalar_binary), compare, select and
 * convert (an argmax, an `or` followed by a select, ...) is evaluated here on
 * raw element slots, with the same arithmetic as the elementwise kernels, and
 * without allocating tensors; any other body goes through interp_call_region. */

#define SP_MAX_SLOTS 64
#define SP_MAX_OPS 48

enum sp_kind { SP_BINARY, SP_SELECT, SP_COMPARE, SP_CONVERT };

struct sp_slot {
    enum base_dtype dt;
    _Alignas(16) unsigned char v[16];
};

struct sp_op {
    enum sp_kind kind;
    enum graph_op_kind bin;
    enum interp_cmp_dir dir;
    bool total;
    int dst, a, b, c;
};

struct sprog {
    int n_args, n_slots, n_ops, n_rets;
    struct sp_slot slot[SP_MAX_SLOTS];
    struct sp_op ops[SP_MAX_OPS];
    int ret[SP_MAX_SLOTS];
    const struct graph_value *val[SP_MAX_SLOTS]; /* compile time: slot owners */
};

static bool sp_scalar_type(const struct graph_type *t, enum base_dtype *dt)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || t->rank != 0) return false;
    *dt = t->elem;
    return base_dtype_size(t->elem) <= 16;
}

static int sp_new_slot(struct sprog *sp, const struct graph_value *v, enum base_dtype dt)
{
    if (sp->n_slots >= SP_MAX_SLOTS) return -1;
    int i = sp->n_slots++;
    sp->slot[i].dt = dt;
    memset(sp->slot[i].v, 0, sizeof sp->slot[i].v);
    sp->val[i] = v;
    return i;
}

/* The slot holding v: a block value seen before, or a scalar captured from
 * the enclosing scope (its current value is copied in). */
static int sp_slot_of(struct interp_proc *p, struct sprog *sp, const struct graph_value *v)
{
    for (int i = 0; i < sp->n_slots; i++)
        if (sp->val[i] == v) return i;
    const struct interp_value *iv = p->env[v->id];
    const struct base_tensor *t = iv_t(iv);
    if (!t || t->count != 1 || base_dtype_size(t->dtype) > 16) return -1;
    int i = sp_new_slot(sp, v, t->dtype);
    if (i >= 0) memcpy(sp->slot[i].v, t->data, base_dtype_size(t->dtype));
    return i;
}

/* Compiles region r for scalar evaluation; false if some op is not covered. */
static bool sprog_compile(struct interp_proc *p, const struct graph_region *r, struct sprog *sp)
{
    memset(sp, 0, sizeof *sp);
    if (r->n_blocks != 1) return false;
    const struct graph_block *b = &r->blocks[0];
    for (int i = 0; i < b->n_args; i++) {
        enum base_dtype dt;
        if (!sp_scalar_type(b->args[i].type, &dt) || sp_new_slot(sp, &b->args[i], dt) < 0) return false;
    }
    sp->n_args = b->n_args;
    for (int k = 0; k < b->n_ops; k++) {
        const struct graph_op *op = b->ops[k];
        if (op->kind == GRAPH_OP_RETURN) {
            if (k != b->n_ops - 1) return false;
            for (int i = 0; i < op->n_operands; i++) {
                int s = sp_slot_of(p, sp, op->operands[i]);
                if (s < 0) return false;
                sp->ret[sp->n_rets++] = s;
            }
            return true;
        }
        enum base_dtype rdt;
        if (op->n_results != 1 || op->n_regions != 0 || !sp_scalar_type(op->results[0].type, &rdt)) return false;
        if (op->kind == GRAPH_OP_CONSTANT) {
            const struct graph_attr *v = graph_op_attr(op, "value");
            const struct base_tensor *t = v && v->kind == GRAPH_ATTR_ELEMENTS ? v->u.elements.value : NULL;
            if (!t || !t->data || t->count != 1 || t->dtype != rdt) return false;
            int s = sp_new_slot(sp, &op->results[0], rdt);
            if (s < 0) return false;
            memcpy(sp->slot[s].v, t->data, base_dtype_size(rdt));
            continue;
        }
        if (sp->n_ops >= SP_MAX_OPS) return false;
        struct sp_op *o = &sp->ops[sp->n_ops];
        memset(o, 0, sizeof *o);
        o->a = o->b = o->c = -1;
        if (op->n_operands >= 1) o->a = sp_slot_of(p, sp, op->operands[0]);
        if (op->n_operands >= 2) o->b = sp_slot_of(p, sp, op->operands[1]);
        if (op->n_operands >= 3) o->c = sp_slot_of(p, sp, op->operands[2]);
        if (o->a < 0 || (op->n_operands >= 2 && o->b < 0) || (op->n_operands >= 3 && o->c < 0)) return false;
        if (interp_scalar_binary_is_fast(op->kind) && op->n_operands == 2) {
            if (sp->slot[o->a].dt != rdt || sp->slot[o->b].dt != rdt) return false;
            o->kind = SP_BINARY;
            o->bin = op->kind;
        } else if (op->kind == GRAPH_OP_SELECT && op->n_operands == 3) {
            if (sp->slot[o->a].dt != BASE_DT_I1 || sp->slot[o->b].dt != rdt || sp->slot[o->c].dt != rdt) return false;
            o->kind = SP_SELECT;
        } else if (op->kind == GRAPH_OP_COMPARE && op->n_operands == 2) {
            enum base_dtype dt = sp->slot[o->a].dt;
            if (rdt != BASE_DT_I1 || sp->slot[o->b].dt != dt || base_dtype_is_complex(dt) ||
                !interp_compare_dir(op, &o->dir))
                return false;
            o->total = graph_attr_is_keyword(graph_op_attr(op, "compare_type"), "TOTALORDER");
            o->kind = SP_COMPARE;
        } else if (op->kind == GRAPH_OP_CONVERT && op->n_operands == 1) {
            o->kind = SP_CONVERT;
        } else {
            return false;
        }
        o->dst = sp_new_slot(sp, &op->results[0], rdt);
        if (o->dst < 0) return false;
        sp->n_ops++;
    }
    return false; /* no terminator */
}

static bool sp_compare(const struct sp_op *o, const struct sp_slot *x, const struct sp_slot *y)
{
    enum base_dtype dt = x->dt;
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT: {
        if (o->total) {
            uint64_t sign = interp_float_sign_mask(dt);
            int64_t a = interp_total_order_key(base_elem_get_bits(dt, x->v, 0), sign);
            int64_t b = interp_total_order_key(base_elem_get_bits(dt, y->v, 0), sign);
            return INTERP_CMP(o->dir, a, b);
        }
        double a = base_elem_get_f64(dt, x->v, 0), b = base_elem_get_f64(dt, y->v, 0);
        return INTERP_CMP(o->dir, a, b);
    }
    case BASE_KIND_SINT: {
        int64_t a = base_elem_get_i64(dt, x->v, 0), b = base_elem_get_i64(dt, y->v, 0);
        return INTERP_CMP(o->dir, a, b);
    }
    default: {
        uint64_t a = base_elem_get_u64(dt, x->v, 0), b = base_elem_get_u64(dt, y->v, 0);
        return INTERP_CMP(o->dir, a, b);
    }
    }
}

static void sprog_run(struct sprog *sp)
{
    for (int k = 0; k < sp->n_ops; k++) {
        const struct sp_op *o = &sp->ops[k];
        struct sp_slot *d = &sp->slot[o->dst];
        switch (o->kind) {
        case SP_BINARY:
            interp_scalar_binary(o->bin, d->dt, d->v, 0, sp->slot[o->a].v, 0, sp->slot[o->b].v, 0);
            break;
        case SP_SELECT:
            memcpy(d->v, sp->slot[sp->slot[o->a].v[0] ? o->b : o->c].v, sizeof d->v);
            break;
        case SP_COMPARE:
            d->v[0] = sp_compare(o, &sp->slot[o->a], &sp->slot[o->b]) ? 1 : 0;
            break;
        case SP_CONVERT:
            base_convert(d->dt, d->v, sp->slot[o->a].dt, sp->slot[o->a].v, 1);
            break;
        }
    }
}

/* Sets argument slot i from element e of (dt, data). */
static inline void sp_set_arg(struct sprog *sp, int i, enum base_dtype dt, const void *data, int64_t e)
{
    size_t es = base_dtype_size(dt);
    const char *src = (const char *)data + (size_t)e * es;
    if (sp->slot[i].dt == dt) memcpy(sp->slot[i].v, src, es);
    else base_convert(sp->slot[i].dt, sp->slot[i].v, dt, src, 1);
}

/* Stores return slot i into element e of t. */
static inline void sp_get_ret(const struct sprog *sp, int i, struct base_tensor *t, int64_t e)
{
    const struct sp_slot *s = &sp->slot[sp->ret[i]];
    size_t es = base_dtype_size(t->dtype);
    char *dst = (char *)t->data + (size_t)e * es;
    if (s->dt == t->dtype) memcpy(dst, s->v, es);
    else base_convert(t->dtype, dst, s->dt, s->v, 1);
}

/* A body invocation: scalar program when the body compiles, else a region
 * call on rank-0 tensors. */
struct body {
    const struct graph_region *r;
    struct sprog *sp;
    int n_args, n_rets;
    enum base_dtype adt[2 * 64];
    struct interp_value *args[2 * 64];
};

static void body_init(struct interp_proc *p, struct body *bd, const struct graph_region *r, int n_args,
                      int n_rets, const enum base_dtype *arg_dt)
{
    memset(bd, 0, sizeof *bd);
    bd->r = r;
    bd->n_args = n_args;
    bd->n_rets = n_rets;
    for (int i = 0; i < n_args; i++) bd->adt[i] = interp_region_arg_dtype(r, i, arg_dt[i]);
    bd->sp = malloc(sizeof *bd->sp);
    if (bd->sp && !(sprog_compile(p, r, bd->sp) && bd->sp->n_args == n_args && bd->sp->n_rets == n_rets)) {
        free(bd->sp);
        bd->sp = NULL;
    }
}

static void body_deinit(struct body *bd)
{
    interp_values_release(bd->args, bd->n_args);
    free(bd->sp);
    bd->sp = NULL;
}

/* Sets argument i from element e of (dt, data). */
static enum base_status body_arg(struct body *bd, int i, enum base_dtype dt, const void *data, int64_t e)
{
    if (bd->sp) {
        sp_set_arg(bd->sp, i, dt, data, e);
        return BASE_OK;
    }
    interp_value_release(bd->args[i]);
    bd->args[i] = NULL;
    return scalar_value(dt, data, e, bd->adt[i], &bd->args[i]);
}

/* Runs the body on the arguments set; result i goes to element e of outs[i]. */
static enum base_status body_run(struct interp_proc *p, const struct graph_op *op, struct body *bd,
                                 struct base_tensor *const *outs, int64_t e)
{
    if (bd->sp) {
        sprog_run(bd->sp);
        for (int i = 0; i < bd->n_rets; i++) sp_get_ret(bd->sp, i, outs[i], e);
        return BASE_OK;
    }
    struct interp_value *rv[64] = {NULL};
    int nr = 0;
    enum base_status st = interp_call_region(p, bd->r, bd->n_args, bd->args, rv, bd->n_rets, &nr);
    interp_values_release(bd->args, bd->n_args);
    if (st == BASE_OK && nr != bd->n_rets)
        st = interp_fail(p, op, BASE_ERR_INVALID, "body returned %d values, expected %d", nr, bd->n_rets);
    for (int i = 0; i < bd->n_rets && st == BASE_OK; i++)
        if (!interp_store_scalar(rv[i], outs[i], e))
            st = interp_fail(p, op, BASE_ERR_INVALID, "region must return rank-0 tensors");
    interp_values_release(rv, nr);
    return st;
}

/* Runs a predicate body (one boolean result). */
static enum base_status body_pred(struct interp_proc *p, const struct graph_op *op, struct body *bd, bool *out)
{
    if (bd->sp) {
        sprog_run(bd->sp);
        *out = bd->sp->slot[bd->sp->ret[0]].v[0] != 0;
        return BASE_OK;
    }
    struct interp_value *rv[1] = {NULL};
    int nr = 0;
    enum base_status st = interp_call_region(p, bd->r, bd->n_args, bd->args, rv, 1, &nr);
    interp_values_release(bd->args, bd->n_args);
    if (st != BASE_OK) return st;
    const struct base_tensor *t = nr == 1 ? iv_t(rv[0]) : NULL;
    if (!t || t->count != 1) st = interp_fail(p, op, BASE_ERR_INVALID, "select must return one boolean scalar");
    else *out = base_elem_get_i64(t->dtype, t->data, 0) != 0;
    interp_values_release(rv, nr);
    return st;
}

/* ------------------------------------------------------------------------ */
/* reduce                                                                    */

/* A boolean body compiled to a scalar program (pure: its captured values are
 * fixed for the whole op) takes only four argument pairs; tab[a][x] is its
 * result for (accumulator a, element x), so a boolean reduce (an "any" or
 * "all" written as or + select) is a table lookup per element. */
static bool bool_body_table(struct body *bd, uint8_t tab[2][2])
{
    if (!bd->sp || bd->n_args != 2 || bd->n_rets != 1) return false;
    for (int a = 0; a < 2; a++)
        for (int x = 0; x < 2; x++) {
            uint8_t av = (uint8_t)a, xv = (uint8_t)x, r = 0;
            sp_set_arg(bd->sp, 0, BASE_DT_I1, &av, 0);
            sp_set_arg(bd->sp, 1, BASE_DT_I1, &xv, 0);
            sprog_run(bd->sp);
            const struct sp_slot *ret = &bd->sp->slot[bd->sp->ret[0]];
            base_convert(BASE_DT_I1, &r, ret->dt, ret->v, 1);
            tab[a][x] = r != 0;
        }
    return true;
}

/* One input row of a fast reduce: acc[j * os] = acc[j * os] (op) x[j] for j
 * ascending (os == 0: all into *acc). */
static void fold_row_f32(enum graph_op_kind k, const float *restrict x, int64_t n, float *restrict acc, int64_t os)
{
    if (os == 0) {
        float a = *acc;
        if (k == GRAPH_OP_ADD)
            for (int64_t j = 0; j < n; j++) a = a + x[j];
        else if (k == GRAPH_OP_MAXIMUM)
            for (int64_t j = 0; j < n; j++) a = interp_math_fmaxf(a, x[j]);
        else
            for (int64_t j = 0; j < n; j++) a = fold_f32(k, a, x[j]);
        *acc = a;
    } else if (os == 1 && k == GRAPH_OP_ADD) {
        for (int64_t j = 0; j < n; j++) acc[j] = acc[j] + x[j];
    } else {
        for (int64_t j = 0; j < n; j++) acc[j * os] = fold_f32(k, acc[j * os], x[j]);
    }
}

static void fold_row_bf16(enum graph_op_kind k, const uint16_t *restrict x, int64_t n, float *restrict acc,
                          int64_t os)
{
    if (os == 0) {
        float a = *acc;
        if (k == GRAPH_OP_ADD)
            for (int64_t j = 0; j < n; j++) a = bf16_round_f32(a + base_bf16_to_f32(x[j]));
        else
            for (int64_t j = 0; j < n; j++) a = fold_bf16(k, a, base_bf16_to_f32(x[j]));
        *acc = a;
    } else {
        for (int64_t j = 0; j < n; j++) acc[j * os] = fold_bf16(k, acc[j * os], base_bf16_to_f32(x[j]));
    }
}

static void fold_row_f64(enum graph_op_kind k, const double *restrict x, int64_t n, double *restrict acc,
                         int64_t os)
{
    if (os == 0) {
        double a = *acc;
        for (int64_t j = 0; j < n; j++) a = fold_f64(k, a, x[j]);
        *acc = a;
    } else {
        for (int64_t j = 0; j < n; j++) acc[j * os] = fold_f64(k, acc[j * os], x[j]);
    }
}

/* Fast single-input reduce: out[o] = init (op) in[i] for i in row-major order,
 * ostride[d] is the output stride of input dim d (0 for reduced dims).  Every
 * step is rounded to the element type (fold_type_for). */
static enum base_status reduce_fast(enum graph_op_kind k, const struct base_tensor *in,
                                    const struct base_tensor *init, const int64_t *ostride, struct base_tensor *out)
{
    enum base_dtype dt = in->dtype;
    enum fold_type ft = fold_type_for(k, dt);
    int rank = in->rank;
    int64_t inner = rank ? in->dims[rank - 1] : 1;
    int64_t inner_os = rank ? ostride[rank - 1] : 0;
    int64_t rows = inner ? in->count / inner : 0;
    /* accumulators: the result itself, or floats holding bf16 values */
    float *facc = NULL;
    if (ft == FOLD_BF16) {
        facc = malloc((size_t)(out->count ? out->count : 1) * sizeof *facc);
        if (!facc) return BASE_ERR_NOMEM;
        float f0 = base_bf16_to_f32(*(const uint16_t *)init->data);
        for (int64_t o = 0; o < out->count; o++) facc[o] = f0;
    } else {
        fill_with(out, init);
    }
    int64_t idx[BASE_MAX_RANK] = {0};
    int64_t obase = 0;
    for (int64_t row = 0; row < rows; row++) {
        int64_t i0 = row * inner;
        switch (ft) {
        case FOLD_F32:
            fold_row_f32(k, (const float *)in->data + i0, inner, (float *)out->data + obase, inner_os);
            break;
        case FOLD_BF16:
            fold_row_bf16(k, (const uint16_t *)in->data + i0, inner, facc + obase, inner_os);
            break;
        case FOLD_F64:
            fold_row_f64(k, (const double *)in->data + i0, inner, (double *)out->data + obase, inner_os);
            break;
        case FOLD_STEP:
            for (int64_t j = 0; j < inner; j++) {
                size_t o = (size_t)(obase + j * inner_os);
                interp_scalar_binary(k, dt, out->data, o, out->data, o, in->data, (size_t)(i0 + j));
            }
            break;
        }
        /* advance the odometer over the outer dims */
        for (int d = rank - 2; d >= 0; d--) {
            idx[d]++;
            obase += ostride[d];
            if (idx[d] < in->dims[d]) break;
            obase -= ostride[d] * in->dims[d];
            idx[d] = 0;
        }
    }
    if (ft == FOLD_BF16) {
        uint16_t *o16 = out->data;
        for (int64_t o = 0; o < out->count; o++) o16[o] = bf16_bits_of(facc[o]);
        free(facc);
    }
    return BASE_OK;
}

#define MAX_VARIADIC 64

/* reduce and reduce_window take N inputs of one shape, then N scalar init
 * values. */
static enum base_status check_inputs_and_inits(struct interp_proc *p, const struct graph_op *op,
                                               struct interp_value *const *in, int n)
{
    const struct base_tensor *x0 = iv_t(in[0]);
    for (int i = 0; i < 2 * n; i++) {
        const struct base_tensor *t = iv_t(in[i]);
        if (!t) return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is not a tensor", i);
        if (i < n && (t->rank != x0->rank || memcmp(t->dims, x0->dims, (size_t)t->rank * sizeof *t->dims)))
            return interp_fail(p, op, BASE_ERR_INVALID, "inputs must have the same shape");
        if (i >= n && t->rank != 0)
            return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "non-scalar init values (%s with a shaped body) are not "
                               "supported", graph_op_kind_name(op->kind));
    }
    return BASE_OK;
}

/* Results 0..n) of one shape; on failure none is left allocated. */
static enum base_status alloc_results(struct interp_proc *p, const struct graph_op *op, int n, int rank,
                                      const int64_t *dims, struct base_tensor **res)
{
    enum base_status st = BASE_OK;
    for (int i = 0; i < n && st == BASE_OK; i++) {
        st = base_tensor_create(interp_result_dtype(p, op, i), rank, dims, &res[i]);
        if (st != BASE_OK) st = interp_fail(p, op, st, "cannot allocate result %d", i);
    }
    if (st != BASE_OK) release_tensors(res, n);
    return st;
}

static enum base_status k_reduce(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                 struct interp_value **out)
{
    int n = op->n_operands / 2;
    if (n < 1 || op->n_operands != 2 * n || op->n_results != n || op->n_regions < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "reduce expects N inputs, N init values, N results and a body");
    if (n > MAX_VARIADIC) return interp_fail(p, op, BASE_ERR_LIMIT, "more than %d inputs", MAX_VARIADIC);
    TRY(check_inputs_and_inits(p, op, in, n));
    const struct base_tensor *x0 = iv_t(in[0]);
    int64_t dims[BASE_MAX_RANK];
    int nd = interp_i64_list(graph_op_attr(op, "dimensions"), dims, BASE_MAX_RANK);
    if (nd < 0) return interp_fail(p, op, BASE_ERR_INVALID, "malformed dimensions attribute");
    bool reduced[BASE_MAX_RANK] = {false};
    for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] >= x0->rank || reduced[dims[i]])
            return interp_fail(p, op, BASE_ERR_INVALID, "dimension %lld is out of range or repeated",
                               (long long)dims[i]);
        reduced[dims[i]] = true;
    }
    int64_t odims[BASE_MAX_RANK];
    int orank = 0;
    for (int d = 0; d < x0->rank; d++)
        if (!reduced[d]) odims[orank++] = x0->dims[d];
    /* output stride of each input dim */
    int64_t ostr_out[BASE_MAX_RANK], ostride[BASE_MAX_RANK];
    base_shape_strides(orank, odims, ostr_out);
    for (int d = 0, od = 0; d < x0->rank; d++) ostride[d] = reduced[d] ? 0 : ostr_out[od++];

    struct base_tensor *res[MAX_VARIADIC] = {NULL};
    enum base_status st = alloc_results(p, op, n, orank, odims, res);
    if (st != BASE_OK) return st;

    const struct graph_region *body = &op->regions[0];
    enum graph_op_kind k = n == 1 ? interp_region_simple_binary(body) : GRAPH_OP_UNKNOWN;
    const struct base_tensor *init0 = iv_t(in[1]);
    if (n == 1 && is_fast_kind(k) && x0->dtype == init0->dtype && x0->dtype == res[0]->dtype) {
        st = reduce_fast(k, x0, init0, ostride, res[0]);
        if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
    } else {
        /* generic: results hold the accumulators */
        for (int i = 0; i < n; i++) fill_with(res[i], iv_t(in[n + i]));
        enum base_dtype dts[2 * MAX_VARIADIC];
        for (int i = 0; i < n; i++) {
            dts[i] = res[i]->dtype;
            dts[n + i] = iv_t(in[i])->dtype;
        }
        struct body bd;
        body_init(p, &bd, body, 2 * n, n, dts);
        uint8_t tab[2][2];
        bool tabulated = n == 1 && x0->dtype == BASE_DT_I1 && res[0]->dtype == BASE_DT_I1 && bool_body_table(&bd, tab);
        int64_t idx[BASE_MAX_RANK] = {0};
        int64_t obase = 0;
        for (int64_t e = 0; e < x0->count && tabulated; e++) {
            uint8_t *acc = (uint8_t *)res[0]->data + obase;
            *acc = tab[*acc != 0][((const uint8_t *)x0->data)[e] != 0];
            for (int d = x0->rank - 1; d >= 0; d--) {
                idx[d]++;
                obase += ostride[d];
                if (idx[d] < x0->dims[d]) break;
                obase -= ostride[d] * x0->dims[d];
                idx[d] = 0;
            }
        }
        for (int64_t e = 0; e < x0->count && st == BASE_OK && !tabulated; e++) {
            for (int i = 0; i < n && st == BASE_OK; i++) {
                st = body_arg(&bd, i, res[i]->dtype, res[i]->data, obase);
                if (st == BASE_OK) st = body_arg(&bd, n + i, iv_t(in[i])->dtype, iv_t(in[i])->data, e);
            }
            if (st != BASE_OK) {
                st = interp_fail(p, op, st, "out of memory");
                break;
            }
            st = body_run(p, op, &bd, res, obase);
            for (int d = x0->rank - 1; d >= 0; d--) {
                idx[d]++;
                obase += ostride[d];
                if (idx[d] < x0->dims[d]) break;
                obase -= ostride[d] * x0->dims[d];
                idx[d] = 0;
            }
        }
        body_deinit(&bd);
    }
    return interp_set_outs(p, op, st, out, res, n);
}

/* ------------------------------------------------------------------------ */
/* Windows (reduce_window, select_and_scatter)                               */

/* For each dim d and each (output index o, window index w) pair, the input
 * index the window element reads, or -1 for padding / dilation holes. */
struct window_map {
    int rank;
    int64_t out_dims[BASE_MAX_RANK];
    int64_t win_dims[BASE_MAX_RANK];
    int64_t *src[BASE_MAX_RANK]; /* [out_dims[d] * win_dims[d]] */
};

static void window_map_free(struct window_map *wm)
{
    for (int d = 0; d < wm->rank; d++) free(wm->src[d]);
    memset(wm, 0, sizeof *wm);
}

static enum base_status window_map_init(struct window_map *wm, int rank, const int64_t *in_dims,
                                        const int64_t *win, const int64_t *stride, const int64_t *base_dil,
                                        const int64_t *win_dil, const int64_t *pad)
{
    memset(wm, 0, sizeof *wm);
    wm->rank = rank;
    for (int d = 0; d < rank; d++) {
        int64_t dilated = in_dims[d] == 0 ? 0 : (in_dims[d] - 1) * base_dil[d] + 1;
        int64_t padded = pad[2 * d] + dilated + pad[2 * d + 1];
        int64_t dwin = win[d] == 0 ? 0 : (win[d] - 1) * win_dil[d] + 1;
        int64_t n = (padded <= 0 || dwin > padded) ? 0 : (padded - dwin) / stride[d] + 1;
        wm->out_dims[d] = n;
        wm->win_dims[d] = win[d];
        wm->src[d] = malloc((size_t)(n * win[d] > 0 ? n * win[d] : 1) * sizeof(int64_t));
        if (!wm->src[d]) {
            window_map_free(wm);
            return BASE_ERR_NOMEM;
        }
        for (int64_t o = 0; o < n; o++)
            for (int64_t w = 0; w < win[d]; w++) {
                int64_t q = o * stride[d] + w * win_dil[d] - pad[2 * d];
                int64_t s = -1;
                if (q >= 0 && q < dilated && q % base_dil[d] == 0) s = q / base_dil[d];
                wm->src[d][o * win[d] + w] = s;
            }
    }
    return BASE_OK;
}

/* Linear input index of window element widx of output oidx, or -1. */
static inline int64_t window_src(const struct window_map *wm, const int64_t *istride, const int64_t *oidx,
                                 const int64_t *widx)
{
    int64_t lin = 0;
    for (int d = 0; d < wm->rank; d++) {
        int64_t s = wm->src[d][oidx[d] * wm->win_dims[d] + widx[d]];
        if (s < 0) return -1;
        lin += s * istride[d];
    }
    return lin;
}

struct window_attrs {
    int64_t win[BASE_MAX_RANK], stride[BASE_MAX_RANK], base_dil[BASE_MAX_RANK], win_dil[BASE_MAX_RANK];
    int64_t pad[2 * BASE_MAX_RANK];
};

static enum base_status read_window_attrs(struct interp_proc *p, const struct graph_op *op, int rank,
                                          struct window_attrs *wa)
{
    struct {
        const char *name;
        int64_t *dst;
        bool required;
    } lists[] = {
        {"window_dimensions", wa->win, true},
        {"window_strides", wa->stride, false},
        {"base_dilations", wa->base_dil, false},
        {"window_dilations", wa->win_dil, false},
    };
    for (size_t i = 0; i < ARRAY_LEN(lists); i++) {
        const struct graph_attr *a = graph_op_attr(op, lists[i].name);
        if (!a) {
            if (lists[i].required)
                return interp_fail(p, op, BASE_ERR_INVALID, "missing attribute %s", lists[i].name);
            for (int d = 0; d < rank; d++) lists[i].dst[d] = 1;
            continue;
        }
        int n = interp_i64_list(a, lists[i].dst, BASE_MAX_RANK);
        if (n != rank)
            return interp_fail(p, op, BASE_ERR_INVALID, "%s must have %d elements", lists[i].name, rank);
        for (int d = 0; d < rank; d++)
            if (lists[i].dst[d] < (i == 0 ? 0 : 1))
                return interp_fail(p, op, BASE_ERR_INVALID, "%s[%d] = %lld is out of range", lists[i].name, d,
                                   (long long)lists[i].dst[d]);
    }
    if (!padding_attr(graph_op_attr(op, "padding"), rank, wa->pad))
        return interp_fail(p, op, BASE_ERR_INVALID, "padding must be an integer tensor of shape [%d, 2]", rank);
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* reduce_window                                                             */

static enum base_status k_reduce_window(struct interp_proc *p, const struct graph_op *op,
                                        struct interp_value *const *in, struct interp_value **out)
{
    int n = op->n_operands / 2;
    if (n < 1 || op->n_operands != 2 * n || op->n_results != n || op->n_regions < 1)
        return interp_fail(p, op, BASE_ERR_INVALID,
                           "reduce_window expects N inputs, N init values, N results and a body");
    if (n > MAX_VARIADIC) return interp_fail(p, op, BASE_ERR_LIMIT, "more than %d inputs", MAX_VARIADIC);
    TRY(check_inputs_and_inits(p, op, in, n));
    const struct base_tensor *x0 = iv_t(in[0]);
    int rank = x0->rank;
    struct window_attrs wa;
    TRY(read_window_attrs(p, op, rank, &wa));
    struct window_map wm;
    if (window_map_init(&wm, rank, x0->dims, wa.win, wa.stride, wa.base_dil, wa.win_dil, wa.pad) != BASE_OK)
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");

    struct base_tensor *res[MAX_VARIADIC] = {NULL};
    enum base_status st = alloc_results(p, op, n, rank, wm.out_dims, res);
    int64_t istride[BASE_MAX_RANK];
    base_shape_strides(rank, x0->dims, istride);
    int64_t wcount = base_shape_count(rank, wa.win);

    const struct graph_region *body = &op->regions[0];
    enum graph_op_kind k = n == 1 ? interp_region_simple_binary(body) : GRAPH_OP_UNKNOWN;
    const struct base_tensor *init0 = iv_t(in[1]);
    bool fast = st == BASE_OK && n == 1 && is_fast_kind(k) && x0->dtype == init0->dtype &&
                x0->dtype == res[0]->dtype;
    enum fold_type ft = fast ? fold_type_for(k, x0->dtype) : FOLD_STEP;
    enum base_dtype dts[2 * MAX_VARIADIC] = {BASE_DT_I1};
    for (int i = 0; i < n && st == BASE_OK; i++) {
        dts[i] = res[i]->dtype;
        dts[n + i] = iv_t(in[i])->dtype;
    }
    struct body bd;
    memset(&bd, 0, sizeof bd);
    if (st == BASE_OK && !fast) body_init(p, &bd, body, 2 * n, n, dts);
    int64_t oidx[BASE_MAX_RANK] = {0};
    int64_t ocount = st == BASE_OK ? res[0]->count : 0;
    for (int64_t o = 0; o < ocount && st == BASE_OK; o++) {
        if (o > 0) interp_index_next(rank, wm.out_dims, oidx);
        int64_t widx[BASE_MAX_RANK] = {0};
        if (ft != FOLD_STEP) {
            /* padding reads the init value; every step rounds to the type */
            const void *xd = x0->data, *id = init0->data;
            if (ft == FOLD_F64) {
                double acc = *(const double *)id;
                for (int64_t w = 0; w < wcount; w++) {
                    if (w > 0) interp_index_next(rank, wa.win, widx);
                    int64_t s = window_src(&wm, istride, oidx, widx);
                    acc = fold_f64(k, acc, s >= 0 ? ((const double *)xd)[s] : *(const double *)id);
                }
                ((double *)res[0]->data)[o] = acc;
            } else if (ft == FOLD_F32) {
                float acc = *(const float *)id;
                for (int64_t w = 0; w < wcount; w++) {
                    if (w > 0) interp_index_next(rank, wa.win, widx);
                    int64_t s = window_src(&wm, istride, oidx, widx);
                    acc = fold_f32(k, acc, s >= 0 ? ((const float *)xd)[s] : *(const float *)id);
                }
                ((float *)res[0]->data)[o] = acc;
            } else {
                float f0 = base_bf16_to_f32(*(const uint16_t *)id), acc = f0;
                for (int64_t w = 0; w < wcount; w++) {
                    if (w > 0) interp_index_next(rank, wa.win, widx);
                    int64_t s = window_src(&wm, istride, oidx, widx);
                    acc = fold_bf16(k, acc, s >= 0 ? base_bf16_to_f32(((const uint16_t *)xd)[s]) : f0);
                }
                ((uint16_t *)res[0]->data)[o] = bf16_bits_of(acc);
            }
            continue;
        }
        if (fast) {
            size_t es = base_dtype_size(x0->dtype);
            memcpy((char *)res[0]->data + (size_t)o * es, init0->data, es);
            for (int64_t w = 0; w < wcount; w++) {
                if (w > 0) interp_index_next(rank, wa.win, widx);
                int64_t s = window_src(&wm, istride, oidx, widx);
                if (s >= 0) interp_scalar_binary(k, x0->dtype, res[0]->data, (size_t)o, res[0]->data, (size_t)o, x0->data, (size_t)s);
                else interp_scalar_binary(k, x0->dtype, res[0]->data, (size_t)o, res[0]->data, (size_t)o, init0->data, 0);
            }
            continue;
        }
        /* generic: accumulators start at the init values */
        for (int i = 0; i < n; i++) {
            const struct base_tensor *init = iv_t(in[n + i]);
            size_t es = base_dtype_size(res[i]->dtype);
            char *dst = (char *)res[i]->data + (size_t)o * es;
            if (init->dtype == res[i]->dtype) memcpy(dst, init->data, es);
            else base_convert(res[i]->dtype, dst, init->dtype, init->data, 1);
        }
        for (int64_t w = 0; w < wcount && st == BASE_OK; w++) {
            if (w > 0) interp_index_next(rank, wa.win, widx);
            int64_t s = window_src(&wm, istride, oidx, widx);
            for (int i = 0; i < n && st == BASE_OK; i++) {
                const struct base_tensor *x = iv_t(in[i]), *init = iv_t(in[n + i]);
                st = body_arg(&bd, i, res[i]->dtype, res[i]->data, o);
                if (st == BASE_OK) {
                    if (s >= 0) st = body_arg(&bd, n + i, x->dtype, x->data, s);
                    else st = body_arg(&bd, n + i, init->dtype, init->data, 0);
                }
            }
            if (st != BASE_OK) {
                st = interp_fail(p, op, st, "out of memory");
                break;
            }
            st = body_run(p, op, &bd, res, o);
        }
    }
    body_deinit(&bd);
    window_map_free(&wm);
    return interp_set_outs(p, op, st, out, res, n);
}

/* ------------------------------------------------------------------------ */
/* select_and_scatter                                                        */

static enum base_status k_select_and_scatter(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != 3 || op->n_regions < 2)
        return interp_fail(p, op, BASE_ERR_INVALID, "expects operand, source, init_value and two regions");
    const struct base_tensor *x = iv_t(in[0]), *src = iv_t(in[1]), *init = iv_t(in[2]);
    if (!x || !src || !init || init->count != 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "expects tensor operands and a scalar init value");
    int rank = x->rank;
    struct window_attrs wa;
    TRY(read_window_attrs(p, op, rank, &wa));
    struct window_map wm;
    if (window_map_init(&wm, rank, x->dims, wa.win, wa.stride, wa.base_dil, wa.win_dil, wa.pad) != BASE_OK)
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    if (src->rank != rank || memcmp(src->dims, wm.out_dims, (size_t)rank * sizeof *src->dims)) {
        window_map_free(&wm);
        return interp_fail(p, op, BASE_ERR_INVALID, "source shape does not match the number of windows");
    }
    struct base_tensor *res = NULL;
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, 0), rank, x->dims, &res);
    if (st != BASE_OK) {
        window_map_free(&wm);
        return interp_fail(p, op, st, "cannot allocate the result");
    }
    fill_with(res, init);
    enum graph_op_kind k = interp_region_simple_binary(&op->regions[1]);
    bool fast_scatter = is_fast_kind(k) && src->dtype == res->dtype;
    struct body sel, scat;
    enum base_dtype sel_dt[2] = {x->dtype, x->dtype}, scat_dt[2] = {res->dtype, src->dtype};
    body_init(p, &sel, &op->regions[0], 2, 1, sel_dt);
    memset(&scat, 0, sizeof scat);
    if (!fast_scatter) body_init(p, &scat, &op->regions[1], 2, 1, scat_dt);
    int64_t istride[BASE_MAX_RANK];
    base_shape_strides(rank, x->dims, istride);
    int64_t wcount = base_shape_count(rank, wa.win);
    int64_t sidx[BASE_MAX_RANK] = {0};
    for (int64_t s = 0; s < src->count && st == BASE_OK; s++) {
        if (s > 0) interp_index_next(rank, src->dims, sidx);
        int64_t widx[BASE_MAX_RANK] = {0};
        int64_t selected = -1;
        for (int64_t w = 0; w < wcount && st == BASE_OK; w++) {
            if (w > 0) interp_index_next(rank, wa.win, widx);
            int64_t e = window_src(&wm, istride, sidx, widx);
            if (e < 0) continue;
            if (selected < 0) {
                selected = e;
                continue;
            }
            bool keep = true;
            st = body_arg(&sel, 0, x->dtype, x->data, selected);
            if (st == BASE_OK) st = body_arg(&sel, 1, x->dtype, x->data, e);
            if (st == BASE_OK) st = body_pred(p, op, &sel, &keep);
            else st = interp_fail(p, op, st, "out of memory");
            if (st == BASE_OK && !keep) selected = e;
        }
        if (st != BASE_OK || selected < 0) continue;
        if (fast_scatter) {
            interp_scalar_binary(k, res->dtype, res->data, (size_t)selected, res->data, (size_t)selected, src->data,
                                 (size_t)s);
            continue;
        }
        st = body_arg(&scat, 0, res->dtype, res->data, selected);
        if (st == BASE_OK) st = body_arg(&scat, 1, src->dtype, src->data, s);
        if (st != BASE_OK) {
            st = interp_fail(p, op, st, "out of memory");
            break;
        }
        st = body_run(p, op, &scat, &res, selected);
    }
    body_deinit(&sel);
    body_deinit(&scat);
    window_map_free(&wm);
    if (st != BASE_OK) {
        base_tensor_release(res);
        return st;
    }
    return interp_set_out(p, op, out, 0, res);
}

/* ------------------------------------------------------------------------ */
/* map                                                                       */

static enum base_status k_map(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                              struct interp_value **out)
{
    int n = op->n_operands;
    if (n < 1 || op->n_results != 1 || op->n_regions < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "map expects inputs, one result and a computation");
    if (n > MAX_VARIADIC) return interp_fail(p, op, BASE_ERR_LIMIT, "more than %d inputs", MAX_VARIADIC);
    const struct base_tensor *x0 = iv_t(in[0]);
    for (int i = 0; i < n; i++) {
        const struct base_tensor *t = iv_t(in[i]);
        if (!t || t->rank != x0->rank || memcmp(t->dims, x0->dims, (size_t)t->rank * sizeof *t->dims))
            return interp_fail(p, op, BASE_ERR_INVALID, "inputs must be tensors of the same shape");
    }
    int64_t dims[BASE_MAX_RANK];
    int nd = interp_i64_list(graph_op_attr(op, "dimensions"), dims, BASE_MAX_RANK);
    if (nd >= 0 && graph_op_attr(op, "dimensions")) {
        bool ok = nd == x0->rank;
        for (int i = 0; i < nd && ok; i++) ok = dims[i] == i;
        if (!ok) return interp_fail(p, op, BASE_ERR_INVALID, "dimensions must be [0, ..., rank-1]");
    }
    enum base_dtype rdt = interp_result_dtype(p, op, 0);
    const struct graph_region *body = &op->regions[0];
    enum graph_op_kind k = n == 2 ? interp_region_simple_binary(body) : GRAPH_OP_UNKNOWN;
    /* only commutative ops: the body may name its arguments in either order */
    if (is_fast_kind(k) && iv_t(in[0])->dtype == iv_t(in[1])->dtype && iv_t(in[0])->dtype == rdt) {
        struct base_tensor *t = NULL;
        TRY(interp_binary_tensors(p, op, k, iv_t(in[0]), iv_t(in[1]), &t));
        return interp_set_out(p, op, out, 0, t);
    }
    struct base_tensor *res = NULL;
    enum base_status st = base_tensor_create(rdt, x0->rank, x0->dims, &res);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate the result");
    enum base_dtype dts[MAX_VARIADIC];
    for (int i = 0; i < n; i++) dts[i] = iv_t(in[i])->dtype;
    struct body bd;
    body_init(p, &bd, body, n, 1, dts);
    for (int64_t e = 0; e < x0->count && st == BASE_OK; e++) {
        for (int i = 0; i < n && st == BASE_OK; i++) st = body_arg(&bd, i, iv_t(in[i])->dtype, iv_t(in[i])->data, e);
        if (st != BASE_OK) {
            st = interp_fail(p, op, st, "out of memory");
            break;
        }
        st = body_run(p, op, &bd, &res, e);
    }
    body_deinit(&bd);
    if (st != BASE_OK) {
        base_tensor_release(res);
        return st;
    }
    return interp_set_out(p, op, out, 0, res);
}

/* ------------------------------------------------------------------------ */
/* chlo.scan                                                                 */

/* Copies the slice at index `at` of dim d of t into s (t without dim d), or
 * back from s into t when to_t. */
static void slice_copy(struct base_tensor *t, int d, int64_t at, struct base_tensor *s, bool to_t)
{
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < d; i++) outer *= t->dims[i];
    for (int i = d + 1; i < t->rank; i++) inner *= t->dims[i];
    size_t es = base_dtype_size(t->dtype);
    size_t run = (size_t)inner * es;
    for (int64_t o = 0; o < outer; o++) {
        char *tp = (char *)t->data + ((size_t)(o * t->dims[d] + at) * (size_t)inner) * es;
        char *sp = (char *)s->data + (size_t)o * run;
        if (to_t) memcpy(tp, sp, run);
        else memcpy(sp, tp, run);
    }
}

static enum base_status k_scan(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                               struct interp_value **out)
{
    int64_t seg[2];
    int nseg = interp_i64_list(graph_op_attr(op, "operandSegmentSizes"), seg, 2);
    int n_in, n_init;
    if (nseg == 2) {
        n_in = (int)seg[0];
        n_init = (int)seg[1];
    } else {
        /* without segment sizes: as many carries as results beyond the inputs */
        n_init = op->n_results - op->n_operands / 2;
        n_in = op->n_operands - n_init;
    }
    int n_out = op->n_results - n_init;
    if (n_in < 0 || n_init < 0 || n_out < 0 || n_in + n_init != op->n_operands || op->n_regions < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "operand segments do not match the results");
    if (n_in + n_init > MAX_VARIADIC || op->n_results > MAX_VARIADIC)
        return interp_fail(p, op, BASE_ERR_LIMIT, "more than %d operands", MAX_VARIADIC);
    int64_t dim = 0;
    if (!graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim))
        return interp_fail(p, op, BASE_ERR_INVALID, "missing dimension attribute");
    bool reverse = graph_attr_bool_or(graph_op_attr(op, "is_reverse"), false);
    for (int i = 0; i < op->n_operands; i++)
        if (!iv_t(in[i])) return interp_fail(p, op, BASE_ERR_INVALID, "operand %d is not a tensor", i);

    /* scan length: from the inputs, else from the first output type */
    int64_t len = -1;
    for (int i = 0; i < n_in; i++) {
        const struct base_tensor *t = iv_t(in[i]);
        if (dim < 0 || dim >= t->rank) return interp_fail(p, op, BASE_ERR_INVALID, "dimension out of range");
        if (len >= 0 && t->dims[dim] != len)
            return interp_fail(p, op, BASE_ERR_INVALID, "inputs differ in the scanned dimension");
        len = t->dims[dim];
    }
    if (len < 0) {
        const struct graph_type *rt = n_out ? interp_result_type(op, 0) : NULL;
        if (!rt || rt->rank <= dim || dim < 0 || rt->dims[dim] == GRAPH_DYN)
            return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "cannot determine the scan length");
        len = rt->dims[dim];
    }

    struct base_tensor *res[MAX_VARIADIC] = {NULL};
    struct interp_value *carry[MAX_VARIADIC] = {NULL};
    struct interp_value *args[MAX_VARIADIC] = {NULL}, *rv[MAX_VARIADIC] = {NULL};
    enum base_status st = BASE_OK;
    for (int i = 0; i < n_init; i++) carry[i] = interp_value_retain(in[n_in + i]);
    const struct graph_region *body = &op->regions[0];
    for (int64_t step = 0; step < len && st == BASE_OK; step++) {
        int64_t at = reverse ? len - 1 - step : step;
        for (int i = 0; i < n_in && st == BASE_OK; i++) {
            struct base_tensor *x = iv_t(in[i]);
            int64_t sd[BASE_MAX_RANK];
            int sr = 0;
            for (int d = 0; d < x->rank; d++)
                if (d != dim) sd[sr++] = x->dims[d];
            struct base_tensor *s = NULL;
            st = base_tensor_create(x->dtype, sr, sd, &s);
            if (st == BASE_OK) {
                slice_copy(x, (int)dim, at, s, false);
                args[i] = interp_value_tensor(s);
                if (!args[i]) st = BASE_ERR_NOMEM;
            }
            if (st != BASE_OK) st = interp_fail(p, op, st, "out of memory");
        }
        for (int i = 0; i < n_init; i++) args[n_in + i] = interp_value_retain(carry[i]);
        int nr = 0;
        if (st == BASE_OK) st = interp_call_region(p, body, n_in + n_init, args, rv, op->n_results, &nr);
        interp_values_release(args, n_in + n_init);
        if (st != BASE_OK) break;
        if (nr != op->n_results) {
            interp_values_release(rv, nr);
            st = interp_fail(p, op, BASE_ERR_INVALID, "body returned %d values, expected %d", nr, op->n_results);
            break;
        }
        for (int i = 0; i < n_out && st == BASE_OK; i++) {
            struct base_tensor *s = iv_t(rv[i]);
            if (!s) {
                st = interp_fail(p, op, BASE_ERR_INVALID, "body output %d is not a tensor", i);
                break;
            }
            if (!res[i]) {
                int64_t rd[BASE_MAX_RANK];
                int rr = 0;
                if (s->rank + 1 > BASE_MAX_RANK || dim > s->rank) {
                    st = interp_fail(p, op, BASE_ERR_INVALID, "body output %d has the wrong rank", i);
                    break;
                }
                for (int d = 0; d <= s->rank; d++) rd[rr++] = d == dim ? len : s->dims[d < dim ? d : d - 1];
                enum base_dtype rdt = interp_result_dtype(p, op, i);
                st = base_tensor_create(rdt, rr, rd, &res[i]);
                if (st != BASE_OK) {
                    st = interp_fail(p, op, st, "cannot allocate result %d", i);
                    break;
                }
            }
            if (s->count * len != res[i]->count) {
                st = interp_fail(p, op, BASE_ERR_INVALID, "body output %d changes shape between steps", i);
                break;
            }
            if (s->dtype == res[i]->dtype) {
                slice_copy(res[i], (int)dim, at, s, true);
            } else {
                struct base_tensor *c = NULL;
                st = base_tensor_create(res[i]->dtype, s->rank, s->dims, &c);
                if (st != BASE_OK) {
                    st = interp_fail(p, op, st, "out of memory");
                    break;
                }
                base_convert(c->dtype, c->data, s->dtype, s->data, (size_t)s->count);
                slice_copy(res[i], (int)dim, at, c, true);
                base_tensor_release(c);
            }
        }
        for (int i = 0; i < n_init; i++) {
            interp_value_release(carry[i]);
            carry[i] = rv[n_out + i];
            rv[n_out + i] = NULL;
        }
        interp_values_release(rv, nr);
    }
    /* outputs of a zero-length scan take the declared result shape */
    for (int i = 0; i < n_out && st == BASE_OK; i++)
        if (!res[i]) st = interp_alloc_result(p, op, i, &res[i]);
    st = interp_set_outs(p, op, st, out, res, n_out);
    for (int i = 0; i < n_init && st == BASE_OK; i++) {
        out[n_out + i] = carry[i];
        carry[i] = NULL;
    }
    interp_values_release(carry, n_init);
    return st;
}

void interp_register_reduce(interp_kernel_fn *table)
{
    table[GRAPH_OP_REDUCE] = k_reduce;
    table[GRAPH_OP_REDUCE_WINDOW] = k_reduce_window;
    table[GRAPH_OP_SELECT_AND_SCATTER] = k_select_and_scatter;
    table[GRAPH_OP_MAP] = k_map;
    table[GRAPH_OP_CHLO_SCAN] = k_scan;
    /* chlo.top_k is registered by its own family */
}
