/* Grader of ex04.3, the fused kernel with a bare Philox counter (fused_counter.cu:
 * counter_stream and counter_body). Correctness: the blocks' pairs, from poisoned memory, added
 * on the CPU, against the CPU replay of the same streams (philox_host.c, uniform from the raw
 * bits): within float64 rounding for x^2, the circle and 1 (the GPU does the same float
 * operations), plus the replay's per-stream bound for 1/x and sin. A dropped or doubled sample
 * moves the total by far more. Case many_streams runs a grid of 32 streams per thread: a thread
 * that draws one stream only, or adds its streams up in float, fails there.
 * Speed (the point of fusing): 2^32 samples of 1/x on [1, 2] (the estimate must land within 5
 * standard errors of ln 2), in samples per second against the multiply ceiling measured in the
 * same run (common/ceilings.h, int_mul_wide: __umulhi and mul.lo as Philox does them, 10 results
 * per sample; docs/04_montecarlo.md, section 4), the fastest batch of each. On an H100 the
 * chapter's bare-counter kernel reached 72% of that ceiling; the bar, 40%, leaves a margin of
 * 1.8 and fails a kernel that goes through memory or keeps a cuRAND state per sample. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ceilings.h"
#include "fused_counter.h"
#include "mc_grading.h"
#include "philox_host.h"
#include "tutorial.h"

#define SPEED_SAMPLES (1ull << 32)
#define SPEED_BAR TUT_SPEED_BAR_EX04_3 /* common/speed_bars.h */

/* Runs the kernel on `blocks` blocks; the total of the blocks' pairs, added on the CPU (NaN if
 * a block never wrote its pair). */
static mc_sums run_counter(const mc_problem *p, int blocks)
{
    double2 *d_partials = (double2 *)tut_device_alloc(blocks * sizeof(double2), "partials");
    tut_grader_poison(d_partials, blocks * sizeof(double2));
    mc_counter_estimate_gpu(p, blocks, d_partials);
    double2 *partials = (double2 *)tut_host_alloc(blocks * sizeof(double2), "partials");
    CUDA_CHECK(cudaMemcpy(partials, d_partials, blocks * sizeof(double2),
                          cudaMemcpyDeviceToHost));
    mc_sums s = {p->samples, 0.0, 0.0};
    for (int b = 0; b < blocks; ++b) {
        s.sum += partials[b].x;
        s.sum_sq += partials[b].y;
    }
    tut_device_free(d_partials);
    free(partials);
    return s;
}

/* streams_per_thread: 0 for the launcher's grid (mc_counter_blocks), else a grid small enough
 * that each thread takes about that many streams. */
static int check_total(tut_grader *g, mc_integrand integrand, unsigned long long n,
                       int streams_per_thread)
{
    const mc_problem p = mc_grading_problem(g, integrand, n);
    const unsigned long long streams = mc_stream_count(n);
    int blocks = mc_counter_blocks(n);
    if (streams_per_thread > 0) {
        const unsigned long long per_block =
            (unsigned long long)COUNTER_THREADS * (unsigned long long)streams_per_thread;
        const unsigned long long few = (streams + per_block - 1) / per_block;
        if (few < (unsigned long long)blocks)
            blocks = (int)few;
    }
    printf("%s on [%g, %g], %llu samples (%llu streams), seed %llu, %d blocks of %d threads\n",
           mc_integrand_name(integrand), p.a, p.b, n, streams, p.seed, blocks, COUNTER_THREADS);
    mc_pair *cpu = (mc_pair *)tut_host_alloc(tut_bytes(streams, sizeof(mc_pair), "streams"),
                                             "replay");
    mc_pair *tol = (mc_pair *)tut_host_alloc(streams * sizeof(mc_pair), "tolerances");
    const mc_sums want = mc_replay_streams(&p, MC_UNIFORM_BITS, cpu, tol);
    double tol_sum = 0.0, tol_sq = 0.0;
    for (unsigned long long s = 0; s < streams; ++s) {
        tol_sum += tol[s].sum;
        tol_sq += tol[s].sum_sq;
    }
    const mc_sums got = run_counter(&p, blocks);
    const int ok = tut_check_scalar("sum f", got.sum, want.sum, tol_sum, 1e-10) &
                   tut_check_scalar("sum f^2", got.sum_sq, want.sum_sq, tol_sq, 1e-10);
    free(cpu);
    free(tol);
    return ok;
}

