/* The document's first GPU histogram: a grid-stride loop in which every byte is an atomicAdd on
 * one of 128 counters in global memory. Correct, and slow: English text sends a fifth of all
 * bytes (the spaces) to one address, and atomics on one address are done one after another in
 * the L2 cache, however many threads ask. */
#include "histogram.h"
#include "tutorial.h"

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

kernel_cost histogram_global_cost(void)
{
    static kernel_cost cost;
    static int known = 0;
    if (!known) {
        cost = kernel_cost_of((const void *)histogram_global_kernel);
        known = 1;
    }
    return cost;
}

void histogram_global(const histogram_job *job)
{
    const tut_device_info *dev = tut_current_device();
    const int threads = job->threads > 0 ? job->threads : SIMPLE_THREADS;
    int blocks = job->blocks;
    if (blocks <= 0) { /* one wave: more blocks only queue up behind the same atomics */
        char why[192];
        blocks = atomics_wave_blocks(dev, histogram_global_cost(), threads, 0, why, sizeof why);
        if (blocks == 0) {
            fprintf(stderr, "histogram_global: %s\n", why);
            exit(2);
        }
    }
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_global_kernel<<<blocks, threads>>>(job->text, job->n, job->bins);
    LAUNCH_CHECK();
}
