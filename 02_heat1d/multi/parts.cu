/* The rod across GPUs: parts, kernels, scatter and gather, the serial step (see parts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_timer.cuh"
#include "heat1d.h"
#include "part_grid.h"
#include "parts.h"
#include "tutorial.h"

const char *const heat_multi_names[HEAT_MULTI_VARIANTS] = {"p2p", "p2p_serial", "nccl",
                                                          "nccl_serial"};

/* Points [lo, hi] of a part's buffer (halos at 0 and count + 1), grid-stride; the one-GPU
 * kernel's update, so every point rounds as it does there. */
__global__ void heat_span_kernel(const double *__restrict__ in, double *__restrict__ out,
                                 size_t lo, size_t hi, double k)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = lo + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i <= hi; i += stride)
        out[i] = heat_update_gpu(in[i - 1], in[i], in[i + 1], k);
}

/* The edge points [1] and [count] (one point when count is 1): two threads. */
__global__ void heat_edges_kernel(const double *__restrict__ in, double *__restrict__ out,
                                  size_t count, double k)
{
    const size_t i = threadIdx.x == 0 ? 1 : count;
    if (threadIdx.x == 0 || count > 1)
        out[i] = heat_update_gpu(in[i - 1], in[i], in[i + 1], k);
}

/* Test hooks: busy for ns nanoseconds; busy until *hold is 0 or timeout_ns passed, saying in
 * *state that it began (1), was let go (2) or gave up waiting (3). */
__global__ void heat_delay_kernel(unsigned long long ns)
{
    tut_spin_ns(ns);
}

__global__ void heat_hold_kernel(const volatile int *hold, volatile int *state,
                                 unsigned long long timeout_ns)
{
    *state = 1;
    __threadfence_system();
    const unsigned long long start = tut_global_ns();
    while (*hold && tut_global_ns() - start < timeout_ns) {
    }
    *state = *hold ? 3 : 2;
    __threadfence_system();
}

/* One thread per point up to part->blocks: the one-GPU kernel's rule (part_grid.h). */
static unsigned grid_for(const heat_part *part, size_t points, int threads)
{
    return heat_part_grid(points, threads, part->blocks);
}

/* The guide's rule: a kernel is launched with its stream's GPU current (it says the launch
 * fails otherwise; a CUDA 13 driver on H100s accepted it). Counts the launches that break it. */
static void note_current(heat_rod *r, int p)
{
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    if (current != r->part[p].device)
        r->misplaced++;
}

void heat_launch_edges(heat_rod *r, int p, int in)
{
    const heat_part *part = &r->part[p];
    note_current(r, p);
    if (p == r->delay_part && r->delay_ns > 0) {
        heat_delay_kernel<<<1, 1, 0, part->compute>>>(r->delay_ns);
        LAUNCH_CHECK();
    }
    heat_edges_kernel<<<1, 2, 0, part->compute>>>(part->buf[in], part->buf[1 - in], part->count,
                                                 r->k);
    LAUNCH_CHECK();
}

void heat_launch_interior(heat_rod *r, int p, int in)
{
    const heat_part *part = &r->part[p];
    note_current(r, p);
    if (part->count > 2) {
        heat_span_kernel<<<grid_for(part, part->count - 2, r->threads), r->threads, 0,
                           part->compute>>>(part->buf[in], part->buf[1 - in], 2,
                                            part->count - 1, r->k);
        LAUNCH_CHECK();
    }
    if (r->hold) {
        heat_hold_kernel<<<1, 1, 0, part->compute>>>(r->hold, r->hold + 1 + p,
                                                     r->hold_timeout_ns);
        LAUNCH_CHECK();
    }
}

void heat_launch_whole(heat_rod *r, int p, int in)
{
    const heat_part *part = &r->part[p];
    note_current(r, p);
    heat_span_kernel<<<grid_for(part, part->count, r->threads), r->threads, 0, part->compute>>>(
        part->buf[in], part->buf[1 - in], 1, part->count, r->k);
    LAUNCH_CHECK();
}

/* Peer access between the GPUs of neighbouring parts, where the hardware allows it; without
 * it cudaMemcpyPeerAsync still works, staged through host memory by the runtime. */
