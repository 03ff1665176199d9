/* The IR builder (graph.h "Building"): each program is built in C and written
 * as StableHLO text (pretty form, as JAX prints it); the built module must
 * verify, equal the parsed text (graph_module_equal, and the same value and
 * op ids), print to text that parses back to an equal module with the same
 * ids, and give the interpreter bit-identical outputs.  Then the errors: the
 * op rules are graph_verify's (located), misuse of the builder is reported by
 * graph_builder_finish, never a crash. */
#include "tests/prog.h"

#include "graph/graph.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static struct graph_builder *new_builder(void)
{
    struct graph_builder *b = NULL;
    assert_int_equal(graph_builder_create("built.mlir", &b), BASE_OK);
    return b;
}

static struct graph_module *finish_ok(struct graph_builder *b)
{
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_builder_finish(b, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("graph_builder_finish failed");
    }
    graph_builder_destroy(b);
    return m;
}

/* The same value and op ids, block by block (the modules are equal). */
static void expect_same_ids_block(const struct graph_block *a, const struct graph_block *b, int depth)
{
    assert_true(depth < 64);
    assert_int_equal(a->n_args, b->n_args);
    assert_int_equal(a->n_ops, b->n_ops);
    for (int i = 0; i < a->n_args; i++) {
        assert_int_equal(a->args[i].id, b->args[i].id);
        assert_ptr_equal(a->args[i].block, a);
        assert_int_equal(a->args[i].index, i);
    }
    for (int i = 0; i < a->n_ops; i++) {
        const struct graph_op *x = a->ops[i], *y = b->ops[i];
        assert_int_equal(x->id, y->id);
        assert_ptr_equal(x->parent, a);
        for (int k = 0; k < x->n_results; k++) {
            assert_int_equal(x->results[k].id, y->results[k].id);
            assert_ptr_equal(x->results[k].def, x);
            assert_int_equal(x->results[k].index, k);
        }
        for (int r = 0; r < x->n_regions; r++) {
            assert_ptr_equal(x->regions[r].parent, x);
            for (int k = 0; k < x->regions[r].n_blocks; k++) {
                assert_ptr_equal(x->regions[r].blocks[k].parent, &x->regions[r]);
                expect_same_ids_block(&x->regions[r].blocks[k], &y->regions[r].blocks[k], depth + 1);
            }
        }
    }
}

static void expect_same_ids(const struct graph_module *a, const struct graph_module *b)
{
    assert_int_equal(a->n_values, b->n_values);
    assert_int_equal(a->n_ops, b->n_ops);
    expect_same_ids_block(&a->body, &b->body, 0);
}

static void run_ok(const struct graph_module *m, struct base_tensor *const *in, int n, struct interp_result *res)
{
    struct interp_options opt = {.num_replicas = 1, .num_partitions = 1};
    struct base_diag d;
    base_diag_clear(&d);
    memset(res, 0, sizeof *res);
    if (interp_run(m, NULL, in, n, &opt, res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter run failed");
    }
}

static void expect_bits_equal(const struct base_tensor *a, const struct base_tensor *b)
{
    assert_int_equal(a->dtype, b->dtype);
    assert_int_equal(a->rank, b->rank);
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < a->rank; i++) assert_int_equal(a->dims[i], b->dims[i]);
    assert_memory_equal(a->data, b->data, base_tensor_nbytes(a));
}

/* Random inputs for the entry's arguments. */
static struct base_tensor **inputs_for(const struct graph_module *m, int *n)
{
    const struct graph_block *blk = &graph_module_entry(m)->regions[0].blocks[0];
    struct base_tensor **in = calloc((size_t)blk->n_args + 1, sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < blk->n_args; i++) {
        const struct graph_type *t = blk->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[i], test_seed() * 100 + (uint64_t)i, 1.0), BASE_OK);
    }
    *n = blk->n_args;
    return in;
}

/* (a) verifies, (b) equals the parsed text, (c) prints to an equal module,
 * (d) runs as the parsed text does.  Takes built. */
