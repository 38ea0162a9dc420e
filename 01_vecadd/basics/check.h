/* check.h: CHECK(call), the error check, and skip_without_gpu(), the no-GPU skip, taught in
 * docs/00_basics_2.md, section 7. One definition for every basics program (first_kernel.cu
 * writes both out in full, so that the first program reads on its own) and every chapter's
 * plain program (<chapter>/plain_*.cu includes it as "../01_vecadd/basics/check.h").
 * A failed call prints the call, the file and line, and the error, then exits 1; a build without
 * code for this GPU, or a driver too old for the toolkit or for the build's PTX, exits 77
 * (skipped) with a message that says which (common/device.c skips the same three). Call skip_without_gpu() after reading the
 * arguments, so that bad usage exits 2 even where there is no GPU. */
#ifndef BASICS_CHECK_H
#define BASICS_CHECK_H
#include <stdio.h>
#include <stdlib.h>

/* The errors that say this machine cannot run this build, not that the program is wrong:
 * what each means (the call skips, exit 77); NULL for any other error. */
static const char *cannot_run_here(cudaError_t err)
{
    switch (err) {
    case cudaErrorNoKernelImageForDevice: return "this build has no code for this GPU";
    case cudaErrorUnsupportedPtxVersion:
        return "the driver is too old for this build's PTX: update the driver";
    case cudaErrorInsufficientDriver:
        return "the driver is too old for this CUDA toolkit: update the driver";
    default: return NULL;
    }
}

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (cannot_run_here(err_)) {                                                      \
            printf("SKIPPED: %s (%s)\n", cannot_run_here(err_), #call);                   \
            exit(77);                                                                     \
        }                                                                                 \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error: %s\n  at %s:%d\n  %s: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorName(err_), cudaGetErrorString(err_));          \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* A machine without a CUDA GPU, or without the driver, skips: SKIPPED and exit 77 (ctest's skip).
 * Without a driver the runtime says "CUDA driver version is insufficient", as it does for a
 * driver too old; cudaDriverGetVersion tells the two apart (it gives 0 when none is installed). */
static void skip_without_gpu(void)
{
    int devices = 0, driver = 0, runtime = 0;
    const cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaSuccess && devices > 0)
        return;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    if (err == cudaErrorInsufficientDriver && driver > 0 && driver < runtime)
        printf("SKIPPED: the driver (CUDA %d.%d) is older than this toolkit's runtime (CUDA %d.%d): "
               "update the driver\n", driver / 1000, driver % 1000 / 10, runtime / 1000,
               runtime % 1000 / 10);
    else if (err != cudaSuccess)
        printf("SKIPPED: no CUDA GPU or driver found (cudaGetDeviceCount: %s: %s)\n",
               cudaGetErrorName(err), cudaGetErrorString(err));
    else
        printf("SKIPPED: no CUDA GPU or driver found (cudaGetDeviceCount: no devices)\n");
    if (err == cudaErrorNoDevice && getenv("CUDA_VISIBLE_DEVICES")) /* GPUs there, but hidden? */
        printf("  CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU it does not name\n",
               getenv("CUDA_VISIBLE_DEVICES"));
    exit(77);
}

#endif
