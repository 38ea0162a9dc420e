/* Grader of ex02.5, the halo exchange across GPUs (multi/overlap_step.cu: heat_overlap_step).
 * Every case runs the rod in parts through the student's step from poisoned buffers (a halo
 * nobody sends stays NaN) and compares each point with the float64 CPU reference bit for bit.
 * The parts share one GPU (the logical mode: the split and the exchange are the same code
 * whatever the GPU of each part), except two_gpus, which needs two GPUs and skips on one.
 * late_edges delays the edge update of one part at a time, each in turn, so that a send or
 * an update that does not wait for its event reads an old value; overlap holds every interior
 * update until the sends of the step have landed, which only a send on the comm stream can do.
 * Every case also fails a step that launches a part's kernels while another GPU than the part's
 * is current (parts.cu counts them): the guide says such a launch fails, but a CUDA 13 driver
 * accepted it and every value was right; with one GPU it cannot happen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "heat_reference.h"
#include "parts.h"
#include "tutorial.h"

static double draw_k(tut_grader *g) { return 0.05 + 0.45 * tut_rng_uniform(&g->rng); }

static long long draw_steps(tut_grader *g) { return (long long)tut_grader_size(g, 1, 40); }

/* The rod's start and its reference after `steps` steps (host arrays of n doubles). */
static void make_rod(tut_grader *g, size_t n, long long steps, double k, double *u, double *want)
{
    double *scratch = (double *)tut_host_alloc(n * sizeof(double), "scratch");
    heat_init_random(u, n, tut_rng_next(&g->rng));
    memcpy(want, u, n * sizeof(double));
    heat_reference(want, scratch, n, steps, k);
    free(scratch);
}

/* Creates the rod's parts and poisons both buffers of each (NaN), before the scatter writes
 * the points, the first halos and the walls. 0 with the reason printed if it cannot run. */
static int create_poisoned(heat_rod *r, size_t n, int parts, int gpus, double k)
{
    char why[320];
    if (!heat_rod_create(r, n, parts, gpus, k, 0, why, sizeof why)) {
        printf("cannot split %zu points into %d parts on %d GPU(s): %s\n", n, parts, gpus, why);
        return 0;
    }
    for (int p = 0; p < parts; ++p) {
        CUDA_CHECK(cudaSetDevice(r->part[p].device));
        for (int b = 0; b < 2; ++b)
            tut_grader_poison(r->part[p].buf[b], (r->part[p].count + 2) * sizeof(double));
    }
    return 1;
}

/* 1 if every launch of a part's kernels came with the part's GPU current. */
static int launched_on_own_gpu(const heat_rod *r)
{
    if (r->misplaced == 0)
        return 1;
    printf("FAIL: %d launch(es) of a part's kernels while another GPU than the part's was "
           "current: cudaSetDevice(the part's device) before its launches (the guide says "
           "such a launch fails; a CUDA 13 driver accepts it, so the values cannot show it)\n",
           r->misplaced);
    return 0;
}

/* One graded run: n points in `parts` parts on `gpus` GPUs; delay_ns > 0 delays the edges of
 * part `late` in every step. */
static int grade_rod_delayed(tut_grader *g, size_t n, int parts, int gpus, long long steps,
                             unsigned long long delay_ns, int late)
{
    const double k = draw_k(g);
    double *u = (double *)tut_host_alloc(n * sizeof(double), "start");
    double *want = (double *)tut_host_alloc(n * sizeof(double), "reference");
    double *got = (double *)tut_host_alloc(n * sizeof(double), "result");
    make_rod(g, n, steps, k, u, want);
    heat_rod r;
    int ok = create_poisoned(&r, n, parts, gpus, k);
    if (ok) {
        if (delay_ns > 0) {
            r.delay_part = late;
            r.delay_ns = delay_ns;
        }
        const heat_span last = heat_split_part(n, parts, parts - 1);
        printf("%zu points in %d part(s) of %zu .. %zu on %d GPU(s), %lld steps, k = %.6g",
               n, parts, last.count, heat_split_part(n, parts, 0).count, gpus, steps, k);
        if (delay_ns > 0)
            printf(", part %d's edges %.1f ms late every step", late, delay_ns * 1e-6);
        printf("\n");
        heat_rod_scatter(&r, u);
        heat_rod_run(&r, HEAT_MULTI_P2P, steps);
        heat_rod_gather(&r, steps, got);
        ok = tut_check_f64("halo exchange", got, want, n, 0.0, 0.0, NULL);
        ok = launched_on_own_gpu(&r) && ok;
        heat_rod_destroy(&r);
    }
    free(u);
    free(want);
    free(got);
    return ok;
}

static int grade_rod(tut_grader *g, size_t n, int parts, int gpus, long long steps)
{
    return grade_rod_delayed(g, n, parts, gpus, steps, 0, -1);
}

/* Each part late in turn, by LATE_NS a step (well past the host's time to queue a step): a part
 * that does not wait for one neighbour's sends reads an old halo when that neighbour alone is
 * late (a generated mutant that skipped part 0's sends survived delays of every other part,
 * which made part 1's other neighbour late too). */
#define LATE_NS 1000000ull
static int grade_rod_late(tut_grader *g, size_t n, int parts, int gpus, long long steps)
{
    int ok = 1;
    for (int late = 0; late < parts; ++late)
        ok &= grade_rod_delayed(g, n, parts, gpus, steps, LATE_NS, late);
    return ok;
}

