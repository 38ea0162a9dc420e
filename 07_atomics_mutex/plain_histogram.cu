/* plain_histogram [n]: a race, atomicAdd, a text histogram (docs/07_atomics_mutex.md, "The
 * program"). Part 1: 10 blocks x 16 threads each add one to one counter, with x = x + 1 (a race)
 * and with atomicAdd (exact: 160). Part 2: a 128-bin histogram of n bytes of random text (default
 * 5638519, the atomics tutorial's size), one global atomicAdd per byte, timed with events, checked
 * against a CPU count. Exit 0 if the exact results are right, 1 if not, 2 bad usage, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>

/* CHECK(call) and skip_without_gpu(), as docs/00_basics_2.md (section 7) teaches them (one definition). */
#include "../01_vecadd/basics/check.h"

__global__ void add_one_race(int *x) { x[0] = x[0] + 1; } /* load, add, store: a data race */
__global__ void add_one_atomic(int *x) { atomicAdd(x, 1); } /* one indivisible read-add-write */

/* A grid-stride loop over the text; bytes 128..255 (pieces of UTF-8 characters) have no bin. */
__global__ void histogram_kernel(const unsigned char *text, size_t n, unsigned long long *bins)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        if (text[i] < 128)
            atomicAdd(&bins[text[i]], 1ull);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const size_t n = argc > 1 ? strtoull(argv[1], &end, 10) : 5638519;
    if (argc > 2 || (end && (*end || argv[1][0] == '-')) || n > 2000000000) {
        fprintf(stderr, "usage: plain_histogram [n, 0 to 2000000000]\n");
        return 2;
    }
    skip_without_gpu(); /* after the arguments: bad usage is refused even without a GPU */

    int *d_x, race = 0, atomic = 0; /* Part 1: the race */
    CHECK(cudaMalloc(&d_x, sizeof(int)));
    CHECK(cudaMemset(d_x, 0, sizeof(int)));
    add_one_race<<<10, 16>>>(d_x);
    CHECK(cudaGetLastError()); /* a launch that failed is reported here */
    CHECK(cudaMemcpy(&race, d_x, sizeof(int), cudaMemcpyDeviceToHost)); /* waits for the kernel */
    CHECK(cudaMemset(d_x, 0, sizeof(int)));
    add_one_atomic<<<10, 16>>>(d_x);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&atomic, d_x, sizeof(int), cudaMemcpyDeviceToHost));
    printf("10 x 16 threads add 1: race %d, atomicAdd %d (expected 160)\n", race, atomic);
    int ok = atomic == 160 && race >= 1 && race <= 160; /* the race may give anything in 1..160 */

    /* Part 2: the histogram of text-like bytes: letters, spaces, a few UTF-8 lead bytes. */
    const char *alphabet = "     etaoinshrdlucmfwypvbgkjqxz\xC3"; /* 32 bytes, 5 spaces */
    unsigned char *text = (unsigned char *)malloc(n + 1), *d_text;
    if (!text) { fprintf(stderr, "out of host memory\n"); return 1; }
    for (size_t i = 0; i < n; i++) /* rand() starts from seed 1: the same text every run */
        text[i] = (unsigned char)alphabet[rand() % 32];
    unsigned long long bins[128], *d_bins, cpu[128] = {0};
    float ms = 0.0f;
    CHECK(cudaMalloc(&d_text, n + 1));
    CHECK(cudaMalloc(&d_bins, sizeof bins));
    CHECK(cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice));
    cudaDeviceProp prop; /* one wave: as many 128-thread blocks as the GPU holds at once */
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / 128);
    cudaEvent_t start, stop; /* timestamps in the GPU's stream of work */
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int run = 0; run < 2; run++) { /* run 0 is a warm-up; run 1 is timed */
        CHECK(cudaMemset(d_bins, 0, sizeof bins));
        CHECK(cudaEventRecord(start));
        histogram_kernel<<<blocks, 128>>>(d_text, n, d_bins);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms, start, stop));
    }
    CHECK(cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) /* the CPU reference */
        if (text[i] < 128)
            cpu[text[i]]++;
    int wrong = 0; /* bins the GPU got wrong */
    for (int c = 0; c < 128; c++)
        if (bins[c] != cpu[c] && wrong++ < 5)
            printf("bin %d: GPU %llu, CPU %llu\n", c, bins[c], cpu[c]);
    printf("histogram of %zu bytes, %d blocks x 128 threads: %.3f ms; ' ' %llu, 'e' %llu; "
           "%d bins wrong\n", n, blocks, ms, bins[' '], bins['e'], wrong);
    ok = ok && wrong == 0;
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_text));
    CHECK(cudaFree(d_bins));
    free(text);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
