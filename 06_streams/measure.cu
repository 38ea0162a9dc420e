/* The variants, and measuring a set of them (measure.h). */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

const char *const host_names[3] = {"pinned", "registered", "pageable"};

const variant variants[] = {
    /* The pipelines (--variant chooses among them); each one's output is checked. */
    {"serial", issue_depth_first, HOST_PINNED, SHAPE_SERIAL, 12},
    {"default", issue_depth_first, HOST_PAGEABLE, SHAPE_LEGACY_STREAM, 12},
    {"document", issue_document, HOST_PAGEABLE, SHAPE_CHUNKED, 12},
    {"pageable", issue_depth_first, HOST_PAGEABLE, SHAPE_CHUNKED, 12},
    {"registered", issue_depth_first, HOST_REGISTERED, SHAPE_CHUNKED, 12},
    {"depth", issue_depth_first, HOST_PINNED, SHAPE_CHUNKED, 12},
    {"breadth", issue_breadth_first, HOST_PINNED, SHAPE_CHUNKED, 12},
    {"shrinking", issue_shrinking, HOST_PINNED, SHAPE_CHUNKED, 12}, /* depth, shrinking chunks */
    /* Each stage alone, whole arrays on one stream: the bound. */
    {"copy_in_alone", issue_h2d_only, HOST_PINNED, SHAPE_SERIAL, 8},
    {"kernel_alone", issue_kernel_only, HOST_PINNED, SHAPE_SERIAL, 12},
    {"copy_out_alone", issue_d2h_only, HOST_PINNED, SHAPE_SERIAL, 4},
    /* The other ceilings of the link. */
    {"pageable_copy_in", issue_h2d_only, HOST_PAGEABLE, SHAPE_SERIAL, 8},
    {"pageable_copy_out", issue_d2h_only, HOST_PAGEABLE, SHAPE_SERIAL, 4},
    {"both_ways", issue_both_directions, HOST_PINNED, SHAPE_TWO_STREAMS, 8},
};
/* One row per entry of the enum in measure.h, in its order. */
static_assert(sizeof variants / sizeof variants[0] == V_COUNT, "one row per variant");

pipeline make_pipeline(context *ctx, int vi, size_t chunks, int streams, unsigned work)
{
    /* The legacy default stream by name: plain 0 means the same unless the program is built
     * with --default-stream per-thread (default_stream.cu shows the difference). */
    static cudaStream_t legacy = cudaStreamLegacy;
    const variant *v = &variants[vi];
    pipeline p;
    memset(&p, 0, sizeof p);
    int32_t *const hosts[3][3] = {{ctx->pinned_x, ctx->pinned_y, ctx->pinned_out},
                                  {ctx->reg_x, ctx->reg_y, ctx->reg_out},
                                  {ctx->page_x, ctx->page_y, ctx->page_out}};
    p.h_x = hosts[v->host][0];
    p.h_y = hosts[v->host][1];
    p.h_out = hosts[v->host][2];
    p.d_x = ctx->d_x;
    p.d_y = ctx->d_y;
    p.d_out = ctx->d_out;
    p.n = ctx->n;
    p.chunks = v->shape == SHAPE_CHUNKED ? chunks : v->shape == SHAPE_TWO_STREAMS ? 2 : 1;
    p.streams = v->shape == SHAPE_CHUNKED ? streams : v->shape == SHAPE_TWO_STREAMS ? 2 : 1;
    p.stream = v->shape == SHAPE_LEGACY_STREAM ? &legacy : ctx->stream;
    p.work = work;
    return p;
}

measurement_set *set_create(const char *kernel, unsigned work)
{
    measurement_set *set = (measurement_set *)tut_host_alloc(sizeof *set, "measurements");
    memset(set, 0, sizeof *set);
    set->kernel = kernel;
    set->work = work;
    return set;
}

int set_add(measurement_set *set, context *ctx, int vi, size_t chunks, int streams)
{
    const pipeline p = make_pipeline(ctx, vi, chunks, streams, set->work);
    for (int i = 0; i < set->count; ++i)
        if (set->variant[i] == vi && set->t[i].p.chunks == p.chunks &&
            set->t[i].p.streams == p.streams)
            return i;
    if (set->count == SET_MAX) {
        fprintf(stderr, "error: more than %d configurations in one measurement\n", SET_MAX);
        exit(1);
    }
    const int i = set->count++;
    set->variant[i] = vi;
    memset(&set->t[i], 0, sizeof set->t[i]);
    set->t[i].issue = variants[vi].issue;
    set->t[i].p = p;
    return i;
}

int set_find(const measurement_set *set, int vi, size_t chunks, int streams)
{
    for (int i = 0; i < set->count; ++i)
        if (set->variant[i] == vi && set->t[i].p.chunks == chunks &&
            set->t[i].p.streams == streams)
            return i;
    return -1;
}

double set_ms(const measurement_set *set, int i)
{
    return i >= 0 ? set->t[i].stats.median : 0.0;
}

static void label_of(const measurement_set *set, int i, char *label, size_t len)
{
    const variant *v = &variants[set->variant[i]];
    snprintf(label, len, "%s%s%s %s chunks %zu streams %d", set->kernel, set->kernel[0] ? " " : "",
             v->name, host_names[v->host], set->t[i].p.chunks, set->t[i].p.streams);
}

