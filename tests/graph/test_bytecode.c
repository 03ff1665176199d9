/* StableHLO portable artifacts (MLIR bytecode, VHLO): every bundled .mlir.bc
 * reads to the module its StableHLO text counterpart parses to (function by
 * function), verifies where the text does, and runs to the same outputs in
 * the interpreter; truncated and corrupted files give located errors; the
 * `npusim parse` command reads them.  Test files: tests/data/bytecode/
 * (SOURCE.txt names their origin). */
#include "tests/harness.h"

#include "graph/bytecode_internal.h"
#include "graph/graph.h"
#include "interp/interp.h"

#include <limits.h>
#include <stdio.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Files                                                                     */

/* tests/data/bytecode/<name>, from build/<b>/tests/graph/test_bytecode. */
static const char *data_path(const char *name)
{
    static char buf[PATH_MAX + 256];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = 0;
    for (int i = 0; i < 5; i++) *strrchr(exe, '/') = 0;
    snprintf(buf, sizeof buf, "%s/tests/data/bytecode/%s", exe, name);
    return buf;
}

static char *read_all(const char *path, size_t *len)
{
    char *text;
    struct base_diag d;
    base_diag_clear(&d);
    if (base_file_read(path, &text, len, &d) != BASE_OK) fail_msg("cannot read %s: %s", path, d.msg);
    return text;
}

static struct graph_module *load(const char *path, bool expect_ok)
{
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse_file(path, &m, &d);
    if (expect_ok && st != BASE_OK) fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return m;
}

/* ------------------------------------------------------------------------ */
/* Function-by-function equality                                             */

static const char *fname(const struct graph_op *op)
{
    return op->kind == GRAPH_OP_FUNC ? graph_func_name(op) : NULL;
}

static struct graph_op *find_func(struct graph_module *m, const char *name)
{
    for (int i = 0; i < m->body.n_ops; i++) {
        const char *n = fname(m->body.ops[i]);
        if (n && !strcmp(n, name)) return m->body.ops[i];
    }
    return NULL;
}

/* Compares one function of each module (the modules' bodies narrowed to it). */
static bool func_equal(struct graph_module *a, struct graph_op *fa, struct graph_module *b, struct graph_op *fb)
{
    struct graph_block sa = a->body, sb = b->body;
    a->body.ops = &fa;
    a->body.n_ops = 1;
    b->body.ops = &fb;
    b->body.n_ops = 1;
    bool eq = graph_module_equal(a, b);
    a->body = sa;
    b->body = sb;
    return eq;
}

/* Functions of the upstream test files whose text and bytecode differ only in
 * the spelling MLIR's printer normalises, which npusim's parser keeps:
 *  - an explicit attribute at its default value (custom_call api_version = 1,
 *    a default result_accuracy): `stablehlo-translate --deserialize` drops it;
 *  - #stablehlo.type_extensions<bounds = [..]>, which MLIR prints (and npusim
 *    writes) as #stablehlo.bounds<..>;
 *  - a float spelled 1.000000e-5 inside an opaque attribute (1.000000e-05). */
static const char *const known_spelling[] = {
    "attr_custom_call_api_version_original", /* api_version = 1 : i32 written out */
    "attr_type_extensions_bounds",           /* #stablehlo.type_extensions<bounds = [16, ?]> */
    "exponential_DEFAULT",                   /* a default result_accuracy written out */
    "exponential_TOLERANCE",                 /* atol = 1.000000e-5 */
    NULL,
};

static bool is_known(const char *name)
{
    for (int i = 0; known_spelling[i]; i++)
        if (!strcmp(name, known_spelling[i])) return true;
    return false;
}

/* Every function of the text module has an equal function in the bytecode
 * one (and the counts agree); returns how many were compared. */
static int compare_modules(struct graph_module *text, struct graph_module *bc, const char *what)
{
    int n_text = 0, n_bc = 0, compared = 0, bad = 0;
    char first_bad[256] = "";
    for (int i = 0; i < bc->body.n_ops; i++) n_bc += fname(bc->body.ops[i]) != NULL;
    for (int i = 0; i < text->body.n_ops; i++) {
        struct graph_op *f = text->body.ops[i];
        const char *n = fname(f);
        if (!n) continue;
        n_text++;
        struct graph_op *g = find_func(bc, n);
        if (!g) fail_msg("%s: function @%s is missing from the bytecode module", what, n);
        if (func_equal(text, f, bc, g)) {
            compared++;
        } else if (!is_known(n)) {
            print_message("%s: @%s differs from the text\n", what, n);
            if (!bad++) snprintf(first_bad, sizeof first_bad, "%s", n);
        }
    }
    if (bad) fail_msg("%s: %d functions differ from the text, first @%s", what, bad, first_bad);
    if (n_text != n_bc) fail_msg("%s: %d functions in the text, %d in the bytecode", what, n_text, n_bc);
    return compared;
}

/* Ops a run with random inputs may not finish or may not mean anything for:
 * loops (a random bound), calls out, collectives, unknown ops. */
