/* Step 11: the tensor cores, through the WMMA API, on the same FP32 inputs rounded to TF32.
 *
 * A tensor core multiplies small matrices in one instruction per warp. WMMA (nvcuda::wmma, in
 * <mma.h>) hands the warp 16 x 16 x 8 pieces for TF32: load_matrix_sync reads a 16 x 8 piece of
 * A and an 8 x 16 piece of B from shared memory into "fragments" (values spread over the 32
 * lanes in a layout WMMA does not tell), mma_sync adds their product into a 16 x 16 accumulator
 * fragment, store_matrix_sync writes it out. TF32 keeps FP32's 8-bit exponent but only 10 of its
 * 23 mantissa bits: each input is rounded (__float_to_tf32), products are summed in FP32.
 *
 * The rest is step 4's loop with step 8's tile: a 128 x 128 block tile, 8 warps each computing
 * 64 x 32 (4 x 2 accumulators), a K strip of 32 copied by float4 loads, one buffer, two barriers
 * per strip: simple, and far from what the tensor cores can do (12_mma_tf32.cu goes on).
 * The edges: loads outside the matrices zero-fill (N and K are multiples of 4: the driver pads
 * other sizes); a 16 x 16 accumulator that crosses the edge of C goes through shared memory and
 * only its inside is stored.
 * Needs compute capability 8.0 (the driver skips it below, saying so). */
#include <mma.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

#define BM WMMA_BM
#define BN WMMA_BN
#define BK WMMA_BK
#define PAD 4 /* floats after each shared row: WMMA wants rows a multiple of 16 bytes apart */
#define WARPS_N 4
#define WARP_M 64
#define WARP_N 32
#define FRAGS_M (WARP_M / 16)
#define FRAGS_N (WARP_N / 16)

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
using namespace nvcuda;
typedef wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a_frag;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b_frag;
typedef wmma::fragment<wmma::accumulator, 16, 16, 8, float> c_frag;

/* One strip of A (BM x BK) and B (BK x BN) into shared memory, zero outside the matrices. */
static __device__ __forceinline__ void load_strip(float (*a_tile)[BK + PAD],
                                                  float (*b_tile)[BN + PAD], const float *A,
                                                  size_t lda, const float *B, size_t ldb, int M,
                                                  int N, int K, int row0, int col0, int k0)
{
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int i = threadIdx.x; i < BM * BK / 4; i += WMMA_THREADS) {
        const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
        const int in = row0 + r < M && k0 + c < K;
        *(float4 *)&a_tile[r][c] = in ? *(const float4 *)&A[(size_t)(row0 + r) * lda + k0 + c]
                                      : zero;
    }
    for (int i = threadIdx.x; i < BK * BN / 4; i += WMMA_THREADS) {
        const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
        const int in = k0 + r < K && col0 + c < N;
        *(float4 *)&b_tile[r][c] = in ? *(const float4 *)&B[(size_t)(k0 + r) * ldb + col0 + c]
                                      : zero;
    }
}

/* An accumulator into C at (row, col): straight to global memory when all of it is inside C,
 * else through this warp's 16 x 16 scratch in shared memory, element by element. */
static __device__ __forceinline__ void store_frag(const c_frag &acc, float *C, size_t ldc, int M,
                                                  int N, int row, int col, float *scratch)
{
    if (row + 16 <= M && col + 16 <= N) {
        wmma::store_matrix_sync(&C[(size_t)row * ldc + col], acc, (unsigned)ldc,
                                wmma::mem_row_major);
        return;
    }
    wmma::store_matrix_sync(scratch, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x % 32; i < 16 * 16; i += 32)
        if (row + i / 16 < M && col + i % 16 < N)
            C[(size_t)(row + i / 16) * ldc + col + i % 16] = scratch[i];
    __syncwarp();
}
#endif

__global__ void __launch_bounds__(WMMA_THREADS)
wmma_tf32_kernel(int M, int N, int K, const float *__restrict__ A, size_t lda,
                 const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __shared__ __align__(32) float a_tile[BM][BK + PAD];
    __shared__ __align__(32) float b_tile[BK][BN + PAD];
    const int warp = threadIdx.x / 32;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int warp_row = (warp / WARPS_N) * WARP_M, warp_col = (warp % WARPS_N) * WARP_N;

    c_frag acc[FRAGS_M][FRAGS_N];
    for (int m = 0; m < FRAGS_M; ++m)
        for (int n = 0; n < FRAGS_N; ++n)
            wmma::fill_fragment(acc[m][n], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        load_strip(a_tile, b_tile, A, lda, B, ldb, M, N, K, row0, col0, k0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k += 8) {
            a_frag a[FRAGS_M];
            b_frag b[FRAGS_N];
#pragma unroll
            for (int m = 0; m < FRAGS_M; ++m) {
                wmma::load_matrix_sync(a[m], &a_tile[warp_row + m * 16][k], BK + PAD);
                for (int i = 0; i < a[m].num_elements; ++i)
                    a[m].x[i] = wmma::__float_to_tf32(a[m].x[i]);
            }
#pragma unroll
            for (int n = 0; n < FRAGS_N; ++n) {
                wmma::load_matrix_sync(b[n], &b_tile[k][warp_col + n * 16], BN + PAD);
                for (int i = 0; i < b[n].num_elements; ++i)
                    b[n].x[i] = wmma::__float_to_tf32(b[n].x[i]);
            }
#pragma unroll
            for (int m = 0; m < FRAGS_M; ++m)
#pragma unroll
                for (int n = 0; n < FRAGS_N; ++n)
                    wmma::mma_sync(acc[m][n], a[m], b[n], acc[m][n]);
        }
        __syncthreads();
    }
    /* After the last barrier the A tile is free: each warp's scratch for the edge fragments. */
    float *scratch = &a_tile[0][0] + warp * 16 * 16;
    for (int m = 0; m < FRAGS_M; ++m)
        for (int n = 0; n < FRAGS_N; ++n)
            store_frag(acc[m][n], C, ldc, M, N, row0 + warp_row + m * 16,
                       col0 + warp_col + n * 16, scratch);
#endif
}

matmul_kernel_info info_wmma_tf32(void)
{
    return matmul_info((const void *)wmma_tf32_kernel, WMMA_THREADS, 0);
}

void launch_wmma_tf32(const matmul_args *a)
{
    dim3 grid((a->N + BN - 1) / BN, (a->M + BM - 1) / BM);
    wmma_tf32_kernel<<<grid, WMMA_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb,
                                             a->C, a->ldc);
    LAUNCH_CHECK();
}
