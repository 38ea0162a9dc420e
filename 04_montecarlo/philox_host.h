/* Philox4x32-10 on the CPU, bit for bit what cuRAND computes on the GPU, and a replay of the
 * fused variant's streams (streams.h), so a test can compare the GPU's sums with the same
 * numbers added on the CPU rather than only with the exact integral. */
#ifndef MC_PHILOX_HOST_H
#define MC_PHILOX_HOST_H

#include <stdint.h>

#include "estimator.h"
#include "streams.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = Philox4x32-10(counter, key), as curand_Philox4x32_10 (Salmon et al., SC'11). */
void mc_philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]);

/* Stream s (of `len` samples) as the fused kernel computes it: the same Philox numbers, the same
 * float operations in the same order. *tol gets how far the GPU's pair may be from *pair: 0 for
 * the integrands the GPU evaluates exactly as the CPU (MC_EVAL_EXACT); for 1/x and sin a bound
 * that follows every float rounding of the sums from the per-sample error of the GPU's fast f
 * (MC_EVAL_ULPS, MC_SIN_ABS_ERROR). tol may be NULL. */
void mc_replay_stream(const mc_problem *p, mc_uniform uniform, unsigned long long s, unsigned len,
                      mc_pair *pair, mc_pair *tol);

/* Every stream of the problem: out[s] and tol[s] for s < mc_stream_count(samples) (tol may be
 * NULL); returns the total, added in stream order. */
mc_sums mc_replay_streams(const mc_problem *p, mc_uniform uniform, mc_pair *out, mc_pair *tol);

/* The fused variant's sums, computed on the CPU from the same streams, in the same order. */
mc_sums mc_replay_fused(const mc_problem *p, mc_uniform uniform);

/* GPU streams against the replay's: a stream passes when |gpu - cpu| <= tol for both sums (NaN
 * never passes). */
typedef struct {
    unsigned long long streams, mismatches, first_bad; /* first_bad = streams if none */
    double max_diff; /* largest |gpu - cpu|, sums and sums of squares */
    double max_tol;  /* largest tolerance */
} mc_stream_check;
mc_stream_check mc_compare_streams(const mc_pair *gpu, const mc_pair *cpu, const mc_pair *tol,
                                   unsigned long long count);

/* A total against the streams it was added from, in any order: float64 rounding only, within
 * 4 (count - 1) 2^-53 sum |x| (a lost or doubled stream moves it by a whole stream). 1 if so. */
int mc_total_matches_streams(double total, const mc_pair *streams, unsigned long long count,
                             int squares);

#ifdef __cplusplus
}
#endif

#endif
