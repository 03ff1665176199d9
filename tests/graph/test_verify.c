/* graph_verify: the StableHLO corpus and the model exports verify clean, the
 * spec's examples verify clean, and malformed programs (one per rule class)
 * fail with BASE_ERR_VERIFY at the offending op, naming the constraint. */
#include "tests/harness.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "graph/graph.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static enum base_status parse_and_verify(const char *src, struct base_diag *d)
{
    struct graph_parse_options po = {0};
    po.path = "test.mlir";
    struct graph_module *m = NULL;
    base_diag_clear(d);
    enum base_status st = graph_parse(src, strlen(src), &po, &m, d);
    if (st != BASE_OK) {
        char buf[700];
        base_diag_format(d, buf, sizeof buf);
        fail_msg("test program does not parse: %s", buf);
    }
    st = graph_verify(m, d);
    graph_module_destroy(m);
    return st;
}

static void expect_clean(const char *src)
{
    struct base_diag d;
    enum base_status st = parse_and_verify(src, &d);
    if (st != BASE_OK) {
        char buf[700];
        base_diag_format(&d, buf, sizeof buf);
        fail_msg("expected a clean verify, got %s: %s", base_status_str(st), buf);
    }
}

static void expect_error(const char *src, int line, int col, const char *fragment)
{
    struct base_diag d;
    enum base_status st = parse_and_verify(src, &d);
    char buf[700];
    base_diag_format(&d, buf, sizeof buf);
    if (st != BASE_ERR_VERIFY) fail_msg("expected ERR_VERIFY, got %s: %s", base_status_str(st), buf);
    if (d.line != line || d.col != col)
        fail_msg("expected the error at %d:%d, got %d:%d: %s", line, col, d.line, d.col, buf);
    if (!strstr(d.msg, fragment)) fail_msg("expected \"%s\" in the message: %s", fragment, buf);
    if (strcmp(d.file, "test.mlir") != 0) fail_msg("expected file test.mlir, got %s", d.file);
}

/* A program the parser itself rejects (types and attributes MLIR checks when
 * it builds them), at line:col with the fragment in the message. */
static void expect_parse_error(const char *src, int line, int col, const char *fragment)
{
    struct graph_parse_options po = {0};
    po.path = "test.mlir";
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse(src, strlen(src), &po, &m, &d);
    graph_module_destroy(m);
    char buf[700];
    base_diag_format(&d, buf, sizeof buf);
    if (st == BASE_OK) fail_msg("expected a parse error with \"%s\"", fragment);
    if (d.line != line || d.col != col)
        fail_msg("expected the error at %d:%d, got %d:%d: %s", line, col, d.line, d.col, buf);
    if (!strstr(d.msg, fragment)) fail_msg("expected \"%s\" in the message: %s", fragment, buf);
}

/* ------------------------------------------------------------------------ */
/* The corpus                                                                */

struct corpus_stats {
    int files, chunks, parsed, verified, parse_failed;
    char first_failure[700];
    int verify_failed;
};

static void verify_text(const char *path, const char *text, size_t len, struct corpus_stats *s)
{
    int n;
    size_t *starts, *lens;
    int *first_lines;
    assert_int_equal(graph_split_chunks(text, len, &n, &starts, &lens, &first_lines), BASE_OK);
    for (int c = 0; c < n; c++) {
        s->chunks++;
        struct graph_parse_options po = {0};
        po.path = path;
        struct graph_module *m = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        if (graph_parse(text + starts[c], lens[c], &po, &m, &d) != BASE_OK) {
            s->parse_failed++;
            continue;
        }
        s->parsed++;
        enum base_status st = graph_verify(m, &d);
        if (st == BASE_OK) {
            s->verified++;
        } else {
            char buf[700];
            if (d.line > 0) d.line += first_lines[c] - 1;
            base_diag_format(&d, buf, sizeof buf);
            if (s->verify_failed++ == 0) snprintf(s->first_failure, sizeof s->first_failure, "%s", buf);
            if (getenv("VERIFY_SHOW_ALL")) fprintf(stderr, "%s\n", buf);
        }
        graph_module_destroy(m);
    }
    free(starts);
    free(lens);
    free(first_lines);
}

static void verify_dir(const char *rel, struct corpus_stats *s)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", test_shared_path(rel));
    size_t n;
    char **paths = test_dir_paths(dir, &n);
    for (size_t i = 0; i < n; i++) {
        const char *name = strrchr(paths[i], '/') + 1;
        size_t l = strlen(name);
        if (l < 6 || strcmp(name + l - 5, ".mlir") != 0) continue;
        char *text;
        size_t len;
        struct base_diag d;
        assert_int_equal(base_file_read(paths[i], &text, &len, &d), BASE_OK);
        s->files++;
        verify_text(paths[i], text, len, s);
        free(text);
    }
    test_paths_free(paths, n);
}

static void report(const char *what, const struct corpus_stats *s)
{
    fprintf(stderr, "[ verify   ] %s: %d files, %d chunks, %d parsed, %d verified clean, %d parse failures\n",
            what, s->files, s->chunks, s->parsed, s->verified, s->parse_failed);
    if (s->verify_failed)
        fail_msg("%d of %d parsed chunks fail to verify; first: %s", s->verify_failed, s->parsed,
                 s->first_failure);
}

static void test_verify_testdata_corpus_is_clean(void **state)
{
    (void)state;
    struct corpus_stats s;
    memset(&s, 0, sizeof s);
    verify_dir("conformance/stablehlo-testdata", &s);
    verify_dir("conformance/stablehlo-testdata/dynamic", &s);
    verify_dir("conformance/stablehlo-testdata/quantized", &s);
    report("stablehlo-testdata", &s);
    assert_int_equal(s.files, 1427);
    assert_true(s.parsed > 0);
}

static void test_verify_interpret_suite_is_clean(void **state)
{
    (void)state;
    struct corpus_stats s;
    memset(&s, 0, sizeof s);
    verify_dir("conformance/stablehlo-interpret", &s);
    verify_dir("conformance/stablehlo-interpret/chlo", &s);
    report("stablehlo-interpret", &s);
    assert_true(s.parsed > 0);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void verify_model(const char *rel, double *best_ms, uint32_t *n_ops)
{
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    char buf[700];
    if (graph_parse_file(test_shared_path(rel), &m, &d) != BASE_OK) {
        base_diag_format(&d, buf, sizeof buf);
        fail_msg("%s does not parse: %s", rel, buf);
    }
    *best_ms = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ms();
        enum base_status st = graph_verify(m, &d);
        double t = now_ms() - t0;
        if (t < *best_ms) *best_ms = t;
        if (st != BASE_OK) {
            base_diag_format(&d, buf, sizeof buf);
            graph_module_destroy(m);
            fail_msg("%s fails to verify: %s", rel, buf);
        }
    }
    *n_ops = m->n_ops;
    graph_module_destroy(m);
}

static void test_verify_models_are_clean(void **state)
{
    (void)state;
    double ms;
    uint32_t n;
    verify_model("models/glm_358b_1_layer_shlo.mlir", &ms, &n);
    fprintf(stderr, "[ verify   ] glm_358b_1_layer: %u ops in %.3f ms\n", n, ms);
    verify_model("models/qwen_3_0_6b_shlo.mlir", &ms, &n);
    fprintf(stderr, "[ verify   ] qwen_3_0_6b: %u ops in %.3f ms\n", n, ms);
}

/* Linear in the op count: 6000 ops verify in a few ms even in a debug build
 * (the bound is loose so a loaded machine does not fail it). */
static void test_verify_qwen_takes_milliseconds(void **state)
{
    (void)state;
    double ms;
    uint32_t n;
    verify_model("models/qwen_3_0_6b_shlo.mlir", &ms, &n);
    assert_true(n > 5000);
    if (ms > 50.0) fail_msg("verifying %u ops took %.2f ms", n, ms);
}

/* ------------------------------------------------------------------------ */
/* Spec examples (docs/spec.md) verify clean                                 */

static void test_verify_spec_example_program_is_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%image: tensor<28x28xf32>, %weights: tensor<784x10xf32>,\n"
        "                %bias: tensor<1x10xf32>) -> tensor<1x10xf32> {\n"
        "  %0 = \"stablehlo.reshape\"(%image) : (tensor<28x28xf32>) -> tensor<1x784xf32>\n"
        "  %1 = \"stablehlo.dot\"(%0, %weights) : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>\n"
        "  %2 = \"stablehlo.add\"(%1, %bias) : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>\n"
        "  %3 = \"stablehlo.constant\"() {value = dense<0.0> : tensor<1x10xf32>} : () -> tensor<1x10xf32>\n"
        "  %4 = \"stablehlo.maximum\"(%2, %3) : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>\n"
        "  \"func.return\"(%4): (tensor<1x10xf32>) -> ()\n"
        "}\n");
}

