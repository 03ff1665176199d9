/* Control flow and structural ops: constants, calls, while/if/case, tuples,
 * tokens, composite, optimization_barrier, custom_call dispatch and
 * interpreter.run_parallel. */
#include "interp/interp_internal.h"
#include "interp/interp_shape_internal.h"

#include <stdlib.h>
#include <string.h>

static enum base_status k_constant(struct interp_proc *p, const struct graph_op *op,
                                   struct interp_value *const *in, struct interp_value **out)
{
    (void)in;
    const struct graph_attr *v = graph_op_attr(op, "value");
    if (!v || v->kind != GRAPH_ATTR_ELEMENTS || !v->u.elements.value)
        return interp_fail(p, op, BASE_ERR_INVALID, "constant without a dense value");
    return interp_set_out(p, op, out, 0, base_tensor_retain(v->u.elements.value));
}

/* Calls a region and checks it produced exactly n results into out. */
static enum base_status call_region_n(struct interp_proc *p, const struct graph_op *op, const struct graph_region *r,
                                      int n_args, struct interp_value *const *args, struct interp_value **out, int n)
{
    int got = 0;
    TRY(interp_call_region(p, r, n_args, args, out, n, &got));
    if (got != n) {
        for (int i = 0; i < got; i++) {
            interp_value_release(out[i]);
            out[i] = NULL;
        }
        return interp_fail(p, op, BASE_ERR_INVALID, "region returned %d values, %d expected", got, n);
    }
    return BASE_OK;
}

/* The function a SYMBOL attribute names, or NULL; name[] gets the name (for
 * messages).  A name that does not fit name[] is not looked up. */
static const struct graph_op *symbol_func(const struct interp_proc *p, const struct graph_attr *sym, char *name,
                                          size_t cap)
{
    snprintf(name, cap, "%.*s", (int)sym->u.str.len, sym->u.str.s);
    return sym->u.str.len < cap ? graph_module_find_func(p->module, name) : NULL;
}

/* Calls the function named by the op's SYMBOL attribute `attr` with the op's
 * operands; its results become the op's. */
static enum base_status call_symbol(struct interp_proc *p, const struct graph_op *op, const char *attr,
                                    struct interp_value *const *in, struct interp_value **out)
{
    const struct graph_attr *sym = graph_op_attr(op, attr);
    if (!sym || sym->kind != GRAPH_ATTR_SYMBOL) return interp_fail(p, op, BASE_ERR_INVALID, "missing %s", attr);
    char name[256];
    const struct graph_op *f = symbol_func(p, sym, name, sizeof name);
    if (!f) return interp_fail(p, op, BASE_ERR_INVALID, "no function @%s", name);
    int got = 0;
    TRY(interp_call_func(p, f, op->n_operands, in, out, op->n_results, &got));
    if (got != op->n_results) {
        for (int i = 0; i < got; i++) interp_value_release(out[i]);
        return interp_fail(p, op, BASE_ERR_INVALID, "@%s returned %d values, %d expected", name, got, op->n_results);
    }
    return BASE_OK;
}

static enum base_status k_call(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                               struct interp_value **out)
{
    return call_symbol(p, op, "callee", in, out);
}

/* A composite runs its decomposition (the spec's semantics). */
static enum base_status k_composite(struct interp_proc *p, const struct graph_op *op,
                                    struct interp_value *const *in, struct interp_value **out)
{
    return call_symbol(p, op, "decomposition", in, out);
}

static bool scalar_pred(const struct interp_value *v, bool *out)
{
    const struct base_tensor *t = iv_t(v);
    if (!t || t->count != 1 || t->dtype != BASE_DT_I1) return false;
    *out = ((const uint8_t *)t->data)[0] != 0;
    return true;
}

static enum base_status k_while(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    if (op->n_regions != 2) return interp_fail(p, op, BASE_ERR_INVALID, "while needs cond and body regions");
    int n = op->n_operands;
    struct interp_value **cur = calloc((size_t)(n ? n : 1), sizeof *cur);
    struct interp_value **next = calloc((size_t)(n ? n : 1), sizeof *next);
    if (!cur || !next) {
        free(cur);
        free(next);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) cur[i] = interp_value_retain(in[i]);
    enum base_status st = BASE_OK;
    uint64_t trips = 0, max_trips = base_limit(p->opt ? p->opt->limits : NULL, BASE_LIMIT_LOOP_TRIPS);
    for (;;) {
        struct interp_value *c = NULL;
        st = call_region_n(p, op, &op->regions[0], n, cur, &c, 1);
        if (st != BASE_OK) break;
        bool go = false;
        bool ok = scalar_pred(c, &go);
        interp_value_release(c);
        if (!ok) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "while condition must return tensor<i1>");
            break;
        }
        if (!go) break;
        if (++trips > max_trips) {
            st = interp_fail(p, op, BASE_ERR_LIMIT,
                             "while: more than %llu trips (the loop-trips limit: an endless loop? raise it with "
                             "--limit loop-trips=N)",
                             (unsigned long long)max_trips);
            break;
        }
        st = call_region_n(p, op, &op->regions[1], n, cur, next, n);
        if (st != BASE_OK) break;
        for (int i = 0; i < n; i++) {
            interp_value_release(cur[i]);
            cur[i] = next[i];
            next[i] = NULL;
        }
    }
    if (st == BASE_OK) {
        for (int i = 0; i < n; i++) out[i] = cur[i];
    } else {
        for (int i = 0; i < n; i++) interp_value_release(cur[i]);
    }
    free(cur);
    free(next);
    return st;
}

