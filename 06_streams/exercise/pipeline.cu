/* EXERCISE ex06.1: write the pipeline loop (docs/06_streams_exercises.md).
 *
 * Queue, for every chunk c of p->chunks, on stream p->stream[c % p->streams]:
 *   1. the copy of its slice of x and of y to the device (cudaMemcpyAsync, HostToDevice),
 *   2. the kernel over that slice (launch_chunk_kernel, kernels.h),
 *   3. the copy of its slice of the output back (cudaMemcpyAsync, DeviceToHost).
 * chunk_of(p->n, p->chunks, c) (chunks.h) gives the slice: offset and count, in elements.
 * Wrap every CUDA call in CUDA_CHECK. Do not synchronise: the caller does.
 * The pipeline_mark calls record the timeline's events: keep each stage between its marks.
 *
 * Until this is done the output stays poisoned and the grader fails. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex06.1
 * Then ask yourself: what happens to the timeline if every chunk uses p->stream[0]? */
#include "chunks.h"
#include "kernels.h"
#include "pipeline.h"
#include "tutorial.h"

void issue_depth_first(const pipeline *p)
{
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        cudaStream_t s = p->stream[c % (size_t)p->streams];
        (void)r;

        pipeline_mark(p, c, MARK_H2D_BEGIN, s);
        /* TODO (ex06.1): copy this chunk's slice of p->h_x and p->h_y to p->d_x and p->d_y, on
         * s. */
        pipeline_mark(p, c, MARK_H2D_END, s);
        pipeline_mark(p, c, MARK_KERNEL_BEGIN, s);
        /* TODO (ex06.1): launch the kernel over the slice, on s. */
        pipeline_mark(p, c, MARK_KERNEL_END, s);
        pipeline_mark(p, c, MARK_D2H_BEGIN, s);
        /* TODO (ex06.1): copy the slice of p->d_out back to p->h_out, on s. */
        pipeline_mark(p, c, MARK_D2H_END, s);
    }
}
