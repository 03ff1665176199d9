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

/* Random test data, fast enough for multi-GB weight tensors: each 64-bit draw
 * gives four 16-bit uniforms.  Floats are uniform with mean 0 and standard
 * deviation `scale` (in [-sqrt(3) scale, sqrt(3) scale)); they are generated
 * as f32 in chunks and converted with base_convert (round to nearest even). */
enum base_status base_tensor_fill_random(struct base_tensor *t, uint64_t seed, double scale)
{
    struct base_rng r;
    base_rng_seed(&r, seed);
    enum base_dtype dt = t->dtype;
    enum base_dtype_kind kind = base_dtype_kind(dt);
    size_t n = (size_t)t->count * (kind == BASE_KIND_COMPLEX ? 2 : 1);
    if (kind == BASE_KIND_BOOL || kind == BASE_KIND_SINT || kind == BASE_KIND_UINT) {
        uint64_t hi = base_int_max(dt);
        uint64_t range = hi < 999 ? hi + 1 : 1000;
        for (size_t i = 0; i < n; i++) base_elem_set_i64(dt, t->data, i, (int64_t)(base_rng_next(&r) % range));
        return BASE_OK;
    }
    enum { CHUNK = 1 << 14 };
    float buf[CHUNK];
    const float step = (float)(scale * 3.4641016151377544 / 65536.0); /* 2 sqrt(3) scale / 2^16 */
    const float off = (float)(scale * 1.7320508075688772) - step * 0.5f;
    enum base_dtype comp = base_dtype_component(dt);
    size_t esize = base_dtype_size(comp);
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t m = n - start < CHUNK ? n - start : CHUNK;
        for (size_t i = 0; i < m; i += 4) {
            uint64_t x = base_rng_next(&r);
            for (size_t k = 0; k < 4 && i + k < m; k++) buf[i + k] = (float)((x >> (16 * k)) & 0xFFFF) * step - off;
        }
        base_convert(comp, (char *)t->data + start * esize, BASE_DT_F32, buf, m);
    }
    return BASE_OK;
}
