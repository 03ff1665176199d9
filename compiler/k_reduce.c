/* Reductions: CC_K_REDUCE (with an optional elementwise prologue) and
 * CC_K_REDUCE_WINDOW.
 *
 * reduce: the golden interpreter folds each output's elements in row-major
 * order starting from the init value, rounding every step to the element
 * type.  On chip, kept dims go on partitions and free dims, the reduced
 * elements of each output lie in one partition after an accumulator slot:
 * [acc, x0 .. x(Rc-1)], and one `reduce` instruction folds that run in order
 * from the accumulator, so chunk after chunk the fold is the interpreter's
 * sequence (exact for f32 and integers; bf16/f16 sums round once per chunk
 * instead of per step: docs/compiler.md).
 *
 * Bodies that are no ALU function (argmax's compare + select pairs, ...)
 * run as step programs: one instruction per body op per element, in the
 * interpreter's order, so bit for bit (see "body programs" below).
 *
 * reduce_window: out = init (op) x[window position 0] (op) ... in row-major
 * window order, one binary instruction (or program step) per window
 * position over a tile of the output read through a shifted view of the
 * input (padding and base-dilation holes read the init value), so every
 * step rounds as the interpreter's does: exact. */
#include "compiler/cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RED 8

static bool splat_of(const struct graph_value *v, double *out)
{
    const struct graph_op *op = v ? v->def : NULL;
    if (!op || op->kind != GRAPH_OP_CONSTANT) return false;
    const struct graph_attr *a = graph_op_attr(op, "value");
    const struct base_tensor *t = a && a->kind == GRAPH_ATTR_ELEMENTS ? a->u.elements.value : NULL;
    if (!t || !t->data || t->count < 1 || base_dtype_is_complex(t->dtype)) return false;
    uint64_t b0 = base_elem_get_bits(t->dtype, t->data, 0);
    for (int64_t i = 1; i < t->count; i++)
        if (base_elem_get_bits(t->dtype, t->data, (size_t)i) != b0) return false;
    if (base_dtype_is_float(t->dtype)) {
        *out = base_elem_get_f64(t->dtype, t->data, 0);
        return true;
    }
    if (base_dtype_kind(t->dtype) == BASE_KIND_UINT) {
        uint64_t u = base_elem_get_u64(t->dtype, t->data, 0);
        if (u > (UINT64_C(1) << 53)) return false;
        *out = (double)u;
        return true;
    }
    int64_t s = base_elem_get_i64(t->dtype, t->data, 0);
    if (s > (INT64_C(1) << 53) || s < -(INT64_C(1) << 53)) return false;
    *out = (double)s;
    return true;
}

/* The ALU function of a reduction body's op for element type dt. */
static bool reduce_func(enum graph_op_kind k, enum base_dtype dt, unsigned *f)
{
    bool fl = base_dtype_is_float(dt);
    if (fl && base_dtype_bits(dt) > 32) return false;
    if (base_dtype_is_complex(dt)) return false;
    switch (k) {
    case GRAPH_OP_ADD: *f = fl ? ISA_ALU_ADD : ISA_ALU_IADD; return true;
    case GRAPH_OP_MULTIPLY: *f = fl ? ISA_ALU_MUL : ISA_ALU_IMUL; return true;
    case GRAPH_OP_MAXIMUM: *f = fl ? ISA_ALU_MAX : ISA_ALU_IMAX; return true;
    case GRAPH_OP_MINIMUM: *f = fl ? ISA_ALU_MIN : ISA_ALU_IMIN; return true;
    case GRAPH_OP_AND: *f = ISA_ALU_IAND; return !fl;
    case GRAPH_OP_OR: *f = ISA_ALU_IOR; return !fl;
    case GRAPH_OP_XOR: *f = ISA_ALU_IXOR; return !fl;
    default: return false;
    }
}

static bool why_set(char *why, size_t cap, const char *msg)
{
    if (why && cap) snprintf(why, cap, "%s", msg);
    return false;
}

/* Whether op (in a reduction body) returns its first operand unchanged:
 * a convert or reshape to the same scalar type. */
static bool is_identity(const struct graph_op *op)
{
    if (op->n_operands != 1 || op->n_results != 1) return false;
    if (op->kind != GRAPH_OP_CONVERT && op->kind != GRAPH_OP_RESHAPE && op->kind != GRAPH_OP_BITCAST_CONVERT)
        return false;
    const struct graph_type *a = op->operands[0]->type, *r = op->results[0].type;
    return a && r && a->kind == GRAPH_TYPE_TENSOR && r->kind == GRAPH_TYPE_TENSOR && a->elem == r->elem &&
           !a->quant && !r->quant;
}

/* The i1 value v of a body evaluated with args (x, y); false when v depends
 * on something other than the args, i1 splat constants and boolean ops. */
static bool bool_eval(const struct graph_block *b, const struct graph_value *v, bool x, bool y, int depth, bool *out)
{
    if (depth > 32 || !v || !v->type || v->type->kind != GRAPH_TYPE_TENSOR || v->type->elem != BASE_DT_I1)
        return false;
    if (v == &b->args[0]) return *out = x, true;
    if (v == &b->args[1]) return *out = y, true;
    const struct graph_op *o = v->def;
    if (!o) return false;
    if (o->kind == GRAPH_OP_CONSTANT) {
        double d;
        if (!splat_of(v, &d)) return false;
        *out = d != 0;
        return true;
    }
    if (o->parent != b || o->n_results != 1) return false;
    bool a[3] = {false, false, false};
    if (o->n_operands > 3) return false;
    for (int i = 0; i < o->n_operands; i++)
        if (!bool_eval(b, o->operands[i], x, y, depth + 1, &a[i])) return false;
    switch (o->kind) {
    case GRAPH_OP_AND: *out = a[0] && a[1]; return o->n_operands == 2;
    case GRAPH_OP_OR: *out = a[0] || a[1]; return o->n_operands == 2;
    case GRAPH_OP_XOR: *out = a[0] != a[1]; return o->n_operands == 2;
    case GRAPH_OP_NOT: *out = !a[0]; return o->n_operands == 1;
    case GRAPH_OP_SELECT: *out = a[0] ? a[1] : a[2]; return o->n_operands == 3;
    case GRAPH_OP_CONVERT:
    case GRAPH_OP_RESHAPE:
    case GRAPH_OP_BITCAST_CONVERT: *out = a[0]; return o->n_operands == 1;
    case GRAPH_OP_COMPARE: {
        const struct graph_attr *d = graph_op_attr(o, "comparison_direction");
        if (o->n_operands != 2) return false;
        /* on i1, false < true */
        if (graph_attr_is_keyword(d, "EQ")) *out = a[0] == a[1];
        else if (graph_attr_is_keyword(d, "NE")) *out = a[0] != a[1];
        else if (graph_attr_is_keyword(d, "LT")) *out = !a[0] && a[1];
        else if (graph_attr_is_keyword(d, "LE")) *out = !a[0] || a[1];
        else if (graph_attr_is_keyword(d, "GT")) *out = a[0] && !a[1];
        else if (graph_attr_is_keyword(d, "GE")) *out = a[0] || !a[1];
        else return false;
        return true;
    }
    default: return false;
    }
}

/* A one-result body over i1 is a boolean function of its two inputs:
 * identified by its truth table, lowered as the and/or/xor it equals. */
static bool bool_body(const struct graph_block *b, unsigned *func)
{
    const struct graph_op *ret = graph_block_terminator(b);
    if (b->n_args != 2 || !ret || ret->n_operands != 1) return false;
    for (int i = 0; i < 2; i++)
        if (!b->args[i].type || b->args[i].type->kind != GRAPH_TYPE_TENSOR || b->args[i].type->elem != BASE_DT_I1)
            return false;
    unsigned table = 0; /* bit 2x + y: f(x, y) */
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            bool r;
            if (!bool_eval(b, ret->operands[0], x, y, 0, &r)) return false;
            if (r) table |= 1u << (2 * x + y);
        }
    switch (table) {
    case 0x8: *func = ISA_ALU_IAND; return true;
    case 0xE: *func = ISA_ALU_IOR; return true;
    case 0x6: *func = ISA_ALU_IXOR; return true;
    default: return false;
    }
}

/* Body result i = f(arg i, arg n + i) (either order when commutative) with a
 * supported f on the element type; funcs[i] gets the ALU function. */
static bool body_funcs(const struct graph_op *op, int n, unsigned *funcs, char *why, size_t cap)
{
    if (op->n_regions < 1 || op->regions[0].n_blocks != 1) return why_set(why, cap, "the body must be one block");
    const struct graph_block *b = &op->regions[0].blocks[0];
    const struct graph_op *ret = graph_block_terminator(b);
    if (b->n_args != 2 * n || !ret || ret->n_operands != n)
        return why_set(why, cap, "the body must take 2N scalars and return N");
    if (n == 1 && bool_body(b, &funcs[0])) return true;
    for (int i = 0; i < n; i++) {
        const struct graph_value *r = ret->operands[i];
        const struct graph_op *o = r->def;
        for (int hop = 0; hop < 8 && o && o->parent == b && is_identity(o); hop++) {
            r = o->operands[0];
            o = r->def;
        }
        if (!o || o->n_operands != 2 || o->n_results != 1 || o->parent != b)
            return why_set(why, cap, "the body must be one binary op per result");
        const struct graph_value *a0 = &b->args[i], *a1 = &b->args[n + i];
        bool direct = o->operands[0] == a0 && o->operands[1] == a1;
        bool swapped = o->operands[0] == a1 && o->operands[1] == a0;
        if (!direct && !swapped) return why_set(why, cap, "each result must reduce its own input independently");
        const struct graph_type *t = a0->type;
        if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || !a1->type || a1->type->elem != t->elem ||
            !r->type || r->type->elem != t->elem)
            return why_set(why, cap, "the body must keep one element type");
        if (!reduce_func(o->kind, t->elem, &funcs[i]))
            return why_set(why, cap, "the body op is not add, multiply, maximum, minimum, and, or or xor on f32/bf16/f16/fp8/integers");
    }
    return true;
}

bool cc_body_binary_func(const struct graph_op *op, unsigned *func, char *why, size_t cap)
{
    return body_funcs(op, 1, func, why, cap);
}

