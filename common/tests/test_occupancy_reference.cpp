// CPU test: common/'s occupancy calculator against the toolkit's own (cuda_occupancy.h, the
// header-only calculator the CUDA runtime's occupancy API is built on), for every GPU of the
// table, every block size that is a multiple of the warp, a spread of register counts and every
// amount of shared memory in 64-byte steps. C++ only because that header is.
#include <cstdio>

#include <cuda_occupancy.h>
#include <cuda_runtime_api.h> // CUDART_VERSION

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
    long checked = 0, wrong = 0, skipped = 0;
    for (int g = 0; g < tut_gpu_profile_count(); g++) {
        const tut_device_info *d = tut_gpu_profile_at(g);
        const cudaOccDeviceProp props = props_of(d);
        cudaOccDeviceState state; // default: the carveout the driver picks, as at launch
        long gpu_wrong = 0;
        // An older toolkit's calculator does not know newer GPUs (CUDA 12.4: nothing past 9.0).
        cudaOccFuncAttributes probe;
        probe.maxThreadsPerBlock = 1024;
        probe.numRegs = 16;
        cudaOccResult probe_result;
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&probe_result, &props, &probe, &state, 32, 0) !=
                CUDA_OCC_SUCCESS ||
            probe_result.activeBlocksPerMultiprocessor == 0) {
            std::printf("%-8s not known to this toolkit's calculator (CUDA %d.%d): skipped\n",
                        d->name, CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
            skipped++;
            continue;
        }
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
    // Every toolkit this suite supports knows the GPUs up to 9.0: at most B200 and RTX5090 skip.
    const bool ok = wrong == 0 && skipped <= 2;
    std::printf("%ld configurations compared, %ld disagree, %ld GPUs skipped\n%s\n", checked,
                wrong, skipped, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
