/* 06_streams: the document's multi-stream vector add (20M int32, 5 streams), why it does not
 * overlap anything, and a pipeline of copy-in, kernel and copy-out over chunks and streams that
 * does, measured against its bound: the slowest of the three stages, each timed alone.
 *
 *   streams_pipeline                          the document's example, every variant, checked
 *   streams_pipeline --work 2000 --chunks 16 --streams 4    a kernel as long as the copies
 *   streams_pipeline --bench --outdir results  ceilings, both kernels, sweeps, timelines
 *
 * Variants (all compute the same output, checked exactly against the CPU before timing):
 *   serial     pinned memory, one stream, whole arrays: the same work with no overlap
 *   default    the document's baseline: pageable memory, the legacy default stream
 *   document   the document's streams: pageable memory, one output buffer shared by all chunks
 *   pageable   the real pipeline, but on pageable memory
 *   registered the real pipeline on malloc'ed memory pinned in place by cudaHostRegister
 *   depth      the real pipeline on pinned memory, queued chunk by chunk (pipeline.cu)
 *   breadth    the same, queued stage by stage (variants.cu) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "kernels.h"
#include "pipeline.h"
#include "reference.h"
#include "timing.h"
#include "tutorial.h"

#define DEFAULT_N 20000000ull /* the document's 20M elements */
#define DEFAULT_STREAMS 5     /* and its 5 streams */
#define TUNED_CHUNKS 16       /* the benchmark's pipeline: enough chunks that filling and */
#define TUNED_STREAMS 4       /* draining it cost little, enough streams for 3 stages in flight */
#define CALIBRATION_WORK 256  /* rounds timed once to size the heavy kernel to the copies */

enum { HOST_PINNED, HOST_REGISTERED, HOST_PAGEABLE };
static const char *const host_names[] = {"pinned", "registered", "pageable"};

/* How a variant cuts the work: by --chunks/--streams, or whole on one stream. */
enum { SHAPE_CHUNKED, SHAPE_SERIAL, SHAPE_LEGACY_STREAM };

typedef struct {
    const char *name;
    pipeline_issue_fn issue;
    int host;
    int shape;
} variant;

static const variant variants[] = {
    {"serial", issue_depth_first, HOST_PINNED, SHAPE_SERIAL},
    {"default", issue_depth_first, HOST_PAGEABLE, SHAPE_LEGACY_STREAM},
    {"document", issue_document, HOST_PAGEABLE, SHAPE_CHUNKED},
    {"pageable", issue_depth_first, HOST_PAGEABLE, SHAPE_CHUNKED},
    {"registered", issue_depth_first, HOST_REGISTERED, SHAPE_CHUNKED},
    {"depth", issue_depth_first, HOST_PINNED, SHAPE_CHUNKED},
    {"breadth", issue_breadth_first, HOST_PINNED, SHAPE_CHUNKED},
};
enum { V_SERIAL, V_DEFAULT, V_DOCUMENT, V_PAGEABLE, V_REGISTERED, V_DEPTH, V_BREADTH, V_COUNT };

typedef struct {
    size_t n;
    int32_t *pinned_x, *pinned_y, *pinned_out; /* cudaMallocHost */
    int32_t *page_x, *page_y, *page_out;       /* malloc */
    int32_t *want;                             /* the CPU's answer for the current work */
    int32_t *d_x, *d_y, *d_out;
    cudaStream_t stream[STREAMS_MAX_STREAMS];
    int nstreams; /* created */
    int reps;
    int ok;
    tut_csv *csv; /* variants.csv */
} context;

typedef struct {
    double h2d, kernel, d2h, bound;
} stage_times;

static pipeline make_pipeline(context *ctx, const variant *v, size_t chunks, int streams,
                              unsigned work)
{
    /* The legacy default stream by name: plain 0 means the same unless the program is built
     * with --default-stream per-thread (default_stream.cu shows the difference). */
    static cudaStream_t legacy = cudaStreamLegacy;
    pipeline p;
    memset(&p, 0, sizeof p);
    const int pinned = v->host == HOST_PINNED;
    p.h_x = pinned ? ctx->pinned_x : ctx->page_x;
    p.h_y = pinned ? ctx->pinned_y : ctx->page_y;
    p.h_out = pinned ? ctx->pinned_out : ctx->page_out;
    p.d_x = ctx->d_x;
    p.d_y = ctx->d_y;
    p.d_out = ctx->d_out;
    p.n = ctx->n;
    p.chunks = v->shape == SHAPE_CHUNKED ? chunks : 1;
    p.streams = v->shape == SHAPE_CHUNKED ? streams : 1;
    p.stream = v->shape == SHAPE_LEGACY_STREAM ? &legacy : ctx->stream;
    p.work = work;
    return p;
}

