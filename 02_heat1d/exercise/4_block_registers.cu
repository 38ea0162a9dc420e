/* EXERCISE ex02.3 (one block, the rod in registers; docs/02_heat1d_exercises.md): write the
 * body of heat_block_registers_kernel below; the rest of the file is complete. The grader is
 * tests/grade_ex3_registers.cu. Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex02.3
 *
 * Variant 4: one block again, but each thread keeps POINTS_PER_THREAD neighbouring points in
 * registers. Only the two ends of each thread's strip go through shared memory, so a step costs
 * two shared stores, two shared loads and one __syncthreads() per thread, whatever the strip's
 * length. 4 points per thread (1001 points: 251 threads in 8 warps) measured fastest in an
 * earlier comparison of builds, against 8 and 16 (which hits the 64-register cap of 1024-thread
 * blocks and spills); docs/02_heat1d_appendix.md ("The document's rod, in full") discusses why.
 *
 * The edge slots are double-buffered by step parity; TODO 2 asks why that lets one barrier per
 * step suffice. */
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
    const int first = t * POINTS_PER_THREAD; /* this thread's strip: first .. first + P - 1 */
    double u[POINTS_PER_THREAD];

    /* TODO (ex02.3) 1: load the strip into u[] (a point past the end of the rod is 0.0, like the
     *   world beyond the walls). Index u[] only in loops with `#pragma unroll` and constant
     *   bounds, or it leaves the registers for local memory. */

    /* TODO (ex02.3) 2: `steps` times:
     *   a. publish the strip's two ends, u[0] and u[P - 1], in this step's slots
     *      edges[s & 1][0][t] and edges[s & 1][1][t]; then ONE __syncthreads();
     *   b. read the neighbours' ends: the point left of the strip is the previous thread's right
     *      end (0.0 for thread 0), the point right of it the next thread's left end (0.0 for the
     *      last thread of the block);
     *   c. update u[0 .. P-1] in place, left to right, keeping the old value of u[j - 1] in a
     *      variable (its new value must not be used for u[j]); points past the end of the rod
     *      stay 0.0. Use heat_update_gpu(left, u[j], right, k).
     *   Why does one barrier per step suffice with two sets of slots (s & 1), when one set would
     *   need a second barrier after the reads? */
    (void)edges;
    (void)in;
    (void)steps;
    (void)k;
    (void)first;
    (void)u;
    (void)n;
    (void)t;

    /* TODO (ex02.3) 3: write the strip's points that lie inside the rod to out. */
    (void)out;
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
