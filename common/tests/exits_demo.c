/* A program that fails on purpose in the ways common/ promises to report: the ctest cases beside
 * it check the exit codes and the messages (bad options: 2, failed CUDA call: 1, ...). */
#include <stdio.h>
#include <string.h>

#include "check_cublas.h"
#include "check_curand.h"
#include "tutorial.h"

int main(int argc, char **argv)
{
    unsigned long long n = 1000;
    double k = 0.25;
    int what = 0;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "a size", 1, 1e9, NULL},
        {"--k", TUT_OPT_DOUBLE, &k, "a coefficient in (0, 0.5]", 1e-300, 0.5, NULL},
        {"--fail", TUT_OPT_CHOICE, &what, "what to do",
         0, 0, "nothing|cuda-check|overflow|no-gpu-skip|cublas-check|curand-check"},
    };
    tut_parse_or_exit(argc, argv, "exits_demo: exercises common/'s error paths", opts,
                      TUT_COUNT(opts));
    switch (what) {
    case 1: /* a failing CUDA call: the error code is passed directly, no GPU needed */
        CUDA_CHECK(cudaErrorInvalidValue);
        break;
    case 2: /* an allocation size that overflows */
        tut_bytes((size_t)-1 / 2, 4, "the big array");
        break;
    case 3: { /* the GPU finder where no GPU is visible (the test hides them) */
        tut_select_device(TUT_NEED_NOTHING);
        break;
    }
    case 4: /* library status codes are checked and named the same way */
        CUBLAS_CHECK(CUBLAS_STATUS_SUCCESS);
        CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
        break;
    case 5:
        CURAND_CHECK(CURAND_STATUS_SUCCESS);
        CURAND_CHECK(CURAND_STATUS_LAUNCH_FAILURE);
        break;
    default:
        printf("n = %llu, k = %g\n", n, k);
    }
    return tut_finish(1);
}