static enum base_status k_if(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                             struct interp_value **out)
{
    bool pred = false;
    if (!scalar_pred(in[0], &pred)) return interp_fail(p, op, BASE_ERR_INVALID, "predicate must be tensor<i1>");
    if (op->n_regions != 2) return interp_fail(p, op, BASE_ERR_INVALID, "if needs two regions");
    return call_region_n(p, op, &op->regions[pred ? 0 : 1], 0, NULL, out, op->n_results);
}

static enum base_status k_case(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                               struct interp_value **out)
{
    const struct base_tensor *t = iv_t(in[0]);
    if (!t || t->count != 1 || !base_dtype_is_int(t->dtype))
        return interp_fail(p, op, BASE_ERR_INVALID, "index must be a scalar integer tensor");
    if (op->n_regions < 1) return interp_fail(p, op, BASE_ERR_INVALID, "case needs at least one branch");
    int64_t idx = base_elem_get_i64(t->dtype, t->data, 0);
    /* out-of-range indices select the last branch (spec) */
    if (idx < 0 || idx >= op->n_regions) idx = op->n_regions - 1;
    return call_region_n(p, op, &op->regions[idx], 0, NULL, out, op->n_results);
}

static enum base_status k_passthrough(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_operands != op->n_results)
        return interp_fail(p, op, BASE_ERR_INVALID, "%d operands but %d results", op->n_operands, op->n_results);
    for (int i = 0; i < op->n_results; i++) out[i] = interp_value_retain(in[i]);
    return BASE_OK;
}

static enum base_status k_tuple(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    struct interp_value **elems = calloc((size_t)(op->n_operands ? op->n_operands : 1), sizeof *elems);
    if (!elems) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; i < op->n_operands; i++) elems[i] = interp_value_retain(in[i]);
    out[0] = interp_value_tuple(op->n_operands, elems);
    free(elems);
    return out[0] ? BASE_OK : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
}

static enum base_status k_get_tuple_element(struct interp_proc *p, const struct graph_op *op,
                                            struct interp_value *const *in, struct interp_value **out)
{
    int64_t idx = -1;
    if (in[0]->kind != IV_TUPLE) return interp_fail(p, op, BASE_ERR_INVALID, "operand is not a tuple");
    if (!graph_attr_as_i64(graph_op_attr(op, "index"), &idx) || idx < 0 || idx >= in[0]->n)
        return interp_fail(p, op, BASE_ERR_INVALID, "index out of range");
    out[0] = interp_value_retain(in[0]->elems[idx]);
    return BASE_OK;
}

/* async_start runs its region at once (the interpreter has no concurrency to
 * model); the future holds the region's value as a one-element tuple, which
 * async_done unwraps. */
static enum base_status k_async_start(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_regions != 1) return interp_fail(p, op, BASE_ERR_INVALID, "async_start needs one region");
    struct interp_value *v = NULL;
    TRY(call_region_n(p, op, &op->regions[0], op->n_operands, in, &v, 1));
    out[0] = interp_value_tuple(1, &v); /* takes over v's reference */
    return out[0] ? BASE_OK : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
}

static enum base_status k_async_done(struct interp_proc *p, const struct graph_op *op,
                                     struct interp_value *const *in, struct interp_value **out)
{
    if (in[0]->kind != IV_TUPLE || in[0]->n != 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "operand is not the future of an async_start");
    out[0] = interp_value_retain(in[0]->elems[0]);
    return BASE_OK;
}

static enum base_status k_token(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                                struct interp_value **out)
{
    (void)in;
    out[0] = interp_value_token();
    return out[0] ? BASE_OK : interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
}

/* JAX's shape assertions (custom_call @shape_assertion(pred, values...)
 * {error_message = "... {0} ..."}): a false predicate stops the run with the
 * message, {i} replaced by value i. */
