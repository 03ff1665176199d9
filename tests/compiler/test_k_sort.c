/* Sorts and top-k (compiler/k_sort.c) on the simulator against the golden
 * interpreter, bit for bit, on tpu-v5e and trn2 (every core), with inputs
 * full of ties, NaNs of both signs and payloads, signed zeros, infinities
 * and integer extremes; the comparators JAX and XLA write; refusals; the
 * timing against its closed form; MoE routing. */
#include "tests/compiler/k_test_util.h"

#include "runtime/runtime.h"
#include "event/event.h"

#include <math.h>
#include <stdio.h>

/* ------------------------------------------------------------------ inputs */

/* Values with many ties and every special value of the type. */
static void fill_special(struct base_tensor *t, uint64_t seed)
{
    struct base_rng r;
    base_rng_seed(&r, seed);
    enum base_dtype dt = t->dtype;
    int w = base_dtype_bits(dt);
    for (int64_t i = 0; i < t->count; i++) {
        uint64_t u = base_rng_next(&r), c = u % 16, v = u >> 8;
        if (base_dtype_is_float(dt)) {
            uint64_t sign = (uint64_t)1 << (w - 1);
            base_elem_set_f64(dt, t->data, (size_t)i, NAN);
            uint64_t qnan = base_elem_get_bits(dt, t->data, (size_t)i) & ~sign;
            switch (c) {
            case 0: base_elem_set_f64(dt, t->data, (size_t)i, 0.0); break;
            case 1: base_elem_set_f64(dt, t->data, (size_t)i, -0.0); break;
            case 2: base_elem_set_bits(dt, t->data, (size_t)i, qnan); break;
            case 3: base_elem_set_bits(dt, t->data, (size_t)i, qnan | sign | 1); break;
            case 4: base_elem_set_bits(dt, t->data, (size_t)i, qnan | 1); break;
            case 5: base_elem_set_f64(dt, t->data, (size_t)i, INFINITY); break;
            case 6: base_elem_set_f64(dt, t->data, (size_t)i, -INFINITY); break;
            default: /* ties: multiples of 1/4 in [-4, 4), and some others */
                base_elem_set_f64(dt, t->data, (size_t)i,
                                  c < 12 ? (double)((int64_t)(v % 32) - 16) / 4.0 : (double)(v % 100000) / 997.0 - 50);
            }
        } else if (dt == BASE_DT_I1) {
            base_elem_set_i64(dt, t->data, (size_t)i, (int64_t)(v & 1));
        } else {
            bool sg = base_dtype_kind(dt) == BASE_KIND_SINT;
            int64_t lo = sg ? (int64_t)(~(uint64_t)0 << (w - 1)) : 0;
            uint64_t hi = sg ? ((uint64_t)1 << (w - 1)) - 1 : (w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1);
            if (c == 0) base_elem_set_i64(dt, t->data, (size_t)i, lo);
            else if (c == 1) base_elem_set_bits(dt, t->data, (size_t)i, hi);
            else base_elem_set_i64(dt, t->data, (size_t)i, (int64_t)(v % 7) - (sg ? 3 : 0));
        }
    }
}

static void special_inputs(struct kt *t, uint64_t seed)
{
    for (int i = 0; i < t->n_args; i++) {
        const struct cc_view *v = &t->in[i].view;
        base_tensor_release(t->args[i]);
        assert_int_equal(base_tensor_create(v->dtype, v->rank, v->dims, &t->args[i]), BASE_OK);
        fill_special(t->args[i], seed * 131 + (uint64_t)i);
    }
}

/* The kernel of src on both chips, every core, against the interpreter. */
static void run_src(const char *src, uint64_t seed)
{
    struct kt t;
    kt_parse(&t, src, CC_K_SORT);
    special_inputs(&t, seed);
    kt_check_both(&t, cc_emit_sort, 0);
    kt_free(&t);
}

/* ------------------------------------------------------------- programs */

static const char *dtype_name(enum base_dtype dt) { return base_dtype_name(dt); }

/* JAX's comparator for a float operand: -0 -> +0, NaN -> the canonical NaN,
 * then a TOTALORDER compare (LT ascending, GT descending). */
static int jax_float_key(char *s, size_t cap, const char *ty, const char *a, const char *b, const char *dir,
                         const char *out, const char *nan_bits)
{
    return snprintf(s, cap,
                    "      %%z_%s = stablehlo.constant dense<0.0> : tensor<%s>\n"
                    "      %%n_%s = stablehlo.constant dense<%s> : tensor<%s>\n"
                    "      %%e_%s = stablehlo.compare EQ, %s, %%z_%s, FLOAT : (tensor<%s>, tensor<%s>) -> tensor<i1>\n"
                    "      %%s_%s = stablehlo.select %%e_%s, %%z_%s, %s : tensor<i1>, tensor<%s>\n"
                    "      %%u_%s = stablehlo.compare NE, %s, %s, FLOAT : (tensor<%s>, tensor<%s>) -> tensor<i1>\n"
                    "      %%c_%s = stablehlo.select %%u_%s, %%n_%s, %%s_%s : tensor<i1>, tensor<%s>\n"
                    "      %%e2_%s = stablehlo.compare EQ, %s, %%z_%s, FLOAT : (tensor<%s>, tensor<%s>) -> tensor<i1>\n"
                    "      %%s2_%s = stablehlo.select %%e2_%s, %%z_%s, %s : tensor<i1>, tensor<%s>\n"
                    "      %%u2_%s = stablehlo.compare NE, %s, %s, FLOAT : (tensor<%s>, tensor<%s>) -> tensor<i1>\n"
                    "      %%c2_%s = stablehlo.select %%u2_%s, %%n_%s, %%s2_%s : tensor<i1>, tensor<%s>\n"
                    "      %s = stablehlo.compare %s, %%c_%s, %%c2_%s, TOTALORDER : (tensor<%s>, tensor<%s>) -> tensor<i1>\n",
                    out + 1, ty, out + 1, nan_bits, ty, out + 1, a, out + 1, ty, ty, out + 1, out + 1, out + 1, a, ty,
                    out + 1, a, a, ty, ty, out + 1, out + 1, out + 1, out + 1, ty, out + 1, b, out + 1, ty, ty, out + 1,
                    out + 1, out + 1, b, ty, out + 1, b, b, ty, ty, out + 1, out + 1, out + 1, out + 1, ty, out, dir,
                    out + 1, out + 1, ty, ty);
}