static bool runnable(const struct graph_op *op, int depth)
{
    if (depth > 32) return false;
    if (op->kind == GRAPH_OP_WHILE || op->kind == GRAPH_OP_CUSTOM_CALL || op->kind == GRAPH_OP_UNKNOWN ||
        graph_op_kind_cat(op->kind) == GRAPH_CAT_COLLECTIVE)
        return false;
    for (int r = 0; r < op->n_regions; r++)
        for (int b = 0; b < op->regions[r].n_blocks; b++)
            for (int k = 0; k < op->regions[r].blocks[b].n_ops; k++)
                if (!runnable(op->regions[r].blocks[b].ops[k], depth + 1)) return false;
    return true;
}

/* Runs every function whose arguments are static tensors on both modules
 * (random inputs, fixed seed): both fail, or both give bit-equal outputs. */
static int compare_runs(struct graph_module *text, struct graph_module *bc, const char *what)
{
    int ran = 0;
    for (int i = 0; i < text->body.n_ops; i++) {
        struct graph_op *f = text->body.ops[i];
        const char *n = fname(f);
        if (!n || !f->n_regions || !f->regions[0].n_blocks || !runnable(f, 0)) continue;
        const struct graph_block *entry = &f->regions[0].blocks[0];
        int na = entry->n_args;
        struct base_tensor **in = calloc((size_t)(na ? na : 1), sizeof *in);
        assert_non_null(in);
        bool ok = true;
        for (int k = 0; k < na && ok; k++) {
            const struct graph_type *t = entry->args[k].type;
            if (t->kind != GRAPH_TYPE_TENSOR || t->quant || !graph_type_is_static(t) || graph_type_count(t) > 4096) {
                ok = false;
                break;
            }
            if (base_tensor_create(t->elem, t->rank, t->dims, &in[k]) != BASE_OK) ok = false;
            else base_tensor_fill_random(in[k], 7u + (uint64_t)k, 1.0);
        }
        if (ok) {
            struct interp_options opt;
            memset(&opt, 0, sizeof opt);
            opt.seed = 1;
            struct interp_result ra, rb;
            memset(&ra, 0, sizeof ra);
            memset(&rb, 0, sizeof rb);
            struct base_diag da, db;
            base_diag_clear(&da);
            base_diag_clear(&db);
            enum base_status sa = interp_run(text, n, in, na, &opt, &ra, &da);
            enum base_status sb = interp_run(bc, n, in, na, &opt, &rb, &db);
            if ((sa == BASE_OK) != (sb == BASE_OK))
                fail_msg("%s: @%s runs from the text (%s) but not from the bytecode (%s), or back", what, n,
                         sa == BASE_OK ? "ok" : da.msg, sb == BASE_OK ? "ok" : db.msg);
            if (sa == BASE_OK) {
                assert_int_equal(ra.n_outputs, rb.n_outputs);
                for (int k = 0; k < ra.n_outputs; k++) {
                    const struct base_tensor *x = ra.outputs[k], *y = rb.outputs[k];
                    if (x->dtype != y->dtype || base_tensor_nbytes(x) != base_tensor_nbytes(y) ||
                        memcmp(x->data, y->data, base_tensor_nbytes(x)))
                        fail_msg("%s: @%s output %d differs between text and bytecode", what, n, k);
                }
                ran++;
            }
            interp_result_free(&ra);
            interp_result_free(&rb);
        }
        for (int k = 0; k < na; k++) base_tensor_release(in[k]);
        free(in);
    }
    return ran;
}

static void check_pair(const char *text_name, const char *bc_name, int min_funcs, bool run, int min_runs)
{
    char tp[PATH_MAX + 256], bp[PATH_MAX + 256];
    snprintf(tp, sizeof tp, "%s", data_path(text_name));
    snprintf(bp, sizeof bp, "%s", data_path(bc_name));
    struct graph_module *t = load(tp, true);
    struct graph_module *b = load(bp, true);
    int n = compare_modules(t, b, bc_name);
    if (n < min_funcs) fail_msg("%s: only %d functions compared equal (want %d)", bc_name, n, min_funcs);
    /* verification agrees */
    struct base_diag d1, d2;
    base_diag_clear(&d1);
    base_diag_clear(&d2);
    enum base_status v1 = graph_verify(t, &d1), v2 = graph_verify(b, &d2);
    if ((v1 == BASE_OK) != (v2 == BASE_OK)) fail_msg("%s: verify text %s, bytecode %s", bc_name, d1.msg, d2.msg);
    if (run) {
        int ran = compare_runs(t, b, bc_name);
        print_message("%s: %d functions equal, %d run to equal outputs\n", bc_name, n, ran);
        if (ran < min_runs) fail_msg("%s: only %d functions ran (want %d)", bc_name, ran, min_runs);
    }
    graph_module_destroy(t);
    graph_module_destroy(b);
}

