/* coalescing: the same copy with neighbouring threads reading neighbouring floats (stride 1) or
 * floats 32 apart (stride 32), timed with CUDA events (docs/00_basics_2.md, sections 5 and 6).
 *
 *   coalescing [--n N] [--csv FILE]
 *
 * Both runs read every element of `in` once and write every element of `out` once: only the
 * order of the reads differs. Each result is checked on the CPU before its time is reported;
 * the time is the median of 9 runs after a warm-up. Exit 0 pass, 1 fail, 2 bad usage, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_provenance.h"

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

#define RUNS 9

/* Thread i reads element source(i): with stride s, threads i and i+1 read elements s apart (the
 * array seen as rows of s columns, read column by column); the n % s leftovers are read in
 * place. Stride 1 returns i at once: the two divisions below cost the plain copy about a fifth
 * of its bandwidth (measured on an H200), which would make the comparison unfair. */
__host__ __device__ static inline int source(int i, int n, int stride)
{
    if (stride == 1)
        return i;
    const int rows = n / stride;
    return i < rows * stride ? (i % rows) * stride + i / rows : i;
}

__global__ void strided_copy_kernel(const float *in, float *out, int n, int stride)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[source(i, n, stride)];
}

static int compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Checks one stride's result, then returns the median time of RUNS launches in ms (-1: wrong). */
static float time_copy(const float *in, float *out, const float *d_in, float *d_out, int n,
                       int stride)
{
    const int threads = 256, blocks = (n + threads - 1) / threads;
    CHECK(cudaMemset(d_out, 0xFF, n * sizeof(float))); /* NaN: an unwritten element fails */
    strided_copy_kernel<<<blocks, threads>>>(d_in, d_out, n, stride); /* also the warm-up */
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (!(out[i] == in[source(i, n, stride)])) {
            printf("stride %d: out[%d] = %g, expected %g\n", stride, i, out[i],
                   in[source(i, n, stride)]);
            return -1.0f;
        }
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float ms[RUNS];
    for (int r = 0; r < RUNS; r++) {
        CHECK(cudaEventRecord(start)); /* marks a point in the GPU's work queue */
        strided_copy_kernel<<<blocks, threads>>>(d_in, d_out, n, stride);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop)); /* the host waits until the GPU reaches `stop` */
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    qsort(ms, RUNS, sizeof ms[0], compare_floats);
    return ms[RUNS / 2];
}

int main(int argc, char **argv)
{
    int n = 1 << 26; /* 256 MiB per array: far more than the L2 holds */
    const char *csv = NULL;
    for (int a = 1; a < argc; a++) {
        char *end = NULL;
        long v = 0;
        if (strcmp(argv[a], "--n") == 0 && a + 1 < argc)
            v = strtol(argv[a + 1], &end, 10);
        if (end && !*end && v >= 1 && v <= (1L << 30)) { /* int indices, with room to round up */
            n = (int)v;
            a++;
        } else if (strcmp(argv[a], "--csv") == 0 && a + 1 < argc) {
            csv = argv[++a];
        } else {
            fprintf(stderr, "usage: coalescing [--n N (1 to 2^30)] [--csv FILE]\n");
            return strcmp(argv[a], "--help") == 0 ? 0 : 2;
        }
    }
    skip_without_gpu();
    const size_t bytes = (size_t)n * sizeof(float);
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes), *d_in, *d_out;
    if (!in || !out) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    srand(1);
    for (int i = 0; i < n; i++)
        in[i] = (float)rand() / RAND_MAX;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));

    const int strides[2] = {1, 32};
    float ms[2];
    for (int s = 0; s < 2; s++) {
        ms[s] = time_copy(in, out, d_in, d_out, n, strides[s]);
        if (ms[s] < 0)
            return 1;
        printf("stride %2d: %8.4f ms, %7.1f GB/s (median of %d; %zu bytes read and written)\n",
               strides[s], ms[s], 2.0 * bytes / ms[s] / 1e6, RUNS, 2 * bytes);
    }
    printf("stride 32 takes %.1f times as long as stride 1\n", ms[1] / ms[0]);
    if (csv) {
        FILE *f = fopen(csv, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", csv);
            return 2;
        }
        write_csv_provenance(f, 0, 0);
        fprintf(f, "stride,n,ms,gbps,time_over_stride_1\n");
        for (int s = 0; s < 2; s++)
            fprintf(f, "%d,%d,%.5f,%.1f,%.3f\n", strides[s], n, ms[s], 2.0 * bytes / ms[s] / 1e6,
                    ms[s] / ms[0]);
        fclose(f);
        printf("wrote %s\n", csv);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(in);
    free(out);
    printf("PASS\n");
    return 0;
}
