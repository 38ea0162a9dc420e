/* EXERCISE ex02.2 (docs/02_heat1d_exercises.md): fill in the TODOs of heat_shared_block_kernel.
 * Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex02.2
 *
 * Variant 3: the whole rod in one block. A 1001-point rod is 8 KB per buffer; both fit in one
 * block's shared memory, so the barrier between steps only has to cover one block:
 * __syncthreads(), a hardware barrier of a few tens of cycles, instead of a grid-wide barrier
 * that goes through global memory (about a microsecond), or a kernel launch (a few).
 *
 * It applies while 2 n doubles fit in one block's shared memory (64 KB on a T4: 4096 points;
 * 227 KB on an H100: 14,528); the caller refuses larger rods. It also runs on one SM of the
 * GPU's dozens: it is the right choice for a small rod and the wrong one for a large one. */
#include "heat1d.h"
#include "tutorial.h"

__global__ void heat_shared_block_kernel(const double *__restrict__ in, double *__restrict__ out,
                                         int n, long long steps, double k)
{
    extern __shared__ double rod[]; /* two buffers of n points */
    double *cur = rod, *next = rod + n;

    /* TODO (ex02.2) 1: copy the rod from `in` into `cur`, the block's threads striding over the
     *         n points (thread t takes points t, t + blockDim.x, ...), then wait until all have
     *         done so. */

    for (long long s = 0; s < steps; ++s) {
        /* TODO (ex02.2) 2: compute `next` from `cur` for each of this thread's points with
         *         heat_update_gpu(left, cur[i], right, k), where the point outside either wall
         *         counts as 0.0. */

        /* TODO (ex02.2) 3: a barrier, so that `next` is complete before anyone reads it. Why is one
         *         barrier per step enough with two buffers, when updating one buffer in place
         *         would need two? */

        double *t = cur;
        cur = next;
        next = t;
    }

    /* TODO (ex02.2) 4: copy `cur` to `out`. */
    (void)in;
    (void)out;
    (void)k;
}

size_t heat_shared_block_capacity(void)
{
    return heat_shared_block_capacity_on(tut_current_device(),
                                         heat_cost_of((const void *)heat_shared_block_kernel));
}

/* One point per thread up to a block's limit, whole warps; 2 n doubles of dynamic shared memory,
 * which beyond 48 KB the kernel must be allowed to ask for (up to this GPU's opt-in limit). */
int heat_shared_block_prepare(heat_job *job, char *why, size_t len)
{
    const void *kernel = (const void *)heat_shared_block_kernel;
    return heat_config_shared_block(tut_current_device(), heat_cost_of(kernel), job->n,
                                    job->threads, &job->launch, why, len) &&
           tut_allow_dynamic_shared(kernel, job->launch.shared_bytes, why, len);
}

double *heat_run_shared_block(const heat_job *job)
{
    const heat_launch *l = &job->launch;
    heat_shared_block_kernel<<<1, l->threads, l->shared_bytes>>>(job->a, job->b, (int)job->n,
                                                                 job->steps, job->k);
    LAUNCH_CHECK();
    return job->b;
}
