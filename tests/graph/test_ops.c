/* The op table (graph/graph_ops_list.h): names are unique and found again,
 * the flags agree with each other and with the categories, and with the
 * programs of the interpreter corpus (regions, terminators). */
#include "tests/harness.h"

#include "graph/graph.h"

#include <stdio.h>
#include <sys/stat.h>

static bool has(int k, unsigned mask) { return graph_op_kind_has((enum graph_op_kind)k, mask); }
static enum graph_op_cat cat_of(int k) { return graph_op_kind_cat((enum graph_op_kind)k); }
static const char *name_of(int k) { return graph_op_kind_name((enum graph_op_kind)k); }

static void test_ops_names_unique_and_found_again(void **state)
{
    (void)state;
    for (int k = 1; k < GRAPH_OP_COUNT; k++) {
        const char *n = name_of(k);
        if (!strchr(n, '.')) fail_msg("%s has no dialect prefix", n);
        for (int j = 1; j < k; j++)
            if (!strcmp(n, name_of(j))) fail_msg("%s is listed twice (kinds %d and %d)", n, j, k);
        if (graph_op_kind_from_name(n, strlen(n)) != (enum graph_op_kind)k)
            fail_msg("%s is not found again by graph_op_kind_from_name", n);
    }
    assert_int_equal(graph_op_kind_from_name("stablehlo.no_such_op", 20), GRAPH_OP_UNKNOWN);
}

static void test_ops_flags_are_known_bits_and_invalid_kinds_have_none(void **state)
{
    (void)state;
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if (graph_op_kind_flags((enum graph_op_kind)k) & ~GRAPH_OPF_ALL) fail_msg("%s has unknown flag bits", name_of(k));
    assert_int_equal(graph_op_kind_flags(GRAPH_OP_COUNT), 0);
    assert_int_equal(graph_op_kind_flags((enum graph_op_kind)-1), 0);
    assert_int_equal(graph_op_kind_flags(GRAPH_OP_UNKNOWN), 0);
}

static void test_ops_elementwise_is_the_elementwise_categories_and_nothing_else(void **state)
{
    (void)state;
    const unsigned other = GRAPH_OPF_ALL & ~(unsigned)(GRAPH_OPF_ELEMENTWISE | GRAPH_OPF_COMMUTATIVE);
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        enum graph_op_cat c = cat_of(k);
        bool ew = c == GRAPH_CAT_UNARY || c == GRAPH_CAT_BINARY || c == GRAPH_CAT_TERNARY;
        if (has(k, GRAPH_OPF_ELEMENTWISE) != ew) fail_msg("%s: elementwise flag disagrees with its category", name_of(k));
        if (ew && has(k, other)) fail_msg("%s is elementwise but has regions, communicates or checks", name_of(k));
    }
    assert_true(graph_op_kind_has(GRAPH_OP_ADD, GRAPH_OPF_ELEMENTWISE));
    assert_true(graph_op_kind_has(GRAPH_OP_SELECT, GRAPH_OPF_ELEMENTWISE));
    assert_false(graph_op_kind_has(GRAPH_OP_IOTA, GRAPH_OPF_ELEMENTWISE));
    assert_false(graph_op_kind_has(GRAPH_OP_MAP, GRAPH_OPF_ELEMENTWISE));
}

static void test_ops_commutative_ops_are_binary(void **state)
{
    (void)state;
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if (has(k, GRAPH_OPF_COMMUTATIVE) && cat_of(k) != GRAPH_CAT_BINARY)
            fail_msg("%s is commutative but not binary", name_of(k));
    assert_true(graph_op_kind_has(GRAPH_OP_MAXIMUM, GRAPH_OPF_COMMUTATIVE));
    assert_true(graph_op_kind_has(GRAPH_OP_XOR, GRAPH_OPF_COMMUTATIVE));
    assert_false(graph_op_kind_has(GRAPH_OP_SUBTRACT, GRAPH_OPF_COMMUTATIVE));
    assert_false(graph_op_kind_has(GRAPH_OP_COMPARE, GRAPH_OPF_COMMUTATIVE)); /* LT is not */
}

