/* Shape refinement (graph/refine.h): each dynamic op becomes its static form
 * with the expected shape and attributes, the refined program verifies, has
 * no dynamic type left, and gives the interpreter's outputs of the original
 * dynamic program run as it is (bit for bit); dimension arguments are
 * inferred, guessed or given; errors are located and name the op, the
 * argument and the dimension. */
#include "tests/prog.h"

#include "graph/refine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

#define NARGS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define SHAPE(...) ((struct graph_refine_arg){.rank = NARGS(__VA_ARGS__), .dims = {__VA_ARGS__}})
#define SCALAR ((struct graph_refine_arg){.rank = 0})
#define NONE ((struct graph_refine_arg){.rank = -1})
#define VALUE(v) ((struct graph_refine_arg){.rank = -1, .has_value = true, .value = (v)})
#define ARGS(...)                             \
    (struct graph_refine_arg[]){__VA_ARGS__}, \
        (int)(sizeof((struct graph_refine_arg[]){__VA_ARGS__}) / sizeof(struct graph_refine_arg))

static struct graph_module *parse_ok(const char *src)
{
    struct graph_module *m = prog_parse(src);
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_verify(m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("the test program does not verify");
    }
    return m;
}

static enum base_status refine(const struct graph_module *m, const struct graph_refine_arg *args, int n, bool guess,
                               struct graph_module **out, struct graph_refine_result *res, struct base_diag *d)
{
    struct graph_refine_options o = {.args = args, .n_args = n, .guess_dim_args = guess};
    base_diag_clear(d);
    return graph_refine(m, &o, out, res, d);
}

/* Refines, and checks that the result verifies and is static. */
static struct graph_module *refine_ok(const struct graph_module *m, const struct graph_refine_arg *args, int n,
                                      struct graph_refine_result *res)
{
    struct graph_module *r = NULL;
    struct graph_refine_result local;
    struct base_diag d;
    if (refine(m, args, n, false, &r, res ? res : &local, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("graph_refine failed");
    }
    if (graph_verify(r, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        char *txt;
        size_t len;
        graph_print_str(r, &txt, &len);
        fprintf(stderr, "%s\n", txt);
        free(txt);
        fail_msg("the refined program does not verify");
    }
    assert_false(graph_module_is_dynamic(r));
    /* it prints and parses back to an equal module */
    char *txt;
    size_t len;
    assert_int_equal(graph_print_str(r, &txt, &len), BASE_OK);
    struct graph_module *back = prog_parse(txt);
    assert_true(graph_module_equal(r, back));
    graph_module_destroy(back);
    free(txt);
    return r;
}

static void count_block(const struct graph_block *b, enum graph_op_kind k, int *n)
{
    for (int i = 0; i < b->n_ops; i++) {
        if (b->ops[i]->kind == k) (*n)++;
        for (int r = 0; r < b->ops[i]->n_regions; r++)
            for (int j = 0; j < b->ops[i]->regions[r].n_blocks; j++)
                count_block(&b->ops[i]->regions[r].blocks[j], k, n);
    }
}

static int count(const struct graph_module *m, enum graph_op_kind k)
{
    int n = 0;
    count_block(&m->body, k, &n);
    return n;
}

/* The first op of kind k in @main. */
static const struct graph_op *find_op(const struct graph_module *m, enum graph_op_kind k)
{
    const struct graph_op *f = graph_module_entry(m);
    const struct graph_block *b = &f->regions[0].blocks[0];
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == k) return b->ops[i];
    fail_msg("no %s in @main", graph_op_kind_name(k));
    return NULL;
}

static void expect_type(const struct graph_type *t, const char *want)
{
    char buf[128];
    graph_type_str(t, buf, sizeof buf);
    if (strcmp(buf, want)) fail_msg("type %s, want %s", buf, want);
}

static void expect_list(const struct graph_op *op, const char *name, const int64_t *want, int n)
{
    int64_t v[32];
    const struct graph_attr *a = graph_op_attr(op, name);
    assert_non_null(a);
    assert_int_equal(graph_attr_as_i64_list(a, v, 32), n);
    for (int i = 0; i < n; i++)
        if (v[i] != want[i]) fail_msg("%s[%d] = %lld, want %lld", name, i, (long long)v[i], (long long)want[i]);
}

/* Deterministic inputs of the given (static) shapes; scalar integers get value. */
static struct base_tensor *input(enum base_dtype dt, int rank, const int64_t *dims, uint64_t seed)
{
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(dt, rank, dims, &t), BASE_OK);
    assert_int_equal(base_tensor_fill_random(t, seed, 1.0), BASE_OK);
    return t;
}

static struct base_tensor *scalar_i64(int64_t v)
{
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI64, 0, NULL, &t), BASE_OK);
    base_elem_set_i64(t->dtype, t->data, 0, v);
    return t;
}

