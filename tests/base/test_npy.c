/* .npy reading and writing.  Fixtures are byte-for-byte what numpy.save
 * writes: "\x93NUMPY", version, little-endian header length, the header dict
 * padded with spaces and a final '\n' so that the data starts at a multiple
 * of 64 (118 header bytes for all the short dicts below). */
#include "tests/harness.h"

#include <stdio.h>
#include <unistd.h>

#define V1_118 "\x93NUMPY\x01\x00\x76\x00" /* version 1.0, header length 118 */
#define V2_116 "\x93NUMPY\x02\x00\x74\x00\x00\x00"
#define V3_116 "\x93NUMPY\x03\x00\x74\x00\x00\x00"

struct fixture {
    unsigned char b[1024];
    size_t n;
};

/* preamble + dict + spaces up to `header_end - 1` + '\n' + data */
static void fx_make(struct fixture *f, const char *pre, size_t pre_len, const char *dict,
                    size_t header_end, const void *data, size_t data_len)
{
    size_t dl = strlen(dict);
    assert_true(pre_len + dl + 1 <= header_end && header_end + data_len <= sizeof f->b);
    memcpy(f->b, pre, pre_len);
    memcpy(f->b + pre_len, dict, dl);
    memset(f->b + pre_len + dl, ' ', header_end - 1 - pre_len - dl);
    f->b[header_end - 1] = '\n';
    if (data_len) memcpy(f->b + header_end, data, data_len);
    f->n = header_end + data_len;
}

static const unsigned char f32_1to6[24] = {
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
    0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0xA0, 0x40, 0x00, 0x00, 0xC0, 0x40,
};
#define DICT_F32_2X3 "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"

static void fx_f32_2x3(struct fixture *f)
{
    fx_make(f, V1_118, 10, DICT_F32_2X3, 128, f32_1to6, sizeof f32_1to6);
}

static enum base_status read_fx(const struct fixture *f, struct base_tensor **t, struct base_diag *d)
{
    base_diag_clear(d);
    return base_npy_read_mem(f->b, f->n, "fx.npy", t, d);
}

static void check_f32_2x3(const struct base_tensor *t)
{
    assert_int_equal(t->dtype, BASE_DT_F32);
    assert_int_equal(t->rank, 2);
    assert_int_equal(t->dims[0], 2);
    assert_int_equal(t->dims[1], 3);
    assert_int_equal(t->count, 6);
    const float *p = t->data;
    for (int i = 0; i < 6; i++) assert_true(p[i] == (float)(i + 1));
}

