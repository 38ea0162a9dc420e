/* The collective work of nccl_allreduce: collective.h says what each entry point does. */
#include "collective.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_nccl.h"
#include "multi_kernels.h"
#include "tutorial.h"

#define GOAL_BYTES ((size_t)256 << 20) /* where the ring's goal (80% of NCCL) is read */
#define BATCH_MS 10.0
#define BATCHES 7

/* ---- The pieces every check and sweep uses ------------------------------------------------ */

typedef struct {
    collective_team *team;
    float *send[TUT_MULTI_MAX_GPUS], *recv[TUT_MULTI_MAX_GPUS], *ring_recv[TUT_MULTI_MAX_GPUS];
    unsigned long long *wrong[TUT_MULTI_MAX_GPUS]; /* device counters */
    ring_allreduce_plan ring;
    int has_ring;
    size_t count; /* of the all-reduce being run */
    int pieces;
} buffers;

static void set_local(const collective_team *t, int l) { CUDA_CHECK(cudaSetDevice(t->device[l])); }

/* ---- Waiting with a deadline: a rank that died must not hang the others -------------------
 * One process per GPU: the communicator is non-blocking (ncclConfig_t.blocking = 0), so an
 * NCCL call may return ncclInProgress, and a collective whose peer died never completes on the
 * GPU. Every wait below polls ncclCommGetAsyncError (and the stream) against t->timeout_s, and
 * ends with ncclCommAbort and exit 2 naming the cause. One process that drives every GPU has
 * blocking communicators and nothing to wait for but its own GPUs. */

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void pause_ms(long ms)
{
    const struct timespec pause = {.tv_sec = 0, .tv_nsec = ms * 1000000L};
    nanosleep(&pause, NULL);
}

/* Ends this rank: the cause, NCCL's last words, every communicator aborted, exit 2. */
static void team_give_up(const collective_team *t, const char *what, ncclResult_t result)
{
    fprintf(stderr, "rank %d: %s", t->first_rank, what);
    if (result != ncclSuccess && result != ncclInProgress)
        fprintf(stderr, " (NCCL: %s; %s)", ncclGetErrorString(result),
                t->comm[0] ? ncclGetLastError(t->comm[0]) : "no communicator");
    fprintf(stderr, ". NCCL aborted the communicator.\n");
    for (int l = 0; l < t->local; ++l)
        if (t->comm[l])
            (void)ncclCommAbort(t->comm[l]);
    exit(2);
}

/* Polls every local communicator until none is in progress: within t->timeout_s, or give up. */
static void team_settle(const collective_team *t, const char *call)
{
    const double deadline = seconds_now() + t->timeout_s;
    for (long polls = 0;; ++polls) {
        ncclResult_t state = ncclSuccess;
        for (int l = 0; l < t->local && state == ncclSuccess; ++l)
            NCCL_CHECK(ncclCommGetAsyncError(t->comm[l], &state));
        if (state == ncclSuccess)
            return;
        char what[512];
        if (state != ncclInProgress) {
            snprintf(what, sizeof what, "%s failed: another rank has failed or exited", call);
            team_give_up(t, what, state);
        }
        if (seconds_now() > deadline) {
            snprintf(what, sizeof what, "%s did not finish within %.0f s: another rank has "
                     "stopped or exited (see its message)", call, t->timeout_s);
            team_give_up(t, what, state);
        }
        if (polls > 10000) /* the sweep times these calls: no sleep while they are quick */
            pause_ms(1);
    }
}

/* An NCCL call of the team: ncclInProgress is waited for (team_settle); an error ends the rank
 * (exit 2 with one process per GPU, where a peer's failure shows up here; exit 1 as NCCL_CHECK
 * with one process). */
static void team_nccl(const collective_team *t, ncclResult_t result, const char *call,
                      const char *file, int line)
{
    if (result == ncclInProgress)
        team_settle(t, call);
    else if (result != ncclSuccess && t->local < t->ranks)
        team_give_up(t, call, result);
    else
        tut_check_nccl(result, call, file, line);
}

#define TEAM_NCCL(t, call) team_nccl((t), (call), #call, __FILE__, __LINE__)

