/* Reference-counted tensors: creation, limits, reshape views, clones. */
#include "tests/harness.h"

#include <math.h>

static void test_tensor_create_is_zeroed_and_aligned(void **state)
{
    (void)state;
    int64_t dims[3] = {2, 3, 5};
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 3, dims, &t), BASE_OK);
    assert_int_equal(t->dtype, BASE_DT_F32);
    assert_int_equal(t->rank, 3);
    assert_int_equal(t->count, 30);
    assert_int_equal(base_tensor_nbytes(t), 120);
    assert_int_equal((uintptr_t)t->data % 64, 0);
    const unsigned char *p = t->data;
    for (size_t i = 0; i < 120; i++) assert_int_equal(p[i], 0);
    base_tensor_release(t);
}

static void test_tensor_rank0_has_one_element(void **state)
{
    (void)state;
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_C128, 0, NULL, &t), BASE_OK);
    assert_int_equal(t->count, 1);
    assert_int_equal(base_tensor_nbytes(t), 16);
    base_tensor_release(t);
}

static void test_tensor_zero_sized_dims(void **state)
{
    (void)state;
    int64_t dims[2] = {0, 7};
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI8, 2, dims, &t), BASE_OK);
    assert_int_equal(t->count, 0);
    assert_int_equal(base_tensor_nbytes(t), 0);
    assert_non_null(t->data);
    base_tensor_release(t);
}

static void test_tensor_create_rejects_negative_dim(void **state)
{
    (void)state;
    int64_t dims[2] = {4, -1};
    struct base_tensor *t = (struct base_tensor *)1;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_ERR_LIMIT);
    assert_null(t);
}

static void test_tensor_create_rejects_overflowing_count(void **state)
{
    (void)state;
    int64_t dims[4] = {INT64_C(1) << 20, INT64_C(1) << 20, INT64_C(1) << 30, INT64_C(1) << 40};
    struct base_tensor *t = (struct base_tensor *)1;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_ERR_LIMIT);
    assert_null(t);
    assert_int_equal(base_tensor_create(BASE_DT_F32, 4, dims, &t), BASE_ERR_LIMIT);
    assert_null(t);
    int64_t big[1] = {INT64_MAX};
    assert_int_equal(base_tensor_create(BASE_DT_UI8, 1, big, &t), BASE_ERR_LIMIT);
}

static void test_tensor_create_rejects_bad_rank(void **state)
{
    (void)state;
    int64_t dims[BASE_MAX_RANK + 1];
    for (int i = 0; i <= BASE_MAX_RANK; i++) dims[i] = 1;
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, BASE_MAX_RANK + 1, dims, &t), BASE_ERR_LIMIT);
    assert_null(t);
    assert_int_equal(base_tensor_create(BASE_DT_F32, -1, dims, &t), BASE_ERR_LIMIT);
    assert_int_equal(base_tensor_create(BASE_DT_F32, BASE_MAX_RANK, dims, &t), BASE_OK);
    assert_int_equal(t->count, 1);
    base_tensor_release(t);
}

static void test_tensor_shape_count_limits(void **state)
{
    (void)state;
    int64_t at[1] = {BASE_MAX_ELEMS};
    int64_t over[1] = {BASE_MAX_ELEMS + 1};
    int64_t split[2] = {INT64_C(1) << 18, INT64_C(1) << 18};
    int64_t split_over[2] = {(INT64_C(1) << 18) + 1, INT64_C(1) << 18};
    int64_t zero_then_neg[2] = {0, -3};
    int64_t zero_then_huge[2] = {0, INT64_MAX};
    assert_true(base_shape_count(1, at) == BASE_MAX_ELEMS);
    assert_int_equal(base_shape_count(1, over), -1);
    assert_true(base_shape_count(2, split) == BASE_MAX_ELEMS);
    assert_int_equal(base_shape_count(2, split_over), -1);
    assert_int_equal(base_shape_count(2, zero_then_neg), -1);
    /* the strides of a zero-element shape must not overflow either (issue 20) */
    assert_int_equal(base_shape_count(2, zero_then_huge), -1);
    int64_t zero_then_some[2] = {0, BASE_MAX_ELEMS};
    assert_int_equal(base_shape_count(2, zero_then_some), 0);
    assert_int_equal(base_shape_count(0, NULL), 1);
}