static void enable_peers(heat_rod *r)
{
    for (int p = 0; p + 1 < r->parts; ++p) {
        const int a = r->part[p].device, b = r->part[p + 1].device;
        if (a == b)
            continue;
        int ab = 0, ba = 0;
        CUDA_CHECK(cudaDeviceCanAccessPeer(&ab, a, b));
        CUDA_CHECK(cudaDeviceCanAccessPeer(&ba, b, a));
        if (!ab || !ba) {
            r->staged_pairs++;
            continue;
        }
        const int pair[2][2] = {{a, b}, {b, a}};
        for (int d = 0; d < 2; ++d) {
            CUDA_CHECK(cudaSetDevice(pair[d][0]));
            const cudaError_t err = cudaDeviceEnablePeerAccess(pair[d][1], 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled)
                (void)cudaGetLastError(); /* enabled by an earlier rod: fine */
            else
                CUDA_CHECK(err);
        }
        r->peer_pairs++;
    }
}

int heat_rod_create(heat_rod *r, size_t n, int parts, int gpus, double k, int threads,
                    char *why, size_t len)
{
    memset(r, 0, sizeof *r);
    r->delay_part = -1;
    int visible = 0, skip = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (!heat_split_check(n, parts, gpus, visible, &skip, why, len))
        return 0;
    /* Threads per block from the selected GPU's limits (emulated ones included). */
    heat_launch launch;
    if (!heat_config_step(tut_current_device(), heat_cost_of((const void *)heat_span_kernel), n,
                          threads, &launch, why, len))
        return 0;
    /* launch.blocks (for all n points) caps every part's grid as it caps the one-GPU kernel's */
    *r = (heat_rod){.n = n, .parts = parts, .gpus = gpus, .k = k, .threads = launch.threads,
                    .delay_part = -1};
    r->part = (heat_part *)calloc((size_t)parts, sizeof(heat_part));
    if (!r->part) {
        snprintf(why, len, "out of host memory for %d parts", parts);
        return 0;
    }
    for (int p = 0; p < parts; ++p) {
        heat_part *part = &r->part[p];
        const heat_span span = heat_split_part(n, parts, p);
        part->device = heat_split_device(parts, gpus, p);
        part->first = span.first;
        part->count = span.count;
        CUDA_CHECK(cudaSetDevice(part->device));
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, part->device));
        if (r->threads > prop.maxThreadsPerBlock) {
            snprintf(why, len, "%d threads per block, GPU %d allows %d", r->threads,
                     part->device, prop.maxThreadsPerBlock);
            heat_rod_destroy(r);
            return 0;
        }
        part->blocks = (unsigned)launch.blocks;
        const size_t bytes = tut_bytes(span.count + 2, sizeof(double), "part");
        for (int b = 0; b < 2; ++b)
            part->buf[b] = (double *)tut_device_alloc(bytes, "part of the rod");
        CUDA_CHECK(cudaStreamCreateWithFlags(&part->compute, cudaStreamNonBlocking));
        CUDA_CHECK(cudaStreamCreateWithFlags(&part->comm, cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&part->edges_done, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&part->sent, cudaEventDisableTiming));
    }
    enable_peers(r);
    return 1;
}

void heat_rod_destroy(heat_rod *r)
{
    heat_nccl_destroy(r);
    for (int p = 0; r->part && p < r->parts; ++p) {
        heat_part *part = &r->part[p];
        CUDA_CHECK(cudaSetDevice(part->device));
        for (int b = 0; b < 2; ++b)
            if (part->buf[b])
                tut_device_free(part->buf[b]);
        if (part->compute) {
            CUDA_CHECK(cudaStreamDestroy(part->compute));
            CUDA_CHECK(cudaStreamDestroy(part->comm));
            CUDA_CHECK(cudaEventDestroy(part->edges_done));
            CUDA_CHECK(cudaEventDestroy(part->sent));
        }
    }
    free(r->part);
    r->part = NULL;
    CUDA_CHECK(cudaSetDevice(0));
}

/* The first step must find every value in place. The copies go on each part's own comm stream
 * (the legacy stream's plain cudaMemcpy does not order the non-blocking streams the steps run
 * on, and one from pageable memory may return before its data lands), and scatter waits for
 * them all before it returns: the step, and the caller's u, are then free to go. */
