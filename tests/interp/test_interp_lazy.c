/* Lazy inputs on the golden interpreter (procedural random inputs, weight
 * files): the outputs are exactly those of the same values stored, and an
 * input that is only sliced is read slice by slice, never whole. */
#include "tests/prog.h"
#include "interp/interp.h"

#include <stdatomic.h>
#include <string.h>

/* Layers as a loop over a stacked weight captured from above, as the model
 * generator writes them: each iteration reads one layer by dynamic_slice.
 * Also a strided slice, a dot on a whole lazy input, and an input returned
 * as it is. */
static const char *const loop_src =
    "func.func @main(%x: tensor<2x8xf32>, %w: tensor<4x8x8xf32>, %b: tensor<16xbf16>) ->\n"
    "    (tensor<2x8xf32>, tensor<8xbf16>, tensor<16xbf16>, tensor<2x8xf32>) {\n"
    "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %n = stablehlo.constant dense<4> : tensor<i32>\n"
    "  %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<2x8xf32>\n"
    "   cond {\n"
    "    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %wl = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 8, 8] : (tensor<4x8x8xf32>, tensor<i32>, "
    "tensor<i32>, tensor<i32>) -> tensor<1x8x8xf32>\n"
    "    %w2 = stablehlo.reshape %wl : (tensor<1x8x8xf32>) -> tensor<8x8xf32>\n"
    "    %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x8xf32>) -> "
    "tensor<2x8xf32>\n"
    "    %t = stablehlo.tanh %y : tensor<2x8xf32>\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "    stablehlo.return %i2, %t : tensor<i32>, tensor<2x8xf32>\n"
    "  }\n"
    "  %s = stablehlo.slice %b [1:16:2] : (tensor<16xbf16>) -> tensor<8xbf16>\n"
    "  %e = stablehlo.exponential %x : tensor<2x8xf32>\n"
    "  func.return %r#1, %s, %b, %e : tensor<2x8xf32>, tensor<8xbf16>, tensor<16xbf16>, tensor<2x8xf32>\n"
    "}\n";

struct counting {
    uint64_t seed;
    _Atomic int64_t elems;   /* read so far */
    _Atomic int64_t largest; /* the largest single read */
};

static enum base_status counting_read(void *user, int64_t first, int64_t n, void *out)
{
    struct counting *c = user;
    atomic_fetch_add(&c->elems, n);
    int64_t l = atomic_load(&c->largest);
    while (n > l && !atomic_compare_exchange_weak(&c->largest, &l, n)) {
    }
    base_random_elems(BASE_DT_F32, c->seed, 0.3, first, n, out);
    return BASE_OK;
}

static void inputs_of(struct base_tensor **stored, struct base_tensor **lazy, struct counting *c)
{
    int64_t dx[2] = {2, 8}, dw[3] = {4, 8, 8}, db[1] = {16};
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 2, dx, 1, 1.0, &lazy[0]), BASE_OK);
    struct base_lazy_src src = {counting_read, NULL, c};
    assert_int_equal(base_tensor_create_lazy(BASE_DT_F32, 3, dw, &src, &lazy[1]), BASE_OK);
    assert_int_equal(base_tensor_create_random(BASE_DT_BF16, 1, db, 3, 1.0, &lazy[2]), BASE_OK);
    for (int i = 0; i < 3; i++) assert_int_equal(base_tensor_materialize(lazy[i], &stored[i]), BASE_OK);
    c->elems = 0;
    c->largest = 0;
}

static void expect_same_outputs(const struct prog *a, const struct prog *b, int n_out)
{
    for (int i = 0; i < n_out; i++) {
        const struct base_tensor *x = prog_out(a, i), *y = prog_out(b, i);
        assert_false(y->lazy);
        assert_int_equal(x->dtype, y->dtype);
        assert_int_equal(x->count, y->count);
        assert_memory_equal(x->data, y->data, base_tensor_nbytes(x));
    }
}

static void test_lazy_inputs_give_the_stored_outputs_and_are_read_by_slices(void **state)
{
    (void)state;
    struct counting c = {7, 0, 0};
    struct base_tensor *stored[3], *lazy[3];
    inputs_of(stored, lazy, &c);
    struct prog a, b;
    prog_start(&a, loop_src, stored, 3, 1, 1);
    prog_expect_ok(&a);
    prog_start(&b, loop_src, lazy, 3, 1, 1);
    prog_expect_ok(&b);
    expect_same_outputs(&a, &b, 4);
    /* the stacked weight: one layer (64 values) per read, each once */
    assert_int_equal(atomic_load(&c.largest), 8);
    assert_int_equal(atomic_load(&c.elems), 4 * 8 * 8);
    prog_free(&a);
    prog_free(&b);
    for (int i = 0; i < 3; i++) {
        base_tensor_release(stored[i]);
        base_tensor_release(lazy[i]);
    }
}