static void test_verify_spec_examples_shape_ops_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%a: tensor<1x3xi32>, %b: tensor<3x2xi64>, %c: tensor<1x2xi64>,\n"
        "                %d: tensor<2x3xi32>, %e: tensor<3x4xi64>, %f: tensor<2x3x2xi32>,\n"
        "                %g: tensor<4x4xi32>, %h: tensor<i64>, %u: tensor<2x2xi32>) {\n"
        "  %0 = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xi32>) -> tensor<2x3x2xi32>\n"
        "  %1 = \"stablehlo.concatenate\"(%b, %c) {dimension = 0 : i64} : (tensor<3x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>\n"
        "  %p = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %2 = \"stablehlo.pad\"(%d, %p) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 2>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<5x9xi32>\n"
        "  %3 = \"stablehlo.slice\"(%e) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xi64>) -> tensor<2x2xi64>\n"
        "  %4 = \"stablehlo.transpose\"(%f) {permutation = array<i64: 2, 1, 0>} : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>\n"
        "  %5 = \"stablehlo.reshape\"(%d) : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
        "  %6 = \"stablehlo.dynamic_slice\"(%g, %h, %h) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>\n"
        "  %7 = \"stablehlo.dynamic_update_slice\"(%g, %u, %h, %h) : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>\n"
        "  %8 = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> tensor<4x5xi32>\n"
        "  %9 = \"stablehlo.reverse\"(%d) {dimensions = array<i64: 1>} : (tensor<2x3xi32>) -> tensor<2x3xi32>\n"
        "  %10 = \"stablehlo.bitcast_convert\"(%b) : (tensor<3x2xi64>) -> tensor<3x2x4xi16>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_gather_scatter_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%operand: tensor<2x3x4x2xi32>, %start_indices: tensor<2x2x3x2xi64>,\n"
        "                %input: tensor<2x3x4x2xi64>, %update: tensor<2x2x3x2x2xi64>) {\n"
        "  %0 = \"stablehlo.gather\"(%operand, %start_indices) {\n"
        "    dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1],\n"
        "      operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1],\n"
        "      index_vector_dim = 3>,\n"
        "    slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = false\n"
        "  } : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>\n"
        "  %1 = \"stablehlo.scatter\"(%input, %start_indices, %update) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {\n"
        "    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 4],\n"
        "      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1],\n"
        "      scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>,\n"
        "    indices_are_sorted = false, unique_indices = false\n"
        "  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_windows_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%input: tensor<3x2xi64>, %init: tensor<i64>, %operand: tensor<4x2xi64>,\n"
        "                %source: tensor<2x2xi64>, %x: tensor<1x6xi64>) {\n"
        "  %0 = \"stablehlo.reduce_window\"(%input, %init) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>,\n"
        "      base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>,\n"
        "      padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>\n"
        "  %1 = \"stablehlo.select_and_scatter\"(%operand, %source, %init) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %c = \"stablehlo.compare\"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "      \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
        "  }, {\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>,\n"
        "      padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>\n"
        "  %2 = \"stablehlo.reduce\"(%x, %init) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {dimensions = array<i64: 1>} : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_linalg_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%lhs: tensor<2x2x2xi64>, %rhs: tensor<2x2x2xi64>, %cl: tensor<1x4x4x1xi64>,\n"
        "                %cr: tensor<3x3x1x1xi64>, %f: tensor<4xcomplex<f32>>, %a: tensor<3x3xf32>) {\n"
        "  %0 = \"stablehlo.dot_general\"(%lhs, %rhs) {\n"
        "    dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],\n"
        "      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,\n"
        "    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]\n"
        "  } : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>\n"
        "  %1 = \"stablehlo.convolution\"(%cl, %cr) {\n"
        "    window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>,\n"
        "    lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>,\n"
        "    window_reversal = array<i1: false, false>,\n"
        "    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,\n"
        "    batch_group_count = 1 : i64, feature_group_count = 1 : i64,\n"
        "    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]\n"
        "  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>\n"
        "  %2 = \"stablehlo.fft\"(%f) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
        "  %3 = \"stablehlo.triangular_solve\"(%a, %a) {left_side = true, lower = true, unit_diagonal = false,\n"
        "    transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>\n"
        "  %4 = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_control_flow_is_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%init_i: tensor<i64>, %init_sum: tensor<i64>, %one: tensor<i64>,\n"
        "                %ten: tensor<i64>, %index: tensor<i32>, %b0: tensor<2xi64>, %b1: tensor<2xi64>,\n"
        "                %pred: tensor<i1>) {\n"
        "  %r0, %r1 = \"stablehlo.while\"(%init_i, %init_sum) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %cond = \"stablehlo.compare\"(%arg0, %ten) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "      stablehlo.return %cond : tensor<i1>\n"
        "  }, {\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %new_sum = stablehlo.add %arg1, %one : tensor<i64>\n"
        "      %new_i = stablehlo.add %arg0, %one : tensor<i64>\n"
        "      stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>\n"
        "  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)\n"
        "  %c0, %c1 = \"stablehlo.case\"(%index) ({\n"
        "    \"stablehlo.return\"(%b0, %b0) : (tensor<2xi64>, tensor<2xi64>) -> ()\n"
        "  }, {\n"
        "    \"stablehlo.return\"(%b1, %b1) : (tensor<2xi64>, tensor<2xi64>) -> ()\n"
        "  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)\n"
        "  %i = \"stablehlo.if\"(%pred) ({\n"
        "    \"stablehlo.return\"(%one) : (tensor<i64>) -> ()\n"
        "  }, {\n"
        "    \"stablehlo.return\"(%ten) : (tensor<i64>) -> ()\n"
        "  }) : (tensor<i1>) -> tensor<i64>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_collectives_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%a: tensor<2x2xi64>, %b: tensor<2x4xi64>, %c: tensor<4xi64>) {\n"
        "  %0:2 = \"stablehlo.all_gather\"(%a, %a) {all_gather_dim = 1 : i64,\n"
        "    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,\n"
        "    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>\n"
        "  } : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>)\n"
        "  %1 = \"stablehlo.all_to_all\"(%b) {split_dimension = 1 : i64, concat_dimension = 0 : i64,\n"
        "    split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>\n"
        "  } : (tensor<2x4xi64>) -> tensor<4x2xi64>\n"
        "  %2 = \"stablehlo.all_reduce\"(%c) ({\n"
        "    ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%x, %y) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>\n"
        "  %3 = \"stablehlo.reduce_scatter\"(%b) ({\n"
        "    ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
        "      %s = \"stablehlo.add\"(%x, %y) : (tensor<i64>, tensor<i64>) -> tensor<i64>\n"
        "      \"stablehlo.return\"(%s) : (tensor<i64>) -> ()\n"
        "  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>\n"
        "  %4 = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> tensor<2x2xi64>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_dynamic_dims_match_anything(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%a: tensor<?x3xf32>, %b: tensor<2x?xf32>) -> tensor<2x3xf32> {\n"
        "  %0 = stablehlo.add %a, %b : (tensor<?x3xf32>, tensor<2x?xf32>) -> tensor<2x3xf32>\n"
        "  return %0 : tensor<2x3xf32>\n"
        "}\n");
}

static void test_verify_select_and_clamp_take_scalar_operands(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%p: tensor<i1>, %x: tensor<4xf32>, %lo: tensor<f32>) {\n"
        "  %0 = stablehlo.select %p, %x, %x : tensor<i1>, tensor<4xf32>\n"
        "  %1 = stablehlo.clamp %lo, %x, %lo : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  func.return\n"
        "}\n");
}


static void test_verify_spec_examples_batch_norm_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%operand: tensor<2x2x2xf64>, %scale: tensor<2xf64>, %mean: tensor<2xf64>,\n"
        "                %variance: tensor<2xf64>, %grad_output: tensor<2x2x2xf64>) {\n"
        "  %g0, %g1, %g2 = \"stablehlo.batch_norm_grad\"(%operand, %scale, %mean, %variance, %grad_output) {\n"
        "    epsilon = 0.0 : f32, feature_index = 2 : i64\n"
        "  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>)\n"
        "      -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)\n"
        "  %i = \"stablehlo.batch_norm_inference\"(%operand, %scale, %mean, %mean, %variance) {\n"
        "    epsilon = 0.0 : f32, feature_index = 2 : i64\n"
        "  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x2x2xf64>\n"
        "  %t0, %t1, %t2 = \"stablehlo.batch_norm_training\"(%operand, %scale, %mean) {\n"
        "    epsilon = 0.0 : f32, feature_index = 2 : i64\n"
        "  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_dynamic_ops_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%a: tensor<1x3xi64>, %b: tensor<3x4x2xi64>, %c: tensor<2x3x2xi64>,\n"
        "                %d: tensor<2x3xi64>, %pv: tensor<i64>, %lhs: tensor<1x4x4x1xi64>,\n"
        "                %rhs: tensor<3x3x1x1xi64>, %pad: tensor<2x2xi64>) {\n"
        "  %od = stablehlo.constant dense<[2, 3, 2]> : tensor<3xi64>\n"
        "  %0 = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %od) {broadcast_dimensions = array<i64: 2, 1>,\n"
        "    known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>\n"
        "  } : (tensor<1x3xi64>, tensor<3xi64>) -> tensor<2x3x2xi64>\n"
        "  %ss = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>\n"
        "  %1 = \"stablehlo.dynamic_gather\"(%b, %c, %ss) {dimension_numbers = #stablehlo.gather<\n"
        "    offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,\n"
        "    indices_are_sorted = false} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>\n"
        "  %os = stablehlo.constant dense<[4, 5]> : tensor<2xi64>\n"
        "  %2 = \"stablehlo.dynamic_iota\"(%os) {iota_dimension = 0 : i64} : (tensor<2xi64>) -> tensor<4x5xi64>\n"
        "  %lo = stablehlo.constant dense<[0, 1]> : tensor<2xi64>\n"
        "  %hi = stablehlo.constant dense<[2, 1]> : tensor<2xi64>\n"
        "  %in = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
        "  %3 = \"stablehlo.dynamic_pad\"(%d, %pv, %lo, %hi, %in) : (tensor<2x3xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x9xi64>\n"
        "  %os2 = stablehlo.constant dense<[3, 2]> : tensor<2xi64>\n"
        "  %4 = \"stablehlo.dynamic_reshape\"(%d, %os2) : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<3x2xi64>\n"
        "  %5 = \"stablehlo.dynamic_conv\"(%lhs, %rhs, %pad) {window_strides = array<i64: 4, 4>,\n"
        "    lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>,\n"
        "    window_reversal = array<i1: false, false>,\n"
        "    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,\n"
        "    feature_group_count = 1 : i64, batch_group_count = 1 : i64\n"
        "  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, tensor<2x2xi64>) -> tensor<1x2x2x1xi64>\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_regions_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @main(%input0: tensor<2x2xi64>, %input1: tensor<2x2xi64>, %s0: tensor<2x3xi64>) {\n"
        "  %0 = \"stablehlo.map\"(%input0, %input1) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):\n"
        "      %m = stablehlo.multiply %arg0, %arg1 : tensor<i64>\n"
        "      stablehlo.return %m : tensor<i64>\n"
        "  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>\n"
        "  %r0, %r1 = \"stablehlo.sort\"(%s0, %s0) ({\n"
        "    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<i64>):\n"
        "      %p = \"stablehlo.compare\"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "      \"stablehlo.return\"(%p) : (tensor<i1>) -> ()\n"
        "  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)\n"
        "  func.return\n"
        "}\n");
}

static void test_verify_spec_examples_misc_ops_are_clean(void **state)
{
    (void)state;
    expect_clean(
        "func.func @impl(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n"
        "  func.return %a : tensor<f32>\n"
        "}\n"
        "func.func @main(%x: tensor<7xf64>, %c: tensor<2xcomplex<f32>>, %q: tensor<4xi64>,\n"
        "                %st: tensor<2xui64>, %t0: !stablehlo.token, %f: tensor<f32>,\n"
        "                %v0: tensor<2xf32>, %v1: tuple<tensor<i32>>, %d: tensor<2x3xi64>) {\n"
        "  %0 = \"stablehlo.is_finite\"(%x) : (tensor<7xf64>) -> tensor<7xi1>\n"
        "  %1 = \"stablehlo.real\"(%c) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>\n"
        "  %2 = \"stablehlo.imag\"(%c) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>\n"
        "  %3 = \"stablehlo.complex\"(%1, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>\n"
        "  %4 = \"stablehlo.popcnt\"(%q) : (tensor<4xi64>) -> tensor<4xi64>\n"
        "  %5 = \"stablehlo.reduce_precision\"(%x) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<7xf64>) -> tensor<7xf64>\n"
        "  %6, %7 = \"stablehlo.rng_bit_generator\"(%st) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)\n"
        "  %8 = \"stablehlo.after_all\"(%t0, %t0) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token\n"
        "  %9, %10 = \"stablehlo.infeed\"(%8) {infeed_config = \"\"} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)\n"
        "  %11 = \"stablehlo.outfeed\"(%9, %10) {outfeed_config = \"\"} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token\n"
        "  %12 = \"stablehlo.tuple\"(%v0, %v1) : (tensor<2xf32>, tuple<tensor<i32>>) -> tuple<tensor<2xf32>, tuple<tensor<i32>>>\n"
        "  %13 = \"stablehlo.get_tuple_element\"(%12) {index = 0 : i32} : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>\n"
        "  %14, %15 = \"stablehlo.optimization_barrier\"(%f, %f) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
        "  %16 = \"stablehlo.composite\"(%f, %f) {name = \"my_namespace.my_op\", composite_attributes = {my_attribute = \"my_value\"},\n"
        "    decomposition = @impl, version = 1 : i32} : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "  %17 = \"stablehlo.get_dimension_size\"(%d) {dimension = 1 : i64} : (tensor<2x3xi64>) -> tensor<i32>\n"
        "  %18 = \"stablehlo.replica_id\"() : () -> tensor<ui32>\n"
        "  %19 = \"stablehlo.uniform_quantize\"(%v0) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>\n"
        "  %20 = \"stablehlo.uniform_dequantize\"(%19) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>\n"
        "  %21 = \"stablehlo.custom_call\"(%f) {call_target_name = \"foo\", has_side_effect = false,\n"
        "    backend_config = {bar = 42 : i32}, api_version = 4 : i32} : (tensor<f32>) -> tensor<f32>\n"
        "  func.return\n"
        "}\n");
}