static const char *nan_of(enum base_dtype dt)
{
    switch (dt) {
    case BASE_DT_F32: return "0x7FC00000";
    case BASE_DT_BF16: return "0x7FC0";
    case BASE_DT_F16: return "0x7E00";
    default: return "0";
    }
}

/* A one-operand sort of shape `shape` along dim with a JAX-style (floats)
 * or plain integer comparator. */
static void sort1(char *s, size_t cap, const char *shape, enum base_dtype dt, int dim, bool desc, bool stable)
{
    const char *ty = dtype_name(dt);
    char cmp[4096];
    if (base_dtype_is_float(dt))
        jax_float_key(cmp, sizeof cmp, ty, "%a", "%b", desc ? "GT" : "LT", "%p", nan_of(dt));
    else
        snprintf(cmp, sizeof cmp, "      %%p = stablehlo.compare %s, %%a, %%b, %s : (tensor<%s>, tensor<%s>) -> tensor<i1>\n",
                 desc ? "GT" : "LT", base_dtype_kind(dt) == BASE_KIND_SINT ? "SIGNED" : "UNSIGNED", ty, ty);
    snprintf(s, cap,
             "func.func @main(%%x: tensor<%s%s>) -> tensor<%s%s> {\n"
             "  %%r = \"stablehlo.sort\"(%%x) <{dimension = %d : i64, is_stable = %s}> ({\n"
             "    ^bb0(%%a: tensor<%s>, %%b: tensor<%s>):\n%s"
             "      stablehlo.return %%p : tensor<i1>\n"
             "  }) : (tensor<%s%s>) -> tensor<%s%s>\n"
             "  func.return %%r : tensor<%s%s>\n}\n",
             shape, ty, shape, ty, dim, stable ? "true" : "false", ty, ty, cmp, shape, ty, shape, ty, shape, ty);
}

/* ------------------------------------------------------------------ tests */

static void test_k_sort_f32_rows_and_columns_jax_comparator(void **state)
{
    (void)state;
    static char s[8192];
    sort1(s, sizeof s, "7x13x", BASE_DT_F32, 1, false, false);
    run_src(s, 1);
    sort1(s, sizeof s, "7x13x", BASE_DT_F32, 0, false, true);
    run_src(s, 2);
    sort1(s, sizeof s, "5x7x", BASE_DT_F32, 0, true, false); /* the corpus's shape, descending */
    run_src(s, 3);
}

/* every dtype the issue names, ascending and descending, dims first/middle/last */
static void test_k_sort_dtypes_dims_and_directions(void **state)
{
    (void)state;
    static char s[8192];
    const enum base_dtype dts[] = {BASE_DT_F32, BASE_DT_BF16, BASE_DT_F16, BASE_DT_SI32, BASE_DT_UI32};
    for (size_t i = 0; i < ARRAY_LEN(dts); i++)
        for (int dim = 0; dim < 3; dim++) {
            sort1(s, sizeof s, "6x33x5x", dts[i], dim, dim == 1, dim == 2);
            run_src(s, 10 + 3 * i + (uint64_t)dim);
        }
}

/* row lengths that are no power of two (virtual elements), and long rows */
static void test_k_sort_ragged_and_long_rows(void **state)
{
    (void)state;
    static char s[8192];
    const char *shapes[] = {"3x", "100x", "129x", "2x1000x", "300x17x", "1x1x2049x"};
    for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
        int dim = (int)(strlen(shapes[i]) / 3); /* the last dim */
        int rank = 0;
        for (const char *p = shapes[i]; *p; p++) rank += *p == 'x';
        dim = rank - 1;
        sort1(s, sizeof s, shapes[i], i % 2 ? BASE_DT_F32 : BASE_DT_SI32, dim, i % 3 == 1, false);
        run_src(s, 40 + i);
    }
}

/* the corpus's three-operand lexicographic sort (i32, i32, f32), along dim 0 */
static void test_k_sort_three_operands_lexicographic(void **state)
{
    (void)state;
    static char s[16384];
    char key2[4096];
    jax_float_key(key2, sizeof key2, "f32", "%arg4", "%arg5", "LT", "%k2", "0x7FC00000");
    snprintf(s, sizeof s,
             "func.func @main(%%x: tensor<100x3xi32>, %%y: tensor<100x3xi32>, %%z: tensor<100x3xf32>) -> "
             "(tensor<100x3xi32>, tensor<100x3xi32>, tensor<100x3xf32>) {\n"
             "  %%r:3 = \"stablehlo.sort\"(%%x, %%y, %%z) <{dimension = 0 : i64, is_stable = true}> ({\n"
             "    ^bb0(%%arg0: tensor<i32>, %%arg1: tensor<i32>, %%arg2: tensor<i32>, %%arg3: tensor<i32>, %%arg4: "
             "tensor<f32>, %%arg5: tensor<f32>):\n%s"
             "      %%12 = stablehlo.compare LT, %%arg2, %%arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      %%13 = stablehlo.compare EQ, %%arg2, %%arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      %%14 = stablehlo.and %%13, %%k2 : tensor<i1>\n"
             "      %%15 = stablehlo.or %%12, %%14 : tensor<i1>\n"
             "      %%16 = stablehlo.compare LT, %%arg0, %%arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      %%17 = stablehlo.compare EQ, %%arg0, %%arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "      %%18 = stablehlo.and %%17, %%15 : tensor<i1>\n"
             "      %%19 = stablehlo.or %%16, %%18 : tensor<i1>\n"
             "      stablehlo.return %%19 : tensor<i1>\n"
             "  }) : (tensor<100x3xi32>, tensor<100x3xi32>, tensor<100x3xf32>) -> (tensor<100x3xi32>, tensor<100x3xi32>, "
             "tensor<100x3xf32>)\n"
             "  func.return %%r#0, %%r#1, %%r#2 : tensor<100x3xi32>, tensor<100x3xi32>, tensor<100x3xf32>\n}\n",
             key2);
    run_src(s, 60);
}

