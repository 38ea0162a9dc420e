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
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

__global__ void vecadd_f32x4_kernel(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, size_t n)
{
    const float4 *a4 = (const float4 *)a;
    const float4 *b4 = (const float4 *)b;
    float4 *c4 = (float4 *)c;
    const size_t n4 = n / 4;
    const size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;

    for (size_t i = thread; i < n4; i += stride) {
        const float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    /* The last n % 4 elements (0 to 3 of them): one thread each. */
    const size_t tail = 4 * n4 + thread;
    if (tail < n)
        c[tail] = a[tail] + b[tail];
}