static void expect_equivalent(struct graph_module *built, const char *text)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_verify(built, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("the built module does not verify");
    }
    struct graph_module *parsed = prog_parse(text);
    char *printed = NULL;
    size_t len = 0;
    assert_int_equal(graph_print_str(built, &printed, &len), BASE_OK);
    if (!graph_module_equal(built, parsed)) {
        fprintf(stderr, "built, printed:\n%s\n", printed);
        fail_msg("the built module differs from the parsed text");
    }
    expect_same_ids(built, parsed);
    struct graph_module *back = prog_parse(printed);
    assert_true(graph_module_equal(built, back));
    expect_same_ids(built, back);
    int n = 0;
    struct base_tensor **in = inputs_for(parsed, &n);
    struct interp_result rb, rp;
    run_ok(built, in, n, &rb);
    run_ok(parsed, in, n, &rp);
    assert_int_equal(rb.n_outputs, rp.n_outputs);
    assert_true(rb.n_outputs > 0);
    for (int i = 0; i < rb.n_outputs; i++) expect_bits_equal(rb.outputs[i], rp.outputs[i]);
    interp_result_free(&rb);
    interp_result_free(&rp);
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    free(in);
    free(printed);
    graph_module_destroy(back);
    graph_module_destroy(parsed);
    graph_module_destroy(built);
}

#define TY(...) ((const struct graph_type *[]){__VA_ARGS__})
#define VS(...) ((struct graph_value *[]){__VA_ARGS__})
#define DIMS(...) ((const int64_t[]){__VA_ARGS__})

/* ---------------------------------------------------------------- programs */

static void test_builder_elementwise_matches_text(void **state)
{
    (void)state;
    const char *text = "module @ew attributes {mhlo.num_partitions = 1 : i32} {\n"
                       "  func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {\n"
                       "    %0 = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
                       "    %1 = stablehlo.multiply %x, %0 : tensor<2x3xf32>\n"
                       "    %2 = stablehlo.tanh %1 : tensor<2x3xf32>\n"
                       "    %3 = stablehlo.subtract %2, %x : tensor<2x3xf32>\n"
                       "    return %3 : tensor<2x3xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    graph_builder_set_module_name(b, "ew");
    graph_builder_set_module_attr(b, "mhlo.num_partitions", graph_builder_attr_int_typed(b, 1, BASE_DT_SI32));
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 2, DIMS(2, 3));
    const struct graph_type *row = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(3));
    struct graph_value *a[2];
    graph_builder_func(b, "main", TY(t, row), (const char *[]){"x", "y"}, 2, &t, 1, a);
    struct graph_op *bc = graph_builder_op(b, GRAPH_OP_BROADCAST_IN_DIM, &a[1], 1, &t, 1);
    graph_builder_set_attr(b, bc, "broadcast_dimensions", graph_builder_attr_dense_i64(b, DIMS(1), 1));
    struct graph_value *m = graph_builder_op1(b, GRAPH_OP_MULTIPLY, VS(a[0], graph_builder_result(bc, 0)), 2, t);
    struct graph_value *th = graph_builder_op1(b, GRAPH_OP_TANH, &m, 1, t);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_SUBTRACT, VS(th, a[0]), 2, t);
    graph_builder_return(b, &s, 1);
    struct graph_module *built = finish_ok(b);
    assert_string_equal(built->body.ops[0]->regions[0].blocks[0].args[0].name, "x");
    expect_equivalent(built, text);
}

