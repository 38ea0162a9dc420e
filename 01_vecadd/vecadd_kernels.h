/* The vector-add kernels of chapter 01, from the simplest to the one that reaches the memory
 * ceiling. Each computes c[i] = a[i] + b[i] for 0 <= i < n. */
#ifndef VECADD_KERNELS_H
#define VECADD_KERNELS_H

#include <stddef.h>

/* One thread per element; threads past the end do nothing (the `if (i < n)` guard). */
__global__ void vecadd_f64_kernel(const double *a, const double *b, double *c, size_t n);
__global__ void vecadd_f32_kernel(const float *a, const float *b, float *c, size_t n);

/* Any grid size works: each thread strides through the vector by the grid's thread count. */
__global__ void vecadd_f32_grid_stride_kernel(const float *a, const float *b, float *c, size_t n);

/* Grid-stride over 16-byte float4s (one load instruction moves 4 floats), then the n % 4 tail.
 * Needs a, b, c 16-byte aligned, which cudaMalloc guarantees (it aligns to 256 bytes). */
__global__ void vecadd_f32x4_kernel(const float *a, const float *b, float *c, size_t n);

#endif
