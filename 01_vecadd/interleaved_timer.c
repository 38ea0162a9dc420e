#include "interleaved_timer.h"

#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "memory.h"

void time_interleaved(const timed_job *jobs, int count, int warmup, int batch, int rounds,
                      tut_timing *out)
{
    if (batch < 1)
        batch = 1;
    if (rounds < 1)
        rounds = 1;
    for (int j = 0; j < count; ++j)
        for (int w = 0; w < warmup; ++w)
            jobs[j].work(jobs[j].arg);
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double *ms = (double *)tut_host_alloc(tut_bytes((size_t)count * (size_t)rounds,
                                                    sizeof(double), "timings"), "timings");
    for (int r = 0; r < rounds; ++r) {
        for (int j = 0; j < count; ++j) {
            CUDA_CHECK(cudaEventRecord(start, 0));
            for (int b = 0; b < batch; ++b)
                jobs[j].work(jobs[j].arg);
            CUDA_CHECK(cudaEventRecord(stop, 0));
            CUDA_CHECK(cudaEventSynchronize(stop));
            float elapsed = 0.0f;
            CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
            ms[(size_t)j * (size_t)rounds + (size_t)r] = elapsed / batch;
        }
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));

    for (int j = 0; j < count; ++j) {
        double *mine = ms + (size_t)j * (size_t)rounds;
        out[j].reps = rounds;
        out[j].median_ms = tut_median(mine, rounds); /* sorts */
        out[j].min_ms = mine[0];
        out[j].max_ms = mine[rounds - 1];
    }
    free(ms);
}
