/* The event kernel: a binary min-heap of event pointers keyed by
 * (time, priority << 56 | sequence).  Each event knows its heap slot, so
 * cancel and reschedule are O(log n) without searching. */
#include "event/event.h"

#include <stdlib.h>

#define SEQ_MASK ((UINT64_C(1) << 56) - 1)

enum base_status event_sched_init(struct event_sched *s, uint32_t cap)
{
    s->n = 0;
    s->cap = cap ? cap : 1;
    s->now_ps = 0;
    s->next_seq = 0;
    s->fired = 0;
    s->heap = malloc(sizeof *s->heap * s->cap);
    return s->heap ? BASE_OK : BASE_ERR_NOMEM;
}

void event_sched_deinit(struct event_sched *s)
{
    for (uint32_t i = 0; i < s->n; i++) s->heap[i]->heap_index = EVENT_IDLE;
    free(s->heap);
    s->heap = NULL;
    s->n = s->cap = 0;
}

void event_init(struct event *ev, event_fn fn, void *user, uint8_t priority)
{
    ev->time_ps = 0;
    ev->key = 0;
    ev->fn = fn;
    ev->user = user;
    ev->heap_index = EVENT_IDLE;
    ev->priority = priority;
}

static inline bool before(const struct event *a, const struct event *b)
{
    return a->time_ps < b->time_ps || (a->time_ps == b->time_ps && a->key < b->key);
}

static inline void place(struct event_sched *s, uint32_t i, struct event *ev)
{
    s->heap[i] = ev;
    ev->heap_index = i;
}

static void sift_up(struct event_sched *s, uint32_t i)
{
    struct event *ev = s->heap[i];
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!before(ev, s->heap[parent])) break;
        place(s, i, s->heap[parent]);
        i = parent;
    }
    place(s, i, ev);
}

static void sift_down(struct event_sched *s, uint32_t i)
{
    struct event *ev = s->heap[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= s->n) break;
        if (c + 1 < s->n && before(s->heap[c + 1], s->heap[c])) c++;
        if (!before(s->heap[c], ev)) break;
        place(s, i, s->heap[c]);
        i = c;
    }
    place(s, i, ev);
}

static void remove_at(struct event_sched *s, uint32_t i)
{
    struct event *ev = s->heap[i];
    ev->heap_index = EVENT_IDLE;
    s->n--;
    if (i == s->n) return;
    struct event *last = s->heap[s->n];
    place(s, i, last);
    if (i > 0 && before(last, s->heap[(i - 1) / 2]))
        sift_up(s, i);
    else
        sift_down(s, i);
}

enum base_status event_sched_at(struct event_sched *s, struct event *ev, uint64_t time_ps)
{
    if (time_ps < s->now_ps) return BASE_ERR_INVALID;
    if (ev->heap_index != EVENT_IDLE) remove_at(s, ev->heap_index);
    if (s->n == s->cap) return BASE_ERR_LIMIT;
    ev->time_ps = time_ps;
    ev->key = (uint64_t)ev->priority << 56 | (s->next_seq++ & SEQ_MASK);
    place(s, s->n, ev);
    s->n++;
    sift_up(s, s->n - 1);
    return BASE_OK;
}

void event_sched_cancel(struct event_sched *s, struct event *ev)
{
    if (ev->heap_index != EVENT_IDLE) remove_at(s, ev->heap_index);
}

bool event_sched_step(struct event_sched *s)
{
    if (s->n == 0) return false;
    struct event *ev = s->heap[0];
    remove_at(s, 0);
    s->now_ps = ev->time_ps;
    s->fired++;
    ev->fn(s, ev);
    return true;
}

void event_sched_advance(struct event_sched *s, uint64_t t)
{
    BASE_ASSERT(t >= s->now_ps && (s->n == 0 || t <= s->heap[0]->time_ps));
    s->now_ps = t;
}
