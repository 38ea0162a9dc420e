/* What the heat-equation variants share: the GPU update rule and the job each one runs.
 *
 * Every variant reads the rod from job->a, may use job->b as its second (ping-pong) buffer, and
 * returns the device buffer that holds the rod after job->steps steps. */
#ifndef HEAT1D_H
#define HEAT1D_H

#include <stddef.h>

#include <cuda_runtime.h>

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
    long long graph_steps; /* steps in one replay of the graph (even) */
} heat_job;

/* 1_cooperative.cu: one launch, grid.sync() between steps, grid-stride over points. */
double *heat_run_cooperative(const heat_job *job);
/* 2_launch_per_step.cu: one launch per step; the kernel boundary is the barrier. */
double *heat_run_launch_per_step(const heat_job *job);
/* The same launches recorded once into a CUDA graph and replayed (prepare once, then run). */
void heat_graph_prepare(heat_job *job, long long graph_steps);
double *heat_run_graph(const heat_job *job);
void heat_graph_destroy(heat_job *job);
/* 3_shared_block.cu: one block, both buffers in shared memory, __syncthreads() per step. */
size_t heat_shared_block_capacity(void); /* the most points one block's shared memory holds */
double *heat_run_shared_block(const heat_job *job);
/* 4_block_registers.cu: one block, each thread keeps its points in registers. */
size_t heat_block_registers_capacity(void);
int heat_block_registers_points_per_thread(void);
double *heat_run_block_registers(const heat_job *job);
/* 5_temporal_blocking.cu: each launch advances `halo` steps of a tile in shared memory. */
double *heat_run_temporal(const heat_job *job);

#endif