/* ------------------------------------------------------ body programs
 * A body that is not one ALU op per result (an argmax's compare + select
 * pair, select_and_gather_add's) is run step by step as the interpreter
 * runs it: acc = body(acc, x) for each element in order, each body op one
 * vector instruction over a tile of accumulators, so the values are the
 * interpreter's bit for bit (compares in f32 or exact integers, selects
 * moving bits, and/or/not on i1, arithmetic rounded to the type per op). */

#define BP_MAX_VALS 48
#define BP_MAX_INS 32

enum { BV_ARG, BV_OP, BV_CONST };
struct bp_val {
    int kind;
    int idx;               /* BV_ARG: block argument; BV_OP: instruction */
    enum base_dtype dt;
    double imm;            /* BV_CONST */
};
struct bp_ins {
    uint8_t op;            /* ISA_OP_BINARY, UNARY, SELECT */
    uint8_t func;
    int src[3];            /* values */
};
struct bprog {
    int n;                 /* results (inputs) */
    int n_vals, n_ins;
    struct bp_val v[BP_MAX_VALS];
    struct bp_ins ins[BP_MAX_INS]; /* instruction i defines value ins_val[i] */
    int ins_val[BP_MAX_INS];
    int ret[MAX_RED];      /* value of result i */
};

static bool bp_scalar(const struct graph_type *t, enum base_dtype *dt)
{
    if (!t || t->kind != GRAPH_TYPE_TENSOR || t->quant || t->rank != 0 || base_dtype_is_complex(t->elem)) return false;
    if (base_dtype_is_float(t->elem) && base_dtype_bits(t->elem) > 32) return false;
    *dt = t->elem;
    return true;
}

/* Building a program: values by their graph value (the latest binding
 * first: a function called twice binds its values again). */
#define BP_MAX_NAMES 256
struct bp_build {
    struct bprog *bp;
    int n_names;
    const struct graph_value *name[BP_MAX_NAMES]; /* graph value -> program value */
    int val[BP_MAX_NAMES];
    char *why;
    size_t cap;
};

static int bp_lookup(const struct bp_build *c, const struct graph_value *v)
{
    for (int i = c->n_names - 1; i >= 0; i--)
        if (c->name[i] == v) return c->val[i];
    return -1;
}

/* Another name for program value x; false when there is no room. */
static bool bp_alias(struct bp_build *c, const struct graph_value *name, int x)
{
    if (c->n_names >= BP_MAX_NAMES) return false;
    c->name[c->n_names] = name;
    c->val[c->n_names++] = x;
    return true;
}

/* A new program value named `name`; -1 when there is no room. */
static int bp_bind(struct bp_build *c, const struct graph_value *name, struct bp_val v)
{
    if (c->bp->n_vals >= BP_MAX_VALS || !bp_alias(c, name, c->bp->n_vals)) return -1;
    c->bp->v[c->bp->n_vals] = v;
    return c->bp->n_vals++;
}

/* The function a func.call in a body calls (looked up in the module's top block). */
static const struct graph_op *bp_callee(const struct graph_op *call)
{
    const struct graph_attr *sym = graph_op_attr(call, "callee");
    if (!sym || sym->kind != GRAPH_ATTR_SYMBOL) return NULL;
    const struct graph_op *o = call;
    while (o->parent && o->parent->parent && o->parent->parent->parent) o = o->parent->parent->parent;
    const struct graph_block *top = o->parent;
    for (int i = 0; top && i < top->n_ops; i++) {
        const struct graph_op *f = top->ops[i];
        const char *nm = f->kind == GRAPH_OP_FUNC ? graph_func_name(f) : NULL;
        if (nm && strlen(nm) == sym->u.str.len && memcmp(nm, sym->u.str.s, sym->u.str.len) == 0 && f->n_regions >= 1 &&
            f->regions[0].n_blocks == 1)
            return f;
    }
    return NULL;
}

/* The ops of block b (its arguments bound to args[], or already bound when
 * args is NULL) into the program; rets[] gets the values it returns. */
static bool bp_block(struct bp_build *c, const struct graph_block *b, const int *args, int *rets, int n_rets, int depth)
{
    struct bprog *bp = c->bp;
    if (depth > 8) return why_set(c->why, c->cap, "calls in the body nest too deep");
    for (int i = 0; args && i < b->n_args; i++)
        if (!bp_alias(c, &b->args[i], args[i])) return why_set(c->why, c->cap, "the body is too long");
    const struct graph_op *ret = graph_block_terminator(b);
    if (!ret || ret->n_operands != n_rets) return why_set(c->why, c->cap, "a body block must return its results");
    for (int k = 0; k < b->n_ops; k++) {
        const struct graph_op *o = b->ops[k];
        if (o == ret) break;
        int src[3] = {-1, -1, -1};
        if (o->n_operands > 3 && o->kind != GRAPH_OP_CALL)
            return why_set(c->why, c->cap, "a body op has an unexpected arity");
        for (int i = 0; i < o->n_operands && i < 3; i++) {
            src[i] = bp_lookup(c, o->operands[i]);
            if (src[i] < 0) return why_set(c->why, c->cap, "a body op uses a value from outside the body");
        }
        if (o->kind == GRAPH_OP_CALL) {
            const struct graph_op *f = bp_callee(o);
            int cargs[2 * MAX_RED + 4], crets[2 * MAX_RED + 4];
            if (!f || o->n_operands > (int)ARRAY_LEN(cargs) || o->n_results > (int)ARRAY_LEN(crets) ||
                f->regions[0].blocks[0].n_args != o->n_operands)
                return why_set(c->why, c->cap, "a call in the body to an unknown function");
            for (int i = 0; i < o->n_operands; i++)
                if ((cargs[i] = bp_lookup(c, o->operands[i])) < 0)
                    return why_set(c->why, c->cap, "a body op uses a value from outside the body");
            if (!bp_block(c, &f->regions[0].blocks[0], cargs, crets, o->n_results, depth + 1)) return false;
            for (int i = 0; i < o->n_results; i++)
                if (!bp_alias(c, &o->results[i], crets[i])) return why_set(c->why, c->cap, "the body is too long");
            continue;
        }
        enum base_dtype rt;
        if (o->n_results != 1 || o->n_regions != 0 || !bp_scalar(o->results[0].type, &rt))
            return why_set(c->why, c->cap, "body ops must have one scalar f32/bf16/f16/fp8/integer result");
        if (bp->n_vals >= BP_MAX_VALS || bp->n_ins >= BP_MAX_INS) return why_set(c->why, c->cap, "the body is too long");
        const struct graph_value *res = &o->results[0];
        if (o->kind == GRAPH_OP_CONSTANT) {
            double d;
            if (!splat_of(res, &d)) return why_set(c->why, c->cap, "a body constant must be a scalar");
            if (bp_bind(c, res, (struct bp_val){BV_CONST, -1, rt, d}) < 0)
                return why_set(c->why, c->cap, "the body is too long");
            continue;
        }
        if (o->n_operands < 1) return why_set(c->why, c->cap, "a body op has an unexpected arity");
        if (is_identity(o)) { /* the same value under a new name */
            if (!bp_alias(c, res, src[0])) return why_set(c->why, c->cap, "the body is too long");
            continue;
        }
        enum base_dtype d0 = bp->v[src[0]].dt;
        struct bp_ins in = {0, 0, {src[0], src[1], src[2]}};
        unsigned f = 0;
        bool fl = base_dtype_is_float(d0);
        switch (o->kind) {
        case GRAPH_OP_COMPARE:
            if (o->n_operands != 2 || bp->v[src[1]].dt != d0 || rt != BASE_DT_I1 || !cc_compare_func(o, &f, !fl))
                return why_set(c->why, c->cap, "a body compare must compare two scalars of one type");
            if (fl && graph_attr_is_keyword(graph_op_attr(o, "compare_type"), "TOTALORDER"))
                return why_set(c->why, c->cap, "TOTALORDER compares in a body are not lowered");
            in.op = ISA_OP_BINARY;
            break;
        case GRAPH_OP_SELECT:
            if (o->n_operands != 3 || d0 != BASE_DT_I1 || bp->v[src[1]].dt != rt || bp->v[src[2]].dt != rt)
                return why_set(c->why, c->cap, "a body select must choose between two values of its type");
            in.op = ISA_OP_SELECT;
            break;
        case GRAPH_OP_CONVERT:
            if (o->n_operands != 1) return why_set(c->why, c->cap, "a body convert takes one value");
            in.op = ISA_OP_UNARY;
            f = ISA_ALU_CAST;
            break;
        case GRAPH_OP_NOT:
        case GRAPH_OP_NEGATE:
        case GRAPH_OP_ABS:
            if (o->n_operands != 1 || rt != d0) return why_set(c->why, c->cap, "a body unary op must keep its type");
            if (o->kind == GRAPH_OP_NOT && fl) return why_set(c->why, c->cap, "not of a float");
            if (o->kind != GRAPH_OP_NOT && d0 == BASE_DT_I1) return why_set(c->why, c->cap, "negate or abs of i1");
            in.op = ISA_OP_UNARY;
            f = o->kind == GRAPH_OP_NOT ? ISA_ALU_INOT
                : o->kind == GRAPH_OP_NEGATE ? (fl ? ISA_ALU_NEG : ISA_ALU_INEG)
                                             : (fl ? ISA_ALU_ABS : ISA_ALU_IABS);
            break;
        case GRAPH_OP_SUBTRACT:
        case GRAPH_OP_DIVIDE:
            if (o->n_operands != 2 || bp->v[src[1]].dt != d0 || rt != d0 || d0 == BASE_DT_I1)
                return why_set(c->why, c->cap, "a body op must keep one element type");
            in.op = ISA_OP_BINARY;
            f = o->kind == GRAPH_OP_SUBTRACT ? (fl ? ISA_ALU_SUB : ISA_ALU_ISUB) : (fl ? ISA_ALU_DIV : ISA_ALU_IDIV);
            break;
        default:
            if (cc_activation_of(o->kind, &f)) {
                if (o->n_operands != 1 || !fl || rt != d0)
                    return why_set(c->why, c->cap, "transcendental body ops run on f32/bf16/f16/fp8");
                in.op = ISA_OP_ACTIVATE;
                break;
            }
            if (o->n_operands != 2 || bp->v[src[1]].dt != d0 || rt != d0)
                return why_set(c->why, c->cap, "a body op must keep one element type");
            if (!reduce_func(o->kind, d0, &f))
                return why_set(c->why, c->cap,
                               "body ops must be compare, select, convert, and, or, xor, not, add, subtract, multiply, "
                               "divide, maximum, minimum, negate, abs, exp, log, log1p, expm1, tanh, logistic, "
                               "sqrt, rsqrt or calls");
            in.op = ISA_OP_BINARY;
            break;
        }
        in.func = (uint8_t)f;
        bp->ins_val[bp->n_ins] = bp->n_vals;
        bp->ins[bp->n_ins++] = in;
        if (bp_bind(c, res, (struct bp_val){BV_OP, bp->n_ins - 1, rt, 0}) < 0)
            return why_set(c->why, c->cap, "the body is too long");
    }
    for (int i = 0; i < n_rets; i++)
        if ((rets[i] = bp_lookup(c, ret->operands[i])) < 0)
            return why_set(c->why, c->cap, "a body result comes from outside the body");
    return true;
}

