/* The event kernel: (time, priority, sequence) order, reschedule, cancel,
 * fixed capacity; the cycle <-> ps conversion and its rounding rule. */
#include "tests/harness.h"

#include "event/event.h"

struct log {
    int n;
    int ids[64];
    uint64_t times[64];
};

struct item {
    struct event ev;
    struct log *log;
    int id;
};

static void fire(struct event_sched *s, struct event *ev)
{
    struct item *it = ev->user;
    it->log->ids[it->log->n] = it->id;
    it->log->times[it->log->n++] = event_sched_now(s);
}

static void item_init(struct item *it, struct log *log, int id, uint8_t prio)
{
    it->log = log;
    it->id = id;
    event_init(&it->ev, fire, it, prio);
}

static void test_sched_orders_by_time_priority_sequence(void **state)
{
    (void)state;
    struct event_sched s;
    assert_int_equal(event_sched_init(&s, 8), BASE_OK);
    struct log log = {0};
    struct item it[6];
    item_init(&it[0], &log, 0, 1);
    item_init(&it[1], &log, 1, 0);
    item_init(&it[2], &log, 2, 1);
    item_init(&it[3], &log, 3, 0);
    item_init(&it[4], &log, 4, 2);
    item_init(&it[5], &log, 5, 0);
    assert_int_equal(event_sched_at(&s, &it[0].ev, 100), BASE_OK); /* t100 p1 seq0 */
    assert_int_equal(event_sched_at(&s, &it[1].ev, 100), BASE_OK); /* t100 p0 seq1 */
    assert_int_equal(event_sched_at(&s, &it[2].ev, 100), BASE_OK); /* t100 p1 seq2 */
    assert_int_equal(event_sched_at(&s, &it[3].ev, 50), BASE_OK);  /* t50 */
    assert_int_equal(event_sched_at(&s, &it[4].ev, 100), BASE_OK); /* t100 p2 */
    assert_int_equal(event_sched_at(&s, &it[5].ev, 100), BASE_OK); /* t100 p0 seq5 */
    while (event_sched_step(&s)) {
    }
    int want[] = {3, 1, 5, 0, 2, 4};
    assert_int_equal(log.n, 6);
    for (int i = 0; i < 6; i++) assert_int_equal(log.ids[i], want[i]);
    assert_int_equal(log.times[0], 50);
    assert_int_equal(event_sched_now(&s), 100);
    assert_int_equal(s.fired, 6);
    event_sched_deinit(&s);
}

static void test_sched_reschedule_and_cancel(void **state)
{
    (void)state;
    struct event_sched s;
    assert_int_equal(event_sched_init(&s, 4), BASE_OK);
    struct log log = {0};
    struct item a, b, c;
    item_init(&a, &log, 0, 0);
    item_init(&b, &log, 1, 0);
    item_init(&c, &log, 2, 0);
    assert_int_equal(event_sched_at(&s, &a.ev, 10), BASE_OK);
    assert_int_equal(event_sched_at(&s, &b.ev, 20), BASE_OK);
    assert_int_equal(event_sched_at(&s, &c.ev, 30), BASE_OK);
    assert_int_equal(event_sched_at(&s, &a.ev, 40), BASE_OK); /* moved later */
    event_sched_cancel(&s, &b.ev);
    assert_false(event_pending(&b.ev));
    event_sched_cancel(&s, &b.ev); /* no-op */
    assert_int_equal(event_sched_next_time(&s), 30);
    while (event_sched_step(&s)) {
    }
    assert_int_equal(log.n, 2);
    assert_int_equal(log.ids[0], 2);
    assert_int_equal(log.ids[1], 0);
    assert_int_equal(log.times[1], 40);
    assert_int_equal(event_sched_at(&s, &a.ev, 39), BASE_ERR_INVALID); /* in the past */
    event_sched_deinit(&s);
}

static void test_sched_capacity_is_fixed(void **state)
{
    (void)state;
    struct event_sched s;
    assert_int_equal(event_sched_init(&s, 2), BASE_OK);
    struct log log = {0};
    struct item it[3];
    for (int i = 0; i < 3; i++) item_init(&it[i], &log, i, 0);
    assert_int_equal(event_sched_at(&s, &it[0].ev, 1), BASE_OK);
    assert_int_equal(event_sched_at(&s, &it[1].ev, 2), BASE_OK);
    assert_int_equal(event_sched_at(&s, &it[2].ev, 3), BASE_ERR_LIMIT);
    /* rescheduling a pending event needs no room */
    assert_int_equal(event_sched_at(&s, &it[1].ev, 5), BASE_OK);
    event_sched_deinit(&s);
}

