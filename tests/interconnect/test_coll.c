/* Collectives: schedules against the alpha-beta closed forms computed here
 * from named link parameters, contention, the chooser, groups, symmetry
 * (interconnect/coll.c, interconnect/exec.c). */
#include "tests/harness.h"

#include "interconnect/interconnect.h"

#include <math.h>
#include <string.h>

/* tpu-v5e [links]: 45 B/ns per link per direction, 1 us per hop (tpu.md §4, §6.4) */
static const double v5e_beta = 45;
static const uint64_t v5e_alpha_ps = 1000000;
/* trn2 [links]: 128 B/ns per link per direction (EST), 1 us per hop (EST) */
static const double trn2_beta = 128;
static const uint64_t trn2_alpha_ps = 1000000;
static const double big = 1024.0 * 1024 * 1024; /* 1 GiB: bandwidth-bound */
static const double tolerance = 0.05;             /* the bar */

static void ring16(struct icn_topo *t)
{
    const uint32_t n = 16;
    const bool wrap = true;
    assert_int_equal(icn_topo_torus(t, 1, &n, &wrap, v5e_beta, v5e_alpha_ps), BASE_OK);
}

static void torus4x4(struct icn_topo *t)
{
    const uint32_t dims[2] = {4, 4};
    const bool wrap[2] = {true, true};
    assert_int_equal(icn_topo_torus(t, 2, dims, wrap, trn2_beta, trn2_alpha_ps), BASE_OK);
}

/* Builds and runs one collective; returns the simulated time in ps. */
static uint64_t run1(const struct icn_topo *t, const struct icn_coll_desc *d, struct icn_run_result *res)
{
    struct icn_plan p;
    struct base_diag diag;
    base_diag_clear(&diag);
    enum base_status st = icn_plan_build(t, d, &p, &diag);
    if (st) fail_msg("plan: %s", diag.msg);
    const struct icn_plan *pp = &p;
    struct icn_run_result r;
    assert_int_equal(icn_run(t, &pp, 1, &r, NULL), BASE_OK);
    icn_plan_deinit(&p);
    if (res) *res = r;
    return r.time_ps;
}

static void assert_close(double got, double want, double tol)
{
    double rel = fabs(got - want) / want;
    if (!(rel <= tol)) fail_msg("got %.0f ps, want %.0f ps (%.2f%% off, tolerance %.1f%%)", got, want, 100 * rel, 100 * tol);
}

static void test_coll_ring_all_reduce_on_16_ring_matches_alpha_beta(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0; /* B per ps */
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_RING, .bytes = big};
    double want = 2 * (n - 1) * (alpha + big / n / beta_ps);
    struct icn_run_result r;
    assert_close((double)run1(&t, &d, &r), want, tolerance);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_RING), want, 1e-6);
    /* the ring uses the 16 + links, nearly all the time */
    assert_int_equal(r.links_used, 16);
    assert_true(r.link_util_max > 0.99 && r.link_util_max <= 1.0 + 1e-9);
}

static void test_coll_biring_all_reduce_halves_the_bandwidth_term(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_BIRING, .bytes = big};
    double want = 2 * (n - 1) * (alpha + big / (2 * n) / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

static void test_coll_torus_all_reduce_on_4x4_matches_alpha_beta(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const double dx = 4, dy = 4, alpha = (double)trn2_alpha_ps, beta_ps = trn2_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_TORUS, .bytes = big};
    /* reduce-scatter and all-gather on bidirectional rings along x (all the
     * data), then along y (a quarter of it) */
    double dx_data = big, dy_data = big / dx;
    double want = 2 * (dx - 1) * (alpha + dx_data / (2 * dx) / beta_ps) + 2 * (dy - 1) * (alpha + dy_data / (2 * dy) / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TORUS), want, 1e-6);
    /* and the chooser takes it for large messages */
    assert_int_equal(icn_choose(&t, &d), ICN_ALG_TORUS);
}

