/* Fork and join: ordering streams after one another with events, without the host waiting.
 *
 * Work in different streams runs in any order; an event recorded in one stream and waited for
 * in another (cudaEventRecord, cudaStreamWaitEvent) is how one stream's later work is made to
 * start after another's earlier work, on the GPU, while the host goes on queueing. Timing a
 * pipeline needs both directions (timing.cu, time_issue): the start event in the origin stream
 * must come before every stream's work (fork), and the stop event after all of it (join). */
#ifndef STREAMS_FORK_JOIN_H
#define STREAMS_FORK_JOIN_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fork: work queued on streams[0..count) after this call starts only after everything queued
 * on `origin` before it has finished. `event` is the caller's (created with
 * cudaEventDisableTiming), and may still be pending from an earlier record; the host does not
 * wait, for it or for anything else. */
void fork_streams(cudaStream_t origin, const cudaStream_t *streams, int count,
                  cudaEvent_t event);

/* Join: work queued on `origin` after this call starts only after everything queued on each of
 * streams[0..count) before it has finished. One event serves every stream (a wait takes the
 * event as last recorded when it is queued); the host does not wait. */
void join_streams(cudaStream_t origin, const cudaStream_t *streams, int count,
                  cudaEvent_t event);

#ifdef __cplusplus
}
#endif

#endif
