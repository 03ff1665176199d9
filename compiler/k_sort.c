/* Sorts and top-k on the vector engines (CC_K_SORT): stablehlo.sort with 1
 * to 8 operands, any sort dimension and any comparator that is a
 * lexicographic order on keys computed from each element; chlo.top_k and
 * the top-k custom calls (interp_topk_call).  docs/compiler.md, "Kernels:
 * sort".
 *
 * The order.  The golden interpreter sorts every slice with one stable merge
 * sort, also when is_stable is false.  When the comparator is a strict weak
 * order that result is the only stable sorted order: the slice ordered by
 * the comparator, equivalent elements in their original order.  The kernel
 * proves the comparator is such an order (a lexicographic order on keys, see
 * "comparator analysis") and sorts by (keys..., original index), a strict
 * total order, with a sorting network; any correct network then gives the
 * interpreter's result bit for bit, NaNs and signed zeros included (float
 * keys compare as their total-order integers).
 *
 * The network.  Rows (the 1-D slices along the sort dimension) lie on
 * partitions, r rows per partition, each row's n elements contiguous.  The
 * bitonic network in its "flip" form: for block sizes b = 2, 4, ..., a flip
 * step compares element i with its mirror b-1-i in its block of b, then
 * half-cleaners compare i with i + d for d = b/4, ..., 1; every
 * compare-exchange puts the element that goes first at the lower position.
 * One step over all rows of a tile is a few instructions whose access
 * patterns walk the pairs (the mirrors with a negative stride): the mask "B
 * goes before A" (3 instructions per key, 1 for the index), then a select per
 * carried tile and side, from one buffer into the other.  A row length that
 * is no power of two runs the network of the next power of two with virtual
 * +inf elements at the end: a compare-exchange with a virtual partner is a
 * no-op and is dropped, its real element copied.
 *
 * Top-k (chlo.top_k, the custom calls, and a sort read only through slices of
 * its first k positions): blocks of K = 2^ceil(log2 k) are sorted, then each
 * round merges pairs of blocks keeping the first K of each pair (element i of
 * block 2g against element K-1-i of block 2g+1 gives a bitonic sequence of
 * the K first, which half-cleaners K/2, ..., 1 sort), halving the rows, until
 * one block is left: its first k are the answer. */
#include "compiler/cc_internal.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SORT_MAX_IN 8    /* operands */
#define SORT_MAX_KEYS 6  /* keys of a comparator (3^6 outcome vectors) */
#define SX_MAX 64        /* nodes of the key expressions */
#define BN_MAX 64        /* nodes of the comparator's boolean part */
#define RV_MAX 256       /* values of a comparator */
#define SORT_MAX_TILES (SORT_MAX_IN + SORT_MAX_KEYS + 1)
#define SORT_MAX_TMP 12

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* ------------------------------------------------------------ the spec */

/* A node of a key expression: a function of one element's operands. */
enum { SX_ARG, SX_CONST, SX_OP };
struct sx {
    int kind;
    enum base_dtype dt;
    int arg;                /* SX_ARG: the operand */
    uint64_t bits;          /* SX_CONST: the value */
    enum graph_op_kind op;  /* SX_OP */
    unsigned func;          /* its ISA function (compares: integer form for total orders) */
    bool total;             /* a TOTALORDER compare of floats */
    int n_src, src[3];
};

/* How a key compares: as the integer of a float's total order, signed or
 * unsigned. */
enum { KEY_TOTAL, KEY_SIGNED, KEY_UNSIGNED };
struct skey {
    int expr;               /* sx node: the key of one element */
    int cls;
    bool desc;              /* the element with the larger key goes first */
    enum base_dtype kdt;    /* the key's tile type (an integer type) */
};

struct sort_spec {
    int n;                              /* operands */
    int rank, dim;
    int64_t dims[BASE_MAX_RANK];        /* the operands' shape */
    int64_t N;                          /* sort dimension */
    enum base_dtype dt[SORT_MAX_IN];
    bool topk;                          /* results: values (operand 0) and indices */
    int64_t k;                          /* leading positions of each row the results need */
    enum base_dtype idx_dt;             /* topk: the indices' type */
    bool iota_arg[SORT_MAX_IN];         /* operand j is an iota along the sort dimension */
    int n_sx;
    struct sx sx[SX_MAX];
    int n_keys;
    struct skey key[SORT_MAX_KEYS];     /* lexicographic, most significant first */
};

static bool sx_same(const struct sx *a, const struct sx *b)
{
    if (a->kind != b->kind || a->dt != b->dt || a->arg != b->arg || a->bits != b->bits || a->op != b->op ||
        a->func != b->func || a->total != b->total || a->n_src != b->n_src)
        return false;
    for (int i = 0; i < a->n_src; i++)
        if (a->src[i] != b->src[i]) return false;
    return true;
}

/* Hash-consed: the same function of the element gets the same node, so the
 * comparator's two sides meet at one node when they compute the same key. */
static int sx_add(struct sort_spec *sp, const struct sx *x)
{
    for (int i = 0; i < sp->n_sx; i++)
        if (sx_same(&sp->sx[i], x)) return i;
    if (sp->n_sx >= SX_MAX) return -1;
    sp->sx[sp->n_sx] = *x;
    return sp->n_sx++;
}

static bool scalar_type(const struct graph_type *t, enum base_dtype *dt)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || t->rank != 0 || base_dtype_is_complex(t->elem))
        return false;
    *dt = t->elem;
    return true;
}

/* A float the vector engines compute with exactly (in f32). */
static bool narrow_float(enum base_dtype dt)
{
    return base_dtype_is_float(dt) && base_dtype_bits(dt) >= 8 && base_dtype_bits(dt) <= 32;
}

/* The signed integer type of a float's width (its total-order key), or the
 * count: none. */
static enum base_dtype total_key_type(enum base_dtype dt)
{
    if (base_dtype_size(dt) * 8 != (size_t)base_dtype_bits(dt)) return BASE_DT_COUNT;
    switch (base_dtype_bits(dt)) {
    case 8: return BASE_DT_SI8;
    case 16: return BASE_DT_SI16;
    case 32: return BASE_DT_SI32;
    case 64: return BASE_DT_SI64;
    default: return BASE_DT_COUNT;
    }
}

/* ---------------------------------------------------- comparator analysis
 *
 * Every value of the comparator is classified by the arguments it depends
 * on: none (a constant), the left element's (lhs: arguments 0, 2, ...), the
 * right one's, or both.  One-sided values become key-expression nodes, the
 * right side's written as functions of the element too, so that a value and
 * its mirror (the same function of the other element) are one node.  A
 * two-sided value must be an i1: a compare of a one-sided value with its
 * mirror (an atom: key(lhs) REL key(rhs), on a key whose compare is a strict
 * total order: a float's TOTALORDER, or integers), or and / or / xor / not /
 * select of such atoms and i1 constants.  The comparator is then a boolean
 * function F of the outcomes (<, =, >) of its keys; its truth table over all
 * 3^m outcome vectors must be a lexicographic order: some key k decides
 * wherever it is not = (< one way, > the other), and with k equal, recursively,
 * until F is 0.  That is a strict weak order, and the keys in that order with
 * their directions are all the kernel needs. */

enum { BN_ATOM, BN_CONST, BN_AND, BN_OR, BN_XOR, BN_NOT, BN_SEL };
enum { REL_EQ, REL_NE, REL_LT, REL_LE, REL_GT, REL_GE };
struct bn {
    int kind;
    int key, rel;           /* ATOM: raw key, key(lhs) rel key(rhs) */
    bool val;               /* CONST */
    int src[3];
};

struct rv {
    const struct graph_value *v;
    int side;               /* bit 0: lhs, bit 1: rhs */
    int sx;                 /* one-sided and constant values */
    int bn;                 /* two-sided values */
};

struct an {
    struct sort_spec *sp;
    int n_rv;
    struct rv rv[RV_MAX];
    int n_bn;
    struct bn bn[BN_MAX];
    int n_rk;
    int rk_expr[SORT_MAX_KEYS], rk_cls[SORT_MAX_KEYS];
    char *why;
    size_t cap;
};

static const struct rv *rv_of(const struct an *a, const struct graph_value *v)
{
    for (int i = a->n_rv - 1; i >= 0; i--)
        if (a->rv[i].v == v) return &a->rv[i];
    return NULL;
}

static bool rv_push(struct an *a, const struct graph_value *v, int side, int sx, int bn)
{
    if (a->n_rv >= RV_MAX) return why_set(a->why, a->cap, "the comparator is too long");
    a->rv[a->n_rv++] = (struct rv){v, side, sx, bn};
    return true;
}

static int bn_add(struct an *a, struct bn x)
{
    if (a->n_bn >= BN_MAX) return -1;
    a->bn[a->n_bn] = x;
    return a->n_bn++;
}

static int rel_of(const struct graph_op *cmp)
{
    static const char *const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    const struct graph_attr *d = graph_op_attr(cmp, "comparison_direction");
    for (int i = 0; i < 6; i++)
        if (graph_attr_is_keyword(d, names[i])) return i;
    return -1;
}

static int rel_mirror(int r)
{
    switch (r) {
    case REL_LT: return REL_GT;
    case REL_GT: return REL_LT;
    case REL_LE: return REL_GE;
    case REL_GE: return REL_LE;
    default: return r;
    }
}

/* o: -1 key(lhs) < key(rhs), 0 equal, 1 greater */
static bool rel_eval(int r, int o)
{
    switch (r) {
    case REL_EQ: return o == 0;
    case REL_NE: return o != 0;
    case REL_LT: return o < 0;
    case REL_LE: return o <= 0;
    case REL_GT: return o > 0;
    default: return o >= 0;
    }
}

/* The key class of compare `cmp` of values of type dt; -1 when it is no
 * strict total order (a FLOAT compare of floats: NaN is unordered). */
static int key_class(const struct graph_op *cmp, enum base_dtype dt)
{
    const struct graph_attr *ta = graph_op_attr(cmp, "compare_type");
    bool notype = !ta || graph_attr_is_keyword(ta, "NOTYPE");
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT:
        return graph_attr_is_keyword(ta, "TOTALORDER") && total_key_type(dt) != BASE_DT_COUNT ? KEY_TOTAL : -1;
    case BASE_KIND_SINT: return notype || graph_attr_is_keyword(ta, "SIGNED") ? KEY_SIGNED : -1;
    case BASE_KIND_UINT:
    case BASE_KIND_BOOL: return notype || graph_attr_is_keyword(ta, "UNSIGNED") ? KEY_UNSIGNED : -1;
    default: return -1;
    }
}

/* A scalar constant the engines can write exactly (memset through a double). */
static bool const_bits(const struct graph_op *o, enum base_dtype dt, uint64_t *bits)
{
    const struct graph_attr *v = graph_op_attr(o, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS || !v->u.elements.value || !v->u.elements.value->data ||
        v->u.elements.value->count != 1 || v->u.elements.value->dtype != dt)
        return false;
    *bits = base_elem_get_bits(dt, v->u.elements.value->data, 0);
    uint8_t one[16] = {0};
    base_elem_set_f64(dt, one, 0, base_elem_get_f64(dt, v->u.elements.value->data, 0));
    return base_elem_get_bits(dt, one, 0) == *bits;
}