static void test_coll_ring_all_gather_matches_alpha_beta(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_RING, .bytes = big};
    double want = (n - 1) * (alpha + big / n / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

static void test_coll_ring_reduce_scatter_matches_alpha_beta(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_REDUCE_SCATTER, .alg = ICN_ALG_RING, .bytes = big};
    double want = (n - 1) * (alpha + big / n / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

static void test_coll_torus_all_gather_and_reduce_scatter_on_4x4(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const double d4 = 4, alpha = (double)trn2_alpha_ps, beta_ps = trn2_beta / 1000.0;
    double want = (d4 - 1) * (alpha + big / (2 * d4) / beta_ps) + (d4 - 1) * (alpha + big / d4 / (2 * d4) / beta_ps);
    struct icn_coll_desc ag = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_TORUS, .bytes = big};
    struct icn_coll_desc rs = {.coll = ICN_COLL_REDUCE_SCATTER, .alg = ICN_ALG_TORUS, .bytes = big};
    assert_close((double)run1(&t, &ag, NULL), want, tolerance);
    assert_close((double)run1(&t, &rs, NULL), want, tolerance);
}

static void test_coll_reduction_time_adds_to_the_ring(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16, rho = 200; /* B/ns of local reduction */
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_RING, .bytes = big};
    double free_ps = (double)run1(&t, &d, NULL);
    d.reduce_bytes_per_ns = rho;
    /* n-1 chunks of B/n reduced one after the other on the critical path */
    double want = free_ps + (n - 1) * (big / n) / rho * 1000.0;
    assert_close((double)run1(&t, &d, NULL), want, 1e-4);
}

/* Two all-reduces over the same ring at once share every link: each takes
 * about twice as long as alone. */
static void test_coll_two_collectives_sharing_links_take_longer(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_RING, .bytes = big};
    struct icn_plan p1, p2;
    struct base_diag diag;
    assert_int_equal(icn_plan_build(&t, &d, &p1, &diag), BASE_OK);
    assert_int_equal(icn_plan_build(&t, &d, &p2, &diag), BASE_OK);
    const struct icn_plan *one[1] = {&p1}, *two[2] = {&p1, &p2};
    struct icn_run_result r1, r2;
    assert_int_equal(icn_run(&t, one, 1, &r1, NULL), BASE_OK);
    assert_int_equal(icn_run(&t, two, 2, &r2, NULL), BASE_OK);
    assert_true(r2.time_ps > r1.time_ps);
    double ratio = (double)r2.time_ps / (double)r1.time_ps;
    assert_true(ratio > 1.9 && ratio < 2.01);
    icn_plan_deinit(&p1);
    icn_plan_deinit(&p2);
}

