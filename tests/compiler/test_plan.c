/* cc_compile: grouping per mode, views, buffers, control flow, errors and
 * coverage (compiler/compile.c). */
#include "tests/prog.h"

#include "compiler/cc_internal.h"

#include <stdio.h>
#include <string.h>

static struct chip_desc chip_v5e;

static int setup(void **state)
{
    (void)state;
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load("tpu-v5e", &chip_v5e, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        return -1;
    }
    return 0;
}

static struct cc_plan *compile_mode(struct graph_module *m, enum cc_mode mode)
{
    struct cc_options o;
    cc_options_default(&o);
    o.mode = mode;
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (cc_compile(m, &chip_v5e, &o, &p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile failed");
    }
    return p;
}

static int n_kernel_steps(const struct cc_plan *p)
{
    int n = 0;
    for (uint32_t i = 0; i < cc_plan_n_steps(p); i++) n += cc_plan_step(p, i)->kind == CC_STEP_KERNEL;
    return n;
}

/* An elementwise chain: a + b, * c, exp, on N elements. */
static char *chain_src(int64_t n)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "func.func @main(%%a: tensor<%lldxf32>, %%b: tensor<%lldxf32>, %%c: tensor<%lldxf32>) -> tensor<%lldxf32> {\n"
             "  %%0 = stablehlo.add %%a, %%b : tensor<%lldxf32>\n"
             "  %%1 = stablehlo.multiply %%0, %%c : tensor<%lldxf32>\n"
             "  %%2 = stablehlo.exponential %%1 : tensor<%lldxf32>\n"
             "  func.return %%2 : tensor<%lldxf32>\n}\n",
             (long long)n, (long long)n, (long long)n, (long long)n, (long long)n, (long long)n, (long long)n,
             (long long)n);
    return buf;
}