/* a key and a payload (argsort-like): bf16 keys GT, u32 payload; ties keep their order */
static void test_k_sort_two_operands_key_and_payload(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<40x96xbf16>, %y: tensor<40x96xui32>) -> (tensor<40x96xbf16>, tensor<40x96xui32>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<ui32>, %d: tensor<ui32>):\n"
            "      %p = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<40x96xbf16>, tensor<40x96xui32>) -> (tensor<40x96xbf16>, tensor<40x96xui32>)\n"
            "  func.return %r#0, %r#1 : tensor<40x96xbf16>, tensor<40x96xui32>\n}\n",
            70);
}

/* XLA's comparator (comparators.cc: select(true, GtTotalOrder(p0), true)),
 * f16 keys with an i32 payload, sorted along the first of three dims */
static void test_k_sort_xla_comparator_f16(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<65x3x4xf16>, %y: tensor<65x3x4xi32>) -> (tensor<65x3x4xf16>, tensor<65x3x4xi32>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 0 : i64, is_stable = false}> ({\n"
            "    ^bb0(%a: tensor<f16>, %b: tensor<f16>, %c: tensor<i32>, %d: tensor<i32>):\n"
            "      %t = stablehlo.constant dense<true> : tensor<i1>\n"
            "      %g = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>\n"
            "      %p = stablehlo.select %t, %g, %t : tensor<i1>, tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<65x3x4xf16>, tensor<65x3x4xi32>) -> (tensor<65x3x4xf16>, tensor<65x3x4xi32>)\n"
            "  func.return %r#0, %r#1 : tensor<65x3x4xf16>, tensor<65x3x4xi32>\n}\n",
            80);
}

/* the key is the second operand, the first a payload; the comparator
 * written with the rhs first (b > a: descending) and GE/LE forms */
static void test_k_sort_key_not_first_and_mirrored_compares(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<8x50xf32>, %y: tensor<8x50xi32>) -> (tensor<8x50xf32>, tensor<8x50xi32>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
            "      %p = stablehlo.compare LT, %d, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<8x50xf32>, tensor<8x50xi32>) -> (tensor<8x50xf32>, tensor<8x50xi32>)\n"
            "  func.return %r#0, %r#1 : tensor<8x50xf32>, tensor<8x50xi32>\n}\n",
            90);
    /* not(b >= a) == a < b, written through a not: ascending by the i32 key */
    run_src("func.func @main(%x: tensor<8x50xf32>, %y: tensor<8x50xi32>) -> (tensor<8x50xf32>, tensor<8x50xi32>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
            "      %q = stablehlo.compare GE, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            "      %p = stablehlo.not %q : tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<8x50xf32>, tensor<8x50xi32>) -> (tensor<8x50xf32>, tensor<8x50xi32>)\n"
            "  func.return %r#0, %r#1 : tensor<8x50xf32>, tensor<8x50xi32>\n}\n",
            91);
}

/* keys computed from the elements: |x| as the key (ties between x and -x),
 * and a key through a bitcast to integers */
static void test_k_sort_computed_keys(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<16x70xf32>) -> tensor<16x70xf32> {\n"
            "  %r = \"stablehlo.sort\"(%x) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "      %aa = stablehlo.abs %a : tensor<f32>\n"
            "      %bb = stablehlo.abs %b : tensor<f32>\n"
            "      %p = stablehlo.compare LT, %aa, %bb, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<16x70xf32>) -> tensor<16x70xf32>\n"
            "  func.return %r : tensor<16x70xf32>\n}\n",
            100);
    run_src("func.func @main(%x: tensor<16x70xf32>) -> tensor<16x70xf32> {\n"
            "  %r = \"stablehlo.sort\"(%x) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            "      %ia = stablehlo.bitcast_convert %a : (tensor<f32>) -> tensor<ui32>\n"
            "      %ib = stablehlo.bitcast_convert %b : (tensor<f32>) -> tensor<ui32>\n"
            "      %p = stablehlo.compare GT, %ia, %ib, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<16x70xf32>) -> tensor<16x70xf32>\n"
            "  func.return %r : tensor<16x70xf32>\n}\n",
            101);
}

/* a comparator that is constant false keeps the input order; the stable
 * test of the interpreter suite */
static void test_k_sort_degenerate_and_interpreter_suite(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<9x11xf32>, %y: tensor<9x11xi32>) -> (tensor<9x11xf32>, tensor<9x11xi32>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
            "      %f = stablehlo.constant dense<false> : tensor<i1>\n"
            "      stablehlo.return %f : tensor<i1>\n"
            "  }) : (tensor<9x11xf32>, tensor<9x11xi32>) -> (tensor<9x11xf32>, tensor<9x11xi32>)\n"
            "  func.return %r#0, %r#1 : tensor<9x11xf32>, tensor<9x11xi32>\n}\n",
            110);
    run_src("func.func @main(%x: tensor<2x3xi64>, %y: tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>) {\n"
            "  %r:2 = \"stablehlo.sort\"(%x, %y) ({\n"
            "    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):\n"
            "      %p = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)\n"
            "  func.return %r#0, %r#1 : tensor<2x3xi64>, tensor<2x3xi64>\n}\n",
            111);
}

/* ------------------------------------------------------------------ top-k */

static void test_k_sort_chlo_top_k_dtypes(void **state)
{
    (void)state;
    static char s[2048];
    const enum base_dtype dts[] = {BASE_DT_F32, BASE_DT_BF16, BASE_DT_F16, BASE_DT_SI32, BASE_DT_UI32, BASE_DT_I1};
    const char *shapes[][2] = {{"5x", "3"}, {"16x64x", "8"}, {"3x100x", "7"}, {"257x", "2"}, {"4x9x", "9"}};
    for (size_t i = 0; i < ARRAY_LEN(dts); i++)
        for (size_t j = 0; j < ARRAY_LEN(shapes); j++) {
            const char *ty = dtype_name(dts[i]);
            char oshape[64];
            snprintf(oshape, sizeof oshape, "%s", shapes[j][0]);
            char *last = oshape + strlen(oshape) - 1; /* replace the last dim by k */
            *last = 0;
            char *p = strrchr(oshape, 'x');
            p = p ? p + 1 : oshape;
            snprintf(p, sizeof oshape - (size_t)(p - oshape), "%sx", shapes[j][1]);
            snprintf(s, sizeof s,
                     "func.func @main(%%x: tensor<%s%s>) -> (tensor<%s%s>, tensor<%si32>) {\n"
                     "  %%v, %%i = chlo.top_k(%%x, k = %s) : tensor<%s%s> -> (tensor<%s%s>, tensor<%si32>)\n"
                     "  func.return %%v, %%i : tensor<%s%s>, tensor<%si32>\n}\n",
                     shapes[j][0], ty, oshape, ty, oshape, shapes[j][1], shapes[j][0], ty, oshape, ty, oshape, oshape,
                     ty, oshape);
            run_src(s, 200 + 10 * i + j);
        }
}

