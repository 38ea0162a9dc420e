/* A pipeline of copy-in, kernel and copy-out over chunks and streams, and the ways to issue it.
 *
 * The host arrays may be pinned, registered or pageable (the variant decides); the device arrays
 * are whole, and chunk i works only on its own slice of each, so no two chunks ever share a
 * buffer: the streams need no ordering between them. Chunk i goes to stream i % streams. */
#ifndef STREAMS_PIPELINE_H
#define STREAMS_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

/* Where events are recorded around each chunk's stages, for the timeline: one just before and
 * one just after each stage, in the stage's stream. A "before" event fires when its stream has
 * finished everything queued ahead of it, which is not always the previous stage of the same
 * chunk: queued stage by stage, a stream holds all its copies before its first kernel. */
enum {
    MARK_H2D_BEGIN,
    MARK_H2D_END,
    MARK_KERNEL_BEGIN,
    MARK_KERNEL_END,
    MARK_D2H_BEGIN,
    MARK_D2H_END,
    MARKS_PER_CHUNK
};

typedef struct {
    const int32_t *h_x, *h_y; /* host inputs */
    int32_t *h_out;           /* host output */
    int32_t *d_x, *d_y;       /* device inputs, n elements each */
    int32_t *d_out;           /* device output, n elements */
    size_t n;
    size_t chunks;
    int streams;
    cudaStream_t *stream; /* streams entries */
    unsigned work;        /* 0: vector add; else rounds of mixing per element */
    cudaEvent_t *marks;   /* NULL, or chunks * MARKS_PER_CHUNK events for the timeline */
} pipeline;

typedef void (*pipeline_issue_fn)(const pipeline *p);

/* Records marks[chunk * MARKS_PER_CHUNK + point] on `stream`; nothing when p->marks is NULL. */
void pipeline_mark(const pipeline *p, size_t chunk, int point, cudaStream_t stream);

/* pipeline.cu: chunk by chunk, each chunk's copy-in, kernel and copy-out in its stream. */
void issue_depth_first(const pipeline *p);

/* variants.cu */
void issue_breadth_first(const pipeline *p); /* every copy-in, then every kernel, then copy-out */
void issue_document(const pipeline *p); /* the document's loop: one output buffer for all chunks */
void issue_h2d_only(const pipeline *p);     /* whole inputs in, one stream: a stage alone */
void issue_kernel_only(const pipeline *p);  /* one launch over n */
void issue_d2h_only(const pipeline *p);     /* whole output out */
void issue_both_directions(const pipeline *p); /* x in on stream 0 while out goes out on 1 */

/* shrinking.cu: depth-first with shrinking chunks (schedule.h), the last about 1/16 of the first */
void issue_shrinking(const pipeline *p);

#endif
