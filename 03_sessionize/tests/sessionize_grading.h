/* What the chapter-03 graders share: events drawn from the seed, a variant run from poisoned
 * buffers, labels compared with the CPU reference. */
#ifndef SESSIONIZE_GRADING_H
#define SESSIONIZE_GRADING_H

#include <stdint.h>

#include "exercise.h"
#include "sessionize_gpu.h"

typedef struct {
    int64_t *user, *ts; /* host, n each, sorted by (user, timestamp) */
    int64_t n, timeout;
    int64_t *want; /* the CPU reference's labels */
} graded_events;

/* Events of `shape` (EVENTS_MIXED or EVENTS_SINGLE_SESSION, sessionize_cpu.h) from the seed,
 * with the timeout given (< 0: drawn), and their reference labels. */
graded_events grading_events(tut_grader *g, int shape, int64_t n, int64_t timeout);
void grading_events_free(graded_events *e);

/* Tests of an input, for the graders to make sure it can reveal the bug a skeleton has. Rows are
 * aligned groups of `row` events (a warp's 32, a tile).
 * grading_crosses_rows: a session that starts after event 0 goes on into a later row (a scan
 * that does not carry across rows gets it wrong).
 * grading_continues_in_row: a session that starts after event 0 goes on within its row (a scan
 * that does not carry within the row gets it wrong). */
typedef int (*grading_input_test)(const graded_events *e, int64_t row);
int grading_crosses_rows(const graded_events *e, int64_t row);
int grading_continues_in_row(const graded_events *e, int64_t row);

/* Mixed events of a size drawn by draw(g), drawn again until test(e, row) holds (at most 50
 * draws); 0 if none did. */
int grading_events_such_that(tut_grader *g, int64_t (*draw)(tut_grader *g),
                             grading_input_test test, int64_t row, graded_events *e);

/* Runs the variant on the events from poisoned labels, scratch and shared memory
 * (tut_grader_poison_shared) and compares every label with the reference: 1 if all match. */
int grading_check_variant(const session_variant *v, const graded_events *e);

/* Device copies of the events, labels and the variant's scratch, for timing. */
typedef struct {
    session_job job;
    int64_t *events; /* user and ts in one allocation, as the chapter's benchmark */
} grading_device_job;
grading_device_job grading_upload(const session_variant *v, const graded_events *e);
void grading_device_free(grading_device_job *d);

/* A device-to-device copy of the 24 bytes per event a single pass moves (12 read + 12 written,
 * as the chapter's benchmark), timed as tut_copy_work (timer.h). */
typedef tut_copy_job grading_copy;
grading_copy grading_copy_alloc(const grading_device_job *d);
void grading_copy_free(grading_copy *c);

typedef struct {
    const session_variant *variant;
    const session_job *job;
} grading_timed;
void grading_run_variant(void *timed); /* a grading_timed */

/* The speed test of a variant: checked at n events first, then timed against the copy of its
 * bytes; the verdict line, 1 if the ratio reaches the bar. */
int grading_speed(tut_grader *g, const session_variant *v, int64_t n, double bar);

#endif
