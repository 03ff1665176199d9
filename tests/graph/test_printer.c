/* Printer: generic form, exact literals, round trips, split-input-file,
 * structural equality. */
#include "tests/harness.h"

#include "graph/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct graph_module *parse_ok(const char *text, size_t len)
{
    struct graph_parse_options opt = {"t.mlir", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse(text, len, &opt, &m, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fprintf(stderr, "%.*s\n", (int)(len > 2000 ? 2000 : len), text);
        fail_msg("parse failed");
    }
    return m;
}

static char *print_ok(const struct graph_module *m, size_t *len)
{
    char *s = NULL;
    assert_int_equal(graph_print_str(m, &s, len), BASE_OK);
    assert_non_null(s);
    return s;
}

/* parse -> print -> parse: equal modules and identical second printing.
 * Returns the first printing (caller frees). */
static char *round_trip(const char *text)
{
    struct graph_module *a = parse_ok(text, strlen(text));
    size_t n1, n2;
    char *p1 = print_ok(a, &n1);
    struct graph_module *b = parse_ok(p1, n1);
    if (!graph_module_equal(a, b)) {
        fprintf(stderr, "%s\n", p1);
        fail_msg("reparsed module differs");
    }
    char *p2 = print_ok(b, &n2);
    if (n1 != n2 || memcmp(p1, p2, n1) != 0) {
        fprintf(stderr, "first:\n%s\nsecond:\n%s\n", p1, p2);
        fail_msg("second printing differs");
    }
    free(p2);
    graph_module_destroy(a);
    graph_module_destroy(b);
    return p1;
}

static const char *const snippets[] = {
    "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
    "  return %0 : tensor<2xf32>\n}\n",
    "module @m attributes {mhlo.num_partitions = 1 : i32} {\n  func.func private @g(tensor<f32>) -> tensor<f32>\n"
    "  func.func public @main(%x: tensor<f32> {jax.arg_info = \"x\"}) -> (tensor<f32> {jax.result_info = \"\"}) {\n"
    "    %0 = func.call @g(%x) : (tensor<f32>) -> tensor<f32>\n    return %0 : tensor<f32>\n  }\n}\n",
    "func.func @f(%a: tensor<4x5xf32>, %c: tensor<f32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, "
    "tensor<f32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
    "func.func @f(%a: tensor<3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {\n"
    "  %0 = \"stablehlo.gather\"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], "
    "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, "
    "slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>\n"
    "  return %0 : tensor<2x4xf32>\n}\n",
    "func.func @f(%a: tensor<4xi64>, %i: tensor<1x1xi64>, %u: tensor<1xi64>) -> tensor<4xi64> {\n"
    "  %0 = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims "
    "= [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({\n"
    "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n    stablehlo.return %y : tensor<i64>\n"
    "  }) : (tensor<4xi64>, tensor<1x1xi64>, tensor<1xi64>) -> tensor<4xi64>\n  return %0 : tensor<4xi64>\n}\n",
    "func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
    "  %0 = \"stablehlo.sort\"(%a) <{dimension = 0 : i64, is_stable = true}> ({\n"
    "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
    "    %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n  }) : (tensor<3xf32>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n",
    "func.func @f(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {\n"
    "  %0 = \"stablehlo.if\"(%p) ({\n    stablehlo.return %a : tensor<f32>\n  }, {\n"
    "    %n = stablehlo.negate %a : tensor<f32>\n    stablehlo.return %n : tensor<f32>\n"
    "  }) : (tensor<i1>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n",
    "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = \"stablehlo.all_reduce\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
    "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
    "    %s = stablehlo.add %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>\n"
    "  }) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
    "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {\n"
    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = "
    "<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, "
    "rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : "
    "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n  return %0 : tensor<2x4xf32>\n}\n",
    "func.func @f(%x: tensor<1x8x2xf32>, %w: tensor<3x2x2xf32>) -> tensor<1x6x2xf32> {\n"
    "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision "
    "DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x2xf32>, tensor<3x2x2xf32>) -> tensor<1x6x2xf32>\n"
    "  return %0 : tensor<1x6x2xf32>\n}\n",
    "sdy.mesh @mesh = <[\"x\"=2, \"y\"=1], device_ids=[1, 0]>\n"
    "func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\", ?}p1], replicated={\"y\"}>}) -> "
    "tensor<8xf32> {\n  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, "
    "[{\"x\"}]>] manual_axes={\"x\"} (%b: tensor<4xf32>) {\n    sdy.return %b : tensor<4xf32>\n"
    "  } : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n",
    "func.func @f(%a: tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.5:1, 0.25:-2}>>, %b: "
    "tensor<2x!quant.uniform<u8:bf16, 1.0e-03>>) {\n  return\n}\n",
    "#map = affine_map<(d0) -> (d0)>\n!t = tensor<2xf32>\nfunc.func @f(%a: !t {x.y = #map}) -> !t {\n"
    "  return %a : !t\n}\n",
    "func.func @f() {\n  %0 = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>\n"
    "  %1 = stablehlo.constant dense<[0x7FC00001, -0.0, 1.0e-45, 3.40282347E+38]> : tensor<4xf32>\n"
    "  %2 = stablehlo.constant dense<[(1.0, -2.5), (0x7FF8000000000000, 0.0)]> : tensor<2xcomplex<f64>>\n"
    "  %3 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>\n"
    "  %4 = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>\n"
    "  %5 = stablehlo.constant dense<18446744073709551615> : tensor<ui64>\n"
    "  %6 = stablehlo.constant dense<> : tensor<0x3xf32>\n"
    "  %7 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, "
    "0.5>>\n  return\n}\n",
    "func.func @f(%a: tensor<2xf32>) {\n  check.expect_almost_eq_const %a, dense<1.0> : tensor<2xf32>, tolerance = "
    "1.000000e-02\n  %p = interpreter.probe %a, probe_id = \"x\" : tensor<2xf32>\n"
    "  check.expect_serialized_eq %p, probe_id = \"x\", iter = 4 : tensor<2xf32>\n  return\n}\n",
    "func.func @f(%a: tensor<2xf32>) {\n  \"unknown.op\"(%a) {weird = #unknown.attr<\"a>b\", [1 -> 2]>, s = "
    "\"quote\\\"d\\0A\"} : (tensor<2xf32>) -> ()\n  return\n}\n",
};

static void test_printer_round_trips_representative_snippets(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(snippets); i++) free(round_trip(snippets[i]));
}

