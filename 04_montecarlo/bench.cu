/* The benchmark: samples per second of every variant, each checked before it is timed, against
 * the library pipeline, the cuRAND generator alone and the multiply ceiling (ceiling.cu), all
 * measured in the same run and timed the same way (batches of back-to-back calls, median, min
 * and max); then the convergence of the error with n. CSVs: multiply_ceiling.csv,
 * throughput.csv, summary.csv, convergence.csv. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tutorial.h"

#include "ceilings.h"
#include "driver.h"
#include "variants.h"

#define TABLE_ROWS 96
#define WARMUP 2
#define BATCHES 7 /* of about 2 ms or more each (tut_time_gpu_batched picks the calls) */
/* Multiply results per sample in Philox4x32-10: 10 rounds x 2 words x (high + low) / 4 samples;
 * about 8 for the packed conversion's five samples a call (mul_per_sample) */
#define MULTIPLY_RESULTS_PER_SAMPLE 10.0
#define PHILOX_CEILING_CALLS 1024 /* Philox calls per thread of the generator's own ceilings */

typedef struct {
    char variant[32], config[48];
    unsigned long long samples;
    double setup_ms, gsps, mul_per_sample;
    tut_timing t;
} row;

typedef struct {
    row rows[TABLE_ROWS];
    int count;
    tut_csv *csv;
    double ceiling_gsps; /* the multiply ceiling in samples/s (G), measured first */
    double philox_gsps[MC_PHILOX_CEILING_COUNT]; /* Philox alone; Philox + conversion + sum */
    tut_ceiling wide, lo, dram; /* common/ceilings.h, measured in this run */
} table;

/* Every timing in the benchmark: batches of back-to-back calls between one pair of events, after
 * warm-up, so launch latency is not inside each call; median, min and max over the batches. */
static tut_timing time_work(tut_work_fn work, void *job)
{
    return tut_time_gpu_batched(work, job, WARMUP, BATCHES, 0);
}

/* A row's share of the multiply ceiling: its multiply results per second over the ceiling's
 * (0 for a row that does no Philox multiplies: XORWOW's states, CUB's reduction alone). */
static double of_ceiling(const table *t, const row *r)
{
    return r->gsps * r->mul_per_sample / (t->ceiling_gsps * MULTIPLY_RESULTS_PER_SAMPLE);
}

/* A row's of_ceiling and mul_per_sample as CSV cells, empty where it does no Philox multiplies. */
static void multiply_cells(const table *t, const row *r, char *of, char *mul, size_t len)
{
    of[0] = mul[0] = '\0';
    if (r->mul_per_sample > 0) {
        snprintf(of, len, "%.4f", of_ceiling(t, r));
        snprintf(mul, len, "%.3f", r->mul_per_sample);
    }
}

/* One row of throughput.csv and of the printout. mul_per_sample: Philox's multiply results per
 * sample (MULTIPLY_RESULTS_PER_SAMPLE; 0 where there are none). */
static void add_row(table *t, const char *variant, const char *config, unsigned long long n,
                    double setup_ms, tut_timing tm, double mul_per_sample)
{
    row *r = &t->rows[t->count < TABLE_ROWS ? t->count++ : TABLE_ROWS - 1];
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->config, sizeof r->config, "%s", config);
    r->samples = n;
    r->setup_ms = setup_ms;
    r->t = tm;
    r->gsps = (double)n / (tm.median_ms * 1e-3) / 1e9;
    r->mul_per_sample = mul_per_sample;
    char of[16], mul[16];
    multiply_cells(t, r, of, mul, sizeof of);
    tut_csv_row(t->csv, "%s,%s,%llu,%.4f,%.4f,%.4f,%.4f,%.2f,%s,%.4f,%.4f,%s", variant, config, n,
                setup_ms, tm.median_ms, tm.min_ms, tm.max_ms, r->gsps, of,
                r->gsps / t->philox_gsps[MC_PHILOX_ONLY],
                r->gsps / t->philox_gsps[MC_PHILOX_UNIFORM_SUM], mul);
    printf("  %-16s %-26s n=%-12llu %9.3f ms (%.3f-%.3f) %8.2f G samples/s", variant, config, n,
           tm.median_ms, tm.min_ms, tm.max_ms, r->gsps);
    if (mul_per_sample > 0)
        printf(" %4.0f%% of ceiling", 100.0 * of_ceiling(t, r));
    if (setup_ms > 0)
        printf("  (setup %.3f ms)", setup_ms);
    printf("\n");
}

