/* Variant 2: one kernel launch per time step. The end of a kernel is a barrier for the whole
 * grid for free (the next launch on the stream starts after every block of this one finished),
 * so the kernel needs no synchronisation at all, any grid size works, and the rod may be as
 * large as memory. The price is a launch per step: a few microseconds each, which dwarfs the
 * work on a small rod. A CUDA graph records the launches once and replays them with less CPU
 * and driver work per kernel. */
#include "heat1d.h"
#include "tutorial.h"

__global__ void heat_step_kernel(const double *__restrict__ in, double *__restrict__ out,
                                 size_t n, double k)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const double left = i > 0 ? in[i - 1] : 0.0;
        const double right = i + 1 < n ? in[i + 1] : 0.0;
        out[i] = heat_update_gpu(left, in[i], right, k);
    }
}

/* One thread per point up to 2^20 blocks (beyond that the grid-stride loop takes over); the
 * threads per block must fit this GPU (heat_config.h). */
int heat_step_prepare(heat_job *job, char *why, size_t len)
{
    return heat_config_step(tut_current_device(), heat_cost_of((const void *)heat_step_kernel),
                            job->n, job->threads, &job->launch, why, len);
}

/* Launches steps [first, first + count) on `stream`; step s reads a if s is even. */
static void launch_steps(const heat_job *job, long long first, long long count,
                         cudaStream_t stream)
{
    const heat_launch *l = &job->launch;
    for (long long s = first; s < first + count; ++s) {
        const double *in = (s % 2 == 0) ? job->a : job->b;
        double *out = (s % 2 == 0) ? job->b : job->a;
        heat_step_kernel<<<(unsigned)l->blocks, l->threads, 0, stream>>>(in, out, job->n, job->k);
        LAUNCH_CHECK();
    }
}

double *heat_run_launch_per_step(const heat_job *job)
{
    launch_steps(job, 0, job->steps, 0);
    return job->steps % 2 ? job->b : job->a;
}

/* Records job->graph_steps launches, made even so that a replay leaves the rod in a again. */
int heat_graph_prepare(heat_job *job, char *why, size_t len)
{
    heat_graph_destroy(job);
    if (!heat_step_prepare(job, why, len))
        return 0;
    job->graph_steps -= job->graph_steps % 2;
    if (job->graph_steps <= 0) {
        job->graph_steps = 0;
        return 1; /* no graph: heat_run_graph launches every step itself */
    }
    cudaStream_t stream;
    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    launch_steps(job, 0, job->graph_steps, stream);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&job->graph, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 1;
}

double *heat_run_graph(const heat_job *job)
{
    long long done = 0;
    if (job->graph) {
        for (; done + job->graph_steps <= job->steps; done += job->graph_steps)
            CUDA_CHECK(cudaGraphLaunch(job->graph, 0));
    }
    launch_steps(job, done, job->steps - done, 0); /* the remainder, one launch each */
    return job->steps % 2 ? job->b : job->a;
}

void heat_graph_destroy(heat_job *job)
{
    if (job->graph)
        CUDA_CHECK(cudaGraphExecDestroy(job->graph));
    job->graph = NULL;
}