/* the custom-call forms: @mhlo.topk with mhlo.attributes (largest false:
 * the smallest, ascending), tt-mlir's backend_config, XLA's @TopK */
static void test_k_sort_top_k_custom_calls(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<5x10xf32>) -> (tensor<5x8xf32>, tensor<5x8xi32>) {\n"
            "  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 8 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<5x10xf32>) -> (tensor<5x8xf32>, tensor<5x8xi32>)\n"
            "  func.return %0#0, %0#1 : tensor<5x8xf32>, tensor<5x8xi32>\n}\n",
            300);
    run_src("func.func @main(%x: tensor<6x40xbf16>) -> (tensor<6x5xbf16>, tensor<6x5xi32>) {\n"
            "  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 5 : i64, largest = false}} : (tensor<6x40xbf16>) -> (tensor<6x5xbf16>, tensor<6x5xi32>)\n"
            "  func.return %0#0, %0#1 : tensor<6x5xbf16>, tensor<6x5xi32>\n}\n",
            301);
    run_src("func.func @main(%x: tensor<4x16xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xi32>) {\n"
            "  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {backend_config = \"{\\\"k\\\": 8, \\\"dim\\\": -1, \\\"largest\\\": true, \\\"sorted\\\": true}\"} : (tensor<4x16xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xi32>)\n"
            "  func.return %0#0, %0#1 : tensor<4x8xbf16>, tensor<4x8xi32>\n}\n",
            302);
    run_src("func.func private @cmp(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {\n"
            "  %0 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
            "  func.return %0 : tensor<i1>\n}\n"
            "func.func @main(%x: tensor<7x33xf32>) -> (tensor<7x4xf32>, tensor<7x4xi32>) {\n"
            "  %0:2 = stablehlo.custom_call @TopK(%x) {called_computations = [@cmp]} : (tensor<7x33xf32>) -> (tensor<7x4xf32>, tensor<7x4xi32>)\n"
            "  func.return %0#0, %0#1 : tensor<7x4xf32>, tensor<7x4xi32>\n}\n",
            303);
}

/* ------------------------------------------------------------- refusals */

static void expect_refused(const char *src, const char *frag)
{
    struct graph_module *m = prog_parse(src);
    const struct graph_op *f = graph_module_entry(m);
    const struct graph_block *b = &f->regions[0].blocks[0];
    struct chip_desc chip;
    kt_load_chip("trn2", &chip);
    struct cc_target t;
    cc_target_init(&t, &chip);
    char why[256];
    bool found = false;
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (op->kind != GRAPH_OP_SORT && op->kind != GRAPH_OP_CHLO_TOP_K) continue;
        found = true;
        assert_false(cc_sort_op_supported(op, &t, why, sizeof why));
        if (!strstr(why, frag)) fail_msg("reason '%s' lacks '%s'", why, frag);
    }
    assert_true(found);
    graph_module_destroy(m);
}

/* a FLOAT compare of float keys (NaN unordered), a comparator that is no
 * lexicographic order, keys that are different functions, and a row too
 * long for the scratchpad: the host runs them, and coverage says why */
static void test_k_sort_refusals_name_the_reason(void **state)
{
    (void)state;
    expect_refused("func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
                   "  %r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64}> ({\n"
                   "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                   "      %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                   "      stablehlo.return %p : tensor<i1>\n"
                   "  }) : (tensor<8xf32>) -> tensor<8xf32>\n"
                   "  func.return %r : tensor<8xf32>\n}\n",
                   "FLOAT compare of float keys");
    expect_refused("func.func @main(%x: tensor<8xi32>) -> tensor<8xi32> {\n"
                   "  %r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64}> ({\n"
                   "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
                   "      %p = stablehlo.compare LE, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                   "      stablehlo.return %p : tensor<i1>\n"
                   "  }) : (tensor<8xi32>) -> tensor<8xi32>\n"
                   "  func.return %r : tensor<8xi32>\n}\n",
                   "no lexicographic order");
    expect_refused("func.func @main(%x: tensor<8xi32>) -> tensor<8xi32> {\n"
                   "  %r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64}> ({\n"
                   "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
                   "      %n = stablehlo.negate %b : tensor<i32>\n"
                   "      %p = stablehlo.compare LT, %a, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                   "      stablehlo.return %p : tensor<i1>\n"
                   "  }) : (tensor<8xi32>) -> tensor<8xi32>\n"
                   "  func.return %r : tensor<8xi32>\n}\n",
                   "different functions");
    expect_refused("func.func @main(%x: tensor<2x200000xf32>) -> tensor<2x200000xf32> {\n"
                   "  %r = \"stablehlo.sort\"(%x) <{dimension = 1 : i64}> ({\n"
                   "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                   "      %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                   "      stablehlo.return %p : tensor<i1>\n"
                   "  }) : (tensor<2x200000xf32>) -> tensor<2x200000xf32>\n"
                   "  func.return %r : tensor<2x200000xf32>\n}\n",
                   "does not fit a partition of the scratchpad");
}


/* ------------------------------------------------------- through the plan */

/* src compiled for chip_name (all cores) and run: functional against the
 * interpreter bit for bit (inputs with ties and special values), or
 * timing-only; the report in *rep (rt_report_free it); the plan's kernel
 * names in names (comma separated). */
