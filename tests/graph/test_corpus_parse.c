/* Every file of the shared corpora parses and round-trips:
 * parse -> print -> parse gives an equal module, printed identically.
 * Files are split at `// -----` lines (each chunk parsed on its own). */
#include "tests/harness.h"

#include "graph/graph.h"

#include <stdio.h>
#include <sys/stat.h>

struct tally {
    int files;
    int chunks;
    int failures;
    size_t bytes;
};

static void report_failure(struct tally *t, const char *what, const char *path, int line, const struct base_diag *d)
{
    if (t->failures++ < 10) {
        char buf[1024] = "";
        if (d) base_diag_format(d, buf, sizeof buf);
        print_message("%s: %s (chunk at line %d) %s\n", what, path, line, buf);
    }
}

static void check_chunk(struct tally *t, const char *path, const char *text, size_t len, int line)
{
    struct graph_parse_options opt = {path, 0, 0, false};
    struct graph_module *a = NULL, *b = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    t->chunks++;
    if (graph_parse(text, len, &opt, &a, &d) != BASE_OK) {
        report_failure(t, "parse failed", path, line, &d);
        return;
    }
    char *p1 = NULL, *p2 = NULL;
    size_t n1 = 0, n2 = 0;
    if (graph_print_str(a, &p1, &n1) != BASE_OK) {
        report_failure(t, "print failed", path, line, NULL);
        graph_module_destroy(a);
        return;
    }
    base_diag_clear(&d);
    struct graph_parse_options opt2 = {"<printed>", 0, 0, false};
    if (graph_parse(p1, n1, &opt2, &b, &d) != BASE_OK) {
        report_failure(t, "printed text does not parse", path, line, &d);
    } else if (!graph_module_equal(a, b)) {
        report_failure(t, "round trip changed the module", path, line, NULL);
    } else if (graph_print_str(b, &p2, &n2) != BASE_OK || n1 != n2 || memcmp(p1, p2, n1) != 0) {
        report_failure(t, "second printing differs", path, line, NULL);
    }
    free(p1);
    free(p2);
    graph_module_destroy(a);
    graph_module_destroy(b);
}

static void check_file(struct tally *t, const char *path)
{
    char *text;
    size_t len;
    struct base_diag d;
    base_diag_clear(&d);
    if (base_file_read(path, &text, &len, &d) != BASE_OK) {
        report_failure(t, "cannot read", path, 0, &d);
        return;
    }
    t->files++;
    t->bytes += len;
    int n;
    size_t *starts, *lens;
    int *lines;
    assert_int_equal(graph_split_chunks(text, len, &n, &starts, &lens, &lines), BASE_OK);
    for (int i = 0; i < n; i++) check_chunk(t, path, text + starts[i], lens[i], lines[i]);
    free(starts);
    free(lens);
    free(lines);
    free(text);
}

static void walk(struct tally *t, const char *dir)
{
    size_t n;
    char **paths = test_dir_paths(dir, &n);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        size_t len = strlen(paths[i]);
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) walk(t, paths[i]);
        else if (len > 5 && strcmp(paths[i] + len - 5, ".mlir") == 0) check_file(t, paths[i]);
    }
    test_paths_free(paths, n);
}

static void run_corpus(const char *rel, int min_files)
{
    struct tally t = {0, 0, 0, 0};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", test_shared_path(rel));
    walk(&t, dir);
    print_message("%s: %d files, %d chunks, %.1f MB, %d failures\n", rel, t.files, t.chunks, (double)t.bytes / 1e6,
                  t.failures);
    assert_true(t.files >= min_files);
    assert_int_equal(t.failures, 0);
}

static void test_corpus_testdata_parses_and_round_trips(void **state)
{
    (void)state;
    run_corpus("conformance/stablehlo-testdata", 1427);
}

static void test_corpus_interpret_chunks_parse_and_round_trip(void **state)
{
    (void)state;
    run_corpus("conformance/stablehlo-interpret", 100);
}

static void test_corpus_models_parse_and_round_trip(void **state)
{
    (void)state;
    run_corpus("models", 2);
}

TEST_MAIN(NULL, NULL, T(test_corpus_testdata_parses_and_round_trips),
          T(test_corpus_interpret_chunks_parse_and_round_trip), T(test_corpus_models_parse_and_round_trip))
