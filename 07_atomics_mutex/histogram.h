/* The GPU text histograms of this chapter, slowest to fastest. Each launcher zeroes the 128
 * 64-bit bins, then counts the bytes 0..127 of text[0..n) into them; bytes >= 128 are skipped
 * (their number is n minus the sum of the bins). All run on stream 0, asynchronously.
 *
 *   histogram_global.cu         every byte is an atomicAdd on global memory (the document's 4.3)
 *   histogram_shared.cu         one shared-memory histogram per block (the document's 4.4)
 *   histogram_warp_private.cu   several shared sub-histograms per warp, 16-byte loads
 *   histogram_thread_private.cu a private 8-bit counter per thread and bin, no atomics at all
 *                               (and a variant adding with shared-memory atomics)
 *   histogram_byte_pairs.cu     one shared atomic per PAIR of bytes: half the operations
 *   histogram_cub.cu            the library: cub::DeviceHistogram::HistogramEven */
#ifndef ATOMICS_HISTOGRAM_H
#define ATOMICS_HISTOGRAM_H

#include <stddef.h>

#include "text.h"

typedef struct {
    const unsigned char *text; /* device, from cudaMalloc (16-byte aligned) */
    size_t n;
    unsigned long long *bins;  /* device, TEXT_BINS counters */
    int blocks;                /* grid size; 0 = the launcher's choice (it may raise it, below) */
    int threads;               /* block size where the kernel allows a choice; 0 = default */
    int copies;                /* warp_private: sub-histograms per warp (1, 2, 4, 8, 16, 32) */
} histogram_job;

/* Blocks keep 32-bit counters in shared memory, so no block may see 2^32 bytes: returns
 * `blocks`, raised where needed so that each block's share of n stays below 2^31. */
int histogram_safe_blocks(size_t n, int blocks, int threads);

void histogram_global(const histogram_job *job);
void histogram_shared(const histogram_job *job);
void histogram_warp_private(const histogram_job *job);
void histogram_thread_private(const histogram_job *job);
void histogram_thread_private_atomic(const histogram_job *job); /* same, shared atomics */
void histogram_byte_pairs(const histogram_job *job);

/* The resident blocks per SM each fast kernel reaches (occupancy API), for sizing its grid. */
int histogram_warp_private_blocks_per_sm(int copies);
int histogram_thread_private_blocks_per_sm(void);
int histogram_byte_pairs_blocks_per_sm(void);
#define THREAD_PRIVATE_THREADS 256
#define WARP_PRIVATE_THREADS 512
#define BYTE_PAIRS_THREADS 512

/* CUB needs temporary storage, sized for one n, and counts into 32-bit int bins of its own. */
typedef struct {
    void *temp;
    size_t temp_bytes;
    int *counts;  /* device, TEXT_BINS */
    const unsigned char *text;
    size_t n;
} histogram_cub_plan;

void histogram_cub_create(histogram_cub_plan *plan, const unsigned char *text, size_t n);
void histogram_cub_run(const histogram_cub_plan *plan);
void histogram_cub_destroy(histogram_cub_plan *plan);

#endif
