/* Grader of ex05.3, 16-byte loads and A transposed in shared memory (08_vectorized.cu):
 * launch_vectorized only, on sizes drawn from the seed (N and K zero-padded to multiples of 4,
 * as the chapter's driver does), then --speed at 4096^3 beside cuBLAS FP32.
 *
 * The bar: the chapter's vectorized kernel reached 65.1% of cuBLAS FP32 at 4096^3 on an H100
 * (docs/results/05_matmul/variants_4096.csv); 0.40 leaves it a margin of 1.6x, and the scalar
 * blocktile_2d (31.5%) stays below it: the float4 accesses are what this bar grades. */
#include "cublas_calls.h"
#include "grade_matmul.h"
#include "tutorial.h"

static const graded_matmul vectorized = {.name = "vectorized", .launch = launch_vectorized,
                                         .info = info_vectorized,
                                         .pad = 4, .tile_m = 128, .tile_n = 128, .tile_k = 8,
                                        .thread_m = 8, .thread_n = 8};

static int case_tile_edges(tut_grader *g)
{
    return grade_matmul_case(g, &vectorized, "tile_edges");
}
static int case_strips(tut_grader *g)
{
    return grade_matmul_case(g, &vectorized, "strips");
}
static int case_one(tut_grader *g) { return grade_matmul_case(g, &vectorized, "one"); }
static int case_primes(tut_grader *g) { return grade_matmul_case(g, &vectorized, "primes"); }
static int case_random(tut_grader *g) { return grade_matmul_case(g, &vectorized, "random"); }
static int case_boundaries(tut_grader *g)
{
    return grade_matmul_case(g, &vectorized, "boundaries");
}
static const char VECTORIZED_LESSON[] =
    "The exercise asks for your own kernel: float4 loads of A and B, A stored transposed "
    "in shared memory, 8 x 8 results per thread";

/* The speed test at 4096^3 (grade_matmul_speed: its yardstick creates one cuBLAS handle), then
 * the launcher's cuBLAS calls there: one that calls cuBLAS only for large products passes every
 * case and would be timed at the library's speed. */
static int speed(tut_grader *g, double bar)
{
    const int before = cublas_calls();
    const int fast = grade_matmul_speed(g, &vectorized, bar);
    return cublas_calls_grade_speed(before, 1, "launch_vectorized", VECTORIZED_LESSON) && fast;
}

/* The product from the student's kernel, not from cuBLAS, which the grader links for the speed's
 * yardstick (cublas_calls.h): the values first, so that the skeleton fails. */
static int case_own_kernel(tut_grader *g)
{
    if (!grade_matmul_case(g, &vectorized, "primes"))
        return 0;
    return cublas_calls_grade("launch_vectorized", VECTORIZED_LESSON);
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
    const tut_exercise ex = {.id = "ex05.3", .title = "float4 loads and a transposed A tile",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX05_3};
    return tut_exercise_main(argc, argv, &ex);
}
