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

// Every block size, register count and amount of shared memory on one GPU: the number of
// configurations where ours and the toolkit's disagree (the first 3 printed).
static long compare(const tut_device_info *d, const char *name)
{
    const int regs[] = {16, 24, 32, 36, 40, 48, 56, 64, 72, 80, 96, 128, 168, 255};
    const cudaOccDeviceProp props = props_of(d);
    cudaOccDeviceState state; // default: the carveout the driver picks, as at launch
    long wrong = 0;
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
                if (ours != theirs) {
                    if (wrong < 3)
                        std::printf("  %s: %d threads, %d registers, %zu bytes: toolkit %d, ours %d\n",
                                    name, threads, r, shared, theirs, ours);
                    wrong++;
                }
            }
        }
    }
    std::printf("%-26s %ld disagreements\n", name, wrong);
    return wrong;
}

int main()
{
    long wrong = 0, skipped = 0, gpus = 0;
    for (int g = 0; g < tut_gpu_profile_count(); g++) {
        const tut_device_info *d = tut_gpu_profile_at(g);
        // An older toolkit's calculator does not know newer GPUs (CUDA 12.4: nothing past 9.0).
        const cudaOccDeviceProp props = props_of(d);
        cudaOccDeviceState state;
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
        wrong += compare(d, d->name);
        // The same GPU with blocks allowed half the SM's registers: no GPU of the table has a
        // per-block limit below the SM's, so only this copy tells the two limits apart (the
        // hardware's per-block check counts the block's warps rounded up to 4).
        tut_device_info half = *d;
        half.regs_per_block = d->regs_per_sm / 2;
        char name[64];
        std::snprintf(name, sizeof name, "%s, blocks of 1/2 SM regs", d->name);
        wrong += compare(&half, name);
        gpus++;
    }
    // Every toolkit this suite supports knows the GPUs up to 9.0: at most B200 and RTX5090 skip.
    const bool ok = wrong == 0 && skipped <= 2 && gpus > 0;
    std::printf("%ld GPUs compared (each also with half the registers per block), %ld "
                "disagreements, %ld GPUs skipped\n%s\n", gpus, wrong, skipped, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
