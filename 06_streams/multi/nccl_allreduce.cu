/* nccl_allreduce: NCCL's all-reduce and a hand-written ring beside it (docs/06_streams_2.md).
 *
 *   nccl_allreduce                  one process drives every visible GPU (ncclCommInitAll): a
 *                                   dot product split across them, combined by an all-reduce
 *                                   and checked against the CPU; then NCCL's and the ring's
 *                                   all-reduce checked at odd sizes (random floats against a
 *                                   float64 sum, whole numbers exactly, ring == NCCL)
 *   nccl_allreduce --bench          and the bus bandwidth of both from 8 B to --max-bytes
 *                                   (allreduce_busbw.csv in --outdir)
 *   srun -n 4 nccl_allreduce --id-file /shared/id
 *                                   one process per GPU (ncclCommInitRank): rank and size from
 *                                   the launcher's variables (OMPI_COMM_WORLD_*, PMI_*, SLURM_*
 *                                   of a job step), NCCL's unique id passed through the file,
 *                                   which names the launch (NCCL only: the ring needs every GPU
 *                                   in one process). Every rank waits at most --timeout
 *                                   seconds (TUTORIAL_NCCL_TIMEOUT, else 60) for the others,
 *                                   then exits 2 with the cause
 * CUDA_VISIBLE_DEVICES picks the GPUs. NVLink multicast (NVLS) is turned off. Exit 0 right,
 * 1 wrong, 2 bad usage, 77 no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_nccl.h"
#include "collective.h"
#include "id_file.h"
#include "multi_gpu.h"
#include "tutorial.h"

static unsigned long long n_dot = 10000019, max_bytes = 1ull << 30, min_bytes = 8, seed = 2024;
static unsigned long long pieces = 0, min_gpus = 1, timeout_s = 0;
static int bench = 0;
static const char *outdir = NULL, *id_file = NULL;

static const tut_option options[] = {
    {"--n", TUT_OPT_SIZE, &n_dot, "floats in the dot product", 1, 1e10, NULL},
    {"--bench", TUT_OPT_FLAG, &bench, "time NCCL and the ring from --min-bytes to --max-bytes",
     0, 0, NULL},
    {"--min-bytes", TUT_OPT_SIZE, &min_bytes, "smallest all-reduce of the sweep", 4, 4e9, NULL},
    {"--max-bytes", TUT_OPT_SIZE, &max_bytes, "largest all-reduce of the sweep", 4, 4e9, NULL},
    {"--pieces", TUT_OPT_SIZE, &pieces, "the ring's pieces per chunk (0: one per 16 MiB)", 0,
     RING_MAX_PIECES, NULL},
    {"--min-gpus", TUT_OPT_SIZE, &min_gpus, "skip (exit 77) with fewer GPUs (or ranks)", 1,
     TUT_MULTI_MAX_GPUS, NULL},
    {"--seed", TUT_OPT_SIZE, &seed, "inputs", 0, 1e18, NULL},
    {"--id-file", TUT_OPT_STRING, &id_file,
     "one process per GPU: the shared file that carries NCCL's unique id", 0, 0, NULL},
    {"--timeout", TUT_OPT_SIZE, &timeout_s,
     "one process per GPU: seconds to wait for the other ranks, then exit 2 with the cause "
     "(default: TUTORIAL_NCCL_TIMEOUT, else 60)", 1, 86400, NULL},
    {"--outdir", TUT_OPT_STRING, &outdir, "where the CSV goes", 0, 0, NULL},
};

static const char summary[] =
    "nccl_allreduce: a dot product over every GPU combined by NCCL's all-reduce; NCCL's and a "
    "hand-written ring's all-reduce checked and (--bench) timed";

int main(int argc, char **argv)
{
    tut_parse_or_exit(argc, argv, summary, options, TUT_COUNT(options));
    if (min_bytes > max_bytes) {
        fprintf(stderr, "--min-bytes %llu is above --max-bytes %llu\n", min_bytes, max_bytes);
        return 2;
    }
    if (min_bytes % sizeof(float)) { /* the sweep doubles it: whole floats only */
        fprintf(stderr, "--min-bytes %llu is not a multiple of 4 bytes (one float)\n", min_bytes);
        return 2;
    }
    char why_timeout[256];
    const double timeout = tut_id_timeout((double)timeout_s, getenv("TUTORIAL_NCCL_TIMEOUT"),
                                          "TUTORIAL_NCCL_TIMEOUT", 60.0, why_timeout,
                                          sizeof why_timeout);
    if (timeout < 0) {
        fprintf(stderr, "%s\n", why_timeout);
        return 2;
    }
    tut_multi_launch launch;
    char why[512];
    const int launched = tut_multi_launch_from_env(&launch, why, sizeof why);
    if (launched < 0) {
        fprintf(stderr, "the launcher's variables are wrong: %s\n", why);
        return 2;
    }
    if (launched && launch.size > 1 && !id_file) {
        fprintf(stderr, "started by %s as rank %d of %d: give --id-file <a path every rank sees> "
                "for NCCL's unique id\n", launch.launcher, launch.rank, launch.size);
        return 2;
    }
    if (id_file && !launched) {
        fprintf(stderr, "--id-file needs a launcher (srun, mpirun): %s\n", why);
        return 2;
    }
    /* Never NVLink multicast (NVLS): on shared machines it can take the GPUs out of service. */
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    const int visible = tut_multi_device_count(why, sizeof why);
    if (visible == 0) {
        printf("SKIPPED: %s\n", why);
        return TUT_EXIT_SKIP;
    }
    const int gpus = launched && id_file ? launch.size : visible;
    if (gpus < (int)min_gpus) {
        printf("SKIPPED: needs %llu GPUs, this machine shows %d\n", min_gpus, gpus);
        return TUT_EXIT_SKIP;
    }
    if (launched && id_file) { /* a node with more ranks than GPUs: refused before any GPU */
        if (tut_multi_rank_device(&launch, visible, getenv("CUDA_VISIBLE_DEVICES"), why,
                                  sizeof why) < 0) {
            fprintf(stderr, "rank %d: %s\n", launch.rank, why);
            return 2;
        }
    }
    if (!launched || launch.rank == 0)
        tut_select_device(TUT_NEED_NOTHING); /* the GPU the CSV's header names */
    collective_job job = {.n_dot = n_dot, .seed = seed, .min_bytes = min_bytes,
                          .max_bytes = max_bytes, .pieces = (int)pieces, .bench = bench,
                          .outdir = outdir, .timeout_s = timeout};
    if (launched && id_file)
        return collective_run_ranks(&job, &launch, visible, id_file);
    return collective_run_single(&job, visible);
}
