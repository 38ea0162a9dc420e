/* The chapter-03 graders' common parts: see sessionize_grading.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

graded_events grading_events(tut_grader *g, int shape, int64_t n, int64_t timeout)
{
    graded_events e;
    const size_t bytes = tut_bytes((size_t)n, sizeof(int64_t), "events");
    e.n = n;
    e.timeout = timeout >= 0 ? timeout : (int64_t)tut_grader_size(g, 1, 7200);
    e.user = (int64_t *)tut_host_alloc(bytes, "user ids");
    e.ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
    e.want = (int64_t *)tut_host_alloc(bytes, "reference labels");
    generate_events(tut_rng_next(&g->rng), shape, e.timeout, (size_t)n, e.user, e.ts);
    sessionize_cpu(e.user, e.ts, (size_t)n, e.timeout, e.want);
    return e;
}

void grading_events_free(graded_events *e)
{
    free(e->user);
    free(e->ts);
    free(e->want);
}

int grading_crosses_rows(const graded_events *e, int64_t row)
{
    for (int64_t i = 0; i < e->n; ++i)
        if (e->want[i] > 0 && e->want[i] / row < i / row)
            return 1;
    return 0;
}

int grading_continues_in_row(const graded_events *e, int64_t row)
{
    for (int64_t i = 0; i < e->n; ++i)
        if (e->want[i] > 0 && e->want[i] < i && e->want[i] / row == i / row)
            return 1;
    return 0;
}

int grading_events_such_that(tut_grader *g, int64_t (*draw)(tut_grader *g),
                             grading_input_test test, int64_t row, graded_events *e)
{
    for (int attempt = 0; attempt < 50; ++attempt) {
        *e = grading_events(g, EVENTS_MIXED, draw(g), -1);
        if (test(e, row))
            return 1;
        grading_events_free(e);
    }
    printf("no input drawn from this seed has the session the test needs (rows of %" PRId64
           " events)\n", row);
    return 0;
}

grading_device_job grading_upload(const session_variant *v, const graded_events *e)
{
    const size_t bytes = tut_bytes((size_t)e->n, sizeof(int64_t), "events");
    grading_device_job d;
    d.events = (int64_t *)tut_device_alloc(2 * bytes, "events");
    d.job.user = d.events;
    d.job.ts = d.events + e->n;
    d.job.n = e->n;
    d.job.timeout = e->timeout;
    d.job.label = (int64_t *)tut_device_alloc(bytes, "labels");
    const size_t temp_bytes = v->temp_bytes(e->n);
    d.job.temp = temp_bytes ? tut_device_alloc(temp_bytes, "scratch") : NULL;
    CUDA_CHECK(cudaMemcpy(d.events, e->user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d.events + e->n, e->ts, bytes, cudaMemcpyHostToDevice));
    return d;
}

void grading_device_free(grading_device_job *d)
{
    tut_device_free(d->events);
    tut_device_free(d->job.label);
    if (d->job.temp)
        tut_device_free(d->job.temp);
}

int grading_check_variant(const session_variant *v, const graded_events *e)
{
    printf("%s: %" PRId64 " events, timeout %" PRId64 "\n", v->name, e->n, e->timeout);
    grading_device_job d = grading_upload(v, e);
    const size_t bytes = (size_t)e->n * sizeof(int64_t);
    tut_grader_poison(d.job.label, bytes); /* -1: a label nobody wrote */
    if (d.job.temp)
        tut_grader_poison(d.job.temp, v->temp_bytes(e->n));
    tut_grader_poison_shared(); /* what a kernel reads without writing it first is -1 */
    v->run(&d.job);
    CUDA_CHECK(cudaDeviceSynchronize());
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "labels");
    CUDA_CHECK(cudaMemcpy(got, d.job.label, bytes, cudaMemcpyDeviceToHost));
    const int ok = tut_check_i64(v->name, got, e->want, (size_t)e->n);
    free(got);
    grading_device_free(&d);
    return ok;
}

grading_copy grading_copy_alloc(const grading_device_job *d)
{
    grading_copy c;
    c.bytes = tut_bytes((size_t)d->job.n, 12, "copy");
    c.src = d->events;
    c.dst = tut_device_alloc(c.bytes, "copy destination");
    return c;
}

void grading_copy_free(grading_copy *c) { tut_device_free(c->dst); }

void grading_run_variant(void *timed)
{
    const grading_timed *t = (const grading_timed *)timed;
    t->variant->run(t->job);
}

int grading_speed(tut_grader *g, const session_variant *v, int64_t n, double bar)
{
    graded_events e = grading_events(g, EVENTS_MIXED, n, -1);
    if (!grading_check_variant(v, &e)) {
        grading_events_free(&e);
        return 0;
    }
    grading_device_job d = grading_upload(v, &e);
    grading_copy copy = grading_copy_alloc(&d);
    grading_timed timed = {v, &d.job};
    double variant_ms = 0.0, copy_ms = 0.0;
    tut_grader_time_pair(grading_run_variant, &timed, tut_copy_work, &copy, &variant_ms,
                         &copy_ms);
    /* Both as G events/s: the copy moves the 24 bytes of an event in copy_ms / n. */
    const int ok = tut_grader_speed_verdict(v->name, n / variant_ms * 1e-6,
                                            "copy of 24 bytes per event", n / copy_ms * 1e-6,
                                            "G events/s", bar);
    grading_copy_free(&copy);
    grading_device_free(&d);
    grading_events_free(&e);
    return ok;
}
