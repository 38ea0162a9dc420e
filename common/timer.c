/* clock_gettime and CLOCK_MONOTONIC are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "timer.h"

#include <stdlib.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "memory.h"

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