/* The node of one-sided op o over nodes src[] (why set on failure). */
static int sx_of_op(struct an *a, const struct graph_op *o, const int *src, enum base_dtype rt)
{
    struct sort_spec *sp = a->sp;
    struct sx x;
    memset(&x, 0, sizeof x);
    x.kind = SX_OP;
    x.op = o->kind;
    x.dt = rt;
    x.n_src = o->n_operands;
    if (x.n_src > 3) return why_set(a->why, a->cap, "a comparator op has an unexpected arity"), -1;
    for (int i = 0; i < x.n_src; i++) x.src[i] = src[i];
    enum base_dtype d0 = sp->sx[src[0]].dt;
    bool fl = base_dtype_is_float(d0), in = base_dtype_is_int(d0) || d0 == BASE_DT_I1;
    for (int i = 1; i < x.n_src && o->kind != GRAPH_OP_SELECT; i++)
        if (sp->sx[src[i]].dt != d0) return why_set(a->why, a->cap, "comparator ops must keep one element type"), -1;
    const char *bad = NULL;
    switch (o->kind) {
    case GRAPH_OP_COMPARE: {
        if (x.n_src != 2 || rt != BASE_DT_I1) bad = "a compare must compare two scalars";
        else if (fl && graph_attr_is_keyword(graph_op_attr(o, "compare_type"), "TOTALORDER")) {
            x.total = true;
            if (total_key_type(d0) == BASE_DT_COUNT || !cc_compare_func(o, &x.func, true))
                bad = "a total-order compare of this element type";
        } else if (fl) {
            if (!narrow_float(d0) || !cc_compare_func(o, &x.func, false)) bad = "an f64 compare";
        } else if (!cc_compare_func(o, &x.func, true)) {
            bad = "a compare without a direction";
        }
        break;
    }
    case GRAPH_OP_SELECT:
        if (x.n_src != 3 || d0 != BASE_DT_I1 || sp->sx[src[1]].dt != rt || sp->sx[src[2]].dt != rt)
            bad = "a select must choose between two values of its type";
        break;
    case GRAPH_OP_AND:
    case GRAPH_OP_OR:
    case GRAPH_OP_XOR:
        if (!in || rt != d0) bad = "and, or, xor of integers or booleans";
        x.func = o->kind == GRAPH_OP_AND ? ISA_ALU_IAND : o->kind == GRAPH_OP_OR ? ISA_ALU_IOR : ISA_ALU_IXOR;
        break;
    case GRAPH_OP_NOT:
        if (!in || rt != d0) bad = "not of integers or booleans";
        x.func = ISA_ALU_INOT;
        break;
    case GRAPH_OP_CONVERT:
        if (base_dtype_is_complex(rt)) bad = "a convert to complex";
        x.func = ISA_ALU_CAST;
        break;
    case GRAPH_OP_BITCAST_CONVERT:
        if (base_dtype_bits(rt) != base_dtype_bits(d0) || base_dtype_size(rt) != base_dtype_size(d0) ||
            base_dtype_size(rt) * 8 != (size_t)base_dtype_bits(rt))
            bad = "a bitcast_convert between types of different widths";
        break;
    case GRAPH_OP_NEGATE:
    case GRAPH_OP_ABS:
        if (fl ? !narrow_float(d0) : (!base_dtype_is_int(d0))) bad = "negate or abs of this type";
        x.func = o->kind == GRAPH_OP_NEGATE ? (fl ? ISA_ALU_NEG : ISA_ALU_INEG) : (fl ? ISA_ALU_ABS : ISA_ALU_IABS);
        break;
    case GRAPH_OP_ADD:
    case GRAPH_OP_SUBTRACT:
    case GRAPH_OP_MULTIPLY:
    case GRAPH_OP_MAXIMUM:
    case GRAPH_OP_MINIMUM: {
        static const unsigned ff[] = {ISA_ALU_ADD, ISA_ALU_SUB, ISA_ALU_MUL, ISA_ALU_MAX, ISA_ALU_MIN};
        static const unsigned fi[] = {ISA_ALU_IADD, ISA_ALU_ISUB, ISA_ALU_IMUL, ISA_ALU_IMAX, ISA_ALU_IMIN};
        int i = o->kind == GRAPH_OP_ADD ? 0 : o->kind == GRAPH_OP_SUBTRACT ? 1 : o->kind == GRAPH_OP_MULTIPLY ? 2
                : o->kind == GRAPH_OP_MAXIMUM ? 3 : 4;
        if (fl ? !narrow_float(d0) : !base_dtype_is_int(d0)) bad = "arithmetic on this type";
        if (rt != d0) bad = "arithmetic must keep its type";
        x.func = fl ? ff[i] : fi[i];
        break;
    }
    default:
        bad = "comparator ops must be compare, select, and, or, xor, not, convert, bitcast_convert, negate, abs, add, "
              "subtract, multiply, maximum, minimum or constants";
    }
    if (bad) return why_set(a->why, a->cap, bad), -1;
    int id = sx_add(sp, &x);
    if (id < 0) why_set(a->why, a->cap, "the comparator is too long");
    return id;
}

/* A two-sided op: an atom or a boolean combination. */
static int bn_of_op(struct an *a, const struct graph_op *o, const struct rv *const *ops)
{
    struct sort_spec *sp = a->sp;
    if (o->kind == GRAPH_OP_COMPARE && o->n_operands == 2 && ops[0]->bn < 0 && ops[1]->bn < 0) {
        int sa = ops[0]->side, sb = ops[1]->side;
        if (!((sa == 1 && sb == 2) || (sa == 2 && sb == 1)))
            return why_set(a->why, a->cap, "the comparator compares a value of both elements"), -1;
        if (ops[0]->sx != ops[1]->sx)
            return why_set(a->why, a->cap,
                           "the comparator compares different functions of the two elements (no key)"),
                   -1;
        enum base_dtype dt = sp->sx[ops[0]->sx].dt;
        int cls = key_class(o, dt), rel = rel_of(o);
        if (cls < 0)
            return why_set(a->why, a->cap,
                           base_dtype_is_float(dt)
                               ? "a FLOAT compare of float keys orders NaN with nothing: no strict weak order "
                                 "(TOTALORDER compares are lowered)"
                               : "a compare type that does not match the keys' type"),
                   -1;
        if (rel < 0) return why_set(a->why, a->cap, "a compare without a direction"), -1;
        int key = -1;
        for (int i = 0; i < a->n_rk; i++)
            if (a->rk_expr[i] == ops[0]->sx && a->rk_cls[i] == cls) key = i;
        if (key < 0) {
            if (a->n_rk >= SORT_MAX_KEYS) return why_set(a->why, a->cap, "the comparator has more than 6 keys"), -1;
            key = a->n_rk++;
            a->rk_expr[key] = ops[0]->sx;
            a->rk_cls[key] = cls;
        }
        return bn_add(a, (struct bn){BN_ATOM, key, sa == 1 ? rel : rel_mirror(rel), false, {0, 0, 0}});
    }
    int kind = o->kind == GRAPH_OP_AND ? BN_AND : o->kind == GRAPH_OP_OR ? BN_OR : o->kind == GRAPH_OP_XOR ? BN_XOR
               : o->kind == GRAPH_OP_NOT ? BN_NOT : o->kind == GRAPH_OP_SELECT ? BN_SEL : -1;
    int want = kind == BN_NOT ? 1 : kind == BN_SEL ? 3 : 2;
    if (kind < 0 || o->n_operands != want || o->results[0].type->elem != BASE_DT_I1)
        return why_set(a->why, a->cap, "the comparator combines the two elements other than by comparing keys"), -1;
    struct bn x = {kind, 0, 0, false, {0, 0, 0}};
    for (int i = 0; i < want; i++) {
        if (ops[i]->bn >= 0) {
            x.src[i] = ops[i]->bn;
            continue;
        }
        const struct sx *c = ops[i]->sx >= 0 ? &sp->sx[ops[i]->sx] : NULL;
        if (ops[i]->side != 0 || !c || c->kind != SX_CONST || c->dt != BASE_DT_I1)
            return why_set(a->why, a->cap,
                           "the comparator combines a predicate of one element with the comparison (no "
                           "lexicographic order)"),
                   -1;
        x.src[i] = bn_add(a, (struct bn){BN_CONST, 0, 0, c->bits != 0, {0, 0, 0}});
        if (x.src[i] < 0) return why_set(a->why, a->cap, "the comparator is too long"), -1;
    }
    return bn_add(a, x);
}

static bool bn_eval(const struct an *a, int root, const int *o, bool *val)
{
    for (int i = 0; i <= root; i++) {
        const struct bn *x = &a->bn[i];
        bool v = false;
        switch (x->kind) {
        case BN_ATOM: v = rel_eval(x->rel, o[x->key]); break;
        case BN_CONST: v = x->val; break;
        case BN_AND: v = val[x->src[0]] && val[x->src[1]]; break;
        case BN_OR: v = val[x->src[0]] || val[x->src[1]]; break;
        case BN_XOR: v = val[x->src[0]] != val[x->src[1]]; break;
        case BN_NOT: v = !val[x->src[0]]; break;
        case BN_SEL: v = val[x->src[0]] ? val[x->src[1]] : val[x->src[2]]; break;
        }
        val[i] = v;
    }
    return val[root];
}

/* The keys of F (the truth table over outcome vectors) in lexicographic order. */
static bool lex_keys(struct an *a, int root, bool fconst)
{
    struct sort_spec *sp = a->sp;
    int m = a->n_rk, total = 1;
    for (int i = 0; i < m; i++) total *= 3;
    bool *F = malloc((size_t)total), *val = malloc(BN_MAX);
    if (!F || !val) {
        free(F);
        free(val);
        return why_set(a->why, a->cap, "out of memory");
    }
    for (int t = 0; t < total; t++) {
        int o[SORT_MAX_KEYS];
        for (int i = 0, q = t; i < m; i++, q /= 3) o[i] = q % 3 - 1;
        F[t] = root >= 0 ? bn_eval(a, root, o, val) : fconst;
    }
    bool used[SORT_MAX_KEYS] = {false}, ok = true;
    sp->n_keys = 0;
    for (;;) {
        bool any = false;
        for (int t = 0; t < total && !any; t++) {
            bool in = true;
            for (int i = 0, q = t; i < m; i++, q /= 3)
                if (used[i] && q % 3 != 1) in = false;
            any = in && F[t];
        }
        if (!any) break;
        int found = -1;
        bool desc = false;
        for (int k = 0; k < m && found < 0; k++) {
            if (used[k]) continue;
            int c_lt = -1, c_gt = -1;
            bool good = true;
            for (int t = 0; t < total && good; t++) {
                int ok_t = 1, ok_k = 0;
                for (int i = 0, q = t; i < m; i++, q /= 3) {
                    if (used[i] && q % 3 != 1) ok_t = 0;
                    if (i == k) ok_k = q % 3 - 1;
                }
                if (!ok_t || ok_k == 0) continue;
                int *c = ok_k < 0 ? &c_lt : &c_gt;
                if (*c < 0) *c = F[t];
                else if (*c != F[t]) good = false;
            }
            if (good && c_lt >= 0 && c_gt >= 0 && c_lt != c_gt) {
                found = k;
                desc = c_gt == 1;
            }
        }
        if (found < 0) {
            ok = why_set(a->why, a->cap,
                         "the comparator is no lexicographic order on keys of the elements (not a strict weak "
                         "order: the interpreter's merge-sort order would depend on the algorithm)");
            break;
        }
        used[found] = true;
        struct skey *sk = &sp->key[sp->n_keys++];
        sk->expr = a->rk_expr[found];
        sk->cls = a->rk_cls[found];
        sk->desc = desc;
        enum base_dtype edt = sp->sx[sk->expr].dt;
        sk->kdt = sk->cls == KEY_TOTAL ? total_key_type(edt) : edt;
    }
    free(F);
    free(val);
    return ok;
}