static enum base_status shape_assertion(struct interp_proc *p, const struct graph_op *op,
                                        struct interp_value *const *in)
{
    const struct base_tensor *pred = op->n_operands ? iv_t(in[0]) : NULL;
    if (!pred || pred->count != 1) return interp_fail(p, op, BASE_ERR_INVALID, "@shape_assertion needs a scalar predicate");
    if (base_elem_get_i64(pred->dtype, pred->data, 0)) return BASE_OK;
    const struct graph_attr *m = graph_op_attr(op, "error_message");
    const char *s = m && m->kind == GRAPH_ATTR_STRING ? m->u.str.s : "shape assertion failed";
    size_t len = m && m->kind == GRAPH_ATTR_STRING ? m->u.str.len : strlen(s), o = 0;
    char msg[300];
    for (size_t i = 0; i < len && o + 1 < sizeof msg; i++) {
        size_t j = i + 1;
        int k = 0;
        while (s[i] == '{' && j < len && s[j] >= '0' && s[j] <= '9') k = k * 10 + (s[j++] - '0');
        const struct base_tensor *v = j > i + 1 && j < len && s[j] == '}' && 1 + k < op->n_operands ? iv_t(in[1 + k]) : NULL;
        if (v && v->count == 1) {
            int w = snprintf(msg + o, sizeof msg - o, "%lld", (long long)base_elem_get_i64(v->dtype, v->data, 0));
            o = w > 0 && o + (size_t)w < sizeof msg ? o + (size_t)w : sizeof msg - 1;
            i = j;
            continue;
        }
        msg[o++] = s[i];
    }
    msg[o] = 0;
    return interp_fail(p, op, BASE_ERR_CHECK, "@shape_assertion failed: %s", msg);
}

static enum base_status k_custom_call(struct interp_proc *p, const struct graph_op *op,
                                      struct interp_value *const *in, struct interp_value **out)
{
    const struct graph_attr *t = graph_op_attr(op, "call_target_name");
    if (!t || t->kind != GRAPH_ATTR_STRING) return interp_fail(p, op, BASE_ERR_INVALID, "custom_call without a target");
    if (t->u.str.len > 6 && !memcmp(t->u.str.s, "check.", 6))
        return interp_check_custom_call(p, op, t->u.str.s + 6, t->u.str.len - 6, in, out);
    /* annotations that are the identity on values (sharding, memory spaces,
     * layouts) when each result has its operand's type */
    static const char *const identity[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "MoveToHost",
                                           "MoveToDevice", "LayoutConstraint", "annotate_device_placement"};
    for (size_t i = 0; i < sizeof identity / sizeof identity[0]; i++) {
        if (t->u.str.len != strlen(identity[i]) || memcmp(t->u.str.s, identity[i], t->u.str.len)) continue;
        if (op->n_results != op->n_operands)
            return interp_fail(p, op, BASE_ERR_INVALID, "custom_call @%s returns its operands", identity[i]);
        for (int j = 0; j < op->n_results; j++)
            if (!graph_type_equal(op->operands[j]->type, op->results[j].type))
                return interp_fail(p, op, BASE_ERR_UNSUPPORTED,
                                   "custom_call @%s changes the shape: run the program partitioned (npusim partition)",
                                   identity[i]);
        for (int j = 0; j < op->n_results; j++) out[j] = interp_value_retain(in[j]);
        return BASE_OK;
    }
    if (!strcmp(t->u.str.s, "shape_assertion") && op->n_results == 0) return shape_assertion(p, op, in);
    if (!strcmp(t->u.str.s, "stablehlo.shape_refinement_operand_wrapper") && op->n_operands >= 1 && op->n_results == 1) {
        out[0] = interp_value_retain(in[0]); /* the operand, its shape asserted by the type */
        return BASE_OK;
    }
    int64_t k;
    bool largest;
    if (interp_topk_call(op, &k, &largest)) return interp_custom_call_top_k(p, op, in, out);
    return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "custom_call @%.*s is not supported", (int)t->u.str.len,
                       t->u.str.s);
}

/* interpreter.run_parallel: programs = [[@f00, @f01, ...], [@f10, ...]] is a
 * replicas x partitions grid; operands are handed out in row-major process
 * order, each process taking as many as its function has parameters. */
