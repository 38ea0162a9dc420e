/* Exercise ex01.5, SAXPY, in place, on a stream (docs/01_vecadd_exercises.md).
 * Write the kernel, then its launcher. Grade it (rebuilds, runs its grader, prints its line; the
 * loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex01.5
 * The grader checks every element of y and 256 bytes on each side of it, which must stay
 * untouched. */
#include "saxpy.h"

#include "check.h"

__global__ void saxpy_kernel(float a, const float *__restrict__ x, float *__restrict__ y,
                             size_t n)
{
    /* TODO (ex01.5): one thread per element: y[i] = a * x[i] + y[i] at this thread's global
     * index i (a size_t: widen before multiplying), only where i < n. */
}

void saxpy(float a, const float *x, float *y, size_t n, cudaStream_t stream)
{
    /* TODO (ex01.5): launch saxpy_kernel on `stream` (the launch's fourth parameter) with
     * blocks of 256 threads, enough of them for n elements, none for n = 0; then LAUNCH_CHECK().
     * Do not wait for it: the caller does. */
    (void)a;
    (void)x;
    (void)y;
    (void)n;
    (void)stream;
}
