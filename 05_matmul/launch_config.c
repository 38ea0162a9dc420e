/* Step 10's launch choices from the GPU's limits: see launch_config.h. */
#include "launch_config.h"

#include <stdio.h>

static const struct {
    const char *name;
    int rows, cols;
} tiles[PIPELINED_TILE_COUNT] = {
    [PIPELINED_128X256] = {"128x256", 128, 256},
    [PIPELINED_128X128] = {"128x128", 128, 128},
    [PIPELINED_64X128] = {"64x128", 64, 128},
    [PIPELINED_64X128_S2] = {"64x128_s2", 64, 128},
};

const char *pipelined_tile_name(pipelined_tile tile)
{
    return tiles[tile].name;
}

int pipelined_tile_rows(pipelined_tile tile)
{
    return tiles[tile].rows;
}

int pipelined_tile_cols(pipelined_tile tile)
{
    return tiles[tile].cols;
}

int pipelined_async_copy(const tut_device_info *dev)
{
    return tut_device_has_cc(dev, 8, 0);
}

int matmul_tensor_cores(const tut_device_info *dev)
{
    return tut_device_has_cc(dev, 8, 0);
}

int matmul_hopper(const tut_device_info *dev)
{
    /* The emulated limits and the real GPU: sm_90a code runs on a real 9.0 alone (a B200
     * emulating an H100 has no code for it). */
    return dev->major == 9 && dev->minor == 0 && dev->real_major == 9 && dev->real_minor == 0;
}

static long long grid_blocks(pipelined_tile tile, int M, int N)
{
    const long long rows = (M + (long long)tiles[tile].rows - 1) / tiles[tile].rows;
    const long long cols = (N + (long long)tiles[tile].cols - 1) / tiles[tile].cols;
    return rows * cols;
}

static pipelined_choice make_choice(const tut_device_info *dev, pipelined_tile tile, int M, int N,
                                    int per_sm)
{
    pipelined_choice c = {.tile = tile,
                          .block_rows = tiles[tile].rows,
                          .block_cols = tiles[tile].cols,
                          .blocks = grid_blocks(tile, M, N),
                          .blocks_per_sm = per_sm,
                          .async_copy = pipelined_async_copy(dev)};
    return c;
}

double pipelined_wave_fill(long long blocks, long long slots)
{
    const long long waves = (blocks + slots - 1) / slots;
    return waves > 0 ? (double)blocks / (double)(waves * slots) : 0.0;
}

pipelined_choice pipelined_choose(const tut_device_info *dev, int M, int N,
                                  const tut_kernel_use use[PIPELINED_TILE_COUNT])
{
    int per_sm[PIPELINED_TILE_COUNT];
    for (int t = 0; t < PIPELINED_TILE_COUNT; ++t)
        per_sm[t] = tut_blocks_per_sm(dev, use[t]);
    /* The better small tile: more blocks per SM hide more latency; 3 stages on a tie. */
    const pipelined_tile small = per_sm[PIPELINED_64X128_S2] > per_sm[PIPELINED_64X128]
                                     ? PIPELINED_64X128_S2
                                     : PIPELINED_64X128;

    /* The largest tile whose waves keep the slots busy. */
    const pipelined_tile by_size[3] = {PIPELINED_128X256, PIPELINED_128X128, small};
    for (int i = 0; i < 3; ++i) {
        const pipelined_tile t = by_size[i];
        if (per_sm[t] > 0 && pipelined_wave_fill(grid_blocks(t, M, N),
                                                 (long long)per_sm[t] * dev->sm_count) >=
                                 PIPELINED_WAVE_FILL)
            return make_choice(dev, t, M, N, per_sm[t]);
    }
    /* None does: the small tile, whose last wave ends soonest (or, where it does not fit, the
     * next that does; blocks_per_sm = 0 if none fits). */
    for (int i = 2; i >= 0; --i)
        if (per_sm[by_size[i]] > 0)
            return make_choice(dev, by_size[i], M, N, per_sm[by_size[i]]);
    return make_choice(dev, small, M, N, 0);
}

pipelined_choice pipelined_take(const tut_device_info *dev, pipelined_tile tile, int M, int N,
                                const tut_kernel_use use[PIPELINED_TILE_COUNT])
{
    return make_choice(dev, tile, M, N, tut_blocks_per_sm(dev, use[tile]));
}

const char *pipelined_choice_text(const pipelined_choice *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s: %d blocks/SM, %s", tiles[c->tile].name, c->blocks_per_sm,
             c->async_copy ? "cp.async" : "plain loads");
    return buf;
}

/* Step 13's time for K cut into s parts, in strips (wgmma_k_splits). */
static long long split_time(long long units, long long slots, long long strips, long long s)
{
    return (s * units + slots - 1) / slots * ((strips + s - 1) / s + WGMMA_SPLIT_COST_STRIPS);
}

int wgmma_k_splits(long long units, long long slots, long long strips)
{
    if (units < 1 || slots < 1 || strips < 1)
        return 1;
    long long best = 1;
    for (long long s = 2; s <= slots && strips >= s * WGMMA_SPLIT_MIN_STRIPS; ++s)
        if (split_time(units, slots, strips, s) < split_time(units, slots, strips, best))
            best = s;
    /* a tenth off at least, or whole units */
    return 10 * split_time(units, slots, strips, best) <= 9 * split_time(units, slots, strips, 1)
               ? (int)best
               : 1;
}

unsigned wgmma_next_launch(unsigned *last, int *clear)
{
    *clear = *last >= WGMMA_LAST_LAUNCH;
    *last = *clear ? 1 : *last + 1;
    return *last;
}
