/* The native .npt format: lossless round trips (npt -> npt, npt -> json ->
 * npt), random access against brute force, summaries against the slices
 * they summarise (computed independently here), and damaged files
 * (every truncation, every single-bit flip) giving a located error. */
#include "tests/traces/trace_test_util.h"

struct fx {
    struct trc_trace *t; /* synthetic: 9 lanes x 3000 slices, a counter, flows */
    struct tmpdir dir;
    char path[256];
    uint8_t *bytes;
    size_t n;
};

static const char *const k_files[] = {"t.npt", "c.npt", "c.json", "d.npt", "bad.npt", "s.npt"};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    f->t = synthetic_trace(9, 3000, test_seed());
    tmpdir_make(&f->dir);
    tmpdir_path(&f->dir, "t.npt", f->path, sizeof f->path);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(f->t, f->path, &d), BASE_OK);
    f->bytes = read_all(f->path, &f->n);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    tmpdir_remove(&f->dir, k_files, ARRAY_LEN(k_files));
    trc_trace_destroy(f->t);
    free(f->bytes);
    free(f);
    return 0;
}

static void expect_same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = read_all(a, &na), *y = read_all(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
}

static void expect_same_trace(const struct trc_trace *a, const struct trc_trace *b)
{
    assert_int_equal(a->n_lanes, b->n_lanes);
    assert_int_equal(a->n_flows, b->n_flows);
    assert_int_equal(a->end_ps, b->end_ps);
    assert_int_equal(a->n_meta, b->n_meta);
    for (uint32_t i = 0; i < a->n_lanes; i++) {
        const struct trc_lane_data *x = &a->lanes[i], *y = &b->lanes[i];
        assert_string_equal(x->lane.name, y->lane.name);
        assert_int_equal(x->lane.kind, y->lane.kind);
        assert_int_equal(x->lane.core, y->lane.core);
        assert_int_equal(x->n_slices, y->n_slices);
        assert_int_equal(x->n_samples, y->n_samples);
        for (size_t k = 0; k < x->n_slices; k++) {
            const struct trc_slice *s = &x->slices[k], *r = &y->slices[k];
            assert_int_equal(s->start_ps, r->start_ps);
            assert_int_equal(s->dur_ps, r->dur_ps);
            assert_int_equal(s->bytes, r->bytes);
            assert_int_equal(s->flops, r->flops);
            assert_int_equal(s->a, r->a);
            assert_int_equal(s->b, r->b);
            assert_int_equal(s->c, r->c);
            assert_int_equal(s->kind, r->kind);
            assert_string_equal(trc_trace_string(a, s->name), trc_trace_string(b, r->name));
            assert_string_equal(trc_trace_string(a, s->op), trc_trace_string(b, r->op));
            assert_string_equal(trc_trace_string(a, s->loc), trc_trace_string(b, r->loc));
        }
        for (size_t k = 0; k < x->n_samples; k++) {
            assert_int_equal(x->samples[k].t_ps, y->samples[k].t_ps);
            assert_memory_equal(&x->samples[k].value, &y->samples[k].value, sizeof(double)); /* bit-exact */
        }
    }
    for (size_t k = 0; k < a->n_flows; k++) assert_memory_equal(&a->flows[k], &b->flows[k], sizeof a->flows[k]);
}

/* ------------------------------------------------------------ round trips */

