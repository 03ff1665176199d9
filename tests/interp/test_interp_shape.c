/* Data-movement kernels of the golden interpreter (graph/interp_shape*.c).
 * Expected values are the StableHLO spec's worked examples, the reference
 * interpreter's test expectations (stablehlo/tests/interpret) and hand
 * computation from the op definitions, never the kernels' own output. */
#include "tests/prog.h"

#include <math.h>
#include <stdio.h>

#include "interp/interp_internal.h"

/* Runs SRC, checks output 0's shape and integer values. */
#define CHECK_INTS(SRC, DIMS, ...)                                             \
    do {                                                                       \
        const int64_t dims_[] = DIMS;                                          \
        const int64_t want_[] = {__VA_ARGS__};                                 \
        struct base_tensor *t_ = prog_run_output(SRC, 0);                      \
        prog_expect_shape(t_, (int)ARRAY_LEN(dims_), dims_);                   \
        prog_expect_i64(t_, want_, ARRAY_LEN(want_));                          \
        base_tensor_release(t_);                                               \
    } while (0)
#define D(...) {__VA_ARGS__}

/* ---- broadcast, concatenate, reshape -------------------------------------- */

static void test_broadcast_in_dim_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3x2xi32>",
                       "  %a = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>\n"
                       "  %r = stablehlo.broadcast_in_dim %a, dims = [2, 1] : (tensor<1x3xi32>) -> tensor<2x3x2xi32>"),
               D(2, 3, 2), 1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3);
}

static void test_broadcast_in_dim_row_to_matrix_bf16(void **state)
{
    (void)state;
    /* 5120 -> 32x5120: every row equals the operand */
    struct base_tensor *x;
    int64_t n = 5120;
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 1, &n, &x), BASE_OK);
    for (int64_t i = 0; i < n; i++) base_elem_set_f64(BASE_DT_BF16, x->data, (size_t)i, (double)(i % 97) - 48);
    struct prog pr;
    prog_run(&pr, "func.func @main(%x: tensor<5120xbf16>) -> tensor<32x5120xbf16> {\n"
             "  %r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<5120xbf16>) -> tensor<32x5120xbf16>\n"
             "  func.return %r : tensor<32x5120xbf16>\n}\n",
             &x, 1);
    const struct base_tensor *r = prog_out(&pr, 0);
    assert_int_equal(r->count, 32 * 5120);
    for (int64_t row = 0; row < 32; row++)
        for (int64_t i = 0; i < n; i++)
            if (base_elem_get_f64(BASE_DT_BF16, r->data, (size_t)(row * n + i)) != (double)(i % 97) - 48)
                fail_msg("row %lld col %lld", (long long)row, (long long)i);
    prog_free(&pr);
    base_tensor_release(x);
}

static void test_broadcast_prepends_broadcast_sizes(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x2xi64>",
                       "  %a = stablehlo.constant dense<[5, 6]> : tensor<2xi64>\n"
                       "  %r = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: 2>} : (tensor<2xi64>) -> tensor<2x2xi64>"),
               D(2, 2), 5, 6, 5, 6);
}

static void test_concatenate_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<4x2xi64>",
                       "  %a = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>\n"
                       "  %b = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi64>\n"
                       "  %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<3x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>"),
               D(4, 2), 1, 2, 3, 4, 5, 6, 7, 8);
}

static void test_concatenate_along_inner_dim(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3xi8>",
                       "  %a = stablehlo.constant dense<[[1], [4]]> : tensor<2x1xi8>\n"
                       "  %b = stablehlo.constant dense<[[2, 3], [5, 6]]> : tensor<2x2xi8>\n"
                       "  %r = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x1xi8>, tensor<2x2xi8>) -> tensor<2x3xi8>"),
               D(2, 3), 1, 2, 3, 4, 5, 6);
}

static void test_reshape_shares_storage(void **state)
{
    (void)state;
    struct base_tensor *x;
    int64_t dims[2] = {2, 3};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &x), BASE_OK);
    for (int i = 0; i < 6; i++) base_elem_set_f64(BASE_DT_F32, x->data, (size_t)i, i + 0.5);
    struct prog pr;
    prog_run(&pr, "func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
             "  %r = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
             "  func.return %r : tensor<3x2xf32>\n}\n",
             &x, 1);
    const int64_t want_dims[] = {3, 2};
    prog_expect_shape(prog_out(&pr, 0), 2, want_dims);
    assert_ptr_equal(prog_out(&pr, 0)->data, x->data); /* zero copy */
    prog_free(&pr);
    base_tensor_release(x);
}

static void test_dynamic_reshape_and_broadcast_take_shapes_from_operands(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<6xi64>",
                       "  %a = stablehlo.constant dense<[[1, 2, 3, 4, 5, 6]]> : tensor<1x6xi64>\n"
                       "  %s = stablehlo.constant dense<[6]> : tensor<1xi64>\n"
                       "  %r = stablehlo.dynamic_reshape %a, %s : (tensor<1x6xi64>, tensor<1xi64>) -> tensor<6xi64>"),
               D(6), 1, 2, 3, 4, 5, 6);
    /* interpret/dynamic_broadcast_in_dim.mlir */
    CHECK_INTS(PROGRAM("tensor<3x2x2xi64>",
                       "  %a = stablehlo.constant dense<[[1], [2], [3]]> : tensor<3x1xi64>\n"
                       "  %s = stablehlo.constant dense<[3, 2, 2]> : tensor<3xi64>\n"
                       "  %r = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %s) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>"),
               D(3, 2, 2), 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    /* a dynamic result type: the shape comes from the operand's values */
    CHECK_INTS(PROGRAM("tensor<?x2xi64>",
                       "  %a = stablehlo.constant dense<[7, 8]> : tensor<2xi64>\n"
                       "  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi32>\n"
                       "  %r = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<2xi64>, tensor<2xi32>) -> tensor<?x2xi64>"),
               D(3, 2), 7, 8, 7, 8, 7, 8);
}