/* Queues NCCL's all-reduce of b->count floats, send -> recv, on every local GPU's stream. */
static void nccl_allreduce_work(void *arg)
{
    buffers *b = (buffers *)arg;
    collective_team *t = b->team;
    TEAM_NCCL(t, ncclGroupStart());
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        TEAM_NCCL(t, ncclAllReduce(b->send[l], b->recv[l], b->count, ncclFloat, ncclSum,
                                   t->comm[l], t->stream[l]));
    }
    TEAM_NCCL(t, ncclGroupEnd());
}

static void ring_allreduce_work(void *arg)
{
    buffers *b = (buffers *)arg;
    ring_allreduce(&b->ring, b->send, b->ring_recv, b->count, b->pieces);
}

static void buffers_create(buffers *b, collective_team *t, size_t max_count, int with_ring)
{
    memset(b, 0, sizeof *b);
    b->team = t;
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        b->send[l] = (float *)tut_device_alloc(max_count * sizeof(float), "send");
        b->recv[l] = (float *)tut_device_alloc(max_count * sizeof(float), "recv");
        if (with_ring)
            b->ring_recv[l] = (float *)tut_device_alloc(max_count * sizeof(float), "ring recv");
        b->wrong[l] = (unsigned long long *)tut_device_alloc(sizeof(unsigned long long), "wrong");
        CUDA_CHECK(cudaMemset(b->wrong[l], 0, sizeof(unsigned long long)));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    b->has_ring = with_ring;
    if (with_ring)
        ring_create(&b->ring, t->local, t->stream, max_count);
}

static void buffers_destroy(buffers *b)
{
    collective_team *t = b->team;
    if (b->has_ring)
        ring_destroy(&b->ring);
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        CUDA_CHECK(cudaDeviceSynchronize());
        tut_device_free(b->send[l]);
        tut_device_free(b->recv[l]);
        if (b->has_ring)
            tut_device_free(b->ring_recv[l]);
        tut_device_free(b->wrong[l]);
    }
}

/* One process per GPU, while waiting for the GPU: a failed peer (NCCL's asynchronous error) or
 * a wait past the deadline ends this rank. Also the timer's watch (multi_set_watch). */
static void team_watch(void *arg, double waited_s)
{
    const collective_team *t = (const collective_team *)arg;
    ncclResult_t state = ncclSuccess;
    for (int l = 0; l < t->local && (state == ncclSuccess || state == ncclInProgress); ++l)
        NCCL_CHECK(ncclCommGetAsyncError(t->comm[l], &state));
    if (state != ncclSuccess && state != ncclInProgress)
        team_give_up(t, "a collective failed: another rank has failed or exited", state);
    if (waited_s > t->timeout_s) {
        char what[256];
        snprintf(what, sizeof what, "a collective did not finish within %.0f s: another rank has "
                 "stopped or exited (see its message)", t->timeout_s);
        team_give_up(t, what, state);
    }
}

/* Waits for every local stream; one process per GPU, polled with team_watch. */
static void sync_team(const collective_team *t)
{
    const double t0 = seconds_now();
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        if (t->local == t->ranks) {
            CUDA_CHECK(cudaStreamSynchronize(t->stream[l]));
            continue;
        }
        cudaError_t done;
        while ((done = cudaStreamQuery(t->stream[l])) == cudaErrorNotReady) {
            team_watch((void *)t, seconds_now() - t0);
            pause_ms(1);
        }
        CUDA_CHECK(done);
    }
}

/* The sum over the communicator of one value per local GPU (ncclSum or ncclMax), on the host. */
static double team_reduce(const collective_team *t, const double *mine, ncclRedOp_t op)
{
    double *d[TUT_MULTI_MAX_GPUS], out = 0.0;
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        d[l] = (double *)tut_device_alloc(sizeof(double), "reduce");
        /* on the stream the all-reduce runs on (a plain cudaMemcpy from pageable memory may
         * return before its data lands, and the legacy stream does not order ours) */
        CUDA_CHECK(cudaMemcpyAsync(d[l], &mine[l], sizeof(double), cudaMemcpyHostToDevice,
                                   t->stream[l]));
    }
    TEAM_NCCL(t, ncclGroupStart());
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        TEAM_NCCL(t, ncclAllReduce(d[l], d[l], 1, ncclDouble, op, t->comm[l], t->stream[l]));
    }
    TEAM_NCCL(t, ncclGroupEnd());
    sync_team(t);
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        CUDA_CHECK(cudaMemcpy(&out, d[l], sizeof(double), cudaMemcpyDeviceToHost));
        tut_device_free(d[l]);
    }
    return out;
}