static bool analyze_comparator(const struct graph_op *op, struct sort_spec *sp, char *why, size_t cap)
{
    if (op->n_regions != 1 || op->regions[0].n_blocks != 1) return why_set(why, cap, "the comparator must be one block");
    const struct graph_block *b = &op->regions[0].blocks[0];
    if (b->n_args != 2 * sp->n) return why_set(why, cap, "the comparator must take two scalars per operand");
    struct an *a = calloc(1, sizeof *a);
    if (!a) return why_set(why, cap, "out of memory");
    a->sp = sp;
    a->why = why;
    a->cap = cap;
    bool ok = true;
    for (int i = 0; i < b->n_args && ok; i++) {
        enum base_dtype dt;
        if (!scalar_type(b->args[i].type, &dt) || dt != sp->dt[i / 2]) {
            ok = why_set(why, cap, "comparator arguments must be scalars of their operand's element type");
            break;
        }
        struct sx x;
        memset(&x, 0, sizeof x);
        x.kind = SX_ARG;
        x.dt = dt;
        x.arg = i / 2;
        int id = sx_add(sp, &x);
        ok = id >= 0 && rv_push(a, &b->args[i], i % 2 ? 2 : 1, id, -1);
    }
    const struct graph_op *term = graph_block_terminator(b);
    if (ok && (!term || term->n_operands != 1)) ok = why_set(why, cap, "the comparator must return one i1");
    for (int k = 0; ok && k < b->n_ops; k++) {
        const struct graph_op *o = b->ops[k];
        if (o == term) break;
        enum base_dtype rt;
        if (o->n_results != 1 || o->n_regions != 0 || !scalar_type(o->results[0].type, &rt)) {
            ok = why_set(why, cap, "comparator ops must have one scalar result");
            break;
        }
        if (o->kind == GRAPH_OP_CONSTANT) {
            struct sx x;
            memset(&x, 0, sizeof x);
            x.kind = SX_CONST;
            x.dt = rt;
            if (!const_bits(o, rt, &x.bits)) {
                ok = why_set(why, cap, "a comparator constant the engines cannot write exactly");
                break;
            }
            int id = sx_add(sp, &x);
            ok = id >= 0 ? rv_push(a, &o->results[0], 0, id, -1) : why_set(why, cap, "the comparator is too long");
            continue;
        }
        const struct rv *ops[3];
        int side = 0, src[3] = {0, 0, 0};
        bool mixed = false;
        if (o->n_operands < 1 || o->n_operands > 3) {
            ok = why_set(why, cap, "a comparator op has an unexpected arity");
            break;
        }
        for (int i = 0; i < o->n_operands && ok; i++) {
            ops[i] = rv_of(a, o->operands[i]);
            if (!ops[i]) {
                ok = why_set(why, cap, "the comparator uses a value from outside its body");
                break;
            }
            side |= ops[i]->side;
            mixed |= ops[i]->bn >= 0;
            src[i] = ops[i]->sx;
        }
        if (!ok) break;
        if (mixed || side == 3) {
            int id = bn_of_op(a, o, ops);
            ok = id >= 0 ? rv_push(a, &o->results[0], 3, -1, id)
                         : (a->why[0] ? false : why_set(why, cap, "the comparator is too long"));
        } else {
            int id = sx_of_op(a, o, src, rt);
            ok = id >= 0 && rv_push(a, &o->results[0], side, id, -1);
        }
    }
    if (ok) {
        const struct rv *r = rv_of(a, term->operands[0]);
        if (!r) ok = why_set(why, cap, "the comparator returns a value from outside its body");
        else if (r->bn >= 0) ok = lex_keys(a, r->bn, false);
        else if (r->side == 0 && sp->sx[r->sx].kind == SX_CONST && sp->sx[r->sx].dt == BASE_DT_I1)
            ok = lex_keys(a, -1, sp->sx[r->sx].bits != 0);
        else ok = why_set(why, cap, "the comparator's result depends on one element only");
    }
    free(a);
    return ok;
}

/* The leading positions along `dim` of op's results that anything reads: a
 * result read only by slices needs the positions below their limits. */
static void uses_in_block(const struct graph_block *b, const struct graph_op *op, int dim, int64_t *need, int64_t N)
{
    for (int i = 0; i < b->n_ops && *need < N; i++) {
        const struct graph_op *o = b->ops[i];
        for (int j = 0; j < o->n_operands; j++) {
            const struct graph_value *v = o->operands[j];
            if (v->def != op) continue;
            int64_t lim[BASE_MAX_RANK];
            if (o->kind == GRAPH_OP_SLICE && j == 0 &&
                graph_attr_as_i64_list(graph_op_attr(o, "limit_indices"), lim, BASE_MAX_RANK) > dim) {
                if (lim[dim] > *need) *need = lim[dim];
            } else {
                *need = N;
            }
        }
        for (int r = 0; r < o->n_regions; r++)
            for (int k = 0; k < o->regions[r].n_blocks; k++) uses_in_block(&o->regions[r].blocks[k], op, dim, need, N);
    }
}

static bool sort_analyze(const struct graph_op *op, struct sort_spec *sp, char *why, size_t cap)
{
    memset(sp, 0, sizeof *sp);
    int64_t k = 0;
    bool largest = true;
    bool topk = op->kind == GRAPH_OP_CHLO_TOP_K || (op->kind == GRAPH_OP_CUSTOM_CALL && interp_topk_call(op, &k, &largest));
    if (op->kind == GRAPH_OP_CHLO_TOP_K && !graph_attr_as_i64(graph_op_attr(op, "k"), &k))
        return why_set(why, cap, "top_k without k");
    if (!topk && op->kind != GRAPH_OP_SORT) return why_set(why, cap, "not a sort");
    int n = topk ? 1 : op->n_operands;
    if (n < 1 || n > SORT_MAX_IN || op->n_results != (topk ? 2 : n))
        return why_set(why, cap, "sort takes 1 to 8 operands, as many results and a comparator");
    const struct graph_type *t0 = op->operands[0]->type;
    sp->n = n;
    sp->rank = t0->rank;
    for (int d = 0; d < t0->rank; d++) sp->dims[d] = t0->dims[d];
    for (int j = 0; j < n; j++) {
        const struct graph_type *t = op->operands[j]->type;
        if (t->rank != t0->rank || memcmp(t->dims, t0->dims, (size_t)t0->rank * sizeof t0->dims[0]))
            return why_set(why, cap, "sort operands must have one shape");
        if (base_dtype_is_complex(t->elem)) return why_set(why, cap, "complex elements are not supported on chip");
        if (op->results[j].type->elem != t->elem) return why_set(why, cap, "results must have their operands' types");
        sp->dt[j] = t->elem;
    }
    if (topk) {
        if (t0->rank < 1) return why_set(why, cap, "top_k of a scalar");
        sp->dim = t0->rank - 1;
        sp->N = t0->dims[sp->dim];
        if (k < 0 || k > sp->N) return why_set(why, cap, "k out of range");
        sp->topk = true;
        sp->k = k;
        sp->idx_dt = op->results[1].type->elem;
        if (!base_dtype_is_int(sp->idx_dt)) return why_set(why, cap, "top_k indices must be integers");
        struct sx x;
        memset(&x, 0, sizeof x);
        x.kind = SX_ARG;
        x.dt = sp->dt[0];
        sp->n_sx = 1;
        sp->sx[0] = x;
        struct skey *key = &sp->key[0];
        sp->n_keys = 1;
        key->expr = 0;
        key->desc = largest;
        switch (base_dtype_kind(sp->dt[0])) {
        case BASE_KIND_FLOAT: key->cls = KEY_TOTAL; break;
        case BASE_KIND_SINT: key->cls = KEY_SIGNED; break;
        default: key->cls = KEY_UNSIGNED; break;
        }
        key->kdt = key->cls == KEY_TOTAL ? total_key_type(sp->dt[0]) : sp->dt[0];
        if (key->kdt == BASE_DT_COUNT) return why_set(why, cap, "top_k of this element type");
        return true;
    }
    int64_t dim = 0;
    graph_attr_as_i64(graph_op_attr(op, "dimension"), &dim);
    if (dim < 0) dim += t0->rank;
    if (t0->rank == 0) dim = 0;
    else if (dim < 0 || dim >= t0->rank) return why_set(why, cap, "dimension out of range");
    sp->dim = (int)dim;
    sp->N = t0->rank ? t0->dims[dim] : 1;
    for (int j = 0; j < n; j++) {
        const struct graph_op *d = op->operands[j]->def;
        int64_t idim;
        enum base_dtype dt = sp->dt[j];
        sp->iota_arg[j] = d && d->kind == GRAPH_OP_IOTA && t0->rank > 0 &&
                          graph_attr_as_i64(graph_op_attr(d, "iota_dimension"), &idim) && idim == dim &&
                          ((base_dtype_is_int(dt) && base_dtype_bits(dt) >= 8) ||
                           (dt == BASE_DT_F32 && sp->N <= (1 << 24)));
    }
    if (!analyze_comparator(op, sp, why, cap)) return false;
    sp->k = 0;
    if (op->parent) uses_in_block(op->parent, op, sp->dim, &sp->k, sp->N);
    else sp->k = sp->N;
    if (sp->k > sp->N) sp->k = sp->N;
    return true;
}

/* ---------------------------------------------------------------- the plan */

/* How a result is written. */
enum { SRC_NONE, SRC_TILE, SRC_IOTA, SRC_KEYINV };

struct ctile {            /* a tile carried through the network: ping and pong */
    enum base_dtype dt;
    int buf[2];
    int buf2[2];          /* the second level of a segmented top-k */
};

struct splan {
    struct sort_spec sp;
    bool need_res[SORT_MAX_IN + 1];  /* results read (topk: values, indices) */
    int n_ct;
    struct ctile ct[SORT_MAX_TILES];
    int op_tile[SORT_MAX_IN];        /* carried tile holding operand j, -1 */
    int op_load[SORT_MAX_IN];        /* >= 0: operand j is loaded only for the keys (its own buffer) */
    int res_src[SORT_MAX_IN + 1];
    int res_tile[SORT_MAX_IN + 1];   /* SRC_TILE: the tile; SRC_KEYINV: the key */
    int key_tile[SORT_MAX_KEYS];
    int idx_tile;                    /* -1: none */
    enum base_dtype idx_dt;          /* its type */
    bool tie;                        /* the index breaks ties */
    /* key evaluation: sx node -> temp (roots only), -1 */
    bool sx_need[SX_MAX];
    int sx_tmp[SX_MAX];
    int n_tmp;                       /* temps of the key evaluation (each N x tmp_es bytes per row) */
    uint64_t tmp_es;                 /* their element size: the widest type they hold */
    int n_load;
    int n_stage;                     /* staged results */
    int stage_of[SORT_MAX_IN + 1];
    uint64_t resident_bytes;
};

static enum base_dtype res_dtype(const struct sort_spec *sp, int r)
{
    return sp->topk && r == 1 ? sp->idx_dt : sp->dt[r];
}

static int n_results(const struct sort_spec *sp) { return sp->topk ? 2 : sp->n; }

/* The node a bitcast chain aliases. */
static int sx_root(const struct sort_spec *sp, int x)
{
    while (sp->sx[x].kind == SX_OP && sp->sx[x].op == GRAPH_OP_BITCAST_CONVERT) x = sp->sx[x].src[0];
    return x;
}

static void mark_need(struct splan *pl, int x)
{
    if (pl->sx_need[x]) return;
    pl->sx_need[x] = true;
    const struct sx *s = &pl->sp.sx[x];
    if (s->kind == SX_OP)
        for (int i = 0; i < s->n_src; i++) mark_need(pl, s->src[i]);
}

static bool uses_arg(const struct sort_spec *sp, int x, int j)
{
    const struct sx *s = &sp->sx[x];
    if (s->kind == SX_ARG) return s->arg == j;
    if (s->kind != SX_OP) return false;
    for (int i = 0; i < s->n_src; i++)
        if (uses_arg(sp, s->src[i], j)) return true;
    return false;
}

static uint64_t round64(uint64_t x) { return (x + 63) & ~(uint64_t)63; }

/* Which tiles are carried, loaded, derived; the key evaluation's temps (the
 * bytes: plan_slot_bytes, seg_bytes). */