/* ------------------------------------------------------------------------ */
/* Upstream pairs: stablehlo/tests/vhlo/stablehlo_legalize_to_vhlo.*         */

static void test_bytecode_v1_matches_text(void **state)
{
    (void)state; /* StableHLO 0.11.0: bytecode version 1 */
    check_pair("stablehlo_legalize_to_vhlo.0_11_0.mlir", "stablehlo_legalize_to_vhlo.0_11_0.mlir.bc", 150, true, 100);
}

static void test_bytecode_v3_matches_text(void **state)
{
    (void)state; /* StableHLO 0.12.0 (same program): bytecode version 3, use-list orders */
    check_pair("stablehlo_legalize_to_vhlo.0_11_0.mlir", "stablehlo_legalize_to_vhlo.0_12_0.mlir.bc", 150, false, 0);
}

static void test_bytecode_v4_matches_text(void **state)
{
    (void)state; /* StableHLO 0.14.0 (same program): bytecode version 4, elided argument locations */
    check_pair("stablehlo_legalize_to_vhlo.0_11_0.mlir", "stablehlo_legalize_to_vhlo.0_14_0.mlir.bc", 150, false, 0);
}

static void test_bytecode_v6_matches_text(void **state)
{
    (void)state; /* StableHLO 1.12.0: bytecode version 6, properties */
    check_pair("stablehlo_legalize_to_vhlo.1_12_0.mlir", "stablehlo_legalize_to_vhlo.1_12_0.mlir.bc", 200, true, 140);
}

static void test_bytecode_v0_reads(void **state)
{
    (void)state; /* StableHLO 0.9.0: bytecode version 0 */
    struct graph_module *m = load(data_path("stablehlo_legalize_to_vhlo.0_9_0.mlir.bc"), true);
    int n = 0;
    for (int i = 0; i < m->body.n_ops; i++) n += fname(m->body.ops[i]) != NULL;
    assert_int_equal(n, 192);
    assert_non_null(find_func(m, "op_dot_general"));
    graph_module_destroy(m);
}

static void test_bytecode_small_module(void **state)
{
    (void)state;
    check_pair("vhlo_emit_version_api.1_1_0.mlir", "vhlo_emit_version_api.1_1_0.mlir.bc", 1, true, 1);
}

/* ------------------------------------------------------------------------ */
/* JAX exports: jax.export artifacts with their texts                        */

static const char *const jax_cases[] = {
    "jax_stablehlo_dynamic_top_k", "jax_cuda_threefry2x32", "jax_tpu_ApproxTopK", "jax_tpu_Sharding",
    "jax_cpu_triangular_solve_blas_trsm", "jax_annotate_data_placement", NULL,
};

static void test_bytecode_jax_exports_match_text(void **state)
{
    (void)state; /* StableHLO 0.9.0 to 1.13.1, with Shardy meshes and shardings */
    for (int i = 0; jax_cases[i]; i++) {
        char t[128], b[128];
        snprintf(t, sizeof t, "%s.mlir", jax_cases[i]);
        snprintf(b, sizeof b, "%s.mlir.bc", jax_cases[i]);
        check_pair(t, b, 1, false, 0);
    }
}

/* Walks two equal op trees side by side: the ops have the same location
 * names, and where the text gives a file position directly (not through a
 * #loc alias, which npusim's text parser resolves to a name only) the same
 * position.  Returns how many bytecode ops carry a source position. */
static int compare_locs(const struct graph_op *a, const struct graph_op *b, const char *text_path, const char *bc_path)
{
    int n = 0;
    if (a->loc.file && strcmp(a->loc.file, text_path) &&
        (!b->loc.file || strcmp(a->loc.file, b->loc.file) || a->loc.line != b->loc.line || a->loc.col != b->loc.col))
        fail_msg("%s: %s at %s:%d:%d in the text, %s:%d:%d from bytecode", text_path, a->name, a->loc.file, a->loc.line,
                 a->loc.col, b->loc.file ? b->loc.file : "?", b->loc.line, b->loc.col);
    if (b->loc.file && strcmp(b->loc.file, bc_path)) n++;
    if ((a->loc.name == NULL) != (b->loc.name == NULL) || (a->loc.name && strcmp(a->loc.name, b->loc.name)))
        fail_msg("%s: %s named '%s' in the text, '%s' from bytecode", text_path, a->name, a->loc.name ? a->loc.name : "",
                 b->loc.name ? b->loc.name : "");
    for (int r = 0; r < a->n_regions; r++)
        for (int k = 0; k < a->regions[r].n_blocks; k++)
            for (int j = 0; j < a->regions[r].blocks[k].n_ops; j++)
                n += compare_locs(a->regions[r].blocks[k].ops[j], b->regions[r].blocks[k].ops[j], text_path, bc_path);
    return n;
}