/* ---- 1. The dot product: each GPU its slice, one all-reduce of the partial sums ----------- */

static int dot_product(const collective_team *t, const collective_job *job)
{
    const size_t n = job->n_dot;
    float *x = (float *)tut_host_alloc(n * sizeof(float), "x");
    float *y = (float *)tut_host_alloc(n * sizeof(float), "y");
    tut_rng rng;
    tut_rng_seed(&rng, job->seed);
    tut_rng_fill_f32(&rng, x, n, -1.0f, 1.0f);
    tut_rng_fill_f32(&rng, y, n, -1.0f, 1.0f);
    double *d_sum[TUT_MULTI_MAX_GPUS], *d_partials[TUT_MULTI_MAX_GPUS], got[TUT_MULTI_MAX_GPUS];
    float *d_x[TUT_MULTI_MAX_GPUS], *d_y[TUT_MULTI_MAX_GPUS];
    for (int l = 0; l < t->local; ++l) { /* rank r: elements [first, first + count) */
        const int r = t->first_rank + l;
        const size_t first = tut_multi_split_offset(n, t->ranks, r);
        const size_t count = tut_multi_split_count(n, t->ranks, r);
        set_local(t, l);
        d_x[l] = (float *)tut_device_alloc((count + 1) * sizeof(float), "x slice");
        d_y[l] = (float *)tut_device_alloc((count + 1) * sizeof(float), "y slice");
        d_sum[l] = (double *)tut_device_alloc(sizeof(double), "sum");
        d_partials[l] = (double *)tut_device_alloc(multi_dot_blocks() * sizeof(double), "partials");
        CUDA_CHECK(cudaMemcpyAsync(d_x[l], x + first, count * sizeof(float),
                                   cudaMemcpyHostToDevice, t->stream[l]));
        CUDA_CHECK(cudaMemcpyAsync(d_y[l], y + first, count * sizeof(float),
                                   cudaMemcpyHostToDevice, t->stream[l]));
        multi_dot(d_x[l], d_y[l], count, d_partials[l], d_sum[l], t->stream[l]);
    }
    TEAM_NCCL(t, ncclGroupStart()); /* one call per GPU, issued together: none waits alone */
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        TEAM_NCCL(t, ncclAllReduce(d_sum[l], d_sum[l], 1, ncclDouble, ncclSum, t->comm[l],
                                   t->stream[l]));
    }
    TEAM_NCCL(t, ncclGroupEnd());
    /* Waited for first (polled, one process per GPU): a copy to pageable memory such as got[]
     * returns only once it is done, so issued behind an all-reduce whose peer died it would
     * block this rank for ever, deadline or not. */
    sync_team(t);
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        CUDA_CHECK(cudaMemcpy(&got[l], d_sum[l], sizeof(double), cudaMemcpyDeviceToHost));
    }
    double cpu = 0.0, cpu_abs = 0.0;
    for (size_t i = 0; i < n; ++i) {
        cpu += (double)x[i] * y[i];
        cpu_abs += fabs((double)x[i] * y[i]);
    }
    int wrong = 0;
    for (int l = 0; l < t->local; ++l) {
        wrong += !(fabs(got[l] - cpu) <= 1e-10 * cpu_abs) || got[l] != got[0];
        set_local(t, l);
        tut_device_free(d_x[l]);
        tut_device_free(d_y[l]);
        tut_device_free(d_sum[l]);
        tut_device_free(d_partials[l]);
    }
    if (t->first_rank == 0)
        printf("dot product of %zu floats over %d rank%s: %.12g (CPU %.12g): %s\n", n, t->ranks,
               t->ranks == 1 ? "" : "s", got[0], cpu, wrong ? "WRONG" : "right on every GPU");
    free(x);
    free(y);
    return wrong;
}

/* ---- 2. The all-reduce checked: random floats, whole numbers, the ring beside NCCL -------- */

