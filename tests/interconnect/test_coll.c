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

/* One reduce-scatter (or all-gather) of D bytes per chip along a whole axis
 * of m chips with its wrap links (m even): shards go half-way each way, m/2
 * steps of a full shard D/m on every link, the antipodal one split in two
 * halves, one each way (alpha per step; beta in B/ps). */
static double halfring(double m, double D, double alpha, double beta_ps)
{
    return (m / 2 - 1) * (alpha + D / m / beta_ps) + (alpha + D / (2 * m) / beta_ps);
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

/* Both axes at once (the JAX scaling book's multi-axis collectives): half
 * the buffer reduce-scatters along x then y, the other half along y then x,
 * so both axes carry a half in each phase; then all-gather the other way.
 * Phase 1 on B/2 per part, phase 2 on B/8 (a quarter of it). */
static void test_coll_torus_all_reduce_on_4x4_matches_alpha_beta(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const double d4 = 4, alpha = (double)trn2_alpha_ps, beta_ps = trn2_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = ICN_ALG_TORUS, .bytes = big};
    double want = 2 * (halfring(d4, big / 2, alpha, beta_ps) + halfring(d4, big / 8, alpha, beta_ps));
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TORUS), want, 1e-9);
    /* the bandwidth term is B (n-1)/n / (n_axes x 2 beta) per pass: busbw = 2 x 2 beta (less the hops) */
    double busbw = big / want * icn_busbw_factor(ICN_COLL_ALL_REDUCE, 16) * 1000.0;
    assert_true(busbw > 0.99 * 4 * trn2_beta && busbw < 4 * trn2_beta);
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
    double want = halfring(d4, big / 2, alpha, beta_ps) + halfring(d4, big / 8, alpha, beta_ps);
    struct icn_coll_desc ag = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_TORUS, .bytes = big};
    struct icn_coll_desc rs = {.coll = ICN_COLL_REDUCE_SCATTER, .alg = ICN_ALG_TORUS, .bytes = big};
    assert_close((double)run1(&t, &ag, NULL), want, 1e-9);
    assert_close((double)run1(&t, &rs, NULL), want, 1e-9);
}

/* An axis without wrap links (v5e below 16 chips): a line, shards going
 * both ways one hop a step, m - 1 steps of a whole shard (the busiest link
 * carries m - 1 of them), alpha one hop a step. */
static void test_coll_torus_axis_without_wrap_is_a_line(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t n = 8;
    const bool nowrap = false;
    assert_int_equal(icn_topo_torus(&t, 1, &n, &nowrap, v5e_beta, v5e_alpha_ps), BASE_OK);
    const double m = 8, alpha = (double)v5e_alpha_ps, beta_ps = v5e_beta / 1000.0;
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_TORUS, .bytes = big};
    double want = (m - 1) * (alpha + big / m / beta_ps);
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TORUS), want, 1e-9);
    d.coll = ICN_COLL_REDUCE_SCATTER;
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    /* a one-way ring pays its closing hop back along the line: m - 1 hops a step */
    d.alg = ICN_ALG_RING;
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_RING), (m - 1) * ((m - 1) * alpha + big / m / beta_ps), 1e-9);
}

/* Axes of different lengths and speeds (8x16 with wrap on the 16 only; the
 * UltraServer's slower z rings): the parts' phases take different times, and
 * the parts meet at the end of each phase on every chip, so no axis ever
 * carries two parts; the simulation then equals the closed form, whose
 * phases each take their slowest part. */
