/* Grader of ex05.1, the tiled kernel correct at every size (04_tiled.cu): it runs launch_tiled
 * only, on sizes drawn from the seed (tests/grade_matmul.cu). The sanitizers run the "strips"
 * case, several blocks and strips of K: a barrier left out is a shared-memory race there, and
 * racecheck's test is the exercise's lesson (a failure caps the grade, CMakeLists.txt). */
#include "grade_matmul.h"
#include "tutorial.h"

static const graded_matmul tiled = {.name = "tiled", .launch = launch_tiled,
                                    .info = info_tiled, .pad = 1,
                                    .tile_m = 16, .tile_n = 16, .tile_k = 16};

static int case_tile_edges(tut_grader *g) { return grade_matmul_case(g, &tiled, "tile_edges"); }
static int case_strips(tut_grader *g) { return grade_matmul_case(g, &tiled, "strips"); }
static int case_one(tut_grader *g) { return grade_matmul_case(g, &tiled, "one"); }
static int case_primes(tut_grader *g) { return grade_matmul_case(g, &tiled, "primes"); }
static int case_random(tut_grader *g) { return grade_matmul_case(g, &tiled, "random"); }
static int case_boundaries(tut_grader *g)
{
    return grade_matmul_case(g, &tiled, "boundaries");
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {{"tile_edges", case_tile_edges},
                                            {"strips", case_strips},
                                            {"one", case_one},
                                            {"primes", case_primes},
                                            {"random", case_random},
                                            {"boundaries", case_boundaries}};
    const tut_exercise ex = {.id = "ex05.1", .title = "tiled kernel correct at every size",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