static unsigned long long read_wrong(buffers *b, int l)
{
    unsigned long long wrong = 0;
    set_local(b->team, l);
    CUDA_CHECK(cudaMemcpy(&wrong, b->wrong[l], sizeof wrong, cudaMemcpyDeviceToHost));
    /* on the stream the next check runs on: the legacy stream would not order them */
    CUDA_CHECK(cudaMemsetAsync(b->wrong[l], 0, sizeof wrong, b->team->stream[l]));
    return wrong;
}

static void poison(buffers *b, float *const *out)
{
    for (int l = 0; l < b->team->local; ++l) {
        set_local(b->team, l);
        CUDA_CHECK(cudaMemsetAsync(out[l], 0xFF, b->count * sizeof(float), b->team->stream[l]));
    }
}

/* Whole numbers (exact in any order): every GPU's result against the sum, and the ring's
 * against NCCL's bit for bit. Returns the number of wrong elements. */
static unsigned long long check_whole(buffers *b, unsigned long long seed, int ring_too)
{
    const collective_team *t = b->team;
    unsigned long long wrong = 0;
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        multi_check_whole_sum(b->recv[l], b->count, seed, t->ranks, b->wrong[l], t->stream[l]);
        if (ring_too) {
            multi_check_whole_sum(b->ring_recv[l], b->count, seed, t->ranks, b->wrong[l],
                                  t->stream[l]);
            multi_count_different(b->ring_recv[l], b->recv[l], b->count, b->wrong[l],
                                  t->stream[l]);
        }
    }
    sync_team(t);
    for (int l = 0; l < t->local; ++l)
        wrong += read_wrong(b, l);
    return wrong;
}

static void fill_whole(buffers *b, unsigned long long seed)
{
    const collective_team *t = b->team;
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        multi_fill_whole(b->send[l], b->count, seed, t->first_rank + l, t->stream[l]);
    }
}

/* Random floats: every result within (ranks - 1) float roundings of the float64 sum. */
static unsigned long long check_random(buffers *b, unsigned long long seed, int ring_too)
{
    const collective_team *t = b->team;
    const size_t n = b->count;
    float *all = (float *)tut_host_alloc((size_t)t->ranks * n * sizeof(float), "inputs");
    float *got = (float *)tut_host_alloc(n * sizeof(float), "result");
    for (int r = 0; r < t->ranks; ++r) { /* every process draws every rank's input */
        tut_rng rng;
        tut_rng_seed(&rng, seed * 1000003ull + (unsigned long long)r);
        tut_rng_fill_f32(&rng, all + (size_t)r * n, n, -1.0f, 1.0f);
    }
    for (int l = 0; l < t->local; ++l) {
        set_local(t, l);
        CUDA_CHECK(cudaMemcpyAsync(b->send[l], all + (size_t)(t->first_rank + l) * n,
                                   n * sizeof(float), cudaMemcpyHostToDevice, t->stream[l]));
    }
    poison(b, b->recv);
    nccl_allreduce_work(b);
    if (ring_too) {
        poison(b, b->ring_recv);
        ring_allreduce_work(b);
    }
    sync_team(t);
    unsigned long long wrong = 0;
    for (int l = 0; l < t->local; ++l)
        for (int which = 0; which <= ring_too; ++which) {
            set_local(t, l);
            CUDA_CHECK(cudaMemcpy(got, which ? b->ring_recv[l] : b->recv[l], n * sizeof(float),
                                  cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; ++i) {
                double sum = 0.0, sum_abs = 0.0;
                for (int r = 0; r < t->ranks; ++r) {
                    sum += all[(size_t)r * n + i];
                    sum_abs += fabs(all[(size_t)r * n + i]);
                }
                const double tol = (t->ranks - 1) * FLT_EPSILON * sum_abs;
                if (!(fabs(got[i] - sum) <= tol)) {
                    if (wrong < 3)
                        printf("  %s on rank %d: element %zu is %.9g, expected %.9g\n",
                               which ? "ring" : "NCCL", t->first_rank + l, i, got[i], sum);
                    wrong++;
                }
            }
        }
    free(all);
    free(got);
    return wrong;
}

static int check_allreduce(buffers *b, const collective_job *job)
{
    const collective_team *t = b->team;
    const size_t counts[] = {1, 2, 3, 5, (size_t)t->ranks + 1, 4099, 65537, 1000003};
    unsigned long long wrong = 0;
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        b->count = counts[k];
        b->pieces = k % 2 ? 3 : 0; /* pieces that do not divide the chunks, and the default */
        const unsigned long long random_wrong = check_random(b, job->seed + k, b->has_ring);
        fill_whole(b, job->seed + k);
        poison(b, b->recv);
        nccl_allreduce_work(b);
        if (b->has_ring) {
            poison(b, b->ring_recv);
            ring_allreduce_work(b);
        }
        const unsigned long long whole_wrong = check_whole(b, job->seed + k, b->has_ring);
        wrong += random_wrong + whole_wrong;
        if (t->first_rank == 0)
            printf("all-reduce of %zu floats: NCCL%s: random %s, whole numbers %s\n", b->count,
                   b->has_ring ? " and ring" : "", random_wrong ? "WRONG" : "right",
                   whole_wrong ? "WRONG" : b->has_ring ? "exact, ring == NCCL" : "exact");
    }
    return wrong != 0;
}

