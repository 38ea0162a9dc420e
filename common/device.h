/* Finding a GPU, or saying clearly why there is none; and its limits, in one place.
 *
 *   tut_select_device(TUT_NEED_NOTHING);
 *   const tut_device_info *dev = tut_current_device();
 *
 * prints "GPU 0: NVIDIA H200, 132 SMs, 139.8 GiB, compute capability 9.0" and makes the device
 * current. With no usable GPU it prints the reason and exits with 77, which ctest and the tour
 * count as "skipped": no device or no driver ("no CUDA GPU or driver found", then the runtime's
 * words), a driver older than the toolkit, a GPU older than the oldest this build supports, a
 * GPU this build holds no code for (with the rebuild command), a missing feature.
 *
 * Every launch configuration in the suite is derived from the limits in tut_device_info (through
 * occupancy.h), never from one GPU's numbers. Setting TUT_EMULATE_GPU=T4 (or any name in
 * gpu_table.h) makes those limits, and the compute capability that feature choices use, a named
 * smaller GPU's: the programs then choose what they would choose there. Timings stay this GPU's
 * and are labelled so. */
#ifndef TUTORIAL_DEVICE_H
#define TUTORIAL_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TUT_NEED_NOTHING = 0,
    TUT_NEED_COOPERATIVE_LAUNCH = 1 << 0, /* grid-wide sync (cooperative groups) */
    TUT_NEED_CONCURRENT_COPY = 1 << 1,    /* copy engines that overlap copies with kernels */
};

/* The exit code for "no suitable GPU: skipped". */
#define TUT_EXIT_SKIP 77

/* The environment variable that picks an emulated GPU profile. */
#define TUT_EMULATE_ENV "TUT_EMULATE_GPU"

typedef struct {
    int id;
    char name[256];        /* the real GPU's name, with " (limits of a T4)" when emulating */
    int major, minor;      /* the compute capability feature choices use (emulated if so) */
    int real_major, real_minor;
    char emulated[32];     /* the profile's name, "" when the limits are the GPU's own */

    int sm_count;
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;       /* 32-bit registers */
    int regs_per_block;
    size_t shared_per_sm;             /* the most shared memory an SM holds, all blocks */
    size_t shared_per_block;          /* without opting in: 48 KiB */
    size_t shared_per_block_optin;    /* the most dynamic shared memory a block may ask for */
    size_t reserved_shared_per_block; /* what the system keeps per block (1 KiB from 8.0) */
    size_t l2_bytes;
    size_t total_bytes;
    int cooperative_launch;           /* 1 if grid-wide sync is supported */
    /* Under emulation, the real GPU's shared-memory accounting (0 otherwise): a block must fit
     * both (occupancy.h takes the smaller count). */
    size_t real_shared_per_sm;
    size_t real_reserved_shared_per_block;
    int async_engines;                /* copy engines */
} tut_device_info;

/* Returns 1 and fills *info when a device meeting the needs exists and this build can run on it;
 * otherwise 0 with the reason in why[]. Applies TUT_EMULATE_GPU. Prints nothing; exits (2) only
 * when TUT_EMULATE_GPU names no known profile. The probe and the tests use it. */
int tut_find_device(unsigned needs, tut_device_info *info, char *why, size_t why_len);

/* The number of CUDA devices, or 0 with the reason in why[]: "no CUDA GPU or driver found
 * (cudaGetDeviceCount: <error name>: <its text>)", or "the driver (CUDA 12.2) is older than this
 * toolkit's runtime (CUDA 13.0): update the driver (...)" when a driver is installed but the
 * runtime refuses it as too old. Prints nothing. */
int tut_device_count(char *why, size_t why_len);

/* The reason tut_device_count gives, from what the runtime said: error is cudaGetDeviceCount's
 * cudaError_t (0 when it found no device), driver and runtime are cudaDriverGetVersion's (0 when
 * no driver is installed) and cudaRuntimeGetVersion's, visible is CUDA_VISIBLE_DEVICES (NULL when
 * unset; named after "no device", as it may hide them all). A GPU and driver that CUDA cannot
 * start (system not ready, kernel module and library differ, forward compatibility refused, MPS
 * not answering) are named as such. Pure: the CPU tests call it. */
void tut_no_gpu_reason(int error, const char *error_name, const char *error_text, int driver,
                       int runtime, const char *visible, char *why, size_t why_len);

/* Finds and selects a device, prints one line about it, returns its id; exits 77 if none. */
int tut_select_device(unsigned needs);

/* The info of the device tut_select_device picked (valid after it returned). */
const tut_device_info *tut_current_device(void);

/* 1 if the device's compute capability (emulated, if so) is at least major.minor. Programs use it
 * to choose a feature (cp.async needs 8.0) and say the fallback when it is missing. */
int tut_device_has_cc(const tut_device_info *dev, int major, int minor);

/* Replaces dev's limits with those of `profile` (a GPU from gpu_table.h), never above the real
 * ones, and labels dev as emulating it. Exposed for the CPU tests. */
void tut_apply_profile(tut_device_info *dev, const tut_device_info *profile);

/* ---- What this build carries code for (pure functions of the architecture list) ---------- */

/* The oldest compute capability the build carries code for, as 10*major+minor (e.g. 75), from
 * the architecture list CMake compiled in; 0 when the list does not say (e.g. "native"). */
int tut_build_min_cc(void);

/* The architecture list this build was compiled for, e.g. "75-real;80-real;...;120-virtual". */
const char *tut_build_archs(void);

enum { TUT_CODE_NONE = 0, TUT_CODE_PTX = 1, TUT_CODE_NATIVE = 2, TUT_CODE_UNKNOWN = 3 };

/* Whether a CMake architecture list holds native code (a cubin that runs on major.minor), only
 * PTX the driver can compile for it, or nothing for it. */
int tut_archs_code_for(const char *archs, int major, int minor);

/* The smallest compute capability (10*major+minor) named in an architecture list, 0 if none. */
int tut_archs_min_cc(const char *archs);

#ifdef __cplusplus
}
#endif

#endif
