/* splitmix64: small, fast, and the same sequence on every platform. */
#include "base/base.h"

#include <math.h>

void base_rng_seed(struct base_rng *r, uint64_t seed) { r->state = seed; }

uint64_t base_rng_next(struct base_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

double base_rng_uniform(struct base_rng *r)
{
    return (double)(base_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double base_rng_normal(struct base_rng *r)
{
    double u1 = base_rng_uniform(r), u2 = base_rng_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
