/* Helpers for the kernel tests (test_k_*.c): a StableHLO @main becomes one
 * kernel by hand (its ops the group, its arguments inputs and its results
 * outputs, all dense buffers at chosen HBM addresses); the kernel is emitted
 * for every core of a chip, run on the simulator with checks on, and its
 * outputs compared with the golden interpreter's. */
#ifndef NPUSIM_TESTS_COMPILER_K_TEST_UTIL_H
#define NPUSIM_TESTS_COMPILER_K_TEST_UTIL_H

#include "tests/prog.h"

#include "compiler/cc_internal.h"
#include "sim/sim.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#define KT_MAX 64
#define KT_BASE 0x100000u

struct kt {
    struct graph_module *m;
    const struct graph_op *ops[256];
    int n_ops;
    struct cc_operand in[KT_MAX];
    int n_in;
    struct cc_operand out[KT_MAX];
    int n_out;
    struct cc_kernel k;
    /* HBM contents: the arguments (args[]) and constants, at base addresses */
    int n_args;
    struct base_tensor *args[KT_MAX];
    uint64_t arg_addr[KT_MAX];
    int n_consts;
    struct base_tensor *consts[KT_MAX];
    uint64_t const_addr[KT_MAX];
    uint64_t hbm_top;
};

static inline uint64_t kt_alloc(struct kt *t, uint64_t bytes)
{
    uint64_t a = t->hbm_top;
    t->hbm_top += (bytes + 4095) & ~(uint64_t)4095;
    if (bytes == 0) t->hbm_top += 4096;
    return a;
}

static inline void kt_dense(struct kt *t, struct cc_operand *o, const struct graph_value *v)
{
    const struct graph_type *ty = v->type;
    o->value = v;
    o->buffer = 0;
    uint64_t n = 1;
    for (int d = 0; d < ty->rank; d++) n *= (uint64_t)ty->dims[d];
    cc_view_dense(&o->view, kt_alloc(t, n * base_dtype_size(ty->elem)), ty->elem, ty->rank, ty->dims);
}

static inline const struct cc_operand *kt_find_in(const struct kt *t, const struct graph_value *v)
{
    for (int i = 0; i < t->n_in; i++)
        if (t->in[i].value == v) return &t->in[i];
    return NULL;
}

/* A view op over an input: its result becomes an input seen through the view. */
static inline bool kt_fold_view(struct kt *t, const struct graph_op *op)
{
    if (op->n_operands < 1) return false;
    const struct cc_operand *src = kt_find_in(t, op->operands[0]);
    if (!src) return false;
    const struct graph_type *rt = op->results[0].type;
    struct cc_view v;
    int64_t a[BASE_MAX_RANK], b2[BASE_MAX_RANK], c[BASE_MAX_RANK];
    switch (op->kind) {
    case GRAPH_OP_BROADCAST_IN_DIM: {
        int n = graph_attr_as_i64_list(graph_op_attr(op, "broadcast_dimensions"), a, BASE_MAX_RANK);
        assert_int_equal(n, src->view.rank);
        cc_view_broadcast(&src->view, rt->rank, rt->dims, a, &v);
        break;
    }
    case GRAPH_OP_TRANSPOSE:
        graph_attr_as_i64_list(graph_op_attr(op, "permutation"), a, BASE_MAX_RANK);
        cc_view_transpose(&src->view, a, &v);
        break;
    case GRAPH_OP_RESHAPE:
        if (!cc_view_reshape(&src->view, rt->rank, rt->dims, &v)) return false;
        break;
    case GRAPH_OP_SLICE:
        graph_attr_as_i64_list(graph_op_attr(op, "start_indices"), a, BASE_MAX_RANK);
        graph_attr_as_i64_list(graph_op_attr(op, "limit_indices"), b2, BASE_MAX_RANK);
        if (graph_attr_as_i64_list(graph_op_attr(op, "strides"), c, BASE_MAX_RANK) < 0)
            for (int d = 0; d < src->view.rank; d++) c[d] = 1;
        cc_view_slice(&src->view, a, b2, c, &v);
        break;
    case GRAPH_OP_REVERSE: {
        int n = graph_attr_as_i64_list(graph_op_attr(op, "dimensions"), a, BASE_MAX_RANK);
        cc_view_reverse(&src->view, a, n, &v);
        break;
    }
    case GRAPH_OP_BITCAST_CONVERT: /* the same bytes of a dense input */
        if (!cc_view_is_dense(&src->view)) return false;
        cc_view_dense(&v, src->view.addr, rt->elem, rt->rank, rt->dims);
        break;
    default: return false;
    }
    struct cc_operand *o = &t->in[t->n_in++];
    o->value = &op->results[0];
    o->buffer = 0;
    o->view = v;
    return true;
}

