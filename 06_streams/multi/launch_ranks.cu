/* One process per GPU (collective.h): the rank's GPU, NCCL's unique id through a file, and the
 * communicator formed without blocking, so that every mistake of the launch ends every rank
 * within job->timeout_s, with exit 2 and the cause (docs/06_streams_2_appendix.md, "When a
 * launch fails"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_nccl.h"
#include "collective.h"
#include "id_file.h"
#include "tutorial.h"

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* NCCL's id: rank 0 draws it and writes the file; the others read it. 0, or 2 with the cause. */
static int share_id(ncclUniqueId *id, const tut_id_stamp *mine, int rank, const char *path,
                    double timeout_s)
{
    char why[2048];
    tut_id_stamp found;
    if (rank == 0) {
        NCCL_CHECK(ncclGetUniqueId(id));
        if (tut_id_publish(path, mine, id, sizeof *id, &found, why, sizeof why) == TUT_ID_OK)
            return 0;
        fprintf(stderr, "rank 0: %s\n", why);
        return 2;
    }
    /* with no launcher's name, a file older than this rank (less a minute) is an earlier run's */
    const time_t not_before = time(NULL) - 60;
    if (tut_id_wait(path, mine, not_before, timeout_s, id, sizeof *id, &found, why,
                    sizeof why) == TUT_ID_OK)
        return 0;
    fprintf(stderr, "rank %d: %s\n", rank, why);
    return 2;
}

/* ncclCommInitRankConfig, non-blocking, polled until it forms, fails or the deadline passes.
 * 0, or 2 with the cause (the communicator aborted). */
static int form_communicator(collective_team *t, const ncclUniqueId *id, double deadline,
                             double timeout_s, int visible)
{
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0; /* the call returns at once; ncclCommGetAsyncError says how it goes */
    ncclResult_t state = ncclCommInitRankConfig(&t->comm[0], t->ranks, *id, t->first_rank,
                                                &config);
    while (state == ncclInProgress && seconds_now() < deadline) {
        const struct timespec pause = {.tv_sec = 0, .tv_nsec = 10000000};
        nanosleep(&pause, NULL);
        if (ncclCommGetAsyncError(t->comm[0], &state) != ncclSuccess)
            break;
    }
    if (state == ncclSuccess)
        return 0;
    const char *cuda_visible = getenv("CUDA_VISIBLE_DEVICES");
    if (state == ncclInProgress)
        fprintf(stderr, "rank %d: the communicator of %d ranks did not form within %.0f s: a rank "
                "exited before joining (see its message), was never started, or was given "
                "another --id-file or rank count. Start every rank with one srun or mpirun and "
                "one --id-file on a file system every node sees (--timeout or "
                "TUTORIAL_NCCL_TIMEOUT sets the wait)", t->first_rank, t->ranks, timeout_s);
    else if (state == ncclInvalidUsage)
        fprintf(stderr, "rank %d: NCCL refused to form the communicator (%s: %s): most often "
                "two ranks on one GPU, as when a node runs more ranks than it has GPUs (this "
                "process sees %d: CUDA_VISIBLE_DEVICES=%s). Start one rank per GPU (srun "
                "--gpus-per-task=1 or --ntasks-per-node=<GPUs>; mpirun --map-by ppr:<GPUs>:node)",
                t->first_rank, ncclGetErrorString(state),
                t->comm[0] ? ncclGetLastError(t->comm[0]) : "", visible,
                cuda_visible ? cuda_visible : "(unset)");
    else
        fprintf(stderr, "rank %d: the communicator of %d ranks failed to form (%s: %s): another "
                "rank failed or exited (see its message)", t->first_rank, t->ranks,
                ncclGetErrorString(state), t->comm[0] ? ncclGetLastError(t->comm[0]) : "");
    fprintf(stderr, ". NCCL aborted the communicator.\n");
    if (t->comm[0])
        (void)ncclCommAbort(t->comm[0]);
    t->comm[0] = NULL;
    return 2;
}

int collective_run_ranks(const collective_job *job, const tut_multi_launch *launch, int visible,
                         const char *id_file)
{
    const double deadline = seconds_now() + job->timeout_s; /* the whole launch: id and init */
    char why[1024];
    int version = 0; /* the library loaded, which may be older than the header built against */
    NCCL_CHECK(ncclGetVersion(&version));
    if (version < 21400) {
        printf("SKIPPED: the NCCL library loaded is %d.%d.%d, older than 2.14: no non-blocking "
               "communicator, so a wrong launch could hang\n", version / 10000,
               version / 100 % 100, version % 100);
        return TUT_EXIT_SKIP;
    }
    const int device = tut_multi_rank_device(launch, visible, getenv("CUDA_VISIBLE_DEVICES"),
                                             why, sizeof why);
    if (device < 0) { /* before touching any GPU */
        fprintf(stderr, "rank %d: %s\n", launch->rank, why);
        return 2;
    }
    collective_team t = {.local = 1, .ranks = launch->size, .first_rank = launch->rank,
                         .mode = "ranks", .timeout_s = job->timeout_s};
    t.device[0] = device;
    printf("rank %d of %d (%s, local rank %d): GPU %d of the %d this process sees\n",
           launch->rank, launch->size, launch->launcher, launch->local_rank, t.device[0], visible);
    fflush(stdout);
    tut_id_stamp mine;
    tut_id_stamp_init(&mine, launch->size, launch->token, launch->rank);
    ncclUniqueId id;
    const int shared = share_id(&id, &mine, launch->rank, id_file, job->timeout_s);
    if (shared)
        return shared;
    CUDA_CHECK(cudaSetDevice(t.device[0]));
    CUDA_CHECK(cudaStreamCreateWithFlags(&t.stream[0], cudaStreamNonBlocking));
    const int formed = form_communicator(&t, &id, deadline, job->timeout_s, visible);
    if (launch->rank == 0) /* formed: every rank has the id; failed: a retry needs the path */
        tut_id_remove_own(id_file, &mine, sizeof id);
    if (formed)
        return formed;
    const int code = collective_run_team(&t, job, 0);
    CUDA_CHECK(cudaStreamDestroy(t.stream[0]));
    return code;
}
