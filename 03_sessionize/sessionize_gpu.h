/* The GPU variants, one file each, behind one interface so the driver (sessionize.cu) checks and
 * times them side by side.
 *
 *   1_cooperative.cu   the document's idea, fixed: mark boundaries, grid sync, each session's
 *                      first event walks its session (one cooperative kernel)
 *   2_scan_cub.cu      label = inclusive max-scan of (i if boundary else 0), by CUB
 *   3_scan_chained.cu  the same scan written by hand: warp scans, a block combine, and a
 *                      single-pass chained look-back across blocks
 *   4_single_pass.cu   the same single pass tuned to the copy's rate: 16-byte pairs, a scan by
 *                      ballot, 32-bit positions, look-back only where a label needs it
 *   sort_events.cu     unsorted input: find it, then a stable radix sort by (user, timestamp)
 *
 * All pointers are device pointers; every call is issued on stream 0 and checked. */
#ifndef SESSIONIZE_GPU_H
#define SESSIONIZE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "sessionize_config.h"

typedef struct {
    const int64_t *user; /* n events, sorted by (user, timestamp) */
    const int64_t *ts;
    int64_t n;           /* >= 1 */
    int64_t timeout;     /* >= 0 */
    int64_t *label;      /* out: n session ids */
    void *temp;          /* scratch of the variant's temp_bytes(n) */
} session_job;

typedef struct {
    const char *name;
    size_t (*temp_bytes)(int64_t n);
    void (*run)(const session_job *job);
} session_variant;

extern const session_variant cooperative_variant; /* 1_cooperative.cu */
extern const session_variant cub_scan_variant;    /* 2_scan_cub.cu */
extern const session_variant chained_scan_variant; /* 3_scan_chained.cu */
extern const session_variant single_pass_variant;  /* 4_single_pass.cu */

/* The launch configurations the hand-written kernels use on this GPU (sessionize_config.h), as
 * the program prints them: the cooperative variant's co-resident grid, the chained scan's blocks
 * for n events. */
session_launch cooperative_plan(void);
session_launch chained_plan(int64_t n);
session_launch single_pass_plan(int64_t n);

/* sort_events.cu. Index of the first event smaller than its predecessor in (user, timestamp)
 * order, or n if sorted. */
int64_t first_unsorted_gpu(const int64_t *user, const int64_t *ts, int64_t n);

/* Stable sort by (user, timestamp), in place; order[k] = input row of the k-th sorted event
 * (device array of n, may be NULL). */
void sort_events_gpu(int64_t *user, int64_t *ts, int64_t n, int64_t *order);

#endif