/* ------------------------------------------------------------------------ */
/* Malformed programs                                                        */

#define FN(args, body) "func.func @main(" args ") {\n" body "  func.return\n}\n"

static void test_verify_rejects_wrong_operand_count(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>",
                    "  %0 = \"stablehlo.add\"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"),
                 2, 3, "stablehlo.add: expects 2 operands, got 1");
}

static void test_verify_rejects_annotation_changing_type(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>",
                    "  %0 = \"mhlo.copy\"(%a) : (tensor<2xf32>) -> tensor<2xf16>\n"),
                 2, 3, "(C1) operand 0 and result 0 must have the same type");
}

static void test_verify_rejects_elementwise_shape_mismatch(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>, %b: tensor<3xf32>",
                    "  %0 = \"stablehlo.add\"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"),
                 2, 3, "(C1) lhs and rhs must have the same type");
}

static void test_verify_rejects_popcnt_on_floats(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>", "  %0 = stablehlo.popcnt %a : tensor<2xf32>\n"), 2, 3,
                 "operand must be a tensor of integer type, got tensor<2xf32>");
}

static void test_verify_rejects_sqrt_on_integers(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xi32>", "  %0 = stablehlo.sqrt %a : tensor<2xi32>\n"), 2, 3,
                 "must be a tensor of floating-point, complex or per-tensor quantized type");
}

static void test_verify_rejects_logical_and_on_floats(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>", "  %0 = stablehlo.and %a, %a : tensor<2xf32>\n"), 2, 3,
                 "boolean or integer type");
}

static void test_verify_rejects_compare_with_non_bool_result(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>",
                    "  %0 = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"),
                 2, 3, "result must be a tensor of boolean type");
}

static void test_verify_compare_type_is_not_matched_to_the_element_type(void **state)
{
    (void)state;
    /* upstream accepts any compare_type (spec C3 is not checked; docs/graph-ir.md) */
    expect_clean(FN("%a: tensor<2xf32>, %b: tensor<2xi32>",
                    "  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
                    "  %1 = stablehlo.compare LT, %b, %b, TOTALORDER : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>\n"));
    expect_error(FN("%a: tensor<2xf32>, %b: tensor<2xi32>",
                    "  %0 = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : "
                    "(tensor<2xf32>, tensor<2xi32>) -> tensor<2xi1>\n"),
                 2, 3, "(C1) lhs and rhs must have the same element type");
}

static void test_verify_rejects_select_pred_shape(void **state)
{
    (void)state;
    expect_error(FN("%p: tensor<3xi1>, %x: tensor<4xf32>",
                    "  %0 = stablehlo.select %p, %x, %x : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "(C1) unless pred is a scalar, pred and on_true must have the same shape");
}

static void test_verify_rejects_select_non_bool_pred(void **state)
{
    (void)state;
    expect_error(FN("%p: tensor<4xi32>, %x: tensor<4xf32>",
                    "  %0 = stablehlo.select %p, %x, %x : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "pred must be a tensor of boolean type");
}

static void test_verify_rejects_clamp_min_shape(void **state)
{
    (void)state;
    expect_error(FN("%lo: tensor<3xf32>, %x: tensor<4xf32>",
                    "  %0 = stablehlo.clamp %lo, %x, %x : (tensor<3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "(C1) unless min is a scalar, min and operand must have the same shape");
}

static void test_verify_rejects_broadcast_dims_count(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<1x3xf32>",
                    "  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<1x3xf32>) -> tensor<2x3xf32>\n"),
                 2, 3, "(C2) broadcast_dimensions has 1 entries but the operand has rank 2");
}

static void test_verify_rejects_broadcast_size_mismatch(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<1x3xf32>",
                    "  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x4xf32>\n"),
                 2, 3, "(C5) operand dim 1 has size 3, which is neither 1 nor the size 4 of result dim 1");
}

static void test_verify_rejects_reshape_element_count(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>",
                    "  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>\n"),
                 2, 3, "(C2) operand has 6 elements but result has 7");
}

static void test_verify_rejects_transpose_non_permutation(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>",
                    "  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"),
                 2, 3, "(C2) permutation [0, 0] is not a permutation of range(2)");
}

static void test_verify_rejects_transpose_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>",
                    "  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
                 2, 3, "(C3) result has type tensor<2x3xf32> but its shape must be 3x2");
}

static void test_verify_rejects_slice_out_of_bounds(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<4xf32>",
                    "  %0 = stablehlo.slice %a [1:5] : (tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "(C3) dim 0 needs 0 <= start 1 <= limit 5 <= size 4");
}

static void test_verify_rejects_slice_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<8xf32>",
                    "  %0 = stablehlo.slice %a [1:8:2] : (tensor<8xf32>) -> tensor<3xf32>\n"),
                 2, 3, "(C5) result has type tensor<3xf32> but its shape must be 4");
}

static void test_verify_rejects_negative_interior_padding(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<3xf32>, %p: tensor<f32>",
                    "  %0 = stablehlo.pad %a, %p, low = [0], high = [0], interior = [-1] : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>\n"),
                 2, 3, "(C3) interior_padding[0] = -1 must be >= 0");
}

static void test_verify_rejects_pad_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<3xf32>, %p: tensor<f32>",
                    "  %0 = stablehlo.pad %a, %p, low = [1], high = [2], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<7xf32>\n"),
                 2, 3, "(C4) result has type tensor<7xf32> but its shape must be 8");
}

static void test_verify_rejects_concatenate_other_dims(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>, %b: tensor<2x4xf32>",
                    "  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>\n"),
                 2, 3, "(C2) inputs must agree on dim 1");
}

static void test_verify_rejects_concatenate_result_size(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>, %b: tensor<5x3xf32>",
                    "  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<6x3xf32>\n"),
                 2, 3, "(C6) result has type tensor<6x3xf32> but its shape must be 7x3");
}

static void test_verify_rejects_iota_dimension(void **state)
{
    (void)state;
    expect_error(FN("", "  %0 = stablehlo.iota dim = 2 : tensor<4x5xi32>\n"), 2, 3,
                 "(C1) iota_dimension 2 must be in [0, 2)");
}

static void test_verify_rejects_reduce_dimension_range(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>, %z: tensor<f32>",
                    "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"),
                 2, 3, "(C4) dimensions[0] = 2 must be in [0, 2)");
}

static void test_verify_rejects_reduce_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>, %z: tensor<f32>",
                    "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"),
                 2, 3, "(C7) result has type tensor<3xf32> but its shape must be 2");
}

static void test_verify_rejects_reducer_arity(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>, %z: tensor<f32>",
                    "  %0 = \"stablehlo.reduce\"(%a, %z) ({\n"
                    "    ^bb0(%x: tensor<f32>):\n"
                    "      \"stablehlo.return\"(%x) : (tensor<f32>) -> ()\n"
                    "  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"),
                 2, 3, "(C6) body must take 2 arguments, takes 1");
}

static void test_verify_rejects_reduce_window_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<8xf32>, %z: tensor<f32>",
                    "  %0 = \"stablehlo.reduce_window\"(%a, %z) ({\n"
                    "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                    "      %s = stablehlo.maximum %x, %y : tensor<f32>\n"
                    "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                    "  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>\n"),
                 2, 3, "(C15) result has type tensor<4xf32> but its shape must be 3");
}

static void test_verify_rejects_dot_general_contracting_sizes(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x5120xf32>, %b: tensor<5121x3xf32>",
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x5120xf32>, tensor<5121x3xf32>) -> tensor<2x3xf32>\n"),
                 2, 3,
                 "stablehlo.dot_general: (C10) lhs contracting dim 1 has size 5120 but rhs contracting dim 0 has size 5121");
}

static void test_verify_rejects_dot_general_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<4x2x8xf32>, %b: tensor<4x8x3xf32>",
                    "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x3xf32>) -> tensor<2x4x3xf32>\n"),
                 2, 3, "(C12) result has type tensor<2x4x3xf32> but its shape must be 4x2x3");
}

static void test_verify_rejects_convolution_feature_mismatch(void **state)
{
    (void)state;
    expect_error(FN("%l: tensor<1x8x8x3xf32>, %r: tensor<3x3x4x16xf32>",
                    "  %0 = stablehlo.convolution(%l, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>\n"),
                 2, 3, "(C14) rhs input feature dim 2 has size 4 but lhs feature size 3");
}

static void test_verify_rejects_convolution_spatial_size(void **state)
{
    (void)state;
    expect_error(FN("%l: tensor<1x8x8x3xf32>, %r: tensor<3x3x3x16xf32>",
                    "  %0 = stablehlo.convolution(%l, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>\n"),
                 2, 3, "(C25) result has type tensor<1x8x8x16xf32> but its shape must be 1x4x4x16");
}

static void test_verify_rejects_gather_result_shape(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<3x4xf32>, %i: tensor<5x1xi32>",
                    "  %0 = \"stablehlo.gather\"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<5x1xi32>) -> tensor<5x3xf32>\n"),
                 2, 3, "(C22) result has type tensor<5x3xf32> but its shape must be 5x4");
}

static void test_verify_rejects_gather_index_vector_size(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<3x4xf32>, %i: tensor<5x2xi32>",
                    "  %0 = \"stablehlo.gather\"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<5x2xi32>) -> tensor<5x4xf32>\n"),
                 2, 3, "(C3) start_index_map has 1 entries but the index vector");
}

static void test_verify_rejects_scatter_update_shape(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<3x4xf32>, %i: tensor<5x1xi32>, %u: tensor<6x4xf32>",
                    "  %0 = \"stablehlo.scatter\"(%x, %i, %u) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      \"stablehlo.return\"(%b) : (tensor<f32>) -> ()\n"
                    "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<5x1xi32>, tensor<6x4xf32>) -> tensor<3x4xf32>\n"),
                 2, 3, "(C4) update scatter dim 0 has size 6 but the indices give 5");
}

static void test_verify_rejects_dynamic_slice_size(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4x4xf32>, %i: tensor<i32>",
                    "  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 5] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x5xf32>\n"),
                 2, 3, "(C4) slice_sizes[1] = 5 must be in [0, 4]");
}

