#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include "reference.h"
#include "tutorial.h"

#define THREADS_PER_BLOCK 256

/* One thread per element. Unsigned arithmetic: wrapping is defined, as on the CPU. */
__global__ void add_kernel(const int32_t *x, const int32_t *y, int32_t *out, size_t count)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = (int32_t)((uint32_t)x[i] + (uint32_t)y[i]);
}

/* The multiplier and increment arrive as arguments, not constants, so the compiler cannot fold
 * unrolled rounds together: each round is one dependent integer multiply-add per element. */
__global__ void add_mix_kernel(const int32_t *x, const int32_t *y, int32_t *out, size_t count,
                               unsigned work, uint32_t mul, uint32_t add)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        uint32_t v = (uint32_t)x[i] + (uint32_t)y[i];
        for (unsigned w = 0; w < work; ++w)
            v = v * mul + add;
        out[i] = (int32_t)v;
    }
}

void launch_chunk_kernel(const int32_t *x, const int32_t *y, int32_t *out, size_t count,
                         unsigned work, cudaStream_t stream)
{
    const size_t blocks = (count + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    if (blocks > 0x7fffffffu) { /* grid.x limit; needs over 5e11 elements */
        fprintf(stderr, "error: %zu elements in one chunk are too many for one launch\n", count);
        exit(2);
    }
    if (work == 0)
        add_kernel<<<(unsigned)blocks, THREADS_PER_BLOCK, 0, stream>>>(x, y, out, count);
    else
        add_mix_kernel<<<(unsigned)blocks, THREADS_PER_BLOCK, 0, stream>>>(x, y, out, count, work,
                                                                           MIX_MUL, MIX_ADD);
    LAUNCH_CHECK();
}
