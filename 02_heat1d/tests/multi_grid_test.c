/* CPU test: the grid of each part's update across GPUs (multi/part_grid.h, launched by
 * multi/parts.cu) on every GPU of common/gpu_table.h. The rod's launch comes from
 * heat_config_step with the span kernel's registers, as heat_rod_create asks it; then, for every
 * part of many splits: a grid never 0 nor past gridDim.x's limit, one thread per point up to the
 * one-GPU kernel's cap of 2^20 blocks (and the cap beyond), the very grid the one-GPU kernel gets
 * for a rod of the part's points, and every SM busy for a large part. No GPU needed. */
#include <stdint.h>
#include <stdio.h>

#include "gpu_table.h"
#include "heat_config.h"
#include "occupancy.h"
#include "part_grid.h"
#include "split.h"
#include "tutorial.h"
#include "unit_test.h"

/* heat_span_kernel (multi/parts.cu): 14 registers (sm_75), 15 (sm_90), from ptxas
 * (nvcc --resource-usage, CUDA 13.0, -O3); no static shared memory. */
static const heat_kernel_cost span_cost = {.regs_per_thread = 15};
/* heat_config_step's most blocks (the grid-stride loop does the rest). */
#define STEP_CAP ((size_t)1 << 20)
/* gridDim.x's limit on every GPU of compute capability 3.0 and newer. */
#define GRID_X_LIMIT ((size_t)0x7fffffff)

/* A part's grid over `points` points, the rod's launch being `rod`. */
static void check_part(const tut_device_info *dev, const heat_launch *rod, size_t points,
                       int asked_threads)
{
    char why[320];
    const size_t threads = (size_t)rod->threads;
    const size_t grid = heat_part_grid(points, rod->threads, rod->blocks);
    EXPECT(grid >= 1 && grid <= GRID_X_LIMIT && grid <= rod->blocks);
    const size_t needed = points / threads + (points % threads != 0);
    if (needed <= STEP_CAP) /* one thread per point, and no block without a point */
        EXPECT(grid * threads >= points && (grid - 1) * threads < points);
    else
        EXPECT(grid == STEP_CAP);
    /* The launch the one-GPU kernel gets for a rod of this many points. */
    heat_launch one;
    EXPECT(heat_config_step(dev, span_cost, points, asked_threads, &one, why, sizeof why));
    EXPECT(one.threads == rod->threads && one.blocks == grid);
}

static void check_gpu(const tut_device_info *dev)
{
    const size_t rods[] = {1, 2, 3, 7, 255, 256, 257, 1009, 4099, 99991, 1000003,
                           (size_t)1 << 24, ((size_t)1 << 28) + 1, ((size_t)1 << 34) + 7};
    const int part_counts[] = {1, 2, 3, 4, 7, 8, 13, 64};
    const int asked[] = {0, 32, 96, 128, 1024}; /* 0: the default, 256 */
    char why[320];
    for (int t = 0; t < TUT_COUNT(asked); ++t)
        for (int r = 0; r < TUT_COUNT(rods); ++r) {
            const size_t n = rods[r];
            heat_launch rod;
            /* heat_rod_create's launch: 15 registers fit 1024 threads on every GPU. */
            EXPECT(heat_config_step(dev, span_cost, n, asked[t], &rod, why, sizeof why));
            EXPECT(rod.threads == (asked[t] ? asked[t] : HEAT_DEFAULT_THREADS));
            for (int c = 0; c < TUT_COUNT(part_counts); ++c) {
                const int parts = part_counts[c];
                if ((size_t)parts > n)
                    continue; /* refused: every part holds a point */
                for (int p = 0; p < parts; ++p) {
                    const heat_span s = heat_split_part(n, parts, p);
                    check_part(dev, &rod, s.count, asked[t]); /* heat_launch_whole */
                    if (s.count > 2)
                        check_part(dev, &rod, s.count - 2, asked[t]); /* the interior */
                }
            }
        }

    /* A large part at the default block: every SM full (blocks of 256 threads hold all of its
     * threads) and more than one wave of blocks, so none idles. */
    heat_launch rod;
    EXPECT(heat_config_step(dev, span_cost, (size_t)1 << 24, 0, &rod, why, sizeof why));
    EXPECT(rod.blocks_per_sm * rod.threads == dev->max_threads_per_sm);
    const tut_kernel_use use = {.threads = rod.threads,
                                .regs_per_thread = span_cost.regs_per_thread};
    EXPECT(rod.blocks_per_sm == tut_blocks_per_sm(dev, use));
    const size_t wave = (size_t)dev->sm_count * (size_t)rod.blocks_per_sm;
    const size_t eighth = heat_split_part((size_t)1 << 24, 8, 7).count;
    EXPECT(heat_part_grid(eighth, rod.threads, rod.blocks) >= wave);

    /* Tiny parts: the fewest blocks. */
    const int th = rod.threads;
    EXPECT(heat_part_grid(1, th, rod.blocks) == 1);
    EXPECT(heat_part_grid((size_t)th - 1, th, rod.blocks) == 1);
    EXPECT(heat_part_grid((size_t)th, th, rod.blocks) == 1);
    EXPECT(heat_part_grid((size_t)th + 1, th, rod.blocks) == 2);
    EXPECT(heat_part_grid(7, th, rod.blocks) == 1);
    EXPECT(heat_part_grid(4099, th, rod.blocks) == 17);
    EXPECT(heat_part_grid(1000003, th, rod.blocks) == 3907);
    printf("  %-8s %4d SMs x %d blocks of %d: one wave %5zu blocks; a part of 2^21 points "
           "%5u blocks\n", dev->name, dev->sm_count, rod.blocks_per_sm, rod.threads, wave,
           heat_part_grid(eighth, rod.threads, rod.blocks));
}

static void test_every_gpu(void)
{
    for (int i = 0; i < tut_gpu_profile_count(); ++i)
        check_gpu(tut_gpu_profile_at(i));
}

/* Past the cap and at the ends of size_t: the cap, never 0, no overflow. */
static void test_limits(void)
{
    EXPECT(heat_part_grid(STEP_CAP * 256, 256, STEP_CAP) == STEP_CAP);
    EXPECT(heat_part_grid(STEP_CAP * 256 + 1, 256, STEP_CAP) == STEP_CAP);
    EXPECT(heat_part_grid(SIZE_MAX, 256, STEP_CAP) == STEP_CAP);
    EXPECT(heat_part_grid(0, 256, STEP_CAP) == 1);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {{"every_gpu", test_every_gpu},
                                            {"limits", test_limits}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