/* Philox's multiply results per sample of a fused row: 40 a call, and a stream of
 * MC_STREAM_SAMPLES takes ceil(MC_STREAM_SAMPLES / per call) calls (packed: 205 calls for 1024
 * samples, the last giving four, so 8.008 a sample). */
static double mul_per_sample(mc_uniform u)
{
    const unsigned per_call = mc_uniforms_per_call(u);
    const double calls = (double)((MC_STREAM_SAMPLES + per_call - 1) / per_call);
    return 4.0 * MULTIPLY_RESULTS_PER_SAMPLE * calls / (double)MC_STREAM_SAMPLES;
}

static void work_fused(void *job) { mc_fused_run((mc_fused_job *)job); }
static void work_library(void *job) { mc_library_run((mc_library_job *)job); }
static void work_generate(void *job) { mc_library_generate_only((mc_library_job *)job); }
static void work_reduce(void *job) { mc_library_reduce_only((mc_library_job *)job); }
static void work_setup(void *job) { mc_states_setup((mc_states_job *)job); }
static void work_sample(void *job) { mc_states_sample((mc_states_job *)job); }
static void work_philox(void *job) { mc_philox_ceiling_run((mc_philox_job *)job); }

static int check_run(const char *label, const mc_problem *p, const double2 *result)
{
    const mc_sums s = mc_read_sums(result, p->samples);
    return mc_report(label, p, &s, MAX_SIGMAS);
}

/* The ceilings. The multiply ceiling (common/ceilings.h, INT_MUL_WIDE): chains of
 * x = hi(M x) ^ lo(M x) ^ K, one IMAD.WIDE and one LOP3 a step, the mix of a Philox round, at
 * full occupancy; its multiply results per second / 10 are the samples per second a kernel
 * bound by Philox's multiplies could reach. Plain 32-bit multiplies (INT_MUL_LO) for
 * comparison, and the DRAM copy ceiling for the roofline. Then the generator's own ceilings
 * (ceiling.cu). multiply_ceiling.csv has them all, ceilings.csv the common ones. */
