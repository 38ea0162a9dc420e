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
 *   breadth    the same, queued stage by stage (variants.cu)
 *
 * The benchmark's pipeline shape and the kernels' blocks come from the GPU's limits (plan.h):
 * its copy engines decide how many stages run at once. Every figure is timed in interleaved
 * rounds until stable (rounds.h, timing.cu), the bound in the same rounds as the pipelines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "chunks.h"
#include "kernels.h"
#include "measure.h"
#include "plan.h"
#include "reference.h"
#include "timing.h"
#include "tutorial.h"

#define DEFAULT_N 20000000ull /* the document's 20M elements */
#define DEFAULT_STREAMS 5     /* and its 5 streams */
#define CALIBRATION_WORK 256  /* rounds timed once to size the heavy kernel to the copies */
#define STABLE_PERCENT 2.0    /* the odd and even rounds' medians must agree this well */
#define BATCH_MS 2.0          /* each timed sample: runs back to back for at least this long */

/* ---------------------------------------------------------------- the benchmark */

/* The PCIe ceilings of this machine, in this run; returns the pinned copy-in time. */
static double measure_ceilings(context *ctx, const char *outdir)
{
    static const struct { int v; const char *name; } rows[] = {
        {V_COPY_IN, "pinned_h2d"},         {V_COPY_OUT, "pinned_d2h"},
        {V_PAGEABLE_IN, "pageable_h2d"},   {V_PAGEABLE_OUT, "pageable_d2h"},
        {V_BOTH_WAYS, "pinned_both_ways"},
    };
    measurement_set *set = set_create("", 0);
    printf("ceilings (this run):\n");
    for (int i = 0; i < TUT_COUNT(rows); ++i)
        set_add(set, ctx, rows[i].v, 1, 1);
    measure(ctx, set);
    if (ctx->plan.copy_engines < 2)
        printf("  one copy engine: copies both ways take turns\n");

    tut_csv *csv = tut_csv_open(outdir, "ceilings.csv",
                                "copy,bytes,ms,gbps,min_ms,max_ms,halves_pct,rounds");
    tut_csv_comment(csv, "ms: median (min_ms, max_ms) of the rounds; halves_pct: how far the "
                         "medians of odd and even rounds differ");
    for (int i = 0; i < TUT_COUNT(rows); ++i) {
        const round_stats *s = &set->t[i].stats;
        const double bytes = (double)variants[rows[i].v].bytes_per_element * (double)ctx->n;
        printf("  %-17s %7.1f MB  %8.3f ms (%7.3f-%7.3f)  %6.1f GB/s\n", rows[i].name,
               bytes / 1e6, s->median, s->min, s->max, bytes / (s->median * 1e6));
        tut_csv_row(csv, "%s,%.0f,%.4f,%.2f,%.4f,%.4f,%.2f,%d", rows[i].name, bytes, s->median,
                    bytes / (s->median * 1e6), s->min, s->max, s->halves_pct, s->rounds);
    }
    tut_csv_close(csv);
    const double copy_in = set->t[0].stats.median;
    free(set);
    return copy_in;
}

/* Rounds of mixing that make the whole-array kernel take about as long as the copy-in: a first
 * guess from a short run, then one correction from a run at the guess (the time per round is
 * not quite constant: the short run's fixed costs weigh more). A quick estimate: the kernel's
 * own time is then measured with everything else. */
