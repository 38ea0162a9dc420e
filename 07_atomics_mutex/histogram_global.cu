/* The document's first GPU histogram: a grid-stride loop in which every byte is an atomicAdd on
 * one of 128 counters in global memory. Correct, and slow: English text sends a fifth of all
 * bytes (the spaces) to one address, and atomics on one address are done one after another in
 * the L2 cache, however many threads ask. */
#include "histogram.h"
#include "tutorial.h"

int histogram_safe_blocks(size_t n, int blocks, int threads)
{
    if (blocks < 1)
        blocks = 1;
    (void)threads;
    /* ceil(n / blocks) < 2^31 keeps every 32-bit block counter far from overflow. */
    const size_t limit = (size_t)1 << 31;
    if (n / (size_t)blocks >= limit)
        blocks = (int)(n / limit + 1);
    return blocks;
}

__global__ void histogram_global_kernel(const unsigned char *text, size_t n,
                                        unsigned long long *bins)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned char c = text[i];
        if (c < TEXT_BINS) /* a UTF-8 byte would index past the 128 bins */
            atomicAdd(&bins[c], 1ull);
    }
}

void histogram_global(const histogram_job *job)
{
    int threads = job->threads > 0 ? job->threads : 128;
    int blocks = job->blocks > 0 ? job->blocks : 32 * tut_current_device()->sm_count;
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_global_kernel<<<blocks, threads>>>(job->text, job->n, job->bins);
    LAUNCH_CHECK();
}
