/* dist/: shares of the chips, message packing, and the one-process
 * exchanges (the MPI ones run in tests/dist/test_mpi.sh under mpirun). */
#include "tests/harness.h"

#include "dist/dist.h"

/* Every item is owned by exactly one rank, in blocks in rank order, the
 * blocks differing by at most one. */
static void test_share_covers_in_order(void **state)
{
    (void)state;
    for (int n = 0; n <= 17; n++)
        for (int size = 1; size <= 9; size++) {
            int next = 0, smallest = n, largest = 0;
            for (int r = 0; r < size; r++) {
                int lo, hi;
                dist_share(n, size, r, &lo, &hi);
                assert_int_equal(lo, next);
                assert_true(hi >= lo);
                for (int i = lo; i < hi; i++) assert_int_equal(dist_owner(n, size, i), r);
                if (hi - lo < smallest) smallest = hi - lo;
                if (hi - lo > largest) largest = hi - lo;
                next = hi;
            }
            assert_int_equal(next, n);
            assert_true(largest - smallest <= 1);
        }
    int lo, hi;
    dist_share(4, 3, 0, &lo, &hi); /* the first n % size ranks take one more */
    assert_int_equal(hi - lo, 2);
    dist_share(4, 3, 2, &lo, &hi);
    assert_int_equal(lo, 3);
    assert_int_equal(hi, 4);
}

static void test_tensor_round_trip(void **state)
{
    (void)state;
    int64_t dims[3] = {2, 3, 5};
    struct base_tensor *a = NULL, *s = NULL, *b = NULL, *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 3, dims, &a), BASE_OK);
    for (int64_t i = 0; i < a->count; i++) ((uint16_t *)a->data)[i] = (uint16_t)(i * 977 + 3);
    assert_int_equal(base_tensor_create(BASE_DT_SI32, 0, dims, &s), BASE_OK);
    ((int32_t *)s->data)[0] = -7;
    struct dist_buf buf = {0};
    assert_int_equal(dist_buf_put_tensor(&buf, a), BASE_OK);
    assert_int_equal(dist_buf_put_tensor(&buf, NULL), BASE_OK); /* a token */
    assert_int_equal(dist_buf_put_tensor(&buf, s), BASE_OK);
    struct base_diag d;
    base_diag_clear(&d);
    struct dist_reader r = {buf.data, buf.data + buf.len};
    assert_int_equal(dist_take_tensor(&r, &b, &d), BASE_OK);
    assert_int_equal(b->dtype, BASE_DT_BF16);
    assert_int_equal(b->rank, 3);
    assert_memory_equal(b->dims, dims, sizeof dims);
    assert_memory_equal(b->data, a->data, (size_t)a->count * 2);
    assert_int_equal(dist_take_tensor(&r, &t, &d), BASE_OK);
    assert_null(t);
    assert_int_equal(dist_take_tensor(&r, &t, &d), BASE_OK);
    assert_int_equal(t->rank, 0);
    assert_int_equal(((int32_t *)t->data)[0], -7);
    assert_ptr_equal(r.p, r.end);
    base_tensor_release(t);
    t = NULL;
    /* a message cut inside the elements, or inside the header, is refused */
    struct dist_reader cut = {buf.data, buf.data + buf.len / 4};
    assert_int_equal(dist_take_tensor(&cut, &t, &d), BASE_ERR_PARSE);
    assert_null(t);
    struct dist_reader cut2 = {buf.data, buf.data + 4};
    assert_int_equal(dist_take_tensor(&cut2, &t, &d), BASE_ERR_PARSE);
    /* bytes that are not a tensor's header */
    uint8_t junk[sizeof(int32_t) * 2 + sizeof(int64_t) * BASE_MAX_RANK];
    memset(junk, 0x7f, sizeof junk);
    struct dist_reader bad = {junk, junk + sizeof junk};
    base_diag_clear(&d); /* a diagnostic keeps its first error */
    assert_int_equal(dist_take_tensor(&bad, &t, &d), BASE_ERR_PARSE);
    assert_non_null(strstr(d.msg, "no tensor"));
    dist_buf_free(&buf);
    base_tensor_release(a);
    base_tensor_release(s);
    base_tensor_release(b);
}

/* Outside an MPI job: rank 0 of 1, the exchanges return one's own bytes. */
static void test_one_process(void **state)
{
    (void)state;
    assert_int_equal(dist_rank(), 0);
    assert_int_equal(dist_size(), 1);
    struct base_diag d;
    base_diag_clear(&d);
    struct dist_gathered g;
    const char msg[] = "partition 0";
    assert_int_equal(dist_allgather(msg, sizeof msg, &g, &d), BASE_OK);
    assert_int_equal(g.offset[0], 0);
    assert_int_equal(g.offset[1], sizeof msg);
    assert_memory_equal(g.data, msg, sizeof msg);
    dist_gathered_free(&g);
    assert_int_equal(dist_gather(NULL, 0, &g, &d), BASE_OK);
    assert_int_equal(g.offset[1], 0);
    dist_gathered_free(&g);
    /* holding output back is for ranks other than 0 */
    assert_int_equal(dist_hold_output(&d), BASE_OK);
    dist_release_output(true);
    if (!dist_built_with_mpi()) {
        assert_int_equal(dist_init(&d), BASE_ERR_UNSUPPORTED);
        assert_non_null(strstr(d.msg, "libopenmpi-dev"));
    }
}

TEST_MAIN(NULL, NULL, T(test_share_covers_in_order), T(test_tensor_round_trip), T(test_one_process))
