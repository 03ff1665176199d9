/* Checked arithmetic, the limits table, reading within limits, atomic
 * outputs and output names kept inside their folder (issue 20). */
#include "tests/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_checked_arithmetic_refuses_wraparound(void **state)
{
    (void)state;
    uint64_t u;
    int64_t i;
    size_t z;
    assert_true(base_add_u64(1, 2, &u) && u == 3);
    assert_false(base_add_u64(UINT64_MAX, 1, &u));
    /* the exec reproducer: address + size past 2^64 */
    assert_false(base_add_u64(UINT64_C(18446744073709551488), 512, &u));
    assert_false(base_mul_u64(UINT64_C(1) << 32, UINT64_C(1) << 32, &u));
    assert_true(base_mul_u64(UINT64_C(1) << 31, UINT64_C(1) << 32, &u) && u == UINT64_C(1) << 63);
    assert_false(base_add_i64(INT64_MAX, 1, &i));
    assert_false(base_sub_i64(INT64_MIN, 1, &i));
    assert_false(base_mul_i64(INT64_C(99999999999), INT64_C(99999999999), &i));
    assert_true(base_mul_i64(-3, 4, &i) && i == -12);
    assert_false(base_add_size(SIZE_MAX, 1, &z));
    assert_false(base_mul_size(SIZE_MAX / 2, 3, &z));
    assert_int_equal(base_sat_add_u64(UINT64_MAX - 1, 5), UINT64_MAX);
    assert_int_equal(base_sat_mul_u64(UINT64_MAX / 2, 3), UINT64_MAX);
    assert_int_equal(base_sat_add_u64(2, 3), 5);
}

static void test_shape_count_bounds_the_strides_of_empty_shapes(void **state)
{
    (void)state;
    /* tensor<0x99999999999x99999999999xf32>: 0 elements, but its first
     * stride overflows int64 */
    int64_t dims[3] = {0, INT64_C(99999999999), INT64_C(99999999999)};
    assert_int_equal(base_shape_count(3, dims), -1);
    int64_t ok[3] = {0, 1024, 1024};
    assert_int_equal(base_shape_count(3, ok), 0);
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 3, dims, &t), BASE_ERR_LIMIT);
    assert_null(t);
    uint64_t bytes;
    assert_true(base_shape_bytes(3, ok, BASE_DT_F32, &bytes) && bytes == 0);
    int64_t big[2] = {1 << 20, 1 << 16};
    assert_true(base_shape_bytes(2, big, BASE_DT_C128, &bytes) && bytes == (UINT64_C(1) << 36) * 16);
    assert_false(base_shape_bytes(3, dims, BASE_DT_F32, &bytes));
}