static void test_coll_torus_parts_meet_between_phases(void **state)
{
    (void)state;
    const uint32_t dims[2] = {8, 16};
    const bool wrap[2] = {false, true};
    struct icn_topo t;
    assert_int_equal(icn_topo_torus(&t, 2, dims, wrap, v5e_beta, v5e_alpha_ps), BASE_OK);
    const enum icn_coll colls[3] = {ICN_COLL_ALL_REDUCE, ICN_COLL_ALL_GATHER, ICN_COLL_REDUCE_SCATTER};
    for (int c = 0; c < 3; c++) {
        struct icn_coll_desc d = {.coll = colls[c], .alg = ICN_ALG_TORUS, .bytes = big};
        double cf = icn_closed_form_ps(&t, &d, ICN_ALG_TORUS);
        assert_close((double)run1(&t, &d, NULL), cf, 1e-9);
        /* both axes at once beat one after the other (the 8-line on all the
         * data, then the 16-ring on an eighth), the sum of the axes alone */
        const uint32_t line = 8, ring = 16;
        struct icn_topo tl, tr;
        assert_int_equal(icn_topo_torus(&tl, 1, &line, &wrap[0], v5e_beta, v5e_alpha_ps), BASE_OK);
        assert_int_equal(icn_topo_torus(&tr, 1, &ring, &wrap[1], v5e_beta, v5e_alpha_ps), BASE_OK);
        struct icn_coll_desc dl = d, dr = d;
        dr.bytes = big / 8;
        double serial = icn_closed_form_ps(&tl, &dl, ICN_ALG_TORUS) + icn_closed_form_ps(&tr, &dr, ICN_ALG_TORUS);
        assert_true(cf < 0.75 * serial);
    }
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
    /* three parts of B/3, each phase with one part on z, whose slower links
     * set the phase's time (B/3, B/12, B/48 per part) */
    const double d4 = 4, alpha = (double)trn2_alpha_ps, bz = ICN_TRN2_US_Z_BYTES_PER_NS / 1000.0;
    double want = 2 * (halfring(d4, big / 3, alpha, bz) + halfring(d4, big / 12, alpha, bz) +
                       halfring(d4, big / 48, alpha, bz));
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .bytes = big};
    assert_int_equal(icn_choose(&t, &d), ICN_ALG_TORUS);
    assert_close((double)run1(&t, &d, NULL), want, 1e-8); /* B/3 rounds to whole ps per transfer */
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TORUS), want, 1e-9);
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

/* All-gather over 4 slices of a 4x4 torus: the DCN ring first on the small
 * pieces (both parts over each chip's one port), then both torus axes at
 * once as in the all-reduce (the slice axis stays last in reduce-scatter
 * order, so first in all-gather order). */
static void test_coll_hierarchical_all_gather_over_slices(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const struct icn_dcn dcn = {.bytes_per_ns = 25, .latency_ps = 10 * trn2_alpha_ps};
    const double s = 4, d4 = 4, alpha = (double)trn2_alpha_ps, b = trn2_beta / 1000.0;
    assert_int_equal(icn_topo_multislice(&t, (uint32_t)s, &dcn), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_HIER, .bytes = big};
    double want = halfring(d4, big / 2, alpha, b) + halfring(d4, big / 8, alpha, b) +
                  (s - 1) * ((double)dcn.latency_ps + big / (d4 * d4) / s / (dcn.bytes_per_ns / 1000.0));
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_HIER), want, 1e-9);
}

/* Two ranks per chip (TPU7x's two devices): ranks of one chip talk over
 * their on-chip paths, never a link; groups of one rank per chip (the
 * benchmarks' "parallel" groups, both cores of every chip at once) share
 * the chips' links, so two such groups take twice one's bandwidth time. */
