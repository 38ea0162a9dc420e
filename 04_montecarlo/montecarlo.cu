/* Monte Carlo integration on the GPU: the document's mc_integrate (1/x over [1, 2] and [2, 3],
 * 10^6 samples) in three variants, checked against the exact integrals within their error bars.
 *
 *   montecarlo                           the document's example, every variant
 *   montecarlo --integrand sin --a 0 --b 3.14159 --samples 2^30 --variant fused
 *   montecarlo --check                   the self-test (every integrand, odd sizes, CPU replay)
 *   montecarlo --bench --outdir DIR      samples/s of every variant, convergence; CSVs in DIR
 *
 * Exit codes: 0 pass, 1 wrong result, 2 bad option, 77 no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

#include "driver.h"
#include "philox_host.h"
#include "variants.h"

#define DEMO_SAMPLES 1000000ull /* a plain run's default --samples */

/* ---- running one variant once: create, run, read, destroy */
static int states_fit(unsigned long long n)
{
    return tut_device_fits(mc_states_bytes(n), (size_t)256 << 20);
}

static size_t stream_count_checked(unsigned long long n)
{
    return tut_bytes(mc_stream_count(n), sizeof(mc_pair), "stream sums") / sizeof(mc_pair);
}

static mc_sums run_states(const mc_problem *p)
{
    mc_states_job job;
    mc_states_create(&job, p);
    mc_states_setup(&job);
    mc_states_sample(&job);
    const mc_sums s = mc_read_sums(job.result, p->samples);
    mc_states_destroy(&job);
    return s;
}

static mc_sums run_library(const mc_problem *p, unsigned long long chunk)
{
    mc_library_job job;
    mc_library_create(&job, p, chunk);
    mc_library_run(&job);
    const mc_sums s = mc_read_sums(job.result, p->samples);
    mc_library_destroy(&job);
    return s;
}

static mc_sums run_fused(const mc_problem *p, mc_uniform uniform, mc_generator generator,
                         int blocks_per_sm)
{
    mc_fused_job job;
    mc_fused_create(&job, p, uniform, generator, blocks_per_sm, 0);
    mc_fused_run(&job);
    const mc_sums s = mc_read_sums(job.result, p->samples);
    mc_fused_destroy(&job);
    return s;
}

/* The fused variant keeping every stream's pair: into streams[] (mc_stream_count entries), with
 * at most max_blocks blocks (0: the full grid), so that threads loop over streams. */
static mc_sums run_fused_streams(const mc_problem *p, mc_uniform uniform, mc_generator generator,
                                 int max_blocks, mc_pair *streams)
{
    mc_fused_job job;
    mc_fused_create(&job, p, uniform, generator, 0, 1);
    if (max_blocks > 0 && job.blocks > max_blocks)
        job.blocks = max_blocks;
    mc_fused_run(&job);
    const mc_sums s = mc_read_sums(job.result, p->samples);
    mc_read_streams(&job, streams);
    mc_fused_destroy(&job);
    return s;
}

/* Every selected variant on one problem; 1 if all are within MAX_SIGMAS. */
static int run_selected(const options *o, const mc_problem *p)
{
    int ok = 1;
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_STATES) {
        if (states_fit(p->samples)) {
            const mc_sums s = run_states(p);
            ok &= mc_report("1 curand states", p, &s, MAX_SIGMAS);
        } else if (o->variant == VARIANT_STATES) {
            fprintf(stderr, "--samples %llu: one curand state per sample does not fit in GPU "
                            "memory; use fewer samples or another variant\n", p->samples);
            exit(2);
        } else {
            printf("1 curand states: %llu states do not fit in GPU memory, skipped\n",
                   p->samples);
        }
    }
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_LIBRARY) {
        const mc_sums s = run_library(p, o->chunk);
        ok &= mc_report("2 cuRAND host + CUB", p, &s, MAX_SIGMAS);
    }
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_FUSED) {
        const mc_sums s = run_fused(p, (mc_uniform)o->uniform, (mc_generator)o->generator,
                                    (int)o->blocks_per_sm);
        ok &= mc_report("3 fused Philox", p, &s, MAX_SIGMAS);
    }
    return ok;
}