/* The original, run as it is, and the refined program give the same outputs. */
static void expect_same_outputs(const struct graph_module *orig, const struct graph_module *refined,
                                struct base_tensor **in, int n)
{
    struct interp_options o = {0};
    struct interp_result a, b;
    struct base_diag d;
    base_diag_clear(&d);
    if (interp_run(orig, NULL, in, n, &o, &a, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("the dynamic program does not run");
    }
    if (interp_run(refined, NULL, in, n, &o, &b, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("the refined program does not run");
    }
    assert_int_equal(a.n_outputs, b.n_outputs);
    for (int i = 0; i < a.n_outputs; i++) {
        int64_t at;
        if (!interp_tensors_identical(a.outputs[i], b.outputs[i], &at))
            fail_msg("output %d differs at element %lld", i, (long long)at);
    }
    interp_result_free(&a);
    interp_result_free(&b);
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
}

static void refine_fails(const char *src, const struct graph_refine_arg *args, int n, bool guess, enum base_status want,
                         int line, const char *frag1, const char *frag2)
{
    struct graph_module *m = parse_ok(src), *r = NULL;
    struct graph_refine_result res;
    struct base_diag d;
    enum base_status st = refine(m, args, n, guess, &r, &res, &d);
    if (st == BASE_OK) fail_msg("refinement succeeded; want an error containing '%s'", frag1);
    assert_null(r);
    if (want != BASE_OK) assert_int_equal(st, want);
    assert_string_equal(d.file, "test.mlir");
    if (d.line != line) fail_msg("error at line %d, want %d: %s", d.line, line, d.msg);
    if (frag1 && !strstr(d.msg, frag1)) fail_msg("message '%s' lacks '%s'", d.msg, frag1);
    if (frag2 && !strstr(d.msg, frag2)) fail_msg("message '%s' lacks '%s'", d.msg, frag2);
    graph_module_destroy(m);
}

/* ------------------------------------------------------------ dynamic ops */

/* upstream's docs/dynamism.md example: add_one with a dynamic batch */
static const char ADD_ONE[] =
    "func.func public @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
    "  %cst = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
    "  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
    "  %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>\n"
    "  %3 = stablehlo.add %arg0, %2 : tensor<?xf32>\n"
    "  return %3 : tensor<?xf32>\n"
    "}\n";

static void test_refine_dynamic_broadcast_in_dim_becomes_broadcast_in_dim(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(ADD_ONE);
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(16)), &res);
    assert_int_equal(count(r, GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM), 0);
    assert_int_equal(count(r, GRAPH_OP_GET_DIMENSION_SIZE), 0);
    assert_int_equal(count(r, GRAPH_OP_RESHAPE), 0); /* the shape computation is gone */
    const struct graph_op *b = find_op(r, GRAPH_OP_BROADCAST_IN_DIM);
    expect_type(b->results[0].type, "tensor<16xf32>");
    expect_list(b, "broadcast_dimensions", NULL, 0);
    expect_type(graph_func_result_type(graph_module_entry(r), 0), "tensor<16xf32>");
    assert_int_equal(res.n_rewritten, 1);
    assert_int_equal(res.n_dim_args, 0);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 1, (int64_t[]){16}, 1)}, 1);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_dynamic_reshape_and_iota_become_static(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%x: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?x4xi32>) {\n"
                 "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
                 "  %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
                 "  %m = stablehlo.multiply %n, %c4 : tensor<i32>\n"
                 "  %s = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
                 "  %f = stablehlo.dynamic_reshape %x, %s : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>\n"
                 "  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
                 "  %c = stablehlo.constant dense<4> : tensor<1xi32>\n"
                 "  %sh = stablehlo.concatenate %n1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
                 "  %i = stablehlo.dynamic_iota %sh, dim = 1 : (tensor<2xi32>) -> tensor<?x4xi32>\n"
                 "  return %f, %i : tensor<?xf32>, tensor<?x4xi32>\n"
                 "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(3, 4)), NULL);
    assert_int_equal(count(r, GRAPH_OP_DYNAMIC_RESHAPE) + count(r, GRAPH_OP_DYNAMIC_IOTA), 0);
    expect_type(find_op(r, GRAPH_OP_RESHAPE)->results[0].type, "tensor<12xf32>");
    const struct graph_op *io = find_op(r, GRAPH_OP_IOTA);
    expect_type(io->results[0].type, "tensor<3x4xi32>");
    int64_t dim;
    assert_true(graph_attr_as_i64(graph_op_attr(io, "iota_dimension"), &dim));
    assert_int_equal(dim, 1);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){3, 4}, 2)}, 1);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_dynamic_pad_becomes_pad(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%x: tensor<?x2xf32>) -> tensor<?x?xf32> {\n"
                 "  %z = stablehlo.constant dense<0.5> : tensor<f32>\n"
                 "  %n0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>\n"
                 "  %n = stablehlo.convert %n0 : (tensor<i32>) -> tensor<i64>\n"
                 "  %n1 = stablehlo.reshape %n : (tensor<i64>) -> tensor<1xi64>\n"
                 "  %one = stablehlo.constant dense<1> : tensor<1xi64>\n"
                 "  %lo = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
                 "  %hi = stablehlo.constant dense<[2, -1]> : tensor<2xi64>\n"
                 "  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>\n"
                 "  %p = stablehlo.dynamic_pad %x, %z, %lo, %hi, %in : (tensor<?x2xf32>, tensor<f32>, tensor<2xi64>, "
                 "tensor<2xi64>, "
                 "tensor<2xi64>) -> tensor<?x?xf32>\n"
                 "  return %p : tensor<?x?xf32>\n"
                 "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(3, 2)), NULL);
    const struct graph_op *p = find_op(r, GRAPH_OP_PAD);
    expect_type(p->results[0].type, "tensor<8x3xf32>"); /* 3 + 3 + 2; 1 + 2 + 1 - 1 */
    expect_list(p, "edge_padding_low", (int64_t[]){3, 1}, 2);
    expect_list(p, "edge_padding_high", (int64_t[]){2, -1}, 2);
    expect_list(p, "interior_padding", (int64_t[]){0, 1}, 2);
    assert_int_equal(count(r, GRAPH_OP_DYNAMIC_PAD), 0);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){3, 2}, 3)}, 1);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_dynamic_gather_becomes_gather(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(
        "func.func @main(%x: tensor<?x5xf32>, %idx: tensor<2x1xi64>) -> tensor<2x?xf32> {\n"
        "  %n0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x5xf32>) -> tensor<i32>\n"
        "  %n = stablehlo.convert %n0 : (tensor<i32>) -> tensor<i64>\n"
        "  %c2 = stablehlo.constant dense<2> : tensor<i64>\n"
        "  %w = stablehlo.subtract %n, %c2 : tensor<i64>\n"
        "  %w1 = stablehlo.reshape %w : (tensor<i64>) -> tensor<1xi64>\n"
        "  %one = stablehlo.constant dense<1> : tensor<1xi64>\n"
        "  %sz = stablehlo.concatenate %one, %w1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
        "  %g = \"stablehlo.dynamic_gather\"(%x, %idx, %sz) {dimension_numbers = #stablehlo.gather<offset_dims = [1], "
        "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<?x5xf32>, "
        "tensor<2x1xi64>, "
        "tensor<2xi64>) -> tensor<2x?xf32>\n"
        "  return %g : tensor<2x?xf32>\n"
        "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(4, 5), NONE), NULL);
    const struct graph_op *g = find_op(r, GRAPH_OP_GATHER);
    expect_type(g->results[0].type, "tensor<2x3xf32>");
    expect_list(g, "slice_sizes", (int64_t[]){1, 3}, 2);
    assert_non_null(graph_op_attr(g, "dimension_numbers"));
    struct base_tensor *idx = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI64, 2, (int64_t[]){2, 1}, &idx), BASE_OK);
    base_elem_set_i64(idx->dtype, idx->data, 0, 2);
    base_elem_set_i64(idx->dtype, idx->data, 1, 0);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){4, 5}, 4), idx}, 2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_dynamic_conv_becomes_convolution(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(
        "func.func @main(%x: tensor<1x?x2xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x?x4xf32> {\n"
        "  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<1x?x2xf32>) -> tensor<i32>\n"
        "  %c8 = stablehlo.constant dense<8> : tensor<i32>\n"
        "  %lo = stablehlo.subtract %c8, %n : tensor<i32>\n"
        "  %lo1 = stablehlo.reshape %lo : (tensor<i32>) -> tensor<1x1xi32>\n"
        "  %hi = stablehlo.constant dense<1> : tensor<1x1xi32>\n"
        "  %pad = stablehlo.concatenate %lo1, %hi, dim = 1 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>\n"
        "  %y = \"stablehlo.dynamic_conv\"(%x, %k, %pad) {batch_group_count = 1 : i64, dimension_numbers = "
        "#stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: "
        "2>} "
        ": (tensor<1x?x2xf32>, tensor<3x2x4xf32>, tensor<1x2xi32>) -> tensor<1x?x4xf32>\n"
        "  return %y : tensor<1x?x4xf32>\n"
        "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(1, 6, 2), NONE), NULL);
    const struct graph_op *c = find_op(r, GRAPH_OP_CONVOLUTION);
    /* padded 2 + 6 + 1 = 9, window 3, stride 2: 4 */
    expect_type(c->results[0].type, "tensor<1x4x4xf32>");
    const struct graph_attr *pad = graph_op_attr(c, "padding");
    assert_true(pad && pad->kind == GRAPH_ATTR_ELEMENTS && pad->u.elements.value);
    const struct base_tensor *pv = pad->u.elements.value;
    assert_int_equal(pv->count, 2);
    assert_int_equal(base_elem_get_i64(pv->dtype, pv->data, 0), 2); /* 8 - 6 */
    assert_int_equal(base_elem_get_i64(pv->dtype, pv->data, 1), 1);
    assert_int_equal(count(r, GRAPH_OP_DYNAMIC_CONV), 0);
    expect_same_outputs(m, r,
                        (struct base_tensor *[]){input(BASE_DT_F32, 3, (int64_t[]){1, 6, 2}, 5),
                                                 input(BASE_DT_F32, 3, (int64_t[]){3, 2, 4}, 6)},
                        2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_real_dynamic_slice_becomes_slice_or_dynamic_slice(void **state)
{
    (void)state;
    /* limits known: a slice; limits = start + constant with start from the
     * data: a dynamic_slice of those sizes (upstream's two forms) */
    struct graph_module *m = parse_ok(
        "func.func @main(%x: tensor<?x4xf32>, %st: tensor<2xi32>) -> (tensor<?x2xf32>, tensor<?x?xf32>) {\n"
        "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
        "  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
        "  %one = stablehlo.constant dense<1> : tensor<1xi32>\n"
        "  %lim = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
        "  %k = stablehlo.constant dense<[0, 3]> : tensor<2xi32>\n"
        "  %lim2 = stablehlo.add %lim, %k : tensor<2xi32>\n"
        "  %z = stablehlo.constant dense<0> : tensor<2xi32>\n"
        "  %s1 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>\n"
        "  %a = stablehlo.real_dynamic_slice %x, %z, %lim2, %s1 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, "
        "tensor<2xi32>) -> tensor<?x2xf32>\n"
        "  %sz = stablehlo.constant dense<[2, 3]> : tensor<2xi32>\n"
        "  %l = stablehlo.add %st, %sz : tensor<2xi32>\n"
        "  %u = stablehlo.constant dense<1> : tensor<2xi32>\n"
        "  %b = stablehlo.real_dynamic_slice %x, %st, %l, %u : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, "
        "tensor<2xi32>) -> tensor<?x?xf32>\n"
        "  return %a, %b : tensor<?x2xf32>, tensor<?x?xf32>\n"
        "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(5, 4), NONE), NULL);
    const struct graph_op *s = find_op(r, GRAPH_OP_SLICE);
    expect_type(s->results[0].type, "tensor<5x2xf32>");
    expect_list(s, "start_indices", (int64_t[]){0, 0}, 2);
    expect_list(s, "limit_indices", (int64_t[]){5, 4}, 2);
    expect_list(s, "strides", (int64_t[]){1, 2}, 2);
    const struct graph_op *ds = find_op(r, GRAPH_OP_DYNAMIC_SLICE);
    expect_type(ds->results[0].type, "tensor<2x3xf32>");
    expect_list(ds, "slice_sizes", (int64_t[]){2, 3}, 2);
    assert_int_equal(ds->n_operands, 3);
    assert_int_equal(count(r, GRAPH_OP_REAL_DYNAMIC_SLICE), 0);
    struct base_tensor *st = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI32, 1, (int64_t[]){2}, &st), BASE_OK);
    base_elem_set_i64(st->dtype, st->data, 0, 1);
    base_elem_set_i64(st->dtype, st->data, 1, 1);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){5, 4}, 7), st}, 2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

