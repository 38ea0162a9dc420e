/* Splitting n elements into chunks for a pipeline, and checking a pipeline's shape.
 *
 * Chunk i of k covers [offset, offset + count). The first n % k chunks get one element more
 * than the rest, so the sizes differ by at most one and every element lands in exactly one
 * chunk, whatever n and k are (the document's `n // 5` silently dropped the remainder). Plain
 * C: the host tests check it without a GPU. */
#ifndef STREAMS_CHUNKS_H
#define STREAMS_CHUNKS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t offset; /* first element of the chunk */
    size_t count;  /* elements in the chunk */
} chunk_range;

/* The range of chunk `index` (0 <= index < chunks) when n elements are cut into `chunks`. */
chunk_range chunk_of(size_t n, size_t chunks, size_t index);

/* The most streams a pipeline may use: far more than the GPU has hardware queues for (32 on
 * recent GPUs, 8 by default: CUDA_DEVICE_MAX_CONNECTIONS), so anything above is a typo. */
#define STREAMS_MAX_STREAMS 128

/* 0 if n elements, `chunks` chunks and `streams` streams make a valid pipeline (n >= 1,
 * 1 <= streams <= chunks <= n, streams <= STREAMS_MAX_STREAMS); otherwise -1 with the reason
 * in why[]. */
int pipeline_shape_check(size_t n, size_t chunks, size_t streams, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
