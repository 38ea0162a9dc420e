/* The kernels and the timer of the multi-GPU programs (nccl_allreduce, p2p_matrix). Each
 * launcher runs on the device current at the call, sized from that device's limits. */
#ifndef MULTI_KERNELS_H
#define MULTI_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "timer.h" /* tut_timing */

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = a small whole number (-8 .. 8) drawn from (seed, tag, i): sums of a few of them are
 * exact in float in any order, so that every all-reduce can be checked exactly. */
void multi_fill_whole(float *x, size_t n, unsigned long long seed, int tag, cudaStream_t stream);
/* The value multi_fill_whole puts at i, on the host. */
float multi_whole_value(unsigned long long seed, int tag, size_t i);
/* *wrong (device) += the number of i where x[i] != the sum over tags 0..tags-1 of
 * multi_whole_value(seed, tag, i) (a NaN is never equal). */
void multi_check_whole_sum(const float *x, size_t n, unsigned long long seed, int tags,
                           unsigned long long *wrong, cudaStream_t stream);
/* *wrong (device) += the number of i where a[i] and b[i] differ bit for bit. */
void multi_count_different(const float *a, const float *b, size_t n, unsigned long long *wrong,
                           cudaStream_t stream);
/* out[i] = a[i] + b[i]. */
void multi_add(const float *a, const float *b, float *out, size_t n, cudaStream_t stream);
/* *result (device, double) = x . y over [0, n), through one partial per block then one block. */
void multi_dot(const float *x, const float *y, size_t n, double *partials, double *result,
               cudaStream_t stream);
/* The number of partials multi_dot needs on the current device. */
int multi_dot_blocks(void);

/* ---- Timing work that spans several GPUs, with events ---------------------------------------
 * work(arg) queues one call on every GPU's stream stream[g] (on device device[g]; device NULL:
 * devices 0 .. gpus-1). Each timed batch holds
 * `calls` calls between a start event on GPU 0, which every other stream waits for, and a stop
 * event on GPU 0 recorded after it waited for every other stream's end: the time of the slowest
 * GPU. Returns the per-call median, min and max of `batches` batches after `warmup` calls. */
typedef void (*multi_work_fn)(void *arg);
/* How the timer waits for a batch's stop event: cudaEventSynchronize, or, with a watch set
 * (one process per GPU, collective.cu), cudaEventQuery polled with watch(arg, seconds waited)
 * between polls, which ends the process when another rank has died: a timing never hangs on a
 * dead peer. NULL: back to cudaEventSynchronize. */
typedef void (*multi_watch_fn)(void *arg, double waited_s);
void multi_set_watch(multi_watch_fn watch, void *arg);
tut_timing multi_time(multi_work_fn work, void *arg, const cudaStream_t *stream,
                      const int *device, int gpus, int warmup, int batches, int calls);
/* A calls count for a batch of about `target_ms`, from one untimed call's time (1 .. 1000). */
int multi_calls_for(multi_work_fn work, void *arg, const cudaStream_t *stream,
                    const int *device, int gpus, double target_ms);

#ifdef __cplusplus
}
#endif

#endif
