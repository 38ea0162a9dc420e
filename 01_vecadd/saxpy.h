/* Exercise ex01.5, SAXPY, in place, on a stream (docs/01_vecadd_exercises.md):
 * y[i] = a * x[i] + y[i] for 0 <= i < n (BLAS's "single-precision a times x plus y"), in place,
 * by a kernel of one thread per element and a launcher that queues it on a stream. */
#ifndef EX01_5_SAXPY_H
#define EX01_5_SAXPY_H

#include <stddef.h>

#include <cuda_runtime.h>

/* One thread per element; the threads past n do nothing. */
__global__ void saxpy_kernel(float a, const float *x, float *y, size_t n);

/* Queues saxpy_kernel on `stream` with enough blocks of 256 threads for n elements (nothing
 * for n = 0) and returns without waiting. */
void saxpy(float a, const float *x, float *y, size_t n, cudaStream_t stream);

#endif
