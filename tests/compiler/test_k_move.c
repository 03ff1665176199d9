/* Data movement kernels on the simulator against the golden interpreter. */
#include "tests/compiler/k_test_util.h"

static void run(const char *src, cc_emit_fn fn, enum cc_kernel_kind kind, uint64_t seed)
{
    struct kt t;
    kt_parse(&t, src, kind);
    kt_random_inputs(&t, seed, 1.0);
    kt_check_both(&t, fn, 0);
    kt_free(&t);
}

/* the copy kernel's input is the view; the group is empty */
static void copy_kernel(const char *src, uint64_t seed);

/* a transposed, reversed, strided slice materialised */
static void test_k_move_copy_of_a_view(void **state)
{
    (void)state;
    copy_kernel("func.func @main(%x: tensor<40x300x6xbf16>) -> tensor<6x20x150xbf16> {\n"
        "  %t = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<40x300x6xbf16>) -> tensor<6x40x300xbf16>\n"
        "  %s = stablehlo.slice %t [0:6, 1:40:2, 0:300:2] : (tensor<6x40x300xbf16>) -> tensor<6x20x150xbf16>\n"
        "  %r = stablehlo.reverse %s, dims = [1] : tensor<6x20x150xbf16>\n"
        "  func.return %r : tensor<6x20x150xbf16>\n}\n",
        1);
}

/* the copy kernel's input is the view; the group is empty */
static void copy_kernel(const char *src, uint64_t seed)
{
    struct kt t;
    kt_parse(&t, src, CC_K_COPY);
    /* the last input operand is the folded view of the result */
    t.k.n_in = 1;
    t.k.in = &t.in[t.n_in - 1];
    t.k.n_ops = 0;
    kt_random_inputs(&t, seed, 1.0);
    kt_check_both(&t, cc_emit_copy, 0);
    kt_free(&t);
}

static void test_k_move_copy_transpose_i32(void **state)
{
    (void)state;
    copy_kernel("func.func @main(%x: tensor<333x129xi32>) -> tensor<129x333xi32> {\n"
                "  %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<333x129xi32>) -> tensor<129x333xi32>\n"
                "  func.return %r : tensor<129x333xi32>\n}\n",
                2);
}

static void test_k_move_concat_three(void **state)
{
    (void)state;
    run("func.func @main(%a: tensor<5x7x3xf32>, %b: tensor<5x1x3xf32>, %c: tensor<5x300x3xf32>) -> tensor<5x308x3xf32> {\n"
        "  %r = stablehlo.concatenate %a, %b, %c, dim = 1 : (tensor<5x7x3xf32>, tensor<5x1x3xf32>, tensor<5x300x3xf32>) -> tensor<5x308x3xf32>\n"
        "  func.return %r : tensor<5x308x3xf32>\n}\n",
        cc_emit_concat, CC_K_CONCAT, 3);
}

static void test_k_move_pad_edges_interior_negative(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<10x200x3xf32>) -> tensor<14x396x8xf32> {\n"
        "  %v = stablehlo.constant dense<-2.5> : tensor<f32>\n"
        "  %r = stablehlo.pad %x, %v, low = [1, -3, 0], high = [3, 0, 1], interior = [0, 1, 2] : (tensor<10x200x3xf32>, tensor<f32>) -> tensor<14x396x8xf32>\n"
        "  func.return %r : tensor<14x396x8xf32>\n}\n",
        cc_emit_pad, CC_K_PAD, 4);
}

static void test_k_move_pad_with_runtime_value(void **state)
{
    (void)state;
    run("func.func @main(%x: tensor<300x7xi8>, %v: tensor<i8>) -> tensor<302x9xi8> {\n"
        "  %r = stablehlo.pad %x, %v, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<300x7xi8>, tensor<i8>) -> tensor<302x9xi8>\n"
        "  func.return %r : tensor<302x9xi8>\n}\n",
        cc_emit_pad, CC_K_PAD, 5);
}

TEST_MAIN(NULL, NULL, T(test_k_move_copy_of_a_view), T(test_k_move_copy_transpose_i32), T(test_k_move_concat_three),
          T(test_k_move_pad_edges_interior_negative), T(test_k_move_pad_with_runtime_value))
