/* EXERCISE ex06.3: a pipeline through one set of device buffers per stream
 * (docs/06_streams_exercises.md).
 *
 * The device holds r->streams buffers of x, y and out, each of r->capacity elements (the
 * largest chunk), not the whole arrays. Queue every chunk c of chunk_of(r->n, r->chunks, c)
 * (chunks.h) as pipeline.cu does, but through buffers that later chunks reuse:
 *   1. its slice of r->h_x and r->h_y into a device buffer of x and of y,
 *   2. launch_chunk_kernel (kernels.h) from those into a buffer of out, r->work rounds,
 *   3. that buffer back into its slice of r->h_out,
 * all asynchronous, all with CUDA_CHECK, no synchronisation. Which stream and which buffers may
 * chunk c use, so that no chunk overwrites a buffer another chunk still needs, and the copies
 * of one chunk still overlap the kernels of others? ring_pipeline.h says; the grader checks
 * the output on shapes drawn from a new seed (under compute-sanitizer too), then the speed
 * against the copy-in alone (the bar: docs/06_streams_exercises.md). Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex06.3 */
#include "chunks.h"
#include "kernels.h"
#include "ring_pipeline.h"
#include "tutorial.h"

void issue_ring(const ring_pipeline *r)
{
    for (size_t c = 0; c < r->chunks; ++c) {
        const chunk_range range = chunk_of(r->n, r->chunks, c);
        /* TODO (ex06.3): choose the stream and the buffers, then queue the copy-in, the kernel
         * and the copy-out of this chunk. */
        (void)range;
    }
}
