/* Variant 1, the document's kernel done properly: one cooperative launch for all the steps,
 * with a grid-wide barrier between them.
 *
 * grid.sync() waits until every thread of the grid has arrived, so it only works when every block
 * is resident on the GPU at once (a block that never got an SM would never arrive): hence
 * cudaLaunchCooperativeKernel, which refuses a grid larger than that, and a grid sized from the
 * blocks one SM holds (common/occupancy.h, from the GPU's limits) times the SMs. A rod larger
 * than the grid is covered by a grid-stride loop. Every thread must reach every grid.sync():
 * there is no early return for threads past the end of the rod (the document returns early,
 * which is undefined behaviour once some threads skip the barrier). */
#include <cooperative_groups.h>

#include "heat1d.h"
#include "tutorial.h"

namespace cg = cooperative_groups;

__global__ void heat_cooperative_kernel(double *a, double *b, size_t n, long long steps, double k)
{
    cg::grid_group grid = cg::this_grid();
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (long long s = 0; s < steps; ++s) {
        const double *in = (s % 2 == 0) ? a : b;
        double *out = (s % 2 == 0) ? b : a;
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
            const double left = i > 0 ? in[i - 1] : 0.0;
            const double right = i + 1 < n ? in[i + 1] : 0.0;
            out[i] = heat_update_gpu(left, in[i], right, k);
        }
        grid.sync(); /* every thread, every step: the writes of step s are visible to step s+1 */
    }
}

/* All resident at once: as many blocks as every SM holds (the occupancy calculator of
 * common/occupancy.h, from this GPU's limits), and no more than the rod needs. */
int heat_cooperative_prepare(heat_job *job, char *why, size_t len)
{
    return heat_config_cooperative(tut_current_device(),
                                   heat_cost_of((const void *)heat_cooperative_kernel), job->n,
                                   job->threads, &job->launch, why, len);
}

double *heat_run_cooperative(const heat_job *job)
{
    double *a = job->a, *b = job->b;
    size_t n = job->n;
    long long steps = job->steps;
    double k = job->k;
    void *args[] = {&a, &b, &n, &steps, &k};
    /* The launch itself says cudaErrorCooperativeLaunchTooLarge if the grid cannot be resident. */
    CUDA_CHECK(cudaLaunchCooperativeKernel((const void *)heat_cooperative_kernel,
                                           dim3((unsigned)job->launch.blocks),
                                           dim3(job->launch.threads), args, 0, 0));
    LAUNCH_CHECK();
    return job->steps % 2 ? job->b : job->a;
}