/* A start index that is a scalar argument is data, not a dimension
 * argument: the dynamic_slice form needs only the sizes (the limit adds
 * them to the same computation as the start, made twice, as JAX does). */
static void test_refine_real_dynamic_slice_start_from_a_scalar_argument_is_data(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%i: tensor<i32>, %x: tensor<?xf32>) -> tensor<?xf32> {\n"
                 "  %s = stablehlo.reshape %i : (tensor<i32>) -> tensor<1xi32>\n"
                 "  %s2 = stablehlo.reshape %i : (tensor<i32>) -> tensor<1xi32>\n"
                 "  %two = stablehlo.constant dense<2> : tensor<1xi32>\n"
                 "  %l = stablehlo.add %s2, %two : tensor<1xi32>\n"
                 "  %one = stablehlo.constant dense<1> : tensor<1xi32>\n"
                 "  %y = stablehlo.real_dynamic_slice %x, %s, %l, %one : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, "
                 "tensor<1xi32>) -> tensor<?xf32>\n"
                 "  return %y : tensor<?xf32>\n"
                 "}\n");
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SCALAR, SHAPE(6)), &res);
    assert_int_equal(res.n_dim_args, 0);
    expect_type(find_op(r, GRAPH_OP_DYNAMIC_SLICE)->results[0].type, "tensor<2xf32>");
    struct base_tensor *i = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI32, 0, NULL, &i), BASE_OK);
    base_elem_set_i64(i->dtype, i->data, 0, 3);
    expect_same_outputs(m, r, (struct base_tensor *[]){i, input(BASE_DT_F32, 1, (int64_t[]){6}, 21)}, 2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_set_dimension_size_becomes_slice(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%x: tensor<8xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {\n"
                 "  %n = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
                 "  %s = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<8xf32>, tensor<i32>) -> tensor<?xf32>\n"
                 "  return %s : tensor<?xf32>\n"
                 "}\n");
    struct graph_module *r = refine_ok(m, ARGS(NONE, SHAPE(5)), NULL);
    const struct graph_op *s = find_op(r, GRAPH_OP_SLICE);
    expect_type(s->results[0].type, "tensor<5xf32>");
    assert_int_equal(count(r, GRAPH_OP_SET_DIMENSION_SIZE), 0);
    expect_same_outputs(
        m, r,
        (struct base_tensor *[]){input(BASE_DT_F32, 1, (int64_t[]){8}, 8), input(BASE_DT_F32, 1, (int64_t[]){5}, 9)},
        2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

/* ------------------------------------------------------ dimension arguments */

/* JAX's export with a dimension variable: %arg0 is the batch size. */
static const char JAX_ADD[] = "func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x4xf32>, %arg2: "
                              "tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {\n"
                              "  %0 = stablehlo.constant dense<2> : tensor<1xi32>\n"
                              "  %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>\n"
                              "  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>\n"
                              "  %3 = stablehlo.constant dense<4> : tensor<1xi32>\n"
                              "  %4 = stablehlo.concatenate %0, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, "
                              "tensor<1xi32>) -> tensor<3xi32>\n"
                              "  %5 = stablehlo.dynamic_broadcast_in_dim %arg1, %4, dims = [1, 2] : (tensor<?x4xf32>, "
                              "tensor<3xi32>) -> tensor<2x?x4xf32>\n"
                              "  %6 = stablehlo.add %5, %arg2 : tensor<2x?x4xf32>\n"
                              "  return %6 : tensor<2x?x4xf32>\n"
                              "}\n";

static void test_refine_dimension_argument_is_inferred(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(JAX_ADD);
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SCALAR, SHAPE(3, 4), SHAPE(2, 3, 4)), &res);
    assert_int_equal(res.n_dim_args, 1);
    assert_int_equal(res.dim_args[0].arg, 0);
    assert_int_equal(res.dim_args[0].value, 3);
    assert_int_equal(res.dim_args[0].how, GRAPH_REFINE_INFERRED);
    expect_type(find_op(r, GRAPH_OP_BROADCAST_IN_DIM)->results[0].type, "tensor<2x3x4xf32>");
    /* the refined program keeps the argument (inputs line up) but no longer reads it */
    const struct graph_block *b = &graph_module_entry(r)->regions[0].blocks[0];
    assert_int_equal(b->n_args, 3);
    expect_same_outputs(m, r,
                        (struct base_tensor *[]){scalar_i64(3), input(BASE_DT_F32, 2, (int64_t[]){3, 4}, 10),
                                                 input(BASE_DT_F32, 3, (int64_t[]){2, 3, 4}, 11)},
                        3);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_dimension_argument_given_or_guessed(void **state)
{
    (void)state;
    /* nothing relates %arg0 to %arg1's size: an error naming it, unless it is
     * given or guessed (the size of every dynamic dimension) */
    static const char src[] = "func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32>) -> tensor<?xi32> {\n"
                              "  %c = stablehlo.constant dense<2> : tensor<i64>\n"
                              "  %m = stablehlo.multiply %arg0, %c : tensor<i64>\n"
                              "  %s = stablehlo.reshape %m : (tensor<i64>) -> tensor<1xi64>\n"
                              "  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>\n"
                              "  return %i : tensor<?xi32>\n"
                              "}\n";
    refine_fails(src, ARGS(SCALAR, SHAPE(5)), false, BASE_ERR_INVALID, 5, "argument 0 (%arg0)", "nothing determines");
    struct graph_module *m = parse_ok(src), *r = NULL;
    struct graph_refine_result res;
    struct base_diag d;
    assert_int_equal(refine(m, ARGS(SCALAR, SHAPE(5)), true, &r, &res, &d), BASE_OK);
    assert_int_equal(res.n_dim_args, 1);
    assert_int_equal(res.dim_args[0].value, 5);
    assert_int_equal(res.dim_args[0].how, GRAPH_REFINE_GUESSED);
    expect_type(find_op(r, GRAPH_OP_IOTA)->results[0].type, "tensor<10xi32>");
    graph_module_destroy(r);
    r = refine_ok(m, ARGS(VALUE(7), SHAPE(5)), &res);
    assert_int_equal(res.dim_args[0].how, GRAPH_REFINE_GIVEN);
    expect_type(find_op(r, GRAPH_OP_IOTA)->results[0].type, "tensor<14xi32>");
    expect_same_outputs(m, r, (struct base_tensor *[]){scalar_i64(7), input(BASE_DT_F32, 1, (int64_t[]){5}, 12)}, 2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_scalar_argument_that_is_data_stays_data(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(
        "func.func @main(%k: tensor<i32>, %x: tensor<?xi32>) -> tensor<?xi32> {\n"
        "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xi32>) -> tensor<i32>\n"
        "  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
        "  %b = stablehlo.dynamic_broadcast_in_dim %k, %n1, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>\n"
        "  %y = stablehlo.add %x, %b : tensor<?xi32>\n"
        "  return %y : tensor<?xi32>\n"
        "}\n");
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SCALAR, SHAPE(3)), &res);
    assert_int_equal(res.n_dim_args, 0); /* %k is data: it stays an input the program reads */
    struct base_tensor *k = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI32, 0, NULL, &k), BASE_OK);
    base_elem_set_i64(k->dtype, k->data, 0, 40);
    expect_same_outputs(m, r, (struct base_tensor *[]){k, input(BASE_DT_SI32, 1, (int64_t[]){3}, 13)}, 2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

/* -------------------------------------------------- assertions, calls, loops */

static const char ASSERTED[] =
    "func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
    "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "  %c = stablehlo.constant dense<2> : tensor<i32>\n"
    "  %ok = stablehlo.compare GE, %n, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = \"Expected value >= 2 for dimension variable "
    "'b'. Obtained 'b' = {0}.\", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()\n"
    "  %y = stablehlo.abs %x : tensor<?x4xf32>\n"
    "  return %y : tensor<?x4xf32>\n"
    "}\n";

static void test_refine_shape_assertion_that_holds_is_removed(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(ASSERTED);
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(3, 4)), &res);
    assert_int_equal(res.n_assertions, 1);
    assert_int_equal(count(r, GRAPH_OP_CUSTOM_CALL), 0);
    assert_int_equal(count(r, GRAPH_OP_COMPARE), 0);
    expect_type(find_op(r, GRAPH_OP_ABS)->results[0].type, "tensor<3x4xf32>");
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_failing_shape_assertion_is_located_with_its_values(void **state)
{
    (void)state;
    refine_fails(ASSERTED, ARGS(SHAPE(1, 4)), false, BASE_ERR_CHECK, 5, "@shape_assertion failed", "Obtained 'b' = 1.");
}

static void test_refine_calls_are_specialised_per_shape(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {\n"
                 "  %x = func.call @twice(%a) : (tensor<?xf32>) -> tensor<?xf32>\n"
                 "  %y = func.call @twice(%b) : (tensor<?xf32>) -> tensor<?xf32>\n"
                 "  %z = func.call @twice(%a) : (tensor<?xf32>) -> tensor<?xf32>\n"
                 "  %s = stablehlo.add %x, %z : tensor<?xf32>\n"
                 "  return %s, %y : tensor<?xf32>, tensor<?xf32>\n"
                 "}\n"
                 "func.func private @twice(%v: tensor<?xf32>) -> tensor<?xf32> {\n"
                 "  %r = stablehlo.add %v, %v : tensor<?xf32>\n"
                 "  return %r : tensor<?xf32>\n"
                 "}\n");
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(3), SHAPE(5)), &res);
    assert_int_equal(res.n_specialized, 2); /* @twice for 3 and for 5 */
    const struct graph_op *t3 = graph_module_find_func(r, "twice"), *t5 = graph_module_find_func(r, "twice_1");
    assert_non_null(t3);
    assert_non_null(t5);
    expect_type(graph_func_result_type(t3, 0), "tensor<3xf32>");
    expect_type(graph_func_result_type(t5, 0), "tensor<5xf32>");
    expect_same_outputs(
        m, r,
        (struct base_tensor *[]){input(BASE_DT_F32, 1, (int64_t[]){3}, 14), input(BASE_DT_F32, 1, (int64_t[]){5}, 15)},
        2);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_while_loop_with_dynamic_state(void **state)
{
    (void)state;
    struct graph_module *m =
        parse_ok("func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
                 "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
                 "  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<?xf32>\n"
                 "  cond {\n"
                 "    %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
                 "    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                 "    stablehlo.return %p : tensor<i1>\n"
                 "  } do {\n"
                 "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
                 "    %j = stablehlo.add %i, %one : tensor<i32>\n"
                 "    %w = stablehlo.add %v, %v : tensor<?xf32>\n"
                 "    stablehlo.return %j, %w : tensor<i32>, tensor<?xf32>\n"
                 "  }\n"
                 "  return %r#1 : tensor<?xf32>\n"
                 "}\n");
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(6)), NULL);
    expect_type(find_op(r, GRAPH_OP_WHILE)->results[1].type, "tensor<6xf32>");
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 1, (int64_t[]){6}, 16)}, 1);
    graph_module_destroy(r);
    graph_module_destroy(m);
}