/* ---- 3. The sweep: bus bandwidth from min_bytes to max_bytes ------------------------------ */

typedef struct {
    tut_timing time;
    double busbw;
} measured;

static measured measure(buffers *b, multi_work_fn work)
{
    collective_team *t = b->team;
    int calls = multi_calls_for(work, b, t->stream, t->device, t->local, BATCH_MS);
    if (t->local < t->ranks) { /* every rank must make the same number of collective calls */
        double v[1] = {(double)calls};
        calls = (int)team_reduce(t, v, ncclMax);
    }
    measured m = {.time = multi_time(work, b, t->stream, t->device, t->local, calls > 2 ? calls : 2,
                                     BATCHES, calls)};
    if (t->local < t->ranks) { /* one process per GPU: the slowest rank's times */
        double v[1] = {m.time.median_ms};
        m.time.median_ms = team_reduce(t, v, ncclMax);
        v[0] = m.time.min_ms;
        m.time.min_ms = team_reduce(t, v, ncclMax);
        v[0] = m.time.max_ms;
        m.time.max_ms = team_reduce(t, v, ncclMax);
    }
    m.busbw = tut_multi_allreduce_busbw_gbps(b->count * sizeof(float), m.time.median_ms * 1e-3,
                                             t->ranks);
    return m;
}

static int sweep(buffers *b, const collective_job *job)
{
    const collective_team *t = b->team;
    const int rank0 = t->first_rank == 0;
    tut_csv *csv = tut_csv_open(rank0 ? job->outdir : NULL, "allreduce_busbw.csv",
                                "mode,gpus,impl,bytes,count,ms,ms_min,ms_max,algbw_GBps,"
                                "busbw_GBps,nccl_over_impl,checked");
    tut_csv_comment(csv, "all-reduce, float sum, out of place; busbw = algbw * 2(n-1)/n "
                         "(nccl-tests); NCCL_NVLS_ENABLE=0; ring pieces %d (0: one per 16 MiB)",
                    job->pieces);
    if (rank0)
        printf("\n%12s %12s %12s %12s %8s  (bus bandwidth, GB/s; %d rank%s)\n", "bytes",
               "NCCL", "ring", "ring/NCCL", "checked", t->ranks, t->ranks == 1 ? "" : "s");
    unsigned long long wrong = 0;
    double goal_ratio = -1.0;
    for (size_t bytes = job->min_bytes; bytes <= job->max_bytes; bytes *= 2) {
        b->count = bytes / sizeof(float);
        b->pieces = job->pieces;
        fill_whole(b, job->seed);
        poison(b, b->recv);
        const measured nccl = measure(b, nccl_allreduce_work);
        measured ring = {.busbw = 0.0};
        if (b->has_ring) {
            poison(b, b->ring_recv);
            ring = measure(b, ring_allreduce_work);
        }
        const unsigned long long w = check_whole(b, job->seed, b->has_ring);
        wrong += w;
        const double ratio = b->has_ring ? nccl.time.median_ms / ring.time.median_ms : 0.0;
        if (bytes == GOAL_BYTES && b->has_ring)
            goal_ratio = ratio;
        for (int which = 0; which <= b->has_ring; ++which) {
            const measured *m = which ? &ring : &nccl;
            tut_csv_row(csv, "%s,%d,%s,%zu,%zu,%.5f,%.5f,%.5f,%.3f,%.3f,%.4f,%s", t->mode,
                        t->ranks, which ? "ring" : "nccl", bytes, b->count, m->time.median_ms,
                        m->time.min_ms, m->time.max_ms,
                        tut_multi_algbw_gbps(bytes, m->time.median_ms * 1e-3), m->busbw,
                        which ? ratio : 1.0, w ? "WRONG" : "exact");
        }
        if (rank0 && b->has_ring)
            printf("%12zu %12.2f %12.2f %11.0f%% %8s\n", bytes, nccl.busbw, ring.busbw,
                   100.0 * ratio, w ? "WRONG" : "exact");
        else if (rank0)
            printf("%12zu %12.2f %12s %12s %8s\n", bytes, nccl.busbw, "-", "-",
                   w ? "WRONG" : "exact");
    }
    tut_csv_close(csv);
    if (rank0 && goal_ratio >= 0)
        printf("at %zu MiB the ring reaches %.0f%% of NCCL's bus bandwidth (goal: 80%%)\n",
               GOAL_BYTES >> 20, 100.0 * goal_ratio);
    return wrong != 0;
}