/* ---- the document's example (or the one problem the options describe) */
static int demo(const options *o, int range_given)
{
    const unsigned long long n = o->samples ? o->samples : DEMO_SAMPLES;
    if (range_given || o->integrand != MC_INV) {
        const mc_problem p = {(mc_integrand)o->integrand, o->a, o->b, n, o->seed};
        return run_selected(o, &p);
    }
    printf("The document's example: the integral of 1/x over [1, 2] and [2, 3] from %llu "
           "samples.\nThe Numba original printed 0.6929643 and 0.4054021 (its generator, "
           "its seed 42).\n",
           n);
    const mc_problem p12 = {MC_INV, 1.0, 2.0, n, o->seed}, p23 = {MC_INV, 2.0, 3.0, n, o->seed};
    int ok = run_selected(o, &p12);
    ok &= run_selected(o, &p23);
    return ok;
}

/* ---- the self-test */
static int same_bits(const char *label, mc_sums x, mc_sums y)
{
    const int ok = memcmp(&x, &y, sizeof x) == 0;
    printf("%-34s %.17g / %.17g %s\n", label, x.sum, y.sum, ok ? "identical" : "DIFFER");
    return ok;
}

static int exact_count(const char *label, unsigned long long n, mc_sums s)
{
    const int ok = s.sum == (double)n && s.sum_sq == (double)n;
    if (!ok)
        printf("  %s n=%llu: sum f = %.17g, sum f^2 = %.17g, want exactly %llu  FAIL\n", label, n,
               s.sum, s.sum_sq, n);
    return ok;
}

/* The fused variant with a grid of only `blocks` blocks, so each thread loops over streams. */
static mc_sums run_fused_small_grid(const mc_problem *p, mc_uniform uniform,
                                    mc_generator generator, int blocks)
{
    mc_fused_job job;
    mc_fused_create(&job, p, uniform, generator, 0, 0);
    if (job.blocks > blocks)
        job.blocks = blocks;
    mc_fused_run(&job);
    const mc_sums s = mc_read_sums(job.result, p->samples);
    mc_fused_destroy(&job);
    return s;
}

/* Prints one line: how many streams match, the largest difference and the tolerance. */
static int report_streams(const char *label, const mc_pair *gpu, const mc_pair *want,
                          const mc_pair *tol, unsigned long long count)
{
    const mc_stream_check c = mc_compare_streams(gpu, want, tol, count);
    printf("  %-30s %llu streams: max |diff| %.3g (tolerance %s%.3g) %s\n", label, c.streams,
           c.max_diff, c.max_tol > 0 ? "up to " : "", c.max_tol,
           c.mismatches == 0 ? (c.max_tol > 0 ? "ok" : "ok, identical") : "FAIL");
    if (c.mismatches > 0) {
        const unsigned long long s = c.first_bad;
        printf("    %llu streams differ; first: stream %llu, sum f %.17g (want %.17g +- %.3g), "
               "sum f^2 %.17g (want %.17g +- %.3g)\n", c.mismatches, s, gpu[s].sum, want[s].sum,
               tol[s].sum, gpu[s].sum_sq, want[s].sum_sq, tol[s].sum_sq);
    }
    return c.mismatches == 0;
}

/* The total a run returned against the streams it added up: float64 rounding only. */
static int report_total(const char *label, mc_sums total, const mc_pair *streams,
                        unsigned long long count)
{
    const int ok = mc_total_matches_streams(total.sum, streams, count, 0) &&
                   mc_total_matches_streams(total.sum_sq, streams, count, 1);
    if (!ok)
        printf("  %-30s the total %.17g is not the sum of its streams  FAIL\n", label,
               total.sum);
    return ok;
}

/* The fused kernel's streams against the CPU replay's (philox_host.c): the same Philox numbers
 * and float operations, so each stream's pair must be identical where the GPU's f is exact
 * (x^2, the circle, 1) and within a bound that follows every float rounding where it is not
 * (1/x, sin: MC_EVAL_ULPS, MC_SIN_ABS_ERROR). A stream drawn twice or a sample dropped moves a
 * stream's sum by hundreds of times that bound (mc_cpu_test replay_power shows it for these
 * very problems). Then the other generator and a 3-block grid, which must give the same streams
 * bit for bit, and every total, which must be its streams' sum. */
