/* The interpreter's kernel table against the op table's flags: each family
 * registers the ops the flags give it, and no other family does
 * (interp/interp_*.c interp_register_*, graph/graph_ops_list.h). */
#include "tests/harness.h"

#include "interp/interp_internal.h"

typedef void (*register_fn)(interp_kernel_fn *table);

/* The families interp.c registers, one by one. */
static const struct family {
    const char *name;
    register_fn reg;
} families[] = {
    {"control", interp_register_control}, {"elementwise", interp_register_elementwise},
    {"shape", interp_register_shape},     {"reduce", interp_register_reduce},
    {"linalg", interp_register_linalg},   {"collective", interp_register_collective},
    {"quant", interp_register_quant},     {"check", interp_register_check},
    {"rng", interp_register_rng},
};

static bool has(int k, unsigned mask) { return graph_op_kind_has((enum graph_op_kind)k, mask); }
static const char *name_of(int k) { return graph_op_kind_name((enum graph_op_kind)k); }

/* Which family registers op k (NULL: none); fails when two do. */
static const char *family_of(int k)
{
    const char *by = NULL;
    for (size_t f = 0; f < ARRAY_LEN(families); f++) {
        interp_kernel_fn table[GRAPH_OP_COUNT] = {NULL};
        families[f].reg(table);
        if (!table[k]) continue;
        if (by) fail_msg("%s is registered by both %s and %s", name_of(k), by, families[f].name);
        by = families[f].name;
    }
    return by;
}

static void test_kernels_collectives_are_the_collective_familys(void **state)
{
    (void)state;
    interp_kernel_fn table[GRAPH_OP_COUNT] = {NULL};
    interp_register_collective(table);
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        const char *by = family_of(k);
        if (has(k, GRAPH_OPF_COLLECTIVE) && (!by || strcmp(by, "collective")))
            fail_msg("%s is a collective the collective family does not run (%s)", name_of(k), by ? by : "nobody does");
        /* what the collective family registers: the collective category and the sdy ops */
        if (table[k] && graph_op_kind_cat((enum graph_op_kind)k) != GRAPH_CAT_COLLECTIVE && strncmp(name_of(k), "sdy.", 4))
            fail_msg("the collective family registers %s, neither a collective-category nor an sdy op", name_of(k));
    }
}

static void test_kernels_every_elementwise_op_has_an_elementwise_kernel(void **state)
{
    (void)state;
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        if (!has(k, GRAPH_OPF_ELEMENTWISE)) continue;
        const char *by = family_of(k);
        if (!by || strcmp(by, "elementwise")) fail_msg("%s: elementwise, run by %s", name_of(k), by ? by : "nobody");
    }
}

static void test_kernels_value_checks_share_the_check_kernel(void **state)
{
    (void)state;
    interp_kernel_fn table[GRAPH_OP_COUNT] = {NULL};
    interp_register_check(table);
    interp_kernel_fn check = table[GRAPH_OP_CHECK_EXPECT_EQ];
    assert_non_null(check);
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if ((table[k] == check) != has(k, GRAPH_OPF_VALUE_CHECK))
            fail_msg("%s: the value-check kernel and the VALUE_CHECK flag disagree", name_of(k));
    assert_non_null(table[GRAPH_OP_CHECK_EXPECT_SERIALIZED_EQ]); /* a kernel of its own */
}

static void test_kernels_terminators_have_none(void **state)
{
    (void)state;
    for (int k = 0; k < GRAPH_OP_COUNT; k++)
        if (has(k, GRAPH_OPF_TERMINATOR) && family_of(k))
            fail_msg("%s ends blocks (the interpreter's walk takes its operands) but has a kernel", name_of(k));
}

TEST_MAIN(NULL, NULL, T(test_kernels_collectives_are_the_collective_familys),
          T(test_kernels_every_elementwise_op_has_an_elementwise_kernel),
          T(test_kernels_value_checks_share_the_check_kernel), T(test_kernels_terminators_have_none))
