/* Grader of exercise 01.1: the grid-stride loop (vecadd_f32_grid_stride_kernel). Every case
 * launches the student's kernel on a grid drawn from the seed, much smaller or larger than the
 * vector, and checks every element and the guard zones around c (common/grade_array.h);
 * `huge` goes past 2^31 elements; the speed test checks that each element is visited once. */
#include "vecadd_grading.h"
#include "vecadd_kernels.h"

static const char *const LABEL = "grid-stride";
static const vecadd_kernel_fn KERNEL = vecadd_f32_grid_stride_kernel;

/* One size on one grid: a, b from the seed, c = a + b exactly, nothing written outside c. */
static int grade_vecadd(tut_grader *g, size_t n, unsigned blocks, unsigned threads)
{
    const tut_array_job job = vecadd_job(&KERNEL, LABEL, NULL, 0);
    return tut_array_check(g, &job, n, blocks, threads);
}

/* A prime size, on a grid far smaller than it (at least four strides), none a round number. */
static int case_primes(tut_grader *g)
{
    unsigned blocks, threads;
    tut_array_random_grid(g, &blocks, &threads);
    const size_t n = tut_grader_prime(g, 4 * (size_t)blocks * threads + 1, 1000003);
    return grade_vecadd(g, n, blocks, threads);
}

/* One element, then none (n = 0: nothing may be written). The empty size is never a case of its
 * own: an untouched skeleton, which writes nothing, would pass it. */
static int case_one(tut_grader *g)
{
    unsigned blocks, threads;
    tut_array_random_grid(g, &blocks, &threads);
    const int ok = grade_vecadd(g, 1, blocks, threads);
    return grade_vecadd(g, 0, blocks, threads) && ok;
}

/* A multiple of the grid's thread count, one less, one more: the last stride full, short by one,
 * or holding a single element. */
static int case_stride_edges(tut_grader *g)
{
    unsigned blocks, threads;
    tut_array_random_grid(g, &blocks, &threads);
    const size_t n = tut_grader_tile_edge(g, (size_t)blocks * threads, 40);
    return grade_vecadd(g, n, blocks, threads);
}

/* More threads than elements: most threads must do nothing. */
static int case_small(tut_grader *g)
{
    const unsigned blocks = (unsigned)tut_grader_size(g, 64, 512), threads = 256;
    const size_t n = tut_grader_odd(g, 3, (size_t)blocks * threads - 1);
    return grade_vecadd(g, n, blocks, threads);
}

/* Past 2^31 elements (two vectors of 8 GiB; skipped where the GPU's memory is short): an int
 * index wraps there, so the elements past 2^31 are never written. */
static int case_huge(tut_grader *g)
{
    return grade_vecadd_huge(g, vecadd_f32_grid_stride_kernel, LABEL);
}

/* The work check: a loop that steps by less than the whole grid (blockDim.x, gridDim.x) gives
 * the right values but visits each element many times. At 2^28 floats on one wave of blocks the
 * kernel moves 12 bytes per element as cudaMemcpy moves 8; the chapter's grid-stride kernel
 * reaches 0.92 of the copy's GB/s on an H100 (docs/results/01_vecadd/bandwidth.csv), a loop
 * stepping by blockDim.x about 1 / (blocks in the grid). The bar (common/speed_bars.h) is a
 * loose one: it checks the work done, not the last few per cent. */
static int speed(tut_grader *g, double bar)
{
    const tut_array_job job = vecadd_job(&KERNEL, LABEL, NULL, 0);
    return tut_array_speed(g, &job, 12.0, bar);
}

/* The boundaries by design (common/grade_array.h): multiples -1, 0, +1 of the warp, the block
 * and the grid's threads on one wave and on a drawn grid, the smallest sizes. */
static int case_boundaries(tut_grader *g)
{
    const tut_array_job job = vecadd_job(&KERNEL, LABEL, NULL, 0);
    return tut_array_boundaries(g, &job);
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"primes", case_primes},  {"one", case_one},     {"stride_edges", case_stride_edges},
        {"small", case_small},    {"huge", case_huge}, {"boundaries", case_boundaries},
    };
    const tut_exercise ex = {.id = "ex01.1",
                             .title = "the grid-stride loop",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX01_1};
    return tut_exercise_main(argc, argv, &ex);
}