static int check_replay(const mc_problem *p, mc_uniform u)
{
    const unsigned long long count = stream_count_checked(p->samples);
    mc_pair *want = (mc_pair *)tut_host_alloc(count * sizeof *want, "replay streams");
    mc_pair *tol = (mc_pair *)tut_host_alloc(count * sizeof *tol, "replay tolerances");
    mc_pair *gpu = (mc_pair *)tut_host_alloc(count * sizeof *gpu, "GPU streams");
    mc_pair *other = (mc_pair *)tut_host_alloc(count * sizeof *other, "GPU streams");
    mc_pair *zero = (mc_pair *)tut_host_alloc(count * sizeof *zero, "no tolerance");
    memset(zero, 0, count * sizeof *zero);
    mc_replay_streams(p, u, want, tol);
    char label[96];
    snprintf(label, sizeof label, "replay %s %s:", mc_integrand_name(p->integrand),
             mc_uniform_name((mc_uniform)u));
    /* packed runs on the counter generator only: its streams are checked against the replay,
     * then on the 3-block grid; the others' state-API streams first, then the counter's */
    const int packed = u == MC_UNIFORM_PACKED;
    const mc_sums full =
        run_fused_streams(p, u, packed ? MC_GENERATOR_COUNTER : MC_GENERATOR_STATE, 0, gpu);
    int ok = report_streams(label, gpu, want, tol, count);
    ok &= report_total(label, full, gpu, count);
    if (!packed) {
        const mc_sums counter = run_fused_streams(p, u, MC_GENERATOR_COUNTER, 0, other);
        ok &= report_streams("  counter generator, same bits:", other, gpu, zero, count);
        ok &= report_total("  counter generator", counter, other, count);
    }
    const mc_sums small = run_fused_streams(p, u, MC_GENERATOR_COUNTER, 3, other);
    ok &= report_streams("  3-block grid, same bits:", other, gpu, zero, count);
    ok &= report_total("  3-block grid", small, other, count);
    free(zero);
    free(other);
    free(gpu);
    free(tol);
    free(want);
    return ok;
}