static bool plan_build(struct splan *pl, bool wide_index, char *why, size_t cap)
{
    struct sort_spec *sp = &pl->sp;
    int nr = n_results(sp);
    pl->n_ct = 0;
    pl->n_load = pl->n_stage = 0;
    pl->idx_tile = -1;
    for (int j = 0; j < SORT_MAX_IN; j++) pl->op_tile[j] = pl->op_load[j] = -1;
    for (int r = 0; r <= SORT_MAX_IN; r++) pl->res_src[r] = SRC_NONE, pl->res_tile[r] = -1, pl->stage_of[r] = -1;
    for (int k = 0; k < SORT_MAX_KEYS; k++) pl->key_tile[k] = -1;
    /* keys: an integer operand that is its own key is carried as the operand */
    int key_is_op[SORT_MAX_KEYS];
    for (int k = 0; k < sp->n_keys; k++) {
        const struct skey *key = &sp->key[k];
        const struct sx *e = &sp->sx[key->expr];
        key_is_op[k] = e->kind == SX_ARG && key->cls != KEY_TOTAL ? e->arg : -1;
    }
    bool need_idx = sp->topk && pl->need_res[1];
    for (int j = 0; j < sp->n; j++) {
        bool out = sp->topk ? (j == 0 && pl->need_res[0]) : pl->need_res[j];
        bool in_keys = false;
        int inv = -1, ownkey = -1;
        for (int k = 0; k < sp->n_keys; k++) {
            in_keys |= uses_arg(sp, sp->key[k].expr, j);
            if (key_is_op[k] == j) ownkey = k;
            if (sp->sx[sp->key[k].expr].kind == SX_ARG && sp->sx[sp->key[k].expr].arg == j &&
                sp->key[k].cls == KEY_TOTAL)
                inv = k;
        }
        if (ownkey >= 0 || (out && !(sp->iota_arg[j] && !in_keys) && inv < 0)) {
            pl->op_tile[j] = pl->n_ct;
            pl->ct[pl->n_ct++].dt = sp->dt[j];
        } else if (in_keys) {
            pl->op_load[j] = pl->n_load++;
        }
        int r = sp->topk ? 0 : j;
        if (!out) continue;
        if (pl->op_tile[j] >= 0) {
            pl->res_src[r] = SRC_TILE;
            pl->res_tile[r] = pl->op_tile[j];
        } else if (inv >= 0) {
            pl->res_src[r] = SRC_KEYINV;
            pl->res_tile[r] = inv;
        } else {
            pl->res_src[r] = SRC_IOTA;
            need_idx = true;
        }
    }
    for (int k = 0; k < sp->n_keys; k++) {
        if (key_is_op[k] >= 0) {
            pl->key_tile[k] = pl->op_tile[key_is_op[k]];
            continue;
        }
        pl->key_tile[k] = pl->n_ct;
        pl->ct[pl->n_ct++].dt = sp->key[k].kdt;
    }
    /* the index breaks ties unless equal keys mean equal outputs: one operand
     * that is its own (total-order or integer) key */
    const struct sx *k0 = sp->n_keys ? &sp->sx[sp->key[0].expr] : NULL;
    pl->tie = !(sp->n == 1 && !sp->topk && k0 && k0->kind == SX_ARG);
    /* the index: as narrow as the row allows (ui8 compares and moves at the
     * int8 rate); a segmented top-k's holds positions in rows of rows */
    pl->idx_dt = wide_index || sp->N > 65536 ? BASE_DT_SI32 : sp->N > 256 ? BASE_DT_UI16 : BASE_DT_UI8;
    if (pl->tie || need_idx) {
        pl->tie = true;
        pl->idx_tile = pl->n_ct;
        pl->ct[pl->n_ct++].dt = pl->idx_dt;
    }
    if (sp->topk && pl->need_res[1]) {
        pl->res_src[1] = sp->idx_dt == pl->idx_dt ? SRC_TILE : SRC_IOTA;
        pl->res_tile[1] = pl->idx_tile;
    }
    for (int r = 0; r < nr; r++)
        if (pl->res_src[r] == SRC_IOTA || pl->res_src[r] == SRC_KEYINV) pl->stage_of[r] = pl->n_stage++;
    /* key evaluation temps: a greedy reuse over the nodes in order (a node is
     * computed after its sources); key nodes stay live to the end */
    memset(pl->sx_need, 0, sizeof pl->sx_need);
    for (int i = 0; i < SX_MAX; i++) pl->sx_tmp[i] = -1;
    for (int k = 0; k < sp->n_keys; k++)
        if (key_is_op[k] < 0) mark_need(pl, sp->key[k].expr);
    int last[SX_MAX];
    for (int i = 0; i < sp->n_sx; i++) last[i] = -1;
    for (int i = 0; i < sp->n_sx; i++) {
        if (!pl->sx_need[i] || sp->sx[i].kind != SX_OP) continue;
        for (int s = 0; s < sp->sx[i].n_src; s++) {
            int r = sx_root(sp, sp->sx[i].src[s]);
            if (last[r] < i) last[r] = i;
        }
    }
    for (int k = 0; k < sp->n_keys; k++)
        if (key_is_op[k] < 0) last[sx_root(sp, sp->key[k].expr)] = SX_MAX;
    bool busy[SORT_MAX_TMP] = {false};
    int n_tmp = 0;
    bool total_cmp = false, total_key = false;
    for (int k = 0; k < sp->n_keys; k++) total_key |= sp->key[k].cls == KEY_TOTAL;
    for (int i = 0; i < sp->n_sx; i++) {
        const struct sx *s = &sp->sx[i];
        if (!pl->sx_need[i] || s->kind == SX_ARG || (s->kind == SX_OP && s->op == GRAPH_OP_BITCAST_CONVERT)) continue;
        total_cmp |= s->total;
        int t = 0;
        while (t < SORT_MAX_TMP && busy[t]) t++;
        if (t >= SORT_MAX_TMP) return why_set(why, cap, "the comparator's keys need too many temporaries");
        busy[t] = true;
        pl->sx_tmp[i] = t;
        if (t + 1 > n_tmp) n_tmp = t + 1;
        if (s->kind == SX_OP)
            for (int q = 0; q < s->n_src; q++) {
                int r = sx_root(sp, s->src[q]);
                if (last[r] == i && pl->sx_tmp[r] >= 0) busy[pl->sx_tmp[r]] = false;
            }
    }
    /* scratch of total-order transforms: one (keys, the inverse) or three
     * (a total-order compare inside a key) after the live ones */
    int scratch = total_cmp ? 3 : (total_key || pl->n_stage) ? 1 : 0;
    pl->n_tmp = n_tmp + scratch;
    pl->tmp_es = 1;
    for (int i = 0; i < sp->n_sx; i++)
        if (pl->sx_need[i] && base_dtype_size(sp->sx[i].dt) > pl->tmp_es) pl->tmp_es = base_dtype_size(sp->sx[i].dt);
    for (int k = 0; k < sp->n_keys; k++)
        if (base_dtype_size(sp->key[k].kdt) > pl->tmp_es) pl->tmp_es = base_dtype_size(sp->key[k].kdt);
    if (pl->n_tmp > 0 && pl->tmp_es < 4) pl->tmp_es = 4; /* the scratch also holds i32 indices */
    if (pl->n_tmp > SORT_MAX_TMP) return why_set(why, cap, "the comparator's keys need too many temporaries");
    pl->resident_bytes = pl->idx_tile >= 0 ? round64((uint64_t)sp->N * base_dtype_size(pl->idx_dt)) : 0;
    return true;
}

/* Buffers of the plan: each allocation rounds up to 64 bytes. */
static uint64_t plan_slot_bytes(const struct splan *pl, uint64_t r)
{
    const struct sort_spec *sp = &pl->sp;
    uint64_t N = (uint64_t)sp->N, K = (uint64_t)sp->k, b = 0;
    for (int i = 0; i < pl->n_ct; i++) b += 2 * round64(r * N * base_dtype_size(pl->ct[i].dt));
    for (int j = 0; j < sp->n; j++)
        if (pl->op_load[j] >= 0) b += round64(r * N * base_dtype_size(sp->dt[j]));
    b += (uint64_t)pl->n_tmp * round64(r * N * pl->tmp_es);
    b += 3 * round64(r * ((N + 1) / 2));
    for (int q = 0; q < n_results(sp); q++)
        if (pl->stage_of[q] >= 0) b += round64(r * K * base_dtype_size(res_dtype(sp, q)));
    return b;
}

/* ------------------------------------------------------------ the network */

/* Element offsets within a partition of a unit's tile: off + sum i_d st[d]. */
struct pat {
    int64_t off;
    int nd;
    int64_t st[3];
    int64_t cnt[3];
};

static struct pat pat3(int64_t off, int64_t s0, int64_t c0, int64_t s1, int64_t c1, int64_t s2, int64_t c2)
{
    struct pat p = {off, 3, {s0, s1, s2}, {c0, c1, c2}};
    return p;
}

static int64_t pat_count(const struct pat *p)
{
    int64_t n = 1;
    for (int d = 0; d < p->nd; d++) n *= p->cnt[d];
    return n;
}

/* Drops dims of 1, merges dims that walk memory as one. */
static void pat_norm(struct pat *p)
{
    int nd = 0;
    for (int d = 0; d < p->nd; d++)
        if (p->cnt[d] != 1) {
            p->st[nd] = p->st[d];
            p->cnt[nd++] = p->cnt[d];
        }
    p->nd = nd;
    for (int d = p->nd - 2; d >= 0; d--)
        if (p->st[d] == p->st[d + 1] * p->cnt[d + 1]) {
            p->cnt[d] *= p->cnt[d + 1];
            p->st[d] = p->st[d + 1];
            for (int e = d + 1; e + 1 < p->nd; e++) p->st[e] = p->st[e + 1], p->cnt[e] = p->cnt[e + 1];
            p->nd--;
        }
}

/* One operation of a step: a compare-exchange of the pairs (a[i], b[i]) (the
 * one that goes first to da[i], the other to db[i]; a merge keeps only the
 * first) or a copy a -> da. */
enum { SOP_CEX, SOP_COPY };
struct sop {
    int kind;
    bool has_db;
    struct pat a, b, da, db;
};

#define MAX_SOPS 4
struct step {
    int n;
    struct sop op[MAX_SOPS];
    int64_t n_dst;  /* row length after the step */
};

static void step_add(struct step *s, int kind, struct pat a, struct pat b, struct pat da, struct pat db, bool has_db)
{
    if (pat_count(&a) <= 0) return;
    struct sop *o = &s->op[s->n++];
    o->kind = kind;
    o->has_db = has_db;
    o->a = a;
    o->b = b;
    o->da = da;
    o->db = db;
    pat_norm(&o->a);
    pat_norm(&o->b);
    pat_norm(&o->da);
    pat_norm(&o->db);
}

/* The flip step of blocks of bs over rows of n (r rows). */
static void gen_flip(struct step *s, int64_t n, int64_t r, int64_t bs)
{
    s->n = 0;
    s->n_dst = n;
    int64_t h = bs / 2, nb = n / bs;
    if (nb > 0) {
        struct pat a = pat3(0, n, r, bs, nb, 1, h), b = pat3(bs - 1, n, r, bs, nb, -1, h);
        step_add(s, SOP_CEX, a, b, a, b, true);
    }
    int64_t st = nb * bs, L = n - st;
    if (L > 0) {
        int64_t m = L - h, u = L < bs - L ? L : bs - L;
        if (m > 0) {
            struct pat a = pat3(st + bs - L, n, r, 1, m, 1, 1), b = pat3(st + L - 1, n, r, -1, m, 1, 1);
            step_add(s, SOP_CEX, a, b, a, b, true);
        }
        struct pat c = pat3(st, n, r, 1, u, 1, 1);
        step_add(s, SOP_COPY, c, c, c, c, false);
    }
}