static void test_ops_contractions_are_linear_algebra(void **state)
{
    (void)state;
    const unsigned other = GRAPH_OPF_ALL & ~(unsigned)GRAPH_OPF_CONTRACTION;
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if (has(k, GRAPH_OPF_CONTRACTION) && (cat_of(k) != GRAPH_CAT_LINALG || has(k, other)))
            fail_msg("%s: a contraction is a plain linear-algebra op", name_of(k));
    assert_true(graph_op_kind_has(GRAPH_OP_DOT_GENERAL, GRAPH_OPF_CONTRACTION));
    assert_true(graph_op_kind_has(GRAPH_OP_CONVOLUTION, GRAPH_OPF_CONTRACTION));
    assert_false(graph_op_kind_has(GRAPH_OP_FFT, GRAPH_OPF_CONTRACTION));
    assert_false(graph_op_kind_has(GRAPH_OP_TRIANGULAR_SOLVE, GRAPH_OPF_CONTRACTION));
}

static void test_ops_collectives_are_spmd_stablehlo_collective_ops(void **state)
{
    (void)state;
    int n = 0;
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        if (has(k, GRAPH_OPF_SPMD) && cat_of(k) != GRAPH_CAT_COLLECTIVE && k != GRAPH_OP_SDY_MANUAL_COMPUTATION)
            fail_msg("%s is SPMD-only but neither a collective-category op nor sdy.manual_computation", name_of(k));
        if (!has(k, GRAPH_OPF_COLLECTIVE)) continue;
        n++;
        if (!has(k, GRAPH_OPF_SPMD)) fail_msg("%s is a collective but not SPMD-only", name_of(k));
        if (cat_of(k) != GRAPH_CAT_COLLECTIVE) fail_msg("%s is a collective outside the collective category", name_of(k));
        if (strncmp(name_of(k), "stablehlo.", 10)) fail_msg("%s is a collective outside stablehlo", name_of(k));
    }
    assert_int_equal(n, 8);
    /* ids and host I/O are in the category but exchange nothing within a group */
    assert_false(graph_op_kind_has(GRAPH_OP_PARTITION_ID, GRAPH_OPF_COLLECTIVE));
    assert_false(graph_op_kind_has(GRAPH_OP_REPLICA_ID, GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD));
    assert_false(graph_op_kind_has(GRAPH_OP_INFEED, GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD));
    assert_true(graph_op_kind_has(GRAPH_OP_PARTITION_ID, GRAPH_OPF_SPMD));
}

static void test_ops_structural_flags_are_consistent(void **state)
{
    (void)state;
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        const char *n = name_of(k);
        if (has(k, GRAPH_OPF_CONTROL_FLOW | GRAPH_OPF_ISOLATED) && !has(k, GRAPH_OPF_REGIONS))
            fail_msg("%s: control flow or isolated without regions", n);
        if (has(k, GRAPH_OPF_CONTROL_FLOW) && has(k, GRAPH_OPF_ISOLATED))
            fail_msg("%s: regions that run in place cannot be isolated", n);
        if (has(k, GRAPH_OPF_TERMINATOR) && (has(k, GRAPH_OPF_ALL & ~(unsigned)GRAPH_OPF_TERMINATOR) ||
                                             cat_of(k) != GRAPH_CAT_CONTROL))
            fail_msg("%s: a terminator is a plain control op", n);
        if (has(k, GRAPH_OPF_VALUE_CHECK | GRAPH_OPF_PROBE) && cat_of(k) != GRAPH_CAT_CHECK)
            fail_msg("%s: checks and probes are in the check category", n);
        if (has(k, GRAPH_OPF_VALUE_CHECK) && (strncmp(n, "check.expect_", 13) || has(k, GRAPH_OPF_PROBE)))
            fail_msg("%s: value checks are the check.expect_* ops that read no probe", n);
    }
    assert_true(graph_op_kind_has(GRAPH_OP_FUNC_RETURN, GRAPH_OPF_TERMINATOR));
    assert_true(graph_op_kind_has(GRAPH_OP_SDY_RETURN, GRAPH_OPF_TERMINATOR));
    assert_false(graph_op_kind_has(GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ, GRAPH_OPF_VALUE_CHECK));
    assert_true(graph_op_kind_has(GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ, GRAPH_OPF_PROBE));
}

/* ---------------------------------------------- against parsed programs */

struct seen {
    int files, chunks, failures;
    int with_regions[GRAPH_OP_COUNT]; /* instances with regions */
    int count[GRAPH_OP_COUNT];
};

