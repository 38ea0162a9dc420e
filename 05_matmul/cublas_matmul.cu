/* cuBLAS, the speed to beat, called on row-major data.
 *
 * cuBLAS is column-major: it reads an array with leading dimension ld as columns. A row-major
 * M x N matrix C read that way is C^T (N x M, column-major), with the same ld. Since
 * C = A B  <=>  C^T = B^T A^T, we ask cuBLAS for C^T = B^T A^T, passing B first: no transposes,
 * no copies, just the operands swapped and M and N exchanged (cuBLAS's m, n, k are our N, M, K):
 *   cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, ldb, A, lda, &zero, C, ldc)
 *
 * Math modes. CUBLAS_PEDANTIC_MATH: plain FP32 on the CUDA cores, the fair comparison for the
 * FP32 kernels of this chapter. CUBLAS_TF32_TENSOR_OP_MATH: the tensor cores, with inputs rounded
 * to TF32 (10-bit mantissa): many times faster and less precise, the baseline of the TF32 steps. */
#include "check_cublas.h"
#include "tutorial.h"
#include "matmul.h"

static cublasHandle_t handle; /* one per program: creating it is slow */

void cublas_matmul_init(void)
{
    if (!handle)
        CUBLAS_CHECK(cublasCreate(&handle));
}

void cublas_matmul_destroy(void)
{
    if (handle)
        CUBLAS_CHECK(cublasDestroy(handle));
    handle = NULL;
}

static void row_major_sgemm(const matmul_args *a, cublasMath_t mode)
{
    const float one = 1.0f, zero = 0.0f;
    cublas_matmul_init();
    CUBLAS_CHECK(cublasSetMathMode(handle, mode));
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, a->N, a->M, a->K, &one, a->B,
                             (int)a->ldb, a->A, (int)a->lda, &zero, a->C, (int)a->ldc));
}

void launch_cublas_fp32(const matmul_args *a) { row_major_sgemm(a, CUBLAS_PEDANTIC_MATH); }

void launch_cublas_tf32(const matmul_args *a) { row_major_sgemm(a, CUBLAS_TF32_TENSOR_OP_MATH); }
