/* error_check: what the error check catches (docs/00_basics_2.md, section 7).
 *
 * Three mistakes, each caught where CUDA reports it: a launch with more threads per block than
 * the GPU allows (reported by cudaGetLastError right after the launch), an allocation larger than
 * the GPU's memory (reported by cudaMalloc itself), and a good launch whose errors would only show
 * at the next synchronising call. Exit 0 if each mistake is reported as expected, 1 if not, 77
 * without a GPU. */
#include <stdio.h>
#include <stdlib.h>

/* CHECK stops at the first error; here we also need to look at an error without stopping. */
#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

__global__ void fill_kernel(int *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

/* Prints what a call returned; returns 1 if it was neither of the errors expected. */
static int expect_either(const char *what, cudaError_t got, cudaError_t want, cudaError_t also)
{
    if (cannot_run_here(got))
        CHECK(got);
    printf("%-44s -> %s (%s)  %s\n", what, cudaGetErrorName(got), cudaGetErrorString(got),
           got == want || got == also ? "as expected" : "WRONG");
    return got != want && got != also;
}

static int expect(const char *what, cudaError_t got, cudaError_t want)
{
    return expect_either(what, got, want, want);
}

int main(void)
{
    skip_without_gpu();
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    const int n = 1000;
    int *d_out, host[1000];
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    int wrong = 0;

    /* 1. Too many threads per block: the kernel never runs; the launch itself returns nothing,
     * so the error waits in cudaGetLastError(). Which error it is depends on the version:
     * CUDA 13.0 on an H100 said cudaErrorInvalidValue; others may say
     * cudaErrorInvalidConfiguration. */
    fill_kernel<<<1, p.maxThreadsPerBlock + 1>>>(d_out, n);
    wrong += expect_either("launch with maxThreadsPerBlock + 1 threads", cudaGetLastError(),
                           cudaErrorInvalidConfiguration, cudaErrorInvalidValue);
    /* cudaGetLastError() also cleared it: the next call starts clean. */
    wrong += expect("cudaGetLastError() again", cudaGetLastError(), cudaSuccess);

    /* 2. More memory than the GPU has: cudaMalloc returns the error and allocates nothing. */
    int *too_big = NULL;
    wrong += expect("cudaMalloc of 2x the GPU's memory",
                    cudaMalloc(&too_big, 2 * p.totalGlobalMem), cudaErrorMemoryAllocation);
    /* Every failed call is also remembered as the "last error": read it, or the next
     * cudaGetLastError() reports this old failure as if the launch after it had failed. */
    wrong += expect("cudaGetLastError() after it", cudaGetLastError(), cudaErrorMemoryAllocation);

    /* 3. A correct launch: it returns at once; cudaDeviceSynchronize() waits for the kernel and
     * would return any error raised while it ran. */
    fill_kernel<<<(n + 255) / 256, 256>>>(d_out, n);
    wrong += expect("a correct launch", cudaGetLastError(), cudaSuccess);
    wrong += expect("cudaDeviceSynchronize() after it", cudaDeviceSynchronize(), cudaSuccess);
    CHECK(cudaMemcpy(host, d_out, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (host[i] != i && wrong++ == 0)
            printf("out[%d] = %d, expected %d\n", i, host[i], i);
    CHECK(cudaFree(d_out));
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
