/* Grader of ex03.1, session starts as a map (session_starts.cu: session_start_kernel): every
 * event's start value (its index if a session starts there, else 0) from poisoned output,
 * compared with session_boundary.h's rule on the CPU. The `extremes` case puts timestamps at
 * INT64_MIN and INT64_MAX, gaps of exactly the timeout and one more, backwards gaps, timeouts of
 * 0 and INT64_MAX: a kernel that computes ts[i] - ts[i-1] overflows there. The `grids` case
 * launches the kernel itself on grids the chapter never uses (one block, one thread, blocks of one
 * thread, odd sizes): a grid-stride loop is right on every grid, and one whose step is not the
 * grid's size skips events or never ends there. The speed test checks the work: a loop that steps
 * by less than the grid gives the right values but visits each event many times. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "session_boundary.h"
#include "session_starts.h"
#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

#define SPEED_BAR TUT_SPEED_BAR_EX03_1 /* common/speed_bars.h */
#define GRID_WAIT_S 20.0               /* a kernel on a grader's grid that runs longer: hung */

typedef struct {
    unsigned blocks, threads; /* 0 blocks: the student's launcher chooses */
} start_grid;

/* Waits for the kernel on the grader's grid, at most GRID_WAIT_S: a grid-stride loop whose step
 * is 0 on that grid never ends, and the grade must say so rather than hang. */
static void wait_for_grid(start_grid grid)
{
    const double t0 = tut_cpu_seconds();
    cudaError_t e;
    while ((e = cudaStreamQuery(0)) == cudaErrorNotReady)
        if (tut_cpu_seconds() - t0 > GRID_WAIT_S) {
            printf("FAIL: on a grid of %u blocks x %u threads the kernel had not finished after "
                   "%.0f s: its loop never ends there (does it step by 0 on that grid?)\n",
                   grid.blocks, grid.threads, GRID_WAIT_S);
            fflush(stdout);
            exit(1); /* wrong result */
        }
    CUDA_CHECK(e);
}

/* Runs the kernel on host events (by the student's launcher, or on `grid` when it has blocks)
 * and checks every value. */
