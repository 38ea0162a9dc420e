/* The launch configurations vecadd picks, from a GPU's limits and what the compiler gave each
 * kernel. Plain C (static inline): vecadd calls these with tut_current_device(), and the CPU test
 * tests/test_gpu_configs.c calls them with every GPU of common/gpu_table.h, so the choice a
 * student sees under TUT_EMULATE_GPU=T4 is the one the test checked for a T4.
 *
 *   kernel_resources k = kernel_resources_of(...);        // vecadd.cu, from the runtime
 *   launch_config c = one_wave_config(dev, k, n);          // c.blocks x c.threads
 *
 * "Resident" below means on an SM at the same time; the occupancy calculator (common/occupancy.h)
 * says how many blocks of a kernel fit, from the GPU's limits on threads, blocks, registers and
 * shared memory. */
#ifndef VECADD_LAUNCH_CONFIG_H
#define VECADD_LAUNCH_CONFIG_H

#include <stddef.h>

#include "launch_math.h"
#include "occupancy.h"

/* The document's manual launch: 256 threads per block, a number it simply chose. */
#define DOCUMENT_THREADS 256u

/* The largest block the streaming kernels use. A memory-bound kernel gains nothing from bigger
 * blocks; 256 fills an SM of every GPU in the table (1024, 1536 and 2048 threads are all
 * multiples of it), where 1024-thread blocks would leave a third of a 1536-thread SM empty. */
#define STREAMING_MAX_THREADS 256u

/* What one thread of a kernel asks of an SM besides itself (cudaFuncGetAttributes). */
typedef struct {
    int regs_per_thread;
    size_t static_shared;
} kernel_resources;

typedef struct {
    unsigned threads;  /* per block */
    size_t blocks;     /* in the grid */
    int blocks_per_sm; /* resident at once: the occupancy calculator's answer */
} launch_config;

/* Blocks of `threads` threads resident on one SM (0: one block does not fit). */
static inline int resident_blocks(const tut_device_info *dev, kernel_resources k,
                                  unsigned threads)
{
    tut_kernel_use use; /* no designated initialisers: vecadd.cu includes this as C++ */
    use.threads = (int)threads;
    use.regs_per_thread = k.regs_per_thread;
    use.static_shared = k.static_shared;
    use.dynamic_shared = 0;
    return tut_blocks_per_sm(dev, use);
}

/* The block size up to max_threads that keeps the most threads resident (occupancy.h). */
static inline unsigned best_block_size(const tut_device_info *dev, kernel_resources k,
                                       unsigned max_threads)
{
    tut_kernel_use use; /* no designated initialisers: vecadd.cu includes this as C++ */
    use.threads = 0;
    use.regs_per_thread = k.regs_per_thread;
    use.static_shared = k.static_shared;
    use.dynamic_shared = 0;
    return (unsigned)tut_best_block_size(dev, use, (int)max_threads);
}

static inline launch_config config_covering(const tut_device_info *dev, kernel_resources k,
                                            unsigned threads, size_t n)
{
    launch_config c = {threads, threads ? blocks_to_cover(n, threads) : 0,
                       threads ? resident_blocks(dev, k, threads) : 0};
    return c;
}

/* The document's manual launch, 256 threads per block over n; where a block of 256 does not
 * fit the GPU (none in the table), the calculator's best instead (c.threads says which). */
static inline launch_config manual_config(const tut_device_info *dev, kernel_resources k,
                                          size_t n)
{
    const unsigned threads = resident_blocks(dev, k, DOCUMENT_THREADS) > 0
                                 ? DOCUMENT_THREADS
                                 : best_block_size(dev, k, (unsigned)dev->max_threads_per_block);
    return config_covering(dev, k, threads, n);
}

/* Numba's forall(): the calculator's best block size, and enough blocks to cover n. */
static inline launch_config forall_config(const tut_device_info *dev, kernel_resources k,
                                          size_t n)
{
    return config_covering(dev, k,
                           best_block_size(dev, k, (unsigned)dev->max_threads_per_block), n);
}

/* One thread per element, in streaming-sized blocks. */
static inline launch_config one_per_thread_config(const tut_device_info *dev, kernel_resources k,
                                                  size_t n)
{
    return config_covering(dev, k, best_block_size(dev, k, STREAMING_MAX_THREADS), n);
}

/* A grid-stride kernel over `items` work items: one wave, as many blocks as every SM holds at
 * once (fewer if there is not that much work), in blocks of the size that keeps the most threads
 * resident up to STREAMING_MAX_THREADS. 0 blocks only if not even one warp fits. In one_wave.c:
 * exercise 01.3 (docs/01_vecadd_exercises.md). */
#ifdef __cplusplus
extern "C"
#endif
launch_config one_wave_config(const tut_device_info *dev, kernel_resources k, size_t items);

/* The float4 kernel's work items: one per whole float4, and at least one thread per tail element. */
static inline size_t float4_items(size_t n)
{
    return float4_count(n) + float4_tail(n);
}

#endif
