/* Sessionize in three passes (exercise ex03.3): the latest session start of every tile, then the
 * carry into every tile (a scan of those), then each tile's labels from its own scan and its
 * carry. The simple way across tiles, before the single pass of 3_scan_chained.cu. */
#ifndef SESSIONIZE_SCAN_THREE_PHASE_H
#define SESSIONIZE_SCAN_THREE_PHASE_H

#include "sessionize_gpu.h"

#define THREE_PHASE_THREADS 256
#define THREE_PHASE_ITEMS 16 /* events per thread and tile */
#define THREE_PHASE_TILE (THREE_PHASE_THREADS * THREE_PHASE_ITEMS)
#define CARRY_THREADS 1024   /* phase 2: one block */
#define CARRY_ITEMS 4        /* tiles per thread and round of phase 2 */

extern const session_variant three_phase_variant; /* "three-phase" */

#endif