/* Row groups of a 4x4 torus use disjoint links: as fast as one row alone. */
static void test_coll_row_groups_do_not_contend(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const uint32_t rows[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const double n = 4, alpha = (double)trn2_alpha_ps, beta_ps = trn2_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_BIRING, .bytes = big,
                              .groups = rows, .n_groups = 4, .group_size = 4};
    double want = 2 * (n - 1) * (alpha + big / (2 * n) / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
    /* column groups: the same by symmetry */
    const uint32_t cols[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    d.groups = cols;
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

static void test_coll_chooser_takes_direct_or_tree_for_small_messages(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = 1024};
    enum icn_alg a = icn_choose(&t, &d);
    assert_true(a == ICN_ALG_DIRECT || a == ICN_ALG_TREE);
    /* and that is faster there than the ring family, by simulation */
    d.alg = a;
    uint64_t small = run1(&t, &d, NULL);
    d.alg = ICN_ALG_TORUS;
    assert_true(small < run1(&t, &d, NULL));
    ring16(&t);
    d.alg = ICN_ALG_AUTO;
    a = icn_choose(&t, &d);
    assert_true(a == ICN_ALG_DIRECT || a == ICN_ALG_TREE);
    d.bytes = big;
    a = icn_choose(&t, &d);
    assert_true(a == ICN_ALG_BIRING || a == ICN_ALG_TORUS);
}

/* On a 16x16 pod a binomial tree pays as many hops as the per-axis rings
 * (1+2+4+8 along each axis, each way), so the one-shot direct exchange
 * (at most 16 hops, then the bytes) is the small-message choice; past a
 * pod (no direct: m^2 transfers) the tree or the rings are. */
static void test_coll_chooser_small_messages_on_a_pod(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t dims[2] = {16, 16};
    const bool wrap[2] = {true, true};
    assert_int_equal(icn_topo_torus(&t, 2, dims, wrap, v5e_beta, v5e_alpha_ps), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = 1024};
    assert_int_equal(icn_choose(&t, &d), ICN_ALG_DIRECT);
    /* the tree's alpha term: 2 x (1+2+4+8) hops per axis */
    double tree_alpha = 2.0 * 2 * (1 + 2 + 4 + 8) * (double)v5e_alpha_ps;
    double tree = icn_closed_form_ps(&t, &d, ICN_ALG_TREE);
    assert_true(tree >= tree_alpha && tree < tree_alpha * 1.05);
    const struct icn_dcn dcn = icn_dcn_default();
    assert_int_equal(icn_topo_multislice(&t, 4, &dcn), BASE_OK);
    enum icn_alg a = icn_choose(&t, &d);
    assert_true(a == ICN_ALG_TREE || a == ICN_ALG_HIER);
}

/* Every chip sends its operand to its + neighbour: one hop, one link each. */
static void test_coll_permute_shift_is_one_hop(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    uint32_t pairs[32];
    for (uint32_t i = 0; i < 16; i++) {
        pairs[2 * i] = i;
        pairs[2 * i + 1] = (i + 1) % 16;
    }
    const double bytes = 1 << 24;
    struct icn_coll_desc d = {.coll = ICN_COLL_COLLECTIVE_PERMUTE, .bytes = bytes, .pairs = pairs, .n_pairs = 16};
    double want = (double)v5e_alpha_ps + (double)event_bytes_to_ps(bytes, v5e_beta);
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
}

/* All-to-all on a switch: each uplink carries (n-1)/n of the buffer. */
static void test_coll_all_to_all_on_a_switch_is_uplink_bound(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t n = 8;
    const double up = 320, bytes = 1 << 26;
    const uint64_t lat = 2000000;
    assert_int_equal(icn_topo_switch(&t, n, up, lat), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_TO_ALL, .bytes = bytes};
    double want = (double)lat + bytes * (n - 1) / n / up * 1000.0;
    assert_close((double)run1(&t, &d, NULL), want, 1e-6);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_DIRECT), want, 1e-6);
}

static void test_coll_broadcast_chain_pipelines(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double m = 16, C = 32, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_COLLECTIVE_BROADCAST, .alg = ICN_ALG_RING, .bytes = big, .chunks = 32};
    double want = (m - 2 + C) * (alpha + big / C / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
    /* a binomial tree sends the whole buffer log2(m) times in a row at best */
    d.alg = ICN_ALG_TREE;
    assert_true((double)run1(&t, &d, NULL) >= log2(m) * big / beta_ps);
}

static void test_coll_representative_run_equals_the_full_run(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t dims[2] = {4, 4};
    const bool wrap[2] = {true, true};
    assert_int_equal(icn_topo_torus(&t, 2, dims, wrap, trn2_beta, trn2_alpha_ps), BASE_OK);
    const struct icn_dcn dcn = {.bytes_per_ns = 12.5, .latency_ps = 10 * trn2_alpha_ps};
    assert_int_equal(icn_topo_multislice(&t, 4, &dcn), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = 1 << 26};
    assert_int_equal(icn_choose(&t, &d), ICN_ALG_HIER);
    d.alg = ICN_ALG_HIER;
    uint64_t full = run1(&t, &d, NULL);
    d.representative = true;
    struct icn_plan p;
    struct base_diag diag;
    assert_int_equal(icn_plan_build(&t, &d, &p, &diag), BASE_OK);
    assert_true(p.inferred);
    assert_true(p.chips_simulated < t.n_chips);
    icn_plan_deinit(&p);
    assert_int_equal(run1(&t, &d, NULL), full);
    /* the DCN stage is there: slower than one slice alone */
    struct icn_topo one;
    assert_int_equal(icn_topo_torus(&one, 2, dims, wrap, trn2_beta, trn2_alpha_ps), BASE_OK);
    d.alg = ICN_ALG_TORUS;
    assert_true(run1(&one, &d, NULL) < full);
}

