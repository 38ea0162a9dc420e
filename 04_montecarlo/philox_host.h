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

/* The fused variant's sums, computed on the CPU from the same streams, in the same order. */
mc_sums mc_replay_fused(const mc_problem *p, mc_uniform uniform);

#ifdef __cplusplus
}
#endif

#endif
