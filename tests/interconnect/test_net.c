/* The flow network: routes' latency plus bytes over max-min fair rates
 * (interconnect/net.c). */
#include "tests/harness.h"

#include "interconnect/interconnect.h"

struct log {
    uint32_t n;
    uint64_t at[64];
    uint64_t tag[64];
};

static void on_done(struct icn_net *net, void *user, uint64_t tag)
{
    struct log *l = user;
    l->at[l->n] = event_sched_now(net->sched);
    l->tag[l->n++] = tag;
}

static uint64_t at_of(const struct log *l, uint64_t tag)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (l->tag[i] == tag) return l->at[i];
    fail_msg("transfer %llu never arrived", (unsigned long long)tag);
    return 0;
}

struct fx {
    struct icn_topo t;
    struct event_sched s;
    struct icn_net net;
    struct log log;
};

static void fx_open(struct fx *f, uint32_t max_flows)
{
    assert_int_equal(event_sched_init(&f->s, max_flows + 4), BASE_OK);
    assert_int_equal(icn_net_init(&f->net, &f->t, &f->s, max_flows, 200), BASE_OK);
    f->log.n = 0;
}

static void fx_run(struct fx *f)
{
    while (event_sched_step(&f->s)) {
    }
}

static void fx_close(struct fx *f)
{
    icn_net_deinit(&f->net);
    event_sched_deinit(&f->s);
}

static void test_net_lone_flow_takes_hops_latency_plus_bytes_over_bandwidth(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 8;
    const bool wrap = true;
    const double beta = 45;
    const uint64_t hop_ps = 1000000;
    const double bytes = 1 << 20;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    fx_open(&f, 4);
    const uint32_t hops = 3;
    assert_int_equal(icn_net_send(&f.net, 0, hops, bytes, 0, 0, on_done, &f.log, 7), BASE_OK);
    fx_run(&f);
    assert_int_equal(f.log.n, 1);
    assert_int_equal(f.log.at[0], hops * hop_ps + event_bytes_to_ps(bytes, beta));
    /* every link of the route carried the bytes */
    assert_true(f.net.links[0].bytes > bytes * 0.999999 && f.net.links[0].bytes < bytes * 1.000001);
    assert_true(icn_net_idle(&f.net));
    fx_close(&f);
}

static void test_net_two_flows_on_one_link_get_half_each(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 4;
    const bool wrap = true;
    const double beta = 100;
    const uint64_t hop_ps = 500000;
    const double bytes = 1e6;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    fx_open(&f, 4);
    assert_int_equal(icn_net_send(&f.net, 0, 1, bytes, 0, 0, on_done, &f.log, 1), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 0, 1, bytes, 0, 0, on_done, &f.log, 2), BASE_OK);
    fx_run(&f);
    assert_int_equal(f.log.n, 2);
    uint64_t want = hop_ps + event_bytes_to_ps(bytes, beta / 2);
    assert_int_equal(at_of(&f.log, 1), want);
    assert_int_equal(at_of(&f.log, 2), want);
    assert_int_equal(f.net.recomputes >= 1, 1);
    fx_close(&f);
}

/* 2x2 grid without wrap: x links 10 B/ns, y links 30 B/ns.  A: 0 -> 3
 * (x then y), B: 0 -> 1 (x), C: 1 -> 3 (y).  The x link is the bottleneck
 * for A and B (5 each); C gets the rest of the y link (25).  When A and B
 * end, C has the y link alone. */
static void test_net_progressive_filling_over_multi_link_paths(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t dims[2] = {2, 2};
    const bool wrap[2] = {false, false};
    const double bx = 10, by = 30, a_bytes = 1000, b_bytes = 1000, c_bytes = 10000;
    assert_int_equal(icn_topo_torus(&f.t, 2, dims, wrap, bx, 0), BASE_OK);
    f.t.dim_bytes_per_ns[1] = by;
    fx_open(&f, 4);
    assert_int_equal(icn_net_send(&f.net, 0, 3, a_bytes, 0, 0, on_done, &f.log, 'A'), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 0, 1, b_bytes, 0, 0, on_done, &f.log, 'B'), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 1, 3, c_bytes, 0, 0, on_done, &f.log, 'C'), BASE_OK);
    fx_run(&f);
    double ab_rate = bx / 2, c_rate = by - ab_rate;
    uint64_t t_ab = event_bytes_to_ps(a_bytes, ab_rate);
    assert_int_equal(at_of(&f.log, 'A'), t_ab);
    assert_int_equal(at_of(&f.log, 'B'), t_ab);
    double c_left = c_bytes - c_rate * (double)t_ab / 1000.0;
    assert_int_equal(at_of(&f.log, 'C'), t_ab + event_bytes_to_ps(c_left, by));
    fx_close(&f);
}

static void test_net_cap_limits_a_flow_and_frees_the_rest(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 4;
    const bool wrap = true;
    const double beta = 100, cap = 20, bytes = 8000;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, beta, 0), BASE_OK);
    fx_open(&f, 4);
    assert_int_equal(icn_net_send(&f.net, 0, 1, bytes, 0, cap, on_done, &f.log, 1), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 0, 1, bytes, 0, 0, on_done, &f.log, 2), BASE_OK);
    fx_run(&f);
    assert_int_equal(at_of(&f.log, 2), event_bytes_to_ps(bytes, beta - cap));
    assert_int_equal(at_of(&f.log, 1), event_bytes_to_ps(bytes, cap));
    fx_close(&f);
}

