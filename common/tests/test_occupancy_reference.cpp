// CPU test: common/'s occupancy calculator against the toolkit's own (cuda_occupancy.h, the
// header-only calculator the CUDA runtime's occupancy API is built on), for every GPU of the
// table, every block size that is a multiple of the warp, a spread of register counts and every
// amount of shared memory in 64-byte steps. C++ only because that header is.
#include <cstdio>

#include <cuda_occupancy.h>

#include "gpu_table.h"
#include "occupancy.h"

static cudaOccDeviceProp props_of(const tut_device_info *d)
{
    cudaOccDeviceProp p;
    p.computeMajor = d->major;
    p.computeMinor = d->minor;
    p.maxThreadsPerBlock = d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d->max_threads_per_sm;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_sm;
    p.warpSize = d->warp_size;
    p.sharedMemPerBlock = d->shared_per_block;
    p.sharedMemPerMultiprocessor = d->shared_per_sm;
    p.numSms = d->sm_count;
    p.sharedMemPerBlockOptin = d->shared_per_block_optin;
    p.reservedSharedMemPerBlock = d->reserved_shared_per_block;
    return p;
}

int main()
{
    const int regs[] = {16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 255};
    long checked = 0, wrong = 0;
    for (int g = 0; g < tut_gpu_profile_count(); g++) {
        const tut_device_info *d = tut_gpu_profile_at(g);
        const cudaOccDeviceProp props = props_of(d);
        cudaOccDeviceState state; // default: the carveout the driver picks, as at launch
        long gpu_wrong = 0;
        for (int threads = 32; threads <= d->max_threads_per_block; threads += 32) {
            for (int r : regs) {
                for (size_t shared = 0; shared <= d->shared_per_block_optin; shared += 64) {
                    tut_kernel_use use = {threads, r, 0, shared};
                    cudaOccFuncAttributes attr;
                    attr.maxThreadsPerBlock = 1024;
                    attr.numRegs = r;
                    attr.sharedSizeBytes = 0;
                    attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
                    attr.maxDynamicSharedSizeBytes = d->shared_per_block_optin;
                    cudaOccResult result;
                    const cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(
                        &result, &props, &attr, &state, threads, shared);
                    const int theirs = err == CUDA_OCC_SUCCESS ? result.activeBlocksPerMultiprocessor : 0;
                    const int ours = tut_blocks_per_sm(d, use);
                    checked++;
                    if (ours != theirs) {
                        if (gpu_wrong < 3)
                            std::printf("  %s: %d threads, %d registers, %zu bytes: toolkit %d, ours %d\n",
                                        d->name, threads, r, shared, theirs, ours);
                        gpu_wrong++;
                    }
                }
            }
        }
        std::printf("%-8s %ld disagreements\n", d->name, gpu_wrong);
        wrong += gpu_wrong;
    }
    std::printf("%ld configurations compared, %ld disagree\n%s\n", checked, wrong,
                wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
