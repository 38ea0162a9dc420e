/* warp_shuffle: the threads of a warp pass values to each other through registers
 * (docs/00_basics_3.md, section 8).
 *
 *   warp_shuffle [--n N] [--seed S]
 *
 * Three kernels over n random ints, each checked against sums computed on the CPU:
 *  1. a warp sum with __shfl_down_sync (all 32 lanes take part: the mask 0xffffffff), then a
 *     broadcast of the sum from lane 0 to every lane with __shfl_sync;
 *  2. the same sum where the lanes past the end of the array have left the kernel: a partial
 *     mask, and no lane reads from a lane that is gone;
 *  3. a block sum built from warp sums: each warp sums its values, lane 0 of each warp stores its
 *     sum in shared memory, then the first warp sums those.
 * Ints, so that every sum is exact. Without --n, sizes 1, 31, 33 and 1000003 (a last warp that is
 * partly empty). Exit 0 pass, 1 fail, 2 bad usage, 77 no GPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

#define FULL_MASK 0xffffffffu /* one bit per lane: all 32 lanes of the warp take part */

/* The sum of v over the 32 lanes, in lane 0. Step by step, lane l adds the value of lane
 * l + offset: after offsets 16, 8, 4, 2, 1, lane 0 holds the sum of all 32. (The other lanes
 * hold partial sums; a lane whose source is past lane 31 gets its own value back.) */
__device__ int warp_sum(int v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

/* 1. Every lane takes part, even past the end of the array (with 0), so the mask is full. */
__global__ void warp_sum_kernel(const int *in, int n, int *warp_sums, int *broadcast)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize;
    int v = i < n ? in[i] : 0;
    v = warp_sum(v);
    const int sum = __shfl_sync(FULL_MASK, v, 0); /* every lane reads lane 0's value */
    if (lane == 0 && i < n) /* a warp wholly past the end has no sum to store */
        warp_sums[i / warpSize] = v;
    if (i < n)
        broadcast[i] = sum;
}

/* 2. Lanes past the end leave first. The mask must name exactly the lanes still running
 * (__ballot_sync, before any leaves, sets the bits of the lanes with i < n), and a lane must not
 * read from a lane that has left: its value would be undefined. */
__global__ void partial_warp_sum_kernel(const int *in, int n, int *warp_sums)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize;
    const unsigned mask = __ballot_sync(FULL_MASK, i < n);
    if (i >= n)
        return;
    const int active = __popc(mask); /* the running lanes are 0 .. active - 1 */
    int v = in[i];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        const int other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < active) /* the source lane is still running */
            v += other;
    }
    if (lane == 0)
        warp_sums[i / warpSize] = v;
}

/* 3. A block sum: warp sums, then shared memory, then one warp. One int of shared memory per
 * warp of the block (the launch passes blockDim.x / warpSize of them). */
