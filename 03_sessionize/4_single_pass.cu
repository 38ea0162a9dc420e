/* Variant 4: flags, scan and labels in one pass, tuned to move bytes at the copy's rate.
 *
 * The same plan as the chained scan (3_scan_chained.cu): one block per tile, tiles numbered in the
 * order blocks start (an atomicAdd ticket), a status word per tile, a decoupled look-back. What
 * changes is every cost that is not a byte of DRAM traffic (appendix, one pass at the copy's rate):
 *   - 16-byte loads and stores: a lane holds a PAIR of consecutive events, so a warp moves 512
 *     contiguous bytes per instruction, like a float4 copy, with half the instructions;
 *   - the scan needs no shuffle ladder. The values are indices, and indices grow, so "the max of
 *     the lanes before me" is "the value of the nearest lane before me that holds a start": one
 *     __ballot_sync of "holds a start", a __clz to find that lane, one __shfl_sync to read it;
 *   - positions inside the tile are 32-bit (position + 1, 0 = no start yet): half the registers
 *     and half the shuffles of 64-bit indices; the tile's base is added once, at the store;
 *   - only the events before the tile's first start need the look-back's answer. A warp whose
 *     first event already has a start before it in the tile writes its labels without waiting;
 *     only the warps before that (usually warp 0 alone) look back. No second __syncthreads();
 *   - the tile's latest start is the last warp's whenever that warp holds one, so the last warp
 *     publishes it as soon as its own rows are scanned, before the barrier: the next tile's
 *     look-back then waits for one warp's loads, not the slowest of eight (measured on an H200:
 *     91% of the copy's rate before, 97% after; the appendix, "Where the last points went").
 * Bytes: 16 read + 8 written per event, each once; a warp's first event also reads its
 * predecessor (16 bytes per 256 events, from L2).
 *
 * No __threadfence() is needed: a status word holds its flag and its value in one 64-bit store,
 * so a reader never sees one without the other, and no tile reads another tile's labels.
 * The arrays must be 16-byte aligned (cudaMalloc's are); otherwise the chained scan runs. */
#include <stdint.h>

#include "session_boundary.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

#define SP_WARPS (SINGLE_PASS_THREADS / 32)
#define SP_ROW 64 /* events per row: 32 lanes x 2 */
#define SP_WARP_EVENTS (SP_ROW * SINGLE_PASS_ROWS)
#define SP_FULL_WARP 0xffffffffu

/* A tile's status word, as in the chained scan: 2 flag bits over a 62-bit event index. */
#define SP_AGGREGATE (1ull << 62) /* value: the latest start inside the tile (0: none) */
#define SP_PREFIX (2ull << 62)    /* value: the latest start at or before the tile's end */
#define SP_VALUE (SP_AGGREGATE - 1)

__device__ static void sp_publish(unsigned long long *status, int64_t tile,
                                  unsigned long long word)
{
    *(volatile unsigned long long *)&status[tile] = word;
}

/* One whole warp: the latest session start before tile `tile` (> 0). The 32 lanes read 32
 * predecessors at once, nearest first. A word is final when it is a prefix, or an aggregate
 * that holds a start (the latest start in a tile beats every earlier one). Every tile nearer
 * than the nearest final word must have published an aggregate (0: no start) before that
 * word's value is the answer; tiles not published yet are waited for. */
__device__ static int64_t sp_look_back(const unsigned long long *status, int64_t tile)
{
    const int lane = threadIdx.x & 31;
    int64_t nearest = tile - 1;
    for (;;) {
        const int64_t pred = nearest - lane;
        /* Tile 0 always publishes a prefix, so lanes before it are never the ones chosen. */
        const unsigned long long word =
            pred >= 0 ? *(const volatile unsigned long long *)&status[pred] : SP_PREFIX;
        const int is_final = (word & SP_PREFIX) || ((word & SP_AGGREGATE) && (word & SP_VALUE));
        const unsigned final_lanes = __ballot_sync(SP_FULL_WARP, is_final);
        const unsigned waiting_lanes = __ballot_sync(SP_FULL_WARP, word == 0);
        if (final_lanes) {
            const int first = __ffs(final_lanes) - 1;
            if (waiting_lanes & ((1u << first) - 1))
                continue; /* a nearer tile has not published yet: read again */
            return (int64_t)(__shfl_sync(SP_FULL_WARP, word, first) & SP_VALUE);
        }
        if (waiting_lanes == 0)
            nearest -= 32; /* 32 tiles without a start: look further back */
    }
}

/* Events i and i + 1 of a (i even, the array 16-byte aligned): one 16-byte load, or one 8-byte
 * load for a last event without a partner, or nothing past the end. Plain loads and stores:
 * evict-first hints (__ldcs, __stcs) measured 4% slower on an H100 (the chapter's appendix). */
