/* Chapter 02's launch choices on every GPU of common/gpu_table.h, without a GPU: each default and
 * each benchmark-sweep entry either fits (common/occupancy.h) or is skipped with its reason, and
 * the choices are sensible there (full SMs, the largest tile that keeps SMs busy, the whole
 * opt-in shared memory for the one-block variant), not merely legal. Prints a table per GPU. */
#include <stdio.h>
#include <string.h>

#include "gpu_table.h"
#include "heat_config.h"
#include "occupancy.h"
#include "compare.h"
#include "unit_test.h"

#ifndef HEAT1D_POINTS_PER_THREAD
#define HEAT1D_POINTS_PER_THREAD 4
#endif

/* Registers per thread and static shared memory of each kernel, from
 * `nvcc --resource-usage` (ptxas -v, the numbers cuobjdump --dump-resource-usage prints) of this
 * chapter's sources with CUDA 13.0, -O3, -DHEAT1D_POINTS_PER_THREAD=4: the larger of the sm_75
 * and sm_90 counts (sm_80, sm_100 and sm_120 use no more than that, but for the shared kernel,
 * 17 and 19, which changes no choice here):
 *   heat_cooperative_kernel      27 (sm_75) 24 (sm_90)
 *   heat_step_kernel             14         15
 *   heat_shared_block_kernel     13         14
 *   heat_block_registers_kernel  30         30, 32768 bytes static shared (edges[2][2][1024])
 *   heat_temporal_kernel         11         14 */
static const heat_kernel_cost cooperative_cost = {.regs_per_thread = 27};
static const heat_kernel_cost step_cost = {.regs_per_thread = 15};
static const heat_kernel_cost shared_cost = {.regs_per_thread = 19};
static const heat_kernel_cost registers_cost = {.regs_per_thread = 30, .static_shared = 32768};
static const heat_kernel_cost temporal_cost = {.regs_per_thread = 14};
/* __launch_bounds__(1024) of the register kernel: the compiler keeps it at 64 registers or less
 * whatever the strip length, so 64 is what any build of it may ask for. */
#define BLOCK_REGISTERS_MAX_THREADS 1024
static const heat_kernel_cost registers_cap = {.regs_per_thread = 64, .static_shared = 32768};

#define DOC_POINTS 1001
#define LARGE_POINTS ((size_t)1 << 24)


/* The threads an SM holds with these blocks. */
static int resident_threads(const heat_launch *l)
{
    return l->blocks_per_sm * l->threads;
}

/* 1: the cooperative grid fills every SM with as many blocks as it holds (threads, not registers,
 * decide at 256 threads), and the document's rod gets only the 4 blocks it needs. */
static void check_cooperative(const tut_device_info *dev)
{
    char why[320];
    heat_launch doc, large;
    EXPECT(heat_config_cooperative(dev, cooperative_cost, DOC_POINTS, 0, &doc, why, sizeof why));
    EXPECT(heat_config_cooperative(dev, cooperative_cost, LARGE_POINTS, 0, &large, why,
                                   sizeof why));
    EXPECT(doc.threads == HEAT_DEFAULT_THREADS && doc.blocks == 4);
    EXPECT(large.blocks == (size_t)large.blocks_per_sm * (size_t)dev->sm_count);
    EXPECT(resident_threads(&large) == dev->max_threads_per_sm);
    const tut_kernel_use use = {.threads = large.threads,
                                .regs_per_thread = cooperative_cost.regs_per_thread};
    EXPECT(tut_blocks_per_sm(dev, use) == large.blocks_per_sm);
    printf("  %-11s %-22s %6zu blocks x %4d threads (%d per SM; the 2^24 rod: %zu blocks)\n",
           "cooperative", "default", doc.blocks, doc.threads, doc.blocks_per_sm, large.blocks);
    /* Every block size a student may ask for fits this kernel. */
    for (int threads = 32; threads <= 1024; threads *= 2) {
        heat_launch asked;
        EXPECT(heat_config_cooperative(dev, cooperative_cost, LARGE_POINTS, threads, &asked, why,
                                       sizeof why));
        EXPECT(asked.threads == threads && asked.blocks >= (size_t)dev->sm_count);
    }
}