/* trn2 UltraServer: per-axis all_reduce over x, y (instance torus, 128 B/ns)
 * and z (the ring across instances, ICN_TRN2_US_Z_BYTES_PER_NS). */
static void test_coll_ultraserver_all_reduce_pays_the_slower_z_rings(void **state)
{
    (void)state;
    struct chip_desc c;
    memset(&c, 0, sizeof c);
    c.family = CHIP_FAMILY_NEURON;
    c.links.count = 4;
    c.links.bytes_per_ns = trn2_beta;
    c.links.latency_ps = trn2_alpha_ps;
    c.links.topology = CHIP_TOPO_TORUS2D;
    c.links.domain_chips = 16;
    struct icn_topo t;
    struct base_diag diag;
    assert_int_equal(icn_topo_from_chip(&c, "ultraserver", ICN_WRAP_AUTO, NULL, &t, &diag), BASE_OK);
    const double d4 = 4, alpha = (double)trn2_alpha_ps, bxy = trn2_beta / 1000.0, bz = ICN_TRN2_US_Z_BYTES_PER_NS / 1000.0;
    double want = 2 * (d4 - 1) * (alpha + big / (2 * d4) / bxy) + 2 * (d4 - 1) * (alpha + big / d4 / (2 * d4) / bxy) +
                  2 * (d4 - 1) * (alpha + big / (d4 * d4) / (2 * d4) / bz);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = big};
    assert_int_equal(icn_choose(&t, &d), ICN_ALG_TORUS);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

/* Binomial tree on a 16-ring: rounds at distances 1, 2, 4, 8 hops, one
 * after the other, up then down, each moving the whole buffer once. */
static void test_coll_tree_all_reduce_on_a_ring(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0, bytes = 1 << 20;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_TREE, .bytes = bytes};
    double want = 2 * ((1 + 2 + 4 + 8) * alpha + 4 * bytes / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TREE), want, 1e-6);
}

/* All-gather over 4 slices of a 4x4 torus: per-axis rings inside the slice
 * on the small pieces, then the DCN ring on a quarter of the output. */
static void test_coll_hierarchical_all_gather_over_slices(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const struct icn_dcn dcn = {.bytes_per_ns = 25, .latency_ps = 10 * trn2_alpha_ps};
    const double s = 4, d4 = 4, alpha = (double)trn2_alpha_ps, b = trn2_beta / 1000.0;
    assert_int_equal(icn_topo_multislice(&t, (uint32_t)s, &dcn), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_HIER, .bytes = big};
    double want = (d4 - 1) * (alpha + big / (2 * d4) / b) + (d4 - 1) * (alpha + big / d4 / (2 * d4) / b) +
                  (s - 1) * ((double)dcn.latency_ps + big / (d4 * d4) / s / (dcn.bytes_per_ns / 1000.0));
    assert_close((double)run1(&t, &d, NULL), want, tolerance);
}

/* Representative runs keep one group only when groups do not share links:
 * rows of a torus do not (one row simulated, same time); interleaved groups
 * on a ring do (every group simulated). */
static void test_coll_representative_keeps_one_group_only_when_groups_are_independent(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const uint32_t rows[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_BIRING, .bytes = big,
                              .groups = rows, .n_groups = 4, .group_size = 4};
    uint64_t full = run1(&t, &d, NULL);
    d.representative = true;
    struct icn_plan p;
    struct base_diag diag;
    assert_int_equal(icn_plan_build(&t, &d, &p, &diag), BASE_OK);
    assert_true(p.inferred);
    assert_false(p.rep_refused);
    assert_int_equal(p.groups_simulated, 1);
    icn_plan_deinit(&p);
    assert_int_equal(run1(&t, &d, NULL), full);

    ring16(&t);
    const uint32_t odd_even[16] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
    d.groups = odd_even;
    d.n_groups = 2;
    d.group_size = 8;
    d.alg = ICN_ALG_RING;
    assert_int_equal(icn_plan_build(&t, &d, &p, &diag), BASE_OK);
    assert_true(p.rep_refused);
    assert_false(p.inferred);
    assert_int_equal(p.groups_simulated, 2);
    icn_plan_deinit(&p);
}

