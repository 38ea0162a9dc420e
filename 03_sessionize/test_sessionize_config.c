/* CPU test of the chapter's launch choices (sessionize_config.c) on every GPU of
 * common/gpu_table.h: each kernel fits, and the choice is the best that fits (the most blocks per
 * SM, a grid that fills every SM), not merely legal. Prints the table the docs quote.
 *
 * Registers per thread and static shared memory of the kernels, from `nvcc -Xptxas -v` of this
 * chapter's sources (CUDA 13.0, -O3; the numbers `cuobjdump --dump-resource-usage` reports for
 * the built binary), for each architecture of the default build. Every GPU is checked with every
 * build's numbers (a conservative superset); the table printed shows the build each GPU runs
 * (sm_80 code runs on 8.6 and 8.9; the V100, CUDA 12 builds only, is shown with sm_75's). */
#include <stdio.h>
#include <string.h>

#include "gpu_table.h"
#include "occupancy.h"
#include "sessionize_config.h"
#include "tutorial.h"
#include "unit_test.h"

typedef struct {
    const char *arch;
    int cc;                /* 10 * major + minor of the oldest GPU that runs this code */
    int cooperative_regs;  /* cooperative_sessionize_kernel */
    int chained_regs;      /* chained_sessionize_kernel (__launch_bounds__(256, 3): <= 80) */
    size_t chained_shared; /* its static shared memory: 8 warp maxima, tile id and carry */
    int sort_regs;         /* the most of first_unsorted_kernel, iota_kernel, gather_kernel */
    int single_regs;       /* single_pass_sessionize_kernel (__launch_bounds__(256, 4): <= 64) */
    size_t single_shared;  /* its static shared memory: 8 warp maxima and the tile id */
} kernel_registers;

static const kernel_registers compiled[] = {
    {"sm_75", 75, 48, 44, 80, 30, 64, 40},  {"sm_80", 80, 32, 40, 80, 28, 64, 40},
    {"sm_90", 90, 32, 44, 80, 28, 56, 40},  {"sm_100", 100, 38, 56, 80, 28, 64, 40},
    {"sm_120", 120, 40, 62, 80, 28, 64, 40},
};

/* The build a GPU runs: the newest architecture at or below its compute capability with the same
 * major version (sm_75 for the V100, which only CUDA 12 builds, with sm_70, support). */
static const kernel_registers *native_build(const tut_device_info *dev)
{
    const int cc = 10 * dev->major + dev->minor;
    const kernel_registers *best = &compiled[0];
    for (int k = 0; k < TUT_COUNT(compiled); ++k)
        if (compiled[k].cc <= cc && compiled[k].cc / 10 == dev->major)
            best = &compiled[k];
    return best;
}

static int failures = 0;

static void expect(const char *gpu, const char *what, int condition)
{
    if (!condition) {
        printf("  FAILED on %s: %s\n", gpu, what);
        ++failures;
    }
}