static void test_builder_dot_general_with_dimension_numbers(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {\n"
                       "    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],"
                       " precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
                       "    return %0 : tensor<2x3x5xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *ta = graph_builder_tensor_type(b, BASE_DT_F32, 3, DIMS(2, 3, 4));
    const struct graph_type *tb = graph_builder_tensor_type(b, BASE_DT_F32, 3, DIMS(2, 4, 5));
    const struct graph_type *tr = graph_builder_tensor_type(b, BASE_DT_F32, 3, DIMS(2, 3, 5));
    struct graph_value *a[2];
    graph_builder_func(b, "main", TY(ta, tb), NULL, 2, &tr, 1, a);
    struct graph_op *dot = graph_builder_op(b, GRAPH_OP_DOT_GENERAL, a, 2, &tr, 1);
    graph_builder_set_attr(b, dot, "dot_dimension_numbers",
                           graph_builder_attr_dot_dims(b, DIMS(0), DIMS(0), 1, DIMS(2), DIMS(1), 1));
    const struct graph_attr *prec[2] = {graph_builder_attr_keyword(b, "stablehlo.precision", "DEFAULT"),
                                        graph_builder_attr_keyword(b, "stablehlo.precision", "HIGHEST")};
    graph_builder_set_attr(b, dot, "precision_config", graph_builder_attr_array(b, prec, 2));
    struct graph_value *r = graph_builder_result(dot, 0);
    graph_builder_return(b, &r, 1);
    expect_equivalent(finish_ok(b), text);
}

static void test_builder_reduce_with_a_region(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%x: tensor<4x6xf32>) -> (tensor<4xf32>, tensor<6xf32>) {\n"
                       "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                       "    %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] :"
                       " (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>\n"
                       "    %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
                       "    %1 = stablehlo.reduce(%x init: %m) across dimensions = [0] :"
                       " (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>\n"
                       "     reducer(%p: tensor<f32>, %q: tensor<f32>) {\n"
                       "      %r = stablehlo.maximum %p, %q : tensor<f32>\n"
                       "      stablehlo.return %r : tensor<f32>\n"
                       "    }\n"
                       "    return %0, %1 : tensor<4xf32>, tensor<6xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 2, DIMS(4, 6));
    const struct graph_type *s = graph_builder_scalar_type(b, BASE_DT_F32);
    const struct graph_type *res[2] = {graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4)),
                                       graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(6))};
    struct graph_value *x;
    graph_builder_func(b, "main", &t, (const char *[]){"x"}, 1, res, 2, &x);
    struct graph_value *out[2];
    for (int k = 0; k < 2; k++) {
        struct graph_value *init = graph_builder_constant(b, graph_builder_attr_splat_f64(b, s, k ? -INFINITY : 0.0));
        struct graph_op *red = graph_builder_op(b, GRAPH_OP_REDUCE, VS(x, init), 2, &res[k], 1);
        /* given as a dense<> literal: it becomes array<i64: ...>, as the parser makes it */
        graph_builder_set_attr(b, red, "dimensions", graph_builder_attr_elements_i64(b, DIMS(k ? 0 : 1), 1, DIMS(1)));
        struct graph_value *pq[2];
        graph_builder_region(b, red, TY(s, s), 2, pq);
        struct graph_value *r = graph_builder_op1(b, k ? GRAPH_OP_MAXIMUM : GRAPH_OP_ADD, pq, 2, s);
        graph_builder_return(b, &r, 1);
        out[k] = graph_builder_result(red, 0);
    }
    graph_builder_return(b, out, 2);
    struct graph_module *built = finish_ok(b);
    const struct graph_attr *dims = graph_op_attr(built->body.ops[0]->regions[0].blocks[0].ops[1], "dimensions");
    assert_int_equal(dims->kind, GRAPH_ATTR_DENSE_ARRAY);
    expect_equivalent(built, text);
}