static void test_bytecode_jax_locations_match_text(void **state)
{
    (void)state; /* the Python source positions and op names of the export */
    int located = 0;
    for (int i = 0; jax_cases[i]; i++) {
        char t[128], b[128];
        snprintf(t, sizeof t, "%s.mlir", jax_cases[i]);
        snprintf(b, sizeof b, "%s.mlir.bc", jax_cases[i]);
        char tp[PATH_MAX + 256], bp[PATH_MAX + 256];
        snprintf(tp, sizeof tp, "%s", data_path(t));
        snprintf(bp, sizeof bp, "%s", data_path(b));
        size_t len;
        char *text = read_all(tp, &len);
        struct graph_parse_options opt = {tp, 0, 0, true};
        struct graph_module *mt = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        if (graph_parse(text, len, &opt, &mt, &d) != BASE_OK) fail_msg("%s:%d: %s", d.file, d.line, d.msg);
        free(text);
        struct graph_module *mb = load(bp, true);
        assert_true(graph_module_equal(mt, mb) || !strcmp(jax_cases[i], "jax_tpu_Sharding"));
        for (int k = 0; k < mt->body.n_ops && k < mb->body.n_ops; k++)
            located += compare_locs(mt->body.ops[k], mb->body.ops[k], tp, bp);
        graph_module_destroy(mt);
        graph_module_destroy(mb);
    }
    print_message("%d ops located at their Python source positions\n", located);
    assert_true(located >= 20);
    /* %0 = call @_uniform(...) loc(#loc3), #loc3 = loc("jit(func)/..."(#loc2)),
     * #loc2 = loc("third_party/py/jax/tests/export_back_compat_test.py":592:13) */
    struct graph_module *m = load(data_path("jax_cuda_threefry2x32.mlir.bc"), true);
    struct graph_op *f = find_func(m, "main");
    assert_non_null(f);
    const struct graph_op *call = f->regions[0].blocks[0].ops[2];
    assert_string_equal(call->name, "func.call");
    assert_string_equal(call->loc.file, "third_party/py/jax/tests/export_back_compat_test.py");
    assert_int_equal(call->loc.line, 592);
    assert_int_equal(call->loc.col, 13);
    assert_non_null(call->loc.name);
    assert_true(!strncmp(call->loc.name, "jit(func)/jit(main)/pjit[", 25));
    graph_module_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* Hand-made files: a small writer of the format                             */

struct w {
    uint8_t buf[4096];
    size_t n;
};

static void w_byte(struct w *w, uint8_t b)
{
    assert_true(w->n < sizeof w->buf);
    w->buf[w->n++] = b;
}

static void w_bytes(struct w *w, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) w_byte(w, ((const uint8_t *)p)[i]);
}

/* PrefixVarInt: n bytes hold 7n bits, the low bits of the first a 1 after n-1 zeros */
static void w_varint(struct w *w, uint64_t v)
{
    for (int n = 1; n <= 8; n++)
        if (v < (UINT64_C(1) << (7 * n))) {
            uint64_t e = (v << n) | (UINT64_C(1) << (n - 1));
            for (int i = 0; i < n; i++) w_byte(w, (uint8_t)(e >> (8 * i)));
            return;
        }
    w_byte(w, 0);
    for (int i = 0; i < 8; i++) w_byte(w, (uint8_t)(v >> (8 * i)));
}

static void w_section(struct w *w, int id, const struct w *body)
{
    w_byte(w, (uint8_t)id);
    w_varint(w, body->n);
    w_bytes(w, body->buf, body->n);
}

/* An attribute or type entry: its bytes in `data`, its size in the offsets. */
static void w_entry(struct w *data, struct w *offs, const uint8_t *p, size_t n)
{
    w_bytes(data, p, n);
    w_varint(offs, (n << 1) | 1);
}

/* A module (bytecode 6): func @main returns a constant i1 tensor (bit-packed,
 * located by a NameLoc over a FileLineColLoc) and a dense_resource i32
 * constant (a blob of the resource section); `bomb` gives the first constant
 * an attribute that nests a shared array 40 levels deep (2^40 leaves). */