static void e2e_mode(const char *src, const char *chip_name, enum cc_mode mode, uint64_t seed, bool timing_only,
                     struct rt_report *rep, char *names, size_t cap)
{
    struct graph_module *m = prog_parse(src);
    struct chip_desc chip;
    kt_load_chip(chip_name, &chip);
    struct cc_options o;
    cc_options_default(&o);
    o.mode = mode;
    struct cc_plan *plan = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (cc_compile(m, &chip, &o, &plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile on %s", chip_name);
    }
    if (names) {
        names[0] = 0;
        for (uint32_t k = 0; k < cc_plan_n_kernels(plan); k++)
            snprintf(names + strlen(names), cap - strlen(names), "%s%s", k ? "," : "", cc_plan_kernel_info(plan, k)->name);
    }
    const struct graph_block *b = &graph_module_entry(m)->regions[0].blocks[0];
    struct base_tensor *in[8] = {NULL};
    for (int i = 0; i < b->n_args && !timing_only; i++) {
        const struct graph_type *t = b->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        fill_special(in[i], seed * 977 + (uint64_t)i);
    }
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = timing_only;
    struct sim *s = NULL;
    assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = timing_only;
    struct base_tensor *outs[8] = {NULL};
    if (rt_run(plan, s, in, b->n_args, &ro, outs, rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run on %s", chip_name);
    }
    sim_destroy(s);
    if (!timing_only) {
        struct interp_options io;
        memset(&io, 0, sizeof io);
        struct interp_result gold;
        assert_int_equal(interp_run(m, NULL, in, b->n_args, &io, &gold, &d), BASE_OK);
        for (int i = 0; i < gold.n_outputs; i++) {
            char what[96];
            snprintf(what, sizeof what, "%s plan output %d", chip_name, i);
            kt_compare(outs[i], gold.outputs[i], 0, what);
        }
        interp_result_free(&gold);
    }
    for (int i = 0; i < 8; i++) {
        base_tensor_release(in[i]);
        base_tensor_release(outs[i]);
    }
    cc_plan_destroy(plan);
    graph_module_destroy(m);
}

static void e2e(const char *src, const char *chip_name, uint64_t seed, bool timing_only, struct rt_report *rep,
                char *names, size_t cap)
{
    e2e_mode(src, chip_name, CC_MODE_COMPILED, seed, timing_only, rep, names, cap);
}

/* a sort of a transposed view with an iota payload, its results read through
 * slices (a prefix: the top-k path, the iota derived from the index) or
 * whole; every mode */
static void test_k_sort_views_slices_and_modes_through_the_plan(void **state)
{
    (void)state;
    static const char *const prefix =
        "func.func @main(%x: tensor<40x33x3xf32>) -> (tensor<3x4x40xf32>, tensor<3x3x40xi32>) {\n"
        "  %t = stablehlo.transpose %x, dims = [2, 1, 0] : (tensor<40x33x3xf32>) -> tensor<3x33x40xf32>\n"
        "  %io = stablehlo.iota dim = 1 : tensor<3x33x40xi32>\n"
        "  %s:2 = \"stablehlo.sort\"(%t, %io) <{dimension = 1 : i64}> ({\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
        "      %p = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "      stablehlo.return %p : tensor<i1>\n"
        "  }) : (tensor<3x33x40xf32>, tensor<3x33x40xi32>) -> (tensor<3x33x40xf32>, tensor<3x33x40xi32>)\n"
        "  %v = stablehlo.slice %s#0 [0:3, 2:6, 0:40] : (tensor<3x33x40xf32>) -> tensor<3x4x40xf32>\n"
        "  %i = stablehlo.slice %s#1 [0:3, 0:3, 0:40] : (tensor<3x33x40xi32>) -> tensor<3x3x40xi32>\n"
        "  func.return %v, %i : tensor<3x4x40xf32>, tensor<3x3x40xi32>\n}\n";
    static const char *const whole =
        "func.func @main(%x: tensor<40x33x3xf32>) -> (tensor<3x33x40xf32>, tensor<3x3x40xi32>) {\n"
        "  %t = stablehlo.transpose %x, dims = [2, 1, 0] : (tensor<40x33x3xf32>) -> tensor<3x33x40xf32>\n"
        "  %io = stablehlo.iota dim = 1 : tensor<3x33x40xi32>\n"
        "  %s:2 = \"stablehlo.sort\"(%t, %io) <{dimension = 1 : i64}> ({\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
        "      %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "      stablehlo.return %p : tensor<i1>\n"
        "  }) : (tensor<3x33x40xf32>, tensor<3x33x40xi32>) -> (tensor<3x33x40xf32>, tensor<3x33x40xi32>)\n"
        "  %i = stablehlo.slice %s#1 [0:3, 0:3, 0:40] : (tensor<3x33x40xi32>) -> tensor<3x3x40xi32>\n"
        "  func.return %s#0, %i : tensor<3x33x40xf32>, tensor<3x3x40xi32>\n}\n";
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++)
        for (int mode = 0; mode < CC_MODE_COUNT; mode++) {
            struct rt_report rep;
            e2e_mode(prefix, chips[c], (enum cc_mode)mode, 600 + (uint64_t)mode, false, &rep, NULL, 0);
            assert_int_equal(rep.host_ops, 0);
            rt_report_free(&rep);
            e2e_mode(whole, chips[c], (enum cc_mode)mode, 610 + (uint64_t)mode, false, &rep, NULL, 0);
            assert_int_equal(rep.host_ops, 0);
            rt_report_free(&rep);
        }
}

/* MoE routing as JAX writes it (lax.top_k: chlo.top_k) and as torch_xla
 * does (XLA's TopK lowering: a sort of the logits with an iota of indices,
 * XLA's comparator, then slices of the first k): 4096 tokens x 64 experts,
 * top-8 with indices. */
#define MOE_CHLO                                                                                                \
    "func.func @main(%l: tensor<4096x64xf32>) -> (tensor<4096x8xf32>, tensor<4096x8xi32>) {\n"                  \
    "  %v, %i = chlo.top_k(%l, k = 8) : tensor<4096x64xf32> -> (tensor<4096x8xf32>, tensor<4096x8xi32>)\n"      \
    "  func.return %v, %i : tensor<4096x8xf32>, tensor<4096x8xi32>\n}\n"
#define MOE_SORT_SLICE                                                                                          \
    "func.func @main(%l: tensor<4096x64xf32>) -> (tensor<4096x8xf32>, tensor<4096x8xi32>) {\n"                  \
    "  %io = stablehlo.iota dim = 1 : tensor<4096x64xi32>\n"                                                    \
    "  %s:2 = \"stablehlo.sort\"(%l, %io) <{dimension = 1 : i64, is_stable = true}> ({\n"                       \
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"                           \
    "      %t = stablehlo.constant dense<true> : tensor<i1>\n"                                                  \
    "      %g = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"           \
    "      %p = stablehlo.select %t, %g, %t : tensor<i1>, tensor<i1>\n"                                         \
    "      stablehlo.return %p : tensor<i1>\n"                                                                  \
    "  }) : (tensor<4096x64xf32>, tensor<4096x64xi32>) -> (tensor<4096x64xf32>, tensor<4096x64xi32>)\n"         \
    "  %v = stablehlo.slice %s#0 [0:4096, 0:8] : (tensor<4096x64xf32>) -> tensor<4096x8xf32>\n"                 \
    "  %i = stablehlo.slice %s#1 [0:4096, 0:8] : (tensor<4096x64xi32>) -> tensor<4096x8xi32>\n"                 \
    "  func.return %v, %i : tensor<4096x8xf32>, tensor<4096x8xi32>\n}\n"

