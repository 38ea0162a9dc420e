/* The variants of the pipeline, and measuring them: a set of configurations is checked, then
 * timed together in interleaved rounds (timing.h), then printed and written to variants.csv.
 *
 *   measurement_set *set = set_create("add", 0);
 *   add_stages(set, ctx);                                    // the bound: each stage alone
 *   int depth = set_add(set, ctx, V_DEPTH, 16, 4);
 *   measure(ctx, set);                                       // check, then time every entry
 *   stage_times st = stages_of(ctx, set);                    // set_ms(set, depth) / st.bound */
#ifndef STREAMS_MEASURE_H
#define STREAMS_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "chunks.h"
#include "csv.h"
#include "pipeline.h"
#include "plan.h"
#include "timing.h"

enum { HOST_PINNED, HOST_REGISTERED, HOST_PAGEABLE };
extern const char *const host_names[3];

/* How a variant cuts the work: by --chunks/--streams, whole on one stream (ours or the legacy
 * default stream), or in two streams (the copy both ways). */
enum { SHAPE_CHUNKED, SHAPE_SERIAL, SHAPE_LEGACY_STREAM, SHAPE_TWO_STREAMS };

typedef struct {
    const char *name;
    pipeline_issue_fn issue;
    int host;
    int shape;
    int bytes_per_element; /* moved per element, for GB/s: 12 for a whole pipeline */
} variant;

/* The order of variants[] (measure.cu). */
enum {
    V_SERIAL, V_DEFAULT, V_DOCUMENT, V_PAGEABLE, V_REGISTERED, V_DEPTH, V_BREADTH, V_SHRINKING,
    V_PIPELINES, /* the pipelines end here: each one's output is checked; --variant picks them */
    V_COPY_IN = V_PIPELINES, V_KERNEL_ALONE, V_COPY_OUT, /* each stage alone: the bound */
    V_PAGEABLE_IN, V_PAGEABLE_OUT, V_BOTH_WAYS,          /* the other ceilings of the link */
    V_COUNT
};
extern const variant variants[]; /* V_COUNT rows */

typedef struct {
    size_t n;
    int32_t *pinned_x, *pinned_y, *pinned_out; /* cudaMallocHost */
    int32_t *page_x, *page_y, *page_out;       /* malloc */
    int32_t *reg_x, *reg_y, *reg_out;          /* malloc + cudaHostRegister; NULL if unused */
    int32_t *want;                             /* the CPU's answer for the current work */
    int32_t *d_x, *d_y, *d_out;
    cudaStream_t stream[STREAMS_MAX_STREAMS];
    int nstreams; /* created */
    pipeline_plan plan;
    rounds_rule rule;
    int ok;
    tut_csv *csv; /* variants.csv */
} context;

/* The pipeline of variant vi with these chunks and streams (variants of another shape ignore
 * them) over ctx's arrays. */
pipeline make_pipeline(context *ctx, int vi, size_t chunks, int streams, unsigned work);

enum { SET_MAX = 64 };

/* Configurations timed together, in the same interleaved rounds. */
typedef struct {
    const char *kernel; /* "add", "mix" or "" (the ceilings) */
    unsigned work;
    int count;
    int variant[SET_MAX];
    timed_config t[SET_MAX];
    int rounds, worst;
} measurement_set;

/* An empty set (free() it). */
measurement_set *set_create(const char *kernel, unsigned work);

/* Adds a configuration (once: an equal one already there is reused); returns its index. */
int set_add(measurement_set *set, context *ctx, int vi, size_t chunks, int streams);

/* The index of a configuration (chunks and streams as make_pipeline made them), or -1. */
int set_find(const measurement_set *set, int vi, size_t chunks, int streams);

/* The median ms of entry i (0 for -1). */
double set_ms(const measurement_set *set, int i);

/* Checks every pipeline's output exactly, then times the whole set in interleaved rounds and
 * says how stable the figures came out. */
void measure(context *ctx, measurement_set *set);

typedef struct {
    double copy_in, kernel, copy_out, bound;
} stage_times;

/* Adds each stage alone to a set; once measured, stages_of gives them and their bound
 * (pipeline_bound, with this GPU's copy engines). */
void add_stages(measurement_set *set, context *ctx);
stage_times stages_of(const context *ctx, const measurement_set *set);

/* One line per entry: median (min-max), rate, ratio to the bound, speedup over serial. */
void print_rows(const context *ctx, const measurement_set *set, const int *rows, int count,
                double bound, double serial_ms);

/* variants.csv: every entry of a kernel's set, once. */
void write_rows(context *ctx, const measurement_set *set, double bound, double serial_ms);

#endif