static void test_verify_rejects_sort_comparator_result(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4xf32>",
                    "  %0 = \"stablehlo.sort\"(%x) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n"
                    "  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "(C5) comparator must return a tensor<i1>, returns tensor<f32>");
}

static void test_verify_rejects_reverse_duplicate_dims(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4x2xf32>",
                    "  %0 = stablehlo.reverse %x, dims = [1, 1] : tensor<4x2xf32>\n"),
                 2, 3, "(C2) dimensions must be unique, got [1, 1]");
}

static void test_verify_rejects_bitcast_convert_shape(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2xf32>",
                    "  %0 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2x2xi8>\n"),
                 2, 3, "(C1) result dim 1 has size 2 but must be 32 / 8 = 4");
}

static void test_verify_rejects_convert_shape(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2xf32>",
                    "  %0 = stablehlo.convert %x : (tensor<2xf32>) -> tensor<3xi32>\n"),
                 2, 3, "(C1) operand and result must have the same shape");
}

static void test_verify_rejects_real_with_complex_result(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2xcomplex<f32>>",
                    "  %0 = \"stablehlo.real\"(%x) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>\n"),
                 2, 3, "(C2) result element type must be f32 (the component type of tensor<2xcomplex<f32>>)");
}

static void test_verify_rejects_complex_result_type(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2xf32>",
                    "  %0 = stablehlo.complex %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>\n"),
                 2, 3, "(C3) result element type must be complex<f32>");
}

static void test_verify_rejects_while_cond_result(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<i32>",
                    "  %0 = \"stablehlo.while\"(%x) ({\n"
                    "    ^bb0(%a: tensor<i32>):\n"
                    "      \"stablehlo.return\"(%a) : (tensor<i32>) -> ()\n"
                    "  }, {\n"
                    "    ^bb0(%a: tensor<i32>):\n"
                    "      \"stablehlo.return\"(%a) : (tensor<i32>) -> ()\n"
                    "  }) : (tensor<i32>) -> tensor<i32>\n"),
                 2, 3, "(C1) the value cond returns must be a 0-dimensional tensor of i1");
}

static void test_verify_rejects_while_body_types(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<i32>, %p: tensor<i1>, %f: tensor<f32>",
                    "  %0 = \"stablehlo.while\"(%x) ({\n"
                    "    ^bb0(%a: tensor<i32>):\n"
                    "      \"stablehlo.return\"(%p) : (tensor<i1>) -> ()\n"
                    "  }, {\n"
                    "    ^bb0(%a: tensor<i32>):\n"
                    "      \"stablehlo.return\"(%f) : (tensor<f32>) -> ()\n"
                    "  }) : (tensor<i32>) -> tensor<i32>\n"),
                 2, 3, "(C2) body returns tensor<f32> as value 0 but operand 0 has type tensor<i32>");
}

static void test_verify_rejects_if_branch_types(void **state)
{
    (void)state;
    expect_error(FN("%p: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>",
                    "  %0 = \"stablehlo.if\"(%p) ({\n"
                    "    \"stablehlo.return\"(%x) : (tensor<2xf32>) -> ()\n"
                    "  }, {\n"
                    "    \"stablehlo.return\"(%y) : (tensor<3xf32>) -> ()\n"
                    "  }) : (tensor<i1>) -> tensor<2xf32>\n"),
                 2, 3, "(C2) false_branch returns tensor<3xf32> as value 0 but result 0 has type tensor<2xf32>");
}

static void test_verify_rejects_case_index_type(void **state)
{
    (void)state;
    expect_error(FN("%i: tensor<i64>, %x: tensor<2xf32>",
                    "  %0 = \"stablehlo.case\"(%i) ({\n"
                    "    \"stablehlo.return\"(%x) : (tensor<2xf32>) -> ()\n"
                    "  }) : (tensor<i64>) -> tensor<2xf32>\n"),
                 2, 3, "(I1) index must be a 0-dimensional tensor of i32, got tensor<i64>");
}

static void test_verify_rejects_func_return_type(void **state)
{
    (void)state;
    expect_error("func.func @main(%a: tensor<2xf32>) -> tensor<2xi32> {\n"
                 "  return %a : tensor<2xf32>\n"
                 "}\n",
                 2, 3, "func.return returned value 0 has type tensor<2xf32> but @main declares result 0 as tensor<2xi32>");
}

static void test_verify_rejects_call_arity(void **state)
{
    (void)state;
    expect_error("func.func private @f(%a: tensor<f32>) -> tensor<f32> {\n"
                 "  return %a : tensor<f32>\n"
                 "}\n"
                 "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
                 "  %0 = func.call @f(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
                 "  return %0 : tensor<f32>\n"
                 "}\n",
                 5, 3, "call has 2 operands but @f declares 1 input");
}

static void test_verify_rejects_call_to_missing_function(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<f32>",
                    "  %0 = func.call @nowhere(%a) : (tensor<f32>) -> tensor<f32>\n"),
                 2, 3, "'nowhere' does not reference a valid function");
}

static void test_verify_stablehlo_return_may_end_a_func(void **state)
{
    (void)state;
    /* upstream's stablehlo.return has no parent op: it may end a func.func,
     * even with another count of values (docs/graph-ir.md) */
    expect_clean("func.func @main(%a: tensor<f32>) -> (tensor<f32>, tensor<f32>) {\n"
                 "  stablehlo.return %a : tensor<f32>\n"
                 "}\n");
    /* func.return ends only a function */
    expect_error(FN("%a: tensor<f32>, %i: tensor<i32>",
                    "  %0 = \"stablehlo.optimization_barrier\"(%a) : (tensor<f32>) -> tensor<f32>\n"
                    "  %1 = \"stablehlo.case\"(%i) ({\n"
                    "    func.return %a : tensor<f32>\n"
                    "  }) : (tensor<i32>) -> tensor<f32>\n"),
                 4, 5, "cannot terminate a region of stablehlo.case (expected stablehlo.return)");
}

static void test_verify_rejects_get_tuple_element_index(void **state)
{
    (void)state;
    expect_error(FN("%t: tuple<tensor<f32>, tensor<i32>>",
                    "  %0 = stablehlo.get_tuple_element %t[2] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>\n"),
                 2, 3, "(C1) index 2 must be in [0, 2)");
}

static void test_verify_rejects_all_gather_result_dim(void **state)
{
    (void)state;
    /* upstream checks a multiple of the operand's size, not operand x group size (docs/graph-ir.md) */
    expect_clean(FN("%a: tensor<2x2xf32>",
                    "  %0 = \"stablehlo.all_gather\"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"));
    expect_error(FN("%a: tensor<2x2xf32>",
                    "  %0 = \"stablehlo.all_gather\"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x3xf32>\n"),
                 2, 3, "(C6) result gather dimension has size 3, expected to be a multiple of operand gather dimension size 2");
}

static void test_verify_rejects_duplicate_replica_ids(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<4xf32>",
                    "  %0 = \"stablehlo.all_reduce\"(%a) ({\n"
                    "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                    "      %s = stablehlo.add %x, %y : tensor<f32>\n"
                    "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                    "  }) {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"),
                 2, 3, "(C1) replica id 1 appears more than once in replica_groups");
}

static void test_verify_rejects_all_to_all_split(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x3xf32>",
                    "  %0 = \"stablehlo.all_to_all\"(%a) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<4x1xf32>\n"),
                 2, 3, "(C2) split dimension 1 has size 3, not a multiple of split_count 2");
}

static void test_verify_rejects_collective_permute_duplicate_source(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2xf32>",
                    "  %0 = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"),
                 2, 3, "(C2) source 0 appears more than once");
}

static void test_verify_rejects_quantized_add_storage_mismatch(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i16:f32, 0.5:1>>",
                    "  %0 = \"stablehlo.add\"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i16:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>\n"),
                 2, 3, "(C3) lhs, rhs and result must have the same storage type");
}

static void test_verify_rejects_dequantize_result_type(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>",
                    "  %0 = stablehlo.uniform_dequantize %a : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf16>\n"),
                 2, 3, "(C2) result element type must be the expressed type f32");
}

static void test_verify_rejects_error_in_nested_region_at_its_op(void **state)
{
    (void)state;
    /* the faulty op sits inside a reduce body: the diag points at it */
    expect_error(FN("%a: tensor<2x3xf32>, %z: tensor<f32>",
                    "  %0 = \"stablehlo.reduce\"(%a, %z) ({\n"
                    "    ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                    "      %s = \"stablehlo.popcnt\"(%x) : (tensor<f32>) -> tensor<f32>\n"
                    "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                    "  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"),
                 4, 7, "stablehlo.popcnt: (I1) operand must be a tensor of integer type");
}


static void test_verify_rejects_manual_computation_local_shape(void **state)
{
    (void)state;
    expect_error("sdy.mesh @mesh = <[\"x\"=2]>\n"
                 "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                 "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}, {}]>] out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%arg: tensor<8x4xf32>) {\n"
                 "    sdy.return %arg : tensor<8x4xf32>\n"
                 "  } : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
                 "  return %0 : tensor<8x4xf32>\n"
                 "}\n",
                 3, 3, "operand 0 of type tensor<8x4xf32> has local shape 4x4 on each device, but the body takes tensor<8x4xf32>");
}

static void test_verify_accepts_manual_computation_local_shape(void **state)
{
    (void)state;
    expect_clean("sdy.mesh @mesh = <[\"x\"=2]>\n"
                 "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                 "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}, {}]>] out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%arg: tensor<4x4xf32>) {\n"
                 "    sdy.return %arg : tensor<4x4xf32>\n"
                 "  } : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
                 "  return %0 : tensor<8x4xf32>\n"
                 "}\n");
}

static void test_verify_rejects_scan_carry_type(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4xi32>, %init: tensor<i32>",
                    "  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {\n"
                    "  ^bb0(%a: tensor<i32>, %c: tensor<i32>):\n"
                    "    %s = stablehlo.add %a, %c : tensor<i32>\n"
                    "    stablehlo.return %s, %s : tensor<i32>, tensor<i32>\n"
                    "  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i64>)\n"),
                 2, 3, "result 1 has type tensor<i64> but init 0 has type tensor<i32>");
}

static void test_verify_rejects_ragged_dot_group_count(void **state)
{
    (void)state;
    expect_error(FN("%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<4xi64>",
                    "  %0 = \"chlo.ragged_dot\"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<4xi64>) -> tensor<11x7xf32>\n"),
                 2, 3, "rhs group dimension has size 3 but group_sizes gives 4 groups");
}

static void test_verify_rejects_top_k_larger_than_dim(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4xf32>",
                    "  %0:2 = chlo.top_k(%x, k = 5) : tensor<4xf32> -> (tensor<5xf32>, tensor<5xi32>)\n"),
                 2, 3, "operand's last dimension (4) must be at least k = 5");
}

static void test_verify_rejects_batch_norm_scale_size(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2x3xf32>, %s: tensor<2xf32>, %f: tensor<3xf32>",
                    "  %0 = \"stablehlo.batch_norm_inference\"(%x, %s, %f, %f, %f) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"),
                 2, 3, "scale has 2 elements but the feature dim 1 has size 3");
}

