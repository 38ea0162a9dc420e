/* Timing a pipeline with events, and recording its timeline. */
#ifndef STREAMS_TIMING_H
#define STREAMS_TIMING_H

#include "pipeline.h"

/* Median milliseconds of `reps` runs of issue(p), after `warmup` untimed ones. Each run is
 * fork/join: a start event on stream 0 that every other stream waits for, and a stop event on
 * stream 0 after it has waited for every other stream; so the time covers all streams whatever
 * their flags (non-blocking streams do not synchronise with the legacy default stream, so
 * timing them there would stop the clock too early). */
double time_issue(pipeline_issue_fn issue, const pipeline *p, int warmup, int reps);

/* Runs issue(p) once with an event before and after each chunk's stages and writes
 * <outdir>/<name> with one row per chunk and stage: stream, chunk, stage, ready_ms (the stream
 * reached the stage), start_ms, end_ms (relative to the start). Returns the total in ms.
 * The event before a stage fires when its stream gets there (ready_ms), not when the copy
 * engine or the SMs take the stage up; start_ms assumes each engine does one stage at a time:
 * it is the later of ready_ms and the end of the previous stage of the same kind, in the order
 * they ended. p->marks must be NULL. */
double record_timeline(pipeline_issue_fn issue, pipeline *p, const char *outdir,
                       const char *name, const char *label);

#endif
