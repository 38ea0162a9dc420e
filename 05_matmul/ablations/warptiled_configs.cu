/* Step 9's ablations, for the benchmark-only program matmul_ablations: the warp-tiled kernel
 * (warptiled_kernel.cuh, built once per configuration with #define / #include) with other block,
 * warp and thread tiles. The teaching version is 09_warptiled.cu: plain code, the configuration
 * warptiled_bk16 below (128 x 128 block tile, K strip 16, warp tile 32 x 64, 8 x 8 per thread,
 * 256 threads, two blocks per SM). */
#include "tutorial.h"
#include "matmul.h"
#include "ablations.h"

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
#include "warptiled_kernel.cuh"

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
#include "warptiled_kernel.cuh"

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
#include "warptiled_kernel.cuh"

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
#include "warptiled_kernel.cuh"

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
#include "warptiled_kernel.cuh"

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
#include "warptiled_kernel.cuh"