static void test_builder_while_loop(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                       "    %c0 = stablehlo.constant dense<0> : tensor<i64>\n"
                       "    %c1 = stablehlo.constant dense<1> : tensor<i64>\n"
                       "    %c5 = stablehlo.constant dense<5> : tensor<i64>\n"
                       "    %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i64>, tensor<4xf32>\n"
                       "     cond {\n"
                       "      %lt = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
                       "      stablehlo.return %lt : tensor<i1>\n"
                       "    } do {\n"
                       "      %n = stablehlo.add %i, %c1 : tensor<i64>\n"
                       "      %s = stablehlo.sine %acc : tensor<4xf32>\n"
                       "      %a = stablehlo.add %acc, %s : tensor<4xf32>\n"
                       "      stablehlo.return %n, %a : tensor<i64>, tensor<4xf32>\n"
                       "    }\n"
                       "    return %0#1 : tensor<4xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    const struct graph_type *i64 = graph_builder_scalar_type(b, BASE_DT_SI64);
    const struct graph_type *i1 = graph_builder_scalar_type(b, BASE_DT_I1);
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct graph_value *c[3];
    for (int k = 0; k < 3; k++) c[k] = graph_builder_constant(b, graph_builder_attr_splat_f64(b, i64, k == 2 ? 5 : k));
    struct graph_op *w = graph_builder_op(b, GRAPH_OP_WHILE, VS(c[0], x), 2, TY(i64, t), 2);
    struct graph_value *ia[2];
    graph_builder_region(b, w, TY(i64, t), 2, ia);
    struct graph_op *lt = graph_builder_op(b, GRAPH_OP_COMPARE, VS(ia[0], c[2]), 2, &i1, 1);
    graph_builder_set_attr(b, lt, "comparison_direction", graph_builder_attr_comparison(b, "LT"));
    graph_builder_set_attr(b, lt, "compare_type", graph_builder_attr_keyword(b, "stablehlo.comparison_type", "SIGNED"));
    struct graph_value *p = graph_builder_result(lt, 0);
    graph_builder_return(b, &p, 1);
    graph_builder_region(b, w, TY(i64, t), 2, ia);
    struct graph_value *n = graph_builder_op1(b, GRAPH_OP_ADD, VS(ia[0], c[1]), 2, i64);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_SINE, &ia[1], 1, t);
    struct graph_value *a = graph_builder_op1(b, GRAPH_OP_ADD, VS(ia[1], s), 2, t);
    graph_builder_return(b, VS(n, a), 2);
    struct graph_value *r = graph_builder_result(w, 1);
    graph_builder_return(b, &r, 1);
    expect_equivalent(finish_ok(b), text);
}

static void test_builder_sort_with_comparator(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%x: tensor<8xf32>, %y: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {\n"
                       "    %0:2 = \"stablehlo.sort\"(%x, %y) ({\n"
                       "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
                       "      %1 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                       "      stablehlo.return %1 : tensor<i1>\n"
                       "    }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>, tensor<8xi32>) ->"
                       " (tensor<8xf32>, tensor<8xi32>)\n"
                       "    return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *tf = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(8));
    const struct graph_type *ti = graph_builder_tensor_type(b, BASE_DT_SI32, 1, DIMS(8));
    const struct graph_type *sf = graph_builder_scalar_type(b, BASE_DT_F32);
    const struct graph_type *si = graph_builder_scalar_type(b, BASE_DT_SI32);
    const struct graph_type *i1 = graph_builder_scalar_type(b, BASE_DT_I1);
    struct graph_value *a[2];
    graph_builder_func(b, "main", TY(tf, ti), NULL, 2, TY(tf, ti), 2, a);
    struct graph_op *sort = graph_builder_op(b, GRAPH_OP_SORT, a, 2, TY(tf, ti), 2);
    graph_builder_set_attr(b, sort, "is_stable", graph_builder_attr_bool(b, true));
    graph_builder_set_attr(b, sort, "dimension", graph_builder_attr_int(b, 0));
    struct graph_value *p[4];
    graph_builder_region(b, sort, TY(sf, sf, si, si), 4, p);
    struct graph_op *gt = graph_builder_op(b, GRAPH_OP_COMPARE, p, 2, &i1, 1);
    graph_builder_set_attr(b, gt, "compare_type", graph_builder_attr_keyword(b, "stablehlo.comparison_type", "TOTALORDER"));
    graph_builder_set_attr(b, gt, "comparison_direction", graph_builder_attr_comparison(b, "GT"));
    struct graph_value *c = graph_builder_result(gt, 0);
    graph_builder_return(b, &c, 1);
    graph_builder_return(b, VS(graph_builder_result(sort, 0), graph_builder_result(sort, 1)), 2);
    struct graph_module *built = finish_ok(b);
    const struct graph_op *s = built->body.ops[0]->regions[0].blocks[0].ops[0];
    assert_string_equal(s->attrs[0].name, "dimension"); /* attributes sorted, as parsed */
    expect_equivalent(built, text);
}

static void test_builder_call_and_constants(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func private @twice(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
                       "    %0 = stablehlo.add %a, %a : tensor<2x2xf32>\n"
                       "    return %0 : tensor<2x2xf32>\n"
                       "  }\n"
                       "  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
                       "    %c = stablehlo.constant dense<[[1.5, -2.0], [3.25, 4.0]]> : tensor<2x2xf32>\n"
                       "    %h = stablehlo.constant dense<5.000000e-01> : tensor<2x2xf32>\n"
                       "    %0 = stablehlo.multiply %x, %c : tensor<2x2xf32>\n"
                       "    %1 = func.call @twice(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
                       "    %2 = stablehlo.multiply %1, %h : tensor<2x2xf32>\n"
                       "    return %2 : tensor<2x2xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 2, DIMS(2, 2));
    struct graph_value *a;
    struct graph_op *f = graph_builder_func(b, "twice", &t, NULL, 1, &t, 1, &a);
    graph_builder_set_attr(b, f, "sym_visibility", graph_builder_attr_string(b, "private"));
    struct graph_value *d = graph_builder_op1(b, GRAPH_OP_ADD, VS(a, a), 2, t);
    graph_builder_return(b, &d, 1);
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct base_tensor *lit;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, DIMS(2, 2), &lit), BASE_OK);
    const float v[4] = {1.5f, -2.0f, 3.25f, 4.0f};
    memcpy(lit->data, v, sizeof v);
    struct graph_value *c = graph_builder_constant(b, graph_builder_attr_elements(b, NULL, lit));
    base_tensor_release(lit); /* the attribute holds its own reference */
    struct graph_value *h = graph_builder_constant(b, graph_builder_attr_splat_f64(b, t, 0.5));
    struct graph_value *m0 = graph_builder_op1(b, GRAPH_OP_MULTIPLY, VS(x, c), 2, t);
    struct graph_value *m1 = graph_builder_result(graph_builder_call(b, "twice", &m0, 1, &t, 1), 0);
    struct graph_value *m2 = graph_builder_op1(b, GRAPH_OP_MULTIPLY, VS(m1, h), 2, t);
    graph_builder_return(b, &m2, 1);
    expect_equivalent(finish_ok(b), text);
}

