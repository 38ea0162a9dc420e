#include "timing.h"

#include <math.h>
#include <stdlib.h>

#include "chunks.h"
#include "tutorial.h"

static const char *const stage_names[3] = {"H2D", "kernel", "D2H"};

/* Events for fork/join runs: `fork` on stream 0 starts every other stream, done[s] joins
 * stream s back into stream 0. */
typedef struct {
    cudaEvent_t start, stop, fork;
    cudaEvent_t done[STREAMS_MAX_STREAMS];
} run_events;

static void create_events(run_events *e)
{
    CUDA_CHECK(cudaEventCreate(&e->start));
    CUDA_CHECK(cudaEventCreate(&e->stop));
    CUDA_CHECK(cudaEventCreateWithFlags(&e->fork, cudaEventDisableTiming));
    for (int s = 0; s < STREAMS_MAX_STREAMS; ++s) /* ordering only: no timestamps needed */
        CUDA_CHECK(cudaEventCreateWithFlags(&e->done[s], cudaEventDisableTiming));
}

static void destroy_events(run_events *e)
{
    CUDA_CHECK(cudaEventDestroy(e->start));
    CUDA_CHECK(cudaEventDestroy(e->stop));
    CUDA_CHECK(cudaEventDestroy(e->fork));
    for (int s = 0; s < STREAMS_MAX_STREAMS; ++s)
        CUDA_CHECK(cudaEventDestroy(e->done[s]));
}

/* Queues one run of issue(p) that starts after everything before it in stream 0 and ends, in
 * stream 0, after every stream has finished its part. */
static void run_forked(pipeline_issue_fn issue, const pipeline *p, run_events *e)
{
    CUDA_CHECK(cudaEventRecord(e->fork, p->stream[0]));
    for (int s = 1; s < p->streams; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(p->stream[s], e->fork, 0));
    issue(p);
    for (int s = 1; s < p->streams; ++s) {
        CUDA_CHECK(cudaEventRecord(e->done[s], p->stream[s]));
        CUDA_CHECK(cudaStreamWaitEvent(p->stream[0], e->done[s], 0));
    }
}

/* Milliseconds per run of `batch` runs back to back between one pair of events. */
static double time_batch(pipeline_issue_fn issue, const pipeline *p, int batch, run_events *e)
{
    CUDA_CHECK(cudaEventRecord(e->start, p->stream[0]));
    for (int b = 0; b < batch; ++b)
        run_forked(issue, p, e);
    CUDA_CHECK(cudaEventRecord(e->stop, p->stream[0]));
    CUDA_CHECK(cudaEventSynchronize(e->stop));
    float elapsed;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, e->start, e->stop));
    return elapsed / batch;
}

double time_issue(pipeline_issue_fn issue, const pipeline *p, int warmup, int reps)
{
    run_events e;
    create_events(&e);
    for (int r = 0; r < warmup; ++r)
        run_forked(issue, p, &e);
    double *ms = (double *)tut_host_alloc(sizeof(double) * (size_t)(reps > 0 ? reps : 1), "times");
    for (int r = 0; r < reps; ++r)
        ms[r] = time_batch(issue, p, 1, &e);
    CUDA_CHECK(cudaDeviceSynchronize());
    const double median = reps > 0 ? tut_median(ms, reps) : 0.0;
    destroy_events(&e);
    free(ms);
    return median;
}

