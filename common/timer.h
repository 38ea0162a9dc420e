/* Timers. GPU work is timed with CUDA events (never a host clock around asynchronous work):
 * warm-up runs first (module load, caches, clocks), then each repetition is timed on its own and
 * the median is reported, which ignores the odd slow run.
 *
 *   static void run(void *arg) { struct job *j = arg; kernel<<<...>>>(j->...); LAUNCH_CHECK(); }
 *   tut_timing t = tut_time_gpu(run, &job, 3, 20);     // t.median_ms
 *
 * The work must be issued on the legacy default stream (stream 0), or be synchronised with it.
 * Each timed region includes the launch latency of the work's first kernel (a few microseconds:
 * the start event completes while the host is still submitting). For kernels that short, time a
 * batch of back-to-back calls inside one work function, or replay a CUDA graph, and divide. */
#ifndef TUTORIAL_TIMER_H
#define TUTORIAL_TIMER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*tut_work_fn)(void *arg);

typedef struct {
    double median_ms;
    double min_ms;
    double max_ms;
    int reps;
} tut_timing;

/* Runs work(arg) `warmup` times untimed, then `reps` times (at least 1), each between two
 * events; returns the median, min and max in milliseconds. */
tut_timing tut_time_gpu(tut_work_fn work, void *arg, int warmup, int reps);

/* The fair way to compare a kernel with a library or a ceiling: both timed by this function.
 * Each of `batches` timed regions holds `calls` back-to-back calls of work(arg) between one pair
 * of events, so the launch latency of the first call is spread over all of them; the result is
 * per call (median, min and max over the batches). calls = 0 picks enough calls for a batch of
 * about 2 ms (at most 1000). */
tut_timing tut_time_gpu_batched(tut_work_fn work, void *arg, int warmup, int batches, int calls);

/* A device-to-device copy as timed work: what a chapter's kernel is compared with when the bytes
 * it moves are the same as a copy's, timed by the same function in the same run.
 *   tut_copy_job copy = {.dst = d_out, .src = d_in, .bytes = bytes};
 *   tut_timing t = tut_time_gpu_batched(tut_copy_work, &copy, 2, 7, 0); */
typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
} tut_copy_job;
void tut_copy_work(void *copy_job);

/* A monotonic host clock, in seconds, for CPU references and whole-program wall times. */
double tut_cpu_seconds(void);

/* Median of n values (n >= 1); sorts the array in place. */
double tut_median(double *values, int n);

#ifdef __cplusplus
}
#endif

#endif
