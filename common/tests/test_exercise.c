/* CPU tests of the graders' helpers (common/exercise.h): sizes drawn from a seed, the prediction
 * file's parser, the prediction's tolerance, the speed verdict. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "unit_test.h"

static void test_sizes(void)
{
    tut_grader g;
    tut_rng_seed(&g.rng, 12345);
    for (int i = 0; i < 1000; ++i) {
        const size_t n = tut_grader_size(&g, 10, 20);
        EXPECT(n >= 10 && n <= 20);
        const size_t odd = tut_grader_odd(&g, 3, 101);
        EXPECT(odd % 2 == 1 && odd >= 3 && odd <= 101);
        const size_t p = tut_grader_prime(&g, 1000, 2000);
        EXPECT(tut_grader_is_prime(p) && p >= 1000 && p <= 2000);
        const size_t edge = tut_grader_tile_edge(&g, 32, 10);
        const size_t r = edge % 32;
        EXPECT(edge >= 31 && edge <= 321 && (r == 0 || r == 1 || r == 31));
    }
    EXPECT(tut_grader_size(&g, 7, 7) == 7);
    EXPECT(!tut_grader_is_prime(0) && !tut_grader_is_prime(1) && tut_grader_is_prime(2) &&
           tut_grader_is_prime(1000003) && !tut_grader_is_prime(1000001));
    /* The same seed draws the same sizes: a printed seed reruns a failure exactly. */
    tut_grader a, b;
    tut_rng_seed(&a.rng, 99);
    tut_rng_seed(&b.rng, 99);
    EXPECT(tut_grader_prime(&a, 2, 1u << 30) == tut_grader_prime(&b, 2, 1u << 30));
}

static int read_text(const char *text, double *value, char *why, size_t len)
{
    char path[] = "/tmp/tut_prediction_XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fputs(text, f);
    fclose(f);
    const int ok = tut_exercise_read_prediction(path, value, why, len);
    remove(path);
    return ok;
}

static void test_prediction_file(void)
{
    double v = 0.0;
    char why[512];
    EXPECT(read_text("# a comment\nprediction = 1.5\n", &v, why, sizeof why) && v == 1.5);
    EXPECT(read_text("  prediction=2e3   # bytes\n", &v, why, sizeof why) && v == 2000.0);
    EXPECT(!read_text("prediction = TODO\n", &v, why, sizeof why) && strstr(why, "TODO"));
    EXPECT(!read_text("prediction = \n", &v, why, sizeof why) && strstr(why, "TODO"));
    EXPECT(!read_text("prediction = fast\n", &v, why, sizeof why) && strstr(why, "not a number"));
    EXPECT(!read_text("prediction = nan\n", &v, why, sizeof why));
    EXPECT(!read_text("my guess: 1.5\n", &v, why, sizeof why) && strstr(why, "no line"));
    EXPECT(!tut_exercise_read_prediction("/nonexistent/x.txt", &v, why, sizeof why) &&
           strstr(why, "cannot open"));
}

static void test_tolerance(void)
{
    EXPECT(tut_exercise_prediction_ok(1.5, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(1.0, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(NAN, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(1.5, NAN, 0.2));
    EXPECT(tut_grader_speed_verdict("k", 90.0, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", 50.0, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", NAN, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", 50.0, "c", 0.0, "GB/s", 0.6));
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"sizes", test_sizes}, {"prediction_file", test_prediction_file},
        {"tolerance", test_tolerance}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
