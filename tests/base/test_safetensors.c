/* safetensors files: tensors read lazily and converted; every bad file
 * refused when opened, naming the file, the tensor and the field; sharded
 * directories with an index.  The files are written here (8-byte
 * little-endian header length, the JSON header, the data). */
#include "tests/harness.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/npusim_st_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* header + data into a buffer (the caller frees); *len its size. */
static uint8_t *make(const char *header, const void *data, size_t data_len, size_t *len)
{
    size_t h = strlen(header);
    *len = 8 + h + data_len;
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)h >> (8 * i));
    memcpy(b + 8, header, h);
    if (data_len) memcpy(b + 8 + h, data, data_len);
    return b;
}

static void write_file(const char *name, const char *header, const void *data, size_t data_len, char *path)
{
    size_t len;
    uint8_t *b = make(header, data, data_len, &len);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    fclose(f);
    free(b);
}

/* Two tensors and metadata; read converted (bf16 -> f32, f32 -> bf16,
 * i64 -> i32), lazily, also after the file is closed. */
static void test_safetensors_reads_and_converts(void **state)
{
    (void)state;
    uint16_t w[6];
    float wf[6] = {1.0f, -2.5f, 0.125f, 3.0f, 1e-3f, -0.0f};
    for (int i = 0; i < 6; i++) w[i] = base_f32_to_bf16(wf[i]);
    int64_t ids[3] = {7, -1, 1000};
    uint8_t data[12 + 24];
    memcpy(data, w, 12);
    memcpy(data + 12, ids, 24);
    const char *hdr = "{\"__metadata__\": {\"format\": \"pt\"}, \"w.\\u0041\": {\"dtype\": \"BF16\", \"shape\": [2, 3], "
                      "\"data_offsets\": [0, 12]},\n \"ids\": {\"dtype\":\"I64\",\"shape\":[3],\"data_offsets\":[12,36]}}";
    char path[256];
    write_file("a.safetensors", hdr, data, sizeof data, path);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_st_file *f = NULL;
    assert_int_equal(base_st_open(path, &f, &d), BASE_OK);
    assert_int_equal(base_st_count(f), 2);
    int i = base_st_find(f, "w.A");
    assert_int_equal(i, 0);
    assert_int_equal(base_st_get(f, i)->dtype, BASE_DT_BF16);
    assert_int_equal(base_st_find(f, "nope"), -1);
    struct base_tensor *t = NULL, *u = NULL;
    int64_t dims[2] = {2, 3}, d3[1] = {3};
    assert_int_equal(base_st_tensor_lazy(f, i, BASE_DT_F32, 2, dims, &t, &d), BASE_OK);
    assert_int_equal(base_st_tensor_lazy(f, base_st_find(f, "ids"), BASE_DT_SI32, 1, d3, &u, &d), BASE_OK);
    base_st_close(f); /* the tensors keep it mapped */
    assert_true(t->lazy);
    float got[6];
    assert_int_equal(base_tensor_read(t, 0, 6, got), BASE_OK);
    for (int k = 0; k < 6; k++) assert_true(got[k] == base_bf16_to_f32(w[k]));
    int32_t gi[3];
    assert_int_equal(base_tensor_read(u, 0, 3, gi), BASE_OK);
    assert_int_equal(gi[0], 7);
    assert_int_equal(gi[1], -1);
    assert_int_equal(gi[2], 1000);
    /* a box of it reads the box */
    int64_t off[2] = {1, 1}, size[2] = {1, 2};
    struct base_tensor *b = NULL, *bm = NULL;
    assert_int_equal(base_tensor_box(t, off, size, &b), BASE_OK);
    assert_int_equal(base_tensor_materialize(b, &bm), BASE_OK);
    assert_true(((float *)bm->data)[0] == got[4] && ((float *)bm->data)[1] == got[5]);
    base_tensor_release(b);
    base_tensor_release(bm);
    base_tensor_release(t);
    base_tensor_release(u);
}

