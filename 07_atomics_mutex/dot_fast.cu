/* A dot product at CUB speed (dot_fast.h): the solution of exercise ex07.3, the chapter's
 * fast_atomic kernel (dot.cu) on its own. */
#include "dot_fast.h"
#include "tutorial.h"

#define DOT_THREADS 256

__device__ __forceinline__ float warp_sum(float s)
{
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xFFFFFFFFu, s, offset);
    return s; /* complete in lane 0 */
}

__global__ void __launch_bounds__(DOT_THREADS)
dot_fast_kernel(const float *a, const float *b, size_t n, float *c)
{
    __shared__ float warp_sums[DOT_THREADS / 32];
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
    const size_t n4 = n / 4;
    const size_t stride = (size_t)gridDim.x * DOT_THREADS;
    const size_t first = (size_t)blockIdx.x * DOT_THREADS + threadIdx.x;
    /* Two independent sums: two loads of each array in flight per thread, shorter chains. */
    float s0 = 0.0f, s1 = 0.0f;
    size_t i = first;
    for (; i + stride < n4; i += 2 * stride) {
        const float4 x0 = a4[i], y0 = b4[i], x1 = a4[i + stride], y1 = b4[i + stride];
        s0 = fmaf(x0.x, y0.x, s0); s0 = fmaf(x0.y, y0.y, s0);
        s0 = fmaf(x0.z, y0.z, s0); s0 = fmaf(x0.w, y0.w, s0);
        s1 = fmaf(x1.x, y1.x, s1); s1 = fmaf(x1.y, y1.y, s1);
        s1 = fmaf(x1.z, y1.z, s1); s1 = fmaf(x1.w, y1.w, s1);
    }
    if (i < n4) {
        const float4 x0 = a4[i], y0 = b4[i];
        s0 = fmaf(x0.x, y0.x, s0); s0 = fmaf(x0.y, y0.y, s0);
        s0 = fmaf(x0.z, y0.z, s0); s0 = fmaf(x0.w, y0.w, s0);
    }
    if (first < n % 4) /* the last 1 to 3 elements, past the float4s */
        s1 = fmaf(a[n4 * 4 + first], b[n4 * 4 + first], s1);

    /* The block's sum: each warp's by shuffles, then the first warp adds the warps'. */
    float s = warp_sum(s0 + s1);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = warp_sum(threadIdx.x < DOT_THREADS / 32 ? warp_sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            atomicAdd(c, s); /* one atomic per block: a few hundred in all */
    }
}

void dot_fast(const float *a, const float *b, size_t n, float *c)
{
    static int blocks = 0; /* one wave: chosen once, from this GPU's limits */
    if (blocks == 0) {
        const tut_device_info *dev = tut_current_device();
        const tut_kernel_use use = tut_kernel_use_of((const void *)dot_fast_kernel, DOT_THREADS,
                                                     0);
        const int per_sm = tut_blocks_per_sm(dev, use);
        blocks = (per_sm > 0 ? per_sm : 1) * dev->sm_count;
    }
    CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), 0));
    dot_fast_kernel<<<blocks, DOT_THREADS>>>(a, b, n, c);
    LAUNCH_CHECK();
}
