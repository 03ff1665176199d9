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

/* Draw k of the splitmix64 stream seeded with seed: base_rng_next's k-th
 * result (0-based), computed directly (splitmix64 is a counter: its state
 * after k + 1 calls is seed + (k + 1) * gamma). */
static inline uint64_t rng_draw(uint64_t seed, uint64_t k)
{
    uint64_t z = seed + (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Random test data, fast enough for multi-GB weight tensors: each 64-bit draw
 * gives four 16-bit uniforms.  Floats are uniform with mean 0 and standard
 * deviation `scale` (in [-sqrt(3) scale, sqrt(3) scale)); they are generated
 * as f32 and converted with base_convert (round to nearest even).  Value j
 * (a component of a complex element counts as one value) takes 16 bits of
 * draw j / 4 (floats) or all of draw j (integers), so any range of elements
 * is computed directly, with no state carried from the ones before it: the
 * procedural inputs (base_tensor_create_random) read it piecewise, and
 * base_tensor_fill_random is this function over the whole tensor. */
void base_random_elems(enum base_dtype dt, uint64_t seed, double scale, int64_t first, int64_t n, void *out)
{
    enum base_dtype_kind kind = base_dtype_kind(dt);
    if (n <= 0) return;
    if (kind == BASE_KIND_BOOL || kind == BASE_KIND_SINT || kind == BASE_KIND_UINT) {
        uint64_t hi = base_int_max(dt);
        uint64_t range = hi < 999 ? hi + 1 : 1000;
        for (int64_t i = 0; i < n; i++)
            base_elem_set_i64(dt, out, (size_t)i, (int64_t)(rng_draw(seed, (uint64_t)(first + i)) % range));
        return;
    }
    enum { CHUNK = 1 << 12 };
    float buf[CHUNK];
    const float step = (float)(scale * 3.4641016151377544 / 65536.0); /* 2 sqrt(3) scale / 2^16 */
    const float off = (float)(scale * 1.7320508075688772) - step * 0.5f;
    enum base_dtype comp = base_dtype_component(dt);
    size_t esize = base_dtype_size(comp);
    int per = kind == BASE_KIND_COMPLEX ? 2 : 1; /* values per element */
    uint64_t v0 = (uint64_t)first * (uint64_t)per, nv = (uint64_t)n * (uint64_t)per;
    for (uint64_t start = 0; start < nv; start += CHUNK) {
        size_t m = nv - start < CHUNK ? (size_t)(nv - start) : CHUNK;
        uint64_t j = v0 + start;
        /* one draw per 4 values: a partial group at either end */
        for (size_t i = 0; i < m;) {
            uint64_t x = rng_draw(seed, j >> 2);
            unsigned s = (unsigned)(j & 3);
            size_t k = m - i < 4 - s ? m - i : 4 - s;
            if (k == 4) {
                buf[i] = (float)(x & 0xFFFF) * step - off;
                buf[i + 1] = (float)((x >> 16) & 0xFFFF) * step - off;
                buf[i + 2] = (float)((x >> 32) & 0xFFFF) * step - off;
                buf[i + 3] = (float)(x >> 48) * step - off;
            } else {
                for (size_t q = 0; q < k; q++) buf[i + q] = (float)((x >> (16 * (s + q))) & 0xFFFF) * step - off;
            }
            i += k;
            j += k;
        }
        base_convert(comp, (char *)out + start * esize, BASE_DT_F32, buf, m);
    }
}

enum base_status base_tensor_fill_random(struct base_tensor *t, uint64_t seed, double scale)
{
    if (t->lazy) return BASE_ERR_INVALID;
    base_random_elems(t->dtype, seed, scale, 0, t->count, t->data);
    return BASE_OK;
}