__global__ void block_sum_kernel(const int *in, int n, int *block_sums)
{
    extern __shared__ int per_warp[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    const int warps = blockDim.x / warpSize;
    const int v = warp_sum(i < n ? in[i] : 0);
    if (lane == 0)
        per_warp[warp] = v;
    __syncthreads(); /* every warp's sum is stored before warp 0 reads them */
    if (warp == 0) {
        const int total = warp_sum(lane < warps ? per_warp[lane] : 0);
        if (lane == 0)
            block_sums[blockIdx.x] = total;
    }
}

/* Counts the entries of got[0..count) that differ from want[]; prints the first few. */
static long count_wrong(const char *what, const int *got, const long long *want, int count)
{
    long wrong = 0;
    for (int k = 0; k < count; k++)
        if (got[k] != want[k] && wrong++ < 3)
            printf("  %s %d: GPU %d, CPU %lld\n", what, k, got[k], want[k]);
    return wrong;
}

/* Runs the three kernels over n values; returns the number of wrong results. */
static long run(int n, unsigned seed, int block_limit)
{
    const int threads = 256; /* a multiple of 32: whole warps */
    const int warps = (n + 31) / 32, blocks = (n + threads - 1) / threads;
    const int big = block_limit, big_blocks = (n + big - 1) / big; /* the largest block */
    int *in = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
    long long *warp_ref = (long long *)calloc(warps, sizeof(long long));
    long long *block_ref = (long long *)calloc(big_blocks, sizeof(long long));
    long long *each_ref = (long long *)malloc(n * sizeof(long long));
    if (!in || !got || !warp_ref || !block_ref || !each_ref) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    srand(seed);
    for (int i = 0; i < n; i++) {
        in[i] = rand() % 2001 - 1000; /* -1000 .. 1000: sums of 1024 fit an int */
        warp_ref[i / 32] += in[i];
        block_ref[i / big] += in[i];
    }
    for (int i = 0; i < n; i++)
        each_ref[i] = warp_ref[i / 32];

    int *d_in, *d_warp, *d_each, *d_block;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_warp, warps * sizeof(int)));
    CHECK(cudaMalloc(&d_each, n * sizeof(int)));
    CHECK(cudaMalloc(&d_block, big_blocks * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    long wrong = 0;

    warp_sum_kernel<<<blocks, threads>>>(d_in, n, d_warp, d_each);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d_warp, warps * sizeof(int), cudaMemcpyDeviceToHost));
    if (n > 1 && warps == 1)
        printf("  warp 0: GPU sum %d, CPU sum %lld\n", got[0], warp_ref[0]);
    const long w1 = count_wrong("warp sum", got, warp_ref, warps);
    CHECK(cudaMemcpy(got, d_each, n * sizeof(int), cudaMemcpyDeviceToHost));
    const long w2 = count_wrong("broadcast to element", got, each_ref, n);

    CHECK(cudaMemset(d_warp, 0, warps * sizeof(int)));
    partial_warp_sum_kernel<<<blocks, threads>>>(d_in, n, d_warp);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d_warp, warps * sizeof(int), cudaMemcpyDeviceToHost));
    const long w3 = count_wrong("partial-mask warp sum", got, warp_ref, warps);

    block_sum_kernel<<<big_blocks, big, big / 32 * sizeof(int)>>>(d_in, n, d_block);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d_block, big_blocks * sizeof(int), cudaMemcpyDeviceToHost));
    const long w4 = count_wrong("block sum", got, block_ref, big_blocks);
    wrong = w1 + w2 + w3 + w4;

    printf("n = %d (last warp: %d lanes): warp sums %ld wrong, broadcast %ld wrong, "
           "partial mask %ld wrong, block sums (blocks of %d) %ld wrong\n",
           n, n % 32 ? n % 32 : 32, w1, w2, w3, big, w4);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_warp));
    CHECK(cudaFree(d_each));
    CHECK(cudaFree(d_block));
    free(in);
    free(got);
    free(warp_ref);
    free(block_ref);
    free(each_ref);
    return wrong;
}

int main(int argc, char **argv)
{
    long n = 0, seed = 1; /* n = 0: the default sizes */
    for (int a = 1; a < argc; a++) {
        char *end = NULL;
        long *opt = !strcmp(argv[a], "--n") ? &n : !strcmp(argv[a], "--seed") ? &seed : NULL;
        errno = 0; /* strtol's only sign of a number too long for a long */
        if (opt && a + 1 < argc)
            *opt = strtol(argv[++a], &end, 10);
        if (!opt || !end || *end || errno || (opt == &n && (n < 1 || n > 100000000)) || seed < 0) {
            fprintf(stderr, "usage: warp_shuffle [--n 1..100000000] [--seed S >= 0]\n");
            return strcmp(argv[a], "--help") == 0 ? 0 : 2;
        }
    }
    skip_without_gpu();
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.warpSize != 32) { /* the masks above have one bit per lane of a 32-lane warp */
        printf("SKIPPED: this GPU's warps have %d lanes, not 32\n", prop.warpSize);
        return 77;
    }
    /* The block sum also runs with the largest block the GPU allows (1024 threads: 32 warps,
     * so the last step sums a full warp of warp sums). */
    const int big = prop.maxThreadsPerBlock < 1024 ? prop.maxThreadsPerBlock : 1024;
    printf("warp shuffles, seed %ld; block sums with blocks of %d threads\n", seed, big);
    long wrong = 0;
    if (n > 0) {
        wrong = run((int)n, (unsigned)seed, big);
    } else {
        const int sizes[] = {1, 31, 33, 1000003};
        for (int s = 0; s < 4; s++)
            wrong += run(sizes[s], (unsigned)seed, big);
    }
    printf("%s\n", wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
