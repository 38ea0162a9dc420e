/* The reductions shared by the variants (see variants.h and block_reduce.cuh). */
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

void mc_reduce_partials(const double2 *partials, int count, double2 *out)
{
    reduce_partials_kernel<<<1, 1024>>>(partials, count, out);
    LAUNCH_CHECK();
}

mc_sums mc_read_sums(const double2 *device_pair, unsigned long long n)
{
    double2 pair;
    CUDA_CHECK(cudaMemcpy(&pair, device_pair, sizeof pair, cudaMemcpyDeviceToHost));
    mc_sums s = {n, pair.x, pair.y};
    return s;
}