/* ---- bitcast_convert ------------------------------------------------------ */

static void test_bitcast_convert_spec_example_f32_to_i8(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x4xi8>",
                       "  %a = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>\n"
                       "  %r = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x4xi8>"),
               D(2, 4), 0, 0, 0, 0, 0, 0, -128, 63);
}

static void test_bitcast_convert_i1_to_i64_is_lsb_first(void **state)
{
    (void)state;
    /* interpret/bitcast_convert.mlir: 64 bools, least significant bit first */
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<i64>",
                "  %a = stablehlo.constant dense<[true, true, true, true, false, true, true, true, true, false, true, true, false, false, true, true, true, true, false, true, false, true, false, true, true, false, false, true, false, false, false, true, true, true, true, false, false, true, true, false, true, false, true, false, false, false, true, false, true, true, false, false, false, true, false, false, true, false, false, false, false, false, false, false]> : tensor<64xi1>\n"
                "  %r = stablehlo.bitcast_convert %a : (tensor<64xi1>) -> tensor<i64>"),
        0);
    assert_int_equal(t->rank, 0);
    assert_true(base_elem_get_u64(t->dtype, t->data, 0) == UINT64_C(0x0123456789ABCDEF));
    base_tensor_release(t);
}

static void test_bitcast_convert_i8_to_i4_low_nibble_first(void **state)
{
    (void)state;
    /* 0x21 -> [1, 2], 0xF7 -> [7, -1] */
    CHECK_INTS(PROGRAM("tensor<2x2xi4>",
                       "  %a = stablehlo.constant dense<[33, -9]> : tensor<2xi8>\n"
                       "  %r = stablehlo.bitcast_convert %a : (tensor<2xi8>) -> tensor<2x2xi4>"),
               D(2, 2), 1, 2, 7, -1);
    CHECK_INTS(PROGRAM("tensor<2xi8>",
                       "  %a = stablehlo.constant dense<[[1, 2], [7, -1]]> : tensor<2x2xi4>\n"
                       "  %r = stablehlo.bitcast_convert %a : (tensor<2x2xi4>) -> tensor<2xi8>"),
               D(2), 33, -9);
}

/* ---- slice, pad, reverse, transpose --------------------------------------- */

static void test_slice_spec_example_and_strides(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x2xi64>",
                       "  %a = stablehlo.constant dense<[[0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]> : tensor<3x4xi64>\n"
                       "  %r = \"stablehlo.slice\"(%a) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xi64>) -> tensor<2x2xi64>"),
               D(2, 2), 1, 1, 1, 1);
    CHECK_INTS(PROGRAM("tensor<2x3xi32>",
                       "  %a = stablehlo.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [10, 11, 12, 13, 14, 15, 16, 17], [20, 21, 22, 23, 24, 25, 26, 27]]> : tensor<3x8xi32>\n"
                       "  %r = \"stablehlo.slice\"(%a) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 3, 8>, strides = array<i64: 2, 3>} : (tensor<3x8xi32>) -> tensor<2x3xi32>"),
               D(2, 3), 1, 4, 7, 21, 24, 27);
}

static void test_real_dynamic_slice_reads_bounds_from_operands(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<?xi32>",
                       "  %a = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>\n"
                       "  %s = stablehlo.constant dense<[1]> : tensor<1xi32>\n"
                       "  %l = stablehlo.constant dense<[7]> : tensor<1xi32>\n"
                       "  %t = stablehlo.constant dense<[2]> : tensor<1xi32>\n"
                       "  %r = stablehlo.real_dynamic_slice %a, %s, %l, %t : (tensor<8xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xi32>"),
               D(3), 1, 3, 5);
}

static void test_pad_spec_example_with_interior(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<5x9xi64>",
                       "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>\n"
                       "  %z = stablehlo.constant dense<0> : tensor<i64>\n"
                       "  %r = stablehlo.pad %a, %z, low = [0, 1], high = [2, 1], interior = [1, 2] : (tensor<2x3xi64>, tensor<i64>) -> tensor<5x9xi64>"),
               D(5, 9),
               0, 1, 0, 0, 2, 0, 0, 3, 0,
               0, 0, 0, 0, 0, 0, 0, 0, 0,
               0, 4, 0, 0, 5, 0, 0, 6, 0,
               0, 0, 0, 0, 0, 0, 0, 0, 0,
               0, 0, 0, 0, 0, 0, 0, 0, 0);
}

