/* EXERCISE ex03.3 (three passes: the carry across tiles; docs/03_sessionize_exercises.md):
 * write phases 1 and 2 below (tile_latest_kernel and tile_carry_kernel); phase 3 and the host
 * code are complete. The grader is tests/grade_ex3_three_phase.cu. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex03.3
 *
 * Sessionize in three passes over tiles of THREE_PHASE_TILE events:
 *   1. tile_latest_kernel: each block finds the latest session start in its tile (0: none);
 *   2. tile_carry_kernel: one block scans those, so carry[t] = the latest start before tile t;
 *   3. tile_label_kernel: each block scans its own tile and takes the carry into account.
 * Every step is a max: a label is the latest session start at or before its event, and 0 is
 * max's identity here (event 0 always starts a session). Phases 1 and 3 each read the events
 * (16 bytes per event each) and phase 3 writes the labels (8): 40 bytes per event, where the
 * single pass of 3_scan_chained.cu moves 24, so this can reach at most 24 / 40 = 60% of a copy.
 * The block-wide reductions and scans are CUB's (cub::BlockReduce, cub::BlockScan), so the code
 * shows the passes, not the shuffles. */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "scan_three_phase.h"
#include "session_boundary.h"
#include "tutorial.h"

/* C++ only where CUB needs it: the max as a function object. */
struct latest_of {
    __device__ int64_t operator()(int64_t a, int64_t b) const { return a > b ? a : b; }
};

typedef cub::BlockReduce<int64_t, THREE_PHASE_THREADS> tile_reduce;
typedef cub::BlockScan<int64_t, THREE_PHASE_THREADS> tile_scan;
/* Phase 2's scan by warps: each warp's total goes through shared memory that every thread then
 * reads, so the next round may write it only after a __syncthreads(). (With CUB's default
 * algorithm, raking, the scan's own barriers happen to cover that reuse: a missing one goes
 * unseen.) */
typedef cub::BlockScan<int64_t, CARRY_THREADS, cub::BLOCK_SCAN_WARP_SCANS> carry_scan;

/* Event i's value in the scan: i if a session starts there, 0 if not or past the end. */
__device__ static int64_t start_value(const int64_t *user, const int64_t *ts, int64_t n,
                                      int64_t timeout, int64_t i)
{
    return i < n && session_starts_at(user, ts, i, timeout) ? i : 0;
}

/* Thread t's events of a tile: base + t, base + t + THREADS, ... (coalesced rows). All loads are
 * issued before any value is used, so THREE_PHASE_ITEMS rows are in flight at once. */
__device__ static void tile_values(const int64_t *user, const int64_t *ts, int64_t n,
                                   int64_t timeout, int64_t v[THREE_PHASE_ITEMS])
{
    const int64_t base = (int64_t)blockIdx.x * THREE_PHASE_TILE + threadIdx.x;
#pragma unroll
    for (int k = 0; k < THREE_PHASE_ITEMS; ++k)
        v[k] = start_value(user, ts, n, timeout, base + (int64_t)k * THREE_PHASE_THREADS);
}

__global__ void __launch_bounds__(THREE_PHASE_THREADS)
tile_latest_kernel(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
                   int64_t timeout, int64_t *__restrict__ tile_latest)
{
    __shared__ tile_reduce::TempStorage temp;
    /* TODO (ex03.3) phase 1: tile_latest[blockIdx.x] = the largest start value of this block's
     * tile (0 if no session starts in it). tile_values() gives this thread's events of the tile;
     * reduce them to one value per thread, then across the block with
     * tile_reduce(temp).Reduce(value, latest_of()) (the result is valid in thread 0 only). */
    (void)temp;
    (void)user;
    (void)ts;
    (void)n;
    (void)timeout;
    (void)tile_latest;
}

/* One block walks the tiles in rounds of CARRY_THREADS x CARRY_ITEMS, carrying the latest start
 * of the rounds before: carry[t] = max(tile_latest[0 .. t-1]), 0 for tile 0. */
__global__ void __launch_bounds__(CARRY_THREADS)
tile_carry_kernel(const int64_t *__restrict__ tile_latest, int64_t tiles,
                  int64_t *__restrict__ carry)
{
    __shared__ carry_scan::TempStorage temp;
    /* TODO (ex03.3) phase 2: carry[t] = the largest of tile_latest[0 .. t-1] (0 for tile 0), for
     * every t < tiles, by this one block of CARRY_THREADS threads. There can be more tiles than
     * threads (10^8 events are 24,415 tiles): go in rounds of CARRY_THREADS x CARRY_ITEMS tiles,
     * thread x taking tiles round + x * CARRY_ITEMS + j (j < CARRY_ITEMS, consecutive, the
     * order cub::BlockScan expects), and carry the largest value of the rounds before. In a
     * round: carry_scan(temp).ExclusiveScan(v, before, (int64_t)0, latest_of(), round_latest)
     * gives each of a thread's CARRY_ITEMS values the max of all values before it in the round,
     * and round_latest the max of the whole round. Before temp is used again: __syncthreads(). */
    (void)temp;
    (void)tile_latest;
    (void)tiles;
    (void)carry;
}

/* Each row of THREADS events is scanned by the block, the running max carried from row to row,
 * starting from the tile's carry. */
__global__ void __launch_bounds__(THREE_PHASE_THREADS)
tile_label_kernel(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
                  int64_t timeout, const int64_t *__restrict__ carry, int64_t *__restrict__ label)
{
    __shared__ tile_scan::TempStorage temp;
    int64_t v[THREE_PHASE_ITEMS];
    tile_values(user, ts, n, timeout, v);
    int64_t running = carry[blockIdx.x];
    const int64_t base = (int64_t)blockIdx.x * THREE_PHASE_TILE + threadIdx.x;
#pragma unroll
    for (int k = 0; k < THREE_PHASE_ITEMS; ++k) {
        int64_t latest, row_latest;
        tile_scan(temp).InclusiveScan(v[k], latest, latest_of(), row_latest);
        const int64_t i = base + (int64_t)k * THREE_PHASE_THREADS;
        if (i < n)
            label[i] = latest > running ? latest : running;
        running = row_latest > running ? row_latest : running;
        __syncthreads(); /* temp is used again by the next row */
    }
}

static int64_t tile_count(int64_t n) { return (n + THREE_PHASE_TILE - 1) / THREE_PHASE_TILE; }

static size_t three_phase_temp_bytes(int64_t n)
{
    return tut_bytes(2 * (size_t)tile_count(n), sizeof(int64_t), "tile maxima and carries");
}

/* One block per tile on every GPU (gridDim.x allows 2^31 - 1 tiles); blocks of 256 and one of
 * 1024 threads fit every GPU this suite supports (__launch_bounds__ keeps the registers in
 * bounds). */
static void three_phase_run(const session_job *job)
{
    const int64_t tiles = tile_count(job->n);
    int64_t *tile_latest = (int64_t *)job->temp, *carry = tile_latest + tiles;
    tile_latest_kernel<<<(unsigned)tiles, THREE_PHASE_THREADS>>>(job->user, job->ts, job->n,
                                                                  job->timeout, tile_latest);
    LAUNCH_CHECK();
    tile_carry_kernel<<<1, CARRY_THREADS>>>(tile_latest, tiles, carry);
    LAUNCH_CHECK();
    tile_label_kernel<<<(unsigned)tiles, THREE_PHASE_THREADS>>>(job->user, job->ts, job->n,
                                                                 job->timeout, carry, job->label);
    LAUNCH_CHECK();
}

const session_variant three_phase_variant = {"three-phase", three_phase_temp_bytes,
                                             three_phase_run};
