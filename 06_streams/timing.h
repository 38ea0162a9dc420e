/* Timing a pipeline with events, and recording its timeline. */
#ifndef STREAMS_TIMING_H
#define STREAMS_TIMING_H

#include "pipeline.h"
#include "rounds.h"

/* Median milliseconds of `reps` runs of issue(p), after `warmup` untimed ones. Each run is
 * fork/join: a start event on stream 0 that every other stream waits for, and a stop event on
 * stream 0 after it has waited for every other stream; so the time covers all streams whatever
 * their flags (non-blocking streams do not synchronise with the legacy default stream, so
 * timing them there would stop the clock too early). For quick estimates (calibration); the
 * measurements the chapter reports use time_rounds. */
double time_issue(pipeline_issue_fn issue, const pipeline *p, int warmup, int reps);

/* One configuration to be timed, and what the rounds found. */
typedef struct {
    pipeline_issue_fn issue;
    pipeline p;
    int batch;         /* runs per sample (set by time_rounds) */
    round_stats stats; /* ms per run (set by time_rounds) */
} timed_config;

typedef struct {
    int min_rounds, max_rounds;
    double tolerance_pct;    /* the two halves of the rounds must agree this well (rounds.h) */
    double batch_ms;         /* a sample is as many fork/join runs back to back as fill this */
    unsigned long long seed; /* of each round's order */
} rounds_rule;

/* Times every configuration in interleaved rounds (rounds.h): after a warm-up run each, every
 * round times each configuration once, in a new random order; each sample is `batch` fork/join
 * runs between one pair of events, so the microseconds before the first run starts are paid
 * once per sample. Stops once every configuration is stable (from min_rounds on) or at
 * max_rounds. Fills each stats; returns the number of rounds; *worst = the least stable. */
int time_rounds(timed_config *configs, int count, const rounds_rule *rule, int *worst);

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
