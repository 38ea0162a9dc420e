#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include "plan.h"
#include "reference.h"
#include "tutorial.h"

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

/* Threads per block of each kernel, chosen by chunk_kernels_configure. */
static unsigned add_threads, mix_threads;

static unsigned threads_for(const void *kernel, const char *name)
{
    const tut_device_info *dev = tut_current_device();
    const tut_kernel_use use = tut_kernel_use_of(kernel, 1, 0);
    const unsigned threads = chunk_kernel_threads(dev, use.regs_per_thread, use.static_shared);
    if (threads == 0) {
        fprintf(stderr, "error: not one warp of %s fits an SM of %s\n", name, dev->name);
        exit(2);
    }
    tut_kernel_use sized = use;
    sized.threads = (int)threads;
    printf("  %-15s %3u threads per block (%d registers per thread; %d blocks = %d of %d "
           "threads per SM resident)\n", name, threads, use.regs_per_thread,
           tut_blocks_per_sm(dev, sized), tut_blocks_per_sm(dev, sized) * (int)threads,
           dev->max_threads_per_sm);
    return threads;
}

void chunk_kernels_configure(void)
{
    add_threads = threads_for((const void *)add_kernel, "add_kernel");
    mix_threads = threads_for((const void *)add_mix_kernel, "add_mix_kernel");
}

void launch_chunk_kernel(const int32_t *x, const int32_t *y, int32_t *out, size_t count,
                         unsigned work, cudaStream_t stream)
{
    if (add_threads == 0)
        chunk_kernels_configure();
    const unsigned threads = work == 0 ? add_threads : mix_threads;
    const size_t blocks = (count + threads - 1) / threads;
    if (blocks > 0x7fffffffu) { /* grid.x limit; needs over 5e11 elements */
        fprintf(stderr, "error: %zu elements in one chunk are too many for one launch\n", count);
        exit(2);
    }
    if (work == 0)
        add_kernel<<<(unsigned)blocks, threads, 0, stream>>>(x, y, out, count);
    else
        add_mix_kernel<<<(unsigned)blocks, threads, 0, stream>>>(x, y, out, count, work, MIX_MUL,
                                                                 MIX_ADD);
    LAUNCH_CHECK();
}
