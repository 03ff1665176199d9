/* Private to interconnect/: shared helpers of the topology, network,
 * collective and runner files. */
#ifndef NPUSIM_ICN_INTERNAL_H
#define NPUSIM_ICN_INTERNAL_H

#include "interconnect/interconnect.h"

#endif
