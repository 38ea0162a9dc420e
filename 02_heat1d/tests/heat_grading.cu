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
    job.a = (double *)tut_device_alloc(bytes, "rod a");
    job.b = (double *)tut_device_alloc(bytes, "rod b");
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
        tut_grader_poison(job.a, bytes);
        tut_grader_poison(job.b, bytes);
        CUDA_CHECK(cudaMemcpy(job.a, start, bytes, cudaMemcpyHostToDevice));
        const double *result = v->run(&job);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(got, result, bytes, cudaMemcpyDeviceToHost));
        double scale = 0.0;
        for (size_t i = 0; i < n; ++i)
            scale = scale > fabs(want[i]) ? scale : fabs(want[i]);
        /* The same operations in the same order: equal bits are expected; 1e-12 says by how
         * much if not (as heat1d does). */
        ok = tut_check_f64(v->name, got, want, n, 1e-12 * scale, 1e-12, NULL);
    }
    tut_device_free(job.a);
    tut_device_free(job.b);
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
