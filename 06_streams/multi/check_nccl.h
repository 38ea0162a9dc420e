/* NCCL_CHECK(call): as CUDA_CHECK (common/check.h) for NCCL's calls: a failure prints the call,
 * file:line and NCCL's text, and exits 1. */
#ifndef TUTORIAL_CHECK_NCCL_H
#define TUTORIAL_CHECK_NCCL_H

#include <nccl.h>

#include "check.h"

static inline void tut_check_nccl(ncclResult_t result, const char *call, const char *file,
                                  int line)
{
    if (result != ncclSuccess)
        tut_fail("NCCL", call, file, line, "ncclResult", ncclGetErrorString(result));
}

#define NCCL_CHECK(call) tut_check_nccl((call), #call, __FILE__, __LINE__)

#endif