/* JAX's current exports: @main computes the dimension variable from the
 * shape (get_dimension_size) and calls the exported function with it; the
 * callee asserts on it. */
static const char JAX_WRAPPED[] =
    "func.func public @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
    "  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "  %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>\n"
    "  %2 = call @_wrapped_jax_export_main(%1, %arg0) : (tensor<i64>, tensor<?x4xf32>) -> tensor<?x4xf32>\n"
    "  return %2 : tensor<?x4xf32>\n"
    "}\n"
    "func.func private @_wrapped_jax_export_main(%arg0: tensor<i64> {jax.global_constant = \"b\"}, "
    "%arg1: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
    "  %c = stablehlo.constant dense<2> : tensor<i64>\n"
    "  %ok = stablehlo.compare GE, %arg0, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "  stablehlo.custom_call @shape_assertion(%ok, %arg0) {error_message = \"Expected value >= 2 for dimension "
    "variable 'b'; 'b' = {0}\", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()\n"
    "  %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>\n"
    "  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
    "  %2 = stablehlo.constant dense<4> : tensor<1xi32>\n"
    "  %3 = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  %4 = stablehlo.dynamic_iota %3, dim = 0 : (tensor<2xi32>) -> tensor<?x4xf32>\n"
    "  %5 = stablehlo.add %arg1, %4 : tensor<?x4xf32>\n"
    "  %6 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<f32>\n"
    "  %7 = stablehlo.dynamic_broadcast_in_dim %6, %3, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>\n"
    "  %8 = stablehlo.divide %5, %7 : tensor<?x4xf32>\n"
    "  return %8 : tensor<?x4xf32>\n"
    "}\n";

static void test_refine_jax_wrapper_specialises_the_exported_function(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(JAX_WRAPPED);
    struct graph_refine_result res;
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(3, 4)), &res);
    assert_int_equal(res.n_specialized, 1);
    assert_int_equal(res.n_assertions, 1);
    assert_int_equal(res.n_rewritten, 2);
    const struct graph_op *f = graph_module_find_func(r, "_wrapped_jax_export_main");
    assert_non_null(f);
    expect_type(graph_func_result_type(f, 0), "tensor<3x4xf32>");
    assert_int_equal(count(r, GRAPH_OP_CUSTOM_CALL) + count(r, GRAPH_OP_GET_DIMENSION_SIZE), 0);
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){3, 4}, 19)}, 1);
    graph_module_destroy(r);
    graph_module_destroy(m);
    /* a size the assertion rejects: refinement and the interpreter both say so */
    refine_fails(JAX_WRAPPED, ARGS(SHAPE(1, 4)), false, BASE_ERR_CHECK, 10, "@shape_assertion failed", "'b' = 1");
    m = parse_ok(JAX_WRAPPED);
    struct base_tensor *x = input(BASE_DT_F32, 2, (int64_t[]){1, 4}, 20);
    struct interp_options o = {0};
    struct interp_result ir;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_run(m, NULL, &x, 1, &o, &ir, &d), BASE_ERR_CHECK);
    assert_int_equal(d.line, 10);
    assert_non_null(strstr(d.msg, "'b' = 1"));
    interp_result_free(&ir);
    base_tensor_release(x);
    graph_module_destroy(m);
}

