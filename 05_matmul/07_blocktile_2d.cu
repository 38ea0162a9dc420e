/* Step 7: more work per thread, in two dimensions.
 *
 * Each thread now computes an 8 x 8 block of C (64 accumulators in registers). For each k it
 * loads 8 A values and 8 B values from shared memory into registers and does their outer product:
 * 64 multiply-adds for 16 loads, 1/4 load per multiply-add (the tiled kernel needed 2). The block
 * tile grows to 128 x 128 so that 256 threads x 64 results cover it, and every element brought
 * from global memory is reused 128 times.
 *
 * Global loads and stores are still one float at a time (nvcc already merges the shared loads
 * into four 16-byte LDS.128 per k), the kernel needs 148 registers (one block per SM), and each
 * thread's 8 x 8 block is contiguous, so a warp's shared-memory reads of B hit the same banks
 * from different threads (bank conflicts): the next two steps fix these. Edges: zero-filled loads
 * and guarded stores, any size. */
#include "tutorial.h"
#include "matmul.h"

#define BT2_BM 128
#define BT2_BN 128
#define BT2_BK 8
#define BT2_TM 8
#define BT2_TN 8
#define BT2_THREADS ((BT2_BM / BT2_TM) * (BT2_BN / BT2_TN)) /* 256 */

__global__ void __launch_bounds__(BT2_THREADS)
blocktile_2d_kernel(int M, int N, int K, const float *A, size_t lda, const float *B, size_t ldb,
                    float *C, size_t ldc)
{
    __shared__ float a_tile[BT2_BM][BT2_BK];
    __shared__ float b_tile[BT2_BK][BT2_BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BT2_BM, col0 = blockIdx.x * BT2_BN;
    const int thread_row = (tid / (BT2_BN / BT2_TN)) * BT2_TM;
    const int thread_col = (tid % (BT2_BN / BT2_TN)) * BT2_TN;

    float acc[BT2_TM][BT2_TN] = {{0.0f}};
    float a_frag[BT2_TM], b_frag[BT2_TN];
    for (int k0 = 0; k0 < K; k0 += BT2_BK) {
        /* 1024 elements per tile, 256 threads: 4 each, in strides that keep a warp's
         * addresses consecutive (coalesced). */
        for (int e = tid; e < BT2_BM * BT2_BK; e += BT2_THREADS) {
            const int r = e / BT2_BK, c = e % BT2_BK;
            const int gr = row0 + r, gk = k0 + c;
            a_tile[r][c] = (gr < M && gk < K) ? A[(size_t)gr * lda + gk] : 0.0f;
        }
        for (int e = tid; e < BT2_BK * BT2_BN; e += BT2_THREADS) {
            const int r = e / BT2_BN, c = e % BT2_BN;
            const int gk = k0 + r, gc = col0 + c;
            b_tile[r][c] = (gk < K && gc < N) ? B[(size_t)gk * ldb + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BT2_BK; ++k) {
#pragma unroll
            for (int m = 0; m < BT2_TM; ++m)
                a_frag[m] = a_tile[thread_row + m][k];
#pragma unroll
            for (int n = 0; n < BT2_TN; ++n)
                b_frag[n] = b_tile[k][thread_col + n];
#pragma unroll
            for (int m = 0; m < BT2_TM; ++m)
#pragma unroll
                for (int n = 0; n < BT2_TN; ++n)
                    acc[m][n] += a_frag[m] * b_frag[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < BT2_TM; ++m) {
        const int r = row0 + thread_row + m;
#pragma unroll
        for (int n = 0; n < BT2_TN; ++n) {
            const int c = col0 + thread_col + n;
            if (r < M && c < N)
                C[(size_t)r * ldc + c] = acc[m][n];
        }
    }
}

void launch_blocktile_2d(const matmul_args *a)
{
    dim3 grid((a->N + BT2_BN - 1) / BT2_BN, (a->M + BT2_BM - 1) / BT2_BM);
    blocktile_2d_kernel<<<grid, BT2_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb,
                                               a->C, a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_blocktile_2d(void)
{
    return matmul_info((const void *)blocktile_2d_kernel, BT2_THREADS, 0);
}
