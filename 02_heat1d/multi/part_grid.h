/* The grid of a part's update (parts.cu), in plain C: parts.cu asks it for each launch, the CPU
 * test tests/multi_grid_test.c asks it for every GPU of common/gpu_table.h. */
#ifndef HEAT1D_PART_GRID_H
#define HEAT1D_PART_GRID_H

#include <stddef.h>

/* Blocks of `threads` threads for `points` points of a part: one thread per point up to `cap`
 * blocks (heat_part.blocks: what heat_config_step gives the one-GPU kernel for the whole rod,
 * 2^20 at most), the kernel's grid-stride loop doing the rest; at least 1. So a part of N points
 * gets the launch the one-GPU kernel gets for a rod of N points. */
static inline unsigned heat_part_grid(size_t points, int threads, size_t cap)
{
    const size_t needed = points / (size_t)threads + (points % (size_t)threads != 0);
    const size_t blocks = needed < cap ? needed : cap;
    return (unsigned)(blocks > 0 ? blocks : 1);
}

#endif
