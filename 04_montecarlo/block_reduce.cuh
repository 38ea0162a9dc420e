/* Summing a pair (sum f, sum f^2) over a warp and over a block: the reduction every variant
 * ends with. Warp shuffles first (registers only, no barrier), then one value per warp through
 * shared memory, then the first warp adds those up. Compare the atomics tutorial's tree in shared
 * memory, which needs log2(blockDim) barriers and one shared-memory slot per thread. */
#ifndef MC_BLOCK_REDUCE_CUH
#define MC_BLOCK_REDUCE_CUH

#define MC_FULL_WARP 0xffffffffu

/* After the call, lane 0 holds the warp's total (the other lanes hold partial sums). */
static __device__ __forceinline__ double2 mc_warp_sum(double2 v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v.x += __shfl_down_sync(MC_FULL_WARP, v.x, offset);
        v.y += __shfl_down_sync(MC_FULL_WARP, v.y, offset);
    }
    return v;
}

/* Every thread of the block must call it (it has a barrier); blockDim.x must be a multiple of
 * 32. Thread 0 gets the block's total; the others get partial values they should ignore. */
static __device__ __forceinline__ double2 mc_block_sum(double2 v)
{
    __shared__ double2 warp_totals[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = mc_warp_sum(v);
    if (lane == 0)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = blockDim.x / 32;
        v = lane < warps ? warp_totals[lane] : make_double2(0.0, 0.0);
        v = mc_warp_sum(v);
    }
    return v;
}

#endif
