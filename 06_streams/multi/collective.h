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
} collective_job;

typedef struct {
    int local;                               /* GPUs this process drives */
    int ranks;                               /* ranks of the communicator */
    int first_rank;                          /* the rank of local GPU 0 (the others follow) */
    int device[TUT_MULTI_MAX_GPUS];          /* CUDA device of each local GPU */
    ncclComm_t comm[TUT_MULTI_MAX_GPUS];
    cudaStream_t stream[TUT_MULTI_MAX_GPUS];
    const char *mode;                        /* "single" or "ranks" (the CSV's column) */
} collective_team;

/* One process, every visible GPU: ncclCommInitAll. Returns the exit code. */
int collective_run_single(const collective_job *job, int visible);
/* One process per GPU, started by a launcher: ncclCommInitRank with the id from id_file
 * (rank 0 writes it, the others wait for it). Returns the exit code. */
int collective_run_ranks(const collective_job *job, const tut_multi_launch *launch, int visible,
                         const char *id_file);

#endif
