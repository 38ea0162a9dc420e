/* Timing several pieces of GPU work the same way, side by side (a kernel and the copy it is
 * compared with, say).
 *
 *   timed_job jobs[] = {{run_memcpy, &copy}, {run_kernel, &job}};
 *   tut_timing t[2];
 *   time_interleaved(jobs, 2, 3, 10, 20, t);    // t[i].median_ms per call, min, max
 *
 * Each sample is `batch` back-to-back calls of one job between one pair of CUDA events on
 * stream 0, divided by `batch`: the few microseconds between the start event and the first
 * call's start are paid once per batch, not once per call. The rounds interleave the jobs
 * (every job once per round), so a slow moment of the GPU (a clock change, another process)
 * falls on every job alike instead of on whichever was being timed. common/timer.h's
 * tut_time_gpu times one call at a time, one job after the other. */
#ifndef VECADD_INTERLEAVED_TIMER_H
#define VECADD_INTERLEAVED_TIMER_H

#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    tut_work_fn work; /* issues one call on stream 0 */
    void *arg;
} timed_job;

/* After `warmup` untimed calls of each job, `rounds` rounds of one batch per job; out[i] gets
 * job i's median, min and max milliseconds per call over the rounds. */
void time_interleaved(const timed_job *jobs, int count, int warmup, int batch, int rounds,
                      tut_timing *out);

#ifdef __cplusplus
}
#endif

#endif
