/* Shared main() for the cmocka test executables. */
#include "tests/harness.h"

#include <stdio.h>

static uint64_t seed_value = 1;

uint64_t test_seed(void) { return seed_value; }

const char *test_shared_dir(void)
{
    const char *s = getenv("SHARED");
    return s && *s ? s : "../shared";
}

const char *test_shared_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", test_shared_dir(), rel);
    return buf;
}

int test_harness_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests,
                      size_t n, CMFixtureFunction setup, CMFixtureFunction teardown)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
            cmocka_set_test_filter(argv[++i]);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed_value = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--filter PATTERN] [--seed N]\n", argv[0]);
            return 2;
        }
    }
    fprintf(stderr, "[ seed     ] %llu\n", (unsigned long long)seed_value);
    return _cmocka_run_group_tests(group, tests, n, setup, teardown);
}
