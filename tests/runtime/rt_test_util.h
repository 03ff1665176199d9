/* Shared by the runtime tests: a set of simulated chips for multi-chip runs. */
#ifndef NPUSIM_TESTS_RT_TEST_UTIL_H
#define NPUSIM_TESTS_RT_TEST_UTIL_H

#include "tests/harness.h"

#include "sim/sim.h"

#include <stdlib.h>

/* n chips of one kind (functional unless timing_only); free_sims frees them. */
static inline struct sim **make_sims(const struct sim_chip_desc *chip, int n, bool timing_only)
{
    struct sim **s = calloc((size_t)n, sizeof *s);
    assert_non_null(s);
    struct sim_options so;
    sim_options_default(&so);
    so.timing_only = timing_only;
    struct base_diag d;
    base_diag_clear(&d);
    for (int i = 0; i < n; i++) assert_int_equal(sim_create(chip, &so, &s[i], &d), BASE_OK);
    return s;
}

static inline void free_sims(struct sim **s, int n)
{
    for (int i = 0; i < n; i++) sim_destroy(s[i]);
    free(s);
}

#endif
