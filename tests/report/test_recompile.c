/* Dynamic shapes (report/recompile.c): request lengths from files and
 * distributions, bucketings computed by hand, the optimal buckets against a
 * brute force over every bucketing of small samples, and located errors. */
#include "tests/harness.h"

#include "report/estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void lengths_of(struct rep_lengths *l, const int64_t *v, int n)
{
    memset(l, 0, sizeof *l);
    l->len = malloc((size_t)n * sizeof *l->len);
    assert_non_null(l->len);
    memcpy(l->len, v, (size_t)n * sizeof *v);
    l->n = n;
}

static void close_to(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= 1e-9 * (fabs(want) + 1))) fail_msg("%s: %.17g, want %.17g", what, got, want);
}

/* A file of lengths, comments and separators; sorted on reading. */
static void test_recompile_lengths_from_a_file(void **state)
{
    (void)state;
    char path[] = "/tmp/npusim_lengthsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "# request lengths\n300, 17\n  4096 17\n\n1 # one token\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct rep_lengths l;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_lengths_parse(path, &l, &d), BASE_OK);
    const int64_t want[] = {1, 17, 17, 300, 4096};
    assert_int_equal(l.n, 5);
    for (int i = 0; i < 5; i++) assert_int_equal(l.len[i], want[i]);
    assert_int_equal(rep_lengths_distinct(&l), 4);
    rep_lengths_free(&l);
    unlink(path);
}

static void expect_error(const char *spec, const char *text, enum base_status want, const char *msg)
{
    char path[] = "/tmp/npusim_lengthsXXXXXX";
    const char *arg = spec;
    if (text) {
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
        arg = path;
    }
    struct rep_lengths l;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = rep_lengths_parse(arg, &l, &d);
    if (text) unlink(path);
    if (st != want) fail_msg("'%s': status %s, want %s", text ? text : spec, base_status_str(st), base_status_str(want));
    if (!strstr(d.msg, msg)) fail_msg("'%s': message '%s' lacks '%s'", text ? text : spec, d.msg, msg);
    assert_null(l.len);
}

/* Bad input: located, naming the rule. */
static void test_recompile_lengths_errors(void **state)
{
    (void)state;
    expect_error(NULL, "12\n0\n", BASE_ERR_INVALID, "1 to 2^40");
    expect_error(NULL, "12\n-3\n", BASE_ERR_INVALID, "positive integer");
    expect_error(NULL, "# nothing\n", BASE_ERR_INVALID, "no request lengths");
    expect_error("gamma:1:2", NULL, BASE_ERR_INVALID, "unknown distribution 'gamma'");
    expect_error("uniform:10:5", NULL, BASE_ERR_INVALID, "1 <= LO <= HI");
    expect_error("uniform:10", NULL, BASE_ERR_INVALID, "two numbers");
    expect_error("normal:100:10:n=0", NULL, BASE_ERR_INVALID, "n must be");
    expect_error("no-such-file", NULL, BASE_ERR_IO, "no such file");
    /* the line and column of a bad length */
    char path[] = "/tmp/npusim_lengthsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "5\n7 x\n", 6), 6);
    close(fd);
    struct rep_lengths l;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_lengths_parse(path, &l, &d), BASE_ERR_INVALID);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 3);
    unlink(path);
}

/* Distributions are deterministic for a seed, within their range, and of
 * the size asked. */
static void test_recompile_lengths_from_distributions(void **state)
{
    (void)state;
    struct rep_lengths a, b;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_lengths_parse("uniform:100:200:n=500:seed=7", &a, &d), BASE_OK);
    assert_int_equal(rep_lengths_parse("uniform:100:200:n=500:seed=7", &b, &d), BASE_OK);
    assert_int_equal(a.n, 500);
    assert_memory_equal(a.len, b.len, 500 * sizeof *a.len);
    assert_true(a.len[0] >= 100 && a.len[499] <= 200);
    rep_lengths_free(&a);
    rep_lengths_free(&b);
    assert_int_equal(rep_lengths_parse("lognormal:600:0.8", &a, &d), BASE_OK);
    assert_int_equal(a.n, 1000);
    /* the sample's median is near the distribution's */
    assert_true(a.len[500] > 500 && a.len[500] < 720);
    assert_true(a.len[0] >= 1);
    rep_lengths_free(&a);
    assert_int_equal(rep_lengths_parse("normal:10:50:n=300", &a, &d), BASE_OK);
    assert_true(a.len[0] == 1); /* clamped to one token */
    rep_lengths_free(&a);
}

