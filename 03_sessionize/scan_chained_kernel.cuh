/* The machinery of variant 3 (3_scan_chained.cu): the tiles, the block combine and the chained
 * look-back across tiles. 3_scan_chained.cu includes it and then defines warp_max_scan(), the
 * part the exercise asks you to write (exercise/3_scan_chained.cu includes this same file). */
#ifndef SESSIONIZE_SCAN_CHAINED_KERNEL_CUH
#define SESSIONIZE_SCAN_CHAINED_KERNEL_CUH

#include "session_boundary.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

/* CHAINED_THREADS, CHAINED_ITEMS, CHAINED_TILE, CHAINED_MIN_BLOCKS: sessionize_config.h */
#define CHAINED_WARPS (CHAINED_THREADS / 32)
#define FULL_WARP 0xffffffffu

__device__ static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Lane k of a warp gets the max of lanes 0..k: defined by the file that includes this one
 * (3_scan_chained.cu, or the exercise skeleton). */
__device__ static int64_t warp_max_scan(int64_t value);

/* A tile's status word: 2 flag bits over a 62-bit value, written and read as one 64-bit word,
 * so a reader never sees a flag without its value. 0 = nothing published yet. */
#define STATUS_AGGREGATE (1ull << 62) /* value: the latest start inside the tile (0: none) */
#define STATUS_PREFIX (2ull << 62)    /* value: the latest start at or before the tile's end */
#define STATUS_VALUE (STATUS_AGGREGATE - 1)

__device__ static void publish(unsigned long long *status, int64_t tile, unsigned long long word)
{
    *(volatile unsigned long long *)&status[tile] = word;
}

/* Warp 0 of tile `tile` (> 0): the latest session start before the tile. The 32 lanes read 32
 * predecessors at once, nearest first. Everything nearer than the nearest final word must be
 * published (a nearer tile may hold a later start), then that word's value is the answer. */
__device__ static int64_t look_back(const unsigned long long *status, int64_t tile)
{
    const int lane = threadIdx.x & 31;
    int64_t nearest = tile - 1;
    for (;;) {
        const int64_t pred = nearest - lane;
        /* Tile 0 always publishes a prefix, so lanes before it are never the ones chosen. */
        const unsigned long long word =
            pred >= 0 ? *(const volatile unsigned long long *)&status[pred] : STATUS_PREFIX;
        const int is_final = (word & STATUS_PREFIX) ||
                             ((word & STATUS_AGGREGATE) && (word & STATUS_VALUE) != 0);
        const unsigned final_lanes = __ballot_sync(FULL_WARP, is_final);
        const unsigned waiting_lanes = __ballot_sync(FULL_WARP, word == 0);
        if (final_lanes) {
            const int first = __ffs(final_lanes) - 1;
            const unsigned nearer = (1u << first) - 1;
            if (waiting_lanes & nearer)
                continue; /* spin: a nearer tile has not published yet */
            return (int64_t)(__shfl_sync(FULL_WARP, word, first) & STATUS_VALUE);
        }
        if (waiting_lanes == 0)
            nearest -= 32; /* 32 tiles without a start: look further back */
    }
}

