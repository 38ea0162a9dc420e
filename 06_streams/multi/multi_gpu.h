/* Helpers shared by the multi-GPU programs (06_streams/multi, 02_heat1d's multi-GPU steps):
 * the split arithmetic, the bus-bandwidth formula, the stated speed of a PCIe link, the
 * launcher's environment (srun, mpirun), and the GPUs and their peer access.
 * C11, usable from .cu files; the pure functions make no CUDA call (tested on the CPU). */
#ifndef TUTORIAL_MULTI_GPU_H
#define TUTORIAL_MULTI_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs (or ranks) a program of this suite drives. */
#define TUT_MULTI_MAX_GPUS 64

/* ---- Splitting n items over `parts` parts (the first n % parts get one more) -------------- */
size_t tut_multi_split_count(size_t n, int parts, int part);
size_t tut_multi_split_offset(size_t n, int parts, int part);

/* ---- All-reduce bandwidth as nccl-tests defines it (doc/PERFORMANCE.md) -------------------
 * algbw = bytes / seconds (bytes: the size of one rank's buffer); busbw = algbw * 2(n-1)/n, the
 * rate at which each rank's links must move data for a ring: comparable with the link speed
 * whatever n is. GB/s are 1e9 bytes per second. */
double tut_multi_algbw_gbps(size_t bytes, double seconds);
double tut_multi_allreduce_busbw_gbps(size_t bytes, double seconds, int ranks);

/* The bytes each rank sends (and receives) in a ring all-reduce of `bytes` per rank:
 * 2(n-1) steps of one chunk, bytes/n each (reduce-scatter, then all-gather). */
double tut_multi_ring_bytes_per_rank(size_t bytes, int ranks);

/* The ring all-reduce's schedule (ring_allreduce.h): the chunk that rank r receives from rank
 * r - 1 in step t of 2(ranks-1) (reduce-scatter for t < ranks - 1, then all-gather). */
int tut_multi_ring_chunk(int rank, int step, int ranks);
/* The pieces a chunk of chunk_bytes is cut into: one per piece_bytes, 1 .. max_pieces. */
int tut_multi_ring_pieces(size_t chunk_bytes, size_t piece_bytes, int max_pieces);

/* ---- A PCIe link's stated speed, one direction, in GB/s: generation (1-6) and lanes; 0 for
 * an unknown generation. Gen 1-2 encode 8b/10b, gen 3-5 128b/130b; gen 6 (FLIT) is taken at
 * its raw rate. */
double tut_multi_pcie_gbps(int generation, int lanes);

/* ---- The launcher: which process am I? --------------------------------------------------- */
typedef struct {
    int rank, size, local_rank;
    int local_size; /* ranks on this node (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS, Slurm's
                       tasks per node); 0 when the launcher does not say */
    const char *launcher; /* "openmpi", "pmi" (MPICH, Intel MPI), "slurm" */
    /* What names this launch and no other: SLURM_JOB_ID.SLURM_STEP_ID under srun, the job's
     * PMIx namespace or Open MPI's job id under mpirun; "" when the launcher gives none. */
    char token[128];
} tut_multi_launch;

typedef const char *(*tut_multi_getenv_fn)(const char *name);

/* Reads the launcher's variables through `get` (getenv in the programs, a table in the tests),
 * the first that applies of: OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK (mpirun, even inside a Slurm
 * allocation); PMI_RANK/PMI_SIZE when MPI_LOCALRANKID is set (MPICH, Intel MPI); SLURM_PROCID/
 * SLURM_LOCALID only in a job step (SLURM_STEP_ID set, as srun does; a batch script alone is
 * one process), the size from SLURM_STEP_NUM_TASKS, else SLURM_NTASKS. Returns 1 and fills *out
 * when a launcher started this process, 0 when none did, -1 when its variables are incomplete
 * or inconsistent (rank outside [0, size), a missing local rank, non-numbers): why[] says which. */
int tut_multi_launch_from(tut_multi_getenv_fn get, tut_multi_launch *out, char *why,
                          size_t why_len);
int tut_multi_launch_from_env(tut_multi_launch *out, char *why, size_t why_len);

/* Slurm's tasks-per-node list (SLURM_STEP_TASKS_PER_NODE, e.g. "2(x3),1": three nodes with 2
 * tasks, then one with 1): the count on node `node` (SLURM_NODEID); 0 if the list is malformed
 * or shorter. */
int tut_multi_slurm_tasks_on_node(const char *spec, int node);

/* The GPU of a rank, one process per GPU, decided before any GPU is touched: with one visible
 * GPU, that one (a launcher that gives each task its own, srun --gpus-per-task=1, leaves each
 * process one; two ranks that share it are caught by NCCL when the communicator forms); with
 * several, the local rank's, if this node has no more ranks than visible GPUs. Returns the
 * device, or -1 with why[] (the counts, CUDA_VISIBLE_DEVICES as `cuda_visible` says it, and
 * the launcher's options that fix it). */
int tut_multi_rank_device(const tut_multi_launch *launch, int visible, const char *cuda_visible,
                          char *why, size_t why_len);

/* ---- The GPUs (these call the CUDA runtime) ---------------------------------------------- */
/* The number of GPUs this process sees (CUDA_VISIBLE_DEVICES applies); 0 with the reason in
 * why[] when there is no driver or no device. */
int tut_multi_device_count(char *why, size_t why_len);

/* can[i * count + j] = 1 if device i can read and write device j's memory directly (i != j);
 * the diagonal is 1. */
void tut_multi_peer_matrix(int count, int *can);

/* Enables peer access between every pair of devices 0..count-1 that can have it (both
 * directions; enabling one that is already on is fine). Returns the number of ordered pairs
 * (i, j), i != j, whose access is on; can[] as tut_multi_peer_matrix if not NULL, but 0 for a
 * pair the GPU refused for having too many peers already (cudaErrorTooManyPeers: copies between
 * them are staged through the host). */
int tut_multi_enable_peers(int count, int *can);
/* The opposite: turns off every pair that is on (for measuring copies without peer access). */
void tut_multi_disable_peers(int count);

#ifdef __cplusplus
}
#endif

#endif
