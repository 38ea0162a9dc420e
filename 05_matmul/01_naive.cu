/* Step 1: one thread per element of C, every operand straight from global memory.
 *
 * The two kernels differ only in which index threadIdx.x walks. In a 16 x 16 block a warp is
 * two rows of 16 threads (threadIdx.x 0-15, threadIdx.y y and y + 1), and a warp's loads are
 * served together: when neighbouring threads read neighbouring addresses the hardware merges
 * them into a few 32-byte sectors (coalescing). Per k:
 *   naive_kernel:          threadIdx.x -> column j. The warp reads two A elements (one per row
 *                          of threads, each a broadcast) and the same 16 neighbouring B elements
 *                          for both rows (2 sectors); it writes two runs of 16 elements of C.
 *   naive_strided_kernel:  threadIdx.x -> row i. The warp reads 16 A elements K floats apart
 *                          (16 sectors) and 2 neighbouring B elements, and writes C in 16 rows.
 * Same arithmetic, same answer, very different speed (docs: the table). */
#include "tutorial.h"
#include "matmul.h"

#define NAIVE_BLOCK 16 /* 16 x 16 = 256 threads */

__global__ void naive_kernel(int M, int N, int K, const float *A, size_t lda, const float *B,
                             size_t ldb, float *C, size_t ldc)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x; /* column: fastest across the warp */
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N) /* no barrier in this kernel, so an early return is safe */
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[(size_t)i * lda + k] * B[(size_t)k * ldb + j];
    C[(size_t)i * ldc + j] = sum;
}

__global__ void naive_strided_kernel(int M, int N, int K, const float *A, size_t lda,
                                     const float *B, size_t ldb, float *C, size_t ldc)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x; /* row: fastest across the warp */
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[(size_t)i * lda + k] * B[(size_t)k * ldb + j];
    C[(size_t)i * ldc + j] = sum;
}

void launch_naive(const matmul_args *a)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    dim3 grid((a->N + NAIVE_BLOCK - 1) / NAIVE_BLOCK, (a->M + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
    naive_kernel<<<grid, block>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_naive(void)
{
    return matmul_info((const void *)naive_kernel, NAIVE_BLOCK * NAIVE_BLOCK, 0);
}

void launch_naive_strided(const matmul_args *a)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    dim3 grid((a->M + NAIVE_BLOCK - 1) / NAIVE_BLOCK, (a->N + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
    naive_strided_kernel<<<grid, block>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C,
                                          a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_naive_strided(void)
{
    return matmul_info((const void *)naive_strided_kernel, NAIVE_BLOCK * NAIVE_BLOCK, 0);
}