static int draw_parts(tut_grader *g, int lo, int hi) { return (int)tut_grader_size(g, lo, hi); }

/* One part: nothing to exchange; the walls only. */
static int case_one_part(tut_grader *g)
{
    return grade_rod(g, tut_grader_odd(g, 3, 10001), 1, 1, draw_steps(g));
}

/* As many points as parts: every part one point, its edges the same point. */
static int case_parts_of_one(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 9);
    return grade_rod(g, (size_t)parts, parts, 1, draw_steps(g));
}

/* One point more than parts: the first part two points, the others one. */
static int case_one_more(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 9);
    return grade_rod(g, (size_t)parts + 1, parts, 1, draw_steps(g));
}

static int case_primes(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 7);
    return grade_rod(g, tut_grader_prime(g, 11, 100003), parts, 1, draw_steps(g));
}

/* Small parts (a short interior), one part's edges 1 ms late every step, each part in turn: a
 * send that does not wait for edges_done sends the old point, an update that does not wait for
 * a neighbour's `sent` reads an old halo. */
static int case_late_edges(tut_grader *g)
{
    const int parts = draw_parts(g, 3, 6);
    const size_t n = (size_t)parts * tut_grader_size(g, 3, 40) + tut_grader_size(g, 0, 2);
    return grade_rod_late(g, n, parts, 1, 30);
}

/* Two or more GPUs: two parts per GPU, so some neighbours share a GPU and some do not. */
static int case_two_gpus(tut_grader *g)
{
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (visible < 2) {
        printf("skipped: this case needs two GPUs (with one, every part's GPU is current, and "
               "a launch with the wrong GPU current cannot happen); this machine shows %d\n",
               visible);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
    const int gpus = visible < 4 ? visible : 4;
    const size_t n = tut_grader_prime(g, 1009, 200003);
    return grade_rod(g, n, 2 * gpus, gpus, draw_steps(g)) &&
           grade_rod_late(g, n, gpus, gpus, 30);
}

/* The sends of one step must land while the interior still runs: every interior update is
 * held (a kernel spinning on a host flag) until the sends of the step have arrived, for up to
 * a second. A send queued behind the interior never arrives in that time. */
static int case_overlap(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 5);
    const size_t n = tut_grader_odd(g, 1001, 100001);
    const double k = draw_k(g);
    double *u = (double *)tut_host_alloc(n * sizeof(double), "start");
    double *want = (double *)tut_host_alloc(n * sizeof(double), "reference");
    make_rod(g, n, 1, k, u, want);
    int *flag;
    CUDA_CHECK(cudaHostAlloc((void **)&flag, sizeof(int), cudaHostAllocMapped));
    heat_rod r;
    int ok = create_poisoned(&r, n, parts, 1, k);
    if (ok) {
        *(volatile int *)flag = 1;
        int *device_flag;
        CUDA_CHECK(cudaHostGetDevicePointer((void **)&device_flag, flag, 0));
        r.hold = device_flag;
        r.hold_timeout_ns = 5000000000ull;
        printf("%zu points in %d parts, one step, every interior held until the sends land\n",
               n, parts);
        heat_rod_scatter(&r, u);
        heat_overlap_step(&r, 0);
        int landed = 0;
        const double t0 = tut_cpu_seconds();
        while (!landed && tut_cpu_seconds() - t0 < 1.0) {
            landed = 1;
            for (int p = 0; p < parts; ++p) {
                const cudaError_t e = cudaEventQuery(r.part[p].sent);
                if (e == cudaErrorNotReady)
                    landed = 0;
                else
                    CUDA_CHECK(e);
            }
        }
        /* the halos each part received, read while the interiors are held */
        for (int p = 0; ok && landed && p < parts; ++p) {
            const heat_part *part = &r.part[p];
            double halo[2];
            CUDA_CHECK(cudaMemcpy(&halo[0], part->buf[1], sizeof(double), cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(&halo[1], part->buf[1] + part->count + 1, sizeof(double),
                                  cudaMemcpyDeviceToHost));
            const double expect[2] = {p > 0 ? want[part->first - 1] : 0.0,
                                      p + 1 < parts ? want[part->first + part->count] : 0.0};
            for (int side = 0; side < 2; ++side)
                if (memcmp(&halo[side], &expect[side], sizeof(double)) != 0) {
                    printf("part %d's %s halo after the sends: found %.17g, expected %.17g\n", p,
                           side ? "right" : "left", halo[side], expect[side]);
                    ok = 0;
                }
        }
        *(volatile int *)flag = 0;
        heat_rod_sync(&r);
        if (!landed) {
            printf("FAIL: the sends of the step did not land while the interior update ran "
                   "(held for 1 s): are they on the compute stream, behind the interior?\n");
            ok = 0;
        } else if (ok) {
            printf("the sends landed while every interior was still running: overlapped\n");
        }
        ok = launched_on_own_gpu(&r) && ok;
        heat_rod_destroy(&r);
    }
    CUDA_CHECK(cudaFreeHost(flag));
    free(u);
    free(want);
    return ok;
}

static const tut_grader_case cases[] = {
    {"one_part", case_one_part},     {"parts_of_one", case_parts_of_one},
    {"one_more", case_one_more},     {"primes", case_primes},
    {"late_edges", case_late_edges}, {"overlap", case_overlap},
    {"two_gpus", case_two_gpus},
};

int main(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    const tut_exercise ex = {.id = "ex02.5",
                             .title = "the halo exchange across GPUs",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
