/* Helpers of the multi-GPU programs: multi_gpu.h says what each does. */
#include "multi_gpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"

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

int tut_multi_launch_from(tut_multi_getenv_fn get, tut_multi_launch *out, char *why,
                          size_t why_len)
{
    static const struct {
        const char *launcher, *rank, *size, *local;
    } kinds[] = {
        {.launcher = "slurm", .rank = "SLURM_PROCID", .size = "SLURM_NTASKS",
         .local = "SLURM_LOCALID"},
        {.launcher = "openmpi", .rank = "OMPI_COMM_WORLD_RANK", .size = "OMPI_COMM_WORLD_SIZE",
         .local = "OMPI_COMM_WORLD_LOCAL_RANK"},
        {.launcher = "pmi", .rank = "PMI_RANK", .size = "PMI_SIZE", .local = "MPI_LOCALRANKID"},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        const char *rank_text = get(kinds[k].rank);
        if (!rank_text)
            continue;
        const long rank = parse_count(rank_text);
        const long size = parse_count(get(kinds[k].size));
        const long local = parse_count(get(kinds[k].local));
        if (rank < 0 || size < 1 || local < 0) {
            snprintf(why, why_len, "%s=%s but %s=%s and %s=%s: each must be a whole number "
                     "(size at least 1)", kinds[k].rank, rank_text, kinds[k].size,
                     get(kinds[k].size) ? get(kinds[k].size) : "(unset)", kinds[k].local,
                     get(kinds[k].local) ? get(kinds[k].local) : "(unset)");
            return -1;
        }
        if (rank >= size || local > rank || size > TUT_MULTI_MAX_GPUS * 1024) {
            snprintf(why, why_len, "%s=%ld is not below %s=%ld, or the local rank %ld is above "
                     "it", kinds[k].rank, rank, kinds[k].size, size, local);
            return -1;
        }
        *out = (tut_multi_launch){.rank = (int)rank, .size = (int)size, .local_rank = (int)local,
                                  .launcher = kinds[k].launcher};
        return 1;
    }
    snprintf(why, why_len, "no launcher variables (SLURM_PROCID, OMPI_COMM_WORLD_RANK, PMI_RANK)");
    return 0;
}

static const char *plain_getenv(const char *name) { return getenv(name); }

int tut_multi_launch_from_env(tut_multi_launch *out, char *why, size_t why_len)
{
    return tut_multi_launch_from(plain_getenv, out, why, why_len);
}

int tut_multi_device_count(char *why, size_t why_len)
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count < 1) {
        snprintf(why, why_len, "no usable GPU (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "no device");
        (void)cudaGetLastError(); /* leave no error behind for later calls */
        return 0;
    }
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
                    if (err == cudaErrorPeerAccessAlreadyEnabled)
                        (void)cudaGetLastError();
                    else
                        CUDA_CHECK(err);
                    enabled++;
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