/* The half-cleaner at distance d over rows of n. */
static void gen_half(struct step *s, int64_t n, int64_t r, int64_t d)
{
    s->n = 0;
    s->n_dst = n;
    int64_t nb = n / (2 * d);
    if (nb > 0) {
        struct pat a = pat3(0, n, r, 2 * d, nb, 1, d), b = pat3(d, n, r, 2 * d, nb, 1, d);
        step_add(s, SOP_CEX, a, b, a, b, true);
    }
    int64_t st = nb * 2 * d, L = n - st;
    if (L > 0) {
        int64_t m = L - d;
        if (m > 0) {
            struct pat a = pat3(st, n, r, 1, m, 1, 1), b = pat3(st + d, n, r, 1, m, 1, 1);
            step_add(s, SOP_CEX, a, b, a, b, true);
        }
        int64_t lo = m > 0 ? m : 0, hi = L < d ? L : d;
        if (hi > lo) {
            struct pat c = pat3(st + lo, n, r, 1, hi - lo, 1, 1);
            step_add(s, SOP_COPY, c, c, c, c, false);
        }
    }
}

/* A top-k round: pairs of blocks of K (rows of n) merged into one block of
 * their first K each (rows of n_dst). */
static void gen_merge(struct step *s, int64_t n, int64_t r, int64_t K)
{
    s->n = 0;
    int64_t npf = n / (2 * K), st = npf * 2 * K, L = n - st;
    int64_t nd = npf * K + (L > K ? K : L);
    s->n_dst = nd;
    struct pat none = {0, 0, {0, 0, 0}, {0, 0, 0}};
    if (npf > 0) {
        struct pat a = pat3(0, n, r, 2 * K, npf, 1, K), b = pat3(2 * K - 1, n, r, 2 * K, npf, -1, K);
        struct pat da = pat3(0, nd, r, K, npf, 1, K);
        step_add(s, SOP_CEX, a, b, da, none, false);
    }
    if (L > K) {
        int64_t lb = L - K;
        struct pat a = pat3(st + K - lb, n, r, 1, lb, 1, 1), b = pat3(st + K + lb - 1, n, r, -1, lb, 1, 1);
        struct pat da = pat3(npf * K + K - lb, nd, r, 1, lb, 1, 1);
        step_add(s, SOP_CEX, a, b, da, none, false);
        if (K - lb > 0) {
            struct pat c = pat3(st, n, r, 1, K - lb, 1, 1), dc = pat3(npf * K, nd, r, 1, K - lb, 1, 1);
            step_add(s, SOP_COPY, c, c, dc, dc, false);
        }
    } else if (L > 0) {
        struct pat c = pat3(st, n, r, 1, L, 1, 1), dc = pat3(npf * K, nd, r, 1, L, 1, 1);
        step_add(s, SOP_COPY, c, c, dc, dc, false);
    }
}

static int64_t pow2_ceil(int64_t x)
{
    int64_t p = 1;
    while (p < x) p *= 2;
    return p;
}

/* The steps of the whole network for rows of n keeping the first k: calls
 * fn for each (a full sort when k's block is not below the row); with
 * merge_only, rows of sorted blocks of K only merged. */
typedef enum base_status (*step_fn)(void *ctx, const struct step *s);
static enum base_status network(int64_t n, int64_t r, int64_t k, bool merge_only, step_fn fn, void *ctx,
                                int64_t *n_final)
{
    struct step s;
    int64_t K = pow2_ceil(k > 0 ? k : 1), top = pow2_ceil(n);
    bool partial = K < top;
    int64_t bmax = merge_only ? 1 : partial ? K : top; /* merge_only: blocks of K are sorted already */
    for (int64_t b = 2; b <= bmax; b *= 2) {
        gen_flip(&s, n, r, b);
        TRY(fn(ctx, &s));
        for (int64_t d = b / 4; d >= 1; d /= 2) {
            gen_half(&s, n, r, d);
            TRY(fn(ctx, &s));
        }
    }
    while (partial && n > K) {
        gen_merge(&s, n, r, K);
        TRY(fn(ctx, &s));
        n = s.n_dst;
        for (int64_t d = K / 2; d >= 1; d /= 2) {
            gen_half(&s, n, r, d);
            TRY(fn(ctx, &s));
        }
    }
    *n_final = n;
    return BASE_OK;
}

/* --------------------------------------------------------------- emission */

enum { MASK0, MASK1, MASK2 };

struct em {
    struct cc_kb *b;
    const struct cc_kernel *k;
    struct splan *pl;
    int U;                           /* unit slots */
    int eng[2], n_eng;
    int resident;                    /* the index row (0 .. N-1), -1 */
    int load_buf[SORT_MAX_IN];
    int tmp_buf[SORT_MAX_TMP];
    int mask_buf[3];
    int stage_buf[SORT_MAX_IN + 1];
    int off_buf;                     /* segmented: each level-2 row's index offset, -1 */
    int in_of[SORT_MAX_IN];          /* kernel input of operand j */
    int out_of[SORT_MAX_IN + 1];     /* kernel output of result r, -1 */
    /* the unit being emitted */
    int slot, e, side;
    uint32_t P;
    int64_t r;
    int64_t n0;                      /* its row length (the sort dim, or a segment) */
    int lvl;                         /* 1: the second level of a segmented top-k */
};

/* The buffer of carried tile t on `side` at the current level. */
static int cbuf(const struct em *m, const struct ctile *t, int side) { return m->lvl ? t->buf2[side] : t->buf[side]; }

static struct isa_ap pat_ap(const struct em *m, int buf, enum base_dtype dt, const struct pat *p)
{
    struct isa_ap a = cc_kb_sp(m->b, buf, m->slot, (uint64_t)p->off * base_dtype_size(dt), 0, m->P, dt, 0);
    a.ndims = (uint8_t)(p->nd ? p->nd : 1);
    a.stride[0] = 1;
    a.count[0] = 1;
    for (int d = 0; d < p->nd; d++) {
        a.stride[d] = p->st[d];
        a.count[d] = (uint32_t)p->cnt[d];
    }
    return a;
}

static struct pat dense(int64_t off, int64_t n)
{
    struct pat p = {off, 1, {1, 0, 0}, {n, 0, 0}};
    return p;
}

static enum base_status emit1(struct em *m, struct isa_instr *in, const struct cc_access *acc, int n_acc)
{
    return cc_kb_emit(m->b, m->e, in, acc, n_acc);
}

static enum base_status ins_bin(struct em *m, unsigned f, struct isa_ap d, int db, struct isa_ap x, int xb,
                                struct isa_ap y, int yb)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_BINARY;
    in.func = (uint8_t)f;
    in.dst = d;
    in.src0 = x;
    in.src1 = y;
    struct cc_access a[3] = {{db, m->slot, CC_WR}, {xb, m->slot, CC_RD}, {yb, m->slot, CC_RD}};
    return emit1(m, &in, a, 3);
}

static enum base_status ins_sel(struct em *m, struct isa_ap d, int db, struct isa_ap p, int pb, struct isa_ap x, int xb,
                                struct isa_ap y, int yb)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_SELECT;
    in.dst = d;
    in.src0 = p;
    in.src1 = x;
    in.src2 = y;
    struct cc_access a[4] = {{db, m->slot, CC_WR}, {pb, m->slot, CC_RD}, {xb, m->slot, CC_RD}, {yb, m->slot, CC_RD}};
    return emit1(m, &in, a, 4);
}

static enum base_status ins_un(struct em *m, enum isa_op op, unsigned f, struct isa_ap d, int db, struct isa_ap x,
                               int xb)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.func = (uint8_t)f;
    in.dst = d;
    in.src0 = x;
    struct cc_access a[2] = {{db, m->slot, CC_WR}, {xb, m->slot, CC_RD}};
    return emit1(m, &in, a, 2);
}

/* d = x ^ ((x >>a (w-1)) >>l 1) on the bits (the total-order key of a float,
 * and its inverse): s is scratch of x's shape. */
static enum base_status ins_total(struct em *m, struct isa_ap d, int db, struct isa_ap x, int xb, struct isa_ap s, int sb)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_TENSOR_SCALAR;
    in.func = ISA_ALU_ISHRA;
    in.func2 = ISA_ALU_ISHRL;
    in.imm0 = (double)(base_dtype_bits((enum base_dtype)x.dtype) - 1);
    in.imm1 = 1;
    in.dst = s;
    in.src0 = x;
    struct cc_access a[2] = {{sb, m->slot, CC_WR}, {xb, m->slot, CC_RD}};
    TRY(emit1(m, &in, a, 2));
    return ins_bin(m, ISA_ALU_IXOR, d, db, x, xb, s, sb);
}

/* The mask "b goes before a" of a compare-exchange (c pairs) in MASK0. */
static enum base_status emit_mask(struct em *m, const struct pat *pa, const struct pat *pb, int64_t c)
{
    const struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    struct pat md = dense(0, c);
    struct isa_ap M[3];
    for (int i = 0; i < 3; i++) M[i] = pat_ap(m, m->mask_buf[i], BASE_DT_UI8, &md);
    bool have = false;
    if (pl->tie) {
        const struct ctile *t = &pl->ct[pl->idx_tile];
        int bf = cbuf(m, t, m->side);
        TRY(ins_bin(m, ISA_ALU_ILT, M[0], m->mask_buf[0], pat_ap(m, bf, t->dt, pb), bf, pat_ap(m, bf, t->dt, pa), bf));
        have = true;
    }
    for (int k = sp->n_keys - 1; k >= 0; k--) {
        const struct ctile *t = &pl->ct[pl->key_tile[k]];
        int bf = cbuf(m, t, m->side);
        struct isa_ap A = pat_ap(m, bf, sp->key[k].kdt, pa), B = pat_ap(m, bf, sp->key[k].kdt, pb);
        unsigned f = sp->key[k].desc ? ISA_ALU_IGT : ISA_ALU_ILT;
        if (!have) {
            TRY(ins_bin(m, f, M[0], m->mask_buf[0], B, bf, A, bf));
            have = true;
            continue;
        }
        TRY(ins_bin(m, ISA_ALU_IEQ, M[1], m->mask_buf[1], B, bf, A, bf));
        TRY(ins_bin(m, f, M[2], m->mask_buf[2], B, bf, A, bf));
        TRY(ins_sel(m, M[0], m->mask_buf[0], M[1], m->mask_buf[1], M[0], m->mask_buf[0], M[2], m->mask_buf[2]));
    }
    return BASE_OK;
}

static enum base_status emit_step(void *ctx, const struct step *s)
{
    struct em *m = ctx;
    const struct splan *pl = m->pl;
    int from = m->side, to = 1 - m->side;
    for (int i = 0; i < s->n; i++) {
        const struct sop *o = &s->op[i];
        int64_t c = pat_count(&o->a);
        if (o->kind == SOP_CEX) TRY(emit_mask(m, &o->a, &o->b, c));
        struct isa_ap M = pat_ap(m, m->mask_buf[0], BASE_DT_UI8, &(struct pat){0, 1, {1, 0, 0}, {c, 0, 0}});
        for (int t = 0; t < pl->n_ct; t++) {
            const struct ctile *ct = &pl->ct[t];
            int sb = cbuf(m, ct, from), db = cbuf(m, ct, to);
            struct isa_ap A = pat_ap(m, sb, ct->dt, &o->a), B = pat_ap(m, sb, ct->dt, &o->b);
            struct isa_ap DA = pat_ap(m, db, ct->dt, &o->da), DB = pat_ap(m, db, ct->dt, &o->db);
            if (o->kind == SOP_COPY) {
                TRY(ins_un(m, ISA_OP_COPY, 0, DA, db, A, sb));
                continue;
            }
            TRY(ins_sel(m, DA, db, M, m->mask_buf[0], B, sb, A, sb));
            if (o->has_db) TRY(ins_sel(m, DB, db, M, m->mask_buf[0], A, sb, B, sb));
        }
    }
    m->side = to;
    return BASE_OK;
}