static enum base_status k_run_parallel(struct interp_proc *p, const struct graph_op *op,
                                       struct interp_value *const *in, struct interp_value **out)
{
    const struct graph_attr *progs = graph_op_attr(op, "programs");
    if (!progs || progs->kind != GRAPH_ATTR_ARRAY || progs->u.array.n < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "programs attribute missing");
    int nr = progs->u.array.n;
    const struct graph_attr *row0 = progs->u.array.items[0];
    if (row0->kind != GRAPH_ATTR_ARRAY || row0->u.array.n < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "programs must be a list of lists of symbols");
    int np = row0->u.array.n;
    int n = nr * np;
    const struct graph_attr *inf = graph_op_attr(op, "infeed");
    if (inf && inf->kind != GRAPH_ATTR_ARRAY)
        return interp_fail(p, op, BASE_ERR_INVALID, "infeed must be a list of symbols");
    int n_infeed = inf ? inf->u.array.n : 0;
    const struct graph_op **funcs = calloc((size_t)n, sizeof *funcs);
    int *n_args = calloc((size_t)n, sizeof *n_args);
    int *cap = calloc((size_t)n, sizeof *cap);
    const struct graph_op **infeed = calloc((size_t)(n_infeed ? n_infeed : 1), sizeof *infeed);
    enum base_status st = BASE_OK;
    if (!funcs || !n_args || !cap || !infeed) {
        st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < n_infeed && st == BASE_OK; i++) {
        const struct graph_attr *sym = inf->u.array.items[i];
        char name[256];
        if (sym->kind != GRAPH_ATTR_SYMBOL) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "infeed entries must be symbols");
            break;
        }
        infeed[i] = symbol_func(p, sym, name, sizeof name);
        if (!infeed[i] || infeed[i]->n_regions < 1 || infeed[i]->regions[0].n_blocks < 1)
            st = interp_fail(p, op, BASE_ERR_INVALID, "no function @%s (infeed)", name);
    }
    int total_args = 0, total_res = 0;
    for (int r = 0; r < nr && st == BASE_OK; r++) {
        const struct graph_attr *row = progs->u.array.items[r];
        if (row->kind != GRAPH_ATTR_ARRAY || row->u.array.n != np) {
            st = interp_fail(p, op, BASE_ERR_INVALID, "programs rows must all have %d entries", np);
            break;
        }
        for (int c = 0; c < np; c++) {
            const struct graph_attr *s = row->u.array.items[c];
            char name[256];
            if (s->kind != GRAPH_ATTR_SYMBOL) {
                st = interp_fail(p, op, BASE_ERR_INVALID, "programs entries must be symbols");
                break;
            }
            const struct graph_op *f = symbol_func(p, s, name, sizeof name);
            if (!f || f->n_regions < 1 || f->regions[0].n_blocks < 1) {
                st = interp_fail(p, op, BASE_ERR_INVALID, "no function @%s", name);
                break;
            }
            int i = r * np + c;
            funcs[i] = f;
            n_args[i] = f->regions[0].blocks[0].n_args;
            cap[i] = graph_func_n_results(f);
            total_args += n_args[i];
            total_res += cap[i];
        }
    }
    if (st == BASE_OK && total_args != op->n_operands)
        st = interp_fail(p, op, BASE_ERR_INVALID, "programs take %d operands in all, %d given", total_args,
                         op->n_operands);
    if (st == BASE_OK && total_res != op->n_results)
        st = interp_fail(p, op, BASE_ERR_INVALID, "programs return %d values in all, op has %d results", total_res,
                         op->n_results);
    if (st == BASE_OK) st = interp_ctx_parallel(p, op, funcs, nr, np, in, n_args, out, cap, infeed, n_infeed);
done:
    free(infeed);
    free(funcs);
    free(n_args);
    free(cap);
    return st;
}

void interp_register_control(interp_kernel_fn *table)
{
    table[GRAPH_OP_CONSTANT] = k_constant;
    table[GRAPH_OP_ARITH_CONSTANT] = k_constant;
    table[GRAPH_OP_CHLO_CONSTANT] = k_constant;
    table[GRAPH_OP_TENSOR_CAST] = k_passthrough;
    table[GRAPH_OP_ASYNC_START] = k_async_start;
    table[GRAPH_OP_ASYNC_DONE] = k_async_done;
    table[GRAPH_OP_CALL] = k_call;
    table[GRAPH_OP_COMPOSITE] = k_composite;
    table[GRAPH_OP_WHILE] = k_while;
    table[GRAPH_OP_IF] = k_if;
    table[GRAPH_OP_CASE] = k_case;
    table[GRAPH_OP_OPTIMIZATION_BARRIER] = k_passthrough;
    for (int k = 0; k < GRAPH_OP_COUNT; k++) /* annotations: sdy.sharding_constraint, mhlo.copy, ... */
        if (graph_op_kind_has((enum graph_op_kind)k, GRAPH_OPF_IDENTITY)) table[k] = k_passthrough;
    table[GRAPH_OP_TUPLE] = k_tuple;
    table[GRAPH_OP_GET_TUPLE_ELEMENT] = k_get_tuple_element;
    table[GRAPH_OP_AFTER_ALL] = k_token;
    table[GRAPH_OP_CREATE_TOKEN] = k_token;
    table[GRAPH_OP_CUSTOM_CALL] = k_custom_call;
    table[GRAPH_OP_INTERP_RUN_PARALLEL] = k_run_parallel;
}
