/* EXERCISE ex06.5: split and combine across devices (split_combine.h says what split_dot must
 * do; docs/06_streams_2.md, "Exercise"; docs/06_streams_exercises.md).
 *
 * Part k runs on GPU rig->device[k]: a call that allocates, copies or launches works on the
 * GPU made current by cudaSetDevice, and a kernel may only go to a stream of the current GPU.
 * Several parts may share one GPU (the grader runs most cases with every part on GPU 0, and one
 * case on two or more GPUs). Wrap every call in CUDA_CHECK. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex06.5 */
#include "split_combine.h"
#include "tutorial.h"

double split_dot(split_rig *rig, const float *x, const float *y, size_t n)
{
    combine_args args = {.parts = rig->parts};
    for (int k = 0; k < rig->parts; ++k) {
        /* TODO (ex06.5) 1: part k's first element and count: n / parts each, and one more for
         * each of the first n % parts parts (n may be smaller than parts: some get none). */
        const size_t first = 0, count = 0;
        /* TODO (ex06.5) 2: on part k's GPU, queue on rig->stream[k]: copy its slices of x and
         * y into rig->x[k] and rig->y[k] (cudaMemcpyAsync), then
         *     launch_partial_dot(rig->x[k], rig->y[k], count, rig->partials[k],
         *                        rig->blocks[k], rig->stream[k]);
         * and mark the end of the part's work with rig->done[k] (cudaEventRecord). Do not wait
         * here: every part must be queued before any finishes. */
        (void)x; (void)y; (void)first; (void)count;
        args.partials[k] = rig->partials[k];
        args.blocks[k] = rig->blocks[k];
    }
    /* TODO (ex06.5) 3: the combine runs on part 0's GPU and reads every part's partials where
     * they are. For each other part k: if its GPU differs from part 0's, let part 0's GPU read
     * it (cudaDeviceEnablePeerAccess, called with part 0's GPU current; a second call returns
     * cudaErrorPeerAccessAlreadyEnabled: clear it with cudaGetLastError and go on); and make
     * rig->stream[0] wait for rig->done[k]. Then, with part 0's GPU current:
     *     launch_combine(&args, rig->result, rig->stream[0]);
     * and copy *rig->result back into sum on rig->stream[0], and wait for that stream. */
    double sum = 0.0;
    (void)args;
    return sum;
}
