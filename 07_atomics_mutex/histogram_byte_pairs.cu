/* Beyond the document, step 3: half the shared-memory atomics, by counting bytes in pairs.
 *
 * The measurements of the warp- and thread-private kernels say that what limits them is not
 * contention but the number of shared-memory operations: one per byte, whatever the layout.
 * So count two bytes with one operation: the pair (x, y) of neighbouring bytes adds one to
 * counter T[x][y] of a 129 x 129 table (bytes >= 128 clamped to a 129th "no bin" value, so no
 * branch is needed). Every byte sits in exactly one pair, as its first or its second member, so
 * at the end
 *     count of c = sum over y of T[c][y]  +  sum over x of T[x][c]        (c < 128)
 * and T[128][128] (two non-ASCII bytes) is simply never read. The table is 66 KB of 32-bit
 * counters per block: three blocks fit in an SM. Pairs are more varied than single letters, so
 * the atomics collide less as well. Rows are 129 words long, so T[c][j] for 32 consecutive c,
 * or 32 consecutive j, falls in 32 different banks during the merge. */
#include <stdint.h>

#include "histogram.h"
#include "tutorial.h"

#define SIDE (TEXT_BINS + 1)             /* 128 bins and one for "not ASCII" */
#define TABLE_BYTES (SIDE * SIDE * sizeof(unsigned int))
#define THREADS BYTE_PAIRS_THREADS
#define MIN_BYTES_PER_BLOCK (128u << 10) /* below that, zeroing and merging the table dominate */

/* Each byte of w, or 128 where the byte is >= 128, without branches: m marks the top bit of
 * the non-ASCII bytes, m - (m >> 7) turns each 0x80 into 0x7F, and clearing those bits leaves
 * exactly 0x80. */
__device__ __forceinline__ unsigned int clamp_bytes_to_128(unsigned int w)
{
    unsigned int m = w & 0x80808080u;
    return w & ~(m - (m >> 7));
}

__device__ __forceinline__ void count_pairs(unsigned int *table, unsigned int w)
{
    unsigned int v = clamp_bytes_to_128(w);
    atomicAdd(&table[(v & 0xFFu) * SIDE + ((v >> 8) & 0xFFu)], 1u);
    atomicAdd(&table[((v >> 16) & 0xFFu) * SIDE + (v >> 24)], 1u);
}

__device__ __forceinline__ void count_vec_pairs(unsigned int *table, uint4 v)
{
    count_pairs(table, v.x);
    count_pairs(table, v.y);
    count_pairs(table, v.z);
    count_pairs(table, v.w);
}

__global__ void __launch_bounds__(THREADS)
histogram_byte_pairs_kernel(const unsigned char *text, size_t n, unsigned long long *bins)
{
    extern __shared__ unsigned int table[]; /* SIDE x SIDE */
    for (int i = threadIdx.x; i < SIDE * SIDE; i += THREADS)
        table[i] = 0;
    __syncthreads();

    const uint4 *vec = (const uint4 *)text;
    const size_t nvec = n / 16;
    const size_t stride = (size_t)gridDim.x * THREADS;
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    for (; i + stride < nvec; i += 2 * stride) { /* two independent loads before any use */
        uint4 a = __ldg(vec + i);
        uint4 b = __ldg(vec + i + stride);
        count_vec_pairs(table, a);
        count_vec_pairs(table, b);
    }
    if (i < nvec)
        count_vec_pairs(table, __ldg(vec + i));
    __syncthreads();

    for (int c = threadIdx.x; c < TEXT_BINS; c += THREADS) {
        unsigned int total = 0;
        for (int j = 0; j < SIDE; ++j)
            total += table[c * SIDE + j] + table[j * SIDE + c]; /* as first, as second */
        if (total != 0)
            atomicAdd(&bins[c], (unsigned long long)total);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 16) { /* the tail, under 16 bytes */
        unsigned char c = text[nvec * 16 + threadIdx.x];
        if (c < TEXT_BINS)
            atomicAdd(&bins[c], 1ull);
    }
}

int histogram_byte_pairs_blocks_per_sm(void)
{
    int per_sm = 0;
    CUDA_CHECK(cudaFuncSetAttribute(histogram_byte_pairs_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)TABLE_BYTES));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, histogram_byte_pairs_kernel, THREADS, TABLE_BYTES));
    return per_sm;
}

void histogram_byte_pairs(const histogram_job *job)
{
    if ((uintptr_t)job->text % 16 != 0) {
        fprintf(stderr, "histogram_byte_pairs: the text must be 16-byte aligned\n");
        exit(2);
    }
    int blocks = job->blocks;
    if (blocks <= 0) {
        blocks = histogram_byte_pairs_blocks_per_sm() * tut_current_device()->sm_count;
        size_t useful = job->n / MIN_BYTES_PER_BLOCK; /* small texts: fewer, fuller blocks */
        if ((size_t)blocks > useful)
            blocks = useful > 0 ? (int)useful : 1;
    }
    blocks = histogram_safe_blocks(job->n, blocks, THREADS);
    CUDA_CHECK(cudaFuncSetAttribute(histogram_byte_pairs_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)TABLE_BYTES));
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    histogram_byte_pairs_kernel<<<blocks, THREADS, TABLE_BYTES>>>(job->text, job->n, job->bins);
    LAUNCH_CHECK();
}
