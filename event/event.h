/* The discrete-event kernel: integer picoseconds, deterministic order.
 *
 * Events fire in (time, priority, insertion sequence) order: the earliest
 * time first, then the lowest priority number, then the one scheduled first.
 * Components embed their own struct event and reschedule it; the
 * scheduler is a binary heap of pointers sized once at init and never
 * allocates afterwards (scheduling more events than its capacity is a
 * BASE_ERR_LIMIT).  Depends on base only, so memory/ and interconnect/ can
 * use it.
 *
 * Also here: the one cycle <-> picosecond conversion of the project
 * (event/clock.c).  Clocks are carried as integer kHz (clock_ghz * 10^6,
 * rounded to the nearest kHz).  Rounding rule, used everywhere:
 *     ps(cycles)  = ceil(cycles * 10^9 / f_kHz)     (a duration never shrinks)
 *     cycles(ps)  = floor(ps * f_kHz / 10^9)        (so cycles(ps(n)) == n)
 * Arithmetic is exact (128-bit intermediates when 64 bits could overflow).
 */
#ifndef NPUSIM_EVENT_EVENT_H
#define NPUSIM_EVENT_EVENT_H

#include "base/base.h"

struct event_sched;
struct event;

/* Called when the event fires; event_sched_now() is its time. */
typedef void (*event_fn)(struct event_sched *s, struct event *ev);

#define EVENT_IDLE UINT32_MAX

struct event {
    uint64_t time_ps;
    uint64_t key;        /* priority << 56 | insertion sequence (internal) */
    event_fn fn;
    void *user;          /* the owning component */
    uint32_t heap_index; /* EVENT_IDLE when not scheduled */
    uint8_t priority;    /* lower fires first at equal times */
};

struct event_sched {
    struct event **heap;
    uint32_t n, cap;
    uint64_t now_ps;
    uint64_t next_seq;
    uint64_t fired; /* events fired so far */
};

/* A heap for at most `cap` simultaneously scheduled events.  ERR_NOMEM. */
enum base_status event_sched_init(struct event_sched *s, uint32_t cap);
void event_sched_deinit(struct event_sched *s);

void event_init(struct event *ev, event_fn fn, void *user, uint8_t priority);
static inline bool event_pending(const struct event *ev) { return ev->heap_index != EVENT_IDLE; }

/* Schedules ev at time_ps (>= now), or moves it there if it is already
 * pending (it then takes a new sequence number, as a fresh event would).
 * ERR_INVALID for a time in the past, ERR_LIMIT when the heap is full. */
enum base_status event_sched_at(struct event_sched *s, struct event *ev, uint64_t time_ps);
/* Removes ev if pending; a no-op otherwise. */
void event_sched_cancel(struct event_sched *s, struct event *ev);

static inline uint64_t event_sched_now(const struct event_sched *s) { return s->now_ps; }
static inline bool event_sched_empty(const struct event_sched *s) { return s->n == 0; }
/* Time of the next event (UINT64_MAX when none). */
static inline uint64_t event_sched_next_time(const struct event_sched *s)
{
    return s->n ? s->heap[0]->time_ps : UINT64_MAX;
}
/* Fires the next event (advancing now to its time); false when none is left. */
bool event_sched_step(struct event_sched *s);
/* Advances now without firing anything; t must not pass the next event.
 * For components that run ahead inline while nothing else is due. */
void event_sched_advance(struct event_sched *s, uint64_t t);

/* ---------------------------------------------------------------- clock */

/* clock_ghz * 10^6 rounded to the nearest kHz (>= 1). */
uint64_t event_clock_khz(double clock_ghz);
/* ceil(cycles * 10^9 / f_kHz) */
uint64_t event_cycles_to_ps_khz(uint64_t cycles, uint64_t khz);
/* floor(ps * f_kHz / 10^9) */
uint64_t event_ps_to_cycles_khz(uint64_t ps, uint64_t khz);
/* The same with the clock as the chip file gives it. */
uint64_t event_cycles_to_ps(uint64_t cycles, double clock_ghz);
uint64_t event_ps_to_cycles(uint64_t ps, double clock_ghz);
/* Time to move `bytes` at `bytes_per_ns`: ceil(bytes * 1000 / bytes_per_ns)
 * ps, where a fraction below 1e-6 ps is dropped (so 4096 B at 409.6 B/ns is
 * exactly 10000 ps despite binary floating point).  bytes may be fractional
 * (what is left of a transfer).  0 bytes: 0 ps. */
static inline uint64_t event_bytes_to_ps(double bytes, double bytes_per_ns)
{
    /* inline: the HBM model calls it for every transfer at every change of shares */
    if (!(bytes > 0)) return 0;
    if (!(bytes_per_ns > 0)) return UINT64_MAX;
    double x = bytes * 1000.0 / bytes_per_ns;
    if (x >= 1.8e19) return UINT64_MAX;
    uint64_t r = (uint64_t)x;
    if (x - (double)r > 1e-6) r++;
    return r;
}

#endif
