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

/* Phase 2: one block of CARRY_THREADS, carry[t] = the latest start of tiles 0 .. t-1 (declared
 * here for the grader, which runs it alone). */
__global__ void __launch_bounds__(CARRY_THREADS)
tile_carry_kernel(const int64_t *__restrict__ tile_latest, int64_t tiles,
                  int64_t *__restrict__ carry);

#endif