static void test_tensor_strides_row_major(void **state)
{
    (void)state;
    int64_t dims[3] = {2, 3, 4}, st[3];
    base_shape_strides(3, dims, st);
    assert_int_equal(st[0], 12);
    assert_int_equal(st[1], 4);
    assert_int_equal(st[2], 1);
}

static void test_tensor_reshape_shares_storage(void **state)
{
    (void)state;
    int64_t dims[2] = {2, 6}, flat[1] = {12};
    struct base_tensor *t = NULL, *v = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI32, 2, dims, &t), BASE_OK);
    assert_int_equal(base_tensor_reshape(t, 1, flat, &v), BASE_OK);
    assert_ptr_equal(v->data, t->data);
    assert_int_equal(v->rank, 1);
    assert_int_equal(v->dims[0], 12);
    ((int32_t *)v->data)[7] = 42;
    assert_int_equal(((int32_t *)t->data)[7], 42);
    /* the view keeps the storage alive after the original goes */
    base_tensor_release(t);
    assert_int_equal(((int32_t *)v->data)[7], 42);
    base_tensor_release(v);
}

static void test_tensor_reshape_rejects_count_change(void **state)
{
    (void)state;
    int64_t dims[2] = {2, 6}, other[1] = {13}, neg[2] = {-2, -6};
    struct base_tensor *t = NULL, *v = (struct base_tensor *)1;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_OK);
    assert_int_equal(base_tensor_reshape(t, 1, other, &v), BASE_ERR_INVALID);
    assert_null(v);
    assert_int_equal(base_tensor_reshape(t, 2, neg, &v), BASE_ERR_LIMIT);
    assert_null(v);
    base_tensor_release(t);
}

static void test_tensor_clone_copies(void **state)
{
    (void)state;
    int64_t dims[1] = {4};
    struct base_tensor *t = NULL, *c = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F64, 1, dims, &t), BASE_OK);
    double *p = t->data;
    for (int i = 0; i < 4; i++) p[i] = i + 0.5;
    assert_int_equal(base_tensor_clone(t, &c), BASE_OK);
    assert_ptr_not_equal(c->data, t->data);
    assert_memory_equal(c->data, t->data, 32);
    ((double *)c->data)[0] = -1.0;
    assert_true(p[0] == 0.5);
    assert_int_equal(c->dtype, BASE_DT_F64);
    assert_int_equal(c->dims[0], 4);
    base_tensor_release(t);
    base_tensor_release(c);
}

static void test_tensor_create_like_is_zeroed(void **state)
{
    (void)state;
    int64_t dims[2] = {3, 2};
    struct base_tensor *t = NULL, *l = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 2, dims, &t), BASE_OK);
    memset(t->data, 0xFF, base_tensor_nbytes(t));
    assert_int_equal(base_tensor_create_like(t, &l), BASE_OK);
    assert_int_equal(l->dtype, BASE_DT_BF16);
    assert_int_equal(l->rank, 2);
    assert_int_equal(l->dims[1], 2);
    for (size_t i = 0; i < base_tensor_nbytes(l); i++) assert_int_equal(((unsigned char *)l->data)[i], 0);
    base_tensor_release(t);
    base_tensor_release(l);
}

static void test_tensor_retain_release_counts(void **state)
{
    (void)state;
    int64_t dims[1] = {3};
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_UI8, 1, dims, &t), BASE_OK);
    assert_ptr_equal(base_tensor_retain(t), t);
    assert_int_equal(t->refs, 2);
    base_tensor_release(t);
    assert_int_equal(t->refs, 1);
    ((unsigned char *)t->data)[2] = 9; /* still alive */
    base_tensor_release(t);           /* freed: ASan checks */
    assert_null(base_tensor_retain(NULL));
    base_tensor_release(NULL);
}

