/* Beyond the document, step 3: half the shared-memory atomics, by counting bytes in pairs.
 *
 * The measurements of the warp- and thread-private kernels say that what limits them is not
 * contention but the number of shared-memory operations: one per byte, whatever the layout.
 * So count two bytes with one operation: the pair (x, y) of neighbouring bytes adds one to
 * counter T[x][y] of a 129 x 129 table (bytes >= 128 clamped to a 129th "no bin" value, so no
 * branch is needed). Every byte sits in exactly one pair, as its first or its second member, so
 * at the end
 *     count of c = sum over y of T[c][y]  +  sum over x of T[x][c]        (c < 128)
 * and T[128][128] (two non-ASCII bytes) is simply never read.
 * Pairs are more varied than single letters, so the atomics collide less as well.
 *
 * Two tables, chosen from the GPU's limits (byte_pairs_choose in atomics_config.c):
 *   32-bit counters: 66,564 bytes per block, where a block may have that much (3 blocks per
 *                    SM on an H100, 2 on an A100, 1 on an L4 or RTX 4090);
 *   16-bit counters: two to a 32-bit word, 33,284 bytes, where it may not (a T4 block has at
 *                    most 65,536 bytes). A 16-bit counter holds 65,535, so the grid is raised
 *                    until no thread counts more than 15 16-byte loads: 512 threads x 15 x 8
 *                    pairs = 61,440 per block, even if every pair is the same. */
#include <stdint.h>

#include "histogram.h"
#include "tutorial.h"

#define SIDE BYTE_PAIRS_SIDE
#define THREADS BYTE_PAIRS_THREADS

/* Each byte of w, or 128 where the byte is >= 128, without branches: m marks the top bit of
 * the non-ASCII bytes, m - (m >> 7) turns each 0x80 into 0x7F, and clearing those bits leaves
 * exactly 0x80. */
__device__ __forceinline__ unsigned int clamp_bytes_to_128(unsigned int w)
{
    unsigned int m = w & 0x80808080u;
    return w & ~(m - (m >> 7));
}

/* Counter k = x * SIDE + y: word k of the 32-bit table; the low (k even) or high (k odd) half of
 * word k / 2 of the 16-bit table, where adding 1 << 16 counts in the high half. */
__device__ __forceinline__ void count_pair(unsigned int *table, unsigned int x, unsigned int y,
                                           int narrow)
{
    const unsigned int k = x * SIDE + y;
    if (narrow)
        atomicAdd(&table[k / 2], 1u << (16 * (k % 2)));
    else
        atomicAdd(&table[k], 1u);
}

__device__ __forceinline__ unsigned int pair_count(const unsigned int *table, unsigned int k,
                                                   int narrow)
{
    return narrow ? (table[k / 2] >> (16 * (k % 2))) & 0xFFFFu : table[k];
}

__device__ __forceinline__ void count_pairs(unsigned int *table, unsigned int w, int narrow)
{
    unsigned int v = clamp_bytes_to_128(w);
    count_pair(table, v & 0xFFu, (v >> 8) & 0xFFu, narrow);
    count_pair(table, (v >> 16) & 0xFFu, v >> 24, narrow);
}

__device__ __forceinline__ void count_vec_pairs(unsigned int *table, uint4 v, int narrow)
{
    count_pairs(table, v.x, narrow);
    count_pairs(table, v.y, narrow);
    count_pairs(table, v.z, narrow);
    count_pairs(table, v.w, narrow);
}

/* The kernels' body; the two kernels below call it with `narrow` fixed, so that the compiler
 * builds each without the other's branches. */
