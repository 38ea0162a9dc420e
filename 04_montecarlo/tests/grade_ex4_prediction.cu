/* Grader of ex04.4, a prediction: the library pipeline (2_curand_host_cub.cu: cuRAND's host
 * generator writes a chunk of 2^28 uniforms, CUB's TransformReduce reads them back), per sample,
 * as a multiple of the time a device-to-device copy takes per 4-byte float. Measured on 2^30
 * samples of 1/x, the copy of one chunk, timed the same way in the same run. The count of the
 * docs: the generator writes 4 bytes per sample and the reduction reads them: 8 bytes, the same
 * as a copy's 4 read and 4 written. The prediction passes within 25% of the measurement. */
#include <math.h>
#include <stdio.h>

#include "mc_grading.h"
#include "tutorial.h"
#include "variants.h"

#define SAMPLES (1ull << 30)
#define CHUNK (1ull << 28)

static void run_library(void *job) { mc_library_run((mc_library_job *)job); }

static double measure(tut_grader *g)
{
    mc_problem p = mc_grading_problem(g, MC_INV, SAMPLES);
    p.a = 1.0;
    p.b = 2.0;
    mc_library_job job;
    mc_library_create(&job, &p, CHUNK);
    tut_copy_job copy = {tut_device_alloc(CHUNK * sizeof(float), "copy destination"), job.uniforms,
                     CHUNK * sizeof(float)};
    double library_ms = 0.0, copy_ms = 0.0;
    tut_grader_time_pair(run_library, &job, tut_copy_work, &copy, &library_ms, &copy_ms);
    const double per_sample = library_ms / SAMPLES, per_float = copy_ms / CHUNK;
    printf("library pipeline: %.3f ms for 2^30 samples (%.0f G samples/s); copy: %.3f ms for "
           "2^28 floats (%.0f GB/s read + write)\n",
           library_ms, SAMPLES / library_ms * 1e-6, copy_ms, 8.0 * CHUNK / copy_ms * 1e-6);
    tut_device_free(copy.dst);
    mc_library_destroy(&job);
    return per_sample / per_float;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex04.4",
        .title = "predict the library pipeline against a copy",
        .measure = measure,
        .prediction_what = "library pipeline time per sample / copy time per float, 2^30 samples",
        .prediction_tolerance = 0.25};
    return tut_exercise_main(argc, argv, &ex);
}