/* The diag names the file and contains `what`. */
static void expect_fail(const struct fixture *f, enum base_status st, const char *what)
{
    struct base_tensor *t = (struct base_tensor *)1;
    struct base_diag d;
    enum base_status got = read_fx(f, &t, &d);
    if (got != st || !strstr(d.msg, what)) {
        print_error("status %s (want %s), msg '%s' (want '%s')\n", base_status_str(got),
                    base_status_str(st), d.msg, what);
        fail();
    }
    assert_null(t);
    assert_string_equal(d.file, "fx.npy");
    assert_int_equal(d.status, st);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

static void test_npy_read_v1_f32(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    assert_int_equal(f.n, 128 + 24);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    check_f32_2x3(t);
    assert_int_equal((uintptr_t)t->data % 64, 0);
    base_tensor_release(t);
}

static void test_npy_read_v2_and_v3_headers(void **state)
{
    (void)state;
    struct fixture f;
    struct base_tensor *t = NULL;
    struct base_diag d;
    fx_make(&f, V2_116, 12, DICT_F32_2X3, 128, f32_1to6, sizeof f32_1to6);
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    check_f32_2x3(t);
    base_tensor_release(t);
    fx_make(&f, V3_116, 12, DICT_F32_2X3, 128, f32_1to6, sizeof f32_1to6);
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    check_f32_2x3(t);
    base_tensor_release(t);
}

static void test_npy_read_old_16_byte_alignment(void **state)
{
    (void)state;
    /* numpy < 1.? padded to 16: header length 70 -> data at 80 */
    struct fixture f;
    fx_make(&f, "\x93NUMPY\x01\x00\x46\x00", 10, DICT_F32_2X3, 80, f32_1to6, sizeof f32_1to6);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    check_f32_2x3(t);
    base_tensor_release(t);
}

static void test_npy_read_every_descr(void **state)
{
    (void)state;
    static const struct {
        const char *dict;
        enum base_dtype dt;
        unsigned char data[16];
        size_t n;
    } cases[] = {
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", BASE_DT_I1, {1, 0}, 2},
        {"{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", BASE_DT_SI8, {0xFF, 7}, 2},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", BASE_DT_UI8, {0xFF, 7}, 2},
        {"{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }", BASE_DT_SI16, {0xFE, 0xFF}, 2},
        {"{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", BASE_DT_UI16, {0xFE, 0xFF}, 2},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", BASE_DT_SI32, {1, 2, 3, 4}, 4},
        {"{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }", BASE_DT_UI32, {1, 2, 3, 4}, 4},
        {"{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", BASE_DT_SI64, {1, 2, 3, 4, 5, 6, 7, 8}, 8},
        {"{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }", BASE_DT_UI64, {1, 2, 3, 4, 5, 6, 7, 8}, 8},
        {"{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }", BASE_DT_F16, {0x00, 0x3C}, 2},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", BASE_DT_F64, {0, 0, 0, 0, 0, 0, 0xF0, 0x3F}, 8},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", BASE_DT_C64, {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}, 8},
        {"{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", BASE_DT_C128,
         {0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0}, 16},
        {"{'descr': '<V2', 'fortran_order': False, 'shape': (1,), }", BASE_DT_BF16, {0x80, 0x3F}, 2},
        {"{'descr': 'bfloat16', 'fortran_order': False, 'shape': (1,), }", BASE_DT_BF16, {0x80, 0x3F}, 2},
        {"{'descr': '|V2', 'fortran_order': False, 'shape': (1,), }", BASE_DT_BF16, {0x80, 0x3F}, 2},
        {"{'descr': '=f4', 'fortran_order': False, 'shape': (1,), }", BASE_DT_F32, {0, 0, 0x80, 0x3F}, 4},
        {"{'descr': '>i1', 'fortran_order': False, 'shape': (1,), }", BASE_DT_SI8, {5}, 1},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct fixture f;
        fx_make(&f, V1_118, 10, cases[i].dict, 128, cases[i].data, cases[i].n);
        struct base_tensor *t = NULL;
        struct base_diag d;
        if (read_fx(&f, &t, &d) != BASE_OK) {
            print_error("%s: %s\n", cases[i].dict, d.msg);
            fail();
        }
        assert_int_equal(t->dtype, cases[i].dt);
        assert_int_equal(base_tensor_nbytes(t), cases[i].n);
        assert_memory_equal(t->data, cases[i].data, cases[i].n);
        base_tensor_release(t);
    }
}

static void test_npy_read_values_are_little_endian(void **state)
{
    (void)state;
    struct fixture f;
    const unsigned char data[8] = {0x00, 0x3C, 0x00, 0xC0, 0xFE, 0xFF, 0xFF, 0xFF};
    fx_make(&f, V1_118, 10, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", 128, data, 4);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    assert_true(base_elem_get_f64(t->dtype, t->data, 0) == 1.0);
    assert_true(base_elem_get_f64(t->dtype, t->data, 1) == -2.0);
    base_tensor_release(t);
    fx_make(&f, V1_118, 10, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", 128, data + 4, 4);
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    assert_int_equal(base_elem_get_i64(t->dtype, t->data, 0), -2);
    base_tensor_release(t);
}

static void test_npy_read_bool_canonicalises(void **state)
{
    (void)state;
    struct fixture f;
    const unsigned char data[3] = {0, 2, 255};
    fx_make(&f, V1_118, 10, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", 128, data, 3);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    const unsigned char want[3] = {0, 1, 1};
    assert_memory_equal(t->data, want, 3);
    base_tensor_release(t);
}

static void test_npy_read_scalar_and_empty_shapes(void **state)
{
    (void)state;
    struct fixture f;
    struct base_tensor *t = NULL;
    struct base_diag d;
    const unsigned char one[8] = {0, 0, 0, 0, 0, 0, 0xF0, 0x3F};
    fx_make(&f, V1_118, 10, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 128, one, 8);
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    assert_int_equal(t->rank, 0);
    assert_int_equal(t->count, 1);
    assert_true(*(double *)t->data == 1.0);
    base_tensor_release(t);
    fx_make(&f, V1_118, 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (0, 4), }", 128, NULL, 0);
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    assert_int_equal(t->rank, 2);
    assert_int_equal(t->count, 0);
    base_tensor_release(t);
}

static void test_npy_read_key_order_and_spacing_free(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{\"shape\":(2,3),\"fortran_order\":False,\"descr\":\"<f4\"}", 128, f32_1to6,
            sizeof f32_1to6);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_OK);
    check_f32_2x3(t);
    base_tensor_release(t);
}

/* ------------------------------------------------------------------------ */
/* Rejections                                                                */

static void test_npy_rejects_fortran_order(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 128, f32_1to6,
            sizeof f32_1to6);
    expect_fail(&f, BASE_ERR_UNSUPPORTED, "Fortran");
}

static void test_npy_rejects_big_endian(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 128, f32_1to6,
            sizeof f32_1to6);
    expect_fail(&f, BASE_ERR_UNSUPPORTED, "big-endian");
}

