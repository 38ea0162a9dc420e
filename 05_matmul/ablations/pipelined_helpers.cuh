/* What every configuration of the ablations' pipelined kernel shares (pipelined_configs.cu,
 * candidate_configs.cu): the copy of B's float4s and the row padding of A's tile. */
#ifndef MATMUL_PIPELINED_HELPERS_CUH
#define MATMUL_PIPELINED_HELPERS_CUH

#include "tutorial.h"
#include "launch_config.h"

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

#endif
