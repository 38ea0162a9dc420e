#include "heat_config.h"

#include <limits.h>
#include <stdio.h>

#include "occupancy.h"

const heat_tile_halo heat_temporal_sweep[] = {
    {.tile = 2048, .halo = 4},  {.tile = 2048, .halo = 8},  {.tile = 2048, .halo = 16},
    {.tile = 2048, .halo = 32}, {.tile = 2048, .halo = 64}, {.tile = 1024, .halo = 32},
    {.tile = 4096, .halo = 32},
};
const int heat_temporal_sweep_count = (int)(sizeof heat_temporal_sweep /
                                            sizeof heat_temporal_sweep[0]);

const int heat_shared_sweep_threads[] = {128, 256, 512, 1024};
const int heat_shared_sweep_count = (int)(sizeof heat_shared_sweep_threads /
                                          sizeof heat_shared_sweep_threads[0]);

static const char *gpu_of(const tut_device_info *dev)
{
    return dev->emulated[0] ? dev->emulated : dev->name;
}

/* One block of `threads` threads with `dynamic` bytes of dynamic shared memory: 1 and the blocks
 * an SM holds in *launch if it fits this GPU, else 0 and why. */
static int place(const tut_device_info *dev, heat_kernel_cost cost, int threads, size_t dynamic,
                 heat_launch *launch, char *why, size_t len)
{
    const tut_kernel_use use = {.threads = threads,
                                .regs_per_thread = cost.regs_per_thread,
                                .static_shared = cost.static_shared,
                                .dynamic_shared = dynamic};
    if (!tut_kernel_fits(dev, use, why, len))
        return 0;
    const int per_sm = tut_blocks_per_sm(dev, use);
    if (per_sm < 1) {
        snprintf(why, len, "a block of %d threads and %zu bytes of shared memory does not fit "
                           "on one %.60s SM", threads, cost.static_shared + dynamic, gpu_of(dev));
        return 0;
    }
    launch->threads = threads;
    launch->shared_bytes = dynamic;
    launch->blocks_per_sm = per_sm;
    return 1;
}

/* Threads asked for (they must fit), or the largest whole number of warps up to `preferred` that
 * fits (a default that does not fit is replaced by the best that does). */
static int place_threads(const tut_device_info *dev, heat_kernel_cost cost, int asked,
                         int preferred, size_t dynamic, heat_launch *launch, char *why,
                         size_t len)
{
    if (asked)
        return place(dev, cost, asked, dynamic, launch, why, len);
    const int warp = dev->warp_size;
    int threads = preferred < dev->max_threads_per_block ? preferred : dev->max_threads_per_block;
    threads = (threads + warp - 1) / warp * warp;
    if (threads > dev->max_threads_per_block)
        threads -= warp;
    for (; threads >= warp; threads -= warp)
        if (place(dev, cost, threads, dynamic, launch, why, len))
            return 1;
    return 0; /* why[] holds the reason for one warp */
}

static size_t blocks_for(size_t n, size_t per_block)
{
    return (n + per_block - 1) / per_block;
}

int heat_config_cooperative(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                            int threads, heat_launch *launch, char *why, size_t len)
{
    *launch = (heat_launch){0};
    if (!dev->cooperative_launch) {
        snprintf(why, len, "a %.60s has no cooperative launch (grid-wide sync)", gpu_of(dev));
        return 0;
    }
    if (!place_threads(dev, cost, threads, HEAT_DEFAULT_THREADS, 0, launch, why, len))
        return 0;
    /* Every block must be resident at once: at most blocks_per_sm on each SM. */
    const size_t resident = (size_t)launch->blocks_per_sm * (size_t)dev->sm_count;
    const size_t needed = blocks_for(n, (size_t)launch->threads);
    launch->blocks = needed < resident ? needed : resident;
    return 1;
}

int heat_config_step(const tut_device_info *dev, heat_kernel_cost cost, size_t n, int threads,
                     heat_launch *launch, char *why, size_t len)
{
    *launch = (heat_launch){0};
    if (!place_threads(dev, cost, threads, HEAT_DEFAULT_THREADS, 0, launch, why, len))
        return 0;
    const size_t needed = blocks_for(n, (size_t)launch->threads);
    const size_t most = (size_t)1 << 20; /* beyond this the grid-stride loop takes over */
    launch->blocks = needed < most ? needed : most;
    return 1;
}

size_t heat_shared_block_capacity_on(const tut_device_info *dev, heat_kernel_cost cost)
{
    if (cost.static_shared >= dev->shared_per_block_optin)
        return 0;
    return (dev->shared_per_block_optin - cost.static_shared) / (2 * sizeof(double));
}

int heat_config_shared_block(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                             int threads, heat_launch *launch, char *why, size_t len)
{
    *launch = (heat_launch){0};
    const size_t capacity = heat_shared_block_capacity_on(dev, cost);
    if (n > capacity) {
        snprintf(why, len, "%zu points do not fit in one block (a %.60s block holds at most %zu "
                           "points: %zu bytes of shared memory)",
                 n, gpu_of(dev), capacity, dev->shared_per_block_optin);
        return 0;
    }
    /* One point per thread, whole warps, at most a block's worth. */
    const size_t per_point = n < (size_t)INT_MAX ? n : (size_t)INT_MAX;
    if (!place_threads(dev, cost, threads, (int)per_point, 2 * n * sizeof(double), launch, why,
                       len))
        return 0;
    launch->blocks = 1;
    return 1;
}

