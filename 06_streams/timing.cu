#include "timing.h"

#include <stdlib.h>

#include "tutorial.h"

static const char *const stage_names[3] = {"H2D", "kernel", "D2H"};

double time_issue(pipeline_issue_fn issue, const pipeline *p, int warmup, int reps)
{
    cudaEvent_t start, stop;
    cudaEvent_t *done = (cudaEvent_t *)tut_host_alloc(sizeof(cudaEvent_t) * (size_t)p->streams,
                                                      "join events");
    double *ms = (double *)tut_host_alloc(sizeof(double) * (size_t)(reps > 0 ? reps : 1), "times");
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int s = 0; s < p->streams; ++s) /* ordering only: no timestamps needed */
        CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));

    for (int r = -warmup; r < reps; ++r) {
        CUDA_CHECK(cudaEventRecord(start, p->stream[0]));
        for (int s = 1; s < p->streams; ++s)
            CUDA_CHECK(cudaStreamWaitEvent(p->stream[s], start, 0));
        issue(p);
        for (int s = 1; s < p->streams; ++s) {
            CUDA_CHECK(cudaEventRecord(done[s], p->stream[s]));
            CUDA_CHECK(cudaStreamWaitEvent(p->stream[0], done[s], 0));
        }
        CUDA_CHECK(cudaEventRecord(stop, p->stream[0]));
        CUDA_CHECK(cudaEventSynchronize(stop));
        if (r >= 0) {
            float elapsed;
            CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
            ms[r] = elapsed;
        }
    }
    const double median = reps > 0 ? tut_median(ms, reps) : 0.0;
    for (int s = 0; s < p->streams; ++s)
        CUDA_CHECK(cudaEventDestroy(done[s]));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    free(done);
    free(ms);
    return median;
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