static int check_starts_on(const int64_t *user, const int64_t *ts, int64_t n, int64_t timeout,
                           start_grid grid)
{
    if (grid.blocks)
        printf("start values: %" PRId64 " events, timeout %" PRId64 ", the kernel on %u blocks x "
               "%u threads\n", n, timeout, grid.blocks, grid.threads);
    else
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
    if (grid.blocks) {
        session_start_kernel<<<grid.blocks, grid.threads>>>(d_user, d_ts, n, timeout, d_start);
        LAUNCH_CHECK();
        wait_for_grid(grid);
    } else {
        session_start_values_gpu(d_user, d_ts, n, timeout, d_start);
    }
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

static int check_starts(const int64_t *user, const int64_t *ts, int64_t n, int64_t timeout)
{
    const start_grid launcher = {0, 0};
    return check_starts_on(user, ts, n, timeout, launcher);
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

/* The kernel (declared in session_starts.h) on grids of the grader's choosing, each with 2 to 5
 * times its threads in events and a remainder: one block (a loop that steps by more than the
 * grid skips events), one thread, blocks of one thread (a step computed from gridDim.x and
 * blockDim.x other than their product can be 0 there), blocks of 96 threads (not a power of
 * two), and a grid drawn from the seed (2 to 40 blocks of 32 to 1024 threads). */
static int case_grids(tut_grader *g)
{
    /* No block larger than the compiled kernel allows (__launch_bounds__, registers): such a
     * launch fails whatever the kernel's loop does. */
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, session_start_kernel));
    const unsigned most = attr.maxThreadsPerBlock >= 32 ? attr.maxThreadsPerBlock / 32 * 32
                                                        : (unsigned)attr.maxThreadsPerBlock;
    start_grid grids[5] = {
        {1, 256},
        {1, 1},
        {(unsigned)tut_grader_prime(g, 2, 61), 1},
        {(unsigned)tut_grader_odd(g, 3, 99), 96},
        {(unsigned)tut_grader_size(g, 2, 40), 32 * (unsigned)tut_grader_size(g, 1, 32)},
    };
    int ok = 1;
    for (int k = 0; k < 5; ++k) {
        if (grids[k].threads > most)
            grids[k].threads = most;
        const int64_t threads = (int64_t)grids[k].blocks * grids[k].threads;
        /* 2 to 5 times the grid's threads and a remainder short of one more (0: a multiple) */
        const int64_t n = threads * (int64_t)tut_grader_size(g, 2, 5) +
                          (int64_t)tut_grader_size(g, 0, (size_t)threads - 1);
        graded_events e = grading_events(g, EVENTS_MIXED, n, -1);
        ok &= check_starts_on(e.user, e.ts, e.n, e.timeout, grids[k]);
        grading_events_free(&e);
    }
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

typedef struct {
    const int64_t *user, *ts;
    int64_t n, timeout;
    int64_t *start;
} starts_job;

static void run_starts(void *arg)
{
    const starts_job *j = (const starts_job *)arg;
    session_start_values_gpu(j->user, j->ts, j->n, j->timeout, j->start);
}

/* The work check: 2^25 events (fewer where they do not fit), checked first, then timed against a
 * device copy of the 24 bytes an event moves (16 read, 8 written), as ex03.2's. A loop that
 * steps by blockDim.x, or by anything less than the grid's threads, gives the right values but
 * visits each event many times (a thousand times on an H100's one wave of blocks). The bar
 * (common/speed_bars.h) is a loose one: it checks the work done, not the last few per cent. */
static int speed(tut_grader *g, double bar)
{
    int64_t n = (int64_t)1 << 25;
    while (n > ((int64_t)1 << 22) && !tut_device_fits((size_t)n * 48, 256u << 20))
        n /= 2;
    if (!tut_device_fits((size_t)n * 48, 256u << 20)) {
        printf("skipped: 2^22 events and their copy do not fit in this GPU's free memory\n");
        exit(TUT_EXIT_SKIP);
    }
    graded_events e = grading_events(g, EVENTS_MIXED, n, -1);
    int ok = check_starts(e.user, e.ts, n, e.timeout);
    if (ok) {
        const size_t bytes = tut_bytes((size_t)n, sizeof(int64_t), "events");
        int64_t *events = (int64_t *)tut_device_alloc(2 * bytes, "user ids and timestamps");
        int64_t *start = (int64_t *)tut_device_alloc(bytes, "start values");
        void *copy_dst = tut_device_alloc(tut_bytes((size_t)n, 12, "copy"), "copy destination");
        CUDA_CHECK(cudaMemcpy(events, e.user, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(events + n, e.ts, bytes, cudaMemcpyHostToDevice));
        starts_job job = {events, events + n, n, e.timeout, start};
        tut_copy_job copy = {copy_dst, events, (size_t)n * 12};
        double kernel_ms, copy_ms;
        tut_grader_time_pair_unless_far(run_starts, &job, tut_copy_work, &copy, 30.0, &kernel_ms,
                                        &copy_ms);
        ok = tut_grader_speed_verdict("session_start_values_gpu", n / kernel_ms * 1e-6,
                                      "copy of 24 bytes per event", n / copy_ms * 1e-6,
                                      "G events/s", bar);
        tut_device_free(copy_dst);
        tut_device_free(start);
        tut_device_free(events);
    }
    grading_events_free(&e);
    return ok;
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"one", case_one},
    {"extremes", case_extremes},
    {"many", case_many},
    {"grids", case_grids},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex03.1",
                             .title = "session starts as a map",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = SPEED_BAR};
    return tut_exercise_main(argc, argv, &ex);
}
