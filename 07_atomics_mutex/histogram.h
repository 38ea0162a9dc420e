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

#include "atomics_config.h"
#include "text.h"

typedef struct {
    const unsigned char *text; /* device, from cudaMalloc (16-byte aligned) */
    size_t n;
    unsigned long long *bins;  /* device, TEXT_BINS counters */
    int blocks;                /* grid size; 0 = the launcher's choice (it may raise it, below) */
    int threads;               /* block size where the kernel allows a choice; 0 = default */
    int copies;                /* warp_private: sub-histograms per warp (1, 2, 4, 8, 16, 32);
                                  0 = the default for this GPU */
} histogram_job;

/* The grids and block sizes come from atomics_config.h, from the limits of the current device
 * (tut_current_device()); a launcher raises a grid where a block would count too much for its
 * counters (histogram_safe_blocks, byte_pairs_blocks). */
void histogram_global(const histogram_job *job);
void histogram_shared(const histogram_job *job);
void histogram_warp_private(const histogram_job *job);
void histogram_thread_private(const histogram_job *job);
void histogram_thread_private_atomic(const histogram_job *job); /* same, shared atomics */
void histogram_byte_pairs(const histogram_job *job);

/* What each compiled kernel asks of an SM (registers, static shared memory), for the tuning
 * plan; read from the runtime once. */
kernel_cost histogram_global_cost(void);
kernel_cost histogram_shared_cost(void);
kernel_cost histogram_warp_private_cost(void);
kernel_cost histogram_thread_private_cost(int use_atomics);
kernel_cost histogram_byte_pairs_cost(int narrow);

/* The byte-pair table this GPU gets (byte_pairs_choose), chosen once. */
const byte_pairs_config *histogram_byte_pairs_config(void);

/* CUB needs temporary storage, sized for one n, and counts into 32-bit int bins of its own: one
 * set of TEXT_BINS per chunk of at most HISTOGRAM_CUB_CHUNK bytes where n exceeds INT_MAX
 * (histogram_cub_chunks). */
typedef struct {
    void *temp;
    size_t temp_bytes;
    int *counts;  /* device, chunks x TEXT_BINS */
    const unsigned char *text;
    size_t n;
    size_t chunks, chunk_bytes;
} histogram_cub_plan;

void histogram_cub_create(histogram_cub_plan *plan, const unsigned char *text, size_t n);
void histogram_cub_run(const histogram_cub_plan *plan);
/* Copies the counts back and adds the chunks up (on the host, outside any timing). */
void histogram_cub_read(const histogram_cub_plan *plan, unsigned long long bins[TEXT_BINS]);
void histogram_cub_destroy(histogram_cub_plan *plan);

#endif