/* ------------------------------------------------------ bounded dynamism */

static const char BOUNDED[] =
    "func.func @main(%x: tensor<?x5xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x5xf32, #stablehlo.bounds<8, ?>> {\n"
    "  %y = stablehlo.negate %x : tensor<?x5xf32, #stablehlo.bounds<8, ?>>\n"
    "  return %y : tensor<?x5xf32, #stablehlo.bounds<8, ?>>\n"
    "}\n";

static void test_refine_bounded_dimension_runs_at_the_size_given(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(BOUNDED);
    assert_true(graph_module_is_dynamic(m));
    struct graph_module *r = refine_ok(m, ARGS(SHAPE(6, 5)), NULL);
    expect_type(find_op(r, GRAPH_OP_NEGATE)->results[0].type, "tensor<6x5xf32>");
    expect_same_outputs(m, r, (struct base_tensor *[]){input(BASE_DT_F32, 2, (int64_t[]){6, 5}, 17)}, 1);
    graph_module_destroy(r);
    /* no size given: its bound */
    r = refine_ok(m, ARGS(NONE), NULL);
    expect_type(graph_func_result_type(graph_module_entry(r), 0), "tensor<8x5xf32>");
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_size_above_the_bound_is_an_error(void **state)
{
    (void)state;
    refine_fails(BOUNDED, ARGS(SHAPE(9, 5)), false, BASE_ERR_INVALID, 1, "argument 0 (%x) of @main: dimension 0",
                 "above its bound 8");
}

/* ------------------------------------------------------------------ errors */

static void test_refine_missing_shape_names_argument_and_dimension(void **state)
{
    (void)state;
    refine_fails(JAX_ADD, ARGS(SCALAR, SHAPE(3, 4)), false, BASE_ERR_INVALID, 1,
                 "argument 2 (%arg2) of @main: dimension 1 is dynamic", "no shape was given");
}

static void test_refine_given_shape_contradicting_the_type_is_an_error(void **state)
{
    (void)state;
    refine_fails(JAX_ADD, ARGS(SCALAR, SHAPE(3, 5), SHAPE(2, 3, 4)), false, BASE_ERR_INVALID, 1,
                 "argument 1 (%arg1) of @main: dimension 1 is given as 5", "its type says 4");
}

static void test_refine_inconsistent_shapes_name_op_and_arguments(void **state)
{
    (void)state;
    /* %arg1 makes the batch 3, %arg2 says 5: the add (line 8) cannot hold */
    refine_fails(JAX_ADD, ARGS(SCALAR, SHAPE(3, 4), SHAPE(2, 5, 4)), false, BASE_ERR_INVALID, 8,
                 "stablehlo.add: dimension 1 of operands 0 and 1 differ: 3", "5 (dimension 1 of argument 2 (%arg2))");
    /* a dimension argument given that contradicts the shapes */
    refine_fails(JAX_ADD, ARGS(VALUE(4), SHAPE(3, 4), SHAPE(2, 3, 4)), false, BASE_ERR_INVALID, 7,
                 "stablehlo.dynamic_broadcast_in_dim", "4 (the value of dimension argument 0 (%arg0))");
}

static void test_refine_data_dependent_shape_is_an_error(void **state)
{
    (void)state;
    refine_fails("func.func @main(%s: tensor<1xi32>) -> tensor<?xi32> {\n"
                 "  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>\n"
                 "  return %i : tensor<?xi32>\n"
                 "}\n",
                 ARGS(NONE), false, BASE_ERR_UNSUPPORTED, 2, "stablehlo.dynamic_iota: result 0 dimension 0",
                 "computed at run time");
}

/* ------------------------------------------------------------ the others */

static void test_refine_static_program_refines_to_itself(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok("func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
                                      "  %s = stablehlo.add %x, %y : tensor<2x3xf32>\n"
                                      "  %t = stablehlo.multiply %s, %y : tensor<2x3xf32>\n"
                                      "  return %t : tensor<2x3xf32>\n"
                                      "}\n");
    assert_false(graph_module_is_dynamic(m));
    struct graph_module *r = refine_ok(m, NULL, 0, NULL);
    assert_true(graph_module_equal(m, r));
    graph_module_destroy(r);
    graph_module_destroy(m);
}

static void test_refine_op_shapes_from_concrete_operands(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(
        "func.func @main(%x: tensor<?x4xf32>, %s: tensor<3xi64>) -> tensor<?x?x?xf32> {\n"
        "  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi64>) -> "
        "tensor<?x?x?xf32>\n"
        "  return %b : tensor<?x?x?xf32>\n"
        "}\n");
    const struct graph_op *op = find_op(m, GRAPH_OP_DYNAMIC_BROADCAST_IN_DIM);
    struct base_tensor *x = input(BASE_DT_F32, 2, (int64_t[]){1, 4}, 18), *s = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI64, 1, (int64_t[]){3}, &s), BASE_OK);
    int64_t want[3] = {2, 7, 4};
    for (int i = 0; i < 3; i++) base_elem_set_i64(s->dtype, s->data, (size_t)i, want[i]);
    int ranks[1];
    int64_t dims[1][GRAPH_MAX_RANK];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_refine_op_shapes(op, (const struct base_tensor *[]){x, s}, ranks, dims, &d), BASE_OK);
    assert_int_equal(ranks[0], 3);
    for (int i = 0; i < 3; i++) assert_int_equal(dims[0][i], want[i]);
    /* an operand dim that is neither 1 nor the result's */
    base_elem_set_i64(s->dtype, s->data, 2, 5);
    assert_int_equal(graph_refine_op_shapes(op, (const struct base_tensor *[]){x, s}, ranks, dims, &d),
                     BASE_ERR_INVALID);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "differ: 4"));
    base_tensor_release(x);
    base_tensor_release(s);
    graph_module_destroy(m);
}