static void test_npy_rejects_truncated_data(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    f.n -= 1;
    expect_fail(&f, BASE_ERR_PARSE, "truncated");
}

static void test_npy_rejects_truncated_header(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    f.n = 60;
    expect_fail(&f, BASE_ERR_PARSE, "truncated");
    f.n = 9;
    expect_fail(&f, BASE_ERR_PARSE, "truncated");
}

static void test_npy_rejects_bad_magic(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    f.b[1] = 'n';
    expect_fail(&f, BASE_ERR_PARSE, "magic");
    f.n = 3;
    expect_fail(&f, BASE_ERR_PARSE, "magic");
}

static void test_npy_rejects_unknown_version(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    f.b[6] = 4;
    expect_fail(&f, BASE_ERR_UNSUPPORTED, "version 4.0");
}

static void test_npy_rejects_unsupported_descr(void **state)
{
    (void)state;
    static const char *dicts[] = {
        "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
        "{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }",
        "{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }",
        "{'descr': '|V1', 'fortran_order': False, 'shape': (1,), }",
    };
    for (size_t i = 0; i < ARRAY_LEN(dicts); i++) {
        struct fixture f;
        fx_make(&f, V1_118, 10, dicts[i], 128, f32_1to6, 16);
        expect_fail(&f, BASE_ERR_UNSUPPORTED, "unsupported dtype descr");
    }
}

static void test_npy_rejects_structured_descr(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 128,
            f32_1to6, 4);
    expect_fail(&f, BASE_ERR_PARSE, "expected a string");
}

static void test_npy_rejects_header_too_long(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    memcpy(f.b, "\x93NUMPY\x02\x00\x00\x00\x10\x00", 12); /* 1 MiB header */
    expect_fail(&f, BASE_ERR_LIMIT, "above the limit");
}

static void test_npy_rejects_shape_too_large(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': '|u1', 'fortran_order': False, 'shape': (1000000, 1000000, 1000), }",
            128, NULL, 0);
    expect_fail(&f, BASE_ERR_LIMIT, "elements");
    fx_make(&f, V1_118, 10, "{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999999999999,), }",
            128, NULL, 0);
    expect_fail(&f, BASE_ERR_LIMIT, "too large");
    fx_make(&f, V1_118, 10,
            "{'descr': '|u1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
            128, NULL, 0);
    expect_fail(&f, BASE_ERR_LIMIT, "rank");
}

static void test_npy_rejects_malformed_dicts(void **state)
{
    (void)state;
    static const struct {
        const char *dict;
        const char *what;
    } cases[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "expected a dimension"},
        {"{'descr': '<f4', 'fortran_order': False, }", "missing key 'shape'"},
        {"{'descr': '<f4', 'shape': (1,), }", "missing key 'fortran_order'"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", "expected True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "unknown key"},
        {"'descr': '<f4'", "expected '{'"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (1,), }", "expected ':'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2), }", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x", "trailing"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct fixture f;
        fx_make(&f, V1_118, 10, cases[i].dict, 128, f32_1to6, 16);
        expect_fail(&f, BASE_ERR_PARSE, cases[i].what);
    }
}

static void test_npy_diag_locates_header_error(void **state)
{
    (void)state;
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': '<f4', 'fortran_order': Nope, 'shape': (1,), }", 128, f32_1to6, 4);
    struct base_tensor *t = NULL;
    struct base_diag d;
    assert_int_equal(read_fx(&f, &t, &d), BASE_ERR_PARSE);
    /* "Nope" starts at byte 10 + 34 */
    assert_non_null(strstr(d.msg, "at byte 44"));
    char buf[1024];
    base_diag_format(&d, buf, sizeof buf);
    assert_non_null(strstr(buf, "fx.npy"));
}

/* ------------------------------------------------------------------------ */
/* Files and writing                                                         */

