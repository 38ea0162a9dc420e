/* Shrinking chunk schedule: n elements cut into k chunks whose sizes fall geometrically, the
 * last about 1/16 of the first. The pipeline's work after its last copy-in (the last kernel and
 * the last copy-out) is then short. Plain C: the host tests check it without a GPU. */
#ifndef STREAMS_SCHEDULE_H
#define STREAMS_SCHEDULE_H

#include <stddef.h>

#include "chunks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The k chunks of the shrinking schedule of n elements, in order, into out[0..k-1]: they tile
 * [0, n), each holds at least 1 element, sizes never grow (chunk 0 is the longest). 0 on success; -1 when k == 0 or
 * k > n (a chunk would be empty). */
int shrinking_schedule(size_t n, size_t k, chunk_range *out);

#ifdef __cplusplus
}
#endif

#endif