static int check_all(const options *o)
{
    const unsigned long long n = o->samples ? o->samples : 1ull << 24;
    const int big = n >= (1ull << 20);
    /* A second range per integrand, away from the defaults, so a and b are really used. */
    const double other[MC_INTEGRAND_COUNT][2] = {
        {2.0, 3.0}, {-1.0, 2.0}, {-1.0, 3.0}, {-0.5, 0.9}, {-3.0, 7.5}};
    int ok = 1;

    printf("== every integrand and variant, n = %llu, seed %llu: within %.0f standard errors\n",
           n, o->seed, MAX_SIGMAS);
    for (int i = 0; i < MC_INTEGRAND_COUNT; ++i) {
        for (int r = 0; r < 2; ++r) {
            mc_problem p = {(mc_integrand)i, other[i][0], other[i][1], n, o->seed};
            if (r == 0)
                default_range(p.integrand, &p.a, &p.b);
            ok &= run_selected(o, &p);
            if (r == 0) {
                p.samples = n < (1ull << 22) ? n : 1ull << 22; /* the CPU is slower */
                const mc_sums cpu = mc_cpu_sums(&p);
                ok &= mc_report("0 CPU xoshiro256**", &p, &cpu, MAX_SIGMAS);
            }
        }
    }

    printf("== sample counts: with f = 1, sum f must be exactly n\n");
    const unsigned long long counts[] = {2, 3, 5, 1023, 1025, 4097, 65537, 1000003};
    const int ncounts = big ? 8 : 6; /* small: for the sanitizers, which run ~100x slower */
    int counted = 1;
    for (int k = 0; k < ncounts; ++k) {
        const mc_problem p = {MC_ONE, 0.0, 1.0, counts[k], o->seed};
        if (o->variant == VARIANT_ALL || o->variant == VARIANT_STATES)
            counted &= exact_count("1 curand states", p.samples, run_states(&p));
        if (o->variant == VARIANT_ALL || o->variant == VARIANT_LIBRARY)
            counted &= exact_count("2 cuRAND host + CUB", p.samples, run_library(&p, 1000));
        if (o->variant == VARIANT_ALL || o->variant == VARIANT_FUSED) {
            for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
                for (int g = 0; g < MC_GENERATOR_COUNT; ++g) {
                    if (u == MC_UNIFORM_PACKED && g != MC_GENERATOR_COUNTER)
                        continue; /* packed: counter only */
                    counted &= exact_count("3 fused Philox", p.samples,
                                           run_fused(&p, (mc_uniform)u, (mc_generator)g, 0));
                    counted &= exact_count(
                        "3 fused, 3 blocks", p.samples,
                        run_fused_small_grid(&p, (mc_uniform)u, (mc_generator)g, 3));
                }
            }
        }
    }
    printf("sample counts at %d sizes from 2 to %llu (chunks of 1000 for cuRAND + CUB): %s\n",
           ncounts, counts[ncounts - 1], counted ? "all exact" : "FAIL");
    ok &= counted;

    if (o->variant == VARIANT_ALL || o->variant == VARIANT_FUSED) {
        const unsigned long long nr = big ? 1000003 : 65537;
        printf("== the fused variant, stream by stream, against a CPU replay of its Philox "
               "streams, n = %llu\n", nr);
        for (int i = 0; i < MC_INTEGRAND_COUNT; ++i)
            for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
                const mc_problem p = {(mc_integrand)i, other[i][0], other[i][1], nr, o->seed};
                ok &= check_replay(&p, (mc_uniform)u);
            }
    }

    printf("== the same seed twice gives the same bits\n");
    const mc_problem p = {MC_INV, 1.0, 2.0, big ? 1000003ull : 4099ull, o->seed};
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_STATES)
        ok &= same_bits("1 curand states", run_states(&p), run_states(&p));
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_LIBRARY)
        ok &= same_bits("2 cuRAND host + CUB", run_library(&p, o->chunk),
                        run_library(&p, o->chunk));
    if (o->variant == VARIANT_ALL || o->variant == VARIANT_FUSED) {
        const mc_sums first = run_fused(&p, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0);
        ok &= same_bits("3 fused Philox", first,
                        run_fused(&p, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0));
        mc_problem q = p;
        q.seed = p.seed + 1;
        const mc_sums other_seed = run_fused(&q, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0);
        const int differs = other_seed.sum != first.sum;
        printf("%-34s %s\n", "3 fused, seed + 1", differs ? "differs, as it should" : "SAME: FAIL");
        ok &= differs;
    }
    return ok;
}

/* The fused kernel's grid on this GPU (or the one TUT_EMULATE_GPU names), and what replaced a
 * --blocks-per-sm that does not fit. */
static void print_fused_plan(const options *o)
{
    const tut_device_info *dev = tut_current_device();
    const char *gpu = dev->emulated[0] ? dev->emulated : "this GPU";
    const mc_uniform u = (mc_uniform)o->uniform;
    const mc_launch most = mc_fused_plan(u, 0, 1ull << 40);
    if (o->blocks_per_sm > (unsigned long long)most.blocks_per_sm)
        printf("--blocks-per-sm %llu: at most %d blocks of %d threads fit an SM of %s (limited "
               "by %s): using %d\n", o->blocks_per_sm, most.blocks_per_sm, most.threads, gpu,
               most.limiter, most.blocks_per_sm);
    const mc_launch plan = mc_fused_plan(u, (int)o->blocks_per_sm, 1ull << 40);
    printf("fused kernel: %lld blocks of %d threads = %d per SM (limited by %s) x %d SMs of %s "
           "(fewer when there are fewer streams)\n",
           plan.blocks, plan.threads, plan.blocks_per_sm, plan.limiter, dev->sm_count, gpu);
}

