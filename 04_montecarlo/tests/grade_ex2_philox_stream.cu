/* Grader of ex04.2, a Philox stream through cuRAND's state API (3_fused_philox.cu:
 * sample_stream), run by the chapter's fused kernel: every stream's (sum f, sum f^2), kept by
 * the kernel from poisoned memory, against the CPU replay of the same Philox numbers and float
 * operations (philox_host.c): equal bits for x^2, the circle and 1; within the replay's bound
 * for 1/x and sin (their fast GPU functions). A stream drawn from the wrong subsequence, a
 * dropped sample or a lane summed in another order fails. Case many_streams runs one block per SM,
 * so that every thread takes several streams: a subsequence taken from the thread's index
 * instead of the stream's repeats itself there. */
#include <stdio.h>
#include <stdlib.h>

#include "mc_grading.h"
#include "philox_host.h"
#include "tutorial.h"
#include "variants.h"

/* blocks_per_sm: 0 for the launcher's full wave, else that many blocks per SM. */
static int check_streams(tut_grader *g, mc_integrand integrand, unsigned long long n,
                         int blocks_per_sm)
{
    const mc_problem p = mc_grading_problem(g, integrand, n);
    const mc_uniform uniform = (mc_uniform)tut_grader_size(g, 0, MC_UNIFORM_PER_WORD - 1);
    const unsigned long long streams = mc_stream_count(n);
    printf("%s on [%g, %g], %llu samples (%llu streams), uniform %s, seed %llu\n",
           mc_integrand_name(integrand), p.a, p.b, n, streams,
           mc_uniform_name(uniform), p.seed);
    mc_fused_job job;
    /* keeps every stream's pair */
    mc_fused_create(&job, &p, uniform, MC_GENERATOR_STATE, blocks_per_sm, 1);
    printf("grid: %d blocks of %d threads, %.1f streams per thread\n", job.blocks,
           MC_FUSED_THREADS, (double)streams / ((double)job.blocks * MC_FUSED_THREADS));
    mc_fused_run(&job);
    CUDA_CHECK(cudaDeviceSynchronize());
    mc_pair *gpu = (mc_pair *)tut_host_alloc(tut_bytes(streams, sizeof(mc_pair), "streams"), "gpu");
    mc_pair *cpu = (mc_pair *)tut_host_alloc(streams * sizeof(mc_pair), "replay");
    mc_pair *tol = (mc_pair *)tut_host_alloc(streams * sizeof(mc_pair), "tolerances");
    mc_read_streams(&job, gpu);
    mc_replay_streams(&p, uniform, cpu, tol);
    const mc_stream_check c = mc_compare_streams(gpu, cpu, tol, streams);
    if (c.mismatches) {
        const unsigned long long s = c.first_bad;
        printf("FAIL: %llu of %llu streams differ; first: stream %llu: found (%.9g, %.9g), "
               "expected (%.9g, %.9g) within (%.3g, %.3g)\n",
               c.mismatches, streams, s, gpu[s].sum, gpu[s].sum_sq, cpu[s].sum, cpu[s].sum_sq,
               tol[s].sum, tol[s].sum_sq);
    } else {
        printf("all %llu streams match the replay (largest difference %.3g, tolerance %.3g)\n",
               streams, c.max_diff, c.max_tol);
    }
    mc_fused_destroy(&job);
    free(gpu);
    free(cpu);
    free(tol);
    return c.mismatches == 0;
}

/* One stream, shorter than MC_STREAM_SAMPLES: the last call of a short stream. */
static int case_one_stream(tut_grader *g)
{
    return check_streams(g, MC_SQUARE, tut_grader_size(g, 2, MC_STREAM_SAMPLES), 0);
}
static int case_stream_edges(tut_grader *g)
{
    return check_streams(g, MC_CIRCLE, tut_grader_tile_edge(g, MC_STREAM_SAMPLES, 64), 0);
}
/* 1 per sample: a dropped or doubled sample moves a stream's sum by exactly 1. */
static int case_primes(tut_grader *g)
{
    return check_streams(g, MC_ONE, tut_grader_prime(g, 5, 1000003), 0);
}
static int case_integrands(tut_grader *g)
{
    const mc_integrand f = (mc_integrand)tut_grader_size(g, 0, MC_INTEGRAND_COUNT - 1);
    return check_streams(g, f, tut_grader_odd(g, 100001, 1000001), 0);
}
/* More streams than the grid has threads: one block per SM, each thread takes several (3 or
 * more on any GPU of up to 170 SMs). */
static int case_many_streams(tut_grader *g)
{
    return check_streams(g, MC_INV, tut_grader_odd(g, 1ull << 27, (1ull << 27) + (1ull << 20)),
                         1);
}

/* 1 per sample (the sum must be n exactly): a dropped or doubled sample shows. */
static int check_one_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_streams(g, MC_ONE, n, 0);
}

static int check_wave_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_streams(g, MC_ONE, n, 1);
}

/* The boundaries by design: Philox's four numbers per call (every residue of the last stream's
 * length mod 4), a stream (MC_STREAM_SAMPLES), a warp's and a block's streams, their multiples
 * -1, 0, +1 and the smallest counts; then one wave of streams on one block per SM. */
static int case_boundaries(tut_grader *g)
{
    const size_t stream = MC_STREAM_SAMPLES;
    const tut_width widths[] = {{"philox4", 4}, {"stream", stream},
                                {"warp of streams", (size_t)g->dev->warp_size * stream},
                                {"block of streams", (size_t)MC_FUSED_THREADS * stream}};
    tut_boundary sizes[96];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths),
                                            2 * (size_t)MC_FUSED_THREADS * stream + 1, sizes,
                                            TUT_COUNT(sizes));
    int ok = tut_grader_run_boundaries(g, sizes, count, check_one_size, NULL);
    /* One stream per thread of one block per SM: the grid's first pass over the streams ends
     * exactly at the last sample, one sample early or one late. */
    const size_t wave = (size_t)g->dev->sm_count * MC_FUSED_THREADS * MC_STREAM_SAMPLES;
    const tut_width wave_width[] = {{"wave of streams", wave}};
    const size_t wave_count = tut_boundary_sizes(wave_width, 1, wave + 1, sizes, TUT_COUNT(sizes));
    ok &= tut_grader_run_boundaries(g, sizes + 3, wave_count - 3, check_wave_size, NULL);
    return ok;
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
    const tut_exercise ex = {.id = "ex04.2",
                             .title = "a Philox stream through the state API",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