/* Nothing to move: only the hops' latency, step after step. */
static void test_coll_zero_bytes_costs_latency_only(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const double n = 16;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_RING, .bytes = 0};
    double want = 2 * (n - 1) * (double)v5e_alpha_ps;
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_RING), want, 1e-9);
    d.alg = ICN_ALG_AUTO;
    assert_true(run1(&t, &d, NULL) > 0);
}

static void test_coll_bad_groups_are_rejected_with_a_reason(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    const uint32_t dup[4] = {0, 1, 1, 2};
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = 64, .groups = dup, .n_groups = 2, .group_size = 2};
    struct icn_plan p;
    struct base_diag diag;
    base_diag_clear(&diag);
    assert_int_equal(icn_plan_build(&t, &d, &p, &diag), BASE_ERR_INVALID);
    assert_non_null(strstr(diag.msg, "twice"));
    /* all_to_all has only the direct algorithm */
    struct icn_coll_desc a = {.coll = ICN_COLL_ALL_TO_ALL, .alg = ICN_ALG_RING, .bytes = 64};
    base_diag_clear(&diag);
    assert_int_equal(icn_plan_build(&t, &a, &p, &diag), BASE_ERR_INVALID);
    assert_non_null(strstr(diag.msg, "ring"));
}

static void test_coll_busbw_factors_are_ncclS(void **state)
{
    (void)state;
    assert_true(icn_busbw_factor(ICN_COLL_ALL_REDUCE, 16) == 2.0 * 15 / 16);
    assert_true(icn_busbw_factor(ICN_COLL_ALL_GATHER, 8) == 7.0 / 8);
    assert_true(icn_busbw_factor(ICN_COLL_REDUCE_SCATTER, 8) == 7.0 / 8);
    assert_true(icn_busbw_factor(ICN_COLL_ALL_TO_ALL, 4) == 3.0 / 4);
    assert_true(icn_busbw_factor(ICN_COLL_COLLECTIVE_BROADCAST, 4) == 1.0);
    enum icn_coll c;
    assert_true(icn_coll_parse("reduce_scatter", &c) && c == ICN_COLL_REDUCE_SCATTER);
    enum icn_alg a;
    assert_true(icn_alg_parse("hierarchical", &a) && a == ICN_ALG_HIER);
    assert_false(icn_alg_parse("nccl", &a));
}

/* The collectives are one list: each ICN_COLLECTIVES row runs exactly one
 * graph op, named as the interconnect names it, which the op table calls a
 * collective; the compiler and the runtime ask icn_coll_of_op. */
static void test_coll_each_collective_runs_one_stablehlo_collective(void **state)
{
    (void)state;
    int found[ICN_COLL_COUNT] = {0};
    for (int k = 0; k < GRAPH_OP_COUNT; k++) {
        enum icn_coll c = ICN_COLL_COUNT;
        if (!icn_coll_of_op((enum graph_op_kind)k, &c)) continue;
        const char *n = graph_op_kind_name((enum graph_op_kind)k);
        assert_true((unsigned)c < ICN_COLL_COUNT);
        found[c]++;
        if (!graph_op_kind_has((enum graph_op_kind)k, GRAPH_OPF_COLLECTIVE)) fail_msg("%s is not a collective", n);
        if (strncmp(n, "stablehlo.", 10) || strcmp(n + 10, icn_coll_name(c)))
            fail_msg("%s runs as the interconnect's %s", n, icn_coll_name(c));
    }
    for (int c = 0; c < ICN_COLL_COUNT; c++)
        if (found[c] != 1) fail_msg("%s runs %d graph ops", icn_coll_name((enum icn_coll)c), found[c]);
    assert_false(icn_coll_of_op(GRAPH_OP_COLLECTIVE_REDUCE, NULL)); /* a collective the interconnect lacks */
    assert_false(icn_coll_of_op(GRAPH_OP_ADD, NULL));
    assert_false(icn_coll_of_op(GRAPH_OP_COUNT, NULL));
}

