/* npusim: the one public header of libnpusim.a.
 *
 * A backend's own test harness includes this and links libnpusim.a (and -lm
 * -lpthread).  Each module's API is its own header, gathered here:
 *   base/base.h    status and diagnostics, arenas, logging, RNG, element
 *                  types and exact numerics, tensors, .npy I/O
 *   graph/graph.h  StableHLO text -> graph IR, printer, verifier, golden
 *                  interpreter, conformance cases
 */
#ifndef NPUSIM_H
#define NPUSIM_H

#include "base/base.h"
#include "graph/graph.h"

#endif