/* At least 3 blocks per SM: while one block looks back, the others keep loads in flight. */
__global__ void __launch_bounds__(CHAINED_THREADS, CHAINED_MIN_BLOCKS)
chained_sessionize_kernel(const int64_t *__restrict__ user, const int64_t *__restrict__ ts,
                          int64_t n, int64_t timeout, int64_t *__restrict__ label,
                          unsigned long long *tile_counter, unsigned long long *status)
{
    __shared__ int64_t warp_latest[CHAINED_WARPS];
    __shared__ int64_t tile_id, tile_carry;
    if (threadIdx.x == 0)
        tile_id = (int64_t)atomicAdd(tile_counter, 1ull);
    __syncthreads();
    const int64_t tile = tile_id;
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int64_t base = tile * CHAINED_TILE + (int64_t)warp * 32 * CHAINED_ITEMS + lane;

    /* 1. Rows of 32 consecutive events. All loads first, unconditionally scheduled, so that
     *    CHAINED_ITEMS rows are in flight at once (latency hiding needs bytes in flight). */
    int64_t u[CHAINED_ITEMS], t[CHAINED_ITEMS];
#pragma unroll
    for (int k = 0; k < CHAINED_ITEMS; ++k) {
        const int64_t i = base + 32 * k;
        u[k] = i < n ? user[i] : 0;
        t[k] = i < n ? ts[i] : 0;
    }
    /* Lane 0 of the first row is the only one whose predecessor is in no register of this warp. */
    int64_t edge_u = 0, edge_t = 0;
    if (lane == 0 && base > 0 && base < n) {
        edge_u = user[base - 1];
        edge_t = ts[base - 1];
    }

    /* The predecessor of each event comes from the lane before (shuffle), or for lane 0 from
     * lane 31 of the row before. Then a shuffle scan per row, the running max carried on.
     * 0 means "no start yet". */
    int64_t latest[CHAINED_ITEMS];
    int64_t running = 0;
#pragma unroll
    for (int k = 0; k < CHAINED_ITEMS; ++k) {
        const int64_t i = base + 32 * k;
        int64_t prev_u = __shfl_up_sync(FULL_WARP, u[k], 1);
        int64_t prev_t = __shfl_up_sync(FULL_WARP, t[k], 1);
        if (k > 0) { /* k is a constant after unrolling: the whole warp takes the branch */
            const int64_t row_end_u = __shfl_sync(FULL_WARP, u[k - 1], 31);
            const int64_t row_end_t = __shfl_sync(FULL_WARP, t[k - 1], 31);
            if (lane == 0) {
                prev_u = row_end_u;
                prev_t = row_end_t;
            }
        } else if (lane == 0) {
            prev_u = edge_u;
            prev_t = edge_t;
        }
        const int starts = i == 0 || session_starts_after(prev_u, prev_t, u[k], t[k], timeout);
        const int64_t start = (i < n && starts) ? i : 0;
        latest[k] = max64(warp_max_scan(start), running);
        running = __shfl_sync(FULL_WARP, latest[k], 31);
    }

    /* 2. The block: each warp's carry-in is the max over the warps before it. */
    if (lane == 31)
        warp_latest[warp] = running;
    __syncthreads();
    int64_t before_warp = 0, tile_latest = 0;
    for (int w = 0; w < CHAINED_WARPS; ++w) {
        if (w < warp)
            before_warp = max64(before_warp, warp_latest[w]);
        tile_latest = max64(tile_latest, warp_latest[w]);
    }

    /* 3. Across tiles. Publish first (successors may stop here), then look back. */
    if (warp == 0) {
        if (lane == 0)
            publish(status, tile,
                    (tile == 0 ? STATUS_PREFIX : STATUS_AGGREGATE) | (unsigned long long)tile_latest);
        const int64_t carry = tile > 0 ? look_back(status, tile) : 0;
        if (lane == 0) {
            tile_carry = carry;
            if (tile > 0 && tile_latest == 0)
                publish(status, tile, STATUS_PREFIX | (unsigned long long)carry);
        }
    }
    __syncthreads();
    const int64_t carry = max64(tile_carry, before_warp);

#pragma unroll
    for (int k = 0; k < CHAINED_ITEMS; ++k) {
        const int64_t i = base + 32 * k;
        if (i < n)
            label[i] = max64(latest[k], carry);
    }
}

static int64_t tile_count(int64_t n) { return (n + CHAINED_TILE - 1) / CHAINED_TILE; }

static size_t chained_temp_bytes(int64_t n)
{
    /* The tile counter, then one status word per tile. */
    return tut_bytes((size_t)tile_count(n) + 1, sizeof(unsigned long long), "tile status");
}

/* One block per tile on every GPU (sessionize_config.c); the plan says how many share an SM. */
session_launch chained_plan(int64_t n)
{
    static tut_kernel_use use;
    static int ready = 0;
    if (!ready) {
        use = tut_kernel_use_of((const void *)chained_sessionize_kernel, CHAINED_THREADS, 0);
        ready = 1;
    }
    return chained_launch_plan(tut_current_device(), use.regs_per_thread, use.static_shared, n);
}

static void chained_run(const session_job *job)
{
    const session_launch plan = chained_plan(job->n);
    if (plan.blocks < 1) {
        fprintf(stderr, "chained scan: %s\n", plan.why);
        exit(2);
    }
    unsigned long long *counter = (unsigned long long *)job->temp;
    CUDA_CHECK(cudaMemsetAsync(counter, 0, chained_temp_bytes(job->n), 0));
    chained_sessionize_kernel<<<(unsigned)plan.blocks, CHAINED_THREADS>>>(
        job->user, job->ts, job->n, job->timeout, job->label, counter, counter + 1);
    LAUNCH_CHECK();
}

const session_variant chained_scan_variant = {"chained", chained_temp_bytes, chained_run};

#endif