static void test_coll_ranks_of_a_chip_share_its_links(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t dims[2] = {2, 2};
    const bool nowrap[2] = {false, false};
    const double local = 1000;
    assert_int_equal(icn_topo_torus(&t, 2, dims, nowrap, 100, 1000000), BASE_OK);
    assert_int_equal(icn_topo_ranks(&t, 2, local, 500000), BASE_OK);
    assert_int_equal(t.n_chips, 4);
    assert_int_equal(t.n_ranks, 8);
    /* ranks 0 and 1 share chip 0: one on-chip hop each way */
    uint32_t links[8];
    uint64_t lat;
    assert_int_equal(icn_route(&t, 0, 1, links, &lat), 2);
    assert_int_equal(lat, 500000);
    struct icn_link_info li;
    icn_link_get(&t, links[0], &li);
    assert_int_equal(li.cls, ICN_LINK_LOCAL);
    assert_true(li.bytes_per_ns == local);
    /* ranks 0 and 2 are chips 0 and 1: one x hop */
    assert_int_equal(icn_route(&t, 0, 2, links, &lat), 1);
    icn_link_get(&t, links[0], &li);
    assert_int_equal(li.cls, ICN_LINK_ICI);
    /* an all_gather among the two ranks of chip 0: local paths only */
    const uint32_t pair[2] = {0, 1};
    struct icn_coll_desc d = {.coll = ICN_COLL_ALL_GATHER, .bytes = 1 << 26, .groups = pair, .n_groups = 1,
                              .group_size = 2, .alg = ICN_ALG_TORUS};
    double want = 500000 + (1 << 25) / local * 1000.0;
    assert_close((double)run1(&t, &d, NULL), want, 1e-9);
    /* one group of one rank per chip, then both such groups at once */
    const uint32_t even[4] = {0, 2, 4, 6}, both[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    struct icn_coll_desc g1 = {.coll = ICN_COLL_ALL_GATHER, .alg = ICN_ALG_TORUS, .bytes = big, .groups = even,
                               .n_groups = 1, .group_size = 4};
    struct icn_coll_desc g2 = g1;
    g2.groups = both;
    g2.n_groups = 2;
    double one = (double)run1(&t, &g1, NULL), two = (double)run1(&t, &g2, NULL);
    assert_true(two > 1.99 * one && two < 2 * one); /* twice the bytes, the same hops */
    assert_close(two, icn_closed_form_ps(&t, &g2, ICN_ALG_TORUS), 1e-9);
    /* the representative shortcut sees the shared links and refuses */
    g2.representative = true;
    struct icn_plan p;
    struct base_diag diag;
    assert_int_equal(icn_plan_build(&t, &g2, &p, &diag), BASE_OK);
    assert_true(p.rep_refused);
    icn_plan_deinit(&p);
}

/* All the ranks of 2 chips: the ranks of a chip reduce-scatter over their
 * on-chip paths first, before anything crosses a link (and gather last). */
static void test_coll_ranks_reduce_on_chip_before_the_links(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t n = 2;
    const bool nowrap = false;
    assert_int_equal(icn_topo_torus(&t, 1, &n, &nowrap, 100, 1000000), BASE_OK);
    assert_int_equal(icn_topo_ranks(&t, 4, 1000, 500000), BASE_OK);
    struct icn_coll_desc d = {.coll = ICN_COLL_REDUCE_SCATTER, .alg = ICN_ALG_TORUS, .bytes = big};
    double local = 3 * (500000 + big / 4 / 1000 * 1000.0); /* a one-way ring of 4 ranks */
    double link = 1000000 + 4 * (big / 4 / 2) / 100 * 1000.0; /* the 4 ranks' lines over one link */
    assert_close((double)run1(&t, &d, NULL), local + link, 1e-9);
    assert_close(icn_closed_form_ps(&t, &d, ICN_ALG_TORUS), local + link, 1e-9);
}

/* The chip's software cost per collective (collective_launch_ns): the first
 * transfers start that late; the closed forms add it once. */
static void test_coll_launch_cost_is_paid_once(void **state)
{
    (void)state;
    struct icn_topo t;
    torus4x4(&t);
    const enum icn_alg algs[4] = {ICN_ALG_TORUS, ICN_ALG_RING, ICN_ALG_DIRECT, ICN_ALG_TREE};
    for (int a = 0; a < 4; a++) {
        struct icn_coll_desc d = {.coll = ICN_COLL_ALL_REDUCE, .alg = algs[a], .bytes = 1 << 20};
        t.launch_ps = 0;
        uint64_t bare = run1(&t, &d, NULL);
        double cf = icn_closed_form_ps(&t, &d, algs[a]);
        t.launch_ps = 7000000;
        assert_int_equal(run1(&t, &d, NULL), bare + t.launch_ps);
        assert_close(icn_closed_form_ps(&t, &d, algs[a]), cf + (double)t.launch_ps, 1e-12);
    }
    /* a permute too */
    uint32_t pairs[2] = {0, 1};
    struct icn_coll_desc p = {.coll = ICN_COLL_COLLECTIVE_PERMUTE, .bytes = 1024, .pairs = pairs, .n_pairs = 1};
    t.launch_ps = 7000000;
    assert_true(run1(&t, &p, NULL) > t.launch_ps);
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
          T(test_coll_torus_axis_without_wrap_is_a_line), T(test_coll_torus_parts_meet_between_phases),
          T(test_coll_ranks_of_a_chip_share_its_links), T(test_coll_ranks_reduce_on_chip_before_the_links),
          T(test_coll_launch_cost_is_paid_once),
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