/* The value of key-expression node x over the unit's tile (its buffer). */
static struct isa_ap sx_ap(const struct em *m, int x, int *buf)
{
    const struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    int r = sx_root(sp, x);
    const struct sx *s = &sp->sx[r];
    struct pat all = dense(0, m->r * m->n0);
    if (s->kind == SX_ARG) {
        int j = s->arg;
        *buf = pl->op_tile[j] >= 0 ? pl->ct[pl->op_tile[j]].buf[0] : m->load_buf[j];
    } else {
        *buf = m->tmp_buf[pl->sx_tmp[r]];
    }
    return pat_ap(m, *buf, sp->sx[x].dt, &all);
}

static struct isa_ap retype(struct isa_ap a, enum base_dtype dt)
{
    a.dtype = (uint8_t)dt;
    return a;
}

/* Computes the key tiles of the unit from its loaded operands. */
static enum base_status emit_keys(struct em *m)
{
    const struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    struct pat all = dense(0, m->r * m->n0);
    /* scratch temps: the last one (transforms), the two before it (total-order compares) */
    int sc = pl->n_tmp > 0 ? m->tmp_buf[pl->n_tmp - 1] : -1;
    for (int i = 0; i < sp->n_sx; i++) {
        const struct sx *s = &sp->sx[i];
        if (!pl->sx_need[i] || s->kind == SX_ARG || (s->kind == SX_OP && s->op == GRAPH_OP_BITCAST_CONVERT)) continue;
        int db = m->tmp_buf[pl->sx_tmp[i]];
        struct isa_ap d = pat_ap(m, db, s->dt, &all);
        if (s->kind == SX_CONST) {
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_MEMSET;
            uint8_t one[16] = {0};
            base_elem_set_bits(s->dt, one, 0, s->bits);
            in.imm0 = base_elem_get_f64(s->dt, one, 0);
            in.dst = d;
            struct cc_access a = {db, m->slot, CC_WR};
            TRY(emit1(m, &in, &a, 1));
            continue;
        }
        int sb[3];
        struct isa_ap x[3];
        for (int q = 0; q < s->n_src; q++) x[q] = sx_ap(m, s->src[q], &sb[q]);
        switch (s->op) {
        case GRAPH_OP_COMPARE:
            if (s->total) {
                enum base_dtype it = total_key_type((enum base_dtype)x[0].dtype);
                int t0 = m->tmp_buf[pl->n_tmp - 3], t1 = m->tmp_buf[pl->n_tmp - 2];
                struct isa_ap k0 = pat_ap(m, t0, it, &all), k1 = pat_ap(m, t1, it, &all);
                TRY(ins_total(m, k0, t0, retype(x[0], it), sb[0], pat_ap(m, sc, it, &all), sc));
                TRY(ins_total(m, k1, t1, retype(x[1], it), sb[1], pat_ap(m, sc, it, &all), sc));
                TRY(ins_bin(m, s->func, d, db, k0, t0, k1, t1));
            } else {
                TRY(ins_bin(m, s->func, d, db, x[0], sb[0], x[1], sb[1]));
            }
            break;
        case GRAPH_OP_SELECT: TRY(ins_sel(m, d, db, x[0], sb[0], x[1], sb[1], x[2], sb[2])); break;
        case GRAPH_OP_NOT:
        case GRAPH_OP_CONVERT:
        case GRAPH_OP_NEGATE:
        case GRAPH_OP_ABS: TRY(ins_un(m, ISA_OP_UNARY, s->func, d, db, x[0], sb[0])); break;
        default: TRY(ins_bin(m, s->func, d, db, x[0], sb[0], x[1], sb[1])); break;
        }
    }
    for (int k = 0; k < sp->n_keys; k++) {
        const struct skey *key = &sp->key[k];
        const struct ctile *t = &pl->ct[pl->key_tile[k]];
        const struct sx *e = &sp->sx[key->expr];
        if (e->kind == SX_ARG && key->cls != KEY_TOTAL) continue; /* the operand itself */
        int vb;
        struct isa_ap v = sx_ap(m, key->expr, &vb);
        struct isa_ap K = pat_ap(m, t->buf[0], key->kdt, &all);
        if (key->cls == KEY_TOTAL)
            TRY(ins_total(m, K, t->buf[0], retype(v, key->kdt), vb, pat_ap(m, sc, key->kdt, &all), sc));
        else TRY(ins_un(m, ISA_OP_COPY, 0, K, t->buf[0], v, vb));
    }
    return BASE_OK;
}

/* Result q of the unit, from the last step's buffers (rows of nf, the first
 * k of each): the carried tile itself, or staged: the index converted (an
 * iota payload, the indices; less each row's offset in a segmented top-k),
 * a float's total-order key transformed back. */
static enum base_status result_src(struct em *m, int q, int64_t nf, struct isa_ap *from, int *fb)
{
    const struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    enum base_dtype odt = res_dtype(sp, q);
    struct pat fin = pat3(0, nf, m->r, 1, sp->k, 1, 1), sd = dense(0, m->r * sp->k);
    pat_norm(&fin);
    bool from_idx = pl->res_src[q] == SRC_IOTA || (pl->res_src[q] == SRC_TILE && pl->res_tile[q] == pl->idx_tile);
    if (pl->res_src[q] == SRC_TILE && !(from_idx && m->off_buf >= 0)) {
        const struct ctile *ct = &pl->ct[pl->res_tile[q]];
        *fb = cbuf(m, ct, m->side);
        *from = pat_ap(m, *fb, ct->dt, &fin);
        return BASE_OK;
    }
    *fb = m->stage_buf[q];
    *from = pat_ap(m, *fb, odt, &sd);
    if (from_idx) {
        const struct ctile *ti = &pl->ct[pl->idx_tile];
        int ib = cbuf(m, ti, m->side);
        struct isa_ap x = pat_ap(m, ib, ti->dt, &fin);
        if (m->off_buf < 0) return ins_un(m, ISA_OP_UNARY, ISA_ALU_CAST, *from, *fb, x, ib);
        /* index - the row's offset (one per partition), as i32, then converted */
        int db = odt == BASE_DT_SI32 ? *fb : m->tmp_buf[pl->n_tmp - 1];
        struct isa_ap d = odt == BASE_DT_SI32 ? *from : pat_ap(m, db, BASE_DT_SI32, &sd);
        struct isa_instr in;
        memset(&in, 0, sizeof in);
        in.op = ISA_OP_TENSOR_SCALAR;
        in.func = ISA_ALU_ISUB;
        in.func2 = ISA_ALU_BYPASS;
        in.flags = ISA_FLAG_SCALE_AP;
        in.dst = d;
        in.src0 = x;
        in.src1 = cc_kb_sp(m->b, m->off_buf, m->slot, 0, 0, m->P, BASE_DT_SI32, 0);
        struct cc_access a[3] = {{db, m->slot, CC_WR}, {ib, m->slot, CC_RD}, {m->off_buf, m->slot, CC_RD}};
        TRY(emit1(m, &in, a, 3));
        return odt == BASE_DT_SI32 ? BASE_OK : ins_un(m, ISA_OP_UNARY, ISA_ALU_CAST, *from, *fb, d, db);
    }
    const struct skey *key = &sp->key[pl->res_tile[q]];
    const struct ctile *ct = &pl->ct[pl->key_tile[pl->res_tile[q]]];
    int sc = m->tmp_buf[pl->n_tmp - 1], kb = cbuf(m, ct, m->side);
    return ins_total(m, retype(*from, key->kdt), *fb, pat_ap(m, kb, key->kdt, &fin), kb, pat_ap(m, sc, key->kdt, &sd), sc);
}

/* The HBM access pattern of a box of rows (region view v + the sort dim:
 * positions [0, cnt) along it, stride sst). */
static bool hbm_ap(const struct cc_tiling *tl, int region, int v, const struct cc_box *box, int64_t sst, int64_t cnt,
                   struct isa_ap *ap)
{
    const struct cc_region *rg = &tl->r[region];
    struct cc_view w = rg->views[v];
    struct cc_box bx = *box;
    int rk = w.rank;
    w.dims[rk] = cnt;
    w.strides[rk] = sst;
    w.rank = rk + 1;
    bx.start[rk] = 0;
    bx.count[rk] = cnt;
    int fd[ISA_MAX_DIMS + 1], nf = 0;
    for (int i = 0; i < rg->n_free; i++) fd[nf++] = rg->free_dims[i];
    fd[nf++] = rk;
    return cc_view_box_ap(&w, &bx, rg->part_dim, fd, nf, ap);
}

/* ------------------------------------------------ long rows: two levels
 *
 * A top-k over few long rows (a sampler's top-k over a vocabulary) leaves
 * most partitions idle, and a row longer than a partition holds cannot be
 * laid out at all.  Each row is then cut into G segments of C elements, one
 * per partition (ru rows per unit: ru G partitions); level 1 runs the top-k
 * network on every segment (the index is the element's position in its row:
 * an iota of C per partition, plus the row's offset, which is taken off at
 * the end), leaving each segment's first K sorted; one SBUF-to-SBUF DMA per
 * carried tile gathers each row's G x K candidates onto one partition, where
 * level 2 merges them (merge rounds only: the blocks are sorted).  The top k
 * of the row are the top k of the segments' top k under the same strict
 * total order, so the result is exact.  A last segment shorter than C is
 * filled with sentinels that go after every element (each key its worst
 * value, the index INT32_MAX): never among the first k <= N. */
struct segplan {
    int64_t ru, G, C, n2, K;
};

static bool idx_result(const struct splan *pl, int q)
{
    return pl->res_src[q] == SRC_IOTA || (pl->res_src[q] == SRC_TILE && pl->res_tile[q] == pl->idx_tile);
}

static uint64_t seg_bytes(const struct splan *pl, int64_t C, int64_t n2)
{
    const struct sort_spec *sp = &pl->sp;
    uint64_t b = 0, c = (uint64_t)C, n = (uint64_t)n2, k = (uint64_t)sp->k, big = c > n ? c : n;
    for (int i = 0; i < pl->n_ct; i++) {
        uint64_t es = base_dtype_size(pl->ct[i].dt);
        b += 2 * round64(c * es) + 2 * round64(n * es);
    }
    for (int j = 0; j < sp->n; j++)
        if (pl->op_load[j] >= 0) b += round64(c * base_dtype_size(sp->dt[j]));
    b += (uint64_t)pl->n_tmp * round64(c * pl->tmp_es);
    b += 3 * round64((big + 1) / 2);
    for (int q = 0; q < n_results(sp); q++)
        if (pl->need_res[q] && (pl->res_src[q] != SRC_TILE || idx_result(pl, q)))
            b += round64(k * base_dtype_size(res_dtype(sp, q)));
    return b + 64;
}

/* The layout for up to `rows` rows per unit within `avail` bytes per
 * partition; false when the op is no top-k that gains from it or it does
 * not fit. */
static bool seg_plan(const struct splan *pl, uint32_t P, int64_t rows, uint64_t avail, struct segplan *g)
{
    const struct sort_spec *sp = &pl->sp;
    int64_t N = sp->N, K = pow2_ceil(sp->k > 0 ? sp->k : 1);
    if (K >= pow2_ceil(N) || N < 4 * K || pl->idx_tile < 0) return false;
    for (int k = 0; k < sp->n_keys; k++)
        if (base_dtype_size(sp->key[k].kdt) > 4) return false; /* the sentinels are memset immediates */
    for (int64_t ru = rows < (int64_t)P / 2 ? rows : (int64_t)P / 2; ru >= 1; ru--) {
        int64_t G = (int64_t)P / ru;
        if (G > N / K) G = N / K;
        if (G < 2) continue;
        int64_t C = (N + G - 1) / G;
        G = (N + C - 1) / C;
        if (seg_bytes(pl, C, G * K) <= avail) {
            *g = (struct segplan){ru, G, C, G * K, K};
            return true;
        }
    }
    return false;
}

