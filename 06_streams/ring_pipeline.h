/* A pipeline whose device memory holds a few chunks only: data larger than the GPU's memory, or
 * a GPU shared with other work, streams through one set of buffers per stream.
 *
 * Chunk c goes to stream c % streams and uses that stream's buffers, which the chunks before it
 * in the same stream also used: stream order (copy-in, kernel, copy-out, then the next chunk's
 * copy-in) is what makes reusing them safe. A buffer shared by two streams would be overwritten
 * by one while the other still reads it. */
#ifndef STREAMS_RING_PIPELINE_H
#define STREAMS_RING_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

typedef struct {
    const int32_t *h_x, *h_y; /* host inputs, pinned, n each */
    int32_t *h_out;           /* host output, pinned, n */
    size_t n;
    size_t chunks;            /* chunk_of(n, chunks, c) (chunks.h) */
    int streams;
    cudaStream_t *stream;     /* streams entries */
    int32_t **d_x, **d_y, **d_out; /* streams device buffers each, buffer s for stream s */
    size_t capacity;          /* elements per device buffer: the largest chunk, no more */
    unsigned work;            /* 0: vector add; else rounds of mixing (launch_chunk_kernel) */
} ring_pipeline;

/* Queues every chunk's copy-in, kernel and copy-out through its stream's buffers; returns
 * without waiting (the caller synchronises). */
void issue_ring(const ring_pipeline *r);

#endif