static void test_verify_rejects_rfft_result_length(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<8xf32>",
                    "  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>\n"),
                 2, 3, "(C5) result has type tensor<8xcomplex<f32>> but its shape must be 5");
}

static void test_verify_rejects_triangular_solve_non_square(void **state)
{
    (void)state;
    expect_error(FN("%a: tensor<3x4xf32>, %b: tensor<3x3xf32>",
                    "  %0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x4xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>\n"),
                 2, 3, "(C3) a must hold square matrices, got 3x4");
}

static void test_verify_rejects_select_and_scatter_source_shape(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4xf32>, %src: tensor<3xf32>, %z: tensor<f32>",
                    "  %0 = \"stablehlo.select_and_scatter\"(%x, %src, %z) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                    "      \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
                    "  }, {\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                    "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                    "  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>\n"),
                 2, 3, "(C2) source has type tensor<3xf32> but its shape must be 2");
}

static void test_verify_rejects_reduce_scatter_result(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2x4xf32>",
                    "  %0 = \"stablehlo.reduce_scatter\"(%x) ({\n"
                    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                    "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                    "  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x3xf32>\n"),
                 2, 3, "(C8) operand scatter dimension has size 4, expected to be a multiple of result scatter dimension size 3");
}

static void test_verify_rejects_composite_signature(void **state)
{
    (void)state;
    expect_error("func.func private @impl(%a: tensor<f32>) -> tensor<f32> {\n"
                 "  return %a : tensor<f32>\n"
                 "}\n"
                 "func.func @main(%a: tensor<i32>) -> tensor<i32> {\n"
                 "  %0 = stablehlo.composite \"my.op\" %a {decomposition = @impl} : (tensor<i32>) -> tensor<i32>\n"
                 "  return %0 : tensor<i32>\n"
                 "}\n",
                 5, 3, "(C3) operand 0 has type tensor<i32> but @impl declares input 0 as tensor<f32>");
}

static void test_verify_rejects_duplicate_function(void **state)
{
    (void)state;
    expect_error("func.func @f() {\n"
                 "  func.return\n"
                 "}\n"
                 "func.func @f() {\n"
                 "  func.return\n"
                 "}\n",
                 4, 1, "redefinition of symbol @f");
}

static void test_verify_rejects_quantized_zero_point_range(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<2xf32>",
                    "  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-8:7>:f32, 5.000000e-01:10>>\n"),
                 2, 3, "(C7) zero point 10 is outside [-8, 7]");
}

static void test_verify_rejects_per_axis_scale_count(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<3xf32>",
                    "  %0 = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32:0, {1.000000e-01:1, 2.000000e-01:2}>>\n"),
                 2, 3, "(C13) dim 0 has size 3 but there are 2 scales");
}

static void test_verify_rejects_partition_id_type(void **state)
{
    (void)state;
    expect_error(FN("", "  %0 = \"stablehlo.partition_id\"() : () -> tensor<i32>\n"), 2, 3,
                 "result must be a 0-dimensional tensor of ui32, got tensor<i32>");
}

/* ------------------------------------------------------------------------ */
/* Rules added or relaxed to match the upstream verifier (docs/graph-ir.md    */
/* "Verifier vs spec"): one accepting and one rejecting program each.        */

#define ASYNC_START(body_arg, inner, ret_t, future_t)                                                          \
    "  %0 = \"stablehlo.async_start\"(%x) ({\n"                                                                 \
    "  ^bb0(%b: " body_arg "):\n" inner "    \"stablehlo.return\"(%1) : (" ret_t ") -> ()\n"                     \
    "  }) : (tensor<4xf32>) -> " future_t "\n"
#define SLICE_B "    %1 = stablehlo.slice %b [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n"

static void test_verify_future_type_holds_ranked_tensors(void **state)
{
    (void)state;
    expect_clean("func.func private @f() -> !stablehlo.future<tensor<2x3xf32>, tensor<i32>>\n");
    expect_parse_error("func.func private @f() -> !stablehlo.future<tensor<f32>, f32>\n", 1, 58,
                       "future element type must be a ranked tensor, but got 'f32'");
}

static void test_verify_async_start_wraps_one_collective_or_slice(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<4xf32>", ASYNC_START("tensor<4xf32>", SLICE_B, "tensor<2xf32>",
                                                     "!stablehlo.future<tensor<2xf32>>")
                 "  %2 = \"stablehlo.async_done\"(%0) : (!stablehlo.future<tensor<2xf32>>) -> tensor<2xf32>\n"));
    expect_error(FN("%x: tensor<4xf32>",
                    ASYNC_START("tensor<4xf32>", "    %1 = stablehlo.abs %b : tensor<4xf32>\n", "tensor<4xf32>",
                                "!stablehlo.future<tensor<4xf32>>")),
                 2, 3, "region must contain a collective or slice operation");
}

static void test_verify_async_start_result_is_the_future_of_its_region(void **state)
{
    (void)state;
    expect_error(FN("%x: tensor<4xf32>", ASYNC_START("tensor<4xf32>", SLICE_B, "tensor<2xf32>",
                                                     "!stablehlo.future<tensor<4xf32>>")),
                 2, 3, "inferred type '!stablehlo.future<tensor<2xf32>>' is incompatible");
    expect_error(FN("%x: tensor<4xf32>", ASYNC_START("tensor<4xi32>",
                                                     "    %1 = stablehlo.slice %b [0:2] : (tensor<4xi32>) -> tensor<2xi32>\n",
                                                     "tensor<2xi32>", "!stablehlo.future<tensor<2xi32>>")),
                 2, 3, "operand type tensor<4xf32> at index 0 must match region argument type tensor<4xi32>");
}

static void test_verify_async_done_unwraps_its_future(void **state)
{
    (void)state;
    expect_clean(FN("%f: !stablehlo.future<tensor<2xf32>>",
                    "  %0 = \"stablehlo.async_done\"(%f) : (!stablehlo.future<tensor<2xf32>>) -> tensor<2xf32>\n"));
    expect_error(FN("%f: !stablehlo.future<tensor<2xf32>>",
                    "  %0 = \"stablehlo.async_done\"(%f) : (!stablehlo.future<tensor<2xf32>>) -> tensor<2xi32>\n"),
                 2, 3, "inferred type 'tensor<2xf32>' is incompatible with the result type 'tensor<2xi32>'");
}

static void test_verify_chlo_broadcast_ops_broadcast_their_operands(void **state)
{
    (void)state;
    expect_clean(FN("%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %p: tensor<4xi1>",
                    "  %0 = chlo.broadcast_add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>\n"
                    "  %1 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : "
                    "(tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xi1>\n"
                    "  %2 = chlo.broadcast_select %p, %a, %b : (tensor<4xi1>, tensor<2x1x4xf32>, tensor<3x1xf32>) -> "
                    "tensor<2x3x4xf32>\n"));
    expect_error(FN("%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>",
                    "  %0 = chlo.broadcast_multiply %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x1xf32>\n"),
                 2, 3, "result (the broadcast of the operands) has type tensor<2x3x1xf32> but its shape must be 2x3x4");
}

static void test_verify_chlo_broadcast_ops_need_compatible_element_types(void **state)
{
    (void)state;
    /* quantized operands may differ in scale (upstream: compatible element types) */
    expect_clean(FN("%a: tensor<2x!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<2x!quant.uniform<i8:f32, 3.0:15>>",
                    "  %0 = \"chlo.broadcast_add\"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 2.0:15>>, "
                    "tensor<2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>\n"));
    expect_error(FN("%a: tensor<2x!quant.uniform<i8:f32, 2.0:15>>, %b: tensor<2x!quant.uniform<i8:f32, 3.0:15>>",
                    "  %0 = \"chlo.broadcast_add\"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 2.0:15>>, "
                    "tensor<2x!quant.uniform<i8:f32, 3.0:15>>) -> tensor<2x!quant.uniform<i16:f32, 2.0:15>>\n"),
                 2, 3, "requires compatible element types for all operands and results");
}

static void test_verify_chlo_constant_like_takes_the_value_type(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<1x2xi64>",
                    "  %0 = \"chlo.constant_like\"(%x) {value = 3 : i32} : (tensor<1x2xi64>) -> tensor<1x2xi32>\n"));
    expect_error(FN("%x: tensor<1x2xi64>",
                    "  %0 = \"chlo.constant_like\"(%x) {value = 3.2 : f32} : (tensor<1x2xi64>) -> tensor<1x2xi32>\n"),
                 2, 3, "value's type (f32) doesn't match element return type");
}

static void test_verify_arith_constant_and_tensor_cast(void **state)
{
    (void)state;
    expect_clean(FN("", "  %0 = arith.constant dense<[1, 2]> : tensor<2xi32>\n"
                        "  %1 = tensor.cast %0 : tensor<2xi32> to tensor<?xi32>\n"));
    expect_error(FN("", "  %0 = arith.constant dense<[1, 2]> : tensor<2xi32>\n"
                        "  %1 = tensor.cast %0 : tensor<2xi32> to tensor<3xi32>\n"),
                 3, 3, "operand and result must have the same shape");
}

static void test_verify_bounds_encoding_one_bound_per_dynamic_dim(void **state)
{
    (void)state;
    /* the two spellings are one attribute */
    expect_clean("func.func @f(%a: tensor<?x4xf32, #stablehlo.type_extensions<bounds = [3, ?]>>) -> "
                 "tensor<?x4xf32, #stablehlo.bounds<3, ?>> {\n"
                 "  func.return %a : tensor<?x4xf32, #stablehlo.bounds<3, ?>>\n}\n");
    expect_parse_error("func.func @f(%a: tensor<?x?xf32, #stablehlo.bounds<3>>) {\n  func.return\n}\n", 1, 34,
                       "Bounds length is 1, expected to be equal to rank(2) of the tensor");
    expect_parse_error("func.func @f(%a: tensor<3xf32, #stablehlo.type_extensions<bounds = [3]>>) {\n  func.return\n}\n",
                       1, 32, "Static dimension 0 cannot have a bound");
}

static void test_verify_dimension_numbers_have_a_closed_parameter_set(void **state)
{
    (void)state;
    /* a trailing comma is accepted, as upstream's parser does */
    expect_clean("module attributes {x = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1],>} {}\n");
    expect_parse_error("module attributes {x = #stablehlo.dot<foo = [0]>} {}\n", 1, 39,
                       "unknown parameter 'foo' of #stablehlo.dot: expected one of: `lhs_batching_dimensions`");
}

#define MESH_AXES_GATHER(mesh)                                                                                 \
    "  %0 = \"stablehlo.all_gather\"(%a) {all_gather_dim = 1 : i64, replica_groups = "                              \
    "#stablehlo.replica_group_mesh_axes<mesh = @" mesh ", axes = [#stablehlo.axis_ref<name = \"x\">]>} : "           \
    "(tensor<2x2xf32>) -> tensor<2x4xf32>\n"

