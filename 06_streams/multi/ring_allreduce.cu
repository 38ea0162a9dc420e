/* The hand-written ring all-reduce: ring_allreduce.h says how it works. */
#include "ring_allreduce.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "memory.h"
#include "multi_kernels.h"

#define PIECE_BYTES ((size_t)16 << 20)

static int steps_of(int gpus) { return 2 * (gpus - 1); }

static cudaEvent_t *ready_event(ring_allreduce_plan *p, int gpu, int step, int piece)
{
    return &p->ready[((size_t)gpu * steps_of(p->gpus) + step) * RING_MAX_PIECES + piece];
}

void ring_create(ring_allreduce_plan *p, int gpus, const cudaStream_t *main, size_t max_count)
{
    *p = (ring_allreduce_plan){.gpus = gpus, .max_pieces = RING_MAX_PIECES,
                               .max_count = max_count};
    const size_t events = (size_t)gpus * steps_of(gpus) * RING_MAX_PIECES;
    p->ready = (cudaEvent_t *)calloc(events ? events : 1, sizeof(cudaEvent_t));
    /* the largest chunk, cut into at most RING_MAX_PIECES pieces of the largest piece's size */
    const size_t chunk = tut_multi_split_count(max_count, gpus, 0) + RING_MAX_PIECES;
    for (int g = 0; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        p->main[g] = main[g];
        for (int l = 0; l < RING_LANES; ++l) {
            CUDA_CHECK(cudaStreamCreateWithFlags(&p->lane[g][l], cudaStreamNonBlocking));
            CUDA_CHECK(cudaEventCreateWithFlags(&p->lane_done[g][l], cudaEventDisableTiming));
        }
        CUDA_CHECK(cudaEventCreateWithFlags(&p->start[g], cudaEventDisableTiming));
        for (int t = 0; t < steps_of(gpus); ++t)
            for (int k = 0; k < RING_MAX_PIECES; ++k)
                CUDA_CHECK(cudaEventCreateWithFlags(ready_event(p, g, t, k),
                                                    cudaEventDisableTiming));
        p->scratch[g] = (float *)tut_device_alloc((chunk ? chunk : 1) * sizeof(float),
                                                  "ring scratch");
    }
    CUDA_CHECK(cudaSetDevice(0));
}

void ring_destroy(ring_allreduce_plan *p)
{
    for (int g = 0; g < p->gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaDeviceSynchronize());
        for (int l = 0; l < RING_LANES; ++l) {
            CUDA_CHECK(cudaStreamDestroy(p->lane[g][l]));
            CUDA_CHECK(cudaEventDestroy(p->lane_done[g][l]));
        }
        CUDA_CHECK(cudaEventDestroy(p->start[g]));
        for (int t = 0; t < steps_of(p->gpus); ++t)
            for (int k = 0; k < RING_MAX_PIECES; ++k)
                CUDA_CHECK(cudaEventDestroy(*ready_event(p, g, t, k)));
        tut_device_free(p->scratch[g]);
    }
    free(p->ready);
    CUDA_CHECK(cudaSetDevice(0));
}

/* Every lane of every GPU waits until every GPU has reached this call on its main stream: the
 * previous call's peer copies read the buffers this call overwrites. */
static void fork_all(ring_allreduce_plan *p)
{
    for (int g = 0; g < p->gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaEventRecord(p->start[g], p->main[g]));
    }
    for (int g = 0; g < p->gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        for (int l = 0; l < RING_LANES; ++l)
            for (int h = 0; h < p->gpus; ++h)
                CUDA_CHECK(cudaStreamWaitEvent(p->lane[g][l], p->start[h], 0));
    }
}

static void join_all(ring_allreduce_plan *p)
{
    for (int g = 0; g < p->gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        for (int l = 0; l < RING_LANES; ++l) {
            CUDA_CHECK(cudaEventRecord(p->lane_done[g][l], p->lane[g][l]));
            CUDA_CHECK(cudaStreamWaitEvent(p->main[g], p->lane_done[g][l], 0));
        }
    }
    CUDA_CHECK(cudaSetDevice(0));
}

void ring_allreduce(ring_allreduce_plan *p, float *const *send, float *const *recv, size_t count,
                    int pieces)
{
    const int G = p->gpus;
    if (count > p->max_count) {
        fprintf(stderr, "ring_allreduce: %zu floats, sized for %zu\n", count, p->max_count);
        exit(2);
    }
    if (G == 1) { /* nothing to exchange: the sum of one buffer is itself */
        CUDA_CHECK(cudaSetDevice(0));
        CUDA_CHECK(cudaMemcpyAsync(recv[0], send[0], count * sizeof(float),
                                   cudaMemcpyDeviceToDevice, p->main[0]));
        return;
    }
    const size_t largest = tut_multi_split_count(count, G, 0);
    if (pieces < 1)
        pieces = tut_multi_ring_pieces(largest * sizeof(float), PIECE_BYTES, RING_MAX_PIECES);
    pieces = pieces > RING_MAX_PIECES ? RING_MAX_PIECES : pieces;
    const size_t piece_room = tut_multi_split_count(largest, pieces, 0); /* the largest piece */
    fork_all(p);
    for (int t = 0; t < steps_of(G); ++t) {
        const int reduce = t < G - 1; /* reduce-scatter, then all-gather */
        for (int k = 0; k < pieces; ++k)
            for (int r = 0; r < G; ++r) {
                const int prev = (r + G - 1) % G;
                const int c = tut_multi_ring_chunk(r, t, G);
                const size_t chunk = tut_multi_split_count(count, G, c);
                const size_t at = tut_multi_split_offset(count, G, c) +
                                  tut_multi_split_offset(chunk, pieces, k);
                const size_t n = tut_multi_split_count(chunk, pieces, k);
                const float *src = (reduce && t == 0 ? send[prev] : recv[prev]) + at;
                /* piece k's own slot of the scratch: chunks differ in size by one element,
                 * so offsets within a chunk would let two lanes' pieces share an element */
                float *dst = reduce ? p->scratch[r] + (size_t)k * piece_room : recv[r] + at;
                cudaStream_t lane = p->lane[r][k % RING_LANES];
                CUDA_CHECK(cudaSetDevice(r));
                if (t > 0) /* GPU prev finished this piece in its step t - 1 */
                    CUDA_CHECK(cudaStreamWaitEvent(lane, *ready_event(p, prev, t - 1, k), 0));
                if (n > 0)
                    CUDA_CHECK(cudaMemcpyPeerAsync(dst, r, src, prev, n * sizeof(float), lane));
                if (reduce) {
                    multi_add(send[r] + at, dst, recv[r] + at, n, lane);
                }
                CUDA_CHECK(cudaEventRecord(*ready_event(p, r, t, k), lane));
            }
    }
    join_all(p);
}