static void test_k_sort_moe_top8_of_64_experts_through_the_plan(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    char names[512];
    for (int c = 0; c < 2; c++) {
        struct rt_report rep;
        e2e(MOE_CHLO, chips[c], 500 + (uint64_t)c, false, &rep, names, sizeof names);
        assert_int_equal(rep.host_ops, 0);
        rt_report_free(&rep);
        e2e(MOE_SORT_SLICE, chips[c], 510 + (uint64_t)c, false, &rep, names, sizeof names);
        assert_int_equal(rep.host_ops, 0);
        if (!strstr(names, "sort")) fail_msg("kernels: %s", names);
        rt_report_free(&rep);
    }
}

/* The host's time for an op (the runtime's host step): dispatch, operands
 * and results over the host link, result elements at the host's rate. */
static uint64_t host_fallback_ps(const struct chip_desc *chip, double bytes, double elems)
{
    const struct chip_host_desc *h = &chip->host;
    return h->dispatch_overhead_ps + event_bytes_to_ps(bytes, h->pcie_bytes_per_ns) +
           event_bytes_to_ps(elems, h->fallback_elems_per_ns);
}

/* the figures of docs/compiler.md "Kernels: sort": the MoE top-8 on trn2
 * and tpu-v6e (device time of the sort kernel, timing-only) against the host
 * fallback of the same op; the partial network beats a full sort */
static void test_k_sort_moe_top8_timing_vs_host(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v6e", "tpu-v5e"};
    for (int c = 0; c < 3; c++) {
        struct chip_desc chip;
        kt_load_chip(chips[c], &chip);
        struct rt_report rep, full;
        char names[512];
        e2e(MOE_CHLO, chips[c], 0, true, &rep, names, sizeof names);
        assert_int_equal(rep.n_kernels, 1);
        uint64_t topk_ps = rep.kernels[0].time_ps;
        /* the same rows fully sorted (values and indices) */
        e2e("func.func @main(%l: tensor<4096x64xf32>) -> (tensor<4096x64xf32>, tensor<4096x64xi32>) {\n"
            "  %v, %i = chlo.top_k(%l, k = 64) : tensor<4096x64xf32> -> (tensor<4096x64xf32>, tensor<4096x64xi32>)\n"
            "  func.return %v, %i : tensor<4096x64xf32>, tensor<4096x64xi32>\n}\n",
            chips[c], 0, true, &full, NULL, 0);
        uint64_t full_ps = full.kernels[0].time_ps;
        double bytes = 4096.0 * 64 * 4 + 4096.0 * 8 * (4 + 4);
        uint64_t host_ps = host_fallback_ps(&chip, bytes, 4096.0 * 8 * 2);
        printf("    moe top-8 of 4096x64 f32 on %s: %.2f us on chip (full sort %.2f us); host fallback %.2f us\n",
               chips[c], topk_ps / 1e6, full_ps / 1e6, host_ps / 1e6);
        assert_true(topk_ps < full_ps);
        assert_true(topk_ps < host_ps);
        rt_report_free(&rep);
        rt_report_free(&full);
    }
}

/* The cost model (docs/compiler.md "Kernels: sort"): one instruction of P
 * partitions x F elements of the slowest type dt on engine e takes
 * D + ceil(P / lanes) ceil(F / epc) cycles (epc: the two-input rate for
 * binary and select). */
static uint64_t instr_ps(const struct chip_desc *chip, int engine, uint32_t P, int64_t F, enum base_dtype dt, bool two_in)
{
    const struct chip_engine_desc *e = &chip->engines[engine];
    enum chip_rate_class rc = chip_rate_class_of(dt);
    double epc = two_in && e->elems_per_cycle_2in[rc] > 0 ? e->elems_per_cycle_2in[rc] : e->elems_per_cycle[rc];
    uint64_t cycles = e->dispatch_cycles + (uint64_t)((P + e->lanes - 1) / e->lanes) * (uint64_t)ceil((double)F / epc);
    return event_cycles_to_ps(cycles, e->clock_ghz);
}

/* The network of a full sort of rows of n = 2^q, r per partition, on one
 * unit: q(q+1)/2 steps, each over F = r n / 2 pairs: the mask (with the
 * index: ilt of the indices, then per key ieq, ilt/igt and a select of the
 * ui8 masks; without: the last key's compare alone, then 3 per key), then
 * two selects per carried tile (types tdt[0 .. carried)). */
