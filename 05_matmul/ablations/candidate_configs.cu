/* Benchmark only: candidates for the last points between step 10 and cuBLAS FP32 at 4096^3,
 * each the 128 x 256 configuration with a K strip of 32 and 16 x 8 results per thread
 * (pipelined_128x256_bk32 in pipelined_configs.cu) with one idea changed; built from the same
 * macro body (pipelined_kernel.cuh), in a file of their own so that the two files compile in
 * parallel. The measured table: docs/results/05_matmul/h200/sgemm_candidates.csv. Candidates
 * that measured slower there (three stages of B, the strip's loop unrolled 8 or 16 steps at a
 * time, a K strip of 16 with three stages, cuBLAS's 256 x 128 orientation) were dropped. */
#include <stdio.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"
#include "ablations.h"
#include "pipelined_helpers.cuh"

/* Rasterisation groups of 8 block rows instead of 16 (measured the same): */
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
 * fragment loads per step). Measured faster: 10_pipelined.cu's 128 x 256 configuration took
 * this shape. */
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