int time_rounds(timed_config *configs, int count, const rounds_rule *rule, int *worst)
{
    const int max_rounds = rule->max_rounds > 1 ? rule->max_rounds : 1;
    run_events e;
    create_events(&e);
    /* Warm-up, and each configuration's batch: enough runs to last batch_ms. */
    for (int i = 0; i < count; ++i) {
        run_forked(configs[i].issue, &configs[i].p, &e);
        const double once = time_batch(configs[i].issue, &configs[i].p, 1, &e);
        int batch = once > 0 ? (int)ceil(rule->batch_ms / once) : 1;
        configs[i].batch = batch < 1 ? 1 : batch > 100 ? 100 : batch;
    }
    double *samples = (double *)tut_host_alloc(
        tut_bytes((size_t)count * (size_t)max_rounds, sizeof(double), "samples"), "samples");
    round_stats *stats = (round_stats *)tut_host_alloc(sizeof(round_stats) * (size_t)count,
                                                       "round statistics");
    int *order = (int *)tut_host_alloc(sizeof(int) * (size_t)count, "order");
    tut_rng rng;
    tut_rng_seed(&rng, rule->seed);
    int rounds = 0;
    do {
        shuffled_order(order, count, &rng);
        for (int k = 0; k < count; ++k) {
            timed_config *c = &configs[order[k]];
            samples[(size_t)order[k] * (size_t)max_rounds + (size_t)rounds] =
                time_batch(c->issue, &c->p, c->batch, &e);
        }
        ++rounds;
        for (int i = 0; i < count; ++i)
            stats[i] = round_stats_of(&samples[(size_t)i * (size_t)max_rounds], rounds);
    } while (!rounds_done(stats, count, rounds, rule->min_rounds, max_rounds,
                          rule->tolerance_pct, worst));
    for (int i = 0; i < count; ++i)
        configs[i].stats = stats[i];
    CUDA_CHECK(cudaDeviceSynchronize());
    destroy_events(&e);
    free(samples);
    free(stats);
    free(order);
    return rounds;
}

typedef struct {
    size_t chunk;
    double ready, start, end;
} stage_box;

static int by_end(const void *a, const void *b)
{
    const double ea = ((const stage_box *)a)->end, eb = ((const stage_box *)b)->end;
    return (ea > eb) - (ea < eb);
}

double record_timeline(pipeline_issue_fn issue, pipeline *p, const char *outdir,
                       const char *name, const char *label)
{
    const size_t nmarks = p->chunks * MARKS_PER_CHUNK;
    cudaEvent_t *marks = (cudaEvent_t *)tut_host_alloc(sizeof(cudaEvent_t) * nmarks, "marks");
    for (size_t i = 0; i < nmarks; ++i)
        CUDA_CHECK(cudaEventCreate(&marks[i]));

    /* One warm run without marks, then the recorded one, forked from a start event. */
    time_issue(issue, p, 1, 0);
    cudaEvent_t start;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventRecord(start, p->stream[0]));
    for (int s = 1; s < p->streams; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(p->stream[s], start, 0));
    p->marks = marks;
    issue(p);
    p->marks = NULL;
    CUDA_CHECK(cudaDeviceSynchronize());

    stage_box *boxes = (stage_box *)tut_host_alloc(sizeof(stage_box) * p->chunks, "boxes");
    tut_csv *csv = tut_csv_open(outdir, name, "stream,chunk,stage,stage_name,ready_ms,start_ms,end_ms");
    tut_csv_comment(csv, "%s", label);
    double total = 0.0;
    for (int stage = 0; stage < 3; ++stage) {
        for (size_t c = 0; c < p->chunks; ++c) {
            float before, after;
            const cudaEvent_t *m = &marks[c * MARKS_PER_CHUNK + 2 * (size_t)stage];
            CUDA_CHECK(cudaEventElapsedTime(&before, start, m[0]));
            CUDA_CHECK(cudaEventElapsedTime(&after, start, m[1]));
            boxes[c].chunk = c;
            boxes[c].ready = before;
            boxes[c].end = after;
        }
        qsort(boxes, p->chunks, sizeof *boxes, by_end);
        double engine_free = 0.0;
        for (size_t i = 0; i < p->chunks; ++i) {
            boxes[i].start = boxes[i].ready > engine_free ? boxes[i].ready : engine_free;
            if (boxes[i].start > boxes[i].end)
                boxes[i].start = boxes[i].end;
            engine_free = boxes[i].end;
            if (boxes[i].end > total)
                total = boxes[i].end;
            tut_csv_row(csv, "%zu,%zu,%d,%s,%.4f,%.4f,%.4f",
                        boxes[i].chunk % (size_t)p->streams, boxes[i].chunk, stage,
                        stage_names[stage], boxes[i].ready, boxes[i].start, boxes[i].end);
        }
    }
    tut_csv_close(csv);

    CUDA_CHECK(cudaEventDestroy(start));
    for (size_t i = 0; i < nmarks; ++i)
        CUDA_CHECK(cudaEventDestroy(marks[i]));
    free(marks);
    free(boxes);
    return total;
}