/* Parses src; the kernel: every op of @main but the return, constants (which
 * become inputs in HBM) and view ops over inputs (which become their views). */
static inline void kt_parse(struct kt *t, const char *src, enum cc_kernel_kind kind)
{
    memset(t, 0, sizeof *t);
    t->hbm_top = KT_BASE;
    t->m = prog_parse(src);
    const struct graph_op *f = graph_module_entry(t->m);
    assert_non_null(f);
    const struct graph_block *b = &f->regions[0].blocks[0];
    for (int i = 0; i < b->n_args; i++) {
        kt_dense(t, &t->in[t->n_in], &b->args[i]);
        t->arg_addr[t->n_args++] = t->in[t->n_in++].view.addr;
    }
    const struct graph_op *ret = graph_block_terminator(b);
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op == ret) continue;
        if (op->kind == GRAPH_OP_CONSTANT) {
            const struct graph_attr *a = graph_op_attr(op, "value");
            assert_true(a && a->kind == GRAPH_ATTR_ELEMENTS);
            kt_dense(t, &t->in[t->n_in], &op->results[0]);
            t->const_addr[t->n_consts] = t->in[t->n_in++].view.addr;
            t->consts[t->n_consts++] = base_tensor_retain(a->u.elements.value);
            continue;
        }
        if (kt_fold_view(t, op)) continue;
        t->ops[t->n_ops++] = op;
    }
    for (int i = 0; i < ret->n_operands; i++) kt_dense(t, &t->out[t->n_out++], ret->operands[i]);
    t->k.kind = kind;
    snprintf(t->k.info.name, sizeof t->k.info.name, "%s", cc_kernel_kind_name(kind));
    t->k.info.root = t->n_ops ? t->ops[t->n_ops - 1] : NULL;
    t->k.info.n_ops = t->n_ops;
    t->k.n_ops = t->n_ops;
    t->k.ops = t->ops;
    t->k.n_in = t->n_in;
    t->k.in = t->in;
    t->k.n_out = t->n_out;
    t->k.out = t->out;
}

static inline void kt_free(struct kt *t)
{
    for (int i = 0; i < t->n_args; i++) base_tensor_release(t->args[i]);
    for (int i = 0; i < t->n_consts; i++) base_tensor_release(t->consts[i]);
    graph_module_destroy(t->m);
    memset(t, 0, sizeof *t);
}

/* Random arguments (base_tensor_fill_random with this scale). */
static inline void kt_random_inputs(struct kt *t, uint64_t seed, double scale)
{
    for (int i = 0; i < t->n_args; i++) {
        const struct cc_view *v = &t->in[i].view;
        base_tensor_release(t->args[i]);
        assert_int_equal(base_tensor_create(v->dtype, v->rank, v->dims, &t->args[i]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(t->args[i], seed * 131 + (uint64_t)i, scale), BASE_OK);
    }
}

/* Argument i's element j set from a double (after kt_random_inputs). */
static inline void kt_set(struct kt *t, int i, int64_t j, double v)
{
    base_elem_set_f64(t->args[i]->dtype, t->args[i]->data, (size_t)j, v);
}

static inline void kt_write(struct sim *s, uint64_t addr, const struct base_tensor *x)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct sim_loc loc = {ISA_SPACE_HBM, 0, 0, addr};
    if (sim_write_tensor(s, &loc, x, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("sim_write_tensor");
    }
}

static inline void kt_load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cannot load chip %s", name);
    }
}

