/* plain_vecadd.cu: chapter 01's first program, on the CUDA runtime API alone.
 * c = a + b for 100000 random doubles (the vector add of the Numba CUDA examples), in the shape
 * of cuda-samples' vectorAdd: allocate on the GPU, copy in, launch, copy out, check on the CPU.
 *   plain_vecadd [--n N] [--seed S]
 * Exit codes: 0 pass, 1 wrong result or CUDA error, 2 bad usage, 77 no GPU or no code for it. */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CHECK(call) and skip_without_gpu(): the error check and the skip of docs/00_basics_2.md,
 * section 7; one definition for every basics and plain program. */
#include "basics/check.h"

/* One thread per element; the grid is whole blocks, so the threads past n do nothing. */
__global__ void vecadd(const double *a, const double *b, double *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    long n = 100000, seed = 1; /* n < 2^31, so an int index is enough (vecadd.cu goes beyond) */
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        const int help = !strcmp(argv[i], "--help"); /* before argv[i + 1] is read as a value */
        long *opt = !strcmp(argv[i], "--n") ? &n : !strcmp(argv[i], "--seed") ? &seed : NULL;
        errno = 0; /* strtol's only sign of a number too long for a long (99999999999999999999) */
        if (opt && i + 1 < argc) *opt = strtol(argv[++i], &end, 10);
        if (!opt || !end || *end || errno || n < 1 || n > 100000000 || seed < 0) {
            fprintf(help ? stdout : stderr,
                    "usage: plain_vecadd [--n 1..100000000] [--seed S >= 0]\n");
            return help ? 0 : 2;
        }
    }
    skip_without_gpu(); /* after the arguments: bad usage is refused even without a GPU */
    size_t bytes = n * sizeof(double);
    double *a = (double *)malloc(bytes), *b = (double *)malloc(bytes), *c = (double *)malloc(bytes);
    if (!a || !b || !c) { fprintf(stderr, "out of host memory\n"); return 1; }
    srand((unsigned)seed); /* the inputs: uniform in [0, 1), like NumPy's random.random */
    for (long i = 0; i < n; i++) {
        a[i] = rand() / (RAND_MAX + 1.0);
        b[i] = rand() / (RAND_MAX + 1.0);
    }

    double *d_a, *d_b, *d_c;
    /* cudaMalloc(void **p, size) writes the GPU address into *p. nvcc compiles .cu files as C++,
     * and cuda_runtime.h adds a template for any T **, so &d_a (a double **) needs no cast. */
    CHECK(cudaMalloc(&d_a, bytes)); /* memory on the GPU: d_ for device */
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads); /* round up: every element gets a thread */
    vecadd<<<blocks, threads>>>(d_a, d_b, d_c, (int)n); /* warm-up: the first launch loads code */
    CHECK(cudaGetLastError()); /* a launch that could not start says so here */
    CHECK(cudaMemset(d_c, 0xFF, bytes)); /* all bits set is NaN: an unwritten element fails */
    cudaEvent_t start, stop; /* timestamps the GPU writes as it reaches them in its queue */
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    vecadd<<<blocks, threads>>>(d_a, d_b, d_c, (int)n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop)); /* errors inside the kernel surface here */
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));

    long wrong = 0;
    for (long i = 0; i < n; i++)
        if (!(c[i] == a[i] + b[i])) /* exact: one IEEE addition rounds alike on both; NaN fails */
            if (wrong++ < 5) printf("c[%ld] = %.17g, expected %.17g\n", i, c[i], a[i] + b[i]);
    printf("n = %ld, seed %ld: %d blocks x %d threads\n", n, seed, blocks, threads);
    printf("c = [%.8f %.8f ... %.8f]\n", c[0], n > 1 ? c[1] : c[0], c[n - 1]);
    printf("kernel: %.4f ms, %.1f GB/s (24 bytes moved per element)\n", ms,
           3.0 * bytes / (ms * 1e6));
    printf("%ld of %ld elements wrong\n%s\n", wrong, n, wrong ? "FAIL" : "PASS");
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c));
    free(a); free(b); free(c);
    return wrong ? 1 : 0;
}