/* One bucketing computed by hand: lengths 10, 20, 20, 50 into buckets 32
 * and 64, a step 1 s + 0.01 s per token, a compile 100 s, the sample
 * standing for 8 steps (2 each). */
static void test_recompile_bucketing_by_hand(void **state)
{
    (void)state;
    const int64_t v[] = {10, 20, 20, 50};
    struct rep_lengths l;
    lengths_of(&l, v, 4);
    struct rep_bucket_cost c = {.step_fixed_s = 1, .step_s_per_token = 0.01, .compile_s = 100, .requests = 8};
    const int64_t b[] = {32, 64};
    struct rep_bucketing out;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_bucketing_eval(&l, b, 2, &c, &out, &d), BASE_OK);
    assert_int_equal(out.compiles, 2);
    close_to(out.steps, 8, "steps");
    close_to(out.cache_hits, 6, "cache hits");
    close_to(out.real_tokens, 2 * (10 + 20 + 20 + 50), "real tokens");
    close_to(out.pad_tokens, 2 * (22 + 12 + 12 + 14), "pad tokens");
    close_to(out.run_s, 2 * (3 * (1 + 0.32) + (1 + 0.64)), "run");
    close_to(out.exact_run_s, 2 * (4 + 0.01 * 100), "run without padding");
    close_to(out.compile_s, 200, "compile");
    close_to(out.total_s, 200 + out.run_s, "total");
    close_to(out.first_call_s, 100 + 1.64, "first call");
    /* a bucket no request uses is not compiled */
    const int64_t b3[] = {16, 32, 40, 64};
    assert_int_equal(rep_bucketing_eval(&l, b3, 4, &c, &out, &d), BASE_OK);
    assert_int_equal(out.compiles, 3);
    /* exact: a shape per distinct length; pow2 from 16: 16, 32, 64 */
    assert_int_equal(rep_buckets_exact(&l, &c, &out, &d), BASE_OK);
    assert_int_equal(out.compiles, 3);
    close_to(out.pad_tokens, 0, "exact padding");
    close_to(out.run_s, out.exact_run_s, "exact run");
    assert_int_equal(rep_buckets_pow2(&l, 16, &c, &out, &d), BASE_OK);
    assert_int_equal(out.n_buckets, 3);
    assert_int_equal(out.bounds[2], 64);
    /* errors: decreasing bounds, a last bucket below the longest request */
    const int64_t bad[] = {32, 16};
    assert_int_equal(rep_bucketing_eval(&l, bad, 2, &c, &out, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "increasing"));
    const int64_t short_[] = {32, 48};
    base_diag_clear(&d);
    assert_int_equal(rep_bucketing_eval(&l, short_, 2, &c, &out, &d), BASE_ERR_INVALID);
    if (!strstr(d.msg, "shorter than the longest request (50)")) fail_msg("message: %s", d.msg);
    rep_lengths_free(&l);
}

/* The least total over every bucketing whose ends are among the (aligned)
 * distinct lengths, the longest always one of them: 2^(m-1) subsets. */
static double brute_force(const struct rep_lengths *l, int64_t align, const struct rep_bucket_cost *c)
{
    int64_t cand[16];
    int m = 0;
    for (int i = 0; i < l->n; i++) {
        int64_t r = (l->len[i] + align - 1) / align * align;
        if (m == 0 || cand[m - 1] != r) cand[m++] = r;
    }
    double best = INFINITY;
    for (unsigned mask = 0; mask < (1u << (m - 1)); mask++) {
        int64_t b[16];
        int nb = 0;
        for (int j = 0; j < m - 1; j++)
            if (mask & (1u << j)) b[nb++] = cand[j];
        b[nb++] = cand[m - 1];
        struct rep_bucketing out;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(rep_bucketing_eval(l, b, nb, c, &out, &d), BASE_OK);
        if (out.total_s < best) best = out.total_s;
    }
    return best;
}