static void test_parse_u64_is_whole_and_exact(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(base_parse_u64("4", &v) && v == 4);
    assert_true(base_parse_u64("2K", &v) && v == 2048);
    assert_true(base_parse_u64("3GB", &v) && v == UINT64_C(3000000000));
    assert_true(base_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
    assert_false(base_parse_u64("18446744073709551616", &v));
    assert_false(base_parse_u64("99999999999999999999", &v));
    assert_false(base_parse_u64("4x", &v)); /* --chips 4x */
    assert_false(base_parse_u64("-5", &v)); /* --timeout -5 */
    assert_false(base_parse_u64("", &v));
    assert_false(base_parse_u64("1e3", &v));
    assert_false(base_parse_u64(" 4", &v));
    assert_false(base_parse_u64("17179869184G", &v)); /* 2^34 GiB wraps */
}

static void test_limits_table_names_defaults_and_options(void **state)
{
    (void)state;
    struct base_limits l;
    base_limits_default(&l);
    for (int k = 0; k < BASE_LIMIT_COUNT; k++) {
        assert_true(base_limit_name((enum base_limit)k)[0]);
        assert_true(base_limit_what((enum base_limit)k)[0]);
        assert_true(base_limit_default((enum base_limit)k) > 0);
        assert_true(base_limit_default((enum base_limit)k) <= base_limit_ceiling((enum base_limit)k));
        assert_int_equal(base_limit(&l, (enum base_limit)k), base_limit(NULL, (enum base_limit)k));
        for (int j = 0; j < k; j++) assert_string_not_equal(base_limit_name((enum base_limit)j), base_limit_name((enum base_limit)k));
    }
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_limits_set(&l, "chips=1M", &d), BASE_OK);
    assert_int_equal(base_limit(&l, BASE_LIMIT_CHIPS), 1 << 20);
    assert_int_equal(base_limits_set(&l, "chips=4x", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "--limit chips=N"));
    base_diag_clear(&d);
    assert_int_equal(base_limits_set(&l, "nesting=100000", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "at most 1024"));
    base_diag_clear(&d);
    assert_int_equal(base_limits_set(&l, "no-such=1", &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "input-bytes"));
    base_diag_clear(&d);
    assert_int_equal(base_limit_fail(&d, "x.json.gz", 0, 0, NULL, BASE_LIMIT_INFLATED_BYTES, UINT64_C(6) << 30,
                                     "inflated size"),
                     BASE_ERR_LIMIT);
    assert_string_equal(d.file, "x.json.gz");
    assert_non_null(strstr(d.msg, "inflated size: 6442450944 is over the inflated-bytes limit of 2147483648"));
    assert_non_null(strstr(d.msg, "raise it with --limit inflated-bytes=N"));
}

