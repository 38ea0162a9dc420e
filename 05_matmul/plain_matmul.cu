/* plain_matmul.cu: chapter 05's first program, on the CUDA runtime API alone. C = A B in FP32
 * with TPB x TPB shared-memory tiles: the Numba CUDA examples' fast_matmul, right at every size.
 * Runs the documents' cases (arange(16) as 4x4 times ones; arange(115) as 5x23 times ones 23x7)
 * and 1000x777x513 on random inputs (seed 1), each checked against a float64 CPU product, timed.
 * Try other sizes in main(). Exit: 0 pass, 1 wrong result or CUDA error, 2 bad usage, 77 no GPU. */
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* CHECK(call) and skip_without_gpu(), as docs/00_basics_2.md, section 7, teaches them (one
 * definition). */
#include "../01_vecadd/basics/check.h"

#define TPB 16 /* threads per block in x and in y; also the side of the shared tiles */

/* Row-major: element (r, c) of a matrix of `cols` columns is at r * cols + c. */
__global__ void tiled_matmul(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float sA[TPB][TPB], sB[TPB][TPB];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TPB + tx, row = blockIdx.y * TPB + ty; /* x walks along a row */
    float sum = 0.0f; /* FP32, like the data (Numba's `tmp = 0.` is a float64) */
    /* No early return for threads outside C (row >= M || col >= N): they still load their
     * share of the tiles and reach both barriers. The strips follow K, not the grid. */
    for (int k0 = 0; k0 < K; k0 += TPB) {
        sA[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        sB[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads(); /* 1: both tiles are complete before anyone reads them */
        for (int j = 0; j < TPB; j++)
            sum += sA[ty][j] * sB[j][tx];
        __syncthreads(); /* 2: nobody still reads them when the next strip overwrites them */
    }
    if (row < M && col < N) /* inside C: both indices inside */
        C[(size_t)row * N + col] = sum;
}

/* One product on the GPU, checked on the CPU; returns the number of wrong elements. */
static long run(int M, int K, int N, int arange)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N; /* elements */
    size_t a_bytes = na * sizeof(float), b_bytes = nb * sizeof(float);
    size_t c_bytes = nc * sizeof(float);
    float *A = (float *)malloc(a_bytes), *B = (float *)malloc(b_bytes);
    float *C = (float *)malloc(c_bytes);
    if (!A || !B || !C) { fprintf(stderr, "out of host memory\n"); exit(1); }
    srand(1); /* the documents' arange x ones, or uniform in [-1, 1] with seed 1 */
    for (size_t i = 0; i < na; i++) A[i] = arange ? (float)i : 2.0f * rand() / RAND_MAX - 1.0f;
    for (size_t i = 0; i < nb; i++) B[i] = arange ? 1.0f : 2.0f * rand() / RAND_MAX - 1.0f;
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, a_bytes)); CHECK(cudaMalloc(&dB, b_bytes));
    CHECK(cudaMalloc(&dC, c_bytes));
    CHECK(cudaMemcpy(dA, A, a_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, b_bytes, cudaMemcpyHostToDevice));
    dim3 block(TPB, TPB), grid((N + TPB - 1) / TPB, (M + TPB - 1) / TPB); /* x: columns of C */
    tiled_matmul<<<grid, block>>>(dA, dB, dC, M, K, N); /* warm-up: the first launch loads code */
    CHECK(cudaGetLastError()); /* a launch that could not start says so here */
    CHECK(cudaMemset(dC, 0xFF, c_bytes)); /* NaN everywhere: an element nobody writes fails */
    cudaEvent_t start, stop; /* timestamps the GPU writes when its queue reaches them */
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    tiled_matmul<<<grid, block>>>(dA, dB, dC, M, K, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop)); /* errors inside the kernel surface here */
    float ms = 0; /* milliseconds between the two events */
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(C, dC, c_bytes, cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, mag = 0; /* the float64 product, and the sum of the |terms| */
            for (int k = 0; k < K; k++) {
                double p = (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
                ref += p;
                mag += fabs(p);
            }
            float c = C[(size_t)i * N + j]; /* K FP32 roundings, each within eps of mag */
            if (!(fabs(c - ref) <= K * FLT_EPSILON * mag) && wrong++ < 5) /* NaN fails too */
                printf("C[%d][%d] = %.9g, expected %.9g\n", i, j, c, ref);
            if (M * N <= 64) printf("%s%g%s", j ? ", " : "  [", c, j == N - 1 ? "]\n" : "");
        }
    printf("%dx%dx%d: %d x %d blocks, %.4f ms, %.1f GFLOP/s, %ld wrong\n", M, K, N, grid.x,
           grid.y, ms, 2.0 * M * N * K / (ms * 1e6), wrong);
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); free(A); free(B); free(C);
    return wrong;
}

int main(int argc, char **argv)
{
    (void)argv; /* the sizes are fixed below: edit them to try others */
    if (argc > 1) { fprintf(stderr, "usage: plain_matmul (takes no arguments)\n"); return 2; }
    skip_without_gpu(); /* after the arguments: bad usage is refused even without a GPU */
    long wrong = run(4, 4, 4, 1) + run(5, 23, 7, 1) /* the documents' cases */
                 + run(1000, 777, 513, 0);         /* random; no side a multiple of 16 */
    printf("%s\n", wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
