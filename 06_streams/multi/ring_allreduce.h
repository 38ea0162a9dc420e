/* A hand-written ring all-reduce over peer copies and a reduction kernel (docs/06_streams_2.md,
 * "A ring by hand"), beside NCCL's. One process drives every GPU.
 *
 * The buffer of each GPU is cut into G chunks (tut_multi_split_*). Reduce-scatter: in step t
 * (0 .. G-2) GPU r pulls chunk c = (r - 1 - t) mod G from GPU r-1 into a scratch buffer
 * (cudaMemcpyPeerAsync) and adds it to its own; after G-1 steps GPU r holds chunk r+1 summed
 * over every GPU. All-gather: in step s (0 .. G-2) GPU r pulls chunk (r - s) mod G, final, from
 * GPU r-1 into its result. Each GPU sends and receives 2(G-1) chunks: 2(G-1)/G of the buffer.
 * Each chunk is cut into `pieces` that flow through the steps on LANES streams per GPU, so that
 * one piece's copy overlaps another's addition; an event per (GPU, step, piece) tells the next
 * GPU that its piece is ready. */
#ifndef RING_ALLREDUCE_H
#define RING_ALLREDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "multi_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RING_LANES 2
#define RING_MAX_PIECES 16

typedef struct {
    int gpus, max_pieces;
    size_t max_count;                          /* elements per GPU the scratch was sized for */
    cudaStream_t main[TUT_MULTI_MAX_GPUS];     /* the caller's stream per GPU */
    cudaStream_t lane[TUT_MULTI_MAX_GPUS][RING_LANES];
    cudaEvent_t start[TUT_MULTI_MAX_GPUS], lane_done[TUT_MULTI_MAX_GPUS][RING_LANES];
    cudaEvent_t *ready;                        /* [gpu][step][piece] */
    float *scratch[TUT_MULTI_MAX_GPUS];        /* per GPU: a slot per piece, one chunk in all */
} ring_allreduce_plan;

/* Streams, events and scratch for all-reduces of up to max_count floats per GPU on GPUs
 * 0..gpus-1, whose peer access must be on (tut_multi_enable_peers). */
void ring_create(ring_allreduce_plan *p, int gpus, const cudaStream_t *main, size_t max_count);
void ring_destroy(ring_allreduce_plan *p);

/* recv[g] = the sum over every GPU h of send[h] (count floats each, out of place), queued on
 * the callers' streams: ordered after what was queued on main[g] before, and what is queued
 * after it waits for it. pieces = 0: tut_multi_ring_pieces(chunk, 16 MiB, RING_MAX_PIECES). */
void ring_allreduce(ring_allreduce_plan *p, float *const *send, float *const *recv, size_t count,
                    int pieces);

#ifdef __cplusplus
}
#endif

#endif
