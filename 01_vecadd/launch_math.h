/* The arithmetic of launch configurations, on the host, in plain C (tested on the CPU).
 *
 * Sizes are size_t throughout: a vector of 2^31 floats is only 8 GiB, and `int` indices stop at
 * 2^31 - 1. */
#ifndef VECADD_LAUNCH_MATH_H
#define VECADD_LAUNCH_MATH_H

#include <stddef.h>

/* Blocks needed to give every one of n elements its own thread: ceil(n / threads). The Numba
 * example writes n // threads + 1, which launches one idle block whenever n divides evenly. */
static inline size_t blocks_to_cover(size_t n, unsigned threads)
{
    return n / threads + (n % threads != 0);
}

/* A grid-stride loop needs only enough blocks to fill the GPU once ("one wave"), and never more
 * than there is work for. Returns at least 1. */
static inline size_t grid_stride_blocks(size_t n, unsigned threads, int sm_count,
                                        int blocks_per_sm)
{
    const size_t wave = (size_t)sm_count * (size_t)blocks_per_sm;
    const size_t needed = blocks_to_cover(n, threads);
    const size_t blocks = needed < wave ? needed : wave;
    return blocks ? blocks : 1;
}

/* The float4 kernel splits n floats into n / 4 whole float4s and a tail of n % 4 floats. */
static inline size_t float4_count(size_t n) { return n / 4; }
static inline size_t float4_tail(size_t n) { return n % 4; }

#endif
