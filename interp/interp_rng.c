/* Random numbers: stablehlo.rng_bit_generator and stablehlo.rng.
 *
 * rng_bit_generator's bits are implementation-defined by the spec.  We
 * produce XLA's (what JAX programs see on CPU and TPU), so that expected
 * values recorded from JAX match:
 *   THREE_FRY: state u64[2] = [key, counter]; Threefry-2x32 with 20 rounds
 *     (Salmon et al., SC'11) over counter + linear index.  64-bit outputs use
 *     one block per element; 32-bit (and narrower) outputs use one block per
 *     two elements along the first even dimension (XLA's shape split).
 *   PHILOX (and DEFAULT): state u64[3] = [key, counter lo, counter hi];
 *     Philox-4x32 with 10 rounds over a 128-bit counter, outputs interleaved
 *     round-robin.
 * stablehlo.rng (UNIFORM, NORMAL) is implementation-defined too; it draws
 * from a splitmix64 stream seeded by the run's seed and the op, so runs are
 * reproducible. */
#include "interp/interp_internal.h"

#include <math.h>
#include <string.h>

static uint32_t rotl32(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

static void threefry2x32(uint32_t x[2], const uint32_t key[2])
{
    static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    uint32_t ks[3] = {key[0], key[1], 0x1BD11BDA ^ key[0] ^ key[1]};
    x[0] += ks[0];
    x[1] += ks[1];
    for (int block = 0; block < 5; block++) {
        const int *r = rot + (block % 2) * 4;
        for (int i = 0; i < 4; i++) {
            x[0] += x[1];
            x[1] = rotl32(x[1], r[i]);
            x[1] ^= x[0];
        }
        x[0] += ks[(block + 1) % 3];
        x[1] += ks[(block + 2) % 3] + (uint32_t)(block + 1);
    }
}

static void philox4x32(uint32_t x[4], uint32_t k0, uint32_t k1)
{
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)x[0] * 0xD2511F53u;
        uint64_t p1 = (uint64_t)x[2] * 0xCD9E8D57u;
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0;
        uint32_t y1 = (uint32_t)p1;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1;
        uint32_t y3 = (uint32_t)p0;
        x[0] = y0;
        x[1] = y1;
        x[2] = y2;
        x[3] = y3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* Index of XLA's split dimension: the first even one, else the largest. */
static int split_dim(const struct base_tensor *t)
{
    for (int d = 0; d < t->rank; d++)
        if (t->dims[d] % 2 == 0) return d;
    int best = 0;
    for (int d = 1; d < t->rank; d++)
        if (t->dims[d] > t->dims[best]) best = d;
    return best;
}

static void threefry_fill(struct base_tensor *out, uint64_t key64, uint64_t *counter)
{
    const uint32_t key[2] = {(uint32_t)key64, (uint32_t)(key64 >> 32)};
    size_t bits = (size_t)base_dtype_bits(out->dtype);
    if (bits == 64) {
        for (int64_t i = 0; i < out->count; i++) {
            uint64_t c = *counter + (uint64_t)i;
            uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
            threefry2x32(x, key);
            base_elem_set_bits(out->dtype, out->data, (size_t)i, (uint64_t)x[0] | ((uint64_t)x[1] << 32));
        }
        *counter += (uint64_t)out->count;
        return;
    }
    /* 32 bits or narrower: the half shape halves the split dimension
     * (rounded up); element i of that dim takes word i % 2 of block i / 2. */
    uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    if (out->rank == 0) {
        uint32_t x[2] = {(uint32_t)*counter, (uint32_t)(*counter >> 32)};
        threefry2x32(x, key);
        base_elem_set_bits(out->dtype, out->data, 0, x[0] & mask);
        *counter += 1;
        return;
    }
    int sd = split_dim(out);
    int64_t half[BASE_MAX_RANK];
    memcpy(half, out->dims, (size_t)out->rank * sizeof *half);
    half[sd] = (out->dims[sd] + 1) / 2;
    int64_t half_count = base_shape_count(out->rank, half);
    int64_t idx[BASE_MAX_RANK];
    for (int64_t i = 0; i < out->count; i++) {
        interp_index_from_linear(out->rank, out->dims, i, idx);
        int word = (int)(idx[sd] % 2);
        idx[sd] /= 2;
        uint64_t c = *counter + (uint64_t)interp_linear_from_index(out->rank, half, idx);
        uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
        threefry2x32(x, key);
        base_elem_set_bits(out->dtype, out->data, (size_t)i, x[word] & mask);
    }
    *counter += (uint64_t)half_count;
}

/* Philox block j of the 128-bit counter (lo, hi) + j. */
static void philox_block(uint64_t lo, uint64_t hi, uint64_t j, uint64_t key64, uint32_t x[4])
{
    uint64_t l = lo + j;
    uint64_t h = hi + (l < lo);
    x[0] = (uint32_t)l;
    x[1] = (uint32_t)(l >> 32);
    x[2] = (uint32_t)h;
    x[3] = (uint32_t)(h >> 32);
    philox4x32(x, (uint32_t)key64, (uint32_t)(key64 >> 32));
}

static void philox_fill(struct base_tensor *out, uint64_t key64, uint64_t *lo, uint64_t *hi)
{
    size_t bits = (size_t)base_dtype_bits(out->dtype);
    uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    uint64_t n = (uint64_t)out->count;
    uint64_t blocks;
    uint32_t x[4];
    if (bits == 64) {
        /* 2n words in ceil(2n/4) blocks; element 2j+i is (word 2i, word 2i+1) of block j */
        blocks = (2 * n + 3) / 4;
        for (uint64_t e = 0; e < n; e++) {
            philox_block(*lo, *hi, e / 2, key64, x);
            int i = (int)(e % 2);
            base_elem_set_bits(out->dtype, out->data, (size_t)e, (uint64_t)x[2 * i] | ((uint64_t)x[2 * i + 1] << 32));
        }
    } else {
        blocks = (n + 3) / 4;
        for (uint64_t e = 0; e < n; e++) {
            philox_block(*lo, *hi, e / 4, key64, x);
            base_elem_set_bits(out->dtype, out->data, (size_t)e, x[e % 4] & mask);
        }
    }
    uint64_t l = *lo + blocks;
    *hi += (l < *lo);
    *lo = l;
}

static enum base_status k_rng_bit_generator(struct interp_proc *p, const struct graph_op *op,
                                            struct interp_value *const *in, struct interp_value **out)
{
    const struct base_tensor *st = iv_t(in[0]);
    if (!st || st->rank != 1 || (st->dtype != BASE_DT_UI64 && st->dtype != BASE_DT_SI64) ||
        interp_result_dtype(p, op, 0) != st->dtype)
        return interp_fail(p, op, BASE_ERR_UNSUPPORTED, "only a 1-D ui64 or i64 state (of one type in and out) is "
                           "supported");
    const struct graph_attr *alg = graph_op_attr(op, "rng_algorithm");
    bool threefry = graph_attr_is_keyword(alg, "THREE_FRY");
    struct base_tensor *ns = NULL, *bits = NULL;
    TRY(interp_alloc_result(p, op, 1, &bits));
    enum base_status s = base_tensor_clone(st, &ns);
    if (s != BASE_OK) {
        base_tensor_release(bits);
        return interp_fail(p, op, s, "out of memory");
    }
    const uint64_t *state = st->data;
    uint64_t *nstate = ns->data;
    if (base_dtype_kind(bits->dtype) == BASE_KIND_COMPLEX || bits->dtype == BASE_DT_I1) {
        s = interp_fail(p, op, BASE_ERR_UNSUPPORTED, "random bits of type %s", base_dtype_name(bits->dtype));
    } else if (threefry) {
        if (st->count < 2) {
            s = interp_fail(p, op, BASE_ERR_INVALID, "THREE_FRY needs a state of 2 x ui64, got %lld",
                            (long long)st->count);
        } else {
            uint64_t counter = state[1];
            threefry_fill(bits, state[0], &counter);
            nstate[1] = counter;
        }
    } else {
        if (st->count < 2) {
            s = interp_fail(p, op, BASE_ERR_INVALID, "PHILOX needs a state of 2 or 3 x ui64, got %lld",
                            (long long)st->count);
        } else {
            uint64_t lo = state[1], hi = st->count > 2 ? state[2] : 0;
            philox_fill(bits, state[0], &lo, &hi);
            nstate[1] = lo;
            if (st->count > 2) nstate[2] = hi;
        }
    }
    struct base_tensor *res[2] = {ns, bits};
    return interp_set_outs(p, op, s, out, res, 2);
}

static enum base_status k_rng(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                              struct interp_value **out)
{
    const struct base_tensor *a = iv_t(in[0]), *b = iv_t(in[1]);
    if (!a || !b || a->count != 1 || b->count != 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "a and b must be scalars");
    const struct graph_attr *dist = graph_op_attr(op, "rng_distribution");
    bool normal = graph_attr_is_keyword(dist, "NORMAL");
    struct base_tensor *r = NULL;
    TRY(interp_alloc_result(p, op, 0, &r));
    struct base_rng rng;
    base_rng_seed(&rng, (p->opt ? p->opt->seed : 0) * 0x9E3779B97F4A7C15ull + op->id);
    enum base_dtype dt = r->dtype;
    if (base_dtype_is_int(dt) || dt == BASE_DT_I1) {
        int64_t lo = base_elem_get_i64(a->dtype, a->data, 0), hi = base_elem_get_i64(b->dtype, b->data, 0);
        uint64_t range = hi > lo ? (uint64_t)hi - (uint64_t)lo : 1;
        for (int64_t i = 0; i < r->count; i++)
            base_elem_set_i64(dt, r->data, (size_t)i, lo + (int64_t)(base_rng_next(&rng) % range));
    } else {
        double lo = base_elem_get_f64(a->dtype, a->data, 0), hi = base_elem_get_f64(b->dtype, b->data, 0);
        for (int64_t i = 0; i < r->count; i++) {
            double v = normal ? lo + hi * base_rng_normal(&rng) : lo + (hi - lo) * base_rng_uniform(&rng);
            base_elem_set_f64(dt, r->data, (size_t)i, v);
        }
    }
    return interp_set_out(p, op, out, 0, r);
}

void interp_register_rng(interp_kernel_fn *table)
{
    table[GRAPH_OP_RNG_BIT_GENERATOR] = k_rng_bit_generator;
    table[GRAPH_OP_RNG] = k_rng;
}
