/* Shared main() for the cmocka test executables. */
#include "tests/harness.h"

#include <dirent.h>
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

static int cmp_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char **test_dir_paths(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot open %s (set SHARED to the shared folder)", dir);
    char **paths = NULL;
    size_t cap = 0;
    struct dirent *e;
    *n = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            paths = realloc(paths, cap * sizeof *paths);
            assert_non_null(paths);
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        paths[*n] = malloc(len);
        assert_non_null(paths[*n]);
        snprintf(paths[(*n)++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (*n) qsort(paths, *n, sizeof *paths, cmp_paths);
    return paths;
}

void test_paths_free(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++) free(paths[i]);
    free(paths);
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
