#include "mc_config.h"

#include <stdint.h>
#include <stdio.h>

#include "occupancy.h"
#include "streams.h"

mc_launch mc_full_wave(const tut_device_info *dev, int threads, int regs_per_thread,
                       size_t static_shared)
{
    mc_launch plan = {.threads = threads, .blocks_per_sm = 0, .blocks = 0, .limiter = "",
                      .why = ""};
    const tut_kernel_use use = {.threads = threads, .regs_per_thread = regs_per_thread,
                                .static_shared = static_shared, .dynamic_shared = 0};
    if (!tut_kernel_fits(dev, use, plan.why, sizeof plan.why))
        return plan;
    plan.blocks_per_sm = tut_blocks_per_sm(dev, use);
    plan.limiter = tut_occupancy_limiter(dev, use);
    plan.blocks = (long long)plan.blocks_per_sm * dev->sm_count;
    return plan;
}

mc_launch mc_fused_launch(const tut_device_info *dev, int regs_per_thread, size_t static_shared,
                          int requested_per_sm, unsigned long long samples)
{
    mc_launch plan = mc_full_wave(dev, MC_FUSED_THREADS, regs_per_thread, static_shared);
    if (plan.blocks_per_sm == 0)
        return plan;
    if (requested_per_sm > 0 && requested_per_sm < plan.blocks_per_sm) {
        plan.blocks_per_sm = requested_per_sm;
        plan.limiter = "request";
    }
    /* A persistent grid: every block resident at once, each thread looping over streams; no
     * more blocks than there are streams for. */
    const unsigned long long wanted = (unsigned long long)plan.blocks_per_sm * dev->sm_count;
    const unsigned long long useful =
        (mc_stream_count(samples) + MC_FUSED_THREADS - 1) / MC_FUSED_THREADS;
    plan.blocks = (long long)(wanted < useful ? wanted : useful);
    return plan;
}

int mc_fused_sweep(int max_per_sm, int entries[5], int *skipped)
{
    const int candidates[] = {1, 2, 3, 4};
    int count = 0;
    *skipped = 0;
    for (int k = 0; k < 4; ++k) {
        if (candidates[k] > max_per_sm)
            ++*skipped;
        else if (candidates[k] < max_per_sm)
            entries[count++] = candidates[k];
    }
    if (max_per_sm > 0)
        entries[count++] = max_per_sm;
    return count;
}

int mc_partials_threads(const tut_device_info *dev, int regs_per_thread, size_t static_shared)
{
    int threads = dev->max_threads_per_block < MC_PARTIALS_MAX_THREADS
                      ? dev->max_threads_per_block
                      : MC_PARTIALS_MAX_THREADS;
    threads -= threads % dev->warp_size;
    for (; threads >= dev->warp_size; threads -= dev->warp_size) {
        const tut_kernel_use use = {.threads = threads, .regs_per_thread = regs_per_thread,
                                    .static_shared = static_shared, .dynamic_shared = 0};
        if (tut_blocks_per_sm(dev, use) >= 1)
            return threads;
    }
    return 0;
}

size_t mc_library_bytes(unsigned long long chunk, unsigned long long samples)
{
    const unsigned long long c = chunk < samples ? chunk : samples;
    const unsigned long long chunks = (samples + c - 1) / c;
    /* the uniforms of one chunk, one pair per chunk, CUB's scratch (a few KiB; 1 MiB allowed) */
    return (size_t)(c * sizeof(float) + chunks * 2 * sizeof(double) + (1u << 20));
}

size_t mc_states_bytes(unsigned long long n)
{
    const size_t per_sample = MC_CURAND_STATE_BYTES + sizeof(float);
    return n > SIZE_MAX / per_sample ? SIZE_MAX : (size_t)n * per_sample;
}

unsigned long long mc_states_bench_samples(size_t memory, size_t spare)
{
    for (unsigned long long n = 1ull << 24; n >= (1ull << 16); n /= 2)
        if (mc_states_bytes(n) + spare <= memory)
            return n;
    return 0;
}
