/* The chapter-02 graders' common run: see heat_grading.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_grading.h"
#include "heat_reference.h"
#include "tutorial.h"

static double draw_k(tut_grader *g)
{
    return 0.05 + 0.45 * tut_rng_uniform(&g->rng); /* in [0.05, 0.5): stable, never 0 */
}

/* Each rod lies between two margins of poisoned doubles (NaN) in its allocation: a kernel that
 * reads beyond a wall without the guard reads NaN, and one that writes there is caught by the
 * margins' check after the run. 256 doubles keep the rod 2 KiB-aligned and cover the whole
 * last warp's strips of the register variant.
 * The two buffers' margins hold different NaNs: a write one point past the rod stores what it
 * computed from the other buffer's margin, a NaN that keeps that margin's bits (the H100's
 * arithmetic does), which a margin of the very same bits would not show. */
#define HEAT_MARGIN 256
#define HEAT_POISON_A 0xFFFFFFFFFFFFFFFFull /* what tut_grader_poison writes: bytes 0xFF */
#define HEAT_POISON_B 0x7FFA5A5A5A5A5A5Aull /* another quiet NaN */

/* Fills the margins around the rod at `rod` (n points) with the bits `poison`. */
static void poison_margins(double *rod, size_t n, unsigned long long poison)
{
    unsigned long long host[HEAT_MARGIN];
    for (int i = 0; i < HEAT_MARGIN; ++i)
        host[i] = poison;
    CUDA_CHECK(cudaMemcpy(rod - HEAT_MARGIN, host, sizeof host, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(rod + n, host, sizeof host, cudaMemcpyHostToDevice));
}

/* 1 if the margins around the rod at `rod` (n points) still hold the bits `poison`. */
static int margins_intact(const char *name, const char *which, const double *rod, size_t n,
                          unsigned long long poison)
{
    unsigned long long host[HEAT_MARGIN];
    for (int side = 0; side < 2; ++side) {
        const double *margin = side == 0 ? rod - HEAT_MARGIN : rod + n;
        CUDA_CHECK(cudaMemcpy(host, margin, sizeof host, cudaMemcpyDeviceToHost));
        for (int i = 0; i < HEAT_MARGIN; ++i)
            if (host[i] != poison) {
                const long long at = side == 0 ? (long long)i - HEAT_MARGIN : (long long)(n + i);
                printf("  %s wrote outside the rod: buffer %s, point %lld (the rod is 0 .. %zu)\n",
                       name, which, at, n - 1);
                return 0;
            }
    }
    return 1;
}

int heat_grade_run(tut_grader *g, const heat_variant_under_test *v, size_t n, long long steps,
                   int threads, size_t max_blocks)
{
    const size_t bytes = tut_bytes(n, sizeof(double), "rod");
    double *start = (double *)tut_host_alloc(bytes, "start");
    double *want = (double *)tut_host_alloc(bytes, "reference");
    double *scratch = (double *)tut_host_alloc(bytes, "scratch");
    double *got = (double *)tut_host_alloc(bytes, "result");
    heat_init_random(start, n, tut_rng_next(&g->rng));
    const double k = draw_k(g);
    memcpy(want, start, bytes);
    heat_reference(want, scratch, n, steps, k);

    heat_job job;
    memset(&job, 0, sizeof job);
    const size_t padded = tut_bytes(n + 2 * HEAT_MARGIN, sizeof(double), "rod and margins");
    double *base_a = (double *)tut_device_alloc(padded, "rod a");
    double *base_b = (double *)tut_device_alloc(padded, "rod b");
    job.a = base_a + HEAT_MARGIN;
    job.b = base_b + HEAT_MARGIN;
    job.n = n;
    job.steps = steps;
    job.k = k;
    job.threads = threads;
    char why[320] = "";
    int ok = v->prepare(&job, why, sizeof why);
    if (!ok) {
        printf("%s: cannot run %zu points here: %s\n", v->name, n, why);
    } else {
        if (max_blocks > 0 && job.launch.blocks > max_blocks)
            job.launch.blocks = max_blocks;
        printf("%s: %zu points, %lld steps, k = %.6g; %zu block(s) of %d threads\n", v->name, n,
               steps, k, job.launch.blocks, job.launch.threads);
        tut_grader_poison(base_a, padded);
        tut_grader_poison(base_b, padded);
        poison_margins(job.b, n, HEAT_POISON_B); /* a's stay HEAT_POISON_A */
        CUDA_CHECK(cudaMemcpy(job.a, start, bytes, cudaMemcpyHostToDevice));
        tut_grader_poison_shared(); /* what the kernel reads without writing it first is NaN */
        const double *result = v->run(&job);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(got, result, bytes, cudaMemcpyDeviceToHost));
        double scale = 0.0;
        for (size_t i = 0; i < n; ++i)
            scale = scale > fabs(want[i]) ? scale : fabs(want[i]);
        /* The same operations in the same order: equal bits are expected; 1e-12 says by how
         * much if not (as heat1d does). */
        ok = tut_check_f64(v->name, got, want, n, 1e-12 * scale, 1e-12, NULL);
        ok &= margins_intact(v->name, "a", job.a, n, HEAT_POISON_A);
        ok &= margins_intact(v->name, "b", job.b, n, HEAT_POISON_B);
    }
    tut_device_free(base_a);
    tut_device_free(base_b);
    free(start);
    free(want);
    free(scratch);
    free(got);
    return ok;
}

int heat_grade_threads(tut_grader *g)
{
    const int warps = g->dev->max_threads_per_block / 32;
    return 32 * (int)tut_grader_size(g, 1, (size_t)warps);
}

heat_job heat_grade_timing_job(tut_grader *g, size_t n, long long steps)
{
    const size_t bytes = tut_bytes(n, sizeof(double), "rod");
    double *start = (double *)tut_host_alloc(bytes, "start");
    heat_init_random(start, n, tut_rng_next(&g->rng));
    heat_job job;
    memset(&job, 0, sizeof job);
    job.a = (double *)tut_device_alloc(bytes, "rod a");
    job.b = (double *)tut_device_alloc(bytes, "rod b");
    job.n = n;
    job.steps = steps;
    job.k = 0.25;
    CUDA_CHECK(cudaMemcpy(job.a, start, bytes, cudaMemcpyHostToDevice));
    free(start);
    return job;
}

void heat_grade_free_job(heat_job *job)
{
    tut_device_free(job->a);
    tut_device_free(job->b);
}

typedef struct {
    const heat_variant_under_test *v;
    int threads;
    size_t max_blocks;
} heat_boundary_job;

static int heat_boundary_check(tut_grader *g, size_t n, void *ctx)
{
    const heat_boundary_job *j = (const heat_boundary_job *)ctx;
    if (n < 2)
        return 1; /* a rod has two walls: 2 points at least (the chapter's programs refuse 1) */
    return heat_grade_run(g, j->v, n, (long long)tut_grader_size(g, 1, 6), j->threads,
                          j->max_blocks);
}

int heat_grade_boundaries(tut_grader *g, const heat_variant_under_test *v,
                          const tut_width *widths, int width_count, size_t max, int threads,
                          size_t max_blocks)
{
    tut_boundary sizes[96];
    const size_t count = tut_boundary_sizes(widths, width_count, max, sizes, TUT_COUNT(sizes));
    heat_boundary_job job = {v, threads, max_blocks};
    printf("%s: %zu boundary sizes up to %zu points\n", v->name, count, max);
    return tut_grader_run_boundaries(g, sizes, count, heat_boundary_check, &job);
}