/* 2: one thread per point; 65536 blocks of 256 for the large rod. */
static void check_step(const tut_device_info *dev)
{
    char why[320];
    heat_launch l;
    EXPECT(heat_config_step(dev, step_cost, LARGE_POINTS, 0, &l, why, sizeof why));
    EXPECT(l.threads == HEAT_DEFAULT_THREADS && l.blocks == LARGE_POINTS / HEAT_DEFAULT_THREADS);
    EXPECT(resident_threads(&l) == dev->max_threads_per_sm);
    printf("  %-11s %-22s %6zu blocks x %4d threads for the 2^24 rod (%d per SM)\n",
           "launch", "default", l.blocks, l.threads, l.blocks_per_sm);
}

/* 3: the one-block variant uses the whole opt-in shared memory; its sweep fits everywhere. */
static void check_shared(const tut_device_info *dev)
{
    char why[320];
    heat_launch l;
    const size_t cap = heat_shared_block_capacity_on(dev, shared_cost);
    EXPECT(cap * 16 <= dev->shared_per_block_optin && (cap + 1) * 16 > dev->shared_per_block_optin);
    EXPECT(heat_config_shared_block(dev, shared_cost, DOC_POINTS, 0, &l, why, sizeof why));
    EXPECT(l.threads == 1024 && l.blocks == 1 && l.shared_bytes == 2 * DOC_POINTS * 8);
    printf("  %-11s %-22s %6d block  x %4d threads, %zu bytes (holds at most %zu points)\n",
           "shared", "default", 1, l.threads, l.shared_bytes, cap);
    /* The largest rod it holds runs; one point more is refused, with the reason. */
    EXPECT(heat_config_shared_block(dev, shared_cost, cap, 0, &l, why, sizeof why));
    EXPECT(!heat_config_shared_block(dev, shared_cost, cap + 1, 0, &l, why, sizeof why));
    EXPECT(strstr(why, "do not fit in one block") != NULL);
    /* The small rod of 2 points: one warp. */
    EXPECT(heat_config_shared_block(dev, shared_cost, 2, 0, &l, why, sizeof why));
    EXPECT(l.threads == 32);
    for (int i = 0; i < heat_shared_sweep_count; ++i) {
        const int threads = heat_shared_sweep_threads[i];
        const int fits = heat_config_shared_block(dev, shared_cost, DOC_POINTS, threads, &l, why,
                                                  sizeof why);
        EXPECT(fits && l.threads == threads); /* 19 registers x 1024 threads fit any GPU */
    }
}

/* 4: the register variant holds 4 x 1024 points in one block; the document's rod takes 8 warps. */
static void check_registers(const tut_device_info *dev)
{
    char why[320];
    heat_launch l;
    const size_t cap = heat_block_registers_capacity_on(dev, HEAT1D_POINTS_PER_THREAD,
                                                        BLOCK_REGISTERS_MAX_THREADS);
    EXPECT(cap == (size_t)HEAT1D_POINTS_PER_THREAD * 1024);
    EXPECT(heat_config_block_registers(dev, registers_cost, DOC_POINTS, HEAT1D_POINTS_PER_THREAD,
                                       BLOCK_REGISTERS_MAX_THREADS, &l, why, sizeof why));
    const int strips = (DOC_POINTS + HEAT1D_POINTS_PER_THREAD - 1) / HEAT1D_POINTS_PER_THREAD;
    EXPECT(l.threads == (strips + 31) / 32 * 32 && l.blocks == 1);
    printf("  %-11s points/thread=%-8d %6d block  x %4d threads (holds at most %zu points)\n",
           "registers", HEAT1D_POINTS_PER_THREAD, 1, l.threads, cap);
    /* Full, and at the register cap of its launch bounds: still fits every GPU. */
    EXPECT(heat_config_block_registers(dev, registers_cap, cap, HEAT1D_POINTS_PER_THREAD,
                                       BLOCK_REGISTERS_MAX_THREADS, &l, why, sizeof why));
    EXPECT(l.threads == 1024);
    EXPECT(!heat_config_block_registers(dev, registers_cost, cap + 1, HEAT1D_POINTS_PER_THREAD,
                                        BLOCK_REGISTERS_MAX_THREADS, &l, why, sizeof why));
}

