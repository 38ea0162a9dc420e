#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"

static tut_device_info current;

static int attribute(enum cudaDeviceAttr attr, int dev)
{
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, dev));
    return value;
}

int tut_find_device(int min_major, int min_minor, unsigned needs, tut_device_info *info,
                    char *why, size_t why_len)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        /* No driver ("CUDA driver version is insufficient for CUDA runtime version"), no
         * device ("no CUDA-capable device is detected"), ...: each means "no GPU here". */
        snprintf(why, why_len, "no usable CUDA GPU: cudaGetDeviceCount: %s (%s)",
                 cudaGetErrorString(err), cudaGetErrorName(err));
        cudaGetLastError(); /* clear it, so later calls do not see it */
        return 0;
    }
    if (count == 0) {
        snprintf(why, why_len, "no usable CUDA GPU: no devices found");
        return 0;
    }

    /* Device 0, unless the user picks one with CUDA_VISIBLE_DEVICES. */
    const int dev = 0;
    tut_device_info d;
    memset(&d, 0, sizeof d);
    d.id = dev;
    CUDA_CHECK(cudaDeviceGetAttribute(&d.major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&d.minor, cudaDevAttrComputeCapabilityMinor, dev));
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(d.name, sizeof d.name, "%s", prop.name);
    d.sm_count = attribute(cudaDevAttrMultiProcessorCount, dev);
    d.total_bytes = prop.totalGlobalMem;
    d.l2_bytes = (size_t)attribute(cudaDevAttrL2CacheSize, dev);
    d.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    d.shared_per_block_optin = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);

    if (d.major < min_major || (d.major == min_major && d.minor < min_minor)) {
        snprintf(why, why_len, "GPU %s has compute capability %d.%d; this program needs %d.%d",
                 d.name, d.major, d.minor, min_major, min_minor);
        return 0;
    }
    if ((needs & TUT_NEED_COOPERATIVE_LAUNCH) && !attribute(cudaDevAttrCooperativeLaunch, dev)) {
        snprintf(why, why_len, "GPU %s does not support cooperative launch (grid sync)", d.name);
        return 0;
    }
    if ((needs & TUT_NEED_CONCURRENT_COPY) && attribute(cudaDevAttrAsyncEngineCount, dev) < 1) {
        snprintf(why, why_len, "GPU %s has no copy engine that overlaps with kernels", d.name);
        return 0;
    }
    if (info)
        *info = d;
    return 1;
}

int tut_select_device(int min_major, int min_minor, unsigned needs)
{
    char why[512];
    if (!tut_find_device(min_major, min_minor, needs, &current, why, sizeof why)) {
        printf("SKIPPED: %s\n", why);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
    CUDA_CHECK(cudaSetDevice(current.id));
    printf("GPU %d: %s, %d SMs, %.1f GiB, compute capability %d.%d\n", current.id, current.name,
           current.sm_count, (double)current.total_bytes / (1u << 30), current.major,
           current.minor);
    return current.id;
}

const tut_device_info *tut_current_device(void)
{
    return &current;
}
