/* What the graders of ex06.1, ex06.3 and ex06.4 share: pinned inputs and their CPU answer,
 * blocking streams, pipeline shapes drawn from the seed, each stage of the work alone, the
 * streams' calls recorded as graphs, and the speed test of a pipeline against the copy-in
 * alone (tests/grade_streams.cu). Grader-only. */
#ifndef GRADE_STREAMS_H
#define GRADE_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "chunks.h"
#include "exercise.h"

typedef struct {
    size_t n;
    unsigned work;                /* rounds of mixing: 0 is the vector add */
    int32_t *h_x, *h_y, *h_out;   /* pinned host arrays, n each */
    int32_t *want;                /* the CPU's answer for `work` */
    int32_t *d_x, *d_y, *d_out;   /* device arrays, n each */
    int streams;
    cudaStream_t stream[STREAMS_MAX_STREAMS]; /* blocking: the legacy stream orders them */
} stream_rig;

/* A pipeline drawn for a correctness case. */
typedef struct {
    size_t n, chunks;
    int streams;
    unsigned work;
} rig_shape;

/* The shape of case "one", "primes", "random", "overlap" (3 to 6 streams busy at once over 16 to
 * 32 chunks of a large array) or "many_streams"; 0 for another name. */
int rig_case_shape(tut_grader *g, const char *case_name, rig_shape *shape);

/* Random inputs from the seed, the answer for `work`, the arrays and the streams. */
void rig_create(stream_rig *r, size_t n, int streams, unsigned work, uint64_t seed);
void rig_destroy(stream_rig *r);
/* The host output and the device output filled with 0xFF bytes. */
void rig_poison(stream_rig *r);
/* After cudaDeviceSynchronize: the host output against the CPU's, exactly. */
int rig_check(const stream_rig *r, const char *label);

/* Each stage alone on the legacy stream, over whole arrays (work functions for timer.h): */
void rig_copy_in(void *rig);  /* x and y to the device */
void rig_kernel(void *rig);   /* the kernel over n */
void rig_copy_out(void *rig); /* the output back */
void rig_serial(void *rig);   /* the three, one after the other: no overlap */

/* Runs issue(arg) while a grader kernel of its own stream holds every thread slot of every SM:
 * the pipeline's copies proceed (copy engines need no SM) while none of its kernels can start,
 * for 20 x the time of the whole copy-in (at least 50 ms); then the SMs are let go. A chunk's
 * copy-in that does not wait for the kernel that still has to read the same buffer (buffers
 * shared by two streams) overwrites that kernel's input for certain, not by chance of timing.
 * Returns without waiting for the pipeline (rig_check waits). */
void rig_issue_with_sms_held(stream_rig *r, void (*issue)(void *), void *arg);

/* One copy a stream recorded: the bytes its source ([0]) and its destination ([1]) span. */
typedef struct {
    const char *begin[2], *end[2];
} recorded_copy;

/* What one stream recorded: its kernels, counted, and its copies, in the graph's order. */
typedef struct {
    size_t kernels, copies;
    recorded_copy *copy; /* `copies` entries */
} recorded_stream;

/* Records issue(arg) with stream[0, streams) in capture mode (common/capture.h's
 * tut_capture_each: the calls on those streams are kept as one graph per stream, nothing runs),
 * then reads each stream's kernels and copies into out[s]. While recorded, issue may not wait
 * for the GPU (a cudaStreamSynchronize or a synchronous cudaMemcpy stops the capture with an
 * error). Queries such as chunk_kernels_configure's belong before the call. Free with
 * recorded_streams_free. */
void record_streams(const cudaStream_t *stream, int streams, void (*issue)(void *), void *arg,
                    recorded_stream *out);
void recorded_streams_free(recorded_stream *out, int streams);

/* --speed of a pipeline, in two steps around the caller's pipeline description:
 * rig_speed_setup makes a rig of the chapter's benchmark size with the chapter's plan (chunks,
 * streams) and a kernel about 0.8 x as long as the copy-in, so that the copy-in is the bound
 * (exits 77 on a GPU with one copy engine, where copies cannot overlap one another);
 * rig_speed_verdict runs issue(arg) once and checks the output, then times it against the
 * copy-in alone (tut_grader_time_pair) and prints the verdict: 1 if copy-in / pipeline >= bar. */
void rig_speed_setup(tut_grader *g, stream_rig *r, size_t *chunks);
int rig_speed_verdict(stream_rig *r, const char *name, void (*issue)(void *), void *arg,
                      double bar);

/* The boundary shapes, in every run (common/exercise.h, tut_boundary_sizes): stream counts at
 * the boundary of the hardware's default 8 queues (1, 2, 3, 7, 8, 9); for each, chunk counts at
 * the multiples -1, 0, +1 of the streams (the round robin's last lap full, short, or one chunk
 * into a new lap; never fewer chunks than streams); for each, n = chunks (one element a chunk),
 * chunks + 1 (a split of ceil(n / chunks) per chunk leaves its last chunks empty), and 37 x
 * chunks - 1, 0, +1; then 128 streams over 128 chunks of 129 elements. Each named ("streams 8,
 * chunks streams*2+1 = 17, n chunks+1 = 18 (ceil split: last chunks empty)"); work drawn from
 * the seed. Returns the count. */
typedef struct {
    rig_shape shape;
    char name[128];
} rig_boundary;
size_t rig_boundary_shapes(tut_grader *g, rig_boundary *out, size_t cap);

#endif
