/* chip/ private: finding and reading the bundled data files (chips/). */
#ifndef NPUSIM_CHIP_INTERNAL_H
#define NPUSIM_CHIP_INTERNAL_H

#include "chip/chip.h"

/* The path of a bundled data file (e.g. "tpu-v5e.chip", "prices.tsv"),
 * looked up in $NPUSIM_CHIPS, ./chips and ../../chips next to the running
 * executable, in that order.  False when none has it; tried (may be NULL)
 * then lists the directories. */
bool chip_data_path(const char *file, char *path, size_t cap, char *tried, size_t tried_cap);
/* A whole text file (at most 1 MiB): *text (free) and *len.  what names it
 * in errors ("chip file"). */
enum base_status chip_read_text(const char *path, const char *what, char **text, size_t *len, struct base_diag *diag);

#endif
