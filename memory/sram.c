/* On-chip SRAM: a scratchpad or an accumulator of partitions x bytes, in
 * banks.  Values only in functional mode; written-bytes bits on request. */
#include "memory/mem_internal.h"

#include <stdlib.h>
#include <string.h>

enum base_status mem_sram_init(struct mem_sram *s, uint32_t partitions, uint64_t bytes_per_partition, uint32_t banks,
                               bool store_values, bool track_written)
{
    s->partitions = partitions;
    s->bytes_per_partition = bytes_per_partition;
    s->banks = banks ? banks : 1;
    s->bank_bytes = bytes_per_partition / s->banks;
    if (s->bank_bytes == 0) s->bank_bytes = 1;
    s->data = NULL;
    s->written = NULL;
    memset(&s->wcache, 0, sizeof s->wcache);
    s->words_per_partition = (bytes_per_partition + 63) / 64;
    if (store_values && partitions && bytes_per_partition) {
        s->data = calloc(partitions, bytes_per_partition);
        if (!s->data) return BASE_ERR_NOMEM;
    }
    if (track_written && partitions && bytes_per_partition) {
        s->written = calloc((size_t)partitions * s->words_per_partition, sizeof(uint64_t));
        if (!s->written) {
            mem_sram_deinit(s);
            return BASE_ERR_NOMEM;
        }
    }
    return BASE_OK;
}

void mem_sram_deinit(struct mem_sram *s)
{
    free(s->data);
    free(s->written);
    s->data = NULL;
    s->written = NULL;
}

void mem_sram_mark_written(struct mem_sram *s, uint32_t partition, uint64_t lo, uint64_t hi)
{
    if (!s->written) return;
    mem_bits_set(s->written + (uint64_t)partition * s->words_per_partition, lo, hi);
}

bool mem_sram_all_written(const struct mem_sram *s, uint32_t partition, uint64_t lo, uint64_t hi, uint64_t *first)
{
    if (!s->written) return true;
    return mem_bits_all_set(s->written + (uint64_t)partition * s->words_per_partition, lo, hi, first);
}

bool mem_sram_box_written(struct mem_sram *s, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi, uint32_t *part,
                          uint64_t *first)
{
    if (!s->written || lo >= hi) return true;
    if (mem_wcache_has(&s->wcache, p0, p1, lo, hi)) {
        s->wcache.hits++;
        return true;
    }
    for (uint32_t p = p0; p < p1; p++)
        if (!mem_bits_all_set(s->written + (uint64_t)p * s->words_per_partition, lo, hi, first)) {
            *part = p;
            return false;
        }
    mem_wcache_add(&s->wcache, p0, p1, lo, hi);
    return true;
}

void mem_sram_box_mark_written(struct mem_sram *s, uint32_t p0, uint32_t p1, uint64_t lo, uint64_t hi)
{
    if (!s->written || lo >= hi || p0 >= p1) return;
    if (mem_wcache_has(&s->wcache, p0, p1, lo, hi)) {
        s->wcache.hits++;
        return;
    }
    for (uint32_t p = p0; p < p1; p++) mem_bits_set(s->written + (uint64_t)p * s->words_per_partition, lo, hi);
    mem_wcache_add(&s->wcache, p0, p1, lo, hi);
}
