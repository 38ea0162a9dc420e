/* The launch configurations of chapter 03, chosen from the GPU's limits (common/device.h), never
 * from one GPU's numbers. Pure C functions of a tut_device_info and the kernel's register count
 * and static shared memory, so the CPU test (test_sessionize_config.c) checks them on every GPU
 * of common/gpu_table.h, and TUT_EMULATE_GPU=T4 makes the program choose what a T4 would.
 *
 *   cooperative   the largest grid that is co-resident: blocks per SM x SMs (a grid sync needs
 *                 every block on the GPU at once)
 *   chained scan  one block per tile of CHAINED_TILE events, whatever the GPU; its
 *                 __launch_bounds__ ask for CHAINED_MIN_BLOCKS blocks per SM
 *   single pass   the same, tiles of SINGLE_PASS_TILE events, SINGLE_PASS_MIN_BLOCKS per SM
 *   grid-stride   the sort's helpers: enough blocks to fill every SM, fewer when n needs fewer */
#ifndef SESSIONIZE_CONFIG_H
#define SESSIONIZE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COOPERATIVE_THREADS 256
#define CHAINED_THREADS 256
#define CHAINED_ITEMS 8 /* rows of 32 events per warp */
#define CHAINED_TILE (CHAINED_THREADS * CHAINED_ITEMS)
#define CHAINED_MIN_BLOCKS 3 /* __launch_bounds__: while one block looks back, others load */
#define GRID_STRIDE_THREADS 256
/* The single-pass kernel (4_single_pass.cu): 16-byte loads of event pairs, rows of 64 events. */
#ifndef SINGLE_PASS_THREADS /* (the -D overrides are for tuning sweeps only) */
#define SINGLE_PASS_THREADS 256
#endif
#ifndef SINGLE_PASS_ROWS
#define SINGLE_PASS_ROWS 4 /* rows of 64 events (32 lanes x a pair) per warp */
#endif
#ifndef SINGLE_PASS_MIN_BLOCKS
#define SINGLE_PASS_MIN_BLOCKS 4 /* __launch_bounds__: blocks in other phases keep loads going */
#endif
#define SINGLE_PASS_TILE (SINGLE_PASS_THREADS * 2 * SINGLE_PASS_ROWS)

typedef struct {
    int threads;         /* per block */
    int blocks_per_sm;   /* blocks of this kernel one SM holds at once; 0: one does not fit */
    int64_t blocks;      /* the grid; 0 when the kernel cannot run here (why[] says why) */
    const char *limiter; /* what bounds blocks_per_sm: "threads", "registers", ... */
    char why[160];
} session_launch;

/* The cooperative kernel (1_cooperative.cu): every SM holds as many blocks as fit. */
session_launch cooperative_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                       size_t static_shared);

/* The chained scan (scan_chained_kernel.cuh) over n events: one block per tile. */
session_launch chained_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                   size_t static_shared, int64_t n);

/* The single-pass kernel (4_single_pass.cu) over n events: one block per tile. */
session_launch single_pass_launch_plan(const tut_device_info *dev, int regs_per_thread,
                                       size_t static_shared, int64_t n);

/* A grid-stride kernel over n items (sort_events.cu). */
session_launch grid_stride_plan(const tut_device_info *dev, int regs_per_thread,
                                size_t static_shared, int64_t n);

/* Device bytes `sessionize --bench` needs for sizes up to max_n (events, labels, the memcpy
 * destination, scratch) and the spare it keeps; the largest default size that fits a GPU of
 * `free_bytes`, from the benchmark's own size list (0 if none does). */
size_t sessionize_bench_bytes(int64_t max_n);
#define SESSIONIZE_BENCH_SPARE ((size_t)512 << 20)
int64_t sessionize_bench_max_that_fits(int64_t wanted_max_n, size_t free_bytes);

/* The benchmark's sizes: 10^4, 3*10^4, 10^5, ... up to max_n (max_n itself last). Returns the
 * count (at most 40). */
int sessionize_bench_sizes(int64_t max_n, int64_t *sizes);

#ifdef __cplusplus
}
#endif

#endif
