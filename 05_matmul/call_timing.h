/* How the driver times a variant (call_timing.cu), the same way for every kernel and for cuBLAS.
 *
 * A batch is many back-to-back calls between one pair of events (a batch lasts about
 * MATMUL_BATCH_MS), so that the launch latency of one call is not inside the window of a short
 * one. After a warm-up batch, `reps` batches are timed and the per-call time of the median batch
 * is reported, with the fastest and the slowest.
 *
 * A variant and its cuBLAS baseline are timed in the same window: their batches alternate,
 * baseline-variant, variant-baseline, baseline-variant, ..., so that neither always runs first
 * and both see the same clock, temperature and power state; its percentage of cuBLAS is the
 * ratio of the two medians of that window. While each batch runs, the host reads the SM clock
 * (gpu_clocks.h): a spread between batches comes with the clocks that explain it (or do not). */
#ifndef MATMUL_CALL_TIMING_H
#define MATMUL_CALL_TIMING_H

#include "matmul.h"
#include "variants.h"

#define MATMUL_BATCH_MS 25.0
#define MATMUL_MAX_CALLS_PER_BATCH 1000
#define MATMUL_TIME_BUDGET_MS 1500.0 /* a slow variant gets fewer batches, at least 3 */
#define MATMUL_MIN_BATCHES 3
#define MATMUL_MAX_BATCHES 1000

/* A grid has at most 65535 blocks in y (and z). The kernels put rows of C on y (columns, for
 * naive_strided), so a matrix taller than MATMUL_MAX_SLAB is computed in slabs of rows and
 * columns: each slab is an ordinary product on sub-matrices, since every kernel takes leading
 * dimensions. 65535 x 16 is a multiple of every tile size and of 4 (float4 rows). */
#define MATMUL_MAX_SLAB (65535 * 16)

/* One variant on one problem: what a call runs. */
typedef struct {
    const matmul_variant *v;
    matmul_args args;
} timed_job;

/* One call: the variant on the whole problem, slab by slab. */
void run_timed_job(const timed_job *job);

typedef struct {
    double median_ms, min_ms, max_ms; /* per call, over the batches */
    int calls, batches;
    /* The SM clock read while the batches ran (the median reading of each batch, then their
     * median, min and max), 0 when unknown; batches during which a reading found the clock held
     * down by the power cap or a thermal or hardware slowdown. */
    unsigned mhz_median, mhz_min, mhz_max;
    int limited_batches;
} call_timing;

/* Times `job` alone: reps batches (reps <= 1: one call, no warm-up, no clocks: the tests). */
call_timing time_alone(const timed_job *job, int reps);

/* Times `job` and `base` in one window, batches alternating (above); *job_t and *base_t get
 * each one's timing. reps as above; with reps <= 1 both are timed once, one after the other. */
void time_beside(const timed_job *job, const timed_job *base, int reps, call_timing *job_t,
                 call_timing *base_t);

/* One line for a timing's clocks, " SM 1980 MHz" or " SM 1575-1980 MHz (power cap in 4 of 20
 * batches)", "" when unknown. */
const char *timing_clock_text(const call_timing *t, char *buf, size_t len);

/* If the batches of t spread by more than 5% (max - min over the median), prints why they may
 * have: the clock range and the batches held down. */
void timing_explain_spread(const char *name, const call_timing *t);

#endif