struct bad {
    const char *name, *header;
    size_t data_len;
    const char *frag1, *frag2; /* in the message */
};

/* Each bad file: refused, the message names the tensor and the field, the
 * file is the diag's file. */
static void test_safetensors_refuses_bad_files(void **state)
{
    (void)state;
    const struct bad cases[] = {
        {"offsets_out_of_range", "{\"x\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", 12, "'x'", "data_offsets"},
        {"wrong_size", "{\"x\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,12]}}", 16, "'x'", "take 16"},
        {"begin_after_end", "{\"x\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,4]}}", 16, "'x'", "begin 8"},
        {"unknown_dtype", "{\"x\":{\"dtype\":\"F128\",\"shape\":[1],\"data_offsets\":[0,16]}}", 16, "'x'", "dtype"},
        {"missing_shape", "{\"x\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, "'x'", "shape: missing"},
        {"negative_dim", "{\"x\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4, "shape", "non-negative"},
        {"twice", "{\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"x\":{\"dtype\":\"U8\",\"shape\":[1],"
                  "\"data_offsets\":[1,2]}}", 2, "'x'", "twice"},
        {"bad_json", "{\"x\":{\"dtype\":\"F32\" \"shape\":[1]}}", 4, "header", "expected"},
        {"trailing", "{} x", 0, "header", "after"},
        {"too_many_dims", "{\"x\":{\"dtype\":\"U8\",\"shape\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],\"data_offsets\":[0,1]}}",
         1, "'x'", "dimensions"},
    };
    uint8_t zeros[64] = {0};
    for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
        char path[256], name[80];
        snprintf(name, sizeof name, "%s.safetensors", cases[k].name);
        write_file(name, cases[k].header, zeros, cases[k].data_len, path);
        struct base_diag d;
        base_diag_clear(&d);
        struct base_st_file *f = (struct base_st_file *)1;
        enum base_status st = base_st_open(path, &f, &d);
        if (st == BASE_OK || !strstr(d.msg, cases[k].frag1) || !strstr(d.msg, cases[k].frag2) || strcmp(d.file, path))
            fail_msg("%s: status %d, %s: %s", cases[k].name, st, d.file, d.msg);
        assert_null(f);
    }
    /* truncated files: no header length; a header longer than the file */
    char path[256];
    sprintf(path, "%s/short.safetensors", dir);
    FILE *fp = fopen(path, "wb");
    fwrite("\x10\0\0", 1, 3, fp);
    fclose(fp);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_st_file *f = NULL;
    assert_int_not_equal(base_st_open(path, &f, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "truncated"));
    size_t len;
    uint8_t *b = make("{\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", "a", 1, &len);
    base_diag_clear(&d);
    assert_int_not_equal(base_st_parse(b, len - 30, "cut.safetensors", &f, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "truncated"));
    base_diag_clear(&d);
    assert_int_equal(base_st_parse(b, len, "ok.safetensors", &f, &d), BASE_OK);
    base_st_close(f);
    free(b);
    /* a JSON error is located by its column in the header */
    b = make("{\"x\": [}", NULL, 0, &len);
    base_diag_clear(&d);
    assert_int_not_equal(base_st_parse(b, len, "col.safetensors", &f, &d), BASE_OK);
    assert_int_equal(d.line, 1);
    assert_true(d.col >= 6);
    free(b);
}

/* The argument's shape and dtype: a mismatch names the field. */
static void test_safetensors_shape_and_dtype_mismatches(void **state)
{
    (void)state;
    size_t len;
    uint8_t data[8] = {0};
    uint8_t *b = make("{\"w\":{\"dtype\":\"F16\",\"shape\":[2,2],\"data_offsets\":[0,8]}}", data, 8, &len);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_st_file *f = NULL;
    assert_int_equal(base_st_parse(b, len, "m.safetensors", &f, &d), BASE_OK);
    struct base_tensor *t = (struct base_tensor *)1;
    int64_t d4[1] = {4}, d22[2] = {2, 2};
    assert_int_equal(base_st_tensor_lazy(f, 0, BASE_DT_F16, 1, d4, &t, &d), BASE_ERR_INVALID);
    assert_null(t);
    assert_non_null(strstr(d.msg, "'w': shape: [2, 2] in the file, the argument takes [4]"));
    assert_string_equal(d.file, "m.safetensors");
    base_diag_clear(&d);
    assert_int_equal(base_st_tensor_lazy(f, 0, BASE_DT_SI32, 2, d22, &t, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "'w': dtype: F16"));
    base_diag_clear(&d);
    assert_int_equal(base_st_tensor_lazy(f, 0, BASE_DT_BF16, 2, d22, &t, &d), BASE_OK);
    base_tensor_release(t);
    base_st_close(f);
    free(b);
}

/* A directory of shards with its index, one without, an index given itself;
 * a tensor in two shards is refused. */
static void test_safetensors_sharded_directories(void **state)
{
    (void)state;
    char sub[128], path[256];
    snprintf(sub, sizeof sub, "%s/model", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    float a = 1.5f, b2[2] = {2.5f, -1.0f};
    FILE *fp;
    char name[256];
    snprintf(name, sizeof name, "model/model-00001-of-00002.safetensors");
    write_file(name, "{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]}}", &a, 4, path);
    snprintf(name, sizeof name, "model/model-00002-of-00002.safetensors");
    write_file(name, "{\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", b2, 8, path);
    struct base_diag d;
    base_diag_clear(&d);
    struct base_st_set *s = NULL;
    /* no index: every .safetensors of the directory */
    assert_int_equal(base_st_set_open(sub, &s, &d), BASE_OK);
    assert_int_equal(base_st_set_n_files(s), 2);
    struct base_st_file *f;
    int i;
    assert_true(base_st_set_find(s, "b", &f, &i));
    assert_int_equal(base_st_get(f, i)->dims[0], 2);
    assert_false(base_st_set_find(s, "c", &f, &i));
    base_st_set_close(s);
    /* with an index: its weight_map's files */
    sprintf(path, "%s/model.safetensors.index.json", sub);
    fp = fopen(path, "w");
    fprintf(fp, "{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"a\": \"model-00001-of-00002.safetensors\", "
                "\"b\": \"model-00002-of-00002.safetensors\"}}\n");
    fclose(fp);
    assert_int_equal(base_st_set_open(sub, &s, &d), BASE_OK);
    assert_int_equal(base_st_set_n_files(s), 2);
    assert_true(base_st_set_find(s, "a", &f, &i));
    base_st_set_close(s);
    assert_int_equal(base_st_set_open(path, &s, &d), BASE_OK); /* the index itself */
    base_st_set_close(s);
    /* an index naming a missing shard, or a path outside its directory */
    fp = fopen(path, "w");
    fprintf(fp, "{\"weight_map\": {\"a\": \"missing.safetensors\"}}");
    fclose(fp);
    base_diag_clear(&d);
    assert_int_not_equal(base_st_set_open(sub, &s, &d), BASE_OK);
    assert_non_null(strstr(d.file, "missing.safetensors"));
    fp = fopen(path, "w");
    fprintf(fp, "{\"weight_map\": {\"a\": \"../x.safetensors\"}}");
    fclose(fp);
    base_diag_clear(&d);
    assert_int_not_equal(base_st_set_open(sub, &s, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "directory"));
    remove(path);
    /* the same name in two shards */
    write_file("model/model-00002-of-00002.safetensors", "{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]}}",
               &a, 4, path);
    base_diag_clear(&d);
    assert_int_not_equal(base_st_set_open(sub, &s, &d), BASE_OK);
    assert_non_null(strstr(d.msg, "'a': name: also in"));
}

TEST_MAIN(setup, teardown,
          T(test_safetensors_reads_and_converts),
          T(test_safetensors_refuses_bad_files),
          T(test_safetensors_shape_and_dtype_mismatches),
          T(test_safetensors_sharded_directories))
