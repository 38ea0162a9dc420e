/* EXERCISE ex06.2: fork and join streams with an event (fork_join.h says what each must do;
 * docs/06_streams_exercises.md).
 *
 * Two calls do it: cudaEventRecord(event, stream) puts a marker in a stream, which completes
 * when the stream gets there; cudaStreamWaitEvent(stream, event, 0) makes a stream's later work
 * wait for the marker as last recorded. Neither makes the host wait: do not synchronise
 * (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize) here, the grader checks
 * that these calls return at once. Wrap every call in CUDA_CHECK. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex06.2 */
#include "fork_join.h"
#include "tutorial.h"

void fork_streams(cudaStream_t origin, const cudaStream_t *streams, int count, cudaEvent_t event)
{
    /* TODO (ex06.2) 1: mark where `origin` is now, and make each of streams[0..count) wait
     * for that mark. */
    (void)origin; (void)streams; (void)count; (void)event;
}

void join_streams(cudaStream_t origin, const cudaStream_t *streams, int count, cudaEvent_t event)
{
    /* TODO (ex06.2) 2: make `origin` wait for where each of streams[0..count) is now. One
     * event is enough: why? */
    (void)origin; (void)streams; (void)count; (void)event;
}
