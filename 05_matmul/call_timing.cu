/* The driver's timing (call_timing.h): batches of back-to-back calls between events, a variant
 * and its baseline alternating in one window, the SM clock read while each batch runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tutorial.h"
#include "call_timing.h"
#include "gpu_clocks.h"

void run_timed_job(const timed_job *job)
{
    const matmul_args *a = &job->args;
    for (int r0 = 0; r0 < a->M; r0 += MATMUL_MAX_SLAB) {
        for (int c0 = 0; c0 < a->N; c0 += MATMUL_MAX_SLAB) {
            matmul_args slab = *a;
            slab.M = a->M - r0 < MATMUL_MAX_SLAB ? a->M - r0 : MATMUL_MAX_SLAB;
            slab.N = a->N - c0 < MATMUL_MAX_SLAB ? a->N - c0 : MATMUL_MAX_SLAB;
            slab.A = a->A + (size_t)r0 * a->lda;
            slab.B = a->B + c0;
            slab.C = a->C + (size_t)r0 * a->ldc + c0;
            job->v->launch(&slab);
        }
    }
}

static void run_job(void *p) { run_timed_job((const timed_job *)p); }

/* One side of a window: its job, calls per batch, and what its batches measured. */
typedef struct {
    const timed_job *job;
    int calls;
    int n;
    double ms[MATMUL_MAX_BATCHES];        /* per call */
    double mhz[MATMUL_MAX_BATCHES];       /* median clock reading of each batch (0: none) */
    int limited;                          /* batches held down */
} batch_series;

/* How many calls make a batch of about MATMUL_BATCH_MS: one call timed after one untimed (its
 * time includes a launch latency, a few microseconds too many for the shortest calls). */
static int calls_per_batch(const timed_job *job, double *batch_ms)
{
    const double probe_ms = tut_time_gpu(run_job, (void *)job, 1, 1).median_ms;
    double calls = probe_ms > 0.0 ? ceil(MATMUL_BATCH_MS / probe_ms) : MATMUL_MAX_CALLS_PER_BATCH;
    if (calls > MATMUL_MAX_CALLS_PER_BATCH)
        calls = MATMUL_MAX_CALLS_PER_BATCH;
    *batch_ms = probe_ms * calls;
    return (int)calls;
}

static void sleep_ms(double ms)
{
    struct timespec ts = {0, (long)(ms * 1e6)};
    nanosleep(&ts, NULL);
}

/* One batch of s's calls between two events; while it runs, the SM clock is read about every
 * millisecond, the first time before the first look at the batch's end: a batch the host queues
 * more slowly than the GPU runs it may end as its last call is queued, and would have no read.
 * Adds the batch to s (untimed: a warm-up). */
#define CLOCK_READS_PER_BATCH 64
static void run_batch(batch_series *s, cudaEvent_t start, cudaEvent_t stop, int timed)
{
    CUDA_CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < s->calls; ++c)
        run_timed_job(s->job);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    double reads[CLOCK_READS_PER_BATCH];
    int nreads = 0, limited = 0;
    gpu_clock_sample clock;
    for (;;) {
        if (nreads < CLOCK_READS_PER_BATCH && gpu_clocks_read(&clock)) {
            reads[nreads++] = clock.sm_mhz;
            limited |= clock.limited;
        }
        const cudaError_t q = cudaEventQuery(stop);
        if (q == cudaSuccess)
            break;
        if (q != cudaErrorNotReady)
            CUDA_CHECK(q);
        sleep_ms(1.0);
    }
    if (!timed)
        return;
    float elapsed = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    s->ms[s->n] = elapsed / s->calls;
    s->mhz[s->n] = nreads ? tut_median(reads, nreads) : 0.0;
    s->limited += limited;
    s->n++;
}

static call_timing summary_of(batch_series *s)
{
    call_timing t;
    memset(&t, 0, sizeof t);
    t.calls = s->calls;
    t.batches = s->n;
    t.median_ms = tut_median(s->ms, s->n); /* sorts */
    t.min_ms = s->ms[0];
    t.max_ms = s->ms[s->n - 1];
    t.mhz_median = (unsigned)tut_median(s->mhz, s->n);
    t.mhz_min = (unsigned)s->mhz[0];
    t.mhz_max = (unsigned)s->mhz[s->n - 1];
    t.limited_batches = s->limited;
    return t;
}