static size_t make_module(uint8_t *out, bool bomb)
{
    static const char *const strings[] = {"builtin", "vhlo", "module", "func_v1", "constant_v1", "return_v1",
                                          "main", "", "f.py", "op", "blob0", "x", "big"};
    enum { S_BUILTIN, S_VHLO, S_MODULE, S_FUNC, S_CONST, S_RET, S_MAIN, S_EMPTY, S_FILE, S_OP, S_BLOB, S_X, S_BIG };
    const int ns = (int)(sizeof strings / sizeof strings[0]);
    struct w f = {{0}, 0}, sec = {{0}, 0}, data = {{0}, 0}, offs = {{0}, 0};
    w_bytes(&f, "ML\xefR", 4);
    w_varint(&f, 6);
    w_bytes(&f, "npusim test", 12);
    /* dialects and op names */
    w_varint(&sec, 2);
    w_varint(&sec, S_BUILTIN << 1);
    w_varint(&sec, S_VHLO << 1);
    w_varint(&sec, 4);
    w_varint(&sec, 0), w_varint(&sec, 1), w_varint(&sec, (S_MODULE << 1) | 1);
    w_varint(&sec, 1), w_varint(&sec, 3);
    w_varint(&sec, (S_FUNC << 1) | 1), w_varint(&sec, (S_CONST << 1) | 1), w_varint(&sec, (S_RET << 1) | 1);
    w_section(&f, 1, &sec);
    /* attributes: builtin 0..6, then vhlo 7..; types: vhlo 0..2, builtin 3..4 */
    int n_bomb = bomb ? 41 : 0;
    int n_builtin = 7, n_vhlo = 5 + n_bomb;
    const uint8_t b0[] = {2 << 1 | 1, S_FILE << 1 | 1};               /* A0 "f.py" */
    const uint8_t b1[] = {11 << 1 | 1, 0 << 1 | 1, 3 << 1 | 1, 7 << 1 | 1}; /* A1 f.py:3:7 */
    const uint8_t b2[] = {2 << 1 | 1, S_OP << 1 | 1};                 /* A2 "op" */
    const uint8_t b3[] = {14 << 1 | 1, 2 << 1 | 1, 1 << 1 | 1};       /* A3 "op"(A1) */
    const uint8_t b4[] = {15 << 1 | 1};                               /* A4 unknown */
    const uint8_t b5[] = {16 << 1 | 1, 4 << 1 | 1, 0 << 1 | 1};       /* A5 dense_resource<blob0> : T4 */
    const uint8_t b6[] = {2 << 1 | 1, S_BIG << 1 | 1};                /* A6 "big" */
    w_varint(&offs, (uint64_t)(n_builtin + n_vhlo + (bomb ? 1 : 0)));
    w_varint(&offs, 5);
    w_varint(&offs, 0), w_varint(&offs, (uint64_t)n_builtin + (bomb ? 1 : 0));
    w_entry(&data, &offs, b0, sizeof b0);
    w_entry(&data, &offs, b1, sizeof b1);
    w_entry(&data, &offs, b2, sizeof b2);
    w_entry(&data, &offs, b3, sizeof b3);
    w_entry(&data, &offs, b4, sizeof b4);
    w_entry(&data, &offs, b5, sizeof b5);
    w_entry(&data, &offs, b6, sizeof b6);
    int a_vhlo = n_builtin + (bomb ? 1 : 0), a_bomb_top = a_vhlo + 5 + n_bomb - 1;
    if (bomb) { /* A7: {big = <the top array>} */
        struct w e = {{0}, 0};
        w_varint(&e, 1), w_varint(&e, 1), w_varint(&e, 6), w_varint(&e, (uint64_t)a_bomb_top);
        w_entry(&data, &offs, e.buf, e.n);
    }
    w_varint(&offs, 1), w_varint(&offs, (uint64_t)n_vhlo);
    const uint8_t v0[] = {1 << 1 | 1, 0 << 1 | 1};                    /* [] */
    const uint8_t v1[] = {17 << 1 | 1, 2 << 1 | 1};                   /* type T2 */
    const uint8_t v2[] = {14 << 1 | 1, S_MAIN << 1 | 1};              /* "main" */
    const uint8_t v3[] = {14 << 1 | 1, S_EMPTY << 1 | 1};             /* "" */
    const uint8_t v4[] = {15 << 1 | 1, 1 << 1 | 1, 2 << 1 | 1, 0x05, 0x03}; /* T1, bits 1010000011 */
    w_entry(&data, &offs, v0, sizeof v0);
    w_entry(&data, &offs, v1, sizeof v1);
    w_entry(&data, &offs, v2, sizeof v2);
    w_entry(&data, &offs, v3, sizeof v3);
    w_entry(&data, &offs, v4, sizeof v4);
    for (int k = 0; k < n_bomb; k++) { /* "x", then [prev, prev] */
        struct w e = {{0}, 0};
        if (k == 0) w_varint(&e, 14), w_varint(&e, S_X);
        else w_varint(&e, 1), w_varint(&e, 2), w_varint(&e, (uint64_t)(a_vhlo + 5 + k - 1)),
             w_varint(&e, (uint64_t)(a_vhlo + 5 + k - 1));
        w_entry(&data, &offs, e.buf, e.n);
    }
    const uint8_t t0[] = {0 << 1 | 1};                                /* i1 */
    const uint8_t t1[] = {20 << 1 | 1, 1 << 1 | 1, 20 << 1 | 1, 0 << 1 | 1}; /* tensor<10xi1> */
    const uint8_t t2[] = {8 << 1 | 1, 0 << 1 | 1, 2 << 1 | 1, 1 << 1 | 1, 4 << 1 | 1}; /* () -> (T1, T4) */
    const uint8_t t3[] = {0 << 1 | 1, 0x02, 0x02};                    /* builtin i32: 32 << 2, as a 2-byte varint */
    const uint8_t t4[] = {13 << 1 | 1, 1 << 1 | 1, 4 << 1 | 1, 3 << 1 | 1}; /* tensor<2xi32> */
    w_varint(&offs, 1), w_varint(&offs, 3);
    w_entry(&data, &offs, t0, sizeof t0);
    w_entry(&data, &offs, t1, sizeof t1);
    w_entry(&data, &offs, t2, sizeof t2);
    w_varint(&offs, 0), w_varint(&offs, 2);
    w_entry(&data, &offs, t3, sizeof t3);
    w_entry(&data, &offs, t4, sizeof t4);
    w_section(&f, 2, &data);
    w_section(&f, 3, &offs);
    /* IR */
    struct w fn = {{0}, 0}, mod = {{0}, 0}, ir = {{0}, 0};
    w_varint(&fn, 1), w_varint(&fn, 2), w_varint(&fn, 3 << 1);
    /* op names: 0 module, 1 func_v1, 2 constant_v1, 3 return_v1 */
    w_varint(&fn, 2), w_byte(&fn, bomb ? 0x43 : 0x42), w_varint(&fn, 3); /* constant_v1 at A3 */
    if (bomb) w_varint(&fn, 7);
    w_varint(&fn, 2), w_varint(&fn, 1), w_varint(&fn, 1);
    w_varint(&fn, 2), w_byte(&fn, 0x42), w_varint(&fn, 1), w_varint(&fn, 3), w_varint(&fn, 1), w_varint(&fn, 4);
    w_varint(&fn, 3), w_byte(&fn, 0x04), w_varint(&fn, 1), w_varint(&fn, 2), w_varint(&fn, 0), w_varint(&fn, 1);
    w_varint(&mod, 1), w_varint(&mod, 0), w_varint(&mod, 1 << 1);
    w_varint(&mod, 1), w_byte(&mod, 0x50), w_varint(&mod, 4), w_varint(&mod, 1), w_varint(&mod, 3);
    w_section(&mod, 4, &fn);
    w_varint(&ir, 1 << 1);
    w_varint(&ir, 0), w_byte(&ir, 0x50), w_varint(&ir, 4), w_varint(&ir, 0), w_varint(&ir, 3);
    w_section(&ir, 4, &mod);
    w_section(&f, 4, &ir);
    /* resources: one blob of two i32, alignment 1 */
    struct w res = {{0}, 0}, roff = {{0}, 0};
    const uint8_t blob[] = {1 << 1 | 1, 8 << 1 | 1, 5, 0, 0, 0, 0xF9, 0xFF, 0xFF, 0xFF};
    w_bytes(&res, blob, sizeof blob);
    w_varint(&roff, 0);
    w_varint(&roff, 0), w_varint(&roff, 1), w_varint(&roff, S_BLOB), w_varint(&roff, sizeof blob), w_byte(&roff, 0);
    w_section(&f, 5, &res);
    w_section(&f, 6, &roff);
    /* properties: module (no name), func, two constants */
    struct w pr = {{0}, 0};
    w_varint(&pr, 4);
    w_varint(&pr, 2), w_varint(&pr, 0), w_varint(&pr, 0);
    w_varint(&pr, 5), w_varint(&pr, (uint64_t)a_vhlo), w_varint(&pr, (uint64_t)a_vhlo + 1),
        w_varint(&pr, (uint64_t)a_vhlo), w_varint(&pr, (uint64_t)a_vhlo + 2), w_varint(&pr, (uint64_t)a_vhlo + 3);
    w_varint(&pr, 1), w_varint(&pr, (uint64_t)a_vhlo + 4);
    w_varint(&pr, 1), w_varint(&pr, 5);
    w_section(&f, 8, &pr);
    /* strings: count, lengths in reverse, data */
    struct w st = {{0}, 0};
    w_varint(&st, (uint64_t)ns);
    for (int i = ns - 1; i >= 0; i--) w_varint(&st, strlen(strings[i]) + 1);
    for (int i = 0; i < ns; i++) w_bytes(&st, strings[i], strlen(strings[i]) + 1);
    w_section(&f, 0, &st);
    memcpy(out, f.buf, f.n);
    return f.n;
}

