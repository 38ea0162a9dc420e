/* What the heat-equation variants share: the GPU update rule and the job each one runs.
 *
 * Every variant has a prepare function, which chooses its launch from the GPU's limits
 * (heat_config.h) into job->launch, or says why it cannot run here, and a run function, which
 * reads the rod from job->a, may use job->b as its second (ping-pong) buffer, and returns the
 * device buffer that holds the rod after job->steps steps. */
#ifndef HEAT1D_H
#define HEAT1D_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "heat_config.h"
#include "occupancy.h"

/* The CPU's heat_point_update with every rounding spelled out, so nvcc cannot fuse
 * k * x + cur into one FMA (one rounding instead of two) and the GPU agrees with the CPU bit for
 * bit. The first FMA is safe: 2 * cur is exact, so fma(-2, cur, left) rounds once, like the
 * subtraction it replaces. */
__device__ __forceinline__ double heat_update_gpu(double left, double cur, double right, double k)
{
    const double laplacian = __dadd_rn(__fma_rn(-2.0, cur, left), right);
    return __dadd_rn(cur, __dmul_rn(k, laplacian));
}

typedef struct {
    double *a, *b;    /* two device buffers of n doubles; the rod starts in a */
    size_t n;         /* points */
    long long steps;  /* time steps */
    double k;         /* alpha dt / dx^2, 0 < k <= 1/2 */
    int threads;      /* threads per block (0: the variant's default) */
    int tile, halo;   /* temporal blocking: points per block, steps per launch */
    cudaGraphExec_t graph; /* launch-per-step through a CUDA graph */
    long long graph_steps; /* steps in one replay of the graph (asked; made even) */
    heat_launch launch;    /* set by the variant's prepare function, used by its run function */
} heat_job;

/* The registers and static shared memory the compiler gave a kernel, asked of the runtime. */
static inline heat_kernel_cost heat_cost_of(const void *kernel)
{
    const tut_kernel_use use = tut_kernel_use_of(kernel, 1, 0);
    const heat_kernel_cost cost = {.regs_per_thread = use.regs_per_thread,
                                   .static_shared = use.static_shared};
    return cost;
}

/* Each prepare function returns 1 with job->launch set, or 0 with the reason in why[]. */

/* 1_cooperative.cu: one launch, grid.sync() between steps, grid-stride over points. */
int heat_cooperative_prepare(heat_job *job, char *why, size_t len);
double *heat_run_cooperative(const heat_job *job);
/* 2_launch_per_step.cu: one launch per step; the kernel boundary is the barrier. */
int heat_step_prepare(heat_job *job, char *why, size_t len);
double *heat_run_launch_per_step(const heat_job *job);
/* The same launches recorded once into a CUDA graph of job->graph_steps steps (made even) and
 * replayed; heat_graph_destroy frees it. */
int heat_graph_prepare(heat_job *job, char *why, size_t len);
double *heat_run_graph(const heat_job *job);
void heat_graph_destroy(heat_job *job);
/* 3_shared_block.cu: one block, both buffers in shared memory, __syncthreads() per step. */
size_t heat_shared_block_capacity(void); /* the most points one block's shared memory holds */
int heat_shared_block_prepare(heat_job *job, char *why, size_t len);
double *heat_run_shared_block(const heat_job *job);
/* 4_block_registers.cu: one block, each thread keeps its points in registers. */
size_t heat_block_registers_capacity(void);
int heat_block_registers_points_per_thread(void);
int heat_block_registers_prepare(heat_job *job, char *why, size_t len);
double *heat_run_block_registers(const heat_job *job);
/* 5_temporal_blocking.cu: each launch advances `halo` steps of a tile in shared memory. The
 * default tile and halo for this GPU (heat_default_temporal), then the launch for job->tile and
 * job->halo. */
int heat_temporal_default(int threads, int *tile, int *halo, char *why, size_t len);
int heat_temporal_prepare(heat_job *job, char *why, size_t len);
double *heat_run_temporal(const heat_job *job);

#endif
