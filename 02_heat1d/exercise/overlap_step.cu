/* EXERCISE ex02.5 (the halo exchange across GPUs, docs/06_streams_3.md, "Exercise ex02.5"): write
 * the body of heat_overlap_step below; the rest of the program (multi/parts.cu) is complete.
 * The grader is tests/grade_ex5_halo.cu. Grade it (the loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex02.5
 *
 * One step of the rod across GPUs with the halo exchange overlapped with the interior update.
 * Part p's compute stream updates its two edge points first, then its interior; its comm
 * stream sends the new edge points to the neighbours' halos as soon as they exist, while the
 * interior still runs. Events carry the order between the streams (and between GPUs). */
#include "parts.h"
#include "tutorial.h"

void heat_overlap_step(heat_rod *r, long long s)
{
    /* TODO (ex02.5): step s reads buf[in] and writes buf[out], in = s % 2, out = 1 - in
     * (multi/parts.h and multi/split.h describe a part and its buffer).
     * 1. For every part p, on its compute stream (its GPU current: cudaSetDevice):
     *    - wait (cudaStreamWaitEvent) for the `sent` event of p - 1, p and p + 1 (those that
     *      exist): their halos of buf[in] must have landed before p reads them;
     *    - heat_launch_edges(r, p, in); record p's `edges_done`; heat_launch_interior(r, p, in).
     * 2. Then for every part p, on its comm stream: wait for its `edges_done`; send buf[out]'s
     *    point 1 to the right halo of part p - 1 (index count of p - 1, plus 1) and its point
     *    `count` to the left halo (index 0) of part p + 1, one double each, with
     *    cudaMemcpyPeerAsync (it takes the GPU of each side); record p's `sent`.
     * Why must every compute phase come before any comm phase within a step? */
    (void)r;
    (void)s;
}
