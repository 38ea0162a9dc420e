/* The collective work of nccl_allreduce, the same whether one process drives every GPU or each
 * GPU has its own process (a "team": the GPUs this process drives, and where they sit among the
 * communicator's ranks). */
#ifndef COLLECTIVE_H
#define COLLECTIVE_H

#include <nccl.h>
#include <cuda_runtime_api.h>

#include "multi_gpu.h"
#include "ring_allreduce.h"

typedef struct {
    unsigned long long n_dot, seed, min_bytes, max_bytes;
    int pieces, bench;
    const char *outdir;
    double timeout_s; /* one process per GPU: the longest wait for the other ranks */
} collective_job;

typedef struct {
    int local;                               /* GPUs this process drives */
    int ranks;                               /* ranks of the communicator */
    int first_rank;                          /* the rank of local GPU 0 (the others follow) */
    int device[TUT_MULTI_MAX_GPUS];          /* CUDA device of each local GPU */
    ncclComm_t comm[TUT_MULTI_MAX_GPUS];
    cudaStream_t stream[TUT_MULTI_MAX_GPUS];
    const char *mode;                        /* "single" or "ranks" (the CSV's column) */
    double timeout_s; /* one process per GPU: the longest wait on the other ranks */
} collective_team;

/* One process, every visible GPU: ncclCommInitAll. Returns the exit code. */
int collective_run_single(const collective_job *job, int visible);
/* The checks (and, with_ring, the ring) and the sweep on a formed team; destroys its
 * communicators. Returns the exit code. */
int collective_run_team(collective_team *t, const collective_job *job, int with_ring);
/* One process per GPU, started by a launcher (launch_ranks.cu): this rank's GPU, NCCL's id
 * through id_file (rank 0 writes it, the others wait for it), ncclCommInitRankConfig, each wait
 * bounded by job->timeout_s. Returns the exit code: 2 with the cause when the launch is wrong. */
int collective_run_ranks(const collective_job *job, const tut_multi_launch *launch, int visible,
                         const char *id_file);

#endif