struct kt_run {
    struct sim_stats st;         /* copied; engines pointer not valid after */
    uint64_t instructions;       /* static, all cores */
    double emit_s, sim_s;
    struct base_tensor *outs[KT_MAX];
};

/* Emits k for n_cores cores (0: all of the chip's) and runs it (hooks may be NULL). */
static inline void kt_run_hooks(struct kt *t, const struct chip_desc *chip, cc_emit_fn fn, bool timing_only,
                                uint32_t n_cores, struct kt_run *r, const struct sim_hooks *hooks)
{
    memset(r, 0, sizeof *r);
    if (!n_cores) n_cores = chip->cores;
    struct cc_target tg;
    cc_target_init(&tg, chip);
    struct isa_program *progs = calloc(n_cores, sizeof *progs);
    assert_non_null(progs);
    struct base_diag d;
    base_diag_clear(&d);
    clock_t c0 = clock();
    for (uint32_t c = 0; c < n_cores; c++) {
        isa_program_init(&progs[c]);
        struct cc_emit_ctx ctx = {c, n_cores, NULL};
        enum base_status st = fn(&tg, &t->k, &ctx, &progs[c], &d);
        if (st != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("emit on %s core %u: %s", chip->name, c, base_status_str(st));
        }
        r->instructions += isa_program_count(&progs[c]);
        if (getenv("KT_DISASM") && c == 0) isa_disassemble(&progs[c], stderr);
    }
    clock_t c1 = clock();
    struct sim_options o;
    sim_options_default(&o);
    o.timing_only = timing_only;
    o.hooks = hooks;
    struct sim *s = NULL;
    if (sim_create(chip, &o, &s, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("sim_create");
    }
    for (uint32_t c = 0; c < n_cores; c++)
        if (progs[c].n_streams && sim_load(s, c, &progs[c], NULL, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            isa_disassemble(&progs[c], stderr);
            fail_msg("sim_load on %s core %u", chip->name, c);
        }
    for (int i = 0; i < t->n_args; i++) {
        struct base_tensor *x = t->args[i], *tmp = NULL;
        if (!x) { /* timing-only: shape only */
            const struct cc_view *v = &t->in[i].view;
            assert_int_equal(base_tensor_create(v->dtype, v->rank, v->dims, &tmp), BASE_OK);
            x = tmp;
        }
        kt_write(s, t->arg_addr[i], x);
        base_tensor_release(tmp);
    }
    for (int i = 0; i < t->n_consts; i++) kt_write(s, t->const_addr[i], t->consts[i]);
    if (sim_run(s, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        if (getenv("KT_DUMP"))
            for (uint32_t c = 0; c < n_cores; c++) isa_disassemble(&progs[c], stderr);
        fail_msg("sim_run on %s", chip->name);
    }
    clock_t c2 = clock();
    r->st = *sim_get_stats(s);
    r->emit_s = (double)(c1 - c0) / CLOCKS_PER_SEC;
    r->sim_s = (double)(c2 - c1) / CLOCKS_PER_SEC;
    if (!timing_only)
        for (int i = 0; i < t->n_out; i++) {
            const struct cc_view *v = &t->out[i].view;
            struct sim_loc loc = {ISA_SPACE_HBM, 0, 0, v->addr};
            if (sim_read_tensor(s, &loc, v->dtype, v->rank, v->dims, &r->outs[i], &d) != BASE_OK) {
                base_diag_print(&d, stderr);
                fail_msg("sim_read_tensor");
            }
        }
    sim_destroy(s);
    for (uint32_t c = 0; c < n_cores; c++) isa_program_deinit(&progs[c]);
    free(progs);
}

static inline void kt_run(struct kt *t, const struct chip_desc *chip, cc_emit_fn fn, bool timing_only,
                          uint32_t n_cores, struct kt_run *r)
{
    kt_run_hooks(t, chip, fn, timing_only, n_cores, r, NULL);
}

static inline void kt_run_free(struct kt_run *r)
{
    for (int i = 0; i < KT_MAX; i++) base_tensor_release(r->outs[i]);
}

/* got vs want element by element: bit-exact (any NaN matches any NaN) when
 * ulps == 0, else within `ulps` units in the last place of the type. */
static inline void kt_compare(const struct base_tensor *got, const struct base_tensor *want, double ulps,
                              const char *what)
{
    assert_int_equal(got->dtype, want->dtype);
    assert_int_equal(got->count, want->count);
    enum base_dtype dt = got->dtype;
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < got->count; i++) {
        uint64_t a = base_elem_get_bits(dt, got->data, (size_t)i), b = base_elem_get_bits(dt, want->data, (size_t)i);
        if (a == b) continue;
        if (base_dtype_is_float(dt)) {
            double x = base_elem_get_f64(dt, got->data, (size_t)i), y = base_elem_get_f64(dt, want->data, (size_t)i);
            if (isnan(x) && isnan(y)) continue;
            if (ulps > 0 && isfinite(x) && isfinite(y)) {
                const struct base_float_format *ff = base_float_format(dt);
                int e;
                frexp(fabs(y) > ff->min_normal ? y : ff->min_normal, &e);
                double ulp = ldexp(1.0, e - 1 - ff->man_bits);
                if (fabs(x - y) <= ulps * ulp) continue;
            }
        }
        if (first < 0) first = i;
        bad++;
    }
    if (bad) {
        double x = base_elem_get_f64(dt, got->data, (size_t)first), y = base_elem_get_f64(dt, want->data, (size_t)first);
        fail_msg("%s: %lld of %lld elements differ; first at %lld: got %.17g (bits %llx), want %.17g (bits %llx)",
                 what, (long long)bad, (long long)got->count, (long long)first, x,
                 (unsigned long long)base_elem_get_bits(dt, got->data, (size_t)first), y,
                 (unsigned long long)base_elem_get_bits(dt, want->data, (size_t)first));
    }
}

/* Runs the interpreter on the inputs and the kernel on chip `chip_name`
 * (all its cores), and compares every output (ulps as kt_compare). */
static inline void kt_check(struct kt *t, const char *chip_name, cc_emit_fn fn, double ulps)
{
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(t->m, NULL, t->args, t->n_args, &io, &res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter failed");
    }
    struct kt_run r;
    kt_run(t, &chip, fn, false, 0, &r);
    for (int i = 0; i < t->n_out; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s output %d", chip_name, i);
        kt_compare(r.outs[i], res.outputs[i], ulps, what);
    }
    kt_run_free(&r);
    interp_result_free(&res);
}

/* Both chips the issue names. */
static inline void kt_check_both(struct kt *t, cc_emit_fn fn, double ulps)
{
    kt_check(t, "tpu-v5e", fn, ulps);
    kt_check(t, "trn2", fn, ulps);
}

/* The kernel of src (one op of `kind` and its group) emitted by fn on chip
 * chip_name over n_cores cores (0: all), with random inputs of `seed`,
 * against the interpreter's run of ref (NULL: src itself) on the same
 * inputs; every output within ulps (0: bit for bit). */
static inline void kt_check_vs_interp(const char *src, const char *ref, enum cc_kernel_kind kind, cc_emit_fn fn,
                                      const char *chip_name, uint32_t n_cores, uint64_t seed, double ulps)
{
    struct kt t;
    kt_parse(&t, src, kind);
    kt_random_inputs(&t, seed, 1.0);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct graph_module *rm = ref ? prog_parse(ref) : t.m;
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result res;
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(rm, NULL, t.args, t.n_args, &io, &res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter failed");
    }
    struct kt_run r;
    kt_run(&t, &chip, fn, false, n_cores, &r);
    for (int i = 0; i < t.n_out; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s (%u cores) output %d", chip_name, n_cores, i);
        kt_compare(r.outs[i], res.outputs[i], ulps, what);
    }
    kt_run_free(&r);
    interp_result_free(&res);
    if (ref) graph_module_destroy(rm);
    kt_free(&t);
}

#endif