static int case_one_stream(tut_grader *g)
{
    return check_total(g, MC_SQUARE, tut_grader_size(g, 2, MC_STREAM_SAMPLES), 0);
}
static int case_stream_edges(tut_grader *g)
{
    return check_total(g, MC_SQUARE, tut_grader_tile_edge(g, MC_STREAM_SAMPLES, 64), 0);
}
/* 1 per sample: the sum must be n exactly. */
static int case_primes(tut_grader *g)
{
    return check_total(g, MC_ONE, tut_grader_prime(g, 5, 1000003), 0);
}
static int case_integrands(tut_grader *g)
{
    const mc_integrand f = (mc_integrand)tut_grader_size(g, 0, MC_INTEGRAND_COUNT - 1);
    return check_total(g, f, tut_grader_odd(g, 100001, 1000001), 0);
}
/* More streams than the grid has threads: 32 streams per thread (a float total per thread
 * rounds far outside the tolerance then). */
static int case_many_streams(tut_grader *g)
{
    return check_total(g, MC_CIRCLE, tut_grader_odd(g, 1ull << 27, (1ull << 27) + (1ull << 20)),
                       32);
}

/* 1 per sample (the sum must be n exactly): a dropped or doubled sample shows. */
static int check_one_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_total(g, MC_ONE, n, 0);
}

/* The boundaries by design: Philox's four numbers per call (every residue of the last stream's
 * length mod 4), a stream (MC_STREAM_SAMPLES), a warp's and a block's streams, their multiples
 * -1, 0, +1 and the smallest counts. */
static int case_boundaries(tut_grader *g)
{
    const size_t stream = MC_STREAM_SAMPLES;
    const tut_width widths[] = {{"philox4", 4}, {"stream", stream},
                                {"warp of streams", (size_t)g->dev->warp_size * stream},
                                {"block of streams", (size_t)COUNTER_THREADS * stream}};
    tut_boundary sizes[96];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths),
                                            2 * (size_t)COUNTER_THREADS * stream + 1, sizes,
                                            TUT_COUNT(sizes));
    int ok = tut_grader_run_boundaries(g, sizes, count, check_one_size, NULL);
    return ok;
}

typedef struct {
    mc_problem p;
    int blocks;
    double2 *partials;
} timed_counter;

static void run_timed(void *arg)
{
    timed_counter *t = (timed_counter *)arg;
    mc_counter_estimate_gpu(&t->p, t->blocks, t->partials);
}

static int speed(tut_grader *g, double bar)
{
    mc_problem p = mc_grading_problem(g, MC_INV, SPEED_SAMPLES);
    p.a = 1.0;
    p.b = 2.0;
    const mc_sums sums = run_counter(&p, mc_counter_blocks(p.samples));
    const mc_result r = mc_finish(&sums, p.a, p.b);
    const double sigmas = mc_sigmas(&r, log(2.0));
    printf("1/x on [1, 2], 2^32 samples: %.9f +- %.2g, %.2f standard errors from ln 2\n",
           r.estimate, r.std_error, sigmas);
    if (!(sigmas < 5.0))
        return 0;
    timed_counter t = {p, mc_counter_blocks(p.samples), NULL};
    t.partials = (double2 *)tut_device_alloc(t.blocks * sizeof(double2), "partials");
    const tut_timing tm = tut_time_gpu_batched(run_timed, &t, 2, 7, 0);
    tut_device_free(t.partials);
    const tut_ceiling ceiling = tut_measure_ceiling(TUT_CEILING_INT_MUL_WIDE);
    tut_ceiling_print(&ceiling);
    /* Fastest batch of each: G samples/s; the ceiling's G multiply results/s over 10. */
    return tut_grader_speed_verdict("fused counter kernel", p.samples / tm.min_ms * 1e-6,
                                    "multiply ceiling / 10", ceiling.high / 10.0,
                                    "G samples/s", bar);
}

static const tut_grader_case cases[] = {
    {"one_stream", case_one_stream},
    {"stream_edges", case_stream_edges},
    {"primes", case_primes},
    {"integrands", case_integrands},
    {"many_streams", case_many_streams},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex04.3",
                             .title = "the fused kernel with a bare Philox counter",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = SPEED_BAR};
    return tut_exercise_main(argc, argv, &ex);
}