/* stablehlo.if with a region closed by hand (graph_builder_end), tuples and
 * an iota. */
static void test_builder_if_tuple_and_hand_closed_regions(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%p: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {\n"
                       "    %i = stablehlo.iota dim = 0 : tensor<3xf32>\n"
                       "    %t = stablehlo.tuple %x, %i : tuple<tensor<3xf32>, tensor<3xf32>>\n"
                       "    %0 = \"stablehlo.if\"(%p) ({\n"
                       "      %a = stablehlo.get_tuple_element %t[0] : (tuple<tensor<3xf32>, tensor<3xf32>>) -> "
                       "tensor<3xf32>\n"
                       "      stablehlo.return %a : tensor<3xf32>\n"
                       "    }, {\n"
                       "      %b = stablehlo.get_tuple_element %t[1] : (tuple<tensor<3xf32>, tensor<3xf32>>) -> "
                       "tensor<3xf32>\n"
                       "      %c = stablehlo.add %b, %x : tensor<3xf32>\n"
                       "      stablehlo.return %c : tensor<3xf32>\n"
                       "    }) : (tensor<i1>) -> tensor<3xf32>\n"
                       "    return %0 : tensor<3xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(3));
    const struct graph_type *pt = graph_builder_scalar_type(b, BASE_DT_I1);
    const struct graph_type *tt = graph_builder_tuple_type(b, TY(t, t), 2);
    struct graph_value *a[2];
    graph_builder_func(b, "main", TY(pt, t), NULL, 2, &t, 1, a);
    struct graph_op *iota = graph_builder_op(b, GRAPH_OP_IOTA, NULL, 0, &t, 1);
    graph_builder_set_attr(b, iota, "iota_dimension", graph_builder_attr_int(b, 0));
    struct graph_value *tup = graph_builder_op1(b, GRAPH_OP_TUPLE, VS(a[1], graph_builder_result(iota, 0)), 2, tt);
    struct graph_op *br = graph_builder_op(b, GRAPH_OP_IF, &a[0], 1, &t, 1);
    for (int k = 0; k < 2; k++) {
        graph_builder_region(b, br, NULL, 0, NULL);
        struct graph_op *g = graph_builder_op(b, GRAPH_OP_GET_TUPLE_ELEMENT, &tup, 1, &t, 1);
        graph_builder_set_attr(b, g, "index", graph_builder_attr_int_typed(b, k, BASE_DT_SI32));
        struct graph_value *v = graph_builder_result(g, 0);
        if (k) v = graph_builder_op1(b, GRAPH_OP_ADD, VS(v, a[1]), 2, t);
        graph_builder_op(b, GRAPH_OP_RETURN, &v, 1, NULL, 0);
        graph_builder_end(b);
    }
    struct graph_value *r = graph_builder_result(br, 0);
    graph_builder_return(b, &r, 1);
    expect_equivalent(finish_ok(b), text);
}

/* Ops the builder does not know by kind, and an empty region. */
static void test_builder_unregistered_ops_and_empty_regions(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                       "    %0 = \"mhlo.something\"(%x) ({\n"
                       "    }) {level = 3 : i64} : (tensor<2xf32>) -> tensor<2xf32>\n"
                       "    return %0 : tensor<2xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(2));
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct graph_op *op = graph_builder_op_named(b, "mhlo.something", &x, 1, &t, 1);
    graph_builder_set_attr(b, op, "level", graph_builder_attr_int(b, 3));
    graph_builder_region(b, op, NULL, 0, NULL);
    graph_builder_end(b);
    struct graph_value *r = graph_builder_result(op, 0);
    graph_builder_return(b, &r, 1);
    struct graph_module *built = finish_ok(b);
    const struct graph_op *u = built->body.ops[0]->regions[0].blocks[0].ops[0];
    assert_int_equal(u->kind, GRAPH_OP_UNKNOWN);
    assert_string_equal(u->name, "mhlo.something");
    assert_int_equal(u->n_regions, 1);
    assert_int_equal(u->regions[0].n_blocks, 0); /* `{}` reads as a region without blocks */
    struct graph_module *parsed = prog_parse(text);
    assert_true(graph_module_equal(built, parsed));
    expect_same_ids(built, parsed);
    graph_module_destroy(parsed);
    graph_module_destroy(built);
}

/* A function of a parsed module copied into a builder: the same function,
 * with its own copies of types, attributes and literals (the parsed module is
 * destroyed before the built one is used). */
static void test_builder_clone_of_a_parsed_function(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  func.func @main(%x: tensor<3x4xf32>) -> tensor<3xf32> {\n"
                       "    %k = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>\n"
                       "    %0 = stablehlo.reshape %k : (tensor<1x4xf32>) -> tensor<4xf32>\n"
                       "    %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n"
                       "    %2 = stablehlo.multiply %x, %1 : tensor<3x4xf32>\n"
                       "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                       "    %3 = stablehlo.reduce(%2 init: %z) applies stablehlo.add across dimensions = [1] :"
                       " (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>\n"
                       "    return %3 : tensor<3xf32>\n"
                       "  }\n"
                       "}\n";
    struct graph_module *src = prog_parse(text);
    struct graph_builder *b = new_builder();
    graph_builder_clone(b, src->body.ops[0], NULL, NULL);
    graph_module_destroy(src);
    expect_equivalent(finish_ok(b), text);
}

/* The location of an op is where graph_verify points. */
static void test_builder_locations_reach_diagnostics(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    const struct graph_type *u = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(5));
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &u, 1, &x);
    graph_builder_set_loc(b, &(struct graph_loc){"model.py", 12, 7, "layer0/add", NULL});
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, VS(x, x), 2, u); /* wrong result shape */
    graph_builder_set_loc(b, NULL);
    graph_builder_return(b, &s, 1);
    struct graph_module *m = finish_ok(b);
    const struct graph_op *add = m->body.ops[0]->regions[0].blocks[0].ops[0];
    assert_string_equal(add->loc.file, "model.py");
    assert_string_equal(add->loc.name, "layer0/add");
    assert_string_equal(m->body.ops[0]->regions[0].blocks[0].ops[1]->loc.file, "built.mlir");
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_verify(m, &d), BASE_ERR_VERIFY);
    assert_string_equal(d.file, "model.py");
    assert_int_equal(d.line, 12);
    assert_int_equal(d.col, 7);
    assert_non_null(strstr(d.msg, "stablehlo.add"));
    /* printed with positions, the location reads back */
    char *text = NULL;
    assert_int_equal(graph_print_str_positions(m, &text, NULL), BASE_OK);
    assert_non_null(strstr(text, "loc(fused[\"layer0/add\", \"model.py\":12:7])"));
    free(text);
    graph_module_destroy(m);
}