int main(int argc, char **argv)
{
    options o = {MC_INV, VARIANT_ALL, MC_UNIFORM_CURAND, MC_GENERATOR_STATE, 0, 0, NAN, NAN,
                 0, TUT_DEFAULT_SEED, 1ull << 24, 0, NULL};
    const tut_option opts[] = {
        {"--integrand", TUT_OPT_CHOICE, &o.integrand, "the function to integrate", 0, 0,
         MC_INTEGRAND_CHOICES},
        {"--a", TUT_OPT_DOUBLE, &o.a, "lower limit (default: the integrand's usual range)", 1, 0,
         NULL},
        {"--b", TUT_OPT_DOUBLE, &o.b, "upper limit", 1, 0, NULL},
        {"--samples", TUT_OPT_SIZE, &o.samples,
         "samples (default 1e6; --check 2^24; --bench 2^32)", 2, 1.8e19, NULL},
        {"--seed", TUT_OPT_SIZE, &o.seed, "random seed", 0, 1.8e19, NULL},
        {"--variant", TUT_OPT_CHOICE, &o.variant, "which GPU variant(s)", 0, 0,
         "all|states|library|fused"},
        {"--uniform", TUT_OPT_CHOICE, &o.uniform, "fused: bits-to-float conversion", 0, 0,
         MC_UNIFORM_CHOICES},
        {"--generator", TUT_OPT_CHOICE, &o.generator,
         "fused: cuRAND's Philox state API, or the bare Philox function on a counter", 0, 0,
         MC_GENERATOR_CHOICES},
        {"--blocks-per-sm", TUT_OPT_SIZE, &o.blocks_per_sm,
         "fused: resident blocks per SM (0: as many as fit)", 0, 64, NULL},
        {"--chunk", TUT_OPT_SIZE, &o.chunk, "cuRAND + CUB: samples per chunk", 4, 1ull << 32,
         NULL},
        {"--check", TUT_OPT_FLAG, &o.check, "run the self-test", 0, 0, NULL},
        {"--bench", TUT_OPT_FLAG, &o.bench, "measure samples/s of every variant", 0, 0, NULL},
        {"--outdir", TUT_OPT_STRING, &o.outdir, "write CSV results into this folder", 0, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "montecarlo: Monte Carlo integration with cuRAND, CUB and a fused Philox "
                      "kernel",
                      opts, TUT_COUNT(opts));

    /* Every option is validated before a GPU is looked for, so bad input exits 2 anywhere. */
    const int range_given = !isnan(o.a) || !isnan(o.b);
    double da, db;
    default_range((mc_integrand)o.integrand, &da, &db);
    if (isnan(o.a))
        o.a = da;
    if (isnan(o.b))
        o.b = db;
    const char *problem = mc_range_problem((mc_integrand)o.integrand, o.a, o.b);
    if (problem) {
        fprintf(stderr, "montecarlo: %s (%s over [%g, %g])\n", problem,
                mc_integrand_formula((mc_integrand)o.integrand), o.a, o.b);
        return 2;
    }
    if (o.check && o.bench) {
        fprintf(stderr, "montecarlo: --check and --bench are separate runs; give one\n");
        return 2;
    }
    /* The one problem a plain run integrates (--check and --bench draw their own ranges), with
     * the uniforms of the variants that run: curand's for states and library, --uniform's for
     * fused. */
    unsigned uniforms = 0;
    if (o.variant == VARIANT_ALL || o.variant == VARIANT_STATES || o.variant == VARIANT_LIBRARY)
        uniforms |= 1u << MC_UNIFORM_CURAND;
    if (o.variant == VARIANT_ALL || o.variant == VARIANT_FUSED)
        uniforms |= 1u << o.uniform;
    if (o.uniform == MC_UNIFORM_PACKED && o.generator != MC_GENERATOR_COUNTER && !o.bench &&
        (o.variant == VARIANT_ALL || o.variant == VARIANT_FUSED)) {
        fprintf(stderr, "montecarlo: --uniform packed draws five uniforms a Philox call, on the "
                        "counter generator only: add --generator counter\n");
        return 2;
    }
    char why[600];
    if (!o.check && !o.bench &&
        mc_sampling_problem((mc_integrand)o.integrand, o.a, o.b,
                            o.samples ? o.samples : DEMO_SAMPLES, uniforms, why, sizeof why)) {
        fprintf(stderr, "montecarlo: %s\n", why);
        return 2;
    }

    tut_select_device(TUT_NEED_NOTHING);
    printf("seed %llu\n", o.seed);
    print_fused_plan(&o);
    int ok;
    if (o.check)
        ok = check_all(&o);
    else if (o.bench)
        ok = bench(&o);
    else
        ok = demo(&o, range_given);
    return tut_finish(ok);
}