/* The optimiser against the brute force on 200 random small samples, with
 * compile costs from nothing (a bucket per length wins) to huge (one
 * bucket wins). */
static void test_recompile_optimal_matches_brute_force(void **state)
{
    (void)state;
    struct base_rng rng;
    uint64_t seed = test_seed();
    base_rng_seed(&rng, seed);
    for (int t = 0; t < 200; t++) {
        int n = 1 + (int)(base_rng_next(&rng) % 14);
        int64_t v[14];
        for (int i = 0; i < n; i++) v[i] = 1 + (int64_t)(base_rng_next(&rng) % 300);
        struct rep_lengths l;
        lengths_of(&l, v, n);
        /* sorted, as rep_lengths_parse leaves them */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && l.len[j] < l.len[j - 1]; j--) {
                int64_t x = l.len[j];
                l.len[j] = l.len[j - 1];
                l.len[j - 1] = x;
            }
        static const double compiles[] = {0, 0.5, 3, 40, 1e6};
        struct rep_bucket_cost c = {.step_fixed_s = 0.1 * (double)(t % 3),
                                    .step_s_per_token = 0.01,
                                    .compile_s = compiles[t % 5],
                                    .requests = (double)(n * (1 + t % 4))};
        int64_t align = t % 2 ? 1 : 16;
        struct rep_bucketing opt;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(rep_buckets_optimal(&l, align, &c, &opt, &d), BASE_OK);
        double want = brute_force(&l, align, &c);
        if (fabs(opt.total_s - want) > 1e-9 * (want + 1))
            fail_msg("seed %llu, case %d: optimal %.17g, brute force %.17g", (unsigned long long)seed, t, opt.total_s,
                     want);
        for (int b = 0; b < opt.n_buckets; b++) assert_int_equal(opt.bounds[b] % align, 0);
        /* never worse than the two fixed policies */
        struct rep_bucketing ex, p2;
        assert_int_equal(rep_buckets_exact(&l, &c, &ex, &d), BASE_OK);
        assert_int_equal(rep_buckets_pow2(&l, 16, &c, &p2, &d), BASE_OK);
        if (align == 1) assert_true(opt.total_s <= ex.total_s + 1e-9 * (ex.total_s + 1));
        rep_lengths_free(&l);
    }
}

/* The two ends: free compiles give a bucket per length (no padding); costly
 * ones a single bucket at the longest length. */
static void test_recompile_optimal_ends(void **state)
{
    (void)state;
    const int64_t v[] = {5, 9, 9, 120, 700};
    struct rep_lengths l;
    lengths_of(&l, v, 5);
    struct rep_bucket_cost c = {.step_s_per_token = 1e-3, .compile_s = 0};
    struct rep_bucketing o;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rep_buckets_optimal(&l, 1, &c, &o, &d), BASE_OK);
    assert_int_equal(o.n_buckets, 4);
    close_to(o.pad_tokens, 0, "free compiles: no padding");
    c.compile_s = 1e9;
    assert_int_equal(rep_buckets_optimal(&l, 1, &c, &o, &d), BASE_OK);
    assert_int_equal(o.n_buckets, 1);
    assert_int_equal(o.bounds[0], 700);
    /* the three policies together, with a price */
    struct rep_recompile rc;
    c.compile_s = 0.05;
    assert_int_equal(rep_recompile_compute(&l, &c, 1, 2.0, &rc, &d), BASE_OK);
    assert_int_equal(rc.samples, 5);
    assert_int_equal(rc.distinct, 4);
    assert_int_equal(rc.longest, 700);
    assert_true(rc.optimal.total_s <= rc.pow2.total_s && rc.optimal.total_s <= rc.exact.total_s);
    rep_lengths_free(&l);
}

TEST_MAIN(NULL, NULL, T(test_recompile_lengths_from_a_file), T(test_recompile_lengths_errors),
          T(test_recompile_lengths_from_distributions), T(test_recompile_bucketing_by_hand),
          T(test_recompile_optimal_matches_brute_force), T(test_recompile_optimal_ends))
