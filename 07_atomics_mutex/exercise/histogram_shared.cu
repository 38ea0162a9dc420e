/* EXERCISE ex07.1: the privatised histogram (the atomics tutorial's Example 4.4;
 * docs/07_atomics_mutex_exercises.md).
 *
 * Each block counts into its own 128 counters in shared memory, then adds them to the global
 * bins with one atomicAdd per bin. Fill in the four TODOs. Do not assume blockDim.x == 128: the
 * grader launches other block sizes and grids too, on texts whose sizes come from a new seed
 * each run (empty, one byte, primes, bytes above 127, one repeated letter), under
 * compute-sanitizer as well. Read each byte as unsigned char, the text's type: through a char,
 * a byte above 127 is a negative bin index, and the grader reads the compiled kernel for that.
 * Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex07.1 */
#include "histogram.h"
#include "tutorial.h"

__global__ void histogram_shared_kernel(const unsigned char *text, size_t n,
                                        unsigned long long *bins)
{
    __shared__ unsigned int block_bins[TEXT_BINS];

    /* TODO (ex07.1) 1: zero block_bins (every bin, whatever blockDim.x is), then wait for the
     * block. */

    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        /* TODO (ex07.1) 2: count the byte text[i] in block_bins, atomically, if it has a bin
         * (text[i] < TEXT_BINS: a UTF-8 byte >= 128 would index past the array). */
    }

    /* TODO (ex07.1) 3: wait for the whole block, here. */

    for (int b = threadIdx.x; b < TEXT_BINS; b += blockDim.x) {
        if (block_bins[b] != 0) {
            /* TODO (ex07.1) 4: add block_bins[b] to bins[b] (atomicAdd on unsigned long long). */
        }
    }
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
