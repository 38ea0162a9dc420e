/* A dot product at the speed of CUB's reduction over the same bytes (exercise ex07.3): 16-byte
 * loads, sums in registers, warp shuffles, and one float atomicAdd per block. */
#ifndef ATOMICS_DOT_FAST_H
#define ATOMICS_DOT_FAST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *c = sum of a[i] * b[i] for i < n (device pointers, 16-byte aligned as cudaMalloc's are; c
 * need not be zeroed), on stream 0; returns without waiting. The grid is one wave of blocks
 * (the most that fit on an SM of this GPU, times its SMs). */
void dot_fast(const float *a, const float *b, size_t n, float *c);

#ifdef __cplusplus
}
#endif

#endif