/* Every static program of the testdata corpus refines to itself, or (when it
 * has dynamic ops or dead code) to a program whose checks give the same
 * verdicts on the interpreter. */
static void test_refine_static_corpus_programs_are_unchanged_or_equivalent(void **state)
{
    (void)state;
    size_t n;
    char **paths = test_dir_paths(test_shared_path("conformance/stablehlo-testdata"), &n);
    int programs = 0, changed = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(paths[i]);
        if (len < 5 || strcmp(paths[i] + len - 5, ".mlir")) continue;
        struct base_diag d;
        base_diag_clear(&d);
        struct graph_module *m = NULL, *r = NULL;
        if (graph_parse_file(paths[i], &m, &d) != BASE_OK || graph_verify(m, &d) != BASE_OK) fail_msg("%s", paths[i]);
        const struct graph_op *e = graph_module_entry(m);
        if (!e || e->regions[0].blocks[0].n_args) {
            graph_module_destroy(m);
            continue;
        }
        programs++;
        struct graph_refine_options o = {0};
        if (graph_refine(m, &o, &r, NULL, &d) != BASE_OK || graph_verify(r, &d) != BASE_OK)
            fail_msg("%s: %s", paths[i], d.msg);
        if (!graph_module_equal(m, r)) {
            changed++;
            struct interp_options io = {0};
            struct interp_result x, y;
            enum base_status s1 = interp_run(m, NULL, NULL, 0, &io, &x, &d);
            enum base_status s2 = interp_run(r, NULL, NULL, 0, &io, &y, &d);
            if (s1 != s2 || x.n_checks != y.n_checks || x.n_checks_failed != y.n_checks_failed)
                fail_msg("%s: the refined program's checks differ", paths[i]);
            interp_result_free(&x);
            interp_result_free(&y);
        }
        graph_module_destroy(r);
        graph_module_destroy(m);
    }
    test_paths_free(paths, n);
    print_message("%d static programs: %d unchanged, %d refined\n", programs, programs - changed, changed);
    assert_true(programs > 1000);
}

