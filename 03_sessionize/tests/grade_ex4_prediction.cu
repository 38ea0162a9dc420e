/* Grader of ex03.4, a prediction: labelling 3 x 10^7 sorted events with the chapter's CUB scan
 * (2_scan_cub.cu), how many times as long as a device-to-device copy of the bytes it must move
 * does it take? Measured: the scan's time over the copy's, both timed the same way in the same
 * run. The count of the docs: the scan reads user id and timestamp (16 bytes) and writes the
 * label (8) per event; the copy moves the same 24 bytes (12 read, 12 written). The prediction
 * passes within 30% of the measurement. */
#include <math.h>
#include <stdio.h>

#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

#define EVENTS 30000000

static double measure(tut_grader *g)
{
    graded_events e = grading_events(g, EVENTS_MIXED, EVENTS, -1);
    grading_device_job d = grading_upload(&cub_scan_variant, &e);
    grading_copy copy = grading_copy_alloc(&d);
    grading_timed timed = {&cub_scan_variant, &d.job};
    double scan_ms = 0.0, copy_ms = 0.0;
    tut_grader_time_pair(grading_run_variant, &timed, tut_copy_work, &copy, &scan_ms,
                         &copy_ms);
    printf("%d events: CUB scan %.3f ms, copy of 24 bytes per event %.3f ms (%.0f GB/s)\n",
           EVENTS, scan_ms, copy_ms, 24.0 * EVENTS / copy_ms * 1e-6);
    grading_copy_free(&copy);
    grading_device_free(&d);
    grading_events_free(&e);
    return scan_ms / copy_ms;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex03.4",
        .title = "predict the scan against a copy",
        .measure = measure,
        .prediction_what = "CUB scan time / copy time of 24 bytes per event, 3 x 10^7 events",
        .prediction_tolerance = 0.3};
    return tut_exercise_main(argc, argv, &ex);
}