void heat_rod_scatter(heat_rod *r, const double *u)
{
    static const double zero = 0.0; /* outlives the copies whatever the caller does next */
    for (int p = 0; p < r->parts; ++p) {
        heat_part *part = &r->part[p];
        CUDA_CHECK(cudaSetDevice(part->device));
        CUDA_CHECK(cudaDeviceSynchronize()); /* the last run's steps are done with the buffers */
        const int first_part = part->first == 0, last_part = part->first + part->count == r->n;
        /* points and their halos, the rod's values or 0.0 at a wall */
        CUDA_CHECK(cudaMemcpyAsync(part->buf[0] + 1, u + part->first,
                                   part->count * sizeof(double), cudaMemcpyHostToDevice,
                                   part->comm));
        CUDA_CHECK(cudaMemcpyAsync(part->buf[0], first_part ? &zero : u + part->first - 1,
                                   sizeof(double), cudaMemcpyHostToDevice, part->comm));
        CUDA_CHECK(cudaMemcpyAsync(part->buf[0] + part->count + 1,
                                   last_part ? &zero : u + part->first + part->count,
                                   sizeof(double), cudaMemcpyHostToDevice, part->comm));
        if (first_part)
            CUDA_CHECK(cudaMemcpyAsync(part->buf[1], &zero, sizeof(double),
                                       cudaMemcpyHostToDevice, part->comm));
        if (last_part)
            CUDA_CHECK(cudaMemcpyAsync(part->buf[1] + part->count + 1, &zero, sizeof(double),
                                       cudaMemcpyHostToDevice, part->comm));
        /* a step waits for `sent`: recorded here, after the copies */
        CUDA_CHECK(cudaEventRecord(part->sent, part->comm));
    }
    for (int p = 0; p < r->parts; ++p) {
        CUDA_CHECK(cudaSetDevice(r->part[p].device));
        CUDA_CHECK(cudaStreamSynchronize(r->part[p].comm));
    }
}

void heat_rod_gather(const heat_rod *r, long long steps, double *u)
{
    heat_rod_sync(r);
    for (int p = 0; p < r->parts; ++p) {
        const heat_part *part = &r->part[p];
        CUDA_CHECK(cudaSetDevice(part->device));
        CUDA_CHECK(cudaMemcpy(u + part->first, part->buf[steps % 2] + 1,
                              part->count * sizeof(double), cudaMemcpyDeviceToHost));
    }
}

void heat_rod_sync(const heat_rod *r)
{
    for (int p = 0; p < r->parts; ++p) {
        CUDA_CHECK(cudaSetDevice(r->part[p].device));
        CUDA_CHECK(cudaStreamSynchronize(r->part[p].compute));
        CUDA_CHECK(cudaStreamSynchronize(r->part[p].comm));
    }
}

void heat_wait_for_sends(heat_rod *r, int p)
{
    for (int q = p - 1; q <= p + 1; ++q)
        if (q >= 0 && q < r->parts)
            CUDA_CHECK(cudaStreamWaitEvent(r->part[p].compute, r->part[q].sent, 0));
}

/* Without overlap: the whole update, then the sends on the same (compute) stream, so the
 * exchange waits for the interior and the next step waits for the exchange. */
void heat_serial_step(heat_rod *r, long long s)
{
    const int in = (int)(s % 2), out = 1 - in;
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device));
        heat_wait_for_sends(r, p);
        heat_launch_whole(r, p, in);
    }
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device));
        const heat_halo_send sends[2] = {heat_halo_left(r->n, r->parts, p),
                                         heat_halo_right(r->n, r->parts, p)};
        for (int side = 0; side < 2; ++side) {
            if (sends[side].receiver < 0)
                continue;
            const heat_part *to = &r->part[sends[side].receiver];
            CUDA_CHECK(cudaMemcpyPeerAsync(to->buf[out] + sends[side].to, to->device,
                                           me->buf[out] + sends[side].from, me->device,
                                           sizeof(double), me->compute));
        }
        CUDA_CHECK(cudaEventRecord(me->sent, me->compute));
    }
}

void heat_rod_run(heat_rod *r, heat_multi_variant v, long long steps)
{
    for (long long s = 0; s < steps; ++s) {
        switch (v) {
        case HEAT_MULTI_P2P:
            heat_overlap_step(r, s);
            break;
        case HEAT_MULTI_P2P_SERIAL:
            heat_serial_step(r, s);
            break;
        case HEAT_MULTI_NCCL:
        case HEAT_MULTI_NCCL_SERIAL:
            heat_nccl_step(r, s, v == HEAT_MULTI_NCCL);
            break;
        default:
            break;
        }
    }
}
