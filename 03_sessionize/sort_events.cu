/* Input that is not sorted by (user, timestamp) would be labelled wrongly and silently: a user's
 * events split apart look like new sessions. The driver checks first (first_unsorted_gpu) and,
 * when needed, sorts on the GPU.
 *
 * CUB's radix sort orders one key. Two keys sort as two stable passes, least significant first
 * (LSD): by timestamp, then by user. The second pass keeps the timestamp order among equal users
 * because radix sort is stable; it also keeps the input order among equal (user, timestamp), so
 * the result is one well-defined order. Rather than moving both arrays through both passes, the
 * passes move a permutation, and one gather builds the sorted arrays at the end. */
#include <cub/device/device_radix_sort.cuh>

#include "sessionize_config.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

/* Blocks of GRID_STRIDE_THREADS, as many as fill every SM once (sessionize_config.c); each kernel
 * loops grid-stride over the rest. The runtime reports each kernel's registers (cheap, no GPU
 * work). */
static unsigned grid_for(const void *kernel, int64_t n)
{
    const tut_kernel_use use = tut_kernel_use_of(kernel, GRID_STRIDE_THREADS, 0);
    const session_launch plan =
        grid_stride_plan(tut_current_device(), use.regs_per_thread, use.static_shared, n);
    if (plan.blocks < 1) {
        fprintf(stderr, "sort: %s\n", plan.why);
        exit(1);
    }
    return (unsigned)plan.blocks;
}

__global__ void first_unsorted_kernel(const int64_t *user, const int64_t *ts, int64_t n,
                                      unsigned long long *first)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x + 1; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int before = user[i] < user[i - 1] || (user[i] == user[i - 1] && ts[i] < ts[i - 1]);
        if (before)
            atomicMin(first, (unsigned long long)i);
    }
}

int64_t first_unsorted_gpu(const int64_t *user, const int64_t *ts, int64_t n)
{
    unsigned long long *d_first =
        (unsigned long long *)tut_device_alloc(sizeof *d_first, "unsorted flag");
    unsigned long long first = (unsigned long long)n;
    CUDA_CHECK(cudaMemcpy(d_first, &first, sizeof first, cudaMemcpyHostToDevice));
    if (n > 1) {
        const unsigned blocks = grid_for((const void *)first_unsorted_kernel, n);
        first_unsorted_kernel<<<blocks, GRID_STRIDE_THREADS>>>(user, ts, n, d_first);
        LAUNCH_CHECK();
    }
    CUDA_CHECK(cudaMemcpy(&first, d_first, sizeof first, cudaMemcpyDeviceToHost));
    tut_device_free(d_first);
    return (int64_t)first;
}

__global__ void iota_kernel(int64_t *out, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        out[i] = i;
}

__global__ void gather_kernel(const int64_t *from, const int64_t *index, int64_t n, int64_t *to)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        to[i] = from[index[i]];
}

void sort_events_gpu(int64_t *user, int64_t *ts, int64_t n, int64_t *order)
{
    const size_t bytes = tut_bytes((size_t)n, sizeof(int64_t), "sort buffers");
    int64_t *keys = (int64_t *)tut_device_alloc(bytes, "sort keys");
    int64_t *keys_sorted = (int64_t *)tut_device_alloc(bytes, "sorted keys");
    int64_t *perm = (int64_t *)tut_device_alloc(bytes, "permutation");
    int64_t *perm_sorted = (int64_t *)tut_device_alloc(bytes, "sorted permutation");

    size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(NULL, temp_bytes, keys, keys_sorted, perm,
                                               perm_sorted, n));
    void *temp = tut_device_alloc(temp_bytes, "radix sort scratch");

    iota_kernel<<<grid_for((const void *)iota_kernel, n), GRID_STRIDE_THREADS>>>(perm, n);
    LAUNCH_CHECK();
    /* Pass 1: by timestamp (signed keys: CUB orders negatives first). */
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, ts, keys_sorted, perm,
                                               perm_sorted, n));
    LAUNCH_CHECK();
    /* Pass 2: by user, carrying the permutation; stable, so time order survives. */
    const unsigned gather_blocks = grid_for((const void *)gather_kernel, n);
    gather_kernel<<<gather_blocks, GRID_STRIDE_THREADS>>>(user, perm_sorted, n, keys);
    LAUNCH_CHECK();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys_sorted, perm_sorted,
                                               perm, n));
    LAUNCH_CHECK();
    /* perm[k] = input row of the k-th event in (user, timestamp) order. */
    gather_kernel<<<gather_blocks, GRID_STRIDE_THREADS>>>(ts, perm, n, keys);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(user, keys_sorted, bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy(ts, keys, bytes, cudaMemcpyDeviceToDevice));
    if (order)
        CUDA_CHECK(cudaMemcpy(order, perm, bytes, cudaMemcpyDeviceToDevice));

    tut_device_free(temp);
    tut_device_free(perm_sorted);
    tut_device_free(perm);
    tut_device_free(keys_sorted);
    tut_device_free(keys);
}