/* A scratch folder under /tmp for one test. */
static void scratch(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/npusim_test_limits_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static int count_entries(const char *dir)
{
    size_t n = 0;
    char **p = test_dir_paths(dir, &n);
    test_paths_free(p, n);
    return (int)n;
}

static void test_file_read_refuses_fifos_and_devices(void **state)
{
    (void)state;
    char dir[64], fifo[128];
    scratch(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/in.mlir", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    struct base_diag d;
    base_diag_clear(&d);
    char *text = NULL;
    size_t len = 0;
    /* no writer: without the check this would block forever */
    assert_int_equal(base_file_read(fifo, &text, &len, &d), BASE_ERR_IO);
    assert_string_equal(d.file, fifo);
    assert_non_null(strstr(d.msg, "a FIFO, not a regular file"));
    base_diag_clear(&d);
    assert_int_equal(base_file_read("/dev/zero", &text, &len, &d), BASE_ERR_IO);
    assert_non_null(strstr(d.msg, "character device"));
    base_diag_clear(&d);
    assert_int_equal(base_file_read(dir, &text, &len, &d), BASE_ERR_IO);
    assert_non_null(strstr(d.msg, "a folder"));
    /* told otherwise, a device is read up to the input-bytes limit */
    struct base_limits l;
    base_limits_default(&l);
    l.special_files = true;
    l.v[BASE_LIMIT_INPUT_BYTES] = 1 << 20;
    base_diag_clear(&d);
    assert_int_equal(base_file_read_lim("/dev/zero", &l, &text, &len, &d), BASE_ERR_LIMIT);
    assert_null(text);
    assert_non_null(strstr(d.msg, "input-bytes limit of 1048576"));
    unlink(fifo);
    rmdir(dir);
}

static void test_file_read_caps_regular_files(void **state)
{
    (void)state;
    char dir[64], path[128];
    scratch(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/big.mlir", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 5000; i++) fputc('x', f);
    fclose(f);
    struct base_limits l;
    base_limits_default(&l);
    l.v[BASE_LIMIT_INPUT_BYTES] = 4096;
    struct base_diag d;
    base_diag_clear(&d);
    char *text = NULL;
    size_t len;
    assert_int_equal(base_file_read_lim(path, &l, &text, &len, &d), BASE_ERR_LIMIT);
    assert_non_null(strstr(d.msg, "file size: 5000 is over the input-bytes limit of 4096"));
    l.v[BASE_LIMIT_INPUT_BYTES] = 5000;
    base_diag_clear(&d);
    assert_int_equal(base_file_read_lim(path, &l, &text, &len, &d), BASE_OK);
    assert_int_equal(len, 5000);
    assert_int_equal(text[5000], 0);
    free(text);
    unlink(path);
    rmdir(dir);
}

static void test_out_commit_renames_and_abort_leaves_nothing(void **state)
{
    (void)state;
    char dir[64], path[128];
    scratch(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.bin", dir);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_out o;
    assert_int_equal(base_out_open(&o, path, &d), BASE_OK);
    fputs("hello", o.f);
    assert_int_equal(access(path, F_OK), -1); /* not there until committed */
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(base_out_commit(&o, &d), BASE_OK);
    char *text = NULL;
    size_t len;
    assert_int_equal(base_file_read(path, &text, &len, &d), BASE_OK);
    assert_string_equal(text, "hello");
    free(text);
    /* an aborted rewrite keeps the old file and leaves no temporary */
    assert_int_equal(base_out_open(&o, path, &d), BASE_OK);
    fputs("partial", o.f);
    base_out_abort(&o);
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(base_file_read(path, &text, &len, &d), BASE_OK);
    assert_string_equal(text, "hello");
    free(text);
    unlink(path);
    rmdir(dir);
}

static void test_out_failed_write_names_the_file_and_leaves_nothing(void **state)
{
    (void)state;
    /* /dev/full: every write fails with ENOSPC (disk full) */
    if (access("/dev/full", W_OK) != 0) skip();
    char dir[64], path[128];
    scratch(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.npy", dir);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_out o;
    assert_int_equal(base_out_open(&o, path, &d), BASE_OK);
    /* point the stream at a full disk */
    int full = open("/dev/full", O_WRONLY);
    assert_true(full >= 0);
    assert_true(dup2(full, fileno(o.f)) >= 0);
    close(full);
    for (int i = 0; i < 100000; i++) fputc('x', o.f);
    assert_int_equal(base_out_commit(&o, &d), BASE_ERR_IO);
    assert_string_equal(d.file, path);
    assert_non_null(strstr(d.msg, "No space left on device"));
    assert_int_equal(count_entries(dir), 0);
    rmdir(dir);
    /* a folder that does not exist */
    base_diag_clear(&d);
    assert_int_equal(base_out_open(&o, "/nonexistent-npusim/x.npy", &d), BASE_ERR_IO);
    assert_non_null(strstr(d.msg, "cannot create"));
}

static void test_path_join_keeps_names_inside_the_folder(void **state)
{
    (void)state;
    char buf[64];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_path_join("out", "c", ".npy", buf, sizeof buf, "dump name", &d), BASE_OK);
    assert_string_equal(buf, "out/c.npy");
    assert_int_equal(base_path_join(NULL, "sub/c", NULL, buf, sizeof buf, "dump name", &d), BASE_OK);
    assert_string_equal(buf, "sub/c");
    static const char *const bad[] = {"../../name", "..", "/etc/passwd", "a/../../b", "", "./x", "a//b", "a/"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        base_diag_clear(&d);
        assert_int_equal(base_path_join("out", bad[i], ".npy", buf, sizeof buf, "dump name", &d), BASE_ERR_INVALID);
        assert_non_null(strstr(d.msg, "would leave the output folder"));
    }
    base_diag_clear(&d);
    assert_int_equal(base_path_join("out", "a-very-long-name-that-does-not-fit-in-the-buffer-at-all", ".npy", buf, 32,
                                    "dump name", &d),
                     BASE_ERR_INVALID);
}

TEST_MAIN(NULL, NULL,
          T(test_checked_arithmetic_refuses_wraparound),
          T(test_shape_count_bounds_the_strides_of_empty_shapes),
          T(test_parse_u64_is_whole_and_exact),
          T(test_limits_table_names_defaults_and_options),
          T(test_file_read_refuses_fifos_and_devices),
          T(test_file_read_caps_regular_files),
          T(test_out_commit_renames_and_abort_leaves_nothing),
          T(test_out_failed_write_names_the_file_and_leaves_nothing),
          T(test_path_join_keeps_names_inside_the_folder))
