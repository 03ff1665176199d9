/* Topologies, wrap rules and deterministic routes (interconnect/topo.c). */
#include "tests/harness.h"

#include "interconnect/interconnect.h"

#include <string.h>

static const double beta = 45;              /* B/ns per link per direction (tpu-v5e [links]) */
static const uint64_t hop_ps = 1000000;     /* 1 us per hop (tpu.md §6.4) */

static void test_topo_ring_routes_shortest_way_ties_plus(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t n = 16;
    const bool wrap = true;
    assert_int_equal(icn_topo_torus(&t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    uint32_t links[16];
    uint64_t lat;
    /* 0 -> 15: one hop the - way (the wrap link) */
    assert_int_equal(icn_route(&t, 0, 15, links, &lat), 1);
    assert_int_equal(lat, hop_ps);
    struct icn_link_info li;
    icn_link_get(&t, links[0], &li);
    assert_int_equal(li.dir, -1);
    assert_int_equal(li.to, 15);
    /* 0 -> 8: n/2 both ways, the tie goes + */
    assert_int_equal(icn_route(&t, 0, 8, links, &lat), n / 2);
    for (uint32_t k = 0; k < n / 2; k++) {
        icn_link_get(&t, links[k], &li);
        assert_int_equal(li.dir, +1);
        assert_int_equal(li.from, k);
    }
    assert_int_equal(lat, (n / 2) * hop_ps);
    assert_int_equal(icn_hops(&t, 3, 14), 5);
    assert_int_equal(t.max_hops, n / 2);
}

static void test_topo_torus_routes_dimension_ordered(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t dims[2] = {4, 4};
    const bool wrap[2] = {true, true};
    assert_int_equal(icn_topo_torus(&t, 2, dims, wrap, beta, hop_ps), BASE_OK);
    assert_int_equal(t.n_chips, 16);
    uint32_t co[3] = {1, 2, 0};
    uint32_t dst = icn_chip_id(&t, 0, co); /* (1, 2): x fastest */
    assert_int_equal(dst, 1 + 4 * 2);
    uint32_t links[8];
    uint64_t lat;
    assert_int_equal(icn_route(&t, 0, dst, links, &lat), 3);
    struct icn_link_info li;
    icn_link_get(&t, links[0], &li);
    assert_int_equal(li.dim, 0); /* x first */
    assert_int_equal(li.from, 0);
    assert_int_equal(li.to, 1);
    icn_link_get(&t, links[1], &li);
    assert_int_equal(li.dim, 1);
    assert_int_equal(li.from, 1);
    icn_link_get(&t, links[2], &li);
    assert_int_equal(li.dim, 1);
    assert_int_equal(li.to, dst);
    assert_int_equal(lat, 3 * hop_ps);
}

static void test_topo_line_without_wrap_goes_the_long_way(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t n = 4;
    const bool wrap = false;
    assert_int_equal(icn_topo_torus(&t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    uint32_t links[4];
    assert_int_equal(icn_route(&t, 3, 0, links, NULL), 3);
    struct icn_link_info li;
    icn_link_get(&t, links[0], &li);
    assert_int_equal(li.dir, -1);
    /* the wrap links exist in the id space but are not present */
    icn_link_get(&t, 3 * 2 + 0, &li); /* chip 3, x+ */
    assert_false(li.present);
    icn_link_get(&t, 0 * 2 + 1, &li); /* chip 0, x- */
    assert_false(li.present);
    assert_int_equal(t.max_hops, n - 1);
}

static void test_topo_links_pair_up_with_their_reverse(void **state)
{
    (void)state;
    struct icn_topo t;
    const uint32_t dims[3] = {4, 2, 3};
    const bool wrap[3] = {true, false, true};
    assert_int_equal(icn_topo_torus(&t, 3, dims, wrap, beta, hop_ps), BASE_OK);
    for (uint32_t l = 0; l < t.n_links; l++) {
        struct icn_link_info li, back;
        icn_link_get(&t, l, &li);
        if (!li.present) continue;
        /* the reverse direction of the same cable: from `to` along -dir */
        uint32_t rl = li.to * 2 * t.ndims + 2 * li.dim + (li.dir > 0 ? 1 : 0);
        icn_link_get(&t, rl, &back);
        assert_true(back.present);
        assert_int_equal(back.to, li.from);
        uint32_t links[8];
        assert_int_equal(icn_route(&t, li.from, li.to, links, NULL), 1);
    }
}

static struct chip_desc chip_like(enum chip_family fam, enum chip_topology topo, uint32_t count, uint32_t domain)
{
    struct chip_desc c;
    memset(&c, 0, sizeof c);
    strcpy(c.name, "test");
    c.family = fam;
    c.links.count = count;
    c.links.bytes_per_ns = beta;
    c.links.latency_ps = hop_ps;
    c.links.topology = topo;
    c.links.domain_chips = domain;
    return c;
}

static void test_topo_tpu_2d_wraps_only_full_pod_axes(void **state)
{
    (void)state;
    const uint32_t pod = 256; /* 16 x 16 (v5e / v6e) */
    struct chip_desc c = chip_like(CHIP_FAMILY_TPU, CHIP_TOPO_TORUS2D, 4, pod);
    struct icn_topo t;
    struct base_diag d;
    assert_int_equal(icn_topo_from_chip(&c, "16x16", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_true(t.wrap[0] && t.wrap[1]);
    assert_int_equal(icn_topo_from_chip(&c, "8x16", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_false(t.wrap[0]);
    assert_true(t.wrap[1]);
    assert_int_equal(icn_topo_from_chip(&c, "4x4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_false(t.wrap[0] || t.wrap[1]);
    assert_int_equal(icn_topo_from_chip(&c, "4x4", ICN_WRAP_ALL, NULL, &t, &d), BASE_OK);
    assert_true(t.wrap[0] && t.wrap[1]);
    assert_int_equal(icn_topo_from_chip(&c, "16", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_int_equal(t.ndims, 1);
    assert_true(t.wrap[0]);
}

static void test_topo_tpu_3d_wraps_only_full_cubes(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_TPU, CHIP_TOPO_TORUS3D, 6, 8960);
    struct icn_topo t;
    struct base_diag d;
    assert_int_equal(icn_topo_from_chip(&c, "4x4x8", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_true(t.wrap[0] && t.wrap[1] && t.wrap[2]);
    assert_int_equal(icn_topo_from_chip(&c, "2x4x4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_false(t.wrap[0] || t.wrap[1] || t.wrap[2]);
}

static void test_topo_neuron_instance_torus_wraps(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_NEURON, CHIP_TOPO_TORUS2D, 4, 16);
    struct icn_topo t;
    struct base_diag d;
    assert_int_equal(icn_topo_from_chip(&c, "4x4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_true(t.wrap[0] && t.wrap[1]);
    assert_true(t.dim_bytes_per_ns[0] == beta);
}

static void test_topo_ultraserver_is_4x4x4_with_slower_z(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_NEURON, CHIP_TOPO_TORUS2D, 4, 16);
    struct icn_topo t;
    struct base_diag d;
    assert_int_equal(icn_topo_from_chip(&c, "ultraserver", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_int_equal(t.n_chips, 64);
    assert_int_equal(t.ndims, 3);
    assert_true(t.wrap[2]);
    assert_true(t.dim_bytes_per_ns[0] == beta);
    assert_true(t.dim_bytes_per_ns[2] == ICN_TRN2_US_Z_BYTES_PER_NS);
}

static void test_topo_rejects_shapes_the_chip_cannot_wire(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_TPU, CHIP_TOPO_TORUS2D, 4, 256);
    struct icn_topo t;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(icn_topo_from_chip(&c, "4x4x4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "2 links per axis"));
    base_diag_clear(&d);
    assert_int_equal(icn_topo_from_chip(&c, "32x16", ICN_WRAP_AUTO, NULL, &t, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "slices"));
    base_diag_clear(&d);
    assert_int_equal(icn_topo_from_chip(&c, "4x4y", ICN_WRAP_AUTO, NULL, &t, &d), BASE_ERR_INVALID);
    struct chip_desc none = chip_like(CHIP_FAMILY_TPU, CHIP_TOPO_NONE, 0, 0);
    assert_int_equal(icn_topo_from_chip(&none, "4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_ERR_INVALID);
}

static void test_topo_switch_routes_up_and_down(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_NEURON, CHIP_TOPO_SWITCH, 4, 144);
    struct icn_topo t;
    struct base_diag d;
    assert_int_equal(icn_topo_from_chip(&c, "64", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_int_equal(t.kind, ICN_TOPO_SWITCH);
    /* the chip's links bundled into one uplink */
    assert_true(t.switch_bytes_per_ns == beta * c.links.count);
    uint32_t links[4];
    uint64_t lat;
    assert_int_equal(icn_route(&t, 5, 60, links, &lat), 2);
    struct icn_link_info up, down;
    icn_link_get(&t, links[0], &up);
    icn_link_get(&t, links[1], &down);
    assert_int_equal(up.cls, ICN_LINK_SWITCH);
    assert_int_equal(up.from, 5);
    assert_int_equal(up.dir, +1);
    assert_int_equal(down.from, 60);
    assert_int_equal(down.dir, -1);
    assert_int_equal(lat, hop_ps);
}

static void test_topo_slices_route_over_the_dcn(void **state)
{
    (void)state;
    struct chip_desc c = chip_like(CHIP_FAMILY_TPU, CHIP_TOPO_TORUS2D, 4, 256);
    struct icn_topo t;
    struct base_diag d;
    const struct icn_dcn dcn = {.bytes_per_ns = 12.5, .latency_ps = 10 * hop_ps};
    assert_int_equal(icn_topo_from_chip(&c, "4 slices of 16x16", ICN_WRAP_AUTO, &dcn, &t, &d), BASE_OK);
    assert_int_equal(t.slices, 4);
    assert_int_equal(t.n_chips, 4 * 256);
    uint32_t links[16];
    uint64_t lat;
    /* chip 3 of slice 0 to chip 3 of slice 2 */
    assert_int_equal(icn_route(&t, 3, 2 * 256 + 3, links, &lat), 2);
    assert_int_equal(lat, dcn.latency_ps);
    struct icn_link_info a, b;
    icn_link_get(&t, links[0], &a);
    icn_link_get(&t, links[1], &b);
    assert_int_equal(a.cls, ICN_LINK_DCN);
    assert_int_equal(a.from, 3);
    assert_true(a.bytes_per_ns == dcn.bytes_per_ns);
    assert_int_equal(b.from, 2 * 256 + 3);
    /* inside a slice: ICI */
    assert_int_equal(icn_route(&t, 256, 257, links, &lat), 1);
    assert_int_equal(lat, hop_ps);
}

/* From a chip file: its DCN share and latency, its ranks per chip (each
 * rank's on-chip path: the HBM shared by the chip's ranks, read and
 * written), its launch cost; an explicit DCN overrides the file's. */
static void test_topo_from_chip_takes_dcn_ranks_and_launch(void **state)
{
    (void)state;
    struct chip_desc c;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("tpu-v5e", &c, &d), BASE_OK);
    struct icn_topo t;
    assert_int_equal(icn_topo_from_chip(&c, "4 slices of 16x16", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_true(t.dcn.bytes_per_ns == c.links.dcn_bytes_per_ns);
    assert_int_equal(t.dcn.latency_ps, c.links.dcn_latency_ps);
    assert_int_equal(t.launch_ps, c.links.collective_launch_ps);
    assert_int_equal(t.ranks_per_chip, 1);
    assert_int_equal(t.n_ranks, t.n_chips);
    const struct icn_dcn mine = {.bytes_per_ns = 1, .latency_ps = 2};
    assert_int_equal(icn_topo_from_chip(&c, "2 slices of 16x16", ICN_WRAP_AUTO, &mine, &t, &d), BASE_OK);
    assert_true(t.dcn.bytes_per_ns == 1);
    assert_int_equal(chip_load("trn2", &c, &d), BASE_OK);
    assert_int_equal(icn_topo_from_chip(&c, "4x4", ICN_WRAP_AUTO, NULL, &t, &d), BASE_OK);
    assert_int_equal(t.ranks_per_chip, 4);
    assert_int_equal(t.n_ranks, 64);
    assert_true(t.local_bytes_per_ns == c.hbm.bytes_per_ns / 4 / 2);
    assert_int_equal(t.local_latency_ps, c.hbm.latency_ps);
    assert_non_null(strstr(t.desc, "4 ranks per chip"));
    /* a rank's view of the chip gives the same network */
    struct chip_desc r;
    chip_rank_view(&c, &r);
    struct icn_topo tr;
    assert_int_equal(icn_topo_from_chip(&r, "4x4", ICN_WRAP_AUTO, NULL, &tr, &d), BASE_OK);
    assert_true(tr.local_bytes_per_ns == t.local_bytes_per_ns);
    assert_int_equal(tr.n_links, t.n_links);
    /* rank 5 is chip 1's second rank: its chip's coordinates */
    uint32_t slice, co[ICN_MAX_DIMS];
    icn_chip_coords(&t, 5, &slice, co);
    assert_int_equal(co[0], 1);
    assert_int_equal(icn_rank_chip(&t, 5), 1);
    char name[32];
    icn_link_name(&t, t.n_links - 1, name, sizeof name);
    assert_string_equal(name, "r63 local in");
}

TEST_MAIN(NULL, NULL, T(test_topo_from_chip_takes_dcn_ranks_and_launch), T(test_topo_ring_routes_shortest_way_ties_plus), T(test_topo_torus_routes_dimension_ordered),
          T(test_topo_line_without_wrap_goes_the_long_way), T(test_topo_links_pair_up_with_their_reverse),
          T(test_topo_tpu_2d_wraps_only_full_pod_axes), T(test_topo_tpu_3d_wraps_only_full_cubes),
          T(test_topo_neuron_instance_torus_wraps), T(test_topo_ultraserver_is_4x4x4_with_slower_z),
          T(test_topo_rejects_shapes_the_chip_cannot_wire), T(test_topo_switch_routes_up_and_down),
          T(test_topo_slices_route_over_the_dcn))
