/* Variant 1: the document's kernel, ported and fixed.
 *
 * The document marks session starts, calls grid.sync() inside `if (is_boundary)`, then lets each
 * start walk forward filling its session. Two things break it:
 *   - A grid sync is a barrier for the whole grid: every thread of every block must reach it, or
 *     the others wait for ever (or, worse, go on before the marks are written). Threads that are
 *     not boundaries, and threads past the end, skip it in the original.
 *   - One thread per event means the grid grows with the input, but a grid that syncs must be
 *     co-resident (all its blocks on the GPU at once): a few hundred thousand threads at most.
 *
 * Fixed here: the grid is sized from the GPU's limits (blocks per SM from common/occupancy.h,
 * times the SMs) and launched cooperatively; a grid-stride loop covers any n; every thread
 * reaches the one grid.sync() unconditionally. The serial walk is kept (it is the document's
 * idea): its cost is the longest session, which the scan variants do not pay. */
#include <cooperative_groups.h>

#include "session_boundary.h"
#include "sessionize_config.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

namespace cg = cooperative_groups;

#define NOT_YET_LABELLED (-1)

__global__ void cooperative_sessionize_kernel(const int64_t *__restrict__ user,
                                              const int64_t *__restrict__ ts, int64_t n,
                                              int64_t timeout, int64_t *label)
{
    cg::grid_group grid = cg::this_grid();
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

    /* Phase 1: a session's first event labels itself; every other event is marked unlabelled. */
    for (int64_t i = first; i < n; i += stride)
        label[i] = session_starts_at(user, ts, i, timeout) ? i : NOT_YET_LABELLED;

    /* Every thread gets here, whatever it found: the barrier the original skipped. After it, all
     * phase-1 writes of the whole grid are visible. */
    grid.sync();

    /* Phase 2: each first event fills its session up to the next first event. The boundary test
     * is recomputed from the inputs rather than read from label[], which another walker may be
     * writing at the same moment. Each label[j] is written by exactly one walker. */
    for (int64_t i = first; i < n; i += stride) {
        if (!session_starts_at(user, ts, i, timeout))
            continue;
        for (int64_t j = i + 1; j < n && label[j] == NOT_YET_LABELLED; ++j)
            label[j] = i;
    }
}

/* The grid, chosen once from the device's limits (sessionize_config.c): as many blocks per SM as
 * fit, on every SM. Under TUT_EMULATE_GPU the limits are the emulated GPU's, never above this
 * one's, so the grid is still co-resident here. */
session_launch cooperative_plan(void)
{
    static session_launch plan;
    static int ready = 0;
    if (!ready) {
        const tut_kernel_use use = tut_kernel_use_of((const void *)cooperative_sessionize_kernel,
                                                     COOPERATIVE_THREADS, 0);
        plan = cooperative_launch_plan(tut_current_device(), use.regs_per_thread,
                                       use.static_shared);
        if (plan.blocks < 1) {
            fprintf(stderr, "cooperative kernel cannot be resident on this GPU: %s\n", plan.why);
            exit(1);
        }
        ready = 1;
    }
    return plan;
}

static size_t cooperative_temp_bytes(int64_t n)
{
    (void)n;
    return 0;
}

static void cooperative_run(const session_job *job)
{
    /* No more blocks than events need, no more than can be resident at once. */
    const int64_t wanted = (job->n + COOPERATIVE_THREADS - 1) / COOPERATIVE_THREADS;
    const int64_t resident = cooperative_plan().blocks;
    const int blocks = (int)(wanted < resident ? wanted : resident);
    const int64_t *user = job->user, *ts = job->ts;
    int64_t n = job->n, timeout = job->timeout;
    int64_t *label = job->label;
    void *args[] = {(void *)&user, (void *)&ts, (void *)&n, (void *)&timeout, (void *)&label};
    CUDA_CHECK(cudaLaunchCooperativeKernel((const void *)cooperative_sessionize_kernel,
                                           dim3(blocks), dim3(COOPERATIVE_THREADS), args, 0, 0));
    LAUNCH_CHECK();
}

const session_variant cooperative_variant = {"cooperative", cooperative_temp_bytes,
                                             cooperative_run};