static double measure_ceiling(table *t, const char *outdir)
{
    tut_csv *csv = tut_csv_open(outdir, "multiply_ceiling.csv",
                                "op,method,results,ms,min_ms,max_ms,gresults_per_s,"
                                "sample_ceiling_gsps");
    tut_csv_comment(csv, "ms per launch: median (min_ms, max_ms) of %d batches of back-to-back "
                         "launches of 2 ms or more; results: 32-bit multiply results per launch "
                         "(a high and a low half count one each); sample_ceiling_gsps: "
                         "gresults_per_s / %.0f, the multiply results of one Philox sample",
                    BATCHES, MULTIPLY_RESULTS_PER_SAMPLE);
    printf("== the ceilings: 32-bit integer multiplies as Philox does them (common/ceilings.h)\n");
    t->wide = tut_measure_ceiling(TUT_CEILING_INT_MUL_WIDE);
    t->lo = tut_measure_ceiling(TUT_CEILING_INT_MUL_LO);
    t->dram = tut_measure_ceiling(TUT_CEILING_DRAM_COPY);
    const tut_ceiling *measured[] = {&t->wide, &t->lo, &t->dram};
    tut_ceilings_report(measured, TUT_COUNT(measured), outdir, "ceilings.csv");
    const double sample_ceiling = t->wide.value / MULTIPLY_RESULTS_PER_SAMPLE;
    printf("  = %.0f G samples/s at %.0f multiply results per sample\n", sample_ceiling,
           MULTIPLY_RESULTS_PER_SAMPLE);
    for (int k = 0; k < 2; ++k) {
        const tut_ceiling *c = measured[k];
        char ceiling[32] = ""; /* only the pair Philox uses bounds the samples */
        if (k == 0)
            snprintf(ceiling, sizeof ceiling, "%.2f", sample_ceiling);
        char method[sizeof c->method]; /* one CSV cell: no commas */
        snprintf(method, sizeof method, "%s", c->method);
        for (char *m = method; *m; ++m)
            *m = *m == ',' ? ';' : *m;
        tut_csv_row(csv, "%s,%s,%.0f,%.4f,%.4f,%.4f,%.1f,%s", k == 0 ? "mul_hi_lo" : "mul_lo",
                    method, c->work, c->time.median_ms, c->time.min_ms, c->time.max_ms,
                    c->value, ceiling);
    }
    /* The generator's own ceilings: the samples/s of Philox alone, and with the conversion and
     * the sum, in the same loop as the fused kernel (their results: the multiplies of those
     * samples, 10 each). */
    for (int w = 0; w < MC_PHILOX_CEILING_COUNT; ++w) {
        mc_philox_job job;
        mc_philox_ceiling_create(&job, (mc_philox_work)w, PHILOX_CEILING_CALLS);
        const tut_timing tm = time_work(work_philox, &job);
        const double samples = mc_philox_ceiling_samples(&job);
        t->philox_gsps[w] = samples / (tm.median_ms * 1e-3) / 1e9;
        const char *op = w == MC_PHILOX_ONLY ? "philox" : "philox_uniform_sum";
        const char *sass = w == MC_PHILOX_ONLY ? "Philox4x32-10 only" : "Philox + shifted + FADD";
        printf("  %-18s %d blocks x %d: %.3f ms (%.3f-%.3f), %.0f G samples/s = %.1f%% of the "
               "multiply ceiling\n", op, job.blocks, MC_CEILING_THREADS, tm.median_ms, tm.min_ms,
               tm.max_ms, t->philox_gsps[w], 100.0 * t->philox_gsps[w] / sample_ceiling);
        tut_csv_row(csv, "%s,%s,%.0f,%.4f,%.4f,%.4f,%.1f,%.2f", op, sass,
                    samples * MULTIPLY_RESULTS_PER_SAMPLE, tm.median_ms, tm.min_ms, tm.max_ms,
                    t->philox_gsps[w] * MULTIPLY_RESULTS_PER_SAMPLE, t->philox_gsps[w]);
        mc_philox_ceiling_destroy(&job);
    }
    tut_csv_close(csv);
    return sample_ceiling;
}

/* The fused variant in one configuration: checked, then timed. Returns the median ms. */
static double bench_fused(table *t, const mc_problem *p, mc_uniform u, mc_generator g,
                          int blocks_per_sm, int *ok)
{
    mc_fused_job job;
    mc_fused_create(&job, p, u, g, blocks_per_sm, 0);
    mc_fused_run(&job);
    *ok &= check_run("3 fused Philox", p, job.result);
    const tut_timing tm = time_work(work_fused, &job);
    char config[48];
    snprintf(config, sizeof config, "%s %s %s %d blk/SM", mc_integrand_name(p->integrand),
             g == MC_GENERATOR_COUNTER ? "counter" : "state",
             mc_uniform_name((mc_uniform)u), mc_fused_plan(u, blocks_per_sm, p->samples)
                                                           .blocks_per_sm);
    add_row(t, "fused", config, p->samples, 0.0, tm, mul_per_sample(u));
    mc_fused_destroy(&job);
    return tm.median_ms;
}

/* 2: the library pipeline, chunk sizes from L2-resident (16 MiB at 2^22) to DRAM-sized; each
 * chunk that does not fit in free memory is skipped with a note. Returns the best median ms. */
