/* The session starts as a map: one thread per event, each deciding from its event and the one
 * before whether a session starts there (session_boundary.h). The label of event i is then the
 * largest start value at or before i: the max-scan of 2_scan_cub.cu and 3_scan_chained.cu, which
 * compute these values on the fly as they read the events. */

#include "session_boundary.h"
#include "session_starts.h"
#include "tutorial.h"

#define START_THREADS 256

__global__ void session_start_kernel(const int64_t *__restrict__ user,
                                     const int64_t *__restrict__ ts, int64_t n, int64_t timeout,
                                     int64_t *__restrict__ start)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        start[i] = session_starts_at(user, ts, i, timeout) ? i : 0;
}

/* One full wave of blocks (as many as this GPU's SMs hold at once), or fewer for a short input;
 * the grid-stride loop covers the rest. */
void session_start_values_gpu(const int64_t *user, const int64_t *ts, int64_t n,
                              int64_t timeout, int64_t *start)
{
    if (n <= 0)
        return;
    static int64_t wave = 0;
    if (wave == 0)
        wave = tut_full_wave_blocks((const void *)session_start_kernel, "session_start_kernel",
                                    START_THREADS, 0);
    const int64_t needed = (n + START_THREADS - 1) / START_THREADS;
    const int64_t blocks = needed < wave ? needed : wave;
    session_start_kernel<<<(unsigned)blocks, START_THREADS>>>(user, ts, n, timeout, start);
    LAUNCH_CHECK();
}