static void test_verify_replica_groups_from_mesh_axes_name_a_symbol(void **state)
{
    (void)state;
    expect_clean("func.func private @mesh()\n" FN("%a: tensor<2x2xf32>", MESH_AXES_GATHER("mesh")));
    expect_error(FN("%a: tensor<2x2xf32>", MESH_AXES_GATHER("nowhere")), 2, 3,
                 "replica_groups: mesh symbol 'nowhere' not found");
}

#define COLLECTIVE_REDUCE(root_t, root_arg)                                                                         \
    FN("%a: tensor<4xf32>, %r: " root_t,                                                                            \
       "  %0 = \"stablehlo.collective_reduce\"(%a, " root_arg ") ({\n"                                                \
       "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"                                                                \
       "    %s = stablehlo.add %x, %y : tensor<f32>\n"                                                              \
       "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"                                                        \
       "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, " root_t    \
       ") -> tensor<4xf32>\n")

static void test_verify_collective_reduce_takes_a_dynamic_root(void **state)
{
    (void)state;
    expect_clean(COLLECTIVE_REDUCE("tensor<1xi32>", "%r"));
    expect_error(COLLECTIVE_REDUCE("tensor<1xi64>", "%r"), 2, 3,
                 "last operand with has_dynamic_root must be a rank-1 i32 tensor, but got tensor<1xi64>");
}

#define REDUCE(in_t, init_t, body_t, out_t)                                                                     \
    FN("%x: " in_t ", %i: " init_t,                                                                               \
       "  %0 = \"stablehlo.reduce\"(%x, %i) ({\n"                                                                  \
       "  ^bb0(%a: " body_t ", %b: " body_t "):\n"                                                                   \
       "    %s = stablehlo.add %a, %b : " body_t "\n"                                                                \
       "    \"stablehlo.return\"(%s) : (" body_t ") -> ()\n"                                                         \
       "  }) {dimensions = array<i64: 0>} : (" in_t ", " init_t ") -> " out_t "\n")

static void test_verify_reduce_init_takes_the_body_shape(void **state)
{
    (void)state;
    /* upstream: the body may work on rows; the init value is shaped as its result */
    expect_clean(REDUCE("tensor<4x4xf32>", "tensor<4xf32>", "tensor<4xf32>", "tensor<4xf32>"));
    expect_error(REDUCE("tensor<4x4xf32>", "tensor<2xf32>", "tensor<4xf32>", "tensor<4xf32>"), 2, 3,
                 "the shape of the body's result 0 (tensor<4xf32>) differs from the init value's (tensor<2xf32>)");
}

static void test_verify_reduce_input_promotable_to_body(void **state)
{
    (void)state;
    /* upstream checks promotability, not the spec's equal input and init element types */
    expect_clean(REDUCE("tensor<4xi8>", "tensor<i32>", "tensor<i32>", "tensor<i32>"));
    expect_error(REDUCE("tensor<4xi32>", "tensor<i8>", "tensor<i8>", "tensor<i8>"), 2, 3,
                 "input 0 of type tensor<4xi32> is not promotable to the body's element type (tensor<i8>)");
}

static void test_verify_constant_shape_operands_meet_the_result_type(void **state)
{
    (void)state;
    /* upstream reads shape operands defined by constants (matchInts) */
    expect_clean(FN("%x: tensor<4xf32>",
                    "  %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>\n"
                    "  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x2xf32>\n"));
    expect_error(FN("%x: tensor<4xf32>",
                    "  %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>\n"
                    "  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>\n"),
                 3, 3, "(C4) output shape [2, 2] is incompatible with the result type tensor<1x4xf32>");
    expect_error(FN("%x: tensor<4xf32>, %s: tensor<?xi64>",
                    "  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<?xi64>) -> tensor<1x4xf32>\n"),
                 2, 3, "operand #1 (output_shape) must be statically shaped");
}

static void test_verify_dynamic_pad_with_constant_paddings(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<4xf32>, %v: tensor<f32>",
                    "  %p = stablehlo.constant dense<1> : tensor<1xi32>\n"
                    "  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<4xf32>, tensor<f32>, tensor<1xi32>, "
                    "tensor<1xi32>, tensor<1xi32>) -> tensor<9xf32>\n"));
    expect_error(FN("%x: tensor<4xf32>, %v: tensor<f32>",
                    "  %p = stablehlo.constant dense<1> : tensor<1xi32>\n"
                    "  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<4xf32>, tensor<f32>, tensor<1xi32>, "
                    "tensor<1xi32>, tensor<1xi32>) -> tensor<4xf32>\n"),
                 3, 3, "(C4) expected output dimension at index 0 to equal 9, but got 4");
}

#define CUSTOM_CALL(attrs, sig) "  %0 = \"stablehlo.custom_call\"(%x) {call_target_name = \"foo\"" attrs "} : " sig "\n"

static void test_verify_custom_call_layouts_are_permutations(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<2x3xf32>",
                    CUSTOM_CALL(", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]",
                                "(tensor<2x3xf32>) -> tensor<2x3xf32>")));
    expect_error(FN("%x: tensor<2x3xf32>",
                    CUSTOM_CALL(", operand_layouts = [dense<[0, 2]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]",
                                "(tensor<2x3xf32>) -> tensor<2x3xf32>")),
                 2, 3, "incorrect layout [0, 2] for type tensor<2x3xf32>, layout must be a permutation of [0, 2)");
}

static void test_verify_custom_call_aliases_match_types(void **state)
{
    (void)state;
    const char *al = ", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], "
                     "operand_index = 0, operand_tuple_indices = []>]";
    char src[1024];
    snprintf(src, sizeof src, "func.func @main(%%x: tensor<2x3xf32>) {\n  %%0 = \"stablehlo.custom_call\"(%%x) "
             "{call_target_name = \"foo\"%s} : (tensor<2x3xf32>) -> %s\n  func.return\n}\n", al, "tensor<2x3xf32>");
    expect_clean(src);
    snprintf(src, sizeof src, "func.func @main(%%x: tensor<2x3xf32>) {\n  %%0 = \"stablehlo.custom_call\"(%%x) "
             "{call_target_name = \"foo\"%s} : (tensor<2x3xf32>) -> %s\n  func.return\n}\n", al, "tensor<3x2xf32>");
    expect_error(src, 2, 3, "shapes mismatch in the output_operand_alias attribute");
}

static void test_verify_custom_call_backend_config_kind_follows_api_version(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<2xf32>", CUSTOM_CALL(", api_version = 4 : i32, backend_config = {bar = 42 : i32}",
                                                     "(tensor<2xf32>) -> tensor<2xf32>")));
    expect_error(FN("%x: tensor<2xf32>", CUSTOM_CALL(", api_version = 4 : i32, backend_config = \"bar=42\"",
                                                     "(tensor<2xf32>) -> tensor<2xf32>")),
                 2, 3, "backend_config for api_version API_VERSION_TYPED_FFI must be a dictionary attribute");
}

static void test_verify_infeed_layout_one_list_per_payload(void **state)
{
    (void)state;
    expect_clean(FN("%t: !stablehlo.token",
                    "  %0:2 = \"stablehlo.infeed\"(%t) {infeed_config = \"\", layout = [[1, 0]]} : (!stablehlo.token) -> "
                    "(tensor<3x3xi32>, !stablehlo.token)\n"));
    expect_error(FN("%t: !stablehlo.token",
                    "  %0:2 = \"stablehlo.infeed\"(%t) {infeed_config = \"\", layout = [[1, 0], [0]]} : (!stablehlo.token) -> "
                    "(tensor<3x3xi32>, !stablehlo.token)\n"),
                 2, 3, "layout-attribute size must be 1");
}

#define ACCURACY(tols, mode)                                                                                     \
    FN("%x: tensor<2xf32>", "  %1 = \"stablehlo.tanh\"(%x) {result_accuracy = #stablehlo.result_accuracy<" tols      \
                            ", mode = #stablehlo.result_accuracy_mode<" mode ">>} : (tensor<2xf32>) -> tensor<2xf32>\n")

static void test_verify_result_accuracy_tolerances_follow_the_mode(void **state)
{
    (void)state;
    expect_clean(ACCURACY("atol = 1.0e-05, rtol = 0.0, ulps = 2", "TOLERANCE"));
    expect_clean(ACCURACY("atol = 0.0, rtol = 0.0, ulps = 0", "HIGHEST"));
    expect_parse_error(ACCURACY("atol = 1.0, rtol = 0.0, ulps = 4", "HIGHEST"), 2, 74,
                       "Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero.");
}

static void test_verify_dot_general_takes_mixed_element_types(void **state)
{
    (void)state;
    /* upstream does not check the spec's element_type(lhs) = element_type(rhs) (C13) */
    expect_clean(FN("%a: tensor<2x3xf32>, %b: tensor<3x4xbf16>",
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                    "(tensor<2x3xf32>, tensor<3x4xbf16>) -> tensor<2x4xf32>\n"));
    expect_error(FN("%a: tensor<2x3xf32>, %b: tensor<2x4xbf16>",
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                    "(tensor<2x3xf32>, tensor<2x4xbf16>) -> tensor<2x4xf32>\n"),
                 2, 3, "contracting dim");
    /* convolution keeps C27, as upstream does */
    expect_error(FN("%a: tensor<1x4x4x1xi64>, %k: tensor<3x3x1x1xi32>",
                    "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
                    "window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                    "(tensor<1x4x4x1xi64>, tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi64>\n"),
                 2, 3, "expects lhs and rhs to have compatible element type");
}

#define DOT_ALGO(lhs, acc, ops)                                                                                    \
    FN("%a: tensor<2x2xf32>, %b: tensor<2x2xf32>",                                                                \
       "  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = " \
       "[1], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = " lhs      \
       ", rhs_precision_type = " lhs ", accumulation_type = " acc ", lhs_component_count = 1, "                     \
       "rhs_component_count = 1, num_primitive_operations = " ops ", allow_imprecise_accumulation = false>} : "     \
       "(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n")

static void test_verify_dot_algorithm_must_be_a_known_one(void **state)
{
    (void)state;
    expect_clean(DOT_ALGO("bf16", "f32", "6"));
    expect_clean(DOT_ALGO("f8E4M3FN", "f32", "1"));
    expect_error(DOT_ALGO("bf16", "f32", "2"), 2, 3, "dot algorithm not known to be supported on any hardware");
}

static void test_verify_dynamic_gather_constant_slice_sizes(void **state)
{
    (void)state;
    const char *dn = "{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
                     "start_index_map = [0], index_vector_dim = 1>}";
    char src[1024];
    snprintf(src, sizeof src,
             "func.func @main(%%x: tensor<4x3xi32>, %%i: tensor<2x1xi32>) {\n"
             "  %%s = stablehlo.constant dense<[%s, 3]> : tensor<2xi64>\n"
             "  %%0 = \"stablehlo.dynamic_gather\"(%%x, %%i, %%s) %s : (tensor<4x3xi32>, tensor<2x1xi32>, tensor<2xi64>) -> "
             "tensor<2x3xi32>\n  func.return\n}\n", "1", dn);
    expect_clean(src);
    snprintf(src, sizeof src,
             "func.func @main(%%x: tensor<4x3xi32>, %%i: tensor<2x1xi32>) {\n"
             "  %%s = stablehlo.constant dense<[%s, 3]> : tensor<2xi64>\n"
             "  %%0 = \"stablehlo.dynamic_gather\"(%%x, %%i, %%s) %s : (tensor<4x3xi32>, tensor<2x1xi32>, tensor<2xi64>) -> "
             "tensor<2x3xi32>\n  func.return\n}\n", "2", dn);
    expect_error(src, 3, 3, "(C9) slice_sizes[0] = 2 must be <= 1 (a collapsed dim)");
}

static void test_verify_irfft_operand_against_fft_length(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<?x9xcomplex<f32>>",
                    "  %0 = \"stablehlo.fft\"(%x) {fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IRFFT>} : "
                    "(tensor<?x9xcomplex<f32>>) -> tensor<?x?xf32>\n"));
    expect_error(FN("%x: tensor<?x8xcomplex<f32>>",
                    "  %0 = \"stablehlo.fft\"(%x) {fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IRFFT>} : "
                    "(tensor<?x8xcomplex<f32>>) -> tensor<?x?xf32>\n"),
                 2, 3, "(C4) IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1 = 9");
}

