/* The per-chunk kernels: the document's vector add, and the same add followed by `work` rounds
 * of integer mixing, a knob that makes the kernel as long as the copies (reference.h says what
 * it computes). */
#ifndef STREAMS_KERNELS_H
#define STREAMS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

/* Chooses each kernel's block size from the current GPU's limits and the kernel's registers
 * (chunk_kernel_threads in plan.h) and says so. Call once, after tut_select_device. */
void chunk_kernels_configure(void);

/* out[i] = mix^work(x[i] + y[i]) for i < count, on `stream`; checked launch. */
void launch_chunk_kernel(const int32_t *x, const int32_t *y, int32_t *out, size_t count,
                         unsigned work, cudaStream_t stream);

#endif
