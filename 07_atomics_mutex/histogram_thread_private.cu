/* Beyond the document, step 2: no atomics at all while counting.
 *
 * Every thread owns a private 8-bit counter for each of the 128 bins, in shared memory
 * (128 x 256 threads = 32 KB per block). Counting a byte is a plain load, add and store of the
 * thread's own counter: no two threads ever touch the same byte, so there is nothing to
 * serialise, whatever the text. An 8-bit counter overflows after 255, so after every round of
 * 15 x 16 = 240 bytes per thread the block adds its counters into 32-bit per-bin totals (held
 * in registers, 2 threads per bin) and clears them. At the end, one global atomicAdd per bin
 * per block, as in the other privatised kernels.
 *
 * Banks: thread t's counter for bin c lives at byte c * 256 + slot(t), where slot() puts the
 * 32 lanes of a warp in 32 different 4-byte words of the row (lane l at word l, the warp's
 * number within its group of four picking the byte inside the word). So a warp's 32 counter
 * updates hit 32 different banks whatever bins they are for: no bank conflicts. (The same
 * layout as the histogram64 sample of NVIDIA's cuda-samples.) */
#include <stdint.h>

#include "histogram.h"
#include "tutorial.h"

#define THREADS THREAD_PRIVATE_THREADS          /* a multiple of 128, for the slot layout */
#define ROW_WORDS (THREADS / 4)                 /* 4-byte words per bin row */
#define VECS_PER_ROUND 15                       /* 15 x 16 bytes = 240 <= 255 per counter */
#define VECS_IN_FLIGHT 3                        /* loads issued before their bytes are counted */
#define NOT_A_BIN 0x80808080u                   /* padding for loads past the end: bytes >= 128 */

/* Counts the 4 bytes of w into this thread's counters. `slot` is the thread's byte in each row
 * of `counters`; the counter for byte value c is at byte offset c * 256 + slot, computed as
 * shift-and-mask-or without extracting c first. A byte >= 128 gives an offset >= 0x8000 (past
 * the 128 rows) and is skipped. Two ways to add one:
 *   use_atomics == 0: load, add, store the 8-bit counter: no other thread ever touches it;
 *   use_atomics == 1: one shared-memory atomicAdd on the 32-bit word that holds it (4 threads of
 *                     4 different warps share a word), adding 1 shifted to the thread's byte.
 *                     Fewer instructions per byte; the atomic unit does the read-modify-write. */
__device__ __forceinline__ void count_word_private(unsigned char *counters, unsigned int slot,
                                                   unsigned int one_in_word, unsigned int w,
                                                   int use_atomics)
{
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        /* (byte k of w) * 256: its bits moved to 8..15 */
        unsigned int row = (k == 0) ? (w << 8) & 0xFF00u
                         : (k == 1) ? w & 0xFF00u
                         : (k == 2) ? (w >> 8) & 0xFF00u
                                    : (w >> 16) & 0xFF00u;
        if (row < (TEXT_BINS << 8)) {
            if (use_atomics)
                atomicAdd((unsigned int *)(counters + (row | (slot & ~3u))), one_in_word);
            else
                counters[row | slot] += 1;
        }
    }
}

/* The kernel's body; the two kernels below call it with use_atomics fixed, so that the
 * compiler builds each without the other's branch. */
