/* EXERCISE ex03.1 (session starts as a map; docs/03_sessionize_exercises.md): write the body of
 * session_start_kernel below; the rest is complete. Keep the kernel's name and parameters (they
 * are declared in session_starts.h): the grader, tests/grade_ex1_starts.cu, also launches it
 * itself on grids of its own.
 * Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex03.1
 *
 * The session starts as a map: one thread per event, each deciding from its event and the one
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
    /* TODO (ex03.1): for every event i < n, start[i] = i if event i starts a session, else 0.
     * The grid has fewer threads than events for a long input (one full wave of blocks): each
     * thread takes i = its global index, then i + the grid's size, ... (int64_t indices).
     * The rule is in session_boundary.h: event 0 starts a session; event i > 0 does when its user
     * differs from event i - 1's or when the gap ts[i] - ts[i-1] exceeds the timeout. Read why
     * the header never computes ts[i] - ts[i-1]: the grader's timestamps go from INT64_MIN to
     * INT64_MAX. */
    (void)user;
    (void)ts;
    (void)n;
    (void)timeout;
    (void)start;
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
