#include "sessionize_config.h"

#include <stdio.h>

#include "occupancy.h"

static session_launch plan_for(const tut_device_info *dev, int threads, int regs_per_thread,
                               size_t static_shared)
{
    session_launch plan = {.threads = threads, .blocks_per_sm = 0, .blocks = 0,
                           .limiter = "", .why = ""};
    const tut_kernel_use use = {.threads = threads, .regs_per_thread = regs_per_thread,
                                .static_shared = static_shared, .dynamic_shared = 0};
    if (!tut_kernel_fits(dev, use, plan.why, sizeof plan.why))
        return plan;
    plan.blocks_per_sm = tut_blocks_per_sm(dev, use);
    plan.limiter = tut_occupancy_limiter(dev, use);
    return plan;
}

session_launch cooperative_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                       size_t static_shared)
{
    session_launch plan = plan_for(dev, COOPERATIVE_THREADS, regs_per_thread, static_shared);
    if (!dev->cooperative_launch) {
        snprintf(plan.why, sizeof plan.why, "the GPU cannot launch cooperative kernels");
        plan.blocks = 0;
        return plan;
    }
    /* More blocks than fit at once would never all reach the grid sync: the launch refuses. */
    plan.blocks = (int64_t)plan.blocks_per_sm * dev->sm_count;
    return plan;
}

static session_launch one_block_per_tile(const tut_device_info *dev, int threads, int64_t tile,
                                         int regs_per_thread, size_t static_shared, int64_t n)
{
    session_launch plan = plan_for(dev, threads, regs_per_thread, static_shared);
    if (plan.blocks_per_sm == 0)
        return plan;
    /* Tiles are numbered in the order blocks start, so a block waits only for blocks already
     * running: any grid size is safe, and one block per tile needs no grid-stride loop. */
    const int64_t tiles = (n + tile - 1) / tile;
    if (tiles > 0x7fffffff) {
        snprintf(plan.why, sizeof plan.why, "%lld events need more than 2^31 - 1 tiles",
                 (long long)n);
        return plan;
    }
    plan.blocks = tiles;
    return plan;
}

session_launch chained_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                   size_t static_shared, int64_t n)
{
    return one_block_per_tile(dev, CHAINED_THREADS, CHAINED_TILE, regs_per_thread, static_shared,
                              n);
}

session_launch single_pass_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                       size_t static_shared, int64_t n)
{
    return one_block_per_tile(dev, SINGLE_PASS_THREADS, SINGLE_PASS_TILE, regs_per_thread,
                              static_shared, n);
}

session_launch grid_stride_plan(const tut_device_info *dev, int regs_per_thread,
                                size_t static_shared, int64_t n)
{
    session_launch plan = plan_for(dev, GRID_STRIDE_THREADS, regs_per_thread, static_shared);
    if (plan.blocks_per_sm == 0)
        return plan;
    /* One full wave: every SM as busy as it can be; the loop covers the rest. */
    const int64_t full = (int64_t)plan.blocks_per_sm * dev->sm_count;
    const int64_t needed = (n + GRID_STRIDE_THREADS - 1) / GRID_STRIDE_THREADS;
    plan.blocks = needed < full ? (needed > 0 ? needed : 1) : full;
    return plan;
}

size_t sessionize_bench_bytes(int64_t max_n)
{
    /* user + ts (2), labels (1), memcpy destination (1.5), scratch (less than 0.5) */
    return (size_t)max_n * sizeof(int64_t) * 5;
}

int sessionize_bench_sizes(int64_t max_n, int64_t *sizes)
{
    int count = 0;
    for (int64_t decade = 10000; decade <= max_n && count < 38; decade *= 10) {
        sizes[count++] = decade;
        if (3 * decade < max_n)
            sizes[count++] = 3 * decade;
    }
    if (count == 0 || sizes[count - 1] != max_n)
        sizes[count++] = max_n;
    return count;
}

int64_t sessionize_bench_max_that_fits(int64_t wanted_max_n, size_t free_bytes)
{
    int64_t sizes[40];
    const int count = sessionize_bench_sizes(wanted_max_n, sizes);
    for (int k = count - 1; k >= 0; --k)
        if (sessionize_bench_bytes(sizes[k]) + SESSIONIZE_BENCH_SPARE <= free_bytes)
            return sizes[k];
    return 0;
}