__device__ static void load_pair(const int64_t *__restrict__ a, int64_t i, int64_t n,
                                 int64_t *first, int64_t *second)
{
    if (i + 1 < n) {
        const longlong2 v = *(const longlong2 *)(a + i);
        *first = v.x;
        *second = v.y;
    } else {
        *first = i < n ? a[i] : 0;
        *second = 0;
    }
}

__device__ static void store_pair(int64_t *__restrict__ a, int64_t i, int64_t n, int64_t first,
                                  int64_t second)
{
    if (i + 1 < n) {
        *(longlong2 *)(a + i) = make_longlong2(first, second);
    } else if (i < n) {
        a[i] = first;
    }
}

/* Tile positions p (0-based) are carried as p + 1, so that 0 means "no start yet". */
__device__ static int64_t to_index(int64_t tile_base, int position_plus_1, int64_t carry)
{
    return position_plus_1 > 0 ? tile_base + position_plus_1 - 1 : carry;
}

/* The status word of a tile whose latest start is at position_plus_1 (> 0): final for tile 0,
 * which has nothing before it (a prefix), an aggregate for every later tile. */
__device__ static unsigned long long start_word(int64_t tile, int64_t tile_base,
                                                int position_plus_1)
{
    return (tile == 0 ? SP_PREFIX : SP_AGGREGATE) |
           (unsigned long long)to_index(tile_base, position_plus_1, 0);
}

__global__ void __launch_bounds__(SINGLE_PASS_THREADS, SINGLE_PASS_MIN_BLOCKS)
single_pass_sessionize_kernel(const int64_t *__restrict__ user, const int64_t *__restrict__ ts,
                              int64_t n, int64_t timeout, int64_t *__restrict__ label,
                              unsigned long long *tile_counter, unsigned long long *status)
{
    __shared__ int warp_latest[SP_WARPS];
    __shared__ int64_t tile_id;
    if (threadIdx.x == 0)
        tile_id = (int64_t)atomicAdd(tile_counter, 1ull);
    __syncthreads();
    const int64_t tile = tile_id;
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int64_t tile_base = tile * SINGLE_PASS_TILE;
    const int warp_offset = warp * SP_WARP_EVENTS + 2 * lane; /* in the tile, of row 0's pair */

    /* 1. Every load first, so that all rows are in flight together. */
    int64_t u0[SINGLE_PASS_ROWS], u1[SINGLE_PASS_ROWS], t0[SINGLE_PASS_ROWS], t1[SINGLE_PASS_ROWS];
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + SP_ROW * k;
        load_pair(user, i, n, &u0[k], &u1[k]);
        load_pair(ts, i, n, &t0[k], &t1[k]);
    }
    /* Lane 0's predecessor, for row 0: the event before the warp's first (any lane's value is
     * only used by lane 0). */
    const int64_t warp_first = tile_base + warp * SP_WARP_EVENTS;
    int64_t edge_u = 0, edge_t = 0;
    if (lane == 0 && warp_first > 0 && warp_first < n) {
        edge_u = user[warp_first - 1];
        edge_t = ts[warp_first - 1];
    }

    /* 2. Row by row: the start flags of the pair, then the latest start at or before each
     *    event, within the warp (positions + 1; 0: none in the warp so far). */
    int label0[SINGLE_PASS_ROWS], label1[SINGLE_PASS_ROWS];
    int running = 0; /* the latest start in the rows before */
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + SP_ROW * k;
        const int position = warp_offset + SP_ROW * k; /* of event i in the tile */
        /* The event before this pair is the second of the lane before: a rotation. Lane 0
         * takes the row before's lane 31 instead, which the rotation hands it for the next row. */
        const int from = (lane + 31) & 31;
        const int64_t rotated_u = __shfl_sync(SP_FULL_WARP, u1[k], from);
        const int64_t rotated_t = __shfl_sync(SP_FULL_WARP, t1[k], from);
        const int64_t prev_u = lane ? rotated_u : edge_u;
        const int64_t prev_t = lane ? rotated_t : edge_t;
        edge_u = rotated_u;
        edge_t = rotated_t;
        const int start0 =
            i < n && (i == 0 || session_starts_after(prev_u, prev_t, u0[k], t0[k], timeout));
        const int start1 = i + 1 < n && session_starts_after(u0[k], t0[k], u1[k], t1[k], timeout);
        const int mine = start1 ? position + 2 : start0 ? position + 1 : 0;

        /* Max-scan of the lanes by ballot: the lanes that hold a start, then the nearest one
         * before me (the max, since positions grow) and the last one of the row. */
        const unsigned holders = __ballot_sync(SP_FULL_WARP, mine != 0);
        const unsigned before_me = holders & ((1u << lane) - 1);
        const int nearest_before =
            __shfl_sync(SP_FULL_WARP, mine, before_me ? 31 - __clz((int)before_me) : 0);
        const int last_of_row =
            __shfl_sync(SP_FULL_WARP, mine, holders ? 31 - __clz((int)holders) : 0);
        const int before_pair = before_me ? nearest_before : running;
        label0[k] = start0 ? position + 1 : before_pair;
        label1[k] = start1 ? position + 2 : label0[k];
        running = holders ? last_of_row : running;
    }

    /* 3. Across tiles, early. The last warp's latest start, when it has one, is the tile's: it
     *    publishes it at once, so that the next tile's look-back waits for this one warp, not
     *    for the slowest of the block's loads and the barrier after them. */
    if (warp == SP_WARPS - 1 && lane == 0 && running > 0)
        sp_publish(status, tile, start_word(tile, tile_base, running));

    /* 4. The block: each warp's latest start, then the max over the warps before it. */
    if (lane == 0)
        warp_latest[warp] = running;
    __syncthreads();
    int before_warp = 0, tile_latest = 0;
