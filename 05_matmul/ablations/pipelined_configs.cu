/* Step 10's ablations, for the benchmark-only program matmul_ablations: the pipelined kernel
 * (pipelined_kernel.cuh, built once per configuration with #define / #include) in its main
 * configuration and with one idea changed at a time, to measure what each buys
 * (docs/05_matmul_appendix.md, "Step 10 ... its ideas one at a time"). The teaching version is
 * 10_pipelined.cu, plain code with the same four configurations: 128 x 256 (here
 * pipelined_128x256_bk32 with 16 x 8 results per thread; 10_pipelined.cu's 8 x 16 is
 * pipelined_128x256_bk32_t8x16 in candidate_configs.cu), 128 x 128 (pipelined_128x128) and the
 * 64 x 128 tiles.
 * cp.async needs compute capability 8.0; below, B goes through plain loads and stores. */
#include <stdio.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"
#include "ablations.h"

#include "pipelined_helpers.cuh"

/* The 128 x 128 configuration: 128 x 128 x 16, 256 threads, warp tile 32 x 64, 8 x 8 per
 * thread, at most 128 registers (two blocks per SM where the shared memory allows: not on a T4),
 * two stages of B, groups of 16 block rows: the defaults of pipelined_kernel.cuh, so only the
 * names are given. Each configuration after it defines only what it changes. */
#define PL_KERNEL pipelined_128x128_kernel
#define PL_LAUNCH launch_pipelined_128x128
#define PL_INFO info_pipelined_128x128
#include "pipelined_kernel.cuh"

/* Ablations: one idea changed at a time, to measure what each buys. Three stages of B: */
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x128_s3_kernel
#define PL_LAUNCH launch_pipelined_128x128_s3
#define PL_INFO info_pipelined_128x128_s3
#include "pipelined_kernel.cuh"

/* Fragments read just before use (as in step 9): */
#define PL_FRAG_DB 0
#define PL_KERNEL pipelined_nofdb_kernel
#define PL_LAUNCH launch_pipelined_nofdb
#define PL_INFO info_pipelined_nofdb
#include "pipelined_kernel.cuh"

/* Blocks in plain row-major order: */
#define PL_GROUP 1
#define PL_KERNEL pipelined_rowmajor_kernel
#define PL_LAUNCH launch_pipelined_rowmajor
#define PL_INFO info_pipelined_rowmajor
#include "pipelined_kernel.cuh"

/* A's float4s copied so that the transposed stores are free of bank conflicts (measured
 * 11 points slower; docs/05_matmul_appendix.md): */
#define PL_A_MAP 1
#define PL_KERNEL pipelined_amap_kernel
#define PL_LAUNCH launch_pipelined_amap
#define PL_INFO info_pipelined_amap
#include "pipelined_kernel.cuh"

/* B by plain loads and stores, as on a GPU without cp.async (before compute capability 8.0): */
#define PL_PLAIN_ONLY 1
#define PL_KERNEL pipelined_plain_kernel
#define PL_LAUNCH launch_pipelined_plain
#define PL_INFO info_pipelined_plain
#include "pipelined_kernel.cuh"

/* K strip 8 with four stages: */
#define PL_BK 8
#define PL_STAGES 4
#define PL_KERNEL pipelined_bk8_kernel
#define PL_LAUNCH launch_pipelined_bk8
#define PL_INFO info_pipelined_bk8
#include "pipelined_kernel.cuh"

/* K strip 32: half the barriers per FMA, 66,560 bytes of shared memory per block, more than a
 * block may declare statically (48 KiB): dynamic shared memory, which the driver asks for with
 * tut_allow_dynamic_shared. A T4 block can have 64 KiB: there the driver skips it. */
#define PL_BK 32
#define PL_DYNAMIC_SHARED 1
#define PL_A_SWIZZLE 0
#define PL_KERNEL pipelined_bk32_kernel
#define PL_LAUNCH launch_pipelined_bk32
#define PL_INFO info_pipelined_bk32
#include "pipelined_kernel.cuh"

/* For small matrices: 64 x 128 block tiles of 128 threads (4 warps of 32 x 64), twice as many
 * blocks as 128 x 128 for the same matrix, up to four blocks per SM; three or two stages of B. */
#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_STAGES 3
#define PL_KERNEL pipelined_64x128_kernel
#define PL_LAUNCH launch_pipelined_64x128
#define PL_INFO info_pipelined_64x128
#include "pipelined_kernel.cuh"

#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_KERNEL pipelined_64x128_s2_kernel
#define PL_LAUNCH launch_pipelined_64x128_s2
#define PL_INFO info_pipelined_64x128_s2
#include "pipelined_kernel.cuh"

/* cuBLAS FP32's shape (ncu_fp32.csv): 128 x 256 block tiles of 256 threads, warp tile 64 x 64,
 * 16 x 8 results per thread (up to 255 registers, one block per SM); a K strip of 16 (two stages:
 * 49,664 bytes, dynamic shared memory) or of 8 (three stages). */
#define PL_BN 256
#define PL_WM 64
#define PL_WN 64
#define PL_LANES_M 4
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_KERNEL pipelined_128x256_kernel
#define PL_LAUNCH launch_pipelined_128x256
#define PL_INFO info_pipelined_128x256
#include "pipelined_kernel.cuh"

#define PL_BN 256
#define PL_BK 8
#define PL_STAGES 3
#define PL_WM 64
#define PL_WN 64
#define PL_LANES_M 4
#define PL_MIN_BLOCKS 1
#define PL_KERNEL pipelined_128x256_bk8_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk8
#define PL_INFO info_pipelined_128x256_bk8
#include "pipelined_kernel.cuh"

/* Step 10's configuration for large matrices (launch_pipelined's 128 x 256) with a K strip of
 * 32, as it is and without the swizzle of A's columns. */
#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_KERNEL pipelined_128x256_bk32_kernel
#define PL_LAUNCH launch_pipelined_128x256_bk32
#define PL_INFO info_pipelined_128x256_bk32
#include "pipelined_kernel.cuh"

#define PL_BN 256
#define PL_BK 32
#define PL_WM 64
#define PL_WN 64
#define PL_MIN_BLOCKS 1
#define PL_DYNAMIC_SHARED 1
#define PL_A_SWIZZLE 0
#define PL_KERNEL pipelined_128x256_noswizzle_kernel
#define PL_LAUNCH launch_pipelined_128x256_noswizzle
#define PL_INFO info_pipelined_128x256_noswizzle
#include "pipelined_kernel.cuh"