struct tmp {
    char path[64];
};

static void tmp_make(struct tmp *t)
{
    snprintf(t->path, sizeof t->path, "/tmp/npusim_npy_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

static size_t read_bytes(const char *path, unsigned char *b, size_t cap)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    size_t n = fread(b, 1, cap, fp);
    fclose(fp);
    return n;
}

static void test_npy_write_matches_numpy_bytes(void **state)
{
    (void)state;
    int64_t dims[2] = {2, 3};
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_OK);
    memcpy(t->data, f32_1to6, sizeof f32_1to6);
    struct tmp tf;
    tmp_make(&tf);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_npy_write(tf.path, t, &d), BASE_OK);
    unsigned char got[512];
    size_t n = read_bytes(tf.path, got, sizeof got);
    struct fixture f;
    fx_f32_2x3(&f);
    assert_int_equal(n, f.n);
    assert_memory_equal(got, f.b, n);
    unlink(tf.path);
    base_tensor_release(t);
}

static void test_npy_write_shapes_like_numpy(void **state)
{
    (void)state;
    static const struct {
        enum base_dtype dt;
        int rank;
        int64_t dims[2];
        const char *dict;
    } cases[] = {
        {BASE_DT_I1, 1, {4, 0}, "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }"},
        {BASE_DT_BF16, 1, {2, 0}, "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }"},
        {BASE_DT_C128, 0, {0, 0}, "{'descr': '<c16', 'fortran_order': False, 'shape': (), }"},
        {BASE_DT_SI64, 2, {0, 4}, "{'descr': '<i8', 'fortran_order': False, 'shape': (0, 4), }"},
        {BASE_DT_INDEX, 1, {1, 0}, "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }"},
        {BASE_DT_UI8, 1, {1, 0}, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct base_tensor *t = NULL;
        assert_int_equal(base_tensor_create(cases[i].dt, cases[i].rank, cases[i].dims, &t), BASE_OK);
        struct tmp tf;
        tmp_make(&tf);
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(base_npy_write(tf.path, t, &d), BASE_OK);
        unsigned char got[512];
        size_t n = read_bytes(tf.path, got, sizeof got);
        struct fixture f;
        fx_make(&f, V1_118, 10, cases[i].dict, 128, t->data, base_tensor_nbytes(t));
        assert_int_equal(n, f.n);
        assert_memory_equal(got, f.b, n);
        unlink(tf.path);
        base_tensor_release(t);
    }
}

static void test_npy_roundtrip_every_dtype(void **state)
{
    (void)state;
    static const enum base_dtype dts[] = {
        BASE_DT_I1,   BASE_DT_SI8,  BASE_DT_SI16, BASE_DT_SI32, BASE_DT_SI64, BASE_DT_UI8,
        BASE_DT_UI16, BASE_DT_UI32, BASE_DT_UI64, BASE_DT_F16,  BASE_DT_BF16, BASE_DT_F32,
        BASE_DT_F64,  BASE_DT_C64,  BASE_DT_C128,
    };
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (size_t k = 0; k < ARRAY_LEN(dts); k++) {
        int64_t dims[3] = {3, 1, 5};
        struct base_tensor *t = NULL, *u = NULL;
        assert_int_equal(base_tensor_create(dts[k], 3, dims, &t), BASE_OK);
        unsigned char *p = t->data;
        for (size_t i = 0; i < base_tensor_nbytes(t); i++) p[i] = (unsigned char)base_rng_next(&r);
        if (dts[k] == BASE_DT_I1)
            for (size_t i = 0; i < base_tensor_nbytes(t); i++) p[i] &= 1;
        struct tmp tf;
        tmp_make(&tf);
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(base_npy_write(tf.path, t, &d), BASE_OK);
        assert_int_equal(base_npy_read(tf.path, &u, &d), BASE_OK);
        assert_int_equal(u->dtype, dts[k]);
        assert_int_equal(u->rank, 3);
        assert_memory_equal(u->dims, dims, sizeof dims);
        assert_memory_equal(u->data, t->data, base_tensor_nbytes(t));
        unlink(tf.path);
        base_tensor_release(t);
        base_tensor_release(u);
    }
}

static void test_npy_write_rejects_types_without_npy_form(void **state)
{
    (void)state;
    static const enum base_dtype dts[] = {BASE_DT_SI4, BASE_DT_UI2, BASE_DT_F8E4M3FN, BASE_DT_F4E2M1FN};
    for (size_t k = 0; k < ARRAY_LEN(dts); k++) {
        int64_t dims[1] = {2};
        struct base_tensor *t = NULL;
        assert_int_equal(base_tensor_create(dts[k], 1, dims, &t), BASE_OK);
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(base_npy_write("/tmp/npusim_npy_never_written.npy", t, &d), BASE_ERR_UNSUPPORTED);
        assert_non_null(strstr(d.msg, base_dtype_name(dts[k])));
        assert_int_equal(access("/tmp/npusim_npy_never_written.npy", F_OK), -1);
        base_tensor_release(t);
    }
}

static void test_npy_io_errors_name_the_path(void **state)
{
    (void)state;
    struct base_tensor *t = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_npy_read("/nonexistent/dir/x.npy", &t, &d), BASE_ERR_IO);
    assert_null(t);
    assert_string_equal(d.file, "/nonexistent/dir/x.npy");
    int64_t dims[1] = {1};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, dims, &t), BASE_OK);
    base_diag_clear(&d);
    assert_int_equal(base_npy_write("/nonexistent/dir/x.npy", t, &d), BASE_ERR_IO);
    assert_string_equal(d.file, "/nonexistent/dir/x.npy");
    base_tensor_release(t);
}

