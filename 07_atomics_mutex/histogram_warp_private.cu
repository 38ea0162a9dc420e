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

static size_t warp_private_shared_bytes(int threads, int copies)
{
    return (size_t)(threads / 32) * copies * COPY_STRIDE * sizeof(unsigned int);
}

int histogram_warp_private_blocks_per_sm(int copies)
{
    int per_sm = 0;
    size_t shared = warp_private_shared_bytes(WARP_PRIVATE_THREADS, copies);
    CUDA_CHECK(cudaFuncSetAttribute(histogram_warp_private_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, histogram_warp_private_kernel, WARP_PRIVATE_THREADS, shared));
    return per_sm;
}

void histogram_warp_private(const histogram_job *job)
{
    const int threads = WARP_PRIVATE_THREADS;
    const int copies = job->copies > 0 ? job->copies : 4;
    if (copies > 32 || 32 % copies != 0) {
        fprintf(stderr, "histogram_warp_private: copies must divide 32 (got %d)\n", copies);
        exit(2);
    }
    if ((uintptr_t)job->text % 16 != 0) {
        fprintf(stderr, "histogram_warp_private: the text must be 16-byte aligned\n");
        exit(2);
    }
    const size_t shared = warp_private_shared_bytes(threads, copies);
    int blocks = job->blocks;
    if (blocks <= 0)
        blocks = histogram_warp_private_blocks_per_sm(copies) * tut_current_device()->sm_count;
    blocks = histogram_safe_blocks(job->n, blocks, threads);
    CUDA_CHECK(cudaFuncSetAttribute(histogram_warp_private_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_warp_private_kernel<<<blocks, threads, shared>>>(job->text, job->n, job->bins,
                                                               copies);
    LAUNCH_CHECK();
}
