/* The pipeline loop: the heart of the chapter (and its exercise).
 *
 * Every call here is asynchronous: the loop only queues work and returns long before the GPU
 * is done. Inside one stream the three stages of a chunk run in order (the kernel waits for its
 * copy-in, the copy-out for its kernel); across streams nothing is ordered, so while chunk 1's
 * kernel runs, chunk 2's copy-in can use the host-to-device copy engine and chunk 0's copy-out
 * the device-to-host engine. That needs pinned host memory: from pageable memory the driver
 * stages each copy through a pinned buffer of its own and the host waits for it. */
#include "chunks.h"
#include "kernels.h"
#include "pipeline.h"
#include "tutorial.h"

void issue_depth_first(const pipeline *p)
{
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        const size_t bytes = r.count * sizeof(int32_t);
        cudaStream_t s = p->stream[c % (size_t)p->streams];

        pipeline_mark(p, c, MARK_H2D_BEGIN, s);
        CUDA_CHECK(cudaMemcpyAsync(p->d_x + r.offset, p->h_x + r.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaMemcpyAsync(p->d_y + r.offset, p->h_y + r.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        pipeline_mark(p, c, MARK_H2D_END, s);
        pipeline_mark(p, c, MARK_KERNEL_BEGIN, s);
        launch_chunk_kernel(p->d_x + r.offset, p->d_y + r.offset, p->d_out + r.offset, r.count,
                            p->work, s);
        pipeline_mark(p, c, MARK_KERNEL_END, s);
        pipeline_mark(p, c, MARK_D2H_BEGIN, s);
        CUDA_CHECK(cudaMemcpyAsync(p->h_out + r.offset, p->d_out + r.offset, bytes,
                                   cudaMemcpyDeviceToHost, s));
        pipeline_mark(p, c, MARK_D2H_END, s);
    }
}
