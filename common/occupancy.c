#include "occupancy.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "check.h"

/* Registers are handed out per warp in chunks of 256 (8 per thread), and warps to the SM's four
 * schedulers (sub-partitions) in groups of 4, each scheduler with a quarter of the register file;
 * shared memory per block in chunks of 256 bytes on 7.x and 128 from 8.0, plus what the system
 * reserves per block. */
#define REG_CHUNK 256
#define WARP_GROUP 4
#define SHARED_CHUNK_SM70 256 /* compute capability 7.x */
#define SHARED_CHUNK 128

static size_t round_up(size_t x, size_t unit)
{
    return (x + unit - 1) / unit * unit;
}

static size_t shared_of_block(const tut_device_info *dev, tut_kernel_use use)
{
    const size_t chunk = dev->major <= 7 ? SHARED_CHUNK_SM70 : SHARED_CHUNK;
    return round_up(use.static_shared + use.dynamic_shared, chunk) +
           dev->reserved_shared_per_block;
}

/* Under emulation the block must also fit the real GPU's accounting (its own chunk and reserve):
 * the smaller of the two counts. 0 when not emulating. */
static int blocks_by_real_shared(const tut_device_info *dev, tut_kernel_use use)
{
    if (dev->real_shared_per_sm == 0)
        return 0;
    const size_t chunk = dev->real_major <= 7 ? SHARED_CHUNK_SM70 : SHARED_CHUNK;
    const size_t shared = round_up(use.static_shared + use.dynamic_shared, chunk) +
                          dev->real_reserved_shared_per_block;
    return (int)(dev->real_shared_per_sm / shared);
}

static int regs_per_warp(const tut_device_info *dev, tut_kernel_use use)
{
    const int regs = use.regs_per_thread > 0 ? use.regs_per_thread : 1;
    return (int)round_up((size_t)regs * (size_t)dev->warp_size, REG_CHUNK);
}

int tut_kernel_fits(const tut_device_info *dev, tut_kernel_use use, char *why, size_t len)
{
    const int warps = (use.threads + dev->warp_size - 1) / dev->warp_size;
    const char *gpu = dev->emulated[0] ? dev->emulated : dev->name;
    if (use.regs_per_thread < 0 || use.threads < 1 || use.threads > dev->max_threads_per_block) {
        snprintf(why, len, "%d threads per block; a %.60s block can have 1 to %d", use.threads, gpu,
                 dev->max_threads_per_block);
        return 0;
    }
    if (use.static_shared + use.dynamic_shared > dev->shared_per_block_optin) {
        snprintf(why, len, "needs %zu bytes of shared memory; a %.60s block can have at most %zu",
                 use.static_shared + use.dynamic_shared, gpu, dev->shared_per_block_optin);
        return 0;
    }
    if (shared_of_block(dev, use) > dev->shared_per_sm) {
        snprintf(why, len, "needs %zu bytes of shared memory per SM; a %.40s SM has %zu",
                 shared_of_block(dev, use), gpu, dev->shared_per_sm);
        return 0;
    }
    /* The block's registers, counted as the hardware checks them (its warps rounded up to the
     * WARP_GROUP sub-partitions, which covers the warps it is given); and room on one SM. */
    const long block_warps_checked = (long)round_up((size_t)warps, WARP_GROUP);
    if (block_warps_checked * regs_per_warp(dev, use) > dev->regs_per_block ||
        dev->regs_per_sm / regs_per_warp(dev, use) / WARP_GROUP * WARP_GROUP < warps) {
        snprintf(why, len, "needs %d registers per thread x %d threads; a %.60s block has %d",
                 use.regs_per_thread, use.threads, gpu, dev->regs_per_block);
        return 0;
    }
    return 1;
}

static int limit_by(const tut_device_info *dev, tut_kernel_use use, const char **limiter)
{
    const int warps = (use.threads + dev->warp_size - 1) / dev->warp_size;
    int best = dev->max_blocks_per_sm;
    const char *why = "blocks";
    const int by_threads = dev->max_threads_per_sm / (warps * dev->warp_size);
    if (by_threads < best) {
        best = by_threads;
        why = "threads";
    }
    if (use.regs_per_thread > 0) {
        const int warps_by_regs =
            dev->regs_per_sm / regs_per_warp(dev, use) / WARP_GROUP * WARP_GROUP;
        const int by_regs = warps_by_regs / warps;
        if (by_regs < best) {
            best = by_regs;
            why = "registers";
        }
    }
    const size_t shared = shared_of_block(dev, use);
    if (shared > 0) {
        int by_shared = (int)(dev->shared_per_sm / shared);
        const int real = blocks_by_real_shared(dev, use);
        if (dev->real_shared_per_sm && real < by_shared)
            by_shared = real;
        if (by_shared < best) {
            best = by_shared;
            why = "shared memory";
        }
    }
    if (limiter)
        *limiter = why;
    return best;
}

int tut_blocks_per_sm(const tut_device_info *dev, tut_kernel_use use)
{
    char why[160];
    if (!tut_kernel_fits(dev, use, why, sizeof why))
        return 0;
    return limit_by(dev, use, NULL);
}

const char *tut_occupancy_limiter(const tut_device_info *dev, tut_kernel_use use)
{
    const char *limiter = "blocks";
    limit_by(dev, use, &limiter);
    return limiter;
}

int tut_best_block_size(const tut_device_info *dev, tut_kernel_use use, int max_threads)
{
    if (max_threads > dev->max_threads_per_block)
        max_threads = dev->max_threads_per_block;
    int best = 0;
    long best_resident = 0;
    for (int t = max_threads / dev->warp_size * dev->warp_size; t >= dev->warp_size;
         t -= dev->warp_size) {
        use.threads = t;
        const long resident = (long)tut_blocks_per_sm(dev, use) * t;
        if (resident > best_resident) { /* going down: ties keep the larger block */
            best = t;
            best_resident = resident;
        }
    }
    return best;
}

tut_kernel_use tut_kernel_use_of(const void *kernel, int threads, size_t dynamic_shared)
{
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    tut_kernel_use use = {.threads = threads,
                          .regs_per_thread = attr.numRegs,
                          .static_shared = attr.sharedSizeBytes,
                          .dynamic_shared = dynamic_shared};
    return use;
}

int tut_full_wave_blocks(const void *kernel, const char *name, int threads, size_t dynamic_shared)
{
    const tut_device_info *dev = tut_current_device();
    const int per_sm = tut_blocks_per_sm(dev, tut_kernel_use_of(kernel, threads, dynamic_shared));
    if (per_sm < 1) {
        fprintf(stderr, "%s: a block of %d threads does not fit on this GPU\n", name, threads);
        exit(1);
    }
    return per_sm * dev->sm_count;
}

int tut_allow_dynamic_shared(const void *kernel, size_t bytes, char *why, size_t len)
{
    const tut_device_info *dev = tut_current_device();
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (attr.sharedSizeBytes + bytes > dev->shared_per_block_optin) {
        snprintf(why, len, "needs %zu bytes of shared memory; a %.60s block can have at most %zu",
                 attr.sharedSizeBytes + bytes, dev->emulated[0] ? dev->emulated : dev->name,
                 dev->shared_per_block_optin);
        return 0;
    }
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)bytes));
    return 1;
}