static double bench_library(table *t, const mc_problem *p, int *ok)
{
    printf("== 2 cuRAND host (Philox) + CUB TransformReduce, %s over [%g, %g]\n",
           mc_integrand_formula(p->integrand), p->a, p->b);
    double best_ms = INFINITY;
    const int chunk_logs[] = {20, 22, 24, 26, 28};
    for (int k = 0; k < TUT_COUNT(chunk_logs); ++k) {
        const unsigned long long chunk = 1ull << chunk_logs[k];
        if (chunk > p->samples && k > 0)
            break;
        char config[48];
        snprintf(config, sizeof config, "chunk 2^%d", chunk_logs[k]);
        if (!tut_device_fits(mc_library_bytes(chunk, p->samples), (size_t)256 << 20)) {
            printf("  library %s: does not fit in this GPU's free memory, skipped\n", config);
            continue;
        }
        mc_library_job job;
        mc_library_create(&job, p, chunk);
        mc_library_run(&job);
        *ok &= check_run("2 cuRAND host + CUB", p, job.result);
        const tut_timing tm = time_work(work_library, &job);
        add_row(t, "library", config, p->samples, 0.0, tm, MULTIPLY_RESULTS_PER_SAMPLE);
        if (tm.median_ms < best_ms)
            best_ms = tm.median_ms;
        if (k == TUT_COUNT(chunk_logs) - 1 || chunk >= p->samples) {
            /* the two halves alone, on DRAM-sized chunks */
            add_row(t, "generator only", config, job.chunk, 0.0, time_work(work_generate, &job),
                    MULTIPLY_RESULTS_PER_SAMPLE);
            add_row(t, "CUB reduce only", config, job.chunk, 0.0, time_work(work_reduce, &job),
                    0.0);
        }
        mc_library_destroy(&job);
    }
    return best_ms;
}

/* 1: the faithful port, one state per sample: setup and sampling timed apart, on as many samples
 * as fit (2^24 at most). */
static void bench_states(table *t, const mc_problem *p, int *ok)
{
    printf("== 1 curand states (XORWOW), one per sample\n");
    unsigned long long ns = mc_states_bench_samples(tut_device_free_bytes(), (size_t)256 << 20);
    if (ns > p->samples)
        ns = p->samples;
    if (ns == 0) {
        printf("  states: 2^16 states do not fit in this GPU's free memory, skipped\n");
        return;
    }
    if (ns < (1ull << 24) && ns < p->samples)
        printf("  states: 2^24 states do not fit in this GPU's free memory: %llu\n", ns);
    mc_problem q = *p;
    q.samples = ns;
    mc_states_job job;
    mc_states_create(&job, &q);
    const tut_timing setup = time_work(work_setup, &job);
    mc_states_setup(&job);
    mc_states_sample(&job);
    *ok &= check_run("1 curand states", &q, job.result);
    const tut_timing sample = time_work(work_sample, &job);
    add_row(t, "states", "sample + reduce", ns, setup.median_ms, sample, 0.0); /* XORWOW */
    tut_timing both = sample;
    both.median_ms += setup.median_ms;
    both.min_ms += setup.min_ms;
    both.max_ms += setup.max_ms;
    add_row(t, "states", "setup + sample + reduce", ns, 0.0, both, 0.0);
    mc_states_destroy(&job);
}

/* The roofline (ceilings.h): each kernel's multiply results against the bytes it moves, under
 * the DRAM copy and the multiply ceilings of this run. The library pipeline writes and reads
 * back 4 bytes per sample; the fused kernel writes one pair per block; the generator's own
 * ceilings are points too (their bytes: one word per thread). */
