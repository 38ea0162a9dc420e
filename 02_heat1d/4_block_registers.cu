/* Variant 4: one block again, but each thread keeps POINTS_PER_THREAD neighbouring points in
 * registers. Only the two ends of each thread's strip go through shared memory, so a step costs
 * two shared stores, two shared loads and one __syncthreads() per thread, whatever the strip's
 * length. 4 points per thread (1001 points: 251 threads in 8 warps) measured fastest in an
 * earlier comparison of builds, against 8 and 16 (which hits the 64-register cap of 1024-thread
 * blocks and spills); docs/02_heat1d_appendix.md ("The document's rod, in full") discusses why.
 *
 * The edge slots are double-buffered by step parity, so one barrier per step is enough: a thread
 * cannot overwrite slot p (at step s + 2) before every thread has passed the barrier of step
 * s + 1, that is, after every thread finished reading slot p at step s. */
#include "heat1d.h"
#include "tutorial.h"

/* A compile-time constant so that u[] below can live in registers; the build sets it with
 * -DHEAT1D_POINTS_PER_THREAD=<n> (CMake cache variable of the same name) to compare. */
#ifndef HEAT1D_POINTS_PER_THREAD
#define HEAT1D_POINTS_PER_THREAD 4
#endif
#define POINTS_PER_THREAD HEAT1D_POINTS_PER_THREAD
#define BLOCK_REGISTERS_MAX_THREADS 1024

__global__ void __launch_bounds__(BLOCK_REGISTERS_MAX_THREADS)
heat_block_registers_kernel(const double *__restrict__ in, double *__restrict__ out, int n,
                            long long steps, double k)
{
    /* [step parity][left end, right end][thread] */
    __shared__ double edges[2][2][BLOCK_REGISTERS_MAX_THREADS];
    const int t = threadIdx.x;
    const int first = t * POINTS_PER_THREAD;

    /* A fixed-size array indexed only by unrolled loops stays in registers. Points past the end
     * of the rod are zero, like the world outside the walls, and stay zero. */
    double u[POINTS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < POINTS_PER_THREAD; ++j)
        u[j] = first + j < n ? in[first + j] : 0.0;

    for (long long s = 0; s < steps; ++s) {
        const int p = (int)(s & 1);
        edges[p][0][t] = u[0];
        edges[p][1][t] = u[POINTS_PER_THREAD - 1];
        __syncthreads();
        const double left_of_strip = t > 0 ? edges[p][1][t - 1] : 0.0;
        const double right_of_strip = t + 1 < (int)blockDim.x ? edges[p][0][t + 1] : 0.0;

        double left = left_of_strip; /* the old value of u[j - 1] */
#pragma unroll
        for (int j = 0; j < POINTS_PER_THREAD; ++j) {
            const double right = j + 1 < POINTS_PER_THREAD ? u[j + 1] : right_of_strip;
            const double updated = first + j < n ? heat_update_gpu(left, u[j], right, k) : 0.0;
            left = u[j];
            u[j] = updated;
        }
    }

#pragma unroll
    for (int j = 0; j < POINTS_PER_THREAD; ++j)
        if (first + j < n)
            out[first + j] = u[j];
}

int heat_block_registers_points_per_thread(void) { return POINTS_PER_THREAD; }

size_t heat_block_registers_capacity(void)
{
    return heat_block_registers_capacity_on(tut_current_device(), POINTS_PER_THREAD,
                                            BLOCK_REGISTERS_MAX_THREADS);
}

/* A strip per thread, whole warps (the extra threads hold zeros); the block must fit this GPU. */
int heat_block_registers_prepare(heat_job *job, char *why, size_t len)
{
    return heat_config_block_registers(tut_current_device(),
                                       heat_cost_of((const void *)heat_block_registers_kernel),
                                       job->n, POINTS_PER_THREAD, BLOCK_REGISTERS_MAX_THREADS,
                                       &job->launch, why, len);
}

double *heat_run_block_registers(const heat_job *job)
{
    heat_block_registers_kernel<<<1, job->launch.threads>>>(job->a, job->b, (int)job->n,
                                                             job->steps, job->k);
    LAUNCH_CHECK();
    return job->b;
}