/* The body of op (n inputs) as a program; false (why set) when an op of it
 * has no instruction. */
static bool bprog_compile(const struct graph_op *op, int n, struct bprog *bp, char *why, size_t cap)
{
    memset(bp, 0, sizeof *bp);
    bp->n = n;
    if (op->n_regions < 1 || op->regions[0].n_blocks != 1) return why_set(why, cap, "the body must be one block");
    const struct graph_block *b = &op->regions[0].blocks[0];
    if (b->n_args != 2 * n) return why_set(why, cap, "the body must take 2N scalars and return N");
    struct bp_build *c = calloc(1, sizeof *c);
    if (!c) return why_set(why, cap, "out of memory");
    c->bp = bp;
    c->why = why;
    c->cap = cap;
    bool ok = true;
    for (int i = 0; i < 2 * n && ok; i++) {
        enum base_dtype dt;
        if (!bp_scalar(b->args[i].type, &dt))
            ok = why_set(why, cap, "body arguments must be f32/bf16/f16/fp8/integer scalars");
        else bp_bind(c, &b->args[i], (struct bp_val){BV_ARG, i, dt, 0});
    }
    if (ok) ok = bp_block(c, b, NULL, bp->ret, n, 0);
    for (int i = 0; i < n && ok; i++)
        if (bp->v[bp->ret[i]].dt != bp->v[i].dt) ok = why_set(why, cap, "a body result must have its accumulator's type");
    free(c);
    return ok;
}

/* Scratchpad of a body program over tiles of P x F: a buffer per op value
 * and per constant (filled once). */
struct bp_bufs {
    int buf[BP_MAX_VALS]; /* -1: none (arguments) */
    int eng, act_eng;     /* the program's engine; the one of its activations */
};

static uint64_t bprog_bytes_per_elem(const struct bprog *bp)
{
    uint64_t s = 0;
    for (int v = 0; v < bp->n_vals; v++)
        if (bp->v[v].kind != BV_ARG) s += base_dtype_size(bp->v[v].dt);
    return s;
}

static enum base_status bprog_alloc(struct cc_kb *b, const struct bprog *bp, uint32_t P, uint64_t F, int eng,
                                    struct bp_bufs *bb)
{
    const struct cc_target *t = b->t;
    bb->eng = bb->act_eng = eng;
    if (t->chip->engines[eng].kind != ISA_ENGINE_VECTOR && t->chip->engines[eng].kind != ISA_ENGINE_SCALAR)
        bb->act_eng = t->act >= 0 ? t->act : t->vec;
    for (int k = 0; k < bp->n_ins; k++)
        if (bp->ins[k].op == ISA_OP_ACTIVATE && bb->act_eng < 0)
            return cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no engine for the body's activation");
    for (int v = 0; v < bp->n_vals; v++) {
        bb->buf[v] = -1;
        if (bp->v[v].kind == BV_ARG) continue;
        bb->buf[v] = cc_kb_buffer(b, F * base_dtype_size(bp->v[v].dt), 1);
        if (bb->buf[v] < 0) return b->diag->status;
        if (bp->v[v].kind == BV_CONST) {
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_MEMSET;
            in.imm0 = bp->v[v].imm;
            in.dst = cc_kb_sp(b, bb->buf[v], 0, 0, 0, P, bp->v[v].dt, F);
            struct cc_access a = {bb->buf[v], 0, CC_WR};
            TRY(cc_kb_emit(b, eng, &in, &a, 1));
        }
    }
    return BASE_OK;
}

/* One step: out[i] = body(args)[i], args[0..2n) tile-shaped (P x F) access
 * patterns with their accesses; out[] must not overlap args[]. */
static enum base_status bprog_step(struct cc_kb *b, const struct bprog *bp, const struct bp_bufs *bb, int eng,
                                   uint32_t P, uint64_t F, const struct isa_ap *args, const struct cc_access *arg_acc,
                                   const struct isa_ap *outs, const struct cc_access *out_acc)
{
    struct isa_ap ap[BP_MAX_VALS];
    struct cc_access ac[BP_MAX_VALS];
    for (int v = 0; v < bp->n_vals; v++) {
        if (bp->v[v].kind == BV_ARG) {
            ap[v] = args[bp->v[v].idx];
            ac[v] = arg_acc[bp->v[v].idx];
        } else {
            ap[v] = cc_kb_sp(b, bb->buf[v], 0, 0, 0, P, bp->v[v].dt, F);
            ac[v] = (struct cc_access){bb->buf[v], 0, CC_RW};
        }
    }
    /* an op whose value is a result writes the result in place of its buffer */
    bool taken[MAX_RED] = {false};
    for (int i = 0; i < bp->n; i++) {
        int v = bp->ret[i];
        if (bp->v[v].kind != BV_OP) continue;
        bool dup = false;
        for (int j = 0; j < i; j++) dup |= bp->ret[j] == v;
        if (dup) continue;
        ap[v] = outs[i];
        ac[v] = out_acc[i];
        taken[i] = true;
    }
    for (int k = 0; k < bp->n_ins; k++) {
        const struct bp_ins *x = &bp->ins[k];
        int d = bp->ins_val[k];
        struct isa_instr in;
        memset(&in, 0, sizeof in);
        in.op = x->op;
        in.func = x->op == ISA_OP_SELECT ? 0 : x->func;
        if (x->op == ISA_OP_ACTIVATE) {
            in.imm0 = 1.0;  /* scale */
            in.imm1 = -0.0; /* bias: x + -0 == x, also for x = -0 */
        }
        in.dst = ap[d];
        struct cc_access a[4];
        int na = 0;
        a[na] = ac[d];
        a[na++].mode = CC_WR;
        struct isa_ap *srcs[3] = {&in.src0, &in.src1, &in.src2};
        for (int s = 0; s < 3; s++) {
            if (x->src[s] < 0) continue;
            *srcs[s] = ap[x->src[s]];
            a[na] = ac[x->src[s]];
            a[na++].mode = CC_RD;
        }
        TRY(cc_kb_emit(b, x->op == ISA_OP_ACTIVATE ? bb->act_eng : eng, &in, a, na));
    }
    for (int i = 0; i < bp->n; i++) { /* results that are arguments, constants or repeated: copied */
        if (taken[i]) continue;
        int v = bp->ret[i];
        struct isa_instr in;
        memset(&in, 0, sizeof in);
        in.op = ISA_OP_COPY;
        in.dst = outs[i];
        in.src0 = ap[v];
        struct cc_access a[2] = {out_acc[i], ac[v]};
        a[0].mode = CC_WR;
        a[1].mode = CC_RD;
        TRY(cc_kb_emit(b, eng, &in, a, 2));
    }
    return BASE_OK;
}

/* A body is lowered as ALU functions (body_funcs) or as a step program. */
static bool body_ok(const struct graph_op *op, int n, char *why, size_t cap)
{
    unsigned f[MAX_RED];
    if (body_funcs(op, n, f, NULL, 0)) return true;
    struct bprog *bp = malloc(sizeof *bp);
    if (!bp) return why_set(why, cap, "out of memory");
    bool ok = bprog_compile(op, n, bp, why, cap);
    free(bp);
    return ok;
}

bool cc_reduce_op_supported(const struct graph_op *op, const struct cc_target *t, char *why, size_t cap)
{
    (void)t;
    if (why && cap) why[0] = 0;
    if (op->kind == GRAPH_OP_REDUCE || op->kind == GRAPH_OP_REDUCE_WINDOW) {
        int n = op->n_operands / 2;
        if (n < 1 || n > MAX_RED || op->n_operands != 2 * n || op->n_results != n)
            return why_set(why, cap, op->kind == GRAPH_OP_REDUCE ? "reduce takes 1 to 8 inputs with their init values"
                                                                 : "reduce_window takes 1 to 8 inputs with their init "
                                                                   "values");
        for (int i = 0; i < 2 * n; i++) {
            const struct graph_type *ty = op->operands[i]->type;
            if (!ty || ty->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ty) || ty->quant)
                return why_set(why, cap, "needs static, non-quantized tensors");
            if (ty->elem != op->operands[i < n ? i : i - n]->type->elem)
                return why_set(why, cap, "init values must have their input's element type");
        }
        return body_ok(op, n, why, cap);
    }
    return why_set(why, cap, "not a reduction");
}

/* ------------------------------------------------------------------ reduce */

struct red {
    struct cc_view full[CC_TILE_MAX_VIEWS]; /* result views over the input's dims */
    const struct graph_op *op;
    int n;
    unsigned func[MAX_RED];
    enum base_dtype dt[MAX_RED];
    int x_in[MAX_RED];         /* kernel input index of reduce input i, or -1 (the prologue computes it) */
    int init_in[MAX_RED];      /* kernel input index of init i, or -1 (an immediate) */
    double init_imm[MAX_RED];
    int out_of[MAX_RED];       /* k->out index of result i, or -1 */
    /* the input space, canonical, permuted: kept dims [0, nk), reduced [nk, rank) */
    int rank, nk;
    int64_t dims[BASE_MAX_RANK];
    int perm[BASE_MAX_RANK];   /* permuted dim -> original input dim (before merging: -1) */
    /* buffers */
    int red[MAX_RED], acc[MAX_RED], res[MAX_RED], init[MAX_RED];
    /* a body that is no ALU function: its step program, scratch, and two
     * accumulator tiles per result that the steps alternate between */
    bool seq;
    struct bprog bp;
    struct bp_bufs bb;
    int pp[MAX_RED][2];
};