static void test_tensor_type_str(void **state)
{
    (void)state;
    int64_t dims[2] = {2, 3};
    struct base_tensor *t = NULL;
    char buf[64];
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_OK);
    base_tensor_type_str(t, buf, sizeof buf);
    assert_string_equal(buf, "2x3xf32");
    base_tensor_release(t);
    assert_int_equal(base_tensor_create(BASE_DT_C64, 0, NULL, &t), BASE_OK);
    base_tensor_type_str(t, buf, sizeof buf);
    assert_string_equal(buf, "complex<f32>");
    base_tensor_release(t);
    assert_int_equal(base_tensor_create(BASE_DT_F8E4M3FN, 2, dims, &t), BASE_OK);
    base_tensor_type_str(t, buf, 6);
    assert_string_equal(buf, "2x3xf");
    base_tensor_release(t);
}

/* Uniform fill: mean 0 and the requested standard deviation (within the
 * statistical error of 2^16 samples), all values inside +-sqrt(3) scale,
 * identical for the same seed, different for another. */
static void test_tensor_fill_random_moments_and_determinism(void **state)
{
    (void)state;
    int64_t dims[1] = {1 << 16};
    struct base_tensor *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, dims, &a), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, dims, &b), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 1, dims, &c), BASE_OK);
    assert_int_equal(base_tensor_fill_random(a, 7, 0.5), BASE_OK);
    assert_int_equal(base_tensor_fill_random(b, 7, 0.5), BASE_OK);
    assert_int_equal(base_tensor_fill_random(c, 8, 0.5), BASE_OK);
    assert_memory_equal(a->data, b->data, base_tensor_nbytes(a));
    const float *f = a->data;
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < a->count; i++) {
        assert_true(fabs(f[i]) <= 0.5 * sqrt(3.0));
        sum += f[i];
        sq += (double)f[i] * f[i];
    }
    double mean = sum / (double)a->count, sd = sqrt(sq / (double)a->count - mean * mean);
    assert_true(fabs(mean) < 0.01);
    assert_true(fabs(sd - 0.5) < 0.01);
    /* another seed, another stream (bf16 values compared through f64) */
    int same = 0;
    for (int64_t i = 0; i < 64; i++)
        same += base_elem_get_f64(BASE_DT_BF16, c->data, (size_t)i) == base_float_round(BASE_DT_BF16, f[i]);
    assert_true(same < 16);
    base_tensor_release(a);
    base_tensor_release(b);
    base_tensor_release(c);
}

static void test_tensor_fill_random_integers_in_range(void **state)
{
    (void)state;
    int64_t dims[1] = {4096};
    struct base_tensor *t = NULL, *u = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_SI64, 1, dims, &t), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_UI4, 1, dims, &u), BASE_OK);
    assert_int_equal(base_tensor_fill_random(t, 1, 1.0), BASE_OK);
    assert_int_equal(base_tensor_fill_random(u, 1, 1.0), BASE_OK);
    int64_t mx = 0;
    for (int64_t i = 0; i < t->count; i++) {
        int64_t v = ((int64_t *)t->data)[i];
        assert_true(v >= 0 && v < 1000);
        if (v > mx) mx = v;
        assert_true(base_elem_get_u64(BASE_DT_UI4, u->data, (size_t)i) < 16);
    }
    assert_true(mx > 900);
    base_tensor_release(t);
    base_tensor_release(u);
}

TEST_MAIN(NULL, NULL,
          T(test_tensor_fill_random_moments_and_determinism),
          T(test_tensor_fill_random_integers_in_range),
          T(test_tensor_create_is_zeroed_and_aligned),
          T(test_tensor_rank0_has_one_element),
          T(test_tensor_zero_sized_dims),
          T(test_tensor_create_rejects_negative_dim),
          T(test_tensor_create_rejects_overflowing_count),
          T(test_tensor_create_rejects_bad_rank),
          T(test_tensor_shape_count_limits),
          T(test_tensor_strides_row_major),
          T(test_tensor_reshape_shares_storage),
          T(test_tensor_reshape_rejects_count_change),
          T(test_tensor_clone_copies),
          T(test_tensor_create_like_is_zeroed),
          T(test_tensor_retain_release_counts),
          T(test_tensor_type_str))
