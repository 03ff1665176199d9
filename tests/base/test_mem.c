/* Host memory helpers (base/mem.c): sizes parsed and printed, the one form
 * of an out-of-memory diagnostic, and what a data limit leaves. */
#include "tests/harness.h"

#include <stdlib.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static void test_size_parse(void **state)
{
    (void)state;
    uint64_t b = 0;
    assert_true(base_size_parse("16G", &b));
    assert_true(b == UINT64_C(16) << 30);
    assert_true(base_size_parse("1.5GiB", &b));
    assert_true(b == UINT64_C(3) << 29);
    assert_true(base_size_parse("800M", &b));
    assert_true(b == UINT64_C(800) << 20);
    assert_true(base_size_parse("512k", &b));
    assert_true(b == 512 * 1024);
    assert_true(base_size_parse("4096", &b));
    assert_true(b == 4096);
    assert_true(base_size_parse("2TB", &b));
    assert_true(b == UINT64_C(2) << 40);
    assert_false(base_size_parse("", &b));
    assert_false(base_size_parse("lots", &b));
    assert_false(base_size_parse("16Q", &b));
    assert_false(base_size_parse("-1G", &b));
    assert_false(base_size_parse("16G extra", &b));
    assert_false(base_size_parse("1e30", &b));
}

static void test_size_format(void **state)
{
    (void)state;
    char s[32];
    base_size_format(4096, s, sizeof s);
    assert_string_equal(s, "4.00 KiB");
    base_size_format(1000, s, sizeof s);
    assert_string_equal(s, "1000 B");
    base_size_format(UINT64_C(16) << 30, s, sizeof s);
    assert_string_equal(s, "16.0 GiB");
    base_size_format(UINT64_C(812) << 20, s, sizeof s);
    assert_string_equal(s, "812 MiB");
    base_size_format(UINT64_MAX, s, sizeof s);
    assert_string_equal(s, "unknown");
}

static void test_nomem_names_numbers(void **state)
{
    (void)state;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_diag_nomem(&d, "w.safetensors", 0, 0, UINT64_C(3) << 30, "tensor %s", "wq"), BASE_ERR_NOMEM);
    assert_int_equal(d.status, BASE_ERR_NOMEM);
    assert_non_null(strstr(d.msg, "out of memory: needed 3.00 GiB, available "));
    assert_non_null(strstr(d.msg, ": tensor wq"));
    assert_string_equal(d.file, "w.safetensors");
}

/* A data limit (what npusim run --max-memory sets) lowers what is
 * available, and an allocation past it fails instead of growing. */
static void test_available_follows_the_data_limit(void **state)
{
    (void)state;
#ifdef UNDER_ASAN
    skip(); /* ASan reserves address space far past any limit */
#else
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_DATA, &old), 0);
    uint64_t before = base_mem_available();
    assert_true(before > 0);
    assert_true(base_mem_rss() > 0 && base_mem_peak_rss() >= base_mem_rss());
    struct rlimit rl = old;
    rl.rlim_cur = (rlim_t)(UINT64_C(256) << 20);
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < rl.rlim_cur) skip();
    assert_int_equal(setrlimit(RLIMIT_DATA, &rl), 0);
    uint64_t after = base_mem_available();
    assert_true(after <= (UINT64_C(256) << 20));
    void *big = malloc((size_t)1 << 30); /* 1 GiB past a 256 MiB limit */
    bool failed = big == NULL;
    free(big);
    assert_int_equal(setrlimit(RLIMIT_DATA, &old), 0);
    assert_true(failed);
#endif
}

TEST_MAIN(NULL, NULL,
          T(test_size_parse),
          T(test_size_format),
          T(test_nomem_names_numbers),
          T(test_available_follows_the_data_limit))
