/* Shared by the runtime tests: a set of simulated chips for multi-chip runs. */
#ifndef NPUSIM_TESTS_RT_TEST_UTIL_H
#define NPUSIM_TESTS_RT_TEST_UTIL_H

#include "tests/harness.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <stdlib.h>

/* n chips of one kind (functional unless timing_only); free_sims frees them. */
static inline struct sim **make_sims(const struct chip_desc *chip, int n, bool timing_only)
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

/* Plan p run timing-only on one new chip of its kind (an SPMD plan: the
 * representative partition); its report in *rep (rt_report_free it).
 * Fails the test, with the error, if the run does. */
static inline void run_timing_only(const struct cc_plan *p, struct rt_report *rep)
{
    struct sim **s = make_sims(cc_plan_chip(p), 1, true);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    struct base_tensor **outs = calloc((size_t)cc_plan_n_outputs(p) + 1, sizeof *outs);
    assert_non_null(outs);
    struct base_diag d;
    base_diag_clear(&d);
    if (rt_run(p, s[0], NULL, cc_plan_n_inputs(p), &ro, outs, rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run on %s", cc_plan_chip(p)->name);
    }
    free(outs);
    free_sims(s, 1);
}

#endif