TEST_MAIN(NULL, NULL, T(test_refine_dynamic_broadcast_in_dim_becomes_broadcast_in_dim),
          T(test_refine_dynamic_reshape_and_iota_become_static), T(test_refine_dynamic_pad_becomes_pad),
          T(test_refine_dynamic_gather_becomes_gather), T(test_refine_dynamic_conv_becomes_convolution),
          T(test_refine_real_dynamic_slice_becomes_slice_or_dynamic_slice),
          T(test_refine_real_dynamic_slice_start_from_a_scalar_argument_is_data),
          T(test_refine_set_dimension_size_becomes_slice), T(test_refine_dimension_argument_is_inferred),
          T(test_refine_dimension_argument_given_or_guessed), T(test_refine_scalar_argument_that_is_data_stays_data),
          T(test_refine_shape_assertion_that_holds_is_removed),
          T(test_refine_failing_shape_assertion_is_located_with_its_values),
          T(test_refine_calls_are_specialised_per_shape), T(test_refine_while_loop_with_dynamic_state),
          T(test_refine_jax_wrapper_specialises_the_exported_function),
          T(test_refine_bounded_dimension_runs_at_the_size_given), T(test_refine_size_above_the_bound_is_an_error),
          T(test_refine_missing_shape_names_argument_and_dimension),
          T(test_refine_given_shape_contradicting_the_type_is_an_error),
          T(test_refine_inconsistent_shapes_name_op_and_arguments), T(test_refine_data_dependent_shape_is_an_error),
          T(test_refine_static_program_refines_to_itself),
          T(test_refine_static_corpus_programs_are_unchanged_or_equivalent), T(test_refine_op_shapes_from_concrete_operands))
