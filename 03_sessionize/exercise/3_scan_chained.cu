/* EXERCISE ex03.2 (the warp max-scan with shuffles; docs/03_sessionize_exercises.md), skeleton
 * of 3_scan_chained.cu: write warp_max_scan() below; the grader is tests/grade_ex2_warp_scan.cu.
 * The rest of variant 3 (tiles, block combine, chained look-back) is in scan_chained_kernel.cuh,
 * complete: read it. Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex03.2 */
#include "scan_chained_kernel.cuh"

/* EXERCISE: inclusive max-scan across the 32 lanes of a warp.
 *
 * Lane k must return the max of the values of lanes 0..k. Example, 8 lanes shown:
 *     in:  0  0  2  0  0  5  0  0        (session starts at events 2 and 5)
 *     out: 0  0  2  2  2  5  5  5
 * Hints: __shfl_up_sync(FULL_WARP, value, d) returns the value of lane (k - d); lanes k < d get
 * their own value back, so they must not use it. Five steps (d = 1, 2, 4, 8, 16) are enough.
 * Why is 0 a safe "no start" value here? (docs/03_sessionize.md, Question 1). */
__device__ static int64_t warp_max_scan(int64_t value)
{
    /* TODO (ex03.2): replace this line with the scan. As written, each lane keeps its own value,
     * so every event after a session start inside the row gets a wrong label. */
    return value;
}
