/* One step of the rod across GPUs with the halo exchange overlapped with the interior update
 * (exercise ex02.5, docs/06_streams_3.md). Part p's compute stream updates its two edge points
 * first, then its interior; its comm stream sends the new edge points to the neighbours' halos
 * as soon as they exist, while the interior still runs. Events carry the order between the
 * streams (and between GPUs): the sends wait for the edges, the next step waits for the sends. */
#include "parts.h"
#include "tutorial.h"

void heat_overlap_step(heat_rod *r, long long s)
{
    const int in = (int)(s % 2), out = 1 - in;
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device)); /* a kernel launches on the current GPU */
        /* The halos of buf[in] came from the neighbours' last sends, and this step overwrites
         * the edge points of buf[out] that this part's own sends two steps ago read. */
        for (int q = p - 1; q <= p + 1; ++q)
            if (q >= 0 && q < r->parts)
                CUDA_CHECK(cudaStreamWaitEvent(me->compute, r->part[q].sent, 0));
        heat_launch_edges(r, p, in);
        CUDA_CHECK(cudaEventRecord(me->edges_done, me->compute));
        heat_launch_interior(r, p, in);
    }
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device));
        CUDA_CHECK(cudaStreamWaitEvent(me->comm, me->edges_done, 0));
        const double *edges = me->buf[out];
        if (p > 0) { /* my first point to the right halo of the part on my left */
            const heat_part *left = &r->part[p - 1];
            CUDA_CHECK(cudaMemcpyPeerAsync(left->buf[out] + left->count + 1, left->device,
                                           edges + 1, me->device, sizeof(double), me->comm));
        }
        if (p + 1 < r->parts) { /* my last point to the left halo of the part on my right */
            const heat_part *right = &r->part[p + 1];
            CUDA_CHECK(cudaMemcpyPeerAsync(right->buf[out], right->device, edges + me->count,
                                           me->device, sizeof(double), me->comm));
        }
        CUDA_CHECK(cudaEventRecord(me->sent, me->comm));
    }
}
