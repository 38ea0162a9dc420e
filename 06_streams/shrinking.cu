/* The depth-first pipeline with shrinking chunks (schedule.h): the first chunk is the longest,
 * the last about 1/16 of it. With equal chunks, the last chunk's kernel and copy-out still run
 * after every copy-in has ended; a short last chunk makes that tail short, and the long first
 * chunk costs nothing extra because the copy-ins run back to back anyway. Chunk i goes to
 * stream i % streams, as in issue_depth_first (pipeline.cu), whose loop this one follows. */
#include <stdio.h>
#include <stdlib.h>

#include "kernels.h"
#include "pipeline.h"
#include "schedule.h"
#include "tutorial.h"

void issue_shrinking(const pipeline *p)
{
    chunk_range *chunk = (chunk_range *)tut_host_alloc(p->chunks * sizeof *chunk, "chunks");
    if (shrinking_schedule(p->n, p->chunks, chunk) != 0) {
        fprintf(stderr, "error: %zu shrinking chunks of %zu elements: chunks would be empty\n",
                p->chunks, p->n);
        exit(2);
    }
    for (size_t c = 0; c < p->chunks; ++c) {
        const chunk_range r = chunk[c];
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
    free(chunk);
}