/* ---------------------------------------------------------------- errors */

static void expect_verify_error(struct graph_module *m, const char *frag)
{
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_verify(m, &d), BASE_ERR_VERIFY);
    if (!strstr(d.msg, frag)) fail_msg("'%s' does not mention '%s'", d.msg, frag);
    graph_module_destroy(m);
}

static void expect_finish_error(struct graph_builder *b, enum base_status want, const char *frag)
{
    struct graph_module *m = (struct graph_module *)1;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_builder_finish(b, &m, &d), want);
    assert_null(m);
    assert_int_equal(d.status, want);
    if (frag && !strstr(d.msg, frag)) fail_msg("'%s' does not mention '%s'", d.msg, frag);
    graph_builder_destroy(b);
}

static void test_builder_wrong_operand_count_is_a_verify_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, &x, 1, t);
    graph_builder_return(b, &s, 1);
    expect_verify_error(finish_ok(b), "operand");
}

static void test_builder_mismatched_types_are_a_verify_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *tf = graph_builder_tensor_type(b, BASE_DT_F32, 2, DIMS(2, 3));
    const struct graph_type *ti = graph_builder_tensor_type(b, BASE_DT_SI32, 2, DIMS(3, 2));
    struct graph_value *a[2];
    graph_builder_func(b, "main", TY(tf, ti), NULL, 2, &tf, 1, a);
    struct graph_op *dot = graph_builder_op(b, GRAPH_OP_DOT_GENERAL, a, 2, &tf, 1);
    graph_builder_set_attr(b, dot, "dot_dimension_numbers", graph_builder_attr_dot_dims(b, NULL, NULL, 0, DIMS(0), DIMS(0), 1));
    struct graph_value *r = graph_builder_result(dot, 0);
    graph_builder_return(b, &r, 1);
    expect_verify_error(finish_ok(b), "stablehlo.dot_general");
}

