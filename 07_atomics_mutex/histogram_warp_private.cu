/* Beyond the document, step 1: more copies of the histogram, wider loads.
 *
 * In English text a fifth of the bytes are spaces, so in the shared-memory kernel several lanes
 * of a warp often add to the same counter at once, and those atomics are done one by one. Here
 * each warp owns `copies` sub-histograms and lane l counts into copy l % copies: lanes that
 * collide now need the same byte value AND the same copy. Each copy is padded to 129 words so
 * that the same bin of neighbouring copies falls in different shared-memory banks.
 *
 * Each thread reads 16 bytes at a time (uint4: one 128-bit load), two loads in flight, and the
 * grid is sized to fill the GPU once (SMs x resident blocks), each block striding over the text.
 * The default number of copies is the most (up to 4) that keeps the most blocks resident
 * (warp_private_default_copies): 4 where an SM holds 4 such blocks, 2 on a T4's 64 KiB SM.
 * The last n % 16 bytes are counted by block 0 with global atomics. */
#include <stdint.h>

#include "histogram.h"
#include "tutorial.h"

#define COPY_STRIDE (TEXT_BINS + 1) /* words per sub-histogram: one word of padding */

__device__ __forceinline__ void count_word_shared(unsigned int *copy, unsigned int w)
{
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        unsigned int c = (w >> (8 * k)) & 0xFFu;
        if (c < TEXT_BINS)
            atomicAdd(&copy[c], 1u);
    }
}

__device__ __forceinline__ void count_vec_shared(unsigned int *copy, uint4 v)
{
    count_word_shared(copy, v.x);
    count_word_shared(copy, v.y);
    count_word_shared(copy, v.z);
    count_word_shared(copy, v.w);
}

__global__ void histogram_warp_private_kernel(const unsigned char *text, size_t n,
                                              unsigned long long *bins, int copies)
{
    extern __shared__ unsigned int sub[]; /* warps x copies x COPY_STRIDE */
    const int nsub = (blockDim.x / 32) * copies;
    for (int i = threadIdx.x; i < nsub * COPY_STRIDE; i += blockDim.x)
        sub[i] = 0;
    __syncthreads();

    const int lane = threadIdx.x % 32;
    unsigned int *mine = sub + ((threadIdx.x / 32) * copies + lane % copies) * COPY_STRIDE;
    const uint4 *vec = (const uint4 *)text;
    const size_t nvec = n / 16;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < nvec; i += 2 * stride) { /* two independent loads before any use */
        uint4 a = __ldg(vec + i);
        uint4 b = __ldg(vec + i + stride);
        count_vec_shared(mine, a);
        count_vec_shared(mine, b);
    }
    if (i < nvec)
        count_vec_shared(mine, __ldg(vec + i));
    __syncthreads();

    for (int b = threadIdx.x; b < TEXT_BINS; b += blockDim.x) {
        unsigned int total = 0;
        for (int s = 0; s < nsub; ++s)
            total += sub[s * COPY_STRIDE + b];
        if (total != 0)
            atomicAdd(&bins[b], (unsigned long long)total);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 16) { /* the tail, under 16 bytes */
        unsigned char c = text[nvec * 16 + threadIdx.x];
        if (c < TEXT_BINS)
            atomicAdd(&bins[c], 1ull);
    }
}

kernel_cost histogram_warp_private_cost(void)
{
    static kernel_cost cost;
    static int known = 0;
    if (!known) {
        cost = kernel_cost_of((const void *)histogram_warp_private_kernel);
        known = 1;
    }
    return cost;
}

void histogram_warp_private(const histogram_job *job)
{
    const tut_device_info *dev = tut_current_device();
    const kernel_cost cost = histogram_warp_private_cost();
    const int copies = job->copies > 0 ? job->copies : warp_private_default_copies(dev, cost);
    if (copies > 32 || 32 % copies != 0) {
        fprintf(stderr, "histogram_warp_private: copies must divide 32 (got %d)\n", copies);
        exit(2);
    }
    if ((uintptr_t)job->text % 16 != 0) {
        fprintf(stderr, "histogram_warp_private: the text must be 16-byte aligned\n");
        exit(2);
    }
    const size_t shared = warp_private_shared_bytes(copies);
    char why[192];
    const int wave = atomics_wave_blocks(dev, cost, WARP_PRIVATE_THREADS, shared, why, sizeof why);
    if (wave == 0) { /* the tuning skips such entries before they get here */
        fprintf(stderr, "histogram_warp_private with %d copies: %s\n", copies, why);
        exit(2);
    }
    /* Above 48 KiB a kernel must ask for its dynamic shared memory: once per size. */
    static size_t allowed = 0;
    if (shared > allowed) {
        if (!tut_allow_dynamic_shared((const void *)histogram_warp_private_kernel, shared, why,
                                      sizeof why)) {
            fprintf(stderr, "histogram_warp_private: %s\n", why);
            exit(2);
        }
        allowed = shared;
    }
    const int blocks = histogram_safe_blocks(job->n, job->blocks > 0 ? job->blocks : wave);
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_warp_private_kernel<<<blocks, WARP_PRIVATE_THREADS, shared>>>(job->text, job->n,
                                                                            job->bins, copies);
    LAUNCH_CHECK();
}
