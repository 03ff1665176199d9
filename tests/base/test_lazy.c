/* Lazy tensors and procedural random values: base_random_elems computes any
 * range of base_tensor_fill_random's values directly, and equals the
 * sequential generator it replaced, value for value; lazy tensors read,
 * slice, reshape, materialise and write like stored ones. */
#include "tests/harness.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

/* The generator as it was before values could be computed directly: one
 * splitmix64 stream, drawn in order, four 16-bit uniforms per draw, in
 * chunks of 2^14 values converted from f32.  The procedural inputs must
 * reproduce it exactly (existing figures and tests keep their values). */
static void sequential_fill(struct base_tensor *t, uint64_t seed, double scale)
{
    struct base_rng r;
    base_rng_seed(&r, seed);
    enum base_dtype dt = t->dtype;
    enum base_dtype_kind kind = base_dtype_kind(dt);
    size_t n = (size_t)t->count * (kind == BASE_KIND_COMPLEX ? 2 : 1);
    if (kind == BASE_KIND_BOOL || kind == BASE_KIND_SINT || kind == BASE_KIND_UINT) {
        uint64_t hi = base_int_max(dt);
        uint64_t range = hi < 999 ? hi + 1 : 1000;
        for (size_t i = 0; i < n; i++) base_elem_set_i64(dt, t->data, i, (int64_t)(base_rng_next(&r) % range));
        return;
    }
    enum { CHUNK = 1 << 14 };
    static float buf[CHUNK];
    const float step = (float)(scale * 3.4641016151377544 / 65536.0);
    const float off = (float)(scale * 1.7320508075688772) - step * 0.5f;
    enum base_dtype comp = base_dtype_component(dt);
    size_t esize = base_dtype_size(comp);
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t m = n - start < CHUNK ? n - start : CHUNK;
        for (size_t i = 0; i < m; i += 4) {
            uint64_t x = base_rng_next(&r);
            for (size_t k = 0; k < 4 && i + k < m; k++) buf[i + k] = (float)((x >> (16 * k)) & 0xFFFF) * step - off;
        }
        base_convert(comp, (char *)t->data + start * esize, BASE_DT_F32, buf, m);
    }
}

static const enum base_dtype kinds[] = {BASE_DT_F32,  BASE_DT_BF16, BASE_DT_F16,   BASE_DT_F64, BASE_DT_C64,
                                        BASE_DT_F8E4M3FN, BASE_DT_SI32, BASE_DT_UI8, BASE_DT_I1,  BASE_DT_SI64};

static void test_random_elems_equal_the_sequential_generator(void **state)
{
    (void)state;
    struct base_rng pick;
    base_rng_seed(&pick, test_seed());
    const int64_t sizes[] = {1, 3, 5, 4099, (1 << 14) + 7, 3 * (1 << 14) + 2};
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++)
        for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
            int64_t dims[1] = {sizes[s]};
            uint64_t seed = 1 * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)s;
            double scale = 1.0 / sqrt(64.0);
            struct base_tensor *want = NULL, *got = NULL, *lazy = NULL;
            assert_int_equal(base_tensor_create(kinds[k], 1, dims, &want), BASE_OK);
            assert_int_equal(base_tensor_create(kinds[k], 1, dims, &got), BASE_OK);
            sequential_fill(want, seed, scale);
            assert_int_equal(base_tensor_fill_random(got, seed, scale), BASE_OK);
            assert_memory_equal(want->data, got->data, base_tensor_nbytes(want));
            /* any window, computed on its own */
            assert_int_equal(base_tensor_create_random(kinds[k], 1, dims, seed, scale, &lazy), BASE_OK);
            size_t es = base_dtype_size(kinds[k]);
            char *buf = malloc((size_t)sizes[s] * es);
            assert_non_null(buf);
            for (int w = 0; w < 20; w++) {
                int64_t first = (int64_t)(base_rng_next(&pick) % (uint64_t)sizes[s]);
                int64_t n = 1 + (int64_t)(base_rng_next(&pick) % (uint64_t)(sizes[s] - first));
                assert_int_equal(base_tensor_read(lazy, first, n, buf), BASE_OK);
                assert_memory_equal(buf, (char *)want->data + (size_t)first * es, (size_t)n * es);
            }
            free(buf);
            base_tensor_release(lazy);
            base_tensor_release(want);
            base_tensor_release(got);
        }
}