static void test_printer_writes_generic_form_with_locations(void **state)
{
    (void)state;
    char *out = round_trip("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
                           "  %0 = stablehlo.add %a, %a : tensor<f32> loc(\"add.1\")\n  return %0 : tensor<f32>\n}\n");
    assert_non_null(strstr(out, "\"func.func\"() ({"));
    assert_non_null(
        strstr(out, "%0 = \"stablehlo.add\"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(\"add.1\")"));
    assert_non_null(strstr(out, "\"func.return\"(%0) : (tensor<f32>) -> ()"));
    assert_non_null(strstr(out, "function_type = (tensor<f32>) -> tensor<f32>"));
    assert_non_null(strstr(out, "sym_name = \"f\""));
    free(out);
}

static void test_printer_enums_and_structs_spelled_as_mlir(void **state)
{
    (void)state;
    char *out = round_trip(snippets[9]); /* convolution */
    assert_non_null(strstr(out, "dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>"));
    assert_non_null(strstr(out, "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]"));
    free(out);
    out = round_trip(snippets[3]); /* gather */
    assert_non_null(strstr(out, "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = "
                                "[0], index_vector_dim = 1>"));
    assert_non_null(strstr(out, "slice_sizes = array<i64: 1, 4>"));
    free(out);
    out = round_trip(snippets[10]); /* sdy */
    assert_non_null(strstr(out, "#sdy.mesh<[\"x\"=2, \"y\"=1], device_ids=[1, 0]>"));
    assert_non_null(strstr(out, "#sdy.sharding<@mesh, [{\"x\", ?}p1], replicated={\"y\"}>"));
    assert_non_null(strstr(out, "in_shardings = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>"));
    assert_non_null(strstr(out, "manual_axes = #sdy<manual_axes{\"x\"}>"));
    free(out);
    out = round_trip(snippets[14]); /* check ops: iter is printed under its generic name */
    assert_non_null(strstr(out, "iteration = 4 : ui32"));
    free(out);
}

/* Prints the given bit patterns of a float type (as one literal of at most
 * 64 elements, so decimal) and reads them back: bit-exact, NaN and infinities
 * as hex patterns. */
