/* Grader of ex03.1, session starts as a map (session_starts.cu: session_start_kernel): every
 * event's start value (its index if a session starts there, else 0) from poisoned output,
 * compared with session_boundary.h's rule on the CPU. The `extremes` case puts timestamps at
 * INT64_MIN and INT64_MAX, gaps of exactly the timeout and one more, backwards gaps, timeouts of
 * 0 and INT64_MAX: a kernel that computes ts[i] - ts[i-1] overflows there. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "session_boundary.h"
#include "session_starts.h"
#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

/* Runs the kernel on host events and checks every value. */
static int check_starts(const int64_t *user, const int64_t *ts, int64_t n, int64_t timeout)
{
    printf("start values: %" PRId64 " events, timeout %" PRId64 "\n", n, timeout);
    const size_t bytes = tut_bytes((size_t)n, sizeof(int64_t), "events");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "reference");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "start values");
    for (int64_t i = 0; i < n; ++i)
        want[i] = session_starts_at(user, ts, i, timeout) ? i : 0;
    int64_t *d_user = (int64_t *)tut_device_alloc(bytes, "user ids");
    int64_t *d_ts = (int64_t *)tut_device_alloc(bytes, "timestamps");
    int64_t *d_start = (int64_t *)tut_device_alloc(bytes, "start values");
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    tut_grader_poison(d_start, bytes); /* -1: a value nobody wrote */
    session_start_values_gpu(d_user, d_ts, n, timeout, d_start);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_start, bytes, cudaMemcpyDeviceToHost));
    const int ok = tut_check_i64("start values", got, want, (size_t)n);
    tut_device_free(d_user);
    tut_device_free(d_ts);
    tut_device_free(d_start);
    free(want);
    free(got);
    return ok;
}

static int check_generated(tut_grader *g, int64_t n)
{
    graded_events e = grading_events(g, EVENTS_MIXED, n, -1);
    const int ok = check_starts(e.user, e.ts, e.n, e.timeout);
    grading_events_free(&e);
    return ok;
}

static int case_primes(tut_grader *g) { return check_generated(g, tut_grader_prime(g, 2, 100003)); }
static int case_one(tut_grader *g) { return check_generated(g, 1); }

/* More events than one wave of the grid holds: the grid-stride loop. */
static int case_many(tut_grader *g)
{
    return check_generated(g, (int64_t)tut_grader_odd(g, 1000001, 4000001));
}

/* Timestamps at the ends of int64 and gaps at the timeout's edge, in random order (the rule
 * does not need sorted input; the kernel must apply it to every neighbouring pair). */
static int case_extremes(tut_grader *g)
{
    const int64_t timeouts[4] = {0, 3600, INT64_MAX, (int64_t)tut_grader_size(g, 1, 1000000)};
    const int64_t timeout = timeouts[tut_grader_size(g, 0, 3)];
    const int64_t n = (int64_t)tut_grader_size(g, 2000, 5000);
    int64_t *user = (int64_t *)tut_host_alloc((size_t)n * sizeof(int64_t), "user ids");
    int64_t *ts = (int64_t *)tut_host_alloc((size_t)n * sizeof(int64_t), "timestamps");
    user[0] = 1;
    ts[0] = INT64_MIN;
    for (int64_t i = 1; i < n; ++i) {
        const int64_t prev = ts[i - 1];
        user[i] = tut_grader_size(g, 0, 15) == 0 ? user[i - 1] + 1 : user[i - 1];
        switch (tut_grader_size(g, 0, 7)) {
        case 0: ts[i] = INT64_MIN; break;
        case 1: ts[i] = INT64_MAX; break;
        case 2: ts[i] = prev; break; /* a zero gap */
        case 3: /* exactly the timeout, where it does not overflow */
            ts[i] = prev <= INT64_MAX - timeout ? prev + timeout : INT64_MIN;
            break;
        case 4: /* one second more than the timeout */
            ts[i] = timeout < INT64_MAX && prev <= INT64_MAX - timeout - 1 ? prev + timeout + 1
                                                                          : INT64_MAX;
            break;
        case 5: ts[i] = (int64_t)tut_rng_next(&g->rng); break; /* anywhere */
        case 6: ts[i] = prev > INT64_MIN + 1000 ? prev - 1000 : prev; break; /* backwards */
        default: ts[i] = prev < INT64_MAX ? prev + 1 : prev; break;
        }
    }
    const int ok = check_starts(user, ts, n, timeout);
    free(user);
    free(ts);
    return ok;
}

static int check_generated_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_generated(g, (int64_t)n);
}

/* The boundaries by design: the warp, the chapter's block of 256 and the blocks of 128, 512 and
 * 1024 a student may choose instead, one full wave of this GPU's threads (SMs x threads per SM,
 * what a wave of a light grid-stride kernel holds), their multiples -1, 0, +1 and the smallest
 * inputs. */
static int case_boundaries(tut_grader *g)
{
    const size_t wave = (size_t)g->dev->sm_count * (size_t)g->dev->max_threads_per_sm;
    const tut_width widths[] = {{"warp", (size_t)g->dev->warp_size}, {"block128", 128},
                                {"block256", 256}, {"block512", 512}, {"block1024", 1024},
                                {"wave", wave}};
    tut_boundary sizes[96];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), 2 * wave + 1, sizes,
                                            TUT_COUNT(sizes));
    return tut_grader_run_boundaries(g, sizes, count, check_generated_size, NULL);
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"one", case_one},
    {"extremes", case_extremes},
    {"many", case_many},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex03.1",
                             .title = "session starts as a map",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
