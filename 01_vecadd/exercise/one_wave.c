/* Exercise 01.3: the launch helper of the grid-stride kernels (docs/01_vecadd_exercises.md).
 * Grade it (rebuilds, runs its grader, prints its line; the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex01.3 */
#include "launch_config.h"

launch_config one_wave_config(const tut_device_info *dev, kernel_resources k, size_t items)
{
    tut_kernel_use use = {.threads = 0,
                          .regs_per_thread = k.regs_per_thread,
                          .static_shared = k.static_shared,
                          .dynamic_shared = 0};
    launch_config c = {.threads = 0, .blocks = 0, .blocks_per_sm = 0};
    /* TODO (ex01.3): choose the launch from the GPU's limits (common/occupancy.h), never from
     * one GPU's numbers:
     *   1. c.threads: the block size, up to STREAMING_MAX_THREADS, that keeps the most threads
     *      resident on an SM (tut_best_block_size). If it is 0, return c as it is (0 blocks).
     *   2. c.blocks_per_sm: how many such blocks one SM holds at once (tut_blocks_per_sm).
     *   3. c.blocks: one wave, every SM full (dev->sm_count of them), but never more blocks
     *      than `items` needs at c.threads per block, and never fewer than one. */
    (void)dev;
    (void)use;
    (void)items;
    return c;
}
