// plain_montecarlo.cu: the Numba CUDA examples' Monte Carlo integral of 1/x over [1, 2] and [2, 3]
// from 10^6 samples. Every thread draws from its own cuRAND generator (one subsequence each), adds
// f and f^2 in a grid-stride loop, the block adds its threads' sums in shared memory, and the host
// adds the blocks' sums. Checked against ln(b/a) within 4 standard errors.
// Usage: plain_montecarlo [samples]   (default 1000000, the document's)
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// CHECK(call) and skip_without_gpu(), as docs/00_basics_2.md, section 7, teaches them
// (one definition).
#include "../01_vecadd/basics/check.h"
#define THREADS 256   // threads per block
#define BLOCKS 1024   // a fixed grid (about one full H100): every GPU draws the same numbers
#define MAX_SAMPLES 10000000000LL   // 10^10: about 40000 per thread of the fixed grid

__global__ void integrate(float a, float b, long long n, double *block_sum, double *block_sq)
{
    __shared__ double s[THREADS], q[THREADS];
    int t = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + t;
    curandState rng;                 // this thread's generator: seed 42, subsequence i, offset 0
    curand_init(42, i, 0, &rng);
    double sum = 0, sq = 0;
    for (; i < n; i += (long long)gridDim.x * blockDim.x) {
        float x = a + (b - a) * curand_uniform(&rng);   // curand_uniform: in (0, 1]
        float f = 1.0f / x;
        sum += f;
        sq += (double)f * f;
    }
    s[t] = sum;
    q[t] = sq;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {   // a tree: halve the active threads
        if (t < half) { s[t] += s[t + half]; q[t] += q[t + half]; }
        __syncthreads();
    }
    if (t == 0) { block_sum[blockIdx.x] = s[0]; block_sq[blockIdx.x] = q[0]; }
}

int main(int argc, char **argv)
{
    char *end = NULL;   // the whole argument must be a number (no 1e6, 12abc), 2 to MAX_SAMPLES
    long long n = argc > 1 ? strtoll(argv[1], &end, 10) : 1000000;
    if (argc > 2 || (end && (*end || end == argv[1])) || n < 2 || n > MAX_SAMPLES) {
        fprintf(stderr, "usage: plain_montecarlo [samples, 2 to %lld]\n", MAX_SAMPLES);
        return 2;
    }
    skip_without_gpu();   // after the arguments: bad usage is refused even without a GPU
    const double range[2][3] = {{1, 2, 0.6929643}, {2, 3, 0.4054021}};   // a, b, the document's
    int failed = 0;
    double *d_sum, *d_sq, *sum = (double *)malloc(BLOCKS * sizeof(double));
    double *sq = (double *)malloc(BLOCKS * sizeof(double));
    if (!sum || !sq) { fprintf(stderr, "out of host memory\n"); return 1; }
    CHECK(cudaMalloc(&d_sum, BLOCKS * sizeof(double)));
    CHECK(cudaMalloc(&d_sq, BLOCKS * sizeof(double)));
    cudaEvent_t t0, t1;             // events: timestamps the GPU records in its queue
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    integrate<<<BLOCKS, THREADS>>>(1.0f, 2.0f, 0, d_sum, d_sq);   // warm-up: loads the code
    CHECK(cudaGetLastError());
    for (int r = 0; r < 2; ++r) {
        double a = range[r][0], b = range[r][1], total = 0, total_sq = 0;
        float ms;
        CHECK(cudaEventRecord(t0));
        integrate<<<BLOCKS, THREADS>>>((float)a, (float)b, n, d_sum, d_sq);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaMemcpy(sum, d_sum, BLOCKS * sizeof(double), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(sq, d_sq, BLOCKS * sizeof(double), cudaMemcpyDeviceToHost));
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        for (int k = 0; k < BLOCKS; ++k) { total += sum[k]; total_sq += sq[k]; }
        double mean = total / n, var = (total_sq - n * mean * mean) / (n - 1);
        double estimate = (b - a) * mean, se = (b - a) * sqrt(var / n), exact = log(b / a);
        int ok = fabs(estimate - exact) <= 4 * se;   // false for NaN
        printf("1/x over [%g, %g], %lld samples: ours %.7f +- %.1e, the document's %.7f\n"
               "  exact ln(b/a) %.7f: ours is %+.2f standard errors off: %s (kernel %.3f ms)\n",
               a, b, n, estimate, se, range[r][2], exact, (estimate - exact) / se,
               ok ? "ok" : "WRONG", ms);
        failed += !ok;
    }
    printf("%s\n", failed ? "FAIL" : "PASS");
    CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(d_sum)); CHECK(cudaFree(d_sq)); free(sum); free(sq);
    return failed ? 1 : 0;
}
