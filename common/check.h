/* Error checking for CUDA runtime calls and kernel launches.
 *
 * Always on (never compiled out): a failed call prints the call's text, file:line, the error's
 * name and description, and exits with code 1. Every CUDA call in this suite goes through one.
 *
 *   CUDA_CHECK(cudaMalloc(&p, bytes));
 *   kernel<<<grid, block>>>(...);
 *   LAUNCH_CHECK();            // launch errors: bad configuration, too many resources, ...
 *
 * Errors inside a running kernel (an illegal address, say) surface at the next synchronizing
 * call, which CUDA_CHECK also catches. cuBLAS and cuRAND have their own headers:
 * check_cublas.h and check_curand.h. */
#ifndef TUTORIAL_CHECK_H
#define TUTORIAL_CHECK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints the failure and exits(1) when err != cudaSuccess. */
void tut_check_cuda(cudaError_t err, const char *call, const char *file, int line);

/* Shared by the library checkers: prints "<lib> error: <call> at file:line: <name>: <text>"
 * and exits(1). */
void tut_fail(const char *lib, const char *call, const char *file, int line,
              const char *name, const char *text);

#ifdef __cplusplus
}
#endif

#define CUDA_CHECK(call) tut_check_cuda((call), #call, __FILE__, __LINE__)
#define LAUNCH_CHECK() tut_check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

#endif
