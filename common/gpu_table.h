/* A table of real GPUs with their published limits, for the CPU tests and for emulation.
 *
 * Each chapter's CPU tests run its configuration choices against every GPU here: each default
 * configuration and benchmark-sweep entry must fit (or be skipped with a reason), and the choice
 * must be sensible there (e.g. the most blocks per SM that fit), not merely legal. The same
 * entries are what TUT_EMULATE_GPU=<name> makes a bigger GPU report (device.h).
 *
 * Limits per compute capability are from NVIDIA's CUDA C++ Programming Guide ("Technical
 * Specifications per Compute Capability"); SM counts, L2 and memory sizes from each product's
 * datasheet. None of these GPUs but the H100/H200 was measured for this suite. */
#ifndef TUTORIAL_GPU_TABLE_H
#define TUTORIAL_GPU_TABLE_H

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number of profiles, and profile i (0 <= i < count). */
int tut_gpu_profile_count(void);
const tut_device_info *tut_gpu_profile_at(int i);

/* The profile whose name matches (case-insensitive: "T4", "a100", "RTX4090"), or NULL. */
const tut_device_info *tut_gpu_profile(const char *name);

/* "T4, V100, A100, ..." into buf, for messages. */
const char *tut_gpu_profile_names(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
