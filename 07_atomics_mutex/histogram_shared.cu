/* The document's privatised histogram: each block counts into its own 128 counters in shared
 * memory, then adds them to the global bins, one atomicAdd per bin per block. The contention
 * moves from one L2 address per bin for the whole GPU to one shared-memory address per bin per
 * block, and the global atomics drop from n to 128 x blocks.
 *
 * Unlike the document's kernel, this one does not assume blockDim.x == 128 (each thread zeroes
 * and merges bins tid, tid + blockDim.x, ...), and its shared counters are 32-bit, which suffice
 * since histogram_safe_blocks keeps each block's share of the text under 2^31 bytes. */
#include "histogram.h"
#include "tutorial.h"

__global__ void histogram_shared_kernel(const unsigned char *text, size_t n,
                                        unsigned long long *bins)
{
    __shared__ unsigned int block_bins[TEXT_BINS];
    for (int b = threadIdx.x; b < TEXT_BINS; b += blockDim.x)
        block_bins[b] = 0;
    __syncthreads(); /* every counter is zero before anyone counts */

    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned char c = text[i];
        if (c < TEXT_BINS) {
            atomicAdd(&block_bins[c], 1u);
        }
    }
    __syncthreads(); /* every thread has counted before the block's totals are read */

    for (int b = threadIdx.x; b < TEXT_BINS; b += blockDim.x)
        if (block_bins[b] != 0) /* skipping zeros saves global atomics on rare bins */
            atomicAdd(&bins[b], (unsigned long long)block_bins[b]);
}

kernel_cost histogram_shared_cost(void)
{
    static kernel_cost cost;
    static int known = 0;
    if (!known) {
        cost = kernel_cost_of((const void *)histogram_shared_kernel);
        known = 1;
    }
    return cost;
}

void histogram_shared(const histogram_job *job)
{
    const tut_device_info *dev = tut_current_device();
    const int threads = job->threads > 0 ? job->threads : SIMPLE_THREADS;
    int blocks = job->blocks;
    if (blocks <= 0) { /* one wave of blocks, each with its own bins */
        char why[192];
        blocks = atomics_wave_blocks(dev, histogram_shared_cost(), threads, 0, why, sizeof why);
        if (blocks == 0) {
            fprintf(stderr, "histogram_shared: %s\n", why);
            exit(2);
        }
    }
    blocks = histogram_safe_blocks(job->n, blocks);
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_shared_kernel<<<blocks, threads>>>(job->text, job->n, job->bins);
    LAUNCH_CHECK();
}