/* Poisons both outputs and the device's inputs (a chunk the pipeline fails to copy in must not
 * find the last variant's inputs there), runs a pipeline variant once, and checks its output
 * exactly. */
static void check_output(context *ctx, const measurement_set *set, int i)
{
    const pipeline *p = &set->t[i].p;
    const size_t bytes = ctx->n * sizeof(int32_t);
    memset(p->h_out, 0xA5, bytes);
    CUDA_CHECK(cudaMemset(ctx->d_out, 0xA5, bytes));
    CUDA_CHECK(cudaMemset(ctx->d_x, 0xA5, bytes));
    CUDA_CHECK(cudaMemset(ctx->d_y, 0xA5, bytes));
    /* cudaMemset is asynchronous and on the legacy stream, which our non-blocking streams do
     * not wait for: finish them before the pipeline starts. */
    CUDA_CHECK(cudaDeviceSynchronize());
    set->t[i].issue(p);
    CUDA_CHECK(cudaDeviceSynchronize());
    char label[160];
    label_of(set, i, label, sizeof label);
    ctx->ok &= tut_check_i32(label, p->h_out, ctx->want, ctx->n);
}

/* Checks every pipeline of the set, then times them all in interleaved rounds. */
void measure(context *ctx, measurement_set *set)
{
    for (int i = 0; i < set->count; ++i)
        if (set->variant[i] < V_PIPELINES)
            check_output(ctx, set, i);
    set->rounds = time_rounds(set->t, set->count, &ctx->rule, &set->worst);
    char label[160];
    label_of(set, set->worst, label, sizeof label);
    const double worst = set->t[set->worst].stats.halves_pct;
    printf("  timed in %d interleaved rounds (at least %d, at most %d): %s; least stable: %s, "
           "%.2f%%\n", set->rounds, ctx->rule.min_rounds, ctx->rule.max_rounds,
           worst <= ctx->rule.tolerance_pct ? "stable, the medians of odd and even rounds agree"
                                            : "NOT STABLE within the tolerance",
           label, worst);
    if (worst > ctx->rule.tolerance_pct)
        printf("  note: differences below %.1f%% between these figures are noise\n", worst);
}

static double gbps(const context *ctx, int vi, double ms)
{
    return (double)variants[vi].bytes_per_element * (double)ctx->n / (ms * 1e6);
}

static void print_row(const context *ctx, const measurement_set *set, int i, double bound,
                      double serial_ms)
{
    const variant *v = &variants[set->variant[i]];
    const round_stats *s = &set->t[i].stats;
    printf("  %-14s %-10s chunks %3zu streams %3d  %8.3f ms (%7.3f-%7.3f)  %6.1f GB/s  "
           "%5.2fx bound", v->name, host_names[v->host], set->t[i].p.chunks, set->t[i].p.streams, s->median,
           s->min, s->max, gbps(ctx, set->variant[i], s->median), s->median / bound);
    if (serial_ms > 0 && set->variant[i] < V_PIPELINES)
        printf("  %5.2fx faster than serial", serial_ms / s->median);
    printf("\n");
}

void write_rows(context *ctx, const measurement_set *set, double bound, double serial_ms)
{
    for (int i = 0; i < set->count; ++i) {
        const variant *v = &variants[set->variant[i]];
        const round_stats *s = &set->t[i].stats;
        char speedup[32] = "nan"; /* a stage alone, or no serial run to compare with */
        if (serial_ms > 0 && set->variant[i] < V_PIPELINES)
            snprintf(speedup, sizeof speedup, "%.4f", serial_ms / s->median);
        tut_csv_row(ctx->csv, "%s,%u,%s,%s,%zu,%d,%.4f,%.4f,%.4f,%.2f,%d,%.4f,%.4f,%s",
                    set->kernel, set->work, v->name, host_names[v->host], set->t[i].p.chunks,
                    set->t[i].p.streams, s->median, s->min, s->max, s->halves_pct, s->rounds,
                    bound, s->median / bound, speedup);
    }
}

void add_stages(measurement_set *set, context *ctx)
{
    set_add(set, ctx, V_COPY_IN, 1, 1);
    set_add(set, ctx, V_KERNEL_ALONE, 1, 1);
    set_add(set, ctx, V_COPY_OUT, 1, 1);
}

stage_times stages_of(const context *ctx, const measurement_set *set)
{
    stage_times st;
    st.copy_in = set_ms(set, set_find(set, V_COPY_IN, 1, 1));
    st.kernel = set_ms(set, set_find(set, V_KERNEL_ALONE, 1, 1));
    st.copy_out = set_ms(set, set_find(set, V_COPY_OUT, 1, 1));
    st.bound = pipeline_bound(st.copy_in, st.kernel, st.copy_out, ctx->plan.copy_engines);
    printf("  alone: copy-in %.3f ms, kernel %.3f ms, copy-out %.3f ms -> bound %.3f ms%s; "
           "serial sum %.3f ms\n", st.copy_in, st.kernel, st.copy_out, st.bound,
           ctx->plan.copy_engines < 2 ? " (one copy engine: the copies take turns)" : "",
           st.copy_in + st.kernel + st.copy_out);
    return st;
}

void print_rows(const context *ctx, const measurement_set *set, const int *rows, int count,
                double bound, double serial_ms)
{
    for (int r = 0; r < count; ++r)
        print_row(ctx, set, rows[r], bound, serial_ms);
}