static void test_pad_negative_edges_crop_after_interior(void **state)
{
    (void)state;
    /* interpret/dynamic_pad.mlir, as static pad and as dynamic_pad */
    static const char *const body =
        "  %a = stablehlo.constant dense<[[0, 0, 0, 0], [0, 1, 2, 0], [0, 3, 4, 0], [0, 5, 6, 0], [0, 0, 0, 0]]> : tensor<5x4xi64>\n"
        "  %p = stablehlo.constant dense<-1> : tensor<i64>\n";
    char src[2048];
    snprintf(src, sizeof src,
             "func.func @main() -> tensor<7x5xi64> {\n%s"
             "  %%r = stablehlo.pad %%a, %%p, low = [1, -1], high = [1, -1], interior = [0, 1] : (tensor<5x4xi64>, tensor<i64>) -> tensor<7x5xi64>\n"
             "  func.return %%r : tensor<7x5xi64>\n}\n",
             body);
#define PAD_WANT -1, -1, -1, -1, -1, -1, 0, -1, 0, -1, -1, 1, -1, 2, -1, -1, 3, -1, 4, -1, \
                 -1, 5, -1, 6, -1, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1
    CHECK_INTS(src, D(7, 5), PAD_WANT);
    snprintf(src, sizeof src,
             "func.func @main() -> tensor<7x5xi64> {\n%s"
             "  %%lo = stablehlo.constant dense<[1, -1]> : tensor<2xi64>\n"
             "  %%hi = stablehlo.constant dense<[1, -1]> : tensor<2xi64>\n"
             "  %%in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>\n"
             "  %%r = stablehlo.dynamic_pad %%a, %%p, %%lo, %%hi, %%in : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xi64>\n"
             "  func.return %%r : tensor<7x5xi64>\n}\n",
             body);
    CHECK_INTS(src, D(7, 5), PAD_WANT);
#undef PAD_WANT
}

static void test_reverse_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<3x2xi32>",
                       "  %a = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>\n"
                       "  %r = stablehlo.reverse %a, dims = [1] : tensor<3x2xi32>"),
               D(3, 2), 2, 1, 4, 3, 6, 5);
    CHECK_INTS(PROGRAM("tensor<3x2xi32>",
                       "  %a = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>\n"
                       "  %r = stablehlo.reverse %a, dims = [0, 1] : tensor<3x2xi32>"),
               D(3, 2), 6, 5, 4, 3, 2, 1);
}

static void test_transpose_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3x2xi32>",
                       "  %a = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>\n"
                       "  %r = stablehlo.transpose %a, dims = [2, 1, 0] : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>"),
               D(2, 3, 2), 1, 7, 3, 9, 5, 11, 2, 8, 4, 10, 6, 12);
}

/* result[j][i] = x[i][j] for odd sizes that cross tile and SIMD block edges. */
static void check_big_transpose(enum base_dtype dt, const char *tname, int64_t rows, int64_t cols)
{
    struct base_tensor *x;
    int64_t dims[2] = {rows, cols};
    assert_int_equal(base_tensor_create(dt, 2, dims, &x), BASE_OK);
    for (int64_t i = 0; i < x->count; i++) base_elem_set_i64(dt, x->data, (size_t)i, i * 7 + 3);
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%x: tensor<%lldx%lldx%s>) -> tensor<%lldx%lldx%s> {\n"
             "  %%r = stablehlo.transpose %%x, dims = [1, 0] : (tensor<%lldx%lldx%s>) -> tensor<%lldx%lldx%s>\n"
             "  func.return %%r : tensor<%lldx%lldx%s>\n}\n",
             (long long)rows, (long long)cols, tname, (long long)cols, (long long)rows, tname,
             (long long)rows, (long long)cols, tname, (long long)cols, (long long)rows, tname,
             (long long)cols, (long long)rows, tname);
    struct prog pr;
    prog_run(&pr, src, &x, 1);
    const struct base_tensor *r = prog_out(&pr, 0);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            if (base_elem_get_bits(dt, r->data, (size_t)(j * rows + i)) !=
                base_elem_get_bits(dt, x->data, (size_t)(i * cols + j)))
                fail_msg("%s: result[%lld][%lld] differs", tname, (long long)j, (long long)i);
    prog_free(&pr);
    base_tensor_release(x);
}

static void test_transpose_large_matrices_all_element_sizes(void **state)
{
    (void)state;
    check_big_transpose(BASE_DT_UI8, "ui8", 203, 131);
    check_big_transpose(BASE_DT_SI16, "i16", 259, 141);
    check_big_transpose(BASE_DT_SI32, "i32", 130, 67);
    check_big_transpose(BASE_DT_SI64, "i64", 67, 97);
}

/* Formats "AxBxC" of a shape. */
static void shape_str(char *buf, size_t cap, int rank, const int64_t *dims, const char *et)
{
    size_t n = 0;
    buf[0] = 0;
    for (int d = 0; d < rank; d++) n += (size_t)snprintf(buf + n, cap - n, "%lldx", (long long)dims[d]);
    snprintf(buf + n, cap - n, "%s", et);
}

/* Random ranks, sizes and permutations (seeded by --seed): every result element
 * equals the operand element the transpose definition names. */
