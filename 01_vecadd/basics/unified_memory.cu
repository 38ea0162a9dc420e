/* unified_memory: one pointer for host and device (cudaMallocManaged), and what moving the pages
 * on demand costs against copying them (docs/00_basics_3.md, section 9; the measurement and its
 * table: docs/00_basics_appendix.md, "What moving pages on demand costs").
 *
 *   unified_memory [--n N] [--reps R] [--csv FILE]
 *
 * The same kernel (x = 2x + 1 over n floats, default 2^26 = 256 MiB) runs on data that starts in
 * the host's memory, four ways; each is timed with CUDA events from the data on the host to the
 * kernel's end, after a warm-up, median of R runs, and its result is checked on the CPU:
 *   resident   the data already on the GPU (cudaMalloc): the kernel alone, the floor;
 *   explicit   cudaMemcpy to a cudaMalloc'ed array, then the kernel;
 *   on_demand  cudaMallocManaged, written by the host, then the kernel: the pages move to the GPU
 *              when its threads first touch them (page faults);
 *   prefetch   the same, with cudaMemPrefetchAsync moving all the pages before the kernel.
 * The size is capped at 256 MiB and at a quarter of the GPU's free memory.
 * Exit 0 pass, 1 fail, 2 bad usage, 77 no GPU (or no managed memory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_provenance.h"

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

#define MAX_N (1L << 26) /* 256 MiB of floats */
#define METHODS 4

static const char *method_name[METHODS] = {"resident", "explicit", "on_demand", "prefetch"};
enum method { RESIDENT, EXPLICIT, ON_DEMAND, PREFETCH };

__global__ void scale_kernel(float *x, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        x[i] = 2.0f * x[i] + 1.0f;
}

/* Moves managed pages to a device (or to the host: cudaCpuDeviceId). CUDA 13 changed the call:
 * it takes a cudaMemLocation and flags where CUDA 12 took a device number. */
static cudaError_t prefetch(const void *p, size_t bytes, int device)
{
#if CUDART_VERSION >= 13000
    struct cudaMemLocation where = {.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                                                      : cudaMemLocationTypeDevice,
                                    .id = device};
    return cudaMemPrefetchAsync(p, bytes, where, 0, 0);
#else
    return cudaMemPrefetchAsync(p, bytes, device, 0);
#endif
}

static int compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Times one method: reps + 1 runs (the first a warm-up), each from the input on the host to the
 * kernel's end; checks the last result. Returns the median in ms, -1 if a result is wrong. */
static float time_method(enum method m, const float *input, size_t n, int reps, int device)
{
    const size_t bytes = n * sizeof(float);
    float *host = (float *)malloc(bytes), *x; /* x: the array the kernel works on */
    float *ms = (float *)malloc((reps + 1) * sizeof(float));
    if (!host || !ms) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    if (m == RESIDENT || m == EXPLICIT)
        CHECK(cudaMalloc(&x, bytes));
    else
        CHECK(cudaMallocManaged(&x, bytes)); /* one pointer, valid on the host and the device */
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, device));
    const int threads = 256, blocks = prop.multiProcessorCount * 8; /* a grid-stride loop */
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int r = 0; r <= reps; r++) {
        /* The input, back on the host: the managed pages move back to the CPU as it writes. */
        if (m == ON_DEMAND || m == PREFETCH)
            memcpy(x, input, bytes);
        else if (m == RESIDENT)
            CHECK(cudaMemcpy(x, input, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        if (m == EXPLICIT)
            CHECK(cudaMemcpy(x, input, bytes, cudaMemcpyHostToDevice));
        if (m == PREFETCH)
            CHECK(prefetch(x, bytes, device));
        scale_kernel<<<blocks, threads>>>(x, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop)); /* also: the host must not touch x while it runs */
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    if (m == RESIDENT || m == EXPLICIT)
        CHECK(cudaMemcpy(host, x, bytes, cudaMemcpyDeviceToHost));
    else
        memcpy(host, x, bytes); /* the host reads the managed array directly */
    long wrong = 0;
    for (size_t i = 0; i < n; i++)
        if (!(host[i] == 2.0f * input[i] + 1.0f) && wrong++ < 3) /* 2x is exact: one rounding */
            printf("%s: x[%zu] = %g, expected %g\n", method_name[m], i, host[i],
                   2.0f * input[i] + 1.0f);
    qsort(ms + 1, reps, sizeof(float), compare_floats); /* ms[0] was the warm-up */
    const float median = ms[1 + reps / 2];
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(x)); /* cudaFree frees managed memory too */
    free(host);
    free(ms);
    return wrong ? -1.0f : median;
}