static void write_roofline(const table *t, const char *outdir, unsigned long long n,
                           double fused_ms, long long fused_blocks, double fused_mul,
                           double library_ms)
{
    tut_csv *csv = tut_roofline_csv_open(outdir, "roofline.csv");
    tut_csv_comment(csv, "%llu samples of the benchmark's integrand; ops: multiply results, %.0f "
                         "per sample (a high and a low half count one each; the best fused "
                         "kernel: %.4g); bytes: DRAM traffic",
                    n, MULTIPLY_RESULTS_PER_SAMPLE, fused_mul);
    const double ops = MULTIPLY_RESULTS_PER_SAMPLE * (double)n;
    const tut_roofline_point points[] = {
        {.kernel = "fused (best)", .bytes = 16.0 * (double)fused_blocks,
         .ops = fused_mul * (double)n,
         .op_unit = "mul", .seconds = fused_ms * 1e-3, .memory = &t->dram, .compute = &t->wide},
        {.kernel = "philox + conversion + sum", .bytes = 4.0 * (double)n / 4096.0, .ops = ops,
         .op_unit = "mul", .seconds = (double)n / (t->philox_gsps[MC_PHILOX_UNIFORM_SUM] * 1e9),
         .memory = &t->dram, .compute = &t->wide},
        {.kernel = "philox alone", .bytes = 4.0 * (double)n / 4096.0, .ops = ops,
         .op_unit = "mul", .seconds = (double)n / (t->philox_gsps[MC_PHILOX_ONLY] * 1e9),
         .memory = &t->dram, .compute = &t->wide},
        {.kernel = "cuRAND host + CUB (best chunk)", .bytes = 8.0 * (double)n, .ops = ops,
         .op_unit = "mul", .seconds = library_ms * 1e-3, .memory = &t->dram,
         .compute = &t->wide},
    };
    printf("== roofline (ops: multiply results, %.0f per sample; the best fused kernel %.4g)\n",
           MULTIPLY_RESULTS_PER_SAMPLE, fused_mul);
    for (int k = 0; k < TUT_COUNT(points); ++k) {
        tut_roofline_csv_row(csv, &points[k]);
        printf("  %-32s ", points[k].kernel);
        tut_roofline_print(&points[k]);
    }
    tut_csv_close(csv);
}

