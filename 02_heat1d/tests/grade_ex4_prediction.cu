/* Grader of ex02.4, a prediction: on a rod of 2^24 points (134 MB per buffer, more than any
 * GPU's L2), how fast is one plain step of the heat equation, as a fraction of the bandwidth of
 * a device-to-device copy of the rod? The step is the chapter's grid-wide-barrier kernel
 * (1_cooperative.cu); the copy is cudaMemcpy of the same bytes, timed the same way in the same
 * run. Measured: copy time per byte / step time per byte = copy ms / (ms per step). The count of
 * the docs (section 7): a step reads 8 and writes 8 bytes per point, the copy reads 8 and writes
 * 8: the same bytes. The prediction passes within 20% of the measurement. */
#include <math.h>
#include <stdio.h>

#include "heat_grading.h"
#include "tutorial.h"

#define ROD_POINTS (1ull << 24)
#define ROD_STEPS 20

static void run_steps(void *job) { heat_run_cooperative((const heat_job *)job); }

static double measure(tut_grader *g)
{
    heat_job job = heat_grade_timing_job(g, ROD_POINTS, ROD_STEPS);
    char why[320] = "";
    if (!heat_cooperative_prepare(&job, why, sizeof why)) {
        printf("cannot run the cooperative kernel here: %s\n", why);
        heat_grade_free_job(&job);
        return NAN;
    }
    /* The copy reads the rod and writes the other buffer: the bytes of one step. */
    tut_copy_job copy = {job.b, job.a, ROD_POINTS * sizeof(double)};
    double steps_ms = 0.0, copy_ms = 0.0;
    tut_grader_time_pair(run_steps, &job, tut_copy_work, &copy, &steps_ms, &copy_ms);
    const double step_ms = steps_ms / ROD_STEPS;
    printf("%llu points: a step %.2f us (grid.sync() kernel, %zu blocks), a copy of the rod "
           "%.2f us (%.0f GB/s read + write)\n",
           ROD_POINTS, 1e3 * step_ms, job.launch.blocks, 1e3 * copy_ms,
           2.0 * ROD_POINTS * sizeof(double) / copy_ms * 1e-6);
    heat_grade_free_job(&job);
    return copy_ms / step_ms;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex02.4",
        .title = "predict a plain step against a copy",
        .needs = TUT_NEED_COOPERATIVE_LAUNCH,
        .measure = measure,
        .prediction_what = "a step's bandwidth / a copy's, 2^24 points (copy time / step time)",
        .prediction_tolerance = 0.2};
    return tut_exercise_main(argc, argv, &ex);
}