static void test_builder_value_outside_its_region_is_a_finish_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    const struct graph_type *s = graph_builder_scalar_type(b, BASE_DT_F32);
    const struct graph_type *r1 = graph_builder_tensor_type(b, BASE_DT_F32, 0, NULL);
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &r1, 1, &x);
    struct graph_value *z = graph_builder_constant(b, graph_builder_attr_splat_f64(b, s, 0.0));
    struct graph_op *red = graph_builder_op(b, GRAPH_OP_REDUCE, VS(x, z), 2, &r1, 1);
    graph_builder_set_attr(b, red, "dimensions", graph_builder_attr_dense_i64(b, DIMS(0), 1));
    struct graph_value *p[2];
    graph_builder_region(b, red, TY(s, s), 2, p);
    struct graph_value *inner = graph_builder_op1(b, GRAPH_OP_ADD, p, 2, s);
    graph_builder_return(b, &inner, 1);
    graph_builder_return(b, &inner, 1); /* the region's value, used after it */
    expect_finish_error(b, BASE_ERR_INVALID, "outside the region");
}

static void test_builder_value_of_another_function_is_a_finish_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    struct graph_value *x, *y;
    graph_builder_func(b, "f", &t, NULL, 1, &t, 1, &x);
    graph_builder_return(b, &x, 1);
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &y);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, VS(x, y), 2, t);
    graph_builder_return(b, &s, 1);
    expect_finish_error(b, BASE_ERR_INVALID, "operand 0");
}

static void test_builder_unclosed_function_is_a_finish_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, NULL);
    expect_finish_error(b, BASE_ERR_INVALID, "func.func @main is not closed");
}