static void check_gpu(const tut_device_info *dev, const kernel_registers *k, int print)
{
    const char *gpu = dev->name;
    /* Cooperative: the largest co-resident grid. */
    const session_launch c = cooperative_launch_plan(dev, k->cooperative_regs, 0);
    const int c_best = tut_test_most_blocks_per_sm(dev, COOPERATIVE_THREADS, k->cooperative_regs, 0);
    expect(gpu, "cooperative kernel fits", c.blocks_per_sm >= 1);
    expect(gpu, "cooperative: the most blocks per SM that fit", c.blocks_per_sm == c_best);
    expect(gpu, "cooperative: every SM holds that many",
           c.blocks == (int64_t)c_best * dev->sm_count);
    expect(gpu, "cooperative: co-resident (threads per SM)",
           c.blocks * c.threads <= (int64_t)dev->sm_count * dev->max_threads_per_sm);

    /* Chained scan: one block per tile at any size; the launch bounds' 3 blocks per SM hold. */
    const int64_t sizes[] = {1, CHAINED_TILE, CHAINED_TILE + 1, 100000000, 4000000000ll};
    for (int s = 0; s < TUT_COUNT(sizes); ++s) {
        const session_launch p = chained_launch_plan(dev, k->chained_regs, k->chained_shared,
                                                     sizes[s]);
        expect(gpu, "chained: one block per tile",
               p.blocks == (sizes[s] + CHAINED_TILE - 1) / CHAINED_TILE);
    }
    const session_launch ch = chained_launch_plan(dev, k->chained_regs, k->chained_shared, 1);
    expect(gpu, "chained: at least CHAINED_MIN_BLOCKS blocks per SM",
           ch.blocks_per_sm >= CHAINED_MIN_BLOCKS);
    expect(gpu, "chained: blocks per SM as computed",
           ch.blocks_per_sm ==
               tut_test_most_blocks_per_sm(dev, CHAINED_THREADS, k->chained_regs, k->chained_shared));

    /* Single pass: the same, with its own tile and launch bounds. */
    const int64_t single_sizes[] = {1, SINGLE_PASS_TILE - 1, SINGLE_PASS_TILE + 1, 100000000,
                                    4000000000ll};
    for (int s = 0; s < TUT_COUNT(single_sizes); ++s) {
        const session_launch p = single_pass_launch_plan(dev, k->single_regs, k->single_shared,
                                                         single_sizes[s]);
        expect(gpu, "single pass: one block per tile",
               p.blocks == (single_sizes[s] + SINGLE_PASS_TILE - 1) / SINGLE_PASS_TILE);
    }
    const session_launch sp = single_pass_launch_plan(dev, k->single_regs, k->single_shared, 1);
    expect(gpu, "single pass: at least SINGLE_PASS_MIN_BLOCKS blocks per SM",
           sp.blocks_per_sm >= SINGLE_PASS_MIN_BLOCKS);
    expect(gpu, "single pass: blocks per SM as computed",
           sp.blocks_per_sm == tut_test_most_blocks_per_sm(dev, SINGLE_PASS_THREADS,
                                                            k->single_regs, k->single_shared));

    /* Grid-stride helpers: one full wave for large n, no idle blocks for small n. */
    const session_launch big = grid_stride_plan(dev, k->sort_regs, 0, 100000000);
    const int g_best = tut_test_most_blocks_per_sm(dev, GRID_STRIDE_THREADS, k->sort_regs, 0);
    expect(gpu, "grid-stride: fills every SM", big.blocks == (int64_t)g_best * dev->sm_count);
    expect(gpu, "grid-stride: 1000 items, 4 blocks",
           grid_stride_plan(dev, k->sort_regs, 0, 1000).blocks == 4);
    expect(gpu, "grid-stride: 1 item, 1 block",
           grid_stride_plan(dev, k->sort_regs, 0, 1).blocks == 1);

    /* The default benchmark (10^8 events) fits this GPU's memory. */
    expect(gpu, "bench: 10^8 events fit",
           sessionize_bench_bytes(100000000) + SESSIONIZE_BENCH_SPARE <= dev->total_bytes);

    if (!print)
        return;
    printf("  %-8s %-6s | %3d x %3d = %5lld blocks (%-9s) | %d/SM (%-9s) | %d/SM (%-9s) | %5lld "
           "blocks\n", gpu, k->arch, c.blocks_per_sm, dev->sm_count, (long long)c.blocks,
           c.limiter, ch.blocks_per_sm, ch.limiter, sp.blocks_per_sm, sp.limiter,
           (long long)big.blocks);
}

/* The benchmark's largest size shrinks to what fits, from its own size list. */
static void check_bench_sizes(void)
{
    int64_t sizes[40];
    const int count = sessionize_bench_sizes(100000000, sizes);
    expect("-", "bench sizes: 10^4, 3*10^4, ... 10^8: 9 of them",
           count == 9 && sizes[0] == 10000 && sizes[count - 1] == 100000000);
    const size_t gib = (size_t)1 << 30;
    expect("-", "bench: 16 GiB free keeps 10^8",
           sessionize_bench_max_that_fits(100000000, 16 * gib) == 100000000);
    expect("-", "bench: 3 GiB free gives 3*10^7",
           sessionize_bench_max_that_fits(100000000, 3 * gib) == 30000000);
    expect("-", "bench: 256 MiB free fits nothing",
           sessionize_bench_max_that_fits(100000000, gib / 4) == 0);
}

/* What cannot run is refused with a reason, not launched. */
static void check_refusals(void)
{
    tut_device_info no_coop = *tut_gpu_profile("T4");
    no_coop.cooperative_launch = 0;
    const session_launch c = cooperative_launch_plan(&no_coop, 32, 0);
    printf("  no cooperative launch: %s\n", c.why);
    expect("-", "no cooperative launch: no grid", c.blocks == 0 && strstr(c.why, "cooperative"));
    const session_launch t = chained_launch_plan(tut_gpu_profile("H100"), 44, 80,
                                                 (int64_t)CHAINED_TILE << 31);
    printf("  2^31 tiles: %s\n", t.why);
    expect("-", "2^31 tiles: refused", t.blocks == 0 && strstr(t.why, "2^31"));
}

int main(void)
{
    printf("Launch choices per GPU, with the registers of the build it runs (every build's are "
           "checked):\n");
    printf("  %-8s %-6s | %-36s | %-16s | %-16s | %s\n", "GPU", "build",
           "cooperative: per SM x SMs", "chained scan", "single pass", "sort grid, 10^8");
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        for (int k = 0; k < TUT_COUNT(compiled); ++k)
            check_gpu(dev, &compiled[k], 0);
        check_gpu(dev, native_build(dev), 1);
    }
    check_bench_sizes();
    check_refusals();
    printf("%d failure(s)\n", failures);
    return tut_finish(failures == 0);
}
