/* Grader of ex02.1, one launch per step (2_launch_per_step.cu: heat_step_kernel). The kernel
 * boundary is the barrier: the kernel needs no synchronisation, but it must update every point,
 * read 0 beyond both walls and cover any rod with a grid-stride loop. Every case runs it through
 * the chapter's host code (heat_run_launch_per_step) from poisoned buffers and compares each
 * point with the CPU reference bit for bit. */
#include "heat_grading.h"
#include "tutorial.h"

static const heat_variant_under_test step = {"launch per step", heat_step_prepare,
                                             heat_run_launch_per_step};

static long long draw_steps(tut_grader *g) { return (long long)tut_grader_size(g, 1, 40); }

/* 2 and 3 points: both walls at once. */
static int case_walls(tut_grader *g)
{
    return heat_grade_run(g, &step, tut_grader_size(g, 2, 3), draw_steps(g), 0, 0);
}

static int case_primes(tut_grader *g)
{
    return heat_grade_run(g, &step, tut_grader_prime(g, 5, 100003), draw_steps(g), 0, 0);
}

/* A multiple of the block size, one less or one more, with a block size drawn too. */
static int case_block_edges(tut_grader *g)
{
    const int threads = heat_grade_threads(g);
    return heat_grade_run(g, &step, tut_grader_tile_edge(g, (size_t)threads, 64), draw_steps(g),
                          threads, 0);
}

/* A grid of 1 to 5 blocks for up to a million points: only a grid-stride loop covers them. */
static int case_small_grid(tut_grader *g)
{
    const size_t blocks = tut_grader_size(g, 1, 5);
    return heat_grade_run(g, &step, tut_grader_odd(g, 100001, 1000001), draw_steps(g), 0, blocks);
}

/* The boundaries by design: the warp, a block size drawn from the seed and a grid of 1 to 5
 * such blocks (the grid-stride loop's stride), their multiples -1, 0, +1, the smallest rods. */
static int case_boundaries(tut_grader *g)
{
    const int threads = heat_grade_threads(g);
    const size_t blocks = tut_grader_size(g, 1, 5);
    const tut_width widths[] = {{"warp", (size_t)g->dev->warp_size},
                                {"block", (size_t)threads},
                                {"grid", blocks * (size_t)threads}};
    return heat_grade_boundaries(g, &step, widths, TUT_COUNT(widths),
                                 2 * blocks * (size_t)threads + 2, threads, blocks);
}

static const tut_grader_case cases[] = {
    {"walls", case_walls},
    {"primes", case_primes},
    {"block_edges", case_block_edges},
    {"small_grid", case_small_grid},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex02.1",
                             .title = "one launch per step",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