static void test_bytecode_handmade_module_reads_and_runs(void **state)
{
    (void)state; /* i1 bit-packing, dense_resource blobs, NameLoc over FileLineColLoc */
    uint8_t buf[4096];
    size_t n = make_module(buf, false);
    struct graph_parse_options opt = {"hand.mlir.bc", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    if (graph_parse((const char *)buf, n, &opt, &m, &d) != BASE_OK) fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    assert_int_equal(graph_verify(m, &d), BASE_OK);
    struct graph_op *f = find_func(m, "main");
    assert_non_null(f);
    const struct graph_op *c0 = f->regions[0].blocks[0].ops[0];
    assert_string_equal(c0->loc.file, "f.py");
    assert_int_equal(c0->loc.line, 3);
    assert_int_equal(c0->loc.col, 7);
    assert_string_equal(c0->loc.name, "op");
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(interp_run(m, "main", NULL, 0, &io, &r, &d), BASE_OK);
    assert_int_equal(r.n_outputs, 2);
    static const uint8_t bits[10] = {1, 0, 1, 0, 0, 0, 0, 0, 1, 1};
    assert_memory_equal(r.outputs[0]->data, bits, 10);
    const int32_t *v = r.outputs[1]->data;
    assert_int_equal(v[0], 5);
    assert_int_equal(v[1], -7);
    interp_result_free(&r);
    graph_module_destroy(m);
}

static void test_bytecode_shared_attributes_cannot_blow_up(void **state)
{
    (void)state; /* 2^40 leaves from a few hundred bytes: a located limit error, quickly */
    uint8_t buf[4096];
    size_t n = make_module(buf, true);
    struct graph_parse_options opt = {"bomb.mlir.bc", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse((const char *)buf, n, &opt, &m, &d), BASE_ERR_LIMIT);
    assert_null(m);
    assert_string_equal(d.file, "bomb.mlir.bc");
    assert_true(d.col > 1);
    assert_non_null(strstr(d.msg, "vhlo.constant_v1"));
}

/* ------------------------------------------------------------------------ */
/* Malformed input                                                           */

static void expect_located_error(const void *data, size_t len, const char *what)
{
    struct graph_parse_options opt = {"bad.mlir.bc", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse(data, len, &opt, &m, &d);
    if (st == BASE_OK) {
        graph_module_destroy(m);
        fail_msg("%s: read without error", what);
    }
    assert_null(m);
    if (st != BASE_ERR_NOMEM &&
        (d.status != st || d.line < 1 || d.col < 1 || strcmp(d.file, "bad.mlir.bc") || !d.msg[0]))
        fail_msg("%s: error not located: %s:%d:%d: %s", what, d.file, d.line, d.col, d.msg);
}

static void test_bytecode_truncated_files_fail_located(void **state)
{
    (void)state;
    size_t len;
    char *b = read_all(data_path("stablehlo_legalize_to_vhlo.1_12_0.mlir.bc"), &len);
    /* every prefix that cuts a section short */
    for (size_t n = 4; n < len; n += (n < 256 ? 1 : 97)) expect_located_error(b, n, "truncated");
    free(b);
}

static void test_bytecode_corrupted_bytes_fail_located(void **state)
{
    (void)state;
    size_t len;
    char *b = read_all(data_path("stablehlo_legalize_to_vhlo.0_11_0.mlir.bc"), &len);
    uint64_t s = test_seed() * 0x9E3779B97F4A7C15ull + 1;
    int errors = 0;
    for (int k = 0; k < 400; k++) {
        char *c = malloc(len);
        assert_non_null(c);
        memcpy(c, b, len);
        for (int j = 0; j < 1 + k % 4; j++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            size_t at = 4 + (size_t)(s % (len - 4));
            c[at] = (char)(s >> 40);
        }
        struct graph_parse_options opt = {"bad.mlir.bc", 0, 0, false};
        struct graph_module *m = NULL;
        struct base_diag d;
        base_diag_clear(&d);
        enum base_status st = graph_parse(c, len, &opt, &m, &d);
        if (st == BASE_OK) {
            graph_module_destroy(m); /* a flipped byte may still be a valid module */
        } else {
            errors++;
            if (st != BASE_ERR_NOMEM && (d.line < 1 || d.col < 1 || !d.msg[0]))
                fail_msg("seed %llu: corrupted file %d: error not located", (unsigned long long)test_seed(), k);
        }
        free(c);
    }
    assert_true(errors > 100);
    free(b);
}

static void test_bytecode_errors_name_offset_and_section(void **state)
{
    (void)state;
    static const unsigned char bad_version[] = {'M', 'L', 0xEF, 'R', 0x0F, 'x', 0};
    struct graph_parse_options opt = {"v.mlir.bc", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse((const char *)bad_version, sizeof bad_version, &opt, &m, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "bytecode version 7"));
    /* a section id past the last one */
    static const unsigned char bad_section[] = {'M', 'L', 0xEF, 'R', 0x0D, 0, 0x0C, 0x01};
    base_diag_clear(&d);
    assert_int_equal(graph_parse((const char *)bad_section, sizeof bad_section, &opt, &m, &d), BASE_ERR_PARSE);
    assert_non_null(strstr(d.msg, "unknown section id 12"));
    assert_int_equal(d.col, 7); /* byte 6 */
}

/* An op of a newer StableHLO than npusim knows is named in the error. */
static void test_bytecode_unknown_op_is_named(void **state)
{
    (void)state;
    size_t len;
    char *b = read_all(data_path("vhlo_emit_version_api.1_1_0.mlir.bc"), &len);
    char *p = NULL;
    for (size_t i = 0; i + 6 <= len && !p; i++)
        if (!memcmp(b + i, "add_v1", 6)) p = b + i;
    assert_non_null(p);
    memcpy(p, "add_v9", 6);
    struct graph_parse_options opt = {"new.mlir.bc", 0, 0, false};
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(graph_parse(b, len, &opt, &m, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "'vhlo.add_v9' is not known"));
    assert_non_null(strstr(d.msg, "StableHLO v1.1.0"));
    free(b);
}

/* ------------------------------------------------------------------------ */
/* Locations                                                                 */

static void test_bytecode_ops_keep_source_locations(void **state)
{
    (void)state;
    /* the file records its source positions (FileLineColLoc) */
    struct graph_module *m = load(data_path("vhlo_emit_version_api.1_1_0.mlir.bc"), true);
    struct graph_op *f = find_func(m, "main");
    assert_non_null(f);
    const struct graph_op *add = f->regions[0].blocks[0].ops[0];
    assert_int_equal(add->kind, GRAPH_OP_ADD);
    assert_string_equal(add->loc.file, "third_party/stablehlo/stablehlo/tests/vhlo/vhlo_emit_version_api.mlir");
    assert_int_equal(add->loc.line, 12);
    assert_int_equal(add->loc.col, 8);
    graph_module_destroy(m);
    /* without locations (stripped): the op's byte offset in the file */
    m = load(data_path("stablehlo_legalize_to_vhlo.1_12_0.mlir.bc"), true);
    f = find_func(m, "op_add");
    assert_non_null(f);
    add = f->regions[0].blocks[0].ops[0];
    assert_int_equal(add->loc.line, 1);
    assert_true(add->loc.col > 1);
    assert_non_null(strstr(add->loc.file, "stablehlo_legalize_to_vhlo.1_12_0.mlir.bc"));
    graph_module_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* The command                                                               */

static void npusim_path(char *buf)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = 0;
    *strrchr(exe, '/') = 0;
    char rel[PATH_MAX + 32];
    snprintf(rel, sizeof rel, "%s/../../npusim", exe);
    if (!realpath(rel, buf) || access(buf, X_OK)) fail_msg("npusim not built at %s (make all)", rel);
}

static char *run(const char *cmd, int *status)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0, r;
    char *out = malloc(cap);
    assert_non_null(out);
    while ((r = fread(out + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 >= cap) {
            cap *= 2;
            char *grown = realloc(out, cap);
            assert_non_null(grown);
            out = grown;
        }
    }
    out[n] = 0;
    *status = pclose(f);
    return out;
}

static void test_bytecode_npusim_parse_reads_bytecode(void **state)
{
    (void)state;
    char bin[PATH_MAX], cmd[3 * PATH_MAX];
    npusim_path(bin);
    int status;
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' --print 2>&1", bin, data_path("vhlo_emit_version_api.1_1_0.mlir.bc"));
    char *out = run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"stablehlo.add\""));
    assert_non_null(strstr(out, "sym_name = \"main\""));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' 2>&1", bin, data_path("stablehlo_legalize_to_vhlo.1_12_0.mlir.bc"));
    out = run(cmd, &status);
    assert_int_equal(status, 0); /* upstream's test file is valid for upstream's verifier, which npusim follows */
    assert_non_null(strstr(out, "ok (verified): 231 functions"));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' --no-verify 2>&1", bin, data_path("stablehlo_legalize_to_vhlo.1_12_0.mlir.bc"));
    out = run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "231 functions"));
    free(out);
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */

static void test_bytecode_vhlo_table_sorted_and_unique(void **state)
{
    (void)state;
    int n = graph_bc_vhlo_op_count();
    assert_true(n >= 140);
    for (int i = 0; i < n; i++) {
        const char *name = graph_bc_vhlo_op_vname(i);
        assert_int_equal(graph_bc_vhlo_op_find(name, strlen(name)), i);
        const char *us = strrchr(name, '_');
        assert_true(us && us[1] == 'v');
        const char *const *attrs;
        int k = graph_bc_vhlo_op_props(i, &attrs);
        for (int j = 1; j < k; j++)
            if (strcmp(attrs[j - 1], attrs[j]) >= 0) fail_msg("%s: attributes not sorted at %s", name, attrs[j]);
    }
}

TEST_MAIN(NULL, NULL, T(test_bytecode_v1_matches_text), T(test_bytecode_v3_matches_text),
          T(test_bytecode_v4_matches_text), T(test_bytecode_v6_matches_text), T(test_bytecode_v0_reads),
          T(test_bytecode_small_module), T(test_bytecode_jax_exports_match_text),
          T(test_bytecode_jax_locations_match_text), T(test_bytecode_handmade_module_reads_and_runs),
          T(test_bytecode_shared_attributes_cannot_blow_up), T(test_bytecode_truncated_files_fail_located),
          T(test_bytecode_corrupted_bytes_fail_located), T(test_bytecode_errors_name_offset_and_section),
          T(test_bytecode_unknown_op_is_named), T(test_bytecode_ops_keep_source_locations),
          T(test_bytecode_npusim_parse_reads_bytecode), T(test_bytecode_vhlo_table_sorted_and_unique))