/* A view of the input space for original dims [rank] given by strides; its
 * dims as the space after canonicalization (merge groups) and permutation. */
struct space {
    int rank;                      /* original */
    int64_t dims[BASE_MAX_RANK];
    bool reduced[BASE_MAX_RANK];
    int n_groups;                  /* canonical dims: groups of consecutive original dims */
    int g_first[BASE_MAX_RANK], g_last[BASE_MAX_RANK];
    int g_inner[BASE_MAX_RANK];    /* the group's innermost dim longer than 1 (g_last if none):
                                      a size-1 dim's stride is arbitrary (0 after a broadcast) */
    int order[BASE_MAX_RANK];      /* canonical order: kept groups, then reduced groups */
    int nk;
};

/* The view over the permuted canonical space of a view over the original
 * dims (strides of the innermost dim of each group). */
static void space_view(const struct space *sp, const struct cc_view *in, struct cc_view *out)
{
    struct cc_view v = *in;
    v.rank = sp->n_groups;
    for (int c = 0; c < sp->n_groups; c++) {
        int g = sp->order[c];
        int64_t n = 1;
        for (int d = sp->g_first[g]; d <= sp->g_last[g]; d++) n *= sp->dims[d];
        v.dims[c] = n;
        v.strides[c] = in->strides[sp->g_inner[g]];
    }
    *out = v;
}

/* Groups: consecutive dims of one class whose strides chain in every view. */
static void space_init(struct space *sp, int rank, const int64_t *dims, const bool *reduced,
                       const struct cc_view *const *views, int n_views, bool no_merge)
{
    memset(sp, 0, sizeof *sp);
    sp->rank = rank;
    for (int d = 0; d < rank; d++) sp->dims[d] = dims[d], sp->reduced[d] = reduced[d];
    int g = -1;
    for (int d = 0; d < rank; d++) {
        bool join = !no_merge && g >= 0 && reduced[d] == reduced[sp->g_last[g]];
        /* a dim joins the group when it continues the group's innermost
         * dim longer than 1 in every view (size-1 dims always join) */
        int in = g >= 0 ? sp->g_inner[g] : -1;
        bool real = in >= 0 && dims[in] > 1;
        for (int v = 0; v < n_views && join && real && dims[d] > 1; v++)
            if (views[v]->strides[in] != views[v]->strides[d] * dims[d]) join = false;
        if (join) {
            sp->g_last[g] = d;
            if (dims[d] > 1 || !real) sp->g_inner[g] = d;
        } else {
            g++;
            sp->g_first[g] = sp->g_last[g] = sp->g_inner[g] = d;
        }
    }
    sp->n_groups = g + 1;
    int c = 0;
    for (int i = 0; i < sp->n_groups; i++)
        if (!reduced[sp->g_first[i]]) sp->order[c++] = i;
    sp->nk = c;
    for (int i = 0; i < sp->n_groups; i++)
        if (reduced[sp->g_first[i]]) sp->order[c++] = i;
}

struct rplan {
    struct cc_tiling tl;
    int64_t chunks;   /* per output tile */
    int64_t n_out_tiles;
    uint32_t jmax;    /* kept free elements per partition (J) */
    uint64_t rc;      /* reduced elements per chunk */
};

/* Tile counts: the part dim among kept dims, reduced chunk Rc (innermost
 * reduced dims first), kept free dims J, at most 4 free dims in all. */
static void reduce_tiles(struct rplan *pl, const struct space *sp, const struct cc_view *views, int n_views,
                         uint32_t P, uint64_t bytes_avail, uint64_t red_es2, uint64_t ew_per_elem, uint64_t per_j)
{
    struct cc_tiling *tl = &pl->tl;
    memset(tl, 0, sizeof *tl);
    tl->n_views = n_views;
    tl->n_regions = 1;
    struct cc_region *r = &tl->r[0];
    r->rank = sp->n_groups;
    for (int v = 0; v < n_views; v++) r->views[v] = views[v];
    for (int c = 0; c < r->rank; c++) r->dims[c] = views[0].dims[c];
    for (int c = 0; c < r->rank; c++)
        if (r->dims[c] == 0) return; /* no elements: no tiles */
    int nk = sp->nk;
    r->part_dim = -1;
    for (int c = 0; c < nk; c++)
        if (r->part_dim < 0 || r->dims[c] > r->dims[r->part_dim]) r->part_dim = c;
    for (int c = 0; c < r->rank; c++) r->count[c] = 1;
    if (r->part_dim >= 0) r->count[r->part_dim] = r->dims[r->part_dim] < (int64_t)P ? r->dims[r->part_dim] : P;
    /* bytes per partition of J rows of Rc: J (Rc + 1) red + J Rc prologue + J res */
#define BYTES(J, RC) ((uint64_t)(J) * (((uint64_t)(RC) + 2) * red_es2 + (uint64_t)(RC) * ew_per_elem + per_j))
    int nfree = 0, fd[ISA_MAX_DIMS];
    uint64_t rc = 1;
    for (int c = r->rank - 1; c >= nk && nfree < ISA_MAX_DIMS; c--) {
        if (r->dims[c] == 1) continue;
        if (BYTES(1, rc * (uint64_t)r->dims[c]) <= bytes_avail) {
            r->count[c] = r->dims[c];
            rc *= (uint64_t)r->dims[c];
            fd[nfree++] = c;
            continue;
        }
        int64_t cmax = 1;
        while (BYTES(1, rc * (uint64_t)(cmax * 2)) <= bytes_avail && cmax * 2 < r->dims[c]) cmax *= 2;
        int64_t best = cmax;
        for (int64_t m = cmax; m >= (cmax + 1) / 2 && m > 1; m--)
            if (r->dims[c] % m == 0) {
                best = m;
                break;
            }
        if (best > 1) {
            r->count[c] = best;
            rc *= (uint64_t)best;
            fd[nfree++] = c;
        }
        break;
    }
    uint64_t j = 1;
    int nr = nfree;
    for (int c = nk - 1; c >= 0 && nfree < ISA_MAX_DIMS; c--) {
        if (c == r->part_dim || r->dims[c] == 1) continue;
        if (BYTES(j * (uint64_t)r->dims[c], rc) <= bytes_avail) {
            r->count[c] = r->dims[c];
            j *= (uint64_t)r->dims[c];
            fd[nfree++] = c;
            continue;
        }
        int64_t m = 1;
        while (BYTES(j * (uint64_t)(m + 1), rc) <= bytes_avail && m + 1 < r->dims[c]) m++;
        if (m > 1) {
            r->count[c] = m;
            j *= (uint64_t)m;
            fd[nfree++] = c;
        }
        break;
    }
#undef BYTES
    /* free dims outermost first: kept (J) then reduced, each in order */
    int n = 0;
    for (int i = nfree - 1; i >= nr; i--) r->free_dims[n++] = fd[i];
    for (int i = nr - 1; i >= 0; i--) r->free_dims[n++] = fd[i];
    r->n_free = n;
    r->n_tiles = 1;
    pl->chunks = 1;
    for (int c = 0; c < r->rank; c++) {
        int64_t g = (r->dims[c] + r->count[c] - 1) / r->count[c];
        r->n_tiles *= g;
        if (c >= nk) pl->chunks *= g;
    }
    tl->n_tiles = r->n_tiles;
    pl->n_out_tiles = pl->chunks ? r->n_tiles / pl->chunks : 0;
    pl->jmax = (uint32_t)j;
    pl->rc = rc;
}

/* J and Rc of a chunk's box. */
static void chunk_jr(const struct cc_region *r, int nk, const struct cc_box *box, uint64_t *J, uint64_t *Rc)
{
    *J = 1;
    *Rc = 1;
    for (int c = 0; c < r->rank; c++) {
        if (c == r->part_dim) continue;
        if (c < nk) *J *= (uint64_t)box->count[c];
        else *Rc *= (uint64_t)box->count[c];
    }
}

/* J rows S = rc + 1 apart: the accumulator slots (off 0, n = 1) or the data (off 1, n = Rc). */
static struct isa_ap rows_ap(const struct cc_kb *b, int buf, int slot, uint32_t P, enum base_dtype dt, uint64_t J,
                             uint64_t S, int off, uint64_t n)
{
    struct isa_ap a = cc_kb_sp(b, buf, slot, (uint64_t)off * base_dtype_size(dt), 0, P, dt, 1);
    a.ndims = 2;
    a.stride[0] = (int64_t)S;
    a.count[0] = (uint32_t)J;
    a.stride[1] = 1;
    a.count[1] = (uint32_t)n;
    return a;
}

static int pick_engine(const struct cc_target *t, unsigned kinds, int salt)
{
    int cand[3] = {t->vec, t->pool, t->act};
    unsigned ck[3] = {ISA_U_VEC, ISA_U_POOL, ISA_U_ACT};
    int got[3] = {0}, n = 0;
    for (int c = 0; c < 3; c++)
        if (cand[c] >= 0 && (kinds & ck[c])) got[n++] = cand[c];
    return n ? got[salt % n] : -1;
}

