/* The benchmark: samples per second of every variant, each checked before it is timed, against
 * the library pipeline and the cuRAND generator alone measured in the same run; then the
 * convergence of the error with n. CSVs: throughput.csv, convergence.csv. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tutorial.h"

#include "driver.h"
#include "variants.h"

#define TABLE_ROWS 64

typedef struct {
    char variant[32], config[48];
    unsigned long long samples;
    double setup_ms, ms, gsps;
} row;

typedef struct {
    row rows[TABLE_ROWS];
    int count;
    tut_csv *csv;
} table;

static void add_row(table *t, const char *variant, const char *config, unsigned long long n,
                    double setup_ms, double ms)
{
    row *r = &t->rows[t->count < TABLE_ROWS ? t->count++ : TABLE_ROWS - 1];
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->config, sizeof r->config, "%s", config);
    r->samples = n;
    r->setup_ms = setup_ms;
    r->ms = ms;
    r->gsps = (double)n / (ms * 1e-3) / 1e9;
    tut_csv_row(t->csv, "%s,%s,%llu,%.4f,%.4f,%.2f", variant, config, n, setup_ms, ms, r->gsps);
    printf("  %-16s %-26s n=%-12llu %10.3f ms %9.2f G samples/s", variant, config, n, ms,
           r->gsps);
    if (setup_ms > 0)
        printf("  (setup %.3f ms)", setup_ms);
    printf("\n");
}

static void work_fused(void *job) { mc_fused_run((mc_fused_job *)job); }
static void work_library(void *job) { mc_library_run((mc_library_job *)job); }
static void work_generate(void *job) { mc_library_generate_only((mc_library_job *)job); }
static void work_reduce(void *job) { mc_library_reduce_only((mc_library_job *)job); }
static void work_setup(void *job) { mc_states_setup((mc_states_job *)job); }
static void work_sample(void *job) { mc_states_sample((mc_states_job *)job); }

static int check_run(const char *label, const mc_problem *p, const double2 *result)
{
    const mc_sums s = mc_read_sums(result, p->samples);
    return mc_report(label, p, &s, MAX_SIGMAS);
}

/* The fused variant in one configuration: checked, then timed. Returns the median ms. */
static double bench_fused(table *t, const mc_problem *p, mc_uniform u, mc_generator g,
                          int blocks_per_sm, int *ok)
{
    mc_fused_job job;
    mc_fused_create(&job, p, u, g, blocks_per_sm);
    mc_fused_run(&job);
    *ok &= check_run("3 fused Philox", p, job.result);
    const tut_timing tm = tut_time_gpu(work_fused, &job, 2, 10);
    char config[48];
    snprintf(config, sizeof config, "%s %s %s %d blk/SM", mc_integrand_name(p->integrand),
             g == MC_GENERATOR_COUNTER ? "counter" : "state",
             u == MC_UNIFORM_BITS ? "bits" : "curand", job.blocks / tut_current_device()->sm_count);
    add_row(t, "fused", config, p->samples, 0.0, tm.median_ms);
    mc_fused_destroy(&job);
    return tm.median_ms;
}

