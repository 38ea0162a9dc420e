/* Grader of ex02.2, the rod in one block's shared memory (3_shared_block.cu:
 * heat_shared_block_kernel): load the rod into shared memory, a step per iteration with one
 * __syncthreads(), write the rod back. Every case runs it through the chapter's host code from
 * poisoned buffers and compares each point with the CPU reference bit for bit; the sanitizer
 * tests (racecheck, synccheck) run the first case: a missing barrier is a shared-memory race
 * whatever the timing. */
#include "heat_grading.h"
#include "tutorial.h"

static const heat_variant_under_test shared = {"one block, shared memory",
                                               heat_shared_block_prepare, heat_run_shared_block};

static long long draw_steps(tut_grader *g) { return (long long)tut_grader_size(g, 1, 40); }

/* Several warps, a prime number of points (the sanitizers run this one: keep it small). */
static int case_primes(tut_grader *g)
{
    return heat_grade_run(g, &shared, tut_grader_prime(g, 67, 997), draw_steps(g), 0, 0);
}

static int case_walls(tut_grader *g)
{
    return heat_grade_run(g, &shared, tut_grader_size(g, 2, 3), draw_steps(g), 0, 0);
}

/* A block size drawn from the seed and a rod of a multiple of it, one less or one more: each
 * thread walks several points (i = threadIdx.x, + blockDim.x, ...). */
static int case_block_edges(tut_grader *g)
{
    const int threads = heat_grade_threads(g);
    size_t max_k = heat_shared_block_capacity() / (size_t)threads - 1;
    max_k = max_k < 1 ? 1 : max_k > 8 ? 8 : max_k;
    return heat_grade_run(g, &shared, tut_grader_tile_edge(g, (size_t)threads, max_k),
                          draw_steps(g), threads, 0);
}

/* The largest rod this GPU's block holds, or one point less. */
static int case_capacity(tut_grader *g)
{
    const size_t n = heat_shared_block_capacity() - tut_grader_size(g, 0, 1);
    return heat_grade_run(g, &shared, n, draw_steps(g), 0, 0);
}

/* Many steps on an odd rod: a race that shows rarely per step shows here. */
static int case_long_run(tut_grader *g)
{
    return heat_grade_run(g, &shared, tut_grader_odd(g, 501, 3001),
                          (long long)tut_grader_size(g, 2000, 5000), 0, 0);
}

/* The boundaries by design: the warp and a block size drawn from the seed (each thread walks
 * i, i + blockDim.x, ...), their multiples -1, 0, +1, the smallest rods, and the capacity of
 * one block's shared memory on this GPU. */
static int case_boundaries(tut_grader *g)
{
    const int threads = heat_grade_threads(g);
    const size_t capacity = heat_shared_block_capacity();
    const tut_width widths[] = {{"warp", (size_t)g->dev->warp_size},
                                {"block", (size_t)threads},
                                {"capacity", capacity - 1}};
    return heat_grade_boundaries(g, &shared, widths, TUT_COUNT(widths), capacity, threads, 0);
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"walls", case_walls},
    {"block_edges", case_block_edges},
    {"capacity", case_capacity},
    {"long_run", case_long_run},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex02.2",
                             .title = "the rod in one block's shared memory",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
