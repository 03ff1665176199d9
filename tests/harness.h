/* cmocka test harness: TEST_MAIN(setup, teardown, tests...) generates main(),
 * which understands --filter PATTERN and --seed N and prints the seed, so a
 * failing randomised test can be replayed. */
#ifndef NPUSIM_TESTS_HARNESS_H
#define NPUSIM_TESTS_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/base.h"

/* Seed for randomised tests (from --seed, default 1). */
uint64_t test_seed(void);
/* Path of the shared corpus (env SHARED, default ../shared). */
const char *test_shared_dir(void);
/* Joins test_shared_dir() and rel into a static buffer. */
const char *test_shared_path(const char *rel);
/* Sorted paths "dir/name" of the entries of dir, hidden ones left out; fails
 * the test when dir cannot be opened.  Free with test_paths_free. */
char **test_dir_paths(const char *dir, size_t *n);
void test_paths_free(char **paths, size_t n);
int test_harness_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests,
                      size_t n, CMFixtureFunction setup, CMFixtureFunction teardown);

#define TEST_MAIN(setup, teardown, ...)                                                      \
    int main(int argc, char **argv)                                                          \
    {                                                                                        \
        const struct CMUnitTest tests_[] = {__VA_ARGS__};                                    \
        return test_harness_main(argc, argv, __FILE__, tests_, ARRAY_LEN(tests_), setup,     \
                                 teardown);                                                  \
    }

#define T(fn) cmocka_unit_test(fn)

#endif
