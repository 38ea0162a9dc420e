// plain_sessionize.cu: the Numba CUDA examples' sessionize, simple and correct. Kernel 1 marks
// each session start with its index (else 0); kernel 2, ONE block, takes the running maximum of
// the marks (a max-scan): an event's label is the index of the latest start at or before it.
// Usage: plain_sessionize [n]: no n, the document's 28 events; n, n random sorted events.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../01_vecadd/basics/check.h"   // CHECK(call), skip_without_gpu(): docs/00_basics_2.md
#define TIMEOUT 3600   // the document's one hour, in the timestamps' unit
#define THREADS 1024   // the scan's one block
#define MAX_EVENTS 100000000LL   // 32 bytes per event on the GPU: 3.2 GB at most
// Start of a session: the first event, a new user, or a gap of more than TIMEOUT. The gap is
// computed unsigned and only when time goes forward, so it cannot overflow.
__host__ __device__ int64_t start_mark(const int64_t *user, const int64_t *ts, int64_t i)
{
    if (i == 0 || user[i] != user[i - 1]) return i;
    return ts[i] > ts[i - 1] && (uint64_t)ts[i] - (uint64_t)ts[i - 1] > TIMEOUT ? i : 0;
}
__global__ void mark_starts(const int64_t *user, const int64_t *ts, int64_t *mark, int64_t n)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mark[i] = start_mark(user, ts, i);
}

// Each thread scans its own chunk, the block scans the chunks' maxima in shared memory, then each
// thread rescans its chunk starting from the maximum of the chunks before its own.
__global__ void max_scan_one_block(const int64_t *mark, int64_t *label, int64_t n)
{
    __shared__ int64_t chunk_max[THREADS];
    int64_t per = (n + THREADS - 1) / THREADS, lo = threadIdx.x * per;
    int64_t hi = lo + per < n ? lo + per : n, m = 0;
    for (int64_t i = lo; i < hi; ++i) m = mark[i] > m ? mark[i] : m;
    chunk_max[threadIdx.x] = m;
    __syncthreads();
    for (int d = 1; d < THREADS; d *= 2) {   // after step d: the max of the last 2d chunks
        int64_t other = threadIdx.x >= d ? chunk_max[threadIdx.x - d] : 0;
        __syncthreads();
        if (other > chunk_max[threadIdx.x]) chunk_max[threadIdx.x] = other;
        __syncthreads();
    }
    m = threadIdx.x > 0 ? chunk_max[threadIdx.x - 1] : 0;
    for (int64_t i = lo; i < hi; ++i) { m = mark[i] > m ? mark[i] : m; label[i] = m; }
}
static const int64_t doc_user[28] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4};
static const int64_t doc_ts[28] = {1, 2, 3, 5000, 5001, 5002, 1, 2, 3, 1, 2, 5000, 5001, 10000,
    10001, 10002, 10003, 15000, 150001, 1, 5000, 50001, 15000, 20000, 25000, 25001, 25002, 25003};
static const int64_t doc_labels[28] = {0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 11, 11, 13, 13, 13, 13,
    17, 18, 19, 20, 21, 21, 23, 24, 24, 24, 24};   // the labels the document prints

int main(int argc, char **argv)
{
    char *end = NULL;   // n: the whole argument must be a number (no 1e6, 12abc), 1 to MAX_EVENTS
    int64_t n = argc > 1 ? strtoll(argv[1], &end, 10) : 28, wrong = 0, latest = 0, sessions = 0;
    if (argc > 2 || (end && (*end || end == argv[1])) || n < 1 || n > MAX_EVENTS)
        { fprintf(stderr, "usage: plain_sessionize [n, 1 to %lld]\n", MAX_EVENTS); return 2; }
    skip_without_gpu();   // after the arguments: bad usage is refused even without a GPU
    size_t bytes = (size_t)n * sizeof(int64_t);
    int64_t *user = (int64_t *)malloc(bytes), *ts = (int64_t *)malloc(bytes);
    int64_t *label = (int64_t *)malloc(bytes), *d_user, *d_ts, *d_mark, *d_label;
    if (!user || !ts || !label) { fprintf(stderr, "out of host memory\n"); return 1; }
    uint64_t r = 12345;   // random sorted events: a new user 1 time in 16, gaps of 0 to 7200
    for (int64_t i = 0; i < n; ++i) {
        if (argc == 1) { user[i] = doc_user[i]; ts[i] = doc_ts[i]; continue; }
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        user[i] = i == 0 ? 1 : user[i - 1] + (r >> 60 == 0);
        ts[i] = i == 0 || user[i] != user[i - 1] ? 0 : ts[i - 1] + (int64_t)(r >> 33) % 7201;
    }
    CHECK(cudaMalloc(&d_user, bytes)); CHECK(cudaMalloc(&d_ts, bytes));
    CHECK(cudaMalloc(&d_mark, bytes)); CHECK(cudaMalloc(&d_label, bytes));
    CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t t0, t1; float ms = 0;   // events: timestamps the GPU records in its queue
    CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
    for (int run = 0; run < 2; ++run) {   // run 0 is a warm-up: the first launches load code
        CHECK(cudaMemset(d_label, 0xFF, bytes));   // -1: a label no thread writes is wrong
        CHECK(cudaEventRecord(t0));
        mark_starts<<<(unsigned)((n + 255) / 256), 256>>>(d_user, d_ts, d_mark, n);
        CHECK(cudaGetLastError());
        max_scan_one_block<<<1, THREADS>>>(d_mark, d_label, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
    }
    CHECK(cudaMemcpy(label, d_label, bytes, cudaMemcpyDeviceToHost));   // waits for the kernels
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    for (int64_t i = 0; i < n; ++i) {   // the CPU reference: one serial walk
        if (start_mark(user, ts, i) == i) { latest = i; ++sessions; }
        wrong += label[i] != latest || (argc == 1 && label[i] != doc_labels[i]);
    }
    for (int i = 0; argc == 1 && i < 28; ++i)   // the document's labels beside ours
        printf("event %2d: user %lld, t %6lld: document %2lld, ours %2lld\n", i, (long long)user[i],
               (long long)ts[i], (long long)doc_labels[i], (long long)label[i]);
    printf("%lld events, %lld sessions, %lld labels wrong: %s (kernels %.3f ms)\n", (long long)n,
           (long long)sessions, (long long)wrong, wrong ? "FAIL" : "PASS", ms);
    CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1)); CHECK(cudaFree(d_user));
    CHECK(cudaFree(d_ts)); CHECK(cudaFree(d_mark)); CHECK(cudaFree(d_label));
    free(user); free(ts); free(label);
    return wrong ? 1 : 0;
}
