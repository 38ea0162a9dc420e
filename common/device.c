#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "gpu_table.h"

/* CMake compiles in the architecture list (cmake/Architectures.cmake). */
#ifndef TUT_BUILD_ARCHS
#define TUT_BUILD_ARCHS ""
#endif

/* Defined in kernel_image.cu: launches nothing, asks the runtime whether a kernel of this build
 * can run on the current device (cudaSuccess, or the reason it cannot). */
cudaError_t tut_kernel_image_status(void);

static tut_device_info current;

static int attribute(enum cudaDeviceAttr attr, int dev)
{
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, dev));
    return value;
}

static void read_limits(int dev, tut_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->id = dev;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->major = d->real_major = attribute(cudaDevAttrComputeCapabilityMajor, dev);
    d->minor = d->real_minor = attribute(cudaDevAttrComputeCapabilityMinor, dev);
    d->sm_count = attribute(cudaDevAttrMultiProcessorCount, dev);
    d->warp_size = attribute(cudaDevAttrWarpSize, dev);
    d->max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock, dev);
    d->max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    d->max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, dev);
    d->regs_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, dev);
    d->regs_per_block = attribute(cudaDevAttrMaxRegistersPerBlock, dev);
    d->shared_per_sm = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    d->shared_per_block = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlock, dev);
    d->shared_per_block_optin = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    d->reserved_shared_per_block = (size_t)attribute(cudaDevAttrReservedSharedMemoryPerBlock, dev);
    d->l2_bytes = (size_t)attribute(cudaDevAttrL2CacheSize, dev);
    d->total_bytes = prop.totalGlobalMem;
    d->cooperative_launch = attribute(cudaDevAttrCooperativeLaunch, dev);
    d->async_engines = attribute(cudaDevAttrAsyncEngineCount, dev);
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))

void tut_apply_profile(tut_device_info *d, const tut_device_info *p)
{
    d->real_shared_per_sm = d->shared_per_sm;
    d->real_reserved_shared_per_block = d->reserved_shared_per_block;
    /* The smaller of the two everywhere: a program sized for the profile must still run here. */
    d->sm_count = MIN(d->sm_count, p->sm_count);
    d->max_threads_per_block = MIN(d->max_threads_per_block, p->max_threads_per_block);
    d->max_threads_per_sm = MIN(d->max_threads_per_sm, p->max_threads_per_sm);
    d->max_blocks_per_sm = MIN(d->max_blocks_per_sm, p->max_blocks_per_sm);
    d->regs_per_sm = MIN(d->regs_per_sm, p->regs_per_sm);
    d->regs_per_block = MIN(d->regs_per_block, p->regs_per_block);
    d->shared_per_sm = MIN(d->shared_per_sm, p->shared_per_sm);
    d->shared_per_block = MIN(d->shared_per_block, p->shared_per_block);
    d->shared_per_block_optin = MIN(d->shared_per_block_optin, p->shared_per_block_optin);
    /* The profile's own accounting (a T4 reserves nothing, so its 64 KiB block fits its 64 KiB
     * SM); occupancy.h also checks the real GPU's (real_shared_per_sm). */
    d->reserved_shared_per_block = p->reserved_shared_per_block;
    d->l2_bytes = MIN(d->l2_bytes, p->l2_bytes);
    d->total_bytes = MIN(d->total_bytes, p->total_bytes);
    d->cooperative_launch = d->cooperative_launch && p->cooperative_launch;
    d->async_engines = MIN(d->async_engines, p->async_engines);
    /* Feature choices (cp.async from 8.0, ...) follow the profile, but never above the real GPU:
     * code for a newer GPU than this one cannot run here. */
    if (p->major < d->major || (p->major == d->major && p->minor < d->minor)) {
        d->major = p->major;
        d->minor = p->minor;
    }
    snprintf(d->emulated, sizeof d->emulated, "%.31s", p->name);
    const size_t len = strlen(d->name);
    snprintf(d->name + len, sizeof d->name - len, " (limits of a %s)", p->name);
}

int tut_device_has_cc(const tut_device_info *dev, int major, int minor)
{
    return dev->major > major || (dev->major == major && dev->minor >= minor);
}

/* ---- the architecture list ------------------------------------------------------------- */

const char *tut_build_archs(void)
{
    return TUT_BUILD_ARCHS;
}

int tut_archs_min_cc(const char *archs)
{
    int min = 0;
    for (const char *p = archs; *p;) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            const int cc = (int)strtol(p, &end, 10);
            if (min == 0 || cc < min)
                min = cc;
            p = end + strcspn(end, ";,");
        } else {
            p++;
        }
    }
    return min;
}