#define AXIS_Q(shape, scales) "tensor<" shape "x!quant.uniform<i8:f32:0, {" scales "}>>"

static void test_verify_stablehlo_ops_take_ranked_tensors(void **state)
{
    (void)state;
    /* upstream's ODS types: only custom_call takes unranked tensors */
    expect_clean(FN("%x: tensor<*xf32>",
                    "  %0 = \"stablehlo.custom_call\"(%x) {call_target_name = \"foo\"} : (tensor<*xf32>) -> tensor<*xf32>\n"));
    expect_error(FN("%x: tensor<*xf32>", "  %0 = stablehlo.abs %x : tensor<*xf32>\n"), 2, 3,
                 "operand #0 must be a ranked tensor, but got tensor<*xf32>");
}

static void test_verify_per_axis_quantization_only_where_ops_take_it(void **state)
{
    (void)state;
    expect_clean(FN("%x: " AXIS_Q("2x3", "0.1:1, 0.2:2"),
                    "  %0 = stablehlo.transpose %x, dims = [1, 0] : (" AXIS_Q("2x3", "0.1:1, 0.2:2") ") -> "
                    "tensor<3x2x!quant.uniform<i8:f32:1, {0.1:1, 0.2:2}>>\n"));
    expect_error(FN("%x: " AXIS_Q("2x3", "0.1:1, 0.2:2"),
                    "  %0 = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : "
                    "(" AXIS_Q("2x3", "0.1:1, 0.2:2") ") -> " AXIS_Q("2x3", "0.1:1, 0.2:2") "\n"),
                 2, 3, "operand #0 must be a ranked tensor of per-tensor (not per-axis) quantized");
}

static void test_verify_per_axis_scales_follow_reshape_and_broadcast(void **state)
{
    (void)state;
    expect_error(FN("%x: " AXIS_Q("2x3", "0.1:1, 0.2:2"),
                    "  %0 = stablehlo.transpose %x, dims = [1, 0] : (" AXIS_Q("2x3", "0.1:1, 0.2:2") ") -> "
                    "tensor<3x2x!quant.uniform<i8:f32:1, {0.1:1, 0.3:2}>>\n"),
                 2, 3, "(C1) expect same quantization scales and zero_points");
    /* an expanded quantization dim repeats the operand's scale */
    expect_clean(FN("%x: " AXIS_Q("1x3", "0.1:1"),
                    "  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (" AXIS_Q("1x3", "0.1:1") ") -> "
                    AXIS_Q("2x3", "0.1:1, 0.1:1") "\n"));
    expect_error(FN("%x: " AXIS_Q("1x3", "0.1:1"),
                    "  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (" AXIS_Q("1x3", "0.1:1") ") -> "
                    AXIS_Q("2x3", "0.1:1, 0.2:1") "\n"),
                 2, 3, "(C6) mismatch result scale 1");
}

static void test_verify_quantized_scale_within_the_expressed_type(void **state)
{
    (void)state;
    /* MLIR's quant dialect: a scale within [smallest, largest] of the expressed type */
    expect_clean(FN("%x: tensor<2x!quant.uniform<i4:f16, 6.0e+04>>", ""));
    expect_error(FN("%x: tensor<2x!quant.uniform<i4:f16, 1.0e+05>>", ""), 1, 1,
                 "scale 1.000000e+05 out of expressed type range");
}

#define RUN_PARALLEL_INFEED(t, value)                                                                            \
    "func.func @foo() {\n  func.return\n}\n"                                                                     \
    "func.func @q() -> " t " {\n  %0 = " value "\n  func.return %0 : " t "\n}\n"                                   \
    "func.func @main() {\n"                                                                                       \
    "  \"interpreter.run_parallel\"() {infeed = [@q], programs = [[@foo]]} : () -> ()\n"                            \
    "  func.return\n}\n"

static void test_verify_run_parallel_infeed_functions(void **state)
{
    (void)state;
    expect_clean(RUN_PARALLEL_INFEED("tensor<i64>", "stablehlo.constant dense<1> : tensor<i64>"));
    expect_error(RUN_PARALLEL_INFEED("!stablehlo.token", "stablehlo.create_token : !stablehlo.token"), 9, 3,
                 "infeed: Function \"q\" should return a tensor type, but instead returns !stablehlo.token");
}

#define DYN_CONV(strides, kernel)                                                                                  \
    FN("%a: tensor<1x8x8x2xf32>, %k: tensor<" kernel "x2x4xf32>",                                                  \
       "  %p = stablehlo.constant dense<0> : tensor<2x2xi64>\n"                                                    \
       "  %0 = \"stablehlo.dynamic_conv\"(%a, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->" \
       "[b, 0, 1, f]>, window_strides = array<i64: " strides ">, feature_group_count = 1 : i64, batch_group_count = " \
       "1 : i64} : (tensor<1x8x8x2xf32>, tensor<" kernel "x2x4xf32>, tensor<2x2xi64>) -> tensor<1x?x?x4xf32>\n")

static void test_verify_dynamic_conv_window_with_constant_padding(void **state)
{
    (void)state;
    /* upstream checks the window attributes when the padding is a constant */
    expect_clean(DYN_CONV("1, 1", "3x3"));
    expect_error(DYN_CONV("1", "3x3"), 3, 3, "(C2) window_strides");
    expect_error(DYN_CONV("1, 1", "0x3"), 3, 3, "expects window to have positive value for 0-th window dimension");
}

static void test_verify_reshape_result_static_or_one_bounded_dim(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<?x4xf32, #stablehlo.bounds<5, ?>>",
                    "  %0 = stablehlo.reshape %x : (tensor<?x4xf32, #stablehlo.bounds<5, ?>>) -> "
                    "tensor<?x4xf32, #stablehlo.bounds<5, ?>>\n"));
    expect_error(FN("%x: tensor<?x?xf32, #stablehlo.bounds<5, 5>>",
                    "  %0 = stablehlo.reshape %x : (tensor<?x?xf32, #stablehlo.bounds<5, 5>>) -> "
                    "tensor<?x?xf32, #stablehlo.bounds<5, 5>>\n"),
                 2, 3, "result #0 must be statically shaped or single bounded dimension tensor");
}

static void test_verify_a_size_above_a_bound_is_incompatible(void **state)
{
    (void)state;
    expect_clean(FN("%x: tensor<?xf32, #stablehlo.bounds<4>>",
                    "  %0 = \"stablehlo.abs\"(%x) : (tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<4xf32>\n"));
    expect_error(FN("%x: tensor<?xf32, #stablehlo.bounds<4>>",
                    "  %0 = \"stablehlo.abs\"(%x) : (tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<5xf32>\n"),
                 2, 3, "operand and result must have the same shape");
}

static void test_verify_reduce_applies_a_commutative_op(void **state)
{
    (void)state;
    expect_clean("func.func @main(%x: tensor<4xf32>, %i: tensor<f32>) {\n"
                 "  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.maximum across dimensions = [0] : "
                 "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n  func.return\n}\n");
    expect_parse_error("func.func @main(%x: tensor<4xf32>, %i: tensor<f32>) {\n"
                       "  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.divide across dimensions = [0] : "
                       "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n  func.return\n}\n",
                       2, 46, "'applies' needs a commutative binary op");
}

#define SCAN(size)                                                                                                  \
    FN("%x: tensor<2x3xf32>, %c: tensor<3xf32>",                                                                  \
       "  %0, %1 = chlo.scan (%x) inits (%c) dimension = 0 attributes {scan_dim_size = " size " : i64} {\n"         \
       "  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):\n"                                                            \
       "    %2 = stablehlo.add %a, %b : tensor<3xf32>\n"                                                            \
       "    stablehlo.return %2, %2 : tensor<3xf32>, tensor<3xf32>\n"                                               \
       "  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)\n")

static void test_verify_chlo_scan_dim_size_matches_the_inputs(void **state)
{
    (void)state;
    expect_clean(SCAN("2"));
    expect_error(SCAN("3"), 2, 3, "invalid scan dimension size of operand 0");
}

#define SCATTER(upd_t)                                                                                              \
    FN("%x: tensor<4xi32>, %i: tensor<1x1xi32>, %u: tensor<1x" upd_t ">",                                          \
       "  %0 = \"stablehlo.scatter\"(%x, %i, %u) ({\n"                                                               \
       "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"                                                                 \
       "    %s = stablehlo.add %a, %b : tensor<i32>\n"                                                               \
       "    stablehlo.return %s : tensor<i32>\n"                                                                     \
       "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "                           \
       "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xi32>, tensor<1x1xi32>, tensor<1x"   \
       upd_t ">) -> tensor<4xi32>\n")

static void test_verify_scatter_updates_promotable_to_the_body(void **state)
{
    (void)state;
    /* upstream: the updates act as the reducer's init values (promotable), not
     * the spec's "same element type as the inputs" (C6) */
    expect_clean(SCATTER("i8"));
    expect_error(SCATTER("f32"), 2, 3, "init value 0 of type tensor<f32> is not promotable");
}

#define CONV_WINDOW(w)                                                                                              \
    FN("%a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>",                                                        \
       "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {" w   \
       "} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, "                    \
       "tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>\n")

static void test_verify_empty_window_lists_are_the_default(void **state)
{
    (void)state;
    expect_clean(CONV_WINDOW("stride = [], pad = [], lhs_dilate = [], rhs_dilate = [], reverse = []"));
    expect_error(CONV_WINDOW("stride = [1]"), 2, 3, "(C2) window_strides has 1 entries but there are 2 spatial dims");
}

#define RECV(type, host)                                                                                           \
    FN("%t: !stablehlo.token", "  %0:2 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = " \
                               "1, type = " type ">, is_host_transfer = " host "} : (!stablehlo.token) -> "          \
                               "(tensor<2xi64>, !stablehlo.token)\n")

