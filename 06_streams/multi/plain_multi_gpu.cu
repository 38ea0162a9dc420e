/* plain_multi_gpu [n]: x . y over n floats (default 50,000,000) split across every GPU, checked
 * against the CPU's float64 sum (docs/06_streams_2.md). Exit 0 right, 1 wrong, 2 bad usage or an
 * n that does not fit the GPUs' free memory or the host's pinned memory, 77 no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../01_vecadd/basics/check.h"

#define MAX_GPUS 64
#define THREADS 256
#define SEED 2024u /* the inputs' seed (printed) */

/* Each block adds x[i] * y[i] over a grid-stride loop, then its threads' sums in shared memory. */
__global__ void partial_dot_kernel(const float *x, const float *y, size_t n, double *partial)
{
    __shared__ double sums[THREADS];
    double sum = 0.0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        sum += (double)x[i] * y[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sums[0];
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const long long n = argc > 1 ? strtoll(argv[1], &end, 10) : 50000000;
    if (argc > 2 || (end && *end) || n < 1 || n > (1LL << 34)) {
        fprintf(stderr, "usage: plain_multi_gpu [n]   (1 <= n <= 2^34, default 50000000)\n");
        return 2;
    }
    skip_without_gpu();
    int gpus = 0, blocks[MAX_GPUS];
    CHECK(cudaGetDeviceCount(&gpus));
    gpus = gpus > MAX_GPUS ? MAX_GPUS : gpus;
    size_t free_bytes = 0, total_bytes = 0, fits = (size_t)-1; /* the largest n every GPU holds */
    for (int g = 0; g < gpus; g++) { /* 2 floats per element of its n / gpus + 1, 10% spare */
        CHECK(cudaSetDevice(g)); CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        const size_t here = (free_bytes / 10 * 9 / (2 * sizeof(float)) - 2) * gpus;
        fits = here < fits ? here : fits;
    }
    float *x = NULL, *y = NULL, *d_x[MAX_GPUS], *d_y[MAX_GPUS]; /* x, y pinned: async copies */
    if ((size_t)n > fits || cudaMallocHost(&x, n * sizeof(float)) != cudaSuccess ||
        cudaMallocHost(&y, n * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "n = %lld does not fit: the GPUs' free memory holds n <= %zu, and the "
                "host must pin 2 n floats (%.1f GiB)\n", n, fits, n * 8.0 / (1 << 30));
        return 2;
    }
    double gpu_sum = 0.0, cpu_sum = 0.0, cpu_abs = 0.0, *d_partial[MAX_GPUS], *partial[MAX_GPUS];
    srand(SEED);
    for (long long i = 0; i < n; i++) { /* the inputs, and the CPU's float64 sums of them */
        x[i] = (float)rand() / RAND_MAX - 0.5f;
        y[i] = (float)rand() / RAND_MAX - 0.5f;
        cpu_sum += (double)x[i] * y[i];
        cpu_abs += fabs((double)x[i] * y[i]);
    }
    cudaStream_t stream[MAX_GPUS];
    for (int g = 0; g < gpus; g++) { /* first every GPU's stream and memory: an allocation may */
        const long long count = n * (g + 1) / gpus - n * g / gpus; /* wait for queued work */
        cudaDeviceProp prop;
        CHECK(cudaSetDevice(g)); /* from here on, every call below works on GPU g */
        CHECK(cudaGetDeviceProperties(&prop, g));
        blocks[g] = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / THREADS);
        CHECK(cudaStreamCreate(&stream[g]));
        CHECK(cudaMalloc(&d_x[g], (count + 1) * sizeof(float))); /* + 1: never a 0-byte buffer */
        CHECK(cudaMalloc(&d_y[g], (count + 1) * sizeof(float)));
        CHECK(cudaMalloc(&d_partial[g], blocks[g] * sizeof(double)));
        CHECK(cudaMallocHost(&partial[g], blocks[g] * sizeof(double)));
    }
    for (int g = 0; g < gpus; g++) { /* GPU g: [first, first + count), count 0 if n < gpus */
        const long long first = n * g / gpus, count = n * (g + 1) / gpus - first;
        const size_t bytes = count * sizeof(float);
        CHECK(cudaSetDevice(g));
        CHECK(cudaMemcpyAsync(d_x[g], x + first, bytes, cudaMemcpyHostToDevice, stream[g]));
        CHECK(cudaMemcpyAsync(d_y[g], y + first, bytes, cudaMemcpyHostToDevice, stream[g]));
        partial_dot_kernel<<<blocks[g], THREADS, 0, stream[g]>>>(d_x[g], d_y[g], count,
                                                                  d_partial[g]);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(partial[g], d_partial[g], blocks[g] * sizeof(double),
                              cudaMemcpyDeviceToHost, stream[g]));
    } /* the loop queued work on every GPU without waiting: they all run at once */
    for (int g = 0; g < gpus; g++) {
        CHECK(cudaSetDevice(g)); CHECK(cudaStreamSynchronize(stream[g])); /* partials arrived */
        for (int b = 0; b < blocks[g]; b++)
            gpu_sum += partial[g][b];
        CHECK(cudaFree(d_x[g])); CHECK(cudaFree(d_y[g])); CHECK(cudaFree(d_partial[g]));
        CHECK(cudaFreeHost(partial[g])); CHECK(cudaStreamDestroy(stream[g]));
    }
    const int right = fabs(gpu_sum - cpu_sum) <= 1e-10 * cpu_abs + 1e-300; /* NaN fails */
    printf("n = %lld floats (seed %u) on %d GPU%s: dot = %.12g, CPU %.12g: %s\n", n, SEED, gpus,
           gpus == 1 ? "" : "s", gpu_sum, cpu_sum, right ? "PASS" : "FAIL");
    CHECK(cudaFreeHost(x)); CHECK(cudaFreeHost(y));
    return right ? 0 : 1;
}