#pragma unroll
    for (int w = 0; w < SP_WARPS; ++w) {
        const int v = warp_latest[w];
        before_warp = w < warp ? (v > before_warp ? v : before_warp) : before_warp;
        tile_latest = v > tile_latest ? v : tile_latest;
    }

    /* 5. Across tiles, the rest. Unless the last warp published, publish now: a tile with a
     *    start is final at once. */
    if (threadIdx.x == 0 && warp_latest[SP_WARPS - 1] == 0)
        sp_publish(status, tile, start_word(tile, tile_base, tile_latest));
    /* Labels only go back before the tile for events that precede its first start. Positions
     * grow along the warp, so the warp's first event tells: a start before it in the warp or
     * in the warps before, or the look-back (tile 0 never needs it: event 0 is a start). */
    const int first_known = __shfl_sync(SP_FULL_WARP, label0[0], 0) > 0 || before_warp > 0;
    int64_t carry = 0;
    if (!first_known && tile > 0) {
        carry = sp_look_back(status, tile);
        /* No start in the whole tile: its prefix is the one before it. */
        if (tile_latest == 0 && threadIdx.x == 0)
            sp_publish(status, tile, SP_PREFIX | (unsigned long long)carry);
    }

    /* 6. The labels, 16 bytes per store. */
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + SP_ROW * k;
        const int l0 = label0[k] > before_warp ? label0[k] : before_warp;
        const int l1 = label1[k] > before_warp ? label1[k] : before_warp;
        store_pair(label, i, n, to_index(tile_base, l0, carry), to_index(tile_base, l1, carry));
    }
}

static int64_t single_pass_tiles(int64_t n) { return (n + SINGLE_PASS_TILE - 1) / SINGLE_PASS_TILE; }

static size_t single_pass_temp_bytes(int64_t n)
{
    /* The tile counter and one status word per tile; or the chained scan's, for its fallback. */
    const size_t own = tut_bytes((size_t)single_pass_tiles(n) + 1, sizeof(unsigned long long),
                                 "tile status");
    const size_t chained = chained_scan_variant.temp_bytes(n);
    return own > chained ? own : chained;
}

session_launch single_pass_plan(int64_t n)
{
    static tut_kernel_use use;
    static int ready = 0;
    if (!ready) {
        use = tut_kernel_use_of((const void *)single_pass_sessionize_kernel, SINGLE_PASS_THREADS,
                                0);
        ready = 1;
    }
    return single_pass_launch_plan(tut_current_device(), use.regs_per_thread, use.static_shared,
                                   n);
}

static int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

static void single_pass_run(const session_job *job)
{
    if (!aligned16(job->user) || !aligned16(job->ts) || !aligned16(job->label)) {
        chained_scan_variant.run(job); /* 8-byte loads: any int64 alignment */
        return;
    }
    const session_launch plan = single_pass_plan(job->n);
    if (plan.blocks < 1) {
        fprintf(stderr, "single-pass scan: %s\n", plan.why);
        exit(2);
    }
    unsigned long long *counter = (unsigned long long *)job->temp;
    CUDA_CHECK(cudaMemsetAsync(counter, 0,
                               ((size_t)single_pass_tiles(job->n) + 1) * sizeof *counter, 0));
    single_pass_sessionize_kernel<<<(unsigned)plan.blocks, SINGLE_PASS_THREADS>>>(
        job->user, job->ts, job->n, job->timeout, job->label, counter, counter + 1);
    LAUNCH_CHECK();
}

const session_variant single_pass_variant = {"single_pass", single_pass_temp_bytes,
                                             single_pass_run};