/* A lazy random tensor reads, materialises and clones to the stored fill. */
static void test_lazy_random_tensor_materializes_to_the_fill(void **state)
{
    (void)state;
    int64_t dims[3] = {3, 70, 33};
    struct base_tensor *want = NULL, *lazy = NULL, *m = NULL, *c = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 3, dims, &want), BASE_OK);
    assert_int_equal(base_tensor_fill_random(want, 99, 0.25), BASE_OK);
    assert_int_equal(base_tensor_create_random(BASE_DT_BF16, 3, dims, 99, 0.25, &lazy), BASE_OK);
    assert_true(lazy->lazy);
    assert_null(lazy->data);
    assert_int_equal(base_tensor_stored_bytes(lazy), 0);
    assert_int_equal(base_tensor_nbytes(lazy), base_tensor_nbytes(want));
    assert_int_equal(base_tensor_fill_random(lazy, 1, 1.0), BASE_ERR_INVALID);
    assert_int_equal(base_tensor_materialize(lazy, &m), BASE_OK);
    assert_false(m->lazy);
    assert_memory_equal(m->data, want->data, base_tensor_nbytes(want));
    assert_int_equal(base_tensor_clone(lazy, &c), BASE_OK);
    assert_memory_equal(c->data, want->data, base_tensor_nbytes(want));
    /* a stored tensor materialises to itself */
    struct base_tensor *same = NULL;
    assert_int_equal(base_tensor_materialize(want, &same), BASE_OK);
    assert_ptr_equal(same, want);
    base_tensor_release(same);
    assert_int_equal(base_tensor_read(lazy, 10, lazy->count, c->data), BASE_ERR_INVALID);
    base_tensor_release(m);
    base_tensor_release(c);
    base_tensor_release(lazy);
    base_tensor_release(want);
}

/* Boxes of a lazy tensor are lazy views (of views too), and read what the
 * same boxes of the stored tensor hold. */
static void test_lazy_box_views_read_the_boxes(void **state)
{
    (void)state;
    int64_t dims[3] = {4, 6, 10};
    struct base_tensor *want = NULL, *lazy = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 3, dims, &want), BASE_OK);
    assert_int_equal(base_tensor_fill_random(want, 5, 1.0), BASE_OK);
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 3, dims, 5, 1.0, &lazy), BASE_OK);
    int64_t off[3] = {1, 2, 3}, size[3] = {2, 3, 5};
    struct base_tensor *v = NULL, *d = NULL, *vd = NULL;
    assert_int_equal(base_tensor_box(lazy, off, size, &v), BASE_OK);
    assert_true(v->lazy);
    assert_false(v->lazy_whole);
    assert_int_equal(base_tensor_read_box(want, off, size, &d), BASE_OK);
    assert_false(d->lazy);
    assert_int_equal(base_tensor_materialize(v, &vd), BASE_OK);
    assert_memory_equal(vd->data, d->data, base_tensor_nbytes(d));
    for (int64_t i = 0; i < d->count; i++) {
        int64_t a = i / 15, b = (i / 5) % 3, c = i % 5;
        assert_true(((float *)d->data)[i] == ((float *)want->data)[(1 + a) * 60 + (2 + b) * 10 + 3 + c]);
    }
    /* a window inside the view, starting mid-row */
    float got[7];
    assert_int_equal(base_tensor_read(v, 3, 7, got), BASE_OK);
    assert_memory_equal(got, (float *)d->data + 3, sizeof got);
    /* a box of the view: offsets add up */
    int64_t off2[3] = {1, 1, 2}, size2[3] = {1, 2, 2};
    struct base_tensor *vv = NULL, *dd = NULL;
    assert_int_equal(base_tensor_box(v, off2, size2, &vv), BASE_OK);
    assert_true(vv->lazy);
    assert_int_equal(base_tensor_read_box(d, off2, size2, &dd), BASE_OK);
    float g2[4];
    assert_int_equal(base_tensor_read(vv, 0, 4, g2), BASE_OK);
    assert_memory_equal(g2, dd->data, sizeof g2);
    /* a box of the whole source is whole again; out of range is refused */
    int64_t zero[3] = {0, 0, 0};
    struct base_tensor *all = NULL, *bad = (struct base_tensor *)1;
    assert_int_equal(base_tensor_box(lazy, zero, dims, &all), BASE_OK);
    assert_true(all->lazy_whole);
    int64_t big[3] = {4, 6, 11};
    assert_int_equal(base_tensor_box(lazy, zero, big, &bad), BASE_ERR_INVALID);
    assert_null(bad);
    /* a box of a stored tensor is a stored copy */
    struct base_tensor *sd = NULL;
    assert_int_equal(base_tensor_box(want, off, size, &sd), BASE_OK);
    assert_false(sd->lazy);
    assert_memory_equal(sd->data, d->data, base_tensor_nbytes(d));
    struct base_tensor *ts[] = {want, lazy, v, d, vd, vv, dd, all, sd};
    for (size_t i = 0; i < ARRAY_LEN(ts); i++) base_tensor_release(ts[i]);
}

