/* The halo exchange through NCCL: each part a rank, ncclSend/ncclRecv of one double to each
 * neighbour, all ranks' calls in one group (one thread drives every GPU, so a group is how
 * NCCL knows that the calls of all ranks belong together). Built with NCCL only
 * (HEAT_HAVE_NCCL); without it the variants say so and are skipped. */
#include <stdio.h>
#include <stdlib.h>

#include "parts.h"
#include "tutorial.h"

#ifdef HEAT_HAVE_NCCL
#include <nccl.h>

#define NCCL_CHECK(call) nccl_check((call), #call, __FILE__, __LINE__)
static void nccl_check(ncclResult_t result, const char *call, const char *file, int line)
{
    if (result != ncclSuccess)
        tut_fail("NCCL", call, file, line, "ncclResult_t", ncclGetErrorString(result));
}

int heat_nccl_built(void) { return 1; }

int heat_nccl_init(heat_rod *r, char *why, size_t len)
{
    if (r->nccl)
        return 1;
    if (r->parts != r->gpus) {
        snprintf(why, len, "NCCL takes one rank per GPU: %d parts on %d GPU(s)", r->parts,
                 r->gpus);
        return 0;
    }
    ncclComm_t *comms = (ncclComm_t *)calloc((size_t)r->parts, sizeof(ncclComm_t));
    int *devices = (int *)calloc((size_t)r->parts, sizeof(int));
    if (!comms || !devices) {
        snprintf(why, len, "out of host memory");
        free(comms);
        free(devices);
        return 0;
    }
    for (int p = 0; p < r->parts; ++p)
        devices[p] = r->part[p].device;
    const ncclResult_t result = ncclCommInitAll(comms, r->parts, devices);
    free(devices);
    if (result != ncclSuccess) {
        snprintf(why, len, "ncclCommInitAll on %d GPU(s) failed: %s", r->parts,
                 ncclGetErrorString(result));
        free(comms);
        return -1;
    }
    (void)cudaGetLastError(); /* an error NCCL met and handled (peer access already on, say)
                               * must not surface at our next launch check */
    r->nccl = comms;
    return 1;
}

void heat_nccl_destroy(heat_rod *r)
{
    ncclComm_t *comms = (ncclComm_t *)r->nccl;
    if (!comms)
        return;
    heat_rod_sync(r);
    for (int p = 0; p < r->parts; ++p)
        NCCL_CHECK(ncclCommDestroy(comms[p]));
    free(comms);
    r->nccl = NULL;
}

/* overlap: edges, then the sends on the comm stream beside the interior; else the whole
 * update, then the sends on the compute stream. */
void heat_nccl_step(heat_rod *r, long long s, int overlap)
{
    ncclComm_t *comms = (ncclComm_t *)r->nccl;
    const int in = (int)(s % 2), out = 1 - in;
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device));
        heat_wait_for_sends(r, p);
        if (overlap) {
            heat_launch_edges(r, p, in);
            CUDA_CHECK(cudaEventRecord(me->edges_done, me->compute));
            heat_launch_interior(r, p, in);
            CUDA_CHECK(cudaStreamWaitEvent(me->comm, me->edges_done, 0));
        } else {
            heat_launch_whole(r, p, in);
        }
    }
    NCCL_CHECK(ncclGroupStart());
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        cudaStream_t stream = overlap ? me->comm : me->compute;
        double *buf = me->buf[out];
        if (p > 0) { /* my first point out, the left neighbour's last point into my left halo */
            NCCL_CHECK(ncclSend(buf + 1, 1, ncclDouble, p - 1, comms[p], stream));
            NCCL_CHECK(ncclRecv(buf, 1, ncclDouble, p - 1, comms[p], stream));
        }
        if (p + 1 < r->parts) {
            NCCL_CHECK(ncclSend(buf + me->count, 1, ncclDouble, p + 1, comms[p], stream));
            NCCL_CHECK(ncclRecv(buf + me->count + 1, 1, ncclDouble, p + 1, comms[p], stream));
        }
    }
    NCCL_CHECK(ncclGroupEnd());
    for (int p = 0; p < r->parts; ++p) {
        heat_part *me = &r->part[p];
        CUDA_CHECK(cudaSetDevice(me->device));
        CUDA_CHECK(cudaEventRecord(me->sent, overlap ? me->comm : me->compute));
    }
}

#else

int heat_nccl_built(void) { return 0; }

int heat_nccl_init(heat_rod *r, char *why, size_t len)
{
    (void)r;
    snprintf(why, len, "this build has no NCCL (CMake did not find it: see docs/06_streams_2.md)");
    return 0;
}

void heat_nccl_destroy(heat_rod *r) { (void)r; }

void heat_nccl_step(heat_rod *r, long long s, int overlap)
{
    (void)r;
    (void)s;
    (void)overlap;
    fprintf(stderr, "heat_nccl_step: this build has no NCCL\n");
    exit(2);
}

#endif