static void complain(struct seen *s, const char *path, const struct graph_op *op, const char *what)
{
    if (s->failures++ < 10) print_message("%s:%d: %s %s\n", path, op->loc.line, op->name, what);
}

static void walk_block(struct seen *s, const char *path, const struct graph_op *parent, const struct graph_block *b)
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        s->count[op->kind]++;
        bool last = i == b->n_ops - 1;
        if (graph_op_kind_has(op->kind, GRAPH_OPF_TERMINATOR) && !last) complain(s, path, op, "ends no block");
        if (op->n_regions) {
            s->with_regions[op->kind]++;
            if (op->kind != GRAPH_OP_UNKNOWN && !graph_op_kind_has(op->kind, GRAPH_OPF_REGIONS))
                complain(s, path, op, "has regions but is not flagged so");
        }
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++) walk_block(s, path, op, &op->regions[r].blocks[k]);
    }
    /* every region of an op but a module's ends with a terminator */
    if (parent && parent->kind != GRAPH_OP_MODULE && parent->kind != GRAPH_OP_UNKNOWN &&
        (b->n_ops == 0 || !graph_op_kind_has(b->ops[b->n_ops - 1]->kind, GRAPH_OPF_TERMINATOR)))
        complain(s, path, parent, "has a block that ends without a terminator");
    if (graph_block_terminator(b) != (b->n_ops && graph_op_kind_has(b->ops[b->n_ops - 1]->kind, GRAPH_OPF_TERMINATOR)
                                          ? b->ops[b->n_ops - 1]
                                          : NULL))
        complain(s, path, parent ? parent : b->ops[0], "graph_block_terminator disagrees with the flag");
}

static void walk_file(struct seen *s, const char *path)
{
    char *text;
    size_t len;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(base_file_read(path, &text, &len, &d), BASE_OK);
    s->files++;
    int n;
    size_t *starts, *lens;
    int *lines;
    assert_int_equal(graph_split_chunks(text, len, &n, &starts, &lens, &lines), BASE_OK);
    for (int i = 0; i < n; i++) {
        struct graph_parse_options opt = {path, 0, 0, false};
        struct graph_module *m = NULL;
        base_diag_clear(&d);
        if (graph_parse(text + starts[i], lens[i], &opt, &m, &d) != BASE_OK || graph_verify(m, &d) != BASE_OK) {
            graph_module_destroy(m);
            continue; /* the corpus tests judge parsing; this one needs valid programs */
        }
        s->chunks++;
        walk_block(s, path, NULL, &m->body);
        graph_module_destroy(m);
    }
    free(starts);
    free(lens);
    free(lines);
    free(text);
}

static void test_ops_regions_and_terminators_agree_with_the_interpreter_corpus(void **state)
{
    (void)state;
    struct seen *s = calloc(1, sizeof *s);
    assert_non_null(s);
    size_t n;
    char **paths = test_dir_paths(test_shared_path("conformance/stablehlo-interpret"), &n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(paths[i]);
        if (len > 5 && !strcmp(paths[i] + len - 5, ".mlir")) walk_file(s, paths[i]);
    }
    test_paths_free(paths, n);
    int flagged_seen = 0;
    for (int k = 1; k < GRAPH_OP_COUNT; k++) {
        if (!graph_op_kind_has((enum graph_op_kind)k, GRAPH_OPF_REGIONS) || !s->count[k]) continue;
        flagged_seen++;
        if (!s->with_regions[k] && s->failures++ < 10)
            print_message("%s is flagged as carrying regions but none of its %d uses has any\n", name_of(k), s->count[k]);
    }
    print_message("%d files, %d valid chunks, %d kinds with regions seen, %d failures\n", s->files, s->chunks,
                  flagged_seen, s->failures);
    assert_true(s->chunks >= 100);
    assert_true(flagged_seen >= 10);
    assert_int_equal(s->failures, 0);
    free(s);
}

TEST_MAIN(NULL, NULL, T(test_ops_names_unique_and_found_again), T(test_ops_flags_are_known_bits_and_invalid_kinds_have_none),
          T(test_ops_elementwise_is_the_elementwise_categories_and_nothing_else), T(test_ops_commutative_ops_are_binary),
          T(test_ops_contractions_are_linear_algebra),
          T(test_ops_collectives_are_spmd_stablehlo_collective_ops), T(test_ops_structural_flags_are_consistent),
          T(test_ops_regions_and_terminators_agree_with_the_interpreter_corpus))
