/* The graders' GPU helper (exercise.h): stale shared memory made NaN. */
#include "exercise.h"

#include "check.h"

#include <stdio.h>

#include <cuda_runtime.h>

static __global__ void poison_shared_kernel(size_t words)
{
    extern __shared__ unsigned long long stale[];
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
        stale[i] = ~0ull;
    /* Keep the stores: the compiler must not drop writes nobody reads. */
    __syncthreads();
    if (threadIdx.x == 0 && stale[words - 1] != ~0ull)
        __trap();
}

/* Launches the poison with `bytes` of dynamic shared memory per block; 0 if the GPU (or a
 * sanitizer that runs the grader) refuses it, with the error cleared. */
static int poison_with(int blocks, int bytes)
{
    const void *kernel = (const void *)poison_shared_kernel;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) !=
        cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    const size_t words = (size_t)bytes / sizeof(unsigned long long);
    poison_shared_kernel<<<blocks, 256, words * sizeof(unsigned long long)>>>(words);
    if (cudaGetLastError() != cudaSuccess)
        return 0;
    return 1;
}

void tut_grader_poison_shared(void)
{
    int device = 0, sms = 0, per_block = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    /* The largest carveout of shared memory, then the largest block the GPU allows; several
     * blocks per SM, one resident at a time, so that every SM gets its turn. Where that is
     * refused, the 48 KiB every GPU allows; where even that is, nothing (the grader's checks
     * still run, without this help). */
    (void)cudaFuncSetAttribute((const void *)poison_shared_kernel,
                               cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    (void)cudaGetLastError();
    if (!poison_with(4 * sms, per_block) && !poison_with(8 * sms, 48 * 1024))
        printf("note: shared memory not poisoned (the launch was refused)\n");
    CUDA_CHECK(cudaDeviceSynchronize());
}
