/* Step 6: more work per thread, in one dimension.
 *
 * The tiled kernel does two shared-memory loads per multiply-add, and shared memory, not the
 * arithmetic units, sets its speed. Here each thread computes BT1_TM = 8 elements of one column of
 * C: for each k it loads one B value from shared memory into a register and reuses it for 8
 * multiply-adds against 8 A values (one load each, but the same A values are broadcast to the
 * whole warp). Loads per multiply-add fall from 2 to about 9/8.
 *
 * Block tile 64 x 64, K strip 8, 512 threads (64 columns x 8 row groups of 8). Edges as in
 * 04_tiled.cu: zero-filled loads, guarded stores, no early return. */
#include "tutorial.h"
#include "matmul.h"

#define BT1_BM 64
#define BT1_BN 64
#define BT1_BK 8
#define BT1_TM 8
#define BT1_THREADS (BT1_BM * BT1_BN / BT1_TM) /* 512 */

__global__ void __launch_bounds__(BT1_THREADS)
blocktile_1d_kernel(int M, int N, int K, const float *A, size_t lda, const float *B, size_t ldb,
                    float *C, size_t ldc)
{
    __shared__ float a_tile[BT1_BM][BT1_BK];
    __shared__ float b_tile[BT1_BK][BT1_BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BT1_BM, col0 = blockIdx.x * BT1_BN;
    const int thread_col = tid % BT1_BN;           /* consecutive threads: consecutive columns */
    const int thread_row = (tid / BT1_BN) * BT1_TM; /* first of this thread's 8 rows */
    /* Which element each thread copies: one of A's 64 x 8 tile, one of B's 8 x 64 tile. */
    const int a_r = tid / BT1_BK, a_c = tid % BT1_BK;
    const int b_r = tid / BT1_BN, b_c = tid % BT1_BN;

    float sum[BT1_TM] = {0.0f};
    for (int k0 = 0; k0 < K; k0 += BT1_BK) {
        const int ar = row0 + a_r, ak = k0 + a_c, bk = k0 + b_r, bc = col0 + b_c;
        a_tile[a_r][a_c] = (ar < M && ak < K) ? A[(size_t)ar * lda + ak] : 0.0f;
        b_tile[b_r][b_c] = (bk < K && bc < N) ? B[(size_t)bk * ldb + bc] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BT1_BK; ++k) {
            const float b = b_tile[k][thread_col]; /* loaded once, used BT1_TM times */
#pragma unroll
            for (int m = 0; m < BT1_TM; ++m)
                sum[m] += a_tile[thread_row + m][k] * b;
        }
        __syncthreads();
    }
    const int c = col0 + thread_col;
#pragma unroll
    for (int m = 0; m < BT1_TM; ++m) {
        const int r = row0 + thread_row + m;
        if (r < M && c < N)
            C[(size_t)r * ldc + c] = sum[m];
    }
}

void launch_blocktile_1d(const matmul_args *a)
{
    dim3 grid((a->N + BT1_BN - 1) / BT1_BN, (a->M + BT1_BM - 1) / BT1_BM);
    blocktile_1d_kernel<<<grid, BT1_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb,
                                               a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_blocktile_1d(void)
{
    return matmul_info((const void *)blocktile_1d_kernel, BT1_THREADS, 0);
}