static void check_patterns(enum base_dtype dt, const uint64_t *want, int n)
{
    size_t es = base_dtype_size(dt);
    char *text = malloc(64 * 40 + 512);
    size_t k = (size_t)snprintf(text, 512, "func.func @f() {\n  %%0 = stablehlo.constant dense<\"0x");
    for (int i = 0; i < n; i++)
        for (size_t byte = 0; byte < es; byte++)
            k += (size_t)sprintf(text + k, "%02X", (unsigned)((want[i] >> (8 * byte)) & 255));
    k += (size_t)sprintf(text + k, "\"> : tensor<%dx%s>\n  return\n}\n", n, base_dtype_name(dt));
    struct graph_module *a = parse_ok(text, k);
    size_t len;
    char *out = print_ok(a, &len);
    assert_null(strstr(out, "dense<\"0x")); /* <= 64 elements print as decimal */
    struct graph_module *b = parse_ok(out, len);
    const struct base_tensor *t = graph_op_attr(b->body.ops[0]->regions[0].blocks[0].ops[0], "value")->u.elements.value;
    for (int i = 0; i < n; i++) {
        uint64_t got = base_elem_get_bits(dt, t->data, (size_t)i);
        if (got != want[i])
            fail_msg("%s pattern 0x%llx read back as 0x%llx", base_dtype_name(dt), (unsigned long long)want[i],
                     (unsigned long long)got);
    }
    free(out);
    free(text);
    graph_module_destroy(a);
    graph_module_destroy(b);
}

static void check_all_patterns(enum base_dtype dt, uint64_t n_patterns)
{
    uint64_t pats[64];
    for (uint64_t base = 0; base < n_patterns; base += 64) {
        int n = 0;
        for (uint64_t b = base; b < n_patterns && n < 64; b++) pats[n++] = b;
        check_patterns(dt, pats, n);
    }
}

static void test_printer_float_elements_exact_narrow_types(void **state)
{
    (void)state;
    static const enum base_dtype eight[] = {BASE_DT_F8E3M4,     BASE_DT_F8E4M3,        BASE_DT_F8E4M3FN,
                                            BASE_DT_F8E4M3FNUZ, BASE_DT_F8E4M3B11FNUZ, BASE_DT_F8E5M2,
                                            BASE_DT_F8E5M2FNUZ, BASE_DT_F8E8M0FNU};
    for (size_t i = 0; i < ARRAY_LEN(eight); i++) check_all_patterns(eight[i], 256);
    check_all_patterns(BASE_DT_F4E2M1FN, 16);
    check_all_patterns(BASE_DT_F6E2M3FN, 64);
    check_all_patterns(BASE_DT_F6E3M2FN, 64);
}

static void test_printer_float_elements_exact_bf16_f16(void **state)
{
    (void)state;
    check_all_patterns(BASE_DT_BF16, 65536);
    check_all_patterns(BASE_DT_F16, 65536);
}

static void test_printer_float_elements_exact_f32_f64_random(void **state)
{
    (void)state;
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    uint64_t pats[64];
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 64; i++) pats[i] = base_rng_next(&r) & 0xFFFFFFFFu;
        check_patterns(BASE_DT_F32, pats, 64);
        for (int i = 0; i < 64; i++) pats[i] = base_rng_next(&r);
        check_patterns(BASE_DT_F64, pats, 64);
    }
    /* boundaries: zeros, subnormals, max, inf, NaN payloads */
    const uint64_t f32b[] = {0, 0x80000000u, 1, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x7F800000u, 0xFF800000u,
                             0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu};
    check_patterns(BASE_DT_F32, f32b, (int)ARRAY_LEN(f32b));
    const uint64_t f64b[] = {0, 1ull << 63, 1, 0x000FFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull,
                             0x7FF8000000000001ull, 0xFFF0000000000000ull};
    check_patterns(BASE_DT_F64, f64b, (int)ARRAY_LEN(f64b));
}

static void test_printer_large_tensor_as_hex_blob(void **state)
{
    (void)state;
    char *text = malloc(20000);
    size_t k = (size_t)sprintf(text, "func.func @f() {\n  %%0 = stablehlo.constant dense<[");
    for (int i = 0; i < 1000; i++) k += (size_t)sprintf(text + k, "%s%d.25", i ? ", " : "", i - 500);
    sprintf(text + k, "]> : tensor<1000xf32>\n  return\n}\n");
    char *out = round_trip(text);
    assert_non_null(strstr(out, "dense<\"0x0020FAC3")); /* -500.25f, little-endian */
    free(out);
    free(text);
}