__device__ __forceinline__ void thread_private_body(const uint4 *vec, size_t nvec,
                                                    const unsigned char *tail, int tail_bytes,
                                                    unsigned long long *bins, int use_atomics)
{
    __shared__ unsigned int counters[TEXT_BINS * ROW_WORDS];
    const unsigned int t = threadIdx.x;
    const unsigned int slot = (t & ~127u) | ((t & 31u) << 2) | ((t & 96u) >> 5);
    const unsigned int one_in_word = 1u << (8 * (slot & 3u));
    unsigned char *bytes = (unsigned char *)counters;

    for (int i = t; i < TEXT_BINS * ROW_WORDS; i += THREADS)
        counters[i] = 0;
    __syncthreads();

    /* Merging: thread t sums half a row (32 words) of bin t / 2. */
    const int merge_bin = t / 2;
    unsigned int *merge_row = counters + merge_bin * ROW_WORDS + (t & 1) * 32;
    unsigned int bin_total = 0;

    const size_t stride = (size_t)gridDim.x * THREADS;
    /* `round` is the same for the whole block, so every thread meets the barriers below. */
    for (size_t round = (size_t)blockIdx.x * THREADS; round < nvec;
         round += stride * VECS_PER_ROUND) {
#pragma unroll 1
        for (int k = 0; k < VECS_PER_ROUND; k += VECS_IN_FLIGHT) {
            uint4 v[VECS_IN_FLIGHT];
#pragma unroll
            for (int j = 0; j < VECS_IN_FLIGHT; ++j) {
                size_t i = round + t + (size_t)(k + j) * stride;
                v[j] = (i < nvec) ? __ldg(vec + i)
                                  : make_uint4(NOT_A_BIN, NOT_A_BIN, NOT_A_BIN, NOT_A_BIN);
            }
#pragma unroll
            for (int j = 0; j < VECS_IN_FLIGHT; ++j) {
                count_word_private(bytes, slot, one_in_word, v[j].x, use_atomics);
                count_word_private(bytes, slot, one_in_word, v[j].y, use_atomics);
                count_word_private(bytes, slot, one_in_word, v[j].z, use_atomics);
                count_word_private(bytes, slot, one_in_word, v[j].w, use_atomics);
            }
        }
        __syncthreads(); /* the round's counts are complete */
#pragma unroll 8
        for (int j = 0; j < 32; ++j) {
            /* Start each lane at a different word: lane l reads bank (j + l) % 32. */
            int w = (j + t) & 31;
            bin_total += __dp4a(merge_row[w], 0x01010101u, 0u); /* sum of the 4 byte counters */
            merge_row[w] = 0;
        }
        __syncthreads(); /* counters are clear before the next round counts */
    }

    bin_total += __shfl_xor_sync(0xFFFFFFFFu, bin_total, 1); /* the two halves of the row */
    if ((t & 1) == 0 && bin_total != 0)
        atomicAdd(&bins[merge_bin], (unsigned long long)bin_total);
    if (blockIdx.x == 0 && (int)t < tail_bytes) { /* the last n % 16 bytes */
        unsigned char c = tail[t];
        if (c < TEXT_BINS)
            atomicAdd(&bins[c], 1ull);
    }
}

__global__ void __launch_bounds__(THREADS)
histogram_thread_private_kernel(const uint4 *vec, size_t nvec, const unsigned char *tail,
                                int tail_bytes, unsigned long long *bins)
{
    thread_private_body(vec, nvec, tail, tail_bytes, bins, 0);
}

__global__ void __launch_bounds__(THREADS)
histogram_thread_private_atomic_kernel(const uint4 *vec, size_t nvec, const unsigned char *tail,
                                       int tail_bytes, unsigned long long *bins)
{
    thread_private_body(vec, nvec, tail, tail_bytes, bins, 1);
}

kernel_cost histogram_thread_private_cost(int use_atomics)
{
    static kernel_cost cost[2];
    static int known[2] = {0, 0};
    use_atomics = use_atomics ? 1 : 0;
    if (!known[use_atomics]) {
        cost[use_atomics] = kernel_cost_of(
            use_atomics ? (const void *)histogram_thread_private_atomic_kernel
                        : (const void *)histogram_thread_private_kernel);
        known[use_atomics] = 1;
    }
    return cost[use_atomics];
}

static void launch_thread_private(const histogram_job *job, int use_atomics)
{
    if ((uintptr_t)job->text % 16 != 0) {
        fprintf(stderr, "histogram_thread_private: the text must be 16-byte aligned\n");
        exit(2);
    }
    int blocks = job->blocks;
    if (blocks <= 0) { /* one wave: SMs x resident blocks */
        char why[192];
        blocks = atomics_wave_blocks(tut_current_device(),
                                     histogram_thread_private_cost(use_atomics), THREADS, 0, why,
                                     sizeof why);
        if (blocks == 0) {
            fprintf(stderr, "histogram_thread_private: %s\n", why);
            exit(2);
        }
    }
    blocks = histogram_safe_blocks(job->n, blocks);
    const size_t nvec = job->n / 16;
    const uint4 *vec = (const uint4 *)job->text;
    const unsigned char *tail = job->text + nvec * 16;
    const int tail_bytes = (int)(job->n % 16);
    CUDA_CHECK(cudaMemsetAsync(job->bins, 0, TEXT_BINS * sizeof(unsigned long long), 0));
    if (use_atomics)
        histogram_thread_private_atomic_kernel<<<blocks, THREADS>>>(vec, nvec, tail, tail_bytes,
                                                                    job->bins);
    else
        histogram_thread_private_kernel<<<blocks, THREADS>>>(vec, nvec, tail, tail_bytes,
                                                             job->bins);
    LAUNCH_CHECK();
}

void histogram_thread_private(const histogram_job *job)
{
    launch_thread_private(job, 0);
}

void histogram_thread_private_atomic(const histogram_job *job)
{
    launch_thread_private(job, 1);
}