static void test_transpose_random_permutations_match_definition(void **state)
{
    (void)state;
    struct base_rng rng;
    base_rng_seed(&rng, test_seed());
    static const enum base_dtype dts[] = {BASE_DT_UI8, BASE_DT_BF16, BASE_DT_F32, BASE_DT_SI64};
    static const char *const names[] = {"ui8", "bf16", "f32", "i64"};
    for (int iter = 0; iter < 40; iter++) {
        int rank = 1 + (int)(base_rng_next(&rng) % 4), k = (int)(base_rng_next(&rng) % 4);
        int64_t dims[4], rdims[4], perm[4], xst[4];
        for (int d = 0; d < rank; d++) {
            dims[d] = 1 + (int64_t)(base_rng_next(&rng) % 19);
            perm[d] = d;
        }
        for (int d = rank - 1; d > 0; d--) {
            int j = (int)(base_rng_next(&rng) % (uint64_t)(d + 1));
            int64_t t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
        for (int d = 0; d < rank; d++) rdims[d] = dims[perm[d]];
        struct base_tensor *x;
        assert_int_equal(base_tensor_create(dts[k], rank, dims, &x), BASE_OK);
        for (int64_t i = 0; i < x->count; i++)
            base_elem_set_bits(dts[k], x->data, (size_t)i, base_rng_next(&rng) & 0x7f7f);
        char xs[64], rs[64], ps[64], src[1024];
        shape_str(xs, sizeof xs, rank, dims, names[k]);
        shape_str(rs, sizeof rs, rank, rdims, names[k]);
        size_t n = 0;
        for (int d = 0; d < rank; d++)
            n += (size_t)snprintf(ps + n, sizeof ps - n, "%s%lld", d ? ", " : "", (long long)perm[d]);
        snprintf(src, sizeof src,
                 "func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
                 "  %%r = stablehlo.transpose %%x, dims = [%s] : (tensor<%s>) -> tensor<%s>\n"
                 "  func.return %%r : tensor<%s>\n}\n",
                 xs, rs, ps, xs, rs, rs);
        struct prog pr;
        prog_run(&pr, src, &x, 1);
        const struct base_tensor *r = prog_out(&pr, 0);
        base_shape_strides(rank, dims, xst);
        int64_t idx[4] = {0};
        for (int64_t i = 0; i < r->count; i++) {
            int64_t off = 0;
            for (int d = 0; d < rank; d++) off += idx[d] * xst[perm[d]];
            if (base_elem_get_bits(dts[k], r->data, (size_t)i) != base_elem_get_bits(dts[k], x->data, (size_t)off))
                fail_msg("seed %llu iter %d: %s perm [%s] differs at result element %lld",
                         (unsigned long long)test_seed(), iter, xs, ps, (long long)i);
            for (int d = rank - 1; d >= 0 && ++idx[d] == rdims[d]; d--) idx[d] = 0;
        }
        prog_free(&pr);
        base_tensor_release(x);
    }
}

/* ---- iota ----------------------------------------------------------------- */

static void test_iota_spec_examples(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<4x5xi32>", "  %r = stablehlo.iota dim = 0 : tensor<4x5xi32>"), D(4, 5),
               0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3);
    CHECK_INTS(PROGRAM("tensor<4x5xi32>", "  %r = stablehlo.iota dim = 1 : tensor<4x5xi32>"), D(4, 5),
               0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4);
}

static void test_iota_float_and_wrapping_int(void **state)
{
    (void)state;
    struct base_tensor *t = prog_run_output(PROGRAM("tensor<3xf32>", "  %r = stablehlo.iota dim = 0 : tensor<3xf32>"), 0);
    const double want[] = {0.0, 1.0, 2.0};
    prog_expect_f64_signed(t, want, 3);
    base_tensor_release(t);
    /* i8 wraps: element 130 is -126 */
    t = prog_run_output(PROGRAM("tensor<131xi8>", "  %r = stablehlo.iota dim = 0 : tensor<131xi8>"), 0);
    assert_int_equal(base_elem_get_i64(t->dtype, t->data, 127), 127);
    assert_int_equal(base_elem_get_i64(t->dtype, t->data, 130), -126);
    base_tensor_release(t);
}

static void test_dynamic_iota_takes_shape_from_operand(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<3x4xi64>",
                       "  %s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n"
                       "  %r = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi64>"),
               D(3, 4), 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
}

static void test_get_dimension_size_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<i32>",
                       "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>\n"
                       "  %r = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xi64>) -> tensor<i32>"),
               D(), 3);
}

/* ---- dynamic_slice, dynamic_update_slice ---------------------------------- */

static void test_dynamic_slice_clamps_start_indices(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x2xi32>",
                       "  %a = stablehlo.constant dense<[[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]> : tensor<4x4xi32>\n"
                       "  %i = stablehlo.constant dense<-1> : tensor<i64>\n"
                       "  %j = stablehlo.constant dense<3> : tensor<i64>\n"
                       "  %r = \"stablehlo.dynamic_slice\"(%a, %i, %j) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>"),
               D(2, 2), 1, 1, 1, 1);
}

static void test_dynamic_update_slice_clamps_start_indices(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<4x4xi32>",
                       "  %a = stablehlo.constant dense<[[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]]> : tensor<4x4xi32>\n"
                       "  %u = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>\n"
                       "  %i = stablehlo.constant dense<-1> : tensor<i64>\n"
                       "  %j = stablehlo.constant dense<3> : tensor<i64>\n"
                       "  %r = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>"),
               D(4, 4), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    /* a non-trivial placement: update [[7, 8]] at (2, 1) */
    CHECK_INTS(PROGRAM("tensor<3x3xi32>",
                       "  %a = stablehlo.constant dense<0> : tensor<3x3xi32>\n"
                       "  %u = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi32>\n"
                       "  %i = stablehlo.constant dense<2> : tensor<i32>\n"
                       "  %j = stablehlo.constant dense<1> : tensor<i32>\n"
                       "  %r = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<3x3xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x3xi32>"),
               D(3, 3), 0, 0, 0, 0, 0, 0, 0, 7, 8);
}