static void test_printer_splat_literal_stays_splat(void **state)
{
    (void)state;
    char *out = round_trip("func.func @f() {\n  %0 = stablehlo.constant dense<1.5> : tensor<100x7xf32>\n  return\n}\n");
    assert_non_null(strstr(out, "dense<1.5> : tensor<100x7xf32>"));
    free(out);
}

static void test_printer_dense_resource_and_trailer(void **state)
{
    (void)state;
    char *out = round_trip("func.func @f() {\n  %0 = stablehlo.constant dense_resource<w> : tensor<3xi16>\n  return\n}\n"
                           "{-#\n  dialect_resources: {\n    builtin: {\n      w: \"0x02000000010002000300\"\n    }\n"
                           "  }\n#-}\n");
    assert_non_null(strstr(out, "dense_resource<w> : tensor<3xi16>"));
    assert_non_null(strstr(out, "w: \"0x02000000010002000300\""));
    free(out);
}

static void test_printer_generated_names_avoid_source_names(void **state)
{
    (void)state;
    /* the reduce region's values are unnamed; source names look like generated ones */
    free(round_trip("func.func @f(%_1: tensor<4x5xf32>, %_2: tensor<f32>) -> tensor<4xf32> {\n"
                    "  %_5 = stablehlo.reduce(%_1 init: %_2) applies stablehlo.add across dimensions = [1] : "
                    "(tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>\n  return %_5 : tensor<4xf32>\n}\n"));
}

/* fuzz/corpus/graph_roundtrip/generic_func_is_isolated.mlir: a name defined at
 * module level and again inside a function; the printed generic func.func must
 * still open an isolated scope. */
static void test_printer_generic_func_body_is_isolated(void **state)
{
    (void)state;
    free(round_trip("%c = stablehlo.constant dense<1> : tensor<i64>\nfunc.func @f() {\n"
                    "  %c = stablehlo.constant dense<2> : tensor<i64>\n  return\n}\n"));
}

/* fuzz/corpus/graph_roundtrip/sdy_axis_name_like_sub_axis.mlir: a plain axis
 * name that contains ":(" must not print as a sub-axis. */
static void test_printer_sdy_axis_names_verbatim(void **state)
{
    (void)state;
    char *out = round_trip("sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\nfunc.func @f(%a: tensor<8x8xf32> {sdy.sharding = "
                           "#sdy.sharding<@mesh, [{\"x\":(1)2}, {}], replicated={\"y:(1)2\", \"x\":(2)2}>}) -> "
                           "tensor<8x8xf32> {\n  return %a : tensor<8x8xf32>\n}\n");
    assert_non_null(strstr(out, "[{\"x\":(1)2}, {}], replicated={\"y:(1)2\", \"x\":(2)2}"));
    free(out);
}

static void test_printer_type_strings(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(snippets[11], strlen(snippets[11]));
    const struct graph_block *b = &m->body.ops[0]->regions[0].blocks[0];
    char buf[160];
    graph_type_str(b->args[0].type, buf, sizeof buf);
    assert_string_equal(buf, "tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.5:1, 0.25:-2}>>");
    graph_type_str(b->args[1].type, buf, sizeof buf);
    assert_string_equal(buf, "tensor<2x!quant.uniform<u8:bf16, 0.001>>");
    char small[8];
    graph_type_str(b->args[0].type, small, sizeof small); /* truncates safely */
    assert_string_equal(small, "tensor<");
    graph_module_destroy(m);
}

static void test_printer_print_to_file_matches_string(void **state)
{
    (void)state;
    struct graph_module *m = parse_ok(snippets[0], strlen(snippets[0]));
    size_t len;
    char *s = print_ok(m, &len);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(graph_print(m, f), BASE_OK);
    assert_int_equal((size_t)ftell(f), len);
    rewind(f);
    char *back = malloc(len + 1);
    assert_int_equal(fread(back, 1, len, f), len);
    assert_memory_equal(back, s, len);
    fclose(f);
    free(back);
    free(s);
    graph_module_destroy(m);
}