__device__ __forceinline__ void byte_pairs_body(const unsigned char *text, size_t n,
                                                unsigned long long *bins, int narrow)
{
    extern __shared__ unsigned int table[]; /* SIDE x SIDE counters */
    const int words = narrow ? BYTE_PAIRS_NARROW_WORDS : BYTE_PAIRS_COUNTERS;
    for (int i = threadIdx.x; i < words; i += THREADS)
        table[i] = 0;
    __syncthreads();

    const uint4 *vec = (const uint4 *)text;
    const size_t nvec = n / 16;
    const size_t stride = (size_t)gridDim.x * THREADS;
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    for (; i + stride < nvec; i += 2 * stride) { /* two independent loads before any use */
        uint4 a = __ldg(vec + i);
        uint4 b = __ldg(vec + i + stride);
        count_vec_pairs(table, a, narrow);
        count_vec_pairs(table, b, narrow);
    }
    if (i < nvec)
        count_vec_pairs(table, __ldg(vec + i), narrow);
    __syncthreads();

    /* Decode: bin c counts the pairs with c first (row c) and with c second (column c). For 32
     * consecutive c the row's and the column's counters fall in different banks (at most two
     * lanes per bank with 16-bit counters). */
    for (int c = threadIdx.x; c < TEXT_BINS; c += THREADS) {
        unsigned int total = 0;
        for (int j = 0; j < SIDE; ++j) {
            const int first = c * SIDE + j; /* the pair (c, j) */
            total += pair_count(table, first, narrow) + pair_count(table, j * SIDE + c, narrow);
        }
        if (total != 0)
            atomicAdd(&bins[c], (unsigned long long)total);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 16) { /* the tail, under 16 bytes */
        unsigned char c = text[nvec * 16 + threadIdx.x];
        if (c < TEXT_BINS)
            atomicAdd(&bins[c], 1ull);
    }
}

__global__ void __launch_bounds__(THREADS)
histogram_byte_pairs_kernel(const unsigned char *text, size_t n, unsigned long long *bins)
{
    byte_pairs_body(text, n, bins, 0);
}

__global__ void __launch_bounds__(THREADS)
histogram_byte_pairs_narrow_kernel(const unsigned char *text, size_t n, unsigned long long *bins)
{
    byte_pairs_body(text, n, bins, 1);
}

kernel_cost histogram_byte_pairs_cost(int narrow)
{
    static kernel_cost cost[2];
    static int known[2] = {0, 0};
    narrow = narrow ? 1 : 0;
    if (!known[narrow]) {
        cost[narrow] = kernel_cost_of(narrow ? (const void *)histogram_byte_pairs_narrow_kernel
                                             : (const void *)histogram_byte_pairs_kernel);
        known[narrow] = 1;
    }
    return cost[narrow];
}

const byte_pairs_config *histogram_byte_pairs_config(void)
{
    static byte_pairs_config config;
    static int known = 0;
    if (!known) {
        config = byte_pairs_choose(tut_current_device(), histogram_byte_pairs_cost(0),
                                   histogram_byte_pairs_cost(1));
        if (config.blocks_per_sm == 0) {
            fprintf(stderr, "histogram_byte_pairs: %s\n", config.note);
            exit(2);
        }
        char why[192];
        const void *kernel = config.narrow ? (const void *)histogram_byte_pairs_narrow_kernel
                                           : (const void *)histogram_byte_pairs_kernel;
        if (!tut_allow_dynamic_shared(kernel, config.table_bytes, why, sizeof why)) {
            fprintf(stderr, "histogram_byte_pairs: %s\n", why);
            exit(2);
        }
        known = 1;
    }
    return &config;
}

void histogram_byte_pairs(const histogram_job *job)
{
    if ((uintptr_t)job->text % 16 != 0) {
        fprintf(stderr, "histogram_byte_pairs: the text must be 16-byte aligned\n");
        exit(2);
    }
    const byte_pairs_config *config = histogram_byte_pairs_config();
    const int blocks =
        byte_pairs_blocks(config, tut_current_device()->sm_count, job->n, job->blocks);
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    if (config->narrow)
        histogram_byte_pairs_narrow_kernel<<<blocks, THREADS, config->table_bytes>>>(
            job->text, job->n, job->bins);
    else
        histogram_byte_pairs_kernel<<<blocks, THREADS, config->table_bytes>>>(job->text, job->n,
                                                                             job->bins);
    LAUNCH_CHECK();
}