/* ---- The team's work, and one process for every GPU ---------------------------------------------------------------- */

int collective_run_team(collective_team *t, const collective_job *job, int with_ring)
{
    int version = 0;
    NCCL_CHECK(ncclGetVersion(&version));
    if (t->first_rank == 0)
        printf("NCCL %d.%d.%d (library), %d rank%s, %s; NCCL_NVLS_ENABLE=%s\n", version / 10000,
               version / 100 % 100, version % 100, t->ranks, t->ranks == 1 ? "" : "s",
               t->local == t->ranks ? "one process drives them all" : "one process per GPU",
               getenv("NCCL_NVLS_ENABLE"));
    if (t->local < t->ranks) /* the sweep's timer waits the same way */
        multi_set_watch(team_watch, t);
    int wrong = dot_product(t, job);
    buffers b;
    const size_t check_max = 1000003, bench_max = job->bench ? job->max_bytes / sizeof(float) : 0;
    buffers_create(&b, t, check_max > bench_max ? check_max : bench_max, with_ring);
    wrong += check_allreduce(&b, job);
    if (job->bench)
        wrong += sweep(&b, job);
    buffers_destroy(&b);
    double mine[TUT_MULTI_MAX_GPUS]; /* every rank learns whether any was wrong */
    for (int l = 0; l < t->local; ++l)
        mine[l] = l == 0 ? wrong : 0;
    const int any = team_reduce(t, mine, ncclSum) != 0.0;
    for (int l = 0; l < t->local; ++l) {
        if (t->local < t->ranks) /* non-blocking: finish its work (bounded), then free it */
            TEAM_NCCL(t, ncclCommFinalize(t->comm[l]));
        NCCL_CHECK(ncclCommDestroy(t->comm[l]));
    }
    multi_set_watch(NULL, NULL);
    if (t->first_rank == 0)
        printf("%s\n", any ? "FAIL" : "PASS");
    return any ? 1 : 0;
}

int collective_run_single(const collective_job *job, int visible)
{
    collective_team t = {.local = visible, .ranks = visible, .first_rank = 0, .mode = "single"};
    int can[TUT_MULTI_MAX_GPUS * TUT_MULTI_MAX_GPUS];
    const int pairs = tut_multi_enable_peers(visible, can);
    printf("%d GPU%s visible; peer access on for %d of %d ordered pairs\n", visible,
           visible == 1 ? "" : "s", pairs, visible * (visible - 1));
    for (int g = 0; g < visible; ++g) {
        t.device[g] = g;
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaStreamCreateWithFlags(&t.stream[g], cudaStreamNonBlocking));
    }
    NCCL_CHECK(ncclCommInitAll(t.comm, visible, t.device));
    const int code = collective_run_team(&t, job, 1);
    for (int g = 0; g < visible; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaStreamDestroy(t.stream[g]));
    }
    return code;
}

