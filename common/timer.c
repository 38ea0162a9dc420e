/* clock_gettime and CLOCK_MONOTONIC are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "timer.h"

#include <stdlib.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "memory.h"

void tut_copy_work(void *copy_job)
{
    const tut_copy_job *c = (const tut_copy_job *)copy_job;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

double tut_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tut_median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* Runs a batch: `calls` back-to-back calls of one work function (see tut_time_gpu_batched). */
typedef struct {
    tut_work_fn work;
    void *arg;
    int calls;
} work_batch;

static void run_batch(void *arg)
{
    const work_batch *b = arg;
    for (int i = 0; i < b->calls; ++i)
        b->work(b->arg);
}

tut_timing tut_time_gpu(tut_work_fn work, void *arg, int warmup, int reps)
{
    if (reps < 1)
        reps = 1;
    for (int i = 0; i < warmup; ++i)
        work(arg);
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double *ms = tut_host_alloc((size_t)reps * sizeof *ms, "timings");
    for (int i = 0; i < reps; ++i) {
        CUDA_CHECK(cudaEventRecord(start, 0));
        work(arg);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float elapsed = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
        ms[i] = elapsed;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));

    tut_timing t;
    t.reps = reps;
    t.median_ms = tut_median(ms, reps); /* sorts ms */
    t.min_ms = ms[0];
    t.max_ms = ms[reps - 1];
    free(ms);
    return t;
}

tut_timing tut_time_gpu_batched(tut_work_fn work, void *arg, int warmup, int batches, int calls)
{
    if (calls <= 0) {
        const tut_timing one = tut_time_gpu(work, arg, warmup, 3);
        const double want_ms = 2.0;
        calls = one.median_ms > 0 ? (int)(want_ms / one.median_ms) + 1 : 1000;
        if (calls > 1000)
            calls = 1000;
        warmup = 0; /* tut_time_gpu warmed up already */
    }
    /* A batch is itself a work function: tut_time_gpu times it and we divide. */
    work_batch b = {work, arg, calls};
    for (int i = 0; i < warmup; ++i)
        work(arg);
    tut_timing t = tut_time_gpu(run_batch, &b, 0, batches);
    t.median_ms /= calls;
    t.min_ms /= calls;
    t.max_ms /= calls;
    return t;
}
