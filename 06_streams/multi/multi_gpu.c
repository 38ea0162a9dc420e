/* Helpers of the multi-GPU programs: multi_gpu.h says what each does. */
#include "multi_gpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "device.h"

size_t tut_multi_split_count(size_t n, int parts, int part)
{
    if (parts < 1 || part < 0 || part >= parts)
        return 0;
    const size_t p = (size_t)parts, k = (size_t)part;
    return n / p + (k < n % p ? 1 : 0);
}

size_t tut_multi_split_offset(size_t n, int parts, int part)
{
    if (parts < 1 || part < 0)
        return 0;
    if (part > parts)
        part = parts;
    const size_t p = (size_t)parts, k = (size_t)part, extra = n % p;
    return k * (n / p) + (k < extra ? k : extra);
}

double tut_multi_algbw_gbps(size_t bytes, double seconds)
{
    return seconds > 0 ? (double)bytes / seconds / 1e9 : 0.0;
}

double tut_multi_allreduce_busbw_gbps(size_t bytes, double seconds, int ranks)
{
    if (ranks < 1)
        return 0.0;
    return tut_multi_algbw_gbps(bytes, seconds) * 2.0 * (ranks - 1) / ranks;
}

double tut_multi_ring_bytes_per_rank(size_t bytes, int ranks)
{
    if (ranks < 1)
        return 0.0;
    return 2.0 * (ranks - 1) * ((double)bytes / ranks);
}

int tut_multi_ring_chunk(int rank, int step, int ranks)
{
    if (ranks < 1)
        return 0;
    const int back = step < ranks - 1 ? 1 + step : step - (ranks - 1);
    return ((rank - back) % ranks + ranks) % ranks;
}

int tut_multi_ring_pieces(size_t chunk_bytes, size_t piece_bytes, int max_pieces)
{
    if (piece_bytes == 0 || max_pieces < 1)
        return 1;
    const size_t pieces = chunk_bytes / piece_bytes;
    return pieces < 1 ? 1 : pieces > (size_t)max_pieces ? max_pieces : (int)pieces;
}

