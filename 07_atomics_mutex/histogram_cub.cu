/* The library reference: cub::DeviceHistogram::HistogramEven with 128 bins of width 1 over
 * [0, 128), which is exactly the document's histogram (samples >= 128 fall outside every bin
 * and are ignored). CUB is C++; its use stays in this file.
 *
 * CUB's sample count is an int, so a text of more than INT_MAX bytes is counted in chunks of
 * 1 GiB, each into its own 128 int bins (no bin of a chunk can overflow); the host adds the
 * chunks up when it reads them back, outside any timing. */
#include <cub/device/device_histogram.cuh>

#include "histogram.h"
#include "tutorial.h"

/* One call over at most INT_MAX bytes: CUB's sample count is an int. */
static void cub_call(void *temp, size_t *temp_bytes, const unsigned char *text, int *counts,
                     size_t n)
{
    /* 129 levels make 128 bins [0,1), [1,2), ... [127,128). */
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, text, counts,
                                                   TEXT_BINS + 1, 0, TEXT_BINS, (int)n));
}

static size_t chunk_length(const histogram_cub_plan *plan, size_t c)
{
    const size_t start = c * plan->chunk_bytes;
    return plan->n - start < plan->chunk_bytes ? plan->n - start : plan->chunk_bytes;
}

void histogram_cub_create(histogram_cub_plan *plan, const unsigned char *text, size_t n)
{
    plan->text = text;
    plan->n = n;
    plan->chunks = histogram_cub_chunks(n, &plan->chunk_bytes);
    plan->counts = (int *)tut_device_alloc(
        tut_bytes(plan->chunks > 0 ? plan->chunks : 1, TEXT_BINS * sizeof(int), "CUB bins"),
        "CUB histogram bins");
    /* Temporary storage enough for every chunk (the last one may be shorter). */
    plan->temp_bytes = 0;
    for (size_t c = 0; c < plan->chunks; ++c) {
        size_t bytes = 0;
        cub_call(NULL, &bytes, text, plan->counts, chunk_length(plan, c));
        plan->temp_bytes = bytes > plan->temp_bytes ? bytes : plan->temp_bytes;
    }
    plan->temp = tut_device_alloc(plan->temp_bytes > 0 ? plan->temp_bytes : 1, "CUB temp");
}

void histogram_cub_run(const histogram_cub_plan *plan)
{
    for (size_t c = 0; c < plan->chunks; ++c) {
        size_t bytes = plan->temp_bytes;
        cub_call(plan->temp, &bytes, plan->text + c * plan->chunk_bytes,
                 plan->counts + c * TEXT_BINS, chunk_length(plan, c));
        LAUNCH_CHECK();
    }
}

void histogram_cub_read(const histogram_cub_plan *plan, unsigned long long bins[TEXT_BINS])
{
    const size_t count = (plan->chunks > 0 ? plan->chunks : 1) * TEXT_BINS;
    int *counts = (int *)tut_host_alloc(count * sizeof(int), "CUB bins");
    CUDA_CHECK(cudaMemcpy(counts, plan->counts, count * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < TEXT_BINS; ++b) {
        bins[b] = 0;
        /* A negative count (never written: the poison) stays visible as a huge one. */
        for (size_t c = 0; c < plan->chunks; ++c)
            bins[b] += (unsigned long long)(long long)counts[c * TEXT_BINS + b];
    }
    free(counts);
}

void histogram_cub_destroy(histogram_cub_plan *plan)
{
    tut_device_free(plan->temp);
    tut_device_free(plan->counts);
    plan->temp = NULL;
    plan->counts = NULL;
}