static void test_printer_module_equal_sees_differences(void **state)
{
    (void)state;
    const char *base = "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
                       "  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
                       "  %0 = stablehlo.subtract %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    const char *renamed = "func.func @f(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {\n"
                          "  %k = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32> loc(\"c\")\n"
                          "  %r = stablehlo.subtract %x, %y : tensor<2xf32>\n  return %r : tensor<2xf32>\n}\n";
    const char *swapped = "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
                          "  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
                          "  %0 = stablehlo.subtract %b, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    const char *literal = "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
                          "  %c = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>\n"
                          "  %0 = stablehlo.subtract %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    struct graph_module *m0 = parse_ok(base, strlen(base)), *m1 = parse_ok(renamed, strlen(renamed)),
                        *m2 = parse_ok(swapped, strlen(swapped)), *m3 = parse_ok(literal, strlen(literal));
    assert_true(graph_module_equal(m0, m1)); /* names and locations do not matter */
    assert_false(graph_module_equal(m0, m2));
    assert_false(graph_module_equal(m0, m3));
    graph_module_destroy(m0);
    graph_module_destroy(m1);
    graph_module_destroy(m2);
    graph_module_destroy(m3);
}

static void test_split_chunks_at_marker_lines(void **state)
{
    (void)state;
    const char *text = "a\n// -----\nb\n//  -----\n// -----   \nc";
    int n;
    size_t *starts, *lens;
    int *lines;
    assert_int_equal(graph_split_chunks(text, strlen(text), &n, &starts, &lens, &lines), BASE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(lens[0], 2);
    assert_memory_equal(text + starts[0], "a\n", 2);
    assert_memory_equal(text + starts[1], "b\n//  -----\n", lens[1]);
    assert_int_equal(lens[1], strlen("b\n//  -----\n"));
    assert_memory_equal(text + starts[2], "c", lens[2]);
    assert_int_equal(lines[0], 1);
    assert_int_equal(lines[1], 3);
    assert_int_equal(lines[2], 6);
    free(starts);
    free(lens);
    free(lines);
    assert_int_equal(graph_split_chunks("", 0, &n, &starts, &lens, NULL), BASE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(lens[0], 0);
    free(starts);
    free(lens);
}

/* Printed with positions and read back with positions_from_locs, every op
 * keeps its source file, line and column (and its name location). */
static void test_printer_positions_survive_a_round_trip(void **state)
{
    (void)state;
    static const char src[] = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                              "  %n = stablehlo.negate %a : tensor<4xf32> loc(\"neg.1\")\n"
                              "\n"
                              "     %e = stablehlo.exponential %n : tensor<4xf32>\n"
                              "  return %e : tensor<4xf32>\n"
                              "}\n";
    struct graph_module *a = parse_ok(src, strlen(src));
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(graph_print_str_positions(a, &text, &len), BASE_OK);
    struct graph_parse_options opt = {"printed.mlir", 0, 0, true};
    struct graph_module *b = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse(text, len, &opt, &b, &d), BASE_OK);
    const struct graph_block *blk = &graph_module_entry(b)->regions[0].blocks[0];
    const struct graph_op *neg = blk->ops[0], *ex = blk->ops[1];
    assert_string_equal(neg->loc.file, "t.mlir");
    assert_int_equal(neg->loc.line, 2);
    assert_int_equal(neg->loc.col, 3);
    assert_string_equal(neg->loc.name, "neg.1");
    assert_string_equal(ex->loc.file, "t.mlir");
    assert_int_equal(ex->loc.line, 4);
    assert_int_equal(ex->loc.col, 6);
    assert_null(ex->loc.name);
    /* without the option, positions are the printed text's */
    struct graph_module *c = parse_ok(text, len);
    assert_int_not_equal(graph_module_entry(c)->regions[0].blocks[0].ops[1]->loc.line, 4);
    graph_module_destroy(a);
    graph_module_destroy(b);
    graph_module_destroy(c);
    free(text);
}

TEST_MAIN(NULL, NULL, T(test_printer_round_trips_representative_snippets), T(test_printer_positions_survive_a_round_trip),
          T(test_printer_writes_generic_form_with_locations), T(test_printer_enums_and_structs_spelled_as_mlir),
          T(test_printer_float_elements_exact_narrow_types), T(test_printer_float_elements_exact_bf16_f16),
          T(test_printer_float_elements_exact_f32_f64_random), T(test_printer_large_tensor_as_hex_blob),
          T(test_printer_splat_literal_stays_splat), T(test_printer_dense_resource_and_trailer),
          T(test_printer_generated_names_avoid_source_names), T(test_printer_generic_func_body_is_isolated), T(test_printer_sdy_axis_names_verbatim),
          T(test_printer_type_strings),
          T(test_printer_print_to_file_matches_string), T(test_printer_module_equal_sees_differences),
          T(test_split_chunks_at_marker_lines))
