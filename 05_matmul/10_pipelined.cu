/* Step 11: cp.async for B, fragments double-buffered in registers, block rasterisation, and a
 * smaller tile when the matrix is small.
 *
 * Starting from 09_warptiled.cu (same warp tiling, same 8 x 8 results per thread):
 *   - B goes from global to shared memory with cp.async (sm_80 and later): no registers on the
 *     way and no wait in the thread that issued it; with PL_STAGES buffers the copy of strip
 *     s + PL_STAGES - 1 is in flight while strip s is multiplied. A still goes through registers,
 *     because it is stored transposed (a_tile[k][m]) for float4 fragment reads.
 *   - The fragments of step k + 1 are read from shared memory while step k's 64 FMAs run.
 *   - Blocks are numbered in groups of PL_GROUP block rows (the kernel body), so that the blocks
 *     resident at the same time share rows of A and columns of B in L2.
 *   - launch_pipelined picks 64 x 128 tiles when 128 x 128 tiles would give fewer than two
 *     blocks per SM.
 * One configuration per idea taken away follows the main one, so that one benchmark run measures
 * what each idea buys (docs/05_matmul.md). On an H200: 88.6% of cuBLAS FP32 at 4096^3, 90% at
 * 6000 x 4800 x 4000, 95% at 1000^3.
 * Built for compute capability below 8.0 (the compute_75 PTX of the default build), the copy
 * falls back to an ordinary load and store: the same results, no asynchrony.
 * Like steps 9 and 10 it needs N and K multiples of 4 (the driver pads other sizes). */
#include "tutorial.h"
#include "matmul.h"

#define PL_APAD 4 /* a_tile rows of BM + 4 floats, as in 09_warptiled.cu */

/* 16 bytes from global `src` to shared `dst`, or 16 zero bytes when !in. */
static __device__ __forceinline__ void pl_copy16(float *dst, const float *src, int in)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    /* src-size 0: nothing is read, the 16 bytes are zero-filled. */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                 "r"(in ? 16 : 0)
                 : "memory");
#else
    *(float4 *)dst = in ? *(const float4 *)src : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#endif
}

/* Closes the group of copies issued since the last commit. */
static __device__ __forceinline__ void pl_commit(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Waits until at most PL_STAGES - 2 groups of this thread's copies are still in flight. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define PL_WAIT_B() asm volatile("cp.async.wait_group %0;\n" ::"n"(PL_STAGES - 2) : "memory")
#else
#define PL_WAIT_B() ((void)0)
#endif

/* The main configuration: 128 x 128 x 16, 256 threads, warp tile 32 x 64, 8 x 8 per thread,
 * two blocks per SM (at most 128 registers), two stages of B, groups of 16 block rows: the
 * defaults of 10_pipelined_kernel.cuh, so only the names are given. Each configuration after it
 * defines only what it changes. */
#define PL_KERNEL pipelined_128x128_kernel
#define PL_LAUNCH launch_pipelined_128x128
#include "10_pipelined_kernel.cuh"

/* Ablations: one idea changed at a time, to measure what each buys. Three stages of B: */
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x128_s3_kernel
#define PL_LAUNCH launch_pipelined_128x128_s3
#include "10_pipelined_kernel.cuh"

/* Fragments read just before use (as in step 10): */
#define PL_FRAG_DB 0
#define PL_KERNEL pipelined_nofdb_kernel
#define PL_LAUNCH launch_pipelined_nofdb
#include "10_pipelined_kernel.cuh"

/* Blocks in plain row-major order: */
#define PL_GROUP 1
#define PL_KERNEL pipelined_rowmajor_kernel
#define PL_LAUNCH launch_pipelined_rowmajor
#include "10_pipelined_kernel.cuh"

/* A's float4s copied so that the transposed stores are free of bank conflicts (measured
 * 11 points slower; docs/05_matmul.md): */
#define PL_A_MAP 1
#define PL_KERNEL pipelined_amap_kernel
#define PL_LAUNCH launch_pipelined_amap
#include "10_pipelined_kernel.cuh"

/* K strip 8 with four stages: */
#define PL_BK 8
#define PL_STAGES 4
#define PL_KERNEL pipelined_bk8_kernel
#define PL_LAUNCH launch_pipelined_bk8
#include "10_pipelined_kernel.cuh"

/* For small matrices: 64 x 128 block tiles of 128 threads (4 warps of 32 x 64), twice as many
 * blocks as 128 x 128 for the same matrix, four blocks per SM; three or two stages of B. */
#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_STAGES 3
#define PL_KERNEL pipelined_64x128_kernel
#define PL_LAUNCH launch_pipelined_64x128
#include "10_pipelined_kernel.cuh"

#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_KERNEL pipelined_64x128_s2_kernel
#define PL_LAUNCH launch_pipelined_64x128_s2
#include "10_pipelined_kernel.cuh"

/* The step's kernel: 128 x 128 tiles when they give at least two blocks per SM, else 64 x 128. */
void launch_pipelined(const matmul_args *a)
{
    const int sms = tut_current_device()->sm_count;
    const long long blocks = (long long)((a->M + 127) / 128) * ((a->N + 127) / 128);
    if (blocks >= 2LL * sms)
        launch_pipelined_128x128(a);
    else
        launch_pipelined_64x128(a);
}
