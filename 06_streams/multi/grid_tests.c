/* CPU test: the grid of the multi-GPU kernels (multi_grid.h, launched by multi_kernels.cu) on
 * every GPU of common/gpu_table.h, with the blocks per SM the occupancy calculator
 * (common/occupancy.h) finds for each kernel there: never 0, never past gridDim.x's limit, one
 * full wave for large n (every SM as many blocks as it holds), and for small n just the blocks
 * n needs. Also plain_multi_gpu's own formula. No GPU needed; no NCCL either. */
#include <stdint.h>
#include <stdio.h>

#include "gpu_table.h"
#include "multi_grid.h"
#include "occupancy.h"
#include "tutorial.h"
#include "unit_test.h"

/* multi_kernels.cu's and plain_multi_gpu.cu's block size. */
#define THREADS 256
/* gridDim.x's limit on every GPU of compute capability 3.0 and newer. */
#define GRID_X_LIMIT ((size_t)0x7fffffff)

/* Registers per thread from ptxas (nvcc --resource-usage, CUDA 13.0, -O3) of multi_kernels.cu
 * and plain_multi_gpu.cu, for sm_75 and sm_90; the tests use the larger. */
typedef struct {
    const char *name;
    int regs_per_thread;
    size_t static_shared;
} kernel_cost;

static const kernel_cost kernels[] = {
    {.name = "fill", .regs_per_thread = 20},  /* fill_whole_kernel: 20 (sm_75), 20 (sm_90) */
    {.name = "check", .regs_per_thread = 50}, /* check_whole_sum_kernel: 50, 40 */
    {.name = "count", .regs_per_thread = 15}, /* count_different_kernel: 14, 15 */
    {.name = "add", .regs_per_thread = 16},   /* add_kernel, the ring's reduction: 10, 16 */
    {.name = "dot", .regs_per_thread = 20, .static_shared = 2048}, /* dot_kernel: 18, 20 */
};
enum { KERNELS = TUT_COUNT(kernels), CHECK_WHOLE_SUM = 1 };
/* plain_multi_gpu.cu's partial_dot_kernel: 18 (sm_75), 20 (sm_90); 256 doubles of shared. */
static const kernel_cost plain_dot = {.name = "partial_dot", .regs_per_thread = 20,
                                      .static_shared = 2048};

static int blocks_per_sm(const tut_device_info *dev, kernel_cost k)
{
    const tut_kernel_use use = {.threads = THREADS,
                                .regs_per_thread = k.regs_per_thread,
                                .static_shared = k.static_shared};
    return tut_blocks_per_sm(dev, use);
}

/* The grid for n on this GPU: at least 1, within gridDim.x, a full wave or the fewest blocks
 * that give every item a thread. */
static void check_n(const tut_device_info *dev, int per_sm, size_t n)
{
    const size_t wave = (size_t)dev->sm_count * (size_t)per_sm;
    const size_t grid = (size_t)multi_grid_blocks(dev->sm_count, per_sm, n, THREADS);
    EXPECT(grid >= 1 && grid <= GRID_X_LIMIT && grid <= wave);
    const size_t needed = n / THREADS + (n % THREADS != 0);
    if (needed >= wave)
        EXPECT(grid == wave);
    else if (n > 0) /* one thread per item, and no block without an item */
        EXPECT(grid * THREADS >= n && (grid - 1) * THREADS < n);
    else
        EXPECT(grid == 1);
}

static void check_gpu(const tut_device_info *dev)
{
    const size_t sizes[] = {0, 1, 2, 7, THREADS - 1, THREADS, THREADS + 1, 2 * THREADS + 1,
                            4099, 65537, 1000003, 10000019, (size_t)1 << 30, (size_t)1 << 40,
                            SIZE_MAX};
    int per_sm[KERNELS];
    printf("%-8s %4d %6d |", dev->name, dev->sm_count, dev->max_threads_per_sm);
    for (int k = 0; k < KERNELS; ++k) {
        per_sm[k] = blocks_per_sm(dev, kernels[k]);
        /* The calculator against the unit tests' brute-force count. */
        EXPECT(per_sm[k] == tut_test_most_blocks_per_sm(dev, THREADS, kernels[k].regs_per_thread,
                                                        kernels[k].static_shared));
        EXPECT(per_sm[k] >= 1);
        /* Full occupancy but where 50 registers a thread keep check_whole_sum to 1024 threads
         * an SM (a check, not a timed kernel). */
        if (k != CHECK_WHOLE_SUM)
            EXPECT(per_sm[k] * THREADS == dev->max_threads_per_sm);
        for (int s = 0; s < TUT_COUNT(sizes); ++s)
            check_n(dev, per_sm[k], sizes[s]);
        /* Large n: one full wave, every SM the blocks it holds. multi_dot_blocks asks 2^40. */
        const int wave = multi_grid_blocks(dev->sm_count, per_sm[k], (size_t)1 << 40, THREADS);
        EXPECT(wave == dev->sm_count * per_sm[k]);
        printf(" %5d", per_sm[k]);
    }
    /* Tiny n: the fewest blocks. */
    const int dot = per_sm[KERNELS - 1];
    EXPECT(multi_grid_blocks(dev->sm_count, dot, 1, THREADS) == 1);
    EXPECT(multi_grid_blocks(dev->sm_count, dot, THREADS - 1, THREADS) == 1);
    EXPECT(multi_grid_blocks(dev->sm_count, dot, THREADS, THREADS) == 1);
    EXPECT(multi_grid_blocks(dev->sm_count, dot, THREADS + 1, THREADS) == 2);
    EXPECT(multi_grid_blocks(dev->sm_count, dot, 4099, THREADS) == 17);
    EXPECT(multi_grid_blocks(dev->sm_count, dot, 7, THREADS) == 1);

    /* plain_multi_gpu: SMs x (threads per SM / THREADS) blocks, from the device's properties
     * alone: one full wave where threads, not the blocks an SM holds, registers or shared memory,
     * limit its blocks. At 256 they do on every GPU here; below 64 threads a block (below 96 on
     * the A10 and RTX 3090, 16 blocks of an SM's 1536 threads) the formula would ask for more
     * blocks than fit, and a second, partial wave would follow. */
    const int plain = dev->sm_count * (dev->max_threads_per_sm / THREADS);
    EXPECT(plain == dev->sm_count * blocks_per_sm(dev, plain_dot));
    printf(" | %5d %5d\n", dev->sm_count * dot, plain);
}

static void test_every_gpu(void)
{
    printf("blocks of %d threads per SM, by kernel; the grid for n = 2^40 (multi_dot_blocks) and\n"
           "plain_multi_gpu's grid\n%-8s %4s %6s |", THREADS, "GPU", "SMs", "thr/SM");
    for (int k = 0; k < KERNELS; ++k)
        printf(" %5s", kernels[k].name);
    printf(" | %5s %5s\n", "dot", "plain");
    for (int i = 0; i < tut_gpu_profile_count(); ++i)
        check_gpu(tut_gpu_profile_at(i));
}

/* A block that does not fit (0 per SM) or no SM reported: still a grid of at least 1, as the
 * launcher had it (the launch then reports the error). */
static void test_degenerate(void)
{
    EXPECT(multi_grid_blocks(132, 0, (size_t)1 << 40, THREADS) == 132);
    EXPECT(multi_grid_blocks(0, 0, (size_t)1 << 40, THREADS) == 1);
    EXPECT(multi_grid_blocks(132, 8, 0, THREADS) == 1);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {{"every_gpu", test_every_gpu},
                                            {"degenerate", test_degenerate}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
