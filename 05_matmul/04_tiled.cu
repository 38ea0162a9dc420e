/* Step 4: shared-memory tiling, correct at every size.
 *
 * A block computes a TILE x TILE tile of C. It walks along K one TILE-wide strip at a time: all
 * its threads copy a TILE x TILE tile of A and one of B into shared memory, wait, and then each
 * thread does TILE multiply-adds from shared memory. Every element loaded from global memory is
 * used TILE times, so global traffic drops by a factor of TILE against the naive kernel.
 *
 * Edges (the lesson of the documents' TPB = 3 question, see pitfall.cu):
 *   - No thread returns early: every thread must reach every __syncthreads() of its block.
 *   - A load whose source lies outside A or B writes 0 into the tile instead, so the partial
 *     tiles at the right and bottom edges add nothing wrong to the sums.
 *   - Only threads whose (row, col) lies inside C store their result. */
#include "tutorial.h"
#include "matmul.h"

#define TILE 16

__global__ void tiled_kernel(int M, int N, int K, const float *A, size_t lda, const float *B,
                             size_t ldb, float *C, size_t ldc)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        /* Consecutive tx read consecutive addresses of a row: coalesced. */
        a_tile[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * lda + k0 + tx] : 0.0f;
        b_tile[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * ldb + col] : 0.0f;
        __syncthreads(); /* the tiles are complete */
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads(); /* everyone is done reading before the next strip overwrites them */
    }
    if (row < M && col < N)
        C[(size_t)row * ldc + col] = sum;
}

void launch_tiled(const matmul_args *a)
{
    dim3 block(TILE, TILE);
    dim3 grid((a->N + TILE - 1) / TILE, (a->M + TILE - 1) / TILE);
    tiled_kernel<<<grid, block>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_tiled(void)
{
    return matmul_info((const void *)tiled_kernel, TILE * TILE, 0);
}
