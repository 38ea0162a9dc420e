/* Finding a GPU, or saying clearly why there is none.
 *
 *   int dev = tut_select_device(7, 5, TUT_NEED_NOTHING);
 *
 * prints "GPU 0: NVIDIA H200, 132 SMs, 139.8 GiB, compute capability 9.0" and makes the device
 * current. With no usable GPU (no driver, no device, too old, missing feature) it prints the
 * reason and exits with 77, which ctest and the tour count as "skipped". */
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

typedef struct {
    int id;
    char name[256];
    int sm_count;
    int major, minor;
    size_t total_bytes;
    size_t l2_bytes;
    int max_threads_per_sm;
    size_t shared_per_block_optin; /* the most dynamic shared memory a block may ask for */
} tut_device_info;

/* Returns 1 and fills *info when a device meeting the needs exists; otherwise 0 with the reason
 * in why[]. Prints nothing and never exits: the probe and the tests use it. */
int tut_find_device(int min_major, int min_minor, unsigned needs, tut_device_info *info,
                    char *why, size_t why_len);

/* Finds and selects a device, prints one line about it, returns its id; exits 77 if none. */
int tut_select_device(int min_major, int min_minor, unsigned needs);

/* The info of the device tut_select_device picked (valid after it returned). */
const tut_device_info *tut_current_device(void);

#ifdef __cplusplus
}
#endif

#endif