static void test_npt_round_trip_through_npt_and_json_is_lossless(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_trace *t1 = NULL, *t2 = NULL;
    assert_int_equal(trc_read(f->path, &t1, &d), BASE_OK);
    expect_same_trace(f->t, t1);
    char c[256], j[256], e[256];
    assert_int_equal(trc_write_npt(t1, tmpdir_path(&f->dir, "c.npt", c, sizeof c), &d), BASE_OK);
    expect_same_file(f->path, c); /* npt -> npt: byte-identical */
    assert_int_equal(trc_write_json(t1, tmpdir_path(&f->dir, "c.json", j, sizeof j), false, &d), BASE_OK);
    if (trc_read(j, &t2, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
    expect_same_trace(f->t, t2);
    assert_int_equal(trc_write_npt(t2, tmpdir_path(&f->dir, "d.npt", e, sizeof e), &d), BASE_OK);
    expect_same_file(f->path, e); /* npt -> json -> npt: byte-identical */
    trc_trace_destroy(t1);
    trc_trace_destroy(t2);
}

static void test_npt_open_lists_lanes_meta_and_strings(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *tf;
    assert_int_equal(trc_open(f->path, &tf, &d), BASE_OK);
    assert_int_equal(trc_file_n_lanes(tf), 10);
    assert_string_equal(trc_file_lane(tf, 4)->name, "core1 e0");
    assert_int_equal(trc_file_lane(tf, 9)->kind, TRC_LANE_COUNTER);
    assert_int_equal(trc_file_lane_count(tf, 4), f->t->lanes[4].n_slices);
    assert_true(f->t->lanes[4].n_slices > 3000); /* with the nested zero-length ones */
    assert_string_equal(trc_file_meta(tf, "chip"), "synthetic");
    assert_int_equal(trc_file_end_ps(tf), f->t->end_ps);
    assert_null(trc_file_lane(tf, 10));
    trc_close(tf);
}

/* ------------------------------------------------------------- queries */

static void test_npt_slices_in_a_window_match_brute_force(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *tf;
    assert_int_equal(trc_open(f->path, &tf, &d), BASE_OK);
    struct base_rng rng;
    base_rng_seed(&rng, test_seed() + 7);
    struct trc_slice_vec v = {NULL, 0, 0};
    for (int q = 0; q < 200; q++) {
        uint32_t lane = (uint32_t)(base_rng_next(&rng) % 9);
        const struct trc_lane_data *l = &f->t->lanes[lane];
        uint64_t t0 = base_rng_next(&rng) % (f->t->end_ps + 1);
        uint64_t t1 = t0 + base_rng_next(&rng) % (q % 3 == 0 ? f->t->end_ps : 20000);
        if (q == 0) t0 = 0, t1 = UINT64_MAX;
        if (q == 1 && l->n_slices > 5) t0 = l->slices[5].start_ps, t1 = t0 + 1; /* exactly at a start */
        v.n = 0;
        assert_int_equal(trc_file_slices(tf, lane, t0, t1, &v, &d), BASE_OK);
        size_t k = 0;
        for (size_t i = 0; i < l->n_slices; i++) {
            const struct trc_slice *s = &l->slices[i];
            bool in = s->start_ps < t1 && (s->start_ps + s->dur_ps > t0 || s->start_ps >= t0);
            if (!in) continue;
            if (k >= v.n) fail_msg("query %d lane %u [%llu,%llu): slice %zu missing", q, lane, (unsigned long long)t0, (unsigned long long)t1, i);
            assert_int_equal(v.v[k].start_ps, s->start_ps);
            assert_int_equal(v.v[k].dur_ps, s->dur_ps);
            assert_int_equal(v.v[k].bytes, s->bytes);
            k++;
        }
        assert_int_equal(k, v.n);
        if (q == 0) assert_int_equal(v.n, l->n_slices);
    }
    trc_slice_vec_free(&v);
    /* counters: the samples in the window and the one in force at t0 */
    struct trc_sample_vec sv = {NULL, 0, 0};
    const struct trc_lane_data *cl = &f->t->lanes[9];
    uint64_t t0 = cl->samples[100].t_ps + 1, t1 = cl->samples[200].t_ps + 1;
    assert_int_equal(trc_file_samples(tf, 9, t0, t1, &sv, &d), BASE_OK);
    assert_int_equal(sv.n, 101); /* samples 100 (in force at t0) .. 200 */
    assert_int_equal(sv.v[0].t_ps, cl->samples[100].t_ps);
    assert_int_equal(sv.v[100].t_ps, cl->samples[200].t_ps);
    trc_sample_vec_free(&sv);
    struct trc_flow_vec fv = {NULL, 0, 0};
    assert_int_equal(trc_file_flows(tf, 0, UINT64_MAX, &fv, &d), BASE_OK);
    assert_int_equal(fv.n, f->t->n_flows);
    trc_flow_vec_free(&fv);
    trc_close(tf);
}

/* Buckets computed here by brute force: for bucket b of width w, busy =
 * sum over non-wait slices of |[start, end) ∩ [b w, (b + 1) w)|, count =
 * slices starting in it, dominant = the op with most busy time. */
static void test_npt_summaries_agree_with_the_slices_they_summarise(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *tf;
    assert_int_equal(trc_open(f->path, &tf, &d), BASE_OK);
    struct trc_bucket_vec v = {NULL, 0, 0};
    int levels_checked = 0;
    for (uint32_t lane = 0; lane < 9; lane++) {
        const struct trc_lane_data *l = &f->t->lanes[lane];
        uint32_t lo, hi;
        trc_file_lane_levels(tf, lane, &lo, &hi);
        assert_true(lo <= hi);
        assert_true(((uint64_t)1 << hi) > f->t->end_ps); /* the top level is one bucket */
        assert_true(((uint64_t)1 << lo) < f->t->end_ps / 16); /* and the finest is much finer */
        for (uint32_t level = lo; level <= hi; level++) {
            v.n = 0;
            assert_int_equal(trc_file_summary(tf, lane, level, 0, UINT64_MAX, &v, &d), BASE_OK);
            uint64_t w = (uint64_t)1 << level;
            uint64_t busy_total = 0;
            for (size_t i = 0; i < v.n; i++) {
                const struct trc_bucket *b = &v.v[i];
                uint64_t bs = b->index * w, be = bs + w, busy = 0, wait = 0, count = 0, bytes = 0;
                uint64_t op_ps[64] = {0};
                for (size_t k = 0; k < l->n_slices; k++) {
                    const struct trc_slice *s = &l->slices[k];
                    uint64_t a = s->start_ps > bs ? s->start_ps : bs, e = s->start_ps + s->dur_ps < be ? s->start_ps + s->dur_ps : be;
                    uint64_t ov = e > a ? e - a : 0;
                    if (s->kind == TRC_SLICE_WAIT) wait += ov;
                    else {
                        busy += ov;
                        assert_true(s->op < 64);
                        op_ps[s->op] += ov;
                    }
                    if (s->start_ps >= bs && s->start_ps < be) {
                        count++;
                        bytes += s->bytes;
                    }
                }
                assert_int_equal(b->busy_ps, busy);
                assert_int_equal(b->wait_ps, wait);
                assert_int_equal(b->count, count);
                assert_int_equal(b->bytes, bytes);
                uint32_t dom = 0;
                for (uint32_t o = 1; o < 64; o++)
                    if (op_ps[o] > op_ps[dom]) dom = o;
                if (busy) assert_int_equal(op_ps[b->dominant], op_ps[dom]); /* a tie may name either */
                busy_total += b->busy_ps;
            }
            uint64_t want = 0;
            for (size_t k = 0; k < l->n_slices; k++)
                if (l->slices[k].kind != TRC_SLICE_WAIT) want += l->slices[k].dur_ps;
            assert_int_equal(busy_total, want); /* nothing lost between buckets */
            levels_checked++;
            if (level + 4 < hi) level = hi - 4; /* the fine levels are the costly ones: check the finest and the top 5 */
        }
    }
    assert_true(levels_checked >= 9 * 3);
    /* a level outside the lane's range is an error, not garbage */
    uint32_t lo, hi;
    trc_file_lane_levels(tf, 0, &lo, &hi);
    assert_int_equal(trc_file_summary(tf, 0, hi + 1, 0, UINT64_MAX, &v, &d), BASE_ERR_INVALID);
    trc_bucket_vec_free(&v);
    trc_close(tf);
}

/* ---------------------------------------------------------- damaged files */

static enum base_status open_and_verify(const char *path, struct base_diag *d)
{
    struct trc_file *tf = NULL;
    base_diag_clear(d);
    enum base_status st = trc_open(path, &tf, d);
    if (st == BASE_OK) st = trc_file_verify(tf, d);
    trc_close(tf);
    return st;
}

static void test_npt_every_truncation_gives_a_located_error(void **state)
{
    struct fx *f = *state;
    char p[256];
    tmpdir_path(&f->dir, "bad.npt", p, sizeof p);
    struct base_diag d;
    size_t step = f->n / 400 + 1;
    for (size_t len = 0; len < f->n; len += (len < 64 || len > f->n - 64) ? 1 : step) {
        write_all(p, f->bytes, len);
        enum base_status st = open_and_verify(p, &d);
        if (st != BASE_ERR_PARSE) fail_msg("truncated to %zu of %zu bytes: status %s", len, f->n, base_status_str(st));
        assert_string_equal(d.file, p);
        if (!strstr(d.msg, "truncated") && !strstr(d.msg, "footer"))
            fail_msg("truncated to %zu bytes: the message does not say so: %s", len, d.msg);
    }
}

static void test_npt_every_bit_flip_gives_a_located_error(void **state)
{
    struct fx *f = *state;
    char p[256];
    tmpdir_path(&f->dir, "bad.npt", p, sizeof p);
    struct base_diag d;
    uint8_t *b = malloc(f->n);
    struct base_rng rng;
    base_rng_seed(&rng, test_seed());
    size_t step = f->n / 400 + 1, in_chunk = 0;
    for (size_t pos = 0; pos < f->n; pos += (pos < 200 || pos > f->n - 200) ? 1 : step) {
        memcpy(b, f->bytes, f->n);
        b[pos] ^= (uint8_t)(1u << (base_rng_next(&rng) % 8));
        write_all(p, b, f->n);
        enum base_status st = open_and_verify(p, &d);
        if (st != BASE_ERR_PARSE) fail_msg("bit flip at byte %zu: status %s", pos, base_status_str(st));
        if (!strstr(d.msg, "crc32") && !strstr(d.msg, "magic") && !strstr(d.msg, "not an npusim") &&
            !strstr(d.msg, "version") && !strstr(d.msg, "footer") && !strstr(d.msg, "chunk header"))
            fail_msg("bit flip at byte %zu: the message names no check: %s", pos, d.msg);
        if (strstr(d.msg, "chunk ") && strstr(d.msg, "of lane")) in_chunk++;
    }
    /* most of the file is lane chunks: their errors name the chunk and lane */
    assert_true(in_chunk > 200);
    free(b);
}

static void test_npt_a_flip_in_a_slice_chunk_names_that_chunk(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *tf;
    assert_int_equal(trc_open(f->path, &tf, &d), BASE_OK);
    /* lane 5's first slices chunk: find it through a query's error after damage */
    trc_close(tf);
    /* the slices of lane 5 start after lanes 0-4's chunks; damage the middle of the file */
    uint8_t *b = malloc(f->n);
    memcpy(b, f->bytes, f->n);
    size_t pos = f->n / 2;
    b[pos] ^= 0x10;
    char p[256];
    tmpdir_path(&f->dir, "bad.npt", p, sizeof p);
    write_all(p, b, f->n);
    /* opening reads only the index, strings and lanes: it still works */
    assert_int_equal(trc_open(p, &tf, &d), BASE_OK);
    struct trc_slice_vec v = {NULL, 0, 0};
    enum base_status st = BASE_OK;
    for (uint32_t lane = 0; lane < 9 && st == BASE_OK; lane++) st = trc_file_slices(tf, lane, 0, UINT64_MAX, &v, &d);
    struct trc_bucket_vec bv = {NULL, 0, 0};
    for (uint32_t lane = 0; lane < 9 && st == BASE_OK; lane++) {
        uint32_t lo, hi;
        trc_file_lane_levels(tf, lane, &lo, &hi);
        for (uint32_t l = lo; l <= hi && st == BASE_OK; l++) st = trc_file_summary(tf, lane, l, 0, UINT64_MAX, &bv, &d);
    }
    assert_int_equal(st, BASE_ERR_PARSE);
    assert_non_null(strstr(d.msg, "chunk "));
    assert_non_null(strstr(d.msg, "crc32"));
    assert_non_null(strstr(d.msg, "at byte "));
    trc_slice_vec_free(&v);
    trc_bucket_vec_free(&bv);
    trc_close(tf);
    free(b);
}

static void test_npt_not_a_trace_and_missing_file_are_errors(void **state)
{
    struct fx *f = *state;
    char p[256];
    tmpdir_path(&f->dir, "bad.npt", p, sizeof p);
    write_all(p, (const uint8_t *)"{\"traceEvents\": []}", 19);
    struct base_diag d;
    assert_int_equal(open_and_verify(p, &d), BASE_ERR_PARSE);
    assert_non_null(strstr(d.msg, "not an npusim trace"));
    tmpdir_path(&f->dir, "does-not-exist.npt", p, sizeof p);
    assert_int_equal(open_and_verify(p, &d), BASE_ERR_IO);
}

/* JSON that is cut short, or not npusim's, is a located parse error. */
static void test_json_reader_errors_are_located(void **state)
{
    struct fx *f = *state;
    char j[256], p[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_json(f->t, tmpdir_path(&f->dir, "c.json", j, sizeof j), false, &d), BASE_OK);
    size_t n;
    uint8_t *b = read_all(j, &n);
    tmpdir_path(&f->dir, "bad.npt", p, sizeof p); /* any name: trc_read_json reads it as JSON */
    size_t cuts[] = {0, 1, 40, n / 3, n / 2, n - 3};
    for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
        write_all(p, b, cuts[i]);
        struct trc_trace *t = NULL;
        base_diag_clear(&d);
        assert_int_equal(trc_read_json(p, &t, &d), BASE_ERR_PARSE);
        assert_null(t);
        assert_string_equal(d.file, p);
        if (cuts[i] > 40) assert_true(d.line > 1); /* points into the file, not at its start */
    }
    const char other[] = "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"pid\": 1, \"tid\": 1}]}";
    write_all(p, (const uint8_t *)other, sizeof other - 1);
    struct trc_trace *t = NULL;
    base_diag_clear(&d);
    assert_int_equal(trc_read_json(p, &t, &d), BASE_ERR_PARSE);
    assert_non_null(strstr(d.msg, "not an npusim trace"));
    free(b);
}

/* An empty trace (no lanes, no events) round-trips through both formats. */
static void test_npt_empty_trace_round_trips(void **state)
{
    struct fx *f = *state;
    struct trc_trace *t;
    assert_int_equal(trc_trace_create(&t), BASE_OK);
    assert_int_equal(trc_trace_finalize(t), BASE_OK);
    char p[256], j[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, tmpdir_path(&f->dir, "s.npt", p, sizeof p), &d), BASE_OK);
    assert_int_equal(trc_write_json(t, tmpdir_path(&f->dir, "c.json", j, sizeof j), false, &d), BASE_OK);
    struct trc_file *tf;
    assert_int_equal(trc_open(p, &tf, &d), BASE_OK);
    assert_int_equal(trc_file_n_lanes(tf), 0);
    assert_int_equal(trc_file_end_ps(tf), 0);
    assert_int_equal(trc_file_verify(tf, &d), BASE_OK);
    trc_close(tf);
    struct trc_trace *back = NULL;
    if (trc_read(j, &back, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
    assert_int_equal(back->n_lanes, 0);
    trc_trace_destroy(back);
    trc_trace_destroy(t);
}

static void test_npt_format_follows_the_extension(void **state)
{
    (void)state;
    enum trc_format fm;
    assert_true(trc_format_from_path("a/b.npt", &fm) && fm == TRC_FORMAT_NPT);
    assert_true(trc_format_from_path("x.json", &fm) && fm == TRC_FORMAT_JSON);
    assert_true(trc_format_from_path("x.json.gz", &fm) && fm == TRC_FORMAT_JSON_GZ);
    assert_false(trc_format_from_path("x.gz", &fm));
    assert_false(trc_format_from_path("npt", &fm));
    assert_int_equal(trc_level_for(1), 0);
    assert_int_equal(trc_level_for(1024), 10);
    assert_int_equal(trc_level_for(1500), 10);
}

/* The lane totals and the ops table a viewer reads without touching a
 * slice are the figures computed from all the slices. */
static void test_npt_lane_totals_and_ops_table_match_the_slices(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    struct trc_file *tf;
    assert_int_equal(trc_open(f->path, &tf, &d), BASE_OK);
    struct trc_stats fs, ts;
    assert_int_equal(trc_file_stats(tf, &fs, &d), BASE_OK);
    assert_int_equal(trc_stats_compute(f->t, &ts), BASE_OK);
    assert_int_equal(fs.n_lanes, ts.n_lanes);
    assert_true(fs.n_slices > 9 * 3000);
    assert_int_equal(fs.n_flows, f->t->n_flows);
    for (uint32_t i = 0; i < 9; i++) {
        uint64_t busy = 0, wait = 0, bytes = 0, flops = 0;
        for (size_t k = 0; k < f->t->lanes[i].n_slices; k++) {
            const struct trc_slice *s = &f->t->lanes[i].slices[k];
            if (s->kind == TRC_SLICE_WAIT) wait += s->dur_ps;
            else busy += s->dur_ps, bytes += s->bytes, flops += s->flops;
        }
        assert_int_equal(fs.lanes[i].busy_ps, busy);
        assert_int_equal(fs.lanes[i].wait_ps, wait);
        assert_int_equal(fs.lanes[i].bytes, bytes);
        assert_int_equal(fs.lanes[i].flops, flops);
    }
    assert_int_equal(fs.n_ops, 6); /* the synthetic trace's six ops */
    assert_int_equal(fs.n_ops, ts.n_ops);
    uint64_t sum = 0;
    for (size_t k = 0; k < fs.n_ops; k++) {
        assert_string_equal(trc_file_string(tf, fs.ops[k].op), trc_trace_string(f->t, ts.ops[k].op));
        assert_int_equal(fs.ops[k].busy_ps, ts.ops[k].busy_ps);
        if (k) assert_true(fs.ops[k].busy_ps <= fs.ops[k - 1].busy_ps);
        sum += fs.ops[k].busy_ps;
    }
    uint64_t busy_all = 0;
    for (uint32_t i = 0; i < 9; i++) busy_all += fs.lanes[i].busy_ps;
    assert_int_equal(sum, busy_all);
    trc_stats_free(&fs);
    trc_stats_free(&ts);
    trc_close(tf);
}

/* A lane of a few slices has no summaries: a viewer draws it directly. */
static void test_npt_small_lanes_have_no_summaries(void **state)
{
    struct fx *f = *state;
    struct trc_trace *t = synthetic_trace(2, 20, 3);
    char p[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(t, tmpdir_path(&f->dir, "s.npt", p, sizeof p), &d), BASE_OK);
    struct trc_file *tf;
    assert_int_equal(trc_open(p, &tf, &d), BASE_OK);
    uint32_t lo, hi;
    trc_file_lane_levels(tf, 0, &lo, &hi);
    assert_true(lo > hi);
    trc_close(tf);
    trc_trace_destroy(t);
}

TEST_MAIN(setup, teardown, T(test_npt_round_trip_through_npt_and_json_is_lossless), T(test_npt_open_lists_lanes_meta_and_strings),
          T(test_npt_slices_in_a_window_match_brute_force), T(test_npt_summaries_agree_with_the_slices_they_summarise),
          T(test_npt_every_truncation_gives_a_located_error), T(test_npt_every_bit_flip_gives_a_located_error),
          T(test_npt_a_flip_in_a_slice_chunk_names_that_chunk), T(test_npt_not_a_trace_and_missing_file_are_errors),
          T(test_npt_format_follows_the_extension), T(test_npt_small_lanes_have_no_summaries),
          T(test_npt_lane_totals_and_ops_table_match_the_slices), T(test_json_reader_errors_are_located),
          T(test_npt_empty_trace_round_trips))