/* A manual computation cuts lazy operands into lazy shards (each process
 * reads its own), and a body that returns its shard as it is still gives
 * stored results. */
static void test_lazy_inputs_through_a_manual_computation(void **state)
{
    (void)state;
    const char *src =
        "sdy.mesh @mesh = <[\"tp\"=4]>\n"
        "func.func @main(%x: tensor<2x8xf32>, %w: tensor<8x3xf32>) -> (tensor<2x3xf32>, tensor<8x3xf32>) {\n"
        "  %tp:2 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{}, {\"tp\"}]>, <@mesh, [{\"tp\"}, {}]>]\n"
        "      out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{\"tp\"}, {}]>] manual_axes={\"tp\"} (%xs: tensor<2x2xf32>, "
        "%ws: tensor<2x3xf32>) {\n"
        "    %p = stablehlo.dot_general %xs, %ws, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) "
        "-> tensor<2x3xf32>\n"
        "    %s = \"stablehlo.all_reduce\"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,\n"
        "        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
        "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "        %t = stablehlo.add %a, %b : tensor<f32>\n"
        "        stablehlo.return %t : tensor<f32>\n"
        "    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "    sdy.return %s, %ws : tensor<2x3xf32>, tensor<2x3xf32>\n"
        "  } : (tensor<2x8xf32>, tensor<8x3xf32>) -> (tensor<2x3xf32>, tensor<8x3xf32>)\n"
        "  return %tp#0, %tp#1 : tensor<2x3xf32>, tensor<8x3xf32>\n"
        "}\n";
    int64_t dx[2] = {2, 8}, dw[2] = {8, 3};
    struct base_tensor *stored[2], *lazy[2];
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 2, dx, 11, 1.0, &lazy[0]), BASE_OK);
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 2, dw, 12, 0.5, &lazy[1]), BASE_OK);
    for (int i = 0; i < 2; i++) assert_int_equal(base_tensor_materialize(lazy[i], &stored[i]), BASE_OK);
    struct prog a, b;
    prog_start(&a, src, stored, 2, 1, 4);
    prog_expect_ok(&a);
    prog_start(&b, src, lazy, 2, 1, 4);
    prog_expect_ok(&b);
    expect_same_outputs(&a, &b, 2);
    assert_memory_equal(prog_out(&b, 1)->data, stored[1]->data, base_tensor_nbytes(stored[1]));
    /* and the runtime's entry to the same cut: a lazy shard */
    const struct graph_op *mc = NULL;
    const struct graph_block *blk = &graph_module_entry(b.m)->regions[0].blocks[0];
    for (int i = 0; i < blk->n_ops && !mc; i++)
        if (blk->ops[i]->kind == GRAPH_OP_SDY_MANUAL_COMPUTATION) mc = blk->ops[i];
    assert_non_null(mc);
    struct base_tensor *shard = NULL, *dense = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(interp_sdy_cut(b.m, mc, 1, 2, 4, lazy[1], &shard, &d), BASE_OK);
    assert_true(shard->lazy);
    assert_int_equal(base_tensor_materialize(shard, &dense), BASE_OK);
    assert_memory_equal(dense->data, (float *)stored[1]->data + 2 * 2 * 3, 2 * 3 * sizeof(float));
    base_tensor_release(shard);
    base_tensor_release(dense);
    prog_free(&a);
    prog_free(&b);
    for (int i = 0; i < 2; i++) {
        base_tensor_release(stored[i]);
        base_tensor_release(lazy[i]);
    }
}

static enum base_status failing_read(void *user, int64_t first, int64_t n, void *out)
{
    (void)user, (void)first, (void)n, (void)out;
    return BASE_ERR_IO;
}

/* A source that cannot give its values fails the op that reads them,
 * located, naming the operand. */
static void test_lazy_input_that_cannot_be_read_is_a_located_error(void **state)
{
    (void)state;
    const char *src = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %y = stablehlo.negate %x : tensor<4xf32>\n"
                      "  func.return %y : tensor<4xf32>\n"
                      "}\n";
    int64_t dims[1] = {4};
    struct base_tensor *t = NULL;
    struct base_lazy_src s = {failing_read, NULL, NULL};
    assert_int_equal(base_tensor_create_lazy(BASE_DT_F32, 1, dims, &s, &t), BASE_OK);
    struct prog p;
    prog_start(&p, src, &t, 1, 1, 1);
    assert_int_equal(p.st, BASE_ERR_IO);
    assert_int_equal(p.diag.line, 2);
    assert_non_null(strstr(p.diag.msg, "operand 0"));
    prog_free(&p);
    base_tensor_release(t);
}

TEST_MAIN(NULL, NULL,
          T(test_lazy_inputs_give_the_stored_outputs_and_are_read_by_slices),
          T(test_lazy_inputs_through_a_manual_computation),
          T(test_lazy_input_that_cannot_be_read_is_a_located_error))