/* Results of a reduction over no elements: their init values, broadcast. */
static enum base_status fill_with_init(struct cc_kb *b, const struct cc_kernel *k, const struct red *rd,
                                       const struct cc_emit_ctx *ctx)
{
    for (int i = 0; i < rd->n; i++) {
        if (rd->out_of[i] < 0) continue;
        const struct cc_view *o = &k->out[rd->out_of[i]].view;
        if (cc_view_count(o) == 0) continue;
        struct cc_tiling *tl = calloc(1, sizeof *tl);
        if (!tl) return cc_kb_fail(b, BASE_ERR_NOMEM, "out of memory");
        size_t es = base_dtype_size(o->dtype);
        int64_t max_free = (int64_t)((b->sp_bytes - b->sp_top) / 2 / es);
        enum base_status st = cc_tiling_plan(tl, o->rank, o->dims, o, 1, b->partitions, max_free > 0 ? max_free : 1);
        int64_t lo, hi;
        cc_core_share(tl->n_tiles, ctx, &lo, &hi);
        int fill = -1;
        for (int64_t g = lo; g < hi && st == BASE_OK; g++) {
            int region;
            struct cc_box box;
            cc_tiling_tile(tl, g, &region, &box);
            uint32_t P = cc_tiling_parts(tl, region, &box);
            uint64_t F = cc_tiling_free(tl, region, &box);
            if (fill < 0) {
                const struct cc_region *r = &tl->r[0];
                uint64_t fmax = 1;
                for (int d = 0; d < r->rank; d++)
                    if (d != r->part_dim) fmax *= (uint64_t)r->count[d];
                fill = cc_move_fill_tile(b, k, rd->op->operands[rd->n + i], o->dtype,
                                         r->part_dim >= 0 ? (uint32_t)r->count[r->part_dim] : 1, fmax);
                if (fill < 0) {
                    st = b->diag->status;
                    break;
                }
            }
            struct isa_ap dst, src = cc_kb_sp(b, fill, 0, 0, 0, P, o->dtype, F);
            if (!cc_tiling_ap(tl, region, 0, &box, &dst)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for an output tile");
                break;
            }
            struct cc_access a = {fill, 0, CC_RD};
            st = cc_kb_dma(b, &dst, &src, &a, 1, cc_kb_dma_pieces(b, (uint64_t)P * F * es, P));
        }
        free(tl);
        TRY(st);
    }
    return BASE_OK;
}

enum base_status cc_emit_reduce(const struct cc_target *t, const struct cc_kernel *k, const struct cc_emit_ctx *ctx,
                                struct isa_program *out, struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct red *rd = calloc(1, sizeof *rd);
    struct rplan *pl = calloc(1, sizeof *pl);
    struct cc_operand *ops_in = calloc((size_t)k->n_in + 1, sizeof *ops_in);
    struct cc_operand *ops_out = calloc((size_t)k->n_out + 1, sizeof *ops_out);
    bool *in_ok = calloc((size_t)k->n_in + 1, sizeof *in_ok);
    struct cc_ew *ew = NULL;
    enum base_status st = BASE_OK;
    if (!b || !rd || !pl || !ops_in || !ops_out || !in_ok) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    /* the reduce op: the last of the group; the ops before it are the prologue */
    const struct graph_op *op = k->n_ops > 0 ? k->ops[k->n_ops - 1] : NULL;
    char why[200];
    if (!op || op->kind != GRAPH_OP_REDUCE) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "a reduce kernel ends with its stablehlo.reduce");
        goto done;
    }
    if (!cc_reduce_op_supported(op, t, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int n = op->n_operands / 2;
    rd->op = op;
    rd->n = n;
    rd->seq = !body_funcs(op, n, rd->func, NULL, 0);
    if (rd->seq && !bprog_compile(op, n, &rd->bp, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    const struct graph_type *xt = op->operands[0]->type;
    int rank = xt->rank;
    bool reduced[BASE_MAX_RANK] = {false};
    int64_t rdims[BASE_MAX_RANK];
    int nrd = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), rdims, BASE_MAX_RANK);
    for (int i = 0; i < nrd; i++)
        if (rdims[i] >= 0 && rdims[i] < rank) reduced[rdims[i]] = true;
    for (int i = 0; i < n; i++) {
        rd->dt[i] = op->operands[i]->type->elem;
        rd->x_in[i] = rd->init_in[i] = rd->out_of[i] = -1;
        for (int j = 0; j < k->n_in; j++) {
            if (k->in[j].value == op->operands[i]) rd->x_in[i] = j;
            if (k->in[j].value == op->operands[n + i]) rd->init_in[i] = j;
        }
        if (splat_of(op->operands[n + i], &rd->init_imm[i])) rd->init_in[i] = -1;
        else if (rd->init_in[i] < 0) {
            st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "init value %d is neither a kernel input nor a splat constant", i);
            goto done;
        }
        for (int j = 0; j < k->n_out; j++)
            if (k->out[j].value == &op->results[i]) rd->out_of[i] = j;
    }
    /* views over the input space: inputs of that shape (or scalars), prologue outputs */
    const struct cc_view *sv[CC_TILE_MAX_VIEWS];
    int nsv = 0;
    for (int j = 0; j < k->n_in; j++) {
        const struct cc_view *v = &k->in[j].view;
        bool same = v->rank == rank;
        for (int d = 0; d < rank && same; d++) same = v->dims[d] == xt->dims[d];
        in_ok[j] = same || v->rank == 0;
        if (same && nsv < CC_TILE_MAX_VIEWS) sv[nsv++] = v;
    }
    if (k->n_out > CC_TILE_MAX_VIEWS) {
        st = cc_kb_fail(b, BASE_ERR_LIMIT, "more than %d outputs", CC_TILE_MAX_VIEWS);
        goto done;
    }
    for (int j = 0; j < k->n_out; j++) {
        bool is_res = false;
        for (int i = 0; i < n; i++) is_res |= rd->out_of[i] == j;
        if (is_res) { /* over the input's dims: reduced dims repeat (stride 0) */
            struct cc_view *f = &rd->full[j];
            f->addr = k->out[j].view.addr;
            f->dtype = k->out[j].view.dtype;
            f->rank = rank;
            if (k->out[j].view.rank != rank - nrd) {
                st = cc_kb_fail(b, BASE_ERR_INVALID, "a result's view does not have the kept dims");
                goto done;
            }
            for (int d = 0, o = 0; d < rank; d++) {
                f->dims[d] = xt->dims[d];
                f->strides[d] = reduced[d] ? 0 : k->out[j].view.strides[o++];
            }
            if (nsv < CC_TILE_MAX_VIEWS) sv[nsv++] = f;
        } else {
            const struct cc_view *v = &k->out[j].view;
            bool same = v->rank == rank;
            for (int d = 0; d < rank && same; d++) same = v->dims[d] == xt->dims[d];
            if (!same) {
                st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "a prologue output must have the reduced input's shape");
                goto done;
            }
            if (nsv < CC_TILE_MAX_VIEWS) sv[nsv++] = v;
        }
    }
    struct space sp;
    bool iota = false;
    for (int i = 0; i + 1 < k->n_ops; i++) iota |= k->ops[i]->kind == GRAPH_OP_IOTA;
    space_init(&sp, rank, xt->dims, reduced, sv, nsv, iota);
    int dim_of[BASE_MAX_RANK]; /* original dim -> space dim (no merging with iota) */
    for (int c = 0; c < sp.n_groups; c++) dim_of[sp.g_first[sp.order[c]]] = c;
    for (int j = 0; j < k->n_in; j++) {
        ops_in[j] = k->in[j];
        if (in_ok[j] && k->in[j].view.rank == rank) space_view(&sp, &k->in[j].view, &ops_in[j].view);
        else if (in_ok[j]) ops_in[j].view.rank = 0;
    }
    for (int j = 0; j < k->n_out; j++) {
        ops_out[j] = k->out[j];
        bool is_res = false;
        for (int i = 0; i < n; i++) is_res |= rd->out_of[i] == j;
        if (is_res) {
            space_view(&sp, &rd->full[j], &ops_out[j].view);
        } else {
            space_view(&sp, &k->out[j].view, &ops_out[j].view);
        }
    }
    /* the prologue program (when there is one) */
    int n_pro = k->n_ops - 1;
    int n_pout = 0;
    struct cc_operand pouts[CC_TILE_MAX_VIEWS];
    for (int j = 0; j < k->n_out && n_pout < CC_TILE_MAX_VIEWS; j++) {
        bool is_res = false;
        for (int i = 0; i < n; i++) is_res |= rd->out_of[i] == j;
        if (!is_res) pouts[n_pout++] = ops_out[j];
    }
    uint64_t ew_pe = 0, ew_fixed = 0;
    struct cc_ew_spec es;
    memset(&es, 0, sizeof es);
    const struct graph_value *sinks[MAX_RED];
    int n_sink = 0;
    for (int i = 0; i < n; i++)
        if (n_pro > 0) sinks[n_sink++] = op->operands[i];
        else if (rd->x_in[i] < 0) {
            st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "reduce input %d is not a kernel input", i);
            goto done;
        }
    if (n_pro > 0) {
        es.n_ops = n_pro;
        es.ops = k->ops;
        es.rank = sp.n_groups;
        for (int c = 0; c < sp.n_groups; c++) {
            int g = sp.order[c];
            es.dims[c] = 1;
            for (int d = sp.g_first[g]; d <= sp.g_last[g]; d++) es.dims[c] *= xt->dims[d];
        }
        es.n_in = k->n_in;
        es.in = ops_in;
        es.in_ok = in_ok;
        es.n_out = n_pout;
        es.out = pouts;
        es.n_sink = n_sink;
        es.sink = sinks;
        es.dim_of = iota ? dim_of : NULL;
        st = cc_ew_new(&es, b, &ew);
        if (st != BASE_OK) goto done;
        cc_ew_bytes(ew, &ew_pe, &ew_fixed);
    }
    /* the tiling: views of the space (prologue: its views; else the reduce inputs) */
    struct cc_view views[CC_TILE_MAX_VIEWS];
    int nv = 0;
    if (ew) {
        const struct cc_view *ev;
        nv = cc_ew_views(ew, &ev);
        for (int i = 0; i < nv; i++) views[i] = ev[i];
    }
    int xview[MAX_RED], oview[MAX_RED];
    for (int i = 0; i < n; i++) {
        xview[i] = -1;
        if (!ew && nv < CC_TILE_MAX_VIEWS) {
            xview[i] = nv;
            views[nv++] = ops_in[rd->x_in[i]].view;
        }
    }
    for (int i = 0; i < n; i++) {
        oview[i] = -1;
        if (rd->out_of[i] >= 0 && nv < CC_TILE_MAX_VIEWS) {
            oview[i] = nv;
            views[nv++] = ops_out[rd->out_of[i]].view;
        }
    }
    if (nv == 0) {
        st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no views");
        goto done;
    }
    for (int i = 0; i < nv; i++) /* every view of the space has its dims */
        for (int c = 0; c < sp.n_groups; c++) {
            int g = sp.order[c];
            int64_t e = 1;
            for (int d = sp.g_first[g]; d <= sp.g_last[g]; d++) e *= xt->dims[d];
            views[i].dims[c] = e;
        }
    uint64_t red_es2 = 0;
    for (int i = 0; i < n; i++) red_es2 += 2 * base_dtype_size(rd->dt[i]);
    uint64_t fixed = ew_fixed + 64 * (uint64_t)n + 8192;
    uint64_t avail = b->sp_bytes > fixed ? b->sp_bytes - fixed : 0;
    uint64_t per_j = 0; /* a step program's tiles */
    if (rd->seq) {
        per_j = bprog_bytes_per_elem(&rd->bp);
        for (int i = 0; i < n; i++) per_j += 2 * base_dtype_size(rd->dt[i]);
        fixed += 64 * (uint64_t)(rd->bp.n_vals + 2 * n);
        avail = b->sp_bytes > fixed ? b->sp_bytes - fixed : 0;
    }
    reduce_tiles(pl, &sp, views, nv, b->partitions, avail, red_es2, ew_pe, per_j);
    int64_t olo, ohi;
    cc_core_share(pl->n_out_tiles, ctx, &olo, &ohi);
    int64_t lo = olo * pl->chunks, hi = ohi * pl->chunks;
    if (pl->tl.n_tiles == 0) { /* an empty input: every result is its init value */
        st = fill_with_init(b, k, rd, ctx);
        goto done;
    }
    if (lo >= hi) goto done;
    const struct cc_region *r = &pl->tl.r[0];
    int nk = sp.nk;
    uint64_t S = pl->rc + 1;
    uint32_t pmax = r->part_dim >= 0 ? (uint32_t)r->count[r->part_dim] : 1;
    if (ew) {
        st = cc_ew_prepare(ew, &pl->tl, lo, hi);
        if (st != BASE_OK) goto done;
    }
    for (int i = 0; i < n; i++) {
        size_t es_i = base_dtype_size(rd->dt[i]);
        rd->red[i] = cc_kb_buffer(b, (uint64_t)pl->jmax * (pl->rc + 1) * es_i, CC_EW_SLOTS);
        rd->acc[i] = rd->red[i] >= 0 ? cc_kb_alias(b, rd->red[i]) : -1;
        rd->res[i] = cc_kb_buffer(b, (uint64_t)pl->jmax * es_i, CC_EW_SLOTS);
        rd->init[i] = -1;
        if (rd->red[i] < 0 || rd->acc[i] < 0 || rd->res[i] < 0) {
            st = diag->status;
            goto done;
        }
        if (rd->init_in[i] >= 0) { /* the init scalar in every partition, loaded once */
            rd->init[i] = cc_kb_buffer(b, es_i, 1);
            if (rd->init[i] < 0) {
                st = diag->status;
                goto done;
            }
            struct isa_ap src;
            memset(&src, 0, sizeof src);
            src.space = ISA_SPACE_HBM;
            src.dtype = (uint8_t)rd->dt[i];
            src.addr = k->in[rd->init_in[i]].view.addr;
            src.part_count = (uint16_t)pmax;
            struct isa_ap dst = cc_kb_sp(b, rd->init[i], 0, 0, 0, pmax, rd->dt[i], 0);
            struct cc_access a = {rd->init[i], 0, CC_WR};
            st = cc_kb_dma(b, &dst, &src, &a, 1, 1);
            if (st != BASE_OK) goto done;
        }
    }
    int red_eng[MAX_RED], init_eng = pick_engine(t, ISA_U_ACT | ISA_U_POOL | ISA_U_VEC, 0);
    if (t->act >= 0) init_eng = t->act;
    for (int i = 0; i < n; i++) {
        red_eng[i] = pick_engine(t, ISA_U_VEC | ISA_U_POOL, rd->seq ? 0 : i);
        if (red_eng[i] < 0) {
            st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no engine that reduces");
            goto done;
        }
    }
    if (rd->seq) {
        for (int i = 0; i < n; i++)
            for (int q = 0; q < 2; q++) {
                rd->pp[i][q] = cc_kb_buffer(b, (uint64_t)pl->jmax * base_dtype_size(rd->dt[i]), 1);
                if (rd->pp[i][q] < 0) {
                    st = diag->status;
                    goto done;
                }
            }
        st = bprog_alloc(b, &rd->bp, pmax, pl->jmax, red_eng[0], &rd->bb);
        if (st != BASE_OK) goto done;
    }
    /* loads of chunk g into slot s */