/* ---- gather --------------------------------------------------------------- */

#define OPERAND_3x4x2                                                                     \
    "  %a = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], " \
    "[[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi32>\n"

static void test_gather_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3x2x2xi32>",
                       OPERAND_3x4x2
                       "  %i = stablehlo.constant dense<[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 2]]]> : tensor<2x3x2xi64>\n"
                       "  %r = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>"),
               D(2, 3, 2, 2),
               1, 2, 3, 4, 3, 4, 5, 6, 13, 14, 15, 16,
               9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20);
}

static void test_gather_clamps_out_of_range_starts(void **state)
{
    (void)state;
    /* interpret/gather.mlir: start (9, 0) along dims (1, 0) clamps to (2, 0) */
    CHECK_INTS(PROGRAM("tensor<1x2x2xi32>",
                       OPERAND_3x4x2
                       "  %i = stablehlo.constant dense<[[9, 0]]> : tensor<1x2xi64>\n"
                       "  %r = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi32>, tensor<1x2xi64>) -> tensor<1x2x2xi32>"),
               D(1, 2, 2), 5, 6, 7, 8);
}

static void test_gather_batching_dims_spec_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x2x3x2x2xi32>",
                       "  %a = stablehlo.constant dense<[[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]], "
                       "[[[25, 26], [27, 28], [29, 30], [31, 32]], [[33, 34], [35, 36], [37, 38], [39, 40]], [[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi32>\n"
                       "  %i = stablehlo.constant dense<[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>\n"
                       "  %r = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = false} : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>"),
               D(2, 2, 3, 2, 2),
               1, 2, 3, 4, 3, 4, 5, 6, 13, 14, 15, 16,
               33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,
               1, 2, 3, 4, 13, 14, 15, 16, 21, 22, 23, 24,
               43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30);
}

static void test_gather_embedding_rows_with_ui32_indices(void **state)
{
    (void)state;
    /* index_vector_dim == rank(indices): each index picks a whole row; 7 clamps to 3 */
    CHECK_INTS(PROGRAM("tensor<3x3xbf16>",
                       "  %t = stablehlo.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]> : tensor<4x3xbf16>\n"
                       "  %i = stablehlo.constant dense<[2, 0, 7]> : tensor<3xui32>\n"
                       "  %r = \"stablehlo.gather\"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xbf16>, tensor<3xui32>) -> tensor<3x3xbf16>"),
               D(3, 3), 20, 21, 22, 0, 1, 2, 30, 31, 32);
}

static void test_dynamic_gather_and_torch_index_select(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3x2x2xi32>",
                       OPERAND_3x4x2
                       "  %i = stablehlo.constant dense<[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]]> : tensor<2x3x2xi64>\n"
                       "  %s = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>\n"
                       "  %r = \"stablehlo.dynamic_gather\"(%a, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi32>"),
               D(2, 3, 2, 2),
               1, 2, 3, 4, 3, 4, 5, 6, 13, 14, 15, 16,
               9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20);
    /* index_select(x, 1, [2, 0]) of a 2x3 matrix picks columns 2 and 0 */
    CHECK_INTS(PROGRAM("tensor<2x2xi32>",
                       "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
                       "  %i = stablehlo.constant dense<[2, 0]> : tensor<2xi32>\n"
                       "  %r = \"stablehlo.torch_index_select\"(%a, %i) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x2xi32>"),
               D(2, 2), 3, 1, 6, 4);
}

/* ---- scatter -------------------------------------------------------------- */

#define SCATTER_INPUT_3x4x2                                                               \
    "  %a = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], " \
    "[[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi64>\n"                    \
    "  %i = stablehlo.constant dense<[[[0, 2], [1, 0], [2, 1]], [[0, 1], [1, 0], [0, 9]]]> : tensor<2x3x2xi64>\n"

static void test_scatter_add_spec_example_skips_out_of_bounds(void **state)
{
    (void)state;
    /* interpret/scatter.mlir; the start (9, 0) window leaves the input and is dropped */
    CHECK_INTS(PROGRAM("tensor<3x4x2xi64>",
                       SCATTER_INPUT_3x4x2
                       "  %u = stablehlo.constant dense<1> : tensor<2x3x2x2xi64>\n"
                       "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                       "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
                       "    %s = stablehlo.add %x, %y : tensor<i64>\n"
                       "    stablehlo.return %s : tensor<i64>\n"
                       "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>"),
               D(3, 4, 2),
               1, 2, 5, 6, 7, 8, 7, 8,
               10, 11, 12, 13, 14, 15, 16, 17,
               18, 19, 20, 21, 21, 22, 23, 24);
}

static void test_scatter_batching_dims_example(void **state)
{
    (void)state;
    CHECK_INTS(PROGRAM("tensor<2x3x4x2xi64>",
                       "  %a = stablehlo.constant dense<[[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]], "
                       "[[[25, 26], [27, 28], [29, 30], [31, 32]], [[33, 34], [35, 36], [37, 38], [39, 40]], [[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi64>\n"
                       "  %i = stablehlo.constant dense<[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>\n"
                       "  %u = stablehlo.constant dense<1> : tensor<2x2x3x2x2xi64>\n"
                       "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                       "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
                       "    %s = stablehlo.add %x, %y : tensor<i64>\n"
                       "    stablehlo.return %s : tensor<i64>\n"
                       "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>, indices_are_sorted = false, unique_indices = false} : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>"),
               D(2, 3, 4, 2),
               3, 4, 6, 7, 6, 7, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 17, 18, 19, 20, 22, 23, 24, 25,
               25, 26, 28, 29, 30, 31, 31, 32, 35, 36, 38, 39, 38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48);
}