int bench(const options *o)
{
    const unsigned long long n = o->samples ? o->samples : 1ull << 32;
    const mc_integrand f = (mc_integrand)o->integrand;
    const mc_problem p = {f, o->a, o->b, n, o->seed};
    const tut_device_info *dev = tut_current_device();
    const char *gpu = dev->emulated[0] ? dev->emulated : "this GPU";
    table t;
    t.count = 0;
    int ok = 1;

    /* 0: the ceiling first, so every row can say how close it comes. */
    t.ceiling_gsps = measure_ceiling(&t, o->outdir);
    t.csv = tut_csv_open(o->outdir, "throughput.csv",
                         "variant,config,samples,setup_ms,ms,min_ms,max_ms,gsps,of_ceiling,"
                         "of_philox,of_philox_sum,mul_per_sample");
    tut_csv_comment(t.csv, "ms per run: median (min_ms, max_ms) of %d batches of back-to-back "
                           "runs of 2 ms or more, after warm-up; gsps from the median; "
                           "of_ceiling: multiply results/s (gsps x mul_per_sample) / the multiply "
                           "ceiling's; of_philox, of_philox_sum: gsps / the samples/s of Philox "
                           "alone, of Philox + conversion + sum, four samples a Philox call "
                           "(multiply_ceiling.csv); mul_per_sample: Philox's multiply results a "
                           "sample, 10, or 8.008 where a call gives five (packed; a 1024-sample "
                           "stream's last call gives four), empty where there are none (XORWOW, "
                           "CUB alone)",
                    BATCHES);

    const double best_library_ms = bench_library(&t, &p, &ok);

    /* 3: the fused kernel, both generators and conversions, 1, 2, 3, 4 and the most blocks per SM
     * that fit (mc_config.c); the entries that do not fit are noted and skipped. Packed has a
     * kernel of its own, so its own most. */
    double best_fused_ms = INFINITY, state_curand_ms = INFINITY;
    int best_u = 0, best_g = 0, best_bps = 0;
    for (int g = 0; g < MC_GENERATOR_COUNT; ++g) {
        for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
            if (u == MC_UNIFORM_PACKED && g != MC_GENERATOR_COUNTER)
                continue; /* packed: counter only */
            const mc_launch most = mc_fused_plan((mc_uniform)u, 0, n);
            if (g == 0 && u == 0)
                printf("== 3 fused Philox (at most %d blocks of %d threads per SM of %s, limited "
                       "by %s)\n", most.blocks_per_sm, MC_FUSED_THREADS, gpu, most.limiter);
            else if (u == MC_UNIFORM_PACKED)
                printf("  packed, a kernel of its own: at most %d blocks per SM (limited by %s)\n",
                       most.blocks_per_sm, most.limiter);
            int sweep[5], skipped = 0;
            const int entries = mc_fused_sweep(most.blocks_per_sm, sweep, &skipped);
            if (skipped && ((g == 0 && u == 0) || u == MC_UNIFORM_PACKED))
                printf("  %d of the sweep's 1, 2, 3, 4 blocks per SM do not fit an SM of %s%s: "
                       "skipped\n", skipped, gpu, u == MC_UNIFORM_PACKED ? " (packed)" : "");
            for (int k = 0; k < entries; ++k) {
                const double ms =
                    bench_fused(&t, &p, (mc_uniform)u, (mc_generator)g, sweep[k], &ok);
                if (g == 0 && u == 0 && ms < state_curand_ms)
                    state_curand_ms = ms;
                if (ms < best_fused_ms) {
                    best_fused_ms = ms;
                    best_u = u;
                    best_g = g;
                    best_bps = sweep[k];
                }
            }
        }
    }
    printf("== 3 fused, every integrand, and 4x the samples\n");
    /* Not MC_ONE: f = 1 ignores the uniforms, so the compiler drops the generator entirely.
     * Not f either: the sweep above measured it (each row of throughput.csv is one case). */
    for (int i = 0; i < MC_ONE; ++i) {
        if (i == (int)f)
            continue;
        mc_problem q = {(mc_integrand)i, 0, 0, n, o->seed};
        default_range(q.integrand, &q.a, &q.b);
        for (int g = 0; g < MC_GENERATOR_COUNT; ++g)
            for (int u = 0; u < MC_UNIFORM_COUNT; ++u)
                if (u != MC_UNIFORM_PACKED || g == MC_GENERATOR_COUNTER)
                    bench_fused(&t, &q, (mc_uniform)u, (mc_generator)g, best_bps, &ok);
    }
    if (n <= (1ull << 62)) {
        mc_problem q = p;
        q.samples = 4 * n;
        bench_fused(&t, &q, (mc_uniform)best_u, (mc_generator)best_g, best_bps, &ok);
    }

    bench_states(&t, &p, &ok);
    tut_csv_close(t.csv);

    /* Convergence: |error| against n, three seeds each, with the error bar. */
    printf("== convergence: fused, %s over [%g, %g]\n", mc_integrand_formula(f), p.a, p.b);
    tut_csv *conv = tut_csv_open(o->outdir, "convergence.csv",
                                 "samples,seed,estimate,abs_error,std_error");
    const double exact = mc_exact(f, p.a, p.b);
    for (int lg = 10; lg <= 34; lg += 2) {
        for (unsigned long long s = 0; s < 3; ++s) {
            const mc_problem q = {f, p.a, p.b, 1ull << lg, o->seed + s};
            mc_fused_job job;
            mc_fused_create(&job, &q, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0, 0);
            mc_fused_run(&job);
            const mc_sums sums = mc_read_sums(job.result, q.samples);
            mc_fused_destroy(&job);
            const mc_result r = mc_finish(&sums, q.a, q.b);
            tut_csv_row(conv, "%llu,%llu,%.12f,%.6e,%.6e", q.samples, q.seed, r.estimate,
                        fabs(r.estimate - exact), r.std_error);
            if (s == 0)
                printf("  n=2^%-2d estimate %.12f  |error| %.3e  standard error %.3e\n", lg,
                       r.estimate, fabs(r.estimate - exact), r.std_error);
        }
    }
    tut_csv_close(conv);

    printf("\n== summary (%s, %s over [%g, %g])\n", dev->name, mc_integrand_formula(f), p.a,
           p.b);
    printf("%-16s %-26s %14s %10s %21s %12s %8s\n", "variant", "config", "samples", "ms",
           "(min-max)", "G samples/s", "ceiling");
    for (int i = 0; i < t.count; ++i) {
        const row *r = &t.rows[i];
        char ceiling[16] = "       -";
        if (r->mul_per_sample > 0)
            snprintf(ceiling, sizeof ceiling, "%7.0f%%", 100.0 * of_ceiling(&t, r));
        printf("%-16s %-26s %14llu %10.3f (%8.3f-%8.3f) %12.2f %s\n", r->variant, r->config,
               r->samples, r->t.median_ms, r->t.min_ms, r->t.max_ms, r->gsps, ceiling);
    }
    /* The chapter's story in a few bars (plots/throughput.gp). */
    tut_csv *summary = tut_csv_open(o->outdir, "summary.csv", "label,gsps");
    tut_csv_row(summary, "multiply ceiling (measured; 10 multiplies a sample),%.2f",
                t.ceiling_gsps);
    for (int i = 0; i < t.count; ++i) {
        const row *r = &t.rows[i];
        const double ms = r->t.median_ms;
        const int fused_state = !strcmp(r->variant, "fused") && r->samples == n &&
                                strstr(r->config, "state curand") != NULL;
        if (!strcmp(r->variant, "states") || !strcmp(r->variant, "generator only") ||
            !strcmp(r->variant, "CUB reduce only") ||
            (!strcmp(r->variant, "library") && ms == best_library_ms) ||
            (fused_state && ms == state_curand_ms) ||
            (!strcmp(r->variant, "fused") && r->samples == n && ms == best_fused_ms &&
             !fused_state))
            tut_csv_row(summary, "%s %s,%.2f", r->variant, r->config, r->gsps);
    }
    tut_csv_close(summary);
    const double best_gsps = (double)n / best_fused_ms / 1e6;
    printf("multiply ceiling (Philox's multiplies alone, measured): %.2f G samples/s\n",
           t.ceiling_gsps);
    printf("library pipeline, best chunk: %.2f G samples/s\n", (double)n / best_library_ms / 1e6);
    printf("fused, cuRAND state API + curand_uniform4: %.2f G samples/s = %.2fx the library\n",
           (double)n / state_curand_ms / 1e6, best_library_ms / state_curand_ms);
    const double best_mul = mul_per_sample((mc_uniform)best_u);
    const long long best_blocks = mc_fused_plan((mc_uniform)best_u, best_bps, n).blocks;
    const double model_ms =
        (double)n * best_mul / (t.ceiling_gsps * MULTIPLY_RESULTS_PER_SAMPLE) * 1e-6;
    printf("fused, best (%s, %s, %d blocks/SM): %.2f G samples/s = %.2fx the library = %.1f%% of "
           "Philox alone's samples/s; %.4g multiply results a sample: %.0f%% of the multiply "
           "ceiling\n",
           best_g ? "counter" : "state", mc_uniform_name((mc_uniform)best_u), best_bps, best_gsps,
           best_library_ms / best_fused_ms, 100.0 * best_gsps / t.philox_gsps[MC_PHILOX_ONLY],
           best_mul, 100.0 * model_ms / best_fused_ms);
    /* Predict, then measure: the multiplies alone at the measured rate, and the generator's
     * own loop (Philox + conversion + sum), against the fused kernel's time. */
    printf("model: %llu samples x %.4g multiply results / %.0f G results/s = %.3f ms; Philox + "
           "conversion + sum alone: %.3f ms; measured %.3f ms (%.0f%%, %.0f%% of those)\n", n,
           best_mul, t.ceiling_gsps * MULTIPLY_RESULTS_PER_SAMPLE, model_ms,
           (double)n / t.philox_gsps[MC_PHILOX_UNIFORM_SUM] * 1e-6, best_fused_ms,
           100.0 * model_ms / best_fused_ms,
           100.0 * best_gsps / t.philox_gsps[MC_PHILOX_UNIFORM_SUM]);
    write_roofline(&t, o->outdir, n, best_fused_ms, best_blocks, best_mul, best_library_ms);
    return ok;
}