/* The first error is kept; later calls take the NULLs it leaves quietly. */
static void test_builder_errors_are_sticky(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    const struct graph_type *bad = graph_builder_tensor_type(b, BASE_DT_F32, 99, DIMS(4));
    assert_null(bad);
    struct graph_value *x = NULL;
    graph_builder_func(b, "main", &t, NULL, 1, &bad, 1, &x);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, VS(x, NULL), 2, t);
    assert_null(s);
    graph_builder_return(b, &s, 1);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_builder_status(b, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "rank 99"));
    expect_finish_error(b, BASE_ERR_INVALID, "rank 99");
}

static void test_builder_value_of_another_builder_is_rejected(void **state)
{
    (void)state;
    struct graph_builder *a = new_builder(), *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(a, BASE_DT_F32, 1, DIMS(4));
    struct graph_value *xa, *xb;
    graph_builder_func(a, "main", &t, NULL, 1, &t, 1, &xa);
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &xb); /* a's type: copied into b */
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, VS(xa, xb), 2, t);
    assert_null(s);
    expect_finish_error(b, BASE_ERR_INVALID, "not a value of this builder");
    graph_builder_destroy(a);
}

static void test_builder_erased_op_still_used_is_a_finish_error(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct graph_value *n = graph_builder_op1(b, GRAPH_OP_NEGATE, &x, 1, t);
    struct graph_value *dead = graph_builder_op1(b, GRAPH_OP_EXPONENTIAL, &x, 1, t);
    graph_builder_erase(b, dead->def); /* unused: fine */
    graph_builder_erase(b, n->def);    /* used below: not fine */
    graph_builder_return(b, &n, 1);
    expect_finish_error(b, BASE_ERR_INVALID, "erased");
}

/* Literals that end up unused (a dense<> list turned into array<>, an
 * attribute never set) are released; ASan checks there is no leak. */
static void test_builder_unused_literals_are_released(void **state)
{
    (void)state;
    struct graph_builder *b = new_builder();
    const struct graph_type *t = graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4));
    graph_builder_attr_splat_f64(b, t, 1.0); /* never used */
    struct base_tensor *lit;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, DIMS(4), &lit), BASE_OK);
    const struct graph_attr *shared = graph_builder_attr_elements(b, NULL, lit);
    base_tensor_release(lit);
    struct graph_value *x;
    graph_builder_func(b, "main", &t, NULL, 1, &t, 1, &x);
    struct graph_value *c1 = graph_builder_constant(b, shared), *c2 = graph_builder_constant(b, shared);
    struct graph_value *s = graph_builder_op1(b, GRAPH_OP_ADD, VS(c1, c2), 2, t);
    graph_builder_return(b, &s, 1);
    struct graph_module *m = finish_ok(b);
    graph_module_destroy(m);
    /* a builder destroyed unfinished releases what it holds */
    b = new_builder();
    graph_builder_attr_splat_f64(b, graph_builder_tensor_type(b, BASE_DT_F32, 1, DIMS(4)), 2.0);
    graph_builder_destroy(b);
}

TEST_MAIN(NULL, NULL, T(test_builder_elementwise_matches_text), T(test_builder_dot_general_with_dimension_numbers),
          T(test_builder_reduce_with_a_region), T(test_builder_while_loop), T(test_builder_sort_with_comparator),
          T(test_builder_call_and_constants), T(test_builder_if_tuple_and_hand_closed_regions),
          T(test_builder_unregistered_ops_and_empty_regions), T(test_builder_clone_of_a_parsed_function),
          T(test_builder_locations_reach_diagnostics), T(test_builder_wrong_operand_count_is_a_verify_error),
          T(test_builder_mismatched_types_are_a_verify_error),
          T(test_builder_value_outside_its_region_is_a_finish_error),
          T(test_builder_value_of_another_function_is_a_finish_error),
          T(test_builder_unclosed_function_is_a_finish_error), T(test_builder_errors_are_sticky),
          T(test_builder_value_of_another_builder_is_rejected), T(test_builder_erased_op_still_used_is_a_finish_error),
          T(test_builder_unused_literals_are_released))
