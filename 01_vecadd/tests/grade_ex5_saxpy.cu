/* Grader of exercise ex01.5, SAXPY, in place, on a stream (saxpy.h).
 * The kernel on grids drawn from the seed and the launcher on a stream, on the array harness
 * (common/grade_array.h: x, y and a from the seed, y updated in place and compared with the host
 * reference, guard zones on both sides). */
#include "saxpy.h"

#include "grade_array.h"

static float a; /* drawn with each job */

static const tut_array_spec ARRAYS[] = {
    {"x", TUT_ARRAY_F32, TUT_ARRAY_IN, -1.0, 1.0},
    {"y", TUT_ARRAY_F32, TUT_ARRAY_INOUT, -1.0, 1.0},
};

/* What y must hold afterwards: a * x + y in float64, rounded once (what a fused multiply-add
 * gives; an unfused one is within the job's 1e-6). */
static void reference(tut_arrays *s, void *ctx)
{
    (void)ctx;
    const float *x = (const float *)s->host[0], *y = (const float *)s->host[1];
    float *want = (float *)s->want[1];
    for (size_t i = 0; i < s->n; ++i)
        want[i] = (float)((double)a * x[i] + y[i]);
}

/* The student's kernel on the harness's grid, or the student's launcher on its stream. */
static void run_kernel(const tut_arrays *s, tut_launch how, void *ctx)
{
    (void)ctx;
    saxpy_kernel<<<how.blocks, how.threads, 0, how.stream>>>(a, (const float *)s->dev[0],
                                                             (float *)s->dev[1], s->n);
}

static void run_launcher(const tut_arrays *s, tut_launch how, void *ctx)
{
    (void)ctx;
    saxpy(a, (const float *)s->dev[0], (float *)s->dev[1], s->n, how.stream);
}

/* The job of the launcher or the kernel; a drawn from the seed: 1/4 to 2, either sign, not 1. */
static tut_array_job job(tut_grader *g, int launcher)
{
    a = (float)((0.25 + 1.75 * tut_rng_uniform(&g->rng)) * (tut_rng_below(&g->rng, 2) ? 1 : -1));
    a = a == 1.0f ? 1.5f : a;
    const tut_array_job j = {.label = launcher ? "saxpy" : "saxpy_kernel",
                             .arrays = ARRAYS,
                             .array_count = TUT_COUNT(ARRAYS),
                             .reference = reference,
                             .run = launcher ? run_launcher : run_kernel,
                             .kernel = launcher ? NULL : (const void *)saxpy_kernel,
                             .atol = 1e-6,
                             .rtol = 1e-6};
    return j;
}

/* A prime size through the launcher, whose stream holds the inputs back: a launch on any
 * other stream reads poison. */
static int case_primes(tut_grader *g)
{
    const tut_array_job j = job(g, 1);
    return tut_array_check(g, &j, tut_grader_prime(g, 3, 1000003), 0, 0);
}

/* The kernel on a grid drawn from the seed that covers n with up to 3 blocks to spare: the
 * threads past n must write nothing. Blocks of 32 to 512 threads but never 256, the launcher's
 * (every other case): a kernel that assumes 256 threads a block must meet another size. */
static int case_kernel(tut_grader *g)
{
    const tut_array_job j = job(g, 0);
    const unsigned warps = (unsigned)tut_grader_size(g, 1, 15); /* 1..15 -> 1..7, 9..16 */
    const unsigned threads = 32u * (warps < 8 ? warps : warps + 1);
    const size_t n = tut_grader_odd(g, 3, 100001);
    const size_t blocks = (n + threads - 1) / threads + tut_grader_size(g, 0, 3);
    return tut_array_check(g, &j, n, (unsigned)blocks, threads);
}

/* One element, then none: n = 0 must launch nothing and write nothing. */
static int case_one(tut_grader *g)
{
    const tut_array_job j = job(g, 1);
    const int ok = tut_array_check(g, &j, 1, 0, 0);
    return tut_array_check(g, &j, 0, 0, 0) && ok;
}

/* The boundary sizes by design: 1, 2, 3 and k*w - 1, k*w, k*w + 1 of the warp, the blocks
 * and one wave, through the launcher. */
static int case_boundaries(tut_grader *g)
{
    const tut_array_job j = job(g, 1);
    return tut_array_boundaries(g, &j);
}

/* Past 2^23 elements through the launcher (32 MB an array): a grid computed wrongly (blocks
 * times threads, not divided) asks for more than the 2^31 - 1 blocks a grid may have there, and
 * the launch fails, where the smaller cases still look right. */
static int case_large(tut_grader *g)
{
    const tut_array_job j = job(g, 1);
    return tut_array_check(g, &j, ((size_t)1 << 23) + tut_grader_odd(g, 1, 4097), 0, 0);
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"primes", case_primes}, {"kernel", case_kernel},
        {"one", case_one},       {"boundaries", case_boundaries},
        {"large", case_large},
    };
    const tut_exercise ex = {.id = "ex01.5",
                             .title = "SAXPY, in place, on a stream",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
