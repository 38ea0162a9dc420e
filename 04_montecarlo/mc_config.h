/* The launch configurations of chapter 04, chosen from the GPU's limits (common/device.h), never
 * from one GPU's numbers. Pure C functions of a tut_device_info and a kernel's registers and
 * static shared memory, so the CPU test (mc_cpu_test config) checks every choice on every GPU of
 * common/gpu_table.h, and TUT_EMULATE_GPU=T4 makes the program choose what a T4 would.
 *
 *   fused kernel      a persistent grid: as many blocks per SM as fit (or fewer, if asked), on
 *                     every SM, never more blocks than there are streams
 *   reduce_values     one full wave of blocks (grid-stride over the values)
 *   reduce_partials   one block, as many threads (a multiple of 32, at most 1024) as fit
 *   multiply ceiling  one full wave, like the fused kernel */
#ifndef MC_CONFIG_H
#define MC_CONFIG_H

#include <stddef.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MC_FUSED_THREADS 256
#define MC_REDUCE_THREADS 256
#define MC_STATES_THREADS 256
#define MC_CEILING_THREADS 256
#define MC_PARTIALS_MAX_THREADS 1024 /* mc_block_sum: at most 32 warps */
#define MC_CURAND_STATE_BYTES 48     /* sizeof(curandState), XORWOW: 1_curand_states.cu checks */

typedef struct {
    int threads;       /* per block */
    int blocks_per_sm; /* blocks that share an SM; 0: one does not fit */
    long long blocks;  /* the grid; 0 when the kernel cannot run here (why[] says why) */
    const char *limiter;
    char why[160];
} mc_launch;

/* The most blocks of `threads` threads that fit an SM (0: none), and what limits it. */
mc_launch mc_full_wave(const tut_device_info *dev, int threads, int regs_per_thread,
                       size_t static_shared);

/* The fused kernel for `samples`: `requested` blocks per SM (<= 0: as many as fit; more than fit:
 * as many as fit), on every SM, capped at one thread per stream. */
mc_launch mc_fused_launch(const tut_device_info *dev, int regs_per_thread, size_t static_shared,
                          int requested_per_sm, unsigned long long samples);

/* The benchmark's blocks-per-SM sweep for the fused kernel: 1, 2, 3, 4 and the most that fit,
 * those that fit, each once, ascending. Returns the count (at most 5); *skipped gets how many of
 * 1, 2, 3, 4 did not fit (the program notes each). */
int mc_fused_sweep(int max_per_sm, int entries[5], int *skipped);

/* Threads of the one block that adds the partial sums: the largest multiple of the warp size,
 * at most MC_PARTIALS_MAX_THREADS, that fits. 0 if not even one warp fits. */
int mc_partials_threads(const tut_device_info *dev, int regs_per_thread, size_t static_shared);

/* Device bytes of each variant, for the sweep entries and the limits below. */
size_t mc_library_bytes(unsigned long long chunk, unsigned long long samples);
size_t mc_states_bytes(unsigned long long n);

/* The samples of the benchmark's variant-1 run (one curand state each): 2^24, or fewer where
 * that does not fit in `memory` bytes with `spare` to spare (0 if 2^16 do not fit). */
unsigned long long mc_states_bench_samples(size_t memory, size_t spare);

#ifdef __cplusplus
}
#endif

#endif
