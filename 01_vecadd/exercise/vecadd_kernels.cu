/* Exercises 01.1 and 01.2: the grid-stride loop and the float4 kernel
 * (docs/01_vecadd_exercises.md). The two one-thread-per-element kernels are written: read them
 * first. Grade each (rebuilds, runs its grader, prints its line; the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex01.1
 *     cmake --build build-exercises --target ex01.2
 * The graders poison the output (NaN) and check every element and a canary past the end, so an
 * element nobody writes, or one written past n, is caught. */
#include "vecadd_kernels.h"

__global__ void vecadd_f64_kernel(const double *__restrict__ a, const double *__restrict__ b,
                                  double *__restrict__ c, size_t n)
{
    /* Widen before multiplying: blockIdx.x * blockDim.x in 32-bit overflows past 2^32 threads. */
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void vecadd_f32_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void vecadd_f32_grid_stride_kernel(const float *__restrict__ a,
                                              const float *__restrict__ b,
                                              float *__restrict__ c, size_t n)
{
    /* TODO (ex01.1): a grid-stride loop. Start at this thread's global index (a size_t, as
     * above), step by the number of threads in the whole grid (gridDim.x * blockDim.x), stop
     * at n. The grader launches anything from 1 block of 32 threads to more threads than
     * elements, so a single `if` is not enough. */
}

__global__ void vecadd_f32x4_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, size_t n)
{
    /* TODO (ex01.2): view a, b, c as float4 arrays (cudaMalloc aligns them to 256 bytes) and run
     * the grid-stride loop over the n / 4 whole float4s, adding component by component
     * (make_float4); then let the first n % 4 threads of the grid add the last n % 4 floats one
     * by one. Try n = 1, 2, 3, 5 in your head: which thread adds which element? */
}