int tut_build_min_cc(void)
{
    return tut_archs_min_cc(TUT_BUILD_ARCHS);
}

/* One entry: "90-real" (a cubin), "90-virtual" (PTX), "90" (both); "90a" runs only on 9.0
 * exactly; "100f" (family) on every 10.x. The cc is written 10*major + minor, as CMake does. */
static int entry_code_for(const char *entry, size_t len, int major, int minor)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return TUT_CODE_NONE;
    memcpy(buf, entry, len);
    buf[len] = '\0';
    char *rest;
    const int cc = (int)strtol(buf, &rest, 10);
    if (rest == buf)
        return TUT_CODE_UNKNOWN; /* "native", "all", "all-major": only the runtime knows */
    const char suffix = (*rest == 'a' || *rest == 'f') ? *rest++ : 0;
    const int real = strcmp(rest, "-virtual") != 0;
    const int virt = strcmp(rest, "-real") != 0;
    const int cc_major = cc / 10, cc_minor = cc % 10;
    const int device = 10 * major + minor;

    int code = TUT_CODE_NONE;
    if (suffix == 'a') {
        if (device == cc) /* arch-specific code and PTX run on that one capability only */
            code = real ? TUT_CODE_NATIVE : TUT_CODE_PTX;
    } else if (major == cc_major && minor >= cc_minor) {
        code = real ? TUT_CODE_NATIVE : TUT_CODE_PTX; /* a cubin runs on later minors */
    } else if (virt && suffix == 0 && device > cc) {
        code = TUT_CODE_PTX; /* PTX compiles for any later GPU */
    }
    return code;
}

int tut_archs_code_for(const char *archs, int major, int minor)
{
    int best = TUT_CODE_NONE;
    int unknown = 0;
    const char *p = archs;
    while (*p) {
        const size_t len = strcspn(p, ";,"); /* CMake lists use ';', the compiled-in copy ',' */
        const int code = entry_code_for(p, len, major, minor);
        if (code == TUT_CODE_UNKNOWN)
            unknown = 1;
        else if (code > best)
            best = code;
        p += len + (p[len] ? 1 : 0);
    }
    return best == TUT_CODE_NONE && unknown ? TUT_CODE_UNKNOWN : best;
}

/* ---- finding the device ---------------------------------------------------------------- */

