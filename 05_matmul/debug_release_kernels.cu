/* The naive and the tiled kernel (steps 1 and 4), compiled twice for matmul_debug_release: once
 * like every program of the suite (optimised device code), once with -G (device debug code: no
 * optimisation, every variable kept where cuda-gdb can show it). BUILD names the launchers:
 * launch_naive_release, launch_naive_debug, launch_tiled_release, launch_tiled_debug. The kernels
 * are static, so the two compiled copies do not clash. */
#include "tutorial.h"
#include "debug_release.h"

#define DR_TILE 16
#define DR_NAME(kernel, build) DR_NAME_(kernel, build)
#define DR_NAME_(kernel, build) launch_##kernel##_##build

static __global__ void naive(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum += A[(size_t)i * K + k] * B[(size_t)k * N + j];
    C[(size_t)i * N + j] = sum;
}

static __global__ void tiled(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float a_tile[DR_TILE][DR_TILE];
    __shared__ float b_tile[DR_TILE][DR_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * DR_TILE + ty, col = blockIdx.x * DR_TILE + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += DR_TILE) {
        a_tile[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        b_tile[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < DR_TILE; ++k)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void DR_NAME(naive, BUILD)(int M, int N, int K, const float *A, const float *B, float *C)
{
    const dim3 block(DR_TILE, DR_TILE);
    const dim3 grid((N + DR_TILE - 1) / DR_TILE, (M + DR_TILE - 1) / DR_TILE);
    naive<<<grid, block>>>(M, N, K, A, B, C);
    LAUNCH_CHECK();
}

void DR_NAME(tiled, BUILD)(int M, int N, int K, const float *A, const float *B, float *C)
{
    const dim3 block(DR_TILE, DR_TILE);
    const dim3 grid((N + DR_TILE - 1) / DR_TILE, (M + DR_TILE - 1) / DR_TILE);
    tiled<<<grid, block>>>(M, N, K, A, B, C);
    LAUNCH_CHECK();
}
