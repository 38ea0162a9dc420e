/* How many blocks of a kernel fit on one SM, computed from the device's limits (device.h).
 *
 * The CUDA runtime answers this too (cudaOccupancyMaxActiveBlocksPerMultiprocessor), but only
 * for the GPU in the machine. Computing it from tut_device_info lets the same code choose for an
 * emulated GPU (TUT_EMULATE_GPU) and lets CPU tests check a chapter's choices on every GPU of
 * gpu_table.h. A GPU test checks that both agree on the real device.
 *
 *   tut_kernel_use use = tut_kernel_use_of((const void *)my_kernel, 256, dynamic_bytes);
 *   int per_sm = tut_blocks_per_sm(tut_current_device(), use);   // 0: does not fit
 */
#ifndef TUTORIAL_OCCUPANCY_H
#define TUTORIAL_OCCUPANCY_H

#include <stddef.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one block of a kernel asks of an SM. */
typedef struct {
    int threads;           /* threads per block */
    int regs_per_thread;   /* from the compiler (cudaFuncGetAttributes: numRegs) */
    size_t static_shared;  /* __shared__ arrays */
    size_t dynamic_shared; /* the third launch parameter */
} tut_kernel_use;

/* Blocks of that kernel one SM holds at once, limited by threads, blocks, registers and shared
 * memory; 0 if one block does not fit at all. */
int tut_blocks_per_sm(const tut_device_info *dev, tut_kernel_use use);

/* 1 if one block fits; else 0 with the limit it exceeds in why[] ("needs 66564 bytes of shared
 * memory; a T4 block can have at most 65536"). */
int tut_kernel_fits(const tut_device_info *dev, tut_kernel_use use, char *why, size_t len);

/* Which limit decides tut_blocks_per_sm: "threads", "blocks", "registers", "shared memory". */
const char *tut_occupancy_limiter(const tut_device_info *dev, tut_kernel_use use);

/* The block size, a multiple of the warp size up to max_threads (and the GPU's limit), that keeps
 * the most threads of the kernel resident on an SM; the largest of equals (use.threads is
 * ignored). What cudaOccupancyMaxPotentialBlockSize answers for the real GPU, computed from dev's
 * limits so that emulation and the CPU tests see it too. 0 only if not even one warp fits. */
int tut_best_block_size(const tut_device_info *dev, tut_kernel_use use, int max_threads);

/* The use of a compiled kernel (registers and static shared memory asked of the runtime). */
tut_kernel_use tut_kernel_use_of(const void *kernel, int threads, size_t dynamic_shared);

/* The blocks of `kernel` (`threads` each) that fill every SM of the current device once: one
 * wave, blocks per SM x SMs, from the (possibly emulated) limits. Exits with a message naming
 * `name` if one block does not fit at all. */
int tut_full_wave_blocks(const void *kernel, const char *name, int threads, size_t dynamic_shared);

/* Lets `kernel` ask for `bytes` of dynamic shared memory (above 48 KiB this must be requested).
 * Returns 0, with the reason in why[], if bytes exceed the (possibly emulated) opt-in limit. */
int tut_allow_dynamic_shared(const void *kernel, size_t bytes, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif
