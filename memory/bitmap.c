/* Bit-range helpers for the written-bytes maps: whole words at a time. */
#include "memory/mem_internal.h"

static inline uint64_t mask_from(unsigned b) { return b >= 64 ? 0 : ~UINT64_C(0) << b; }
static inline uint64_t mask_below(unsigned b) { return b >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1; }

static inline uint64_t set_word(uint64_t *w, uint64_t m)
{
    uint64_t fresh = m & ~*w;
    *w |= m;
    /* words are mostly all new or all old: skip the (software) popcount */
    if (fresh == 0) return 0;
    if (fresh == ~UINT64_C(0)) return 64;
    return (uint64_t)__builtin_popcountll(fresh);
}

uint64_t mem_bits_set(uint64_t *words, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t wl = lo >> 6, wh = (hi - 1) >> 6;
    uint64_t first = mask_from((unsigned)(lo & 63)), last = mask_below((unsigned)(((hi - 1) & 63) + 1));
    if (wl == wh) return set_word(&words[wl], first & last);
    uint64_t n = set_word(&words[wl], first);
    for (uint64_t w = wl + 1; w < wh; w++) n += set_word(&words[w], ~UINT64_C(0));
    return n + set_word(&words[wh], last);
}

bool mem_bits_all_set(const uint64_t *words, uint64_t lo, uint64_t hi, uint64_t *first)
{
    for (uint64_t b = lo; b < hi;) {
        uint64_t w = b >> 6;
        unsigned off = (unsigned)(b & 63);
        uint64_t span = 64 - off;
        if (span > hi - b) span = hi - b;
        uint64_t want = mask_below((unsigned)span) << off;
        if (span == 64) want = ~UINT64_C(0);
        uint64_t miss = ~words[w] & want;
        if (miss) {
            *first = (w << 6) + (uint64_t)__builtin_ctzll(miss);
            return false;
        }
        b += span;
    }
    return true;
}
