// On a real GPU, common/'s occupancy calculator must agree with the CUDA runtime's for kernels
// of different register and shared-memory appetites, at every block size and several dynamic
// shared-memory sizes. (Under TUT_EMULATE_GPU the calculator answers for the emulated GPU, so the
// comparison is skipped there.)
#include <stdio.h>

#include "occupancy.h"
#include "tutorial.h"

__global__ void light_kernel(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// Many live values: the compiler needs many registers.
__global__ void heavy_kernel(float *out, int n)
{
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        acc[i] = out[(threadIdx.x + i * 97) % n];
    for (int k = 0; k < n; k++)
#pragma unroll
        for (int i = 0; i < 32; i++)
            acc[i] = acc[i] * acc[(i + 1) % 32] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 32; i++)
        s += acc[i];
    out[threadIdx.x] = s;
}

__global__ void static_shared_kernel(float *out)
{
    __shared__ float tile[5000]; // 20,000 bytes
    extern __shared__ float more[];
    tile[threadIdx.x] = (float)threadIdx.x;
    more[threadIdx.x] = 0.0f;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x] + more[0];
}

static int compare(const char *name, const void *kernel, size_t max_dynamic)
{
    const tut_device_info *dev = tut_current_device();
    const size_t dynamic[] = {0, 1000, 16 * 1024, 48 * 1024, 100 * 1024, max_dynamic};
    int mismatches = 0, checked = 0;
    for (int threads = 32; threads <= 1024; threads *= 2) {
        for (int d = 0; d < TUT_COUNT(dynamic); d++) {
            char why[160];
            tut_kernel_use use = tut_kernel_use_of(kernel, threads, dynamic[d]);
            if (!tut_kernel_fits(dev, use, why, sizeof why))
                continue;
            CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)dynamic[d]));
            int runtime = 0;
            CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime, kernel, threads,
                                                                     dynamic[d]));
            const int ours = tut_blocks_per_sm(dev, use);
            checked++;
            if (ours != runtime) {
                printf("  %s, %d threads, %d registers, %zu+%zu shared: runtime %d, ours %d\n",
                       name, threads, use.regs_per_thread, use.static_shared, dynamic[d],
                       runtime, ours);
                mismatches++;
            }
        }
    }
    printf("%-22s %2d configurations, %d disagree\n", name, checked, mismatches);
    return mismatches == 0 && checked > 0;
}

int main(void)
{
    tut_select_device(TUT_NEED_NOTHING);
    const tut_device_info *dev = tut_current_device();
    if (dev->emulated[0]) {
        printf("SKIPPED: limits are emulated (%s); the runtime answers for the real GPU\n",
               dev->emulated);
        return TUT_EXIT_SKIP;
    }
    const size_t most = dev->shared_per_block_optin;
    int ok = compare("light_kernel", (const void *)light_kernel, most);
    ok &= compare("heavy_kernel", (const void *)heavy_kernel, most);
    ok &= compare("static_shared_kernel", (const void *)static_shared_kernel, most - 20000);
    return tut_finish(ok);
}
