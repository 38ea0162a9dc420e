/* plain_streams [n]: the multi-stream blog's vector add done right (docs/06_streams.md,
 * "The program"). out = x + y over n ints (default 20,000,000) in pinned host memory: first
 * serially (copy in, add, copy out in one stream), then in 5 chunks on 5 streams, each chunk in
 * its own slice of the device arrays, so that one chunk's copies overlap another's. Both timed
 * with events after a warm-up and checked against the CPU. Exit 0 if both are right, 1 if not,
 * 2 bad usage, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CHECK(call) and skip_without_gpu(), as docs/00_basics_2.md (section 7) teaches them (one definition). */
#include "../01_vecadd/basics/check.h"

#define STREAMS 5
typedef struct { int *x, *y, *out, *d_x, *d_y, *d_out; size_t n; } vectors;

__global__ void add_kernel(const int *x, const int *y, int *out, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i];
}

/* One run cut into `chunks` pieces, chunk c on stream[c]: its copy in, add and copy out are
 * queued without waiting. Two events on the default stream bracket the run: the default stream
 * waits for every blocking stream (cudaStreamCreate), and they for it. Returns milliseconds. */
static float run(const vectors *v, int chunks, const cudaStream_t *stream, int *wrong)
{
    cudaEvent_t start, stop;
    float ms = 0.0f;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    memset(v->out, 0xFF, v->n * sizeof(int)); /* -1: an element nobody copies back is wrong */
    CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < chunks; c++) { /* chunk c: elements [a, a + count) */
        const size_t a = c * v->n / chunks, count = (c + 1) * v->n / chunks - a;
        const size_t bytes = count * sizeof(int), blocks = (count + 255) / 256;
        if (count == 0)
            continue;
        CHECK(cudaMemcpyAsync(v->d_x + a, v->x + a, bytes, cudaMemcpyHostToDevice, stream[c]));
        CHECK(cudaMemcpyAsync(v->d_y + a, v->y + a, bytes, cudaMemcpyHostToDevice, stream[c]));
        add_kernel<<<blocks, 256, 0, stream[c]>>>(v->d_x + a, v->d_y + a, v->d_out + a, count);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(v->out + a, v->d_out + a, bytes, cudaMemcpyDeviceToHost, stream[c]));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop)); /* the host waits here, and only here */
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    *wrong = 0;
    for (size_t i = 0; i < v->n; i++)
        *wrong += v->out[i] != v->x[i] + v->y[i];
    return ms;
}

int main(int argc, char **argv)
{
    vectors v;
    char *end = NULL;
    v.n = argc > 1 ? strtoull(argv[1], &end, 10) : 20000000;
    if (argc > 2 || (end && (*end || argv[1][0] == '-')) || v.n < 1 || v.n > 500000000) {
        fprintf(stderr, "usage: plain_streams [n, 1 to 500000000]\n");
        return 2;
    }
    skip_without_gpu(); /* after the arguments: bad usage is refused even without a GPU */
    const size_t bytes = v.n * sizeof(int); /* of each array */
    CHECK(cudaMallocHost(&v.x, 3 * bytes)); /* pinned (page-locked) host memory: x, y, out */
    CHECK(cudaMalloc(&v.d_x, 3 * bytes));   /* device memory: x, y, out */
    v.y = v.x + v.n, v.out = v.y + v.n, v.d_y = v.d_x + v.n, v.d_out = v.d_y + v.n;
    for (size_t i = 0; i < 2 * v.n; i++) /* x, then y: random, from rand()'s fixed seed 1 */
        v.x[i] = rand() % 1000000;
    cudaStream_t stream[STREAMS];
    for (int s = 0; s < STREAMS; s++)
        CHECK(cudaStreamCreate(&stream[s]));
    int wrong_serial, wrong_streams;
    run(&v, 1, stream, &wrong_serial); /* warm-up: loads the kernel, touches every page */
    const float serial = run(&v, 1, stream, &wrong_serial);
    const float streams = run(&v, STREAMS, stream, &wrong_streams);
    printf("n = %zu ints: serial %.3f ms (%d wrong), %d streams %.3f ms (%d wrong): %.2fx\n", v.n,
           serial, wrong_serial, STREAMS, streams, wrong_streams, serial / streams);
    for (int s = 0; s < STREAMS; s++)
        CHECK(cudaStreamDestroy(stream[s]));
    CHECK(cudaFreeHost(v.x));
    CHECK(cudaFree(v.d_x));
    const int ok = wrong_serial == 0 && wrong_streams == 0;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