size_t heat_block_registers_capacity_on(const tut_device_info *dev, int points_per_thread,
                                        int max_threads)
{
    const int threads = max_threads < dev->max_threads_per_block ? max_threads
                                                                 : dev->max_threads_per_block;
    return (size_t)points_per_thread * (size_t)(threads / dev->warp_size * dev->warp_size);
}

int heat_config_block_registers(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                                int points_per_thread, int max_threads, heat_launch *launch,
                                char *why, size_t len)
{
    *launch = (heat_launch){0};
    const size_t capacity = heat_block_registers_capacity_on(dev, points_per_thread, max_threads);
    if (n > capacity) {
        snprintf(why, len, "%zu points do not fit in one block (it holds at most %zu: %d points "
                           "per thread)", n, capacity, points_per_thread);
        return 0;
    }
    /* A strip of points per thread, whole warps (the extra threads hold zeros). */
    const size_t strips = blocks_for(n, (size_t)points_per_thread);
    const int threads = (int)blocks_for(strips, (size_t)dev->warp_size) * dev->warp_size;
    if (!place(dev, cost, threads, 0, launch, why, len))
        return 0;
    launch->blocks = 1;
    return 1;
}

size_t heat_temporal_band_bytes(int tile, int halo)
{
    return 2 * ((size_t)tile + 2 * (size_t)halo) * sizeof(double);
}

int heat_config_temporal(const tut_device_info *dev, heat_kernel_cost cost, size_t n, int threads,
                         int tile, int halo, heat_launch *launch, char *why, size_t len)
{
    *launch = (heat_launch){0};
    if (tile < 1 || halo < 1) {
        snprintf(why, len, "tile %d and halo %d must both be at least 1", tile, halo);
        return 0;
    }
    const size_t blocks = blocks_for(n, (size_t)tile);
    if (blocks > (size_t)INT_MAX) {
        snprintf(why, len, "tile %d cuts %zu points into more than 2^31 - 1 blocks", tile, n);
        return 0;
    }
    const size_t band = heat_temporal_band_bytes(tile, halo);
    if (!place_threads(dev, cost, threads, HEAT_DEFAULT_THREADS, band, launch, why, len))
        return 0;
    launch->blocks = blocks;
    launch->tile = tile;
    launch->halo = halo;
    return 1;
}

int heat_default_temporal(const tut_device_info *dev, heat_kernel_cost cost, int threads,
                          int halo, int *tile_out, int *halo_out, char *why, size_t len)
{
    /* The benchmark's tile sweep (docs/02_heat1d_appendix.md, "Tile and halo"; large_rod.csv)
     * shows why: tile 4096, which leaves 3 blocks of 256 threads on an H100 SM (37% of its
     * thread slots), runs clearly slower than tile 2048 (6 blocks, 75%), and tile 1024 (8
     * blocks, 100%) about as fast as 2048. A smaller tile costs a little more halo work
     * (2 halo / tile); too few resident warps cost much more. */
    if (!halo)
        halo = HEAT_DEFAULT_HALO;
    int largest_fitting = 0;
    for (int tile = HEAT_LARGEST_DEFAULT_TILE; tile >= 64; tile /= 2) {
        heat_launch l;
        if (!heat_config_temporal(dev, cost, (size_t)tile, threads, tile, halo, &l, why, len))
            continue;
        if (!largest_fitting)
            largest_fitting = tile;
        if (2 * l.blocks_per_sm * l.threads >= dev->max_threads_per_sm) {
            *tile_out = tile;
            *halo_out = halo;
            return 1;
        }
    }
    if (!largest_fitting)
        return 0; /* why[] says why the 64-point tile does not fit */
    *tile_out = largest_fitting;
    *halo_out = halo;
    return 1;
}

heat_traffic heat_temporal_traffic(size_t n, const heat_launch *launch, long long steps)
{
    heat_traffic t = {.updates = 0, .useful = (double)n * (double)steps};
    const double width = launch->tile + 2.0 * launch->halo, blocks = (double)launch->blocks;
    t.shared_bytes = 0;
    t.dram_bytes = 0;
    for (long long done = 0; done < steps; done += launch->halo) {
        const double s = (double)(steps - done < launch->halo ? steps - done : launch->halo);
        /* sum over step 1..s of (width - 2 step) */
        const double per_block = s * width - s * (s + 1.0);
        t.updates += blocks * per_block;
        /* the band stored into shared memory, then the tile loaded back out of it */
        t.shared_bytes += blocks * (per_block * HEAT_SHARED_BYTES_PER_UPDATE +
                                    8.0 * (width + launch->tile));
        t.dram_bytes += blocks * 8.0 * width + 8.0 * (double)n;
    }
    return t;
}
