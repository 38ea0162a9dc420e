/* Grader of exercise 01.4, a prediction: how much longer does c = a + b take than copying one
 * vector, at n = 2^28 floats? The student's figure (ex01_prediction.txt) is compared with the
 * ratio measured here, on this GPU, with kernels of the grader's own (not the student's). */
#include <stdio.h>
#include <stdlib.h>

#include "exercise.h"
#include "tutorial.h"

__global__ void reference_vecadd_kernel(const float *a, const float *b, float *c, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

typedef struct {
    const float *a, *b;
    float *c;
    size_t n;
} vecadd_job;

static void run_vecadd(void *arg)
{
    const vecadd_job *j = (const vecadd_job *)arg;
    reference_vecadd_kernel<<<(unsigned)((j->n + 255) / 256), 256>>>(j->a, j->b, j->c, j->n);
    LAUNCH_CHECK();
}

static void run_copy(void *arg)
{
    const vecadd_job *j = (const vecadd_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(j->c, j->a, j->n * sizeof(float), cudaMemcpyDeviceToDevice, 0));
}

/* vecadd's time over the copy's: both memory-bound far beyond the L2, so their times follow the
 * bytes they move (12 and 8 per element), as far as each reaches the same bandwidth. */
static double measure(tut_grader *g)
{
    (void)g;
    size_t n = (size_t)1 << 28;
    while (n > ((size_t)1 << 24) && !tut_device_fits(3 * n * sizeof(float), 256u << 20))
        n /= 2;
    if (!tut_device_fits(3 * n * sizeof(float), 256u << 20)) {
        printf("skipped: three vectors of 2^24 floats do not fit in this GPU's free memory\n");
        exit(TUT_EXIT_SKIP);
    }
    if (n != (size_t)1 << 28)
        printf("note: measured at n = %zu (2^28 floats do not fit)\n", n);
    const size_t bytes = n * sizeof(float);
    float *a = (float *)tut_device_alloc(bytes, "a"), *b = (float *)tut_device_alloc(bytes, "b");
    float *c = (float *)tut_device_alloc(bytes, "c");
    CUDA_CHECK(cudaMemset(a, 0, bytes));
    CUDA_CHECK(cudaMemset(b, 0, bytes));
    vecadd_job job = {a, b, c, n};
    double vecadd_ms, copy_ms;
    tut_grader_time_pair(run_vecadd, &job, run_copy, &job, &vecadd_ms, &copy_ms);
    printf("vecadd %.4f ms, copy %.4f ms per call (best of interleaved batches)\n", vecadd_ms,
           copy_ms);
    tut_device_free(a);
    tut_device_free(b);
    tut_device_free(c);
    return vecadd_ms / copy_ms;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex01.4",
                             .title = "predict: vecadd time over copy time",
                             .measure = measure,
                             .prediction_what = "vecadd time / cudaMemcpy time at n = 2^28 floats",
                             .prediction_tolerance = 0.2};
    return tut_exercise_main(argc, argv, &ex);
}