static void test_scatter_replace_last_update_wins_and_partial_windows_clip(void **state)
{
    (void)state;
    /* rows of [1x3] windows at column starts 0, 2 (partly outside: only the first
     * element lands) and 0 again (later update wins, row-major order) */
    CHECK_INTS(PROGRAM("tensor<4xi32>",
                       "  %a = stablehlo.constant dense<[0, 0, 0, 0]> : tensor<4xi32>\n"
                       "  %i = stablehlo.constant dense<[[0], [2], [0]]> : tensor<3x1xi32>\n"
                       "  %u = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>\n"
                       "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                       "  ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"
                       "    stablehlo.return %y : tensor<i32>\n"
                       "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xi32>, tensor<3x1xi32>, tensor<3x3xi32>) -> tensor<4xi32>"),
               D(4), 7, 8, 9, 5);
}

static void test_scatter_noncommutative_region_keeps_argument_order(void **state)
{
    (void)state;
    /* region returns update - current: 10 - 1 = 9, then 20 - 9 = 11 */
    CHECK_INTS(PROGRAM("tensor<2xi32>",
                       "  %a = stablehlo.constant dense<[1, 5]> : tensor<2xi32>\n"
                       "  %i = stablehlo.constant dense<[[0], [0]]> : tensor<2x1xi32>\n"
                       "  %u = stablehlo.constant dense<[10, 20]> : tensor<2xi32>\n"
                       "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                       "  ^bb0(%x: tensor<i32>, %y: tensor<i32>):\n"
                       "    %s = stablehlo.subtract %y, %x : tensor<i32>\n"
                       "    stablehlo.return %s : tensor<i32>\n"
                       "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2xi32>"),
               D(2), 11, 5);
}

static void test_scatter_two_operands_generic_region(void **state)
{
    (void)state;
    /* a region over two inputs: sum into the first, count into the second;
     * index_vector_dim == rank(indices) (scalar indices) */
    struct prog pr;
    prog_run(&pr, "func.func @main() -> (tensor<3xf32>, tensor<3xi32>) {\n"
             "  %a = stablehlo.constant dense<[0.5, 0.0, 1.0]> : tensor<3xf32>\n"
             "  %b = stablehlo.constant dense<0> : tensor<3xi32>\n"
             "  %i = stablehlo.constant dense<[2, 0, 2, 5]> : tensor<4xi64>\n"
             "  %u = stablehlo.constant dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>\n"
             "  %v = stablehlo.constant dense<1> : tensor<4xi32>\n"
             "  %r:2 = \"stablehlo.scatter\"(%a, %b, %i, %u, %v) ({\n"
             "  ^bb0(%x: tensor<f32>, %y: tensor<i32>, %p: tensor<f32>, %q: tensor<i32>):\n"
             "    %s = stablehlo.add %x, %p : tensor<f32>\n"
             "    %t = stablehlo.add %y, %q : tensor<i32>\n"
             "    stablehlo.return %s, %t : tensor<f32>, tensor<i32>\n"
             "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xf32>, tensor<3xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>) -> (tensor<3xf32>, tensor<3xi32>)\n"
             "  func.return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>\n}\n",
             NULL, 0);
    assert_int_equal(pr.res.n_outputs, 2);
    const double wf[] = {2.5, 0.0, 6.0};
    const int64_t wi[] = {1, 0, 2};
    prog_expect_f64_signed(prog_out(&pr, 0), wf, 3);
    prog_expect_i64(prog_out(&pr, 1), wi, 3);
    prog_free(&pr);
}

static void test_scatter_bf16_add_rounds_each_step(void **state)
{
    (void)state;
    /* 256 + 1 rounds back to 256 in bf16 (8 significant bits), twice */
    struct base_tensor *t = prog_run_output(
        PROGRAM("tensor<1xbf16>",
                "  %a = stablehlo.constant dense<[256.0]> : tensor<1xbf16>\n"
                "  %i = stablehlo.constant dense<[[0], [0]]> : tensor<2x1xi32>\n"
                "  %u = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xbf16>\n"
                "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                "  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):\n"
                "    %s = stablehlo.add %x, %y : tensor<bf16>\n"
                "    stablehlo.return %s : tensor<bf16>\n"
                "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1xbf16>, tensor<2x1xi32>, tensor<2xbf16>) -> tensor<1xbf16>"),
        0);
    const double want[] = {256.0};
    prog_expect_f64_signed(t, want, 1);
    base_tensor_release(t);
}

/* ---- sort, top_k ---------------------------------------------------------- */

static void test_sort_spec_example_two_operands(void **state)
{
    (void)state;
    struct prog pr;
    prog_run(&pr, "func.func @main() -> (tensor<2x3xi64>, tensor<2x3xi64>) {\n"
             "  %a = stablehlo.constant dense<[[1, 2, 3], [3, 2, 1]]> : tensor<2x3xi64>\n"
             "  %b = stablehlo.constant dense<[[3, 2, 1], [1, 2, 3]]> : tensor<2x3xi64>\n"
             "  %r:2 = \"stablehlo.sort\"(%a, %b) ({\n"
             "  ^bb0(%x: tensor<i64>, %y: tensor<i64>, %z: tensor<i64>, %w: tensor<i64>):\n"
             "    %p = stablehlo.compare GT, %x, %y : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
             "    stablehlo.return %p : tensor<i1>\n"
             "  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)\n"
             "  func.return %r#0, %r#1 : tensor<2x3xi64>, tensor<2x3xi64>\n}\n",
             NULL, 0);
    const int64_t w0[] = {3, 2, 3, 1, 2, 1}, w1[] = {1, 2, 1, 3, 2, 3};
    prog_expect_i64(prog_out(&pr, 0), w0, 6);
    prog_expect_i64(prog_out(&pr, 1), w1, 6);
    prog_free(&pr);
}

