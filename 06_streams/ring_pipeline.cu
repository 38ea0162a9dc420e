/* The pipeline through one set of device buffers per stream (ring_pipeline.h): the solution of
 * exercise ex06.3. */
#include "chunks.h"
#include "kernels.h"
#include "ring_pipeline.h"
#include "tutorial.h"

void issue_ring(const ring_pipeline *r)
{
    for (size_t c = 0; c < r->chunks; ++c) {
        const chunk_range range = chunk_of(r->n, r->chunks, c);
        const size_t bytes = range.count * sizeof(int32_t);
        /* The stream and its buffers: only this stream's work touches them, in order. */
        const size_t b = c % (size_t)r->streams;
        cudaStream_t s = r->stream[b];
        CUDA_CHECK(cudaMemcpyAsync(r->d_x[b], r->h_x + range.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaMemcpyAsync(r->d_y[b], r->h_y + range.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        launch_chunk_kernel(r->d_x[b], r->d_y[b], r->d_out[b], range.count, r->work, s);
        CUDA_CHECK(cudaMemcpyAsync(r->h_out + range.offset, r->d_out[b], bytes,
                                   cudaMemcpyDeviceToHost, s));
    }
}
