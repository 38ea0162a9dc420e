/* Grader of ex07.4, the prediction: a reduction (a dot product, a sum) of two arrays of 10^8
 * floats reads 800 MB and writes 4 bytes; a copy of the same 800 MB reads them and writes them
 * again. The student writes time(reduction) / time(copy) in ex07_prediction.txt before running;
 * this program measures it with CUB's DeviceReduce::Sum over the 2 x 10^8 floats and
 * cudaMemcpyAsync of them, device to device, timed the same way (tut_grader_time_pair): code of
 * the grader and the libraries, the same in the exercises build. A prediction within 25% of the
 * measured ratio passes; the solution file says why, and what the H100 measured. */
#include <math.h>
#include <stdio.h>

#include <cub/device/device_reduce.cuh>

#include "exercise.h"
#include "tutorial.h"

#define PREDICTION_N 100000000ull

typedef struct {
    const float *src;
    float *dst, *sum;
    int items;
    void *temp;
    size_t temp_bytes;
} reduce_job;

static void run_sum(void *p)
{
    reduce_job *j = (reduce_job *)p;
    CUDA_CHECK(cub::DeviceReduce::Sum(j->temp, j->temp_bytes, j->src, j->sum, j->items));
}

static void run_copy(void *p)
{
    const reduce_job *j = (const reduce_job *)p;
    CUDA_CHECK(cudaMemcpyAsync(j->dst, j->src, (size_t)j->items * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0));
}

static double measure(tut_grader *g)
{
    const size_t floats = 2 * PREDICTION_N;
    float *src = (float *)tut_device_alloc(floats * sizeof(float), "a and b");
    float *dst = (float *)tut_device_alloc(floats * sizeof(float), "copy");
    float *sum = (float *)tut_device_alloc(sizeof(float), "sum");
    /* Zeros: the values change neither the time of a sum nor that of a copy. */
    CUDA_CHECK(cudaMemset(src, 0, floats * sizeof(float)));
    reduce_job j = {.src = src, .dst = dst, .sum = sum, .items = (int)floats, .temp = NULL,
                    .temp_bytes = 0};
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, j.temp_bytes, j.src, j.sum, j.items));
    j.temp = tut_device_alloc(j.temp_bytes, "CUB temporary storage");
    (void)g;
    double sum_ms = 0.0, copy_ms = 0.0;
    tut_grader_time_pair(run_sum, &j, run_copy, &j, &sum_ms, &copy_ms);
    printf("%zu floats (%.0f MB): CUB sum %.4f ms (%.0f GB/s read), copy %.4f ms (%.0f GB/s "
           "read + written)\n", floats, floats * 4e-6, sum_ms, floats * 4e-6 / sum_ms, copy_ms,
           2.0 * floats * 4e-6 / copy_ms);
    tut_device_free(src);
    tut_device_free(dst);
    tut_device_free(sum);
    tut_device_free(j.temp);
    return sum_ms / copy_ms;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex07.4", .title = "predict: reading against copying",
        .measure = measure,
        .prediction_what = "CUB sum of 2 x 10^8 floats, time / time of copying them",
        .prediction_tolerance = 0.25};
    return tut_exercise_main(argc, argv, &ex);
}
