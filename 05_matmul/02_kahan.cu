/* Step 2 (the blog's first change): the naive kernel with Kahan (compensated) summation.
 *
 * A float32 running sum loses the low bits of every small term added to a large total; after K
 * additions the error grows like K * eps in the worst case. Kahan keeps the lost low part in a
 * second variable and feeds it back into the next addition, so the error stays near eps whatever
 * K is. It costs four floating-point operations per term instead of one FMA, and it only works
 * when the compiler keeps the operations in order: nvcc does not reassociate float arithmetic
 * (no fast-math here), but it would fuse (sum + y) - sum style expressions into FMAs if we let
 * it, so the products and sums use the explicitly rounded __fmul_rn / __fadd_rn / __fsub_rn. */
#include "tutorial.h"
#include "matmul.h"

#define KAHAN_BLOCK 16

__global__ void kahan_kernel(int M, int N, int K, const float *A, size_t lda, const float *B,
                             size_t ldb, float *C, size_t ldc)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    float lost = 0.0f; /* the low-order part the last addition rounded away (with its sign) */
    for (int k = 0; k < K; ++k) {
        const float term = __fsub_rn(__fmul_rn(A[(size_t)i * lda + k], B[(size_t)k * ldb + j]),
                                     lost);
        const float next = __fadd_rn(sum, term);
        lost = __fsub_rn(__fsub_rn(next, sum), term); /* (next - sum) is what was really added */
        sum = next;
    }
    C[(size_t)i * ldc + j] = sum;
}

void launch_kahan(const matmul_args *a)
{
    dim3 block(KAHAN_BLOCK, KAHAN_BLOCK);
    dim3 grid((a->N + KAHAN_BLOCK - 1) / KAHAN_BLOCK, (a->M + KAHAN_BLOCK - 1) / KAHAN_BLOCK);
    kahan_kernel<<<grid, block>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_kahan(void)
{
    return matmul_info((const void *)kahan_kernel, KAHAN_BLOCK * KAHAN_BLOCK, 0);
}