/* A whole lazy tensor reshapes (the same values in row-major order); a box
 * of one does not; a box of a reshaped one is read into a stored tensor. */
static void test_lazy_reshape_only_whole(void **state)
{
    (void)state;
    int64_t dims[2] = {6, 8}, flat[1] = {48}, d3[3] = {2, 3, 8};
    struct base_tensor *lazy = NULL, *r = NULL, *want = NULL;
    assert_int_equal(base_tensor_create_random(BASE_DT_F16, 2, dims, 3, 1.0, &lazy), BASE_OK);
    assert_int_equal(base_tensor_materialize(lazy, &want), BASE_OK);
    assert_int_equal(base_tensor_reshape(lazy, 3, d3, &r), BASE_OK);
    assert_true(r->lazy && r->lazy_whole);
    uint16_t got[48];
    assert_int_equal(base_tensor_read(r, 0, 48, got), BASE_OK);
    assert_memory_equal(got, want->data, sizeof got);
    int64_t off[3] = {1, 1, 2}, size[3] = {1, 2, 3};
    struct base_tensor *b = NULL;
    assert_int_equal(base_tensor_box(r, off, size, &b), BASE_OK);
    assert_false(b->lazy);
    for (int i = 0; i < 6; i++)
        assert_int_equal(((uint16_t *)b->data)[i], got[24 + 8 * (1 + i / 3) + 2 + i % 3]);
    int64_t o2[2] = {1, 0}, s2[2] = {2, 8};
    struct base_tensor *v = NULL, *bad = (struct base_tensor *)1;
    assert_int_equal(base_tensor_box(lazy, o2, s2, &v), BASE_OK);
    assert_int_equal(base_tensor_reshape(v, 1, (int64_t[]){16}, &bad), BASE_ERR_UNSUPPORTED);
    assert_null(bad);
    (void)flat;
    struct base_tensor *ts[] = {lazy, r, want, b, v};
    for (size_t i = 0; i < ARRAY_LEN(ts); i++) base_tensor_release(ts[i]);
}

struct counting_src {
    int releases;
    int fail_from; /* reads at or past this index fail */
};

static enum base_status counting_read(void *user, int64_t first, int64_t n, void *out)
{
    struct counting_src *c = user;
    if (first + n > c->fail_from) return BASE_ERR_IO;
    for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = (int32_t)(first + i);
    return BASE_OK;
}

static void counting_release(void *user) { ((struct counting_src *)user)->releases++; }

