/* Fork and join with one event (fork_join.h): the solution of exercise ex06.2. */
#include "fork_join.h"
#include "tutorial.h"

void fork_streams(cudaStream_t origin, const cudaStream_t *streams, int count, cudaEvent_t event)
{
    /* The event completes when `origin` reaches it: after everything queued there so far. */
    CUDA_CHECK(cudaEventRecord(event, origin));
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(streams[s], event, 0));
}

void join_streams(cudaStream_t origin, const cudaStream_t *streams, int count, cudaEvent_t event)
{
    /* Each wait captures the event as just recorded in streams[s], so re-recording it for the
     * next stream does not change what `origin` waits for. */
    for (int s = 0; s < count; ++s) {
        CUDA_CHECK(cudaEventRecord(event, streams[s]));
        CUDA_CHECK(cudaStreamWaitEvent(origin, event, 0));
    }
}
