/* Grader of ex05.2, register blocking (07_blocktile_2d.cu): launch_blocktile_2d only, on sizes
 * drawn from the seed, then --speed at 4096^3 beside cuBLAS FP32 (tests/grade_matmul.cu).
 *
 * The bar: the chapter's blocktile_2d reached 31.5% of cuBLAS FP32 at 4096^3 on an H100
 * (docs/results/05_matmul/variants_4096.csv); 0.20 leaves it a margin of 1.5x, and the 16 x 16
 * tiled kernel (15.8%) stays below it: without the 8 x 8 block of C per thread, no pass. */
#include "cublas_calls.h"
#include "grade_matmul.h"
#include "tutorial.h"

static const graded_matmul blocktile = {.name = "blocktile_2d", .launch = launch_blocktile_2d,
                                        .info = info_blocktile_2d,
                                        .pad = 1, .tile_m = 128, .tile_n = 128, .tile_k = 8,
                                        .thread_m = 8, .thread_n = 8};

static int case_tile_edges(tut_grader *g) { return grade_matmul_case(g, &blocktile, "tile_edges"); }
static int case_strips(tut_grader *g)
{
    return grade_matmul_case(g, &blocktile, "strips");
}
static int case_one(tut_grader *g) { return grade_matmul_case(g, &blocktile, "one"); }
static int case_primes(tut_grader *g) { return grade_matmul_case(g, &blocktile, "primes"); }
static int case_random(tut_grader *g) { return grade_matmul_case(g, &blocktile, "random"); }
static int case_boundaries(tut_grader *g)
{
    return grade_matmul_case(g, &blocktile, "boundaries");
}
static const char BLOCKTILE_LESSON[] =
    "The exercise asks for your own kernel: each thread computes an 8 x 8 block of C from "
    "tiles of A and B in shared memory";

/* The speed test at 4096^3 (grade_matmul_speed: its yardstick creates one cuBLAS handle), then
 * the launcher's cuBLAS calls there: one that calls cuBLAS only for large products passes every
 * case and would be timed at the library's speed. */
static int speed(tut_grader *g, double bar)
{
    const int before = cublas_calls();
    const int fast = grade_matmul_speed(g, &blocktile, bar);
    return cublas_calls_grade_speed(before, 1, "launch_blocktile_2d", BLOCKTILE_LESSON) && fast;
}

/* The product from the student's kernel, not from cuBLAS, which the grader links for the speed's
 * yardstick (cublas_calls.h): the values first, so that the skeleton fails. */
static int case_own_kernel(tut_grader *g)
{
    if (!grade_matmul_case(g, &blocktile, "primes"))
        return 0;
    return cublas_calls_grade("launch_blocktile_2d", BLOCKTILE_LESSON);
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {{"tile_edges", case_tile_edges},
                                            {"strips", case_strips},
                                            {"one", case_one},
                                            {"primes", case_primes},
                                            {"random", case_random},
                                            {"boundaries", case_boundaries},
                                            {"own_kernel", case_own_kernel}};
    const tut_exercise ex = {.id = "ex05.2", .title = "register blocking: 8 x 8 results per thread",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX05_2};
    return tut_exercise_main(argc, argv, &ex);
}
