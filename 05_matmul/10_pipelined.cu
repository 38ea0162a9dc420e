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
 *   - launch_pipelined picks the tile from the GPU's limits (launch_config.c): 128 x 128 when
 *     the grid has a block for every slot an SM offers (two blocks per SM on an H100, one on a
 *     T4, whose 64 KiB of shared memory hold one block of 33 KiB), else 64 x 128.
 * One configuration per idea taken away follows the main one, so that one benchmark run measures
 * what each idea buys (docs/05_matmul.md has the measured ratios to cuBLAS FP32).
 * cp.async needs compute capability 8.0. On an older GPU (or one emulated with TUT_EMULATE_GPU)
 * the kernels copy B with ordinary loads and stores: the same results, no asynchrony; the
 * program says which path it takes.
 * Like steps 9 and 10 it needs N and K multiples of 4 (the driver pads other sizes). */
#include <stdio.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

#define PL_APAD 4 /* a_tile rows of BM + 4 floats, as in 09_warptiled.cu */

/* How B reaches shared memory is chosen at run time (pipelined_async_copy: compute capability
 * 8.0, the emulated one under TUT_EMULATE_GPU) and passed to the kernels as the template
 * parameter ASYNC. cp.async exists in code compiled for sm_80 and later; code compiled for an
 * older architecture (the sm_75 cubin) holds only the plain path, whatever ASYNC says. */

/* 16 bytes from global `src` to shared `dst`, or 16 zero bytes when !in. */
template <bool ASYNC>
static __device__ __forceinline__ void pl_copy16(float *dst, const float *src, int in)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC) {
        const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
        /* src-size 0: nothing is read, the 16 bytes are zero-filled. */
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                     "r"(in ? 16 : 0)
                     : "memory");
        return;
    }
#endif
    *(float4 *)dst = in ? *(const float4 *)src : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

/* Closes the group of copies issued since the last commit. */
template <bool ASYNC>
static __device__ __forceinline__ void pl_commit(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC)
        asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Waits until at most PENDING groups of this thread's copies are still in flight. (Plain loads
 * and stores have landed when the next __syncthreads() returns: nothing to wait for.) */
template <bool ASYNC, int PENDING>
static __device__ __forceinline__ void pl_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC)
        asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* Whether this run copies B with cp.async: read at each launch, since it is the device's. */
static bool pl_async(void)
{
    return pipelined_async_copy(tut_current_device()) != 0;
}

/* The main configuration: 128 x 128 x 16, 256 threads, warp tile 32 x 64, 8 x 8 per thread,
 * at most 128 registers (two blocks per SM where the shared memory allows: not on a T4), two
 * stages of B, groups of 16 block rows: the defaults of 10_pipelined_kernel.cuh, so only the
 * names are given. Each configuration after it defines only what it changes. */
#define PL_KERNEL pipelined_128x128_kernel
#define PL_LAUNCH launch_pipelined_128x128
#define PL_INFO info_pipelined_128x128
#include "10_pipelined_kernel.cuh"

/* Ablations: one idea changed at a time, to measure what each buys. Three stages of B: */
#define PL_STAGES 3
#define PL_KERNEL pipelined_128x128_s3_kernel
#define PL_LAUNCH launch_pipelined_128x128_s3
#define PL_INFO info_pipelined_128x128_s3
#include "10_pipelined_kernel.cuh"

/* Fragments read just before use (as in step 10): */
#define PL_FRAG_DB 0
#define PL_KERNEL pipelined_nofdb_kernel
#define PL_LAUNCH launch_pipelined_nofdb
#define PL_INFO info_pipelined_nofdb
#include "10_pipelined_kernel.cuh"

/* Blocks in plain row-major order: */
#define PL_GROUP 1
#define PL_KERNEL pipelined_rowmajor_kernel
#define PL_LAUNCH launch_pipelined_rowmajor
#define PL_INFO info_pipelined_rowmajor
#include "10_pipelined_kernel.cuh"

/* A's float4s copied so that the transposed stores are free of bank conflicts (measured
 * 11 points slower; docs/05_matmul.md): */
#define PL_A_MAP 1
#define PL_KERNEL pipelined_amap_kernel
#define PL_LAUNCH launch_pipelined_amap
#define PL_INFO info_pipelined_amap
#include "10_pipelined_kernel.cuh"

