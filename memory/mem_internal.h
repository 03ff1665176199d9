/* memory: private helpers (never included from outside memory/). */
#ifndef NPUSIM_MEM_INTERNAL_H
#define NPUSIM_MEM_INTERNAL_H

#include "memory/memory.h"

/* Bit ranges [lo, hi) of a bitmap of 64-bit words. */
/* Sets bits [lo, hi); returns how many were not set before. */
uint64_t mem_bits_set(uint64_t *words, uint64_t lo, uint64_t hi);
/* True when all of [lo, hi) are set; else *first is the first clear bit. */
bool mem_bits_all_set(const uint64_t *words, uint64_t lo, uint64_t hi, uint64_t *first);

#endif
