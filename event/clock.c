/* The one cycle <-> picosecond conversion (rule in event/event.h):
 *     ps(cycles) = ceil(cycles * 10^9 / f_kHz),  cycles(ps) = floor(ps * f_kHz / 10^9).
 * Integer only; 128-bit intermediates when the product could overflow. */
#include "event/event.h"

#include <math.h>

#define PS_PER_S_OVER_KHZ UINT64_C(1000000000) /* 10^12 ps/s / 10^3 Hz/kHz */

uint64_t event_clock_khz(double clock_ghz)
{
    if (!(clock_ghz > 0)) return 1;
    double khz = floor(clock_ghz * 1e6 + 0.5);
    return khz < 1 ? 1 : (uint64_t)khz;
}

uint64_t event_cycles_to_ps_khz(uint64_t cycles, uint64_t khz)
{
    if (cycles <= UINT64_MAX / PS_PER_S_OVER_KHZ) return (cycles * PS_PER_S_OVER_KHZ + khz - 1) / khz;
    unsigned __int128 n = (unsigned __int128)cycles * PS_PER_S_OVER_KHZ;
    n = (n + khz - 1) / khz;
    return n > UINT64_MAX ? UINT64_MAX : (uint64_t)n; /* saturates: the simulator refuses such times */
}

uint64_t event_ps_to_cycles_khz(uint64_t ps, uint64_t khz)
{
    if (khz <= UINT64_MAX / (ps ? ps : 1)) return ps * khz / PS_PER_S_OVER_KHZ;
    unsigned __int128 n = (unsigned __int128)ps * khz;
    return (uint64_t)(n / PS_PER_S_OVER_KHZ);
}

uint64_t event_cycles_to_ps(uint64_t cycles, double clock_ghz)
{
    return event_cycles_to_ps_khz(cycles, event_clock_khz(clock_ghz));
}

uint64_t event_ps_to_cycles(uint64_t ps, double clock_ghz)
{
    return event_ps_to_cycles_khz(ps, event_clock_khz(clock_ghz));
}

