/* The other ways to issue the same work: breadth-first order, the document's loop, and each
 * stage alone (whose times bound what any pipeline can reach). */
#include "chunks.h"
#include "kernels.h"
#include "pipeline.h"
#include "tutorial.h"

void pipeline_mark(const pipeline *p, size_t chunk, int point, cudaStream_t stream)
{
    if (p->marks)
        CUDA_CHECK(cudaEventRecord(p->marks[chunk * MARKS_PER_CHUNK + (size_t)point], stream));
}

static cudaStream_t stream_of(const pipeline *p, size_t chunk)
{
    return p->stream[chunk % (size_t)p->streams];
}

/* Stage by stage. The result is the same; only the order in which the host queues the work
 * differs. Old GPUs with one copy queue stalled on one order or the other; on GPUs with
 * separate hardware queues per stream (Hyper-Q) both should overlap alike: the benchmark
 * measures it. */
void issue_breadth_first(const pipeline *p)
{
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        const size_t bytes = r.count * sizeof(int32_t);
        pipeline_mark(p, c, MARK_H2D_BEGIN, stream_of(p, c));
        CUDA_CHECK(cudaMemcpyAsync(p->d_x + r.offset, p->h_x + r.offset, bytes,
                                   cudaMemcpyHostToDevice, stream_of(p, c)));
        CUDA_CHECK(cudaMemcpyAsync(p->d_y + r.offset, p->h_y + r.offset, bytes,
                                   cudaMemcpyHostToDevice, stream_of(p, c)));
        pipeline_mark(p, c, MARK_H2D_END, stream_of(p, c));
    }
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        pipeline_mark(p, c, MARK_KERNEL_BEGIN, stream_of(p, c));
        launch_chunk_kernel(p->d_x + r.offset, p->d_y + r.offset, p->d_out + r.offset, r.count,
                            p->work, stream_of(p, c));
        pipeline_mark(p, c, MARK_KERNEL_END, stream_of(p, c));
    }
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        pipeline_mark(p, c, MARK_D2H_BEGIN, stream_of(p, c));
        CUDA_CHECK(cudaMemcpyAsync(p->h_out + r.offset, p->d_out + r.offset,
                                   r.count * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                   stream_of(p, c)));
        pipeline_mark(p, c, MARK_D2H_END, stream_of(p, c));
    }
}

/* The document's multi-stream loop, ported with its design: pageable host arrays (the caller
 * passes them) and ONE device output buffer of a chunk's size that every chunk's kernel writes.
 * It gives the right answer only because a copy from the device into pageable memory returns
 * once the copy is done: the host cannot queue chunk c+1's kernel before chunk c's output has
 * left the shared buffer. The same loop on pinned memory would race (no tool would catch it:
 * the sanitizers do not check ordering between streams). Unlike the document it covers the
 * n % chunks tail and keeps int32 output. */
void issue_document(const pipeline *p)
{
    int32_t *shared_out = p->d_out; /* chunk 0 is the longest, so every chunk fits */
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk_of(p->n, p->chunks, c);
        const size_t bytes = r.count * sizeof(int32_t);
        cudaStream_t s = stream_of(p, c);
        pipeline_mark(p, c, MARK_H2D_BEGIN, s);
        CUDA_CHECK(cudaMemcpyAsync(p->d_x + r.offset, p->h_x + r.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaMemcpyAsync(p->d_y + r.offset, p->h_y + r.offset, bytes,
                                   cudaMemcpyHostToDevice, s));
        pipeline_mark(p, c, MARK_H2D_END, s);
        pipeline_mark(p, c, MARK_KERNEL_BEGIN, s);
        launch_chunk_kernel(p->d_x + r.offset, p->d_y + r.offset, shared_out, r.count, p->work, s);
        pipeline_mark(p, c, MARK_KERNEL_END, s);
        pipeline_mark(p, c, MARK_D2H_BEGIN, s);
        CUDA_CHECK(cudaMemcpyAsync(p->h_out + r.offset, shared_out, bytes,
                                   cudaMemcpyDeviceToHost, s));
        pipeline_mark(p, c, MARK_D2H_END, s);
    }
}

void issue_h2d_only(const pipeline *p)
{
    const size_t bytes = p->n * sizeof(int32_t);
    CUDA_CHECK(cudaMemcpyAsync(p->d_x, p->h_x, bytes, cudaMemcpyHostToDevice, p->stream[0]));
    CUDA_CHECK(cudaMemcpyAsync(p->d_y, p->h_y, bytes, cudaMemcpyHostToDevice, p->stream[0]));
}

void issue_kernel_only(const pipeline *p)
{
    launch_chunk_kernel(p->d_x, p->d_y, p->d_out, p->n, p->work, p->stream[0]);
}

void issue_d2h_only(const pipeline *p)
{
    CUDA_CHECK(cudaMemcpyAsync(p->h_out, p->d_out, p->n * sizeof(int32_t),
                               cudaMemcpyDeviceToHost, p->stream[0]));
}

/* Needs two streams: the ceiling for a pipeline whose copies run both ways at once. */
void issue_both_directions(const pipeline *p)
{
    const size_t bytes = p->n * sizeof(int32_t);
    CUDA_CHECK(cudaMemcpyAsync(p->d_x, p->h_x, bytes, cudaMemcpyHostToDevice, p->stream[0]));
    CUDA_CHECK(cudaMemcpyAsync(p->h_out, p->d_out, bytes, cudaMemcpyDeviceToHost, p->stream[1]));
}
