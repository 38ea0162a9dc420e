/* Grader of ex06.4, the prediction: the vector add of the chapter's 20M elements, serial
 * (copy-in, kernel, copy-out, one after the other) against the best any pipeline of the same
 * stages can do (plan.h, pipeline_bound: the slowest stage alone, with two copy engines). The
 * student writes serial / bound in ex06_prediction.txt before running; this program measures
 * each stage alone and the serial run on the legacy stream, timed the same way
 * (tut_grader_time_pair, best batch), with the grader's own code: the same in the exercises
 * build. A prediction within 12% of the measured ratio passes; the solution file says why the
 * figure is much the same on every GPU with two copy engines, and what the H100 measured. */
#include <math.h>
#include <stdio.h>

#include "grade_streams.h"
#include "plan.h"
#include "tutorial.h"

#define PREDICTION_N 20000000ull

static double measure(tut_grader *g)
{
    stream_rig r;
    rig_create(&r, PREDICTION_N, 1, 0, g->seed);
    rig_poison(&r);
    rig_serial(&r); /* once, checked: the timings below are of the right work */
    if (!rig_check(&r, "  the serial vector add")) {
        rig_destroy(&r);
        return NAN;
    }
    double in = 0.0, kernel = 0.0, out = 0.0, serial = 0.0;
    tut_grader_time_pair(rig_serial, &r, rig_copy_in, &r, &serial, &in);
    tut_grader_time_pair(rig_kernel, &r, rig_copy_out, &r, &kernel, &out);
    const double bound = pipeline_bound(in, kernel, out, g->dev->async_engines);
    printf("%llu elements: copy-in %.3f ms, kernel %.3f ms, copy-out %.3f ms; serial %.3f ms; "
           "bound %.3f ms (%d copy engines)\n", PREDICTION_N, in, kernel, out, serial, bound,
           g->dev->async_engines);
    if (g->dev->async_engines < 2)
        printf("note: with one copy engine the copies take turns, so the bound is copy-in + "
               "copy-out and the answer differs from the two-engine one\n");
    rig_destroy(&r);
    return serial / bound;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex06.4", .title = "predict: what overlapping the stages can gain",
        .measure = measure,
        .prediction_what = "vector add of 20M elements, serial time / pipeline bound",
        .prediction_tolerance = 0.12};
    return tut_exercise_main(argc, argv, &ex);
}
