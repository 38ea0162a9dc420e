/* CUBLAS_CHECK(call): like CUDA_CHECK, for cuBLAS calls. Header-only, so that only programs that
 * use cuBLAS link it. */
#ifndef TUTORIAL_CHECK_CUBLAS_H
#define TUTORIAL_CHECK_CUBLAS_H

#include <cublas_v2.h>

#include "check.h"

static inline void tut_check_cublas(cublasStatus_t status, const char *call, const char *file,
                                    int line)
{
    if (status != CUBLAS_STATUS_SUCCESS)
        tut_fail("cuBLAS", call, file, line, cublasGetStatusName(status),
                 cublasGetStatusString(status));
}

#define CUBLAS_CHECK(call) tut_check_cublas((call), #call, __FILE__, __LINE__)

#endif