/* B by plain loads and stores, as on a GPU without cp.async (before compute capability 8.0): */
#define PL_PLAIN_ONLY 1
#define PL_KERNEL pipelined_plain_kernel
#define PL_LAUNCH launch_pipelined_plain
#define PL_INFO info_pipelined_plain
#include "10_pipelined_kernel.cuh"

/* K strip 8 with four stages: */
#define PL_BK 8
#define PL_STAGES 4
#define PL_KERNEL pipelined_bk8_kernel
#define PL_LAUNCH launch_pipelined_bk8
#define PL_INFO info_pipelined_bk8
#include "10_pipelined_kernel.cuh"

/* K strip 32: half the barriers per FMA, 66,560 bytes of shared memory per block, more than a
 * block may declare statically (48 KiB): dynamic shared memory, which the driver asks for with
 * tut_allow_dynamic_shared. A T4 block can have 64 KiB: there the driver skips it. */
#define PL_BK 32
#define PL_DYNAMIC_SHARED 1
#define PL_KERNEL pipelined_bk32_kernel
#define PL_LAUNCH launch_pipelined_bk32
#define PL_INFO info_pipelined_bk32
#include "10_pipelined_kernel.cuh"

/* For small matrices: 64 x 128 block tiles of 128 threads (4 warps of 32 x 64), twice as many
 * blocks as 128 x 128 for the same matrix, up to four blocks per SM; three or two stages of B. */
#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_STAGES 3
#define PL_KERNEL pipelined_64x128_kernel
#define PL_LAUNCH launch_pipelined_64x128
#define PL_INFO info_pipelined_64x128
#include "10_pipelined_kernel.cuh"

#define PL_BM 64
#define PL_THREADS 128
#define PL_MIN_BLOCKS 4
#define PL_KERNEL pipelined_64x128_s2_kernel
#define PL_LAUNCH launch_pipelined_64x128_s2
#define PL_INFO info_pipelined_64x128_s2
#include "10_pipelined_kernel.cuh"

/* ---- The step's kernel: the tile chosen from the GPU's limits (launch_config.c) ---------- */

/* The candidates, in the order of pipelined_tile (launch_config.h). */
static const matmul_info_fn choice_info[PIPELINED_TILE_COUNT] = {
    info_pipelined_128x128, info_pipelined_64x128, info_pipelined_64x128_s2};
static const matmul_launch_fn choice_launch[PIPELINED_TILE_COUNT] = {
    launch_pipelined_128x128, launch_pipelined_64x128, launch_pipelined_64x128_s2};

/* What each candidate asks of an SM, asked of the runtime once (registers of the instantiation
 * this run launches). */
static pipelined_choice choose(int M, int N)
{
    static tut_kernel_use use[PIPELINED_TILE_COUNT];
    static int known = 0;
    if (!known) {
        for (int t = 0; t < PIPELINED_TILE_COUNT; ++t) {
            const matmul_kernel_info k = choice_info[t]();
            use[t] = tut_kernel_use_of(k.kernel, k.threads, k.dynamic_shared);
        }
        known = 1;
    }
    return pipelined_choose(tut_current_device(), M, N, use);
}

void launch_pipelined(const matmul_args *a)
{
    choice_launch[choose(a->M, a->N).tile](a);
}

pipelined_choice pipelined_choice_for(int M, int N)
{
    return choose(M, N);
}

void pipelined_print_copy_path(void)
{
    const tut_device_info *dev = tut_current_device();
    if (!pl_async()) {
        printf("pipelined: B goes through plain loads and stores: cp.async needs compute "
               "capability 8.0, the GPU has %d.%d%s%s%s\n", dev->major, dev->minor,
               dev->emulated[0] ? " (the limits of a " : "", dev->emulated,
               dev->emulated[0] ? ")" : "");
        return;
    }
    /* Code the driver compiled from PTX older than compute_80 has the plain path only. */
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, (const void *)pipelined_128x128_kernel<true>));
    if (attr.ptxVersion < 80)
        printf("pipelined: cp.async chosen (compute capability %d.%d), but this build's code for "
               "the GPU comes from compute_%d PTX, which has only plain loads: rebuild with "
               "-DCMAKE_CUDA_ARCHITECTURES=native\n", dev->major, dev->minor, attr.ptxVersion);
    else
        printf("pipelined: B copied with cp.async (compute capability %d.%d)\n", dev->major,
               dev->minor);
}
