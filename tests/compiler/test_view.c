/* Views against the golden interpreter: the input is iota over the linear
 * index, so the interpreter's output element IS the linear index the view
 * must address. */
#include "tests/prog.h"

#include "compiler/cc_internal.h"

#include <stdio.h>

/* The linear element index the view addresses at multi-index idx. */
static int64_t view_elem(const struct cc_view *v, const int64_t *idx)
{
    int64_t off = 0;
    for (int d = 0; d < v->rank; d++) off += idx[d] * v->strides[d];
    int64_t esz = (int64_t)base_dtype_size(v->dtype);
    return ((int64_t)v->addr - 4096) / esz + off;
}

/* Runs `ops` (which define %r from %x = iota over shape X, type T) and
 * compares every element with the view. */
static void expect_view_matches(const char *x_type, int x_rank, const int64_t *x_dims, const char *r_type,
                                const char *ops, const struct cc_view *v)
{
    char src[2048];
    snprintf(src, sizeof src,
             "func.func @main() -> %s {\n"
             "  %%i = stablehlo.iota dim = 0 : tensor<%dxi32>\n"
             "  %%x = stablehlo.reshape %%i : (tensor<%dxi32>) -> %s\n"
             "%s\n"
             "  func.return %%r : %s\n}\n",
             r_type, (int)x_dims[0] * (int)(x_rank > 1 ? x_dims[1] : 1) * (int)(x_rank > 2 ? x_dims[2] : 1),
             (int)x_dims[0] * (int)(x_rank > 1 ? x_dims[1] : 1) * (int)(x_rank > 2 ? x_dims[2] : 1), x_type, ops,
             r_type);
    struct base_tensor *r = prog_run_output(src, 0);
    assert_int_equal(r->rank, v->rank);
    int64_t n = cc_view_count(v);
    int64_t idx[BASE_MAX_RANK] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t want = base_elem_get_i64(r->dtype, r->data, (size_t)k);
        int64_t got = view_elem(v, idx);
        if (got != want) fail_msg("element %lld: view addresses %lld, interpreter has %lld", (long long)k,
                                  (long long)got, (long long)want);
        for (int d = v->rank - 1; d >= 0; d--) {
            if (++idx[d] < v->dims[d]) break;
            idx[d] = 0;
        }
    }
    base_tensor_release(r);
}

static void test_view_transpose_slice_reverse(void **state)
{
    (void)state;
    int64_t xd[3] = {2, 3, 4};
    struct cc_view x, t, s, r;
    cc_view_dense(&x, 4096, BASE_DT_SI32, 3, xd);
    int64_t perm[3] = {2, 0, 1};
    cc_view_transpose(&x, perm, &t); /* 4x2x3 */
    int64_t st[3] = {1, 0, 0}, lim[3] = {4, 2, 3}, str[3] = {2, 1, 2};
    cc_view_slice(&t, st, lim, str, &s); /* 2x2x2 */
    int64_t rd[2] = {0, 2};
    cc_view_reverse(&s, rd, 2, &r);
    expect_view_matches("tensor<2x3x4xi32>", 3, xd, "tensor<2x2x2xi32>",
                        "  %t = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>\n"
                        "  %s = stablehlo.slice %t [1:4:2, 0:2, 0:3:2] : (tensor<4x2x3xi32>) -> tensor<2x2x2xi32>\n"
                        "  %r = stablehlo.reverse %s, dims = [0, 2] : tensor<2x2x2xi32>",
                        &r);
}

static void test_view_broadcast_then_reshape(void **state)
{
    (void)state;
    int64_t xd[2] = {3, 1};
    struct cc_view x, b, r;
    cc_view_dense(&x, 4096, BASE_DT_SI32, 2, xd);
    int64_t od[3] = {2, 3, 4}, bd[2] = {1, 2};
    cc_view_broadcast(&x, 3, od, bd, &b);
    int64_t rdims[2] = {6, 4}; /* merges the repeated dim (stride 0) with a real one: a copy */
    assert_false(cc_view_reshape(&b, 2, rdims, &r));
    int64_t rdims2[4] = {2, 3, 2, 2}; /* splits the broadcast dim: a view */
    assert_true(cc_view_reshape(&b, 4, rdims2, &r));
    expect_view_matches("tensor<3x1xi32>", 2, xd, "tensor<2x3x2x2xi32>",
                        "  %b = stablehlo.broadcast_in_dim %x, dims = [1, 2] : (tensor<3x1xi32>) -> tensor<2x3x4xi32>\n"
                        "  %r = stablehlo.reshape %b : (tensor<2x3x4xi32>) -> tensor<2x3x2x2xi32>",
                        &r);
}

