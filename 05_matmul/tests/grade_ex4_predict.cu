/* Grader of ex05.4, the prediction: how much longer does a matrix product take when every side
 * doubles? The student writes the figure in ex05_prediction.txt before running; this program
 * measures it with cuBLAS FP32 (the library: the same in the exercises build) at 4096^3 and
 * 8192^3, timed the same way (tut_grader_time_pair), and passes a prediction within 15% of the
 * measured ratio. Both sizes are large enough to keep every GPU of the table busy, so the ratio
 * is much the same on each (the solution file says why, and what the H100 measured). */
#include <stdio.h>

#include "check_cublas.h"
#include "exercise.h"
#include "tutorial.h"

#define SMALL 4096
#define LARGE 8192

typedef struct {
    cublasHandle_t handle;
    int n;
    const float *A, *B;
    float *C;
} sgemm_job;

/* Square, row-major or not: for timing only the shape matters. Plain FP32 (pedantic). */
static void run_sgemm(void *p)
{
    const sgemm_job *j = (const sgemm_job *)p;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgemm(j->handle, CUBLAS_OP_N, CUBLAS_OP_N, j->n, j->n, j->n, &one, j->B,
                             j->n, j->A, j->n, &zero, j->C, j->n));
}

/* Values in [-1, 1) from a hash of the index: random enough that no shortcut applies. */
__global__ void fill_kernel(float *x, size_t n, unsigned seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x[i] = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

static sgemm_job make_job(cublasHandle_t handle, int n, unsigned seed)
{
    const size_t elems = (size_t)n * n;
    float *A = (float *)tut_device_alloc(elems * sizeof(float), "A");
    float *B = (float *)tut_device_alloc(elems * sizeof(float), "B");
    float *C = (float *)tut_device_alloc(elems * sizeof(float), "C");
    fill_kernel<<<1024, 256>>>(A, elems, seed);
    LAUNCH_CHECK();
    fill_kernel<<<1024, 256>>>(B, elems, seed + 1);
    LAUNCH_CHECK();
    const sgemm_job j = {.handle = handle, .n = n, .A = A, .B = B, .C = C};
    return j;
}

static void free_job(sgemm_job *j)
{
    tut_device_free((void *)j->A);
    tut_device_free((void *)j->B);
    tut_device_free(j->C);
}

static double measure(tut_grader *g)
{
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
    const unsigned seed = (unsigned)g->seed;
    sgemm_job small = make_job(handle, SMALL, seed), large = make_job(handle, LARGE, seed + 2);
    double large_ms = 0.0, small_ms = 0.0;
    tut_grader_time_pair(run_sgemm, &large, run_sgemm, &small, &large_ms, &small_ms);
    printf("cuBLAS FP32: %d^3 %.3f ms, %d^3 %.3f ms (best batches)\n", SMALL, small_ms, LARGE,
           large_ms);
    free_job(&small);
    free_job(&large);
    CUBLAS_CHECK(cublasDestroy(handle));
    return large_ms / small_ms;
}

int main(int argc, char **argv)
{
    const tut_exercise ex = {
        .id = "ex05.4", .title = "predict: the time of a product when every side doubles",
        .measure = measure,
        .prediction_what = "cuBLAS FP32 time at 8192^3 / time at 4096^3",
        .prediction_tolerance = 0.15};
    return tut_exercise_main(argc, argv, &ex);
}
