/* CURAND_CHECK(call): like CUDA_CHECK, for cuRAND host-API calls. cuRAND has no function that
 * names its status codes, so the table is here. Header-only. */
#ifndef TUTORIAL_CHECK_CURAND_H
#define TUTORIAL_CHECK_CURAND_H

#include <curand.h>

#include "check.h"

static inline const char *tut_curand_status_name(curandStatus_t status)
{
    switch (status) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
    }
    return "unknown cuRAND status";
}

static inline void tut_check_curand(curandStatus_t status, const char *call, const char *file,
                                    int line)
{
    if (status != CURAND_STATUS_SUCCESS)
        tut_fail("cuRAND", call, file, line, tut_curand_status_name(status),
                 "see the cuRAND host API documentation for this status");
}

#define CURAND_CHECK(call) tut_check_curand((call), #call, __FILE__, __LINE__)

#endif