static void set_registered(context *ctx, int on)
{
    int32_t *arrays[3] = {ctx->page_x, ctx->page_y, ctx->page_out};
    for (int i = 0; i < 3; ++i) {
        if (on)
            CUDA_CHECK(cudaHostRegister(arrays[i], ctx->n * sizeof(int32_t),
                                        cudaHostRegisterDefault));
        else
            CUDA_CHECK(cudaHostUnregister(arrays[i]));
    }
}

/* Poisons both outputs, runs the variant once, checks it exactly, then times it. */
static double check_and_time(context *ctx, int vi, size_t chunks, int streams, unsigned work,
                             const stage_times *st, double serial_ms, const char *kernel_name)
{
    const variant *v = &variants[vi];
    pipeline p = make_pipeline(ctx, v, chunks, streams, work);
    const size_t bytes = ctx->n * sizeof(int32_t);
    if (v->host == HOST_REGISTERED)
        set_registered(ctx, 1);

    memset(p.h_out, 0xA5, bytes);
    CUDA_CHECK(cudaMemset(ctx->d_out, 0xA5, bytes));
    /* cudaMemset is asynchronous and on the legacy stream, which our non-blocking streams do
     * not wait for: finish it before the pipeline starts. */
    CUDA_CHECK(cudaDeviceSynchronize());
    v->issue(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    char label[128];
    snprintf(label, sizeof label, "%s %s chunks %zu streams %d", kernel_name, v->name, p.chunks,
             p.streams);
    ctx->ok &= tut_check_i32(label, p.h_out, ctx->want, ctx->n);

    const double ms = time_issue(v->issue, &p, 2, ctx->reps);
    if (v->host == HOST_REGISTERED)
        set_registered(ctx, 0);

    const double gbps = 3.0 * (double)bytes / (ms * 1e6);
    printf("  %-10s %-10s chunks %3zu streams %3d  %9.3f ms  %6.1f GB/s  %5.2fx bound", v->name,
           host_names[v->host], p.chunks, p.streams, ms, gbps, ms / st->bound);
    if (serial_ms > 0)
        printf("  %5.2fx faster than serial", serial_ms / ms);
    printf("\n");
    tut_csv_row(ctx->csv, "%s,%u,%s,%s,%zu,%d,%.4f,%.4f,%.4f,%.4f", kernel_name, work, v->name,
                host_names[v->host], p.chunks, p.streams, ms, st->bound, ms / st->bound,
                serial_ms > 0 ? serial_ms / ms : 1.0);
    return ms;
}

static double time_stage(context *ctx, pipeline_issue_fn issue, int pinned, unsigned work)
{
    pipeline p = make_pipeline(ctx, &variants[pinned ? V_DEPTH : V_PAGEABLE], 1, 1, work);
    return time_issue(issue, &p, 2, ctx->reps);
}

static stage_times measure_stages(context *ctx, unsigned work)
{
    stage_times st;
    st.h2d = time_stage(ctx, issue_h2d_only, 1, 0);
    st.kernel = time_stage(ctx, issue_kernel_only, 1, work);
    st.d2h = time_stage(ctx, issue_d2h_only, 1, 0);
    st.bound = st.h2d;
    if (st.kernel > st.bound)
        st.bound = st.kernel;
    if (st.d2h > st.bound)
        st.bound = st.d2h;
    printf("  alone: copy-in %.3f ms, kernel %.3f ms, copy-out %.3f ms -> bound %.3f ms; "
           "serial sum %.3f ms\n", st.h2d, st.kernel, st.d2h, st.bound,
           st.h2d + st.kernel + st.d2h);
    return st;
}

/* The PCIe ceilings of this machine, in this run. */
static void measure_ceilings(context *ctx, const char *outdir)
{
    const double in_bytes = 2.0 * (double)ctx->n * sizeof(int32_t);
    const double out_bytes = (double)ctx->n * sizeof(int32_t);
    const double h2d = time_stage(ctx, issue_h2d_only, 1, 0);
    const double d2h = time_stage(ctx, issue_d2h_only, 1, 0);
    const double page_h2d = time_stage(ctx, issue_h2d_only, 0, 0);
    const double page_d2h = time_stage(ctx, issue_d2h_only, 0, 0);
    pipeline both = make_pipeline(ctx, &variants[V_DEPTH], 2, 2, 0);
    const double both_ms = time_issue(issue_both_directions, &both, 2, ctx->reps);

    tut_csv *csv = tut_csv_open(outdir, "ceilings.csv", "copy,bytes,ms,gbps");
    printf("ceilings (this run):\n");
    struct { const char *name; double bytes, ms; } rows[] = {
        {"pinned_h2d", in_bytes, h2d},         {"pinned_d2h", out_bytes, d2h},
        {"pageable_h2d", in_bytes, page_h2d},  {"pageable_d2h", out_bytes, page_d2h},
        {"pinned_both_ways", 2.0 * out_bytes, both_ms},
    };
    for (int i = 0; i < TUT_COUNT(rows); ++i) {
        printf("  %-17s %7.1f MB  %8.3f ms  %6.1f GB/s\n", rows[i].name, rows[i].bytes / 1e6,
               rows[i].ms, rows[i].bytes / (rows[i].ms * 1e6));
        tut_csv_row(csv, "%s,%.0f,%.4f,%.2f", rows[i].name, rows[i].bytes, rows[i].ms,
                    rows[i].bytes / (rows[i].ms * 1e6));
    }
    tut_csv_close(csv);
}

/* Rounds of mixing that make the whole-array kernel take about as long as the copy-in: a first
 * guess from a short run, then one correction from a run at the guess (the time per round is
 * not quite constant: the short run's fixed costs weigh more). */
static unsigned calibrate_work(context *ctx, double target_ms)
{
    const double base = time_stage(ctx, issue_kernel_only, 1, 0);
    double work = CALIBRATION_WORK;
    for (int pass = 0; pass < 2; ++pass) {
        const double timed = time_stage(ctx, issue_kernel_only, 1, (unsigned)work);
        const double per_round = (timed - base) / work;
        printf("calibration: kernel %.3f ms with 0 rounds, %.3f ms with %.0f: %.3f us per round",
               base, timed, work, per_round * 1e3);
        if (per_round > 0)
            work = (target_ms - base) / per_round;
        if (work < 1)
            work = 1;
        if (work > 1e6)
            work = 1e6;
        printf(" -> %.0f rounds for %.3f ms\n", work, target_ms);
    }
    return (unsigned)(work + 0.5);
}

typedef struct {
    unsigned work;
    stage_times st;
    double serial, document, defaults, depth_user, depth_tuned, breadth_tuned;
} kernel_summary;

/* Everything for one kernel: reference, stages alone, variants, sweeps, timelines. */
static kernel_summary bench_kernel(context *ctx, const char *name, unsigned work, size_t chunks,
                                   int streams, const char *outdir)
{
    kernel_summary s;
    memset(&s, 0, sizeof s);
    s.work = work;
    printf("\n== kernel %s (work %u rounds per element)\n", name, work);
    reference_output(ctx->pinned_x, ctx->pinned_y, ctx->want, ctx->n, work);
    s.st = measure_stages(ctx, work);
    s.serial = check_and_time(ctx, V_SERIAL, 1, 1, work, &s.st, 0, name);
    s.defaults = check_and_time(ctx, V_DEFAULT, 1, 1, work, &s.st, s.serial, name);
    s.document = check_and_time(ctx, V_DOCUMENT, chunks, streams, work, &s.st, s.serial, name);
    check_and_time(ctx, V_PAGEABLE, chunks, streams, work, &s.st, s.serial, name);
    check_and_time(ctx, V_REGISTERED, chunks, streams, work, &s.st, s.serial, name);
    s.depth_user = check_and_time(ctx, V_DEPTH, chunks, streams, work, &s.st, s.serial, name);
    check_and_time(ctx, V_BREADTH, chunks, streams, work, &s.st, s.serial, name);

    const size_t tuned_chunks = TUNED_CHUNKS <= ctx->n ? TUNED_CHUNKS : ctx->n;
    const int tuned_streams = (size_t)TUNED_STREAMS <= tuned_chunks ? TUNED_STREAMS : (int)tuned_chunks;
    printf(" sweep over chunks (streams = min(chunks, %d)):\n", TUNED_STREAMS);
    for (size_t c = 1; c <= 64 && c <= ctx->n; c *= 2) {
        const int k = c < TUNED_STREAMS ? (int)c : TUNED_STREAMS;
        const double d = check_and_time(ctx, V_DEPTH, c, k, work, &s.st, s.serial, name);
        const double b = check_and_time(ctx, V_BREADTH, c, k, work, &s.st, s.serial, name);
        if (c == tuned_chunks && k == tuned_streams) {
            s.depth_tuned = d;
            s.breadth_tuned = b;
        }
    }
    printf(" sweep over streams (chunks = %zu):\n", tuned_chunks);
    const int stream_counts[] = {1, 2, 3, 8, 16};
    for (int i = 0; i < TUT_COUNT(stream_counts); ++i)
        if ((size_t)stream_counts[i] <= tuned_chunks)
            check_and_time(ctx, V_DEPTH, tuned_chunks, stream_counts[i], work, &s.st, s.serial,
                           name);

    if (outdir) {
        struct { int v; size_t chunks; int streams; } shown[] = {
            {V_SERIAL, 1, 1},
            {V_DOCUMENT, chunks, streams},
            {V_DEPTH, tuned_chunks, tuned_streams},
            {V_BREADTH, tuned_chunks, tuned_streams},
        };
        for (int i = 0; i < TUT_COUNT(shown); ++i) {
            const variant *v = &variants[shown[i].v];
            pipeline p = make_pipeline(ctx, v, shown[i].chunks, shown[i].streams, work);
            char file[96], label[160];
            snprintf(file, sizeof file, "timeline_%s_%s.csv", name, v->name);
            snprintf(label, sizeof label, "%s: %s, %s memory, %zu chunks on %d streams, work %u",
                     name, v->name, host_names[v->host], p.chunks, p.streams, work);
            const double total = record_timeline(v->issue, &p, outdir, file, label);
            printf(" timeline %-36s %.3f ms\n", file, total);
        }
    }
    return s;
}

static void print_summary(const char *name, const kernel_summary *s)
{
    const double bound = s->st.bound;
    printf("%-6s %6u | %7.3f %7.3f %7.3f %7.3f | %8.3f %8.3f %8.3f | %7.3f (%5.2fx) %7.3f (%5.2fx)"
           " | %5.2fx %5.2fx\n", name, s->work, s->st.h2d, s->st.kernel, s->st.d2h, bound,
           s->serial, s->defaults, s->document, s->depth_user, s->depth_user / bound,
           s->depth_tuned, s->depth_tuned / bound, s->serial / s->depth_tuned,
           s->serial / s->breadth_tuned);
}

int main(int argc, char **argv)
{
    static unsigned long long n = DEFAULT_N, streams = DEFAULT_STREAMS, chunks = 0, work = 0;
    static unsigned long long seed = TUT_DEFAULT_SEED, reps = 10;
    static int variant_choice = 0, input = 0, bench = 0;
    static const char *outdir = NULL;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "elements (the document: 20M)", 1, 17179869184.0, NULL},
        {"--streams", TUT_OPT_SIZE, &streams, "streams (at most --chunks)", 1, STREAMS_MAX_STREAMS,
         NULL},
        {"--chunks", TUT_OPT_SIZE, &chunks, "chunks, dealt round-robin to the streams (default: "
                                            "as many as streams)", 1, 0, NULL},
        {"--variant", TUT_OPT_CHOICE, &variant_choice, "which variant(s) to run", 0, 0,
         "all|serial|default|document|pageable|registered|depth|breadth"},
        {"--work", TUT_OPT_SIZE, &work, "rounds of integer mixing per element (0: plain add)", 0,
         1e6, NULL},
        {"--input", TUT_OPT_CHOICE, &input, "random (seeded) or the document's x=i, y=2i", 0, 0,
         "random|arange"},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the random inputs", 1, 0, NULL},
        {"--reps", TUT_OPT_SIZE, &reps, "timed repetitions (median)", 1, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &bench, "ceilings, both kernels, sweeps and timelines", 1, 0,
         NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write CSV results into this folder", 1, 0, NULL},
    };
    const char *summary = "streams: overlapping copies and kernels with a pipeline over streams";
    tut_parse_or_exit(argc, argv, summary, opts, TUT_COUNT(opts));
    if (chunks == 0)
        chunks = streams;
    char why[200];
    if (pipeline_shape_check((size_t)n, (size_t)chunks, (size_t)streams, why, sizeof why) != 0) {
        fprintf(stderr, "error: %s\n", why);
        tut_print_usage(stderr, argv[0], summary, opts, TUT_COUNT(opts));
        return 2;
    }

    tut_select_device(7, 5, TUT_NEED_CONCURRENT_COPY);
    context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.n = (size_t)n;
    ctx.reps = (int)reps;
    ctx.ok = 1;
    const size_t bytes = tut_bytes(ctx.n, sizeof(int32_t), "an array");
    if (!tut_device_fits(tut_bytes(bytes, 3, "three arrays"), 64u << 20)) {
        fprintf(stderr, "error: three arrays of %zu bytes do not fit on the GPU\n", bytes);
        return 2;
    }
    ctx.pinned_x = (int32_t *)tut_pinned_alloc(bytes, "x (pinned)");
    ctx.pinned_y = (int32_t *)tut_pinned_alloc(bytes, "y (pinned)");
    ctx.pinned_out = (int32_t *)tut_pinned_alloc(bytes, "out (pinned)");
    ctx.page_x = (int32_t *)tut_host_alloc(bytes, "x (pageable)");
    ctx.page_y = (int32_t *)tut_host_alloc(bytes, "y (pageable)");
    ctx.page_out = (int32_t *)tut_host_alloc(bytes, "out (pageable)");
    ctx.want = (int32_t *)tut_host_alloc(bytes, "reference");
    ctx.d_x = (int32_t *)tut_device_alloc(bytes, "x");
    ctx.d_y = (int32_t *)tut_device_alloc(bytes, "y");
    ctx.d_out = (int32_t *)tut_device_alloc(bytes, "out");
    /* Non-blocking: they never wait for the legacy default stream (nor it for them), so no
     * stray synchronous call elsewhere in a program can serialise the pipeline. */
    ctx.nstreams = streams > 16 ? (int)streams : 16; /* the sweeps use up to 16 */
    for (int s = 0; s < ctx.nstreams; ++s)
        CUDA_CHECK(cudaStreamCreateWithFlags(&ctx.stream[s], cudaStreamNonBlocking));

    fill_inputs(ctx.pinned_x, ctx.pinned_y, ctx.n, input == 0, seed);
    memcpy(ctx.page_x, ctx.pinned_x, bytes);
    memcpy(ctx.page_y, ctx.pinned_y, bytes);
    printf("n %llu (%.1f MB per array), chunks %llu, streams %llu, inputs %s", n, bytes / 1e6,
           chunks, streams, input == 0 ? "random" : "x=i, y=2i");
    if (input == 0)
        printf(" (seed %llu)", seed);
    printf(", %llu timed repetitions\n", reps);

    ctx.csv = tut_csv_open(outdir, "variants.csv",
                           "kernel,work,variant,host,chunks,streams,ms,bound_ms,ratio_to_bound,"
                           "speedup_vs_serial");
    if (!bench) {
        const char *name = work ? "mix" : "add";
        printf("\n== kernel %s (work %llu rounds per element)\n", name, work);
        reference_output(ctx.pinned_x, ctx.pinned_y, ctx.want, ctx.n, work);
        const stage_times st = measure_stages(&ctx, (unsigned)work);
        double serial_ms = 0;
        for (int v = 0; v < V_COUNT; ++v) {
            if (variant_choice != 0 && variant_choice != v + 1)
                continue;
            const double ms = check_and_time(&ctx, v, (size_t)chunks, (int)streams,
                                             (unsigned)work, &st, serial_ms, name);
            if (v == V_SERIAL)
                serial_ms = ms;
        }
    } else {
        measure_ceilings(&ctx, outdir);
        const stage_times add_alone = measure_stages(&ctx, 0);
        const unsigned mix_work = work ? (unsigned)work : calibrate_work(&ctx, add_alone.h2d);
        const kernel_summary add = bench_kernel(&ctx, "add", 0, (size_t)chunks, (int)streams,
                                                outdir);
        const kernel_summary mix = bench_kernel(&ctx, "mix", mix_work, (size_t)chunks,
                                                (int)streams, outdir);
        printf("\nsummary, ms (pipelines: time and ratio to the bound = slowest stage alone; "
               "speedup = serial / pipeline at %d chunks, %d streams)\n",
               TUNED_CHUNKS, TUNED_STREAMS);
        printf("kernel   work |  copyin  kernel copyout   bound |   serial  default document |"
               " depth %llux%llu    depth %dx%d     | speedup depth breadth\n", chunks, streams,
               TUNED_CHUNKS, TUNED_STREAMS);
        print_summary("add", &add);
        print_summary("mix", &mix);
    }
    tut_csv_close(ctx.csv);

    for (int s = 0; s < ctx.nstreams; ++s)
        CUDA_CHECK(cudaStreamDestroy(ctx.stream[s]));
    tut_device_free(ctx.d_x);
    tut_device_free(ctx.d_y);
    tut_device_free(ctx.d_out);
    tut_pinned_free(ctx.pinned_x);
    tut_pinned_free(ctx.pinned_y);
    tut_pinned_free(ctx.pinned_out);
    free(ctx.page_x);
    free(ctx.page_y);
    free(ctx.page_out);
    free(ctx.want);
    return tut_finish(ctx.ok);
}