static int build_can_run(const tut_device_info *d, char *why, size_t why_len)
{
    const int min_cc = tut_build_min_cc();
    const int cc = 10 * d->real_major + d->real_minor;
    if (min_cc > 0 && cc < min_cc) {
        snprintf(why, why_len,
                 "GPU %s has compute capability %d.%d; the oldest this build supports is %d.%d "
                 "(the oldest the toolkit in use, CUDA %d.%d, compiles for)",
                 d->name, d->real_major, d->real_minor, min_cc / 10, min_cc % 10,
                 CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
        return 0;
    }
    const cudaError_t err = tut_kernel_image_status();
    if (err == cudaSuccess)
        return 1;
    cudaGetLastError();
    if (err == cudaErrorUnsupportedPtxVersion) {
        snprintf(why, why_len,
                 "the driver is too old to compile this build's PTX for GPU %s (cc %d.%d): "
                 "update the driver, or rebuild with native code for it: "
                 "cmake -DCMAKE_CUDA_ARCHITECTURES=%d%d ...",
                 d->name, d->real_major, d->real_minor, d->real_major, d->real_minor);
    } else {
        snprintf(why, why_len,
                 "this build holds no code for GPU %s (compute capability %d.%d; built for %s): "
                 "rebuild with cmake -DCMAKE_CUDA_ARCHITECTURES=%d%d ... (%s)",
                 d->name, d->real_major, d->real_minor,
                 TUT_BUILD_ARCHS[0] ? TUT_BUILD_ARCHS : "an unknown list", d->real_major,
                 d->real_minor, cudaGetErrorName(err));
    }
    return 0;
}

/* The profile TUT_EMULATE_GPU names, NULL when unset; a name not in the table is bad input
 * (exit 2), said before any GPU is looked for. */
static const tut_device_info *emulated_profile(void)
{
    const char *emulate = getenv(TUT_EMULATE_ENV);
    if (!emulate || !*emulate)
        return NULL;
    const tut_device_info *profile = tut_gpu_profile(emulate);
    if (!profile) {
        char names[256];
        fprintf(stderr, "error: %s=%s names no GPU in common/gpu_table.c; known: %s\n",
                TUT_EMULATE_ENV, emulate, tut_gpu_profile_names(names, sizeof names));
        exit(2);
    }
    return profile;
}

void tut_no_gpu_reason(int error, const char *error_name, const char *error_text, int driver,
                       int runtime, const char *visible, char *why, size_t why_len)
{
    if (error == cudaErrorInsufficientDriver && driver > 0 && driver < runtime) {
        snprintf(why, why_len,
                 "the driver (CUDA %d.%d) is older than this toolkit's runtime (CUDA %d.%d): "
                 "update the driver (cudaGetDeviceCount: %s: %s)",
                 driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10,
                 error_name, error_text);
    } else if (error == cudaErrorSystemNotReady || error == cudaErrorSystemDriverMismatch ||
               error == cudaErrorCompatNotSupportedOnDevice ||
               error == cudaErrorMpsConnectionFailed) {
        /* A GPU and a driver are there, but CUDA cannot start: say which, not "none found". */
        const char *what =
            error == cudaErrorSystemNotReady
                ? "the GPUs are not ready (on an NVSwitch machine: start nvidia-fabricmanager)"
            : error == cudaErrorSystemDriverMismatch
                ? "the NVIDIA driver's kernel module and its library differ (updated without a "
                  "reboot?): reboot, or reinstall the driver"
            : error == cudaErrorCompatNotSupportedOnDevice
                ? "the CUDA forward-compatibility library in use does not support this GPU: "
                  "update the driver instead"
                : "the MPS daemon set up for this GPU does not answer: start it, or unset "
                  "CUDA_MPS_PIPE_DIRECTORY";
        snprintf(why, why_len, "%s (cudaGetDeviceCount: %s: %s)", what, error_name, error_text);
    } else if (error == cudaErrorNoDevice && visible) {
        /* The GPUs may be there, hidden: CUDA_VISIBLE_DEVICES lists none that exists. */
        snprintf(why, why_len,
                 "no CUDA GPU or driver found (cudaGetDeviceCount: %s: %s; "
                 "CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU it does not name)",
                 error_name, error_text, visible);
    } else if (error != 0) {
        snprintf(why, why_len, "no CUDA GPU or driver found (cudaGetDeviceCount: %s: %s)",
                 error_name, error_text);
    } else {
        snprintf(why, why_len, "no CUDA GPU or driver found (cudaGetDeviceCount: no devices)");
    }
}

int tut_device_count(char *why, size_t why_len)
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0)
        return count;
    /* No driver at all reads "CUDA driver version is insufficient for CUDA runtime version",
     * the same error as a driver too old: cudaDriverGetVersion (0 when none is installed) tells
     * the two apart. */
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    tut_no_gpu_reason(err, cudaGetErrorName(err), cudaGetErrorString(err), driver, runtime,
                      getenv("CUDA_VISIBLE_DEVICES"), why, why_len);
    cudaGetLastError(); /* clear it, so later calls do not see it */
    return 0;
}

int tut_find_device(unsigned needs, tut_device_info *info, char *why, size_t why_len)
{
    const tut_device_info *profile = emulated_profile();
    if (tut_device_count(why, why_len) == 0)
        return 0;

    /* Device 0, unless the user picks one with CUDA_VISIBLE_DEVICES. */
    const int dev = 0;
    tut_device_info d;
    read_limits(dev, &d);

    if (profile)
        tut_apply_profile(&d, profile);

    CUDA_CHECK(cudaSetDevice(dev));
    if (!build_can_run(&d, why, why_len))
        return 0;
    if ((needs & TUT_NEED_COOPERATIVE_LAUNCH) && !d.cooperative_launch) {
        snprintf(why, why_len, "GPU %s does not support cooperative launch (grid sync)", d.name);
        return 0;
    }
    if ((needs & TUT_NEED_CONCURRENT_COPY) && d.async_engines < 1) {
        snprintf(why, why_len, "GPU %s has no copy engine that overlaps with kernels", d.name);
        return 0;
    }
    if (info)
        *info = d;
    return 1;
}

int tut_select_device(unsigned needs)
{
    char why[768];
    if (!tut_find_device(needs, &current, why, sizeof why)) {
        printf("SKIPPED: %s\n", why);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
    printf("GPU %d: %s, %d SMs, %.1f GiB, compute capability %d.%d\n", current.id, current.name,
           current.sm_count, (double)current.total_bytes / (1u << 30), current.major,
           current.minor);
    if (current.emulated[0])
        printf("note: %s=%s: launch choices use a %s's limits (and compute capability %d.%d); "
               "timings are this GPU's, not a %s's\n",
               TUT_EMULATE_ENV, current.emulated, current.emulated, current.major,
               current.minor, current.emulated);
    return current.id;
}

const tut_device_info *tut_current_device(void)
{
    return &current;
}
