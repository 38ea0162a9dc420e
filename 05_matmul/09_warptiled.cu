/* Step 10: warp tiling and double buffering (step 11, 10_pipelined.cu, goes further).
 *
 * Starting from 08_vectorized.cu:
 *   - Warp tiling. Each thread still computes 8 x 8 results, but as four 4 x 4 pieces spread
 *     over its warp's 32 x 64 tile (the kernel body explains the layout), so every fragment read
 *     from shared memory is conflict-free: one wavefront per float4 load.
 *   - Double buffering. Two shared-memory buffers per operand: while the block multiplies strip
 *     s from one, each thread's loads for strip s + 1 are already in flight into registers and
 *     are stored into the other buffer afterwards. Global-memory latency hides behind 8 (or 16)
 *     k-steps of 64 FMAs each, and one __syncthreads() per strip is enough.
 *   - __launch_bounds__(256, 2): at most 128 registers per thread, so that two blocks (16 warps)
 *     fit on an SM whose shared memory holds them too (an H100's does, a T4's holds one block of
 *     the K-strip-16 tiles: tests/launch_config_test.c). No spills in the sm_90 code (nvcc
 *     --resource-usage); the sm_75, sm_100 and sm_120 code of the K-strip-16 kernels spills a few
 *     bytes.
 * Six configurations are built below; the fastest measured at 4096^3 is warptiled_bk16 (block
 * tile 128 x 128, K strip 16, 256 threads, 8 x 8 per thread): docs/05_matmul.md.
 * Like step 9 it needs N and K multiples of 4 (the driver pads other sizes). */
#include "tutorial.h"
#include "matmul.h"

#define WT_APAD 4 /* a_tile rows of BM + 4 floats: the transposed stores spread over the banks */

/* Configurations (the kernel body #undefs these names at its end). The benchmark runs them
 * all; the docs name the fastest. */

/* 256 threads, warp tile 32 x 64, 8 x 8 per thread, two blocks per SM (at most 128 registers). */
#define WT_BM 128
#define WT_BN 128
#define WT_BK 8
#define WT_WM 32
#define WT_WN 64
#define WT_LANES_M 4
#define WT_THREADS 256
#define WT_MIN_BLOCKS 2
#define WT_KERNEL warptiled_bk8_kernel
#define WT_LAUNCH launch_warptiled_bk8
#define WT_INFO info_warptiled_bk8
#include "09_warptiled_kernel.cuh"

#define WT_BM 128
#define WT_BN 128
#define WT_BK 16
#define WT_WM 32
#define WT_WN 64
#define WT_LANES_M 4
#define WT_THREADS 256
#define WT_MIN_BLOCKS 2
#define WT_KERNEL warptiled_bk16_kernel
#define WT_LAUNCH launch_warptiled_bk16
#define WT_INFO info_warptiled_bk16
#include "09_warptiled_kernel.cuh"

/* The same with the warp tile turned: 64 x 32 (8 lanes along M, 4 along N). */
#define WT_BM 128
#define WT_BN 128
#define WT_BK 16
#define WT_WM 64
#define WT_WN 32
#define WT_LANES_M 8
#define WT_THREADS 256
#define WT_MIN_BLOCKS 2
#define WT_KERNEL warptiled_w64x32_bk16_kernel
#define WT_LAUNCH launch_warptiled_w64x32_bk16
#define WT_INFO info_warptiled_w64x32_bk16
#include "09_warptiled_kernel.cuh"

/* 128 threads, warp tile 64 x 64, 8 x 16 per thread: 6 fragment loads per 128 FMAs instead of
 * 4 per 64, at the cost of more registers (up to 255; two blocks per SM). */
#define WT_BM 128
#define WT_BN 128
#define WT_BK 8
#define WT_WM 64
#define WT_WN 64
#define WT_LANES_M 8
#define WT_THREADS 128
#define WT_MIN_BLOCKS 2
#define WT_KERNEL warptiled_64x64_bk8_kernel
#define WT_LAUNCH launch_warptiled_64x64_bk8
#define WT_INFO info_warptiled_64x64_bk8
#include "09_warptiled_kernel.cuh"

#define WT_BM 128
#define WT_BN 128
#define WT_BK 16
#define WT_WM 64
#define WT_WN 64
#define WT_LANES_M 8
#define WT_THREADS 128
#define WT_MIN_BLOCKS 2
#define WT_KERNEL warptiled_64x64_bk16_kernel
#define WT_LAUNCH launch_warptiled_64x64_bk16
#define WT_INFO info_warptiled_64x64_bk16
#include "09_warptiled_kernel.cuh"

/* 256 threads on a 128 x 256 block tile (warp tile 64 x 64, 8 x 16 per thread): more reuse of
 * every loaded element, one block per SM. */
#define WT_BM 128
#define WT_BN 256
#define WT_BK 8
#define WT_WM 64
#define WT_WN 64
#define WT_LANES_M 8
#define WT_THREADS 256
#define WT_MIN_BLOCKS 1
#define WT_KERNEL warptiled_128x256_kernel
#define WT_LAUNCH launch_warptiled_128x256
#define WT_INFO info_warptiled_128x256
#include "09_warptiled_kernel.cuh"
