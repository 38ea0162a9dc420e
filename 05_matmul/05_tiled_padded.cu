/* Step 5 (the blog's last): the tiled kernel without bounds checks.
 *
 * When every size is a multiple of the tile, no load or store can fall outside a matrix and the
 * comparisons disappear. The blog gets there by allocating the matrices rounded up to a multiple
 * of 16 and zeroing the padding: zero rows of A and zero columns of B add nothing to the sums.
 * The driver (matmul.cu, prepare_layout) makes those padded copies for this variant, since its
 * layout asks for pad_m = pad_n = pad_k = 16, and copies the M x N corner of C back. The kernel
 * itself would read and write out of bounds on any other size: it must never see one. */
#include "tutorial.h"
#include "matmul.h"

#define PTILE 16

__global__ void tiled_padded_kernel(int K, const float *A, size_t lda, const float *B, size_t ldb,
                                    float *C, size_t ldc)
{
    __shared__ float a_tile[PTILE][PTILE];
    __shared__ float b_tile[PTILE][PTILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * PTILE + ty;
    const int col = blockIdx.x * PTILE + tx;

    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += PTILE) {
        a_tile[ty][tx] = A[(size_t)row * lda + k0 + tx];
        b_tile[ty][tx] = B[(size_t)(k0 + ty) * ldb + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < PTILE; ++k)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    C[(size_t)row * ldc + col] = sum;
}

/* M, N, K here are the padded sizes: multiples of PTILE (the driver guarantees it). */
void launch_tiled_padded(const matmul_args *a)
{
    dim3 block(PTILE, PTILE);
    dim3 grid(a->N / PTILE, a->M / PTILE);
    tiled_padded_kernel<<<grid, block>>>(a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_tiled_padded(void)
{
    return matmul_info((const void *)tiled_padded_kernel, PTILE * PTILE, 0);
}