#define LOADS(g, s)                                                                                       \
    do {                                                                                                  \
        if (ew) {                                                                                         \
            st = cc_ew_loads(ew, (g), (s));                                                               \
        } else {                                                                                          \
            int rg_;                                                                                      \
            struct cc_box bx_;                                                                            \
            cc_tiling_tile(&pl->tl, (g), &rg_, &bx_);                                                     \
            uint32_t P_ = cc_tiling_parts(&pl->tl, rg_, &bx_);                                            \
            uint64_t J_, R_;                                                                              \
            chunk_jr(r, nk, &bx_, &J_, &R_);                                                              \
            for (int i_ = 0; i_ < n && st == BASE_OK; i_++) {                                             \
                struct isa_ap src_, dst_ = rows_ap(b, rd->red[i_], (s), P_, rd->dt[i_], J_, S, 1, R_);   \
                if (!cc_tiling_ap(&pl->tl, rg_, xview[i_], &bx_, &src_)) {                               \
                    st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a chunk");              \
                    break;                                                                                \
                }                                                                                         \
                struct cc_access a_ = {rd->red[i_], (s), CC_WR};                                          \
                int pc_ = cc_kb_dma_pieces(b, (uint64_t)P_ * J_ * R_ * base_dtype_size(rd->dt[i_]), P_); \
                st = cc_kb_dma(b, &dst_, &src_, &a_, 1, pc_);                                             \
            }                                                                                             \
        }                                                                                                 \
    } while (0)

    LOADS(lo, 0);
    for (int64_t g = lo; g < hi && st == BASE_OK; g++) {
        int slot = (int)((g - lo) % CC_EW_SLOTS), next = (int)((g + 1 - lo) % CC_EW_SLOTS);
        int64_t c = g % pl->chunks, o = g / pl->chunks;
        int oslot = (int)((o - olo) % CC_EW_SLOTS);
        if (g + 1 < hi) LOADS(g + 1, next);
        if (st != BASE_OK) break;
        int rg;
        struct cc_box box;
        cc_tiling_tile(&pl->tl, g, &rg, &box);
        uint32_t P = cc_tiling_parts(&pl->tl, rg, &box);
        uint64_t J, Rc;
        chunk_jr(r, nk, &box, &J, &Rc);
        for (int i = 0; i < n && st == BASE_OK && c == 0; i++) { /* acc = init */
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.dst = rows_ap(b, rd->acc[i], slot, P, rd->dt[i], J, S, 0, 1);
            struct cc_access a[2] = {{rd->acc[i], slot, CC_WR}, {0, 0, 0}};
            int na = 1;
            if (rd->init[i] < 0) {
                in.op = ISA_OP_MEMSET;
                in.imm0 = rd->init_imm[i];
            } else {
                in.op = ISA_OP_COPY;
                in.src0 = cc_kb_sp(b, rd->init[i], 0, 0, 0, P, rd->dt[i], 1);
                in.src0.ndims = 2;
                in.src0.stride[0] = 0;
                in.src0.count[0] = (uint32_t)J;
                in.src0.stride[1] = 0;
                in.src0.count[1] = 1;
                a[na++] = (struct cc_access){rd->init[i], 0, CC_RD};
            }
            st = cc_kb_emit(b, init_eng, &in, a, na);
        }
        if (st != BASE_OK) break;
        if (ew) {
            struct isa_ap sap[MAX_RED];
            struct cc_access sac[MAX_RED];
            for (int i = 0; i < n; i++) {
                sap[i] = rows_ap(b, rd->red[i], slot, P, rd->dt[i], J, S, 1, Rc);
                sac[i] = (struct cc_access){rd->red[i], slot, CC_WR};
            }
            st = cc_ew_compute(ew, g, slot, sap, sac);
            if (st == BASE_OK) st = cc_ew_stores(ew, g, slot);
            if (st != BASE_OK) break;
        }
        bool last = c == pl->chunks - 1;
        /* a step program: element by element from the accumulator column,
         * through the alternating tiles, into the next chunk's accumulator
         * or the result */
        for (uint64_t e = 0; rd->seq && e < Rc && st == BASE_OK; e++) {
            struct isa_ap args[2 * MAX_RED], outs[MAX_RED];
            struct cc_access aa[2 * MAX_RED], oa[MAX_RED];
            for (int i = 0; i < n; i++) {
                if (e == 0) {
                    args[i] = rows_ap(b, rd->acc[i], slot, P, rd->dt[i], J, S, 0, 1);
                    aa[i] = (struct cc_access){rd->acc[i], slot, CC_RD};
                } else {
                    int q = rd->pp[i][(e - 1) % 2];
                    args[i] = cc_kb_sp(b, q, 0, 0, 0, P, rd->dt[i], J);
                    aa[i] = (struct cc_access){q, 0, CC_RD};
                }
                args[n + i] = rows_ap(b, rd->red[i], slot, P, rd->dt[i], J, S, (int)(1 + e), 1);
                aa[n + i] = (struct cc_access){rd->red[i], slot, CC_RD};
                if (e + 1 < Rc) {
                    int q = rd->pp[i][e % 2];
                    outs[i] = cc_kb_sp(b, q, 0, 0, 0, P, rd->dt[i], J);
                    oa[i] = (struct cc_access){q, 0, CC_WR};
                } else if (last) {
                    outs[i] = cc_kb_sp(b, rd->res[i], oslot, 0, 0, P, rd->dt[i], J);
                    oa[i] = (struct cc_access){rd->res[i], oslot, CC_WR};
                } else {
                    outs[i] = rows_ap(b, rd->acc[i], next, P, rd->dt[i], J, S, 0, 1);
                    oa[i] = (struct cc_access){rd->acc[i], next, CC_WR};
                }
            }
            st = bprog_step(b, &rd->bp, &rd->bb, red_eng[0], P, J, args, aa, outs, oa);
        }
        for (int i = 0; i < n && st == BASE_OK; i++) {
            struct isa_instr in;
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_REDUCE;
            in.func = (uint8_t)rd->func[i];
            in.count = 1;
            in.src0 = rows_ap(b, rd->red[i], slot, P, rd->dt[i], J, S, 0, Rc + 1);
            struct cc_access a[3] = {{rd->acc[i], slot, CC_RD}, {rd->red[i], slot, CC_RD}, {0, 0, 0}};
            if (last) {
                in.dst = cc_kb_sp(b, rd->res[i], oslot, 0, 0, P, rd->dt[i], J);
                a[2] = (struct cc_access){rd->res[i], oslot, CC_WR};
            } else {
                in.dst = rows_ap(b, rd->acc[i], next, P, rd->dt[i], J, S, 0, 1);
                a[2] = (struct cc_access){rd->acc[i], next, CC_WR};
            }
            if (!rd->seq) st = cc_kb_emit(b, red_eng[i], &in, a, 3);
            if (st == BASE_OK && last && oview[i] >= 0) {
                struct cc_box ob = box;
                for (int d = nk; d < r->rank; d++) ob.start[d] = 0, ob.count[d] = 1;
                struct isa_ap dst;
                if (!cc_tiling_ap(&pl->tl, rg, oview[i], &ob, &dst)) {
                    st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for an output tile");
                    break;
                }
                struct isa_ap src = cc_kb_sp(b, rd->res[i], oslot, 0, 0, P, rd->dt[i], J);
                struct cc_access ra = {rd->res[i], oslot, CC_RD};
                st = cc_kb_dma(b, &dst, &src, &ra, 1, cc_kb_dma_pieces(b, (uint64_t)P * J * base_dtype_size(rd->dt[i]), P));
            }
        }
    }
#undef LOADS
done:
    cc_ew_free(ew);
    free(in_ok);
    free(ops_out);
    free(ops_in);
    free(pl);
    free(rd);
    cc_kb_free(b);
    return st;
}

/* ----------------------------------------------------------- reduce_window */


static bool list_or(const struct graph_op *op, const char *name, int rank, int64_t dflt, int64_t *out)
{
    const struct graph_attr *a = graph_op_attr(op, name);
    if (!a) {
        for (int d = 0; d < rank; d++) out[d] = dflt;
        return true;
    }
    return graph_attr_as_i64_list(a, out, BASE_MAX_RANK) == rank;
}

/* The padding attribute [rank, 2] as lo/hi. */
static bool padding_of(const struct graph_op *op, int rank, int64_t *lo, int64_t *hi)
{
    int64_t v[2 * BASE_MAX_RANK];
    for (int d = 0; d < rank; d++) lo[d] = hi[d] = 0;
    const struct graph_attr *a = graph_op_attr(op, "padding");
    if (!a) return true;
    if (graph_attr_as_i64_list(a, v, 2 * BASE_MAX_RANK) == 2 * rank) {
        for (int d = 0; d < rank; d++) lo[d] = v[2 * d], hi[d] = v[2 * d + 1];
        return true;
    }
    if (a->kind == GRAPH_ATTR_ELEMENTS && a->u.elements.value && a->u.elements.value->count == 2 * rank) {
        const struct base_tensor *t = a->u.elements.value;
        for (int d = 0; d < rank; d++) {
            lo[d] = base_elem_get_i64(t->dtype, t->data, (size_t)(2 * d));
            hi[d] = base_elem_get_i64(t->dtype, t->data, (size_t)(2 * d + 1));
        }
        return true;
    }
    return false;
}

#define RW_WSLOTS 3


/* The output positions of one tile dim whose window element (shift sh =
 * w * window_dilation - padding_lo) reads an input element: o = a + t * step
 * for t < count, reading input element x0 + t * xstep.  With base dilation
 * bd the dilated input has (X - 1) bd + 1 positions and only multiples of
 * bd hold elements (the holes, like the padding, read the init value). */
struct rw_span {
    int64_t a, step, count, x0, xstep;
};

static struct rw_span rw_span_of(int64_t box_start, int64_t box_count, int64_t sh, int64_t stv, int64_t bd, int64_t X)
{
    struct rw_span s = {box_start, 1, 0, 0, 0};
    int64_t lo = cc_ceil_div(-sh, stv), hi = cc_floor_div((X - 1) * bd - sh, stv);
    if (lo < box_start) lo = box_start;
    if (hi > box_start + box_count - 1) hi = box_start + box_count - 1;
    if (X <= 0 || hi < lo) return s;
    int64_t a = lo;
    for (int64_t m = 0; m < bd && a <= hi && (a * stv + sh) % bd != 0; m++) a++;
    if (a > hi || (a * stv + sh) % bd != 0) return s;
    s.a = a;
    s.step = bd / cc_gcd(stv, bd);
    s.count = (hi - a) / s.step + 1;
    s.x0 = (a * stv + sh) / bd;
    s.xstep = s.step * stv / bd;
    return s;
}

enum base_status cc_emit_reduce_window(const struct cc_target *t, const struct cc_kernel *k,
                                       const struct cc_emit_ctx *ctx, struct isa_program *out,
                                       struct base_diag *diag)
{
    struct cc_kb *b = cc_kb_new(t, k, out, diag);
    struct cc_tiling *tl = calloc(1, sizeof *tl);
    struct bprog *bp = calloc(1, sizeof *bp);
    struct bp_bufs *bb = calloc(1, sizeof *bb);
    enum base_status st = BASE_OK;
    char why[200];
    if (!b || !tl || !bp || !bb) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    const struct graph_op *op = k->n_ops > 0 ? k->ops[k->n_ops - 1] : NULL;
    if (!op || op->kind != GRAPH_OP_REDUCE_WINDOW || k->n_ops != 1 || k->n_out < 1) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "a reduce_window kernel is one stablehlo.reduce_window");
        goto done;
    }
    if (!cc_reduce_op_supported(op, t, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    int n = op->n_operands / 2;
    unsigned func[MAX_RED];
    bool seq = !body_funcs(op, n, func, NULL, 0);
    if (seq && !bprog_compile(op, n, bp, why, sizeof why)) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "%s", why);
        goto done;
    }
    const struct cc_view *x[MAX_RED];
    struct cc_view xs[MAX_RED]; /* rank 0: one dim of 1 */
    int out_of[MAX_RED];
    enum base_dtype dt[MAX_RED];
    size_t es[MAX_RED];
    struct cc_view oviews[MAX_RED];
    int n_ov = 0, ov_of[MAX_RED];
    for (int i = 0; i < n; i++) {
        x[i] = NULL;
        out_of[i] = ov_of[i] = -1;
        for (int j = 0; j < k->n_in; j++)
            if (k->in[j].value == op->operands[i]) x[i] = &k->in[j].view;
        for (int j = 0; j < k->n_out; j++)
            if (k->out[j].value == &op->results[i]) out_of[i] = j;
        if (!x[i]) {
            st = cc_kb_fail(b, BASE_ERR_INVALID, "input %d is not a kernel input", i);
            goto done;
        }
        dt[i] = op->operands[i]->type->elem;
        es[i] = base_dtype_size(dt[i]);
        if (out_of[i] >= 0) {
            ov_of[i] = n_ov;
            oviews[n_ov++] = k->out[out_of[i]].view;
        }
    }
    if (n_ov == 0) goto done; /* nothing read afterwards */
    const struct graph_type *rt = op->results[0].type;
    int rank = rt->rank;
    int64_t win[BASE_MAX_RANK], stv[BASE_MAX_RANK], wd[BASE_MAX_RANK], bdil[BASE_MAX_RANK], plo[BASE_MAX_RANK],
        phi[BASE_MAX_RANK];
    if (graph_attr_as_i64_list(graph_op_attr(op, "window_dimensions"), win, BASE_MAX_RANK) != rank ||
        !list_or(op, "window_strides", rank, 1, stv) || !list_or(op, "window_dilations", rank, 1, wd) ||
        !list_or(op, "base_dilations", rank, 1, bdil) || !padding_of(op, rank, plo, phi)) {
        st = cc_kb_fail(b, BASE_ERR_INVALID, "bad window attributes");
        goto done;
    }
    (void)phi;
    int64_t odims[BASE_MAX_RANK];
    for (int d = 0; d < rank; d++) odims[d] = rt->dims[d];
    if (rank == 0) { /* a scalar: a window of one element over one dim of 1 */
        rank = 1;
        odims[0] = win[0] = stv[0] = wd[0] = bdil[0] = 1;
        plo[0] = phi[0] = 0;
        for (int i = 0; i < n; i++) {
            xs[i] = *x[i];
            xs[i].rank = 1;
            xs[i].dims[0] = 1;
            xs[i].strides[0] = 1;
            x[i] = &xs[i];
        }
        for (int j = 0; j < n_ov; j++) {
            oviews[j].rank = 1;
            oviews[j].dims[0] = 1;
            oviews[j].strides[0] = 1;
        }
    }
    for (int i = 0; i < n; i++)
        if (x[i]->rank != rank) {
            st = cc_kb_fail(b, BASE_ERR_INVALID, "an input's rank is not the result's");
            goto done;
        }
    for (int d = 0; d < rank; d++)
        if (stv[d] < 1 || wd[d] < 1 || bdil[d] < 1) {
            st = cc_kb_fail(b, BASE_ERR_INVALID, "window strides and dilations must be positive");
            goto done;
        }
    /* scratchpad per tile element: per input the init tile, the accumulator
     * (2 slots; twice for a step program) and the window tiles; a step
     * program's values */
    uint64_t per_elem = seq ? bprog_bytes_per_elem(bp) : 0;
    for (int i = 0; i < n; i++) per_elem += es[i] * (uint64_t)(1 + CC_EW_SLOTS * (seq ? 2 : 1) + RW_WSLOTS);
    uint64_t fixed = 8192 + 64 * (uint64_t)(4 * n + bp->n_vals);
    uint64_t avail = b->sp_bytes > fixed ? b->sp_bytes - fixed : 0;
    int64_t max_free = (int64_t)(avail / per_elem);
    st = cc_tiling_plan_dims(tl, rank, odims, oviews, n_ov, b->partitions, max_free > 0 ? max_free : 1);
    if (st != BASE_OK) {
        cc_kb_fail(b, st, "cannot tile the output");
        goto done;
    }
    int64_t lo, hi;
    cc_core_share(tl->n_tiles, ctx, &lo, &hi);
    if (lo >= hi) goto done;
    const struct cc_region *r = &tl->r[0];
    uint32_t pmax = r->part_dim >= 0 ? (uint32_t)r->count[r->part_dim] : 1;
    uint64_t fmax = 1;
    for (int d = 0; d < r->rank; d++)
        if (d != r->part_dim) fmax *= (uint64_t)r->count[d];
    int red_eng = pick_engine(t, ISA_U_VEC | ISA_U_POOL, 0);
    int set_eng = t->act >= 0 ? t->act : pick_engine(t, ISA_U_ELEM, 1);
    if (red_eng < 0 || set_eng < 0) {
        st = cc_kb_fail(b, BASE_ERR_UNSUPPORTED, "the chip has no engine that reduces");
        goto done;
    }
    int init[MAX_RED], acc[2][MAX_RED], wb[MAX_RED];
    for (int i = 0; i < n; i++) {
        init[i] = cc_move_fill_tile(b, k, op->operands[n + i], dt[i], pmax, fmax);
        acc[0][i] = init[i] >= 0 ? cc_kb_buffer(b, fmax * es[i], CC_EW_SLOTS) : -1;
        acc[1][i] = acc[0][i] >= 0 && seq ? cc_kb_buffer(b, fmax * es[i], CC_EW_SLOTS) : acc[0][i];
        wb[i] = acc[1][i] >= 0 ? cc_kb_buffer(b, fmax * es[i], RW_WSLOTS) : -1;
        if (wb[i] < 0) {
            st = diag->status;
            goto done;
        }
    }
    if (seq) {
        st = bprog_alloc(b, bp, pmax, fmax, red_eng, bb);
        if (st != BASE_OK) goto done;
    }
    int64_t nw = 1;
    for (int d = 0; d < rank; d++) nw *= win[d];
    int64_t u = 0; /* window tiles used so far (slot rotation) */
    for (int64_t g = lo; g < hi && st == BASE_OK; g++) {
        int slot = (int)((g - lo) % CC_EW_SLOTS), region;
        struct cc_box box;
        cc_tiling_tile(tl, g, &region, &box);
        uint32_t P = cc_tiling_parts(tl, region, &box);
        uint64_t F = cc_tiling_free(tl, region, &box);
        /* the tile's dense layout: per dim, the element stride in a partition */
        int64_t tstride[BASE_MAX_RANK] = {0}, s = 1;
        for (int d = rank - 1; d >= 0; d--) {
            if (d == r->part_dim) continue;
            tstride[d] = s;
            s *= box.count[d];
        }
        struct isa_instr in;
        for (int i = 0; i < n && st == BASE_OK; i++) { /* acc = init */
            memset(&in, 0, sizeof in);
            in.op = ISA_OP_COPY;
            in.dst = cc_kb_sp(b, acc[0][i], slot, 0, 0, P, dt[i], F);
            in.src0 = cc_kb_sp(b, init[i], 0, 0, 0, P, dt[i], F);
            struct cc_access a2[2] = {{acc[0][i], slot, CC_WR}, {init[i], 0, CC_RD}};
            st = cc_kb_emit(b, set_eng, &in, a2, 2);
        }
        int par = 0; /* the accumulator set holding the running values */
        int64_t widx[BASE_MAX_RANK] = {0};
        for (int64_t w = 0; w < nw && st == BASE_OK; w++) {
            if (w > 0)
                for (int d = rank - 1; d >= 0; d--) {
                    if (++widx[d] < win[d]) break;
                    widx[d] = 0;
                }
            /* output positions of the tile whose window element w is an input element */
            struct rw_span sp[BASE_MAX_RANK];
            memset(sp, 0, sizeof sp);
            bool any = true, full = true;
            for (int d = 0; d < rank; d++) {
                sp[d] = rw_span_of(box.start[d], box.count[d], widx[d] * wd[d] - plo[d], stv[d], bdil[d], x[0]->dims[d]);
                if (sp[d].count == 0) any = false;
                if (sp[d].count != box.count[d]) full = false;
            }
            struct isa_ap args[2 * MAX_RED], outs[MAX_RED];
            struct cc_access aa[2 * MAX_RED], oa[MAX_RED];
            int ws = any ? (int)(u++ % RW_WSLOTS) : 0;
            for (int i = 0; i < n && st == BASE_OK; i++) {
                args[i] = cc_kb_sp(b, acc[par][i], slot, 0, 0, P, dt[i], F);
                aa[i] = (struct cc_access){acc[par][i], slot, CC_RD};
                outs[i] = cc_kb_sp(b, acc[par ^ (seq ? 1 : 0)][i], slot, 0, 0, P, dt[i], F);
                oa[i] = (struct cc_access){acc[par ^ (seq ? 1 : 0)][i], slot, CC_WR};
                if (!any) { /* all padding: the element is the init value */
                    args[n + i] = cc_kb_sp(b, init[i], 0, 0, 0, P, dt[i], F);
                    aa[n + i] = (struct cc_access){init[i], 0, CC_RD};
                    continue;
                }
                args[n + i] = cc_kb_sp(b, wb[i], ws, 0, 0, P, dt[i], F);
                aa[n + i] = (struct cc_access){wb[i], ws, CC_RD};
                if (!full) { /* padding and holes read the init value */
                    memset(&in, 0, sizeof in);
                    in.op = ISA_OP_COPY;
                    in.dst = cc_kb_sp(b, wb[i], ws, 0, 0, P, dt[i], F);
                    in.src0 = cc_kb_sp(b, init[i], 0, 0, 0, P, dt[i], F);
                    struct cc_access fa[2] = {{wb[i], ws, CC_WR}, {init[i], 0, CC_RD}};
                    st = cc_kb_emit(b, set_eng, &in, fa, 2);
                    if (st != BASE_OK) break;
                }
                /* the input elements: a strided view of x placed at the spans
                 * of the tile; a strided span on partitions goes row by row */
                int pd = r->part_dim;
                bool rows = pd >= 0 && sp[pd].step > 1 && sp[pd].count > 1;
                int64_t n_rows = rows ? sp[pd].count : 1;
                for (int64_t q = 0; q < n_rows && st == BASE_OK; q++) {
                    struct cc_view xv = *x[i];
                    struct cc_box xb;
                    memset(&xb, 0, sizeof xb);
                    int64_t off = 0;
                    for (int d = 0; d < rank; d++) {
                        off += sp[d].x0 * x[i]->strides[d];
                        xv.strides[d] = x[i]->strides[d] * sp[d].xstep;
                        xb.count[d] = sp[d].count;
                    }
                    if (rows) {
                        off += q * sp[pd].xstep * x[i]->strides[pd];
                        xb.count[pd] = 1;
                    }
                    xv.addr = (uint64_t)((int64_t)x[i]->addr + off * (int64_t)es[i]);
                    struct isa_ap src, dst;
                    if (!cc_view_box_ap(&xv, &xb, rows ? -1 : pd, r->free_dims, r->n_free, &src)) {
                        st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for a window");
                        break;
                    }
                    uint64_t doff = 0;
                    for (int d = 0; d < rank; d++)
                        if (d != pd) doff += (uint64_t)((sp[d].a - box.start[d]) * tstride[d]);
                    uint32_t p0 = pd >= 0 ? (uint32_t)(sp[pd].a - box.start[pd] + q * sp[pd].step) : 0;
                    uint32_t np = pd >= 0 && !rows ? (uint32_t)sp[pd].count : 1;
                    dst = cc_kb_sp(b, wb[i], ws, doff * es[i], p0, np, dt[i], 0);
                    for (int f = 0; f < r->n_free; f++) {
                        int d = r->free_dims[f];
                        if (sp[d].count == 1) continue;
                        dst.stride[dst.ndims] = tstride[d] * sp[d].step;
                        dst.count[dst.ndims++] = (uint32_t)sp[d].count;
                    }
                    if (rows) src.part_count = 1;
                    struct cc_access da = {wb[i], ws, full ? CC_WR : CC_RW};
                    st = cc_kb_dma(b, &dst, &src, &da, 1,
                                   cc_kb_dma_pieces(b, (uint64_t)np * isa_ap_free_elems(&dst) * es[i], np));
                }
            }
            if (st != BASE_OK) break;
            if (seq) {
                st = bprog_step(b, bp, bb, red_eng, P, F, args, aa, outs, oa);
                par ^= 1;
                continue;
            }
            for (int i = 0; i < n && st == BASE_OK; i++) { /* acc = acc (op) element */
                memset(&in, 0, sizeof in);
                in.op = ISA_OP_BINARY;
                in.func = (uint8_t)func[i];
                in.dst = outs[i];
                in.src0 = args[i];
                in.src1 = args[n + i];
                struct cc_access ra[2] = {{acc[par][i], slot, CC_RW}, aa[n + i]};
                st = cc_kb_emit(b, red_eng, &in, ra, 2);
            }
        }
        for (int i = 0; i < n && st == BASE_OK; i++) {
            if (ov_of[i] < 0) continue;
            struct isa_ap dst, src = cc_kb_sp(b, acc[par][i], slot, 0, 0, P, dt[i], F);
            if (!cc_tiling_ap(tl, region, ov_of[i], &box, &dst)) {
                st = cc_kb_fail(b, BASE_ERR_INTERNAL, "no access pattern for an output tile");
                break;
            }
            struct cc_access sa = {acc[par][i], slot, CC_RD};
            st = cc_kb_dma(b, &dst, &src, &sa, 1, cc_kb_dma_pieces(b, (uint64_t)P * F * es[i], P));
        }
    }
done:
    free(bb);
    free(bp);
    free(tl);
    cc_kb_free(b);
    return st;
}