/* Sorts [NaN, 1, -inf, -0, 0, -NaN, 3, 1] with LT TOTALORDER, once with a plain
 * compare (keyed fast path) and once with a comparator the fast path does not
 * recognise (region per comparison). */
static void test_sort_total_order_nan_fast_path_matches_region(void **state)
{
    (void)state;
    static const char *const fmt =
        "func.func @main() -> tensor<8xf32> {\n"
        "  %%a = stablehlo.constant dense<[0x7FC00000, 1.0, 0xFF800000, -0.0, 0.0, 0xFFC00000, 3.0, 1.0]> : tensor<8xf32>\n"
        "  %%r = \"stablehlo.sort\"(%%a) ({\n"
        "  ^bb0(%%x: tensor<f32>, %%y: tensor<f32>):\n"
        "    %%p = stablehlo.compare LT, %%x, %%y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "%s"
        "  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>) -> tensor<8xf32>\n"
        "  func.return %%r : tensor<8xf32>\n}\n";
    char src[2048];
    const double want[] = {-NAN, -INFINITY, -0.0, 0.0, 1.0, 1.0, 3.0, NAN};
    snprintf(src, sizeof src, fmt, "    stablehlo.return %p : tensor<i1>\n");
    struct base_tensor *fast = prog_run_output(src, 0);
    prog_expect_f64_signed(fast, want, 8);
    snprintf(src, sizeof src, fmt,
             "    %q = stablehlo.constant dense<true> : tensor<i1>\n"
             "    %s = stablehlo.and %p, %q : tensor<i1>\n"
             "    stablehlo.return %s : tensor<i1>\n");
    struct base_tensor *slow = prog_run_output(src, 0);
    assert_memory_equal(fast->data, slow->data, 32);
    base_tensor_release(fast);
    base_tensor_release(slow);
}

static void test_sort_default_dimension_is_last_and_swapped_compare(void **state)
{
    (void)state;
    /* compare LT %y, %x sorts descending along the last dim */
    CHECK_INTS(PROGRAM("tensor<2x3xui16>",
                       "  %a = stablehlo.constant dense<[[5, 65535, 7], [0, 2, 1]]> : tensor<2x3xui16>\n"
                       "  %r = \"stablehlo.sort\"(%a) ({\n"
                       "  ^bb0(%x: tensor<ui16>, %y: tensor<ui16>):\n"
                       "    %p = stablehlo.compare LT, %y, %x, UNSIGNED : (tensor<ui16>, tensor<ui16>) -> tensor<i1>\n"
                       "    stablehlo.return %p : tensor<i1>\n"
                       "  }) {dimension = -1 : i64} : (tensor<2x3xui16>) -> tensor<2x3xui16>"),
               D(2, 3), 65535, 7, 5, 2, 1, 0);
}

static void test_top_k_ties_by_lower_index(void **state)
{
    (void)state;
    struct prog pr;
    prog_run(&pr, "func.func @main() -> (tensor<2x2xf32>, tensor<2x2xi32>) {\n"
             "  %a = stablehlo.constant dense<[[1.0, 3.0, 3.0, 2.0], [0xFF800000, -0.0, 0.0, 0x7FC00000]]> : tensor<2x4xf32>\n"
             "  %v, %i = chlo.top_k(%a, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)\n"
             "  func.return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>\n}\n",
             NULL, 0);
    const double wv[] = {3.0, 3.0, NAN, 0.0};
    const int64_t wi[] = {1, 2, 3, 2};
    prog_expect_f64_signed(prog_out(&pr, 0), wv, 4);
    prog_expect_i64(prog_out(&pr, 1), wi, 4);
    prog_free(&pr);
}


/* The top-k custom calls: @mhlo.topk (mhlo.attributes; largest = false:
 * the smallest, ascending, ties by lower index), tt-mlir's backend_config
 * spelling, and XLA's @TopK whose comparator says largest (GT) or not (LT). */
