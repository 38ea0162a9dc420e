/* A candidate for the single-pass kernel (4_single_pass.cu), for sessionize_perf --prefetch:
 * the same tile work, but each block stays for many tiles (one full wave of blocks) and loads its
 * NEXT tile before it scans, looks back and stores the current one, so a block's loads are in
 * flight during its own barrier, look-back and stores. Costs: twice the registers of the loaded
 * rows, one more barrier per tile (the next ticket).
 *
 * Why it cannot deadlock: a ticket is taken only by a running block, a block finishes its
 * current tile before it works on the one it took next, and a look-back waits only for smaller
 * tickets. The smallest unfinished tile is always some block's current tile, and every tile
 * before it has published: that block never waits forever, and by induction none does. */
#include <stdint.h>

#include "session_boundary.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

#define PF_WARPS (SINGLE_PASS_THREADS / 32)
#define PF_ROW 64
#define PF_WARP_EVENTS (PF_ROW * SINGLE_PASS_ROWS)
#define PF_FULL 0xffffffffu
#define PF_AGGREGATE (1ull << 62)
#define PF_PREFIX (2ull << 62)
#define PF_VALUE (PF_AGGREGATE - 1)

typedef struct {
    int64_t u0[SINGLE_PASS_ROWS], u1[SINGLE_PASS_ROWS], t0[SINGLE_PASS_ROWS], t1[SINGLE_PASS_ROWS];
    int64_t edge_u, edge_t;
} pf_rows;

__device__ static void pf_publish(unsigned long long *status, int64_t tile,
                                  unsigned long long word)
{
    *(volatile unsigned long long *)&status[tile] = word;
}

/* As sp_look_back in 4_single_pass.cu. */
__device__ static int64_t pf_look_back(const unsigned long long *status, int64_t tile)
{
    const int lane = threadIdx.x & 31;
    int64_t nearest = tile - 1;
    for (;;) {
        const int64_t pred = nearest - lane;
        const unsigned long long word =
            pred >= 0 ? *(const volatile unsigned long long *)&status[pred] : PF_PREFIX;
        const int is_final = (word & PF_PREFIX) || ((word & PF_AGGREGATE) && (word & PF_VALUE));
        const unsigned final_lanes = __ballot_sync(PF_FULL, is_final);
        const unsigned waiting_lanes = __ballot_sync(PF_FULL, word == 0);
        if (final_lanes) {
            const int first = __ffs(final_lanes) - 1;
            if (waiting_lanes & ((1u << first) - 1))
                continue;
            return (int64_t)(__shfl_sync(PF_FULL, word, first) & PF_VALUE);
        }
        if (waiting_lanes == 0)
            nearest -= 32;
    }
}

__device__ static void pf_load_pair(const int64_t *__restrict__ a, int64_t i, int64_t n,
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

__device__ static void pf_store_pair(int64_t *__restrict__ a, int64_t i, int64_t n,
                                     int64_t first, int64_t second)
{
    if (i + 1 < n)
        *(longlong2 *)(a + i) = make_longlong2(first, second);
    else if (i < n)
        a[i] = first;
}

__device__ static int64_t pf_index(int64_t tile_base, int position_plus_1, int64_t carry)
{
    return position_plus_1 > 0 ? tile_base + position_plus_1 - 1 : carry;
}

/* Issues every load of tile `tile` (nothing is used yet: the loads stay in flight). */
__device__ static __forceinline__ void pf_load(const int64_t *__restrict__ user,
                                               const int64_t *__restrict__ ts, int64_t n,
                                               int64_t tile, pf_rows &r)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int64_t tile_base = tile * SINGLE_PASS_TILE;
    const int warp_offset = warp * PF_WARP_EVENTS + 2 * lane;
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + PF_ROW * k;
        pf_load_pair(user, i, n, &r.u0[k], &r.u1[k]);
        pf_load_pair(ts, i, n, &r.t0[k], &r.t1[k]);
    }
    const int64_t warp_first = tile_base + warp * PF_WARP_EVENTS;
    r.edge_u = 0;
    r.edge_t = 0;
    if (lane == 0 && warp_first > 0 && warp_first < n) {
        r.edge_u = user[warp_first - 1];
        r.edge_t = ts[warp_first - 1];
    }
}

/* Steps 2 to 5 of 4_single_pass.cu's kernel for one loaded tile. */
__device__ static __forceinline__ void pf_process(const pf_rows &r, int64_t tile, int64_t n,
                                                  int64_t timeout, int64_t *__restrict__ label,
                                                  unsigned long long *status, int *warp_latest)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int64_t tile_base = tile * SINGLE_PASS_TILE;
    const int warp_offset = warp * PF_WARP_EVENTS + 2 * lane;
    int64_t edge_u = r.edge_u, edge_t = r.edge_t;
    int label0[SINGLE_PASS_ROWS], label1[SINGLE_PASS_ROWS];
    int running = 0;
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + PF_ROW * k;
        const int position = warp_offset + PF_ROW * k;
        const int from = (lane + 31) & 31;
        const int64_t rotated_u = __shfl_sync(PF_FULL, r.u1[k], from);
        const int64_t rotated_t = __shfl_sync(PF_FULL, r.t1[k], from);
        const int64_t prev_u = lane ? rotated_u : edge_u;
        const int64_t prev_t = lane ? rotated_t : edge_t;
        edge_u = rotated_u;
        edge_t = rotated_t;
        const int start0 = i < n && (i == 0 || session_starts_after(prev_u, prev_t, r.u0[k],
                                                                    r.t0[k], timeout));
        const int start1 =
            i + 1 < n && session_starts_after(r.u0[k], r.t0[k], r.u1[k], r.t1[k], timeout);
        const int mine = start1 ? position + 2 : start0 ? position + 1 : 0;
        const unsigned holders = __ballot_sync(PF_FULL, mine != 0);
        const unsigned before_me = holders & ((1u << lane) - 1);
        const int nearest_before =
            __shfl_sync(PF_FULL, mine, before_me ? 31 - __clz((int)before_me) : 0);
        const int last_of_row = __shfl_sync(PF_FULL, mine, holders ? 31 - __clz((int)holders) : 0);
        const int before_pair = before_me ? nearest_before : running;
        label0[k] = start0 ? position + 1 : before_pair;
        label1[k] = start1 ? position + 2 : label0[k];
        running = holders ? last_of_row : running;
    }
    if (lane == 0)
        warp_latest[warp] = running;
    __syncthreads();
    int before_warp = 0, tile_latest = 0;
#pragma unroll
    for (int w = 0; w < PF_WARPS; ++w) {
        const int v = warp_latest[w];
        before_warp = w < warp ? (v > before_warp ? v : before_warp) : before_warp;
        tile_latest = v > tile_latest ? v : tile_latest;
    }
    if (threadIdx.x == 0)
        pf_publish(status, tile,
                   (tile == 0 ? PF_PREFIX : PF_AGGREGATE) |
                       (unsigned long long)pf_index(tile_base, tile_latest, 0));
    const int first_known = __shfl_sync(PF_FULL, label0[0], 0) > 0 || before_warp > 0;
    int64_t carry = 0;
    if (!first_known && tile > 0) {
        carry = pf_look_back(status, tile);
        if (tile_latest == 0 && threadIdx.x == 0)
            pf_publish(status, tile, PF_PREFIX | (unsigned long long)carry);
    }
#pragma unroll
    for (int k = 0; k < SINGLE_PASS_ROWS; ++k) {
        const int64_t i = tile_base + warp_offset + PF_ROW * k;
        const int l0 = label0[k] > before_warp ? label0[k] : before_warp;
        const int l1 = label1[k] > before_warp ? label1[k] : before_warp;
        pf_store_pair(label, i, n, pf_index(tile_base, l0, carry), pf_index(tile_base, l1, carry));
    }
}

__global__ void __launch_bounds__(SINGLE_PASS_THREADS)
    prefetch_sessionize_kernel(const int64_t *__restrict__ user, const int64_t *__restrict__ ts,
                               int64_t n, int64_t timeout, int64_t *__restrict__ label,
                               unsigned long long *tile_counter, unsigned long long *status,
                               int64_t tiles)
{
    __shared__ int warp_latest[PF_WARPS];
    __shared__ int64_t ticket;
    if (threadIdx.x == 0)
        ticket = (int64_t)atomicAdd(tile_counter, 1ull);
    __syncthreads();
    int64_t tile = ticket;
    pf_rows cur, next;
    if (tile < tiles)
        pf_load(user, ts, n, tile, cur);
    while (tile < tiles) {
        __syncthreads(); /* every thread has read `ticket` and the last tile's warp_latest */
        if (threadIdx.x == 0)
            ticket = (int64_t)atomicAdd(tile_counter, 1ull);
        __syncthreads();
        const int64_t after = ticket;
        if (after < tiles)
            pf_load(user, ts, n, after, next); /* in flight while this tile is worked on */
        pf_process(cur, tile, n, timeout, label, status, warp_latest);
        cur = next;
        tile = after;
    }
}

static int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

size_t prefetch_temp_bytes(int64_t n) { return single_pass_variant.temp_bytes(n); }

static void prefetch_run(const session_job *job)
{
    if (!aligned16(job->user) || !aligned16(job->ts) || !aligned16(job->label)) {
        single_pass_variant.run(job);
        return;
    }
    static int blocks_per_sm = 0;
    if (!blocks_per_sm) {
        const tut_kernel_use use = tut_kernel_use_of((const void *)prefetch_sessionize_kernel,
                                                     SINGLE_PASS_THREADS, 0);
        blocks_per_sm = tut_blocks_per_sm(tut_current_device(), use);
        printf("prefetch kernel: %d registers, %d blocks of %d per SM\n", use.regs_per_thread,
               blocks_per_sm, SINGLE_PASS_THREADS);
    }
    const int64_t tiles = (job->n + SINGLE_PASS_TILE - 1) / SINGLE_PASS_TILE;
    int64_t blocks = (int64_t)blocks_per_sm * tut_current_device()->sm_count;
    blocks = blocks < tiles ? blocks : tiles;
    if (blocks < 1) {
        fprintf(stderr, "prefetch kernel: does not fit an SM\n");
        exit(2);
    }
    /* One more ticket than tiles per block is taken (the one that ends its loop). */
    unsigned long long *counter = (unsigned long long *)job->temp;
    CUDA_CHECK(cudaMemsetAsync(counter, 0, ((size_t)tiles + 1) * sizeof *counter, 0));
    prefetch_sessionize_kernel<<<(unsigned)blocks, SINGLE_PASS_THREADS>>>(
        job->user, job->ts, job->n, job->timeout, job->label, counter, counter + 1, tiles);
    LAUNCH_CHECK();
}

extern const session_variant prefetch_variant; /* perf_single_pass.cu: --prefetch */
const session_variant prefetch_variant = {"prefetch", prefetch_temp_bytes, prefetch_run};
