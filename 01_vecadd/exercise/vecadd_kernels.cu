/* Exercise: write the vector-add kernels. Build and grade with
 *     cmake --workflow --preset exercises
 * The tests of chapter 01 fail until every TODO is done (the outputs are poisoned with NaN
 * before each launch, so an element nobody writes is caught). */
#include "vecadd_kernels.h"

__global__ void vecadd_f64_kernel(const double *__restrict__ a, const double *__restrict__ b,
                                  double *__restrict__ c, size_t n)
{
    /* TODO 1: compute this thread's global index i from blockIdx.x, blockDim.x and threadIdx.x
     * (as a size_t, so that it cannot overflow), and if i < n set c[i] = a[i] + b[i]. */
}

__global__ void vecadd_f32_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, size_t n)
{
    /* TODO 2: the same for float. */
}

__global__ void vecadd_f32_grid_stride_kernel(const float *__restrict__ a,
                                              const float *__restrict__ b,
                                              float *__restrict__ c, size_t n)
{
    /* TODO 3: a grid-stride loop: start at the global index, step by the number of threads in
     * the whole grid (gridDim.x * blockDim.x), stop at n. The launch uses far fewer threads
     * than elements, so a single `if` is not enough. */
}

__global__ void vecadd_f32x4_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, size_t n)
{
    /* TODO 4 (harder): view a, b, c as float4 arrays and run the grid-stride loop over the
     * n / 4 whole float4s, adding component by component; then let the first n % 4 threads of
     * the grid handle the leftover floats at the end one by one. Try n = 1, 2, 3, 5. */
}
