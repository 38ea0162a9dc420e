/* The reductions shared by the variants (see variants.h and block_reduce.cuh). */
#include <stdio.h>
#include <stdlib.h>

#include "tutorial.h"

#include "block_reduce.cuh"
#include "variants.h"

/* Grid-stride: each thread adds up n / (grid size) values in float64, then the block sums. */
__global__ void reduce_values_kernel(const float *values, size_t n, double2 *partials)
{
    double2 acc = make_double2(0.0, 0.0);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const double f = values[i];
        acc.x += f;
        acc.y += f * f;
    }
    acc = mc_block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

/* One block adds up the per-block pairs, always in the same order: the same partials give the
 * same bits (an atomicAdd of doubles would not: its order changes from run to run). */
__global__ void reduce_partials_kernel(const double2 *partials, int count, double2 *out)
{
    double2 acc = make_double2(0.0, 0.0);
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        acc.x += partials[i].x;
        acc.y += partials[i].y;
    }
    acc = mc_block_sum(acc);
    if (threadIdx.x == 0)
        *out = acc;
}

void mc_reduce_values(const float *values, size_t n, double2 *partials, int blocks, double2 *out)
{
    reduce_values_kernel<<<blocks, MC_REDUCE_THREADS>>>(values, n, partials);
    LAUNCH_CHECK();
    mc_reduce_partials(partials, blocks, out);
}

/* One block, as many threads as fit (mc_config.h: 1024 on every GPU this suite knows). */
void mc_reduce_partials(const double2 *partials, int count, double2 *out)
{
    static int threads = 0;
    if (threads == 0) {
        const tut_kernel_use use = tut_kernel_use_of((const void *)reduce_partials_kernel,
                                                     MC_PARTIALS_MAX_THREADS, 0);
        threads = mc_partials_threads(tut_current_device(), use.regs_per_thread,
                                      use.static_shared);
        if (threads == 0) {
            fprintf(stderr, "reduce_partials_kernel: not even one warp fits this GPU\n");
            exit(1);
        }
    }
    reduce_partials_kernel<<<1, threads>>>(partials, count, out);
    LAUNCH_CHECK();
}

/* One full wave of MC_REDUCE_THREADS-thread blocks (mc_config.h); grid-stride over the rest. */
int mc_reduce_values_blocks(void)
{
    static int blocks = 0;
    if (blocks == 0) {
        const tut_kernel_use use = tut_kernel_use_of((const void *)reduce_values_kernel,
                                                     MC_REDUCE_THREADS, 0);
        const mc_launch plan = mc_full_wave(tut_current_device(), MC_REDUCE_THREADS,
                                            use.regs_per_thread, use.static_shared);
        if (plan.blocks < 1) {
            fprintf(stderr, "reduce_values_kernel: %s\n", plan.why);
            exit(1);
        }
        blocks = (int)plan.blocks;
    }
    return blocks;
}

mc_sums mc_read_sums(const double2 *device_pair, unsigned long long n)
{
    double2 pair;
    CUDA_CHECK(cudaMemcpy(&pair, device_pair, sizeof pair, cudaMemcpyDeviceToHost));
    mc_sums s = {n, pair.x, pair.y};
    return s;
}