/* A row's 2-D view for the segments: [G segments of C, C] along the sort dim. */
static struct cc_view seg_view(const struct cc_view *v, const struct sort_spec *sp, int64_t row, int64_t C, int64_t G)
{
    int64_t off = 0;
    for (int d = v->rank - 1; d >= 0; d--) {
        if (d == sp->dim) continue;
        off += (row % v->dims[d]) * v->strides[d];
        row /= v->dims[d];
    }
    int64_t sst = v->rank ? v->strides[sp->dim] : 1;
    struct cc_view w;
    memset(&w, 0, sizeof w);
    w.addr = (uint64_t)((int64_t)v->addr + off * (int64_t)base_dtype_size(v->dtype));
    w.dtype = v->dtype;
    w.rank = 2;
    w.dims[0] = G;
    w.dims[1] = C;
    w.strides[0] = C * sst;
    w.strides[1] = sst;
    return w;
}

static enum base_status memset_ap(struct em *m, int buf, struct isa_ap a, double v)
{
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_MEMSET;
    in.imm0 = v;
    in.dst = a;
    struct cc_access acc = {buf, m->slot, CC_WR};
    return emit1(m, &in, &acc, 1);
}

/* One unit of ru rows from row0 (segmented). */
static enum base_status seg_unit(struct em *m, const struct segplan *g, int64_t row0, int64_t ru)
{
    struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    const struct cc_kernel *k = m->k;
    struct cc_kb *b = m->b;
    int64_t N = sp->N, C = g->C, G = g->G, gf = N / C, cl = N - gf * C;
    m->lvl = 0;
    m->side = 0;
    m->slot = 0;
    m->P = (uint32_t)(ru * G);
    m->r = 1;
    m->n0 = C;
    struct pat all = dense(0, C);
    /* loads: each row's full segments, then its short last one */
    for (int j = 0; j < sp->n; j++) {
        int buf = pl->op_tile[j] >= 0 ? pl->ct[pl->op_tile[j]].buf[0] : pl->op_load[j] >= 0 ? m->load_buf[j] : -1;
        if (buf < 0) continue;
        if (m->in_of[j] < 0) return cc_kb_fail(b, BASE_ERR_INTERNAL, "sort operand %d is no kernel input", j);
        for (int64_t i = 0; i < ru; i++) {
            struct cc_view w = seg_view(&k->in[m->in_of[j]].view, sp, row0 + i, C, G);
            int free1 = 1;
            for (int part = 0; part < 2; part++) {
                struct cc_box box;
                memset(&box, 0, sizeof box);
                box.start[0] = part ? gf : 0;
                box.count[0] = part ? 1 : gf;
                box.count[1] = part ? cl : C;
                if (box.count[0] == 0 || box.count[1] == 0) continue;
                struct isa_ap src;
                if (!cc_view_box_ap(&w, &box, 0, &free1, 1, &src))
                    return cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for sort operand %d", j);
                struct isa_ap dst = cc_kb_sp(b, buf, 0, 0, (uint32_t)(i * G + box.start[0]), (uint32_t)box.count[0],
                                             sp->dt[j], (uint64_t)box.count[1]);
                struct cc_access a = {buf, 0, CC_WR};
                TRY(cc_kb_dma(b, &dst, &src, &a, 1,
                              cc_kb_dma_pieces(b, (uint64_t)(box.count[0] * box.count[1]) * base_dtype_size(sp->dt[j]),
                                               (uint32_t)box.count[0])));
            }
            if (cl > 0) /* the rest of the last segment: written, never read for a result */
                TRY(memset_ap(m, buf, cc_kb_sp(b, buf, 0, (uint64_t)cl * base_dtype_size(sp->dt[j]),
                                               (uint32_t)(i * G + G - 1), 1, sp->dt[j], (uint64_t)(C - cl)),
                              0));
        }
    }
    /* the index: C p + f, the position in the row plus the row's offset j G C */
    const struct ctile *ti = &pl->ct[pl->idx_tile];
    struct isa_instr in;
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_IOTA;
    in.imm1 = (double)C;
    in.dst = pat_ap(m, ti->buf[0], BASE_DT_SI32, &all);
    struct cc_access ia = {ti->buf[0], 0, CC_WR};
    TRY(emit1(m, &in, &ia, 1));
    TRY(emit_keys(m));
    if (cl > 0) /* sentinels: every key its worst value, the index the largest */
        for (int64_t i = 0; i < ru; i++) {
            uint32_t p = (uint32_t)(i * G + G - 1);
            for (int q = 0; q < sp->n_keys; q++) {
                const struct skey *key = &sp->key[q];
                const struct ctile *t = &pl->ct[pl->key_tile[q]];
                enum base_dtype kt = key->kdt;
                double worst;
                if (kt == BASE_DT_I1) worst = key->desc ? 0 : 1;
                else if (base_dtype_kind(kt) == BASE_KIND_UINT) worst = key->desc ? 0 : ldexp(1.0, base_dtype_bits(kt)) - 1;
                else worst = key->desc ? -ldexp(1.0, base_dtype_bits(kt) - 1) : ldexp(1.0, base_dtype_bits(kt) - 1) - 1;
                TRY(memset_ap(m, t->buf[0], cc_kb_sp(b, t->buf[0], 0, (uint64_t)cl * base_dtype_size(kt), p, 1, kt,
                                                     (uint64_t)(C - cl)),
                              worst));
            }
            TRY(memset_ap(m, ti->buf[0], cc_kb_sp(b, ti->buf[0], 0, (uint64_t)cl * 4, p, 1, BASE_DT_SI32, (uint64_t)(C - cl)),
                          2147483647.0));
        }
    int64_t nf = C;
    TRY(network(C, 1, sp->k, false, emit_step, m, &nf));
    /* gather each row's G x K candidates onto one partition */
    for (int t = 0; t < pl->n_ct; t++) {
        const struct ctile *ct = &pl->ct[t];
        struct isa_ap src = cc_kb_sp(b, ct->buf[m->side], 0, 0, 0, m->P, ct->dt, (uint64_t)nf);
        src.count[0] = (uint32_t)g->K;
        struct isa_ap dst = cc_kb_sp(b, ct->buf2[0], 0, 0, 0, (uint32_t)ru, ct->dt, (uint64_t)(G * g->K));
        struct cc_access a[2] = {{ct->buf2[0], 0, CC_WR}, {ct->buf[m->side], 0, CC_RD}};
        TRY(cc_kb_dma(b, &dst, &src, a, 2, 1));
    }
    m->lvl = 1;
    m->side = 0;
    m->P = (uint32_t)ru;
    m->n0 = g->n2;
    TRY(network(g->n2, 1, sp->k, true, emit_step, m, &nf));
    /* each row's offset j G C, to take off the indices */
    memset(&in, 0, sizeof in);
    in.op = ISA_OP_IOTA;
    in.imm1 = (double)(G * C);
    in.dst = cc_kb_sp(b, m->off_buf, 0, 0, 0, (uint32_t)ru, BASE_DT_SI32, 0);
    struct cc_access oa = {m->off_buf, 0, CC_WR};
    TRY(emit1(m, &in, &oa, 1));
    for (int q = 0; q < n_results(sp); q++) {
        if (!pl->need_res[q]) continue;
        struct isa_ap from;
        int fb;
        TRY(result_src(m, q, nf, &from, &fb));
        for (int64_t i = 0; i < ru; i++) {
            struct cc_view w = seg_view(&k->out[m->out_of[q]].view, sp, row0 + i, sp->k, 1);
            struct cc_box box;
            memset(&box, 0, sizeof box);
            box.count[0] = 1;
            box.count[1] = sp->k;
            int free1 = 1;
            struct isa_ap dst, one = from;
            if (!cc_view_box_ap(&w, &box, 0, &free1, 1, &dst))
                return cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for sort result %d", q);
            one.part_start = (uint16_t)(from.part_start + i);
            one.part_count = 1;
            struct cc_access a = {fb, 0, CC_RD};
            TRY(cc_kb_dma(b, &dst, &one, &a, 1, 1));
        }
    }
    return BASE_OK;
}

/* The segmented emission of this core's rows. */
static enum base_status emit_segmented(struct em *m, const struct segplan *g, const struct cc_emit_ctx *ctx, int64_t R)
{
    struct splan *pl = m->pl;
    const struct sort_spec *sp = &pl->sp;
    struct cc_kb *b = m->b;
    int64_t lo, hi;
    cc_core_share(R, ctx, &lo, &hi);
    if (hi <= lo) return BASE_OK;
    m->e = m->eng[0];
    uint64_t C = (uint64_t)g->C, n2 = (uint64_t)g->n2, big = C > n2 ? C : n2;
    for (int i = 0; i < pl->n_ct; i++)
        for (int s2 = 0; s2 < 2; s2++) {
            uint64_t es = base_dtype_size(pl->ct[i].dt);
            if ((pl->ct[i].buf[s2] = cc_kb_buffer(b, C * es, 1)) < 0) return b->diag->status;
            if ((pl->ct[i].buf2[s2] = cc_kb_buffer(b, n2 * es, 1)) < 0) return b->diag->status;
        }
    for (int j = 0; j < sp->n; j++)
        if (pl->op_load[j] >= 0 && (m->load_buf[j] = cc_kb_buffer(b, C * base_dtype_size(sp->dt[j]), 1)) < 0)
            return b->diag->status;
    for (int i = 0; i < pl->n_tmp; i++)
        if ((m->tmp_buf[i] = cc_kb_buffer(b, C * pl->tmp_es, 1)) < 0) return b->diag->status;
    for (int i = 0; i < 3; i++)
        if ((m->mask_buf[i] = cc_kb_buffer(b, (big + 1) / 2, 1)) < 0) return b->diag->status;
    for (int q = 0; q < n_results(sp); q++)
        if (pl->need_res[q] && (pl->res_src[q] != SRC_TILE || idx_result(pl, q)) &&
            (m->stage_buf[q] = cc_kb_buffer(b, (uint64_t)sp->k * base_dtype_size(res_dtype(sp, q)), 1)) < 0)
            return b->diag->status;
    if ((m->off_buf = cc_kb_buffer(b, 4, 1)) < 0) return b->diag->status;
    for (int64_t r0 = lo; r0 < hi; r0 += g->ru) TRY(seg_unit(m, g, r0, hi - r0 < g->ru ? hi - r0 : g->ru));
    return BASE_OK;
}

bool cc_sort_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    if (why && cap) why[0] = 0;
    struct splan *pl = calloc(1, sizeof *pl);
    if (!pl) return why_set(why, cap, "out of memory");
    bool ok = sort_analyze(op, &pl->sp, why, cap);
    if (ok && t->vec < 0 && t->pool < 0) ok = why_set(why, cap, "the chip has no vector engine");
    if (ok) {
        for (int r = 0; r < n_results(&pl->sp); r++) pl->need_res[r] = true;
        ok = plan_build(pl, false, why, cap);
    }
    if (ok) {
        uint64_t sp_bytes = t->chip->scratchpad.bytes_per_partition;
        uint64_t need = plan_slot_bytes(pl, 1) + pl->resident_bytes;
        struct segplan sg;
        uint32_t P = t->chip->scratchpad.partitions < ISA_MAX_PARTITIONS ? t->chip->scratchpad.partitions : ISA_MAX_PARTITIONS;
        if (need > sp_bytes && !(plan_build(pl, true, why, cap) && seg_plan(pl, P, 1, sp_bytes, &sg))) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "the sort dimension (%lld elements: %llu bytes per partition for one row) does not fit a "
                     "partition of the scratchpad (%llu bytes): the host runs it",
                     (long long)pl->sp.N, (unsigned long long)need, (unsigned long long)sp_bytes);
            ok = why_set(why, cap, msg);
        }
    }
    free(pl);
    return ok;
}