static void test_view_reshape_of_transpose_needs_copy(void **state)
{
    (void)state;
    int64_t xd[2] = {3, 4};
    struct cc_view x, t, r;
    cc_view_dense(&x, 4096, BASE_DT_SI32, 2, xd);
    int64_t perm[2] = {1, 0};
    cc_view_transpose(&x, perm, &t);
    int64_t flat[1] = {12};
    assert_false(cc_view_reshape(&t, 1, flat, &r)); /* the transposed elements are not one stride run */
    int64_t split[3] = {2, 2, 3};                   /* splitting a dim is always a view */
    assert_true(cc_view_reshape(&t, 3, split, &r));
    expect_view_matches("tensor<3x4xi32>", 2, xd, "tensor<2x2x3xi32>",
                        "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x4xi32>) -> tensor<4x3xi32>\n"
                        "  %r = stablehlo.reshape %t : (tensor<4x3xi32>) -> tensor<2x2x3xi32>",
                        &r);
}

static void test_view_dense_reshape_with_unit_dims(void **state)
{
    (void)state;
    int64_t xd[3] = {2, 3, 4};
    struct cc_view x, r;
    cc_view_dense(&x, 4096, BASE_DT_SI32, 3, xd);
    int64_t nd[4] = {1, 6, 1, 4};
    assert_true(cc_view_reshape(&x, 4, nd, &r));
    assert_true(cc_view_is_dense(&r));
    expect_view_matches("tensor<2x3x4xi32>", 3, xd, "tensor<1x6x1x4xi32>",
                        "  %r = stablehlo.reshape %x : (tensor<2x3x4xi32>) -> tensor<1x6x1x4xi32>", &r);
}

/* Every element an access pattern reaches is the view's element at the
 * same box position. */
static void test_view_box_ap_addresses_the_box(void **state)
{
    (void)state;
    int64_t xd[3] = {5, 6, 7};
    struct cc_view x, t;
    cc_view_dense(&x, 4096, BASE_DT_BF16, 3, xd);
    int64_t perm[3] = {1, 2, 0}; /* 6x7x5 */
    cc_view_transpose(&x, perm, &t);
    struct cc_box box = {{1, 2, 0}, {4, 3, 5}};
    int free_dims[2] = {1, 2};
    struct isa_ap ap;
    assert_true(cc_view_box_ap(&t, &box, 0, free_dims, 2, &ap));
    assert_int_equal(ap.part_count, 4);
    assert_int_equal(ap.ndims, 2);
    for (int p = 0; p < 4; p++)
        for (uint32_t i = 0; i < ap.count[0]; i++)
            for (uint32_t j = 0; j < ap.count[1]; j++) {
                int64_t got = (int64_t)ap.addr + p * ap.part_stride_bytes +
                              2 * ((int64_t)i * ap.stride[0] + (int64_t)j * ap.stride[1]);
                int64_t idx[3] = {1 + p, 2 + (int64_t)i, (int64_t)j};
                int64_t want = 4096 + 2 * (view_elem(&t, idx) - 0);
                assert_int_equal(got, want);
            }
}

static void test_view_box_ap_merges_contiguous_dims(void **state)
{
    (void)state;
    int64_t xd[4] = {8, 2, 3, 4};
    struct cc_view x;
    cc_view_dense(&x, 0, BASE_DT_F32, 4, xd);
    struct cc_box box = {{0, 0, 0, 0}, {8, 2, 3, 4}};
    int free_dims[3] = {1, 2, 3};
    struct isa_ap ap;
    assert_true(cc_view_box_ap(&x, &box, 0, free_dims, 3, &ap));
    assert_int_equal(ap.ndims, 1); /* 2x3x4 of a row-major tensor is one run of 24 */
    assert_int_equal(ap.count[0], 24);
    assert_int_equal(ap.stride[0], 1);
    assert_int_equal(ap.part_stride_bytes, 24 * 4);
    int64_t yd[2] = {300, 2};
    struct cc_view y;
    cc_view_dense(&y, 0, BASE_DT_F32, 2, yd);
    struct cc_box too_many = {{0, 0}, {300, 2}};
    int f1[1] = {1};
    assert_false(cc_view_box_ap(&y, &too_many, 0, f1, 1, &ap)); /* 300 rows > the partitions */
}

TEST_MAIN(NULL, NULL, T(test_view_transpose_slice_reverse), T(test_view_broadcast_then_reshape),
          T(test_view_reshape_of_transpose_needs_copy), T(test_view_dense_reshape_with_unit_dims),
          T(test_view_box_ap_addresses_the_box), T(test_view_box_ap_merges_contiguous_dims))
