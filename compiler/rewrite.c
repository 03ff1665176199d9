/* Graph-level peepholes, applied while compile.c walks the graph: each
 * returns a replacement op (allocated in the plan's arena) that computes the
 * same result value exactly, in a form the chip supports. */
#include "compiler/cc_internal.h"

#include <math.h>
#include <string.h>

/* The value of an f64 splat constant, also through broadcasts and reshapes
 * of one (exporters broadcast a scalar constant to the compared shape). */
static bool f64_splat(const struct graph_value *v, double *out)
{
    const struct graph_op *op = v->def;
    for (int depth = 0; op && depth < 8; depth++) {
        if (op->kind != GRAPH_OP_BROADCAST_IN_DIM && op->kind != GRAPH_OP_BROADCAST && op->kind != GRAPH_OP_RESHAPE)
            break;
        op = op->n_operands == 1 ? op->operands[0]->def : NULL;
    }
    if (!op || op->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(op, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count < 1 || t->dtype != BASE_DT_F64) return false;
    uint64_t b0 = base_elem_get_bits(t->dtype, t->data, 0);
    for (int64_t i = 1; i < t->count; i++)
        if (base_elem_get_bits(t->dtype, t->data, (size_t)i) != b0) return false;
    *out = base_elem_get_f64(t->dtype, t->data, 0);
    return true;
}

/* x when v = convert(x) with x f32 and v f64 (exact: every f32 is an f64). */
static const struct graph_value *f32_widened(const struct graph_value *v)
{
    const struct graph_op *op = v->def;
    if (!op || op->kind != GRAPH_OP_CONVERT || op->n_operands != 1) return NULL;
    const struct graph_type *t = op->operands[0]->type;
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || t->elem != BASE_DT_F32) return NULL;
    return op->operands[0];
}

static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
enum { EQ, NE, LT, LE, GT, GE };

/* The f32 c' with (double)x DIR c == x DIR c' for every f32 x (FLOAT
 * compare: NaN unordered).  A NaN c' makes EQ/LT/.. false and NE true for
 * every x, which is also the answer for a NaN c and for EQ/NE with a c no
 * f32 equals. */
float cc_rewrite_f32_bound(int dir, double c)
{
    if (isnan(c)) return NAN;
    float f = (float)c; /* to nearest; overflow gives +-inf */
    float lo = f, hi = f; /* the floats around c: lo <= c <= hi */
    if ((double)f < c) hi = nextafterf(f, INFINITY);
    if ((double)f > c) lo = nextafterf(f, -INFINITY);
    switch (dir) {
    case EQ:
    case NE: return lo == hi ? f : NAN;
    case LT: return hi; /* x < c  <=>  x < hi */
    case GE: return hi; /* x >= c <=>  x >= hi */
    case LE: return lo; /* x <= c <=>  x <= lo */
    case GT: return lo; /* x > c  <=>  x > lo */
    default: return NAN;
    }
}

const struct graph_op *cc_rewrite_f64_compare(const struct graph_op *op, uint32_t id_base, struct base_arena *a)
{
    if (op->kind != GRAPH_OP_COMPARE || op->n_operands != 2 || op->n_results != 1) return NULL;
    const struct graph_type *rt = op->results[0].type;
    if (!rt || rt->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(rt)) return NULL;
    const struct graph_attr *ta = graph_op_attr(op, "compare_type");
    if (ta && !graph_attr_is_keyword(ta, "FLOAT")) return NULL;
    const struct graph_attr *da = graph_op_attr(op, "comparison_direction");
    int dir = -1;
    for (int i = 0; i < 6; i++)
        if (graph_attr_is_keyword(da, dirs[i])) dir = i;
    if (dir < 0) return NULL;
    const struct graph_value *x = f32_widened(op->operands[0]);
    double c;
    if (x && f64_splat(op->operands[1], &c)) {
        /* x DIR c */
    } else if ((x = f32_widened(op->operands[1])) != NULL && f64_splat(op->operands[0], &c)) {
        static const int swapped[] = {EQ, NE, GT, GE, LT, LE}; /* c DIR x == x swapped(DIR) c */
        dir = swapped[dir];
    } else {
        return NULL;
    }
    if (!graph_type_is_static(x->type)) return NULL;
    float cf = cc_rewrite_f32_bound(dir, c);

    /* the f32 splat constant, of x's shape */
    struct base_tensor *t = base_arena_alloc(a, sizeof *t);
    struct graph_attr *va = base_arena_alloc(a, sizeof *va);
    struct graph_named_attr *vna = base_arena_alloc(a, sizeof *vna);
    struct graph_op *cop = base_arena_alloc(a, sizeof *cop);
    struct graph_value *cv = base_arena_alloc(a, sizeof *cv);
    struct graph_op *cmp = base_arena_alloc(a, sizeof *cmp);
    struct graph_value **opnds = base_arena_alloc(a, 2 * sizeof *opnds);
    struct graph_attr *da2 = base_arena_alloc(a, sizeof *da2);
    struct graph_named_attr *cna = base_arena_alloc(a, 2 * sizeof *cna);
    const struct graph_type *xt = x->type;
    int64_t count = 1;
    for (int d = 0; d < xt->rank; d++) count *= xt->dims[d];
    unsigned char *raw = base_arena_alloc(a, (size_t)count * sizeof(float) + 64);
    if (!t || !va || !vna || !cop || !cv || !cmp || !opnds || !da2 || !cna || !raw) return NULL;
    memset(t, 0, sizeof *t);
    t->dtype = BASE_DT_F32;
    t->rank = xt->rank;
    for (int d = 0; d < xt->rank; d++) t->dims[d] = xt->dims[d];
    t->count = count;
    t->data = raw + (64 - (uintptr_t)raw % 64) % 64;
    t->refs = 1;
    for (int64_t i = 0; i < count; i++) base_elem_set_f64(BASE_DT_F32, t->data, (size_t)i, (double)cf);
    memset(va, 0, sizeof *va);
    va->kind = GRAPH_ATTR_ELEMENTS;
    va->u.elements.type = xt;
    va->u.elements.value = t;
    vna->name = "value";
    vna->value = va;
    memset(cop, 0, sizeof *cop);
    memset(cv, 0, sizeof *cv);
    cop->kind = GRAPH_OP_CONSTANT;
    cop->name = "stablehlo.constant";
    cop->n_results = 1;
    cop->results = cv;
    cop->n_attrs = 1;
    cop->attrs = vna;
    cop->parent = op->parent;
    cop->loc = op->loc;
    cop->id = op->id;
    cv->type = xt;
    cv->def = cop;
    cv->id = id_base + op->id; /* past every value of the module */

    /* x DIR c' into op's own result */
    *da2 = *da;
    da2->u.str.s = dirs[dir];
    da2->u.str.len = strlen(dirs[dir]);
    cna[0].name = "comparison_direction";
    cna[0].value = da2;
    cna[1].name = "compare_type";
    cna[1].value = ta;
    memset(cmp, 0, sizeof *cmp);
    cmp->kind = GRAPH_OP_COMPARE;
    cmp->name = op->name;
    opnds[0] = (struct graph_value *)x; /* the graph is not modified through these */
    opnds[1] = cv;
    cmp->n_operands = 2;
    cmp->operands = opnds;
    cmp->n_results = 1;
    cmp->results = op->results;
    cmp->n_attrs = ta ? 2 : 1;
    cmp->attrs = cna;
    cmp->parent = op->parent;
    cmp->loc = op->loc;
    cmp->id = op->id;
    return cmp;
}