double tut_multi_pcie_gbps(int generation, int lanes)
{
    static const double gt_per_s[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    if (generation < 1 || generation > 6 || lanes < 1)
        return 0.0;
    const double efficiency = generation <= 2 ? 8.0 / 10.0 : generation <= 5 ? 128.0 / 130.0 : 1.0;
    return gt_per_s[generation] * lanes * efficiency / 8.0;
}

/* A whole non-negative decimal number, or -1. */
static long parse_count(const char *text)
{
    if (!text || !*text)
        return -1;
    char *end = NULL;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (errno || *end || v < 0 || v > 1000000)
        return -1;
    return v;
}

/* The first of names[] that is set, or NULL. */
static const char *first_set(tut_multi_getenv_fn get, const char *const *names, size_t count)
{
    for (size_t k = 0; k < count; ++k)
        if (names[k] && get(names[k]))
            return get(names[k]);
    return NULL;
}

int tut_multi_launch_from(tut_multi_getenv_fn get, tut_multi_launch *out, char *why,
                          size_t why_len)
{
    /* In this order: mpirun inside a Slurm allocation passes SLURM_PROCID (the allocation's,
     * or the proxy's) to every rank, so the MPI launchers' own variables come first. Slurm's
     * count only in a job step (srun sets SLURM_STEP_ID; a batch script alone is one process,
     * whatever SLURM_NTASKS says). MPICH's PMI counts only with its local rank (MPI_LOCALRANKID);
     * a PMI_RANK without it is left to the Slurm variables. */
    static const struct {
        const char *launcher, *only_if, *rank, *size[2], *local, *local_size, *token[3];
    } kinds[] = {
        {.launcher = "openmpi", .only_if = "OMPI_COMM_WORLD_RANK", .rank = "OMPI_COMM_WORLD_RANK",
         .size = {"OMPI_COMM_WORLD_SIZE"}, .local = "OMPI_COMM_WORLD_LOCAL_RANK",
         .local_size = "OMPI_COMM_WORLD_LOCAL_SIZE",
         .token = {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid"}},
        {.launcher = "pmi", .only_if = "MPI_LOCALRANKID", .rank = "PMI_RANK",
         .size = {"PMI_SIZE"}, .local = "MPI_LOCALRANKID",
         .local_size = "MPI_LOCALNRANKS", .token = {"PMIX_NAMESPACE"}},
        {.launcher = "slurm", .only_if = "SLURM_STEP_ID", .rank = "SLURM_PROCID",
         .size = {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, .local = "SLURM_LOCALID"},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        const char *rank_text = get(kinds[k].rank);
        if (!rank_text || !get(kinds[k].only_if))
            continue;
        const char *size_text = first_set(get, kinds[k].size, 2);
        const char *size_name =
            kinds[k].size[1] && !get(kinds[k].size[0]) && get(kinds[k].size[1]) ? kinds[k].size[1]
                                                                                : kinds[k].size[0];
        const long rank = parse_count(rank_text);
        const long size = parse_count(size_text);
        const long local = parse_count(get(kinds[k].local));
        if (rank < 0 || size < 1 || local < 0) {
            snprintf(why, why_len, "%s=%s but %s=%s and %s=%s: each must be a whole number "
                     "(size at least 1)", kinds[k].rank, rank_text, size_name,
                     size_text ? size_text : "(unset)", kinds[k].local,
                     get(kinds[k].local) ? get(kinds[k].local) : "(unset)");
            return -1;
        }
        if (rank >= size || local > rank || size > TUT_MULTI_MAX_GPUS * 1024) {
            snprintf(why, why_len, "%s=%ld is not below %s=%ld, or the local rank %ld is above "
                     "it", kinds[k].rank, rank, size_name, size, local);
            return -1;
        }
        *out = (tut_multi_launch){.rank = (int)rank, .size = (int)size, .local_rank = (int)local,
                                  .launcher = kinds[k].launcher};
        if (kinds[k].local_size) {
            const long local_size = parse_count(get(kinds[k].local_size));
            out->local_size = local_size > 0 ? (int)local_size : 0;
        } else { /* Slurm: this node's entry of the tasks-per-node list */
            const char *per_node = get("SLURM_STEP_TASKS_PER_NODE");
            const long node = parse_count(get("SLURM_NODEID"));
            out->local_size = tut_multi_slurm_tasks_on_node(
                per_node ? per_node : get("SLURM_TASKS_PER_NODE"), node < 0 ? 0 : (int)node);
        }
        const char *token = first_set(get, kinds[k].token, 3);
        if (strcmp(kinds[k].launcher, "slurm") == 0 && get("SLURM_JOB_ID")) /* job.step */
            snprintf(out->token, sizeof out->token, "%s.%s", get("SLURM_JOB_ID"),
                     get("SLURM_STEP_ID"));
        else if (token)
            snprintf(out->token, sizeof out->token, "%s", token);
        return 1;
    }
    snprintf(why, why_len, "no launcher variables (OMPI_COMM_WORLD_RANK; PMI_RANK with "
             "MPI_LOCALRANKID; SLURM_PROCID in a job step, SLURM_STEP_ID)");
    return 0;
}

int tut_multi_slurm_tasks_on_node(const char *spec, int node)
{
    if (!spec || node < 0)
        return 0;
    const char *p = spec;
    while (*p) {
        char *end = NULL;
        const long count = strtol(p, &end, 10);
        long repeat = 1;
        if (end == p || count < 0)
            return 0;
        p = end;
        if (*p == '(') { /* "(xK)" */
            if (p[1] != 'x')
                return 0;
            repeat = strtol(p + 2, &end, 10);
            if (end == p + 2 || *end != ')' || repeat < 1)
                return 0;
            p = end + 1;
        }
        if (node < repeat)
            return (int)count;
        node -= (int)repeat;
        if (*p == ',')
            ++p;
        else if (*p)
            return 0;
    }
    return 0;
}

int tut_multi_rank_device(const tut_multi_launch *launch, int visible, const char *cuda_visible,
                          char *why, size_t why_len)
{
    if (visible == 1)
        return 0;
    const int on_node = launch->local_size > launch->local_rank ? launch->local_size
                                                                : launch->local_rank + 1;
    if (visible >= 1 && on_node <= visible)
        return launch->local_rank;
    snprintf(why, why_len, "this node runs %s%d ranks (this one is local rank %d) but this process "
             "sees %d GPU%s (CUDA_VISIBLE_DEVICES=%s): two ranks would share a GPU. Start at most "
             "one rank per GPU on each node (srun --ntasks-per-node=%d, or srun --gpus-per-task=1; "
             "mpirun --map-by ppr:%d:node), or make more GPUs visible",
             launch->local_size ? "" : "at least ", on_node, launch->local_rank, visible,
             visible == 1 ? "" : "s", cuda_visible ? cuda_visible : "(unset)", visible, visible);
    return -1;
}

static const char *plain_getenv(const char *name) { return getenv(name); }

int tut_multi_launch_from_env(tut_multi_launch *out, char *why, size_t why_len)
{
    return tut_multi_launch_from(plain_getenv, out, why, why_len);
}

int tut_multi_device_count(char *why, size_t why_len)
{
    const int count = tut_device_count(why, why_len); /* 0 with the reason: no GPU or driver */
    return count > TUT_MULTI_MAX_GPUS ? TUT_MULTI_MAX_GPUS : count;
}

void tut_multi_peer_matrix(int count, int *can)
{
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j) {
            int ok = 1;
            if (i != j)
                CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, i, j));
            can[i * count + j] = ok;
        }
}

int tut_multi_enable_peers(int count, int *can)
{
    int enabled = 0;
    for (int i = 0; i < count; ++i) {
        CUDA_CHECK(cudaSetDevice(i));
        for (int j = 0; j < count; ++j) {
            int ok = 1;
            if (i != j) {
                CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, i, j));
                if (ok) {
                    const cudaError_t err = cudaDeviceEnablePeerAccess(j, 0);
                    if (err == cudaErrorTooManyPeers) { /* past the GPU's peer limit (PCIe
                                                            boxes with more than 8): staged */
                        (void)cudaGetLastError();
                        ok = 0;
                    } else if (err == cudaErrorPeerAccessAlreadyEnabled) {
                        (void)cudaGetLastError();
                    } else {
                        CUDA_CHECK(err);
                    }
                    enabled += ok;
                }
            }
            if (can)
                can[i * count + j] = ok;
        }
    }
    CUDA_CHECK(cudaSetDevice(0));
    return enabled;
}

void tut_multi_disable_peers(int count)
{
    for (int i = 0; i < count; ++i) {
        CUDA_CHECK(cudaSetDevice(i));
        for (int j = 0; j < count; ++j) {
            if (i == j)
                continue;
            const cudaError_t err = cudaDeviceDisablePeerAccess(j);
            if (err == cudaErrorPeerAccessNotEnabled)
                (void)cudaGetLastError();
            else
                CUDA_CHECK(err);
        }
    }
    CUDA_CHECK(cudaSetDevice(0));
}