enum base_status cc_emit_sort(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                              struct isa_program *out, struct base_diag *diag)
{
    const struct graph_op *op = k->n_ops == 1 ? k->ops[0] : NULL;
    if (!op) return cc_kernel_fail(t, k, k->info.root, diag, BASE_ERR_INTERNAL, "a sort kernel is one op");
    struct splan *pl = calloc(1, sizeof *pl);
    struct em *m = calloc(1, sizeof *m);
    struct cc_tiling *tl = calloc(1, sizeof *tl);
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    enum base_status st = BASE_OK;
    if (!pl || !m || !tl || !b) {
        st = cc_kernel_fail(t, k, op, diag, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    char why[256];
    struct sort_spec *sp = &pl->sp;
    if (!sort_analyze(op, sp, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int nr = n_results(sp);
    for (int r = 0; r < nr; r++) {
        m->out_of[r] = -1;
        for (int i = 0; i < k->n_out; i++)
            if (k->out[i].value == &op->results[r]) m->out_of[r] = i;
        pl->need_res[r] = m->out_of[r] >= 0;
    }
    for (int j = 0; j < sp->n; j++) m->in_of[j] = cc_kernel_input_index(k, op->operands[j]);
    if (!plan_build(pl, false, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int64_t R = 1;
    for (int d = 0; d < sp->rank; d++)
        if (d != sp->dim) R *= sp->dims[d];
    if (R == 0 || sp->N == 0 || sp->k == 0 || nr == 0) goto done; /* nothing to write */
    bool any = false;
    for (int r = 0; r < nr; r++) any |= pl->need_res[r];
    if (!any) goto done;
    m->b = b;
    m->k = k;
    m->pl = pl;
    m->off_buf = -1;
    m->n_eng = 0;
    if (t->vec >= 0) m->eng[m->n_eng++] = t->vec;
    if (t->pool >= 0) m->eng[m->n_eng++] = t->pool;
    /* unit slots and rows per partition */
    uint32_t P = b->partitions;
    uint64_t avail = cc_kb_free_bytes(b) > pl->resident_bytes ? cc_kb_free_bytes(b) - pl->resident_bytes : 0;
    int n_cores = ctx && ctx->n_cores ? (int)ctx->n_cores : 1;
    /* few long rows of a top-k, or rows too long for a partition: segmented */
    {
        /* every core decides alike (by the largest share, not its own): the
         * two ways split the rows over the cores differently, and a core of
         * each would write the same rows (a race diff_fuzz found on 8 cores) */
        int64_t share = (R + n_cores - 1) / n_cores, clo = 0, chi = share;
        struct segplan sg;
        uint64_t all_free = cc_kb_free_bytes(b);
        if (plan_slot_bytes(pl, 1) > avail || share * 4 <= (int64_t)P) {
            struct splan *wp = malloc(sizeof *wp); /* the plan with a wide index */
            if (!wp) {
                st = cc_kb_fail(b, BASE_ERR_NOMEM, "out of memory");
                goto done;
            }
            *wp = *pl;
            bool seg = plan_build(wp, true, why, sizeof why) && seg_plan(wp, P, chi - clo > 0 ? chi - clo : 1, all_free, &sg);
            if (seg) *pl = *wp;
            free(wp);
            if (seg) {
                st = emit_segmented(m, &sg, ctx, R);
                goto done;
            }
        }
    }
    /* rows per partition of a unit: enough units for every engine of every
     * core, as many rows as U unit slots leave room for */
    int64_t want = (R + (int64_t)P * n_cores * m->n_eng - 1) / ((int64_t)P * n_cores * m->n_eng);
    if (want < 1) want = 1;
    int U = m->n_eng + 1;
    int64_t rt = 0;
    for (; U >= 1 && rt < 1; U--) {
        int64_t lo_r = 0, hi_r = want; /* the most rows <= want that fit */
        while (lo_r < hi_r) {
            int64_t mid = (lo_r + hi_r + 1) / 2;
            if (plan_slot_bytes(pl, (uint64_t)mid) * (uint64_t)U <= avail) lo_r = mid;
            else hi_r = mid - 1;
        }
        rt = lo_r;
        if (rt >= 1) break;
    }
    if (U < 1 || rt < 1) {
        st = cc_kb_fail(b, BASE_ERR_LIMIT, "a row of %lld elements does not fit the scratchpad",
                        (long long)sp->N);
        goto done;
    }
    /* the rows: views of every operand and result with the sort dim dropped */
    struct cc_view views[2 * SORT_MAX_IN + 2];
    int64_t sst[2 * SORT_MAX_IN + 2];
    int nv = 0;
    int vin[SORT_MAX_IN], vout[SORT_MAX_IN + 1];
    int rrank = 0;
    int64_t rdims[BASE_MAX_RANK];
    for (int d = 0; d < sp->rank; d++)
        if (d != sp->dim) rdims[rrank++] = sp->dims[d];
    for (int q = 0; q < sp->n + nr; q++) {
        bool isin = q < sp->n;
        int idx = isin ? m->in_of[q] : m->out_of[q - sp->n];
        if (isin) vin[q] = -1;
        else vout[q - sp->n] = -1;
        if (idx < 0) continue;
        const struct cc_view *v = isin ? &k->in[idx].view : &k->out[idx].view;
        struct cc_view w;
        memset(&w, 0, sizeof w);
        w.addr = v->addr;
        w.dtype = v->dtype;
        for (int d = 0; d < v->rank; d++) {
            if (d == sp->dim) continue;
            w.dims[w.rank] = v->dims[d];
            w.strides[w.rank++] = v->strides[d];
        }
        sst[nv] = v->rank ? v->strides[sp->dim] : 1;
        views[nv] = w;
        if (isin) vin[q] = nv;
        else vout[q - sp->n] = nv;
        nv++;
    }
    st = cc_tiling_plan(tl, rrank, rdims, views, nv, P, rt);
    for (int i = 0; st == BASE_OK && i < tl->n_regions; i++)
        if (tl->r[i].n_free > ISA_MAX_DIMS - 1) st = cc_tiling_plan(tl, rrank, rdims, views, nv, P, 1);
    if (st != BASE_OK) {
        st = cc_kb_fail(b, st, "cannot tile the rows of the sort");
        goto done;
    }
    int64_t rows_max = 0;
    for (int64_t i = 0; i < tl->n_tiles; i++) {
        int rg;
        struct cc_box box;
        cc_tiling_tile(tl, i, &rg, &box);
        int64_t f = (int64_t)cc_tiling_free(tl, rg, &box);
        if (f > rows_max) rows_max = f;
    }
    int64_t lo, hi;
    cc_core_share(tl->n_tiles, ctx, &lo, &hi);
    if (hi <= lo) goto done;
    if (U > hi - lo) U = (int)(hi - lo);
    if (U > CC_KB_MAX_SLOTS) U = CC_KB_MAX_SLOTS;
    m->U = U;
    /* buffers */
    uint64_t N = (uint64_t)sp->N, K = (uint64_t)sp->k, r0 = (uint64_t)rows_max;
    for (int i = 0; i < pl->n_ct && st == BASE_OK; i++)
        for (int s = 0; s < 2; s++)
            if ((pl->ct[i].buf[s] = cc_kb_buffer(b, r0 * N * base_dtype_size(pl->ct[i].dt), U)) < 0) st = diag->status;
    for (int j = 0; j < sp->n && st == BASE_OK; j++)
        if (pl->op_load[j] >= 0 && (m->load_buf[j] = cc_kb_buffer(b, r0 * N * base_dtype_size(sp->dt[j]), U)) < 0)
            st = diag->status;
    for (int i = 0; i < pl->n_tmp && st == BASE_OK; i++)
        if ((m->tmp_buf[i] = cc_kb_buffer(b, r0 * N * pl->tmp_es, U)) < 0) st = diag->status;
    for (int i = 0; i < 3 && st == BASE_OK; i++)
        if ((m->mask_buf[i] = cc_kb_buffer(b, r0 * ((N + 1) / 2), U)) < 0) st = diag->status;
    for (int q = 0; q < nr && st == BASE_OK; q++)
        if (pl->stage_of[q] >= 0 && (m->stage_buf[q] = cc_kb_buffer(b, r0 * K * base_dtype_size(res_dtype(sp, q)), U)) < 0)
            st = diag->status;
    m->resident = -1;
    if (st == BASE_OK && pl->idx_tile >= 0) {
        if ((m->resident = cc_kb_buffer(b, N * base_dtype_size(pl->idx_dt), 1)) < 0) st = diag->status;
        if (st == BASE_OK) { /* 0 .. N-1 in every partition */
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_IOTA;
            in.dst = cc_kb_sp(b, m->resident, 0, 0, 0, P, pl->idx_dt, N);
            struct cc_access a = {m->resident, 0, CC_WR};
            st = cc_kb_emit(b, m->eng[0], &in, &a, 1);
        }
    }
    if (st != BASE_OK) goto done;
    for (int64_t u = lo; u < hi && st == BASE_OK; u++) {
        int rg;
        struct cc_box box;
        cc_tiling_tile(tl, u, &rg, &box);
        m->slot = (int)((u - lo) % U);
        m->e = m->eng[(u - lo) % m->n_eng];
        m->P = cc_tiling_parts(tl, rg, &box);
        m->r = (int64_t)cc_tiling_free(tl, rg, &box);
        m->side = 0;
        m->lvl = 0;
        int64_t n = sp->N;
        m->n0 = n;
        struct pat all = dense(0, m->r * n);
        /* loads */
        for (int j = 0; j < sp->n && st == BASE_OK; j++) {
            int buf = pl->op_tile[j] >= 0 ? pl->ct[pl->op_tile[j]].buf[0] : pl->op_load[j] >= 0 ? m->load_buf[j] : -1;
            if (buf < 0) continue;
            struct isa_ap src, dst = pat_ap(m, buf, sp->dt[j], &all);
            if (vin[j] < 0 || !hbm_ap(tl, rg, vin[j], &box, sst[vin[j]], n, &src)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for sort operand %d", j);
                break;
            }
            struct cc_access a = {buf, m->slot, CC_WR};
            st = cc_kb_dma(b, &dst, &src, &a, 1, cc_kb_dma_pieces(b, (uint64_t)m->P * m->r * N * base_dtype_size(sp->dt[j]), m->P));
        }
        if (st == BASE_OK && pl->idx_tile >= 0) { /* the index of every element in its row */
            const struct ctile *ti = &pl->ct[pl->idx_tile];
            struct isa_ap src = cc_kb_sp(b, m->resident, 0, 0, 0, m->P, pl->idx_dt, 0);
            src.ndims = 2;
            src.stride[0] = 0;
            src.count[0] = (uint32_t)m->r;
            src.stride[1] = 1;
            src.count[1] = (uint32_t)n;
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_COPY;
            in.dst = pat_ap(m, ti->buf[0], pl->idx_dt, &all);
            in.src0 = src;
            struct cc_access a[2] = {{ti->buf[0], m->slot, CC_WR}, {m->resident, 0, CC_RD}};
            st = emit1(m, &in, a, 2);
        }
        if (st == BASE_OK) st = emit_keys(m);
        int64_t nf = n;
        if (st == BASE_OK) st = network(n, m->r, sp->k, false, emit_step, m, &nf);
        /* results */
        for (int q = 0; q < nr && st == BASE_OK; q++) {
            if (!pl->need_res[q]) continue;
            enum base_dtype odt = res_dtype(sp, q);
            struct isa_ap from;
            int fb;
            st = result_src(m, q, nf, &from, &fb);
            struct isa_ap dst;
            if (st == BASE_OK && !hbm_ap(tl, rg, vout[q], &box, sst[vout[q]], sp->k, &dst))
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for sort result %d", q);
            struct cc_access a = {fb, m->slot, CC_RD};
            if (st == BASE_OK)
                st = cc_kb_dma(b, &dst, &from, &a, 1,
                               cc_kb_dma_pieces(b, (uint64_t)m->P * m->r * K * base_dtype_size(odt), m->P));
        }
    }
done:
    if (b) cc_kb_free(b);
    free(pl);
    free(m);
    free(tl);
    return st;
}