static uint64_t closed_form_network_ps(const struct chip_desc *chip, int engine, uint32_t P, int64_t r, int q,
                                       int keys, bool tie, enum base_dtype kdt, enum base_dtype idt, int carried,
                                       const enum base_dtype *tdt)
{
    int64_t F = r * ((int64_t)1 << q) / 2;
    int key_cmps = tie ? 2 * keys : 2 * keys - 1, mask_selects = tie ? keys : keys - 1;
    uint64_t step = (uint64_t)key_cmps * instr_ps(chip, engine, P, F, kdt, true) +
                    (tie ? instr_ps(chip, engine, P, F, idt, true) : 0) +
                    (uint64_t)mask_selects * instr_ps(chip, engine, P, F, BASE_DT_UI8, true);
    for (int i = 0; i < carried; i++) step += 2 * instr_ps(chip, engine, P, F, tdt[i], true);
    return (uint64_t)(q * (q + 1) / 2) * step;
}

/* Busy time of one engine of core 0 (its instructions' intervals: an
 * in-order engine's do not overlap). */
struct busy {
    uint32_t engine;
    uint64_t last_end, ps;
};

static void busy_on_instr(void *user, uint64_t now_ps, const struct sim_instr_record *r)
{
    (void)now_ps;
    struct busy *b = user;
    if (r->core != 0 || r->engine != b->engine) return;
    uint64_t s0 = r->start_ps > b->last_end ? r->start_ps : b->last_end;
    if (r->end_ps > s0) b->ps += r->end_ps - s0;
    if (r->end_ps > b->last_end) b->last_end = r->end_ps;
}

static uint64_t engine_busy(struct kt *t, const struct chip_desc *chip, int engine, struct kt_run *r)
{
    struct busy b = {(uint32_t)engine, 0, 0};
    struct sim_hooks h = {&b, busy_on_instr, NULL, NULL};
    kt_run_hooks(t, chip, cc_emit_sort, true, 1, r, &h);
    return b.ps;
}

static void test_k_sort_timing_matches_closed_form(void **state)
{
    (void)state;
    /* i32 rows of 256 sorted descending: one key, the operand itself (no
     * index): 1 + 2 instructions per step; 128 rows x 2 per partition on
     * one tpu-v5e core, one unit */
    struct kt t;
    kt_parse(&t, "func.func @main(%x: tensor<256x256xi32>) -> tensor<256x256xi32> {\n"
                 "  %r = \"stablehlo.sort\"(%x) <{dimension = 1 : i64}> ({\n"
                 "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
                 "      %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                 "      stablehlo.return %p : tensor<i1>\n"
                 "  }) : (tensor<256x256xi32>) -> tensor<256x256xi32>\n"
                 "  func.return %r : tensor<256x256xi32>\n}\n",
             CC_K_SORT);
    struct chip_desc chip;
    kt_load_chip("tpu-v5e", &chip);
    struct cc_target tg;
    cc_target_init(&tg, &chip);
    struct kt_run r;
    uint64_t got = engine_busy(&t, &chip, tg.vec, &r);
    const enum base_dtype one_i32[1] = {BASE_DT_SI32};
    uint64_t want = closed_form_network_ps(&chip, tg.vec, 128, 2, 8, 1, false, BASE_DT_SI32, BASE_DT_SI32, 1, one_i32);
    printf("    256 x 256 i32 sort on tpu-v5e: vector engine %.3f us, closed form %.3f us; kernel %.3f us\n",
           got / 1e6, want / 1e6, r.st.total_ps / 1e6);
    assert_int_equal(got, want);
    kt_run_free(&r);
    kt_free(&t);
    /* f32 keys (total order) with the index: 3 + 1 mask instructions, two
     * carried tiles (the key, the index); the value is the key's inverse */
    kt_parse(&t, "func.func @main(%x: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xi32>) {\n"
                 "  %v, %i = chlo.top_k(%x, k = 64) : tensor<128x64xf32> -> (tensor<128x64xf32>, tensor<128x64xi32>)\n"
                 "  func.return %v, %i : tensor<128x64xf32>, tensor<128x64xi32>\n}\n",
             CC_K_SORT);
    kt_load_chip("trn2", &chip);
    cc_target_init(&tg, &chip);
    uint64_t vec = engine_busy(&t, &chip, tg.vec, &r);
    /* the unit runs on trn2's vector engine; the index is ui8 (rows of 64);
     * around the network: the index row (iota) and its copy into the tile,
     * the key (total-order transform: tensor_scalar + ixor), and at the end
     * the indices converted to i32 and the values' inverse transform */
    const enum base_dtype tiles[2] = {BASE_DT_SI32, BASE_DT_UI8};
    uint64_t net = closed_form_network_ps(&chip, tg.vec, 128, 1, 6, 1, true, BASE_DT_SI32, BASE_DT_UI8, 2, tiles);
    uint64_t one = instr_ps(&chip, tg.vec, 128, 64, BASE_DT_SI32, false), two = instr_ps(&chip, tg.vec, 128, 64, BASE_DT_SI32, true);
    uint64_t one8 = instr_ps(&chip, tg.vec, 128, 64, BASE_DT_UI8, false);
    uint64_t want2 = net + 2 * one8 + (one + two) + one + (one + two);
    printf("    128 x 64 f32 full top-k on trn2: vector engine %.3f us, closed form %.3f us (network %.3f us)\n",
           vec / 1e6, want2 / 1e6, net / 1e6);
    assert_int_equal(vec, want2);
    kt_run_free(&r);
    kt_free(&t);
}

/* Long rows of a top-k (a sampler's top-k over a vocabulary) split into
 * segments across partitions, two levels: f32 over 32000 (a row trn2 could
 * not hold whole), bf16 over 151936 with a short last segment (sentinels),
 * i32 and ui32 keys ascending and descending, a key with a payload read
 * through prefix slices. */
