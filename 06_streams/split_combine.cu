/* ex06.5 (split_combine.h): a dot product split over parts, each on its own device and stream,
 * combined on the GPU of part 0 (docs/06_streams_2.md, "Exercise"). */
#include "split_combine.h"
#include "tutorial.h"

/* Lets `device` read `peer`'s memory; turning it on twice is no error here. */
static void enable_peer_access(int device, int peer)
{
    CUDA_CHECK(cudaSetDevice(device));
    const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled)
        (void)cudaGetLastError(); /* already on: clear the error, go on */
    else
        CUDA_CHECK(err);
}

double split_dot(split_rig *rig, const float *x, const float *y, size_t n)
{
    combine_args args = {.parts = rig->parts};
    const size_t parts = (size_t)rig->parts;
    for (int k = 0; k < rig->parts; ++k) {
        /* 1. Part k's share: n / parts elements, one more for the first n % parts parts. */
        const size_t extra = n % parts, uk = (size_t)k;
        const size_t first = uk * (n / parts) + (uk < extra ? uk : extra);
        const size_t count = n / parts + (uk < extra ? 1 : 0);
        /* 2. Its copies and kernel, queued on its own device and stream: nothing waits yet. */
        CUDA_CHECK(cudaSetDevice(rig->device[k]));
        CUDA_CHECK(cudaMemcpyAsync(rig->x[k], x + first, count * sizeof(float),
                                   cudaMemcpyHostToDevice, rig->stream[k]));
        CUDA_CHECK(cudaMemcpyAsync(rig->y[k], y + first, count * sizeof(float),
                                   cudaMemcpyHostToDevice, rig->stream[k]));
        launch_partial_dot(rig->x[k], rig->y[k], count, rig->partials[k], rig->blocks[k],
                           rig->stream[k]);
        CUDA_CHECK(cudaEventRecord(rig->done[k], rig->stream[k]));
        args.partials[k] = rig->partials[k];
        args.blocks[k] = rig->blocks[k];
    }
    /* 3. The combine, on part 0's GPU: it reads the others' partials in place, so it needs
     * peer access to their GPUs, and must wait until each part has written them. */
    for (int k = 1; k < rig->parts; ++k) {
        if (rig->device[k] != rig->device[0])
            enable_peer_access(rig->device[0], rig->device[k]);
        CUDA_CHECK(cudaSetDevice(rig->device[0]));
        CUDA_CHECK(cudaStreamWaitEvent(rig->stream[0], rig->done[k], 0));
    }
    CUDA_CHECK(cudaSetDevice(rig->device[0]));
    launch_combine(&args, rig->result, rig->stream[0]);
    double sum = 0.0;
    CUDA_CHECK(cudaMemcpyAsync(&sum, rig->result, sizeof sum, cudaMemcpyDeviceToHost,
                               rig->stream[0]));
    CUDA_CHECK(cudaStreamSynchronize(rig->stream[0]));
    return sum;
}