static void test_npy_read_file_rejects_truncation(void **state)
{
    (void)state;
    struct fixture f;
    fx_f32_2x3(&f);
    struct tmp tf;
    tmp_make(&tf);
    struct base_tensor *t = NULL;
    struct base_diag d;
    /* whole file reads */
    write_bytes(tf.path, f.b, f.n);
    base_diag_clear(&d);
    assert_int_equal(base_npy_read(tf.path, &t, &d), BASE_OK);
    check_f32_2x3(t);
    base_tensor_release(t);
    t = NULL;
    /* cut in the data, in the header, in the preamble */
    static const size_t cuts[] = {150, 128, 100, 11, 7, 0};
    for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
        write_bytes(tf.path, f.b, cuts[i]);
        base_diag_clear(&d);
        enum base_status st = base_npy_read(tf.path, &t, &d);
        assert_int_equal(st, BASE_ERR_PARSE);
        assert_null(t);
        assert_string_equal(d.file, tf.path);
        assert_true(strstr(d.msg, "truncated") || strstr(d.msg, "magic"));
    }
    unlink(tf.path);
}

static void test_npy_read_file_checks_size_before_allocating(void **state)
{
    (void)state;
    /* 2^36 complex<f64> elements = 1 TiB promised, none present */
    struct fixture f;
    fx_make(&f, V1_118, 10, "{'descr': '<c16', 'fortran_order': False, 'shape': (68719476736,), }", 128,
            NULL, 0);
    struct tmp tf;
    tmp_make(&tf);
    write_bytes(tf.path, f.b, f.n);
    struct base_tensor *t = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_npy_read(tf.path, &t, &d), BASE_ERR_PARSE);
    assert_null(t);
    assert_non_null(strstr(d.msg, "truncated"));
    unlink(tf.path);
}

TEST_MAIN(NULL, NULL,
          T(test_npy_read_v1_f32),
          T(test_npy_read_v2_and_v3_headers),
          T(test_npy_read_old_16_byte_alignment),
          T(test_npy_read_every_descr),
          T(test_npy_read_values_are_little_endian),
          T(test_npy_read_bool_canonicalises),
          T(test_npy_read_scalar_and_empty_shapes),
          T(test_npy_read_key_order_and_spacing_free),
          T(test_npy_rejects_fortran_order),
          T(test_npy_rejects_big_endian),
          T(test_npy_rejects_truncated_data),
          T(test_npy_rejects_truncated_header),
          T(test_npy_rejects_bad_magic),
          T(test_npy_rejects_unknown_version),
          T(test_npy_rejects_unsupported_descr),
          T(test_npy_rejects_structured_descr),
          T(test_npy_rejects_header_too_long),
          T(test_npy_rejects_shape_too_large),
          T(test_npy_rejects_malformed_dicts),
          T(test_npy_diag_locates_header_error),
          T(test_npy_write_matches_numpy_bytes),
          T(test_npy_write_shapes_like_numpy),
          T(test_npy_roundtrip_every_dtype),
          T(test_npy_write_rejects_types_without_npy_form),
          T(test_npy_io_errors_name_the_path),
          T(test_npy_read_file_rejects_truncation),
          T(test_npy_read_file_checks_size_before_allocating))
