/* Grader of ex02.3, one block with the rod in registers (4_block_registers.cu:
 * heat_block_registers_kernel): each thread keeps a strip of POINTS_PER_THREAD points in
 * registers and trades only its two ends through shared memory, one __syncthreads() per step.
 * Correctness: every case through the chapter's host code from poisoned buffers, each point
 * against the CPU reference bit for bit; racecheck and synccheck on the first case.
 * Speed (the reason for the exercise): the document's rod (1001 points), steps per second
 * against the chapter's grid-wide barrier (1_cooperative.cu, grid.sync() between steps) on the
 * same rod, timed the same way in the same run. The bar, 10, is a one-block barrier beating a
 * grid barrier by an order of magnitude: on an H100 the chapter's register kernel took 0.076 us
 * per step against 1.30 us (17x), and its shared-memory kernel at 512 threads 0.195 us (6.7x),
 * so a kernel that keeps the rod in shared memory does not pass. */
#include "heat_grading.h"
#include "tutorial.h"

#define SPEED_POINTS 1001 /* the document's rod */
#define SPEED_STEPS 2000
#define SPEED_BAR TUT_SPEED_BAR_EX02_3 /* common/speed_bars.h */

static const heat_variant_under_test registers = {
    "one block, registers", heat_block_registers_prepare, heat_run_block_registers};

static long long draw_steps(tut_grader *g) { return (long long)tut_grader_size(g, 1, 40); }

/* Several warps, a prime number of points (the sanitizers run this one: keep it small). */
static int case_primes(tut_grader *g)
{
    return heat_grade_run(g, &registers, tut_grader_prime(g, 131, 997), draw_steps(g), 0, 0);
}

/* 2 to 5 points: both walls in one thread's strip, or a strip longer than the rod. */
static int case_walls(tut_grader *g)
{
    return heat_grade_run(g, &registers, tut_grader_size(g, 2, 5), draw_steps(g), 0, 0);
}

/* A whole warp's strips (32 x POINTS_PER_THREAD points) times k, one less or one more: a
 * thread whose strip ends inside the rod, and the last thread's strip cut short. */
static int case_strip_edges(tut_grader *g)
{
    const size_t warp_points = 32 * (size_t)heat_block_registers_points_per_thread();
    size_t max_k = heat_block_registers_capacity() / warp_points - 1;
    max_k = max_k < 1 ? 1 : max_k;
    return heat_grade_run(g, &registers, tut_grader_tile_edge(g, warp_points, max_k),
                          draw_steps(g), 0, 0);
}

/* The most points one block holds (every thread a full strip, the last one's right end the
 * wall), then one less. */
static int case_capacity(tut_grader *g)
{
    const size_t n = heat_block_registers_capacity();
    const int ok = heat_grade_run(g, &registers, n, draw_steps(g), 0, 0);
    return heat_grade_run(g, &registers, n - 1, draw_steps(g), 0, 0) && ok;
}

/* Many steps: a race on the edge slots that shows rarely per step shows here. */
static int case_long_run(tut_grader *g)
{
    return heat_grade_run(g, &registers, tut_grader_odd(g, 501, 3001),
                          (long long)tut_grader_size(g, 2000, 5000), 0, 0);
}

/* The boundaries by design: one thread's strip (POINTS_PER_THREAD), a warp's strips and the
 * block's capacity, their multiples -1, 0, +1, every residue of a short strip, the smallest
 * rods. */
static int case_boundaries(tut_grader *g)
{
    const size_t strip = (size_t)heat_block_registers_points_per_thread();
    const size_t capacity = heat_block_registers_capacity();
    const tut_width widths[] = {{"strip", strip},
                                {"warp strips", (size_t)g->dev->warp_size * strip},
                                {"capacity", capacity - 1}};
    return heat_grade_boundaries(g, &registers, widths, TUT_COUNT(widths), capacity, 0, 0);
}

static void run_registers(void *job) { heat_run_block_registers((const heat_job *)job); }
static void run_cooperative(void *job) { heat_run_cooperative((const heat_job *)job); }

static int speed(tut_grader *g, double bar)
{
    if (!heat_grade_run(g, &registers, SPEED_POINTS, SPEED_STEPS, 0, 0))
        return 0;
    heat_job job_registers = heat_grade_timing_job(g, SPEED_POINTS, SPEED_STEPS);
    heat_job job_cooperative = heat_grade_timing_job(g, SPEED_POINTS, SPEED_STEPS);
    char why[320] = "";
    if (!heat_block_registers_prepare(&job_registers, why, sizeof why) ||
        !heat_cooperative_prepare(&job_cooperative, why, sizeof why)) {
        printf("cannot time the document's rod here: %s\n", why);
        return 0;
    }
    double registers_ms = 0.0, cooperative_ms = 0.0;
    tut_grader_time_pair(run_registers, &job_registers, run_cooperative, &job_cooperative,
                         &registers_ms, &cooperative_ms);
    printf("%d points, %d steps: registers %.4f us/step, grid.sync() %.4f us/step\n",
           SPEED_POINTS, SPEED_STEPS, 1e3 * registers_ms / SPEED_STEPS,
           1e3 * cooperative_ms / SPEED_STEPS);
    const int ok = tut_grader_speed_verdict("registers kernel", SPEED_STEPS / registers_ms * 1e3,
                                            "grid.sync() kernel",
                                            SPEED_STEPS / cooperative_ms * 1e3, "steps/s", bar);
    heat_grade_free_job(&job_registers);
    heat_grade_free_job(&job_cooperative);
    return ok;
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"walls", case_walls},
    {"strip_edges", case_strip_edges},
    {"capacity", case_capacity},
    {"long_run", case_long_run},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex02.3",
                             .title = "one block with the rod in registers",
                             .needs = TUT_NEED_COOPERATIVE_LAUNCH,
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = SPEED_BAR};
    return tut_exercise_main(argc, argv, &ex);
}
