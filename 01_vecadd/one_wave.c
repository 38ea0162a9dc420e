/* The launch helper of the grid-stride kernels: one wave of blocks, sized by the occupancy
 * calculator from the GPU's limits (exercise 01.3; the skeleton is exercise/one_wave.c). */
#include "launch_config.h"

launch_config one_wave_config(const tut_device_info *dev, kernel_resources k, size_t items)
{
    tut_kernel_use use = {.threads = 0,
                          .regs_per_thread = k.regs_per_thread,
                          .static_shared = k.static_shared,
                          .dynamic_shared = 0};
    /* The block size that keeps the most threads resident: a memory-bound kernel needs many
     * loads in flight, and more blocks than a wave only queue behind the first. */
    use.threads = tut_best_block_size(dev, use, (int)STREAMING_MAX_THREADS);
    launch_config c = {.threads = (unsigned)use.threads, .blocks = 0, .blocks_per_sm = 0};
    if (use.threads == 0)
        return c; /* not even one warp fits: 0 blocks, which the caller refuses */
    c.blocks_per_sm = tut_blocks_per_sm(dev, use);
    /* One wave is every SM full; less work than that needs only enough blocks to cover it, and
     * there is always at least one block (n = 0 launches one idle block, not an empty grid). */
    const size_t wave = (size_t)dev->sm_count * (size_t)c.blocks_per_sm;
    const size_t needed = items / c.threads + (items % c.threads != 0);
    c.blocks = needed < wave ? needed : wave;
    if (c.blocks == 0)
        c.blocks = 1;
    return c;
}
