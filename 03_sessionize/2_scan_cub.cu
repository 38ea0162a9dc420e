/* Variant 2: sessions as a scan, with the library a user would reach for.
 *
 * Give each event the value "its own index if it starts a session, else 0". The label of event i
 * is the largest such value at or before i: an inclusive scan with max, O(n) work, O(log n)
 * depth, and no thread walks a session. Because indices grow, max(...) is "the latest session
 * start so far"; 0 is max's identity here because every label is >= 0 and event 0 always
 * starts a session.
 *
 * The values are never stored: a transform iterator computes them from user/ts as CUB's single-
 * pass scan reads them. One pass over the data: 16 bytes read and 8 written per event (the
 * neighbour i-1 that the boundary test reads comes from cache). */
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "session_boundary.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

/* C++ only where CUB needs it: a function object for the iterator and one for the scan. */
struct session_start_value {
    const int64_t *user, *ts;
    int64_t timeout;
    __host__ __device__ int64_t operator()(int64_t i) const
    {
        return session_starts_at(user, ts, i, timeout) ? i : 0;
    }
};

struct max_of {
    __host__ __device__ int64_t operator()(int64_t a, int64_t b) const { return a > b ? a : b; }
};

typedef thrust::transform_iterator<session_start_value, thrust::counting_iterator<int64_t>,
                                   int64_t>
    session_start_iterator;

static session_start_iterator start_values(const session_job *job)
{
    session_start_value f = {job->user, job->ts, job->timeout};
    return session_start_iterator(thrust::counting_iterator<int64_t>(0), f);
}

static size_t cub_temp_bytes(int64_t n)
{
    session_job shape = {NULL, NULL, n, 0, NULL, NULL};
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveScan(NULL, bytes, start_values(&shape), (int64_t *)NULL,
                                              max_of(), n));
    return bytes;
}

static void cub_run(const session_job *job)
{
    size_t bytes = cub_temp_bytes(job->n);
    CUDA_CHECK(cub::DeviceScan::InclusiveScan(job->temp, bytes, start_values(job), job->label,
                                              max_of(), job->n));
    LAUNCH_CHECK();
}

const session_variant cub_scan_variant = {"cub", cub_temp_bytes, cub_run};
