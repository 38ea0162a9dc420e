/* Step 8: 16-byte loads and stores, and A transposed in shared memory.
 *
 * The 2D block-tiled kernel, with every memory access made four floats wide:
 *   - global loads of A and B as float4: a quarter of the load instructions;
 *   - A stored transposed in shared memory (a_tile[k][m]), so that a thread's 8 A values for one
 *     k are contiguous and come in two float4 reads, like its 8 B values: 4 shared loads per k
 *     for 64 multiply-adds, by design (nvcc found the same four for step 7 on its own);
 *   - 119 registers per thread against step 7's 148 (ptxas, sm_90): two blocks fit per SM;
 *   - C written as float4.
 * A float4 must start on a 16-byte boundary: row starts are aligned only when K and N (and the
 * leading dimensions) are multiples of 4. The layout asks the driver for pad_n = pad_k = 4, so
 * other sizes run on zero-padded copies (matmul.cu, prepare_layout). Within that, any M, N, K:
 * a float4 lies either wholly inside or wholly outside the matrix, so edge tiles zero-fill whole
 * vectors and stores are guarded per vector.
 *
 * Still missing: each thread's 8 x 8 block is contiguous, so the 16 threads of a half-warp read
 * b_tile 32 bytes apart and collide in the shared-memory banks; 09_warptiled.cu rearranges it. */
#include "tutorial.h"
#include "matmul.h"

#define VEC_BM 128
#define VEC_BN 128
#define VEC_BK 8
#define VEC_TM 8
#define VEC_TN 8
#define VEC_THREADS 256
#define VEC_APAD 4 /* a_tile rows of 132 floats: the transposed stores hit different banks */

__global__ void __launch_bounds__(VEC_THREADS)
vectorized_kernel(int M, int N, int K, const float *A, size_t lda, const float *B, size_t ldb,
                  float *C, size_t ldc)
{
    __shared__ __align__(16) float a_tile[VEC_BK][VEC_BM + VEC_APAD];
    __shared__ __align__(16) float b_tile[VEC_BK][VEC_BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * VEC_BM, col0 = blockIdx.x * VEC_BN;
    const int thread_row = (tid / (VEC_BN / VEC_TN)) * VEC_TM;
    const int thread_col = (tid % (VEC_BN / VEC_TN)) * VEC_TN;
    /* One float4 of A's 128 x 8 tile and one of B's 8 x 128 tile per thread. */
    const int a_r = tid / (VEC_BK / 4), a_c = (tid % (VEC_BK / 4)) * 4;
    const int b_r = tid / (VEC_BN / 4), b_c = (tid % (VEC_BN / 4)) * 4;

    float acc[VEC_TM][VEC_TN] = {{0.0f}};
    for (int k0 = 0; k0 < K; k0 += VEC_BK) {
        const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const int ar = row0 + a_r, ak = k0 + a_c, bk = k0 + b_r, bc = col0 + b_c;
        const float4 av = (ar < M && ak < K) ? *(const float4 *)&A[(size_t)ar * lda + ak] : zero;
        const float4 bv = (bk < K && bc < N) ? *(const float4 *)&B[(size_t)bk * ldb + bc] : zero;
        a_tile[a_c + 0][a_r] = av.x; /* transposed: four scalar stores */
        a_tile[a_c + 1][a_r] = av.y;
        a_tile[a_c + 2][a_r] = av.z;
        a_tile[a_c + 3][a_r] = av.w;
        *(float4 *)&b_tile[b_r][b_c] = bv;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < VEC_BK; ++k) {
            const float4 a0 = *(const float4 *)&a_tile[k][thread_row];
            const float4 a1 = *(const float4 *)&a_tile[k][thread_row + 4];
            const float4 b0 = *(const float4 *)&b_tile[k][thread_col];
            const float4 b1 = *(const float4 *)&b_tile[k][thread_col + 4];
            const float a[VEC_TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[VEC_TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int m = 0; m < VEC_TM; ++m)
#pragma unroll
                for (int n = 0; n < VEC_TN; ++n)
                    acc[m][n] += a[m] * b[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < VEC_TM; ++m) {
        const int r = row0 + thread_row + m;
#pragma unroll
        for (int n = 0; n < VEC_TN; n += 4) {
            const int c = col0 + thread_col + n;
            if (r < M && c < N)
                *(float4 *)&C[(size_t)r * ldc + c] =
                    make_float4(acc[m][n], acc[m][n + 1], acc[m][n + 2], acc[m][n + 3]);
        }
    }
}

void launch_vectorized(const matmul_args *a)
{
    dim3 grid((a->N + VEC_BN - 1) / VEC_BN, (a->M + VEC_BM - 1) / VEC_BM);
    vectorized_kernel<<<grid, VEC_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C,
                                             a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_vectorized(void)
{
    return matmul_info((const void *)vectorized_kernel, VEC_THREADS, 0);
}