/* 5: the default tile is the largest up to 2048 that keeps at least half of an SM's thread
 * slots resident (the next larger one does not); every sweep entry fits or is skipped with the
 * shared memory it needs and the GPU's limit; the default is one of the entries. */
static void check_temporal(const tut_device_info *dev)
{
    char why[320];
    int tile = 0, halo = 0;
    EXPECT(heat_default_temporal(dev, temporal_cost, 0, 0, &tile, &halo, why, sizeof why));
    heat_launch l;
    EXPECT(heat_config_temporal(dev, temporal_cost, LARGE_POINTS, 0, tile, halo, &l, why,
                                sizeof why));
    EXPECT(halo == HEAT_DEFAULT_HALO && tile >= 64 && tile <= HEAT_LARGEST_DEFAULT_TILE);
    EXPECT(2 * resident_threads(&l) >= dev->max_threads_per_sm);
    if (tile < HEAT_LARGEST_DEFAULT_TILE) {
        heat_launch bigger;
        const int fits = heat_config_temporal(dev, temporal_cost, LARGE_POINTS, 0, 2 * tile, halo,
                                              &bigger, why, sizeof why);
        EXPECT(!fits || 2 * resident_threads(&bigger) < dev->max_threads_per_sm);
    }
    printf("  %-11s tile=%-4d halo=%-2d (dflt) %6zu blocks x %4d threads, %zu bytes, %d per SM\n",
           "temporal", tile, halo, l.blocks, l.threads, l.shared_bytes, l.blocks_per_sm);

    int default_swept = 0, fitting = 0;
    for (int i = 0; i < heat_temporal_sweep_count; ++i) {
        const heat_tile_halo e = heat_temporal_sweep[i];
        const size_t bytes = heat_temporal_band_bytes(e.tile, e.halo);
        const int fits = heat_config_temporal(dev, temporal_cost, LARGE_POINTS, 0, e.tile, e.halo,
                                              &l, why, sizeof why);
        /* It fits exactly when its band fits a block's shared memory (threads and registers are
         * far from any limit). */
        EXPECT(fits == (bytes <= dev->shared_per_block_optin));
        if (fits) {
            EXPECT(l.blocks_per_sm >= 1 && l.shared_bytes == bytes);
            fitting++;
            printf("  %-11s tile=%-4d halo=%-2d        %6zu blocks x %4d threads, %zu bytes, "
                   "%d per SM\n", "  sweep", e.tile, e.halo, l.blocks, l.threads, bytes,
                   l.blocks_per_sm);
        } else {
            char want[64];
            snprintf(want, sizeof want, "needs %zu bytes", bytes);
            EXPECT(strstr(why, want) != NULL);
            printf("  %-11s tile=%-4d halo=%-2d        skipped: %s\n", "  sweep", e.tile, e.halo,
                   why);
        }
        default_swept |= e.tile == tile && e.halo == halo;
    }
    EXPECT(default_swept);
    EXPECT(fitting >= heat_temporal_sweep_count - 1);
}

