/* EXERCISE: fill in the TODOs of heat_shared_block_kernel (the solution is 3_shared_block.cu).
 *
 * Variant 3: the whole rod in one block. A 1001-point rod is 8 KB per buffer; both fit in one
 * block's shared memory, so the barrier between steps only has to cover one block:
 * __syncthreads(), a hardware barrier of a few tens of cycles, instead of a grid-wide barrier
 * that goes through global memory (about a microsecond), or a kernel launch (a few).
 *
 * It applies while 2 n doubles fit in one block's shared memory (227 KB on Hopper: 14,000-odd
 * points); the caller refuses larger rods. It also runs on one SM of the GPU's 132: it is the
 * right choice for a small rod and the wrong one for a large one. */
#include "heat1d.h"
#include "tutorial.h"

__global__ void heat_shared_block_kernel(const double *__restrict__ in, double *__restrict__ out,
                                         int n, long long steps, double k)
{
    extern __shared__ double rod[]; /* two buffers of n points */
    double *cur = rod, *next = rod + n;

    /* TODO 1: copy the rod from `in` into `cur`, the block's threads striding over the n points
     *         (thread t takes points t, t + blockDim.x, ...), then wait until all have done so. */

    for (long long s = 0; s < steps; ++s) {
        /* TODO 2: compute `next` from `cur` for each of this thread's points with
         *         heat_update_gpu(left, cur[i], right, k), where the point outside either wall
         *         counts as 0.0. */

        /* TODO 3: a barrier, so that `next` is complete before anyone reads it. Why is one
         *         barrier per step enough with two buffers, when updating one buffer in place
         *         would need two? */

        double *t = cur;
        cur = next;
        next = t;
    }

    /* TODO 4: copy `cur` to `out`. */
    (void)in;
    (void)out;
    (void)k;
}

size_t heat_shared_block_capacity(void)
{
    return tut_current_device()->shared_per_block_optin / (2 * sizeof(double));
}

double *heat_run_shared_block(const heat_job *job)
{
    const size_t bytes = 2 * job->n * sizeof(double);
    /* Beyond 48 KB a block must opt in to more dynamic shared memory. */
    CUDA_CHECK(cudaFuncSetAttribute(heat_shared_block_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    /* One point per thread up to 1024 threads (a block's limit), whole warps. */
    int threads = job->threads;
    if (threads == 0)
        threads = job->n >= 1024 ? 1024 : (int)(job->n + 31) / 32 * 32;
    heat_shared_block_kernel<<<1, threads, bytes>>>(job->a, job->b, (int)job->n, job->steps,
                                                    job->k);
    LAUNCH_CHECK();
    return job->b;
}