/* The runner inside a caller's scheduler (as the simulator will use it):
 * starts at the caller's time, calls back once at the end. */
struct ctx {
    int calls;
    uint64_t at;
};

static void on_exec_done(struct icn_exec *x, void *user)
{
    struct ctx *c = user;
    c->calls++;
    c->at = event_sched_now(x->net->sched);
}

static void start_later(struct event_sched *s, struct event *ev)
{
    (void)s;
    assert_int_equal(icn_exec_start(ev->user), BASE_OK);
}

static void test_coll_exec_runs_in_the_callers_scheduler(void **state)
{
    (void)state;
    struct icn_topo t;
    ring16(&t);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_RING, .bytes = 1 << 20};
    struct icn_plan p;
    struct base_diag diag;
    assert_int_equal(icn_plan_build(&t, &d, &p, &diag), BASE_OK);
    uint64_t alone = run1(&t, &d, NULL);
    struct event_sched s;
    struct icn_net net;
    struct icn_exec x;
    struct ctx c = {0, 0};
    assert_int_equal(event_sched_init(&s, 64), BASE_OK);
    assert_int_equal(icn_net_init(&net, &t, &s, 32, 200), BASE_OK);
    assert_int_equal(icn_exec_init(&x, &net, &p, on_exec_done, &c), BASE_OK);
    const uint64_t t0 = 5000000;
    struct event ev;
    event_init(&ev, start_later, &x, 0);
    assert_int_equal(event_sched_at(&s, &ev, t0), BASE_OK);
    while (event_sched_step(&s)) {
    }
    assert_int_equal(c.calls, 1);
    assert_int_equal(c.at, t0 + alone);
    assert_true(icn_exec_finished(&x));
    icn_exec_deinit(&x);
    icn_net_deinit(&net);
    event_sched_deinit(&s);
    icn_plan_deinit(&p);
}

TEST_MAIN(NULL, NULL, T(test_coll_ring_all_reduce_on_16_ring_matches_alpha_beta),
          T(test_coll_biring_all_reduce_halves_the_bandwidth_term),
          T(test_coll_torus_all_reduce_on_4x4_matches_alpha_beta), T(test_coll_ring_all_gather_matches_alpha_beta),
          T(test_coll_ring_reduce_scatter_matches_alpha_beta), T(test_coll_torus_all_gather_and_reduce_scatter_on_4x4),
          T(test_coll_reduction_time_adds_to_the_ring), T(test_coll_two_collectives_sharing_links_take_longer),
          T(test_coll_row_groups_do_not_contend), T(test_coll_chooser_takes_direct_or_tree_for_small_messages),
          T(test_coll_chooser_small_messages_on_a_pod), T(test_coll_permute_shift_is_one_hop),
          T(test_coll_all_to_all_on_a_switch_is_uplink_bound), T(test_coll_broadcast_chain_pipelines),
          T(test_coll_representative_run_equals_the_full_run),
          T(test_coll_ultraserver_all_reduce_pays_the_slower_z_rings), T(test_coll_tree_all_reduce_on_a_ring),
          T(test_coll_hierarchical_all_gather_over_slices), T(test_coll_zero_bytes_costs_latency_only),
          T(test_coll_representative_keeps_one_group_only_when_groups_are_independent), T(test_coll_bad_groups_are_rejected_with_a_reason),
          T(test_coll_busbw_factors_are_ncclS), T(test_coll_each_collective_runs_one_stablehlo_collective),
          T(test_coll_exec_runs_in_the_callers_scheduler))
