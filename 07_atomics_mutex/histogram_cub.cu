/* The library reference: cub::DeviceHistogram::HistogramEven with 128 bins of width 1 over
 * [0, 128), which is exactly the document's histogram (samples >= 128 fall outside every bin
 * and are ignored). CUB is C++; its use stays in this file. */
#include <cub/device/device_histogram.cuh>

#include "histogram.h"
#include "tutorial.h"

static void cub_call(void *temp, size_t *temp_bytes, const unsigned char *text, int *counts,
                     size_t n)
{
    /* 129 levels make 128 bins [0,1), [1,2), ... [127,128). */
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, text, counts,
                                                   TEXT_BINS + 1, 0, TEXT_BINS, (int)n));
}

void histogram_cub_create(histogram_cub_plan *plan, const unsigned char *text, size_t n)
{
    if (n > (size_t)0x7FFFFFFF) { /* its sample count is an int here, and so are its bins */
        fprintf(stderr, "histogram_cub: n = %zu is too large for int counters\n", n);
        exit(2);
    }
    plan->text = text;
    plan->n = n;
    plan->temp = NULL;
    plan->temp_bytes = 0;
    plan->counts = (int *)tut_device_alloc(TEXT_BINS * sizeof(int), "CUB histogram bins");
    cub_call(NULL, &plan->temp_bytes, text, plan->counts, n); /* asks for the temp size */
    plan->temp = tut_device_alloc(plan->temp_bytes > 0 ? plan->temp_bytes : 1, "CUB temp");
}

void histogram_cub_run(const histogram_cub_plan *plan)
{
    size_t bytes = plan->temp_bytes;
    cub_call(plan->temp, &bytes, plan->text, plan->counts, plan->n);
    LAUNCH_CHECK();
}

void histogram_cub_destroy(histogram_cub_plan *plan)
{
    tut_device_free(plan->temp);
    tut_device_free(plan->counts);
    plan->temp = NULL;
    plan->counts = NULL;
}
