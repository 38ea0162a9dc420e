/* The smallest rods across parts, many times over: 2 to 7 points, every part count from 2 to
 * the points, on one GPU and (when there are two) on two; each rod is made once and run again
 * and again (--reps, default 200) with a new random start each time, 1 to 4 steps, against the
 * float64 CPU reference. A scatter that the first step does not wait for shows up here as last
 * run's values (or uninitialised memory) in the result. Exit 0 right, 1 wrong, 77 no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_reference.h"
#include "parts.h"
#include "tutorial.h"

#define MAX_POINTS 7

/* One rod, `reps` runs: the number of runs whose result differs from the CPU's; -1 when the
 * variant cannot run this split (NCCL: one part per GPU only, or no NCCL in this build). */
static int run_rod(size_t n, int parts, int gpus, heat_multi_variant v, int reps)
{
    heat_rod r;
    char why[320];
    if (!heat_rod_create(&r, n, parts, gpus, 0.25, 0, why, sizeof why)) {
        printf("  %zu points, %d parts, %d GPU(s): cannot make the rod: %s\n", n, parts, gpus,
               why);
        return 1;
    }
    if (v == HEAT_MULTI_NCCL || v == HEAT_MULTI_NCCL_SERIAL) {
        const int made = heat_nccl_init(&r, why, sizeof why);
        if (made <= 0) {
            heat_rod_destroy(&r);
            if (made < 0)
                printf("  %s, %zu points, %d parts: NCCL failed: %s\n", heat_multi_names[v], n,
                       parts, why);
            return made < 0 ? 1 : -1;
        }
    }
    int wrong = 0;
    for (int rep = 0; rep < reps; ++rep) {
        double u[MAX_POINTS], want[MAX_POINTS], scratch[MAX_POINTS], got[MAX_POINTS];
        const long long steps = 1 + rep % 4;
        heat_init_random(u, n, 1000u * (uint64_t)n + (uint64_t)rep);
        memcpy(want, u, n * sizeof(double));
        heat_reference(want, scratch, n, steps, 0.25);
        heat_rod_scatter(&r, u);
        for (size_t i = 0; i < n; ++i) /* the caller may reuse u at once */
            u[i] = NAN;
        heat_rod_run(&r, v, steps);
        heat_rod_gather(&r, steps, got);
        for (size_t i = 0; i < n; ++i)
            if (!(fabs(got[i] - want[i]) <= 1e-12 * (1.0 + fabs(want[i])))) {
                if (wrong < 3)
                    printf("  %s, %zu points, %d parts, %d GPU(s), run %d (%lld steps): point "
                           "%zu is %.17g, expected %.17g\n", heat_multi_names[v], n, parts, gpus,
                           rep, steps, i, got[i], want[i]);
                ++wrong;
                break;
            }
    }
    heat_rod_destroy(&r);
    return wrong;
}

int main(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    unsigned long long reps = 200;
    const tut_option opts[] = {
        {"--reps", TUT_OPT_SIZE, &reps, "runs of each rod", 1, 100000, NULL},
    };
    tut_parse_or_exit(argc, argv, "multi_small_rods: the smallest rods across parts, many times",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    int wrong = 0, rods = 0;
    for (int gpus = 1; gpus <= 2 && gpus <= visible; ++gpus)
        for (size_t n = 2; n <= MAX_POINTS; ++n)
            for (int parts = 2; parts <= (int)n; ++parts)
                for (int v = 0; v < HEAT_MULTI_VARIANTS; ++v) {
                    const int bad = run_rod(n, parts, gpus, (heat_multi_variant)v, (int)reps);
                    if (bad >= 0) {
                        wrong += bad;
                        ++rods;
                    }
                }
    printf("%d rods (variant, points, parts, GPUs) of 2 to %d points (2 or more parts) on 1%s GPU(s), %llu runs each: %d wrong "
           "run(s)%s\n", rods, MAX_POINTS, visible >= 2 ? " and 2" : "", reps, wrong,
           visible >= 2 ? "" : " (one GPU visible: the two-GPU rods were not run)");
    printf("%s\n", wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
