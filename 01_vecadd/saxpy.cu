/* Exercise ex01.5, SAXPY, in place, on a stream (docs/01_vecadd_exercises.md).
 * The solution. */
#include "saxpy.h"

#include "check.h"

__global__ void saxpy_kernel(float a, const float *__restrict__ x, float *__restrict__ y,
                             size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

void saxpy(float a, const float *x, float *y, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return; /* a grid of 0 blocks is a launch error */
    const unsigned threads = 256;
    const size_t blocks = (n + threads - 1) / threads;
    saxpy_kernel<<<(unsigned)blocks, threads, 0, stream>>>(a, x, y, n);
    LAUNCH_CHECK();
}
