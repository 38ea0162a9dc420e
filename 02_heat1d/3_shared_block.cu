/* Variant 3: the whole rod in one block. A 1001-point rod is 8 KB per buffer; both fit in one
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
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        cur[i] = in[i];
    __syncthreads();

    for (long long s = 0; s < steps; ++s) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            const double left = i > 0 ? cur[i - 1] : 0.0;
            const double right = i + 1 < n ? cur[i + 1] : 0.0;
            next[i] = heat_update_gpu(left, cur[i], right, k);
        }
        __syncthreads(); /* next is complete before anyone reads it as cur */
        double *t = cur;
        cur = next;
        next = t;
    }

    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = cur[i];
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