static void test_net_delay_comes_before_the_transfer(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 4;
    const bool wrap = true;
    const double beta = 50, bytes = 5000;
    const uint64_t hop_ps = 1000, delay_ps = 123456;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    fx_open(&f, 4);
    assert_int_equal(icn_net_send(&f.net, 2, 3, bytes, delay_ps, 0, on_done, &f.log, 1), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 2, 2, 0, delay_ps, 0, on_done, &f.log, 2), BASE_OK); /* local work */
    fx_run(&f);
    assert_int_equal(at_of(&f.log, 1), delay_ps + hop_ps + event_bytes_to_ps(bytes, beta));
    assert_int_equal(at_of(&f.log, 2), delay_ps);
    fx_close(&f);
}

static void test_net_pool_full_is_a_limit_not_an_allocation(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 4;
    const bool wrap = true;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, 10, 0), BASE_OK);
    fx_open(&f, 1);
    assert_int_equal(icn_net_send(&f.net, 0, 1, 100, 0, 0, on_done, &f.log, 1), BASE_OK);
    assert_int_equal(icn_net_send(&f.net, 0, 1, 100, 0, 0, on_done, &f.log, 2), BASE_ERR_LIMIT);
    assert_int_equal(icn_net_send(&f.net, 0, 9, 100, 0, 0, on_done, &f.log, 3), BASE_ERR_INVALID);
    fx_run(&f);
    assert_int_equal(f.log.n, 1);
    assert_int_equal(icn_net_send(&f.net, 0, 1, 100, 0, 0, on_done, &f.log, 4), BASE_OK);
    fx_run(&f);
    assert_int_equal(f.log.n, 2);
    fx_close(&f);
}

/* Random flows on a 4x4 torus, twice: identical arrival times and order;
 * and max-min never oversubscribes a link (bytes moved <= bandwidth x time). */
static void run_random(uint64_t seed, struct log *out)
{
    struct fx f;
    const uint32_t dims[2] = {4, 4};
    const bool wrap[2] = {true, true};
    const double beta = 64;
    assert_int_equal(icn_topo_torus(&f.t, 2, dims, wrap, beta, 700), BASE_OK);
    fx_open(&f, 64);
    struct base_rng r;
    base_rng_seed(&r, seed);
    for (uint64_t i = 0; i < 40; i++) {
        uint32_t a = (uint32_t)(base_rng_next(&r) % 16), b = (uint32_t)(base_rng_next(&r) % 16);
        double bytes = (double)(1 + base_rng_next(&r) % 100000);
        uint64_t delay = base_rng_next(&r) % 2000000;
        assert_int_equal(icn_net_send(&f.net, a, b, bytes, delay, 0, on_done, &f.log, i), BASE_OK);
    }
    fx_run(&f);
    uint64_t end = f.log.at[f.log.n - 1];
    for (uint32_t l = 0; l < f.t.n_links; l++)
        assert_true(f.net.links[l].bytes <= beta * (double)end / 1000.0 * (1 + 1e-9));
    *out = f.log;
    fx_close(&f);
}

static void test_net_is_deterministic_and_respects_capacity(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct log a, b;
    run_random(seed, &a);
    run_random(seed, &b);
    if (a.n != 40) fail_msg("seed %llu: %u of 40 arrived", (unsigned long long)seed, a.n);
    assert_int_equal(a.n, b.n);
    for (uint32_t i = 0; i < a.n; i++) {
        assert_int_equal(a.tag[i], b.tag[i]);
        assert_int_equal(a.at[i], b.at[i]);
    }
}

struct seen {
    uint32_t n;
    uint32_t src, dst;
    double bytes;
    uint64_t send, data_end, arrive;
    struct event_sched *s;
};

static void observe(void *user, const struct icn_flow *fl)
{
    struct seen *w = user;
    w->n++;
    w->src = fl->src;
    w->dst = fl->dst;
    w->bytes = fl->bytes;
    w->send = fl->send_ps;
    w->data_end = fl->data_end_ps;
    w->arrive = event_sched_now(w->s);
}

/* The observer (for traces) sees each arrival with its send, end of data
 * and arrival times. */
static void test_net_observer_sees_the_phases_of_a_transfer(void **state)
{
    (void)state;
    struct fx f;
    const uint32_t n = 8;
    const bool wrap = true;
    const double beta = 40, bytes = 4000;
    const uint64_t hop_ps = 2000, delay_ps = 7000;
    assert_int_equal(icn_topo_torus(&f.t, 1, &n, &wrap, beta, hop_ps), BASE_OK);
    fx_open(&f, 2);
    struct seen w = {.s = &f.s};
    f.net.observe = observe;
    f.net.observe_user = &w;
    assert_int_equal(icn_net_send(&f.net, 1, 3, bytes, delay_ps, 0, on_done, &f.log, 9), BASE_OK);
    fx_run(&f);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.src, 1);
    assert_int_equal(w.dst, 3);
    assert_true(w.bytes == bytes);
    assert_int_equal(w.send, delay_ps);
    assert_int_equal(w.data_end, delay_ps + event_bytes_to_ps(bytes, beta));
    assert_int_equal(w.arrive, w.data_end + 2 * hop_ps);
    assert_int_equal(f.log.at[0], w.arrive);
    fx_close(&f);
}

TEST_MAIN(NULL, NULL, T(test_net_lone_flow_takes_hops_latency_plus_bytes_over_bandwidth),
          T(test_net_two_flows_on_one_link_get_half_each), T(test_net_progressive_filling_over_multi_link_paths),
          T(test_net_cap_limits_a_flow_and_frees_the_rest), T(test_net_delay_comes_before_the_transfer),
          T(test_net_pool_full_is_a_limit_not_an_allocation), T(test_net_is_deterministic_and_respects_capacity),
          T(test_net_observer_sees_the_phases_of_a_transfer))