static void test_verify_recv_channel_type_follows_host_transfer(void **state)
{
    (void)state;
    expect_clean(RECV("3", "true"));
    expect_clean(RECV("1", "false"));
    /* type 0 is no exception (upstream RecvOp::verify) */
    expect_error(RECV("0", "false"), 2, 3, "(C1) channel type should be DEVICE_TO_DEVICE when is_host_transfer is false");
}

static void test_verify_composite_takes_regions(void **state)
{
    (void)state;
    const char *dec = "func.func private @impl(%a: tensor<f32>) -> tensor<f32> {\n  return %a : tensor<f32>\n}\n";
    char src[800];
    snprintf(src, sizeof src,
             "%sfunc.func @main(%%a: tensor<f32>) -> tensor<f32> {\n"
             "  %%0 = \"stablehlo.composite\"(%%a) ({\n  ^bb0(%%b: tensor<f32>):\n    \"stablehlo.return\"(%%b) : "
             "(tensor<f32>) -> ()\n  }) {name = \"my.op\", decomposition = @%s} : (tensor<f32>) -> tensor<f32>\n"
             "  return %%0 : tensor<f32>\n}\n",
             dec, "impl");
    expect_clean(src);
    snprintf(src, sizeof src,
             "%sfunc.func @main(%%a: tensor<f32>) -> tensor<f32> {\n"
             "  %%0 = \"stablehlo.composite\"(%%a) ({\n  ^bb0(%%b: tensor<f32>):\n    \"stablehlo.return\"(%%b) : "
             "(tensor<f32>) -> ()\n  }) {name = \"my.op\", decomposition = @%s} : (tensor<f32>) -> tensor<f32>\n"
             "  return %%0 : tensor<f32>\n}\n",
             dec, "nowhere");
    expect_error(src, 5, 3, "(C2) decomposition @nowhere is not a function");
}

static void test_verify_rng_bit_generator_states_of_compatible_shape(void **state)
{
    (void)state;
    /* upstream: integer or float states, any rank, only their shapes compared */
    expect_clean(FN("%s: tensor<1x2xf32>",
                    "  %0, %1 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : "
                    "(tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xui32>)\n"));
    expect_error(FN("%s: tensor<2xui64>",
                    "  %0, %1 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : "
                    "(tensor<2xui64>) -> (tensor<3xui64>, tensor<2x2xui32>)\n"),
                 2, 3, "(C1) output state shape must be compatible with initial state shape");
}

static void test_verify_rejects_infeed_without_token_result(void **state)
{
    (void)state;
    expect_error(FN("%t: !stablehlo.token",
                    "  %0 = \"stablehlo.infeed\"(%t) {infeed_config = \"\"} : (!stablehlo.token) -> tensor<2xi32>\n"),
                 2, 3, "(C3) last result must be a !stablehlo.token, got tensor<2xi32>");
}

static void test_verify_sharding_constraint_needs_its_rank(void **state)
{
    (void)state;
    expect_clean("sdy.mesh @mesh = <[\"x\"=2]>\n"
                 "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                 "  %c = sdy.sharding_constraint %a <@mesh, [{\"x\"}, {}]> : tensor<8x4xf32>\n"
                 "  return %c : tensor<8x4xf32>\n"
                 "}\n");
    expect_error("sdy.mesh @mesh = <[\"x\"=2]>\n"
                 "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                 "  %c = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> : tensor<8x4xf32>\n"
                 "  return %c : tensor<8x4xf32>\n"
                 "}\n",
                 3, 3, "the sharding has 1 dims, the value rank 2");
}

TEST_MAIN(NULL, NULL, T(test_verify_sharding_constraint_needs_its_rank),
          T(test_verify_testdata_corpus_is_clean),
          T(test_verify_interpret_suite_is_clean),
          T(test_verify_models_are_clean),
          T(test_verify_qwen_takes_milliseconds),
          T(test_verify_spec_example_program_is_clean),
          T(test_verify_spec_examples_shape_ops_are_clean),
          T(test_verify_spec_examples_gather_scatter_are_clean),
          T(test_verify_spec_examples_windows_are_clean),
          T(test_verify_spec_examples_linalg_are_clean),
          T(test_verify_spec_examples_control_flow_is_clean),
          T(test_verify_spec_examples_collectives_are_clean),
          T(test_verify_spec_examples_batch_norm_are_clean),
          T(test_verify_spec_examples_dynamic_ops_are_clean),
          T(test_verify_spec_examples_regions_are_clean),
          T(test_verify_spec_examples_misc_ops_are_clean),
          T(test_verify_dynamic_dims_match_anything),
          T(test_verify_select_and_clamp_take_scalar_operands),
          T(test_verify_rejects_annotation_changing_type),
          T(test_verify_rejects_wrong_operand_count),
          T(test_verify_rejects_elementwise_shape_mismatch),
          T(test_verify_rejects_popcnt_on_floats),
          T(test_verify_rejects_sqrt_on_integers),
          T(test_verify_rejects_logical_and_on_floats),
          T(test_verify_rejects_compare_with_non_bool_result),
          T(test_verify_compare_type_is_not_matched_to_the_element_type),
          T(test_verify_rejects_select_pred_shape),
          T(test_verify_rejects_select_non_bool_pred),
          T(test_verify_rejects_clamp_min_shape),
          T(test_verify_rejects_broadcast_dims_count),
          T(test_verify_rejects_broadcast_size_mismatch),
          T(test_verify_rejects_reshape_element_count),
          T(test_verify_rejects_transpose_non_permutation),
          T(test_verify_rejects_transpose_result_shape),
          T(test_verify_rejects_slice_out_of_bounds),
          T(test_verify_rejects_slice_result_shape),
          T(test_verify_rejects_negative_interior_padding),
          T(test_verify_rejects_pad_result_shape),
          T(test_verify_rejects_concatenate_other_dims),
          T(test_verify_rejects_concatenate_result_size),
          T(test_verify_rejects_iota_dimension),
          T(test_verify_rejects_reduce_dimension_range),
          T(test_verify_rejects_reduce_result_shape),
          T(test_verify_rejects_reducer_arity),
          T(test_verify_rejects_reduce_window_result_shape),
          T(test_verify_rejects_dot_general_contracting_sizes),
          T(test_verify_rejects_dot_general_result_shape),
          T(test_verify_rejects_convolution_feature_mismatch),
          T(test_verify_rejects_convolution_spatial_size),
          T(test_verify_rejects_gather_result_shape),
          T(test_verify_rejects_gather_index_vector_size),
          T(test_verify_rejects_scatter_update_shape),
          T(test_verify_rejects_dynamic_slice_size),
          T(test_verify_rejects_sort_comparator_result),
          T(test_verify_rejects_reverse_duplicate_dims),
          T(test_verify_rejects_bitcast_convert_shape),
          T(test_verify_rejects_convert_shape),
          T(test_verify_rejects_real_with_complex_result),
          T(test_verify_rejects_complex_result_type),
          T(test_verify_rejects_while_cond_result),
          T(test_verify_rejects_while_body_types),
          T(test_verify_rejects_if_branch_types),
          T(test_verify_rejects_case_index_type),
          T(test_verify_rejects_func_return_type),
          T(test_verify_rejects_call_arity),
          T(test_verify_rejects_call_to_missing_function),
          T(test_verify_stablehlo_return_may_end_a_func),
          T(test_verify_rejects_get_tuple_element_index),
          T(test_verify_rejects_all_gather_result_dim),
          T(test_verify_rejects_duplicate_replica_ids),
          T(test_verify_rejects_all_to_all_split),
          T(test_verify_rejects_collective_permute_duplicate_source),
          T(test_verify_rejects_quantized_add_storage_mismatch),
          T(test_verify_rejects_dequantize_result_type),
          T(test_verify_rejects_error_in_nested_region_at_its_op),
          T(test_verify_rejects_manual_computation_local_shape),
          T(test_verify_accepts_manual_computation_local_shape),
          T(test_verify_rejects_scan_carry_type),
          T(test_verify_rejects_ragged_dot_group_count),
          T(test_verify_rejects_top_k_larger_than_dim),
          T(test_verify_rejects_batch_norm_scale_size),
          T(test_verify_rejects_rfft_result_length),
          T(test_verify_rejects_triangular_solve_non_square),
          T(test_verify_rejects_select_and_scatter_source_shape),
          T(test_verify_rejects_reduce_scatter_result),
          T(test_verify_rejects_composite_signature),
          T(test_verify_rejects_duplicate_function),
          T(test_verify_rejects_quantized_zero_point_range),
          T(test_verify_rejects_per_axis_scale_count),
          T(test_verify_rejects_partition_id_type),
          T(test_verify_rejects_infeed_without_token_result),
          T(test_verify_future_type_holds_ranked_tensors),
          T(test_verify_async_start_wraps_one_collective_or_slice),
          T(test_verify_async_start_result_is_the_future_of_its_region),
          T(test_verify_async_done_unwraps_its_future),
          T(test_verify_chlo_broadcast_ops_broadcast_their_operands),
          T(test_verify_chlo_broadcast_ops_need_compatible_element_types),
          T(test_verify_chlo_constant_like_takes_the_value_type),
          T(test_verify_arith_constant_and_tensor_cast),
          T(test_verify_bounds_encoding_one_bound_per_dynamic_dim),
          T(test_verify_dimension_numbers_have_a_closed_parameter_set),
          T(test_verify_replica_groups_from_mesh_axes_name_a_symbol),
          T(test_verify_collective_reduce_takes_a_dynamic_root),
          T(test_verify_reduce_init_takes_the_body_shape),
          T(test_verify_reduce_input_promotable_to_body),
          T(test_verify_rng_bit_generator_states_of_compatible_shape),
          T(test_verify_constant_shape_operands_meet_the_result_type),
          T(test_verify_dynamic_pad_with_constant_paddings),
          T(test_verify_custom_call_layouts_are_permutations),
          T(test_verify_custom_call_aliases_match_types),
          T(test_verify_custom_call_backend_config_kind_follows_api_version),
          T(test_verify_infeed_layout_one_list_per_payload),
          T(test_verify_result_accuracy_tolerances_follow_the_mode),
          T(test_verify_dot_general_takes_mixed_element_types),
          T(test_verify_dot_algorithm_must_be_a_known_one),
          T(test_verify_dynamic_gather_constant_slice_sizes),
          T(test_verify_irfft_operand_against_fft_length),
          T(test_verify_stablehlo_ops_take_ranked_tensors),
          T(test_verify_per_axis_quantization_only_where_ops_take_it),
          T(test_verify_per_axis_scales_follow_reshape_and_broadcast),
          T(test_verify_quantized_scale_within_the_expressed_type),
          T(test_verify_run_parallel_infeed_functions),
          T(test_verify_dynamic_conv_window_with_constant_padding),
          T(test_verify_reshape_result_static_or_one_bounded_dim),
          T(test_verify_a_size_above_a_bound_is_incompatible),
          T(test_verify_reduce_applies_a_commutative_op),
          T(test_verify_chlo_scan_dim_size_matches_the_inputs),
          T(test_verify_scatter_updates_promotable_to_the_body),
          T(test_verify_empty_window_lists_are_the_default),
          T(test_verify_recv_channel_type_follows_host_transfer),
          T(test_verify_composite_takes_regions))
