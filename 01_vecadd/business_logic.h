/* The document's "business logic": one function, compiled for both the CPU and the GPU.
 * __host__ __device__ asks nvcc for both versions; a plain C compiler sees an ordinary function. */
#ifndef VECADD_BUSINESS_LOGIC_H
#define VECADD_BUSINESS_LOGIC_H

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#define VECADD_PI 3.14159265358979323846

/* 4 z (2x - (4y)/2 pi), evaluated left to right as Python does: ((4y)/2) * pi. */
static inline HOST_DEVICE double business_logic(double x, double y, double z)
{
    return 4.0 * z * (2.0 * x - (4.0 * y) / 2.0 * VECADD_PI);
}

#endif
