/* The kernels of ex06.5 (split_combine.h): given, not part of the exercise. */
#include "split_combine.h"
#include "tutorial.h"

#define THREADS 256

/* A block's threads' sums added in shared memory; thread 0 holds the total. */
__device__ double block_sum(double mine)
{
    __shared__ double sums[THREADS];
    sums[threadIdx.x] = mine;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    return sums[0];
}

__global__ void partial_dot_kernel(const float *x, const float *y, size_t count, double *partials)
{
    double sum = 0.0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        sum += (double)x[i] * y[i];
    const double total = block_sum(sum);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = total;
}

/* Reads other GPUs' memory directly: only with peer access on (or on the same GPU). */
__global__ void combine_kernel(combine_args args, double *result)
{
    double sum = 0.0;
    for (int k = 0; k < args.parts; ++k)
        for (int b = threadIdx.x; b < args.blocks[k]; b += blockDim.x)
            sum += args.partials[k][b];
    const double total = block_sum(sum);
    if (threadIdx.x == 0)
        *result = total;
}

void launch_partial_dot(const float *x, const float *y, size_t count, double *partials,
                        int blocks, cudaStream_t stream)
{
    partial_dot_kernel<<<blocks, THREADS, 0, stream>>>(x, y, count, partials);
    LAUNCH_CHECK();
}

void launch_combine(const combine_args *args, double *result, cudaStream_t stream)
{
    combine_kernel<<<1, THREADS, 0, stream>>>(*args, result);
    LAUNCH_CHECK();
}

int partial_dot_blocks(int device)
{
    int sms = 0, per_sm = 0, current = 0;
    CUDA_CHECK(cudaGetDevice(&current));
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partial_dot_kernel, THREADS,
                                                             0));
    CUDA_CHECK(cudaSetDevice(current));
    return sms * (per_sm > 0 ? per_sm : 1);
}
