/* Step 3 (the blog's second and third changes): one block per row of C, with that row of A in
 * shared memory; and rows allocated with cudaMallocPitch.
 *
 * Each A element is read from global memory once per block instead of once per thread; B is still
 * read by every block (M times in all), so the saving is small: half of the naive kernel's loads
 * come from shared memory now, the other half do not move. The pitched allocation pads each row
 * to an aligned start (the driver allocates this variant's matrices with cudaMallocPitch and
 * passes the pitch as lda/ldb/ldc), which mattered on old GPUs whose loads had to be aligned to
 * coalesce; on today's GPUs the gain is small, as the blog found.
 *
 * Shared memory cannot hold a row of any length, so the row is staged in chunks of ROW_CHUNK;
 * each thread owns one column per pass and keeps its partial sum across the chunks. */
#include "tutorial.h"
#include "matmul.h"

#define ROW_THREADS 256
#define ROW_CHUNK 2048 /* 8 KB of shared memory */

__global__ void row_shared_kernel(int M, int N, int K, const float *A, size_t lda, const float *B,
                                  size_t ldb, float *C, size_t ldc)
{
    __shared__ float a_row[ROW_CHUNK];
    const int i = blockIdx.x;
    (void)M;
    /* Every thread makes the same number of passes (the loop bound does not depend on
     * threadIdx), so every thread reaches every __syncthreads(). */
    for (int j0 = 0; j0 < N; j0 += ROW_THREADS) {
        const int j = j0 + threadIdx.x;
        float sum = 0.0f;
        for (int k0 = 0; k0 < K; k0 += ROW_CHUNK) {
            const int len = min(ROW_CHUNK, K - k0);
            __syncthreads(); /* the previous chunk is no longer being read */
            for (int k = threadIdx.x; k < len; k += ROW_THREADS)
                a_row[k] = A[(size_t)i * lda + k0 + k];
            __syncthreads();
            if (j < N)
                for (int k = 0; k < len; ++k)
                    sum += a_row[k] * B[(size_t)(k0 + k) * ldb + j];
        }
        if (j < N)
            C[(size_t)i * ldc + j] = sum;
    }
}

void launch_row_shared(const matmul_args *a)
{
    row_shared_kernel<<<a->M, ROW_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C,
                                             a->ldc);
    LAUNCH_CHECK();
}

matmul_kernel_info info_row_shared(void)
{
    return matmul_info((const void *)row_shared_kernel, ROW_THREADS, 0);
}
