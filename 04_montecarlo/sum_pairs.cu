/* (sum f, sum f^2) of n floats in float64, in two launches: each block of a full wave adds its
 * grid-stride share and writes one pair, then one block adds those pairs in a fixed order (the
 * same input gives the same bits every run, which atomicAdd of doubles would not).
 * Inside a block (block_pair_sum): shuffles within each warp (registers, no barrier), one pair
 * per warp through shared memory, one __syncthreads(), and the first warp adds those up. */
#include <stdio.h>
#include <stdlib.h>

#include "sum_pairs.h"
#include "tutorial.h"

#define FULL_WARP 0xffffffffu

/* Every thread of the block must call it (it has a barrier); blockDim.x is a multiple of 32.
 * Thread 0 gets the block's total; the other threads' results are partial. */
static __device__ double2 block_pair_sum(double2 v)
{
    __shared__ double2 warp_totals[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) {
        v.x += __shfl_down_sync(FULL_WARP, v.x, offset);
        v.y += __shfl_down_sync(FULL_WARP, v.y, offset);
    }
    if (lane == 0)
        warp_totals[warp] = v;
    __syncthreads(); /* every warp's total is written before warp 0 reads them */
    if (warp == 0) {
        v = lane < (int)(blockDim.x / 32) ? warp_totals[lane] : make_double2(0.0, 0.0);
        for (int offset = 16; offset > 0; offset /= 2) {
            v.x += __shfl_down_sync(FULL_WARP, v.x, offset);
            v.y += __shfl_down_sync(FULL_WARP, v.y, offset);
        }
    }
    return v;
}

__global__ void sum_pairs_kernel(const float *__restrict__ values, size_t n,
                                 double2 *__restrict__ block_sums)
{
    double2 acc = make_double2(0.0, 0.0);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const double f = values[i];
        acc.x += f;
        acc.y += f * f;
    }
    acc = block_pair_sum(acc);
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = acc;
}

__global__ void sum_block_pairs_kernel(const double2 *__restrict__ block_sums, int count,
                                       double2 *__restrict__ out)
{
    double2 acc = make_double2(0.0, 0.0);
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        acc.x += block_sums[i].x;
        acc.y += block_sums[i].y;
    }
    acc = block_pair_sum(acc);
    if (threadIdx.x == 0)
        *out = acc;
}

int mc_sum_pairs_blocks(void)
{
    static int blocks = 0;
    if (blocks == 0)
        blocks = tut_full_wave_blocks((const void *)sum_pairs_kernel, "sum_pairs_kernel",
                                      SUM_PAIRS_THREADS, 0);
    return blocks;
}

void mc_sum_pairs_gpu(const float *values, size_t n, double2 *block_sums, int blocks,
                      double2 *out)
{
    sum_pairs_kernel<<<blocks, SUM_PAIRS_THREADS>>>(values, n, block_sums);
    LAUNCH_CHECK();
    sum_block_pairs_kernel<<<1, SUM_PAIRS_THREADS>>>(block_sums, blocks, out);
    LAUNCH_CHECK();
}