static call_timing one_call(const timed_job *job)
{
    call_timing t;
    memset(&t, 0, sizeof t);
    const tut_timing one = tut_time_gpu(run_job, (void *)job, 0, 1);
    t.median_ms = t.min_ms = t.max_ms = one.median_ms;
    t.calls = t.batches = 1;
    return t;
}

/* Opened at the first timed window, not before: a run of one call each (the tests) does not
 * need NVML, whose start can take a noticeable fraction of a second. */
static void clocks_open_once(void)
{
    static int opened = 0;
    if (opened)
        return;
    opened = 1;
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    if (gpu_clocks_open(device))
        printf("SM clock read through NVML while each timed batch runs (maximum %u MHz)\n",
               gpu_clocks_max_sm_mhz());
    else
        printf("SM clock: not readable here (no NVML), reported as 0\n");
}

/* The timed window: batches of `first` alone, or of both alternating. */
static void time_window(batch_series *first, batch_series *second, int reps)
{
    clocks_open_once();
    double batch_ms = 0.0, second_ms = 0.0;
    first->calls = calls_per_batch(first->job, &batch_ms);
    if (second) {
        second->calls = calls_per_batch(second->job, &second_ms);
        batch_ms += second_ms;
    }
    int batches = reps;
    if (batch_ms * reps > MATMUL_TIME_BUDGET_MS) {
        batches = (int)(MATMUL_TIME_BUDGET_MS / batch_ms);
        if (batches < MATMUL_MIN_BATCHES)
            batches = MATMUL_MIN_BATCHES;
    }
    if (batches > MATMUL_MAX_BATCHES)
        batches = MATMUL_MAX_BATCHES;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    run_batch(first, start, stop, 0); /* warm-up */
    if (second)
        run_batch(second, start, stop, 0);
    for (int i = 0; i < batches; ++i) {
        /* first-second, second-first, ...: neither side always runs right after the other */
        batch_series *a = second && (i & 1) ? second : first;
        batch_series *b = a == first ? second : first;
        run_batch(a, start, stop, 1);
        if (second)
            run_batch(b, start, stop, 1);
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
}

call_timing time_alone(const timed_job *job, int reps)
{
    if (reps <= 1) /* a test: one call (the check has already run it once) */
        return one_call(job);
    batch_series *s = (batch_series *)tut_host_alloc(sizeof *s, "batch timings");
    memset(s, 0, sizeof *s);
    s->job = job;
    time_window(s, NULL, reps);
    const call_timing t = summary_of(s);
    free(s);
    return t;
}

void time_beside(const timed_job *job, const timed_job *base, int reps, call_timing *job_t,
                 call_timing *base_t)
{
    if (reps <= 1) {
        *base_t = one_call(base);
        *job_t = one_call(job);
        return;
    }
    batch_series *s = (batch_series *)tut_host_alloc(2 * sizeof *s, "batch timings");
    memset(s, 0, 2 * sizeof *s);
    s[0].job = base;
    s[1].job = job;
    time_window(&s[0], &s[1], reps);
    *base_t = summary_of(&s[0]);
    *job_t = summary_of(&s[1]);
    free(s);
}


const char *timing_clock_text(const call_timing *t, char *buf, size_t len)
{
    buf[0] = '\0';
    if (t->mhz_median == 0)
        return buf;
    if (t->mhz_min == t->mhz_max)
        snprintf(buf, len, " SM %u MHz", t->mhz_median);
    else
        snprintf(buf, len, " SM %u-%u MHz", t->mhz_min, t->mhz_max);
    if (t->limited_batches) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, " (held down in %d of %d batches)", t->limited_batches,
                 t->batches);
    }
    return buf;
}

void timing_explain_spread(const char *name, const call_timing *t)
{
    if (t->batches < 2 || !(t->median_ms > 0.0))
        return;
    const double spread = (t->max_ms - t->min_ms) / t->median_ms;
    if (spread <= 0.05)
        return;
    printf("  %s: the batches spread %.0f%% (%.4f-%.4f ms per call); ", name, 100.0 * spread,
           t->min_ms, t->max_ms);
    if (t->mhz_median == 0)
        printf("the SM clock could not be read\n");
    else if (t->limited_batches || t->mhz_max > t->mhz_min * 1.03)
        printf("the SM clock ran %u-%u MHz, held down by the power cap or a slowdown in %d of "
               "%d batches\n", t->mhz_min, t->mhz_max,
               t->limited_batches, t->batches);
    else
        printf("the SM clock held at %u-%u MHz: not the clock\n", t->mhz_min, t->mhz_max);
}