static void test_k_sort_top_k_of_long_rows_in_segments(void **state)
{
    (void)state;
    run_src("func.func @main(%x: tensor<4x32000xf32>) -> (tensor<4x50xf32>, tensor<4x50xi32>) {\n"
            "  %v, %i = chlo.top_k(%x, k = 50) : tensor<4x32000xf32> -> (tensor<4x50xf32>, tensor<4x50xi32>)\n"
            "  func.return %v, %i : tensor<4x50xf32>, tensor<4x50xi32>\n}\n",
            700);
    run_src("func.func @main(%x: tensor<1x151936xbf16>) -> (tensor<1x40xbf16>, tensor<1x40xi32>) {\n"
            "  %v, %i = chlo.top_k(%x, k = 40) : tensor<1x151936xbf16> -> (tensor<1x40xbf16>, tensor<1x40xi32>)\n"
            "  func.return %v, %i : tensor<1x40xbf16>, tensor<1x40xi32>\n}\n",
            701);
    run_src("func.func @main(%x: tensor<3x5001xi32>) -> (tensor<3x7xi32>, tensor<3x7xi64>) {\n"
            "  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 7 : i64, largest = false}} : (tensor<3x5001xi32>) -> (tensor<3x7xi32>, tensor<3x7xi64>)\n"
            "  func.return %0#0, %0#1 : tensor<3x7xi32>, tensor<3x7xi64>\n}\n",
            702);
    run_src("func.func @main(%x: tensor<2x3000xui32>) -> (tensor<2x16xui32>, tensor<2x16xi32>) {\n"
            "  %v, %i = chlo.top_k(%x, k = 16) : tensor<2x3000xui32> -> (tensor<2x16xui32>, tensor<2x16xi32>)\n"
            "  func.return %v, %i : tensor<2x16xui32>, tensor<2x16xi32>\n}\n",
            703);
    /* the sentinels matter: the k smallest of values all above 0, and the k
     * largest of values that all equal the lowest key (-NaN with every
     * payload bit: ties decided by the index) */
    struct kt t;
    kt_parse(&t, "func.func @main(%x: tensor<1x1001xi32>) -> (tensor<1x5xi32>, tensor<1x5xi32>) {\n"
                 "  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 5 : i64, largest = false}} : (tensor<1x1001xi32>) -> (tensor<1x5xi32>, tensor<1x5xi32>)\n"
                 "  func.return %0#0, %0#1 : tensor<1x5xi32>, tensor<1x5xi32>\n}\n",
             CC_K_SORT);
    kt_random_inputs(&t, 720, 1.0);
    for (int64_t i = 0; i < 1001; i++) base_elem_set_i64(BASE_DT_SI32, t.args[0]->data, (size_t)i, 5000 + (i * 37) % 1001);
    kt_check_both(&t, cc_emit_sort, 0);
    kt_free(&t);
    kt_parse(&t, "func.func @main(%x: tensor<2x999xf32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {\n"
                 "  %v, %i = chlo.top_k(%x, k = 5) : tensor<2x999xf32> -> (tensor<2x5xf32>, tensor<2x5xi32>)\n"
                 "  func.return %v, %i : tensor<2x5xf32>, tensor<2x5xi32>\n}\n",
             CC_K_SORT);
    kt_random_inputs(&t, 721, 1.0);
    for (int64_t i = 0; i < 2 * 999; i++) base_elem_set_bits(BASE_DT_F32, t.args[0]->data, (size_t)i, 0xFFFFFFFFu);
    kt_check_both(&t, cc_emit_sort, 0);
    kt_free(&t);
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++) {
        struct rt_report rep;
        e2e("func.func @main(%x: tensor<3x9000xf32>, %y: tensor<3x9000xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {\n"
            "  %s:2 = \"stablehlo.sort\"(%x, %y) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
            "      %p = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<3x9000xf32>, tensor<3x9000xi32>) -> (tensor<3x9000xf32>, tensor<3x9000xi32>)\n"
            "  %v = stablehlo.slice %s#0 [0:3, 0:5] : (tensor<3x9000xf32>) -> tensor<3x5xf32>\n"
            "  %i = stablehlo.slice %s#1 [0:3, 0:5] : (tensor<3x9000xi32>) -> tensor<3x5xi32>\n"
            "  func.return %v, %i : tensor<3x5xf32>, tensor<3x5xi32>\n}\n",
            chips[c], 710 + (uint64_t)c, false, &rep, NULL, 0);
        assert_int_equal(rep.host_ops, 0);
        rt_report_free(&rep);
        /* i8 keys, an f32 iota payload (the index, less its row offset, converted) */
        e2e("func.func @main(%x: tensor<2x5000xi8>) -> (tensor<2x9xi8>, tensor<2x9xf32>) {\n"
            "  %io = stablehlo.iota dim = 1 : tensor<2x5000xf32>\n"
            "  %s:2 = \"stablehlo.sort\"(%x, %io) <{dimension = 1 : i64}> ({\n"
            "    ^bb0(%a: tensor<i8>, %b: tensor<i8>, %c: tensor<f32>, %d: tensor<f32>):\n"
            "      %p = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>\n"
            "      stablehlo.return %p : tensor<i1>\n"
            "  }) : (tensor<2x5000xi8>, tensor<2x5000xf32>) -> (tensor<2x5000xi8>, tensor<2x5000xf32>)\n"
            "  %v = stablehlo.slice %s#0 [0:2, 0:9] : (tensor<2x5000xi8>) -> tensor<2x9xi8>\n"
            "  %i = stablehlo.slice %s#1 [0:2, 0:9] : (tensor<2x5000xf32>) -> tensor<2x9xf32>\n"
            "  func.return %v, %i : tensor<2x9xi8>, tensor<2x9xf32>\n}\n",
            chips[c], 720 + (uint64_t)c, false, &rep, NULL, 0);
        assert_int_equal(rep.host_ops, 0);
        rt_report_free(&rep);
    }
}

TEST_MAIN(NULL, NULL, T(test_k_sort_top_k_of_long_rows_in_segments), T(test_k_sort_views_slices_and_modes_through_the_plan),
          T(test_k_sort_moe_top8_of_64_experts_through_the_plan), T(test_k_sort_moe_top8_timing_vs_host),
          T(test_k_sort_timing_matches_closed_form), T(test_k_sort_f32_rows_and_columns_jax_comparator), T(test_k_sort_dtypes_dims_and_directions),
          T(test_k_sort_ragged_and_long_rows), T(test_k_sort_three_operands_lexicographic),
          T(test_k_sort_two_operands_key_and_payload), T(test_k_sort_xla_comparator_f16),
          T(test_k_sort_key_not_first_and_mirrored_compares), T(test_k_sort_computed_keys),
          T(test_k_sort_degenerate_and_interpreter_suite), T(test_k_sort_chlo_top_k_dtypes),
          T(test_k_sort_top_k_custom_calls), T(test_k_sort_refusals_name_the_reason))