int bench(const options *o)
{
    const unsigned long long n = o->samples ? o->samples : 1ull << 32;
    const mc_integrand f = (mc_integrand)o->integrand;
    const mc_problem p = {f, o->a, o->b, n, o->seed};
    table t;
    t.count = 0;
    t.csv = tut_csv_open(o->outdir, "throughput.csv", "variant,config,samples,setup_ms,ms,gsps");
    int ok = 1;

    /* 2: the library pipeline, chunk sizes from L2-resident (16 MiB at 2^22) to DRAM-sized. */
    printf("== 2 cuRAND host (Philox) + CUB TransformReduce, %s over [%g, %g]\n",
           mc_integrand_formula(f), p.a, p.b);
    double best_library_ms = INFINITY;
    const int chunk_logs[] = {20, 22, 24, 26, 28};
    for (int k = 0; k < 5; ++k) {
        const unsigned long long chunk = 1ull << chunk_logs[k];
        if (chunk > n && k > 0)
            break;
        mc_library_job job;
        mc_library_create(&job, &p, chunk);
        mc_library_run(&job);
        ok &= check_run("2 cuRAND host + CUB", &p, job.result);
        const tut_timing tm = tut_time_gpu(work_library, &job, 1, 5);
        char config[48];
        snprintf(config, sizeof config, "chunk 2^%d", chunk_logs[k]);
        add_row(&t, "library", config, n, 0.0, tm.median_ms);
        if (tm.median_ms < best_library_ms)
            best_library_ms = tm.median_ms;
        if (k == 4 || chunk >= n) { /* the two halves alone, on DRAM-sized chunks */
            const tut_timing g = tut_time_gpu(work_generate, &job, 2, 10);
            add_row(&t, "generator only", config, job.chunk, 0.0, g.median_ms);
            const tut_timing r = tut_time_gpu(work_reduce, &job, 2, 10);
            add_row(&t, "CUB reduce only", config, job.chunk, 0.0, r.median_ms);
        }
        mc_library_destroy(&job);
    }

    /* 3: the fused kernel, both conversions, several grid sizes. */
    printf("== 3 fused Philox (max %d blocks of %d threads per SM)\n",
           mc_fused_max_blocks_per_sm(), MC_FUSED_THREADS);
    double best_fused_ms = INFINITY, state_curand_ms = INFINITY;
    int best_u = 0, best_g = 0, best_bps = 0;
    const int max_bps = mc_fused_max_blocks_per_sm();
    const int bps_list[] = {1, 2, 4, max_bps};
    for (int g = 0; g < MC_GENERATOR_COUNT; ++g) {
        for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
            for (int k = 0; k < 4; ++k) {
                if (bps_list[k] > max_bps || (k < 3 && bps_list[k] == max_bps))
                    continue;
                const double ms =
                    bench_fused(&t, &p, (mc_uniform)u, (mc_generator)g, bps_list[k], &ok);
                if (g == 0 && u == 0 && ms < state_curand_ms)
                    state_curand_ms = ms;
                if (ms < best_fused_ms) {
                    best_fused_ms = ms;
                    best_u = u;
                    best_g = g;
                    best_bps = bps_list[k];
                }
            }
        }
    }
    printf("== 3 fused, every integrand, and 4x the samples\n");
    /* Not MC_ONE: f = 1 ignores the uniforms, so the compiler drops the generator entirely. */
    for (int i = 0; i < MC_ONE; ++i) {
        mc_problem q = {(mc_integrand)i, 0, 0, n, o->seed};
        default_range(q.integrand, &q.a, &q.b);
        for (int g = 0; g < MC_GENERATOR_COUNT; ++g)
            for (int u = 0; u < MC_UNIFORM_COUNT; ++u)
                bench_fused(&t, &q, (mc_uniform)u, (mc_generator)g, best_bps, &ok);
    }
    if (n <= (1ull << 62)) {
        mc_problem q = p;
        q.samples = 4 * n;
        bench_fused(&t, &q, (mc_uniform)best_u, (mc_generator)best_g, best_bps, &ok);
    }

    /* 1: the faithful port, one state per sample: setup and sampling timed apart. */
    const unsigned long long ns = n < (1ull << 24) ? n : 1ull << 24;
    printf("== 1 curand states (XORWOW), one per sample\n");
    if (tut_device_fits(mc_states_bytes(ns), (size_t)256 << 20)) {
        mc_problem q = p;
        q.samples = ns;
        mc_states_job job;
        mc_states_create(&job, &q);
        const tut_timing setup = tut_time_gpu(work_setup, &job, 1, 3);
        mc_states_setup(&job);
        mc_states_sample(&job);
        ok &= check_run("1 curand states", &q, job.result);
        const tut_timing sample = tut_time_gpu(work_sample, &job, 2, 10);
        add_row(&t, "states", "sample + reduce", ns, setup.median_ms, sample.median_ms);
        add_row(&t, "states", "setup + sample + reduce", ns, 0.0,
                setup.median_ms + sample.median_ms);
        mc_states_destroy(&job);
    }
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
            mc_fused_create(&job, &q, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0);
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

    printf("\n== summary (%s, %s over [%g, %g])\n", tut_current_device()->name,
           mc_integrand_formula(f), p.a, p.b);
    printf("%-16s %-26s %14s %10s %12s\n", "variant", "config", "samples", "ms", "G samples/s");
    for (int i = 0; i < t.count; ++i)
        printf("%-16s %-26s %14llu %10.3f %12.2f\n", t.rows[i].variant, t.rows[i].config,
               t.rows[i].samples, t.rows[i].ms, t.rows[i].gsps);
    /* The chapter's story in a few bars (plots/throughput.gp). */
    tut_csv *summary = tut_csv_open(o->outdir, "summary.csv", "label,gsps");
    for (int i = 0; i < t.count; ++i) {
        const row *r = &t.rows[i];
        const int fused_state = !strcmp(r->variant, "fused") && r->samples == n &&
                                strstr(r->config, "inv state curand") != NULL;
        if (!strcmp(r->variant, "states") || !strcmp(r->variant, "generator only") ||
            !strcmp(r->variant, "CUB reduce only") ||
            (!strcmp(r->variant, "library") && r->ms == best_library_ms) ||
            (fused_state && r->ms == state_curand_ms) ||
            (!strcmp(r->variant, "fused") && r->samples == n && r->ms == best_fused_ms &&
             !fused_state))
            tut_csv_row(summary, "%s %s,%.2f", r->variant, r->config, r->gsps);
    }
    tut_csv_close(summary);
    printf("library pipeline, best chunk: %.2f G samples/s\n", (double)n / best_library_ms / 1e6);
    printf("fused, cuRAND state API + curand_uniform4: %.2f G samples/s = %.2fx the library\n",
           (double)n / state_curand_ms / 1e6, best_library_ms / state_curand_ms);
    printf("fused, best (%s, %s, %d blocks/SM): %.2f G samples/s = %.2fx the library\n",
           best_g ? "counter" : "state", best_u ? "bits" : "curand", best_bps,
           (double)n / best_fused_ms / 1e6, best_library_ms / best_fused_ms);
    return ok;
}
