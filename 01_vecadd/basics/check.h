/* check.h: CHECK(call), the error check, and skip_without_gpu(), the no-GPU skip, taught in
 * docs/00_basics_2.md, section 7. One definition for every basics program (first_kernel.cu
 * writes both out in full, so that the first program reads on its own) and every chapter's
 * plain program (<chapter>/plain_*.cu includes it as "../01_vecadd/basics/check.h").
 * A failed call prints the call, the file and line, and the error, then exits 1; a build without
 * code for this GPU exits 77 (skipped) with a message. Call skip_without_gpu() after reading the
 * arguments, so that bad usage exits 2 even where there is no GPU. */
#ifndef BASICS_CHECK_H
#define BASICS_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ == cudaErrorNoKernelImageForDevice) {                                    \
            printf("SKIPPED: this build has no code for this GPU (%s)\n", #call);         \
            exit(77);                                                                     \
        }                                                                                 \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error: %s\n  at %s:%d\n  %s: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorName(err_), cudaGetErrorString(err_));          \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* A machine without a CUDA GPU (or without a driver) skips: SKIPPED and exit 77 (ctest's skip). */
static void skip_without_gpu(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIPPED: no CUDA GPU\n");
        exit(77);
    }
}

#endif
