/* The shared-bandwidth model: max-min fair shares with per-transfer caps,
 * recomputed when transfers start and end. */
#include "tests/harness.h"

#include "memory/memory.h"

struct done {
    int n;
    uint64_t at[8];
    uint32_t id[8];
    struct event_sched *s;
};

static void on_done(struct mem_flow *f, void *user)
{
    struct done *d = user;
    d->at[d->n] = event_sched_now(d->s);
    d->id[d->n++] = f->id;
}

struct starter {
    struct event ev;
    struct mem_bw *bw;
    struct mem_flow *f;
    uint32_t id;
    double bytes, cap;
    struct done *d;
};

static void start_flow(struct event_sched *s, struct event *ev)
{
    (void)s;
    struct starter *st = ev->user;
    assert_int_equal(mem_bw_start(st->bw, st->f, st->id, st->bytes, st->cap, on_done, st->d), BASE_OK);
}

static void test_bw_lone_transfer_at_min_of_caps(void **state)
{
    (void)state;
    struct event_sched s;
    struct mem_bw bw;
    assert_int_equal(event_sched_init(&s, 8), BASE_OK);
    double shared = 100, cap = 30;
    assert_int_equal(mem_bw_init(&bw, &s, shared, 4, 0), BASE_OK);
    struct mem_flow f;
    struct done d = {.s = &s};
    assert_int_equal(mem_bw_start(&bw, &f, 0, 3000, cap, on_done, &d), BASE_OK);
    while (event_sched_step(&s)) {
    }
    assert_int_equal(d.n, 1);
    assert_int_equal(d.at[0], event_bytes_to_ps(3000, cap));
    assert_true(bw.bytes_total == 3000);
    mem_bw_deinit(&bw);
    event_sched_deinit(&s);
}

/* Three transfers: caps 10, 50, 50 on 60 shared: max-min gives 10, 25, 25;
 * when the first ends the others get 30 each (capped at 50). */
static void test_bw_max_min_fair_share(void **state)
{
    (void)state;
    struct event_sched s;
    struct mem_bw bw;
    assert_int_equal(event_sched_init(&s, 8), BASE_OK);
    assert_int_equal(mem_bw_init(&bw, &s, 60, 4, 0), BASE_OK);
    struct mem_flow f[3];
    struct done d = {.s = &s};
    assert_int_equal(mem_bw_start(&bw, &f[0], 0, 1000, 10, on_done, &d), BASE_OK); /* 100 ns at 10 */
    assert_int_equal(mem_bw_start(&bw, &f[1], 1, 10000, 50, on_done, &d), BASE_OK);
    assert_int_equal(mem_bw_start(&bw, &f[2], 2, 10000, 50, on_done, &d), BASE_OK);
    assert_true(f[0].rate_bytes_per_ns == 10);
    assert_true(f[1].rate_bytes_per_ns == 25);
    while (event_sched_step(&s)) {
    }
    assert_int_equal(d.n, 3);
    assert_int_equal(d.id[0], 0);
    assert_int_equal(d.at[0], 100000);
    /* 2500 bytes moved in the first 100 ns; 7500 left at 30 B/ns = 250 ns */
    assert_int_equal(d.at[1], 350000);
    assert_int_equal(d.at[2], 350000);
    assert_int_equal(d.id[1], 1); /* simultaneous completions in id order */
    assert_int_equal(bw.busy_ps, 350000);
    mem_bw_deinit(&bw);
    event_sched_deinit(&s);
}

/* A transfer that starts later slows the one running. */
static void test_bw_late_start_reshares(void **state)
{
    (void)state;
    struct event_sched s;
    struct mem_bw bw;
    assert_int_equal(event_sched_init(&s, 8), BASE_OK);
    assert_int_equal(mem_bw_init(&bw, &s, 40, 4, 1), BASE_OK);
    struct mem_flow f[2];
    struct done d = {.s = &s};
    assert_int_equal(mem_bw_start(&bw, &f[0], 0, 4000, 40, on_done, &d), BASE_OK); /* alone: 100 ns */
    struct starter st = {.bw = &bw, .f = &f[1], .id = 1, .bytes = 1000, .cap = 40, .d = &d};
    event_init(&st.ev, start_flow, &st, 0);
    assert_int_equal(event_sched_at(&s, &st.ev, 50000), BASE_OK);
    while (event_sched_step(&s)) {
    }
    /* at 50 ns: 2000 left for flow 0; both at 20: flow 1 ends at 100 ns (1000 B),
     * flow 0 has 1000 left then, alone at 40: 25 ns more */
    assert_int_equal(d.n, 2);
    assert_int_equal(d.id[0], 1);
    assert_int_equal(d.at[0], 100000);
    assert_int_equal(d.at[1], 125000);
    mem_bw_deinit(&bw);
    event_sched_deinit(&s);
}

/* Random sets of transfers: more shared bandwidth never delays a completion
 * (all start at time 0, so the fluid model is monotone). */
static void test_bw_more_bandwidth_never_slower(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    for (int trial = 0; trial < 200; trial++) {
        int n = 1 + (int)(base_rng_next(&rng) % 6);
        double bytes[6], caps[6], shared = 5 + (double)(base_rng_next(&rng) % 100);
        for (int i = 0; i < n; i++) {
            bytes[i] = 1 + (double)(base_rng_next(&rng) % 100000);
            caps[i] = 1 + (double)(base_rng_next(&rng) % 50);
        }
        uint64_t last[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            struct event_sched s;
            struct mem_bw bw;
            assert_int_equal(event_sched_init(&s, 8), BASE_OK);
            assert_int_equal(mem_bw_init(&bw, &s, shared * (k ? 1.5 : 1), 8, 0), BASE_OK);
            struct mem_flow f[6];
            struct done d = {.s = &s};
            for (int i = 0; i < n; i++) assert_int_equal(mem_bw_start(&bw, &f[i], (uint32_t)i, bytes[i], caps[i], on_done, &d), BASE_OK);
            while (event_sched_step(&s)) {
            }
            assert_int_equal(d.n, n);
            last[k] = d.at[n - 1];
            mem_bw_deinit(&bw);
            event_sched_deinit(&s);
        }
        if (last[1] > last[0])
            fail_msg("seed %llu trial %d: 1.5x bandwidth finished at %llu ps, 1x at %llu ps", (unsigned long long)seed,
                     trial, (unsigned long long)last[1], (unsigned long long)last[0]);
    }
}

TEST_MAIN(NULL, NULL, T(test_bw_lone_transfer_at_min_of_caps), T(test_bw_max_min_fair_share),
          T(test_bw_late_start_reshares), T(test_bw_more_bandwidth_never_slower))