/* The source is released once, with its last tensor; its errors reach the
 * reader; a failed creation releases it too. */
static void test_lazy_source_lifetime_and_errors(void **state)
{
    (void)state;
    struct counting_src c = {0, 50};
    struct base_lazy_src src = {counting_read, counting_release, &c};
    int64_t dims[2] = {10, 10};
    struct base_tensor *t = NULL, *v = NULL, *m = (struct base_tensor *)1;
    assert_int_equal(base_tensor_create_lazy(BASE_DT_SI32, 2, dims, &src, &t), BASE_OK);
    int32_t buf[10];
    assert_int_equal(base_tensor_read(t, 20, 10, buf), BASE_OK);
    assert_int_equal(buf[3], 23);
    assert_int_equal(base_tensor_read(t, 45, 10, buf), BASE_ERR_IO);
    assert_int_equal(base_tensor_materialize(t, &m), BASE_ERR_IO);
    assert_null(m);
    int64_t off[2] = {1, 2}, size[2] = {2, 3};
    assert_int_equal(base_tensor_box(t, off, size, &v), BASE_OK);
    base_tensor_release(t);
    assert_int_equal(c.releases, 0);
    assert_int_equal(base_tensor_read(v, 0, 6, buf), BASE_OK);
    assert_int_equal(buf[0], 12);
    assert_int_equal(buf[3], 22);
    base_tensor_release(v);
    assert_int_equal(c.releases, 1);
    int64_t neg[1] = {-1};
    assert_int_equal(base_tensor_create_lazy(BASE_DT_SI32, 1, neg, &src, &t), BASE_ERR_LIMIT);
    assert_null(t);
    assert_int_equal(c.releases, 2);
}

/* .npy files of lazy tensors hold their values; a write that cannot happen
 * leaves nothing behind (no half-written file, no .part). */
static void test_npy_write_lazy_and_whole_or_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/npusim_lazy_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], part[300];
    snprintf(path, sizeof path, "%s/x.npy", dir);
    snprintf(part, sizeof part, "%s.part", path);
    int64_t dims[2] = {300, 1100}; /* more than one 1 MiB chunk of f32 */
    struct base_tensor *lazy = NULL, *back = NULL, *want = NULL;
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 2, dims, 11, 1.0, &lazy), BASE_OK);
    assert_int_equal(base_tensor_materialize(lazy, &want), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_npy_write(path, lazy, &d), BASE_OK);
    assert_int_equal(access(part, F_OK), -1);
    assert_int_equal(base_npy_read(path, &back, &d), BASE_OK);
    assert_memory_equal(back->data, want->data, base_tensor_nbytes(want));
    /* a source that fails half way: no file */
    struct counting_src c = {0, 200000};
    struct base_lazy_src src = {counting_read, counting_release, &c};
    struct base_tensor *bad = NULL;
    assert_int_equal(base_tensor_create_lazy(BASE_DT_SI32, 2, dims, &src, &bad), BASE_OK);
    char path2[256], part2[300];
    snprintf(path2, sizeof path2, "%s/y.npy", dir);
    snprintf(part2, sizeof part2, "%s.part", path2);
    base_diag_clear(&d);
    assert_int_not_equal(base_npy_write(path2, bad, &d), BASE_OK);
    assert_int_equal(access(path2, F_OK), -1);
    assert_int_equal(access(part2, F_OK), -1);
    assert_non_null(strstr(d.msg, "cannot read"));
    base_tensor_release(bad);
    remove(path);
    rmdir(dir);
    base_tensor_release(lazy);
    base_tensor_release(back);
    base_tensor_release(want);
}

TEST_MAIN(NULL, NULL,
          T(test_random_elems_equal_the_sequential_generator),
          T(test_lazy_random_tensor_materializes_to_the_fill),
          T(test_lazy_box_views_read_the_boxes),
          T(test_lazy_reshape_only_whole),
          T(test_lazy_source_lifetime_and_errors),
          T(test_npy_write_lazy_and_whole_or_nothing))