/* Random schedules fire in sorted (time, priority, sequence) order. */
static void test_sched_random_order_is_sorted(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    struct base_rng rng;
    base_rng_seed(&rng, seed);
    struct event_sched s;
    assert_int_equal(event_sched_init(&s, 64), BASE_OK);
    struct log log = {0};
    struct item it[64];
    for (int i = 0; i < 64; i++) {
        item_init(&it[i], &log, i, (uint8_t)(base_rng_next(&rng) % 3));
        assert_int_equal(event_sched_at(&s, &it[i].ev, base_rng_next(&rng) % 16), BASE_OK);
    }
    for (int i = 0; i < 20; i++) event_sched_cancel(&s, &it[base_rng_next(&rng) % 64].ev);
    int expect = (int)s.n;
    while (event_sched_step(&s)) {
    }
    assert_int_equal(log.n, expect);
    for (int i = 1; i < log.n; i++) {
        const struct item *p = &it[log.ids[i - 1]], *q = &it[log.ids[i]];
        bool ok = p->ev.time_ps < q->ev.time_ps ||
                  (p->ev.time_ps == q->ev.time_ps && (p->ev.priority < q->ev.priority ||
                                                      (p->ev.priority == q->ev.priority && p->id < q->id)));
        if (!ok) fail_msg("seed %llu: event %d fired before %d", (unsigned long long)seed, p->id, q->id);
    }
    event_sched_deinit(&s);
}

static void test_clock_rounds_cycles_up_and_ps_down(void **state)
{
    (void)state;
    /* 1.4 GHz: a cycle is 714.2857... ps */
    assert_int_equal(event_clock_khz(1.4), 1400000);
    assert_int_equal(event_cycles_to_ps(1, 1.4), 715);
    assert_int_equal(event_cycles_to_ps(7, 1.4), 5000); /* exactly 5000 */
    assert_int_equal(event_cycles_to_ps(0, 1.4), 0);
    assert_int_equal(event_ps_to_cycles(715, 1.4), 1);
    assert_int_equal(event_ps_to_cycles(714, 1.4), 0);
    assert_int_equal(event_cycles_to_ps(1000, 1.0), 1000000);
    /* cycles(ps(n)) == n */
    const double clocks[] = {0.96, 1.05, 1.12, 1.4, 1.75, 2.4, 2.8};
    for (size_t c = 0; c < ARRAY_LEN(clocks); c++)
        for (uint64_t n = 0; n < 3000; n += 7) assert_int_equal(event_ps_to_cycles(event_cycles_to_ps(n, clocks[c]), clocks[c]), n);
}

static void test_clock_is_exact_for_huge_counts(void **state)
{
    (void)state;
    /* 10^12 cycles at 2.8 GHz = 357142857142857.14 ps -> ...143 */
    assert_int_equal(event_cycles_to_ps(UINT64_C(1000000000000), 2.8), UINT64_C(357142857142858));
    assert_int_equal(event_ps_to_cycles(UINT64_C(357142857142858), 2.8), UINT64_C(1000000000000));
    /* 0.17 years of picoseconds at 1 GHz */
    uint64_t ps = UINT64_C(15000000000000000000);
    assert_int_equal(event_ps_to_cycles(ps, 1.0), ps / 1000);
}

static void test_clock_bytes_to_ps_rounds_up(void **state)
{
    (void)state;
    assert_int_equal(event_bytes_to_ps(4096, 409.6), 10000); /* not 10001 from 1e-12 noise */
    assert_int_equal(event_bytes_to_ps(1, 3), 334);
    assert_int_equal(event_bytes_to_ps(0, 3), 0);
    assert_int_equal(event_bytes_to_ps(1000, 1), 1000000);
}

TEST_MAIN(NULL, NULL, T(test_sched_orders_by_time_priority_sequence), T(test_sched_reschedule_and_cancel),
          T(test_sched_capacity_is_fixed), T(test_sched_random_order_is_sorted),
          T(test_clock_rounds_cycles_up_and_ps_down), T(test_clock_is_exact_for_huge_counts),
          T(test_clock_bytes_to_ps_rounds_up))
