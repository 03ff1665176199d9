/* The discrete-event kernel: integer picoseconds, deterministic order.
 *
 * Events fire in (time, priority, insertion sequence) order: the earliest
 * time first, then the lowest priority number, then the one scheduled first.
 * Components embed their own struct sim_event and reschedule it; the
 * scheduler is a binary heap of pointers sized once at init and never
 * allocates afterwards (scheduling more events than its capacity is a
 * BASE_ERR_LIMIT).  Depends on base only, so memory/ and interconnect/ can
 * use it.
 *
 * Also here: the one cycle <-> picosecond conversion of the project
 * (sim/clock.c).  Clocks are carried as integer kHz (clock_ghz * 10^6,
 * rounded to the nearest kHz).  Rounding rule, used everywhere:
 *     ps(cycles)  = ceil(cycles * 10^9 / f_kHz)     (a duration never shrinks)
 *     cycles(ps)  = floor(ps * f_kHz / 10^9)        (so cycles(ps(n)) == n)
 * Arithmetic is exact (128-bit intermediates when 64 bits could overflow).
 */
#ifndef NPUSIM_SIM_EVENT_H
#define NPUSIM_SIM_EVENT_H

#include "base/base.h"

struct sim_sched;
struct sim_event;

/* Called when the event fires; sim_sched_now() is its time. */
typedef void (*sim_event_fn)(struct sim_sched *s, struct sim_event *ev);

#define SIM_EVENT_IDLE UINT32_MAX

struct sim_event {
    uint64_t time_ps;
    uint64_t key;        /* priority << 56 | insertion sequence (internal) */
    sim_event_fn fn;
    void *user;          /* the owning component */
    uint32_t heap_index; /* SIM_EVENT_IDLE when not scheduled */
    uint8_t priority;    /* lower fires first at equal times */
};

struct sim_sched {
    struct sim_event **heap;
    uint32_t n, cap;
    uint64_t now_ps;
    uint64_t next_seq;
    uint64_t fired; /* events fired so far */
};

/* A heap for at most `cap` simultaneously scheduled events.  ERR_NOMEM. */
enum base_status sim_sched_init(struct sim_sched *s, uint32_t cap);
void sim_sched_deinit(struct sim_sched *s);

void sim_event_init(struct sim_event *ev, sim_event_fn fn, void *user, uint8_t priority);
static inline bool sim_event_pending(const struct sim_event *ev) { return ev->heap_index != SIM_EVENT_IDLE; }

/* Schedules ev at time_ps (>= now), or moves it there if it is already
 * pending (it then takes a new sequence number, as a fresh event would).
 * ERR_INVALID for a time in the past, ERR_LIMIT when the heap is full. */
enum base_status sim_sched_at(struct sim_sched *s, struct sim_event *ev, uint64_t time_ps);
/* Removes ev if pending; a no-op otherwise. */
void sim_sched_cancel(struct sim_sched *s, struct sim_event *ev);

static inline uint64_t sim_sched_now(const struct sim_sched *s) { return s->now_ps; }
static inline bool sim_sched_empty(const struct sim_sched *s) { return s->n == 0; }
/* Time of the next event (UINT64_MAX when none). */
static inline uint64_t sim_sched_next_time(const struct sim_sched *s)
{
    return s->n ? s->heap[0]->time_ps : UINT64_MAX;
}
/* Fires the next event (advancing now to its time); false when none is left. */
bool sim_sched_step(struct sim_sched *s);
/* Advances now without firing anything; t must not pass the next event.
 * For components that run ahead inline while nothing else is due. */
void sim_sched_advance(struct sim_sched *s, uint64_t t);

/* ---------------------------------------------------------------- clock */

/* clock_ghz * 10^6 rounded to the nearest kHz (>= 1). */
uint64_t sim_clock_khz(double clock_ghz);
/* ceil(cycles * 10^9 / f_kHz) */
uint64_t sim_cycles_to_ps_khz(uint64_t cycles, uint64_t khz);
/* floor(ps * f_kHz / 10^9) */
uint64_t sim_ps_to_cycles_khz(uint64_t ps, uint64_t khz);
/* The same with the clock as the chip file gives it. */
uint64_t sim_cycles_to_ps(uint64_t cycles, double clock_ghz);
uint64_t sim_ps_to_cycles(uint64_t ps, double clock_ghz);
/* Time to move `bytes` at `bytes_per_ns`: ceil(bytes * 1000 / bytes_per_ns)
 * ps, where a fraction below 1e-6 ps is dropped (so 4096 B at 409.6 B/ns is
 * exactly 10000 ps despite binary floating point).  bytes may be fractional
 * (what is left of a transfer).  0 bytes: 0 ps. */
uint64_t sim_bytes_to_ps(double bytes, double bytes_per_ns);

#endif