static unsigned calibrate_work(context *ctx, double target_ms)
{
    const int reps = ctx->rule.min_rounds;
    pipeline p = make_pipeline(ctx, V_KERNEL_ALONE, 1, 1, 0);
    const double base = time_issue(issue_kernel_only, &p, 2, reps);
    double work = CALIBRATION_WORK;
    for (int pass = 0; pass < 2; ++pass) {
        p.work = (unsigned)work;
        const double timed = time_issue(issue_kernel_only, &p, 2, reps);
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
    double serial, document, defaults, depth_user, depth_plan, breadth_plan, shrinking_plan;
    double shrinking_few; /* shrinking chunks, 8 on 2 streams */
} kernel_summary;

/* Everything for one kernel: reference, stages alone, variants, sweeps (all in one set of
 * interleaved rounds), then the timelines. */
static kernel_summary bench_kernel(context *ctx, const char *name, unsigned work, size_t chunks,
                                   int streams, const char *outdir)
{
    const pipeline_plan *plan = &ctx->plan;
    kernel_summary s;
    memset(&s, 0, sizeof s);
    s.work = work;
    printf("\n== kernel %s (work %u rounds per element)\n", name, work);
    reference_output(ctx->pinned_x, ctx->pinned_y, ctx->want, ctx->n, work);

    measurement_set *set = set_create(name, work);
    add_stages(set, ctx);
    int user[V_PIPELINES], chunk_rows[2 * SWEEP_MAX], stream_rows[SWEEP_MAX];
    int nchunk_rows = 0, nstream_rows = 0;
    for (int v = 0; v < V_PIPELINES; ++v)
        user[v] = set_add(set, ctx, v, chunks, streams);
    /* both schedules at the plan's shape: equal chunks (depth) and shrinking ones */
    const int depth_row = set_add(set, ctx, V_DEPTH, plan->chunks, plan->streams);
    const int shrinking_row = set_add(set, ctx, V_SHRINKING, plan->chunks, plan->streams);
    /* and shrinking chunks at the document's shape, 8 on 2 streams, where 8 chunks fit (n >= 8):
     * fewer chunks pay fewer fixed costs, and shrinking keeps their tail short (the appendix
     * measures both effects) */
    char few_why[160];
    const int shrinking_few_row =
        pipeline_shape_check(ctx->n, 8, 2, few_why, sizeof few_why) == 0
            ? set_add(set, ctx, V_SHRINKING, 8, 2)
            : -1;
    sweep_entry sweep[SWEEP_MAX];
    const int nchunks = chunk_sweep(plan, ctx->n, sweep);
    for (int e = 0; e < nchunks; ++e) {
        if (sweep[e].skipped[0]) {
            printf("  chunk sweep, %zu chunks: %s\n", sweep[e].chunks, sweep[e].skipped);
            continue;
        }
        chunk_rows[nchunk_rows++] = set_add(set, ctx, V_DEPTH, sweep[e].chunks, sweep[e].streams);
        chunk_rows[nchunk_rows++] =
            set_add(set, ctx, V_BREADTH, sweep[e].chunks, sweep[e].streams);
    }
    const int nstreams = stream_sweep(plan, sweep);
    for (int e = 0; e < nstreams; ++e) {
        if (sweep[e].skipped[0]) {
            printf("  stream sweep, %d streams: %s\n", sweep[e].streams, sweep[e].skipped);
            continue;
        }
        stream_rows[nstream_rows++] =
            set_add(set, ctx, V_DEPTH, sweep[e].chunks, sweep[e].streams);
    }
    measure(ctx, set);

    s.st = stages_of(ctx, set);
    s.serial = set_ms(set, user[V_SERIAL]);
    s.defaults = set_ms(set, user[V_DEFAULT]);
    s.document = set_ms(set, user[V_DOCUMENT]);
    s.depth_user = set_ms(set, user[V_DEPTH]);
    s.depth_plan = set_ms(set, depth_row);
    s.shrinking_plan = set_ms(set, shrinking_row);
    s.shrinking_few = set_ms(set, shrinking_few_row);
    s.breadth_plan = set_ms(set, set_find(set, V_BREADTH, plan->chunks, plan->streams));
    printf(" variants (%zu chunks, %d streams):\n", chunks, streams);
    print_rows(ctx, set, user, V_PIPELINES, s.st.bound, s.serial);
    printf(" sweep over chunks (streams = min(chunks, %d)):\n", plan->streams);
    print_rows(ctx, set, chunk_rows, nchunk_rows, s.st.bound, s.serial);
    printf(" sweep over streams (chunks = %zu):\n", plan->chunks);
    print_rows(ctx, set, stream_rows, nstream_rows, s.st.bound, s.serial);
    printf(" schedules at %zu chunks, %d streams: equal chunks (depth) %.3f ms = %.3fx the bound, "
           "shrinking chunks %.3f ms = %.3fx the bound\n", plan->chunks, plan->streams,
           s.depth_plan, s.depth_plan / s.st.bound, s.shrinking_plan,
           s.shrinking_plan / s.st.bound);
    if (shrinking_few_row >= 0)
        printf(" shrinking chunks at 8 chunks, 2 streams: %.3f ms = %.3fx the bound\n",
               s.shrinking_few, s.shrinking_few / s.st.bound);
    else
        printf(" shrinking chunks at 8 chunks, 2 streams: skipped (%s)\n", few_why);
    write_rows(ctx, set, s.st.bound, s.serial);

    if (outdir) {
        struct { int v; size_t chunks; int streams; } shown[] = {
            {V_SERIAL, 1, 1},
            {V_DOCUMENT, chunks, streams},
            {V_DEPTH, plan->chunks, plan->streams},
            {V_BREADTH, plan->chunks, plan->streams},
        };
        for (int i = 0; i < TUT_COUNT(shown); ++i) {
            const variant *v = &variants[shown[i].v];
            pipeline p = make_pipeline(ctx, shown[i].v, shown[i].chunks, shown[i].streams, work);
            char file[96], label[160];
            snprintf(file, sizeof file, "timeline_%s_%s.csv", name, v->name);
            snprintf(label, sizeof label, "%s: %s, %s memory, %zu chunks on %d streams, work %u",
                     name, v->name, host_names[v->host], p.chunks, p.streams, work);
            const double total = record_timeline(v->issue, &p, outdir, file, label);
            printf(" timeline %-36s %.3f ms\n", file, total);
        }
    }
    free(set);
    return s;
}

static void print_summary(const char *name, const kernel_summary *s)
{
    const double bound = s->st.bound;
    printf("%-6s %6u | %7.3f %7.3f %7.3f %7.3f | %8.3f %8.3f %8.3f | %7.3f (%5.2fx) %7.3f (%5.2fx)"
           " | %5.2fx %5.2fx\n", name, s->work, s->st.copy_in, s->st.kernel, s->st.copy_out,
           bound, s->serial, s->defaults, s->document, s->depth_user, s->depth_user / bound,
           s->depth_plan, s->depth_plan / bound, s->serial / s->depth_plan,
           s->serial / s->breadth_plan);
}

/* The chapter's roofline (roofline.csv, drawn by common/plots/roofline.gp). The memory here is
 * the PCIe link: every element brings 8 bytes to the GPU (x and y) and takes 4 back, and the
 * busier direction, host to device, is the roof (the copies back overlap it in a pipeline). The
 * operations are integer ops on the GPU: 1 add per element, plus `work` multiply-adds for mix,
 * under the 32-bit multiply ceiling. Both ceilings are measured now, by common/ceilings.h. The
 * serial pipelines sit far below the roof (nothing overlaps); the depth-first ones come close. */
static void streams_roofline(const context *ctx, const kernel_summary *add,
                             const kernel_summary *mix, const char *outdir)
{
    const tut_ceiling h2d = tut_measure_ceiling(TUT_CEILING_PCIE_H2D);
    const tut_ceiling imul = tut_measure_ceiling(TUT_CEILING_INT_MUL_LO);
    printf("\nroofline: ceilings measured now (common/ceilings.h)\n");
    tut_ceiling_print(&h2d);
    tut_ceiling_print(&imul);
    const double n = (double)ctx->n, bytes = 8.0 * n;
    const struct { const char *name; const kernel_summary *k; double ms; } rows[] = {
        {"add serial", add, add->serial},       {"add depth-first", add, add->depth_plan},
        {"mix serial", mix, mix->serial},       {"mix depth-first", mix, mix->depth_plan},
    };
    tut_csv *csv = tut_roofline_csv_open(outdir, "roofline.csv");
    for (int i = 0; i < TUT_COUNT(rows); ++i) {
        const tut_roofline_point p = {.kernel = rows[i].name, .bytes = bytes,
                                      .ops = n * (1.0 + rows[i].k->work), .op_unit = "int op",
                                      .seconds = rows[i].ms * 1e-3, .memory = &h2d,
                                      .compute = &imul};
        tut_roofline_csv_row(csv, &p);
        tut_roofline_print(&p);
    }
    tut_csv_close(csv);
}

static void bench(context *ctx, unsigned user_work, size_t chunks, int streams,
                  const char *outdir)
{
    const double copy_in = measure_ceilings(ctx, outdir);
    const unsigned mix_work = user_work ? user_work : calibrate_work(ctx, copy_in);
    const kernel_summary add = bench_kernel(ctx, "add", 0, chunks, streams, outdir);
    const kernel_summary mix = bench_kernel(ctx, "mix", mix_work, chunks, streams, outdir);
    const pipeline_plan *plan = &ctx->plan;
    printf("\nsummary, ms (pipelines: time and ratio to the bound; speedup = serial / pipeline "
           "at %zu chunks, %d streams)\n", plan->chunks, plan->streams);
    printf("kernel   work |  copyin  kernel copyout   bound |   serial  default document |"
           " depth %zux%d    depth %zux%d     | speedup depth breadth\n", chunks, streams,
           plan->chunks, plan->streams);
    print_summary("add", &add);
    print_summary("mix", &mix);
    streams_roofline(ctx, &add, &mix, outdir);
}

/* Without --bench: the stages alone and the chosen variants, with one kernel. */
static void run_variants(context *ctx, int choice, size_t chunks, int streams, unsigned work)
{
    const char *name = work ? "mix" : "add";
    printf("\n== kernel %s (work %u rounds per element)\n", name, work);
    reference_output(ctx->pinned_x, ctx->pinned_y, ctx->want, ctx->n, work);
    measurement_set *set = set_create(name, work);
    add_stages(set, ctx);
    int rows[V_PIPELINES], count = 0;
    for (int v = 0; v < V_PIPELINES; ++v)
        if (choice == 0 || choice == v + 1)
            rows[count++] = set_add(set, ctx, v, chunks, streams);
    measure(ctx, set);
    const stage_times st = stages_of(ctx, set);
    const double serial_ms = set_ms(set, set_find(set, V_SERIAL, 1, 1));
    print_rows(ctx, set, rows, count, st.bound, serial_ms);
    write_rows(ctx, set, st.bound, serial_ms);
    free(set);
}

/* ---------------------------------------------------------------- main */

static int32_t *registered_alloc(size_t bytes, const char *what)
{
    int32_t *p = (int32_t *)tut_host_alloc(bytes, what);
    CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
    return p;
}

static void registered_free(int32_t *p)
{
    if (p) {
        CUDA_CHECK(cudaHostUnregister(p));
        free(p);
    }
}

int main(int argc, char **argv)
{
    static unsigned long long n = DEFAULT_N, streams = DEFAULT_STREAMS, chunks = 0, work = 0;
    static unsigned long long seed = TUT_DEFAULT_SEED, reps = 10;
    static int variant_choice = 0, input = 0, bench_flag = 0;
    static const char *outdir = NULL;
    /* "all|serial|default|...": the --variant choices, from the table. */
    static char choices[256] = "all";
    for (int v = 0; v < V_PIPELINES; ++v)
        snprintf(choices + strlen(choices), sizeof choices - strlen(choices), "|%s",
                 variants[v].name);
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "elements (the document: 20M)", 1, 17179869184.0, NULL},
        {"--streams", TUT_OPT_SIZE, &streams, "streams (at most --chunks)", 1, STREAMS_MAX_STREAMS,
         NULL},
        {"--chunks", TUT_OPT_SIZE, &chunks, "chunks, dealt round-robin to the streams (default: "
                                            "as many as streams)", 1, 0, NULL},
        {"--variant", TUT_OPT_CHOICE, &variant_choice, "which variant(s) to run", 0, 0, choices},
        {"--work", TUT_OPT_SIZE, &work, "rounds of integer mixing per element (0: plain add)", 0,
         1e6, NULL},
        {"--input", TUT_OPT_CHOICE, &input, "random (seeded) or the document's x=i, y=2i", 0, 0,
         "random|arange"},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the random inputs", 1, 0, NULL},
        {"--reps", TUT_OPT_SIZE, &reps, "timing rounds: at least this many, at most 4x as many "
                                        "(until stable)", 1, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &bench_flag, "ceilings, both kernels, sweeps and timelines", 1,
         0, NULL},
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

    tut_select_device(TUT_NEED_CONCURRENT_COPY);
    const tut_device_info *dev = tut_current_device();
    context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.n = (size_t)n;
    ctx.ok = 1;
    ctx.plan = plan_pipeline(dev, ctx.n);
    ctx.rule.min_rounds = reps < 2 ? 2 : (int)reps;
    ctx.rule.max_rounds = 4 * ctx.rule.min_rounds;
    ctx.rule.tolerance_pct = STABLE_PERCENT;
    ctx.rule.batch_ms = BATCH_MS;
    ctx.rule.seed = seed;
    const size_t bytes = tut_bytes(ctx.n, sizeof(int32_t), "an array");
    if (!tut_device_fits(tut_bytes(bytes, 3, "three arrays"), 64u << 20)) {
        fprintf(stderr, "error: three arrays of %zu bytes do not fit on the GPU\n", bytes);
        return 2;
    }
    printf("limits of %s: %d copy engine%s -> %d stages at once -> the benchmark's pipeline: "
           "%zu chunks on %d streams (fill and drain at most %.2fx the bound)\n",
           dev->emulated[0] ? dev->emulated : dev->name, ctx.plan.copy_engines,
           ctx.plan.copy_engines == 1 ? "" : "s", ctx.plan.stages_at_once, ctx.plan.chunks,
           ctx.plan.streams, fill_drain_ratio(ctx.plan.stages_at_once, ctx.plan.chunks));
    chunk_kernels_configure();

    ctx.pinned_x = (int32_t *)tut_pinned_alloc(bytes, "x (pinned)");
    ctx.pinned_y = (int32_t *)tut_pinned_alloc(bytes, "y (pinned)");
    ctx.pinned_out = (int32_t *)tut_pinned_alloc(bytes, "out (pinned)");
    ctx.page_x = (int32_t *)tut_host_alloc(bytes, "x (pageable)");
    ctx.page_y = (int32_t *)tut_host_alloc(bytes, "y (pageable)");
    ctx.page_out = (int32_t *)tut_host_alloc(bytes, "out (pageable)");
    if (bench_flag || variant_choice == 0 || variant_choice == V_REGISTERED + 1) {
        ctx.reg_x = registered_alloc(bytes, "x (registered)");
        ctx.reg_y = registered_alloc(bytes, "y (registered)");
        ctx.reg_out = registered_alloc(bytes, "out (registered)");
    }
    ctx.want = (int32_t *)tut_host_alloc(bytes, "reference");
    ctx.d_x = (int32_t *)tut_device_alloc(bytes, "x");
    ctx.d_y = (int32_t *)tut_device_alloc(bytes, "y");
    ctx.d_out = (int32_t *)tut_device_alloc(bytes, "out");
    /* Non-blocking: they never wait for the legacy default stream (nor it for them), so no
     * stray synchronous call elsewhere in a program can serialise the pipeline. */
    ctx.nstreams = (int)streams > ctx.plan.streams ? (int)streams : ctx.plan.streams;
    sweep_entry sweep[SWEEP_MAX];
    const int nsweep = stream_sweep(&ctx.plan, sweep);
    for (int e = 0; e < nsweep; ++e)
        ctx.nstreams = sweep[e].streams > ctx.nstreams ? sweep[e].streams : ctx.nstreams;
    for (int s = 0; s < ctx.nstreams; ++s)
        CUDA_CHECK(cudaStreamCreateWithFlags(&ctx.stream[s], cudaStreamNonBlocking));

    fill_inputs(ctx.pinned_x, ctx.pinned_y, ctx.n, input == 0, seed);
    memcpy(ctx.page_x, ctx.pinned_x, bytes);
    memcpy(ctx.page_y, ctx.pinned_y, bytes);
    if (ctx.reg_x) {
        memcpy(ctx.reg_x, ctx.pinned_x, bytes);
        memcpy(ctx.reg_y, ctx.pinned_y, bytes);
    }
    printf("n %llu (%.1f MB per array), chunks %llu, streams %llu, inputs %s", n, bytes / 1e6,
           chunks, streams, input == 0 ? "random" : "x=i, y=2i");
    if (input == 0)
        printf(" (seed %llu)", seed);
    printf("; timing: interleaved rounds, %d to %d, until the halves agree within %.1f%%\n",
           ctx.rule.min_rounds, ctx.rule.max_rounds, ctx.rule.tolerance_pct);

    ctx.csv = tut_csv_open(outdir, "variants.csv",
                           "kernel,work,variant,host,chunks,streams,ms,min_ms,max_ms,halves_pct,"
                           "rounds,bound_ms,ratio_to_bound,speedup_vs_serial");
    tut_csv_comment(ctx.csv, "ms: median (min_ms, max_ms) of the interleaved rounds; halves_pct: "
                             "how far the medians of odd and even rounds differ; bound: the "
                             "slowest stage alone (%d copy engines)", ctx.plan.copy_engines);
    if (bench_flag)
        bench(&ctx, (unsigned)work, (size_t)chunks, (int)streams, outdir);
    else
        run_variants(&ctx, variant_choice, (size_t)chunks, (int)streams, (unsigned)work);
    tut_csv_close(ctx.csv);

    for (int s = 0; s < ctx.nstreams; ++s)
        CUDA_CHECK(cudaStreamDestroy(ctx.stream[s]));
    tut_device_free(ctx.d_x);
    tut_device_free(ctx.d_y);
    tut_device_free(ctx.d_out);
    tut_pinned_free(ctx.pinned_x);
    tut_pinned_free(ctx.pinned_y);
    tut_pinned_free(ctx.pinned_out);
    registered_free(ctx.reg_x);
    registered_free(ctx.reg_y);
    registered_free(ctx.reg_out);
    free(ctx.page_x);
    free(ctx.page_y);
    free(ctx.page_out);
    free(ctx.want);
    return tut_finish(ctx.ok);
}