static void test_top_k_custom_calls(void **state)
{
    (void)state;
    static const char *const calls[] = {
        "stablehlo.custom_call @mhlo.topk(%a) {mhlo.attributes = {k = 2 : i64, largest = false}}",
        "stablehlo.custom_call @mhlo.topk(%a) {backend_config = \"{\\\"k\\\": 2, \\\"largest\\\": false}\"}",
        "stablehlo.custom_call @TopK(%a) {called_computations = [@lt]}",
    };
    for (int c = 0; c < 3; c++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "func.func private @lt(%%x: tensor<f32>, %%y: tensor<f32>, %%p: tensor<i32>, %%q: tensor<i32>) -> tensor<i1> {\n"
                 "  %%0 = stablehlo.compare LT, %%x, %%y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                 "  func.return %%0 : tensor<i1>\n}\n"
                 "func.func @main() -> (tensor<2x2xf32>, tensor<2x2xi32>) {\n"
                 "  %%a = stablehlo.constant dense<[[1.0, 3.0, 1.0, 2.0], [0x7FC00000, -0.0, 0.0, 0xFF800000]]> : tensor<2x4xf32>\n"
                 "  %%r:2 = %s : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)\n"
                 "  func.return %%r#0, %%r#1 : tensor<2x2xf32>, tensor<2x2xi32>\n}\n",
                 calls[c]);
        struct prog pr;
        prog_run(&pr, src, NULL, 0);
        const double wv[] = {1.0, 1.0, -INFINITY, -0.0};
        const int64_t wi[] = {0, 2, 3, 1};
        prog_expect_f64_signed(prog_out(&pr, 0), wv, 4);
        prog_expect_i64(prog_out(&pr, 1), wi, 4);
        prog_free(&pr);
    }
    int64_t k;
    bool largest;
    struct graph_module *m = prog_parse("func.func @main(%a: tensor<3x9xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {\n"
                                        "  %r:2 = stablehlo.custom_call @mhlo.topk(%a) {mhlo.attributes = {k = 4 : i64}} : (tensor<3x9xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>)\n"
                                        "  func.return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi32>\n}\n");
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    assert_true(interp_topk_call(b->ops[0], &k, &largest));
    assert_int_equal(k, 4);
    assert_true(largest);
    graph_module_destroy(m);
}

/* ---- errors --------------------------------------------------------------- */

static void test_slice_out_of_range_is_a_located_error(void **state)
{
    (void)state;
    prog_run_fails(PROGRAM("tensor<2xi32>",
                           "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                           "  %r = \"stablehlo.slice\"(%a) {start_indices = array<i64: 2>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<3xi32>) -> tensor<2xi32>"), BASE_OK, NULL, 0);
}

/* An unverified program may hand the interpreter an empty comparator or
 * update region: a located error on line 3, not a crash. */
static void test_sort_with_empty_comparator_is_a_located_error(void **state)
{
    (void)state;
    prog_run_fails(PROGRAM("tensor<3xi32>",
                           "  %a = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>\n"
                           "  %r = \"stablehlo.sort\"(%a) ({\n"
                           "  }) {dimension = 0 : i64} : (tensor<3xi32>) -> tensor<3xi32>"),
                   BASE_ERR_VERIFY, "comparator", 3);
}

static void test_scatter_with_empty_region_is_a_located_error(void **state)
{
    (void)state;
    prog_run_fails(PROGRAM("tensor<3xi32>",
                           "  %a = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>\n"
                           "  %i = stablehlo.constant dense<[[0]]> : tensor<1x1xi32>\n"
                           "  %u = stablehlo.constant dense<[5]> : tensor<1xi32>\n"
                           "  %r = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                           "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi32>, tensor<1x1xi32>, tensor<1xi32>) -> tensor<3xi32>"),
                   BASE_ERR_VERIFY, "update_computation", 5);
}

TEST_MAIN(NULL, NULL,
          T(test_broadcast_in_dim_spec_example),
          T(test_broadcast_in_dim_row_to_matrix_bf16),
          T(test_broadcast_prepends_broadcast_sizes),
          T(test_concatenate_spec_example),
          T(test_concatenate_along_inner_dim),
          T(test_reshape_shares_storage),
          T(test_dynamic_reshape_and_broadcast_take_shapes_from_operands),
          T(test_bitcast_convert_spec_example_f32_to_i8),
          T(test_bitcast_convert_i1_to_i64_is_lsb_first),
          T(test_bitcast_convert_i8_to_i4_low_nibble_first),
          T(test_slice_spec_example_and_strides),
          T(test_real_dynamic_slice_reads_bounds_from_operands),
          T(test_pad_spec_example_with_interior),
          T(test_pad_negative_edges_crop_after_interior),
          T(test_reverse_spec_example),
          T(test_transpose_spec_example),
          T(test_transpose_large_matrices_all_element_sizes),
          T(test_transpose_random_permutations_match_definition),
          T(test_iota_spec_examples),
          T(test_iota_float_and_wrapping_int),
          T(test_dynamic_iota_takes_shape_from_operand),
          T(test_get_dimension_size_spec_example),
          T(test_dynamic_slice_clamps_start_indices),
          T(test_dynamic_update_slice_clamps_start_indices),
          T(test_gather_spec_example),
          T(test_gather_clamps_out_of_range_starts),
          T(test_gather_batching_dims_spec_example),
          T(test_gather_embedding_rows_with_ui32_indices),
          T(test_dynamic_gather_and_torch_index_select),
          T(test_scatter_add_spec_example_skips_out_of_bounds),
          T(test_scatter_batching_dims_example),
          T(test_scatter_replace_last_update_wins_and_partial_windows_clip),
          T(test_scatter_noncommutative_region_keeps_argument_order),
          T(test_scatter_two_operands_generic_region),
          T(test_scatter_bf16_add_rounds_each_step),
          T(test_sort_spec_example_two_operands),
          T(test_sort_total_order_nan_fast_path_matches_region),
          T(test_sort_default_dimension_is_last_and_swapped_compare),
          T(test_top_k_ties_by_lower_index), T(test_top_k_custom_calls),
          T(test_slice_out_of_range_is_a_located_error),
          T(test_sort_with_empty_comparator_is_a_located_error),
          T(test_scatter_with_empty_region_is_a_located_error))
