/* EXERCISE ex05.1: the shared-memory tiled kernel, correct at every size
 * (docs/05_matmul_exercises.md).
 *
 * Fill in the three TODOs of tiled_kernel. The grader runs launch_tiled alone on sizes drawn
 * from a new seed each run (1, primes, multiples of 16 plus or minus one, any size with longer
 * leading dimensions), under compute-sanitizer too. Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex05.1
 * Hints: docs/05_matmul_exercises.md, docs/05_matmul.md ("Shared-memory tiles"), and the
 * documents' TPB = 3 bug in pitfall.cu: what must every thread of a block do, even one whose
 * element of C lies outside the matrix? */
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
        /* TODO (ex05.1) 1: copy element (row, k0 + tx) of A into a_tile[ty][tx] and element
         * (k0 + ty, col) of B into b_tile[ty][tx]; an element outside its matrix becomes 0. */
        a_tile[ty][tx] = 0.0f;
        b_tile[ty][tx] = 0.0f;
        /* TODO (ex05.1) 2: the barriers. Which accesses must each one separate? */
        for (int k = 0; k < TILE; ++k)
            sum += a_tile[ty][k] * b_tile[k][tx];
    }
    /* TODO (ex05.1) 3: store sum into C, only where (row, col) lies inside C. */
    (void)M; (void)N; (void)A; (void)lda; (void)B; (void)ldb; (void)C; (void)ldc;
    (void)row; (void)col; (void)sum;
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