/* The known answers: what the docs' "Which GPU?" paragraph says. */
static void check_known_choices(void)
{
    char why[320];
    const char *names[] = {"T4", "V100", "A100", "A10", "RTX3090", "L4", "RTX4090", "H100",
                           "B200", "RTX5090"};
    const int tiles[] = {1024, 1024, 2048, 1024, 1024, 1024, 1024, 2048, 2048, 1024};
    for (int i = 0; i < (int)(sizeof tiles / sizeof tiles[0]); ++i) {
        const tut_device_info *dev = tut_gpu_profile(names[i]);
        if (!dev)
            continue; /* V100 is in the table of CUDA 12 builds only */
        int tile = 0, halo = 0;
        EXPECT(heat_default_temporal(dev, temporal_cost, 0, 0, &tile, &halo, why, sizeof why));
        if (tile != tiles[i])
            printf("  %s: default tile %d, expected %d\n", names[i], tile, tiles[i]);
        EXPECT(tile == tiles[i]);
    }
    /* The case: tile 4096 with halo 32 asks 66,560 bytes; a T4 block has 65,536. */
    heat_launch l;
    EXPECT(!heat_config_temporal(tut_gpu_profile("T4"), temporal_cost, LARGE_POINTS, 0, 4096, 32,
                                 &l, why, sizeof why));
    printf("T4, tile 4096, halo 32: %s\n", why);
    EXPECT(strstr(why, "66560") && strstr(why, "65536") && strstr(why, "T4"));
    EXPECT(heat_shared_block_capacity_on(tut_gpu_profile("T4"), shared_cost) == 4096);
    EXPECT(heat_shared_block_capacity_on(tut_gpu_profile("H100"), shared_cost) == 14528);
}

/* The largest block of `threads` (whole warps, up to 1024) of which one fits an SM, by the
 * occupancy calculator of common/occupancy.h. */
static int largest_resident_block(const tut_device_info *dev, heat_kernel_cost cost, size_t bytes)
{
    for (int threads = 1024; threads >= 32; threads -= 32) {
        const tut_kernel_use use = {.threads = threads,
                                    .regs_per_thread = cost.regs_per_thread,
                                    .static_shared = cost.static_shared,
                                    .dynamic_shared = bytes};
        if (tut_blocks_per_sm(dev, use) >= 1)
            return threads;
    }
    return 0;
}

/* A GPU smaller than any in the table (16 KiB of shared memory, 8192 registers per SM): the
 * defaults shrink to what fits, and what cannot fit says why instead of launching. */
static void check_small_gpu(void)
{
    char why[320];
    tut_device_info tiny = *tut_gpu_profile("T4");
    snprintf(tiny.name, sizeof tiny.name, "tiny");
    tiny.shared_per_sm = 16 * 1024;
    tiny.shared_per_block_optin = 16 * 1024;
    tiny.regs_per_sm = tiny.regs_per_block = 8192;
    printf("a tiny GPU (16 KiB of shared memory, 8192 registers per SM):\n");

    /* Temporal: tiles 2048 and 1024 do not fit; the default keeps the rule among those that do. */
    int tile = 0, halo = 0;
    EXPECT(heat_default_temporal(&tiny, temporal_cost, 0, 0, &tile, &halo, why, sizeof why));
    heat_launch l;
    EXPECT(heat_config_temporal(&tiny, temporal_cost, LARGE_POINTS, 0, tile, halo, &l, why,
                                sizeof why));
    EXPECT(tile <= 512 && 2 * resident_threads(&l) >= tiny.max_threads_per_sm);
    if (tile < 512) {
        heat_launch bigger;
        const int fits = heat_config_temporal(&tiny, temporal_cost, LARGE_POINTS, 0, 2 * tile,
                                              halo, &bigger, why, sizeof why);
        EXPECT(!fits || 2 * resident_threads(&bigger) < tiny.max_threads_per_sm);
    }
    printf("  temporal: tile %d, halo %d, %d blocks of %d threads per SM\n", tile, halo,
           l.blocks_per_sm, l.threads);

    /* Launch per step: the default 256 threads fit; 1024 threads of 15 registers do not. */
    EXPECT(heat_config_step(&tiny, step_cost, LARGE_POINTS, 0, &l, why, sizeof why));
    EXPECT(l.threads == 256 && l.blocks_per_sm >= 1);
    EXPECT(!heat_config_step(&tiny, step_cost, LARGE_POINTS, 1024, &l, why, sizeof why));
    EXPECT(strstr(why, "registers") != NULL);
    printf("  launch, 1024 threads: %s\n", why);

    /* Shared: a default block of 1024 threads does not fit the registers; it shrinks to the
     * largest that does, and the rod (16,016 bytes) still fits its 16 KiB. */
    EXPECT(heat_config_shared_block(&tiny, shared_cost, DOC_POINTS, 0, &l, why, sizeof why));
    const int largest = largest_resident_block(&tiny, shared_cost, 2 * DOC_POINTS * 8);
    EXPECT(largest >= 32 && largest < 1024 && l.threads == largest);
    printf("  shared: %d threads (1024 do not fit)\n", l.threads);

    tiny.cooperative_launch = 0;
    EXPECT(!heat_config_cooperative(&tiny, cooperative_cost, LARGE_POINTS, 0, &l, why,
                                    sizeof why));
    EXPECT(strstr(why, "cooperative") != NULL);
}