static void test_plan_compiled_fuses_an_elementwise_chain(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(chain_src(1024));
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    assert_int_equal(cc_plan_n_kernels(p), 1);
    const struct cc_kernel *k = cc_plan_kernel(p, 0);
    assert_int_equal(k->kind, CC_K_ELEMENTWISE);
    assert_int_equal(k->n_ops, 3);
    assert_int_equal(k->n_in, 3);
    assert_int_equal(k->n_out, 1); /* the intermediates stay on chip */
    assert_string_equal(k->info.name, "fusion(add,multiply,exponential)");
    assert_false(k->info.dispatch);
    assert_int_equal(k->info.flops, 3 * 1024);
    assert_int_equal(k->info.hbm_bytes, 4 * 4 * 1024); /* three inputs read, one output written */
    /* the kernel writes the output buffer itself */
    assert_int_equal(k->out[0].buffer, cc_plan_output_buffer(p, 0));
    assert_int_equal(cc_plan_buffer(p, cc_plan_output_buffer(p, 0))->kind, CC_BUF_OUTPUT);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* A dot takes its elementwise epilogue into its kernel when the general
 * engine keeps a panel of the moving operand over the whole K (a short K),
 * and leaves it to a kernel of its own when it cannot (a long K: an FFN's
 * down projection; compiler/k_dot.c cc_dot_fuses_epilogues). */
static void test_plan_dot_epilogue_fused_unless_k_is_long(void **state)
{
    (void)state;
    static const int64_t ks[2] = {1024, 65536};
    for (int i = 0; i < 2; i++) {
        char src[1024];
        long long k = (long long)ks[i];
        snprintf(src, sizeof src,
                 "func.func @main(%%a: tensor<2048x%lldxbf16>, %%b: tensor<%lldx1024xbf16>) -> tensor<2048x1024xbf16> {\n"
                 "  %%0 = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] : (tensor<2048x%lldxbf16>, "
                 "tensor<%lldx1024xbf16>) -> tensor<2048x1024xbf16>\n"
                 "  %%1 = stablehlo.logistic %%0 : tensor<2048x1024xbf16>\n"
                 "  func.return %%1 : tensor<2048x1024xbf16>\n}\n",
                 k, k, k, k);
        struct graph_module *m = prog_parse(src);
        struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
        assert_int_equal(cc_plan_n_kernels(p), i == 0 ? 1 : 2);
        assert_string_equal(cc_plan_kernel(p, 0)->info.name, i == 0 ? "fusion(dot_general,logistic)" : "dot_general");
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

static void test_plan_eager_gives_every_op_a_dispatched_kernel(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(chain_src(1024));
    struct cc_plan *p = compile_mode(m, CC_MODE_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 3);
    assert_int_equal(n_kernel_steps(p), 3);
    for (uint32_t k = 0; k < 3; k++) {
        assert_int_equal(cc_plan_kernel(p, k)->n_ops, 1);
        assert_true(cc_plan_kernel_info(p, k)->dispatch);
    }
    /* through HBM: the first kernel's output is the second's input */
    assert_int_equal(cc_plan_kernel(p, 0)->out[0].buffer, cc_plan_kernel(p, 1)->in[0].buffer);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_plan_fused_eager_fuses_only_small_runs(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(chain_src(1024));
    struct cc_plan *p = compile_mode(m, CC_MODE_FUSED_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 1);
    assert_true(cc_plan_kernel_info(p, 0)->dispatch);
    cc_plan_destroy(p);
    graph_module_destroy(m);
    m = prog_parse(chain_src(65537)); /* over the documented 65536 elements */
    p = compile_mode(m, CC_MODE_FUSED_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 3);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static const char *const softmax_src =
    "func.func @main(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {\n"
    "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>\n"
    "  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>\n"
    "  %d = stablehlo.subtract %x, %mb : tensor<8x128xf32>\n"
    "  %e = stablehlo.exponential %d : tensor<8x128xf32>\n"
    "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>\n"
    "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>\n"
    "  %r = stablehlo.divide %e, %sb : tensor<8x128xf32>\n"
    "  func.return %r : tensor<8x128xf32>\n}\n";

static void test_plan_compiled_fuses_a_reduce_prologue(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(softmax_src);
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    /* [reduce max] [subtract, exp, reduce add] [divide] */
    assert_int_equal(cc_plan_n_kernels(p), 3);
    const struct cc_kernel *k1 = cc_plan_kernel(p, 1);
    assert_int_equal(k1->kind, CC_K_REDUCE);
    assert_int_equal(k1->n_ops, 3);
    assert_int_equal(k1->ops[2]->kind, GRAPH_OP_REDUCE);
    /* exp is read by the divide too: an output of the reduce kernel */
    assert_int_equal(k1->n_out, 2);
    /* the broadcast is a view: stride 0 along the row */
    const struct cc_kernel *k2 = cc_plan_kernel(p, 2);
    assert_int_equal(k2->kind, CC_K_ELEMENTWISE);
    bool found = false;
    for (int i = 0; i < k2->n_in; i++)
        if (k2->in[i].view.rank == 2 && k2->in[i].view.strides[1] == 0) found = true;
    assert_true(found);
    cc_plan_destroy(p);
    /* eager: every op (the broadcasts are views, not ops) */
    p = compile_mode(m, CC_MODE_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 5);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_plan_views_are_strides_not_kernels(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
        "  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
        "  %r = stablehlo.add %t, %b : tensor<8x4xf32>\n"
        "  func.return %r : tensor<8x4xf32>\n}\n");
    struct cc_plan *p = compile_mode(m, CC_MODE_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 1);
    const struct cc_kernel *k = cc_plan_kernel(p, 0);
    const struct cc_buffer *a = cc_plan_buffer(p, cc_plan_input_buffer(p, 0));
    assert_int_equal(k->in[0].buffer, cc_plan_input_buffer(p, 0));
    assert_int_equal(k->in[0].view.addr, a->addr);
    assert_int_equal(k->in[0].view.strides[0], 1); /* the transposed dims */
    assert_int_equal(k->in[0].view.strides[1], 8);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_plan_returned_view_is_copied(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {\n"
        "  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
        "  func.return %t, %a : tensor<8x4xf32>, tensor<4x8xf32>\n}\n");
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    assert_int_equal(cc_plan_n_kernels(p), 1);
    assert_int_equal(cc_plan_kernel(p, 0)->kind, CC_K_COPY);
    assert_int_equal(cc_plan_kernel(p, 0)->out[0].buffer, cc_plan_output_buffer(p, 0));
    /* an input returned as it is: the output is the input's buffer */
    assert_int_equal(cc_plan_output_buffer(p, 1), cc_plan_input_buffer(p, 0));
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_plan_call_is_inlined(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func private @sq(%x: tensor<16xf32>) -> tensor<16xf32> {\n"
        "  %y = stablehlo.multiply %x, %x : tensor<16xf32>\n"
        "  func.return %y : tensor<16xf32>\n}\n"
        "func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {\n"
        "  %0 = func.call @sq(%a) : (tensor<16xf32>) -> tensor<16xf32>\n"
        "  %1 = func.call @sq(%0) : (tensor<16xf32>) -> tensor<16xf32>\n"
        "  func.return %1 : tensor<16xf32>\n}\n");
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    /* the same op twice: two kernels, the second reading the first's output */
    assert_int_equal(cc_plan_n_kernels(p), 2);
    assert_int_equal(cc_plan_kernel(p, 0)->out[0].buffer, cc_plan_kernel(p, 1)->in[0].buffer);
    assert_int_equal(cc_plan_kernel(p, 1)->out[0].buffer, cc_plan_output_buffer(p, 0));
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

static void test_plan_dead_ops_are_dropped(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {\n"
        "  %unused = stablehlo.exponential %a : tensor<16xf32>\n"
        "  %r = stablehlo.negate %a : tensor<16xf32>\n"
        "  func.return %r : tensor<16xf32>\n}\n");
    struct cc_plan *p = compile_mode(m, CC_MODE_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 1);
    assert_string_equal(cc_plan_kernel_info(p, 0)->name, "negate");
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* An op neither the chip nor the host runs (another dialect's) is a located
 * error; so is one only the host runs (cholesky: no lowering) under
 * no_fallback. */
static void test_plan_unsupported_op_is_located(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
        "  %n = stablehlo.negate %a : tensor<4x4xf32>\n"
        "  %r = \"mydialect.frobnicate\"(%n) : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
        "  func.return %r : tensor<4x4xf32>\n}\n");
    struct cc_options o;
    cc_options_default(&o);
    struct cc_plan *p = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &chip_v5e, &o, &p, &d), BASE_ERR_UNSUPPORTED);
    assert_null(p);
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 3);
    assert_non_null(strstr(d.msg, "mydialect.frobnicate is not lowered for tpu-v5e"));
    graph_module_destroy(m);
    m = prog_parse("func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
                   "  %n = stablehlo.negate %a : tensor<4x4xf32>\n"
                   "  %r = stablehlo.cholesky %n, lower = true : tensor<4x4xf32>\n"
                   "  func.return %r : tensor<4x4xf32>\n}\n");
    assert_int_equal(cc_compile(m, &chip_v5e, &o, &p, &d), BASE_OK); /* on the host */
    cc_plan_destroy(p);
    p = NULL;
    o.no_fallback = true;
    base_diag_clear(&d);
    assert_int_equal(cc_compile(m, &chip_v5e, &o, &p, &d), BASE_ERR_UNSUPPORTED);
    assert_null(p);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "stablehlo.cholesky is not lowered for tpu-v5e"));
    graph_module_destroy(m);
}

static void test_plan_while_counts_static_trips(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>\n"
        "  cond {\n"
        "    %n = stablehlo.constant dense<7> : tensor<i32>\n"
        "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %p : tensor<i1>\n"
        "  } do {\n"
        "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
        "    %v2 = stablehlo.multiply %v, %v : tensor<4xf32>\n"
        "    stablehlo.return %i2, %v2 : tensor<i32>, tensor<4xf32>\n"
        "  }\n"
        "  func.return %r#1 : tensor<4xf32>\n}\n");
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    int branches = 0, jumps = 0;
    for (uint32_t i = 0; i < cc_plan_n_steps(p); i++) {
        const struct cc_step *s = cc_plan_step(p, i);
        if (s->kind == CC_STEP_BRANCH) {
            branches++;
            assert_int_equal(s->trip_count, 7);
            assert_true(s->target > i && s->target <= cc_plan_n_steps(p));
            const struct cc_buffer *b = cc_plan_buffer(p, s->buffer);
            assert_int_equal(b->dtype, BASE_DT_I1);
            assert_int_equal(b->rank, 0);
        }
        if (s->kind == CC_STEP_JUMP) {
            jumps++;
            assert_true(s->target < i);
        }
    }
    assert_int_equal(branches, 1);
    assert_int_equal(jumps, 1);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* ------------------------------------------------ random graphs: placement */

/* Live range of every buffer over the steps, with the loop rule: a buffer
 * read in a loop that was written before it lives until the loop's end. */
static void check_no_overlap(const struct cc_plan *p, uint64_t seed)
{
    uint32_t nb = cc_plan_n_buffers(p), ns = cc_plan_n_steps(p);
    int *first = malloc(nb * sizeof *first), *last = malloc(nb * sizeof *last);
    for (uint32_t b = 0; b < nb; b++) {
        first[b] = INT32_MAX;
        last[b] = -1;
    }
    for (uint32_t s = 0; s < ns; s++) {
        const struct cc_step *st = cc_plan_step(p, s);
        uint32_t touch[256];
        int nt = 0;
        if (st->kind == CC_STEP_KERNEL) {
            const struct cc_kernel *k = cc_plan_kernel(p, st->kernel);
            for (int i = 0; i < k->n_in + k->n_out && nt < 256; i++)
                touch[nt++] = i < k->n_in ? k->in[i].buffer : k->out[i - k->n_in].buffer;
        } else if (st->kind == CC_STEP_HOST || st->kind == CC_STEP_COLLECTIVE) { /* the host reads and writes them */
            for (uint32_t i = 0; i < st->n_in + st->n_out && nt < 256; i++) touch[nt++] = st->io_buffers[i];
        }
        for (int i = 0; i < nt; i++) {
            uint32_t b = touch[i];
            if ((int)s < first[b]) first[b] = (int)s;
            if ((int)s > last[b]) last[b] = (int)s;
        }
    }
    for (uint32_t a = 0; a < nb; a++)
        for (uint32_t b = a + 1; b < nb; b++) {
            const struct cc_buffer *x = cc_plan_buffer(p, a), *y = cc_plan_buffer(p, b);
            bool x_perm = x->kind != CC_BUF_TEMP, y_perm = y->kind != CC_BUF_TEMP;
            bool live_both = x_perm || y_perm || (first[a] <= last[b] && first[b] <= last[a]);
            bool mem = x->addr < y->addr + (y->bytes ? y->bytes : 1) && y->addr < x->addr + (x->bytes ? x->bytes : 1);
            if (live_both && mem)
                fail_msg("seed %llu: buffers %u [%d, %d] and %u [%d, %d] overlap at 0x%llx / 0x%llx",
                         (unsigned long long)seed, a, first[a], last[a], b, first[b], last[b],
                         (unsigned long long)x->addr, (unsigned long long)y->addr);
            assert_int_equal(x->addr % 512, 0);
        }
    free(first);
    free(last);
}

static void test_plan_buffers_never_overlap_while_live(void **state)
{
    (void)state;
    static const char *const bin[] = {"add", "multiply", "subtract", "maximum"};
    static const char *const un[] = {"exponential", "negate", "tanh", "abs"};
    struct base_rng rng;
    for (int trial = 0; trial < 60; trial++) {
        uint64_t seed = test_seed() * 1000 + (uint64_t)trial;
        base_rng_seed(&rng, seed);
        char *src = malloc(1 << 16);
        size_t n = 0;
        int nv = 2 + (int)(base_rng_next(&rng) % 3), nops = 5 + (int)(base_rng_next(&rng) % 30);
        n += (size_t)snprintf(src + n, 1 << 16, "func.func @main(");
        for (int i = 0; i < nv; i++) n += (size_t)snprintf(src + n, (1 << 16) - n, "%s%%v%d: tensor<16x32xf32>", i ? ", " : "", i);
        n += (size_t)snprintf(src + n, (1 << 16) - n, ") -> (tensor<16x32xf32>, tensor<16xf32>) {\n");
        n += (size_t)snprintf(src + n, (1 << 16) - n, "  %%z = stablehlo.constant dense<0.0> : tensor<f32>\n");
        int v = nv;
        for (int i = 0; i < nops; i++, v++) {
            int a = (int)(base_rng_next(&rng) % (uint64_t)v), b = (int)(base_rng_next(&rng) % (uint64_t)v);
            switch (base_rng_next(&rng) % 4) {
            case 0:
            case 1:
                n += (size_t)snprintf(src + n, (1 << 16) - n, "  %%v%d = stablehlo.%s %%v%d, %%v%d : tensor<16x32xf32>\n",
                                      v, bin[base_rng_next(&rng) % 4], a, b);
                break;
            case 2:
                n += (size_t)snprintf(src + n, (1 << 16) - n, "  %%v%d = stablehlo.%s %%v%d : tensor<16x32xf32>\n", v,
                                      un[base_rng_next(&rng) % 4], a);
                break;
            default: /* a row sum broadcast back: reduce + view */
                n += (size_t)snprintf(src + n, (1 << 16) - n,
                                      "  %%s%d = stablehlo.reduce(%%v%d init: %%z) applies stablehlo.add across dimensions = [1] : "
                                      "(tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>\n"
                                      "  %%v%d = stablehlo.broadcast_in_dim %%s%d, dims = [0] : (tensor<16xf32>) -> tensor<16x32xf32>\n",
                                      v, a, v, v);
                break;
            }
        }
        n += (size_t)snprintf(src + n, (1 << 16) - n,
                              "  %%out = stablehlo.reduce(%%v%d init: %%z) applies stablehlo.add across dimensions = [1] : "
                              "(tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>\n"
                              "  func.return %%v%d, %%out : tensor<16x32xf32>, tensor<16xf32>\n}\n",
                              v - 2 >= 0 ? v - 2 : 0, v - 1);
        struct graph_module *m = prog_parse(src);
        for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
            struct cc_plan *p = compile_mode(m, (enum cc_mode)mode);
            check_no_overlap(p, seed);
            /* every kernel's outputs are disjoint from its inputs */
            for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
                const struct cc_kernel *kr = cc_plan_kernel(p, k);
                for (int i = 0; i < kr->n_in; i++)
                    for (int o = 0; o < kr->n_out; o++) assert_int_not_equal(kr->in[i].buffer, kr->out[o].buffer);
            }
            cc_plan_destroy(p);
        }
        graph_module_destroy(m);
        free(src);
    }
}

/* A while loop whose condition the host evaluates (an f64 compare, which
 * the vector engines lack) reads two state buffers in a HOST step: they
 * must not share an address (the placement once ignored HOST steps'
 * buffers, so both states lived at one address and the compare saw one
 * value twice: random_gamma's NaN became a finite number). */
static void test_plan_host_step_buffers_are_live(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main() -> tensor<f64> {\n"
        "  %x0 = stablehlo.constant dense<-2.0> : tensor<f64>\n"
        "  %x = stablehlo.sqrt %x0 : tensor<f64>\n"
        "  %two = stablehlo.constant dense<2.0> : tensor<f64>\n"
        "  %r:2 = stablehlo.while(%a = %x, %b = %two) : tensor<f64>, tensor<f64>\n"
        "   cond {\n"
        "    %c = stablehlo.compare GE, %b, %a, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n"
        "    %n = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>\n"
        "    stablehlo.return %a, %n : tensor<f64>, tensor<f64>\n"
        "  }\n"
        "  func.return %r#1 : tensor<f64>\n"
        "}\n";
    struct graph_module *m = prog_parse(src);
    for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
        struct cc_plan *p = compile_mode(m, (enum cc_mode)mode);
        int host = 0;
        for (uint32_t i = 0; i < cc_plan_n_steps(p); i++) {
            const struct cc_step *st = cc_plan_step(p, i);
            if (st->kind != CC_STEP_HOST || strcmp(st->op->name, "stablehlo.compare")) continue;
            host++;
            assert_int_equal(st->n_in, 2);
            const struct cc_buffer *a = cc_plan_buffer(p, st->io_buffers[0]), *b = cc_plan_buffer(p, st->io_buffers[1]);
            assert_int_not_equal(a->addr, b->addr);
        }
        assert_int_equal(host, 1);
        check_no_overlap(p, 0);
        cc_plan_destroy(p);
    }
    graph_module_destroy(m);
}

static void test_plan_temporaries_reuse_addresses(void **state)
{
    (void)state;
    /* a chain of eager ops: each temporary dies two steps later */
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "func.func @main(%%a: tensor<1024xf32>) -> tensor<1024xf32> {\n  %%v0 = stablehlo.negate %%a : tensor<1024xf32>\n");
    for (int i = 1; i < 20; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "  %%v%d = stablehlo.negate %%v%d : tensor<1024xf32>\n", i, i - 1);
    snprintf(src + n, sizeof src - n, "  func.return %%v19 : tensor<1024xf32>\n}\n");
    struct graph_module *m = prog_parse(src);
    struct cc_plan *p = compile_mode(m, CC_MODE_EAGER);
    assert_int_equal(cc_plan_n_kernels(p), 20);
    /* input + output + two temporaries in turn, 4 KiB each */
    assert_true(cc_plan_hbm_bytes(p) <= 4 * 4096);
    check_no_overlap(p, 0);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* Coverage counts each kind, and locates what the chip cannot run: an op of
 * another dialect (not lowered, not run on the host either) and a cholesky
 * (not lowered: runs on the host). */
static void test_plan_coverage_counts_and_locates(void **state)
{
    (void)state;
    struct graph_module *m = prog_parse(
        "func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
        "  %n = stablehlo.negate %a : tensor<4x4xf32>\n"
        "  %m = stablehlo.negate %n : tensor<4x4xf32>\n"
        "  %r = \"mydialect.frobnicate\"(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
        "  %q = stablehlo.cholesky %r, lower = true : tensor<4x4xf32>\n"
        "  func.return %q : tensor<4x4xf32>\n}\n");
    struct cc_coverage cv;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(cc_coverage(m, &chip_v5e, NULL, &cv, &d), BASE_OK);
    assert_int_equal(cv.n_entries, 3);
    assert_int_equal(cv.n_ops, 4);
    assert_int_equal(cv.n_unsupported, 2);
    assert_int_equal(cv.n_host, 1);
    assert_string_equal(cv.entries[0].name, "stablehlo.negate");
    assert_int_equal(cv.entries[0].count, 2);
    assert_true(cv.entries[0].supported);
    assert_string_equal(cv.entries[1].name, "mydialect.frobnicate");
    assert_false(cv.entries[1].supported);
    assert_int_equal(cv.entries[1].n_unsupported, 1);
    assert_int_equal(cv.entries[1].n_host, 0);
    assert_int_equal(cv.entries[1].locs[0].line, 4);
    assert_string_equal(cv.entries[2].name, "stablehlo.cholesky");
    assert_int_equal(cv.entries[2].n_unsupported, 1);
    assert_int_equal(cv.entries[2].n_host, 1);
    assert_int_equal(cv.entries[2].locs[0].line, 5);
    cc_coverage_free(&cv);
    graph_module_destroy(m);
}

/* A chain of 40 adds, each with an argument of its own: fusions stop at 24
 * ops and 40 operands. */
static void test_plan_groups_respect_limits(void **state)
{
    (void)state;
    char *src = malloc(1 << 15);
    size_t n = (size_t)snprintf(src, 1 << 15, "func.func @main(");
    for (int i = 0; i <= 40; i++) n += (size_t)snprintf(src + n, (1 << 15) - n, "%s%%a%d: tensor<64xf32>", i ? ", " : "", i);
    n += (size_t)snprintf(src + n, (1 << 15) - n, ") -> tensor<64xf32> {\n  %%v0 = stablehlo.add %%a0, %%a1 : tensor<64xf32>\n");
    for (int i = 1; i < 40; i++)
        n += (size_t)snprintf(src + n, (1 << 15) - n, "  %%v%d = stablehlo.add %%v%d, %%a%d : tensor<64xf32>\n", i, i - 1, i + 1);
    snprintf(src + n, (1 << 15) - n, "  func.return %%v39 : tensor<64xf32>\n}\n");
    struct graph_module *m = prog_parse(src);
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    assert_true(cc_plan_n_kernels(p) >= 2);
    int ops = 0;
    for (uint32_t k = 0; k < cc_plan_n_kernels(p); k++) {
        const struct cc_kernel *kr = cc_plan_kernel(p, k);
        assert_true(kr->n_ops <= 24);
        assert_true(kr->n_in + kr->n_out <= 40);
        ops += kr->n_ops;
    }
    assert_int_equal(ops, 40);
    cc_plan_destroy(p);
    graph_module_destroy(m);
    free(src);
}

/* A check of a view after a chain of n ops: the view is copied to a dense
 * buffer for the host, and that copy's shape was read from the compiler's
 * value table while the copy grew it (a use after free at the table's
 * growth points: a 5,600-op export crashed at value 4095).  Every chain
 * length up to 300 crosses the growth points 16..512; ASan (make
 * check-asan) sees any stale read. */
static void test_plan_copy_for_the_host_survives_value_table_growth(void **state)
{
    (void)state;
    size_t cap = 64 * 1024;
    char *src = malloc(cap);
    assert_non_null(src);
    for (int n = 1; n <= 300; n++) {
        size_t k = (size_t)snprintf(src, cap, "func.func @main(%%x: tensor<4x8xf32>) {\n  %%v0 = stablehlo.negate %%x : tensor<4x8xf32>\n");
        for (int i = 1; i < n; i++)
            k += (size_t)snprintf(src + k, cap - k, "  %%v%d = stablehlo.negate %%v%d : tensor<4x8xf32>\n", i, i - 1);
        snprintf(src + k, cap - k,
                 "  %%t = stablehlo.transpose %%v%d, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
                 "  check.expect_eq %%t, %%t : tensor<8x4xf32>\n  func.return\n}\n", n - 1);
        struct graph_module *m = prog_parse(src);
        struct cc_plan *p = compile_mode(m, CC_MODE_EAGER);
        assert_true(cc_plan_n_steps(p) > 0);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
    free(src);
}

/* No fixed operand limit: a call with 300 operands compiles (it was refused
 * past 64). */
static void test_plan_call_takes_any_number_of_operands(void **state)
{
    (void)state;
    enum { N = 300 };
    size_t cap = 64 * 1024;
    char *src = malloc(cap);
    assert_non_null(src);
    size_t k = (size_t)snprintf(src, cap, "func.func private @g(");
    for (int i = 0; i < N; i++) k += (size_t)snprintf(src + k, cap - k, "%s%%a%d: tensor<2xf32>", i ? ", " : "", i);
    k += (size_t)snprintf(src + k, cap - k, ") -> tensor<2xf32> {\n  %%s = stablehlo.add %%a0, %%a%d : tensor<2xf32>\n"
                                            "  func.return %%s : tensor<2xf32>\n}\nfunc.func @main(", N - 1);
    for (int i = 0; i < N; i++) k += (size_t)snprintf(src + k, cap - k, "%s%%a%d: tensor<2xf32>", i ? ", " : "", i);
    k += (size_t)snprintf(src + k, cap - k, ") -> tensor<2xf32> {\n  %%r = func.call @g(");
    for (int i = 0; i < N; i++) k += (size_t)snprintf(src + k, cap - k, "%s%%a%d", i ? ", " : "", i);
    k += (size_t)snprintf(src + k, cap - k, ") : (");
    for (int i = 0; i < N; i++) k += (size_t)snprintf(src + k, cap - k, "%stensor<2xf32>", i ? ", " : "");
    snprintf(src + k, cap - k, ") -> tensor<2xf32>\n  func.return %%r : tensor<2xf32>\n}\n");
    struct graph_module *m = prog_parse(src);
    struct cc_plan *p = compile_mode(m, CC_MODE_COMPILED);
    assert_int_equal(n_kernel_steps(p), 1);
    cc_plan_destroy(p);
    graph_module_destroy(m);
    free(src);
}

TEST_MAIN(setup, NULL, T(test_plan_compiled_fuses_an_elementwise_chain), T(test_plan_dot_epilogue_fused_unless_k_is_long),
          T(test_plan_eager_gives_every_op_a_dispatched_kernel), T(test_plan_fused_eager_fuses_only_small_runs),
          T(test_plan_compiled_fuses_a_reduce_prologue), T(test_plan_views_are_strides_not_kernels),
          T(test_plan_returned_view_is_copied), T(test_plan_call_is_inlined), T(test_plan_dead_ops_are_dropped),
          T(test_plan_unsupported_op_is_located), T(test_plan_while_counts_static_trips),
          T(test_plan_buffers_never_overlap_while_live), T(test_plan_temporaries_reuse_addresses),
          T(test_plan_host_step_buffers_are_live),
          T(test_plan_coverage_counts_and_locates), T(test_plan_groups_respect_limits),
          T(test_plan_copy_for_the_host_survives_value_table_growth), T(test_plan_call_takes_any_number_of_operands))
