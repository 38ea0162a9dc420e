/* Benchmark only: candidates for the last points between step 10 and cuBLAS FP32 at 4096^3,
 * each the 128 x 256 configuration with a K strip of 32 (pipelined_128x256_bk32 in
 * pipelined_configs.cu, the configuration launch_pipelined takes for large matrices) with one
 * idea changed; built from the same macro body (pipelined_kernel.cuh), in a file of their own so
 * that the two files compile in parallel. */
#include <stdio.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"
#include "ablations.h"
#include "pipelined_helpers.cuh"

/* Shared memory per block: A 2 x 32 x 132 floats (33,792 bytes) plus B's stages of 32 x 256
 * floats (32,768 bytes each). Three stages of B (132,096 bytes, one block per SM as before): */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x256_bk32_s3_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_s3
#define PL_INFO info_pipelined_128x256_bk32_s3
#include "pipelined_kernel.cuh"

/* The strip's 32 steps unrolled 8 (or 16) at a time: a quarter (half) of the loop's code, for
 * the instruction cache (the fully unrolled strip is about 4,600 instructions): */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_K_UNROLL 8
#define PL_KERNEL pipelined_128x256_bk32_u8_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_u8
#define PL_INFO info_pipelined_128x256_bk32_u8
#include "pipelined_kernel.cuh"

#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_K_UNROLL 16
#define PL_KERNEL pipelined_128x256_bk32_u16_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_u16
#define PL_INFO info_pipelined_128x256_bk32_u16
#include "pipelined_kernel.cuh"

/* Unrolled 16 at a time, with three stages of B: */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_K_UNROLL 16
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x256_bk32_u16_s3_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_u16_s3
#define PL_INFO info_pipelined_128x256_bk32_u16_s3
#include "pipelined_kernel.cuh"

/* Rasterisation groups of 8 block rows instead of 16: */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_GROUP 8
#define PL_KERNEL pipelined_128x256_bk32_g8_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_g8
#define PL_INFO info_pipelined_128x256_bk32_g8
#include "pipelined_kernel.cuh"

/* 8 x 16 results per thread instead of 16 x 8 (lanes 8 along M, 4 along N; the same 6 float4
 * fragment loads per step): */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_LANES_M 8
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_KERNEL pipelined_128x256_bk32_t8x16_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32_t8x16
#define PL_INFO info_pipelined_128x256_bk32_t8x16
#include "pipelined_kernel.cuh"

/* A K strip of 16 with three stages of B (66,048 bytes): */
#define PL_BN 256
#define PL_BK 16
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x256_bk16_s3_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk16_s3
#define PL_INFO info_pipelined_128x256_bk16_s3
#include "pipelined_kernel.cuh"

/* cuBLAS's orientation, 256 x 128 (warps 4 along M, 2 along N), K strip 16, three stages of B
 * (2 x 16 x 260 + 3 x 16 x 128 floats: 57,856 bytes): */
#define PL_BM 256
#define PL_BN 128
#define PL_BK 16
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_STAGES 3
#define PL_KERNEL pipelined_256x128_bk16_s3_kernel
#define PL_LAUNCH launch_pipelined_256x128_bk16_s3
#define PL_INFO info_pipelined_256x128_bk16_s3
#include "pipelined_kernel.cuh"