static void write_csv(const char *path, const float *ms, int methods, size_t n, int reps,
                      int device)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
    write_csv_provenance(f, device, 0);
    fprintf(f, "# each: median of %d runs after a warm-up, from the data on the host to the "
               "kernel's end\n", reps);
    fprintf(f, "method,mib,ms,gbps,time_over_explicit\n");
    for (int m = 0; m < methods; m++)
        fprintf(f, "%s,%.0f,%.4f,%.1f,%.3f\n", method_name[m], n * 4.0 / (1 << 20), ms[m],
                n * 4.0 / ms[m] / 1e6, ms[m] / ms[EXPLICIT]);
    fclose(f);
    printf("wrote %s\n", path);
}

int main(int argc, char **argv)
{
    long n = MAX_N, reps = 7;
    const char *csv = NULL;
    for (int a = 1; a < argc; a++) {
        char *end = NULL;
        long *opt = !strcmp(argv[a], "--n") ? &n : !strcmp(argv[a], "--reps") ? &reps : NULL;
        if (!opt && !strcmp(argv[a], "--csv") && a + 1 < argc) {
            csv = argv[++a];
            continue;
        }
        if (opt && a + 1 < argc)
            *opt = strtol(argv[++a], &end, 10);
        if (!opt || !end || *end || n < 1 || n > MAX_N || reps < 1 || reps > 100) {
            fprintf(stderr, "usage: unified_memory [--n 1..%ld (256 MiB of floats)] "
                            "[--reps 1..100] [--csv FILE]\n", MAX_N);
            return strcmp(argv[a], "--help") == 0 ? 0 : 2;
        }
    }
    skip_without_gpu();
    int device = 0, managed = 0, concurrent = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, device));
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
    if (!managed) {
        printf("SKIPPED: this GPU (or its driver) offers no managed memory\n");
        return 77;
    }
    size_t free_bytes = 0, total_bytes = 0; /* never ask for more than the GPU has free */
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if ((size_t)n * sizeof(float) > free_bytes / 4) {
        n = (long)(free_bytes / 4 / sizeof(float));
        printf("capped at a quarter of the GPU's free memory: n = %ld\n", n);
    }
    if (n < 1) {
        printf("SKIPPED: the GPU has no memory free\n");
        return 77;
    }
    /* Without concurrent managed access (GPUs before Pascal; Windows; some virtual machines),
     * managed pages are not moved one by one on demand: all of them go to the GPU at each launch,
     * the host may not touch them until the GPU is idle, and prefetching is not available. */
    const int methods = concurrent ? METHODS : PREFETCH;
    if (!concurrent)
        printf("note: concurrentManagedAccess is 0 on this system: managed memory moves as a "
               "whole at each launch, not page by page; no prefetch measured\n");
    float *input = (float *)malloc(n * sizeof(float));
    if (!input) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    srand(1);
    for (long i = 0; i < n; i++)
        input[i] = (float)rand() / RAND_MAX - 0.5f;
    float ms[METHODS];
    int failed = 0;
    for (int m = 0; m < methods; m++) {
        ms[m] = time_method((enum method)m, input, (size_t)n, (int)reps, device);
        failed |= ms[m] < 0;
    }
    if (failed) {
        free(input);
        printf("FAIL\n");
        return 1;
    }
    printf("%ld floats (%.1f MiB), median of %ld runs, from the data on the host to the kernel's "
           "end:\n", n, n * 4.0 / (1 << 20), reps);
    for (int m = 0; m < methods; m++)
        printf("  %-10s %9.3f ms  %7.1f GB/s  %5.2f x explicit\n", method_name[m], ms[m],
               n * 4.0 / ms[m] / 1e6, ms[m] / ms[EXPLICIT]);
    if (csv)
        write_csv(csv, ms, methods, (size_t)n, (int)reps, device);
    free(input);
    printf("PASS\n");
    return 0;
}
