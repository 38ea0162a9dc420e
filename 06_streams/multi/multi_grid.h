/* The grid of the multi-GPU programs' grid-stride kernels (multi_kernels.cu), in plain C: the
 * kernels' launcher asks it with the current GPU's SM count and the occupancy API's blocks per
 * SM; the CPU test grid_tests.c asks it with every GPU of common/gpu_table.h and blocks per SM
 * computed from register counts ptxas reported (which a later compiler may change). */
#ifndef MULTI_GRID_H
#define MULTI_GRID_H

#include <stddef.h>

/* Blocks of `threads` threads over n items, on a GPU of `sms` SMs that holds `per_sm` such
 * blocks at once: one full wave, sms x per_sm, or the blocks n needs if fewer; at least 1
 * (n = 0 too). A per_sm of 0 (a block that does not fit: the launch fails) counts as 1. */
static inline int multi_grid_blocks(int sms, int per_sm, size_t n, int threads)
{
    const size_t wave = (size_t)(sms > 0 ? sms : 1) * (size_t)(per_sm > 0 ? per_sm : 1);
    const size_t needed = n / (size_t)threads + (n % (size_t)threads != 0); /* no overflow */
    return (int)(needed < wave ? (needed > 0 ? needed : 1) : wave);
}

#endif