/* The roofline's counts of the temporal kernel, against the kernel's loops walked one point at a
 * time (5_temporal_blocking.cu): launches of `halo` steps, the last shorter; step s of a launch
 * updates band[s .. width - s). */
static void check_traffic(void)
{
    const struct {
        size_t n;
        int tile, halo;
        long long steps;
    } cases[] = {{10, 4, 2, 5}, {1000, 64, 7, 101}, {2049, 2048, 32, 64}, {7, 8, 3, 0}};
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); ++c) {
        const heat_launch l = {.threads = 32, .blocks = (cases[c].n + cases[c].tile - 1) /
                                                       (size_t)cases[c].tile,
                               .tile = cases[c].tile, .halo = cases[c].halo};
        const int width = l.tile + 2 * l.halo;
        double updates = 0, launches = 0;
        for (long long done = 0; done < cases[c].steps; done += l.halo) {
            const long long left = cases[c].steps - done;
            const int steps = (int)(left < l.halo ? left : l.halo);
            for (size_t b = 0; b < l.blocks; ++b)
                for (int s = 1; s <= steps; ++s)
                    for (int j = s; j < width - s; ++j)
                        updates += 1;
            launches += 1;
        }
        const heat_traffic t = heat_temporal_traffic(cases[c].n, &l, cases[c].steps);
        EXPECT(t.updates == updates);
        EXPECT(t.useful == (double)cases[c].n * (double)cases[c].steps);
        EXPECT(t.shared_bytes == HEAT_SHARED_BYTES_PER_UPDATE * updates +
                                     launches * (double)l.blocks * 8.0 * (width + l.tile));
        EXPECT(t.dram_bytes == launches * ((double)l.blocks * 8.0 * width + 8.0 * cases[c].n));
    }
}

int main(void)
{
    check_traffic();
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        printf("%s (cc %d.%d, %d SMs, %d threads and %zu bytes of shared memory per SM, %zu per "
               "block):\n", dev->name, dev->major, dev->minor, dev->sm_count,
               dev->max_threads_per_sm, dev->shared_per_sm, dev->shared_per_block_optin);
        const int before = tut_test_failures();
        check_cooperative(dev);
        check_step(dev);
        check_shared(dev);
        check_registers(dev);
        check_temporal(dev);
        if (tut_test_failures() != before)
            printf("  ^ %d failed checks on the %s\n", tut_test_failures() - before, dev->name);
    }
    check_known_choices();
    check_small_gpu();
    return tut_finish(tut_test_failures() == 0);
}
